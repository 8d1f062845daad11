--- sat.world: shapes in a spatial hash, with queries, enter/stay/exit callbacks and
-- movement that slides along what it meets.
--
--   local world = sat.world(64)
--   world:add(player); world:add(wall, "static")
--   local x, y, cols = world:move(player, 5, 0)       -- slides along the wall
--   function player:onEnter(other, r) ... end         -- r.a == player
--   world:on("exit", function(a, b) ... end)
--   world:step()                                      -- fires enter / stay / exit
--
-- The broad phase, the pair tests and the swept tests run in C (core.newHash), which also
-- keeps the contacts from one step to the next and tells what changed. This file keeps what
-- is Lua's business: which pairs were told (entered and not yet exited), the callbacks, the
-- filters and the movement rules. Shapes moved, rotated or scaled with their own methods
-- tell the hash themselves, so nothing else is needed. Everything comes out in a
-- deterministic order: insertion order into the world (a pair (a, b) has a added first),
-- never `pairs` order.
local core = require("sat.backend").core

local sqrt = math.sqrt
local sort = table.sort
local type, error, pcall, tostring = type, error, pcall, tostring

local DEFAULT_CELL_SIZE = 64
-- A move resolves at most this many contacts; past that the rest of the motion is dropped
-- (only reached when squeezed between shapes).
local MAX_MOVE_STEPS = 16
-- A motion pressing into a surface we already touch, by more than this fraction of its
-- length, is blocked (two surfaces pin the shape in 2D).
local PINNED_EPS = 1e-9

local EVENTS = { enter = true, stay = true, exit = true }
local MOVE_TYPES = { slide = true, touch = true, cross = true }

-- The sweep buffer hash:sweep fills for move (h_sweep, in the C binding, writes this
-- layout): slot k of hit i is buf[(i - 1) * HIT_STRIDE + k], hits in the order met, every
-- slot a number (flags 1 or 0) but the shape met. (A move clears those slots when it ends:
-- the buffer keeps no shape alive.)
local HIT_OTHER = 1       -- the shape met
local HIT_T = 2           -- luacheck: ignore 211 (time of the first touch, in [0, 1]; unread)
local HIT_MX = 3          -- the move to the first touch (exact; 0 when overlapping)
local HIT_MY = 4
local HIT_NX = 5          -- the unit normal, from the moving shape toward the other
local HIT_NY = 6
local HIT_OVERLAP = 7     -- the depth when overlapping at the start, else 0
local HIT_OVERLAPPING = 8 -- overlapping at the start (pushed out, not advanced)
local HIT_AINB = 9        -- the containment flags when overlapping, else 0
local HIT_BINA = 10
local HIT_STRIDE = 10

local isShape, isVec, vec = core.isShape, core.isVec, core.vec

------------------------------------------------------------------------------------------
-- argument checks, in the C binding's words (src/lua/lsat_util.c): the same type names
-- ("vec", a shape's kind, "response", another library's __name), "nan" and "inf", numeric
-- strings taken as numbers, and the position of the caller of the world's method.

-- The names the binding protects its metatables with (what getmetatable returns), read
-- from one object of each type: a response's, and all of them.
local RESPONSE_NAME, OWN_NAMES
do
  local c = core.circle(0, 0, 1)
  RESPONSE_NAME, OWN_NAMES = getmetatable(core.collide(c, c)), {}
  for _, object in ipairs({ vec(0, 0), c, core.polygon(0, 0, 1, 0, 0, 1), core.segment(0, 0, 1, 0),
                            core.capsule(0, 0, 1, 0, 1), core.newHash(1) }) do
    OWN_NAMES[getmetatable(object)] = true
  end
  OWN_NAMES[RESPONSE_NAME] = true
end

local function typeName(v)
  if isShape(v) then
    return v:kind()
  end
  if isVec(v) then
    return "vec"
  end
  local t = type(v)
  if t == "table" or t == "userdata" then
    local mt = getmetatable(v)
    if mt == RESPONSE_NAME then
      return "response"
    end
    if type(mt) == "table" then
      local name = rawget(mt, "__name")
      if type(name) == "string" and not OWN_NAMES[name] then
        return name
      end
    end
  end
  return t
end

-- A value in a message: a string or a number as it is, anything else its type name.
local function describe(v)
  local t = type(v)
  if t == "string" or t == "number" or t == "boolean" then
    return tostring(v)
  end
  return typeName(v)
