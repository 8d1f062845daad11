--- sat_collide.lua - the pure backend's twin of src/core/sat_collide.c up to the dispatch:
-- the convex pair tests (separating axes with the minimum translation and containment),
-- sat_test and sat_collide, the canonical order and the dispatch table. A compound second
-- goes to sat_union.lua (sat__compound_test, sat__compound_collide).
--
-- Every pair is computed in a canonical order (lower kind first; for equal kinds an order
-- on the shapes' own state), in the first shape's frame, and flipped afterwards when the
-- caller's order was the other one; the arithmetic is the C's, operation for operation (see
-- the C file for the reasoning behind each test).
--
-- A pair function returns hit (1 or 0), then for a full test depth, nx, ny, a_in_b, b_in_a
-- (the flags as booleans): no table per call. sat_collide writes the result into the table
-- it is given: overlap, nx, ny, mx, my, a_in_b, b_in_a (the flags 0 or 1, as in C).
--
-- The trace: sat_explain runs these very pair functions. As sat_collide_traced.c compiles
-- sat_collide.c again with SAT_TRACING, lua/sat/pure/sat_collide_traced.lua is this file
-- with its trace hooks on, written by tools/pure_traced.lua (a spec checks that it is up to
-- date): the hooks are comments here (block comments marked T, costing nothing), code
-- there; the exits on a separating axis (marked EXIT_IF) and the untraced dispatch (marked
-- untraced) are comments there. Edit this file only.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)

-- GENERATED from sat_collide.lua by tools/pure_traced.lua: do not edit.
-- luacheck: ignore 231 (ok: the traced build goes on past a separating axis)

local K = require("sat.pure.sat_constants")
local I = require("sat.pure.sat_internal")

local M = {}

local HUGE = math.huge
local min, max = math.min, math.max
local normalize = I.sat__normalize

local SAT_CIRCLE, SAT_KIND_COUNT = K.SAT_CIRCLE, K.SAT_KIND_COUNT
local SAT_POLYGON, SAT_SEGMENT, SAT_CAPSULE = K.SAT_POLYGON, K.SAT_SEGMENT, K.SAT_CAPSULE
local SAT_TOUCH_REL = K.SAT_TOUCH_REL

local FEATURE_EDGE, FEATURE_VERTEX, FEATURE_CENTRE = K.SAT_FEATURE_EDGE, K.SAT_FEATURE_VERTEX,
  K.SAT_FEATURE_CENTRE
local FEATURE_NORMAL, FEATURE_DIRECTION, FEATURE_ENDPOINT = K.SAT_FEATURE_NORMAL,
  K.SAT_FEATURE_DIRECTION, K.SAT_FEATURE_ENDPOINT


--@untraced
-- -- sat_union.lua, when a compound is met (it requires this file).
-- local SAT_COMPOUND = K.SAT_COMPOUND
-- local union_mod
-- local function union()
--   union_mod = union_mod or require("sat.pure.sat_union")
--   return union_mod
-- end
--@end

