--- Reads the JSON lines of one bench run and prints the table, each target next to its
-- figure with PASS or MISS. Lower-case pass/miss marks a figure shown for context only (not
-- the measurement the target is set for).
-- Usage: lua5.4 bench/report.lua results.jsonl [--markdown]
local path = assert(arg[1], "usage: report.lua results.jsonl [--markdown]")
local markdown = arg[2] == "--markdown"

local R = {}
for line in assert(io.open(path)):lines() do
  local name, value, unit = line:match('"name": "([^"]+)", "value": ([^,]+), "unit": "([^"]+)"')
  if name then
    R[name] = { value = tonumber(value), unit = unit }
  end
end

local function get(name)
  local r = R[name]
  return r and r.value
end

local function fmt(v, unit)
  if v == nil then
    return "-"
  elseif unit == "ns" then
    return string.format("%.1f ns", v)
  elseif unit == "ms" then
    return string.format("%.2f ms", v)
  elseif unit == "us" then
    return string.format("%.2f us", v)
  elseif unit == "s" then
    return string.format("%.3f s", v)
  elseif unit == "bytes" then
    return string.format("%.0f B", v)
  elseif unit == "per call" then
    return string.format(v >= 100 and "%.0f" or "%.2f", v)
  elseif unit == "kb" then
    return v == 0 and "0 kb" or string.format("%.3g kb", v)
  end
  return string.format(v == math.floor(v) and "%d" or "%.3g", v) -- (a limit with no figure)
end

local function row(label, value, target, mark)
  if markdown then
    print(string.format("| %s | %s | %s | %s |", label:gsub("^ +", "&nbsp;&nbsp;"), value,
      target or "", mark or ""))
  else
    local line = string.format("  %-48s %12s   %-22s %s", label, value, target or "", mark or "")
    print((line:gsub("%s+$", "")))
  end
end

-- Lines of explanation under a section header.
local function say(text)
  if markdown then
    text = text:gsub("^ +", "")
  end
  print(text)
end

local in_table = false

local function header(text)
  print("")
  if markdown then
    print("#### " .. text)
    print("")
  else
    print(text)
  end
  in_table = false
end

local function figure_row(...)
  if markdown and not in_table then
    print("")
    print("| | figure | target | |")
    print("|---|---:|---|---|")
    in_table = true
  end
  row(...)
end

-- A figure; with `limit`, a target "<= limit" (or `text`), PASS/MISS (or pass/miss).
local function figure(label, name, limit, text, context)
  local r = R[name]
  local v = r and r.value
  if not limit then
    figure_row(label, fmt(v, r and r.unit))
    return
  end
  local mark
  if v == nil then
    mark = "n/a"
  else
    mark = v <= limit and "PASS" or "MISS"
    if context then
      mark = mark:lower()
    end
  end
  figure_row(label, fmt(v, r and r.unit), text or ("<= " .. fmt(limit, r and r.unit)), mark)
end

-- ---- C core -------------------------------------------------------------------------------
local calls = get("c.calls")
local function mb(name)
  local kb = get(name)
  return kb and string.format("%.1f MB", kb / 1024) or "?"
end
header("C core: ns per call, median of 7 passes of " .. fmt(calls, "count") ..
  " seeded random calls (about half overlapping)")
say(string.format("  world: %s distinct pairs drawn from a pool of %s shapes (poly8 pool %s: in",
  fmt(get("c.poly8_poly8.distinct"), "count"), fmt(get("c.poly8_poly8.shapes"), "count"),
  mb("c.poly8_poly8.table_kb")))
say(string.format("         L3 like a game world's shapes, each in about 16 pairs; %s of %s",
  fmt(get("c.poly8_poly8.overlapping"), "count"), fmt(calls, "count")))
say(string.format("         calls overlap). cold: every call its own pair and shapes (%s: DRAM",
  mb("c.poly8_poly8.cold.table_kb")))
say(string.format("         latency). hot: %s pairs in L2 (the arithmetic alone).",
  fmt(get("c.poly8_poly8.hot.distinct"), "count")))
