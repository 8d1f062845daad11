/*
 * bench/core.c - nanoseconds per call of the C core's pair tests.
 *
 * Each case (poly8/poly8, circle/poly8, box/box, circle/circle, capsule/poly8,
 * capsule/capsule, segment/poly8, rock8/poly8: a concave rock of 8 parts) is timed over three fixed, seeded tables of random pairs.
 * Every shape is randomly sized (8 to 32 units across) and rotated; about half of the pairs
 * overlap; pairs are called in shuffled order.
 *
 * - world (the headline figure, the basis of the targets): `calls` (65,536) DISTINCT pairs
 *   drawn at random, without repeats, from a pool of WORLD_SHAPES (8,192) shapes (a mixed
 *   case draws each pair's two shapes from its own half of the pool), so each shape is in
 *   about 16 pairs, as in a dense game world. The shapes' centres are uniform in a disk whose
 *   radius is bisected until exactly half of the pairs overlap (the disk only sets how far
 *   apart each pair's two shapes are). The pool is sized to stay in L3 but not in L2 (the
 *   report prints its size); each call is one pass's only call of its pair.
 * - cold: `calls` pairs, each with its own two shapes, laid out in call order: nearly every
 *   call waits for DRAM.
 * - hot: HOT_PAIRS (512) pairs, called `calls` times in random order: in L2, the arithmetic
 *   alone.
 * In cold and hot, b sits at a random direction and distance from a, the distances scaled
 * so that half of the pairs overlap.
 *
 * A repetition times one pass over a whole table with CLOCK_MONOTONIC; the figure is the
 * median of the repetitions. Every result feeds a sink that is printed, so no call can be
 * dropped.
 *
 * c.rotate.<kind> times sat_shape_rotate on boxes, poly8s, capsules and rock8s (the cost of a
 * turn: its sine and cosine, the vertices and normals recomputed).
 *
 * The poly8 pairs also time sat_contacts (.contacts) and sat_sweep_contact (.sweep: a moving
 * by its offset to b, onto b's position, so that every pair meets on the way or overlaps at
 * the start).
 *
 * Output: one JSON object per line, {"name": ..., "value": ..., "unit": ...}: per case and
 * table the figures (.test, .collide, .contacts, .sweep, in ns) and what the table is
 * (.distinct pairs, .shapes, .overlapping calls, .table_kb of shapes).
 * - pool: poly8 pairs drawn from pools of 64, 8,192 and 65,536 shapes, each shape its own
 *   allocation as in the binding (c.pool<N>.test / .collide; see pool_build).
 * - compound: overlapping stars of 16 to 256 spikes and crossing 100-segment zigzag chains,
 *   ms per collide, contacts and sweep, and sat_concave on spiral bands of 8,000 to 100,000
 *   points (c.compound.*, c.concave.*; see run_compounds).
 * Usage: bench-core [calls [repetitions [case|pool|rotate|compound|all [world|cold|hot|pool|all]]]]
 *        bench-core calls passes sim-test|sim-collide shapes
 * The second form builds the pool of `shapes` as above and makes `passes` untimed passes of
 * sat_test (or sat_collide) over its calls, for a cache simulator to count what they read
 * (bench/run.sh: cachegrind, with the passes 1 and 3, so that the difference is 2 passes).
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

typedef enum shape_kind { K_POLY8, K_BOX, K_CIRCLE, K_CAPSULE, K_SEGMENT, K_ROCK8 } shape_kind;

static void die(const char *what, sat_status st)
{
    fprintf(stderr, "bench/core: %s failed: %s\n", what, sat_status_message(st));
    exit(1);
}

/* The concave rock of 8 convex parts, 1 across its arms: a six-armed star (ear clipping and
 * Hertel-Mehlhorn give 8 parts), built once; each rock is a scaled, turned copy. */
static const sat_shape *rock8(void)
{
    static sat_shape *rock;
    if (!rock) {
        sat_vec p[12];
        sat_status st;
        for (int i = 0; i < 12; i++) {
            double a = PI * i / 6.0, r = i % 2 == 0 ? 1.0 : 0.5;
            p[i].x = r * cos(a);
            p[i].y = r * sin(a);
        }
        rock = sat_concave_new(p, 12, &st);
        if (!rock)
            die("building the rock", st);
        if (rock->count != 8)
            die("building a rock of 8 parts", SAT_ERR_NO_PARTS);
    }
    return rock;
}

