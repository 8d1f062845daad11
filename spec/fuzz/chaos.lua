-- The chaos fuzzer (issue 25): random sequences of every call of the binding (constructors,
-- methods, fields, vecs, the narrow phase, worlds; under LuaJIT with its compiler on, the
-- FFI path of lua/sat/fast.lua), run against the chaos build of the module (make
-- module-chaos, src/lua/lsat.h), in which every Lua API call of the binding that can run the
-- collector first calls `hostile` below: a finalizer at every allocation. It turns, scales,
-- moves, clones, writes fields of the shapes of the call in progress (those on the C
-- function's stack, and those the fuzzer is calling with), collides and explains them, adds
-- to and removes from their worlds, steps and queries them, and now and then runs a full
-- collection, so that real finalizers (re-arming ones, meddling too) run as well.
--
-- Checked after every operation: nothing crashed, every result is finite or a clean error
-- (no Lua runtime error from inside sat), a response is one pair's (mtv = -normal *
-- overlap), an explanation's axes are all there, and every world agrees with itself
-- (count, shapes(), has(), a query over everything); now and then, that a shape's
-- `category` and `mask` fields are the bits the broad phase filters with. The sanitizers
-- of the build catch the rest.
--
--   lua spec/fuzz/chaos.lua [seed [operations [seconds]]]
--
-- runs `operations` operations (0: no limit) or until `seconds` of CPU time; prints one
-- summary line (`chaos: ... 0 failures`) and exits 0, or exits 1 at the first failure with
-- the seed, the operation and the last operations. Against a module without the chaos hook
-- it still runs (real finalizers only), and says `0 hostile calls`.
local sat = require("sat")
local core = require("sat.core")

local seed = tonumber(arg and arg[1]) or 1
local maxOps = tonumber(arg and arg[2]) or 5000
local seconds = tonumber(arg and arg[3])
if maxOps == 0 then
  maxOps = math.huge
end

------------------------------------------------------------------------------------------
-- random numbers, the same on every Lua (Park-Miller)

local state = seed % 2147483646 + 1
local function rnd()
  state = state * 16807 % 2147483647
  return state / 2147483647
end
local function int(a, b)
  return a + math.floor(rnd() * (b - a + 1))
end
local function chance(p)
  return rnd() < p
