--- sat.world: shapes in a spatial hash, with queries, enter/stay/exit callbacks and
-- movement that slides along what it meets.
--
--   local world = sat.world(64)
--   world:add(player); world:add(wall)
--   local x, y, cols = world:move(player, 5, 0)       -- slides along the wall
--   function player:onEnter(other, r) ... end         -- r.a == player
--   world:on("exit", function(a, b) ... end)
--   world:step()                                      -- fires enter / stay / exit
--
-- The broad phase, the pair tests and the swept tests run in C (core.newHash). This file
-- keeps what is Lua's business: which pairs are in contact, the callbacks, the filters and
-- the movement rules. Shapes moved, rotated or scaled with their own methods are picked
-- up by the hash on its own (each shape counts its changes), so nothing else is needed.
-- Everything comes out in a deterministic order: insertion order into the world (a pair
-- (a, b) has a added first), never `pairs` order.
local core = require("sat.core")

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

local ENTER, STAY = 1, 2
local EVENTS = { enter = true, stay = true, exit = true }
local MOVE_TYPES = { slide = true, touch = true, cross = true }

local isShape = core.isShape

------------------------------------------------------------------------------------------
-- argument checks

local function typeName(v)
  if isShape(v) then
    return v:kind()
  end
  return type(v)
end

local function argError(fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

local function checkShape(fname, n, v)
  if not isShape(v) then
    argError(fname, n, "shape expected, got " .. typeName(v))
  end
end

local function checkNumber(fname, n, v)
  if type(v) ~= "number" then
    argError(fname, n, "number expected, got " .. typeName(v))
  end
  if v ~= v or v == math.huge or v == -math.huge then
    argError(fname, n, "finite number expected, got " .. tostring(v))
  end
end

-- The core's range for coordinates and sizes (set by the first world: the hash tells).
local MAX_COORD, RANGE_MESSAGE = math.huge, "out of range"

-- A coordinate or size going into the core: a finite number within its range.
local function checkCoord(fname, n, v)
  checkNumber(fname, n, v)
  if v > MAX_COORD or v < -MAX_COORD then
    argError(fname, n, RANGE_MESSAGE)
  end
end

local function checkOptFunction(fname, n, v)
  if v ~= nil and type(v) ~= "function" then
    argError(fname, n, "function expected, got " .. typeName(v))
  end
end

local function checkMember(self, fname, n, shape)
  checkShape(fname, n, shape)
  if not self.token[shape] then
    argError(fname, n, "shape is not in this world")
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
-- contacts: a record per colliding pair, found from either shape

-- contacts[a][b] == contacts[b][a] == rec; rec.a was added first.
local function link(contacts, a, b, rec)
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
end

local function unlink(contacts, rec)
  rec.alive = false
  local ca, cb = contacts[rec.a], contacts[rec.b]
  if ca then
    ca[rec.b] = nil
  end
  if cb then
    cb[rec.a] = nil
  end
end

local function byTokens(p, q)
  if p.ta ~= q.ta then
    return p.ta < q.ta
  end
  return p.tb < q.tb
end

-- The response seen from b, filled from pair k of the last step.
local function responseB(self, rec, k)
  local r = rec.rB
  if not r then
    r = { a = rec.b, b = rec.a }
    rec.rB = r
  end
  self.hash:fill(r, k, true)
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
-- may remove one of the two, which ends the pair with its exit). One C call fills the
-- response and looks up both shapes' handlers (as the event begins).
local function callPair(self, rec, k, event, field)
  local a, b, rA = rec.a, rec.b, rec.rA
  local fa, fb = self.hash:event(rA, k, a, b, field)
  local h = self.handlers[event]
  if h then
    h(a, b, rA)
    if not rec.alive then
      return
    end
  end
  if fa then
    fa(a, b, rA)
    if not rec.alive then
      return
    end
  end
  if fb then
    fb(b, a, responseB(self, rec, k))
  end
end

