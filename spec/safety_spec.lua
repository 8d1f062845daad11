-- No script, hostile or buggy, gets the binding to take foreign memory for its own objects:
-- sat.fast takes nothing from its caller, vecs and shapes are known by their size and stamp
-- (not by a metatable, which the debug library can give anything), on the FFI path too, and
-- the metatables are protected, so that no script writes into the tables behind them.
--
-- Where an assertion that reads a foreign object comes before one that would write into it,
-- that is on purpose: before these were fixed, the read gave a number where an error was due,
-- and the test stopped there.
local sat = require("sat")
local support = require("spec.support")
local core = support.core
local err, has = support.err, support.has
local it_native = support.needs(it, pending, "native")
local it_world = support.needs(it, pending, "world")

local jit = rawget(_G, "jit")
local accelerated = type(jit) == "table" and jit.status() and true or false
local newproxy = rawget(_G, "newproxy") -- 5.1 and LuaJIT: a zero-byte userdata

-- Small userdata of other kinds: a zero-byte proxy where there is one, and an open file
-- (its metatable given back and the file closed by the caller: see dressed). Not the file
-- where sat.fast is on: the FFI hands a C function a file's FILE *, not its userdata, so the
-- check of its length would read before that FILE (a limit of the FFI path that
-- lua/sat/fast.lua states: only the debug library can dress a file so).
local function foreign()
  local list = {}
  if not accelerated then
    list[1] = io.tmpfile()
  end
  if newproxy then
    list[#list + 1] = newproxy(true)
  end
  return list
end

-- Runs f(u) for each foreign userdata u dressed (debug.setmetatable) in metatable mt, then
-- undresses them.
local function dressed(mt, f)
  for _, u in ipairs(foreign()) do
    local own = debug.getmetatable(u)
    debug.setmetatable(u, mt)
    local ok, e = pcall(f, u)
    debug.setmetatable(u, own)
    if io.type(u) == "file" then
      u:close()
    end
    assert(ok, e)
  end
end

describe("sat.fast", function()
  it_native("takes nothing from its caller (#3)", function()
    local fast = require("sat.fast")
    local first = fast.install(core) -- the argument the install() of old took, now ignored
    -- A fake core: the real one, whose polygon metatable is a zero-byte proxy's (or a file's).
    local victim = newproxy and newproxy(true) or io.tmpfile()
    local fake = {}
    for k, v in pairs(core) do fake[k] = v end
    fake._ffi = {}
    for k, v in pairs(core._ffi) do fake._ffi[k] = v end
    fake._ffi.polygonMeta = getmetatable(victim)
    fake._ffi.circleMeta = getmetatable(victim)
    local again = fast.install(fake)
    -- the methods still refuse the proxy, the way the C methods do
    local p = sat.box(0, 0, 1, 1)
    has(err(function() local x = p.position(victim) return x end),
      "bad self to 'position' (shape expected, got ")
    has(err(function() local x = p.collidesWith(victim, p) return x end),
      "bad self to 'collidesWith' (shape expected, got ")
    assert.are.equal(first, again) -- installed once: the same functions, or nil both times
    if io.type(victim) == "file" then victim:close() end
  end)

  it_native("is handed the module's internals once, as sat loads, and they are not on show (#3)", function()
    assert.is_nil(core._ffi.take()) -- sat's own install() took them
    for _, name in ipairs({ "polygonMeta", "circleMeta", "vecMeta", "responseMeta",
                            "polygonMethods", "circleMethods", "trackMetatables" }) do
      assert.is_nil(core._ffi[name], name)
    end
    -- what is left are C functions that check their arguments, and the api's address
    for name, v in pairs(core._ffi) do
      assert.is_true(type(v) == "function" or name == "api", name)
    end
  end)
end)

