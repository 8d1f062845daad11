-- The pure backend's spatial hash (lua/sat/pure/sat_hash*.lua, lsat_hash.lua) against the
-- native one (src/core/sat_hash*.c, src/lua/lsat_hash.c), bit for bit: random scripts of
-- operations (adding and removing shapes, static or not; moving, turning and scaling them;
-- their radii, categories and masks; every query, the collisions, the sweep, the step, the
-- contacts and their results, cells and levels; argument errors) run on a native hash
-- (require("sat.core").newHash) and a pure one (require("sat.pure.lsat_module").newHash)
-- side by side, with shapes each backend makes from the same numbers. Every value every call
-- returns is compared: numbers bit for bit (the sign of zero, and integer or float from 5.3
-- on), shapes by which of the pair they are, lists in their order, error messages word for
-- word. A mismatch fails with the script's seed, the operation and what differed.
--
-- PURE_HASH_SCALE multiplies the operations (the default keeps the spec to seconds a Lua; a
-- long run: PURE_HASH_SCALE=20); PURE_HASH_VERBOSE=1 prints the counts (to stderr).
local support = require("spec.support")

local nativeFound, native = pcall(require, "sat.core")
local pure = require("sat.pure.lsat_module")

local SCALE = tonumber(os.getenv("PURE_HASH_SCALE") or "") or 1
local VERBOSE = os.getenv("PURE_HASH_VERBOSE") == "1"
local hasCompounds = support.missing("compound", true) == nil

local mathType = math.type
local format = string.format
local unpack = rawget(_G, "unpack") or table.unpack

local function pack(...)
  return { n = select("#", ...), ... }
end

-- ---- values as exact tokens ------------------------------------------------------------------

-- A number as a string that tells every double apart (%.17g round-trips; -0 prints "-0"),
-- with its subtype from 5.3 on.
local function num(x)
  local t = mathType and (mathType(x) == "integer" and "i" or "f") or ""
  if x ~= x then
    return t .. "nan"
  end
  return t .. format("%.17g", x)
end

-- Writes the tokens of v into out: numbers exactly, shapes by their number in the script, vecs
-- by their two numbers, tables by the fields listed (or their array part), in order.
local FIELDS = {
  hits = { "shape", "t", "x", "y", "nx", "ny", "part" },
  responses = { "a", "b", "overlap", "normal", "mtv", "aInB", "bInA", "part", "ownPart" },
}