-- Fires the events prepared by step; run under pcall. Each event changes the contact
-- state just before its handlers run, so an error leaves every pair either updated and
-- told, or untouched (told next step).
local function fire(self)
  local token, contacts = self.token, self.contacts
  local exits = self.exits
  for i = 1, self.nexits do
    local rec = exits[i]
    if rec.alive then
      unlink(contacts, rec)
      callExit(self, rec)
    end
  end
  local kinds, recs, ks, as, bs, tas, tbs =
    self.evKind, self.evRec, self.evK, self.evA, self.evB, self.evTa, self.evTb
  local frame = self.frame
  for i = 1, self.nevents do
    if kinds[i] == STAY then
      local rec = recs[i]
      if rec.alive then -- (a removal kills the contacts of the shape removed)
        callPair(self, rec, ks[i], "stay", "onStay")
      end
    else
      local a, b = as[i], bs[i]
      -- both still in the world, and the same memberships as when the step began
      if token[a] == tas[i] and token[b] == tbs[i] then
        local rec = { a = a, b = b, ta = tas[i], tb = tbs[i], rA = { a = a, b = b }, rB = false,
                      alive = true, seen = frame }
        recs[i] = rec
        link(contacts, a, b, rec)
        callPair(self, rec, ks[i], "enter", "onEnter")
      end
    end
  end
end

------------------------------------------------------------------------------------------
-- the world

local World = {}
World.__index = World

--- sat.world([cellSize]) -> world. cellSize: the side of a hash cell, in world units
-- (default 64; about the size of a typical shape is best).
local function new(cellSize)
  if cellSize == nil then
    cellSize = DEFAULT_CELL_SIZE
  else
    checkNumber("world", 1, cellSize)
    if cellSize <= 0 then
      argError("world", 1, "cell size must be > 0")
    end
  end
  local hash = core.newHash(cellSize)
  MAX_COORD, RANGE_MESSAGE = hash:limits()
  return setmetatable({
    hash = hash,
    token = {},          -- shape -> its insertion number (membership)
    nextToken = 0,
    contacts = {},       -- shape -> { other -> contact record }
    list = {},           -- contact records, in pair order (dead ones until the next step)
    handlers = {},       -- event -> function
    filter = nil,        -- setFilter's function
    stepping = false,
    frame = 0,
    -- reused buffers of step
    pairA = {}, pairB = {}, exits = {}, nexits = 0,
    evKind = {}, evRec = {}, evK = {}, evA = {}, evB = {}, evTa = {}, evTb = {}, nevents = 0,
    spare = {},
    sweepBuf = {}, moving = false,
  }, World)
end

function World:__tostring()
  return ("world(%d shapes, cell %s)"):format(self.hash:count(), tostring(self.hash:cellSize()))
end

--- world:add(shape) -> shape
function World:add(shape)
  checkShape("add", 1, shape)
  if self.token[shape] then
    argError("add", 1, "shape is already in this world")
  end
  self.hash:add(shape)
  local t = self.nextToken + 1
  self.nextToken = t
  self.token[shape] = t
  return shape
end

