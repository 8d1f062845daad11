--- sat_compound.lua - the pure backend's twin of src/core/sat_compound.c (building compounds:
-- from parts, from a concave outline (validation, ear clipping, Hertel-Mehlhorn), from a
-- chain of points) and of sat_shape.c's compound section (their transforms and queries:
-- sat__compound_refresh, place, scale_ok, area, contains, the box, the copy and the
-- readers), which sat_shape.lua reaches here.
--
-- A compound record (what the C keeps after the shape's header, see sat_compound.c):
--   kind = SAT_COMPOUND, count = P (parts), the common scalar fields (px, py, plx, ply,
--   angle, scale, radius (0), bound, category, mask, id, user, members);
--   form          sat_form (C's v[1].x)
--   on            N, the outline's points (C's v[0].y; 0 for a compound of parts)
--   base[1..P]    the parts as built: records whose position (px, py; plx = ply = 0) is
--                 their offset from the compound's, scale 1, rotation 0; a polygon at
--                 rotation 0 and scale 1 lean (lx == nil: its offsets are its local points)
--   parts[1..P]   the parts in the world: records with their local points (C's inline)
--   tox, toy      part i's world-oriented offset from the position (C's v[2 + 4i + 1])
--   tlox, tloy, thix, thiy  part i's box about its position (C's v[2 + 4i + 2, + 3])
--   olx, oly      outline point j about the position, scale 1, rotation 0
--   owx, owy      outline point j, world-oriented offset
-- Arrays are 1-based (C's element i is arr[i + 1]); functions that take a part or an outline
-- index from outside (sat_compound_part, sat_compound_outline_point) take the C's 0-based
-- one.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
local K = require("sat.pure.sat_constants")
local I = require("sat.pure.sat_internal")
local S = require("sat.pure.sat_shape")
local SM = require("sat.pure.sat_math")

local M = {}

-- Under LuaJIT this file runs interpreted: building is done once a shape, and its loops
-- (ear clipping, the grids) made the trace compiler record, abort and flush over and over
-- (two 16-spike stars built: 134 ms compiled, 3 ms interpreted).
local jit_ = rawget(_G, "jit")
if jit_ then
  jit_.off(true, true)
end

local HUGE = math.huge
local floor, sqrt = math.floor, math.sqrt
local sat_sincos = SM.sat_sincos
local fmin, fmax, fabs, ldexp, len = I.fmin, I.fmax, I.fabs, I.ldexp, I.sat__len
local isfinite, in_range, offset, relative = I.isfinite, I.sat__in_range, I.sat__offset,
  I.sat__relative
local nparts, part_of = I.sat__nparts, I.sat__part_of
local copy_over = S.sat__copy_over
local copy_inline, refresh, box, dd_add = S.sat__copy_inline, S.sat__refresh, S.sat__box,
  S.sat__dd_add

local SAT_POLYGON, SAT_CIRCLE, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_CIRCLE, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_KIND_COUNT = K.SAT_KIND_COUNT
local SAT_OK, SAT_ERR_NO_PARTS, SAT_ERR_ZERO_AREA = K.SAT_OK, K.SAT_ERR_NO_PARTS,
  K.SAT_ERR_ZERO_AREA
local SAT_ERR_TOO_MANY_POINTS, SAT_ERR_NONFINITE, SAT_ERR_RANGE, SAT_ERR_BAD_SCALE =
  K.SAT_ERR_TOO_MANY_POINTS, K.SAT_ERR_NONFINITE, K.SAT_ERR_RANGE, K.SAT_ERR_BAD_SCALE
local SAT_ERR_SAME_POINTS, SAT_ERR_SELF_CROSSING, SAT_ERR_SELF_TOUCHING =
  K.SAT_ERR_SAME_POINTS, K.SAT_ERR_SELF_CROSSING, K.SAT_ERR_SELF_TOUCHING
local SAT_FORM_PARTS, SAT_FORM_CONCAVE, SAT_FORM_CHAIN, SAT_FORM_LOOP =
  K.SAT_FORM_PARTS, K.SAT_FORM_CONCAVE, K.SAT_FORM_CHAIN, K.SAT_FORM_LOOP
local SAT_MIN_SIZE, SAT_MERGE_REL, SAT_COLLINEAR_REL, SAT_AREA_REL, SAT_MAX_POINTS =
  K.SAT_MIN_SIZE, K.SAT_MERGE_REL, K.SAT_COLLINEAR_REL, K.SAT_AREA_REL, K.SAT_MAX_POINTS

local function has_segment(p)
  local k = p.kind
  return k == SAT_SEGMENT or k == SAT_CAPSULE
end

-- ---- building -----------------------------------------------------------------------------

-- Starts a compound of `parts` parts and `outline` outline points in s (C's memset: every
-- field reset).
local function begin(s, parts, outline, form)
  for k in pairs(s) do -- (the record is the binding's fresh table: order does not matter)
    s[k] = nil
  end
  s.kind = SAT_COMPOUND
  s.count = parts
  s.category = 1
  s.mask = 0xFFFFFFFF
  s.id = 0
  s.user = nil
  s.members = nil
  s.px, s.py, s.plx, s.ply = 0.0, 0.0, 0.0, 0.0
  s.angle = 0.0
  s.scale = 1.0
  s.radius = 0.0
  s.bound = 0.0
  s.ver = 0
  s.form = form
  s.on = outline
  s.base, s.parts = {}, {}
  s.tox, s.toy, s.tlox, s.tloy, s.thix, s.thiy = {}, {}, {}, {}, {}, {}
  s.olx, s.oly, s.owx, s.owy = {}, {}, {}, {}
  for i = 1, parts do
    s.tox[i], s.toy[i], s.tlox[i], s.tloy[i], s.thix[i], s.thiy[i] = 0.0, 0.0, 0.0, 0.0, 0.0,
      0.0
  end
  for j = 1, outline do
    s.olx[j], s.oly[j], s.owx[j], s.owy[j] = 0.0, 0.0, 0.0, 0.0
  end
end

-- A part as built: a polygon at rotation 0 and scale 1 lean (its offsets are its local
-- points), any other shape with its local points.
local function lean_part(p)
  return p.kind == SAT_POLYGON and p.angle == 0.0 and p.scale == 1.0
end

-- Sets part i (1-based), a copy of p (in world coordinates for now), as built and in the
-- world.
local function add_part(s, i, p)
  local b = copy_inline({}, p)
  if lean_part(p) then
    b.lx, b.ly = nil, nil
  end
  b.members = nil
  b.user = nil
  b.id = 0
  s.base[i] = b
  s.parts[i] = copy_inline({}, b)
end

-- A part's weight for the centroid: its area, else (chain) its length.
local function part_area(p)
  return S.sat_shape_area(p)
end

local function part_length(p)
  return has_segment(p) and 2.0 * p.hlen or 0.0
end

-- The position: the parts' centroid (area, else length, else their mean), as a double-double
-- relative to part 0's, so that it keeps its precision far from the origin. Then every part
-- as built is made relative to it, and the outline (given in world coordinates, in wx, wy)
-- too.
local function finish(s, wx, wy)
  local P, N = s.count, s.on
  local base = s.base
  local p0 = base[1]
  -- weights relative to the largest, so that tiny or huge areas neither underflow nor
  -- overflow in the sums
  local amax, lmax, wa, wl = 0.0, 0.0, 0.0, 0.0
  for i = 1, P do
    amax = fmax(amax, part_area(base[i]))
    lmax = fmax(lmax, part_length(base[i]))
  end
  local cax, cay, clx, cly, cmx, cmy = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
  for i = 1, P do
    local p = base[i]
    local dx, dy = offset(p0, p)
    local a = amax > 0.0 and part_area(p) / amax or 0.0
    local l = lmax > 0.0 and part_length(p) / lmax or 0.0
    wa = wa + a
    wl = wl + l
    cax, cay = cax + dx * a, cay + dy * a
    clx, cly = clx + dx * l, cly + dy * l
    cmx, cmy = cmx + dx, cmy + dy
  end
  local cx, cy
  if wa > 0.0 then
    cx, cy = cax / wa, cay / wa
  elseif wl > 0.0 then
    cx, cy = clx / wl, cly / wl
  else
    cx, cy = cmx / P, cmy / P
  end
  if not isfinite(cx) or not isfinite(cy) then -- parts spread beyond any sense: the first's
    cx, cy = 0.0, 0.0
  end
  -- the position: part 0's plus c
  local px, plx, py, ply = p0.px, p0.plx, p0.py, p0.ply
  px, plx = dd_add(px, plx, cx)
  py, ply = dd_add(py, ply, cy)
  s.px, s.plx, s.py, s.ply = px, plx, py, ply
  for i = 1, P do
    local p = base[i]
    local dx, dy = offset(s, p)
    p.px, p.py = dx, dy
    p.plx, p.ply = 0.0, 0.0
  end
  local olx, oly = s.olx, s.oly
  for j = 1, N do
    olx[j], oly[j] = relative(s, wx[j], wy[j])
  end
  s.angle = 0.0
  s.scale = 1.0
  refresh(s)
end

local function bad_part(p)
  return p == nil or type(p.kind) ~= "number" or p.kind < 0 or p.kind >= SAT_KIND_COUNT
end

--- sat_compound_init(s, parts, count) -> status: parts[1..count] records (a compound gives
-- its parts).
function M.sat_compound_init(s, parts, count)
  local P = 0
  for i = 1, count do
    if bad_part(parts[i]) then
      return SAT_ERR_NO_PARTS
    end
    P = P + nparts(parts[i])
  end
  if P < 1 then
    return SAT_ERR_NO_PARTS
  end
  begin(s, P, 0, SAT_FORM_PARTS)
  P = 0
  for i = 1, count do
    local q = parts[i]
    for k = 1, nparts(q) do
      P = P + 1
      add_part(s, P, part_of(q, k))
    end
  end
  finish(s, nil, nil)
  return SAT_OK
end

-- ---- chains ---------------------------------------------------------------------------------

-- The points a chain keeps: each farther than tol (and SAT_MIN_SIZE) from the last one kept,
-- and for a closed chain the last not on the first. Writes them to ox, oy when given;
-- returns their count.
local function keep_points(xs, ys, count, closed, tol, ox, oy)
  local n = 0
  local lastx, lasty = xs[1], ys[1]
  for i = 1, count do
    local l = len(xs[i] - lastx, ys[i] - lasty)
    if not (i > 1 and not (l > tol and l >= SAT_MIN_SIZE)) then
      if ox then
        ox[n + 1], oy[n + 1] = xs[i], ys[i]
      end
      lastx, lasty = xs[i], ys[i]
      n = n + 1
    end
  end
  if closed ~= 0 and n > 2 then
    local l = len(lastx - xs[1], lasty - ys[1])
    if not (l > tol and l >= SAT_MIN_SIZE) then
      n = n - 1
    end
  end
  return n
end

local function chain_size(xs, ys, count)
  local size = 0.0
  local x0, y0 = xs[1], ys[1]
  for i = 1, count do
    size = fmax(size, fmax(fabs(xs[i] - x0), fabs(ys[i] - y0)))
  end
  return size
end

-- How many points and segments a chain keeps, or an error: status, kept, segments.
local function chain_points(xs, ys, count, closed)
  if count > SAT_MAX_POINTS then
    return SAT_ERR_TOO_MANY_POINTS
  end
  local size = 0.0
  local x0, y0 = xs[1], ys[1]
  for i = 1, count do
    local x, y = xs[i], ys[i]
    if not isfinite(x) or not isfinite(y) then
      return SAT_ERR_NONFINITE
    end
    if not in_range(x) or not in_range(y) then
      return SAT_ERR_RANGE
    end
    size = fmax(size, fmax(fabs(x - x0), fabs(y - y0)))
  end
  local n = count > 0 and keep_points(xs, ys, count, closed, SAT_MERGE_REL * size) or 0
  if n < 2 then
    return SAT_ERR_NO_PARTS
  end
  return SAT_OK, n, n - 1 + ((closed ~= 0 and n >= 3) and 1 or 0)
end

--- sat_chain_bytes(xs, ys, count, closed) -> status: what sat_chain_init will say about the
-- points, before it is called (closed: 0 or 1).
function M.sat_chain_bytes(xs, ys, count, closed)
  return (chain_points(xs, ys, count, closed))
end

local scratch_segment = {}

--- sat_chain_init(s, xs, ys, count, closed) -> status
function M.sat_chain_init(s, xs, ys, count, closed)
  local st, kept, segs = chain_points(xs, ys, count, closed)
  if st ~= SAT_OK then
    return st
  end
  local tol = SAT_MERGE_REL * chain_size(xs, ys, count)
  -- the kept points go into the outline's place first (world coordinates), then become
  -- local in finish()
  begin(s, segs, kept, segs > kept - 1 and SAT_FORM_LOOP or SAT_FORM_CHAIN)
  local olx, oly = s.olx, s.oly
  local n = keep_points(xs, ys, count, closed, tol, olx, oly)
  local g = scratch_segment
  for i = 0, segs - 1 do
    local j = (i + 1) % n
    if S.sat_segment_init(g, olx[i + 1], oly[i + 1], olx[j + 1], oly[j + 1]) ~= SAT_OK then
      return SAT_ERR_SAME_POINTS -- cannot happen: checked
    end
    add_part(s, i + 1, g)
  end
  finish(s, olx, oly) -- (made local in place)
  return SAT_OK
end

-- ---- concave outlines: validation and decomposition ---------------------------------------
-- The points are 0-based here (x[0 .. n - 1]), as the half-edges' vertex indices are.

local function orient(ax, ay, bx, by, cx, cy)
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
end

local function seg_point_dist(px, py, ax, ay, bx, by)
  local abx, aby, apx, apy = bx - ax, by - ay, px - ax, py - ay
  local l2 = abx * abx + aby * aby
  local t = l2 > 0.0 and (apx * abx + apy * aby) / l2 or 0.0
  t = t < 0.0 and 0.0 or (t > 1.0 and 1.0 or t)
  return len(apx - abx * t, apy - aby * t)
end

-- Whether edges (a, b) and (c, d), not adjacent, cross (1) or touch within tol (2).
local function edges_meet(ax, ay, bx, by, cx, cy, dx, dy, tol)
  local o1, o2 = orient(ax, ay, bx, by, cx, cy), orient(ax, ay, bx, by, dx, dy)
  local o3, o4 = orient(cx, cy, dx, dy, ax, ay), orient(cx, cy, dx, dy, bx, by)
  if ((o1 > 0.0 and o2 < 0.0) or (o1 < 0.0 and o2 > 0.0)) and
    ((o3 > 0.0 and o4 < 0.0) or (o3 < 0.0 and o4 > 0.0)) then
    -- a proper crossing, unless it is only a touch within the tolerance
    local m = fmin(fmin(seg_point_dist(cx, cy, ax, ay, bx, by),
      seg_point_dist(dx, dy, ax, ay, bx, by)),
      fmin(seg_point_dist(ax, ay, cx, cy, dx, dy), seg_point_dist(bx, by, cx, cy, dx, dy)))
    return m <= tol and 2 or 1
  end
  -- both ends of one edge on one side of the other's line, farther than twice tol (far
  -- above rounding): every point of it is, so no end comes within tol
  local abx, aby, cdx, cdy = bx - ax, by - ay, dx - cx, dy - cy
  local ab2, cd2 = abx * abx + aby * aby, cdx * cdx + cdy * cdy
  local t1, t2 = 4.0 * tol * tol * ab2, 4.0 * tol * tol * cd2
  if (o1 * o2 > 0.0 and o1 * o1 > t1 and o2 * o2 > t1) or
    (o3 * o4 > 0.0 and o3 * o3 > t2 and o4 * o4 > t2) then
    return 0
  end
  if seg_point_dist(cx, cy, ax, ay, bx, by) <= tol or seg_point_dist(dx, dy, ax, ay, bx, by) <= tol
    or seg_point_dist(ax, ay, cx, cy, dx, dy) <= tol or
    seg_point_dist(bx, by, cx, cy, dx, dy) <= tol then
    return 2
  end
  return 0
end

-- A uniform grid: the column (or row) of coordinate x, in cells of width w from x0, clamped
-- to [0, n): monotone in x.
local function grid_at(x, x0, w, n)
  local f = floor((x - x0) / w)
  if f < 0.0 then
    return 0
  end
  if f > n - 1 then
    return n - 1
  end
  return f
end

-- The width of a grid's cells for about n of them over the box (lo, hi), however flat.
local function grid_width(lox, loy, hix, hiy, n)
  local dx, dy = hix - lox, hiy - loy
  return fmax(sqrt(dx * dy / n), fmax(dx, dy) / n)
end

-- Edge i's box, widened by tol: lox, loy, hix, hiy.
local function edge_box(x, y, n, i, tol)
  local j = (i + 1) % n
  local ax, ay, bx, by = x[i], y[i], x[j], y[j]
  return fmin(ax, bx) - tol, fmin(ay, by) - tol, fmax(ax, bx) + tol, fmax(ay, by) + tol
end

-- Checks that the outline is simple: no two edges (not adjacent) cross or come within tol.
-- The pairs whose widened boxes meet come from a uniform grid over those boxes (about one
-- cell a point, coarser until there are at most 8 entries a point), each pair in one cell
-- only: the first both are in (the row and column where both begin). Of the pairs that meet,
-- the first in the order (i, j) decides, as in a scan of every pair; then adjacent edges
-- folding back.
local function check_simple(x, y, n, tol)
  local lox, loy, hix, hiy = x[0], y[0], x[0], y[0]
  for i = 1, n - 1 do
    lox, loy = fmin(lox, x[i]), fmin(loy, y[i])
    hix, hiy = fmax(hix, x[i]), fmax(hiy, y[i])
  end
  lox, loy = lox - tol, loy - tol
  hix, hiy = hix + tol, hiy + tol
  local w = grid_width(lox, loy, hix, hiy, n)
  local nx, ny
  local cap = 8 * n + 64
  if not (w > 0.0) then
    w = 1.0
  end
  while true do
    nx = grid_at(hix, lox, w, n + 1) + 1
    ny = grid_at(hiy, loy, w, n + 1) + 1
    local entries = 0
    local i = 0
    while i < n and entries <= cap do
      local bl_x, bl_y, bh_x, bh_y = edge_box(x, y, n, i, tol)
      entries = entries + (grid_at(bh_x, lox, w, nx) - grid_at(bl_x, lox, w, nx) + 1) *
        (grid_at(bh_y, loy, w, ny) - grid_at(bl_y, loy, w, ny) + 1)
      i = i + 1
    end
    if entries <= cap and nx * ny <= n + 1 then
      break
    end
    w = w * 2.0
  end
  local cells = nx * ny
  local start, item, cornerx, cornery = {}, {}, {}, {}
  for c = 0, cells do
    start[c] = 0
  end
  for pass = 0, 1 do -- counts, then the entries in edge order
    for i = 0, n - 1 do
      local bl_x, bl_y, bh_x, bh_y = edge_box(x, y, n, i, tol)
      cornerx[i], cornery[i] = grid_at(bl_x, lox, w, nx), grid_at(bl_y, loy, w, ny)
      for r = grid_at(bl_y, loy, w, ny), grid_at(bh_y, loy, w, ny) do
        for c = grid_at(bl_x, lox, w, nx), grid_at(bh_x, lox, w, nx) do
          local cell = r * nx + c
          if pass == 0 then
            start[cell + 1] = start[cell + 1] + 1
          else
            item[start[cell]] = i
            start[cell] = start[cell] + 1
          end
        end
      end
    end
    if pass == 0 then
      for c = 0, cells - 1 do
        start[c + 1] = start[c + 1] + start[c]
      end
    else
      for c = cells, 1, -1 do -- each start moved to its end: back one cell
        start[c] = start[c - 1]
      end
    end
  end
  start[0] = 0
  local bi, bj, bm = n, n, 0
  for cell = 0, cells - 1 do
    local stop = start[cell + 1]
    for u = start[cell], stop - 1 do
      local i = item[u]
      local i1 = (i + 1) % n
      local ax, ay, bx, by = x[i], y[i], x[i1], y[i1]
      local elox, ehix = fmin(ax, bx) - tol, fmax(ax, bx) + tol
      local eloy, ehiy = fmin(ay, by) - tol, fmax(ay, by) + tol
      for v = u + 1, stop - 1 do
        local j = item[v]
        -- (adjacent, or not before the first found)
        if not (j == i + 1 or (i == 0 and j == n - 1) or i > bi or (i == bi and j >= bj)) then
          local j1 = (j + 1) % n
          local cx, cy, dx, dy = x[j], y[j], x[j1], y[j1]
          -- (met in another cell (the first they share), or the boxes miss)
          if not (fmax(cornery[i], cornery[j]) * nx + fmax(cornerx[i], cornerx[j]) ~= cell or
            fmax(cx, dx) < elox or fmin(cx, dx) > ehix or fmax(cy, dy) < eloy or
            fmin(cy, dy) > ehiy) then
            local m = edges_meet(ax, ay, bx, by, cx, cy, dx, dy, tol)
            if m ~= 0 then
              bi, bj, bm = i, j, m
            end
          end
        end
      end
    end
  end
  if bm == 1 then
    return SAT_ERR_SELF_CROSSING
  end
  if bm == 2 then
    return SAT_ERR_SELF_TOUCHING
  end
  -- adjacent edges folding back onto each other
  for i = 0, n - 1 do
    local a, c = (i + n - 1) % n, (i + 1) % n
    local ax, ay, bx, by, cx, cy = x[a], y[a], x[i], y[i], x[c], y[c]
    local e0x, e0y, e1x, e1y = bx - ax, by - ay, cx - bx, cy - by
    if e0x * e1x + e0y * e1y < 0.0 and fabs(e0x * e1y - e0y * e1x) <= tol * len(e1x, e1y) and
      (seg_point_dist(cx, cy, ax, ay, bx, by) <= tol or
        seg_point_dist(ax, ay, bx, by, cx, cy) <= tol) then
      return SAT_ERR_SELF_TOUCHING
    end
  end
  return SAT_OK
end

local function in_triangle(px, py, ax, ay, bx, by, cx, cy)
  return orient(ax, ay, bx, by, px, py) >= 0.0 and orient(bx, by, cx, cy, px, py) >= 0.0 and
    orient(cx, cy, ax, ay, px, py) >= 0.0
end

-- The state of ear clipping (the C's struct clipper): the remaining polygon's links (prv,
-- nxt, out), each vertex's flags (the C's bits GONE, QUEUED, REFLEX, LISTED as four boolean
-- arrays), the queue of vertices to try (a ring of n), and a uniform grid of the vertices
-- that were reflex (or flat) at the start; a vertex that turns reflex later (rounding) goes
-- to a list of its own (extra).
local function push(cl, i)
  if cl.gone[i] or cl.queuedf[i] then
    return
  end
  cl.queuedf[i] = true
  cl.queue[(cl.head + cl.queued) % cl.n] = i
  cl.queued = cl.queued + 1
end

-- Vertex i's reflex flag from its neighbours now (a vertex only turns convex, but for
-- rounding: then it joins the extra list).
local function reflex_now(cl, i)
  local x, y = cl.x, cl.y
  local was = cl.reflex[i] and 1 or 0
  local a, c = cl.prv[i], cl.nxt[i]
  local is = not (orient(x[a], y[a], x[i], y[i], x[c], y[c]) > 0.0)
  if is and not cl.listed[i] then
    cl.listed[i] = true
    cl.extra[cl.extras] = i
    cl.extras = cl.extras + 1
  end
  cl.reflex[i] = is
  cl.reflexes = cl.reflexes + (is and 1 or 0) - was