local function tokens(side, v, out, kind)
  local tv = type(v)
  if tv == "number" then
    out[#out + 1] = num(v)
  elseif side.id[v] ~= nil then
    out[#out + 1] = "S" .. side.id[v]
  elseif tv == "table" or tv == "userdata" then
    local ok, x = pcall(function() return v.x end)
    if ok and type(x) == "number" and kind == nil then -- a vec
      out[#out + 1] = "vec(" .. num(v.x) .. "," .. num(v.y) .. ")"
    elseif kind ~= nil then -- a list of hits or responses
      out[#out + 1] = "["
      for i = 1, math.huge do
        local e = rawget(v, i)
        if e == nil then
          break
        end
        out[#out + 1] = "{" .. tostring(getmetatable(e))
        for _, f in ipairs(FIELDS[kind]) do
          out[#out + 1] = f .. "="
          tokens(side, rawget(e, f), out)
        end
        out[#out + 1] = "}"
      end
      out[#out + 1] = "]"
    else
      out[#out + 1] = "["
      local n = 0
      for i = 1, math.huge do
        local e = rawget(v, i)
        if e == nil then
          break
        end
        n = i
        tokens(side, e, out)
      end
      out[#out + 1] = "]" .. n
    end
  else
    out[#out + 1] = tostring(v)
  end
end

-- ---- a pair of hashes and their shapes --------------------------------------------------------

local function newSide(core)
  return { core = core, id = {}, shapes = {} }
end

-- The same call on both sides: f(side, ...) -> values, compared token by token.
local Script = {}
Script.__index = Script

local function script(seed, cell)
  local self = setmetatable({ seed = seed, op = 0, what = "", calls = 0, values = 0 }, Script)
  self.n, self.p = newSide(native), newSide(pure)
  self.rng = support.rng(seed)
  self.cell = cell
  return self
end

function Script:fail(msg)
  error(format("seed %d, operation %d (%s): %s", self.seed, self.op, self.what, msg), 0)
end

-- Runs f on each side (in protected mode), then compares what each returned (or raised).
function Script:both(what, f, kind)
  self.what = what
  local function run(side)
    local res = pack(pcall(f, side))
    local out = {}
    if not res[1] then
      out[1] = "error: " .. tostring(res[2])
      return out, res
    end
    out[1] = "#" .. (res.n - 1)
    for i = 2, res.n do
      tokens(side, res[i], out, kind and i == 2 and kind or nil)
    end
    return out, res
  end
  local tn, rn = run(self.n)
  local tp, rp = run(self.p)
  self.calls = self.calls + 1
  self.values = self.values + #tn
  for i = 1, math.max(#tn, #tp) do
    if tn[i] ~= tp[i] then
      local lo = math.max(1, i - 6)
      self:fail(format("token %d: native %s, pure %s\n  native: %s\n  pure:   %s", i,
        tostring(tn[i]), tostring(tp[i]), table.concat(tn, " ", lo, math.min(#tn, i + 6)),
        table.concat(tp, " ", lo, math.min(#tp, i + 6))))
    end
  end
  return rn, rp
end

-- A shape made by both backends: build(core) -> shape, from the same numbers.
function Script:makeWith(build)
  local k = #self.n.shapes + 1
  for _, side in ipairs({ self.n, self.p }) do
    local s = build(side.core)
    side.shapes[k] = s
    side.id[s] = k
  end
  return k
end

-- The same from a constructor's name and arguments.
function Script:make(kind, ...)
  local args = pack(...)
  return self:makeWith(function(core) return core[kind](unpack(args, 1, args.n)) end)
end

-- ---- the shapes of a script ------------------------------------------------------------------

-- A random convex polygon: points on an ellipse, in order.
local function convex(rng, cx, cy, r)
  local n = rng.int(3, 9)
  local pts, a = {}, rng.range(0, 6.28)
  local ry = r * rng.range(0.3, 1)
  for _ = 1, n do
    a = a + 6.28 / n * rng.range(0.5, 1)
    pts[#pts + 1] = cx + r * math.cos(a)
    pts[#pts + 1] = cy + ry * math.sin(a)
  end
  return pts
end

-- Where and how big: mostly a crowd near the origin (many contacts), some big shapes (higher
-- levels), tiny ones, and some far from the origin (coarser levels, rows of far cells).
local function placement(rng, cell)
  local r = rng.next()
  local cx, cy, size
  if r < 0.7 then
    cx, cy, size = rng.range(-8, 8) * cell, rng.range(-8, 8) * cell, rng.range(0.1, 2) * cell
  elseif r < 0.8 then
    cx, cy, size = rng.range(-20, 20) * cell, rng.range(-20, 20) * cell, rng.range(5, 60) * cell
  elseif r < 0.9 then
    cx, cy, size = rng.range(-4, 4) * cell, rng.range(-4, 4) * cell, rng.range(1e-4, 1e-2) * cell
  else
    local far = 10 ^ rng.int(6, 12)
    cx, cy = far + rng.range(-3, 3) * cell, rng.range(-1, 1) * far
    size = rng.range(0.5, 3) * cell
  end
  return cx, cy, size
end

function Script:randomShape()
  local rng = self.rng
  local cx, cy, size = placement(rng, self.cell)
  local kind = rng.int(1, hasCompounds and 8 or 7)
  local k
  if kind == 1 then
    k = self:make("box", cx - size / 2, cy - size / 3, size, size * rng.range(0.2, 1.5))
  elseif kind == 2 then
    k = self:make("circle", cx, cy, size / 2)
  elseif kind == 3 then
    k = self:make("point", cx, cy)
  elseif kind == 4 then
    local a = rng.range(0, 6.3)
    k = self:make("segment", cx, cy, cx + size * math.cos(a), cy + size * math.sin(a))
  elseif kind == 5 then
    local a = rng.range(0, 6.3)
    k = self:make("capsule", cx, cy, cx + size * math.cos(a), cy + size * math.sin(a),
      size * rng.range(0.05, 0.4))
  elseif kind == 8 then
    local r2 = size / 3
    k = self:makeWith(function(core)
      return core.compound({ core.circle(cx, cy, r2), core.box(cx, cy - r2, size, r2 * 2),
        core.segment(cx - size, cy, cx, cy + size) })
    end)
  else
    k = self:make("polygon", convex(rng, cx, cy, size / 2))
  end
  -- categories and masks, now and then (the filters of collisions, sweep and step)
  if rng.next() < 0.15 then
    local cat, mask = 2 ^ rng.int(0, 3), rng.next() < 0.5 and 4294967295 or rng.int(0, 15)
    for _, side in ipairs({ self.n, self.p }) do
      side.shapes[k].category = cat
      side.shapes[k].mask = mask
    end
  end
  return k
end

-- ---- the operations --------------------------------------------------------------------------

-- A pair's shapes in a call: f(side, shapeOfSide).
local function on(k, f)
  return function(side) return f(side, side.shapes[k]) end
end

function Script:pick()
  return self.rng.int(1, #self.n.shapes)
end

-- A point near the shapes (or one of their positions).
function Script:point()
  local rng = self.rng
  if rng.next() < 0.3 then
    local x, y = self.n.shapes[self:pick()]:position()
    return x, y
  end
  local cx, cy = placement(rng, self.cell)
  return cx, cy
end

local function step(side)
  local buf = side.buf or {}
  side.buf = buf
  local ne, na, nu = side.hash:step(buf)
  -- the ids are compared as numbers, the shapes by which they are
  return ne, na, nu, buf
end

function Script:transform(k)
  local rng = self.rng
  local r = rng.int(1, 9)
  local cell = self.cell
  if r == 1 then
    local x, y = self:point()
    self:both("moveTo", on(k, function(_, s) return s:moveTo(x, y) end))
  elseif r <= 3 then
    local dx, dy = rng.range(-1, 1) * cell, rng.range(-1, 1) * cell
    if rng.next() < 0.2 then
      dx, dy = dx * 20, dy * 20
    end
    self:both("move", on(k, function(_, s) return s:move(dx, dy) end))
  elseif r == 4 then
    local a = rng.range(-3, 3)
    self:both("rotate", on(k, function(_, s) return s:rotate(a) end))
  elseif r == 5 then
    local a, x, y = rng.range(-7, 7), self:point()
    self:both("setRotation about", on(k, function(_, s) return s:setRotation(a, x, y) end))
  elseif r == 6 then
    local f = rng.range(0.6, 1.6)
    self:both("scale", on(k, function(_, s) return s:scale(f) end))
  elseif r == 7 then
    local kind = self.n.shapes[k]:kind()
    if kind == "circle" or kind == "capsule" then
      local radius = rng.range(0, 1.5) * cell
      self:both("setRadius", on(k, function(_, s) return s:setRadius(radius) end))
    end
  elseif r == 8 then
    local cat = 2 ^ rng.int(0, 3)
    self:both("category", on(k, function(_, s) s.category = cat return s.category end))
  else
    local mask = rng.next() < 0.5 and 4294967295 or rng.int(0, 15)
    self:both("mask", on(k, function(_, s) s.mask = mask return s.mask end))
  end
end

function Script:query()
  local rng = self.rng
  local r = rng.int(1, 16)
  local cell = self.cell
  if r == 1 then
    local x, y = self:point()
    self:both("queryPoint", function(side) return side.hash:queryPoint(x, y, side.list) end)
  elseif r == 2 then
    local x, y = self:point()
    local w, h = rng.range(0, 6) * cell, rng.range(0, 6) * cell
    local q = rng.int(1, 6)
    if q == 1 then
      w = 0
    elseif q == 2 then
      h = 0
    elseif q == 3 then
      w, h = 0, 0
    elseif q == 4 then
      h = w * 1e-12 -- too thin to be a polygon
    elseif q == 5 then
      w, h = w * 40, h * 40
    end
    if rng.next() < 0.05 then -- far beyond every cell: the ranges are clamped
      x, y, w, h = -(10 ^ rng.int(15, 140)), -(10 ^ rng.int(15, 140)), 10 ^ rng.int(15, 140),
        10 ^ rng.int(15, 140)
    end
    self:both("queryRect", function(side) return side.hash:queryRect(x, y, w, h, side.list) end)
  elseif r <= 4 then
    local x1, y1 = self:point()
    local x2, y2 = self:point()
    local q = rng.int(1, 6)
    if q == 1 then
      x2 = x1
    elseif q == 2 then
      y2 = y1
    elseif q == 3 then
      x2, y2 = x1, y1
    elseif q == 4 and rng.next() < 0.3 then -- far beyond every cell
      x1, y2 = -(10 ^ rng.int(15, 140)), 10 ^ rng.int(15, 140)
    end
    self:both("querySegment", function(side)
      return side.hash:querySegment(x1, y1, x2, y2, side.hits)
    end, "hits")
  elseif r == 5 then
    local k = self:pick()
    self:both("queryShape", on(k, function(side, s) return side.hash:queryShape(s, side.list) end))
  elseif r == 6 then
    local k = self:pick()
    self:both("neighbors", on(k, function(side, s) return side.hash:neighbors(s, side.list) end))
  elseif r <= 8 then
    local k, filter = self:pick(), rng.next() < 0.5
    self:both("collisions", on(k, function(side, s)
      return side.hash:collisions(s, filter, side.cols)
    end), "responses")
  elseif r <= 10 then
    local k = self:pick()
    local dx, dy = rng.range(-3, 3) * cell, rng.range(-3, 3) * cell
    if rng.next() < 0.1 then
      dx = 0
    end
    -- for world:move (14 slots a hit: the parts, and for a query the contact point), or as
    -- world:queryCast asks (every shape, the points)
    local query = rng.next() < 0.4
    self:both("sweep", on(k, function(side, s)
      local n = side.hash:sweep(s, dx, dy, side.sweep, nil, query)
      local out = {}
      for i = 1, n * 14 do
        out[i] = side.sweep[i]
      end
      return n, out
    end))
  elseif r <= 12 then
    self:both("step", step)
    -- each contact's result, from a and from b
    local ids = {}
    for i = 1, #self.n.buf do
      if type(self.n.buf[i]) == "number" then
        ids[#ids + 1] = self.n.buf[i]
      end
    end
    for _, id in ipairs(ids) do
      local flip = rng.next() < 0.5
      self:both("fill", function(side)
        local r0 = side.resp or {}
        side.resp = r0
        local r1 = side.hash:fill(r0, id, flip)
        return r1 == r0, r0.overlap, r0.normal, r0.mtv, r0.aInB, r0.bInA
      end)
    end
  elseif r == 13 then
    self:both("contacts", function(side)
      local buf = side.cbuf or {}
      side.cbuf = buf
      return side.hash:contacts(buf), buf
    end)
  elseif r == 14 then
    local level = rng.int(0, 4)
    if rng.next() < 0.3 then
      local levels = self.n.hash:levels()
      level = levels[rng.int(1, math.max(1, #levels))] or 0
    end
    self:both("cells", function(side) return side.hash:cells(level, side.cells) end)
    self:both("levels", function(side) return side.hash:levels(side.levels) end)
  elseif r == 15 then
    self:both("shapes", function(side) return side.hash:shapes(side.list) end)
    self:both("count", function(side) return side.hash:count(), side.hash:cellSize(),
      tostring(side.hash), side.hash:limits() end)
    self:both("cells 0", function(side) return side.hash:cells() end)
    local overlap, nx, ny = rng.range(0, 5), rng.range(-1, 1), rng.range(-1, 1)
    local ainb, bina = rng.next() < 0.5, rng.next() < 0.5
    local part, own = rng.int(0, 3), rng.int(0, 3)
    self:both("response", function(side)
      local t = {}
      local r1 = side.hash:response(t, overlap, nx, ny, ainb, bina, part, own)
      return r1 == t, getmetatable(t), t.overlap, t.normal, t.mtv, t.aInB, t.bInA, t.part,
        t.ownPart
    end)
  else
    local k = self:pick()
    self:both("has", on(k, function(side, s) return side.hash:has(s), side.hash:isStatic(s) end))
  end
end

-- Argument errors, word for word.
function Script:errors()
  local rng = self.rng
  local k = self:pick()
  local r = rng.int(1, 10)
  local nan, inf = 0 / 0, math.huge
  local id = rng.int(-1, 60) + 0.5 * rng.int(0, 1)
  -- (never tail calls: a Lua function called so has lost its caller's frame, and the name and
  -- the position an error reports are the caller's)
  local calls = {
    function(side) local v = side.hash:queryPoint(nan, 0) return v end,
    function(side) local v = side.hash:queryRect(0, 0, -1, 1) return v end,
    function(side) local v = side.hash:queryRect(0, 0, 1, -1) return v end,
    function(side) local v = side.hash:queryRect(1e308, 0, 1e308, 1) return v end,
    function(side) local v = side.hash:querySegment(-1e308, 0, 1e308, 0) return v end,
    function(side) local v = side.hash:fill({}, id) return v end,
    function(side) local v = side.hash:cells(-1) return v end,
    function(side, s) local v = side.hash:sweep(s, inf, 0, {}) return v end,
    function(side) local v = side.hash:add("shape") return v end,
    function(side) local v = side.hash.add(nil, side.shapes[1]) return v end,
  }
  self:both("errors " .. r, on(k, calls[r]))
end

function Script:run(ops)
  local rng = self.rng
  for _, side in ipairs({ self.n, self.p }) do
    side.hash = side.core.newHash(self.cell)
    side.other = side.core.newHash(self.cell * 4)
    side.list, side.hits, side.cols, side.sweep = {}, {}, {}, {}
    side.cells, side.levels = {}, {}
    -- junk in the reused tables: every call trims what it does not fill
    for i = 1, 5 do
      side.list[i], side.hits[i] = "junk", {}
    end
  end
  for _ = 1, rng.int(10, 40) do
    self:randomShape()
  end
  for op = 1, ops do
    self.op = op
    local r = rng.next()
    if r < 0.12 then
      local k = rng.next() < 0.2 and self:randomShape() or self:pick()
      local static = rng.next() < 0.3
      self:both("add", on(k, function(side, s)
        side.by = side.by or {}
        return side.hash:add(s, static, side.by), side.by
      end))
    elseif r < 0.18 then
      local k = self:pick()
      self:both("remove", on(k, function(side, s)
        local out = {}
        return side.hash:remove(s, out), out
      end))
    elseif r < 0.5 then
      self:transform(self:pick())
    elseif r < 0.52 then
      self:both("sync", function(side) return side.hash:sync() end)
    elseif r < 0.525 then
      -- the other hash: a shape may be in both (its records list both hashes)
      for _, side in ipairs({ self.n, self.p }) do
        side.hash, side.other = side.other, side.hash
      end
    elseif r < 0.54 then
      self:errors()
    else
      self:query()
    end
  end
end

local describe_n = nativeFound and describe or function(name)
  pending(name .. " [no native module loads here]")
end

describe_n("the pure hash against the native one", function()
  local calls, values = 0, 0
  local function runScripts(seeds, cell, ops)
    for _, seed in ipairs(seeds) do
      local s = script(seed, cell)
      s:run(math.floor(ops * SCALE))
      calls, values = calls + s.calls, values + s.values
    end
  end

  it("gives the same results, in the same order, over random scripts", function()
    runScripts({ 11, 12, 13 }, 32, 1500)
    runScripts({ 21 }, 1, 1000)
    runScripts({ 31 }, 0.37, 1000)
    runScripts({ 41 }, 1e-3, 600)
    runScripts({ 51 }, 1e6, 600)
  end)

  it("gives the same contact ids in a crowd where most shapes move", function()
    local s = script(77, 16)
    for _, side in ipairs({ s.n, s.p }) do
      side.hash = side.core.newHash(16)
    end
    local rng = s.rng
    for i = 1, 120 do
      local k = s:make("circle", rng.range(0, 200), rng.range(0, 200), rng.range(4, 12))
      s:both("add", on(k, function(side, sh) return side.hash:add(sh, i % 7 == 0) end))
    end
    for frame = 1, math.floor(30 * SCALE) do
      s.op = frame
      for k = 1, #s.n.shapes do
        if rng.next() < 0.8 then
          local dx, dy = rng.range(-3, 3), rng.range(-3, 3)
          s:both("move", on(k, function(_, sh) return sh:move(dx, dy) end))
        end
      end
      s:both("step", step)
      s:both("contacts", function(side)
        local buf = {}
        return side.hash:contacts(buf), buf
      end)
    end
    calls, values = calls + s.calls, values + s.values
  end)

  it("lets a hash be collected, unlinking it from the shapes it held", function()
    local REC = require("sat.pure.lsat_util").REC
    local keep = pure.newHash(8)
    local shapes = {}
    for i = 1, 40 do
      shapes[i] = pure.circle(i, 0, 2)
      keep:add(shapes[i])
    end
    local function fill()
      local h = pure.newHash(8)
      for i = 1, 40 do
        h:add(shapes[i])
      end
      h:step({})
    end
    fill()
    collectgarbage()
    collectgarbage()
    for i = 1, 40 do
      local rec = rawget(shapes[i], REC)
      local m, n = rec.members, 0
      while m do
        n = n + 1
        m = m.next
      end
      assert.are.equal(1, n) -- keep's record alone
      shapes[i]:move(1, 0)
    end
    assert.are.equal(40, #keep:queryRect(-100, -10, 200, 20))
  end)

  teardown(function()
    if VERBOSE then
      io.stderr:write(format("pure hash: %d calls compared (%d values), 0 mismatches\n", calls,
        values))
    end
  end)
end)
