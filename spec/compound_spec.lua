-- Compounds (sat.concave, sat.compound, sat.chain) in every layer: constructors and their
-- errors, methods, the union's MTV worked out by hand (both orders), shapes driven along
-- concave floors and chains (no sideways push at a seam or a joint), the FFI path (LuaJIT),
-- and the world: one member, static or dynamic, world:move sliding along concave walls and
-- chains, queries. Coordinates as in LÖVE (y down), though nothing depends on it.
local sat = require("sat")
local support = require("spec.support")
local err, has = support.err, support.has

-- "bad argument #n to 'fname' (text": Lua 5.4 names a field function 'sat.fname', LuaJIT
-- one called by pcall '?'.
local function badarg(msg, n, fname, text)
  has(msg, ("bad argument #%d to '"):format(n))
  has(msg, "' (" .. (text or ""))
  assert.is_truthy(msg:find("'?'", 1, true) or msg:find("'" .. fname .. "'", 1, true)
    or msg:find("." .. fname .. "'", 1, true), msg)
end

local near, pair = support.near, support.pair
-- on the pure backend, pending until its compounds land (and its world, for the world's)
local it = support.needs(it, pending, "compound")

local function list(...)
  return { ... }
end

-- A floor 200 wide, top at y = 100 (y down), with two pits and a bump below its top: a
-- concave outline whose parts meet in seams under the top.
local function floor_outline()
  return { 0, 100, 200, 100, 200, 160, 150, 160, 150, 130, 130, 130, 130, 160,
    70, 160, 70, 120, 50, 120, 50, 160, 0, 160 }
end

describe("sat.concave", function()
  it("takes polygon's argument forms, either winding, and decomposes into few convex parts", function()
    local L = sat.concave(0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4)
    assert.are.equal("compound", L:kind())
    assert.are.equal(2, #L:parts())
    near(7, L:area())
    near(9.5 / 7, select(1, L:position()))
    local cw = sat.concave({ 0, 4, 1, 4, 1, 1, 4, 1, 4, 0, 0, 0 })
    near(7, cw:area())
    local xy, vecs = { 0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4 }, {}
    for i = 1, #xy, 2 do
      vecs[#vecs + 1] = sat.vec(xy[i], xy[i + 1])
    end
    near(7, sat.concave(vecs):area())
    local f = sat.concave(floor_outline())
    -- 12 points, 3 notches: at most 4 times the fewest parts (4 here)
    assert.is_true(#f:parts() <= 8, #f:parts() .. " parts")
    near(200 * 60 - 20 * 40 - 20 * 30, f:area(), 1e-9)
    -- convex outlines are accepted (one part)
    assert.are.equal(1, #sat.concave(0, 0, 1, 0, 1, 1):parts())
  end)

  it("keeps collinear runs, spikes and near-degenerate notches from failing", function()
    local runs = sat.concave(0, 0, 1, 0, 2, 0, 3, 0, 3, 1, 2, 1, 1, 1, 1, 2, 0, 2)
    near(3 + 1, runs:area())
    local spike = sat.concave(0, 0, 4, 0, 4, 4, 2, 4, 2, 8, 2, 4, 0, 4)
    near(16, spike:area())
    local notch = sat.concave(0, 0, 4, 0, 4, 4, 2.000001, 4, 2, 3.9999, 1.999999, 4, 0, 4)
    near(16, notch:area(), 1e-6)
  end)

  it("refuses a self-crossing or self-touching outline, saying so", function()
    badarg(err(sat.concave, 0, 0, 4, 4, 4, 0, 0, 4), 1, "concave", "outline crosses itself)")
    badarg(err(sat.concave, { 0, 0, 4, 0, 4, 4, 2, 0, 0, 4 }), 1, "concave", "outline touches itself)")
    badarg(err(sat.concave, 0, 0, 1, 1), 1, "concave")
    badarg(err(sat.concave, 0, 0, 1, 0 / 0, 2, 2), 4, "concave")
    badarg(err(sat.concave, {}), 1, "concave")
  end)

  it("is what sat.polygon's error on a concave outline points to", function()
    badarg(err(sat.polygon, 0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4), 1, "polygon",
      "points are not convex (sat.concave takes a concave outline))")
  end)

  it("returns its outline from vertices() and copies of its parts from parts()", function()
    local L = sat.concave(10, 10, 14, 10, 14, 11, 11, 11, 11, 14, 10, 14)
    local v = L:vertices()
    assert.are.equal(12, #v)
    near(14, v[3])
    near(10, v[4])
    L:move(5, 0)
    v = L:vertices({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 })
    assert.are.equal(12, #v)
    near(19, v[3])
    local parts = L:parts()
    local area = 0
    for _, p in ipairs(parts) do
      assert.are.equal("polygon", p:kind())
      area = area + p:area()
    end
    near(7, area)
    parts[1]:move(100, 100) -- a copy: the compound stays
    near(7, L:area())
    assert.is_true(L:contains(15.5, 10.5))
  end)

  it("says what it is", function()
    local L = sat.concave(0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4)
    assert.are.equal("compound(concave, 2 parts at 1.3571428571429, 1.3571428571429)", tostring(L))
    assert.are.equal("compound(chain, 2 parts at 10, 2.5)", tostring(sat.chain({ 0, 0, 10, 0, 10, 10 }))
      :gsub("at [%d.]+, [%d.]+", "at 10, 2.5"))
  end)
end)

describe("sat.compound", function()
  it("copies shapes of every kind into one rigid shape at their area centroid", function()
    local a, b = sat.box(0, 0, 2, 2), sat.box(4, 0, 2, 2)
    local c = sat.compound({ a, b, sat.segment(0, 5, 6, 5) })
    assert.are.equal("compound", c:kind())
    assert.are.same({ 3, 1 }, list(c:position()))
    assert.are.same({ 0, 0, 6, 5 }, list(c:bbox()))
    a:move(100, 0) -- the originals stay independent
    assert.is_true(c:contains(1, 1))
    c:rotate(math.pi, 3, 1)
    near(5, select(1, c:parts()[1]:position()))
    c:scale(2)
    near(16, c:parts()[1]:area())
    badarg(err(sat.compound, {}), 1, "compound", "no parts")
    badarg(err(sat.compound, { a, 1 }), 1, "compound", "shape expected at index 2, got number)")
    badarg(err(sat.compound, 1), 1, "compound")
    -- a compound among the parts gives its own parts
    assert.are.equal(4, #sat.compound({ c, sat.circle(0, 0, 1) }):parts())
  end)

  it("takes fields, category and mask, and clones with them", function()
    local c = sat.compound({ sat.box(0, 0, 1, 1), sat.circle(3, 0, 1) })
    assert.are.equal(1, c.category)
    c.tag = "rock"
    c.category = 4
    local d = c:clone()
    assert.are.equal("rock", d.tag)
    assert.are.equal(4, d.category)
    assert.are_not.equal(c, d)
    has(err(function() c.parts = 1 end), "'parts' is a method")
  end)
end)

describe("sat.chain", function()
  it("is a polyline of segments at its length centroid, open or closed", function()
    local ch = sat.chain({ 0, 0, 4, 0, 4, 2 })
    assert.are.equal(2, #ch:parts())
    assert.are.equal("segment", ch:parts()[1]:kind())
    near(16 / 6, select(1, ch:position()))
    assert.are.equal(3, #sat.chain({ 0, 0, 4, 0, 4, 2 }, true):parts())
    -- a closed chain given its first point again at the end; points closer than 1e-9 of the
    -- size merged
    assert.are.equal(4, #sat.chain({ 0, 0, 10, 0, 10, 10, 0, 10, 0, 0 }, true):parts())
    assert.are.equal(1, #sat.chain({ 0, 0, 1e-12, 0, 10, 0 }):parts())
    local vecs = sat.chain({ sat.vec(0, 0), sat.vec(1, 1) })
    assert.are.equal(1, #vecs:parts())
    badarg(err(sat.chain, { 0, 0 }), 1, "chain", "needs at least 2 distinct points)")
    badarg(err(sat.chain, { 0, 0, 1 }), 1, "chain")
    badarg(err(sat.chain, { 0, 0, 1, 1 }, 1), 2, "chain", "boolean or nil expected, got number)")
  end)
end)

describe("a compound's MTV", function()
  it("is the union's, not the deepest part's nor a per-axis maximum", function()
    local two = sat.compound({ sat.box(0, 0, 5, 2), sat.box(5, 0, 5, 2) })
    -- straddling the seam: each part alone would push it out sideways
    pair(sat.box(3, -0.5, 4, 1), two, 0.5, 0, 1)
    pair(sat.circle(5, -0.5, 1), two, 0.5, 0, 1)
    -- sunk 6 into a floor of tiles 4 wide: every tile alone would push it out sideways by
    -- at most 4, the union only straight up by 6
    local tiles = {}
    for i = 0, 9 do tiles[#tiles + 1] = sat.box(4 * i, 10, 4, 10) end
    local floor = sat.compound(tiles)
    for x = 3, 25, 0.5 do
      pair(sat.box(x, 6, 10, 10), floor, 6, 0, 1, 1e-12)
    end
    -- an L's inner corner: out diagonally
    local L = sat.concave(0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4)
    local r = pair(sat.box(0.5, 0.5, 1, 1), L, math.sqrt(0.5), -math.sqrt(0.5), -math.sqrt(0.5))
    assert.is_false(r.aInB)
    -- inside the outline across a seam: in it
    r = pair(sat.box(0.2, 0.2, 0.6, 0.6), L, 0.8, nil, nil)
    assert.is_true(r.aInB)
    assert.is_false(r.bInA)
    -- apart and touching
    assert.is_nil(sat.collide(sat.box(2, 2, 1, 1), L))
    assert.is_false(sat.test(sat.box(2, 2, 1, 1), L))
    local t = assert(sat.collide(sat.box(1, 1, 1, 1), L))
    assert.are.equal(0, t.overlap)
    assert.is_true(sat.test(L, sat.box(1, 1, 1, 1)))
  end)

  it("is the same far from the origin", function()
    local L = sat.concave(0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4)
    local b = sat.box(0.5, 0.5, 1, 1)
    local r = sat.collide(b, L)
    L:move(1e9, -1e9)
    b:move(1e9, -1e9)
    local f = sat.collide(b, L)
    near(r.overlap, f.overlap, 1e-9)
    near(r.normal.x, f.normal.x, 1e-9)
  end)

  it("judges each part pair at its own scale, however far apart the parts are", function()
    -- libFuzzer's finding: two circles of radius 2.2e-308 1e15 apart (the whole compound's
    -- touch tolerance is about 1e3) against a point 8.8e-280 from one of them, a gap 4e27
    -- times its radius: apart, no contact (it was touching with no contact point)
    local m = 2.2250738585072014e-308
    local c = sat.compound({ sat.circle(1e15, 2032, m), sat.circle(0, 0, m) })
    local pt = sat.circle(m, 8.7694909019891829e-280, 0)
    assert.is_false(sat.test(c, pt))
    assert.is_nil(sat.collide(pt, c))
    assert.are.equal(0, sat.contacts(c, pt))
    assert.are.equal(0, sat.contacts(pt, c))
    -- unit circles 1e15 apart: a unit circle resting on one touches it at (1, 0); 1e-6
    -- further out it is apart, as it is from that circle alone
    local u = sat.compound({ sat.circle(0, 0, 1), sat.circle(1e15, 0, 1) })
    assert.are.equal(0, assert(sat.collide(sat.circle(2, 0, 1), u)).overlap)
    assert.are.same({ 1, 1, 0 }, list(sat.contacts(u, sat.circle(2, 0, 1))))
    assert.is_false(sat.test(u, sat.circle(2 + 1e-6, 0, 1)))
    assert.are.equal(0, sat.contacts(sat.circle(2 + 1e-6, 0, 1), u))
    -- two unit squares side by side and a third 1e15 away; a 0.1 square across their seam
    -- (y 0.5 to 0.6) leaves by the nearer side, +0.5 in y (-0.6 the other way, 1.05
    -- sideways): not by the first square's own exit, 0.05 in x into the second, 0.1 deep
    local sq = sat.compound({ sat.box(0, 0, 1, 1), sat.box(1, 0, 1, 1), sat.box(1e15, 0, 1, 1) })
    local b = sat.box(0.95, 0.5, 0.1, 0.1)
    local r = pair(b, sq, 0.5, 0, -1, 1e-9)
    near(0, r.mtv.x, 1e-9)
    near(0.5, r.mtv.y, 1e-9)
    local n, x1, y1 = sat.contacts(b, sq)
    assert.is_true(n == 1 or n == 2)
    assert.is_true(x1 >= 0.95 - 1e-12 and x1 <= 1.05 + 1e-12 and y1 >= 0.5 - 1e-12 and
      y1 <= 0.6 + 1e-12, "contact inside both")
    b:move(r.mtv.x, r.mtv.y)
    assert.are.equal(0, assert(sat.collide(b, sq)).overlap)
    assert.are.equal(0, assert(sat.collide(b, sat.box(1, 0, 1, 1))).overlap)
  end)

  it("pushes a box or a capsule straight up out of a concave floor, seams and all", function()
    local f = sat.concave(floor_outline())
    for _, make in ipairs({
      function(x) return sat.box(x, 80.5, 10, 20) end,
      function(x) return sat.capsule(x, 90, x + 10, 90, 10.5) end,
    }) do
      for x = 0, 190, 0.7 do
        local s = make(x)
        local r = assert(sat.collide(s, f))
        near(0.5, r.overlap, 1e-9, "overlap at " .. x)
        near(0, r.normal.x, 1e-12, "no sideways push at " .. x)
        near(1, r.normal.y, 1e-12)
      end
    end
  end)

  it("pushes a box out of a chain along the local segment's normal, never a joint's", function()
    -- a gentle terrain line with joints (y down: up is -y)
    local pts = { 0, 100, 50, 100, 100, 90, 150, 90, 200, 100 }
    local ch = sat.chain(pts)
    for x = 0, 190, 0.9 do
      -- sunk 0.25 into the segment below its middle
      local b = sat.box(x, 0, 10, 10)
      local cx = x + 5
      local y
      if cx <= 50 then y = 100 elseif cx <= 100 then y = 100 - (cx - 50) / 5
      elseif cx <= 150 then y = 90 else y = 90 + (cx - 150) / 5 end
      b:moveTo(cx, y - 5 + 0.25)
      local r = assert(sat.collide(b, ch))
      assert.is_true(r.normal.y > 0.98, "at " .. x .. " normal " .. tostring(r.normal))
      b:move(r.mtv.x, r.mtv.y) -- out, touching
      assert.are.equal(0, assert(sat.collide(b, ch)).overlap)
    end
  end)
end)

describe("compounds with the other functions", function()
  it("sweep, contacts and explain", function()
    local two = sat.compound({ sat.box(0, 0, 5, 2), sat.box(5, 0, 5, 2) })
    local rest = sat.box(3, -1, 4, 1)
    -- resting across the seam: sliding is no hit, pressing in is one at once
    assert.is_nil(sat.sweep(rest, 5, 0, two))
    local t, nx, ny = sat.sweep(rest, 0, 1, two)
    assert.are.same({ 0, 0, 1 }, { t, nx, ny })
    t = sat.sweep(sat.box(3, -3, 4, 1), 0, 4, two)
    near(0.5, t)
    local n, x1, y1, x2, y2 = sat.contacts(rest, two)
    assert.are.equal(2, n)
    assert.are.same({ 3, 0, 7, 0 }, { math.min(x1, x2), y1, math.max(x1, x2), y2 })
    local e = sat.explain(sat.box(3, -0.5, 4, 1), two)
    assert.is_true(e.hit)
    near(0.5, e.overlap)
    assert.are.equal(0, #e.axes) -- a compound reports its verdict alone
    assert.is_false(sat.explain(sat.box(3, -5, 4, 1), two).hit)
    assert.is_truthy(two:raycast(-1, 1, 11, 1))
  end)

  it("sweep and collide: no seam's normal at an inner corner, or pressing in from touching", function()
    -- Seams are edges of a concave's parts inside its outline. A box moving along a tile
    -- line meets the outline at an inner corner, or presses into it from touching, where a
    -- part across a diagonal seam is met at the same time as the part whose edge it reaches
    -- (these three gave the seam's diagonal normal before: rounding chose the part).
    -- An L with its arm at 48..64 x 48..64: the box's top runs along y = 64 under the arm,
    -- its right side (x + w) reaches the wall x = 64 at the inner corner (64, 64).
    local L1 = sat.concave(96, 48, 96, 80, 64, 80, 64, 64, 48, 64, 48, 48)
    assert.is_true(#L1:parts() >= 2)
    local x, w, vx = 56.826498039836522, 4.2768083543300701, 8.7474229268240045
    local t, nx, ny = sat.sweep(sat.box(x, 64, w, 18.318134280217937), vx, 0, L1)
    near((64 - (x + w)) / vx, t, 1e-12)
    assert.are.same({ 1, 0 }, { nx, ny })
    -- resting on the top y = 32 with its right side on x = 96, pressing down: the top's
    local L2 = sat.concave(96, 32, 96, 80, 80, 80, 80, 48, 64, 48, 64, 32)
    t, nx, ny = sat.sweep(sat.box(89.83419734689798, 17.354701045299603, 6.1658026531020207,
      14.645298954700397), 0, 14.039056388697645, L2)
    near(0, t, 1e-12)
    assert.are.same({ 0, 1 }, { nx, ny })
    -- its right side on x = 48 and its bottom at y = 80, moving right and down: the side's
    local L3 = sat.concave(64, 64, 80, 64, 80, 80, 48, 80, 48, 48, 64, 48)
    t, nx, ny = sat.sweep(sat.box(34.355763325799032, 69.314166966186988, 13.644236674200965,
      10.685833033813008), 0.97417460845240811, 12.952793159478155, L3)
    near(0, t, 1e-12)
    assert.are.same({ 1, 0 }, { nx, ny })
    -- collide, touching only: a box on the right side x = 96 at its lower corner (96, 0)
    local r = sat.collide(sat.box(96, 0, 8, 8),
      sat.concave(0, 0, 96, 0, 96, 48, 80, 48, 80, 32, 64, 32, 64, 48, 0, 48))
    assert.are.same({ 0, -1, 0 }, { r.overlap, r.normal.x, r.normal.y })
  end)

  if jit and support.native and support.compilerOn() then -- (sat.fast: with the compiler on)
    it("goes through the FFI path under LuaJIT with the same answers", function()
      local c = require("sat.core")
      local L = sat.concave(0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4)
      local b = sat.box(0.5, 0.5, 1, 1)
      local r, s = sat.collide(b, L), c.collide(b, L)
      assert.are.equal(s.overlap, r.overlap)
      assert.are.equal(s.normal.x, r.normal.x)
      assert.are.same(list(c._ffi.collidesWith(b, L)), list(b:collidesWith(L)))
      assert.are_not.equal(c._ffi.collidesWith, b.collidesWith) -- the FFI one
      assert.are.equal(c.test(b, L), sat.test(b, L))
      local x, y = L:position()
      L:move(1, 2)
      assert.are.same({ x + 1, y + 2 }, list(L:position()))
      assert.is_true(L:contains(1.5, 2.5))
    end)
  end
end)

describe("a compound in the world", function()
  local it = support.needs(it, pending, "world") -- luacheck: ignore 431
  it("is one member, static or dynamic, in events and queries", function()
    local w = sat.world(16)
    local f = w:add(sat.concave(floor_outline()), "static")
    local rock = w:add(sat.compound({ sat.box(20, 80, 10, 10), sat.circle(35, 85, 5) }))
    local met = {}
    w:on("enter", function(a, b) met[#met + 1] = { a, b } end)
    rock:move(0, 15)
    w:step()
    assert.are.equal(1, #met)
    assert.is_true((met[1][1] == f and met[1][2] == rock) or (met[1][1] == rock and met[1][2] == f))
    assert.are.same({ f }, w:queryPoint(10, 150))
    assert.are.equal(0, #w:queryPoint(60, 150)) -- in a pit
    assert.are.same({ f }, w:queryRect(55, 115, 5, 4)) -- the bump in the pit
    local hits = w:querySegment(60, 0, 60, 200)
    assert.are.equal(1, #hits)
    assert.are.equal(f, hits[1].shape)
    near(100, hits[1].y)
    assert.are.equal(1, #w:collisions(rock))
  end)

  it("moves a compound with world:move, landing on a floor and sliding along it", function()
    local w = sat.world(16)
    w:add(sat.box(0, 100, 300, 20), "static")
    local rock = w:add(sat.concave(0, 0, 30, 0, 30, 10, 10, 10, 10, 30, 0, 30))
    local x0 = rock:position()
    for _ = 1, 40 do w:move(rock, 2, 3) end
    local x1, y1, x2, y2 = rock:bbox()
    near(100, y2, 1e-9, "resting on the floor")
    near(x0 + 80, rock:position(), 1e-9, "slid along it")
    assert.are.same({ 30, 30 }, { x2 - x1, y2 - y1 })
  end)

  it("stops world:move at a concave's inner corner, not slid along a seam", function()
    -- (the L of the sweep test above: the seam's diagonal normal slid the box on along the
    -- wall, 2.93 down from its line)
    local w = sat.world(16)
    w:add(sat.concave(96, 48, 96, 80, 64, 80, 64, 64, 48, 64, 48, 48), "static")
    local box = w:add(sat.box(56.826498039836522, 64, 4.2768083543300701, 18.318134280217937))
    local _, y1 = box:bbox()
    w:move(box, 8.7474229268240045, 0)
    local a1, b1, a2 = box:bbox()
    near(64, a2, 1e-12, "against the wall")
    near(64 - 4.2768083543300701, a1, 1e-12)
    assert.are.equal(y1, b1) -- not moved up or down
  end)

  it("lets world:move slide along a concave floor and a chain without catching", function()
    for _, ground in ipairs({
      sat.concave(floor_outline()),
      sat.chain({ 0, 100, 40, 100, 80, 100, 120, 100, 160, 100, 200, 100, 260, 100 }),
    }) do
      for _, player in ipairs({ sat.box(2, 80, 16, 20), sat.capsule(10, 84, 10, 92, 8) }) do
        local w = sat.world(16)
        w:add(ground, "static")
        w:add(player)
        local _, y0 = player:position()
        for _ = 1, 80 do
          w:move(player, 2, 3) -- walking right, with gravity
        end
        local x, y = player:position()
        near(select(1, sat.box(2, 80, 16, 20):position()) + 160, x, 1e-9, "walked")
        near(y0, y, 1e-9, "stayed on the floor")
      end
    end
  end)
end)
