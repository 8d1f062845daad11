--- sat.fast: LuaJIT's way to the C core through the FFI, for the calls a game makes most.
--
-- Under LuaJIT a call to a lua_CFunction is never compiled, and every Lua C API call inside
-- it costs; an FFI call is compiled into a direct call of the C function. So, with the JIT
-- on, `sat.test`, `sat.collide` and the shapes' `collidesWith`, `move`, `moveTo` and
-- `position` become Lua functions that check their arguments (type and metatable, which the
-- JIT turns into a few guards) and call the core through the FFI (a shape's keys, methods
-- included, are table lookups the JIT follows: see src/lsat.c). Any other arguments, and
-- any move the core refuses, are handed by a tail call to the C function, which raises the
-- very error it always raised (a tail call keeps the caller's name for the function in the
-- message).
--
-- Elsewhere (Lua 5.1 to 5.4, or LuaJIT with the JIT off, where FFI calls are slower than
-- C API calls) install() returns nil and the C functions stay as they are.
--
-- Shapes are recognised here by their metatable: their kind's, or, for a shape with fields,
-- its own, which the C side registers in a table only this module holds. That only a shape
-- can have such a metatable (a table can be given one with setmetatable, hence the type
-- check too; no Lua code can give one to a userdata) is the same trust the C side had
-- before it stamped its shapes: debug.setmetatable can break it, as the debug library can
-- break anything.
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
struct sat_lua_api_v2 {
  uint32_t magic, size, result_size, off_normal, off_mtv, off_a_in_b, off_b_in_a;
  int (*test)(const struct sat_lua_shape_v1 *a, const struct sat_lua_shape_v1 *b);
  int (*collide)(const struct sat_lua_shape_v1 *a, const struct sat_lua_shape_v1 *b,
                 struct sat_lua_result_v2 *r);
  int (*move)(struct sat_lua_shape_v1 *s, double dx, double dy);
  int (*move_to)(struct sat_lua_shape_v1 *s, double x, double y);
  void (*position)(const struct sat_lua_shape_v1 *s, double *xy);
};
]]

local MAGIC = 0x5A7F0002

-- The api the C module hands over, once its layout is known to match the cdef above.
local function open_api(ffi, lightud)
  if not pcall(ffi.typeof, "struct sat_lua_api_v2") then
    ffi.cdef(CDEF) -- once per Lua state: a second cdef of the same struct is an error
  end
  local api = ffi.cast("const struct sat_lua_api_v2 *", lightud)
  local R = "struct sat_lua_result_v2"
  if api.magic ~= MAGIC or api.size ~= ffi.sizeof("struct sat_lua_api_v2")
    or api.result_size ~= ffi.sizeof(R)
    or api.off_normal ~= ffi.offsetof(R, "nx") or api.off_mtv ~= ffi.offsetof(R, "mx")
    or api.off_a_in_b ~= ffi.offsetof(R, "a_in_b")
    or api.off_b_in_a ~= ffi.offsetof(R, "b_in_a") then
    return nil
  end
  return api
end

