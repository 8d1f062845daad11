--- sat.world_state: world:digest, world:snapshot and world:restore, for lockstep games,
-- replays and rollback (docs/determinism.md).
--
-- What decides a world's future is what the core holds of each shape (its transform bit for
-- bit: the double-double position, the angle, the scale, the radius; its filter bits), the
-- membership and its order (the insertion numbers, "tokens"), the static flags, and the
-- pairs told (entered, not yet exited). The digest hashes exactly that; a snapshot copies it
-- and restore puts it back. The contacts the hash holds are not copied: restore leaves the
-- world as a step whose delta was lost does (world_events.lua, resync), and the next step
-- rebuilds them from the shapes, which gives the same events as the first time (the pairs
-- told get their stay or their exit, the others their enter, in pair order).
--
-- Written on the core interface (core.transformBits, core.setTransformBits), so that both
-- backends give the same digest: the numbers are cut into their IEEE-754 bits by exact
-- arithmetic (no string formatting, no math.frexp, no bit library), in every Lua.
-- Part of sat.world (lua/sat/world.lua); requires none of the world's other files but
-- world_check and world_events.
local core = require("sat.backend").core -- (the chosen backend's core)
local check = require("sat.world_check")
local events = require("sat.world_events")

local floor, log, format = math.floor, math.log, string.format
local next, error, setmetatable, type = next, error, setmetatable, type
local transformBits, setTransformBits = core.transformBits, core.setTransformBits
local worlds, badSelf, argError = check.worlds, check.badSelf, check.argError
local checkOptTable, describe = check.checkOptTable, check.describe
local link, stepOnStack = events.link, events.stepOnStack

local M = {}

------------------------------------------------------------------------------------------
-- numbers to bits

-- P2[e] == 2^e, e from -1074 to 1023, each made by exact doubling or halving.
local P2 = {}
do
  local p = 1.0
  for e = 0, 1023 do
    P2[e] = p
    p = p * 2
  end
  p = 1.0
  for e = -1, -1074, -1 do
    p = p / 2
    P2[e] = p
  end
end
local LN2 = log(2)
local TWO32, TWO52, TWO31, TWO20 = 4294967296, 4503599627370496, 2147483648, 1048576

-- The IEEE-754 bits of the finite double d as two 32-bit numbers (high word, low word).
-- The logarithm only guesses the exponent; exact comparisons with powers of two settle it,
-- and the mantissa comes out by division by a power of two and subtraction, both exact.
local function bits(d)
  local sign = 0
  if d < 0 or (d == 0 and 1 / d < 0) then
    sign, d = TWO31, -d
  end
  if d == 0 then
    return sign, 0
  elseif d == 1 then
    return sign + 1072693248, 0
  end
  local e = floor(log(d) / LN2)
  if e > 1023 then
    e = 1023
  elseif e < -1074 then
    e = -1074
  end
  while P2[e] > d do
    e = e - 1
  end
  while e < 1023 and P2[e + 1] <= d do
    e = e + 1
  end
  local f, field
  if e < -1022 then -- subnormal: d == f * 2^-1074
    f, field = d / P2[-1074], 0
  else
    f, field = (d / P2[e] - 1) * TWO52, e + 1023
  end
  local hi = floor(f / TWO32)
  return sign + field * TWO20 + hi, f - hi * TWO32
end
M.bits = bits

------------------------------------------------------------------------------------------
-- the hash: two lanes of h = (h * K + x) mod P over pieces x < 2^32, all exact in doubles
-- (h * K + x < 2^53) and in 5.3's integers alike. A number's high word (sign, exponent, top
-- of the mantissa) goes to the first lane, its low word to the second: every bit reaches the
-- digest, at one step a lane per number.

local P1, K1 = 2147483647, 4194301
local P2H, K2 = 2147483629, 3141601

local KIND = { polygon = 1, circle = 2, segment = 3, capsule = 4, compound = 5 }

-- The identity of a shape's geometry (which never changes but for the radius, which the
-- transform has): a hash (one lane) of its kind and its points about its position, as first
-- seen by a digest, kept for as long as the shape lives.
local geometry = setmetatable({}, { __mode = "k" })

