--- sat.world_push: world:push, a shape moved as a platform, a door or a crusher moves: never
-- stopped by what it meets; what stands on it is carried, what is in its way is pushed
-- out, and what cannot be pushed out is crushed, reported, and moved out of it all the same.
-- Part of sat.world (lua/sat/world.lua); requires nothing of the world but its checks and
-- world:move (world_move.lua), with which the shapes it moves are moved.
--
--   -- a lift going down, every frame (before the characters move):
--   local carried, pushed, crushed = world:push(lift, 0, speed * dt, liftOptions)
--   for _, s in ipairs(crushed) do kill(s) end
local core = require("sat.backend").core
local check = require("sat.world_check")
local movement = require("sat.world_move")

local type, next, select = type, next, select
local cos, sqrt, pi = math.cos, math.sqrt, math.pi
local isVec, sweep, collide = core.isVec, core.sweep, core.collide
local worlds, badSelf, argError, typeName = check.worlds, check.badSelf, check.argError,
  check.typeName
local checkMember, checkCoord, allowed = check.checkMember, check.checkCoord, check.allowed
local perform, checkEnd = movement.perform, movement.checkEnd

local M = {}

local DEFAULT_SLOPE = 50 * pi / 180
-- How deep riders are carried on riders (a stack of crates on a lift).
local MAX_STACK = 16

-- The sweep buffer's layout (world_move.lua, lsat_hash.c).
local HIT_OTHER, HIT_MX, HIT_MY, HIT_NX, HIT_NY, HIT_OVERLAPPING, HIT_STRIDE = 1, 3, 4, 5, 6, 8, 14

-- A push's state, reused push after push (a push made from inside a push's filter gets a
-- new one): the platform, the shape a carried one stands on, the game's filter, and the
-- filter the moves of the shapes it moves are made with, which ignores those two.
local function newPushState()
  local st = { platform = false, support = false, userFilter = false, buf = {}, cols = {},
    mcols = {}, riders = {}, seen = {}, stack = {}, way = {}, wx = {}, wy = {}, resp = {},
    ux = 0, uy = 0, walkable = 0 }
  st.filter = function(shape, other)
    if other == st.platform or other == st.support then
      return nil
    end
    local f = st.userFilter
    if f then
      return f(shape, other)
    end
    return "slide"
  end
  return st
end

-- Empties list from n + 1 on.
local function trim(list, n)
  for i = #list, n + 1, -1 do
    list[i] = nil
  end
end

-- The shapes standing on s (touching it from its up side: the normal from s toward them
-- within the slope limit of up), that are not static, pair with s and were not carried yet,
-- appended to list from n + 1 (marked seen); returns the new count.
local function ridersOf(self, st, s, list, n)
  local cols = self.hash:collisions(s, true, st.cols)
  local ux, uy, walkable, seen = st.ux, st.uy, st.walkable, st.seen
  local hash = self.hash
  for i = 1, #cols do
    local r = cols[i]
    local other = r.b
    local normal = r.normal
    if not seen[other] and not hash:isStatic(other) and normal.x * ux + normal.y * uy >= walkable
        and allowed(self, s, other) then
      seen[other] = true
      n = n + 1
      list[n] = other
    end
  end
  return n
end

-- Moves a rider by (dx, dy) with what stands on it (depth: how high in the stack), the
-- shape it stands on ignored; returns the count of carried.
local function carry(self, st, rider, support, dx, dy, carried, nc, depth)
  local stack, base = st.stack, #st.stack
  local top = base
  if depth < MAX_STACK then
    top = ridersOf(self, st, rider, stack, base)
  end
  local upward = dx * st.ux + dy * st.uy > 0
  if upward then -- those above first, out of its way
    for i = base + 1, top do
      nc = carry(self, st, stack[i], rider, dx, dy, carried, nc, depth + 1)
    end
  end
  st.support = support
  perform(self, rider, dx, dy, st.filter, st.mcols, false, nil, depth + 3)
  nc = nc + 1
  carried[nc] = rider
  if not upward then
    for i = base + 1, top do
      nc = carry(self, st, stack[i], rider, dx, dy, carried, nc, depth + 1)
    end
  end
  trim(stack, base)
  return nc
end

-- Whether s still overlaps the platform (beyond touching); if so, moves it out (the
-- platform wins) and returns true.
local function crushedOut(st, s, platform)
  if sweep(s, 0, 0, platform) == nil then
    return false
  end
  local r = collide(s, platform, st.resp)
  if r then
    s:move(r.mtv.x, r.mtv.y)
  end
  return true
end

-- Keeps in list[1..n] those not crushed (moving those out), appending these to crushed.
local function sortOut(st, list, n, platform, crushed, nx)
  local j = 0
  for i = 1, n do
    local s = list[i]
    if crushedOut(st, s, platform) then
      nx = nx + 1
      crushed[nx] = s
    else
      j = j + 1
      list[j] = s
    end
  end
  trim(list, j)
  return j, nx
end

local function optionList(options, key)
  local t = options[key]
  if t == nil then
    return {}
  end
  if type(t) ~= "table" then
    argError(4, "push", 4, key .. " must be a table, got " .. typeName(t))
  end
  return t
end