local core_rows = {
  { "poly8 vs poly8, sat_test", "c.poly8_poly8.test", 150 },
  { "poly8 vs poly8, sat_collide", "c.poly8_poly8.collide", 250 },
  { "circle vs poly8, sat_collide", "c.circle_poly8.collide", 50 },
  { "box vs box, sat_collide", "c.box_box.collide" },
  { "circle vs circle, sat_collide", "c.circle_circle.collide" },
  -- the new kinds: no dearer than two polygons (the figure of the same table)
  { "capsule vs poly8, sat_collide", "c.capsule_poly8.collide", "c.poly8_poly8.collide" },
  { "capsule vs capsule, sat_collide", "c.capsule_capsule.collide", "c.poly8_poly8.collide" },
  { "segment vs poly8, sat_collide", "c.segment_poly8.collide", "c.poly8_poly8.collide" },
  -- where they touch, and when a moving one first touches: figures, no target
  { "poly8 vs poly8, sat_contacts", "c.poly8_poly8.contacts" },
  { "poly8 vs poly8, sat_sweep_contact (a onto b)", "c.poly8_poly8.sweep" },
}
-- A row's name in the cold or hot table.
local function table_name(name, which)
  return which and (name:gsub("^(c%.[^.]+)%.", "%1." .. which .. ".")) or name
end
local function core_row(c, which)
  local label = which and c[1] .. " (" .. which .. ")" or c[1]
  if type(c[3]) == "string" then
    figure(label, table_name(c[2], which), get(table_name(c[3], which)), "<= poly8 vs poly8",
      which ~= nil)
  else
    figure(label, table_name(c[2], which), c[3], nil, which ~= nil)
  end
end
for _, c in ipairs(core_rows) do
  core_row(c)
end
for _, which in ipairs({ "cold", "hot" }) do
  for _, c in ipairs(core_rows) do
    core_row(c, which)
  end
end

-- Pools: the same poly8 pairs from more and more shapes, each its own allocation.
header("C core, poly8 pairs from pools of shapes, each shape its own allocation as in the binding")
say(string.format("  (%s bytes per poly8 in the core; about half of the calls overlap; target: the",
  fmt(get("c.pool.shape_bytes"), "count")))
say("  65,536 pool within 2x of the 64 pool, yes/no and full result)")
for _, what in ipairs({ { "test", "sat_test" }, { "collide", "sat_collide" } }) do
  local base = get("c.pool64." .. what[1])
  figure(what[2] .. ", 64 shapes (in L1)", "c.pool64." .. what[1])
  figure(what[2] .. ", 8,192 shapes", "c.pool8192." .. what[1])
  figure(what[2] .. ", 65,536 shapes (past L3)", "c.pool65536." .. what[1], base and 2 * base,
    "<= 2x the 64 pool")
end
if get("c.pool65536.test.sim_ll_misses") then
  say("  simulated (cachegrind: 32 KiB L1, 8 MiB last level), a call's instructions and misses:")
  for _, what in ipairs({ { "test", "sat_test" }, { "collide", "sat_collide" } }) do
    for _, n in ipairs({ { "64", "64" }, { "65536", "65,536" } }) do
      local k = "c.pool" .. n[1] .. "." .. what[1] .. ".sim_"
      figure(string.format("%s, %s shapes: instructions", what[2], n[2]), k .. "instructions")
      figure("  L1 misses", k .. "l1_misses")
      figure("  last-level misses", k .. "ll_misses")
    end
  end
end

-- Compounds: the union's exact MTV and the part pairs' contacts and sweeps (issue 25).
header("C core, compounds: ms per call (one pair each, median of up to 7 calls)")
say("  two overlapping stars (sat_concave, the second moved by (1.3, 0.7), turned 0.37), two")
say("  100-segment zigzag chains crossing; sat_concave of a 20-turn spiral band (target 5 ms a")
say("  call for the 64-spike stars and the chains, 100 ms / 1 s for the 16,000 / 100,000 spiral)")
for _, s in ipairs({ 16, 32, 64, 128, 256 }) do
  for _, op in ipairs({ "collide", "contacts", "sweep" }) do
    figure(string.format("stars of %d spikes (%s parts each), %s", s,
      fmt(get("c.compound.star" .. s .. ".parts"), "count"), op),
      "c.compound.star" .. s .. "." .. op, s == 64 and 5 or nil)
  end
