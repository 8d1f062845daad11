--- The pure-Lua backend against the native one on the same pairs, in one process: nanoseconds
-- per call of sat.test and sat.collide (with a reused response) over 1,024 pairs of polygons
-- of 8 vertices (about half overlapping), and the same for circles (the binding's floor).
-- Native: require("sat") as a game gets it (under LuaJIT sat.fast's FFI path); pure:
-- require("sat.backend").new("lua"), the same shapes made by the same calls.
-- Rows: <vm>.cpu.pair.<case> (native) and <vm>.pure.pair.<case>, timed by the process's CPU
-- time (run.sh sets BENCH_CLOCK=cpu); bench/report.lua prints their ratio beside the targets of
-- issue 26.
--
-- Each case has a loop of its own (compiled from its own source, so that LuaJIT traces each
-- apart, as a game's call site would be); a figure is the median of REPS timed runs after a
-- warm-up, the cases taking turns run by run so that a slow spell of a shared machine falls on
-- all alike.
local lib = require("benchlib")
local native = require("sat")
local pure = require("sat.backend").new("lua")
assert(native.backend == "native" and pure.backend == "lua", "both backends are needed")

local PAIRS = 1024
local REPS = tonumber(os.getenv("PURE_BENCH_REPS") or "") or 7
local NATIVE_CALLS, PURE_CALLS = 500000, 100000
local vm = lib.vm

local rng = lib.rng(20261127)

-- the pairs' parameters, drawn once: a's and b's points (8-gons, radius 4 to 16), b's
-- direction and distance (a fraction of the sum of the radii)
local params = {}
for i = 1, PAIRS do
  local p = { ax = rng.range(-1000, 1000), ay = rng.range(-1000, 1000), ra = rng.range(4, 16),
    rb = rng.range(4, 16), dir = rng.range(0, 2 * math.pi), dist = rng.range(0, 1) }
  for _, which in ipairs({ "a", "b" }) do
    local pts, a0 = {}, rng.range(0, 2 * math.pi)
    for k = 0, 7 do
      local a = a0 + (k + rng.range(-0.3, 0.3)) * (math.pi / 4)
      pts[#pts + 1] = math.cos(a)
      pts[#pts + 1] = math.sin(a)
    end
    p[which .. "pts"], p[which .. "turn"] = pts, rng.range(0, 2 * math.pi)
  end
  params[i] = p
end

-- the pairs on one backend: kind "poly8" or "circle", b placed at scale k
local function make(sat, kind, k)
  local A, B = {}, {}
  for i = 1, PAIRS do
    local p = params[i]
    local bx = p.ax + p.dist * k * (p.ra + p.rb) * math.cos(p.dir)
    local by = p.ay + p.dist * k * (p.ra + p.rb) * math.sin(p.dir)
    if kind == "circle" then
      A[i], B[i] = sat.circle(p.ax, p.ay, p.ra), sat.circle(bx, by, p.rb)
    else
      local a, b = {}, {}
      for j = 1, 16, 2 do
        a[j], a[j + 1] = p.ax + p.ra * p.apts[j], p.ay + p.ra * p.apts[j + 1]
        b[j], b[j + 1] = bx + p.rb * p.bpts[j], by + p.rb * p.bpts[j + 1]
      end
      A[i], B[i] = sat.polygon(a):rotate(p.aturn), sat.polygon(b):rotate(p.bturn)
    end
  end
  return A, B
end

-- the scale at which about half the native pairs overlap (bisected)
local function half(kind)
  local lo, hi = 0, 2
  for _ = 1, 25 do
    local mid = (lo + hi) / 2
    local A, B = make(native, kind, mid)
    local hits = 0
    for i = 1, PAIRS do
      if native.test(A[i], B[i]) then hits = hits + 1 end
    end
    if hits > PAIRS / 2 then lo = mid else hi = mid end
  end
  return hi
end

-- a loop of its own for each case: f(A[i], B[i], r) over the pairs, `rounds` times
local LOOP = [[
local f, A, B, r, n, rounds = ...
for _ = 1, rounds do
  for i = 1, n do
    f(A[i], B[i], r)
  end
end
]]
local load = rawget(_G, "loadstring") or load
local function loop()
  return assert(load(LOOP, "=pure-bench-loop"))
end

local cases = {}
for _, kind in ipairs({ "poly8", "circle" }) do
  local k = half(kind)
  -- (lib.vm is "<vm>.cpu" with BENCH_CLOCK=cpu, as run.sh runs this file)
local base = vm:gsub("%.cpu$", "")
for _, side in ipairs({ { native, vm .. ".pair." }, { pure, base .. ".pure.pair." } }) do
    local sat, prefix = side[1], side[2]
    local A, B = make(sat, kind, k)
    local hits, agree = 0, 0
    local NA, NB = make(native, kind, k)
    for i = 1, PAIRS do
      local t = sat.test(A[i], B[i])
      if t then hits = hits + 1 end
      if t == native.test(NA[i], NB[i]) then agree = agree + 1 end
    end
    assert(agree == PAIRS, "the backends disagree on a pair")
    local calls = sat == native and NATIVE_CALLS or PURE_CALLS
    local rounds = math.max(1, math.floor(calls / PAIRS))
    local r = sat.collide(A[1], B[1]) or {}
    cases[#cases + 1] = { prefix .. kind .. ".test", loop(), sat.test, A, B, nil, rounds }
    cases[#cases + 1] = { prefix .. kind .. ".collide", loop(), sat.collide, A, B, r, rounds }
    if sat == native then
      lib.emit("pair." .. kind .. ".overlapping", hits, "count")
    end
  end
end

local times = {}
for c = 1, #cases do
  local case = cases[c]
  case[2](case[3], case[4], case[5], case[6], PAIRS, case[7]) -- warm up
  times[c] = {}
end
for rep = 1, REPS do
  for c = 1, #cases do
    local case = cases[c]
    collectgarbage("collect")
    local t0 = lib.now()
    case[2](case[3], case[4], case[5], case[6], PAIRS, case[7])
    times[c][rep] = (lib.now() - t0) / (case[7] * PAIRS) * 1e9
  end
end
for c = 1, #cases do
  -- (the names carry the vm already)
  io.write(string.format('{"name": "%s", "value": %.4g, "unit": "ns"}\n', cases[c][1],
    lib.median(times[c])))
end
io.flush()
