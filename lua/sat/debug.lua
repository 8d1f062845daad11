--- sat.debug: draws shapes (capsules as pills, segments as lines, compounds as their parts,
-- faint, under their outline), bounding boxes,
-- spatial-hash cells and collision responses through love.graphics, and how a pair test
-- went (explain: every axis with both projections on it). Loaded on first access of
-- `sat.debug`; requiring it does not need LÖVE, only calling the drawing functions does.
--
--   local debug = require("sat").debug
--   function love.draw()
--     debug.drawWorld(world, { bboxes = true, cells = true, contacts = true })
--     debug.explain(player, wall)
--   end

local M = {}

local sqrt, max, min = math.sqrt, math.max, math.min
local cos, sin, atan2, pi = math.cos, math.sin, math.atan2 or math.atan, math.pi
local sort = table.sort

local NEEDS_LOVE = "sat.debug needs LÖVE (love.graphics)"

-- Colours as {r, g, b, a} in LÖVE 11's 0..1 range. Change fields in place, or pass
-- `colors = {...}` to drawWorld for one call.
M.colors = {
  shape   = { 0.60, 0.80, 1.00, 1.00 }, -- outlines
  fill    = { 0.60, 0.80, 1.00, 0.25 }, -- interiors when fill is on
  bbox    = { 1.00, 0.85, 0.25, 0.70 },
  cell    = { 0.50, 0.50, 0.60, 0.35 }, -- outline of a cell in use
  cellFill = { 0.50, 0.50, 0.60, 0.08 }, -- per shape touching the cell, alpha adds up
  normal  = { 1.00, 0.35, 0.35, 1.00 },
  mtv     = { 0.35, 1.00, 0.45, 1.00 },
  -- explain: the two shapes and their projections, the axes, a gap that separates, the
  -- contact points
  a       = { 1.00, 0.62, 0.25, 1.00 },
  b       = { 0.40, 0.75, 1.00, 1.00 },
  axis    = { 0.70, 0.72, 0.80, 0.45 },
  gap     = { 1.00, 0.25, 0.35, 1.00 },
  contact = { 1.00, 0.95, 0.30, 1.00 },
}

-- Sizes, in world units (pixels when the camera is identity).
M.normalLength = 28 -- a normal is a unit vector: drawn this long
M.arrowHead = 7     -- length of each stroke of an arrow head
M.arrowWidth = 2    -- line width of arrows
M.mtvMin = 0        -- an MTV shorter than this is not drawn
-- explain: the first axis this far beyond the shapes, the next ones (within axisSpread
-- radians of one before) this much farther; each projection this far off its axis (a's inside, b's outside), this
-- wide; contact points this big
M.axisGap = 28
M.axisStep = 16
M.axisSpread = 0.3
M.barOffset = 3
M.barWidth = 4
M.contactRadius = 3
M.explainFill = 0.15 -- the shapes' fill: their colour at this alpha

local function graphics()
  local love = rawget(_G, "love")
  local g = type(love) == "table" and love.graphics
  if type(g) ~= "table" then error(NEEDS_LOVE, 3) end
  return g
end

-- level 4: badArg <- check* <- sat.debug function <- the caller
local function badArg(fname, n, msg, level)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), level or 4)
end

local core = require("sat.backend").core
local isShape = core.isShape

local function checkShape(fname, n, s)
  if not isShape(s) then badArg(fname, n, "shape expected, got " .. type(s)) end
end

local function checkWorld(fname, n, w)
  if type(w) ~= "table" or type(w.shapes) ~= "function" then
    badArg(fname, n, "world expected, got " .. type(w))
  end
end

local function checkColor(fname, n, c)
  if c ~= nil and (type(c) ~= "table" or type(c[1]) ~= "number" or type(c[2]) ~= "number"
      or type(c[3]) ~= "number") then
    badArg(fname, n, "colour {r, g, b [, a]} expected, got " .. type(c))
  end
end

local function checkMode(fname, n, mode)
  if mode ~= nil and mode ~= "line" and mode ~= "fill" then
    badArg(fname, n, "mode must be 'line' or 'fill', got " .. tostring(mode))
  end
