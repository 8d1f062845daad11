--- sat.world_events: the world's contact records, its enter / stay / exit events and
-- world:step.
-- Part of sat.world (lua/sat/world.lua); requires nothing of the world but its checks.
--
-- The hash (C) keeps the contacts from one step to the next and tells what changed; this
-- file keeps which pairs were told (entered and not yet exited) and calls the handlers, in
-- pair order (a pair (a, b) has a added first; pairs sorted by a, then b), never `pairs`
-- order. No `for ... in pairs` loop anywhere in the world: see clearTable.
local core = require("sat.backend").core
local check = require("sat.world_check")

local sort = table.sort
local error, pcall, next = error, pcall, next
local vec = core.vec
local worlds, badSelf = check.worlds, check.badSelf

local M = {}

------------------------------------------------------------------------------------------
-- records
--
-- A record per contact the hash holds (rec.id, its contact id; byId[id] == rec), kept in
-- self.list in pair order: { a, b, ta, tb (their tokens, a's first), id, alive (the hash
-- still holds the contact), told (its enter fired, its exit not yet), rA, rB (its responses,
-- seen from a and from b, made when first needed), freshA, freshB (the hash re-tested the
-- pair since that response was filled) }. A pair told is also in contacts[a][b] and
-- contacts[b][a], so that a removal finds what it must exit. A record no longer alive stays
-- in the list until its exit is told (an error in a handler may put that off).

-- contacts[a][b] == contacts[b][a] == rec, and rec told.
local function link(contacts, rec)
  local a, b = rec.a, rec.b
  local ca, cb = contacts[a], contacts[b]
  if not ca then
    ca = {}
    contacts[a] = ca
  end
  if not cb then
    cb = {}
    contacts[b] = cb
  end
  ca[b], cb[a] = rec, rec
  rec.told = true
end

