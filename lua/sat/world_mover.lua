--- sat.world_mover: world:mover(shape [, options]) -> mover: a character's moves, with the
-- ground rules a platformer needs, on top of world:move.
-- Part of sat.world (lua/sat/world.lua); requires nothing of the world but its checks and
-- its movement (world_move.lua, which does the work: its "walk" in place of "slide", and
-- its snap).
--
--   local body = world:mover(player, { up = sat.vec(0, -1), maxSlope = math.rad(50), snap = 8 })
--   -- every frame:
--   vy = vy + gravity * dt
--   local x, y, cols = body:move(vx * dt, vy * dt)
--   if body.grounded then vy = 0 end
--
-- What the rules do, against the shapes a move slides along ("slide", the default response;
-- the others keep their own):
-- - Ground (a surface within maxSlope of up) takes away only the part of the motion along up
--   that presses into it: standing still under gravity on a slope stays put (no drift), and
--   walking keeps its pace across a slope, climbing it.
-- - A steeper surface is a wall: the motion into it across up is stopped, never turned up
--   the slope; the shape slides down it.
-- - Snap: a move that began on the ground, was not going up, and ended off it, sweeps down
--   by up to `snap` and lands there when what it meets is ground: down slopes and steps no
--   higher than snap, the character stays on the ground.
-- - Step: a move that began on the ground and was kept from going all the way across up
--   (a step's riser, a slope's foot met corner to corner) is tried raised by up to `snap`,
--   across, and lowered again: when that lands on ground further across, it is taken. Up
--   steps no higher than snap and onto slopes from flat ground, it walks at its pace.
local core = require("sat.backend").core
local check = require("sat.world_check")
local movement = require("sat.world_move")

local type, error, setmetatable, tostring = type, error, setmetatable, tostring
local sqrt, cos, pi = math.sqrt, math.cos, math.pi
local vec, isVec = core.vec, core.isVec
local worlds, badSelf, argError = check.worlds, check.badSelf, check.argError
local checkMember, checkCoord, trailing, typeName = check.checkMember, check.checkCoord,
  check.trailing, check.typeName
local checkResult = check.checkResult
local perform, checkEnd = movement.perform, movement.checkEnd

local M = {}

local DEFAULT_SLOPE = 50 * pi / 180

local Mover = { __name = "mover" }
Mover.__index = Mover

-- Every mover made: movers[v] tells a mover from anything else (weak keys).
local movers = setmetatable({}, { __mode = "k" })

local function moverSelf(fname, v)
  error(("bad self to '%s' (mover expected, got %s)"):format(fname, typeName(v)), 3)
end

-- Reads the options into m.opts; returns nil, or what is wrong with them.
local function readOptions(m, up, maxSlope, snap)
  if not isVec(up) then
    return "up must be a vec, got " .. typeName(up)
  end
  local ux, uy = up.x, up.y
  local l = sqrt(ux * ux + uy * uy)
  if not (l > 0 and l < math.huge) then
    return "up must be a vec other than (0, 0), got " .. tostring(up)
  end
  if type(maxSlope) ~= "number" or not (maxSlope >= 0 and maxSlope <= pi / 2) then
    return "maxSlope must be an angle from 0 to pi / 2, got " ..
      (type(maxSlope) == "number" and tostring(maxSlope) or typeName(maxSlope))
  end
  if type(snap) ~= "number" or not (snap >= 0 and snap < math.huge) then
    return "snap must be a number >= 0, got " ..
      (type(snap) == "number" and tostring(snap) or typeName(snap))
  end
  local o = m.opts
  o.upx, o.upy, o.walkable, o.snap = ux / l, uy / l, cos(maxSlope), snap
  return nil
end