end
for _, op in ipairs({ "collide", "contacts", "sweep" }) do
  figure("zigzag chains of 100 segments, " .. op, "c.compound.zigzag100." .. op, 5)
end
figure("sat_concave, spiral of 8,000 points", "c.concave.spiral8000")
figure("sat_concave, spiral of 16,000 points", "c.concave.spiral16000", 100)
figure("sat_concave, spiral of 100,000 points", "c.concave.spiral100000", 1000)
for _, vm in ipairs({ { "lua54", "lua5.4" }, { "luajit", "luajit" } }) do
  for _, case in ipairs({ { "star64", "stars of 64 spikes" }, { "zigzag100", "zigzag chains" } }) do
    local k = vm[1] .. ".world." .. case[1]
    figure(string.format("%s, world:step (%s)", case[2], vm[2]), k .. ".step", 5)
    figure(string.format("%s, world:move (%s)", case[2], vm[2]), k .. ".worldmove", 5)
  end
end

-- Turns: sat_shape_rotate by 0.01 on 64 shapes of a kind in turn (the own sin and cos
-- included, src/core/sat_math.c): figures, no target.
if get("c.rotate.box") then
  header("C core, sat_shape_rotate: ns per call, 64 shapes of a kind in turn (in L1)")
  for _, k in ipairs({ { "box", "box" }, { "poly8", "poly8" }, { "capsule", "capsule" },
    { "rock8", "rock8 (compound of 8 parts)" } }) do
    figure(k[2], "c.rotate." .. k[1])
  end
end

