--- sat_hash_step.lua - the pure backend's twin of src/core/sat_hash_step.c: the spatial
-- hash's contacts and its step. The contacts kept from one step to the next, each in the
-- lists of its two entries, and the pass that re-tests the pairs of the entries changed since
-- the last step.
--
-- A contact is a set of flat arrays of the hash indexed by its id (from 0, as in C): c_a,
-- c_b (its entries, a inserted first), its result (c_overlap, c_nx, c_ny, c_mx, c_my, c_ainb,
-- c_bina), its places in a's and b's lists (c_next0 / c_prev0, c_next1 / c_prev1) and the
-- C's flag bits as booleans (c_live, c_pending, c_added, c_updated).
--
-- The contacts a pass finds new are made after it, in pair order (as the C makes them): so
-- their ids and their places in the lists are the C's, however the pass came upon them.
-- The pass here is always the C's per-entry one (each changed entry queries its own
-- neighbourhood); the C's bucket pass, taken when most entries changed, finds the same pairs.
-- LuaJIT runs this file interpreted (its functions, and those they define): its short
-- loops over cells and chains, nested and met from many call sites, make the trace
-- compiler abort and retry, and fill its trace cache, which it then flushes, over and
-- over (a world frame 20 to 30 times slower than with the compiler off).
if rawget(_G, "jit") then
  jit.off(true, true)
end

local C = require("sat.pure.sat_collide")
local H = require("sat.pure.sat_hash")
local Q = require("sat.pure.sat_hash_query")

local M = {}

local SAT_HASH_NONE = H.SAT_HASH_NONE
local accepts, sort, contact_free, sync_held = H.accepts, H.sort, H.contact_free,
  H.sat__hash_sync_held
local grow, new_cap = H.grow, H.new_cap
local gather_step = Q.sat__hash_gather_step
local FR_A, FR_B, FR_SA, FR_SB, FR_OVERLAP, FR_NX, FR_NY, FR_MX, FR_MY = H.FR_A, H.FR_B, H.FR_SA,
  H.FR_SB, H.FR_OVERLAP, H.FR_NX, H.FR_NY, H.FR_MX, H.FR_MY
local FR_AINB, FR_BINA, FR_STRIDE = H.FR_AINB, H.FR_BINA, H.FR_STRIDE
local sat_collide = C.sat_collide

-- ---- contacts -------------------------------------------------------------------------------

