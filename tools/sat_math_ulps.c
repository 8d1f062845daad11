/*
 * sat_math_ulps.c - the accuracy and the cost of src/core/sat_math.c (make math-ulps; not
 * part of make test: a few minutes of one core). Errors are in ulps of the double nearest
 * the true value, against glibc's long-double (x87, 64-bit significand) sinl, cosl,
 * atan2l and hypotl, whose own error (about 2^-63 relative) is 2^-11 of a double's ulp.
 * The C library's double functions are measured alike for comparison. Costs: ns per call
 * over arguments of [-2 pi, 2 pi] (hypot: of [-100, 100]), best of 5 runs.
 *   build/tools/sat_math_ulps [samples per range]   (default 1,000,000)
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sat_math.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * ((next() >> 11) * 0x1p-53); }
/* a double of random significand and sign, its exponent uniform in [emin, emax] */
static double spread(int emin, int emax)
{
    int e = emin + (int)(next() % (uint64_t)(emax - emin + 1));
    double m = 1.0 + (next() >> 12) * 0x1p-52;
    double x = ldexp(m, e);
    return (next() & 1) ? -x : x;
}

static double ulps(double got, long double ref)
{
    int e;
    long double u;
    if (isnan(got) || isnan((double)ref))
        return (isnan(got) && isnan((double)ref)) ? 0.0 : INFINITY;
    if (ref == 0.0L)
        return got == 0.0 ? 0.0 : INFINITY;
    frexpl(fabsl(ref), &e); /* |ref| in [2^(e-1), 2^e) */
    u = e - 53 < -1074 ? ldexpl(1.0L, -1074) : ldexpl(1.0L, e - 53);
    if (fabsl(ref) > (long double)DBL_MAX)
        return isinf(got) ? 0.0 : INFINITY;
    return (double)(fabsl((long double)got - ref) / u);
}

typedef struct stat {
    double max, sum, lib_max, lib_sum, worst_x, worst_y;
    long n;
} stat;

static void add(stat *s, double err, double lib_err, double x, double y)
{
    if (err > s->max) {
        s->max = err;
        s->worst_x = x;
        s->worst_y = y;
    }
    s->sum += err;
    if (lib_err > s->lib_max)
        s->lib_max = lib_err;
    s->lib_sum += lib_err;
    s->n++;
}

static void report(const char *fn, const char *range, const stat *s)
{
    printf("| %-6s | %-40s | %9ld | %.3f | %.4f | %.3f | %.4f |  %.17g %.17g\n", fn, range, s->n,
           s->max, s->sum / s->n, s->lib_max, s->lib_sum / s->n, s->worst_x, s->worst_y);
}

/* sin and cos of one argument, into both stats */
static void one(stat *ss, stat *sc, double x)
{
    double s, c;
    sat_sincos(x, &s, &c);
    if (s != sat_sin(x) || c != sat_cos(x) || (s == 0.0 && signbit(s) != signbit(sat_sin(x)))) {
        printf("sat_sincos(%.17g) differs from sat_sin, sat_cos\n", x);
        exit(1);
    }
    add(ss, ulps(s, sinl(x)), ulps(sin(x), sinl(x)), x, 0);
    add(sc, ulps(c, cosl(x)), ulps(cos(x), cosl(x)), x, 0);
}

static void sincos_ranges(long N)
{
    static const char *names[] = {"[-2pi, 2pi], uniform", "every exponent, -1074..1023",
                                  "nearest k pi/2 +-3 ulps, k < 2^20", "nearest k pi/2 +-3 ulps, k to 2^1000",
                                  "tiny: |x| < 2^-20, every exponent", "[2^19, 2^21] (either reduction)"};
    for (int r = 0; r < 6; r++) {
        stat ss = {0}, sc = {0};
        for (long i = 0; i < N; i++) {
            double x;
            switch (r) {
            case 0: x = uniform(-2 * M_PI, 2 * M_PI); break;
            case 1: x = spread(-1074, 1023); break;
            case 2:
            case 3: {
                long double k = r == 2 ? (long double)(next() % (1u << 20))
                                       : ldexpl((long double)(next() >> 11), (int)(next() % 948));
                x = (double)(k * 1.5707963267948966192313216916397514L);
                for (int d = (int)(next() % 7) - 3; d > 0; d--)
                    x = nextafter(x, INFINITY);
                for (int d = (int)(next() % 7) - 3; d < 0; d++)
                    x = nextafter(x, -INFINITY);
                if (next() & 1)
                    x = -x;
                break;
            }
            case 4: x = spread(-1074, -21); break;
            default: x = uniform(0x1p19, 0x1p21); break;
            }
            one(&ss, &sc, x);
        }
        report("sin", names[r], &ss);
        report("cos", names[r], &sc);
    }
    /* the double nearest a multiple of pi/2 (6381956970095103 2^797), and exact values */
    {
        stat ss = {0}, sc = {0};
        double hard[] = {ldexp(6381956970095103.0, 797), 0.0, -0.0, 1e300, -1e300, DBL_MAX,
                         -DBL_MAX, 0x1p-1074, 1.5707963267948966, 3.1415926535897931, 1e22};
        for (unsigned i = 0; i < sizeof hard / sizeof hard[0]; i++)
            one(&ss, &sc, hard[i]);
        report("sin", "hard cases (6381956970095103 2^797, ...)", &ss);
        report("cos", "hard cases (6381956970095103 2^797, ...)", &sc);
    }
}

