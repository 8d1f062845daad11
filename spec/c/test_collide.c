/*
 * test_collide.c - sat_test and sat_collide for every pair of kinds, in both orders, against
 * hand-computed overlaps, normals, MTVs and containment; touching (gap exactly 0, dyadic
 * coordinates) at edges and corners; near misses; far from the origin. Segments and capsules:
 * every degenerate contact (parallel edges, end on end, end on a corner, collinear overlap,
 * a segment through a circle's centre, a capsule of radius 0 and one with equal endpoints).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define V orc_v
#define PI 3.14159265358979323846
#define ANY NAN /* a normal component the test does not pin (ties between axes) */

/*
 * a and b collide with this overlap and normal (tol), and these containment flags; the
 * swapped call agrees bit for bit; sat_test agrees both ways; mtv = -normal * overlap; and
 * moving a by the mtv leaves the pair touching.
 */
static void expect(const char *what, const sat_shape *a, const sat_shape *b, double overlap,
                   double nx, double ny, double tol, int a_in_b, int b_in_a)
{
    sat_result r, s;
    sat_shape *moved;
    int hit = sat_collide(a, b, &r), hit2 = sat_collide(b, a, &s);
    ENSUREF(hit == 1 && hit2 == 1, "%s: collide %d / %d", what, hit, hit2);
    ENSUREF(sat_test(a, b) == 1 && sat_test(b, a) == 1, "%s: sat_test", what);
    if (!hit || !hit2)
        return;
    ENSUREF(fabs(r.overlap - overlap) <= tol, "%s: overlap %.17g, want %.17g", what, r.overlap,
            overlap);
    if (overlap == 0)
        ENSUREF(r.overlap == 0, "%s: touching gives overlap %.17g, not 0", what, r.overlap);
    if (!isnan(nx))
        ENSUREF(fabs(r.normal.x - nx) <= tol, "%s: normal.x %.17g, want %.17g", what,
                r.normal.x, nx);
    if (!isnan(ny))
        ENSUREF(fabs(r.normal.y - ny) <= tol, "%s: normal.y %.17g, want %.17g", what,
                r.normal.y, ny);
    ENSUREF(fabs(hypot(r.normal.x, r.normal.y) - 1) <= 1e-15, "%s: normal (%g, %g) not unit",
            what, r.normal.x, r.normal.y);
    ENSUREF(r.mtv.x == -r.normal.x * r.overlap && r.mtv.y == -r.normal.y * r.overlap,
            "%s: mtv (%g, %g)", what, r.mtv.x, r.mtv.y);
    ENSUREF(r.a_in_b == a_in_b && r.b_in_a == b_in_a, "%s: a_in_b %d b_in_a %d, want %d %d", what,
            r.a_in_b, r.b_in_a, a_in_b, b_in_a);
    /* Swapped: the same numbers, the normal negated, the flags swapped. (A shape against
     * itself is one call either way.) */
    ENSUREF(a == b || (s.overlap == r.overlap && s.normal.x == -r.normal.x &&
                       s.normal.y == -r.normal.y && s.mtv.x == -r.mtv.x && s.mtv.y == -r.mtv.y &&
                       s.a_in_b == r.b_in_a && s.b_in_a == r.a_in_b),
            "%s: swapped gives overlap %.17g normal (%.17g, %.17g)", what, s.overlap, s.normal.x,
            s.normal.y);
    /* Resolved: a moved by the mtv touches b. */
    moved = sat_shape_clone(a);
    if (moved && sat_shape_move(moved, r.mtv.x, r.mtv.y) == SAT_OK) {
        sat_result t;
        int again = sat_collide(moved, b, &t);
        ENSUREF(again == 1 && t.overlap <= 1e-12 * (a->bound + b->bound),
                "%s: after the mtv: hit %d overlap %.3g", what, again, again ? t.overlap : -1.0);
    }
    sat_shape_free(moved);
}

