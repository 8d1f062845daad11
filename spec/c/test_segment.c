/*
 * test_segment.c - segments and capsules on their own: building and its refusals, the
 * transforms (about the midpoint), bbox, area, endpoints, contains and raycasts, with
 * hand-computed values. Their pairs are in test_collide.c and test_property.c, their sweeps
 * in test_sweep.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define V orc_v
#define PI 3.14159265358979323846

static void ensure_endpoints(const sat_shape *s, double x1, double y1, double x2, double y2,
                             double tol)
{
    sat_vec p, q;
    sat_segment_endpoints(s, &p, &q);
    ENSURE_NEAR(p.x, x1, tol);
    ENSURE_NEAR(p.y, y1, tol);
    ENSURE_NEAR(q.x, x2, tol);
    ENSURE_NEAR(q.y, y2, tol);
}

static void ensure_bbox(const sat_shape *s, double x1, double y1, double x2, double y2,
                        double tol)
{
    sat_aabb b = sat_shape_bbox(s);
    ENSURE_NEAR(b.x1, x1, tol);
    ENSURE_NEAR(b.y1, y1, tol);
    ENSURE_NEAR(b.x2, x2, tol);
    ENSURE_NEAR(b.y2, y2, tol);
}

static void test_segment_build(void)
{
    sat_shape *s = mk_segment(3, 4, 7, 1);
    sat_status st;
    sat_vec p;
    unsigned char mem[512];
    sat_shape *in = (sat_shape *)(void *)mem;
    ENSURE(sat_segment_bytes() >= sizeof(sat_shape) + 4 * sizeof(sat_vec));
    ENSURE(sat_segment_bytes() <= sizeof mem);
    ENSURE(sat_capsule_bytes() == sat_segment_bytes());
    if (s) {
        ENSURE_EQ_INT(s->kind, SAT_SEGMENT);
        p = sat_shape_position(s);
        ENSURE(p.x == 5 && p.y == 2.5);
        ensure_endpoints(s, 3, 4, 7, 1, 0);
        ENSURE(s->bound == 2.5 && s->radius == 0);
        ensure_bbox(s, 3, 1, 7, 4, 0);
        ENSURE(sat_shape_area(s) == 0);
        ENSURE(sat_circle_radius(s) == 0);
        ENSURE(sat_shape_bytes(s) == sat_segment_bytes());
    }
    sat_shape_free(s);
    /* In caller memory, and the refusals. */
    ENSURE_EQ_INT(sat_segment_init(in, -1, -1, 1, 1), SAT_OK);
    ENSURE_EQ_INT(sat_segment_init(in, 2, 3, 2, 3), SAT_ERR_SAME_POINTS);
    ENSURE(strstr(sat_status_message(SAT_ERR_SAME_POINTS), "endpoints") != NULL);
    ENSURE_EQ_INT(sat_segment_init(in, NAN, 0, 1, 1), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_segment_init(in, 0, 0, INFINITY, 1), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_segment_init(in, 0, 0, 2e150, 1), SAT_ERR_RANGE);
    ENSURE_EQ_INT(sat_segment_init(in, 0, 0, 1e-101, 0), SAT_ERR_RANGE); /* under 1e-100 */
    ENSURE_EQ_INT(sat_segment_init(in, 0, 0, 1e-99, 0), SAT_OK);
    ENSURE(sat_segment_new(1, 1, 1, 1, &st) == NULL && st == SAT_ERR_SAME_POINTS);
    ENSURE(sat_segment_new(1, 1, 1, 1, NULL) == NULL);
    /* Far from the origin: the midpoint is kept exactly (as a double-double), so the
     * endpoints come back as given. */
    s = mk_segment(1e9 + 0.5, -1e9, 1e9 + 3, -1e9 + 0.25);
    if (s)
        ensure_endpoints(s, 1e9 + 0.5, -1e9, 1e9 + 3, -1e9 + 0.25, 0);
    sat_shape_free(s);
    s = mk_segment(1e15, 1, 1, 1e15);
    if (s)
        ensure_endpoints(s, 1e15, 1, 1, 1e15, 0);
    sat_shape_free(s);
}

