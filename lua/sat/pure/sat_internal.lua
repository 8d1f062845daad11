--- sat_internal.lua - the pure backend's twin of src/core/sat_internal.h: vector maths, the
-- double-double position arithmetic, the polygon arrays' readers, and what Lua lacks with C's
-- exact semantics: ldexp, frexp, fmin, fmax, fabs.
--
-- A sat_vec is two numbers (x, y) in arguments and returns. Hot code does not call the small
-- helpers here (a call costs more than the arithmetic in PUC Lua): it writes the same
-- expressions inline, in the same order, and names the helper it stands for in a comment.
--
-- Shape records (see /work/helpers/PURE.md): plain tables with the C's scalar fields (kind,
-- count, radius, bound, scale, angle, id, category, mask, user, members), pos as px, py and
-- pos_lo as plx, ply; a polygon's 1-based arrays nx, ny (world unit normals), ox, oy (world
-- offsets), deep (for more than 4 vertices: the array position of the vertex deepest along
-- each edge's normal), sup and least (its greatest and least extents along each of its
-- normals, at world size: what the C derives where it reads it, sat__support and
-- sat__least, kept by the pure core, where a read costs less than the arithmetic: the same
-- bits), and lx, ly (its local points, or nil while it is lean: C's SAT__LOCAL_NONE, the
-- offsets being the local points); a segment's or a capsule's hx, hy
-- (world half), ux, uy (unit direction), lhx, lhy (local half), hlen (world half-length:
-- C's v[3].x), lhlen (|local half|: v[3].y). A compound record (sat_compound.lua's design)
-- has at least count (its parts) and parts[1..count] (its parts in the world).
--
-- Indices: a function here that takes an edge or a vertex takes its 1-based array position
-- (C's i + 1), unless it says otherwise.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
local K = require("sat.pure.sat_constants")

local M = {}

local sqrt, floor = math.sqrt, math.floor
local HUGE = math.huge

local SAT_POLYGON, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_MAX_COORD, SAT_MIN_SIZE, SAT_MAX_POINTS = K.SAT_MAX_COORD, K.SAT_MIN_SIZE, K.SAT_MAX_POINTS
local SAT_TOUCH_REL = K.SAT_TOUCH_REL

-- ---- powers of two and C's libm functions that Lua lacks --------------------------------

-- P2[k] = 2^k, exactly, for k in [-1074, 1023]: by doubling and halving from 1 (every step
-- exact), not by `2^k`, which LuaJIT computes by repeated products that overflow for the
-- reciprocals of the smallest.
local P2 = { [0] = 1.0 }
do
  local v = 1.0
  for k = 1, 1023 do
    v = v * 2.0
    P2[k] = v
  end
  v = 1.0
  for k = -1, -1074, -1 do
    v = v * 0.5
    P2[k] = v
  end
end
M.P2 = P2

local MIN_NORMAL = P2[-1022]

--- frexp(x) -> m, e: x = m * 2^e with |m| in [0.5, 1); x itself and 0 for a zero (either
-- sign), an infinity or NaN, as C's frexp. Exact for every double, subnormals included.
local function frexp(x)
  if x == 0 or x - x ~= 0 then
    return x, 0
  end
  local a, shift = x < 0 and -x or x, 0
  if a < MIN_NORMAL then -- subnormal: made normal, exactly
    a = a * P2[64]
    shift = -64
  end
  -- the least e in [-1021, 1024] with a < 2^e (2^1024 standing for past the largest)
  local lo, hi = -1021, 1024
  while lo < hi do
    local mid = floor((lo + hi) / 2)
    if mid < 1024 and a < P2[mid] then
      hi = mid
    else
      lo = mid + 1
    end
  end
  local e = lo + shift
  -- x * 2^-e: one exact product (the result is in [0.5, 1)), or two for e = 1024 and for the
  -- subnormals' exponents below -1022 (each exact)
  local m
  if e > 1022 then
    m = x * 0.5 * P2[1 - e]
  elseif e < -1022 then
    m = x * P2[1022] * P2[-e - 1022]
  else
    m = x * P2[-e]
  end
  return m, e
end
M.frexp = frexp

--- ldexp(x, e) -> x * 2^e, rounded once, as C's ldexp: subnormal results and overflow
-- included; a zero, an infinity or NaN unchanged. e is an integer.
local function ldexp(x, e)
  if e >= -1022 and e <= 1023 then
    local r = x * P2[e] -- exact when the result is normal and finite
    local a = r < 0 and -r or r
    if a > MIN_NORMAL and a < HUGE then
      return r
    end
  end
  if x == 0 or x - x ~= 0 then
    return x
  end
  local m, k = frexp(x) -- x = m * 2^k, |m| in [0.5, 1)
  local t = k + e       -- the result is m * 2^t
  if t > 1024 then
    return m * P2[1023] * P2[1023] -- overflows to an infinity of m's sign
  end
  if t == 1024 then
    return m * P2[1023] * 2.0
  end
  if t >= -1021 then
    return m * P2[t] -- normal: exact
  end
  if t < -1100 then
    return m * 0.0 -- below half the least subnormal: a zero of m's sign
  end
  -- subnormal: an exact scaling into the normal range, then the one rounding
  return (m * P2[-1000]) * P2[t + 1000]
end
M.ldexp = ldexp

--- fmin and fmax as this machine's libm computes them (glibc x86-64: minsd / maxsd): equal
-- operands (-0 and +0 included) give the second; a quiet NaN gives the other operand.
local function fmin(x, y)
  if x < y then
    return x
  elseif y == y then
    return y
  end
  return x
end
M.fmin = fmin

local function fmax(x, y)
  if x > y then
    return x
  elseif y == y then
    return y
  end
  return x
end
M.fmax = fmax

--- fabs: math.abs on a float is C's fabs (a zero comes out +0). Hot code writes
-- `x < 0 and -x or x + 0.0`, the same for every value but NaN's sign.
M.fabs = math.abs

--- isfinite
local function isfinite(v)
  return v - v == 0
end
M.isfinite = isfinite

-- ---- vectors ------------------------------------------------------------------------------

-- Squares of lengths in this range neither overflow nor lose bits to underflow.
local SQ_LO, SQ_HI = 1e-280, 1e300
local UP, DOWN = P2[600], P2[-600]
M.SAT__SQ_LO, M.SAT__SQ_HI = SQ_LO, SQ_HI

--- sat__rescale(x, y, l2) -> x, y, l2, k: outside the range, a rescale by a power of two
-- (exact) brings the square back into it; k is the factor applied (1 when none).
local function rescale(x, y, l2)
  local k = 1.0
  if not (l2 > SQ_LO and l2 < SQ_HI) then
    k = l2 < 1.0 and UP or DOWN
    x = x * k
    y = y * k
    l2 = x * x + y * y
  end
  return x, y, l2, k
end
M.sat__rescale = rescale

--- sat__len(x, y): length, without overflow or underflow.
local function len(x, y)
  local l2 = x * x + y * y
  local k = 1.0
  if not (l2 > SQ_LO and l2 < SQ_HI) then
    k = l2 < 1.0 and UP or DOWN
    x = x * k
    y = y * k
    l2 = x * x + y * y
  end
  return sqrt(l2) / k
end
M.sat__len = len

--- sat__normalize(x, y) -> ux, uy, len: a zero (or non-finite) vector gives (0, 0).
local function normalize(x, y)
  local l2 = x * x + y * y
  local k = 1.0
  if not (l2 > SQ_LO and l2 < SQ_HI) then
    k = l2 < 1.0 and UP or DOWN
    x = x * k
    y = y * k
    l2 = x * x + y * y
  end
  local l = sqrt(l2)
  if not (l > 0.0) or not (l < HUGE) then
    return 0.0, 0.0, l / k
  end
  return x / l, y / l, l / k
end
M.sat__normalize = normalize

--- sat__two_sum(a, b) -> s, e: Knuth's TwoSum, s + e == a + b exactly.
local function two_sum(a, b)
  local x = a + b
  local bv = x - a
  local av = x - bv
  return x, (a - av) + (b - bv)
end
M.sat__two_sum = two_sum

--- sat__offset(a, b) -> dx, dy: b's position relative to a's, from the double-double
-- positions.
function M.sat__offset(a, b)
  return (b.px - a.px) + (b.plx - a.plx), (b.py - a.py) + (b.ply - a.ply)
end

--- sat__in_range(v)
local function in_range(v)
  return (v < 0 and -v or v) <= SAT_MAX_COORD
end
M.sat__in_range = in_range

--- sat__check_points(xs, ys, count) -> status: at most SAT_MAX_POINTS, each finite, each in
-- range, at least 3.
function M.sat__check_points(xs, ys, count)
  if count > SAT_MAX_POINTS then
    return K.SAT_ERR_TOO_MANY_POINTS
  end
  for i = 1, count do
    if not isfinite(xs[i]) or not isfinite(ys[i]) then
      return K.SAT_ERR_NONFINITE
    end
  end
  for i = 1, count do
    if not in_range(xs[i]) or not in_range(ys[i]) then
      return K.SAT_ERR_RANGE
    end
  end
  return count < 3 and K.SAT_ERR_TOO_FEW_POINTS or K.SAT_OK
end

--- sat__unit_points(xs, ys, count, px, py) -> status, exponent, size: the points written to
-- px, py relative to the first and scaled by 2^-exponent to unit size (size in [0.5, 1)).
-- px, py may be xs, ys themselves.
function M.sat__unit_points(xs, ys, count, px, py)
  local ox, oy = xs[1], ys[1]
  local lox, loy, hix, hiy = 0.0, 0.0, 0.0, 0.0
  for i = 1, count do
    local x, y = xs[i] - ox, ys[i] - oy
    px[i], py[i] = x, y
    lox = fmin(lox, x)
    loy = fmin(loy, y)
    hix = fmax(hix, x)
    hiy = fmax(hiy, y)
  end
  local extent = fmax(hix - lox, hiy - loy)
  if not (extent > 0.0) then
    return K.SAT_ERR_TOO_FEW_POINTS
  end
  if extent < SAT_MIN_SIZE then
    return K.SAT_ERR_RANGE
  end
  local _, exponent = frexp(extent)
  for i = 1, count do
    px[i] = ldexp(px[i], -exponent)
    py[i] = ldexp(py[i], -exponent)
  end
  return K.SAT_OK, exponent, ldexp(extent, -exponent)
end

--- sat__relative(s, x, y) -> x, y: a world point relative to a shape's position.
function M.sat__relative(s, x, y)
  return (x - s.px) - s.plx, (y - s.py) - s.ply
end

--- sat__changed(s): every change of a shape's transform, geometry or filter bits ends here;
-- the holders' records (s.members, a list through `next`, made by the hash files) are told:
-- the first record's `changed` walks the list itself (sat_hash.lua's member_changed, under
-- its lock: a record could be unlinked between two calls made from here).
function M.sat__changed(s)
  local m = s.members
  if m then
    m.changed(m)
  end
