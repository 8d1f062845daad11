--- sat_sweep.lua - the pure backend's twin of src/core/sat_sweep.c: the swept pair test,
-- where a shape translated by v first touches another, exactly, with no tunnelling at any
-- speed, for every pair of kinds (see the C for the method: the ray from the origin along v
-- against the cores' Minkowski difference grown by the radii, never built).
--
-- sat_sweep(a, vx, vy, b, hit) -> 1 and hit filled, or 0. hit (a sat_sweep_hit) is a table:
-- overlapping (0 or 1), t, mx, my (the move), dist2, and result (a table: overlap, nx, ny,
-- mx, my, a_in_b, b_in_a; made when missing). Nothing else is allocated: the sweep's state
-- is a table of this file's, reused, one per nesting depth (the C's is on its stack): a
-- sweep may run inside another, from a finalizer (at an allocation, or under LuaJIT at a
-- trace's exit: between any two statements) or a debug hook, and must not overwrite the
-- state of the sweep it interrupted. (A compound's sweep goes to its part pairs before it
-- starts.) An error through a sweep leaves its depth counted: the next sweeps take the
-- state one deeper, as correct, made once.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
local I = require("sat.pure.sat_internal")
local K = require("sat.pure.sat_constants")
local C = require("sat.pure.sat_collide")
local SH = require("sat.pure.sat_shape")
local U = require("sat.pure.sat_union")

local M = {}

local sqrt = math.sqrt
local HUGE = math.huge
local normalize, in_range = I.sat__normalize, I.sat__in_range
local fmin, fmax, fabs, len, sat__box = I.fmin, I.fmax, I.fabs, I.sat__len, SH.sat__box
local SAT_POLYGON, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_TOUCH_REL = K.SAT_TOUCH_REL
local sat_collide, sat_collide_parts = C.sat_collide, C.sat_collide_parts
local seam_pair = U.sat__seam_pair

local SWEEP_NONE, SWEEP_CONTACT, SWEEP_OVERLAP = 0, 1, 2

-- has_line: a core is a segment when the shape has one of some length. A capsule of zero
-- length (sat.capsule(x, y, x, y, r)) is a point, as a circle's core: its direction is a
-- placeholder, so no line, normal or face of the sweep may come from it.
local function has_segment(s)
  local k = s.kind
  return (k == SAT_SEGMENT or k == SAT_CAPSULE) and s.hlen > 0.0
end

-- What the ray found (struct sweep): the times of pressing in (lo, hi), and the first touch:
-- its time te, the normal there (nx, ny: from a toward b) and, for a flat face, the gap and
-- closing speed vn from which the move is computed exactly; the ids of the faces that gave
-- lo, hi and te (round pairs); whether sat_collide was called already (collided), with its
-- answer (hit) and result (res).
local STATES = {} -- the state per depth: {res, rx, rs (the round pairs' X and S), ores}
local depth = 0

-- ---- flat pairs: supporting half-planes --------------------------------------------------

local function flat_init(w, vx, vy, R, tol)
  w.vx, w.vy = vx, vy
  w.rho_t = R
  w.rho_s = R - tol
  w.lo = -HUGE
  w.hi = HUGE
  w.te = -HUGE
  w.gap = 0.0
  w.vn = 0.0
  w.nx, w.ny = 0.0, 0.0
  w.face = true
  w.lo_id, w.hi_id, w.te_id = -1, -1, -1
  w.collided = false
end

-- M lies in {x : m . x <= h}. Returns false once no time is left for pressing in. The touch
-- is the half-plane entered last; of equal ones, the most head-on.
local function halfplane(w, mx, my, h, id)
  local vm, hs = w.vx * mx + w.vy * my, h + w.rho_s
  if vm == 0.0 then
    return hs > 0.0
  end
  if vm < 0.0 then
    local l, ht = hs / vm, h + w.rho_t
    local te = ht / vm
    if l > w.lo then
      w.lo = l
      w.lo_id = id
    end
    if te > w.te or (te == w.te and -vm > w.vn) then
      w.te = te
      w.gap = -ht
      w.vn = -vm
      w.nx, w.ny = -mx, -my
      w.te_id = id
    end
  else
    local u = hs / vm
    if u < w.hi then
      w.hi = u
      w.hi_id = id
    end
  end
  return w.lo < w.hi
end

local function flat_axis(w, mx, my, h)
  return halfplane(w, mx, my, h, -1)
end

-- The largest m . x over a shape's core (relative to its position). A segment's or a
-- point's along its own normal is 0 by definition.
local function core_max(s, mx, my)
  if s.kind == SAT_POLYGON then
    local _, hi = I.sat__project(s, mx, my)
    return hi
  end
  if has_segment(s) then
    local d = s.hx * mx + s.hy * my
    return d < 0 and -d or d + 0.0
  end
  return 0.0
end

-- The vertex of a polygon's offsets with the least dot product with n, climbing forward from
-- position k (rotating calipers); and its value.
local function climb_min(ox, oy, count, k, nx, ny)
  local cur = ox[k] * nx + oy[k] * ny
  for _ = 1, count - 1 do
    local nxt = k == count and 1 or k + 1
    local d = ox[nxt] * nx + oy[nxt] * ny
    if not (d < cur) then
      break
    end
    k = nxt
    cur = d
  end
  return k, cur
end

-- Up to this many vertices a polygon is scanned, not climbed.
local SWEEP_SCAN_MAX = 8

local function argmin_dot(ox, oy, count, nx, ny)
  local k = 1
  local best = ox[1] * nx + oy[1] * ny
  for i = 2, count do
    local d = ox[i] * nx + oy[i] * ny
    if d < best then
      best = d
      k = i
    end
  end
  return k
end

-- The least of a few offsets along n.
local function min_dot(ox, oy, count, nx, ny)
  local least = ox[1] * nx + oy[1] * ny
  for i = 2, count do
    local d = ox[i] * nx + oy[i] * ny
    least = d < least and d or least
  end
  return least
end

-- The axes of p's polygon normals (p is a, sign -1, or b, sign +1; b sits at r): M's
-- half-plane along sign * n, with the other's extreme facing p from the calipers or a scan.
local function flat_polygon_axes(w, p, other, rx, ry, sign)
  local pnx, pny, psup = p.nx, p.ny, p.sup
  local oox, ooy, ocount
  if other.kind == SAT_POLYGON then
    oox, ooy, ocount = other.ox, other.oy, other.count
  end
  local few = oox ~= nil and ocount <= SWEEP_SCAN_MAX
  local k = 1
  if oox ~= nil and not few then
    k = argmin_dot(oox, ooy, ocount, pnx[1], pny[1])
  end
  for i = 1, p.count do
    local nx, ny = pnx[i], pny[i]
    local own, rn = psup[i], rx * nx + ry * ny
    local least
    if few then
      least = min_dot(oox, ooy, ocount, nx, ny)
    elseif oox ~= nil then
      k, least = climb_min(oox, ooy, ocount, k, nx, ny)
    else
      least = -core_max(other, -nx, -ny)
    end
    -- a's normal (sign -1): h = Amax - Bmin; b's (sign +1): h = Bmax - Amin
    local h
    if sign < 0.0 then
      h = own - (rn + least)
    else
      h = (rn + own) - least
    end
    if not flat_axis(w, nx * sign, ny * sign, h) then
      return false
    end
  end
  return true
end

-- A segment's axes: both normals and both directions. s is a (sign -1) or b (sign +1).
local function flat_segment_axes(w, s, other, rx, ry, sign)
  local ux, uy = s.ux, s.uy
  local nx, ny = -uy, ux
  local L = s.hlen
  for i = 1, 4 do
    local mx, my, own
    if i == 1 then
      mx, my, own = nx, ny, 0.0
    elseif i == 2 then
      mx, my, own = -nx, -ny, 0.0
    elseif i == 3 then
      mx, my, own = ux, uy, L
    else
      mx, my, own = -ux, -uy, L
    end
    local h
    if sign < 0.0 then
      h = core_max(other, mx, my) + (rx * mx + ry * my) + own
    else
      h = own + (rx * mx + ry * my) + core_max(other, -mx, -my)
    end
    if not flat_axis(w, mx, my, h) then
      return false
    end
  end
  return true
end

local function flat_axes(w, a, b, rx, ry)
  if a.kind == SAT_POLYGON and not flat_polygon_axes(w, a, b, rx, ry, -1.0) then
    return false
  end
  if b.kind == SAT_POLYGON and not flat_polygon_axes(w, b, a, rx, ry, 1.0) then
    return false
  end
  if has_segment(a) and not flat_segment_axes(w, a, b, rx, ry, -1.0) then
    return false
  end
  if has_segment(b) and not flat_segment_axes(w, b, a, rx, ry, 1.0) then
    return false
  end
  return true
end

-- A flat pair whose difference has no area: its line crossed from beyond the tolerance on
-- one side to beyond it on the other.
local function flat_crossing(w, a, b, rx, ry, tol)
  local s = has_segment(a) and a or b
  if not has_segment(s) then
    return SWEEP_NONE -- two points
  end
  local ux, uy = s.ux, s.uy
  local nx, ny = -uy, ux
  local vx, vy = w.vx, w.vy
  local L = (has_segment(a) and a.hlen or 0.0) + (has_segment(b) and b.hlen or 0.0)
  local s0 = -(nx * rx + ny * ry)
  local s1 = s0 + (nx * vx + ny * vy)
  if not ((s0 > tol and s1 < -tol) or (s0 < -tol and s1 > tol)) then
    return SWEEP_NONE
  end
  local d = s0 - s1
  local gap, vn = s0 < 0 and -s0 or s0 + 0.0, d < 0 and -d or d + 0.0
  local t = gap / vn
  local along = (vx * t - rx) * ux + (vy * t - ry) * uy
  if (along < 0 and -along or along + 0.0) > L + tol then
    return SWEEP_NONE
  end
  w.te = t
  w.gap = gap
  w.vn = vn
  if s0 > 0.0 then
    w.nx, w.ny = -nx, -ny
  else
    w.nx, w.ny = nx, ny
  end
  w.face = true
  return SWEEP_CONTACT
end

-- A flat pair has no area between its cores when neither is a polygon and they are points
-- or parallel segments.
local function no_area(a, b, tol)
  if a.kind == SAT_POLYGON or b.kind == SAT_POLYGON then
    return false
  end
  if not has_segment(a) or not has_segment(b) then
    return true
  end
  local la, lb = a.hlen, b.hlen
  local thin = la < lb and la or lb
  local cr = a.ux * b.uy - a.uy * b.ux
  return 2.0 * thin * (cr < 0 and -cr or cr + 0.0) <= tol
end

-- ---- round pairs: M = X + S grown by R --------------------------------------------------

-- base + sign * (a shape's core): X and S, each a table {s, bx, by, sign} of the state's.

local function rc_vertices(c)
  local s = c.s
  if s.kind == SAT_POLYGON then
    return s.count
  end
  return has_segment(s) and 2 or 1
end

-- vertex i (0-based, as in C)
local function rc_vertex(c, i)
  local s, sign = c.s, c.sign
  local ox, oy = 0.0, 0.0
  if s.kind == SAT_POLYGON then
    ox, oy = s.ox[i + 1], s.oy[i + 1]
  elseif has_segment(s) then
    if i ~= 0 then
      ox, oy = s.hx, s.hy
    else
      ox, oy = -s.hx, -s.hy
    end
  end
  return c.bx + ox * sign, c.by + oy * sign
end

local function rc_edges(c)
  local s = c.s
  if s.kind == SAT_POLYGON then
    return s.count
  end
  return has_segment(s) and 2 or 0
end

-- Edge i (0-based): its outward normal and support.
local function rc_edge(c, i)
  local s, sign = c.s, c.sign
  if s.kind == SAT_POLYGON then
    local mx, my = s.nx[i + 1] * sign, s.ny[i + 1] * sign
    return mx, my, (mx * c.bx + my * c.by) + s.sup[i + 1]
  end
  local nx, ny = -s.uy, s.ux
  local k = i ~= 0 and sign or -sign
  local mx, my = nx * k, ny * k
  return mx, my, mx * c.bx + my * c.by
end

-- The ray meets the face from P to Q (outward normal m, on the line m . x = h) grown by the
-- radii.
local function round_face(w, px, py, qx, qy, mx, my, h)
  local vx, vy = w.vx, w.vy
  local vm = vx * mx + vy * my
  local ex, ey = qx - px, qy - py
  local ee = ex * ex + ey * ey
  if vm == 0.0 or not (ee > 0.0) then
    return -- along it, or a face of no length: the disks at its ends decide
  end
  for k = 0, 1 do
    local rho = k == 1 and w.rho_t or w.rho_s
    local t = (h + rho) / vm
    local along = (vx * t - px) * ex + (vy * t - py) * ey
    if along >= 0.0 and along <= ee then
      if vm > 0.0 then
        if k == 0 and t > w.hi then
          w.hi = t
        end
      elseif k == 0 then
        if t < w.lo then
          w.lo = t
        end
      elseif t < w.te then
        w.te = t
        w.gap = -(h + rho)
        w.vn = -vm
        w.nx, w.ny = -mx, -my
        w.face = true
      end
    end
  end
end

-- The ray meets the disk about c (a point of M) grown by the radii.
local function round_disk(w, cx, cy, vv)
  local b, cc = -(cx * w.vx + cy * w.vy), cx * cx + cy * cy
  for k = 0, 1 do
    local rho = k == 1 and w.rho_t or w.rho_s
    local Cq = cc - rho * rho
    local disc = b * b - vv * Cq
    if disc >= 0.0 then
      local q = -(b + (b < 0.0 and -sqrt(disc) or sqrt(disc)))
      local t1 = q / vv
      local t2 = q ~= 0.0 and Cq / q or t1
      if t2 < t1 then
        t1, t2 = t2, t1
      end
      if k == 0 then
        if t1 < w.lo then
          w.lo = t1
        end
        if t2 > w.hi then
          w.hi = t2
        end
      elseif t1 < w.te then
        w.te = t1
        w.nx, w.ny = cx, cy -- the centre; the normal is taken at the end
        w.face = false
      end
    end
  end
end

-- Every face and disk of X + S.
local function round_features(w, X, S)
  local nx, ns, ex, es = rc_vertices(X), rc_vertices(S), rc_edges(X), rc_edges(S)
  local vv = w.vx * w.vx + w.vy * w.vy
  local s0x, s0y = rc_vertex(S, 0)
  local s1x, s1y = 0.0, 0.0
  if ns > 1 then
    s1x, s1y = rc_vertex(S, 1)
  end
  for i = 0, ex - 1 do
    local mx, my, h = rc_edge(X, i)
    local px, py = rc_vertex(X, i)
    local qx, qy = rc_vertex(X, i + 1 == nx and 0 or i + 1)
    round_face(w, px + s0x, py + s0y, qx + s0x, qy + s0y, mx, my, h + (mx * s0x + my * s0y))
    if ns > 1 then
      round_face(w, px + s1x, py + s1y, qx + s1x, qy + s1y, mx, my, h + (mx * s1x + my * s1y))
    end
  end
  for j = 0, es - 1 do
    local mx, my, h = rc_edge(S, j)
    local best, topx, topy = -HUGE, 0.0, 0.0
    for i = 0, nx - 1 do
      local x, y = rc_vertex(X, i)
      local d = mx * x + my * y
      if d > best then
        best = d
        topx, topy = x, y
      end
    end
    -- S's points j and j + 1 (S is a point or a segment: sp[0], sp[1])
    local k = j + 1 == ns and 0 or j + 1
    local ajx, ajy = s0x, s0y
    if j == 1 then
      ajx, ajy = s1x, s1y
    end
    local bjx, bjy = s0x, s0y
    if k == 1 then
      bjx, bjy = s1x, s1y
    end
    round_face(w, topx + ajx, topy + ajy, topx + bjx, topy + bjy, mx, my, h + best)
  end
  for i = 0, nx - 1 do
    local x, y = rc_vertex(X, i)
    round_disk(w, x + s0x, y + s0y, vv)
    if ns > 1 then
      round_disk(w, x + s1x, y + s1y, vv)
    end
  end
end

-- Face f (0-based) of X + S: X's edges first, each shifted by S's point farthest along its
-- normal, then S's edges at X's vertex farthest along theirs: m, h, P, Q.
local function rc_face(X, S, f)
  local E, O = X, S
  local ex = rc_edges(X)
  if f >= ex then
    E, O = S, X
    f = f - ex
  end
  local ne, no, top = rc_vertices(E), rc_vertices(O), 0
  local mx, my, h = rc_edge(E, f)
  local best = -HUGE
  for k = 0, no - 1 do
    local x, y = rc_vertex(O, k)
    local d = mx * x + my * y
    if d > best then
      best = d
      top = k
    end
  end
  local ox, oy = rc_vertex(O, top)
  h = h + best
  local px, py = rc_vertex(E, f)
  local qx, qy = rc_vertex(E, f + 1 == ne and 0 or f + 1)
  return mx, my, h, px + ox, py + oy, qx + ox, qy + oy
end

-- Whether the ray at time t lies on face f itself (not beyond its ends).
local function on_face(w, X, S, f, t)
  if f < 0 or not ((t < 0 and -t or t) < HUGE) then
    return false
  end
  local _, _, _, px, py, qx, qy = rc_face(X, S, f)
  local ex, ey = qx - px, qy - py
  local along = (w.vx * t - px) * ex + (w.vy * t - py) * ey
  local ee = ex * ex + ey * ey
  return ee > 0.0 and along >= 0.0 and along <= ee
end

-- M's faces as half-planes first (the mitred polygon, a superset of M grown by rho): a miss
-- there is a miss, and when the entry, exit and touch fall on the faces themselves they are
-- exact. Otherwise every face and disk decides.
local function round_sweep(w, a, b, rx, ry)
  local X, S = w.rx, w.rs
  if a.radius > 0.0 then
    -- M = (B + r) + (-A), -A a point or a segment
    X.s, X.bx, X.by, X.sign = b, rx, ry, 1.0
    S.s, S.bx, S.by, S.sign = a, 0.0, 0.0, -1.0
  else
    X.s, X.bx, X.by, X.sign = a, 0.0, 0.0, -1.0
    S.s, S.bx, S.by, S.sign = b, rx, ry, 1.0
  end
  local faces, f = rc_edges(X) + rc_edges(S), 0
  local xs = X.s
  if xs.kind == SAT_POLYGON then
    -- the same faces as rc_face, X's without its generality (a pair test's hot loop)
    local xnx, xny, xsup, sign = xs.nx, xs.ny, xs.sup, X.sign
    local hsx, hsy = 0.0, 0.0
    if has_segment(S.s) then
      hsx, hsy = S.s.hx, S.s.hy
    end
    local bx, by = X.bx + S.bx, X.by + S.by
    for i = 1, xs.count do
      local mx, my = xnx[i] * sign, xny[i] * sign
      local dh = mx * hsx + my * hsy
      local h = (mx * bx + my * by) + xsup[i] + (dh < 0 and -dh or dh + 0.0)
      if not halfplane(w, mx, my, h, i - 1) then
        return SWEEP_NONE
      end
    end
    f = xs.count
  end
  while f < faces do
    local mx, my, h = rc_face(X, S, f)
    if not halfplane(w, mx, my, h, f) then
      return SWEEP_NONE
    end
    f = f + 1
  end
  if not (w.hi > 0.0) or not (w.lo < 1.0) then
    return SWEEP_NONE
  end
  if w.lo < 0.0 then
    -- Overlapping at the start, perhaps: sat_collide knows at once.
    w.collided = true
    w.hit = sat_collide(a, b, w.res)
    if w.hit == 1 and w.res.overlap > 0.0 then
      return SWEEP_OVERLAP
    end
  end
  if not on_face(w, X, S, w.lo_id, w.lo) or not on_face(w, X, S, w.hi_id, w.hi) or
    not on_face(w, X, S, w.te_id, w.te) then
    w.lo = HUGE
    w.hi = -HUGE
    w.te = HUGE
    round_features(w, X, S)
    if not (w.lo < w.hi) or not (w.hi > 0.0) or not (w.lo < 1.0) then
      return SWEEP_NONE
    end
  end
  if w.lo < 0.0 then
    return SWEEP_OVERLAP
  end
  if not (w.te < HUGE) then
    w.te = w.lo -- cannot happen: pressing in implies touching first
    w.face = false
    w.nx, w.ny = w.vx * (w.lo + 1.0), w.vy * (w.lo + 1.0)
  end
  if not w.face then
    -- from a toward the disk's centre at the touch
    local te = w.te > 0.0 and w.te or 0.0
    local nx, ny = normalize(w.nx - w.vx * te, w.ny - w.vy * te)
    if nx == 0.0 and ny == 0.0 then
      nx, ny = normalize(w.vx, w.vy)
    end
    w.nx, w.ny = nx, ny
  end
  return SWEEP_CONTACT
end

-- ---- the swept test ----------------------------------------------------------------------

-- memset(hit, 0): every field zero (the result's too).
local function clear_hit(hit)
  local r = hit.result
  if r == nil then
    r = {}
    hit.result = r
  end
  hit.overlapping = 0
  hit.t = 0.0
  hit.mx, hit.my = 0.0, 0.0
  hit.dist2 = 0.0
  hit.part_a, hit.part_b = 0, 0
  r.overlap = 0.0
  r.nx, r.ny, r.mx, r.my = 0.0, 0.0, 0.0, 0.0
  r.a_in_b, r.b_in_a = 0, 0
  return r
end
M.sat__clear_hit = clear_hit

local function copy_result(dst, src)
  dst.overlap = src.overlap
  dst.nx, dst.ny, dst.mx, dst.my = src.nx, src.ny, src.mx, src.my
  dst.a_in_b, dst.b_in_a = src.a_in_b, src.b_in_a
end

local compound_sweep -- below

--- sat_sweep(a, vx, vy, b, hit) -> 1 or 0 with the state w (this depth's).
local function sweep_with(w, a, vx, vy, b, hit)
  local rx, ry = (b.px - a.px) + (b.plx - a.plx), (b.py - a.py) + (b.ply - a.ply)
  local tol, R = SAT_TOUCH_REL * (a.bound + b.bound), a.radius + b.radius
  if not in_range(vx) or not in_range(vy) then
    return 0 -- NaN and infinities too
  end
  if a.kind == SAT_COMPOUND or b.kind == SAT_COMPOUND then
    return compound_sweep(a, vx, vy, b, hit)
  end
  flat_init(w, vx, vy, R, tol)
  local rc
  if vx == 0.0 and vy == 0.0 then
    rc = SWEEP_OVERLAP -- no motion: only an overlap at the start is a hit
  elseif R > tol then
    rc = round_sweep(w, a, b, rx, ry)
  elseif no_area(a, b, tol) then
    rc = flat_crossing(w, a, b, rx, ry, tol)
  else
    rc = flat_axes(w, a, b, rx, ry) and SWEEP_CONTACT or SWEEP_NONE
    if rc ~= SWEEP_NONE and (not (w.hi > 0.0) or not (w.lo < 1.0)) then
      rc = SWEEP_NONE
    end
    if rc ~= SWEEP_NONE and w.lo < 0.0 then
      rc = SWEEP_OVERLAP
    end
  end
  if rc == SWEEP_NONE then
    return 0
  end
  local result = clear_hit(hit)
  hit.part_a, hit.part_b = -1, -1
  hit.dist2 = rx * rx + ry * ry
  if rc == SWEEP_OVERLAP then
    local res, h = w.res
    if w.collided then
      h = w.hit
    else
      res = w.ores
      h = sat_collide(a, b, res)
    end
    if h == 0 then
      return 0
    end
    if res.overlap > 0.0 then
      hit.overlapping = 1
      copy_result(result, res)
      return 1
    end
    -- the core calls it touching: a contact now, if the motion presses in
    if not (vx * res.nx + vy * res.ny > 0.0) then
      return 0
    end
    result.nx, result.ny = res.nx, res.ny
    return 1
  end
  if w.te > 0.0 then
    hit.t = w.te
    -- v * gap / vn, multiplying first: a gap of 115 along v = (200, 0) gives 115
    if w.face then
      hit.mx, hit.my = vx * w.gap / w.vn, vy * w.gap / w.vn
    else
      hit.mx, hit.my = vx * w.te, vy * w.te
    end
  else
    hit.t = 0.0
    hit.mx, hit.my = 0.0, 0.0
  end
  result.nx, result.ny = w.nx, w.ny
  return 1
end

--- sat_sweep(a, vx, vy, b, hit) -> 1 or 0: see the top.
local function sweep(a, vx, vy, b, hit)
  depth = depth + 1
  local d = depth
  local w = STATES[d]
  if w == nil then -- (the allocation may run a finalizer: d is counted already)
    w = { res = {}, rx = {}, rs = {}, ores = {} }
    STATES[d] = w
  end
  local found = sweep_with(w, a, vx, vy, b, hit)
  depth = d - 1
  return found
end
M.sat_sweep = sweep

-- ---- compounds ---------------------------------------------------------------------------

local part_hit = { result = {} }
local pair_result = {}

-- When box (lo, hi) moving along v first comes within gap of box (blo, bhi) at d: a time in
-- [0, 1], or HUGE when it does not.
local function box_entry(lox, loy, hix, hiy, vx, vy, dx, dy, blox, bloy, bhix, bhiy, gap)
  local t0, t1 = 0.0, 1.0
  local blx, bly = dx + blox - gap, dy + bloy - gap
  local bhx, bhy = dx + bhix + gap, dy + bhiy + gap
  -- x
  if vx == 0.0 then
    if hix < blx or lox > bhx then
      return HUGE
    end
  else
    local enter = ((vx > 0.0 and blx or bhx) - (vx > 0.0 and hix or lox)) / vx
    local leave = ((vx > 0.0 and bhx or blx) - (vx > 0.0 and lox or hix)) / vx
    t0 = fmax(t0, enter)
    t1 = fmin(t1, leave)
  end
  -- y
  if vy == 0.0 then
    if hiy < bly or loy > bhy then
      return HUGE
    end
  else
    local enter = ((vy > 0.0 and bly or bhy) - (vy > 0.0 and hiy or loy)) / vy
    local leave = ((vy > 0.0 and bhy or bly) - (vy > 0.0 and loy or hiy)) / vy
    t0 = fmax(t0, enter)
    t1 = fmin(t1, leave)
  end
  return t0 <= t1 and t0 or HUGE
end

-- Part i's (1-based) box about its position: a compound's from its table, else the shape's
-- own (own: its sat__box, taken once by the caller).
local function part_box(s, i, olox, oloy, ohix, ohiy)
  if s.kind ~= SAT_COMPOUND then
    return olox, oloy, ohix, ohiy
  end
  return s.tlox[i], s.tloy[i], s.thix[i], s.thiy[i]
end
M.sat__part_box = part_box

-- A shape's parts and their boxes as 1-based arrays: a compound's own arrays, or (a shape
-- that is its own part) one of two reused sets of one entry (slot 1 or 2), its box its
-- sat__box: parts, lox, loy, hix, hiy, count (the loops over part pairs read them inline).
local ONE = { { {}, {}, {}, {}, {} }, { {}, {}, {}, {}, {} } }
local function part_arrays(s, slot)
  if s.kind == SAT_COMPOUND then
    return s.parts, s.tlox, s.tloy, s.thix, s.thiy, s.count
  end
  local o = ONE[slot]
  local p, lx, ly, hx, hy = o[1], o[2], o[3], o[4], o[5]
  p[1] = s
  lx[1], ly[1], hx[1], hy[1] = sat__box(s)
  return p, lx, ly, hx, hy, 1
end

-- Seams (see sat_sweep.c): a concave's parts meet along seams, edges of its parts inside its
-- outline, whose normals are none of the shape's. Of two touches within the pair's touch
-- tolerance of each other (the distances moved), one whose normal is a seam's
-- (sat__seam_pair, sat_union.lua) never takes the place of one whose normal is not, and
-- always gives way to it.

-- Whether touch h (part i of a, j of b) comes before the best so far, hit (parts bi, bj;
-- bseam: whether its normal is a seam's, nil until asked): the earlier, but of two within tol
-- (moving along v, of length vlen), the one whose normal is no seam's. -> first, bseam, hseam
-- (h's: nil when not asked).
local function comes_first(a, i, b, j, h, hit, bi, bj, bseam, vlen, tol)
  local earlier = h.t < hit.t
  if not (fabs(h.t - hit.t) * vlen <= tol) then
    return earlier, bseam, nil
  end
  if bseam == nil then
    local r = hit.result
    bseam = seam_pair(a, bi, b, bj, r.nx, r.ny)
  end
  local hr = h.result
  local hseam = seam_pair(a, i, b, j, hr.nx, hr.ny)
  if hseam ~= bseam then
    return not hseam, bseam, hseam
  end
  return earlier, bseam, hseam
end

--- sat__compound_sweep_pair(a, vx, vy, b, hit) -> found, pa, pb: a compound's earliest touch
-- over the part pairs, and that pair (nil, nil when overlapping: the union's result, whose
-- parts hit.part_a and part_b name; from 0, -1 for a shape that is not a compound). A part
-- pair whose boxes, the first's moving along v, come no nearer than four times their touch
-- tolerance (and a hair of v) cannot touch, nor one whose boxes meet only after a touch
-- already found. Of two touches within the touch tolerance, one with a seam's normal gives
-- way (comes_first).
local function compound_sweep_pair(a, vx, vy, b, hit)
  local found = 0
  local dx, dy = (b.px - a.px) + (b.plx - a.plx), (b.py - a.py) + (b.ply - a.ply)
  if not in_range(vx) or not in_range(vy) then
    return 0
  end
  local pa, pb
  local res = pair_result
  if sat_collide(a, b, res) == 1 and res.overlap > 0.0 then
    local result = clear_hit(hit)
    hit.overlapping = 1
    copy_result(result, res)
    hit.dist2 = dx * dx + dy * dy
    local _, part_a, part_b = sat_collide_parts(a, b, res)
    hit.part_a, hit.part_b = part_a, part_b
    return 1
  end
  local ap, alx, aly, ahx, ahy, na = part_arrays(a, 1)
  local bp, blx, bly, bhx, bhy, nb = part_arrays(b, 2)
  local hair = 1e-12 * ((vx < 0 and -vx or vx + 0.0) + (vy < 0 and -vy or vy + 0.0))
  local vlen, tol = len(vx, vy), SAT_TOUCH_REL * (a.bound + b.bound)
  local bi, bj, bseam = 0, 0, nil
  for i = 1, na do
    local x = ap[i]
    local xlox, xloy, xhix, xhiy = alx[i], aly[i], ahx[i], ahy[i]
    local xpx, xpy, xplx, xply, xb = x.px, x.py, x.plx, x.ply, x.bound
    for j = 1, nb do
      local y = bp[j]
      local h = part_hit
      local enter = box_entry(xlox, xloy, xhix, xhiy, vx, vy, (y.px - xpx) + (y.plx - xplx),
        (y.py - xpy) + (y.ply - xply), blx[j], bly[j], bhx[j], bhy[j],
        4.0 * (SAT_TOUCH_REL * (xb + y.bound)) + hair) -- sat__part_gap(x, y) + hair
      if (enter <= 1.0) and not (found == 1 and enter > hit.t) and
        sweep(x, vx, vy, y, h) == 1 then
        local hr = h.result
        if h.overlapping == 1 then -- within the union's tolerance: a touch now
          h.overlapping = 0
          h.t = 0.0
          h.mx, h.my = 0.0, 0.0
          hr.overlap = 0.0
          hr.mx, hr.my = 0.0, 0.0
          hr.a_in_b, hr.b_in_a = 0, 0
        end
        local first, hseam = found == 0, nil
        if found == 1 then
          first, bseam, hseam = comes_first(a, i, b, j, h, hit, bi, bj, bseam, vlen, tol)
        end
        if first then
          local result = hit.result
          if result == nil then
            result = {}
            hit.result = result
          end
          hit.overlapping, hit.t, hit.mx, hit.my, hit.dist2 = h.overlapping, h.t, h.mx, h.my,
            h.dist2
          copy_result(result, hr)
          hit.part_a = a.kind == SAT_COMPOUND and i - 1 or -1
          hit.part_b = b.kind == SAT_COMPOUND and j - 1 or -1
          pa, pb = x, y
          found = 1
          bi, bj, bseam = i, j, hseam
        end
      end
    end
  end
  if found == 1 then
    hit.dist2 = dx * dx + dy * dy
  end
  return found, pa, pb
end
M.sat__compound_sweep_pair = compound_sweep_pair

--- sat__compound_sweep(a, vx, vy, b, hit) -> found
compound_sweep = function(a, vx, vy, b, hit)
  return (compound_sweep_pair(a, vx, vy, b, hit))
end
M.sat__compound_sweep = compound_sweep

return M