/* a and b are apart: both orders return 0, sat_test too, and the result is not written. */
static void expect_apart(const char *what, const sat_shape *a, const sat_shape *b)
{
    sat_result r, before;
    memset(&r, 0x5a, sizeof r);
    before = r;
    ENSUREF(sat_collide(a, b, &r) == 0 && sat_collide(b, a, &r) == 0, "%s: collides", what);
    ENSUREF(memcmp(&r, &before, sizeof r) == 0, "%s: result written on a miss", what);
    ENSUREF(sat_test(a, b) == 0 && sat_test(b, a) == 0, "%s: sat_test", what);
}

static void test_polygon_polygon(void)
{
    static const double tri[] = {0, 0, 4, 0, 0, 4};
    sat_shape *a = mk_box(0, 0, 4, 4), *b = mk_box(3, 1, 7, 3), *c = mk_box(1, 3.5, 5, 10);
    sat_shape *t = mk_polygon(tri, 3), *d = mk_box(1.5, 1.5, 5, 5), *e = mk_box(-1, -1, 1, 1);
    sat_shape *f = mk_box(1, -1, 3, 1), *g = mk_box(6, 4, 8, 6), *h = mk_box(0, 0, 10, 10);
    sat_shape *k = mk_box(0, 0, 4, 2);
    if (!a || !b || !c || !t || !d || !e || !f || !g || !h || !k)
        goto done;
    expect("boxes, x", a, b, 1, 1, 0, 0, 0, 0);
    expect("boxes, y", a, c, 0.5, 0, 1, 0, 0, 0);
    expect("triangle / box on the slanted side", t, d, sqrt(0.5), sqrt(0.5), sqrt(0.5), 1e-15, 0,
           0);
    sat_shape_set_rotation(e, PI / 4); /* a diamond reaching x = sqrt(2) */
    expect("diamond corner into a box", e, f, sqrt(2.0) - 1, 1, 0, 1e-15, 0, 0);
    expect("box inside a box", g, h, 4, -1, 0, 0, 1, 0);
    expect("box around a box", h, g, 4, 1, 0, 0, 0, 1);
    expect("a box on itself", k, k, 2, 0, ANY, 0, 1, 1);
    {
        sat_shape *k2 = sat_shape_clone(k);
        if (k2)
            expect("a box on its clone", k, k2, 2, 0, ANY, 0, 1, 1);
        sat_shape_free(k2);
    }
done:
    sat_shape_free(a), sat_shape_free(b), sat_shape_free(c), sat_shape_free(t);
    sat_shape_free(d), sat_shape_free(e), sat_shape_free(f), sat_shape_free(g);
    sat_shape_free(h), sat_shape_free(k);
}

static void test_circle_circle(void)
{
    sat_shape *a = mk_circle(0, 0, 2), *b = mk_circle(3, 0, 2), *c = mk_circle(0, 0, 3);
    sat_shape *d = mk_circle(3, 4, 4), *e = mk_circle(1, 0, 1), *f = mk_circle(0, 0, 5);
    sat_shape *g = mk_circle(0, 0, 1), *p = mk_circle(1, 0, 0), *q = mk_circle(1, 0, 0);
    if (!a || !b || !c || !d || !e || !f || !g || !p || !q)
        goto done;
    expect("circles along x", a, b, 1, 1, 0, 0, 0, 0);
    expect("circles 3-4-5", c, d, 2, 0.6, 0.8, 1e-15, 0, 0);
    expect("circle inside a circle", e, f, 5, -1, 0, 0, 1, 0);
    expect("concentric circles", g, a, 3, ANY, ANY, 0, 1, 0);
    expect("a point in a circle", p, a, 1, -1, 0, 0, 1, 0);
    expect("a point on a point", p, q, 0, ANY, ANY, 0, 1, 1);
done:
    sat_shape_free(a), sat_shape_free(b), sat_shape_free(c), sat_shape_free(d);
    sat_shape_free(e), sat_shape_free(f), sat_shape_free(g), sat_shape_free(p);
    sat_shape_free(q);
}

