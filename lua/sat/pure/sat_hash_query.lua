--- sat_hash_query.lua - the pure backend's twin of src/core/sat_hash_query.c: the spatial
-- hash's queries. Gathering the candidates of a box or a segment level by level, the point,
-- rectangle, segment and shape queries, the collisions of one shape and the sweep of a moving
-- one.
--
-- Results (sat_hash.lua): the count and buffers of the hash, 1-based, valid until the next
-- call: the handles (queries), or records of the C structs' fields (segment hits, pairs,
-- sweep hits; sat_hash.lua's layouts), sorted through an array of their numbers where the C
-- sorts the structs.
--
-- Nothing here makes an object (a table, a closure, a string): a finalizer run by the
-- collector, which may change this very hash, can then only run before a call or after it.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
-- LuaJIT runs this file interpreted (its functions, and those they define): its short
-- loops over cells and chains, nested and met from many call sites, make the trace
-- compiler abort and retry, and fill its trace cache, which it then flushes, over and
-- over (a world frame 20 to 30 times slower than with the compiler off).
if rawget(_G, "jit") then
  jit.off(true, true)
end

local K = require("sat.pure.sat_constants")
local I = require("sat.pure.sat_internal")
local S = require("sat.pure.sat_shape")
local C = require("sat.pure.sat_collide")
local H = require("sat.pure.sat_hash")
local RC = require("sat.pure.sat_raycast")
local SW = require("sat.pure.sat_sweep")

local M = {}

local SAT_HASH_NONE, CELL_LIMIT = H.SAT_HASH_NONE, H.CELL_LIMIT
local DBL_EPSILON, DBL_MIN = H.DBL_EPSILON, H.DBL_MIN
local ROUNDING = K.SAT_BROAD_ROUNDING * DBL_EPSILON
local SEGMENT_SLACK = K.SAT_BROAD_SEGMENT_SLACK
local fmin, fmax = I.fmin, I.fmax

local cell_of, padded_box, accepts, sort = H.cell_of, H.padded_box, H.accepts, H.sort
local next_count, sat_hash_sync = H.next_count, H.sat_hash_sync
local sat_test, sat_collide = C.sat_test, C.sat_collide
local sat_shape_contains, sat_shape_position = S.sat_shape_contains, S.sat_shape_position
local raycast, sweep = RC.sat_shape_raycast, SW.sat_sweep

local floor = math.floor
local KX, KN = 67108864.0, 33554432.0 -- (sat_hash.lua's cell keys)

local HIT_HANDLE, HIT_SEQ, HIT_T, HIT_NX, HIT_NY, HIT_PART, HIT_STRIDE = H.HIT_HANDLE,
  H.HIT_SEQ, H.HIT_T, H.HIT_NX, H.HIT_NY, H.HIT_PART, H.HIT_STRIDE
local PR_B, PR_SEQ_B, PR_OVERLAP, PR_NX, PR_NY, PR_MX, PR_MY, PR_AINB, PR_BINA, PR_STRIDE =
  H.PR_B, H.PR_SEQ_B, H.PR_OVERLAP, H.PR_NX, H.PR_NY, H.PR_MX, H.PR_MY, H.PR_AINB, H.PR_BINA,
  H.PR_STRIDE
local SW_HANDLE, SW_SEQ, SW_OVERLAPPING, SW_T, SW_MX, SW_MY, SW_DIST2 = H.SW_HANDLE, H.SW_SEQ,
  H.SW_OVERLAPPING, H.SW_T, H.SW_MX, H.SW_MY, H.SW_DIST2
local SW_OVERLAP, SW_NX, SW_NY, SW_RMX, SW_RMY, SW_AINB, SW_BINA, SW_STRIDE = H.SW_OVERLAP,
  H.SW_NX, H.SW_NY, H.SW_RMX, H.SW_RMY, H.SW_AINB, H.SW_BINA, H.SW_STRIDE
local SW_PART_A, SW_PART_B = H.SW_PART_A, H.SW_PART_B
local SAT_HASH_EVERY = H.SAT_HASH_EVERY

-- The records the core's pair calls fill (sat_hit, sat_result, sat_sweep_hit), read at once:
-- one per nesting depth, as sat_sweep.lua's state (a query may run inside another, from a
-- finalizer or a debug hook). An error through a query leaves its depth counted: the next
-- queries take the records one deeper, made once; the outer query, returning, sets it back.
local HITS, RESULTS, SWEEPS = {}, {}, {}
local depth = 0

