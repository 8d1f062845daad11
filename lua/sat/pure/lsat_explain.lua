--- lsat_explain.lua - the pure backend's twin of src/lua/lsat_explain.c: seeing the theorem
-- work: sat.explain (the axes of a pair test, as a table that prints as one), sat.contacts and
-- sat.sweep.
--
-- sat.contacts and sat.sweep return numbers only (nothing allocated: the core fills this
-- file's tables, read at once). sat.explain is for looking at a pair, not for every frame: it
-- builds a table.
local U = require("sat.pure.lsat_util")
local K = require("sat.pure.sat_constants")
local E = require("sat.pure.sat_explain")
local CT = require("sat.pure.sat_contacts") -- sat_contacts and sat_sweep_contact

local M = {}

local type, rawget, select, setmetatable = type, rawget, select, setmetatable
local floor = math.floor
local format, concat = string.format, table.concat
local fmt_g = U.fmt_g

local REC = U.REC
local checkshape, checkcoord = U.checkshape, U.checkcoord

local MT_EXPLANATION = "sat.explanation"

-- Axes asked for first; a pair with more is explained again with room for all (the C's
-- stack buffer: every pair of polygons up to 29 vertices each).
local STACK_AXES = 64

local FEATURES = {
  [K.SAT_FEATURE_EDGE] = "edge", [K.SAT_FEATURE_VERTEX] = "vertex",
  [K.SAT_FEATURE_CENTRE] = "centre", [K.SAT_FEATURE_NORMAL] = "normal",
  [K.SAT_FEATURE_DIRECTION] = "direction", [K.SAT_FEATURE_ENDPOINT] = "endpoint",
}

local function feature_name(f)
  return FEATURES[f] or "?"
end

-- One axis as a table: {nx, ny, from, feature, aMin, aMax, bMin, bMax, overlap, separates};
-- features numbered from 1, as vertices() and endpoints() give the points (a circle's
-- centre, a segment's normal and direction have no number).
local function push_axis(ax)
  local t = {}
  t.nx = ax.nx + 0.0
  t.ny = ax.ny + 0.0
  t.from = ax.from ~= 0 and "b" or "a"
  local f = ax.feature
  if f == K.SAT_FEATURE_EDGE or f == K.SAT_FEATURE_VERTEX or f == K.SAT_FEATURE_ENDPOINT then
    t.feature = format("%s %d", feature_name(f), ax.index + 1)
  else
    t.feature = feature_name(f)
  end
  t.aMin = ax.a_min * 1.0
  t.aMax = ax.a_max * 1.0
  t.bMin = ax.b_min * 1.0
  t.bMax = ax.b_max * 1.0
  t.overlap = ax.overlap + 0.0
  t.separates = ax.separates ~= 0
  return t
end

local EXPLMT = {}

-- sat.explain(a, b) -> explanation: {a, b, hit, axes, deciding, overlap, normal,
-- containment} (the last three when hit).
local function l_explain(...)
  local a, b = ...
  local top = select("#", ...)
  local ra, rb = checkshape(a, 1, top), checkshape(b, 2, top)
  local e, axes = {}, {}
  E.sat_explain(ra, rb, e, axes, STACK_AXES)
  if e.count > STACK_AXES then -- a big polygon: again, with room for every axis
    axes = {}
    E.sat_explain(ra, rb, e, axes, e.count)
  end
  local t = {}
  t.a = a
  t.b = b
  t.hit = e.hit ~= 0
  local list = {}
  for k = 1, e.count do
    list[k] = push_axis(axes[k])
  end
  t.axes = list
  if e.deciding >= 0 then
    t.deciding = (e.deciding + 1) * 1.0
  end
  if e.hit ~= 0 then
    local r = e.result
    t.overlap = r.overlap * 1.0
    t.normal = U.push_vec(r.nx * 1.0, r.ny * 1.0)
    t.containment = e.containment * 1.0
  end
  return setmetatable(t, EXPLMT)
end

-- ---- tostring: a small table ------------------------------------------------------------

-- A field of the table t as text: a number with 6 significant digits (enough to read, short
-- enough for a column), "?" when it is not one.
local function field_num(t, key)
  local v = t[key]
  if type(v) == "number" then
    return fmt_g(6, v + 0.0)
  end
  return "?"
end

local function field_str(t, key)
  local v = t[key]
  return type(v) == "string" and v or "?"
end

local function field_true(t, key)
  local v = t[key]
  return v ~= nil and v ~= false
end

-- (int) of a double: toward zero.
local function int(v)
  if v >= 0 then
    return floor(v)
  end
  return -floor(-v)
end

-- A row's first columns: the marker of the deciding axis, #, from, feature, axis.
local ROW = "\n%s%3d  %-4s  %-11s %-20s"

local function axis_row(axis, k, deciding)
  local nx, ny = field_num(axis, "nx"), field_num(axis, "ny")
  local amin, amax = field_num(axis, "aMin"), field_num(axis, "aMax")
  local bmin, bmax = field_num(axis, "bMin"), field_num(axis, "bMax")
  local ov = field_num(axis, "overlap")
  local from, feat = field_str(axis, "from"), field_str(axis, "feature")
  local row = format(ROW, k == deciding and ">" or " ", k, from, feat,
    "(" .. nx .. ", " .. ny .. ")")
  row = row .. format(" %-22s", "[" .. amin .. ", " .. amax .. "]")
  local cell = "[" .. bmin .. ", " .. bmax .. "]"
  if field_true(axis, "separates") then
    return row .. format(" %-22s %-10s separates", cell, ov)
  end
  return row .. format(" %-22s %s", cell, ov)
end

-- explanation(hit, overlap 1 along (0.6, 0.8); axis 5 decides), then one row per axis.
local function explanation_tostring(...)
  local e = ...
  U.checktable(e, 1, select("#", ...))
  local deciding = 0
  local d = e.deciding
  if type(d) == "number" then
    deciding = int(d)
  end
  local axes = e.axes
  local count = U.istable(axes) and U.rawlen(axes) or 0
  local out = {}
  if field_true(e, "hit") then
    local ov, co = field_num(e, "overlap"), field_num(e, "containment")
    local n = U.tovec(e.normal)
    local nx = fmt_g(6, n and n[U.VX] + 0.0 or 0.0)
    local ny = fmt_g(6, n and n[U.VY] + 0.0 or 0.0)
    out[1] = format("explanation(hit, overlap %s along (%s, %s), containment %s", ov, nx, ny, co)
  else
    out[1] = "explanation(apart"
  end
  if deciding > 0 then
    out[2] = format("; axis %d %s)", deciding,
      field_true(e, "hit") and "gives the MTV" or "separates first")
  else
    out[2] = ")"
  end
  out[3] = format("\n   #  %-4s  %-11s %-20s %-22s %-22s %s", "from", "feature", "axis", "a", "b",
    "overlap")
  for k = 1, count do
    local axis = rawget(axes, k)
    if U.istable(axis) then
      out[#out + 1] = axis_row(axis, k, deciding)
    end
  end
  return concat(out)
end

-- ---- contacts and sweep: numbers only ----------------------------------------------------

-- sat.contacts(a, b) -> n, x1, y1, x2, y2: 0 alone when apart, else n and the n points.
local function l_contacts(...)
  local a, b = ...
  local ra = type(a) == "table" and rawget(a, REC)
  local rb = type(b) == "table" and rawget(b, REC)
  if not (ra and rb) then
    local top = select("#", ...)
    ra = checkshape(a, 1, top)
    rb = checkshape(b, 2, top)
  end
  local n, x1, y1, x2, y2 = CT.sat_contacts(ra, rb)
  if n == 0 then
    return 0
  end
  if n == 1 then
    return 1, x1 * 1.0, y1 * 1.0
  end
  return 2, x1 * 1.0, y1 * 1.0, x2 * 1.0, y2 * 1.0
end

-- The core's sweep hit (sat_sweep_hit), filled by sat_sweep_contact, read at once: one per
-- nesting depth (the C's is on its stack; a sweep may run inside another, from a finalizer
-- or a hook, see sat_sweep.lua).
local HITS = {}
local sweep_depth = 0

local function new_hit()
  return { overlapping = 0, t = 0.0, mx = 0.0, my = 0.0, dist2 = 0.0,
    result = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0, b_in_a = 0 } }
end

-- sat.sweep(a, dx, dy, b [, bdx, bdy]) -> t, nx, ny, x, y | nil
local function l_sweep(...)
  local a, dx, dy, b, bdx, bdy = ...
  local top = select("#", ...)
  local ra = checkshape(a, 1, top)
  dx = checkcoord(dx, 2, top)
  dy = checkcoord(dy, 3, top)
  local rb = checkshape(b, 4, top)
  bdx = bdx == nil and 0.0 or checkcoord(bdx, 5, top)
  bdy = bdy == nil and 0.0 or checkcoord(bdy, 6, top)
  local d = sweep_depth + 1
  sweep_depth = d
  local h = HITS[d]
  if h == nil then -- (the allocation may run a finalizer: d is counted already)
    h = new_hit()
    HITS[d] = h
  end
  local hit, px, py = CT.sat_sweep_contact(ra, dx, dy, rb, bdx, bdy, h)
  sweep_depth = d - 1
  if hit == 0 then
    return nil
  end
  local r = h.result
  return h.t * 1.0, r.nx + 0.0, r.ny + 0.0, px * 1.0, py * 1.0
end

local module_funcs = { { "explain", l_explain }, { "contacts", l_contacts }, { "sweep", l_sweep } }

local explanation_meta = { { "__tostring", explanation_tostring } }

-- luaL_newmetatable names its metatable (__name) from 5.3 on.
if U.VERSION >= 53 then
  EXPLMT.__name = MT_EXPLANATION
end
U.setfuncs(EXPLMT, explanation_meta)

--- lsat_open_explain: registers explain, contacts and sweep into the module table.
function M.open(module)
  U.setfuncs(module, module_funcs)
end

return M
