/*
 * test_query.c - bbox, area, polygon_vertex, contains and raycast, with hand-computed values.
 */
#include <math.h>
#include <stdlib.h>

#include "ctest.h"
#include "oracle.h"

#define V orc_v
#define PI 3.14159265358979323846

static void ensure_box(sat_aabb b, double x1, double y1, double x2, double y2, double tol)
{
    ENSURE_NEAR(b.x1, x1, tol);
    ENSURE_NEAR(b.y1, y1, tol);
    ENSURE_NEAR(b.x2, x2, tol);
    ENSURE_NEAR(b.y2, y2, tol);
}

static void test_bbox(void)
{
    sat_shape *b = mk_box(0, 0, 4, 2), *d = mk_box(-1, -1, 1, 1), *c = mk_circle(1, 2, 3);
    sat_shape *pt = mk_circle(-5, 7, 0);
    if (!b || !d || !c || !pt)
        goto done;
    ensure_box(sat_shape_bbox(b), 0, 0, 4, 2, 0);
    sat_shape_set_rotation(b, PI / 2);
    ensure_box(sat_shape_bbox(b), 1, -1, 3, 3, 1e-15);
    sat_shape_move(b, 10, 20);
    ensure_box(sat_shape_bbox(b), 11, 19, 13, 23, 1e-14);
    sat_shape_set_rotation(d, PI / 4);
    ensure_box(sat_shape_bbox(d), -sqrt(2.0), -sqrt(2.0), sqrt(2.0), sqrt(2.0), 1e-15);
    sat_shape_scale(d, 3);
    ensure_box(sat_shape_bbox(d), -3 * sqrt(2.0), -3 * sqrt(2.0), 3 * sqrt(2.0), 3 * sqrt(2.0),
               1e-14);
    ensure_box(sat_shape_bbox(c), -2, -1, 4, 5, 0);
    sat_shape_scale(c, 2);
    ensure_box(sat_shape_bbox(c), -5, -4, 7, 8, 0);
    sat_shape_rotate(c, 1); /* a circle's box does not turn */
    ensure_box(sat_shape_bbox(c), -5, -4, 7, 8, 0);
    ensure_box(sat_shape_bbox(pt), -5, 7, -5, 7, 0);
done:
    sat_shape_free(b);
    sat_shape_free(d);
    sat_shape_free(c);
    sat_shape_free(pt);
}

static void test_area(void)
{
    static const double tri[] = {0, 0, 3, 0, 0, 4};
    static const double hex[] = {2, 0, 1, 1.5, -1, 1.5, -2, 0, -1, -1.5, 1, -1.5};
    sat_shape *t = mk_polygon(tri, 3), *h = mk_polygon(hex, 6), *c = mk_circle(0, 0, 0.5);
    if (!t || !h || !c)
        goto done;
    ENSURE_NEAR(sat_shape_area(t), 6, 1e-14);
    ENSURE_NEAR(sat_shape_area(h), 9, 1e-14); /* a 4 x 3 box less four 1 x 1.5 / 2 corners */
    sat_shape_rotate(t, 2);
    sat_shape_move(t, 100, 100);
    ENSURE_NEAR(sat_shape_area(t), 6, 1e-13);
    sat_shape_scale(t, 10);
    ENSURE_NEAR(sat_shape_area(t), 600, 1e-11);
    ENSURE(sat_shape_area(c) == PI * 0.25);
    sat_shape_scale(c, 4);
    ENSURE_NEAR(sat_shape_area(c), PI * 4, 1e-14);
done:
    sat_shape_free(t);
    sat_shape_free(h);
    sat_shape_free(c);
}

static void test_polygon_vertex(void)
{
    static const double tri[] = {0, 0, 6, 0, 0, 6};
    sat_shape *t = mk_polygon(tri, 3);
    sat_vec v[3];
    int i;
    if (!t)
        return;
    for (i = 0; i < 3; i++)
        v[i] = sat_polygon_vertex(t, i);
    ENSURE(orc_area2(v, 3) == 36); /* counter-clockwise, the input's corners */
    sat_shape_move_to(t, 0, 0);
    sat_shape_rotate(t, PI / 2);
    /* Corner (6, 0) is (4, -2) from the centroid (2, 2); turned a quarter: (2, 4). */
    for (i = 0; i < 3; i++) {
        sat_vec w = sat_polygon_vertex(t, i);
        if (fabs(w.x - 2) < 1e-14 && fabs(w.y - 4) < 1e-14)
            break;
    }
    ENSURE(i < 3);
    sat_shape_free(t);
}

