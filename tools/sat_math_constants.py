#!/usr/bin/env python3
# The constants of src/core/sat_math.c and lua/sat/pure/sat_math.lua, computed anew
# (python3 with mpmath; not part of the build). Prints them in the form both files write
# them: every double as a decimal of 17 significant digits (which C compilers and every
# Lua read back to the same bits), the bits of 2/pi as 24-bit integers.
#   python3 tools/sat_math_constants.py
# The polynomials are Chebyshev fits (mpmath.chebyfit) of the remainders of the Taylor
# series, in z = r^2, over the interval each kernel sees; the printed error is the fit's
# (before rounding the coefficients to doubles).
import mpmath as mp

mp.mp.prec = 2400


def d(v):
    """v rounded to the nearest double, as 17 significant digits."""
    return "%.17g" % float(mp.mpf(v))


def fit(name, f, hi, deg):
    with mp.workprec(200):
        poly, err = mp.chebyfit(f, [0, hi], deg + 1, error=True)
    print("%s: degree %d in z on [0, %s], fit error %.3g" % (name, deg, mp.nstr(hi, 6), err))
    for i, c in enumerate(poly[::-1]):
        print("  %s%d = %s" % (name, i, d(c)))


pi = mp.pi
# sin(r) = r + r^3 S(z), cos(r) = 1 - z/2 + z^2 C(z), atan(u) = u + u^3 A(z), z = r^2:
# |r| <= pi/4 (a little more: the nearest quadrant is found by a rounded product).
zr = (pi / 4) ** 2 * mp.mpf("1.002")
fit("S", lambda z: (mp.sin(mp.sqrt(z)) - mp.sqrt(z)) / (z * mp.sqrt(z)) if z else mp.mpf(-1) / 6, zr, 6)
fit("C", lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / (z * z) if z else mp.mpf(1) / 24, zr, 5)
fit("A", lambda z: (mp.atan(mp.sqrt(z)) - mp.sqrt(z)) / (z * mp.sqrt(z)) if z else mp.mpf(-1) / 3,
    (mp.mpf(7) / 16) ** 2, 11)

print("pi/2, pi, atan(1/2), pi/4 as double-doubles (hi, lo):")
for name, v in (("PIO2", pi / 2), ("PI", pi), ("ATAN_HALF", mp.atan(mp.mpf(1) / 2)), ("PIO4", pi / 4)):
    hi = mp.mpf(float(v))
    print("  %s_HI = %s  %s_LO = %s" % (name, d(hi), name, d(v - hi)))
print("  INV_PIO2 = %s" % d(2 / pi))

# pi/2 in four pieces for the reduction of |x| < 2^20: three of 33 bits (so that n * piece
# is exact for n < 2^20), the last rounded to 53 bits.
rest = pi / 2
first = None
for i, bits in enumerate((33, 33, 33)):
    scale = mp.mpf(2) ** (bits * (i + 1) - 1)
    piece = mp.floor(rest * scale) / scale
    print("  P%d = %s" % (i + 1, d(piece)))
    assert mp.mpf(float(piece)) == piece
    rest -= piece
    if first is None:
        first = rest
        print("  P1T = %s  (pi/2 - P1, rounded)" % d(rest))
print("  P4 = %s" % d(rest))

# 2/pi = sum over i >= 1 of B[i] 2^(-24 i)
digits = []
frac = 2 / pi
for _ in range(50):
    frac *= 2 ** 24
    k = int(mp.floor(frac))
    digits.append(k)
    frac -= k
print("2/pi in 24-bit digits:")
for i in range(0, len(digits), 6):
    print("  " + ", ".join("%d.0" % k for k in digits[i:i + 6]) + ",")
