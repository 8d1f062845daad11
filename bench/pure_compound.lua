--- The pure backend's compounds against the native module's: milliseconds per call and their
-- ratio (pure / native) on two 64-spike stars (sat.concave, 64 parts each, overlapping: the
-- union's MTV over about 4,000 part pairs) and two 100-segment chains (sat.chain, crossing
-- each other; for the sweep the second is moved 10 up), for collide, contacts and sweep.
-- Both modules' public functions (require("sat.core") and the pure module table), the same
-- shapes built from the same numbers, in the same process.
--
-- CPU time (os.clock), the least of REPS runs, the cases taking turns run by run so that a
-- slow spell of a shared machine falls on all alike.
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/<lua>/?.so;;' <lua> bench/pure_compound.lua
local native = require("sat.core")
local pure = require("sat.pure.lsat_module")

local REPS = tonumber(os.getenv("PURE_BENCH_REPS") or "") or 5
local clock = os.clock

local function star(cx, cy, r, spikes, inner, turn)
  local t = {}
  for i = 0, 2 * spikes - 1 do
    local rr = i % 2 == 0 and r or r * inner
    local a = turn + i * math.pi / spikes
    t[#t + 1] = cx + rr * math.cos(a)
    t[#t + 1] = cy + rr * math.sin(a)
  end
  return t
end

local function chains()
  local c1, c2 = {}, {}
  for k = 0, 100 do
    c1[#c1 + 1], c1[#c1 + 2] = k, 3 * math.sin(k * 0.7)
    c2[#c2 + 1], c2[#c2 + 2] = k + 0.5, 1 + 3 * math.sin(k * 0.7 + 0.3)
  end
  return c1, c2
end

-- Each case: a name, calls per run, and a maker giving f() for a module.
local cases = {}
local function case(name, calls, make)
  cases[#cases + 1] = { name = name, calls = calls, make = make, best = {} }
end

local S1, S2 = star(0, 0, 20, 64, 0.3, 0.1), star(3, 1, 20, 64, 0.3, 0.5)
local C1, C2 = chains()
case("stars collide", 2, function(M)
  local a, b = M.concave(S1), M.concave(S2)
  return function() return M.collide(a, b) end
end)
case("stars contacts", 2, function(M)
  local a, b = M.concave(S1), M.concave(S2)
  return function() return M.contacts(a, b) end
end)
case("stars sweep", 20, function(M)
  local a, b = M.concave(S1), M.concave(S2):move(45, 2)
  return function() return M.sweep(a, 30, 3, b) end
end)
case("chains collide", 40, function(M)
  local a, b = M.chain(C1), M.chain(C2)
  return function() return M.collide(a, b) end
end)
case("chains contacts", 40, function(M)
  local a, b = M.chain(C1), M.chain(C2)
  return function() return M.contacts(a, b) end
end)
case("chains sweep", 40, function(M)
  local a, b = M.chain(C1), M.chain(C2):move(0, 10)
  return function() return M.sweep(a, 3, 20, b) end
end)


for _, c in ipairs(cases) do
  c.f = { native = c.make(native), pure = c.make(pure) }
end
for _ = 1, REPS do
  for _, c in ipairs(cases) do
    for _, which in ipairs({ "native", "pure" }) do
      local f = c.f[which]
      local t0 = clock()
      for _ = 1, c.calls do
        f()
      end
      local t = (clock() - t0) / c.calls
      if not c.best[which] or t < c.best[which] then
        c.best[which] = t
      end
    end
  end
end

print(("%s%s: ms per call, the least of %d runs"):format(_VERSION,
  rawget(_G, "jit") and (" (LuaJIT, JIT " .. (jit.status() and "on" or "off") .. ")") or "",
  REPS))
print(("%-16s %10s %10s %7s"):format("case", "native", "pure", "ratio"))
for _, c in ipairs(cases) do
  local n, p = c.best.native * 1e3, c.best.pure * 1e3
  print(("%-16s %10.4f %10.4f %7.1f"):format(c.name, n, p, p / n))
end
