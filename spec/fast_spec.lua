-- sat.fast: under LuaJIT with the JIT on, sat.test and shape:collidesWith call the core
-- through the FFI. They must answer exactly as the C functions do, fail exactly as they do,
-- and compile. Elsewhere nothing is replaced.
local sat = require("sat")
local support = require("spec.support")
if support.skip(pending, "native") then return end
local core = require("sat.core")
local err, has = support.err, support.has

local jit = rawget(_G, "jit")
local accelerated = type(jit) == "table" and jit.status() and true or false

-- Seeded shapes of every kind, crowded into a small field so that about half the pairs
-- overlap, some touch exactly and some contain one another.
local function random_shapes(n, seed)
  local state = seed
  local function rnd() -- Park-Miller: the same numbers on every Lua
    state = state * 16807 % 2147483647
    return state / 2147483647
  end
  local shapes = {}
  for i = 1, n do
    local x, y, r = rnd() * 30, rnd() * 30, 2 + rnd() * 10
    local k = i % 5
    local s
    if k == 0 then
      s = sat.circle(x, y, r)
    elseif k == 1 then
      s = sat.point(x, y)
    elseif k == 2 then
      s = sat.box(x, y, r, 1 + rnd() * 8)
    else
      s = sat.polygon(support.ngon(3 + i % 10, x, y, r, i % 2 == 0))
      s:setRotation(rnd() * 6.3)
    end
    shapes[i] = s
  end
  -- segments and capsules among them (a capsule of radius 0 and one with equal ends too)
  for i = 1, math.floor(n / 4) do
    local x, y, dx, dy = rnd() * 30, rnd() * 30, rnd() * 16 - 8, rnd() * 16 - 8
    if i % 2 == 0 then
      shapes[#shapes + 1] = sat.segment(x, y, x + dx, y + dy)
    else
      local r = i % 7 == 1 and 0 or 1 + rnd() * 5
      if i % 7 == 3 then dx, dy = 0, 0 end
      shapes[#shapes + 1] = sat.capsule(x, y, x + dx, y + dy, r)
    end
  end
  -- exact touching: a unit box beside another, and a circle resting on a box's top
  shapes[#shapes + 1] = sat.box(100, 100, 1, 1)
  shapes[#shapes + 1] = sat.box(101, 100, 1, 1)
  shapes[#shapes + 1] = sat.circle(100.5, 99, 1)
  return shapes
end

describe("sat.fast", function()
  it("replaces sat.test and collidesWith exactly when LuaJIT's JIT is on", function()
    local p = sat.box(0, 0, 1, 1)
    local methods = { "collidesWith", "move", "moveTo", "position" }
    for _, name in ipairs(methods) do
      assert.are.equal("function", type(core._ffi[name]), name) -- the polygon's C method
    end
    if accelerated then
      assert.are_not.equal(core.test, sat.test)
      for _, name in ipairs(methods) do
        assert.are_not.equal(core._ffi[name], p[name], name)
        assert.are.equal(p[name], sat.circle(0, 0, 1)[name], name)
      end
    else
      assert.are.equal(core.test, sat.test)
      for _, name in ipairs(methods) do
        assert.are.equal(core._ffi[name], p[name], name)
      end
      assert.is_nil(require("sat.fast").install())
    end
  end)

  it("answers as the C functions do, for every pair of kinds in both orders", function()
    local shapes = random_shapes(60, 12345)
    local c_collides = core._ffi.collidesWith
    local hits, pairs_tested = 0, 0
    for i = 1, #shapes do
      for j = 1, #shapes do
        local a, b = shapes[i], shapes[j]
        local t = sat.test(a, b)
        assert.are.equal(core.test(a, b), t)
        local hit, mx, my = a:collidesWith(b)
        local chit, cmx, cmy = c_collides(a, b)
        assert.are.equal(chit, hit)
        assert.are.equal(cmx, mx) -- bit for bit: the same C function computed both
        assert.are.equal(cmy, my)
        assert.are.equal(t, hit)
        if hit then
          local r = sat.collide(a, b)
          assert.are.equal(r.mtv.x, mx)
          assert.are.equal(r.mtv.y, my)
          hits = hits + 1
        end
        pairs_tested = pairs_tested + 1
      end
    end
    assert.are.equal(78 * 78, pairs_tested) -- 60, 15 segments and capsules, 3 touching
    -- a real mix: neither (nearly) all hits nor (nearly) all misses
    assert.is_true(hits > pairs_tested / 5 and hits < pairs_tested * 4 / 5, tostring(hits))
  end)

  it("sat.collide fills responses exactly as the C sat.collide does", function()
    local shapes = random_shapes(30, 4242)
    local mine, theirs = {}, setmetatable({}, { __index = function() return "mine" end })
    local normal, mtv
    for i = 1, #shapes do
      for j = 1, #shapes do
        local a, b = shapes[i], shapes[j]
        local r, c = sat.collide(a, b), core.collide(a, b)
        assert.are.equal(c == nil, r == nil)
        if c then
          for _, k in ipairs({ "a", "b", "overlap", "aInB", "bInA" }) do
            assert.are.equal(c[k], r[k], k)
          end
          assert.are.equal(c.normal, r.normal) -- vec __eq: both components
          assert.are.equal(c.mtv, r.mtv)
          assert.are.equal(getmetatable(c), getmetatable(r))
          assert.are.equal(tostring(c), tostring(r))
          -- reused: the same table and the same two vecs, written in place
          assert.are.equal(mine, sat.collide(a, b, mine))
          normal, mtv = normal or mine.normal, mtv or mine.mtv
          assert.are.equal(normal, rawget(mine, "normal"))
          assert.is_true(rawequal(normal, mine.normal) and rawequal(mtv, mine.mtv))
          assert.are.equal(c.overlap, mine.overlap)
          assert.are.equal(c.mtv, mine.mtv)
          assert.are.equal(getmetatable(c), getmetatable(mine))
          -- a table with its own metatable keeps it, and gets raw sets
          assert.are.equal(theirs, sat.collide(a, b, theirs))
          assert.are.equal("mine", theirs.nothing)
          assert.are.equal(c.bInA, rawget(theirs, "bInA"))
        else
          local before = mine.overlap
          assert.is_nil(sat.collide(a, b, mine))
          assert.are.equal(before, mine.overlap)
        end
      end
    end
    assert.is_not_nil(normal) -- some pairs did collide
  end)

  it("counts touching shapes as colliding with a zero move", function()
    local a, b = sat.box(100, 100, 1, 1), sat.box(101, 100, 1, 1)
    assert.is_true(sat.test(a, b))
    local hit, mx, my = a:collidesWith(b)
    assert.is_true(hit)
    assert.are.equal(0, mx)
    assert.are.equal(0, my)
  end)

  it("fails as the C functions do, naming the function and the argument", function()
    local s, v = sat.circle(0, 0, 1), sat.vec(1, 2)
    has(err(function() local r = sat.test(1, s) return r end),
      "bad argument #1 to 'test' (shape expected, got number)")
    has(err(function() local r = sat.test(s, v) return r end),
      "bad argument #2 to 'test' (shape expected, got vec)")
    has(err(function() local r = s:collidesWith("x") return r end),
      "bad argument #1 to 'collidesWith' (shape expected, got string)")
    has(err(function() local r = s:collidesWith() return r end),
      "bad argument #1 to 'collidesWith' (shape expected, got no value)")
    has(err(function() local r = sat.collide(s) return r end),
      "bad argument #2 to 'collide' (shape expected, got no value)")
    has(err(function() local r = sat.collide(s, s, 5) return r end),
      "bad argument #3 to 'collide' (table expected, got number)")
    -- a table given a shape's metatable (protected: taken with the debug library) is still
    -- not a shape
    local fake = setmetatable({}, debug.getmetatable(sat.box(0, 0, 1, 1)))
    has(err(function() local r = sat.test(s, fake) return r end), "bad argument #2 to 'test'")
    has(err(function() local r = s.collidesWith(fake, s) return r end),
      "bad self to 'collidesWith' (shape expected, got table)")
  end)

  it("takes shapes with fields, which have metatables of their own, the same way", function()
    local shapes = random_shapes(30, 4242)
    local tagged = {}
    for i, s in ipairs(shapes) do
      tagged[i] = s:clone()
      tagged[i].tag = i
    end
    local c_collides = core._ffi.collidesWith
    for i = 1, #shapes do
      for j = 1, #shapes do
        local a, b = tagged[i], (j % 2 == 0) and tagged[j] or shapes[j]
        assert.are.equal(core.test(a, b), sat.test(a, b))
        local h1, x1, y1 = c_collides(a, b)
        local h2, x2, y2 = a:collidesWith(b)
        assert.are.same({ h1, x1, y1 }, { h2, x2, y2 })
      end
    end
    -- a userdata dressed in a copy of a shape's own metatable is not a shape
    local proxy = rawget(_G, "newproxy")
    if proxy then
      local fake = proxy(true)
      local mt = getmetatable(fake)
      for k, v in pairs(debug.getmetatable(tagged[1])) do
        mt[k] = v
      end
      has(err(function() local r = sat.test(fake, tagged[2]) return r end),
        "bad argument #1 to 'test' (shape expected")
      has(err(function() local r = tagged[2]:collidesWith(fake) return r end),
        "bad argument #1 to 'collidesWith' (shape expected") -- the method's first
    end
  end)

  it("moves shapes and reads their positions exactly as the C methods do", function()
    local shapes = random_shapes(30, 99)
    local c_move, c_moveTo, c_position = core._ffi.move, core._ffi.moveTo, core._ffi.position
    local state = 7
    local function rnd()
      state = state * 16807 % 2147483647
      return state / 2147483647
    end
    for i, s in ipairs(shapes) do
      local twin = s:clone()
      if i % 2 == 0 then s.tag = i end -- half of them with fields
      -- far from the origin, where the position keeps a low-order part
      local x0, y0 = 1e7 + rnd(), -3e6 - rnd()
      assert.are.equal(s, s:moveTo(x0, y0))
      assert.are.equal(twin, c_moveTo(twin, x0, y0))
      for _ = 1, 50 do
        local dx, dy = (rnd() - 0.5) * 1e-3, (rnd() - 0.5) * 7
        assert.are.equal(s, s:move(dx, dy))
        assert.are.equal(twin, c_move(twin, dx, dy))
        local x1, y1 = c_position(s)
        local x2, y2 = s:position()
        assert.are.equal(x1, x2)
        assert.are.equal(y1, y2)
        local x3, y3 = c_position(twin)
        assert.are.equal(x1, x3)
        assert.are.equal(y1, y3)
      end
      assert.are.equal(core.test(s, twin), sat.test(s, twin))
    end
    -- a world sees shapes moved this way
    local world = sat.world(16)
    local a = world:add(sat.box(0, 0, 4, 4))
    a:move(100, 0)
    local found = world:queryPoint(102, 2)
    assert.are.equal(1, #found)
    assert.are.equal(a, found[1])
    a:moveTo(-50, -50)
    assert.are.equal(0, #world:queryPoint(102, 2))
    assert.are.equal(a, world:queryPoint(-50, -50)[1])
  end)

  it("fails to move as the C methods do, and leaves the shape where it was", function()
    local s = sat.circle(3, 4, 1)
    local function unmoved()
      local x, y = s:position()
      assert.are.equal(3, x)
      assert.are.equal(4, y)
    end
    has(err(function() s:move(0 / 0, 1) end), "bad argument #1 to 'move' (finite number expected, got nan)")
    unmoved()
    has(err(function() s:move(1, math.huge) end), "bad argument #2 to 'move' (finite number expected, got inf)")
    unmoved()
    has(err(function() s:move(1e300, 0) end), "bad argument #1 to 'move'")
    unmoved()
    has(err(function() s:move(1) end), "bad argument #2 to 'move' (number expected, got no value)")
    unmoved()
    has(err(function() s:moveTo("x", 0) end), "bad argument #1 to 'moveTo' (number expected, got string)")
    unmoved()
    has(err(function() s:moveTo(0, -1e300) end), "bad argument #2 to 'moveTo'")
    unmoved()
    has(err(function() s.move(5, 1, 1) end), "shape expected, got number")
    has(err(function() s.position({}) end), "shape expected, got table")
    has(err(function() s.position() end), "shape expected, got no value")
    -- what the C methods take, they still take: numeric strings
    s:move("1", "-1")
    local x, y = s:position()
    assert.are.equal(4, x)
    assert.are.equal(3, y)
  end)

  it("allocates nothing in the hot calls, compiled or interpreted", function()
    local a, b = sat.circle(0, 0, 10), sat.polygon({ 0, 0, 10, 0, 0, 10 })
    a.tag = "with fields"
    local response = sat.collide(a, b)
    local function calls(n)
      for _ = 1, n do
        sat.test(a, b)
        a:collidesWith(b)
        sat.collide(a, b, response)
        a:move(0.5, 0)
        a:moveTo(0, 0)
        a:position()
      end
    end
    local modes = { "as it is" }
    if jit and require("spec.support").compilerOn() then modes[2] = "off" end
    local function measure()
      calls(20000) -- warm up (LuaJIT compiles the loop: traces are collectable objects)
      collectgarbage()
      collectgarbage("stop")
      local before = collectgarbage("count")
      calls(20000)
      local grown = collectgarbage("count") - before
      collectgarbage("restart")
      return grown
    end
    for _, mode in ipairs(modes) do
      -- (off: flushed, since the traces compiled so far would still run)
      local grown = mode == "off" and require("spec.support").interpreted(measure) or measure()
      -- a cdata per call (a cast, a struct field read) would be 16 bytes at least: over 300 kb here
      assert.is_true(grown < 16, mode .. ": " .. grown .. " kb")
    end
  end)

  it("keeps fields, category, mask and methods working", function()
    local p = sat.box(0, 0, 2, 2)
    p.tag = "wall"
    p.category = 4
    assert.are.equal("wall", p.tag)
    assert.are.equal(4, p.category)
    assert.are.equal(0xFFFFFFFF, p.mask)
    assert.is_nil(p.nothing)
    assert.are.equal(4, p:area())
    assert.are.equal("polygon", p:kind())
    local c = sat.circle(0, 0, 3)
    assert.are.equal(3, c:radius())
    assert.is_nil(p.radius) -- polygons have no radius method
    has(err(function() p.collidesWith = 1 end), "'collidesWith' is a method")
  end)

  if accelerated then
    it("compiles: a hot loop of the fast calls and methods is one looping trace", function()
      -- A lua_CFunction would end the trace there and stitch a new one after it (linktype
      -- "stitch"); FFI calls stay inside the loop's trace.
      local shapes = random_shapes(40, 777)
      for i = 1, #shapes, 2 do -- a shape with fields has its own metatable
        shapes[i].tag = i
      end
      local util, vmdef = require("jit.util"), require("jit.vmdef")
      local LOOP = [[
        local sat, shapes, response = ...
        return function()
          local n, hits = #shapes, 0
          for i = 1, 2000 do
            local a, b = shapes[i % n + 1], shapes[(i * 7) % n + 1]
            if sat.test(a, b) then hits = hits + 1 end
            local hit = a:collidesWith(b)
            if hit then hits = hits + 1 end
            if sat.collide(a, b, response) then hits = hits + response.overlap end
            a:move(0.25, -0.25)
            local x = a:position()
            a:moveTo(x - 0.25, 0)
          end
          return hits
        end
      ]]
      -- LuaJIT's hot counters are shared by bytecode addresses that hash alike, so now and
      -- then the loop's counter never fires between the functions' traces: up to 5 runs, each
      -- with an empty trace cache and the loop loaded anew (at a new address); none may stitch.
      local links, seen = {}, {}
      local function on_trace(what, tr, _, _, otr)
        if what == "stop" then
          local kind = util.traceinfo(tr).linktype
          links[kind] = true
          seen[#seen + 1] = kind
        elseif what == "abort" then
          seen[#seen + 1] = "abort: " .. tostring(vmdef.traceerr[otr] or otr)
        end
      end
      for _ = 1, 5 do
        local loop = assert((loadstring or load)(LOOP, "=fast_spec loop"))(sat, shapes, {})
        jit.flush()
        jit.attach(on_trace, "trace")
        local ok, e = pcall(loop)
        jit.attach(on_trace)
        assert.is_true(ok, e)
        if links.loop then
          break
        end
      end
      local log = table.concat(seen, ", ")
      assert.is_true(links.loop, "no looping trace: " .. log)
      assert.is_nil(links.stitch, "a trace was stitched around a C call: " .. log)
      for _, what in ipairs(seen) do
        assert.is_nil(what:find("NYI"), log)
      end
    end)
  end
end)
