--- sat.world_move: movement in the world: world:move and its dry run world:check, the
-- responses (built-in and the game's own, world:addResponse), one-way shapes, the shape
-- cast world:queryCast, and the ground rules of a mover (world_mover.lua).
-- Part of sat.world (lua/sat/world.lua); requires nothing of the world but its checks.
--
-- A move sweeps the shape along its motion (hash:sweep, in C: every shape met, in time
-- order), asks the filter what each shape met is to it (a response's name, once per move
-- and shape), and goes through the hits in time order: a one-way shape met the wrong way is
-- passed silently; otherwise the response decides, at the contact: pass through (the shape
-- goes on as if the other were not there, and ignores it for the rest of the move), or stop
-- there and carry on with the motion it returns. The shape moves to the first contact that
-- stops it and sweeps again from there with the motion left, at most MAX_MOVE_STEPS times.
--
-- The moving body: the shape itself (move), or a copy of it with its identity in no hash
-- (check: core.ghost), swept as the shape and moved instead of it, so that a dry run makes
-- the very same sweeps, and the shape and the world stay as they were.
local core = require("sat.backend").core
local check = require("sat.world_check")

local sqrt = math.sqrt
local type, error, pcall, tostring = type, error, pcall, tostring
local isVec, ghostOf, testPair = core.isVec, core.ghost, core.test
local worlds, badSelf = check.worlds, check.badSelf
local checkMember, checkShape, checkCoord = check.checkMember, check.checkShape, check.checkCoord
local checkCoordBelow = check.checkCoordBelow
local trailing, describe, allowed, argError = check.trailing, check.describe, check.allowed,
  check.argError
local checkResult, limits = check.checkResult, check.limits

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

-- The sweep buffer hash:sweep fills (h_sweep, in the C binding, writes this layout): slot k
-- of hit i is buf[(i - 1) * HIT_STRIDE + k], hits in the order met, every slot a number
-- (flags 1 or 0, parts from 1, 0 for none) but the shape met. (A move clears those slots
-- when it ends: the buffer keeps no shape alive.)
local HIT_OTHER = 1       -- the shape met
local HIT_T = 2           -- time of the first touch, in [0, 1]
local HIT_MX = 3          -- the move to the first touch (exact; 0 when overlapping)
local HIT_MY = 4
local HIT_NX = 5          -- the unit normal, from the moving shape toward the other
local HIT_NY = 6
local HIT_OVERLAP = 7     -- the depth when overlapping at the start, else 0
local HIT_OVERLAPPING = 8 -- overlapping at the start (pushed out, not advanced)
local HIT_AINB = 9        -- the containment flags when overlapping, else 0
local HIT_BINA = 10
local HIT_PART = 11       -- the other's part met (a compound's), from 1; 0: none
local HIT_OWNPART = 12    -- the moving shape's own part met
local HIT_PX = 13         -- the contact point (queries only)
local HIT_PY = 14
local HIT_STRIDE = 14

-- How a shape met is passed for the rest of a move (mv.passed): let through by its response
-- (reported as crossed), or a one-way shape met the wrong way (silently).
local PASSED, SILENT = 1, 2

------------------------------------------------------------------------------------------
-- responses
--
-- What a move does at a contact, by the name the filter answers for the other shape: a
-- function fn(c) of the contact c (the move's own table, refilled for each call; see
-- world:addResponse for its fields), called when the shape meets the other, before it
-- stops there. It returns the motion to carry on with after the contact (the shape then
-- stops at the contact, or is pushed out first when it started overlapping), or nothing:
-- the shape passes through (the other is reported, and ignored for the rest of the move).
-- The built-ins are written so, as a game's own are.

-- "slide": the part of the motion along the normal is removed, and the rest too when that
-- still presses into a surface the shape stopped against since it last moved (wedged
-- between two surfaces).
local function slide(c)
  local nx, ny, vx, vy = c.nx, c.ny, c.vx, c.vy
  local d = vx * nx + vy * ny
  if d > 0 then
    vx, vy = vx - d * nx, vy - d * ny
  end
  local pressed = c.pressed
  local eps = PINNED_EPS * sqrt(vx * vx + vy * vy)
  for p = 1, 2 * c.npressed, 2 do
    if vx * pressed[p] + vy * pressed[p + 1] > eps then
      return 0, 0
    end
  end
  return vx, vy
end

-- "touch": the shape stops there.
local function touch()
  return 0, 0
end

-- "cross": through, reported.
local function cross()
  return nil
end

-- "bounce": the rest of the motion reflected about the normal (when it presses in).
local function bounce(c)
  local nx, ny, vx, vy = c.nx, c.ny, c.vx, c.vy
  local d = vx * nx + vy * ny
  if d > 0 then
    return vx - 2 * d * nx, vy - 2 * d * ny
  end
  return vx, vy
end

-- A response: its function and whether it is the library's (a game's own may change the
-- world, after which the move sweeps again).
local BUILTIN = {
  slide = { fn = slide, builtin = true },
  touch = { fn = touch, builtin = true },
  cross = { fn = cross, builtin = true },
  bounce = { fn = bounce, builtin = true },
}
local BUILTIN_NAMES = { "slide", "touch", "cross", "bounce" }