-- ---- the trace --------------------------------------------------------------------------
-- Traced, each pair function takes a sink as its last argument and reports every axis it
-- tries: tr.axis(tr, nx, ny, from, feature, index, separates, measured, amin, amax, bmin,
-- bmax, overlap) (index 0-based, as in C; measured: the intervals are the test's own), then
-- tr.verdict(tr, axis) on a hit; tr.apart is set as separating axes are reported.

-- An axis whose intervals the test has (p and q as at the top).
local function trace_axis(tr, nx, ny, from, feature, index, amin, amax, bmin, bmax, p, q, tol)
  local separates = p < -tol or q < -tol
  if separates then
    tr.apart = true
  end
  tr.axis(tr, nx, ny, from, feature, index, separates, true, amin, amax, bmin, bmax,
    q < p and q or p) -- as least_consider takes it
end

-- An axis through two closest points (dir from the first shape toward the second), with the
-- depth the test computes along it and its verdict.
local function trace_closest(tr, dx, dy, from, feature, index, overlap, separates)
  if separates then
    tr.apart = true
  end
  tr.axis(tr, dx, dy, from, feature, index, separates, false, 0.0, 0.0, 0.0, 0.0, overlap)
end

-- polygon_circle's axis through a polygon's vertex and a round shape's centre (at d), when
-- the test took one (vertex): w leads from one end of `edge` (a position) to the centre, from
-- the first end when it is that end's own difference. None when the centre is on the vertex.
local function trace_vertex(tr, a, dx, dy, edge, vertex, wx, wy, rad, separates)
  if not vertex then
    return
  end
  local w0x, w0y = dx - a.ox[edge], dy - a.oy[edge]
  local at = edge - 1 -- 0-based
  if not (wx == w0x and wy == w0y) then
    at = edge == a.count and 0 or edge
  end
  local ux, uy, dist = normalize(wx, wy)
  if ux ~= 0.0 or uy ~= 0.0 then
    trace_closest(tr, ux, uy, 0, FEATURE_VERTEX, at, rad - dist, separates)
  end
end

-- circle_circle's one axis, through the centres (concentric: (1, 0)).
local function trace_centres(tr, a, b, dx, dy, tol)
  local reach = a.radius + b.radius + tol
  local nx, ny, dist = normalize(dx, dy)
  if nx == 0.0 and ny == 0.0 then
    nx, ny = 1.0, 0.0
  end
  trace_closest(tr, nx, ny, 0, FEATURE_CENTRE, 0, a.radius + b.radius - dist,
    dx * dx + dy * dy > reach * reach)
end


-- ---- polygon / polygon ------------------------------------------------------------------

-- Above this many vertices, a polygon's interval along an axis is found by walking to its
-- extreme vertices from where the previous axis left them, instead of by projecting every
-- vertex: O(n + m) for a pair of big polygons. The values are the same bits either way.
local SAT_SCAN_MAX = 8
M.SAT_SCAN_MAX = SAT_SCAN_MAX

-- Walking (walk_a, walk_b): the vertex of least (greatest) projection along n is walked to
-- from where the previous axis left it (at_*0, at_*1). Around a convex polygon the
-- projections of its vertices fall to their least and rise again, with at most two equal,
-- so the first vertex neither of whose neighbours is lower is the least: the value a scan
-- finds (see the C's walk). A scan (sat__project) by comparisons, or under LuaJIT by
-- math.min and math.max: those may give the other of two zeros of opposite signs when they
-- tie, which changes no result of sat_test or sat_collide (a polygon's extents along its own
-- normals, amax and amin, are never zero, so p and q come out the same but for a zero's
-- sign, and a depth of zero is clamped to 0); the explained intervals, which show such
-- zeros, come from the traced copy, which compares. With minmax (LuaJIT) the depth is
-- math.min(q, p) too, and the containments are the least margins over the axes, x >= y
-- being x - y >= 0 exactly (a difference of doubles is 0 only for equal ones), so that no
-- branch is left to guess in the loop but the exit and a new least.

-- Along a's normal i, a's interval (from its deepest vertex to its support) is derived and
-- b's is found (scanned, or walked: walk_b); then the same with the roles swapped. Axes are
-- numbered a's first, then b's (0-based, as in C).
local function polygon_pair(a, b, dx, dy, tol, full, walk_a, walk_b, minmax , tr)
  local ca, cb = a.count, b.count
  local anx, any, aox, aoy, asup, aleast = a.nx, a.ny, a.ox, a.oy, a.sup, a.least
  local bnx, bny, box, boy, bsup, bleast = b.nx, b.ny, b.ox, b.oy, b.sup, b.least
  local a_in_b, b_in_a = true, true
  local at_a0, at_a1, at_b0, at_b1 = 1, 1, 1, 1
  local ldepth, lindex, lneg = HUGE, 0, false -- least_axis: its code is 2 * index + neg
  local in_a, in_b = HUGE, HUGE -- with minmax: the least margins of b in a and a in b

  for i = 1, ca do
    local nx, ny = anx[i], any[i]
    local amax, amin = asup[i], aleast[i] -- sat__support, sat__least
    local dn = dx * nx + dy * ny
    -- b's interval
    local lo, hi
    if walk_b then -- walked to its least and greatest (see walk_min)
      local k = at_b0
      local v = box[k] * nx + boy[k] * ny
      local t = k == cb and 1 or k + 1
      local w = box[t] * nx + boy[t] * ny
      if w < v then
        repeat
          k, v = t, w
          t = k == cb and 1 or k + 1
          w = box[t] * nx + boy[t] * ny
        until not (w < v)
      else
        t = k == 1 and cb or k - 1
        w = box[t] * nx + boy[t] * ny
        while w < v do
          k, v = t, w
          t = k == 1 and cb or k - 1
          w = box[t] * nx + boy[t] * ny
        end
      end
      at_b0, lo = k, v
      k = at_b1
      v = box[k] * nx + boy[k] * ny
      t = k == cb and 1 or k + 1
      w = box[t] * nx + boy[t] * ny
      if w > v then
        repeat
          k, v = t, w
          t = k == cb and 1 or k + 1
          w = box[t] * nx + boy[t] * ny
        until not (w > v)
      else
        t = k == 1 and cb or k - 1
        w = box[t] * nx + boy[t] * ny
        while w > v do
          k, v = t, w
          t = k == 1 and cb or k - 1
          w = box[t] * nx + boy[t] * ny
        end
      end
      at_b1, hi = k, v
    elseif minmax then -- scanned with math.min and math.max, unrolled: up to 8 vertices
      lo = box[1] * nx + boy[1] * ny
      hi = lo
      local v = box[2] * nx + boy[2] * ny
      lo, hi = min(lo, v), max(hi, v)
      v = box[3] * nx + boy[3] * ny
      lo, hi = min(lo, v), max(hi, v)
      if cb > 3 then
        v = box[4] * nx + boy[4] * ny
        lo, hi = min(lo, v), max(hi, v)
        if cb > 4 then
          v = box[5] * nx + boy[5] * ny
          lo, hi = min(lo, v), max(hi, v)
          if cb > 5 then
            v = box[6] * nx + boy[6] * ny
            lo, hi = min(lo, v), max(hi, v)
            if cb > 6 then
              v = box[7] * nx + boy[7] * ny
              lo, hi = min(lo, v), max(hi, v)
              if cb > 7 then
                v = box[8] * nx + boy[8] * ny
                lo, hi = min(lo, v), max(hi, v)
              end
            end
          end
        end
      end
    else -- scanned (sat__project)
      lo = box[1] * nx + boy[1] * ny
      hi = lo
      for k = 2, cb do
        local v = box[k] * nx + boy[k] * ny
        if v < lo then
          lo = v
        end
        if v > hi then
          hi = v
        end
      end
    end
    local bmin, bmax = dn + lo, dn + hi
    local p, q = amax - bmin, bmax - amin
     trace_axis(tr, nx, ny, 0, FEATURE_EDGE, i - 1, amin, amax, bmin, bmax, p, q, tol)
--     if p < -tol or q < -tol then return 0 end --EXIT_IF
    if full then
      local depth
      if minmax then -- the containments by their least margins (see the top)
        depth = min(q, p)
        in_a = min(in_a, bmin - (amin - tol), (amax + tol) - bmax)
        in_b = min(in_b, amin - (bmin - tol), (bmax + tol) - amax)
      else
        depth = q < p and q or p
        b_in_a = b_in_a and bmin >= amin - tol and bmax <= amax + tol
        a_in_b = a_in_b and amin >= bmin - tol and amax <= bmax + tol
      end
      if depth < ldepth then
        ldepth, lindex, lneg = depth, i - 1, p > q
      end
    end
  end
  for j = 1, cb do
    local nx, ny = bnx[j], bny[j]
    local dn = dx * nx + dy * ny
    local bmax, bmin = dn + bsup[j], dn + bleast[j]
    -- a's interval
    local amin, amax
    if walk_a then -- walked to its least and greatest (see walk_min)
      local k = at_a0
      local v = aox[k] * nx + aoy[k] * ny
      local t = k == ca and 1 or k + 1
      local w = aox[t] * nx + aoy[t] * ny
      if w < v then
        repeat
          k, v = t, w
          t = k == ca and 1 or k + 1
          w = aox[t] * nx + aoy[t] * ny
        until not (w < v)
      else
        t = k == 1 and ca or k - 1
        w = aox[t] * nx + aoy[t] * ny
        while w < v do
          k, v = t, w
          t = k == 1 and ca or k - 1
          w = aox[t] * nx + aoy[t] * ny
        end
      end
      at_a0, amin = k, v
      k = at_a1
      v = aox[k] * nx + aoy[k] * ny
      t = k == ca and 1 or k + 1
      w = aox[t] * nx + aoy[t] * ny
      if w > v then
        repeat
          k, v = t, w
          t = k == ca and 1 or k + 1
          w = aox[t] * nx + aoy[t] * ny
        until not (w > v)
      else
        t = k == 1 and ca or k - 1
        w = aox[t] * nx + aoy[t] * ny
        while w > v do
          k, v = t, w
          t = k == 1 and ca or k - 1
          w = aox[t] * nx + aoy[t] * ny
        end
      end
      at_a1, amax = k, v
    elseif minmax then -- scanned with math.min and math.max, unrolled: up to 8 vertices
      amin = aox[1] * nx + aoy[1] * ny
      amax = amin
      local v = aox[2] * nx + aoy[2] * ny
      amin, amax = min(amin, v), max(amax, v)
      v = aox[3] * nx + aoy[3] * ny
      amin, amax = min(amin, v), max(amax, v)
      if ca > 3 then
        v = aox[4] * nx + aoy[4] * ny
        amin, amax = min(amin, v), max(amax, v)
        if ca > 4 then
          v = aox[5] * nx + aoy[5] * ny
          amin, amax = min(amin, v), max(amax, v)
          if ca > 5 then
            v = aox[6] * nx + aoy[6] * ny
            amin, amax = min(amin, v), max(amax, v)
            if ca > 6 then
              v = aox[7] * nx + aoy[7] * ny
              amin, amax = min(amin, v), max(amax, v)
              if ca > 7 then
                v = aox[8] * nx + aoy[8] * ny
                amin, amax = min(amin, v), max(amax, v)
              end
            end
          end
        end
      end
    else -- scanned (sat__project)
      amin = aox[1] * nx + aoy[1] * ny
      amax = amin
      for k = 2, ca do
        local v = aox[k] * nx + aoy[k] * ny
        if v < amin then
          amin = v
        end
        if v > amax then
          amax = v
        end
      end
    end
    local p, q = amax - bmin, bmax - amin
     trace_axis(tr, nx, ny, 1, FEATURE_EDGE, j - 1, amin, amax, bmin, bmax, p, q, tol)
--     if p < -tol or q < -tol then return 0 end --EXIT_IF
    if full then
      local depth
      if minmax then -- the containments by their least margins (see the top)
        depth = min(q, p)
        in_a = min(in_a, bmin - (amin - tol), (amax + tol) - bmax)
        in_b = min(in_b, amin - (bmin - tol), (bmax + tol) - amax)
      else
        depth = q < p and q or p
        b_in_a = b_in_a and bmin >= amin - tol and bmax <= amax + tol
        a_in_b = a_in_b and amin >= bmin - tol and amax <= bmax + tol
      end
      if depth < ldepth then
        ldepth, lindex, lneg = depth, ca + j - 1, p > q
      end
    end
  end
   if tr.apart then return 0 end
  if not full then
    return 1
  end
  if minmax then
    b_in_a, a_in_b = in_a >= 0.0, in_b >= 0.0
  end
  local nx, ny
  if lindex < ca then
    nx, ny = anx[lindex + 1], any[lindex + 1]
  else
    nx, ny = bnx[lindex - ca + 1], bny[lindex - ca + 1]
  end
  if lneg then
    nx, ny = -nx, -ny
  end
   tr.verdict(tr, lindex)
  return 1, ldepth, nx, ny, a_in_b, b_in_a
end

-- ---- polygon / circle -------------------------------------------------------------------

-- The polygon's edge normals, and the axis from the centre to the polygon's closest vertex
-- when the centre lies in that vertex's region (see the C).
local function polygon_circle(a, b, dx, dy, tol, full , tr)
  local anx, any, aox, aoy, asup, aleast = a.nx, a.ny, a.ox, a.oy, a.sup, a.least
  local rad, most, pmin = b.radius, -HUGE, HUGE
  local count, edge, c_in_p = a.count, 1, true
  local ldepth, lindex, lneg = HUGE, 0, false

  for i = 1, count do
    local nx, ny = anx[i], any[i]
    local amax, amin = asup[i], aleast[i]
    local dn = dx * nx + dy * ny
    local p, q = amax - (dn - rad), (dn + rad) - amin
     trace_axis(tr, nx, ny, 0, FEATURE_EDGE, i - 1, amin, amax, dn - rad, dn + rad, p, q, tol)
--     if p < -tol or q < -tol then return 0 end --EXIT_IF
    local wide = q > p and q or p
    local depth = q < p and q or p
    if depth < ldepth then
      ldepth, lindex, lneg = depth, i - 1, p > q
    end
    if p < pmin then -- the least p: the centre farthest beyond
      pmin = p
      edge = i
    end
    if wide > most then
      most = wide
    end
    c_in_p = c_in_p and dn + rad <= amax + tol
  end

  -- The vertex axis: when the centre is beyond `edge`, and behind the perpendicular at one
  -- of its ends.
  local wx, wy = 0.0, 0.0
  local vertex = false
  if pmin < rad then
    local e1 = edge == count and 1 or edge + 1
    local v0x, v0y, v1x, v1y = aox[edge], aoy[edge], aox[e1], aoy[e1]
    local ex, ey = v1x - v0x, v1y - v0y
    local w0x, w0y, w1x, w1y = dx - v0x, dy - v0y, dx - v1x, dy - v1y
    if w0x * ex + w0y * ey < 0.0 then
      wx, wy = w0x, w0y
      vertex = true
    elseif w1x * ex + w1y * ey > 0.0 then
      wx, wy = w1x, w1y
      vertex = true
    end
    -- Apart along the axis through the vertex: beyond the reach, compared squared.
    local reach = rad + tol
     trace_vertex(tr, a, dx, dy, edge, vertex, wx, wy, rad, wx * wx + wy * wy > reach * reach)
    if vertex and wx * wx + wy * wy > reach * reach then
      return 0 -- the last axis: explaining, the test may stop here too
    end
  end
   if tr.apart then return 0 end
  if not full then
    return 1
  end

  local depth, nx, ny = ldepth, anx[lindex + 1], any[lindex + 1]
  if lneg then
    nx, ny = -nx, -ny
  end
  if vertex then
    local ux, uy, dist = normalize(wx, wy) -- from the vertex toward the centre
    local qv = rad - dist
    if (ux ~= 0.0 or uy ~= 0.0) and qv < ldepth then
      depth, nx, ny = qv, ux, uy
    end
  end
   tr.verdict(tr, depth < ldepth and count or lindex)
  -- The polygon is in the circle when every vertex is within the reach; it cannot be when
  -- along some normal it extends farther than that from the centre.
  local reach = rad + tol
  local a_in_b = false
  if most - rad <= reach + tol then
    local far2 = 0.0
    for i = 1, count do
      local vx, vy = aox[i] - dx, aoy[i] - dy
      local d2 = vx * vx + vy * vy
      far2 = d2 > far2 and d2 or far2
    end
    a_in_b = far2 <= reach * reach
  end
  return 1, depth, nx, ny, a_in_b, c_in_p
end

-- ---- circle / circle --------------------------------------------------------------------

-- Decided on squared distances (no square root unless they touch).
local function circle_circle(a, b, dx, dy, tol, full , tr)
  local ra, rb = a.radius, b.radius
  local reach = ra + rb + tol
   trace_centres(tr, a, b, dx, dy, tol)
  if dx * dx + dy * dy > reach * reach then
    return 0
  end
  if full then
    local nx, ny, dist = normalize(dx, dy)
    if not (nx ~= 0.0 or ny ~= 0.0) then -- concentric: the normal stays (1, 0)
      nx, ny = 1.0, 0.0
    end
     tr.verdict(tr, 0)
    return 1, ra + rb - dist, nx, ny, dist + ra <= rb + tol, dist + rb <= ra + tol
  end
  return 1
end

-- ---- segments and capsules --------------------------------------------------------------

-- A segment core (sat__segcore): at offset (cx, cy), half (hx, hy), unit direction (ux, uy),
-- left normal (-uy, ux), half-length L; sat__core_closest and sat__closest_dir (see
-- sat_internal.lua) written for it.
local core_closest, closest_dir = I.sat__core_closest, I.sat__closest_dir


-- polygon_segment's axis through the closest features: a polygon vertex (feature >= 0) or
-- the segment's endpoint (-1 - endpoint) against the other.
local function trace_features(tr, feature, vertex, wx, wy, flat, fnx, fny, R, separates)
  local dist, dirx, diry = flat, fnx, fny
  if vertex then
    local ux, uy, l = normalize(wx, wy)
    dist = l
    if ux ~= 0.0 or uy ~= 0.0 then
      dirx, diry = ux, uy
    end
  end
  if feature >= 0 then
    trace_closest(tr, dirx, diry, 0, FEATURE_VERTEX, feature, R - dist, separates)
  else
    trace_closest(tr, dirx, diry, 1, FEATURE_ENDPOINT, -1 - feature, R - dist, separates)
  end
end


-- polygon (a) / segment or capsule (b). The SAT axes are the polygon's edge normals and the
-- segment's normal; apart, the closest features (see the C).
local function polygon_segment(a, b, dx, dy, tol, full , tr)
  local anx, any, aox, aoy, asup, aleast = a.nx, a.ny, a.ox, a.oy, a.sup, a.least
  local R, sep, far0, far1 = b.radius, -HUGE, -HUGE, -HUGE
  local count, edge0, edge1, b_in_a, a_in_b = a.count, 1, 1, true, true
  local hx, hy, ux, uy, L = b.hx, b.hy, b.ux, b.uy, b.hlen -- sat__seg_core(b, d)
  local knx, kny = -uy, ux
  local ldepth, lindex, lneg = HUGE, 0, false

  for i = 1, count do
    local nx, ny = anx[i], any[i]
    local amax, amin = asup[i], aleast[i]
    local dn = dx * nx + dy * ny
    local hn = hx * nx + hy * ny
    local w = hn < 0 and -hn or hn + 0.0
    local lo, hi = dn - w, dn + w
    local p, q = amax - (lo - R), (hi + R) - amin
     trace_axis(tr, nx, ny, 0, FEATURE_EDGE, i - 1, amin, amax, lo - R, hi + R, p, q, tol)
--     if p < -tol or q < -tol then return 0 end --EXIT_IF
    local depth = q < p and q or p
    if depth < ldepth then
      ldepth, lindex, lneg = depth, i - 1, p > q
    end
    local e0, e1, s0, s1 = (dn - hn) - amax, (dn + hn) - amax, lo - amax, amin - hi
    if e0 > far0 then
      far0, edge0 = e0, i
    end
    if e1 > far1 then
      far1, edge1 = e1, i
    end
    s0 = s1 > s0 and s1 or s0
    sep = s0 > sep and s0 or sep
    b_in_a = b_in_a and hi + R <= amax + tol
    a_in_b = a_in_b and amin >= lo - R - tol and amax <= hi + R + tol
  end
  -- The segment's normal: the polygon's extent, and its extreme vertices.
  local pmin, pmax, dn = HUGE, -HUGE, dx * knx + dy * kny
  local vmin, vmax = 1, 1
  for i = 1, count do
    local v = aox[i] * knx + aoy[i] * kny
    if v < pmin then
      vmin, pmin = i, v
    end
    if v > pmax then
      vmax, pmax = i, v
    end
  end
  do
    local p, q = pmax - (dn - R), (dn + R) - pmin
     trace_axis(tr, knx, kny, 1, FEATURE_NORMAL, 0, pmin, pmax, dn - R, dn + R, p, q, tol)
--     if p < -tol or q < -tol then return 0 end --EXIT_IF
    local depth = q < p and q or p
    if depth < ldepth then
      ldepth, lindex, lneg = depth, count, p > q
    end
    local s0, s1 = dn - pmax, pmin - dn
    s0 = s1 > s0 and s1 or s0
    sep = s0 > sep and s0 or sep
    a_in_b = a_in_b and pmin >= dn - R - tol and pmax <= dn + R + tol
  end

  local depth, nx, ny
  if sep > 0.0 then
    -- Apart: the closest features, compared squared; a root only for the closest.
    local d2, flat, reach = HUGE, 0.0, R + tol
    local fnx, fny, wx, wy = knx, kny, 0.0, 0.0
    local vertex = false
     local feature = 0 -- the polygon's vertex (0-based), or -1 - the segment's endpoint
    for e = 0, 1 do
      local endx, endy, j, fe
      if e == 1 then
        endx, endy, j, fe = dx + hx, dy + hy, edge1, far1
      else
        endx, endy, j, fe = dx - hx, dy - hy, edge0, far0
      end
      local at_vertex = false
       local at = -1 - e
      local j1 = j == count and 1 or j + 1
      local v0x, v0y, v1x, v1y = aox[j], aoy[j], aox[j1], aoy[j1]
      local edx, edy = v1x - v0x, v1y - v0y
      local wex, wey = 0.0, 0.0
      fe = fe > 0.0 and fe or 0.0
      if fe > 0.0 and (endx - v0x) * edx + (endy - v0y) * edy < 0.0 then
        wex, wey = endx - v0x, endy - v0y
        at_vertex = true
         at = j - 1
      elseif fe > 0.0 and (endx - v1x) * edx + (endy - v1y) * edy > 0.0 then
        wex, wey = endx - v1x, endy - v1y
        at_vertex = true
         at = j1 - 1
      end
      local c2
      if at_vertex then
        c2 = wex * wex + wey * wey
      else
        c2 = fe * fe
      end
      if c2 < d2 then
        d2 = c2
        vertex = at_vertex
        wx, wy = wex, wey
        flat = fe
        fnx, fny = anx[j], any[j]
         feature = at
      end
    end
    -- The polygon's vertex against the inside of the segment.
    local gap = dn - pmax
    local v = vmax
    local sx, sy = knx, kny
    if pmin - dn > gap then
      gap = pmin - dn
      v = vmin
      sx, sy = -knx, -kny
    end
    if gap > 0.0 and gap * gap < d2 then
      local t = (aox[v] - dx) * ux + (aoy[v] - dy) * uy
      if (t < 0 and -t or t + 0.0) <= L then
        d2 = gap * gap
        vertex = false
        flat = gap
        fnx, fny = sx, sy
         feature = v - 1
      end
    end
     trace_features(tr, feature, vertex, wx, wy, flat, fnx, fny, R, d2 > reach * reach)
    if d2 > reach * reach then
      return 0 -- the last axis: explaining, the test may stop here too
    end
     if tr.apart then return 0 end
    if not full then
      return 1
    end
    -- FEATURE_DIR, then apart_best: R - the distance, along the direction
    local dist = flat
    nx, ny = fnx, fny
    if vertex then
      local vx, vy, l = normalize(wx, wy)
      dist = l
      if vx ~= 0.0 or vy ~= 0.0 then
        nx, ny = vx, vy
      end
    end
    depth = R - dist
     tr.verdict(tr, count + 1)
  else
     if tr.apart then return 0 end
    if not full then
      return 1
    end
    if lindex < count then
      nx, ny = anx[lindex + 1], any[lindex + 1]
    else
      nx, ny = knx, kny
    end
    if lneg then
      nx, ny = -nx, -ny
    end
    depth = ldepth
     tr.verdict(tr, lindex)
  end
  -- The polygon is in the capsule when every vertex is within the radius of the segment;
  -- only looked at when it lies within the capsule's extent along every axis.
  if a_in_b then
    local reach = R + tol
    for i = 1, count do
      if not a_in_b then
        break
      end
      local d2 = core_closest(aox[i], aoy[i], dx, dy, hx, hy, ux, uy, L)
      a_in_b = d2 <= reach * reach
    end
  end
  return 1, depth, nx, ny, a_in_b, b_in_a
end


-- circle_segment's one axis: from the centre to its closest point of the segment (inside
-- it, or at an end: then the axis through that endpoint).
local function trace_centre(tr, side, tox, toy, inside, ux, uy, L, R, separates)
  local dist, dirx, diry = closest_dir(side, tox, toy, inside, ux, uy)
  if inside then
    trace_closest(tr, dirx, diry, 0, FEATURE_CENTRE, 0, R - dist, separates)
  else -- the end c.to leads to: c + h is endpoint 1 (the second)
    trace_closest(tr, dirx, diry, 1, FEATURE_ENDPOINT, (tox * ux + toy * uy) + L > 0.0 and 1 or 0,
      R - dist, separates)
  end
end


-- circle (a) / segment or capsule (b): the centre against the segment.
local function circle_segment(a, b, dx, dy, tol, full , tr)
  local hx, hy, ux, uy, L = b.hx, b.hy, b.ux, b.uy, b.hlen
  local ra, rb = a.radius, b.radius
  local R = ra + rb
  local reach = R + tol
  local d2, side, tox, toy, inside = core_closest(0.0, 0.0, dx, dy, hx, hy, ux, uy, L)
   trace_centre(tr, side, tox, toy, inside, ux, uy, L, R, d2 > reach * reach)
  if d2 > reach * reach then
    return 0
  end
  if full then
    local e0x, e0y, e1x, e1y = dx - hx, dy - hy, dx + hx, dy + hy
    local dist, nx, ny = closest_dir(side, tox, toy, inside, ux, uy)
    local f0, f1 = e0x * e0x + e0y * e0y, e1x * e1x + e1y * e1y
    local far2 = f0 > f1 and f0 or f1
    local room = ra + tol - rb
     tr.verdict(tr, 0)
    return 1, R - dist, nx, ny, dist + ra <= rb + tol, room >= 0.0 and far2 <= room * room
  end
  return 1
end

-- Along one axis: a's core projects to [amin, amax], b's to [bmin, bmax]; R is the radii.
-- The least axis (depth, index, neg) and sep are passed in and returned (changed only when
-- the axis does not separate).
local function seg_axis(ldepth, lindex, lneg, sep, amin, amax, bmin, bmax, R, tol, index)
  local p, q, s0, s1 = amax - bmin + R, bmax - amin + R, bmin - amax, amin - bmax
  if p < -tol or q < -tol then
    return false, ldepth, lindex, lneg, sep
  end
  local depth = q < p and q or p
  if depth < ldepth then
    ldepth, lindex, lneg = depth, index, p > q
  end
  s0 = s1 > s0 and s1 or s0
  sep = s0 > sep and s0 or sep
  return true, ldepth, lindex, lneg, sep
end


-- segment_segment's axis: as seg_axis takes it, with the intervals grown by each radius;
-- takes the gap into sep (seg_axis stops before it on a separating axis) and returns it.
local function trace_seg(tr, a, b, nx, ny, from, feature, sep, amin, amax, bmin, bmax, tol)
  local R = a.radius + b.radius
  local p, q = amax - bmin + R, bmax - amin + R
  local s0, s1 = bmin - amax, amin - bmax
  s0 = s1 > s0 and s1 or s0
  sep = s0 > sep and s0 or sep
  trace_axis(tr, nx, ny, from, feature, 0, amin - a.radius, amax + a.radius, bmin - b.radius,
    bmax + b.radius, p, q, tol)
  return sep
end

-- segment_segment's axis through the closest ends when the cores are apart: end `near`
-- (a's 0 and 1, b's 2 and 3) against the other core, the direction from a toward b.
local function trace_ends(tr, side, tox, toy, inside, near, kux, kuy, R, separates)
  local dist, dirx, diry = closest_dir(side, tox, toy, inside, kux, kuy)
  if near >= 2 then
    dirx, diry = -dirx, -diry
  end
  trace_closest(tr, dirx, diry, near >= 2 and 1 or 0, FEATURE_ENDPOINT, near % 2, R - dist,
    separates)
end


-- segment_segment's end `near` (a's 0 and 1, b's 2 and 3) against the other core: its
-- sat__core_closest.
local function near_end(near, ahx, ahy, aux, auy, aL, bhx, bhy, bux, buy, bL, dx, dy)
  if near == 0 then
    return core_closest(-ahx, -ahy, dx, dy, bhx, bhy, bux, buy, bL)
  elseif near == 1 then
    return core_closest(ahx, ahy, dx, dy, bhx, bhy, bux, buy, bL)
  elseif near == 2 then
    return core_closest(dx - bhx, dy - bhy, 0.0, 0.0, ahx, ahy, aux, auy, aL)
  end
  return core_closest(dx + bhx, dy + bhy, 0.0, 0.0, ahx, ahy, aux, auy, aL)
end

-- Segments and capsules, both (a at the origin): both normals and both directions; apart,
-- the closest features are an end of one against the other.
local function segment_segment(a, b, dx, dy, tol, full , tr)
  local ahx, ahy, aux, auy, aL = a.hx, a.hy, a.ux, a.uy, a.hlen -- sat__seg_core(a, 0)
  local bhx, bhy, bux, buy, bL = b.hx, b.hy, b.ux, b.uy, b.hlen -- sat__seg_core(b, d)
  local anx, any, bnx, bny = -auy, aux, -buy, bux
  local R, sep = a.radius + b.radius, -HUGE
  local ldepth, lindex, lneg = HUGE, 0, false
  local ok, x, w
  -- na: a is a point there; b spans x +- w. Likewise for the others.
  x = dx * anx + dy * any
  w = bhx * anx + bhy * any
  w = w < 0 and -w or w + 0.0
  local bn_lo, bn_hi = x - w, x + w
   sep = trace_seg(tr, a, b, anx, any, 0, FEATURE_NORMAL, sep, 0.0, 0.0, bn_lo, bn_hi, tol)
  ok, ldepth, lindex, lneg, sep = seg_axis(ldepth, lindex, lneg, sep, 0.0, 0.0, bn_lo, bn_hi, R,
    tol, 0)
--   if not ok then return 0 end --EXIT_IF
  x = dx * bnx + dy * bny
  w = ahx * bnx + ahy * bny
  w = w < 0 and -w or w + 0.0
  local an_lo, an_hi, bn = -w, w, x
   sep = trace_seg(tr, a, b, bnx, bny, 1, FEATURE_NORMAL, sep, an_lo, an_hi, bn, bn, tol)
  ok, ldepth, lindex, lneg, sep = seg_axis(ldepth, lindex, lneg, sep, an_lo, an_hi, bn, bn, R,
    tol, 1)
--   if not ok then return 0 end --EXIT_IF
  x = dx * aux + dy * auy
  w = bhx * aux + bhy * auy
  w = w < 0 and -w or w + 0.0
   sep = trace_seg(tr, a, b, aux, auy, 0, FEATURE_DIRECTION, sep, -aL, aL, x - w, x + w, tol)
  ok, ldepth, lindex, lneg, sep = seg_axis(ldepth, lindex, lneg, sep, -aL, aL, x - w, x + w, R,
    tol, 2)
--   if not ok then return 0 end --EXIT_IF
  x = dx * bux + dy * buy
  w = ahx * bux + ahy * buy
  w = w < 0 and -w or w + 0.0
   sep = trace_seg(tr, a, b, bux, buy, 1, FEATURE_DIRECTION, sep, -w, w, x - bL, x + bL, tol)
  ok, ldepth, lindex, lneg, sep = seg_axis(ldepth, lindex, lneg, sep, -w, w, x - bL, x + bL, R,
    tol, 3)
--   if not ok then return 0 end --EXIT_IF

  -- The four ends against the other segment: a's first (from them the direction leads
  -- toward b already; from b's it is turned). Their squared distances are found where they
  -- are needed, each by the same arithmetic: apart, all four, for the nearest; else only for
  -- a containment that the radii allow (fewer live values and branches: LuaJIT's traces
  -- need that).
  local near = 0
  if sep > 0.0 then
    -- Apart: the closest of the four ends, compared squared.
    local reach = R + tol
    local nd2 = (core_closest(-ahx, -ahy, dx, dy, bhx, bhy, bux, buy, bL))
    local c = (core_closest(ahx, ahy, dx, dy, bhx, bhy, bux, buy, bL))
    if c < nd2 then
      near, nd2 = 1, c
    end
    c = (core_closest(dx - bhx, dy - bhy, 0.0, 0.0, ahx, ahy, aux, auy, aL))
    if c < nd2 then
      near, nd2 = 2, c
    end
    c = (core_closest(dx + bhx, dy + bhy, 0.0, 0.0, ahx, ahy, aux, auy, aL))
    if c < nd2 then
      near, nd2 = 3, c
    end

    local _, ns, ntx, nty, nin = near_end(near, ahx, ahy, aux, auy, aL, bhx, bhy, bux, buy, bL, dx, dy)
    trace_ends(tr, ns, ntx, nty, nin, near, near < 2 and bux or aux, near < 2 and buy or auy, R,
      nd2 > reach * reach)

    if nd2 > reach * reach then
      return 0 -- the last axis: explaining, the test may stop here too
    end
  end
   if tr.apart then return 0 end
  if not full then
    return 1
  end
  local depth, nx, ny
  if sep > 0.0 then
    local dist
    local _, ns, ntx, nty, nin = near_end(near, ahx, ahy, aux, auy, aL, bhx, bhy, bux, buy, bL, dx,
      dy)
    if near < 2 then
      dist, nx, ny = closest_dir(ns, ntx, nty, nin, bux, buy)
    else
      dist, nx, ny = closest_dir(ns, ntx, nty, nin, aux, auy)
      nx, ny = -nx, -ny
    end
    depth = R - dist
     tr.verdict(tr, 4)
  elseif aL > 0.0 and bL > 0.0 and (bn_lo < 0 and -bn_lo or bn_lo + 0.0) <= tol and
    (bn_hi < 0 and -bn_hi or bn_hi + 0.0) <= tol and an_hi - bn <= tol and bn - an_lo <= tol then
    -- On one line: the difference has no area, so the cores' depth is 0.
    depth, nx, ny = R, anx, any
     tr.verdict(tr, 0)
  else
    if lindex == 0 then
      nx, ny = anx, any
    elseif lindex == 1 then
      nx, ny = bnx, bny
    elseif lindex == 2 then
      nx, ny = aux, auy
    else
      nx, ny = bux, buy
    end
    if lneg then
      nx, ny = -nx, -ny
    end
    depth = ldepth
     tr.verdict(tr, lindex)
  end
  -- ends_within: both ends of a core within `room` of the other
  local room = b.radius + tol - a.radius
  local a_in_b = room >= 0.0 and
    (core_closest(-ahx, -ahy, dx, dy, bhx, bhy, bux, buy, bL)) <= room * room and
    (core_closest(ahx, ahy, dx, dy, bhx, bhy, bux, buy, bL)) <= room * room
  room = a.radius + tol - b.radius
  local b_in_a = room >= 0.0 and
    (core_closest(dx - bhx, dy - bhy, 0.0, 0.0, ahx, ahy, aux, auy, aL)) <= room * room and
    (core_closest(dx + bhx, dy + bhy, 0.0, 0.0, ahx, ahy, aux, auy, aL)) <= room * room
  return 1, depth, nx, ny, a_in_b, b_in_a
end

-- ---- dispatch ----------------------------------------------------------------------------

-- Under LuaJIT with its compiler on, these two run interpreted: their traces, inlined into a
-- caller's, keep so many values live that the side traces of their many data-dependent
-- branches fail to compile ("register coalescing too complex") and every such exit falls
-- back to the interpreter after a failed recording: 3 to 30 microseconds a call, where the
-- interpreter takes 0.3 to 1.
local jit_ = rawget(_G, "jit")
if jit_ then
  jit_.off(polygon_segment)
  jit_.off(segment_segment)
end

--@untraced
-- -- The pair functions take the shapes alone and work out the offset (sat__offset) and the
-- -- tolerance (sat__touch_tol) themselves; the full ones clamp a depth within the tolerance
-- -- to 0 (touching).
-- -- How this Lua finds a polygon's interval along the other's normals (the same numbers every
-- -- way: see polygon_pair): LuaJIT with its compiler on (when this file loads) scans polygons
-- -- of up to WALK_ABOVE (8) vertices with math.min and math.max, unrolled (a branch or an
-- -- inner loop costs it most: each splits its traces), and walks bigger ones, as the C does;
-- -- an interpreter (PUC Lua, LuaJIT with the compiler off, as on iOS) walks polygons of more
-- -- than WALK_ABOVE (4) vertices (fewer dot products) and scans by comparisons.
-- local JIT_ON = jit_ ~= nil and (jit_.status()) == true
-- local MINMAX = JIT_ON
-- local WALK_ABOVE = JIT_ON and SAT_SCAN_MAX or 4
-- M.WALK_ABOVE = WALK_ABOVE

-- local function polygon_pair_test(a, b)
--   return polygon_pair(a, b, (b.px - a.px) + (b.plx - a.plx), (b.py - a.py) + (b.ply - a.ply),
--     SAT_TOUCH_REL * (a.bound + b.bound), false, a.count > WALK_ABOVE, b.count > WALK_ABOVE,
--     MINMAX)
-- end

-- local function polygon_pair_full(a, b)
--   local tol = SAT_TOUCH_REL * (a.bound + b.bound)
--   local hit, depth, nx, ny, a_in_b, b_in_a = polygon_pair(a, b, (b.px - a.px) + (b.plx - a.plx),
--     (b.py - a.py) + (b.ply - a.ply), tol, true, a.count > WALK_ABOVE, b.count > WALK_ABOVE,
--     MINMAX)
--   if hit == 0 then
--     return 0
--   end
--   return 1, depth > tol and depth or 0.0, nx, ny, a_in_b, b_in_a
-- end

-- -- SAT_PAIR(name) for the other pairs: the test and the full test.
-- local function pair(name)
--   local function test(a, b)
--     return name(a, b, (b.px - a.px) + (b.plx - a.plx), (b.py - a.py) + (b.ply - a.ply),
--       SAT_TOUCH_REL * (a.bound + b.bound), false)
--   end
--   local function full(a, b)
--     local tol = SAT_TOUCH_REL * (a.bound + b.bound)
--     local hit, depth, nx, ny, a_in_b, b_in_a = name(a, b, (b.px - a.px) + (b.plx - a.plx),
--       (b.py - a.py) + (b.ply - a.ply), tol, true)
--     if hit == 0 then
--       return 0
--     end
--     return 1, depth > tol and depth or 0.0, nx, ny, a_in_b, b_in_a
--   end
--   return test, full
-- end

-- local polygon_circle_test, polygon_circle_full = pair(polygon_circle)
-- local circle_circle_test, circle_circle_full = pair(circle_circle)
-- local polygon_segment_test, polygon_segment_full = pair(polygon_segment)
-- local circle_segment_test, circle_segment_full = pair(circle_segment)
-- local segment_segment_test, segment_segment_full = pair(segment_segment)

-- -- A compound second (the kinds are ordered), first of any kind: sat_union.lua.
-- local function compound_test(a, b)
--   return union().sat__compound_test(a, b)
-- end

-- local compound_result = {}
-- local function compound_full(a, b)
--   local r = compound_result
--   if union().sat__compound_collide(a, b, r) == 0 then
--     return 0
--   end
--   return 1, r.overlap, r.nx, r.ny, r.a_in_b == 1, r.b_in_a == 1
-- end

-- -- Indexed [first kind * SAT_KIND_COUNT + second kind + 1] with first <= second; the other
-- -- half is reached by swapping. symmetric: the yes/no test of two shapes of this kind gives
-- -- the same answer from the same arithmetic in either order (circles), so sat_test skips the
-- -- canonical order.
-- local TEST, COLLIDE, SYMMETRIC = {}, {}, {}
-- local function row(first, second, test, full, symmetric)
--   local k = first * SAT_KIND_COUNT + second + 1
--   TEST[k], COLLIDE[k], SYMMETRIC[k] = test, full, symmetric
-- end
-- row(SAT_POLYGON, SAT_POLYGON, polygon_pair_test, polygon_pair_full, false)
-- row(SAT_POLYGON, SAT_CIRCLE, polygon_circle_test, polygon_circle_full, false)
-- row(SAT_POLYGON, SAT_SEGMENT, polygon_segment_test, polygon_segment_full, false)
-- row(SAT_POLYGON, SAT_CAPSULE, polygon_segment_test, polygon_segment_full, false)
-- row(SAT_POLYGON, SAT_COMPOUND, compound_test, compound_full, false)
-- row(SAT_CIRCLE, SAT_CIRCLE, circle_circle_test, circle_circle_full, true)
-- row(SAT_CIRCLE, SAT_SEGMENT, circle_segment_test, circle_segment_full, false)
-- row(SAT_CIRCLE, SAT_CAPSULE, circle_segment_test, circle_segment_full, false)
-- row(SAT_CIRCLE, SAT_COMPOUND, compound_test, compound_full, false)
-- row(SAT_SEGMENT, SAT_SEGMENT, segment_segment_test, segment_segment_full, false)
-- row(SAT_SEGMENT, SAT_CAPSULE, segment_segment_test, segment_segment_full, false)
-- row(SAT_SEGMENT, SAT_COMPOUND, compound_test, compound_full, false)
-- row(SAT_CAPSULE, SAT_CAPSULE, segment_segment_test, segment_segment_full, false)
-- row(SAT_CAPSULE, SAT_COMPOUND, compound_test, compound_full, false)
-- row(SAT_COMPOUND, SAT_COMPOUND, compound_test, compound_full, false)
--@end

-- Traced: one function per pair, the full test with the sink. A pair without one (a
-- compound) is explained by its result alone (no axes).
local function explainer(name)
  return function(a, b, tr)
    local tol = SAT_TOUCH_REL * (a.bound + b.bound)
    local hit, depth, nx, ny, a_in_b, b_in_a = name(a, b, (b.px - a.px) + (b.plx - a.plx),
      (b.py - a.py) + (b.ply - a.ply), tol, true, tr)
    if hit == 0 then
      return 0
    end
    return 1, depth > tol and depth or 0.0, nx, ny, a_in_b, b_in_a
  end
end

-- The C's choice exactly (the intervals are reported): scans, with comparisons, up to
-- SAT_SCAN_MAX vertices; walks above.
local function polygon_pair_explain(a, b, tr)
  local tol = SAT_TOUCH_REL * (a.bound + b.bound)
  local hit, depth, nx, ny, a_in_b, b_in_a = polygon_pair(a, b, (b.px - a.px) + (b.plx - a.plx),
    (b.py - a.py) + (b.ply - a.ply), tol, true, a.count > SAT_SCAN_MAX, b.count > SAT_SCAN_MAX,
    false, tr)
  if hit == 0 then
    return 0
  end
  return 1, depth > tol and depth or 0.0, nx, ny, a_in_b, b_in_a
end

local EXPLAIN = {}
local function row(first, second, explain)
  EXPLAIN[first * SAT_KIND_COUNT + second + 1] = explain
end
row(SAT_POLYGON, SAT_POLYGON, polygon_pair_explain)
row(SAT_POLYGON, SAT_CIRCLE, explainer(polygon_circle))
row(SAT_POLYGON, SAT_SEGMENT, explainer(polygon_segment))
row(SAT_POLYGON, SAT_CAPSULE, explainer(polygon_segment))
row(SAT_CIRCLE, SAT_CIRCLE, explainer(circle_circle))
row(SAT_CIRCLE, SAT_SEGMENT, explainer(circle_segment))
row(SAT_CIRCLE, SAT_CAPSULE, explainer(circle_segment))
row(SAT_SEGMENT, SAT_SEGMENT, explainer(segment_segment))
row(SAT_SEGMENT, SAT_CAPSULE, explainer(segment_segment))
row(SAT_CAPSULE, SAT_CAPSULE, explainer(segment_segment))


-- Whether a is computed first. Total and independent of argument order: the kinds, then the
-- shapes' own state, then the caller's id, then (identical shapes, equal ids) the C's
-- memory order, which a record may stand in for with a number `addr` (none: a first); with
-- `tie` given (the C's same_kind_order), that instead.
local function same_kind_first(a, b, tie)
  local x, y = a.px, b.px
  if x ~= y then
    return x < y
  end
  x, y = a.py, b.py
  if x ~= y then
    return x < y
  end
  x, y = a.plx, b.plx
  if x ~= y then
    return x < y
  end
  x, y = a.ply, b.ply
  if x ~= y then
    return x < y
  end
  x, y = a.bound, b.bound
  if x ~= y then
    return x < y
  end
  x, y = a.radius, b.radius
  if x ~= y then
    return x < y
  end
  x, y = a.angle, b.angle
  if x ~= y then
    return x < y
  end
  x, y = a.scale, b.scale
  if x ~= y then
    return x < y
  end
  x, y = a.count, b.count
  if x ~= y then
    return x < y
  end
  x, y = a.id, b.id
  if x ~= y then
    return x < y
  end
  if tie ~= nil then
    return tie
  end
  return (a.addr or 0) <= (b.addr or 0)
end

-- The kinds decide at once, without a call.
local function comes_first(a, b)
  local ka, kb = a.kind, b.kind
  if ka ~= kb then
    return ka < kb
  end
  return same_kind_first(a, b)
end

-- The result in the caller's order: the normal negated and the flags swapped when the pair
-- was computed the other way round; mtv = -normal * overlap. Adding 0 turns a -0 into 0.
local function finish(r, swapped, depth, nx, ny, a_in_b, b_in_a)
  if swapped then
    nx, ny = -nx, -ny
    a_in_b, b_in_a = b_in_a, a_in_b
  end
  nx, ny = nx + 0.0, ny + 0.0
  r.overlap = depth
  r.nx, r.ny = nx, ny
  r.mx, r.my = -nx * depth + 0.0, -ny * depth + 0.0
  r.a_in_b = a_in_b and 1 or 0
  r.b_in_a = b_in_a and 1 or 0
end

--@untraced
-- --- sat_test(a, b) -> 1 when a and b overlap or touch, else 0. Exits on the first separating
-- -- axis.
-- function M.sat_test(a, b)
--   local ka, kb = a.kind, b.kind
--   if ka == kb and SYMMETRIC[ka * SAT_KIND_COUNT + ka + 1] then
--     return TEST[ka * SAT_KIND_COUNT + ka + 1](a, b)
--   end
--   if not comes_first(a, b) then
--     a, b, ka, kb = b, a, kb, ka
--   end
--   return TEST[ka * SAT_KIND_COUNT + kb + 1](a, b)
-- end

-- --- sat_collide(a, b, r) -> 1 and r filled (overlap, nx, ny, mx, my, a_in_b, b_in_a) when they
-- -- overlap or touch; 0 (r untouched) otherwise.
-- function M.sat_collide(a, b, r)
--   local swapped = not comes_first(a, b)
--   if swapped then
--     a, b = b, a
--   end
--   local hit, depth, nx, ny, a_in_b, b_in_a = COLLIDE[a.kind * SAT_KIND_COUNT + b.kind + 1](a, b)
--   if hit == 0 then
--     return 0
--   end
--   finish(r, swapped, depth, nx, ny, a_in_b, b_in_a)
--   return 1
-- end

-- --- sat__part_collide(a, b, r): sat_collide for a part pair of a compound pair (sat_union.lua's):
-- -- identical parts with equal ids run in the caller's order, which follows the compounds' (the
-- -- C's part_collide says why).
-- function M.sat__part_collide(a, b, r)
--   local ka, kb = a.kind, b.kind
--   local swapped
--   if ka ~= kb then
--     swapped = not (ka < kb)
--   else
--     swapped = not same_kind_first(a, b, true)
--   end
--   if swapped then
--     a, b = b, a
--   end
--   local hit, depth, nx, ny, a_in_b, b_in_a = COLLIDE[a.kind * SAT_KIND_COUNT + b.kind + 1](a, b)
--   if hit == 0 then
--     return 0
--   end
--   finish(r, swapped, depth, nx, ny, a_in_b, b_in_a)
--   return 1
-- end

-- -- ---- which parts: sat_collide_parts (the C's, beside the part pairs' collide) ------------

-- local shape_mod
-- local PARTS_R = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0, b_in_a = 0 }

-- -- Part i's (1-based) box about its own position: a compound's kept in its table, another
-- -- shape's own (sat__box).
-- local function part_box(s, i)
--   if s.kind == SAT_COMPOUND then
--     return s.tlox[i], s.tloy[i], s.thix[i], s.thiy[i]
--   end
--   return shape_mod.sat__box(s)
-- end

-- --- sat_collide_parts(a, b, r) -> ok, part_a, part_b: which parts of compounds a collision is
-- -- with (r: what sat_collide(a, b, r) gave): the part of a and of b in contact, from 0 (-1
-- -- for a shape that is not a compound): among the part pairs that collide, the one whose own
-- -- normal is nearest r's (within 1e-9 of the best), then the deeper, then the first in part
-- -- order. ok 1, or 0 (both -1) when no part pair collides.
-- function M.sat_collide_parts(a, b, r)
--   shape_mod = shape_mod or require("sat.pure.sat_shape")
--   local bi, bj = -1, -1
--   local bdot, bdepth = 0.0, 0.0
--   local blox, bloy, bhix, bhiy = 0.0, 0.0, 0.0, 0.0
--   local ka, kb = a.kind, b.kind
--   if ka ~= SAT_COMPOUND and kb ~= SAT_COMPOUND then
--     return 1, -1, -1
--   end
--   if kb ~= SAT_COMPOUND then
--     blox, bloy, bhix, bhiy = shape_mod.sat__box(b)
--   end
--   local na = ka == SAT_COMPOUND and a.count or 1
--   local nb = kb == SAT_COMPOUND and b.count or 1
--   local rr, rnx, rny = PARTS_R, r.nx, r.ny
--   for i = 1, na do
--     local x = ka == SAT_COMPOUND and a.parts[i] or a
--     local xlox, xloy, xhix, xhiy = part_box(a, i)
--     for j = 1, nb do
--       local y = kb == SAT_COMPOUND and b.parts[j] or b
--       local ylox, yloy, yhix, yhiy = blox, bloy, bhix, bhiy
--       local dx, dy = (y.px - x.px) + (y.plx - x.plx), (y.py - x.py) + (y.ply - x.ply)
--       if kb == SAT_COMPOUND then
--         ylox, yloy, yhix, yhiy = part_box(b, j)
--       end
--       local gap = 4.0 * (SAT_TOUCH_REL * (x.bound + y.bound)) -- sat__part_gap
--       if not (dx + ylox - xhix > gap or xlox - (dx + yhix) > gap or
--           dy + yloy - xhiy > gap or xloy - (dy + yhiy) > gap or
--           M.sat__part_collide(x, y, rr) == 0) then
--         local dot = rr.nx * rnx + rr.ny * rny
--         if bi < 0 or dot > bdot + 1e-9 or (dot >= bdot - 1e-9 and rr.overlap > bdepth) then
--           bi, bj = i - 1, j - 1
--           bdot, bdepth = dot, rr.overlap
--         end
--       end
--     end
--   end
--   if bi < 0 then
--     return 0, -1, -1
--   end
--   return 1, ka == SAT_COMPOUND and bi or -1, kb == SAT_COMPOUND and bj or -1
-- end

-- --- sat__comes_first(a, b): whether sat_collide computes a pair in the caller's order.
-- M.sat__comes_first = comes_first

-- return M
--@end

local sat_collide = require("sat.pure.sat_collide").sat_collide

--- sat__collide_traced(a, b, r, sink) -> 1 and r filled, or 0: sat_collide reporting to
-- the sink (sink.pair(sink, first, second) first: the pair in the order it is computed).
function M.sat__collide_traced(a, b, r, sink)
  local swapped = not comes_first(a, b)
  local first, second = a, b
  if swapped then
    first, second = b, a
  end
  local explain = EXPLAIN[first.kind * SAT_KIND_COUNT + second.kind + 1]
  sink.apart = false
  sink.pair(sink, first, second)
  if explain == nil then -- a kind that does not explain itself: its verdict alone
    if sat_collide(a, b, r) == 0 then
      return 0
    end
    sink.verdict(sink, -1)
    return 1
  end
  local hit, depth, nx, ny, a_in_b, b_in_a = explain(first, second, sink)
  if hit == 0 then
    return 0
  end
  finish(r, swapped, depth, nx, ny, a_in_b, b_in_a)
  return 1
end

M.sat__comes_first = comes_first

return M