-- ---- binding ------------------------------------------------------------------------------
local vms = { { "lua54", "lua5.4" }, { "luajit", "luajit" } }
for _, vm in ipairs(vms) do
  local p = vm[1] .. "."
  local floor, ffi_floor = get(p .. "nop"), get(p .. "nop_ffi")
  header(string.format("Binding under %s: ns per call from Lua, median of 7 runs of 1e6 calls" ..
    " (the cases take turns)", vm[2]))
  say("  (circle pairs, half overlapping; every figure includes the same loop and table reads)")
  figure("empty C call (the floor)", p .. "nop")
  if ffi_floor then
    figure("  empty C call through the FFI", p .. "nop_ffi")
    figure("  sat_test alone, through the FFI", p .. "test_direct")
  end
  local within = floor and 1.5 * floor
  local function ratio(name)
    local v = get(p .. name)
    if not (v and floor) then
      return ""
    end
    if ffi_floor then
      return string.format(" (%.1fx; %.1fx FFI)", v / floor, v / ffi_floor)
    end
    return string.format(" (%.1fx)", v / floor)
  end
  figure("  C API bound: both shapes checked, no test" .. ratio("checks"), p .. "checks")
  figure("sat.test" .. ratio("test"), p .. "test", within, "<= 1.5x floor")
  figure("a:collidesWith(b)" .. ratio("collidesWith"), p .. "collidesWith", within,
    "<= 1.5x floor")
  figure("  the same, method fetched once" .. ratio("collidesWith_cached"),
    p .. "collidesWith_cached")
  if ffi_floor then
    local ffi_within = 1.5 * ffi_floor
    figure("sat.test vs the FFI floor", p .. "test", ffi_within, "<= 1.5x FFI floor", true)
    local t, d = get(p .. "test"), get(p .. "test_direct")
    if t and d then
      figure_row("  of it, sat_test's own work", fmt(d - ffi_floor, "ns"))
      -- two medians of separate runs: on a noisy machine the difference can come out < 0
      figure_row("  of it, what the binding adds", t >= d and fmt(t - d, "ns")
        or "< 0: noise (the two runs differ)")
    end
  end
  figure("sat.collide, reused response" .. ratio("collide_reuse"), p .. "collide_reuse")
  figure("sat.collide, new response" .. ratio("collide_new"), p .. "collide_new")
  figure("s.tag, a shape with fields", p .. "field_read")
  figure("s:position(), a shape with fields", p .. "method_fields")
  figure("sat.test, poly8 pairs", p .. "test_poly8")
  figure("a:collidesWith(b), poly8 pairs", p .. "collidesWith_poly8")
  for _, k in ipairs({ "capsule_poly8", "capsule_capsule", "segment_poly8" }) do
    figure("a:collidesWith(b), " .. k:gsub("_", "/") .. " pairs", p .. "collidesWith_" .. k,
      get(p .. "collidesWith_poly8"), "<= poly8 pairs")
  end
  figure("sat.contacts, poly8 pairs", p .. "contacts_poly8")
  if ffi_floor then
    figure("  the same through the C API", p .. "contacts_poly8_capi")
  end
  figure("sat.sweep, poly8 pairs (a onto b)", p .. "sweep_poly8")
  if ffi_floor then
    figure("  the same through the C API", p .. "sweep_poly8_capi")
  end
  -- Any allocation per call would be >= 16 kb per million: under 1 is none (one-offs such
  -- as a stack resize or a LuaJIT side trace show as fractions).
  figure("garbage per 1e6 sat.test", p .. "test.kb_per_million", 1, "none (< 1 kb)")
  figure("garbage per 1e6 collidesWith", p .. "collidesWith.kb_per_million", 1, "none (< 1 kb)")
  figure("garbage per 1e6 collide, reused", p .. "collide_reuse.kb_per_million", 1,
    "none (< 1 kb)")
  figure("garbage per 1e6 collide, new", p .. "collide_new.kb_per_million")
  figure("garbage per 1e6 sat.contacts", p .. "contacts_poly8.kb_per_million", 1, "none (< 1 kb)")
  figure("garbage per 1e6 sat.sweep", p .. "sweep_poly8.kb_per_million", 1, "none (< 1 kb)")
  -- bytes per shape: the targets are set for Lua 5.4 (shown for LuaJIT too, for context)
  local jit = vm[1] == "luajit"
  figure("bytes per box", p .. "mem.box", 300, nil, jit)
  figure("bytes per 8-gon", p .. "mem.poly8", 450, nil, jit)
  figure("bytes per circle", p .. "mem.circle")
  figure("bytes per box once turned", p .. "mem.box_turned")
  figure("bytes per box in a world (static)", p .. "mem.box_in_world", 350, nil, jit)
  figure("bytes per box in a world, filed in its cells", p .. "mem.box_in_world_filed", 350, nil,
    jit)
end

-- ---- world --------------------------------------------------------------------------------
local frame_limit = { lua54 = 16, luajit = 8 }
for _, vm in ipairs(vms) do
  local p = vm[1] .. ".world."
  header(string.format("World under %s: a frame = move every shape + world:step() with handlers",
    vm[2]))
  for _, n in ipairs({ "n1000", "n10000" }) do
    local shapes, touching = get(p .. n .. ".shapes"), get(p .. n .. ".touching")
    figure(string.format("%s shapes, %s touching (%.0f%%)", fmt(shapes, "count"),
      fmt(touching, "count"), (shapes and touching) and 100 * touching / shapes or 0),
      p .. n .. ".frame", n == "n10000" and frame_limit[vm[1]] or nil)
    figure("  mean frame", p .. n .. ".frame_mean")
    figure("  moving the shapes (median)", p .. n .. ".move")
    figure("  world:step() (median)", p .. n .. ".step")
    figure("  garbage per frame", p .. n .. ".kb_per_frame")
  end
  local sparse = p .. "sparse10000."
  figure(string.format("%s shapes, none touching (%s touch)", fmt(get(sparse .. "shapes"), "count"),
    fmt(get(sparse .. "touching"), "count")), sparse .. "frame")
  figure("  moving the shapes (median)", sparse .. "move")
  figure("  world:step() (median)", sparse .. "step")
  figure("  garbage per frame", sparse .. "kb_per_frame", 0.01, "none (< 0.01 kb)")
  local mv = p .. "move1000."
  figure(string.format("%s shapes moved with world:move, %s collisions reported",
    fmt(get(mv .. "shapes"), "count"), fmt(get(mv .. "collisions"), "count")), mv .. "frame")
  figure("  world:move of every shape (median)", mv .. "move")
  figure("  world:step() (median)", mv .. "step")
  figure("  garbage per frame", mv .. "kb_per_frame")
  figure("300 boxes 16x16 in 800x600, 60 frames", p .. "boxes300.total")
  figure("  colliding pairs found (enter + stay)", p .. "boxes300.pairs")
