-- Movement beyond slide/touch/cross (issue 27): world:check, world:queryCast, the "bounce"
-- response and world:addResponse, one-way shapes, world:push (platforms, doors, crushers),
-- and which part of a compound a collision, a query hit and a cast hit is with. Expected
-- positions are worked out by hand from the geometry (y down, as in LÖVE).
local sat = require("sat")

local function near(a, b, eps)
  return math.abs(a - b) <= (eps or 1e-9)
end

local function errorOf(f)
  local ok, e = pcall(f)
  assert.is_false(ok)
  return tostring(e)
end

describe("world:check", function()
  it("gives what move gives, changing nothing (shape, world, next step)", function()
    local world = sat.world(32)
    local wall = world:add(sat.box(50, -100, 10, 200), "static")
    local zone = world:add(sat.box(20, -5, 5, 10))
    local s = world:add(sat.circle(0, 0, 5))
    local entered = 0
    world:on("enter", function() entered = entered + 1 end)
    world:step()
    local function filter(_, other)
      return other == zone and "cross" or "slide"
    end
    -- (100, 20): the zone crossed on the way, then the wall at x = 45 (t = 0.45, y = 9), the
    -- rest (55, 11) slid along it: (0, 11), to (45, 20)
    local x, y, cols = world:check(s, 100, 20, filter)
    assert.are.equal(45, x)
    assert.is_true(near(y, 20))
    assert.are.equal(2, #cols)
    assert.are.equal(zone, cols[1].other)
    assert.are.equal("cross", cols[1].type)
    assert.are.equal(wall, cols[2].other)
    assert.are.equal("slide", cols[2].type)
    assert.are.equal(45, cols[2].x)
    assert.is_true(near(cols[2].y, 9))
    assert.are.equal(1, cols[2].normal.x)
    -- nothing changed: the shape where it was, no contact for the next step
    assert.are.same({ 0, 0 }, { s:position() })
    world:step()
    assert.are.equal(0, entered)
    assert.are.equal(0, #world:collisions(s))
    -- the move then does the same, bit for bit
    local mx, my, mcols = world:move(s, 100, 20, filter)
    assert.are.equal(x, mx)
    assert.are.equal(y, my)
    assert.are.equal(#cols, #mcols)
    for i = 1, #cols do
      assert.are.equal(cols[i].other, mcols[i].other)
      assert.are.equal(cols[i].x, mcols[i].x)
      assert.are.equal(cols[i].y, mcols[i].y)
    end
    world:step()
    assert.are.equal(1, entered) -- (the move ended beside the wall, in no zone: the wall
    -- touched counts as a contact)
  end)

  it("fills a cols table given, and checks its arguments", function()
    local world = sat.world(32)
    local s = world:add(sat.circle(0, 0, 5))
    world:add(sat.box(20, -10, 10, 20), "static")
    local out = { "junk", "junk" }
    local _, _, cols = world:check(s, 30, 0, out)
    assert.are.equal(out, cols)
    assert.are.equal(1, #cols)
    assert.truthy(errorOf(function() world:check(sat.circle(0, 0, 1), 1, 0) end)
      :find("bad argument #1 to 'check' (shape is not in this world)", 1, true))
    assert.truthy(errorOf(function() world:check(s, "a", 0) end)
      :find("bad argument #2 to 'check'", 1, true))
    assert.truthy(errorOf(function() world.check(5, s, 1, 0) end)
      :find("bad self to 'check' (world expected, got number)", 1, true))
  end)
end)

describe("world:queryCast", function()
  it("lists every shape along the path by time, with the contact point and normal", function()
    local world = sat.world(32)
    local start = world:add(sat.box(-2, -2, 4, 4), "static") -- overlapped at the start
    local b1 = world:add(sat.box(60, -10, 10, 20))
    local b2 = world:add(sat.box(20, -10, 10, 20), "static")
    world:add(sat.box(20, 40, 10, 20)) -- off the path
    local beyond = world:add(sat.box(120, -10, 10, 20)) -- past the end
    local probe = sat.circle(0, 0, 5) -- not in the world
    local hits = world:queryCast(probe, 100, 0)
    assert.are.equal(3, #hits)
    assert.are.equal(start, hits[1].shape)
    assert.are.equal(0, hits[1].t)
    -- b2: the circle's edge (x + 5) meets x = 20 when it has moved 15: t = 0.15, at (20, 0)
    assert.are.equal(b2, hits[2].shape)
    assert.is_true(near(hits[2].t, 0.15))
    assert.is_true(near(hits[2].x, 20) and near(hits[2].y, 0))
    assert.are.equal(1, hits[2].nx)
    assert.are.equal(0, hits[2].ny)
    assert.are.equal(b1, hits[3].shape)
    assert.is_true(near(hits[3].t, 0.55))
    assert.is_true(near(hits[3].x, 60))
    -- a longer cast meets the last box too; the table given is refilled, its hits reused
    local h2 = hits[2]
    local again = world:queryCast(probe, 200, 0, hits)
    assert.are.equal(hits, again)
    assert.are.equal(4, #again)
    assert.are.equal(h2, again[2])
    assert.are.equal(beyond, again[4].shape)
    assert.is_true(near(again[4].t, 115 / 200))
    -- the filter keeps hits; a shape in the world never meets itself
    local only = world:queryCast(probe, 100, 0, function(o) return not world:isStatic(o) end)
    assert.are.equal(1, #only)
    assert.are.equal(b1, only[1].shape)
    local self1 = world:queryCast(b1, -100, 0)
    assert.are.equal(b2, self1[1].shape)
    assert.are.equal(start, self1[2].shape)
    assert.is_true(near(self1[1].t, 0.3)) -- 60 - 30 = 30 of 100
    -- nothing moved, nothing changed
    assert.are.same({ 0, 0 }, { probe:position() })
  end)

  it("agrees with sat.sweep shape by shape", function()
    local world = sat.world(16)
    local shapes = {
      world:add(sat.circle(40, 12, 6)),
      world:add(sat.polygon(70, -20, 90, -10, 80, 10), "static"),
      world:add(sat.capsule(100, 30, 120, -30, 4)),
      world:add(sat.segment(30, 40, 60, 35)),
    }
    local probe = sat.capsule(0, 0, 8, 4, 5)
    local hits = world:queryCast(probe, 130, 20)
    local expected = {}
    for _, o in ipairs(shapes) do
      local t, nx, ny = sat.sweep(probe, 130, 20, o)
      if t then expected[#expected + 1] = { o = o, t = t, nx = nx, ny = ny } end
    end
    table.sort(expected, function(a, b) return a.t < b.t end)
    assert.is_true(#expected >= 2)
    assert.are.equal(#expected, #hits)
    for i, e in ipairs(expected) do
      assert.are.equal(e.o, hits[i].shape)
      assert.are.equal(e.t, hits[i].t)
      assert.is_true(near(e.nx, hits[i].nx) and near(e.ny, hits[i].ny))
    end
  end)
end)

describe("responses", function()
  it("bounce reflects the rest of the motion about the contact normal", function()
    local world = sat.world(32)
    world:add(sat.box(50, -100, 10, 200), "static")
    local s = world:add(sat.circle(0, 0, 5))
    -- (100, 50): touch at t = 0.45, at (45, 22.5); the rest (55, 27.5) becomes (-55, 27.5)
    local x, y, cols = world:move(s, 100, 50, function() return "bounce" end)
    assert.is_true(near(x, -10) and near(y, 50))
    assert.are.equal("bounce", cols[1].type)
    assert.is_true(near(cols[1].x, 45) and near(cols[1].y, 22.5))
    -- between two walls: back and forth (40 apart, a 10 wide ball: 30 of room each way)
    local w2 = sat.world(32)
    w2:add(sat.box(-30, -100, 10, 200), "static")
    w2:add(sat.box(20, -100, 10, 200), "static")
    local b = w2:add(sat.circle(0, 0, 5))
    local bx = w2:move(b, 70, 0, function() return "bounce" end)
    -- right 15 to the wall, back 30 to the other, right 25: at 10
    assert.is_true(near(bx, 10))
  end)

  it("addResponse: the game's own, given the contact, as powerful as the built-ins", function()
    local world = sat.world(32)
    local wall = world:add(sat.box(50, -100, 10, 200), "static")
    local s = world:add(sat.circle(0, 0, 5))
    local seen
    -- "stick": against the wall, down it at half the pace
    world:addResponse("stick", function(c)
      seen = { other = c.other, shape = c.shape, type = c.type, nx = c.nx, ny = c.ny, x = c.x,
               y = c.y, vx = c.vx, vy = c.vy, dx = c.dx, dy = c.dy, overlap = c.overlap }
      return 0, c.vy * 0.5
    end)
    local x, y, cols = world:move(s, 100, 50, function() return "stick" end)
    assert.are.equal(wall, seen.other)
    assert.are.equal(s, seen.shape)
    assert.are.equal("stick", seen.type)
    assert.are.same({ 1, 0 }, { seen.nx, seen.ny })
    assert.is_true(near(seen.x, 45) and near(seen.y, 22.5))
    assert.is_true(near(seen.vx, 55) and near(seen.vy, 27.5))
    assert.are.same({ 100, 50 }, { seen.dx, seen.dy })
    assert.are.equal(0, seen.overlap)
    -- the rest: (0, 13.75)
    assert.is_true(near(x, 45) and near(y, 22.5 + 13.75))
    assert.are.equal("stick", cols[1].type)
    -- returning nothing: through (reported), as "cross"
    world:addResponse("ghost", function() end)
    local x2, _, cols2 = world:move(s, -100, 0, function() return "ghost" end)
    assert.are.equal(-55, x2)
    assert.are.equal(0, #cols2) -- (nothing on the way back)
    local x3, _, cols3 = world:move(s, 200, 0, function() return "ghost" end)
    assert.are.equal(145, x3)
    assert.are.equal(wall, cols3[1].other)
    assert.are.equal("ghost", cols3[1].type)
    -- a built-in's name replaced in this world only
    world:addResponse("slide", function() return 0, 0 end)
    -- from (145, 36.25), (-100, 50): the wall's right side (60) met at x = 65, t = 0.8: stopped
    local x4, y4 = world:move(s, -100, 50)
    assert.is_true(near(x4, 65) and near(y4, 76.25))
    local other = sat.world(32)
    other:add(sat.box(50, -100, 10, 200), "static")
    local s2 = other:add(sat.circle(0, 0, 5))
    local _, y5 = other:move(s2, 100, 50)
    assert.is_true(near(y5, 50)) -- its slide is the library's
  end)

  it("checks the names and what a response returns", function()
    local world = sat.world(32)
    world:add(sat.box(50, -100, 10, 200), "static")
    local s = world:add(sat.circle(0, 0, 5))
    assert.truthy(errorOf(function() world:addResponse(1, print) end)
      :find("bad argument #1 to 'addResponse' (string expected, got number)", 1, true))
    assert.truthy(errorOf(function() world:addResponse("x", 1) end)
      :find("bad argument #2 to 'addResponse' (function expected, got number)", 1, true))
    assert.truthy(errorOf(function() world:move(s, 100, 0, function() return "nope" end) end)
      :find("the filter returned nope; expected a response", 1, true))
    world:addResponse("bad", function() return "a", 0 end)
    assert.truthy(errorOf(function() world:move(s, 100, 0, function() return "bad" end) end)
      :find("the response \"bad\" returned", 1, true))
    assert.are.same({ 0, 0 }, { s:position() }) -- (undone)
  end)
end)

describe("one-way shapes", function()
  local DOWN = sat.vec(0, 1)

  it("stop what comes down onto them, and let through what comes from below", function()
    local world = sat.world(32)
    local floor = world:add(sat.box(0, 100, 100, 10), "static")
    floor.oneway = DOWN
    local s = world:add(sat.circle(50, 80, 5))
    local _, y, cols = world:move(s, 0, 30)
    assert.are.equal(95, y)
    assert.are.equal(floor, cols[1].other)
    -- from below: through, silently
    s:moveTo(50, 130)
    local _, y2, cols2 = world:move(s, 0, -50)
    assert.are.equal(80, y2)
    assert.are.equal(0, #cols2)
    -- overlapping when the move begins (half through): through, whatever the direction
    s:moveTo(50, 104)
    local _, y3, cols3 = world:move(s, 0, 20)
    assert.are.equal(124, y3)
    assert.are.equal(0, #cols3)
    -- sideways into its edge: through
    s:moveTo(-20, 105)
    local x4 = world:move(s, 200, 0)
    assert.are.equal(180, x4)
  end)

  it("work for every kind: a slanted capsule, a chain", function()
    local world = sat.world(32)
    local ramp = world:add(sat.capsule(0, 100, 100, 50, 2), "static") -- y = 100 - x / 2
    ramp.oneway = DOWN
    local s = world:add(sat.circle(50, 0, 5))
    local _, y = world:move(s, 0, 200, function() return "touch" end)
    -- the circle rests on the ramp: its centre 5 + 2 from the line, along the normal
    -- (1, 2) / sqrt(5) upward: y = 75 - 7 * sqrt(5) / 2
    assert.is_true(near(y, 75 - 7 * math.sqrt(5) / 2, 1e-9), y)
    s:moveTo(50, 150)
    local _, y2 = world:move(s, 0, -200)
    assert.are.equal(-50, y2)
    local chain = world:add(sat.chain({ 200, 100, 260, 100, 320, 80 }), "static")
    chain.oneway = DOWN
    local c = world:add(sat.circle(230, 50, 5))
    local _, cy = world:move(c, 0, 100)
    assert.are.equal(95, cy)
    c:moveTo(230, 150)
    local _, cy2 = world:move(c, 0, -100)
    assert.are.equal(50, cy2)
  end)

  it("drop through when the filter says so, and a wrong oneway is an error", function()
    local world = sat.world(32)
    local floor = world:add(sat.box(0, 100, 100, 10), "static")
    floor.oneway = DOWN
    local s = world:add(sat.circle(50, 95, 5))
    local dropping = true
    local function filter(_, other)
      if other.oneway and dropping then return nil end
      return "slide"
    end
    local _, y = world:move(s, 0, 30, filter)
    assert.are.equal(125, y)
    floor.oneway = sat.vec(0, 0)
    s:moveTo(50, 80)
    assert.truthy(errorOf(function() world:move(s, 0, 30) end)
      :find("oneway must be a vec other than (0, 0)", 1, true))
    floor.oneway = "down"
    assert.truthy(errorOf(function() world:move(s, 0, 30) end)
      :find("oneway must be a vec", 1, true))
    assert.are.same({ 50, 80 }, { s:position() })
  end)
end)

describe("world:push", function()
  local DT, G = 1 / 60, 900

  it("carries a rider on a descending lift every frame (240 of 240)", function()
    local world = sat.world(32)
    local lift = world:add(sat.box(0, 200, 100, 10))
    local rider = world:mover(world:add(sat.box(40, 160, 20, 40)), { snap = 4 })
    local vy, on = 0, 0
    for f = 1, 240 do
      local carried = world:push(lift, 0, 1) -- 60 px a second, down
      vy = vy + G * DT
      rider:move(0, vy * DT)
      if rider.grounded then vy = 0 end
      local _, y1, _, y2 = rider.shape:bbox()
      local _, ly = lift:bbox()
      if sat.test(rider.shape, lift) and near(y2, ly) then
        on = on + 1
      end
      assert.are.equal(rider.shape, carried[1], "frame " .. f)
      assert.is_true(near(y1, 160 + f), "frame " .. f)
    end
    assert.are.equal(240, on)
    -- without push (the lift moved as any shape): the rider falls behind it
    local w2 = sat.world(32)
    local lift2 = w2:add(sat.box(0, 200, 100, 10))
    local r2 = w2:add(sat.box(40, 160, 20, 40))
    local vy2, on2 = 0, 0
    for _ = 1, 240 do
      lift2:move(0, 1)
      vy2 = vy2 + G * DT
      local _, _, cols = w2:move(r2, 0, vy2 * DT)
      if #cols > 0 then vy2 = 0 end
      if sat.test(r2, lift2) then on2 = on2 + 1 end
    end
    assert.is_true(on2 < 120, "plain: on the lift " .. on2) -- (60 of 240 when measured)
  end)

  it("lifts a rider going up, with what stands on it", function()
    local world = sat.world(32)
    local lift = world:add(sat.box(0, 200, 100, 10))
    local a = world:add(sat.box(40, 180, 20, 20))
    local b = world:add(sat.box(40, 160, 20, 20)) -- on a
    for _ = 1, 30 do
      local carried = world:push(lift, 0, -2)
      assert.are.equal(2, #carried)
    end
    assert.are.same({ 0, 140, 100, 150 }, { lift:bbox() })
    assert.are.same({ 40, 120, 60, 140 }, { a:bbox() })
    assert.are.same({ 40, 100, 60, 120 }, { b:bbox() })
  end)

  it("pushes what is in its way, and reports what it crushes (never left overlapping)", function()
    local world = sat.world(32)
    local door = world:add(sat.box(100, 0, 10, 100))
    local crate = world:add(sat.box(120, 40, 20, 20))
    local far = world:add(sat.box(300, 40, 20, 20))
    -- 30 right: it meets the crate after 10 and pushes it the other 20
    local carried, pushed, crushed = world:push(door, 30, 0, { up = false })
    assert.are.same({}, carried)
    assert.are.same({ crate }, pushed)
    assert.are.same({}, crushed)
    assert.are.same({ 140, 40, 160, 60 }, { crate:bbox() })
    assert.are.same({ 300, 40, 320, 60 }, { far:bbox() })
    -- a wall at 170: 10 more of room; 30 more of door crushes the crate (door 160 to 170,
    -- crate 150 to 170): it is moved out by the minimum translation, 10 to the left
    world:add(sat.box(170, 0, 10, 100), "static")
    local out = { pushed = {}, crushed = {} }
    local _, p2, c2 = world:push(door, 30, 0, out)
    assert.are.equal(out.pushed, p2)
    assert.are.equal(out.crushed, c2)
    assert.are.same({}, p2)
    assert.are.same({ crate }, c2)
    assert.are.same({ 140, 40, 160, 60 }, { crate:bbox() })
    local r = sat.collide(crate, door)
    assert.is_true(r == nil or r.overlap == 0)
  end)

  it("checks its arguments", function()
    local world = sat.world(32)
    local p = world:add(sat.box(0, 0, 10, 10))
    assert.truthy(errorOf(function() world:push(sat.box(0, 0, 1, 1), 1, 0) end)
      :find("bad argument #1 to 'push' (shape is not in this world)", 1, true))
    assert.truthy(errorOf(function() world:push(p, 1, 0, 5) end)
      :find("bad argument #4 to 'push' (table expected, got number)", 1, true))
    assert.truthy(errorOf(function() world:push(p, 1, 0, { up = 3 }) end)
      :find("up must be a vec or false", 1, true))
    assert.truthy(errorOf(function() world:push(p, 1, 0, { up = sat.vec(0, 0) }) end)
      :find("up must be a vec other than (0, 0)", 1, true))
    assert.are.same({ 0, 0, 10, 10 }, { p:bbox() })
  end)
end)

describe("which part of a compound", function()
  local function rock()
    -- two boxes, 10 apart: parts 1 (200..210) and 2 (220..230)
    return sat.compound({ sat.box(200, 0, 10, 10), sat.box(220, 0, 10, 10) })
  end

  it("in a move's collisions, on either side", function()
    local world = sat.world(32)
    local comp = world:add(rock(), "static")
    local s = world:add(sat.circle(240, 5, 3))
    local x, _, cols = world:move(s, -30, 0)
    assert.are.equal(233, x)
    assert.are.equal(comp, cols[1].other)
    assert.are.equal(2, cols[1].part)
    assert.is_nil(cols[1].ownPart)
    s:moveTo(215, 30)
    -- up into part 1 from below: its top (y - 3) meets y = 10 at t = 17 / 30, x = 209.33 (over
    -- part 1, 200 to 210), then slides along it: y = 13
    local _, y2, cols2 = world:move(s, -10, -30)
    assert.are.equal(13, y2)
    assert.are.equal(1, cols2[1].part)
    -- the compound moving: its own part
    local w2 = sat.world(32)
    local c2 = w2:add(rock())
    local wall = w2:add(sat.box(260, 0, 10, 10), "static")
    local _, _, cols3 = w2:move(c2, 50, 0)
    assert.are.equal(wall, cols3[1].other)
    assert.is_nil(cols3[1].part)
    assert.are.equal(2, cols3[1].ownPart)
    -- and in world:collisions and the step's responses
    local w3 = sat.world(32)
    local c3 = w3:add(rock())
    local probe = w3:add(sat.circle(203, 5, 2))
    local list = w3:collisions(probe)
    assert.are.equal(c3, list[1].b)
    assert.are.equal(1, list[1].part)
  end)

  it("in a query hit and a cast hit", function()
    local world = sat.world(32)
    local comp = world:add(rock(), "static")
    local seg = world:querySegment(250, 5, 190, 5)
    assert.are.equal(comp, seg[1].shape)
    assert.are.equal(2, seg[1].part)
    assert.are.equal(230, seg[1].x)
    local seg2 = world:querySegment(205, 50, 205, -50)
    assert.are.equal(1, seg2[1].part)
    local hits = world:queryCast(sat.circle(260, 5, 3), -100, 0)
    assert.are.equal(comp, hits[1].shape)
    assert.are.equal(2, hits[1].part)
    assert.is_true(near(hits[1].t, 0.27))
    local hits2 = world:queryCast(sat.circle(215, -20, 3), -10, 40)
    -- down and left onto part 1's corner (210, 0): the circle spans x 207.75 to 213.75 when its
    -- bottom reaches y = 0; part 2 (220 to 230) is out of its reach
    assert.are.equal(1, hits2[1].part)
  end)
end)
