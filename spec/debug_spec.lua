-- sat.debug: loads without LÖVE, refuses to draw without it, and draws what it should
-- through a fake love.graphics that records every call.
local sat = require("sat")

-- A fake love.graphics: every call is recorded as { name, args... } along with the colour
-- set at that moment.
local function fakeLove()
  local calls = {}
  local color = { 1, 1, 1, 1 }
  local g = {}
  local function record(name)
    g[name] = function(...)
      calls[#calls + 1] = { name = name, color = { color[1], color[2], color[3], color[4] },
                            args = { ... } }
    end
  end
  for _, name in ipairs({ "polygon", "circle", "line", "rectangle", "print" }) do record(name) end
  function g.setColor(r, gg, b, a)
    if type(r) == "table" then r, gg, b, a = r[1], r[2], r[3], r[4] end
    color = { r, gg, b, a or 1 }
  end
  function g.getColor() return color[1], color[2], color[3], color[4] end
  local width = 1
  function g.setLineWidth(w)
    calls[#calls + 1] = { name = "setLineWidth", args = { w } }
    width = w
  end
  function g.getLineWidth() return width end
  return { graphics = g }, calls
end

local function only(calls, name)
  local out = {}
  for _, c in ipairs(calls) do
    if c.name == name then out[#out + 1] = c end
  end
  return out
end

local function sameList(expected, got, tol)
  assert.are.equal(#expected, #got)
  for i = 1, #expected do assert.is_near(expected[i], got[i], tol or 1e-9) end
end

local support = require("spec.support")
local err, has = support.err, support.has
local it_world = support.needs(it, pending, "world")
local it_compound = support.needs(it, pending, "compound")

describe("sat.debug without LÖVE", function()
  it("is not loaded by require('sat'), and loading it does not load LÖVE", function()
    -- a fresh sat, in case another spec already touched sat.debug
    for name in pairs(package.loaded) do
      if name == "sat" or name == "sat.debug" or name == "sat.world" then package.loaded[name] = nil end
    end
    local fresh = require("sat")
    assert.is_nil(package.loaded["sat.debug"])
    assert.is_nil(rawget(_G, "love"))
    assert.is_nil(package.loaded.love)
    local d = fresh.debug
    assert.are.equal(package.loaded["sat.debug"], d)
    assert.are.equal("function", type(d.drawWorld))
    assert.is_nil(rawget(_G, "love"))
    assert.is_nil(package.loaded.love)
  end)

  it_world("raises a clear error from every drawing function", function()
    local d = sat.debug
    local b = sat.box(0, 0, 10, 10)
    local r = assert(sat.collide(b, sat.box(5, 0, 10, 10)))
    local calls = {
      function() d.drawShape(b) end,
      function() d.drawBBox(b) end,
      function() d.drawArrow(0, 0, 1, 1) end,
      function() d.drawResponse(r) end,
      function() d.drawCells(sat.world(32)) end,
      function() d.drawWorld(sat.world(32)) end,
    }
    for _, f in ipairs(calls) do
      has(err(f), "sat.debug needs LÖVE (love.graphics)")
    end
  end)

  it_world("lists cells and contacts without LÖVE", function()
    local w = sat.world(10)
    w:add(sat.box(1, 1, 5, 5))       -- cell (0, 0)
    w:add(sat.box(12, 1, 10, 5))     -- cells (1, 0) and (2, 0)
    local cells = sat.debug.cells(w)
    local got = {}
    for _, c in ipairs(cells) do got[#got + 1] = ("%d,%d"):format(c.x, c.y) end
    assert.are.same({ "0,0", "10,0", "20,0" }, got)
    assert.are.same({}, sat.debug.contacts(w))
  end)
end)

describe("sat.debug with a fake love.graphics", function()
  local calls, d, fake

  before_each(function()
    fake, calls = fakeLove()
    _G.love = fake
    d = sat.debug
  end)

  after_each(function()
    _G.love = nil
  end)

  it("draws a polygon from its world vertices", function()
    local p = sat.polygon(0, 0, 40, 0, 20, 30)
    p:rotate(0.3)
    d.drawShape(p)
    local polys = only(calls, "polygon")
    assert.are.equal(1, #polys)
    assert.are.equal("line", polys[1].args[1])
    sameList(p:vertices(), polys[1].args[2])
    assert.are.same(d.colors.shape, polys[1].color)

    d.drawShape(p, "fill", { 1, 0, 0 })
    polys = only(calls, "polygon")
    assert.are.equal("fill", polys[2].args[1])
    assert.are.same({ 1, 0, 0, 1 }, polys[2].color)
  end)

  it("draws a circle at its centre and radius, with a spoke for its rotation", function()
    local c = sat.circle(50, 60, 7)
    c:setRotation(math.pi / 2)
    d.drawShape(c)
    local circles = only(calls, "circle")
    assert.are.equal(1, #circles)
    sameList({ 50, 60, 7 }, { circles[1].args[2], circles[1].args[3], circles[1].args[4] })
    local spoke = only(calls, "line")[1].args
    sameList({ 50, 60, 50, 67 }, spoke, 1e-9)
  end)

  it("draws a segment as a line between its endpoints, filled or not", function()
    local s = sat.segment(10, 20, 40, -5)
    d.drawShape(s)
    d.drawShape(s, "fill")
    local lines = only(calls, "line")
    assert.are.equal(2, #lines)
    assert.are.same({ 10, 20, 40, -5 }, lines[1].args)
    assert.are.same({ 10, 20, 40, -5 }, lines[2].args)
    assert.are.same({}, only(calls, "polygon"))
  end)

  it("draws a capsule as a pill: one convex polygon on its outline", function()
    local c = sat.capsule(10, 20, 50, 50, 6) -- 50 long
    d.drawShape(c, "fill")
    local polys = only(calls, "polygon")
    assert.are.equal(1, #polys)
    assert.are.equal("fill", polys[1].args[1])
    local pts = polys[1].args[2]
    assert.are.equal(4 * (d.capSteps + 1), #pts) -- two half circles, ends included
    -- every point is on the outline: 6 from the segment
    local function dist(px, py)
      local ux, uy = 40 / 50, 30 / 50
      local t = math.max(0, math.min(50, (px - 10) * ux + (py - 20) * uy))
      return math.sqrt((px - 10 - ux * t) ^ 2 + (py - 20 - uy * t) ^ 2)
    end
    for i = 1, #pts, 2 do
      assert.is_near(6, dist(pts[i], pts[i + 1]), 1e-9)
    end
    -- the points reach both ends: the farthest along the segment are its ends plus r
    local lo, hi = math.huge, -math.huge
    for i = 1, #pts, 2 do
      local along = (pts[i] - 10) * 0.8 + (pts[i + 1] - 20) * 0.6
      lo, hi = math.min(lo, along), math.max(hi, along)
    end
    assert.is_near(-6, lo, 1e-9)
    assert.is_near(56, hi, 1e-9)
    -- radius 0: its segment; equal endpoints: its circle
    d.drawShape(sat.capsule(0, 0, 5, 5, 0))
    assert.are.same({ 0, 0, 5, 5 }, only(calls, "line")[1].args)
    d.drawShape(sat.capsule(3, 4, 3, 4, 2))
    assert.are.same({ "line", 3, 4, 2 }, only(calls, "circle")[1].args)
  end)

  it_compound("draws a concave shape's parts faintly and its outline strongly", function()
    local L = sat.concave(0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4)
    d.drawShape(L, "fill")
    local polys = only(calls, "polygon")
    assert.are.equal(3, #polys) -- two parts, filled, then the outline
    assert.are.equal("fill", polys[1].args[1])
    assert.are.equal("line", polys[3].args[1])
    assert.is_true(polys[1].color[4] < polys[3].color[4])
    sameList(L:vertices(), polys[3].args[2])
    -- a chain: its segments faint, its polyline strong
    local before = #only(calls, "line")
    d.drawShape(sat.chain({ 0, 0, 10, 0, 20, 5 }))
    local lines = only(calls, "line")
    assert.are.equal(before + 3, #lines)
    sameList({ 0, 0, 10, 0, 20, 5 }, lines[#lines].args[1])
    -- a compound of parts: each part as itself
    local n = #only(calls, "circle")
    d.drawShape(sat.compound({ sat.circle(0, 0, 1), sat.box(2, 2, 1, 1) }))
    assert.are.equal(n + 1, #only(calls, "circle"))
  end)

  it("draws bounding boxes as rectangles", function()
    local c = sat.circle(50, 60, 7)
    d.drawBBox(c)
    local rects = only(calls, "rectangle")
    assert.are.equal(1, #rects)
    assert.are.same({ "line", 43, 53, 14, 14 }, rects[1].args)
    assert.are.same(d.colors.bbox, rects[1].color)
  end)

  it("draws an arrow as a shaft and a two-stroke head at the tip", function()
    d.drawArrow(0, 0, 100, 0)
    local lines = only(calls, "line")
    assert.are.equal(2, #lines)
    assert.are.same({ 0, 0, 100, 0 }, lines[1].args)
    local head = lines[2].args
    assert.are.equal(6, #head)
    assert.are.same({ 100, 0 }, { head[3], head[4] })
    -- both strokes come back from the tip, one on each side
    assert.is_true(head[1] < 100 and head[5] < 100)
    assert.is_true(head[2] * head[6] < 0)
    -- drawn d.arrowWidth wide, and the width put back
    local widths = only(calls, "setLineWidth")
    assert.are.same({ { d.arrowWidth }, { 1 } }, { widths[1].args, widths[2].args })
  end)

  it("draws a response's normal and MTV from the contact", function()
    local a = sat.box(0, 0, 10, 10)
    local b = sat.box(8, 0, 10, 10)
    local r = assert(sat.collide(a, b))
    d.drawResponse(r, { normalLength = 20 })
    local lines = only(calls, "line")
    assert.are.equal(4, #lines) -- two arrows
    -- the contact is the middle of the two boxes' overlap: (9, 5)
    local n, m = lines[1], lines[3]
    sameList({ 9, 5, 29, 5 }, n.args)            -- normal: +x toward b, 20 long
    sameList({ 9, 5, 7, 5 }, m.args)             -- mtv: moves a 2 to the left
    assert.are.same(d.colors.normal, n.color)
    assert.are.same(d.colors.mtv, m.color)
  end)

  it_world("draws a world: one polygon call per polygon, one circle per circle", function()
    local w = sat.world(32)
    local p1 = w:add(sat.box(0, 0, 20, 10))
    local p2 = w:add(sat.polygon(100, 100, 140, 100, 120, 130))
    local c = w:add(sat.circle(300, 300, 12))
    local n = d.drawWorld(w)
    assert.are.equal(0, n)
    local polys = only(calls, "polygon")
    assert.are.equal(2, #polys)
    local want = { p1:vertices(), p2:vertices() }
    -- in the world's order
    local order = {}
    for _, s in ipairs(w:shapes()) do
      if s:kind() == "polygon" then order[#order + 1] = s:vertices() end
    end
    for i = 1, 2 do sameList(order[i], polys[i].args[2]) end
    assert.are_not.same(want[1], want[2])
    local circles = only(calls, "circle")
    assert.are.equal(1, #circles)
    sameList({ 300, 300, 12 }, { circles[1].args[2], circles[1].args[3], circles[1].args[4] })
    assert.are.equal(0, #only(calls, "rectangle"))
    assert.is_truthy(c)
  end)

  it_world("puts back the colour it found, from every drawing function", function()
    local b = sat.box(0, 0, 10, 10)
    local r = assert(sat.collide(b, sat.box(5, 0, 10, 10)))
    local w = sat.world(8)
    w:add(b)
    local draws = {
      function() d.drawShape(b) end,
      function() d.drawShape(b, "fill", { 1, 0, 0 }) end,
      function() d.drawBBox(b) end,
      function() d.drawArrow(0, 0, 5, 5) end,
      function() d.drawResponse(r) end,
      function() d.drawCells(w) end,
      function() d.drawWorld(w, { fill = true, bboxes = true, cells = true, contacts = true }) end,
    }
    for i, f in ipairs(draws) do
      fake.graphics.setColor(0.1, 0.2, 0.3, 0.4)
      local before = #calls
      f()
      assert.is_true(#calls > before, "draw " .. i .. " drew nothing")
      assert.are.same({ 0.1, 0.2, 0.3, 0.4 }, { fake.graphics.getColor() }, "draw " .. i)
    end
  end)

  it_world("draws bboxes and cells when asked, and restores the colour", function()
    local w = sat.world(10)
    w:add(sat.box(1, 1, 5, 5))
    w:add(sat.box(12, 1, 10, 5))
    fake.graphics.setColor(0.1, 0.2, 0.3, 0.4)
    d.drawWorld(w, { bboxes = true, cells = true })
    local rects = only(calls, "rectangle")
    -- 3 cells (a fill and an outline each), then 2 bboxes
    assert.are.equal(3 * 2 + 2, #rects)
    local outlines = {}
    for i = 1, 6 do
      local a = rects[i].args
      if a[1] == "line" then outlines[#outlines + 1] = { a[2], a[3], a[4], a[5] } end
    end
    assert.are.same({ { 0, 0, 10, 10 }, { 10, 0, 10, 10 }, { 20, 0, 10, 10 } }, outlines)
    local boxes = {}
    for i = 7, 8 do boxes[#boxes + 1] = rects[i].args end
    table.sort(boxes, function(p, q) return p[2] < q[2] end)
    assert.are.same({ { "line", 1, 1, 5, 5 }, { "line", 12, 1, 10, 5 } }, boxes)
    assert.are.same({ 0.1, 0.2, 0.3, 0.4 }, { fake.graphics.getColor() })
  end)

  it_world("draws arrows for colliding pairs only", function()
    local w = sat.world(32)
    local a = w:add(sat.box(0, 0, 10, 10))
    local b = w:add(sat.box(8, 0, 10, 10))     -- overlaps a by 2 along x
    w:add(sat.circle(200, 200, 5))              -- alone
    local n = d.drawWorld(w, { contacts = true, shapes = false, normalLength = 10 })
    assert.are.equal(1, n)
    local lines = only(calls, "line")
    assert.are.equal(4, #lines)
    assert.are.equal(0, #only(calls, "polygon"))
    -- the arrows start at the contact (9, 5) and follow the pair's normal (+-x)
    local shaft = lines[1].args
    sameList({ 9, 5 }, { shaft[1], shaft[2] })
    assert.is_near(10, math.abs(shaft[3] - shaft[1]), 1e-9)
    assert.is_near(0, shaft[4] - shaft[2], 1e-9)
    local mtv = lines[3].args
    assert.is_near(2, math.abs(mtv[3] - mtv[1]), 1e-9)
    -- the normal points away from where the MTV moves the first shape
    assert.is_true((shaft[3] - shaft[1]) * (mtv[3] - mtv[1]) < 0)
    assert.is_truthy(a and b)
  end)

  it_world("takes per-shape colours and colour overrides", function()
    local w = sat.world(32)
    local hot = w:add(sat.box(0, 0, 10, 10))
    w:add(sat.box(100, 0, 10, 10))
    d.drawWorld(w, {
      color = function(s) if s == hot then return { 1, 0, 0, 1 } end end,
      colors = { shape = { 0, 0, 1, 1 } },
    })
    local polys = only(calls, "polygon")
    assert.are.equal(2, #polys)
    local seen = {}
    for _, p in ipairs(polys) do
      seen[p.args[2][1] == hot:vertices()[1] and "hot" or "cold"] = p.color
    end
    assert.are.same({ 1, 0, 0, 1 }, seen.hot)
    assert.are.same({ 0, 0, 1, 1 }, seen.cold)
    -- the override was for this call only
    assert.are_not.same({ 0, 0, 1, 1 }, d.colors.shape)
  end)

  it_world("skips pairs the world filters out", function()
    local w = sat.world(32)
    local a = w:add(sat.box(0, 0, 10, 10))
    local b = w:add(sat.box(8, 0, 10, 10))
    a.category, b.mask = 2, 1 -- b does not accept a's category
    assert.are.same({}, d.contacts(w))
    assert.are.equal(0, d.drawWorld(w, { contacts = true, shapes = false }))
    assert.are.equal(0, #only(calls, "line"))
    b.mask = 3
    local list = d.contacts(w)
    assert.are.equal(1, #list)
    assert.are.equal(a, list[1].a)
    assert.are.equal(b, list[1].b)
    assert.is_near(2, list[1].overlap, 1e-9)
    assert.is_near(1, list[1].normal.x, 1e-12)
  end)

  it_world("fills under the outlines, with the fill colour's transparency", function()
    local w = sat.world(32)
    local hot = w:add(sat.box(0, 0, 10, 10))
    w:add(sat.box(100, 0, 10, 10))
    d.drawWorld(w, { fill = true, color = function(s) if s == hot then return { 1, 0, 0 } end end })
    local polys = only(calls, "polygon")
    assert.are.equal(4, #polys)
    assert.are.same({ "fill", "line", "fill", "line" },
                    { polys[1].args[1], polys[2].args[1], polys[3].args[1], polys[4].args[1] })
    local fillAlpha = d.colors.fill[4]
    assert.are.same({ 1, 0, 0, fillAlpha }, polys[1].color)
    assert.are.same({ 1, 0, 0, 1 }, polys[2].color)
    assert.are.same(d.colors.fill, polys[3].color)
    assert.are.same(d.colors.shape, polys[4].color)
  end)

  it_world("shades a cell by how many shapes it holds, and leaves options alone", function()
    local w = sat.world(10)
    w:add(sat.box(1, 1, 3, 3))
    w:add(sat.box(5, 5, 3, 3))       -- same cell (0, 0)
    w:add(sat.box(21, 1, 3, 3))      -- cell (2, 0)
    local cells = d.cells(w)
    assert.are.equal(2, #cells)
    assert.are.same({ 2, 1 }, { cells[1].count, cells[2].count })
    local colors = { cellFill = { 0, 0, 1, 0.25 } }
    d.drawWorld(w, { cells = true, shapes = false, colors = colors })
    local fills = {}
    for _, c in ipairs(only(calls, "rectangle")) do
      if c.args[1] == "fill" then fills[#fills + 1] = c.color[4] end
    end
    assert.are.same({ 0.5, 0.25 }, fills)
    assert.is_nil(getmetatable(colors))
    assert.are.same({ cellFill = { 0, 0, 1, 0.25 } }, colors)
  end)

  it_world("names the function and the argument on bad input", function()
    has(err(function() d.drawShape("box") end), "bad argument #1 to 'drawShape' (shape expected")
    has(err(function() d.drawShape(sat.box(0, 0, 1, 1), "filled") end),
        "bad argument #2 to 'drawShape' (mode must be 'line' or 'fill'")
    has(err(function() d.drawBBox(sat.box(0, 0, 1, 1), "red") end),
        "bad argument #2 to 'drawBBox' (colour")
    has(err(function() d.drawArrow(0, 0, "1", 1) end), "bad argument #3 to 'drawArrow'")
    has(err(function() d.drawResponse({}) end), "bad argument #1 to 'drawResponse'")
    has(err(function() d.drawWorld({}) end), "bad argument #1 to 'drawWorld' (world expected")
    has(err(function() d.drawWorld(sat.world(), 5) end), "bad argument #2 to 'drawWorld'")
    has(err(function() d.drawWorld(sat.world(), { color = { 1, 0, 0 } }) end),
        "bad argument #2 to 'drawWorld' (options.color must be a function")
    has(err(function() d.drawWorld(sat.world(), { colors = "red" }) end),
        "bad argument #2 to 'drawWorld' (options.colors must be a table")
    has(err(function() d.cells({ shapes = function() return {} end }) end),
        "cannot list its cells")
    assert.are.equal(0, #calls) -- nothing drawn on an error
  end)

  -- The lines drawn for each axis, in order: its ruler, a's bar, b's bar, and on the
  -- deciding axis the gap or overlap between them and four guides (from the ends of a's and
  -- b's projections); after `skip` lines of the shapes (a circle's spoke).
  local function axisLines(e, skip)
    local lines, at, out = only(calls, "line"), 1 + (skip or 0), {}
    for k = 1, #e.axes do
      out[k] = {}
      for i = 1, k == e.deciding and 8 or 3 do
        out[k][i] = lines[at]
        at = at + 1
      end
    end
    return out, lines
  end

  -- A bar's two ends, projected on the axis: where it starts and ends along it.
  local function along(line, ax)
    local a = line.args
    local p, q = a[1] * ax.nx + a[2] * ax.ny, a[3] * ax.nx + a[4] * ax.ny
    return math.min(p, q), math.max(p, q)
  end

  it("explains: both shapes, every axis as a ruler with both projections, the gap that separates", function()
    local a, b = sat.box(0, 0, 10, 10), sat.box(12, 2, 8, 4)
    fake.graphics.setColor(0.1, 0.2, 0.3, 0.4)
    local e = d.explain(a, b)
    assert.are.same(sat.explain(a, b).axes, e.axes)
    local polys = only(calls, "polygon") -- each filled faintly, then outlined
    assert.are.equal(4, #polys)
    sameList(a:vertices(), polys[1].args[2])
    sameList(a:vertices(), polys[2].args[2])
    assert.are.same({ "fill", "line", "fill", "line" },
      { polys[1].args[1], polys[2].args[1], polys[3].args[1], polys[4].args[1] })
    local ca = d.colors.a
    assert.are.same({ ca[1], ca[2], ca[3], d.explainFill }, polys[1].color)
    assert.are.same(d.colors.a, polys[2].color)
    assert.are.same(d.colors.b, polys[4].color)
    local per, lines = axisLines(e)
    assert.are.equal(8 * 3 + 5, #lines)
    -- how far beside the shapes a ruler runs: about the middle of the two boxes, (10, 5)
    local function beside(k)
      local r, ax = per[k][1].args, e.axes[k]
      return (r[1] - 10) * -ax.ny + (r[2] - 5) * ax.nx
    end
    for k, ax in ipairs(e.axes) do
      local ruler, abar, bbar = per[k][1], per[k][2], per[k][3]
      assert.are.same(k == 2 and d.colors.gap or d.colors.axis, ruler.color)
      assert.are.same(d.colors.a, abar.color)
      assert.are.same(d.colors.b, bbar.color)
      -- the bars are the projections, on a ruler parallel to the axis
      local lo, hi = along(abar, ax)
      assert.is_near(ax.aMin, lo, 1e-9)
      assert.is_near(ax.aMax, hi, 1e-9)
      lo, hi = along(bbar, ax)
      assert.is_near(ax.bMin, lo, 1e-9)
      assert.is_near(ax.bMax, hi, 1e-9)
      -- every ruler at least d.axisGap beyond the disk that holds both (radius sqrt(125))
      assert.is_true(beside(k) >= math.sqrt(125) + d.axisGap - 1e-9)
    end
    -- the gap: between a's right side (10) and b's left (12) along axis 2, (1, 0)
    local gap = per[2][4]
    assert.are.same({ d.colors.gap[1], d.colors.gap[2], d.colors.gap[3], 0.55 }, gap.color)
    assert.are.same({ 10, 12 }, { along(gap, e.axes[2]) })
    -- the guides: square to the axis, from a's and b's projections' ends (0, 10, 12, 20 along
    -- x) back across the shapes (over y from 5 - sqrt(125) to 5 + sqrt(125) at least)
    for i, x in ipairs({ 0, 10, 12, 20 }) do
      local g = per[2][4 + i].args
      assert.are.same({ x, x }, { g[1], g[3] })
      local reach = math.sqrt(125) - 1e-9
      assert.is_true(math.min(g[2], g[4]) <= 5 - reach and math.max(g[2], g[4]) >= 5 + reach)
    end
    -- parallel axes (a's and b's edges) on rulers apart from each other
    assert.is_near(d.axisStep, beside(5) - beside(1), 1e-9)
    -- each axis numbered; nothing touches: no contact point
    assert.are.equal(8, #only(calls, "print"))
    assert.are.same({ "1", "2" }, { only(calls, "print")[1].args[1], only(calls, "print")[2].args[1] })
    assert.are.equal(0, #only(calls, "circle"))
    assert.are.same({ 0.1, 0.2, 0.3, 0.4 }, { fake.graphics.getColor() })
    assert.are.equal(1, fake.graphics.getLineWidth())
  end)

  it("explains: the axis that gave the MTV highlighted, the overlap on it, the MTV, the contacts", function()
    local a, b = sat.box(0, 0, 10, 10), sat.circle(13, 14, 6)
    local e = d.explain(a, b)
    assert.are.equal(5, e.deciding)
    local per, lines = axisLines(e, 1)
    assert.are.equal(1 + 5 * 3 + 5 + 2, #lines) -- the spoke, the axes, the MTV's shaft and head
    local ruler, overlap = per[5][1], per[5][4]
    assert.are.same(d.colors.mtv, ruler.color)
    assert.are.equal(0.55, overlap.color[4])
    local lo, hi = along(overlap, e.axes[5])
    assert.is_near(13, lo, 1e-12) -- the circle from 13, the corner up to 14
    assert.is_near(14, hi, 1e-12)
    -- one contact, where sat.contacts puts it, and the MTV from there
    local n, cx, cy = sat.contacts(a, b)
    assert.are.equal(1, n)
    local dots = only(calls, "circle") -- the circle itself (filled, outlined), the contact
    assert.are.equal(3, #dots)
    assert.are.same({ "fill", 13, 14, 6 }, dots[1].args)
    assert.are.same({ "line", 13, 14, 6 }, dots[2].args)
    table.remove(dots, 1)
    table.remove(dots, 1)
    assert.are.same({ "fill", cx, cy, d.contactRadius }, dots[1].args)
    assert.are.same(d.colors.contact, dots[1].color)
    local shaft = lines[#lines - 1]
    assert.are.same(d.colors.mtv, shaft.color)
    sameList({ cx, cy, cx - 0.6 * e.overlap, cy - 0.8 * e.overlap }, shaft.args, 1e-12)
  end)

  it("explains round a given point, with two contacts for two faces", function()
    local a, b = sat.box(0, 0, 10, 10), sat.box(4, 9, 4, 4)
    local e = d.explain(a, b, 500, -300)
    -- the first ruler, axis 1's (0, -1), runs beside (500, -300), far from the boxes
    local first, ax = only(calls, "line")[1].args, e.axes[1]
    assert.is_true((first[1] - 500) * -ax.ny + (first[2] + 300) * ax.nx >= d.axisGap)
    assert.is_true(first[1] > 400)
    local dots = only(calls, "circle")
    assert.are.equal(2, #dots)
    local n, x1, y1, x2, y2 = sat.contacts(a, b)
    assert.are.equal(2, n)
    assert.are.same({ x1, y1, x2, y2 }, { dots[1].args[2], dots[1].args[3], dots[2].args[2], dots[2].args[3] })
  end)

  it("explains nothing on bad input, and names the function and the argument", function()
    local p = sat.box(0, 0, 1, 1)
    has(err(function() d.explain("box", p) end), "bad argument #1 to 'explain' (shape expected, got string)")
    has(err(function() d.explain(p) end), "bad argument #2 to 'explain' (shape expected, got nil)")
    has(err(function() d.explain(p, p, "1") end), "bad argument #3 to 'explain' (number expected, got string)")
    has(err(function() d.explain(p, p, 1, {}) end), "bad argument #4 to 'explain' (number expected, got table)")
    assert.are.equal(0, #calls)
    _G.love = nil
    has(err(function() d.explain(p, p) end), "sat.debug needs LÖVE (love.graphics)")
  end)
end)
