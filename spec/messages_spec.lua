-- The binding's errors say what is really wrong (#15): every one names the function and the
-- argument, in one style, at the caller's line.
local sat = require("sat")
local support = require("spec.support")
local err, has = support.err, support.has

-- "<this file>:<line>: bad argument #<n> to '<fn>' (<what>)"
local STYLE = "^[^:]*messages_spec%.lua:%d+: bad argument #%d+ to '[%a]+' %(.+%)$"
-- a method's receiver (a dot written for a colon): spec/receivers_spec.lua
local SELF_STYLE = "^[^:]*messages_spec%.lua:%d+: bad self to '[%a]+' %(.+ expected, got .+%)$"

describe("error messages", function()
  it("sat.polygon takes a table of points with nothing but nils after it", function()
    local p = sat.polygon({ 0, 0, 4, 0, 0, 4 }, nil)
    assert.are.equal(3, #p:vertices() / 2)
    assert.are.equal(3, #sat.polygon({ sat.vec(0, 0), sat.vec(1, 0), sat.vec(0, 1) }, nil, nil):vertices() / 2)
    has(err(function() local s = sat.polygon({ 0, 0, 4, 0, 0, 4 }, 5) return s end),
      "bad argument #2 to 'polygon' (nothing expected after the table of points, got number)")
    has(err(function() local s = sat.polygon({ 0, 0, 4, 0, 0, 4 }, nil, {}) return s end),
      "bad argument #3 to 'polygon' (nothing expected after the table of points, got table)")
  end)

  it("rotate says the resulting angle overflows, and changes nothing", function()
    local s = sat.box(0, 0, 2, 2)
    s:rotate(1e308)
    for _, f in ipairs({
      function() s:rotate(1e308) end,
      function() s:rotate(1e308, 0, 0) end,
    }) do
      local msg = err(f)
      has(msg, "bad argument #1 to 'rotate' (resulting angle is not finite (the rotation overflows))")
      assert.is_nil(msg:find("must be finite", 1, true))
    end
    assert.are.equal(1e308, s:rotation())
    assert.are.same({ 1, 1 }, { s:position() })
    -- the angle is kept as given, not reduced
    s:setRotation(0)
    s:rotate(7)
    assert.are.equal(7, s:rotation())
  end)

  it("move names the coordinate that leaves the range", function()
    local s = sat.circle(0, 0, 1)
    has(err(function() s:move(0, 1e300) end), "bad argument #2 to 'move' (out of range")
    has(err(function() s:move(1e300, 0) end), "bad argument #1 to 'move' (out of range")
    assert.are.same({ 0, 0 }, { s:position() })
  end)

  it("all have one style: the function, the argument, what is wrong, at the caller's line", function()
    local p, c, v = sat.box(0, 0, 1, 1), sat.circle(0, 0, 1), sat.vec(1, 2)
    local calls = {
      function() local r = sat.circle(0, 0, -1) return r end,
      function() local r = sat.box(0, 0, 0, 1) return r end,
      function() local r = sat.polygon({ 0, 0, 1 }) return r end,
      function() local r = sat.polygon({ 0, 0, 1, 0, 0, 1 }, 1) return r end,
      function() local r = sat.polygon(0, 0, 1, 0, 2, 0) return r end,
      function() local r = sat.vec(0 / 0, 1) return r end,
      function() local r = sat.test(p, v) return r end,
      function() local r = sat.collide(p, c, 1) return r end,
      function() local r = p.collidesWith(p, 1) return r end,
      function() local r = p.moveTo(p, 1) return r end,
      function() local r = p.move(p, 1e300, 0) return r end,
      function() local r = p.rotate(p, 1, 2) return r end,
      function() local r = p.setRotation(p, 1 / 0) return r end,
      function() local r = p.scale(p, 2, 1) return r end,
      function() local r = p.scale(p, -1) return r end,
      function() local r = p.contains(p, 1) return r end,
      function() local r = p.raycast(p, 0, 0, 1) return r end,
      function() local r = p.vertices(p, 1) return r end,
      function() local r = c.setRadius(c, -1) return r end,
      function() local r = c.radius(p) return r end,
      function() local r = v.dot(v, p) return r end,
      function() local r = v.rotated(v) return r end,
      function() local r = v.len(p) return r end,
      function() local r = sat.world().count() return r end,
    }
    for i, f in ipairs(calls) do
      local msg = err(f)
      assert.is_truthy(msg:find(STYLE) or msg:find(SELF_STYLE), i .. ": " .. msg)
    end
  end)
end)