-- Room for one more contact id (sat_hash.lua's grow): the arrays of contacts hold ids
-- 0 .. ccap - 1, and the lists a step or a removal fills (ended, added, updated, dropped, ids,
-- and tmp that sorts them) hold 1 .. ccap, as many as there can be contacts.
local function contact_room(h)
  local old = h.ccap
  if h.cused < old then
    return
  end
  local cap = new_cap(old, h.cused + 1)
  local none = SAT_HASH_NONE
  grow(h.c_a, old - 1, cap - 1, none)
  grow(h.c_b, old - 1, cap - 1, none)
  grow(h.c_overlap, old - 1, cap - 1, 0.0)
  grow(h.c_nx, old - 1, cap - 1, 0.0)
  grow(h.c_ny, old - 1, cap - 1, 0.0)
  grow(h.c_mx, old - 1, cap - 1, 0.0)
  grow(h.c_my, old - 1, cap - 1, 0.0)
  grow(h.c_ainb, old - 1, cap - 1, 0)
  grow(h.c_bina, old - 1, cap - 1, 0)
  grow(h.c_next0, old - 1, cap - 1, none)
  grow(h.c_next1, old - 1, cap - 1, none)
  grow(h.c_prev0, old - 1, cap - 1, none)
  grow(h.c_prev1, old - 1, cap - 1, none)
  grow(h.c_live, old - 1, cap - 1, false)
  grow(h.c_pending, old - 1, cap - 1, false)
  grow(h.c_added, old - 1, cap - 1, false)
  grow(h.c_updated, old - 1, cap - 1, false)
  grow(h.ended, old, cap, 0)
  grow(h.added, old, cap, 0)
  grow(h.updated, old, cap, 0)
  grow(h.dropped, old, cap, 0)
  grow(h.ids, old, cap, 0)
  grow(h.tmp, old, cap, 0)
  grow(h.stmp, old, cap, 0)
  grow(h.ctmp, old, cap, 0)
  grow(h.lost, old, cap, 0)
  h.ccap = cap
end

-- A new contact (a inserted before b) at the head of both lists, its result from r. (Its
-- room made first: nothing changes until no table can grow.)
local function contact_new(h, a, b, r)
  contact_room(h)
  local k = h.cfree
  if h.ncfree > 0 then
    h.cfree = h.c_next0[k]
    h.ncfree = h.ncfree - 1
  else
    k = h.cused
    h.cused = k + 1
  end
  local c_a, next0, next1, prev0, prev1 = h.c_a, h.c_next0, h.c_next1, h.c_prev0, h.c_prev1
  local contacts = h.contacts
  c_a[k], h.c_b[k] = a, b
  h.c_overlap[k], h.c_nx[k], h.c_ny[k], h.c_mx[k], h.c_my[k] = r.overlap, r.nx, r.ny, r.mx, r.my
  h.c_ainb[k], h.c_bina[k] = r.a_in_b, r.b_in_a
  h.c_live[k], h.c_pending[k], h.c_added[k], h.c_updated[k] = true, false, true, false
  -- a's list (side 0), then b's (side 1)
  local head = contacts[a]
  next0[k], prev0[k] = head, SAT_HASH_NONE
  if head ~= SAT_HASH_NONE then
    if c_a[head] == a then
      prev0[head] = k
    else
      prev1[head] = k
    end
  end
  contacts[a] = k
  head = contacts[b]
  next1[k], prev1[k] = head, SAT_HASH_NONE
  if head ~= SAT_HASH_NONE then
    if c_a[head] == b then
      prev0[head] = k
    else
      prev1[head] = k
    end
  end
  contacts[b] = k
  h.clive = h.clive + 1
end

-- Room for n more new contacts in h.fresh and h.fresh_idx.
local function fresh_room(h, n)
  local old = h.frcap
  local need = h.nfresh + n
  if need > old then
    local cap = new_cap(old, need)
    grow(h.fresh, old * FR_STRIDE, cap * FR_STRIDE, 0)
    grow(h.fresh_idx, old, cap, 0)
    grow(h.stmp, old, cap, 0)
    h.frcap = cap
  end
end

-- Notes a new contact of a and b (a inserted before b) for fresh_make, its result r.
local function fresh_add(h, a, b, r)
  local n = h.nfresh
  local fresh, seq = h.fresh, h.seq
  local o = n * FR_STRIDE
  n = n + 1
  h.fresh_idx[n] = n
  fresh[o + FR_A] = a
  fresh[o + FR_B] = b
  fresh[o + FR_SA] = seq[a]
  fresh[o + FR_SB] = seq[b]
  fresh[o + FR_OVERLAP] = r.overlap
  fresh[o + FR_NX] = r.nx
  fresh[o + FR_NY] = r.ny
  fresh[o + FR_MX] = r.mx
  fresh[o + FR_MY] = r.my
  fresh[o + FR_AINB] = r.a_in_b
  fresh[o + FR_BINA] = r.b_in_a
  h.nfresh = n
end

-- The sat_result records of this file (fresh_make's of one new contact, for contact_new;
-- test_changed's of one pair's sat_collide), read at once: one per nesting depth, as
-- sat_sweep.lua's state (a step of one hash may run inside a step of another, from a
-- finalizer or a debug hook). An error through a step leaves its depth counted: the next
-- steps take the records one deeper, made once; the outer call, returning, sets it back.
local RESULTS = {}
local depth = 0

local function result_at(d)
  local r = RESULTS[d]
  if r == nil then
    r = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0, b_in_a = 0 }
    RESULTS[d] = r
  end
  return r
end

