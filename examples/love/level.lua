-- The demo's level: an arena of walls, slopes, rotated polygons, circles, segments (a ledge
-- and a ramp), a concave rock and a chain (compounds), sensor zones and moving obstacles.
-- Everything is in world coordinates, y down (LÖVE's screen).
local sat = require("sat")

local level = {}

level.arena = { x1 = 0, y1 = 0, x2 = 720, y2 = 640 }

-- The walls and zones are static shapes: they never pair with each other, however many
-- touch. Filter bits keep the zones to the player and the stress shapes to each other, so
-- step() reports only the pairs worth showing.
level.WALL, level.ZONE, level.MOVER, level.PLAYER, level.STRESS = 1, 2, 4, 8, 16
local masks = {
  wall = level.MOVER + level.PLAYER,
  zone = level.PLAYER,
  mover = level.WALL + level.MOVER + level.PLAYER,
  player = level.WALL + level.ZONE + level.MOVER,
  stress = level.STRESS,
}
local categories = {
  wall = level.WALL, zone = level.ZONE, mover = level.MOVER, player = level.PLAYER,
  stress = level.STRESS,
}

-- Gives a shape its name, role and filter bits.
function level.tag(shape, name, role)
  shape.name = name
  shape.role = role -- "wall", "zone", "mover", "player" or "stress"
  shape.category = categories[role]
  shape.mask = masks[role]
  return shape
end
local named = level.tag

-- Builds the static level into world; returns the list of moving obstacles, each with an
-- update(t) that places it at time t (seconds), so a run with a fixed dt is reproducible.
function level.build(world)
  local add = function(s)
    return world:add(s, s.role ~= "mover" and "static" or nil)
  end
  -- the arena's walls
  add(named(sat.box(0, 0, 720, 16), "wall-top", "wall"))
  add(named(sat.box(0, 624, 720, 16), "wall-bottom", "wall"))
  add(named(sat.box(0, 0, 16, 640), "wall-left", "wall"))
  add(named(sat.box(704, 0, 16, 640), "wall-right", "wall"))
  -- a long wall to slide along
  add(named(sat.box(300, 80, 24, 320), "wall-mid", "wall"))
  -- slopes: 45 degrees bottom-left, shallow bottom-right
  add(named(sat.polygon(16, 440, 200, 624, 16, 624), "slope-45", "wall"))
  add(named(sat.polygon(520, 624, 704, 520, 704, 624), "slope-shallow", "wall"))
  -- rotated polygons
  local hex = {}
  for i = 0, 5 do
    local a = i * math.pi / 3
    hex[#hex + 1] = 430 + 38 * math.cos(a)
    hex[#hex + 1] = 120 + 38 * math.sin(a)
  end
  add(named(sat.polygon(hex), "hexagon", "wall")):rotate(0.25)
  add(named(sat.box(615, 275, 50, 50), "diamond", "wall")):setRotation(math.pi / 4)
  add(named(sat.polygon(180, 150, 240, 130, 250, 190, 200, 210), "rock", "wall")):rotate(-0.4)
  -- segments: a ledge in the free space top left (a ceiling from below, a floor from above)
  -- and a ramp on the right
  add(named(sat.segment(40, 60, 200, 60), "ledge", "wall"))
  add(named(sat.segment(590, 470, 700, 400), "ramp", "wall"))
  -- compounds: a concave rock (a five-armed star: one shape of convex parts, whose MTV is
  -- the whole rock's) and a chain slope along the top (segments joined end to end)
  local star = {}
  for i = 0, 9 do
    local a, r = i * math.pi / 5, (i % 2 == 0) and 36 or 16
    star[#star + 1] = 255 + r * math.cos(a)
    star[#star + 1] = 480 + r * math.sin(a)
  end
  add(named(sat.concave(star), "concave-rock", "wall")):rotate(0.3)
  add(named(sat.chain({ 340, 62, 400, 40, 460, 52, 520, 30, 580, 44 }), "chain-slope", "wall"))
  -- circles
  add(named(sat.circle(620, 120, 24), "pillar", "wall"))
  add(named(sat.circle(472, 350, 18), "post", "wall"))
  -- sensor zones: the player crosses them, enter/exit fire
  add(named(sat.box(40, 280, 140, 100), "zone-a", "zone"))
  add(named(sat.circle(560, 200, 40), "zone-b", "zone"))

  -- moving obstacles
  local movers = {}
  local slider = add(named(sat.box(0, 0, 80, 20), "slider", "mover"))
  function slider.update(t) slider:moveTo(520 + 130 * math.sin(t * 1.1), 260) end
  local spinner = add(named(sat.box(0, 0, 130, 14), "spinner", "mover"))
  spinner:moveTo(500, 400)
  function spinner.update(t) spinner:setRotation(t * 1.3) end
  local orbiter = add(named(sat.circle(0, 0, 16), "orbiter", "mover"))
  function orbiter.update(t) orbiter:moveTo(420 + 70 * math.cos(t), 540 + 40 * math.sin(t)) end
  movers[1], movers[2], movers[3] = slider, spinner, orbiter
  for _, m in ipairs(movers) do m.update(0) end
  return movers
end

-- A standing character of width 2r and height h, centred on (x, y): a capsule.
local CAPSULE_R, CAPSULE_H = 13, 40

-- The player's four bodies, centred on (x, y).
function level.playerShape(kind, x, y)
  local s
  if kind == "capsule" then
    s = sat.capsule(x, y - CAPSULE_H / 2 + CAPSULE_R, x, y + CAPSULE_H / 2 - CAPSULE_R, CAPSULE_R)
  elseif kind == "box" then
    s = sat.box(x - 14, y - 14, 28, 28)
  elseif kind == "circle" then
    s = sat.circle(x, y, 15)
  else
    s = sat.polygon(x, y - 18, x + 17, y - 5, x + 11, y + 15, x - 11, y + 15, x - 17, y - 5)
    s:moveTo(x, y)
  end
  return level.tag(s, "player", "player")
end

return level
