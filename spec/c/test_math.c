/*
 * test_math.c - the core's own sin, cos, sincos, atan2 and hypot (src/core/sat_math.c): the
 * exact values the shapes rely on (sin 0 = 0, cos 0 = 1, signed zeros), odd and even
 * symmetry bit for bit, accuracy within 1 ulp of the C library's long-double functions (an
 * independent oracle: x87's 64-bit significand, 2^-11 of a double's ulp) over random
 * arguments of every exponent and the hard cases, hypot without overflow or underflow, the
 * special values of C99's Annex F; and a polygon turned by 2 pi / n, n times, for n = 1 to
 * 1,000, comes back to its outline within a bound derived below.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"
#include "sat_math.h"

#define PI 3.14159265358979323846

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* |got - ref| in ulps of the double nearest ref */
static double ulps(double got, long double ref)
{
    int e;
    frexpl(fabsl(ref), &e);
    return (double)(fabsl((long double)got - ref) / ldexpl(1.0L, e - 53 < -1074 ? -1074 : e - 53));
}

/* random significand and sign, exponent uniform in [emin, emax] */
static double spread(ctest_rng *r, int emin, int emax)
{
    int e = emin + (int)(ctest_next(r) % (uint64_t)(emax - emin + 1));
    double x = ldexp(1.0 + (double)(ctest_next(r) >> 12) * 0x1p-52, e);
    return (ctest_next(r) & 1) ? -x : x;
}

static void test_exact_values(void)
{
    double s, c;
    ENSURE(same_bits(sat_sin(0.0), 0.0));
    ENSURE(same_bits(sat_sin(-0.0), -0.0));
    ENSURE(same_bits(sat_cos(0.0), 1.0));
    ENSURE(same_bits(sat_cos(-0.0), 1.0));
    sat_sincos(-0.0, &s, &c);
    ENSURE(same_bits(s, -0.0) && same_bits(c, 1.0));
    sat_sincos(0.0, &s, &c);
    ENSURE(same_bits(s, 0.0) && same_bits(c, 1.0));
    /* tiny: sin x = x, cos x = 1 (the true values round to them) */
    ENSURE(same_bits(sat_sin(1e-300), 1e-300) && same_bits(sat_sin(-0x1p-1074), -0x1p-1074));
    ENSURE(sat_cos(1e-10) == 1.0);
    /* not a number in, not a number out */
    ENSURE(isnan(sat_sin(INFINITY)) && isnan(sat_cos(-INFINITY)) && isnan(sat_sin(NAN)));
    sat_sincos(INFINITY, &s, &c);
    ENSURE(isnan(s) && isnan(c));
    /* hypot: exact on Pythagorean triples, anywhere in the range */
    ENSURE(sat_hypot(3, 4) == 5 && sat_hypot(-5, 12) == 13 && sat_hypot(0, -7) == 7);
    ENSURE(sat_hypot(3 * 0x1p-1074, 4 * 0x1p-1074) == 5 * 0x1p-1074);
    ENSURE(sat_hypot(3e-320, -4e-320) == 5e-320);
    ENSURE(sat_hypot(0x1p1000 * 3, 0x1p1000 * 4) == 0x1p1000 * 5);
    ENSURE(same_bits(sat_hypot(0.0, -0.0), 0.0) && same_bits(sat_hypot(-0.0, -0.0), 0.0));
    ENSURE(sat_hypot(DBL_MAX, DBL_MAX) == INFINITY); /* the true value overflows */
    ENSURE(sat_hypot(INFINITY, NAN) == INFINITY && sat_hypot(NAN, -INFINITY) == INFINITY);
    ENSURE(isnan(sat_hypot(NAN, 1)) && isnan(sat_hypot(0, NAN)));
}

/* C99 Annex F's atan2 on zeros and infinities: the C library's, bit for bit (these values
 * are specified exactly: 0, pi/4, pi/2, 3pi/4, pi rounded, with signs). */
static void test_atan2_special(void)
{
    const double v[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, 0x1p-1074, -DBL_MAX};
    int n = (int)(sizeof v / sizeof v[0]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double want = atan2(v[i], v[j]), got = sat_atan2(v[i], v[j]);
            ENSUREF(same_bits(got, want) || ulps(got, atan2l(v[i], v[j])) <= 0.5,
                    "atan2(%g, %g) = %.17g, C library %.17g", v[i], v[j], got, want);
        }
    ENSURE(isnan(sat_atan2(NAN, 1)) && isnan(sat_atan2(1, NAN)));
}

static void test_symmetry(void)
{
    ctest_rng r = {29};
    for (long i = 0; i < 200000; i++) {
        double x = spread(&r, -1074, 1023), y = spread(&r, -1074, 1023), s, c;
        ENSUREF(same_bits(sat_sin(-x), -sat_sin(x)), "sin(%.17g)", x);
        ENSUREF(same_bits(sat_cos(-x), sat_cos(x)), "cos(%.17g)", x);
        sat_sincos(x, &s, &c);
        ENSUREF(same_bits(s, sat_sin(x)) && same_bits(c, sat_cos(x)), "sincos(%.17g)", x);
        ENSUREF(same_bits(sat_atan2(-y, x), -sat_atan2(y, x)), "atan2(%.17g, %.17g)", y, x);
        ENSUREF(same_bits(sat_hypot(x, y), sat_hypot(y, -x)), "hypot(%.17g, %.17g)", x, y);
    }
}

/* Within 1 ulp of the long-double reference: random arguments of every exponent, dense in
 * [-2 pi, 2 pi], near multiples of pi/2 (small and huge), and the double nearest one. */
