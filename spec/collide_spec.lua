-- The narrow phase through Lua: sat.test, shape:collidesWith, sat.collide and responses.
local sat = require("sat")

local support = require("spec.support")
local err, has = support.err, support.has

local ngon = support.ngon

-- Builders for each kind, so every pair can be made in every order.
local make = {
  polygon = function(x, y, size) return sat.box(x - size, y - size, 2 * size, 2 * size) end,
  circle = function(x, y, size) return sat.circle(x, y, size) end,
}
local kinds = { "polygon", "circle" }

-- A response must be self-consistent: unit normal, mtv = -normal * overlap.
local function consistent(r)
  assert.is_true(r.overlap >= 0)
  assert.is_near(1, r.normal:len(), 1e-12)
  assert.is_near(-r.normal.x * r.overlap, r.mtv.x, 1e-12)
  assert.is_near(-r.normal.y * r.overlap, r.mtv.y, 1e-12)
end

describe("sat.test", function()
  it("tells overlapping from separate shapes for every pair of kinds", function()
    for _, ka in ipairs(kinds) do
      for _, kb in ipairs(kinds) do
        local a = make[ka](0, 0, 1)
        assert.is_true(sat.test(a, make[kb](1.5, 0, 1)), ka .. "/" .. kb)
        assert.is_false(sat.test(a, make[kb](2.5, 0, 1)), ka .. "/" .. kb)
        assert.is_true(sat.test(make[kb](1.5, 0, 1), a), kb .. "/" .. ka)
      end
    end
  end)

  it("sees a circle off a box's corner as separate", function()
    assert.is_false(sat.test(sat.circle(1.8, 1.8, 1), sat.box(-1, -1, 2, 2)))
    assert.is_true(sat.test(sat.circle(1.6, 1.6, 1), sat.box(-1, -1, 2, 2)))
  end)
end)

describe("shape:collidesWith", function()
  it("returns true and the translation that moves self out", function()
    local hit, mx, my = sat.box(0, 0, 2, 2):collidesWith(sat.box(1.5, 0, 2, 2))
    assert.is_true(hit)
    assert.is_near(-0.5, mx, 1e-12)
    assert.is_near(0, my, 1e-12)
    hit, mx, my = sat.circle(0, 0, 1):collidesWith(sat.circle(0, 1.5, 1))
    assert.is_true(hit)
    assert.is_near(0, mx, 1e-12)
    assert.is_near(-0.5, my, 1e-12)
  end)

  it("returns false, 0, 0 when apart", function()
    local hit, mx, my = sat.circle(0, 0, 1):collidesWith(sat.box(5, 5, 1, 1))
    assert.is_false(hit)
    assert.are.equal(0, mx)
    assert.are.equal(0, my)
  end)
end)

