-- The world against handlers and filters that yield, raise errors, step, remove and move
-- (issue 13, #9 to #13), and the world's errors in the binding's style (#15).
local sat = require("sat")
if require("spec.support").skip(pending, "world") then return end
local support = require("spec.support")
local err, has = support.err, support.has

-- A world logging the world handlers' events as "enter a b" lines; shapes named by .name.
local function logged()
  local world = sat.world(16)
  local log = {}
  local function name(s) return s.name end
  world:on("enter", function(a, b) log[#log + 1] = "enter " .. name(a) .. " " .. name(b) end)
  world:on("stay", function(a, b) log[#log + 1] = "stay " .. name(a) .. " " .. name(b) end)
  world:on("exit", function(a, b) log[#log + 1] = "exit " .. name(a) .. " " .. name(b) end)
  local function take()
    local l = log
    log = {}
    return l
  end
  local function box(nm, x, y, w, h)
    local s = sat.box(x, y, w or 10, h or 10)
    s.name = nm
    return world:add(s)
  end
  return world, box, take
end

-- Plain Lua 5.1 cannot yield across pcall, which step and move run their callbacks under:
-- there a yield from a handler or a filter is an error, and these cases do not apply.
local yit = (_VERSION == "Lua 5.1" and not rawget(_G, "jit")) and pending or it

describe("a step suspended or dropped in a coroutine (#9)", function()
  yit("does not wedge the world: a handler yields and the coroutine is dropped", function()
    local world, box, take = logged()
    box("a", 0, 0)
    box("b", 5, 0)
    local co = coroutine.create(function()
      world:on("enter", function() coroutine.yield("inside") end)
      world:step()
    end)
    local ok, v = coroutine.resume(co)
    assert.is_true(ok)
    assert.are.equal("inside", v)
    co = nil -- luacheck: ignore 311 (dropped while suspended in the step)
    collectgarbage()
    world:on("enter", function(a, b) take()[1] = nil; error("unused " .. a.name .. b.name) end)
    world:on("enter", nil)
    world:on("stay", function(a, b) take(); world.logged = a.name .. b.name end)
    -- the step works, and the pair entered by the dropped step stays
    assert.are.equal(1, world:step())
    assert.are.equal("ab", world.logged)
  end)

  yit("lets other steps run while one is suspended, and the suspended one finish later", function()
    local world, box, take = logged()
    local a = box("a", 0, 0)
    box("b", 5, 0)
    local yielding = true
    world:on("exit", function(x, y)
      if yielding then coroutine.yield() end
      take()[1] = nil
      world.exits = (world.exits or 0) + 1
      assert(x and y)
    end)
    world:step() -- enter a b
    a:moveTo(100, 100)
    local co = coroutine.wrap(function() return world:step() end)
    co() -- suspended in the exit of (a, b)
    yielding = false
    assert.are.equal(0, world:step()) -- not refused; (a, b) was told its exit by the other
    a:moveTo(5, 5)
    co() -- the suspended step ends, without a second exit
    assert.are.equal(1, world.exits)
    assert.are.same({ "enter a b" }, (function() world:step() return take() end)())
  end)

  it("still refuses a step from a coroutine that a handler resumes", function()
    local world, box = logged()
    box("a", 0, 0)
    box("b", 5, 0)
    local msg
    world:on("enter", function()
      local ok, e = coroutine.resume(coroutine.create(function() return world:step() end))
      assert.is_true(ok == false)
      msg = e
    end)
    world:step()
    has(msg, "cannot step the world from inside its step")
  end)

  yit("does not wedge the world: the setFilter function yields and is dropped", function()
    local world, box, take = logged()
    box("a", 0, 0)
    box("b", 5, 0)
    world:setFilter(function() coroutine.yield() return true end)
    assert.is_true(coroutine.resume(coroutine.create(function() world:step() end)))
    world:setFilter(nil)
    assert.are.equal(1, world:step())
    assert.are.same({ "enter a b" }, take())
  end)

  yit("drops a step whose suspended setFilter function another step overtook", function()
    local world, box, take = logged()
    box("a", 0, 0)
    box("b", 5, 0)
    local yielding = true
    world:setFilter(function() if yielding then coroutine.yield() end return true end)
    local co = coroutine.create(function() return world:step() end)
    assert.is_true(coroutine.resume(co))
    yielding = false
    assert.are.equal(1, world:step())
    assert.are.same({ "enter a b" }, take())
    local ok, e = coroutine.resume(co)
    assert.is_false(ok)
    has(e, "another step of this world ran while the setFilter function")
    assert.are.same({}, take())
    assert.are.equal(1, world:step())
    assert.are.same({ "stay a b" }, take())
  end)

  yit("does not wedge the world: a move filter raises an error or yields", function()
    local world, box = logged()
    local a = box("a", 0, 0)
    box("b", 20, 0)
    assert.is_false(pcall(world.move, world, a, 30, 0, function() error("no") end))
    local co = coroutine.create(function()
      return world:move(a, 30, 0, function() coroutine.yield() return "slide" end)
    end)
    assert.is_true(coroutine.resume(co))
    co = nil -- luacheck: ignore 311
    collectgarbage()
    assert.are.same({ 15 }, { (world:move(a, 30, 0)) }) -- stops at b: its centre 20 - 10 / 2
    assert.are.equal(1, world:step())
  end)
end)

describe("the setFilter function (#10)", function()
  it("gets a clear error when it steps the world", function()
    local world, box = logged()
    box("a", 0, 0)
    box("b", 5, 0)
    world:setFilter(function() world:step() return true end)
    has(err(world.step, world), "cannot step the world from inside its step")
    world:setFilter(nil)
    assert.are.equal(1, world:step())
  end)

  it("may remove shapes: no event for them but the exits of their pairs told", function()
    local world, box, take = logged()
    local a = box("a", 0, 0)
    local b = box("b", 5, 0)
    local c = box("c", 12, 0)
    world:step()
    assert.are.same({ "enter a b", "enter b c" }, take())
    local d = box("d", 3, 5)
    d:move(0, 0)
    world:setFilter(function(x, y)
      if x == a and y == b then world:remove(c) end
      return true
    end)
    assert.is_truthy(world:step())
    -- c's pair (b, c) exits as c leaves; nothing for c after; (a, d) and (b, d) enter
    assert.are.same({ "exit b c", "stay a b", "enter a d", "enter b d" }, take())
    assert.is_false(world:has(c))
    world:setFilter(nil)
    world:step()
    assert.are.same({ "stay a b", "stay a d", "stay b d" }, take())
  end)
end)

describe("world:remove (#11)", function()
  it("keeps the exits an exit handler's error put off for the next step", function()
    local world, box, take = logged()
    local a = box("a", 0, 0)
    box("b", 5, 0)
    box("c", -5, 0)
    box("d", 0, 5)
    world:step()
    take()
    local failed = false
    world:on("exit", function(x, y)
      take()[1] = nil
      world.exited = (world.exited or "") .. x.name .. y.name .. " "
      if not failed then
        failed = true
        error("exit fails")
      end
    end)
    has(err(world.remove, world, a), "exit fails")
    assert.is_false(world:has(a))
    assert.are.equal("ab ", world.exited) -- the first exit ran, and raised
    world:step()
    -- the other two pairs are told at the next step, each once, in pair order
    assert.are.equal("ab ac ad ", world.exited)
    world:step()
    assert.are.equal("ab ac ad ", world.exited)
  end)

  it("tells each exit once when a handler removes a shape of a pair not told yet", function()
    local world, box, take = logged()
    local a = box("a", 0, 0)
    local b = box("b", 5, 0)
    box("c", -5, 0)
    world:step()
    take()
    world:on("exit", function(x, y)
      world.exited = (world.exited or "") .. x.name .. y.name .. " "
      if world:has(b) then world:remove(b) end
    end)
    world:remove(a) -- exit (a, b) removes b: (b, c)'s exit; then (a, c)
    assert.are.equal("ab bc ac ", world.exited)
  end)

  it("gives a pair whose shape came back a new membership, after the old one's exit", function()
    local world, box, take = logged()
    local a = box("a", 0, 0)
    box("b", 5, 0)
    box("c", -7, 0)
    world:step()
    assert.are.same({ "enter a b", "enter a c" }, take())
    local exit = world.handlers.exit
    world:on("exit", function() error("exit fails") end)
    assert.is_false(pcall(world.remove, world, a)) -- (a, b) told (it raised), (a, c) put off
    world:on("exit", exit)
    world:add(a) -- a is now the last added: its pairs are (b, a) and (c, a)
    world:step()
    assert.are.same({ "exit a c", "enter b a", "enter c a" }, take())
    world:step()
    assert.are.same({ "stay b a", "stay c a" }, take())
    world:remove(a)
    assert.are.same({ "exit b a", "exit c a" }, take())
  end)
end)

describe("world:move with filters that change the world (#12, #13)", function()
  it("stops at a shape the filter moved into the path", function()
    local world = sat.world(16)
    local mover = world:add(sat.circle(0, 0, 1))
    local gate = world:add(sat.circle(3, 0, 0.5))
    local wall = world:add(sat.box(100, 100, 2, 10))
    local x = world:move(mover, 20, 0, function(_, other)
      if other == gate then
        wall:moveTo(11, 0)
        return "cross"
      end
      return "slide"
    end)
    assert.are.equal(9, x) -- the wall's left side at 10, the radius 1
    assert.is_false(sat.test(mover, wall) and select(2, mover:collidesWith(wall)) ~= 0)
  end)

  it("ends when the filter removes the moving shape", function()
    local world = sat.world(16)
    local mover = world:add(sat.circle(0, 0, 1))
    world:add(sat.circle(3, 0, 0.5))
    local x, y, cols = world:move(mover, 20, 0, function(s)
      world:remove(s)
      return "cross"
    end)
    assert.are.same({ 0, 0, 0 }, { x, y, #cols })
    assert.is_false(world:has(mover))
  end)

  it("undoes itself when the filter raises an error half-way", function()
    local world = sat.world(16)
    local mover = world:add(sat.circle(0, -3, 1))
    local floor = world:add(sat.box(-5, 1, 30, 2)) -- met first (at 12, 0), slid along
    local wall = world:add(sat.box(14, -5, 2, 5))  -- then this one
    local asked, at = {}, {}
    local e = err(world.move, world, mover, 16, 4, function(_, other)
      asked[#asked + 1] = other
      at[#at + 1] = { mover:position() }
      if other == wall then error("not the wall") end
      return "slide"
    end)
    has(e, "not the wall")
    assert.are.same({ floor, wall }, asked)
    assert.are.same({ 12, 0 }, at[2]) -- half-way when the filter failed
    assert.are.same({ 0, -3 }, { mover:position() })
    -- and the world is usable
    local x, y = world:move(mover, 16, 4)
    assert.are.same({ 13, 0 }, { x, y })
    assert.are.equal(2, world:step())
  end)

  it("blames a filter's wrong answer on the line that called move", function()
    local world = sat.world(16)
    local mover = world:add(sat.circle(0, 0, 1))
    world:add(sat.circle(3, 0, 1))
    local function filter()
      return 42
    end
    local line = debug.getinfo(1, "l").currentline + 1
    local e = err(function() world:move(mover, 5, 0, filter) end)
    has(e, "world_reentrancy_spec.lua:" .. line .. ": move: the filter returned 42")
    assert.are.same({ 0, 0 }, { mover:position() })
  end)
end)

describe("the world's errors (#15)", function()
  local STYLE = "^[^:]*world_reentrancy_spec%.lua:%d+: bad argument #%d+ to '[%a]+' %(.+%)$"
  it("point at the caller's line, in the binding's style", function()
    local w = sat.world(8)
    local s = w:add(sat.circle(0, 0, 1))
    local calls = {
      function() w:add(5) end,
      function() w:add(sat.vec(1, 2)) end,
      function() w:add(s) end,
      function() w:add(sat.circle(0, 0, 1), "solid") end,
      function() w:remove(sat.circle(0, 0, 1)) end,
      function() w:move(s, 0 / 0, 0) end,
      function() w:move(s, 0, 1 / 0) end,
      function() w:move(s, 1e300, 0) end,
      function() w:move(s, 1, 1, 5) end,
      function() sat.world(0) end,
      function() sat.world("x") end,
      function() w:queryRect(0, 0, -1, 1) end,
      function() w:queryPoint({}, 0) end,
      function() w:querySegment(0, 0, 1, "y") end,
      function() w:queryShape(io.stdout) end,
      function() w:neighbors(nil) end,
      function() w:collisions(s, 5) end,
      function() w:shapes(5) end,
      function() w:on("bogus") end,
      function() w:on("enter", 5) end,
      function() w:setFilter({}) end,
      function() w:cells("x") end,
      function() w:cells(-1) end,
      function() w:cells(0, 5) end,
      function() w:levels(5) end,
    }
    for i, f in ipairs(calls) do
      local msg = err(f)
      assert.is_truthy(msg:find(STYLE), i .. ": " .. msg)
    end
  end)

  it("use the binding's words: vec, the shape's kind, nan, another library's type", function()
    local w = sat.world(8)
    local s = w:add(sat.circle(0, 0, 1))
    has(err(function() w:add(sat.vec(1, 2)) end), "(shape expected, got vec)")
    has(err(function() w:move(s, 0 / 0, 0) end), "(finite number expected, got nan)")
    has(err(function() w:move(s, 0, -1 / 0) end), "(finite number expected, got -inf)")
    local cfile = err(function() return sat.test(s, io.stdout) end):match("got ([^)]*)%)")
    has(err(function() w:queryShape(io.stdout) end), "(shape expected, got " .. cfile .. ")")
    has(err(function() w:move(s, s, 0) end), "(number expected, got circle)")
    has(err(function() w:queryPoint(sat.collide(s, s), 0) end), "(number expected, got response)")
    -- the same words as the C functions say them
    local cmsg = err(function() s:move(0 / 0, 0) end):match("%((.*)%)")
    has(err(function() w:move(s, 0 / 0, 0) end), "(" .. cmsg .. ")")
  end)

  it("take numeric strings where C takes them", function()
    local w = sat.world("8")
    assert.are.equal(8, w:cellSize())
    local s = w:add(sat.circle(0, 0, 1))
    assert.are.same({ 2, 0 }, { (w:move(s, "2", "0")) , 0 })
    assert.are.same({ s }, w:queryPoint("2", "0.5"))
    assert.are.same({ s }, w:queryRect("0", 0, "4", "1"))
    assert.are.equal(1, #w:querySegment("-5", 0, "5", "0"))
    s:move("1", "0") -- as the C method does
    assert.are.same({ 3, 0 }, { s:position() })
  end)
end)

-- Found by the re-entrancy fuzzer (spec/fuzz/world_reentrancy.lua).
describe("a step after one the setFilter function ended with an error", function()
  it("reads none of the records the failed step left behind", function()
    local world, box, take = logged()
    local a = box("a", 0, 0)
    box("b", 5, 0)
    local c = box("c", 100, 0)
    box("d", 105, 0)
    local calls = 0
    world:setFilter(function()
      calls = calls + 1
      if calls == 1 then error("filter fails") end
      return true
    end)
    -- the step reads two new pairs, (a, b) and (c, d), and fails on the first
    has(err(world.step, world), "filter fails")
    assert.are.same({}, take())
    world:setFilter(nil)
    assert.are.equal(2, world:step()) -- rebuilt from the hash
    assert.are.same({ "enter a b", "enter c d" }, take())
    -- one new pair in the next step (where the failed step left its second record)
    box("e", -8, 0)
    assert.are.equal(3, world:step())
    assert.are.same({ "stay a b", "enter a e", "stay c d" }, take())
    world:step()
    assert.are.same({ "stay a b", "stay a e", "stay c d" }, take())
    c:moveTo(300, 300)
    world:step()
    assert.are.same({ "exit c d", "stay a b", "stay a e" }, take())
    assert.is_truthy(a)
  end)
end)
