-- world:mover: a character on ground, slopes and stairs, frame by frame (y down, as in LÖVE;
-- 60 frames a second, gravity 900 px/s^2, walking at 120 px/s). Whether the character is on
-- the ground is asked of the narrow phase (sat.test against the ground shapes: touching
-- counts), not of the mover; drift is measured exactly (the position's bits).
local sat = require("sat")

local DT, G, WALK = 1 / 60, 900, 120

-- A slope rising to the right at `deg` degrees from x = 200 (a right triangle), with flat
-- ground on both sides: top of the flat ground at y = 400.
local function slopeWorld(deg)
  local world = sat.world(32)
  local rise = 200 * math.tan(math.rad(deg))
  local ground = {
    world:add(sat.box(-400, 400, 600, 40), "static"),
    world:add(sat.polygon(200, 400, 400, 400 - rise, 400, 400), "static"),
    world:add(sat.box(400, 400 - rise, 400, 40 + rise), "static"),
  }
  return world, ground, rise
end

local function body(kind, x, y)
  if kind == "capsule" then
    return sat.capsule(x, y - 10, x, y + 10, 10) -- 20 wide, 40 tall
  end
  return sat.box(x - 10, y - 20, 20, 40)
end

local function onGround(shape, ground)
  for _, g in ipairs(ground) do
    if sat.test(shape, g) then return true end
  end
  return false
end

-- A character: vy from gravity, reset on the ground (what a game does).
local function character(world, shape, options)
  local m = world:mover(world:add(shape), options)
  local c = { m = m, vy = 0 }
  function c.frame(vx)
    c.vy = c.vy + G * DT
    local x, y, cols = m:move(vx * DT, c.vy * DT)
    if m.grounded then c.vy = 0 end
    return x, y, cols
  end
  return c
end

-- Settles the character where it falls; returns its rest position.
local function settle(c)
  for _ = 1, 120 do c.frame(0) end
  return c.m.shape:position()
end

describe("world:mover", function()
  for _, kind in ipairs({ "capsule", "box" }) do
    for _, deg in ipairs({ 30, 45, 60 }) do
      -- (60 degrees is ground under a limit of 70; the default limit is 50)
      local limit = deg == 60 and math.rad(70) or nil
      it(("keeps a %s standing on a %d degree slope where it is (55 frames, drift 0)")
        :format(kind, deg), function()
        local world, ground = slopeWorld(deg)
        local c = character(world, body(kind, 300, 200), { snap = 8, maxSlope = limit })
        local x0, y0 = settle(c)
        assert.is_true(x0 > 200 and x0 < 400) -- on the slope itself
        assert.is_true(onGround(c.m.shape, ground))
        for f = 1, 55 do
          local x, y = c.frame(0)
          assert.are.equal(x0, x, "frame " .. f)
          assert.are.equal(y0, y, "frame " .. f)
          assert.is_true(c.m.grounded)
        end
        -- without the mover (plain world:move, "slide") it slides down: the issue's drift
        local plain = sat.world(32)
        slopeWorld(deg) -- (a fresh world of the same shape)
        local w2, g2 = slopeWorld(deg)
        local s = w2:add(body(kind, x0, y0))
        local vy = 0
        for _ = 1, 55 do
          vy = vy + G * DT
          local _, _, cols = w2:move(s, 0, vy * DT)
          if #cols > 0 then vy = 0 end
        end
        local x1 = s:position()
        assert.is_true(math.abs(x1 - x0) > 1, "plain move drift " .. (x1 - x0))
        assert.is_true(onGround(s, g2))
        assert.is_table(plain)
      end)

      it(("keeps a %s walking down a %d degree slope on it (89 frames, airborne 0)")
        :format(kind, deg), function()
        local world, ground, rise = slopeWorld(deg)
        local top = 400 - rise -- (the body starts above the top of the slope)
        local c = character(world, body(kind, 390, top - 30), { snap = 8, maxSlope = limit })
        settle(c)
        local airborne, lastX, lastY = 0, c.m.shape:position()
        for f = 1, 89 do
          local x, y = c.frame(-WALK)
          if not onGround(c.m.shape, ground) then airborne = airborne + 1 end
          assert.is_true(c.m.grounded, "frame " .. f)
          -- walking pace: 2 px a frame across, the slope's drop along
          assert.is_true(math.abs((lastX - x) - 2) < 1e-9, "frame " .. f .. ": dx " .. (lastX - x))
          assert.is_true(y >= lastY - 1e-9, "frame " .. f .. ": never up")
          lastX, lastY = x, y
        end
        assert.are.equal(0, airborne)
        -- and on the slope all the way: it went down 2 * 89 * tan(deg)
        local _, y1 = c.m.shape:position()
        assert.is_true(y1 > 200)
        -- plain world:move: airborne much of the way down
        local w2, g2 = slopeWorld(deg)
        local s = w2:add(body(kind, 390, top - 30))
        local vy, air = 0, 0
        for _ = 1, 120 do
          vy = vy + G * DT
          local _, _, cols = w2:move(s, 0, vy * DT)
          if #cols > 0 then vy = 0 end
        end
        for _ = 1, 89 do
          vy = vy + G * DT
          local _, _, cols = w2:move(s, -WALK * DT, vy * DT)
          if #cols > 0 then vy = 0 end
          if not onGround(s, g2) then air = air + 1 end
        end
        assert.is_true(air > 10, "plain move airborne " .. air)
      end)

      it(("walks a %s up a %d degree slope at its pace across"):format(kind, deg), function()
        local world = slopeWorld(deg)
        local c = character(world, body(kind, 150, 300), { snap = 8, maxSlope = limit })
        settle(c)
        local x0, y0 = c.m.shape:position()
        for _ = 1, 60 do c.frame(WALK) end
        local x1, y1 = c.m.shape:position()
        assert.is_true(math.abs(x1 - x0 - 120) < 1e-6, "dx " .. (x1 - x0))
        assert.is_true(y1 < y0 - 30) -- climbed
        assert.is_true(c.m.grounded)
      end)
    end

    it(("stops a %s at a 60 degree slope when the limit is 50 degrees"):format(kind), function()
      local world, ground = slopeWorld(60)
      local c = character(world, body(kind, 150, 300), { snap = 8, maxSlope = math.rad(50) })
      local _, y0 = settle(c)
      local stopped
      for f = 1, 120 do
        local x, y = c.frame(WALK)
        assert.is_true(y >= y0 - 1e-9, "frame " .. f .. ": climbed to " .. y)
        assert.is_true(onGround(c.m.shape, ground))
        stopped = stopped or (x < 200 and f > 60 and x)
      end
      -- at the foot of the slope, where it met it: the same x frame after frame
      local x1 = c.m.shape:position()
      assert.is_true(x1 < 200, "x " .. x1)
      assert.is_true(math.abs(x1 - stopped) < 1e-9)
      -- with the limit at 70 degrees the same slope is ground: it climbs
      local w2 = slopeWorld(60)
      local c2 = character(w2, body(kind, 150, 300), { snap = 8, maxSlope = math.rad(70) })
      local _, y2 = settle(c2)
      for _ = 1, 60 do c2.frame(WALK) end
      local _, y3 = c2.m.shape:position()
      assert.is_true(y3 < y2 - 50)
    end)

    it(("slides a %s down a slope steeper than the limit"):format(kind), function()
      local world = slopeWorld(60)
      local c = character(world, body(kind, 330, 0), { snap = 8, maxSlope = math.rad(50) })
      for _ = 1, 30 do c.frame(0) end
      local x0 = c.m.shape:position()
      for _ = 1, 30 do c.frame(0) end
      local x1 = c.m.shape:position()
      assert.is_true(x1 < x0 - 5, "slid " .. (x0 - x1)) -- down and to the left
      assert.is_false(c.m.grounded)
    end)

    it(("keeps a %s on stairs going down, and standing on a step"):format(kind), function()
      -- steps 16 wide and 6 high going down to the left from x = 400
      local world = sat.world(32)
      local ground = { world:add(sat.box(400, 300, 200, 100), "static") }
      for i = 1, 12 do
        ground[#ground + 1] = world:add(sat.box(400 - 16 * i, 300 + 6 * i, 16, 100), "static")
      end
      local c = character(world, body(kind, 450, 200), { snap = 8 })
      local x0, y0 = settle(c)
      for f = 1, 55 do
        local x, y = c.frame(0)
        assert.are.equal(x0, x, "frame " .. f)
        assert.are.equal(y0, y, "frame " .. f)
      end
      local airborne = 0
      for _ = 1, 89 do
        c.frame(-WALK)
        if not onGround(c.m.shape, ground) then airborne = airborne + 1 end
      end
      assert.are.equal(0, airborne)
      local x1, y1 = c.m.shape:position()
      assert.is_true(x1 < 400 - 100 and y1 > y0 + 30)
    end)
  end

  -- A box meets a slope's foot corner to corner: the sweep's normal there is a tie between
  -- the box's side (a wall) and the slope's, which rounding decides; the step over the corner
  -- (snap's height) walks it up whichever it is.
  for _, kind in ipairs({ "box", "capsule" }) do
    it(("walks a %s onto slopes of any angle from flat ground, and up stairs"):format(kind),
      function()
      for _, deg in ipairs({ 10, 20, 26.565051177078, 33, 40, 45, 48 }) do
        local world = slopeWorld(deg)
        local c = character(world, body(kind, 150, 300), { snap = 8 })
        local x0, y0 = settle(c)
        for f = 1, 60 do
          c.frame(WALK)
          assert.is_true(c.m.grounded, deg .. " degrees, frame " .. f)
        end
        local x1, y1 = c.m.shape:position()
        assert.is_true(math.abs(x1 - x0 - 120) < 1e-6, deg .. " degrees: dx " .. (x1 - x0))
        assert.is_true(y1 < y0 - 10, deg .. " degrees: climbed " .. (y0 - y1)) -- (80 px of it on the slope)
      end
      -- stairs up: steps 16 wide and 6 high going up to the right from x = 200
      local world = sat.world(32)
      local ground = { world:add(sat.box(0, 400, 200, 100), "static") }
      for i = 1, 12 do
        ground[#ground + 1] = world:add(sat.box(200 + 16 * (i - 1), 400 - 6 * i, 16, 100 + 6 * i),
          "static")
      end
      local c = character(world, body(kind, 150, 300), { snap = 8 })
      local x0, y0 = settle(c)
      for _ = 1, 60 do
        c.frame(WALK)
        assert.is_true(onGround(c.m.shape, ground))
      end
      local x1, y1 = c.m.shape:position()
      -- (a capsule loses 1.17 px at the first riser: the step's corner is steeper than the
      -- limit where it first lands on it, and the frame after it is not)
      local lost = kind == "box" and 1e-6 or 2
      assert.is_true(math.abs(x1 - x0 - 120) < lost, "stairs: dx " .. (x1 - x0))
      assert.is_true(y1 <= y0 - 30 + 1e-9, "stairs: climbed " .. (y0 - y1)) -- (5 steps)
      -- steps higher than snap are walls (a box's; a capsule's round bottom also rolls over
      -- corners up to r (1 - cos maxSlope), 3.6 px here: it is stopped by 6 with no snap)
      local c2 = character(world, body(kind, 150, 300), { snap = kind == "box" and 4 or 0 })
      settle(c2)
      for _ = 1, 60 do c2.frame(WALK) end
      local x2 = c2.m.shape:position()
      assert.is_true(x2 < 200, "steps of 6 with a snap of 4: x " .. x2)
    end)
  end

  it("snaps only a character that was on the ground and is not going up", function()
    local world = slopeWorld(45)
    local c = character(world, body("capsule", 390, 100), { snap = 8 })
    settle(c)
    -- a jump: up and left; no snap pulls it back
    c.vy = -300
    c.frame(-WALK)
    assert.is_false(c.m.grounded)
    local _, y1 = c.m.shape:position()
    c.frame(-WALK)
    local _, y2 = c.m.shape:position()
    assert.is_true(y2 < y1) -- still rising
    -- off a ledge higher than the snap: a fall, not a snap
    local w2 = sat.world(32)
    w2:add(sat.box(0, 400, 100, 40), "static")
    w2:add(sat.box(100, 430, 300, 40), "static") -- 30 below
    local d = character(w2, body("box", 90, 300), { snap = 8 })
    settle(d)
    for _ = 1, 10 do -- its box (80 to 100) walks 2 px a frame: at 100 to 120, on the edge
      d.frame(WALK)
      assert.is_true(d.m.grounded)
    end
    d.frame(WALK) -- past it: 30 px down is beyond the snap
    assert.is_false(d.m.grounded)
    local _, ya = d.m.shape:position()
    d.frame(WALK)
    local _, yb = d.m.shape:position()
    assert.is_true(yb > ya) -- falling
  end)

  it("reports the ground, its normal, and stays consistent with check", function()
    local world, ground = slopeWorld(45)
    local c = character(world, body("capsule", 300, 200), { snap = 8 })
    settle(c)
    assert.are.equal(ground[2], c.m.ground)
    local s = math.sqrt(0.5)
    assert.is_true(math.abs(c.m.normal.x + s) < 1e-12 and math.abs(c.m.normal.y + s) < 1e-12)
    -- check: the same as the move, nothing changed
    local x0, y0 = c.m.shape:position()
    local cx, cy, ccols = c.m:check(-2, 0.25)
    local ctypes = {}
    for i, col in ipairs(ccols) do ctypes[i] = col.type .. tostring(col.other) end
    assert.are.equal(x0, (c.m.shape:position()))
    local mx, my, mcols = c.m:move(-2, 0.25)
    assert.are.equal(cx, mx)
    assert.are.equal(cy, my)
    assert.are.equal(#ccols, #mcols)
    for i, col in ipairs(mcols) do assert.are.equal(ctypes[i], col.type .. tostring(col.other)) end
    assert.is_true(my > y0)
  end)

  it("checks its options and arguments", function()
    local world = sat.world(32)
    local s = world:add(sat.circle(0, 0, 5))
    local function msg(f)
      local ok, e = pcall(f)
      assert.is_false(ok)
      return tostring(e)
    end
    assert.truthy(msg(function() world:mover(sat.circle(0, 0, 1)) end)
      :find("bad argument #1 to 'mover' (shape is not in this world)", 1, true))
    assert.truthy(msg(function() world:mover(s, 5) end)
      :find("bad argument #2 to 'mover' (table expected, got number)", 1, true))
    assert.truthy(msg(function() world:mover(s, { up = sat.vec(0, 0) }) end)
      :find("up must be a vec other than (0, 0)", 1, true))
    assert.truthy(msg(function() world:mover(s, { maxSlope = 2 }) end)
      :find("maxSlope must be an angle from 0 to pi / 2", 1, true))
    assert.truthy(msg(function() world:mover(s, { snap = -1 }) end)
      :find("snap must be a number >= 0", 1, true))
    local m = world:mover(s)
    assert.truthy(msg(function() m:move("a", 0) end)
      :find("bad argument #1 to 'move' (number expected, got string)", 1, true))
    m.snap = -3
    local line = debug.getinfo(1, "l").currentline + 1
    local e = msg(function() m:move(1, 0) end)
    assert.truthy(e:find("world_mover_spec.lua:" .. line .. ": move: the mover's snap must be", 1, true), e)
    m.snap = 0
    assert.truthy(msg(function() m.move(5, 1, 0) end)
      :find("bad self to 'move' (mover expected, got number)", 1, true))
    world:remove(s)
    assert.truthy(msg(function() m:move(1, 0) end):find("move: the mover's shape is not in its world", 1, true))
    assert.are.equal(0, world:count())
  end)
end)
