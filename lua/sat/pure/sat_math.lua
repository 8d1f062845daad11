-- sat_math.lua - the pure-Lua twin of src/core/sat_math.c: sin, cos, sincos, atan2 and hypot
-- of the project's own, the SAME operations in the same order as the C, so that both give
-- the same bits for every argument (spec/math_spec.lua compares them on hundreds of
-- thousands). See the C file for the method; each function here follows its C namesake
-- line by line. Lua 5.1 syntax: no hex floats (powers of two are computed once, exactly, by
-- halving and doubling), no bit operators. Every literal is a float (2.0, not 2), so that
-- under Lua 5.3 and 5.4 no integer arithmetic happens; arguments are converted once at
-- entry with x * 1.0, which keeps the sign of a zero (x + 0.0 would not). math.abs is C's
-- fabs (abs(-0.0) is 0.0).
-- Returns { sat_sin, sat_cos, sat_sincos, sat_atan2, sat_hypot }.

local abs, floor, sqrt = math.abs, math.floor, math.sqrt
local huge = math.huge

-- 2^k for k in [-1074, 1024] (2^1024 is inf), each exact
local POW2 = { [0] = 1.0 }
do
  local v = 1.0
  for k = 1, 1024 do
    v = v * 2.0
    POW2[k] = v
  end
  v = 1.0
  for k = -1, -1074, -1 do
    v = v * 0.5
    POW2[k] = v
  end
end

local TWO20, TWOM27, TWOM28, TWOM30 = POW2[20], POW2[-27], POW2[-28], POW2[-30]
local TWO24, TWOM24, TWO48, TWOM48, TWO72, TWOM72 =
  POW2[24], POW2[-24], POW2[48], POW2[-48], POW2[72], POW2[-72]
local TWO500, TWOM450, TWO512, TWOM512 = POW2[500], POW2[-450], POW2[512], POW2[-512]
local TWO600, TWOM600, TWO700, TWOM700 = POW2[600], POW2[-600], POW2[700], POW2[-700]

-- ---- exact sums and products of two doubles ----------------------------------------------

local SPLIT = 134217729.0

local function two_sum(a, b)
  local t = a + b
  local bb = t - a
  return t, (a - (t - bb)) + (b - bb)
end

local function two_prod(a, b)
  local ta = SPLIT * a
  local ah = ta - (ta - a)
  local al = a - ah
  local tb = SPLIT * b
  local bh = tb - (tb - b)
  local bl = b - bh
  local q = a * b
  return q, (((ah * bh - q) + ah * bl) + al * bh) + al * bl
end

-- ---- sin and cos ---------------------------------------------------------------------------

local PIO4 = 0.78539816339744828
local INV_PIO2 = 0.63661977236758138
local PIO2_HI = 1.5707963267948966
local PIO2_LO = 6.123233995736766e-17
local P1 = 1.5707963267341256
local P2 = 6.077100506303966e-11
local P3 = 2.0222662487111665e-21
local P4 = 8.4784276603688996e-32
local P1T = 6.0771005065061922e-11
local ROUND = 6755399441055744.0

local S0 = -0.16666666666666666
local S1 = 0.0083333333333333315
local S2 = -0.00019841269841265017
local S3 = 2.7557319219301936e-06
local S4 = -2.5052106219528367e-08
local S5 = 1.6058529573291737e-10
local S6 = -7.5865766484052611e-13
local C0 = 0.041666666666666664
local C1 = -0.0013888888888887382
local C2 = 2.480158729874308e-05
local C3 = -2.7557317260014708e-07
local C4 = 2.0876143829213935e-09
local C5 = -1.1382456865840483e-11

