-- world:move: floors, walls, corners, slopes and circles, with the positions worked out by
-- hand; filters; no tunnelling at any speed; no jitter when pushed into a wall every frame.
-- Coordinates as in LÖVE (y down), though nothing depends on it.
local sat = require("sat")
if require("spec.support").skip(pending, "world") then return end

local SQ2 = math.sqrt(2)

local function near(want, got, tol, what)
  tol = tol or 1e-9
  assert(math.abs(want - got) <= tol * (1 + math.abs(want)),
    ("%s: want %.17g, got %.17g"):format(what or "value", want, got))
end

local function at(shape, x, y, tol)
  local sx, sy = shape:position()
  near(x, sx, tol, "x")
  near(y, sy, tol, "y")
end

-- A floor (top at y = 100), a wall (left side at x = 150) standing on it, and a player
-- box 20 x 20 centred at (60, 60).
local function room()
  local world = sat.world(32)
  local floor = world:add(sat.box(0, 100, 200, 20))
  local wall = world:add(sat.box(150, 0, 20, 100))
  local player = world:add(sat.box(50, 50, 20, 20))
  return world, floor, wall, player
end

describe("world:move", function()
  it("lands on a floor and reports it", function()
    local world, floor, _, player = room()
    local x, y, cols = world:move(player, 0, 100)
    assert.are.equal(60, x)
    assert.are.equal(90, y)
    assert.are.equal(1, #cols)
    local c = cols[1]
    assert.are.equal(floor, c.other)
    assert.are.equal(floor, c.b)
    assert.are.equal(player, c.a)
    assert.are.equal("slide", c.type)
    assert.are.equal(0, c.overlap)
    assert.are.equal(0, c.normal.x)
    assert.are.equal(1, c.normal.y) -- from the player toward the floor
    assert.are.equal(60, c.x)
    assert.are.equal(90, c.y)
    assert.is_true(sat.test(player, floor)) -- resting on it: touching counts
    assert.are.equal(0, sat.collide(player, floor).overlap)
  end)

  it("slides along a floor, keeping the motion along it", function()
    local world, _, _, player = room()
    world:move(player, 0, 100)
    local x, y, cols = world:move(player, 30, 10)
    assert.are.equal(90, x)
    assert.are.equal(90, y)
    assert.are.equal(1, #cols)
    -- moving along it without pressing in meets nothing
    x, y, cols = world:move(player, -10, 0)
    assert.are.equal(80, x)
    assert.are.equal(90, y)
    assert.are.equal(0, #cols)
  end)

  it("slides over the seam between two floor tiles without catching", function()
    local world = sat.world(16)
    world:add(sat.box(0, 100, 40, 20))
    world:add(sat.box(40, 100, 40, 20))
    world:add(sat.box(80, 100, 40, 20))
    local player = world:add(sat.box(10, 80, 20, 20)) -- right side exactly on a seam
    for _ = 1, 30 do
      world:move(player, 2, 3) -- walking right, with gravity
    end
    at(player, 80, 90)
  end)

  it("stops at a wall", function()
    local world, _, wall, player = room()
    world:move(player, 0, 100)
    local x, y, cols = world:move(player, 200, 0)
    assert.are.equal(140, x)
    assert.are.equal(90, y)
    assert.are.equal(1, #cols)
    assert.are.equal(wall, cols[1].other)
    assert.are.equal(1, cols[1].normal.x)
    assert.are.equal(0, cols[1].normal.y)
  end)

  it("slides along the floor into the corner, reporting both in the order met", function()
    local world, floor, wall, player = room()
    local x, y, cols = world:move(player, 200, 100)
    assert.are.equal(140, x)
    assert.are.equal(90, y)
    assert.are.equal(2, #cols)
    -- diagonal (200, 100) from (60, 60): the floor is met at t = 0.3 (x = 120), the wall
    -- at the end of the slide
    assert.are.equal(floor, cols[1].other)
    assert.are.equal(120, cols[1].x)
    assert.are.equal(90, cols[1].y)
    assert.are.equal(wall, cols[2].other)
    assert.are.equal(140, cols[2].x)
  end)

  it("does not jitter when pushed into a corner frame after frame", function()
    local world, floor, wall, player = room()
    world:move(player, 200, 100)
    for _ = 1, 200 do
      local x, y, cols = world:move(player, 5, 5)
      assert.are.equal(140, x)
      assert.are.equal(90, y)
      assert.are.equal(2, #cols)
    end
    assert.are.equal(0, sat.collide(player, floor).overlap)
    assert.are.equal(0, sat.collide(player, wall).overlap)
    assert.is_true(sat.test(player, floor) and sat.test(player, wall))
  end)

  it("never tunnels, however thin the wall and long the move", function()
    local world = sat.world(8)
    local sheet = world:add(sat.box(500, -1000, 0.001, 2000))
    local ball = world:add(sat.circle(0, 0, 0.5))
    local dart = world:add(sat.box(-1, 10, 2, 0.01))
    local x, y, cols = world:move(ball, 1e6, 0)
    near(499.5, x)
    assert.are.equal(0, y)
    assert.are.equal(sheet, cols[1].other)
    x = world:move(dart, 1e7, 3)
    near(499, x)
    local px = world:move(world:add(sat.point(-5, 7)), 1e9, 0)
    near(500, px)
  end)

  it("slides a box down a 45 degree slope", function()
    local world = sat.world(32)
    -- the slope's surface is the line x + y = 100 (rising to the right, y down)
    local slope = world:add(sat.polygon(0, 100, 100, 100, 100, 0))
    local box = world:add(sat.box(45, -5, 10, 10)) -- centred (50, 0)
    local x, y, cols = world:move(box, 0, 100)
    -- its lower right corner meets the slope when the centre is at (50, 40); the remaining
    -- (0, 60) projected on the slope is (-30, 30)
    near(20, x)
    near(70, y)
    assert.are.equal(slope, cols[1].other)
    near(1 / SQ2, cols[1].normal.x, 1e-12)
    near(1 / SQ2, cols[1].normal.y, 1e-12)
    near(50, cols[1].x)
    near(40, cols[1].y)
    assert.is_true(sat.test(box, slope))
    near(0, sat.collide(box, slope).overlap, 1e-9)
  end)

  it("slides a circle down a slope", function()
    local world = sat.world(32)
    world:add(sat.polygon(0, 100, 100, 100, 100, 0))
    local ball = world:add(sat.circle(50, 0, 5))
    local x, y = world:move(ball, 0, 100)
    -- touches where the centre is 5 from the line: y = 50 - 5 * sqrt(2); then the rest of
    -- the fall, projected on the line
    local yc = 50 - 5 * SQ2
    local rest = (100 - yc) / 2
    near(50 - rest, x)
    near(yc + rest, y)
    near(100 - 5 * SQ2, x + y) -- still 5 from the surface: resting on it
  end)

  it("comes to rest at the bottom of a V between two slopes", function()
    local world = sat.world(16)
    world:add(sat.polygon(0, 0, 50, 50, 0, 50))     -- surface y = x, for x in [0, 50]
    world:add(sat.polygon(100, 0, 100, 50, 50, 50)) -- surface y = 100 - x
    local ball = world:add(sat.circle(50, -100, 5))
    local x, y, cols = world:move(ball, 0, 200)
    near(50, x)
    near(50 - 5 * SQ2, y) -- 5 from both surfaces
    assert.are.equal(2, #cols)
    world:remove(ball)
    local box = world:add(sat.box(20, -60, 10, 10))  -- off-centre: slides down the left slope
    x, y = world:move(box, 0, 200)
    -- its lower corners rest on the two surfaces: centre (50, 40)
    near(50, x)
    near(40, y)
    for _ = 1, 10 do
      x, y = world:move(box, 0, 5) -- pushed down every frame: stays put
    end
    near(50, x)
    near(40, y)
  end)

  it("stops a circle against a circle and slides off one met off-centre", function()
    local world = sat.world(32)
    world:add(sat.circle(50, 0, 10))
    local a = world:add(sat.circle(0, 0, 10))
    local x, y = world:move(a, 100, 0)
    near(30, x)
    assert.are.equal(0, y)

    local world2 = sat.world(32)
    world2:add(sat.circle(50, 0, 10))
    local b = world2:add(sat.circle(0, 5, 10))
    local cx = 50 - math.sqrt(400 - 25) -- centres 20 apart
    local nx, ny = (50 - cx) / 20, -5 / 20
    local rx = 100 - cx                 -- what is left of the move, along x
    local d = rx * nx                   -- its part into the other circle
    local x2, y2, cols = world2:move(b, 100, 0)
    near(cx + rx - d * nx, x2)
    near(5 - d * ny, y2)
    near(cx, cols[1].x)
    near(5, cols[1].y)
    near(nx, cols[1].normal.x, 1e-12)
    near(ny, cols[1].normal.y, 1e-12)
  end)

  it("moves circles against polygons and polygons against circles", function()
    local world = sat.world(32)
    world:add(sat.box(100, -50, 20, 100))
    local ball = world:add(sat.circle(0, 0, 10))
    assert.are.equal(90, (world:move(ball, 200, 0)))
    local world2 = sat.world(32)
    world2:add(sat.circle(50, 0, 10))
    local box = world2:add(sat.box(-10, -10, 20, 20))
    local x, y = world2:move(box, 100, 0)
    near(30, x)
    assert.are.equal(0, y)
    -- a box meeting the circle's side slides around it along the tangent
    local box2 = world2:add(sat.box(-10, 12, 20, 20)) -- centred (0, 22): passes below
    local x2, y2, cols = world2:move(box2, 100, 0)
    assert.are.equal(100, x2)
    assert.are.equal(22, y2)
    assert.are.equal(0, #cols)
  end)

  it("stops dead on a 'touch' shape", function()
    local world, floor, _, player = room()
    local x, y, cols = world:move(player, 30, 100, function() return "touch" end)
    -- 30 of the 100 down: t = 0.3
    near(69, x)
    near(90, y)
    assert.are.equal(1, #cols)
    assert.are.equal("touch", cols[1].type)
    assert.are.equal(floor, cols[1].other)
  end)

  it("passes through 'cross' shapes and reports them, ignores nil ones", function()
    local world = sat.world(32)
    local coin = world:add(sat.circle(50, 0, 5))
    local ghost = world:add(sat.box(80, -20, 10, 40))
    local wall = world:add(sat.box(120, -50, 10, 100))
    local player = world:add(sat.box(-5, -5, 10, 10))
    local x, y, cols = world:move(player, 200, 0, function(_, other)
      if other == coin then return "cross" end
      if other == ghost then return nil end
      return "slide"
    end)
    assert.are.equal(115, x)
    assert.are.equal(0, y)
    assert.are.equal(2, #cols)
    assert.are.equal(coin, cols[1].other)
    assert.are.equal("cross", cols[1].type)
    near(40, cols[1].x) -- where it met the coin
    assert.are.equal(wall, cols[2].other)
    assert.are.equal("slide", cols[2].type)
  end)

  it("asks the filter once per other shape, with (shape, other)", function()
    local world, _, _, player = room()
    local asked = {}
    world:move(player, 200, 100, function(s, other)
      assert.are.equal(player, s)
      asked[other] = (asked[other] or 0) + 1
      return "slide"
    end)
    for _, n in pairs(asked) do
      assert.are.equal(1, n)
    end
  end)

  it("ignores shapes kept apart by categories, masks or the world filter", function()
    local world, floor, wall, player = room()
    floor.category = 4
    player.mask = 3 -- not 4: falls through the floor
    local _, y = world:move(player, 0, 100)
    assert.are.equal(160, y)
    world:setFilter(function(a, b) return not (a == wall or b == wall) end)
    local x = world:move(player, 200, 0)
    assert.are.equal(260, x)
  end)

  it("pushes a shape that starts inside another out first", function()
    local world, _, wall, player = room()
    player:moveTo(145, 60) -- 5 into the wall
    local x, y, cols = world:move(player, 0, 0)
    assert.are.equal(140, x)
    assert.are.equal(60, y)
    assert.are.equal(1, #cols)
    assert.are.equal(wall, cols[1].other)
    assert.are.equal(5, cols[1].overlap)
    assert.are.equal(-5, cols[1].mtv.x)
    assert.are.equal(145, cols[1].x) -- where it was when it met the wall
  end)

  it("works the same far from the origin", function()
    local world = sat.world(32)
    local ox, oy = 1e9, -1e9
    world:add(sat.box(ox, oy + 100, 200, 20))
    world:add(sat.box(ox + 150, oy, 20, 100))
    local player = world:add(sat.box(ox + 50, oy + 50, 20, 20))
    local x, y = world:move(player, 200, 100)
    assert.are.equal(ox + 140, x)
    assert.are.equal(oy + 90, y)
    for _ = 1, 20 do
      x, y = world:move(player, 3, 3)
    end
    assert.are.equal(ox + 140, x)
    assert.are.equal(oy + 90, y)
  end)

  it("keeps the world's other queries right after a move", function()
    local world, floor, _, player = room()
    world:move(player, 0, 100)
    assert.are.same({ player }, world:queryPoint(60, 90))
    assert.are.same({ floor }, world:collisions(player)[1] and { world:collisions(player)[1].b })
    assert.are.equal(2, world:step()) -- floor-wall, floor-player
  end)

  it("never ends inside an obstacle (random moves among random shapes)", function()
    local seed = 4242
    local function rnd(a, b)
      seed = (seed * 16807) % 2147483647
      return a + (b - a) * seed / 2147483647
    end
    local world = sat.world(20)
    local obstacles = {}
    for _ = 1, 60 do
      local x, y, s = rnd(-200, 200), rnd(-200, 200), rnd(4, 60)
      local k = rnd(0, 3)
      local o
      if k < 1 then
        o = sat.box(x, y, s, rnd(4, 60))
      elseif k < 2 then
        o = sat.circle(x, y, s / 2)
      else
        o = sat.polygon(x, y, x + s, y + rnd(-s, s), x + rnd(0, s), y + s)
      end
      o:rotate(rnd(0, 3))
      obstacles[#obstacles + 1] = world:add(o)
    end
    local movers = {}
    for i = 1, 6 do
      local m = i % 2 == 0 and sat.circle(0, 0, rnd(2, 8)) or sat.box(0, 0, rnd(3, 12), rnd(3, 12))
      m:rotate(rnd(0, 1))
      -- put it somewhere free
      repeat
        m:moveTo(rnd(-250, 250), rnd(-250, 250))
      until #world:queryShape(m) == 0
      movers[i] = world:add(m)
    end
    local moves = 0
    for _ = 1, 400 do
      for _, m in ipairs(movers) do
        local sx, sy = m:position()
        local dx, dy = rnd(-40, 40), rnd(-40, 40)
        local x, y = world:move(m, dx, dy, function(_, other)
          for _, o in ipairs(movers) do
            if o == other then return nil end -- movers ignore each other
          end
          return "slide"
        end)
        -- never farther than asked
        assert(math.sqrt((x - sx) ^ 2 + (y - sy) ^ 2) <= math.sqrt(dx * dx + dy * dy) + 1e-9)
        for _, o in ipairs(obstacles) do
          local r = sat.collide(m, o)
          if r and r.overlap > 1e-9 then
            error(("mover inside an obstacle by %g after move %d"):format(r.overlap, moves))
          end
        end
        moves = moves + 1
      end
    end
    assert.are.equal(2400, moves)
  end)

  it("checks its arguments", function()
    local world, floor, _, player = room()
    local function msg(f)
      local ok, e = pcall(f)
      assert.is_false(ok)
      return tostring(e)
    end
    assert.truthy(msg(function() world:move(sat.box(0, 0, 1, 1), 1, 1) end)
      :find("bad argument #1 to 'move' (shape is not in this world)", 1, true))
    assert.truthy(msg(function() world:move(player, "x", 1) end)
      :find("bad argument #2 to 'move' (number expected, got string)", 1, true))
    assert.truthy(msg(function() world:move(player, 1, 0 / 0) end)
      :find("bad argument #3 to 'move' (finite number expected", 1, true))
    assert.truthy(msg(function() world:move(player, 1, 1, 5) end)
      :find("bad argument #4 to 'move' (function or table expected, got number)", 1, true))
    assert.truthy(msg(function() world:move(player, 0, 100, function() return "bogus" end) end)
      :find("move: the filter returned bogus; expected a response", 1, true))
    -- nothing moved by the failed calls
    at(player, 60, 60)
    assert.is_false(sat.test(player, floor))
  end)

  it("blames the filter's wrong answer on the line that called move", function()
    local world, _, _, player = room()
    local ok, e = pcall(function()
      world:move(player, 0, 100, function() return true end) -- this line
    end)
    assert.is_false(ok)
    local line = debug.getinfo(1, "l").currentline - 3
    assert.truthy(tostring(e):find("world_move_spec.lua:" .. line ..
      ": move: the filter returned true", 1, true), tostring(e))
  end)

  it("starts afresh after a move its filter ended with an error", function()
    local world, floor, wall, player = room()
    local ok = pcall(world.move, world, player, 200, 100, function(_, other)
      if other == floor then return "cross" end
      return "bogus" -- asked for the wall, after the floor was crossed
    end)
    assert.is_false(ok)
    at(player, 60, 60)
    -- the failed move's answers are gone: the floor is "slide" again
    local x, y, cols = world:move(player, 200, 100)
    assert.are.equal(140, x)
    assert.are.equal(90, y)
    assert.are.equal(2, #cols)
    assert.are.equal(floor, cols[1].other)
    assert.are.equal("slide", cols[1].type)
    assert.are.equal(wall, cols[2].other)
  end)

  it("lets a filter move another shape, each move keeping its own state", function()
    local world, floor, wall, player = room()
    local other = world:add(sat.box(0, 0, 10, 10)) -- centred (5, 5), above the floor
    local inner
    local x, y, cols = world:move(player, 200, 100, function(_, met)
      if met == wall and not inner then
        inner = { world:move(other, 0, 200) } -- lands on the floor
      end
      return "slide"
    end)
    assert.are.equal(140, x)
    assert.are.equal(90, y)
    assert.are.equal(2, #cols)
    assert.are.equal(floor, cols[1].other)
    assert.are.equal(wall, cols[2].other)
    assert.are.equal(5, inner[1])
    assert.are.equal(95, inner[2])
    assert.are.equal(1, #inner[3])
    assert.are.equal(floor, inner[3][1].other)
    assert.are.equal(other, inner[3][1].a)
  end)

  it("allocates nothing but its result list when it meets nothing", function()
    local jit = rawget(_G, "jit")
    local jitWasOn = require("spec.support").compilerOn()
    if jitWasOn then jit.off() end -- compiled traces are collectable objects too: not ours
    local world = sat.world(32)
    world:add(sat.box(500, 500, 10, 10))
    local player = world:add(sat.box(0, 0, 10, 10))
    local N = 1000
    local function moves()
      for i = 1, N do
        local d = i % 2 == 0 and 1 or -1
        world:move(player, d, d)
      end
    end
    local function tables()
      local t
      for _ = 1, N do t = {} end
      return t
    end
    local allocated = require("spec.support").allocated
    local bytesMoves, bytesTables = allocated(moves), allocated(tables)
    if jitWasOn then jit.on() end
    assert.are.equal(bytesTables, bytesMoves)
  end)
end)
