/*
 * test_transform.c - move_to, move, position, set_rotation, rotate, rotation, scale,
 * set_radius, radius; every refused change leaves the shape byte for byte as it was; lean
 * polygons (no local points apart until their first turn or scale).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define V orc_v
#define PI 3.14159265358979323846

static void test_move_to_and_move(void)
{
    sat_shape *b = mk_box(0, 0, 4, 2), *c = mk_circle(1, 1, 1);
    sat_vec want[4], p;
    int i;
    if (!b || !c)
        goto done;
    ENSURE_EQ_INT(sat_shape_move_to(b, 10, -5), SAT_OK);
    p = sat_shape_position(b);
    ENSURE(p.x == 10 && p.y == -5);
    want[0] = V(8, -6), want[1] = V(12, -6), want[2] = V(12, -4), want[3] = V(8, -4);
    ENSURE(same_outline(b, want, 4, 0));
    ENSURE_EQ_INT(sat_shape_move(b, -0.5, 0.25), SAT_OK);
    p = sat_shape_position(b);
    ENSURE(p.x == 9.5 && p.y == -4.75);
    ENSURE_EQ_INT(sat_shape_move_to(c, -3, 4), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(c, 1, 1), SAT_OK);
    p = sat_shape_position(c);
    ENSURE(p.x == -2 && p.y == 5);
    ENSURE(sat_circle_radius(c) == 1);
    /* Ten moves by 0.1 land where one move by 1 does (to rounding of the sum). */
    ENSURE_EQ_INT(sat_shape_move_to(c, 0, 0), SAT_OK);
    for (i = 0; i < 10; i++)
        ENSURE_EQ_INT(sat_shape_move(c, 0.1, -0.1), SAT_OK);
    p = sat_shape_position(c);
    ENSURE_NEAR(p.x, 1, 1e-15);
    ENSURE_NEAR(p.y, -1, 1e-15);
    /* The position is a double-double: out to 1e9 and back is exact. */
    ENSURE_EQ_INT(sat_shape_move_to(b, 0.1, 0.3), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(b, 1e9, -1e9), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(b, -1e9, 1e9), SAT_OK);
    p = sat_shape_position(b);
    ENSURE(p.x == 0.1 && p.y == 0.3);
    /* And a small step far out is kept, not rounded away. */
    ENSURE_EQ_INT(sat_shape_move_to(b, 1e16, 0), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(b, 0.5, 0), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(b, 0.5, 0), SAT_OK);
    p = sat_shape_position(b);
    ENSURE(p.x == 1e16 + 1);
done:
    sat_shape_free(b);
    sat_shape_free(c);
}

static void test_rotation(void)
{
    sat_shape *b = mk_box(0, 0, 4, 2), *c = mk_circle(3, 3, 2);
    sat_vec want[4];
    if (!b || !c)
        goto done;
    ENSURE_EQ_INT(sat_shape_set_rotation(b, PI / 2), SAT_OK);
    ENSURE(sat_shape_rotation(b) == PI / 2);
    /* About the centroid (2, 1): the 4 x 2 box stands up as 2 x 4. */
    want[0] = V(3, -1), want[1] = V(3, 3), want[2] = V(1, 3), want[3] = V(1, -1);
    ENSURE(same_outline(b, want, 4, 1e-15));
    ENSURE(sat_shape_position(b).x == 2 && sat_shape_position(b).y == 1);
    ENSURE_NEAR(sat_shape_area(b), 8, 1e-14);
    ENSURE_EQ_INT(sat_shape_rotate(b, PI / 2), SAT_OK);
    ENSURE(sat_shape_rotation(b) == PI);
    want[0] = V(4, 2), want[1] = V(0, 2), want[2] = V(0, 0), want[3] = V(4, 0);
    ENSURE(same_outline(b, want, 4, 1e-15));
    ENSURE_EQ_INT(sat_shape_set_rotation(b, 0.5), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate(b, 0.25), SAT_OK);
    ENSURE_NEAR(sat_shape_rotation(b), 0.75, 1e-16);
    {
        /* Vertex (4, 0) of the box, rotated 0.75 about (2, 1). */
        double cs = cos(0.75), sn = sin(0.75);
        sat_vec v = V(2 + 2 * cs + 1 * sn, 1 + 2 * sn - 1 * cs);
        int i, found = 0;
        for (i = 0; i < b->count; i++) {
            sat_vec w = sat_polygon_vertex(b, i);
            if (fabs(w.x - v.x) < 1e-14 && fabs(w.y - v.y) < 1e-14)
                found++;
        }
        ENSURE_EQ_INT(found, 1);
    }
    /* Many turns: any finite angle works, and a full turn changes nothing visible. */
    ENSURE_EQ_INT(sat_shape_set_rotation(b, 2 * PI * 1000), SAT_OK);
    want[0] = V(0, 0), want[1] = V(4, 0), want[2] = V(4, 2), want[3] = V(0, 2);
    ENSURE(same_outline(b, want, 4, 1e-11));
    /* A circle keeps its centre and radius. */
    ENSURE_EQ_INT(sat_shape_set_rotation(c, 1), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate(c, 1), SAT_OK);
    ENSURE(sat_shape_rotation(c) == 2);
    ENSURE(sat_shape_position(c).x == 3 && sat_shape_position(c).y == 3);
    ENSURE(sat_circle_radius(c) == 2);
done:
    sat_shape_free(b);
    sat_shape_free(c);
}