describe("sat.collide", function()
  it("returns a response with a, b, overlap, normal, mtv, aInB, bInA", function()
    local a, b = sat.box(0, 0, 2, 2), sat.circle(2.5, 1, 1)
    local r = sat.collide(a, b)
    assert.are.equal(a, r.a)
    assert.are.equal(b, r.b)
    assert.is_near(0.5, r.overlap, 1e-12)
    assert.is_true(sat.isVec(r.normal))
    assert.is_true(sat.isVec(r.mtv))
    assert.is_near(1, r.normal.x, 1e-12)
    assert.is_near(0, r.normal.y, 1e-12)
    assert.is_near(-0.5, r.mtv.x, 1e-12)
    assert.is_false(r.aInB)
    assert.is_false(r.bInA)
    consistent(r)
  end)

  it("returns nil when apart", function()
    assert.is_nil(sat.collide(sat.box(0, 0, 1, 1), sat.box(3, 0, 1, 1)))
    assert.is_nil(sat.collide(sat.circle(0, 0, 1), sat.circle(0, 2.001, 1)))
  end)

  it("prints a response readably", function()
    local r = sat.collide(sat.box(0, 0, 2, 2), sat.box(1.5, 0, 2, 2))
    assert.are.equal(
      "response(overlap 0.5, normal vec(1, 0), mtv vec(-0.5, 0), aInB false, bInA false)",
      tostring(r))
  end)

  it("flips the normal when a and b swap, for every pair of kinds", function()
    for _, ka in ipairs(kinds) do
      for _, kb in ipairs(kinds) do
        local a, b = make[ka](0, 0, 1), make[kb](1.2, 0.7, 0.8)
        local r1, r2 = sat.collide(a, b), sat.collide(b, a)
        local name = ka .. "/" .. kb
        assert.is_table(r1, name)
        assert.is_table(r2, name)
        consistent(r1)
        consistent(r2)
        assert.are.equal(r1.overlap, r2.overlap, name)
        assert.are.equal(-r1.normal.x, r2.normal.x, name)
        assert.are.equal(-r1.normal.y, r2.normal.y, name)
        assert.are.equal(r1.aInB, r2.bInA, name)
        -- the normal points from a toward b
        local ax, ay = a:position()
        local bx, by = b:position()
        assert.is_true(r1.normal:dot(sat.vec(bx - ax, by - ay)) > 0, name)
      end
    end
  end)

  it("separates every overlapping pair of kinds with a:move(mtv), leaving them touching", function()
    for _, ka in ipairs(kinds) do
      for _, kb in ipairs(kinds) do
        local a, b = make[ka](0.3, -0.2, 1), make[kb](1.1, 0.9, 0.7)
        local r = sat.collide(a, b)
        assert.is_true(r.overlap > 0)
        a:move(r.mtv:unpack())
        local after = sat.collide(a, b)
        assert.is_table(after, ka .. "/" .. kb .. " no longer touching")
        assert.is_near(0, after.overlap, 1e-9)
        a:move(-1e-6 * r.normal.x, -1e-6 * r.normal.y)
        assert.is_false(sat.test(a, b))
      end
    end
  end)

  describe("touching shapes (gap exactly 0) collide with overlap 0", function()
    local function touching(a, b)
      for _, p in ipairs({ { a, b }, { b, a } }) do
        local r = sat.collide(p[1], p[2])
        assert.is_table(r, tostring(p[1]) .. " / " .. tostring(p[2]))
        assert.are.equal(0, r.overlap)
        assert.is_true(sat.test(p[1], p[2]))
        assert.is_true((p[1]:collidesWith(p[2])))
      end
    end

    it("polygon / polygon along an edge and at a corner", function()
      touching(sat.box(0, 0, 1, 1), sat.box(1, 0, 1, 1))
      touching(sat.box(0, 0, 1, 1), sat.box(1, 1, 1, 1))
      touching(sat.box(0, 0, 1, 1), sat.polygon(1, 0.5, 2, 0, 2, 1)) -- corner on an edge
    end)

    it("circle / circle", function()
      touching(sat.circle(0, 0, 1), sat.circle(2, 0, 1))
      touching(sat.circle(0, 0, 3), sat.circle(3, 4, 2))
    end)

    it("circle / polygon on an edge and at a corner", function()
      touching(sat.circle(2, 0.5, 1), sat.box(0, 0, 1, 1))
      touching(sat.circle(4, 5, 5), sat.box(0, 0, 1, 1)) -- 3-4-5 from the corner (1, 1)
    end)

    it("points on a boundary", function()
      touching(sat.point(1, 0.5), sat.box(0, 0, 1, 1))
      touching(sat.point(1, 1), sat.box(0, 0, 1, 1))
      touching(sat.point(0, 1), sat.circle(0, 0, 1))
      touching(sat.point(3, 3), sat.point(3, 3))
    end)
  end)

  describe("containment", function()
    local function contained(inner, outer)
      local r = sat.collide(inner, outer)
      assert.is_true(r.aInB)
      assert.is_false(r.bInA)
      local r2 = sat.collide(outer, inner)
      assert.is_false(r2.aInB)
      assert.is_true(r2.bInA)
      consistent(r)
      inner:move(r.mtv:unpack())
      local after = sat.collide(inner, outer)
      assert.is_table(after)
      assert.is_near(0, after.overlap, 1e-9)
      -- a shape with area now sticks out; a point on the boundary is still in (boundaries
      -- count as inside)
      assert.are.equal(inner:area() == 0, after.aInB)
    end

    it("sets aInB / bInA and the mtv moves a out to touching", function()
      contained(sat.box(0.25, 0.25, 0.5, 0.5), sat.box(0, 0, 2, 2))
      contained(sat.circle(0, 0, 1), sat.circle(0.5, 0, 3))
      contained(sat.circle(1, 1, 0.2), sat.box(0, 0, 2, 2))
      contained(sat.box(-0.5, -0.5, 1, 1), sat.circle(0.1, 0, 5))
      contained(sat.polygon(ngon(64, 0, 0, 1)), sat.polygon(ngon(64, 0.2, 0, 3)))
    end)

    it("also when the centres coincide", function()
      contained(sat.circle(0, 0, 1), sat.circle(0, 0, 3))
      contained(sat.box(-1, -1, 2, 2), sat.box(-2, -2, 4, 4))
      contained(sat.point(5, 5), sat.circle(5, 5, 1))
    end)
  end)

  it("gives the same overlap at 1e9 as at the origin", function()
    for _, ka in ipairs(kinds) do
      for _, kb in ipairs(kinds) do
        local a, b = make[ka](0, 0, 1), make[kb](1.5, 0.25, 0.75)
        local r0 = sat.collide(a, b)
        for _, far in ipairs({ 1e9, -1e9 }) do
          a:move(far, far)
          b:move(far, far)
          local r = sat.collide(a, b)
          assert.is_near(r0.overlap, r.overlap, 1e-9 * r0.overlap)
          assert.is_near(r0.normal.x, r.normal.x, 1e-9)
          assert.is_near(r0.normal.y, r.normal.y, 1e-9)
          a:move(-far, -far)
          b:move(-far, -far)
        end
      end
    end
    -- built far away rather than moved there
    local r = sat.collide(sat.box(1e9, 1e9, 1, 1), sat.box(1e9 + 0.75, 1e9, 1, 1))
    assert.is_near(0.25, r.overlap, 1e-12)
  end)

  it("does not depend on the winding of either polygon", function()
    local ccw = sat.polygon(0, 0, 2, 0, 2, 2, 0, 2)
    local cw = sat.polygon(0, 0, 0, 2, 2, 2, 2, 0)
    for _, other in ipairs({ sat.circle(2.5, 1, 1), sat.polygon(1.5, 0.5, 3, 1, 1.5, 1.5),
                              sat.polygon(1.5, 0.5, 1.5, 1.5, 3, 1) }) do
      local r1, r2 = sat.collide(ccw, other), sat.collide(cw, other)
      assert.is_near(r1.overlap, r2.overlap, 1e-12)
      assert.is_near(r1.normal.x, r2.normal.x, 1e-12)
      assert.is_near(r1.normal.y, r2.normal.y, 1e-12)
    end
  end)

  it("handles 64-vertex polygons against every kind", function()
    local p = sat.polygon(ngon(64, 0, 0, 10))
    local r = sat.collide(p, sat.circle(11, 0, 2))
    assert.is_near(1, r.overlap, 1e-12)
    assert.is_near(1, r.normal.x, 1e-12)
    -- tips 1 apart on the x axis, but the least overlap is along the edge normals next to
    -- them: (10 - 9) * cos(pi / 64)
    r = sat.collide(p, sat.polygon(ngon(64, 19, 0, 10, true)))
    assert.is_near(math.cos(math.pi / 64), r.overlap, 1e-12)
    assert.is_false(sat.test(p, sat.box(10.01, -1, 1, 2)))
    assert.is_true(sat.test(p, sat.box(9.99, -1, 1, 2)))
  end)

  describe("with a response to reuse", function()
    it("fills and returns the same table and the same vecs", function()
      local r = {}
      local a, b = sat.box(0, 0, 2, 2), sat.box(1.5, 0, 2, 2)
      assert.are.equal(r, sat.collide(a, b, r))
      local normal, mtv = r.normal, r.mtv
      assert.is_near(0.5, r.overlap, 1e-12)
      local c = sat.circle(1, 2.5, 1)
      assert.are.equal(r, sat.collide(a, c, r))
      assert.is_true(rawequal(normal, r.normal))
      assert.is_true(rawequal(mtv, r.mtv))
      assert.are.equal(c, r.b)
      assert.is_near(0, normal.x, 1e-12)
      assert.is_near(1, normal.y, 1e-12)
      assert.is_near(-0.5, mtv.y, 1e-12)
      -- a response sat.collide returned works the same way
      local r2 = sat.collide(a, b)
      assert.are.equal(r2, sat.collide(a, c, r2))
      assert.is_near(1, r2.normal.y, 1e-12)
    end)

    it("gives a plain table the response's tostring, keeps another metatable", function()
      local r = sat.collide(sat.box(0, 0, 2, 2), sat.box(1.5, 0, 2, 2), {})
      assert.matches("^response%(overlap 0.5", tostring(r))
      local mt = { __tostring = function() return "mine" end }
      local own = setmetatable({}, mt)
      sat.collide(sat.box(0, 0, 2, 2), sat.box(1.5, 0, 2, 2), own)
      assert.are.equal(mt, getmetatable(own))
      assert.is_near(0.5, own.overlap, 1e-12)
    end)

    it("replaces non-vec normal and mtv fields", function()
      local r = { normal = 1, mtv = { x = 0, y = 0 } }
      sat.collide(sat.box(0, 0, 2, 2), sat.box(1.5, 0, 2, 2), r)
      assert.is_true(sat.isVec(r.normal))
      assert.is_true(sat.isVec(r.mtv))
    end)

    it("returns nil and leaves the response alone when apart", function()
      local r = {}
      local a = sat.box(0, 0, 2, 2)
      sat.collide(a, sat.box(1.5, 0, 2, 2), r)
      assert.is_nil(sat.collide(a, sat.box(5, 0, 2, 2), r))
      assert.is_near(0.5, r.overlap, 1e-12)
    end)

    it("must be a table", function()
      has(err(function() local r = sat.collide(sat.point(0, 0), sat.point(0, 0), 5) return r end),
        "bad argument #3 to 'collide' (table expected, got number)")
    end)
  end)
end)

