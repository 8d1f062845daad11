-- The differential fuzzer (issue 26, point 5 "The same bits"): the native module and the
-- pure-Lua backend driven in ONE process (require("sat.backend").new gives each its own copy of
-- the Lua layer) by the same random scripts, every result compared bit for bit.
--
--   lua spec/fuzz/differential.lua [seed [operations [seconds]]]
--
-- runs `operations` operations (0: no limit), or until `seconds` of CPU time have passed when
-- given; prints one summary line `differential: seed S, N operations, C calls compared,
-- 0 mismatches`; exits 1 on the first mismatch, printing the seed, the operation's number,
-- both sides' records and the last operations, so that the run can be replayed.
--
-- How: each operation is one function run twice, once per side (the native, then the pure
-- backend), each time with a copy of the same random state. Every call it makes goes through
-- `call`, which runs it under pcall at the same source position on both sides (wrappers
-- compiled once, shared: a method is called as `o:name(...)`, a module function as
-- `sat.name(...)`, so that error messages, their `calling 'x' on bad self` forms and their
-- position prefixes must be identical) and writes what it gave into the side's record: every
-- number with all its bits (%.17g, the sign of zeros, integer or float on 5.3+), every
-- string, every table field by field (responses, explanations with every axis, hits,
-- collisions, cells), every error message whole. Objects are named by the order in which
-- they first appear on their side, so that a shape handed to a handler, found by a query or
-- made by clone/parts must be the same one on both sides (the mapping native <-> pure).
-- Handlers (world:on, the shapes' own onEnter/onStay/onExit), setFilter functions and the
-- filters of queries and moves write their arguments into the record too, in the order they
-- are called, and act from the side's random state (add, remove, move shapes, raise errors,
-- step from a step), so that both sides act the same as long as they are called the same.
-- After each operation the two records must be equal, line for line.
--
-- Compounds (sat.concave, sat.compound, sat.chain) are in the scripts when the pure backend
-- has them (sat.pure.sat_compound loads); DIFF_COMPOUND=0 leaves them out anyway.
local backend = require("sat.backend")

local seed = tonumber(arg and arg[1]) or 1
local maxOps = tonumber(arg and arg[2]) or 2000
local seconds = tonumber(arg and arg[3])
if maxOps == 0 then
  maxOps = math.huge
end

local NATIVE = backend.new("native")
local PURE = backend.new("lua")
assert(NATIVE.backend == "native" and PURE.backend == "lua", "two backends expected")

local COMPOUND = pcall(require, "sat.pure.sat_compound") and os.getenv("DIFF_COMPOUND") ~= "0"
local WORLD = PURE.world ~= nil and require("sat.pure.lsat_module").newHash ~= nil