static void test_scale(void)
{
    static const double tri[] = {0, 0, 6, 0, 0, 6};
    sat_shape *t = mk_polygon(tri, 3), *c = mk_circle(1, 2, 3), *pt = mk_circle(0, 0, 0);
    sat_vec want[3];
    if (!t || !c || !pt)
        goto done;
    ENSURE_EQ_INT(sat_shape_scale(t, 2), SAT_OK);
    /* About the centroid (2, 2). */
    want[0] = V(-2, -2), want[1] = V(10, -2), want[2] = V(-2, 10);
    ENSURE(same_outline(t, want, 3, 1e-14));
    ENSURE_NEAR(sat_shape_area(t), 72, 1e-12);
    ENSURE(sat_shape_position(t).x == 2 && sat_shape_position(t).y == 2);
    ENSURE_EQ_INT(sat_shape_scale(t, 0.25), SAT_OK);
    want[0] = V(1, 1), want[1] = V(4, 1), want[2] = V(1, 4);
    ENSURE(same_outline(t, want, 3, 1e-14));
    ENSURE_NEAR(sat_shape_area(t), 4.5, 1e-13);
    /* Scale and rotation compose about the same pivot. */
    ENSURE_EQ_INT(sat_shape_set_rotation(t, PI), SAT_OK);
    want[0] = V(3, 3), want[1] = V(0, 3), want[2] = V(3, 0);
    ENSURE(same_outline(t, want, 3, 1e-14));
    /* Circles: scale multiplies the world radius; set_radius sets it. */
    ENSURE_EQ_INT(sat_shape_scale(c, 3), SAT_OK);
    ENSURE(sat_circle_radius(c) == 9);
    ENSURE_NEAR(sat_shape_area(c), PI * 81, 1e-12);
    ENSURE(sat_shape_position(c).x == 1 && sat_shape_position(c).y == 2);
    ENSURE_EQ_INT(sat_circle_set_radius(c, 2), SAT_OK);
    ENSURE(sat_circle_radius(c) == 2);
    ENSURE_EQ_INT(sat_shape_scale(c, 0.5), SAT_OK);
    ENSURE(sat_circle_radius(c) == 1);
    ENSURE_EQ_INT(sat_circle_set_radius(c, 0), SAT_OK);
    ENSURE(sat_circle_radius(c) == 0);
    /* A point stays a point. */
    ENSURE_EQ_INT(sat_shape_scale(pt, 5), SAT_OK);
    ENSURE(sat_circle_radius(pt) == 0);
done:
    sat_shape_free(t);
    sat_shape_free(c);
    sat_shape_free(pt);
}

