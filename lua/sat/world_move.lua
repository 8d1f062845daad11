--- sat.world_move: world:move, the movement rules: the sweeps (C), the filter's answers and
-- the responses.
-- Part of sat.world (lua/sat/world.lua); requires nothing of the world but its checks.
--
-- A move sweeps the shape along its motion (hash:sweep, in C: every shape met, in time
-- order), asks the filter what each shape met is to it (a response's name, once per move
-- and shape), stops at the first contact whose response stops the shape, lets that response
-- decide what is left of the motion, and sweeps again from there, at most MAX_MOVE_STEPS
-- times.
local check = require("sat.world_check")

local sqrt = math.sqrt
local error, pcall = error, pcall
local worlds, badSelf = check.worlds, check.badSelf
local checkMember, checkCoord = check.checkMember, check.checkCoord
local trailing, describe, allowed = check.trailing, check.describe, check.allowed
local checkResult = check.checkResult

local M = {}

-- A move resolves at most this many contacts; past that the rest of the motion is dropped
-- (only reached when squeezed between shapes).
local MAX_MOVE_STEPS = 16
-- The rounds of sweeps a move may make for its filters (each asks at least one shape not
-- asked before, or follows a change of the world): past that it stops where it is.
local MAX_MOVE_ROUNDS = 64
-- A motion pressing into a surface we already touch, by more than this fraction of its
-- length, is blocked (two surfaces pin the shape in 2D).
local PINNED_EPS = 1e-9

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

------------------------------------------------------------------------------------------
-- responses
--
-- What a move does at a contact, by the name the filter answers for the other shape. A
-- response is a table, either { passes = true }: the shape goes through the other (the
-- contact is reported where the shape met it; the motion goes on), or { resolve = fn }: the
-- shape stops at the contact (or, overlapping at the start, is pushed out), and then
-- fn(mv, o, vx, vy) -> vx, vy gives the motion it carries on with, from the motion left
-- (vx, vy) and the hit at offset o of the move's sweep buffer mv.buf (its normal at
-- o + HIT_NX, o + HIT_NY). The built-in responses are written so, as a game's own would be.

-- "slide": the part of the motion along the normal is removed, and the rest too when that
-- still presses into a surface met before (wedged between two surfaces).
local function slide(mv, o, vx, vy)
  local buf = mv.buf
  local nx, ny = buf[o + HIT_NX], buf[o + HIT_NY]
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

-- "touch": the shape stops there.
local function touch()
  return 0, 0
end

local RESPONSES = {
  slide = { resolve = slide },
  touch = { resolve = touch },
  cross = { passes = true }, -- "cross": through, reported
}

local function defaultMoveFilter()
  return "slide"
end

------------------------------------------------------------------------------------------
-- the move's state

-- What one move works with, reused move after move: the sweep buffer, the other shapes met
-- (seen[1..nseen], searched in order: a move meets a few, and a table keyed by shape would
-- allocate as the shapes met change) with the filter's answer for each and whether it was
-- reported, and the normals of the surfaces the motion was turned along (pinned).
function M.newMoveState()
  return { shape = false, filter = false, cols = false, ncols = 0, mark = 0, buf = {},
           seen = {}, kinds = {}, reported = {}, nseen = 0, pinned = {}, npinned = 0, others = {},
           nothers = 0 }
end

-- Takes the world's move state (or, for a move made from inside a move's filter, a new one).
local function takeMoveState(self, shape, filter, cols)
  local scratch = self.scratch
  local mv = scratch.move
  if mv then
    scratch.move = false
  else
    mv = M.newMoveState()
  end
  mv.shape, mv.filter, mv.cols, mv.ncols = shape, filter, cols, 0
  mv.mark = self.hash:mark()
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

