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
-- keeps the contacts from one step to the next and tells what changed. The Lua side keeps
-- what is Lua's business: which pairs were told (entered and not yet exited), the
-- callbacks, the filters and the movement rules. Shapes moved, rotated or scaled with their
-- own methods tell the hash themselves, so nothing else is needed. Everything comes out in
-- a deterministic order: insertion order into the world (a pair (a, b) has a added first),
-- never `pairs` order.
--
-- One World, in seven files by concern; this one requires the others, which never require
-- it:
--   world.lua         the module: new, membership, queries, callbacks
--   world_check.lua   argument checks
--   world_events.lua  contact records, enter / stay / exit, world:step
--   world_move.lua    world:move and world:check: the sweeps, the filter's answers, the
--                     responses, one-way shapes; world:queryCast
--   world_push.lua    world:push: moving platforms, doors and crushers
--   world_mover.lua   world:mover: a character's moves on ground and slopes
--   world_state.lua   world:digest, world:snapshot, world:restore
local core = require("sat.backend").core
local check = require("sat.world_check")
local events = require("sat.world_events")
local movement = require("sat.world_move")
local push = require("sat.world_push")
local mover = require("sat.world_mover")
local state = require("sat.world_state")

local pcall, error, tostring = pcall, error, tostring
local argError, describe, allowed = check.argError, check.describe, check.allowed
local worlds, badSelf = check.worlds, check.badSelf
local checkShape, checkMember = check.checkShape, check.checkMember
local checkNumber, checkCoord, toFinite = check.checkNumber, check.checkCoord, check.toFinite
local checkOptFunction, checkOptTable, trailing, checkResult =
  check.checkOptFunction, check.checkOptTable, check.trailing, check.checkResult

local DEFAULT_CELL_SIZE = 64
-- The cell sizes the hash takes (its header: SAT_HASH_MIN_CELL, SAT_HASH_MAX_CELL).
local MIN_CELL, MAX_CELL = 1e-100, 1e150

local EVENTS = { enter = true, stay = true, exit = true }

-- The metatable of every world, its methods. Its __name is how messages name a world
-- ("shape expected, got world"), as Lua 5.3+ and the binding name other libraries' objects.
local World = { __name = "world" }
World.__index = World

------------------------------------------------------------------------------------------
-- the world

