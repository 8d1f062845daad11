-- The pure-Lua maths (lua/sat/pure/sat_math.lua) gives the same bits as the C core's
-- (src/core/sat_math.c, through the test helper spec/helpers/satmath.c: make test-helpers)
-- for every argument tried: at least 200,000 per function, spread over every exponent
-- (subnormals included), dense over [-2 pi, 2 pi], near multiples of pi/2 small and huge,
-- tiny, and the special values. Under LuaJIT, once compiled and once interpreted.
-- Bits are compared with == (string.format("%a") is not in 5.1), the sign of a zero with
-- 1 / x, a NaN as a NaN.

local pure = require("sat.pure.sat_math")

local found, C = pcall(require, "satmath")
if not found then
  error("the satmath helper is missing: make test-helpers")
end

-- 2^k, exact, without hex literals
local POW2 = { [0] = 1.0 }
for k = 1, 1023 do
  POW2[k] = POW2[k - 1] * 2.0
end
for k = -1, -1074, -1 do
  POW2[k] = POW2[k + 1] * 0.5
end

-- Park and Miller's generator: exact in doubles under every Lua
local seed = 12345.0
local function rand31()
  seed = seed * 16807.0
  seed = seed - math.floor(seed / 2147483647.0) * 2147483647.0
  return seed
end
local function uniform(lo, hi)
  return lo + (hi - lo) * (rand31() / 2147483647.0)
end
-- a random significand of 52 bits and sign, the exponent uniform in [emin, emax]
local function spread(emin, emax)
  local frac = (rand31() * 2097152.0 + math.floor(rand31() / 1024.0)) * POW2[-52]
  local e = emin + math.floor(rand31() / 2147483647.0 * (emax - emin + 1))
  if e > emax then e = emax end
  local x = (1.0 + frac * 0.5) * POW2[e]
  if rand31() < 1073741823.5 then
    return -x
  end
  return x
end

local PIO2 = { 1.5707963267341256, 6.077100506303966e-11, 2.0222662487111665e-21 }
local function near_quadrant(k)
  -- within an ulp or so of k pi/2, then nudged by a few ulps either way
  local x = k * PIO2[1] + (k * PIO2[2] + k * PIO2[3])
  local j = math.floor(rand31() / 2147483647.0 * 7.0) - 3.0
  return x * (1.0 + j * POW2[-52])
end

-- -0.0 made at run time: Lua 5.1 keeps one constant for 0.0 and -0.0 in a function
local ZERO = 0.0
local NEGZERO = -ZERO

local function same(a, b)
  if a ~= a then
    return b ~= b
  end
  if a ~= b then
    return false
  end
  return a ~= 0 or 1 / a == 1 / b
end