--- world:push(shape, dx, dy [, options]) -> carried, pushed, crushed
-- Moves the shape (in this world) by (dx, dy) as a platform, a door or a crusher: nothing
-- stops it (static shapes, which are never moved, it passes through). Then:
-- - carried: the shapes standing on it when it began (touching it from its up side: the
--   normal toward them within maxSlope of up) make the same move, with what stands on them,
--   sliding against the rest of the world;
-- - pushed: the shapes in its way (met by its motion, not overlapping it at the start) are
--   moved out of it by the rest of its motion, sliding against the rest of the world;
-- - crushed: those of them that the world kept from getting out (against a wall) are moved
--   out of it all the same, by the minimum translation (they then overlap what crushed
--   them): what to do with them is the game's call.
-- Static shapes are neither carried nor pushed; the categories, masks and setFilter choose
-- which pair with it. A one-way platform (shape.oneway) pushes only what meets it the way
-- it stops (a rising one-way floor lifts what is above it, not what is below).
-- options: up (a vec, default sat.vec(0, -1); false: carry nothing), maxSlope (default 50
-- degrees), filter (the move filter of the shapes moved, "slide" by default; the platform is
-- always ignored), and carried, pushed, crushed: tables to fill and return (reused, no
-- garbage) instead of new ones. Each list is in the order the shapes were moved.
function M.push(self, shape, dx, dy, options)
  if not worlds[self] then badSelf("push", self) end
  checkMember(self, "push", 1, shape)
  dx = checkCoord("push", 2, dx)
  dy = checkCoord("push", 3, dy)
  if options ~= nil and type(options) ~= "table" then
    argError(2, "push", 4, "table expected, got " .. typeName(options))
  end
  options = options or {}
  local up, maxSlope, filter = options.up, options.maxSlope, options.filter
  if up ~= nil and up ~= false and not isVec(up) then
    argError(2, "push", 4, "up must be a vec or false, got " .. typeName(up))
  end
  if maxSlope == nil then maxSlope = DEFAULT_SLOPE end
  if type(maxSlope) ~= "number" or not (maxSlope >= 0 and maxSlope <= pi / 2) then
    argError(2, "push", 4, "maxSlope must be an angle from 0 to pi / 2")
  end
  if filter ~= nil and type(filter) ~= "function" then
    argError(2, "push", 4, "filter must be a function, got " .. typeName(filter))
  end
  local carried, pushed, crushed = optionList(options, "carried"), optionList(options, "pushed"),
    optionList(options, "crushed")
  checkEnd("push", 2, shape, dx, dy)
  local st = self.scratch.push
  if st then
    self.scratch.push = false
  else
    st = newPushState()
  end
  local ux, uy = 0, -1
  if isVec(up) then
    local l = sqrt(up.x * up.x + up.y * up.y)
    if not (l > 0 and l < math.huge) then
      self.scratch.push = st
      argError(2, "push", 4, "up must be a vec other than (0, 0)")
    end
    ux, uy = up.x / l, up.y / l
  end
  st.platform, st.userFilter, st.ux, st.uy, st.walkable = shape, filter or false, ux, uy,
    cos(maxSlope)
  local seen = st.seen
  seen[shape] = true
  -- 1. who stands on it, before it moves
  local riders, nr = st.riders, 0
  if up ~= false then
    nr = ridersOf(self, st, shape, riders, 0)
  end
  -- 2. who is in its way: met by its motion (pairing with it, not static, not riding it),
  -- and how far each is to be pushed (the rest of the motion after the touch)
  local buf, way, wx, wy = st.buf, st.way, st.wx, st.wy
  local n = self.hash:sweep(shape, dx, dy, buf)
  local nw = 0
  local oway = shape.oneway
  local odx, ody = false, 0
  if isVec(oway) then
    odx, ody = oway.x, oway.y
  end
  for k = 1, n do
    local o = (k - 1) * HIT_STRIDE
    local other = buf[o + HIT_OTHER]
    buf[o + HIT_OTHER] = false
    if not seen[other] and buf[o + HIT_OVERLAPPING] == 0 and self.token[other]
        and not self.hash:isStatic(other) and allowed(self, shape, other)
        and not (odx and (-dx * odx - dy * ody <= 0
          or -(buf[o + HIT_NX] * odx + buf[o + HIT_NY] * ody) <= 0)) then
      seen[other] = true
      nw = nw + 1
      way[nw], wx[nw], wy[nw] = other, dx - buf[o + HIT_MX], dy - buf[o + HIT_MY]
    end
  end
  -- 3. the platform moves, whatever is there
  shape:move(dx, dy)
  -- 4. the riders, with what stands on them
  local nc = 0
  for i = 1, nr do
    if self.token[riders[i]] then
      nc = carry(self, st, riders[i], shape, dx, dy, carried, nc, 1)
    end
  end
  trim(carried, nc)
  -- 5. the shapes in the way, each by the rest of the motion
  st.support = false
  local np = 0
  for i = 1, nw do
    local s = way[i]
    if self.token[s] then
      perform(self, s, wx[i], wy[i], st.filter, st.mcols, false, nil, 3)
      np = np + 1
      pushed[np] = s
    end
    way[i] = false
  end
  trim(pushed, np)
  -- 6. whoever still overlaps it is crushed
  local nx = 0
  nx = select(2, sortOut(st, carried, nc, shape, crushed, nx))
  nx = select(2, sortOut(st, pushed, np, shape, crushed, nx))
  trim(crushed, nx)
  -- give the state back, keeping no shape
  trim(riders, 0)
  local k = next(seen)
  while k ~= nil do -- (no `for ... in pairs` in the world: see world_events.lua's clearTable)
    seen[k] = nil
    k = next(seen)
  end
  local mark = self.hash:mark() -- (the collision tables to the world's pool, keeping no shape)
  self.hash:trim(st.cols, 0, mark)
  self.hash:trim(st.mcols, 0, mark)
  st.platform, st.support, st.userFilter = false, false, false
  self.scratch.push = st
  return carried, pushed, crushed
end

-- A LuaJIT that fuses multiply-adds runs this file interpreted (the push's carrying would round
-- otherwise than the C core: sat.pure.jit says why); elsewhere nothing changes.
require("sat.pure.jit").unfuse({ M })

return M
