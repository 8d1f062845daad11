--- sat_explain.lua - the pure backend's twin of src/core/sat_explain.c: sat_explain listens
-- to sat_collide's own pair functions as they run (sat_collide_traced.lua, generated from
-- sat_collide.lua with its trace hooks on) and writes what they report into the caller's
-- axes, seen from the caller's a and b, in world units.
--
-- sat_explain(a, b, e, axes, capacity) -> e.hit: e (a table) gets hit, count, deciding,
-- containment and result (a table: overlap, nx, ny, mx, my, a_in_b, b_in_a; zeros unless
-- hit); axes[k + 1] (a table, made when missing) gets axis k's nx, ny, from, feature, index,
-- separates (0 or 1), a_min, a_max, b_min, b_max and overlap, for k < capacity. Indices and
-- the deciding axis are the C's (0-based, -1 for none).
local I = require("sat.pure.sat_internal")
local K = require("sat.pure.sat_constants")
local T = require("sat.pure.sat_collide_traced")

local M = {}

local HUGE = math.huge
local SAT_POLYGON, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local collide_traced = T.sat__collide_traced

--- sat__interval(s, cx, cy, nx, ny) -> lo, hi: a shape's interval along n, radius included,
-- with its position at offset c (a compound: its parts' together).
local function interval(s, cx, cy, nx, ny)
  local at, w = cx * nx + cy * ny, s.radius
  local kind = s.kind
  if kind == SAT_COMPOUND then
    local lo, hi = HUGE, -HUGE
    local parts = s.parts
    for i = 1, s.count do
      local p = parts[i]
      local ox, oy = (p.px - s.px) + (p.plx - s.plx), (p.py - s.py) + (p.ply - s.ply)
      local pl, ph = interval(p, cx + ox, cy + oy, nx, ny)
      lo = pl < lo and pl or lo
      hi = ph > hi and ph or hi
    end
    return lo, hi
  end
  if kind == SAT_POLYGON then
    local lo, hi = I.sat__project(s, nx, ny)
    return lo + at, hi + at
  end
  if kind == SAT_SEGMENT or kind == SAT_CAPSULE then
    local h = s.hx * nx + s.hy * ny
    w = w + (h < 0 and -h or h + 0.0)
  end
  return at - w, at + w
end
M.sat__interval = interval

-- ---- the listener (a sink: pair, axis, verdict) ----------------------------------------

local function on_pair(x, first, second)
  x.first = first
  x.second = second
  x.swapped = first ~= x.a
  x.dx, x.dy = (second.px - first.px) + (second.plx - first.plx),
    (second.py - first.py) + (second.ply - first.ply)
  x.base = x.count
end

local function on_axis(x, nx, ny, from, feature, index, separates, measured, amin, amax, bmin,
                       bmax, overlap)
  local k = x.count
  x.count = k + 1
  if separates and x.separating < 0 then
    x.separating = k
  end
  if k >= x.capacity then
    return
  end
  local axes = x.axes
  local ax = axes[k + 1]
  if ax == nil then
    ax = {}
    axes[k + 1] = ax
  end
  if not measured then
    if x.swapped then
      nx, ny = -nx, -ny -- from the caller's a toward b
    end
    amin, amax = interval(x.first, 0.0, 0.0, nx, ny)
    bmin, bmax = interval(x.second, x.dx, x.dy, nx, ny)
  end
  -- the first shape's position along n, from both parts of the double-double
  local first = x.first
  local base = (first.px * nx + first.py * ny) + (first.plx * nx + first.ply * ny)
  ax.nx, ax.ny = nx, ny
  ax.feature = feature
  ax.index = index
  ax.separates = separates and 1 or 0
  ax.overlap = overlap
  if x.swapped then
    ax.from = 1 - from
    ax.a_min, ax.a_max = bmin + base, bmax + base
    ax.b_min, ax.b_max = amin + base, amax + base
  else
    ax.from = from
    ax.a_min, ax.a_max = amin + base, amax + base
    ax.b_min, ax.b_max = bmin + base, bmax + base
  end
end

local function on_verdict(x, axis)
  x.deciding = axis < 0 and -1 or x.base + axis
end

-- A contained shape's interval along the normal lies inside the other's: the depth adds the
-- distance from it to the nearer end of the other's, beyond the contained one's width.
local function containment(a, b, r)
  if r.a_in_b == 0 and r.b_in_a == 0 then
    return 0.0
  end
  local lo, hi = interval(r.a_in_b ~= 0 and a or b, 0.0, 0.0, r.nx, r.ny)
  local extra = r.overlap - (hi - lo)
  return extra > 0.0 and extra or 0.0
end

local RESULT_FIELDS = { "overlap", "nx", "ny", "mx", "my", "a_in_b", "b_in_a" }

--- sat_explain(a, b, e, axes, capacity) -> hit (1 or 0): see the top.
function M.sat_explain(a, b, e, axes, capacity)
  local x = {
    pair = on_pair, axis = on_axis, verdict = on_verdict, apart = false,
    a = a, b = b, axes = axes,
    capacity = (axes ~= nil and capacity > 0) and capacity or 0,
    count = 0, base = 0, separating = -1, deciding = -1,
  }
  local r = {}
  local result = e.result or {}
  e.result = result
  e.hit, e.count, e.deciding, e.containment = 0, 0, 0, 0.0
  for _, k in ipairs(RESULT_FIELDS) do
    result[k] = 0
  end
  result.overlap, result.nx, result.ny, result.mx, result.my = 0.0, 0.0, 0.0, 0.0, 0.0
  local hit = collide_traced(a, b, r, x)
  e.hit = hit
  e.count = x.count
  e.deciding = hit == 1 and x.deciding or x.separating
  if hit == 1 then
    for _, k in ipairs(RESULT_FIELDS) do
      result[k] = r[k]
    end
    e.containment = containment(a, b, r)
  end
  return hit
end

return M