end

-- Whether vertex k, reflex (or flat) and not a corner of the triangle (a, i, c) nor on a or
-- c, lies in it.
local function blocks(cl, k, a, i, c)
  if cl.gone[k] or not cl.reflex[k] or k == a or k == i or k == c then
    return false
  end
  local x, y = cl.x, cl.y
  local xk, yk = x[k], y[k]
  local dax, day, dcx, dcy = xk - x[a], yk - y[a], xk - x[c], yk - y[c]
  if dax * dax + day * day == 0.0 or dcx * dcx + dcy * dcy == 0.0 then
    return false
  end
  return in_triangle(xk, yk, x[a], y[a], x[i], y[i], x[c], y[c])
end

-- The x-span of segment (a, b) within the band y0 <= y <= y1, widened into lo, hi: returns
-- lo, hi.
local function band_span(ax, ay, bx, by, y0, y1, lo, hi)
  if ay > by then
    ax, ay, bx, by = bx, by, ax, ay
  end
  if by < y0 or ay > y1 then
    return lo, hi
  end
  local xa, xb = ax, bx
  if ay < y0 then
    xa = ax + (bx - ax) * ((y0 - ay) / (by - ay))
  end
  if by > y1 then
    xb = ax + (bx - ax) * ((y1 - ay) / (by - ay))
  end
  return fmin(lo, fmin(xa, xb)), fmax(hi, fmax(xa, xb))
