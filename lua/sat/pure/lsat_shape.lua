--- lsat_shape.lua - the pure backend's twin of src/lua/lsat_shape.c: the shape types: the
-- constructors (circle, point, polygon, box, segment, capsule, concave, compound, chain), the
-- methods of every kind, Lua fields on shapes, and the lookups that find them.
--
-- A shape is a proxy table holding its record (the pure core's, sat_internal.lua) at the
-- private key REC; its record holds the proxy as `user`. It is known by that key, not by its
-- metatable. Its Lua fields are raw fields of the proxy.
--
-- A shape's keys are found by table lookups alone, with no function call, as in the C
-- binding. Methods and fields never share a name (writing a field named like a method is an
-- error), so the order they are searched in makes no difference:
-- - a shape whose filter was never written has its kind's metatable, whose __index is the
--   kind's method table; the method table's own metatable gives category and mask their
--   defaults;
-- - the first write of category or mask gives the shape a metatable of its own: its kind's,
--   copied, with __index a small table of what was written (its metatable, the kind's
--   FILTMT, sends the other keys on to the method table). A raw field would be written past
--   __newindex after the first write, and the record (what a world filters by) never told.
--   The filter table sits at the private key FILT of the proxy.
-- Every metatable here is protected (__metatable), so that no script reaches the method and
-- filter tables behind them.
--
-- A lean polygon's first turn or scale is refused by the pure core with SAT_ERR_NO_LOCAL, as
-- by the C; give_local makes its arrays and the call is made again, as lsat_shape.c does.
local U = require("sat.pure.lsat_util")
local K = require("sat.pure.sat_constants")
local S = require("sat.pure.sat_shape")
local RC = require("sat.pure.sat_raycast") -- sat_shape_raycast (sat_raycast.c)
local CP = U.core_file("sat.pure.sat_compound", "compounds") -- concave, compound, chain

local M = {}

local type, rawget, rawset, next, select = type, rawget, rawset, next, select
local setmetatable = setmetatable
local floor, fmod = math.floor, math.fmod
local math_type, tointeger = math.type, math.tointeger
local format = string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end

local REC, VX, VY = U.REC, U.VX, U.VY
local reserve_depth = U.reserve_depth
local FILT = setmetatable({}, { __tostring = function() return "private key: filter" end })
M.FILT = FILT

local SAT_OK, SAT_ERR_RANGE, SAT_ERR_NO_LOCAL = K.SAT_OK, K.SAT_ERR_RANGE, K.SAT_ERR_NO_LOCAL
local SAT_POLYGON, SAT_CIRCLE, SAT_SEGMENT, SAT_CAPSULE, SAT_COMPOUND =
  K.SAT_POLYGON, K.SAT_CIRCLE, K.SAT_SEGMENT, K.SAT_CAPSULE, K.SAT_COMPOUND
local SAT_MAX_COORD, SAT_MAX_POINTS = K.SAT_MAX_COORD, K.SAT_MAX_POINTS
local status_message = K.sat_status_message

local checkself, checkcoord, checkfinite, checkstatus = U.checkself, U.checkcoord, U.checkfinite,
  U.checkstatus
local argerror, type_error, type_name, selferror = U.argerror, U.type_error, U.type_name,
  U.selferror
local luaerror, fmt_num, toshape, tovec = U.error, U.fmt_num, U.toshape, U.tovec
local kind_name = U.kind_name

local sat_shape_move_to, sat_shape_move, sat_shape_position = S.sat_shape_move_to,
  S.sat_shape_move, S.sat_shape_position

-- ---- the kinds' tables --------------------------------------------------------------------

local NAMES = { [SAT_POLYGON] = U.MT_POLYGON, [SAT_CIRCLE] = U.MT_CIRCLE,
  [SAT_SEGMENT] = U.MT_SEGMENT, [SAT_CAPSULE] = U.MT_CAPSULE, [SAT_COMPOUND] = U.MT_COMPOUND }

-- Per kind: the method table, the metatable of its shapes, the metatable of a filter table.
local METHODS, KIND_MT, FILTMT = {}, {}, {}
for k = SAT_POLYGON, SAT_COMPOUND do
  METHODS[k] = {}
  KIND_MT[k] = { __name = NAMES[k] }
  FILTMT[k] = {}
end
M.METHODS = METHODS

-- category and mask, as the C binding pushes them (sat_pushuint32): integers from 5.3 on.
local DEFAULT_CATEGORY, DEFAULT_MASK = 1, 4294967295
if tointeger then
  DEFAULT_CATEGORY, DEFAULT_MASK = tointeger(DEFAULT_CATEGORY), tointeger(DEFAULT_MASK)
end

-- ---- shapes: making them, their fields --------------------------------------------------

local state = { next_id = 0 } -- shape ids in creation order: exact ties break deterministically

-- The record rec was just built: give it its identity, and its proxy (returned).
local function finish_shape(rec)
  local proxy = setmetatable({ [REC] = rec, [FILT] = false }, KIND_MT[rec.kind])
  state.next_id = state.next_id + 1
  rec.id = state.next_id
  rec.user = proxy
  return proxy
end
M.finish_shape = finish_shape

-- The filter table of the shape proxy (of record rec), made with its own metatable when it
-- has none yet.
-- Everything it needs is allocated first: a finalizer may run at any allocation and write a
-- filter of this very shape, and then its table is the shape's (ours is dropped). The proxy
-- has its FILT slot from the start (false), so that installing the table allocates nothing
-- between the last look and the write.
local function filter_table(proxy, rec)
  local filt = rawget(proxy, FILT)
  if not filt then
    local kind = rec.kind
    local new = setmetatable({}, FILTMT[kind])
    local mt = {}
    U.copy_entries(KIND_MT[kind], mt) -- (__index among them: set below without allocating)
    filt = rawget(proxy, FILT)
    if not filt then
      filt = new
      mt.__index = filt
      rawset(proxy, FILT, filt)
      U.replace_metatable(proxy, mt)
    end
  end
  return filt
end

-- The C binding's to_bits: the low 32 bits of an integer-valued number (LuaJIT's bit.bnot(1),
-- -2, works), as sat_pushuint32 gives it back; nil for anything else.
local function to_bits(v)
  if type(v) ~= "number" then
    return nil
  end
  if math_type ~= nil and math_type(v) == "integer" then
    return v % 4294967296
  end
  if v - v ~= 0 or floor(v) ~= v then
    return nil
  end
  local m = fmod(v, 4294967296.0)
  if m < 0.0 then
    m = m + 4294967296.0
  elseif m == 0.0 then
    m = 0.0 -- (uint32_t)-0.0 is 0
  end
  if tointeger ~= nil then
    return tointeger(m)
  end
  return m
