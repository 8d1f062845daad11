-- Static shapes, tables given to queries and moves to fill (no garbage in a game loop), and
-- the lifetimes of shapes and worlds that track each other: a shape in several worlds,
-- removed and added again, cloned, collected with its world or outliving it (run under
-- ASan and valgrind by spec/suites/valgrind.sh).
local sat = require("sat")
if require("spec.support").skip(pending, "world") then return end

local support = require("spec.support")
local err, has, allocated = support.err, support.has, support.allocated

-- A row of n touching tiles of 16 from (0, 0), static.
local function tiles(world, n)
  local t = {}
  for i = 1, n do
    t[i] = world:add(sat.box((i - 1) * 16, 0, 16, 16), "static")
  end
  return t
end

describe("static shapes", function()
  it("never pair with each other, in step, collisions and move", function()
    local world = sat.world(16)
    local row = tiles(world, 10)
    local events = 0
    world:on("enter", function() events = events + 1 end)
    assert.are.equal(0, world:step()) -- nine touching pairs, all static
    assert.are.equal(0, events)
    assert.is_true(world:isStatic(row[1]))
    assert.are.equal(0, #world:collisions(row[2]))
    local _, _, cols = world:move(row[1], 5, 0) -- moved through its neighbour: no contact
    assert.are.equal(0, #cols)
    assert.are.equal(0, world:step())
    -- a dynamic shape meets them all the same
    local ball = world:add(sat.circle(40, 8, 10))
    assert.is_false(world:isStatic(ball))
    assert.are.equal(3, world:step()) -- tiles 2, 3 and 4 (x 16..64)
    assert.are.equal(3, #world:collisions(ball))
    assert.are.equal(3, #world:queryShape(ball))
    assert.are.equal(2, #world:collisions(row[3]) + #world:collisions(row[9]) + 1)
  end)

  it("may be moved: the world follows, against the dynamic shapes only", function()
    local world = sat.world(16)
    local row = tiles(world, 4)
    local ball = world:add(sat.circle(200, 8, 4))
    local log = {}
    world:on("enter", function(a, b) log[#log + 1] = "enter " .. tostring(a == row[4]) .. tostring(b == ball) end)
    world:on("exit", function(a, b) log[#log + 1] = "exit " .. tostring(a == row[4]) .. tostring(b == ball) end)
    world:step()
    row[4]:moveTo(200, 8) -- onto the ball, away from the other tiles
    assert.are.equal(1, world:step())
    assert.are.same({ row[4] }, world:queryPoint(200 - 7, 8))
    row[4]:moveTo(-100, 8)
    world:step()
    assert.are.same({ "enter truetrue", "exit truetrue" }, log)
    assert.are.same({}, world:queryPoint(200 - 7, 8))
    assert.are.same({ row[4] }, world:queryPoint(-100, 8))
  end)

  it("checks the kind given to add", function()
    local world = sat.world()
    has(err(world.add, world, sat.circle(0, 0, 1), "solid"),
      "bad argument #2 to 'add' (\"static\" or nil expected, got solid)")
    assert.are.equal(0, world:count())
    assert.is_false(world:isStatic(sat.circle(0, 0, 1)))
  end)
end)

describe("the step's contacts", function()
  it("keep an unchanged pair's responses, and refresh them when either shape changes", function()
    local world = sat.world(16)
    local a = world:add(sat.box(0, 0, 10, 10))
    local b = world:add(sat.circle(12, 5, 4), "static")
    local seenA, seenB = {}, {}
    -- each stay's response, and whether it is what sat.collide says right then
    local function note(list, self, other, r)
      local want = sat.collide(self, other)
      list[#list + 1] = { r = r, overlap = r.overlap,
        right = want.overlap == r.overlap and want.normal.x == r.normal.x and r.a == self }
    end
    function a:onStay(other, r) note(seenA, self, other, r) end
    function b:onStay(other, r) note(seenB, self, other, r) end
    world:step()
    for _ = 1, 3 do
      assert.are.equal(1, world:step())
    end
    a:move(1, 0)
    world:step()
    b:move(0.5, 0)
    world:step()
    assert.are.equal(5, #seenA)
    assert.are.equal(5, #seenB)
    for i = 1, 5 do
      assert.are.equal(seenA[1].r, seenA[i].r) -- one response table throughout
      assert.are.equal(seenB[1].r, seenB[i].r)
      assert.is_true(seenA[i].right, "a's response, stay " .. i)
      assert.is_true(seenB[i].right, "b's response, stay " .. i)
    end
    assert.are.same({ 2, 2, 2, 3, 2.5 }, { seenA[1].overlap, seenA[2].overlap, seenA[3].overlap,
      seenA[4].overlap, seenA[5].overlap })
  end)
end)

describe("tables given to fill", function()
  it("are filled and returned, entries past the count removed, inner tables reused", function()
    local world = sat.world(16)
    local row = tiles(world, 6)
    local ball = world:add(sat.circle(24, 8, 10))
    local list = { "old", "old", "old", "old", "old", "old", "old", "old" }
    assert.are.equal(list, world:queryPoint(20, 8, list))
    assert.are.same({ row[2], ball }, list)
    assert.are.equal(list, world:queryRect(0, 0, 40, 2, list))
    assert.are.same({ row[1], row[2], row[3], ball }, list)
    assert.are.equal(list, world:queryShape(ball, list))
    assert.are.same({ row[1], row[2], row[3] }, list)
    assert.are.equal(list, world:neighbors(ball, list))
    assert.are.equal(list, world:shapes(list))
    assert.are.equal(7, #list)
    -- with a filter before the table
    assert.are.same({ ball }, world:queryPoint(20, 8, function(s) return s == ball end, list))
    local hits = {}
    world:querySegment(0, 8, 100, 8, hits)
    local first = hits[1]
    assert.are.equal(row[1], first.shape)
    world:querySegment(100, 8, 0, 8, hits)
    assert.are.equal(first, hits[1]) -- the same hit table, refilled
    assert.are.equal(row[6], first.shape)
    local cols = {}
    world:collisions(ball, cols)
    local r = cols[1]
    assert.are.equal(3, #cols)
    ball:move(0, 3)
    world:collisions(ball, cols)
    assert.are.equal(r, cols[1]) -- the same response, refilled
    assert.are.equal(ball, r.a)
    ball:move(0, 30) -- clear of everything
    assert.are.equal(cols, world:collisions(ball, cols))
    assert.are.equal(0, #cols)
    local _, _, moved = world:move(ball, 0, 30, cols)
    assert.are.equal(cols, moved)
    local _, _, none = world:move(ball, 0, 30, function() return nil end, cols)
    assert.are.equal(cols, none)
    assert.are.equal(0, #cols)
    has(err(world.queryPoint, world, 0, 0, "t"),
      "bad argument #3 to 'queryPoint' (function or table expected, got string)")
    has(err(world.queryPoint, world, 0, 0, print, 5), "bad argument #4 to 'queryPoint' (table expected, got number)")
    has(err(world.collisions, world, ball, 5), "bad argument #2 to 'collisions' (table expected, got number)")
  end)

  it("let queries, moves and steps make no garbage in a game loop", function()
    local jit = rawget(_G, "jit")
    -- off and flushed: a trace compiled by an earlier test would still run, its sunk
    -- allocations made when it exits
    local jitWasOn = require("spec.support").compilerOn()
    if jitWasOn then jit.off(); jit.flush() end
    local world = sat.world(16)
    tiles(world, 20)
    local floorY = -8
    local actors = {}
    for i = 1, 10 do
      -- resting on the tiles, each inside one tile's span: in contact with that tile every
      -- frame, moving along it, so that no contact begins or ends; the last one beyond the
      -- tiles, falling, so that the moves sharing one table meet 1 or 0 shapes
      actors[i] = world:add(sat.box(i * 32 + 4, floorY, 8, 8))
    end
    local stays = 0
    world:on("stay", function() stays = stays + 1 end)
    local list, hits, cols, mcols = {}, {}, {}, {}
    local function frame(f)
      local d = f % 2 == 0 and 2 or -2
      for i = 1, #actors do
        world:move(actors[i], d, 1, mcols) -- pressed into the floor, sliding along it
      end
      world:step()
      world:queryPoint(50, 4, list)
      world:queryRect(0, -20, 100, 40, list)
      world:querySegment(0, 4, 300, 4, hits)
      world:querySegment(0, -100, 300, -100, hits) -- nothing there: the same table emptied
      world:querySegment(0, 4, 300, 4, hits)
      world:collisions(actors[1], cols)
      world:collisions(actors[10], cols)
      world:collisions(actors[1], cols)
      world:queryShape(actors[2], list)
      world:neighbors(actors[3], list)
      world:shapes(list)
    end
    local f = 0
    local kb = allocated(function()
      for _ = 1, 50 do
        f = f + 1
        frame(f)
      end
    end)
    if jitWasOn then jit.on() end
    assert.are.equal(0, kb)
    assert.is_true(stays > 1000)
    assert.are.equal(0, #mcols) -- (the last actor met nothing)
    assert.are.equal(19, #hits) -- the tiles up to x = 300
    assert.are.equal(1, #cols)
  end)
end)

describe("shapes and worlds tracking each other", function()
  it("keeps a shape in several worlds right in each", function()
    local a, b, c = sat.world(4), sat.world(64), sat.world(1)
    local s = sat.circle(0, 0, 2)
    a:add(s)
    b:add(s, "static")
    c:add(s)
    s:move(100, 0)
    for _, w in ipairs({ a, b, c }) do
      assert.are.same({ s }, w:queryPoint(101, 0))
      assert.are.same({}, w:queryPoint(0, 0))
    end
    b:remove(s)
    s:move(0, 100)
    assert.are.same({ s }, a:queryPoint(100, 101))
    assert.are.same({ s }, c:queryPoint(100, 101))
    assert.are.same({}, b:queryPoint(100, 101))
    b:add(s) -- back, in another world's list than before
    s:move(-50, 0)
    for _, w in ipairs({ a, b, c }) do
      assert.are.same({ s }, w:queryPoint(50, 100))
    end
  end)

  it("keeps a clone out of its original's worlds", function()
    local world = sat.world(8)
    local s = world:add(sat.box(0, 0, 4, 4))
    local twin = s:clone()
    twin:move(50, 50)
    assert.are.same({ s }, world:queryPoint(2, 2))
    assert.are.same({}, world:queryPoint(52, 52))
    assert.is_false(world:has(twin))
    world:add(twin)
    twin:move(1, 0)
    s:move(100, 0)
    assert.are.same({ twin }, world:queryPoint(53, 52))
    assert.are.same({ s }, world:queryPoint(102, 2))
  end)

  it("lets shapes outlive a collected world, and worlds outlive their shapes' other worlds", function()
    local keep = {}
    local survivor = sat.world(8)
    for _ = 1, 20 do
      local w = sat.world(8)
      for i = 1, 50 do
        local s = sat.circle(i, 0, 1)
        w:add(s)
        if i % 5 == 0 then
          survivor:add(s)
          keep[#keep + 1] = s
        end
      end
      w:step()
    end
    collectgarbage()
    collectgarbage()
    -- the collected worlds unlinked themselves: moving the shapes tells only the survivor
    for _, s in ipairs(keep) do
      s:move(1000, 0)
      s:rotate(1)
      s.category = 2
    end
    assert.are.equal(200, #survivor:queryRect(1000, -5, 60, 10))
    assert.are.equal(0, #survivor:queryRect(-10, -5, 70, 10))
  end)

  it("collects a world together with its shapes, in any order", function()
    local weak = setmetatable({}, { __mode = "v" })
    for k = 1, 30 do
      local w = sat.world(16)
      local shapes = {}
      for i = 1, 40 do
        shapes[i] = w:add(sat.box(i * 5, k, 8, 8), i % 2 == 0 and "static" or nil)
        shapes[i].world = w
      end
      w:step()
      weak[#weak + 1] = w
      weak[#weak + 1] = shapes[1]
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(next(weak))
  end)
end)
