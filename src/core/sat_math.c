/*
 * sat_math.c - sin, cos, atan2 and hypot of the project's own (header: sat_math.h).
 *
 * Built from + - * / and sqrt alone (each correctly rounded by IEEE 754 on every platform),
 * plus fabs, floor, frexp, ldexp and comparisons (exact), in one fixed order of operations:
 * so every platform, and the pure-Lua twin lua/sat/pure/sat_math.lua, which repeats these
 * operations one for one, gets the same bits. That needs no fused multiply-add: the
 * Makefile and the rockspec build with -ffp-contract=off. Accuracy and cost are measured in
 * docs/design.md, "Determinism". The constants are computed by tools/sat_math_constants.py.
 *
 * sin and cos: x = n pi/2 + r, |r| <= pi/4, with r as a double-double (hi + lo), then a
 * polynomial in r^2 for sin or cos of r (the quadrant n mod 4 chooses which and the sign).
 * The reduction is exact enough for every double: below 2^20, pi/2 in two pieces, or in four
 * when r is near 0 (Cody and Waite); above, the product of x with the bits of 2/pi, in
 * 24-bit digits whose products are exact (Payne and Hanek), of which only the fraction mod 4
 * is kept. The double nearest a multiple of pi/2 is about 2^-61 from it, which both keep to
 * more than 60 bits of r.
 */
#include "sat_math.h"

#include <math.h>

/* ---- exact sums and products of two doubles --------------------------------------------- */

/* 2^27 + 1: a * SPLIT splits a double into two halves of 26 bits (Veltkamp). */
#define SPLIT 134217729.0

/* a + b = *s + *e exactly (Knuth's TwoSum, any order of magnitude). */
static void two_sum(double a, double b, double *s, double *e)
{
    double t = a + b, bb = t - a;
    *e = (a - (t - bb)) + (b - bb);
    *s = t;
}

/* a * b = *p + *e exactly (Dekker), when neither overflows nor underflows. */
static void two_prod(double a, double b, double *p, double *e)
{
    double ta = SPLIT * a, ah = ta - (ta - a), al = a - ah;
    double tb = SPLIT * b, bh = tb - (tb - b), bl = b - bh;
    double q = a * b;
    *e = (((ah * bh - q) + ah * bl) + al * bh) + al * bl;
    *p = q;
}

/* ---- sin and cos --------------------------------------------------------------------------- */

#define PIO4 0.78539816339744828
#define INV_PIO2 0.63661977236758138
#define PIO2_HI 1.5707963267948966
#define PIO2_LO 6.123233995736766e-17
/* pi/2 = P1 + P2 + P3 + P4 (to 2^-156): three pieces of at most 33 bits, so that n * Pi is
 * exact for n < 2^20, and the rest */
#define P1 1.5707963267341256
#define P2 6.077100506303966e-11
#define P3 2.0222662487111665e-21
#define P4 8.4784276603688996e-32
#define P1T 6.0771005065061922e-11 /* pi/2 - P1, rounded */
/* 1.5 * 2^52: (v + ROUND) - ROUND is v rounded to an integer, for |v| < 2^51 */
#define ROUND 6755399441055744.0

/* sin(r) = r + r^3 S(r^2) and cos(r) = 1 - r^2/2 + r^4 C(r^2) on |r| <= pi/4 */
#define S0 -0.16666666666666666
#define S1 0.0083333333333333315
#define S2 -0.00019841269841265017
#define S3 2.7557319219301936e-06
#define S4 -2.5052106219528367e-08
#define S5 1.6058529573291737e-10
#define S6 -7.5865766484052611e-13
#define C0 0.041666666666666664
#define C1 -0.0013888888888887382
#define C2 2.480158729874308e-05
#define C3 -2.7557317260014708e-07
#define C4 2.0876143829213935e-09
#define C5 -1.1382456865840483e-11

/* 2/pi = sum of TWO_OVER_PI[i + 2] 2^(-24 i), i >= 1 (three zeros first: the digits of
 * index -2 to 0, which the reduction reads for the smallest arguments it takes). 50 digits
 * reach the bits that matter for the largest double. */
static const double TWO_OVER_PI[53] = {
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
};

#define TWO24 16777216.0            /* 2^24 */
#define TWOM24 5.9604644775390625e-08 /* 2^-24 */
#define DIGITS 8 /* columns of the product kept: the quadrant's and 7 of fraction (168 bits) */

