--- The pure backend's core against the native module: nanoseconds per pair call, and their
-- ratio (pure / native), on the same shapes in the same process.
--
-- The pairs are bench/binding.lua's: 1024 pairs of each kind pair, radius 4 to 16, b at a
-- random direction from a and at a distance scaled so that about half overlap (bisected
-- with the native sat.test), called in one loop `f(A[i], B[i])` over the table. Native: the
-- module as `require("sat")` gives it (under LuaJIT sat.fast's FFI path) and sat.core's C
-- functions. Pure: the core's own functions on the records (lua/sat/pure/sat_collide.lua),
-- and the same through a stand-in for the binding's work per call (each shape's record
-- read from its proxy with rawget, the answer made a boolean), which the pure binding
-- (lsat_*.lua) will have to do too.
--
-- CPU time (os.clock), the least of REPS runs, the cases taking turns run by run so that a
-- slow spell of a shared machine falls on all alike. On a loaded machine times mean little:
-- bench/pure_core_sim.sh counts instructions instead (valgrind), which do not depend on it.
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/<lua>/?.so;;' <lua> bench/pure_core.lua
local sat = require("sat")
local core = require("sat.core")
local S = require("sat.pure.sat_shape")
local C = require("sat.pure.sat_collide")
local CT = require("sat.pure.sat_contacts")

local PAIRS = 1024
local CALLS = tonumber(os.getenv("PURE_BENCH_CALLS") or "") or 400000
local REPS = tonumber(os.getenv("PURE_BENCH_REPS") or "") or 7
local ONLY = os.getenv("PURE_BENCH_ONLY") -- a pattern of case names

-- Park-Miller, the same numbers on every Lua
local seed = 20240611
local function range(lo, hi)
  seed = seed * 16807 % 2147483647
  return lo + (hi - lo) * ((seed - 1) / 2147483646)
end

