/*
 * test_sweep.c - the swept pair test (sat_sweep in sat.h) on hand-placed pairs: the time of
 * impact and the contact normal for every pair of kinds, exact moves where the geometry is
 * exact, no tunnelling at any speed, the motions that are no hit (away, short, ending just
 * touching, sliding along), and pairs that already overlap at the start. Segments and
 * capsules: onto floors and corners, along floors and over tile seams (no hit), into
 * segment walls, zero-thickness pairs (a point or a parallel segment crossing a segment),
 * two big polygons (the sweep is O(n + m)), and capsules of zero length (a point, or a
 * circle, whatever direction their placeholder has) against every kind.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define V orc_v
#define PI 3.14159265358979323846

static void ensure_sweep(const sat_shape *a, sat_vec v, const sat_shape *b, double t,
                         double nx, double ny, double tol)
{
    sat_sweep_hit hit;
    int got;
    memset(&hit, 0x5a, sizeof hit);
    got = sat_sweep(a, v, b, &hit);
    ENSURE_EQ_INT(got, 1);
    if (got != 1)
        return;
    ENSURE_EQ_INT(hit.overlapping, 0);
    ENSURE(hit.result.mtv.x == 0 && hit.result.mtv.y == 0);
    ENSURE_NEAR(hit.t, t, tol);
    ENSURE_NEAR(hit.result.normal.x, nx, tol);
    ENSURE_NEAR(hit.result.normal.y, ny, tol);
    ENSURE_NEAR(hit.move.x, v.x * t, tol * fabs(v.x) + tol);
    ENSURE_NEAR(hit.move.y, v.y * t, tol * fabs(v.y) + tol);
    ENSURE(hit.result.overlap == 0 && hit.result.a_in_b == 0 && hit.result.b_in_a == 0);
}

static void test_sweep_time_of_impact(void)
{
    sat_shape *s[8] = {
        mk_box(0, 0, 10, 10),          /* 0: the moving box */
        mk_box(50, -50, 60, 50),       /* 1: a wall */
        mk_circle(0, 5, 5),            /* 2: a moving ball */
        mk_box(50, 3, 60, 20),         /* 3: a wall whose corner (50, 3) meets the ball */
        mk_circle(60, 5, 5),           /* 4: a ball the box runs into */
        mk_box(-100, -10, 100, 0),     /* 5: a floor under the box */
        mk_box(50, -1000, 51, 1000),   /* 6: a thin wall */
        mk_circle(20, 5, 5),           /* 7: a ball the ball at (0, 5) runs into */
    };
    sat_sweep_hit hit;
    if (!all_built(s, 8))
        goto done;
    /* Box into the wall: its right side x = 10 reaches 50 at t = 0.4, exactly 40 along. */
    ensure_sweep(s[0], V(100, 0), s[1], 0.4, 1, 0, 1e-15);
    ENSURE(sat_sweep(s[0], V(100, 0), s[1], &hit) && hit.move.x == 40 && hit.move.y == 0);
    /* Diagonally: the same t, the same side. */
    ensure_sweep(s[0], V(100, 100), s[1], 0.4, 1, 0, 1e-15);
    /* Far too fast to step: no tunnelling through a wall 1 thick. */
    ensure_sweep(s[0], V(1e6, 0), s[6], 40 / 1e6, 1, 0, 1e-18);
    ENSURE(sat_sweep(s[0], V(1e6, 0), s[6], &hit) && hit.move.x == 40);
    /* Ball into the wall: its right point x = 5 reaches 50 at t = 0.45. */
    ensure_sweep(s[2], V(100, 0), s[1], 0.45, 1, 0, 1e-12);
    /* Ball at (0, 0) into the corner (50, 3): touches when the centre is at (46, 0), 5 from
     * the corner, and the normal points at the corner: (4, 3) / 5. */
    sat_shape_move_to(s[2], 0, 0);
    ensure_sweep(s[2], V(100, 0), s[3], 0.46, 0.8, 0.6, 1e-12);
    /* Ball into ball: centres 20 apart, touching at 10, so after 10 of 100: t = 0.1. */
    sat_shape_move_to(s[2], 0, 5);
    ensure_sweep(s[2], V(100, 0), s[7], 0.1, 1, 0, 1e-12);
    /* Box into ball: its right side reaches x = 55 at t = 0.45. */
    ensure_sweep(s[0], V(100, 0), s[4], 0.45, 1, 0, 1e-12);
    /* Ball hitting a box that moves into it: the box's point of view, reversed. */
    ensure_sweep(s[4], V(-100, 0), s[0], 0.45, -1, 0, 1e-12);

    /* No hit: moving away, stopping short, ending just touching, passing beside. */
    ENSURE_EQ_INT(sat_sweep(s[0], V(-100, 0), s[1], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[0], V(30, 0), s[1], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[0], V(40, 0), s[1], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[2], V(0, 100), s[1], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[0], V(NAN, 0), s[1], &hit), 0);
    /* Resting on the floor: sliding along it is no hit, pressing into it is one at t = 0. */
    ENSURE_EQ_INT(sat_sweep(s[0], V(50, 0), s[5], &hit), 0);
    ensure_sweep(s[0], V(50, -1), s[5], 0, 0, -1, 0);
    ENSURE(sat_sweep(s[0], V(50, -1), s[5], &hit) && hit.move.x == 0 && hit.move.y == 0);

    /* Overlapping at the start: t = 0 and sat_collide's result. */
    sat_shape_move_to(s[4], 12, 5); /* 3 into the box */
    memset(&hit, 0, sizeof hit);
    ENSURE_EQ_INT(sat_sweep(s[0], V(5, 0), s[4], &hit), 1);
    ENSURE_EQ_INT(hit.overlapping, 1);
    ENSURE(hit.t == 0 && hit.move.x == 0 && hit.move.y == 0);
    ENSURE_NEAR(hit.result.overlap, 3, 1e-12);
    ENSURE_NEAR(hit.result.normal.x, 1, 1e-12);
    ENSURE_NEAR(hit.result.mtv.x, -3, 1e-12);
    /* ... whatever the motion, away included. */
    ENSURE_EQ_INT(sat_sweep(s[0], V(-5, 0), s[4], &hit), 1);
    ENSURE_EQ_INT(hit.overlapping, 1);