-- (x, y: where the points are taken from, the shape's or its compound's position)
local function geometryHash(shape, x, y, h1, h2)
  local kind = shape:kind()
  h1, h2 = (h1 * K1 + KIND[kind]) % P1, (h2 * K2 + KIND[kind]) % P2H
  local pts
  if kind == "compound" then
    local parts = shape:parts()
    for i = 1, #parts do
      h1, h2 = geometryHash(parts[i], x, y, h1, h2)
    end
    return h1, h2
  elseif kind == "polygon" then
    pts = shape:vertices()
  elseif kind == "segment" or kind == "capsule" then
    pts = { shape:endpoints() }
  else
    local px, py = shape:position()
    pts = { px, py }
  end
  for i = 1, #pts do
    local a, b = bits(pts[i] - ((i % 2 == 1) and x or y))
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
  end
  return h1, h2
end

local function geometryOf(shape)
  local g = geometry[shape]
  if g == nil then
    local x, y = shape:position()
    g = geometryHash(shape, x, y, 0, 0)
    geometry[shape] = g
  end
  return g
end

--- world:digest() -> string: 16 hex digits, a hash of everything that decides the world's
-- future: every shape in insertion order with its insertion number, kind and geometry,
-- static flag, filter bits and exact transform; the next insertion number; the pairs told.
-- Equal worlds (same calls in the same order, on any platform and either backend) give
-- equal digests; the game's own fields, handlers and setFilter function are not in it.
function M.digest(self)
  if not worlds[self] then badSelf("digest", self) end
  local hash, token = self.hash, self.token
  local list = self.scratch.digest
  if not list then
    list = {}
    self.scratch.digest = list
  end
  list = hash:shapes(list)
  local h1, h2 = 17, 31
  local n = #list
  for i = 1, n do
    local s = list[i]
    list[i] = false -- (the scratch keeps no shape alive)
    local x, y, xl, yl, angle, scale, radius, category, mask = transformBits(s)
    -- (the insertion number and the category to one lane, the geometry, the static flag
    -- and the mask to the other)
    h1, h2 = (h1 * K1 + token[s]) % P1,
      (h2 * K2 + geometryOf(s) * 2 + (hash:isStatic(s) and 1 or 0)) % P2H
    h1, h2 = (h1 * K1 + category) % P1, (h2 * K2 + mask) % P2H
    local a, b = bits(x)
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
    a, b = bits(y)
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
    a, b = bits(xl)
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
    a, b = bits(yl)
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
    a, b = bits(angle)
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
    a, b = bits(scale)
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
    a, b = bits(radius)
    h1, h2 = (h1 * K1 + a) % P1, (h2 * K2 + b) % P2H
  end
  for i = n, 1, -1 do
    list[i] = nil
  end
  local nt = self.nextToken
  h1, h2 = (h1 * K1 + nt) % P1, (h2 * K2 + nt) % P2H
  local recs = self.list
  for i = 1, #recs do
    local rec = recs[i]
    if rec.told then
      h1, h2 = (h1 * K1 + rec.ta) % P1, (h2 * K2 + rec.ta) % P2H
      h1, h2 = (h1 * K1 + rec.tb) % P1, (h2 * K2 + rec.tb) % P2H
    end
  end
  return format("%08x%08x", h1, h2)
end

------------------------------------------------------------------------------------------
-- snapshots

local FIELDS = 9 -- transformBits' results per shape

-- Empties t[from..to].
local function clip(t, from, to)
  for i = to, from, -1 do
    t[i] = nil
  end
end

--- world:snapshot([t]) -> snap: the world's state (digest's list) copied into t (a table a
-- previous snapshot of this world filled is reused, its lists overwritten: no garbage) or a
-- new table. Not in it: the game's own fields of the shapes, the handlers, the setFilter
-- function, the shapes' geometry (never changes) and radius changes of shapes no longer
-- in the world... which restore does not touch either.
function M.snapshot(self, snap)
  if not worlds[self] then badSelf("snapshot", self) end
  checkOptTable("snapshot", 1, snap)
  if snap == nil then
    snap = {}
  end
  if snap.shapes == nil then
    snap.shapes, snap.tokens, snap.static, snap.bits, snap.told = {}, {}, {}, {}, {}
    snap.n, snap.ntold = 0, 0
  end
  local shapes, tokens, static, data = snap.shapes, snap.tokens, snap.static, snap.bits
  local hash, token = self.hash, self.token
  local old = snap.n
  hash:shapes(shapes)
  local n = #shapes
  for i = 1, n do
    local s = shapes[i]
    tokens[i] = token[s]
    static[i] = hash:isStatic(s)
    local o = (i - 1) * FIELDS
    data[o + 1], data[o + 2], data[o + 3], data[o + 4], data[o + 5], data[o + 6], data[o + 7],
      data[o + 8], data[o + 9] = transformBits(s)
  end
  if old > n then
    clip(tokens, n + 1, old)
    clip(static, n + 1, old)
    clip(data, n * FIELDS + 1, old * FIELDS)
  end
  local told, k = snap.told, 0
  local recs = self.list
  for i = 1, #recs do
    local rec = recs[i]
    -- (a pair told from an earlier membership of one of its shapes, its exit put off by an
    -- error in a handler, is left out: restore cannot give it back its old tokens)
    if rec.told and token[rec.a] == rec.ta and token[rec.b] == rec.tb then
      told[k + 1], told[k + 2] = rec.a, rec.b
      k = k + 2
    end
  end
  clip(told, k + 1, snap.ntold * 2)
  snap.n, snap.ntold, snap.world, snap.nextToken = n, k / 2, self, self.nextToken
  return snap