static void test_errors_leave_shape_unchanged(void)
{
    sat_shape *b = mk_box(-1, -2, 3, 4), *c = mk_circle(5, 5, 2), *s;
    int k;
    if (!b || !c)
        goto done;
    ENSURE_EQ_INT(sat_shape_set_rotation(b, 0.3), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(b, 1.5), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(c, 1e-3, 0), SAT_OK); /* a nonzero low part */
    for (k = 0; k < 2; k++) {
        s = k == 0 ? b : c;
        REFUSED(s, sat_shape_move_to(s, NAN, 0), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_move_to(s, 0, INFINITY), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_move(s, NAN, 1), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_move(s, 1, -INFINITY), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_set_rotation(s, NAN), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_set_rotation(s, INFINITY), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_rotate(s, -INFINITY), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_rotate(s, NAN), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_rotate_about(s, NAN, 0, 0), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_rotate_about(s, 1, NAN, 0), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_rotate_about(s, 1, 0, -INFINITY), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_set_rotation_about(s, INFINITY, 0, 0), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_set_rotation_about(s, 1, 0, NAN), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_scale(s, 0), SAT_ERR_BAD_SCALE);
        REFUSED(s, sat_shape_scale(s, -0.0), SAT_ERR_BAD_SCALE);
        REFUSED(s, sat_shape_scale(s, -2), SAT_ERR_BAD_SCALE);
        REFUSED(s, sat_shape_scale(s, NAN), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_scale(s, INFINITY), SAT_ERR_NONFINITE);
        REFUSED(s, sat_shape_scale(s, -INFINITY), SAT_ERR_NONFINITE);
    }
    REFUSED(c, sat_circle_set_radius(c, -1), SAT_ERR_NEGATIVE_RADIUS);
    REFUSED(c, sat_circle_set_radius(c, NAN), SAT_ERR_NONFINITE);
    REFUSED(c, sat_circle_set_radius(c, INFINITY), SAT_ERR_NONFINITE);
    /* Finite numbers beyond SAT_MAX_COORD (1e150), given or reached: positions, sizes. */
    for (k = 0; k < 2; k++) {
        s = k == 0 ? b : c;
        REFUSED(s, sat_shape_move_to(s, 1.5e308, -1.5e308), SAT_ERR_RANGE);
        REFUSED(s, sat_shape_move_to(s, 0, 2e150), SAT_ERR_RANGE);
        ENSURE_EQ_INT(sat_shape_move_to(s, 1e150, -1e150), SAT_OK);
        REFUSED(s, sat_shape_move(s, 1e308, 0), SAT_ERR_RANGE);
        REFUSED(s, sat_shape_move(s, 0, -1e150), SAT_ERR_RANGE);
        ENSURE_EQ_INT(sat_shape_set_rotation(s, 1.5e308), SAT_OK);
        REFUSED(s, sat_shape_rotate(s, 1e308), SAT_ERR_ANGLE); /* finite, but the sum is not */
        REFUSED(s, sat_shape_rotate_about(s, 1e308, 0, 0), SAT_ERR_ANGLE);
        REFUSED(s, sat_shape_rotate_about(s, 1, 2e150, 0), SAT_ERR_RANGE); /* the pivot */
        REFUSED(s, sat_shape_rotate_about(s, PI, -1e150, 0), SAT_ERR_RANGE); /* reached */
        ENSURE_EQ_INT(sat_shape_scale(s, 1e100), SAT_OK);
        REFUSED(s, sat_shape_scale(s, 1e100), SAT_ERR_RANGE);
        ENSURE(sat_shape_bbox(s).x2 >= sat_shape_bbox(s).x1);
    }
    REFUSED(c, sat_circle_set_radius(c, 2e150), SAT_ERR_RANGE);
    /* Underflow to a zero scale is refused too. */
    s = mk_box(-1, -2, 3, 4);
    for (k = 0; s && k < 3; k++) { /* 1e-300, then 1e-600 underflows */
        sat_shape *before = sat_shape_clone(s);
        sat_status st = sat_shape_scale(s, 1e-300);
        ENSUREF(st != SAT_OK ? same_bytes(before, s) : s->scale > 0,
                "status %d, scale %g", (int)st, s->scale);
        ENSURE(sat_shape_area(s) >= 0);
        sat_shape_free(before);
    }
    if (s)
        ENSURE(s->scale > 0);
    sat_shape_free(s);
done:
    sat_shape_free(b);
    sat_shape_free(c);
}

/* A huge but finite size is either refused or kept as a finite size: a shape 1e200 across
 * must not touch or contain what lies 1e250 away. */