--- A world's table of responses (world.lua's new): name -> response.
function M.newResponses()
  local t = {}
  for i = 1, #BUILTIN_NAMES do
    t[BUILTIN_NAMES[i]] = BUILTIN[BUILTIN_NAMES[i]]
  end
  return t
end

local function defaultMoveFilter()
  return "slide"
end

-- The walking rules of a mover (world_mover.lua), in place of "slide" when a move has an
-- up direction: ground no steeper than the limit (its surface within the slope limit of
-- up) takes away only the part of the motion along up that presses into it, so a motion
-- along up alone (gravity) stops there and a walk keeps its pace across it and climbs it;
-- a steeper surface is a wall (the motion into it, across up, is stopped) down which the
-- shape slides, never up.
local function walk(c)
  local nx, ny, vx, vy = c.nx, c.ny, c.vx, c.vy
  local d = vx * nx + vy * ny
  if d > 0 then
    local ux, uy = c.upx, c.upy
    local g = -(nx * ux + ny * uy) -- how much the surface (its normal toward us: -n) faces up
    if g >= c.walkable then
      -- ground: the motion across up kept, and moved along up onto the surface
      local a = vx * ux + vy * uy
      local hx, hy = vx - a * ux, vy - a * uy
      local k = (hx * nx + hy * ny) / g
      vx, vy = hx + k * ux, hy + k * uy
    else
      if g > 0 then -- a steep slope: a wall first, its normal without its part along up
        local wx, wy = nx + g * ux, ny + g * uy
        local l = sqrt(wx * wx + wy * wy)
        wx, wy = wx / l, wy / l
        local dw = vx * wx + vy * wy
        if dw > 0 then
          vx, vy = vx - dw * wx, vy - dw * wy
        end
        d = vx * nx + vy * ny
      end
      if d > 0 then -- then along the surface (down it, for a slope)
        vx, vy = vx - d * nx, vy - d * ny
      end
    end
  end
  local pressed = c.pressed
  local eps = PINNED_EPS * sqrt(vx * vx + vy * vy)
  for p = 1, 2 * c.npressed, 2 do
    if vx * pressed[p] + vy * pressed[p + 1] > eps then
      return 0, 0
    end
  end
  return vx, vy
end

------------------------------------------------------------------------------------------
-- the move's state

-- What one move works with, reused move after move: the sweep buffer, the other shapes met
-- (seen[1..nseen], searched in order: a move meets a few, and a table keyed by shape would
-- allocate as the shapes met change) with, for each, the filter's answer, whether it was
-- reported, whether it is passed (passed: PASSED, reported as crossed; SILENT: a one-way shape met
-- the wrong way) and its one-way direction; the normals of the surfaces the motion was
-- turned along (pinned); the contact a response is given (c); the body the move moves.
function M.newMoveState()
  local mv = { shape = false, body = false, as = nil, ghost = false, ghost2 = false,
           ghost3 = false, filter = false,
           cols = false, ncols = 0, mark = 0, buf = {}, seen = {}, kinds = {}, reported = {},
           passed = {}, odx = {}, ody = {}, nseen = 0, pinned = {}, npinned = 0,
           others = {}, nothers = 0, err = false, upx = false, upy = 0, walkable = 0,
           ground = false, gnx = 0, gny = 0, sx = 0, sy = 0, rvx = 0, rvy = 0, k = 0,
           fetched = false,
           c = { world = false, shape = false, other = false, type = false, nx = 0, ny = 0,
                 overlap = 0, x = 0, y = 0, vx = 0, vy = 0, dx = 0, dy = 0, part = nil,
                 ownPart = nil, pressed = false, npressed = 0, upx = 0, upy = 0,
                 walkable = 0 } }
  mv.c.pressed = mv.pinned
  return mv
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
  mv.shape, mv.body, mv.filter, mv.cols, mv.ncols = shape, shape, filter, cols, 0
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
  mv.shape, mv.body, mv.filter, mv.cols = false, false, false, false
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
  mv.passed[n] = false
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
  local part, own = buf[o + HIT_PART], buf[o + HIT_OWNPART]
  if part == 0 and own == 0 then -- (no compound met: the parts left out, not checked)
    self.hash:response(c, buf[o + HIT_OVERLAP], buf[o + HIT_NX], buf[o + HIT_NY],
      buf[o + HIT_AINB] ~= 0, buf[o + HIT_BINA] ~= 0)
  else
    self.hash:response(c, buf[o + HIT_OVERLAP], buf[o + HIT_NX], buf[o + HIT_NY],
      buf[o + HIT_AINB] ~= 0, buf[o + HIT_BINA] ~= 0, part, own)
  end
end

-- Reports the hits before offset last (or all n) that the shape passed through, with the
-- shape at (x, y) when the sweep began.
local function reportCrossed(self, mv, last, x, y)
  local buf, kinds, others, passed = mv.buf, mv.kinds, mv.others, mv.passed
  for k = 1, last / HIT_STRIDE do
    local o = (k - 1) * HIT_STRIDE
    local other = others[k]
    local i = slotOf(mv, other)
    if passed[i] == PASSED then
      report(self, mv, o, other, kinds[i], x + buf[o + HIT_MX], y + buf[o + HIT_MY])
    end
  end