local function arguments_1()
  local xs = {}
  local function add(x) xs[#xs + 1] = x end
  for _ = 1, 60000 do add(uniform(-2.0 * math.pi, 2.0 * math.pi)) end
  for _ = 1, 60000 do add(spread(-1074, 1023)) end
  for _ = 1, 20000 do add(near_quadrant(math.floor(rand31() / 2048.0))) end
  for _ = 1, 20000 do
    local big = math.floor(rand31() / 8.0) * POW2[math.floor(rand31() / 2147483647.0 * 960.0)]
    add(near_quadrant(big))
  end
  for _ = 1, 30000 do add(spread(-1074, -20)) end
  for _ = 1, 20000 do add(uniform(POW2[19], POW2[21])) end
  for _, v in ipairs({ 0.0, NEGZERO, 1.0, -1.0, 1e300, -1e300, 1e22, POW2[-1074], -POW2[-1074],
    1.7976931348623157e308, -1.7976931348623157e308, 6381956970095103.0 * POW2[797],
    1.5707963267948966, 3.1415926535897931, 0.78539816339744828, POW2[20], POW2[-27] }) do
    add(v)
  end
  add(math.huge)
  add(-math.huge)
  add(0.0 / 0.0)
  return xs
end

local function arguments_2(kind)
  local xs, ys = {}, {}
  local function add(x, y) xs[#xs + 1] = x; ys[#ys + 1] = y end
  if kind == "atan2" then
    for _ = 1, 60000 do
      local t, r = uniform(-math.pi, math.pi), spread(-30, 30)
      add(r * math.cos(t), r * math.sin(t))
    end
    for _ = 1, 60000 do add(spread(-1074, 1023), spread(-1074, 1023)) end
    for _ = 1, 40000 do
      local x = spread(-30, 30)
      add(x, x * uniform(0.875, 1.125))
    end
    for _ = 1, 20000 do
      local x = spread(-10, 10)
      local t = rand31() < 1073741823.5 and 0.4375 or 0.6875
      local y = x * t * uniform(1.0 - POW2[-20], 1.0 + POW2[-20])
      if rand31() < 1073741823.5 then add(x, y) else add(y, x) end
    end
    for _ = 1, 20000 do add(spread(-1074, -1000), spread(-1074, -1000)) end
  else
    for _ = 1, 60000 do add(uniform(-100.0, 100.0), uniform(-100.0, 100.0)) end
    for _ = 1, 60000 do add(spread(-1074, 1023), spread(-1074, 1023)) end
    for _ = 1, 40000 do
      local e = math.floor(rand31() / 2147483647.0 * 1980.0) - 1000
      add(spread(e, e + 30), spread(e, e + 30))
    end
    for _ = 1, 20000 do
      local x = spread(-100, 100)
      add(x, x * uniform(0.99, 1.01))
    end
    for _ = 1, 10000 do add(spread(900, 1023), spread(900, 1023)) end
    for _ = 1, 10000 do add(spread(-1074, -900), spread(-1074, -900)) end
  end
  local special = { 0.0, NEGZERO, 1.0, -1.0, math.huge, -math.huge, 0.0 / 0.0, POW2[-1074],
    -POW2[-1074], 1.7976931348623157e308, -1.7976931348623157e308 }
  for i = 1, #special do
    for j = 1, #special do
      add(special[i], special[j])
    end
  end
  return xs, ys
end

-- the first few arguments where the two differ
local function differences(name, xs, ys, want, got)
  local bad = {}
  for i = 1, #want do
    if not same(want[i], got[i]) then
      bad[#bad + 1] = string.format("%s(%.17g%s): C %.17g, Lua %.17g", name, xs[i],
        ys and string.format(", %.17g", ys[i]) or "", want[i], got[i])
      if #bad == 5 then break end
    end
  end
  return bad
end

local function check_all(label)
  describe(label, function()
    local xs = arguments_1()

    it("sat_sin, sat_cos and sat_sincos: the C's bits on " .. #xs .. " arguments", function()
      assert.is_true(#xs >= 200000)
      local sin, cos, sincos = pure.sat_sin, pure.sat_cos, pure.sat_sincos
      local ws, wc, wsc = C.run("sin", xs), C.run("cos", xs), C.run("sincos", xs)
      local gs, gc, gsc = {}, {}, {}
      for i = 1, #xs do
        gs[i] = sin(xs[i])
        gc[i] = cos(xs[i])
        gsc[2 * i - 1], gsc[2 * i] = sincos(xs[i])
      end
      assert.are.same({}, differences("sin", xs, nil, ws, gs))
      assert.are.same({}, differences("cos", xs, nil, wc, gc))
      local s, c = {}, {}
      for i = 1, #xs do
        s[i], c[i] = gsc[2 * i - 1], gsc[2 * i]
        -- and sincos is sin and cos of the C, bit for bit
        assert(same(wsc[2 * i - 1], ws[i]) and same(wsc[2 * i], wc[i]), xs[i])
      end
      assert.are.same({}, differences("sincos (s)", xs, nil, ws, s))
      assert.are.same({}, differences("sincos (c)", xs, nil, wc, c))
    end)

    it("sat_sin is odd and sat_cos even, bit for bit, in Lua too", function()
      local sin, cos = pure.sat_sin, pure.sat_cos
      for i = 1, #xs, 7 do
        local x = xs[i]
        assert(same(sin(-x), -sin(x)) and same(cos(-x), cos(x)), x)
      end
      assert.are.equal(0.0, sin(0.0))
      assert.are.equal(math.huge, 1 / sin(0.0))
      assert.are.equal(-math.huge, 1 / sin(NEGZERO))
      assert.are.equal(1.0, cos(0.0))
      assert.are.equal(1.0, cos(NEGZERO))
    end)

    for _, name in ipairs({ "atan2", "hypot" }) do
      it("sat_" .. name .. ": the C's bits on 200,000 pairs and more", function()
        local xs2, ys2 = arguments_2(name)
        assert.is_true(#xs2 >= 200000)
        local f = pure["sat_" .. name]
        local want = C.run(name, xs2, ys2)
        local got = {}
        if name == "atan2" then
          for i = 1, #xs2 do got[i] = f(ys2[i], xs2[i]) end
        else
          for i = 1, #xs2 do got[i] = f(xs2[i], ys2[i]) end
        end
        assert.are.same({}, differences(name, xs2, ys2, want, got))
      end)
    end
  end)
end

check_all("the pure maths")

if jit then
  describe("under LuaJIT with the compiler off", function()
    local wasOn
    setup(function()
      wasOn = require("spec.support").compilerOn()
      jit.flush()
      jit.off()
    end)
    teardown(function()
      if wasOn then jit.on() end
    end)
    check_all("the pure maths, interpreted")
  end)
end

describe("the pure maths' arguments", function()
  it("integers (Lua 5.3 and up) give the floats' results, floats out", function()
    for _, v in ipairs({ 0, 1, -1, 3, 7, 1000000, -123456789, 4503599627370496 }) do
      local f = v * 1.0
      assert(same(pure.sat_sin(f), pure.sat_sin(v)), v)
      assert(same(pure.sat_cos(f), pure.sat_cos(v)), v)
      assert(same(C.sin(f), pure.sat_sin(v)), v)
      assert(same(pure.sat_atan2(v, 3), C.atan2(f, 3.0)), v)
      assert(same(pure.sat_hypot(v, 3), C.hypot(f, 3.0)), v)
      if math.type then
        assert.are.equal("float", math.type(pure.sat_sin(v)))
        assert.are.equal("float", math.type(pure.sat_hypot(v, 3)))
      end
    end
  end)
end)
