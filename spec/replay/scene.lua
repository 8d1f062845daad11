--- The replay scene (issue 29, point 4): a scripted world of every kind run for a number of
-- frames, printing its digest every 100 frames. Everything it does is decided by the frame
-- number and an arithmetic generator (no math.random, no pairs, no os.time, no float
-- formatting): the same lines must come out on every Lua, backend and platform
-- (spec/suites/replay.sh compares them).
--
-- Each frame: movers go through world:move with every response (slide, touch, cross, and
-- ignored), spinners rotate and scale, bullets fly by shape:move and are spawned and removed,
-- a compound turns about a pivot, world:step fires enter / stay / exit into handlers that add
-- and remove shapes, and queries of every kind are folded into a running hash of what the game
-- saw ("log"). Every 50 frames the scene takes a snapshot, runs 20 frames, restores and runs
-- them again: each frame's digest and log must come out as the first time (else an error).
--
--   lua spec/replay/scene.lua [frames [convex]]  (LUA_PATH/LUA_CPATH as for the specs)
-- run(frames, print) is what a LÖVE build (spec/replay/love/main.lua) calls.
local sat = require("sat")
local bits = require("sat.world_state").bits

local floor = math.floor

local M = {}

-- a running hash of numbers (exactly as world:digest's lanes)
local P1, K1, P2, K2 = 2147483647, 4194301, 2147483629, 3141601
local function mixer()
  return { 17, 31 }
end
local function mixInt(h, x)
  h[1], h[2] = (h[1] * K1 + x) % P1, (h[2] * K2 + x) % P2
end
local function mixNum(h, d)
  local a, b = bits(d)
  mixInt(h, a)
  mixInt(h, b)
end

-- the generator: Park and Miller's x = 48271 x mod (2^31 - 1), exact in doubles (and in
-- 5.3's integers) since 48271 x < 2^53
local function nextRand(g)
  g.x = (48271 * g.x) % 2147483647
  return g.x
end
local function randInt(g, n) -- 0 .. n - 1
  return floor((nextRand(g) - 1) / 2147483646 * n)
end

-- convexOnly: compounds, concave outlines and chains made as boxes instead (for a backend that
-- has no compounds yet: its digests are then compared with the native ones of the same run)
function M.run(frames, out, convexOnly)
  local world = sat.world(48)
  local function compound(parts)
    if convexOnly then
      local x, y = parts[1]:position()
      return sat.box(x - 10, y - 10, 20, 20)
    end
    return sat.compound(parts)
  end
  local function concave(pts)
    if convexOnly then
      return sat.box(pts[1], pts[2], 20, 20)
    end
    return sat.concave(pts)
  end
  local function chain(pts)
    if convexOnly then
      return sat.box(pts[1], pts[2], 20, 20)
    end
    return sat.chain(pts)
  end
  local g = { x = 20261127 }
  local log = mixer()
  local game = { nextId = 0, rng = g, log = log, frame = 0 }

  local function tag(s, role)
    game.nextId = game.nextId + 1
    s.sid, s.role = game.nextId, role
    return s
  end

  -- walls: boxes, segments, a chain, a concave outline, statics
  for i = 0, 9 do
    world:add(tag(sat.box(i * 60, 0, 50, 10), "wall"), "static")
    world:add(tag(sat.box(i * 60, 590, 50, 10), "wall"), "static")
  end
  world:add(tag(sat.segment(0, 20, 0, 580), "wall"), "static")
  world:add(tag(sat.segment(600, 20, 600, 580), "wall"), "static")
  world:add(tag(chain({ 100, 300, 160, 320, 220, 300, 280, 340 }), "wall"), "static")
  world:add(tag(concave({ 400, 400, 480, 400, 480, 480, 440, 440, 400, 480 }), "wall"),
    "static")
  -- movers of every kind
  local movers = {
    tag(sat.circle(100, 100, 12), "mover"),
    tag(sat.box(200, 100, 20, 14), "mover"),
    tag(sat.polygon(300, 100, 320, 110, 310, 130, 295, 120), "mover"),
    tag(sat.capsule(400, 100, 430, 110, 6), "mover"),
    tag(sat.segment(500, 120, 520, 150), "mover"),
    tag(compound({ sat.circle(150, 200, 8), sat.box(160, 195, 20, 10) }), "mover"),
    tag(sat.point(250, 250), "mover"),
  }
  for i = 1, #movers do
    world:add(movers[i])
  end
  -- spinners: rotate and scale, one about a pivot
  local spinners = {
    tag(sat.box(300, 300, 60, 8), "spinner"),
    tag(sat.capsule(150, 450, 210, 450, 5), "spinner"),
    tag(compound({ sat.box(450, 250, 30, 30), sat.circle(500, 265, 10) }), "spinner"),
    tag(concave({ 80, 500, 120, 500, 120, 540, 100, 520, 80, 540 }), "spinner"),
  }
  for i = 1, #spinners do
    world:add(spinners[i])
  end
  spinners[1].category, spinners[1].mask = 2, 0xFFFFFFFD -- (no spinner-spinner pairs)
  spinners[2].category, spinners[2].mask = 2, 0xFFFFFFFD

  local RESP = { "slide", "touch", "cross", false }
  local function moveFilter(_, other)
    local r = RESP[other.sid % 4 + 1]
    if r == false then
      return nil
    end
    return r
  end

  world:on("enter", function(a, b, r)
    mixInt(log, 1)
    mixInt(log, a.sid)
    mixInt(log, b.sid)
    mixNum(log, r.overlap)
    mixNum(log, r.normal.x)
    -- bullets die on the first wall they enter; a spinner's hit makes a spark
    if a.role == "bullet" and b.role == "wall" and world:has(a) then
      world:remove(a)
    elseif b.role == "bullet" and a.role == "wall" and world:has(b) then
      world:remove(b)
    elseif (a.role == "spinner" or b.role == "spinner") and (a.role == "mover" or b.role == "mover") then
      local x, y = a:position()
      world:add(tag(sat.circle(x, y, 3), "spark"))
    end
  end)
  world:on("stay", function(a, b, r)
    mixInt(log, 2)
    mixInt(log, a.sid)
    mixInt(log, b.sid)
    mixNum(log, r.mtv.y)
  end)
  world:on("exit", function(a, b)
    mixInt(log, 3)
    mixInt(log, a.sid)
    mixInt(log, b.sid)
  end)
  world:setFilter(function(a, b)
    return not (a.role == "spark" and b.role == "spark")
  end)

  local shapesBuf, hits, cols, rcols, found = {}, {}, {}, {}, {}

  local function frame(f)
    -- movers: a direction from the generator every 16 frames, else steady
    for i = 1, #movers do
      local m = movers[i]
      if f % 16 == 1 or m.vx == nil then
        m.vx = (randInt(g, 13) - 6) * 0.75
        m.vy = (randInt(g, 13) - 6) * 0.625
      end
      local x, y, c = world:move(m, m.vx, m.vy, moveFilter, cols)
      mixNum(log, x)
      mixNum(log, y)
      mixInt(log, #c)
      for k = 1, #c do
        mixInt(log, c[k].other.sid)
        mixNum(log, c[k].x)
        mixNum(log, c[k].overlap)
      end
      if x < 10 or x > 590 or y < 20 or y > 580 then
        m:moveTo(300 + i * 7.25, 300 - i * 3.5)
        m.vx, m.vy = -m.vx, -m.vy
      end
    end
    -- spinners
    spinners[1]:rotate(0.05)
    spinners[2]:rotate(-0.031, 180, 450)
    spinners[3]:setRotation(f * 0.013)
    spinners[4]:rotate(0.02)
    if f % 40 < 20 then
      spinners[3]:scale(1.01)
    else
      spinners[3]:scale(1 / 1.01)
    end
    -- bullets: one every 7 frames, flying until a wall or 90 frames
    if f % 7 == 0 then
      local k = randInt(g, 4)
      local b
      if k == 0 then
        b = sat.circle(30, 60 + randInt(g, 480), 4)
      elseif k == 1 then
        b = sat.box(30, 60 + randInt(g, 480), 6, 3)
      elseif k == 2 then
        b = sat.capsule(30, 100 + randInt(g, 400), 38, 100 + randInt(g, 400), 2)
      else
        b = sat.segment(30, 100, 36, 104)
      end
      tag(b, "bullet")
      b.born, b.vx, b.vy = f, 3 + randInt(g, 5), (randInt(g, 9) - 4) * 0.5
      world:add(b)
    end
    local list = world:shapes(shapesBuf)
    for i = 1, #list do
      local s = list[i]
      if s.role == "bullet" then
        if f - s.born > 90 then
          world:remove(s)
        else
          s:move(s.vx, s.vy)
          s:rotate(0.1)
        end
      elseif s.role == "spark" and (s.born or f) + 10 < f then
        world:remove(s)
      elseif s.role == "spark" and not s.born then
        s.born = f
      end
    end
    -- queries
    local x0, y0 = 50 + (f * 7) % 400, 50 + (f * 11) % 400
    local q = world:queryRect(x0, y0, 120, 90, nil, found)
    mixInt(log, #q)
    for i = 1, #q do mixInt(log, q[i].sid) end
    q = world:queryPoint(x0 + 30.5, y0 + 20.25, nil, found)
    for i = 1, #q do mixInt(log, q[i].sid) end
    local hs = world:querySegment(0, y0, 600, 600 - y0, nil, hits)
    mixInt(log, #hs)
    for i = 1, #hs do
      mixInt(log, hs[i].shape.sid)
      mixNum(log, hs[i].t)
      mixNum(log, hs[i].nx)
    end
    q = world:queryShape(spinners[1], nil, found)
    for i = 1, #q do mixInt(log, q[i].sid) end
    local rs = world:collisions(movers[f % #movers + 1], rcols)
    for i = 1, #rs do
      mixInt(log, rs[i].b.sid)
      mixNum(log, rs[i].overlap)
    end
    mixInt(log, world:step())
  end

  local snap = {}
  local function saveGame()
    return { nextId = game.nextId, x = g.x, l1 = log[1], l2 = log[2], vs = (function()
      local v = {}
      for i = 1, #movers do
        v[2 * i - 1], v[2 * i] = movers[i].vx or false, movers[i].vy or false
      end
      return v
    end)() }
  end
  local function loadGame(s)
    game.nextId, g.x, log[1], log[2] = s.nextId, s.x, s.l1, s.l2
    for i = 1, #movers do
      movers[i].vx, movers[i].vy = s.vs[2 * i - 1] or nil, s.vs[2 * i] or nil
    end
  end

  local f = 0
  while f < frames do
    if f % 50 == 0 and f + 20 <= frames then
      -- a rollback: 20 frames, back, and the same 20 again
      world:snapshot(snap)
      local saved = saveGame()
      local first = {}
      for k = 1, 20 do
        frame(f + k)
        first[k] = world:digest() .. " " .. log[1] .. " " .. log[2]
      end
      world:restore(snap)
      loadGame(saved)
      for k = 1, 20 do
        frame(f + k)
        local again = world:digest() .. " " .. log[1] .. " " .. log[2]
        if again ~= first[k] then
          error(("frame %d after the rollback at %d: %s, first %s"):format(f + k, f, again,
            first[k]))
        end
        if (f + k) % 100 == 0 then
          out(("%5d %s %08x%08x %d"):format(f + k, world:digest(), log[1], log[2], world:count()))
        end
      end
      f = f + 20
    else
      f = f + 1
      frame(f)
      if f % 100 == 0 then
        out(("%5d %s %08x%08x %d"):format(f, world:digest(), log[1], log[2], world:count()))
      end
    end
  end
end

if arg and arg[0] and arg[0]:match("scene%.lua$") then -- run as a script (not required)
  M.run(tonumber(arg and arg[1]) or 2000, print, arg[2] == "convex")
end
return M