static void check_huge(const char *what, sat_shape *s, sat_status st)
{
    sat_shape *far = mk_circle(1e150, 0, 1);
    sat_result r;
    ENSUREF(st == SAT_OK, "%s: %s", what, sat_status_message(st));
    if (st == SAT_OK && s && far) {
        sat_aabb b = sat_shape_bbox(s);
        ENSUREF(isfinite(b.x1) && isfinite(b.x2) && b.x2 < 1.5e140, "%s: bbox x %g .. %g", what,
                b.x1, b.x2);
        ENSUREF(!sat_shape_contains(s, 1e150, 0), "%s: contains a point 1e150 away", what);
        ENSUREF(!sat_test(s, far), "%s: sat_test with a circle 1e150 away", what);
        ENSUREF(!sat_collide(s, far, &r), "%s: sat_collide with a circle 1e150 away", what);
        ENSUREF(sat_shape_contains(s, 0, 9e139), "%s: misses a point inside", what);
    }
    sat_shape_free(far);
}

static void test_huge_finite_sizes(void)
{
    sat_vec pts[4];
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *b = mk_box(-1, -1, 1, 1), *c = mk_circle(0, 0, 1), *p;
    if (b)
        check_huge("box scaled by 1e140", b, sat_shape_scale(b, 1e140));
    if (c)
        check_huge("circle scaled by 1e140", c, sat_shape_scale(c, 1e140));
    pts[0] = orc_v(-1e140, -1e140), pts[1] = orc_v(1e140, -1e140);
    pts[2] = orc_v(1e140, 1e140), pts[3] = orc_v(-1e140, 1e140);
    p = sat_polygon_new(pts, 4, &st);
    check_huge("box with corners at 1e140", p, st);
    sat_shape_free(p);
    /* Beyond the range: refused, not built with infinite sizes. */
    pts[0] = orc_v(-1e200, -1e200), pts[1] = orc_v(1e200, -1e200);
    p = sat_polygon_new(pts, 4, &st);
    ENSURE(p == NULL && st == SAT_ERR_RANGE);
    /* Tiny outlines: 1e-90 across is a working polygon, 1e-120 is refused (its area would
     * underflow), and scaling below SAT_MIN_SIZE is refused without a change. */
    pts[0] = orc_v(0, 0), pts[1] = orc_v(1e-90, 0);
    pts[2] = orc_v(1e-90, 1e-90), pts[3] = orc_v(0, 1e-90);
    p = sat_polygon_new(pts, 4, &st);
    ENSURE(p != NULL && st == SAT_OK);
    if (p) {
        ENSURE(sat_shape_contains(p, 0.5e-90, 0.5e-90));
        ENSURE(!sat_shape_contains(p, 1.5e-90, 0.5e-90));
        ENSURE_NEAR(sat_shape_area(p), 1e-180, 1e-194);
        REFUSED(p, sat_shape_scale(p, 1e-20), SAT_ERR_RANGE);
        sat_shape_free(p);
    }
    pts[1] = orc_v(1e-120, 0), pts[2] = orc_v(1e-120, 1e-120), pts[3] = orc_v(0, 1e-120);
    p = sat_polygon_new(pts, 4, &st);
    ENSURE(p == NULL && st == SAT_ERR_RANGE);
    sat_shape_free(b);
    sat_shape_free(c);
    sat_shape_free(p);
}

/* A box turned three times about pivots near it, all shifted by o. */
static sat_shape *turned_box(double o)
{
    sat_shape *s = mk_box(o + 2, o - 1, o + 6, o + 1);
    if (s) {
        ENSURE_EQ_INT(sat_shape_rotate_about(s, 1.0, o + 0.125, o - 0.375), SAT_OK);
        ENSURE_EQ_INT(sat_shape_rotate_about(s, 0.7, o + 0.5, o + 0.25), SAT_OK);
        ENSURE_EQ_INT(sat_shape_set_rotation_about(s, 1.5, o - 0.25, o + 0.5), SAT_OK);
    }
    return s;
}

/* Rotation about a pivot (HC's rotate(angle, cx, cy)): the shape turns and its position
 * moves on the circle about the pivot; as exact far from the origin as near it. */
