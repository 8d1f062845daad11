-- luacheck: globals love
-- sat in a LÖVE game: a player (box, circle, polygon or capsule) moved with world:move
-- through a level of walls, slopes, rotated polygons, circles, segments, compounds (a concave
-- rock, a chain), sensor zones and moving obstacles;
-- debug overlays; a stress mode; a platformer room (key p, platform.lua: world:mover on
-- slopes and stairs, a one-way ledge, a lift moved by world:push, a bouncing ball).
-- `make love-demo` runs it; SAT_DEMO_AUTO=1 (or --auto) plays a fixed script, writes a log
-- and a screenshot, and quits.

-- ---- the scripted run ------------------------------------------------------------------
-- Decided first, so that even an error while loading sat ends in the log and a non-zero
-- exit status instead of LÖVE's error screen waiting for a key.
local auto = os.getenv("SAT_DEMO_AUTO") == "1"
for _, a in ipairs(rawget(_G, "arg") or {}) do
  if a == "--auto" then auto = true end
end
-- where the scripted run writes demo.log and demo.png (SAT_DEMO_OUT), else the save dir
local outDir = os.getenv("SAT_DEMO_OUT")
if outDir == "" then outDir = nil end

-- ---- the log (scripted run) -----------------------------------------------------------
local log = { lines = {}, file = nil }

function log.open()
  if outDir then
    log.file = assert(io.open(outDir .. "/demo.log", "w"))
    log.file:setvbuf("line")
  end
end