static void test_capsule_build(void)
{
    sat_shape *c = mk_capsule(0, 0, 4, 0, 1), *round = mk_capsule(5, 6, 5, 6, 2);
    sat_shape *flat = mk_capsule(0, 0, 0, 3, 0);
    unsigned char mem[512];
    sat_shape *in = (sat_shape *)(void *)mem;
    sat_status st;
    if (!c || !round || !flat)
        goto done;
    ENSURE_EQ_INT(c->kind, SAT_CAPSULE);
    ENSURE(sat_shape_position(c).x == 2 && sat_shape_position(c).y == 0);
    ENSURE(c->bound == 3 && sat_circle_radius(c) == 1);
    ensure_bbox(c, -1, -1, 5, 1, 0);
    ENSURE_NEAR(sat_shape_area(c), PI + 8, 1e-14); /* two half disks and a 4 x 2 box */
    /* Equal endpoints: circle-like. */
    ENSURE(sat_shape_position(round).x == 5 && sat_shape_position(round).y == 6);
    ensure_bbox(round, 3, 4, 7, 8, 0);
    ENSURE_NEAR(sat_shape_area(round), 4 * PI, 1e-14);
    ensure_endpoints(round, 5, 6, 5, 6, 0);
    /* Radius 0: segment-like. */
    ENSURE(sat_shape_area(flat) == 0 && flat->bound == 1.5);
    ENSURE_EQ_INT(sat_capsule_init(in, 0, 0, 1, 1, -1), SAT_ERR_NEGATIVE_RADIUS);
    ENSURE_EQ_INT(sat_capsule_init(in, 0, 0, 1, 1, NAN), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_capsule_init(in, 0, 0, 1, 1, 2e150), SAT_ERR_RANGE);
    ENSURE_EQ_INT(sat_capsule_init(in, 0, 0, 0, 0, 0), SAT_OK); /* a point */
    ENSURE(sat_capsule_new(0, 0, 1, 0, -0.5, &st) == NULL && st == SAT_ERR_NEGATIVE_RADIUS);
done:
    sat_shape_free(c);
    sat_shape_free(round);
    sat_shape_free(flat);
}

static void test_segment_transform(void)
{
    sat_shape *s = mk_segment(0, 0, 4, 0), *c = mk_capsule(0, 0, 4, 0, 1);
    if (!s || !c)
        goto done;
    /* Rotation and scale pivot about the midpoint (2, 0). */
    ENSURE_EQ_INT(sat_shape_rotate(s, PI / 2), SAT_OK);
    ensure_endpoints(s, 2, -2, 2, 2, 1e-15);
    ensure_bbox(s, 2, -2, 2, 2, 1e-15);
    ENSURE_EQ_INT(sat_shape_set_rotation(s, 0), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(s, 2), SAT_OK);
    ensure_endpoints(s, -2, 0, 6, 0, 0);
    ENSURE(s->bound == 4);
    ENSURE_EQ_INT(sat_shape_move(s, 1, 1), SAT_OK);
    ensure_endpoints(s, -1, 1, 7, 1, 0);
    /* A capsule's scale grows its radius too; setRadius sets it as given. */
    ENSURE_EQ_INT(sat_shape_scale(c, 3), SAT_OK);
    ensure_endpoints(c, -4, 0, 8, 0, 0);
    ENSURE(sat_circle_radius(c) == 3 && c->bound == 9);
    ENSURE_EQ_INT(sat_circle_set_radius(c, 0.5), SAT_OK);
    ENSURE(sat_circle_radius(c) == 0.5 && c->bound == 6.5);
    ensure_bbox(c, -4.5, -0.5, 8.5, 0.5, 0);
    ENSURE_EQ_INT(sat_shape_rotate(c, PI / 4), SAT_OK);
    ensure_endpoints(c, 2 - 3 * sqrt(2.0), -3 * sqrt(2.0), 2 + 3 * sqrt(2.0), 3 * sqrt(2.0),
                     1e-14);
    /* Refusals leave them as they were. */
    REFUSED(c, sat_shape_scale(c, 0), SAT_ERR_BAD_SCALE);
    REFUSED(c, sat_shape_scale(c, NAN), SAT_ERR_NONFINITE);
    REFUSED(c, sat_circle_set_radius(c, -1), SAT_ERR_NEGATIVE_RADIUS);
    REFUSED(c, sat_shape_rotate(c, INFINITY), SAT_ERR_NONFINITE);
    REFUSED(s, sat_shape_scale(s, 1e-101), SAT_ERR_RANGE); /* under 1e-100 long */
    REFUSED(s, sat_shape_scale(s, 1e150), SAT_ERR_RANGE);
    REFUSED(s, sat_shape_move(s, 2e150, 0), SAT_ERR_RANGE);
done:
    sat_shape_free(s);
    sat_shape_free(c);
}