end

------------------------------------------------------------------------------------------
-- the motion

-- The move filter's answer for other (at slot i), asked once per move and other: false
-- (ignore) or the name of a response; and other's one-way direction, read then. A wrong
-- answer or a wrong oneway field ends the move with mv.err, which the move raises.
local function moveType(self, mv, other, i)
  local shape = mv.shape
  local kind = false
  if allowed(self, shape, other) then
    local r = mv.filter(shape, other)
    if r ~= nil and r ~= false then
      if type(r) == "string" and self.responses[r] then
        kind = r
      else
        mv.err = ("move: the filter returned %s; expected a response (\"slide\", \"touch\", " ..
          "\"cross\", \"bounce\" or a name given to addResponse) or nil"):format(describe(r))
        return false
      end
    end
  end
  mv.kinds[i] = kind
  if kind then
    local way = other.oneway
    if way ~= nil then
      if not isVec(way) or (way.x == 0 and way.y == 0) then
        mv.err = ("move: %s's oneway must be a vec other than (0, 0), got %s")
          :format(other:kind(), isVec(way) and tostring(way) or describe(way))
        return false
      end
      mv.odx[i], mv.ody[i] = way.x, way.y
    else
      mv.odx[i] = false
    end
  end
  return kind
end

-- Fills the contact c for the hit at offset o (the shape at (x, y) when the sweep began,
-- moving by (vx, vy)) and calls the response's function; what it returns goes to mv.rvx,
-- mv.rvy (not returned through the frames: LuaJIT compiles fixed results better).
local function respond(self, mv, o, other, kind, fn, x, y, vx, vy)
  -- (one field a statement: LuaJIT's compiler gives up on long multiple assignments)
  local buf, c = mv.buf, mv.c
  local nx, ny = buf[o + HIT_NX], buf[o + HIT_NY]
  c.world = self
  c.shape = mv.shape
  c.other = other
  c.type = kind
  c.nx = nx
  c.ny = ny
  local part, own = buf[o + HIT_PART], buf[o + HIT_OWNPART]
  if part == 0 then part = nil end
  if own == 0 then own = nil end
  c.part = part
  c.ownPart = own
  local np = mv.npinned
  if buf[o + HIT_OVERLAPPING] ~= 0 then
    local depth = buf[o + HIT_OVERLAP]
    c.overlap = depth
    c.x = x - nx * depth
    c.y = y - ny * depth
    c.vx = vx
    c.vy = vy
  else
    local mx, my = buf[o + HIT_MX], buf[o + HIT_MY]
    c.overlap = 0
    c.x = x + mx
    c.y = y + my
    c.vx = vx - mx
    c.vy = vy - my
    if mx ~= 0 or my ~= 0 then np = 0 end
  end
  c.npressed = np
  local rvx, rvy = fn(c)
  c.world, c.shape, c.other = false, false, false -- (it keeps no shape)
  mv.rvx, mv.rvy = rvx, rvy
end

-- A mover's tie: of the hits met at the same time as hit k (at o), the first on ground
-- rather than a wall or a steep slope, so that a character at the foot of a wall stands on
-- the ground (gravity stops there) before the wall turns its motion. Returns the hit taken,
-- or false when the filter had to be asked (the sweep is then stale).
local function groundFirst(self, mv, n, k, o, kind, other, vx, vy)
  local buf = mv.buf
  local ux, uy, walkable = mv.upx, mv.upy, mv.walkable
  if -(buf[o + HIT_NX] * ux + buf[o + HIT_NY] * uy) >= walkable then
    return o, kind, other, k
  end
  local t = buf[o + HIT_T]
  for j = k + 1, n do
    local q = (j - 1) * HIT_STRIDE
    if buf[q + HIT_T] ~= t then
      break
    end
    local b = buf[q + HIT_OTHER]
    local qnx, qny = buf[q + HIT_NX], buf[q + HIT_NY]
    if -(qnx * ux + qny * uy) >= walkable and self.token[b]
        and buf[q + HIT_OVERLAPPING] == 0 then
      local i = slotOf(mv, b)
      local bk = mv.kinds[i]
      if bk == nil then -- not asked yet: asked now (code of the game: the sweep is stale)
        bk = moveType(self, mv, b, i)
        if mv.err or mv.filter ~= defaultMoveFilter or self.filter ~= nil then
          return false
        end
      end
      local wx = mv.odx[i]
      if bk and not mv.passed[i] and (not wx
          or (vx * wx + vy * mv.ody[i] > 0 and qnx * wx + qny * mv.ody[i] > 0)) then
        mv.others[j] = b
        return q, bk, b, j
      end
    end
  end
  return o, kind, other, k
end

-- Step 1 of a move: from the from-th of the n hits (in time order) on, the first that the
-- filter does not ignore, not passed already, and not a one-way shape met the wrong way:
-- its offset in the buffer, kind and other shape (its place in mv.k); nil when there is
-- none. The shapes met are listed in mv.others (1 to n/stride) as the buffer names them.
-- When the filter had to be asked (it may have changed the world: moved a shape into the
-- path, removed one) or a shape met has left the world, the sweep is stale: returns false
-- then, for the move to sweep again (the answers are kept, so each other shape is asked
-- once).
local function firstBlock(self, mv, n, vx, vy, from)
  local buf, token, kinds, others = mv.buf, self.token, mv.kinds, mv.others
  local changes = self.changes
  local asked = false
  if n > mv.nothers then
    mv.nothers = n
  end
  for k = from, n do
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
      if mv.err then
        return nil
      end
      -- (the default filter and no setFilter: no code of the game ran, nothing changed)
      asked = asked or mv.filter ~= defaultMoveFilter or self.filter ~= nil
    end
    if kind and not mv.passed[i] then
      local dx = mv.odx[i]
      if dx and (buf[o + HIT_OVERLAPPING] ~= 0 or vx * dx + vy * mv.ody[i] <= 0
          or buf[o + HIT_NX] * dx + buf[o + HIT_NY] * mv.ody[i] <= 0) then
        -- one-way, met overlapping or the wrong way: passed silently, for the whole move
        -- (the move's first sweep is where the shape starts: it overlapped it then)
        mv.passed[i] = SILENT
      else
        if asked or self.changes ~= changes then
          return false
        end
        if mv.upx then
          o, kind, other, k = groundFirst(self, mv, n, k, o, kind, other, vx, vy)
          if not o then
            return mv.err and nil or false
          end
        end
        mv.k = k
        return o, kind, other
      end
    end
  end
  if asked or self.changes ~= changes then
    return false
  end
  return nil
end

-- The verdicts of a response (decide).
local STOP, PASS, STALE = 1, 2, 3

-- Step 2: the response of kind at the hit at o decides, with the shape moving by (vx, vy):
-- STOP there (mv.rvx, mv.rvy: the motion it carries on with), PASS through (as the
-- library's responses do: the scan goes on), or STALE (the game's response let it through:
-- its code ran, the move sweeps again).
local function decide(self, mv, o, kind, other, vx, vy)
  local r = self.responses[kind]
  local fn = r.fn
  if not mv.fetched then
    mv.sx, mv.sy = mv.body:position()
    mv.fetched = true
  end
  if fn == slide and mv.upx then
    fn = walk
  end
  respond(self, mv, o, other, kind, fn, mv.sx, mv.sy, vx, vy)
  local rvx, rvy = mv.rvx, mv.rvy
  if rvx ~= nil then
    if not r.builtin and (type(rvx) ~= "number" or type(rvy) ~= "number" or rvx ~= rvx
        or rvy ~= rvy or rvx == math.huge or rvx == -math.huge or rvy == math.huge
        or rvy == -math.huge) then
      mv.err = ("move: the response %q returned %s, %s; expected two finite numbers (the " ..
        "motion left) or nothing (pass through)"):format(kind, describe(rvx), describe(rvy))
    end
    return STOP
  end
  mv.passed[slotOf(mv, other)] = PASSED
  if not r.builtin then
    return STALE
  end
  return PASS
end

-- The first hit that stops the shape, from the first block (o, kind, other) of the n on:
-- (o, kind, other; the motion left in mv.rvx, mv.rvy), nil when none does, false when the
-- sweep is stale (firstBlock, decide).
local function firstStop(self, mv, n, vx, vy, o, kind, other)
  while true do
    local verdict = decide(self, mv, o, kind, other, vx, vy)
    if verdict == STOP then
      return o, kind, other
    elseif verdict == STALE then
      return false
    end
    o, kind, other = firstBlock(self, mv, n, vx, vy, mv.k + 1)
    if not o or mv.err then
      return o
    end
  end
end

-- Step 3: to the contact at o. A shape overlapping at the start is pushed out by the
-- minimum translation, its motion kept; otherwise it advances to the touch. The body
-- moves before anything is reported (a report allocates, and a finalizer may then change
-- the world). Then the surfaces pressed: forgotten when it moved on, and this one noted.
local function advance(self, mv, o, kind, other, x, y)
  local buf, body = mv.buf, mv.body
  local nx, ny = buf[o + HIT_NX], buf[o + HIT_NY]
  if buf[o + HIT_OVERLAPPING] ~= 0 then
    local depth = buf[o + HIT_OVERLAP]
    body:move(-nx * depth, -ny * depth)
    reportCrossed(self, mv, o, x, y)
    report(self, mv, o, other, kind, x, y)
  else
    local mx, my = buf[o + HIT_MX], buf[o + HIT_MY]
    local x1, y1 = x, y
    if mx ~= 0 or my ~= 0 then
      body:move(mx, my)
      mv.npinned = 0 -- the surfaces pressed so far are behind, no longer pinning
      x1, y1 = body:position()
    end
    reportCrossed(self, mv, o, x, y)
    report(self, mv, o, other, kind, x1, y1)
  end
  local np = mv.npinned
  mv.pinned[2 * np + 1], mv.pinned[2 * np + 2] = nx, ny
  mv.npinned = np + 1
  if mv.upx and -(nx * mv.upx + ny * mv.upy) >= mv.walkable then -- ground (a mover's)
    mv.ground, mv.gnx, mv.gny = other, -nx, -ny
  end
end

-- The motion of a move, run under pcall by move when code of the game may run. The sweep
-- is made again after any call out (the filters, the game's responses, which may change
-- the world) and whenever the world changed under it, so that the motion always follows a
-- sweep of the world as it is. A moving shape removed from the world (by a filter) stops
-- there. When nothing stops the motion left, the body makes all of it and the shapes it
-- went through are reported (inline: most moves end so, and a call costs in PUC Lua).
local function moveLoop(self, mv, vx, vy)
  local hash, buf, body, shape, token, as = self.hash, mv.buf, mv.body, mv.shape, self.token,
    mv.as
  local responses = self.responses
  local steps, rounds = 0, 0
  while steps < MAX_MOVE_STEPS and rounds < MAX_MOVE_ROUNDS do
    if not token[shape] then
      return
    end
    local changes = self.changes
    local n = hash:sweep(body, vx, vy, buf, as)
    local o, kind, other
    if n > 0 then -- (most moves meet nothing: no call then)
      mv.fetched = false
      o, kind, other = firstBlock(self, mv, n, vx, vy, 1)
      if o then
        if responses[kind].fn == slide and not mv.upx then
          -- slide(c) inline (the most common contact: no contact table to fill, no call),
          -- the same arithmetic in the same order
          mv.sx, mv.sy = body:position()
          mv.fetched = true
          local nx, ny = buf[o + HIT_NX], buf[o + HIT_NY]
          local np, rvx, rvy = mv.npinned, vx, vy
          if buf[o + HIT_OVERLAPPING] == 0 then
            local mx, my = buf[o + HIT_MX], buf[o + HIT_MY]
            rvx, rvy = vx - mx, vy - my
            if mx ~= 0 or my ~= 0 then np = 0 end
          end
          local d = rvx * nx + rvy * ny
          if d > 0 then
            rvx, rvy = rvx - d * nx, rvy - d * ny
          end
          local pinned = mv.pinned
          local eps = PINNED_EPS * sqrt(rvx * rvx + rvy * rvy)
          for p = 1, 2 * np, 2 do
            if rvx * pinned[p] + rvy * pinned[p + 1] > eps then
              rvx, rvy = 0, 0
              break
            end
          end
          mv.rvx, mv.rvy = rvx, rvy
        else
          o, kind, other = firstStop(self, mv, n, vx, vy, o, kind, other)
        end
      end
      if mv.err then
        return
      end
    end
    if o == false or (o == nil and self.changes ~= changes) then
      rounds = rounds + 1
    elseif o == nil then
      local x, y = body:position()
      if vx ~= 0 or vy ~= 0 then
        body:move(vx, vy)
        local g = mv.ground
        if g and not testPair(body, g) then -- (a mover's: walked off its ground)
          mv.ground = false
        end
      end
      if n > 0 then
        reportCrossed(self, mv, n * HIT_STRIDE, x, y)
      end
      return
    else
      -- (a stop the game's response chose is acted on, whatever that response changed)
      advance(self, mv, o, kind, other, mv.sx, mv.sy)
      vx, vy = mv.rvx, mv.rvy
      steps = steps + 1
    end
  end
end

-- Takes back the reports made since the ncols-th (a trial's).
local function unreport(mv, ncols)
  local cols, reported = mv.cols, mv.reported
  for i = ncols + 1, mv.ncols do
    reported[slotOf(mv, cols[i].other)] = false
  end
  mv.ncols = ncols
end

-- A mover's snap (world_mover.lua): a move of a shape that stood on the ground, ended off
-- it and was not going up, moves down by up to the snap distance with the walking rules
-- (down a steep corner, onto the ground below it), tried on a copy first: when that ends on
-- the ground the body makes the same move, else nothing happens (nor is reported). Run after
-- moveLoop, as part of the move.
local function snapDown(self, mv, dist)
  local body, as = mv.body, mv.as
  local trial = ghostOf(body, mv.ghost2 or nil)
  mv.ghost2 = trial
  local x0, y0 = trial:position()
  local ncols = mv.ncols
  mv.body, mv.as, mv.npinned = trial, as or mv.shape, 0
  moveLoop(self, mv, -mv.upx * dist, -mv.upy * dist)
  mv.body, mv.as = body, as
  if mv.err then
    return
  end
  if mv.ground then
    local x1, y1 = trial:position()
    body:move(x1 - x0, y1 - y0)
  else -- (the reports of the trial taken back)
    unreport(mv, ncols)
  end
end

-- A mover's step (world_mover.lua): a move of a shape that stood on the ground and was
-- kept from making (rx, ry) of its motion across up (a step's riser, a slope's foot met
-- corner to corner) is tried on a copy raised by up to h, moved across by (rx, ry) and
-- lowered as far as it rose, all with the walking rules: when that lands on ground and gets
-- further across, the body makes the same move (the trial's reports taken back), else
-- nothing happens. Run after moveLoop, as part of the move.
local function stepUp(self, mv, rx, ry, h)
  local body, as = mv.body, mv.as
  local ux, uy = mv.upx, mv.upy
  local trial = ghostOf(body, mv.ghost3 or nil)
  mv.ghost3 = trial
  local x0, y0 = trial:position()
  local ncols, ground, gnx, gny = mv.ncols, mv.ground, mv.gnx, mv.gny
  mv.body, mv.as, mv.npinned = trial, as or mv.shape, 0
  moveLoop(self, mv, ux * h, uy * h)
  local x1, y1 = trial:position()
  local rose = (x1 - x0) * ux + (y1 - y0) * uy
  local landed = false
  if not mv.err and rose > 0 then
    mv.npinned = 0
    moveLoop(self, mv, rx, ry)
    if not mv.err then
      mv.ground, mv.npinned = false, 0
      moveLoop(self, mv, -ux * rose, -uy * rose)
      landed = mv.ground
    end
  end
  mv.body, mv.as = body, as
  if mv.err then
    return
  end
  local x2, y2 = trial:position()
  local ex, ey = x2 - x0, y2 - y0
  local x = body:position()
  if landed and (ex * rx + ey * ry) > 1e-9 * (1 + math.abs(x)) * sqrt(rx * rx + ry * ry) then
    body:move(ex, ey)
  else
    mv.ground, mv.gnx, mv.gny = ground, gnx, gny
  end
  unreport(mv, ncols)
end

-- A move or a check (the body given), run under pcall when the game's code may run.
-- upx: a mover's rules (walk, snap, step) when not false.
local function run(self, mv, dx, dy, snap, wasGrounded)
  local x0, y0
  local stepping = snap and snap > 0 and wasGrounded
  if stepping then
    x0, y0 = mv.body:position()
  end
  moveLoop(self, mv, dx, dy)
  if not stepping or mv.err then
    return
  end
  local ux, uy = mv.upx, mv.upy
  local a = dx * ux + dy * uy
  local hx, hy = dx - a * ux, dy - a * uy -- the motion across up asked for
  local h2 = hx * hx + hy * hy
  if h2 > 0 and self.token[mv.shape] then
    local x1, y1 = mv.body:position()
    local done = ((x1 - x0) * hx + (y1 - y0) * hy) / h2
    if done < 1 - 1e-9 then
      stepUp(self, mv, hx * (1 - done), hy * (1 - done), snap)
      if mv.err then
        return
      end
    end
  end
  if not mv.ground and a <= 0 and self.token[mv.shape] then
    snapDown(self, mv, snap)
  end
end

-- The last checks of a move, a check or a mover's move, made by the public method itself
-- (for the errors' level): where the shape could end must be in range, or it would fail
-- halfway.
local function checkEnd(fname, n, shape, dx, dy)
  local x0, y0 = shape:position()
  checkCoordBelow(fname, n, x0 + dx)
  checkCoordBelow(fname, n + 1, y0 + dy)
end
M.checkEnd = checkEnd

-- The move (or check) of shape by (dx, dy), its arguments checked: runs it and gives the
-- state back; returns x, y, cols. It is called by the public method itself: its own errors
-- are raised at level 3, the method's caller (or at level). dry: a check; opts: a mover's
-- (upx, upy, walkable, snap, grounded; on return ground, gnx, gny) or nil.
local function perform(self, shape, dx, dy, filter, cols, dry, opts, level, x0, y0)
  if not x0 then
    x0, y0 = shape:position()
  end
  filter = filter or defaultMoveFilter
  local mv = takeMoveState(self, shape, filter, cols or {})
  if dry then
    local g = ghostOf(shape, mv.ghost or nil)
    mv.ghost, mv.body, mv.as = g, g, shape
  end
  local snap, grounded = nil, false
  if opts then
    mv.upx, mv.upy, mv.walkable = opts.upx, opts.upy, opts.walkable
    local c = mv.c
    c.upx, c.upy, c.walkable = opts.upx, opts.upy, opts.walkable
    snap, grounded = opts.snap, opts.grounded
  end
  local c = mv.c
  c.dx, c.dy = dx, dy
  if filter == defaultMoveFilter and self.filter == nil and self.responses.slide.builtin then
    -- no code of the game runs in this move, so no filter error to undo: no pcall, which
    -- LuaJIT does not compile (the level's frame took twice as long under it)
    if opts then
      run(self, mv, dx, dy, snap, grounded)
    else
      moveLoop(self, mv, dx, dy)
    end
  else
    local ok, err = pcall(run, self, mv, dx, dy, snap, grounded)
    if not ok then -- (the state is dropped, not reused half-done)
      if not dry then
        shape:moveTo(x0, y0)
      end
      error(err, 0)
    end
  end
  if mv.err then -- (a wrong answer: undone, the state dropped)
    if not dry then
      shape:moveTo(x0, y0)
    end
    error(mv.err, level or 3)
  end
  cols = mv.cols
  self.hash:trim(cols, mv.ncols, mv.mark) -- (the tables past the count go to the pool)
  if opts then
    opts.ground, opts.gnx, opts.gny = mv.ground, mv.gnx, mv.gny
  end
  local x, y = mv.body:position()
  if dry then
    mv.ghost = mv.body
  end
  mv.as, mv.ground, mv.upx = nil, false, false -- (what only perform sets)
  releaseMoveState(self, mv)
  return x, y, cols
end
M.perform = perform

--- world:move(shape, dx, dy [, filter] [, cols]) -> x, y, collisions
-- Moves the shape by (dx, dy), resolving against what it meets on the way (continuous:
-- nothing is tunnelled through, whatever the speed). filter(shape, other) answers per other
-- shape with a response: "slide" (the default: stop at the contact and slide along the
-- surface for the rest of the motion), "touch" (stop there), "cross" (pass through, but
-- report it), "bounce" (the rest of the motion reflected about the contact normal), a name
-- given to world:addResponse, or nil (ignore). Shapes the categories, masks or setFilter
-- keep apart are ignored, and a static shape moved ignores the other static ones. A shape
-- whose `oneway` field is a vec is solid only for a shape that meets it moving along that
-- vec, on a side facing against it, and did not overlap it when the move began: otherwise
-- it is passed silently (not reported). A shape that starts overlapping a shape that stops
-- it is first pushed out by the minimum translation. Returns the final position and the
-- list of collisions in the order they happened, each other shape once: a response (a =
-- shape, b = other, overlap, normal from the shape toward the other, mtv, aInB, bInA, part
-- and ownPart when a compound is met) plus other, type, and x, y: where the shape was when
-- it met the other. A contact met on the way has overlap 0. A cols table given is filled and
-- returned instead of a new list, its collision tables reused (those it had past the count
-- too, by later moves).
-- The filters and the game's responses may add, remove and move shapes: the move sweeps
-- again after each answer, so it stops at a shape put in its way; if the moving shape
-- leaves the world, the move ends there. An error in a filter or a response undoes the move
-- (the shape goes back where it was; what the filter did itself stays) and propagates.
function M.move(self, shape, dx, dy, a, b)
  if not worlds[self] then badSelf("move", self) end
  -- (the arguments' common case tested inline, the checks called only when it fails, to
  -- raise their errors: a call costs in PUC Lua; the same checks in the same order)
  if not self.token[shape] then -- (a member is a shape)
    checkMember(self, "move", 1, shape)
  end
  local lim = limits.maxCoord
  if type(dx) ~= "number" or dx - dx ~= 0 or dx > lim or dx < -lim then
    dx = checkCoord("move", 2, dx)
  end
  if type(dy) ~= "number" or dy - dy ~= 0 or dy > lim or dy < -lim then
    dy = checkCoord("move", 3, dy)
  end
  local filter, cols
  if a ~= nil or b ~= nil then
    filter, cols = trailing("move", 4, a, b)
    if cols ~= nil then
      checkResult("move", b ~= nil and 5 or 4, cols)
    end
  end
  local x0, y0 = shape:position()
  local ex, ey = x0 + dx, y0 + dy -- where it could end, or it would fail halfway
  if ex - ex ~= 0 or ex > lim or ex < -lim then
    checkCoord("move", 2, ex)
  end
  if ey - ey ~= 0 or ey > lim or ey < -lim then
    checkCoord("move", 3, ey)
  end
  if filter or self.filter ~= nil or not self.responses.slide.builtin then
    local x, y, list = perform(self, shape, dx, dy, filter, cols, false, nil, nil, x0, y0)
    return x, y, list
  end
  -- the most common move, perform's inline: no code of the game runs (no pcall, which LuaJIT
  -- does not compile), no mover, no dry run
  local mv = takeMoveState(self, shape, defaultMoveFilter, cols or {})
  moveLoop(self, mv, dx, dy) -- (slide only, inline: no response reads the contact c)
  if mv.err then -- (a wrong oneway field: undone, the state dropped)
    shape:moveTo(x0, y0)
    error(mv.err, 2)
  end
  cols = mv.cols
  self.hash:trim(cols, mv.ncols, mv.mark) -- (the tables past the count go to the pool)
  releaseMoveState(self, mv)
  local x, y = shape:position()
  return x, y, cols
end

--- world:check(shape, dx, dy [, filter] [, cols]) -> x, y, collisions: what world:move
-- would do (the same sweeps, filters, responses, the same position and collisions, bit for
-- bit), changing nothing: the shape stays where it is and the world sees no change (its next
-- step finds the shape unchanged). The filters are called as move calls them (they may
-- change the world, as they may in a move; a check then sweeps again as a move does).
function M.check(self, shape, dx, dy, a, b)
  if not worlds[self] then badSelf("check", self) end
  checkMember(self, "check", 1, shape)
  dx = checkCoord("check", 2, dx)
  dy = checkCoord("check", 3, dy)
  local filter, cols = trailing("check", 4, a, b)
  if cols ~= nil then
    checkResult("check", b ~= nil and 5 or 4, cols)
  end
  checkEnd("check", 2, shape, dx, dy)
  local x, y, list = perform(self, shape, dx, dy, filter, cols, true, nil)
  return x, y, list
end

--- world:addResponse(name, fn) -> world: a response of the game's own, which move filters
-- may answer with name, as with the built-in ones ("slide", "touch", "cross" and "bounce",
-- written the same way; a name of theirs replaces it in this world). fn(c) is called when
-- the moving shape meets the other shape, before it stops there, with the contact c (a
-- table the move reuses: read it during the call):
--   c.world, c.shape (the moving shape), c.other, c.type (name)
--   c.nx, c.ny    the contact normal, unit, from the shape toward the other
--   c.overlap     > 0 when the shape overlapped the other (it is first pushed out), else 0
--   c.x, c.y      where the shape is at the contact
--   c.vx, c.vy    the motion left after the contact
--   c.dx, c.dy    the whole motion of the move
--   c.part, c.ownPart  the parts met when a compound is (index in parts()), else nil
--   c.pressed, c.npressed  the normals (nx1, ny1, nx2, ny2, ...) of the surfaces the shape
--                 stopped against since it last moved, and how many (slide stops a motion
--                 pressing into one of them: the shape is wedged)
-- fn returns the motion to carry on with (vx, vy; 0, 0 stops it there), or nothing to let
-- the shape through (reported, then ignored for the rest of the move). It may change the
-- world; the move then carries on from the contact, sweeping the world as it is.
function M.addResponse(self, name, fn)
  if not worlds[self] then badSelf("addResponse", self) end
  if type(name) ~= "string" then
    argError(2, "addResponse", 1, "string expected, got " .. check.typeName(name))
  end
  if type(fn) ~= "function" then
    argError(2, "addResponse", 2, "function expected, got " .. check.typeName(fn))
  end
  if BUILTIN[name] and BUILTIN[name].fn == fn then
    self.responses[name] = BUILTIN[name]
  else
    self.responses[name] = { fn = fn, builtin = false }
  end
  return self
end

------------------------------------------------------------------------------------------
-- the shape cast

-- The cast's buffers (a cast made from inside a cast's filter gets new ones).
local function takeCast(self)
  local scratch = self.scratch
  local st = scratch.cast
  if st then
    scratch.cast = false
  else
    st = { buf = {}, spare = {} }
  end
  return st
end

--- world:queryCast(shape [, dx, dy] [, filter] [, t]) -> hits: every shape the shape
-- would touch moving by (dx, dy), with no response (nothing stops it), in the order met
-- (by t, then distance, then insertion), each hit { shape, t, x, y, nx, ny, mx, my, part,
-- ownPart }: t in [0, 1] of the motion, the contact point (x, y), the normal (nx, ny)
-- from the moving shape toward the other, the move (mx, my) to the touch, and the parts met
-- of compounds (index in parts(), else nil). Shapes it overlaps at the start are hits at
-- t = 0 (the point and normal of their overlap). Every shape (the queries' view: no
-- categories, static ones too) but the shape itself; the shape need not be in the world.
-- filter(other) -> truthy keeps a hit. A table given is filled, its hit tables reused.
function M.queryCast(self, shape, dx, dy, a, b)
  if not worlds[self] then badSelf("queryCast", self) end
  checkShape("queryCast", 1, shape)
  dx = checkCoord("queryCast", 2, dx)
  dy = checkCoord("queryCast", 3, dy)
  local filter, out = trailing("queryCast", 4, a, b)
  if out ~= nil then
    checkResult("queryCast", b ~= nil and 5 or 4, out)
  end
  checkEnd("queryCast", 2, shape, dx, dy)
  out = out or {}
  local st = takeCast(self)
  local buf, spare = st.buf, st.spare
  local n = self.hash:sweep(shape, dx, dy, buf, nil, true)
  local j = 0
  for k = 1, n do
    local o = (k - 1) * HIT_STRIDE
    local other = buf[o + HIT_OTHER]
    buf[o + HIT_OTHER] = false
    if filter == nil or filter(other) then
      j = j + 1
      local h = out[j]
      if type(h) ~= "table" then
        local ns = #spare
        if ns > 0 then
          h, spare[ns] = spare[ns], nil
        else
          h = {}
        end
        out[j] = h
      end
      local part, own = buf[o + HIT_PART], buf[o + HIT_OWNPART]
      h.shape, h.t, h.x, h.y = other, buf[o + HIT_T], buf[o + HIT_PX], buf[o + HIT_PY]
      h.nx, h.ny, h.mx, h.my = buf[o + HIT_NX], buf[o + HIT_NY], buf[o + HIT_MX], buf[o + HIT_MY]
      h.part, h.ownPart = part ~= 0 and part or nil, own ~= 0 and own or nil
    end
  end
  for i = #out, j + 1, -1 do
    local h = out[i]
    if type(h) == "table" then
      h.shape = false
      spare[#spare + 1] = h
    end
    out[i] = nil
  end
  self.scratch.cast = st
  return out
end

-- A LuaJIT that fuses multiply-adds runs this file interpreted (the move's slide would round
-- otherwise than the C core: sat.pure.jit says why); elsewhere nothing changes.
require("sat.pure.jit").unfuse({ M })

return M