describe("a userdata dressed by the debug library (#4)", function()
  it("in the vec metatable is not a vec, and is never written", function()
    local vm = debug.getmetatable(sat.vec(1, 2))
    dressed(vm, function(u)
      has(err(function() local x = u.x return x end), "vec expected, got userdata")
      has(err(function() u.x = 1 end), "vec expected, got userdata")
      has(err(function() local x = u + sat.vec(1, 1) return x end), "(vec + vec expected, got userdata + vec)")
      has(err(function() local x = sat.vec(1, 1):dot(u) return x end),
        "bad argument #1 to 'dot' (vec expected, got userdata)")
      assert.is_false(sat.isVec(u))
      -- nor do the responses written in place take it for their vecs
      local a, b = sat.circle(0, 0, 1), sat.circle(1, 0, 1)
      local r = sat.collide(a, b, { normal = u, mtv = u })
      assert.is_true(sat.isVec(r.normal) and sat.isVec(r.mtv))
      assert.are.same({ 1, 0, -1, 0 }, { r.normal.x, r.normal.y, r.mtv.x, r.mtv.y })
    end)
  end)

  it("in a shape's metatable is not a shape, on the FFI path too", function()
    local p = sat.box(0, 0, 1, 1)
    local tagged = sat.circle(0, 0, 1)
    tagged.tag = "own metatable"
    for _, shape in ipairs({ p, tagged }) do
      dressed(debug.getmetatable(shape), function(u)
        local bad = "(shape expected, got userdata)"
        has(err(function() local x = u.position(u) return x end), "bad self to 'position' " .. bad)
        has(err(function() local x = sat.test(u, p) return x end), "bad argument #1 to 'test' " .. bad)
        has(err(function() local x = p.collidesWith(p, u) return x end),
          "bad argument #2 to 'collidesWith' " .. bad)
        has(err(function() local x = sat.collide(p, u) return x end), "bad argument #2 to 'collide' " .. bad)
        has(err(function() u.move(u, 1, 1) end), "bad self to 'move' " .. bad)
        has(err(function() u.moveTo(u, 1, 1) end), "bad self to 'moveTo' " .. bad)
        assert.is_false(sat.isShape(u))
      end)
    end
    -- the shapes themselves still go the fast way where there is one
    if accelerated and support.native then
      assert.are_not.equal(core._ffi.position, p.position)
    end
    assert.are.same({ 0.5, 0.5 }, { p:position() })
  end)
end)

describe("the metatables (#16)", function()
  it("are protected: getmetatable gives their name, setmetatable cannot replace them", function()
    local p, c, v = sat.box(0, 0, 2, 2), sat.circle(0, 0, 1), sat.vec(1, 2)
    local r = sat.collide(p, c)
    assert.are.equal("sat.polygon", getmetatable(p))
    assert.are.equal("sat.circle", getmetatable(c))
    assert.are.equal("sat.vec", getmetatable(v))
    assert.are.equal("sat.response", getmetatable(r))
    p.tag, c.tag = 1, 2 -- now each has a metatable of its own
    assert.are.equal("sat.polygon", getmetatable(p))
    assert.are.equal("sat.circle", getmetatable(c))
    has(err(function() setmetatable(r, {}) end), "protected metatable")
    assert.are.equal("response", tostring(r):sub(1, 8))
  end)

  it_world("give no way to write behind a shape's fields or methods", function()
    local plain, tagged = sat.box(0, 0, 2, 2), sat.box(0, 0, 2, 2)
    tagged.tag = "wall"
    -- what the finding did: write category into the field table behind __index, so that
    -- the shape read 7 while its struct (what a world filters by) kept 1
    assert.is_false(pcall(function() getmetatable(tagged).__index.category = 7 end))
    assert.is_false(pcall(function() getmetatable(plain).__index.moveTo = print end))
    assert.are.equal(1, tagged.category)
    assert.are.equal(plain, plain:moveTo(5, 5))
    local world = sat.world(16)
    world:add(tagged)
    world:add(sat.box(1, 1, 2, 2))
    tagged.mask = 2 -- the way in: the struct and the fields agree
    assert.are.equal(2, tagged.mask)
    assert.are.equal(0, #world:collisions(tagged))
  end)
end)