static void test_rotate_about_pivot(void)
{
    sat_shape *b = mk_box(2, -1, 6, 1), *c = mk_circle(3, 0, 1), *far = NULL, *probe = NULL;
    sat_shape *near = NULL;
    sat_vec p, want[4];
    sat_result r0, r1;
    if (!b || !c)
        goto done;
    /* a quarter turn about (0, 0): the box's centre (4, 0) goes to (0, 4), its outline too */
    ENSURE_EQ_INT(sat_shape_rotate_about(b, PI / 2, 0, 0), SAT_OK);
    p = sat_shape_position(b);
    ENSURE_NEAR(p.x, 0, 1e-15);
    ENSURE_NEAR(p.y, 4, 1e-15);
    ENSURE(sat_shape_rotation(b) == PI / 2);
    want[0] = V(1, 2), want[1] = V(1, 6), want[2] = V(-1, 6), want[3] = V(-1, 2);
    ENSURE(same_outline(b, want, 4, 1e-14));
    /* setRotation about a pivot turns by the difference: back to 0 puts it back */
    ENSURE_EQ_INT(sat_shape_set_rotation_about(b, 0, 0, 0), SAT_OK);
    want[0] = V(2, -1), want[1] = V(6, -1), want[2] = V(6, 1), want[3] = V(2, 1);
    ENSURE(same_outline(b, want, 4, 1e-14));
    ENSURE(sat_shape_rotation(b) == 0);
    /* setting the rotation it has moves nothing, exactly */
    ENSURE_EQ_INT(sat_shape_set_rotation_about(b, 0, 123, -45), SAT_OK);
    ENSURE(same_outline(b, want, 4, 0));
    /* about its own position it is a plain rotation; a circle's centre moves too */
    ENSURE_EQ_INT(sat_shape_rotate_about(b, 0.5, 4, 0), SAT_OK);
    p = sat_shape_position(b);
    ENSURE(p.x == 4 && p.y == 0);
    ENSURE_EQ_INT(sat_shape_rotate_about(c, -PI / 2, 3, 2), SAT_OK);
    p = sat_shape_position(c);
    ENSURE_NEAR(p.x, 1, 1e-15);
    ENSURE_NEAR(p.y, 2, 1e-15);
    ENSURE(sat_circle_radius(c) == 1 && sat_shape_rotation(c) == -PI / 2);
    /* two angles of opposite signs whose difference overflows: still the right turn */
    ENSURE_EQ_INT(sat_shape_set_rotation(c, 1e308), SAT_OK);
    ENSURE_EQ_INT(sat_shape_set_rotation_about(c, -1e308, 0, 0), SAT_OK);
    ENSURE(sat_shape_rotation(c) == -1e308);
    p = sat_shape_position(c);
    ENSURE_NEAR(sqrt(p.x * p.x + p.y * p.y), sqrt(5.0), 1e-14);
    /* Far from the origin: the same turns about the same pivots, all shifted by 1e9, give
     * the same overlap with a probe as at the origin. Position doubles alone (1e-7 apart
     * there) would miss by far more than the 1e-12 allowed. */
    near = turned_box(0);
    far = turned_box(1e9);
    probe = mk_box(-0.75, 2, 0.25, 3.5);
    if (near && far && probe) {
        ENSURE(sat_collide(near, probe, &r0));
        sat_shape_move(probe, 1e9, 1e9);
        ENSURE(sat_collide(far, probe, &r1));
        ENSURE(r0.overlap > 0.1);
        ENSURE_NEAR(r1.overlap, r0.overlap, 1e-12 * r0.overlap);
        ENSURE_NEAR(r1.normal.x, r0.normal.x, 1e-12);
        ENSURE_NEAR(r1.normal.y, r0.normal.y, 1e-12);
        ENSURE_NEAR(sat_shape_position(far).x - 1e9, sat_shape_position(near).x, 3e-7);
    }
done:
    sat_shape_free(b);
    sat_shape_free(c);
    sat_shape_free(far);
    sat_shape_free(near);
    sat_shape_free(probe);
}

/* ---- lean polygons (sat_polygon_build_lean) ------------------------------------------ */

/* The outline pts built lean in memory of its own (malloc), or NULL. */
static sat_shape *lean_polygon(const sat_vec *pts, int n)
{
    sat_vec work[16];
    sat_outline o;
    sat_shape *s;
    if (n > 16 || sat_polygon_validate(pts, n, work, &o) != SAT_OK)
        return NULL;
    s = (sat_shape *)malloc(sat_polygon_lean_bytes(o.count));
    if (s)
        sat_polygon_build_lean(s, &o);
    return s;
}

/* Whether a and b have the same transform and the same normals, planes and offsets, bit for
 * bit (what every query and pair test reads), whatever their layouts. */
