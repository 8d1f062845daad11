-- Seeing the theorem work: sat.explain against sat.collide (the same numbers, bit for bit),
-- sat.contacts against an oracle of signed distances written here, and sat.sweep against
-- sat.collide along the motion and against world:move's first hit. For random pairs of every
-- pair of kinds (polygons, circles and points, segments, capsules of every shape).
local sat = require("sat")
local support = require("spec.support")
local err, has = support.err, support.has
local it_world = support.needs(it, pending, "world")

local KINDS = { "polygon", "circle", "segment", "capsule" }
-- per ordered pair of kinds (fewer under valgrind: spec/suites/valgrind.sh sets it)
local PAIRS = tonumber(os.getenv("SAT_SPEC_PAIRS")) or 150

-- A random shape of the kind about (x, y), 1 to 20 across, turned and scaled.
local function randomShape(R, kind, x, y)
  local s
  if kind == "polygon" then
    local n, rx, a0 = R.int(3, 10), R.range(1, 10), R.range(0, 2 * math.pi)
    local ry, pts = rx * R.range(0.2, 1), {}
    for i = 0, n - 1 do
      local t = a0 + 2 * math.pi * (i + R.range(-0.3, 0.3)) / n
      pts[#pts + 1] = x + rx * math.cos(t)
      pts[#pts + 1] = y + ry * math.sin(t)
    end
    s = sat.polygon(pts)
  elseif kind == "circle" then
    return R.next() < 0.15 and sat.point(x, y) or sat.circle(x, y, R.range(0.5, 10))
  else
    local len, phi = R.range(0.5, 10), R.range(0, 2 * math.pi)
    local hx, hy = len * math.cos(phi), len * math.sin(phi)
    if kind == "segment" then
      s = sat.segment(x - hx, y - hy, x + hx, y + hy)
    else
      local style, r = R.next(), R.range(0.5, 8)
      if style < 0.12 then r = 0 elseif style < 0.24 then hx, hy = 0, 0 end
      s = sat.capsule(x - hx, y - hy, x + hx, y + hy, r)
    end
  end
  s:setRotation(R.range(-math.pi, math.pi))
  s:scale(R.range(0.5, 2))
  return s
end

-- A shape's size: half its box's diagonal.
local function size(s)
  local x1, y1, x2, y2 = s:bbox()
  return 0.5 * math.sqrt((x2 - x1) ^ 2 + (y2 - y1) ^ 2)
end

-- b at a random direction from a, about half the pairs overlapping.
local function randomPair(R, ka, kb)
  local x, y = R.range(-100, 100), R.range(-100, 100)
  local a, b = randomShape(R, ka, x, y), randomShape(R, kb, 0, 0)
  local phi, dist = R.range(0, 2 * math.pi), R.range(0, 1.1) * (size(a) + size(b))
  b:moveTo(x + dist * math.cos(phi), y + dist * math.sin(phi))
  return a, b
end

-- Every ordered pair of kinds, PAIRS random pairs each, from a seed.
local function eachPair(seed, f)
  local R = support.rng(seed)
  for _, ka in ipairs(KINDS) do
    for _, kb in ipairs(KINDS) do
      for i = 1, PAIRS do
        local a, b = randomPair(R, ka, kb)
        f(a, b, ("%s/%s pair %d"):format(ka, kb, i), R)
      end
    end
  end
end

-- ---- the oracle: the signed distance of a point to a shape (negative inside) -------------

local function segmentDistance(px, py, x1, y1, x2, y2)
  local ex, ey = x2 - x1, y2 - y1
  local l2 = ex * ex + ey * ey
  local t = l2 > 0 and math.max(0, math.min(1, ((px - x1) * ex + (py - y1) * ey) / l2)) or 0
  local dx, dy = px - (x1 + t * ex), py - (y1 + t * ey)
  return math.sqrt(dx * dx + dy * dy)
end

local function signedDistance(s, px, py)
  local kind = s:kind()
  if kind == "circle" then
    local cx, cy = s:position()
    return math.sqrt((px - cx) ^ 2 + (py - cy) ^ 2) - s:radius()
  elseif kind ~= "polygon" then
    local x1, y1, x2, y2 = s:endpoints()
    return segmentDistance(px, py, x1, y1, x2, y2) - (kind == "capsule" and s:radius() or 0)
  end
  -- a convex polygon either way round: inside when on the same side of every edge
  local v = s:vertices()
  local n, best, pos, neg = #v / 2, math.huge, 0, 0
  for i = 1, n do
    local j = i % n + 1
    local x1, y1, x2, y2 = v[2 * i - 1], v[2 * i], v[2 * j - 1], v[2 * j]
    best = math.min(best, segmentDistance(px, py, x1, y1, x2, y2))
    local side = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)
    if side > 0 then pos = pos + 1 elseif side < 0 then neg = neg + 1 end
  end
  return (pos == 0 or neg == 0) and -best or best
end

-- ---- sat.explain ----------------------------------------------------------------------

describe("sat.explain", function()
  it("gives sat.collide's verdict and numbers, bit for bit, for every pair of kinds", function()
    local hits, apart = 0, 0
    eachPair(1717, function(a, b, what)
      local e, r = sat.explain(a, b), sat.collide(a, b)
      assert.are.equal(r ~= nil, e.hit, what)
      assert.are.equal(sat.test(a, b), e.hit, what)
      assert.are.equal(a, e.a)
      assert.are.equal(b, e.b)
      local axes = e.axes
      assert.is_true(#axes >= 1, what)
      if r then
        hits = hits + 1
        assert.are.equal(r.overlap, e.overlap, what)
        assert.are.equal(r.normal.x, e.normal.x, what)
        assert.are.equal(r.normal.y, e.normal.y, what)
        assert.is_true(e.containment >= 0 and e.containment <= e.overlap, what)
        if not r.aInB and not r.bInA then assert.are.equal(0, e.containment, what) end
        for _, ax in ipairs(axes) do assert.is_false(ax.separates, what) end
        -- the deciding axis is along the normal
        local d = axes[e.deciding]
        assert.is_near(1, math.abs(d.nx * r.normal.x + d.ny * r.normal.y), 1e-12)
      else
        apart = apart + 1
        assert.is_nil(e.overlap)
        assert.is_nil(e.normal)
        -- the first separating axis
        assert.is_true(axes[e.deciding].separates, what)
        for k = 1, e.deciding - 1 do assert.is_false(axes[k].separates, what) end
      end
      -- each axis's intervals give its overlap
      local tol = 1e-9 * (size(a) + size(b) + 200)
      for k, ax in ipairs(axes) do
        local got = math.min(ax.aMax - ax.bMin, ax.bMax - ax.aMin)
        assert.is_near(ax.overlap, got, tol, what .. " axis " .. k)
        assert.is_near(1, ax.nx * ax.nx + ax.ny * ax.ny, 1e-12)
        assert.is_truthy(ax.from == "a" or ax.from == "b")
        local owner = ax.from == "a" and a or b
        local feature, number = ax.feature:match("^(%a+) ?(%d*)$")
        if feature == "edge" or feature == "vertex" then
          assert.are.equal("polygon", owner:kind(), what)
          assert.is_true(tonumber(number) >= 1 and tonumber(number) <= #owner:vertices() / 2)
        elseif feature == "centre" then
          assert.are.equal("circle", owner:kind(), what)
        elseif feature == "endpoint" then
          assert.is_truthy(owner:kind() == "segment" or owner:kind() == "capsule", what)
          assert.is_truthy(number == "1" or number == "2", what)
        else
          assert.is_truthy(feature == "normal" or feature == "direction", what)
          assert.are.equal("", number)
        end
      end
      -- swapped: the same axes, from the other side
      local s = sat.explain(b, a)
      assert.are.equal(#axes, #s.axes, what)
      assert.are.equal(e.deciding, s.deciding, what)
      for k, ax in ipairs(axes) do
        local o = s.axes[k]
        assert.are.equal(ax.overlap, o.overlap)
        assert.are.equal(ax.feature, o.feature)
        assert.are_not.equal(ax.from, o.from)
      end
    end)
    assert.is_true(hits > (#KINDS) ^ 2 * PAIRS / 5 and apart > (#KINDS) ^ 2 * PAIRS / 5)
  end)

  it("lists every axis with its features, the separating ones marked, the first deciding", function()
    local e = sat.explain(sat.box(0, 0, 10, 10), sat.box(12, 2, 8, 4))
    assert.is_false(e.hit)
    assert.are.equal(8, #e.axes)
    assert.are.equal(2, e.deciding)
    assert.are.same({ nx = 1, ny = 0, from = "a", feature = "edge 2", aMin = 0, aMax = 10,
      bMin = 12, bMax = 20, overlap = -2, separates = true }, e.axes[2])
    assert.are.same({ nx = 0, ny = -1, from = "a", feature = "edge 1", aMin = -10, aMax = 0,
      bMin = -6, bMax = -2, overlap = 6, separates = false }, e.axes[1])
    assert.are.equal("b", e.axes[5].from)
    assert.are.equal("edge 1", e.axes[5].feature)
  end)

  it("names the axis through a circle and a polygon's vertex, and the one that gave the MTV", function()
    local e = sat.explain(sat.box(0, 0, 10, 10), sat.circle(13, 14, 6))
    assert.is_true(e.hit)
    assert.are.equal(5, #e.axes)
    assert.are.equal(5, e.deciding)
    local v = e.axes[5]
    assert.are.equal("vertex 3", v.feature) -- (10, 10), as vertices() lists it third
    assert.are.equal("a", v.from)
    assert.is_near(0.6, v.nx, 1e-15)
    assert.is_near(0.8, v.ny, 1e-15)
    assert.is_near(1, v.overlap, 1e-14)
    assert.is_near(1, e.overlap, 1e-14)
    assert.are.equal(e.overlap, v.overlap)
    local x, y = sat.box(0, 0, 10, 10):vertices()[5], sat.box(0, 0, 10, 10):vertices()[6]
    assert.are.same({ 10, 10 }, { x, y })
  end)

  it("gives a contained shape's extra distance to the nearer end", function()
    local e = sat.explain(sat.circle(5, 3, 1), sat.box(0, 0, 10, 10))
    assert.are.equal(4, e.overlap) -- out through the bottom: 3 + its radius
    assert.is_near(2, e.containment, 1e-14) -- beyond its width, 2
    assert.are.equal(0, sat.explain(sat.box(0, 0, 10, 10), sat.box(8, 2, 8, 4)).containment)
  end)

  it("explains segments and capsules by their normals, directions and closest ends", function()
    local e = sat.explain(sat.capsule(20, 0, 30, 0, 2), sat.capsule(16, -5, 16, 5, 1))
    local features = {}
    for k, ax in ipairs(e.axes) do features[k] = ax.from .. " " .. ax.feature end
    assert.are.same({ "b normal", "a normal", "b direction", "a direction", "a endpoint 1" },
      features)
    assert.are.equal(1, e.deciding)
    assert.is_near(-1, e.axes[5].overlap, 1e-14)
    local s = sat.explain(sat.segment(0, 0, 10, 0), sat.circle(12, 1, 1))
    assert.are.equal(1, #s.axes)
    assert.are.equal("a endpoint 2", s.axes[1].from .. " " .. s.axes[1].feature) -- (10, 0)
  end)

  it("prints as a small table", function()
    local text = tostring(sat.explain(sat.box(0, 0, 10, 10), sat.circle(13, 14, 6)))
    local lines = {}
    for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.are.equal(7, #lines)
    assert.are.equal("explanation(hit, overlap 1 along (0.6, 0.8), containment 0; axis 5 gives "
      .. "the MTV)", lines[1])
    has(lines[2], "from  feature")
    assert.is_truthy(lines[3]:find("^   1  a     edge 1      %(0, %-1%) +%[%-10, 0%] +%[%-20, %-8%] +2$"))
    assert.is_truthy(lines[7]:find("^>  5  a     vertex 3    %(0%.6, 0%.8%)"))
    local apart = tostring(sat.explain(sat.circle(0, 0, 1), sat.circle(5, 0, 1)))
    has(apart, "explanation(apart; axis 1 separates first)")
    has(apart, "-3         separates")
  end)

  it("prints every axis of two big polygons too (a text longer than Lua's string buffer)", function()
    local e = sat.explain(sat.polygon(support.ngon(64, 0, 0, 100)),
      sat.polygon(support.ngon(60, 150, 0, 100)))
    assert.are.equal(124, #e.axes)
    local text = tostring(e)
    local _, newlines = text:gsub("\n", "")
    assert.are.equal(1 + 124, newlines) -- the header, then a row per axis
    assert.is_true(#text > 8192)
    assert.is_truthy(text:find("\n 124  b     edge 60", 1, true))
  end)

  it("refuses what is not a shape", function()
    local STYLE = "^[^:]*explain_spec%.lua:%d+: bad argument #%d+ to '[%a]+' %(.+%)$"
    local p = sat.box(0, 0, 1, 1)
    for _, f in ipairs({
      function() local r = sat.explain(p) return r end,
      function() local r = sat.explain(1, p) return r end,
      function() local r = sat.contacts(p, {}) return r end,
      function() local r = sat.sweep(p, 1, 0) return r end,
      function() local r = sat.sweep(p, 1, 0 / 0, p) return r end,
      function() local r = sat.sweep(p, 1, 0, p, "x") return r end,
      function() local r = sat.sweep(p, 1e300, 0, p) return r end,
    }) do
      local msg = err(f)
      assert.is_truthy(msg:find(STYLE), msg)
    end
    has(err(function() local r = sat.explain(p) return r end),
      "bad argument #2 to 'explain' (shape expected, got no value)")
    has(err(function() local r = sat.contacts(p, {}) return r end),
      "bad argument #2 to 'contacts' (shape expected, got table)")
    has(err(function() local r = sat.sweep(p, 1, 0) return r end),
      "bad argument #4 to 'sweep' (shape expected, got no value)")
    has(err(function() local r = sat.sweep(p, 1, 0 / 0, p) return r end),
      "bad argument #3 to 'sweep' (finite number expected, got nan)")
    has(err(function() local r = sat.sweep(p, 1, 0, p, 2, "x") return r end),
      "bad argument #6 to 'sweep' (number expected, got string)")
    has(err(function() local r = sat.sweep(p, 1e300, 0, p) return r end),
      "bad argument #2 to 'sweep' (out of range")
  end)
end)

-- ---- sat.contacts ----------------------------------------------------------------------

describe("sat.contacts", function()
  it("puts the points inside both shapes when they overlap, on both surfaces when they touch", function()
    local overlapping, touching, two = 0, 0, 0
    eachPair(2929, function(a, b, what)
      local r = sat.collide(a, b)
      local n, x1, y1, x2, y2 = sat.contacts(a, b)
      if not r then
        assert.are.equal(0, n, what)
        assert.is_nil(x1)
        return
      end
      local band = 1e-9 * (size(a) + size(b))
      local function check(touch)
        n, x1, y1, x2, y2 = sat.contacts(a, b)
        assert.is_true(n == 1 or n == 2, what)
        local pts = { x1, y1, x2, y2 }
        for k = 1, n do
          local px, py = pts[2 * k - 1], pts[2 * k]
          local da, db = signedDistance(a, px, py), signedDistance(b, px, py)
          if touch then
            assert.is_true(math.abs(da) <= band and math.abs(db) <= band,
              ("%s touching: point %d at %g from a, %g from b"):format(what, k, da, db))
          else
            assert.is_true(da <= band and db <= band,
              ("%s overlapping: point %d at %g from a, %g from b"):format(what, k, da, db))
          end
        end
        -- the same points either way round
        local m, u1, v1, u2, v2 = sat.contacts(b, a)
        assert.are.same({ n, x1, y1, x2, y2 }, { m, u1, v1, u2, v2 })
        if n == 2 then two = two + 1 end
      end
      check(false)
      overlapping = overlapping + 1
      a:move(r.mtv.x, r.mtv.y)
      if sat.test(a, b) then
        check(true)
        touching = touching + 1
      end
    end)
    local total = (#KINDS) ^ 2 * PAIRS
    assert.is_true(overlapping > total / 5 and touching > total / 5 and two > total / 20)
  end)

  it("gives two points for faces, one for anything round", function()
    local floor = sat.box(0, 0, 10, 10)
    assert.are.same({ 2, 8, 9.5, 4, 9.5 }, { sat.contacts(floor, sat.box(4, 9, 4, 4)) })
    assert.are.same({ 2, 6, 10, 2, 10 }, { sat.contacts(floor, sat.capsule(2, 12, 6, 12, 2)) })
    local n, x, y = sat.contacts(floor, sat.circle(20, 5, 11))
    assert.are.same({ 1, 9.5, 5 }, { n, x, y })
    n, x, y = sat.contacts(sat.segment(-5, -5, 5, 5), sat.segment(-5, 5, 5, -5))
    assert.are.equal(1, n)
    assert.is_near(0, x, 1e-12)
    assert.is_near(0, y, 1e-12)
    assert.are.same({ 0 }, { sat.contacts(floor, sat.circle(30, 5, 1)) })
  end)

  it("allocates nothing", function()
    local a, b = sat.box(0, 0, 10, 10), sat.box(4, 9, 4, 4)
    local function calls()
      for _ = 1, 20000 do sat.contacts(a, b) end
    end
    calls() -- as the loop will run (LuaJIT compiles it: its traces are allocated)
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    calls()
    local after = collectgarbage("count")
    collectgarbage("restart")
    -- one allocation per call would be 16 bytes or more, 320 kb in all; under LuaJIT a side
    -- trace compiled meanwhile takes a few kb (seen up to 1.7)
    assert.is_true(after - before < 16, ("%.3f kb"):format(after - before))
  end)
end)

-- ---- sat.sweep ---------------------------------------------------------------------------

describe("sat.sweep", function()
  it("touches at t and does not overlap before, for every pair of kinds", function()
    local touches, overlapping = 0, 0
    eachPair(3131, function(a, b, what, R)
      local len, phi = R.range(0, 2.5) * (size(a) + size(b)), R.range(0, 2 * math.pi)
      local dx, dy = len * math.cos(phi), len * math.sin(phi)
      local t, nx, ny, px, py = sat.sweep(a, dx, dy, b)
      if not t then return end
      assert.is_near(1, nx * nx + ny * ny, 1e-12)
      local band = 1e-9 * (size(a) + size(b))
      local at = sat.collide(a, b)
      if at and at.overlap > 0 then
        -- overlapping at the start: t 0 and sat.collide's normal
        overlapping = overlapping + 1
        assert.are.same({ 0, at.normal.x, at.normal.y }, { t, nx, ny })
        assert.is_true(signedDistance(a, px, py) <= band and signedDistance(b, px, py) <= band)
        return
      end
      touches = touches + 1
      local x, y = a:position()
      a:moveTo(x + t * dx, y + t * dy)
      local r = sat.collide(a, b)
      assert.is_truthy(r, what .. ": not touching at t")
      assert.is_true(r.overlap <= band, what)
      assert.is_true(math.abs(signedDistance(a, px, py)) <= band, what)
      assert.is_true(math.abs(signedDistance(b, px, py)) <= band, what)
      -- the motion presses in along the normal
      assert.is_true(dx * nx + dy * ny > 0, what)
      if t > 1e-6 then
        local eps = 1e-6
        a:moveTo(x + (t - eps) * dx, y + (t - eps) * dy)
        local before = sat.collide(a, b)
        assert.is_true(before == nil or before.overlap == 0, what .. ": overlapping before t")
      end
    end)
    local total = (#KINDS) ^ 2 * PAIRS
    assert.is_true(touches > total / 20 and overlapping > total / 10)
  end)

  it("takes b's motion too: the same as a moving by the difference, the point moved along", function()
    local a, b = sat.box(0, 0, 10, 10), sat.box(50, -50, 10, 100)
    assert.are.same({ 0.4, 1, 0, 50, 5 }, { sat.sweep(a, 100, 0, b) })
    assert.are.same({ 0.2, 1, 0, 30, 5 }, { sat.sweep(a, 100, 0, b, -100, 0) })
    assert.is_nil(sat.sweep(a, 30, 0, b))
    assert.is_nil(sat.sweep(a, 100, 0, b, 100, 0))
    -- a circle onto a box's corner: the point is the corner
    local t, nx, ny, x, y = sat.sweep(sat.circle(-10, 20, 5), 20, -20, sat.box(0, 0, 10, 10))
    assert.is_near(0.5 - 5 / math.sqrt(2) / 20, t, 1e-12)
    assert.is_near(math.sqrt(0.5), nx, 1e-12)
    assert.is_near(-math.sqrt(0.5), ny, 1e-12)
    assert.is_near(0, x, 1e-12)
    assert.is_near(10, y, 1e-12)
  end)

  it_world("agrees with world:move's first hit", function()
    local R = support.rng(4242)
    local checked = 0
    for _ = 1, 200 do
      local ka, kb = KINDS[R.int(1, 4)], KINDS[R.int(1, 4)]
      local a, b = randomPair(R, ka, kb)
      local len, phi = R.range(0, 2.5) * (size(a) + size(b)), R.range(0, 2 * math.pi)
      local dx, dy = len * math.cos(phi), len * math.sin(phi)
      local t, nx, ny = sat.sweep(a, dx, dy, b)
      local world = sat.world(16)
      world:add(b, "static")
      world:add(a)
      local x0, y0 = a:position()
      local x, y, cols = world:move(a, dx, dy, function() return "touch" end)
      if t == nil then
        assert.are.equal(0, #cols)
        assert.is_near(x0 + dx, x, 1e-9 * (math.abs(x0) + len))
      else
        checked = checked + 1
        assert.are.equal(1, #cols)
        assert.are.equal(b, cols[1].b)
        assert.are.equal(nx, cols[1].normal.x)
        assert.are.equal(ny, cols[1].normal.y)
        if cols[1].overlap == 0 then -- met on the way: stopped where the sweep says
          local tol = 1e-9 * (size(a) + size(b) + len)
          assert.is_near(x0 + t * dx, cols[1].x, tol)
          assert.is_near(y0 + t * dy, cols[1].y, tol)
          assert.are.same({ cols[1].x, cols[1].y }, { x, y })
        else
          assert.are.equal(0, t)
        end
      end
    end
    assert.is_true(checked > 50)
  end)
end)

-- ---- the FFI path ------------------------------------------------------------------------

describe("sat.contacts and sat.sweep through the FFI", function()
  local jit = rawget(_G, "jit")
  local accelerated = type(jit) == "table" and jit.status() and true or false

  it("are the C functions unless LuaJIT's JIT is on, and answer as they do", function()
    local core = sat.core
    if not accelerated or not support.native then -- (the pure backend has no FFI path)
      assert.are.equal(core.contacts, sat.contacts)
      assert.are.equal(core.sweep, sat.sweep)
      return
    end
    assert.are_not.equal(core.contacts, sat.contacts)
    assert.are_not.equal(core.sweep, sat.sweep)
    local n = 0
    eachPair(5151, function(a, b, what, R)
      assert.are.same({ core.contacts(a, b) }, { sat.contacts(a, b) }, what)
      local dx, dy, bdx = R.range(-30, 30), R.range(-30, 30), R.range(-10, 10)
      assert.are.same({ core.sweep(a, dx, dy, b) }, { sat.sweep(a, dx, dy, b) }, what)
      assert.are.same({ core.sweep(a, dx, dy, b, bdx) }, { sat.sweep(a, dx, dy, b, bdx) }, what)
      assert.are.same({ core.sweep(a, dx, dy, b, bdx, 1) }, { sat.sweep(a, dx, dy, b, bdx, 1) })
      n = n + 1
    end)
    assert.are.equal((#KINDS) ^ 2 * PAIRS, n)
  end)

  it("leave what they do not take to the C functions: the same answers, the same errors", function()
    local p, q = sat.box(0, 0, 10, 10), sat.box(20, 0, 10, 10)
    -- strings that read as numbers, as the C API reads them
    assert.are.same({ sat.core.sweep(p, 20, 0, q) }, { sat.sweep(p, "20", 0, q) })
    has(err(function() local r = sat.sweep(p, 1e300, 0, q) return r end),
      "bad argument #2 to 'sweep' (out of range")
    has(err(function() local r = sat.sweep(p, 1, 0, q, 0 / 0) return r end),
      "bad argument #5 to 'sweep' (finite number expected, got nan)")
    has(err(function() local r = sat.contacts(p, sat.vec(1, 2)) return r end),
      "bad argument #2 to 'contacts' (shape expected, got vec)")
    -- a shape's own fields and metatable change nothing
    q.tag = "wall"
    assert.are.same({ 2, 10, 0, 10, 10 }, { sat.contacts(p, sat.box(10, 0, 10, 10)) })
    assert.are.same({ sat.core.contacts(p, q) }, { sat.contacts(p, q) })
  end)
end)
