--- sat_contacts.lua - the pure backend's twin of src/core/sat_contacts.c: contact points
-- (sat_contacts) and the swept test with its contact point (sat_sweep_contact). See the C
-- for the method: the contacts lie on lines along the collision normal, each the middle of
-- the two shapes' common chord there.
--
-- sat_contacts(a, b) -> n, x1, y1, x2, y2: 0, 1 or 2 points (numbers, nothing allocated).
-- sat_sweep_contact(a, vax, vay, b, vbx, vby, hit) -> 1, px, py (and hit filled, as
-- sat_sweep fills it) or 0.
-- sat_sweep_point(a, vax, vay, b, vbx, vby, hit) -> px, py: that point for a hit already
-- found (sat_hash_sweep's, for world:queryCast).
--
-- A line of the contact is x = tau * t + lambda * n, t = perp(n): passed as the numbers tx,
-- ty, nx, ny, tau, tol (the pair's touch tolerance) to the functions below.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
local I = require("sat.pure.sat_internal")
local K = require("sat.pure.sat_constants")
local C = require("sat.pure.sat_collide")
local E = require("sat.pure.sat_explain")
local SW = require("sat.pure.sat_sweep")
local S = require("sat.pure.sat_shape")

local M = {}

local sqrt, abs = math.sqrt, math.abs
local HUGE = math.huge
local in_range = I.sat__in_range
local SAT_POLYGON, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_TOUCH_REL, SAT_CONTACT_FACE_COS, SAT_CONTACT_PARALLEL =
  K.SAT_TOUCH_REL, K.SAT_CONTACT_FACE_COS, K.SAT_CONTACT_PARALLEL
local sat_collide, sat_test, comes_first = C.sat_collide, C.sat_test, C.sat__comes_first
local interval, sweep = E.sat__interval, SW.sat_sweep
local sat__box, part_box = S.sat__box, SW.sat__part_box
local part_of = I.sat__part_of

-- The empty chord.
local NONE_LO, NONE_HI = HUGE, -HUGE

local function has_segment(s)
  local k = s.kind
  return k == SAT_SEGMENT or k == SAT_CAPSULE
end

-- Narrows [lo, hi] to the part of the line in {x : m . x <= h}. A line along the boundary
-- (m square to n) is inside when within the tolerance.
local function clip_plane(tx, ty, nx, ny, tau, tol, mx, my, h, lo, hi)
  local nm, rhs = nx * mx + ny * my, h - tau * (tx * mx + ty * my)
  if (nm < 0 and -nm or nm + 0.0) <= SAT_CONTACT_PARALLEL then
    if rhs < -tol then
      return NONE_LO, NONE_HI
    end
    return lo, hi
  end
  local v = rhs / nm
  if nm > 0.0 then
    hi = v < hi and v or hi
  else
    lo = v > lo and v or lo
  end
  return lo, hi
end

-- The chord of the disk of radius r about c (within the tolerance: a line grazing it meets
-- it at one point).
local function disk_chord(tx, ty, nx, ny, tau, tol, cx, cy, r)
  local off, at = (cx * tx + cy * ty) - tau, cx * nx + cy * ny
  local disc = r * r - off * off
  if disc >= 0.0 then
    local half = sqrt(disc)
    return at - half, at + half
  elseif (off < 0 and -off or off + 0.0) <= r + tol then
    return at, at
  end
  return NONE_LO, NONE_HI
end

-- The chord of shape s (at offset c) on the line.
local function chord(s, cx, cy, tx, ty, nx, ny, tau, tol)
  local lo, hi = -HUGE, HUGE
  if s.kind == SAT_POLYGON then
    local mxs, mys, sup = s.nx, s.ny, s.sup
    for i = 1, s.count do -- every plane: a rounding inversion is no miss
      local mx, my = mxs[i], mys[i]
      lo, hi = clip_plane(tx, ty, nx, ny, tau, tol, mx, my, sup[i] + (cx * mx + cy * my), lo, hi)
    end
    return lo, hi
  end
  if not has_segment(s) then
    return disk_chord(tx, ty, nx, ny, tau, tol, cx, cy, s.radius)
  end
  -- a capsule: its rectangle and its two end disks, of which it is the hull
  local hx, hy, ux, uy = s.hx, s.hy, s.ux, s.uy
  local vx, vy = -uy, ux
  local L, r = s.hlen, s.radius
  local cu, cv = cx * ux + cy * uy, cx * vx + cy * vy
  lo, hi = clip_plane(tx, ty, nx, ny, tau, tol, ux, uy, L + cu, lo, hi)
  lo, hi = clip_plane(tx, ty, nx, ny, tau, tol, -ux, -uy, L - cu, lo, hi)
  lo, hi = clip_plane(tx, ty, nx, ny, tau, tol, vx, vy, r + cv, lo, hi)
  lo, hi = clip_plane(tx, ty, nx, ny, tau, tol, -vx, -vy, r - cv, lo, hi)
  for e = 0, 1 do
    local ex, ey
    if e == 1 then
      ex, ey = cx + hx, cy + hy
    else
      ex, ey = cx - hx, cy - hy
    end
    local l2, h2 = disk_chord(tx, ty, nx, ny, tau, tol, ex, ey, r)
    if not (l2 > h2) then
      if lo > hi then
        lo, hi = l2, h2
      else
        lo = l2 < lo and l2 or lo
        hi = h2 > hi and h2 or hi
      end
    end
  end
  return lo, hi
end

-- The common part of both chords on the line: its length (negative: they miss each other by
-- that much) and its middle.
local function common(a, b, dx, dy, tx, ty, nx, ny, tau, tol)
  local alo, ahi = chord(a, 0.0, 0.0, tx, ty, nx, ny, tau, tol)
  local blo, bhi = chord(b, dx, dy, tx, ty, nx, ny, tau, tol)
  local lo, hi = alo > blo and alo or blo, ahi < bhi and ahi or bhi
  if not ((lo < 0 and -lo or lo) < HUGE and (hi < 0 and -hi or hi) < HUGE) then
    return -HUGE, 0.0 -- missed: a disk, or along a face
  end
  return hi - lo, 0.5 * (lo + hi)
end

-- ---- features ---------------------------------------------------------------------------

-- A shape's core at offset c: its vertex i (0-based: a polygon's, a segment's end, or the
-- point).
local function core_count(s)
  if s.kind == SAT_POLYGON then
    return s.count
  end
  return (has_segment(s) and s.hlen > 0.0) and 2 or 1
end

local function core_vertex(s, cx, cy, i)
  if s.kind == SAT_POLYGON then
    return cx + s.ox[i + 1], cy + s.oy[i + 1]
  end
  if has_segment(s) then
    if i ~= 0 then
      return cx + s.hx, cy + s.hy
    end
    return cx - s.hx, cy - s.hy
  end
  return cx, cy
end

-- The face of the core most turned toward u, and how much (the cosine); -2 for a point:
-- cos, P, Q, m (the face from P to Q, its outward unit normal m).
local function toward(s, cx, cy, ux, uy)
  local count = core_count(s)
  if count == 1 then
    return -2.0
  end
  if s.kind == SAT_POLYGON then
    local mx, my = s.nx, s.ny
    local best = 1
    local most = mx[1] * ux + my[1] * uy
    for i = 2, count do
      local v = mx[i] * ux + my[i] * uy
      if v > most then
        most = v
        best = i
      end
    end
    local px, py = core_vertex(s, cx, cy, best - 1)
    local qx, qy = core_vertex(s, cx, cy, best == count and 0 or best)
    return most, px, py, qx, qy, mx[best], my[best]
  end
  local mx, my = -s.uy, s.ux
  local v = mx * ux + my * uy
  local px, py = core_vertex(s, cx, cy, 0)
  local qx, qy = core_vertex(s, cx, cy, 1)
  if v < 0.0 then
    mx, my = -mx, -my
  end
  return (v < 0 and -v or v + 0.0), px, py, qx, qy, mx, my
end

-- The core's vertex farthest along u (the first of equals).
local function farthest(s, cx, cy, ux, uy)
  local count, best = core_count(s), 0
  local x, y = core_vertex(s, cx, cy, 0)
  local most = x * ux + y * uy
  for i = 1, count - 1 do
    x, y = core_vertex(s, cx, cy, i)
    local v = x * ux + y * uy
    if v > most then
      most = v
      best = i
    end
  end
  return core_vertex(s, cx, cy, best)
end

-- The span across n (along t) of a face, or of a core's whole incident feature.
local function span(tx, ty, px, py, qx, qy)
  local p, q = px * tx + py * ty, qx * tx + qy * ty
  if p < q then
    return p, q
  end
  return q, p
end

-- The other core's face most turned against the reference face's normal m (its two ends; a
-- point twice).
local function incident(s, cx, cy, mx, my)
  local c, px, py, qx, qy = toward(s, cx, cy, -mx, -my)
  if c < -1.0 then
    px, py = core_vertex(s, cx, cy, 0)
    return px, py, px, py
  end
  return px, py, qx, qy
end

-- The line where the common part is longest, across the span both shapes cover: its tau; nil
-- (the search given up) as soon as it is known to lie within the window (see the C's window:
-- wat + tau surely above wlo and below whi, by wslack; no window when wat is nil).
local function deepest(a, b, dx, dy, tx, ty, nx, ny, tol, wat, wslack, wlo, whi)
  local k = 0.6180339887498949 -- the golden section
  local alo, ahi = interval(a, 0.0, 0.0, tx, ty)
  local blo, bhi = interval(b, dx, dy, tx, ty)
  local lo, hi = alo > blo and alo or blo, ahi < bhi and ahi or bhi
  if lo > hi then
    lo = 0.5 * (lo + hi)
    hi = lo
  end
  local x1, x2 = hi - k * (hi - lo), lo + k * (hi - lo)
  local f1 = common(a, b, dx, dy, tx, ty, nx, ny, x1, tol)
  local f2 = common(a, b, dx, dy, tx, ty, nx, ny, x2, tol)
  local i = 0
  while i < 96 and x1 < x2 do
    if wat and (wat + lo) - wslack > wlo and (wat + hi) + wslack < whi then
      return nil
    end
    if f1 < f2 then
      lo = x1
      x1 = x2
      f1 = f2
      x2 = lo + k * (hi - lo)
      f2 = common(a, b, dx, dy, tx, ty, nx, ny, x2, tol)
    else
      hi = x2
      x2 = x1
      f2 = f1
      x1 = hi - k * (hi - lo)
      f1 = common(a, b, dx, dy, tx, ty, nx, ny, x1, tol)
    end
    i = i + 1
  end
  return f1 < f2 and x2 or x1
end

-- The contacts of a (at the origin) and b (at d), n from a toward b, relative to a: count,
-- x1, y1, x2, y2. With lines_only, none (0) when no line of the faces or of the farthest
-- point meets both (the search for the deepest line left out).
local function contact_points(a, b, dx, dy, nx, ny, lines_only, wat, wslack, wlo, whi)
  local tx, ty = -ny, nx
  local tol = SAT_TOUCH_REL * (a.bound + b.bound)
  local lines, found = 1, 0
  local tau1, tau2
  local ca, fapx, fapy, faqx, faqy, famx, famy = toward(a, 0.0, 0.0, nx, ny)
  local cb, fbpx, fbpy, fbqx, fbqy, fbmx, fbmy = toward(b, dx, dy, -nx, -ny)
  if (ca > cb and ca or cb) >= SAT_CONTACT_FACE_COS then
    local rpx, rpy, rqx, rqy, px, py, qx, qy
    if ca >= cb then
      rpx, rpy, rqx, rqy = fapx, fapy, faqx, faqy
      px, py, qx, qy = incident(b, dx, dy, famx, famy)
    else
      rpx, rpy, rqx, rqy = fbpx, fbpy, fbqx, fbqy
      px, py, qx, qy = incident(a, 0.0, 0.0, fbmx, fbmy)
    end
    local rlo, rhi = span(tx, ty, rpx, rpy, rqx, rqy)
    local ilo, ihi = span(tx, ty, px, py, qx, qy)
    local lo, hi = rlo > ilo and rlo or ilo, rhi < ihi and rhi or ihi
    if hi - lo > tol then
      tau1, tau2 = lo, hi
      lines = 2
    else
      tau1 = 0.5 * (lo + hi)
    end
  else
    local fx, fy = farthest(a, 0.0, 0.0, nx, ny)
    tau1 = fx * tx + fy * ty
  end
  local x1, y1, x2, y2 = 0.0, 0.0, 0.0, 0.0
  for i = 1, lines do
    local tau = i == 1 and tau1 or tau2
    local len, mid = common(a, b, dx, dy, tx, ty, nx, ny, tau, tol)
    if len >= -2.0 * tol then
      found = found + 1
      if found == 1 then
        x1, y1 = tx * tau + nx * mid, ty * tau + ny * mid
      else
        x2, y2 = tx * tau + nx * mid, ty * tau + ny * mid
      end
    end
  end
  if found == 0 and not lines_only then
    local tau = deepest(a, b, dx, dy, tx, ty, nx, ny, tol, wat, wslack, wlo, whi)
    if not tau then
      return 0
    end
    local _, mid = common(a, b, dx, dy, tx, ty, nx, ny, tau, tol)
    x1, y1 = tx * tau + nx * mid, ty * tau + ny * mid
    found = 1
  end
  return found, x1, y1, x2, y2
end

-- ---- the calls ------------------------------------------------------------------------------

local function part_count(s)
  return s.kind == SAT_COMPOUND and s.count or 1
end

local function part(s, i) -- 1-based
  if s.kind == SAT_COMPOUND then
    return s.parts[i]
  end
  return s
end

-- Where along t (a's frame) the point of the deepest line of part pair x, y (x at c, y at d
-- from x) lies, with a margin (see the C's deepest_span): lo, hi.
local function deepest_span(x, y, cx, cy, dx, dy, tx, ty)
  local at = cx * tx + cy * ty
  local xlo, xhi = interval(x, 0.0, 0.0, tx, ty)
  local ylo, yhi = interval(y, dx, dy, tx, ty)
  local l, h = xlo > ylo and xlo or ylo, xhi < yhi and xhi or yhi
  if l > h then
    l = 0.5 * (l + h)
    h = l
  end
  local slack = 1e-6 * (abs(at) + abs(l) + abs(h) + x.bound + y.bound + abs(dx) + abs(dy))
  return at + l - slack, at + h + slack, at, slack
end

-- With a compound, r the union's result (a first): every part pair that meets gives its
-- points along the union's normal, and the two extremes across the normal are kept (one
-- point when they coincide). Part pairs whose boxes are apart by more than four times their
-- touch tolerance cannot meet. A pair's deepest line is searched for only where its point
-- can be an extreme, and given up as soon as it cannot be one (see the C's compound_contacts:
-- a first pass finds top and bottom). The C lists the pairs that meet in its first pass for
-- the second; here the second pass finds them again (the same pairs, the same numbers: the
-- C's path when it has no memory for the list), with no scratch shared across calls.
local function compound_contacts(a, b, rnx, rny)
  local lox, loy, hix, hiy = 0.0, 0.0, 0.0, 0.0
  local slo, shi, top, bottom = HUGE, -HUGE, HUGE, -HUGE
  local tx, ty = -rny, rnx
  local alox, aloy, ahix, ahiy, blox, bloy, bhix, bhiy = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
  if a.kind ~= SAT_COMPOUND then
    alox, aloy, ahix, ahiy = sat__box(a)
  end
  if b.kind ~= SAT_COMPOUND then
    blox, bloy, bhix, bhiy = sat__box(b)
  end
  for pass = 0, 1 do
    for i = 1, part_count(a) do
      local x = part(a, i)
      local xlox, xloy, xhix, xhiy = part_box(a, i, alox, aloy, ahix, ahiy)
      for j = 1, part_count(b) do
        local y = part(b, j)
        local dx, dy = (y.px - x.px) + (y.plx - x.plx), (y.py - x.py) + (y.ply - x.ply)
        local ylox, yloy, yhix, yhiy = part_box(b, j, blox, bloy, bhix, bhiy)
        local gap = 4.0 * (SAT_TOUCH_REL * (x.bound + y.bound)) -- sat__part_gap
        -- sat__boxes_apart
        if not (dx + ylox - xhix > gap or xlox - (dx + yhix) > gap or dy + yloy - xhiy > gap or
          xloy - (dy + yhiy) > gap) and sat_test(x, y) == 1 then
          local cx, cy = (x.px - a.px) + (x.plx - a.plx), (x.py - a.py) + (x.ply - a.ply)
          local plo, phi = HUGE, -HUGE
          local n, x1, y1, x2, y2 = contact_points(x, y, dx, dy, rnx, rny, true)
          if n == 0 then
            local wat, wslack
            plo, phi, wat, wslack = deepest_span(x, y, cx, cy, dx, dy, tx, ty)
            local wlo, whi = slo < top and slo or top, shi > bottom and shi or bottom
            if pass == 1 and not (plo > wlo and phi < whi) then
              n, x1, y1, x2, y2 = contact_points(x, y, dx, dy, rnx, rny, false, wat, wslack, wlo, whi)
            end
          end
          for k = 1, n do
            local qx, qy
            if k == 1 then
              qx, qy = cx + x1, cy + y1
            else
              qx, qy = cx + x2, cy + y2
            end
            local s = qx * tx + qy * ty
            if pass == 0 then
              plo = s < plo and s or plo
              phi = s > phi and s or phi
            else
              if s < slo then
                slo, lox, loy = s, qx, qy
              end
              if s > shi then
                shi, hix, hiy = s, qx, qy
              end
            end
          end
          if pass == 0 then -- (a pair's points are known: its least is a bound)
            local up, down = phi, plo
            if n > 0 then
              up, down = plo, phi
            end
            top = up < top and up or top
            bottom = down > bottom and down or bottom
          end
        end
      end
    end
  end
  if not (slo <= shi) then
    return 0
  end
  local px, py, plx, ply = a.px, a.py, a.plx, a.ply
  local ox, oy = (px + lox) + plx, (py + loy) + ply
  if not (shi - slo > SAT_TOUCH_REL * (a.bound + b.bound)) then
    return 1, ox, oy
  end
  return 2, ox, oy, (px + hix) + plx, (py + hiy) + ply
end

local contacts_r = {}

--- sat_contacts(a, b) -> n, x1, y1, x2, y2: where a and b touch or overlap most: 0 when they
-- are apart, else 1 or 2 points; the same points, in the same order, whichever shape is a.
local function contacts(a, b)
  if not comes_first(a, b) then
    a, b = b, a
  end
  local r = contacts_r
  if sat_collide(a, b, r) == 0 then
    return 0
  end
  if b.kind == SAT_COMPOUND then
    return compound_contacts(a, b, r.nx, r.ny)
  end
  local n, x1, y1, x2, y2 = contact_points(a, b, (b.px - a.px) + (b.plx - a.plx),
    (b.py - a.py) + (b.ply - a.ply), r.nx, r.ny)
  local px, py, plx, ply = a.px, a.py, a.plx, a.ply
  if n == 1 then
    return 1, (px + x1) + plx, (py + y1) + ply
  end
  return 2, (px + x1) + plx, (py + y1) + ply, (px + x2) + plx, (py + y2) + ply
end
M.sat_contacts = contacts

-- The middle of the contact points (of one: itself).
local function middle(n, x1, y1, x2, y2)
  if n == 2 then
    return (x1 + x2) * 0.5, (y1 + y2) * 0.5
  end
  return x1, y1
end

-- The point of a hit of a on b (neither a compound; b moving by vb): a moved by hit's move
-- against b (0 when they overlap or touch at the start, where the normal is sat_collide's),
-- in the frame of the first of the two as sat_contacts takes them, and where b is by then.
local function hit_point(a, b, vbx, vby, hit)
  local dx, dy = (b.px - a.px) + (b.plx - a.plx), (b.py - a.py) + (b.ply - a.ply)
  local r = hit.result
  local atx, aty
  if comes_first(a, b) then
    local mx, my = middle(contact_points(a, b, dx - hit.mx, dy - hit.my, r.nx, r.ny))
    atx, aty = (a.px + (mx + hit.mx)) + a.plx, (a.py + (my + hit.my)) + a.ply
  else
    local mx, my = middle(contact_points(b, a, -dx + hit.mx, -dy + hit.my, -r.nx, -r.ny))
    atx, aty = (b.px + mx) + b.plx, (b.py + my) + b.ply
  end
  return atx + vbx * hit.t, aty + vby * hit.t
end

--- sat_sweep_point(a, vax, vay, b, vbx, vby, hit) -> px, py: the contact point of a hit of
-- sat_sweep(a, va - vb, b, hit) (a moving by va, b by vb): what sat_sweep_contact gives for
-- that hit, without sweeping again.
local function sweep_point(a, _, _, b, vbx, vby, hit)
  if a.kind == SAT_COMPOUND or b.kind == SAT_COMPOUND then
    -- the part pair that touches first, or the union's contacts when they overlap
    local part_a, part_b = hit.part_a, hit.part_b
    if hit.overlapping == 0 and (part_a >= 0 or part_b >= 0) then
      return hit_point(part_of(a, part_a < 0 and 1 or part_a + 1),
        part_of(b, part_b < 0 and 1 or part_b + 1), vbx, vby, hit)
    end
    local n, x1, y1, x2, y2
    if hit.overlapping == 1 then -- the union's result is known: the pair as sat_contacts
      -- takes it, the normal negated with the order
      local r = hit.result
      if comes_first(a, b) then
        n, x1, y1, x2, y2 = compound_contacts(a, b, r.nx, r.ny)
      else
        n, x1, y1, x2, y2 = compound_contacts(b, a, -r.nx + 0.0, -r.ny + 0.0)
      end
    else
      n, x1, y1, x2, y2 = contacts(a, b)
    end
    if n > 0 then
      return middle(n, x1, y1, x2, y2)
    end
    return a.px + a.plx, a.py + a.ply -- sat_shape_position(a)
  end
  return hit_point(a, b, vbx, vby, hit)
end
M.sat_sweep_point = sweep_point

--- sat_sweep_contact(a, vax, vay, b, vbx, vby, hit) -> 1, px, py, or 0: sat_sweep with both
-- shapes moving (the relative motion va - vb), and the point where they first touch
-- (sat_contacts at that time, the middle of two), or, when they already overlap, now.
local function sweep_contact(a, vax, vay, b, vbx, vby, hit)
  if a.kind == SAT_COMPOUND or b.kind == SAT_COMPOUND then
    if not in_range(vbx) or not in_range(vby) or
      SW.sat__compound_sweep_pair(a, vax - vbx, vay - vby, b, hit) == 0 then
      return 0
    end
  elseif not in_range(vbx) or not in_range(vby) or
    sweep(a, vax - vbx, vay - vby, b, hit) == 0 then
    return 0
  end
  return 1, sweep_point(a, vax, vay, b, vbx, vby, hit)
end
M.sat_sweep_contact = sweep_contact

return M
