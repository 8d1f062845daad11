--- The binding's cost: nanoseconds per call from Lua, and garbage per million calls.
--
-- Every case runs the same loop, `f(A[i], B[i])` over a table of PAIRS shape pairs (about
-- half of them overlapping, in random order), so that the loop and the table reads are the
-- same in every figure and the empty C call is a fair floor. The main pairs are circles,
-- the cheapest narrow phase there is: what is measured is the binding. A poly8
-- case shows a dearer narrow phase through the same binding, and capsule/poly8,
-- capsule/capsule and segment/poly8 cases the new kinds beside it; collidesWith_cached calls the
-- method through a local, to show what the method lookup costs. sat.contacts and sat.sweep
-- (a moving onto b's position) on the poly8 pairs: what the contact point costs from Lua.
-- rock8_poly8: a concave rock of 8 parts against poly8 (the union's exact MTV); and
-- world_move_floor40_*: one world:move of a box walking along a floor of 40 boxes or of one
-- concave shape of 40 parts; world_check / world_queryCast_floor40_boxes: the dry run and the
-- cast of that move; world_mover_floor40_boxes: the walk by a mover (snap 8).
-- Under LuaJIT, where sat.test
-- and collidesWith reach the core through the FFI (sat/fast.lua), two more figures: an
-- empty C function through the FFI (that way's floor) and sat_test through the FFI with no
-- argument checks (the C work itself), so that what the binding adds can be read off.
-- On every Lua, `checks`: a C function that only does what a memory-safe binding of a pair
-- test must do through the C API (bench/lclock.c), the bound of sat.test there.
--
-- Each figure is the median of REPS timed runs of CALLS calls, after a warm-up run (which
-- also lets LuaJIT compile the loop); the cases take turns run by run. Garbage: CALLS calls
-- with the collector stopped.
local lib = require("benchlib")
local sat = require("sat")

local PAIRS = 1024
-- (the pure backend's calls cost 10 to 100 times more: a tenth of the calls, the same figure)
local CALLS = lib.backend == "lua" and 100000 or 1000000
local REPS = 7

local rng = lib.rng(20240611)

-- Regular-ish 8-gon: points on a circle at jittered angles, randomly rotated.
local function poly8(x, y, r)
  local pts = {}
  local a0 = rng.range(0, 2 * math.pi)
  for i = 0, 7 do
    local a = a0 + (i + rng.range(-0.3, 0.3)) * (2 * math.pi / 8)
    pts[#pts + 1] = x + r * math.cos(a)
    pts[#pts + 1] = y + r * math.sin(a)
  end
  local p = sat.polygon(pts)
  p:setRotation(rng.range(0, 2 * math.pi))
  return p
end

local function circle(x, y, r)
  return sat.circle(x, y, r)
end

-- A capsule 2r to 4r long from end to end (r from 2 to 8), and a segment 2r long, at a
-- random angle.
local function capsule(x, y, r)
  local a, h = rng.range(0, 2 * math.pi), r / 2
  return sat.capsule(x - h * math.cos(a), y - h * math.sin(a), x + h * math.cos(a),
    y + h * math.sin(a), r / 2)
end

local function segment(x, y, r)
  local a = rng.range(0, 2 * math.pi)
  return sat.segment(x - r * math.cos(a), y - r * math.sin(a), x + r * math.cos(a),
    y + r * math.sin(a))
end

-- A concave rock of 8 convex parts (a six-armed star: ear clipping and Hertel-Mehlhorn give
-- 8), r across its arms, randomly rotated.
local function rock8(x, y, r)
  local pts = {}
  for i = 0, 11 do
    local a, rr = math.pi * i / 6, (i % 2 == 0) and r or r / 2
    pts[#pts + 1] = x + rr * math.cos(a)
    pts[#pts + 1] = y + rr * math.sin(a)
  end
  local s = sat.concave(pts)
  assert(#s:parts() == 8, "the rock is not of 8 parts")
  s:setRotation(rng.range(0, 2 * math.pi))
  return s
end

-- A shape's size: the radius of a disk of its area, or half its box's longer side (a
-- segment has no area).
local function size(s)
  local a = s:area()
  if a > 0 then
    return (a / math.pi) ^ 0.5
  end
  local x1, y1, x2, y2 = s:bbox()
  return 0.5 * math.max(x2 - x1, y2 - y1)
end

-- PAIRS pairs of `make` shapes (or `make` and `makeB` ones; radius 4 to 16), b at a random
-- direction from a and at a distance scaled so that about half overlap (bisected on this
-- very table).
local function pairs_of(make, makeB)
  local A, B, dir, dist = {}, {}, {}, {}
  for i = 1, PAIRS do
    A[i] = make(rng.range(-1000, 1000), rng.range(-1000, 1000), rng.range(4, 16))
    B[i] = (makeB or make)(0, 0, rng.range(4, 16))
    dir[i], dist[i] = rng.range(0, 2 * math.pi), rng.range(0, 1)
  end
  local function place(k)
    local hits = 0
    for i = 1, PAIRS do
      local ax, ay = A[i]:position()
      local reach = size(A[i]) + size(B[i])
      local d = dist[i] * k * reach
      B[i]:moveTo(ax + d * math.cos(dir[i]), ay + d * math.sin(dir[i]))
      if sat.test(A[i], B[i]) then
        hits = hits + 1
      end
    end
    return hits
  end
  local lo, hi = 0, 4
  for _ = 1, 30 do
    local mid = (lo + hi) / 2
    if place(mid) > PAIRS / 2 then
      lo = mid
    else
      hi = mid
    end
  end
  return A, B, place(hi)
end

-- One loop per case, written out so that each call site is its own (and LuaJIT traces each).
local loops = {}

function loops.nop(A, B, rounds, f)
  for _ = 1, rounds do
    for i = 1, PAIRS do
      f(A[i], B[i])
    end
  end
end

loops.test = loops.nop -- a plain function of two shapes, like the floor

function loops.collidesWith(A, B, rounds)
  for _ = 1, rounds do
    for i = 1, PAIRS do
      A[i]:collidesWith(B[i])
    end
  end
end

-- sat.sweep(a, dx, dy, b): each pair's motion in M (a's offset to b: onto b's position).
function loops.sweep(A, B, rounds, f, M)
  for _ = 1, rounds do
    for i = 1, PAIRS do
      local m = M[i]
      f(A[i], m[1], m[2], B[i])
    end
  end
end

function loops.collide_reuse(A, B, rounds, f, response)
  for _ = 1, rounds do
    for i = 1, PAIRS do
      f(A[i], B[i], response)
    end
  end
end

function loops.collide_new(A, B, rounds, f)
  for _ = 1, rounds do
    for i = 1, PAIRS do
      f(A[i], B[i])
    end
  end
end

-- What game code does most with its shapes: read a field (a tag) and call a method, here on
-- shapes that have fields (the lookup goes through their own field table first).
function loops.field(A, _, rounds)
  local n = 0
  for _ = 1, rounds do
    for i = 1, PAIRS do
      if A[i].tag then n = n + 1 end
    end
  end
  return n
end

-- world:move(player, 1, 1) along a floor, walking right with gravity, back to the start at
-- its end: A = { world, player, start x, start y, end x }.
function loops.walk(A, _, rounds)
  local world, player, x0, y0, x1 = A[1], A[2], A[3], A[4], A[5]
  for _ = 1, rounds do
    for _ = 1, PAIRS do
      local x = world:move(player, 1, 1)
      if x > x1 then
        player:moveTo(x0, y0)
      end
    end
  end
end

-- world:check(player, 1, 1) where the walk starts (on the floor: what a move there costs,
-- changing nothing).
function loops.check(A, _, rounds)
  local world, player = A[1], A[2]
  for _ = 1, rounds do
    for _ = 1, PAIRS do
      world:check(player, 1, 1)
    end
  end
end

-- world:queryCast(player, 1, 1) there, its hits table reused.
function loops.cast(A, _, rounds)
  local world, player, hits = A[1], A[2], {}
  for _ = 1, rounds do
    for _ = 1, PAIRS do
      world:queryCast(player, 1, 1, hits)
    end
  end
end

-- The walk of loops.walk by a mover (world:mover, snap 8): mover:move(1, 1).
function loops.moverWalk(A, _, rounds)
  local world, player, x0, y0, x1 = A[1], A[2], A[3], A[4], A[5]
  local m = A.mover or world:mover(player, { snap = 8 })
  A.mover = m
  for _ = 1, rounds do
    for _ = 1, PAIRS do
      local x = m:move(1, 1)
      if x > x1 then
        player:moveTo(x0, y0)
      end
    end
  end
end

-- A floor 380 wide whose top is flat at y = 0 (y down): one concave shape of 40 parts (teeth
-- hanging below its top), or 40 separate boxes; a 16 x 16 box walking on it.
local function floor_world(concave)
  local world = sat.world(32)
  if concave then
    local t = { 0, 0, 380, 0 }
    for i = 37, 0, -1 do
      t[#t + 1], t[#t + 2], t[#t + 3], t[#t + 4] = 10 * i + 10, 20, 10 * i + 5, 12
    end
    t[#t + 1], t[#t + 2] = 0, 20
    local f = sat.concave(t)
    assert(#f:parts() == 40, "the floor is not of 40 parts")
    world:add(f, "static")
  else
    for i = 0, 39 do
      world:add(sat.box(9.5 * i, 0, 9.5, 20), "static")
    end
  end
  local player = world:add(sat.box(2, -16, 16, 16))
  return { world, player, 10, -8, 360 }
end

function loops.method(A, _, rounds)
  for _ = 1, rounds do
    for i = 1, PAIRS do
      A[i]:position()
    end
  end
end

local rounds = math.floor(CALLS / PAIRS)

-- Every case is warmed up, then the cases take turns, one timed run each per round, so that a
-- slow spell of the machine falls on all of them alike and the ratios to the floor hold.
-- A case marked heavy (microseconds a call: the compounds, world:move) runs 1/100 of the
-- calls, so that the whole benchmark stays within a minute or two.
local function rounds_of(c)
  return c.heavy and math.max(1, math.floor(rounds / 100)) or rounds
end

local function time_cases(list)
  local t = {}
  for k, c in ipairs(list) do
    c[2](c[3], c[4], rounds_of(c), c[5], c[6]) -- warm up (and let LuaJIT compile the loop)
    t[k] = {}
  end
  for r = 1, REPS do
    for k, c in ipairs(list) do
      collectgarbage("collect")
      local n = rounds_of(c)
      local t0 = lib.now()
      c[2](c[3], c[4], n, c[5], c[6])
      t[k][r] = (lib.now() - t0) / (n * PAIRS) * 1e9
    end
  end
  for k, c in ipairs(list) do
    lib.emit(c[1], lib.median(t[k]), "ns")
  end
end

local function garbage_case(c)
  local loop, A, B, f, extra, n = c[2], c[3], c[4], c[5], c[6], rounds_of(c)
  loop(A, B, n, f, extra) -- warm up (LuaJIT's traces are allocated too)
  return lib.garbage(loop, A, B, n, f, extra) * 1e6 / (n * PAIRS)
end

local nop = lib.nop
lib.note("%s: the floor is bench_clock.nop (an empty lua_CFunction)", lib.vm)

-- Under LuaJIT, sat.fast reaches the core through the FFI: the floor of that way in is an
-- empty C function called through the FFI, measured too (same loop).
-- And the core's own sat_test through the FFI with no checks at all (pointers cast once,
-- beforehand): what is left between it and sat.test is what the binding adds.
local ffi_nop, direct_test, ffi_ptrs
if rawget(_G, "jit") and lib.backend == "native" then -- (the pure backend's shapes are tables)
  local ffi = require("ffi")
  ffi.cdef("int bench_nop2(const void *a, const void *b);")
  ffi_nop = ffi.load(package.searchpath("bench_clock", package.cpath)).bench_nop2
  if sat.test ~= sat.core.test then -- sat.fast is on: its cdef is there
    local api = ffi.cast("const struct sat_lua_api_v4 *", sat.core._ffi.api)
    local shape_ptr, raw = ffi.typeof("const struct sat_lua_shape_v1 *"), api.raw_test
    direct_test = function(a, b) return raw(a, b) ~= 0 end
    ffi_ptrs = function(T)
      local P = {}
      for i = 1, #T do P[i] = ffi.cast(shape_ptr, T[i]) end
      return P
    end
  end
end

local CA, CB, chits = pairs_of(circle)
local PA, PB, phits = pairs_of(poly8)
local KPA, KPB, kphits = pairs_of(capsule, poly8)
local KKA, KKB, kkhits = pairs_of(capsule)
local SPA, SPB, sphits = pairs_of(segment, poly8)
-- (the pure backend has no compounds yet: its run leaves their cases out)
local compounds = pcall(sat.concave, 0, 0, 2, 0, 2, 2, 0, 2)
local RPA, RPB, rphits
if compounds then
  RPA, RPB, rphits = pairs_of(rock8, poly8)
end
lib.emit("pairs", PAIRS, "count")
lib.emit("pairs.overlapping", chits, "count")
lib.emit("pairs_poly8.overlapping", phits, "count")
lib.emit("pairs_capsule_poly8.overlapping", kphits, "count")
lib.emit("pairs_capsule_capsule.overlapping", kkhits, "count")
lib.emit("pairs_segment_poly8.overlapping", sphits, "count")
if rphits then
  lib.emit("pairs_rock8_poly8.overlapping", rphits, "count")
end

local TA = {}
for i = 1, PAIRS do
  TA[i] = CA[i]:clone()
  TA[i].tag = "enemy"
end

local response = sat.collide(CA[1], CB[1]) or {}
local PM = {}
for i = 1, PAIRS do
  local ax, ay = PA[i]:position()
  local bx, by = PB[i]:position()
  PM[i] = { bx - ax, by - ay }
end
local cases = {
  { "nop", loops.nop, CA, CB, nop },
  -- the least a memory-safe pair call does through the C API, with no test (bench/lclock.c)
  { "checks", loops.nop, CA, CB, lib.checks },
  { "nop_ffi", ffi_nop and loops.nop, CA, CB, ffi_nop },
  { "test", loops.test, CA, CB, sat.test },
  { "test_direct", direct_test and loops.test, ffi_ptrs and ffi_ptrs(CA), ffi_ptrs and ffi_ptrs(CB),
    direct_test },
  { "collidesWith", loops.collidesWith, CA, CB },
  -- the same function without the method lookup (a table lookup outside LuaJIT's JIT)
  { "collidesWith_cached", loops.test, CA, CB, CA[1].collidesWith },
  { "collide_reuse", loops.collide_reuse, CA, CB, sat.collide, response },
  { "collide_new", loops.collide_new, CA, CB, sat.collide },
  { "field_read", loops.field, TA, CB },
  { "method_fields", loops.method, TA, CB },
  { "test_poly8", loops.test, PA, PB, sat.test },
  { "collidesWith_poly8", loops.collidesWith, PA, PB },
  { "collide_poly8", loops.collide_reuse, PA, PB, sat.collide, response },
  { "contacts_poly8", loops.test, PA, PB, sat.contacts },
  { "sweep_poly8", loops.sweep, PA, PB, sat.sweep, PM },
  -- under LuaJIT, the same through the C API (sat.contacts and sat.sweep take the FFI)
  { "contacts_poly8_capi", ffi_nop and loops.test, PA, PB, sat.core.contacts },
  { "sweep_poly8_capi", ffi_nop and loops.sweep, PA, PB, sat.core.sweep, PM },
  { "collidesWith_capsule_poly8", loops.collidesWith, KPA, KPB },
  { "collidesWith_capsule_capsule", loops.collidesWith, KKA, KKB },
  { "collidesWith_segment_poly8", loops.collidesWith, SPA, SPB },
  { "collidesWith_rock8_poly8", RPA and loops.collidesWith, RPA, RPB, heavy = true },
  { "test_rock8_poly8", RPA and loops.test, RPA, RPB, sat.test },
  -- one world:move of a box walking along a floor: 40 boxes, or one concave shape of 40 parts
  { "world_move_floor40_boxes", loops.walk, floor_world(false), heavy = true },
  { "world_move_floor40_concave", compounds and loops.walk, compounds and floor_world(true),
    heavy = true },
  -- the same floor of boxes: a dry run and a cast of that move, and the walk by a mover
  { "world_check_floor40_boxes", loops.check, floor_world(false), heavy = true },
  { "world_queryCast_floor40_boxes", loops.cast, floor_world(false), heavy = true },
  { "world_mover_floor40_boxes", loops.moverWalk, floor_world(false), heavy = true },
}
local timed = {}
for _, c in ipairs(cases) do
  if c[2] then
    timed[#timed + 1] = c
  end
end
time_cases(timed)
for _, c in ipairs(cases) do
  local context = c[1]:find("^nop") or c[1]:find("poly8") or c[1]:find("capsule")
    or c[1]:find("^world_")
    or c[1]:find("cached") or c[1] == "checks"
    or c[1]:find("direct") or c[1]:find("field")
  if c[2] and (not context or c[1]:find("^contacts_poly8$") or c[1]:find("^sweep_poly8$")) then
    lib.emit(c[1] .. ".kb_per_million", garbage_case(c), "kb")
  end
end

-- ---- bytes per shape -----------------------------------------------------------------------
-- What N shapes of a kind add to the Lua heap (collectgarbage("count"), the collector
-- stopped, everything made before the measure kept alive), per shape: the userdata with
-- the core's shape inside, and in a world the world's bookkeeping too. `mem.<kind>`.
-- The C heap is counted too (clock.heap, where there is one: the core's hash keeps its
-- records in malloc'd memory); where the Lua allocator is malloc itself (Lua 5.4, not
-- LuaJIT's own allocator) the C heap already holds the Lua heap, which is then not added.
local MEM_N = 20000
local heap = require("bench_clock").heap
local luaInHeap = false
if heap() then
  local h0 = heap()
  local big = {} -- luacheck: ignore 241 (filled only: its size is the probe)
  for i = 1, 2 ^ 17 do
    big[i] = i
  end
  luaInHeap = heap() - h0 >= 2 ^ 20
end
local function bytesPer(make, after)
  local keep = {} -- luacheck: ignore 241 (filled only: keeps the shapes alive)
  for i = 1, MEM_N do
    keep[i] = false -- the array part grown before the measure
  end
  local h0
  local kb = lib.garbage(function()
    h0 = heap()
    for i = 1, MEM_N do
      keep[i] = make(i)
    end
    if after then
      after()
    end
    h0 = h0 and heap() - h0
  end)
  local bytes = luaInHeap and h0 or kb * 1024 + (h0 or 0)
  return bytes / MEM_N
end
local octagon = {}
for k = 0, 7 do
  octagon[#octagon + 1] = 10 * math.cos(k * math.pi / 4)
  octagon[#octagon + 1] = 10 * math.sin(k * math.pi / 4)
end
lib.emit("mem.box", bytesPer(function(i) return sat.box(i * 16, 0, 16, 16) end), "bytes")
lib.emit("mem.poly8", bytesPer(function() return sat.polygon(octagon) end), "bytes")
lib.emit("mem.circle", bytesPer(function(i) return sat.circle(i * 16, 0, 8) end), "bytes")
-- a box once turned: a polygon keeps its local points apart only from its first turn or
-- scale on, in a block of its own (kept alive by the shape through a weak-keyed table)
lib.emit("mem.box_turned", bytesPer(function(i) return sat.box(i * 16, 0, 16, 16):rotate(0.5) end),
  "bytes")
-- tiles of a level: static boxes in a 16-px grid, 200 to a row
local level = sat.world(64)
lib.emit("mem.box_in_world", bytesPer(function(i)
  return level:add(sat.box(i % 200 * 16, math.floor(i / 200) * 16, 16, 16), "static")
end), "bytes")
-- the same once the world has filed them in its cells (its first query or step does)
local filed = sat.world(64)
lib.emit("mem.box_in_world_filed", bytesPer(function(i)
  return filed:add(sat.box(i % 200 * 16, math.floor(i / 200) * 16, 16, 16), "static")
end, function() filed:queryPoint(-1000, -1000) end), "bytes")
