--- sat.debug: draws shapes, bounding boxes, spatial-hash cells and collision responses
-- through love.graphics. Loaded on first access of `sat.debug`; requiring it does not need
-- LÖVE, only calling the drawing functions does.
--
--   local debug = require("sat").debug
--   function love.draw()
--     debug.drawWorld(world, { bboxes = true, cells = true, contacts = true })
--   end

local M = {}

local sqrt, max, min = math.sqrt, math.max, math.min
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
}

-- Sizes, in world units (pixels when the camera is identity).
M.normalLength = 28 -- a normal is a unit vector: drawn this long
M.arrowHead = 7     -- length of each stroke of an arrow head
M.arrowWidth = 2    -- line width of arrows
M.mtvMin = 0        -- an MTV shorter than this is not drawn

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

local isShape = require("sat.core").isShape

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

local function shape(g, s, mode, color, alpha)
  setColor(g, color, alpha)
  if s:kind() == "polygon" then
    g.polygon(mode, s:vertices())
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

--- The spatial-hash cells in use: a list of {x, y, size, count, cx, cy}: the cell's
-- top-left corner in world units, its size, how many shapes are filed in it, and its cell
-- coordinates; by row then column (as world:cells() gives them).
function M.cells(world)
  checkWorld("cells", 1, world)
  checkCells(world)
  local cs = world:cellSize()
  local flat = world:cells()
  local list = {}
  for i = 1, #flat, 3 do
    local cx, cy = flat[i], flat[i + 1]
    list[#list + 1] = { x = cx * cs, y = cy * cs, size = cs, count = flat[i + 2], cx = cx, cy = cy }
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