end

-- ---- polygons ------------------------------------------------------------------------------

--- sat__support(s, i): a polygon's greatest extent along its own normal i, at world size.
function M.sat__support(s, i)
  return s.ox[i] * s.nx[i] + s.oy[i] * s.ny[i]
end

--- sat__least(s, i): its least extent along normal i: its deepest vertex's (found at build,
-- for more than 4 vertices), else the lesser of the two vertices past the edge.
local function least(s, i)
  local ox, oy, nx, ny, c = s.ox, s.oy, s.nx[i], s.ny[i], s.count
  if c > 4 then
    local k = s.deep[i]
    return ox[k] * nx + oy[k] * ny
  end
  -- 0-based: j = i + 2 (mod c), k = j + 1 (mod c); here 1-based positions
  local j = i + 2
  if j > c then
    j = j - c
  end
  local k = j + 1
  if k > c then
    k = 1
  end
  local v = ox[j] * nx + oy[j] * ny
  local w = c == 4 and ox[k] * nx + oy[k] * ny or v
  return w < v and w or v
end
M.sat__least = least

--- sat__needs_local(s, angle, scale): whether turning or scaling a lean polygon to this needs
-- its local points kept apart (the pure core then gives them at once: sat_shape.lua).
function M.sat__needs_local(s, angle, scale)
  return s.kind == SAT_POLYGON and s.lx == nil and not (angle == 0.0 and scale == 1.0)
