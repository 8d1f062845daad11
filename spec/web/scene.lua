-- The scripted scene that proves a shipped sat gives the same results everywhere: in plain Lua,
-- in a LÖVE game (native module or pure backend) and in a love.js web build (pure backend, Lua
-- 5.1 in WebAssembly). scene.run(sat, emit) calls emit(line) once per result, as text:
-- numbers with %.17g (so that equal text means equal bits), -0 as "-0", booleans and nil by
-- name, one line per result; error messages without their position prefix. The runs are then
-- compared line for line (spec/suites/dist.sh, spec/suites/web.sh).
--
-- What it covers: shapes of every kind (concave, compound and chain only when the pure backend
-- has compounds: see `compounds` below) turned, scaled and moved far from the origin, their
-- queries; every pair call between every two kinds in both orders, overlapping, touching and
-- apart (test, collidesWith, collide, contacts, sweep, explain with every axis, raycast); a
-- world with static tiles, categories and masks, a world filter, handlers on the world and on
-- shapes, moves with every response of a move filter, steps, every query with a filter.
-- Nothing depends on pairs order or on the Lua version: the same lines under 5.1-5.4 and LuaJIT.
local scene = {}

local format, huge = string.format, math.huge
local unpack = rawget(table, "unpack") or rawget(_G, "unpack")

-- one value as text
local function text(v)
  local t = type(v)
  if t == "number" then
    if v ~= v then
      return "nan"
    elseif v == huge then
      return "inf"
    elseif v == -huge then
      return "-inf"
    elseif v == 0 then
      return 1 / v < 0 and "-0" or "0"
    end
    return format("%.17g", v)
  elseif t == "string" then
    return v
  elseif t == "nil" or t == "boolean" then
    return tostring(v)
  end
  return "<" .. t .. ">"
end
scene.text = text

-- the values ... as text, separated by spaces
local function join(...)
  local n = select("#", ...)
  local out = {}
  for i = 1, n do
    out[i] = text((select(i, ...)))
  end
  return table.concat(out, " ")
end
scene.join = join

-- Does the pure backend have compounds (concave, compound, chain)? Asked of its file whichever
-- backend runs, so that both runs of one checkout cover the same kinds.
local function pure_compounds()
  local ok, mod = pcall(require, "sat.pure.sat_compound")
  return ok and type(mod) == "table"
end
scene.compounds = pure_compounds

-- A regular n-gon of radius r about (x, y) made of vecs turned (vec:rotated, vec + vec), as
-- the explorer makes it: opposite edges parallel, so that explain's ties show.
local function regular(sat, n, x, y, r, turn)
  local centre, spoke, corners = sat.vec(x, y), sat.vec(r, 0):rotated(turn), {}
  for i = 1, n do
    corners[i] = centre + spoke:rotated(2 * math.pi * (i - 1) / n)
  end
  return sat.polygon(corners)
end

