--- sat_raycast.lua - the pure backend's twin of src/core/sat_raycast.c: segment casts, the
-- first point where a segment enters a shape.
--
-- sat_shape_raycast(s, x1, y1, x2, y2, hit) -> 1 and hit (a table) filled with t, nx, ny,
-- or 0 (hit untouched). A compound's parts are read as sat_internal.lua describes.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
local I = require("sat.pure.sat_internal")
local K = require("sat.pure.sat_constants")

local M = {}

local sqrt = math.sqrt
local HUGE = math.huge
local normalize, len, in_range = I.sat__normalize, I.sat__len, I.sat__in_range
local SAT_CIRCLE, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_CIRCLE, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_TOUCH_REL = K.SAT_TOUCH_REL

-- The way out for a start point that is already inside: -direction, or +x as a last resort.
local function fallback_normal(dx, dy)
  local nx, ny = normalize(-dx, -dy)
  if nx == 0.0 and ny == 0.0 then
    nx = 1.0
  end
  return nx, ny
end

-- The disk of radius r about the origin, from a along dir: hit, t, nx, ny (see the C:
-- everything measured from the end nearer the centre).
local function raycast_disk(r, ax, ay, dx, dy, tol)
  local outx, outy, la = normalize(ax, ay)
  if la <= r + tol then
    if outx ~= 0.0 or outy ~= 0.0 then
      return 1, 0.0, outx, outy
    end
    return 1, 0.0, fallback_normal(dx, dy)
  end
  local ux, uy, l = normalize(dx, dy)
  if not (l > 0.0) then
    return 0 -- a point outside
  end
  local bx, by = ax + dx, ay + dy
  local lb = len(bx, by)
  local from_end = lb < la
  local refx, refy, near_tol, closest
  if from_end then
    refx, refy = bx, by
    near_tol = tol + SAT_TOUCH_REL * lb
    closest = l - (bx * ux + by * uy)
  else
    refx, refy = ax, ay
    near_tol = tol + SAT_TOUCH_REL * la
    closest = -(ax * ux + ay * uy)
  end
  local off = ux * refy - uy * refx
  off = off < 0 and -off or off + 0.0
  if closest <= 0.0 or off > r + near_tol then
    return 0 -- moving away from an outside start, or passing by
  end
  local half = off < r and sqrt((r - off) * (r + off)) or 0.0
  local entry = closest - half
  if entry > l + near_tol then
    return 0
  end
  local t
  if entry <= 0.0 then
    t = 0.0
  elseif entry >= l then
    t = 1.0
  else
    t = entry / l
  end
  -- The hit point relative to the centre, from the nearer end.
  local k = entry - (from_end and l or 0.0)
  local px, py = refx + ux * k, refy + uy * k
  local nx, ny = 0.0, 0.0
  if r > 0.0 then
    nx, ny = normalize(px, py)
  end
  if nx ~= 0.0 or ny ~= 0.0 then
    return 1, t, nx, ny
  end
  return 1, t, fallback_normal(dx, dy)
end

-- A segment or a capsule: its two side faces and its two end disks; the first hit of the
-- four. A start within the radius of the segment hits at 0.
local function raycast_capsule(s, ax, ay, dx, dy, tol, hit)
  local hx, hy, ux, uy, L = s.hx, s.hy, s.ux, s.uy, s.hlen
  local knx, kny = -uy, ux
  local r, best = s.radius, HUGE
  local dist, tox, toy = I.sat__core_distance(ax, ay, 0.0, 0.0, hx, hy, ux, uy, L)
  if dist <= r + tol then
    hit.t = 0.0
    hit.nx, hit.ny = -tox, -toy
    if dist == 0.0 or (tox == 0.0 and toy == 0.0) then
      if knx * dx + kny * dy > 0.0 then
        hit.nx, hit.ny = -knx, -kny
      else
        hit.nx, hit.ny = knx, kny
      end
    end
    return 1
  end
  local la, lb = len(ax, ay), len(ax + dx, ay + dy)
  tol = tol + SAT_TOUCH_REL * (la > lb and la or lb)
  for side = 0, 1 do
    local mx, my = knx, kny
    if side == 1 then
      mx, my = -knx, -kny
    end
    local beyond, closing = (mx * ax + my * ay) - r, -(mx * dx + my * dy)
    if beyond > 0.0 and closing > 0.0 and beyond <= closing + tol then
      local t = beyond < closing and beyond / closing or 1.0
      local along = (ax + dx * t) * ux + (ay + dy * t) * uy
      if (along < 0 and -along or along + 0.0) <= L and t < best then
        best = t
        hit.t = t
        hit.nx, hit.ny = mx, my
      end
    end
  end
  for e = 0, 1 do
    local cx, cy = -hx, -hy
    if e == 1 then
      cx, cy = hx, hy
    end
    local h, t, nx, ny = raycast_disk(r, ax - cx, ay - cy, dx, dy, tol)
    if h == 1 and t < best then
      best = t
      hit.t, hit.nx, hit.ny = t, nx, ny
    end
  end
  return best <= 1.0 and 1 or 0
