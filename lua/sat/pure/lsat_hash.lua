--- lsat_hash.lua - the pure backend's twin of src/lua/lsat_hash.c: the binding of the spatial
-- hash (sat_hash*.lua): core.newHash(cellSize).
--
-- The hash object is the engine under sat.world (lua/sat/world.lua), which is the public API;
-- these methods trust their arguments' meaning (the world checks them first) but still check
-- types, with the C's words. Handles and contact ids go to Lua as numbers from 1 (the core's
-- plus one).
--
-- A hash object is a table (a userdata natively: marked by U.UD) holding the core's hash and
-- the table handle -> shape that keeps every shape it holds alive (the C's user value, with
-- the same pools of dropped hit and response tables at keys 0 and -1). The core's hash is
-- referred to by the shapes' member records, the object by nothing of the core's: when the
-- object is collected, its finalizer unlinks those records (sat_hash_free), as the C's __gc
-- does, so that a shape outliving its world keeps no trace of it.
--
-- As in C, each method makes the tables and vecs it will fill first (making one may run a
-- finalizer, which may change this very hash or take a table away), then runs the query (which
-- makes nothing), then fills them with raw gets and sets alone (which run no finalizer); when
-- what it made turns out too few, it makes more and runs the query again.
-- luacheck: ignore 581 (the C's `!(x > y)` is not `x <= y` for NaN: kept as written)
-- LuaJIT runs this file interpreted (its functions, and those they define): its short
-- loops over cells and chains, nested and met from many call sites, make the trace
-- compiler abort and retry, and fill its trace cache, which it then flushes, over and
-- over (a world frame 20 to 30 times slower than with the compiler off).
if rawget(_G, "jit") then
  jit.off(true, true)
end

local U = require("sat.pure.lsat_util")
local K = require("sat.pure.sat_constants")
local H = require("sat.pure.sat_hash")
local Q = require("sat.pure.sat_hash_query")
local ST = require("sat.pure.sat_hash_step")
local RESP = require("sat.pure.lsat_response")
local C = require("sat.pure.sat_collide")
local CT = require("sat.pure.sat_contacts")

local M = {}

local type, rawget, rawset, select = type, rawget, rawset, select
local setmetatable, getmetatable, tonumber = setmetatable, getmetatable, tonumber
local next = next
local floor = math.floor
local format = string.format
local tointeger = math.tointeger

local REC, UD = U.REC, U.UD
local argerror, checkshape, checktable, checkfinite = U.argerror, U.checkshape, U.checktable,
  U.checkfinite
local istable, rawmetatable = U.istable, U.rawmetatable
local rawlen = U.rawlen

local SAT_HASH_NONE, SAT_HASH_STATIC, SAT_HASH_EVERY = H.SAT_HASH_NONE, H.SAT_HASH_STATIC,
  H.SAT_HASH_EVERY
local SAT_COMPOUND = K.SAT_COMPOUND
local sat_collide_parts, sat_sweep_point = C.sat_collide_parts, CT.sat_sweep_point
local sat_hash_find, sat_hash_reserve, sat_hash_insert = H.sat_hash_find, H.sat_hash_reserve,
  H.sat_hash_insert
local sat_hash_sweep = Q.sat_hash_sweep
-- the lock of sat_hash.lua: one change at a time (see there)
local G, hold, enqueue, queued = H.G, H.sat__hash_hold, H.sat__hash_enqueue, H.sat__hash_queued
local pending, Q_ADD, Q_REMOVE = H.sat__hash_pending, H.Q_ADD, H.Q_REMOVE
local HIT_HANDLE, HIT_T, HIT_NX, HIT_NY, HIT_PART, HIT_STRIDE = H.HIT_HANDLE, H.HIT_T, H.HIT_NX,
  H.HIT_NY, H.HIT_PART, H.HIT_STRIDE
local PR_B, PR_OVERLAP, PR_NX, PR_NY, PR_MX, PR_MY, PR_AINB, PR_BINA, PR_STRIDE = H.PR_B,
  H.PR_OVERLAP, H.PR_NX, H.PR_NY, H.PR_MX, H.PR_MY, H.PR_AINB, H.PR_BINA, H.PR_STRIDE
local SW_HANDLE, SW_OVERLAPPING, SW_T, SW_MX, SW_MY, SW_OVERLAP, SW_NX, SW_NY = H.SW_HANDLE,
  H.SW_OVERLAPPING, H.SW_T, H.SW_MX, H.SW_MY, H.SW_OVERLAP, H.SW_NX, H.SW_NY
local SW_AINB, SW_BINA, SW_STRIDE = H.SW_AINB, H.SW_BINA, H.SW_STRIDE
local SW_DIST2, SW_RMX, SW_RMY, SW_PART_A, SW_PART_B = H.SW_DIST2, H.SW_RMX, H.SW_RMY,
  H.SW_PART_A, H.SW_PART_B

-- Rounds of "make the tables, query, fill" before giving up.
local MAX_ROUNDS = 64
-- A query overlapped by another of the same hash (run by a finalizer or a debug hook while
-- it gathered or while its results were written: sat_hash_query.lua) is asked again, at most
-- this many times; then its last answer stands (what a storm of nested queries leaves: the
-- hash itself is whole, only that answer may be stale).
local OVERLAP_ROUNDS = 8

-- The object's private keys: the core's hash, and the user value (handle + 1 -> shape; the
-- pools at 0 and -1).
local CORE = setmetatable({}, { __tostring = function() return "hash: core key" end })
local SHAPES = setmetatable({}, { __tostring = function() return "hash: shapes key" end })

-- The pool, in the user value (lsat_hash.c's): the tables (POOL_LIST[1..size]), where each
-- table is (POOL_WHERE, weak keys: table -> its index in the list, or the negative mark of the
-- fill that took it last). One pool for every kind, bounded by POOL_MAX.
local POOL_LIST, POOL_WHERE = 0, -1
local POOL_MAX = 1024
-- The object's count of fills so far (lhash.fill).
local FILL = setmetatable({}, { __tostring = function() return "sat.hash.fill" end })

local HASHMT = { __name = U.MT_HASH }
local METHODS = {}

local function nomem()
  U.error("not enough memory")
end

local function too_many_rounds()
  U.error("result table changed while being filled")
end

-- The core's hash of the object, or the C's errors.
local function check_hash(self)
  local h = type(self) == "table" and rawget(self, CORE) or nil
  if h == nil or rawmetatable(self) ~= HASHMT then
    argerror(1, "hash expected")
  end
  if h.freed then
    U.error("attempt to use a freed hash")
  end
  return h
end

-- The record of the shape at arg (lsat_checkshape), checked inline first.
local function shape_arg(v, arg, top)
  local rec = type(v) == "table" and rawget(v, REC) or nil
  if rec == nil then
    rec = checkshape(v, arg, top)
  end
  return rec
end

-- luaL_checknumber / luaL_optnumber: a number (a numeric string converted), as a float; the
-- error names the type as luaL_typeerror does (__name from 5.3 on).
local function checknumber(v, arg, top)
  local n = v
  if type(n) ~= "number" then
    n = type(v) == "string" and tonumber(v) or nil
    if n == nil then
      local got
      if U.VERSION >= 53 and arg <= top then
        local mt = rawmetatable(v)
        local name = type(mt) == "table" and rawget(mt, "__name") or nil
        if type(name) == "string" then
          got = name
        end
      end
      argerror(arg, format("number expected, got %s", got or U.lua_typename(v, arg, top)))
    end
  end
  return n * 1.0
end

-- The table argument at arg (to be filled and trimmed), or a new one. Making one can run a
-- finalizer: call it before any query.
local function out_table(v, arg, top)
  if v == nil then
    return {}
  end
  return checktable(v, arg, top)
end

-- where[v]: 0 when none.
local function where_of(where, v)
  local w = rawget(where, v)
  return type(w) == "number" and w or 0
end

local function set_where(where, v, w)
  if w ~= 0 then
    rawset(where, v, w)
  else
    rawset(where, v, nil)
  end
end

-- Takes the table v (at index i of the list) out of the pool: the last one fills its place.
local function pool_remove(list, where, v, i)
  local size = rawlen(list)
  if i < 1 or i > size or rawget(list, i) ~= v then -- (not there: nothing to undo)
    return
  end
  if i < size then
    local last = rawget(list, size)
    set_where(where, last, i)
    rawset(list, i, last)
  end
  rawset(list, size, nil)
end

-- A new mark for one round of a fill (negative: where's marks of pooled tables are not).
local function pool_mark(self)
  local fill = rawget(self, FILL) + 1
  if fill > 9007199254740000.0 then
    fill = 1
  end
  rawset(self, FILL, fill)
  return -fill
end

-- Empties table r but for the vectors under normal and mtv, which a response filled into it
-- later reuses (its metatable stays too): a table from the pool starts bare, whatever it was
-- before (a segment hit's t, a collision's type, the game's own fields), so that no such
-- field of an earlier use shows in a later one.
local function clear_table(r)
  local k = next(r)
  while k ~= nil do
    local after = next(r, k)
    if k ~= "normal" and k ~= "mtv" then
      rawset(r, k, nil)
    end
    k = after
  end
end

-- Makes t[k] a table of its own for the fill marked `take`: the table there unless another
-- entry of this fill has it (taken out of the pool if the caller gave back a pooled table),
-- else one from the pool, else, with make, a new one. False when it would need a new one and
-- make is false: then nothing was made.
local function pool_claim(list, where, t, k, take, make)
  local v = rawget(t, k)
  if istable(v) then
    local w = where_of(where, v)
    if w ~= take then
      if w > 0 then
        pool_remove(list, where, v, w)
      else
        clear_table(v) -- (an earlier fill's: what it held goes)
      end
      set_where(where, v, take)
      return true
    end
  end
  local size = rawlen(list)
  if size > 0 then
    v = rawget(list, size)
    rawset(list, size, nil)
  elseif make then
    v = {} -- (the C gives a move's collision room for its fields: a size hint, none here)
  else
    return false
  end
  set_where(where, v, take)
  rawset(t, k, v)
  return true
end

local make_response

-- pool_claim for t[1..n]; with responses (and make), each made a response.
local function pool_claim_all(self, t, n, take, make, responses)
  local shapes = rawget(self, SHAPES)
  local list, where = rawget(shapes, POOL_LIST), rawget(shapes, POOL_WHERE)
  local ok = true
  local k = 1
  while k <= n and ok do
    ok = pool_claim(list, where, t, k, take, make)
    if ok and responses and make then -- (without make: fill_response checks)
      make_response(rawget(t, k))
    end
    k = k + 1
  end
  return ok
end

-- Removes t[n + 1], t[n + 2], ... up to the first nil; with a mark (the fill's, not 0), the
-- tables among them go to the pool (each once, up to POOL_MAX; none that this fill has in
-- t[1..n]), emptied (clear_table).
local function trim_into(self, t, n, take)
  local list, where
  if take ~= 0 then
    local shapes = rawget(self, SHAPES)
    list, where = rawget(shapes, POOL_LIST), rawget(shapes, POOL_WHERE)
  end
  while true do
    n = n + 1
    local v = rawget(t, n)
    if v == nil then
      return
    end
    if list and istable(v) then
      local w = where_of(where, v)
      if w <= 0 and w ~= take then
        clear_table(v)
        local size = rawlen(list)
        if size < POOL_MAX then
          set_where(where, v, size + 1)
          rawset(list, size + 1, v)
        else
          set_where(where, v, 0)
        end
      end
    end
    rawset(t, n, nil)
  end
end

local function trim(t, n)
  trim_into(nil, t, n, 0)
end

-- t[1..n] = the shapes of the handles, the rest trimmed; returns t.
-- (An entry removed while a query ran inside the removal, from a finalizer or a debug hook,
-- has no shape: left out.)
local function return_shapes(self, t, ids, n)
  local shapes = rawget(self, SHAPES)
  local m = 0
  for k = 1, n do
    local v = shapes[ids[k] + 1]
    if v then
      m = m + 1
      rawset(t, m, v)
    end
  end
  trim(t, m)
  return t
end

-- t[k] when it is a table, else nil.
local function get_table_at(t, k)
  local v = rawget(t, k)
  if istable(v) then
    return v
  end
  return nil
end

-- luaL_checkinteger, as the world calls it (a number with an integer value).
local function checkinteger(v, arg, top)
  local n = checknumber(v, arg, top)
  if n ~= floor(n) then
    argerror(arg, "number has no integer representation")
  end
  return n
end

-- hash:mark() -> a new mark, for hash:claim and hash:trim (world:move's collisions).
local function h_mark(self)
  check_hash(self)
  return pool_mark(self)
end

-- hash:claim(t, k, mark) -> t[k] made a table of its own for the fill marked `mark`: the one
-- there unless t[j] has it for the same mark, else one from the pool, else a new one.
local function h_claim(...)
  local self, t, k, take = ...
  local top = select("#", ...)
  check_hash(self)
  checktable(t, 2, top)
  k = checkinteger(k, 3, top)
  take = checknumber(take, 4, top)
  if not (k >= 1) then
    argerror(3, "index must be >= 1")
  end
  if not (take < 0) then
    argerror(4, "not a mark")
  end
  local shapes = rawget(self, SHAPES)
  local round = 0
  while true do
    if round == MAX_ROUNDS then
      too_many_rounds()
    end
    pool_claim(rawget(shapes, POOL_LIST), rawget(shapes, POOL_WHERE), t, k, take, true)
    local v = get_table_at(t, k) -- (a finalizer run by a new table may change t)
    if v ~= nil then
      return v
    end
    round = round + 1
  end
end

-- hash:trim(t, n, mark) -> t: t[n + 1], ... removed, their tables into the pool (trim_into).
local function h_trim(...)
  local self, t, n, take = ...
  local top = select("#", ...)
  check_hash(self)
  checktable(t, 2, top)
  n = checkinteger(n, 3, top)
  take = checknumber(take, 4, top)
  if not (n >= 0) then
    argerror(3, "count must be >= 0")
  end
  if not (take < 0) then
    argerror(4, "not a mark")
  end
  trim_into(self, t, n, take)
  return t
end

-- ---- responses: made ready first, filled after ---------------------------------------------

make_response = RESP.make_response
local fill_response = RESP.fill_response

-- t[key] = part + 1 (a part's index in parts(), from 1), or nil for part -1 (no compound).
local function set_part(t, key, part)
  if part >= 0 then
    rawset(t, key, part + 1)
  else
    rawset(t, key, nil)
  end
end

-- fill_response, then the parts (-1: not a compound) of a and b in contact, as
-- sat_collide_parts names them: `part` is the other's (b's, seen from a), `ownPart` its own.
local function fill_with_parts(r, overlap, nx, ny, mx, my, a_in_b, b_in_a, flip, part_a, part_b)
  if not fill_response(r, rawmetatable(r), overlap, nx, ny, mx, my, a_in_b, b_in_a, flip) then
    return false
  end
  set_part(r, "part", flip and part_a or part_b)
  set_part(r, "ownPart", flip and part_b or part_a)
  return true
end

-- The result whose normal sat_collide_parts reads, filled and read at once.
local PARTS_RESULT = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0,
  b_in_a = 0 }

-- The parts of the records a and b in contact with a result of normal (nx, ny): -1 and -1
-- unless a compound is one of them (or one was removed meanwhile: false).
local function parts_of(a, b, nx, ny)
  if a and b and (a.kind == SAT_COMPOUND or b.kind == SAT_COMPOUND) then
    local r = PARTS_RESULT
    r.nx, r.ny = nx, ny
    local _, pa, pb = sat_collide_parts(a, b, r)
    return pa, pb
  end
  return -1, -1
end

-- ---- membership -----------------------------------------------------------------------------

-- hash:add(shape [, static [, byHandle]]) -> handle, or false when it is already in; with
-- byHandle, also byHandle[handle] = shape. From inside an operation holding sat_hash.lua's
-- lock (a finalizer, a debug hook): queued, -> true.
local add_held

local function h_add(...)
  local self, shape, static, by = ...
  local top = select("#", ...)
  local h = check_hash(self)
  local s = shape_arg(shape, 2, top)
  local flags = static and SAT_HASH_STATIC or 0
  if by ~= nil then
    checktable(by, 4, top)
  end
  if G.busy > 0 then -- (from inside an operation: queued, sat_hash.lua)
    local isin = queued(h, shape)
    if isin == nil then
      isin = sat_hash_find(h, s) ~= SAT_HASH_NONE
    end
    enqueue(h, Q_ADD, shape, flags == SAT_HASH_STATIC, self, by) -- (applied only if not in)
    return not isin
  end
  return (hold(add_held, self, h, shape, s, flags, by))
end

-- hash:add's work, holding the lock.
function add_held(self, h, shape, s, flags, by)
  G.act_h, G.act_s, G.act_in, G.act_static = h, shape, true, flags == SAT_HASH_STATIC
  if s.members == nil then
    s.members = false -- (sat_hash_insert's first write, made before the handle is reserved)
  end
  -- Reserving the core's room and making the shape's keys in the tables of shapes allocate,
  -- and may run a finalizer that adds to or removes from this hash (the handle reserved goes
  -- to another shape, or the shape is added): after any of it, everything is asked again,
  -- until a round allocates nothing (as the C's h_add).
  local shapes = rawget(self, SHAPES)
  local handle
  for round = 0, MAX_ROUNDS do
    if round == MAX_ROUNDS then
      error("hash changed while a shape was being added", 2)
    end
    if sat_hash_find(h, s) ~= SAT_HASH_NONE then
      return false
    end
    local rc
    rc, handle = sat_hash_reserve(h)
    if rc ~= 0 then
      nomem()
    end
    local grew = false
    if rawget(shapes, handle + 1) == nil then
      rawset(shapes, handle + 1, false) -- (a key the next round finds made)
      grew = true
    end
    if by ~= nil and rawget(by, handle + 1) == nil then
      rawset(by, handle + 1, false)
      grew = true
    end
    if not grew then
      break
    end
  end
  -- from here to the insertion nothing allocates: sets of keys that exist
  rawset(shapes, handle + 1, shape)
  if by ~= nil then
    rawset(by, handle + 1, shape)
  end
  local rc
  rc, handle = sat_hash_insert(h, s, flags) -- (cannot fail once reserved)
  if rc ~= 0 then
    nomem()
  end
  return handle + 1
end

-- hash:remove(shape, out) -> n, or false when it was not in: out[1..n] the ids of the contacts
-- it was in. From inside an operation holding sat_hash.lua's lock: queued, -> 0 (the contacts
-- it drops are told as ended by the next step).
local remove_held

local function h_remove(...)
  local self, shape, out = ...
  local top = select("#", ...)
  local h = check_hash(self)
  local s = shape_arg(shape, 2, top)
  checktable(out, 3, top)
  if G.busy > 0 then -- (from inside an operation: queued, sat_hash.lua)
    local isin = queued(h, shape)
    if isin == nil then
      isin = sat_hash_find(h, s) ~= SAT_HASH_NONE
    end
    enqueue(h, Q_REMOVE, shape, false, self) -- (applied only if in)
    return isin and 0 or false
  end
  return (hold(remove_held, self, h, shape, out))
end

-- hash:remove's work, holding the lock; without out (a queued removal), the ids dropped are
-- kept for the next step's ended (sat_hash_step.lua).
function remove_held(self, h, shape, out)
  local s = rawget(shape, REC)
  G.act_h, G.act_s, G.act_in = h, shape, false
  local handle = sat_hash_find(h, s)
  if handle == SAT_HASH_NONE then
    return false
  end
  if out == nil then
    local n, dropped = H.sat_hash_remove(h, handle)
    rawset(rawget(self, SHAPES), handle + 1, false)
    local lost, nl = h.lost, h.nlost
    for k = 1, n do
      lost[nl + k] = dropped[k]
    end
    h.nlost = nl + n
    return n
  end
  -- the room for the ids first: out of memory there leaves the shape in
  local n = H.sat_hash_remove_count(h, handle)
  for k = 1, n do
    if rawget(out, k) == nil then
      rawset(out, k, false)
    end
  end
  local dropped
  n, dropped = H.sat_hash_remove(h, handle)
  rawset(rawget(self, SHAPES), handle + 1, false) -- (the key kept: an add reusing the handle
  -- makes none)
  for k = 1, n do
    rawset(out, k, dropped[k] + 1)
  end
  return n
end

-- hash:has(shape) -> boolean
local function h_has(self, shape)
  local h = check_hash(self)
  local s = U.toshape(shape)
  if s ~= nil and pending() then
    local isin = queued(h, shape)
    if isin ~= nil then
      return isin
    end
  end
  return s ~= nil and sat_hash_find(h, s) ~= SAT_HASH_NONE
end

-- hash:isStatic(shape) -> boolean (false when not in)
local function h_is_static(self, shape)
  local h = check_hash(self)
  local s = U.toshape(shape)
  if s ~= nil and pending() then
    local isin, static = queued(h, shape)
    if isin ~= nil then
      return isin and static
    end
  end
  local handle = s and sat_hash_find(h, s) or SAT_HASH_NONE
  return handle ~= SAT_HASH_NONE and H.sat_hash_is_static(h, handle) ~= 0
end

-- The shapes queued for h (nested code's view; allocates: only then).
local function queued_list(h)
  local list, seen = {}, {}
  H.sat__hash_queued_shapes(h, function(shape)
    if not seen[shape] then
      seen[shape] = true
      list[#list + 1] = shape
    end
  end)
  return list
end

local function h_count(self)
  local h = check_hash(self)
  local n = H.sat_hash_count(h)
  if pending() then
    for _, shape in ipairs(queued_list(h)) do
      local real = sat_hash_find(h, rawget(shape, REC)) ~= SAT_HASH_NONE
      local final = queued(h, shape)
      n = n + (final and 1 or 0) - (real and 1 or 0)
    end
  end
  return n
end

local function h_cell_size(self)
  return H.sat_hash_cell_size(check_hash(self))
end

-- hash:shapes([t]) -> the shapes in insertion order
local function h_shapes(...)
  local self, t = ...
  local h = check_hash(self)
  t = out_table(t, 2, select("#", ...))
  local n, ids = H.sat_hash_handles(h)
  return_shapes(self, t, ids, n)
  if pending() or G.act_h == h then
    -- (nested code's view: the operation in progress and the queued ones as if made, in
    -- order, as they will be: a removal takes the shape out of the list, an insertion of a
    -- shape not in appends it; a shape removed and added again is last, as its new entry
    -- will be)
    n = rawlen(t)
    local function apply(shape, isAdd)
      local at = nil
      for k = 1, n do
        if rawget(t, k) == shape then
          at = k
          break
        end
      end
      if isAdd and at == nil then
        n = n + 1
        rawset(t, n, shape)
      elseif not isAdd and at ~= nil then
        for k = at, n - 1 do
          rawset(t, k, rawget(t, k + 1))
        end
        rawset(t, n, nil)
        n = n - 1
      end
    end
    if G.act_h == h and G.act_s then
      apply(G.act_s, G.act_in)
    end
    H.sat__hash_queued_shapes(h, apply)
    trim(t, n)
  end
  return t
end

local function h_sync(self)
  H.sat_hash_sync(check_hash(self))
end

-- ---- queries ----------------------------------------------------------------------------------

-- hash:queryPoint(x, y [, t])
local function h_query_point(...)
  local self, x, y, t = ...
  local top = select("#", ...)
  local h = check_hash(self)
  x, y = checkfinite(x, 2, top), checkfinite(y, 3, top)
  t = out_table(t, 4, top)
  for round = 0, MAX_ROUNDS do
    local n, ids, stamp = Q.sat_hash_query_point(h, x, y)
    return_shapes(self, t, ids, n)
    if h.stamp_count == stamp or round >= OVERLAP_ROUNDS then -- (else overlapped: again)
      break
    end
  end
  return t
end

-- hash:queryRect(x, y, w, h [, t]), w and h >= 0
local function h_query_rect(...)
  local self, x, y, w, hh, t = ...
  local top = select("#", ...)
  local h = check_hash(self)
  x, y = checkfinite(x, 2, top), checkfinite(y, 3, top)
  w, hh = checkfinite(w, 4, top), checkfinite(hh, 5, top)
  if not (w >= 0.0) then
    argerror(4, "width must be >= 0")
  end
  if not (hh >= 0.0) then
    argerror(5, "height must be >= 0")
  end
  local x2, y2 = x + w, y + hh
  if not (x2 - x2 == 0 and y2 - y2 == 0) then
    argerror(4, "rectangle too large")
  end
  t = out_table(t, 6, top)
  for round = 0, MAX_ROUNDS do
    local n, ids, stamp = Q.sat_hash_query_rect(h, x, y, x2, y2)
    return_shapes(self, t, ids, n)
    if h.stamp_count == stamp or round >= OVERLAP_ROUNDS then -- (else overlapped: again)
      break
    end
  end
  return t
end

-- hash:queryShape(shape [, t]) / hash:neighbors(shape [, t]): the shape itself excluded.
local function shape_query(neighbors, top, self, shape, t)
  local h = check_hash(self)
  local s = shape_arg(shape, 2, top)
  t = out_table(t, 3, top)
  for round = 0, MAX_ROUNDS do
    local me = sat_hash_find(h, s)
    local n, ids, stamp
    if neighbors then
      n, ids, stamp = Q.sat_hash_neighbors(h, s, me)
    else
      n, ids, stamp = Q.sat_hash_query_shape(h, s, me)
    end
    return_shapes(self, t, ids, n)
    if h.stamp_count == stamp or round >= OVERLAP_ROUNDS then -- (else overlapped: again)
      break
    end
  end
  return t
end

local function h_query_shape(...)
  return (shape_query(false, select("#", ...), ...))
end

local function h_neighbors(...)
  return (shape_query(true, select("#", ...), ...))
end

-- Fills t[1..n] with the hits {shape, t, x, y, nx, ny}; false when t[k] is not a table for
-- some k (nothing made).
local function fill_hits(self, t, h, idx, n, p1x, p1y, p2x, p2y)
  local shapes, hits = rawget(self, SHAPES), h.hits
  for k = 1, n do
    local hit = get_table_at(t, k)
    if hit == nil then
      return false
    end
    local o = (idx[k] - 1) * HIT_STRIDE
    local u = hits[o + HIT_T]
    rawset(hit, "shape", shapes[hits[o + HIT_HANDLE] + 1])
    rawset(hit, "t", u)
    rawset(hit, "x", u >= 1.0 and p2x or p1x + (p2x - p1x) * u)
    rawset(hit, "y", u >= 1.0 and p2y or p1y + (p2y - p1y) * u)
    rawset(hit, "nx", hits[o + HIT_NX])
    rawset(hit, "ny", hits[o + HIT_NY])
    set_part(hit, "part", hits[o + HIT_PART])
  end
  return true
end

-- hash:querySegment(x1, y1, x2, y2 [, t]) -> { {shape=, t=, x=, y=, nx=, ny=}, ... }
local function h_query_segment(...)
  local self, x1, y1, x2, y2, t = ...
  local top = select("#", ...)
  local h = check_hash(self)
  x1, y1 = checkfinite(x1, 2, top), checkfinite(y1, 3, top)
  x2, y2 = checkfinite(x2, 4, top), checkfinite(y2, 5, top)
  local dx, dy = x2 - x1, y2 - y1
  if not (dx - dx == 0 and dy - dy == 0) then
    argerror(4, "segment too long")
  end
  t = out_table(t, 6, top)
  local n, take
  local round = 0
  while true do
    take = pool_mark(self)
    if round == MAX_ROUNDS then
      too_many_rounds()
    end
    local idx, stamp
    n, idx, stamp = Q.sat_hash_query_segment(h, x1, y1, x2, y2)
    if pool_claim_all(self, t, n, take, false, false) and
        fill_hits(self, t, h, idx, n, x1, y1, x2, y2) and
        (h.stamp_count == stamp or round >= OVERLAP_ROUNDS) then
      break
    end
    pool_claim_all(self, t, n, pool_mark(self), true, false) -- (the hits are stale after: again)
    round = round + 1
  end
  trim_into(self, t, n, take)
  return t
end

-- Fills t[1..n] with responses from the shape s (shape's record) to the others of the pairs.
local function fill_collisions(self, t, h, shape, s, n)
  local shapes, pairs = rawget(self, SHAPES), h.pairs
  for k = 1, n do
    local r = get_table_at(t, k)
    local o = (k - 1) * PR_STRIDE
    local so = h.shape[pairs[o + PR_B]]
    if r == nil or not so then -- (no table, or the other removed meanwhile: again)
      return false
    end
    local pa, pb = parts_of(s, so, pairs[o + PR_NX], pairs[o + PR_NY])
    if not fill_with_parts(r, pairs[o + PR_OVERLAP], pairs[o + PR_NX],
      pairs[o + PR_NY], pairs[o + PR_MX], pairs[o + PR_MY], pairs[o + PR_AINB] ~= 0,
      pairs[o + PR_BINA] ~= 0, false, pa, pb) then
      return false
    end
    rawset(r, "a", shape)
    rawset(r, "b", shapes[pairs[o + PR_B] + 1])
  end
  return true
end

-- hash:collisions(shape, filter [, t]) -> list of responses (r.a = shape, r.b = other)
local function h_collisions(...)
  local self, shape, filter, t = ...
  local top = select("#", ...)
  local h = check_hash(self)
  local s = shape_arg(shape, 2, top)
  filter = filter and true or false
  t = out_table(t, 4, top)
  local n, take
  local round = 0
  while true do
    take = pool_mark(self)
    if round == MAX_ROUNDS then
      too_many_rounds()
    end
    local stamp
    n, stamp = Q.sat_hash_collisions(h, s, sat_hash_find(h, s), filter)
    if pool_claim_all(self, t, n, take, false, true) and
        fill_collisions(self, t, h, shape, s, n) and
        (h.stamp_count == stamp or round >= OVERLAP_ROUNDS) then
      break
    end
    pool_claim_all(self, t, n, pool_mark(self), true, true) -- (the pairs are stale after: again)
    round = round + 1
  end
  trim_into(self, t, n, take)
  return t
end

-- ---- the step ----------------------------------------------------------------------------------

-- Writes the triple (id, a, b) of contact id into buf at o + 1..3: its id (from 1) and its two
-- shapes (a added first).
local function put_contact(h, buf, shapes, id, o)
  rawset(buf, o + 1, id + 1)
  rawset(buf, o + 2, shapes[h.c_a[id] + 1])
  rawset(buf, o + 3, shapes[h.c_b[id] + 1])
end

-- hash:step(buf) -> ended, added, updated: what changed in the contacts, as contact ids in
-- buf (see lsat_hash.c).
-- From inside an operation holding sat_hash.lua's lock: nothing told (0, 0, 0), what changed
-- is the next step's.
local step_held

local function h_step(...)
  local self, buf = ...
  local h = check_hash(self)
  checktable(buf, 2, select("#", ...))
  if G.busy > 0 then
    trim(buf, 0)
    return 0, 0, 0
  end
  return hold(step_held, self, h, buf)
end

-- hash:step's work, holding the lock (through the copy: the core's lists are read there).
function step_held(self, h, buf)
  local _, ended, added, updated, ne, na, nu = ST.sat_hash_step(h)
  local shapes = rawget(self, SHAPES)
  local o = 0
  for k = 1, ne do
    o = o + 1
    rawset(buf, o, ended[k] + 1)
  end
  for k = 1, na do
    put_contact(h, buf, shapes, added[k], o)
    o = o + 3
  end
  for k = 1, nu do
    o = o + 1
    rawset(buf, o, updated[k] + 1)
  end
  trim(buf, o)
  return ne, na, nu
end

-- hash:contacts(buf) -> n: every contact of the last step in pair order, as triples (id, a, b)
-- in buf, what buf held past them removed.
local contacts_held

local function h_contacts(...)
  local self, buf = ...
  local h = check_hash(self)
  checktable(buf, 2, select("#", ...))
  if G.busy > 0 then -- (from inside an operation: as the contacts are)
    return contacts_held(self, h, buf)
  end
  return (hold(contacts_held, self, h, buf))
end

-- hash:contacts' work (the lock held: no removal frees a contact while it is listed).
function contacts_held(self, h, buf)
  local n, ids = ST.sat_hash_contacts(h)
  local shapes = rawget(self, SHAPES)
  for k = 1, n do
    put_contact(h, buf, shapes, ids[k], 3 * (k - 1))
  end
  trim(buf, 3 * n)
  return n
end

-- hash:fill(response, id, flip) -> response: the result of contact id (from its a to its b;
-- flip: from b to a) written into the response.
local function h_fill(...)
  local self, r, id, flip = ...
  local top = select("#", ...)
  local h = check_hash(self)
  id = checknumber(id, 3, top)
  flip = flip and true or false
  checktable(r, 2, top)
  local round = 0
  while true do
    if round == MAX_ROUNDS then
      too_many_rounds()
    end
    make_response(r)
    local c = id >= 1 and id <= 4294967295.0 and id == floor(id) and
      ST.sat_hash_contact_of(h, id - 1)
    if not c then
      argerror(3, "no such contact")
    end
    local k = id - 1
    local pa, pb = parts_of(h.shape[h.c_a[k]], h.shape[h.c_b[k]], h.c_nx[k], h.c_ny[k])
    if fill_with_parts(r, h.c_overlap[k], h.c_nx[k], h.c_ny[k], h.c_mx[k], h.c_my[k],
      h.c_ainb[k] ~= 0, h.c_bina[k] ~= 0, flip, pa, pb) then
      break
    end
    round = round + 1
  end
  return r
end

-- hash:response(t, overlap, nx, ny, aInB, bInA [, part, ownPart]) -> t made a response
-- (metatable, numbers, vecs); the caller sets a and b. part and ownPart: the parts (from 1)
-- of b and a, 0 or nil for none, written only when a part: t is bare but for what the caller
-- set (hash:claim's, as world:move gives it), so that a plain contact writes no nil field.
local function h_response(...)
  local self, r, overlap, nx, ny, a_in_b, b_in_a, part, own = ...
  local top = select("#", ...)
  check_hash(self)
  checktable(r, 2, top)
  overlap = checkfinite(overlap, 3, top)
  nx = checkfinite(nx, 4, top)
  ny = checkfinite(ny, 5, top)
  local mx, my = -nx * overlap + 0.0, -ny * overlap + 0.0
  a_in_b, b_in_a = a_in_b and true or false, b_in_a and true or false
  local pb = (part == nil and 0 or checkinteger(part, 8, top)) - 1
  local pa = (own == nil and 0 or checkinteger(own, 9, top)) - 1
  if tointeger then -- (luaL_optinteger's integers)
    pb, pa = tointeger(pb), tointeger(pa)
  end
  local round = 0
  while true do
    if round == MAX_ROUNDS then
      too_many_rounds()
    end
    make_response(r)
    if fill_response(r, rawmetatable(r), overlap, nx, ny, mx, my, a_in_b, b_in_a, false) then
      break
    end
    round = round + 1
  end
  if pb >= 0 then
    rawset(r, "part", pb + 1)
  end
  if pa >= 0 then
    rawset(r, "ownPart", pa + 1)
  end
  return r
end

-- hash:sweep's buffer: BUF_STRIDE slots per hit (lsat_hash.c's HIT_*; lua/sat/world_move.lua
-- reads it under those names). Flags are 1 or 0 (floats, as the C's lua_pushnumber); parts
-- from 1, 0 for none (integers, as the C's lua_pushinteger).
local BUF_OTHER, BUF_T, BUF_MX, BUF_MY, BUF_NX, BUF_NY = 1, 2, 3, 4, 5, 6
local BUF_OVERLAP, BUF_OVERLAPPING, BUF_AINB, BUF_BINA = 7, 8, 9, 10
local BUF_PART, BUF_OWNPART, BUF_PX, BUF_PY, BUF_STRIDE = 11, 12, 13, 14, 14

-- A sat_sweep_hit rebuilt from h.sweeps for sat_sweep_point, filled and read at once: one
-- per nesting depth (a sweep may run inside another, from a finalizer or a debug hook).
local SWEEP_HITS = {}
local sweep_depth = 0

-- hash:sweep(shape, dx, dy, buf [, as [, query]]) -> n: the n hits of the shape moving by
-- (dx, dy), written into buf (sorted by t, distance, insertion). `as`: the world's member the
-- shape stands for (a copy of it, swept from where it would be: world:check), whose entry is
-- skipped and whose static flag counts; by default the shape's own. Without query, category
-- and mask filtered, and none static when that entry is; with query, every shape met (as the
-- queries), and the contact points written. The caller clears the shapes from buf when done
-- with them.
local sweep_fill

local function h_sweep(...)
  local self, shape, vx, vy, buf, as, query = ...
  local top = select("#", ...)
  local h = check_hash(self)
  local s = shape_arg(shape, 2, top)
  local sas = s
  if as ~= nil then
    sas = shape_arg(as, 6, top)
  end
  query = query and true or false
  vx, vy = checkfinite(vx, 3, top), checkfinite(vy, 4, top)
  checktable(buf, 5, top)
  local d = sweep_depth + 1
  sweep_depth = d
  local hit = SWEEP_HITS[d]
  if hit == nil then -- (the allocation may run a finalizer: d is counted already)
    hit = { overlapping = 0, t = 0.0, mx = 0.0, my = 0.0, dist2 = 0.0, part_a = -1, part_b = -1,
      result = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0, b_in_a = 0 } }
    SWEEP_HITS[d] = hit
  end
  local n
  for round = 0, MAX_ROUNDS do
    local stamp
    n, stamp = sweep_fill(self, h, s, sas, vx, vy, buf, query, hit)
    if h.stamp_count == stamp or round >= OVERLAP_ROUNDS then -- (else overlapped: again)
      break
    end
  end
  sweep_depth = d - 1
  return n
end

-- hash:sweep's query and its writing into buf -> n, the query's stamp.
function sweep_fill(self, h, s, sas, vx, vy, buf, query, hit)
  local n, idx, stamp = sat_hash_sweep(h, s, sat_hash_find(h, sas), vx, vy,
    query and SAT_HASH_EVERY or true)
  if n < 0 then
    nomem()
  end
  local shapes, sweeps, records = rawget(self, SHAPES), h.sweeps, h.shape
  -- (a buffer without a metatable, the world's own, the C's lua_rawseti written as plain
  -- stores: the same, without a call per slot)
  local plain = getmetatable(buf) == nil
  for k = 1, n do
    local j = (idx[k] - 1) * SW_STRIDE
    local o = (k - 1) * BUF_STRIDE
    if plain then
      buf[o + BUF_OTHER] = shapes[sweeps[j + SW_HANDLE] + 1]
      buf[o + BUF_T] = sweeps[j + SW_T]
      buf[o + BUF_MX] = sweeps[j + SW_MX]
      buf[o + BUF_MY] = sweeps[j + SW_MY]
      buf[o + BUF_NX] = sweeps[j + SW_NX]
      buf[o + BUF_NY] = sweeps[j + SW_NY]
      buf[o + BUF_OVERLAP] = sweeps[j + SW_OVERLAP]
      buf[o + BUF_OVERLAPPING] = sweeps[j + SW_OVERLAPPING] ~= 0 and 1.0 or 0.0
      buf[o + BUF_AINB] = sweeps[j + SW_AINB] ~= 0 and 1.0 or 0.0
      buf[o + BUF_BINA] = sweeps[j + SW_BINA] ~= 0 and 1.0 or 0.0
      buf[o + BUF_PART] = sweeps[j + SW_PART_B] + 1
      buf[o + BUF_OWNPART] = sweeps[j + SW_PART_A] + 1
    else
      rawset(buf, o + BUF_OTHER, shapes[sweeps[j + SW_HANDLE] + 1])
      rawset(buf, o + BUF_T, sweeps[j + SW_T])
      rawset(buf, o + BUF_MX, sweeps[j + SW_MX])
      rawset(buf, o + BUF_MY, sweeps[j + SW_MY])
      rawset(buf, o + BUF_NX, sweeps[j + SW_NX])
      rawset(buf, o + BUF_NY, sweeps[j + SW_NY])
      rawset(buf, o + BUF_OVERLAP, sweeps[j + SW_OVERLAP])
      rawset(buf, o + BUF_OVERLAPPING, sweeps[j + SW_OVERLAPPING] ~= 0 and 1.0 or 0.0)
      rawset(buf, o + BUF_AINB, sweeps[j + SW_AINB] ~= 0 and 1.0 or 0.0)
      rawset(buf, o + BUF_BINA, sweeps[j + SW_BINA] ~= 0 and 1.0 or 0.0)
      rawset(buf, o + BUF_PART, sweeps[j + SW_PART_B] + 1)
      rawset(buf, o + BUF_OWNPART, sweeps[j + SW_PART_A] + 1)
    end
    local rec = records[sweeps[j + SW_HANDLE]]
    if query and rec then -- (else removed meanwhile: stale, and the caller asks again)
      local r = hit.result
      hit.overlapping, hit.t = sweeps[j + SW_OVERLAPPING], sweeps[j + SW_T]
      hit.mx, hit.my, hit.dist2 = sweeps[j + SW_MX], sweeps[j + SW_MY], sweeps[j + SW_DIST2]
      hit.part_a, hit.part_b = sweeps[j + SW_PART_A], sweeps[j + SW_PART_B]
      r.overlap, r.nx, r.ny = sweeps[j + SW_OVERLAP], sweeps[j + SW_NX], sweeps[j + SW_NY]
      r.mx, r.my = sweeps[j + SW_RMX], sweeps[j + SW_RMY]
      r.a_in_b, r.b_in_a = sweeps[j + SW_AINB], sweeps[j + SW_BINA]
      local px, py = sat_sweep_point(s, vx, vy, rec, 0.0, 0.0, hit)
      rawset(buf, o + BUF_PX, px)
      rawset(buf, o + BUF_PY, py)
    end
  end
  return n, stamp
end

-- hash:cells([level [, t]]) -> flat list cx, cy, count, ... of the cells of the level
-- (default 0) holding shapes, by row then column.
local function h_cells(...)
  local self, level, t = ...
  local top = select("#", ...)
  local h = check_hash(self)
  if level == nil then
    level = 0.0
  else
    level = checknumber(level, 2, top)
  end
  t = out_table(t, 3, top)
  if not (level == floor(level) and level >= 0) then
    argerror(2, "level must be an integer >= 0")
  end
  for round = 0, OVERLAP_ROUNDS do -- (a query ran inside this one, in its scratch: again)
    local stamp = H.next_count(h, "stamp_count")
    local n, xs, ys, ns = H.sat_hash_cells(h, level > 4096 and 4096 or level)
    for k = 1, n do
      rawset(t, 3 * k - 2, xs[k] * 1.0)
      rawset(t, 3 * k - 1, ys[k] * 1.0)
      rawset(t, 3 * k, ns[k] * 1.0)
    end
    trim(t, 3 * n)
    if h.stamp_count == stamp or round >= OVERLAP_ROUNDS then
      break
    end
  end
  return t
end

-- hash:levels([t]) -> the levels holding shapes, ascending (a sync first).
local function h_levels(...)
  local self, t = ...
  local h = check_hash(self)
  t = out_table(t, 2, select("#", ...))
  H.sat_hash_sync(h)
  local n, levels = H.sat_hash_levels(h)
  for k = 1, n do
    local v = levels[k]
    if tointeger then
      v = tointeger(v)
    end
    rawset(t, k, v)
  end
  trim(t, n)
  return t
end

-- hash:limits() -> the largest coordinate the core takes, and its message for beyond it.
local function h_limits(self)
  check_hash(self)
  return K.SAT_MAX_COORD, K.sat_status_message(K.SAT_ERR_RANGE)
end

local function h_tostring(self)
  local h = check_hash(self)
  return format("hash(%d shapes, cell %s)", H.sat_hash_count(h),
    U.fmt_num(H.sat_hash_cell_size(h)))
end

-- The finalizer: the core's hash unlinks its records from the shapes it still holds.
local function h_gc(self)
  local h = type(self) == "table" and rawget(self, CORE) or nil
  if h ~= nil then
    H.sat_hash_free(h)
  end
end

-- Lua 5.1 and LuaJIT finalize no table: the object holds a userdata whose finalizer frees its
-- hash (a closure of the hash, never of the object, which it would keep alive).
local newproxy = rawget(_G, "newproxy")
local GC = setmetatable({}, { __tostring = function() return "hash: gc key" end })

-- Applies an operation queued while sat_hash.lua's lock was held (sat_hash.lua's drain, with
-- the lock free): hash:add's or hash:remove's work, as the object `self` asked.
local function apply_queued(h, op, shape, static, self, by)
  if op == Q_ADD then
    add_held(self, h, shape, rawget(shape, REC), static and SAT_HASH_STATIC or 0, by or nil)
  elseif op == Q_REMOVE then
    remove_held(self, h, shape, nil)
  end
end

-- core.newHash([cellSize])
local function l_new_hash(...)
  local cell = ...
  local top = select("#", ...)
  cell = U.optfinite(cell, 1, top, H.SAT_HASH_DEFAULT_CELL)
  if not (cell > 0.0) then
    argerror(1, "cell size must be > 0")
  end
  if not (cell >= H.SAT_HASH_MIN_CELL and cell <= H.SAT_HASH_MAX_CELL) then
    argerror(1, "cell size must be between 1e-100 and 1e150")
  end
  local shapes = { [POOL_LIST] = {}, [POOL_WHERE] = setmetatable({}, { __mode = "k" }) }
  local h = H.sat_hash_new(cell)
  if h == nil then
    nomem()
  end
  h.apply = apply_queued
  local self = { [UD] = true, [CORE] = h, [SHAPES] = shapes, [FILL] = 0 }
  if U.VERSION < 52 and newproxy ~= nil then
    local gc = newproxy(true)
    getmetatable(gc).__gc = function() H.sat_hash_free(h) end
    self[GC] = gc
  end
  return setmetatable(self, HASHMT)
end

local hash_methods = {
  { "add", h_add },
  { "remove", h_remove },
  { "has", h_has },
  { "isStatic", h_is_static },
  { "count", h_count },
  { "cellSize", h_cell_size },
  { "shapes", h_shapes },
  { "sync", h_sync },
  { "queryPoint", h_query_point },
  { "queryRect", h_query_rect },
  { "querySegment", h_query_segment },
  { "queryShape", h_query_shape },
  { "neighbors", h_neighbors },
  { "collisions", h_collisions },
  { "step", h_step },
  { "contacts", h_contacts },
  { "fill", h_fill },
  { "response", h_response },
  { "sweep", h_sweep },
  { "cells", h_cells },
  { "levels", h_levels },
  { "limits", h_limits },
  { "mark", h_mark },
  { "claim", h_claim },
  { "trim", h_trim },
}

U.setfuncs(METHODS, hash_methods)
HASHMT.__index = METHODS
U.setfuncs(HASHMT, { { "__gc", h_gc }, { "__tostring", h_tostring } })
U.protect_metatable(HASHMT, U.MT_HASH)

--- lsat_open_hash: registers core.newHash into the module table.
function M.open(module)
  U.setfuncs(module, { { "newHash", l_new_hash } })
end

return M
