-- The world against brute force: a few hundred mixed shapes (boxes, polygons, circles,
-- points, segments, capsules; a tenth of a cell to ten cells across; some near (1e9, -1e9);
-- a fifth of them static, which never pair with one another and are moved all the same) moving, rotating,
-- scaling, coming and going over thousands of frames. Every frame the step's pairs must be
-- exactly the pairs sat.test finds over all shapes, and every pair's enter/stay/exit
-- sequence must be what that brute force says; every few frames each query is checked too.
local sat = require("sat")
if require("spec.support").skip(pending, "world") then return end

local CELL = 32

-- Park-Miller: the same numbers on every Lua (math.random is not).
local function rng(seed)
  local s = seed
  local r = {}
  function r.next()
    s = (s * 16807) % 2147483647
    return s / 2147483647
  end
  function r.range(a, b)
    return a + (b - a) * r.next()
  end
  function r.int(a, b)
    return a + math.floor(r.next() * (b - a + 1))
  end
  return r
end

-- A shape of the mix at (x, y); size in cells from 0.1 to 10, mostly small.
local function makeShape(R, x, y)
  local u = R.next()
  local size = CELL * (u < 0.8 and R.range(0.1, 1.5) or R.range(1.5, 10))
  local kind = R.int(1, 12)
  if kind <= 3 then
    return sat.box(x - size / 2, y - size / 3, size, size * R.range(0.3, 1))
  elseif kind <= 6 then
    local n, pts, a0 = R.int(3, 9), {}, R.range(0, 2 * math.pi)
    for i = 0, n - 1 do
      local a = a0 + 2 * math.pi * i / n
      pts[#pts + 1] = x + size / 2 * math.cos(a)
      pts[#pts + 1] = y + size / 2 * math.sin(a)
    end
    return sat.polygon(pts)
  elseif kind <= 9 then
    return sat.circle(x, y, size / 2)
  elseif kind >= 11 then
    local a, h = R.range(0, 2 * math.pi), size / 2
    local dx, dy = h * math.cos(a), h * math.sin(a)
    if kind == 11 then
      return sat.segment(x - dx, y - dy, x + dx, y + dy)
    end
    return sat.capsule(x - dx / 2, y - dy / 2, x + dx / 2, y + dy / 2, size / 4)
  end
  return sat.point(x, y)
end

-- Bitwise and of two 32-bit masks, without 5.3's operator (the spec also runs on 5.1).
local function band(a, b)
  local r, bit = 0, 1
  while a > 0 and b > 0 do
    if a % 2 == 1 and b % 2 == 1 then
      r = r + bit
    end
    a, b, bit = math.floor(a / 2), math.floor(b / 2), bit * 2
  end
  return r
end

local function key(ta, tb)
  return ta * 1000003 + tb
end

local function bboxOverlap(a, b, pad)
  local ax1, ay1, ax2, ay2 = a:bbox()
  local bx1, by1, bx2, by2 = b:bbox()
  return ax1 <= bx2 + pad and bx1 <= ax2 + pad and ay1 <= by2 + pad and by1 <= ay2 + pad
end

-- luassert is slow for millions of checks: plain comparisons, an error on the first miss.
local function expect(cond, what, ...)
  if not cond then
    error(what:format(...), 2)
  end
end

local function eq(want, got, what)
  if want ~= got then
    error(("%s: want %s, got %s"):format(what, tostring(want), tostring(got)), 2)
  end
end

local function sameList(got, want, what)
  eq(#want, #got, what .. ": count")
  for i = 1, #want do
    eq(want[i], got[i], what .. ": entry " .. i)
  end
end

-- Runs the simulation; returns counts of what was checked.
local function simulate(seed, frames, population)
  local R = rng(seed)
  local world = sat.world(CELL)
  local live = {}        -- shapes in the world, insertion order
  local order = {}       -- shape -> insertion number (our own count)
  local nextOrder = 0
  local far = {}         -- shape -> true: lives near (1e9, -1e9)
  local class, noPairs = {}, {} -- shape -> 1 (category 1, mask all) or 2 (2, 2); flag
  local static = {}      -- shape -> true: added as static
  local contact = {}     -- key -> {a, b}: pairs in contact per our model
  local events = {}      -- filled by the handlers
  local checked = { pairs = 0, queries = 0, frames = 0, enters = 0, exits = 0 }

  world:on("enter", function(a, b, r)
    events[#events + 1] = { "enter", a, b, r.overlap, r.normal.x, r.normal.y }
  end)
  world:on("stay", function(a, b, r)
    events[#events + 1] = { "stay", a, b, r.overlap, r.normal.x, r.normal.y }
  end)
  world:on("exit", function(a, b)
    events[#events + 1] = { "exit", a, b }
  end)
  -- categories: a few shapes only meet some others; a world filter drops one kind of pair
  local function accepts(a, b)
    return band(a.category, b.mask) ~= 0 and band(b.category, a.mask) ~= 0
  end
  world:setFilter(function(a, b)
    return not (a.noPairs and b.noPairs)
  end)

  local function origin()
    if R.next() < 0.1 then
      return 1e9, -1e9, true
    end
    return 0, 0, false
  end

  local function add()
    local ox, oy, isFar = origin()
    local s = makeShape(R, ox + R.range(-12, 12) * CELL, oy + R.range(-12, 12) * CELL)
    class[s] = 1
    if R.next() < 0.1 then
      s.category = 2
      s.mask = 2
      class[s] = 2
    end
    s.noPairs = R.next() < 0.1 or nil
    noPairs[s] = s.noPairs
    static[s] = R.next() < 0.2 or nil
    world:add(s, static[s] and "static" or nil)
    assert(world:isStatic(s) == (static[s] == true))
    nextOrder = nextOrder + 1
    order[s] = nextOrder
    far[s] = isFar
    live[#live + 1] = s
  end

  local function pairKey(a, b)
    return key(order[a], order[b])
  end

  -- What brute force says collides now, in pair order: every pair of shapes, with only a
  -- plain bounding-box check (padded far beyond rounding) before sat.test.
  local function brute()
    local list, n = {}, #live
    local X1, Y1, X2, Y2, cls, nop, st = {}, {}, {}, {}, {}, {}, {}
    for i = 1, n do
      local s = live[i]
      local x1, y1, x2, y2 = s:bbox()
      local pad = 1e-9 * (math.abs(x1) + math.abs(y1) + (x2 - x1) + (y2 - y1))
      X1[i], Y1[i], X2[i], Y2[i] = x1 - pad, y1 - pad, x2 + pad, y2 + pad
      cls[i], nop[i], st[i] = class[s], noPairs[s], static[s]
    end
    for i = 1, n do
      local a, x1, y1, x2, y2, ca, na = live[i], X1[i], Y1[i], X2[i], Y2[i], cls[i], nop[i]
      local sa = st[i]
      for j = i + 1, n do
        if X1[j] <= x2 and x1 <= X2[j] and Y1[j] <= y2 and y1 <= Y2[j] and not (sa and st[j])
          and cls[j] == ca and not (na and nop[j]) and sat.test(a, live[j]) then
          list[#list + 1] = { a, live[j] }
        end
      end
    end
    return list
  end

  local function remove(i)
    local s = table.remove(live, i)
    events = {}
    world:remove(s)
    -- its exits at once, ordered by the other shape's insertion
    local want = {}
    for k, p in pairs(contact) do
      if p[1] == s or p[2] == s then
        want[#want + 1] = p
        contact[k] = nil
      end
    end
    table.sort(want, function(p, q)
      local op = p[1] == s and order[p[2]] or order[p[1]]
      local oq = q[1] == s and order[q[2]] or order[q[1]]
      return op < oq
    end)
    eq(#want, #events, "exits on removal")
    for k = 1, #want do
      local e = events[k]
      expect(e[1] == "exit" and e[2] == want[k][1] and e[3] == want[k][2], "exit %d on removal", k)
    end
    checked.exits = checked.exits + #want
  end

  local function mutate(s)
    local u = R.next()
    if u < 0.55 then
      s:move(R.range(-3, 3), R.range(-3, 3))           -- mostly inside its cells
    elseif u < 0.7 then
      s:move(R.range(-2, 2) * CELL, R.range(-2, 2) * CELL) -- across cells
    elseif u < 0.85 then
      s:rotate(R.range(-0.5, 0.5))
    elseif u < 0.95 then
      local k = R.range(0.8, 1.25)
      local x1, y1, x2, y2 = s:bbox()
      local size = math.max(x2 - x1, y2 - y1)
      if size * k < 10 * CELL and size * k > 0.05 * CELL then
        s:scale(k)
      end
    else
      local ox, oy = 0, 0
      if far[s] then ox, oy = 1e9, -1e9 end
      s:moveTo(ox + R.range(-12, 12) * CELL, oy + R.range(-12, 12) * CELL)
    end
  end

  local function checkStep()
    events = {}
    local want = brute()
    local n = world:step()
    eq(#want, n, "pairs reported by step")
    -- expected events: exits of pairs gone (in pair order), then enter/stay in pair order
    local now, expected = {}, {}
    for _, p in ipairs(want) do
      now[pairKey(p[1], p[2])] = p
    end
    local gone = {}
    for k, p in pairs(contact) do
      if not now[k] then
        gone[#gone + 1] = p
      end
    end
    table.sort(gone, function(p, q)
      if order[p[1]] ~= order[q[1]] then
        return order[p[1]] < order[q[1]]
      end
      return order[p[2]] < order[q[2]]
    end)
    for _, p in ipairs(gone) do
      expected[#expected + 1] = { "exit", p[1], p[2] }
    end
    for _, p in ipairs(want) do
      expected[#expected + 1] = { contact[pairKey(p[1], p[2])] and "stay" or "enter", p[1], p[2] }
    end
    eq(#expected, #events, "event count")
    for k = 1, #expected do
      local e, g = expected[k], events[k]
      if g[1] ~= e[1] or g[2] ~= e[2] or g[3] ~= e[3] then
        error(("event %d: want %s %s %s, got %s %s %s"):format(k, e[1], tostring(e[2]),
          tostring(e[3]), g[1], tostring(g[2]), tostring(g[3])))
      end
      if g[1] ~= "exit" then
        local r = sat.collide(g[2], g[3])
        eq(r.overlap, g[4], "overlap")
        eq(r.normal.x, g[5], "normal.x")
        eq(r.normal.y, g[6], "normal.y")
      end
      if g[1] == "enter" then
        checked.enters = checked.enters + 1
      elseif g[1] == "exit" then
        checked.exits = checked.exits + 1
      end
    end
    contact = now
    checked.pairs = checked.pairs + #want
  end

  local function pick()
    return live[R.int(1, #live)]
  end

  local function checkQueries()
    local ox, oy = 0, 0
    if R.next() < 0.15 then ox, oy = 1e9, -1e9 end
    -- point
    local px, py = ox + R.range(-14, 14) * CELL, oy + R.range(-14, 14) * CELL
    if R.next() < 0.3 then -- a shape's own position: certainly inside something
      px, py = pick():position()
    end
    local want = {}
    for _, s in ipairs(live) do
      if s:contains(px, py) then want[#want + 1] = s end
    end
    sameList(world:queryPoint(px, py), want, "queryPoint")
    -- rectangle
    local w, h = R.range(0, 6) * CELL, R.range(0, 6) * CELL
    local rx, ry = px - w / 2, py - h / 2
    want = {}
    local box = (w > 0 and h > 0) and sat.box(rx, ry, w, h) or nil
    if box then
      for _, s in ipairs(live) do
        if sat.test(box, s) then want[#want + 1] = s end
      end
      sameList(world:queryRect(rx, ry, w, h), want, "queryRect")
    end
    -- segment: hits along it, with t
    local x2, y2 = px + R.range(-20, 20) * CELL, py + R.range(-20, 20) * CELL
    if R.next() < 0.2 then x2 = px end -- vertical
    local hits = {}
    for _, s in ipairs(live) do
      local t, nx, ny = s:raycast(px, py, x2, y2)
      if t then hits[#hits + 1] = { shape = s, t = t, nx = nx, ny = ny } end
    end
    table.sort(hits, function(p, q)
      if p.t ~= q.t then return p.t < q.t end
      return order[p.shape] < order[q.shape]
    end)
    local got = world:querySegment(px, py, x2, y2)
    eq(#hits, #got, "querySegment count")
    for i = 1, #hits do
      eq(hits[i].shape, got[i].shape, "segment hit shape")
      eq(hits[i].t, got[i].t, "segment hit t")
      eq(hits[i].nx, got[i].nx, "segment hit nx")
      eq(hits[i].ny, got[i].ny, "segment hit ny")
      expect(math.abs(px + (x2 - px) * hits[i].t - got[i].x) <= 1e-6 * (1 + math.abs(px)),
        "segment hit x")
    end
    -- shape: one of the world's, and a free one
    local s = pick()
    want = {}
    for _, o in ipairs(live) do
      if o ~= s and sat.test(s, o) then want[#want + 1] = o end
    end
    sameList(world:queryShape(s), want, "queryShape")
    -- neighbors: every shape whose box overlaps, and none whose box is clearly apart
    local got_nb = world:neighbors(s)
    local inNb = {}
    for _, o in ipairs(got_nb) do inNb[o] = true end
    for _, o in ipairs(live) do
      if o ~= s and bboxOverlap(s, o, 0) then
        expect(inNb[o] == true, "neighbors misses an overlapping box")
      end
    end
    for i = 2, #got_nb do
      expect(order[got_nb[i - 1]] < order[got_nb[i]], "neighbors in insertion order")
    end
    for _, o in ipairs(got_nb) do
      expect(bboxOverlap(s, o, 1e-6 * (1 + math.abs(ox))), "neighbor too far")
    end
    -- collisions: filtered like step, responses seen from s
    local cols = world:collisions(s)
    want = {}
    for _, o in ipairs(live) do
      if o ~= s and accepts(s, o) and not (s.noPairs and o.noPairs)
        and not (static[s] and static[o]) and sat.test(s, o) then
        want[#want + 1] = o
      end
    end
    eq(#want, #cols, "collisions count")
    for i = 1, #want do
      local r = sat.collide(s, want[i])
      eq(s, cols[i].a, "collisions a")
      eq(want[i], cols[i].b, "collisions b")
      eq(r.overlap, cols[i].overlap, "collisions overlap")
      eq(r.normal.x, cols[i].normal.x, "collisions normal.x")
      eq(r.normal.y, cols[i].normal.y, "collisions normal.y")
    end
    checked.queries = checked.queries + 1
  end

  for _ = 1, population do
    add()
  end
  for frame = 1, frames do
    for _ = 1, math.floor(#live / 5) do
      mutate(pick())
    end
    if R.next() < 0.3 and #live > population / 2 then
      remove(R.int(1, #live))
    end
    if R.next() < 0.3 then
      add()
    end
    checkStep()
    if frame % 4 == 0 then
      checkQueries()
    end
    checked.frames = checked.frames + 1
  end
  return checked
end

describe("world against brute force", function()
  it("agrees on pairs, events and queries over thousands of frames", function()
    local checked = simulate(12345, 2000, 200)
    assert.are.equal(2000, checked.frames)
    -- the run must have met real work, not an empty world
    assert.is_true(checked.pairs > 200000, "pairs checked: " .. checked.pairs)
    assert.is_true(checked.enters > 10000, "enters checked: " .. checked.enters)
    assert.is_true(checked.exits > 10000, "exits checked: " .. checked.exits)
    assert.are.equal(500, checked.queries)
  end)

  it("agrees in a crowded world of large shapes", function()
    local checked = simulate(777, 200, 250)
    assert.is_true(checked.pairs > 10000, "pairs checked: " .. checked.pairs)
  end)
end)