static size_t kind_bytes(shape_kind k)
{
    size_t n = k == K_ROCK8     ? sat_shape_bytes(rock8())
               : k == K_CIRCLE  ? sat_circle_bytes()
               : k >= K_CAPSULE ? sat_segment_bytes()
                                : sat_polygon_bytes(k == K_BOX ? 4 : 8);
    return (n + 63) & ~(size_t)63; /* each shape starts on its own cache line */
}

/* Points on a circle at jittered angles: always strictly convex. */
static void poly8_points(sat_vec p[8])
{
    double r = rng_range(4.0, 16.0), a0 = rng_range(0.0, 2.0 * PI);
    for (int i = 0; i < 8; i++) {
        double a = a0 + (i + rng_range(-0.3, 0.3)) * (2.0 * PI / 8.0);
        p[i].x = r * cos(a);
        p[i].y = r * sin(a);
    }
}

/* A random shape of the kind at the origin, 8 to 32 units across, randomly rotated. */
static void build_shape(sat_shape *s, shape_kind k)
{
    sat_status st;
    if (k == K_ROCK8) {
        sat_shape_copy(s, rock8());
        st = sat_shape_scale(s, rng_range(4.0, 16.0));
    } else if (k == K_CIRCLE) {
        st = sat_circle_init(s, 0.0, 0.0, rng_range(4.0, 16.0));
    } else if (k == K_CAPSULE) {
        /* half-length and radius 2 to 8: 8 to 32 from end to end */
        double h = rng_range(2.0, 8.0), r = rng_range(2.0, 8.0);
        st = sat_capsule_init(s, -h, 0.0, h, 0.0, r);
    } else if (k == K_SEGMENT) {
        double h = rng_range(4.0, 16.0);
        st = sat_segment_init(s, -h, 0.0, h, 0.0);
    } else if (k == K_BOX) {
        double w = rng_range(8.0, 32.0), h = rng_range(8.0, 32.0);
        sat_vec p[4] = {{0.0, 0.0}, {w, 0.0}, {w, h}, {0.0, h}};
        st = sat_polygon_init(s, p, 4);
    } else {
        sat_vec p[8];
        poly8_points(p);
        st = sat_polygon_init(s, p, 8);
    }
    if (st != SAT_OK)
        die("building a shape", st);
    if (k != K_CIRCLE && (st = sat_shape_set_rotation(s, rng_range(0.0, 2.0 * PI))) != SAT_OK)
        die("rotating a shape", st);
}

/* ---- the pair tables ---------------------------------------------------------------------- */

typedef struct pair_spec {
    uint64_t seed_a, seed_b; /* regenerate each shape from its own seed */
    double ax, ay;           /* a's position */
    double dir, dist;        /* b's direction from a, and distance as a fraction (see below) */
} pair_spec;

typedef struct table {
    int distinct, calls, shapes;
    size_t bytes;               /* of the shapes' block */
    unsigned char *block;
    sat_shape **sa, **sb;       /* the distinct pairs */
    const sat_shape **a, **b;   /* the pair of each call, in call order */
    pair_spec *spec;            /* cold and hot: how each pair is placed */
    sat_shape **pool;           /* world: the shapes */
    sat_vec **blocks;           /* pools: the shapes' blocks for their local points */
    sat_vec *unit;              /* world: each shape's centre in the unit disk */
    sat_vec *v;                 /* the sweep's motion of each call */
} table;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("allocating the table", SAT_ERR_NOMEM);
    return p;
}

