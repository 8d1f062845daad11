--- The world's cost: milliseconds per frame, kilobytes of garbage per frame.
--
-- A frame moves every shape (shape:move, which keeps the world right by itself; world:move
-- in move1000) and then calls world:step() with "enter", "stay" and "exit" handlers whose
-- bodies only count.
-- Scenes (seeded, identical on every Lua):
--   n1000, n10000   boxes, 8-gons and circles 8 to 32 across, each drifting at 0.5 to 2
--                   units a frame and bouncing off the walls of a square field sized so
--                   that about a quarter of them touch something (measured: "touching").
--   sparse10000     10,000 such shapes on a 64-unit grid, each jiggling inside its own
--                   cell: nothing ever touches (the no-garbage-when-idle case).
--   boxes300        300 boxes of 16x16 in 800x600 for 60 frames: total seconds and the
--                   colliding pairs found over those frames (enter + stay calls).
--   move1000        the n1000 mix, each shape moved with world:move (sliding along what it
--                   meets) instead of shape:move; "collisions" counts what the moves report.
--   star64, zigzag100  two overlapping 64-spike stars (sat.concave, 66 parts each) and two
--                   100-segment zigzag chains crossing: ms per world:step (the pair "stays")
--                   and per world:move of one by (1, 0.5) (put back between calls).
-- Times are taken with the collector running as usual; garbage is measured over separate
-- frames with the collector stopped.
local lib = require("benchlib")
local sat = require("sat")

-- Square field area per shape that leaves about a quarter of the shapes touching another
-- (found by counting contacts in static scenes of this mix; "touching" reports the truth).
local AREA_PER_SHAPE = 4800

-- The i-th shape of the mix at (x, y): a box, an 8-gon or a circle, 8 to 32 across.
local function make_shape(rng, i, x, y)
  local kind, size = i % 3, rng.range(8, 32)
  if kind == 0 then
    local h = rng.range(8, 32)
    return sat.box(x - size / 2, y - h / 2, size, h)
  elseif kind == 1 then
    return lib.poly8(rng, x, y, size, 0.2)
  end
  return sat.circle(x, y, size / 2)
end

local function move_all(scene)
  local shapes, X, Y, VX, VY = scene.shapes, scene.X, scene.Y, scene.VX, scene.VY
  local X1, X2, Y1, Y2 = scene.X1, scene.X2, scene.Y1, scene.Y2
  for i = 1, #shapes do
    local vx, vy = VX[i], VY[i]
    local x, y = X[i] + vx, Y[i] + vy
    if x < X1[i] or x > X2[i] then
      vx = -vx
      VX[i] = vx
      x = X[i] + vx
    end
    if y < Y1[i] or y > Y2[i] then
      vy = -vy
      VY[i] = vy
      y = Y[i] + vy
    end
    X[i], Y[i] = x, y
    shapes[i]:move(vx, vy)
  end
end

-- The same drift through world:move: a shape heads back once it is past an edge (the
-- world may have stopped it short of where shape:move would have put it).
local function world_move_all(scene)
  local world, shapes, VX, VY = scene.world, scene.shapes, scene.VX, scene.VY
  local X1, X2, Y1, Y2 = scene.X1, scene.X2, scene.Y1, scene.Y2
  local reported = 0
  for i = 1, #shapes do
    local x, y, cols = world:move(shapes[i], VX[i], VY[i])
    reported = reported + #cols
    if x < X1[i] or x > X2[i] then
      VX[i] = x < X1[i] and math.abs(VX[i]) or -math.abs(VX[i])
    end
    if y < Y1[i] or y > Y2[i] then
      VY[i] = y < Y1[i] and math.abs(VY[i]) or -math.abs(VY[i])
    end
  end
  scene.reported = scene.reported + reported
end

--- A scene: shapes in a world with counting handlers, and a frame function.
local function new_scene()
  local scene = { enters = 0, stays = 0, exits = 0, marking = false, touched = nil,
    mover = move_all, reported = 0 }
  local world = sat.world()
  scene.world = world
  world:on("enter", function(a, b)
    scene.enters = scene.enters + 1
    if scene.marking then
      scene.touched[a], scene.touched[b] = true, true
    end
  end)
  world:on("stay", function(a, b)
    scene.stays = scene.stays + 1
    if scene.marking then
      scene.touched[a], scene.touched[b] = true, true
    end
  end)
  world:on("exit", function()
    scene.exits = scene.exits + 1
  end)
  return scene
end

-- Shapes drift inside [x1, x2] x [y1, y2] (per shape bounds), reversing at the edges.
local function add_movers(scene, shapes, X, Y, VX, VY, X1, X2, Y1, Y2)
  scene.shapes, scene.X, scene.Y, scene.VX, scene.VY = shapes, X, Y, VX, VY
  scene.X1, scene.X2, scene.Y1, scene.Y2 = X1, X2, Y1, Y2
  for i = 1, #shapes do
    scene.world:add(shapes[i])
  end
