-- Segments and capsules in every layer: constructors and their errors, methods, pair results
-- worked out by hand (both orders), the FFI path (LuaJIT), and the world: queries, step and
-- world:move along floors, walls, slopes and tile seams. Coordinates as in LÖVE (y down),
-- though nothing depends on it.
local sat = require("sat")
local support = require("spec.support")
local err, has = support.err, support.has

local nan = 0 / 0

local near, pair = support.near, support.pair

local function list(...)
  return { ... }
end

describe("sat.segment", function()
  it("is the line between two points, positioned at its midpoint", function()
    local s = sat.segment(3, 4, 7, 1)
    assert.are.equal("segment", s:kind())
    assert.are.same({ 5, 2.5 }, list(s:position()))
    assert.are.same({ 3, 4, 7, 1 }, list(s:endpoints()))
    assert.are.same({ 3, 1, 7, 4 }, list(s:bbox()))
    assert.are.equal(0, s:area())
    assert.are.equal("segment(3, 4 -> 7, 1)", tostring(s))
    assert.is_true(sat.isShape(s))
    assert.is_nil(s.radius) -- no radius: it has no thickness
  end)

  it("refuses bad input with the argument named, building nothing", function()
    has(err(function() local r = sat.segment(1, 2, 1, 2) return r end),
      "bad argument #3 to 'segment' (endpoints must differ)")
    has(err(function() local r = sat.segment(1, nan, 3, 4) return r end),
      "bad argument #2 to 'segment' (finite number expected, got nan)")
    has(err(function() local r = sat.segment(1, 2, 3) return r end),
      "bad argument #4 to 'segment' (number expected, got no value)")
    has(err(function() local r = sat.segment(1, 2, "x", 4) return r end),
      "bad argument #3 to 'segment' (number expected, got string)")
    has(err(function() local r = sat.segment(0, 0, 1e200, 0) return r end),
      "bad argument #3 to 'segment' (out of range")
    has(err(function() local r = sat.segment(0, 0, 1e-101, 0) return r end),
      "bad argument #3 to 'segment' (out of range")
  end)

  it("moves, turns and scales about its midpoint", function()
    local s = sat.segment(0, 0, 4, 0)
    assert.are.equal(s, s:rotate(math.pi / 2))
    local x1, y1, x2, y2 = s:endpoints()
    near(2, x1) near(-2, y1) near(2, x2) near(2, y2)
    s:setRotation(0):scale(2):move(1, 1)
    assert.are.same({ -1, 1, 7, 1 }, list(s:endpoints()))
    s:moveTo(0, 0)
    assert.are.same({ -4, 0, 4, 0 }, list(s:endpoints()))
    has(err(function() s:scale(0) end), "bad argument #1 to 'scale' (scale factor must be > 0)")
    assert.are.same({ -4, 0, 4, 0 }, list(s:endpoints()))
  end)

  it("contains the points on it, and a ray meets its side facing the ray", function()
    local s = sat.segment(0, 0, 4, 0)
    assert.is_true(s:contains(1, 0))
    assert.is_true(s:contains(4, 0))
    assert.is_false(s:contains(1, 1e-9))
    assert.is_false(s:contains(-1, 0))
    assert.are.same({ 0.5, 0, -1 }, list(s:raycast(1, -2, 1, 2)))
    assert.are.same({ 0.5, 0, 1 }, list(s:raycast(1, 2, 1, -2)))
    local t, nx, ny = s:raycast(-2, 0, 2, 0) -- along its line: its nearer end
    near(0.5, t) near(-1, nx) near(0, ny)
    assert.is_nil(s:raycast(5, -1, 5, 1))
  end)

  it("takes fields, category and mask, and keeps its methods first", function()
    local s = sat.segment(0, 0, 1, 0)
    s.tag = "ledge"
    s.category = 4
    assert.are.equal("ledge", s.tag)
    assert.are.equal(4, s.category)
    has(err(function() s.endpoints = 1 end),
      "cannot set field 'endpoints' of a segment: 'endpoints' is a method")
    local c = s:clone()
    assert.are.equal("ledge", c.tag)
    assert.are.same({ s:endpoints() }, { c:endpoints() })
  end)
end)

