--- lsat_response.lua - the pure backend's twin of src/lua/lsat_response.c: the narrow phase
-- from Lua: sat.test, sat.collide and shape:collidesWith, and the response type sat.collide
-- fills.
--
-- These are the calls a game makes most: each checks its shapes inline (the full checks, with
-- the argument count, only once one fails) and calls the core directly; the core fills one
-- result table of this file's (read into locals before anything is allocated: a finalizer run
-- by an allocation may collide shapes itself), and with a reused response table sat.collide
-- allocates nothing.
local U = require("sat.pure.lsat_util")
local C = require("sat.pure.sat_collide")
local LS = require("sat.pure.lsat_shape")

local M = {}

local type, rawget, rawset, select, setmetatable = type, rawget, rawset, select, setmetatable
local concat = table.concat

local REC, VX, VY = U.REC, U.VX, U.VY
local checkshape, fmt_num, type_name, tovec = U.checkshape, U.fmt_num, U.type_name, U.tovec
local push_vec, rawmetatable = U.push_vec, U.rawmetatable

local sat_test, sat_collide = C.sat_test, C.sat_collide

-- The core's result (sat_result): filled by sat_collide, read at once.
local R = { overlap = 0.0, nx = 0.0, ny = 0.0, mx = 0.0, my = 0.0, a_in_b = 0, b_in_a = 0 }

local RESPMT = { __name = U.MT_RESPONSE }
local MAX_ROUNDS = 64 -- (LSAT_MAX_ROUNDS)
M.RESPMT = RESPMT -- (lsat_hash.lua's responses have it too)

local function l_test(...)
  local a, b = ...
  local ra = type(a) == "table" and rawget(a, REC)
  local rb = type(b) == "table" and rawget(b, REC)
  if not (ra and rb) then
    local top = select("#", ...)
    ra = checkshape(a, 1, top)
    rb = checkshape(b, 2, top)
  end
  return sat_test(ra, rb) ~= 0
end

local function shape_collides_with(...)
  local a, b = ...
  local ra = type(a) == "table" and rawget(a, REC)
  local rb = type(b) == "table" and rawget(b, REC)
  if not (ra and rb) then
    local top = select("#", ...)
    ra = U.checkself(a, "collidesWith", top)
    rb = checkshape(b, 2, top)
  end
  if sat_collide(ra, rb, R) == 0 then
    return false, 0.0, 0.0
  end
  return true, R.mx * 1.0, R.my * 1.0
end

-- The twins of lsat_util.c's lsat_make_response and lsat_fill_response (lsat_hash.lua uses
-- them too).
--
-- Gives the table r the response metatable (when it has none) and vecs under normal and mtv
-- (where it has none), so that filling it makes nothing.
local function make_response(r)
  local n = rawget(r, "normal")
  if tovec(n) == nil then
    rawset(r, "normal", push_vec(0.0, 0.0))
    n = rawget(r, "normal") -- (after the allocation)
  end
  local m = rawget(r, "mtv")
  if tovec(m) == nil or rawequal(m, n) then
    rawset(r, "mtv", push_vec(0.0, 0.0))
  end
end