-- The shapes, made afresh (name, shape) in a fixed order.
local function make_shapes(sat, compounds)
  local list = {
    { "polygon", sat.polygon(0, 0, 40, -5, 55, 30, 20, 45, -10, 25) },
    { "triangle", sat.polygon({ sat.vec(3, 1), sat.vec(33, 7), sat.vec(12, 29) }) },
    { "circle", sat.circle(30, 20, 17) },
    { "point", sat.point(12, 9) },
    { "box", sat.box(5, 5, 30, 20) },
    { "segment", sat.segment(-5, 40, 50, -3) },
    { "capsule", sat.capsule(0, 10, 40, 30, 6) },
    { "ball", sat.capsule(7, 7, 7, 7, 9) },
    { "hexagon", regular(sat, 6, 20, 15, 18, 0.1) },
    { "hexagon0", regular(sat, 6, 15, 20, 24, 0) },
  }
  if compounds then
    list[#list + 1] = { "concave", sat.concave(0, 0, 40, 0, 40, 30, 20, 12, 0, 30) }
    list[#list + 1] = { "compound", sat.compound({ sat.box(0, 0, 20, 10), sat.circle(25, 5, 8),
      sat.capsule(0, 20, 30, 25, 3) }) }
    list[#list + 1] = { "chain", sat.chain({ -10, 30, 10, 20, 30, 28, 50, 10 }) }
  end
  return list
end

-- A shape's state: kind, position, rotation, box, area, and what its kind has.
local function describe(emit, name, s)
  emit("shape " .. name .. " " .. join(s:kind(), s:position()) .. " rot " .. join(s:rotation()))
  emit("  bbox " .. join(s:bbox()) .. " area " .. join(s:area()))
  local kind = s:kind()
  if kind == "polygon" or (kind == "compound" and name:sub(1, 8) ~= "compound") then
    emit("  vertices " .. join(unpack(s:vertices())))
  end
  if kind == "circle" or kind == "capsule" then
    emit("  radius " .. join(s:radius()))
  end
  if kind == "segment" or kind == "capsule" then
    emit("  endpoints " .. join(s:endpoints()))
  end
  if kind == "compound" then
    local parts = s:parts()
    emit("  parts " .. #parts)
    for i = 1, #parts do
      emit("  part " .. i .. " " .. join(parts[i]:kind(), parts[i]:position()) .. " bbox " ..
        join(parts[i]:bbox()))
    end
  end
end

local function shapes_section(sat, emit, compounds)
  local list = make_shapes(sat, compounds)
  for i = 1, #list do
    local name, s = list[i][1], list[i][2]
    describe(emit, name, s)
    -- turned about a pivot, scaled, moved far away, turned about its position
    local t = s:clone():rotate(0.7, 3, -4):scale(1.3):move(1e6, -2.5e5):setRotation(-2.1)
    describe(emit, name .. "/far", t)
    local x, y = s:position()
    local x1, y1, x2, y2 = s:bbox()
    local probes = { { x, y }, { x1, y1 }, { x2, (y1 + y2) / 2 }, { x + 0.5, y - 0.25 },
      { x2 + 1e-9, y2 }, { (x1 + x2) / 2, y1 } }
    for k = 1, #probes do
      emit("  contains " .. join(probes[k][1], probes[k][2], s:contains(probes[k][1], probes[k][2])))
    end
    local rays = { { x1 - 20, y - 3, x2 + 20, y + 2 }, { x, y1 - 50, x, y2 + 50 },
      { x, y, x + 100, y + 100 }, { x2 + 5, y2 + 5, x2 + 50, y2 + 60 },
      { x1 - 10, y1 - 10, x2 + 10, y2 + 10 } }
    for k = 1, #rays do
      local r = rays[k]
      emit("  raycast " .. join(s:raycast(r[1], r[2], r[3], r[4])))
    end
  end
end

-- Every pair call between every two shapes, both orders, at offsets that overlap, touch and
-- miss.
local OFFSETS = { { 0, 0 }, { 20, 5 }, { -35, 12.5 }, { 45, -30 }, { 0.1, 60 }, { 200, 200 } }

local function pair_section(sat, emit, compounds)
  local list = make_shapes(sat, compounds)
  local response = {}
  for i = 1, #list do
    for j = 1, #list do
      local an, a = list[i][1], list[i][2]
      local bn, b0 = list[j][1], list[j][2]
      for k = 1, #OFFSETS do
        local b = b0:clone():move(OFFSETS[k][1], OFFSETS[k][2])
        if k == 4 then
          b:rotate(0.3)
        end
        local tag = "pair " .. an .. " " .. bn .. " " .. k
        emit(tag .. " test " .. join(sat.test(a, b)) .. " with " .. join(a:collidesWith(b)))
        local r = sat.collide(a, b, response)
        if r then
          emit(tag .. " collide " .. join(r.overlap, r.normal.x, r.normal.y, r.mtv.x, r.mtv.y,
            r.aInB, r.bInA, r.a == a, r.b == b))
        else
          emit(tag .. " collide nil")
        end
        emit(tag .. " contacts " .. join(sat.contacts(a, b)))
        emit(tag .. " sweep " .. join(sat.sweep(a, 60, -25, b)))
        emit(tag .. " sweep2 " .. join(sat.sweep(a, -30, 10, b, 15, 40)))
        local e = sat.explain(a, b)
        emit(tag .. " explain " .. join(e.hit, e.deciding, #e.axes, e.overlap, e.containment))
        for n = 1, #e.axes do
          local x = e.axes[n]
          emit(tag .. " axis " .. n .. " " .. join(x.nx, x.ny, x.from, x.feature, x.aMin, x.aMax,
            x.bMin, x.bMax, x.overlap, x.separates))
        end
      end
    end
  end
end

-- errors: the message without the position prefix (which names the file that called)
local function errors_section(sat, emit)
  -- (not tail calls: a tail call's name is lost, and each Lua words that differently)
  local calls = {
    function() local s = sat.circle(0, 0, -1); return s end,
    function() local s = sat.polygon(0, 0, 1, 1, 2, 2); return s end,
    function() local s = sat.box(0, 0, 0, 5); return s end,
    function() local s = sat.segment(1, 1, 1, 1); return s end,
    function() local c = sat.circle(0, 0, 1); local s = c:scale(2, 3); return s end,
    function() local r = sat.collide(sat.circle(0, 0, 1), "x"); return r end,
    function() local s = sat.circle(0, 0, 1); s.move = 1 end,
    function() local w = sat.world(0); return w end,
    function() local s = sat.circle(0, 0, 1); local x = s:raycast(0, 0, "a", 1); return x end,
  }
  for i = 1, #calls do
    local ok, err = pcall(calls[i])
    emit("error " .. i .. " " .. tostring(ok) .. " " .. tostring(err):gsub("^[^\n]-:%d+: ", ""))
  end
end

local function vec_section(sat, emit)
  local v, w = sat.vec(3, -4), sat.vec(-0.5, 1e-3)
  emit("vec " .. join(v:len(), v:len2(), v:dot(w), v:cross(w), v:dist(w)))
  local n, r, p, f = v:normalized(), v:rotated(1.1), v:projectOn(w), v:reflect(w)
  emit("vec " .. join(n.x, n.y, r.x, r.y, p.x, p.y, f.x, f.y))
  local s = (v + w) * 3 - (-w) / 7
  emit("vec " .. join(s.x, s.y, tostring(sat.vec(-0.0 * 1, 0) == sat.vec(0, 0))))
  -- turns by the angles a game uses (the n-gons' corners, whole turns), lengths, distances
  local spoke, other = sat.vec(90, 0), sat.vec(3.25, -4.5)
  for sides = 3, 8 do
    for k = 0, sides do
      local angle = 2 * math.pi * k / sides
      local a, b = spoke:rotated(angle), other:rotated(-angle)
      emit("turn " .. sides .. " " .. k .. " " .. join(a.x, a.y, b.x, b.y, a:len(), b:dist(a)))
    end
  end
end

-- A world: tiles (static), shapes of each kind moved by world:move, steps, queries.
local function world_section(sat, emit, compounds)
  local world = sat.world(16)
  local tag = {}
  local function name(s)
    return s and tag[s] or "?"
  end
  local map = { "##########", "#........#", "#...#....#", "#........#", "#..##....#",
    "#........#", "##########" }
  for row = 1, #map do
    local line = map[row]
    for col = 1, #line do
      if line:sub(col, col) == "#" then
        local t = world:add(sat.box((col - 1) * 16, (row - 1) * 16, 16, 16), "static")
        tag[t] = "tile" .. row .. "_" .. col
      end
    end
  end
  local ramp = world:add(sat.polygon(112, 80, 144, 80, 144, 48), "static")
  tag[ramp] = "ramp"
  local actors = {
    { "box", sat.box(20, 20, 10, 12) },
    { "ball", sat.circle(60, 24, 6) },
    { "capsule", sat.capsule(100, 22, 100, 30, 5) },
    { "hex", sat.polygon(40, 60, 48, 56, 56, 60, 56, 68, 48, 72, 40, 68) },
    { "stick", sat.segment(80, 70, 95, 75) },
    { "dot", sat.point(130, 30) },
    { "zone", sat.circle(80, 40, 10) },
  }
  if compounds then
    actors[#actors + 1] = { "ell", sat.concave(20, 60, 36, 60, 36, 66, 26, 66, 26, 76, 20, 76) }
  end
  for i = 1, #actors do
    local s = world:add(actors[i][2])
    tag[s] = actors[i][1]
    s.tag = actors[i][1]
  end
  local zone = actors[7][2]
  zone.category = 2
  zone.mask = 1
  local dot = actors[6][2]
  dot.mask = 0xFFFFFFFD -- meets everything but the zone
  world:setFilter(function(a, b)
    return not (tag[a] == "stick" and tag[b] == "hex") and not (tag[a] == "hex" and tag[b] == "stick")
  end)
  local function ev(kind)
    return function(a, b, r)
      if r then
        emit("event " .. kind .. " " .. name(a) .. " " .. name(b) .. " " ..
          join(r.overlap, r.normal.x, r.normal.y, r.mtv.x, r.mtv.y, r.aInB, r.bInA))
      else
        emit("event " .. kind .. " " .. name(a) .. " " .. name(b))
      end
    end
  end
  world:on("enter", ev("enter")):on("stay", ev("stay")):on("exit", ev("exit"))
  function zone.onEnter(self, other, r)
    emit("zone onEnter " .. name(self) .. " " .. name(other) .. " " .. join(r.normal.x, r.normal.y))
  end
  function zone.onExit(self, other)
    emit("zone onExit " .. name(self) .. " " .. name(other))
  end
  local responses = { "slide", "touch", "cross" }
  local function move_filter(s, other)
    local t = tag[other]
    if t == "zone" then
      return "cross"
    elseif t == "tile3_5" or t == "tile5_4" or t == "tile5_5" then
      return "touch"
    elseif t == "tile1_8" or t == "tile7_2" then
      return nil
    elseif t == "ramp" or t:sub(1, 4) == "tile" then
      return "slide"
    end
    -- shapes that move: by the names' lengths, deterministic
    local k = (#tag[s] + #tag[other]) % 4
    return responses[k + 1]
  end
  local velocities = {
    { 9, 4.5 }, { -7.25, 6 }, { 3, 11 }, { 12, -3.5 }, { -5, -8 }, { -10, 7.75 }, { 0.5, 0.25 }, { 6, 6 },
  }
  local cols = {}
  for frame = 1, 12 do
    for i = 1, #actors do
      local s = actors[i][2]
      if world:has(s) then
        local v = velocities[i]
        local vx, vy = v[1], v[2]
        if frame > 6 then
          vx, vy = -vx * 0.75, vy * 0.5 - 2
        end
        local x, y, hits = world:move(s, vx, vy, move_filter, cols)
        emit("move " .. frame .. " " .. tag[s] .. " " .. join(x, y, #hits))
        for h = 1, #hits do
          local c = hits[h]
          emit("  hit " .. name(c.other) .. " " .. c.type .. " " .. join(c.x, c.y, c.overlap,
            c.normal.x, c.normal.y, c.mtv.x, c.mtv.y))
        end
      end
    end
    if frame == 5 then
      emit("turn " .. join(actors[4][2]:rotate(0.4):rotation()))
      actors[3][2]:scale(1.25)
    end
    if frame == 9 then
      world:remove(actors[5][2])
      emit("removed stick " .. join(world:count(), world:has(actors[5][2])))
    end
    emit("step " .. frame .. " " .. join(world:step()))
  end
  -- queries, with and without filters, into reused tables
  local moving = function(s) return not world:isStatic(s) end
  local list = {}
  local function names(t)
    local out = {}
    for i = 1, #t do
      out[i] = name(t[i])
    end
    return table.concat(out, ",")
  end
  emit("queryPoint " .. names(world:queryPoint(8, 8)) .. " | " .. names(world:queryPoint(70, 40, moving, list)))
  emit("queryRect " .. names(world:queryRect(10, 10, 60, 40)))
  emit("queryRect moving " .. names(world:queryRect(0, 0, 160, 112, moving, list)))
  local hits = world:querySegment(-5, 50, 170, 30)
  for i = 1, #hits do
    local h = hits[i]
    emit("querySegment " .. name(h.shape) .. " " .. join(h.t, h.x, h.y, h.nx, h.ny))
  end
  hits = world:querySegment(3, 3, 150, 100, moving, {})
  for i = 1, #hits do
    local h = hits[i]
    emit("querySegment moving " .. name(h.shape) .. " " .. join(h.t, h.x, h.y, h.nx, h.ny))
  end
  local probe = sat.circle(70, 50, 30)
  emit("queryShape " .. names(world:queryShape(probe)) .. " | " .. names(world:queryShape(probe, moving, list)))
  for i = 1, #actors do
    local s = actors[i][2]
    if world:has(s) then
      emit("neighbors " .. tag[s] .. " " .. names(world:neighbors(s)))
      local cs = world:collisions(s)
      for k = 1, #cs do
        local r = cs[k]
        emit("collision " .. tag[s] .. " " .. name(r.b) .. " " .. join(r.overlap, r.normal.x, r.normal.y,
          r.mtv.x, r.mtv.y))
      end
      emit("position " .. tag[s] .. " " .. join(s:position()) .. " " .. join(s:bbox()))
    end
  end
  emit("world " .. join(world:count(), world:cellSize()) .. " levels " .. join(unpack(world:levels())))
end

--- scene.run(sat, emit) -> the number of lines emitted
function scene.run(sat, emit)
  local count = 0
  local function out(line)
    count = count + 1
    emit(line)
  end
  local compounds = pure_compounds()
  out("compounds " .. (compounds and "in the scene" or
    "left out: the pure backend has none yet (no sat/pure/sat_compound.lua)"))
  vec_section(sat, out)
  shapes_section(sat, out, compounds)
  pair_section(sat, out, compounds)
  errors_section(sat, out)
  world_section(sat, out, compounds)
  return count
end

return scene
