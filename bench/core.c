/*
 * bench/core.c - nanoseconds per call of the C core's pair tests.
 *
 * Each case runs over a fixed, seeded table of random pairs (65,536 by default): every shape
 * randomly sized and rotated, b placed at a random direction and distance from a, the
 * distances scaled so that about half of the pairs overlap, the table shuffled, and the
 * shapes laid out in one block in the order they are called. A repetition times one pass
 * over the whole table with CLOCK_MONOTONIC; the figure is the median of the repetitions.
 * Every result feeds a sink that is printed, so no call can be dropped.
 *
 * Output: one JSON object per line, {"name": ..., "value": ..., "unit": ...}.
 * Usage: core [calls [repetitions [case|all [world|cold|hot|all]]]]  (to profile one part)
 */
#define _POSIX_C_SOURCE 200112L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sat.h"

#define PI 3.14159265358979323846

/* ---- deterministic random numbers (splitmix64) ---------------------------------------- */

static uint64_t rng_state = 0x5A7C0DE5EEDULL;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static double rng_range(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_next() >> 11) * (1.0 / 9007199254740992.0));
}

/* ---- shapes ----------------------------------------------------------------------------- */

typedef enum shape_kind { K_POLY8, K_BOX, K_CIRCLE } shape_kind;

static size_t kind_bytes(shape_kind k)
{
    size_t n = k == K_CIRCLE ? sat_circle_bytes() : sat_polygon_bytes(k == K_BOX ? 4 : 8);
    return (n + 63) & ~(size_t)63; /* each shape starts on its own cache line */
}

static void die(const char *what, sat_status st)
{
    fprintf(stderr, "bench/core: %s failed: %s\n", what, sat_status_message(st));
    exit(1);
}

/* A random shape of the kind at the origin, 8 to 32 units across, randomly rotated. */
static void build_shape(sat_shape *s, shape_kind k)
{
    sat_status st;
    if (k == K_CIRCLE) {
        st = sat_circle_init(s, 0.0, 0.0, rng_range(4.0, 16.0));
    } else if (k == K_BOX) {
        double w = rng_range(8.0, 32.0), h = rng_range(8.0, 32.0);
        sat_vec p[4] = {{0.0, 0.0}, {w, 0.0}, {w, h}, {0.0, h}};
        st = sat_polygon_init(s, p, 4);
    } else {
        /* Points on a circle at jittered angles: always strictly convex. */
        double r = rng_range(4.0, 16.0), a0 = rng_range(0.0, 2.0 * PI);
        sat_vec p[8];
        for (int i = 0; i < 8; i++) {
            double a = a0 + (i + rng_range(-0.3, 0.3)) * (2.0 * PI / 8.0);
            p[i].x = r * cos(a);
            p[i].y = r * sin(a);
        }
        st = sat_polygon_init(s, p, 8);
    }
    if (st != SAT_OK)
        die("building a shape", st);
    if (k != K_CIRCLE && (st = sat_shape_set_rotation(s, rng_range(0.0, 2.0 * PI))) != SAT_OK)
        die("rotating a shape", st);
}

/* ---- the pair table ----------------------------------------------------------------------- */

typedef struct pair_spec {
    uint64_t seed_a, seed_b; /* regenerate each shape from its own seed */
    double ax, ay;           /* a's position */
    double dir, dist;        /* b's direction from a, and distance as a fraction (see below) */
} pair_spec;

typedef struct table {
    int distinct, calls;
    shape_kind ka, kb;
    unsigned char *block;
    sat_shape **sa, **sb;       /* the distinct pairs */
    const sat_shape **a, **b;   /* the pair of each call, in call order */
    pair_spec *spec;
} table;

/* b's centre sits at dist * k * (bound_a + bound_b) from a's; k is chosen so that about
 * half of the pairs overlap. */
static void place(table *t, double k)
{
    for (int i = 0; i < t->distinct; i++) {
        sat_shape *a = t->sa[i], *b = t->sb[i];
        const pair_spec *p = &t->spec[i];
        double r = p->dist * k * (a->bound + b->bound);
        sat_status st = sat_shape_move_to(b, p->ax + r * cos(p->dir), p->ay + r * sin(p->dir));
        if (st != SAT_OK)
            die("placing a shape", st);
    }
}

static int count_distinct_overlaps(const table *t)
{
    int hits = 0;
    for (int i = 0; i < t->distinct; i++)
        hits += sat_test(t->sa[i], t->sb[i]);
    return hits;
}