end

-- Whether i is an ear: convex, and no reflex (or flat) vertex in its triangle: those the
-- grid lists in the cells the triangle crosses (row by row, its span in each, widened by a
-- millionth of a cell for rounding), and the extra ones.
local function is_ear(cl, i)
  local x, y = cl.x, cl.y
  local a, c = cl.prv[i], cl.nxt[i]
  local ax, ay, ix, iy, cx, cy = x[a], y[a], x[i], y[i], x[c], y[c]
  if not (orient(ax, ay, ix, iy, cx, cy) > 0.0) then
    return false
  end
  if cl.reflexes == 0 then
    return true
  end
  local gw, gx0, gy0, gnx, gny = cl.w, cl.x0, cl.y0, cl.nx, cl.ny
  local start, item = cl.start, cl.item
  local loy, hiy = fmin(ay, fmin(iy, cy)), fmax(ay, fmax(iy, cy))
  for r = grid_at(loy, gy0, gw, gny), grid_at(hiy, gy0, gw, gny) do
    local eps = 1e-6 * gw
    local y0 = gy0 + r * gw - eps
    local y1 = y0 + gw + 2.0 * eps
    local lo, hi = HUGE, -HUGE
    lo, hi = band_span(ax, ay, ix, iy, y0, y1, lo, hi)
    lo, hi = band_span(ix, iy, cx, cy, y0, y1, lo, hi)
    lo, hi = band_span(cx, cy, ax, ay, y0, y1, lo, hi)
    if lo <= hi then
      for q = grid_at(lo - eps, gx0, gw, gnx), grid_at(hi + eps, gx0, gw, gnx) do
        local cell = r * gnx + q
        for u = start[cell], start[cell + 1] - 1 do
          if blocks(cl, item[u], a, i, c) then
            return false
          end
        end
      end
    end
  end
  local extra = cl.extra
  for u = 0, cl.extras - 1 do
    if blocks(cl, extra[u], a, i, c) then
      return false
    end
  end
  return true