-- Makes the contacts the pass found new, in pair order (each pair is found once).
local function fresh_make(h)
  local d = depth + 1
  depth = d
  local F = result_at(d) -- (its allocation may run a finalizer: d is counted already)
  local n, idx, fresh = h.nfresh, h.fresh_idx, h.fresh
  h.nfresh = 0
  if n > 1 then
    sort(idx, n, h.by_fresh, h.stmp)
  end
  for k = 1, n do
    local o = (idx[k] - 1) * FR_STRIDE
    F.overlap = fresh[o + FR_OVERLAP]
    F.nx = fresh[o + FR_NX]
    F.ny = fresh[o + FR_NY]
    F.mx = fresh[o + FR_MX]
    F.my = fresh[o + FR_MY]
    F.a_in_b = fresh[o + FR_AINB]
    F.b_in_a = fresh[o + FR_BINA]
    contact_new(h, fresh[o + FR_A], fresh[o + FR_B], F)
  end
  depth = d - 1
end

-- The contact of entries i and j, or SAT_HASH_NONE: their two lists walked side by side.
local function find_contact(h, i, j)
  local c_a, c_b, next0, next1 = h.c_a, h.c_b, h.c_next0, h.c_next1
  local ki, kj = h.contacts[i], h.contacts[j]
  while ki ~= SAT_HASH_NONE and kj ~= SAT_HASH_NONE do
    local a = c_a[ki]
    if a == j or c_b[ki] == j then
      return ki
    end
    if c_a[kj] == i or c_b[kj] == i then
      return kj
    end
    if a == i then
      ki = next0[ki]
    else
      ki = next1[ki]
    end
    if c_a[kj] == j then
      kj = next0[kj]
    else
      kj = next1[kj]
    end
  end
  return SAT_HASH_NONE
end

-- ---- the step -------------------------------------------------------------------------------

-- Sets (on) or clears the mark of every entry in contact with i.
local function mark_partners(h, i, on)
  local c_a, c_b, next0, next1, mark = h.c_a, h.c_b, h.c_next0, h.c_next1, h.mark
  local k = h.contacts[i]
  while k ~= SAT_HASH_NONE do
    if c_a[k] == i then
      mark[c_b[k]] = on
      k = next0[k]
    else
      mark[c_a[k]] = on
      k = next1[k]
    end
  end
end

-- Tests the pairs of changed entry i with its neighbours, except those with an entry this
-- pass already tested (done): a contact found again (marked) is updated, a new one noted for
-- fresh_make. (Its candidates are the step's own, h.skeys: a query run from inside the step,
-- by a finalizer or a debug hook, takes h.keys; no removal or step runs there: sat_hash.lua.)
local function test_changed(h, i)
  local shape = h.shape
  local s = shape[i]
  if not s then
    return -- removed since it changed: its slot is free
  end
  local d = depth + 1
  depth = d
  local R = result_at(d) -- (its allocation may run a finalizer: d is counted already)
  local n = gather_step(h, h.x1[i], h.y1[i], h.x2[i], h.y2[i], i)
  if h.nfresh + n > h.frcap then
    fresh_room(h, n)
  end
  mark_partners(h, i, true)
  local keys, done, static, mark, seq = h.skeys, h.done, h.static, h.mark, h.seq
  local si, qi = static[i], seq[i]
  for j = 1, n do
    local o = keys[j]
    local so = shape[o]
    if so and not done[o] and not (si and static[o]) and accepts(s, so) then
      local a, b, sa, sb = i, o, s, so
      if seq[o] < qi then
        a, b, sa, sb = o, i, so, s
      end
      if sat_collide(sa, sb, R) ~= 0 then
        local k = mark[o] and find_contact(h, i, o) or SAT_HASH_NONE
        if k ~= SAT_HASH_NONE then
          h.c_overlap[k], h.c_nx[k], h.c_ny[k], h.c_mx[k], h.c_my[k] = R.overlap, R.nx,
            R.ny, R.mx, R.my
          h.c_ainb[k], h.c_bina[k] = R.a_in_b, R.b_in_a
          h.c_pending[k] = false
          h.c_updated[k] = true
        else
          fresh_add(h, a, b, R)
        end
      end
    end
  end
  mark_partners(h, i, false)
  h.done[i] = true
  depth = d - 1