static int count_call_overlaps(const table *t)
{
    int hits = 0;
    for (int i = 0; i < t->calls; i++)
        hits += sat_test(t->a[i], t->b[i]);
    return hits;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        die("allocating the table", SAT_ERR_NOMEM);
    return p;
}

/* `distinct` pairs, each with its own two shapes laid out in one block in call order, and
 * `calls` calls: with calls == distinct, every pair once in order (the cold table: each
 * call meets new memory); otherwise pairs drawn at random (the hot table: a small set that
 * stays in cache, in an order the branch predictor cannot learn). */
static void table_build(table *t, int distinct, int calls, shape_kind ka, shape_kind kb)
{
    size_t sa = kind_bytes(ka), sb = kind_bytes(kb);
    void *block = NULL;
    t->distinct = distinct;
    t->calls = calls;
    t->ka = ka;
    t->kb = kb;
    t->spec = xmalloc((size_t)distinct * sizeof *t->spec);
    t->sa = xmalloc((size_t)distinct * sizeof *t->sa);
    t->sb = xmalloc((size_t)distinct * sizeof *t->sb);
    t->a = xmalloc((size_t)calls * sizeof *t->a);
    t->b = xmalloc((size_t)calls * sizeof *t->b);
    if (posix_memalign(&block, 64, (size_t)distinct * (sa + sb)) != 0)
        die("allocating the table", SAT_ERR_NOMEM);
    t->block = block;

    for (int i = 0; i < distinct; i++) {
        pair_spec *p = &t->spec[i];
        p->seed_a = rng_next();
        p->seed_b = rng_next();
        p->ax = rng_range(-1000.0, 1000.0);
        p->ay = rng_range(-1000.0, 1000.0);
        p->dir = rng_range(0.0, 2.0 * PI);
        p->dist = rng_range(0.0, 1.0);
    }
    /* Shuffle (Fisher-Yates), then lay the shapes out in that order. */
    for (int i = distinct - 1; i > 0; i--) {
        int j = (int)(rng_next() % (uint64_t)(i + 1));
        pair_spec tmp = t->spec[i];
        t->spec[i] = t->spec[j];
        t->spec[j] = tmp;
    }
    for (int i = 0; i < distinct; i++) {
        sat_shape *a = (sat_shape *)(t->block + (size_t)i * (sa + sb));
        sat_shape *b = (sat_shape *)((unsigned char *)a + sa);
        uint64_t saved = rng_state;
        rng_state = t->spec[i].seed_a;
        build_shape(a, ka);
        rng_state = t->spec[i].seed_b;
        build_shape(b, kb);
        rng_state = saved;
        sat_status st = sat_shape_move_to(a, t->spec[i].ax, t->spec[i].ay);
        if (st != SAT_OK)
            die("placing a shape", st);
        t->sa[i] = a;
        t->sb[i] = b;
    }

    /* Bisect k for half of the pairs overlapping. */
    double lo = 0.0, hi = 4.0;
    for (int it = 0; it < 30; it++) {
        double mid = 0.5 * (lo + hi);
        place(t, mid);
        if (count_distinct_overlaps(t) > distinct / 2)
            lo = mid;
        else
            hi = mid;
    }
    place(t, hi);

    for (int i = 0; i < calls; i++) {
        int k = calls == distinct ? i : (int)(rng_next() % (uint64_t)distinct);
        t->a[i] = t->sa[k];
        t->b[i] = t->sb[k];
    }
}

static void table_free(table *t)
{
    free(t->spec);
    free(t->sa);
    free(t->sb);
    free(t->a);
    free(t->b);
    free(t->block);
}

/* ---- timing --------------------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double sink; /* printed at the end: every result is used */

static double pass_test(const table *t)
{
    int hits = 0;
    double t0 = now_ns();
    for (int i = 0; i < t->calls; i++)
        hits += sat_test(t->a[i], t->b[i]);
    double t1 = now_ns();
    sink += hits;
    return (t1 - t0) / t->calls;
}

