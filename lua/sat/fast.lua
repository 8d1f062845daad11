--- sat.fast: LuaJIT's way to the C core through the FFI, for the calls a game makes most.
--
-- LuaJIT never compiles a call to a lua_CFunction, and every Lua C API call inside one
-- costs; an FFI call compiles to a direct call of the C function. So, with the JIT on,
-- `sat.test`, `sat.collide`, `sat.contacts`, `sat.sweep` and the shapes' `collidesWith`,
-- `move`, `moveTo` and `position` become Lua functions that check their arguments (type and
-- metatable: a few guards once compiled) and call the core through the FFI (a shape's keys,
-- methods included, are found by table lookups alone, which the JIT follows). Any other
-- arguments, and any move the core refuses, go by a tail call to the C function, which
-- raises the error it always raised (the tail call keeps the caller's name for the function
-- in the message).
--
-- Elsewhere (Lua 5.1 to 5.4, LuaJIT with the JIT off, where an FFI call costs more than a C
-- API call, or without the debug library) install() returns nil and the C functions stay.
--
-- Nothing here comes from a caller: install() takes what it needs from the C module itself
-- (core._ffi.take(), which answers once: sat calls install() as it loads), and installs once.
-- A shape is recognised by its metatable, read with debug.getmetatable (a shape's metatable
-- is protected, so getmetatable gives only its name): its kind's or, for a shape with fields,
-- its own, which the C side registers in a table no script holds. A table can be given such
-- a metatable (hence the type check too); a userdata only through the debug library. And
-- the C functions called through the FFI check their shapes themselves, as the C API ones do:
-- the userdata's length (read from its header, where the C module found LuaJIT keeps it)
-- and the stamp in the shape. So a userdata that the debug library dressed as a shape is
-- refused too, and never read past its end.
-- What is left, through the debug library only: a file, a string buffer or a light userdata
-- dressed in sat's metatables reaches the C function as the FILE *, the buffer's data or the
-- pointer itself (the FFI's own conversion), so the check reads near memory that is not a
-- userdata's: read, never written (no stamp matches). That library can break the C functions
-- as well (it replaces their upvalues), so it is not a boundary sat claims to hold.
local M = {}

-- The result is declared flat (the same layout as sat_result: overlap, normal, mtv, the two
-- flags): reading result.mx gives a number, where result.mtv.x would first make a cdata
-- reference, an allocation whenever the code runs interpreted.
local CDEF = [[
struct sat_lua_result_v2 {
  double overlap, nx, ny, mx, my;
  int a_in_b, b_in_a;
};
struct sat_lua_shape_v1;
struct sat_lua_api_v4 {
  uint32_t magic, size, result_size, off_normal, off_mtv, off_a_in_b, off_b_in_a;
  int (*raw_test)(const struct sat_lua_shape_v1 *a, const struct sat_lua_shape_v1 *b);
  int (*test)(const void *a, const void *b, int len);
  int (*collide)(const void *a, const void *b, struct sat_lua_result_v2 *r, int len);
  int (*move)(void *s, double dx, double dy, int len);
  int (*move_to)(void *s, double x, double y, int len);
  int (*position)(const void *s, double *xy, int len);
  int (*set_vec)(void *v, double x, double y, int len);
  int (*contacts)(const void *a, const void *b, double *out, int len);
  int (*sweep)(const void *a, const void *b, double *io, int len);
};
]]

local MAGIC = 0x5A7F0004

-- The api the C module hands over, once its layout is known to match the cdef above.
local function open_api(ffi, lightud)
  if not pcall(ffi.typeof, "struct sat_lua_api_v4") then
    ffi.cdef(CDEF) -- once per Lua state: a second cdef of the same struct is an error
  end
  local api = ffi.cast("const struct sat_lua_api_v4 *", lightud)
  local R = "struct sat_lua_result_v2"
  if api.magic ~= MAGIC or api.size ~= ffi.sizeof("struct sat_lua_api_v4")
    or api.result_size ~= ffi.sizeof(R)
    or api.off_normal ~= ffi.offsetof(R, "nx") or api.off_mtv ~= ffi.offsetof(R, "mx")
    or api.off_a_in_b ~= ffi.offsetof(R, "a_in_b")
    or api.off_b_in_a ~= ffi.offsetof(R, "b_in_a") then
    return nil
  end
  return api
end

-- What install() returned, once it has run (false: nothing installed).
local installed

-- What the C module hands over, once (nil after that), and what of it this Lua can use.
local function take_internals()
  local ffi_table = rawget(require("sat.core"), "_ffi")
  local take = type(ffi_table) == "table" and rawget(ffi_table, "take")
  local inside = type(take) == "function" and take() or nil -- taken even when unused
  local jit = rawget(_G, "jit")
  if type(inside) ~= "table" or type(jit) ~= "table" or not jit.status or not jit.status() then
    return nil
  end
  local debug = rawget(_G, "debug")
  local getmetatable_raw = type(debug) == "table" and debug.getmetatable
  local has_ffi, ffi = pcall(require, "ffi")
  if not has_ffi or type(getmetatable_raw) ~= "function" then
    return nil
  end
  inside.lengthOffset = inside.lengthOffset() -- found here, where it is needed: LuaJIT
  if inside.lengthOffset == 0 then
    return nil
  end
  local api = open_api(ffi, inside.api)
  if api == nil then
    return nil
  end
  return inside, api, ffi, getmetatable_raw
end

--- install() -> {test, collidesWith, collide, contacts, sweep, move, moveTo, position = fn} | nil
-- With LuaJIT's JIT on: puts the FFI collidesWith, move, moveTo and position into the
-- shapes' method tables (every shape, old and new, uses them from then on) and returns the
-- functions; otherwise changes nothing and returns nil. It takes no argument and runs once:
-- later calls return what the first returned.
function M.install()
  if installed ~= nil then
    return installed or nil
  end
  installed = false
  local info, api, ffi, getmetatable_raw = take_internals()
  if info == nil then
    return nil
  end

  -- Shapes and vecs are passed to the C functions as they are: the FFI hands a C function
  -- a userdata's payload for a pointer parameter, with no cdata made (a cast would make one
  -- per call when the code runs interpreted, as it does after jit.off()).
  local type, getmetatable, dgetmetatable = type, getmetatable, getmetatable_raw
  local sat_test, sat_collide, fill_vec = api.test, api.collide, api.set_vec
  local LEN = info.lengthOffset -- where a userdata's length lies, for the C checks
  -- The buffers the C functions fill, one of each kept for reuse: a call takes it (and makes
  -- its own when it is taken) and gives it back when it has read it, so that a finalizer
  -- calling these functions while another call reads its buffer (at an allocation, or under
  -- the JIT between any two statements) never writes into that buffer.
  local RESULT = "struct sat_lua_result_v2"
  local spareResult = ffi.new(RESULT)
  local PM, CM, VM, RM = info.polygonMeta, info.circleMeta, info.vecMeta, info.responseMeta
  local SM, KM, XM = info.segmentMeta, info.capsuleMeta, info.compoundMeta
  local C = info.c -- the C functions, as the module registered them
  local c_test, c_collidesWith, c_collide, vec = C.test, C.collidesWith, C.collide, C.vec
  local rawget, rawset, rawequal = rawget, rawset, rawequal
  local setmetatable = setmetatable
  -- The metatables of shapes with fields, each a shape's own: registered by the C side.
  local own = info.ownMetas

  -- Whether v may be a shape: a userdata (a table can be given a shape's metatable) with
  -- one. The C function makes sure.
  local function is_shape(v)
    if type(v) ~= "userdata" then
      return false
    end
    local m = dgetmetatable(v)
    return m == PM or m == CM or m == SM or m == KM or m == XM or own[m] == true
  end

  -- Varargs, so that the C function sees the very arguments (a missing one is "no value").
  -- The FFI functions answer -1 for what is not a shape after all: the C function raises.
  local function test(...)
    local a, b = ...
    if is_shape(a) and is_shape(b) then
      local hit = sat_test(a, b, LEN)
      if hit >= 0 then
        return hit ~= 0
      end
    end
    return c_test(...)
  end

  local function collidesWith(...)
    local a, b = ...
    if is_shape(a) and is_shape(b) then
      local result = spareResult or ffi.new(RESULT)
      spareResult = nil
      local hit = sat_collide(a, b, result, LEN)
      local mx, my = result.mx, result.my
      spareResult = result
      if hit == 0 then
        return false, 0, 0
      elseif hit > 0 then
        return true, mx, my
      end
    end
    return c_collidesWith(...)
  end

  local function is_vec(v)
    return type(v) == "userdata" and dgetmetatable(v) == VM
  end

  -- As the C sat.collide: a table given is filled with raw sets (and given the response
  -- metatable when it has none); without one, a new response. The result is read at once;
  -- the vecs are made before any field is written, then written into (a finalizer run by
  -- their allocation may be filling the same table).
  local function collide(...)
    local a, b, r = ...
    if not (is_shape(a) and is_shape(b) and (r == nil or type(r) == "table")) then
      return c_collide(...)
    end
    local result = spareResult or ffi.new(RESULT)
    spareResult = nil
    local hit = sat_collide(a, b, result, LEN)
    local overlap, nx, ny, mx, my = result.overlap, result.nx, result.ny, result.mx, result.my
    local aInB, bInA = result.a_in_b ~= 0, result.b_in_a ~= 0
    spareResult = result
    if hit < 0 then
      return c_collide(...)
    elseif hit == 0 then
      return nil
    end
    if r == nil then
      local normal, mtv = vec(nx, ny), vec(mx, my)
      return setmetatable({
        a = a, b = b, overlap = overlap, normal = normal, mtv = mtv, aInB = aInB, bInA = bInA,
      }, RM)
    end
    if getmetatable(r) == nil then
      setmetatable(r, RM)
    end
    -- (no loop here, which would keep a caller's loop from compiling: when a finalizer took
    -- a vec away meanwhile, the C function does it all again, in rounds of its own)
    local n, m = rawget(r, "normal"), rawget(r, "mtv")
    if not is_vec(n) then
      n = vec(0, 0)
      rawset(r, "normal", n)
    end
    if not is_vec(m) or rawequal(m, n) then -- (== would call the vecs' __eq)
      m = vec(0, 0)
      rawset(r, "mtv", m)
    end
    if rawequal(rawget(r, "normal"), n) and rawequal(rawget(r, "mtv"), m)
      and fill_vec(n, nx, ny, LEN) == 0 and fill_vec(m, mx, my, LEN) == 0 then
      rawset(r, "a", a)
      rawset(r, "b", b)
      rawset(r, "overlap", overlap)
      rawset(r, "aInB", aInB)
      rawset(r, "bInA", bInA)
      return r
    end
    return c_collide(...)
  end

  -- Numbers only, through a buffer: sat.contacts -> n, x1, y1, x2, y2 and
  -- sat.sweep -> t, nx, ny, x, y | nil. A motion out of range, as any other argument that is
  -- not what they take, goes to the C function, which raises.
  local sat_contacts, sat_sweep, c_contacts, c_sweep = api.contacts, api.sweep, C.contacts, C.sweep
  local OUT = "double[5]"
  local spareOut = ffi.new(OUT) -- taken and given back, as the result above

  local function contacts(...)
    local a, b = ...
    if is_shape(a) and is_shape(b) then
      local out = spareOut or ffi.new(OUT)
      spareOut = nil
      local n = sat_contacts(a, b, out, LEN)
      local x1, y1, x2, y2 = out[0], out[1], out[2], out[3]
      spareOut = out
      if n == 0 then
        return 0
      elseif n == 1 then
        return 1, x1, y1
      elseif n == 2 then
        return 2, x1, y1, x2, y2
      end
    end
    return c_contacts(...)
  end

  local function sweep(...)
    local a, dx, dy, b, bdx, bdy = ...
    if is_shape(a) and is_shape(b) and type(dx) == "number" and type(dy) == "number"
      and (bdx == nil or type(bdx) == "number") and (bdy == nil or type(bdy) == "number") then
      local out = spareOut or ffi.new(OUT)
      spareOut = nil
      out[0], out[1], out[2], out[3] = dx, dy, bdx or 0, bdy or 0
      local hit = sat_sweep(a, b, out, LEN)
      local t, nx, ny, x, y = out[0], out[1], out[2], out[3], out[4]
      spareOut = out
      if hit == 1 then
        return t, nx, ny, x, y
      elseif hit == 0 then
        return nil
      end
    end
    return c_sweep(...)
  end

  -- The methods a game calls on every shape every frame. move and moveTo change nothing
  -- unless they succeed; on any failure the C method redoes the checks and raises.
  local function mover(core_fn, c_method)
    return function(...)
      local s, x, y = ...
      if is_shape(s) and type(x) == "number" and type(y) == "number"
        and core_fn(s, x, y, LEN) == 0 then
        return s
      end
      return c_method(...)
    end
  end
  local move, moveTo = mover(api.move, C.move), mover(api.move_to, C.moveTo)
  local sat_position, c_position = api.position, C.position
  local XY = "double[2]"
  local spareXY = ffi.new(XY) -- taken and given back, as the result above

  local function position(...)
    local s = ...
    if is_shape(s) then
      local xy = spareXY or ffi.new(XY)
      spareXY = nil
      local ok = sat_position(s, xy, LEN) == 0
      local x, y = xy[0], xy[1]
      spareXY = xy
      if ok then
        return x, y
      end
    end
    return c_position(...)
  end

  local replaced = { collidesWith = collidesWith, move = move, moveTo = moveTo, position = position }
  for _, methods in ipairs({ info.polygonMethods, info.circleMethods, info.segmentMethods,
    info.capsuleMethods, info.compoundMethods }) do
    for name, f in pairs(replaced) do
      methods[name] = f
    end
  end
  installed = { test = test, collidesWith = collidesWith, collide = collide,
    contacts = contacts, sweep = sweep, move = move, moveTo = moveTo, position = position }
  return installed
end

return M
