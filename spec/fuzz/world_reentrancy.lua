-- The world's re-entrancy fuzzer (issue 13): random world operations at the top level and
-- from inside the world's handlers, the shapes' own handlers, the setFilter function, move
-- filters, query filters and re-arming finalizers (`__gc`), which add, remove, move, step,
-- query, yield (inside coroutines, some of them then dropped or resumed later from inside
-- another operation) and raise errors. After every top-level operation the world is
-- compared with a brute force over the shapes the fuzzer knows to be in it: membership and
-- order, isStatic, queries (point, rect, segment, shape, neighbors, collisions); every few
-- operations a quiet step (handlers doing nothing) must leave exactly the colliding pairs
-- told. Every event is checked as it comes: enter only for a pair not told, stay and exit
-- only for a pair told, enter and stay only between shapes in the world; and every few
-- operations a quiet move must not end inside a shape it slides on.
--
--   lua spec/fuzz/world_reentrancy.lua [seed [operations [seconds]]]
--
-- runs `operations` top-level operations (0: no limit), or until `seconds` (of CPU time)
-- have passed when given; prints one summary line; exits 1 on the first mismatch (with the
-- seed, the operation's number and a log of the last operations), 0 otherwise.
-- FUZZ_NO_GC=1 leaves the finalizers out, FUZZ_NO_YIELD=1 the yields (to narrow a failure).
-- FUZZ_JIT_GC=1 (LuaJIT with the JIT on): the finalizers meddle under the JIT too, where they
-- can run between any two statements of the world or of the fuzzer; the model is then taken
-- from the world before each check (see LOOSE below).
--
-- The model is updated where no finalizer can run between it and the world's call (no
-- allocation there, or `critical` set), so that a mismatch is the world's.
local sat = require("sat")

local seed = tonumber(arg and arg[1]) or 1
local maxOps = tonumber(arg and arg[2]) or 2000
local seconds = tonumber(arg and arg[3])
if maxOps == 0 then
  maxOps = math.huge
end

------------------------------------------------------------------------------------------
-- random numbers, the same on every Lua (Park-Miller)

local state = seed % 2147483646 + 1
local function rnd()
  state = state * 16807 % 2147483647
  return state / 2147483647
end
local function int(a, b)
  return a + math.floor(rnd() * (b - a + 1))
end
local function chance(p)
  return rnd() < p
end
local function pick(t, n)
  n = n or #t
  if n == 0 then
    return nil
  end
  return t[int(1, n)]
end

------------------------------------------------------------------------------------------
-- the log, the counts, failure

local world -- (made below)
local stats = { ops = 0, nested = 0, handlers = 0, filters = 0, finalizers = 0, planned = 0,
                refused = 0, yields = 0, dropped = 0, resumed = 0, events = 0, steps = 0,
                checks = 0 }
local trail, trailN = {}, 0
local opNumber = 0
local function note(s)
  trailN = trailN + 1
  trail[(trailN - 1) % 40 + 1] = s
end

local function fail(msg)
  io.stderr:write(("world-reentrancy: MISMATCH (seed %d, operation %d): %s\n"):format(
    seed, opNumber, msg))
  io.stderr:write(debug.traceback("where:", 2) .. "\n")
  io.stderr:write("last operations, oldest first:\n")
  for k = math.max(1, trailN - 39), trailN do
    io.stderr:write("  " .. trail[(k - 1) % 40 + 1] .. "\n")
  end
  os.exit(1)
end

local function check(cond, msg, ...)
  if not cond then
    fail(msg:format(...))
  end
end

