-- world:step callbacks: order, responses seen from each shape, handlers that add, remove
-- and move shapes (the pair's own included), errors inside handlers, filters, determinism.
local sat = require("sat")
if require("spec.support").skip(pending, "world") then return end

-- A world that logs every callback as a line: world handlers and the shapes' own.
local function logged(cell)
  local world = sat.world(cell or 32)
  local log = {}
  local function name(s)
    return s.name or tostring(s)
  end
  world:on("enter", function(a, b, r)
    log[#log + 1] = ("enter %s %s %.6g"):format(name(a), name(b), r.overlap)
  end)
  world:on("stay", function(a, b, r)
    log[#log + 1] = ("stay %s %s %.6g"):format(name(a), name(b), r.overlap)
  end)
  world:on("exit", function(a, b)
    log[#log + 1] = ("exit %s %s"):format(name(a), name(b))
  end)
  local function shapeHandlers(s)
    function s:onEnter(other) log[#log + 1] = ("%s:onEnter %s"):format(self.name, name(other)) end
    function s:onStay(other) log[#log + 1] = ("%s:onStay %s"):format(self.name, name(other)) end
    function s:onExit(other) log[#log + 1] = ("%s:onExit %s"):format(self.name, name(other)) end
  end
  local function box(nm, x, y, w, h, handlers)
    local s = sat.box(x, y, w or 10, h or 10)
    s.name = nm
    if handlers then shapeHandlers(s) end
    return world:add(s)
  end
  local function take()
    local l = log
    log = {}
    return l
  end
  local function note(line)
    log[#log + 1] = line
  end
  return world, box, take, note
end

describe("world:step callbacks", function()
  it("fires world then a's then b's handlers; exits first; pairs in insertion order", function()
    local world, box, take = logged()
    local a = box("a", 0, 0, 10, 10, true)
    local b = box("b", 8, 0, 10, 10, true)
    local c = box("c", 16, 0, 10, 10, true)
    assert.are.equal(2, world:step())
    assert.are.same({
      "enter a b 2", "a:onEnter b", "b:onEnter a",
      "enter b c 2", "b:onEnter c", "c:onEnter b",
    }, take())
    c:move(1, 0)
    assert.are.equal(2, world:step())
    assert.are.same({
      "stay a b 2", "a:onStay b", "b:onStay a",
      "stay b c 1", "b:onStay c", "c:onStay b",
    }, take())
    a:move(-5, 0)  -- a (-5..5) leaves b (8..18)
    c:moveTo(4, 5) -- c (-1..9) now overlaps a by 6 and b by 1
    world:step()
    assert.are.same({
      "exit a b", "a:onExit b", "b:onExit a",
      "enter a c 6", "a:onEnter c", "c:onEnter a",
      "stay b c 1", "b:onStay c", "c:onStay b",
    }, take())
    a:moveTo(100, 100)
    b:moveTo(200, 100)
    world:step()
    assert.are.same({
      "exit a c", "a:onExit c", "c:onExit a",
      "exit b c", "b:onExit c", "c:onExit b",
    }, take())
    assert.are.equal(0, world:step())
    assert.are.same({}, take())
  end)

  it("gives each shape's handler the response seen from that shape", function()
    local world = sat.world(16)
    local big = world:add(sat.circle(0, 0, 20))
    local small = world:add(sat.circle(5, 0, 2))
    local seen = {}
    world:on("enter", function(a, b, r)
      seen.world = { a = a, b = b, nx = r.normal.x, mx = r.mtv.x, aInB = r.aInB, bInA = r.bInA }
    end)
    function big:onEnter(other, r)
      seen.big = { a = r.a, b = r.b, other = other, nx = r.normal.x, mx = r.mtv.x,
                   aInB = r.aInB, bInA = r.bInA, overlap = r.overlap }
    end
    function small:onEnter(other, r)
      seen.small = { a = r.a, b = r.b, other = other, nx = r.normal.x, mx = r.mtv.x,
                     aInB = r.aInB, bInA = r.bInA, overlap = r.overlap }
    end
    world:step()
    local want = sat.collide(big, small)
    assert.are.equal(big, seen.world.a)
    assert.are.equal(want.normal.x, seen.world.nx)
    assert.are.equal(big, seen.big.a)
    assert.are.equal(small, seen.big.b)
    assert.are.equal(small, seen.big.other)
    assert.are.equal(want.normal.x, seen.big.nx)
    assert.is_false(seen.big.aInB)
    assert.is_true(seen.big.bInA)
    -- from the small circle: itself as a, the normal toward the big one, flags swapped
    assert.are.equal(small, seen.small.a)
    assert.are.equal(big, seen.small.b)
    assert.are.equal(big, seen.small.other)
    assert.are.equal(-want.normal.x, seen.small.nx)
    assert.are.equal(-want.mtv.x, seen.small.mx)
    assert.is_true(seen.small.aInB)
    assert.is_false(seen.small.bInA)
    assert.are.equal(want.overlap, seen.small.overlap)
    local back = sat.collide(small, big)
    assert.are.equal(back.normal.x, seen.small.nx)
    assert.are.equal(back.mtv.x, seen.small.mx)
  end)

  it("reuses a pair's response and refreshes it every step", function()
    local world = sat.world(16)
    local a = world:add(sat.box(0, 0, 10, 10))
    local b = world:add(sat.box(9, 0, 10, 10))
    local got = {}
    world:on("enter", function(_, _, r) got[#got + 1] = r end)
    world:on("stay", function(_, _, r) got[#got + 1] = r; got[#got + 1] = r.overlap end)
    world:step()
    b:move(-3, 0)
    world:step()
    assert.are.equal(got[1], got[2])
    assert.are.equal(4, got[3])
    assert.are.equal(4, got[1].overlap)
    assert.are.equal(a, got[1].a)
    assert.are.equal("response(overlap 4, normal vec(1, 0), mtv vec(-4, 0), aInB false, bInA false)",
      tostring(got[1]))
  end)

  it("fires exits when a shape is removed, then nothing more for it", function()
    local world, box, take = logged()
    local a = box("a", 0, 0, 10, 10, true)
    box("b", 5, 0, 10, 10, true)
    box("c", 0, 5, 10, 10, true)
    world:step()
    take()
    world:remove(a)
    assert.are.same({
      "exit a b", "a:onExit b", "b:onExit a",
      "exit a c", "a:onExit c", "c:onExit a",
    }, take())
    world:step()
    assert.are.same({ "stay b c 5", "b:onStay c", "c:onStay b" }, take())
    assert.is_false(world:has(a))
    -- added again: a new membership, now after b and c, and new enters
    world:add(a)
    world:step()
    assert.are.same({
      "stay b c 5", "b:onStay c", "c:onStay b",
      "enter b a 5", "b:onEnter a", "a:onEnter b",
      "enter c a 5", "c:onEnter a", "a:onEnter c",
    }, take())
  end)

  it("lets an enter handler remove the other shape of its pair", function()
    local world, box, take = logged()
    local a = box("a", 0, 0, 10, 10, true)
    local b = box("b", 5, 0, 10, 10, true)
    box("c", 8, 0, 10, 10, true)
    world:on("enter", function(x, y)
      if x == a and y == b then world:remove(b) end
    end)
    world:step()
    -- (a,b) enter -> b removed: its exits at once, b's own onEnter never runs; (a,c) and
    -- (b,c) follow in pair order, (b,c) skipped since b left
    assert.are.same({ "exit a b", "a:onExit b", "b:onExit a", "a:onEnter c", "c:onEnter a" },
      take())
    world:step()
    assert.are.same({ "stay a c 2", "a:onStay c", "c:onStay a" }, take())
  end)

  it("lets a shape's own handler remove itself, ending its pairs", function()
    local world, box, take = logged()
    local a = box("a", 0, 0, 10, 10, true)
    box("b", 5, 0, 10, 10, true)
    box("c", 0, 5, 10, 10, true)
    function a:onEnter(other)
      world:remove(self)
      assert.is_false(world:has(self))
      assert.are.equal("b", other.name)
    end
    world:step()
    -- a left while entering (a, b): the exit of (a, b) at once, b's onEnter skipped; (a, c)
    -- never began, so it gets no event at all
    assert.are.same({
      "enter a b 5", "exit a b", "a:onExit b", "b:onExit a",
      "enter b c 5", "b:onEnter c", "c:onEnter b",
    }, take())
  end)

  it("lets stay and exit handlers remove, add and move shapes", function()
    local world, box, take = logged()
    local a = box("a", 0, 0, 10, 10, true)
    local b = box("b", 5, 0, 10, 10, true)
    world:step()
    take()
    local added
    world:on("stay", function(x, y)
      world:remove(x)
      world:remove(y)
      added = box("d", 0, 0, 10, 10, true)
      box("e", 5, 5, 10, 10, false)
    end)
    world:step()
    assert.are.same({ "exit a b", "a:onExit b", "b:onExit a" }, take())
    assert.are.same({ added }, world:queryPoint(1, 1))
    world:on("stay", nil)
    world:on("exit", function(x)
      x:moveTo(1000, 1000)                    -- moves the one leaving
      world:add(a)                             -- and brings a back at the origin
    end)
    world:step()
    assert.are.same({ "enter d e 5", "d:onEnter e" }, take())
    added:moveTo(300, 0)
    world:step() -- (d, e) exits; its handler moves d away and adds a, which meets e
    assert.are.same({ "d:onExit e" }, take())
    world:step()
    assert.are.same({ "enter e a 5", "a:onEnter e" }, take())
    assert.is_false(world:has(b))
  end)

  it("lets handlers move the pair's shapes: the step's events stand, the next step sees it",
    function()
      local world, box, take = logged()
      box("a", 0, 0, 10, 10, true)
      local b = box("b", 5, 0, 10, 10, true)
      world:on("enter", function(_, y)
        y:move(100, 0)
      end)
      world:step()
      assert.are.same({ "a:onEnter b", "b:onEnter a" }, take())
      world:step()
      assert.are.same({ "exit a b", "a:onExit b", "b:onExit a" }, take())
      assert.are.same({ b }, world:queryPoint(110, 5))
    end)

  it("skips the pending events of a shape removed and added again during the step", function()
    local world, box, take, note = logged()
    local a = box("a", 0, 0, 10, 10, false)
    local b = box("b", 5, 0, 10, 10, false)
    box("c", 8, 0, 10, 10, false)
    local once = true
    world:on("enter", function(x, y)
      note("enter " .. x.name .. y.name)
      if x == a and y == b and once then
        once = false
        world:remove(b)
        world:add(b)
      end
    end)
    world:step()
    -- (b, c) belonged to b's old membership: skipped
    assert.are.same({ "enter ab", "exit a b", "enter ac" }, take())
    world:step()
    -- b is now last: (a, c) stays, (a, b) and (c, b) enter, in insertion order
    assert.are.same({ "stay a c 2", "enter ab", "enter cb" }, take())
  end)

  it("refuses a step from inside a handler", function()
    local world = sat.world(16)
    world:add(sat.box(0, 0, 10, 10))
    world:add(sat.box(5, 0, 10, 10))
    local msg
    world:on("enter", function()
      local ok, e = pcall(world.step, world)
      assert.is_false(ok)
      msg = e
    end)
    world:step()
    assert.truthy(msg:find("cannot step the world from inside its step", 1, true))
  end)

  it("propagates a handler's error and stays consistent for the next step", function()
    local world, box, take, note = logged()
    box("a", 0, 0, 10, 10, true)
    local b = box("b", 5, 0, 10, 10, true)
    box("c", 8, 0, 10, 10, true)
    local fail = true
    function b:onEnter(other)
      if fail and other.name == "a" then error("boom in b") end
      note("b:onEnter " .. other.name)
    end
    local ok, e = pcall(world.step, world)
    assert.is_false(ok)
    assert.truthy(tostring(e):find("boom in b", 1, true))
    -- (a, b) was entered (its enter ran up to the error); (a, c), (b, c) never began
    assert.are.same({ "enter a b 5", "a:onEnter b" }, take())
    fail = false
    world:step()
    assert.are.same({
      "stay a b 5", "a:onStay b", "b:onStay a",
      "enter a c 2", "a:onEnter c", "c:onEnter a",
      "enter b c 7", "b:onEnter c", "c:onEnter b",
    }, take())
    world:step()
    assert.are.equal(9, #take())
  end)

  it("keeps unexited pairs after an error in an exit handler, and exits them later", function()
    local world, box, take = logged()
    local a = box("a", 0, 0, 10, 10, false)
    local b = box("b", 5, 0, 10, 10, false)
    local c = box("c", 0, 5, 10, 10, false)
    world:step()
    assert.are.equal(3, #take())
    a:moveTo(500, 500)
    world:on("exit", function(x, y)
      error("exit failed for " .. x.name .. y.name)
    end)
    local ok, e = pcall(world.step, world)
    assert.is_false(ok)
    assert.truthy(tostring(e):find("exit failed for ab", 1, true))
    -- (a, b) was told; (a, c) is still in contact, so it exits next step
    ok, e = pcall(world.step, world)
    assert.is_false(ok)
    assert.truthy(tostring(e):find("exit failed for ac", 1, true))
    world:on("exit", nil)
    world:step()
    assert.are.same({ "stay b c 5" }, take())
    assert.are.same({ a, b, c }, world:shapes())
  end)

  it("filters by category and mask, and by the world filter", function()
    local world, box, take = logged()
    local a = box("a", 0, 0, 10, 10)
    local b = box("b", 5, 0, 10, 10)
    local c = box("c", 0, 5, 10, 10)
    a.category = 2
    b.mask = 1 -- does not accept a's category
    world:step()
    assert.are.same({ "enter a c 5", "enter b c 5" }, take())
    b.mask = 3
    world:setFilter(function(x, y)
      assert.is_true(world:has(x) and world:has(y))
      return not (x == a and y == c)
    end)
    world:step()
    assert.are.same({ "exit a c", "enter a b 5", "stay b c 5" }, take())
    c.category = 0 -- in no category: meets nothing
    world:step()
    assert.are.same({ "exit b c", "stay a b 5" }, take())
    world:setFilter(nil)
    c.category = 1
    world:step()
    assert.are.same({ "stay a b 5", "enter a c 5", "enter b c 5" }, take())
    assert.are.equal(2, #world:collisions(c))
    world:setFilter(function() return false end)
    assert.are.equal(0, #world:collisions(c))
  end)

  it("checks its arguments", function()
    local world = sat.world()
    local ok, e = pcall(world.on, world, "begin", print)
    assert.is_false(ok)
    assert.truthy(e:find("bad argument #1 to 'on' (event must be", 1, true))
    ok, e = pcall(world.on, world, "enter", 3)
    assert.is_false(ok)
    assert.truthy(e:find("bad argument #2 to 'on' (function expected, got number)", 1, true))
    ok, e = pcall(world.setFilter, world, "x")
    assert.is_false(ok)
    assert.truthy(e:find("bad argument #1 to 'setFilter' (function expected, got string)", 1,
      true))
  end)

  it("is deterministic: the same script twice gives byte-identical logs", function()
    local function script()
      local seed = 99
      local function rnd(a, b)
        seed = (seed * 16807) % 2147483647
        return a + (b - a) * seed / 2147483647
      end
      local world = sat.world(24)
      local out = {}
      local shapes = {}
      local function label(s) return s.name end
      world:on("enter", function(a, b, r)
        out[#out + 1] = ("E %s %s %.17g %.17g %.17g"):format(label(a), label(b), r.overlap,
          r.normal.x, r.normal.y)
        if rnd(0, 1) < 0.05 and world:has(b) then world:remove(b) end
      end)
      world:on("stay", function(a, b, r)
        out[#out + 1] = ("S %s %s %.17g"):format(label(a), label(b), r.overlap)
      end)
      world:on("exit", function(a, b)
        out[#out + 1] = ("X %s %s"):format(label(a), label(b))
      end)
      for i = 1, 150 do
        local s
        if i % 3 == 0 then
          s = sat.circle(rnd(0, 400), rnd(0, 400), rnd(3, 30))
        else
          s = sat.box(rnd(0, 400), rnd(0, 400), rnd(3, 60), rnd(3, 60))
        end
        s.name = "s" .. i
        function s:onEnter(other) out[#out + 1] = self.name .. ">" .. other.name end
        shapes[i] = s
        world:add(s)
      end
      for _ = 1, 60 do
        for _, s in ipairs(shapes) do
          if world:has(s) then
            s:move(rnd(-6, 6), rnd(-6, 6))
            if rnd(0, 1) < 0.1 then s:rotate(rnd(-1, 1)) end
          elseif rnd(0, 1) < 0.2 then
            world:add(s)
          end
        end
        out[#out + 1] = "step " .. world:step()
        local hits = world:querySegment(0, 0, 400, 400)
        for _, h in ipairs(hits) do out[#out + 1] = ("Q %s %.17g"):format(h.shape.name, h.t) end
      end
      return table.concat(out, "\n")
    end
    local first = script()
    local second = script()
    assert.is_true(#first > 10000)
    assert.is_truthy(first:find("\nE ", 1, true) and first:find("\nX ", 1, true))
    assert.are.equal(first, second)
  end)
end)
