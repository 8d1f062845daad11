-- The tables a result is filled with (issue 25, #12 and #14): a table given to querySegment,
-- collisions and move in turn takes the hit, response and collision tables from the same
-- pools and gives them back, so that memory stays bounded however the calls alternate (it
-- grew by kilobytes a frame, for ever); a table is never in two places (a caller's alias
-- t[2] = t[1] once made a pool hand out one hit five times); and a result table with weak
-- values is refused at the caller's line, saying what is wrong with it.
local sat = require("sat")

local function memory()
  collectgarbage("collect")
  collectgarbage("collect")
  return collectgarbage("count")
end

-- A corridor: a row of posts the segment query crosses, a wall the mover runs into, a crowd
-- the probe collides with.
local function scene()
  local world = sat.world(16)
  for i = 1, 24 do
    world:add(sat.box(i * 10, -2, 2, 4), "static")
  end
  world:add(sat.box(-40, -10, 4, 20), "static")
  local mover = world:add(sat.circle(-20, 0, 3))
  local probe = sat.circle(-40, 0, 6)
  return world, mover, probe
end

-- Every table of each list, once: in no other place of that list, nor of any other list.
local function distinct(lists)
  local seen = {}
  for li, list in ipairs(lists) do
    for i = 1, #list do
      local v = list[i]
      assert.are.equal("table", type(v))
      assert.is_nil(seen[v], ("list %d entry %d was already entry %s"):format(li, i,
        tostring(seen[v])))
      seen[v] = li .. ":" .. i
    end
  end
end

describe("a result table reused across the world's calls", function()
  it("keeps memory bounded when querySegment, move and collisions take turns with it", function()
    local world, mover, probe = scene()
    local t = {}
    local function frame(f)
      local n = #world:querySegment(-50, 0, 300, 0, t) -- the posts, the wall, the mover
      assert(n == 26, n)
      mover:moveTo(-20, 0)
      local _, _, cols = world:move(mover, -30, f % 2, t) -- into the wall: 1 collision
      assert(#cols == 1 and cols[1].other ~= nil, #cols)
      world:collisions(probe, t) -- the wall and the mover, or the wall
      world:querySegment(-50, 40, 300, 40, t) -- nothing there: everything trimmed
    end
    for f = 1, 500 do frame(f) end
    local before = memory()
    for f = 501, 20500 do frame(f) end
    local grown = memory() - before
    -- (it grew by 26 tables a frame: about 20 MB over these 20,000 frames)
    assert.is_true(grown < 64, ("%.1f KB more after 20,000 frames"):format(grown))
  end)

  it("makes no garbage in that loop once warm", function()
    local world, mover, probe = scene()
    local t = {}
    local function frame(f)
      world:querySegment(-50, 0, 300, 0, t)
      mover:moveTo(-20, 0)
      world:move(mover, -30, f % 2, t)
      world:collisions(probe, t)
    end
    local jit = rawget(_G, "jit")
    local jitWasOn = require("spec.support").compilerOn()
    if jitWasOn then jit.off() end -- (compiled traces are collectable objects too)
    for f = 1, 50 do frame(f) end
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    for f = 51, 550 do frame(f) end
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    if jitWasOn then jit.on() end
    -- (one table a frame would be 100 KB or more; it was 3,954 KB with a pool per kind on Lua
    -- 5.4, 5,652 KB on LuaJIT. LuaJIT's interpreter makes about 1 KB over these frames from
    -- moveTo and move alone, as before the pools were one; busted's run a few KB more)
    assert.is_true(grown < 16, ("%.2f KB allocated over 500 frames"):format(grown))
  end)

  it("hands out tables with no field of an earlier use but a response's two vectors", function()
    local world, mover, probe = scene()
    local t = {}
    world:querySegment(-50, 0, 300, 0, t) -- 26 hits: shape, t, x, y, nx, ny
    t[1].mine, t[2].mine = "game's own", "game's own"
    local hit1 = t[1]
    assert.are.equal("number", type(hit1.t))
    world:move(mover, -30, 0, t) -- one collision, in t[1] (the hit's table); the rest pooled
    local c = t[1]
    assert.are.equal(hit1, c)
    assert.is_nil(t[2])
    local keys = {}
    for k in pairs(c) do
      keys[#keys + 1] = tostring(k)
    end
    table.sort(keys)
    assert.are.same({ "a", "aInB", "b", "bInA", "mtv", "normal", "other", "overlap", "type", "x",
      "y" }, keys)
    assert.are.equal(mover, c.a)
    assert.are.equal(-1, c.normal.x)
    -- a collision's table become a hit: its normal and mtv stay (the next response fills
    -- them in place), nothing else of the collision
    world:collisions(probe, t) -- the wall, and the mover
    world:querySegment(-50, 0, 300, 0, t)
    for i = 1, #t do
      local hit = t[i]
      for k in pairs(hit) do
        assert.is_true(k == "shape" or k == "t" or k == "x" or k == "y" or k == "nx" or k == "ny"
          or k == "normal" or k == "mtv", ("hit %d has the field %s"):format(i, tostring(k)))
      end
      assert.is_nil(rawget(hit, "mine"))
    end
  end)

  it("never puts one table in two places, whatever the caller aliased", function()
    local world, mover, probe = scene()
    local t = {}
    for round = 1, 100 do
      world:querySegment(-50, 0, 300, 0, t)
      distinct({ t })
      -- the caller aliases entries and keeps one, then the world empties t into its pools
      t[2], t[5], t[9] = t[1], t[1], t[3]
      local kept = t[4]
      world:querySegment(-50, 40, 300, 40, t)
      assert.are.equal(0, #t)
      -- and gives the kept one back, twice, in a result to fill
      t[1], t[2] = kept, kept
      world:querySegment(-50, 0, 300, 0, t)
      -- new results, from the pools: no table twice, in one or across them
      local u, v, w = {}, {}, {}
      world:querySegment(-50, 0, 300, 0, u)
      mover:moveTo(-20, 0)
      world:move(mover, -30, round % 3, w)
      world:collisions(probe, v) -- the wall and the mover against it
      distinct({ t, u, v, w })
      for _, list in ipairs({ t, u }) do
        assert.are.equal(26, #list)
        local shapes = {}
        for i = 1, #list do -- every hit of its own shape, filled
          assert.is_true(sat.isShape(list[i].shape) and type(list[i].t) == "number")
          assert.is_nil(shapes[list[i].shape])
          shapes[list[i].shape] = true
        end
      end
      assert.are.equal(2, #v)
      assert.are.equal(1, #w)
    end
  end)

  it("never fills one table twice when the caller aliased entries of a move's list", function()
    local world = sat.world(16)
    local a = world:add(sat.box(0, 0, 4, 4))
    world:add(sat.box(10, 0, 2, 4), "static")
    world:add(sat.box(20, 0, 2, 4), "static")
    local shared = {}
    local cols = { shared, shared, shared }
    local _, _, got = world:move(a, 20, 0, function() return "cross" end, cols)
    assert.are.equal(2, #got)
    assert.are_not.equal(got[1], got[2])
    assert.are_not.equal(got[1].other, got[2].other)
  end)
end)

describe("a result table with weak values", function()
  local weak = setmetatable({}, { __mode = "v" })
  local world, mover, probe = scene()

  -- the error of f() and the line of this file it points at
  local function failure(f)
    local ok, e = pcall(f)
    assert.is_false(ok)
    return tostring(e)
  end

  it("is refused by querySegment, collisions and move at the caller's line", function()
    local line
    local e = failure(function()
      line = debug.getinfo(1, "l").currentline + 1
      local r = world:querySegment(-50, 0, 300, 0, weak)
      return r
    end)
    assert.are.equal(("spec/world_pools_spec.lua:%d: bad argument #5 to 'querySegment' (result " ..
      "table has weak values (__mode = \"v\"): the tables put in it could be collected while " ..
      "it is filled; give a table without weak values)"):format(line), e)
    e = failure(function()
      line = debug.getinfo(1, "l").currentline + 1
      local r = world:collisions(probe, weak)
      return r
    end)
    assert.truthy(e:find(("world_pools_spec.lua:%d: bad argument #2 to 'collisions' (result table " ..
      "has weak values"):format(line), 1, true), e)
    e = failure(function()
      line = debug.getinfo(1, "l").currentline + 1
      local _, _, r = world:move(mover, 1, 0, function() return "slide" end, weak)
      return r
    end)
    assert.truthy(e:find(("world_pools_spec.lua:%d: bad argument #5 to 'move' (result table " ..
      "has weak values"):format(line), 1, true), e)
    e = failure(function()
      local _, _, r = world:move(mover, 1, 0, setmetatable({}, { __mode = "kv" }))
      return r
    end)
    assert.truthy(e:find("bad argument #4 to 'move' (result table has weak values (__mode = \"kv\")",
      1, true), e)
  end)

  it("is taken where the world puts no tables of its own in it, and weak keys anywhere", function()
    assert.are.equal(1, #world:queryPoint(-20, 0, weak))
    assert.are.equal(26, #world:querySegment(-50, 0, 300, 0, setmetatable({}, { __mode = "k" })))
  end)
end)