end

-- Every check raises through here with the depth of the world's method below it: level 1
-- is argError itself, so the method is at `depth` and its caller at depth + 1.
local function argError(depth, fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), depth + 1)
end

-- Checks called straight from a world method raise at depth 3 (argError, the check, the
-- method), the caller's line.
local function checkShape(fname, n, v)
  if not isShape(v) then
    argError(3, fname, n, "shape expected, got " .. typeName(v))
  end
end

local function nonfiniteName(v)
  if v ~= v then
    return "nan"
  end
  return v > 0 and "inf" or "-inf"
end

-- A finite number (a numeric string converted, as C converts it); returns it.
local function toFinite(fname, n, v, depth)
  local x = v
  if type(x) ~= "number" then
    x = type(x) == "string" and tonumber(x) or nil
    if x == nil then
      argError(depth, fname, n, "number expected, got " .. typeName(v))
    end
  end
  if x ~= x or x == math.huge or x == -math.huge then
    argError(depth, fname, n, "finite number expected, got " .. nonfiniteName(x))
  end
  return x
end

local function checkNumber(fname, n, v)
  return (toFinite(fname, n, v, 4))
end

-- The core's range for coordinates and sizes (set by the first world: the hash tells).
local MAX_COORD, RANGE_MESSAGE = math.huge, "out of range"
-- The cell sizes the hash takes (its header: SAT_HASH_MIN_CELL, SAT_HASH_MAX_CELL).
local MIN_CELL, MAX_CELL = 1e-100, 1e150

-- A coordinate or size going into the core: a finite number within its range; returns it.
local function checkCoord(fname, n, v)
  local x = toFinite(fname, n, v, 4)
  if x > MAX_COORD or x < -MAX_COORD then
    argError(3, fname, n, RANGE_MESSAGE)
  end
  return x
end

local function checkOptFunction(fname, n, v)
  if v ~= nil and type(v) ~= "function" then
    argError(3, fname, n, "function expected, got " .. typeName(v))
  end
end

local function checkOptTable(fname, n, v)
  if v ~= nil and type(v) ~= "table" then
    argError(3, fname, n, "table expected, got " .. typeName(v))
  end
end

-- The optional last arguments of a query or a move: a filter function, then a table to fill
-- (either may be left out). Returns filter, out.
local function trailing(fname, n, a, b)
  if type(a) == "table" and b == nil then
    return nil, a
  end
  if a ~= nil and type(a) ~= "function" then
    argError(3, fname, n, "function or table expected, got " .. typeName(a))
  end
  if b ~= nil and type(b) ~= "table" then
    argError(3, fname, n + 1, "table expected, got " .. typeName(b))
  end
  return a, b
end

local function checkMember(self, fname, n, shape)
  if not isShape(shape) then
    argError(3, fname, n, "shape expected, got " .. typeName(shape))
  end
  if not self.token[shape] then
    argError(3, fname, n, "shape is not in this world")
  end
end

-- Keeps the entries of list for which keep(entry) is truthy, in order.
local function filterList(list, keep, get)
  if keep == nil then
    return list
  end
  local j = 0
  for i = 1, #list do
    local v = list[i]
    list[i] = nil
    if keep(get and v[get] or v) then
      j = j + 1
      list[j] = v
    end
  end
  return list
end

------------------------------------------------------------------------------------------
-- contacts
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
-- may run a finalizer, which may remove a or b, and then the pair ends untold.
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
-- scratch

-- What one move works with, reused move after move: the sweep buffer, the other shapes met
-- (seen[1..nseen], searched in order: a move meets a few, and a table keyed by shape would
-- allocate as the shapes met change) with the filter's answer for each and whether it was
-- reported, and the normals of the surfaces the motion was turned along (pinned).
local function newMoveState()
  return { shape = false, filter = false, cols = false, ncols = 0, buf = {}, seen = {},
           kinds = {}, reported = {}, nseen = 0, pinned = {}, npinned = 0, others = {},
           nothers = 0 }
end

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