-- LuaJIT's compiled code puts off the finalizers due while a trace runs until the trace
-- exits, which can be between any two statements of the world or of the fuzzer (see
-- makeFinalizer). By default its finalizers then only re-arm. With FUZZ_JIT_GC=1 they meddle
-- there too: the model can no longer follow each operation (a finalizer may remove a shape
-- between the model's update and the world's call), so it is taken from the world before
-- each check, and what is checked is that the world stays whole: its count, membership,
-- queries, collisions, steps and events agree with a brute force over the shapes it holds,
-- every error is one the world documents, and nothing stalls.
local JIT_ON = jit ~= nil and jit.status() -- luacheck: ignore 113 (LuaJIT's global)
local LOOSE = JIT_ON and os.getenv("FUZZ_JIT_GC") ~= nil

------------------------------------------------------------------------------------------
-- shapes and the model of the world

local AREA = 60 -- shapes live in [0, AREA]^2, crowded enough for many contacts

-- The collector at a quick pace, so that finalizers run often, anywhere.
if _VERSION == "Lua 5.4" then
  collectgarbage("incremental", 120, 200)
else
  collectgarbage("setpause", 100)
  collectgarbage("setstepmul", 200)
end

world = sat.world(({ 4, 8, 16, 32 })[int(1, 4)])
local pool = {}          -- every shape made, by id
-- The shapes in the world, in insertion order (the model). Its array part is made big
-- enough up front: growing it allocates, and a finalizer run there could change the world
-- between an operation and the model's update.
local members = {}
for i = 1, 64 do members[i] = true end
for i = 64, 1, -1 do members[i] = nil end
local static = {}        -- shape -> added as static
local told = {}          -- "id:id" (smaller first) -> true: the pairs told (entered, not exited)

local function name(s)
  return s and ("#" .. tostring(s.id)) or "nil"
end

-- (a number: no allocation, so no finalizer, between an event and its record here)
local function pairKey(a, b)
  if a.id < b.id then
    return a.id * 65536 + b.id
  end
  return b.id * 65536 + a.id
end

local function indexOf(s)
  for i = 1, #members do
    if members[i] == s then
      return i
    end
  end
  return nil
end

local function newShape()
  local x, y = rnd() * AREA, rnd() * AREA
  local k = int(1, 6)
  local s
  if k == 1 then
    s = sat.circle(x, y, 1 + rnd() * 8)
  elseif k == 2 then
    s = sat.box(x, y, 1 + rnd() * 14, 1 + rnd() * 14)
  elseif k == 3 then
    local r = 2 + rnd() * 8
    s = sat.polygon(x, y - r, x + r, y + r * 0.7, x - r * 0.9, y + r * 0.5)
  elseif k == 4 then
    s = sat.segment(x, y, x + rnd() * 16 - 8, y + rnd() * 16 - 8)
  elseif k == 5 then
    s = sat.capsule(x, y, x + rnd() * 10 - 5, y + rnd() * 10 - 5, 0.5 + rnd() * 3)
  else
    s = sat.point(x, y)
  end
  s.id = #pool + 1
  static[s] = false -- (the key exists from now on: setting it allocates nothing)
  if chance(0.2) then
    s.category = 2
  end
  if chance(0.2) then
    s.mask = 1
  end
  pool[#pool + 1] = s
  return s
end

for _ = 1, 24 do
  newShape()
end

-- Whether the categories and masks let a and b meet (categories 1 or 2, masks all or 1).
local function masksMeet(a, b)
  local ca, cb = a.category or 1, b.category or 1
  local ma, mb = a.mask or 0xFFFFFFFF, b.mask or 0xFFFFFFFF
  return (mb ~= 1 or ca == 1) and (ma ~= 1 or cb == 1)
end

-- The setFilter function's verdict, pure and symmetric (its side effects are elsewhere).
local function filterVerdict(a, b)
  return (a.id + b.id) % 7 ~= 0
end

local filterOn = false -- setFilter installed

local function pairAllowed(a, b)
  if static[a] and static[b] then
    return false
  end
  if not masksMeet(a, b) then
    return false
  end
  return not filterOn or filterVerdict(a, b)
end

------------------------------------------------------------------------------------------
-- nested operations: what handlers, filters and finalizers do

local quiet = 0         -- > 0: callbacks do nothing (checks, quiet steps)
local critical = 0      -- > 0: the model is being updated; finalizers do nothing
local gcBudget = 0      -- finalizer calls that may still meddle in this top-level operation
                        -- (else their own operations, which allocate, feed the collector)
local depth = 0         -- nesting of fuzzer operations
local inFinalizer = 0
local suspended = {}    -- coroutines suspended inside a world operation
local PLANNED = "fuzz: planned error"

-- Errors a world operation may raise in this fuzzer: the planned ones, and the refusals the
-- world documents.
local EXPECTED = {
  PLANNED,
  "cannot step the world from inside its step",
  "another step of this world ran while the setFilter function",
  "attempt to yield across", -- (Lua 5.1: a yield through pcall)
  "cannot resume non-suspended coroutine",
  "cannot resume dead coroutine",
}
if LOOSE then
  -- a finalizer removed the shape between the fuzzer's check and the world's call
  EXPECTED[#EXPECTED + 1] = "shape is not in this world"
end
local function expected(e)
  e = tostring(e)
  for _, p in ipairs(EXPECTED) do
    if e:find(p, 1, true) then
      return true
    end
  end
  return false
end

local nestedOp -- (defined below)

-- What a callback does besides its own job: sometimes a nested operation, a yield or an
-- error. where: "handler", "filter", "gc".
local function meddle(where)
  if quiet > 0 then
    return
  end
  if where == "gc" then
    stats.finalizers = stats.finalizers + 1
  elseif where == "filter" then
    stats.filters = stats.filters + 1
  else
    stats.handlers = stats.handlers + 1
  end
  local _ = { where, {} } -- (garbage, for the collector's pace)
  if depth < 3 and chance(0.3) then
    nestedOp(where)
  end
  if where ~= "gc" and chance(0.04) and not os.getenv("FUZZ_NO_YIELD") then
    local co, main = coroutine.running()
    if co and not main and (not coroutine.isyieldable or coroutine.isyieldable()) then
      stats.yields = stats.yields + 1
      note("  yield from " .. where)
      coroutine.yield()
    end
  end
  if where ~= "gc" and chance(0.02) then
    stats.planned = stats.planned + 1
    note("  planned error from " .. where)
    error(PLANNED, 0)
  end
end

-- The world's handlers check each event against the pairs told.
-- (Nothing here allocates before the checks: an allocation may run a finalizer, which may
-- change the world under the event being checked.)
local function onEvent(kind, a, b, r)
  stats.events = stats.events + 1
  local ida, idb = a.id, b.id
  if not (ida and idb) then
    fail(kind .. " with a shape the fuzzer did not make")
  end
  local key = pairKey(a, b)
  local was = told[key]
  local members2 = indexOf(a) and indexOf(b)
  local seen = r == nil or (r.a == a and r.b == b)
  if kind == "enter" then
    told[key] = true
  elseif kind == "exit" then
    told[key] = nil
  end
  if kind == "enter" and was then
    fail(("enter for the pair %d-%d already told"):format(ida, idb))
  elseif kind ~= "enter" and not was then
    fail(("%s for the pair %d-%d not told"):format(kind, ida, idb))
  end
  if kind ~= "exit" and not members2 and not LOOSE then
    fail(("%s for %d and %d, not both in the world"):format(kind, ida, idb))
  end
  if not seen then
    fail(kind .. ": the response is not seen from a")
  end
  note(("  %s %s %s"):format(kind, name(a), name(b)))
  meddle("handler")
end

world:on("enter", function(a, b, r) onEvent("enter", a, b, r) end)
world:on("stay", function(a, b, r) onEvent("stay", a, b, r) end)
world:on("exit", function(a, b) onEvent("exit", a, b) end)

-- Some shapes have their own handlers, checked for the side they are told from.
for i = 1, #pool, 3 do
  local s = pool[i]
  function s:onEnter(other, r)
    check(r.a == self and r.b == other, "onEnter: the response is not seen from the shape")
    meddle("handler")
  end
  function s:onExit(other)
    check(other.id ~= nil, "onExit with a foreign shape")
  end
end

local function setFilterFn(a, b)
  meddle("filter")
  return filterVerdict(a, b)
end

-- A move filter: pure kinds by pair, meddling sometimes.
local KINDS = { "slide", "slide", "touch", "cross", false }
local function moveFilter(s, other)
  meddle("filter")
  return KINDS[(s.id * 3 + other.id) % #KINDS + 1] or nil
end

-- The operations. Each keeps the model right as it goes: a removal is noted before the
-- world removes (it fires exits, whose handlers may add the shape back), an add after.
-- (No allocation between the model's check and the world's call: a finalizer could run
-- there and change both.)
local function doAdd(s)
  local st = chance(0.2) and "static" or nil
  note(("add %s%s"):format(name(s), st and " static" or ""))
  critical = critical + 1
  if indexOf(s) then
    critical = critical - 1
    return
  end
  local ok, e = pcall(world.add, world, s, st)
  if ok then
    members[#members + 1] = s
    static[s] = st ~= nil
  end
  critical = critical - 1
  if not ok then
    error(e, 0)
  end
  local count, nm, has = world:count(), #members, world:has(s)
  if not LOOSE and (count ~= nm or not has) then
    fail(("after add %s: count %d, model %d, has %s"):format(name(s), count, nm, tostring(has)))
  end
end

local function doRemove(s)
  if not s then
    return
  end
  note("remove " .. name(s))
  critical = critical + 1
  local i = indexOf(s)
  if i then
    table.remove(members, i)
    static[s] = false
  end
  critical = critical - 1
  if not i then
    return
  end
  world:remove(s)
  local count, nm, has, idx = world:count(), #members, world:has(s), indexOf(s)
  if not LOOSE and (count ~= nm or has ~= (idx ~= nil)) then
    fail(("after remove %s: count %d, model %d, has %s, in the model at %s, hash has %s"):format(
      name(s), count, nm, tostring(has), tostring(idx), tostring(world.hash:has(s))))
  end
end

local function doShapeMove(s)
  note("shape move " .. name(s))
  local k = int(1, 3)
  if k == 1 then
    s:move(rnd() * 20 - 10, rnd() * 20 - 10)
  elseif k == 2 then
    s:moveTo(rnd() * AREA, rnd() * AREA)
  else
    s:rotate(rnd() * 2 - 1)
  end
end

local function doWorldMove(s, withFilter)
  note("world:move " .. name(s))
  local dx, dy = rnd() * 40 - 20, rnd() * 40 - 20
  critical = critical + 1
  local member = indexOf(s) -- (a finalizer may have removed it since it was picked)
  critical = critical - 1
  if not member then
    return
  end
  world:move(s, dx, dy, withFilter and moveFilter or nil)
end

local function doStep()
  note("step")
  stats.steps = stats.steps + 1
  world:step()
end

local function queryFilter(s)
  meddle("filter")
  return s.id % 3 ~= 0
end

local function doQuery()
  local k = int(1, 7)
  note("query " .. k)
  local x, y = rnd() * AREA, rnd() * AREA
  local f = chance(0.3) and queryFilter or nil
  local list
  if k == 1 then
    list = world:queryPoint(x, y, f)
  elseif k == 2 then
    list = world:queryRect(x, y, rnd() * 30, rnd() * 30, f)
  elseif k == 3 then
    list = world:querySegment(x, y, rnd() * AREA, rnd() * AREA, f)
  elseif k == 4 then
    list = world:queryShape(pick(pool), f)
  elseif k == 5 then
    list = world:neighbors(pick(pool), f)
  elseif k == 6 then
    list = world:collisions(pick(pool))
  else
    list = world:shapes()
  end
  check(type(list) == "table", "a query returned no list")
end

-- Suspended coroutines: resumed (from anywhere but a finalizer) or dropped.
local function resumeOne()
  local n = #suspended
  if n == 0 then
    return
  end
  local i = int(1, n)
  local co = table.remove(suspended, i)
  if chance(0.3) then
    note("drop a suspended coroutine")
    stats.dropped = stats.dropped + 1
    return
  end
  note("resume a suspended coroutine")
  stats.resumed = stats.resumed + 1
  local ok, e = coroutine.resume(co)
  if not ok then
    check(expected(e), "unexpected error from a resumed coroutine: %s", tostring(e))
  elseif coroutine.status(co) == "suspended" then
    suspended[#suspended + 1] = co
  end
end

local function anyOp()
  local r = rnd()
  if r < 0.16 then
    doAdd(pick(pool))
  elseif r < 0.30 then
    doRemove(pick(members))
  elseif r < 0.45 then
    local s = pick(members)
    if s then doShapeMove(s) end
  elseif r < 0.60 then
    local s = pick(members)
    if s then doWorldMove(s, chance(0.6)) end
  elseif r < 0.72 then
    doStep()
  elseif r < 0.90 then
    doQuery()
  elseif r < 0.95 and inFinalizer == 0 then
    resumeOne()
  else
    local on = chance(0.5)
    note("setFilter " .. tostring(on))
    world:setFilter(on and setFilterFn or nil)
    filterOn = on
  end
end

function nestedOp(where)
  stats.nested = stats.nested + 1
  depth = depth + 1
  local ok, e = xpcall(anyOp, function(m)
    if expected(m) then return m end
    return debug.traceback(tostring(m), 2)
  end, where)
  if depth > 0 then
    depth = depth - 1
  end
  if not ok then
    check(expected(e), "unexpected error from a nested operation (%s): %s", where, tostring(e))
    stats.refused = stats.refused + 1
    -- a planned error goes on up from handlers and filters, as a game's would
    if where ~= "gc" and tostring(e):find(PLANNED, 1, true) and chance(0.5) then
      error(e, 0)
    end
  end
end

-- Finalizers that re-arm themselves each cycle and meddle (never raising: Lua 5.4 turns
-- their errors into warnings, LuaJIT would raise them at any allocation).
-- LuaJIT's compiled code puts off the finalizers due while a trace runs until the trace
-- exits, which can be between any two statements of the world: there its finalizers only
-- re-arm (a finalizer changing the world at such a point can find it mid-update, or make a
-- `pairs` loop see keys added as it runs). luajit -joff gets the full mix.
local makeFinalizer
local finished = false -- (at the end: a finalizer run by lua_close may find sat unloaded)
local function finalizer()
  if finished then
    return
  end
  if makeFinalizer then
    makeFinalizer()
  end
  inFinalizer = inFinalizer + 1
  if inFinalizer == 1 and critical == 0 and gcBudget > 0 and (LOOSE or not JIT_ON) then
    gcBudget = gcBudget - 1
    pcall(meddle, "gc")
  end
  inFinalizer = inFinalizer - 1
end
function makeFinalizer()
  if newproxy then
    getmetatable(newproxy(true)).__gc = finalizer -- luacheck: ignore 143 (LuaJIT, Lua 5.1)
  else
    setmetatable({}, { __gc = finalizer })
  end
end
if os.getenv("FUZZ_NO_GC") then
  makeFinalizer = nil
else
  for _ = 1, 3 do
    makeFinalizer()
  end
end

------------------------------------------------------------------------------------------
-- the brute force

local function sameList(got, want, what)
  local ok = #got == #want
  for i = 1, math.max(#got, #want) do
    if got[i] ~= want[i] then
      ok = false
      break
    end
  end
  if not ok then
    local g, w = {}, {}
    for i = 1, #got do g[i] = name(got[i]) end
    for i = 1, #want do w[i] = name(want[i]) end
    fail(("%s: got {%s}, expected {%s}"):format(what, table.concat(g, " "),
      table.concat(w, " ")))
  end
end

local function checkWorld()
  stats.checks = stats.checks + 1
  quiet = quiet + 1
  if LOOSE then -- the model taken from the world (its own order, count and statics)
    local now = world:shapes()
    for i = 1, math.max(#now, #members) do
      members[i] = now[i]
    end
    for _, s in ipairs(members) do
      static[s] = world:isStatic(s)
    end
  end
  check(world:count() == #members, "count %d, the model has %d", world:count(), #members)
  sameList(world:shapes(), members, "shapes()")
  for _, s in ipairs(pool) do
    local i = indexOf(s)
    check(world:has(s) == (i ~= nil), "has(%s) is %s", name(s), tostring(world:has(s)))
    if i then
      check(world:isStatic(s) == static[s], "isStatic(%s) is %s", name(s),
        tostring(world:isStatic(s)))
    end
  end
  -- a point, a rect, a shape, a segment
  local x, y = rnd() * AREA, rnd() * AREA
  local want = {}
  for _, s in ipairs(members) do
    if s:contains(x, y) then want[#want + 1] = s end
  end
  sameList(world:queryPoint(x, y), want, ("queryPoint(%g, %g)"):format(x, y))
  local w, h = 1 + rnd() * 30, 1 + rnd() * 30
  local box = sat.box(x, y, w, h)
  want = {}
  for _, s in ipairs(members) do
    if sat.test(s, box) then want[#want + 1] = s end
  end
  sameList(world:queryRect(x, y, w, h), want, "queryRect")
  local q = pick(pool)
  want = {}
  for _, s in ipairs(members) do
    if s ~= q and sat.test(q, s) then want[#want + 1] = s end
  end
  sameList(world:queryShape(q), want, "queryShape(" .. name(q) .. ")")
  local near = world:neighbors(q)
  local j = 1
  for _, s in ipairs(near) do
    check(indexOf(s), "neighbors: %s is not in the world", name(s))
    if want[j] == s then j = j + 1 end
  end
  check(j == #want + 1, "neighbors(%s) misses a shape that collides with it", name(q))
  local cols = world:collisions(q)
  local wantCols = {}
  for _, s in ipairs(want) do
    if (not indexOf(q) or pairAllowed(q, s)) and masksMeet(q, s) and
        (not filterOn or filterVerdict(q, s)) and not (static[q] and static[s]) then
      wantCols[#wantCols + 1] = s
    end
  end
  local gotCols = {}
  for i, r in ipairs(cols) do
    check(r.a == q, "collisions: r.a is not the shape")
    gotCols[i] = r.b
  end
  sameList(gotCols, wantCols, "collisions(" .. name(q) .. ")")
  local x2, y2 = rnd() * AREA, rnd() * AREA
  local hits = world:querySegment(x, y, x2, y2)
  local inHits = {}
  local lastT = -1
  for _, hit in ipairs(hits) do
    check(hit.t >= lastT, "querySegment: hits not sorted along the segment")
    lastT = hit.t
    inHits[hit.shape] = true
  end
  for _, s in ipairs(members) do
    local t = s:raycast(x, y, x2, y2)
    check((t ~= nil) == (inHits[s] == true), "querySegment: %s %s", name(s),
      t and "hit by raycast but not listed" or "listed but not hit by raycast")
  end
  quiet = quiet - 1
end

-- A quiet step: every colliding pair (brute force) told, and no other.
local function checkStep()
  quiet = quiet + 1
  stats.steps = stats.steps + 1
  local n = world:step()
  local want, count = {}, 0
  for i = 1, #members do
    for k = i + 1, #members do
      local a, b = members[i], members[k]
      if pairAllowed(a, b) and sat.test(a, b) then
        want[pairKey(a, b)] = true
        count = count + 1
      end
    end
  end
  check(n == count, "a quiet step counted %d pairs, the brute force %d", n, count)
  for key in pairs(want) do
    check(told[key], "the colliding pair %s is not told after a quiet step", key)
  end
  for key in pairs(told) do
    check(want[key], "the pair %s is told but does not collide after a quiet step", key)
  end
  quiet = quiet - 1
end

-- A move in a quiet world with the default filter, from a place where the shape overlaps
-- nothing it would slide on: it ends overlapping nothing it slides on (no tunnelling).
local function checkMove()
  local s = pick(members)
  if not s then return end
  quiet = quiet + 1
  local function blocking(o)
    return o ~= s and pairAllowed(s, o)
  end
  for _, o in ipairs(members) do
    if blocking(o) and sat.test(s, o) then
      quiet = quiet - 1
      return
    end
  end
  local x0, y0 = s:position()
  local dx, dy = rnd() * 60 - 30, rnd() * 60 - 30
  note(("quiet world:move %s by %g, %g from %g, %g"):format(name(s), dx, dy, x0, y0))
  world:move(s, dx, dy)
  for _, o in ipairs(members) do
    if blocking(o) then
      local r = sat.collide(s, o)
      check(r == nil or r.overlap <= 1e-6 * (1 + math.abs(x0) + math.abs(dx)),
        "a quiet move of %s ends inside %s (overlap %s)", name(s), name(o),
        r and tostring(r.overlap) or "")
    end
  end
  quiet = quiet - 1
end

------------------------------------------------------------------------------------------
-- the run

local clock = os.clock
local start = clock()
local deadline = seconds and start + seconds or math.huge
if seconds and maxOps == 2000 and tonumber(arg and arg[2]) == nil then
  maxOps = math.huge
end

-- a world to start from
for i = 1, 16 do
  doAdd(pool[i])
end

local function topOp()
  local r = rnd()
  if r < 0.45 then
    -- inside a coroutine: a handler or filter may yield
    local co = coroutine.create(function() anyOp("top") end)
    local ok, e = coroutine.resume(co)
    if not ok then
      check(expected(e), "unexpected error: %s", debug.traceback(co, tostring(e)))
      stats.refused = stats.refused + 1
    elseif coroutine.status(co) == "suspended" then
      suspended[#suspended + 1] = co
      if #suspended > 4 then
        table.remove(suspended, 1) -- dropped
        stats.dropped = stats.dropped + 1
      end
    end
  else
    local ok, e = xpcall(anyOp, function(m)
      if expected(m) then return m end
      return debug.traceback(tostring(m), 2)
    end, "top")
    if not ok then
      check(expected(e), "unexpected error: %s", tostring(e))
      stats.refused = stats.refused + 1
    end
  end
end

while stats.ops < maxOps and clock() < deadline do
  opNumber = stats.ops + 1
  gcBudget = 3
  depth = 0 -- (a nested operation suspended in a coroutine never dropped or resumed its level)
  if chance(0.05) and #pool < 48 then
    newShape()
  end
  topOp()
  stats.ops = stats.ops + 1
  if chance(0.02) then
    collectgarbage()
  end
  checkWorld()
  if stats.ops % 7 == 0 then
    checkStep()
  end
  if stats.ops % 11 == 0 then
    checkMove()
  end
end
-- the suspended coroutines finish or are dropped; a last quiet step and check
for _, co in ipairs(suspended) do
  local ok, e = coroutine.resume(co)
  check(ok or expected(e), "unexpected error at the end: %s", tostring(e))
end
suspended = {}
collectgarbage()
checkWorld()
checkStep()
finished = true
collectgarbage()
collectgarbage()

print(("world-reentrancy: seed %d, %d operations (%d nested: %d handler, %d filter, %d " ..
  "finalizer calls), %d events, %d steps, %d yields (%d resumed later, %d dropped), %d " ..
  "errors planned, %d raised as expected, %d checks, %.1f s, 0 mismatches"):format(
  seed, stats.ops, stats.nested, stats.handlers, stats.filters, stats.finalizers, stats.events,
  stats.steps, stats.yields, stats.resumed, stats.dropped, stats.planned, stats.refused,
  stats.checks, clock() - start))