--- world:mover(shape [, options]) -> mover: shape (in this world) moved as a character.
-- options: up (a vec: the way up, default sat.vec(0, -1), y down as in LÖVE), maxSlope (the
-- steepest ground, radians from 0 to pi / 2, default 50 degrees), snap (how far down a move
-- that ended off the ground may reach for it, and how high a step it walks up; default 0).
-- The mover's fields: shape, world, up, maxSlope and snap (writable: read at every move),
-- grounded (the last move ended on the ground), ground (that shape, or nil) and normal (a
-- vec: the ground's normal, toward the shape; (0, 0) off the ground).
function M.new(self, shape, options)
  if not worlds[self] then badSelf("mover", self) end
  checkMember(self, "mover", 1, shape)
  if options ~= nil and type(options) ~= "table" then
    argError(2, "mover", 2, "table expected, got " .. typeName(options))
  end
  options = options or {}
  local up = options.up
  if up == nil then up = vec(0, -1) elseif isVec(up) then up = up:clone() end
  local maxSlope = options.maxSlope
  if maxSlope == nil then maxSlope = DEFAULT_SLOPE end
  local snap = options.snap
  if snap == nil then snap = 0 end
  local m = setmetatable({ world = self, shape = shape, up = up, maxSlope = maxSlope,
    snap = snap, grounded = false, ground = nil, normal = vec(0, 0),
    opts = { upx = 0, upy = 0, walkable = 0, snap = 0, grounded = false, ground = false,
      gnx = 0, gny = 0 } }, Mover)
  local wrong = readOptions(m, up, maxSlope, snap)
  if wrong then
    argError(2, "mover", 2, wrong)
  end
  movers[m] = true
  return m
end

-- Before a move or a check (fname) of m: the shape still in the world, the options right.
local function ready(m, fname)
  if not m.world.token[m.shape] then
    return fname .. ": the mover's shape is not in its world"
  end
  local wrong = readOptions(m, m.up, m.maxSlope, m.snap)
  if wrong then
    return fname .. ": the mover's " .. wrong
  end
  m.opts.grounded = m.grounded
  return nil
end

-- After a move: where it ended.
local function landed(m)
  local o = m.opts
  local g = o.ground
  m.grounded, m.ground = g ~= false, g or nil
  if g then
    m.normal.x, m.normal.y = o.gnx, o.gny
  else
    m.normal.x, m.normal.y = 0, 0
  end
  o.ground = false
end

--- mover:move(dx, dy [, filter] [, cols]) -> x, y, collisions: world:move of the shape with
-- the ground rules above; then grounded, ground and normal tell where it ended.
function Mover:move(dx, dy, a, b)
  if not movers[self] then moverSelf("move", self) end
  dx = checkCoord("move", 1, dx)
  dy = checkCoord("move", 2, dy)
  local filter, cols = trailing("move", 3, a, b)
  if cols ~= nil then
    checkResult("move", b ~= nil and 4 or 3, cols)
  end
  local wrong = ready(self, "move")
  if wrong then
    error(wrong, 2)
  end
  checkEnd("move", 1, self.shape, dx, dy)
  local x, y, list = perform(self.world, self.shape, dx, dy, filter, cols, false, self.opts)
  landed(self)
  return x, y, list
end

--- mover:check(dx, dy [, filter] [, cols]) -> x, y, collisions: what mover:move would do,
-- changing nothing (not the mover's fields either).
function Mover:check(dx, dy, a, b)
  if not movers[self] then moverSelf("check", self) end
  dx = checkCoord("check", 1, dx)
  dy = checkCoord("check", 2, dy)
  local filter, cols = trailing("check", 3, a, b)
  if cols ~= nil then
    checkResult("check", b ~= nil and 4 or 3, cols)
  end
  local wrong = ready(self, "check")
  if wrong then
    error(wrong, 2)
  end
  checkEnd("check", 1, self.shape, dx, dy)
  local x, y, list = perform(self.world, self.shape, dx, dy, filter, cols, true, self.opts)
  self.opts.ground = false
  return x, y, list
end

function Mover:__tostring()
  return ("mover(%s%s)"):format(self.shape:kind(), self.grounded and ", grounded" or "")
end

-- A LuaJIT that fuses multiply-adds runs this file interpreted (the mover's ground would round
-- otherwise than the C core: sat.pure.jit says why); elsewhere nothing changes.
require("sat.pure.jit").unfuse({ M })

return M