end
local a, b = get("lua54.world.boxes300.pairs"), get("luajit.world.boxes300.pairs")
if a and b and a ~= b then
  say(string.format("\n  NOTE: boxes300 found %d pairs under lua5.4 but %d under luajit:" ..
    " the scenes are identical, so the worlds disagree.", a, b))
end

-- ---- the level scenes -----------------------------------------------------------------------
local level_limit = { lua54 = 3, luajit = 1.5 }
local solid_limit = { lua54 = 0.6, luajit = 0.3 }
for _, vm in ipairs(vms) do
  local p = vm[1] .. ".level."
  header(string.format("Level under %s: static tiles of 16, actors moved by world:move + world:step()",
    vm[2]))
  local frame100 = get(p .. "map100.frame")
  for _, m in ipairs({ "map100", "map316" }) do
    figure(string.format("%s x %s map, %s tiles, %s actors", m == "map100" and 100 or 316,
      m == "map100" and 100 or 316, fmt(get(p .. m .. ".tiles"), "count"),
      fmt(get(p .. m .. ".actors"), "count")),
      p .. m .. ".frame", m == "map100" and level_limit[vm[1]] or (frame100 and 1.3 * frame100),
      m == "map316" and "<= 1.3x the 100 x 100" or nil)
    figure("  world:move of every actor (median)", p .. m .. ".move")
    figure("  world:step() (median)", p .. m .. ".step")
    figure("  contacts a frame (enter + stay)", p .. m .. ".contacts")
    figure("  garbage per frame (contacts beginning)", p .. m .. ".kb_per_frame")
  end
  figure("100 x 100, actors jiggling in free space", p .. "quiet100.frame")
  figure("  garbage per frame (nothing begins or ends)", p .. "quiet100.kb_per_frame", 0, "0 kb")
  figure(string.format("solid map, 100 circles (%s contacts): step",
    fmt(get(p .. "solid100.contacts"), "count")), p .. "solid100.step", solid_limit[vm[1]])
  say("  per call, meeting nothing, among 1,000 / 10,000 / 100,000 static boxes (target: the")
  say("  100,000 figure within 1.5x of the 1,000 one)")
  for _, what in ipairs({ "move", "queryPoint", "queryRect", "querySegment", "queryShape" }) do
    local base = get(p .. "calls1k." .. what)
    figure(what .. ", 1,000", p .. "calls1k." .. what)
    figure(what .. ", 10,000", p .. "calls10k." .. what, nil)
    figure(what .. ", 100,000", p .. "calls100k." .. what, base and 1.5 * base, "<= 1.5x the 1,000")
  end
  figure("20,000 circles at 1e17 (issue 13 #7): a step", p .. "far20000.step")
  figure("10,000 circles, cells of 1e-3 (#8): a step", p .. "tiny10000.step")
end

-- ---- the pure-Lua backend against the native one (issue 26) --------------------------------
-- Each row: the pure backend's figure, the native one's (same scene, same run, both timed by
-- CPU time: rows <vm>.pure.* and <vm>.cpu.*), and their ratio against the target.
local function ratio_row(label, pure_name, native_name, limit)
  local p, n = get(pure_name), get(native_name)
  local key = "ratio:" .. pure_name
  if p and n and n > 0 then
    R[key] = { value = p / n, unit = "x" }
  end
  local unit = R[pure_name] and R[pure_name].unit
  local label2 = string.format("%s (%s pure, %s native)", label, fmt(p, unit), fmt(n, unit))
  local r = R[key]
  local mark = r and (limit and (r.value <= limit and "PASS" or "MISS")) or (limit and "n/a")
  figure_row(label2, r and string.format("%.2fx", r.value) or "-",
    limit and string.format("<= %gx", limit) or nil, mark)
