--- The world at level scale: static tile maps with things moving through them.
--
-- Scenes (seeded, identical on every Lua):
--   map100, map316  a map of 100 x 100 (316 x 316) static tiles of 16: a solid border and 15%
--                   random solid tiles; 1,000 actors (boxes, circles and 8-gons 10 to 14
--                   across) in free tiles, each moved every frame by world:move (slide) at 1
--                   to 2 units, turning when a move reports a collision; then world:step()
--                   with enter/stay/exit handlers that count. Result tables are reused.
--   quiet100        the 100 x 100 map with its actors jiggling in place in free space:
--                   nothing begins or ends touching (its garbage must be none).
--   solid100        a 100 x 100 map of solid tiles (each touching its neighbours) with 100
--                   circles drifting over it by shape:move: world:step() alone is timed.
--   calls1k/10k/100k  100 movers among 1,000 / 10,000 / 100,000 static boxes of 16 (spaced
--                   32 apart): the cost of one world:move, queryPoint, queryRect, querySegment
--                   (64 long) and queryShape that meets nothing, in microseconds.
--   far20000        20,000 circles of radius 8 at 1e17, 1,000 apart (issue 13, #7): one step.
--   tiny10000       10,000 circles of radius 1 in cells of 1e-3 (issue 13, #8): one step.
--   map100m, map316m  map100 and map316 with their tiles merged by sat.level.grid (its default,
--                   "rects"): the same actors, moves and steps.
--   build316        building the map316 level (about 16,000 tiles) into a new world: adding a
--                   box per tile, against sat.level.grid in each merging mode (by default,
--                   and rects and greedy without limit; 7 rounds of each in turn, the median
--                   of each; rows level_build.*), and the shapes each gives for the 100 x 100
--                   map and a solid 100 x 100 map.
local lib = require("benchlib")
local sat = require("sat")

local TILE = 16
local CELL = 32

-- A map of n x n tiles: solid[i][j] for the border and a fraction of the rest, seeded.
local function makeMap(rng, n, fraction)
  local solid = {}
  for i = 1, n do
    solid[i] = {}
    for j = 1, n do
      solid[i][j] = i == 1 or j == 1 or i == n or j == n or rng.range(0, 1) < fraction
    end
  end
  return solid
end

-- The map as sat.level.grid takes it: rows (y) of columns (x) of booleans.
local function gridOf(solid, n)
  local rows = {}
  for j = 1, n do
    local row = {}
    for i = 1, n do
      row[i] = solid[i][j]
    end
    rows[j] = row
  end
  return rows
end

local function addTiles(world, solid, n)
  local count = 0
  for i = 1, n do
    for j = 1, n do
      if solid[i][j] then
        world:add(sat.box((i - 1) * TILE, (j - 1) * TILE, TILE, TILE), "static")
        count = count + 1
      end
    end
  end
  return count
end

-- The k-th actor at (x, y): a box, a circle or an 8-gon, 10 to 14 across.
local function makeActor(rng, k, x, y)
  local size = rng.range(10, 14)
  if k % 3 == 0 then
    return sat.box(x - size / 2, y - size / 2, size, size)
  elseif k % 3 == 1 then
    return sat.circle(x, y, size / 2)
  end
  return lib.poly8(rng, x, y, size, 0)
end

local function counting(world, scene)
  world:on("enter", function() scene.enters = scene.enters + 1 end)
  world:on("stay", function() scene.stays = scene.stays + 1 end)
  world:on("exit", function() scene.exits = scene.exits + 1 end)
end

-- n actors in free tiles of the map (one per tile, tiles drawn at random); the tiles merged
-- by sat.level.grid when asked.
local function levelScene(n, actors, seed, merged)
  local rng = lib.rng(seed)
  local solid = makeMap(rng, n, 0.15)
  local world = sat.world(CELL)
  local scene = { world = world, enters = 0, stays = 0, exits = 0, actors = {}, VX = {},
    VY = {}, cols = {}, rng = rng, n = n }
  if merged then
    scene.tiles = #sat.level.grid(world, gridOf(solid, n), TILE, TILE)
  else
    scene.tiles = addTiles(world, solid, n)
  end
  local taken = {}
  while #scene.actors < actors do
    local i, j = rng.int(n), rng.int(n)
    if not solid[i][j] and not taken[i * n + j] then
      taken[i * n + j] = true
      local k = #scene.actors + 1
      scene.actors[k] = world:add(makeActor(rng, k, (i - 0.5) * TILE, (j - 0.5) * TILE))
      local speed, dir = rng.range(1, 2), rng.range(0, 2 * math.pi)
      scene.VX[k], scene.VY[k] = speed * math.cos(dir), speed * math.sin(dir)
    end
  end
  counting(world, scene)
  world:step()
  return scene
end

-- Every actor moved by world:move; one that met something turns to a new direction.
local function moveActors(scene)
  local world, actors, VX, VY, cols, rng = scene.world, scene.actors, scene.VX, scene.VY,
    scene.cols, scene.rng
  for k = 1, #actors do
    world:move(actors[k], VX[k], VY[k], cols)
    if cols[1] then
      local speed, dir = rng.range(1, 2), rng.range(0, 2 * math.pi)
      VX[k], VY[k] = speed * math.cos(dir), speed * math.sin(dir)
    end
  end
end

-- Every actor moved half a unit and back: in free space, nothing begins or ends touching.
local function jiggleActors(scene)
  local world, actors, cols = scene.world, scene.actors, scene.cols
  scene.sign = -(scene.sign or 1)
  local d = 0.5 * scene.sign
  for k = 1, #actors do
    world:move(actors[k], d, d, cols)
  end
end

local function timeFrames(scene, mover, frames)
  local t, tm, ts = {}, {}, {}
  local world = scene.world
  for f = 1, frames do
    local t0 = lib.now()
    mover(scene)
    local t1 = lib.now()
    world:step()
    local t2 = lib.now()
    t[f], tm[f], ts[f] = (t2 - t0) * 1e3, (t1 - t0) * 1e3, (t2 - t1) * 1e3
  end
  return lib.median(t), lib.median(tm), lib.median(ts)
end

local function frames(scene, mover, count)
  for _ = 1, count do
    mover(scene)
    scene.world:step()
  end
end

local function measureLevel(name, n, seed, merged)
  local t0 = lib.now()
  local scene = levelScene(n, 1000, seed, merged)
  lib.note("%s: level %s built in %.2f s", lib.vm, name, lib.now() - t0)
  frames(scene, moveActors, lib.frames(30))
  local enters, stays = scene.enters, scene.stays
  local timed = lib.frames(100)
  local frame, move, step = timeFrames(scene, moveActors, timed)
  lib.emit("level." .. name .. ".tiles", scene.tiles, "count")
  lib.emit("level." .. name .. ".actors", #scene.actors, "count")
  lib.emit("level." .. name .. ".frame", frame, "ms")
  lib.emit("level." .. name .. ".move", move, "ms")
  lib.emit("level." .. name .. ".step", step, "ms")
  lib.emit("level." .. name .. ".contacts", math.floor((scene.enters - enters + scene.stays - stays)
    / timed + 0.5), "count")
  local g = lib.frames(20)
  lib.emit("level." .. name .. ".kb_per_frame", lib.steadyGarbage(frames, scene, moveActors, g) / g,
    "kb")
  return scene
end

local wanted = lib.wanted(...)

if wanted("map100") then
  measureLevel("map100", 100, 1401)
  collectgarbage("collect")
end
if wanted("map316") then
  measureLevel("map316", 316, 1402)
  collectgarbage("collect")
end
if wanted("map100m") then
  measureLevel("map100m", 100, 1401, true)
  collectgarbage("collect")
end
if wanted("map316m") then
  measureLevel("map316m", 316, 1402, true)
  collectgarbage("collect")
end

-- Building a level: a box added per tile, against sat.level.grid in each mode.
-- each mode as sat.level.grid merges by default (rectangles within two hash cells), and
-- rects and greedy without that limit (maxSpan = math.huge: the fewest shapes)
local MODES = { "rects", "greedy", "rows", "columns", "none", "concave", "chain", "rects_nolimit",
  "greedy_nolimit" }
local function gridOptions(mode)
  local merge = mode:match("^(%a+)_nolimit$")
  if merge then
    return { merge = merge, maxSpan = math.huge }
  end
  return { merge = mode }
end
if wanted("build316") then
  local solid = makeMap(lib.rng(1402), 316, 0.15)
  local rows = gridOf(solid, 316)
  -- rounds of every build in turn, the median of each: what other programs take from the
  -- machine meanwhile falls on all of them alike
  local builds = { { "tiles", function(world) return addTiles(world, solid, 316) end } }
  for _, mode in ipairs(MODES) do
    builds[#builds + 1] = { mode, function(world)
      return #sat.level.grid(world, rows, TILE, TILE, gridOptions(mode))
    end }
  end
  local times, counts = {}, {}
  for round = 1, 7 do
    for _, b in ipairs(builds) do
      collectgarbage("collect")
      local world = sat.world(CELL)
      local t0 = lib.now()
      counts[b[1]] = b[2](world)
      times[b[1]] = times[b[1]] or {}
      times[b[1]][round] = (lib.now() - t0) * 1e3
    end
  end
  for _, b in ipairs(builds) do
    lib.emit("level_build.map316." .. b[1] .. "_ms", lib.median(times[b[1]]), "ms")
    lib.emit("level_build.map316." .. b[1], counts[b[1]], "count")
  end
  -- the shapes per mode for the 100 x 100 map of map100 and a solid one (solid100's)
  for _, m in ipairs({ { "map100", 1401, 0.15 }, { "solid100", 1403, 2 } }) do
    local s = makeMap(lib.rng(m[2]), 100, m[3])
    local count = 0
    for i = 1, 100 do
      for j = 1, 100 do
        if s[i][j] then count = count + 1 end
      end
    end
    lib.emit("level_build." .. m[1] .. ".tiles", count, "count")
    for _, mode in ipairs(MODES) do
      lib.emit("level_build." .. m[1] .. "." .. mode,
        #sat.level.grid(sat.world(CELL), gridOf(s, 100), TILE, TILE, gridOptions(mode)), "count")
    end
  end
  collectgarbage("collect")
end

if wanted("quiet100") then
  local scene = levelScene(100, 1000, 1401)
  frames(scene, jiggleActors, 20)
  local enters, exits = scene.enters, scene.exits
  local frame = timeFrames(scene, jiggleActors, 50)
  local kb = lib.steadyGarbage(frames, scene, jiggleActors, 20)
  lib.emit("level.quiet100.frame", frame, "ms")
  lib.emit("level.quiet100.changes", scene.enters - enters + scene.exits - exits, "count")
  lib.emit("level.quiet100.kb_per_frame", kb / 20, "kb")
  collectgarbage("collect")
end

-- A solid map of 100 x 100 with 100 circles drifting over it: world:step() alone.
if wanted("solid100") then
  local rng = lib.rng(1403)
  local world = sat.world(CELL)
  local scene = { enters = 0, stays = 0, exits = 0 }
  local solid = makeMap(rng, 100, 2)
  addTiles(world, solid, 100)
  counting(world, scene)
  local circles, VX, VY = {}, {}, {}
  for k = 1, 100 do
    circles[k] = world:add(sat.circle(rng.range(50, 1550), rng.range(50, 1550), rng.range(5, 7)))
    local speed, dir = rng.range(1, 2), rng.range(0, 2 * math.pi)
    VX[k], VY[k] = speed * math.cos(dir), speed * math.sin(dir)
  end
  local function drift()
    for k = 1, #circles do
      local x, y = circles[k]:position()
      if x + VX[k] < 20 or x + VX[k] > 1580 then VX[k] = -VX[k] end
      if y + VY[k] < 20 or y + VY[k] > 1580 then VY[k] = -VY[k] end
      circles[k]:move(VX[k], VY[k])
    end
  end
  local t0 = lib.now()
  world:step()
  lib.note("%s: solid100: first step (10,000 tiles new) %.2f ms", lib.vm, (lib.now() - t0) * 1e3)
  for _ = 1, 30 do
    drift()
    world:step()
  end
  local stays = scene.stays
  local _, _, step = timeFrames({ world = world }, drift, 200)
  lib.emit("level.solid100.step", step, "ms")
  lib.emit("level.solid100.contacts", math.floor((scene.stays - stays) / 200 + 0.5), "count")
  collectgarbage("collect")
end

-- Per call, no contact: 100 movers among `count` static boxes.
local function callWorld(count, seed)
  local rng = lib.rng(seed)
  local world = sat.world(CELL)
  local side = math.ceil(math.sqrt(count))
  for k = 0, count - 1 do
    world:add(sat.box((k % side) * 32, math.floor(k / side) * 32, 16, 16), "static")
  end
  local movers = {}
  for k = 1, 100 do
    -- in the gaps between the boxes: x and y at 16 + 32 i + 8
    local i, j = rng.int(side - 2), rng.int(side - 2)
    movers[k] = world:add(sat.circle(i * 32 + 24, j * 32 + 24, 3))
  end
  world:step()
  return world, movers
end

local function perCall(world, movers, reps)
  local n = #movers
  local list, hits, cols = {}, {}, {}
  local probe = sat.circle(0, 0, 3)
  local results = {}
  local function time(name, fn)
    for r = 1, 200 do fn(r) end -- warm
    local best = math.huge
    for _ = 1, 5 do
      local t0 = lib.now()
      for r = 1, reps do fn(r) end
      best = math.min(best, (lib.now() - t0) / reps)
    end
    results[name] = best * 1e6
  end
  time("move", function(r)
    local s = movers[r % n + 1]
    world:move(s, (r % 2 == 0) and 1 or -1, 0, cols)
  end)
  time("queryPoint", function(r)
    local x, y = movers[r % n + 1]:position()
    world:queryPoint(x, y + 4, list)
  end)
  time("queryRect", function(r)
    local x, y = movers[r % n + 1]:position()
    world:queryRect(x - 4, y + 4, 6, 2, list)
  end)
  time("querySegment", function(r)
    local x, y = movers[r % n + 1]:position()
    world:querySegment(x - 32, y, x + 32, y, hits) -- meets the mover itself only
  end)
  time("queryShape", function(r)
    local x, y = movers[r % n + 1]:position()
    probe:moveTo(x, y + 6)
    world:queryShape(probe, list)
  end)
  return results
end

for _, c in ipairs({ { "calls1k", 1000 }, { "calls10k", 10000 }, { "calls100k", 100000 } }) do
  if wanted(c[1]) then
    local world, movers = callWorld(c[2], 1404)
    local r = perCall(world, movers, 20000)
    for _, what in ipairs({ "move", "queryPoint", "queryRect", "querySegment", "queryShape" }) do
      lib.emit("level." .. c[1] .. "." .. what, r[what], "us")
    end
    world = nil -- luacheck: ignore 311
    collectgarbage("collect")
  end
end

-- Issue 13's stalls, one step each.
if wanted("far20000") then
  local world = sat.world(64)
  for i = 0, 19999 do
    world:add(sat.circle(1e17 + (i % 141) * 1000, 1e17 + math.floor(i / 141) * 1000, 8))
  end
  local t0 = lib.now()
  local pairs = world:step()
  lib.emit("level.far20000.step", (lib.now() - t0) * 1e3, "ms")
  lib.emit("level.far20000.pairs", pairs, "count")
  collectgarbage("collect")
end
if wanted("tiny10000") then
  local world = sat.world(1e-3)
  for i = 0, 9999 do
    world:add(sat.circle((i % 100) * 3, math.floor(i / 100) * 3, 1))
  end
  local t0 = lib.now()
  local pairs = world:step()
  lib.emit("level.tiny10000.step", (lib.now() - t0) * 1e3, "ms")
  lib.emit("level.tiny10000.pairs", pairs, "count")
end