done:
    free_shapes(s, 8);
}

static void test_sweep_capsules(void)
{
    sat_shape *s[10] = {
        mk_capsule(0, 10, 0, 20, 2),     /* 0: standing, its bottom at y = 8 */
        mk_box(-50, -10, 50, 0),         /* 1: a floor, its top at y = 0 */
        mk_capsule(10, 5, 14, 5, 2),     /* 2: lying, its left cap about (10, 5) */
        mk_box(0, 0, 4, 4),              /* 3: a box, its corner (4, 4) */
        mk_capsule(-10, 2, -10, 6, 2),   /* 4: standing on the floor at x = -10 */
        mk_box(-50, -10, 0, 0),          /* 5, 6: the floor as two tiles, a seam at x = 0 */
        mk_box(0, -10, 50, 0),
        mk_capsule(0, 0, 2, 0, 1),       /* 7, 8: capsules on one line, cores 4 apart */
        mk_capsule(6, 0, 8, 0, 1),
        mk_box(50, -1000, 51, 1000),     /* 9: a thin wall */
    };
    sat_sweep_hit hit;
    double r3 = sqrt(3.0);
    if (!all_built(s, 10))
        goto done;
    /* Falling onto the floor: 8 to go of 16. */
    ensure_sweep(s[0], V(0, -16), s[1], 0.5, 0, -1, 1e-15);
    ENSURE(sat_sweep(s[0], V(0, -16), s[1], &hit) && hit.move.x == 0 && hit.move.y == -8);
    /* Into a box's corner: the cap's centre 2 from (4, 4), never polygonised. */
    ensure_sweep(s[2], V(-20, 0), s[3], (6 - r3) / 20, -r3 / 2, -0.5, 1e-14);
    /* Along the floor it rests on, and over the seam between two tiles: no hit. */
    ENSURE_EQ_INT(sat_sweep(s[4], V(30, 0), s[1], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[4], V(20, 0), s[5], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[4], V(20, 0), s[6], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[4], V(20, -0.0), s[6], &hit), 0);
    /* Pressing into it: a hit at once, the floor's normal. */
    ensure_sweep(s[4], V(5, -1), s[1], 0, 0, -1, 0);
    /* Head-on along their line: the cores 4 apart touch at 2. */
    ensure_sweep(s[7], V(10, 0), s[8], 0.2, 1, 0, 1e-15);
    ensure_sweep(s[8], V(-10, 0), s[7], 0.2, -1, 0, 1e-15);
    /* Far too fast to step: no tunnelling. */
    sat_shape_move_to(s[7], 0, 0);
    ensure_sweep(s[7], V(1e6, 0), s[9], 48 / 1e6, 1, 0, 1e-18);
    /* Overlapping at the start: sat_collide's answer. */
    sat_shape_move_to(s[7], 4.5, 2);
    ENSURE_EQ_INT(sat_sweep(s[7], V(1, 1), s[3], &hit), 1);
    ENSURE_EQ_INT(hit.overlapping, 1);
    {
        sat_result r;
        ENSURE(sat_collide(s[7], s[3], &r) && r.overlap == hit.result.overlap &&
               r.normal.x == hit.result.normal.x && r.normal.y == hit.result.normal.y);
    }
done:
    free_shapes(s, 10);
}