-- The world's scratch: buffers step, remove and move reuse so that they make no garbage.
-- Only the call that fills them reads them (the world's state is in its other fields).
local function newScratch()
  return {
    step = newStepState(), -- false while a step has it
    dropped = {},        -- hash:remove's ids: the contacts of the shape removed
    gone = {},           -- ids removals dropped since the last step read its delta
    move = newMoveState(), -- false while a move has it
    spare = {},          -- collision tables moves dropped from tables given to fill
  }
end

------------------------------------------------------------------------------------------
-- the world

local World = {}
World.__index = World

--- sat.world([cellSize]) -> world. cellSize: the side of a hash cell, in world units
-- (default 64; about the size of a typical shape is best; bigger shapes go to coarser
-- levels of cells on their own).
-- (wrappers: how many functions between the caller and new, for the errors' position;
-- sat.world passes 1, as no tail call hides it on Lua 5.1)
local function new(cellSize, wrappers)
  local d = 2 + (wrappers or 0)
  if cellSize == nil then
    cellSize = DEFAULT_CELL_SIZE
  else
    cellSize = toFinite("world", 1, cellSize, d + 1)
    if cellSize <= 0 then
      argError(d, "world", 1, "cell size must be > 0")
    end
    if cellSize < MIN_CELL or cellSize > MAX_CELL then
      argError(d, "world", 1, "cell size must be between 1e-100 and 1e150")
    end
  end
  local hash = core.newHash(cellSize)
  MAX_COORD, RANGE_MESSAGE = hash:limits()
  return setmetatable({
    hash = hash,
    token = {},          -- shape -> its insertion number (membership); which handle it
                         -- has, the hash knows (its own table handle -> shape)
    nextToken = 0,
    byId = {},           -- contact id -> record, for every contact the hash holds
    contacts = {},       -- shape -> { other -> record } for the pairs told
    list = {},           -- the records, in pair order
    handlers = {},       -- event -> function
    filter = nil,        -- setFilter's function
    changes = 0,         -- adds and removes so far (a move sees the world change under it)
    steppers = setmetatable({}, { __mode = "k" }), -- see stepOnStack
    serial = 0,          -- the number of steps begun
    lost = false,        -- a step ran out of memory before its records were right
    scratch = newScratch(),
  }, World)
end

function World:__tostring()
  return ("world(%d shapes, cell %s)"):format(self.hash:count(), tostring(self.hash:cellSize()))
end

-- Records the shape in the world's tables, then in the hash, after which nothing can fail;
-- under pcall, so that add can undo the tables when memory runs out before.
-- (The token is taken first: a finalizer adding a shape during hash:add gets the next one.)
local function enroll(self, shape, static)
  local t = self.nextToken + 1
  self.nextToken = t
  self.token[shape] = t
  self.hash:add(shape, static)
  self.changes = self.changes + 1
end

--- world:add(shape [, "static"]) -> shape. A static shape never pairs with another static
-- one (no test, no event); it may still be moved, which the world follows (assumed rare).
function World:add(shape, kind)
  checkShape("add", 1, shape)
  if self.token[shape] then
    argError(2, "add", 1, "shape is already in this world")
  end
  if kind ~= nil and kind ~= "static" then
    argError(2, "add", 2, "\"static\" or nil expected, got " .. describe(kind))
  end
  local ok, e = pcall(enroll, self, shape, kind == "static")
  if not ok then -- (out of memory) neither the hash nor the world has it: no call needed
    self.token[shape] = nil
    error(e, 2)
  end
  return shape
end

--- world:remove(shape) -> shape. Every pair the shape was in gets its exit (in the order
-- the other shapes were added), after the shape has left. Each pair is unlinked just before
-- its exit fires, so if an exit handler raises an error (or yields and is never resumed),
-- the pairs not told yet keep their exits for the next step, which fires them first.
function World:remove(shape)
  checkMember(self, "remove", 1, shape)
  local dropped, byId = self.scratch.dropped, self.byId
  local n = self.hash:remove(shape, dropped)
  local gone = self.scratch.gone
  for i = 1, n do
    local id = dropped[i]
    endRecord(byId, id)
    gone[id] = true -- (for a step reading its delta, should a finalizer remove the shape)
    dropped[i] = nil
  end
  self.token[shape] = nil
  self.changes = self.changes + 1
  local contacts = self.contacts
  local mine = contacts[shape]
  if not mine then
    return shape
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
  return shape
end

--- world:has(shape) -> boolean
function World:has(shape)
  return self.token[shape] ~= nil
end

--- world:isStatic(shape) -> boolean: added with "static" (false when not in the world)
function World:isStatic(shape)
  return self.token[shape] ~= nil and self.hash:isStatic(shape)
end

--- world:shapes([t]) -> list of the shapes, in insertion order
function World:shapes(out)
  checkOptTable("shapes", 1, out)
  return self.hash:shapes(out)
end

--- world:count() -> number of shapes
function World:count()
  return self.hash:count()
end

--- world:cellSize() -> the hash's cell size
function World:cellSize()
  return self.hash:cellSize()
end

--- world:cells([level [, t]]) -> flat list cx, cy, count, ... of the cells in use at that
-- level of the hash (default 0; cell (cx, cy) of level k covers [cx, cx + 1) * size by
-- [cy, cy + 1) * size, size = cellSize * 2^k), by row then column. A shape is filed at the
-- lowest level where it covers at most 2 x 2 cells. For debugging views (sat.debug).
function World:cells(level, out)
  if level ~= nil then
    level = checkNumber("cells", 1, level)
    if level < 0 or level ~= math.floor(level) then
      argError(2, "cells", 1, "level must be an integer >= 0")
    end
  end
  checkOptTable("cells", 2, out)
  local t = self.hash:cells(level, out) -- (not a tail call: its errors are ours, above)
  return t
end

--- world:levels([t]) -> the levels of cells holding shapes, ascending (see world:cells).
function World:levels(out)
  checkOptTable("levels", 1, out)
  local t = self.hash:levels(out)
  return t
end

------------------------------------------------------------------------------------------
-- queries: exact geometry, results in insertion order (segment hits along the segment);
-- an optional filter(shape) -> truthy keeps a shape; an optional last table is filled and
-- returned instead of a new one.

--- world:queryPoint(x, y [, filter] [, t]) -> shapes containing the point (boundary
-- included)
function World:queryPoint(x, y, a, b)
  x = checkCoord("queryPoint", 1, x)
  y = checkCoord("queryPoint", 2, y)
  local filter, out = trailing("queryPoint", 3, a, b)
  return filterList(self.hash:queryPoint(x, y, out), filter)
end

--- world:queryRect(x, y, w, h [, filter] [, t]) -> shapes overlapping or touching the
-- rectangle with top-left corner (x, y) and size (w, h), w and h >= 0
function World:queryRect(x, y, w, h, a, b)
  x = checkCoord("queryRect", 1, x)
  y = checkCoord("queryRect", 2, y)
  w = checkCoord("queryRect", 3, w)
  h = checkCoord("queryRect", 4, h)
  if w < 0 then
    argError(2, "queryRect", 3, "width must be >= 0")
  end
  if h < 0 then
    argError(2, "queryRect", 4, "height must be >= 0")
  end
  local filter, out = trailing("queryRect", 5, a, b)
  return filterList(self.hash:queryRect(x, y, w, h, out), filter)
end

--- world:querySegment(x1, y1, x2, y2 [, filter] [, t]) -> list of hits sorted along the
-- segment (ties in insertion order), each { shape =, t =, x =, y =, nx =, ny = }: where the
-- segment enters the shape, as a fraction t in [0, 1] and as a point, and the shape's
-- surface normal there. A segment starting inside a shape hits it at t = 0. A table given
-- is filled with its own hit tables reused.
function World:querySegment(x1, y1, x2, y2, a, b)
  x1 = checkCoord("querySegment", 1, x1)
  y1 = checkCoord("querySegment", 2, y1)
  x2 = checkCoord("querySegment", 3, x2)
  y2 = checkCoord("querySegment", 4, y2)
  local filter, out = trailing("querySegment", 5, a, b)
  return filterList(self.hash:querySegment(x1, y1, x2, y2, out), filter, "shape")
end

--- world:queryShape(shape [, filter] [, t]) -> shapes overlapping or touching it (not
-- itself). The shape need not be in the world.
function World:queryShape(shape, a, b)
  checkShape("queryShape", 1, shape)
  local filter, out = trailing("queryShape", 2, a, b)
  return filterList(self.hash:queryShape(shape, out), filter)
end

--- world:neighbors(shape [, filter] [, t]) -> the broad phase's candidates: shapes whose
-- bounding boxes overlap or touch the shape's (not itself)
function World:neighbors(shape, a, b)
  checkShape("neighbors", 1, shape)
  local filter, out = trailing("neighbors", 2, a, b)
  return filterList(self.hash:neighbors(shape, out), filter)
end

-- The world filter's verdict on a pair, asked with the shape added first as a.
local function allowed(self, shape, other)
  local f = self.filter
  if f == nil then
    return true
  end
  local ts, to = self.token[shape], self.token[other]
  if ts and to and to < ts then
    return f(other, shape) ~= false
  end
  return f(shape, other) ~= false
end

--- world:collisions(shape [, t]) -> list of responses, one per shape it collides with, in
-- insertion order: r.a is the shape, r.b the other, the normal points toward the other.
-- Filtered like step (static pairs, category and mask, then setFilter). The shape need not
-- be in the world. A table given is filled with its own response tables reused.
function World:collisions(shape, out)
  checkShape("collisions", 1, shape)
  checkOptTable("collisions", 2, out)
  local list = self.hash:collisions(shape, true, out)
  if self.filter == nil then
    return list
  end
  local j = 0
  for i = 1, #list do
    local r = list[i]
    list[i] = nil
    if allowed(self, shape, r.b) then
      j = j + 1
      list[j] = r
    end
  end
  return list
end

------------------------------------------------------------------------------------------
-- callbacks

--- world:on(event, fn) -> world. event "enter": fn(a, b, response); "stay": fn(a, b,
-- response); "exit": fn(a, b). One function per event; nil removes it.
function World:on(event, fn)
  if not EVENTS[event] then
    argError(2, "on", 1, "event must be \"enter\", \"stay\" or \"exit\", got " .. describe(event))
  end
  checkOptFunction("on", 2, fn)
  self.handlers[event] = fn
  return self
end

--- world:setFilter(fn) -> world. fn(a, b) returning false keeps the pair from colliding
-- (in step, collisions and move); nil removes it.
function World:setFilter(fn)
  checkOptFunction("setFilter", 1, fn)
  self.filter = fn
  return self
end

-- Empties t. The world walks its tables with `next` in a `while` loop, never with a
-- `for ... in pairs` loop: LuaJIT compiles a pairs loop into a trace whose first instruction
-- is the loop's own; run from a finalizer while the collector is finalizing, a trace exit
-- there resumes at that instruction, which enters the trace again, without end (LuaJIT
-- neither steps the collector nor compiles a side trace during __gc). The fuzzer's
-- FUZZ_JIT_GC runs hung there; see docs/design.md, "Finalizers".
local function clearTable(t)
  local k = next(t)
  while k ~= nil do
    local after = next(t, k)
    t[k] = nil
    k = after
  end
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

-- Reads what hash:step changed into the records: those ended are no longer alive, those
-- re-tested get their responses refilled when next used, and new ones get records, listed
-- in st.added in pair order (a pair still told from before, its exit put off by an error,
-- takes its record back instead). Returns how many were added.
local function applyDelta(self, st)
  local buf, added, gone = st.delta, st.added, self.scratch.gone
  local byId, token = self.byId, self.token
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
    if not (token[a] and token[b]) then -- (left the world since: under LuaJIT's compiler a
      endRecord(byId, id)               -- finalizer can run between any two statements)
    elseif not gone[id] then
      local rec, made = recordFor(self, id, a, b)
      if gone[id] then -- (making the record ran a finalizer that removed a or b)
        endRecord(byId, id)
      elseif made then
        nadd = nadd + 1
        added[nadd] = rec
        st.nadd = nadd
      end
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

-- Rebuilds the records from every contact the hash holds, for a step after one that did not
-- finish reading its delta and listing its events (memory ran out, the setFilter function
-- raised an error or yielded): the delta is then lost. The pairs told keep their records,
-- and those no longer in contact stay listed for their exits.
local function resync(self, st)
  local buf, gone = st.delta, self.scratch.gone
  local byId, token = self.byId, self.token
  clearTable(gone)
  self.hash:step(buf) -- (brings the contacts up to date; its delta is not needed)
  local list = {}
  for _, rec in ipairs(self.list) do
    rec.alive = false
    if rec.told then
      list[#list + 1] = rec
    end
  end
  clearTable(byId)
  for o = 0, 3 * (self.hash:contacts(buf) - 1), 3 do
    -- (a finalizer run by an allocation here may remove shapes: their contacts are gone)
    local id, a, b = buf[o + 1], buf[o + 2], buf[o + 3]
    buf[o + 2], buf[o + 3] = false, false -- (the buffer keeps no shape alive)
    if not (token[a] and token[b]) then -- (see applyDelta)
      endRecord(byId, id)
    elseif not gone[id] then
      local rec, made = recordFor(self, id, a, b)
      if gone[id] then
        endRecord(byId, id)
      elseif made then
        list[#list + 1] = rec
      end
    end
  end
  sort(list, byTokens)
  self.list, st.list = list, {}
end

-- Merges the records added into the list (both in pair order) and lists the events: for a
-- record alive that setFilter accepts, an enter or a stay; for a record told that is no
-- longer alive or that setFilter now refuses, an exit. Records neither alive nor told leave.
-- The new list is built aside and swapped in at the end, and only if no other step began
-- meanwhile (the setFilter function may yield): returns the number of events, or nil when
-- another step has taken over.
local function prepare(self, st, nadd, serial)
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
  for k = n + 1, #list do
    list[k] = nil
  end
  exits.n, events.n = nx, ne
  if self.serial ~= serial then
    return nil
  end
  for k = 1, nold do
    old[k] = nil
  end
  self.list, st.list = list, old
  return ne
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
function World:step()
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

------------------------------------------------------------------------------------------
-- movement

local function defaultMoveFilter()
  return "slide"
end

-- Takes the world's move state (or, for a move made from inside a move's filter, a new one).
local function takeMoveState(self, shape, filter, cols)
  local scratch = self.scratch
  local mv = scratch.move
  if mv then
    scratch.move = false
  else
    mv = newMoveState()
  end
  mv.shape, mv.filter, mv.cols, mv.ncols = shape, filter, cols, 0
  return mv
end

-- Clears what refers to shapes and gives the state back. A move ended by an error never
-- gets here: its state is dropped, not reused half-done.
local function releaseMoveState(self, mv)
  local seen = mv.seen
  for i = 1, mv.nseen do
    seen[i] = false
  end
  local others, buf = mv.others, mv.buf
  for i = 1, mv.nothers do -- (firstBlock read every sweep's hits: they are all within)
    others[i] = false
    buf[(i - 1) * HIT_STRIDE + HIT_OTHER] = false
  end
  mv.nseen, mv.npinned, mv.nothers = 0, 0, 0
  mv.shape, mv.filter, mv.cols = false, false, false
  self.scratch.move = mv
end

-- Where other is in the move's list of shapes met, adding it when new.
local function slotOf(mv, other)
  local seen, n = mv.seen, mv.nseen
  for i = 1, n do
    if seen[i] == other then
      return i
    end
  end
  n = n + 1
  seen[n], mv.kinds[n], mv.reported[n], mv.nseen = other, nil, false, n
  return n
end

-- The move filter's answer for other (at slot i), asked once per move and other: false
-- (ignore), "slide", "touch" or "cross". Run under move's pcall: its error is raised at
-- level 6 (moveType, firstBlock, moveLoop, pcall, World:move), the caller of move.
local function moveType(self, mv, other, i)
  local shape = mv.shape
  local kind = false
  if allowed(self, shape, other) then
    local r = mv.filter(shape, other)
    if MOVE_TYPES[r] then
      kind = r
    elseif r ~= nil and r ~= false then
      error(("move: the filter returned %s; expected \"slide\", \"touch\", \"cross\" or nil")
        :format(describe(r)), 6)
    end
  end
  mv.kinds[i] = kind
  return kind
end

-- Adds the hit at offset o, with other, to the collisions, once per other shape: a
-- response from the hit's slots plus other, type and (x, y), where the shape was when it
-- met the other. The collision tables already in the list are reused.
local function report(self, mv, o, other, kind, x, y)
  local buf, reported = mv.buf, mv.reported
  local i = slotOf(mv, other)
  if reported[i] then
    return
  end
  reported[i] = true
  local cols, n = mv.cols, mv.ncols + 1
  local c = cols[n]
  if type(c) ~= "table" then
    local spare = self.scratch.spare
    local ns = #spare
    if ns > 0 then
      c, spare[ns] = spare[ns], nil
    else
      c = {}
    end
    cols[n] = c
  end
  mv.ncols = n
  c.a, c.b, c.other, c.type, c.x, c.y = mv.shape, other, other, kind, x, y
  self.hash:response(c, buf[o + HIT_OVERLAP], buf[o + HIT_NX], buf[o + HIT_NY],
    buf[o + HIT_AINB] ~= 0, buf[o + HIT_BINA] ~= 0)
end

-- Step 1 of a move: the first of the n hits (in time order) that the filter does not
-- ignore or let cross: its offset in the buffer, kind and other shape, or nil. The shapes
-- met are listed in mv.others (1 to n/stride) as the buffer names them. When the filter
-- had to be asked (it may have changed the world: moved a shape into the path, removed
-- one) or a shape met has left the world, the sweep is stale: returns false then, for the
-- move to sweep again (the answers are kept, so each other shape is asked once).
local function firstBlock(self, mv, n)
  local buf, token, kinds, others = mv.buf, self.token, mv.kinds, mv.others
  local changes = self.changes
  local asked = false
  if n > mv.nothers then
    mv.nothers = n
  end
  for k = 1, n do
    local o = (k - 1) * HIT_STRIDE
    local other = buf[o + HIT_OTHER]
    if other == nil or not token[other] then
      return false
    end
    others[k] = other
    local i = slotOf(mv, other)
    local kind = kinds[i]
    if kind == nil then
      kind = moveType(self, mv, other, i)
      -- (the default filter and no setFilter: no code of the game ran, nothing changed)
      asked = asked or mv.filter ~= defaultMoveFilter or self.filter ~= nil
    end
    if kind and kind ~= "cross" then
      if asked or self.changes ~= changes then
        return false
      end
      return o, kind, other
    end
  end
  if asked or self.changes ~= changes then
    return false
  end
  return nil
end

-- Reports the hits before offset last (or all n) that the filter let cross.
local function reportCrossed(self, mv, last, x, y)
  local buf, kinds, others = mv.buf, mv.kinds, mv.others
  for k = 1, last / HIT_STRIDE do
    local o = (k - 1) * HIT_STRIDE
    local other = others[k]
    if kinds[slotOf(mv, other)] == "cross" then
      report(self, mv, o, other, "cross", x + buf[o + HIT_MX], y + buf[o + HIT_MY])
    end
  end
end

-- Step 2: the response to the hit at o. A shape overlapping at the start is pushed out by
-- the minimum translation, its motion kept; otherwise it advances to the touch, which uses
-- up that much of the motion (vx, vy). The shape moves before anything is reported (a
-- report allocates, and a finalizer may then change the world). Returns the motion left.
local function respond(self, mv, o, kind, other, vx, vy)
  local buf, shape = mv.buf, mv.shape
  local x, y = shape:position()
  if buf[o + HIT_OVERLAPPING] ~= 0 then
    local depth = buf[o + HIT_OVERLAP]
    shape:move(-buf[o + HIT_NX] * depth, -buf[o + HIT_NY] * depth)
    reportCrossed(self, mv, o, x, y)
    report(self, mv, o, other, kind, x, y)
    return vx, vy
  end
  local mx, my = buf[o + HIT_MX], buf[o + HIT_MY]
  local x1, y1 = x, y
  if mx ~= 0 or my ~= 0 then
    shape:move(mx, my)
    mv.npinned = 0 -- the surfaces pressed so far are behind, no longer pinning
    x1, y1 = shape:position()
  end
  reportCrossed(self, mv, o, x, y)
  report(self, mv, o, other, kind, x1, y1)
  return vx - mx, vy - my
end

-- Step 3: removes the part of the motion that presses into the surface met, of normal
-- (nx, ny): all of it for "touch"; for "slide" the part along the normal, and the rest too
-- when that still presses into a surface met before (wedged between two surfaces).
local function unpress(mv, kind, nx, ny, vx, vy)
  if kind == "touch" then
    return 0, 0
  end
  local d = vx * nx + vy * ny
  if d > 0 then
    vx, vy = vx - d * nx, vy - d * ny
  end
  local pinned, np = mv.pinned, mv.npinned
  local eps = PINNED_EPS * sqrt(vx * vx + vy * vy)
  for p = 1, np, 2 do
    if vx * pinned[p] + vy * pinned[p + 1] > eps then
      vx, vy = 0, 0
      break
    end
  end
  pinned[np + 1], pinned[np + 2] = nx, ny
  mv.npinned = np + 2
  return vx, vy
end

-- The rounds of sweeps a move may make for its filters (each asks at least one shape not
-- asked before, or follows a change of the world): past that it stops where it is.
local MAX_MOVE_ROUNDS = 64

-- The motion of a move, run under pcall by World:move. The sweep is made again after any
-- call out (the filters, which may change the world) and whenever the world changed under
-- it, so that the motion always follows a sweep of the world as it is. A moving shape
-- removed from the world (by a filter) stops there.
local function moveLoop(self, mv, vx, vy)
  local hash, buf, shape, token = self.hash, mv.buf, mv.shape, self.token
  local steps, rounds = 0, 0
  while steps < MAX_MOVE_STEPS and rounds < MAX_MOVE_ROUNDS do
    if not token[shape] then
      return
    end
    local changes = self.changes
    local n = hash:sweep(shape, vx, vy, buf)
    local o, kind, other
    if n > 0 then -- (most moves meet nothing: no call then)
      o, kind, other = firstBlock(self, mv, n)
    end
    if o == false or self.changes ~= changes then
      rounds = rounds + 1
    elseif o == nil then
      local x, y = shape:position()
      if vx ~= 0 or vy ~= 0 then
        shape:move(vx, vy)
      end
      if n > 0 then
        reportCrossed(self, mv, n * HIT_STRIDE, x, y)
      end
      return
    else
      vx, vy = respond(self, mv, o, kind, other, vx, vy)
      vx, vy = unpress(mv, kind, buf[o + HIT_NX], buf[o + HIT_NY], vx, vy)
      steps = steps + 1
    end
  end
end

--- world:move(shape, dx, dy [, filter] [, cols]) -> x, y, collisions
-- Moves the shape by (dx, dy), resolving against what it meets on the way (continuous:
-- nothing is tunnelled through, whatever the speed). filter(shape, other) answers per other
-- shape: "slide" (the default: stop at the contact and slide along the surface for the rest
-- of the motion), "touch" (stop there), "cross" (pass through, but report it) or nil
-- (ignore). Shapes the categories, masks or setFilter keep apart are ignored, and a static
-- shape moved ignores the other static ones. A shape that starts overlapping a "slide" or
-- "touch" shape is first pushed out by the minimum translation. Returns the final position
-- and the list of collisions in the order they happened, each other shape once: a response
-- (a = shape, b = other, overlap, normal from the shape toward the other, mtv, aInB, bInA)
-- plus other, type, and x, y: where the shape was when it met the other. A contact met on
-- the way has overlap 0. A cols table given is filled and returned instead of a new list,
-- its collision tables reused (those it had past the count too, by later moves).
-- The filters (this one and setFilter's) may add, remove and move shapes: the move sweeps
-- again after each answer, so it stops at a shape put in its way; if the moving shape
-- leaves the world, the move ends there. An error in a filter undoes the move (the shape
-- goes back where it was; what the filter did itself stays) and propagates.
function World:move(shape, dx, dy, a, b)
  checkMember(self, "move", 1, shape)
  dx = checkCoord("move", 2, dx)
  dy = checkCoord("move", 3, dy)
  local filter, cols = trailing("move", 4, a, b)
  local x0, y0 = shape:position()
  checkCoord("move", 2, x0 + dx) -- where it could end, or it would fail halfway
  checkCoord("move", 3, y0 + dy)
  filter = filter or defaultMoveFilter
  local mv = takeMoveState(self, shape, filter, cols or {})
  if filter == defaultMoveFilter and self.filter == nil then
    -- no code of the game runs in this move, so no filter error to undo: no pcall, which
    -- LuaJIT does not compile (the level's frame took twice as long under it)
    moveLoop(self, mv, dx, dy)
  else
    local ok, err = pcall(moveLoop, self, mv, dx, dy)
    if not ok then -- (the state is dropped, not reused half-done)
      shape:moveTo(x0, y0)
      error(err, 0)
    end
  end
  cols = mv.cols
  local spare = self.scratch.spare
  for i = #cols, mv.ncols + 1, -1 do -- kept for the next move that needs one
    local c = cols[i]
    if type(c) == "table" then
      c.a, c.b, c.other = false, false, false
      spare[#spare + 1] = c
    end
    cols[i] = nil
  end
  releaseMoveState(self, mv)
  local x, y = shape:position()
  return x, y, cols
end

return { new = new, World = World }