end

--- sat__edge_normal(lx, ly, n, i) -> x, y: the local unit normal of edge i (from point i to
-- the next) of n local points.
function M.sat__edge_normal(lx, ly, n, i)
  local j = i == n and 1 or i + 1
  local px, py, qx, qy = lx[i], ly[i], lx[j], ly[j]
  local x, y = normalize(qy - py, -(qx - px))
  return x, y
end

--- sat__project(s, nx, ny) -> lo, hi: the interval of a polygon's offsets along n.
function M.sat__project(s, nx, ny)
  local ox, oy = s.ox, s.oy
  local mn = ox[1] * nx + oy[1] * ny
  local mx = mn
  for i = 2, s.count do
    local v = ox[i] * nx + oy[i] * ny
    if v < mn then
      mn = v
    end
    if v > mx then
      mx = v
    end
  end
  return mn, mx
end

--- sat__touch_tol(a, b): the gap up to which a pair counts as touching.
function M.sat__touch_tol(a, b)
  return SAT_TOUCH_REL * (a.bound + b.bound)
end

-- ---- compounds -------------------------------------------------------------------------------

--- sat__nparts(s), sat__part_of(s, i): the parts a shape stands for (a compound's, or
-- itself); i is 1-based.
function M.sat__nparts(s)
  return s.kind == SAT_COMPOUND and s.count or 1
