--- sat: 2D collision (Separating Axis Theorem) for convex polygons, circles, segments,
-- capsules and compounds (concave outlines, unions of shapes, chains).
-- The only module users require. The narrow phase is the core sat.backend chose: the C
-- module sat.core where one loads, else the same in pure Lua (sat.backend is "native" or
-- "lua"; sat.nativeError says why the native module did not load). The world (sat.world) and
-- the debug drawing helpers (sat.debug) are Lua and load on first use, so requiring sat never
-- requires LÖVE.
local backend = require("sat.backend")
local core = backend.core

local sat = {
  _VERSION = "sat " .. core._VERSION,
  _DESCRIPTION = "2D SAT collision for convex polygons, circles, segments, capsules and compounds "
    .. "(a C core, or the same in pure Lua)",
  _LICENSE = "MIT",
  core = core,
  backend = backend.name,
  nativeError = backend.nativeError,
}

for _, name in ipairs({
  "vec", "circle", "point", "polygon", "box", "segment", "capsule", "concave", "compound", "chain",
  "test", "collide", "isShape", "isVec", "explain", "contacts", "sweep",
}) do
  sat[name] = core[name]
end

-- Under LuaJIT with the JIT on, sat.test, sat.collide, sat.contacts, sat.sweep and the
-- shapes' collidesWith, move, moveTo and position call the native core through the FFI (see
-- sat/fast.lua); elsewhere, and on the pure backend, they stay the core's functions.
local fast = backend.name == "native" and require("sat.fast").install()
if fast then
  sat.test = fast.test
  sat.collide = fast.collide
  sat.contacts = fast.contacts
  sat.sweep = fast.sweep
end

--- sat.world([cellSize]) -> a new world (spatial hash broad phase, queries, callbacks).
function sat.world(cellSize)
  local world = require("sat.world").new(cellSize, 1) -- (no tail call: see new)
  return world
end

-- Loaded on first access only: sat.debug draws with love.graphics; sat.level builds levels
-- from tile grids and Tiled maps.
local lazy = { debug = "sat.debug", level = "sat.level" }

return setmetatable(sat, {
  __index = function(t, key)
    local name = lazy[key]
    if name == nil then
      return nil
    end
    local mod = require(name)
    rawset(t, key, mod)
    return mod
  end,
})