end
local pure_vms = { { "luajit", "luajit", 3, 2.5, 3 }, { "lua54", "lua5.4", 20, 4 },
  { "lua51", "lua5.1", 20, 4 } }
local any = false
for _, v in ipairs(pure_vms) do
  any = any or get(v[1] .. ".pure.pair.poly8.test") ~= nil
end
if any then
  for _, v in ipairs(pure_vms) do
    local vm, pairs_limit, level_lim, world_lim = v[1], v[3], v[4], v[5]
    header(string.format("The pure-Lua backend against the native one under %s (pure / native)", v[2]))
    local p, n = vm .. ".pure.", vm .. ".cpu."
    ratio_row("poly8 pairs, sat.test", p .. "pair.poly8.test", n .. "pair.poly8.test", pairs_limit)
    ratio_row("poly8 pairs, sat.collide (reused response)", p .. "pair.poly8.collide",
      n .. "pair.poly8.collide", pairs_limit)
    ratio_row("circle pairs, sat.test", p .. "pair.circle.test", n .. "pair.circle.test")
    ratio_row("circle pairs, sat.collide", p .. "pair.circle.collide", n .. "pair.circle.collide")
    ratio_row("level frame, 100 x 100 map, 1,000 actors", p .. "level.map100.frame",
      n .. "level.map100.frame", level_lim)
    ratio_row("  world:move of every actor", p .. "level.map100.move", n .. "level.map100.move")
    ratio_row("  world:step()", p .. "level.map100.step", n .. "level.map100.step")
    if world_lim then
      ratio_row("10,000 moving shapes, a frame", p .. "world.n10000.frame", n .. "world.n10000.frame",
        world_lim)
      ratio_row("  moving the shapes", p .. "world.n10000.move", n .. "world.n10000.move")
      ratio_row("  world:step()", p .. "world.n10000.step", n .. "world.n10000.step")
    end
  end
end

-- ---- building levels (sat.level.grid) -------------------------------------------------------
local LEVEL_MODES = { "rects", "greedy", "rows", "columns", "none", "concave", "chain", "rects_nolimit",
  "greedy_nolimit" }
for _, vm in ipairs(vms) do
  local p = vm[1] .. ".level_build."
  local tiles_ms = get(p .. "map316.tiles_ms")
  header(string.format("Level building under %s: the 316 x 316 map (%s tiles of 16), new world each time",
    vm[2], fmt(get(p .. "map316.tiles"), "count")))
  say("  (by default merged rectangles keep within two of the world's 32-unit cells; _nolimit:")
  say("  maxSpan = math.huge)")
  figure("a box per tile, added one by one", p .. "map316.tiles_ms")
  for _, mode in ipairs(LEVEL_MODES) do
    figure(string.format("sat.level.grid, merge %s (%s shapes)", mode, fmt(get(p .. "map316." .. mode), "count")),
      p .. "map316." .. mode .. "_ms", mode == "rects" and tiles_ms or nil,
      mode == "rects" and "<= a box per tile" or nil)
  end
  say(string.format("  shapes per mode: the 100 x 100 map of map100 (%s tiles) / a solid 100 x 100 (%s tiles)",
    fmt(get(p .. "map100.tiles"), "count"), fmt(get(p .. "solid100.tiles"), "count")))
  for _, mode in ipairs(LEVEL_MODES) do
    figure_row("  " .. mode, string.format("%s / %s", fmt(get(p .. "map100." .. mode), "count"),
      fmt(get(p .. "solid100." .. mode), "count")))
  end
  local q = vm[1] .. ".level."
  for _, m in ipairs({ "map100", "map316" }) do
    figure(string.format("%s with its tiles merged (%s shapes): frame", m, fmt(get(q .. m .. "m.tiles"), "count")),
      q .. m .. "m.frame", get(q .. m .. ".frame"), "<= the unmerged frame")
  end
end