end

local function shape_newindex(...)
  local s, k, v = ...
  local rec = U.checkshape(s, 1, select("#", ...))
  local filter = 0 -- 1: category, 2: mask
  local bits
  if type(k) == "string" then
    if k == "category" then
      filter = 1
    elseif k == "mask" then
      filter = 2
    end
    if filter ~= 0 then
      bits = to_bits(v)
      if bits == nil then
        luaerror(format("bad value for field '%s' (integer expected, got %s)", k,
          type(v) == "number" and "non-integer number" or type_name(v)))
      end
    elseif rawget(METHODS[rec.kind], k) ~= nil then
      luaerror(format("cannot set field '%s' of a %s: '%s' is a method", k, kind_name(rec.kind),
        k))
    end
  end
  if filter == 0 then
    rawset(s, k, v)
    return
  end
  -- The record's bits, then the filter table's copy of both, until they agree when looked at
  -- after the writes: a debug hook or a finalizer writing the shape's filter between two of
  -- these statements (whose writes complete before this goes on) could otherwise leave the
  -- table saying one thing and the record, what the worlds filter by, another (the record's
  -- other field read before it wrote, or the copy's values read before it wrote). The last
  -- write, this one or the one that overtook it, stands in both.
  local filt = filter_table(s, rec)
  -- (both keys made first, with the values they stand for: a raw set of a new key allocates
  -- and can fail, and must do so before anything changed)
  if rawget(filt, "category") == nil then
    rawset(filt, "category", rec.category)
  end
  if rawget(filt, "mask") == nil then
    rawset(filt, "mask", rec.mask)
  end
  for _ = 1, 64 do
    if filter == 1 then
      S.sat_shape_set_filter(rec, bits, rec.mask) -- (the hashes holding it are told)
    else
      S.sat_shape_set_filter(rec, rec.category, bits)
    end
    rawset(filt, "category", rec.category)
    rawset(filt, "mask", rec.mask)
    if rawget(filt, "category") == rec.category and rawget(filt, "mask") == rec.mask then
      return
    end
  end
end

local FORMS = { [0] = "", "concave, ", "chain, ", "closed chain, " }

local function shape_tostring(...)
  local s = ...
  local rec = U.checkshape(s, 1, select("#", ...))
  local px, py = sat_shape_position(rec)
  local x, y = fmt_num(px), fmt_num(py)
  local kind = rec.kind
  if kind == SAT_POLYGON then
    return format("polygon(%d vertices at %s, %s)", rec.count, x, y)
  elseif kind == SAT_COMPOUND then
    return format("compound(%s%d part%s at %s, %s)", FORMS[S.sat_compound_form(rec)], rec.count,
      rec.count == 1 and "" or "s", x, y)
  elseif kind ~= SAT_CIRCLE then
    -- segment(1, 2 -> 3, 4), capsule(r 5, 1, 2 -> 3, 4): its endpoints
    local x1, y1, x2, y2 = S.sat_segment_endpoints(rec)
    local e1, e2, e3, e4 = fmt_num(x1), fmt_num(y1), fmt_num(x2), fmt_num(y2)
    if kind == SAT_SEGMENT then
      return format("segment(%s, %s -> %s, %s)", e1, e2, e3, e4)
    end
    return format("capsule(r %s, %s, %s -> %s, %s)", fmt_num(rec.radius), e1, e2, e3, e4)
  end
  return format("circle(r %s at %s, %s)", fmt_num(S.sat_circle_radius(rec)), x, y)
end

-- The shape of record rec, of kind `kind` or `other` (the same twice for one), receiver of
-- method (the C's check_kind, with the bad-self error).
local function check_kind(s, method, kind, other, top)
  local rec = type(s) == "table" and rawget(s, REC) or nil
  if rec == nil or (rec.kind ~= kind and rec.kind ~= other) then
    local name = kind_name(kind)
    if other ~= kind then
      name = name .. " or " .. kind_name(other)
    end
    selferror(method, name, s, top)
  end
  return rec
end

-- ---- constructors -----------------------------------------------------------------------

local function l_circle(...)
  local x, y, r = ...
  local top = select("#", ...)
  x = checkcoord(x, 1, top)
  y = checkcoord(y, 2, top)
  local rr = checkfinite(r, 3, top)
  if rr < 0.0 then
    argerror(3, "radius must be >= 0")
  end
  checkcoord(r, 3, top)
  local rec = {}
  checkstatus(S.sat_circle_init(rec, x, y, rr), 3)
  return finish_shape(rec)
end

local function l_point(...)
  local x, y = ...
  local top = select("#", ...)
  x = checkcoord(x, 1, top)
  y = checkcoord(y, 2, top)
  local rec = {}
  checkstatus(S.sat_circle_init(rec, x, y, 0.0), 1)
  return finish_shape(rec)
end

-- segment(x1, y1, x2, y2) and capsule(x1, y1, x2, y2, r): the endpoints' checks, then the
-- radius's (capsule), then the core's refusal (equal endpoints, a segment too short) as an
-- error on argument 3, the second point.
local function push_segment(kind, top, x1, y1, x2, y2, r)
  x1 = checkcoord(x1, 1, top)
  y1 = checkcoord(y1, 2, top)
  x2 = checkcoord(x2, 3, top)
  y2 = checkcoord(y2, 4, top)
  local rr = 0.0
  if kind == SAT_CAPSULE then
    rr = checkfinite(r, 5, top)
    if rr < 0.0 then
      argerror(5, status_message(K.SAT_ERR_NEGATIVE_RADIUS))
    end
    checkcoord(r, 5, top)
  end
  local rec = {}
  local st
  if kind == SAT_CAPSULE then
    st = S.sat_capsule_init(rec, x1, y1, x2, y2, rr)
  else
    st = S.sat_segment_init(rec, x1, y1, x2, y2)
  end
  checkstatus(st, 3)
  return finish_shape(rec)
end

local function l_segment(...)
  return (push_segment(SAT_SEGMENT, select("#", ...), ...))
end

local function l_capsule(...)
  return (push_segment(SAT_CAPSULE, select("#", ...), ...))
end

-- Builds the polygon from the n points xs, ys (the binding's own copy, reduced in place) and
-- returns it; a refusal is an error on argument 1.
local function push_polygon(xs, ys, n)
  if n < 3 then
    argerror(1, status_message(K.SAT_ERR_TOO_FEW_POINTS))
  end
  local outline = {}
  checkstatus(S.sat_polygon_validate(xs, ys, n, xs, ys, outline), 1)
  local rec = {}
  S.sat_polygon_build_lean(rec, outline)
  return finish_shape(rec)
end

-- Room for n points: refused past SAT_MAX_POINTS.
local function point_buffer(n)
  if n > SAT_MAX_POINTS then
    argerror(1, status_message(K.SAT_ERR_TOO_MANY_POINTS))
  end
  return {}, {}
end

local function table_number(t, i)
  local v = rawget(t, i)
  if type(v) ~= "number" then
    argerror(1, format("number expected at index %d, got %s", i, type_name(v)))
  end
  v = v * 1.0
  if v - v ~= 0 then
    argerror(1, format("finite number expected at index %d, got %s", i, U.nonfinite_name(v)))
  end
  if v > SAT_MAX_COORD or v < -SAT_MAX_COORD then
    argerror(1, format("%s at index %d", status_message(SAT_ERR_RANGE), i))
  end
  return v
end

-- The points of the table t (numbers or vecs) handed to push(xs, ys, n, extra).
local function polygon_from_table(push, t, extra)
  local len = rawlen(t)
  local first = rawget(t, 1)
  local vecs = tovec(first) ~= nil
  if not vecs and type(first) ~= "number" then
    argerror(1, format("table of numbers or vecs expected, got %s at index 1", type_name(first)))
  end
  if not vecs and len % 2 ~= 0 then
    argerror(1, format("odd number of coordinates (%d)", len))
  end
  local n = vecs and len or floor(len / 2)
  local xs, ys = point_buffer(n)
  for i = 0, n - 1 do
    if vecs then
      local v = rawget(t, i + 1)
      if tovec(v) == nil then
        argerror(1, format("vec expected at index %d, got %s", i + 1, type_name(v)))
      end
      xs[i + 1] = v[VX]
      ys[i + 1] = v[VY]
    else
      xs[i + 1] = table_number(t, 2 * i + 1)
      ys[i + 1] = table_number(t, 2 * i + 2)
    end
  end
  return push(xs, ys, n, extra)
end

-- The argument forms of polygon(): x1, y1, x2, y2, ... or one table of numbers or vecs.
local function outline_args(push, ...)
  local top = select("#", ...)
  local first = ...
  if U.istable(first) then
    -- trailing nils are no arguments (a wrapper passing its optional ones on)
    for i = 2, top do
      local v = (select(i, ...))
      if v ~= nil then
        argerror(i, format("nothing expected after the table of points, got %s", type_name(v)))
      end
    end
    return polygon_from_table(push, first)
  end
  if top == 0 or not U.isnumber(first) then
    type_error(1, "number or table", first, top)
  end
  local args = { ... }
  for i = 1, top do
    checkcoord(args[i], i, top)
  end
  if top % 2 ~= 0 then
    checkfinite(nil, top + 1, top) -- "number expected, got no value"
  end
  local n = floor(top / 2)
  local xs, ys = point_buffer(n)
  local tonum = U.tonumber
  for i = 0, n - 1 do
    xs[i + 1] = tonum(args[2 * i + 1])
    ys[i + 1] = tonum(args[2 * i + 2])
  end
  return push(xs, ys, n)
end

local function l_polygon(...)
  return (outline_args(push_polygon, ...))
end

-- A concave outline: validated and decomposed by the compounds' core, then built.
local function push_concave(xs, ys, n)
  if n < 3 then
    argerror(1, status_message(K.SAT_ERR_TOO_FEW_POINTS))
  end
  local st, work = CP.sat_concave_prepare(xs, ys, n)
  checkstatus(st, 1)
  local rec = {}
  CP.sat_concave_build(rec, work)
  return finish_shape(rec)
end

local function l_concave(...)
  return (outline_args(push_concave, ...))
end

-- chain(points [, closed])
local function push_chain(xs, ys, n, closed)
  local st = CP.sat_chain_bytes(xs, ys, n, closed)
  if st == K.SAT_ERR_NO_PARTS then
    argerror(1, "needs at least 2 distinct points")
  end
  checkstatus(st, 1)
  local rec = {}
  checkstatus(CP.sat_chain_init(rec, xs, ys, n, closed), 1)
  return finish_shape(rec)
end

local function l_chain(...)
  local t, closed = ...
  local top = select("#", ...)
  if not U.istable(t) then
    type_error(1, "table", t, top)
  end
  if closed ~= nil and type(closed) ~= "boolean" then
    type_error(2, "boolean or nil", closed, top)
  end
  return (polygon_from_table(push_chain, t, closed and 1 or 0))
end

-- compound({shape, ...}): copies of the shapes (compounds give their parts).
local function l_compound(...)
  local t = ...
  U.checktable(t, 1, select("#", ...))
  local n = rawlen(t)
  if n == 0 then
    argerror(1, "no parts (a table of shapes expected)")
  end
  if n > SAT_MAX_POINTS then
    argerror(1, status_message(K.SAT_ERR_TOO_MANY_POINTS))
  end
  local parts = {}
  for i = 1, n do
    local v = rawget(t, i)
    parts[i] = toshape(v)
    if parts[i] == nil then
      argerror(1, format("shape expected at index %d, got %s", i, type_name(v)))
    end
  end
  local rec = {}
  checkstatus(CP.sat_compound_init(rec, parts, n), 1)
  return finish_shape(rec)
end

local function l_box(...)
  local x, y, w, h = ...
  local top = select("#", ...)
  x = checkcoord(x, 1, top)
  y = checkcoord(y, 2, top)
  local ww, hh = checkfinite(w, 3, top), checkfinite(h, 4, top)
  if ww <= 0.0 then
    argerror(3, "width must be > 0")
  end
  if hh <= 0.0 then
    argerror(4, "height must be > 0")
  end
  checkcoord(w, 3, top)
  checkcoord(h, 4, top)
  return (push_polygon({ x, x + ww, x + ww, x }, { y, y, y + hh, y + hh }, 4))
end

-- ---- shape methods ----------------------------------------------------------------------

-- The end of a method that changes the shape: the core's refusal as an error on argument 2,
-- else the shape itself (so that calls chain).
local function transformed(s, st)
  if st ~= SAT_OK then
    checkstatus(st, 2)
  end
  return s
end

local function shape_move_to(...)
  local s, x, y = ...
  local rec = type(s) == "table" and rawget(s, REC)
  if rec and type(x) == "number" and type(y) == "number" and x <= SAT_MAX_COORD
    and x >= -SAT_MAX_COORD and y <= SAT_MAX_COORD and y >= -SAT_MAX_COORD then
    x, y = x * 1.0, y * 1.0
  else
    local top = select("#", ...)
    rec = checkself(s, "moveTo", top)
    x = checkcoord(x, 2, top)
    y = checkcoord(y, 3, top)
  end
  local st = sat_shape_move_to(rec, x, y)
  if st ~= SAT_OK then
    checkstatus(st, 2)
  end
  return s
end

local function shape_move(...)
  local s, dx, dy = ...
  local rec = type(s) == "table" and rawget(s, REC)
  if rec and type(dx) == "number" and type(dy) == "number" and dx - dx == 0 and dy - dy == 0 then
    dx, dy = dx * 1.0, dy * 1.0
  else
    local top = select("#", ...)
    rec = checkself(s, "move", top)
    dx = checkfinite(dx, 2, top)
    dy = checkfinite(dy, 3, top)
  end
  local st = sat_shape_move(rec, dx, dy)
  if st ~= SAT_OK then
    -- out of range: name the coordinate that leaves it
    local x = rec.px + dx
    if st == SAT_ERR_RANGE and x <= SAT_MAX_COORD and x >= -SAT_MAX_COORD then
      checkstatus(st, 3)
    end
    checkstatus(st, 2)
  end
  return s
end

local function shape_position(...)
  local s = ...
  local rec = type(s) == "table" and rawget(s, REC)
  if not rec then
    rec = checkself(s, "position", select("#", ...))
  end
  return sat_shape_position(rec)
end

-- Gives the lean polygon rec the arrays for its local points (the twin of lsat_shape.c's
-- give_local). The arrays are made and filled first, then the shape asked again: a finalizer
-- run by making them may have turned it, giving it arrays of its own, which then stay. Then
-- the depth is reserved again (reserve_depth): making them may have run a collection.
local function give_local(rec)
  if S.sat_shape_local_bytes(rec) == 0 then
    return
  end
  local lx, ly = {}, {}
  for i = 1, rec.count do
    lx[i], ly[i] = 0.0, 0.0
  end
  -- from here to the end nothing allocates but the two keys written on the record
  if S.sat_shape_local_bytes(rec) ~= 0 then -- (a polygon's count never changes)
    S.sat_shape_give_local(rec, lx, ly)
  end
  reserve_depth()
end

-- The four rotations: absolute or not, about a pivot or not.
local function turn(rec, absolute, pivot, a, cx, cy)
  if not pivot then
    if absolute then
      return S.sat_shape_set_rotation(rec, a)
    end
    return S.sat_shape_rotate(rec, a)
  end
  if absolute then
    return S.sat_shape_set_rotation_about(rec, a, cx, cy)
  end
  return S.sat_shape_rotate_about(rec, a, cx, cy)
end

-- rotate(da [, cx, cy]) and setRotation(a [, cx, cy]): with a pivot (as HC's), the shape
-- turns about it; without, about its own position. The pivot is both numbers or neither.
local function rotation_change(absolute, method, top, s, a, cx, cy)
  local rec = checkself(s, method, top)
  a = checkfinite(a, 2, top)
  local pivot = not (cx == nil and cy == nil)
  if pivot then
    cx = checkcoord(cx, 3, top)
    cy = checkcoord(cy, 4, top)
  else
    cx, cy = 0.0, 0.0
  end
  reserve_depth() -- (see U.reserve_depth)
  local st = turn(rec, absolute, pivot, a, cx, cy)
  if st == SAT_ERR_NO_LOCAL then -- a lean polygon's first turn (refused, nothing changed)
    give_local(rec)
    st = turn(rec, absolute, pivot, a, cx, cy)
  end
  if pivot and st == SAT_ERR_RANGE then -- the pivot is in range: the turn takes it out
    argerror(3, "the turn about this pivot takes the shape out of range (coordinates up to 1e150)")
  end
  return (transformed(s, st))
end

local function shape_set_rotation(...)
  return (rotation_change(true, "setRotation", select("#", ...), ...))
end

local function shape_rotate(...)
  return (rotation_change(false, "rotate", select("#", ...), ...))
end

local function shape_rotation(...)
  local rec = checkself((...), "rotation", select("#", ...))
  return S.sat_shape_rotation(rec)
end

-- scale(s) or, as LÖVE writes it, scale(sx, sy) with sy == sx: a shape's scale is uniform.
local function shape_scale(...)
  local s, f, sy = ...
  local top = select("#", ...)
  local rec = checkself(s, "scale", top)
  f = checkfinite(f, 2, top)
  if f <= 0.0 then
    argerror(2, status_message(K.SAT_ERR_BAD_SCALE))
  end
  if sy ~= nil and checkfinite(sy, 3, top) ~= f then
    argerror(3, "non-uniform scale is not supported (sy must equal sx)")
  end
  reserve_depth()
  local st = S.sat_shape_scale(rec, f)
  if st == SAT_ERR_NO_LOCAL then -- (as in rotation_change)
    give_local(rec)
    st = S.sat_shape_scale(rec, f)
  end
  return (transformed(s, st))
end

local function shape_bbox(...)
  local rec = checkself((...), "bbox", select("#", ...))
  return S.sat_shape_bbox(rec)
end

local function shape_contains(...)
  local s, x, y = ...
  local top = select("#", ...)
  local rec = checkself(s, "contains", top)
  x = checkfinite(x, 2, top)
  y = checkfinite(y, 3, top)
  return S.sat_shape_contains(rec, x, y) ~= 0
end

local function shape_area(...)
  local rec = checkself((...), "area", select("#", ...))
  return S.sat_shape_area(rec)
end

local function shape_kind(...)
  local rec = checkself((...), "kind", select("#", ...))
  return kind_name(rec.kind)
end

-- A copy with a new id; the Lua fields are copied too (a shallow copy), the filter written.
local function shape_clone(...)
  local s = ...
  local rec = checkself(s, "clone", select("#", ...))
  local c = {}
  S.sat_shape_copy(c, rec)
  local copy = finish_shape(c)
  local k, v = next(s)
  while k ~= nil do
    if k ~= REC and k ~= FILT then
      rawset(copy, k, v)
    end
    k, v = next(s, k)
  end
  -- (the copy's filter table from its record, not from s's table: a hook or a finalizer may
  -- have written s's filter since the record was copied; the copy is no one else's yet)
  if rawget(s, FILT) then
    local filt = filter_table(copy, c)
    rawset(filt, "category", c.category)
    rawset(filt, "mask", c.mask)
  end
  return copy
end

-- The core's raycast hit (sat_hit), filled by sat_shape_raycast, read at once.
local HIT = { t = 0.0, nx = 0.0, ny = 0.0, part = -1 }

local function shape_raycast(...)
  local s, x1, y1, x2, y2 = ...
  local top = select("#", ...)
  local rec = checkself(s, "raycast", top)
  x1 = checkfinite(x1, 2, top)
  y1 = checkfinite(y1, 3, top)
  x2 = checkfinite(x2, 4, top)
  y2 = checkfinite(y2, 5, top)
  if RC.sat_shape_raycast(rec, x1, y1, x2, y2, HIT) == 0 then
    return nil
  end
  return HIT.t * 1.0, HIT.nx * 1.0, HIT.ny * 1.0
end

-- vertices([t]) -> t: world coordinates x1, y1, x2, y2, ...; fills and trims t when given
-- (no allocation in a draw loop once t is big enough). A compound's: its outline (a concave
-- shape's) or its points (a chain's).
local function shape_vertices(...)
  local s, t = ...
  local top = select("#", ...)
  local rec = check_kind(s, "vertices", SAT_POLYGON, SAT_COMPOUND, top)
  local count, outline = rec.count, rec.kind == SAT_COMPOUND
  if outline then
    count = S.sat_compound_outline_count(rec)
    if count == 0 then
      luaerror("a compound of parts has no outline (parts() gives its parts)")
    end
  end
  if t == nil then
    t = {}
  else
    U.checktable(t, 2, top)
  end
  for i = 0, count - 1 do
    local x, y
    if outline then
      x, y = S.sat_compound_outline_point(rec, i)
    else
      x, y = S.sat_polygon_vertex(rec, i)
    end
    rawset(t, 2 * i + 1, x)
    rawset(t, 2 * i + 2, y)
  end
  local i = 2 * count + 1
  while rawget(t, i) ~= nil do
    rawset(t, i, nil)
    i = i + 1
  end
  return t
end

local function shape_radius(...)
  local rec = check_kind((...), "radius", SAT_CIRCLE, SAT_CAPSULE, select("#", ...))
  return S.sat_circle_radius(rec)
end

local function shape_set_radius(...)
  local s, r = ...
  local top = select("#", ...)
  local rec = check_kind(s, "setRadius", SAT_CIRCLE, SAT_CAPSULE, top)
  local rr = checkfinite(r, 2, top)
  if rr < 0.0 then
    argerror(2, status_message(K.SAT_ERR_NEGATIVE_RADIUS))
  end
  checkcoord(r, 2, top)
  return (transformed(s, S.sat_circle_set_radius(rec, rr)))
end

-- endpoints() -> x1, y1, x2, y2: a segment's or a capsule's, in world coordinates.
local function shape_endpoints(...)
  local rec = check_kind((...), "endpoints", SAT_SEGMENT, SAT_CAPSULE, select("#", ...))
  return S.sat_segment_endpoints(rec)
end

-- parts() -> {shape, ...}: copies of a compound's parts in world coordinates (new shapes,
-- with no fields).
local function shape_parts(...)
  local rec = check_kind((...), "parts", SAT_COMPOUND, SAT_COMPOUND, select("#", ...))
  local list = {}
  for i = 0, rec.count - 1 do
    local p = S.sat_compound_part(rec, i)
    local c = {}
    S.sat_shape_copy(c, p)
    local proxy = finish_shape(c)
    -- copy_filter: the compound's bits, in the part's fields when they are not the defaults
    local cat, mask = rec.category, rec.mask
    if cat == 1 and mask == 0xFFFFFFFF then
      S.sat_shape_set_filter(c, 1, 0xFFFFFFFF)
    else
      local filt = filter_table(proxy, c)
      rawset(filt, "category", to_bits(cat))
      rawset(filt, "mask", to_bits(mask))
      S.sat_shape_set_filter(c, cat, mask)
    end
    list[i + 1] = proxy
  end
  return list
end

local function l_is_shape(v)
  return toshape(v) ~= nil
end

-- core.ghost(shape [, ghost]) -> ghost: a copy of the shape with its identity (its id: the
-- pair tests of the copy are the shape's, bit for bit), in no hash, without fields; made in
-- `ghost` when that is a shape in no hash (its record reused when of the same kind, as the C
-- reuses a userdata with room enough), else in a new proxy. Internal to sat.world:
-- world:check moves the copy where the shape would go, changing nothing.
local function l_ghost(...)
  local s, g = ...
  local top = select("#", ...)
  local rec = U.checkshape(s, 1, top)
  local grec
  if g ~= nil then
    grec = U.checkshape(g, 2, top)
  end
  if grec == nil or grec == rec or grec.members then
    g, grec = nil, {}
  elseif grec.kind ~= rec.kind or rec.kind == SAT_COMPOUND then
    grec = {}
  end
  S.sat_shape_copy(grec, rec)
  if g == nil then
    g = setmetatable({ [REC] = grec, [FILT] = false }, KIND_MT[grec.kind])
  else
    rawset(g, REC, grec)
    U.replace_metatable(g, KIND_MT[grec.kind])
  end
  grec.user = g
  return g
end

-- ---- exact transforms, for the world's digest and snapshots (lua/sat/world_state.lua) --

-- core.transformBits(shape) -> x, y, xlo, ylo, angle, scale, radius, category, mask: what the
-- record holds, unrounded (the twin of lsat_shape.c's l_transform_bits).
local function l_transform_bits(...)
  local rec = U.checkshape((...), 1, select("#", ...))
  return rec.px, rec.py, rec.plx, rec.ply, rec.angle, rec.scale, rec.radius, rec.category,
    rec.mask
end

-- core.setTransformBits(shape, x, y, xlo, ylo, angle, scale, radius) -> shape
local function l_set_transform_bits(...)
  local s, x, y, xl, yl, a, k, r = ...
  local top = select("#", ...)
  local rec = U.checkshape(s, 1, top)
  x, y = U.checkfinite(x, 2, top), U.checkfinite(y, 3, top)
  xl, yl = U.checkfinite(xl, 4, top), U.checkfinite(yl, 5, top)
  a, k, r = U.checkfinite(a, 6, top), U.checkfinite(k, 7, top), U.checkfinite(r, 8, top)
  local st = S.sat_shape_set_transform(rec, x, y, xl, yl, a, k, r)
  if st == SAT_ERR_NO_LOCAL then -- (as in rotation_change)
    give_local(rec)
    st = S.sat_shape_set_transform(rec, x, y, xl, yl, a, k, r)
  end
  return (transformed(s, st))
end

local shape_meta = { { "__newindex", shape_newindex }, { "__tostring", shape_tostring } }

local shape_methods = {
  { "moveTo", shape_move_to }, { "move", shape_move }, { "position", shape_position },
  { "setRotation", shape_set_rotation }, { "rotate", shape_rotate },
  { "rotation", shape_rotation }, { "scale", shape_scale }, { "bbox", shape_bbox },
  { "contains", shape_contains }, { "area", shape_area }, { "kind", shape_kind },
  { "clone", shape_clone }, { "raycast", shape_raycast },
}

local polygon_methods = { { "vertices", shape_vertices } }

local circle_methods = { { "radius", shape_radius }, { "setRadius", shape_set_radius } }

local segment_methods = { { "endpoints", shape_endpoints } }

local compound_methods = { { "parts", shape_parts }, { "vertices", shape_vertices } }

local capsule_methods = {
  { "endpoints", shape_endpoints }, { "radius", shape_radius }, { "setRadius", shape_set_radius },
}

local module_funcs = {
  { "circle", l_circle }, { "point", l_point }, { "polygon", l_polygon },
  { "box", l_box }, { "segment", l_segment }, { "capsule", l_capsule },
  { "concave", l_concave }, { "compound", l_compound }, { "chain", l_chain },
  { "isShape", l_is_shape }, { "ghost", l_ghost }, { "transformBits", l_transform_bits },
  { "setTransformBits", l_set_transform_bits },
}

-- The tables a shape's keys are looked up in (see the top): each kind's metatable and filter
-- tables' metatable send keys to its method table, and the method tables' shared metatable
-- gives category and mask their defaults.
local function link_lookups()
  local defaults = { __index = { category = DEFAULT_CATEGORY, mask = DEFAULT_MASK } }
  for k = SAT_POLYGON, SAT_COMPOUND do
    setmetatable(METHODS[k], defaults)
    KIND_MT[k].__index = METHODS[k]
    FILTMT[k].__index = METHODS[k]
  end
end

do
  local own = { [SAT_POLYGON] = polygon_methods, [SAT_CIRCLE] = circle_methods,
    [SAT_SEGMENT] = segment_methods, [SAT_CAPSULE] = capsule_methods,
    [SAT_COMPOUND] = compound_methods }
  for k = SAT_POLYGON, SAT_COMPOUND do
    U.setfuncs(METHODS[k], shape_methods)
    U.setfuncs(METHODS[k], own[k])
    U.setfuncs(KIND_MT[k], shape_meta)
  end
  link_lookups()
  -- copied into a shape's own metatable with the rest
  for k = SAT_POLYGON, SAT_COMPOUND do
    U.protect_metatable(KIND_MT[k], NAMES[k])
  end
end

--- lsat_open_shape: registers the constructors into the module table.
function M.open(module)
  U.setfuncs(module, module_funcs)
end

return M
