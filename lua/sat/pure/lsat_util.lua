--- lsat_util.lua - the pure backend's twin of src/lua/lsat_util.c and lsat.h: what every file
-- of the binding shares. Argument checks with one wording, type names for messages, the
-- emulation of luaL_argerror and luaL_error (the same text, the same position), vecs as other
-- types meet them, table helpers and registration.
--
-- Objects. A vec is a table holding its x and y at private keys (VX, VY), so that every write
-- of x or y goes through __newindex and is checked; a shape is a proxy table holding its
-- record (a plain table of the pure core, see sat_internal.lua) at the private key REC, its
-- Lua fields as raw fields beside it. Both are known by that key (as the C binding knows its
-- userdata by a stamp), never by their metatable. Natively they are userdata: wherever the C
-- asks Lua's own type of a value (luaL_typename, lua_istable, luaL_checktype), a vec or a
-- shape here answers as a userdata would.
--
-- Errors. A C function's luaL_argerror names the function as its call site does
-- (lua_getinfo "n"), counts arguments without self in a method call ("calling 'f' on bad
-- self" for the first), and luaL_error prefixes the position of the C function's caller.
-- Here every function the module hands out (functions, methods, metamethods) is registered
-- (setfuncs); an error found at any depth below one raises through argerror / error / selferror
-- here, which find that function's frame on the stack (debug.getinfo, on the error path only)
-- and give the same name, the same argument number and the same position. "no value" (an
-- argument not passed at all, as against nil) needs the count of arguments: every checked
-- function takes `...`, and its checks are given `top` (select("#", ...)); the hot ones count
-- only once a check fails.
local K = require("sat.pure.sat_constants")
local I = require("sat.pure.sat_internal")

local M = {}

local type, rawget, rawset, next, tostring, tonumber = type, rawget, rawset, next, tostring, tonumber
local getmetatable, setmetatable, select, error = getmetatable, setmetatable, select, error
local format = string.format
local HUGE_VAL = math.huge

local dbg = rawget(_G, "debug")
local getinfo = type(dbg) == "table" and dbg.getinfo or nil
local rawmetatable = type(dbg) == "table" and dbg.getmetatable or getmetatable
M.rawmetatable = rawmetatable -- lua_getmetatable: sees through __metatable

local SAT_MAX_COORD = K.SAT_MAX_COORD

-- The language's version: 5.3 and later name types by __name in luaL_typeerror and search
-- package.loaded for a function's name; 5.2 searches the globals; 5.1 and LuaJIT do neither.
local VERSION = 51
do
  local major, minor = tostring(_VERSION):match("(%d+)%.(%d+)")
  if major and not rawget(_G, "jit") then
    VERSION = tonumber(major) * 10 + tonumber(minor)
  end
end
M.VERSION = VERSION

-- ---- private keys and the objects they mark (lsat.h) --------------------------------------

local REC = setmetatable({}, { __tostring = function() return "private key: record" end })
local VX = setmetatable({}, { __tostring = function() return "private key: x" end })
local VY = setmetatable({}, { __tostring = function() return "private key: y" end })
M.REC, M.VX, M.VY = REC, VX, VY

-- Registry names (lsat.h's LSAT_MT_*): what getmetatable() gives for each type.
-- ---- depth reserve ---------------------------------------------------------------------
-- Lua allocates a call's record (a CallInfo) and grows the stack the first time calls go
-- deeper than ever before, and again after a collection has trimmed them; so a pure call
-- that writes a shape and then calls deeper (turning a compound places each part, each part
-- recomputes its normals) can run out of memory between two of its writes, where the C
-- allocates nothing. reserve_depth() first goes as deep as those calls go, with as many
-- registers a frame, so that such allocations happen before the first write (no collection
-- can run between: nothing allocates in between). The turns and scales call it: their
-- deepest path goes 10 frames below the method for a concave outline, 8 for a polygon
-- (counted with a call hook), and reserve_depth, called one frame below the method, goes
-- 12 below it, each frame with 24 registers. It costs about 0.3 us a call under Lua 5.4.
local RESERVE_FRAMES = 10
local function reserve(n)
  -- luacheck: push ignore
  local r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19,
    r20, r21, r22, r23, r24
  -- luacheck: pop
  if n > 0 then
    return (reserve(n - 1)) -- (not a tail call: each level keeps its frame)
  end
  return 0
end
function M.reserve_depth()
  return (reserve(RESERVE_FRAMES))
end

M.MT_VEC = "sat.vec"
M.MT_POLYGON = "sat.polygon"
M.MT_CIRCLE = "sat.circle"
M.MT_SEGMENT = "sat.segment"
M.MT_CAPSULE = "sat.capsule"
M.MT_COMPOUND = "sat.compound"
M.MT_RESPONSE = "sat.response"
M.MT_HASH = "sat.hash"

local KIND_NAMES = { [0] = "polygon", "circle", "segment", "capsule", "compound" }

--- A kind's name, as kind() returns it and messages show it (lsat_kind_name).
local function kind_name(kind)
  return KIND_NAMES[kind] or "shape"
end
M.kind_name = kind_name

--- The record of the shape v, or nil when v is not a shape (lsat_toshape; never raises).
local function toshape(v)
  return type(v) == "table" and rawget(v, REC) or nil
end
M.toshape = toshape

--- v when it is a vec, else nil (lsat_tovec; never raises).
local function tovec(v)
  if type(v) == "table" and rawget(v, VX) ~= nil then
    return v
  end
  return nil
end
M.tovec = tovec

-- The response's metatable, which the C compares with the registry's (set by
-- lsat_response.lua).
local RESPONSE_MT

function M.response_metatable(mt)
  RESPONSE_MT = mt
end

-- The private key that marks the binding's other objects that are userdata in the C binding
-- (a hash: lsat_hash.lua gives its objects UD = true).
local UD = setmetatable({}, { __tostring = function() return "private key: userdata" end })
M.UD = UD

-- Whether v is one of the binding's objects that the C binding makes as a userdata.
local function native_userdata(v)
  return type(v) == "table" and (rawget(v, REC) ~= nil or rawget(v, VX) ~= nil
    or rawget(v, UD) ~= nil)
end
M.native_userdata = native_userdata

-- ---- what Lua's C API says of a value ----------------------------------------------------

--- luaL_typename: Lua's type name, "no value" past the arguments given, "userdata" for what
-- the C binding makes as one.
local function lua_typename(v, arg, top)
  if arg ~= nil and arg > top then
    return "no value"
  end
  if native_userdata(v) then
    return "userdata"
  end
  return type(v)
end
M.lua_typename = lua_typename

--- lua_istable: a table that is not one of the binding's userdata-like objects.
local function istable(v)
  return type(v) == "table" and not native_userdata(v)
end
M.istable = istable

--- lua_rawlen of a table (# before 5.2, which ignores __len there).
M.rawlen = rawget(_G, "rawlen") or function(t) return #t end

--- lua_isnumber: a number, or a string convertible to one.
function M.isnumber(v)
  local t = type(v)
  return t == "number" or (t == "string" and tonumber(v) ~= nil)
end

--- lua_tonumber: the number (a float) of a number or a convertible string, else 0.
function M.tonumber(v)
  local t = type(v)
  if t == "number" then
    return v * 1.0
  end
  if t == "string" then
    local n = tonumber(v)
    if n ~= nil then
      return n * 1.0
    end
  end
  return 0.0
end

-- ---- finding the function the user called (the error path only) --------------------------

-- function -> its own name: every function the module hands out.
local ENTRY = {}

--- Registers funcs ({ {name, fn}, ... }, luaL_Reg's order) into the table t (lsat_setfuncs).
function M.setfuncs(t, funcs)
  for i = 1, #funcs do
    local name, fn = funcs[i][1], funcs[i][2]
    t[name] = fn
    if ENTRY[fn] == nil then
      ENTRY[fn] = name
    end
  end
end

--- Whether fn is one the module hands out.
function M.is_entry(fn)
  return ENTRY[fn] ~= nil
end

-- The level, counted from the caller of `entry_level`'s caller, of the innermost registered
-- function on the stack; nil without the debug library (or with no such frame).
local function entry_level()
  if getinfo == nil then
    return nil
  end
  local level = 3 -- 1: this function, 2: the raiser, 3: the raiser's caller
  while true do
    local info = getinfo(level, "f")
    if info == nil then
      return nil
    end
    if ENTRY[info.func] ~= nil then
      return level - 1 -- as the raiser counts
    end
    level = level + 1
  end
end

-- findfield (lauxlib.c): the name "key.key" of fn in the table t, level deep, walking with
-- next as lua_next does.
local function findfield(t, fn, level)
  if level == 0 or type(t) ~= "table" then
    return nil
  end
  local k, v = next(t)
  while k ~= nil do
    if type(k) == "string" then
      if rawequal(v, fn) then
        return k
      end
      local sub = findfield(v, fn, level - 1)
      if sub ~= nil then
        return k .. "." .. sub
      end
    end
    k, v = next(t, k)
  end
  return nil
end

-- pushglobalfuncname (lauxlib.c): the name a function has in the loaded modules (5.3 and
-- later) or among the globals (5.2); none before.
local function global_name(fn)
  if VERSION < 52 then
    return nil
  end
  if VERSION == 52 then
    return findfield(_G, fn, 2)
  end
  local package = rawget(_G, "package")
  local loaded = type(package) == "table" and package.loaded
  local name = findfield(loaded, fn, 2)
  if name ~= nil and name:sub(1, 3) == "_G." then
    name = name:sub(4)
  end
  return name
end

--- luaL_argerror: "bad argument #arg to 'name' (extramsg)", at the position of the caller of
-- the function the user called; never returns.
local function argerror(arg, extramsg)
  local level = entry_level()
  if level == nil then
    error(format("bad argument #%d to '?' (%s)", arg, extramsg), 0)
  end
  local info = getinfo(level, "nf")
  local name = info.name
  if info.namewhat == "method" then
    arg = arg - 1
    if arg == 0 then
      error(format("calling '%s' on bad self (%s)", tostring(name), extramsg), level + 1)
    end
  end
  if name == nil then
    name = global_name(info.func) or "?"
  end
  error(format("bad argument #%d to '%s' (%s)", arg, name, extramsg), level + 1)
end
M.argerror = argerror

--- luaL_error: msg at the position of the caller of the function the user called.
function M.error(msg)
  local level = entry_level()
  error(msg, level ~= nil and level + 1 or 0)
end

-- ---- type names and the checks ----------------------------------------------------------

-- Whether name is the name of the shapes' or the vecs' metatables (is_own_name; as the C's,
-- without the compound's).
local OWN_NAMES = {
  [M.MT_POLYGON] = true, [M.MT_CIRCLE] = true, [M.MT_SEGMENT] = true, [M.MT_CAPSULE] = true,
  [M.MT_VEC] = true,
}

--- lsat_type_name: the name a value shows in messages: the binding's types by their own names
-- ("polygon", "vec"), a response as "response", another library's object by its __name, else
-- Lua's type name; "no value" for an argument past top (when arg and top are given).
local function type_name(v, arg, top)
  if arg ~= nil and arg > top then
    return "no value"
  end
  local rec = toshape(v)
  if rec ~= nil then
    return kind_name(rec.kind)
  end
  if tovec(v) ~= nil then
    return "vec"
  end
  local mt = rawmetatable(v)
  if mt ~= nil then
    if RESPONSE_MT ~= nil and rawequal(mt, RESPONSE_MT) then
      return "response"
    end
    if type(mt) == "table" then
      local name = mt.__name
      if type(name) == "string" and not OWN_NAMES[name] then
        return name
      end
    end
  end
  return lua_typename(v)
end
M.type_name = type_name

--- lsat_type_error: "bad argument #arg to 'fn' (<expected> expected, got <type>)".
local function type_error(arg, expected, v, top)
  return argerror(arg, format("%s expected, got %s", expected, type_name(v, arg, top)))
end
M.type_error = type_error

--- luaL_typeerror as luaL_checktype raises it: the type named by the value's metatable's
-- __name from 5.3 on ("light userdata" has no Lua counterpart here), else Lua's.
local function lua_type_error(arg, expected, v, top)
  local got
  if VERSION >= 53 and arg <= top then
    local mt = rawmetatable(v)
    local name = type(mt) == "table" and rawget(mt, "__name") or nil
    if type(name) == "string" then
      got = name
    end
  end
  return argerror(arg, format("%s expected, got %s", expected, got or lua_typename(v, arg, top)))
end

--- luaL_checktype(L, arg, LUA_TTABLE).
function M.checktable(v, arg, top)
  if not istable(v) then
    lua_type_error(arg, "table", v, top)
  end
  return v
end

--- lsat_shape_error: "shape expected, got <type>"; never returns.
function M.shape_error(arg, v, top)
  type_error(arg, "shape", v, top)
end

--- lsat_checkshape: the record of the shape v (argument arg), or that error.
function M.checkshape(v, arg, top)
  local rec = type(v) == "table" and rawget(v, REC) or nil
  if rec == nil then
    type_error(arg, "shape", v, top)
  end
  return rec
end

--- The wrong receiver of a method (issue 24): "bad self to '<method>' (<expected> expected,
-- got <type>)", <method> the method's own name, at the position of the method's caller.
local function selferror(method, expected, v, top)
  local msg = format("bad self to '%s' (%s expected, got %s)", method, expected,
    type_name(v, 1, top))
  local level = entry_level()
  error(msg, level ~= nil and level + 1 or 0)
end
M.selferror = selferror

--- The record of the shape v, receiver of method, or the bad-self error.
function M.checkself(v, method, top)
  local rec = type(v) == "table" and rawget(v, REC) or nil
  if rec == nil then
    selferror(method, "shape", v, top)
  end
  return rec
end

--- The vec v, receiver of method, or the bad-self error.
function M.checkselfvec(v, method, top)
  if not (type(v) == "table" and rawget(v, VX) ~= nil) then
    selferror(method, "vec", v, top)
  end
  return v
end

--- "nan", "inf" or "-inf" (lsat_nonfinite_name).
local function nonfinite_name(v)
  if v ~= v then
    return "nan"
  end
  return v > 0 and "inf" or "-inf"
end
M.nonfinite_name = nonfinite_name

--- lsat_checkfinite: a number argument that must be finite ("finite number expected, got nan");
-- a numeric string is taken as its number, as lua_tonumberx takes it. The result is a float
-- (the C's lua_Number), its sign of zero kept.
local function checkfinite(v, arg, top)
  local n = v
  if type(n) ~= "number" then
    n = type(v) == "string" and tonumber(v) or nil
    if n == nil then
      type_error(arg, "number", v, top)
    end
  end
  n = n * 1.0
  if n - n ~= 0 then
    argerror(arg, "finite number expected, got " .. nonfinite_name(n))
  end
  return n
end
M.checkfinite = checkfinite

--- lsat_optfinite: the same, or def when the argument is nil or absent.
function M.optfinite(v, arg, top, def)
  if v == nil then
    return def
  end
  return checkfinite(v, arg, top)
end

--- lsat_checkcoord: a coordinate, size or radius going into the core: finite, and within
-- SAT_MAX_COORD.
function M.checkcoord(v, arg, top)
  local n = checkfinite(v, arg, top)
  if n > SAT_MAX_COORD or n < -SAT_MAX_COORD then
    argerror(arg, K.sat_status_message(K.SAT_ERR_RANGE))
  end
  return n
end

--- lsat_checkstatus: a core refusal, as an argument error carrying the core's own text.
function M.checkstatus(st, arg)
  if st ~= K.SAT_OK then
    argerror(arg, K.sat_status_message(st))
  end
end

-- Whether string.format rounds a decimal tie (an exact 5 after the last digit kept) away from
-- zero, where C's snprintf rounds it to even: LuaJIT's own formatter does ("%.1g" of 2.5 is
-- "3" there, "2" in C); PUC Lua's string.format is C's.
local TIES_AWAY = format("%.1g", 2.5) ~= "2"
local G_FORMATS = {}

--- fmt_g(prec, v): C's snprintf(buf, size, "%.<prec>g", v), the same text on every Lua: under
-- LuaJIT an exact tie whose last digit kept is even is rounded toward zero, as C does, by
-- formatting the double next to v toward zero (below the tie, above the digits kept: a
-- double's spacing is far below a unit in the 15th digit). LuaJIT prints a double's digits
-- exactly, up to its limit of 99 after the point: a tie is 5 then zeros that far (a double
-- that close to a tie without being one would need some 80 decimal digits to agree by
-- chance).
local function fmt_g(prec, v)
  local f = G_FORMATS[prec]
  if f == nil then
    f = "%." .. prec .. "g"
    G_FORMATS[prec] = f
  end
  local s = format(f, v)
  if not TIES_AWAY or v ~= v or v == 0 or v == HUGE_VAL or v == -HUGE_VAL then
    return s
  end
  -- a tie's next digits are 5 then zeros: a cheap look first, then the exact expansion
  local near = format("%." .. (prec + 5) .. "e", v):match("^%-?%d%.(%d+)e"):sub(prec, prec + 5)
  if near ~= "500000" and near ~= "499999" then
    return s
  end
  local lead, frac = format("%.99e", v):match("^%-?(%d)%.(%d+)e")
  local digits = lead .. frac
  if digits:byte(prec + 1) ~= 53 or digits:find("[1-9]", prec + 2) ~= nil
    or digits:byte(prec) % 2 == 1 then -- not a tie, or an odd digit: away is to even
    return s
  end
  local _, e = I.frexp(v)
  local ulp = I.ldexp(1.0, e - 53 < -1074 and -1074 or e - 53)
  return format(f, v > 0 and v - ulp or v + ulp)
end
M.fmt_g = fmt_g

--- lsat_fmt_num: %.14g, which reads naturally (0.1) and never shows -0.
function M.fmt_num(v)
  return fmt_g(14, v + 0.0)
end

local setmetatable_raw = type(dbg) == "table" and dbg.setmetatable or nil

--- Gives t the metatable mt in place of its protected one (a shape's own metatable, made on
-- its first filter write: setmetatable refuses to replace a protected metatable, the debug
-- library's does not). Without the debug library the binding's metatables are left
-- unprotected (protect_metatable), and setmetatable does.
function M.replace_metatable(t, mt)
  if setmetatable_raw ~= nil then
    setmetatable_raw(t, mt)
  else
    setmetatable(t, mt)
  end
end

--- The metatable's protection (lsat_protect_metatable): getmetatable() gives name.
function M.protect_metatable(mt, name)
  if setmetatable_raw ~= nil then
    mt.__metatable = name
  end
end

--- lsat_copy_entries: every entry of src into dst, with raw sets.
function M.copy_entries(src, dst)
  local k, v = next(src)
  while k ~= nil do
    rawset(dst, k, v)
    k, v = next(src, k)
  end
end

--- The core file `name` (a module of lua/sat/pure), or, while it is not ported yet (no such
-- file), a stand-in whose every function raises "the pure backend has no <what> yet
-- (<name>)": the rest of the backend loads and works meanwhile. An error inside a file that
-- exists is raised as it is.
function M.core_file(name, what)
  local ok, mod = pcall(require, name)
  if ok then
    return mod
  end
  if not tostring(mod):find("module '" .. name .. "' not found", 1, true) then
    error(mod, 0)
  end
  local msg = "the pure backend has no " .. what .. " yet (" .. name .. ")"
  return setmetatable({}, { __index = function()
    return function() M.error(msg) end
  end })
end

--- The number of arguments in ... (a function's `top`).
function M.top(...)
  return select("#", ...)
end

-- ---- vecs (the C's lsat_checkvec, lsat_push_vec and lsat_set_vec) -------------------------

local VECMT -- the vecs' metatable, made by lsat_vec.lua (vec_metatable)

function M.vec_metatable(mt)
  VECMT = mt
end

--- lsat_checkvec: the vec at argument arg, or an error.
function M.checkvec(v, arg, top)
  if not (type(v) == "table" and rawget(v, VX) ~= nil) then
    type_error(arg, "vec", v, top)
  end
  return v
end

--- lsat_push_vec: a new vec (x, y).
local function push_vec(x, y)
  return setmetatable({ [VX] = x, [VY] = y }, VECMT)
end
M.push_vec = push_vec

--- lsat_set_vec: the vec field key of the table t set to (x, y): written into the vec already
-- there when there is one, so that a reused response allocates nothing.
function M.set_vec(t, key, x, y)
  local p = rawget(t, key)
  if type(p) == "table" and rawget(p, VX) ~= nil then
    p[VX] = x
    p[VY] = y
    return
  end
  rawset(t, key, push_vec(x, y))
end

return M