end

local function frame(scene)
  scene.mover(scene)
  scene.world:step()
end

-- n shapes, uniformly in a square field of side sqrt(n * AREA_PER_SHAPE).
local function field_scene(n, seed)
  local rng = lib.rng(seed)
  local side = math.sqrt(n * AREA_PER_SHAPE)
  local shapes, X, Y, VX, VY, X1, X2, Y1, Y2 = {}, {}, {}, {}, {}, {}, {}, {}, {}
  for i = 1, n do
    local x, y = rng.range(0, side), rng.range(0, side)
    shapes[i] = make_shape(rng, i, x, y)
    X[i], Y[i] = shapes[i]:position()
    local speed, dir = rng.range(0.5, 2), rng.range(0, 2 * math.pi)
    VX[i], VY[i] = speed * math.cos(dir), speed * math.sin(dir)
    X1[i], X2[i], Y1[i], Y2[i] = 0, side, 0, side
  end
  local scene = new_scene()
  add_movers(scene, shapes, X, Y, VX, VY, X1, X2, Y1, Y2)
  return scene
end

-- n shapes, one per 64-unit grid cell, each moving at most 4 units from its cell's centre:
-- the largest shape reaches 23 units from its centre, so neighbours stay 10 units apart.
local function sparse_scene(n, seed)
  local rng = lib.rng(seed)
  local cols = math.ceil(math.sqrt(n))
  local shapes, X, Y, VX, VY, X1, X2, Y1, Y2 = {}, {}, {}, {}, {}, {}, {}, {}, {}
  for i = 1, n do
    local cx, cy = ((i - 1) % cols) * 64 + 32, math.floor((i - 1) / cols) * 64 + 32
    shapes[i] = make_shape(rng, i, cx, cy)
    X[i], Y[i] = shapes[i]:position()
    local speed, dir = rng.range(0.5, 2), rng.range(0, 2 * math.pi)
    VX[i], VY[i] = speed * math.cos(dir), speed * math.sin(dir)
    X1[i], X2[i], Y1[i], Y2[i] = X[i] - 4, X[i] + 4, Y[i] - 4, Y[i] + 4
  end
  local scene = new_scene()
  add_movers(scene, shapes, X, Y, VX, VY, X1, X2, Y1, Y2)
  return scene
end

-- Shapes touching at least one other during one step.
local function count_touching(scene)
  scene.touched, scene.marking = {}, true
  frame(scene)
  scene.marking = false
  local count = 0
  for i = 1, #scene.shapes do
    if scene.touched[scene.shapes[i]] then
      count = count + 1
    end
  end
  scene.touched = nil
  return count
end

local function run_frames(scene, frames)
  for _ = 1, frames do
    frame(scene)
  end
end