end

-- Ear clipping into the half-edge structure w.{from, next, prev, twin, dead} (0-based): n
-- outline half-edges (i -> i + 1), then a pair per diagonal. The vertices wait in a queue
-- (every one at first, then the two neighbours of each ear clipped); an ear's test asks only
-- the reflex (or flat) vertices a grid lists under its triangle. When the queue runs dry
-- every vertex left is queued again, and after a whole round without an ear (rounding in a
-- near-degenerate outline) the most convex vertex is clipped, so that it always ends.
-- Returns the half-edges' count.
local function triangulate(x, y, n, w)
  local hfrom, hnext, hprev, htwin, hdead = w.from, w.next, w.prev, w.twin, w.dead
  local cl = { x = x, y = y, n = n, left = n, prv = {}, nxt = {}, out = {}, gone = {},
    queuedf = {}, reflex = {}, listed = {}, queue = {}, extra = {}, head = 0, queued = 0,
    extras = 0, reflexes = 0 }
  local prv, nxt, out = cl.prv, cl.nxt, cl.out
  local H, round = n, -1
  for i = 0, n - 1 do
    hfrom[i] = i
    hnext[i] = (i + 1) % n
    hprev[i] = (i + n - 1) % n
    htwin[i] = -1
    hdead[i] = false
    prv[i] = (i + n - 1) % n
    nxt[i] = (i + 1) % n
    out[i] = i -- the half-edge from i to nxt[i] in the remaining polygon
    cl.gone[i], cl.queuedf[i], cl.reflex[i], cl.listed[i] = false, false, false, false
  end
  -- the grid of the reflex vertices: about one cell each
  local lox, loy, hix, hiy = x[0], y[0], x[0], y[0]
  for i = 0, n - 1 do
    lox, loy = fmin(lox, x[i]), fmin(loy, y[i])
    hix, hiy = fmax(hix, x[i]), fmax(hiy, y[i])
    local a, c = prv[i], nxt[i]
    if not (orient(x[a], y[a], x[i], y[i], x[c], y[c]) > 0.0) then
      cl.reflex[i], cl.listed[i] = true, true
      cl.reflexes = cl.reflexes + 1
    end
  end
  cl.x0 = lox
  cl.y0 = loy
  cl.w = grid_width(lox, loy, hix, hiy, cl.reflexes + 1)
  if not (cl.w > 0.0) then
    cl.w = 1.0
  end
  repeat
    cl.nx = grid_at(hix, cl.x0, cl.w, n + 1) + 1
    cl.ny = grid_at(hiy, cl.y0, cl.w, n + 1) + 1
    cl.w = cl.w * 2.0
  until not (cl.nx * cl.ny > n + 1)
  cl.w = cl.w * 0.5
  local start, item = {}, {}
  cl.start, cl.item = start, item
  local cells = cl.nx * cl.ny
  for c = 0, cells do
    start[c] = 0
  end
  for pass = 0, 1 do -- counts, then the entries in order
    for i = 0, n - 1 do
      if cl.reflex[i] then
        local cell = grid_at(y[i], cl.y0, cl.w, cl.ny) * cl.nx + grid_at(x[i], cl.x0, cl.w, cl.nx)
        if pass == 0 then
          start[cell + 1] = start[cell + 1] + 1
        else
          item[start[cell]] = i
          start[cell] = start[cell] + 1
        end
      end
    end
    if pass == 0 then
      for c = 0, cells - 1 do
        start[c + 1] = start[c + 1] + start[c]
      end
    else
      for c = cells, 1, -1 do
        start[c] = start[c - 1]
      end
    end
  end
  start[0] = 0
  for i = 0, n - 1 do
    push(cl, i)
  end
  local live = 0 -- a vertex left (the last ear's neighbour)
  local queue = cl.queue
  while cl.left > 3 do
    if cl.queued == 0 then -- dry: every vertex left
      local v = live
      for _ = 0, cl.left - 1 do
        push(cl, v)
        v = nxt[v]
      end
      round = cl.left
    end
    local i = queue[cl.head]
    cl.head = (cl.head + 1) % n
    cl.queued = cl.queued - 1
    cl.queuedf[i] = false
    local clip = not cl.gone[i]
    if clip and not is_ear(cl, i) then
      clip = false
      if round > 0 then
        round = round - 1
        if round == 0 then
          -- a whole round without an ear: the most convex vertex
          local bestc = -HUGE
          local k, best = i, i
          repeat
            local pk, nk = prv[k], nxt[k]
            local o = orient(x[pk], y[pk], x[k], y[k], x[nk], y[nk])
            if o > bestc then
              bestc = o
              best = k
            end
            k = nk
          until k == i
          i = best
          clip = true
        end
      end
    end
    if clip then
      round = -1
      -- clip: half-edges a->i (out[a]) and i->c (out[i]) close with c->a (d1); the rest
      -- gets a->c (d2)
      local a, c = prv[i], nxt[i]
      local eai, eic = out[a], out[i]
      local before, after = hprev[eai], hnext[eic]
      local d1, d2 = H, H + 1
      H = H + 2
      hfrom[d1] = c
      htwin[d1] = d2
      hdead[d1] = false
      hnext[d1] = eai
      hprev[d1] = eic
      hprev[eai] = d1
      hnext[eic] = d1
      hfrom[d2] = a
      htwin[d2] = d1
      hdead[d2] = false
      hprev[d2] = before
      hnext[d2] = after
      hnext[before] = d2
      hprev[after] = d2
      out[a] = d2
      nxt[a] = c
      prv[c] = a
      cl.left = cl.left - 1
      if cl.reflex[i] then
        cl.reflexes = cl.reflexes - 1
      end
      cl.gone[i], cl.queuedf[i], cl.reflex[i], cl.listed[i] = true, false, false, false
      reflex_now(cl, a)
      reflex_now(cl, c)
      push(cl, a)
      push(cl, c)
      live = c
    end
  end
  return H
end

-- Hertel-Mehlhorn: remove each diagonal whose two ends stay convex (or straight) in the
-- merged part.
local function merge_parts(x, y, w, n, H)
  local hfrom, hnext, hprev, hdead = w.from, w.next, w.prev, w.dead
  for d = n, H - 1, 2 do
    local d1, d2 = d, d + 1
    if not hdead[d1] then
      -- at d2's start (d1's end): the part of d2 comes in by prev(d2), leaves by next(d1)
      local in1, out1, in2, out2 = hprev[d2], hnext[d1], hprev[d1], hnext[d2]
      local v1, v2 = hfrom[d2], hfrom[d1]
      local a1, c1 = hfrom[in1], hfrom[hnext[out1]]
      local a2, c2 = hfrom[in2], hfrom[hnext[out2]]
      if not (orient(x[a1], y[a1], x[v1], y[v1], x[c1], y[c1]) < 0.0 or
        orient(x[a2], y[a2], x[v2], y[v2], x[c2], y[c2]) < 0.0) then
        hnext[in1] = out1
        hprev[out1] = in1
        hnext[in2] = out2
        hprev[out2] = in2
        hdead[d1] = true
        hdead[d2] = true
      end
    end
  end