static void move_or_die(sat_shape *s, double x, double y)
{
    sat_status st = sat_shape_move_to(s, x, y);
    if (st != SAT_OK)
        die("placing a shape", st);
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

/* Places the shapes for the scale k; the overlapping pairs only grow as k shrinks. */
typedef void (*place_fn)(table *t, double k);

/* Bisects k for half of the distinct pairs overlapping; hi is a k with fewer than half. */
static void bisect(table *t, place_fn place, double hi)
{
    double lo = 0.0;
    for (int it = 0; it < 40; it++) {
        double mid = 0.5 * (lo + hi);
        place(t, mid);
        if (count_distinct_overlaps(t) > t->distinct / 2)
            lo = mid;
        else
            hi = mid;
    }
    place(t, hi);
}

static void alloc_table(table *t, int distinct, int calls, int shapes, size_t bytes)
{
    void *block = NULL;
    memset(t, 0, sizeof *t);
    t->distinct = distinct;
    t->calls = calls;
    t->shapes = shapes;
    t->bytes = bytes;
    t->sa = xmalloc((size_t)distinct * sizeof *t->sa);
    t->sb = xmalloc((size_t)distinct * sizeof *t->sb);
    t->a = xmalloc((size_t)calls * sizeof *t->a);
    t->b = xmalloc((size_t)calls * sizeof *t->b);
    if (posix_memalign(&block, 64, bytes) != 0)
        die("allocating the table", SAT_ERR_NOMEM);
    t->block = block;
}

/* Builds a shape from its own seed, leaving the main sequence where it was. */
static void build_seeded(sat_shape *s, shape_kind k, uint64_t seed)
{
    uint64_t saved = rng_state;
    rng_state = seed;
    build_shape(s, k);
    rng_state = saved;
}

/* -- cold and hot: each pair its own two shapes -- */

/* b's centre sits at dist * k * (bound_a + bound_b) from a's. */
static void place_pairs(table *t, double k)
{
    for (int i = 0; i < t->distinct; i++) {
        sat_shape *a = t->sa[i], *b = t->sb[i];
        const pair_spec *p = &t->spec[i];
        double r = p->dist * k * (a->bound + b->bound);
        move_or_die(b, p->ax + r * cos(p->dir), p->ay + r * sin(p->dir));
    }
}

/* `distinct` pairs, each with its own two shapes laid out in one block in call order, and
 * `calls` calls: with calls == distinct, every pair once in order (the cold table: each
 * call meets new memory); otherwise pairs drawn at random (the hot table: a small set that
 * stays in cache, in an order the branch predictor cannot learn). */
static void pairs_build(table *t, int distinct, int calls, shape_kind ka, shape_kind kb)
{
    size_t sa = kind_bytes(ka), sb = kind_bytes(kb);
    alloc_table(t, distinct, calls, 2 * distinct, (size_t)distinct * (sa + sb));
    t->spec = xmalloc((size_t)distinct * sizeof *t->spec);

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
        build_seeded(a, ka, t->spec[i].seed_a);
        build_seeded(b, kb, t->spec[i].seed_b);
        move_or_die(a, t->spec[i].ax, t->spec[i].ay);
        t->sa[i] = a;
        t->sb[i] = b;
    }
    bisect(t, place_pairs, 4.0);

    for (int i = 0; i < calls; i++) {
        int k = calls == distinct ? i : (int)(rng_next() % (uint64_t)distinct);
        t->a[i] = t->sa[k];
        t->b[i] = t->sb[k];
    }
}

/* -- world: distinct pairs drawn from one pool of shapes -- */

#define WORLD_SHAPES 8192

/* Every shape's centre at k times its point in the unit disk. */
static void place_pool(table *t, double k)
{
    for (int i = 0; i < t->shapes; i++)
        move_or_die(t->pool[i], k * t->unit[i].x, k * t->unit[i].y);
}

/* Open addressing over pair keys, to draw pairs without repeats. */
static int seen_insert(uint64_t *set, uint64_t mask, uint64_t key)
{
    uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ULL;
    for (uint64_t i = h >> 20;; i++) {
        uint64_t *slot = &set[i & mask];
        if (*slot == 0) {
            *slot = key + 1;
            return 1;
        }
        if (*slot == key + 1)
            return 0;
    }
}

/* `pairs` distinct pairs from a pool of WORLD_SHAPES shapes: for one kind any two different
 * shapes of the pool (in either order), for two kinds one shape of each half. The pool is
 * laid out in one block in the order it was built, unrelated to the calls' order. */
