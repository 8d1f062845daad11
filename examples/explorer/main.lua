-- luacheck: globals love
-- The SAT explorer: two shapes and the Separating Axis Theorem at work on them, drawn live by
-- sat.debug.explain: every axis the test tries, as a ruler beside the shapes with both of
-- their projections on it, the gap that separates them or the overlap that gave the MTV,
-- the MTV and the contact points; a panel lists the axes as sat.explain gives them.
-- Drag a shape with the mouse, turn it with the wheel, `a` and `b` change a shape's kind, `s`
-- swaps them, `r` starts again, `escape` quits. `make explorer` runs it; SAT_EXPLORER_AUTO=1
-- (or --auto) plays script.lua, writes a log and a screenshot (SAT_EXPLORER_OUT) and quits.

local auto = os.getenv("SAT_EXPLORER_AUTO") == "1"
  or table.concat(rawget(_G, "arg") or {}, " "):find("--auto", 1, true) ~= nil
local outDir = os.getenv("SAT_EXPLORER_OUT")
if outDir == "" then outDir = nil end

-- ---- the log of the automated run: every line at once to explorer.log ------------------
local logFile
local function log(fmt, ...)
  if auto and logFile then logFile:write(fmt:format(...), "\n") end
end

if auto then
  logFile = assert(io.open((outDir or ".") .. "/explorer.log", "w"))
  logFile:setvbuf("line")
  -- an error is logged and ends the run with status 1 (no error screen waiting for a key)
  love.errorhandler = function(msg)
    log("error %s", (tostring(msg):gsub("\n", " | ")))
    log("traceback %s", (debug.traceback("", 2):gsub("\n", " | ")))
    logFile:close()
    return function() return 1 end
  end
end

-- ---- finding sat: SAT_ROOT (make explorer sets it), else the checkout two folders up ------
do
  local root = os.getenv("SAT_ROOT")
  if root == nil or root == "" then root = love.filesystem.getSource() .. "/../.." end
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
end
local sat = require("sat")
local script = require("script")

-- ---- the two shapes -----------------------------------------------------------------------
local KINDS = { "hexagon", "box", "circle", "capsule", "segment", "point", "triangle" }

-- A regular n-gon of radius r about (x, y), its first corner at angle `turn`.
local function regular(n, x, y, r, turn)
  local centre, spoke, corners = sat.vec(x, y), sat.vec(r, 0):rotated(turn), {}
  for i = 1, n do
    corners[i] = centre + spoke:rotated(2 * math.pi * (i - 1) / n)
  end
  return sat.polygon(corners)
end

-- A shape of the kind about (x, y), turned by angle.
local function make(kind, x, y, angle)
  local s
  if kind == "hexagon" then
    s = regular(6, x, y, 90, 0)
  elseif kind == "box" then
    s = sat.box(x - 85, y - 55, 170, 110)
  elseif kind == "circle" then
    s = sat.circle(x, y, 70)
  elseif kind == "capsule" then
    s = sat.capsule(x - 70, y, x + 70, y, 40)
  elseif kind == "segment" then
    s = sat.segment(x - 95, y, x + 95, y)
  elseif kind == "point" then
    s = sat.point(x, y)
  else
    s = regular(3, x, y, 100, -math.pi / 2)
  end
  return s:setRotation(angle)
end

local shapes, kinds, dragging, grab, last

local function reset()
  kinds = { a = 1, b = 2 }
  shapes = { a = make("hexagon", 330, 330, 0.15), b = make("box", 700, 330, -0.35) }
  dragging, last = nil, shapes.a
end

-- The shape under (x, y): b first (drawn last); for shapes with no inside (a point, a
-- segment), within a few pixels.
local function under(x, y)
  for _, k in ipairs({ "b", "a" }) do
    local s = shapes[k]
    local probe = sat.circle(x, y, 6)
    if s:contains(x, y) or sat.test(s, probe) then return k end
  end
  return nil
end

local function nextKind(k)
  local s = shapes[k]
  local x, y = s:position()
  kinds[k] = kinds[k] % #KINDS + 1
  shapes[k] = make(KINDS[kinds[k]], x, y, s:rotation())
  last = shapes[k]
end

local function turn(x, y, amount)
  local k = under(x, y)
  local s = k and shapes[k] or last
  s:rotate(amount)
  last = s
end

-- ---- LÖVE callbacks -------------------------------------------------------------------------
function love.keypressed(key)
  if key == "escape" then
    love.event.quit(0)
  elseif key == "a" or key == "b" then
    nextKind(key)
  elseif key == "s" then
    shapes.a, shapes.b = shapes.b, shapes.a
    kinds.a, kinds.b = kinds.b, kinds.a
  elseif key == "r" then
    reset()
  end
end

function love.mousepressed(x, y, button)
  if button ~= 1 then return end
  dragging = under(x, y)
  if dragging then
    local sx, sy = shapes[dragging]:position()
    grab = { sx - x, sy - y }
    last = shapes[dragging]
  end
end

function love.mousemoved(x, y)
  if dragging then shapes[dragging]:moveTo(x + grab[1], y + grab[2]) end
end

function love.mousereleased()
  dragging = nil
end

function love.wheelmoved(_, dy)
  turn(love.mouse.getX(), love.mouse.getY(), dy * 0.08)
end

local font, small
local frame = 0

function love.load()
  font = love.graphics.newFont(15)
  small = love.graphics.newFont(12)
  reset()
  log("start %s backend %s frames %d", sat._VERSION, sat.backend, script.totalFrames())