static void test_segment_contains(void)
{
    sat_shape *s = mk_segment(0, 0, 4, 0), *c = mk_capsule(0, 0, 4, 0, 1);
    if (!s || !c)
        goto done;
    ENSURE(sat_shape_contains(s, 1, 0) && sat_shape_contains(s, 0, 0) &&
           sat_shape_contains(s, 4, 0));
    ENSURE(!sat_shape_contains(s, 1, 1e-9) && !sat_shape_contains(s, 4 + 1e-9, 0));
    ENSURE(!sat_shape_contains(s, -1, 0));
    ENSURE(sat_shape_contains(c, 2, 1) && sat_shape_contains(c, 2, -1));     /* sides */
    ENSURE(sat_shape_contains(c, -0.6, 0.8) && sat_shape_contains(c, 5, 0)); /* caps */
    ENSURE(!sat_shape_contains(c, 2, 1 + 1e-9) && !sat_shape_contains(c, -0.6, 0.8 + 1e-9));
    ENSURE(!sat_shape_contains(c, 4.8, 0.7)); /* a box's corner, outside the cap */
    ENSURE(!sat_shape_contains(c, NAN, 0));
done:
    sat_shape_free(s);
    sat_shape_free(c);
}

static void ensure_ray(const sat_shape *s, double x1, double y1, double x2, double y2, double t,
                       double nx, double ny, double tol)
{
    sat_hit hit;
    int got = sat_shape_raycast(s, V(x1, y1), V(x2, y2), &hit);
    ENSUREF(got == 1, "ray (%g, %g) -> (%g, %g) misses", x1, y1, x2, y2);
    if (!got)
        return;
    ENSURE_NEAR(hit.t, t, tol);
    ENSURE_NEAR(hit.normal.x, nx, tol);
    ENSURE_NEAR(hit.normal.y, ny, tol);
}

static void test_segment_raycast(void)
{
    sat_shape *s = mk_segment(0, 0, 4, 0), *c = mk_capsule(0, 0, 4, 0, 1);
    sat_hit hit;
    double r2 = sqrt(2.0);
    if (!s || !c)
        goto done;
    /* Across from either side: the side faced. */
    ensure_ray(s, 1, -2, 1, 2, 0.5, 0, -1, 0);
    ensure_ray(s, 1, 2, 1, -2, 0.5, 0, 1, 0);
    /* Along its line: its nearer end, facing the ray. */
    ensure_ray(s, -2, 0, 2, 0, 0.5, -1, 0, 1e-15);
    /* Grazing an end; starting on it (the side facing the ray). */
    ensure_ray(s, 4, -1, 4, 1, 0.5, 0, -1, 0);
    ensure_ray(s, 2, 0, 2, 5, 0, 0, -1, 0);
    ensure_ray(s, 2, 0, 2, -5, 0, 0, 1, 0);
    /* Misses: short, beside, parallel. */
    ENSURE(!sat_shape_raycast(s, V(1, -2), V(1, -1), &hit));
    ENSURE(!sat_shape_raycast(s, V(5, -2), V(5, 2), &hit));
    ENSURE(!sat_shape_raycast(s, V(-1, 1), V(5, 1), &hit));
    /* The capsule: a side face, a cap head-on and at 45 degrees, a start inside. */
    ensure_ray(c, 2, -3, 2, 3, 1.0 / 3.0, 0, -1, 1e-15);
    ensure_ray(c, -3, 0, 0, 0, 2.0 / 3.0, -1, 0, 1e-15);
    ensure_ray(c, -3, -3, 3, 3, (3 * r2 - 1) / (6 * r2), -1 / r2, -1 / r2, 1e-15);
    ensure_ray(c, 2, 0.5, 9, 9, 0, 0, 1, 0);
    ENSURE(!sat_shape_raycast(c, V(-3, 1.2), V(7, 1.2), &hit));
    ENSURE(!sat_shape_raycast(c, V(4.8, 2), V(4.8, 0.7), &hit)); /* stops short of the cap */
done:
    sat_shape_free(s);
    sat_shape_free(c);
}

void run_segment_tests(void)
{
    RUN_TEST(test_segment_build);
    RUN_TEST(test_capsule_build);
    RUN_TEST(test_segment_transform);
    RUN_TEST(test_segment_contains);
    RUN_TEST(test_segment_raycast);
}