static void world_build(table *t, int pairs, shape_kind ka, shape_kind kb)
{
    int shapes = WORLD_SHAPES, na = ka == kb ? shapes : shapes / 2, nb = shapes - na;
    double possible = ka == kb ? 0.5 * na * (na - 1.0) : (double)na * nb;
    size_t sa = kind_bytes(ka), sb = kind_bytes(kb);
    if (pairs > possible / 4) {
        fprintf(stderr, "bench/core: at most %.0f calls for the world table\n", possible / 4);
        exit(2);
    }
    alloc_table(t, pairs, pairs, shapes, (size_t)na * sa + (size_t)nb * sb);
    t->pool = xmalloc((size_t)shapes * sizeof *t->pool);
    t->unit = xmalloc((size_t)shapes * sizeof *t->unit);
    for (int i = 0; i < shapes; i++) {
        sat_shape *s = (sat_shape *)(t->block + (i < na ? (size_t)i * sa
                                                        : (size_t)na * sa + (size_t)(i - na) * sb));
        build_seeded(s, i < na ? ka : kb, rng_next());
        double r = sqrt(rng_range(0.0, 1.0)), a = rng_range(0.0, 2.0 * PI);
        t->unit[i].x = r * cos(a);
        t->unit[i].y = r * sin(a);
        t->pool[i] = s;
    }

    uint64_t size = 1;
    while (size < 4 * (uint64_t)pairs)
        size *= 2;
    uint64_t *seen = xmalloc(size * sizeof *seen);
    memset(seen, 0, size * sizeof *seen);
    for (int i = 0; i < pairs;) {
        int x, y;
        uint64_t key;
        if (ka == kb) {
            x = (int)(rng_next() % (uint64_t)na);
            y = (int)(rng_next() % (uint64_t)na);
            if (x == y)
                continue;
            key = x < y ? (uint64_t)x * (uint64_t)shapes + (uint64_t)y
                        : (uint64_t)y * (uint64_t)shapes + (uint64_t)x;
        } else {
            x = (int)(rng_next() % (uint64_t)na);
            y = na + (int)(rng_next() % (uint64_t)nb);
            key = (uint64_t)x * (uint64_t)shapes + (uint64_t)y;
        }
        if (!seen_insert(seen, size - 1, key))
            continue;
        t->sa[i] = t->pool[x];
        t->sb[i] = t->pool[y];
        t->a[i] = t->sa[i];
        t->b[i] = t->sb[i];
        i++;
    }
    free(seen);
    /* In a disk of radius 1e4, far fewer than half of the pairs come within reach. */
    bisect(t, place_pool, 1e4);
}

static void table_free(table *t)
{
    free(t->v);
    free(t->spec);
    free(t->pool);
    free(t->unit);
    free(t->sa);
    free(t->sb);
    free(t->a);
    free(t->b);
    free(t->block);
}

/* -- pools: poly8 shapes each in its own allocation, as the binding allocates them -- */

/* A poly8 as the binding makes one (see build_shape, which draws the same numbers): lean, in
 * its own malloc of exactly sat_polygon_lean_bytes(8), and, being turned, given a block of
 * its own for its local points (the binding's is a userdata; a pair test never reads it). */
static sat_shape *pool_shape(uint64_t seed, sat_vec **block)
{
    uint64_t saved = rng_state;
    sat_vec p[8];
    sat_outline o;
    sat_status st;
    rng_state = seed;
    poly8_points(p);
    if ((st = sat_polygon_validate(p, 8, p, &o)) != SAT_OK)
        die("building a shape", st);
    sat_shape *s = xmalloc(sat_polygon_lean_bytes(o.count));
    sat_polygon_build_lean(s, &o);
    *block = xmalloc(sat_shape_local_bytes(s));
    sat_shape_give_local(s, *block);
    if ((st = sat_shape_set_rotation(s, rng_range(0.0, 2.0 * PI))) != SAT_OK)
        die("rotating a shape", st);
    rng_state = saved;
    return s;
}

