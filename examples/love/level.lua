-- The demo's level: an arena of walls, slopes, rotated polygons, circles, a ledge and a ramp
-- (chains), a concave rock and a chain slope (compounds), sensor zones (all from the Tiled map
-- level_map.lua) and moving obstacles (made here). Everything is in world coordinates, y down
-- (LÖVE's screen).
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

-- Builds the level into world: the static part from the Tiled map level_map.lua (Tiled's
-- Lua export) through sat.level.tiled, each shape named and given its role by the map (the
-- object's name, the layer's role property), then the moving obstacles. Returns the list
-- of moving obstacles, each with an update(t) that places it at time t (seconds), so a run
-- with a fixed dt is reproducible.
function level.build(world)
  for _, s in ipairs(sat.level.tiled(world, require("level_map"))) do
    named(s, s.name, s.role)
  end
  local add = function(s)
    return world:add(s)
  end

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