static int same_geometry(const sat_shape *a, const sat_shape *b)
{
    size_t arrays = sat_polygon_lean_bytes(a->count) - sizeof(sat_shape);
    return a->kind == b->kind && a->count == b->count &&
           memcmp(&a->pos, &b->pos, sizeof a->pos) == 0 &&
           memcmp(&a->pos_lo, &b->pos_lo, sizeof a->pos_lo) == 0 &&
           memcmp(&a->bound, &b->bound, sizeof a->bound) == 0 &&
           memcmp(&a->scale, &b->scale, sizeof a->scale) == 0 &&
           memcmp(&a->angle, &b->angle, sizeof a->angle) == 0 &&
           memcmp(a->v, b->v, arrays) == 0 && sat_shape_area(a) == sat_shape_area(b);
}

static void test_lean_polygon(void)
{
    /* An irregular 5-gon, with coordinates that round when rotated. */
    static const double xy[] = {0.1, 0.2, 3.3, -0.7, 4.1, 2.9, 1.7, 4.4, -0.9, 2.3};
    sat_vec pts[5];
    sat_shape *in = NULL, *lean = NULL, *copy = NULL, *clone = NULL, *ref = NULL;
    sat_vec *block = NULL;
    int i;
    for (i = 0; i < 5; i++)
        pts[i] = V(xy[2 * i], xy[2 * i + 1]);
    in = mk_polygon(xy, 5);
    lean = lean_polygon(pts, 5);
    ENSURE(in != NULL && lean != NULL);
    if (!in || !lean)
        goto done;
    /* No room for the local points: 16 bytes a vertex fewer. */
    ENSURE(sat_polygon_lean_bytes(5) + 5 * sizeof(sat_vec) == sat_polygon_bytes(5));
    ENSURE(sat_shape_bytes(lean) == sat_polygon_lean_bytes(5));
    ENSURE(sat_shape_local_bytes(lean) == 5 * sizeof(sat_vec));
    ENSURE(sat_shape_local_bytes(in) == 0);
    /* The same geometry as built inline, bit for bit. */
    ENSURE(same_geometry(lean, in));
    /* Rotation 0 (either zero) and scale 1 need no block. */
    ENSURE_EQ_INT(sat_shape_set_rotation(lean, 0.0), SAT_OK);
    ENSURE_EQ_INT(sat_shape_set_rotation(lean, -0.0), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate(lean, 0.0), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(lean, 1.0), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate_about(lean, 0.0, 5, 5), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate_about(in, 0.0, 5, 5), SAT_OK); /* (the position moves) */
    ENSURE_EQ_INT(sat_shape_set_rotation(lean, 0.0), SAT_OK);
    ENSURE(same_geometry(lean, in));
    /* Anything else is refused, after every other check, and changes nothing. */
    REFUSED(lean, sat_shape_set_rotation(lean, 0.5), SAT_ERR_NO_LOCAL);
    REFUSED(lean, sat_shape_rotate(lean, -1e-300), SAT_ERR_NO_LOCAL);
    REFUSED(lean, sat_shape_rotate_about(lean, 1, 3, 4), SAT_ERR_NO_LOCAL);
    REFUSED(lean, sat_shape_set_rotation_about(lean, 2, -3, 4), SAT_ERR_NO_LOCAL);
    REFUSED(lean, sat_shape_scale(lean, 2), SAT_ERR_NO_LOCAL);
    REFUSED(lean, sat_shape_rotate(lean, NAN), SAT_ERR_NONFINITE);
    REFUSED(lean, sat_shape_rotate_about(lean, PI, -1e150, 0), SAT_ERR_RANGE);
    REFUSED(lean, sat_shape_scale(lean, -1), SAT_ERR_BAD_SCALE);
    REFUSED(lean, sat_shape_scale(lean, 1e200), SAT_ERR_RANGE);
    ENSURE(strstr(sat_status_message(SAT_ERR_NO_LOCAL), "sat_shape_give_local") != NULL);
    ENSURE(same_geometry(lean, in));
    /* A copy of it is lean too, and as refused. */
    copy = (sat_shape *)malloc(sat_shape_bytes(lean));
    if (copy) {
        sat_shape_copy(copy, lean);
        ENSURE(sat_shape_bytes(copy) == sat_polygon_lean_bytes(5));
        ENSURE(same_geometry(copy, in));
        ENSURE_EQ_INT(sat_shape_rotate(copy, 1), SAT_ERR_NO_LOCAL);
    }
    /* Given its block, it turns and scales as the inline one does, bit for bit. */
    block = (sat_vec *)malloc(sat_shape_local_bytes(lean));
    ENSURE(block != NULL);
    if (!block)
        goto done;
    sat_shape_give_local(lean, block);
    ENSURE(sat_shape_local_bytes(lean) == 0);
    ENSURE(sat_shape_bytes(lean) == sat_polygon_bytes(5)); /* what a copy needs */
    for (i = 0; i < 5; i++) /* the offsets (entries n to 2n), copied in */
        ENSURE(block[i].x == lean->v[5 + i].x && block[i].y == lean->v[5 + i].y);
    sat_shape_give_local(lean, NULL); /* nothing: it has one */
    ENSURE_EQ_INT(sat_shape_rotate(lean, 0.7), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate(in, 0.7), SAT_OK);
    ENSURE(same_geometry(lean, in));
    ENSURE_EQ_INT(sat_shape_scale(lean, 2), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(in, 2), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate_about(lean, -2, 1e9, 3), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate_about(in, -2, 1e9, 3), SAT_OK);
    ENSURE(same_geometry(lean, in));
    /* A clone of it keeps its points in its own storage: independent of the block. */
    clone = sat_shape_clone(lean);
    ENSURE(clone != NULL);
    if (clone) {
        ENSURE(sat_shape_bytes(clone) == sat_polygon_bytes(5));
        ENSURE(same_geometry(clone, in));
        ENSURE_EQ_INT(sat_shape_rotate(lean, 1.25), SAT_OK);
        ENSURE_EQ_INT(sat_shape_rotate(in, 1.25), SAT_OK);
        ENSURE(same_geometry(lean, in));
        ENSURE(!same_geometry(clone, in)); /* the clone did not turn */
        ENSURE_EQ_INT(sat_shape_rotate(clone, 1.25), SAT_OK);
        ENSURE(same_geometry(clone, in));
    }
    /* Back to rotation 0 and scale 1 (after turns about a far pivot): the normals, planes,
     * offsets and bound it was built with, bit for bit. */
    ref = mk_polygon(xy, 5);
    ENSURE_EQ_INT(sat_shape_set_rotation_about(lean, 0, 1e9, 3), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(lean, 0.5), SAT_OK);
    ENSURE(sat_shape_rotation(lean) == 0 && lean->scale == 1);
    if (ref) {
        ENSURE(memcmp(lean->v, ref->v, sat_polygon_lean_bytes(5) - sizeof(sat_shape)) == 0);
        ENSURE(lean->bound == ref->bound && sat_shape_area(lean) == sat_shape_area(ref));
    }
done:
    free(block);
    free(copy);
    sat_shape_free(clone);
    sat_shape_free(ref);
    free(lean);
    sat_shape_free(in);
}