static void test_sweep_segments(void)
{
    sat_shape *s[9] = {
        mk_segment(5, -3, 5, 3),   /* 0: a wall at x = 5 */
        mk_circle(0, 0, 1),        /* 1 */
        mk_box(0, 0, 2, 2),        /* 2 */
        mk_circle(0, 0, 0),        /* 3: a point */
        mk_segment(0, 0, 2, 0),    /* 4 */
        mk_segment(1, 5, 3, 9),    /* 5: its lower end (1, 5) */
        mk_segment(0, 5, 2, 5),    /* 6: parallel to 4 */
        mk_segment(5, 0, 7, 0),    /* 7: on 4's line */
        mk_circle(5, 0, 0),        /* 8: a point on the wall */
    };
    sat_sweep_hit hit;
    if (!all_built(s, 9))
        goto done;
    ensure_sweep(s[1], V(10, 0), s[0], 0.4, 1, 0, 1e-15);
    ensure_sweep(s[2], V(10, 0), s[0], 0.3, 1, 0, 1e-15);
    ENSURE(sat_sweep(s[2], V(10, 0), s[0], &hit) && hit.move.x == 3 && hit.move.y == 0);
    ensure_sweep(s[0], V(-10, 0), s[2], 0.3, -1, 0, 1e-15);
    /* A segment's end meets another's inside. */
    ensure_sweep(s[4], V(0, 10), s[5], 0.5, 0, 1, 1e-15);
    /* Zero thickness both: a point, or a parallel segment, crossing the line. */
    ensure_sweep(s[3], V(10, 0), s[0], 0.5, 1, 0, 1e-15);
    ensure_sweep(s[4], V(0, 10), s[6], 0.5, 0, 1, 1e-15);
    ensure_sweep(s[6], V(0, -10), s[4], 0.5, 0, -1, 1e-15);
    ENSURE_EQ_INT(sat_sweep(s[3], V(0, 10), s[0], &hit), 0);  /* parallel, beside it */
    ENSURE_EQ_INT(sat_sweep(s[3], V(4, 0), s[0], &hit), 0);   /* short of it */
    ENSURE_EQ_INT(sat_sweep(s[3], V(10, 10), s[0], &hit), 0); /* past its end */
    /* ... but nothing to press into along the line itself: a point on the wall, and two
     * segments on one line, pass (see sat.h). */
    ENSURE_EQ_INT(sat_sweep(s[8], V(10, 0), s[0], &hit), 0);
    ENSURE_EQ_INT(sat_sweep(s[4], V(10, 0), s[7], &hit), 0);
done:
    free_shapes(s, 9);
}

/* Two regular 4096-gons of radius 100, 250 apart, one moving 100 toward the other, the
 * second turned half a step: the first's vertex at angle 0 meets the second's edge facing
 * it. (Every pair of normals was projected before; now the supports follow the normals
 * around.) */
static void test_sweep_big_polygons(void)
{
    enum { N = 4096 };
    sat_vec *p = (sat_vec *)malloc(N * sizeof *p);
    sat_shape *a = NULL, *b = NULL;
    sat_sweep_hit hit;
    int i;
    if (!p)
        return;
    for (i = 0; i < N; i++)
        p[i] = V(100 * cos(2 * PI * i / N), 100 * sin(2 * PI * i / N));
    a = sat_polygon_new(p, N, NULL);
    b = sat_polygon_new(p, N, NULL);
    ENSURE(a && b);
    if (a && b) {
        ENSURE_EQ_INT(a->count, N);
        double t = (150 - 100 * cos(PI / N)) / 100;
        sat_shape_move(b, 250, 0);
        sat_shape_rotate(b, PI / N);
        ensure_sweep(a, V(100, 0), b, t, 1, 0, 1e-12);
        ensure_sweep(b, V(-100, 0), a, t, -1, 0, 1e-12);
        ENSURE_EQ_INT(sat_sweep(a, V(0, 100), b, &hit), 0);
    }
    sat_shape_free(a);
    sat_shape_free(b);
    free(p);
}