static void test_circle_polygon(void)
{
    sat_shape *box = mk_box(0, 0, 4, 4), *big = mk_box(0, 0, 10, 10), *bar = mk_box(1, -1, 3, 1);
    sat_shape *c1 = mk_circle(5, 2, 2), *c2 = mk_circle(7, 8, 6), *c3 = mk_circle(7, 5, 1);
    sat_shape *c4 = mk_circle(0, 0, 10), *pt = mk_circle(1, 1.5, 0);
    static const double tri[] = {0, 0, 6, 0, 0, 6};
    sat_shape *t = mk_polygon(tri, 3);
    if (!box || !big || !bar || !c1 || !c2 || !c3 || !c4 || !pt || !t)
        goto done;
    /* Circle first (normal from the circle toward the polygon); expect() swaps too. */
    expect("circle over a side", c1, box, 1, -1, 0, 0, 0, 0);
    expect("circle over a corner", c2, box, 1, -0.6, -0.8, 1e-15, 0, 0);
    expect("circle inside a box", c3, big, 4, -1, 0, 0, 1, 0);
    expect("box around a circle", big, c3, 4, 1, 0, 0, 0, 1);
    expect("box inside a circle", bar, c4, 9, -1, 0, 0, 1, 0);
    expect("a point inside a box", pt, box, 1, 1, 0, 0, 1, 0);
    /* A circle whose centre is inside the triangle near its slanted side: depth is the
     * distance to that side plus the radius. Centre (2.5, 2.5): 1/sqrt(2) from x + y = 6. */
    {
        sat_shape *c = mk_circle(2.5, 2.5, 0.5);
        if (c)
            expect("circle centre inside a triangle", c, t, sqrt(0.5) + 0.5, -sqrt(0.5),
                   -sqrt(0.5), 1e-15, 1, 0);
        sat_shape_free(c);
    }
done:
    sat_shape_free(box), sat_shape_free(big), sat_shape_free(bar), sat_shape_free(c1);
    sat_shape_free(c2), sat_shape_free(c3), sat_shape_free(c4), sat_shape_free(pt);
    sat_shape_free(t);
}

static void test_touching(void)
{
    static const double tri[] = {0, 0, 4, 0, 0, 4};
    static const double peak[] = {0, 0, 2, 0, 1, 2};
    sat_shape *s = mk_box(0, 0, 2, 2), *e1 = mk_box(2, 0, 4, 2), *e2 = mk_box(2, 1, 4, 3);
    sat_shape *k = mk_box(2, 2, 4, 4), *t = mk_polygon(tri, 3), *d = mk_box(2, 2, 5, 5);
    sat_shape *p = mk_polygon(peak, 3), *top = mk_box(0, 2, 2, 4);
    sat_shape *c1 = mk_circle(0, 0, 1), *c2 = mk_circle(3, 0, 2), *c3 = mk_circle(0, 0, 1.5);
    sat_shape *c4 = mk_circle(0, -4, 2.5), *c5 = mk_circle(0, 0, 2), *c6 = mk_circle(3, 4, 3);
    sat_shape *side = mk_circle(3, 1, 1), *corner = mk_circle(5, 6, 5);
    sat_shape *pe = mk_circle(2, 1, 0), *pc = mk_circle(2, 2, 0), *pr = mk_circle(3, 4, 0);
    sat_shape *big = mk_circle(0, 0, 5);
    if (!s || !e1 || !e2 || !k || !t || !d || !p || !top || !c1 || !c2 || !c3 || !c4 || !c5 ||
        !c6 || !side || !corner || !pe || !pc || !pr || !big)
        goto done;
    /* Polygon / polygon. */
    expect("boxes sharing a side", s, e1, 0, 1, 0, 0, 0, 0);
    expect("boxes sharing half a side", s, e2, 0, 1, 0, 0, 0, 0);
    expect("boxes meeting at corners", s, k, 0, ANY, ANY, 0, 0, 0);
    {
        sat_result r;
        if (sat_collide(s, k, &r))
            ENSURE((r.normal.x == 1 && r.normal.y == 0) || (r.normal.x == 0 && r.normal.y == 1));
    }
    expect("box corner on a triangle's slanted side", t, d, 0, sqrt(0.5), sqrt(0.5), 1e-15, 0, 0);
    expect("triangle apex on a box side", p, top, 0, 0, 1, 0, 0, 0);
    /* Circle / circle. */
    expect("circles along x", c1, c2, 0, 1, 0, 0, 0, 0);
    expect("circles along y", c3, c4, 0, 0, -1, 0, 0, 0);
    expect("circles 3-4-5", c5, c6, 0, 0.6, 0.8, 1e-15, 0, 0);
    expect("point on a circle", pr, big, 0, -0.6, -0.8, 1e-15, 1, 0);
    /* Circle / polygon. */
    expect("circle on a side", side, s, 0, -1, 0, 0, 0, 0);
    expect("circle on a corner, 3-4-5", corner, s, 0, -0.6, -0.8, 1e-15, 0, 0);
    expect("point on a side", pe, s, 0, -1, 0, 0, 1, 0);
    expect("point on a corner", pc, s, 0, ANY, ANY, 0, 1, 0);
    {
        sat_result r;
        if (sat_collide(pc, s, &r))
            ENSURE(r.normal.x <= 0 && r.normal.y <= 0);
    }
done:
    sat_shape_free(s), sat_shape_free(e1), sat_shape_free(e2), sat_shape_free(k);
    sat_shape_free(t), sat_shape_free(d), sat_shape_free(p), sat_shape_free(top);
    sat_shape_free(c1), sat_shape_free(c2), sat_shape_free(c3), sat_shape_free(c4);
    sat_shape_free(c5), sat_shape_free(c6), sat_shape_free(side), sat_shape_free(corner);
    sat_shape_free(pe), sat_shape_free(pc), sat_shape_free(pr), sat_shape_free(big);
}

