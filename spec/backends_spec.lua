-- The two backends (issue 26): how sat.backend chooses between the native module and the
-- pure-Lua one, what forces the choice, and both side by side in one process
-- (require("sat.backend").new): independent, each knowing only its own objects, raising the
-- same errors word for word (position included) for every error the other specs check.
local sat = require("sat")
local support = require("spec.support")
local backend = require("sat.backend")
local err, has = support.err, support.has

local PURE = "sat.pure.lsat_module"

-- The native module, when one loads here (the busted suites build it for every Lua).
local nativeFound = pcall(require, "sat.core")

describe("sat.backend", function()
  it("is the one the suite asked for, and sat says which", function()
    local env = os.getenv("SAT_BACKEND")
    if env == "lua" or env == "native" then
      assert.are.equal(env, backend.name)
    end
    assert.are.equal(backend.name, sat.backend)
    assert.are.equal(backend.core, sat.core)
    assert.are.equal(backend.nativeError, sat.nativeError)
    assert.are.equal(package.loaded[backend.module], backend.core)
    if backend.name == "native" then
      assert.are.equal(package.loaded["sat.core"], sat.core)
      assert.is_false(sat.nativeError)
    else
      assert.are.equal(package.loaded[PURE], sat.core)
    end
  end)

  describe("forced", function()
    local function getenv(value)
      return function(name)
        assert.are.equal("SAT_BACKEND", name)
        return value
      end
    end

    it("by the global, then by the environment", function()
      assert.are.equal("lua", backend.forced("lua", getenv("native")))
      assert.are.equal("native", backend.forced("native", getenv("lua")))
      assert.are.equal("lua", backend.forced(nil, getenv("lua")))
      assert.are.equal("native", backend.forced(nil, getenv("native")))
    end)

    it("by nothing when both are unset or empty", function()
      assert.is_nil(backend.forced(nil, getenv(nil)))
      assert.is_nil(backend.forced(nil, getenv("")))
      assert.is_nil(backend.forced("", getenv("lua")))
    end)

    it("by nothing when os.getenv is missing or fails (LÖVE builds, love.js)", function()
      local saved = os.getenv
      os.getenv = nil -- luacheck: ignore 122
      local ok, got = pcall(backend.forced, nil)
      os.getenv = saved -- luacheck: ignore 122
      assert.is_true(ok)
      assert.is_nil(got)
      assert.is_nil(backend.forced(nil, function() error("no environment here") end))
      local no_os = rawget(_G, "os")
      _G.os = nil
      ok, got = pcall(backend.forced, nil)
      _G.os = no_os
      assert.is_true(ok)
      assert.is_nil(got)
    end)

    it("refuses anything else, naming where it came from", function()
      has(err(backend.forced, "pure"),
        'sat: the global SAT_BACKEND is "pure" ("native" or "lua" expected)')
      has(err(backend.forced, nil, getenv("C")),
        'sat: the environment variable SAT_BACKEND is "C" ("native" or "lua" expected)')
      has(err(backend.forced, 1), 'sat: the global SAT_BACKEND is "1"')
    end)
  end)

  describe("choosing", function()
    -- Runs f with require("sat.core") failing as a make dist folder's does when no native
    -- file fits (the message is the loader's), then puts everything back.
    local function withoutNative(f)
      local savedLoaded, savedPreload = package.loaded["sat.core"], package.preload["sat.core"]
      package.loaded["sat.core"] = nil
      package.preload["sat.core"] = function()
        error("sat: no native module fits LuaTest on Nowhere. Looked for:\n\tnative/x.so", 0)
      end
      local ok, e = pcall(f)
      package.loaded["sat.core"], package.preload["sat.core"] = savedLoaded, savedPreload
      assert(ok, e)
    end

    it("falls back on the pure backend silently, keeping the native module's message", function()
      withoutNative(function()
        local core, name, module, why = backend.load()
        assert.are.equal("lua", name)
        assert.are.equal(PURE, module)
        assert.are.equal(require(PURE), core)
        assert.are.equal("sat: no native module fits LuaTest on Nowhere. Looked for:\n\tnative/x.so",
          why)
        -- and leaves no trace of the failed require (Lua 5.1 leaves its sentinel)
        assert.is_nil(package.loaded["sat.core"])
      end)
    end)

    it("fails with the native module's own message when native is forced", function()
      withoutNative(function()
        assert.are.equal("sat: no native module fits LuaTest on Nowhere. Looked for:\n\tnative/x.so",
          err(backend.load, "native"))
      end)
    end)

    it("never tries the native module when lua is forced", function()
      local tried = false
      local savedLoaded, savedPreload = package.loaded["sat.core"], package.preload["sat.core"]
      package.loaded["sat.core"] = nil
      package.preload["sat.core"] = function() tried = true return {} end
      local ok, core, name, _, why = pcall(backend.load, "lua")
      package.loaded["sat.core"], package.preload["sat.core"] = savedLoaded, savedPreload
      assert(ok, core)
      assert.is_false(tried)
      assert.are.equal("lua", name)
      assert.are.equal(require(PURE), core)
      assert.is_false(why)
    end)

    it("takes the global SAT_BACKEND set before sat is first required", function()
      local saved = {}
      for _, n in ipairs({ "sat", "sat.backend" }) do
        saved[n] = package.loaded[n]
        package.loaded[n] = nil
      end
      rawset(_G, "SAT_BACKEND", "lua")
      local ok, fresh = pcall(require, "sat")
      rawset(_G, "SAT_BACKEND", nil)
      local chosen = package.loaded["sat.backend"]
      for n, v in pairs(saved) do
        package.loaded[n] = v
      end
      assert(ok, fresh)
      assert.are.equal("lua", fresh.backend)
      assert.are.equal(require(PURE), fresh.core)
      assert.are.equal("lua", chosen.name)
      assert.is_false(fresh.nativeError)
      local c = fresh.circle(0, 0, 1)
      assert.is_true(fresh.test(c, fresh.point(1, 0)))
    end)
  end)
end)

describe("both backends in one process (backend.new)", function()
  local it_both = nativeFound and support.needsPure(it, pending, "world")
    or function(name) pending(name .. " [no native module loads here]") end

  it("refuses another name", function()
    has(err(backend.new, "C"), "bad argument #1 to 'new' (\"native\" or \"lua\" expected, got \"C\")")
    has(err(backend.new), "(\"native\" or \"lua\" expected, got nil)")
  end)

  it("gives a sat table on the pure core, its own Lua layer, not require('sat')'s", function()
    local pure = backend.new("lua")
    assert.are.equal("lua", pure.backend)
    assert.are.equal(require(PURE), pure.core)
    assert.are_not.equal(sat, pure)
    assert.are.equal(sat._VERSION, pure._VERSION)
    local c = pure.circle(0, 0, 1)
    assert.is_true(pure.isShape(c))
    assert.are.equal("circle(r 1 at 0, 0)", tostring(c))
    assert.are.equal(pure.backend == sat.backend, sat.isShape(c))
    -- another instance on the same core shares the core, not the layer
    local again = backend.new("lua")
    assert.are_not.equal(pure, again)
    assert.are.equal(pure.core, again.core)
    assert.are_not.equal(pure.world, again.world)
    assert.is_true(again.isShape(c))
  end)

  it_both("gives the native and the pure cores side by side, each knowing its own objects",
    function()
      local native, pure = backend.new("native"), backend.new("lua")
      assert.are.equal("native", native.backend)
      assert.are.equal(require("sat.core"), native.core)
      local a, b = native.box(0, 0, 2, 2), pure.box(0, 0, 2, 2)
      assert.is_true(native.isShape(a))
      assert.is_false(native.isShape(b))
      assert.is_false(pure.isShape(a))
      assert.is_true(pure.isShape(b))
      assert.is_false(pure.isVec(native.vec(1, 2)))
      has(err(function() local r = pure.test(b, a) return r end),
        "bad argument #2 to 'test' (shape expected, got userdata)")
      -- and their worlds are their own
      local wn, wp = native.world(16), pure.world(16)
      wn:add(a)
      wp:add(b)
      assert.are.same({ a }, wn:queryPoint(1, 1))
      assert.are.same({ b }, wp:queryPoint(1, 1))
    end)
end)

-- Every error the other specs check, raised by both backends from the same line: the whole
-- message compared, position included. Each case is a function of a sat table.
local CASES = {
  -- constructors
  function(s) local r = s.circle(0, 0, -1) return r end,
  function(s) local r = s.circle(0 / 0, 0, 1) return r end,
  function(s) local r = s.circle(0, math.huge, 1) return r end,
  function(s) local r = s.circle(0, 0, math.huge) return r end,
  function(s) local r = s.circle(0, 0) return r end,
  function(s) local r = s.circle(0, {}, 1) return r end,
  function(s) local r = s.circle(s.vec(0, 0), 1) return r end,
  function(s) local r = s.circle(0, 2e150, 1) return r end,
  function(s) local r = s.circle(0, 0, 1e151) return r end,
  function(s) local r = s.circle(0, 0, "x") return r end,
  function(s) local r = s.point(-1e200, 0) return r end,
  function(s) local r = s.point(0, -math.huge) return r end,
  function(s) local r = s.point() return r end,
  function(s) local r = s.box(0, 0, 1e151, 1) return r end,
  function(s) local r = s.box(0, 0, 0, 1) return r end,
  function(s) local r = s.box(0, 0, 1, -2) return r end,
  function(s) local r = s.box(0, 0 / 0, 1, 1) return r end,
  function(s) local r = s.box(0, 0, 1) return r end,
  function(s) local r = s.polygon(0, 0, 1, 0, 0, -1e200) return r end,
  function(s) local r = s.polygon({ 0, 0, 1e151, 0, 0, 1 }) return r end,
  function(s) local r = s.polygon(0, 0, 1, 1) return r end,
  function(s) local r = s.polygon({ 0, 0, 1, 0 }) return r end,
  function(s) local r = s.polygon({}) return r end,
  function(s) local r = s.polygon() return r end,
  function(s) local r = s.polygon(0, 0, 1, 0, 1, 0) return r end,
  function(s) local r = s.polygon(0, 0, 1, 1, 2, 2, 3, 3) return r end,
  function(s) local r = s.polygon(0, 0, 2, 0, 1, 0.5, 2, 2, 0, 2) return r end,
  function(s) local r = s.polygon(0, 0, 1, 0 / 0, 0, 1) return r end,
  function(s) local r = s.polygon(0, 0, 1, 0, 0, 1, 5) return r end,
  function(s) local r = s.polygon(0, 0, 1, 0, 0, "y") return r end,
  function(s) local r = s.polygon({ 0, 0, 1, 0, 0, math.huge }) return r end,
  function(s) local r = s.polygon({ 0, 0, 1, 0, 0, 1, 2 }) return r end,
  function(s) local r = s.polygon({ 0, 0, 1, 0, true, 1 }) return r end,
  function(s) local r = s.polygon({ s.vec(0, 0), s.vec(1, 0), 3 }) return r end,
  function(s) local r = s.polygon({ "a" }) return r end,
  function(s) local r = s.polygon({ 0, 0, 4, 0, 0, 4 }, 5) return r end,
  function(s) local r = s.polygon({ 0, 0, 4, 0, 0, 4 }, nil, {}) return r end,
  function(s) local r = s.polygon(s.vec(0, 0)) return r end,
  function(s) local r = s.polygon({ 0, 0, 1, 0 }, s.vec(1, 1)) return r end,
  function(s) local r = s.segment(1, 2, 1, 2) return r end,
  function(s) local r = s.segment(1, 0 / 0, 3, 4) return r end,
  function(s) local r = s.segment(1, 2, 3) return r end,
  function(s) local r = s.segment(1, 2, "x", 4) return r end,
  function(s) local r = s.segment(0, 0, 1e200, 0) return r end,
  function(s) local r = s.segment(0, 0, 1e-101, 0) return r end,
  function(s) local r = s.capsule(0, 0, 1, 0, -1) return r end,
  function(s) local r = s.capsule(0, 0, 1, 0, 0 / 0) return r end,
  function(s) local r = s.capsule(0, 0, 1, 0) return r end,
  function(s) local r = s.compound(5) return r end,
  function(s) local r = s.compound({}) return r end,
  function(s) local r = s.compound(s.vec(1, 2)) return r end,
  function(s) local r = s.compound({ s.box(0, 0, 1, 1), 1 }) return r end,
  function(s) local r = s.chain(5) return r end,
  function(s) local r = s.chain({ 0, 0, 1, 1 }, 1) return r end,
  function(s) local r = s.chain({ 0, 0, 1 }) return r end,
  function(s) local r = s.vec(0 / 0, 1) return r end,
  function(s) local r = s.vec(1, math.huge) return r end,
  function(s) local r = s.vec(-math.huge, 1) return r end,
  function(s) local r = s.vec("a", 1) return r end,
  function(s) local r = s.vec(1, {}) return r end,
  -- pair calls
  function(s) local r = s.test(s.vec(0, 0), s.circle(0, 0, 1)) return r end,
  function(s) local r = s.test(s.circle(0, 0, 1), {}) return r end,
  function(s) local r = s.test(s.circle(0, 0, 1), setmetatable({}, { __name = "Image" })) return r end,
  function(s) local r = s.test(s.circle(0, 0, 1), nil) return r end,
  function(s) local r = s.collide(s.circle(0, 0, 1)) return r end,
  function(s) local r = s.collide(s.point(0, 0), s.point(0, 0), 5) return r end,
  function(s) local r = s.collide(s.point(0, 0), s.point(0, 0), s.point(0, 0)) return r end,
  function(s) local c = s.circle(0, 0, 1) local r = c:collidesWith(s.vec(0, 0)) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = p.collidesWith(p, 1) return r end,
  function(s) local r = s.explain(s.box(0, 0, 1, 1)) return r end,
  function(s) local r = s.explain(1, s.box(0, 0, 1, 1)) return r end,
  function(s) local r = s.contacts(s.box(0, 0, 1, 1), {}) return r end,
  function(s) local r = s.contacts(s.box(0, 0, 1, 1), s.vec(1, 2)) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = s.sweep(p, 1, 0) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = s.sweep(p, 1, 0 / 0, p) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = s.sweep(p, 1, 0, p, 2, "x") return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = s.sweep(p, 1e300, 0, p) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = s.sweep(p, 1, 0, p, 0 / 0) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = s.sweep(p, 1, 0, p, "x") return r end,
  -- methods' arguments
  function(s) s.box(0, 0, 2, 2):moveTo(1, 0 / 0) end,
  function(s) s.box(0, 0, 2, 2):moveTo(math.huge, 1) end,
  function(s) s.box(0, 0, 2, 2):moveTo("a", 2) end,
  function(s) s.box(0, 0, 2, 2):moveTo(0, -2e150) end,
  function(s) s.box(0, 0, 2, 2):move(0 / 0, 0) end,
  function(s) s.box(0, 0, 2, 2):move(1) end,
  function(s) s.circle(1e150, 0, 1):move(1e150, 0) end,
  function(s) s.circle(0, 0, 1):move(0, 1e300) end,
  function(s) s.circle(0, 0, 1):move(1e300, 0) end,
  function(s) local p = s.box(0, 0, 1, 1) local r = p.move(p, 1e300, 0) return r end,
  function(s) s.box(0, 0, 2, 2):setRotation(math.huge) end,
  function(s) s.box(0, 0, 2, 2):rotate(0 / 0) end,
  function(s) local b = s.box(0, 0, 2, 2) b:rotate(1e308) b:rotate(1e308) end,
  function(s) local b = s.box(0, 0, 2, 2) b:rotate(1e308) b:rotate(1e308, 0, 0) end,
  function(s) s.circle(0, 0, 1):rotate(1, 5) end,
  function(s) s.circle(0, 0, 1):setRotation(1, nil, 5) end,
  function(s) s.circle(0, 0, 1):rotate(1, 0 / 0, 0) end,
  function(s) s.circle(1e150, 0, 1):rotate(math.pi, -1e149, 0) end,
  function(s) s.circle(1e150, 0, 1):rotate(1, 2e150, 0) end,
  function(s) local p = s.box(0, 0, 1, 1) local r = p.rotate(p, 1, 2) return r end,
  function(s) s.box(0, 0, 2, 2):scale(math.huge) end,
  function(s) s.circle(0, 0, 2):scale(0) end,
  function(s) s.circle(0, 0, 2):scale(-1) end,
  function(s) s.circle(1e150, 0, 1):scale(1e151) end,
  function(s) s.box(0, 0, 1, 1):scale(2, 3) end,
  function(s) s.box(0, 0, 1, 1):scale(2, "x") end,
  function(s) s.box(0, 0, 2, 2):contains(0, 0 / 0) end,
  function(s) s.box(0, 0, 2, 2):contains(1) end,
  function(s) s.box(0, 0, 2, 2):raycast(0, 0, math.huge, 1) end,
  function(s) s.box(0, 0, 2, 2):raycast(0, 0, 1) end,
  function(s) local r = s.box(0, 0, 1, 1):vertices(5) return r end,
  function(s) local r = s.box(0, 0, 1, 1):vertices(s.vec(1, 2)) return r end,
  function(s) s.circle(0, 0, 2):setRadius(-1) end,
  function(s) s.circle(0, 0, 2):setRadius(0 / 0) end,
  function(s) s.circle(1e150, 0, 1):setRadius(1e151) end,
  function(s) s.capsule(0, 0, 1, 0, 1):setRadius(-1) end,
  function(s) local v = s.vec(1, 2) local r = v:dot(3) return r end,
  function(s) local v = s.vec(1, 2) local r = v:dist(s.circle(0, 0, 1)) return r end,
  function(s) local v = s.vec(1, 2) local r = v:rotated(0 / 0) return r end,
  function(s) local v = s.vec(1, 2) local r = v.rotated(v) return r end,
  function(s) local v = s.vec(1, 2) local r = v.dot(v, s.box(0, 0, 1, 1)) return r end,
  -- fields and metamethods
  function(s) local v = s.vec(1, 2) v.x = 0 / 0 end,
  function(s) local v = s.vec(1, 2) v.y = math.huge end,
  function(s) local v = s.vec(1, 2) v.x = "3" end,
  function(s) local v = s.vec(1, 2) v.z = 1 end,
  function(s) local v = s.vec(1, 2) v[1] = 1 end,
  function(s) local v = s.vec(1, 2) v[s.vec(0, 0)] = 1 end,
  function(s) return s.vec(1, 2) + 1 end,
  function(s) return 1 - s.vec(1, 2) end,
  function(s) return s.vec(1, 2) * s.vec(1, 2) end,
  function(s) return 2 / s.vec(1, 2) end,
  function(s) return s.vec(1, 2) + s.circle(0, 0, 1) end,
  function(s) return s.vec(1, 2) * (0 / 0) end,
  function(s) return math.huge * s.vec(1, 2) end,
  function(s) return s.vec(1, 2) / 0 end,
  function(s) s.box(0, 0, 1, 1).move = 1 end,
  function(s) s.circle(0, 0, 1).radius = 2 end,
  function(s) s.segment(0, 0, 1, 0).endpoints = 1 end,
  function(s) s.box(0, 0, 1, 1).collidesWith = 1 end,
  function(s) local c = s.circle(0, 0, 1) c.mask = 1.5 end,
  function(s) local c = s.circle(0, 0, 1) c.category = "x" end,
  function(s) local c = s.circle(0, 0, 1) c.category = nil end,
  function(s) local c = s.circle(0, 0, 1) c.category = 0 / 0 end,
  function(s) local c = s.circle(0, 0, 1) c.tag = 1 c.category = {} end,
  function(s) setmetatable(s.collide(s.circle(0, 0, 1), s.circle(0, 0, 1)), {}) end,
  function(s)
    local r = s.collide(s.circle(0, 0, 1), s.circle(0, 0, 1))
    debug.getmetatable(r).__tostring(s.vec(1, 2))
  end,
  function(s) local v = s.vec(1, 2) debug.getmetatable(v).__index(s.box(0, 0, 1, 1), "x") end,
  function(s) local p = s.box(0, 0, 1, 1) debug.getmetatable(p).__newindex(s.vec(1, 2), "x", 1) end,
  function(s) local p = s.box(0, 0, 1, 1) debug.getmetatable(p).__tostring(io.stdout) end,
}

-- The wrong receiver of a method: `bad self to '<method>' (...)` (issue 24, the board).
local SELF_CASES = {
  function(s) local c = s.circle(0, 0, 1) c.moveTo(s.vec(1, 2), 1, 2) end,
  function(s) local c = s.circle(0, 0, 1) local r = c.radius(s.box(0, 0, 1, 1)) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = p.vertices(s.circle(0, 0, 1)) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = p.area(nil) return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = p.area() return r end,
  function(s) local p = s.box(0, 0, 1, 1) local r = p.position(5) return r end,
  function(s) local c = s.circle(0, 0, 1) local r = c.collidesWith(s.vec(0, 0), c) return r end,
  function(s) local c = s.capsule(0, 0, 1, 0, 1) local r = c.endpoints(s.circle(0, 0, 1)) return r end,
  function(s) local v = s.vec(1, 2) local r = v.len({}) return r end,
  function(s) local v = s.vec(1, 2) local r = v.clone("x") return r end,
  function(s) local p = s.box(0, 0, 1, 1) p.move(5, 1, 1) end,
  function(s) local t = { moveTo = s.box(0, 0, 1, 1).moveTo } t:moveTo(1, 2) end,
}

local EXPLAIN_CASES = {
  function(s) local e = s.explain(s.circle(0, 0, 1), s.circle(0, 0, 1)) getmetatable(e).__tostring(5) end,
  function(s)
    local e = s.explain(s.circle(0, 0, 1), s.circle(0, 0, 1))
    getmetatable(e).__tostring(s.box(0, 0, 1, 1))
  end,
}

local COMPOUND_CASES = {
  function(s) local r = s.concave(0, 0, 2, 0, 0, 2, 2, 2) return r end,
  function(s) local r = s.compound({ s.box(0, 0, 1, 1) }):vertices() return r end,
  function(s) local c = s.concave(0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4) c.parts = 1 end,
  function(s) local r = s.chain({ 0, 0, 0, 0 }) return r end,
}

local function compare(cases, native, pure)
  for i, case in ipairs(cases) do
    local okN, eN = pcall(case, native)
    local okP, eP = pcall(case, pure)
    assert.is_false(okN, "case " .. i .. ": no error from the native backend")
    assert.is_false(okP, "case " .. i .. ": no error from the pure backend")
    assert.are.equal(tostring(eN), tostring(eP), "case " .. i)
  end
  return #cases
end

describe("the same errors on both backends, word for word and at the same line", function()
  local native, pure
  if nativeFound then
    native, pure = backend.new("native"), backend.new("lua")
  end
  local it_n = nativeFound and it or function(name) pending(name .. " [no native module loads here]") end

  it_n("for every argument error the specs check", function()
    assert.is_true(compare(CASES, native, pure) > 100)
  end)

  -- The native binding's receivers say `bad self` once issue 24's change lands there.
  local ok, e = pcall(function() local r = native and native.box(0, 0, 1, 1).area(nil) return r end)
  local selfReady = not ok and tostring(e):find("bad self", 1, true) ~= nil
  local it_self = (nativeFound and selfReady) and it or function(name)
    pending(name .. " [the native binding's receiver errors (bad self, issue 24) are not in yet]")
  end
  it_self("for a method called on the wrong receiver", function()
    compare(SELF_CASES, native, pure)
  end)

  it_n("for explanations", function()
    compare(EXPLAIN_CASES, native, pure)
  end)

  local it_c = nativeFound and support.needsPure(it, pending, "compound") or it_n
  it_c("for compounds", function()
    compare(COMPOUND_CASES, native, pure)
  end)

  it("the pure backend names the receiver's method in its own words", function()
    local p, c = sat.box(0, 0, 1, 1), sat.circle(0, 0, 1)
    if sat.backend ~= "lua" and not selfReady then
      return -- (the native binding's words come with issue 24)
    end
    has(err(function() local r = p.area(nil) return r end), "bad self to 'area' (shape expected, got nil)")
    has(err(function() local r = p.area() return r end), "bad self to 'area' (shape expected, got no value)")
    has(err(function() c.moveTo(sat.vec(1, 2), 1, 2) end), "bad self to 'moveTo' (shape expected, got vec)")
    has(err(function() local r = c.radius(p) return r end),
      "bad self to 'radius' (circle or capsule expected, got polygon)")
    local msg = err(function() local r = p.collidesWith(sat.vec(0, 0), p) return r end)
    assert.matches("^[^:]*backends_spec%.lua:%d+: bad self to 'collidesWith' %(shape expected, got vec%)$", msg)
  end)
end)

-- ---- the same numbers ----------------------------------------------------------------------

-- Bit for bit: equal, zeros of the same sign, NaN for NaN; and of the same subtype from 5.3 on
-- (the C binding pushes floats, and integers where it says so).
local mathType = math.type
local function same(x, y)
  if type(x) ~= type(y) then
    return false
  end
  if type(x) ~= "number" then
    return x == y
  end
  if mathType and mathType(x) ~= mathType(y) then
    return false
  end
  if x ~= x then
    return y ~= y
  end
  return x == y and (x ~= 0 or 1 / x == 1 / y)
end

-- Every value of the lists equal (same), with what to say when not.
local function sameList(want, got, what)
  assert.are.equal(#want, #got, what .. ": count")
  for i = 1, #want do
    if not same(want[i], got[i]) then
      error(("%s, value %d: native %s (%s), pure %s (%s)"):format(what, i, tostring(want[i]),
        mathType and tostring(mathType(want[i])) or type(want[i]), tostring(got[i]),
        mathType and tostring(mathType(got[i])) or type(got[i])), 2)
    end
  end
end

local function pack(...)
  return { n = select("#", ...), ... }
end

local unpackList = rawget(_G, "unpack") or table.unpack

describe("the same numbers on both backends", function()
  local native, pure
  if nativeFound then
    native, pure = backend.new("native"), backend.new("lua")
  end
  local it_n = nativeFound and it or function(name) pending(name .. " [no native module loads here]") end

  it_n("from vecs: fields, arithmetic, methods, tostring", function()
    local rng = support.rng(4242)
    for k = 1, 2000 do
      local e = rng.int(-30, 30)
      local x, y = (rng.next() - 0.5) * 10 ^ e, (rng.next() - 0.5) * 10 ^ rng.int(-30, 30)
      if k % 7 == 0 then y = 0 end
      if k % 11 == 0 then x = -0.0 end
      local a, b = (rng.next() - 0.5) * 100, rng.next() * 7 - 3
      local function run(s)
        local v, w = s.vec(x, y), s.vec(a, b)
        local out = { v.x, v.y, v:len(), v:len2(), v:dot(w), v:cross(w), v:dist(w) }
        for _, r in ipairs({ v + w, v - w, -v, v * b, a * v, v / 3, v:normalized(), v:perp(),
                             v:rotated(a), v:projectOn(w), v:reflect(w), v:clone() }) do
          out[#out + 1] = r.x
          out[#out + 1] = r.y
        end
        out[#out + 1] = tostring(v)
        out[#out + 1] = v == w
        return out
      end
      sameList(run(native), run(pure), "vec " .. k)
    end
  end)

  -- A random shape of each kind (compounds aside), built by both from the same numbers.
  local function shapeMaker(rng)
    local kind = rng.int(1, 5)
    local cx, cy = rng.range(-50, 50), rng.range(-50, 50)
    if rng.next() < 0.1 then
      cx, cy = cx + 1e9, cy - 1e9
    end
    local r = rng.range(0.5, 10)
    if kind == 1 then
      return function(s) return s.circle(cx, cy, r) end
    elseif kind == 2 then
      local w, h = rng.range(0.5, 20), rng.range(0.5, 20)
      return function(s) return s.box(cx, cy, w, h) end
    elseif kind == 3 then
      local n = rng.int(3, 12)
      local pts = support.ngon(n, cx, cy, r)
      return function(s) return s.polygon(pts) end
    elseif kind == 4 then
      local x2, y2 = cx + rng.range(-20, 20), cy + rng.range(-20, 20)
      return function(s) return s.segment(cx, cy, x2, y2) end
    end
    local x2, y2 = cx + rng.range(-20, 20), cy + rng.range(-20, 20)
    return function(s) return s.capsule(cx, cy, x2, y2, r / 2) end
  end

  -- What a shape tells about itself: position, rotation, bbox, area, its kind's own.
  local function describeShape(sh, out)
    local function add(...)
      local t = pack(...)
      for i = 1, t.n do out[#out + 1] = t[i] end
    end
    add(sh:position())
    add(sh:rotation(), sh:area(), sh:kind(), tostring(sh), sh.category, sh.mask)
    add(sh:bbox())
    local kind = sh:kind()
    if kind == "polygon" then
      add(unpackList(sh:vertices()))
    elseif kind == "circle" then
      add(sh:radius())
    else
      add(sh:endpoints())
      if kind == "capsule" then add(sh:radius()) end
    end
    add(sh:contains(sh:position()), sh:contains(0, 0))
    return out
  end

  it_n("from shapes: built, moved, turned about themselves and pivots, scaled, filtered, cloned",
    function()
      local rng = support.rng(777)
      for k = 1, 400 do
        local make = shapeMaker(rng)
        local steps = {}
        for i = 1, 6 do
          steps[i] = { rng.int(1, 6), rng.range(-5, 5), rng.range(-5, 5), rng.range(-3, 3),
            rng.range(0.5, 2) }
        end
        local function run(s)
          local sh = make(s)
          local out = describeShape(sh, {})
          for _, st in ipairs(steps) do
            local op = st[1]
            if op == 1 then sh:move(st[2], st[3])
            elseif op == 2 then sh:moveTo(st[2] * 10, st[3] * 10)
            elseif op == 3 then sh:rotate(st[4])
            elseif op == 4 then sh:setRotation(st[4], st[2], st[3])
            elseif op == 5 then sh:scale(st[5])
            else sh:rotate(st[4], st[3], st[2]) end
            describeShape(sh, out)
          end
          sh.category, sh.mask = k, -k
          local c = sh:clone()
          return describeShape(c, out)
        end
        sameList(run(native), run(pure), "shape " .. k)
      end
    end)

  it_n("from pair calls: test, collidesWith, collide (new and reused), for every pair of kinds",
    function()
      local rng = support.rng(31337)
      for k = 1, 300 do
        local ma, mb = shapeMaker(rng), shapeMaker(rng)
        local dx, dy = rng.range(-15, 15), rng.range(-15, 15)
        local function run(s)
          local a, b = ma(s), mb(s)
          local bx, by = a:position()
          b:moveTo(bx + dx, by + dy)
          local out = { s.test(a, b), s.test(b, a) }
          for _, v in ipairs(pack(a:collidesWith(b))) do out[#out + 1] = v end
          local reused = {}
          for _, r in ipairs({ s.collide(a, b) or false, s.collide(b, a, reused) or false }) do
            if r then
              out[#out + 1] = tostring(r)
              for _, v in ipairs({ r.overlap, r.normal.x, r.normal.y, r.mtv.x, r.mtv.y, r.aInB,
                                   r.bInA }) do
                out[#out + 1] = v
              end
            else
              out[#out + 1] = false
            end
          end
          return out
        end
        sameList(run(native), run(pure), "pair " .. k)
      end
    end)

  it_n("from contacts, sweep, raycast and explain (its table and its tostring), for every pair of kinds",
    function()
      local rng = support.rng(2718)
      for k = 1, 300 do
        local ma, mb = shapeMaker(rng), shapeMaker(rng)
        local dx, dy = rng.range(-15, 15), rng.range(-15, 15)
        local vx, vy, wx = rng.range(-40, 40), rng.range(-40, 40), rng.range(-10, 10)
        local rx1, ry1, rx2, ry2 = rng.range(-80, 80), rng.range(-80, 80), rng.range(-80, 80),
          rng.range(-80, 80)
        local function run(s)
          local a, b = ma(s), mb(s)
          local bx, by = a:position()
          b:moveTo(bx + dx, by + dy)
          local out = {}
          local function add(...)
            local t = pack(...)
            out[#out + 1] = t.n
            for i = 1, t.n do out[#out + 1] = t[i] end
          end
          add(s.contacts(a, b))
          add(s.sweep(a, vx, vy, b))
          add(s.sweep(a, vx, vy, b, wx, -wx))
          add(a:raycast(bx + rx1, by + ry1, bx + rx2, by + ry2))
          add(b:raycast(bx, by, bx + rx2, by + ry2))
          local e = s.explain(a, b)
          add(e.hit, e.deciding, e.overlap, e.containment, #e.axes, tostring(e))
          if e.normal then add(e.normal.x, e.normal.y) end
          for _, ax in ipairs(e.axes) do
            add(ax.nx, ax.ny, ax.from, ax.feature, ax.aMin, ax.aMax, ax.bMin, ax.bMax, ax.overlap,
              ax.separates)
          end
          return out
        end
        sameList(run(native), run(pure), "pair " .. k)
      end
    end)
end)