end

-- Whether the two doubles differ in their bits (a -0 differs from a 0).
local function differ(a, b)
  return a ~= b or (a == 0 and 1 / a ~= 1 / b)
end

-- Empties t, with next (the world walks no table with pairs: world_events.lua, clearTable).
local function clearTable(t)
  local k = next(t)
  while k ~= nil do
    local after = next(t, k)
    t[k] = nil
    k = after
  end
end

--- world:restore(snap) -> world: puts back what snapshot(snap) took: the membership in its
-- order (the shapes added since leave, those removed come back, with their insertion
-- numbers and static flags), every shape's exact transform and filter bits, and the pairs
-- told. Fires no event; the next step fires what the first one after the snapshot fired,
-- given the same calls. Not from inside a step of this world.
function M.restore(self, snap)
  if not worlds[self] then badSelf("restore", self) end
  if type(snap) ~= "table" or snap.world == nil or snap.shapes == nil then
    argError(2, "restore", 1, "snapshot expected, got " .. describe(snap))
  end
  if snap.world ~= self then
    argError(2, "restore", 1, "snapshot of another world")
  end
  if stepOnStack(self) then
    error("restore: cannot restore the world from inside its step (a handler or the " ..
      "setFilter function)", 2)
  end
  local hash, token = self.hash, self.token
  local shapes, tokens, static, data = snap.shapes, snap.tokens, snap.static, snap.bits
  local n = snap.n
  local scratch = self.scratch
  local cur = scratch.restore
  if not cur then
    cur = {}
    scratch.restore = cur
  end
  cur = hash:shapes(cur)
  local m = #cur
  -- the longest prefix of the membership that is the snapshot's stays; the rest is undone
  -- and redone in order, so that the hash's order (its insertion numbers) follows the tokens
  local k = 1
  while k <= m and k <= n and cur[k] == shapes[k] and token[cur[k]] == tokens[k] and
    hash:isStatic(cur[k]) == static[k] do
    k = k + 1
  end
  local dropped = scratch.dropped
  for i = m, k, -1 do
    local s = cur[i]
    local nd = hash:remove(s, dropped)
    clip(dropped, 1, nd)
    token[s] = nil
  end
  clip(cur, 1, m)
  for i = k, n do
    local s = shapes[i]
    token[s] = tokens[i]
    hash:add(s, static[i])
  end
  for i = 1, n do
    local s = shapes[i]
    local o = (i - 1) * FIELDS
    local x, y, xl, yl, angle, scale, radius, category, mask = transformBits(s)
    if differ(x, data[o + 1]) or differ(y, data[o + 2]) or differ(xl, data[o + 3]) or
      differ(yl, data[o + 4]) or differ(angle, data[o + 5]) or differ(scale, data[o + 6]) or
      differ(radius, data[o + 7]) then
      setTransformBits(s, data[o + 1], data[o + 2], data[o + 3], data[o + 4], data[o + 5],
        data[o + 6], data[o + 7])
    end
    if category ~= data[o + 8] then
      s.category = data[o + 8]
    end
    if mask ~= data[o + 9] then
      s.mask = data[o + 9]
    end
  end
  -- the pairs told, as records no longer alive: the next step resyncs (world_events.lua)
  clearTable(self.byId)
  clearTable(self.contacts)
  local list, told = {}, snap.told
  for j = 1, snap.ntold do
    local a, b = told[2 * j - 1], told[2 * j]
    local rec = { a = a, b = b, ta = token[a], tb = token[b], id = false, alive = false,
                  told = false, rA = false, rB = false, freshA = true, freshB = true }
    link(self.contacts, rec)
    list[j] = rec
  end
  self.list = list
  self.lost = true
  self.nextToken = snap.nextToken
  self.changes = self.changes + 1
  return self
end

return M