describe("hot calls allocate nothing", function()
  -- Counts what n calls of f allocate, with the collector stopped. A warm-up run of as many
  -- calls first lets one-time costs (interned keys, a response's first fill, JIT traces)
  -- happen outside.
  local function allocated(f, n)
    f(n)
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    f(n)
    local after = collectgarbage("count")
    collectgarbage("restart")
    return (after - before) * 1024
  end

  local a, b = sat.polygon(ngon(8, 0, 0, 1)), sat.circle(1.5, 0.2, 1)
  local N = 100000
  -- One small object per call would be megabytes (16 bytes at least); the slack is for
  -- LuaJIT now and then compiling a side trace after the warm-up (traces are collectable).
  local limit = 16 * 1024

  it("sat.test", function()
    local bytes = allocated(function(n)
      for _ = 1, n do sat.test(a, b) end
    end, N)
    assert.is_true(bytes < limit, bytes .. " bytes")
  end)

  it("shape:collidesWith", function()
    local bytes = allocated(function(n)
      for _ = 1, n do a:collidesWith(b) end
    end, N)
    assert.is_true(bytes < limit, bytes .. " bytes")
  end)

  it("sat.collide with a reused response", function()
    local r = {}
    local bytes = allocated(function(n)
      for _ = 1, n do sat.collide(a, b, r) end
    end, N)
    assert.is_true(bytes < limit, bytes .. " bytes")
    assert.is_true(r.overlap > 0)
  end)

  -- Every kind against every kind, overlapping and apart, on either backend. One loop over
  -- all 49 pairs is many paths for LuaJIT's compiler: on the pure backend their traces
  -- outgrow its default cache (maxmcode, maxtrace), which it then flushes and compiles
  -- again, over and over, and traces are collectable objects. So these run with the
  -- compiler off (the loops of one pair above keep it on).
  local function interpreted(f, n)
    return require("spec.support").interpreted(allocated, f, n)
  end

  local every = {
    sat.polygon(ngon(8, 0, 0, 1)), sat.box(0.5, 0.2, 2, 1), sat.circle(1.5, 0.2, 1),
    sat.segment(-1, -1, 2, 1.5), sat.capsule(0, 2, 2, 3, 0.5), sat.point(0.3, 0.1),
    sat.circle(9, 9, 1),
  }

  it("sat.test, collidesWith and sat.collide with a reused response, for every pair of kinds",
    function()
      local r = {}
      local bytes = interpreted(function(n)
        for _ = 1, n / 49 do
          for i = 1, #every do
            for j = 1, #every do
              sat.test(every[i], every[j])
              every[i]:collidesWith(every[j])
              sat.collide(every[i], every[j], r)
            end
          end
        end
      end, N / 10)
      assert.is_true(bytes < limit, bytes .. " bytes")
    end)

  it("sat.contacts and sat.sweep, for every pair of kinds", function()
    local bytes = interpreted(function(n)
      for _ = 1, n / 49 do
        for i = 1, #every do
          for j = 1, #every do
            sat.contacts(every[i], every[j])
            sat.sweep(every[i], 3, -2, every[j])
            sat.sweep(every[i], 0.5, 0.25, every[j], -1, 0)
          end
        end
      end
    end, N / 10)
    assert.is_true(bytes < limit, bytes .. " bytes")
  end)

  it("moveTo, move and position", function()
    local bytes = interpreted(function(n)
      for k = 1, n do
        local s = every[k % #every + 1]
        local x, y = s:position()
        s:move(0.5, -0.25)
        s:moveTo(x, y)
      end
    end, N)
    assert.is_true(bytes < limit, bytes .. " bytes")
  end)

  it("is a measurement that can fail: sat.collide without a response allocates", function()
    local bytes = allocated(function(n)
      for _ = 1, n do sat.collide(a, b) end
    end, N)
    assert.is_true(bytes > 100 * N, bytes .. " bytes")
  end)
end)

describe("pair arguments", function()
  it("must be shapes", function()
    local s, v = sat.circle(0, 0, 1), sat.vec(0, 0)
    has(err(function() local r = sat.test(v, s) return r end),
      "bad argument #1 to 'test' (shape expected, got vec)")
    has(err(function() local r = sat.test(s, {}) return r end),
      "bad argument #2 to 'test' (shape expected, got table)")
    has(err(function() local r = sat.collide(s) return r end),
      "bad argument #2 to 'collide' (shape expected, got no value)")
    has(err(function() local r = s:collidesWith(v) return r end),
      "bad argument #1 to 'collidesWith' (shape expected, got vec)")
    has(err(function() local r = s.collidesWith(v, s) return r end),
      "bad self to 'collidesWith' (shape expected, got vec)")
  end)
end)