------------------------------------------------------------------------------------------
-- the collisions

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
  local n = mv.ncols + 1
  -- (the table there unless this move filled it already, else one of the world's pool)
  local c = self.hash:claim(mv.cols, n, mv.mark)
  mv.ncols = n
  c.a, c.b, c.other, c.type, c.x, c.y = mv.shape, other, other, kind, x, y
  self.hash:response(c, buf[o + HIT_OVERLAP], buf[o + HIT_NX], buf[o + HIT_NY],
    buf[o + HIT_AINB] ~= 0, buf[o + HIT_BINA] ~= 0)
end

-- Reports the hits before offset last (or all n) whose response let the shape through,
-- with the shape at (x, y) when the sweep began.
local function reportCrossed(self, mv, last, x, y)
  local buf, kinds, others = mv.buf, mv.kinds, mv.others
  for k = 1, last / HIT_STRIDE do
    local o = (k - 1) * HIT_STRIDE
    local other = others[k]
    local kind = kinds[slotOf(mv, other)]
    if kind and RESPONSES[kind].passes then
      report(self, mv, o, other, kind, x + buf[o + HIT_MX], y + buf[o + HIT_MY])
    end
  end
end

------------------------------------------------------------------------------------------
-- the motion

-- The move filter's answer for other (at slot i), asked once per move and other: false
-- (ignore) or the name of a response. Run under move's pcall: its error is raised at
-- level 6 (moveType, firstBlock, moveLoop, pcall, move), the caller of move.
local function moveType(self, mv, other, i)
  local shape = mv.shape
  local kind = false
  if allowed(self, shape, other) then
    local r = mv.filter(shape, other)
    if RESPONSES[r] then
      kind = r
    elseif r ~= nil and r ~= false then
      error(("move: the filter returned %s; expected \"slide\", \"touch\", \"cross\" or nil")
        :format(describe(r)), 6)
    end
  end
  mv.kinds[i] = kind
  return kind
end

-- Step 1 of a move: the first of the n hits (in time order) that the filter does not
-- ignore and whose response stops the shape: its offset in the buffer, kind and other
-- shape, or nil. The shapes met are listed in mv.others (1 to n/stride) as the buffer
-- names them. When the filter had to be asked (it may have changed the world: moved a
-- shape into the path, removed one) or a shape met has left the world, the sweep is stale:
-- returns false then, for the move to sweep again (the answers are kept, so each other
-- shape is asked once).
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
    if kind and not RESPONSES[kind].passes then
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

-- Step 2: to the contact at o. A shape overlapping at the start is pushed out by the
-- minimum translation, its motion kept; otherwise it advances to the touch, which uses up
-- that much of the motion (vx, vy). The shape moves before anything is reported (a report
-- allocates, and a finalizer may then change the world). Returns the motion left, which
-- the response then turns (step 3).
local function advance(self, mv, o, kind, other, vx, vy)
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

-- The motion of a move, run under pcall by move when code of the game may run. The sweep
-- is made again after any call out (the filters, which may change the world) and whenever
-- the world changed under it, so that the motion always follows a sweep of the world as it
-- is. A moving shape removed from the world (by a filter) stops there. When nothing stops
-- the motion left, the shape makes all of it and the shapes it went through are reported
-- (inline: most moves end so, and a call costs in PUC Lua).
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
      vx, vy = advance(self, mv, o, kind, other, vx, vy)
      vx, vy = RESPONSES[kind].resolve(mv, o, vx, vy)
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
function M.move(self, shape, dx, dy, a, b)
  if not worlds[self] then badSelf("move", self) end
  checkMember(self, "move", 1, shape)
  dx = checkCoord("move", 2, dx)
  dy = checkCoord("move", 3, dy)
  local filter, cols = trailing("move", 4, a, b)
  if cols ~= nil then
    checkResult("move", b ~= nil and 5 or 4, cols)
  end
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
  self.hash:trim(cols, mv.ncols, mv.mark) -- (the tables past the count go to the pool)
  releaseMoveState(self, mv)
  local x, y = shape:position()
  return x, y, cols
end

-- A LuaJIT that fuses multiply-adds runs this file interpreted (the move's slide would round
-- otherwise than the C core: sat.pure.jit says why); elsewhere nothing changes.
require("sat.pure.jit").unfuse({ M })

return M