-- 2/pi = sum of TWO_OVER_PI[i + 3] 2^(-24 i), i >= 1 (the C's TWO_OVER_PI[i + 2], 1-based)
local TWO_OVER_PI = {
  0.0, 0.0, 0.0,
  10680707.0, 7228996.0, 1387004.0, 2578385.0, 16069853.0, 12639074.0,
  9804092.0, 4427841.0, 16666979.0, 11263675.0, 12935607.0, 2387514.0,
  4345298.0, 14681673.0, 3074569.0, 13734428.0, 16653803.0, 1880361.0,
  10960616.0, 8533493.0, 3062596.0, 8710556.0, 7349940.0, 6258241.0,
  3772886.0, 3769171.0, 3798172.0, 8675211.0, 12450088.0, 3874808.0,
  9961438.0, 366607.0, 15675153.0, 9132554.0, 7151469.0, 3571407.0,
  2607881.0, 12013382.0, 4155038.0, 6285869.0, 7677882.0, 13102053.0,
  15825725.0, 473591.0, 9065106.0, 15363067.0, 6271263.0, 9264392.0,
  5636912.0, 4652155.0,
}

local DIGITS = 8
local col, g = {}, {} -- scratch of reduce_large (C's col[m], g[m] at [m + 1])

local function k_sin(x, y)
  local z = x * x
  local v = z * x
  local r = S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * S6))))
  return x + (v * S0 + (v * (z * r) + (y - z * (0.5 * y))))
end

local function k_cos(x, y)
  local z = x * x
  local hz = 0.5 * z
  local w = 1.0 - hz
  local r = z * (C0 + z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * C5)))))
  return w + (((1.0 - w) - hz) + (z * r - x * y))
end

-- C's frexp(ax, &ex) for ax in [2^20, inf): 2^(ex - 1) <= ax < 2^ex
local function exponent(ax)
  local lo, hi = 21, 1024
  while lo < hi do
    local mid = floor((lo + hi) / 2)
    if ax < POW2[mid] then
      hi = mid
    else
      lo = mid + 1
    end
  end
  return lo
end

local function reduce_large(ax)
  local ex = exponent(ax)
  local k = floor((ex - 53) / 24.0)
  local t = ax * POW2[-24 * k]
  local x3 = floor(t * TWOM72)
  t = t - x3 * TWO72
  local x2 = floor(t * TWOM48)
  t = t - x2 * TWO48
  local x1 = floor(t * TWOM24)
  local x0 = t - x1 * TWO24
  for m = 0, DIGITS - 1 do
    local b = 3 + m + k -- C's b[0], 1-based
    col[m + 1] = ((x0 * TWO_OVER_PI[b] + x1 * TWO_OVER_PI[b + 1]) + x2 * TWO_OVER_PI[b + 2])
      + x3 * TWO_OVER_PI[b + 3]
  end
  for m = DIGITS - 1, 1, -1 do
    local c = floor(col[m + 1] * TWOM24)
    col[m + 1] = col[m + 1] - c * TWO24
    col[m] = col[m] + c
  end
  local n = col[1] - 4.0 * floor(col[1] * 0.25)
  local neg = false
  if col[2] >= 0.5 * TWO24 then
    neg = true
    n = n + 1.0
    for m = 1, DIGITS - 1 do
      g[m + 1] = (TWO24 - 1.0) - col[m + 1]
    end
    g[DIGITS] = g[DIGITS] + 1.0
  else
    for m = 1, DIGITS - 1 do
      g[m + 1] = col[m + 1]
    end
  end
  local h, l = g[DIGITS], 0.0
  local e
  for m = DIGITS - 2, 1, -1 do
    h, e = two_sum(g[m + 1], h * TWOM24)
    l = e + l * TWOM24
  end
  h = h * TWOM24
  l = l * TWOM24
  local p
  p, e = two_prod(h, PIO2_HI)
  e = e + (h * PIO2_LO + l * PIO2_HI)
  local hi, lo = two_sum(p, e)
  if neg then
    hi = -hi
    lo = -lo
  end
  return n - 4.0 * floor(n * 0.25), hi, lo
end