/* Zero-length capsules, sat.capsule(x, y, x, y, r): the core is a point, so every sweep is a
 * point's (r = 0) or a circle's. Their direction is a placeholder (it turns with the
 * shape); it once gave the line a radius-0 pair crossed: misses through walls, hits beside
 * them. */
static void test_sweep_zero_capsules(void)
{
    sat_shape *s[8] = {
        mk_capsule(0, 0, 0, 0, 0),    /* 0: a point-like capsule */
        mk_segment(5, -3, 5, 3),      /* 1: a wall at x = 5 */
        mk_capsule(5, -3, 5, 3, 0),   /* 2: the same wall, a capsule of radius 0 */
        mk_capsule(5, 0, 5, 0, 0),    /* 3: another point-like capsule, on the wall */
        mk_capsule(0, 0, 0, 0, 2),    /* 4: a circle-like capsule */
        mk_circle(0, 0, 0),           /* 5: a point */
        NULL,                         /* 6: a chain (5, -3), (5, 3), (8, 3) */
        mk_box(5, -3, 6, 3),          /* 7: a box whose left side is the wall */
    };
    static const sat_vec chain[3] = {{5, -3}, {5, 3}, {8, 3}};
    sat_sweep_hit hit;
    int i, k;
    s[6] = sat_chain_new(chain, 3, 0, NULL);
    ENSURE(s[6] != NULL);
    if (!all_built(s, 8))
        goto done;
    for (k = 0; k < 2; k++) {
        /* Into the wall, the chain's first link, the box: from (0, 0), 5 of 10 to go. */
        for (i = 1; i <= 7; i++) {
            if (i == 3 || i == 4 || i == 5)
                continue;
            ensure_sweep(s[0], V(10, 0), s[i], 0.5, 1, 0, 0);
            ENSURE(sat_sweep(s[0], V(10, 0), s[i], &hit) && hit.move.x == 5 && hit.move.y == 0);
            /* the wall's side of view: it moves onto the point */
            if (i != 6)
                ensure_sweep(s[i], V(-10, 0), s[0], 0.5, -1, 0, 0);
        }
        /* Up past the wall's left, 2 from it: no hit (the placeholder's line, through the
         * wall's centre, is crossed 2 from the centre, within its half-length 3). */
        sat_shape_move_to(s[0], 3, -5);
        ENSURE_EQ_INT(sat_sweep(s[0], V(0, 10), s[1], &hit), 0);
        ENSURE_EQ_INT(sat_sweep(s[0], V(0, 10), s[2], &hit), 0);
        ENSURE_EQ_INT(sat_sweep(s[0], V(0, 10), s[6], &hit), 0);
        ENSURE_EQ_INT(sat_sweep(s[1], V(0, -10), s[0], &hit), 0);
        /* A point through a point: nothing to press into, as for two points. */
        sat_shape_move_to(s[0], 0, 0);
        ENSURE_EQ_INT(sat_sweep(s[0], V(10, 0), s[3], &hit), 0);
        ENSURE_EQ_INT(sat_sweep(s[5], V(10, 0), s[3], &hit), 0);
        ENSURE_EQ_INT(sat_sweep(s[0], V(10, 0), s[5], &hit), 0);
        /* Grown by 2: touches when the centre is at x = 3. */
        ensure_sweep(s[4], V(10, 0), s[1], 0.3, 1, 0, 1e-15);
        ensure_sweep(s[4], V(10, 0), s[2], 0.3, 1, 0, 1e-15);
        ensure_sweep(s[4], V(10, 0), s[6], 0.3, 1, 0, 1e-15);
        /* Again with the placeholders turned (along the wall, then askew). */
        sat_shape_set_rotation(s[0], PI / 2);
        sat_shape_set_rotation(s[3], 1.0);
        sat_shape_set_rotation(s[4], PI / 2);
    }
done:
    free_shapes(s, 8);
}

