-- sat.vec: construction, fields, operators, methods and their errors.
local sat = require("sat")
local vec = sat.vec

-- The message of the error f raises (fails the test when f does not raise).
local support = require("spec.support")
local err, has = support.err, support.has

local function near(x, y, v, tol)
  tol = tol or 1e-12
  assert.is_near(x, v.x, tol)
  assert.is_near(y, v.y, tol)
end

describe("sat.vec", function()
  it("holds x and y", function()
    local v = vec(1.5, -2)
    assert.are.equal(1.5, v.x)
    assert.are.equal(-2, v.y)
    assert.is_true(sat.isVec(v))
    assert.is_false(sat.isVec({ x = 1, y = 2 }))
    assert.is_false(sat.isVec(sat.circle(0, 0, 1)))
  end)

  it("defaults omitted coordinates to 0", function()
    local v = vec()
    assert.are.equal(0, v.x)
    assert.are.equal(0, v.y)
    assert.are.equal(3, vec(3).x)
    assert.are.equal(0, vec(3).y)
  end)

  it("accepts any finite number, also huge and tiny ones", function()
    local v = vec(1e308, -5e-324)
    assert.are.equal(1e308, v.x)
    assert.are.equal(-5e-324, v.y)
  end)

  it("rejects NaN and infinite coordinates", function()
    has(err(function() local v = vec(0 / 0, 1) return v end),
      "bad argument #1 to 'vec' (finite number expected, got nan)")
    has(err(function() local v = vec(1, math.huge) return v end),
      "bad argument #2 to 'vec' (finite number expected, got inf)")
    has(err(function() local v = vec(-math.huge, 1) return v end), "got -inf")
  end)

  it("rejects non-numbers", function()
    has(err(function() local v = vec("a", 1) return v end),
      "bad argument #1 to 'vec' (number expected, got string)")
    has(err(function() local v = vec(1, {}) return v end),
      "bad argument #2 to 'vec' (number expected, got table)")
  end)

  it("has writable x and y", function()
    local v = vec(1, 2)
    v.x = 10
    v.y = -20
    assert.are.equal(10, v.x)
    assert.are.equal(-20, v.y)
  end)

  it("refuses non-finite or non-number writes and leaves the vec unchanged", function()
    local v = vec(1, 2)
    has(err(function() v.x = 0 / 0 end), "bad value for vec.x (finite number expected, got nan)")
    has(err(function() v.y = math.huge end), "bad value for vec.y (finite number expected, got inf)")
    has(err(function() v.x = "3" end), "bad value for vec.x (number expected, got string)")
    assert.are.equal(1, v.x)
    assert.are.equal(2, v.y)
  end)

  it("has no other fields", function()
    local v = vec(1, 2)
    assert.is_nil(v.z)
    has(err(function() v.z = 1 end), "cannot set field 'z' of a vec")
    has(err(function() v[1] = 1 end), "cannot set a number key of a vec")
  end)

  it("prints as vec(x, y)", function()
    assert.are.equal("vec(1, 2)", tostring(vec(1, 2)))
    assert.are.equal("vec(0.1, -2.5)", tostring(vec(0.1, -2.5)))
    assert.are.equal("vec(0, 0)", tostring(vec(-0.0, 0)))
    assert.are.equal("vec(1e+20, 3.1415926535898)", tostring(vec(1e20, math.pi)))
  end)

  describe("operators", function()
    it("adds and subtracts vectors", function()
      local a, b = vec(1, 2), vec(10, 20)
      near(11, 22, a + b)
      near(-9, -18, a - b)
      assert.are.equal(1, a.x) -- operands unchanged
    end)

    it("negates", function()
      near(-1, 2, -vec(1, -2))
    end)

    it("multiplies by a number in both orders", function()
      near(2, -4, vec(1, -2) * 2)
      near(2, -4, 2 * vec(1, -2))
    end)

    it("divides by a number", function()
      near(0.5, -1, vec(1, -2) / 2)
    end)

    it("compares by value", function()
      assert.is_true(vec(1, 2) == vec(1, 2))
      assert.is_false(vec(1, 2) == vec(1, 3))
      assert.is_true(vec(1, 2) ~= vec(2, 1))
    end)

    it("names the operator and operand types in its errors", function()
      has(err(function() return vec(1, 2) + 1 end),
        "bad operands for vec '+' (vec + vec expected, got vec + number)")
      has(err(function() return 1 - vec(1, 2) end),
        "bad operands for vec '-' (vec - vec expected, got number - vec)")
      has(err(function() return vec(1, 2) * vec(1, 2) end),
        "bad operands for vec '*' (vec * number or number * vec expected, got vec * vec)")
      has(err(function() return 2 / vec(1, 2) end),
        "bad operands for vec '/' (vec / number expected, got number / vec)")
      has(err(function() return vec(1, 2) + sat.circle(0, 0, 1) end), "got vec + circle")
    end)

    it("refuses non-finite factors and division by zero", function()
      has(err(function() return vec(1, 2) * (0 / 0) end),
        "bad operands for vec '*' (finite number expected, got nan)")
      has(err(function() return math.huge * vec(1, 2) end), "got inf")
      has(err(function() return vec(1, 2) / 0 end), "bad operands for vec '/' (division by zero)")
    end)
  end)

  describe("methods", function()
    it("clone makes an independent copy", function()
      local a = vec(1, 2)
      local b = a:clone()
      b.x = 5
      assert.are.equal(1, a.x)
      assert.are.equal(5, b.x)
      assert.are_not.equal(rawequal(a, b), true)
    end)

    it("unpack returns x, y", function()
      local x, y = vec(3, -4):unpack()
      assert.are.equal(3, x)
      assert.are.equal(-4, y)
    end)

    it("dot and cross", function()
      assert.are.equal(1 * 3 + 2 * 4, vec(1, 2):dot(vec(3, 4)))
      assert.are.equal(1 * 4 - 2 * 3, vec(1, 2):cross(vec(3, 4)))
      assert.are.equal(1, vec(1, 0):cross(vec(0, 1)))
    end)

    it("len and len2", function()
      assert.are.equal(5, vec(3, 4):len())
      assert.are.equal(25, vec(3, 4):len2())
      assert.are.equal(0, vec():len())
      -- no overflow in the length of a large but finite vector
      assert.is_near(math.sqrt(2) * 1e300, vec(1e300, 1e300):len(), 1e286)
    end)

    it("normalized is a unit vector in the same direction", function()
      near(0.6, 0.8, vec(3, 4):normalized())
      near(-1, 0, vec(-1e-300, 0):normalized())
      local n = vec(1e308, -1e308):normalized()
      near(math.sqrt(0.5), -math.sqrt(0.5), n)
    end)

    it("normalized of a zero vector is a zero vector, never NaN", function()
      local n = vec(0, 0):normalized()
      assert.are.equal(0, n.x)
      assert.are.equal(0, n.y)
    end)

    it("perp is (-y, x)", function()
      near(-2, 1, vec(1, 2):perp())
    end)

    it("rotated turns counter-clockwise (y up) by radians", function()
      near(-2, 1, vec(1, 2):rotated(math.pi / 2))
      near(-1, -2, vec(1, 2):rotated(math.pi))
      near(1, 2, vec(1, 2):rotated(0))
    end)

    it("projectOn projects onto the line of a vector of any length", function()
      near(3, 0, vec(3, 4):projectOn(vec(10, 0)))
      near(3.5, 3.5, vec(3, 4):projectOn(vec(-2, -2)))
      near(0, 0, vec(3, 4):projectOn(vec(0, 0)))
    end)

    it("reflect mirrors by a surface normal", function()
      near(1, 1, vec(1, -1):reflect(vec(0, 1)))
      near(1, 1, vec(1, -1):reflect(vec(0, 5))) -- any length
      near(-1, -1, vec(1, 1):reflect(vec(-1, -1)))
      near(1, -1, vec(1, -1):reflect(vec(0, 0))) -- no surface: unchanged
    end)

    it("dist is the distance between two points", function()
      assert.are.equal(5, vec(1, 1):dist(vec(4, 5)))
      assert.are.equal(0, vec(1, 1):dist(vec(1, 1)))
    end)

    it("check their arguments", function()
      local v = vec(1, 2)
      has(err(function() local d = v:dot(3) return d end),
        "bad argument #1 to 'dot' (vec expected, got number)")
      has(err(function() local d = v:dist(sat.circle(0, 0, 1)) return d end),
        "bad argument #1 to 'dist' (vec expected, got circle)")
      has(err(function() local d = v:rotated(0 / 0) return d end),
        "bad argument #1 to 'rotated' (finite number expected, got nan)")
      has(err(function() local d = v.len({}) return d end),
        "bad self to 'len' (vec expected, got table)")
    end)
  end)
end)
