--- Shared by the Lua benchmarks: the clock, a seeded random generator that gives the same
-- numbers on every Lua, medians, garbage counting and the JSON lines run.sh collects.
local clock = require("bench_clock")

local lib = {}

lib.now = clock.now
-- BENCH_CLOCK=cpu: the process's CPU time (os.clock) instead, for figures compared across runs
-- on a shared machine (run.sh's pure-backend rows), where waiting for a core would count too
lib.cpu = os.getenv("BENCH_CLOCK") == "cpu"
--- BENCH_FRAMES=n: at most n timed frames (and fewer warm-up and garbage frames) in the scenes
-- of level.lua and world.lua, for the pure backend's slower runs: lib.frames(n) -> the count.
local most = tonumber(os.getenv("BENCH_FRAMES") or "")
function lib.frames(n)
  return most and math.max(1, math.min(n, most)) or n
end
if lib.cpu then
  lib.now = os.clock
end
lib.nop = clock.nop
lib.checks = clock.checks

--- "lua54", "luajit" or "lua51": the prefix of every name this interpreter reports; on the
-- pure-Lua backend (SAT_BACKEND=lua) "<vm>.pure", and "<vm>.cpu" on the native one with
-- BENCH_CLOCK=cpu: the rows bench/report.lua compares.
lib.vm = rawget(_G, "jit") and "luajit" or ("lua" .. _VERSION:gsub("%D", ""))
lib.backend = require("sat.backend").name
if lib.backend == "lua" then
  lib.vm = lib.vm .. ".pure"
elseif lib.cpu then
  lib.vm = lib.vm .. ".cpu" -- (the native figures of the same clock, beside the pure ones)
end

--- Park-Miller minimal standard generator: exact in doubles and in 5.4 integers alike, so
-- lua5.4 and luajit build the same scenes and must find the same pairs.
function lib.rng(seed)
  local x = seed % 2147483646 + 1
  local r = {}
  --- Uniform in [lo, hi).
  function r.range(lo, hi)
    x = x * 16807 % 2147483647
    return lo + (hi - lo) * ((x - 1) / 2147483646)
  end
  --- Integer in [1, n].
  function r.int(n)
    x = x * 16807 % 2147483647
    return (x - 1) % n + 1
  end
  return r
end

function lib.median(values)
  local s = {}
  for i = 1, #values do
    s[i] = values[i]
  end
  table.sort(s)
  local n = #s
  if n % 2 == 1 then
    return s[(n + 1) / 2]
  end
  return (s[n / 2] + s[n / 2 + 1]) / 2
end

function lib.mean(values)
  local sum = 0
  for i = 1, #values do
    sum = sum + values[i]
  end
  return sum / #values
end

--- Kilobytes allocated by fn(...), with the collector stopped around it.
-- A full collection shrinks the Lua stack, and growing it back is counted as memory: grow it
-- first (200 nested calls), so that only what fn leaves behind is counted.
local function growStack(n)
  if n > 0 then
    return growStack(n - 1) + 1 -- not a tail call: every level keeps its frame
  end
  return 0
end

function lib.garbage(fn, ...)
  collectgarbage("collect")
  collectgarbage("stop")
  growStack(200)
  local before = collectgarbage("count")
  fn(...)
  local after = collectgarbage("count")
  collectgarbage("restart")
  collectgarbage("collect")
  return after - before
end

-- Steady-state garbage of fn(...): the least of five measures after a first one. What the
-- code allocates shows in every measure; what happens once (LuaJIT compiling a side trace,
-- a table growing to its working size) shows in some.
function lib.steadyGarbage(fn, ...)
  local least = lib.garbage(fn, ...)
  for _ = 1, 5 do
    least = math.min(least, lib.garbage(fn, ...))
  end
  return least
end

local function number(v)
  if v == math.floor(v) and math.abs(v) < 1e15 then
    return string.format("%d", v)
  end
  return string.format("%.4g", v)
end

--- One result line: {"name": "<vm>.<name>", "value": v, "unit": unit}.
function lib.emit(name, value, unit)
  io.write(string.format('{"name": "%s.%s", "value": %s, "unit": "%s"}\n',
    lib.vm, name, number(value), unit))
  io.flush()
end

--- An 8-gon of the given size (across) about (x, y), turned at random, each corner moved by
-- up to `jitter` of a step along the circle.
function lib.poly8(rng, x, y, size, jitter)
  local pts, r, a0 = {}, size / 2, rng.range(0, 2 * math.pi)
  for i = 0, 7 do
    local a = a0 + (i + rng.range(-jitter, jitter)) * (math.pi / 4)
    pts[#pts + 1] = x + r * math.cos(a)
    pts[#pts + 1] = y + r * math.sin(a)
  end
  return require("sat").polygon(pts)
end

--- The scenes to run: all, or those named on the command line (for profiling one):
-- lib.wanted(...)(name) -> boolean.
function lib.wanted(...)
  local only = {}
  for i = 1, select("#", ...) do
    only[select(i, ...)] = true
  end
  return function(name)
    return next(only) == nil or only[name] == true
  end
end

--- Progress and notes go to stderr, out of the JSON stream.
function lib.note(fmt, ...)
  io.stderr:write(string.format(fmt, ...), "\n")
end

return lib