static void test_touching_tolerance(void)
{
    /* A gap far below the touching tolerance (1e-12 of the pair's size) is touching with
     * overlap 0; a gap of 1e-9 of it is apart. */
    sat_shape *a = mk_box(0, 0, 2, 2), *b = mk_box(2 + 1e-15, 0, 4, 2), *c = mk_box(2 + 3e-9, 0, 4, 2);
    sat_shape *d = mk_circle(0, 0, 1), *e = mk_circle(2 + 1e-15, 0, 1), *f = mk_circle(2 + 3e-9, 0, 1);
    sat_shape *g = mk_circle(3 + 1e-15, 1, 1), *h = mk_circle(3 + 3e-9, 1, 1);
    if (!a || !b || !c || !d || !e || !f || !g || !h)
        goto done;
    expect("boxes 1e-15 apart", a, b, 0, 1, 0, 0, 0, 0);
    expect_apart("boxes 3e-9 apart", a, c);
    expect("circles 1e-15 apart", d, e, 0, 1, 0, 0, 0, 0);
    expect_apart("circles 3e-9 apart", d, f);
    expect("box and circle 1e-15 apart", g, a, 0, -1, 0, 0, 0, 0);
    expect_apart("box and circle 3e-9 apart", h, a);
done:
    sat_shape_free(a), sat_shape_free(b), sat_shape_free(c), sat_shape_free(d);
    sat_shape_free(e), sat_shape_free(f), sat_shape_free(g), sat_shape_free(h);
}

static void test_apart(void)
{
    static const double tri[] = {0, 0, 4, 0, 0, 4};
    sat_shape *s = mk_box(0, 0, 2, 2), *b = mk_box(2.001, 0, 4, 2), *t = mk_polygon(tri, 3);
    sat_shape *d = mk_box(2.001, 2.001, 5, 5), *c1 = mk_circle(0, 0, 1), *c2 = mk_circle(3.001, 0, 2);
    sat_shape *side = mk_circle(3.001, 1, 1), *corner = mk_circle(5, 6, 4.999);
    sat_shape *pt = mk_circle(2.001, 1, 0), *q = mk_circle(2.0001, 0, 0);
    if (!s || !b || !t || !d || !c1 || !c2 || !side || !corner || !pt || !q)
        goto done;
    expect_apart("boxes", s, b);
    expect_apart("triangle and a box off its slanted side", t, d);
    expect_apart("circles", c1, c2);
    expect_apart("circle off a side", side, s);
    expect_apart("circle off a corner", corner, s);
    expect_apart("point off a side", pt, s);
    expect_apart("point off a circle", q, c1);
    expect_apart("two points", pt, q);
    /* Boxes apart along the diagonal only: every axis of a box overlaps but the triangle's. */
    {
        sat_shape *u = mk_box(1.6, 2.6, 4, 5);
        if (u)
            expect_apart("box beyond the slanted side", t, u);
        sat_shape_free(u);
    }
done:
    sat_shape_free(s), sat_shape_free(b), sat_shape_free(t), sat_shape_free(d);
    sat_shape_free(c1), sat_shape_free(c2), sat_shape_free(side), sat_shape_free(corner);
    sat_shape_free(pt), sat_shape_free(q);
}