-- The world's scratch: buffers step, remove and move reuse so that they make no garbage.
-- Only the call that fills them reads them (the world's state is in its other fields).
local function newScratch()
  return {
    step = events.newStepState(), -- false while a step has it
    dropped = {},        -- hash:remove's ids: the contacts of the shape removed
    gone = {},           -- ids removals dropped since the last step read its delta
    move = movement.newMoveState(), -- false while a move has it
    spare = {},          -- collision tables moves dropped from tables given to fill
    cast = { buf = {}, spare = {} }, -- queryCast's buffers (false while a cast has them)
    push = false,        -- push's state, made when first needed (false while a push has it)
  }
end

-- The cell size given to sat.world, checked (d: the depth of new below the caller).
local function checkCellSize(cellSize, d)
  if cellSize == nil then
    return DEFAULT_CELL_SIZE
  end
  cellSize = toFinite("world", 1, cellSize, d + 2)
  if cellSize <= 0 then
    argError(d + 1, "world", 1, "cell size must be > 0")
  end
  if cellSize < MIN_CELL or cellSize > MAX_CELL then
    argError(d + 1, "world", 1, "cell size must be between 1e-100 and 1e150")
  end
  return cellSize
end

--- sat.world([cellSize]) -> world. cellSize: the side of a hash cell, in world units
-- (default 64; about the size of a typical shape is best; bigger shapes go to coarser
-- levels of cells on their own).
-- (wrappers: how many functions between the caller and new, for the errors' position;
-- sat.world passes 1, as no tail call hides it on Lua 5.1)
local function new(cellSize, wrappers)
  local hash = core.newHash(checkCellSize(cellSize, 2 + (wrappers or 0)))
  check.setLimits(hash:limits())
  local world = setmetatable({
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
    steppers = events.newSteppers(), -- the threads stepping it (world_events: stepOnStack)
    serial = 0,          -- the number of steps begun
    lost = false,        -- a step ran out of memory before its records were right
    responses = movement.newResponses(), -- name -> response (world:addResponse)
    scratch = newScratch(),
  }, World)
  worlds[world] = true
  return world
end

function World:__tostring()
  if not worlds[self] then badSelf("__tostring", self) end
  return ("world(%d shapes, cell %s)"):format(self.hash:count(), tostring(self.hash:cellSize()))
end

------------------------------------------------------------------------------------------
-- membership

-- The hash made to hold the shape exactly when the world's tables do: a finalizer or a debug
-- hook run during an add or a remove may have removed the shape (its hash:remove finding
-- nothing: before the hash had it), or removed and added it again. (A step run meanwhile made
-- no record of a contact of a shape without a token, and those of its contacts it recorded
-- end here; a shape added again here is added as static when the call in progress asked so.)
local function follow(self, shape, static)
  local hash, token = self.hash, self.token
  for _ = 1, 8 do
    local inHash = hash:has(shape)
    if (token[shape] ~= nil) == inHash then
      return
    end
    if inHash then
      events.dropContacts(self, shape)
    else
      hash:add(shape, static)
    end
  end
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

-- enroll under pcall, then follow: what add does once the arguments are checked. Out of
-- memory, neither the hash nor the world has the shape, and the error is raised at `level`
-- (counted from here).
local function admit(self, shape, static, level)
  local ok, e = pcall(enroll, self, shape, static)
  if not ok then
    self.token[shape] = nil
    error(e, level)
  end
  follow(self, shape, static) -- (after: its calls may run out of memory too)
end

--- world:add(shape [, "static"]) -> shape. A static shape never pairs with another static
-- one (no test, no event); it may still be moved, which the world follows (assumed rare).
function World:add(shape, kind)
  if not worlds[self] then badSelf("add", self) end
  checkShape("add", 1, shape)
  if self.token[shape] then
    argError(2, "add", 1, "shape is already in this world")
  end
  if kind ~= nil and kind ~= "static" then
    argError(2, "add", 2, "\"static\" or nil expected, got " .. describe(kind))
  end
  admit(self, shape, kind == "static", 3)
  return shape
end

-- world:add(shape, static and "static") for sat.level, which adds thousands of shapes it
-- has just made (never in a world) to a world it knows to be one (isWorld): the same
-- records and the same undoing when memory runs out, without the checks (the 316 x 316
-- level under Lua 5.4: a fifth of its build).
local function addMade(self, shape, static)
  admit(self, shape, static, 3)
end

local function isWorld(v)
  return worlds[v] == true
end

--- world:remove(shape) -> shape. Every pair the shape was in gets its exit (in the order
-- the other shapes were added), after the shape has left. Each pair is unlinked just before
-- its exit fires, so if an exit handler raises an error (or yields and is never resumed),
-- the pairs not told yet keep their exits for the next step, which fires them first.
function World:remove(shape)
  if not worlds[self] then badSelf("remove", self) end
  checkMember(self, "remove", 1, shape)
  local t = self.token[shape]
  events.dropContacts(self, shape)
  if self.token[shape] == t then
    self.token[shape] = nil
  else -- (removed and added again by a finalizer or a debug hook meanwhile: it stays)
    follow(self, shape, false)
  end
  self.changes = self.changes + 1
  events.exitAll(self, shape)
  return shape
end

--- world:has(shape) -> boolean
function World:has(shape)
  if not worlds[self] then badSelf("has", self) end
  return self.token[shape] ~= nil
end

--- world:isStatic(shape) -> boolean: added with "static" (false when not in the world)
function World:isStatic(shape)
  if not worlds[self] then badSelf("isStatic", self) end
  return self.token[shape] ~= nil and self.hash:isStatic(shape)
end

--- world:shapes([t]) -> list of the shapes, in insertion order
function World:shapes(out)
  if not worlds[self] then badSelf("shapes", self) end
  checkOptTable("shapes", 1, out)
  return self.hash:shapes(out)
end

--- world:count() -> number of shapes
function World:count()
  if not worlds[self] then badSelf("count", self) end
  return self.hash:count()
end

--- world:cellSize() -> the hash's cell size
function World:cellSize()
  if not worlds[self] then badSelf("cellSize", self) end
  return self.hash:cellSize()
end

--- world:cells([level [, t]]) -> flat list cx, cy, count, ... of the cells in use at that
-- level of the hash (default 0; cell (cx, cy) of level k covers [cx, cx + 1) * size by
-- [cy, cy + 1) * size, size = cellSize * 2^k), by row then column. A shape is filed at the
-- lowest level where it covers at most 2 x 2 cells. For debugging views (sat.debug).
function World:cells(level, out)
  if not worlds[self] then badSelf("cells", self) end
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
  if not worlds[self] then badSelf("levels", self) end
  checkOptTable("levels", 1, out)
  local t = self.hash:levels(out)
  return t
end

------------------------------------------------------------------------------------------
-- queries: exact geometry, results in insertion order (segment hits along the segment);
-- an optional filter(shape) -> truthy keeps a shape; an optional last table is filled and
-- returned instead of a new one.

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

--- world:queryPoint(x, y [, filter] [, t]) -> shapes containing the point (boundary
-- included)
function World:queryPoint(x, y, a, b)
  if not worlds[self] then badSelf("queryPoint", self) end
  x = checkCoord("queryPoint", 1, x)
  y = checkCoord("queryPoint", 2, y)
  local filter, out = trailing("queryPoint", 3, a, b)
  return filterList(self.hash:queryPoint(x, y, out), filter)
end

--- world:queryRect(x, y, w, h [, filter] [, t]) -> shapes overlapping or touching the
-- rectangle with top-left corner (x, y) and size (w, h), w and h >= 0
function World:queryRect(x, y, w, h, a, b)
  if not worlds[self] then badSelf("queryRect", self) end
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
  if not worlds[self] then badSelf("querySegment", self) end
  x1 = checkCoord("querySegment", 1, x1)
  y1 = checkCoord("querySegment", 2, y1)
  x2 = checkCoord("querySegment", 3, x2)
  y2 = checkCoord("querySegment", 4, y2)
  local filter, out = trailing("querySegment", 5, a, b)
  if out ~= nil then
    checkResult("querySegment", b ~= nil and 6 or 5, out)
  end
  return filterList(self.hash:querySegment(x1, y1, x2, y2, out), filter, "shape")
end

--- world:queryShape(shape [, filter] [, t]) -> shapes overlapping or touching it (not
-- itself). The shape need not be in the world.
function World:queryShape(shape, a, b)
  if not worlds[self] then badSelf("queryShape", self) end
  checkShape("queryShape", 1, shape)
  local filter, out = trailing("queryShape", 2, a, b)
  return filterList(self.hash:queryShape(shape, out), filter)
end

--- world:neighbors(shape [, filter] [, t]) -> the broad phase's candidates: shapes whose
-- bounding boxes overlap or touch the shape's (not itself)
function World:neighbors(shape, a, b)
  if not worlds[self] then badSelf("neighbors", self) end
  checkShape("neighbors", 1, shape)
  local filter, out = trailing("neighbors", 2, a, b)
  return filterList(self.hash:neighbors(shape, out), filter)
end

--- world:collisions(shape [, t]) -> list of responses, one per shape it collides with, in
-- insertion order: r.a is the shape, r.b the other, the normal points toward the other.
-- Filtered like step (static pairs, category and mask, then setFilter). The shape need not
-- be in the world. A table given is filled with its own response tables reused.
function World:collisions(shape, out)
  if not worlds[self] then badSelf("collisions", self) end
  checkShape("collisions", 1, shape)
  checkOptTable("collisions", 2, out)
  if out ~= nil then
    checkResult("collisions", 2, out)
  end
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
-- callbacks, the step and movement

--- world:on(event, fn) -> world. event "enter": fn(a, b, response); "stay": fn(a, b,
-- response); "exit": fn(a, b). One function per event; nil removes it.
function World:on(event, fn)
  if not worlds[self] then badSelf("on", self) end
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
  if not worlds[self] then badSelf("setFilter", self) end
  checkOptFunction("setFilter", 1, fn)
  self.filter = fn
  return self
end

-- world:step() (world_events.lua); world:move, world:check, world:addResponse and
-- world:queryCast (world_move.lua); world:push (world_push.lua); world:mover
-- (world_mover.lua): documented there.
World.step = events.step
World.move = movement.move
World.check = movement.check
World.addResponse = movement.addResponse
World.queryCast = movement.queryCast
World.push = push.push
World.mover = mover.new
-- world:digest(), world:snapshot([t]) and world:restore(snap) (world_state.lua)
World.digest = state.digest
World.snapshot = state.snapshot
World.restore = state.restore

return { new = new, World = World, isWorld = isWorld, addMade = addMade }
