-- The LuaLS definition file (library/sat.lua) against the live module, both ways: every
-- public function, method, field and result table has a definition, and every definition
-- names something that exists. The live names are found by walking the objects, not from a
-- list kept here: the module's tables (and the names it loads lazily), the tables a shape's,
-- a vec's and a world's keys are looked up in (through debug.getmetatable, since the
-- binding protects its metatables), the keys of real results (a response, a collision, a
-- query hit, an explanation, a debug cell), the fields the Lua layer reads as shape hooks
-- and as sat.debug's options. A Lua function's parameter count must match its definition's
-- (Lua 5.2+ and LuaJIT tell it).
local sat = require("sat")
local support = require("spec.support")
-- on the pure backend, pending until its compounds and its world land
local it_compound = support.needs(it, pending, "compound")
local it_world = support.needs(it, pending, "world")

local DEFS = "library/sat.lua"

-- names the module has that are not public (README.md: internal to sat.world and sat.fast)
local INTERNAL = { ["sat.core"] = { newHash = true, _ffi = true, ghost = true,
                                     transformBits = true, setTransformBits = true } }

local function readFile(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- ---- the definition file --------------------------------------------------------------

-- classes[name] = { parents = {...}, fields = {name -> {optional, type}}, operators = {op},
--   funcs = {name -> list of {count, vararg, params = {type...}, returns = {type...}}} }
-- count includes self for a `function X:name` definition; `...` is vararg, not counted.
local function parseDefinitions(text)
  local classes, vars, aliases = {}, {}, {}
  local current, block, module = nil, {}, nil
  local function class(name)
    if not classes[name] then
      classes[name] = { name = name, parents = {}, fields = {}, operators = {}, funcs = {} }
    end
    return classes[name]
  end
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:sub(1, 3) == "---" then
      block[#block + 1] = line
      local alias, atype = line:match("^%-%-%-@alias%s+([%w_%.]+)%s+(%S+)")
      if alias then aliases[alias] = atype end
      local name, rest = line:match("^%-%-%-@class%s+([%w_%.]+)(.*)$")
      if name then
        current = class(name)
        local parents = rest:match("^%s*:%s*(.-)%s*$")
        if parents then
          for p in parents:gmatch("[%w_%.]+") do current.parents[#current.parents + 1] = p end
        end
      elseif current and line:match("^%-%-%-@field%s") then
        local spec = line:gsub("^%-%-%-@field%s+", ""):gsub("^(%a+)%s+", function(w)
          if w == "private" or w == "protected" or w == "public" or w == "package" then return "" end
        end)
        local fname, optional, ftype = spec:match("^([%a_][%w_]*)(%??)%s+(%S+)")
        if fname then
          current.fields[fname] = { optional = optional == "?", type = ftype }
        end
      elseif current and line:match("^%-%-%-@operator%s") then
        current.operators[line:match("^%-%-%-@operator%s+(%a+)")] = true
      end
    else
      local var = line:match("^local%s+([%a_][%w_]*)%s*=%s*{%s*}")
      if var and current then
        vars[var] = current.name
      end
      local owner, sep, fname, params = line:match("^function%s+([%a_][%w_]*)([%.:])([%a_][%w_]*)%s*%(([^)]*)%)")
      if owner then
        local c = classes[assert(vars[owner], "a function of " .. owner .. ", which names no class")]
        local def = { count = sep == ":" and 1 or 0, vararg = false, params = {}, returns = {} }
        for p in params:gmatch("[^,%s]+") do
          if p == "..." then def.vararg = true else def.count = def.count + 1 end
        end
        for _, doc in ipairs(block) do
          local pname, ptype = doc:match("^%-%-%-@param%s+([%w_%.]+)%??%s+(%S+)")
          if pname then def.params[#def.params + 1] = ptype:gsub("%?$", "") end
          local rtype = doc:match("^%-%-%-@return%s+(%S+)")
          if rtype then def.returns[#def.returns + 1] = rtype end
        end
        c.funcs[fname] = c.funcs[fname] or {}
        table.insert(c.funcs[fname], def)
      end
      module = line:match("^return%s+([%a_][%w_]*)%s*$") or module
      current, block = nil, {}
    end
  end
  return classes, module and vars[module], aliases
end

local CLASSES, MODULE, ALIASES = parseDefinitions(readFile(DEFS))

-- A class's members with its parents' (its own last): fields and funcs by name.
local function members(name)
  local c = assert(CLASSES[name], "no class " .. name .. " in " .. DEFS)
  local fields, funcs, operators = {}, {}, {}
  for _, p in ipairs(c.parents) do
    local pf, pg, po = members(p)
    for k, v in pairs(pf) do fields[k] = v end
    for k, v in pairs(pg) do funcs[k] = v end
    for k in pairs(po) do operators[k] = true end
  end
  for k, v in pairs(c.fields) do fields[k] = v end
  for k, v in pairs(c.funcs) do funcs[k] = v end
  for k in pairs(c.operators) do operators[k] = true end
  return fields, funcs, operators
end

local function inherits(name, ancestor)
  if name == ancestor then return true end
  for _, p in ipairs(CLASSES[name] and CLASSES[name].parents or {}) do
    if inherits(p, ancestor) then return true end
  end
  return false
end

-- Whether v fits a declared type (the first word of a ---@field or ---@param: a type
-- written with spaces, as `fun(a: T)`, is told by its start). Unknown names fit anything.
local function fits(declared, v)
  declared = declared:gsub("%?$", "")
  if ALIASES[declared] then return fits(ALIASES[declared], v) end
  if declared:find("|", 1, true) then
    for part in declared:gmatch("[^|]+") do
      if fits(part, v) then return true end
    end
    return false
  end
  if declared == "number" or declared == "boolean" or declared == "string" or declared == "table" then
    return type(v) == declared
  elseif declared == "integer" then
    return type(v) == "number" and v == math.floor(v)
  elseif declared:match('^".*"$') then
    return v == declared:sub(2, -2)
  elseif declared:sub(1, 4) == "fun(" then
    return type(v) == "function"
  elseif declared:match("%[%]$") then
    return type(v) == "table"
  elseif declared == "sat.Vec" then
    return sat.isVec(v)
  elseif CLASSES[declared] and inherits(declared, "sat.Shape") then
    return sat.isShape(v)
  elseif CLASSES[declared] then
    return type(v) == "table"
  end
  return true
end

-- ---- the live objects -------------------------------------------------------------------

local function isMeta(k)
  return type(k) == "string" and k:sub(1, 2) == "__"
end

-- The names obj's keys are found under, as a lookup goes: the metatable's __index, a table
-- (and its own metatable's __index, on and on) or a function (then the tables among its
-- upvalues that it answers from: every entry of such a table is what obj gives for its key).
-- Returns name -> value, and false when a lookup function's upvalues cannot be read (C
-- functions' under Lua 5.1). A table's own keys are names too, unless inherited only is
-- set (a world's own keys are its private state).
local function lookupNames(obj, inheritedOnly)
  local found, seen, sighted = {}, {}, true
  local follow
  local function scan(t, depth)
    if seen[t] then return end
    seen[t] = true
    local k, v = next(t)
    while k ~= nil do
      if type(k) == "string" and not isMeta(k) and found[k] == nil then found[k] = v end
      k, v = next(t, k)
    end
    local mt = debug.getmetatable(t)
    if mt and depth < 8 then follow(mt.__index, depth + 1) end
  end
  follow = function(index, depth)
    if type(index) == "table" then
      scan(index, depth)
    elseif type(index) == "function" then
      local i, any = 1, false
      while true do
        local name, up = debug.getupvalue(index, i)
        if name == nil then break end
        any = true
        if type(up) == "table" and up ~= _G and next(up) ~= nil then
          local answers, k, v = true, next(up)
          while k ~= nil and answers do
            local ok, got = pcall(function() return obj[k] end)
            answers = type(k) == "string" and ok and rawequal(got, v)
            k, v = next(up, k)
          end
          if answers then scan(up, depth) end
        end
        i = i + 1
      end
      sighted = sighted and any
    end
  end
  local mt = debug.getmetatable(obj)
  if type(obj) == "table" and not inheritedOnly then
    scan(obj, 0)
  elseif mt then
    follow(mt.__index, 0)
  end
  return found, sighted
end

-- The operators LuaLS's ---@operator names, by metamethod.
local OPERATORS = {
  __add = "add", __sub = "sub", __mul = "mul", __div = "div", __mod = "mod", __pow = "pow",
  __unm = "unm", __idiv = "idiv", __band = "band", __bor = "bor", __bxor = "bxor",
  __shl = "shl", __shr = "shr", __bnot = "bnot", __concat = "concat", __len = "len",
  __call = "call",
}

-- The parameter count of a Lua function and whether it is vararg (nil where not told:
-- C functions, Lua 5.1).
local function arity(f)
  local ok, info = pcall(debug.getinfo, f, "Su")
  if not ok or not info or info.what ~= "Lua" or info.nparams == nil then return nil end
  return info.nparams, info.isvararg
end

-- Compares the live names of an object with the members of its class, both ways; returns
-- the problems as lines. live: name -> value (from a walk); obj: indexed as a user would.
local function compare(label, class, obj, live, problems, internal)
  local fields, funcs, operators = members(class)
  internal = internal or {}
  for _, name in ipairs(sorted(live)) do
    if not internal[name] and not fields[name] and not funcs[name] then
      problems[#problems + 1] = ("%s.%s (%s) has no definition in class %s"):format(label, name,
        type(live[name]), class)
    end
  end
  for _, name in ipairs(sorted(funcs)) do
    local v = obj[name]
    if type(v) ~= "function" then
      problems[#problems + 1] = ("%s: %s defines %s(), which is %s"):format(label, class, name,
        v == nil and "missing" or "a " .. type(v))
    else
      local n, vararg = arity(v)
      if n then
        local most, defVararg = 0, false
        for _, def in ipairs(funcs[name]) do
          most = math.max(most, def.count)
          defVararg = defVararg or def.vararg
        end
        if (defVararg and not vararg) or (not vararg and n ~= most) or (vararg and n > most) then
          problems[#problems + 1] = ("%s.%s takes %d parameters%s; its definitions up to %d%s")
            :format(label, name, n, vararg and " and ..." or "", most, defVararg and " and ..." or "")
        end
      end
    end
  end
  for _, name in ipairs(sorted(fields)) do
    local f, v = fields[name], obj[name]
    local hook = f.type:sub(1, 4) == "fun(" -- (a function the game may set: tested by its call)
    if v == nil and not (f.optional and hook) then
      problems[#problems + 1] = ("%s: %s defines field %s, which is missing"):format(label, class, name)
    elseif v ~= nil and not fits(f.type, v) then
      problems[#problems + 1] = ("%s: %s's field %s is declared %s but is %s"):format(label,
        class, name, f.type, tostring(v))
    end
  end
  local mt = debug.getmetatable(obj)
  local has = {}
  if mt then
    for meta, op in pairs(OPERATORS) do
      if rawget(mt, meta) ~= nil then has[op] = true end
    end
  end
  for _, op in ipairs(sorted(has)) do
    if not operators[op] then
      problems[#problems + 1] = ("%s has operator %s, not declared in %s"):format(label, op, class)
    end
  end
  for _, op in ipairs(sorted(operators)) do
    if not has[op] then
      problems[#problems + 1] = ("%s: %s declares operator %s, which it lacks"):format(label, class, op)
    end
  end
  return problems
end

-- Result tables: every key of every sample is a field of the class; every field it does not
-- mark optional is in every sample, every optional one in at least one.
local function compareTables(label, class, samples, problems)
  local fields = members(class)
  local seen = {}
  for i, t in ipairs(samples) do
    local k = next(t)
    while k ~= nil do
      seen[k] = true
      if not fields[k] then
        problems[#problems + 1] = ("%s #%d has key %s, no field of %s"):format(label, i, tostring(k), class)
      elseif not fits(fields[k].type, t[k]) then
        problems[#problems + 1] = ("%s #%d: %s is %s, declared %s"):format(label, i, tostring(k),
          tostring(t[k]), fields[k].type)
      end
      k = next(t, k)
    end
    for name, f in pairs(fields) do
      if not f.optional and rawget(t, name) == nil then
        problems[#problems + 1] = ("%s #%d lacks %s, a field of %s"):format(label, i, name, class)
      end
    end
  end
  for name, f in pairs(fields) do
    if f.optional and not seen[name] then
      problems[#problems + 1] = ("%s: no sample has %s's optional field %s"):format(label, class, name)
    end
  end
  return problems
end

local function report(problems)
  table.sort(problems)
  return table.concat(problems, "\n")
end

-- The Lua files of the layer: where the functions of every sat module loaded come from
-- (sat.world and sat.debug loaded first).
local function layerFiles()
  assert(sat.world() and sat.debug)
  local paths, files = {}, {}
  for name, m in pairs(package.loaded) do
    if name == "sat" or name:sub(1, 4) == "sat." then
      for _, v in pairs(type(m) == "table" and m or { m }) do
        local info = type(v) == "function" and debug.getinfo(v, "S")
        if info and info.source:sub(1, 1) == "@" then paths[info.source:sub(2)] = true end
      end
    end
  end
  for _, path in ipairs(sorted(paths)) do
    files[#files + 1] = { path = path, text = readFile(path) }
  end
  return files
end

-- One of each kind, built by the module's constructors, with the class of each.
local function samples()
  return {
    { sat.box(0, 0, 2, 2), "sat.Polygon", "box" },
    { sat.polygon(0, 0, 2, 0, 0, 2), "sat.Polygon", "polygon" },
    { sat.circle(0, 0, 1), "sat.Circle", "circle" },
    { sat.point(1, 1), "sat.Circle", "point" },
    { sat.segment(0, 0, 2, 0), "sat.Segment", "segment" },
    { sat.capsule(0, 0, 2, 0, 1), "sat.Capsule", "capsule" },
    { sat.concave(0, 0, 4, 0, 4, 4, 2, 1, 0, 4), "sat.Compound", "concave" },
    { sat.compound({ sat.circle(0, 0, 1), sat.box(2, 0, 1, 1) }), "sat.Compound", "compound" },
    { sat.chain({ 0, 0, 1, 1, 2, 0 }), "sat.Compound", "chain" },
  }
end

-- ---- the checks -----------------------------------------------------------------------------

describe("the LuaLS definitions (library/sat.lua)", function()
  it("parse into the classes the API has, returned as the module", function()
    assert.equal("sat", MODULE)
    for _, name in ipairs({ "sat", "sat.core", "sat.Vec", "sat.Shape", "sat.Polygon", "sat.Circle",
        "sat.Segment", "sat.Capsule", "sat.Compound", "sat.Response", "sat.Collision",
        "sat.SegmentHit", "sat.Explanation", "sat.ExplainAxis", "sat.World", "sat.debug" }) do
      assert.is_table(CLASSES[name])
    end
    -- a definition of each sort was read (a parser that reads nothing would pass the rest)
    local _, funcs = members("sat.World")
    assert.equal(1, #funcs.move)
    assert.equal(6, funcs.move[1].count) -- self, shape, dx, dy, filter, cols
    assert.equal("sat.MoveFilter", funcs.move[1].params[4])
    local fields = members("sat.Collision")
    assert.is_false(fields.overlap.optional)
    assert.is_true(CLASSES["sat.Vec"].operators.unm)
  end)

  it("cover the module sat and sat.core, and name nothing they lack", function()
    local live = lookupNames(sat)
    -- and what sat loads on first access (the tables its __index answers from)
    local index = getmetatable(sat) and getmetatable(sat).__index
    if type(index) == "table" then
      for k, v in pairs(index) do live[k] = v end
    elseif type(index) == "function" then
      local i = 1
      while debug.getupvalue(index, i) do
        local _, up = debug.getupvalue(index, i)
        if type(up) == "table" and up ~= _G and up ~= package.loaded then
          for k in pairs(up) do
            if type(k) == "string" and sat[k] ~= nil then live[k] = sat[k] end
          end
        end
        i = i + 1
      end
    end
    assert.is_table(live.debug) -- the lazy module was found
    local problems = compare("sat", "sat", sat, live, {})
    compare("sat.core", "sat.core", sat.core, lookupNames(sat.core), problems, INTERNAL["sat.core"])
    for name in pairs(INTERNAL["sat.core"]) do
      -- (an internal name that went away leaves the list; the pure backend has no FFI path,
      -- and its hash comes with its world)
      if not (name == "_ffi" and not support.native) and not (name == "newHash" and support.missing("world")) then
        assert.is_not_nil(sat.core[name])
      end
    end
    assert.equal("", report(problems))
  end)

  it("cover vecs: methods, fields and operators", function()
    local v = sat.vec(3, 4)
    local live, sighted = lookupNames(v)
    -- C functions' upvalues are hidden from the debug library of Lua 5.1 alone: there the
    -- walk cannot list a vec's methods, and the other Luas do it
    assert.is_true(sighted or (_VERSION == "Lua 5.1" and not jit))
    if sighted then assert.is_function(live.normalized) end
    local problems = compare("vec", "sat.Vec", v, live, {})
    assert.equal("", report(problems))
    local fields = members("sat.Vec")
    for name in pairs(fields) do assert.is_number(v[name]) end
  end)

  it_compound("cover every kind of shape: methods, fields and the constructors' results", function()
    local problems = {}
    local _, moduleFuncs = members("sat")
    for _, s in ipairs(samples()) do
      local shape, class, ctor = s[1], s[2], s[3]
      local live, sighted = lookupNames(shape)
      assert.is_true(sighted)
      assert.is_function(live.moveTo)
      assert.is_number(live.category) -- the defaults are found behind the methods
      compare(ctor .. "()", class, shape, live, problems)
      local kind = shape:kind()
      if class ~= "sat." .. kind:sub(1, 1):upper() .. kind:sub(2) then
        problems[#problems + 1] = ("%s() makes a %s, defined as %s"):format(ctor, kind, class)
      end
      for _, def in ipairs(moduleFuncs[ctor]) do
        if def.returns[1] ~= class then
          problems[#problems + 1] = ("sat.%s is declared to return %s, not %s"):format(ctor,
            tostring(def.returns[1]), class)
        end
      end
    end
    assert.equal("", report(problems))
  end)

  it_world("cover the hooks a shape may have: each one is called, and the Lua layer reads no other", function()
    local fields = members("sat.Shape")
    local hooks = {}
    for name, f in pairs(fields) do
      if f.type:sub(1, 4) == "fun(" then hooks[name] = true end
    end
    assert.is_true(next(hooks) ~= nil)
    -- every field the Lua layer reads as `x.onSomething` or names as "onSomething"
    local read, files = {}, layerFiles()
    assert.is_true(#files >= 3) -- init.lua, world.lua, debug.lua at least
    for _, file in ipairs(files) do
      local code = file.text:gsub("%-%-[^\n]*", "")
      for name in code:gmatch("%.(on%u[%w_]*)") do read[name] = true end
      for name in code:gmatch("[\"'](on%u[%w_]*)[\"']") do read[name] = true end
    end
    assert.same(sorted(hooks), sorted(read))
    -- each is called: a pair that begins, lasts and ends
    local world = sat.world(8)
    local a, b = sat.circle(0, 0, 1), sat.circle(1, 0, 1)
    world:add(a)
    world:add(b)
    local called = {}
    for name in pairs(hooks) do
      a[name] = function(self, other)
        assert.equal(a, self)
        assert.equal(b, other)
        called[name] = true
      end
    end
    world:step()
    world:step()
    b:moveTo(10, 0)
    world:step()
    assert.same(sorted(hooks), sorted(called))
  end)

  it_world("cover the world's methods", function()
    local world = sat.world()
    local live = lookupNames(world, true) -- (its own fields are its private state)
    assert.is_function(live.step)
    local problems = compare("world", "sat.World", world, live, {})
    assert.equal("", report(problems))
  end)

  it_world("cover the result tables: responses, collisions, query hits, explanations", function()
    local problems = {}
    local world = sat.world(8)
    local a, b, far = sat.box(0, 0, 2, 2), sat.box(1, 0, 2, 2), sat.circle(20, 20, 1)
    world:add(a)
    world:add(b)
    world:add(far)
    local fromStep
    world:on("enter", function(_, _, r) fromStep = r end)
    world:step()
    -- (a compound's parts: part and ownPart)
    local w2 = sat.world(8)
    local rock = w2:add(sat.compound({ sat.box(0, 0, 2, 2), sat.box(4, 0, 2, 2) }))
    local probe = w2:add(sat.circle(5, 1, 0.5))
    local inRock = w2:collisions(rock)[1]
    assert.equal(2, inRock.ownPart)
    compareTables("sat.collide", "sat.Response", { sat.collide(a, b), world:collisions(a)[1], fromStep,
      w2:collisions(probe)[1], inRock }, problems)
    w2:remove(probe)
    local ball = w2:add(sat.circle(10, 1, 1))
    local _, _, cols = world:move(far, -20, -20)
    assert.is_true(#cols > 0)
    local pcol = select(3, w2:move(ball, -10, 0))[1] -- onto part 2
    local ocol = select(3, w2:move(rock, 5, 0))[1] -- part 2 onto the ball
    assert.equal(2, pcol.part)
    assert.equal(2, ocol.ownPart)
    compareTables("world:move", "sat.Collision", { cols[1], pcol, ocol }, problems)
    local hits = world:querySegment(-5, 1, 30, 1)
    assert.is_true(#hits > 0)
    hits[#hits + 1] = w2:querySegment(-20, 1, 30, 1)[1]
    assert.equal(1, hits[#hits].part)
    compareTables("world:querySegment", "sat.SegmentHit", hits, problems)
    local cast = w2:queryCast(sat.compound({ sat.circle(0, 0, 1), sat.circle(3, 0, 1) }), 100, 1)
    cast[#cast + 1] = world:queryCast(sat.circle(-10, 1, 1), 20, 0)[1]
    assert.is_true(#cast >= 2)
    compareTables("world:queryCast", "sat.CastHit", cast, problems)
    local hit, miss = sat.explain(a, b), sat.explain(a, sat.circle(50, 50, 1))
    assert.is_true(hit.hit)
    assert.is_false(miss.hit)
    compareTables("sat.explain", "sat.Explanation", { hit, miss }, problems)
    compareTables("sat.explain's axes", "sat.ExplainAxis", hit.axes, problems)
    assert.equal("", report(problems))
  end)

  it("cover sat.level: its functions and the options each takes", function()
    local lvl = sat.level
    local problems = compare("sat.level", "sat.level", lvl, lookupNames(lvl), {})
    -- the options a call takes are the names its refusal of an unknown one lists
    local calls = {
      grid = { "sat.level.GridOptions", function(o) return lvl.grid(sat.world(), { "#" }, 1, 1, o) end },
      tiled = { "sat.level.TiledOptions", function(o)
        return lvl.tiled(sat.world(), { orientation = "orthogonal", tilewidth = 1, tileheight = 1, layers = {} }, o)
      end },
    }
    for _, name in ipairs(sorted(calls)) do
      local ok, msg = pcall(calls[name][2], { ["?"] = true })
      assert.is_false(ok)
      local listed = {}
      for option in tostring(msg):match("%(options: ([^)]*)%)"):gmatch("[%w_]+") do listed[#listed + 1] = option end
      assert.same(sorted(members(calls[name][1])), listed)
    end
    local shapes = lvl.grid(sat.world(), { "#" }, 1, 1)
    assert.is_true(sat.isShape(shapes[1]))
    local got, warnings = lvl.tiled(sat.world(), { orientation = "orthogonal", tilewidth = 1, tileheight = 1,
      layers = { { type = "imagelayer", name = "i", properties = { collidable = true } } } })
    assert.same({}, got)
    assert.is_string(warnings[1])
    assert.equal("", report(problems))
  end)

  it_world("cover sat.debug: functions, sizes, colours, cells and options", function()
    local draw = sat.debug
    local problems = compare("sat.debug", "sat.debug", draw, lookupNames(draw), {})
    local colors = {}
    for k, v in pairs(draw.colors) do colors[k] = v end
    compare("sat.debug.colors", "sat.debug.Colors", draw.colors, colors, problems)
    compare("sat.debug.colors", "sat.debug.ColorOverrides", draw.colors, colors, problems)
    local world = sat.world(8)
    world:add(sat.box(0, 0, 4, 4))
    world:add(sat.circle(30, 0, 20))
    compareTables("sat.debug.cells", "sat.debug.Cell", draw.cells(world), problems)
    -- the options a function of sat.debug reads (`options.name` in its body) are the fields
    -- of the class its definition gives that parameter
    local _, funcs = members("sat.debug")
    local checked = 0
    for _, name in ipairs(sorted(funcs)) do
      for _, def in ipairs(funcs[name]) do
        for k, ptype in ipairs(def.params) do
          if ptype:match("Options$") then
            local info = debug.getinfo(draw[name], "S")
            local lines, i = {}, 0
            for line in io.lines((info.source:gsub("^@", ""))) do
              i = i + 1
              if i >= info.linedefined and i <= info.lastlinedefined then lines[#lines + 1] = line end
            end
            local body = table.concat(lines, "\n")
            local params = {}
            for p in body:match("^[^(]*%(([^)]*)%)"):gmatch("[%a_][%w_]*") do params[#params + 1] = p end
            local read = {}
            for field in body:gsub("%-%-[^\n]*", ""):gmatch("%f[%w_]" .. params[k] .. "%.([%a_][%w_]*)") do
              read[field] = true
            end
            assert.same(sorted(members(ptype)), sorted(read))
            checked = checked + 1
          end
        end
      end
    end
    assert.equal(2, checked) -- drawWorld's and drawResponse's
    assert.equal("", report(problems))
  end)
end)