-- Frame times (ms): median and mean of `frames` after `warm` untimed ones, and the
-- medians of the frame's two halves (moving the shapes, world:step); then garbage.
local function measure(name, scene, warm, frames, garbage_frames)
  warm, frames, garbage_frames = lib.frames(warm), lib.frames(frames), lib.frames(garbage_frames)
  run_frames(scene, warm)
  local t, tm, ts = {}, {}, {}
  local mover, reported = scene.mover, scene.reported
  for f = 1, frames do
    local t0 = lib.now()
    mover(scene)
    local t1 = lib.now()
    scene.world:step()
    local t2 = lib.now()
    t[f], tm[f], ts[f] = (t2 - t0) * 1e3, (t1 - t0) * 1e3, (t2 - t1) * 1e3
  end
  lib.emit(name .. ".shapes", #scene.shapes, "count")
  lib.emit(name .. ".touching", count_touching(scene), "count")
  lib.emit(name .. ".frame", lib.median(t), "ms")
  lib.emit(name .. ".frame_mean", lib.mean(t), "ms")
  lib.emit(name .. ".move", lib.median(tm), "ms")
  lib.emit(name .. ".step", lib.median(ts), "ms")
  if mover == world_move_all then
    lib.emit(name .. ".collisions", math.floor((scene.reported - reported) / frames + 0.5), "count")
  end
  local kb = lib.steadyGarbage(run_frames, scene, garbage_frames)
  lib.emit(name .. ".kb_per_frame", kb / garbage_frames, "kb")
end

-- world:digest, world:snapshot (into a table reused) and world:restore on a scene: each the
-- median of reps calls; restore puts back the state of one frame before (every shape moved
-- since), and restore_step is the step after it (which rebuilds the contacts: world_state.lua).
local function measure_state(name, scene, reps)
  local world = scene.world
  local td, ts, tr, tss = {}, {}, {}, {}
  local snap = world:snapshot()
  for r = 1, reps do
    local t0 = lib.now()
    world:digest()
    local t1 = lib.now()
    world:snapshot(snap)
    local t2 = lib.now()
    scene.mover(scene)
    world:step()
    local t3 = lib.now()
    world:restore(snap)
    local t4 = lib.now()
    world:step()
    local t5 = lib.now()
    td[r], ts[r], tr[r], tss[r] = (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t4 - t3) * 1e3, (t5 - t4) * 1e3
  end
  lib.emit(name .. ".digest", lib.median(td), "ms")
  lib.emit(name .. ".snapshot", lib.median(ts), "ms")
  lib.emit(name .. ".restore", lib.median(tr), "ms")
  lib.emit(name .. ".restore_step", lib.median(tss), "ms")
end

local function timed(label, fn, ...)
  local t0 = lib.now()
  local r = fn(...)
  lib.note("%s: %s built in %.2f s", lib.vm, label, lib.now() - t0)
  return r
end

local wanted = lib.wanted(...)

if wanted("n1000") then
  local scene = timed("n1000", field_scene, 1000, 1001)
  measure("world.n1000", scene, 30, 100, 20)
  measure_state("world.n1000", scene, 21)
  collectgarbage("collect")
end
if wanted("n10000") then
  local scene = timed("n10000", field_scene, 10000, 10001)
  measure("world.n10000", scene, 10, 40, 10)
  measure_state("world.n10000", scene, 9)
  collectgarbage("collect")
end
if wanted("sparse10000") then
  measure("world.sparse10000", timed("sparse10000", sparse_scene, 10000, 10002), 10, 40, 10)
  collectgarbage("collect")
end
if wanted("move1000") then
  local scene = timed("move1000", field_scene, 1000, 1003)
  scene.mover = world_move_all
  measure("world.move1000", scene, 30, 100, 20)
  collectgarbage("collect")
end

-- 300 boxes of 16x16 in 800x600, 60 frames from a standing start.
if wanted("boxes300") then
  local rng = lib.rng(300)
  local shapes, X, Y, VX, VY, X1, X2, Y1, Y2 = {}, {}, {}, {}, {}, {}, {}, {}, {}
  for i = 1, 300 do
    local x, y = rng.range(0, 784), rng.range(0, 584)
    shapes[i] = sat.box(x, y, 16, 16)
    X[i], Y[i] = shapes[i]:position()
    local speed, dir = rng.range(0.5, 2), rng.range(0, 2 * math.pi)
    VX[i], VY[i] = speed * math.cos(dir), speed * math.sin(dir)
    X1[i], X2[i], Y1[i], Y2[i] = 8, 792, 8, 592
  end
  local scene = new_scene()
  add_movers(scene, shapes, X, Y, VX, VY, X1, X2, Y1, Y2)
  local t0 = lib.now()
  run_frames(scene, 60)
  local total = lib.now() - t0
  lib.emit("world.boxes300.total", total, "s")
  lib.emit("world.boxes300.pairs", scene.enters + scene.stays, "count")
  lib.emit("world.boxes300.enters", scene.enters, "count")
  lib.emit("world.boxes300.exits", scene.exits, "count")
end

-- Two overlapping compounds in a world (issue 25, item 8): world:step and world:move.
local function star(spikes, x, y, rot)
  local p = {}
  for i = 0, 2 * spikes - 1 do
    local t, r = math.pi * i / spikes + rot, i % 2 == 1 and 5 or 10
    p[#p + 1], p[#p + 2] = x + r * math.cos(t), y + r * math.sin(t)
  end
  return sat.concave(p)
end

local function zigzag(segments, x, y, rot)
  local p = {}
  for i = 0, segments do
    local u, v = i - segments / 2, i % 2 == 1 and 2 or 0
    p[#p + 1], p[#p + 2] = x + u * math.cos(rot) - v * math.sin(rot), y + u * math.sin(rot) + v * math.cos(rot)
  end
  return sat.chain(p)
end

local function compound_pair(name, a, b)
  local scene = new_scene()
  scene.world:add(a)
  scene.world:add(b)
  local ts, tm = {}, {}
  local x, y = a:position()
  for i = 0, 5 do
    local t0 = lib.now()
    scene.world:step()
    local t1 = lib.now()
    scene.world:move(a, 1, 0.5)
    local t2 = lib.now()
    a:moveTo(x, y)
    if i > 0 then
      ts[i], tm[i] = (t1 - t0) * 1e3, (t2 - t1) * 1e3
    end
  end
  lib.emit(name .. ".pairs", scene.enters + scene.stays, "count")
  lib.emit(name .. ".step", lib.median(ts), "ms")
  lib.emit(name .. ".worldmove", lib.median(tm), "ms")
end

if wanted("star64") then
  compound_pair("world.star64", star(64, 0, 0, 0), star(64, 1.3, 0.7, 0.37))
end
if wanted("zigzag100") then
  compound_pair("world.zigzag100", zigzag(100, 0, 0, 0), zigzag(100, 0.1, 0.2, math.pi / 2))
end
