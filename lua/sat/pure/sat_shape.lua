--- sat_shape.lua - the pure backend's twin of src/core/sat_shape.c: building, validating and
-- transforming shapes; per-shape queries.
--
-- A shape is a record (a plain table, see sat_internal.lua) that the binding makes empty and
-- an init function fills: sat_circle_init(s, x, y, r) -> status, as in C (on a failure the
-- record is unspecified: discard it). Transforms return a status and change nothing on an
-- error. Every computation is the C's, operation for operation.
--
-- Lean polygons (sat_polygon_build_lean, as the binding builds them): the local points are
-- the offsets (lx, ly nil: C's SAT__LOCAL_NONE) while the polygon keeps rotation 0 and
-- scale 1. A first turn or scale away from that is refused with SAT_ERR_NO_LOCAL (after
-- every other check, changing nothing), as the C does; the binding then makes the arrays,
-- gives them (sat_shape_give_local: copies of the offsets) and makes the call again.
--
-- Compounds: their parts of this file (sat__compound_refresh, place, scale_ok, area,
-- contains, box, copy and the readers) are sat_compound.lua's, reached through its module
-- table when a compound is met (required then: it requires this file).
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
local K = require("sat.pure.sat_constants")
local I = require("sat.pure.sat_internal")
local SM = require("sat.pure.sat_math")

local M = {}

local sat_sincos, sat_atan2 = SM.sat_sincos, SM.sat_atan2
local sqrt = math.sqrt
local HUGE = math.huge

local SAT_POLYGON, SAT_CIRCLE, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_CIRCLE, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_OK = K.SAT_OK
local SAT_ERR_NONFINITE, SAT_ERR_TOO_FEW_POINTS, SAT_ERR_ZERO_AREA, SAT_ERR_NOT_CONVEX =
  K.SAT_ERR_NONFINITE, K.SAT_ERR_TOO_FEW_POINTS, K.SAT_ERR_ZERO_AREA, K.SAT_ERR_NOT_CONVEX
local SAT_ERR_NEGATIVE_RADIUS, SAT_ERR_BAD_SCALE, SAT_ERR_RANGE, SAT_ERR_NO_LOCAL =
  K.SAT_ERR_NEGATIVE_RADIUS, K.SAT_ERR_BAD_SCALE, K.SAT_ERR_RANGE, K.SAT_ERR_NO_LOCAL
local SAT_ERR_SAME_POINTS, SAT_ERR_ANGLE = K.SAT_ERR_SAME_POINTS, K.SAT_ERR_ANGLE
local SAT_MIN_SIZE, SAT_MERGE_REL, SAT_COLLINEAR_REL, SAT_AREA_REL =
  K.SAT_MIN_SIZE, K.SAT_MERGE_REL, K.SAT_COLLINEAR_REL, K.SAT_AREA_REL
local SAT_TOUCH_REL, SAT_PI = K.SAT_TOUCH_REL, K.SAT_PI

local normalize, len, two_sum, ldexp = I.sat__normalize, I.sat__len, I.sat__two_sum, I.ldexp
local in_range, isfinite, changed = I.sat__in_range, I.isfinite, I.sat__changed
local edge_normal, needs_local = I.sat__edge_normal, I.sat__needs_local
local sat__least = I.sat__least

M.sat_status_message = K.sat_status_message

-- sat_compound.lua, when a compound is met.
local compound_mod
local function compound()
  compound_mod = compound_mod or require("sat.pure.sat_compound")
  return compound_mod
end

local function has_segment(s)
  local k = s.kind
  return k == SAT_SEGMENT or k == SAT_CAPSULE
end

-- A change in progress (from its first write to the end of its derivation) holds its record's
-- change count raised by BUSY (see update_cache), in the count rather than a field of its own.
local BUSY = 2 ^ 40

local function init_common(s, kind)
  s.kind = kind
  s.count = 0
  s.category = 1
  s.mask = 0xFFFFFFFF
  s.id = 0
  s.members = nil
  s.user = nil
  s.px, s.py = 0.0, 0.0
  s.plx, s.ply = 0.0, 0.0
  s.angle = 0.0
  s.scale = 1.0
  s.radius = 0.0
  s.bound = 0.0
  s.ver = 0
end

-- A segment's or capsule's world half, direction, half-length and bound.
local function update_segment(s)
  local sn, c = sat_sincos(s.angle)
  local k, r = s.scale, s.radius
  local lhx, lhy, lux, luy = s.lhx, s.lhy, 1.0, 0.0
  if s.lhlen > 0.0 then
    lux, luy = normalize(lhx, lhy)
  end
  lhx, lhy = k * lhx, k * lhy
  -- + 0.0 turns a -0 into 0, so results never print "-0".
  s.hx, s.hy = c * lhx - sn * lhy + 0.0, sn * lhx + c * lhy + 0.0
  s.ux, s.uy = c * lux - sn * luy + 0.0, sn * lux + c * luy + 0.0
  s.hlen = k * s.lhlen
  s.bound = s.hlen + r
end

-- The box of a polygon's world offsets.
local function polygon_box(s)
  local ox, oy = s.ox, s.oy
  local lox, loy, hix, hiy = HUGE, HUGE, -HUGE, -HUGE
  for i = 1, s.count do
    local x, y = ox[i], oy[i]
    if x < lox then
      lox = x
    end
    if y < loy then
      loy = y
    end
    if x > hix then
      hix = x
    end
    if y > hiy then
      hiy = y
    end
  end
  return lox, loy, hix, hiy
end

--- sat__box(s) -> lox, loy, hix, hiy: a shape's world-size bounding box relative to its
-- position (a compound's from its parts': sat_compound.lua's sat__compound_box).
local function box(s)
  local kind, r = s.kind, s.radius
  if kind == SAT_POLYGON then
    return polygon_box(s)
  elseif kind == SAT_COMPOUND then
    return compound().sat__compound_box(s)
  elseif kind == SAT_SEGMENT or kind == SAT_CAPSULE then
    local hx, hy = s.hx, s.hy
    hx = (hx < 0 and -hx or hx + 0.0) + r
    hy = (hy < 0 and -hy or hy + 0.0) + r
    return -hx, -hy, hx, hy
  end
  return -r, -r, r, r
end
M.sat__box = box

-- A polygon's world normals, offsets and bound from its local points (lx, ly) at its
-- rotation and scale. The local points may be the offsets themselves (a lean polygon as it
-- is built): the normals are computed first, from the points alone, and each offset only
-- from its own point. Then, what the C derives where it reads it (sat__support,
-- sat__least) and the pure core keeps, from the same numbers by the same arithmetic: the
-- polygon's greatest and least extents along each of its normals (sup, least).
local function polygon_transform(s, lx, ly)
  local nx, ny, ox, oy = s.nx, s.ny, s.ox, s.oy
  local n = s.count
  local sn, c = sat_sincos(s.angle)
  local k, bound = s.scale, 0.0
  for i = 1, n do
    -- + 0.0 turns a -0 into 0, so results never print "-0".
    local lnx, lny = edge_normal(lx, ly, n, i)
    nx[i], ny[i] = c * lnx - sn * lny + 0.0, sn * lnx + c * lny + 0.0
  end
  for i = 1, n do
    local px, py = k * lx[i], k * ly[i]
    local x, y = c * px - sn * py, sn * px + c * py
    local d = len(x, y)
    ox[i], oy[i] = x, y
    if d > bound then
      bound = d
    end
  end
  s.bound = bound
  local sup, least = s.sup, s.least
  for i = 1, n do
    sup[i] = ox[i] * nx[i] + oy[i] * ny[i]
    least[i] = sat__least(s, i)
  end
end

-- Recompute what depends on rotation and scale: world offsets, normals and bound. A lean
-- polygon is at rotation 0 (or -0) and scale 1 (the transforms give it its local points
-- before anything else): its offsets, normals and bound are those it was built with.
-- Re-entrancy (pure backend only: C is never interrupted here): a debug hook or a finalizer
-- may change the same shape between any two statements, and its change runs to its end
-- first. Every change counts itself in s.ver before it derives anything; one that finds the
-- count moved when it is done was overtaken, its derived numbers possibly a mixture of two
-- states, and derives them again from the fields as they are now (any mixture of the
-- transform's fields is a shape; a mixture of derived numbers is not). The public changes
-- (move, turns, scale, radius, set_transform) also hold s.ver raised by BUSY from their first write
-- to the end of their derivation: a copy made from inside one (sat_shape_copy in a hook
-- between the two) derives its own numbers again (the count alone cannot tell it: the change
-- it interrupts has counted itself, or not yet, and is not done).
local function update_cache(s)
  for _ = 1, 64 do
    local v = s.ver + 1
    s.ver = v
    local kind = s.kind
    if kind == SAT_CIRCLE then
      s.bound = s.radius
    elseif kind == SAT_SEGMENT or kind == SAT_CAPSULE then
      update_segment(s)
    elseif kind == SAT_COMPOUND then
      compound().sat__compound_refresh(s)
    elseif s.lx ~= nil then
      polygon_transform(s, s.lx, s.ly)
    end
    if s.ver == v then
      break
    end
  end
  changed(s)
end

-- A compound's parts placed at its position (move, moveTo), again when overtaken (as
-- update_cache); any other kind's change counted.
local function placed(s)
  for _ = 1, 64 do
    local v = s.ver + 1
    s.ver = v
    if s.kind == SAT_COMPOUND then
      compound().sat__compound_place(s)
    end
    if s.ver == v then
      break
    end
  end
end

--- sat_circle_init(s, x, y, radius) -> status
function M.sat_circle_init(s, x, y, radius)
  if not isfinite(x) or not isfinite(y) or not isfinite(radius) then
    return SAT_ERR_NONFINITE
  end
  if radius < 0.0 then
    return SAT_ERR_NEGATIVE_RADIUS
  end
  if not in_range(x) or not in_range(y) or not in_range(radius) then
    return SAT_ERR_RANGE
  end
  init_common(s, SAT_CIRCLE)
  s.px, s.py = x, y
  s.radius = radius
  update_cache(s)
  return SAT_OK
end

-- Both kinds with a segment: the midpoint as a double-double, so that the endpoints stay
-- exact far from the origin (x1 + half is the midpoint without rounding).
local function segment_init(s, kind, x1, y1, x2, y2, radius)
  if not isfinite(x1) or not isfinite(y1) or not isfinite(x2) or not isfinite(y2) or
    not isfinite(radius) then
    return SAT_ERR_NONFINITE
  end
  if radius < 0.0 then
    return SAT_ERR_NEGATIVE_RADIUS
  end
  if not in_range(x1) or not in_range(y1) or not in_range(x2) or not in_range(y2) or
    not in_range(radius) then
    return SAT_ERR_RANGE
  end
  local halfx, halfy = 0.5 * (x2 - x1), 0.5 * (y2 - y1)
  local l = len(halfx, halfy)
  if kind == SAT_SEGMENT and not (l > 0.0) then
    return SAT_ERR_SAME_POINTS
  end
  if l > 0.0 and 2.0 * l < SAT_MIN_SIZE then
    return SAT_ERR_RANGE
  end
  init_common(s, kind)
  s.radius = radius
  s.lhx, s.lhy = halfx, halfy
  s.hlen, s.lhlen = l, l
  s.px, s.plx = two_sum(x1, halfx)
  s.py, s.ply = two_sum(y1, halfy)
  update_cache(s)
  return SAT_OK
end

--- sat_segment_init(s, x1, y1, x2, y2) -> status
function M.sat_segment_init(s, x1, y1, x2, y2)
  return segment_init(s, SAT_SEGMENT, x1, y1, x2, y2, 0.0)
end

--- sat_capsule_init(s, x1, y1, x2, y2, radius) -> status
function M.sat_capsule_init(s, x1, y1, x2, y2, radius)
  return segment_init(s, SAT_CAPSULE, x1, y1, x2, y2, radius)
end

--- sat__refresh(s): recompute what depends on rotation and scale.
M.sat__refresh = update_cache

-- Distance of b from the line through a and c is at most tol (or a and c coincide, so b is
-- the tip of a spike).
local function collinear(ax, ay, bx, by, cx, cy, tol)
  local acx, acy = cx - ax, cy - ay
  local l = sqrt(acx * acx + acy * acy)
  if l <= tol then
    return true
  end
  local cr = acx * (by - ay) - acy * (bx - ax)
  return (cr < 0 and -cr or cr + 0.0) <= tol * l
end

--- sat__merge_close(px, py, n, tol) -> n: merges consecutive points (cyclically) closer
-- than tol, in place.
local function merge_close(px, py, n, tol)
  local m = 0
  local tol2 = tol * tol
  for i = 1, n do
    local keep = true
    if m > 0 then
      local dx, dy = px[i] - px[m], py[i] - py[m]
      if dx * dx + dy * dy <= tol2 then
        keep = false
      end
    end
    if keep then
      m = m + 1
      px[m], py[m] = px[i], py[i]
    end
  end
  while m > 1 do
    local dx, dy = px[m] - px[1], py[m] - py[1]
    if dx * dx + dy * dy > tol2 then
      break
    end
    m = m - 1
  end
  return m
end
M.sat__merge_close = merge_close

-- Whether three points are pairwise farther apart than tol (not only consecutive ones).
local function has_three_distinct(px, py, n, tol)
  local tol2 = tol * tol
  local x0, y0 = px[1], py[1]
  local i = 2
  while i <= n do
    local dx, dy = px[i] - x0, py[i] - y0
    if not (dx * dx + dy * dy <= tol2) then
      break
    end
    i = i + 1
  end
  for j = i + 1, n do
    local d0x, d0y = px[j] - x0, py[j] - y0
    local dix, diy = px[j] - px[i], py[j] - py[i]
    if d0x * d0x + d0y * d0y > tol2 and dix * dix + diy * diy > tol2 then
      return true
    end
  end
  return false
end

--- sat__drop_collinear(px, py, n, tol) -> n: drops collinear points, cyclically, with a
-- stack (monotone-chain style), in place.
local function drop_collinear(px, py, n, tol)
  local m, start = 0, 1 -- start: the array position of the first kept point
  for i = 1, n do
    local x, y = px[i], py[i]
    while m >= 2 and collinear(px[m - 1], py[m - 1], px[m], py[m], x, y, tol) do
      m = m - 1
    end
    m = m + 1
    px[m], py[m] = x, y
  end
  -- Close the loop: the seam between the last and the first points.
  while true do
    if m - start + 1 >= 3 and
      collinear(px[m - 1], py[m - 1], px[m], py[m], px[start], py[start], tol) then
      m = m - 1
    elseif m - start + 1 >= 3 and
      collinear(px[m], py[m], px[start], py[start], px[start + 1], py[start + 1], tol) then
      start = start + 1
    else
      break
    end
  end
  if start > 1 then
    local k = 0
    for i = start, m do
      k = k + 1
      px[k], py[k] = px[i], py[i]
    end
  end
  return m - start + 1
end
M.sat__drop_collinear = drop_collinear

--- sat_polygon_validate(xs, ys, count, wx, wy, out) -> status: checks the points and reduces
-- them in the work arrays wx, wy (room for count points; they may be xs, ys themselves,
-- which are then overwritten), and describes the outline in the table out: wx, wy (the kept
-- points, relative to the origin, scaled by 2^-exponent), count, exponent, ox, oy (the
-- origin), cx, cy (the centroid in the frame of the work). Only out.count is for the
-- caller to read.
function M.sat_polygon_validate(xs, ys, count, wx, wy, out)
  local checked = I.sat__check_points(xs, ys, count)
  if checked ~= SAT_OK then
    return checked
  end
  local originx, originy = xs[1], ys[1] -- (read first: the work may be the points)
  local px, py = wx, wy
  local exponent, size
  checked, exponent, size = I.sat__unit_points(xs, ys, count, px, py)
  if checked ~= SAT_OK then
    return checked
  end

  local n = merge_close(px, py, count, SAT_MERGE_REL * size)
  if n < 3 then
    return SAT_ERR_TOO_FEW_POINTS
  end
  local distinct = has_three_distinct(px, py, n, SAT_MERGE_REL * size)
  n = drop_collinear(px, py, n, SAT_COLLINEAR_REL * size)
  n = merge_close(px, py, n, SAT_MERGE_REL * size)
  if n < 3 then
    return distinct and SAT_ERR_ZERO_AREA or SAT_ERR_TOO_FEW_POINTS
  end

  -- Signed area and centroid by a fan from point 0.
  local area2, cx, cy = 0.0, 0.0, 0.0
  local x0, y0 = px[1], py[1]
  for i = 2, n - 1 do
    local xi, yi, xj, yj = px[i], py[i], px[i + 1], py[i + 1]
    local a = (xi - x0) * (yj - y0) - (yi - y0) * (xj - x0)
    area2 = area2 + a
    cx = cx + a * (x0 + xi + xj)
    cy = cy + a * (y0 + yi + yj)
  end
  if not ((area2 < 0 and -area2 or area2 + 0.0) * 0.5 > SAT_AREA_REL * size * size) then
    return SAT_ERR_ZERO_AREA
  end
  local f = 1.0 / (3.0 * area2)
  cx, cy = cx * f, cy * f
  if area2 < 0.0 then
    local i, j = 1, n
    while i < j do
      px[i], px[j] = px[j], px[i]
      py[i], py[j] = py[j], py[i]
      i, j = i + 1, j - 1
    end
  end

  -- Convex: every turn is to the left (straight ones are gone), and the turns add up to
  -- one full turn (a pentagram turns left everywhere but twice around).
  local turning = 0.0
  for i = 0, n - 1 do
    local a, b, c = i + 1, (i + 1) % n + 1, (i + 2) % n + 1
    local e0x, e0y = px[b] - px[a], py[b] - py[a]
    local e1x, e1y = px[c] - px[b], py[c] - py[b]
    local cr = e0x * e1y - e0y * e1x
    if cr < 0.0 then
      return SAT_ERR_NOT_CONVEX
    end
    turning = turning + sat_atan2(cr, e0x * e1x + e0y * e1y)
  end
  local t = turning - 2.0 * SAT_PI
  if (t < 0 and -t or t + 0.0) > SAT_PI then
    return SAT_ERR_NOT_CONVEX
  end

  out.wx, out.wy = px, py
  out.count = n
  out.exponent = exponent
  out.ox, out.oy = originx, originy
  out.cx, out.cy = cx, cy
  return SAT_OK
end

-- Both layouts: lean, the local points are written where the offsets go, and become them
-- (rotation 0, scale 1).
-- A polygon built again with its local points kept (the spatial hash's scratch rectangle,
-- sat_hash_query.lua) keeps its arrays: building it again makes nothing.
local function polygon_build(s, o, lean)
  local px, py, cx, cy = o.wx, o.wy, o.cx, o.cy
  local n, exponent = o.count, o.exponent
  local reuse = not lean and s.kind == SAT_POLYGON and s.lx ~= nil
  init_common(s, SAT_POLYGON)
  s.count = n
  local nx, ny, ox, oy
  if reuse then
    nx, ny, ox, oy = s.nx, s.ny, s.ox, s.oy
  else
    nx, ny, ox, oy = {}, {}, {}, {}
    s.nx, s.ny, s.ox, s.oy = nx, ny, ox, oy
    s.sup, s.least = {}, {}
  end
  local lx, ly = ox, oy
  if lean then
    s.lx, s.ly = nil, nil
  elseif not reuse then
    lx, ly = {}, {}
    s.lx, s.ly = lx, ly
  else
    lx, ly = s.lx, s.ly
  end
  for i = 1, n do
    lx[i], ly[i] = ldexp(px[i] - cx, exponent), ldexp(py[i] - cy, exponent)
  end
  -- the local normals, until polygon_transform makes them world normals
  for i = 1, n do
    nx[i], ny[i] = edge_normal(lx, ly, n, i)
  end
  -- The deepest vertex along each edge normal (a triangle's or a quad's is derived where
  -- read: sat__least). It only moves forward as i does (rotating calipers), so this is
  -- linear.
  if n > 4 then
    local deep = reuse and s.deep or {}
    local j = 1
    local n0x, n0y = nx[1], ny[1]
    for k = 2, n do
      if lx[k] * n0x + ly[k] * n0y < lx[j] * n0x + ly[j] * n0y then
        j = k
      end
    end
    for i = 1, n do
      local nix, niy = nx[i], ny[i]
      for _ = 1, n do
        local nxt = j == n and 1 or j + 1
        if not (lx[nxt] * nix + ly[nxt] * niy < lx[j] * nix + ly[j] * niy) then
          break
        end
        j = nxt
      end
      deep[i] = j
    end
    s.deep = deep
  else
    s.deep = nil
  end
  cx, cy = ldexp(cx, exponent), ldexp(cy, exponent)
  s.px, s.plx = two_sum(o.ox, cx)
  s.py, s.ply = two_sum(o.oy, cy)
  polygon_transform(s, lx, ly)
end

--- sat_polygon_build(s, out): the polygon from a validated outline, its local points kept.
function M.sat_polygon_build(s, o)
  polygon_build(s, o, false)
end

--- sat_polygon_build_lean(s, out): the same, lean (as the binding builds polygons).
function M.sat_polygon_build_lean(s, o)
  polygon_build(s, o, true)
end

--- sat_shape_local_bytes(s): what the block of a lean polygon would take in C (16 bytes a
-- vertex); 0 for any other shape.
function M.sat_shape_local_bytes(s)
  if s.kind ~= SAT_POLYGON or s.lx ~= nil then
    return 0
  end
  return s.count * 16
end

--- sat_shape_give_local(s, lx, ly): a lean polygon's local points kept apart from now on:
-- copies of its offsets written into lx and ly (arrays of count numbers the binding made, as
-- the C copies them into the block it is given); nothing for any other shape.
-- (Pure backend: a hook or a finalizer may give the shape its local points and turn it while
-- they are copied, its offsets then turned: the copy is made again, or left to that one.
-- ly is set before lx, whose nil marks the lean layout.)
function M.sat_shape_give_local(s, lx, ly)
  for _ = 1, 64 do
    if s.kind ~= SAT_POLYGON or s.lx ~= nil then
      return
    end
    local v = s.ver
    local ox, oy = s.ox, s.oy
    for i = 1, s.count do
      lx[i], ly[i] = ox[i], oy[i]
    end
    if s.ver == v and s.lx == nil then
      s.ly = ly
      s.lx = lx
      return
    end
  end
end

--- sat_polygon_init(s, xs, ys, count) -> status: validated in work arrays of its own (the
-- points are not changed), then built with its local points.
function M.sat_polygon_init(s, xs, ys, count)
  local o = {}
  local st = M.sat_polygon_validate(xs, ys, count, {}, {}, o)
  if st == SAT_OK then
    polygon_build(s, o, false)
  end
  return st
end

local function copy_array(a, n)
  local b = {}
  for i = 1, n do
    b[i] = a[i]
  end
  return b
end

-- The scalar fields every kind has, and a segment's.
local function copy_fields(dst, src)
  dst.kind = src.kind
  dst.count = src.count
  dst.px, dst.py, dst.plx, dst.ply = src.px, src.py, src.plx, src.ply
  dst.radius = src.radius
  dst.bound = src.bound
  dst.scale = src.scale
  dst.user = src.user
  dst.angle = src.angle
  dst.id = src.id
  dst.members = nil -- the hashes hold src, not its copy
  dst.category = src.category
  dst.mask = src.mask
  dst.ver = 0
  if has_segment(src) then
    dst.hx, dst.hy, dst.ux, dst.uy = src.hx, src.hy, src.ux, src.uy
    dst.lhx, dst.lhy, dst.hlen, dst.lhlen = src.lhx, src.lhy, src.hlen, src.lhlen
  end
end

local function copy_polygon_arrays(dst, src)
  local n = src.count
  dst.nx, dst.ny = copy_array(src.nx, n), copy_array(src.ny, n)
  dst.ox, dst.oy = copy_array(src.ox, n), copy_array(src.oy, n)
  dst.deep = src.deep and copy_array(src.deep, n) or nil
  dst.sup, dst.least = copy_array(src.sup, n), copy_array(src.least, n)
end

--- sat__copy_inline(dst, src): a copy that keeps a polygon's local points of its own,
-- whatever src's layout (a lean one's offsets become them). A compound is copied by
-- sat_compound.lua's sat__compound_copy.
local function copy_inline(dst, src)
  if src.kind == SAT_COMPOUND then
    compound().sat__compound_copy(dst, src)
    dst.members = nil
    return dst
  end
  copy_fields(dst, src)
  if src.kind == SAT_POLYGON then
    copy_polygon_arrays(dst, src)
    local lx, ly = src.lx, src.ly
    if lx == nil then
      lx, ly = src.ox, src.oy
    end
    dst.lx, dst.ly = copy_array(lx, src.count), copy_array(ly, src.count)
  end
  return dst
end
M.sat__copy_inline = copy_inline

-- b[1..n] = a[1..n], into b as it is.
local function fill_array(b, a, n)
  for i = 1, n do
    b[i] = a[i]
  end
end

--- sat__copy_over(dst, src): copy_inline into dst, a part that copy_inline made from a shape
-- of the same kind and count (a compound's part from its base part), into dst's own arrays:
-- the same values, allocating nothing (the C's memcpy over the part in
-- sat__compound_refresh; a table made there could fail with part of a compound turned).
local function copy_over(dst, src)
  copy_fields(dst, src)
  if src.kind == SAT_POLYGON then
    local n = src.count
    fill_array(dst.nx, src.nx, n)
    fill_array(dst.ny, src.ny, n)
    fill_array(dst.ox, src.ox, n)
    fill_array(dst.oy, src.oy, n)
    if src.deep then
      fill_array(dst.deep, src.deep, n)
    end
    fill_array(dst.sup, src.sup, n)
    fill_array(dst.least, src.least, n)
    local lx, ly = src.lx, src.ly
    if lx == nil then
      lx, ly = src.ox, src.oy
    end
    fill_array(dst.lx, lx, n)
    fill_array(dst.ly, ly, n)
  end
  return dst
end
M.sat__copy_over = copy_over

--- sat_shape_copy(dst, src) -> dst: a copy in no hash, sharing nothing with src; a lean
-- polygon's copy is lean while src is.
-- (Copied again when a change of src overtook the copy: see update_cache.)
local function shape_copy(dst, src)
  if src.kind == SAT_POLYGON and src.lx == nil then
    copy_fields(dst, src)
    copy_polygon_arrays(dst, src)
    dst.lx, dst.ly = nil, nil
    return dst
  end
  return copy_inline(dst, src)
end

function M.sat_shape_copy(dst, src)
  for _ = 1, 64 do
    local v = src.ver
    shape_copy(dst, src)
    if src.ver == v then
      break
    end
  end
  if src.ver >= BUSY then
    -- made from inside a change of src (a hook or a finalizer in the middle of it): src's
    -- derived numbers may be half derived, and its change counted before it began; the
    -- copy's are derived again from its transform (a copy is in no hash)
    update_cache(dst)
  end
  return dst
end

-- ---- transform ----------------------------------------------------------------------------

--- sat_shape_move_to(s, x, y) -> status
function M.sat_shape_move_to(s, x, y)
  if not isfinite(x) or not isfinite(y) then
    return SAT_ERR_NONFINITE
  end
  if not in_range(x) or not in_range(y) then
    return SAT_ERR_RANGE
  end
  s.ver = s.ver + BUSY
  s.px, s.py = x, y
  s.plx, s.ply = 0.0, 0.0
  placed(s)
  changed(s)
  s.ver = s.ver - BUSY
  return SAT_OK
end

--- sat__dd_add(hi, lo, d) -> hi, lo: adds d to the double-double (hi, lo) and renormalises.
local function dd_add(hi, lo, d)
  local s, e = two_sum(hi, d)
  e = e + lo
  hi = s + e
  return hi, e - (hi - s)
end
M.sat__dd_add = dd_add

--- sat_shape_move(s, dx, dy) -> status
function M.sat_shape_move(s, dx, dy)
  if not isfinite(dx) or not isfinite(dy) then
    return SAT_ERR_NONFINITE
  end
  if not in_range(s.px + dx) or not in_range(s.py + dy) then
    return SAT_ERR_RANGE
  end
  s.ver = s.ver + BUSY
  s.px, s.plx = dd_add(s.px, s.plx, dx)
  s.py, s.ply = dd_add(s.py, s.ply, dy)
  placed(s)
  changed(s)
  s.ver = s.ver - BUSY
  return SAT_OK
end

--- sat_shape_position(s) -> x, y
function M.sat_shape_position(s)
  return s.px + s.plx, s.py + s.ply
end

--- sat_shape_set_transform(s, px, py, plx, ply, angle, scale, radius) -> status: the whole
-- transform at once, exactly as read from the record (a world's restore puts it back bit
-- for bit); the caches recomputed as after any transform.
function M.sat_shape_set_transform(s, px, py, plx, ply, angle, scale, radius)
  local kind = s.kind
  if not isfinite(px) or not isfinite(py) or not isfinite(plx) or not isfinite(ply) or
    not isfinite(angle) or not isfinite(scale) or not isfinite(radius) then
    return SAT_ERR_NONFINITE
  end
  if not in_range(px) or not in_range(py) or not in_range(radius) then
    return SAT_ERR_RANGE
  end
  if not (scale > 0.0) or (kind == SAT_CIRCLE and scale ~= 1.0) then
    return SAT_ERR_BAD_SCALE
  end
  if radius < 0.0 or (kind ~= SAT_CIRCLE and kind ~= SAT_CAPSULE and radius ~= 0.0) then
    return SAT_ERR_NEGATIVE_RADIUS
  end
  if needs_local(s, angle, scale) then
    return SAT_ERR_NO_LOCAL
  end
  s.ver = s.ver + BUSY
  s.px, s.py, s.plx, s.ply = px, py, plx, ply
  s.angle, s.scale, s.radius = angle, scale, radius
  update_cache(s)
  s.ver = s.ver - BUSY
  return SAT_OK
end

local function set_rotation(s, angle)
  if not isfinite(angle) then
    return SAT_ERR_NONFINITE
  end
  if needs_local(s, angle, s.scale) then
    return SAT_ERR_NO_LOCAL
  end
  s.ver = s.ver + BUSY
  s.angle = angle
  update_cache(s)
  s.ver = s.ver - BUSY
  return SAT_OK
end

--- sat_shape_set_rotation(s, angle) -> status
M.sat_shape_set_rotation = set_rotation

--- sat_shape_rotate(s, dangle) -> status: the angle kept as given, not reduced.
function M.sat_shape_rotate(s, dangle)
  if not isfinite(dangle) then
    return SAT_ERR_NONFINITE
  end
  if not isfinite(s.angle + dangle) then
    return SAT_ERR_ANGLE
  end
  return set_rotation(s, s.angle + dangle)
end

-- Sets the angle and turns the position about (cx, cy) by the rotation (c, sn); checks
-- everything first, so that an error changes nothing.
local function turn_about(s, angle, c, sn, cx, cy)
  if not isfinite(cx) or not isfinite(cy) then
    return SAT_ERR_NONFINITE
  end
  if not in_range(cx) or not in_range(cy) then
    return SAT_ERR_RANGE
  end
  -- The offset from the pivot, from the double-double position; the new position is the
  -- pivot plus the turned offset, kept exactly as a double-double.
  local dx, dy = -((cx - s.px) - s.plx), -((cy - s.py) - s.ply)
  local tx, ty = c * dx - sn * dy, sn * dx + c * dy
  local hix, lox = two_sum(cx, tx)
  local hiy, loy = two_sum(cy, ty)
  if not in_range(hix) or not in_range(hiy) then
    return SAT_ERR_RANGE
  end
  if needs_local(s, angle, s.scale) then
    return SAT_ERR_NO_LOCAL
  end
  s.ver = s.ver + BUSY
  s.px, s.py = hix, hiy
  s.plx, s.ply = lox, loy
  s.angle = angle
  update_cache(s)
  s.ver = s.ver - BUSY
  return SAT_OK
end

--- sat_shape_rotate_about(s, dangle, cx, cy) -> status
function M.sat_shape_rotate_about(s, dangle, cx, cy)
  if not isfinite(dangle) then
    return SAT_ERR_NONFINITE
  end
  if not isfinite(s.angle + dangle) then
    return SAT_ERR_ANGLE
  end
  local sn, c = sat_sincos(dangle)
  return turn_about(s, s.angle + dangle, c, sn, cx, cy)
end

--- sat_shape_set_rotation_about(s, angle, cx, cy) -> status
function M.sat_shape_set_rotation_about(s, angle, cx, cy)
  local turn = angle - s.angle
  if not isfinite(angle) then
    return SAT_ERR_NONFINITE
  end
  if isfinite(turn) then
    local sn, c = sat_sincos(turn)
    return turn_about(s, angle, c, sn, cx, cy)
  end
  -- from one huge angle to another of the other sign: the turn from both ends' sines
  local sa, ca = sat_sincos(angle)
  local so, co = sat_sincos(s.angle)
  return turn_about(s, angle, ca * co + sa * so, sa * co - ca * so, cx, cy)
end

--- sat_shape_rotation(s)
function M.sat_shape_rotation(s)
  return s.angle
end

--- sat_shape_scale(s, factor) -> status: multiplies the scale.
function M.sat_shape_scale(s, factor)
  if not isfinite(factor) then
    return SAT_ERR_NONFINITE
  end
  if not (factor > 0.0) then
    return SAT_ERR_BAD_SCALE
  end
  if not in_range(s.bound * factor) then
    return SAT_ERR_RANGE
  end
  local kind = s.kind
  if kind == SAT_POLYGON and s.bound * factor < 0.5 * SAT_MIN_SIZE then
    return SAT_ERR_RANGE
  end
  if (kind == SAT_SEGMENT or kind == SAT_CAPSULE) and s.lhlen > 0.0 and
    s.hlen * factor < 0.5 * SAT_MIN_SIZE then
    return SAT_ERR_RANGE
  end
  if kind == SAT_COMPOUND then
    local st = compound().sat__compound_scale_ok(s, factor)
    if st ~= SAT_OK then
      return st
    end
  end
  if kind == SAT_CIRCLE then
    s.ver = s.ver + BUSY
    s.radius = s.radius * factor
  else
    local k = s.scale * factor
    if not isfinite(k) then
      return SAT_ERR_RANGE -- a subnormal outline grown past any sense
    end
    if not (k > 0.0) then
      return SAT_ERR_BAD_SCALE -- underflow
    end
    if needs_local(s, s.angle, k) then
      return SAT_ERR_NO_LOCAL
    end
    s.ver = s.ver + BUSY
    s.scale = k
    if kind == SAT_CAPSULE then
      s.radius = s.radius * factor -- kept as given, like a circle's (scale is the segment's)
    end
  end
  update_cache(s)
  s.ver = s.ver - BUSY
  return SAT_OK
end

--- sat_circle_set_radius(s, radius) -> status: the world radius of a circle or a capsule.
function M.sat_circle_set_radius(s, radius)
  if not isfinite(radius) then
    return SAT_ERR_NONFINITE
  end
  if radius < 0.0 then
    return SAT_ERR_NEGATIVE_RADIUS
  end
  if not in_range(radius) then
    return SAT_ERR_RANGE
  end
  s.ver = s.ver + BUSY
  s.radius = radius
  update_cache(s)
  s.ver = s.ver - BUSY
  return SAT_OK
end

--- sat_shape_set_filter(s, category, mask): the hashes holding s are told.
function M.sat_shape_set_filter(s, category, mask)
  s.category = category
  s.mask = mask
  changed(s)
end

--- sat_circle_radius(s): the world radius (circle, capsule; else 0).
function M.sat_circle_radius(s)
  return s.radius
end

-- ---- queries ------------------------------------------------------------------------------

--- sat_shape_bbox(s) -> x1, y1, x2, y2
function M.sat_shape_bbox(s)
  local lox, loy, hix, hiy = box(s)
  local px, py, plx, ply = s.px, s.py, s.plx, s.ply
  return (px + lox) + plx, (py + loy) + ply, (px + hix) + plx, (py + hiy) + ply
end

--- sat_shape_area(s)
local function area(s)
  local kind = s.kind
  if kind == SAT_COMPOUND then
    return compound().sat__compound_area(s)
  end
  local r = s.radius
  if kind == SAT_CIRCLE then
    return SAT_PI * r * r
  end
  if kind == SAT_SEGMENT or kind == SAT_CAPSULE then
    return r * (SAT_PI * r + 4.0 * s.hlen)
  end
  local px, py, n = s.lx, s.ly, s.count
  if px == nil then
    px, py = s.ox, s.oy
  end
  local a2 = 0.0
  for i = 1, n do
    local j = i % n + 1
    a2 = a2 + (px[i] * py[j] - py[i] * px[j])
  end
  return 0.5 * a2 * s.scale * s.scale
end
M.sat_shape_area = area

--- sat_polygon_vertex(s, i) -> x, y: world vertex i of a polygon, 0 <= i < count (C's index).
function M.sat_polygon_vertex(s, i)
  local ox, oy = s.ox[i + 1], s.oy[i + 1]
  return (s.px + ox) + s.plx, (s.py + oy) + s.ply
end

--- sat_segment_endpoints(s) -> x1, y1, x2, y2: in the order they were given.
function M.sat_segment_endpoints(s)
  local hx, hy, px, py, plx, ply = s.hx, s.hy, s.px, s.py, s.plx, s.ply
  return (px - hx) + plx, (py - hy) + ply, (px + hx) + plx, (py + hy) + ply
end

--- sat_shape_contains(s, x, y) -> 0 or 1: boundary points count as inside.
local function contains(s, x, y)
  if not isfinite(x) or not isfinite(y) then
    return 0
  end
  local kind = s.kind
  if kind == SAT_COMPOUND then
    return compound().sat__compound_contains(s, x, y)
  end
  local rx, ry = (x - s.px) - s.plx, (y - s.py) - s.ply
  local tol = SAT_TOUCH_REL * s.bound
  if kind == SAT_CIRCLE then
    return len(rx, ry) <= s.radius + tol and 1 or 0
  end
  if kind == SAT_SEGMENT or kind == SAT_CAPSULE then
    local dist = I.sat__core_distance(rx, ry, 0.0, 0.0, s.hx, s.hy, s.ux, s.uy, s.hlen)
    return dist <= s.radius + tol and 1 or 0
  end
  local nx, ny, ox, oy = s.nx, s.ny, s.ox, s.oy
  for i = 1, s.count do
    local mx, my = nx[i], ny[i]
    if (mx * rx + my * ry) - (ox[i] * mx + oy[i] * my) > tol then
      return 0
    end
  end
  return 1
end
M.sat_shape_contains = contains

-- ---- compounds: sat_compound.lua's -------------------------------------------------------

--- sat_compound_form(s), sat_compound_part(s, i), sat_compound_outline_count(s),
-- sat_compound_outline_point(s, i) -> x, y (i: C's 0-based index)
function M.sat_compound_form(s)
  return compound().sat_compound_form(s)
end

function M.sat_compound_part(s, i)
  return compound().sat_compound_part(s, i)
end

function M.sat_compound_outline_count(s)
  return compound().sat_compound_outline_count(s)
end

function M.sat_compound_outline_point(s, i)
  return compound().sat_compound_outline_point(s, i)
end

return M
