--- Levels built again and again (issue 29; spec/suites/replay.sh): a grid of tiles of
-- fractional size, merged two ways, and the Tiled maps of spec/maps/features.lua and
-- examples/love/level_map.lua (rotated, scaled and flipped objects) five times, [reps] times
-- over, each into a new world whose digest (every shape's exact transform) is printed. The
-- later builds run the level's files compiled where the JIT compiles them, so a compiler that
-- fuses multiply-adds into the placement arithmetic shows here (sat.pure.jit keeps it out).
--   lua spec/replay/level.lua [reps]   (LUA_PATH/LUA_CPATH as for the specs; default 3)
local sat = require("sat")
local level = require("sat.level")

local reps = tonumber(arg and arg[1]) or 3
local features = dofile("spec/maps/features.lua")
local map = dofile("examples/love/level_map.lua")
for rep = 1, reps do
  local world = sat.world(32)
  local grid, x = {}, 12345
  for r = 1, 40 do
    grid[r] = {}
    for c = 1, 60 do
      x = (48271 * x) % 2147483647
      grid[r][c] = x % 3 == 0 and 1 or 0
    end
  end
  level.grid(world, grid, 7.3 + rep * 0.013, 5.1 + rep * 0.007,
    { merge = rep % 2 == 0 and "rects" or "concave" })
  print(("%3d grid %s"):format(rep, world:digest()))
  for k = 1, 5 do
    local w2, w3 = sat.world(32), sat.world(32)
    level.tiled(w2, features)
    level.tiled(w3, map)
    print(("%3d tiled %d %s %s"):format(rep, k, w2:digest(), w3:digest()))
  end
end