-- ---- gathering candidates -------------------------------------------------------------------

-- The entries filed in cell (cx, cy) of the level (its table of cells, its table of rows)
-- whose boxes overlap q and that this query has not met yet (the stamp), into h.keys from
-- n + 1 on; returns the new n.
local function gather_cell(h, cells, far, cx, cy, qx1, qy1, qx2, qy2, stamp, n, st, keys)
  local id
  if cx < KN and cx > -KN and cy < KN and cy > -KN then
    id = cells[cx * KX + cy + 0.5]
  else
    local row = far[cx + 0.5]
    id = row and row[cy + 0.5]
  end
  if id == nil then
    return n
  end
  local n_e, n_next = h.n_e, h.n_next
  local ex1, ey1, ex2, ey2 = h.x1, h.y1, h.x2, h.y2
  while id ~= 0 do
    local i = n_e[id]
    if st[i] ~= stamp then
      st[i] = stamp
      if ex1[i] <= qx2 and qx1 <= ex2[i] and ey1[i] <= qy2 and qy1 <= ey2[i] then
        n = n + 1
        keys[n] = i
      end
    end
    id = n_next[id]
  end
  return n
end

-- Every entry of the level whose box overlaps q and that this query has not met.
local function scan_level(h, level, qx1, qy1, qx2, qy2, stamp, n, st, keys)
  local ents, count = h.lv_ents[level], h.lv_count[level]
  local ex1, ey1, ex2, ey2 = h.x1, h.y1, h.x2, h.y2
  for j = 1, count do
    local i = ents[j]
    if st[i] ~= stamp and ex1[i] <= qx2 and qx1 <= ex2[i] and ey1[i] <= qy2 and qy1 <= ey2[i]
    then
      st[i] = stamp
      n = n + 1
      keys[n] = i
    end
  end
  return n
end

-- Starts a query: its stamp, `self` already met (in st, the stamps the query uses).
local function gather_begin(h, self, st)
  sat_hash_sync(h)
  local stamp = next_count(h, "stamp_count")
  if self ~= SAT_HASH_NONE then
    st[self] = stamp
  end
  return stamp
end

--- sat__hash_gather_box_level(h, level, qx1, qy1, qx2, qy2, stamp, n, st, keys) -> n: the
-- entries of one level whose box overlaps q and that the query of this stamp has not met (its
-- stamps st: h.stamp, or the step's h.sstamp), into keys (h.keys, or the step's h.skeys)
-- from n + 1 on: the cells q covers there, or the level's entries when they are fewer.
local function gather_box_level(h, level, qx1, qy1, qx2, qy2, stamp, n, st, keys)
  local inv = h.lv_inv[level]
  -- cell_of, four times, inline
  local c = qx1 * inv
  local x0 = not (c > -CELL_LIMIT) and -CELL_LIMIT or not (c < CELL_LIMIT) and CELL_LIMIT
    or floor(c) + 0.0
  c = qy1 * inv
  local y0 = not (c > -CELL_LIMIT) and -CELL_LIMIT or not (c < CELL_LIMIT) and CELL_LIMIT
    or floor(c) + 0.0
  c = qx2 * inv
  local x1 = not (c > -CELL_LIMIT) and -CELL_LIMIT or not (c < CELL_LIMIT) and CELL_LIMIT
    or floor(c) + 0.0
  c = qy2 * inv
  local y1 = not (c > -CELL_LIMIT) and -CELL_LIMIT or not (c < CELL_LIMIT) and CELL_LIMIT
    or floor(c) + 0.0
  -- range_cells > scan_limit
  if ((x1 - x0) + 1.0) * ((y1 - y0) + 1.0) > 2.0 * h.lv_count[level] + 16.0 then
    return scan_level(h, level, qx1, qy1, qx2, qy2, stamp, n, st, keys)
  end
  local cells, far = h.lv_cells[level], h.lv_far[level]
  if not (x0 > -KN and x1 < KN and y0 > -KN and y1 < KN) then
    for cy = y0, y1 do
      for cx = x0, x1 do
        n = gather_cell(h, cells, far, cx, cy, qx1, qy1, qx2, qy2, stamp, n, st, keys)
      end
    end
    return n
  end
  -- every cell near the origin: gather_cell's near case, inline (the same walk)
  local n_e, n_next = h.n_e, h.n_next
  local ex1, ey1, ex2, ey2 = h.x1, h.y1, h.x2, h.y2
  for cy = y0, y1 do
    for cx = x0, x1 do
      local id = cells[cx * KX + cy + 0.5]
      if id ~= nil then
        while id ~= 0 do
          local i = n_e[id]
          if st[i] ~= stamp then
            st[i] = stamp
            if ex1[i] <= qx2 and qx1 <= ex2[i] and ey1[i] <= qy2 and qy1 <= ey2[i] then
              n = n + 1
              keys[n] = i
            end
          end
          id = n_next[id]
        end
      end
    end
  end
  return n
