-- Shapes: constructors, transforms, queries, fields, clone and tostring.
local sat = require("sat")

local support = require("spec.support")
local err, has = support.err, support.has
local it_world = support.needs(it, pending, "world")
local it_compound = support.needs(it, pending, "compound")

local function pos(s, x, y, tol)
  local px, py = s:position()
  assert.is_near(x, px, tol or 1e-12)
  assert.is_near(y, py, tol or 1e-12)
end

local function bbox(s, x1, y1, x2, y2, tol)
  tol = tol or 1e-12
  local a, b, c, d = s:bbox()
  assert.is_near(x1, a, tol)
  assert.is_near(y1, b, tol)
  assert.is_near(x2, c, tol)
  assert.is_near(y2, d, tol)
end

local ngon = support.ngon

describe("sat.circle", function()
  it("is centred at (x, y) with radius r", function()
    local c = sat.circle(3, 4, 2)
    pos(c, 3, 4)
    assert.are.equal(2, c:radius())
    assert.are.equal("circle", c:kind())
    assert.is_true(sat.isShape(c))
    assert.is_near(math.pi * 4, c:area(), 1e-12)
    bbox(c, 1, 2, 5, 6)
  end)

  it("contains its inside and boundary, not its outside", function()
    local c = sat.circle(0, 0, 1)
    assert.is_true(c:contains(0.5, 0.5))
    assert.is_true(c:contains(1, 0))
    assert.is_true(c:contains(0, -1))
    assert.is_false(c:contains(0.8, 0.8))
    assert.is_false(c:contains(1.001, 0))
  end)

  it("setRadius changes the world radius", function()
    local c = sat.circle(0, 0, 1)
    assert.are.equal(c, c:setRadius(3))
    assert.are.equal(3, c:radius())
    bbox(c, -3, -3, 3, 3)
    c:setRadius(0)
    assert.are.equal(0, c:radius())
  end)

  it("prints its radius and centre", function()
    assert.are.equal("circle(r 5 at 1, 2)", tostring(sat.circle(1, 2, 5)))
    assert.are.equal("circle(r 0.5 at -0.25, 1000000000)", tostring(sat.circle(-0.25, 1e9, 0.5)))
  end)

  it("has no polygon methods", function()
    assert.is_nil(sat.circle(0, 0, 1).vertices)
  end)
end)

describe("sat.point", function()
  it("is a circle of radius 0", function()
    local p = sat.point(2, -3)
    assert.are.equal("circle", p:kind())
    assert.are.equal(0, p:radius())
    assert.are.equal(0, p:area())
    pos(p, 2, -3)
    assert.is_true(p:contains(2, -3))
    assert.is_false(p:contains(2.001, -3))
    bbox(p, 2, -3, 2, -3)
  end)
end)