describe("sat.capsule", function()
  it("is the points within r of a segment", function()
    local c = sat.capsule(0, 0, 4, 0, 1)
    assert.are.equal("capsule", c:kind())
    assert.are.same({ 2, 0 }, list(c:position()))
    assert.are.same({ 0, 0, 4, 0 }, list(c:endpoints()))
    assert.are.equal(1, c:radius())
    assert.are.same({ -1, -1, 5, 1 }, list(c:bbox()))
    near(math.pi + 8, c:area())
    assert.are.equal("capsule(r 1, 0, 0 -> 4, 0)", tostring(c))
    assert.is_true(c:contains(-0.6, 0.8))
    assert.is_false(c:contains(4.8, 0.7)) -- where a box's corner would be
  end)

  it("allows equal endpoints (circle-like) and radius 0 (segment-like)", function()
    local round, flat = sat.capsule(5, 6, 5, 6, 2), sat.capsule(0, 0, 3, 0, 0)
    assert.are.same({ 3, 4, 7, 8 }, list(round:bbox()))
    near(4 * math.pi, round:area())
    assert.are.equal(0, flat:area())
    assert.are.equal("capsule(r 0, 0, 0 -> 3, 0)", tostring(flat))
    -- the same answers as the circle and the segment they are like
    local box = sat.box(4, 5, 3, 3)
    local r1, r2 = sat.collide(round, box), sat.collide(sat.circle(5, 6, 2), box)
    near(r2.overlap, r1.overlap, 1e-15)
    assert.is_true(r1.overlap > 0)
    box = sat.box(1, -1, 3, 3)
    r1, r2 = sat.collide(flat, box), sat.collide(sat.segment(0, 0, 3, 0), box)
    assert.are.equal(r2.overlap, r1.overlap)
    assert.are.equal(r2.normal, r1.normal)
  end)

  it("refuses a negative or non-finite radius, in the constructor and setRadius", function()
    has(err(function() local r = sat.capsule(0, 0, 1, 0, -1) return r end),
      "bad argument #5 to 'capsule' (radius must be >= 0)")
    has(err(function() local r = sat.capsule(0, 0, 1, 0, nan) return r end),
      "bad argument #5 to 'capsule' (finite number expected, got nan)")
    has(err(function() local r = sat.capsule(0, 0, 1, 0) return r end),
      "bad argument #5 to 'capsule' (number expected, got no value)")
    local c = sat.capsule(0, 0, 1, 0, 2)
    has(err(function() c:setRadius(-1) end), "radius must be >= 0")
    assert.are.equal(2, c:radius())
    assert.are.equal(c, c:setRadius(0.5))
    assert.are.equal(0.5, c:radius())
    has(err(function() local r = c.endpoints(sat.circle(0, 0, 1)) return r end),
      "bad self to 'endpoints' (segment or capsule expected, got circle)")
  end)

  it("scales its radius with its segment; rotates about its midpoint", function()
    local c = sat.capsule(0, 0, 4, 0, 1)
    c:scale(3)
    assert.are.same({ -4, 0, 8, 0 }, list(c:endpoints()))
    assert.are.equal(3, c:radius())
    c:rotate(math.pi / 2)
    local x1, y1, x2, y2 = c:endpoints()
    near(2, x1) near(-6, y1) near(2, x2) near(6, y2)
  end)

  it("is met by a ray on its side or its round end", function()
    local c = sat.capsule(0, 0, 4, 0, 1)
    local t, nx, ny = c:raycast(2, -3, 2, 3)
    near(1 / 3, t) near(0, nx) near(-1, ny)
    t, nx, ny = c:raycast(-3, 0, 0, 0)
    near(2 / 3, t) near(-1, nx) near(0, ny)
    assert.are.same({ 0, 0, 1 }, list(c:raycast(2, 0.5, 9, 9))) -- starts inside
  end)
end)

