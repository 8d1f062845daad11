-- The world against brute force: a few hundred mixed shapes (boxes, polygons, circles,
-- points, segments, capsules; a tenth of a cell to ten cells across; some near (1e9, -1e9);
-- a fifth of them static, which never pair with one another and are moved all the same) moving, rotating,
-- scaling, coming and going over thousands of frames. Every frame the step's pairs must be
-- exactly the pairs sat.test finds over all shapes, and every pair's enter/stay/exit
-- sequence must be what that brute force says; every few frames each query is checked too,
-- and the movement: world:queryCast against sat.sweep over every shape, world:check against
-- the move that follows (the same, bit for bit, and nothing changed before it), moves with
-- "slide", "touch", "cross" and "bounce" never ending in a shape they did not start in, and
-- one-way shapes (a tenth of them, any direction) stopping or passing a mover as sat.sweep
-- says they should.
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
  local checked = { pairs = 0, queries = 0, frames = 0, enters = 0, exits = 0, moves = 0,
    oneway = 0, passed = 0 }

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
    local u = R.next() -- its response to a move (moveFilter), and whether it is one-way
    s.response = u < 0.6 and "slide" or u < 0.8 and "bounce" or u < 0.9 and "touch" or "cross"
    if R.next() < 0.1 then
      local a = R.range(0, 2 * math.pi)
      s.oneway = sat.vec(math.cos(a), math.sin(a))
    end
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

  local function moveFilter(_, other)
    return other.response
  end

  -- Whether a move of s resolves against o at all (the world's filters, as step's pairs).
  local function meets(s, o)
    return o ~= s and accepts(s, o) and not (s.noPairs and o.noPairs)
      and not (static[s] and static[o])
  end

  -- Far beyond rounding at the coordinates of s, and far below any real overlap.
  local function slack(s)
    local x = s:position()
    return 1e-7 * (1 + math.abs(x) * 1e-6)
  end

  local function overlapOf(a, b)
    local r = sat.collide(a, b)
    return r and r.overlap or -1
  end

  local function checkMovement()
    local s = pick()
    local ox = far[s] and 1e9 or 0
    local dx, dy = R.range(-4, 4) * CELL, R.range(-4, 4) * CELL
    -- queryCast: a free shape and one of the world's, against sat.sweep over every shape
    local probe = R.next() < 0.5 and s or makeShape(R, ox + R.range(-12, 12) * CELL,
      (far[s] and -1e9 or 0) + R.range(-12, 12) * CELL)
    local want = {}
    for _, o in ipairs(live) do
      if o ~= probe then
        local t, nx, ny = sat.sweep(probe, dx, dy, o)
        if t then want[o] = { t, nx, ny } end
      end
    end
    local hits, n = world:queryCast(probe, dx, dy), 0
    for _ in pairs(want) do n = n + 1 end
    eq(n, #hits, "queryCast count")
    for i, h in ipairs(hits) do
      local w = want[h.shape]
      expect(w ~= nil, "queryCast hit %d: not a sweep hit", i)
      eq(w[1], h.t, "queryCast t")
      eq(w[2], h.nx, "queryCast nx")
      eq(w[3], h.ny, "queryCast ny")
      expect(i == 1 or hits[i - 1].t <= h.t, "queryCast in time order")
    end
    -- check, then the same move: identical, and nothing changed by the check
    local x0, y0 = s:position()
    local bx1, by1, bx2, by2 = s:bbox()
    local before = {}
    for _, o in ipairs(live) do
      if meets(s, o) and overlapOf(s, o) > 0 then before[o] = true end
    end
    local cx, cy, ccols = world:check(s, dx, dy, moveFilter)
    local seen = {}
    for i, c in ipairs(ccols) do seen[i] = { c.other, c.type, c.x, c.y } end
    local ax, ay = s:position()
    eq(x0, ax, "check moved x")
    eq(y0, ay, "check moved y")
    local ex1, ey1, ex2, ey2 = s:bbox()
    expect(ex1 == bx1 and ey1 == by1 and ex2 == bx2 and ey2 == by2, "check changed the bbox")
    local mx, my, mcols = world:move(s, dx, dy, moveFilter)
    eq(cx, mx, "check x vs move")
    eq(cy, my, "check y vs move")
    eq(#seen, #mcols, "check cols vs move")
    for i, c in ipairs(mcols) do
      local w = seen[i]
      expect(w[1] == c.other and w[2] == c.type and w[3] == c.x and w[4] == c.y,
        "check col %d vs move", i)
    end
    -- the move ends in no shape that stops it, unless it began in one
    if next(before) == nil then
      for _, o in ipairs(live) do
        if meets(s, o) and o.response ~= "cross" and not o.oneway then
          expect(overlapOf(s, o) <= slack(s), "move ended %g deep in a %s (%s)", overlapOf(s, o),
            o:kind(), o.response)
        end
      end
    end
    checked.moves = checked.moves + 1
    -- one-way: one shape solid to the move, the rest ignored
    local o, k0 = nil, R.int(1, #live)
    for k = 0, #live - 1 do
      local c = live[(k0 + k) % #live + 1]
      if c.oneway and meets(s, c) then o = c break end
    end
    if o then
      local wx, wy = o.oneway.x, o.oneway.y
      if R.next() < 0.6 then -- from its stopping side, across it: along its direction or not
        local tx, ty = o:position()
        local ax1, ay1, ax2, ay2 = o:bbox()
        local sx1, sy1, sx2, sy2 = s:bbox()
        local reach = (ax2 - ax1) + (ay2 - ay1) + (sx2 - sx1) + (sy2 - sy1)
        local side = R.range(-0.3, 0.3) * reach
        s:moveTo(tx - wx * reach - wy * side, ty - wy * reach + wx * side)
        local sign = R.next() < 0.8 and 2 or -2
        dx, dy = wx * reach * sign + R.range(-0.3, 0.3) * reach, wy * reach * sign
      end
      x0, y0 = s:position()
      local starts = overlapOf(s, o) >= 0
      local t, nx, ny = sat.sweep(s, dx, dy, o)
      local x, y, cols = world:move(s, dx, dy, function(_, other)
        return other == o and "touch" or nil
      end)
      if t and t > 0 and not starts and dx * wx + dy * wy > 0 and nx * wx + ny * wy > 0 then
        eq(1, #cols, "one-way: stopped")
        eq(o, cols[1].other, "one-way: stopped by it")
        local sl = slack(s) * (1 + math.abs(dx) + math.abs(dy))
        expect(math.abs(x - (x0 + dx * t)) <= sl and math.abs(y - (y0 + dy * t)) <= sl,
          "one-way: stopped at the touch")
        checked.oneway = checked.oneway + 1
      elseif not t or t > 0 then
        eq(0, #cols, "one-way: passed silently")
        local sl = slack(s) * (1 + math.abs(dx) + math.abs(dy))
        expect(math.abs(x - (x0 + dx)) <= sl and math.abs(y - (y0 + dy)) <= sl,
          "one-way: passed all the way")
        checked.passed = checked.passed + 1
      end
    end
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
      checkMovement()
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
    assert.are.equal(500, checked.moves)
    assert.is_true(checked.oneway > 100, "one-way stops checked: " .. checked.oneway)
    assert.is_true(checked.passed > 100, "one-way passes checked: " .. checked.passed)
  end)

  it("agrees in a crowded world of large shapes", function()
    local checked = simulate(777, 200, 250)
    assert.is_true(checked.pairs > 10000, "pairs checked: " .. checked.pairs)
  end)
end)