static void test_far_from_origin(void)
{
    /* The same pairs moved to 1e9 and 1e15 give the same overlap, exactly here. */
    static const double far[] = {1e9, -1e9, 1e15, 1e15, -3e15, 5e14};
    int i;
    for (i = 0; i < 3; i++) {
        double x = far[2 * i], y = far[2 * i + 1];
        sat_shape *a = mk_box(0, 0, 4, 4), *b = mk_box(3, 1, 7, 3);
        sat_shape *c = mk_circle(0, 0, 3), *d = mk_circle(3, 4, 4), *e = mk_circle(7, 8, 6);
        if (a && b && c && d && e) {
            sat_shape_move(a, x, y), sat_shape_move(b, x, y), sat_shape_move(c, x, y);
            sat_shape_move(d, x, y), sat_shape_move(e, x, y);
            expect("boxes far out", a, b, 1, 1, 0, 0, 0, 0);
            expect("circles far out", c, d, 2, 0.6, 0.8, 1e-15, 0, 0);
            expect("circle on a corner far out", e, a, 1, -0.6, -0.8, 1e-15, 0, 0);
        }
        sat_shape_free(a), sat_shape_free(b), sat_shape_free(c), sat_shape_free(d);
        sat_shape_free(e);
    }
}

static void test_rotated_and_scaled(void)
{
    /* A 2 x 2 box turned 30 degrees and doubled, against a circle on its (turned) right side:
     * the side's normal is (cos 30, sin 30), 2 from the centre. */
    sat_shape *b = mk_box(-1, -1, 1, 1), *c;
    double cs = cos(PI / 6), sn = sin(PI / 6);
    if (!b)
        return;
    sat_shape_set_rotation(b, PI / 6);
    sat_shape_scale(b, 2);
    c = mk_circle(2.5 * cs, 2.5 * sn, 1);
    if (c) {
        expect("circle on a turned, scaled box", c, b, 0.5, -cs, -sn, 1e-14, 0, 0);
        sat_shape_free(c);
    }
    sat_shape_free(b);
}

static void test_extreme_sizes(void)
{
    /* The same picture at every scale: circles of radius R, the second R above the first,
     * overlap by R along (0, 1); a point R / 2 above a circle's centre is inside it by R / 2.
     * Found by the fuzzer: lengths whose square underflows or overflows. The core may
     * refuse sizes it cannot handle; what it accepts must come out right. */
    static const double scales[] = {1e-200, 1e-160, 1e-100, 1, 1e100, 1e160, 1e200, 1e300};
    int i;
    for (i = 0; i < 8; i++) {
        double R = scales[i];
        char what[64];
        sat_shape *a = sat_circle_new(0, 0, R, NULL), *b = sat_circle_new(0, R, R, NULL);
        sat_shape *p = sat_circle_new(0, R / 2, 0, NULL);
        if (a && b && p) {
            snprintf(what, sizeof what, "circles of radius %g", R);
            expect(what, a, b, R, 0, 1, 1e-15 * R, 0, 0);
            snprintf(what, sizeof what, "a point in a circle of radius %g", R);
            expect(what, a, p, R / 2, 0, 1, 1e-15 * R, 0, 1);
        }
        sat_shape_free(a), sat_shape_free(b), sat_shape_free(p);
    }
}