static double zc_uniform(ctest_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(ctest_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

static int same_sweep(int got1, const sat_sweep_hit *h1, int got2, const sat_sweep_hit *h2)
{
    if (got1 != got2)
        return 0;
    if (!got1)
        return 1;
    if (h1->overlapping != h2->overlapping)
        return 0;
    if (h1->overlapping) /* sat_collide's answer: a capsule's arithmetic, not a circle's */
        return fabs(h1->result.overlap - h2->result.overlap) <= 1e-12 * (1 + h2->result.overlap) &&
               fabs(h1->result.normal.x - h2->result.normal.x) <= 1e-12 &&
               fabs(h1->result.normal.y - h2->result.normal.y) <= 1e-12;
    return h1->t == h2->t && h1->move.x == h2->move.x && h1->move.y == h2->move.y &&
           h1->result.normal.x == h2->result.normal.x &&
           h1->result.normal.y == h2->result.normal.y && h1->dist2 == h2->dist2;
}

/* Thousands of random sweeps of a zero-length capsule (radius 0 or not, turned anyhow)
 * against every kind, both ways round: the same answers as the point or circle it is. */
static void test_sweep_zero_capsules_random(void)
{
    enum { CASES = 6000 };
    ctest_rng r;
    long hits = 0, touches = 0, flat_touches = 0, bad = 0;
    r.s = 0x2e40cab5u;
    for (int i = 0; i < CASES; i++) {
        double x = zc_uniform(&r, -10, 10), y = zc_uniform(&r, -10, 10);
        double rad = ctest_next(&r) % 2 ? 0.0 : zc_uniform(&r, 0.1, 3);
        double ang = zc_uniform(&r, -PI, PI);
        double c[6];
        for (int k = 0; k < 6; k++)
            c[k] = zc_uniform(&r, -10, 10);
        sat_vec v = V(zc_uniform(&r, -20, 20), zc_uniform(&r, -20, 20));
        sat_vec pts[3] = {{c[0], c[1]}, {c[2], c[3]}, {c[4], c[5]}};
        int kind = (int)(ctest_next(&r) % 7);
        sat_shape *cap = sat_capsule_new(x, y, x, y, rad, NULL);
        sat_shape *pt = sat_circle_new(x, y, rad, NULL), *b = NULL;
        switch (kind) {
        case 0: b = sat_segment_new(c[0], c[1], c[2], c[3], NULL); break;
        case 1: b = sat_capsule_new(c[0], c[1], c[2], c[3], 0, NULL); break;
        case 2: b = sat_capsule_new(c[0], c[1], c[2], c[3], fabs(c[4]) / 4, NULL); break;
        case 3: b = sat_chain_new(pts, 3, 0, NULL); break;
        case 4: b = sat_circle_new(c[0], c[1], c[2] > 0 ? c[2] / 4 : 0, NULL); break;
        case 5: b = sat_polygon_new(pts, 3, NULL); break;
        default: b = sat_capsule_new(c[0], c[1], c[0], c[1], fabs(c[4]) / 4, NULL); break;
        }
        if (!cap || !pt || !b) { /* a degenerate triangle: another draw */
            sat_shape_free(cap);
            sat_shape_free(pt);
            sat_shape_free(b);
            continue;
        }
        sat_shape_set_rotation(cap, ang);
        for (int way = 0; way < 2; way++) {
            sat_sweep_hit h1, h2;
            int g1, g2;
            if (way == 0) {
                g1 = sat_sweep(cap, v, b, &h1);
                g2 = sat_sweep(pt, v, b, &h2);
            } else {
                g1 = sat_sweep(b, v, cap, &h1);
                g2 = sat_sweep(b, v, pt, &h2);
            }
            hits += g2;
            touches += g2 && !h2.overlapping;
            flat_touches += g2 && !h2.overlapping && rad == 0.0 && kind != 4 && kind != 6;
            if (!same_sweep(g1, &h1, g2, &h2)) {
                bad++;
                ENSUREF(0, "case %d (kind %d, radius %g, way %d): capsule %d t %.17g n (%g, %g),"
                        " point %d t %.17g n (%g, %g)", i, kind, rad, way, g1, g1 ? h1.t : 0,
                        g1 ? h1.result.normal.x : 0, g1 ? h1.result.normal.y : 0, g2,
                        g2 ? h2.t : 0, g2 ? h2.result.normal.x : 0,
                        g2 ? h2.result.normal.y : 0);
            }
        }
        sat_shape_free(cap);
        sat_shape_free(pt);
        sat_shape_free(b);
    }
    printf("  zero-length capsules: %d cases both ways: %ld hits (%ld touches on the way, %ld "
           "of them a point against a line), %ld disagreeing\n", CASES, hits, touches,
           flat_touches, bad);
    ENSUREF(flat_touches > CASES / 20, "only %ld point-line touches", flat_touches);
}

void run_sweep_tests(void)
{
    RUN_TEST(test_sweep_time_of_impact);
    RUN_TEST(test_sweep_capsules);
    RUN_TEST(test_sweep_segments);
    RUN_TEST(test_sweep_big_polygons);
    RUN_TEST(test_sweep_zero_capsules);
    RUN_TEST(test_sweep_zero_capsules_random);
}