static void test_contains(void)
{
    sat_shape *b = mk_box(0, 0, 4, 2), *c = mk_circle(0, 0, 5), *pt = mk_circle(1, 1, 0);
    if (!b || !c || !pt)
        goto done;
    ENSURE(sat_shape_contains(b, 1, 1));
    ENSURE(sat_shape_contains(b, 3.9, 0.1));
    ENSURE(!sat_shape_contains(b, 5, 1));
    ENSURE(!sat_shape_contains(b, -0.001, 1));
    ENSURE(!sat_shape_contains(b, 2, 2.001));
    ENSURE(sat_shape_contains(b, 4, 1));   /* on an edge */
    ENSURE(sat_shape_contains(b, 2, 0));   /* on an edge */
    ENSURE(sat_shape_contains(b, 0, 0));   /* on a corner */
    ENSURE(sat_shape_contains(b, 4, 2));   /* on a corner */
    ENSURE(!sat_shape_contains(b, 4.001, 2.001));
    ENSURE(!sat_shape_contains(b, NAN, 1));
    ENSURE(!sat_shape_contains(b, 1, INFINITY));
    /* Turned a quarter about (2, 1): now [1, 3] x [-1, 3]. */
    sat_shape_set_rotation(b, PI / 2);
    ENSURE(sat_shape_contains(b, 2, 2.9));
    ENSURE(!sat_shape_contains(b, 3.5, 1));
    ENSURE(sat_shape_contains(b, 3, -1)); /* corner */
    ENSURE(sat_shape_contains(c, 0, 0));
    ENSURE(sat_shape_contains(c, 3, 4));  /* on the circle (3-4-5) */
    ENSURE(sat_shape_contains(c, -4, -3));
    ENSURE(!sat_shape_contains(c, 3, 4.001));
    ENSURE(!sat_shape_contains(c, 4, 4));
    ENSURE(sat_shape_contains(pt, 1, 1));
    ENSURE(!sat_shape_contains(pt, 1, 1.001));
    /* Far from the origin, exactly the same answers. */
    sat_shape_move(c, 1e9, -1e9);
    ENSURE(sat_shape_contains(c, 1e9 + 3, -1e9 + 4));
    ENSURE(!sat_shape_contains(c, 1e9 + 3, -1e9 + 4.001));
done:
    sat_shape_free(b);
    sat_shape_free(c);
    sat_shape_free(pt);
}

static int cast(const sat_shape *s, double x1, double y1, double x2, double y2, sat_hit *h)
{
    h->t = -1;
    h->normal = V(NAN, NAN);
    return sat_shape_raycast(s, V(x1, y1), V(x2, y2), h);
}

static void ensure_hit(int got, sat_hit h, double t, double nx, double ny, double tol)
{
    ENSURE(got == 1);
    if (got != 1)
        return;
    ENSURE_NEAR(h.t, t, tol);
    ENSURE_NEAR(h.normal.x, nx, tol);
    ENSURE_NEAR(h.normal.y, ny, tol);
    ENSURE_NEAR(hypot(h.normal.x, h.normal.y), 1, 1e-15);
}

static void test_raycast_polygon(void)
{
    sat_shape *b = mk_box(0, 0, 2, 2);
    sat_hit h;
    if (!b)
        return;
    ensure_hit(cast(b, -2, 1, 2, 1, &h), h, 0.5, -1, 0, 0);       /* enters the left side */
    ensure_hit(cast(b, 1, 5, 1, 1, &h), h, 0.75, 0, 1, 0);        /* from above */
    ENSURE(cast(b, 3, 3, 1, 1, &h) == 1);                         /* diagonal into a corner */
    ENSURE(h.t == 0.5);
    ENSURE((h.normal.x == 1 && h.normal.y == 0) || (h.normal.x == 0 && h.normal.y == 1));
    ENSURE(!cast(b, -2, 3, 4, 3, &h));                            /* passes above */
    ENSURE(!cast(b, -2, 1, -1, 1, &h));                           /* stops short */
    ENSURE(!cast(b, -1, 1, -3, 1, &h));                           /* points away */
    ENSURE(!cast(b, 3, 3, 3, 3, &h));                             /* a point, outside */
    ensure_hit(cast(b, -2, 1, 0, 1, &h), h, 1, -1, 0, 0);         /* ends on the side */
    /* Starting inside: t = 0 with the normal of the nearest side. */
    ensure_hit(cast(b, 0.5, 1, 5, 1, &h), h, 0, -1, 0, 0);
    ensure_hit(cast(b, 1, 1.75, 1, 0, &h), h, 0, 0, 1, 0);
    ensure_hit(cast(b, 1.5, 1, 1.5, 1, &h), h, 0, 1, 0, 0);       /* a point inside */
    /* Grazing the corner (0, 0) from (-1, 1) to (1, -1): touches it halfway. */
    {
        int got = cast(b, -1, 1, 1, -1, &h);
        ENSURE(got == 1);
        if (got) {
            ENSURE(h.t == 0.5);
            ENSURE((h.normal.x == -1 && h.normal.y == 0) || (h.normal.x == 0 && h.normal.y == -1));
        }
    }
    /* Sliding along the bottom side: enters at its corner. */
    ensure_hit(cast(b, -2, 0, 4, 0, &h), h, 1.0 / 3, -1, 0, 1e-16);
    /* Turned 45 degrees about (1, 1): a diamond with corners at distance sqrt(2). */
    sat_shape_set_rotation(b, PI / 4);
    ENSURE(cast(b, -3, 1, 1, 1, &h) == 1);
    ENSURE_NEAR(h.t, (4 - sqrt(2.0)) / 4, 1e-15);
    ENSURE_NEAR(h.normal.x, -sqrt(0.5), 1e-15);
    ENSURE_NEAR(fabs(h.normal.y), sqrt(0.5), 1e-15); /* one of the two sides at the corner */
    /* Far from the origin: the same t. */
    sat_shape_set_rotation(b, 0);
    sat_shape_move(b, 1e9, 1e9);
    ensure_hit(cast(b, 1e9 - 2, 1e9 + 1, 1e9 + 2, 1e9 + 1, &h), h, 0.5, -1, 0, 0);
    ENSURE(!cast(b, NAN, 0, 1, 1, &h));
    ENSURE(!cast(b, 0, 0, INFINITY, 1, &h));
    sat_shape_free(b);
}