end

-- Cyrus-Beck: clip the segment against every edge's half-plane.
local function raycast_polygon(s, ax, ay, dx, dy, tol, hit)
  local n, nx, ny, sup = s.count, s.nx, s.ny, s.sup
  local t_in, t_out, nearest = 0.0, 1.0, -HUGE
  local enter, closest = 0, 1 -- positions; enter 0: none yet
  -- n . a rounds in proportion to the start's distance; the larger of the two ends' keeps
  -- a graze a hit (or a miss) whichever way the segment runs.
  local la, lb = len(ax, ay), len(ax + dx, ay + dy)
  tol = tol + SAT_TOUCH_REL * (la > lb and la or lb)
  for i = 1, n do
    local mx, my = nx[i], ny[i]
    local dist = (mx * ax + my * ay) - sup[i] -- > 0: outside this edge
    local den = mx * dx + my * dy
    if dist > tol then
      if den >= 0.0 then
        return 0
      end
      local t = -dist / den -- > 0
      if enter == 0 or t > t_in then
        t_in = t
        enter = i
      end
    else
      if dist > nearest then
        nearest = dist
        closest = i
      end
      if den > 0.0 then
        local t = -dist / den
        if t < t_out then
          t_out = t
        end
      end
    end
    if t_in > t_out or t_in > 1.0 + SAT_TOUCH_REL then
      return 0
    end
  end
  if enter == 0 then
    hit.t = 0.0
    hit.nx, hit.ny = nx[closest], ny[closest]
    return 1
  end
  hit.t = t_in < 1.0 and t_in or 1.0
  hit.nx, hit.ny = nx[enter], ny[enter]
  return 1
end

local raycast

-- A compound: the earliest entry over the parts (a start inside a part: t = 0 with that
-- part's normal).
local part_hit = {}
local function compound_raycast(s, x1, y1, x2, y2, hit)
  local found = 0
  local parts = s.parts
  for i = 1, s.count do
    local h = part_hit
    if raycast(parts[i], x1, y1, x2, y2, h) == 1 and (found == 0 or h.t < hit.t) then
      hit.t, hit.nx, hit.ny = h.t, h.nx, h.ny
      hit.part = i - 1
      found = 1
    end
  end
  return found
end

--- sat_shape_raycast(s, x1, y1, x2, y2, hit) -> 1 or 0: the first entry of the segment p1->p2
-- into the shape; a segment that starts inside hits at t = 0 with the normal of the nearest
-- surface.
raycast = function(s, x1, y1, x2, y2, hit)
  if not in_range(x1) or not in_range(y1) or not in_range(x2) or not in_range(y2) then
    return 0 -- also NaN and infinities; callers check the range to report it
  end
  local kind = s.kind
  if kind == SAT_COMPOUND then
    return compound_raycast(s, x1, y1, x2, y2, hit)
  end
  hit.part = -1
  local ax, ay = (x1 - s.px) - s.plx, (y1 - s.py) - s.ply
  local dx, dy = x2 - x1, y2 - y1
  local tol = SAT_TOUCH_REL * s.bound
  if kind == SAT_CIRCLE then
    local h, t, nx, ny = raycast_disk(s.radius, ax, ay, dx, dy, tol)
    if h == 1 then
      hit.t, hit.nx, hit.ny = t, nx, ny
    end
    return h
  end
  if kind == SAT_SEGMENT or kind == SAT_CAPSULE then
    return raycast_capsule(s, ax, ay, dx, dy, tol, hit)
  end
  return raycast_polygon(s, ax, ay, dx, dy, tol, hit)
end
M.sat_shape_raycast = raycast

return M
