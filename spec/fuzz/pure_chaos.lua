-- The pure backend's chaos drive (issue 26, point 6 "The same robustness"): a finalizer may
-- run at any allocation of Lua code, and under LuaJIT's compiler between any two statements
-- (at a trace's exit), so the pure backend may be changed in the middle of any of its calls.
-- Here a debug count hook (debug.sethook(hostile, "", N), N random and small) runs a hostile
-- function every few instructions, wherever the interpreter is: inside the pure core's
-- loops, the binding, the world. It turns, scales, moves, clones shapes and writes their
-- fields, adds them to and removes them from the worlds, steps the worlds (a step from a step
-- is refused with its documented error), queries, collides and explains them: the shapes of
-- the call in progress and others.
--
-- Checked: every error that escapes a call is one sat documents (its argument errors, the
-- step's refusal, the errors raised on purpose by the handlers); never a Lua runtime error
-- from inside sat. After every operation, with the hook off, each world agrees with a brute
-- force over its own shapes (count, shapes(), has(), queryPoint, queryRect, queryShape,
-- neighbors, collisions, querySegment against raycast), a quiet step reports exactly the
-- colliding pairs (sat.test over every pair the filters allow), and each shape agrees with a
-- copy of itself (its clone: same position, rotation, box, area, vertices).
--
--   lua spec/fuzz/pure_chaos.lua [seed [operations [seconds]]]
--
-- One summary line, `pure-chaos: seed S, N operations, H hostile calls, ... 0 failures`,
-- exit 0; or exit 1 at the first failure with the seed, the operation and the last
-- operations. Interpreters only: LuaJIT's compiled code runs no count hooks (run it -joff).
local backend = require("sat.backend")
local sat = backend.new(os.getenv("PURE_CHAOS_BACKEND") or "lua")

local seed = tonumber(arg and arg[1]) or 1
local maxOps = tonumber(arg and arg[2]) or 2000
local seconds = tonumber(arg and arg[3])
if maxOps == 0 then
  maxOps = math.huge
end

local sethook, traceback = debug.sethook, debug.traceback
local floor = math.floor

local state = seed % 2147483646 + 1
local function rnd()
  state = state * 16807 % 2147483647
  return state / 2147483647
end
local function int(a, b)
  return a + floor(rnd() * (b - a + 1))
end
local function chance(p)
  return rnd() < p
end
local function pick(t)
  if #t == 0 then
    return nil
  end
  return t[int(1, #t)]
end

local AREA = 60
local TRACE = os.getenv("PURE_CHAOS_TRACE")
local READONLY = os.getenv("PURE_CHAOS_READONLY")
if READONLY == "" or READONLY == "0" then -- (set empty or 0: the full drive)
  READONLY = nil
end
-- PURE_CHAOS_ACTIONS="1,4,7": the hostile actions drawn only from these (of act's 1..16)
local ACTIONS
if os.getenv("PURE_CHAOS_ACTIONS") then
  ACTIONS = {}
  for k in os.getenv("PURE_CHAOS_ACTIONS"):gmatch("%d+") do
    ACTIONS[#ACTIONS + 1] = tonumber(k)
  end
end
local HOOK_MIN = tonumber(os.getenv("PURE_CHAOS_MIN")) or 20
local HOOK_MAX = tonumber(os.getenv("PURE_CHAOS_MAX")) or 300
local stats = { ops = 0, hostile = 0, actions = 0, refused = 0, planned = 0, checks = 0,
  events = 0 }
local trail, trailN = {}, 0
local TRAIL = tonumber(os.getenv("PURE_CHAOS_TRAIL")) or 30
local function note(s)
  trailN = trailN + 1
  trail[(trailN - 1) % TRAIL + 1] = s
end

local function fail(msg)
  sethook()
  io.stderr:write(("pure-chaos: FAILURE (seed %d, operation %d): %s\n"):format(
    seed, stats.ops, tostring(msg)))
  io.stderr:write("last operations, oldest first:\n")
  for k = math.max(1, trailN - TRAIL + 1), trailN do
    io.stderr:write("  " .. trail[(k - 1) % TRAIL + 1] .. "\n")
  end
  os.exit(1)
end

local PLANNED = "chaos: planned error"
-- The errors sat documents for what this drive does; anything else escaping a call fails.
local EXPECTED = {
  PLANNED,
  "bad argument #",
  "calling '",
  "cannot step the world from inside its step",
  "another step of this world ran while the setFilter function",
  "move: the filter returned",
}
local function expected(e)
  e = tostring(e)
  for _, p in ipairs(EXPECTED) do
    if e:find(p, 1, true) then
      return true
    end
  end
  return false
end

------------------------------------------------------------------------------------------
-- shapes and worlds

local pool = {}
local worlds = {}
local inUse = {} -- the shapes of the call in progress (hostile's first targets)

local function newShape()
  local x, y = rnd() * AREA, rnd() * AREA
  local k = int(1, 6)
  if k == 1 then
    return sat.circle(x, y, 1 + rnd() * 6)
  elseif k == 2 then
    return sat.box(x, y, 1 + rnd() * 12, 1 + rnd() * 12)
  elseif k == 3 then
    local r = 2 + rnd() * 6
    local pts = {}
    local n = int(3, 9)
    for i = 0, n - 1 do
      local a = i * 6.283185307179586 / n + rnd() * 0.3
      pts[#pts + 1] = x + math.cos(a) * r
      pts[#pts + 1] = y + math.sin(a) * r
    end
    local ok, s = pcall(sat.polygon, pts)
    return ok and s or sat.circle(x, y, r)
  elseif k == 4 then
    return sat.segment(x, y, x + rnd() * 16 - 8, y + rnd() * 16 - 8 + 0.5)
  elseif k == 5 then
    return sat.capsule(x, y, x + rnd() * 10 - 5, y + rnd() * 10 - 5, 0.5 + rnd() * 3)
  end
  return sat.point(x, y)
end

local function pooled(s)
  if #pool < 40 then
    pool[#pool + 1] = s
  else
    pool[int(1, #pool)] = s
  end
  return s
end

-- Keeps a shape where the checks can see it: back in the area, of a sane size.
local function tame(s)
  local x1, y1, x2, y2 = s:bbox()
  if x2 - x1 > 40 or y2 - y1 > 40 then
    s:scale(0.5)
  elseif x2 - x1 < 0.05 and y2 - y1 < 0.05 and s:kind() ~= "circle" then
    s:scale(2)
  end
  local x, y = s:position()
  if x < -20 or x > AREA + 20 or y < -20 or y > AREA + 20 then
    s:moveTo(rnd() * AREA, rnd() * AREA)
  end
end

------------------------------------------------------------------------------------------
-- the hostile function

local armed = false
local inHostile = false
local quiet = 0 -- > 0: the checks run; handlers and hostile do nothing

local function target()
  if #inUse > 0 and chance(0.6) then
    return inUse[int(1, #inUse)]
  end
  return pick(pool)
end

-- One hostile action; its error, if any, must be a documented one.
local function act()
  local s = target()
  local w = pick(worlds)
  if s == nil then
    return
  end
  local k = int(1, 16)
  if READONLY then -- collide, explain, contacts, sweep, queries, raycast: nothing changed
    k = pick({ 10, 11, 13, 16 })
  elseif ACTIONS then
    k = pick(ACTIONS)
  end
  if TRACE then
    note("    action " .. k .. " on " .. tostring(rawget(s, require("sat.pure.lsat_util").REC)))
  end
  if k == 1 then
    s:rotate((rnd() - 0.5) * 2)
  elseif k == 2 then
    s:rotate((rnd() - 0.5) * 2, s:position())
  elseif k == 3 then
    s:scale(0.8 + rnd() * 0.45)
  elseif k == 4 then
    s:move((rnd() - 0.5) * 6, (rnd() - 0.5) * 6)
  elseif k == 5 then
    s:moveTo(rnd() * AREA, rnd() * AREA)
  elseif k == 6 then
    pooled(s:clone())
  elseif k == 7 and w then
    if not w:has(s) then
      w:add(s, chance(0.2) and "static" or nil)
    end
  elseif k == 8 and w then
    if w:has(s) then
      w:remove(s)
    end
  elseif k == 9 and w then
    w:step()
  elseif k == 10 then
    local o = target() or s
    sat.collide(s, o, chance(0.5) and inUse.response or nil)
    sat.explain(s, o)
  elseif k == 11 then
    local o = target() or s
    sat.contacts(s, o)
    sat.sweep(s, (rnd() - 0.5) * 10, (rnd() - 0.5) * 10, o)
    s:collidesWith(o)
  elseif k == 12 then
    s.category = pick({ 1, 2, 3, 0xFFFFFFFF })
    s.mask = pick({ 0xFFFFFFFF, 1, 3, 0xFFFFFFFF })
    s.tag = int(1, 9)
  elseif k == 13 and w then
    local x, y = s:position()
    w:queryRect(x - 5, y - 5, 10, 10)
    w:queryShape(s)
    w:collisions(s)
  elseif k == 14 and w and w:has(s) then
    w:move(s, (rnd() - 0.5) * 8, (rnd() - 0.5) * 8)
  elseif k == 15 then
    local kind = s:kind()
    if kind == "circle" or kind == "capsule" then
      s:setRadius(0.5 + rnd() * 4)
    else
      s:setRotation((rnd() - 0.5) * 7)
    end
  else
    s:raycast(-5, rnd() * AREA, AREA + 5, rnd() * AREA)
  end
  tame(s)
end

local arm

local function hostile()
  if not armed or inHostile or quiet > 0 then
    return
  end
  inHostile = true
  sethook()
  stats.hostile = stats.hostile + 1
  if TRACE then
    local info = debug.getinfo(2, "Sln")
    note(("  hostile at %s:%d (%s)"):format(info.short_src, info.currentline or -1,
      tostring(info.name)))
  end
  for _ = 1, int(1, 2) do
    stats.actions = stats.actions + 1
    local ok, e = pcall(act)
    if not ok then
      if expected(e) then
        stats.refused = stats.refused + 1
      else
        fail("a hostile action raised an undocumented error: " .. tostring(e))
      end
    end
  end
  inHostile = false
  arm()
end

function arm()
  sethook(hostile, "", int(HOOK_MIN, HOOK_MAX))
end

------------------------------------------------------------------------------------------
-- handlers, filters

local function onEvent(a, b)
  if quiet > 0 then
    return
  end
  stats.events = stats.events + 1
  if chance(0.1) then
    local s = pick({ a, b })
    s:move((rnd() - 0.5) * 4, (rnd() - 0.5) * 4)
  end
  if chance(0.02) then
    stats.planned = stats.planned + 1
    error(PLANNED, 0)
  end
end

local function moveFilter(_, other)
  if quiet == 0 and chance(0.02) then
    stats.planned = stats.planned + 1
    error(PLANNED, 0)
  end
  if other.tag == 3 then
    return "cross"
  end
  return other.tag == 5 and "touch" or "slide"
end

for i = 1, 2 do
  local w = sat.world(({ 4, 8, 16 })[int(1, 3)])
  w:on("enter", onEvent)
  w:on("stay", onEvent)
  w:on("exit", onEvent)
  worlds[i] = w
end
for _ = 1, 24 do
  local s = pooled(newShape())
  if chance(0.7) then
    worlds[1]:add(s, chance(0.15) and "static" or nil)
  end
  if chance(0.3) then
    worlds[2]:add(s)
  end
end

------------------------------------------------------------------------------------------
-- the operations

local response = {}

local function operation()
  local s, o = pick(pool), pick(pool)
  local w = pick(worlds)
  inUse[1], inUse[2] = s, o
  inUse.response = response
  local k = int(1, 22)
  local what
  if k == 1 then
    what = "new shape"
    local n = newShape()
    inUse[1] = n
    pooled(n)
  elseif k == 2 then
    what = "rotate"
    if chance(0.5) then
      s:rotate((rnd() - 0.5) * 3, rnd() * AREA, rnd() * AREA)
    else
      s:rotate((rnd() - 0.5) * 3)
    end
  elseif k == 3 then
    what = "scale"
    s:scale(0.7 + rnd() * 0.6)
  elseif k == 4 then
    what = "move"
    s:move((rnd() - 0.5) * 10, (rnd() - 0.5) * 10)
  elseif k == 5 then
    what = "clone"
    pooled(s:clone())
  elseif k == 6 then
    what = "collide"
    sat.collide(s, o, response)
    sat.collide(o, s)
  elseif k == 7 then
    what = "explain"
    tostring(sat.explain(s, o))
  elseif k == 8 then
    what = "contacts, sweep"
    sat.contacts(s, o)
    sat.sweep(s, (rnd() - 0.5) * 20, (rnd() - 0.5) * 20, o, rnd() - 0.5, rnd() - 0.5)
  elseif k == 9 then
    what = "add"
    if not w:has(s) then
      w:add(s, chance(0.15) and "static" or nil)
    end
  elseif k == 10 then
    what = "remove"
    if w:has(s) then
      w:remove(s)
    end
  elseif k <= 13 then
    what = "step"
    w:step()
  elseif k <= 15 then
    what = "world move"
    if w:has(s) then
      w:move(s, (rnd() - 0.5) * 16, (rnd() - 0.5) * 16, chance(0.5) and moveFilter or nil)
    end
  elseif k == 16 then
    what = "queries"
    local x, y = rnd() * AREA, rnd() * AREA
    w:queryPoint(x, y)
    w:queryRect(x, y, rnd() * 20, rnd() * 20)
    w:querySegment(x, y, rnd() * AREA, rnd() * AREA)
    w:queryShape(s)
    w:neighbors(s)
  elseif k == 17 then
    what = "collisions"
    w:collisions(s)
  elseif k == 18 then
    what = "fields"
    s.category = pick({ 1, 2, 3 })
    s.mask = pick({ 0xFFFFFFFF, 1, 0xFFFFFFFE })
    s.tag = int(1, 9)
  elseif k == 19 then
    what = "setFilter"
    if chance(0.5) then
      w:setFilter(function(a, b)
        return quiet > 0 or ((a.tag or 0) + (b.tag or 0)) % 5 ~= 0
      end)
    else
      w:setFilter(nil)
    end
  elseif k == 20 then
    what = "parts of the state"
    if s:kind() == "polygon" then
      s:vertices()
    end
    s:bbox()
    s:area()
    s:contains(rnd() * AREA, rnd() * AREA)
    s:raycast(0, rnd() * AREA, AREA, rnd() * AREA)
  elseif k == 21 then
    what = "radius or rotation"
    if s:kind() == "circle" or s:kind() == "capsule" then
      s:setRadius(0.5 + rnd() * 5)
    else
      s:setRotation((rnd() - 0.5) * 6, rnd() * AREA, rnd() * AREA)
    end
  else
    what = "collidesWith"
    s:collidesWith(o)
  end
  return what
end

------------------------------------------------------------------------------------------
-- the checks (hook off, handlers quiet)

local function check(cond, msg, ...)
  if not cond then
    fail(msg:format(...))
  end
end

local function names(list)
  local t = {}
  for i, s in ipairs(list) do
    local n = "?"
    for k, p in ipairs(pool) do
      if p == s then n = tostring(k) end
    end
    t[i] = type(s) == "number" and tostring(s) or n .. ":" .. tostring(s:kind())
  end
  return table.concat(t, " ")
end

local function sameList(got, want, what)
  check(#got == #want, "%s: %d shapes, the brute force finds %d", what, #got, #want)
  for i = 1, #want do
    check(got[i] == want[i], "%s: entry %d differs from the brute force (got %s; want %s)",
      what, i, names(got), names(want))
  end
end

-- a AND b for numbers in [0, 2^32) (no bit library on every Lua)
local function band(a, b)
  local r, bit = 0, 1
  for _ = 1, 32 do
    if a % 2 >= 1 and b % 2 >= 1 then
      r = r + bit
    end
    a, b, bit = floor(a / 2), floor(b / 2), bit * 2
  end
  return r
end

local function masksMeet(a, b)
  return band(a.category, b.mask) ~= 0 and band(b.category, a.mask) ~= 0
end

local function checkShape(s)
  local c = s:clone()
  local ax, ay = s:position()
  local bx, by = c:position()
  check(ax == bx and ay == by, "clone's position differs")
  check(s:rotation() == c:rotation(), "clone's rotation differs")
  local a1, a2, a3, a4 = s:bbox()
  local b1, b2, b3, b4 = c:bbox()
  check(a1 == b1 and a2 == b2 and a3 == b3 and a4 == b4, "clone's box differs")
  check(s:area() == c:area(), "clone's area differs")
  check(a1 <= ax and ax <= a3 and a2 <= ay and ay <= a4, "the position is outside the box")
  local kind = s:kind()
  if kind == "polygon" then
    local v, u = s:vertices(), c:vertices()
    sameList(v, u, "clone's vertices")
    for i = 1, #v, 2 do
      check(v[i] >= a1 and v[i] <= a3 and v[i + 1] >= a2 and v[i + 1] <= a4,
        "a vertex is outside the box")
    end
  end
end

local function checkWorld(w)
  stats.checks = stats.checks + 1
  local members = w:shapes()
  check(w:count() == #members, "count %d, shapes() %d", w:count(), #members)
  local isIn = {}
  for _, s in ipairs(members) do
    isIn[s] = true
  end
  for _, s in ipairs(pool) do
    check(w:has(s) == (isIn[s] == true), "has() disagrees with shapes(): has %s, listed %s",
      tostring(w:has(s)), tostring(isIn[s] == true))
  end
  local x, y = rnd() * AREA, rnd() * AREA
  local want = {}
  for _, s in ipairs(members) do
    if s:contains(x, y) then want[#want + 1] = s end
  end
  sameList(w:queryPoint(x, y), want, "queryPoint")
  local bw, bh = 1 + rnd() * 30, 1 + rnd() * 30
  local box = sat.box(x, y, bw, bh)
  want = {}
  for _, s in ipairs(members) do
    if sat.test(s, box) then want[#want + 1] = s end
  end
  sameList(w:queryRect(x, y, bw, bh), want, "queryRect")
  local q = pick(pool)
  want = {}
  for _, s in ipairs(members) do
    if s ~= q and sat.test(q, s) then want[#want + 1] = s end
  end
  sameList(w:queryShape(q), want, "queryShape")
  local near, j = w:neighbors(q), 1
  for _, s in ipairs(near) do
    check(isIn[s], "neighbors: a shape not in the world")
    if want[j] == s then j = j + 1 end
  end
  check(j == #want + 1, "neighbors misses a shape that collides")
  local wantCols = {}
  for _, s in ipairs(want) do
    local statics = w:has(q) and w:isStatic(q) and w:isStatic(s)
    if masksMeet(q, s) and not statics then
      wantCols[#wantCols + 1] = s
    end
  end
  local got = {}
  for i, r in ipairs(w:collisions(q)) do
    check(r.a == q, "collisions: r.a is not the shape")
    got[i] = r.b
  end
  sameList(got, wantCols, "collisions")
  local x2, y2 = rnd() * AREA, rnd() * AREA
  local hits = w:querySegment(x, y, x2, y2)
  local hit, lastT = {}, -1
  for _, h in ipairs(hits) do
    check(h.t >= lastT, "querySegment: not sorted")
    lastT = h.t
    hit[h.shape] = true
  end
  for _, s in ipairs(members) do
    check((s:raycast(x, y, x2, y2) ~= nil) == (hit[s] == true), "querySegment against raycast")
  end
  -- a quiet step: the pairs colliding, every one
  local n = 0
  for i = 1, #members do
    for k = i + 1, #members do
      local a, b = members[i], members[k]
      if not (w:isStatic(a) and w:isStatic(b)) and masksMeet(a, b) and sat.test(a, b) then
        n = n + 1
      end
    end
  end
  local stepped = w:step()
  check(stepped == n, "a quiet step reports %d pairs, the brute force %d", stepped, n)
end

------------------------------------------------------------------------------------------
-- PURE_CHAOS_DERIVED=1 (pure backend): after every operation, each pooled shape's record
-- against a copy of it whose derived numbers (offsets, normals, halves, bound, ...) are
-- derived again from its transform, hook off: the first operation leaving a record whose
-- derived numbers disagree with its transform fails, with the trace of where the hook ran.
local DERIVED = os.getenv("PURE_CHAOS_DERIVED")
local derivedCheck
if DERIVED and DERIVED ~= "" and DERIVED ~= "0" then
  local S = require("sat.pure.sat_shape")
  local REC = require("sat.pure.lsat_util").REC
  local SKIP = { ver = true, busy = true, members = true, user = true, id = true }
  local function same(a, b)
    return a == b or (a ~= a and b ~= b)
  end
  function derivedCheck()
    for pi, s in ipairs(pool) do
      local rec = rawget(s, REC)
      if rec and rec.kind ~= 4 then
        local c = S.sat_shape_copy({}, rec)
        local st = S.sat_shape_set_transform(c, rec.px, rec.py, rec.plx, rec.ply, rec.angle,
          rec.scale, rec.radius)
        check(st == 0, "derived: set_transform status %d", st)
        for k, v in pairs(c) do
          if not SKIP[k] then
            local r = rec[k]
            if type(v) == "number" then
              check(same(v, r), "derived: pool shape %d %s (kind %d) field %s: %s, derived %s",
                pi, tostring(rec), rec.kind, k, ("%.17g"):format(r), ("%.17g"):format(v))
            elseif type(v) == "table" then
              for i = 1, #v do
                check(same(v[i], r[i]),
                  "derived: pool shape %d %s (kind %d) field %s[%d]: %s, derived %s", pi,
                  tostring(rec), rec.kind, k, i, tostring(r[i]), tostring(v[i]))
              end
            end
          end
        end
      end
    end
  end
end

------------------------------------------------------------------------------------------
-- the run

local clock = os.clock
local started = clock()
while stats.ops < maxOps do
  if seconds and clock() - started > seconds then
    break
  end
  stats.ops = stats.ops + 1
  armed = true
  arm()
  local ok, what = pcall(operation)
  if TRACE then
    io.stderr:write(stats.ops, " ", tostring(what), " ", stats.hostile, "\n")
  end
  sethook()
  armed = false
  note(tostring(what or "?") .. (ok and "" or (" -> " .. tostring(what))))
  if derivedCheck then
    quiet = quiet + 1
    derivedCheck()
    quiet = quiet - 1
  end
  if not ok then
    if expected(what) then
      stats.refused = stats.refused + 1
    else
      fail("an undocumented error escaped: " .. tostring(what))
    end
  end
  for i = #inUse, 1, -1 do
    inUse[i] = nil
  end
  quiet = quiet + 1
  local cok, e = pcall(function()
    -- the worlds keep only the pool's shapes: a shape a new one replaced in the pool (a
    -- clone, a new shape) leaves them, so that they stay as small as the pool (else they
    -- grow every operation, and the checks, the queries and the steps with them: the run
    -- slows to a crawl)
    local pooledSet = {}
    for _, s in ipairs(pool) do
      pooledSet[s] = true
    end
    for _, w in ipairs(worlds) do
      for _, s in ipairs(w:shapes()) do
        if not pooledSet[s] then
          w:remove(s)
        end
      end
    end
    for _, s in ipairs(pool) do
      tame(s)
    end
    if stats.ops % 5 == 0 then
      for _, s in ipairs(pool) do
        checkShape(s)
      end
    end
    for _, w in ipairs(worlds) do
      checkWorld(w)
    end
  end)
  quiet = quiet - 1
  if not cok then
    fail("a check raised: " .. tostring(e) .. "\n" .. traceback())
  end
end

print(("pure-chaos: seed %d, %d operations, %d hostile calls (%d actions, %d refused as "
  .. "documented), %d events, %d planned errors, %d checks, %.1f s, 0 failures"):format(
  seed, stats.ops, stats.hostile, stats.actions, stats.refused, stats.events, stats.planned,
  stats.checks, clock() - started))