static void test_raycast_circle(void)
{
    sat_shape *c = mk_circle(0, 0, 1), *pt = mk_circle(2, 2, 0);
    sat_hit h;
    if (!c || !pt)
        goto done;
    ensure_hit(cast(c, -3, 0, 3, 0, &h), h, 1.0 / 3, -1, 0, 1e-16);
    ensure_hit(cast(c, 0, 5, 0, -5, &h), h, 0.4, 0, 1, 1e-16);
    /* 3-4-5: from (-6, -8) toward the centre, entering at (-0.6, -0.8). */
    ensure_hit(cast(c, -6, -8, 0, 0, &h), h, 0.9, -0.6, -0.8, 1e-15);
    ENSURE(!cast(c, -3, 2, 3, 2, &h));       /* passes above */
    ENSURE(!cast(c, -3, 0, -2, 0, &h));      /* stops short */
    ENSURE(!cast(c, -2, 0, -4, 0, &h));      /* points away */
    /* Grazing the top: touches at the middle. */
    ensure_hit(cast(c, -3, 1, 3, 1, &h), h, 0.5, 0, 1, 1e-6);
    /* Starting inside: t = 0, the normal toward the nearest surface. */
    ensure_hit(cast(c, 0.5, 0, 5, 5, &h), h, 0, 1, 0, 0);
    ensure_hit(cast(c, 0, -0.25, 0, -0.25, &h), h, 0, 0, -1, 0);
    {
        int got = cast(c, 0, 0, 1, 1, &h); /* from the centre: any unit normal */
        ENSURE(got == 1 && h.t == 0);
        ENSURE_NEAR(hypot(h.normal.x, h.normal.y), 1, 1e-15);
    }
    /* A point is hit by a segment through it. */
    ensure_hit(cast(pt, 2, 0, 2, 4, &h), h, 0.5, 0, -1, 0);
    ENSURE(!cast(pt, 1, 0, 1, 4, &h));
    /* Found by the fuzzer: a segment ending a denormal away from a point grazes it; the hit
     * still needs a unit normal. */
    {
        sat_shape *o = mk_circle(0, 0, 0);
        if (o && cast(o, 402.625, 1010.125, 1.7400432058403334e-310, 0, &h))
            ENSUREF(fabs(hypot(h.normal.x, h.normal.y) - 1) <= 1e-15, "t %g normal (%g, %g)",
                    h.t, h.normal.x, h.normal.y);
        /* Ending exactly on the point: the normal faces back along the segment. */
        if (o)
            ensure_hit(cast(o, 26.6875, -1349.3125, 0, 0, &h), h, 1, 26.6875 / hypot(26.6875, 1349.3125),
                       -1349.3125 / hypot(26.6875, 1349.3125), 1e-15);
        sat_shape_free(o);
    }
    /* Found by the fuzzer: a far start (the squares overflowed) still gives a finite t; beyond
     * SAT_MAX_COORD a segment is not cast at all. */
    ensure_hit(cast(c, -1e150, 0, 0, 0, &h), h, 1, -1, 0, 1e-15);
    ENSURE(!cast(c, -1e150, 5, 0, 5, &h));
    ENSURE(!cast(c, -1e200, 0, 0, 0, &h));
    /* Moved and scaled. */
    sat_shape_move_to(c, 10, 0);
    sat_shape_scale(c, 2);
    ensure_hit(cast(c, 0, 0, 20, 0, &h), h, 0.4, -1, 0, 1e-16);
    sat_shape_move(c, -1e9, 1e9);
    ensure_hit(cast(c, -1e9, 1e9, -1e9 + 20, 1e9, &h), h, 0.4, -1, 0, 1e-16);
done:
    sat_shape_free(c);
    sat_shape_free(pt);
}

void run_query_tests(void)
{
    RUN_TEST(test_bbox);
    RUN_TEST(test_area);
    RUN_TEST(test_polygon_vertex);
    RUN_TEST(test_contains);
    RUN_TEST(test_raycast_polygon);
    RUN_TEST(test_raycast_circle);
}