function log.write(fmt, ...)
  if not auto then return end
  local line = fmt:format(...)
  if log.file then
    log.file:write(line, "\n")
  else
    log.lines[#log.lines + 1] = line
  end
end

function log.close()
  if log.file then
    log.file:close()
    log.file = nil
  elseif #log.lines > 0 then
    love.filesystem.write("demo.log", table.concat(log.lines, "\n") .. "\n")
  end
end

-- In the scripted run an error is logged and ends the program with status 1.
local function errorHandler(msg)
  log.write("error %s", tostring(msg):gsub("\n", " | "))
  log.write("traceback %s", (debug.traceback("", 2):gsub("\n", " | ")))
  log.close()
  return function() return 1 end
end

if auto then
  log.open()
  love.errorhandler = errorHandler
end

-- ---- finding sat ----------------------------------------------------------------------
-- LÖVE's require looks in the game folder; sat lives elsewhere in a checkout. The order:
-- 1. SAT_ROOT (`make love-demo` sets it): <root>/lua for sat/*.lua and
--    <root>/build/luajit for sat/core.so (what `make LUA=luajit` builds).
-- 2. `love examples/love` run from a checkout: the repo two folders above the game.
-- 3. A shipped game: sat/*.lua inside the game (found by LÖVE's own loader) and
--    sat/core.so (core.dll on Windows) in a sat/ folder next to the .love file or the fused
--    executable. See docs/love.md on shipping.
local function findSat()
  local ext = package.config:sub(1, 1) == "\\" and "dll" or "so"
  local root = os.getenv("SAT_ROOT")
  if root == nil or root == "" then
    root = nil
    local guess = love.filesystem.getSource() .. "/../.."
    local f = io.open(guess .. "/lua/sat/init.lua", "r")
    if f then
      f:close()
      root = guess
    end
  end
  if root then
    package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
    package.cpath = root .. "/build/luajit/?." .. ext .. ";" .. package.cpath
  end
  package.cpath = package.cpath .. ";" .. love.filesystem.getSourceBaseDirectory() .. "/?." .. ext
end
findSat()

local ok, sat = pcall(require, "sat")
if not ok then
  error("cannot load sat: " .. tostring(sat) .. "\n\nFrom a checkout: run make love-demo "
        .. "(it builds the LuaJIT module first). A shipped game bundles sat/core.so as "
        .. "docs/love.md says (shipping).", 0)
end
local level = require("level")
local script = require("script")
local platform = require("platform")

-- ---- state ----------------------------------------------------------------------------
local SPEED = 200          -- player, pixels per second
local STRESS_STEP = 500    -- shapes added or removed by + and -
local KINDS = { "box", "circle", "polygon", "capsule" }

local frame = 0
local clock = 0            -- seconds of game time
local world, player, movers
local kindIndex = 1
local touching = {}        -- shape -> number of shapes it currently touches
local contacts = {}        -- this frame's colliding pairs, for the normals overlay
local overlays = { bboxes = false, cells = false, normals = false, fill = true, help = true }
local stress = { on = false, count = 2000, shapes = {}, stepMs = 0, avgMs = 0 }
local font, smallFont
local room                 -- the platformer room while it is shown (key p), else nil

-- ---- helpers ----------------------------------------------------------------------------
local function nameOf(s)
  return s.name or tostring(s)
end

local function copyResponse(r)
  return { a = r.a, b = r.b, overlap = r.overlap,
           normal = sat.vec(r.normal.x, r.normal.y), mtv = sat.vec(r.mtv.x, r.mtv.y) }
end

local function moveFilter(_, other)
  if other.role == "zone" then return "cross" end
  if other.role == "stress" then return nil end
  return "slide"
end

-- ---- world --------------------------------------------------------------------------------
local function onEnter(a, b, r)
  touching[a] = (touching[a] or 0) + 1
  touching[b] = (touching[b] or 0) + 1
  if overlays.normals then contacts[#contacts + 1] = copyResponse(r) end
  if a.role ~= "stress" or b.role ~= "stress" then
    log.write("enter %d %s %s", frame, nameOf(a), nameOf(b))
  end
end

local function onStay(_, _, r)
  if overlays.normals then contacts[#contacts + 1] = copyResponse(r) end
end

local function onExit(a, b)
  touching[a] = math.max(0, (touching[a] or 0) - 1)
  touching[b] = math.max(0, (touching[b] or 0) - 1)
  if a.role ~= "stress" or b.role ~= "stress" then
    log.write("exit %d %s %s", frame, nameOf(a), nameOf(b))
  end
end

local function setPlayer(kind, x, y)
  if player then
    x, y = player:position()
    world:remove(player)
  end
  player = world:add(level.playerShape(kind, x, y))
  -- the new body may overlap what the old one only touched: step out
  -- (world:collisions(shape) lists responses seen from shape: r.b is the other one)
  for _ = 1, 4 do
    local moved = false
    for _, r in ipairs(world:collisions(player)) do
      if (r.b.role == "wall" or r.b.role == "mover") and r.overlap > 0 then
        player:move(r.mtv.x, r.mtv.y)
        moved = true
      end
    end
    if not moved then break end
  end
  log.write("player %d %s", frame, kind)
end

local function stressOff()
  for _, s in ipairs(stress.shapes) do world:remove(s) end
  stress.shapes = {}
  stress.on = false
end

local function stressOn()
  stressOff()
  stress.on = true
  local rng = love.math.newRandomGenerator(1234)
  local a = level.arena
  for i = 1, stress.count do
    local x = rng:random(a.x1 + 24, a.x2 - 24)
    local y = rng:random(a.y1 + 24, a.y2 - 24)
    local s
    local k = i % 3
    if k == 0 then
      s = sat.circle(x, y, rng:random(3, 6))
    elseif k == 1 then
      s = sat.box(x, y, rng:random(5, 10), rng:random(5, 10))
    else
      s = sat.polygon(x, y, x + 9, y + 2, x + 3, y + 8)
    end
    level.tag(s, "stress", "stress") -- they only meet each other
    local angle = rng:random() * 2 * math.pi
    local speed = rng:random(20, 80)
    s.vx, s.vy = math.cos(angle) * speed, math.sin(angle) * speed
    s.spin = (rng:random() - 0.5) * 2
    stress.shapes[i] = world:add(s)
  end
end

local function reset()
  world = sat.world(64)
  touching = {}
  contacts = {}
  stress.shapes = {}
  stress.on = false
  world:on("enter", onEnter)
  world:on("stay", onStay)
  world:on("exit", onExit)
  movers = level.build(world)
  player = nil
  setPlayer(KINDS[kindIndex], 120, 160)
  world:step() -- settle the initial pairs
end

-- ---- LÖVE callbacks ----------------------------------------------------------------------
local function isDown(key)
  if auto then return script.isDown(frame, key) end
  return love.keyboard.isDown(key)
end

function love.keypressed(key)
  if key == "escape" then
    love.event.quit(0)
  elseif key == "tab" or key == "1" or key == "2" or key == "3" or key == "4" then
    kindIndex = key == "tab" and kindIndex % #KINDS + 1 or tonumber(key)
    setPlayer(KINDS[kindIndex])
  elseif key == "b" then
    overlays.bboxes = not overlays.bboxes
  elseif key == "c" then
    overlays.cells = not overlays.cells
  elseif key == "n" then
    overlays.normals = not overlays.normals
  elseif key == "f" then
    overlays.fill = not overlays.fill
  elseif key == "h" then
    overlays.help = not overlays.help
  elseif key == "s" then
    if stress.on then stressOff() else stressOn() end
  elseif key == "=" or key == "+" or key == "kp+" then
    stress.count = stress.count + STRESS_STEP
    if stress.on then stressOn() end
  elseif key == "-" or key == "kp-" then
    stress.count = math.max(STRESS_STEP, stress.count - STRESS_STEP)
    if stress.on then stressOn() end
  elseif key == "r" then
    reset()
  elseif key == "p" then
    if room then room = nil else room = platform.new() end
  end
end

function love.load()
  log.write("start %s backend %s frames %d dt %.6f", sat._VERSION, sat.backend, script.totalFrames(),
    script.dt)
  font = love.graphics.newFont(13)
  smallFont = love.graphics.newFont(11)
  reset()
  for _, s in ipairs(world:shapes()) do
    if s.role ~= "player" then
      local x1, y1, x2, y2 = s:bbox()
      log.write("level %s %s %s %.3f %.3f %.3f %.3f", nameOf(s), s.role, s:kind(), x1, y1, x2, y2)
    end
  end
end

local function movePlayer(dt)
  local dx, dy = 0, 0
  if isDown("left") then dx = dx - 1 end
  if isDown("right") then dx = dx + 1 end
  if isDown("up") then dy = dy - 1 end
  if isDown("down") then dy = dy + 1 end
  if dx ~= 0 and dy ~= 0 then dx, dy = dx * math.sqrt(0.5), dy * math.sqrt(0.5) end
  if dx == 0 and dy == 0 then return end
  local _, _, cols = world:move(player, dx * SPEED * dt, dy * SPEED * dt, moveFilter)
  -- what the move met, in order: r.b (also r.other) is the other shape, the normal points
  -- from the player toward it
  for _, r in ipairs(cols) do
    log.write("hit %d %s normal %.4f %.4f overlap %.4f", frame, nameOf(r.b), r.normal.x,
              r.normal.y, r.overlap)
  end
end

-- Moving obstacles push the player out of their way.
local function pushPlayer()
  for _, r in ipairs(world:collisions(player)) do
    if r.b.role == "mover" and r.overlap > 0 then
      player:move(r.mtv.x, r.mtv.y)
      log.write("pushed %d %s normal %.4f %.4f overlap %.4f", frame, nameOf(r.b), r.normal.x,
                r.normal.y, r.overlap)
    end
  end
end

local function moveStress(dt)
  local a = level.arena
  for _, s in ipairs(stress.shapes) do
    local x, y = s:position()
    if (x < a.x1 + 8 and s.vx < 0) or (x > a.x2 - 8 and s.vx > 0) then s.vx = -s.vx end
    if (y < a.y1 + 8 and s.vy < 0) or (y > a.y2 - 8 and s.vy > 0) then s.vy = -s.vy end
    s:move(s.vx * dt, s.vy * dt)
    s:rotate(s.spin * dt)
  end
end

function love.update(dt)
  dt = math.min(dt, 1 / 20) -- a stalled frame must not fling the moving obstacles
  if auto then
    dt = script.dt
    for _, key in ipairs(script.pressed(frame + 1)) do love.keypressed(key) end
  end
  frame = frame + 1
  clock = clock + dt
  contacts = {}

  if room then
    platform.update(room, dt, isDown)
  else
    for _, m in ipairs(movers) do m.update(clock) end
    pushPlayer()
    movePlayer(dt)
    if stress.on then moveStress(dt) end

    local t0 = love.timer.getTime()
    world:step()
    stress.stepMs = (love.timer.getTime() - t0) * 1000
    stress.avgMs = stress.avgMs == 0 and stress.stepMs or stress.avgMs * 0.9 + stress.stepMs * 0.1
  end

  if auto then
    local step = script.at(frame)
    if room then
      log.write("frame %d phase %s room %s", frame, step and step.phase or "-",
        platform.describe(room))
    else
      local x, y = player:position()
      local x1, y1, x2, y2 = player:bbox()
      log.write("frame %d phase %s shape %s x %.4f y %.4f bbox %.4f %.4f %.4f %.4f touching %d",
        frame, step and step.phase or "-", KINDS[kindIndex], x, y, x1, y1, x2, y2,
        touching[player] or 0)
    end
    if stress.on then
      log.write("stress %d shapes %d step_ms %.3f", frame, #stress.shapes, stress.stepMs)
    end
    if frame == script.totalFrames() then
      love.graphics.captureScreenshot(function(image)
        local w, h = image:getDimensions()
        local seen, colors = {}, 0
        for py = 0, h - 1 do
          for px = 0, w - 1 do
            local r, g, b = image:getPixel(px, py)
            local key = math.floor(r * 255 + 0.5) * 65536 + math.floor(g * 255 + 0.5) * 256
                        + math.floor(b * 255 + 0.5)
            if not seen[key] then seen[key] = true; colors = colors + 1 end
          end
        end
        local png = image:encode("png"):getString()
        local path
        if outDir then
          path = outDir .. "/demo.png"
          local f = assert(io.open(path, "wb"))
          f:write(png)
          f:close()
        else
          love.filesystem.write("demo.png", png)
          path = love.filesystem.getSaveDirectory() .. "/demo.png"
        end
        log.write("screenshot %s size %d %d colors %d", path, w, h, colors)
        log.write("done frames %d", frame)
        log.close()
        love.event.quit(0)
      end)
    end
  end
end

-- ---- drawing ------------------------------------------------------------------------------
local COLORS = {
  wall = { 0.55, 0.70, 0.95 },
  zone = { 0.30, 0.85, 0.45 },
  mover = { 0.80, 0.55, 1.00 },
  player = { 1.00, 0.85, 0.20 },
  playerHot = { 1.00, 1.00, 0.60 },
  stress = { 0.55, 0.60, 0.70 },
  hot = { 1.00, 0.40, 0.25 },
}

local function colorOf(s)
  local c = COLORS[s.role] or COLORS.wall
  if (touching[s] or 0) > 0 then
    if s.role == "zone" then return { c[1], c[2], c[3], 1 } end
    if s.role == "player" then return COLORS.playerHot end
    return COLORS.hot
  end
  if s.role == "zone" then return { c[1], c[2], c[3], 0.55 } end
  return c
end

local HELP = {
  "arrows   move the player",
  "tab 1-4  box/circle/polygon/capsule",
  "b   bounding boxes",
  "c   spatial-hash cells",
  "n   normals (red) and MTV (green)",
  "f   fill shapes",
  "s   stress mode",
  "+ -   stress shape count",
  "r   reset     h  hide keys",
  "p   platformer room (up: jump,",
  "    down: drop through a ledge)",
  "esc  quit",
}

local function drawPanel()
  local g = love.graphics
  local x = level.arena.x2 + 14
  g.setColor(0.11, 0.12, 0.15)
  g.rectangle("fill", level.arena.x2, 0, 960 - level.arena.x2, 640)
  g.setFont(font)
  g.setColor(1, 1, 1)
  g.print("sat " .. tostring(sat._VERSION):gsub("^sat ", ""), x, 12)
  g.setFont(smallFont)
  local y = 36
  if overlays.help then
    g.setColor(0.85, 0.87, 0.92)
    for _, line in ipairs(HELP) do
      g.print(line, x, y)
      y = y + 16
    end
    y = y + 10
  end
  local px, py = player:position()
  local lines = {
    ("player   %s"):format(KINDS[kindIndex]),
    ("position %.1f, %.1f"):format(px, py),
    ("touching %d"):format(touching[player] or 0),
    ("shapes   %d"):format(#world:shapes()),
    ("fps      %d"):format(love.timer.getFPS()),
    ("step()   %.2f ms"):format(stress.avgMs),
  }
  if stress.on then lines[#lines + 1] = ("stress   %d moving"):format(#stress.shapes) end
  if auto then lines[#lines + 1] = ("auto     frame %d/%d"):format(frame, script.totalFrames()) end
  local on = {}
  for _, k in ipairs({ "bboxes", "cells", "normals" }) do
    if overlays[k] then on[#on + 1] = k end
  end
  lines[#lines + 1] = "overlays " .. (#on > 0 and table.concat(on, " ") or "none")
  g.setColor(1, 0.9, 0.5)
  for _, line in ipairs(lines) do
    g.print(line, x, y)
    y = y + 16
  end
  -- colour key
  y = y + 10
  for _, k in ipairs({ "wall", "zone", "mover", "player", "hot" }) do
    g.setColor(COLORS[k])
    g.rectangle("fill", x, y + 3, 10, 10)
    g.setColor(0.85, 0.87, 0.92)
    g.print(k == "hot" and "touching" or k, x + 16, y)
    y = y + 16
  end
end

function love.draw()
  local g = love.graphics
  g.clear(0.07, 0.08, 0.10)
  g.setLineWidth(1)
  if room then
    platform.draw(room)
  else
    sat.debug.drawWorld(world, {
      fill = overlays.fill,
      cells = overlays.cells,
      bboxes = overlays.bboxes,
      responses = overlays.normals and contacts or nil,
      color = colorOf,
    })
  end
  drawPanel()
end