describe("sat.polygon", function()
  it("takes x1, y1, x2, y2, ... and sits at its centroid", function()
    local t = sat.polygon(0, 0, 3, 0, 0, 3)
    assert.are.equal("polygon", t:kind())
    pos(t, 1, 1)
    assert.is_near(4.5, t:area(), 1e-12)
    bbox(t, 0, 0, 3, 3)
  end)

  it("takes one flat table", function()
    local t = sat.polygon({ 0, 0, 4, 0, 4, 2, 0, 2 })
    pos(t, 2, 1)
    assert.is_near(8, t:area(), 1e-12)
  end)

  it("takes one table of vecs", function()
    local v = sat.vec
    local t = sat.polygon({ v(0, 0), v(4, 0), v(4, 2), v(0, 2) })
    pos(t, 2, 1)
    assert.is_near(8, t:area(), 1e-12)
  end)

  it("accepts both windings with the same result", function()
    local ccw = sat.polygon(0, 0, 2, 0, 2, 1, 0, 1)
    local cw = sat.polygon(0, 0, 0, 1, 2, 1, 2, 0)
    assert.is_near(ccw:area(), cw:area(), 1e-12)
    assert.is_near(2, cw:area(), 1e-12)
    pos(cw, 1, 0.5)
    for _, p in ipairs({ { 1, 0.5 }, { 0, 0 }, { 2, 1 }, { 2.1, 0.5 }, { 1, -0.1 } }) do
      assert.are.equal(ccw:contains(p[1], p[2]), cw:contains(p[1], p[2]))
    end
  end)

  it("merges duplicate points and drops collinear ones", function()
    local s = sat.polygon(0, 0, 1, 0, 2, 0, 2, 0, 2, 2, 0, 2)
    assert.are.equal(8, #s:vertices())
    assert.are.equal("polygon(4 vertices at 1, 1)", tostring(s))
  end)

  it("works with 64 vertices and more", function()
    local p = sat.polygon(ngon(64, 10, 20, 5))
    assert.are.equal(128, #p:vertices())
    pos(p, 10, 20, 1e-12)
    -- area of a regular 64-gon of circumradius 5
    assert.is_near(0.5 * 64 * 25 * math.sin(2 * math.pi / 64), p:area(), 1e-9)
    local big = sat.polygon(ngon(1000, 0, 0, 100, true))
    assert.are.equal(2000, #big:vertices())
  end)

  it("vertices() returns world coordinates ready for love.graphics.polygon", function()
    local s = sat.polygon(0, 0, 2, 0, 2, 2, 0, 2)
    local v = s:vertices()
    assert.are.equal(8, #v)
    -- the same corners, whatever the first one
    local corners = {}
    for i = 1, #v, 2 do corners[("%g,%g"):format(v[i], v[i + 1])] = true end
    assert.are.same({ ["0,0"] = true, ["2,0"] = true, ["2,2"] = true, ["0,2"] = true }, corners)
    s:move(10, 0)
    local w = s:vertices()
    for i = 1, #v, 2 do
      assert.is_near(v[i] + 10, w[i], 1e-12)
      assert.is_near(v[i + 1], w[i + 1], 1e-12)
    end
  end)

  it("vertices(t) fills t, trimming what was there beyond", function()
    local s = sat.box(0, 0, 1, 1)
    local t = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }
    assert.are.equal(t, s:vertices(t))
    assert.are.equal(8, #t)
    assert.is_nil(t[9])
  end)

  it("has no circle methods", function()
    local s = sat.box(0, 0, 1, 1)
    assert.is_nil(s.radius)
    assert.is_nil(s.setRadius)
  end)

  it("prints its vertex count and position", function()
    assert.are.equal("polygon(4 vertices at 10, 20)", tostring(sat.box(9, 19, 2, 2)))
    assert.are.equal("polygon(3 vertices at 1, 1)", tostring(sat.polygon(0, 0, 3, 0, 0, 3)))
  end)
end)

describe("sat.box", function()
  it("is given by its top-left corner and size", function()
    local b = sat.box(10, 20, 4, 2)
    assert.are.equal("polygon", b:kind())
    pos(b, 12, 21)
    bbox(b, 10, 20, 14, 22)
    assert.is_near(8, b:area(), 1e-12)
  end)
end)

describe("shape transforms", function()
  it("moveTo and move change the position and return the shape", function()
    local s = sat.box(0, 0, 2, 2)
    assert.are.equal(s, s:moveTo(10, 10))
    pos(s, 10, 10)
    bbox(s, 9, 9, 11, 11)
    assert.are.equal(s, s:move(-1, 2))
    pos(s, 9, 12)
    local c = sat.circle(0, 0, 1):moveTo(5, 5):move(1, 1)
    pos(c, 6, 6)
  end)

  it("setRotation and rotate turn about the position", function()
    local s = sat.box(0, 0, 4, 2)
    assert.are.equal(0, s:rotation())
    assert.are.equal(s, s:setRotation(math.pi / 2))
    assert.is_near(math.pi / 2, s:rotation(), 1e-15)
    pos(s, 2, 1)
    bbox(s, 1, -1, 3, 3)
    assert.are.equal(s, s:rotate(math.pi / 2))
    assert.is_near(math.pi, s:rotation(), 1e-15)
    bbox(s, 0, 0, 4, 2)
    s:setRotation(0)
    bbox(s, 0, 0, 4, 2)
  end)

  it("rotation of a circle is kept even if it changes nothing else", function()
    local c = sat.circle(1, 1, 1)
    c:setRotation(1)
    assert.is_near(1, c:rotation(), 1e-15)
    bbox(c, 0, 0, 2, 2)
  end)

  it("scale multiplies the size about the position", function()
    local s = sat.box(0, 0, 2, 2)
    assert.are.equal(s, s:scale(2))
    pos(s, 1, 1)
    bbox(s, -1, -1, 3, 3)
    assert.is_near(16, s:area(), 1e-12)
    s:scale(0.25)
    bbox(s, 0.5, 0.5, 1.5, 1.5)
    local c = sat.circle(0, 0, 1)
    c:scale(3)
    assert.is_near(3, c:radius(), 1e-15)
  end)

  it("contains uses world coordinates after any transform", function()
    local s = sat.box(0, 0, 4, 1)
    assert.is_false(s:contains(2, 2))
    s:setRotation(math.pi / 2)
    assert.is_true(s:contains(2, 2))
    s:move(100, 0)
    assert.is_true(s:contains(102, 2))
  end)
end)

describe("shape:raycast", function()
  it("returns the entry fraction and the surface normal", function()
    local b = sat.box(0, 0, 1, 1)
    local t, nx, ny = b:raycast(-1, 0.5, 2, 0.5)
    assert.is_near(1 / 3, t, 1e-12)
    assert.is_near(-1, nx, 1e-12)
    assert.is_near(0, ny, 1e-12)
    local c = sat.circle(0, 0, 1)
    t, nx, ny = c:raycast(0, 5, 0, -5)
    assert.is_near(0.4, t, 1e-12)
    assert.is_near(0, nx, 1e-12)
    assert.is_near(1, ny, 1e-12)
  end)

  it("returns nil on a miss, also a segment that stops short", function()
    local b = sat.box(0, 0, 1, 1)
    assert.is_nil(b:raycast(-1, 5, 2, 5))
    assert.is_nil(b:raycast(-3, 0.5, -1, 0.5))
    assert.is_nil(sat.circle(0, 0, 1):raycast(2, 2, 3, 3))
  end)

  it("hits at t = 0 from inside", function()
    local t = sat.box(0, 0, 1, 1):raycast(0.5, 0.25, 2, 0.25)
    assert.are.equal(0, t)
    assert.are.equal(0, (sat.circle(0, 0, 1):raycast(0, 0, 3, 0)))
  end)
end)

describe("shape:clone", function()
  it("copies geometry, transform and fields into an independent shape", function()
    local a = sat.box(0, 0, 2, 2)
    a:setRotation(0.5)
    a:scale(2)
    a.tag = "wall"
    a.category = 4
    local b = a:clone()
    assert.are_not.equal(a, b)
    assert.are.equal("polygon", b:kind())
    assert.are.equal(a:rotation(), b:rotation())
    assert.are.same(a:vertices(), b:vertices())
    assert.are.equal("wall", b.tag)
    assert.are.equal(4, b.category)
    b:move(5, 0)
    b.tag = "copy"
    pos(a, 1, 1)
    assert.are.equal("wall", a.tag)
    local c = sat.circle(1, 2, 3):clone()
    assert.are.equal(3, c:radius())
    pos(c, 1, 2)
    assert.is_nil(c.tag)
  end)
end)

describe("shape fields", function()
  it("take arbitrary Lua values, per shape", function()
    local a, b = sat.circle(0, 0, 1), sat.box(0, 0, 1, 1)
    assert.is_nil(a.tag)
    a.tag = "enemy"
    a[1] = "one"
    a[a] = true
    local f = function() return 1 end
    b.onEnter = f
    assert.are.equal("enemy", a.tag)
    assert.are.equal("one", a[1])
    assert.is_true(a[a])
    assert.is_nil(b.tag)
    assert.are.equal(f, b.onEnter)
    a.tag = nil
    assert.is_nil(a.tag)
    b.nothing = nil
    assert.is_nil(b.nothing)
  end)

  it("never shadow methods: writing a method's name is an error", function()
    local a = sat.box(0, 0, 1, 1)
    has(err(function() a.move = 1 end), "cannot set field 'move' of a polygon: 'move' is a method")
    has(err(function() sat.circle(0, 0, 1).radius = 2 end), "'radius' is a method")
    assert.are.equal("function", type(a.move))
    -- a name that is a method of the other kind only is a free field
    a.radius = 5
    assert.are.equal(5, a.radius)
  end)

  it("category and mask default to 1 and all bits", function()
    local s = sat.circle(0, 0, 1)
    assert.are.equal(1, s.category)
    assert.are.equal(0xFFFFFFFF, s.mask)
  end)

  it("category and mask keep the low 32 bits, read back non-negative", function()
    local s = sat.circle(0, 0, 1)
    s.category = 6
    assert.are.equal(6, s.category)
    s.mask = -2 -- LuaJIT's bit.bnot(1)
    assert.are.equal(0xFFFFFFFE, s.mask)
    s.mask = -1
    assert.are.equal(0xFFFFFFFF, s.mask)
    s.category = 2 ^ 32 + 5
    assert.are.equal(5, s.category)
    s.category = 2 ^ 31
    assert.are.equal(2 ^ 31, s.category)
    s.category = 0
    assert.are.equal(0, s.category)
  end)

  it("category and mask refuse non-integers and leave the value", function()
    local s = sat.circle(0, 0, 1)
    s.mask = 12
    has(err(function() s.mask = 1.5 end),
      "bad value for field 'mask' (integer expected, got non-integer number)")
    has(err(function() s.category = "x" end),
      "bad value for field 'category' (integer expected, got string)")
    has(err(function() s.category = nil end), "integer expected, got nil")
    has(err(function() s.category = 0 / 0 end), "integer expected")
    assert.are.equal(12, s.mask)
    assert.are.equal(1, s.category)
  end)

  it_world("read the same with other fields or without, and the world filters on what was written",
    function()
      local a, b = sat.box(0, 0, 2, 2), sat.circle(1, 1, 1)
      a.tag = "crate"
      assert.are.equal(1, a.category)
      assert.are.equal(0xFFFFFFFF, a.mask)
      b.mask = 5
      assert.is_nil(b.tag)
      a.category = 2 -- not in b's mask
      assert.are.equal(2, a.category)
      assert.are.equal("crate", a.tag)
      local world = sat.world()
      world:add(a)
      world:add(b)
      assert.are.equal(0, #world:collisions(a))
      a.category = 4
      assert.are.equal(1, #world:collisions(a))
      a.tag = nil
      assert.are.equal(4, a.category)
      assert.are.equal(5, b.mask)
    end)

  it("leave a shape what it was: its kind in messages and tostring, its methods", function()
    local p, c = sat.box(0, 0, 1, 1), sat.circle(0, 0, 1)
    p.tag, c.tag = "p", "c"
    assert.are.equal("polygon(4 vertices at 0.5, 0.5)", tostring(p))
    assert.are.equal("circle(r 1 at 0, 0)", tostring(c))
    assert.are.equal("sat.polygon", getmetatable(p)) -- protected, as the kind's
    assert.are.equal("sat.circle", getmetatable(c))
    has(err(function() return sat.vec(1, 2):dot(p) end), "vec expected, got polygon")
    has(err(function() p.scale = 1 end), "'scale' is a method")
    has(err(function() p.category = {} end), "integer expected, got table")
    assert.is_true(sat.test(p, c))
    assert.are.equal(p, p:moveTo(3, 3))
    assert.is_false((p:collidesWith(c)))
    assert.are.equal(1, c:radius())
    assert.is_nil(c.vertices)
  end)

  -- A key is found by table lookups alone (no __index function): no call at all, seen by a
  -- call hook, for fields, methods, and category and mask.
  do
    it("are found with no function call", function()
      local plain, tagged = sat.box(0, 0, 1, 1), sat.circle(0, 0, 1)
      tagged.tag = "t"
      tagged.mask = 3
      local calls, found, shapes, sethook = 0, {}, { plain, tagged }, debug.sethook
      -- no global in between: busted's environment looks globals up with a function
      sethook(function() calls = calls + 1 end, "c")
      for i = 1, 2 do
        local s = shapes[i]
        found[#found + 1] = s.tag or false
        found[#found + 1] = s.category
        found[#found + 1] = s.mask
        found[#found + 1] = s.position ~= nil
        found[#found + 1] = s.nothing or false
      end
      sethook()
      assert.are.equal(1, calls) -- the call that removes the hook
      assert.are.same({ false, 1, 0xFFFFFFFF, true, false, "t", 1, 3, true, false }, found)
    end)
  end
end)

describe("polygons keep no local points apart until they turn or scale (issue 19)", function()
  -- A polygon is built lean: while its rotation is 0 and its scale 1, its offsets are its
  -- local points; its first turn or scale gives it a block for them, kept alive by the
  -- shape alone.
  local function turned(x, y, w, h, angle, factor)
    local b = sat.box(x, y, w, h)
    b:setRotation(angle)
    if factor then
      b:scale(factor)
    end
    return b
  end

  it("a box turned and scaled, then back, has the geometry it was built with", function()
    local b = sat.box(1.5, 2.25, 3.1, 4.7)
    local v0, area = b:vertices(), b:area()
    b:rotate(0.8)
    assert.are_not.same(v0, b:vertices())
    b:scale(2)
    b:rotate(-0.8)
    b:scale(0.5)
    assert.are.equal(0, b:rotation())
    assert.are.same(v0, b:vertices())
    assert.are.equal(area, b:area())
    assert.is_true(sat.test(b, sat.box(1.5, 2.25, 3.1, 4.7)))
  end)

  it("turns as a shape turned from the start does, to the bit", function()
    local b = sat.box(-3, 7, 2.5, 1.25)
    b:rotate(0.3)
    b:rotate(0.4)
    local c = turned(-3, 7, 2.5, 1.25, 0.3 + 0.4)
    assert.are.same(c:vertices(), b:vertices())
    b:scale(3)
    c:scale(3)
    assert.are.same(c:vertices(), b:vertices())
    assert.are.equal(c:area(), b:area())
  end)

  it("rotation 0 (either zero) and scale 1 change nothing", function()
    local b = sat.polygon(0, 0, 3, 0.5, 2, 2.5, -0.5, 1.5)
    local v0 = b:vertices()
    b:setRotation(0)
    b:setRotation(-0.0)
    b:rotate(0)
    b:scale(1)
    b:scale(1, 1)
    assert.are.same(v0, b:vertices())
  end)

  it("a clone is independent of its source, turned or not", function()
    local a = turned(0, 0, 4, 2, 0.5)
    local c = a:clone()
    assert.are.same(a:vertices(), c:vertices())
    a:rotate(0.5)
    assert.are.same(turned(0, 0, 4, 2, 0.5):vertices(), c:vertices())
    c:scale(2)
    assert.are.same(turned(0, 0, 4, 2, 1.0):vertices(), a:vertices())
    -- a clone of a shape that never turned: each gets its own block when it turns
    local p = sat.box(0, 0, 4, 2)
    local q = p:clone()
    q:rotate(1)
    assert.are.same(sat.box(0, 0, 4, 2):vertices(), p:vertices())
    p:rotate(-1)
    assert.are.same(turned(0, 0, 4, 2, 1):vertices(), q:vertices())
    assert.are.same(turned(0, 0, 4, 2, -1):vertices(), p:vertices())
  end)

  it("the block lives as long as the shape, across collections", function()
    local boxes = {}
    for i = 1, 200 do
      boxes[i] = sat.box(i, 0, 1 + i / 100, 1)
      boxes[i]:rotate(i / 50)
      if i % 2 == 0 then
        boxes[i] = nil -- garbage, block and all
      end
    end
    local junk = {}
    for round = 1, 3 do
      for k = 1, 2000 do
        junk[k] = { k, round } -- the old ones garbage
      end
      collectgarbage()
      collectgarbage()
    end
    assert.are.equal(3, junk[1][2])
    for i = 1, 200, 2 do
      local b = boxes[i]
      b:rotate(0.25) -- reads its block
      assert.are.same(turned(i, 0, 1 + i / 100, 1, i / 50 + 0.25):vertices(), b:vertices())
    end
  end)

  it("is not seen in the shape: no fields, the same metatable", function()
    local b = sat.box(0, 0, 1, 1)
    local mt = getmetatable(b)
    b:rotate(1)
    assert.are.equal(mt, getmetatable(b))
    b.tag = "x"
    local c = b:clone()
    assert.are.equal("x", c.tag)
    c:rotate(1)
    assert.are.same(turned(0, 0, 1, 1, 2):vertices(), c:vertices())
    assert.are.same(turned(0, 0, 1, 1, 1):vertices(), b:vertices())
  end)

  it_compound("a compound's parts turn as the shapes they were made of", function()
    local b = sat.box(1, 1, 3, 2)
    local r = turned(5, 0, 1, 2, 0.4) -- given its block
    local c = sat.compound({ b, r })
    local d = sat.compound({ b:clone(), r:clone() })
    c:rotate(0.9)
    c:scale(1.5)
    d:rotate(0.9)
    d:scale(1.5)
    local cp, dp = c:parts(), d:parts()
    for i = 1, 2 do
      assert.are.same(dp[i]:vertices(), cp[i]:vertices())
    end
    -- a compound of one box turns exactly as the box does
    local one = sat.compound({ sat.box(2, 3, 4, 1) })
    one:rotate(0.6)
    assert.are.same(turned(2, 3, 4, 1, 0.6):vertices(), one:parts()[1]:vertices())
    -- and the parts copied out turn on their own
    local part = one:parts()[1]
    part:rotate(-0.6)
    assert.are.same(sat.box(2, 3, 4, 1):vertices(), part:vertices())
  end)

  it("a first turn that runs out of memory leaves the shape as it was", function()
    local found, failalloc = pcall(require, "failalloc")
    if not found then
      error("the failalloc helper is missing: make test-helpers")
    end
    local jit = rawget(_G, "jit")
    local jitWasOn = require("spec.support").compilerOn()
    local done = false
    for n = 1, 10 do
      local b = sat.box(0, 0, 3, 1)
      if jitWasOn then
        jit.off()
        jit.flush()
      end
      local ok, e, refused = failalloc.pcall(n, b.rotate, b, 1)
      if jitWasOn then
        jit.on()
      end
      if refused == 0 then
        assert.is_true(ok)
        assert.are.same(turned(0, 0, 3, 1, 1):vertices(), b:vertices())
        done = true
        break
      end
      assert.is_false(ok)
      assert.is_truthy(tostring(e):find("memory", 1, true))
      assert.are.equal(0, b:rotation())
      assert.are.same(sat.box(0, 0, 3, 1):vertices(), b:vertices())
      b:rotate(1) -- and it turns once memory is there
      assert.are.same(turned(0, 0, 3, 1, 1):vertices(), b:vertices())
    end
    assert.is_true(done)
  end)
end)