/* A compound of lean polygons (one given a block and turned, one not) is the compound of the
 * same polygons built inline: its parts keep their local points in its own storage, and
 * nothing of the sources (freed before it turns: ASan would see a read). */
static void test_lean_parts(void)
{
    static const double tri[] = {0, 0, 3, 0, 1, 2}, quad[] = {4, 0, 7, 1, 6, 3, 4, 2};
    sat_vec pt[3], pq[4];
    sat_shape *lt = NULL, *lq = NULL, *it = mk_polygon(tri, 3), *iq = mk_polygon(quad, 4);
    sat_shape *lc = NULL, *ic = NULL, *cc = NULL;
    const sat_shape *parts[2];
    void *block = NULL;
    sat_status st;
    int i;
    for (i = 0; i < 3; i++)
        pt[i] = V(tri[2 * i], tri[2 * i + 1]);
    for (i = 0; i < 4; i++)
        pq[i] = V(quad[2 * i], quad[2 * i + 1]);
    lt = lean_polygon(pt, 3);
    lq = lean_polygon(pq, 4);
    ENSURE(lt && lq && it && iq);
    if (!lt || !lq || !it || !iq)
        goto done;
    block = malloc(sat_shape_local_bytes(lq));
    if (!block)
        goto done;
    sat_shape_give_local(lq, block);
    ENSURE_EQ_INT(sat_shape_rotate(lq, 0.3), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate(iq, 0.3), SAT_OK);
    parts[0] = lt, parts[1] = lq;
    lc = sat_compound_new(parts, 2, &st);
    parts[0] = it, parts[1] = iq;
    ic = sat_compound_new(parts, 2, &st);
    ENSURE(lc && ic);
    if (!lc || !ic)
        goto done;
    ENSURE(sat_shape_bytes(lc) == sat_shape_bytes(ic));
    free(lq), lq = NULL;
    free(block), block = NULL;
    free(lt), lt = NULL;
    ENSURE_EQ_INT(sat_shape_rotate(lc, 1.1), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(lc, 1.75), SAT_OK);
    ENSURE_EQ_INT(sat_shape_rotate(ic, 1.1), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(ic, 1.75), SAT_OK);
    /* a copy is a memcpy, parts and all */
    cc = sat_shape_clone(lc);
    ENSURE(cc != NULL);
    for (i = 0; i < 2; i++) {
        ENSURE(same_geometry(sat_compound_part(lc, i), sat_compound_part(ic, i)));
        if (cc)
            ENSURE(same_geometry(sat_compound_part(cc, i), sat_compound_part(ic, i)));
    }
    ENSURE(sat_shape_area(lc) == sat_shape_area(ic));
done:
    free(block);
    free(lt);
    free(lq);
    sat_shape_free(it);
    sat_shape_free(iq);
    sat_shape_free(lc);
    sat_shape_free(ic);
    sat_shape_free(cc);
}