describe("segment and capsule pairs", function()
  local box = sat.box(0, 0, 4, 4)

  it("a capsule's end against a box's corner is the true distance, not a polygon's", function()
    pair(sat.capsule(7, 8, 7, 12, 6), box, 1, -0.6, -0.8)
    pair(sat.capsule(7, 8, 7, 12, 5), box, 0, -0.6, -0.8) -- touching: overlap 0
    assert.is_false(sat.test(sat.capsule(7, 8, 7, 12, 4.999), box))
  end)

  it("a capsule lying on a box, and a segment flat on it and sunk into it", function()
    pair(sat.capsule(1, 5, 3, 5, 1.5), box, 0.5, 0, -1, 0)
    local r = pair(sat.segment(1, 4, 3, 4), box, 0, 0, -1, 0)
    assert.is_true(r.aInB) -- on the boundary: inside, as touching counts
    r = pair(sat.segment(1, 3, 3, 3), box, 1, 0, -1, 0)
    assert.is_true(r.aInB)
    assert.is_false(r.bInA)
  end)

  it("a segment through a circle's centre pushes the circle to the segment's left", function()
    local r = pair(sat.circle(0, 0, 2), sat.segment(-5, 0, 5, 0), 2, 0, -1, 0)
    assert.are.same({ 0, 2 }, { r.mtv.x, r.mtv.y })
    pair(sat.circle(0, -0.5, 2), sat.segment(-5, 0, 5, 0), 1.5, 0, 1, 0)
    r = pair(sat.point(1, 0), sat.segment(-5, 0, 5, 0), 0)
    assert.is_true(r.aInB) -- a point on a segment lies in it
  end)

  it("crossing, touching and collinear segments", function()
    pair(sat.segment(-1, 0, 1, 0), sat.segment(0, -1, 0, 1), 1)
    pair(sat.segment(0, 0, 2, 0), sat.segment(1, 0, 1, 2), 0, 0, 1, 0) -- a T
    -- on one line: overlap 0 along the left normal of the first in the canonical order
    pair(sat.segment(0, 0, 2, 0), sat.segment(1, 0, 3, 0), 0, 0, 1, 0)
    pair(sat.segment(2, 0, 0, 0), sat.segment(1, 0, 3, 0), 0, 0, -1, 0)
    local r = pair(sat.segment(1, 0, 2, 0), sat.segment(0, 0, 4, 0), 0, 0, 1, 0)
    assert.is_true(r.aInB) -- a collinear sub-segment lies in it
    assert.is_false(sat.test(sat.segment(0, 0, 1, 0), sat.segment(1.5, 0, 3, 0)))
  end)

  it("capsules side by side, end to end and one inside another", function()
    pair(sat.capsule(0, 0, 4, 0, 1), sat.capsule(1, 1.5, 3, 1.5, 1), 0.5, 0, 1, 0)
    pair(sat.capsule(0, 0, 2, 0, 1), sat.capsule(3, 0, 5, 0, 1), 1, 1, 0, 0)
    local r = pair(sat.capsule(0, 0, 1, 0, 0.5), sat.capsule(-1, 0, 3, 0, 2), 2.5, 0, 1, 0)
    assert.is_true(r.aInB)
    local hit, mx, my = sat.capsule(0, 0, 2, 0, 1):collidesWith(sat.capsule(3, 0, 5, 0, 1))
    assert.is_true(hit)
    assert.are.same({ -1, 0 }, { mx, my })
  end)

  it("gives the same answers far from the origin", function()
    local a, b = sat.capsule(0.1, 0.2, 3.3, 1.7, 1.1), sat.capsule(1.3, 2.9, 2.1, -0.7, 0.3)
    local r0 = sat.collide(a, b)
    a:move(1e9, -1e9)
    b:move(1e9, -1e9)
    local r1 = sat.collide(a, b)
    assert.are.equal(r0.overlap, r1.overlap)
    assert.are.equal(r0.normal, r1.normal)
  end)
end)

