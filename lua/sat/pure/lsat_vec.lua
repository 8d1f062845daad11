--- lsat_vec.lua - the pure backend's twin of src/lua/lsat_vec.c: the vec type, sat.vec(x, y),
-- its arithmetic metamethods and its methods.
--
-- A vec is a table holding x and y at private keys (lsat_util.lua), so that reading x or y
-- goes through __index and writing them through __newindex, which checks the value; every
-- other key goes to the method table.
local U = require("sat.pure.lsat_util")
local SM = require("sat.pure.sat_math") -- the project's own hypot and sincos, as lsat_vec.c's

local M = {}

local type, rawget, select = type, rawget, select
local sqrt, abs = math.sqrt, math.abs
local sat_hypot, sat_sincos = SM.sat_hypot, SM.sat_sincos
local format = string.format

local VX, VY = U.VX, U.VY
local push_vec, tovec, checkvec, checkselfvec = U.push_vec, U.tovec, U.checkvec, U.checkselfvec
local checkfinite, optfinite, type_name = U.checkfinite, U.optfinite, U.type_name
local nonfinite_name, fmt_num, luaerror = U.nonfinite_name, U.fmt_num, U.error

local METHODS = {}

local function l_vec(...)
  local x, y = ...
  local top = select("#", ...)
  x = optfinite(x, 1, top, 0.0)
  y = optfinite(y, 2, top, 0.0)
  return push_vec(x, y)
end

-- Guarded normalize: a zero vector in, a zero vector out. Scaled first so that no finite
-- vector overflows while its length is computed.
local function vec_normalized(vx, vy)
  local ax, ay = abs(vx), abs(vy)
  local m = ax > ay and ax or ay -- fmax: both are >= 0 and finite
  local rx, ry = 0.0, 0.0
  if m > 0.0 then
    local x, y = vx / m, vy / m
    local len = sqrt(x * x + y * y)
    rx = x / len
    ry = y / len
  end
  return rx, ry
end

local function vec_index(...)
  local v, k = ...
  if not (type(v) == "table" and rawget(v, VX) ~= nil) then
    checkvec(v, 1, select("#", ...))
  end
  if k == "x" then
    return v[VX]
  end
  if k == "y" then
    return v[VY]
  end
  return rawget(METHODS, k)
end

local function vec_newindex(v, k, value)
  checkvec(v, 1, 3)
  if type(k) == "string" then
    if k == "x" or k == "y" then
      if type(value) ~= "number" then
        luaerror(format("bad value for vec.%s (number expected, got %s)", k, type_name(value)))
      end
      local n = value * 1.0
      if n - n ~= 0 then
        luaerror(format("bad value for vec.%s (finite number expected, got %s)", k,
          nonfinite_name(n)))
      end
      if k == "x" then
        v[VX] = n
      else
        v[VY] = n
      end
      return
    end
    luaerror(format("cannot set field '%s' of a vec (a vec has only x and y)", k))
  end
  luaerror(format("cannot set a %s key of a vec (a vec has only x and y)", U.lua_typename(k)))
end

local function vec_tostring(...)
  local v = checkvec((...), 1, select("#", ...))
  return format("vec(%s, %s)", fmt_num(v[VX]), fmt_num(v[VY]))
end

local function operand_error(op, expected, a, b)
  luaerror(format("bad operands for vec '%s' (%s expected, got %s %s %s)", op, expected,
    type_name(a), op, type_name(b)))
end

-- A number operand of * or /: must be finite.
local function operand_number(n, op)
  n = n * 1.0
  if n - n ~= 0 then
    luaerror(format("bad operands for vec '%s' (finite number expected, got %s)", op,
      nonfinite_name(n)))
  end
  return n
end

local function vec_add(a, b)
  if tovec(a) == nil or tovec(b) == nil then
    operand_error("+", "vec + vec", a, b)
  end
  return push_vec(a[VX] + b[VX], a[VY] + b[VY])
end

local function vec_sub(a, b)
  if tovec(a) == nil or tovec(b) == nil then
    operand_error("-", "vec - vec", a, b)
  end
  return push_vec(a[VX] - b[VX], a[VY] - b[VY])
end

local function vec_unm(...)
  local a = checkvec((...), 1, select("#", ...))
  return push_vec(-a[VX], -a[VY])
end

local function vec_mul(a, b)
  local va, vb = tovec(a), tovec(b)
  local v, n
  if va ~= nil and vb == nil and type(b) == "number" then
    v = va
    n = operand_number(b, "*")
  elseif vb ~= nil and va == nil and type(a) == "number" then
    v = vb
    n = operand_number(a, "*")
  else
    operand_error("*", "vec * number or number * vec", a, b)
  end
  return push_vec(v[VX] * n, v[VY] * n)