-- ax in (pi/4, inf): n mod 4 (a float; the C's (int)n & 3, exact either way), hi, lo
local function reduce(ax)
  if ax >= TWO20 then
    return reduce_large(ax)
  end
  local n = (ax * INV_PIO2 + ROUND) - ROUND
  local a = ax - n * P1
  local w = n * P1T
  local y = a - w
  local hi, lo
  if abs(y) >= n * TWOM24 then
    hi = y
    lo = (a - y) - w
  else
    local h, l = two_sum(a, -(n * P2))
    local h2, e = two_sum(h, -(n * P3))
    local t = (l + e) - n * P4
    hi, lo = two_sum(h2, t)
  end
  return n - 4.0 * floor(n * 0.25), hi, lo
end

local function sin_abs(ax, cosine)
  if ax <= PIO4 then
    if cosine then
      return k_cos(ax, 0.0)
    end
    return k_sin(ax, 0.0)
  end
  local n, hi, lo = reduce(ax)
  if cosine then
    n = n + 1.0
    if n == 4.0 then
      n = 0.0
    end
  end
  if n == 0.0 then
    return k_sin(hi, lo)
  elseif n == 1.0 then
    return k_cos(hi, lo)
  elseif n == 2.0 then
    return -k_sin(hi, lo)
  end
  return -k_cos(hi, lo)
end

local function sat_sin(x)
  x = x * 1.0
  local ax = abs(x)
  if ax ~= ax or ax == huge then -- NaN or inf
    return x - x
  end
  if ax < TWOM27 then
    return x
  end
  local s = sin_abs(ax, false)
  if x < 0.0 then
    return -s
  end
  return s
end

local function sat_cos(x)
  x = x * 1.0
  local ax = abs(x)
  if ax ~= ax or ax == huge then -- NaN or inf
    return x - x
  end
  if ax < TWOM27 then
    return 1.0
  end
  return sin_abs(ax, true)
end

-- returns s, c (the C's out-parameters)
local function sat_sincos(x)
  x = x * 1.0
  local ax = abs(x)
  if ax ~= ax or ax == huge then -- NaN or inf
    return x - x, x - x
  end
  if ax < TWOM27 then
    return x, 1.0
  end
  local sn, cs
  if ax <= PIO4 then
    sn = k_sin(ax, 0.0)
    cs = k_cos(ax, 0.0)
  else
    local n, hi, lo = reduce(ax)
    local ks, kc = k_sin(hi, lo), k_cos(hi, lo)
    if n == 0.0 then
      sn, cs = ks, kc
    elseif n == 1.0 then
      sn, cs = kc, -ks
    elseif n == 2.0 then
      sn, cs = -ks, -kc
    else
      sn, cs = -kc, ks
    end
  end
  if x < 0.0 then
    return -sn, cs
  end
  return sn, cs
end

-- ---- atan2 ---------------------------------------------------------------------------------

local PI_HI = 3.1415926535897931
local PI_LO = 1.2246467991473532e-16
local PIO4_HI = 0.78539816339744828
local PIO4_LO = 3.061616997868383e-17
local ATAN_HALF_HI = 0.46364760900080609
local ATAN_HALF_LO = 2.2698777452961687e-17

local A0 = -0.33333333333333331
local A1 = 0.1999999999999941
local A2 = -0.14285714285566806
local A3 = 0.11111111096645038
local A4 = -0.090909083556025921
local A5 = 0.07692285554889286
local A6 = -0.06666241923359964
local A7 = 0.058769464567550611
local A8 = -0.052166797393136559
local A9 = 0.04492259293193656
local A10 = -0.033128134256069586
local A11 = 0.014773184616983806

-- returns hi, lo
local function atan_kernel(t, tl)
  local u
  if t < 0.4375 then
    u = t
  elseif t < 0.6875 then
    u = ((2.0 * t - 1.0) + 2.0 * tl) / (2.0 + t)
  else
    u = ((t - 1.0) + tl) / (1.0 + t)
  end
  local z = u * u
  local p = z * (A0 + z * (A1 + z * (A2 + z * (A3 + z * (A4 + z * (A5 + z * (A6 + z * (A7
    + z * (A8 + z * (A9 + z * (A10 + z * A11)))))))))))
  if t < 0.4375 then
    return t, tl + t * p
  elseif t < 0.6875 then
    local hi, e = two_sum(ATAN_HALF_HI, u)
    return hi, e + (ATAN_HALF_LO + u * p)
  end
  local hi, e = two_sum(PIO4_HI, u)
  return hi, e + (PIO4_LO + u * p)
end

-- returns tl
local function ratio(num, den, t)
  if den > TWO512 then
    num = num * TWOM512
    den = den * TWOM512
  elseif den < TWOM512 then
    num = num * TWO512
    den = den * TWO512
  end
  local p, e = two_prod(t, den)
  return ((num - p) - e) / den
end

local function sat_atan2(y, x)
  y = y * 1.0
  x = x * 1.0
  if x ~= x or y ~= y then
    return x + y
  end
  local ax = abs(x)
  local ay = abs(y)
  local r
  if ay == 0.0 then
    if x < 0.0 or (x == 0.0 and 1.0 / x < 0.0) then
      r = PI_HI
    else
      r = 0.0
    end
    if 1.0 / y < 0.0 then
      return -r
    end
    return r
  end
  if ax == huge then
    if ay == huge then
      r = x > 0.0 and PIO4_HI or 3.0 * PIO4_HI
    else
      r = x > 0.0 and 0.0 or PI_HI
    end
  elseif ay == huge or ax == 0.0 then
    r = PIO2_HI
  elseif ay <= ax then
    local t = ay / ax
    if t < TWOM30 then
      if x > 0.0 then
        r = t
      else
        r = PI_HI - (t - PI_LO)
      end
    else
      local hi, lo = atan_kernel(t, ratio(ay, ax, t))
      if x > 0.0 then
        r = hi + lo
      else
        local s, e = two_sum(PI_HI, -hi)
        r = s + ((e + PI_LO) - lo)
      end
    end
  else
    local t = ax / ay
    if t < TWOM30 then
      if x > 0.0 then
        r = PIO2_HI - (t - PIO2_LO)
      else
        r = PIO2_HI + (t + PIO2_LO)
      end
    else
      local hi, lo = atan_kernel(t, ratio(ax, ay, t))
      if x > 0.0 then
        local s, e = two_sum(PIO2_HI, -hi)
        r = s + ((e + PIO2_LO) - lo)
      else
        local s, e = two_sum(PIO2_HI, hi)
        r = s + ((e + PIO2_LO) + lo)
      end
    end
  end
  if y < 0.0 then
    return -r
  end
  return r
end

-- ---- hypot ---------------------------------------------------------------------------------

local function sat_hypot(x, y)
  x = x * 1.0
  y = y * 1.0
  local a = abs(x)
  local b = abs(y)
  local k = 1.0
  if a == huge or b == huge then
    return huge
  end
  if a ~= a or b ~= b then
    return a + b
  end
  if a < b then
    a, b = b, a
  end
  if b == 0.0 or b < a * TWOM28 then
    return a
  end
  if a > TWO500 then
    k = TWO600
    a = a * TWOM600
    b = b * TWOM600
  elseif a < TWOM450 then
    k = TWOM700
    a = a * TWO700
    b = b * TWO700
  end
  local p, pe = two_prod(a, a)
  local q, qe = two_prod(b, b)
  local s, se = two_sum(p, q)
  local sl = se + (pe + qe)
  local h = sqrt(s)
  local hh, hl = two_prod(h, h)
  h = h + (((s - hh) - hl) + sl) / (2.0 * h)
  return h * k
end

return {
  sat_sin = sat_sin,
  sat_cos = sat_cos,
  sat_sincos = sat_sincos,
  sat_atan2 = sat_atan2,
  sat_hypot = sat_hypot,
}