/* sin(hi + lo), |hi + lo| <= pi/4 (a little more), lo tiny beside hi */
static double k_sin(double x, double y)
{
    double z = x * x, v = z * x;
    double r = S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * S6))));
    return x + (v * S0 + (v * (z * r) + (y - z * (0.5 * y))));
}

/* cos(hi + lo): 1 - z/2 is rounded, and its rounding error added back */
static double k_cos(double x, double y)
{
    double z = x * x, hz = 0.5 * z, w = 1.0 - hz;
    double r = z * (C0 + z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * C5)))));
    return w + (((1.0 - w) - hz) + (z * r - x * y));
}

/* ax in [2^20, inf): ax 2/pi mod 4 from the digits of 2/pi (Payne-Hanek). */
static int reduce_large(double ax, double *hi, double *lo)
{
    double col[DIGITS], g[DIGITS], x0, x1, x2, x3, t, q, n, h, l, e, p;
    int ex, k, m, neg = 0;
    /* ax = X0 + X1 2^24 + X2 2^48 + X3 2^72, times 2^(24 k): 24-bit digits, the lowest at
     * or below ax's last bit */
    frexp(ax, &ex);
    k = (int)floor((ex - 53) / 24.0);
    t = ldexp(ax, -24 * k);
    x3 = floor(t * 0x1p-72);
    t = t - x3 * 0x1p72;
    x2 = floor(t * 0x1p-48);
    t = t - x2 * 0x1p48;
    x1 = floor(t * TWOM24);
    x0 = t - x1 * TWO24;
    /* the columns of 2^(-24 m), m = 0..7, of ax times 2/pi (those of 2^24 and up are
     * multiples of 4): each a sum of four exact products of 48 bits */
    for (m = 0; m < DIGITS; m++) {
        const double *b = TWO_OVER_PI + 2 + m + k;
        col[m] = ((x0 * b[0] + x1 * b[1]) + x2 * b[2]) + x3 * b[3];
    }
    for (m = DIGITS - 1; m > 0; m--) { /* carries up: digits of 24 bits */
        double c = floor(col[m] * TWOM24);
        col[m] = col[m] - c * TWO24;
        col[m - 1] = col[m - 1] + c;
    }
    n = col[0] - 4.0 * floor(col[0] * 0.25);
    /* the nearest quadrant: a fraction of 1/2 or more counts as the next, and 1 - fraction
     * (its digits' complement) is the distance back to it */
    if (col[1] >= 0.5 * TWO24) {
        neg = 1;
        n = n + 1.0;
        for (m = 1; m < DIGITS; m++)
            g[m] = (TWO24 - 1.0) - col[m];
        g[DIGITS - 1] = g[DIGITS - 1] + 1.0;
    } else {
        for (m = 1; m < DIGITS; m++)
            g[m] = col[m];
    }
    /* the fraction as a double-double, from its last digit up, then times pi/2 */
    h = g[DIGITS - 1];
    l = 0.0;
    for (m = DIGITS - 2; m > 0; m--) {
        two_sum(g[m], h * TWOM24, &h, &e);
        l = e + l * TWOM24;
    }
    h = h * TWOM24;
    l = l * TWOM24;
    two_prod(h, PIO2_HI, &p, &e);
    e = e + (h * PIO2_LO + l * PIO2_HI);
    two_sum(p, e, hi, lo);
    if (neg) {
        *hi = -*hi;
        *lo = -*lo;
    }
    q = n - 4.0 * floor(n * 0.25);
    return (int)q;
}

/* ax in (pi/4, inf): ax = n pi/2 + (*hi + *lo), |*hi| <= pi/4 a little more; returns n mod 4. */
static int reduce(double ax, double *hi, double *lo)
{
    double n, a, w, y, h, l, h2, e, t;
    if (!(ax < 0x1p20))
        return reduce_large(ax, hi, lo);
    n = (ax * INV_PIO2 + ROUND) - ROUND;
    a = ax - n * P1; /* exact (n P1 is, and within a factor 2 of ax) */
    /* Nearly always: pi/2 as P1 + P1T is within n 2^-86, which is 2^-62 of r or less when
     * |r| >= n 2^-24; then r = y + (a - y - w), a - y being exact. */
    w = n * P1T;
    y = a - w;
    if (fabs(y) >= n * 0x1p-24) {
        *hi = y;
        *lo = (a - y) - w;
    } else { /* r close to 0: pi/2 in four pieces, to 2^-156 */
        two_sum(a, -(n * P2), &h, &l);
        two_sum(h, -(n * P3), &h2, &e);
        t = (l + e) - n * P4;
        two_sum(h2, t, hi, lo);
    }
    return (int)n & 3;
}

