-- Wrong receivers: a method called with a dot where a colon was meant (`world.step()`,
-- `shape.moveTo(1, 2)`), or through an alias with something else first, says
-- `bad self to '<method>' (<expected> expected, got <type>)` at the caller's line, for every
-- method of a world, of each kind of shape and of a vec. The method is named by its own name
-- (not the call site's: an alias has another), <type> as every message names types.
local support = require("spec.support")
local sat = require("sat")
local core = support.core

-- Compounds (concave shapes) where the backend has them (the pure one: when they land).
local hasCompounds = support.missing("compound") == nil

local SOURCE = debug.getinfo(1, "S").short_src

-- Calls f(...) from the line CALL_LINE (not a tail call: this line is the caller's), and
-- returns the error message.
local CALL_LINE = debug.getinfo(1, "l").currentline + 3
local function callBad(f, ...)
  local ok, msg = pcall(function(...)
    f(...)
  end, ...)
  assert(not ok, "no error")
  return tostring(msg)
end

local function want(method, expected, got)
  return ("%s:%d: bad self to '%s' (%s expected, got %s)"):format(SOURCE, CALL_LINE, method,
    expected, got)
end

-- Every object the specs meet, with the name a message gives its type (written out here,
-- not read from the library).
local function objects()
  local world = sat.world(16)
  local list = {
    { "nil", nil },
    { "number", 1 },
    { "string", "moveTo" },
    { "table", {} },
    { "boolean", true },
    { "function", print },
    { "world", world },
    { "vec", sat.vec(1, 2) },
    { "polygon", sat.box(0, 0, 2, 2) },
    { "circle", sat.circle(0, 0, 1) },
    { "segment", sat.segment(0, 0, 1, 1) },
    { "capsule", sat.capsule(0, 0, 1, 1, 0.5) },
    { "response", sat.collide(sat.circle(0, 0, 1), sat.circle(1, 0, 1)) },
  }
  if hasCompounds then
    list[#list + 1] = { "compound", sat.concave({ 0, 0, 4, 0, 4, 4, 2, 1, 0, 4 }) }
  end
  return list
end

-- The receivers a method refuses: every object whose type name is not in `takes`.
local function refused(takes)
  local list = {}
  for _, o in ipairs(objects()) do
    if not takes[o[1]] then
      list[#list + 1] = o
    end
  end
  return list
end

local SHAPES = { polygon = true, circle = true, segment = true, capsule = true,
                 compound = hasCompounds or nil }

-- What each method of each kind of shape takes as its receiver, every method listed.
local SHAPE_METHODS = {
  "moveTo", "move", "position", "setRotation", "rotate", "rotation", "scale", "bbox",
  "contains", "area", "kind", "clone", "raycast", "collidesWith",
}
local OWN_METHODS = {
  polygon = { vertices = "polygon or compound" },
  circle = { radius = "circle or capsule", setRadius = "circle or capsule" },
  segment = { endpoints = "segment or capsule" },
  capsule = { endpoints = "segment or capsule", radius = "circle or capsule",
              setRadius = "circle or capsule" },
  compound = { vertices = "polygon or compound", parts = "compound" },
}

-- The kinds a receiver of that expectation can be.
local function kindsOf(expected)
  if expected == "shape" then
    return SHAPES
  end
  local t = {}
  for kind in expected:gmatch("%a+") do
    if kind ~= "or" then
      t[kind] = true
    end
  end
  return t
end

local function shapeOfKind(kind)
  for _, o in ipairs(objects()) do
    if o[1] == kind then
      return o[2]
    end
  end
end

-- The methods of a shape of that kind, with what their receiver must be.
local function methodsOf(kind)
  local list = {}
  for _, name in ipairs(SHAPE_METHODS) do
    list[#list + 1] = { name, "shape" }
  end
  local own = OWN_METHODS[kind]
  local names = {}
  for name in pairs(own) do
    names[#names + 1] = name
  end
  table.sort(names)
  for _, name in ipairs(names) do
    list[#list + 1] = { name, own[name] }
  end
  return list
end

describe("a wrong receiver", function()
  it("lists every method of every kind of shape here (the method tables, read with debug)",
    function()
      for kind in pairs(SHAPES) do
        local s = shapeOfKind(kind)
        local methods = debug.getmetatable(s).__index
        local listed = {}
        for _, m in ipairs(methodsOf(kind)) do
          listed[m[1]] = true
          assert.are.equal("function", type(s[m[1]]), kind .. ":" .. m[1])
        end
        for name, f in pairs(methods) do
          if type(f) == "function" then
            assert.is_true(listed[name] == true, kind .. ":" .. name .. " is not listed here")
          end
        end
      end
    end)

  it("of a shape method, dotted or aliased, names the method and the receiver", function()
    local n = 0
    for kind in pairs(SHAPES) do
      local s = shapeOfKind(kind)
      for _, m in ipairs(methodsOf(kind)) do
        local name, expected = m[1], m[2]
        local f = s[name]
        for _, o in ipairs(refused(kindsOf(expected))) do
          assert.are.equal(want(name, expected, o[1]), callBad(f, o[2], 1, 2))
          n = n + 1
        end
        assert.are.equal(want(name, expected, "no value"), callBad(f))
      end
    end
    assert.is_true(n > 100)
  end)

  it("of a shape method written with a dot for a colon", function()
    local c, p = sat.circle(0, 0, 1), sat.box(0, 0, 2, 2)
    local line = debug.getinfo(1, "l").currentline
    local ok, msg = pcall(function() c.moveTo(1, 2) end)
    assert.is_false(ok)
    assert.are.equal(("%s:%d: bad self to 'moveTo' (shape expected, got number)")
      :format(SOURCE, line + 1), msg)
    ok, msg = pcall(function() local r = c.radius() return r end)
    assert.is_false(ok)
    assert.are.equal(("%s:%d: bad self to 'radius' (circle or capsule expected, got no value)")
      :format(SOURCE, line + 5), msg)
    ok, msg = pcall(function() local r = c.collidesWith(p) return r end) -- no other shape
    assert.is_false(ok)
    assert.is_truthy(msg:find("bad argument #2 to 'collidesWith' (shape expected, got no value)",
      1, true), msg)
    -- with a colon the receiver is right, and the arguments count from the first after it
    ok, msg = pcall(function() c:moveTo("x", 2) end)
    assert.is_false(ok)
    assert.is_truthy(msg:find("bad argument #1 to 'moveTo' (number expected, got string)",
      1, true), msg)
  end)

  local it_native = support.needs(it, pending, "native")
  it_native("of a shape method on LuaJIT's FFI path fails exactly as the C method does", function()
    -- core._ffi holds the C methods that sat.fast stands in front of (elsewhere the
    -- shapes' methods are those C functions themselves)
    local c = sat.circle(0, 0, 1)
    for _, name in ipairs({ "collidesWith", "move", "moveTo", "position" }) do
      local cfn = core._ffi[name]
      assert.are.equal("function", type(cfn))
      for _, o in ipairs(refused(SHAPES)) do
        local got = callBad(c[name], o[2], 1, 2)
        assert.are.equal(callBad(cfn, o[2], 1, 2), got)
        assert.are.equal(want(name, "shape", o[1]), got)
      end
      assert.are.equal(callBad(cfn), callBad(c[name]))
    end
  end)

  it("of a world method names the method and the receiver", function()
    local world = sat.world(16)
    local methods = {}
    for name, f in pairs(getmetatable(world)) do
      if type(f) == "function" and name ~= "__tostring" then
        methods[#methods + 1] = name
      end
    end
    table.sort(methods)
    -- every method of the API, and nothing the world has is missed
    assert.are.same({ "add", "addResponse", "cellSize", "cells", "check", "collisions", "count",
      "digest", "has", "isStatic", "levels", "move", "mover", "neighbors", "on", "push",
      "queryCast", "queryPoint", "queryRect", "querySegment", "queryShape", "remove", "restore",
      "setFilter", "shapes", "snapshot",
      "step" }, methods)
    methods[#methods + 1] = "__tostring"
    local shape = world:add(sat.circle(0, 0, 1))
    for _, name in ipairs(methods) do
      local f = world[name]
      for _, o in ipairs(refused({ world = true })) do
        assert.are.equal(want(name, "world", o[1]), callBad(f, o[2], shape, 1, 2))
      end
      -- a Lua function cannot tell a missing argument from nil
      assert.are.equal(want(name, "world", "nil"), callBad(f))
    end
    assert.are.equal(1, world:count()) -- nothing done by any of them
    assert.is_true(world:has(shape))
    -- a table given a world's metatable is not a world
    local fake = setmetatable({ hash = world.hash, token = world.token }, getmetatable(world))
    assert.are.equal(want("count", "world", "table"), callBad(world.count, fake))
    assert.are.equal(want("add", "world", "table"), callBad(world.add, fake, sat.circle(0, 0, 1)))
    assert.are.equal(1, world:count())
  end)

  it("of a world method written with a dot for a colon: world.step(), world.add(shape)",
    function()
      local world = sat.world(16)
      local shape = sat.circle(0, 0, 1)
      local line = debug.getinfo(1, "l").currentline
      local ok, msg = pcall(function() world.step() end)
      assert.is_false(ok)
      assert.are.equal(("%s:%d: bad self to 'step' (world expected, got nil)")
        :format(SOURCE, line + 1), msg)
      ok, msg = pcall(function() world.add(shape) end)
      assert.is_false(ok)
      assert.are.equal(("%s:%d: bad self to 'add' (world expected, got circle)")
        :format(SOURCE, line + 5), msg)
      ok, msg = pcall(function() world.move(shape, 1, 0) end)
      assert.is_false(ok)
      assert.are.equal(("%s:%d: bad self to 'move' (world expected, got circle)")
        :format(SOURCE, line + 9), msg)
      assert.are.equal(0, world:count())
    end)

  it("of a vec method names the method and the receiver", function()
    local v = sat.vec(3, 4)
    local names = { "clone", "unpack", "dot", "cross", "len", "len2", "normalized", "perp",
                    "rotated", "projectOn", "reflect", "dist" }
    for _, name in ipairs(names) do
      local f = v[name]
      assert.are.equal("function", type(f), name)
      for _, o in ipairs(refused({ vec = true })) do
        assert.are.equal(want(name, "vec", o[1]), callBad(f, o[2], v))
      end
      assert.are.equal(want(name, "vec", "no value"), callBad(f))
    end
    -- the second vec of a method taking two is an argument as before
    local ok, msg = pcall(function() local d = v:dot(1) return d end)
    assert.is_false(ok)
    assert.is_truthy(msg:find("bad argument #1 to 'dot' (vec expected, got number)", 1, true))
  end)
end)