static void test_polygon_segment(void)
{
    sat_shape *box = mk_box(0, 0, 4, 4), *s[8];
    s[0] = mk_segment(1, 4, 3, 4);         /* flat on the top: parallel edges */
    s[1] = mk_segment(1, 3, 3, 3);         /* sunk 1 into it */
    s[2] = mk_segment(-1, 1, 5, 1);        /* right through it, 1 above the bottom */
    s[3] = mk_segment(4, 4, 6, 6);         /* an end on the corner (4, 4) */
    s[4] = mk_capsule(7, 8, 7, 12, 6);     /* an end 5 from the corner: 1 deep, exactly */
    s[5] = mk_capsule(7, 8, 7, 12, 5);     /* ... touching it */
    s[6] = mk_capsule(1, 5, 3, 5, 1.5);    /* lying on the top, 0.5 deep */
    s[7] = mk_capsule(-1, 2, 5, 2, 3);     /* around the box (its corners 2 from the core) */
    if (!box || !all_built(s, 8))
        goto done;
    /* the segment first: the normal points from it toward the box */
    expect("segment flat on a box", s[0], box, 0, 0, -1, 0, 1, 0);
    expect("segment sunk into a box", s[1], box, 1, 0, -1, 0, 1, 0);
    expect("segment through a box", s[2], box, 1, 0, 1, 0, 0, 0);
    expect("segment's end on a box's corner", s[3], box, 0, ANY, ANY, 0, 0, 0);
    expect("capsule's end into a box's corner", s[4], box, 1, -0.6, -0.8, 1e-15, 0, 0);
    expect("capsule's end touching a box's corner", s[5], box, 0, -0.6, -0.8, 1e-15, 0, 0);
    expect("capsule lying on a box", s[6], box, 0.5, 0, -1, 0, 0, 0);
    expect("box inside a capsule", box, s[7], 5, 0, ANY, 0, 1, 0);
done:
    sat_shape_free(box);
    free_shapes(s, 8);
}

static void test_circle_segment(void)
{
    sat_shape *s = mk_segment(-5, 0, 5, 0), *c[6];
    c[0] = mk_circle(0, 0, 2);   /* the segment through its centre */
    c[1] = mk_circle(0, 0.5, 2); /* above */
    c[2] = mk_circle(0, -0.5, 2);
    c[3] = mk_circle(7, 0, 2.5); /* beyond the end (5, 0) */
    c[4] = mk_circle(1, 0, 0);   /* a point on the segment */
    c[5] = mk_circle(0, 0, 10);  /* around it */
    if (!s || !all_built(c, 6))
        goto done;
    /* A centre on the segment is pushed to its left (counter-clockwise) side: +y here. */
    expect("a segment through a circle's centre", c[0], s, 2, 0, -1, 0, 0, 0);
    expect("circle above a segment", c[1], s, 1.5, 0, -1, 0, 0, 0);
    expect("circle below a segment", c[2], s, 1.5, 0, 1, 0, 0, 0);
    expect("circle off a segment's end", c[3], s, 0.5, -1, 0, 0, 0, 0);
    expect("a point on a segment", c[4], s, 0, 0, -1, 0, 1, 0);
    expect("segment inside a circle", c[5], s, 10, 0, -1, 0, 0, 1);
done:
    sat_shape_free(s);
    free_shapes(c, 6);
}

static void test_segment_segment(void)
{
    sat_shape *s[12];
    s[0] = mk_segment(-1, 0, 1, 0), s[1] = mk_segment(0, -1, 0, 1);    /* an X */
    s[2] = mk_segment(0, 0, 2, 0), s[3] = mk_segment(1, 0, 1, 2);      /* a T */
    s[4] = mk_segment(0, 0, 1, 0), s[5] = mk_segment(1, 0, 2, 1);      /* end on end, bent */
    s[6] = mk_segment(1, 0, 2, 0);                                     /* end on end, in line */
    s[7] = mk_segment(1, 0, 3, 0), s[8] = mk_segment(2, 0, 0, 0);      /* collinear overlap */
    s[9] = mk_segment(0, 0, 4, 0);                                     /* around s[6] */
    s[10] = mk_segment(1.5, 0, 3, 0), s[11] = mk_segment(-1, 1, 3, 1); /* apart */
    if (!all_built(s, 12))
        goto done;
    expect("crossing segments", s[0], s[1], 1, ANY, ANY, 0, 0, 0);
    expect("T junction", s[2], s[3], 0, 0, 1, 0, 0, 0);
    expect("end on end, at an angle", s[4], s[5], 0, ANY, ANY, 0, 0, 0);
    /* On one line: overlap 0 along the left normal of the first in the canonical order (the
     * midpoint with the smaller x here); swapped (expect() checks) it is negated. */
    expect("end on end, on one line", s[4], s[6], 0, 0, 1, 0, 0, 0);
    expect("collinear overlap", s[2], s[7], 0, 0, 1, 0, 0, 0);
    expect("collinear overlap, the first running backward", s[8], s[7], 0, 0, -1, 0, 0, 0);
    expect("a collinear sub-segment", s[6], s[9], 0, 0, 1, 0, 1, 0);
    expect_apart("collinear, apart end to end", s[4], s[10]);
    expect_apart("parallel, 1 apart", s[2], s[11]);
done:
    free_shapes(s, 12);
}