--- install(core) -> {test, collidesWith, collide, move, moveTo, position = fn} | nil
-- With LuaJIT's JIT on: puts the FFI collidesWith, move, moveTo and position into the
-- shapes' method tables (every shape, old and new, uses them from then on) and returns the
-- functions; otherwise changes nothing and returns nil.
function M.install(core)
  local jit = rawget(_G, "jit")
  if type(jit) ~= "table" or not jit.status or not jit.status() then
    return nil
  end
  local has_ffi, ffi = pcall(require, "ffi")
  local info = core._ffi
  if not has_ffi or type(info) ~= "table" then
    return nil
  end
  local api = open_api(ffi, info.api)
  if api == nil then
    return nil
  end

  -- Shapes and vecs are passed to the C functions as they are: the FFI hands a C function
  -- a userdata's payload for a pointer parameter, with no cdata made (a cast would make one
  -- per call when the code runs interpreted, as it does after jit.off()).
  local type, getmetatable = type, getmetatable
  local sat_test, sat_collide = api.test, api.collide
  local result = ffi.new("struct sat_lua_result_v2") -- filled and read at once: reusable
  local copy = ffi.copy
  local result_at = ffi.cast("const char *", result) -- kept alive by result
  local normal_src, mtv_src = result_at + api.off_normal, result_at + api.off_mtv
  local PM, CM, VM, RM = info.polygonMeta, info.circleMeta, info.vecMeta, info.responseMeta
  local c_test, c_collidesWith = core.test, info.collidesWith
  local c_collide, vec, rawget, rawset = core.collide, core.vec, rawget, rawset
  local setmetatable = setmetatable

  -- The metatables of shapes with fields, each a shape's own: registered here by the C
  -- side, in a table no other code holds.
  local own = {}
  info.trackMetatables(own)

  -- Whether v is a shape: a userdata (a table can be given a shape's metatable) with one.
  local function is_shape(v)
    if type(v) ~= "userdata" then
      return false
    end
    local m = getmetatable(v)
    return m == PM or m == CM or own[m] == true
  end

  -- Varargs, so that the C function sees the very arguments (a missing one is "no value").
  local function test(...)
    local a, b = ...
    if is_shape(a) and is_shape(b) then
      return sat_test(a, b) ~= 0
    end
    return c_test(...)
  end

  local function collidesWith(...)
    local a, b = ...
    if is_shape(a) and is_shape(b) then
      if sat_collide(a, b, result) == 0 then
        return false, 0, 0
      end
      return true, result.mx, result.my
    end
    return c_collidesWith(...)
  end

  -- response[key] = the vec (x, y), which src points at: copied into the vec already there
  -- if any (a vec's payload is its two doubles).
  local function set_vec(r, key, src, x, y)
    local v = rawget(r, key)
    if type(v) == "userdata" and getmetatable(v) == VM then
      copy(v, src, 16)
    else
      rawset(r, key, vec(x, y))
    end
  end

  -- As the C sat.collide: a table given is filled with raw sets (and given the response
  -- metatable when it has none); without one, a new response.
  local function collide(...)
    local a, b, r = ...
    if not (is_shape(a) and is_shape(b) and (r == nil or type(r) == "table")) then
      return c_collide(...)
    end
    if sat_collide(a, b, result) == 0 then
      return nil
    end
    if r == nil then
      return setmetatable({
        a = a, b = b, overlap = result.overlap,
        normal = vec(result.nx, result.ny), mtv = vec(result.mx, result.my),
        aInB = result.a_in_b ~= 0, bInA = result.b_in_a ~= 0,
      }, RM)
    end
    if getmetatable(r) == nil then
      setmetatable(r, RM)
    end
    rawset(r, "a", a)
    rawset(r, "b", b)
    rawset(r, "overlap", result.overlap)
    set_vec(r, "normal", normal_src, result.nx, result.ny)
    set_vec(r, "mtv", mtv_src, result.mx, result.my)
    rawset(r, "aInB", result.a_in_b ~= 0)
    rawset(r, "bInA", result.b_in_a ~= 0)
    return r
  end

  -- The methods a game calls on every shape every frame. move and moveTo change nothing
  -- unless they succeed; on any failure the C method redoes the checks and raises.
  local function mover(core_fn, c_method)
    return function(...)
      local s, x, y = ...
      if is_shape(s) and type(x) == "number" and type(y) == "number"
        and core_fn(s, x, y) == 0 then
        return s
      end
      return c_method(...)
    end
  end
  local move, moveTo = mover(api.move, info.move), mover(api.move_to, info.moveTo)
  local sat_position, c_position = api.position, info.position
  local xy = ffi.new("double[2]")

  local function position(...)
    local s = ...
    if is_shape(s) then
      sat_position(s, xy)
      return xy[0], xy[1]
    end
    return c_position(...)
  end

  local replaced = { collidesWith = collidesWith, move = move, moveTo = moveTo, position = position }
  for _, methods in ipairs({ info.polygonMethods, info.circleMethods }) do
    for name, f in pairs(replaced) do
      methods[name] = f
    end
  end
  return { test = test, collidesWith = collidesWith, collide = collide, move = move,
    moveTo = moveTo, position = position }
end

return M