end
local function pick(t)
  if #t == 0 then
    return nil
  end
  return t[int(1, #t)]
end
local function coord(span)
  return (rnd() * 2 - 1) * (span or 60)
end

------------------------------------------------------------------------------------------
-- counts, the trail, failure

local stats = { ops = 0, hostile = 0, acted = 0, finalizers = 0, errors = 0, checks = 0 }
local where = {}   -- C function -> hostile calls there
local errors = {}  -- clean error messages (their first words) -> count
local trail, trailN = {}, 0
local opName = "start"
local function note(s)
  trailN = trailN + 1
  trail[(trailN - 1) % 30 + 1] = s
end

local function fail(msg)
  io.stderr:write(("chaos: FAILURE (seed %d, operation %d, %s): %s\n"):format(
    seed, stats.ops + 1, opName, msg))
  io.stderr:write(debug.traceback("where:", 2) .. "\n")
  io.stderr:write("last operations, oldest first:\n")
  for k = math.max(1, trailN - 29), trailN do
    io.stderr:write("  " .. trail[(k - 1) % 30 + 1] .. "\n")
  end
  os.exit(1)
end

local function check(cond, msg, ...)
  stats.checks = stats.checks + 1
  if not cond then
    fail(msg:format(...))
  end
end

local function finite(v)
  return type(v) == "number" and v == v and v > -math.huge and v < math.huge
end

-- A clean error: a message of sat's (or Lua's own "not enough memory"), not a Lua runtime
-- error from inside sat's Lua code (a nil indexed, a bad 'for' limit, ...).
local SUSPECT = { "attempt to ", "bad 'for'", "table index is", "invalid key", "stack overflow",
                  "C stack", "invalid value", "error in error handling" }
local function cleanError(e)
  if type(e) ~= "string" then
    return false
  end
  for _, s in ipairs(SUSPECT) do
    if e:find(s, 1, true) then
      return false
    end
  end
  return true
end

------------------------------------------------------------------------------------------
-- the objects

local pool = {}     -- shapes
local vecs = {}
local worlds = {}   -- { world, ... }
local byHash = {}   -- world.hash -> world (the hostile function is handed hashes)
local cur = {}      -- the objects of the top-level call in progress
local POOL, WORLD_MAX = 40, 48

local function ngon(n, cx, cy, r, phase)
  local t = {}
  for i = 0, n - 1 do
    local a = phase + 2 * math.pi * i / n
    t[#t + 1] = cx + r * math.cos(a)
    t[#t + 1] = cy + r * math.sin(a)
  end
  return t
end

local function star(k, cx, cy, r)
  local t = {}
  for i = 0, 2 * k - 1 do
    local a = math.pi * i / k
    local rr = i % 2 == 0 and r or r * 0.45
    t[#t + 1] = cx + rr * math.cos(a)
    t[#t + 1] = cy + rr * math.sin(a)
  end
  return t
end

local function polygonCount()
  local r = rnd()
  if r < 0.6 then
    return int(3, 10)
  elseif r < 0.9 then
    return int(30, 80) -- explain: more than 64 axes for two of these
  end
  return 256
end

-- A new shape of any kind, near the origin (errors from bad arguments are part of the mix:
-- the constructors' own operations make those).
local function newShape()
  local k = int(1, 11)
  local x, y = coord(), coord()
  if k == 1 then
    return sat.circle(x, y, rnd() * 6)
  elseif k == 2 then
    return sat.point(x, y)
  elseif k == 3 or k == 4 then
    return sat.polygon(ngon(polygonCount(), x, y, 2 + rnd() * 8, rnd()))
  elseif k == 5 then
    return sat.box(x, y, 0.5 + rnd() * 8, 0.5 + rnd() * 8)
  elseif k == 6 then
    return sat.segment(x, y, x + coord(8), y + coord(8) + 0.5)
  elseif k == 7 then
    return sat.capsule(x, y, x + coord(8), y + coord(8) + 0.5, rnd() * 3)
  elseif k == 8 then
    return sat.concave(star(int(3, 9), x, y, 3 + rnd() * 6))
  elseif k == 9 then
    local pts = {}
    for i = 1, int(2, 8) do
      pts[#pts + 1] = x + i * 2
      pts[#pts + 1] = y + coord(3)
    end
    return sat.chain(pts, chance(0.3) and #pts >= 6)
  elseif k == 10 then
    local parts = {}
    for i = 1, int(1, 4) do
      parts[i] = pool[int(1, math.max(1, #pool))] or sat.box(x, y, 2, 2)
    end
    return sat.compound(parts)
  end
  return sat.polygon(ngon(int(3, 8), x, y, 1 + rnd() * 5, rnd()))
end

local function keep(s)
  if sat.isShape(s) then
    if #pool < POOL then
      pool[#pool + 1] = s
    else
      pool[int(1, POOL)] = s
    end
  end
end

-- A shape kept within reach: scaled back when it grew or shrank a lot, moved back when far.
local function tame(s)
  local x1, y1, x2, y2 = s:bbox()
  local size = math.max(x2 - x1, y2 - y1)
  if size > 120 then
    s:scale(0.25)
  elseif size < 0.05 and size > 0 then
    s:scale(4)
  end
  local x, y = s:position()
  if math.abs(x) > 400 or math.abs(y) > 400 then
    s:moveTo(coord(), coord())
  end
end

------------------------------------------------------------------------------------------
-- the hostile function and the finalizers

local worldOf -- shape -> a world holding it (or nil)

local function anyShape(list, n)
  if n > 0 and chance(0.7) then
    return list[int(1, n)]
  end
  return cur[int(1, 3)] or pick(pool)
end

local function fieldWrite(s)
  local r = int(1, 6)
  if r == 1 then
    s.category = int(0, 7)
  elseif r == 2 then
    s.mask = chance(0.5) and 0xFFFFFFFF or int(0, 15)
  elseif r == 3 then
    s.tag = {}
  elseif r == 4 then
    s.tag = nil
  elseif r == 5 then
    s["f" .. int(1, 4)] = rnd()
  else
    s.category = nil
  end
end

-- One action on shape s (errors are the caller's to drop).
local function actOn(s, other)
  local r = int(1, 18)
  other = other or pick(pool) or s
  if r == 1 then
    s:rotate(rnd() * 2 - 1)
  elseif r == 2 then
    s:setRotation(rnd() * 6)
  elseif r == 3 then
    local x, y = s:position()
    s:setRotation(rnd() * 6, x + coord(3), y + coord(3))
  elseif r == 4 then
    s:scale(0.7 + rnd() * 0.6)
    tame(s)
  elseif r == 5 then
    s:move(coord(3), coord(3))
    tame(s)
  elseif r == 6 then
    s:moveTo(coord(), coord())
  elseif r == 7 then
    keep(s:clone())
  elseif r == 8 then
    fieldWrite(s)
  elseif r == 9 then
    sat.collide(s, other, chance(0.5) and cur.response or nil)
  elseif r == 10 then
    s:collidesWith(other)
  elseif r == 11 then
    local e = sat.explain(s, other)
    if chance(0.1) then
      tostring(e)
    end
  elseif r == 12 then
    sat.contacts(s, other)
    sat.sweep(s, coord(5), coord(5), other)
  elseif r == 13 then
    local k = s:kind()
    if k == "circle" or k == "capsule" then
      s:setRadius(rnd() * 5)
    elseif k == "compound" then
      s:parts()
    else
      tostring(s)
    end
  elseif r == 14 then
    keep(sat.compound({ s, other }))
  elseif r == 15 then
    local w = worldOf(s) or pick(worlds)
    if w:has(s) then
      if chance(0.5) then
        w:remove(s)
      else
        w:move(s, coord(4), coord(4))
      end
    elseif w:count() < WORLD_MAX then
      w:add(s, chance(0.2) and "static" or nil)
    end
  elseif r == 16 then
    sat.test(s, other)
    s:raycast(coord(), coord(), coord(), coord())
  elseif r == 17 then
    s:clone():rotate(1)
  else
    local x, y = s:position()
    keep(sat.polygon(ngon(polygonCount(), x, y, 2 + rnd() * 4, rnd())))
  end
end

-- One action on world w.
local function actOnWorld(w)
  local r = int(1, 7)
  local members = w:shapes()
  if r == 1 and w:count() < WORLD_MAX then
    w:add(chance(0.5) and newShape() or pick(pool), chance(0.2) and "static" or nil)
  elseif r == 2 and #members > 0 then
    w:remove(pick(members))
  elseif r == 3 then
    w:step()
  elseif r == 4 then
    w:queryRect(coord(), coord(), rnd() * 60, rnd() * 60, cur.list)
    w:querySegment(coord(), coord(), coord(), coord())
  elseif r == 5 and #members > 0 then
    w:collisions(pick(members), cur.list)
  elseif r == 6 and #members > 0 then
    w:move(pick(members), coord(5), coord(5))
  else
    w:queryPoint(coord(), coord())
    w:neighbors(pick(members) or pick(pool))
  end
end

local hostileOn = true

-- The hostile function: called by the chaos build at every allocation of the binding, with
-- the C function's name and the shapes and hashes on its stack.
local function hostile(fn, ...)
  stats.hostile = stats.hostile + 1
  where[fn] = (where[fn] or 0) + 1
  if not hostileOn or chance(0.35) then
    return
  end
  stats.acted = stats.acted + 1
  local args, n = { ... }, select("#", ...)
  local shapes, ns = {}, 0
  for i = 1, n do
    local w = byHash[args[i]]
    if w then
      pcall(actOnWorld, w)
    elseif sat.isShape(args[i]) then
      ns = ns + 1
      shapes[ns] = args[i]
    end
  end
  for _ = 1, int(1, 3) do
    local s = anyShape(shapes, ns)
    if s then
      pcall(actOn, s, anyShape(shapes, ns))
    end
  end
  if cur.world and chance(0.2) then
    pcall(actOnWorld, cur.world)
  end
  if chance(0.03) then
    collectgarbage()
  end
end

-- Finalizers that re-arm every cycle and meddle with a shape or two (under LuaJIT's
-- compiler they run when a trace exits: between any two statements, the FFI path's too).
local finished = false
local newproxy = rawget(_G, "newproxy")
local makeFinalizer
local function finalizer()
  if finished then
    return
  end
  makeFinalizer()
  stats.finalizers = stats.finalizers + 1
  if hostileOn and stats.finalizers % 4 == 0 then
    local s = cur[int(1, 3)] or pick(pool)
    if s then
      pcall(actOn, s, pick(pool))
    end
  end
end
function makeFinalizer()
  if newproxy then
    getmetatable(newproxy(true)).__gc = finalizer -- luacheck: ignore 143 (LuaJIT, Lua 5.1)
  else
    setmetatable({}, { __gc = finalizer })
  end
end

------------------------------------------------------------------------------------------
-- the checks (the hostile function and the finalizers' meddling off: they only re-arm)

local function saneShape(s, what)
  check(sat.isShape(s), "%s: not a shape (%s)", what, tostring(s))
  local x, y = s:position()
  check(finite(x) and finite(y), "%s: position %s, %s", what, tostring(x), tostring(y))
  local x1, y1, x2, y2 = s:bbox()
  check(finite(x1) and finite(y1) and finite(x2) and finite(y2) and x1 <= x2 and y1 <= y2,
    "%s: bbox %s %s %s %s", what, tostring(x1), tostring(y1), tostring(x2), tostring(y2))
  local a = s:area()
  check(finite(a) and a >= 0, "%s: area %s", what, tostring(a))
  check(finite(s:rotation()), "%s: rotation", what)
  local k = s:kind()
  if k == "polygon" then
    local v = s:vertices()
    check(#v >= 6 and #v % 2 == 0, "%s: %d coordinates", what, #v)
    local slack = (x2 - x1 + y2 - y1) * 1e-9 + 1e-9
    for i = 1, #v, 2 do
      check(finite(v[i]) and finite(v[i + 1]), "%s: vertex %d not finite", what, (i + 1) / 2)
      check(v[i] >= x1 - slack and v[i] <= x2 + slack and v[i + 1] >= y1 - slack and
        v[i + 1] <= y2 + slack, "%s: vertex %d (%.17g, %.17g) outside its bbox", what,
        (i + 1) / 2, v[i], v[i + 1])
    end
  elseif k == "circle" or k == "capsule" then
    local r = s:radius()
    check(finite(r) and r >= 0, "%s: radius %s", what, tostring(r))
  end
  if k == "segment" or k == "capsule" then
    local p, q, u, w = s:endpoints()
    check(finite(p) and finite(q) and finite(u) and finite(w), "%s: endpoints", what)
  end
  check(type(tostring(s)) == "string", "%s: tostring", what)
end

local function saneResponse(r, a, b, what)
  if r == nil then
    return
  end
  check(type(r) == "table", "%s: response %s", what, type(r))
  check(rawget(r, "a") == a and rawget(r, "b") == b, "%s: a and b", what)
  local o, n, m = r.overlap, r.normal, r.mtv
  check(finite(o) and o >= 0, "%s: overlap %s", what, tostring(o))
  check(sat.isVec(n) and sat.isVec(m) and finite(n.x) and finite(n.y) and finite(m.x) and
    finite(m.y), "%s: normal and mtv", what)
  check(math.abs(n:len() - 1) < 1e-9, "%s: normal of length %.17g", what, n:len())
  -- one pair's numbers: mtv is -normal * overlap (exactly, but for a compound's union MTV)
  local tol = 1e-9 * (1 + o)
  check(math.abs(m.x + n.x * o) <= tol and math.abs(m.y + n.y * o) <= tol,
    "%s: mtv (%.17g, %.17g) is not -normal (%.17g, %.17g) * overlap %.17g", what, m.x, m.y,
    n.x, n.y, o)
  check(type(r.aInB) == "boolean" and type(r.bInA) == "boolean", "%s: flags", what)
end

local AXIS_NUMBERS = { "nx", "ny", "aMin", "aMax", "bMin", "bMax", "overlap" }
local function saneExplanation(e, a, b, what)
  check(type(e) == "table" and e.a == a and e.b == b, "%s: explanation", what)
  check(type(e.hit) == "boolean" and type(e.axes) == "table", "%s: hit, axes", what)
  for i = 1, #e.axes do
    local ax = e.axes[i]
    for _, k in ipairs(AXIS_NUMBERS) do
      check(finite(ax[k]), "%s: axis %d of %d: %s = %s", what, i, #e.axes, k, tostring(ax[k]))
    end
    check(ax.aMin <= ax.aMax and ax.bMin <= ax.bMax, "%s: axis %d: intervals", what, i)
    check(ax.from == "a" or ax.from == "b", "%s: axis %d: from", what, i)
    check(type(ax.separates) == "boolean", "%s: axis %d: separates", what, i)
  end
  if e.deciding then
    check(e.deciding >= 1 and e.deciding <= #e.axes, "%s: deciding %s of %d", what,
      tostring(e.deciding), #e.axes)
  end
  if e.hit then
    check(finite(e.overlap) and sat.isVec(e.normal) and finite(e.normal.x) and
      finite(e.normal.y) and finite(e.containment), "%s: verdict", what)
  end
end

-- A list of distinct shapes; of members of w when quiet (no hostile function or finalizer
-- meddled during the call that made it: else a shape may have left the world since).
local function saneList(list, w, what, quietCall)
  check(type(list) == "table", "%s: a list", what)
  local seen = {}
  for i = 1, #list do
    local s = list[i]
    check(sat.isShape(s), "%s: entry %d is %s", what, i, tostring(s))
    check(not seen[s], "%s: %s twice", what, tostring(s))
    seen[s] = true
    check(not quietCall or w:has(s), "%s: %s is not in the world", what, tostring(s))
  end
end

-- A world agrees with itself: count, shapes(), has(), a query over everything (and, with
-- `members`, each member is a sane shape).
local function checkWorld(w, what, members)
  local list = w:shapes()
  check(#list == w:count(), "%s: %d shapes listed, count %d", what, #list, w:count())
  saneList(list, w, what .. " shapes()", true)
  local all = w:queryRect(-1e5, -1e5, 2e5, 2e5)
  saneList(all, w, what .. " queryRect", true)
  check(#all == #list, "%s: a query over everything finds %d of %d", what, #all, #list)
  if members then
    for i = 1, #list do
      saneShape(list[i], what .. " member")
    end
  end
end

-- The broad phase filters with the bits the fields say: shape s against a box over
-- everything whose mask (then category) is one bit at a time.
local probeHash = core.newHash(1e4)
local probe = sat.box(-5e3, -5e3, 1e4, 1e4)
local function bits(v)
  return v % 4294967296
end
local function hasBit(v, k)
  return math.floor(v / 2 ^ k) % 2 == 1
end
local function filterBits(s, what)
  local cat, mask = bits(s.category), bits(s.mask)
  local x1, y1, x2, y2 = s:bbox()
  if x1 < -4e3 or y1 < -4e3 or x2 > 4e3 or y2 > 4e3 then
    return
  end
  for k = 0, 31 do
    probe.category, probe.mask = 0xFFFFFFFF, 2 ^ k
    local hit = #probeHash:collisions(s, true) > 0
    check(hit == (hasBit(cat, k) and mask ~= 0), "%s: category %d (bit %d): the filter says %s",
      what, cat, k, tostring(hit))
    if cat ~= 0 then
      probe.category, probe.mask = 2 ^ k, 0xFFFFFFFF
      hit = #probeHash:collisions(s, true) > 0
      check(hit == hasBit(mask, k), "%s: mask %d (bit %d): the filter says %s", what, mask, k,
        tostring(hit))
    end
  end
end

------------------------------------------------------------------------------------------
-- the operations: every call of the binding

local function two()
  local a, b = pick(pool), pick(pool)
  cur[1], cur[2] = a, b
  return a, b
end

local function vecPair()
  local a = pick(vecs) or sat.vec(1, 2)
  local b = pick(vecs) or sat.vec(3, 4)
  return a, b
end

local ops = {
  -- constructors (their results kept, and checked)
  { "circle", function() return sat.circle(coord(), coord(), rnd() * 6) end },
  { "point", function() return sat.point(coord(), coord()) end },
  { "polygon", function()
    local t = ngon(polygonCount(), coord(), coord(), 1 + rnd() * 8, rnd())
    if #t <= 20 and chance(0.5) then
      return sat.polygon((unpack or table.unpack)(t))
    end
    return sat.polygon(t)
  end },
  { "polygon of vecs", function()
    local t, v = ngon(int(3, 70), coord(), coord(), 1 + rnd() * 8, rnd()), {}
    for i = 1, #t, 2 do
      v[#v + 1] = sat.vec(t[i], t[i + 1])
    end
    return sat.polygon(v)
  end },
  { "box", function() return sat.box(coord(), coord(), 0.5 + rnd() * 9, 0.5 + rnd() * 9) end },
  { "segment", function()
    local x, y = coord(), coord()
    return sat.segment(x, y, x + coord(9), y + coord(9) + 0.1)
  end },
  { "capsule", function()
    local x, y = coord(), coord()
    return sat.capsule(x, y, x + coord(9), y + coord(9) + 0.1, rnd() * 3)
  end },
  { "concave", function() return sat.concave(star(int(3, 12), coord(), coord(), 2 + rnd() * 8)) end },
  { "compound", function()
    local parts = {}
    for i = 1, int(1, 5) do
      parts[i] = pick(pool)
      cur[i <= 3 and i or 3] = parts[i]
    end
    if #parts == 0 then
      parts[1] = sat.circle(0, 0, 1)
    end
    return sat.compound(parts)
  end },
  { "chain", function()
    local pts, x, y = {}, coord(), coord()
    for i = 1, int(2, 12) do
      pts[#pts + 1] = x + i * 1.5
      pts[#pts + 1] = y + coord(2)
    end
    return sat.chain(pts, chance(0.3) and #pts >= 6)
  end },
  { "bad constructor", function()
    local r = int(1, 5)
    if r == 1 then
      return sat.circle(0, 0, -1)
    elseif r == 2 then
      return sat.polygon(0, 0, 1, 1, 2, 2)
    elseif r == 3 then
      return sat.compound({ pick(pool) or 1, "x" })
    elseif r == 4 then
      return sat.polygon({ 0, 0, 1, 0, 0 / 0, 1 })
    end
    return sat.concave({ 0, 0, 1, 1, 1, 0, 0, 1 })
  end },

  -- methods
  { "transform", function()
    local s = pick(pool)
    cur[1] = s
    if s then
      actOn(s, pick(pool))
      return s
    end
  end },
  { "clone", function()
    local s = pick(pool)
    cur[1] = s
    return s and s:clone()
  end },
  { "vertices", function()
    local s = pick(pool)
    cur[1] = s
    if s and (s:kind() == "polygon" or s:kind() == "compound") then
      local t = chance(0.5) and cur.list or nil
      local ok, v = pcall(s.vertices, s, t)
      if ok then
        check(#v % 2 == 0, "vertices: %d numbers", #v)
        for i = 1, #v do
          check(finite(v[i]), "vertices: %s", tostring(v[i]))
        end
      else
        check(cleanError(v), "vertices: %s", tostring(v))
      end
    end
  end },
  { "parts", function()
    local s = pick(pool)
    cur[1] = s
    if s and s:kind() == "compound" then
      local p = s:parts()
      for i = 1, #p do
        saneShape(p[i], "part")
      end
    end
  end },
  { "fields", function()
    local s = pick(pool)
    cur[1] = s
    if s then
      fieldWrite(s)
      local c, m = s.category, s.mask
      check(type(c) == "number" and type(m) == "number", "fields: category %s, mask %s",
        tostring(c), tostring(m))
    end
  end },
  { "queries of a shape", function()
    local s = pick(pool)
    cur[1] = s
    if s then
      local x, y = s:position()
      check(finite(x) and finite(y), "position")
      s:contains(coord(), coord())
      local t, nx, ny = s:raycast(coord(), coord(), coord(), coord())
      check(t == nil or (finite(t) and t >= 0 and t <= 1 and finite(nx) and finite(ny)),
        "raycast: %s", tostring(t))
      check(type(tostring(s)) == "string", "tostring")
    end
  end },

  -- the narrow phase
  { "collide", function()
    local a, b = two()
    if a then
      local r = chance(0.5) and cur.response or nil
      local got = sat.collide(a, b, r)
      saneResponse(got, a, b, "collide")
      if got and chance(0.1) then
        tostring(got)
      end
    end
  end },
  { "collidesWith", function()
    local a, b = two()
    if a then
      local hit, mx, my = a:collidesWith(b)
      check(type(hit) == "boolean" and finite(mx) and finite(my), "collidesWith")
    end
  end },
  { "test", function()
    local a, b = two()
    if a then
      check(type(sat.test(a, b)) == "boolean", "test")
    end
  end },
  { "explain", function()
    local a, b = two()
    if a then
      local e = sat.explain(a, b)
      saneExplanation(e, a, b, "explain")
      if chance(0.1) then
        check(type(tostring(e)) == "string", "tostring(explanation)")
      end
    end
  end },
  { "explain big", function()
    local a = sat.polygon(ngon(int(33, 90), coord(), coord(), 10, rnd()))
    local b = sat.polygon(ngon(int(33, 90), coord(), coord(), 10, rnd()))
    keep(a)
    cur[1], cur[2] = a, b
    saneExplanation(sat.explain(a, b), a, b, "explain big")
  end },
  { "contacts", function()
    local a, b = two()
    if a then
      local n, x1, y1, x2, y2 = sat.contacts(a, b)
      check(n == 0 or (n == 1 and finite(x1) and finite(y1)) or
        (n == 2 and finite(x1) and finite(y1) and finite(x2) and finite(y2)), "contacts: %s",
        tostring(n))
    end
  end },
  { "sweep", function()
    local a, b = two()
    if a then
      local t, nx, ny, x, y
      if chance(0.5) then
        t, nx, ny, x, y = sat.sweep(a, coord(20), coord(20), b)
      else
        t, nx, ny, x, y = sat.sweep(a, coord(20), coord(20), b, coord(5), coord(5))
      end
      check(t == nil or (finite(t) and t >= 0 and t <= 1 and finite(nx) and finite(ny) and
        finite(x) and finite(y)), "sweep: %s", tostring(t))
    end
  end },

  -- vecs
  { "vec", function()
    local v = sat.vec(coord(), coord())
    if #vecs < 16 then
      vecs[#vecs + 1] = v
    else
      vecs[int(1, 16)] = v
    end
    local a, b = vecPair()
    local r = int(1, 12)
    local out
    if r == 1 then
      out = a + b
    elseif r == 2 then
      out = a - b
    elseif r == 3 then
      out = chance(0.5) and a * 2 or 3 * a
    elseif r == 4 then
      out = a / 2
    elseif r == 5 then
      out = -a
    elseif r == 6 then
      out = a:normalized()
    elseif r == 7 then
      out = a:rotated(rnd())
    elseif r == 8 then
      out = a:projectOn(b)
    elseif r == 9 then
      out = a:reflect(b)
    elseif r == 10 then
      out = a:perp()
    elseif r == 11 then
      a.x, a.y = coord(), coord()
      out = a:clone()
    else
      out = a
      check(finite(a:dot(b)) and finite(a:cross(b)) and finite(a:len()) and finite(a:dist(b)),
        "vec numbers")
      check(type(a == b) == "boolean" and type(tostring(a)) == "string", "vec ==, tostring")
      local x, y = a:unpack()
      check(finite(x) and finite(y) and a[1] == nil, "vec unpack")
    end
    check(sat.isVec(out) and finite(out.x) and finite(out.y), "vec result")
  end },

  -- worlds
  { "new world", function()
    -- a new hash grows its tables from nothing (while the hostile function adds more)
    local i = int(1, #worlds)
    local w = sat.world(({ 4, 16, 64 })[i])
    byHash[w.hash] = w
    worlds[i] = w
    cur.world = w
    for _ = 1, int(8, 40) do
      local s = pick(pool)
      cur[1] = s
      if s and w:count() < WORLD_MAX and not w:has(s) then
        w:add(s, chance(0.2) and "static" or nil)
      end
    end
  end },
  { "world", function()
    local w = pick(worlds)
    cur.world = w
    local members = w:shapes()
    local s = pick(members) or pick(pool)
    cur[1] = s
    local r = int(1, 10)
    if r <= 2 and w:count() < WORLD_MAX then
      local n = pick(pool)
      cur[2] = n
      if n and not w:has(n) then
        w:add(n, chance(0.2) and "static" or nil)
      end
    elseif r == 3 and s and w:has(s) then
      w:remove(s)
    elseif r == 4 then
      local n = w:step()
      check(type(n) == "number" and n >= 0, "step: %s", tostring(n))
    elseif r == 5 then
      saneList(w:queryRect(coord(), coord(), rnd() * 60, rnd() * 60, cur.list), w, "queryRect")
      saneList(w:queryPoint(coord(), coord()), w, "queryPoint")
    elseif r == 6 then
      local hits = w:querySegment(coord(), coord(), coord(), coord())
      for i = 1, #hits do
        local h = hits[i]
        check(sat.isShape(h.shape) and finite(h.t) and finite(h.x) and finite(h.nx),
          "querySegment: hit %d", i)
      end
    elseif r == 7 and s then
      saneList(w:queryShape(s), w, "queryShape")
      saneList(w:neighbors(s), w, "neighbors")
    elseif r == 8 and s then
      local cols = w:collisions(s, chance(0.5) and {} or nil)
      for i = 1, #cols do
        saneResponse(cols[i], s, cols[i].b, "collisions")
      end
    elseif r == 9 and s and w:has(s) then
      local x, y = w:move(s, coord(6), coord(6))
      check(finite(x) and finite(y), "move: %s, %s", tostring(x), tostring(y))
    else
      w:cells()
      if w.levels then
        w:levels()
      end
    end
  end },
}

------------------------------------------------------------------------------------------
-- the run

local registry = debug.getregistry()
local function quiet(on)
  hostileOn = not on
  registry["sat.chaos"] = (not on) and hostile or nil
end

-- (the collector at its usual pace: the hostile function runs full collections itself)
if _VERSION == "Lua 5.4" then
  collectgarbage("incremental", 200, 200)
else
  collectgarbage("setpause", 200)
  collectgarbage("setstepmul", 200)
end

quiet(true)
probeHash:add(probe)
for _, cell in ipairs({ 4, 16, 64 }) do
  local w = sat.world(cell)
  worlds[#worlds + 1] = w
  byHash[w.hash] = w
end
for _ = 1, POOL do
  keep(newShape())
end
for i = 1, 24 do
  worlds[i % 3 + 1]:add(pool[i], i % 7 == 0 and "static" or nil)
end
function worldOf(s)
  for _, w in ipairs(worlds) do
    if w:has(s) then
      return w
    end
  end
  return nil
end
makeFinalizer()

local clock = os.clock
local start = clock()
local deadline = seconds and start + seconds or math.huge

while stats.ops < maxOps and clock() < deadline do
  local op = pick(ops)
  opName = op[1]
  note(opName)
  cur = { list = {}, response = chance(0.5) and {} or nil }
  quiet(false)
  local ok, result = pcall(op[2])
  quiet(true)
  if ok then
    if sat.isShape(result) then
      saneShape(result, opName)
      keep(result)
    end
  else
    check(cleanError(result), "an error that is no error of sat's: %s", tostring(result))
    stats.errors = stats.errors + 1
    local key = tostring(result):gsub("^[^:]*:%d+: ", ""):sub(1, 48)
    errors[key] = (errors[key] or 0) + 1
  end
  stats.ops = stats.ops + 1
  for i, w in ipairs(worlds) do
    checkWorld(w, "world " .. i, stats.ops % 10 == 0)
  end
  if stats.ops % 25 == 0 then
    local s = pick(pool)
    if s then
      saneShape(s, "pool")
      filterBits(s, "filter bits")
    end
  end
end
quiet(true)
for _, s in ipairs(pool) do
  saneShape(s, "pool at the end")
end
finished = true
collectgarbage()
collectgarbage()

local top = {}
for fn, n in pairs(where) do
  top[#top + 1] = { fn, n }
end
table.sort(top, function(p, q)
  return p[2] > q[2] or (p[2] == q[2] and p[1] < q[1])
end)
local parts = {}
for i = 1, math.min(#top, 8) do
  parts[i] = top[i][1] .. " " .. top[i][2]
end
print(("chaos: %s seed %d, %d operations, %d hostile calls (%d acting) in %d functions, %d " ..
  "finalizer runs, %d clean errors, %d checks, %.1f s, 0 failures"):format(
  jit and (jit.version .. (jit.status() and "" or " -joff")) or _VERSION, seed, stats.ops,
  stats.hostile, stats.acted, #top, stats.finalizers, stats.errors, stats.checks, clock() - start))
print("chaos: most hostile calls in: " .. table.concat(parts, ", "))
local kinds = {}
for msg, n in pairs(errors) do
  kinds[#kinds + 1] = { msg, n }
end
table.sort(kinds, function(p, q)
  return p[2] > q[2] or (p[2] == q[2] and p[1] < q[1])
end)
parts = {}
for i = 1, math.min(#kinds, 4) do
  parts[i] = ("%q %d"):format(kinds[i][1], kinds[i][2])
end
print(("chaos: %d kinds of clean errors, most: %s"):format(#kinds, table.concat(parts, ", ")))