/* A capsule of radius 0 is its segment, and one with equal endpoints its circle, against
 * every kind: the same results (the same arithmetic for the first, within rounding for the
 * second). */
static void test_degenerate_capsules(void)
{
    sat_shape *flat = mk_capsule(0, 0, 2, 0, 0), *seg = mk_segment(0, 0, 2, 0);
    sat_shape *dot = mk_capsule(1, 1, 1, 1, 2), *circ = mk_circle(1, 1, 2), *o[5];
    int i;
    o[0] = mk_box(1, -1, 3, 1), o[1] = mk_circle(2, 1.5, 2);
    o[2] = mk_capsule(1, 0.5, 3, 2, 1), o[3] = mk_segment(-1, 1, 3, -1);
    o[4] = mk_polygon((const double[]){0.5, -1, 2.5, 1, 0.5, 1}, 3);
    if (!flat || !seg || !dot || !circ || !all_built(o, 5))
        goto done;
    for (i = 0; i < 5; i++) {
        sat_result r1, r2;
        int h1 = sat_collide(flat, o[i], &r1), h2 = sat_collide(seg, o[i], &r2);
        ENSUREF(h1 && h2, "radius 0, other %d: hit %d / %d", i, h1, h2);
        if (h1 && h2 && i != 3) /* (two segments order by kind first) */
            ENSUREF(r1.overlap == r2.overlap && r1.normal.x == r2.normal.x &&
                        r1.normal.y == r2.normal.y && r1.a_in_b == r2.a_in_b &&
                        r1.b_in_a == r2.b_in_a,
                    "radius 0, other %d: overlap %.17g vs %.17g", i, r1.overlap, r2.overlap);
        h1 = sat_collide(dot, o[i], &r1), h2 = sat_collide(circ, o[i], &r2);
        ENSUREF(h1 && h2, "equal endpoints, other %d: hit %d / %d", i, h1, h2);
        if (h1 && h2)
            ENSUREF(fabs(r1.overlap - r2.overlap) <= 1e-15 &&
                        fabs(r1.normal.x - r2.normal.x) <= 1e-15 &&
                        fabs(r1.normal.y - r2.normal.y) <= 1e-15 && r1.a_in_b == r2.a_in_b &&
                        r1.b_in_a == r2.b_in_a,
                    "equal endpoints, other %d: overlap %.17g vs %.17g, normal (%g, %g) vs "
                    "(%g, %g)", i, r1.overlap, r2.overlap, r1.normal.x, r1.normal.y,
                    r2.normal.x, r2.normal.y);
    }
done:
    sat_shape_free(flat), sat_shape_free(seg), sat_shape_free(dot), sat_shape_free(circ);
    free_shapes(o, 5);
}

static void test_capsule_capsule(void)
{
    sat_shape *c[9];
    c[0] = mk_capsule(0, 0, 4, 0, 1), c[1] = mk_capsule(1, 1.5, 3, 1.5, 1); /* side by side */
    c[2] = mk_capsule(0, 0, 2, 0, 1), c[3] = mk_capsule(3, 0, 5, 0, 1);     /* end to end */
    c[4] = mk_capsule(-2, 0, 2, 0, 1), c[5] = mk_capsule(0, -2, 0, 2, 1);   /* crossing */
    c[6] = mk_capsule(0, 0, 1, 0, 0.5), c[7] = mk_capsule(-1, 0, 3, 0, 2);  /* one in another */
    c[8] = mk_circle(2, 0.5, 0.5); /* in c[0], touching its side from inside */
    if (!all_built(c, 9))
        goto done;
    expect("capsules side by side", c[0], c[1], 0.5, 0, 1, 0, 0, 0);
    expect("capsules end to end", c[2], c[3], 1, 1, 0, 0, 0, 0);
    expect("capsules crossing", c[4], c[5], 4, ANY, ANY, 0, 0, 0);
    expect("capsule inside a capsule, on one line", c[6], c[7], 2.5, 0, 1, 0, 1, 0);
    expect("circle inside a capsule", c[8], c[0], 1, 0, -1, 0, 1, 0);
done:
    free_shapes(c, 9);
}

