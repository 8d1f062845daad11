-- The demo's platformer room (key p): a character under gravity moved by world:mover (ground,
-- a 30 degree slope, stairs, snap and step), a one-way ledge it jumps up through and drops
-- down through, a lift moved by world:push that carries it, a ball bouncing off everything
-- ("bounce") and a concave rock whose parts a hit names. Its own world, y down.
local sat = require("sat")

local platform = {}

local G, WALK, JUMP = 900, 150, 440
local FLOOR = 600

-- The lift's top over time (seconds since the room was built): 2 s down, 2 s rising to 150
-- px above the floor, 2 s up, 2 s descending; again.
local function liftTop(t)
  local p = t % 8
  local low, high = FLOOR, FLOOR - 150
  if p < 2 then return low end
  if p < 4 then return low + (high - low) * (p - 2) / 2 end
  if p < 6 then return high end
  return high + (low - high) * (p - 6) / 2
end

local function tag(s, name, role)
  s.name, s.role = name, role
  return s
end

function platform.new()
  local room = { t = 0 }
  local world = sat.world(64)
  room.world = world
  local function wall(s, name)
    return world:add(tag(s, name, "wall"), "static")
  end
  -- floor, walls, ceiling; the floor stops at the lift's shaft (630 to 710)
  wall(sat.box(0, FLOOR, 630, 40), "floor")
  wall(sat.box(0, 0, 16, 640), "wall-left")
  wall(sat.box(704, 0, 16, 640), "wall-right")
  wall(sat.box(0, 0, 720, 16), "ceiling")
  wall(sat.box(630, 630, 80, 10), "shaft-bottom")
  -- a slope of 30 degrees up to a plateau, then stairs of 6 px down to the floor
  local rise = 120 * math.tan(math.rad(30))
  wall(sat.polygon(220, FLOOR, 340, FLOOR - rise, 340, FLOOR), "slope-30")
  wall(sat.box(340, FLOOR - rise, 100, rise), "plateau")
  local steps = math.floor(rise / 6)
  for i = 1, steps do
    wall(sat.box(440 + 12 * (i - 1), FLOOR - rise + 6 * i - 6, 12, rise - 6 * i + 6),
      "step-" .. i)
  end
  -- a one-way ledge: solid from above only
  local ledge = wall(sat.box(40, FLOOR - 70, 140, 8), "ledge")
  ledge.oneway = sat.vec(0, 1)
  -- a concave rock up in the air (the ball names its parts)
  local star = {}
  for i = 0, 9 do
    local a, r = i * math.pi / 5, (i % 2 == 0) and 40 or 18
    star[#star + 1] = 380 + r * math.cos(a)
    star[#star + 1] = 250 + r * math.sin(a)
  end
  wall(sat.concave(star), "rock")
  -- the lift (a moving shape, moved by world:push)
  room.lift = world:add(tag(sat.box(632, FLOOR, 76, 10), "lift", "lift"))
  -- the character: a capsule, 24 wide and 44 tall, standing on the floor
  local body = world:add(tag(sat.capsule(600, FLOOR - 34, 600, FLOOR - 10, 10), "hero", "player"))
  room.mover = world:mover(body, { snap = 8, maxSlope = math.rad(50) })
  room.vy = 0
  room.dropping = false
  room.filter = function(_, other)
    if other.role == "ball" then return nil end
    if other.oneway and room.dropping then return nil end -- dropping through
    return "slide"
  end
  -- the ball
  room.ball = world:add(tag(sat.circle(200, 200, 12), "ball", "ball"))
  room.bvx, room.bvy = 230, 170
  room.bounce = function() return "bounce" end
  room.bounces = 0
  room.ballHits = {}
  return room
end

-- One frame: the lift first (it carries the hero), then the hero, then the ball. input: a
-- function of a key name ("left", "right", "up", "down") -> held.
function platform.update(room, dt, input)
  room.t = room.t + dt
  local world, m = room.world, room.mover
  local _, ly = room.lift:bbox()
  world:push(room.lift, 0, liftTop(room.t) - ly)
  -- the hero: walk, jump when on the ground, drop through one-way ledges holding down
  local vx = 0
  if input("left") then vx = vx - WALK end
  if input("right") then vx = vx + WALK end
  room.dropping = input("down")
  if input("up") and m.grounded then room.vy = -JUMP end
  room.vy = room.vy + G * dt
  m:move(vx * dt, room.vy * dt, room.filter)
  if m.grounded then room.vy = 0 end
  -- the ball: bounces off whatever it meets, its velocity reflected too
  local _, _, cols = world:move(room.ball, room.bvx * dt, room.bvy * dt, room.bounce)
  room.ballHits = cols
  for _, c in ipairs(cols) do
    local d = room.bvx * c.normal.x + room.bvy * c.normal.y
    if d > 0 then
      room.bvx, room.bvy = room.bvx - 2 * d * c.normal.x, room.bvy - 2 * d * c.normal.y
      room.bounces = room.bounces + 1
    end
  end
end

-- What the log says of the room this frame.
function platform.describe(room)
  local m = room.mover
  local x, y = m.shape:position()
  local _, _, _, feet = m.shape:bbox()
  local _, ly = room.lift:bbox()
  local onLift = m.ground == room.lift and 1 or 0
  local bx, by = room.ball:position()
  local hit = room.ballHits[1]
  return ("x %.4f y %.4f feet %.4f grounded %d ground %s onlift %d lifttop %.4f ball %.2f %.2f bounces %d%s")
    :format(x, y, feet, m.grounded and 1 or 0, m.ground and m.ground.name or "-", onLift, ly,
      bx, by, room.bounces,
      hit and (" hit %s part %s"):format(hit.other.name, tostring(hit.part)) or "")
end

function platform.draw(room)
  sat.debug.drawWorld(room.world, {
    fill = true,
    color = function(s)
      if s.role == "player" then return { 1.00, 0.85, 0.20 } end
      if s.role == "lift" then return { 0.80, 0.55, 1.00 } end
      if s.role == "ball" then return { 1.00, 0.40, 0.25 } end
      if s.oneway then return { 0.30, 0.85, 0.45 } end
      return { 0.55, 0.70, 0.95 }
    end,
  })
end

return platform