end

-- Sorts ids[1..n] into pair order (tmp: the step's scratch, or sat_hash_contacts').
local function sort_contacts(h, ids, n, tmp)
  if n > 1 then
    sort(ids, n, h.by_pair, tmp)
  end
end

-- Sorts each contact of the changed entries into the lists of the delta by its flags: one not
-- found again ends, one added or updated is told; then no entry is changed.
local function finish_step(h)
  local ended, added, updated = h.ended, h.added, h.updated
  local changed, changed_f, done, contacts = h.changed, h.changed_f, h.done, h.contacts
  local c_a, next0, next1 = h.c_a, h.c_next0, h.c_next1
  local c_live, c_pending, c_added, c_updated = h.c_live, h.c_pending, h.c_added, h.c_updated
  -- first the contacts dropped by removals queued during an operation (sat_hash.lua), which
  -- no removal told of
  local ne, na, nu = h.nlost, 0, 0
  local lost = h.lost
  for k = 1, ne do
    ended[k] = lost[k]
  end
  h.nlost = 0
  for q = 1, h.nchanged do
    local i = changed[q]
    local k = contacts[i]
    while k ~= SAT_HASH_NONE do
      local nxt
      if c_a[k] == i then
        nxt = next0[k]
      else
        nxt = next1[k]
      end
      if c_pending[k] then
        if not c_added[k] then
          ne = ne + 1
          ended[ne] = k
        end
        contact_free(h, k)
      elseif c_added[k] then
        na = na + 1
        added[na] = k
        c_live[k], c_pending[k], c_added[k], c_updated[k] = true, false, false, false
      elseif c_updated[k] then
        nu = nu + 1
        updated[nu] = k
        c_live[k], c_pending[k], c_added[k], c_updated[k] = true, false, false, false
      end
      k = nxt
    end
    changed_f[i] = false
    done[i] = false
  end
  h.nchanged = 0
  sort_contacts(h, added, na, h.stmp)
  return ne, na, nu
end

--- sat_hash_step(h) -> 0, ended, added, updated, ne, na, nu: brings the contacts up to date
-- and tells what changed, as contact ids (ended[1..ne], added[1..na] in pair order,
-- updated[1..nu]). The caller holds the lock (sat_hash.lua).
function M.sat_hash_step(h)
  sync_held(h)
  h.nfresh = 0
  local changed, done, contacts = h.changed, h.done, h.contacts
  local c_a, next0, next1, c_pending = h.c_a, h.c_next0, h.c_next1, h.c_pending
  local nchanged = h.nchanged
  for q = 1, nchanged do
    local i = changed[q]
    done[i] = false -- (left by a pass that ran out of memory)
    local k = contacts[i]
    while k ~= SAT_HASH_NONE do
      c_pending[k] = true
      if c_a[k] == i then
        k = next0[k]
      else
        k = next1[k]
      end
    end
  end
  for q = 1, nchanged do
    test_changed(h, changed[q])
  end
  fresh_make(h)
  local ne, na, nu = finish_step(h)
  return 0, h.ended, h.added, h.updated, ne, na, nu
end

--- sat_hash_contact_of(h, id) -> whether id is a live contact of the last step (its fields:
-- h.c_a[id], h.c_b[id], h.c_overlap[id], ...).
local function contact_of(h, id)
  return id >= 0 and id < h.cused and h.c_live[id] and not h.c_added[id]
end
M.sat_hash_contact_of = contact_of

--- sat_hash_contacts(h) -> n, ids: every contact id, in pair order (ids[1..n]).
function M.sat_hash_contacts(h)
  local ids = h.ids
  local n = 0
  for k = 0, h.cused - 1 do
    if contact_of(h, k) then
      n = n + 1
      ids[n] = k
    end
  end
  sort_contacts(h, ids, n, h.ctmp)
  return n, ids
end

return M