end

local function vec_div(a, b)
  if tovec(a) == nil or type(b) ~= "number" then
    operand_error("/", "vec / number", a, b)
  end
  local n = operand_number(b, "/")
  if n == 0.0 then
    luaerror("bad operands for vec '/' (division by zero)")
  end
  return push_vec(a[VX] / n, a[VY] / n)
end

local function vec_eq(a, b)
  return tovec(a) ~= nil and tovec(b) ~= nil and a[VX] == b[VX] and a[VY] == b[VY]
end

local function vec_clone(...)
  local a = checkselfvec((...), "clone", select("#", ...))
  return push_vec(a[VX], a[VY])
end

local function vec_unpack(...)
  local a = checkselfvec((...), "unpack", select("#", ...))
  return a[VX], a[VY]
end

local function vec_dot(...)
  local a, b = ...
  local top = select("#", ...)
  checkselfvec(a, "dot", top)
  checkvec(b, 2, top)
  return a[VX] * b[VX] + a[VY] * b[VY]
end

local function vec_cross(...)
  local a, b = ...
  local top = select("#", ...)
  checkselfvec(a, "cross", top)
  checkvec(b, 2, top)
  return a[VX] * b[VY] - a[VY] * b[VX]
end

local function vec_len(...)
  local a = checkselfvec((...), "len", select("#", ...))
  return sat_hypot(a[VX], a[VY])
end

local function vec_len2(...)
  local a = checkselfvec((...), "len2", select("#", ...))
  local x, y = a[VX], a[VY]
  return x * x + y * y
end

local function vec_normalized_l(...)
  local a = checkselfvec((...), "normalized", select("#", ...))
  return push_vec(vec_normalized(a[VX], a[VY]))
end

local function vec_perp(...)
  local a = checkselfvec((...), "perp", select("#", ...))
  return push_vec(-a[VY], a[VX])
end

local function vec_rotated(...)
  local a, angle = ...
  local top = select("#", ...)
  checkselfvec(a, "rotated", top)
  angle = checkfinite(angle, 2, top)
  local s, c = sat_sincos(angle)
  local x, y = a[VX], a[VY]
  return push_vec(c * x - s * y, s * x + c * y)
end

-- The projection of self onto the line of v; onto a zero vector it is the zero vector.
local function vec_project_on(...)
  local a, b = ...
  local top = select("#", ...)
  checkselfvec(a, "projectOn", top)
  checkvec(b, 2, top)
  local ux, uy = vec_normalized(b[VX], b[VY])
  local d = a[VX] * ux + a[VY] * uy
  return push_vec(ux * d, uy * d)
end

-- Self mirrored by the surface of the given normal (any length; a zero normal reflects
-- nothing): v - 2 (v . n) n with n normalized.
local function vec_reflect(...)
  local a, b = ...
  local top = select("#", ...)
  checkselfvec(a, "reflect", top)
  checkvec(b, 2, top)
  local ux, uy = vec_normalized(b[VX], b[VY])
  local d = 2.0 * (a[VX] * ux + a[VY] * uy)
  return push_vec(a[VX] - d * ux, a[VY] - d * uy)
end

local function vec_dist(...)
  local a, b = ...
  local top = select("#", ...)
  checkselfvec(a, "dist", top)
  checkvec(b, 2, top)
  return sat_hypot(a[VX] - b[VX], a[VY] - b[VY])
end

local function l_is_vec(v)
  return tovec(v) ~= nil
end

local vec_meta = {
  { "__index", vec_index }, { "__newindex", vec_newindex }, { "__tostring", vec_tostring },
  { "__add", vec_add }, { "__sub", vec_sub }, { "__unm", vec_unm },
  { "__mul", vec_mul }, { "__div", vec_div }, { "__eq", vec_eq },
}

local vec_methods = {
  { "clone", vec_clone }, { "unpack", vec_unpack }, { "dot", vec_dot },
  { "cross", vec_cross }, { "len", vec_len }, { "len2", vec_len2 },
  { "normalized", vec_normalized_l }, { "perp", vec_perp }, { "rotated", vec_rotated },
  { "projectOn", vec_project_on }, { "reflect", vec_reflect }, { "dist", vec_dist },
}

local module_funcs = { { "vec", l_vec }, { "isVec", l_is_vec } }

local VECMT = { __name = U.MT_VEC }
U.setfuncs(METHODS, vec_methods)
U.setfuncs(VECMT, vec_meta)
U.protect_metatable(VECMT, U.MT_VEC)
U.vec_metatable(VECMT)

--- lsat_open_vec: registers the module's functions into the module table.
function M.open(module)
  U.setfuncs(module, module_funcs)
end

M.METHODS = METHODS

return M
