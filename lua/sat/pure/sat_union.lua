--- sat_union.lua - the pure backend's twin of src/core/sat_union.c: compounds' pair tests (the
-- exact MTV of the union of their parts by the pruned search, sat_test over part pairs, and
-- containment): sat__compound_test(a, b) -> 1/0, sat__compound_collide(a, b, r) -> 1/0 (r a
-- sat_result table: overlap, nx, ny, mx, my, a_in_b, b_in_a). sat_collide.lua dispatches a
-- pair with a compound here; the part pairs are tested by its sat_test and sat__part_collide (the
-- C passes them as functions; here the module is required when first needed).
--
-- Layout of the C's structures here (every index the C's, 0-based):
--   the arena: vertex and normal arrays AVX, AVY (a difference's n core vertices at
--   first .. first + n - 1, then its n edge normals); the differences' arrays D* (first, n,
--   r, box lo/hi, deep, i, j) by difference k.
--   a piece: a table {arc, full, p0x, p0y, p1x, p1y, nx, ny, cx, cy, n0x, n0y, n1x, n1y, r,
--   dist, far, lox, loy, hix, hiy}; the exposed pieces are copies in the pool EX.
--   the certificates' cells (the grid's cells split SAT__SUB x SAT__SUB, of side SR_FW):
--   CERT[row * columns + column]; the parts' places and boxes (the C's placed): PL_*.
-- Everything is reused from call to call: no table is made per call once the pools are big
-- enough. A union is never computed inside another (the part pairs are never compounds).
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
local K = require("sat.pure.sat_constants")
local I = require("sat.pure.sat_internal")
local S = require("sat.pure.sat_shape")

local M = {}

-- Under LuaJIT this file runs interpreted: the search's loops hold more live values than its
-- trace compiler can place ('NYI: register coalescing too complex' on most side traces) and
-- it recorded, aborted and flushed traces over and over (two 16-spike stars: 0.94 s a
-- collide compiled, against a few ms interpreted).
local jit_ = rawget(_G, "jit")
if jit_ then
  jit_.off(true, true)
end

local HUGE = math.huge
local sqrt, floor = math.sqrt, math.floor
local sort = table.sort
local fmin, fmax, fabs = I.fmin, I.fmax, I.fabs
local len, normalize, offset = I.sat__len, I.sat__normalize, I.sat__offset
local nparts = I.sat__nparts
local box, dd_add = S.sat__box, S.sat__dd_add

local SAT_POLYGON, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_OK, SAT_FORM_CONCAVE, SAT_TOUCH_REL = K.SAT_OK, K.SAT_FORM_CONCAVE, K.SAT_TOUCH_REL
local SAT_MERGE_REL, SAT_COLLINEAR_REL = K.SAT_MERGE_REL, K.SAT_COLLINEAR_REL

-- sat_collide.lua's sat_test and sat__part_collide (its sat_collide for part pairs; it
-- requires this file when a compound is met).
local pair_test, pair_collide
local function fns()
  local C = require("sat.pure.sat_collide")
  pair_test, pair_collide = C.sat_test, C.sat__part_collide
end

local function part_of(s, i) -- (i: 0-based)
  if s.kind == SAT_COMPOUND then
    return s.parts[i + 1]
  end
  return s
end

local function touch_tol(a, b)
  return SAT_TOUCH_REL * (a.bound + b.bound)
end

-- Distance from p to the segment a-b.
local function seg_point_dist(px, py, ax, ay, bx, by)
  local abx, aby, apx, apy = bx - ax, by - ay, px - ax, py - ay
  local l2 = abx * abx + aby * aby
  local t = l2 > 0.0 and (apx * abx + apy * aby) / l2 or 0.0
  t = t < 0.0 and 0.0 or (t > 1.0 and 1.0 or t)
  return len(apx - abx * t, apy - aby * t)
end

-- ---- the arena: the differences D_ij ---------------------------------------------------------

local AVX, AVY = {}, {}
local DFIRST, DN, DR, DLOX, DLOY, DHIX, DHIY, DDEEP, DI, DJ = {}, {}, {}, {}, {}, {}, {}, {},
  {}, {}
local DTOL = {} -- its parts' own touch tolerance (the C's mdiff.tol)
local NV, ND = 0, 0
-- By the arena's index (the C's arena f, a bit each here): edge k of the difference at first
-- is dropped (DROP[first + k] 1/0), was found covered in a round before (ECOV), its vertex
-- k + 1's arc too (ACOV).
local DROP, ECOV, ACOV = {}, {}, {}