static void atan2_ranges(long N)
{
    static const char *names[] = {"(sin t, cos t) r, t in [-pi, pi]", "both of every exponent",
                                  "|y/x| within 2^-3 of 1", "exponents -60..60",
                                  "subnormal and tiny", "ratio near 7/16 and 11/16"};
    for (int r = 0; r < 6; r++) {
        stat s = {0};
        for (long i = 0; i < N; i++) {
            double x, y;
            switch (r) {
            case 0: {
                double t = uniform(-M_PI, M_PI), m = spread(-30, 30);
                y = m * sin(t);
                x = m * cos(t);
                break;
            }
            case 1: y = spread(-1074, 1023); x = spread(-1074, 1023); break;
            case 2: x = spread(-30, 30); y = x * uniform(0.875, 1.125) * ((next() & 1) ? 1 : -1); break;
            case 3: y = spread(-60, 60); x = spread(-60, 60); break;
            case 4: y = spread(-1074, -1000); x = spread(-1074, -1000); break;
            default: {
                double t = (next() & 1) ? 0.4375 : 0.6875;
                x = spread(-10, 10);
                y = x * t * uniform(1 - 0x1p-20, 1 + 0x1p-20);
                if (next() & 1) { double w = x; x = y; y = w; }
                break;
            }
            }
            add(&s, ulps(sat_atan2(y, x), atan2l(y, x)), ulps(atan2(y, x), atan2l(y, x)), y, x);
        }
        report("atan2", names[r], &s);
    }
    {
        stat s = {0};
        double v[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, 0x1p-1074, -0x1p-1074, DBL_MAX, -DBL_MAX};
        int n = (int)(sizeof v / sizeof v[0]);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double got = sat_atan2(v[i], v[j]);
                long double ref = atan2l(v[i], v[j]);
                double e = ulps(got, ref);
                if (got == 0.0 && signbit(got) != signbit((double)ref))
                    e = INFINITY;
                add(&s, e, ulps(atan2(v[i], v[j]), ref), v[i], v[j]);
            }
        report("atan2", "zeros, infinities, extremes (all pairs)", &s);
    }
}

static void hypot_ranges(long N)
{
    static const char *names[] = {"both in [-100, 100]", "both of every exponent",
                                  "exponents within 30 of each other", "near-equal magnitudes",
                                  "huge: 2^900..2^1023", "tiny: subnormal..2^-900"};
    for (int r = 0; r < 6; r++) {
        stat s = {0};
        for (long i = 0; i < N; i++) {
            double x, y;
            switch (r) {
            case 0: x = uniform(-100, 100); y = uniform(-100, 100); break;
            case 1: x = spread(-1074, 1023); y = spread(-1074, 1023); break;
            case 2: {
                int e = (int)(next() % 2000) - 1000;
                x = spread(e, e + 30);
                y = spread(e, e + 30);
                break;
            }
            case 3: x = spread(-100, 100); y = x * uniform(0.99, 1.01); break;
            case 4: x = spread(900, 1023); y = spread(900, 1023); break;
            default: x = spread(-1074, -900); y = spread(-1074, -900); break;
            }
            add(&s, ulps(sat_hypot(x, y), hypotl(x, y)), ulps(hypot(x, y), hypotl(x, y)), x, y);
        }
        report("hypot", names[r], &s);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define TN 4096
static double args[TN], args2[TN];
static volatile double sink;

#define TIME(label, expr)                                                                  \
    do {                                                                                   \
        double best = 1e9;                                                                 \
        for (int run = 0; run < 5; run++) {                                                \
            double acc = 0.0, t0 = now();                                                  \
            for (int rep = 0; rep < 200; rep++)                                            \
                for (int i = 0; i < TN; i++)                                               \
                    acc += (expr);                                                         \
            double t = (now() - t0) / (200.0 * TN) * 1e9;                                  \
            sink = acc;                                                                    \
            if (t < best)                                                                  \
                best = t;                                                                  \
        }                                                                                  \
        printf("  %-28s %6.2f ns\n", label, best);                                         \
    } while (0)

static double sc_sum(double x)
{
    double s, c;
    sat_sincos(x, &s, &c);
    return s + c;
}

int main(int argc, char **argv)
{
    long N = argc > 1 ? atol(argv[1]) : 1000000;
    printf("| fn | arguments | samples | max ulps | mean ulps | libm max | libm mean |  worst argument\n");
    printf("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    sincos_ranges(N);
    atan2_ranges(N);
    hypot_ranges(N);
    for (int i = 0; i < TN; i++) {
        args[i] = uniform(-2 * M_PI, 2 * M_PI);
        args2[i] = uniform(-2 * M_PI, 2 * M_PI);
    }
    printf("cost per call:\n");
    TIME("sat_sin", sat_sin(args[i]));
    TIME("sin (libm)", sin(args[i]));
    TIME("sat_cos", sat_cos(args[i]));
    TIME("cos (libm)", cos(args[i]));
    TIME("sat_sincos", sc_sum(args[i]));
    TIME("sin + cos (libm)", sin(args[i]) + cos(args[i]));
    TIME("sat_atan2", sat_atan2(args[i], args2[i]));
    TIME("atan2 (libm)", atan2(args[i], args2[i]));
    for (int i = 0; i < TN; i++)
        args[i] *= 16, args2[i] *= 16;
    TIME("sat_hypot", sat_hypot(args[i], args2[i]));
    TIME("hypot (libm)", hypot(args[i], args2[i]));
    for (int i = 0; i < TN; i++)
        args[i] = uniform(1e6, 1e7);
    TIME("sat_sin, |x| in [1e6, 1e7]", sat_sin(args[i]));
    TIME("sin (libm), same", sin(args[i]));
    for (int i = 0; i < TN; i++)
        args[i] = spread(100, 1000);
    TIME("sat_sin, |x| in 2^100..2^1000", sat_sin(args[i]));
    TIME("sin (libm), same", sin(args[i]));
    return 0;
}