end

-- Each part, validated as a polygon, into w.outlines (a part that does not validate (a
-- sliver of no area, or rounding at a straight vertex) is split into its fan's triangles,
-- and those of no area dropped). Returns the parts' count.
local function each_part(w)
  local x, y = w.x, w.y
  local hfrom, hnext, hdead = w.from, w.next, w.dead
  local cap, ox, oy, e2 = w.cap, w.originx, w.originy, w.exponent
  local outlines = {}
  local parts = 0
  local mark = {}
  local ptsx, ptsy = {}, {}
  for e = 0, w.halves - 1 do
    if not (hdead[e] or mark[e]) then
      local k, f = 0, e
      repeat
        mark[f] = true
        local q = hfrom[f]
        k = k + 1
        ptsx[k], ptsy[k] = ox + ldexp(x[q], e2), oy + ldexp(y[q], e2)
        f = hnext[f]
      until not (f ~= e and k < cap)
      local o = {}
      if S.sat_polygon_validate(ptsx, ptsy, k, {}, {}, o) == SAT_OK then
        parts = parts + 1
        outlines[parts] = o
      else
        for t = 2, k - 1 do
          local tx, ty = { ptsx[1], ptsx[t], ptsx[t + 1] }, { ptsy[1], ptsy[t], ptsy[t + 1] }
          o = {}
          if S.sat_polygon_validate(tx, ty, 3, {}, {}, o) == SAT_OK then
            parts = parts + 1
            outlines[parts] = o
          end
        end
      end
    end
  end
  w.outlines = outlines
  return parts