-- ---- what the outlines alone tell (concave compounds): see sat_union.c ----------------------
-- A side's facts: s (the compound, or false), at[i] (0-based part i: where its entries
-- start), m[e] (the outline point, 0-based, or -1), diag[e] (1/0); e 0-based.
-- (turn: per outline point q, 7 numbers from 7 * q: r1x, r1y, r2x, r2y, the limits
-- -SAT_COLLINEAR_REL * |r1| and * |r2|, 1 when reflex; see the C's facts.turn)
local FA = { s = false, at = {}, m = {}, diag = {}, head = {}, nxt = {}, to = {}, turn = {} }
local FB = { s = false, at = {}, m = {}, diag = {}, head = {}, nxt = {}, to = {}, turn = {} }

-- The outline point within a quarter of the merge distance of p (the guess first), or -1.
local function outline_at(wx, wy, N, px, py, tt, guess)
  if guess >= 0 then
    local dx, dy = wx[guess + 1] - px, wy[guess + 1] - py
    if dx * dx + dy * dy <= tt then
      return guess
    end
  end
  for k = 0, N - 1 do
    local dx, dy = wx[k + 1] - px, wy[k + 1] - py
    if dx * dx + dy * dy <= tt then
      return k
    end
  end
  return -1
end

-- The facts of s (see the C's facts_begin).
local function facts_begin(f, s)
  f.s = false
  if s.kind ~= SAT_COMPOUND or s.form ~= SAT_FORM_CONCAVE then
    return
  end
  local P, N, V = s.count, s.on, 0
  for i = 1, P do
    local p = s.parts[i]
    if p.kind ~= SAT_POLYGON then
      return
    end
    V = V + p.count
  end
  local at, m, diag, head, nxt, to = f.at, f.m, f.diag, f.head, f.nxt, f.to
  local wx, wy = s.owx, s.owy
  local tol = 0.25 * SAT_MERGE_REL * s.bound
  local tt = tol * tol
  local turn = f.turn
  for q = 0, N - 1 do
    local a, c = q == 0 and N or q, q + 1 == N and 1 or q + 2 -- (1-based: q - 1, q + 1)
    local vx, vy = wx[q + 1], wy[q + 1]
    local r1x, r1y = wx[a] - vx, wy[a] - vy
    local r2x, r2y = wx[c] - vx, wy[c] - vy
    local g = 7 * q
    turn[g + 1], turn[g + 2], turn[g + 3], turn[g + 4] = r1x, r1y, r2x, r2y
    turn[g + 5] = -SAT_COLLINEAR_REL * len(r1x, r1y)
    turn[g + 6] = -SAT_COLLINEAR_REL * len(r2x, r2y)
    turn[g + 7] = r2x * r1y - r2y * r1x < 0.0 and 1 or 0
  end
  for k = 0, N - 1 do
    head[k] = -1
  end
  at[0] = 0
  for i = 0, P - 1 do
    local p = s.parts[i + 1]
    local ox, oy = p.ox, p.oy
    local cx, cy = s.tox[i + 1], s.toy[i + 1]
    local e0, n, guess = at[i], p.count, -1
    at[i + 1] = e0 + n
    for k = 0, n - 1 do
      local mk = outline_at(wx, wy, N, cx + ox[k + 1], cy + oy[k + 1], tt, guess)
      m[e0 + k] = mk
      guess = mk < 0 and -1 or (mk + 1 == N and 0 or mk + 1)
    end
    for k = 0, n - 1 do
      local a, b = m[e0 + k], m[e0 + (k + 1 == n and 0 or k + 1)]
      diag[e0 + k] = 0
      to[e0 + k] = b
      nxt[e0 + k] = -1
      if a >= 0 and b >= 0 and b ~= (a + 1 == N and 0 or a + 1) then
        nxt[e0 + k] = head[a]
        head[a] = e0 + k
      end
    end
  end
  for e = 0, V - 1 do -- edges a -> b and b -> a: both diagonals
    local a, b = m[e], to[e]
    if not (a < 0 or b < 0 or b == (a + 1 == N and 0 or a + 1)) then
      local g = head[b]
      while g >= 0 and diag[e] == 0 do
        diag[e] = to[g] == a and 1 or 0
        g = nxt[g]
      end
    end
  end
  f.s = s
end

-- Whether vertex k of part i of f's compound may touch, from outside, an edge whose outward
-- normal is n (see the C's fits).
local function fits(f, i, k, nx, ny)
  local mm = f.m[f.at[i] + k]
  if mm < 0 then
    return true
  end
  local turn, g = f.turn, 7 * mm -- (r1, r2, their limits: facts_begin)
  if turn[g + 7] ~= 0 then
    return false -- reflex
  end
  return not (turn[g + 1] * nx + turn[g + 2] * ny < turn[g + 5]) and
    not (turn[g + 3] * nx + turn[g + 4] * ny < turn[g + 6])
end

-- Whether edge k of part i of f's compound is a diagonal.
local function diagonal(f, i, k)
  return f.s and f.diag[f.at[i] + k] == 1
end

-- Marks edge k of the difference being built (its flags from NV): see the C's mark.
local MK_XI, MK_YJ = 0, 0
local function mark(k, step, pi, qj, ex, ey)
  local drop = (step % 2 == 1 and diagonal(FB, MK_YJ, pi)) or
    (step >= 2 and diagonal(FA, MK_XI, qj))
  if not drop and step == 1 and FA.s then
    local nx, ny = normalize(ey, -ex)
    drop = not fits(FA, MK_XI, qj, nx, ny)
  elseif not drop and step == 2 and FB.s then
    local nx, ny = normalize(ey, -ex)
    drop = not fits(FB, MK_YJ, pi, -nx, -ny)
  end
  DROP[NV + k] = drop and 1 or 0
  ECOV[NV + k] = false
  ACOV[NV + k] = false
end

local function core_count(x)
  if x.kind == SAT_POLYGON then
    return x.count
  end
  local k = x.kind
  return (k == SAT_SEGMENT or k == SAT_CAPSULE) and x.hlen > 0.0 and 2 or 1
end

-- x's core vertices at offset c, counter-clockwise, scaled by sign (-1: negated), into
-- ox, oy from position at (0-based).
local function core_points(x, cx, cy, sign, ox, oy, at)
  if x.kind == SAT_POLYGON then
    local xo, yo = x.ox, x.oy
    for i = 1, x.count do
      ox[at + i - 1], oy[at + i - 1] = (cx + xo[i]) * sign, (cy + yo[i]) * sign
    end
    return x.count
  end
  if core_count(x) == 2 then
    local hx, hy = x.hx, x.hy
    ox[at], oy[at] = (cx - hx) * sign, (cy - hy) * sign
    ox[at + 1], oy[at + 1] = (cx + hx) * sign, (cy + hy) * sign
    return 2
  end
  ox[at], oy[at] = cx * sign, cy * sign
  return 1
end

local function lowest(px, py, at, n)
  local k = 0
  for i = 1, n - 1 do
    local yi, yk = py[at + i], py[at + k]
    if yi < yk or (yi == yk and px[at + i] < px[at + k]) then
      k = i
    end
  end
  return k
end

local function half_of(x, y)
  return y < 0.0 or (y == 0.0 and x < 0.0)
end

local function angle_less(ux, uy, vx, vy)
  local hu, hv = half_of(ux, uy), half_of(vx, vy)
  if hu ~= hv then
    return hv -- (hu < hv: hu false, hv true)
  end
  return ux * vy - uy * vx > 0.0
end

local SX, SY = {}, {} -- P at 0, Q at np, out at np + nq

-- The Minkowski sum of two convex counter-clockwise polygons (1 or 2 points included), by
-- merging their edges in angle order from the lowest vertices: at most np + nq points, into
-- SX, SY from out.
-- Each edge's source is marked (mark: step 1 P's edge, 2 Q's, 3 both).
local function minkowski(P, np, Q, nq, out)
  local i0, j0 = lowest(SX, SY, P, np), lowest(SX, SY, Q, nq)
  local i, j, k = 0, 0, 0
  while i < np or j < nq do
    local pi, qj = P + (i0 + i) % np, Q + (j0 + j) % nq
    local step
    local ePx, ePy, eQx, eQy = 0.0, 0.0, 0.0, 0.0
    SX[out + k], SY[out + k] = SX[pi] + SX[qj], SY[pi] + SY[qj]
    if i == np or np == 1 then
      step = 2
    elseif j == nq or nq == 1 then
      step = 1
    else
      local pn, qn = P + (i0 + i + 1) % np, Q + (j0 + j + 1) % nq
      ePx, ePy = SX[pn] - SX[pi], SY[pn] - SY[pi]
      eQx, eQy = SX[qn] - SX[qj], SY[qn] - SY[qj]
      if angle_less(ePx, ePy, eQx, eQy) then
        step = 1
      elseif angle_less(eQx, eQy, ePx, ePy) then
        step = 2
      else
        step = 3
      end
    end
    if step == 1 and np > 1 and i < np then
      local pn = P + (i0 + i + 1) % np
      ePx, ePy = SX[pn] - SX[pi], SY[pn] - SY[pi]
    elseif step == 2 and nq > 1 and j < nq then
      local qn = Q + (j0 + j + 1) % nq
      eQx, eQy = SX[qn] - SX[qj], SY[qn] - SY[qj]
    end
    if step == 2 then
      mark(k, step, (i0 + i) % np, (j0 + j) % nq, eQx, eQy)
    else
      mark(k, step, (i0 + i) % np, (j0 + j) % nq, ePx, ePy)
    end
    k = k + 1
    if k >= np + nq then
      break
    end
    if step ~= 2 then
      i = i + 1
    end
    if step ~= 1 then
      j = j + 1
    end
  end
  return k
end

-- Drops repeated points; a sum with no area (parallel segments, points) becomes the segment
-- between its extremes, or a point. (SX, SY from position at.) Returns the count, and twice
-- the area when 3 points or more are left.
local function tidy(at, n)
  local m = 0
  for i = 0, n - 1 do
    local x, y = SX[at + i], SY[at + i]
    if m == 0 or x ~= SX[at + m - 1] or y ~= SY[at + m - 1] then
      SX[at + m], SY[at + m] = x, y
      m = m + 1
    end
  end
  while m > 1 and SX[at + m - 1] == SX[at] and SY[at + m - 1] == SY[at] do
    m = m - 1
  end
  if m < 3 then
    return m
  end
  local x0, y0 = SX[at], SY[at]
  local ext, a2 = 0.0, 0.0
  for i = 0, m - 1 do
    local ix, iy = SX[at + i] - x0, SY[at + i] - y0
    local j = at + (i + 1) % m
    ext = fmax(ext, len(ix, iy))
    a2 = a2 + (ix * (SY[j] - y0) - iy * (SX[j] - x0))
  end
  if fabs(a2) > 1e-10 * ext * ext then
    return m, a2
  end
  local e1, e2 = 0, 0
  local far = -1.0
  for i = 0, m - 1 do
    local d = len(SX[at + i] - x0, SY[at + i] - y0)
    if d > far then
      far, e1 = d, i
    end
  end
  far = -1.0
  local x1, y1 = SX[at + e1], SY[at + e1]
  for i = 0, m - 1 do
    local d = len(SX[at + i] - x1, SY[at + i] - y1)
    if d > far then
      far, e2 = d, i
    end
  end
  local bx, by = SX[at + e2], SY[at + e2]
  SX[at], SY[at] = x1, y1
  SX[at + 1], SY[at + 1] = bx, by
  return far > 0.0 and 2 or 1
end

-- Adds D for parts x (a's part i, at offset ca) and y (b's part j, at offset cb).
local function add_diff(x, cax, cay, y, cbx, cby, xi, yj)
  local nx, ny = core_count(x), core_count(y)
  local P, Q = 0, ny
  local out = Q + nx
  core_points(y, cbx, cby, 1.0, SX, SY, P)
  core_points(x, cax, cay, -1.0, SX, SY, Q)
  MK_XI, MK_YJ = xi, yj
  local m = minkowski(P, ny, Q, nx, out)
  local k, a2 = tidy(out, m)
  local per = 0.0
  local first = NV
  for i = 0, k - 1 do
    AVX[first + i], AVY[first + i] = SX[out + i], SY[out + i]
  end
  if k ~= m or k < 3 then -- (a sum tidied: its edges' sources are not known)
    for i = 0, k - 1 do
      DROP[first + i] = 0
    end
  end
  local d = ND
  ND = ND + 1
  DFIRST[d] = first
  DN[d] = k
  DI[d] = xi
  DJ[d] = yj
  local r = x.radius + y.radius
  DR[d] = r
  DTOL[d] = touch_tol(x, y)
  local lox, loy, hix, hiy = AVX[first], AVY[first], AVX[first], AVY[first]
  for i = 0, k - 1 do
    local p = first + i
    local q = i + 1 == k and first or p + 1
    local ex, ey = AVX[q] - AVX[p], AVY[q] - AVY[p]
    local ux, uy, l = normalize(ey, -ex)
    AVX[first + k + i], AVY[first + k + i] = ux, uy
    per = per + l -- (|e|, as len gives it)
    lox, loy = fmin(lox, AVX[p]), fmin(loy, AVY[p])
    hix, hiy = fmax(hix, AVX[p]), fmax(hiy, AVY[p])
  end
  DLOX[d], DLOY[d] = lox - r, loy - r
  DHIX[d], DHIY[d] = hix + r, hiy + r
  -- (a2: tidy's, the same sum; none below 3 points)
  DDEEP[d] = r + ((k >= 3 and per > 0.0) and a2 / per or 0.0)
  NV = NV + 2 * k
end

-- How deep t is inside D (its radius less its signed distance from the core).
local function depth(first, n, r, tx, ty)
  if n == 1 then
    return r - len(tx - AVX[first], ty - AVY[first])
  end
  if n == 2 then
    return r - seg_point_dist(tx, ty, AVX[first], AVY[first], AVX[first + 1], AVY[first + 1])
  end
  local nm = first + n
  local smax = -HUGE
  for i = 0, n - 1 do
    local s = AVX[nm + i] * (tx - AVX[first + i]) + AVY[nm + i] * (ty - AVY[first + i])
    smax = s > smax and s or smax
  end
  if smax <= 0.0 then
    return r - smax
  end
  if smax > r then
    return r - smax -- beyond one edge's line by more than r: apart, by at least that
  end
  local m = HUGE
  for i = 0, n - 1 do
    local q = first + (i + 1) % n
    m = fmin(m, seg_point_dist(tx, ty, AVX[first + i], AVY[first + i], AVX[q], AVY[q]))
  end
  return r - m
end

-- Whether t is inside D deeper than lim: depth(...) > lim, the same answer (see the C's
-- holds).
local function holds(first, n, r, tx, ty, lim)
  if n < 3 or r ~= 0.0 then
    return depth(first, n, r, tx, ty) > lim
  end
  local nm = first + n
  for i = 0, n - 1 do
    local s = AVX[nm + i] * (tx - AVX[first + i]) + AVY[nm + i] * (ty - AVY[first + i])
    if not (0.0 - s > lim) and s == s then
      return false
    end
  end
  return true
end

-- ---- pieces of a difference's boundary -------------------------------------------------------

local function nearest_on(p0x, p0y, p1x, p1y)
  local ex, ey = p1x - p0x, p1y - p0y
  local l2 = ex * ex + ey * ey
  local t = l2 > 0.0 and -(p0x * ex + p0y * ey) / l2 or 0.0
  t = t < 0.0 and 0.0 or (t > 1.0 and 1.0 or t)
  return p0x + ex * t, p0y + ey * t
end

-- Pieces 2k (edge k) and 2k + 1 (the arc at vertex k + 1, or its corner when r is 0) of
-- difference d into pc; a difference of one point has one piece (its circle, or the point).
local function get_piece(d, idx, pc)
  local n, r, first = DN[d], DR[d], DFIRST[d]
  pc.r = r
  if n == 1 then
    local cx, cy = AVX[first], AVY[first]
    pc.arc = true
    pc.full = true
    pc.cx, pc.cy = cx, cy
    pc.n0x, pc.n0y, pc.n1x, pc.n1y = 1.0, 0.0, 1.0, 0.0
    pc.dist = fmax(0.0, len(cx, cy) - r)
    pc.lox, pc.loy = cx - r, cy - r
    pc.hix, pc.hiy = cx + r, cy + r
    pc.far = len(cx, cy) + r
    return
  end
  local k = floor(idx / 2)
  local nm = first + n
  if idx % 2 == 0 then
    local nx, ny = AVX[nm + k], AVY[nm + k]
    local q = first + (k + 1) % n
    pc.arc = false
    pc.nx, pc.ny = nx, ny
    local p0x, p0y = AVX[first + k] + nx * r, AVY[first + k] + ny * r
    local p1x, p1y = AVX[q] + nx * r, AVY[q] + ny * r
    pc.p0x, pc.p0y, pc.p1x, pc.p1y = p0x, p0y, p1x, p1y
    pc.dist = len(nearest_on(p0x, p0y, p1x, p1y))
    pc.lox, pc.loy = fmin(p0x, p1x), fmin(p0y, p1y)
    pc.hix, pc.hiy = fmax(p0x, p1x), fmax(p0y, p1y)
    pc.far = fmax(len(p0x, p0y), len(p1x, p1y))
    return
  end
  local q = (k + 1) % n
  local cx, cy = AVX[first + q], AVY[first + q]
  pc.arc = true
  pc.full = false
  pc.cx, pc.cy = cx, cy
  pc.n0x, pc.n0y = AVX[nm + k], AVY[nm + k]
  pc.n1x, pc.n1y = AVX[nm + q], AVY[nm + q]
  pc.dist = fmax(0.0, len(cx, cy) - r)
  pc.lox, pc.loy = cx - r, cy - r
  pc.hix, pc.hiy = cx + r, cy + r
  pc.far = len(cx, cy) + r
end

local function copy_piece(dst, src)
  dst.arc, dst.full = src.arc, src.full
  dst.p0x, dst.p0y, dst.p1x, dst.p1y = src.p0x, src.p0y, src.p1x, src.p1y
  dst.nx, dst.ny, dst.cx, dst.cy = src.nx, src.ny, src.cx, src.cy
  dst.n0x, dst.n0y, dst.n1x, dst.n1y = src.n0x, src.n0y, src.n1x, src.n1y
  dst.r, dst.dist, dst.far = src.r, src.dist, src.far
  dst.lox, dst.loy, dst.hix, dst.hiy = src.lox, src.loy, src.hix, src.hiy
end

local function in_arc(pc, dx, dy)
  return pc.full or (pc.n0x * dy - pc.n0y * dx >= 0.0 and dx * pc.n1y - dy * pc.n1x >= 0.0)
end

-- A piece's own candidates (at most 3): the nearest point of a segment (and its ends, where
-- it meets an arc), of an arc, or a corner. Into CX, CY; returns their count.
local CX, CY = {}, {}
local function piece_points(pc)
  if not pc.arc then
    CX[0], CY[0] = nearest_on(pc.p0x, pc.p0y, pc.p1x, pc.p1y)
    if pc.r > 0.0 then
      CX[1], CY[1] = pc.p0x, pc.p0y
      CX[2], CY[2] = pc.p1x, pc.p1y
      return 3
    end
    return 1
  end
  if pc.r > 0.0 then
    local dx, dy = normalize(-pc.cx, -pc.cy)
    if dx == 0.0 and dy == 0.0 then
      if pc.full then
        dx, dy = 1.0, 0.0
      else
        dx, dy = pc.n0x, pc.n0y
      end
    end
    if in_arc(pc, dx, dy) then
      CX[0], CY[0] = pc.cx + dx * pc.r, pc.cy + dy * pc.r
      return 1
    end
    return 0
  end
  CX[0], CY[0] = pc.cx, pc.cy
  return 1
end

local function on_piece_arc(pc, x, y)
  if not pc.arc then
    return true
  end
  local dx, dy = normalize(x - pc.cx, y - pc.cy)
  return in_arc(pc, dx, dy)
end

-- The points where two pieces cross (at most 2), into XX, XY; their count.
local XX, XY = {}, {}
local function cross_pieces(a, b)
  if a.arc and not (a.r > 0.0) then
    return 0
  end
  if b.arc and not (b.r > 0.0) then
    return 0
  end
  local k = 0
  if not a.arc and not b.arc then
    local d1x, d1y, d2x, d2y = a.p1x - a.p0x, a.p1y - a.p0y, b.p1x - b.p0x, b.p1y - b.p0y
    local wx, wy = b.p0x - a.p0x, b.p0y - a.p0y
    local den = d1x * d2y - d1y * d2x
    if den == 0.0 then
      return 0
    end
    local t, u = (wx * d2y - wy * d2x) / den, (wx * d1y - wy * d1x) / den
    if t >= 0.0 and t <= 1.0 and u >= 0.0 and u <= 1.0 then
      XX[0], XY[0] = a.p0x + d1x * t, a.p0y + d1y * t
      k = 1
    end
    return k
  end
  if a.arc and b.arc then
    local dx, dy = b.cx - a.cx, b.cy - a.cy
    local L = len(dx, dy)
    local ar, br = a.r, b.r
    if not (L > 0.0) or L > ar + br or L < fabs(ar - br) then
      return 0
    end
    local al = (ar * ar - br * br + L * L) / (2.0 * L)
    local h = sqrt(fmax(0.0, ar * ar - al * al))
    local f = al / L
    local mx, my = a.cx + dx * f, a.cy + dy * f
    local g = h / L
    local ppx, ppy = -dy * g, dx * g
    local c0x, c0y, c1x, c1y = mx + ppx, my + ppy, mx - ppx, my - ppy
    if on_piece_arc(a, c0x, c0y) and on_piece_arc(b, c0x, c0y) then
      XX[k], XY[k] = c0x, c0y
      k = k + 1
    end
    if on_piece_arc(a, c1x, c1y) and on_piece_arc(b, c1x, c1y) then
      XX[k], XY[k] = c1x, c1y
      k = k + 1
    end
    return k
  end
  local s, c = b, a
  if not a.arc then
    s, c = a, b
  end
  local dx, dy = s.p1x - s.p0x, s.p1y - s.p0y
  local fx, fy = s.p0x - c.cx, s.p0y - c.cy
  local A, B = dx * dx + dy * dy, 2.0 * (fx * dx + fy * dy)
  local Cc = (fx * fx + fy * fy) - c.r * c.r
  local disc = B * B - 4.0 * A * Cc
  if not (A > 0.0) or disc < 0.0 then
    return 0
  end
  local sq = sqrt(disc)
  local t0, t1 = (-B - sq) / (2.0 * A), (-B + sq) / (2.0 * A)
  if not (t0 < 0.0 or t0 > 1.0) then
    local px, py = s.p0x + dx * t0, s.p0y + dy * t0
    if on_piece_arc(c, px, py) then
      XX[k], XY[k] = px, py
      k = k + 1
    end
  end
  if not (t1 < 0.0 or t1 > 1.0) then
    local px, py = s.p0x + dx * t1, s.p0y + dy * t1
    if on_piece_arc(c, px, py) then
      XX[k], XY[k] = px, py
      k = k + 1
    end
  end
  return k
end

-- ---- part boxes ---------------------------------------------------------------------------------

-- Part i's (0-based) box about its position: a compound's from its table, else the shape's
-- own (own: its sat__box, taken once by the caller).
local function box_of(s, i, olox, oloy, ohix, ohiy)
  if s.kind ~= SAT_COMPOUND then
    return olox, oloy, ohix, ohiy
  end
  return s.tlox[i + 1], s.tloy[i + 1], s.thix[i + 1], s.thiy[i + 1]
end

-- A shape's parts and their boxes as 1-based arrays: a compound's own arrays, or (a shape
-- that is its own part) one of two reused sets of one entry (slot 1 or 2), its box its
-- sat__box: parts, lox, loy, hix, hiy, count. (The loops over part pairs read these inline:
-- the C's sat__part_of and box_of, without a call a pair.)
local ONE = { { {}, {}, {}, {}, {} }, { {}, {}, {}, {}, {} } }
local function part_arrays(s, slot)
  if s.kind == SAT_COMPOUND then
    return s.parts, s.tlox, s.tloy, s.thix, s.thiy, s.count
  end
  local o = ONE[slot]
  local p, lx, ly, hx, hy = o[1], o[2], o[3], o[4], o[5]
  p[1] = s
  lx[1], ly[1], hx[1], hy[1] = box(s)
  return p, lx, ly, hx, hy, 1
end

local function own_box(s)
  if s.kind == SAT_COMPOUND then
    return 0.0, 0.0, 0.0, 0.0
  end
  return box(s)
end

-- Distance from the origin to the box of D_ij (a lower bound of its distance): x's box at
-- offset ca, y's at cb.
local function box_reach(xlox, xloy, xhix, xhiy, cax, cay, ylox, yloy, yhix, yhiy, cbx, cby)
  local lx = (cbx + ylox) - (cax + xhix)
  local hx = (cbx + yhix) - (cax + xlox)
  local ly = (cby + yloy) - (cay + xhiy)
  local hy = (cby + yhiy) - (cay + xloy)
  -- (statements, not and/or: LuaJIT's side traces of those fail, 'register coalescing too
  -- complex')
  local dx, dy = 0.0, 0.0
  if lx > 0.0 then
    dx = lx
  elseif hx < 0.0 then
    dx = -hx
  end
  if ly > 0.0 then
    dy = ly
  elseif hy < 0.0 then
    dy = -hy
  end
  return sqrt(dx * dx + dy * dy)
end

-- Whether two differences' boxes meet (their boundaries can cross only then).
local function boxes_cross(a, b)
  return not (DHIX[a] < DLOX[b] or DHIX[b] < DLOX[a] or DHIY[a] < DLOY[b] or DHIY[b] < DLOY[a])
end

-- ---- the search: the nearest candidate inside no difference (see sat_union.c) -------------

local G = { x0 = 0.0, y0 = 0.0, w = 1.0, nx = 1, ny = 1 }
local GSTART, GITEM = {}, {}
local ORDER, STAMP, HINT, CLS = {}, {}, {}, {}
-- per grid cell c: the last SAT__HINTS differences that held a front there, the latest first
-- (CHINT[SAT__HINTS * c + h]; -1: none)
local SAT__HINTS = 4
local CHINT = {}

local function grid_at(x, x0, w, n)
  local f = (x - x0) / w -- (floor(f) clamped: below 0, at n or above)
  if not (f >= 0.0) then
    return 0
  end
  if f >= n then
    return n - 1
  end
  return floor(f)
end

local function grid_cell(x, y)
  local g = G
  return grid_at(y, g.y0, g.w, g.ny) * g.nx + grid_at(x, g.x0, g.w, g.nx)
end

-- The search's state (the C's struct search), reset by union_mtv.
local SR_BEST, SR_FLOOR, SR_CAP, SR_MARGIN, SR_LAST = 0.0, 0.0, 0.0, 0.0, 0
local SR_ATX, SR_ATY = 0.0, 0.0
local SR_RANK = { [0] = 0, 0, 0, 0, 0, 0, 0 }
local SR_SERIAL, SR_COVER = 0, -1
local SR_DONE = 0.0 -- the pieces marked covered are covered within it (the rounds before)
-- the certificates' cells: each grid cell split in SAT__SUB x SAT__SUB, of side SR_FW; CERT[c]:
-- the difference that holds cell c's grown rectangle (-1: none, -2: not asked yet)
local SAT__SUB = 3
local SR_FW, SR_LASTCERT = 1.0, -1
local CERT = {}
local EX, EXD, NEX = {}, {}, 0 -- exposed pieces (a pool of tables), their (k, idx)

-- Whether difference k holds c deeper than its parts' own touch tolerance.
local function refuses(k, cx, cy)
  if cx < DLOX[k] or cx > DHIX[k] or cy < DLOY[k] or cy > DHIY[k] then
    return false
  end
  return holds(DFIRST[k], DN[k], DR[k], cx, cy, DTOL[k])
end

-- Takes c when it is nearer than the best so far and inside no difference beyond the touch
-- tolerance; of two as near, the one of lower rank (see sat_union.c).
local RANK = { [0] = 0, 0, 0, 0, 0, 0, 0 }
local function consider(cx, cy, rank)
  local norm = len(cx, cy)
  if not (norm <= SR_BEST) or norm > SR_CAP or norm < SR_FLOOR then
    return
  end
  if norm == SR_BEST then
    local i = 0
    while i < 6 and rank[i] == SR_RANK[i] do
      i = i + 1
    end
    if not (rank[i] < SR_RANK[i]) then
      return
    end
  end
  if refuses(SR_LAST, cx, cy) then
    return
  end
  local cell = grid_cell(cx, cy)
  for i = GSTART[cell], GSTART[cell + 1] - 1 do
    local k = GITEM[i]
    if k ~= SR_LAST and refuses(k, cx, cy) then
      SR_LAST = k
      return
    end
  end
  SR_BEST = norm
  SR_ATX, SR_ATY = cx, cy
  for i = 0, 6 do
    SR_RANK[i] = rank[i]
  end
end

local function set_rank(r0, r1, r2, r3, r4, r5, r6)
  local r = RANK
  r[0], r[1], r[2], r[3], r[4], r[5], r[6] = r0, r1, r2, r3, r4, r5, r6
  return r
end

-- ---- coverage ------------------------------------------------------------------------------

-- Narrows (a, b) to where the ray u0 + s du lies in the slab (lo, hi): returns a, b.
local function slab(u0, du, lo, hi, a, b)
  if du == 0.0 then
    if not (u0 > lo and u0 < hi) then
      return HUGE, -HUGE
    end
    return a, b
  end
  local s1, s2 = (lo - u0) / du, (hi - u0) / du
  if du < 0.0 then
    s1, s2 = s2, s1
  end
  if s1 > a then
    a = s1
  end
  if s2 < b then
    b = s2
  end
  return a, b
end

-- Where p0 + s e is within g of the point c: s in (a, b), empty when not a < b.
local function disc_chord(p0x, p0y, ex, ey, cx, cy, g)
  local fx, fy = p0x - cx, p0y - cy
  local A, B = ex * ex + ey * ey, fx * ex + fy * ey
  local C = (fx * fx + fy * fy) - g * g
  local disc = B * B - A * C
  if A > 0.0 and disc > 0.0 then
    local sq = sqrt(disc)
    return (-B - sq) / A, (-B + sq) / A
  end
  return HUGE, -HUGE
end

-- The parameters s at which p0 + s e lies deeper than lim inside the difference d: lo, hi,
-- empty when not lo < hi.
local function chord(d, lim, p0x, p0y, ex, ey, from, to)
  local n, first = DN[d], DFIRST[d]
  local nm = first + n
  local g, a, b = DR[d] - lim, -HUGE, HUGE
  local lo, hi = HUGE, -HUGE
  if n >= 3 then -- each edge's half-plane u0 + s du < in
    local inn = g < 0.0 and g or 0.0
    local i = 0
    while i < n and a < b do
      if not (g > 0.0) and (a >= to or b <= from) then
        return HUGE, -HUGE -- (what is left of it is beyond [from, to])
      end
      local nx, ny = AVX[nm + i], AVY[nm + i]
      local u0 = nx * (p0x - AVX[first + i]) + ny * (p0y - AVY[first + i])
      local du = nx * ex + ny * ey
      if du > 0.0 then
        local s1 = (inn - u0) / du
        b = s1 < b and s1 or b
      elseif du < 0.0 then
        local s1 = (inn - u0) / du
        a = s1 > a and s1 or a
      elseif not (u0 < inn) then
        b = -HUGE
      end
      i = i + 1
    end
    if a < b then
      lo, hi = a, b
    end
  end
  if not (g > 0.0) then
    return lo, hi
  end
  for i = 0, n - 1 do
    local vx, vy = AVX[first + i], AVY[first + i]
    a, b = disc_chord(p0x, p0y, ex, ey, vx, vy, g)
    if a < b then
      lo, hi = fmin(lo, a), fmax(hi, b)
    end
    if not (n == 1 or (n == 2 and i == 1)) then
      -- the band along edge i (its tangent t, length L)
      local nx, ny = AVX[nm + i], AVY[nm + i]
      local tx, ty = -ny, nx
      local qx, qy = p0x - vx, p0y - vy
      local j = first + (i + 1) % n
      local L = tx * (AVX[j] - vx) + ty * (AVY[j] - vy)
      a, b = slab(tx * qx + ty * qy, tx * ex + ty * ey, 0.0, L, -HUGE, HUGE)
      a, b = slab(nx * qx + ny * qy, nx * ex + ny * ey, -g, g, a, b)
      if a < b then
        lo, hi = fmin(lo, a), fmax(hi, b)
      end
    end
  end
  return lo, hi
end

local SAT__GAPS = 16
local CUT_OUT = {}

-- Removes [lo, hi] from the n intervals of gap (0-based: gap[2i], gap[2i + 1]); returns how
-- many are left. When the cut would leave more than SAT__GAPS, it is not made.
local function cut(gap, n, lo, hi)
  local out = CUT_OUT
  local m = 0
  for i = 0, n - 1 do
    local a, b = gap[2 * i], gap[2 * i + 1]
    if hi < a or lo > b then
      out[m], out[m + 1] = a, b
      m = m + 2
    else
      if lo > a then
        out[m], out[m + 1] = a, lo
        m = m + 2
      end
      if hi < b then
        out[m], out[m + 1] = hi, b
        m = m + 2
      end
      if m > 2 * SAT__GAPS then
        return n
      end
    end
  end
  for i = 0, m - 1 do
    gap[i] = out[i]
  end
  return m / 2
end

-- What a piece must have covered (the C's struct cover): a segment p0 + s e's parameters left
-- in gap[0, 2n), or an arc's hull points h[0, np), all inside one difference; lo, hi: its
-- box.
local CV = { arc = false, n = 0, np = 0, p0x = 0.0, p0y = 0.0, ex = 0.0, ey = 0.0, lox = 0.0,
  loy = 0.0, hix = 0.0, hiy = 0.0, gap = {}, hx = {}, hy = {} }

-- The points whose hull holds an arc of radius > 0, into cv.hx, cv.hy: their count, 0 when
-- the arc turns further than a half.
local function arc_hull(pc, cv)
  local hx, hy = cv.hx, cv.hy
  local cx, cy, n0x, n0y, n1x, n1y = pc.cx, pc.cy, pc.n0x, pc.n0y, pc.n1x, pc.n1y
  local r = pc.r
  if pc.full then
    hx[0], hy[0] = cx - r, cy - r
    hx[1], hy[1] = cx + r, cy - r
    hx[2], hy[2] = cx + r, cy + r
    hx[3], hy[3] = cx - r, cy + r
    return 4
  end
  local cs, sn = n0x * n1x + n0y * n1y, n0x * n1y - n0y * n1x
  local k = 0
  if not (sn >= 0.0 and cs >= 0.0) then -- more than a quarter: split in two
    if sn < 0.0 or (sn == 0.0 and cs > 0.0) then
      return 0
    end
    local mx, my
    if sn > 0.0 then
      mx, my = normalize(n0x + n1x, n0y + n1y)
    else
      mx, my = -n0y, n0x
    end
    hx[k], hy[k] = cx + n0x * r, cy + n0y * r
    k = k + 1
    local f = r / (1.0 + (n0x * mx + n0y * my))
    hx[k], hy[k] = cx + (n0x + mx) * f, cy + (n0y + my) * f
    k = k + 1
    n0x, n0y = mx, my
  end
  hx[k], hy[k] = cx + n0x * r, cy + n0y * r
  k = k + 1
  local f = r / (1.0 + (n0x * n1x + n0y * n1y))
  hx[k], hy[k] = cx + (n0x + n1x) * f, cy + (n0y + n1y) * f
  k = k + 1
  hx[k], hy[k] = cx + n1x * r, cy + n1y * r
  k = k + 1
  return k
end

-- Whether difference m (asked once per piece, never k itself) covers what is left of a
-- piece of difference k (cutting what it covers away).
local function ask(k, m, cv)
  if m < 0 or m == k or STAMP[m] == SR_SERIAL then
    return false
  end
  STAMP[m] = SR_SERIAL
  local lim = DTOL[m] + SR_MARGIN
  if cv.hix < DLOX[m] or DHIX[m] < cv.lox or cv.hiy < DLOY[m] or DHIY[m] < cv.loy then
    return false
  end
  if cv.arc then
    local first, n, r, hx, hy = DFIRST[m], DN[m], DR[m], cv.hx, cv.hy
    for q = 0, cv.np - 1 do
      if not holds(first, n, r, hx[q], hy[q], lim) then
        return false
      end
    end
  else
    local a, b = chord(m, lim, cv.p0x, cv.p0y, cv.ex, cv.ey, cv.gap[0], cv.gap[2 * cv.n - 1])
    if a < b then
      cv.n = cut(cv.gap, cv.n, a, b)
    end
    if cv.n > 0 then
      return false
    end
  end
  HINT[k] = m
  SR_COVER = m
  return true
end

-- Whether a difference (core at first, n, r) holds the rectangle (lo, hi) deeper than lim
-- (see the C's rect_held).
local function rect_held(first, n, r, lox, loy, hix, hiy, lim)
  if n < 3 or r ~= 0.0 then
    return holds(first, n, r, lox, loy, lim) and holds(first, n, r, hix, hiy, lim) and
      holds(first, n, r, hix, loy, lim) and holds(first, n, r, lox, hiy, lim)
  end
  local nm = first + n
  for i = 0, n - 1 do
    local nx, ny = AVX[nm + i], AVY[nm + i]
    local cx, cy = nx > 0.0 and hix or lox, ny > 0.0 and hiy or loy
    local s = nx * (cx - AVX[first + i]) + ny * (cy - AVY[first + i])
    if not (0.0 - s > lim) then
      return false
    end
  end
  return true
end

-- The grown rectangle of a certificates' cell (column cx, row cy; see the C's cell_rect):
-- lox, loy, hix, hiy.
local function cell_rect(cx, cy)
  local g, fw = G, SR_FW
  local e = fw / 16.0
  return g.x0 + cx * fw - e, g.y0 + cy * fw - e, g.x0 + (cx + 1) * fw + e,
    g.y0 + (cy + 1) * fw + e
end

-- The certificates' cell of (x, y): its column and row.
local function fine_cell(x, y)
  local g = G
  return grid_at(x, g.x0, SR_FW, g.nx * SAT__SUB), grid_at(y, g.y0, SR_FW, g.ny * SAT__SUB)
end

-- The difference (the last that held a cell first, then the list of the grid's cell holding
-- it, in its order) that holds the whole of a certificates' cell's grown rectangle deeper
-- than its tolerance and the margin, or -1: asked once per search.
local function cell_cover(cx, cy)
  local g = G
  local fine = cy * g.nx * SAT__SUB + cx
  local c = CERT[fine]
  if c ~= -2 then
    return c
  end
  local found = -1
  local cell = floor(cy / SAT__SUB) * g.nx + floor(cx / SAT__SUB)
  local lox, loy, hix, hiy = cell_rect(cx, cy)
  local j, stop = GSTART[cell] - 1, GSTART[cell + 1]
  while j < stop and found < 0 do
    local m
    if j < GSTART[cell] then
      m = SR_LASTCERT
    else
      m = GITEM[j]
    end
    if not (m < 0 or (j >= GSTART[cell] and m == SR_LASTCERT)) then
      if not (lox < DLOX[m] or hix > DHIX[m] or loy < DLOY[m] or hiy > DHIY[m]) and
        rect_held(DFIRST[m], DN[m], DR[m], lox, loy, hix, hiy, DTOL[m] + SR_MARGIN) then
        found = m
      end
    end
    j = j + 1
  end
  if found >= 0 then
    SR_LASTCERT = found
  end
  CERT[fine] = found
  return found
end

-- Whether the differences near a piece of difference k cover it (see sat_union.c).
local function covered(k, cv)
  SR_SERIAL = SR_SERIAL + 1
  if ask(k, HINT[k], cv) or ask(k, SR_COVER, cv) then
    return true
  end
  if cv.arc then -- (one difference holds it all: the cell of its first hull point lists it)
    local cell = grid_cell(cv.hx[0], cv.hy[0])
    for j = GSTART[cell], GSTART[cell + 1] - 1 do
      if ask(k, GITEM[j], cv) then
        return true
      end
    end
    return false
  end
  local gap = cv.gap
  while true do
    local front = gap[0]
    local fx, fy = cv.p0x + cv.ex * front, cv.p0y + cv.ey * front
    local cell = grid_cell(fx, fy)
    local ccx, ccy = fine_cell(fx, fy)
    local m = cell_cover(ccx, ccy)
    local moved = false
    if m >= 0 and m ~= k then -- (what of it is in the cell's rectangle is covered)
      local lox, loy, hix, hiy = cell_rect(ccx, ccy)
      local a, b = slab(cv.p0x, cv.ex, lox, hix, -HUGE, HUGE)
      a, b = slab(cv.p0y, cv.ey, loy, hiy, a, b)
      if a < b then
        cv.n = cut(gap, cv.n, a, b)
      end
      if cv.n == 0 then
        return true
      end
      moved = gap[0] ~= front
    end
    local h = 0
    while not moved and h < SAT__HINTS and gap[0] == front do
      if ask(k, CHINT[SAT__HINTS * cell + h], cv) then
        return true
      end
      h = h + 1
    end
    local j, stop = GSTART[cell], GSTART[cell + 1]
    if moved then
      j = stop
    end
    while j < stop and gap[0] == front do
      m = GITEM[j]
      if not (fx < DLOX[m] or fx > DHIX[m] or fy < DLOY[m] or fy > DHIY[m] or
        STAMP[m] == SR_SERIAL or m == k or
        not holds(DFIRST[m], DN[m], DR[m], fx, fy, DTOL[m] + SR_MARGIN)) then
        local at = SAT__HINTS * cell
        h = 0
        while h < SAT__HINTS - 1 and CHINT[at + h] ~= m do
          h = h + 1
        end
        while h > 0 do -- (to the front, the others one on)
          CHINT[at + h] = CHINT[at + h - 1]
          h = h - 1
        end
        CHINT[at] = m
        if ask(k, m, cv) then
          return true
        end
      end
      j = j + 1
    end
    if gap[0] == front then
      return false
    end
  end
end

-- Whether some of a segment piece of difference k is left uncovered within the annulus
-- floor <= |t| <= the best so far (both widened by the margin).
local function segment_exposed(k, pc, before)
  local cv = CV
  local p0x, p0y = pc.p0x, pc.p0y
  local ex, ey = pc.p1x - p0x, pc.p1y - p0y
  local A, B, P = ex * ex + ey * ey, p0x * ex + p0y * ey, p0x * p0x + p0y * p0y
  local R, F = fmin(SR_BEST, SR_CAP) + SR_MARGIN, SR_FLOOR - SR_MARGIN
  if before and SR_DONE > F then
    F = SR_DONE -- (covered within it in the rounds before)
  end
  local disc = B * B - A * (P - R * R)
  if not (A > 0.0) or not (disc >= 0.0) then
    return false
  end
  local sq = sqrt(disc)
  local gap = cv.gap
  cv.arc = false
  cv.p0x, cv.p0y = p0x, p0y
  cv.ex, cv.ey = ex, ey
  gap[0] = fmax(0.0, (-B - sq) / A)
  gap[1] = fmin(1.0, (-B + sq) / A)
  cv.n = gap[0] <= gap[1] and 1 or 0
  disc = B * B - A * (P - F * F)
  if cv.n ~= 0 and F > 0.0 and disc > 0.0 then
    sq = sqrt(disc)
    cv.n = cut(gap, cv.n, (-B - sq) / A, (-B + sq) / A)
  end
  if cv.n == 0 then
    return false
  end
  local g0, g1 = gap[0], gap[2 * cv.n - 1]
  local q0x, q0y = p0x + ex * g0, p0y + ey * g0
  local q1x, q1y = p0x + ex * g1, p0y + ey * g1
  cv.lox, cv.loy = fmin(q0x, q1x), fmin(q0y, q1y)
  cv.hix, cv.hiy = fmax(q0x, q1x), fmax(q0y, q1y)
  return not covered(k, cv)
end

-- Whether an arc piece of difference k is inside no single other difference.
local function arc_exposed(k, pc)
  local cv = CV
  cv.arc = true
  cv.np = arc_hull(pc, cv)
  if cv.np == 0 then
    return true
  end
  local hx, hy = cv.hx, cv.hy
  local lox, loy, hix, hiy = hx[0], hy[0], hx[0], hy[0]
  for i = 1, cv.np - 1 do
    lox, loy = fmin(lox, hx[i]), fmin(loy, hy[i])
    hix, hiy = fmax(hix, hx[i]), fmax(hiy, hy[i])
  end
  cv.lox, cv.loy, cv.hix, cv.hiy = lox, loy, hix, hiy
  return not covered(k, cv)
end

-- ---- the pruned search ------------------------------------------------------------------------

-- The distance from the origin to a difference's box.
local function box_dist(d)
  local dx = fmax(0.0, fmax(DLOX[d], -DHIX[d]))
  local dy = fmax(0.0, fmax(DLOY[d], -DHIY[d]))
  return sqrt(dx * dx + dy * dy)
end

-- The distance from the origin to the farthest corner of a difference's box.
local function box_far(d)
  local dx = fmax(-DLOX[d], DHIX[d])
  local dy = fmax(-DLOY[d], DHIY[d])
  return sqrt(dx * dx + dy * dy)
end

-- Puts the differences in order into out by a class each, each class in index order (a
-- counting sort).
local COUNT = {}
local function by_class(nd, cls, classes, out)
  local count = COUNT
  for c = 0, 64 do
    count[c] = 0
  end
  for k = 0, nd - 1 do
    count[cls[k] + 1] = count[cls[k] + 1] + 1
  end
  for c = 0, classes - 1 do
    count[c + 1] = count[c + 1] + count[c]
  end
  for k = 0, nd - 1 do
    local c = cls[k]
    out[count[c]] = k
    count[c] = count[c] + 1
  end
end

-- The grid over the differences' boxes within cap, each cell's differences deepest first,
-- the order of the search, the stamps and hints (see sat_union.c).
local function search_begin(cap)
  local nd = ND
  local g = G
  local R, side, top = cap + SR_MARGIN, 0.0, 0.0
  local lox, loy, hix, hiy = DLOX[0], DLOY[0], DHIX[0], DHIY[0]
  NEX = 0
  for k = 0, nd - 1 do
    lox, loy = fmin(lox, DLOX[k]), fmin(loy, DLOY[k])
    hix, hiy = fmax(hix, DHIX[k]), fmax(hiy, DHIY[k])
    side = side + ((DHIX[k] - DLOX[k]) + (DHIY[k] - DLOY[k]))
    top = fmax(top, DDEEP[k])
  end
  lox, loy = fmin(fmax(lox, -R), R), fmin(fmax(loy, -R), R)
  hix, hiy = fmax(fmin(hix, R), lox), fmax(fmin(hiy, R), loy)
  local ext = fmax(hix - lox, hiy - loy)
  local w = fmax(side / (4.0 * nd), ext / 256.0)
  local entries
  g.x0 = lox
  g.y0 = loy
  g.w = w > 0.0 and w or 1.0
  while true do
    g.nx = grid_at(hix, g.x0, g.w, 257) + 1
    g.ny = grid_at(hiy, g.y0, g.w, 257) + 1
    entries = 0
    for k = 0, nd - 1 do
      entries = entries + (grid_at(DHIX[k], g.x0, g.w, g.nx) - grid_at(DLOX[k], g.x0, g.w, g.nx)
        + 1) * (grid_at(DHIY[k], g.y0, g.w, g.ny) - grid_at(DLOY[k], g.y0, g.w, g.ny) + 1)
    end
    if (entries <= 16 * nd and g.nx * g.ny <= 4 * nd) or g.nx * g.ny == 1 then
      break
    end
    g.w = g.w * 2.0
  end
  local cells = g.nx * g.ny
  -- the differences deepest first, into the grid
  for k = 0, nd - 1 do
    local lim = 0.5 * top
    local c = 0
    while c < 7 and not (DDEEP[k] >= lim) do
      c = c + 1
      lim = lim * 0.5
    end
    CLS[k] = c
  end
  local deepest_first = STAMP
  by_class(nd, CLS, 8, deepest_first)
  for c = 0, cells do
    GSTART[c] = 0
  end
  for pass = 0, 1 do
    for i = 0, nd - 1 do
      local d = deepest_first[i]
      local c0, c1 = grid_at(DLOX[d], g.x0, g.w, g.nx), grid_at(DHIX[d], g.x0, g.w, g.nx)
      local r0, r1 = grid_at(DLOY[d], g.y0, g.w, g.ny), grid_at(DHIY[d], g.y0, g.w, g.ny)
      for r = r0, r1 do
        for c = c0, c1 do
          local cell = r * g.nx + c
          if pass == 0 then
            GSTART[cell + 1] = GSTART[cell + 1] + 1
          else
            GITEM[GSTART[cell]] = d
            GSTART[cell] = GSTART[cell] + 1
          end
        end
      end
    end
    if pass == 0 then
      for c = 0, cells - 1 do
        GSTART[c + 1] = GSTART[c + 1] + GSTART[c]
      end
    else
      for c = cells, 1, -1 do -- each start moved to its end: back one cell
        GSTART[c] = GSTART[c - 1]
      end
    end
  end
  GSTART[0] = 0
  -- the search's order: by the distance of the boxes
  for k = 0, nd - 1 do
    local f = floor(32.0 * box_dist(k) / (cap > 0.0 and cap or 1.0))
    CLS[k] = f < 31.0 and f or 31
  end
  by_class(nd, CLS, 32, ORDER)
  for k = 0, nd - 1 do
    STAMP[k] = 0
    HINT[k] = -1
  end
  for c = 0, SAT__HINTS * cells - 1 do
    CHINT[c] = -1
  end
  SR_FW = g.w / SAT__SUB
  for c = 0, cells * SAT__SUB * SAT__SUB - 1 do
    CERT[c] = -2
  end
  SR_LASTCERT = -1
  SR_SERIAL = 0
  SR_COVER = -1
end

-- Raises the floor to the radius of a disc about the origin that the certified cells cover,
-- the cells asked ring by ring about the origin's (see the C's raise_floor).
local function raise_floor()
  local g, fw = G, SR_FW
  local fnx, fny = g.nx * SAT__SUB, g.ny * SAT__SUB
  local x0, y0 = g.x0, g.y0
  local x1, y1 = x0 + fnx * fw, y0 + fny * fw
  if not (x0 < 0.0 and y0 < 0.0 and x1 > 0.0 and y1 > 0.0) then
    return
  end
  local rho = fmin(fmin(-x0, x1), fmin(-y0, y1))
  local ox, oy = grid_at(0.0, x0, fw, fnx), grid_at(0.0, y0, fw, fny)
  local k = 0
  while (k - 1) * fw < rho and (k - 1) * fw < SR_CAP do
    -- the ring's cells in turn around it
    local side = 2 * k
    local cells = k == 0 and 1 or 4 * side
    for q = 0, cells - 1 do
      local cx, cy
      if k == 0 then
        cx, cy = ox, oy
      elseif q < side then
        cx, cy = ox - k + q, oy - k
      elseif q < 2 * side then
        cx, cy = ox + k, oy - k + (q - side)
      elseif q < 3 * side then
        cx, cy = ox + k - (q - 2 * side), oy + k
      else
        cx, cy = ox - k, oy + k - (q - 3 * side)
      end
      if not (cx < 0 or cx >= fnx or cy < 0 or cy >= fny) then
        local lx, hx = x0 + cx * fw, x0 + (cx + 1) * fw
        local ly, hy = y0 + cy * fw, y0 + (cy + 1) * fw
        local dx, dy = fmax(0.0, fmax(lx, -hx)), fmax(0.0, fmax(ly, -hy))
        local dmin = sqrt(dx * dx + dy * dy)
        if dmin < rho and cell_cover(cx, cy) < 0 then
          rho = dmin
        end
      end
    end
    k = k + 1
  end
  rho = rho - SR_MARGIN
  if rho > SR_FLOOR then
    SR_FLOOR = rho
  end
end

-- Keeps an exposed piece (idx of difference k) and considers its own points.
local function expose(k, idx, pc)
  local e = EX[NEX]
  if e == nil then
    e = {}
    EX[NEX] = e
  end
  copy_piece(e, pc)
  EXD[2 * NEX] = k
  EXD[2 * NEX + 1] = idx
  NEX = NEX + 1
  local n = piece_points(pc)
  local di, dj = DI[k], DJ[k]
  for i = 0, n - 1 do
    consider(CX[i], CY[i], set_rank(0, di, dj, idx, i, 0, 0))
  end
end

local PC, VPC = {}, {}

-- Piece idx (odd: an arc, or a corner) of difference k; adjacent: an edge next to it is
-- exposed.
local function vertex_piece(k, idx, adjacent)
  local pc = VPC
  local fl = DFIRST[k] + (idx - idx % 2) / 2
  if not (DR[k] > 0.0) and not adjacent then
    return -- (a corner of two covered edges)
  end
  get_piece(k, idx, pc)
  if pc.far < SR_FLOOR then
    return
  end
  if not (pc.r > 0.0) then
    consider(pc.cx, pc.cy, set_rank(0, DI[k], DJ[k], idx, 0, 0, 0))
    return
  end
  if pc.dist < fmin(SR_BEST, SR_CAP) and not ACOV[fl] then
    if arc_exposed(k, pc) then
      expose(k, idx, pc)
    else
      ACOV[fl] = true -- (covered: in the next rounds too)
    end
  end
end

-- Every difference's exposed pieces (those nearer than the best so far), the differences
-- nearest first.
local function expose_all()
  local pc = PC
  for o = 0, ND - 1 do
    local k = ORDER[o]
    -- (its box beyond, or within the floor: every piece is)
    if not (box_dist(k) > fmin(SR_BEST, SR_CAP) + SR_MARGIN) and
      not (box_far(k) + SR_MARGIN < SR_FLOOR) then
      local n = DN[k]
      if n == 1 then
        vertex_piece(k, 0, true) -- the whole circle, or a point
      else
        local first, prev = false, false
        local f0 = DFIRST[k]
        for i = 0, n - 1 do
          local x, open = false, false -- open: exposed, or not asked (beyond the annulus)
          if DROP[f0 + i] == 0 then -- (a dropped edge is never exposed)
            get_piece(k, 2 * i, pc)
            if pc.dist < fmin(SR_BEST, SR_CAP) and pc.far >= SR_FLOOR then
              x = segment_exposed(k, pc, ECOV[f0 + i])
              ECOV[f0 + i] = not x
            end
            open = x or not (pc.dist < fmin(SR_BEST, SR_CAP) and pc.far >= SR_FLOOR)
          end
          if x then
            expose(k, 2 * i, pc)
          end
          if i == 0 then
            first = open
          else
            vertex_piece(k, 2 * i - 1, prev or open)
          end
          prev = open
        end
        vertex_piece(k, 2 * n - 1, prev or first)
      end
    end
  end
end

-- The exposed pieces in order of their boxes' left sides (a total order: ties by index).
local OX = {}
local function by_x_less(p, q)
  local px, qx = EX[p].lox, EX[q].lox
  if px < qx then
    return true
  end
  if px > qx then
    return false
  end
  return p < q
end

-- The crossings of exposed pieces of different differences, each pair as the exhaustive
-- search takes it (D_ij before D_i'j').
local function cross_exposed()
  local n = NEX
  local o = OX
  for i = 1, n do
    o[i] = i - 1
  end
  for i = n + 1, #o do
    o[i] = nil
  end
  sort(o, by_x_less)
  for u = 1, n do
    local pu = EX[o[u]]
    local w = u + 1
    while w <= n and not (pu.hix < EX[o[w]].lox) do
      local p, q = pu, EX[o[w]]
      local dp, dq = 2 * o[u], 2 * o[w]
      local a, b = EXD[dp], EXD[dq]
      if not (b == a or p.hiy < q.loy or q.hiy < p.loy or not (p.dist < SR_BEST) or
        not (q.dist < SR_BEST) or not boxes_cross(a, b)) then
        if DI[b] < DI[a] or (DI[b] == DI[a] and DJ[b] < DJ[a]) then
          p, q = q, p
          dp, dq = dq, dp
          a, b = b, a
        end
        local m = cross_pieces(p, q)
        for j = 0, m - 1 do
          consider(XX[j], XY[j], set_rank(1, DI[a], DJ[a], DI[b], DJ[b], EXD[dp + 1],
            2 * EXD[dq + 1] + j))
        end
      end
      w = w + 1
    end
  end
end

-- The shortest move along an axis that takes a's box (of its parts) off b's: an upper bound
-- of the answer.
local function box_exit(A, alox, aloy, ahix, ahiy, B, blox, bloy, bhix, bhiy)
  local lo0x, lo0y, hi0x, hi0y = HUGE, HUGE, -HUGE, -HUGE
  for i = 0, nparts(A) - 1 do
    local cx, cy = offset(A, part_of(A, i))
    local lx, ly, hx, hy = box_of(A, i, alox, aloy, ahix, ahiy)
    lo0x, lo0y = fmin(lo0x, cx + lx), fmin(lo0y, cy + ly)
    hi0x, hi0y = fmax(hi0x, cx + hx), fmax(hi0y, cy + hy)
  end
  local lo1x, lo1y, hi1x, hi1y = HUGE, HUGE, -HUGE, -HUGE
  for i = 0, nparts(B) - 1 do
    local cx, cy = offset(A, part_of(B, i))
    local lx, ly, hx, hy = box_of(B, i, blox, bloy, bhix, bhiy)
    lo1x, lo1y = fmin(lo1x, cx + lx), fmin(lo1y, cy + ly)
    hi1x, hi1y = fmax(hi1x, cx + hx), fmax(hi1y, cy + hy)
  end
  return fmin(fmin(hi1x - lo0x, hi0x - lo1x), fmin(hi1y - lo0y, hi0y - lo1y))
end

-- Whether c is inside no difference (all asked).
local function outside_all(cx, cy)
  for k = 0, ND - 1 do
    if refuses(k, cx, cy) then
      return false
    end
  end
  return true
end

-- Where the parts of a and b are and their boxes (the C's placed), reused by every call.
local PL_CX, PL_CY, PL_LOX, PL_LOY, PL_HIX, PL_HIY = {}, {}, {}, {}, {}, {}

-- The shortest t out of the union -> tx, ty (see sat_union.c's union_mtv).
local function union_mtv(A, B, tol, dmx, dmy, deepest)
  local na, nb = nparts(A), nparts(B)
  local alox, aloy, ahix, ahiy = own_box(A)
  local blox, bloy, bhix, bhiy = own_box(B)
  local size = A.bound + B.bound
  local ub = box_exit(A, alox, aloy, ahix, ahiy, B, blox, bloy, bhix, bhiy) * (1.0 + 1e-9) +
    1e-9 * size + tol
  local reach, built = fmin(2.0 * deepest + tol, ub), -HUGE
  local tx, ty
  NV, ND = 0, 0
  SR_DONE = 0.0
  facts_begin(FA, A)
  facts_begin(FB, B)
  SR_MARGIN = 1e-7 * size
  SR_FLOOR = deepest - 1e-9 * size - tol
  SR_BEST, SR_CAP, SR_LAST, SR_ATX, SR_ATY = 0.0, 0.0, 0, 0.0, 0.0
  for i = 0, 6 do
    SR_RANK[i] = 0
  end
  -- where the parts are and their boxes (the C's placed): a's at 0 .. na - 1, b's at na ..
  local PCX, PCY, PLX, PLY, PHX, PHY = PL_CX, PL_CY, PL_LOX, PL_LOY, PL_HIX, PL_HIY
  for i = 0, na - 1 do
    local x = part_of(A, i)
    PCX[i], PCY[i] = offset(A, x)
    PLX[i], PLY[i], PHX[i], PHY[i] = box_of(A, i, alox, aloy, ahix, ahiy)
  end
  for j = 0, nb - 1 do
    local y = part_of(B, j)
    PCX[na + j], PCY[na + j] = offset(A, y)
    PLX[na + j], PLY[na + j], PHX[na + j], PHY[na + j] = box_of(B, j, blox, bloy, bhix, bhiy)
  end
  -- most part pairs within the first reach (two overlapping concave shapes): all of them at
  -- once, never asked twice
  local within = 0
  for i = 0, na - 1 do
    local xlox, xloy, xhix, xhiy, cax, cay = PLX[i], PLY[i], PHX[i], PHY[i], PCX[i], PCY[i]
    for j = na, na + nb - 1 do
      if not (box_reach(xlox, xloy, xhix, xhiy, cax, cay, PLX[j], PLY[j], PHX[j], PHY[j], PCX[j],
        PCY[j]) > reach) then
        within = within + 1
      end
    end
  end
  if 2 * within >= na * nb then
    reach = ub
  end
  local round = 0
  while true do
    -- the differences newly in reach
    local beyond = HUGE
    for i = 0, na - 1 do
      local x = part_of(A, i)
      local xlox, xloy, xhix, xhiy, cax, cay = PLX[i], PLY[i], PHX[i], PHY[i], PCX[i], PCY[i]
      for j = na, na + nb - 1 do
        local cbx, cby = PCX[j], PCY[j]
        local lb = box_reach(xlox, xloy, xhix, xhiy, cax, cay, PLX[j], PLY[j], PHX[j], PHY[j],
          cbx, cby)
        if lb > reach then
          beyond = fmin(beyond, lb)
        elseif lb > built then
          add_diff(x, cax, cay, part_of(B, j - na), cbx, cby, i, j - na)
        end
      end
    end
    built = reach
    if round == 0 and outside_all(dmx, dmy) then
      -- the deepest pair's own MTV, when it leaves every other difference, is the least
      -- there can be
      tx, ty = dmx, dmy
      break
    end
    SR_BEST = HUGE
    SR_CAP = fmin(beyond, ub)
    SR_LAST = 0
    search_begin(SR_CAP)
    raise_floor()
    expose_all()
    cross_exposed()
    if SR_BEST < HUGE or not (beyond < HUGE) then
      if not (SR_BEST < HUGE) then
        return nil -- (the C's failure: no answer)
      end
      tx, ty = SR_ATX, SR_ATY
      break
    end
    SR_DONE = fmin(SR_BEST, SR_CAP) + SR_MARGIN
    if not (reach < ub) then
      ub = HUGE -- (rounding: no answer within the bound)
    end
    reach = fmin(4.0 * fmax(beyond, reach), ub)
    round = round + 1
  end
  return tx, ty
end

-- The search's state is this file's (the C's is on its stack): a call made during one (a
-- finalizer run by an allocation while the arena grows, calling into sat) gets no answer
-- (nil: the deepest pair's result, as the C's when out of memory) rather than spoil the one
-- under way; an error (out of memory) leaves the state free again.
local busy = false
local function union_mtv_guarded(A, B, tol, dmx, dmy, deepest)
  if busy then
    return nil
  end
  busy = true
  local ok, tx, ty = pcall(union_mtv, A, B, tol, dmx, dmy, deepest)
  busy = false
  if not ok then
    error(tx, 0)
  end
  return tx, ty
end
M.sat__union_mtv = union_mtv_guarded

-- ---- the pair tests ------------------------------------------------------------------------

-- The boxes of x and y (parts) come within the pair's own gap (sat__part_gap: the one rule
-- of every compound path).
local function boxes_meet(x, xlox, xloy, xhix, xhiy, y, ylox, yloy, yhix, yhiy)
  local dx, dy = offset(x, y)
  local tol = 4.0 * (SAT_TOUCH_REL * (x.bound + y.bound))
  return not (dx + ylox - xhix > tol or xlox - (dx + yhix) > tol or dy + yloy - xhiy > tol or
    xloy - (dy + yhiy) > tol)
end

--- sat__compound_test(a, b) -> 1/0
function M.sat__compound_test(a, b)
  if not pair_test then
    fns()
  end
  local ap, alx, aly, ahx, ahy, na = part_arrays(a, 1)
  local bp, blx, bly, bhx, bhy, nb = part_arrays(b, 2)
  for i = 1, na do
    local x = ap[i]
    local xlox, xloy, xhix, xhiy = alx[i], aly[i], ahx[i], ahy[i]
    local xpx, xpy, xplx, xply, xb = x.px, x.py, x.plx, x.ply, x.bound
    for j = 1, nb do
      local y = bp[j]
      -- boxes_meet
      local dx = (y.px - xpx) + (y.plx - xplx)
      local tol = 4.0 * (SAT_TOUCH_REL * (xb + y.bound))
      if not (dx + blx[j] - xhix > tol or xlox - (dx + bhx[j]) > tol) then
        local dy = (y.py - xpy) + (y.ply - xply)
        if not (dy + bly[j] - xhiy > tol or xloy - (dy + bhy[j]) > tol) and
          pair_test(x, y) == 1 then
          return 1
        end
      end
    end
  end
  return 0
end

local G_SEG, R_OUT = {}, {}

-- Whether x (a part; its box xlo, xhi) is inside a concave shape's outline: its position
-- inside, and no edge of the outline entering it beyond the touch tolerance.
local function in_outline(x, xlox, xloy, xhix, xhiy, s)
  local N = s.on
  local inside = false
  local owx, owy = s.owx, s.owy
  local px, py = offset(s, x)
  local j = N
  for i = 1, N do
    local oix, oiy, ojx, ojy = owx[i], owy[i], owx[j], owy[j]
    if (oiy > py) ~= (ojy > py) and
      px < ojx + (py - ojy) * (oix - ojx) / (oiy - ojy) then
      inside = not inside
    end
    j = i
  end
  if not inside then
    return false
  end
  local g = G_SEG
  local tol = touch_tol(x, s)
  for i = 1, N do
    local k = i % N + 1
    local e0x, e0y, e1x, e1y = owx[i], owy[i], owx[k], owy[k]
    local lox, loy = fmin(e0x, e1x), fmin(e0y, e1y)
    local hix, hiy = fmax(e0x, e1x), fmax(e0y, e1y)
    if not (lox > px + xhix or hix < px + xlox or loy > py + xhiy or hiy < py + xloy) and
      S.sat_segment_init(g, e0x, e0y, e1x, e1y) == SAT_OK then
      g.plx, g.ply = s.plx, s.ply
      g.px, g.plx = dd_add(g.px, g.plx, s.px)
      g.py, g.ply = dd_add(g.py, g.ply, s.py)
      local r = R_OUT
      if pair_collide(x, g, r) == 1 and r.overlap > tol then
        return false
      end
    end
  end
  return true
end

-- Whether part x is inside the shape s: its outline for a concave one, else one part.
local function part_inside(x, xlox, xloy, xhix, xhiy, s, slox, sloy, shix, shiy)
  if s.kind == SAT_COMPOUND and s.form == SAT_FORM_CONCAVE then
    return in_outline(x, xlox, xloy, xhix, xhiy, s)
  end
  local r = R_OUT
  for j = 0, nparts(s) - 1 do
    local y = part_of(s, j)
    local ylox, yloy, yhix, yhiy = box_of(s, j, slox, sloy, shix, shiy)
    if boxes_meet(x, xlox, xloy, xhix, xhiy, y, ylox, yloy, yhix, yhiy) and
      pair_collide(x, y, r) == 1 and r.a_in_b == 1 then
      return true
    end
  end
  return false
end

local function all_inside(a, alox, aloy, ahix, ahiy, b, blox, bloy, bhix, bhiy)
  for i = 0, nparts(a) - 1 do
    local xlox, xloy, xhix, xhiy = box_of(a, i, alox, aloy, ahix, ahiy)
    if not part_inside(part_of(a, i), xlox, xloy, xhix, xhiy, b, blox, bloy, bhix, bhiy) then
      return 0
    end
  end
  return 1
end

-- ---- seams -------------------------------------------------------------------------------
-- A concave's parts meet along seams: edges of its parts inside its outline, no surface of
-- the shape, so their normals are none of its. A pair of parts touching where a seam meets
-- the outline (an inner corner) may give one; the union's answer there is another pair's.

-- The squared distance from (px, py) to the segment from (x0, y0) to (x1, y1).
local function seg_dist2(px, py, x0, y0, x1, y1)
  local ex, ey, qx, qy = x1 - x0, y1 - y0, px - x0, py - y0
  local ee = ex * ex + ey * ey
  local u = ee > 0.0 and (qx * ex + qy * ey) / ee or 0.0
  u = u < 0.0 and 0.0 or u > 1.0 and 1.0 or u
  local dx, dy = qx - ex * u, qy - ey * u
  return dx * dx + dy * dy
end

-- Whether (nx, ny) is the outward normal of a seam of part i (1-based) of c: an edge with
-- that normal, bit for bit, that holds no edge of the outline (both ends within tol of it).
local function seam_normal(c, i, nx, ny)
  if c.kind ~= SAT_COMPOUND or c.on == 0 then
    return false
  end
  local p = c.parts[i]
  if p.kind ~= SAT_POLYGON then
    return false
  end
  local pnx, pny, ox, oy, n = p.nx, p.ny, p.ox, p.oy, p.count
  local wx, wy, N = c.owx, c.owy, c.on
  for f = 1, n do
    if pnx[f] == nx and pny[f] == ny then
      local atx, aty = c.tox[i], c.toy[i]
      local g = f == n and 1 or f + 1
      local x0, y0, x1, y1 = atx + ox[f], aty + oy[f], atx + ox[g], aty + oy[g]
      local tol = SAT_MERGE_REL * c.bound
      local tt = tol * tol
      for k = 1, N do
        local k1 = k == N and 1 or k + 1
        if seg_dist2(wx[k], wy[k], x0, y0, x1, y1) <= tt and
          seg_dist2(wx[k1], wy[k1], x0, y0, x1, y1) <= tt then
          return false
        end
      end
      return true
    end
  end
  return false
end

--- sat__seam_pair(a, i, b, j, nx, ny) -> boolean: whether (nx, ny) (from a toward b) is the
-- normal of a seam of part i of a or part j of b (1-based).
local function seam_pair(a, i, b, j, nx, ny)
  return seam_normal(b, j, -nx, -ny) or seam_normal(a, i, nx, ny)
end
M.sat__seam_pair = seam_pair

local PR, FIRST, DEEPEST, PT = {}, {}, {}, {}

local function copy_result(dst, src)
  dst.overlap, dst.nx, dst.ny, dst.mx, dst.my = src.overlap, src.nx, src.ny, src.mx, src.my
  dst.a_in_b, dst.b_in_a = src.a_in_b, src.b_in_a
end

-- The first part pair after (fi, fj) (1-based), in the pairs' order, touching with a normal
-- that is no seam's: its result in r, if any.
local function next_touch(a, b, fi, fj, r)
  local ap, alx, aly, ahx, ahy, na = part_arrays(a, 1)
  local bp, blx, bly, bhx, bhy, nb = part_arrays(b, 2)
  local pr = PT
  for i = fi, na do
    local x = ap[i]
    for j = i == fi and fj + 1 or 1, nb do
      local y = bp[j]
      if boxes_meet(x, alx[i], aly[i], ahx[i], ahy[i], y, blx[j], bly[j], bhx[j], bhy[j]) and
        pair_collide(x, y, pr) == 1 and not seam_pair(a, i, b, j, pr.nx, pr.ny) then
        copy_result(r, pr)
        return
      end
    end
  end
end

--- sat__compound_collide(a, b, r) -> 1 (r filled) or 0
function M.sat__compound_collide(a, b, r)
  if not pair_test then
    fns()
  end
  local tol = touch_tol(a, b)
  local alox, aloy, ahix, ahiy = own_box(a)
  local blox, bloy, bhix, bhiy = own_box(b)
  local any, deep, single, fi, fj = false, false, true, 1, 1
  local pr, first, deepest = PR, FIRST, DEEPEST
  local ap, alx, aly, ahx, ahy, na = part_arrays(a, 1)
  local bp, blx, bly, bhx, bhy, nb = part_arrays(b, 2)
  for i = 1, na do
    local x = ap[i]
    local xlox, xloy, xhix, xhiy = alx[i], aly[i], ahx[i], ahy[i]
    local xpx, xpy, xplx, xply, xb = x.px, x.py, x.plx, x.ply, x.bound
    for j = 1, nb do
      local y = bp[j]
      -- boxes_meet
      local dx = (y.px - xpx) + (y.plx - xplx)
      local gap = 4.0 * (SAT_TOUCH_REL * (xb + y.bound))
      if not (dx + blx[j] - xhix > gap or xlox - (dx + bhx[j]) > gap) then
        local dy = (y.py - xpy) + (y.ply - xply)
        if not (dy + bly[j] - xhiy > gap or xloy - (dy + bhy[j]) > gap) and
          pair_collide(x, y, pr) == 1 then
          if not any then
            copy_result(first, pr)
            fi, fj = i, j
          end
          any = true
          if pr.overlap > 0.0 then
            if deep then
              single = false
            end
            if not deep or pr.overlap > deepest.overlap then
              copy_result(deepest, pr)
            end
            deep = true
          end
        end
      end
    end
  end
  if not any then
    return 0
  end
  if not deep then
    -- touching only: the first pair's result, or when its normal is a seam's, the first
    -- pair's that is not (the first's when every one is)
    copy_result(r, first)
    if seam_pair(a, fi, b, fj, first.nx, first.ny) then
      next_touch(a, b, fi, fj, r)
    end
  else
    -- one part pair overlapping, and every other difference's box beyond its MTV: that MTV
    -- is the union's
    if single then
      local within = 0
      local lim = deepest.overlap + tol
      local apx, apy, aplx, aply = a.px, a.py, a.plx, a.ply
      for i = 1, na do
        local x = ap[i]
        local cax, cay = (x.px - apx) + (x.plx - aplx), (x.py - apy) + (x.ply - aply)
        local xlox, xloy, xhix, xhiy = alx[i], aly[i], ahx[i], ahy[i]
        for j = 1, nb do
          local y = bp[j]
          local cbx, cby = (y.px - apx) + (y.plx - aplx), (y.py - apy) + (y.ply - aply)
          if box_reach(xlox, xloy, xhix, xhiy, cax, cay, blx[j], bly[j], bhx[j], bhy[j], cbx,
            cby) <= lim then
            within = within + 1
          end
        end
      end
      single = within == 1
    end
    if single then
      copy_result(r, deepest)
    else
      local tx, ty = union_mtv_guarded(a, b, tol, deepest.mx, deepest.my, deepest.overlap)
      if tx == nil then
        copy_result(r, deepest) -- (the C's: no answer, the deepest pair's)
      else
        local nx, ny, l = normalize(tx, ty)
        r.overlap = l
        r.nx, r.ny = -nx + 0.0, -ny + 0.0
        r.mx, r.my = tx, ty
        if nx == 0.0 and ny == 0.0 then
          r.overlap = 0.0
          r.nx, r.ny = deepest.nx, deepest.ny
          r.mx, r.my = 0.0, 0.0
        end
      end
    end
  end
  r.a_in_b = all_inside(a, alox, aloy, ahix, ahiy, b, blox, bloy, bhix, bhiy)
  r.b_in_a = all_inside(b, blox, bloy, bhix, bhiy, a, alox, aloy, ahix, ahiy)
  return 1
end

return M
