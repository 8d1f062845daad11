-- The sat module itself: what it exports, and that sat.world / sat.debug load lazily.
local support = require("spec.support")

local function fresh_sat()
  package.loaded["sat"] = nil
  return require("sat")
end

describe("require('sat')", function()
  local saved = {}
  local names = { "sat", "sat.world", "sat.debug" }

  before_each(function()
    for _, n in ipairs(names) do
      saved[n] = { loaded = package.loaded[n], preload = package.preload[n] }
      package.loaded[n] = nil
    end
  end)

  after_each(function()
    for _, n in ipairs(names) do
      package.loaded[n] = saved[n].loaded
      package.preload[n] = saved[n].preload
    end
  end)

  it("exports the narrow phase from its core", function()
    local sat = fresh_sat()
    local core = require(support.coreName)
    for _, name in ipairs({ "vec", "circle", "point", "polygon", "box", "test", "collide",
                            "isShape", "isVec" }) do
      assert.are.equal("function", type(sat[name]), name)
      if (name ~= "test" and name ~= "collide") or not support.native
        or not require("sat.fast").install() then
        assert.are.equal(core[name], sat[name], name)
      end
    end
    assert.are.equal(core, sat.core)
    assert.are.equal(support.backend, sat.backend)
  end)

  it("has a version", function()
    local sat = fresh_sat()
    assert.matches("^sat %d+%.%d+%.%d+$", sat._VERSION)
    assert.are.equal("sat " .. require(support.coreName)._VERSION, sat._VERSION)
  end)

  it("loads neither sat.world, sat.debug nor LÖVE", function()
    local loads = {}
    package.preload["sat.world"] = function() loads[#loads + 1] = "world" return {} end
    package.preload["sat.debug"] = function() loads[#loads + 1] = "debug" return {} end
    fresh_sat()
    assert.are.same({}, loads)
    assert.is_nil(package.loaded["sat.world"])
    assert.is_nil(package.loaded["sat.debug"])
    assert.is_nil(rawget(_G, "love"))
  end)

  it("sat.world(cellSize) is require('sat.world').new(cellSize), loaded on first use", function()
    local got = {}
    local loads = 0
    package.preload["sat.world"] = function()
      loads = loads + 1
      return { new = function(cellSize) got[#got + 1] = cellSize return { cell = cellSize } end }
    end
    local sat = fresh_sat()
    assert.are.equal(0, loads)
    assert.are.equal(64, sat.world(64).cell)
    assert.is_nil(sat.world().cell)
    assert.are.equal(1, loads)
    assert.are.same({ 64 }, got)
  end)

  it("sat.debug loads on first access and stays", function()
    local loads = 0
    local debugmod = {}
    package.preload["sat.debug"] = function() loads = loads + 1 return debugmod end
    local sat = fresh_sat()
    assert.are.equal(0, loads)
    assert.are.equal(debugmod, sat.debug)
    assert.are.equal(debugmod, sat.debug)
    assert.are.equal(1, loads)
    assert.is_nil(sat.nothing)
  end)
end)

describe("reloading the core module in the same Lua state", function()
  it("keeps shapes made before working, with their own fields", function()
    local name = support.coreName -- sat.core, or the pure backend's module
    local core = require(name)
    local a, b = core.circle(0, 0, 1), core.box(0, 0, 1, 1)
    package.loaded[name] = nil
    local again = require(name)
    package.loaded[name] = core
    assert.are_not.equal(core, again)
    local c = again.circle(5, 5, 1)
    a.tag, b.tag = "a", "b"
    c.tag = "c"
    assert.are.equal("a", a.tag)
    assert.are.equal("b", b.tag)
    assert.are.equal("c", c.tag)
    assert.is_nil(a:clone().other)
    assert.is_true(again.test(a, b))
    assert.is_true(core.isShape(c))
    assert.are.equal("circle(r 1 at 5, 5)", tostring(c:clone()))
  end)
end)