/* The same picture at every scale the core accepts: two capsules of radius R, their
 * segments R apart side by side, overlap by R; a segment through them both. */
static void test_capsule_extreme_sizes(void)
{
    static const double scales[] = {1e-90, 1e-40, 1, 1e40, 1e100, 1e140};
    int i;
    for (i = 0; i < 6; i++) {
        double R = scales[i];
        char what[64];
        sat_shape *a = sat_capsule_new(0, 0, 2 * R, 0, R, NULL);
        sat_shape *b = sat_capsule_new(0, R, 2 * R, R, R, NULL);
        sat_shape *s = sat_segment_new(R, -R, R, 2 * R, NULL);
        ENSUREF(a && b && s, "built at %g", R);
        if (a && b && s) {
            snprintf(what, sizeof what, "capsules of radius %g", R);
            expect(what, a, b, R, 0, 1, 1e-15 * R, 0, 0);
            snprintf(what, sizeof what, "a segment across a capsule of radius %g", R);
            expect(what, s, a, 2 * R, ANY, ANY, 1e-15 * R, 0, 0);
        }
        sat_shape_free(a), sat_shape_free(b), sat_shape_free(s);
    }
}

/* Far from the origin the answers are those at the origin, bit for bit. */
static void test_segments_far_away(void)
{
    sat_shape *a[4], *b[4];
    int i;
    a[0] = mk_capsule(7, 8, 7, 12, 6), b[0] = mk_box(0, 0, 4, 4);
    a[1] = mk_segment(0, 0, 2, 0), b[1] = mk_segment(1, -1, 1.5, 2);
    a[2] = mk_circle(0, 0.5, 2), b[2] = mk_capsule(-5, 0, 5, 0.25, 0.5);
    a[3] = mk_capsule(0.1, 0.2, 3.3, 1.7, 1.1), b[3] = mk_capsule(1.3, 2.9, 2.1, -0.7, 0.3);
    if (!all_built(a, 4) || !all_built(b, 4))
        goto done;
    for (i = 0; i < 4; i++) {
        sat_result r0, r1;
        int h0 = sat_collide(a[i], b[i], &r0), h1;
        ENSUREF(h0, "pair %d collides", i);
        sat_shape_move(a[i], 1e9, -3e9);
        sat_shape_move(b[i], 1e9, -3e9);
        h1 = sat_collide(a[i], b[i], &r1);
        ENSUREF(h0 == h1 && r0.overlap == r1.overlap && r0.normal.x == r1.normal.x &&
                    r0.normal.y == r1.normal.y,
                "pair %d: overlap %.17g at 0, %.17g at 1e9", i, r0.overlap, r1.overlap);
    }
done:
    free_shapes(a, 4);
    free_shapes(b, 4);
}

void run_collide_tests(void)
{
    RUN_TEST(test_polygon_polygon);
    RUN_TEST(test_circle_circle);
    RUN_TEST(test_circle_polygon);
    RUN_TEST(test_touching);
    RUN_TEST(test_touching_tolerance);
    RUN_TEST(test_apart);
    RUN_TEST(test_far_from_origin);
    RUN_TEST(test_rotated_and_scaled);
    RUN_TEST(test_extreme_sizes);
    RUN_TEST(test_polygon_segment);
    RUN_TEST(test_circle_segment);
    RUN_TEST(test_segment_segment);
    RUN_TEST(test_degenerate_capsules);
    RUN_TEST(test_capsule_capsule);
    RUN_TEST(test_segments_far_away);
    RUN_TEST(test_capsule_extreme_sizes);
}