end
M.sat__hash_gather_box_level = gather_box_level

--- sat__hash_gather_box(h, qx1, qy1, qx2, qy2, self) -> n, stamp: every entry (except self)
-- whose box overlaps q, once each, into h.keys[1..n]. Syncs first.
-- Re-entrancy (a finalizer, or a debug hook, may run between any two statements and query
-- this hash): every gathering takes a new stamp (h.stamp_count), and its keys are h.keys; so
-- a query whose stamp is no longer h.stamp_count after it used its keys was overlapped by
-- another one (its keys and the entries' stamps overwritten) and runs again; an entry removed
-- meanwhile (its shape false) is skipped.
-- (into the stamps st and keys given: the queries' h.stamp and h.keys, or the step's own)
local function gather_into(h, qx1, qy1, qx2, qy2, self, st, keys)
  local stamp = gather_begin(h, self, st)
  local used = h.used
  local n = 0
  for u = 1, h.nused do
    n = gather_box_level(h, used[u], qx1, qy1, qx2, qy2, stamp, n, st, keys)
  end
  return n, stamp
end

local function gather_box(h, qx1, qy1, qx2, qy2, self)
  return gather_into(h, qx1, qy1, qx2, qy2, self, h.stamp, h.keys)
end
M.sat__hash_gather_box = gather_box

--- sat__hash_gather_step(h, qx1, qy1, qx2, qy2, self) -> n: gather_box for the step, into its
-- own h.skeys with its own stamps h.sstamp (a query run from inside the step, by a finalizer
-- or a debug hook, gathers into h.keys: the step's candidates stay whole).
function M.sat__hash_gather_step(h, qx1, qy1, qx2, qy2, self)
  return (gather_into(h, qx1, qy1, qx2, qy2, self, h.sstamp, h.skeys))
end

-- Sorts h.keys[1..n] by insertion.
local function sort_keys(h, n)
  if n > 1 then
    sort(h.keys, n, h.by_seq, h.tmp)
  end
end

-- ---- queries --------------------------------------------------------------------------------

-- The box of a point or a segment, padded for the rounding of coordinates far from 0.
local function point_box(x1, y1, x2, y2)
  local pad = ROUNDING * ((x1 < 0 and -x1 or x1 + 0.0) + (y1 < 0 and -y1 or y1 + 0.0) +
    (x2 < 0 and -x2 or x2 + 0.0) + (y2 < 0 and -y2 or y2 + 0.0)) + DBL_MIN
  return (x1 < x2 and x1 or x2) - pad, (y1 < y2 and y1 or y2) - pad,
    (x1 < x2 and x2 or x1) + pad, (y1 < y2 and y2 or y1) + pad
end

--- sat_hash_query_point(h, x, y) -> n, handles: the shapes containing the point (boundary
-- included), by insertion.
local function query_point(h, x, y)
  local qx1, qy1, qx2, qy2 = point_box(x, y, x, y)
  local n, stamp = gather_box(h, qx1, qy1, qx2, qy2, SAT_HASH_NONE)
  local keys, shape = h.keys, h.shape
  local m = 0
  for k = 1, n do
    local i = keys[k]
    local s = shape[i]
    if s and sat_shape_contains(s, x, y) ~= 0 then
      m = m + 1
      keys[m] = i
    end
  end
  sort_keys(h, m)
  return m, keys, stamp
end
M.sat_hash_query_point = query_point

--- sat_hash_query_shape(h, s, self) -> n, handles: the shapes overlapping or touching s,
-- except the entry self (SAT_HASH_NONE for none).
function M.sat_hash_query_shape(h, s, self)
  local qx1, qy1, qx2, qy2 = padded_box(s)
  local n, stamp = gather_box(h, qx1, qy1, qx2, qy2, self)
  local keys, shape = h.keys, h.shape
  local m = 0
  for k = 1, n do
    local i = keys[k]
    local o = shape[i]
    if o and sat_test(s, o) ~= 0 then
      m = m + 1
      keys[m] = i
    end
  end
  sort_keys(h, m)
  return m, keys, stamp
end

--- sat_hash_neighbors(h, s, self) -> n, handles: the shapes whose padded box overlaps s's.
function M.sat_hash_neighbors(h, s, self)
  local qx1, qy1, qx2, qy2 = padded_box(s)
  local n, stamp = gather_box(h, qx1, qy1, qx2, qy2, self)
  sort_keys(h, n)
  return n, h.keys, stamp
end

-- Candidates along the segment at one level: column by column, the rows the segment crosses
-- there (a little widened), so a long diagonal costs its length in cells, not its box.
local function gather_segment_level(h, level, p1x, p1y, p2x, p2y, qx1, qy1, qx2, qy2, stamp, n)
  local inv = h.lv_inv[level]
  local x0, x1 = cell_of(qx1, inv), cell_of(qx2, inv)
  local y0, y1 = cell_of(qy1, inv), cell_of(qy2, inv)
  local cost = ((x1 - x0) + 1.0) + ((y1 - y0) + 1.0)
  if cost > 2.0 * h.lv_count[level] + 16.0 then
    return scan_level(h, level, qx1, qy1, qx2, qy2, stamp, n, h.stamp, h.keys)
  end
  if ((x1 - x0) + 1.0) * ((y1 - y0) + 1.0) <= 4.0 then
    return gather_box_level(h, level, qx1, qy1, qx2, qy2, stamp, n, h.stamp, h.keys)
  end
  local cells, far = h.lv_cells[level], h.lv_far[level]
  local side = 1.0 / inv
  local dx, dy = p2x - p1x, p2y - p1y
  for cx = x0, x1 do
    local xa, xb = cx * side, (cx + 1) * side
    -- The clamped end columns hold everything beyond them, not one cell's width.
    if xa < qx1 or cx <= -CELL_LIMIT then
      xa = qx1
    end
    if xb > qx2 or cx >= CELL_LIMIT then
      xb = qx2
    end
    local ya, yb = qy1, qy2
    if dx ~= 0.0 then
      local ta, tb = (xa - p1x) / dx, (xb - p1x) / dx
      local u, w = p1y + dy * ta, p1y + dy * tb
      local slack = ROUNDING * ((u < 0 and -u or u + 0.0) + (w < 0 and -w or w + 0.0)) +
        (qy2 - qy1) * SEGMENT_SLACK
      ya = (u < w and u or w) - slack
      yb = (u < w and w or u) + slack
      if ya < qy1 then
        ya = qy1
      end
      if yb > qy2 then
        yb = qy2
      end
    end
    local ra, rb = cell_of(ya, inv), cell_of(yb, inv)
    local st, keys = h.stamp, h.keys
    for cy = ra, rb do
      n = gather_cell(h, cells, far, cx, cy, qx1, qy1, qx2, qy2, stamp, n, st, keys)
    end
  end
  return n
end

local function gather_segment(h, p1x, p1y, p2x, p2y)
  local stamp = gather_begin(h, SAT_HASH_NONE, h.stamp)
  local qx1, qy1, qx2, qy2 = point_box(p1x, p1y, p2x, p2y)
  local used = h.used
  local n = 0
  for u = 1, h.nused do
    n = gather_segment_level(h, used[u], p1x, p1y, p2x, p2y, qx1, qy1, qx2, qy2, stamp, n)
  end
  return n, stamp
end

--- sat_hash_query_segment(h, x1, y1, x2, y2) -> n, idx: the shapes the segment hits, sorted
-- by t then insertion: the k-th is record idx[k] of h.hits.
local function query_segment(h, p1x, p1y, p2x, p2y)
  local d = depth + 1
  depth = d
  local hit = HITS[d]
  if hit == nil then -- (the allocation may run a finalizer: d is counted already)
    hit = { t = 0.0, nx = 0.0, ny = 0.0, part = -1 }
    HITS[d] = hit
  end
  local n, stamp = gather_segment(h, p1x, p1y, p2x, p2y)
  local keys, shape, seq = h.keys, h.shape, h.seq
  local idx, hits = h.hit_idx, h.hits
  local m = 0
  for k = 1, n do
    local i = keys[k]
    local s = shape[i]
    if s and raycast(s, p1x, p1y, p2x, p2y, hit) ~= 0 then
      local o = m * HIT_STRIDE
      m = m + 1
      idx[m] = m
      hits[o + HIT_HANDLE] = i
      hits[o + HIT_SEQ] = seq[i]
      hits[o + HIT_T] = hit.t
      hits[o + HIT_NX] = hit.nx
      hits[o + HIT_NY] = hit.ny
      hits[o + HIT_PART] = hit.part
    end
  end
  sort(idx, m, h.by_hit, h.htmp)
  depth = d - 1
  return m, idx, stamp
end
M.sat_hash_query_segment = query_segment

-- A convex shape meets a rectangle where it crosses one of the rectangle's edges, or lies
-- inside it, and then so does its centroid.
local function meets_thin_rect(s, xs, ys, hit)
  local px, py = sat_shape_position(s)
  local xlo, xhi = fmin(xs[1], xs[3]), fmax(xs[1], xs[3])
  local ylo, yhi = fmin(ys[1], ys[3]), fmax(ys[1], ys[3])
  if px >= xlo and px <= xhi and py >= ylo and py <= yhi then
    return true
  end
  for i = 1, 4 do
    local j = i % 4 + 1
    if raycast(s, xs[i], ys[i], xs[j], ys[j], hit) ~= 0 then
      return true
    end
  end
  return false
end

--- sat_hash_query_rect(h, x1, y1, x2, y2) -> n, handles: the shapes overlapping or touching
-- the rectangle [x1, x2] x [y1, y2] (a degenerate one is a segment or a point).
function M.sat_hash_query_rect(h, x1, y1, x2, y2)
  if x1 == x2 and y1 == y2 then
    return query_point(h, x1, y1)
  end
  local xs, ys = h.rect_xs, h.rect_ys
  xs[1], ys[1] = x1, y1
  xs[2], ys[2] = x2, y1
  xs[3], ys[3] = x2, y2
  xs[4], ys[4] = x1, y2
  if x1 == x2 or y1 == y2 then
    -- No area: the rectangle is a segment.
    local n, idx, stamp = query_segment(h, x1, y1, x2, y2)
    local keys, hits = h.keys, h.hits
    for k = 1, n do
      keys[k] = hits[(idx[k] - 1) * HIT_STRIDE + HIT_HANDLE]
    end
    sort_keys(h, n)
    return n, keys, stamp
  end
  -- sat_polygon_init(h->rect, pts, 4), in the hash's own work arrays and rectangle record
  -- (made once: building it again makes nothing)
  local rect, out = h.rect, h.rect_out
  local thin = S.sat_polygon_validate(xs, ys, 4, h.rect_wx, h.rect_wy, out) ~= K.SAT_OK
  if not thin then
    S.sat_polygon_build(rect, out)
  end
  local qx1, qy1, qx2, qy2 = point_box(x1, y1, x2, y2)
  local n, stamp = gather_box(h, qx1, qy1, qx2, qy2, SAT_HASH_NONE)
  local d = depth + 1
  depth = d
  local hit = HITS[d]
  if hit == nil then -- (the allocation may run a finalizer: d is counted already)
    hit = { t = 0.0, nx = 0.0, ny = 0.0, part = -1 }
    HITS[d] = hit
  end
  local keys, shape = h.keys, h.shape
  local m = 0
  for k = 1, n do
    local i = keys[k]
    local s = shape[i]
    -- too thin to be a polygon: tested edge by edge instead
    local meets
    if not s then
      meets = false -- (removed meanwhile)
    elseif thin then
      meets = meets_thin_rect(s, xs, ys, hit)
    else
      meets = sat_test(rect, s) ~= 0
    end
    if meets then
      m = m + 1
      keys[m] = i
    end
  end
  depth = d - 1
  sort_keys(h, m)
  return m, keys, stamp
end

-- Whether a query from self (or from no entry) skips entry i: two static entries never meet,
-- and with filter neither do shapes whose categories refuse each other; with filter
-- SAT_HASH_EVERY, every entry is kept.
local function skips(h, s, self, filter, i, o)
  if filter == SAT_HASH_EVERY then
    return false
  end
  local static = h.static
  if self ~= SAT_HASH_NONE and static[self] and static[i] then
    return true
  end
  return filter and not accepts(s, o)
end

--- sat_hash_collisions(h, s, self, filter) -> n: sat_collide(s, other) for every colliding
-- other except self, by insertion (filter: a boolean, the categories' test): the pairs are
-- records 1..n of h.pairs (a is self).
function M.sat_hash_collisions(h, s, self, filter)
  local qx1, qy1, qx2, qy2 = padded_box(s)
  local n, stamp = gather_box(h, qx1, qy1, qx2, qy2, self)
  sort_keys(h, n)
  local d = depth + 1
  depth = d
  local R = RESULTS[d]
  if R == nil then -- (the allocation may run a finalizer: d is counted already)
    R = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0, b_in_a = 0 }
    RESULTS[d] = R
  end
  local keys, shape, seq, pairs = h.keys, h.shape, h.seq, h.pairs
  local m = 0
  for k = 1, n do
    local i = keys[k]
    local so = shape[i]
    if so and not skips(h, s, self, filter, i, so) and sat_collide(s, so, R) ~= 0 then
      local o = m * PR_STRIDE
      m = m + 1
      pairs[o + PR_B] = i
      pairs[o + PR_SEQ_B] = seq[i]
      pairs[o + PR_OVERLAP] = R.overlap
      pairs[o + PR_NX] = R.nx
      pairs[o + PR_NY] = R.ny
      pairs[o + PR_MX] = R.mx
      pairs[o + PR_MY] = R.my
      pairs[o + PR_AINB] = R.a_in_b
      pairs[o + PR_BINA] = R.b_in_a
    end
  end
  depth = d - 1
  return m, stamp
end

-- ---- sweep ----------------------------------------------------------------------------------


--- sat_hash_sweep(h, s, self, vx, vy, filter) -> n, idx: sat_sweep of s by v against every
-- other (except self; with filter true, only those the categories accept, and none static
-- when self is, but with filter SAT_HASH_EVERY), sorted by t, distance, insertion; -1 when v
-- is not finite. self need not be s's own entry: a copy of a shape swept from where the shape
-- would be (world:check) is swept as that shape. The k-th hit is record
-- idx[k] of h.sweeps.
function M.sat_hash_sweep(h, s, self, vx, vy, filter)
  if not (vx - vx == 0) or not (vy - vy == 0) then
    return -1
  end
  local qx1, qy1, qx2, qy2 = padded_box(s)
  if vx < 0.0 then
    qx1 = qx1 + vx
  else
    qx2 = qx2 + vx
  end
  if vy < 0.0 then
    qy1 = qy1 + vy
  else
    qy2 = qy2 + vy
  end
  local n, stamp = gather_box(h, qx1, qy1, qx2, qy2, self)
  local d = depth + 1
  depth = d
  local hit = SWEEPS[d]
  if hit == nil then -- (the allocation may run a finalizer: d is counted already)
    hit = { overlapping = 0, t = 0.0, mx = 0.0, my = 0.0, dist2 = 0.0, part_a = -1, part_b = -1,
      result = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0, b_in_a = 0 } }
    SWEEPS[d] = hit
  end
  local r = hit.result
  local keys, shape, seq = h.keys, h.shape, h.seq
  local idx, sweeps = h.sweep_idx, h.sweeps
  local m = 0
  for k = 1, n do
    local i = keys[k]
    local so = shape[i]
    if so and not skips(h, s, self, filter, i, so) and sweep(s, vx, vy, so, hit) ~= 0 then
      local o = m * SW_STRIDE
      m = m + 1
      idx[m] = m
      sweeps[o + SW_HANDLE] = i
      sweeps[o + SW_SEQ] = seq[i]
      sweeps[o + SW_OVERLAPPING] = hit.overlapping
      sweeps[o + SW_T] = hit.t
      sweeps[o + SW_MX] = hit.mx
      sweeps[o + SW_MY] = hit.my
      sweeps[o + SW_DIST2] = hit.dist2
      sweeps[o + SW_OVERLAP] = r.overlap
      sweeps[o + SW_NX] = r.nx
      sweeps[o + SW_NY] = r.ny
      sweeps[o + SW_RMX] = r.mx
      sweeps[o + SW_RMY] = r.my
      sweeps[o + SW_AINB] = r.a_in_b
      sweeps[o + SW_BINA] = r.b_in_a
      sweeps[o + SW_PART_A] = hit.part_a
      sweeps[o + SW_PART_B] = hit.part_b
    end
  end
  depth = d - 1
  if m > 1 then
    sort(idx, m, h.by_sweep, h.wtmp)
  end
  return m, idx, stamp
end

return M