end

--- sat_concave_prepare(xs, ys, count) -> status, work: the outline validated and decomposed
-- into work (a table for sat_concave_build).
function M.sat_concave_prepare(xs, ys, count)
  local checked = I.sat__check_points(xs, ys, count)
  if checked ~= SAT_OK then
    return checked
  end
  local px, py = {}, {}
  local originx, originy = xs[1], ys[1]
  local exponent, size
  checked, exponent, size = I.sat__unit_points(xs, ys, count, px, py)
  if checked ~= SAT_OK then
    return checked
  end
  -- merged and collinear points (spikes and folds among them) go, until none is left
  local n = count
  repeat
    local before = n
    n = S.sat__merge_close(px, py, n, SAT_MERGE_REL * size)
    if n >= 3 then
      n = S.sat__drop_collinear(px, py, n, SAT_COLLINEAR_REL * size)
    end
  until not (n >= 3 and n < before)
  if n < 3 then
    return SAT_ERR_ZERO_AREA
  end
  local x, y = {}, {}
  for i = 0, n - 1 do
    x[i], y[i] = px[i + 1], py[i + 1]
  end
  local st = check_simple(x, y, n, SAT_MERGE_REL * size)
  if st ~= SAT_OK then
    return st
  end
  local area2 = 0.0
  for i = 0, n - 1 do
    local j = (i + 1) % n
    area2 = area2 + (x[i] * y[j] - y[i] * x[j])
  end
  if not (fabs(area2) * 0.5 > SAT_AREA_REL * size * size) then
    return SAT_ERR_ZERO_AREA
  end
  if area2 < 0.0 then
    local i, j = 0, n - 1
    while i < j do
      x[i], x[j] = x[j], x[i]
      y[i], y[j] = y[j], y[i]
      i, j = i + 1, j - 1
    end
  end
  local w = { cap = count, n = n, x = x, y = y, exponent = exponent, originx = originx,
    originy = originy, from = {}, next = {}, prev = {}, twin = {}, dead = {} }
  w.halves = triangulate(x, y, n, w)
  merge_parts(x, y, w, n, w.halves)
  w.parts = each_part(w)
  if w.parts > 0 then
    return SAT_OK, w
  end
  return SAT_ERR_ZERO_AREA
