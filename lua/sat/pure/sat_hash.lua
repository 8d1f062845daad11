--- sat_hash.lua - the pure backend's twin of src/core/sat_hash.c (and of what
-- sat_hash_internal.h shares): the spatial hash's entries. Lifetime, the shapes' records and
-- change tracking, levels and cells, filing and the sync. The queries are in
-- sat_hash_query.lua, the contacts and the step in sat_hash_step.lua; they call each other one
-- way (step -> query -> this file), as in C.
--
-- The same contract as src/core/sat_hash.h, in Lua:
-- - Handles and contact ids are the C's numbers (from 0); SAT_HASH_NONE is 0xffffffff.
--   Handles come from a free list as in C (the last freed first, else the next unused
--   slot), contact ids likewise, so that both are the same numbers in both backends.
-- - A hash is a table of flat arrays indexed by handle (an entry's fields: shape, seq, its
--   padded box x1 y1 x2 y2, stamp, contacts, lpos, level, span, and the C's flag bits as
--   booleans: static, dirty, changed, filed, done, mark) and by contact id (sat_hash_step.lua).
-- - Results live in buffers of the hash (1-based arrays), valid until the next call on it:
--   functions return the count and the buffer. Nothing here fails for want of memory (Lua
--   raises instead), so the C's -1 is returned only where the C refuses an argument.
--
-- Cells. The C hashes (level, x, y) into one table of buckets; a query's candidates come out
-- in the order of its chains, and only sorted (by insertion, t, distance) does the C hand
-- them out, or (the step's new contacts) make anything of them: so the cells here may be kept
-- otherwise. Each level has its own table of cells, keyed by one exact number made of x and y
-- while |x| and |y| < 2^25 (every world near the origin), or else (cell coordinates reach
-- 2^50) by x, then by y, in a table of rows. A cell holds a chain of nodes (flat
-- arrays: the entry, its corner k, the next node; a free list of nodes), as in C.
--
-- A shape's record (sat_internal.lua) lists the hashes holding it at `members`, a list of
-- member tables through `next` (with `prev` here, for unlinking): { changed = member_changed,
-- hash, handle, shape }. The core calls m.changed(m) on every change of the shape
-- (sat__changed). A hash keeps one member table per handle, reused.
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

local M = {}

local floor = math.floor
local next = next
local frexp, ldexp = I.frexp, I.ldexp
local sat_shape_bbox = S.sat_shape_bbox

local SAT_HASH_NONE = 4294967295
M.SAT_HASH_NONE = SAT_HASH_NONE
M.SAT_HASH_DEFAULT_CELL = 64.0
M.SAT_HASH_MIN_CELL = K.SAT_MIN_SIZE
M.SAT_HASH_MAX_CELL = K.SAT_MAX_COORD
M.SAT_HASH_STATIC = 1
-- The `filter` of sat_hash_collisions and sat_hash_sweep that keeps every other entry, as the
-- queries do: no category or mask, and a static self meets static others.
M.SAT_HASH_EVERY = 2

-- Query ranges are clamped to this many cells (sat_hash_internal.h).
local CELL_LIMIT = 1125899906842624.0 -- 2^50
M.CELL_LIMIT = CELL_LIMIT
-- Above any level a shape the core takes can need.
local MAX_LEVEL = 1100

local DBL_EPSILON, DBL_MIN = I.P2[-52], I.P2[-1022]
M.DBL_EPSILON, M.DBL_MIN = DBL_EPSILON, DBL_MIN
local TOUCH_PAD = K.SAT_BROAD_TOUCH_PAD * K.SAT_TOUCH_REL -- (the C's constant product)
local ROUNDING = K.SAT_BROAD_ROUNDING * DBL_EPSILON

-- A cell's key in its level's table, while |x| and |y| < 2^25: x * 2^26 + y + 0.5, exact (below
-- 2^52) and never an integer, so that the table is all hash part (LuaJIT compiles no lookup
-- in a table with both parts: "NYI: mixed sparse/dense table"). A far cell's: x + 0.5 in the
-- level's table of rows, then y + 0.5 in the row.
local KX, KN = 67108864.0, 33554432.0

-- ---- result records ------------------------------------------------------------------------

-- The C's result structs, as records of numbers in flat arrays of the hash: record k (from 1)
-- at (k - 1) * STRIDE + the offsets below. One array, not one per field: the loops that fill
-- them keep one table live (LuaJIT gives up on a loop with too many: "register coalescing
-- too complex"), and growing it makes no object.
-- sat_hash_hit (h.hits, sat_hash_query_segment): the entry, its sat_hit (part: a compound's
-- part entered, from 0; -1 for another kind)
local HIT_HANDLE, HIT_SEQ, HIT_T, HIT_NX, HIT_NY, HIT_PART, HIT_STRIDE = 1, 2, 3, 4, 5, 6, 6
-- sat_hash_pair (h.pairs, sat_hash_collisions: a is the query's self): its b, and its result
local PR_B, PR_SEQ_B, PR_OVERLAP, PR_NX, PR_NY, PR_MX, PR_MY, PR_AINB, PR_BINA, PR_STRIDE =
  1, 2, 3, 4, 5, 6, 7, 8, 9, 9
-- sat_hash_sweep_hit (h.sweeps, sat_hash_sweep): the entry, the sat_sweep_hit, its result, its
-- parts (part_a, part_b: from 0, -1 for a shape that is not a compound)
local SW_HANDLE, SW_SEQ, SW_OVERLAPPING, SW_T, SW_MX, SW_MY, SW_DIST2 = 1, 2, 3, 4, 5, 6, 7
local SW_OVERLAP, SW_NX, SW_NY, SW_RMX, SW_RMY, SW_AINB, SW_BINA = 8, 9, 10, 11, 12, 13, 14
local SW_PART_A, SW_PART_B, SW_STRIDE = 15, 16, 16
-- a new contact of the step (h.fresh, sat_hash_step.lua): a, b, their seqs, its result
local FR_A, FR_B, FR_SA, FR_SB, FR_OVERLAP, FR_NX, FR_NY, FR_MX, FR_MY, FR_AINB, FR_BINA =
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
local FR_STRIDE = 11
M.HIT_HANDLE, M.HIT_SEQ, M.HIT_T, M.HIT_NX, M.HIT_NY, M.HIT_PART, M.HIT_STRIDE =
  HIT_HANDLE, HIT_SEQ, HIT_T, HIT_NX, HIT_NY, HIT_PART, HIT_STRIDE
M.PR_B, M.PR_SEQ_B, M.PR_OVERLAP, M.PR_NX, M.PR_NY, M.PR_MX, M.PR_MY, M.PR_AINB, M.PR_BINA,
  M.PR_STRIDE = PR_B, PR_SEQ_B, PR_OVERLAP, PR_NX, PR_NY, PR_MX, PR_MY, PR_AINB, PR_BINA,
  PR_STRIDE
M.SW_HANDLE, M.SW_SEQ, M.SW_OVERLAPPING, M.SW_T, M.SW_MX, M.SW_MY, M.SW_DIST2 =
  SW_HANDLE, SW_SEQ, SW_OVERLAPPING, SW_T, SW_MX, SW_MY, SW_DIST2
M.SW_OVERLAP, M.SW_NX, M.SW_NY, M.SW_RMX, M.SW_RMY, M.SW_AINB, M.SW_BINA, M.SW_STRIDE =
  SW_OVERLAP, SW_NX, SW_NY, SW_RMX, SW_RMY, SW_AINB, SW_BINA, SW_STRIDE
M.SW_PART_A, M.SW_PART_B = SW_PART_A, SW_PART_B
M.FR_A, M.FR_B, M.FR_SA, M.FR_SB, M.FR_OVERLAP, M.FR_NX, M.FR_NY, M.FR_MX, M.FR_MY =
  FR_A, FR_B, FR_SA, FR_SB, FR_OVERLAP, FR_NX, FR_NY, FR_MX, FR_MY
M.FR_AINB, M.FR_BINA, M.FR_STRIDE = FR_AINB, FR_BINA, FR_STRIDE

-- ---- small helpers (sat_hash_internal.h) --------------------------------------------------

--- cell_of(v, inv): floor(v * inv), clamped to +-2^50 (NaN and -inf to the low end). A zero
-- comes out +0, as the C's integer does.
local function cell_of(v, inv)
  local c = v * inv
  if not (c > -CELL_LIMIT) then
    return -CELL_LIMIT
  end
  if not (c < CELL_LIMIT) then
    return CELL_LIMIT
  end
  return floor(c) + 0.0
end
M.cell_of = cell_of

--- padded_box(s) -> x1, y1, x2, y2: a shape's box, padded by the touch tolerance and by the
-- rounding of a box far from the origin.
local function padded_box(s)
  local x1, y1, x2, y2 = sat_shape_bbox(s)
  local px, py = s.px, s.py
  local far = (px < 0 and -px or px + 0.0) + (py < 0 and -py or py + 0.0) + s.bound
  local pad = TOUCH_PAD * s.bound + ROUNDING * far + DBL_MIN
  return x1 - pad, y1 - pad, x2 + pad, y2 + pad
end
M.padded_box = padded_box

-- (x & y) ~= 0 for 32-bit x, y, without bit operators: the usual filters at once, others a
-- nibble at a time.
local NIBBLE_AND = {}
for a = 0, 15 do
  for b = 0, 15 do
    local x, y, any = a, b, false
    for _ = 1, 4 do
      if x % 2 == 1 and y % 2 == 1 then
        any = true
      end
      x, y = floor(x / 2), floor(y / 2)
    end
    NIBBLE_AND[a * 16 + b] = any
  end
end

local function bits_meet(x, y)
  if x == 0 or y == 0 then
    return false
  end
  if y == 4294967295 or x == 4294967295 or x == y then
    return true
  end
  for _ = 1, 8 do
    local a, b = x % 16, y % 16
    if NIBBLE_AND[a * 16 + b] then
      return true
    end
    x, y = (x - a) / 16, (y - b) / 16
    if x == 0 or y == 0 then
      return false
    end
  end
  return false
end
M.bits_meet = bits_meet

--- accepts(a, b): each one's category is in the other's mask.
local function accepts(a, b)
  local ca, mb = a.category, b.mask
  if not (mb == 4294967295 and ca ~= 0) and not bits_meet(ca, mb) then
    return false
  end
  local cb, ma = b.category, a.mask
  return (ma == 4294967295 and cb ~= 0) or bits_meet(cb, ma)
end
M.accepts = accepts

--- next_count(h, field): the next value of the per-entry counter h[field] (the query stamp);
-- when it wraps at 2^32, every entry's copy is reset.
local function next_count(h, field)
  local v = h[field] + 1
  if v == 4294967296 then
    local a, b = h.stamp, h.sstamp
    for i = 0, h.eused - 1 do
      a[i], b[i] = 0, 0
    end
    v = 1
  end
  h[field] = v
  return v
end
M.next_count = next_count

-- ---- one change at a time (re-entrancy) -------------------------------------------------------

-- The C core is never interrupted inside a hash operation (a finalizer runs only at the
-- binding's allocations, between core calls). Lua code can be: a finalizer runs at any
-- allocation (and under LuaJIT's compiler at a trace's exit, between any two statements), a
-- debug hook at any instruction. So the pure core keeps the C's guarantee itself: while one
-- operation changes a hash (G.busy > 0: a sync, an insertion, a removal, a step, a shape's
-- change being filed), code run from inside it (it runs to its end before the operation goes
-- on: no finalizer or hook runs inside another) changes no hash; instead
-- - a shape's change is queued (the shape is filed again by the next sync);
-- - an insertion or a removal is queued (hash:count, has and isStatic count it already; the
--   contacts a queued removal drops are told as ended by the next step);
-- - a sync is skipped (a query answers from the cells as they are), a step tells nothing
--   (what changed is told by the next one);
-- and the queue is applied, in order, as the outermost operation ends (an error through it
-- included: lsat_hash.lua and the sync hold the lock through pcall). One lock for every hash,
-- not one each: a shape's list of member records is shared by the hashes holding it.
-- Two queues, the one being applied and the one nested code fills, so that applying one
-- races with no append: nested code writes only G.q; applying reads the other.
local QA, QB = { n = 0, r = 0 }, { n = 0, r = 0 }
-- act_h, act_s, act_in: the insertion (act_in true) or removal of shape proxy act_s in hash
-- act_h in progress, which nested code counts as made (sat__hash_queued)
local G = { busy = 0, q = QA, act_h = false, act_s = false, act_in = false }
M.G = G
local Q_DIRTY, Q_ADD, Q_REMOVE = 1, 2, 3
M.Q_DIRTY, M.Q_ADD, M.Q_REMOVE = Q_DIRTY, Q_ADD, Q_REMOVE

--- sat__hash_enqueue(h, op, a, b, c, d): queues an operation on h for the end of the one in
-- progress (nested code only): Q_DIRTY of handle a; Q_ADD of shape a (static b) by the
-- object c (byHandle d), Q_REMOVE of shape a by the object c (h.apply applies these).
local function enqueue(h, op, a, b, c, d)
  local q = G.q
  local n = q.n
  q.n = n + 1 -- (taken first: a finalizer run by the writes below queues after it)
  local o = 6 * n
  q[o + 1], q[o + 2], q[o + 3], q[o + 4], q[o + 5], q[o + 6] = h, op, a, b, c, d
end
M.sat__hash_enqueue = enqueue

local mark_dirty

--- sat__hash_pending() -> whether operations are queued.
local function pending()
  return QA.n > QA.r or QB.n > QB.r
end
M.sat__hash_pending = pending

-- Applies the queued entry at k of q, the lock held (by the drain).
local function apply_entry(q, k)
  local o = 6 * (k - 1)
  local h, op, a, b, c, d = q[o + 1], q[o + 2], q[o + 3], q[o + 4], q[o + 5], q[o + 6]
  q[o + 1], q[o + 3], q[o + 5], q[o + 6] = false, false, false, false -- (keeps nothing alive)
  q.r = k
  if h.freed then
    return
  end
  if op == Q_DIRTY then
    if h.shape[a] then
      mark_dirty(h, a)
    end
  else
    h.apply(h, op, a, b, c, d) -- (lsat_hash.lua: hash:add's or hash:remove's work)
    G.act_h, G.act_s = false, false
  end
end

-- Applies the queue, in order, the lock held: the entries queued before it began (what nested
-- code queues meanwhile goes into the other queue, for the next holder: a drain that took
-- those too might never end while a finalizer or a hook keeps queueing).
local function drain()
  local cur = G.q
  local other = cur == QA and QB or QA
  if other.r < other.n then -- (left by an error: older than cur's)
    while other.r < other.n do
      apply_entry(other, other.r + 1)
    end
  end
  other.n, other.r = 0, 0
  if cur.n > 0 then
    G.q = other -- (nested code queues there from now on)
    while cur.r < cur.n do
      apply_entry(cur, cur.r + 1)
    end
    cur.n, cur.r = 0, 0
  end
end

local hold

local function nothing()
end

-- The protected part of hold: the lock taken first (before it nothing can fail: out of
-- memory making pcall's frame leaves the lock as it was), what is queued applied, then the
-- body, then what was queued meanwhile.
local function held(body, a, b, c, d, e, f)
  G.busy = G.busy + 1
  if pending() then
    drain()
  end
  local r1, r2, r3 = body(a, b, c, d, e, f)
  if pending() then
    drain()
  end
  return r1, r2, r3
end

--- sat__hash_hold(body, a, ..., f) -> body's results: runs body(a, ..., f) holding the lock
-- (the caller saw G.busy == 0), released on any exit (an error goes on after). What is queued
-- is applied first, and what the body's nested code queued after it (an operation queued as
-- the lock is let go waits for the next holder, which applies it before anything else; until
-- then has, count and shapes count it, and every query applies it first, in its sync).
function hold(body, a, b, c, d, e, f)
  local b0 = G.busy
  local ok, r1, r2, r3 = pcall(held, body, a, b, c, d, e, f)
  G.act_h, G.act_s = false, false
  G.busy = b0
  if not ok then
    error(r1, 0)
  end
  return r1, r2, r3
end
M.sat__hash_hold = hold

--- sat__hash_queued(h, s) -> nil when no queued operation names the shape proxy s in h; else
-- whether it is in after them, and whether static.
function M.sat__hash_queued(h, s)
  local state, static = nil, false
  if G.act_h == h and G.act_s == s then -- (older than anything queued)
    state, static = G.act_in, G.act_static
  end
  local cur = G.q
  local other = cur == QA and QB or QA
  for pass = 1, 2 do
    local q = pass == 1 and other or cur
    for k = q.r + 1, q.n do
      local o = 6 * (k - 1)
      if q[o + 1] == h and q[o + 3] == s then
        local op = q[o + 2]
        if op == Q_ADD then
          state, static = true, q[o + 4] and true or false
        elseif op == Q_REMOVE then
          state = false
        end
      end
    end
  end
  return state, static
end

--- sat__hash_queued_shapes(h, f): f(s) for each shape proxy queued for h (may repeat).
function M.sat__hash_queued_shapes(h, f)
  local cur = G.q
  local other = cur == QA and QB or QA
  for pass = 1, 2 do
    local q = pass == 1 and other or cur
    for k = q.r + 1, q.n do
      local o = 6 * (k - 1)
      if q[o + 1] == h and q[o + 2] ~= Q_DIRTY then
        f(q[o + 3], q[o + 2] == Q_ADD)
      end
    end
  end
end

-- ---- the contact lists (sat_hash_internal.h) -----------------------------------------------

--- contact_free(h, k): unlinks contact k from its two entries' lists and frees its id.
local function contact_free(h, k)
  local c_a, c_b = h.c_a, h.c_b
  local next0, next1, prev0, prev1 = h.c_next0, h.c_next1, h.c_prev0, h.c_prev1
  local contacts = h.contacts
  for s = 0, 1 do
    local i, nx, pv
    if s == 0 then
      i, nx, pv = c_a[k], next0[k], prev0[k]
    else
      i, nx, pv = c_b[k], next1[k], prev1[k]
    end
    if pv ~= SAT_HASH_NONE then
      if c_a[pv] == i then
        next0[pv] = nx
      else
        next1[pv] = nx
      end
    else
      contacts[i] = nx
    end
    if nx ~= SAT_HASH_NONE then
      if c_a[nx] == i then
        prev0[nx] = pv
      else
        prev1[nx] = pv
      end
    end
  end
  h.c_live[k], h.c_pending[k], h.c_added[k], h.c_updated[k] = false, false, false, false
  next0[k] = h.cfree
  h.cfree = k
  h.ncfree = h.ncfree + 1
  h.clive = h.clive - 1
end
M.contact_free = contact_free

-- ---- sorting ------------------------------------------------------------------------------

-- Sorts a[1..n] by less (a strict total order: every comparator of the C's is one, ties
-- broken by unique keys, so any correct sort gives the C's order): insertion sort when short,
-- else a bottom-up merge sort through the scratch array tmp.
local function sort(a, n, less, tmp)
  if n <= 16 then
    for k = 2, n do
      local v = a[k]
      local j = k
      while j > 1 and less(v, a[j - 1]) do
        a[j] = a[j - 1]
        j = j - 1
      end
      a[j] = v
    end
    return
  end
  -- runs of 8 by insertion, then merges back and forth between a and tmp
  for lo = 1, n, 8 do
    local hi = lo + 7
    if hi > n then
      hi = n
    end
    for k = lo + 1, hi do
      local v = a[k]
      local j = k
      while j > lo and less(v, a[j - 1]) do
        a[j] = a[j - 1]
        j = j - 1
      end
      a[j] = v
    end
  end
  local src, dst = a, tmp
  local width = 8
  while width < n do
    for lo = 1, n, 2 * width do
      local mid, hi = lo + width, lo + 2 * width - 1
      if mid > n + 1 then
        mid = n + 1
      end
      if hi > n then
        hi = n
      end
      local i, j, k = lo, mid, lo
      while i < mid and j <= hi do
        local x, y = src[i], src[j]
        if less(y, x) then
          dst[k] = y
          j = j + 1
        else
          dst[k] = x
          i = i + 1
        end
        k = k + 1
      end
      while i < mid do
        dst[k] = src[i]
        i, k = i + 1, k + 1
      end
      while j <= hi do
        dst[k] = src[j]
        j, k = j + 1, k + 1
      end
    end
    src, dst = dst, src
    width = width * 2
  end
  if src ~= a then
    for k = 1, n do
      a[k] = src[k]
    end
  end
end
M.sort = sort

-- ---- the shapes' records: change tracking ------------------------------------------------

-- Sets the entry's flag and appends it to the list; nothing when it is listed already.
local function mark_changed(h, i)
  local f = h.changed_f
  if not f[i] then
    f[i] = true
    local n = h.nchanged + 1
    h.changed[n] = i
    h.nchanged = n
  end
end

function mark_dirty(h, i)
  local f = h.dirty_f
  if not f[i] then
    f[i] = true
    local n = h.ndirty + 1
    h.dirty[n] = i
    h.ndirty = n
  end
end

-- Called by the core on every change of a shape (sat__changed, with the shape's first member
-- record): tells every hash holding it, queued while an operation holds the lock (from code
-- run inside it). The whole list is walked here, the lock held, not by sat__changed one record
-- at a time: between two records a hook or a finalizer could remove the shape from a hash
-- (and the queue applied as the lock is let go, too), whose record, unlinked, ends the walk
-- (`next` false) or, reused for another shape, leads it into that shape's list: the hashes
-- after it were never told.
local function member_changed(m)
  if G.busy > 0 then
    while m do
      enqueue(m.hash, Q_DIRTY, m.handle)
      m = m.next
    end
    return
  end
  -- mark_dirty, inline: no call while the lock is held by hand, since a call may allocate
  -- (Lua makes a call record the first time it goes deeper) and fail, and nothing would let
  -- the lock go; writing the lists allocates nothing (h_add made their slots)
  G.busy = 1
  while m do
    local h, i = m.hash, m.handle
    local f = h.dirty_f
    if not f[i] then
      f[i] = true
      local n = h.ndirty + 1
      h.dirty[n] = i
      h.ndirty = n
    end
    m = m.next
  end
  G.busy = 0
  if pending() then
    hold(nothing)
  end
end

local function member_unlink(m)
  local prev, nxt = m.prev, m.next
  if prev then
    prev.next = nxt
  else
    m.shape.members = nxt
  end
  if nxt then
    nxt.prev = prev
  end
  m.prev, m.next, m.shape = false, false, false -- (keys kept: see reserve)
end

-- ---- levels and cells ---------------------------------------------------------------------

-- Level k exists (levels 0 .. k made, as the C's reserve_level makes them). One at a time:
-- making its tables may run a finalizer, which may make levels too.
local function reserve_level(h, k)
  while h.nlv <= k do
    local i = h.nlv
    local ents, cells, far = {}, {}, {}
    if h.nlv == i then
      h.lv_inv[i] = ldexp(h.inv, -i)
      h.lv_ents[i], h.lv_cells[i], h.lv_far[i] = ents, cells, far
      h.lv_count[i] = 0
      h.lv_cap[i] = 0
      h.nlv = i + 1
    end
  end
end

local function level_add(h, i, k)
  local count = h.lv_count[k]
  if count == 0 then
    local used = h.used
    local u = h.nused
    while u > 0 and used[u] > k do
      used[u + 1] = used[u]
      u = u - 1
    end
    used[u + 1] = k
    h.nused = h.nused + 1
  end
  count = count + 1
  h.lpos[i] = count
  h.lv_ents[k][count] = i
  h.lv_count[k] = count
end

local function level_remove(h, i)
  local k = h.level[i]
  local ents, lpos = h.lv_ents[k], h.lpos
  local count = h.lv_count[k]
  local last = ents[count]
  local p = lpos[i]
  ents[p] = last
  lpos[last] = p
  count = count - 1
  h.lv_count[k] = count
  if count == 0 then
    local used, nused = h.used, h.nused
    local u = 1
    while used[u] ~= k do
      u = u + 1
    end
    for j = u, nused - 1 do
      used[j] = used[j + 1]
    end
    used[nused] = 0 -- (a key kept: see grow)
    h.nused = nused - 1
  end
end

--- cell_head(h, level, cx, cy): the first node of the cell, or nil when it holds none.
local function cell_head(h, level, cx, cy)
  if cx < KN and cx > -KN and cy < KN and cy > -KN then
    return h.lv_cells[level][cx * KX + cy + 0.5]
  end
  local row = h.lv_far[level][cx + 0.5]
  return row and row[cy + 0.5]
end
M.cell_head = cell_head

local function cell_add(h, level, cx, cy, i, k)
  local n_next = h.n_next
  local id = h.nodefree
  if id ~= 0 then
    h.nodefree = n_next[id]
  else
    id = h.nodeused + 1
    h.nodeused = id
  end
  h.n_e[id] = i
  h.n_k[id] = k
  if cx < KN and cx > -KN and cy < KN and cy > -KN then
    local cells, key = h.lv_cells[level], cx * KX + cy + 0.5
    n_next[id] = cells[key] or 0
    cells[key] = id
  else
    local row = h.lv_far[level][cx + 0.5] -- (made by the sync first: missing_row)
    n_next[id] = row[cy + 0.5] or 0
    row[cy + 0.5] = id
  end
end

-- Unlinks node id (after prev, 0 for the first) from the chain of its cell, whose first node
-- is set through set(t, key, first).
local function cell_remove(h, level, cx, cy, i)
  local n_next, n_e = h.n_next, h.n_e
  local t, key
  if cx < KN and cx > -KN and cy < KN and cy > -KN then
    t, key = h.lv_cells[level], cx * KX + cy + 0.5
  else
    t, key = h.lv_far[level][cx + 0.5], cy + 0.5
  end
  local prev, id = 0, t[key] or 0
  while id ~= 0 and n_e[id] ~= i do
    prev, id = id, n_next[id]
  end
  if id == 0 then -- not there: its filing was cut short by this removal (a finalizer, a hook)
    return
  end
  local nxt = n_next[id]
  if prev == 0 then
    if nxt == 0 then
      t[key] = nil
      if t ~= h.lv_cells[level] then -- a row that may be empty now: dropped by prune_rows
        local np = h.nprune + 1
        h.prune_lv[np], h.prune_cx[np] = level, cx
        h.nprune = np
      end
    else
      t[key] = nxt
    end
  else
    n_next[prev] = nxt
  end
  n_next[id] = h.nodefree
  h.nodefree = id
end

-- Drops the rows of far cells that cell_remove left empty (not at once: filing an entry again
-- at once may need its row, and making one makes an object).
local function prune_rows(h)
  local lv_far, prune_lv, prune_cx = h.lv_far, h.prune_lv, h.prune_cx
  for j = 1, h.nprune do
    local far = lv_far[prune_lv[j]]
    local cx = prune_cx[j]
    local row = far[cx + 0.5]
    if row ~= nil and next(row) == nil then
      far[cx + 0.5] = nil
    end
  end
  h.nprune = 0
end

-- The row of far cells a cell of the entry filed at (level, cx, cy, span) needs and lacks
-- (its column), or nil when it has them all.
local function missing_row(h, level, cx, cy, span)
  local far = h.lv_far[level]
  local cy1 = span >= 2 and cy + 1 or cy
  local cx1 = (span == 1 or span == 3) and cx + 1 or cx
  for x = cx, cx1 do
    for y = cy, cy1 do
      if not (x < KN and x > -KN and y < KN and y > -KN) and far[x + 0.5] == nil then
        return x
      end
    end
  end
  return nil
end

-- The entry's cells, added (add) or removed.
local function entry_cells(h, i, add)
  local level, span, cx, cy = h.level[i], h.span[i], h.cx[i], h.cy[i]
  if add then
    cell_add(h, level, cx, cy, i, 0)
    if span == 1 or span == 3 then
      cell_add(h, level, cx + 1, cy, i, 1)
    end
    if span >= 2 then
      cell_add(h, level, cx, cy + 1, i, 2)
    end
    if span == 3 then
      cell_add(h, level, cx + 1, cy + 1, i, 3)
    end
  else
    cell_remove(h, level, cx, cy, i)
    if span == 1 or span == 3 then
      cell_remove(h, level, cx + 1, cy, i)
    end
    if span >= 2 then
      cell_remove(h, level, cx, cy + 1, i)
    end
    if span == 3 then
      cell_remove(h, level, cx + 1, cy + 1, i)
    end
  end
end

-- ---- room ----------------------------------------------------------------------------------

-- Lua has no allocation that can fail apart from a change: a table grows when a key is new to
-- it, and may then run out of memory (or run a finalizer) halfway through a change. So, as the
-- C reserves before it changes anything, every key a change will write is made first: the
-- arrays below hold keys 1 .. their *cap (placeholders past the count in use), and a cell an
-- entry will be filed in holds a key (0: no node yet; a key whose chain empties is set to
-- nil, and stays in its table, so that filing there again makes no key either, until the
-- table grows for another key). A change then writes existing keys alone.

-- Writes placeholders v at t[n + 1 .. m] (nothing already there is touched).
local function grow(t, n, m, v)
  for j = n + 1, m do
    if t[j] == nil then
      t[j] = v
    end
  end
end
M.grow = grow

-- The new capacity for `need` past `cap`: doubled at least, as the C's arrays grow.
local function new_cap(cap, need)
  local c = cap * 2
  if c < 8 then
    c = 8
  end
  return c >= need and c or need
end
M.new_cap = new_cap

-- Whether a key for the cell exists (a chain, or a placeholder).
local function has_cell(h, level, cx, cy)
  if cx < KN and cx > -KN and cy < KN and cy > -KN then
    return h.lv_cells[level][cx * KX + cy + 0.5] ~= nil
  end
  return h.lv_far[level][cx + 0.5][cy + 0.5] ~= nil
end

local function make_cell(h, level, cx, cy)
  if cx < KN and cx > -KN and cy < KN and cy > -KN then
    local cells, key = h.lv_cells[level], cx * KX + cy + 0.5
    if cells[key] == nil then
      cells[key] = 0
    end
  else
    local row = h.lv_far[level][cx + 0.5]
    if row[cy + 0.5] == nil then
      row[cy + 0.5] = 0
    end
  end
end

-- Whether re-filing entry i at (level, cx, cy, span) (its rows and level made) writes
-- existing keys alone; else makes them (which may run a finalizer: the caller takes the entry
-- again) and returns false.
local function filing_room(h, i, level, cx, cy, span)
  local ok = true
  if h.nodeused + 4 > h.nodecap then
    local cap = new_cap(h.nodecap, h.nodeused + 4)
    grow(h.n_e, h.nodecap, cap, 0)
    grow(h.n_k, h.nodecap, cap, 0)
    grow(h.n_next, h.nodecap, cap, 0)
    h.nodecap = cap
    ok = false
  end
  if h.filed[i] and h.nprune + 4 > h.prunecap then
    local cap = new_cap(h.prunecap, h.nprune + 4)
    grow(h.prune_lv, h.prunecap, cap, 0)
    grow(h.prune_cx, h.prunecap, cap, 0.0)
    h.prunecap = cap
    ok = false
  end
  if h.nused + 1 > h.usedcap then
    local cap = new_cap(h.usedcap, h.nused + 1)
    grow(h.used, h.usedcap, cap, 0)
    h.usedcap = cap
    ok = false
  end
  local count, lcap = h.lv_count[level], h.lv_cap[level]
  if count + 1 > lcap then
    local cap = new_cap(lcap, count + 1)
    grow(h.lv_ents[level], lcap, cap, 0)
    h.lv_cap[level] = cap
    ok = false
  end
  for k = 0, 3 do
    local kx, ky = (k == 1 or k == 3) and 1 or 0, k >= 2 and 1 or 0
    if (kx == 0 or span == 1 or span == 3) and (ky == 0 or span >= 2)
      and not has_cell(h, level, cx + kx, cy + ky) then
      make_cell(h, level, cx + kx, cy + ky)
      ok = false
    end
  end
  return ok
end

-- Whether unfiling an entry writes existing keys alone; else makes them and returns false.
local function unfiling_room(h)
  if h.nprune + 4 > h.prunecap then
    local cap = new_cap(h.prunecap, h.nprune + 4)
    grow(h.prune_lv, h.prunecap, cap, 0)
    grow(h.prune_cx, h.prunecap, cap, 0.0)
    h.prunecap = cap
    return false
  end
  return true
end
M.unfiling_room = unfiling_room

-- ---- filing entries -------------------------------------------------------------------------

-- The lowest level where a box w wide could cover at most 2 cells a side.
local function start_level(w, inv)
  local r = w * inv
  if not (r >= 2.0) then
    return 0
  end
  local _, ex = frexp(r) -- r < 2^ex
  return ex - 1 < MAX_LEVEL and ex - 1 or MAX_LEVEL
end

local function level_inv(h, k)
  if k < h.nlv then
    return h.lv_inv[k]
  end
  return ldexp(h.inv, -k)
end

--- place(h, s) -> x1, y1, x2, y2, level, cx, cy, span: where s goes, the lowest level at
-- which its padded box covers at most 2 x 2 cells (two levels tried at most).
local function place(h, s)
  local bx1, by1, bx2, by2 = padded_box(s)
  local wx, wy = bx2 - bx1, by2 - by1
  local w = wx > wy and wx or wy
  local k = start_level(w, h.inv)
  while true do
    local inv = level_inv(h, k)
    local x0, x1 = cell_of(bx1, inv), cell_of(bx2, inv)
    local y0, y1 = cell_of(by1, inv), cell_of(by2, inv)
    if (x1 - x0 <= 1 and y1 - y0 <= 1) or k >= MAX_LEVEL then
      return bx1, by1, bx2, by2, k, x0, y0, (x1 > x0 and 1 or 0) + (y1 > y0 and 2 or 0)
    end
    k = k + 1
  end
end
M.place = place

local function file_entry(h, i, x1, y1, x2, y2, level, cx, cy, span)
  h.x1[i], h.y1[i], h.x2[i], h.y2[i] = x1, y1, x2, y2
  h.level[i], h.span[i], h.cx[i], h.cy[i] = level, span, cx, cy
  h.filed[i] = true
  level_add(h, i, level)
  entry_cells(h, i, true)
end

local function unfile_entry(h, i)
  entry_cells(h, i, false)
  level_remove(h, i)
  h.filed[i] = false
end

--- sat_hash_sync(h) -> 0: re-files every entry whose shape changed since it was last filed.
-- (An entry's first cell is kept (cx, cy) rather than found again from its box: the same
-- numbers, as the C finds them.)
-- Making the tables of a level or a row of far cells may run a finalizer, which may change
-- this hash: the sync makes them before it changes anything, then takes the entry again.
-- (sync_held: the caller holds the lock.)
local function sync_held(h)
  local dirty, dirty_f, shape, filed = h.dirty, h.dirty_f, h.shape, h.filed
  while h.ndirty > 0 do
    local n = h.ndirty
    local i = dirty[n]
    local s = shape[i]
    if not s then -- removed since: its slot is free
      h.ndirty = n - 1
      dirty_f[i] = false
    else
      local x1, y1, x2, y2, level, cx, cy, span = place(h, s)
      if filed[i] and level == h.level[i] and span == h.span[i] and cx == h.cx[i]
        and cy == h.cy[i] then
        h.x1[i], h.y1[i], h.x2[i], h.y2[i] = x1, y1, x2, y2 -- moved inside its cells
        h.ndirty = n - 1
        dirty_f[i] = false
        mark_changed(h, i)
      elseif level >= h.nlv then
        reserve_level(h, level)
      else
        local x = missing_row(h, level, cx, cy, span)
        if x ~= nil then
          local row = {}
          local far = h.lv_far[level]
          if far[x + 0.5] == nil then
            far[x + 0.5] = row
          end
        elseif filing_room(h, i, level, cx, cy, span) then
          if filed[i] then
            unfile_entry(h, i)
          end
          file_entry(h, i, x1, y1, x2, y2, level, cx, cy, span)
          h.ndirty = n - 1
          dirty_f[i] = false
          mark_changed(h, i)
        end
      end
    end
  end
  if h.nprune > 0 then
    prune_rows(h)
  end
  return 0
end
M.sat__hash_sync_held = sync_held

--- sat_hash_sync(h) -> 0: the sync, holding the lock; skipped when an operation holds it (a
-- query from inside one answers from the cells as they are).
function M.sat_hash_sync(h)
  if G.busy > 0 or (h.ndirty == 0 and h.nprune == 0 and not pending()) then
    return 0
  end
  return (hold(sync_held, h))
end

-- ---- lifetime -------------------------------------------------------------------------------

--- sat_hash_new(cell_size) -> h, or nil when cell_size is outside [SAT_HASH_MIN_CELL,
-- SAT_HASH_MAX_CELL].
function M.sat_hash_new(cell_size)
  if not (cell_size >= M.SAT_HASH_MIN_CELL and cell_size <= M.SAT_HASH_MAX_CELL) then
    return nil
  end
  local h = {
    cell = cell_size, inv = 1.0 / cell_size,
    -- entries, by handle
    shape = {}, seq = {}, x1 = {}, y1 = {}, x2 = {}, y2 = {}, stamp = {}, contacts = {},
    lpos = {}, level = {}, span = {}, cx = {}, cy = {},
    static = {}, dirty_f = {}, changed_f = {}, filed = {}, done = {}, mark = {},
    members = {},
    eused = 0, live = 0, free_head = SAT_HASH_NONE, nfree = 0,
    order = {}, norder = 0, ndead = 0,
    dirty = {}, ndirty = 0, changed = {}, nchanged = 0,
    -- levels 0 .. nlv - 1, and the levels holding entries (used[1..nused], ascending)
    lv_inv = {}, lv_ents = {}, lv_count = {}, lv_cells = {}, lv_far = {}, nlv = 0,
    lv_cap = {}, used = {}, nused = 0, usedcap = 0,
    -- nodes (from 1; 0 ends a chain)
    n_e = {}, n_k = {}, n_next = {}, nodeused = 0, nodefree = 0, nodecap = 0,
    prune_lv = {}, prune_cx = {}, nprune = 0, prunecap = 0,
    -- contacts, by id (sat_hash_step.lua)
    c_a = {}, c_b = {}, c_overlap = {}, c_nx = {}, c_ny = {}, c_mx = {}, c_my = {},
    c_ainb = {}, c_bina = {}, c_next0 = {}, c_next1 = {}, c_prev0 = {}, c_prev1 = {},
    c_live = {}, c_pending = {}, c_added = {}, c_updated = {},
    cused = 0, clive = 0, ncfree = 0, cfree = SAT_HASH_NONE, ccap = 0,
    stamp_count = 0, next_seq = 1,
    -- result buffers (1-based): flat arrays of numbers, which grow without making an object
    -- (so without running a finalizer in the middle of a call)
    keys = {}, tmp = {}, dropped = {}, ended = {}, added = {}, updated = {}, ids = {},
    -- records of C structs, a stride of numbers each (see the layouts above), and the
    -- arrays of their numbers (from 1) that sort them where the C sorts the structs
    pairs = {}, hits = {}, hit_idx = {}, sweeps = {}, sweep_idx = {}, fresh = {},
    fresh_idx = {}, nfresh = 0, frcap = 0,
    cell_x = {}, cell_y = {}, cell_n = {}, cell_order = {},
    rect = {}, rect_xs = {}, rect_ys = {}, rect_wx = {}, rect_wy = {}, rect_out = {},
    -- each entry's place in h.order; the shapes() of nested code (no compaction); the ids of
    -- the contacts queued removals dropped (told as ended by the next step); the scratch
    -- arrays of the step's sorts and of sat_hash_contacts' (h.tmp is the queries')
    opos = {}, hlist = {}, lost = {}, nlost = 0, stmp = {}, ctmp = {},
    -- the scratch arrays of the sorts of h.hit_idx, h.sweep_idx and the cells' (one each, not
    -- h.tmp: a query run inside another, from a finalizer or a debug hook, overwrites the
    -- outer one's buffers, which then asks again; while it sorts them, each array holds only
    -- numbers its comparator can read: indices of records for the first two, handles for
    -- h.tmp), and the cells' sorted coordinates
    htmp = {}, wtmp = {}, cell_tmp = {}, cell_ox = {}, cell_oy = {},
    -- the step's gathering (sat_hash_query.lua's gather_step): its candidates and stamps
    skeys = {}, sstamp = {},
  }
  local seq, xs, ys = h.seq, h.cell_x, h.cell_y
  local c_a, c_b = h.c_a, h.c_b
  local hits, sweeps, fresh = h.hits, h.sweeps, h.fresh
  -- The orders of the C's comparators, each total (ties broken by unique numbers).
  h.by_seq = function(a, b) return seq[a] < seq[b] end
  h.by_hit = function(a, b) -- cmp_hit: t, then insertion
    a, b = (a - 1) * HIT_STRIDE, (b - 1) * HIT_STRIDE
    local ta, tb = hits[a + HIT_T], hits[b + HIT_T]
    if ta ~= tb then
      return ta < tb
    end
    return hits[a + HIT_SEQ] < hits[b + HIT_SEQ]
  end
  h.by_sweep = function(a, b) -- cmp_sweep: t, then distance, then insertion
    a, b = (a - 1) * SW_STRIDE, (b - 1) * SW_STRIDE
    local ta, tb = sweeps[a + SW_T], sweeps[b + SW_T]
    if ta ~= tb then
      return ta < tb
    end
    local da, db = sweeps[a + SW_DIST2], sweeps[b + SW_DIST2]
    if da ~= db then
      return da < db
    end
    return sweeps[a + SW_SEQ] < sweeps[b + SW_SEQ]
  end
  h.by_fresh = function(a, b) -- cmp_fresh: a's insertion, then b's
    a, b = (a - 1) * FR_STRIDE, (b - 1) * FR_STRIDE
    local sa, sb = fresh[a + FR_SA], fresh[b + FR_SA]
    if sa ~= sb then
      return sa < sb
    end
    return fresh[a + FR_SB] < fresh[b + FR_SB]
  end
  h.by_pair = function(x, y) -- cmp_ckey, of contact ids: a's insertion, then b's
    local sa, sb = seq[c_a[x]], seq[c_a[y]]
    if sa ~= sb then
      return sa < sb
    end
    return seq[c_b[x]] < seq[c_b[y]]
  end
  -- cells by row, then column (the C's cmp_cell); equal cells (merged after) by index, so
  -- that the order is total
  h.by_cell = function(a, b)
    local ya, yb = ys[a], ys[b]
    if ya ~= yb then
      return ya < yb
    end
    local xa, xb = xs[a], xs[b]
    if xa ~= xb then
      return xa < xb
    end
    return a < b
  end
  return h
end

--- sat_hash_free(h): unlinks its records from the shapes it still holds. (The binding calls
-- it from the hash object's finalizer: a shape outliving its hash keeps no record of it.)
function M.sat_hash_free(h)
  if h.freed then
    return
  end
  local shape, members = h.shape, h.members
  for i = 0, h.eused - 1 do
    if shape[i] then
      member_unlink(members[i])
    end
  end
  h.freed = true
end

function M.sat_hash_cell_size(h)
  return h.cell
end

function M.sat_hash_count(h)
  return h.live
end

-- Drops the stale handles from h.order (walking back, a live handle's first listing met is
-- its own; the mark flag, which no step is using, marks it met).
local function compact_order(h)
  local order, shape, mark = h.order, h.shape, h.mark
  local norder = h.norder
  local k = norder + 1
  for j = norder, 1, -1 do
    local i = order[j]
    if shape[i] and not mark[i] then
      mark[i] = true
      k = k - 1
      order[k] = i
    end
  end
  local n = norder - k + 1
  for j = 1, n do
    order[j] = order[k + j - 1]
  end
  for j = n + 1, norder do
    order[j] = nil
  end
  h.norder = n
  local opos = h.opos
  for j = 1, n do
    local i = order[j]
    mark[i] = false
    opos[i] = j
  end
  h.ndead = 0
end

--- sat_hash_reserve(h) -> 0, handle: the handle the next insertion gets, its member record
-- made (so that inserting makes no object); -1 past the C's limit of entries.
local function reserve(h)
  if h.live >= 0x3ffffff0 then
    return -1
  end
  while true do
    local i = h.nfree > 0 and h.free_head or h.eused
    local members = h.members
    local grew = false
    if members[i] ~= nil then
      if i == h.eused then
        -- A new slot: every array it will be written into holds it already, and the lists
        -- hold one more (each slot is listed once at most), so that inserting, and every
        -- change of a shape (mark_dirty), writes existing keys alone: no table grows (which
        -- may run out of memory halfway) once this has returned. The slot after it too, as
        -- the C keeps room for one more slot than it uses (so that the arrays grow as the
        -- C's do: when the slot before is taken).
        for j = i, i + 1 do
          if h.shape[j] == nil then
            grew = true
            h.shape[j], h.seq[j], h.stamp[j], h.contacts[j] = false, 0, 0, SAT_HASH_NONE
            h.x1[j], h.y1[j], h.x2[j], h.y2[j] = 0.0, 0.0, 0.0, 0.0
            h.lpos[j], h.level[j], h.span[j], h.cx[j], h.cy[j] = 0, 0, 0, 0.0, 0.0
            h.static[j], h.dirty_f[j], h.changed_f[j] = false, false, false
            h.filed[j], h.done[j], h.mark[j] = false, false, false
            h.opos[j], h.sstamp[j] = 0, 0
          end
          if h.dirty[j + 1] == nil then
            grew = true
            h.dirty[j + 1] = SAT_HASH_NONE
          end
          if h.changed[j + 1] == nil then
            grew = true
            h.changed[j + 1] = SAT_HASH_NONE
          end
          -- (and a query gathers into h.keys without making a key: no finalizer can run
          -- halfway through a gathering)
          if h.keys[j + 1] == nil then
            grew = true
            h.keys[j + 1] = 0
          end
          if h.skeys[j + 1] == nil then
            grew = true
            h.skeys[j + 1] = 0
          end
        end
      end
      for n = h.norder + 1, h.norder + 2 do
        if h.order[n] == nil then
          grew = true
          h.order[n] = SAT_HASH_NONE
        end
      end
      -- (growing an array may run a finalizer that inserts into this hash and takes slot i:
      -- after a growth the slot is found again; a second pass grows nothing)
      if not grew then
        return 0, i
      end
    end
    -- (making it may run a finalizer that inserts into this hash: the handle is found again)
    -- (every field a value, so that the table holds its keys: linking it makes none)
    local m = { changed = member_changed, hash = h, handle = i, next = false, prev = false,
                shape = false }
    if members[i] == nil then
      members[i] = m
    end
  end
end
M.sat_hash_reserve = reserve

--- sat_hash_insert(h, s, flags) -> 0, handle: adds s (flags 0 or SAT_HASH_STATIC), filed by
-- the next sync.
function M.sat_hash_insert(h, s, flags)
  if s.members == nil then
    s.members = false -- (the record's key made before anything changes)
  end
  local rc, i = reserve(h)
  if rc ~= 0 then
    return -1
  end
  -- a slot still listed in h.dirty or h.changed stays so (and keeps the flag)
  if h.nfree > 0 then
    h.nfree = h.nfree - 1
    h.free_head = h.lpos[i]
  else
    h.eused = h.eused + 1
    h.dirty_f[i], h.changed_f[i] = false, false
  end
  h.shape[i] = s
  h.seq[i] = h.next_seq
  h.next_seq = h.next_seq + 1
  h.x1[i], h.y1[i], h.x2[i], h.y2[i] = 0.0, 0.0, 0.0, 0.0
  h.stamp[i] = 0
  h.contacts[i] = SAT_HASH_NONE
  h.lpos[i] = 0
  h.level[i], h.span[i], h.cx[i], h.cy[i] = 0, 0, 0.0, 0.0
  h.static[i] = flags == M.SAT_HASH_STATIC
  h.filed[i], h.done[i], h.mark[i] = false, false, false
  local norder = h.norder + 1
  h.order[norder] = i
  h.opos[i] = norder
  h.norder = norder
  h.live = h.live + 1
  local m = h.members[i]
  local head = s.members
  m.next, m.prev, m.shape = head, false, s
  if head then
    head.prev = m
  end
  s.members = m
  mark_dirty(h, i)
  return 0, i
end

--- sat_hash_remove(h, i) -> n, dropped: removes the entry and its contacts (dropped[1..n],
-- their ids, those some step has told of).
function M.sat_hash_remove(h, i)
  -- (h.dropped has room for every contact: sat_hash_step.lua's contact_room)
  if h.filed[i] then
    local s = h.shape[i]
    while not unfiling_room(h) do
      if h.shape[i] ~= s then -- (removed by a finalizer the room ran)
        return 0, h.dropped
      end
    end
  end
  local n, dropped, contacts, c_added = 0, h.dropped, h.contacts, h.c_added
  while contacts[i] ~= SAT_HASH_NONE do
    local k = contacts[i]
    if not c_added[k] then
      n = n + 1
      dropped[n] = k -- (an added contact no step has told of yet is no one's)
    end
    contact_free(h, k)
  end
  if h.filed[i] then
    unfile_entry(h, i)
    if h.nprune > 0 then
      prune_rows(h)
    end
  end
  member_unlink(h.members[i])
  next_count(h, "stamp_count") -- (a query this removal ran inside asks again: sat_hash_query)
  h.ndead = h.ndead + 1 -- (its listing in h.order is stale)
  h.shape[i] = false
  h.seq[i] = 0
  h.static[i], h.filed[i], h.done[i], h.mark[i] = false, false, false, false
  h.lpos[i] = h.free_head
  h.free_head = i
  h.nfree = h.nfree + 1
  h.live = h.live - 1
  if h.ndead > 32 and h.ndead > h.live then
    compact_order(h)
  end
  return n, dropped
end

--- sat_hash_remove_count(h, i) -> how many contact ids sat_hash_remove(h, i) would report
-- (those of i's contacts some step has told of), so that a caller can make room first.
function M.sat_hash_remove_count(h, i)
  local n, k = 0, h.contacts[i]
  local c_a, next0, next1, c_added = h.c_a, h.c_next0, h.c_next1, h.c_added
  while k ~= SAT_HASH_NONE do
    if not c_added[k] then
      n = n + 1
    end
    if c_a[k] == i then
      k = next0[k]
    else
      k = next1[k]
    end
  end
  return n
end

--- sat_hash_find(h, s) -> s's handle in h, or SAT_HASH_NONE.
function M.sat_hash_find(h, s)
  local m = s.members
  while m do
    if m.hash == h and m.changed == member_changed then
      return m.handle
    end
    m = m.next
  end
  return SAT_HASH_NONE
end

function M.sat_hash_valid(h, handle)
  return handle >= 0 and handle < h.eused and h.shape[handle] and true or false
end

function M.sat_hash_shape(h, handle)
  return h.shape[handle]
end

function M.sat_hash_seq(h, handle)
  return h.seq[handle]
end

function M.sat_hash_is_static(h, handle)
  return h.static[handle] and 1 or 0
end

--- sat_hash_cells_of(h, handle) -> 1, level, x0, y0, x1, y1 (as of the last sync), or 0 when
-- the entry is not filed yet.
function M.sat_hash_cells_of(h, i)
  if not h.filed[i] then
    return 0
  end
  local span, cx, cy = h.span[i], h.cx[i], h.cy[i]
  return 1, h.level[i], cx, cy, cx + ((span == 1 or span == 3) and 1 or 0),
    cy + (span >= 2 and 1 or 0)
end

--- sat_hash_levels(h) -> n, levels: the levels holding entries, ascending (levels[1..n]).
function M.sat_hash_levels(h)
  return h.nused, h.used
end

--- sat_hash_cells(h, level) -> n, xs, ys, counts: the cells of the level holding entries,
-- sorted by row then column, with how many entries each holds (1-based arrays).
function M.sat_hash_cells(h, level)
  M.sat_hash_sync(h)
  local xs, ys, ns = h.cell_x, h.cell_y, h.cell_n
  if level < 0 or level >= h.nlv or h.lv_count[level] == 0 then
    return 0, xs, ys, ns
  end
  -- each cell of each entry, as one index into xs, ys
  local ents, count = h.lv_ents[level], h.lv_count[level]
  local span, ecx, ecy = h.span, h.cx, h.cy
  local order = h.cell_order
  local n = 0
  for j = 1, count do
    local i = ents[j]
    local sp, cx, cy = span[i], ecx[i], ecy[i]
    for k = 0, 3 do
      local kx, ky = (k == 1 or k == 3) and 1 or 0, k >= 2 and 1 or 0
      if (kx == 0 or sp == 1 or sp == 3) and (ky == 0 or sp >= 2) then
        n = n + 1
        xs[n], ys[n], ns[n] = cx + kx, cy + ky, 1
        order[n] = n
      end
    end
  end
  sort(order, n, h.by_cell, h.cell_tmp)
  local ox, oy = h.cell_ox, h.cell_oy
  for j = 1, n do
    ox[j], oy[j] = xs[order[j]], ys[order[j]]
  end
  local m = 0
  for j = 1, n do
    if m > 0 and xs[m] == ox[j] and ys[m] == oy[j] then
      ns[m] = ns[m] + 1
    else
      m = m + 1
      xs[m], ys[m], ns[m] = ox[j], oy[j], 1
    end
  end
  return m, xs, ys, ns
end

--- sat_hash_handles(h) -> n, handles: every handle in insertion order (handles[1..n]).
-- From inside an operation holding the lock: the live listings (an entry's own, opos), into
-- h.hlist, h.order left as it is.
function M.sat_hash_handles(h)
  if h.ndead > 0 then
    if G.busy > 0 then
      local order, shape, opos, list = h.order, h.shape, h.opos, h.hlist
      local n = 0
      for j = 1, h.norder do
        local i = order[j]
        if shape[i] and opos[i] == j then
          n = n + 1
          list[n] = i
        end
      end
      return n, list
    end
    hold(compact_order, h) -- (the lock let go by any exit: an error in a call runs out of it)
    if h.ndead > 0 then -- (the queue, applied as the lock was left, removed some)
      return M.sat_hash_handles(h)
    end
  end
  return h.norder, h.order
end

return M