-- Fills the response r from a result (a_in_b, b_in_a: booleans), seen from a (flip: from b),
-- making nothing: false when a vec is missing (a finalizer took it). mt: r's metatable
-- (rawmetatable(r)), which the caller has at hand. (A response of ours has
-- no __index and no __newindex: its plain reads and writes are raw ones, without a call; and
-- a vec's own keys are written in place.)
local function fill_response(r, mt, overlap, nx, ny, mx, my, a_in_b, b_in_a, flip)
  if flip then
    nx, ny = -nx + 0.0, -ny + 0.0
    mx, my = -mx + 0.0, -my + 0.0
    a_in_b, b_in_a = b_in_a, a_in_b
  end
  local ours = mt == RESPMT
  local pn, pm
  if ours then
    pn, pm = r.normal, r.mtv
  else
    pn, pm = rawget(r, "normal"), rawget(r, "mtv")
  end
  if type(pn) ~= "table" or rawget(pn, VX) == nil or type(pm) ~= "table" or
    rawget(pm, VX) == nil or rawequal(pn, pm) then -- (lsat_tovec's test, inline)
    return false
  end
  if mt == nil then
    -- (a finalizer or a debug hook may have given r a metatable since the caller read it)
    if rawmetatable(r) == nil then
      pcall(setmetatable, r, RESPMT) -- (refused when one came in between: then raw sets)
    end
    ours = rawmetatable(r) == RESPMT
  end
  pn[VX], pn[VY] = nx, ny
  pm[VX], pm[VY] = mx, my
  if ours then
    r.overlap, r.aInB, r.bInA = overlap, a_in_b, b_in_a
  else
    rawset(r, "overlap", overlap)
    rawset(r, "aInB", a_in_b)
    rawset(r, "bInA", b_in_a)
  end
  return true
end

M.make_response, M.fill_response = make_response, fill_response

local function l_collide(...)
  local a, b, r = ...
  local ra = type(a) == "table" and rawget(a, REC)
  local rb = type(b) == "table" and rawget(b, REC)
  local mt -- r's metatable (lua_getmetatable): a response of ours is a table and nothing else
  local valid = true
  if r ~= nil then
    mt = rawmetatable(r)
    if mt ~= RESPMT or type(r) ~= "table" then
      valid = U.istable(r)
    end
  end
  if not (ra and rb and valid) then
    local top = select("#", ...)
    ra = checkshape(a, 1, top)
    rb = checkshape(b, 2, top)
    if not valid then
      U.type_error(3, "table", r, top)
    end
  end
  if sat_collide(ra, rb, R) == 0 then
    return nil
  end
  local overlap, nx, ny, mx, my = R.overlap * 1.0, R.nx * 1.0, R.ny * 1.0, R.mx * 1.0,
    R.my * 1.0
  local a_in_b, b_in_a = R.a_in_b ~= 0, R.b_in_a ~= 0
  if mt == RESPMT then -- the hot case, a response of ours given back: fill_response, inline
    local pn, pm = r.normal, r.mtv
    if type(pn) == "table" and rawget(pn, VX) ~= nil and type(pm) == "table" and
      rawget(pm, VX) ~= nil and not rawequal(pn, pm) then
      pn[VX], pn[VY] = nx, ny
      pm[VX], pm[VY] = mx, my
      r.overlap, r.aInB, r.bInA, r.a, r.b = overlap, a_in_b, b_in_a, a, b
      return r
    end
  elseif r == nil then
    r = setmetatable({}, RESPMT)
    mt = RESPMT
    make_response(r)
  end
  -- (made ready first, filled after, making nothing: a finalizer run by making may fill it)
  local round = 0
  while not fill_response(r, mt, overlap, nx, ny, mx, my, a_in_b, b_in_a, false) do
    if round == MAX_ROUNDS then
      U.error("response table changed while being filled")
    end
    make_response(r)
    mt = rawmetatable(r)
    round = round + 1
  end
  if mt == nil or mt == RESPMT then -- (ours now: fill_response gave it our metatable)
    r.a, r.b = a, b
  else
    rawset(r, "a", a)
    rawset(r, "b", b)
  end
  return r
end

-- "name value" of a response field.
local function add_field(r, name)
  local v = rawget(r, name)
  local text
  if type(v) == "table" and rawget(v, VX) ~= nil then
    text = "vec(" .. fmt_num(v[VX]) .. ", " .. fmt_num(v[VY]) .. ")"
  elseif type(v) == "number" then
    text = fmt_num(v)
  elseif type(v) == "boolean" then
    text = v and "true" or "false"
  else
    text = type_name(v)
  end
  return name .. " " .. text
end

local FIELDS = { "overlap", "normal", "mtv", "aInB", "bInA" }

local function response_tostring(...)
  local r = ...
  U.checktable(r, 1, select("#", ...))
  local parts = {}
  for i = 1, #FIELDS do
    parts[i] = add_field(r, FIELDS[i])
  end
  return "response(" .. concat(parts, ", ") .. ")"
end

local response_meta = { { "__tostring", response_tostring } }

local module_funcs = { { "test", l_test }, { "collide", l_collide } }

local shape_methods = { { "collidesWith", shape_collides_with } }

for k = 0, 4 do
  U.setfuncs(LS.METHODS[k], shape_methods)
end
U.setfuncs(RESPMT, response_meta)
U.protect_metatable(RESPMT, U.MT_RESPONSE)
U.response_metatable(RESPMT)

--- lsat_open_response: registers sat.test and sat.collide into the module table.
function M.open(module)
  U.setfuncs(module, module_funcs)
end

return M
