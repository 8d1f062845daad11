--- sat.world_check: the world's argument checks, in the C binding's words
-- (src/lua/lsat_util.c): the same type names ("vec", a shape's kind, "response", "world",
-- another library's __name), "nan" and "inf", numeric strings taken as numbers, and the
-- position of the caller of the world's method; and the set of worlds, by which every
-- method knows its receiver is one.
-- Part of sat.world (lua/sat/world.lua); requires nothing of the world.
local core = require("sat.backend").core

local type, error, tostring, tonumber = type, error, tostring, tonumber
local getmetatable, rawget = getmetatable, rawget
local isShape, isVec, vec = core.isShape, core.isVec, core.vec

local M = {}

-- Every world made (world.lua's new), as a key: worlds[v] tells a world from anything else
-- by one table lookup, with no call, which every world method makes first:
--   if not worlds[self] then badSelf("step", self) end
-- (a dot written for a colon passes the first argument, or nothing, as self). Weak keys: a
-- world collected leaves; one kept alive by an object being finalized stays (its key is
-- cleared only once nothing can reach it, in Lua 5.1 to 5.4 and LuaJIT alike).
local worlds = setmetatable({}, { __mode = "k" })
M.worlds = worlds

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
  if worlds[v] then
    return "world"
  end
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
      -- (a table given a world's metatable is not a world)
      if type(name) == "string" and not OWN_NAMES[name] and name ~= "world" then
        return name
      end
    end
  end
  return t
end
M.typeName = typeName

-- A value in a message: a string or a number as it is, anything else its type name.
function M.describe(v)
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
M.argError = argError

-- Checks called straight from a world method raise at depth 3 (argError, the check, the
-- method), the caller's line.

-- The error for world method fname called on v, not a world: raised at level 3 (badSelf,
-- the method, its caller).
function M.badSelf(fname, v)
  error(("bad self to '%s' (world expected, got %s)"):format(fname, typeName(v)), 3)
end

function M.checkShape(fname, n, v)
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
M.toFinite = toFinite

function M.checkNumber(fname, n, v)
  return (toFinite(fname, n, v, 4))
end

-- The core's range for coordinates and sizes (set by the first world: the hash tells).
local MAX_COORD, RANGE_MESSAGE = math.huge, "out of range"
-- The same range, read by the hot paths that check a coordinate inline (world:move): a
-- finite number x with -limits.maxCoord <= x <= limits.maxCoord passes checkCoord unchanged.
M.limits = { maxCoord = MAX_COORD }

function M.setLimits(maxCoord, rangeMessage)
  MAX_COORD, RANGE_MESSAGE = maxCoord, rangeMessage
  M.limits.maxCoord = maxCoord
end

-- A coordinate or size going into the core: a finite number within its range; returns it.
function M.checkCoord(fname, n, v)
  local x = toFinite(fname, n, v, 4)
  if x > MAX_COORD or x < -MAX_COORD then
    argError(3, fname, n, RANGE_MESSAGE)
  end
  return x
end

-- The same, from a function that the world's method calls (one level deeper).
function M.checkCoordBelow(fname, n, v)
  local x = toFinite(fname, n, v, 5)
  if x > MAX_COORD or x < -MAX_COORD then
    argError(4, fname, n, RANGE_MESSAGE)
  end
  return x
end

function M.checkOptFunction(fname, n, v)
  if v ~= nil and type(v) ~= "function" then
    argError(3, fname, n, "function expected, got " .. typeName(v))
  end
end

function M.checkOptTable(fname, n, v)
  if v ~= nil and type(v) ~= "table" then
    argError(3, fname, n, "table expected, got " .. typeName(v))
  end
end

-- The optional last arguments of a query or a move: a filter function, then a table to fill
-- (either may be left out). Returns filter, out.
function M.trailing(fname, n, a, b)
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

-- A table the world fills with tables of its own (querySegment's hits, the responses of
-- collisions and move): not one with weak values, whose entries the collector could take
-- while it is filled (it failed, after rounds of refilling, with a message about a table
-- changed under the call). n: its argument number.
function M.checkResult(fname, n, t)
  local mt = getmetatable(t)
  if type(mt) == "table" then
    local mode = rawget(mt, "__mode")
    if type(mode) == "string" and mode:find("v", 1, true) then
      argError(3, fname, n, ("result table has weak values (__mode = %q): the tables put in " ..
        "it could be collected while it is filled; give a table without weak values")
        :format(mode))
    end
  end
end

function M.checkMember(self, fname, n, shape)
  if not isShape(shape) then
    argError(3, fname, n, "shape expected, got " .. typeName(shape))
  end
  if not self.token[shape] then
    argError(3, fname, n, "shape is not in this world")
  end
end

-- The world filter's verdict on a pair (setFilter's function; every pair passes without
-- one), asked with the shape added first as a. Not an argument check, but the one check of
-- a pair that both world:collisions and world:move make.
function M.allowed(self, shape, other)
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

return M