end

--- sat_concave_build(s, work): the compound from a prepared outline.
function M.sat_concave_build(s, w)
  begin(s, w.parts, w.n, SAT_FORM_CONCAVE)
  local outlines = w.outlines
  for i = 1, w.parts do
    local b = {}
    S.sat_polygon_build_lean(b, outlines[i])
    s.base[i] = b
    s.parts[i] = copy_inline({}, b)
  end
  local x, y, e2, ox, oy = w.x, w.y, w.exponent, w.originx, w.originy
  local wx, wy = {}, {}
  for j = 0, w.n - 1 do
    wx[j + 1], wy[j + 1] = ox + ldexp(x[j], e2), oy + ldexp(y[j], e2)
  end
  finish(s, wx, wy)
end

-- ---- sat_shape.c's compound section ----------------------------------------------------------

--- sat_compound_form(s)
function M.sat_compound_form(s)
  return s.form
end

--- sat_compound_part(s, i): part i (0-based) in the world.
function M.sat_compound_part(s, i)
  return s.parts[i + 1]
end

--- sat_compound_outline_count(s)
function M.sat_compound_outline_count(s)
  return s.on
end

--- sat_compound_outline_point(s, i) -> x, y: outline point i (0-based) in the world.
function M.sat_compound_outline_point(s, i)
  local ox, oy = s.owx[i + 1], s.owy[i + 1]
  return (s.px + ox) + s.plx, (s.py + oy) + s.ply
end

--- sat__compound_place(s): the parts' positions from the compound's.
local function place(s)
  local parts, tox, toy = s.parts, s.tox, s.toy
  local px, py, plx, ply = s.px, s.py, s.plx, s.ply
  for i = 1, s.count do
    local p = parts[i]
    local hx, lx = dd_add(px, plx, tox[i])
    local hy, ly = dd_add(py, ply, toy[i])
    p.px, p.plx = hx, lx
    p.py, p.ply = hy, ly
  end