end

-- The scripted run's input for this frame.
local function play(f)
  local step, i = script.at(f)
  if not step then return end
  if i == 1 then
    for _, key in ipairs(step.press or {}) do love.keypressed(key) end
  end
  local d = step.drag
  if d then
    local k = i / step.frames
    if i == 1 then love.mousepressed(d[1], d[2], 1) end
    love.mousemoved(d[1] + (d[3] - d[1]) * k, d[2] + (d[4] - d[2]) * k)
    if i == step.frames then love.mousereleased() end
  end
  if step.wheel then turn(step.at[1], step.at[2], step.wheel * 0.05) end
  return step
end

-- Writes the screenshot (and how many colours it has: a blank window has one or two).
local function screenshot()
  love.graphics.captureScreenshot(function(image)
    local w, h = image:getDimensions()
    local seen, colors = {}, 0
    for py = 0, h - 1, 2 do
      for px = 0, w - 1, 2 do
        local r, g, b = image:getPixel(px, py)
        local key = math.floor(r * 255 + 0.5) * 65536 + math.floor(g * 255 + 0.5) * 256
                    + math.floor(b * 255 + 0.5)
        if not seen[key] then seen[key], colors = true, colors + 1 end
      end
    end
    local path = (outDir or love.filesystem.getSaveDirectory()) .. "/explorer.png"
    local png = image:encode("png"):getString()
    if outDir then
      local f = assert(io.open(path, "wb"))
      f:write(png)
      f:close()
    else
      love.filesystem.write("explorer.png", png)
    end
    log("screenshot %s size %d %d colors %d", path, w, h, colors)
    log("done frames %d", frame)
    logFile:close()
    love.event.quit(0)
  end)
end

function love.update()
  if not auto then return end
  frame = frame + 1
  local step = play(frame)
  -- what the frame shows, and that the explanation is sat.collide's result bit for bit
  local a, b = shapes.a, shapes.b
  local e, r = sat.explain(a, b), sat.collide(a, b)
  local same = (r ~= nil) == e.hit and (not r or (r.overlap == e.overlap
    and r.normal.x == e.normal.x and r.normal.y == e.normal.y))
  local n = sat.contacts(a, b)
  log("frame %d step %s a %s b %s hit %d axes %d deciding %d overlap %.6f contacts %d %s",
    frame, step and step.name or "-", KINDS[kinds.a], KINDS[kinds.b], e.hit and 1 or 0,
    #e.axes, e.deciding or 0, e.overlap or 0, n, same and "agrees" or "DIFFERS")
  if frame == script.totalFrames() then screenshot() end
end

-- ---- drawing ------------------------------------------------------------------------------
local PANEL = 780 -- the panel's left edge

local function row(y, color, cells)
  love.graphics.setColor(color)
  local x = PANEL + 16
  for _, c in ipairs(cells) do
    love.graphics.print(c[1], x, y)
    x = x + c[2]
  end
end

local function num(v)
  return v and ("%.5g"):format(v + 0.0) or "-"
end

local function panel(e)
  local g, colors = love.graphics, sat.debug.colors
  g.setColor(0.10, 0.11, 0.14)
  g.rectangle("fill", PANEL, 0, 1120 - PANEL, 680)
  g.setFont(font)
  g.setColor(colors.a)
  g.print("a  " .. KINDS[kinds.a], PANEL + 16, 14)
  g.setColor(colors.b)
  g.print("b  " .. KINDS[kinds.b], PANEL + 176, 14)
  local y = 42
  if e.hit then
    g.setColor(colors.mtv)
    g.print(("hit: overlap %s"):format(num(e.overlap)), PANEL + 16, y)
    g.setFont(small)
    g.print(("normal (%s, %s), containment %s"):format(num(e.normal.x), num(e.normal.y),
      num(e.containment)), PANEL + 16, y + 22)
  else
    g.setColor(colors.gap)
    g.print(("apart: axis %d separates"):format(e.deciding or 0), PANEL + 16, y)
  end
  g.setFont(small)
  y = 96
  local widths = { 26, 28, 82, 70, 70 }
  local function cells(t)
    local out = {}
    for i, v in ipairs(t) do out[i] = { v, widths[i] } end
    return out
  end
  row(y, { 0.75, 0.77, 0.85 }, cells({ "#", "of", "feature", "overlap", "" }))
  y = y + 18
  for k, ax in ipairs(e.axes) do
    local color = k == e.deciding and (e.hit and colors.mtv or colors.gap)
      or ax.separates and { 1, 0.55, 0.6 } or { 0.85, 0.87, 0.92 }
    row(y, color, cells({ (k == e.deciding and ">" or "") .. k, ax.from, ax.feature,
      num(ax.overlap), ax.separates and "separates" or "" }))
    y = y + 17
    if y > 600 then break end
  end
  g.setColor(0.6, 0.62, 0.7)
  g.print("drag: move   wheel: turn   a / b: kind   s: swap   r: reset", 16, 650)
  g.print("each axis: a ruler, a's projection (orange)", PANEL + 16, 608)
  g.print("and b's (blue) on it; green: the overlap", PANEL + 16, 626)
  g.print("that gave the MTV; red: a gap; yellow: contacts", PANEL + 16, 644)
end

function love.draw()
  local g = love.graphics
  g.clear(0.06, 0.07, 0.09)
  g.setLineWidth(1.5)
  g.setFont(small)
  local e = sat.debug.explain(shapes.a, shapes.b, 390, 330)
  panel(e)
end
