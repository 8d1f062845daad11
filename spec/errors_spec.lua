-- Every error path of the binding: bad numbers, bad types, refused geometry. Each error names
-- the function and the argument, and leaves nothing half-built or half-changed.
local sat = require("sat")

local support = require("spec.support")
local err, has = support.err, support.has

local nan, inf = 0 / 0, math.huge

describe("constructors", function()
  it("sat.circle checks each number and the radius", function()
    has(err(function() local s = sat.circle(0, 0, -1) return s end),
      "bad argument #3 to 'circle' (radius must be >= 0)")
    has(err(function() local s = sat.circle(nan, 0, 1) return s end),
      "bad argument #1 to 'circle' (finite number expected, got nan)")
    has(err(function() local s = sat.circle(0, inf, 1) return s end),
      "bad argument #2 to 'circle' (finite number expected, got inf)")
    has(err(function() local s = sat.circle(0, 0, inf) return s end),
      "bad argument #3 to 'circle' (finite number expected, got inf)")
    has(err(function() local s = sat.circle(0, 0) return s end),
      "bad argument #3 to 'circle' (number expected, got no value)")
    has(err(function() local s = sat.circle(0, {}, 1) return s end),
      "bad argument #2 to 'circle' (number expected, got table)")
    has(err(function() local s = sat.circle(sat.vec(0, 0), 1) return s end),
      "bad argument #1 to 'circle' (number expected, got vec)")
  end)

  it("refuse numbers beyond the core's range (1e150), naming the argument", function()
    -- the text after the argument is the core's (sat_status_message), e.g. "out of range
    -- (coordinates and sizes up to 1e150, ...)"
    local function range(msg, prefix)
      has(msg, prefix .. " (")
      has(msg, "out of range")
      has(msg, "1e150")
    end
    range(err(function() local s = sat.circle(0, 2e150, 1) return s end),
      "bad argument #2 to 'circle'")
    range(err(function() local s = sat.circle(0, 0, 1e151) return s end),
      "bad argument #3 to 'circle'")
    range(err(function() local s = sat.point(-1e200, 0) return s end),
      "bad argument #1 to 'point'")
    range(err(function() local s = sat.box(0, 0, 1e151, 1) return s end),
      "bad argument #3 to 'box'")
    range(err(function() local s = sat.polygon(0, 0, 1, 0, 0, -1e200) return s end),
      "bad argument #6 to 'polygon'")
    local msg = err(function() local s = sat.polygon({ 0, 0, 1e151, 0, 0, 1 }) return s end)
    range(msg, "bad argument #1 to 'polygon'")
    has(msg, " at index 3)")
    -- the limit itself is in range
    assert.are.equal(1e150, (sat.point(1e150, 0):position()))
  end)

  it("sat.point checks its coordinates", function()
    has(err(function() local s = sat.point(0, -inf) return s end),
      "bad argument #2 to 'point' (finite number expected, got -inf)")
    has(err(function() local s = sat.point() return s end),
      "bad argument #1 to 'point' (number expected, got no value)")
  end)

  it("sat.box checks its numbers and a positive size", function()
    has(err(function() local s = sat.box(0, 0, 0, 1) return s end),
      "bad argument #3 to 'box' (width must be > 0)")
    has(err(function() local s = sat.box(0, 0, 1, -2) return s end),
      "bad argument #4 to 'box' (height must be > 0)")
    has(err(function() local s = sat.box(0, nan, 1, 1) return s end),
      "bad argument #2 to 'box' (finite number expected, got nan)")
    has(err(function() local s = sat.box(0, 0, 1) return s end),
      "bad argument #4 to 'box' (number expected, got no value)")
  end)

  describe("sat.polygon", function()
    it("refuses too few points", function()
      has(err(function() local s = sat.polygon(0, 0, 1, 1) return s end),
        "bad argument #1 to 'polygon' (needs at least 3 distinct, non-collinear points)")
      has(err(function() local s = sat.polygon({ 0, 0, 1, 0 }) return s end),
        "bad argument #1 to 'polygon' (needs at least 3")
      has(err(function() local s = sat.polygon({}) return s end),
        "bad argument #1 to 'polygon' (table of numbers or vecs expected, got nil at index 1)")
      has(err(function() local s = sat.polygon() return s end),
        "bad argument #1 to 'polygon' (number or table expected, got no value)")
      -- three points, but two of them merge
      has(err(function() local s = sat.polygon(0, 0, 1, 0, 1, 0) return s end),
        "bad argument #1 to 'polygon' (needs at least 3")
    end)

    it("refuses collinear points (no area)", function()
      local msg = err(function() local s = sat.polygon(0, 0, 1, 1, 2, 2, 3, 3) return s end)
      has(msg, "bad argument #1 to 'polygon' (")
      assert.is_truthy(msg:find("needs at least 3", 1, true) or msg:find("no area", 1, true))
    end)

    it("refuses a non-convex outline, saying so", function()
      has(err(function() local s = sat.polygon(0, 0, 2, 0, 1, 0.5, 2, 2, 0, 2) return s end),
        "bad argument #1 to 'polygon' (points are not convex (sat.concave takes a concave outline))")
      -- a star's outline winds twice
      local star = {}
      for i = 0, 4 do
        local a = 2 * math.pi * (2 * i) / 5
        star[#star + 1] = math.cos(a)
        star[#star + 1] = math.sin(a)
      end
      has(err(function() local s = sat.polygon(star) return s end),
        "bad argument #1 to 'polygon' (points are not convex (sat.concave takes a concave outline))")
    end)

    it("names the bad number in the argument list", function()
      has(err(function() local s = sat.polygon(0, 0, 1, nan, 0, 1) return s end),
        "bad argument #4 to 'polygon' (finite number expected, got nan)")
      has(err(function() local s = sat.polygon(0, 0, 1, 0, 0, 1, 5) return s end),
        "bad argument #8 to 'polygon' (number expected, got no value)")
      has(err(function() local s = sat.polygon(0, 0, 1, 0, 0, "y") return s end),
        "bad argument #6 to 'polygon' (number expected, got string)")
    end)

    it("names the bad entry of a table", function()
      has(err(function() local s = sat.polygon({ 0, 0, 1, 0, 0, inf }) return s end),
        "bad argument #1 to 'polygon' (finite number expected at index 6, got inf)")
      has(err(function() local s = sat.polygon({ 0, 0, 1, 0, 0, 1, 2 }) return s end),
        "bad argument #1 to 'polygon' (odd number of coordinates (7))")
      has(err(function() local s = sat.polygon({ 0, 0, 1, 0, true, 1 }) return s end),
        "bad argument #1 to 'polygon' (number expected at index 5, got boolean)")
      local v = sat.vec
      has(err(function() local s = sat.polygon({ v(0, 0), v(1, 0), 3 }) return s end),
        "bad argument #1 to 'polygon' (vec expected at index 3, got number)")
      has(err(function() local s = sat.polygon({ "a" }) return s end),
        "bad argument #1 to 'polygon' (table of numbers or vecs expected, got string at index 1)")
    end)
  end)
end)

describe("methods", function()
  it("refuse non-finite numbers, leaving the shape unchanged", function()
    local s = sat.box(0, 0, 2, 2)
    local cases = {
      { "moveTo", function() s:moveTo(1, nan) end, "bad argument #2 to 'moveTo'" },
      { "moveTo", function() s:moveTo(inf, 1) end, "bad argument #1 to 'moveTo'" },
      { "move", function() s:move(nan, 0) end, "bad argument #1 to 'move'" },
      { "setRotation", function() s:setRotation(inf) end, "bad argument #1 to 'setRotation'" },
      { "rotate", function() s:rotate(nan) end, "bad argument #1 to 'rotate'" },
      { "scale", function() s:scale(inf) end, "bad argument #1 to 'scale'" },
      { "contains", function() s:contains(0, nan) end, "bad argument #2 to 'contains'" },
      { "raycast", function() s:raycast(0, 0, inf, 1) end, "bad argument #3 to 'raycast'" },
    }
    for _, c in ipairs(cases) do
      local msg = err(c[2])
      has(msg, c[3])
      has(msg, "(finite number expected, got ")
    end
    local x, y = s:position()
    assert.are.equal(1, x)
    assert.are.equal(1, y)
    assert.are.equal(0, s:rotation())
    assert.are.equal(4, s:area())
  end)

  it("refuse to leave the core's range (1e150), leaving the shape unchanged", function()
    local s = sat.circle(1e150, 0, 1)
    for _, c in ipairs({
      { function() s:move(1e150, 0) end, "bad argument #1 to 'move' (" },
      { function() s:moveTo(0, -2e150) end, "bad argument #2 to 'moveTo' (" },
      { function() s:setRadius(1e151) end, "bad argument #1 to 'setRadius' (" },
      { function() s:scale(1e151) end, "bad argument #1 to 'scale' (" },
    }) do
      local msg = err(c[1])
      has(msg, c[2])
      has(msg, "out of range")
    end
    assert.are.equal(1e150, (s:position()))
    assert.are.equal(1, s:radius())
  end)

  it("scale refuses factors <= 0", function()
    local s = sat.circle(0, 0, 2)
    has(err(function() s:scale(0) end), "bad argument #1 to 'scale' (scale factor must be > 0)")
    has(err(function() s:scale(-1) end), "bad argument #1 to 'scale' (scale factor must be > 0)")
    assert.are.equal(2, s:radius())
  end)

  it("setRadius refuses negative and non-finite radii", function()
    local c = sat.circle(0, 0, 2)
    has(err(function() c:setRadius(-1) end), "bad argument #1 to 'setRadius' (radius must be >= 0)")
    has(err(function() c:setRadius(nan) end),
      "bad argument #1 to 'setRadius' (finite number expected, got nan)")
    assert.are.equal(2, c:radius())
  end)

  it("raise an error, never crash, on a wrong self", function()
    local c, p, v = sat.circle(0, 0, 1), sat.box(0, 0, 1, 1), sat.vec(1, 2)
    has(err(function() c.moveTo(v, 1, 2) end), "bad self to 'moveTo' (shape expected, got vec)")
    has(err(function() c:moveTo("a", 2) end), "bad argument #1 to 'moveTo' (number expected, got string)")
    has(err(function() local r = c.radius(p) return r end),
      "bad self to 'radius' (circle or capsule expected, got polygon)")
    has(err(function() local r = p.vertices(c) return r end),
      "bad self to 'vertices' (polygon or compound expected, got circle)")
    has(err(function() local r = p.area(nil) return r end),
      "bad self to 'area' (shape expected, got nil)")
    has(err(function() local r = p:vertices(5) return r end), "bad argument #1 to 'vertices'")
    -- another library's object is named by its metatable's __name
    local image = setmetatable({}, { __name = "Image" })
    has(err(function() local r = sat.test(c, image) return r end),
      "bad argument #2 to 'test' (shape expected, got Image)")
    -- metamethods called by hand (the metatables are protected: through the debug library)
    -- get the same checks
    local metatable = debug.getmetatable
    has(err(function() metatable(p).__newindex(v, "x", 1) end), "shape expected, got vec")
    has(err(function() return metatable(v).__index(p, "x") end), "vec expected, got polygon")
    has(err(function() return metatable(p).__tostring(io.stdout) end), "shape expected")
  end)
end)

describe("nothing half-built", function()
  it("a failed constructor leaves no shape behind", function()
    for _ = 1, 3 do
      collectgarbage("collect")
    end
    local before = collectgarbage("count")
    for _ = 1, 2000 do
      pcall(sat.polygon, 0, 0, 2, 0, 1, 0.5, 2, 2, 0, 2)
      pcall(sat.circle, 0, 0, -1)
    end
    collectgarbage("collect")
    collectgarbage("collect")
    assert.is_true(collectgarbage("count") - before < 64)
  end)
end)