/* `calls` pairs drawn at random (repeats allowed) from a pool of `shapes` poly8s, each from
 * its own malloc (pool_shape), in an order unrelated to the calls: as Lua userdata,
 * scattered over the heap. The centres sit in a disk bisected for half of the
 * calls overlapping. The figure that matters is how the time per call grows with the pool
 * (64 in L1, 8,192 in L2/L3, 65,536 past L3), which is what a shape's size decides. */
static void pool_build(table *t, int shapes, int calls, int calib)
{
    alloc_table(t, calls, calls, shapes, 0);
    t->bytes = (size_t)shapes * sat_polygon_lean_bytes(8);
    t->pool = xmalloc((size_t)shapes * sizeof *t->pool);
    t->blocks = xmalloc((size_t)shapes * sizeof *t->blocks);
    t->unit = xmalloc((size_t)shapes * sizeof *t->unit);
    for (int i = 0; i < shapes; i++) {
        t->pool[i] = pool_shape(rng_next(), &t->blocks[i]);
        double r = sqrt(rng_range(0.0, 1.0)), a = rng_range(0.0, 2.0 * PI);
        t->unit[i].x = r * cos(a);
        t->unit[i].y = r * sin(a);
    }
    for (int i = 0; i < calls; i++) {
        int x = (int)(rng_next() % (uint64_t)shapes), y;
        do
            y = (int)(rng_next() % (uint64_t)shapes);
        while (y == x);
        t->sa[i] = t->pool[x];
        t->sb[i] = t->pool[y];
        t->a[i] = t->sa[i];
        t->b[i] = t->sb[i];
    }
    /* calib > 0: the spread is found from the first calib pairs only (the simulated runs,
     * where the search would cost more than the passes) */
    int distinct = t->distinct;
    if (calib > 0 && calib < distinct)
        t->distinct = calib;
    bisect(t, place_pool, 1e4);
    t->distinct = distinct;
}