local floor, format, concat, sort = math.floor, string.format, table.concat, table.sort
local mtype = math.type -- luacheck: ignore 143 (5.3+)
local unpack = table.unpack or unpack -- luacheck: ignore 113 (5.1's)
local loadstring = loadstring or load -- luacheck: ignore 113 (5.1's)

local function pack(...)
  return { n = select("#", ...), ... }
end

------------------------------------------------------------------------------------------
-- random numbers, the same on every Lua (Park-Miller), one state per side per operation

local master = seed % 2147483646 + 1

local function newRng(state)
  return { s = state, draws = 0 }
end
local function rnd(R)
  R.s = R.s * 16807 % 2147483647
  R.draws = R.draws + 1
  return R.s / 2147483647
end
local function int(R, a, b)
  return a + floor(rnd(R) * (b - a + 1))
end
local function chance(R, p)
  return rnd(R) < p
end
local function pickOf(R, t)
  return t[int(R, 1, #t)]
end

------------------------------------------------------------------------------------------
-- the record: every value written out in full

local function num(x)
  if x ~= x then
    return "NaN"
  end
  local s
  if mtype and mtype(x) == "integer" then
    return "i" .. format("%d", x)
  end
  if x == 0 then
    s = (1 / x < 0) and "-0" or "0"
  elseif x == math.huge then
    s = "inf"
  elseif x == -math.huge then
    s = "-inf"
  else
    s = format("%.17g", x)
  end
  return s
end

local ser

-- A sat object by its protected metatable's name; plain tables by their fields (keys sorted
-- by their written form), every table and userdata also by its identity on its side.
local function serTable(S, v, depth)
  local id = S.ids[v]
  local fresh = id == nil
  if fresh then
    S.nextId = S.nextId + 1
    id = S.nextId
    S.ids[v] = id
  end
  local mt = getmetatable(v)
  local tag = "#" .. id
  if type(mt) == "string" then
    if mt == "sat.vec" then
      return tag .. "vec(" .. num(v.x) .. "," .. num(v.y) .. ")"
    elseif mt ~= "sat.response" then
      -- a shape, a hash: its identity, its name; its state is read by the inspections
      return tag .. mt .. (fresh and ("<" .. tostring(v) .. ">") or "")
    end
  end
  if type(v) ~= "table" then
    return tag .. type(v)
  end
  if type(mt) == "table" and mt.__name == "world" then -- its state: through its methods
    return tag .. "world" .. (fresh and ("<" .. tostring(v) .. ">") or "")
  end
  if depth > 6 then
    return tag .. "{...}"
  end
  -- keys in a deterministic order before any value is written (writing names new objects);
  -- object keys by the names they have already (else last, which no script here makes)
  local plain, objs = {}, {}
  for k in pairs(v) do
    local tk = type(k)
    if tk == "table" or tk == "userdata" or tk == "function" or tk == "thread" then
      objs[#objs + 1] = k
    else
      plain[#plain + 1] = k
    end
  end
  sort(plain, function(p, q)
    local tp, tq = type(p), type(q)
    if tp ~= tq then
      return tp < tq
    end
    return p < q
  end)
  sort(objs, function(p, q)
    return (S.ids[p] or math.huge) < (S.ids[q] or math.huge)
  end)
  local keys = {}
  for i = 1, #plain do
    keys[#keys + 1] = ser(S, plain[i], depth + 1) .. "=" .. ser(S, v[plain[i]], depth + 1)
  end
  for i = 1, #objs do
    keys[#keys + 1] = ser(S, objs[i], depth + 1) .. "=" .. ser(S, v[objs[i]], depth + 1)
  end
  local s = tag .. (type(mt) == "string" and mt or "") .. "{" .. concat(keys, ",") .. "}"
  if type(mt) == "table" and mt.__tostring then
    s = s .. "<" .. tostring(v) .. ">"
  end
  return s
end

function ser(S, v, depth)
  local t = type(v)
  if t == "number" then
    return num(v)
  elseif t == "string" then
    return format("%q", v)
  elseif t == "boolean" or t == "nil" then
    return tostring(v)
  elseif t == "table" or t == "userdata" then
    return serTable(S, v, depth or 0)
  end
  -- functions and threads: their identity only
  local id = S.ids[v]
  if id == nil then
    S.nextId = S.nextId + 1
    id = S.nextId
    S.ids[v] = id
  end
  return "#" .. id .. t
end

-- An error message as both sides must give it. The one difference allowed: Lua's own
-- messages (not sat's) name an object by its raw type on Lua 5.1, 5.2 and LuaJIT, where a
-- native shape or vec is a userdata and a pure one a table ("attempt to call local 'f' (a
-- userdata value)", when a shape is written in a handler field); 5.3+ name both by __name.
local function errText(e)
  if type(e) ~= "string" then
    return "error object " .. type(e)
  end
  e = e:gsub("0x%x+", "0x?")
  return (e:gsub("%(a userdata value%)", "(a table value)"))
end

local STATS = os.getenv("DIFF_STATS") and {} or nil

local function out(S, s)
  S.out[#S.out + 1] = s
  S.calls = S.calls + 1
  if STATS and S.sat == PURE then
    local label = s:match("^(%S+ %S+)") or s
    label = label:gsub(" [#\"%-%di].*", "")
    if os.getenv("DIFF_STATS") == "errors" then
      label = s:match("^%S+ ERR .*") or label
    end
    STATS[label] = (STATS[label] or 0) + 1
  end
end

-- The wrappers: compiled once, shared by both sides, so that each call is made from the same
-- source position with the same syntax.
local wrappers = {}
local function wrapper(form, name)
  local key = form .. " " .. name
  local w = wrappers[key]
  if w == nil then
    local src
    if form == "method" then
      src = "local pack = ...; return function(o, ...) return pack(o:" .. name .. "(...)) end"
    elseif form == "field" then
      src = "local pack = ...; return function(o, ...) return pack(o." .. name .. "(...)) end"
    elseif form == "module" then
      src = "local pack = ...; return function(sat, ...) return pack(sat." .. name .. "(...)) end"
    else
      error("form " .. form)
    end
    w = assert(loadstring(src, "=differential"))(pack)
    wrappers[key] = w
  end
  return w
end

local function setField(o, k, v)
  o[k] = v
end
local function getField(o, k)
  return o[k]
end

-- call(S, label, form, name, target, ...): the call, its results or its error in the record;
-- returns ok and the results.
local function call(S, label, form, name, target, ...)
  local r = pack(pcall(wrapper(form, name), target, ...))
  if not r[1] then
    out(S, label .. " ERR " .. errText(r[2]))
    return false
  end
  local res = r[2]
  local parts = { label }
  for i = 1, res.n do
    parts[#parts + 1] = ser(S, res[i])
  end
  out(S, concat(parts, " "))
  return true, unpack(res, 1, res.n)
end

local function method(S, o, name, ...)
  return call(S, name, "method", name, o, ...)
end
local function modfn(S, name, ...)
  return call(S, name, "module", name, S.sat, ...)
end

------------------------------------------------------------------------------------------
-- the two sides

local function newSide(sat)
  return {
    sat = sat, ids = setmetatable({}, { __mode = "k" }), nextId = 0, out = {}, calls = 0,
    shapes = {}, worlds = {}, vecs = {}, responses = {}, tables = {}, movers = {}, R = nil,
  }
end
local sides = { newSide(NATIVE), newSide(PURE) }

local POOL = 24 -- shapes kept at most

------------------------------------------------------------------------------------------
-- arguments

local BASES = { 0, 0, 0, 3, -7.25, 1e3, 1e9, -1e9, 1e15, 2 ^ 40 + 0.5 }
local SIZES = { 1, 1, 10, 3.5, 0.25, 1e-3, 1e-7, 1e4, 1e6 }

local function base(R)
  return pickOf(R, BASES)
end

local function size(R)
  return pickOf(R, SIZES) * (0.5 + rnd(R))
end

-- A number of any kind a user may pass; bad ones (NaN, infinities, strings, nil, tables) rare.
local function anyNumber(R, S)
  local k = int(R, 1, 40)
  if k <= 10 then
    return int(R, -10, 10)
  elseif k <= 20 then
    return (rnd(R) - 0.5) * 200
  elseif k <= 24 then
    return base(R) + (rnd(R) - 0.5) * 10
  elseif k == 25 then
    return -0.0
  elseif k == 26 then
    return 0.0
  elseif k == 27 then
    return pickOf(R, { 1e-300, 5e-324, -1e-310, 2.2250738585072014e-308 })
  elseif k == 28 then
    return pickOf(R, { 1e300, -1e308, 1.7976931348623157e308, 2 ^ 1000 })
  elseif k == 29 then
    return pickOf(R, { 0 / 0, math.huge, -math.huge })
  elseif k == 30 then
    return pickOf(R, { "12", "0x10", " 3.5 ", "1e2", "abc", "" })
  elseif k == 31 then
    return pickOf(R, { true, false })
  elseif k == 32 then
    return nil
  elseif k == 33 then
    return {}
  elseif k == 34 and S and #S.shapes > 0 then
    return S.shapes[int(R, 1, #S.shapes)]
  elseif k == 35 and S then
    return S.sat.vec(1, 2)
  end
  return rnd(R) * 10
end

-- Mostly good numbers, now and then a bad one.
local function maybe(R, S, good)
  if chance(R, 0.04) then
    return anyNumber(R, S)
  end
  return good
end

local function addShape(S, R, s)
  if s == nil then
    return
  end
  local n = #S.shapes
  if n < POOL then
    S.shapes[n + 1] = s
  else
    S.shapes[int(R, 1, POOL)] = s
  end
end

-- Points of a convex polygon about (x, y): n of them on an ellipse, turned.
local function convexPoints(R, x, y, n, w, h)
  local a0 = rnd(R) * 6.283185307179586
  local pts = {}
  for k = 0, n - 1 do
    local a = a0 + k * 6.283185307179586 / n
    pts[#pts + 1] = x + math.cos(a) * w
    pts[#pts + 1] = y + math.sin(a) * h
  end
  return pts
end

-- An outline, simple but concave (a star or an L), for sat.concave.
local function concavePoints(R, x, y, s)
  if chance(R, 0.5) then
    return { x, y, x + 2 * s, y, x + 2 * s, y + s, x + s, y + s, x + s, y + 2 * s, x, y + 2 * s }
  end
  local n = int(R, 5, 9)
  local pts = {}
  for k = 0, 2 * n - 1 do
    local a = k * 3.141592653589793 / n
    local r = (k % 2 == 0) and s or s * (0.3 + 0.4 * rnd(R))
    pts[#pts + 1] = x + math.cos(a) * r
    pts[#pts + 1] = y + math.sin(a) * r
  end
  return pts
end

local function asVecs(S, pts)
  local t = {}
  for k = 1, #pts, 2 do
    t[#t + 1] = S.sat.vec(pts[k], pts[k + 1])
  end
  return t
end

-- A new shape of a random kind near (x, y), with now and then degenerate or bad arguments.
local function makeShape(S, R, x, y, s)
  local sat = S.sat
  local k = int(R, 1, COMPOUND and 12 or 9)
  local ok, shape
  if k == 1 then
    ok, shape = modfn(S, "circle", maybe(R, S, x), maybe(R, S, y),
      maybe(R, S, chance(R, 0.1) and 0 or s))
  elseif k == 2 then
    ok, shape = modfn(S, "point", maybe(R, S, x), maybe(R, S, y))
  elseif k == 3 then
    local n = chance(R, 0.1) and int(R, 20, 64) or int(R, 3, 8)
    local pts = convexPoints(R, x, y, n, s, s * (0.2 + rnd(R)))
    if chance(R, 0.1) then -- collinear and duplicate points
      pts[#pts + 1] = pts[#pts - 1]
      pts[#pts + 1] = pts[#pts - 1]
      pts[#pts + 1] = (pts[1] + pts[3]) / 2
      pts[#pts + 1] = (pts[2] + pts[4]) / 2
    end
    if chance(R, 0.05) then -- too few or collinear
      pts = { x, y, x + s, y, x + 2 * s, y }
    end
    if chance(R, 0.03) then
      pts[int(R, 1, #pts)] = anyNumber(R, S)
    end
    local form = int(R, 1, 3)
    if form == 1 then
      ok, shape = modfn(S, "polygon", unpack(pts))
    elseif form == 2 then
      ok, shape = modfn(S, "polygon", pts)
    else
      ok, shape = modfn(S, "polygon", asVecs(S, pts))
    end
  elseif k == 4 then
    ok, shape = modfn(S, "box", maybe(R, S, x), maybe(R, S, y), maybe(R, S, s), maybe(R, S, s * rnd(R)))
  elseif k == 5 or k == 6 then
    local dx, dy = (rnd(R) - 0.5) * s, (rnd(R) - 0.5) * s
    if chance(R, 0.1) then
      dx, dy = 0, 0
    end
    if k == 5 then
      ok, shape = modfn(S, "segment", maybe(R, S, x), maybe(R, S, y), maybe(R, S, x + dx),
        maybe(R, S, y + dy))
    else
      ok, shape = modfn(S, "capsule", maybe(R, S, x), maybe(R, S, y), maybe(R, S, x + dx),
        maybe(R, S, y + dy), maybe(R, S, chance(R, 0.1) and 0 or s * rnd(R)))
    end
  elseif k == 7 then -- exactly touching a shape of the pool, or a box beside a box
    local w, h = s, s * (0.5 + rnd(R))
    ok, shape = modfn(S, "box", x, y, w, h)
    if ok then
      addShape(S, R, shape)
      local side = int(R, 1, 3)
      if side == 1 then
        ok, shape = modfn(S, "box", x + w, y + h * rnd(R), w, h)
      elseif side == 2 then
        ok, shape = modfn(S, "circle", x + w + h / 2, y + h / 2, h / 2)
      else
        ok, shape = modfn(S, "segment", x + w, y - h, x + w, y + 2 * h)
      end
    end
  elseif k == 8 then -- wrong arguments of every kind
    local name = pickOf(R, { "circle", "point", "polygon", "box", "segment", "capsule" })
    local args = {}
    local n = int(R, 0, 6)
    for i = 1, n do
      args[i] = anyNumber(R, S)
    end
    ok, shape = modfn(S, name, unpack(args, 1, n))
  elseif k == 9 then -- a tiny or huge polygon
    local f = pickOf(R, { 1e-9, 1e-5, 1e8, 1e12 })
    ok, shape = modfn(S, "polygon", convexPoints(R, x, y, int(R, 3, 6), s * f, s * f))
  elseif k == 10 then
    local pts = concavePoints(R, x, y, s)
    ok, shape = modfn(S, "concave", chance(R, 0.5) and pts or asVecs(S, pts))
  elseif k == 11 then
    local parts = {}
    for i = 1, int(R, 1, 3) do
      parts[i] = S.shapes[int(R, 1, math.max(1, #S.shapes))] or sat.circle(x, y, s)
    end
    ok, shape = modfn(S, "compound", parts)
  else
    local pts = convexPoints(R, x, y, int(R, 3, 7), s, s)
    ok, shape = modfn(S, "chain", pts, chance(R, 0.5))
  end
  if ok then
    addShape(S, R, shape)
  end
  return shape
end

------------------------------------------------------------------------------------------
-- handlers and filters: they write their arguments and act from the side's random state

local REENTRANT = 0 -- nesting depth of handlers, to keep their actions bounded

local function someShape(S, R)
  return S.shapes[int(R, 1, math.max(1, #S.shapes))]
end

local actInWorld -- (below)

local function handler(S, tag)
  return function(a, b, r)
    out(S, "event " .. tag .. " " .. ser(S, a) .. " " .. ser(S, b) .. " " .. ser(S, r))
    local R = S.R
    if REENTRANT < 2 and chance(R, 0.25) then
      REENTRANT = REENTRANT + 1
      local ok, e = pcall(actInWorld, S, R)
      REENTRANT = REENTRANT - 1
      if not ok then
        error(e, 0)
      end
    end
  end
end

local function worldFilter(S)
  return function(a, b)
    out(S, "setFilter " .. ser(S, a) .. " " .. ser(S, b))
    local R = S.R
    if chance(R, 0.02) then
      error("filter refuses", 0)
    end
    if chance(R, 0.03) and REENTRANT < 1 then
      REENTRANT = REENTRANT + 1
      pcall(actInWorld, S, R)
      REENTRANT = REENTRANT - 1
    end
    return pickOf(R, { true, true, true, false, nil, 1 })
  end
end

local RESPONSES = { "slide", "slide", "touch", "cross", false, "bounce", "bogus", 3, "stick",
  "half" }

local function moveFilter(S)
  return function(shape, other)
    out(S, "moveFilter " .. ser(S, shape) .. " " .. ser(S, other))
    local R = S.R
    if chance(R, 0.02) then
      error("move filter raised", 0)
    end
    if chance(R, 0.03) and REENTRANT < 1 then
      REENTRANT = REENTRANT + 1
      pcall(actInWorld, S, R)
      REENTRANT = REENTRANT - 1
    end
    local v = pickOf(R, RESPONSES)
    if v == false then
      return nil
    end
    return v
  end
end

-- A response of the game's own (world:addResponse): writes the contact it is given, then
-- stops there, carries on with half the motion, lets the shape through, raises an error or
-- answers wrongly, from the side's random state.
local CONTACT_FIELDS = { "world", "shape", "other", "type", "nx", "ny", "overlap", "x", "y", "vx",
  "vy", "dx", "dy", "part", "ownPart", "npressed", "upx", "upy", "walkable" }
local function responseFn(S, tag)
  return function(c)
    local parts = { "response", tag }
    for i = 1, #CONTACT_FIELDS do
      parts[#parts + 1] = CONTACT_FIELDS[i] .. "=" .. ser(S, c[CONTACT_FIELDS[i]])
    end
    local n = c.npressed
    if type(n) == "number" then
      for i = 1, 2 * n do
        parts[#parts + 1] = ser(S, c.pressed[i])
      end
    end
    out(S, concat(parts, " "))
    local R = S.R
    local k = int(R, 1, 10)
    if k == 1 then
      error("response raised", 0)
    elseif k == 2 then
      return -- through
    elseif k == 3 then
      return "wrong", 1
    elseif k == 4 and REENTRANT < 1 then
      REENTRANT = REENTRANT + 1
      pcall(actInWorld, S, R)
      REENTRANT = REENTRANT - 1
    end
    if tag == "stick" then
      return 0, 0
    end
    return c.vx * 0.5, c.vy * 0.5
  end
end

local function queryFilter(S)
  return function(shape)
    out(S, "queryFilter " .. ser(S, shape))
    return chance(S.R, 0.7)
  end
end

------------------------------------------------------------------------------------------
-- operations

local function twoShapes(S, R)
  local n = #S.shapes
  if n == 0 then
    return nil
  end
  return S.shapes[int(R, 1, n)], S.shapes[int(R, 1, n)]
end

local SHAPE_METHODS = { "moveTo", "move", "position", "setRotation", "rotate", "rotation",
  "scale", "bbox", "contains", "area", "kind", "clone", "raycast", "vertices", "radius",
  "setRadius", "endpoints", "parts", "collidesWith" }

-- Every getter of shape s, and its fields.
local function inspect(S, s)
  method(S, s, "position")
  method(S, s, "rotation")
  method(S, s, "bbox")
  method(S, s, "area")
  local ok, kind = method(S, s, "kind")
  out(S, "tostring " .. tostring(s))
  out(S, "fields " .. ser(S, getField(s, "category")) .. " " .. ser(S, getField(s, "mask"))
    .. " " .. ser(S, getField(s, "tag")))
  if ok and kind == "polygon" then
    method(S, s, "vertices")
  elseif kind == "circle" then
    method(S, s, "radius")
  elseif kind == "segment" then
    method(S, s, "endpoints")
  elseif kind == "capsule" then
    method(S, s, "endpoints")
    method(S, s, "radius")
  elseif kind == "compound" then
    method(S, s, "vertices")
    method(S, s, "parts")
  end
end

local function shapeMethod(S, R)
  local s = someShape(S, R)
  if s == nil then
    return
  end
  local name = pickOf(R, SHAPE_METHODS)
  local x, y = s:position()
  local a, b = anyNumber(R, S), anyNumber(R, S)
  if chance(R, 0.6) then -- good arguments near the shape
    a, b = x + (rnd(R) - 0.5) * 4, y + (rnd(R) - 0.5) * 4
  end
  if name == "moveTo" or name == "contains" then
    method(S, s, name, a, b)
  elseif name == "move" then
    method(S, s, name, maybe(R, S, (rnd(R) - 0.5) * 8), maybe(R, S, (rnd(R) - 0.5) * 8))
  elseif name == "setRotation" or name == "rotate" then
    local angle = maybe(R, S, (rnd(R) - 0.5) * 8)
    if chance(R, 0.05) then
      angle = pickOf(R, { 1e15, 1e300, -1e308 })
    end
    if chance(R, 0.4) then
      method(S, s, name, angle, a, b)
    else
      method(S, s, name, angle)
    end
  elseif name == "scale" then
    local f = maybe(R, S, pickOf(R, { 0.5, 2, 1.25, 0.999, 3, 1e-3, 0, -1 }))
    if chance(R, 0.15) then
      method(S, s, name, f, chance(R, 0.7) and f or 2)
    else
      method(S, s, name, f)
    end
  elseif name == "raycast" then
    method(S, s, name, maybe(R, S, x - 6), y - 5, maybe(R, S, x + (rnd(R) - 0.5) * 3),
      maybe(R, S, y + 4))
  elseif name == "setRadius" then
    method(S, s, name, maybe(R, S, rnd(R) * 3))
  elseif name == "vertices" then
    if chance(R, 0.5) then
      local t = S.tables[1] or {}
      S.tables[1] = t
      method(S, s, name, t)
    else
      method(S, s, name)
    end
  elseif name == "clone" or name == "parts" then
    local ok, r = method(S, s, name)
    if ok and name == "clone" then
      addShape(S, R, r)
    elseif ok and type(r) == "table" and r[1] then
      addShape(S, R, r[1])
    end
  elseif name == "collidesWith" then
    method(S, s, name, someShape(S, R))
  else
    method(S, s, name)
  end
  if chance(R, 0.03) then -- a wrong receiver
    local bad = pickOf(R, { 1, "x", true, S.sat.vec(0, 0), {} })
    call(S, "badself " .. name, "field", name, s, bad, 1, 2)
  end
  if chance(R, 0.3) then
    inspect(S, s)
  end
end

local function pairOp(S, R)
  local a, b = twoShapes(S, R)
  if a == nil then
    return
  end
  if chance(R, 0.5) then -- bring them close
    local x, y = b:position()
    local ok = method(S, a, "moveTo", x + (rnd(R) - 0.5) * 3, y + (rnd(R) - 0.5) * 3)
    if not ok then
      return
    end
  end
  local k = int(R, 1, 8)
  if k == 1 then
    modfn(S, "test", a, b)
  elseif k == 2 then
    if chance(R, 0.5) then
      local resp = S.responses[1] or {}
      local ok, r = modfn(S, "collide", a, b, resp)
      if ok and r then
        S.responses[1] = r
      end
    else
      modfn(S, "collide", a, b)
    end
  elseif k == 3 then
    modfn(S, "contacts", a, b)
  elseif k == 4 then
    local dx, dy = (rnd(R) - 0.5) * 20, (rnd(R) - 0.5) * 20
    if chance(R, 0.5) then
      modfn(S, "sweep", a, maybe(R, S, dx), maybe(R, S, dy), b, (rnd(R) - 0.5) * 5, maybe(R, S, 1))
    else
      modfn(S, "sweep", a, maybe(R, S, dx), maybe(R, S, dy), b)
    end
  elseif k == 5 then
    local ok, e = modfn(S, "explain", a, b)
    if ok then
      out(S, "explain tostring " .. tostring(e))
    end
  elseif k == 6 then
    method(S, a, "collidesWith", b)
  elseif k == 7 then -- wrong arguments
    local name = pickOf(R, { "test", "collide", "contacts", "sweep", "explain" })
    modfn(S, name, a, anyNumber(R, S), anyNumber(R, S), anyNumber(R, S))
  else
    modfn(S, "isShape", chance(R, 0.5) and a or anyNumber(R, S))
  end
end

local VEC_METHODS = { "clone", "unpack", "dot", "cross", "len", "len2", "normalized", "perp",
  "rotated", "projectOn", "reflect", "dist" }

local function vecOp(S, R)
  local sat = S.sat
  local ok, v = modfn(S, "vec", maybe(R, S, anyNumber(R)), maybe(R, S, anyNumber(R)))
  if not ok then
    return
  end
  local _, w = modfn(S, "vec", (rnd(R) - 0.5) * 10, chance(R, 0.2) and 0 or rnd(R))
  local k = int(R, 1, 10)
  if k <= 5 then
    local name = pickOf(R, VEC_METHODS)
    local x = pickOf(R, { w, w, anyNumber(R, S), (rnd(R) - 0.5) * 7 })
    method(S, v, name, x)
  elseif k == 6 then
    local op = int(R, 1, 6)
    local other = pickOf(R, { w, 2, -0.5, anyNumber(R, S) })
    local f = ({ function(p, q) return p + q end, function(p, q) return p - q end,
      function(p, q) return p * q end, function(p, q) return q * p end,
      function(p, q) return p / q end, function(p, q) return p == q end })[op]
    local r = pack(pcall(f, v, other))
    out(S, "vec op " .. op .. " " .. tostring(r[1]) .. " "
      .. (r[1] and ser(S, r[2]) or errText(r[2])))
    r = pack(pcall(function(p) return -p end, v))
    out(S, "unm " .. (r[1] and ser(S, r[2]) or errText(r[2])))
  elseif k == 7 then
    local key = pickOf(R, { "x", "y", "z", "len", 1 })
    local r = pack(pcall(setField, v, key, anyNumber(R, S)))
    out(S, "vec set " .. tostring(r[1]) .. " " .. (r[1] and ser(S, v) or errText(r[2])))
    r = pack(pcall(getField, v, key))
    out(S, "vec get " .. tostring(r[1]) .. " " .. ser(S, r[2]))
  elseif k == 8 then
    modfn(S, "isVec", chance(R, 0.5) and v or anyNumber(R, S))
  elseif k == 9 then
    out(S, "vec tostring " .. tostring(v) .. " " .. tostring(getmetatable(v)))
  else
    local name = pickOf(R, VEC_METHODS)
    call(S, "badself vec " .. name, "field", name, v, pickOf(R, { 1, "s", {}, sat.circle(0, 0, 1) }))
  end
end

local FIELD_NAMES = { "category", "mask", "tag", "onEnter", "moveTo", "vertices", "radius",
  "parts", "kind", "user", 1, "category", "mask", "oneway" }

local function fieldOp(S, R)
  local s = someShape(S, R)
  if s == nil then
    return
  end
  local key = pickOf(R, FIELD_NAMES)
  local v
  if key == "category" or key == "mask" then
    v = pickOf(R, { 1, 2, 3, 0, 0xFFFFFFFF, 0xFFFFFFFE, 2 ^ 32 + 5, -1, 1.5, 2 ^ 53, -2 ^ 40,
      "4", true, nil, 0 / 0, anyNumber(R, S) })
  elseif key == "oneway" then
    v = pickOf(R, { S.sat.vec(0, 1), S.sat.vec(0, -1), S.sat.vec(1, 0), false })
  else
    v = pickOf(R, { 1, "x", true, {}, anyNumber(R, S) })
  end
  local r = pack(pcall(setField, s, key, v))
  out(S, "set " .. ser(S, key) .. " " .. tostring(r[1]) .. " " .. (r[1] and "" or errText(r[2])))
  r = pack(pcall(getField, s, key))
  out(S, "get " .. ser(S, key) .. " " .. tostring(r[1]) .. " "
    .. (type(r[2]) == "function" and "function" or ser(S, r[2])))
end

------------------------------------------------------------------------------------------
-- worlds

local function someWorld(S, R)
  return S.worlds[int(R, 1, math.max(1, #S.worlds))]
end

local function reuse(S, R, k)
  if chance(R, 0.5) then
    return nil
  end
  local t = S.tables[k]
  if t == nil then
    t = {}
    S.tables[k] = t
  end
  return t
end

local function queryArgs(S, R, k)
  local f = chance(R, 0.3) and queryFilter(S) or nil
  local t = reuse(S, R, k)
  if f and t then
    return f, t
  elseif f then
    return f
  end
  return t
end

-- A shape of world w, mostly (moves and removals of shapes not in it are refused).
local function memberOf(S, R, w)
  if chance(R, 0.8) then
    local list = w:shapes()
    if #list > 0 then
      return list[int(R, 1, #list)]
    end
  end
  return someShape(S, R)
end

local MERGES = { "rects", "greedy", "rows", "columns", "none", "concave", "chain", "bogus" }

-- sat.level: a small random grid, or a small Tiled map, into world w.
local function levelOp(S, R, w)
  local level = S.sat.level
  if level == nil then
    return
  end
  local options
  if chance(R, 0.7) then
    options = {}
    if chance(R, 0.5) then
      local merge = pickOf(R, MERGES)
      if COMPOUND or (merge ~= "concave" and merge ~= "chain") then
        options.merge = merge
      end
    end
    if chance(R, 0.3) then options.maxSpan = pickOf(R, { 1, 2, 3, math.huge, 0 }) end
    if chance(R, 0.3) then options.static = chance(R, 0.5) end
    if chance(R, 0.3) then options.fields = { tag = "wall", category = pickOf(R, { 1, 2 }) } end
    if chance(R, 0.4) then options.x, options.y = base(R) + rnd(R), (rnd(R) - 0.5) * 100 end
  end
  local tw, th = maybe(R, S, pickOf(R, { 16, 1, 0.5, 3.25 })), pickOf(R, { 16, 1, 0.5, 3.25 })
  local ok, shapes
  if chance(R, 0.75) then
    local rows = {}
    local W, H = int(R, 1, 8), int(R, 1, 6)
    for r = 1, H do
      local row = {}
      for c = 1, W do
        row[c] = chance(R, 0.55) and "#" or "."
      end
      rows[r] = table.concat(row)
    end
    ok, shapes = call(S, "level.grid", "field", "grid", level, w, rows, tw, th, options)
  else
    local W, H = int(R, 1, 5), int(R, 1, 4)
    local data = {}
    for i = 1, W * H do
      data[i] = chance(R, 0.5) and 1 or 0
    end
    local objects = {}
    for i = 1, int(R, 0, 4) do
      local kind = int(R, 1, 4)
      local o = { id = i, x = rnd(R) * 40, y = rnd(R) * 40, width = 1 + rnd(R) * 10,
        height = 1 + rnd(R) * 10, rotation = chance(R, 0.3) and rnd(R) * 90 or 0 }
      if kind == 2 then
        o.shape = "ellipse"
        if chance(R, 0.5) then o.height = o.width end
      elseif kind == 3 then
        o.shape = "polygon"
        o.polygon = { { x = 0, y = 0 }, { x = 8, y = 0 }, { x = 4, y = 6 } }
      elseif kind == 4 and COMPOUND then
        o.shape = "polyline"
        o.polyline = { { x = 0, y = 0 }, { x = 8, y = 2 }, { x = 12, y = 9 } }
      else
        o.shape = "rectangle"
      end
      objects[i] = o
    end
    local map = { orientation = "orthogonal", width = W, height = H, tilewidth = 16,
      tileheight = 16, tilesets = { { firstgid = 1, name = "t", tilewidth = 16, tileheight = 16,
        tiles = {} } },
      layers = {
        { type = "tilelayer", name = "ground", width = W, height = H, data = data,
          properties = { collidable = true } },
        { type = "objectgroup", name = "things", objects = objects,
          properties = { collidable = chance(R, 0.8) } },
      } }
    ok, shapes = call(S, "level.tiled", "field", "tiled", level, w, map, options)
  end
  if ok and type(shapes) == "table" then
    for i = 1, math.min(#shapes, 3) do
      addShape(S, R, shapes[i])
    end
  end
end

local function worldOp(S, R, w, depth)
  local k = int(R, 1, 28)
  local s
  if k == 5 or k == 6 or k == 17 or k == 18 or k >= 24 then
    s = memberOf(S, R, w)
  else
    s = someShape(S, R)
  end
  if s == nil then
    return
  end
  local x, y = s:position()
  if k <= 4 then
    method(S, w, "add", s, chance(R, 0.25) and "static" or (chance(R, 0.05) and "bogus" or nil))
  elseif k <= 6 then
    method(S, w, "remove", s)
  elseif k == 7 then
    method(S, w, "has", s)
    method(S, w, "isStatic", s)
    method(S, w, "count")
    method(S, w, "shapes", reuse(S, R, 2))
  elseif k == 8 then
    method(S, w, "queryPoint", maybe(R, S, x + rnd(R) - 0.5), maybe(R, S, y), queryArgs(S, R, 3))
  elseif k == 9 then
    method(S, w, "queryRect", maybe(R, S, x - 2), maybe(R, S, y - 2), maybe(R, S, rnd(R) * 6),
      maybe(R, S, rnd(R) * 6), queryArgs(S, R, 4))
  elseif k == 10 then
    method(S, w, "querySegment", maybe(R, S, x - 10), maybe(R, S, y - 3), maybe(R, S, x + 10),
      maybe(R, S, y + 3), queryArgs(S, R, 5))
  elseif k == 11 then
    method(S, w, "queryShape", s, queryArgs(S, R, 6))
  elseif k == 12 then
    method(S, w, "neighbors", s, queryArgs(S, R, 7))
  elseif k == 13 then
    method(S, w, "collisions", s, reuse(S, R, 8))
  elseif k <= 16 and depth == 0 then
    method(S, w, "step")
  elseif k == 17 then
    local f = chance(R, 0.8) and moveFilter(S) or nil
    method(S, w, "move", s, maybe(R, S, (rnd(R) - 0.5) * 12), maybe(R, S, (rnd(R) - 0.5) * 12), f,
      reuse(S, R, 9))
  elseif k == 18 then
    method(S, w, "move", s, (rnd(R) - 0.5) * 12, (rnd(R) - 0.5) * 12)
  elseif k == 19 and depth == 0 then
    local ev = pickOf(R, { "enter", "stay", "exit", "bogus" })
    method(S, w, "on", ev, chance(R, 0.85) and handler(S, "world " .. ev) or nil)
  elseif k == 20 and depth == 0 then
    method(S, w, "setFilter", chance(R, 0.6) and worldFilter(S) or nil)
  elseif k == 21 and depth == 0 then
    local field = pickOf(R, { "onEnter", "onStay", "onExit" })
    local r = pack(pcall(setField, s, field, chance(R, 0.8) and handler(S, "own " .. field) or nil))
    out(S, "set " .. field .. " " .. tostring(r[1]))
  elseif k == 23 and depth == 0 and chance(R, 0.3) then
    levelOp(S, R, w)
  elseif k == 24 or k == 25 then -- a dry run, then a cast (any shape, in the world or not)
    local dx, dy = maybe(R, S, (rnd(R) - 0.5) * 12), (rnd(R) - 0.5) * 12
    method(S, w, "check", s, dx, dy, chance(R, 0.5) and moveFilter(S) or nil, reuse(S, R, 11))
    if chance(R, 0.3) then
      s = someShape(S, R)
    end
    method(S, w, "queryCast", s, dx, dy, queryArgs(S, R, 10))
  elseif k == 26 then -- a one-way shape (or not, or a wrong field), then a move that may meet it
    local sat = S.sat
    local v = pickOf(R, { sat.vec(0, 1), sat.vec(0, -1), sat.vec(1, 0),
      sat.vec(rnd(R) - 0.5, rnd(R) - 0.5), false, 3 })
    local r = pack(pcall(setField, s, "oneway", v))
    out(S, "set oneway " .. tostring(r[1]))
    local m = memberOf(S, R, w)
    method(S, w, "move", m, (rnd(R) - 0.5) * 12, (rnd(R) - 0.5) * 12,
      chance(R, 0.3) and moveFilter(S) or nil)
  elseif k == 27 then -- a response of the game's own
    local name = pickOf(R, { "stick", "half", "stick", "half", "bounce", "slide", 7 })
    method(S, w, "addResponse", name, chance(R, 0.9) and responseFn(S, tostring(name)) or "notfn")
  elseif k == 28 then -- a platform's push, or a mover's move and check
    local sat = S.sat
    local dx, dy = (rnd(R) - 0.5) * 12, (rnd(R) - 0.5) * 12
    local opts
    if chance(R, 0.8) then
      opts = {
        up = pickOf(R, { sat.vec(0, -1), sat.vec(0, 1), sat.vec(1, 0), false, "bogus" }),
        maxSlope = pickOf(R, { false, 0.3, 0.9, 1.5, 5 }) or nil,
        snap = pickOf(R, { false, 0, 1, 4, -1 }) or nil,
      }
      if opts.up == "bogus" and chance(R, 0.7) then
        opts.up = nil
      end
    end
    if chance(R, 0.5) then
      if opts then
        opts.filter = chance(R, 0.4) and moveFilter(S) or nil
        opts.carried = reuse(S, R, 12)
      end
      method(S, w, "push", s, dx, dy, opts)
    else
      local movers, m = S.movers, nil
      if #movers == 0 or chance(R, 0.3) then
        local ok, made = method(S, w, "mover", s, opts)
        if ok then
          movers[#movers < 4 and #movers + 1 or int(R, 1, 4)] = made
          m = made
        end
      else
        m = movers[int(R, 1, #movers)]
      end
      if m then
        dy = dy + (m.up and m.up.y and -3 * m.up.y or 0) -- (mostly toward the ground)
        method(S, m, "move", dx, dy, chance(R, 0.3) and moveFilter(S) or nil)
        out(S, "mover " .. ser(S, m.grounded) .. " " .. ser(S, m.ground) .. " " .. ser(S, m.normal))
        method(S, m, "check", dx, dy)
      end
    end
  elseif k == 23 and w.digest ~= nil then -- (determinism API, once in)
    method(S, w, "digest")
  elseif k == 22 then
    method(S, w, "cellSize")
    method(S, w, "levels")
    method(S, w, "cells")
    out(S, "world tostring " .. tostring(w))
  else
    method(S, w, "step")
  end
end

-- What a handler or a filter does from inside the world: the same operations, no new
-- handlers; a step from a step is refused with its documented error (recorded like any).
function actInWorld(S, R)
  local w = someWorld(S, R)
  if w == nil then
    return
  end
  local k = int(R, 1, 10)
  if k == 1 then
    error("handler raised " .. int(R, 1, 9), 0)
  elseif k == 2 then
    method(S, w, "step")
  elseif k == 3 then
    local s = someShape(S, R)
    if s then
      method(S, s, "move", (rnd(R) - 0.5) * 6, (rnd(R) - 0.5) * 6)
    end
  else
    worldOp(S, R, w, 1)
  end
end

local function newWorld(S, R)
  local cell = pickOf(R, { 4, 8, 16, 64, 2.5, 1e-3, 1e6 })
  local ok, w
  if chance(R, 0.1) then
    ok, w = modfn(S, "world", anyNumber(R, S))
  elseif chance(R, 0.1) then
    ok, w = modfn(S, "world")
  else
    ok, w = modfn(S, "world", cell)
  end
  if ok then
    if #S.worlds < 2 then
      S.worlds[#S.worlds + 1] = w
    else
      S.worlds[int(R, 1, 2)] = w
    end
  end
end

------------------------------------------------------------------------------------------
-- one operation, run on a side

local function operation(S, R)
  local k = int(R, 1, 100)
  if k <= 14 or #S.shapes < 4 then
    local bx = base(R)
    local x, y = bx + (rnd(R) - 0.5) * 20, (chance(R, 0.5) and bx or 0) + (rnd(R) - 0.5) * 20
    if chance(R, 0.5) and #S.shapes > 0 then -- near a shape of the pool
      local near = S.shapes[int(R, 1, #S.shapes)]
      local ok, px, py = pcall(near.position, near)
      if ok then
        x, y = px + (rnd(R) - 0.5) * 4, py + (rnd(R) - 0.5) * 4
      end
    end
    makeShape(S, R, x, y, size(R))
  elseif k <= 34 then
    shapeMethod(S, R)
  elseif k <= 54 then
    pairOp(S, R)
  elseif k <= 59 then
    vecOp(S, R)
  elseif k <= 63 then
    fieldOp(S, R)
  elseif k <= 66 then
    local s = someShape(S, R)
    if s then
      inspect(S, s)
    end
  elseif WORLD then
    if #S.worlds == 0 or chance(R, 0.02) then
      newWorld(S, R)
    end
    local w = someWorld(S, R)
    if w then
      worldOp(S, R, w, 0)
    end
  end
end

------------------------------------------------------------------------------------------
-- the run

local trail, trailN = {}, 0
local function note(s)
  trailN = trailN + 1
  trail[(trailN - 1) % 12 + 1] = s
end

local opNumber = 0
local function mismatch(i, a, b)
  io.stderr:write(("differential: MISMATCH (seed %d, operation %d, record line %d)\n"):format(
    seed, opNumber, i))
  io.stderr:write("  native: " .. tostring(a) .. "\n")
  io.stderr:write("  pure:   " .. tostring(b) .. "\n")
  io.stderr:write("the operation, native side, whole:\n")
  for k = 1, #sides[1].out do
    io.stderr:write("  " .. sides[1].out[k] .. "\n")
  end
  io.stderr:write("pure side:\n")
  for k = 1, #sides[2].out do
    io.stderr:write("  " .. sides[2].out[k] .. "\n")
  end
  io.stderr:write("previous operations' first lines (oldest first):\n")
  for k = math.max(1, trailN - 11), trailN do
    io.stderr:write("  " .. trail[(k - 1) % 12 + 1] .. "\n")
  end
  io.stderr:write(("replay: %s spec/fuzz/differential.lua %d %d\n"):format(
    (arg and arg[-1]) or "lua", seed, opNumber))
  os.exit(1)
end

local compared = 0
local clock = os.clock
local started = clock()
local N, P = sides[1], sides[2]

while opNumber < maxOps do
  if seconds and clock() - started > seconds then
    break
  end
  opNumber = opNumber + 1
  local R1, R2 = newRng(master), newRng(master)
  N.R, P.R = R1, R2
  local ok1, e1 = pcall(operation, N, R1)
  local ok2, e2 = pcall(operation, P, R2)
  if os.getenv("DIFF_DEBUG") and not ok1 then print(e1) end
  if not ok1 or not ok2 then
    out(N, "operation " .. tostring(ok1) .. " " .. (ok1 and "" or errText(e1)))
    out(P, "operation " .. tostring(ok2) .. " " .. (ok2 and "" or errText(e2)))
  end
  local n = math.max(#N.out, #P.out)
  for i = 1, n do
    if N.out[i] ~= P.out[i] then
      mismatch(i, N.out[i], P.out[i])
    end
  end
  if R1.draws ~= R2.draws then
    mismatch(n + 1, "draws " .. R1.draws, "draws " .. R2.draws)
  end
  compared = compared + n
  note(N.out[1] or "(nothing)")
  for i = #N.out, 1, -1 do
    N.out[i] = nil
  end
  for i = #P.out, 1, -1 do
    P.out[i] = nil
  end
  master = floor(rnd(newRng(master)) * 2147483645) + 1
end

local why = ""
if not COMPOUND then
  why = pcall(require, "sat.pure.sat_compound") and " (no compounds: DIFF_COMPOUND=0)"
    or " (no compounds: the pure backend has none yet)"
end
print(("differential: seed %d, %d operations, %d calls compared, 0 mismatches%s"):format(
  seed, opNumber, compared, why))
if STATS then
  local labels = {}
  for k in pairs(STATS) do
    labels[#labels + 1] = k
  end
  sort(labels)
  for _, k in ipairs(labels) do
    print(("%8d  %s"):format(STATS[k], k))
  end
end