end

function M.sat__part_of(s, i)
  if s.kind == SAT_COMPOUND then
    return s.parts[i]
  end
  return s
end

-- ---- segments and capsules -------------------------------------------------------------------

--- sat__has_segment(s)
function M.sat__has_segment(s)
  local k = s.kind
  return k == SAT_SEGMENT or k == SAT_CAPSULE
end

--- sat__core_closest(x, y, cx, cy, hx, hy, ux, uy, L) -> d2, side, tox, toy, inside: where a
-- segment core (at offset c, half h, unit direction u, left normal (-uy, ux), half-length L)
-- is closest to p: inside the segment (side: p's signed distance along the normal) or at an
-- end (to: from p to it); d2 the squared distance.
local function core_closest(x, y, cx, cy, hx, hy, ux, uy, L)
  local wx, wy = x - cx, y - cy
  local t = wx * ux + wy * uy
  local inside = t >= -L and t <= L
  local side = wx * -uy + wy * ux
  local tox, toy
  if t > 0.0 then
    tox, toy = (cx + hx) - x, (cy + hy) - y
  else
    tox, toy = (cx - hx) - x, (cy - hy) - y
  end
  local d2
  if inside then
    d2 = side * side
  else
    d2 = tox * tox + toy * toy
  end
  return d2, side, tox, toy, inside
end
M.sat__core_closest = core_closest

--- sat__closest_dir(side, tox, toy, inside, ux, uy) -> dist, dx, dy: the distance of a closest
-- point and the unit direction from p toward it (the core's normal when inside the segment,
-- else the way to the end; a p on the segment gets -n).
local function closest_dir(side, tox, toy, inside, ux, uy)
  if inside then
    if side < 0.0 then
      return (side < 0 and -side or side + 0.0), -uy, ux
    end
    return (side < 0 and -side or side + 0.0), uy, -ux
  end
  local dx, dy, dist = normalize(tox, toy)
  if dx == 0.0 and dy == 0.0 then
    dx, dy = uy, -ux
  end
  return dist, dx, dy
end
M.sat__closest_dir = closest_dir

--- sat__core_distance(x, y, cx, cy, hx, hy, ux, uy, L) -> dist, dx, dy
function M.sat__core_distance(x, y, cx, cy, hx, hy, ux, uy, L)
  local _, side, tox, toy, inside = core_closest(x, y, cx, cy, hx, hy, ux, uy, L)
  return closest_dir(side, tox, toy, inside, ux, uy)
end

return M