--- world:remove(shape) -> shape. Every pair the shape was in gets its exit (in the order
-- the other shapes were added), after the shape has left.
function World:remove(shape)
  checkMember(self, "remove", 1, shape)
  self.hash:remove(shape)
  self.token[shape] = nil
  local contacts = self.contacts
  local mine = contacts[shape]
  contacts[shape] = nil
  if not mine then
    return shape
  end
  local ended = {}
  for _, rec in pairs(mine) do
    ended[#ended + 1] = rec
  end
  sort(ended, byTokens) -- `pairs` order never shows
  for i = 1, #ended do
    unlink(contacts, ended[i])
  end
  for i = 1, #ended do
    callExit(self, ended[i])
  end
  return shape
end

--- world:has(shape) -> boolean
function World:has(shape)
  return self.token[shape] ~= nil
end

--- world:shapes() -> list of the shapes, in insertion order
function World:shapes()
  return self.hash:shapes()
end

--- world:count() -> number of shapes
function World:count()
  return self.hash:count()
end

--- world:cellSize() -> the hash's cell size
function World:cellSize()
  return self.hash:cellSize()
end

--- world:cells() -> flat list cx, cy, count, ... of the cells in use (cell coordinates:
-- cell (cx, cy) covers [cx, cx + 1) * cellSize by [cy, cy + 1) * cellSize), by row then
-- column. For debugging views (sat.debug).
function World:cells()
  return self.hash:cells()
end

------------------------------------------------------------------------------------------
-- queries: exact geometry, results in insertion order (segment hits along the segment);
-- an optional filter(shape) -> truthy keeps a shape.

--- world:queryPoint(x, y [, filter]) -> shapes containing the point (boundary included)
function World:queryPoint(x, y, filter)
  checkCoord("queryPoint", 1, x)
  checkCoord("queryPoint", 2, y)
  checkOptFunction("queryPoint", 3, filter)
  return filterList(self.hash:queryPoint(x, y), filter)
end

--- world:queryRect(x, y, w, h [, filter]) -> shapes overlapping or touching the rectangle
-- with top-left corner (x, y) and size (w, h), w and h >= 0
function World:queryRect(x, y, w, h, filter)
  checkCoord("queryRect", 1, x)
  checkCoord("queryRect", 2, y)
  checkCoord("queryRect", 3, w)
  checkCoord("queryRect", 4, h)
  if w < 0 then
    argError("queryRect", 3, "width must be >= 0")
  end
  if h < 0 then
    argError("queryRect", 4, "height must be >= 0")
  end
  checkOptFunction("queryRect", 5, filter)
  return filterList(self.hash:queryRect(x, y, w, h), filter)
end

--- world:querySegment(x1, y1, x2, y2 [, filter]) -> list of hits sorted along the segment
-- (ties in insertion order), each { shape =, t =, x =, y =, nx =, ny = }: where the
-- segment enters the shape, as a fraction t in [0, 1] and as a point, and the shape's
-- surface normal there. A segment starting inside a shape hits it at t = 0.
function World:querySegment(x1, y1, x2, y2, filter)
  checkCoord("querySegment", 1, x1)
  checkCoord("querySegment", 2, y1)
  checkCoord("querySegment", 3, x2)
  checkCoord("querySegment", 4, y2)
  checkOptFunction("querySegment", 5, filter)
  return filterList(self.hash:querySegment(x1, y1, x2, y2), filter, "shape")
end

--- world:queryShape(shape [, filter]) -> shapes overlapping or touching it (not itself).
-- The shape need not be in the world.
function World:queryShape(shape, filter)
  checkShape("queryShape", 1, shape)
  checkOptFunction("queryShape", 2, filter)
  return filterList(self.hash:queryShape(shape), filter)
end

--- world:neighbors(shape [, filter]) -> the broad phase's candidates: shapes whose bounding
-- boxes overlap or touch the shape's (not itself)
function World:neighbors(shape, filter)
  checkShape("neighbors", 1, shape)
  checkOptFunction("neighbors", 2, filter)
  return filterList(self.hash:neighbors(shape), filter)
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

--- world:collisions(shape) -> list of responses, one per shape it collides with, in
-- insertion order: r.a is the shape, r.b the other, the normal points toward the other.
-- Filtered like step (category and mask, then setFilter). The shape need not be in the world.
function World:collisions(shape)
  checkShape("collisions", 1, shape)
  local list = self.hash:collisions(shape, true)
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
    argError("on", 1, "event must be \"enter\", \"stay\" or \"exit\", got " .. tostring(event))
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

-- After an error in a handler: the records still alive (told or not), in pair order.
local function rebuildAfterError(self, old, nold)
  local list, n, seen = self.spare, 0, {}
  for i = 1, nold do
    local rec = old[i]
    if rec.alive and not seen[rec] then
      seen[rec] = true
      n = n + 1
      list[n] = rec
    end
  end
  local recs = self.evRec
  for i = 1, self.nevents do
    local rec = recs[i]
    if rec and rec.alive and not seen[rec] then
      seen[rec] = true
      n = n + 1
      list[n] = rec
    end
  end
  for i = n + 1, #list do
    list[i] = nil
  end
  sort(list, byTokens)
  return list
end

--- world:step() -> number of colliding pairs. Finds every colliding pair (category and mask
-- first, then setFilter) and fires, in this order: "exit" for each pair that stopped
-- colliding (in pair order), then "enter" or "stay" for each colliding pair (pair order:
-- a added before b, pairs sorted by a then b). Each event calls the world handler, then the
-- shapes' own onEnter/onStay/onExit (a's, then b's with the response seen from b).
-- The events describe the world as it was when step began; handlers may add, remove and
-- move shapes (a pair whose shape is removed gets its exit at once and no further event).
function World:step()
  if self.stepping then
    error("step: cannot step the world from inside one of its handlers", 2)
  end
  local A, B = self.pairA, self.pairB
  local n = self.hash:step(A, B)
  local frame = self.frame + 1
  self.frame = frame
  local filter, contacts, token = self.filter, self.contacts, self.token
  local kinds, recs, ks, as, bs, tas, tbs =
    self.evKind, self.evRec, self.evK, self.evA, self.evB, self.evTa, self.evTb
  local ne = 0
  for k = 1, n do
    local a, b = A[k], B[k]
    if filter == nil or filter(a, b) ~= false then
      ne = ne + 1
      local ca = contacts[a]
      local rec = ca and ca[b]
      ks[ne] = k
      if rec then
        rec.seen = frame
        kinds[ne], recs[ne] = STAY, rec
      else
        -- an enter also needs the memberships, to tell if they change before it fires
        kinds[ne], recs[ne] = ENTER, false
        as[ne], bs[ne], tas[ne], tbs[ne] = a, b, token[a], token[b]
      end
    end
  end
  for i = ne + 1, self.nevents do
    as[i], bs[i], recs[i] = nil, nil, nil
  end
  self.nevents = ne
  local old, exits, nx = self.list, self.exits, 0
  local nold = #old
  for i = 1, nold do
    local rec = old[i]
    if rec.alive and rec.seen ~= frame then
      nx = nx + 1
      exits[nx] = rec
    end
  end
  for i = nx + 1, self.nexits do
    exits[i] = nil
  end
  self.nexits = nx

  self.stepping = true
  local ok, err = pcall(fire, self)
  self.stepping = false

  for i = 1, nx do
    exits[i] = nil
  end
  self.nexits = 0
  local list
  if ok then
    list = self.spare
    local m = 0
    for i = 1, ne do
      local rec = recs[i]
      if rec and rec.alive then
        m = m + 1
        list[m] = rec
      end
    end
    for i = m + 1, #list do
      list[i] = nil
    end
  else
    list = rebuildAfterError(self, old, nold)
  end
  self.list, self.spare = list, old
  for i = 1, nold do
    old[i] = nil
  end
  if not ok then
    error(err, 0)
  end
  return ne
end

------------------------------------------------------------------------------------------
-- movement

local function defaultMoveFilter()
  return "slide"
end

-- The move filter's answer for other (asked once per move and other).
local function moveType(self, shape, other, filter, memo)
  local kind = memo[other]
  if kind == nil then
    if not allowed(self, shape, other) then
      kind = false
    else
      local r = filter(shape, other)
      if r == nil or r == false then
        kind = false
      elseif MOVE_TYPES[r] then
        kind = r
      else
        error(("move: the filter returned %s; expected \"slide\", \"touch\", \"cross\" or nil")
          :format(tostring(r)), 3)
      end
    end
    memo[other] = kind
  end
  return kind
end

local function record(self, cols, met, shape, other, kind, x, y, overlap, nx, ny, aInB, bInA)
  if met[other] then
    return
  end
  met[other] = true
  local c = { a = shape, b = other, other = other, type = kind, x = x, y = y }
  self.hash:response(c, overlap, nx, ny, aInB, bInA)
  cols[#cols + 1] = c
end

--- world:move(shape, dx, dy [, filter]) -> x, y, collisions
-- Moves the shape by (dx, dy), resolving against what it meets on the way (continuous:
-- nothing is tunnelled through, whatever the speed). filter(shape, other) answers per other
-- shape: "slide" (the default: stop at the contact and slide along the surface for the rest
-- of the motion), "touch" (stop there), "cross" (pass through, but report it) or nil
-- (ignore). Shapes the categories, masks or setFilter keep apart are ignored. A shape that
-- starts overlapping a "slide" or "touch" shape is first pushed out by the minimum
-- translation. Returns the final position and the list of collisions in the order they
-- happened, each other shape once: a response (a = shape, b = other, overlap, normal from the
-- shape toward the other, mtv, aInB, bInA) plus other, type, and x, y: where the shape was
-- when it met the other. A contact met on the way has overlap 0.
function World:move(shape, dx, dy, filter)
  checkMember(self, "move", 1, shape)
  checkCoord("move", 2, dx)
  checkCoord("move", 3, dy)
  checkOptFunction("move", 4, filter)
  do -- where the move could end must be in range, or it would fail halfway
    local x, y = shape:position()
    checkCoord("move", 2, x + dx)
    checkCoord("move", 3, y + dy)
  end
  filter = filter or defaultMoveFilter
  local hash, buf = self.hash, self.sweepBuf
  if self.moving then
    buf = {} -- a move from inside a move's filter
  end
  self.moving = true
  local cols, met, memo = {}, {}, {}
  local pinned, npinned = {}, 0
  local vx, vy = dx, dy
  local sync = true
  for _ = 1, MAX_MOVE_STEPS do
    local n = hash:sweep(shape, vx, vy, buf, sync)
    sync = false -- only this shape changes from here on
    local blocked = false
    for k = 0, n - 1 do
      local o = k * 10
      local other = buf[o + 1]
      local kind = moveType(self, shape, other, filter, memo)
      if kind then
        local mx, my, nx, ny, overlap, overlapping =
          buf[o + 3], buf[o + 4], buf[o + 5], buf[o + 6], buf[o + 7], buf[o + 8]
        if kind == "cross" then
          local x, y = shape:position()
          record(self, cols, met, shape, other, kind, x + mx, y + my, overlap, nx, ny,
            buf[o + 9], buf[o + 10])
        else
          local x, y = shape:position()
          if overlapping then
            record(self, cols, met, shape, other, kind, x, y, overlap, nx, ny, buf[o + 9],
              buf[o + 10])
            shape:move(-nx * overlap, -ny * overlap)
          else
            if mx ~= 0 or my ~= 0 then
              shape:move(mx, my)
              npinned = 0
              x, y = shape:position()
            end
            record(self, cols, met, shape, other, kind, x, y, 0, nx, ny, false, false)
            vx, vy = vx - mx, vy - my
          end
          if kind == "touch" then
            vx, vy = 0, 0
          else
            local d = vx * nx + vy * ny
            if d > 0 then
              vx, vy = vx - d * nx, vy - d * ny
            end
            local eps = PINNED_EPS * sqrt(vx * vx + vy * vy)
            for p = 1, npinned, 2 do
              if vx * pinned[p] + vy * pinned[p + 1] > eps then
                vx, vy = 0, 0 -- wedged between two surfaces
                break
              end
            end
            pinned[npinned + 1], pinned[npinned + 2] = nx, ny
            npinned = npinned + 2
          end
          blocked = true
          break
        end
      end
    end
    if not blocked then
      if vx ~= 0 or vy ~= 0 then
        shape:move(vx, vy)
      end
      break
    end
  end
  for i = 1, #buf do
    buf[i] = nil
  end
  if buf == self.sweepBuf then
    self.moving = false
  end
  local x, y = shape:position()
  return x, y, cols
end

return { new = new, World = World }
