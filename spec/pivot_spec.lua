-- What an HC user writes works, or says why not (#14): rotate and setRotation take HC's
-- pivot, scale takes LÖVE's (sx, sy) when they are equal and refuses them otherwise.
local sat = require("sat")
local support = require("spec.support")
local err, has = support.err, support.has

-- The vertices as {x1, y1, ...}, each rounded to 1e-12 (to compare turned outlines).
local function rounded(s)
  local t = s:vertices()
  for i, v in ipairs(t) do
    t[i] = math.floor(v * 1e12 + 0.5) / 1e12
  end
  return t
end

describe("rotate and setRotation about a pivot", function()
  it("turn the shape and move it on the circle about the pivot", function()
    local b = sat.box(2, -1, 4, 2) -- centre (4, 0)
    assert.are.equal(b, b:rotate(math.pi / 2, 0, 0))
    local x, y = b:position()
    assert.is_near(0, x, 1e-15)
    assert.is_near(4, y, 1e-15)
    assert.are.equal(math.pi / 2, b:rotation())
    assert.are.same({ 1, 2, 1, 6, -1, 6, -1, 2 }, rounded(b))
    -- setRotation about a pivot turns by the difference: back to 0, back where it was
    assert.are.equal(b, b:setRotation(0, 0, 0))
    assert.are.same({ 2, -1, 6, -1, 6, 1, 2, 1 }, rounded(b))
    assert.are.equal(0, b:rotation())
    -- about its own position: the plain rotation
    local c = sat.box(2, -1, 4, 2)
    b:rotate(0.5, 4, 0)
    c:rotate(0.5)
    assert.are.same(c:vertices(), b:vertices())
    -- a circle's centre moves too; its radius stays
    local circle = sat.circle(3, 0, 1)
    circle:rotate(-math.pi / 2, 3, 2)
    x, y = circle:position()
    assert.is_near(1, x, 1e-15)
    assert.is_near(2, y, 1e-15)
    assert.are.equal(1, circle:radius())
    -- nil, nil is no pivot; half a pivot is an error
    assert.are.equal(c, c:rotate(0.25, nil, nil))
    has(err(function() c:rotate(1, 5) end), "bad argument #3 to 'rotate' (number expected, got no value)")
    has(err(function() c:setRotation(1, nil, 5) end),
      "bad argument #2 to 'setRotation' (number expected, got nil)")
    has(err(function() c:rotate(1, 0 / 0, 0) end),
      "bad argument #2 to 'rotate' (finite number expected, got nan)")
  end)

  it("turns a shape far from the origin exactly as near it", function()
    -- the same turns about the same pivots, everything shifted by 1e9: the same overlap with
    -- a probe (position doubles alone would be 1e-7 off there)
    local function turned(o)
      local s = sat.box(o + 2, o - 1, 4, 2)
      s:rotate(1.0, o + 0.125, o - 0.375)
      s:rotate(0.7, o + 0.5, o + 0.25)
      s:setRotation(1.5, o - 0.25, o + 0.5)
      return s, sat.collide(s, sat.box(o - 0.75, o + 2, 1, 1.5))
    end
    local near, r0 = turned(0)
    local far, r1 = turned(1e9)
    assert.is_true(r0.overlap > 0.1)
    assert.is_near(r0.overlap, r1.overlap, 1e-12 * r0.overlap)
    assert.is_near(r0.normal.x, r1.normal.x, 1e-12)
    assert.is_near(r0.normal.y, r1.normal.y, 1e-12)
    assert.is_near(near:position() + 1e9, far:position(), 3e-7)
  end)

  it("leave the shape as it was when the turn would take it out of range", function()
    local s = sat.circle(1e150, 0, 1)
    has(err(function() s:rotate(math.pi, -1e149, 0) end), -- to -1.2e150
      "bad argument #2 to 'rotate' (the turn about this pivot takes the shape out of range")
    has(err(function() s:rotate(1, 2e150, 0) end), "bad argument #2 to 'rotate' (out of range")
    assert.are.same({ 1e150, 0 }, { s:position() })
    assert.are.equal(0, s:rotation())
  end)
end)

describe("scale", function()
  it("takes (sx, sy) when they are equal, and refuses a non-uniform scale", function()
    local s = sat.box(0, 0, 2, 2)
    assert.are.equal(s, s:scale(2, 2))
    assert.are.equal(16, s:area())
    has(err(function() s:scale(2, 3) end),
      "bad argument #2 to 'scale' (non-uniform scale is not supported (sy must equal sx))")
    has(err(function() s:scale(2, "x") end), "bad argument #2 to 'scale' (number expected, got string)")
    assert.are.equal(16, s:area())
    assert.are.equal(s, s:scale(0.5, nil))
    assert.are.equal(4, s:area())
  end)
end)