end
M.sat__compound_place = place

--- sat__compound_refresh(s): the parts after the compound's rotation or scale changed (and
-- its box, bound, outline).
function M.sat__compound_refresh(s)
  local sn, c = sat_sincos(s.angle)
  local k, bound = s.scale, 0.0
  local base, parts = s.base, s.parts
  local tox, toy, tlox, tloy, thix, thiy = s.tox, s.toy, s.tlox, s.tloy, s.thix, s.thiy
  for i = 1, s.count do
    local b, p = base[i], parts[i]
    copy_over(p, b) -- (a lean one's offsets become the local points)
    if k ~= 1.0 then
      if p.kind == SAT_CIRCLE then
        p.radius = p.radius * k
      else
        p.scale = p.scale * k
        if p.kind == SAT_CAPSULE then
          p.radius = p.radius * k
        end
      end
    end
    p.angle = b.angle + s.angle
    refresh(p)
    local qx, qy = b.px * k, b.py * k
    local ox, oy = c * qx - sn * qy + 0.0, sn * qx + c * qy + 0.0
    tox[i], toy[i] = ox, oy
    tlox[i], tloy[i], thix[i], thiy[i] = box(p)
    bound = fmax(bound, len(ox, oy) + p.bound)
  end
  local olx, oly, owx, owy = s.olx, s.oly, s.owx, s.owy
  for j = 1, s.on do
    local qx, qy = olx[j] * k, oly[j] * k
    owx[j], owy[j] = c * qx - sn * qy + 0.0, sn * qx + c * qy + 0.0
  end
  s.bound = bound
  s.radius = 0.0
  place(s)
end

--- sat__compound_scale_ok(s, factor) -> status
function M.sat__compound_scale_ok(s, factor)
  local k = s.scale * factor
  if not isfinite(k) then
    return SAT_ERR_RANGE
  end
  if not (k > 0.0) then
    return SAT_ERR_BAD_SCALE
  end
  local parts = s.parts
  for i = 1, s.count do
    local p = parts[i]
    if p.kind == SAT_POLYGON and p.bound * factor < 0.5 * SAT_MIN_SIZE then
      return SAT_ERR_RANGE
    end
    if has_segment(p) and p.lhlen > 0.0 and p.hlen * factor < 0.5 * SAT_MIN_SIZE then
      return SAT_ERR_RANGE
    end
  end
  return SAT_OK
end

--- sat__compound_area(s): the parts' areas added.
function M.sat__compound_area(s)
  local a = 0.0
  local parts = s.parts
  for i = 1, s.count do
    a = a + S.sat_shape_area(parts[i])
  end
  return a
end

--- sat__compound_contains(s, x, y) -> 0 or 1
function M.sat__compound_contains(s, x, y)
  local parts = s.parts
  for i = 1, s.count do
    if S.sat_shape_contains(parts[i], x, y) == 1 then
      return 1
    end
  end
  return 0
end

--- sat__compound_box(s) -> lox, loy, hix, hiy: its parts' boxes about their offsets.
function M.sat__compound_box(s)
  local lox, loy, hix, hiy = HUGE, HUGE, -HUGE, -HUGE
  local tox, toy, tlox, tloy, thix, thiy = s.tox, s.toy, s.tlox, s.tloy, s.thix, s.thiy
  for i = 1, s.count do
    local ox, oy = tox[i], toy[i]
    lox = fmin(lox, ox + tlox[i])
    loy = fmin(loy, oy + tloy[i])
    hix = fmax(hix, ox + thix[i])
    hiy = fmax(hiy, oy + thiy[i])
  end
  return lox, loy, hix, hiy
end

local function copy_array(a, n)
  local b = {}
  for i = 1, n do
    b[i] = a[i]
  end
  return b
end

--- sat__compound_copy(dst, src): the whole compound (C's memcpy), in no hash.
function M.sat__compound_copy(dst, src)
  local P, N = src.count, src.on
  dst.kind = src.kind
  dst.count = P
  dst.px, dst.py, dst.plx, dst.ply = src.px, src.py, src.plx, src.ply
  dst.radius = src.radius
  dst.bound = src.bound
  dst.scale = src.scale
  dst.user = src.user
  dst.angle = src.angle
  dst.id = src.id
  dst.members = nil
  dst.category = src.category
  dst.mask = src.mask
  dst.ver = 0
  dst.form = src.form
  dst.on = N
  local base, parts = {}, {}
  for i = 1, P do
    base[i] = S.sat_shape_copy({}, src.base[i])
    parts[i] = copy_inline({}, src.parts[i])
  end
  dst.base, dst.parts = base, parts
  dst.tox, dst.toy = copy_array(src.tox, P), copy_array(src.toy, P)
  dst.tlox, dst.tloy = copy_array(src.tlox, P), copy_array(src.tloy, P)
  dst.thix, dst.thiy = copy_array(src.thix, P), copy_array(src.thiy, P)
  dst.olx, dst.oly = copy_array(src.olx, N), copy_array(src.oly, N)
  dst.owx, dst.owy = copy_array(src.owx, N), copy_array(src.owy, N)
  return dst
end

-- (names the C has that the binding does not call: kept for the mirror)
M.SAT_FORM_PARTS, M.SAT_FORM_CONCAVE, M.SAT_FORM_CHAIN, M.SAT_FORM_LOOP =
  SAT_FORM_PARTS, SAT_FORM_CONCAVE, SAT_FORM_CHAIN, SAT_FORM_LOOP
M.SAT_ERR_SELF_TOUCHING = SAT_ERR_SELF_TOUCHING

return M
