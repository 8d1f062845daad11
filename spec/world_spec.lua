-- sat.world: membership, queries on exact geometry, shapes kept right through their own
-- moves, big shapes, far coordinates, strong references, argument errors.
local sat = require("sat")
if require("spec.support").skip(pending, "world") then return end

local support = require("spec.support")
local err, has = support.err, support.has

local function names(list)
  local t = {}
  for i, s in ipairs(list) do
    t[i] = s.name or s.shape.name
  end
  return table.concat(t, " ")
end

local function named(world, name, s)
  s.name = name
  return world:add(s)
end

describe("sat.world", function()
  it("adds, removes and lists shapes in insertion order", function()
    local world = sat.world()
    assert.are.equal(64, world:cellSize())
    local a = named(world, "a", sat.box(0, 0, 10, 10))
    local b = named(world, "b", sat.circle(50, 50, 5))
    local c = named(world, "c", sat.point(-5, -5))
    assert.are.equal(3, world:count())
    assert.are.equal("a b c", names(world:shapes()))
    assert.is_true(world:has(b))
    assert.are.equal(b, world:remove(b))
    assert.is_false(world:has(b))
    assert.are.equal("a c", names(world:shapes()))
    world:add(b)
    assert.are.equal("a c b", names(world:shapes()))
    assert.are.equal("world(3 shapes, cell 64)", tostring(world):gsub("64%.0", "64"))
    assert.are.equal(a, world:shapes()[1])
    assert.are.equal(c, world:shapes()[2])
  end)

  it("rejects bad arguments with the function and argument named", function()
    local world = sat.world(10)
    local s = sat.box(0, 0, 1, 1)
    has(err(sat.world, 0), "bad argument #1 to 'world' (cell size must be > 0)")
    has(err(sat.world, "big"), "bad argument #1 to 'world' (number expected, got string)")
    has(err(sat.world, 0 / 0), "bad argument #1 to 'world' (finite number expected")
    has(err(world.add, world, {}), "bad argument #1 to 'add' (shape expected, got table)")
    has(err(world.add, world, sat.vec(1, 2)), "bad argument #1 to 'add' (shape expected")
    world:add(s)
    has(err(world.add, world, s), "bad argument #1 to 'add' (shape is already in this world)")
    has(err(world.remove, world, sat.circle(0, 0, 1)),
      "bad argument #1 to 'remove' (shape is not in this world)")
    has(err(world.queryPoint, world, 1, "y"), "bad argument #2 to 'queryPoint' (number expected")
    has(err(world.queryPoint, world, 1 / 0, 0), "bad argument #1 to 'queryPoint' (finite")
    has(err(world.queryRect, world, 0, 0, -1, 1), "bad argument #3 to 'queryRect' (width must")
    has(err(world.queryRect, world, 0, 0, 1, -1), "bad argument #4 to 'queryRect' (height must")
    has(err(world.querySegment, world, 0, 0, 1), "bad argument #4 to 'querySegment' (number")
    has(err(world.queryShape, world, 5), "bad argument #1 to 'queryShape' (shape expected")
    has(err(world.queryPoint, world, 0, 0, 7), "bad argument #3 to 'queryPoint' (function")
    has(err(world.collisions, world, nil), "bad argument #1 to 'collisions' (shape expected")
    local max = world.hash:limits()
    assert.is_true(max >= 1e100)
    if max < math.huge then -- the core's coordinate range
      has(err(world.queryPoint, world, 0, -2 * max), "bad argument #2 to 'queryPoint' (out of range")
      has(err(world.move, world, s, 2 * max, 0), "bad argument #2 to 'move' (out of range")
      s:moveTo(max, 0)
      has(err(world.move, world, s, max, 0), "bad argument #2 to 'move' (out of range")
      assert.are.equal(max, (s:position()))
      s:moveTo(0.5, 0.5)
    end
    -- nothing changed by the failures
    assert.are.same({ s }, world:shapes())
  end)

  it("queries points against the real shape, not its box", function()
    local world = sat.world(16)
    local diamond = named(world, "diamond", sat.polygon(0, -10, 10, 0, 0, 10, -10, 0))
    local ball = named(world, "ball", sat.circle(30, 0, 10))
    assert.are.equal("diamond", names(world:queryPoint(0, 0)))
    assert.are.equal("", names(world:queryPoint(8, 8)))      -- in the box, not the diamond
    assert.are.equal("diamond", names(world:queryPoint(5, 5))) -- on its edge: touching
    assert.are.equal("", names(world:queryPoint(38, 8)))     -- the ball's box corner
    assert.are.equal("ball", names(world:queryPoint(40, 0)))
    diamond:moveTo(30, 0)
    assert.are.equal("diamond ball", names(world:queryPoint(30, 0)))
    assert.are.equal("diamond ball", names(world:queryPoint(30, 0, function(s)
      return s ~= nil
    end)))
    assert.are.equal("ball", names(world:queryPoint(30, 0, function(s) return s == ball end)))
  end)

  it("queries rectangles, segments and shapes exactly", function()
    local world = sat.world(16)
    named(world, "ball", sat.circle(0, 0, 10))
    named(world, "wall", sat.box(20, -50, 10, 100))
    named(world, "dot", sat.point(50, 0))
    -- a rectangle in the ball's box corner but outside the ball
    assert.are.equal("", names(world:queryRect(7.5, 7.5, 5, 5)))
    assert.are.equal("ball", names(world:queryRect(6, 6, 5, 5)))
    assert.are.equal("wall", names(world:queryRect(10, 30, 10, 10)))   -- touching its side
    assert.are.equal("ball wall dot", names(world:queryRect(-100, -1, 200, 2)))
    assert.are.equal("dot", names(world:queryRect(50, -5, 0, 10)))     -- zero width
    assert.are.equal("dot", names(world:queryRect(50, 0, 0, 0)))       -- a point
    -- a segment from the right: hits sorted along it, with points and normals
    local hits = world:querySegment(100, 0, -100, 0)
    assert.are.equal("dot wall ball", names(hits))
    assert.are.equal(0.25, hits[1].t)
    assert.are.equal(50, hits[1].x)
    assert.are.equal(0.35, hits[2].t)
    assert.are.equal(30, hits[2].x)
    assert.are.equal(0, hits[2].y)
    assert.are.equal(1, hits[2].nx)
    assert.are.equal(0, hits[2].ny)
    assert.are.equal(10, hits[3].x)
    assert.are.equal(1, hits[3].nx)
    -- starting inside: t = 0
    hits = world:querySegment(25, 0, 25, 10)
    assert.are.equal("wall", names(hits))
    assert.are.equal(0, hits[1].t)
    -- a long diagonal far from everything
    assert.are.equal(0, #world:querySegment(-1e5, 1e5, 1e5, 2e5))
    -- shapes: exact, itself excluded, and one not in the world
    local probe = sat.circle(15, 0, 5.5)
    assert.are.equal("ball wall", names(world:queryShape(probe)))
    probe:move(0, 8)
    assert.are.equal("wall", names(world:queryShape(probe))) -- box of ball overlaps, ball not
    assert.are.equal("ball wall", names(world:neighbors(probe)))
    assert.are.equal("", names(world:queryShape(world:shapes()[3])))
  end)

  it("returns collisions as responses seen from the shape", function()
    local world = sat.world(16)
    local a = named(world, "a", sat.box(0, 0, 10, 10))
    local b = named(world, "b", sat.box(8, 0, 10, 10))
    local c = named(world, "c", sat.box(0, 9, 10, 10))
    local cols = world:collisions(b)
    assert.are.equal(2, #cols)
    assert.are.equal(b, cols[1].a)
    assert.are.equal(a, cols[1].b)
    assert.are.equal(2, cols[1].overlap)
    assert.are.equal(-1, cols[1].normal.x) -- from b toward a
    assert.are.equal(2, cols[1].mtv.x)
    assert.are.equal(c, cols[2].b)
    assert.are.equal("response(overlap 2, normal vec(-1, 0), mtv vec(2, 0), aInB false, bInA false)",
      tostring(cols[1]))
  end)

  it("follows shapes moved, rotated and scaled by their own methods", function()
    local world = sat.world(10)
    local plank = named(world, "plank", sat.box(0, 0, 100, 4))
    local probe = function(x, y) return names(world:queryPoint(x, y)) end
    assert.are.equal("plank", probe(90, 2))
    plank:rotate(math.pi / 2) -- now vertical through (50, 2)
    assert.are.equal("", probe(90, 2))
    assert.are.equal("plank", probe(50, 45))
    plank:scale(2)
    assert.are.equal("plank", probe(50, 95))
    plank:move(-1000, -1000)
    assert.are.equal("", probe(50, 45))
    assert.are.equal("plank", probe(-950, -1000 + 2 + 90))
    plank:moveTo(-123456.5, 654321)
    assert.are.equal("plank", probe(-123456.5, 654321 + 99))
    local ball = named(world, "ball", sat.circle(0, 0, 1))
    ball:setRadius(30)
    assert.are.equal("ball", probe(25, 0))
    plank:setRotation(0)
    plank:moveTo(0, 0)
    assert.are.equal(1, world:step())
  end)

  it("keeps one shape right in several worlds", function()
    local w1, w2 = sat.world(8), sat.world(1000)
    local s = sat.circle(0, 0, 5)
    w1:add(s)
    w2:add(s)
    w1:add(sat.box(100, 0, 10, 10))
    w2:add(sat.box(100, 0, 10, 10))
    assert.are.equal(0, w1:step())
    s:moveTo(100, 5)
    assert.are.equal(1, w1:step())
    assert.are.equal(1, w2:step())
    w1:remove(s)
    assert.are.equal(0, w1:step())
    assert.are.equal(1, w2:step())
  end)

  it("handles big shapes, huge and negative coordinates", function()
    local world = sat.world(1)
    local ground = named(world, "ground", sat.box(-1e6, 0, 2e6, 10)) -- two million cells
    local far = named(world, "far", sat.circle(1e9, -1e9, 0.5))
    local neg = named(world, "neg", sat.box(-1000.5, -2000.5, 0.25, 0.25))
    assert.are.equal("ground", names(world:queryPoint(123456.75, 5)))
    assert.are.equal("far", names(world:queryPoint(1e9 + 0.25, -1e9 - 0.25)))
    assert.are.equal("", names(world:queryPoint(1e9 + 0.5, -1e9 - 0.5)))
    assert.are.equal("neg", names(world:queryPoint(-1000.4, -2000.4)))
    local ball = named(world, "ball", sat.circle(5e5, -3, 3))
    assert.are.equal(1, world:step()) -- ground-ball, touching
    assert.are.equal(0, world:collisions(ball)[1].overlap)
    far:moveTo(1e9 + 1, -1e9)
    local twin = named(world, "twin", sat.circle(1e9 + 2, -1e9, 0.5))
    assert.are.equal(0, world:collisions(twin)[1].overlap) -- touching, at 1e9
    assert.are.equal(2, world:step())
    assert.are.equal("far twin", names(world:queryRect(1e9, -1e9 - 1, 3, 2)))
    assert.are.equal("ball ground", names(world:querySegment(5e5, -100, 5e5, 100)))
    assert.are.equal(ground, world:querySegment(-1e6 - 5, 5, 1e6 + 5, 5)[1].shape)
    assert.are.equal(neg, world:queryShape(sat.circle(-1000, -2000, 0.5))[1])
  end)

  it("lists the cells in use for debugging views", function()
    local world = sat.world(10)
    world:add(sat.box(1, 1, 5, 5))   -- cell (0, 0)
    world:add(sat.box(2, 2, 15, 5))  -- cells (0, 0), (1, 0)
    world:add(sat.box(-5, 1, 2, 2))  -- cell (-1, 0)
    assert.are.same({ -1, 0, 1, 0, 0, 2, 1, 0, 1 }, world:cells())
    local debug = sat.debug
    local cells = debug.cells(world)
    assert.are.equal(3, #cells)
    assert.are.equal(2, cells[2].count)
    assert.are.equal(10, cells[3].x)
  end)

  it("holds its shapes strongly", function()
    local world = sat.world(16)
    for i = 1, 50 do
      local s = sat.box(i * 3, 0, 2, 2)
      s.tag = i
      world:add(s)
    end
    collectgarbage()
    collectgarbage()
    local shapes = world:shapes()
    assert.are.equal(50, #shapes)
    assert.are.equal(50, shapes[50].tag)
    assert.are.equal(1, #world:queryPoint(150 + 1, 1))
  end)

  it("makes no garbage per step while the pairs do not change", function()
    local jit = rawget(_G, "jit")
    local jitWasOn = require("spec.support").compilerOn()
    if jitWasOn then jit.off() end -- compiled traces are collectable objects too: not ours
    local world = sat.world(32)
    local shapes = {}
    for i = 1, 300 do
      shapes[i] = world:add(sat.box((i % 20) * 40, math.floor(i / 20) * 40, 10, 10))
    end
    -- two pairs that stay in contact, with world and shape handlers
    local stays = 0
    for k = 0, 1 do
      local a = world:add(sat.circle(5000 + 100 * k, 0, 10))
      local b = world:add(sat.circle(5015 + 100 * k, 0, 10))
      function a:onStay() stays = stays + 1 end
      function b:onStay() stays = stays + 1 end
    end
    world:on("stay", function() stays = stays + 1 end)
    local function frames(n)
      for f = 1, n do
        local d = f % 2 == 0 and 1 or -1
        for i = 1, #shapes do shapes[i]:move(d, d) end -- every shape changes every frame
        world:step()
      end
    end
    frames(50) -- buffers reach their size
    collectgarbage()
    collectgarbage()
    collectgarbage("stop")
    frames(50) -- (a first round after a collection allocates a little, once)
    local before = collectgarbage("count")
    frames(300)
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    if jitWasOn then jit.on() end
    assert.are.equal(0, grown)
    assert.are.equal(399 * 2 * 3, stays) -- the first step enters
  end)

  it("is collected with its shapes, even when shapes refer to the world", function()
    local weak = setmetatable({}, { __mode = "v" })
    do
      local world = sat.world()
      local s = sat.box(0, 0, 1, 1)
      s.world = world
      world:add(s)
      weak[1], weak[2] = world, s
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(weak[1])
    assert.is_nil(weak[2])
  end)
end)