static void test_accuracy(void)
{
    ctest_rng r = {2026};
    double worst[4] = {0, 0, 0, 0};
    if (LDBL_MANT_DIG < 64) { /* long double no better than double: no oracle here */
        printf("  accuracy: not checked (long double has %d bits)\n", LDBL_MANT_DIG);
        return;
    }
    for (long i = 0; i < 100000; i++) {
        double x, y, k;
        switch (i % 4) {
        case 0: x = -2 * PI + 4 * PI * (double)(ctest_next(&r) >> 11) * 0x1p-53; break;
        case 1: x = spread(&r, -1074, 1023); break;
        case 2:
            k = (i % 8 == 2) ? (double)(ctest_next(&r) % (1u << 20))
                             : ldexp((double)(ctest_next(&r) >> 11), (int)(ctest_next(&r) % 900));
            x = (double)((long double)k * 1.5707963267948966192313216916397514L);
            break;
        default: x = spread(&r, -60, 30); break;
        }
        y = spread(&r, -1074, 1023);
        double es = ulps(sat_sin(x), sinl(x)), ec = ulps(sat_cos(x), cosl(x));
        double ea = ulps(sat_atan2(y, x), atan2l(y, x)), eh = ulps(sat_hypot(x, y), hypotl(x, y));
        ENSUREF(es <= 1.0, "sin(%.17g): %.3f ulps", x, es);
        ENSUREF(ec <= 1.0, "cos(%.17g): %.3f ulps", x, ec);
        ENSUREF(ea <= 1.0, "atan2(%.17g, %.17g): %.3f ulps", y, x, ea);
        ENSUREF(eh <= 1.0, "hypot(%.17g, %.17g): %.3f ulps", x, y, eh);
        worst[0] = fmax(worst[0], es), worst[1] = fmax(worst[1], ec);
        worst[2] = fmax(worst[2], ea), worst[3] = fmax(worst[3], eh);
    }
    {
        double hard = ldexp(6381956970095103.0, 797); /* about 2^-61 from a multiple of pi/2 */
        ENSURE(ulps(sat_sin(hard), sinl(hard)) <= 1.0 && ulps(sat_cos(hard), cosl(hard)) <= 1.0);
        ENSURE(ulps(sat_sin(1e300), sinl(1e300)) <= 1.0 && ulps(sat_cos(1e22), cosl(1e22)) <= 1.0);
        ENSURE(ulps(sat_sin(DBL_MAX), sinl(DBL_MAX)) <= 1.0);
    }
    printf("  accuracy: 100000 arguments, worst ulps sin %.3f cos %.3f atan2 %.3f hypot %.3f\n",
           worst[0], worst[1], worst[2], worst[3]);
}

/* A pentagon of radius R about c, turned n times by d = 2 pi / n (sat_shape_rotate, then
 * sat_shape_rotate_about a pivot p), for n = 1..1000: its vertices come back to where they
 * were within the bound below. Where it comes from: the angle is kept as the sum of the
 * turns, so after n turns it is 2 pi within n half-ulps of the sums (ulp 2^-50 in [4, 8)),
 * the rounding of d (n d 2^-53 = 2 pi 2^-53 in all) and of 2 pi itself: |angle - 2 pi| <=
 * n 2^-51 + 2^-50. A vertex at distance R from the centre moves R times that, plus a few
 * ulps of its coordinates (the sin and cos, the products, the offsets; 16 ulps of |c| + R
 * allowed). About a pivot the position is turned too, by the same angles: the centre's
 * distance from the pivot, D, counts as R does, plus 4 ulps of it a turn. */
static void test_rotation_full_turns(void)
{
    const double R = 10, cx = 3, cy = -7, px = -20, py = 15;
    double D = hypot(cx - px, cy - py), worst = 0.0, worst_about = 0.0;
    sat_vec pts[5], v0[5];
    for (int i = 0; i < 5; i++)
        pts[i] = orc_v(cx + R * cos(2 * PI * i / 5), cy + R * sin(2 * PI * i / 5));
    for (int n = 1; n <= 1000; n++) {
        for (int about = 0; about < 2; about++) {
            sat_status st;
            sat_shape *s = sat_polygon_new(pts, 5, &st);
            double d = 2 * PI / n, err = 0.0;
            double ulp_c = (fabs(cx) + fabs(cy) + R + (about ? 2 * D : 0)) * 0x1p-52;
            double bound = (R + (about ? D : 0)) * (n * 0x1p-51 + 0x1p-50) + 16 * ulp_c +
                           (about ? 4.0 * n * D * 0x1p-52 : 0.0);
            if (!s) {
                ENSURE(s != NULL);
                return;
            }
            for (int i = 0; i < 5; i++)
                v0[i] = sat_polygon_vertex(s, i);
            for (int k = 0; k < n; k++)
                ENSURE_EQ_INT(about ? sat_shape_rotate_about(s, d, px, py) : sat_shape_rotate(s, d),
                              SAT_OK);
            for (int i = 0; i < 5; i++) {
                sat_vec v = sat_polygon_vertex(s, i);
                err = fmax(err, hypot(v.x - v0[i].x, v.y - v0[i].y));
            }
            ENSUREF(err <= bound, "n = %d%s: a vertex is %.3g from where it was (bound %.3g)", n,
                    about ? " about a pivot" : "", err, bound);
            if (about)
                worst_about = fmax(worst_about, err / bound);
            else
                worst = fmax(worst, err / bound);
            sat_shape_free(s);
        }
    }
    printf("  2 pi in n turns, n = 1..1000: worst error %.2f of the bound (%.2f about a pivot)\n",
           worst, worst_about);
}

void run_math_tests(void)
{
    RUN_TEST(test_exact_values);
    RUN_TEST(test_atan2_special);
    RUN_TEST(test_symmetry);
    RUN_TEST(test_accuracy);
    RUN_TEST(test_rotation_full_turns);
}