static double pass_collide(const table *t)
{
    sat_result r;
    double acc = 0.0;
    double t0 = now_ns();
    for (int i = 0; i < t->calls; i++)
        if (sat_collide(t->a[i], t->b[i], &r))
            acc += r.overlap + r.normal.x + r.a_in_b;
    double t1 = now_ns();
    sink += acc;
    return (t1 - t0) / t->calls;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median_of(const table *t, double (*pass)(const table *), int reps)
{
    double v[64];
    if (reps > 64)
        reps = 64;
    pass(t); /* warm up: caches, branch history, page faults */
    for (int r = 0; r < reps; r++)
        v[r] = pass(t);
    qsort(v, (size_t)reps, sizeof v[0], cmp_double);
    return v[reps / 2];
}

static void emit(const char *name, double value, const char *unit)
{
    if (value == floor(value) && fabs(value) < 1e15)
        printf("{\"name\": \"%s\", \"value\": %.0f, \"unit\": \"%s\"}\n", name, value, unit);
    else
        printf("{\"name\": \"%s\", \"value\": %.4g, \"unit\": \"%s\"}\n", name, value, unit);
    fflush(stdout);
}

static void emitf(const char *fmt, const char *name, double value, const char *unit)
{
    char key[128];
    snprintf(key, sizeof key, fmt, name);
    emit(key, value, unit);
}

/* Three tables of `n` calls in random order, differing in how much memory they touch:
 * - world (the headline figure): over WORLD_PAIRS distinct pairs, 8,192 shapes, a few MB,
 *   in L3 as a game world's shapes are (a world of 10,000 8-gons is about 8 MB);
 * - cold: n distinct pairs, each with its own two shapes (over 100 MB for 8-gons), so that
 *   nearly every call waits for DRAM: what a pair test costs when nothing is cached;
 * - hot: over HOT_PAIRS pairs, in L2: the arithmetic alone. */
#define WORLD_PAIRS 4096
#define HOT_PAIRS 512

static void run_table(const char *name, const char *which, int distinct, shape_kind ka,
                      shape_kind kb, int n, int reps, int test)
{
    table t;
    char key[64];
    table_build(&t, distinct, n, ka, kb);
    snprintf(key, sizeof key, "c.%%s%s.", which);
    size_t len = strlen(key);
    snprintf(key + len, sizeof key - len, "distinct");
    emitf(key, name, distinct, "count");
    snprintf(key + len, sizeof key - len, "overlapping");
    emitf(key, name, count_call_overlaps(&t), "count");
    snprintf(key + len, sizeof key - len, "table_kb");
    emitf(key, name, (double)distinct * (double)(kind_bytes(ka) + kind_bytes(kb)) / 1024.0, "kb");
    if (test) {
        snprintf(key + len, sizeof key - len, "test");
        emitf(key, name, median_of(&t, pass_test, reps), "ns");
    }
    snprintf(key + len, sizeof key - len, "collide");
    emitf(key, name, median_of(&t, pass_collide, reps), "ns");
    table_free(&t);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 65536;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if (n < 1 || reps < 1) {
        fprintf(stderr, "usage: %s [calls [repetitions [case|all [world|cold|hot|all]]]]\n",
                argv[0]);
        return 2;
    }
    static const struct {
        const char *name;
        shape_kind a, b;
        int test;
    } cases[] = {
        {"poly8_poly8", K_POLY8, K_POLY8, 1},
        {"circle_poly8", K_CIRCLE, K_POLY8, 0},
        {"box_box", K_BOX, K_BOX, 0},
        {"circle_circle", K_CIRCLE, K_CIRCLE, 0},
    };
    const char *only = argc > 3 ? argv[3] : "all";
    const char *part = argc > 4 ? argv[4] : "all";
    int world = WORLD_PAIRS < n ? WORLD_PAIRS : n, hot = HOT_PAIRS < n ? HOT_PAIRS : n;
    emit("c.calls", n, "count");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(only, "all") != 0 && strcmp(only, cases[i].name) != 0)
            continue;
        const char *nm = cases[i].name;
        if (strcmp(part, "all") == 0 || strcmp(part, "world") == 0)
            run_table(nm, "", world, cases[i].a, cases[i].b, n, reps, cases[i].test);
        if (strcmp(part, "all") == 0 || strcmp(part, "cold") == 0)
            run_table(nm, ".cold", n, cases[i].a, cases[i].b, n, reps, cases[i].test);
        if (strcmp(part, "all") == 0 || strcmp(part, "hot") == 0)
            run_table(nm, ".hot", hot, cases[i].a, cases[i].b, n, reps, cases[i].test);
    }
    fprintf(stderr, "bench/core: sink %g\n", sink);
    return 0;
}