-- (A pair may have a newer record in contacts already, when one of its shapes was removed
-- and added again before the old record's exit was told: that one stays.)
local function unlink(contacts, rec)
  rec.told = false
  local a, b = rec.a, rec.b
  local ca, cb = contacts[a], contacts[b]
  if ca and ca[b] == rec then
    ca[b] = nil
    if next(ca) == nil then
      contacts[a] = nil
    end
  end
  if cb and cb[a] == rec then
    cb[a] = nil
    if next(cb) == nil then
      contacts[b] = nil
    end
  end
end

-- The record of contact id is no longer alive: the hash ended or dropped the contact.
local function endRecord(byId, id)
  local rec = byId[id]
  if rec then
    rec.alive = false
    byId[id] = nil
  end
end

local function byTokens(p, q)
  if p.ta ~= q.ta then
    return p.ta < q.ta
  end
  return p.tb < q.tb
end

-- The record of contact id between a and b (a added first): the pair's record when it is
-- still told (its exit put off by an error in a handler), alive again, or a new one (then
-- the second result is true). A record told from an earlier membership of a or b (removed
-- and added again before its exit was told) is not taken back: it keeps its exit.
local function recordFor(self, id, a, b)
  local ca = self.contacts[a]
  local rec = ca and ca[b]
  local made = false
  local ta, tb = self.token[a], self.token[b]
  if rec and rec.ta == ta and rec.tb == tb then
    rec.alive, rec.id, rec.freshA, rec.freshB = true, id, true, true
  else
    rec = { a = a, b = b, ta = ta, tb = tb, id = id, alive = true,
            told = false, rA = false, rB = false, freshA = true, freshB = true }
    made = true
  end
  self.byId[id] = rec
  return rec, made
end

-- The response seen from a (rA), or from b (rB, flipped), refilled only when the pair was
-- re-tested since: an unchanged pair keeps it as it was.
local function response(self, rec, fromB)
  local key, fresh = fromB and "rB" or "rA", fromB and "freshB" or "freshA"
  local r = rec[key]
  if not r then
    -- (with its vecs: hash:fill then makes nothing, so no finalizer runs inside it)
    r = { a = rec.a, b = rec.b, overlap = 0, normal = vec(0, 0), mtv = vec(0, 0),
          aInB = false, bInA = false }
    if fromB then
      r.a, r.b = rec.b, rec.a
    end
    rec[key] = r
  end
  -- (making r may have run a finalizer that removed a or b: the pair is over, and its
  -- caller sees it is no longer told)
  if rec[fresh] and rec.alive then
    self.hash:fill(r, rec.id, fromB)
    rec[fresh] = false
  end
  return r
end

------------------------------------------------------------------------------------------
-- events

local function callExit(self, rec)
  local a, b = rec.a, rec.b
  local h = self.handlers.exit
  if h then
    h(a, b)
  end
  local fa = a.onExit
  if fa then
    fa(a, b)
  end
  local fb = b.onExit
  if fb then
    fb(b, a)
  end
end

-- enter or stay: world handler, then a's, then b's, as long as the pair lasts (a handler
-- may remove one of the two, which ends the pair with its exit). Both shapes' handlers are
-- looked up as the event begins.
-- An enter links the pair (it is told from then on) once its response is made: making it
-- may run a finalizer, which may remove a or b, and then the pair ends untold. (One
-- function: it runs for every pair every step, and a call costs in PUC Lua.)
local function callPair(self, rec, event, field)
  local a, b = rec.a, rec.b
  local rA = response(self, rec, false)
  if event == "enter" then
    if not rec.alive or rec.told then
      return
    end
    link(self.contacts, rec)
    if not rec.alive then -- (link made a table: a finalizer removed a or b meanwhile)
      unlink(self.contacts, rec)
      return
    end
  elseif not rec.told then
    return
  end
  local fa, fb = a[field], b[field]
  local h = self.handlers[event]
  if not rec.told then -- (as above: the lookups may run a finalizer)
    return
  end
  if h then
    h(a, b, rA)
    if not rec.told then
      return
    end
  end
  if fa then
    fa(a, b, rA)
    if not rec.told then
      return
    end
  end
  if fb then
    local rB = response(self, rec, true)
    if rec.told then
      fb(b, a, rB)
    end
  end
end

-- Fires the events prepare() listed in the step's state st. Each event changes the contact
-- state just before its handlers run, so an error (or a yield never resumed) leaves every
-- pair either updated and told, or untouched (told next step).
local function fire(self, st)
  local contacts = self.contacts
  local exits, events = st.exits, st.events
  for i = 1, exits.n do
    local rec = exits[i]
    if rec.told then -- (a removal in an earlier handler may have told it already)
      unlink(contacts, rec)
      callExit(self, rec)
    end
  end
  for i = 1, events.n do
    local rec = events[i]
    if rec.alive then -- (a removal kills the contacts of the shape removed)
      if rec.told then
        callPair(self, rec, "stay", "onStay")
      else
        callPair(self, rec, "enter", "onEnter")
      end
    end
  end
end

------------------------------------------------------------------------------------------
-- a shape leaving the world (world:remove)

--- Before shape leaves: the hash drops its contacts, whose records are no longer alive.
function M.dropContacts(self, shape)
  local dropped, byId = self.scratch.dropped, self.byId
  -- (all or nothing, memory running out included; false: a finalizer or a debug hook removed
  -- the shape since world:remove checked it)
  local n = self.hash:remove(shape, dropped) or 0
  -- Nothing below allocates, so that a removal is never half done: gone (new keys) is only
  -- for a step reading its delta (self.lost is true while it does), should a finalizer
  -- remove the shape then; the next step after a failed one reads none (it resyncs).
  local gone = self.lost and self.scratch.gone
  for i = 1, n do
    local id = dropped[i]
    endRecord(byId, id)
    if gone then
      gone[id] = true
    end
    dropped[i] = nil
  end
end

--- Once shape has left: the exit of every pair told it was in, in the order the other
-- shapes were added. Each pair is unlinked just before its exit fires.
function M.exitAll(self, shape)
  local contacts = self.contacts
  local mine = contacts[shape]
  if not mine then
    return
  end
  local ended = {}
  local other, rec0 = next(mine) -- (no `for ... in pairs` in the world: see clearTable)
  while other ~= nil do
    ended[#ended + 1] = rec0
    other, rec0 = next(mine, other)
  end
  sort(ended, byTokens) -- `pairs` order never shows
  for i = 1, #ended do
    local rec = ended[i]
    if rec.told then -- (a handler may have told it already: a step, or another removal)
      unlink(contacts, rec)
      callExit(self, rec)
    end
  end
end

------------------------------------------------------------------------------------------
-- the step's state

-- What one step works with, reused step after step: the buffers it reads the delta into
-- and the lists it builds. A step owns its bundle while it runs (a step suspended by a
-- handler that yields, in a coroutine, keeps its own), so that no other step writes into it.
local function newStepState()
  return {
    delta = {},          -- hash:step's ids: ended, then added triples, then updated
    added = {},          -- the records of the contacts a step added, in pair order
    nadd = 0,            -- how many it added (entries past those a prepare took remain)
    list = {},           -- the next contact list, swapped with world.list each step
    exits = { n = 0 },   -- records whose exit a step fires, in pair order
    events = { n = 0 },  -- records whose enter or stay a step fires, in pair order
  }
end
M.newStepState = newStepState

local function takeStepState(self)
  local scratch = self.scratch
  local st = scratch.step
  if st then
    scratch.step = false
  else
    st = newStepState()
  end
  return st
end

-- Empties the event lists and the records added (they would keep their shapes alive).
local function clearEvents(st)
  local exits, events, added = st.exits, st.events, st.added
  for i = 1, st.nadd do
    added[i] = nil
  end
  st.nadd = 0
  for i = 1, exits.n do
    exits[i] = nil
  end
  for i = 1, events.n do
    events[i] = nil
  end
  exits.n, events.n = 0, 0
end

-- Empties t. The world walks its tables with `next` in a `while` loop, never with a
-- `for ... in pairs` loop: LuaJIT compiles a pairs loop into a trace whose first instruction
-- is the loop's own; run from a finalizer while the collector is finalizing, a trace exit
-- there resumes at that instruction, which enters the trace again, without end (LuaJIT
-- neither steps the collector nor compiles a side trace during __gc). The fuzzer's
-- FUZZ_JIT_GC runs hung there; see docs/design.md, "Finalizers". (The lint suite refuses a
-- pairs loop in lua/sat/world*.lua.)
local function clearTable(t)
  local k = next(t)
  while k ~= nil do
    local after = next(t, k)
    t[k] = nil
    k = after
  end
end

------------------------------------------------------------------------------------------
-- reading what the hash changed

-- Records the contact id between a and b that the hash added, unless it is already over:
-- returns the record when it is new (a pair still told from before, its exit put off by an
-- error, takes its record back instead), else nil.
local function addRecord(self, id, a, b, gone)
  local token, byId = self.token, self.byId
  if not (token[a] and token[b]) then -- (left the world since: under LuaJIT's compiler a
    endRecord(byId, id)               -- finalizer can run between any two statements)
  elseif not gone[id] then
    local rec, made = recordFor(self, id, a, b)
    if gone[id] then -- (making the record ran a finalizer that removed a or b)
      endRecord(byId, id)
    elseif made then
      return rec
    end
  end
  return nil
end

-- Reads what hash:step changed into the records: those ended are no longer alive, those
-- re-tested get their responses refilled when next used, and new ones get records, listed
-- in st.added in pair order. Returns how many were added.
local function applyDelta(self, st)
  local buf, added, gone = st.delta, st.added, self.scratch.gone
  local byId = self.byId
  clearTable(gone)
  local ne, na, nu = self.hash:step(buf)
  -- (A finalizer run by an allocation below may remove shapes: their contacts are gone.)
  for i = 1, ne do
    endRecord(byId, buf[i])
  end
  local o, nadd = ne, 0
  for _ = 1, na do
    local id, a, b = buf[o + 1], buf[o + 2], buf[o + 3]
    buf[o + 2], buf[o + 3] = false, false -- (the buffer keeps no shape alive)
    o = o + 3
    local rec = addRecord(self, id, a, b, gone)
    if rec then
      nadd = nadd + 1
      added[nadd] = rec
      st.nadd = nadd
    end
  end
  for i = o + 1, o + nu do
    local rec = byId[buf[i]]
    if rec then
      rec.freshA, rec.freshB = true, true
    end
  end
  return nadd
end

-- The records of the pairs told, no longer alive (resync makes alive those the hash still
-- holds): a new list, which keeps them for their exits.
local function toldRecords(self)
  local list = {}
  for _, rec in ipairs(self.list) do
    rec.alive = false
    if rec.told then
      list[#list + 1] = rec
    end
  end
  return list
end

-- Rebuilds the records from every contact the hash holds, for a step after one that did not
-- finish reading its delta and listing its events (memory ran out, the setFilter function
-- raised an error or yielded): the delta is then lost. The pairs told keep their records,
-- and those no longer in contact stay listed for their exits.
local function resync(self, st)
  local buf, gone = st.delta, self.scratch.gone
  clearTable(gone)
  self.hash:step(buf) -- (brings the contacts up to date; its delta is not needed)
  local list = toldRecords(self)
  clearTable(self.byId)
  for o = 0, 3 * (self.hash:contacts(buf) - 1), 3 do
    -- (a finalizer run by an allocation here may remove shapes: their contacts are gone)
    local id, a, b = buf[o + 1], buf[o + 2], buf[o + 3]
    buf[o + 2], buf[o + 3] = false, false -- (the buffer keeps no shape alive)
    local rec = addRecord(self, id, a, b, gone)
    if rec then
      list[#list + 1] = rec
    end
  end
  sort(list, byTokens)
  self.list, st.list = list, {}
end

------------------------------------------------------------------------------------------
-- listing the events

-- Merges the records added into the list (both in pair order) and lists the events: for a
-- record alive that setFilter accepts, an enter or a stay; for a record told that is no
-- longer alive or that setFilter now refuses, an exit. Records neither alive nor told leave.
-- The new list is built aside, in st.list; returns its length, the exits' and the events'.
local function listEvents(self, st, nadd)
  local old, list, added = self.list, st.list, st.added
  local exits, events = st.exits, st.events
  local filter = self.filter
  local nold, i, j, n, nx, ne = #old, 1, 1, 0, 0, 0
  while i <= nold or j <= nadd do
    local rec
    local p, q = old[i], nil
    if j <= nadd then -- (past nadd: what a step ended by an error left, never read)
      q = added[j]
    end
    if q == nil or (p ~= nil and (p.ta < q.ta or (p.ta == q.ta and p.tb < q.tb))) then
      rec, i = p, i + 1
    else
      rec, j = q, j + 1
      added[j - 1] = nil
    end
    if rec.alive then
      n = n + 1
      list[n] = rec
      -- (the filter may remove shapes: a record it kills lists no event; see fire)
      if filter == nil or filter(rec.a, rec.b) ~= false then
        ne = ne + 1
        events[ne] = rec
      elseif rec.told then
        nx = nx + 1
        exits[nx] = rec
      end
    elseif rec.told then
      n = n + 1
      list[n] = rec
      nx = nx + 1
      exits[nx] = rec
    end
  end
  return n, nx, ne
end

-- Lists the events (listEvents) and swaps the new list in, but only if no other step began
-- meanwhile (the setFilter function may yield): returns the number of events, or nil when
-- another step has taken over.
local function prepare(self, st, nadd, serial)
  local list, old = st.list, self.list
  local nold = #old
  local n, nx, ne = listEvents(self, st, nadd)
  for k = n + 1, #list do
    list[k] = nil
  end
  st.exits.n, st.events.n = nx, ne
  if self.serial ~= serial then
    return nil
  end
  for k = 1, nold do
    old[k] = nil
  end
  self.list, st.list = list, old
  return ne
end

------------------------------------------------------------------------------------------
-- the step

-- Which threads run a step: thread -> true while its step runs (or is suspended in it, by a
-- handler or the setFilter function that yielded). Weak keys: a coroutine dropped while
-- suspended in a step is collected as usual. Lua 5.1 and LuaJIT have no object for the
-- main thread (coroutine.running() is nil there): MAIN stands for it.
local MAIN = setmetatable({}, { __tostring = function() return "main thread" end })
local running = coroutine.running
local status = coroutine.status

local function currentThread()
  return running() or MAIN
end

-- Whether a step of this world is under way on the current call stack: one begun by the
-- running thread, or by a thread that resumed it (status "normal"). A step whose coroutine
-- is suspended (a handler yielded) or dead (dropped, collected) does not count: the world
-- is not wedged by it, and its state is its own (see the step's state).
local function stepOnStack(self)
  local steppers = self.steppers
  if next(steppers) == nil then
    return false
  end
  local cur = currentThread()
  local th = next(steppers) -- (no `for ... in pairs`: see clearTable)
  while th ~= nil do
    if th == cur or th == MAIN then -- (the main thread is always on the stack)
      return true
    end
    if status(th) == "normal" then
      return true
    end
    th = next(steppers, th)
  end
  return false
end

-- (for world_state.lua's restore)
M.link, M.stepOnStack = link, stepOnStack

--- The table of threads stepping a world (see stepOnStack), for world.new.
function M.newSteppers()
  return setmetatable({}, { __mode = "k" })
end

local function runStep(self, st, serial)
  local nadd = 0
  if self.lost then
    resync(self, st)
  else
    self.lost = true -- until the delta is read and listed (memory may run out before)
    nadd = applyDelta(self, st)
  end
  local ne = prepare(self, st, nadd, serial)
  if ne == nil then
    error("step: another step of this world ran while the setFilter function of this one " ..
      "was suspended (it yielded); this step is dropped", 0)
  end
  self.lost = false
  fire(self, st)
  return ne
end

--- world:step() -> number of colliding pairs. Finds every colliding pair (static pairs,
-- category and mask first, then setFilter) and fires, in this order: "exit" for each pair
-- that stopped colliding (in pair order), then "enter" or "stay" for each colliding pair
-- (pair order: a added before b, pairs sorted by a then b). Each event calls the world
-- handler, then the shapes' own onEnter/onStay/onExit (a's, then b's with the response seen
-- from b). Only the pairs of shapes changed since the last step are tested again; the
-- others keep their response. The events describe the world as it was when step began;
-- handlers may add, remove and move shapes (a pair whose shape is removed gets its exit at
-- once and no further event), but not step the world again: neither may the setFilter
-- function, which step calls too. A handler or the setFilter function that yields (the
-- step running in a coroutine) suspends the step; the world is not held by it: other steps
-- may run meanwhile, and a coroutine dropped there leaves nothing behind.
function M.step(self)
  if not worlds[self] then badSelf("step", self) end
  if stepOnStack(self) then
    error("step: cannot step the world from inside its step (a handler or the setFilter " ..
      "function)", 2)
  end
  local serial = self.serial + 1
  self.serial = serial
  local th = currentThread()
  local steppers = self.steppers
  local st = takeStepState(self)
  steppers[th] = true
  local ok, res = pcall(runStep, self, st, serial)
  steppers[th] = nil
  clearEvents(st)
  self.scratch.step = st
  if not ok then
    error(res, 0)
  end
  return res
end

return M