/* The sin of ax >= 0 (finite), or its cos. */
static double sin_abs(double ax, int cosine)
{
    double hi, lo;
    int n;
    if (ax <= PIO4)
        return cosine ? k_cos(ax, 0.0) : k_sin(ax, 0.0);
    n = (reduce(ax, &hi, &lo) + cosine) & 3;
    switch (n) {
    case 0: return k_sin(hi, lo);
    case 1: return k_cos(hi, lo);
    case 2: return -k_sin(hi, lo);
    default: return -k_cos(hi, lo);
    }
}

double sat_sin(double x)
{
    double ax = fabs(x), s;
    if (!(ax < HUGE_VAL))
        return x - x; /* NaN */
    if (ax < 0x1p-27)
        return x; /* within half an ulp; keeps the sign of a zero */
    s = sin_abs(ax, 0);
    return x < 0.0 ? -s : s;
}

double sat_cos(double x)
{
    double ax = fabs(x);
    if (!(ax < HUGE_VAL))
        return x - x;
    if (ax < 0x1p-27)
        return 1.0;
    return sin_abs(ax, 1);
}

void sat_sincos(double x, double *s, double *c)
{
    double ax = fabs(x), hi, lo, sn, cs;
    int n;
    if (!(ax < HUGE_VAL)) {
        *s = *c = x - x;
        return;
    }
    if (ax < 0x1p-27) {
        *s = x;
        *c = 1.0;
        return;
    }
    if (ax <= PIO4) {
        sn = k_sin(ax, 0.0);
        cs = k_cos(ax, 0.0);
    } else {
        double ks, kc;
        n = reduce(ax, &hi, &lo);
        ks = k_sin(hi, lo);
        kc = k_cos(hi, lo);
        switch (n) {
        case 0: sn = ks; cs = kc; break;
        case 1: sn = kc; cs = -ks; break;
        case 2: sn = -ks; cs = -kc; break;
        default: sn = -kc; cs = ks; break;
        }
    }
    *s = x < 0.0 ? -sn : sn;
    *c = cs;
}

/* ---- atan2 --------------------------------------------------------------------------------- */

#define PI_HI 3.1415926535897931
#define PI_LO 1.2246467991473532e-16
#define PIO4_HI 0.78539816339744828
#define PIO4_LO 3.061616997868383e-17
#define ATAN_HALF_HI 0.46364760900080609
#define ATAN_HALF_LO 2.2698777452961687e-17

/* atan(u) = u + u^3 A(u^2) on |u| <= 7/16 */
#define A0 -0.33333333333333331
#define A1 0.1999999999999941
#define A2 -0.14285714285566806
#define A3 0.11111111096645038
#define A4 -0.090909083556025921
#define A5 0.07692285554889286
#define A6 -0.06666241923359964
#define A7 0.058769464567550611
#define A8 -0.052166797393136559
#define A9 0.04492259293193656
#define A10 -0.033128134256069586
#define A11 0.014773184616983806

/* atan(t + tl) = *hi + *lo for t in [2^-30, 1], tl tiny beside t: on [0, 7/16) directly, on
 * [7/16, 11/16) as atan(1/2) + atan(u), above as atan(1) + atan(u), |u| <= 0.19. */
static void atan_kernel(double t, double tl, double *hi, double *lo)
{
    double u, z, p, e;
    if (t < 0.4375)
        u = t;
    else if (t < 0.6875)
        u = ((2.0 * t - 1.0) + 2.0 * tl) / (2.0 + t); /* 2t - 1 is exact */
    else
        u = ((t - 1.0) + tl) / (1.0 + t); /* t - 1 is exact */
    z = u * u;
    p = z * (A0 + z * (A1 + z * (A2 + z * (A3 + z * (A4 + z * (A5 + z * (A6 + z * (A7 +
        z * (A8 + z * (A9 + z * (A10 + z * A11)))))))))));
    if (t < 0.4375) {
        *hi = t;
        *lo = tl + t * p;
    } else if (t < 0.6875) {
        two_sum(ATAN_HALF_HI, u, hi, &e);
        *lo = e + (ATAN_HALF_LO + u * p);
    } else {
        two_sum(PIO4_HI, u, hi, &e);
        *lo = e + (PIO4_LO + u * p);
    }
}

