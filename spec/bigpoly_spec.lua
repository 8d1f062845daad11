-- Polygons of many vertices: a pair of them costs O(n + m), not O(n * m), and a polygon is
-- sized for the vertices it keeps, not for its input. (No timing here: these calls took
-- seconds each before, and now the whole file runs in well under one.)
local sat = require("sat")
local support = require("spec.support")

describe("big polygons", function()
  it("test and collide two overlapping 30,000-vertex polygons without stalling", function()
    local a = sat.polygon(support.ngon(30000, 0, 0, 100))
    local b = sat.polygon(support.ngon(30000, 120, 0, 50))
    assert.are.equal(60000, #a:vertices())
    local response = {}
    for i = 0, 59 do
      local dir = 2 * math.pi * i / 60
      b:moveTo(120 * math.cos(dir), 120 * math.sin(dir))
      assert.is_true(sat.test(a, b))
      local hit, mx, my = a:collidesWith(b)
      assert.is_true(hit)
      -- along the edge normal nearest the line of centres: within pi / 30,000 of it
      assert.is_near(-30 * math.cos(dir), mx, 0.01)
      assert.is_near(-30 * math.sin(dir), my, 0.01)
      local r = sat.collide(b, a, response)
      assert.is_near(30, r.overlap, 1e-4)
      assert.is_false(r.aInB or r.bInA)
      b:moveTo(151 * math.cos(dir), 151 * math.sin(dir))
      assert.is_false(sat.test(a, b))
      assert.is_nil(sat.collide(a, b))
    end
    -- one inside the other
    b:moveTo(10, 0)
    local r = sat.collide(b, a)
    assert.is_true(r.aInB)
    assert.is_near(100 - 10 + 50, r.overlap, 1e-4)
  end)

  it("keeps circles, points, rays and boxes against one linear too", function()
    local a = sat.polygon(support.ngon(30000, 0, 0, 100))
    for i = 1, 199 do
      local x = i - 100
      local y = math.sqrt(100 ^ 2 - x ^ 2)
      assert.is_true(a:contains(x, 0))
      local c, sn = math.cos(i / 199 * 2 * math.pi), math.sin(i / 199 * 2 * math.pi)
      assert.is_true(sat.test(a, sat.circle(100.5 * c, 100.5 * sn, 1)))
      assert.is_false(sat.test(a, sat.circle(101.5 * c, 101.5 * sn, 1)))
      assert.is_true(sat.test(sat.box(x, -y - 0.5, 1, 1), a))
      local t = a:raycast(x / 2, -300, x / 2, 300)
      assert.is_near((300 - math.sqrt(100 ^ 2 - (x / 2) ^ 2)) / 600, t, 1e-7)
    end
  end)

  it("sizes a polygon for the vertices it keeps, not for the points it was given", function()
    -- a square with 25,000 points along each side: 200,000 numbers, 4 vertices kept
    local t, n = {}, 25000
    local function add(x, y)
      t[#t + 1] = x
      t[#t + 1] = y
    end
    for i = 0, n - 1 do add(i / n * 10, 0) end
    for i = 0, n - 1 do add(10, i / n * 10) end
    for i = 0, n - 1 do add(10 - i / n * 10, 10) end
    for i = 0, n - 1 do add(0, 10 - i / n * 10) end
    -- (LuaJIT's traces are collectable objects too, and the pure backend's loops compile)
    local p, copy, grown = require("spec.support").interpreted(function()
      collectgarbage()
      collectgarbage()
      local before = collectgarbage("count")
      local poly = sat.polygon(t)
      local clone = poly:clone()
      collectgarbage()
      collectgarbage()
      return poly, clone, collectgarbage("count") - before
    end)
    assert.are.same({ 0, 0, 10, 0, 10, 10, 0, 10 }, p:vertices())
    assert.are.equal(100, copy:area())
    -- sized for its input, each would hold 8 MB (5 arrays of 100,000 points)
    assert.is_true(grown < 16, grown .. " kb")
  end)
end)