end

-- alpha (optional) multiplies the colour's own alpha
local function setColor(g, c, alpha)
  g.setColor(c[1], c[2], c[3], (c[4] or 1) * (alpha or 1))
end

-- ---- drawing primitives ---------------------------------------------------------------

-- Points along each half circle of a capsule's outline.
M.capSteps = 12

-- A concave shape's or a chain's parts are drawn at this fraction of its colour's alpha,
-- under its outline at full strength.
M.partAlpha = 0.35

-- A capsule as a pill: one convex polygon, its two ends' half circles joined by the sides
-- (a line when the radius is 0, a circle when the ends are one point).
local function pill(g, s, mode)
  local x1, y1, x2, y2 = s:endpoints()
  local r = s:radius()
  if r == 0 then
    g.line(x1, y1, x2, y2)
    return
  end
  if x1 == x2 and y1 == y2 then
    g.circle(mode, x1, y1, r)
    return
  end
  local a, n, pts = atan2(y2 - y1, x2 - x1), M.capSteps, {}
  for i = 0, n do -- around (x2, y2) from its right side to its left, then back around (x1, y1)
    local t = a - pi / 2 + pi * i / n
    pts[#pts + 1] = x2 + r * cos(t)
    pts[#pts + 1] = y2 + r * sin(t)
  end
  for i = 0, n do
    local t = a + pi / 2 + pi * i / n
    pts[#pts + 1] = x1 + r * cos(t)
    pts[#pts + 1] = y1 + r * sin(t)
  end
  g.polygon(mode, pts)
end

local shape

-- A compound: a concave shape's parts faint (filled, when it is), its outline strong; a
-- chain's segments faint under its polyline; a compound of parts, each part as itself.
local function compound(g, s, mode, color, alpha)
  local parts, form = s:parts(), tostring(s):match("^compound%((%a+)")
  if form ~= "concave" and form ~= "chain" and form ~= "closed" then
    for i = 1, #parts do shape(g, parts[i], mode, color, alpha) end
    return
  end
  for i = 1, #parts do shape(g, parts[i], mode, color, (alpha or 1) * M.partAlpha) end
  setColor(g, color, alpha)
  local outline = s:vertices()
  if form == "chain" then
    g.line(outline)
  else
    g.polygon("line", outline)
  end
end

function shape(g, s, mode, color, alpha)
  setColor(g, color, alpha)
  local kind = s:kind()
  if kind == "compound" then
    compound(g, s, mode, color, alpha)
  elseif kind == "polygon" then
    g.polygon(mode, s:vertices())
  elseif kind == "segment" then
    g.line(s:endpoints()) -- a segment has no inside: filled or not, a line
  elseif kind == "capsule" then
    pill(g, s, mode)
  else
    local x, y = s:position()
    local r = s:radius()
    g.circle(mode, x, y, r)
    if mode == "line" and r > 0 then
      -- a spoke shows a circle's rotation
      local a = s:rotation()
      g.line(x, y, x + r * math.cos(a), y + r * math.sin(a))
    end
  end
end

local function bbox(g, s, color)
  setColor(g, color)
  local x1, y1, x2, y2 = s:bbox()
  g.rectangle("line", x1, y1, x2 - x1, y2 - y1)
end

-- An arrow from (x1, y1) to (x2, y2): one line for the shaft, one for the head, so a
-- recording of the calls tells arrows (lines) from shapes (polygons).
local function arrow(g, x1, y1, x2, y2, color)
  setColor(g, color)
  local width = g.getLineWidth()
  g.setLineWidth(M.arrowWidth)
  g.line(x1, y1, x2, y2)
  local dx, dy = x2 - x1, y2 - y1
  local len = sqrt(dx * dx + dy * dy)
  if len > 0 then
    local h = min(M.arrowHead, len * 0.5)
    local ux, uy = dx / len * h, dy / len * h
    -- strokes at +-30 degrees back from the tip
    local c, s = 0.8660254037844386, 0.5
    g.line(x2 - (ux * c - uy * s), y2 - (ux * s + uy * c), x2, y2,
           x2 - (ux * c + uy * s), y2 - (-ux * s + uy * c))
  end
  g.setLineWidth(width)
end

-- Where a response's arrows start: the centre of the overlap of the two bounding boxes,
-- which sits on the contact for the usual cases (a shape against a wall, two boxes).
local function anchor(r)
  local ax1, ay1, ax2, ay2 = r.a:bbox()
  if not r.b then return (ax1 + ax2) / 2, (ay1 + ay2) / 2 end
  local bx1, by1, bx2, by2 = r.b:bbox()
  local x1, y1, x2, y2 = max(ax1, bx1), max(ay1, by1), min(ax2, bx2), min(ay2, by2)
  if x1 > x2 then x1, x2 = (ax1 + ax2) / 2, (ax1 + ax2) / 2 end
  if y1 > y2 then y1, y2 = (ay1 + ay2) / 2, (ay1 + ay2) / 2 end
  return (x1 + x2) / 2, (y1 + y2) / 2
end

local function response(g, r, colors, normalLength, mtvScale)
  local x, y = anchor(r)
  local nx, ny = r.normal.x, r.normal.y
  arrow(g, x, y, x + nx * normalLength, y + ny * normalLength, colors.normal)
  local mx, my = r.mtv.x * mtvScale, r.mtv.y * mtvScale
  local mlen = sqrt(mx * mx + my * my)
  if mlen > 0 and mlen >= M.mtvMin then
    arrow(g, x, y, x + mx, y + my, colors.mtv)
  end
end

-- ---- the world's cells --------------------------------------------------------------

local function checkCells(world)
  if type(world.cells) ~= "function" or type(world.cellSize) ~= "function" then
    error("sat.debug: this world cannot list its cells (world:cells(), world:cellSize())", 3)
  end
end

--- The spatial-hash cells in use: a list of {x, y, size, count, cx, cy, level}: the cell's
-- top-left corner in world units, its size, how many shapes are filed in it, its cell
-- coordinates and its level; level by level, each by row then column (as world:cells(level)
-- gives them).
function M.cells(world)
  checkWorld("cells", 1, world)
  checkCells(world)
  local levels = type(world.levels) == "function" and world:levels() or { 0 }
  local list = {}
  for _, level in ipairs(levels) do
    local cs = world:cellSize() * 2 ^ level
    local flat = world:cells(level)
    for i = 1, #flat, 3 do
      local cx, cy = flat[i], flat[i + 1]
      list[#list + 1] = { x = cx * cs, y = cy * cs, size = cs, count = flat[i + 2], cx = cx,
        cy = cy, level = level }
    end
  end
  return list
end

--- Every colliding pair of the world as a list of responses, each pair once (r.a comes
-- first in world:shapes()), in a deterministic order: by r.a, then r.b, in world order.
function M.contacts(world)
  checkWorld("contacts", 1, world)
  local shapes = world:shapes()
  local index = {}
  for i, s in ipairs(shapes) do index[s] = i end
  local list = {}
  for i, s in ipairs(shapes) do
    local found = {}
    for _, r in ipairs(world:collisions(s)) do
      local j = index[r.b]
      if j and j > i then found[#found + 1] = { j = j, r = r } end
    end
    sort(found, function(p, q) return p.j < q.j end)
    for _, f in ipairs(found) do list[#list + 1] = f.r end
  end
  return list
end

-- ---- public drawing functions -------------------------------------------------------

--- Draws a shape: mode "line" (default) or "fill", in `color` (default M.colors.shape, or
-- M.colors.fill for "fill").
function M.drawShape(s, mode, color)
  local g = graphics()
  checkShape("drawShape", 1, s)
  checkMode("drawShape", 2, mode)
  checkColor("drawShape", 3, color)
  mode = mode or "line"
  local r0, g0, b0, a0 = g.getColor()
  shape(g, s, mode, color or (mode == "fill" and M.colors.fill or M.colors.shape))
  g.setColor(r0, g0, b0, a0)
end

--- Draws a shape's axis-aligned bounding box.
function M.drawBBox(s, color)
  local g = graphics()
  checkShape("drawBBox", 1, s)
  checkColor("drawBBox", 2, color)
  local r0, g0, b0, a0 = g.getColor()
  bbox(g, s, color or M.colors.bbox)
  g.setColor(r0, g0, b0, a0)
end

--- Draws an arrow from (x1, y1) to (x2, y2).
function M.drawArrow(x1, y1, x2, y2, color)
  local g = graphics()
  for n, v in ipairs({ x1, y1, x2, y2 }) do
    if type(v) ~= "number" then badArg("drawArrow", n, "number expected, got " .. type(v), 3) end
  end
  checkColor("drawArrow", 5, color)
  local r0, g0, b0, a0 = g.getColor()
  arrow(g, x1, y1, x2, y2, color or M.colors.normal)
  g.setColor(r0, g0, b0, a0)
end

local function checkResponse(fname, n, r)
  if type(r) ~= "table" or not isShape(r.a) or type(r.normal) == "nil" or r.mtv == nil then
    badArg(fname, n, "response expected, got " .. type(r))
  end
end

--- Draws a collision response (from sat.collide, world:collisions or a callback): its
-- normal, M.normalLength long, and its MTV, both from the contact.
-- options: normalLength, mtvScale (default 1), colors ({normal=, mtv=}).
function M.drawResponse(r, options)
  local g = graphics()
  checkResponse("drawResponse", 1, r)
  options = options or {}
  local colors = options.colors or {}
  local r0, g0, b0, a0 = g.getColor()
  response(g, r, { normal = colors.normal or M.colors.normal, mtv = colors.mtv or M.colors.mtv },
           options.normalLength or M.normalLength, options.mtvScale or 1)
  g.setColor(r0, g0, b0, a0)
end

-- Each cell in use: a fill whose alpha adds up with the shapes filed there, and an outline.
local function cells(g, world, line, fill)
  for _, c in ipairs(M.cells(world)) do
    g.setColor(fill[1], fill[2], fill[3], min(1, (fill[4] or 1) * c.count))
    g.rectangle("fill", c.x, c.y, c.size, c.size)
    setColor(g, line)
    g.rectangle("line", c.x, c.y, c.size, c.size)
  end
end

--- Draws the cells of the world's spatial hash that hold at least one shape.
function M.drawCells(world, color, fillColor)
  local g = graphics()
  checkWorld("drawCells", 1, world)
  checkColor("drawCells", 2, color)
  checkColor("drawCells", 3, fillColor)
  local r0, g0, b0, a0 = g.getColor()
  cells(g, world, color or M.colors.cell, fillColor or M.colors.cellFill)
  g.setColor(r0, g0, b0, a0)
end

-- ---- explain ---------------------------------------------------------------------------

-- Where the rulers go: about (cx, cy), outside the disk of radius `reach` that holds both
-- shapes.
local function figure(a, b, x, y)
  local x1, y1, x2, y2 = a:bbox()
  local u1, v1, u2, v2 = b:bbox()
  x1, y1, x2, y2 = min(x1, u1), min(y1, v1), max(x2, u2), max(y2, v2)
  local cx, cy = x or (x1 + x2) / 2, y or (y1 + y2) / 2
  local dx, dy = max(cx - x1, x2 - cx), max(cy - y1, y2 - cy)
  return cx, cy, sqrt(dx * dx + dy * dy)
end

-- The point of the ruler through (ox, oy) along (nx, ny) at projection v (world units along
-- n), moved off it by `off` along the ruler's outward side (mx, my).
local function onRuler(ox, oy, nx, ny, mx, my, v, off)
  local along = v - (ox * nx + oy * ny)
  return ox + nx * along + mx * off, oy + ny * along + my * off
end

-- A projection [lo, hi] as a bar beside the ruler.
local function bar(g, r, lo, hi, off, color)
  setColor(g, color)
  local x1, y1 = onRuler(r.ox, r.oy, r.nx, r.ny, r.mx, r.my, lo, off)
  local x2, y2 = onRuler(r.ox, r.oy, r.nx, r.ny, r.mx, r.my, hi, off)
  g.line(x1, y1, x2, y2)
end

-- One axis: its ruler (outside the shapes, at distance dist from the figure's centre), the
-- two projections as bars along it, and for the deciding axis the gap (apart) or the
-- overlap that gave the MTV between them and guides across the figure from the ends of both
-- projections; its number at the ruler's end.
local function axisFigure(g, ax, k, cx, cy, dist, reach, deciding, hit, colors)
  local nx, ny = ax.nx, ax.ny
  local mx, my = -ny, nx -- the ruler's side, away from the shapes
  local r = { nx = nx, ny = ny, mx = mx, my = my, ox = cx + mx * dist, oy = cy + my * dist }
  local lo = min(ax.aMin, ax.bMin) - M.axisStep
  local hi = max(ax.aMax, ax.bMax) + M.axisStep
  local width = g.getLineWidth()
  g.setLineWidth(deciding and 2 or 1)
  bar(g, r, lo, hi, 0, deciding and (hit and colors.mtv or colors.gap) or colors.axis)
  g.setLineWidth(M.barWidth)
  bar(g, r, ax.aMin, ax.aMax, -M.barOffset, colors.a)
  bar(g, r, ax.bMin, ax.bMax, M.barOffset, colors.b)
  if deciding then
    -- across both bars: the gap that separates, or the overlap the MTV undoes
    local s, e = max(ax.aMin, ax.bMin), min(ax.aMax, ax.bMax)
    if not hit then s, e = min(ax.aMax, ax.bMax), max(ax.aMin, ax.bMin) end
    local c = hit and colors.mtv or colors.gap
    g.setLineWidth(2 * (M.barOffset + M.barWidth))
    g.setColor(c[1], c[2], c[3], 0.55 * (c[4] or 1))
    local x1, y1 = onRuler(r.ox, r.oy, nx, ny, mx, my, s, 0)
    local x2, y2 = onRuler(r.ox, r.oy, nx, ny, mx, my, e, 0)
    g.line(x1, y1, x2, y2)
    -- and guides from each projection's ends back across the shapes, where they touch them
    g.setLineWidth(1)
    setColor(g, colors.axis)
    for _, v in ipairs({ ax.aMin, ax.aMax, ax.bMin, ax.bMax }) do
      x1, y1 = onRuler(r.ox, r.oy, nx, ny, mx, my, v, 0)
      x2, y2 = onRuler(r.ox, r.oy, nx, ny, mx, my, v, -(dist + reach))
      g.line(x1, y1, x2, y2)
    end
  end
  g.setLineWidth(width)
  if g.print then
    setColor(g, deciding and (hit and colors.mtv or colors.gap) or colors.axis)
    local tx, ty = onRuler(r.ox, r.oy, nx, ny, mx, my, hi, 0)
    g.print(tostring(k), tx + 2 * nx - 4, ty + 2 * ny - 6)
  end
end

--- Draws how the pair test of a and b went (sat.explain): both shapes, every axis it tried as
-- a ruler beside them with both projections on it (a's and b's colours), the deciding axis
-- highlighted (the gap that separates them in red, or the overlap that gave the MTV in
-- green, with the MTV itself as an arrow from the contact), and the contact points. The
-- rulers go round (x, y) (default: the middle of the two shapes), outside both shapes.
-- Returns the explanation.
function M.explain(a, b, x, y)
  local g = graphics()
  checkShape("explain", 1, a)
  checkShape("explain", 2, b)
  if x ~= nil and type(x) ~= "number" then badArg("explain", 3, "number expected, got " .. type(x), 3) end
  if y ~= nil and type(y) ~= "number" then badArg("explain", 4, "number expected, got " .. type(y), 3) end
  local e = core.explain(a, b)
  local colors = M.colors
  local r0, g0, b0, a0 = g.getColor()
  for _, s in ipairs({ a, b }) do
    local c = s == a and colors.a or colors.b
    shape(g, s, "fill", c, M.explainFill)
    shape(g, s, "line", c)
  end
  local cx, cy, reach = figure(a, b, x, y)
  -- an axis nearly parallel to earlier ones (within M.axisSpread radians) gets its ruler
  -- farther out than theirs
  local rings = {}
  for k, ax in ipairs(e.axes) do
    local n = 0
    for i = 1, k - 1 do
      local o = e.axes[i]
      if ax.nx * o.nx + ax.ny * o.ny >= cos(M.axisSpread) then n = max(n, rings[i] + 1) end
    end
    rings[k] = n
    axisFigure(g, ax, k, cx, cy, reach + M.axisGap + n * M.axisStep, reach, k == e.deciding,
               e.hit, colors)
  end
  local count, px1, py1, px2, py2 = core.contacts(a, b)
  if e.hit and e.overlap >= M.mtvMin and e.overlap > 0 then
    -- from the middle of the contacts
    local ox, oy = count == 2 and (px1 + px2) / 2 or px1, count == 2 and (py1 + py2) / 2 or py1
    arrow(g, ox, oy, ox - e.normal.x * e.overlap, oy - e.normal.y * e.overlap, colors.mtv)
  end
  setColor(g, colors.contact)
  local pts = { px1, py1, px2, py2 }
  for i = 1, count do
    g.circle("fill", pts[2 * i - 1], pts[2 * i], M.contactRadius)
  end
  g.setColor(r0, g0, b0, a0)
  return e
end

--- Draws a whole world. options (all optional):
--   shapes = true      outlines of every shape
--   fill = false       fill them too
--   bboxes = false     bounding boxes
--   cells = false      the spatial-hash cells in use (drawn first, underneath)
--   contacts = false   normal and MTV of every colliding pair
--   responses = list   draw these responses instead of asking the world (implies contacts)
--   color = fn(shape) -> colour or nil: per-shape colour (e.g. to highlight)
--   colors = {...}     overrides of M.colors for this call
--   normalLength, mtvScale as in drawResponse
-- Returns the number of pairs drawn.
function M.drawWorld(world, options)
  local g = graphics()
  checkWorld("drawWorld", 1, world)
  if options ~= nil and type(options) ~= "table" then
    badArg("drawWorld", 2, "options table expected, got " .. type(options), 3)
  end
  options = options or {}
  for _, k in ipairs({ "colors", "responses" }) do
    if options[k] ~= nil and type(options[k]) ~= "table" then
      badArg("drawWorld", 2, ("options.%s must be a table, got %s"):format(k, type(options[k])), 3)
    end
  end
  local pick = options.color
  if pick ~= nil and type(pick) ~= "function" then
    badArg("drawWorld", 2, "options.color must be a function, got " .. type(pick), 3)
  end
  local colors = {}
  for k, v in pairs(M.colors) do colors[k] = (options.colors or {})[k] or v end
  local r0, g0, b0, a0 = g.getColor()

  if options.cells then cells(g, world, colors.cell, colors.cellFill) end

  local shapes = world:shapes()
  if options.shapes ~= false then
    local fillAlpha = colors.fill[4] or 1
    for _, s in ipairs(shapes) do
      local c = pick and pick(s)
      -- a picked colour fills with the fill colour's transparency
      if options.fill then shape(g, s, "fill", c or colors.fill, c and fillAlpha or 1) end
      shape(g, s, "line", c or colors.shape)
    end
  end

  if options.bboxes then
    for _, s in ipairs(shapes) do bbox(g, s, colors.bbox) end
  end

  local drawn = 0
  if options.contacts or options.responses then
    local list = options.responses or M.contacts(world)
    local len, scale = options.normalLength or M.normalLength, options.mtvScale or 1
    for _, r in ipairs(list) do
      response(g, r, colors, len, scale)
      drawn = drawn + 1
    end
  end

  g.setColor(r0, g0, b0, a0)
  return drawn
end

return M