static void pool_free(table *t)
{
    for (int i = 0; i < t->shapes; i++) {
        free(t->pool[i]);
        free(t->blocks[i]);
    }
    free(t->blocks);
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

static double pass_contacts(const table *t)
{
    sat_vec p[2];
    double acc = 0.0;
    double t0 = now_ns();
    for (int i = 0; i < t->calls; i++)
        acc += sat_contacts(t->a[i], t->b[i], p) ? p[0].x : 0.0;
    double t1 = now_ns();
    sink += acc;
    return (t1 - t0) / t->calls;
}

static double pass_sweep(const table *t)
{
    sat_sweep_hit hit;
    sat_vec p, still = {0.0, 0.0};
    double acc = 0.0;
    double t0 = now_ns();
    for (int i = 0; i < t->calls; i++)
        if (sat_sweep_contact(t->a[i], t->v[i], t->b[i], still, &hit, &p))
            acc += hit.t + p.x;
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

#define HOT_PAIRS 512

/* Each table from its own seed, so that a part run alone (to profile it) meets the same
 * table as in a full run. */
static void run_table(const char *name, int which, shape_kind ka, shape_kind kb, int n,
                      int reps, int test, int contacts, uint64_t seed)
{
    static const char *suffix[] = {"", ".cold", ".hot"};
    table t;
    char key[64];
    rng_state = seed;
    if (which == 0)
        world_build(&t, n, ka, kb);
    else
        pairs_build(&t, which == 1 ? n : (HOT_PAIRS < n ? HOT_PAIRS : n), n, ka, kb);
    snprintf(key, sizeof key, "c.%%s%s.", suffix[which]);
    size_t len = strlen(key);
    snprintf(key + len, sizeof key - len, "distinct");
    emitf(key, name, t.distinct, "count");
    snprintf(key + len, sizeof key - len, "shapes");
    emitf(key, name, t.shapes, "count");
    snprintf(key + len, sizeof key - len, "overlapping");
    emitf(key, name, count_call_overlaps(&t), "count");
    snprintf(key + len, sizeof key - len, "table_kb");
    emitf(key, name, (double)t.bytes / 1024.0, "kb");
    if (test) {
        snprintf(key + len, sizeof key - len, "test");
        emitf(key, name, median_of(&t, pass_test, reps), "ns");
    }
    snprintf(key + len, sizeof key - len, "collide");
    emitf(key, name, median_of(&t, pass_collide, reps), "ns");
    if (contacts) {
        t.v = xmalloc((size_t)t.calls * sizeof *t.v);
        for (int i = 0; i < t.calls; i++) {
            sat_vec pa = sat_shape_position(t.a[i]), pb = sat_shape_position(t.b[i]);
            t.v[i].x = pb.x - pa.x;
            t.v[i].y = pb.y - pa.y;
        }
        snprintf(key + len, sizeof key - len, "contacts");
        emitf(key, name, median_of(&t, pass_contacts, reps), "ns");
        snprintf(key + len, sizeof key - len, "sweep");
        emitf(key, name, median_of(&t, pass_sweep, reps), "ns");
    }
    table_free(&t);
}

/* c.pool<N>.test and .collide: poly8 pairs from pools of 64, 8,192 and 65,536 shapes. */
static void run_pools(int n, int reps)
{
    static const int sizes[] = {64, 8192, 65536};
    char key[64];
    emit("c.pool.shape_bytes", (double)sat_polygon_lean_bytes(8), "bytes");
    for (int i = 0; i < 3; i++) {
        table t;
        rng_state = 0x9001DULL + (uint64_t)i;
        pool_build(&t, sizes[i], n, 0);
        snprintf(key, sizeof key, "c.pool%d.overlapping", sizes[i]);
        emit(key, count_call_overlaps(&t), "count");
        snprintf(key, sizeof key, "c.pool%d.test", sizes[i]);
        emit(key, median_of(&t, pass_test, reps), "ns");
        snprintf(key, sizeof key, "c.pool%d.collide", sizes[i]);
        emit(key, median_of(&t, pass_collide, reps), "ns");
        pool_free(&t);
        table_free(&t);
    }
}

/* ---- compounds: the union's cost (issue 25, items 8 and 9) ------------------------------ */

/* A star of `spikes` spikes (sat_concave of 2 * spikes points, radii 10 and 5) at (x, y),
 * turned by rot. */
static sat_shape *bench_star(int spikes, double x, double y, double rot)
{
    int n = 2 * spikes;
    sat_vec *p = xmalloc((size_t)n * sizeof *p);
    sat_status st;
    for (int i = 0; i < n; i++) {
        double t = 6.283185307179586 * i / n + rot, r = i % 2 ? 5.0 : 10.0;
        p[i].x = x + r * cos(t);
        p[i].y = y + r * sin(t);
    }
    sat_shape *s = sat_concave_new(p, n, &st);
    free(p);
    if (s == NULL)
        die("sat_concave_new (star)", st);
    return s;
}

/* An open zigzag chain of `segments` segments (1 along, 2 across each), turned by rot. */
static sat_shape *bench_zigzag(int segments, double x, double y, double rot)
{
    sat_vec *p = xmalloc((size_t)(segments + 1) * sizeof *p);
    sat_status st;
    for (int i = 0; i <= segments; i++) {
        double u = i - segments / 2.0, v = i % 2 ? 2.0 : 0.0;
        p[i].x = x + u * cos(rot) - v * sin(rot);
        p[i].y = y + u * sin(rot) + v * cos(rot);
    }
    sat_shape *s = sat_chain_new(p, segments + 1, 0, &st);
    free(p);
    if (s == NULL)
        die("sat_chain_new (zigzag)", st);
    return s;
}

/* Milliseconds per call of op (0 collide, 1 contacts, 2 sweep_contact a onto b): the median
 * of reps timed calls after one untimed. */
static double compound_call_ms(const sat_shape *a, const sat_shape *b, int op, int reps)
{
    double v[16];
    if (reps > 15)
        reps = 15;
    for (int r = -1; r < reps; r++) {
        sat_result res;
        sat_vec p[2], q, still = {0.0, 0.0}, vel = {3.0, 1.0};
        sat_sweep_hit hit;
        double t0 = now_ns();
        if (op == 0)
            sink += sat_collide(a, b, &res) ? res.overlap : 0.0;
        else if (op == 1)
            sink += sat_contacts(a, b, p) ? p[0].x : 0.0;
        else
            sink += sat_sweep_contact(a, vel, b, still, &hit, &q) ? hit.t : 0.0;
        if (r >= 0)
            v[r] = (now_ns() - t0) * 1e-6;
    }
    qsort(v, (size_t)reps, sizeof v[0], cmp_double);
    return v[reps / 2];
}

static void compound_pair(const char *name, const sat_shape *a, const sat_shape *b, int reps)
{
    static const char *ops[] = {"collide", "contacts", "sweep"};
    char key[96];
    snprintf(key, sizeof key, "c.compound.%s.parts", name);
    emit(key, a->count, "count");
    for (int op = 0; op < 3; op++) {
        snprintf(key, sizeof key, "c.compound.%s.%s", name, ops[op]);
        emit(key, compound_call_ms(a, b, op, reps), "ms");
    }
}

/* A spiral band of n points: out along r = 4 + t for 20 turns, back 3 nearer the centre. */
static double spiral_ms(int n)
{
    int h = n / 2;
    sat_vec *p = xmalloc((size_t)n * sizeof *p);
    sat_status st;
    for (int i = 0; i < h; i++) {
        double t = 6.283185307179586 * 20.0 * i / (h - 1) + 0.5, r = 4.0 + t;
        p[i].x = r * cos(t);
        p[i].y = r * sin(t);
        p[n - 1 - i].x = (r - 3.0) * cos(t);
        p[n - 1 - i].y = (r - 3.0) * sin(t);
    }
    double t0 = now_ns();
    sat_shape *s = sat_concave_new(p, n, &st);
    double ms = (now_ns() - t0) * 1e-6;
    free(p);
    if (s == NULL)
        die("sat_concave_new (spiral)", st);
    sink += s->count;
    sat_shape_free(s);
    return ms;
}

/* c.compound.*: two overlapping stars of 16 to 256 spikes (the second moved by (1.3, 0.7)
 * and turned by 0.37) and two 100-segment zigzag chains crossing at right angles: ms per
 * collide, contacts and sweep; c.concave.spiral<N>: ms to build a spiral band of N points. */
static void run_compounds(int reps)
{
    static const int spikes[] = {16, 32, 64, 128, 256};
    char name[32];
    for (int i = 0; i < 5; i++) {
        sat_shape *a = bench_star(spikes[i], 0.0, 0.0, 0.0);
        sat_shape *b = bench_star(spikes[i], 1.3, 0.7, 0.37);
        snprintf(name, sizeof name, "star%d", spikes[i]);
        compound_pair(name, a, b, spikes[i] >= 256 ? 1 : spikes[i] >= 128 ? 3 : reps);
        sat_shape_free(a);
        sat_shape_free(b);
    }
    sat_shape *za = bench_zigzag(100, 0.0, 0.0, 0.0), *zb = bench_zigzag(100, 0.1, 0.2, 1.5707963267948966);
    compound_pair("zigzag100", za, zb, reps);
    sat_shape_free(za);
    sat_shape_free(zb);
    static const int points[] = {8000, 16000, 100000};
    for (int i = 0; i < 3; i++) {
        double v[16];
        int k = reps > 15 ? 15 : reps;
        for (int r = 0; r < k; r++)
            v[r] = spiral_ms(points[i]);
        qsort(v, (size_t)k, sizeof v[0], cmp_double);
        snprintf(name, sizeof name, "c.concave.spiral%d", points[i]);
        emit(name, v[k / 2], "ms");
    }
}

/* c.rotate.<kind>: sat_shape_rotate by 0.01, in turn on ROT_SHAPES shapes of the kind (in
 * L1: the arithmetic of a turn, its sine and cosine included), ns per call, passes of at
 * most 8,192 calls. */
#define ROT_SHAPES 64
static double rot_pass(sat_shape **s, int n)
{
    int bad = 0;
    double t0 = now_ns();
    for (int i = 0; i < n; i++)
        bad += sat_shape_rotate(s[i % ROT_SHAPES], 0.01) != SAT_OK;
    double t1 = now_ns();
    sink += bad;
    return (t1 - t0) / n;
}

static void run_rotations(int n, int reps)
{
    if (n > 8192)
        n = 8192; /* short passes: a turn of a compound costs microseconds */
    static const struct {
        const char *name;
        shape_kind k;
    } kinds[] = {{"box", K_BOX}, {"poly8", K_POLY8}, {"capsule", K_CAPSULE}, {"rock8", K_ROCK8}};
    char key[64];
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        sat_shape *s[ROT_SHAPES];
        double v[64];
        int r;
        rng_state = 0x207A7EULL + k;
        for (int i = 0; i < ROT_SHAPES; i++) {
            s[i] = xmalloc(kind_bytes(kinds[k].k));
            build_shape(s[i], kinds[k].k);
        }
        if (reps > 64)
            reps = 64;
        rot_pass(s, n);
        for (r = 0; r < reps; r++)
            v[r] = rot_pass(s, n);
        qsort(v, (size_t)reps, sizeof v[0], cmp_double);
        snprintf(key, sizeof key, "c.rotate.%s", kinds[k].name);
        emit(key, v[reps / 2], "ns");
        for (int i = 0; i < ROT_SHAPES; i++)
            free(s[i]);
    }
}

/* The sim-test and sim-collide modes (see the top). */
static int run_sim(int n, int passes, int collide, int shapes)
{
    table t;
    rng_state = 0x51AULL;
    pool_build(&t, shapes, n, 2048);
    for (int i = 0; i < passes; i++)
        sink += collide ? pass_collide(&t) : pass_test(&t);
    pool_free(&t);
    table_free(&t);
    fprintf(stderr, "bench/core: sink %g\n", sink);
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 65536;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if (argc == 5 && n >= 1 && reps >= 1 && atoi(argv[4]) >= 2 &&
        (strcmp(argv[3], "sim-test") == 0 || strcmp(argv[3], "sim-collide") == 0))
        return run_sim(n, reps, strcmp(argv[3], "sim-collide") == 0, atoi(argv[4]));
    if (n < 1 || reps < 1) {
        fprintf(stderr, "usage: %s [calls [repetitions [case|pool|rotate|compound|all [world|cold|hot|pool|all]]]]\n",
                argv[0]);
        return 2;
    }
    static const struct {
        const char *name;
        shape_kind a, b;
        int test, contacts;
    } cases[] = {
        {"poly8_poly8", K_POLY8, K_POLY8, 1, 1},
        {"circle_poly8", K_CIRCLE, K_POLY8, 0, 0},
        {"box_box", K_BOX, K_BOX, 0, 0},
        {"circle_circle", K_CIRCLE, K_CIRCLE, 0, 0},
        {"capsule_poly8", K_CAPSULE, K_POLY8, 1, 0},
        {"capsule_capsule", K_CAPSULE, K_CAPSULE, 1, 0},
        {"segment_poly8", K_SEGMENT, K_POLY8, 1, 0},
        {"rock8_poly8", K_ROCK8, K_POLY8, 1, 0},
    };
    const char *only = argc > 3 ? argv[3] : "all";
    const char *part = argc > 4 ? argv[4] : "all";
    static const char *parts[] = {"world", "cold", "hot"};
    emit("c.calls", n, "count");
    if ((strcmp(only, "all") == 0 || strcmp(only, "pool") == 0) &&
        (strcmp(part, "all") == 0 || strcmp(part, "pool") == 0))
        run_pools(n, reps);
    if ((strcmp(only, "all") == 0 && strcmp(part, "all") == 0) || strcmp(only, "rotate") == 0)
        run_rotations(n, reps);
    if ((strcmp(only, "all") == 0 || strcmp(only, "compound") == 0) && strcmp(part, "all") == 0)
        run_compounds(reps);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(only, "all") != 0 && strcmp(only, cases[i].name) != 0)
            continue;
        for (int w = 0; w < 3; w++)
            if (strcmp(part, "all") == 0 || strcmp(part, parts[w]) == 0)
                run_table(cases[i].name, w, cases[i].a, cases[i].b, n, reps, cases[i].test,
                          cases[i].contacts, 0x5A7C0DE5EEDULL + 0x1000 * (uint64_t)i + (uint64_t)w);
    }
    fprintf(stderr, "bench/core: sink %g\n", sink);
    return 0;
}