-- Each maker returns a native shape and the record of the same shape (the same calls).
local function record_polygon(pts)
  local xs, ys = {}, {}
  for i = 1, #pts / 2 do
    xs[i], ys[i] = pts[2 * i - 1] * 1.0, pts[2 * i] * 1.0
  end
  local o, r = {}, {}
  assert(S.sat_polygon_validate(xs, ys, #xs, xs, ys, o) == 0)
  S.sat_polygon_build_lean(r, o)
  return r
end

local function poly8(x, y, r)
  local pts = {}
  local a0 = range(0, 2 * math.pi)
  for i = 0, 7 do
    local a = a0 + (i + range(-0.3, 0.3)) * (2 * math.pi / 8)
    pts[#pts + 1] = x + r * math.cos(a)
    pts[#pts + 1] = y + r * math.sin(a)
  end
  local turn = range(0, 2 * math.pi)
  local p, rec = sat.polygon(pts), record_polygon(pts)
  p:setRotation(turn)
  local lx, ly = {}, {} -- (a lean polygon's first turn: its local points first, as the binding)
  for i = 1, rec.count do
    lx[i], ly[i] = 0.0, 0.0
  end
  S.sat_shape_give_local(rec, lx, ly)
  assert(S.sat_shape_set_rotation(rec, turn) == 0)
  return p, rec
end

local function box(x, y, r)
  local pts = { x - r, y - r, x + r, y - r, x + r, y + r, x - r, y + r }
  return sat.polygon(pts), record_polygon(pts)
end

local function circle(x, y, r)
  local rec = {}
  assert(S.sat_circle_init(rec, x * 1.0, y * 1.0, r * 1.0) == 0)
  return sat.circle(x, y, r), rec
end

local function capsule(x, y, r)
  local a, h = range(0, 2 * math.pi), r / 2
  local x1, y1, x2, y2 = x - h * math.cos(a), y - h * math.sin(a), x + h * math.cos(a),
    y + h * math.sin(a)
  local rec = {}
  assert(S.sat_capsule_init(rec, x1, y1, x2, y2, r / 2) == 0)
  return sat.capsule(x1, y1, x2, y2, r / 2), rec
end

local function segment(x, y, r)
  local a = range(0, 2 * math.pi)
  local x1, y1, x2, y2 = x - r * math.cos(a), y - r * math.sin(a), x + r * math.cos(a),
    y + r * math.sin(a)
  local rec = {}
  assert(S.sat_segment_init(rec, x1, y1, x2, y2) == 0)
  return sat.segment(x1, y1, x2, y2), rec
end

local function size(s)
  local a = s:area()
  if a > 0 then
    return (a / math.pi) ^ 0.5
  end
  local x1, y1, x2, y2 = s:bbox()
  return 0.5 * math.max(x2 - x1, y2 - y1)
end

-- The records get ids as the binding's shapes do (creation order), so that same-kind pairs
-- are ordered alike.
local next_id = 0
local function stamp(rec)
  next_id = next_id + 1
  rec.id = next_id
end

-- PAIRS pairs, about half overlapping: native A, B and the records RA, RB.
local function pairs_of(make, makeB)
  local A, B, RA, RB, dir, dist = {}, {}, {}, {}, {}, {}
  for i = 1, PAIRS do
    A[i], RA[i] = make(range(-1000, 1000), range(-1000, 1000), range(4, 16))
    B[i], RB[i] = (makeB or make)(0, 0, range(4, 16))
    stamp(RA[i])
    stamp(RB[i])
    dir[i], dist[i] = range(0, 2 * math.pi), range(0, 1)
  end
  local function place(k, records)
    local hits = 0
    for i = 1, PAIRS do
      local ax, ay = A[i]:position()
      local d = dist[i] * k * (size(A[i]) + size(B[i]))
      local x, y = ax + d * math.cos(dir[i]), ay + d * math.sin(dir[i])
      B[i]:moveTo(x, y)
      if records then
        assert(S.sat_shape_move_to(RB[i], x, y) == 0)
      end
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
  local hits = place(hi, true)
  for i = 1, PAIRS do -- the records agree with the module
    assert(sat.test(A[i], B[i]) == (C.sat_test(RA[i], RB[i]) == 1), "pure and native disagree")
  end
  return A, B, RA, RB, hits
end

-- The binding's stand-in: proxies holding their record under a private key.
local REC = {}
local function proxies(R)
  local P = {}
  for i = 1, #R do
    P[i] = { [REC] = R[i] }
  end
  return P
end

local sat_test, sat_collide = C.sat_test, C.sat_collide
local rawget = rawget
local function bound_test(a, b)
  return sat_test(rawget(a, REC), rawget(b, REC)) == 1
end
local result = {}
local function bound_collide(a, b)
  return sat_collide(rawget(a, REC), rawget(b, REC), result) == 1
end

-- One loop per case, each call site its own (LuaJIT traces each).
local function loop2(f)
  return function(A, B, rounds)
    for _ = 1, rounds do
      for i = 1, PAIRS do
        f(A[i], B[i])
      end
    end
  end
end

local function loop3(f, r)
  return function(A, B, rounds)
    for _ = 1, rounds do
      for i = 1, PAIRS do
        f(A[i], B[i], r)
      end
    end
  end
end

-- sat.sweep(a, dx, dy, b): a moving onto b's position (M[i] the move), and the pure twin.
local function loop_sweep(f)
  return function(A, B, rounds, M)
    for _ = 1, rounds do
      for i = 1, PAIRS do
        local m = M[i]
        f(A[i], m[1], m[2], B[i])
      end
    end
  end
end

local sweep_hit = {}
local sat_sweep_contact = CT.sat_sweep_contact
local function pure_sweep(a, dx, dy, b)
  return sat_sweep_contact(a, dx, dy, b, 0.0, 0.0, sweep_hit)
end

local function loop_method(A, B, rounds)
  for _ = 1, rounds do
    for i = 1, PAIRS do
      A[i]:collidesWith(B[i])
    end
  end
end

local scenes = {
  { "poly8", poly8 }, { "box", box }, { "circle_poly8", circle, poly8 },
  { "capsule_poly8", capsule, poly8 }, { "capsule_capsule", capsule },
  { "segment_poly8", segment, poly8 }, { "circle_circle", circle },
}

local rows = {}
local rounds = math.max(1, math.floor(CALLS / PAIRS))
-- PURE_BENCH_CASE="<scene>/<case>" and PURE_BENCH_ROUNDS=n: that case alone, n rounds over
-- the pairs, untimed (bench/pure_core_sim.sh counts its instructions under valgrind)
local ONE_CASE, ONE_ROUNDS = os.getenv("PURE_BENCH_CASE"), tonumber(os.getenv("PURE_BENCH_ROUNDS") or "")

for _, sc in ipairs(scenes) do
  local name = sc[1]
  if not ONLY or name:match(ONLY) then
    local A, B, RA, RB = pairs_of(sc[2], sc[3])
    local PA, PB = proxies(RA), proxies(RB)
    local response = {}
    local moves = {}
    for i = 1, PAIRS do
      local ax, ay = A[i]:position()
      local bx, by = B[i]:position()
      moves[i] = { bx - ax, by - ay }
    end
    local cases = {
      { "native sat.test", loop2(sat.test), A, B },
      { "native sat.core.test", loop2(core.test), A, B },
      { "native collidesWith", loop_method, A, B },
      { "native sat.collide (reused)", loop3(sat.collide, response), A, B },
      { "pure sat_test", loop2(sat_test), RA, RB },
      { "pure sat_test, bound", loop2(bound_test), PA, PB },
      { "pure sat_collide", loop3(sat_collide, {}), RA, RB },
      { "pure sat_collide, bound", loop2(bound_collide), PA, PB },
      { "native sat.contacts", loop2(sat.contacts), A, B },
      { "pure sat_contacts", loop2(CT.sat_contacts), RA, RB },
      { "native sat.sweep", loop_sweep(sat.sweep), A, B, moves },
      { "pure sat_sweep_contact", loop_sweep(pure_sweep), RA, RB, moves },
    }
    if ONE_CASE then
      for _, c in ipairs(cases) do
        if ONE_CASE == name .. "/" .. c[1] then
          c[2](c[3], c[4], 100, c[5]) -- warm up (LuaJIT compiles)
          c[2](c[3], c[4], ONE_ROUNDS, c[5])
          os.exit(0)
        end
      end
    end
    local t = {}
    for k, c in ipairs(cases) do
      c[2](c[3], c[4], rounds, c[5]) -- warm up
      t[k] = {}
    end
    for r = 1, REPS do
      for k, c in ipairs(cases) do
        collectgarbage("collect")
        local t0 = os.clock()
        c[2](c[3], c[4], rounds, c[5])
        t[k][r] = (os.clock() - t0) / (rounds * PAIRS) * 1e9
      end
    end
    local med = {}
    for k, c in ipairs(cases) do
      table.sort(t[k])
      med[c[1]] = t[k][1] -- the least: the run the machine's other work disturbed least
    end
    rows[#rows + 1] = { name, med }
  end
end

local vm = rawget(_G, "jit") and (jit.status() and "luajit" or "luajit -joff") or _VERSION
print(("%s, %d calls a case, least of %d (ns per call)"):format(vm, rounds * PAIRS, REPS))
print(("%-16s %9s %9s %7s | %9s %9s %7s"):format("pairs", "n.contacts", "p.contacts", "x",
  "n.sweep", "p.sweep", "x"))
for _, row in ipairs(rows) do
  local m = row[2]
  print(("%-16s %9.1f %9.1f %7.2f | %9.1f %9.1f %7.2f"):format(row[1], m["native sat.contacts"],
    m["pure sat_contacts"], m["pure sat_contacts"] / m["native sat.contacts"],
    m["native sat.sweep"], m["pure sat_sweep_contact"],
    m["pure sat_sweep_contact"] / m["native sat.sweep"]))
end
print(("%-16s %9s %9s %9s %9s | %9s %9s %9s %9s | %7s %7s"):format("pairs", "n.test",
  "core.test", "n.collW", "n.collide", "p.test", "p.test+b", "p.coll", "p.coll+b",
  "test x", "coll x"))
for _, row in ipairs(rows) do
  local m = row[2]
  print(("%-16s %9.1f %9.1f %9.1f %9.1f | %9.1f %9.1f %9.1f %9.1f | %7.2f %7.2f"):format(row[1],
    m["native sat.test"], m["native sat.core.test"], m["native collidesWith"],
    m["native sat.collide (reused)"], m["pure sat_test"], m["pure sat_test, bound"],
    m["pure sat_collide"], m["pure sat_collide, bound"],
    m["pure sat_test, bound"] / m["native sat.test"],
    m["pure sat_collide, bound"] / m["native collidesWith"]))
end