/* num / den = *t + *tl, num <= den both > 0, *t >= 2^-30 given: the remainder of a
 * correctly rounded quotient is exact, computed in a range where the products are. */
static void ratio(double num, double den, double t, double *tl)
{
    double p, e;
    if (den > 0x1p512) {
        num = num * 0x1p-512;
        den = den * 0x1p-512;
    } else if (den < 0x1p-512) {
        num = num * 0x1p512;
        den = den * 0x1p512;
    }
    two_prod(t, den, &p, &e);
    *tl = ((num - p) - e) / den;
}

double sat_atan2(double y, double x)
{
    double ax = fabs(x), ay = fabs(y), r, t, tl, hi, lo, s, e;
    if (isnan(x) || isnan(y))
        return x + y;
    if (ay == 0.0) { /* +-0, or +-pi from the left (x < 0 or x = -0) */
        r = (x < 0.0 || (x == 0.0 && signbit(x))) ? PI_HI : 0.0;
        return signbit(y) ? -r : r;
    }
    if (ax == HUGE_VAL)
        r = ay == HUGE_VAL ? (x > 0.0 ? PIO4_HI : 3.0 * PIO4_HI) : (x > 0.0 ? 0.0 : PI_HI);
    else if (ay == HUGE_VAL || ax == 0.0)
        r = PIO2_HI;
    else if (ay <= ax) { /* |angle| <= pi/4 from the x axis */
        t = ay / ax;
        if (t < 0x1p-30) {
            r = x > 0.0 ? t : PI_HI - (t - PI_LO);
        } else {
            ratio(ay, ax, t, &tl);
            atan_kernel(t, tl, &hi, &lo);
            if (x > 0.0) {
                r = hi + lo;
            } else {
                two_sum(PI_HI, -hi, &s, &e);
                r = s + ((e + PI_LO) - lo);
            }
        }
    } else { /* within pi/4 of the y axis: pi/2 -+ atan(|x / y|) */
        t = ax / ay;
        if (t < 0x1p-30) {
            r = x > 0.0 ? PIO2_HI - (t - PIO2_LO) : PIO2_HI + (t + PIO2_LO);
        } else {
            ratio(ax, ay, t, &tl);
            atan_kernel(t, tl, &hi, &lo);
            if (x > 0.0) {
                two_sum(PIO2_HI, -hi, &s, &e);
                r = s + ((e + PIO2_LO) - lo);
            } else {
                two_sum(PIO2_HI, hi, &s, &e);
                r = s + ((e + PIO2_LO) + lo);
            }
        }
    }
    return y < 0.0 ? -r : r;
}

/* ---- hypot --------------------------------------------------------------------------------- */

double sat_hypot(double x, double y)
{
    double a = fabs(x), b = fabs(y), k = 1.0, p, pe, q, qe, s, se, sl, h, hh, hl;
    if (a == HUGE_VAL || b == HUGE_VAL)
        return HUGE_VAL;
    if (isnan(a) || isnan(b))
        return a + b;
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    /* b = 0, or too small to change a: sqrt(a^2 + b^2) < a (1 + 2^-57) rounds to a */
    if (b == 0.0 || b < a * 0x1p-28)
        return a;
    /* now b >= a 2^-28: a rescale by a power of two (exact) puts both where the squares and
     * their exact parts are normal doubles */
    if (a > 0x1p500) {
        k = 0x1p600;
        a = a * 0x1p-600;
        b = b * 0x1p-600;
    } else if (a < 0x1p-450) {
        k = 0x1p-700;
        a = a * 0x1p700;
        b = b * 0x1p700;
    }
    two_prod(a, a, &p, &pe);
    two_prod(b, b, &q, &qe);
    two_sum(p, q, &s, &se);
    sl = se + (pe + qe); /* a^2 + b^2 = s + sl to about 2^-100 */
    h = sqrt(s);
    /* one Newton step on the double-double: h + (s + sl - h^2) / 2h, h^2 exact */
    two_prod(h, h, &hh, &hl);
    h = h + (((s - hh) - hl) + sl) / (2.0 * h);
    return h * k;
}