static double uniform(ctest_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(ctest_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

/* Random outlines (a quarter of them on a grid, with coordinates 0 and -0),
 * lean with a block and inline, through random turns and scales (tiny and subnormal angles
 * among them): the same geometry, bit for bit, at every step. */
static void test_lean_random(void)
{
    ctest_rng g = {20261126u};
    int k, bad = 0;
    for (k = 0; k < 3000 && bad < 5; k++) {
        sat_vec pts[8], pts2[8];
        double r = uniform(&g, 0.5, 50), a0 = uniform(&g, 0, 2 * PI);
        int n = 3 + (int)(ctest_next(&g) % 6), i, step;
        sat_shape *in, *lean;
        void *block;
        for (i = 0; i < n; i++) {
            double a = a0 + (i + uniform(&g, -0.3, 0.3)) * (2 * PI / n);
            pts[i] = V(r * cos(a), r * sin(a));
            if (k % 4 == 1) /* on a grid: exact zeros, some negative */
                pts[i] = V(floor(pts[i].x), floor(pts[i].y));
            if (k % 4 == 1 && pts[i].x == 0 && i % 2)
                pts[i].x = -0.0;
            if (k % 4 == 1 && pts[i].y == 0 && i % 2)
                pts[i].y = -0.0;
            pts2[i] = pts[i];
        }
        in = sat_polygon_new(pts, n, NULL);
        lean = lean_polygon(pts2, n);
        if (!in || !lean) { /* a grid outline may not validate: both refuse it */
            ENSURE(!in && !lean);
            sat_shape_free(in);
            free(lean);
            continue;
        }
        if (!same_geometry(lean, in))
            bad++;
        block = malloc(sat_shape_local_bytes(lean));
        if (!block) {
            sat_shape_free(in);
            free(lean);
            break;
        }
        sat_shape_give_local(lean, block);
        for (step = 0; step < 6; step++) {
            unsigned op = (unsigned)(ctest_next(&g) % 5);
            double x = op == 0   ? uniform(&g, -7, 7)
                       : op == 1 ? ldexp(uniform(&g, -1, 1), -1000 - (int)(ctest_next(&g) % 74))
                       : op == 2 ? -sat_shape_rotation(in)
                       : op == 3 ? uniform(&g, 0.25, 4)
                                 : 0.5;
            sat_status s1, s2;
            if (op <= 2) {
                s1 = sat_shape_rotate(lean, x);
                s2 = sat_shape_rotate(in, x);
            } else {
                s1 = sat_shape_scale(lean, x);
                s2 = sat_shape_scale(in, x);
            }
            ENSURE(s1 == s2);
            if (!same_geometry(lean, in))
                bad++;
        }
        free(block);
        free(lean);
        sat_shape_free(in);
    }
    ENSUREF(bad == 0, "%d lean polygons differ from inline ones (case %d)", bad, k);
}

void run_transform_tests(void)
{
    RUN_TEST(test_move_to_and_move);
    RUN_TEST(test_rotation);
    RUN_TEST(test_rotate_about_pivot);
    RUN_TEST(test_scale);
    RUN_TEST(test_errors_leave_shape_unchanged);
    RUN_TEST(test_huge_finite_sizes);
    RUN_TEST(test_lean_polygon);
    RUN_TEST(test_lean_parts);
    RUN_TEST(test_lean_random);
}