describe("segments and capsules through sat.fast (LuaJIT)", function()
  local fast = sat.test ~= sat.core.test

  it("agree with the C functions for every pair of kinds", function()
    if not fast then -- (not LuaJIT with the JIT on): the C functions stay
      assert.are.equal(sat.core.test, sat.test)
      assert.are.equal(sat.core.collide, sat.collide)
      return
    end
    local shapes = {
      sat.box(0, 0, 4, 4), sat.circle(5, 2, 2), sat.segment(3, -1, 6, 5),
      sat.capsule(-1, 3, 2, 6, 1.5), sat.point(4, 4),
    }
    shapes[#shapes + 1] = shapes[3]:clone()
    shapes[#shapes].tag = "with fields" -- its own metatable
    local capsule = sat.capsule(0, 0, 3, 0, 1)
    capsule.name = "fields"
    shapes[#shapes + 1] = capsule
    for _, a in ipairs(shapes) do
      for _, b in ipairs(shapes) do
        assert.are.equal(sat.core.test(a, b), sat.test(a, b))
        local r1, r2 = sat.core.collide(a, b), sat.collide(a, b)
        assert.are.equal(r1 == nil, r2 == nil)
        if r1 then
          assert.are.equal(r1.overlap, r2.overlap)
          assert.are.equal(r1.normal, r2.normal)
          assert.are.equal(r1.aInB, r2.aInB)
        end
        local h1, x1, y1 = sat.core._ffi.collidesWith(a, b)
        assert.are.same({ h1, x1, y1 }, { a:collidesWith(b) })
      end
    end
    -- the FFI methods are in the new kinds' method tables too
    assert.are.equal(sat.box(0, 0, 1, 1).move, capsule.move)
    assert.are.equal(capsule, capsule:move(1, 2))
    assert.are.same({ 2.5, 2 }, { capsule:position() })
  end)
end)

describe("segments and capsules in a world", function()
  local it = require("spec.support").needs(it, pending, "world") -- luacheck: ignore 431
  -- A floor whose top is at y = 100, a wall whose left side is at x = 150.
  local function room()
    local world = sat.world(32)
    local floor = world:add(sat.box(0, 100, 200, 20))
    local wall = world:add(sat.box(150, 0, 20, 100))
    return world, floor, wall
  end

  -- A standing character: width 2r, height h, centred on (x, y).
  local function character(x, y, r, h)
    return sat.capsule(x, y - h / 2 + r, x, y + h / 2 - r, r)
  end

  it("a capsule lands on a floor and slides along it", function()
    local world, floor = room()
    local c = world:add(character(60, 40, 10, 40)) -- its bottom at y = 60
    local x, y, cols = world:move(c, 0, 100)
    assert.are.same({ 60, 80 }, { x, y })
    assert.are.equal(1, #cols)
    assert.are.equal(floor, cols[1].other)
    assert.are.same({ 0, 1 }, { cols[1].normal.x, cols[1].normal.y })
    x, y = world:move(c, 30, 10) -- pressing down while moving along it
    assert.are.same({ 90, 80 }, { x, y })
  end)

  it("a capsule stops at a wall and slides along it", function()
    local world, _, wall = room()
    local c = world:add(character(100, 40, 10, 40))
    local x, y, cols = world:move(c, 100, 20)
    assert.are.same({ 140, 60 }, { x, y })
    assert.are.equal(wall, cols[1].other)
    assert.are.same({ 1, 0 }, { cols[1].normal.x, cols[1].normal.y })
  end)

  it("a capsule slides down a 45 degree slope, touching it", function()
    local world = sat.world(32)
    local slope = world:add(sat.polygon(0, 0, 200, 200, 0, 200)) -- its face y = x
    local c = world:add(sat.capsule(100, 40, 100, 60, 10))
    -- Falling straight down: its lower end (100, 60) is 40 / sqrt(2) from the face, so it
    -- touches after dropping d0 = 40 - 10 sqrt(2); the rest of the motion, along the face,
    -- takes it as far right as down.
    local x, y, cols = world:move(c, 0, 100)
    assert.are.equal(slope, cols[1].other)
    near(-math.sqrt(0.5), cols[1].normal.x, 1e-12)
    near(math.sqrt(0.5), cols[1].normal.y, 1e-12)
    local d0 = 40 - 10 * math.sqrt(2)
    near(100 + (100 - d0) / 2, x, 1e-12)
    near(50 + d0 + (100 - d0) / 2, y, 1e-12)
    near(0, sat.collide(c, slope).overlap, 1e-9)
  end)

  it("a capsule walks over the seams of a tiled floor without snagging", function()
    local world = sat.world(16)
    for i = 0, 31 do
      world:add(sat.box(i * 16, 100, 16, 16))
    end
    local c = world:add(character(20, 80, 8, 40)) -- resting on the tiles
    local x, y
    for _ = 1, 100 do
      x, y = world:move(c, 4, 1) -- walking right, pushed down by gravity every frame
    end
    assert.are.equal(420, x)
    near(80, y, 1e-9)
  end)

  it("never tunnels through a thin wall, however fast", function()
    local world = sat.world(32)
    world:add(sat.box(500, -1000, 1, 2000))
    local c = world:add(sat.capsule(0, 0, 0, 20, 5))
    local x = world:move(c, 1e5, 0)
    assert.are.equal(495, x)
  end)

  it("a segment is a floor and a wall for every kind", function()
    for _, make in ipairs({
      function() return sat.box(40, 40, 20, 20) end,
      function() return sat.circle(50, 50, 10) end,
      function() return sat.capsule(50, 45, 50, 55, 5) end,
      function() return sat.polygon(40, 60, 50, 40, 60, 60) end,
    }) do
      local world = sat.world(32)
      local floor = world:add(sat.segment(0, 100, 200, 100))
      local wall = world:add(sat.segment(150, 0, 150, 100))
      local s = world:add(make())
      local x0, y0 = s:position()
      local _, _, x2, y2 = s:bbox()
      local _, y, cols = world:move(s, 0, 100)
      near(y0 + 100 - y2, y, 1e-9, s:kind() .. " on a segment floor")
      assert.are.equal(floor, cols[1].other)
      local x
      x, _, cols = world:move(s, 200, 0)
      near(x0 + 150 - x2, x, 1e-9, s:kind() .. " at a segment wall")
      assert.are.equal(wall, cols[1].other)
    end
  end)

  it("is found by queries and paired by step", function()
    local world = sat.world(32)
    local seg = world:add(sat.segment(0, 0, 100, 0))
    local cap = world:add(sat.capsule(50, 5, 50, 30, 5))
    assert.are.same({ cap }, world:queryPoint(50, 34))
    assert.are.same({ seg }, world:queryRect(10, -1, 5, 2))
    local hits = world:querySegment(0, 20, 100, 20)
    assert.are.equal(1, #hits)
    assert.are.equal(cap, hits[1].shape)
    near(0.45, hits[1].t) -- its side x = 45
    hits = world:querySegment(10, -10, 10, 10)
    assert.are.equal(seg, hits[1].shape)
    near(0.5, hits[1].t)
    local entered = 0
    world:on("enter", function(a, b, r)
      entered = entered + 1
      assert.are.same({ seg, cap }, { a, b })
      assert.are.equal(0, r.overlap) -- the capsule's end rests on the segment
    end)
    world:step()
    assert.are.equal(1, entered)
  end)
end)
