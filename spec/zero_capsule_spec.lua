-- Capsules of zero length, sat.capsule(x, y, x, y, r): a point (r = 0) or a circle. Their
-- sweeps and world:move against every kind give what a point's or a circle's give (their
-- direction is a placeholder, which once made the line a point crossed: hits beside walls,
-- misses through them, and world:move sliding along that line); the point's sweeps against
-- segments are checked against a line crossing worked out here.
local sat = require("sat")

-- A seeded generator of its own (Park and Miller's: exact in doubles, the same numbers on
-- every Lua; the specs do not share math.random's state).
local function rng(seed)
  local s = seed
  local function next01()
    s = (s * 16807) % 2147483647
    return s / 2147483647
  end
  return function(lo, hi) return lo + (hi - lo) * next01() end
end

-- The other shape of a case: every kind, drawn from R.
local OTHERS = {
  function(R) return sat.segment(R(-10, 10), R(-10, 10), R(-10, 10), R(-10, 10)) end,
  function(R) return sat.capsule(R(-10, 10), R(-10, 10), R(-10, 10), R(-10, 10), 0) end,
  function(R) return sat.capsule(R(-10, 10), R(-10, 10), R(-10, 10), R(-10, 10), R(0.1, 3)) end,
  function(R) return sat.chain({ R(-10, 10), R(-10, 10), R(-10, 10), R(-10, 10), R(-10, 10), R(-10, 10) }) end,
  function(R) return sat.box(R(-10, 10), R(-10, 10), R(0.5, 8), R(0.5, 8)) end,
  function(R) return sat.circle(R(-10, 10), R(-10, 10), R(0.1, 3)) end,
  function(R) return sat.point(R(-10, 10), R(-10, 10)) end,
  function(R)
    local x, y = R(-10, 10), R(-10, 10)
    return sat.capsule(x, y, x, y, 0)
  end,
}

local function pack(...) return { n = select("#", ...), ... } end

local function show(p)
  local t = {}
  for i = 1, p.n do t[i] = ("%.17g"):format(p[i] or 0 / 0) end
  return table.concat(t, " ")
end

-- Two results of sat.sweep: both nil, or the same t and normal, bit for bit, and the same
-- contact point within rounding (sat.contacts at the touch, whose arithmetic for a capsule's
-- core is not a circle's).
local function same(p, q)
  if p.n ~= q.n then return false end
  for i = 1, math.min(p.n, 3) do
    if p[i] ~= q[i] then return false end
  end
  for i = 4, p.n do
    if math.abs(p[i] - q[i]) > 1e-12 * (1 + math.abs(q[i])) then return false end
  end
  return true
end

describe("a capsule of zero length", function()
  it("sweeps as the point or circle it is, against every kind, both ways round", function()
    local R = rng(20261127)
    local cases, hits, lines, bad = 6000, 0, 0, {}
    for i = 1, cases do
      local x, y = R(-10, 10), R(-10, 10)
      local r = i % 2 == 0 and 0 or R(0.1, 3)
      local cap = sat.capsule(x, y, x, y, r)
      cap:setRotation(R(-4, 4)) -- the placeholder direction turns; nothing may follow it
      local pt = r == 0 and sat.point(x, y) or sat.circle(x, y, r)
      local k = 1 + i % #OTHERS
      local b = OTHERS[k](R)
      local dx, dy, bdx, bdy = R(-20, 20), R(-20, 20), R(-5, 5), R(-5, 5)
      local checks = {
        { pack(sat.sweep(cap, dx, dy, b)), pack(sat.sweep(pt, dx, dy, b)) },
        { pack(sat.sweep(b, dx, dy, cap)), pack(sat.sweep(b, dx, dy, pt)) },
        { pack(sat.sweep(cap, dx, dy, b, bdx, bdy)), pack(sat.sweep(pt, dx, dy, b, bdx, bdy)) },
      }
      for w, c in ipairs(checks) do
        if c[2][1] then
          hits = hits + 1
          if r == 0 and k <= 4 and c[2][1] > 0 then lines = lines + 1 end
        end
        if not same(c[1], c[2]) and #bad < 5 then
          bad[#bad + 1] = ("case %d (other %d, r %g, way %d): capsule %s, point %s"):format(
            i, k, r, w, show(c[1]), show(c[2]))
        end
      end
    end
    assert.are.same({}, bad)
    -- enough of them touch, a point against a line included (the case that was wrong)
    assert.is_true(hits > cases / 2 and lines > cases / 20, hits .. " hits, " .. lines)
  end)

  it("crosses a segment where the line crossing worked out here says", function()
    local R = rng(777)
    local agreed, crossings = 0, 0
    for _ = 1, 4000 do
      local x, y = R(-10, 10), R(-10, 10)
      local cap = sat.capsule(x, y, x, y, 0)
      cap:setRotation(R(-4, 4))
      local x1, y1, x2, y2 = R(-10, 10), R(-10, 10), R(-10, 10), R(-10, 10)
      local seg = sat.segment(x1, y1, x2, y2)
      local dx, dy = R(-20, 20), R(-20, 20)
      -- p + t d = q1 + u (q2 - q1): solved by Cramer's rule
      local ex, ey = x2 - x1, y2 - y1
      local det = dx * -ey - dy * -ex
      local wx, wy = x1 - x, y1 - y
      local t = (wx * -ey - wy * -ex) / det
      local u = (dx * wy - dy * wx) / det
      local margin = 1e-6
      local clear = math.abs(det) > 1e-3 and math.abs(t) > margin and math.abs(t - 1) > margin and
        math.abs(u) > margin and math.abs(u - 1) > margin
      if clear then
        agreed = agreed + 1
        local got, nx, ny = sat.sweep(cap, dx, dy, seg)
        if t > 0 and t < 1 and u > 0 and u < 1 then
          crossings = crossings + 1
          assert.is_truthy(got, "a crossing missed")
          assert.is_near(t, got, 1e-9)
          -- the segment's unit normal, facing the way the point moves
          local len = math.sqrt(ex * ex + ey * ey)
          local mx, my = ey / len, -ex / len
          if mx * dx + my * dy < 0 then mx, my = -mx, -my end
          assert.is_near(mx, nx, 1e-9)
          assert.is_near(my, ny, 1e-9)
        else
          assert.is_nil(got, "a hit where the point passes the segment by")
        end
      end
    end
    assert.is_true(agreed > 3000 and crossings > 400, agreed .. " cases, " .. crossings)
  end)

  it("moves through a world as a point does: the same stops, slides and normals", function()
    local R = rng(4242)
    local walls = {}
    for i = 1, 12 do walls[i] = OTHERS[1 + i % 5](R) end
    local worlds, movers = {}, {}
    for w = 1, 2 do
      worlds[w] = sat.world(8)
      for _, s in ipairs(walls) do worlds[w]:add(s:clone(), "static") end
    end
    movers[1] = worlds[1]:add(sat.capsule(-30, -30, -30, -30, 0))
    movers[2] = worlds[2]:add(sat.point(-30, -30))
    movers[1]:setRotation(0.7)
    local met = 0
    for _ = 1, 3000 do
      local tx, ty = R(-12, 12), R(-12, 12)
      local dx, dy = R(-15, 15), R(-15, 15)
      local got = {}
      for w = 1, 2 do
        movers[w]:moveTo(tx, ty)
        local x, y, cols = worlds[w]:move(movers[w], dx, dy)
        local g = { x, y, #cols }
        for _, c in ipairs(cols) do
          g[#g + 1] = c.type
          g[#g + 1] = c.normal.x
          g[#g + 1] = c.normal.y
          g[#g + 1] = c.x
          g[#g + 1] = c.y
        end
        got[w] = g
      end
      assert.are.same(got[2], got[1])
      met = met + got[2][3]
    end
    assert.is_true(met > 300, met .. " collisions")
  end)

  it("slides down a wall along the wall, not along its placeholder", function()
    local world = sat.world(16)
    world:add(sat.segment(10, -50, 10, 50), "static")
    local p = world:add(sat.capsule(0, 0, 0, 0, 0))
    -- 10 to the wall of 20 across: half the motion, then the rest along the wall
    local x, y, cols = world:move(p, 20, 30)
    assert.are.same({ 10, 30, 1 }, { x, y, #cols })
    assert.are.same({ 1, 0 }, { cols[1].normal.x, cols[1].normal.y })
    assert.are.same({ 10, 15 }, { cols[1].x, cols[1].y })
    -- up beside the wall, 2 from it (across the placeholder's line through the wall's
    -- middle): nothing met
    p:moveTo(8, -20)
    x, y, cols = world:move(p, 0, 40)
    assert.are.same({ 8, 20, 0 }, { x, y, #cols })
  end)
end)
