/*
 * test_explain.c - sat_explain, sat_contacts and sat_sweep_contact.
 *
 * sat_explain: for random pairs of every ordered pair of kinds, the verdict and the result
 * are sat_collide's bit for bit; the axes obey what they claim (the deciding axis is the
 * first separating one, or none separates on a hit and the deciding one is along the
 * normal; measured intervals give the overlap; swapping a and b swaps the intervals and
 * nothing else); and hand-made pairs name the features a reader expects.
 * sat_contacts: on random overlapping pairs the points lie inside both shapes (an oracle of
 * signed distances from oracle.h), on the same pairs moved apart by their MTV on both
 * surfaces, both within 1e-9 of the pair's size; the same points in either order, bit for
 * bit; hand-made contacts (faces, corners, round ends, crossing segments) exactly.
 * sat_sweep_contact: the hit is sat_sweep's; the point lies on both shapes where they are at
 * the time of the touch, also when both move.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define V orc_v
#define PI 3.14159265358979323846
#define PAIRS 20000
#define TOL_REL 1e-9
#define SEED 0xe4b1a1c0ffeeULL
#define MAX_AXES 64

static double uniform(ctest_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(ctest_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

static int below(ctest_rng *r, int n)
{
    return (int)(ctest_next(r) % (uint64_t)n);
}

static const char *kind_name(sat_kind k)
{
    static const char *const names[] = {"polygon", "circle", "segment", "capsule"};
    return names[k];
}

/* A random shape of the kind about (x, y), up to about 20 across: polygons of 3 to 12
 * vertices on a jittered ellipse, points among the circles, segment-like (radius 0) and
 * circle-like (one endpoint) capsules among the capsules; rotated and scaled. */
static sat_shape *random_shape(ctest_rng *r, sat_kind kind, double x, double y)
{
    sat_shape *s;
    if (kind == SAT_POLYGON) {
        double xy[24], rx = uniform(r, 1, 10), ry = rx * uniform(r, 0.2, 1), ph = uniform(r, 0, 2 * PI);
        int n = 3 + below(r, 10);
        for (int i = 0; i < n; i++) {
            double t = ph + 2 * PI * (i + uniform(r, -0.3, 0.3)) / n;
            xy[2 * i] = x + rx * cos(t);
            xy[2 * i + 1] = y + ry * sin(t);
        }
        s = mk_polygon(xy, n);
    } else if (kind == SAT_CIRCLE) {
        s = mk_circle(x, y, below(r, 8) == 0 ? 0.0 : uniform(r, 0.5, 10));
    } else {
        double len = uniform(r, 0.5, 10), phi = uniform(r, 0, 2 * PI);
        double hx = len * cos(phi), hy = len * sin(phi), rad = uniform(r, 0.5, 8);
        int style = below(r, 8);
        if (kind == SAT_SEGMENT)
            return mk_segment(x - hx, y - hy, x + hx, y + hy);
        if (style == 0)
            rad = 0.0;
        if (style == 1)
            hx = hy = 0.0;
        s = mk_capsule(x - hx, y - hy, x + hx, y + hy, rad);
    }
    if (s && kind != SAT_CIRCLE) {
        ENSURE(sat_shape_set_rotation(s, uniform(r, -PI, PI)) == SAT_OK);
        ENSURE(sat_shape_scale(s, uniform(r, 0.5, 2)) == SAT_OK);
    }
    return s;
}

/* b placed at a random direction from a, about half the pairs overlapping. */
static void random_pair(ctest_rng *r, sat_kind ka, sat_kind kb, sat_shape **a, sat_shape **b)
{
    double x = uniform(r, -100, 100), y = uniform(r, -100, 100);
    *a = random_shape(r, ka, x, y);
    *b = random_shape(r, kb, 0, 0);
    if (*a && *b) {
        double phi = uniform(r, 0, 2 * PI), dist = uniform(r, 0, 1.1) * ((*a)->bound + (*b)->bound);
        ENSURE(sat_shape_move_to(*b, x + dist * cos(phi), y + dist * sin(phi)) == SAT_OK);
    }
}

/* ---- the oracle: signed distance of a point to a shape (negative inside) ------------ */

static double signed_distance(const sat_shape *s, sat_vec q)
{
    if (s->kind == SAT_POLYGON) {
        sat_vec p[ORC_MAX_POINTS];
        int n = s->count;
        for (int i = 0; i < n; i++)
            p[i] = sat_polygon_vertex(s, i);
        double m = orc_edge_margin(q, p, n);
        return m <= 0.0 ? m : orc_outline_distance(q, p, n);
    }
    if (s->kind == SAT_CIRCLE) {
        sat_vec c = sat_shape_position(s);
        return hypot(q.x - c.x, q.y - c.y) - s->radius;
    }
    sat_vec p1, p2;
    sat_segment_endpoints(s, &p1, &p2);
    return orc_segment_distance(q, p1, p2) - s->radius;
}

/* ---- sat_explain ---------------------------------------------------------------------- */

static int kind_axes(const sat_shape *s)
{
    return s->kind == SAT_POLYGON ? s->count : 0;
}

/* One pair: the explanation against sat_collide, and against the explanation of (b, a). */
static void check_explained(long i, const sat_shape *a, const sat_shape *b, long *stats)
{
    sat_axis ax[MAX_AXES], bx[MAX_AXES];
    sat_explanation e, f;
    sat_result r;
    double size = a->bound + b->bound, tol = TOL_REL * (size + 200);
    int hit = sat_collide(a, b, &r), k;
    memset(&e, 0x5a, sizeof e);
    ENSURE_EQ_INT(sat_explain(a, b, &e, ax, MAX_AXES), hit);
    ENSURE_EQ_INT(e.hit, hit);
    ENSUREF(e.count >= 1 && e.count <= kind_axes(a) + kind_axes(b) + 5 && e.count <= MAX_AXES,
            "pair %ld: %d axes", i, e.count);
    if (e.count < 1 || e.count > MAX_AXES)
        return;
    if (hit) {
        /* bit for bit */
        ENSUREF(memcmp(&e.result, &r, sizeof r) == 0,
                "pair %ld: explained overlap %.17g normal (%.17g, %.17g), collide %.17g "
                "(%.17g, %.17g)", i, e.result.overlap, e.result.normal.x, e.result.normal.y,
                r.overlap, r.normal.x, r.normal.y);
        ENSUREF(e.deciding >= 0 && e.deciding < e.count, "pair %ld: deciding %d of %d", i,
                e.deciding, e.count);
        for (k = 0; k < e.count; k++)
            ENSUREF(!ax[k].separates, "pair %ld: a hit, but axis %d separates", i, k);
        if (e.deciding >= 0 && e.deciding < e.count) {
            const sat_axis *d = &ax[e.deciding];
            double along = d->normal.x * r.normal.x + d->normal.y * r.normal.y;
            ENSUREF(fabs(fabs(along) - 1.0) <= 1e-12, "pair %ld: deciding axis (%g, %g), normal "
                    "(%g, %g)", i, d->normal.x, d->normal.y, r.normal.x, r.normal.y);
            /* its overlap is the depth (touching: clamped to 0; collinear segments: the
             * radii, from the same axis) */
            ENSUREF(d->overlap == r.overlap || r.overlap == 0.0 ||
                        (a->kind >= SAT_SEGMENT && b->kind >= SAT_SEGMENT),
                    "pair %ld: deciding overlap %.17g, depth %.17g", i, d->overlap, r.overlap);
        }
        ENSUREF(e.containment >= 0.0 && e.containment <= r.overlap,
                "pair %ld: containment %.17g of %.17g", i, e.containment, r.overlap);
        if (!r.a_in_b && !r.b_in_a)
            ENSURE(e.containment == 0.0);
        else
            stats[2]++;
        stats[0]++;
    } else {
        ENSUREF(e.deciding >= 0 && e.deciding < e.count && ax[e.deciding].separates,
                "pair %ld: apart, deciding %d", i, e.deciding);
        for (k = 0; k < e.deciding && k < e.count; k++)
            ENSUREF(!ax[k].separates, "pair %ld: axis %d separates before the deciding %d", i,
                    k, e.deciding);
        ENSURE(e.containment == 0.0 && e.result.overlap == 0.0);
        stats[1]++;
    }
    /* each axis: unit; the intervals ordered and giving its overlap */
    for (k = 0; k < e.count; k++) {
        const sat_axis *x = &ax[k];
        double got = fmin(x->a_max - x->b_min, x->b_max - x->a_min);
        ENSUREF(fabs(hypot(x->normal.x, x->normal.y) - 1.0) <= 1e-12, "pair %ld axis %d: not unit",
                i, k);
        ENSUREF(x->a_min <= x->a_max && x->b_min <= x->b_max, "pair %ld axis %d: intervals", i, k);
        ENSUREF(fabs(got - x->overlap) <= tol, "pair %ld axis %d (%d %d %d): overlap %.17g, "
                "intervals give %.17g", i, k, x->from, (int)x->feature, x->index, x->overlap, got);
        ENSUREF(x->separates == (x->overlap < -1e-12 * size) ||
                    fabs(x->overlap + 1e-12 * size) <= 1e-13 * size,
                "pair %ld axis %d: overlap %.17g, separates %d", i, k, x->overlap, x->separates);
        ENSUREF(x->from == 0 || x->from == 1, "pair %ld axis %d: from %d", i, k, x->from);
        const sat_shape *own = x->from ? b : a;
        if (x->feature == SAT_FEATURE_EDGE || x->feature == SAT_FEATURE_VERTEX)
            ENSUREF(own->kind == SAT_POLYGON && x->index >= 0 && x->index < own->count,
                    "pair %ld axis %d: %s of a %s", i, k,
                    x->feature == SAT_FEATURE_EDGE ? "edge" : "vertex", kind_name(own->kind));
        else if (x->feature == SAT_FEATURE_CENTRE)
            ENSURE(own->kind == SAT_CIRCLE);
        else
            ENSUREF(own->kind >= SAT_SEGMENT && x->index >= 0 && x->index <= 1,
                    "pair %ld axis %d: feature %d of a %s", i, k, (int)x->feature,
                    kind_name(own->kind));
    }
    /* swapped: the same axes, seen from the other side */
    ENSURE_EQ_INT(sat_explain(b, a, &f, bx, MAX_AXES), hit);
    ENSURE_EQ_INT(f.count, e.count);
    ENSURE_EQ_INT(f.deciding, e.deciding);
    for (k = 0; k < e.count && k < f.count; k++) {
        const sat_axis *x = &ax[k], *y = &bx[k];
        ENSUREF(y->overlap == x->overlap && y->from == 1 - x->from && y->feature == x->feature &&
                    y->index == x->index && y->separates == x->separates,
                "pair %ld axis %d: swapped differs", i, k);
        /* an edge keeps its normal; an axis through closest points turns */
        double s = y->normal.x == x->normal.x && y->normal.y == x->normal.y ? 1.0 : -1.0;
        ENSURE(y->normal.x == s * x->normal.x && y->normal.y == s * x->normal.y);
        ENSUREF(fabs(y->a_min - (s > 0 ? x->b_min : -x->b_max)) <= tol &&
                    fabs(y->b_max - (s > 0 ? x->a_max : -x->a_min)) <= tol,
                "pair %ld axis %d: swapped intervals", i, k);
    }
}

static void test_explain_random(void)
{
    ctest_rng r;
    r.s = SEED;
    for (int ka = 0; ka < SAT_COMPOUND; ka++)
        for (int kb = 0; kb < SAT_COMPOUND; kb++) {
            long stats[3] = {0, 0, 0};
            for (long i = 0; i < PAIRS; i++) {
                sat_shape *a, *b;
                random_pair(&r, (sat_kind)ka, (sat_kind)kb, &a, &b);
                if (a && b)
                    check_explained(i, a, b, stats);
                sat_shape_free(a);
                sat_shape_free(b);
            }
            printf("  explain %s/%s: %ld hits (%ld with containment), %ld apart\n",
                   kind_name((sat_kind)ka), kind_name((sat_kind)kb), stats[0], stats[2], stats[1]);
            ENSUREF(stats[0] > PAIRS / 20 && stats[1] > PAIRS / 20, "hits %ld, apart %ld", stats[0],
                    stats[1]);
        }
}

/* sat_explain with room for 16 axes gives this verdict and this many axes. */
static void expect_explained(const sat_shape *a, const sat_shape *b, sat_explanation *e,
                             sat_axis *ax, int hit, int count)
{
    ENSURE_EQ_INT(sat_explain(a, b, e, ax, 16), hit);
    ENSURE_EQ_INT(e->count, count);
}

/* Two boxes side by side: a's edges first (edge i from vertex i), then b's; the first to
 * separate decides, every axis is listed; then overlapping. */
static void test_explain_boxes(void)
{
    sat_shape *s[3] = {mk_box(0, 0, 10, 10), mk_box(12, 2, 20, 6), mk_box(8, 2, 16, 6)};
    sat_axis ax[16];
    sat_explanation e;
    if (!all_built(s, 3))
        goto done;
    expect_explained(s[0], s[1], &e, ax, 0, 8);
    /* the boxes' edges in their vertex order; (0, 0) -> (10, 0) is edge 0, normal (0, -1) */
    ENSURE(ax[0].from == 0 && ax[0].feature == SAT_FEATURE_EDGE && ax[0].index == 0);
    ENSURE(ax[0].normal.x == 0 && ax[0].normal.y == -1);
    ENSURE(ax[0].a_min == -10 && ax[0].a_max == 0 && ax[0].b_min == -6 && ax[0].b_max == -2);
    ENSURE(ax[0].overlap == 6 && !ax[0].separates);
    ENSURE(ax[1].normal.x == 1 && ax[1].a_max == 10 && ax[1].b_min == 12);
    ENSURE(ax[1].overlap == -2 && ax[1].separates);
    ENSURE_EQ_INT(e.deciding, 1);
    ENSURE(ax[4].from == 1 && ax[4].index == 0 && ax[7].from == 1 && ax[7].index == 3);
    ENSURE(ax[7].normal.x == -1 && ax[7].separates); /* b's left side: the same gap */
    /* little room: the count, and the first axes */
    memset(ax, 0, sizeof ax);
    ENSURE_EQ_INT(sat_explain(s[0], s[1], &e, ax, 2), 0);
    ENSURE(e.count == 8 && e.deciding == 1 && ax[1].separates && ax[2].normal.x == 0 &&
           ax[2].normal.y == 0);
    ENSURE_EQ_INT(sat_explain(s[0], s[1], &e, NULL, 0), 0);
    ENSURE(e.count == 8 && e.deciding == 1);
    /* overlapping by 2 along x: the MTV's axis decides */
    ENSURE_EQ_INT(sat_explain(s[0], s[2], &e, ax, 16), 1);
    ENSURE(e.result.overlap == 2 && e.result.normal.x == 1 && e.result.normal.y == 0);
    ENSURE(ax[e.deciding].normal.x == 1 && ax[e.deciding].overlap == 2);
    ENSURE(e.containment == 0);
done:
    free_shapes(s, 3);
}

/* A circle at a box's corner: the edges, then the axis through the corner (vertex 2, at
 * (10, 10)) and the centre; a circle inside: the containment. */
static void test_explain_round(void)
{
    sat_shape *s[6] = {mk_box(0, 0, 10, 10), mk_circle(13, 14, 6), mk_circle(5, 3, 1),
                       mk_capsule(20, 0, 30, 0, 2), mk_capsule(16, -5, 16, 5, 1),
                       mk_circle(0, 0, 2)};
    sat_axis ax[16];
    sat_explanation e;
    if (!all_built(s, 6))
        goto done;
    expect_explained(s[0], s[1], &e, ax, 1, 5);
    ENSURE(ax[4].from == 0 && ax[4].feature == SAT_FEATURE_VERTEX && ax[4].index == 2);
    ENSURE_NEAR(ax[4].normal.x, 0.6, 1e-15);
    ENSURE_NEAR(ax[4].normal.y, 0.8, 1e-15);
    ENSURE_NEAR(ax[4].overlap, 1, 1e-14);
    ENSURE_EQ_INT(e.deciding, 4);
    ENSURE_NEAR(ax[4].a_max, 14, 1e-13); /* the corner along (0.6, 0.8) */
    ENSURE_NEAR(ax[4].b_min, 13, 1e-13);
    /* swapped: the circle is a; the corner is still the box's, now b's */
    ENSURE_EQ_INT(sat_explain(s[1], s[0], &e, ax, 16), 1);
    ENSURE(ax[4].from == 1 && ax[4].feature == SAT_FEATURE_VERTEX && ax[4].index == 2);
    ENSURE_NEAR(ax[4].normal.x, -0.6, 1e-15); /* from a (the circle) toward b */
    /* a circle of radius 1 inside, 3 above the bottom edge: pushed out through it */
    ENSURE_EQ_INT(sat_explain(s[2], s[0], &e, ax, 16), 1);
    ENSURE(e.result.a_in_b && e.result.overlap == 4);
    ENSURE_NEAR(e.containment, 2, 1e-14); /* 4 less its width 2 */
    /* two circles: one axis, through the centres */
    ENSURE_EQ_INT(sat_explain(s[5], s[2], &e, ax, 16), 0);
    ENSURE(e.count == 1 && ax[0].feature == SAT_FEATURE_CENTRE && ax[0].separates);
    /* a capsule beyond another's side: normals and directions, then the closest ends, in
     * sat_collide's order for two capsules (here b's first: it lies farther left) */
    expect_explained(s[3], s[4], &e, ax, 0, 5);
    ENSURE(ax[0].feature == SAT_FEATURE_NORMAL && ax[0].from == 1 && ax[0].separates);
    ENSURE_NEAR(ax[0].overlap, -1, 1e-14); /* a from x 18, b's side at 17 */
    ENSURE_EQ_INT(e.deciding, 0);
    ENSURE(ax[1].feature == SAT_FEATURE_NORMAL && ax[1].from == 0 && ax[1].overlap == 8);
    ENSURE(ax[2].feature == SAT_FEATURE_DIRECTION && ax[2].from == 1);
    ENSURE(ax[3].feature == SAT_FEATURE_DIRECTION && ax[3].from == 0 && ax[3].separates);
    /* a's endpoint (20, 0), 4 from b's core: 1 beyond the radii */
    ENSURE(ax[4].feature == SAT_FEATURE_ENDPOINT && ax[4].from == 0 && ax[4].index == 0);
    ENSURE_NEAR(ax[4].overlap, -1, 1e-14);
    ENSURE(ax[4].separates);
done:
    free_shapes(s, 6);
}

/* ---- sat_contacts --------------------------------------------------------------------- */

/* The points of (a, b): in both shapes' closures (overlapping) or on both surfaces
 * (touching), within TOL_REL of the size; the same from (b, a), bit for bit. */
static int check_contacts(long i, const sat_shape *a, const sat_shape *b, int touching,
                          long *worst_count)
{
    sat_vec p[2], q[2];
    sat_result r;
    double size = a->bound + b->bound, band = TOL_REL * size;
    int hit = sat_collide(a, b, &r), n = sat_contacts(a, b, p), m = sat_contacts(b, a, q);
    ENSUREF(n == (hit ? n : 0) && (!hit || (n >= 1 && n <= 2)), "pair %ld: %d points, hit %d", i,
            n, hit);
    ENSURE_EQ_INT(m, n);
    for (int k = 0; k < n && k < m; k++) {
        double da = signed_distance(a, p[k]), db = signed_distance(b, p[k]);
        ENSUREF(p[k].x == q[k].x && p[k].y == q[k].y, "pair %ld: point %d differs swapped", i, k);
        if (touching)
            ENSUREF(fabs(da) <= band && fabs(db) <= band,
                    "pair %ld (%s/%s) touching: point %d (%.17g, %.17g) at %.3g from a, %.3g "
                    "from b (size %g)", i, kind_name(a->kind), kind_name(b->kind), k, p[k].x,
                    p[k].y, da, db, size);
        else
            ENSUREF(da <= band && db <= band,
                    "pair %ld (%s/%s) overlapping by %g: point %d (%.17g, %.17g) at %.3g from "
                    "a, %.3g from b (size %g)", i, kind_name(a->kind), kind_name(b->kind),
                    r.overlap, k, p[k].x, p[k].y, da, db, size);
    }
    if (n == 2)
        worst_count[0]++;
    return n;
}

static void test_contacts_random(void)
{
    ctest_rng r;
    r.s = SEED + 1;
    for (int ka = 0; ka < SAT_COMPOUND; ka++)
        for (int kb = 0; kb < SAT_COMPOUND; kb++) {
            long overlapping = 0, touching = 0, two = 0;
            for (long i = 0; i < PAIRS; i++) {
                sat_shape *a, *b;
                sat_result res;
                random_pair(&r, (sat_kind)ka, (sat_kind)kb, &a, &b);
                if (a && b && sat_collide(a, b, &res)) {
                    overlapping += check_contacts(i, a, b, 0, &two) > 0;
                    /* resolved: touching */
                    if (sat_shape_move(a, res.mtv.x, res.mtv.y) == SAT_OK && sat_test(a, b))
                        touching += check_contacts(i, a, b, 1, &two) > 0;
                } else if (a && b) {
                    sat_vec p[2];
                    ENSURE_EQ_INT(sat_contacts(a, b, p), 0);
                }
                sat_shape_free(a);
                sat_shape_free(b);
            }
            printf("  contacts %s/%s: %ld overlapping and %ld touching pairs, %ld with two "
                   "points\n", kind_name((sat_kind)ka), kind_name((sat_kind)kb), overlapping,
                   touching, two);
            ENSUREF(overlapping > PAIRS / 5 && touching > PAIRS / 5, "overlapping %ld, touching %ld",
                    overlapping, touching);
        }
}

static int near_point(sat_vec p, double x, double y, double tol)
{
    return fabs(p.x - x) <= tol && fabs(p.y - y) <= tol;
}

/* n contact points, these (in either order). */
static void expect_points(const char *what, const sat_shape *a, const sat_shape *b, int n,
                          double x1, double y1, double x2, double y2, double tol)
{
    sat_vec p[2];
    int got = sat_contacts(a, b, p);
    ENSUREF(got == n, "%s: %d points, want %d", what, got, n);
    if (got == 1 && n == 1)
        ENSUREF(near_point(p[0], x1, y1, tol), "%s: (%.17g, %.17g), want (%.17g, %.17g)", what,
                p[0].x, p[0].y, x1, y1);
    if (got == 2 && n == 2)
        ENSUREF((near_point(p[0], x1, y1, tol) && near_point(p[1], x2, y2, tol)) ||
                    (near_point(p[1], x1, y1, tol) && near_point(p[0], x2, y2, tol)),
                "%s: (%.17g, %.17g) and (%.17g, %.17g), want (%.17g, %.17g) and (%.17g, %.17g)",
                what, p[0].x, p[0].y, p[1].x, p[1].y, x1, y1, x2, y2);
}

static void test_contacts_hand(void)
{
    sat_shape *s[10] = {
        mk_box(0, 0, 10, 10),           /* 0 */
        mk_box(4, 10, 8, 14),           /* 1: resting on 0's top, x 4 to 8 */
        mk_box(4, 9, 8, 13),            /* 2: sunk 1 into 0 */
        mk_circle(20, 5, 11),           /* 3: 1 into 0's right side, round */
        mk_capsule(2, 12, 6, 12, 2),    /* 4: lying on 0's top */
        mk_segment(-5, -5, 5, 5),       /* 5 */
        mk_segment(-5, 5, 5, -5),       /* 6: crossing 5 at the origin */
        mk_box(1e9, 1e9, 1e9 + 10, 1e9 + 10), /* 7: 0 far away */
        mk_box(1e9 + 4, 1e9 + 9, 1e9 + 8, 1e9 + 13), /* 8: 2 far away */
        mk_circle(14, 14, 4 * sqrt(2.0)), /* 9: at 0's corner (10, 10), touching */
    };
    if (!all_built(s, 10))
        goto done;
    expect_points("box on box", s[0], s[1], 2, 4, 10, 8, 10, 1e-13);
    expect_points("box on box, swapped", s[1], s[0], 2, 4, 10, 8, 10, 1e-13);
    expect_points("box sunk into box", s[0], s[2], 2, 4, 9.5, 8, 9.5, 1e-13);
    expect_points("circle into a side", s[0], s[3], 1, 9.5, 5, 0, 0, 1e-13);
    expect_points("capsule lying on a box", s[0], s[4], 2, 2, 10, 6, 10, 1e-13);
    expect_points("crossing segments", s[5], s[6], 1, 0, 0, 0, 0, 1e-12);
    expect_points("box sunk into box at 1e9", s[7], s[8], 2, 1e9 + 4, 1e9 + 9.5, 1e9 + 8,
                  1e9 + 9.5, 1e-6);
    expect_points("circle at a corner", s[0], s[9], 1, 10, 10, 0, 0, 1e-12);
    {
        /* a box rotated a little on a corner: one point, at the corner */
        sat_shape *t = mk_box(2, 10, 6, 14);
        if (t) {
            sat_vec p[2];
            ENSURE(sat_shape_rotate_about(t, 0.1, 2, 10) == SAT_OK);
            ENSURE_EQ_INT(sat_contacts(s[0], t, p), 1);
            ENSURE_NEAR(p[0].x, 2, 1e-12);
            ENSURE_NEAR(p[0].y, 10, 1e-12);
        }
        sat_shape_free(t);
    }
done:
    free_shapes(s, 10);
}

/* ---- sat_sweep_contact ------------------------------------------------------------------ */

static void test_sweep_contact(void)
{
    ctest_rng r;
    r.s = SEED + 2;
    for (int ka = 0; ka < SAT_COMPOUND; ka++)
        for (int kb = 0; kb < SAT_COMPOUND; kb++) {
            long touches = 0, overlapping = 0;
            for (long i = 0; i < PAIRS / 10; i++) {
                sat_shape *a, *b;
                sat_sweep_hit h1, h2;
                sat_vec va, vb, p;
                random_pair(&r, (sat_kind)ka, (sat_kind)kb, &a, &b);
                if (!a || !b)
                    goto next;
                double size = a->bound + b->bound, phi = uniform(&r, 0, 2 * PI);
                double len = uniform(&r, 0, 2.5) * size, share = below(&r, 2) ? 0.0 : 0.5;
                va = V(len * cos(phi) * (1 - share), len * sin(phi) * (1 - share));
                vb = V(-len * cos(phi) * share, -len * sin(phi) * share);
                int got = sat_sweep_contact(a, va, b, vb, &h1, &p);
                ENSURE_EQ_INT(got, sat_sweep(a, V(va.x - vb.x, va.y - vb.y), b, &h2));
                if (!got)
                    goto next;
                ENSURE(h1.t == h2.t && h1.result.normal.x == h2.result.normal.x &&
                       h1.result.normal.y == h2.result.normal.y);
                if (h1.overlapping) {
                    double band = TOL_REL * size;
                    overlapping++;
                    ENSUREF(signed_distance(a, p) <= band && signed_distance(b, p) <= band,
                            "sweep %ld: overlapping, point (%.17g, %.17g) outside", i, p.x, p.y);
                } else {
                    /* both where they are at t: the point on both surfaces */
                    double t = h1.t, band = TOL_REL * size;
                    touches++;
                    ENSURE(sat_shape_move(a, va.x * t, va.y * t) == SAT_OK);
                    ENSURE(sat_shape_move(b, vb.x * t, vb.y * t) == SAT_OK);
                    double da = signed_distance(a, p), db = signed_distance(b, p);
                    ENSUREF(fabs(da) <= band && fabs(db) <= band,
                            "sweep %ld (%s/%s): t %.17g, point (%.17g, %.17g) at %.3g from a, "
                            "%.3g from b", i, kind_name(a->kind), kind_name(b->kind), t, p.x, p.y,
                            da, db);
                }
            next:
                sat_shape_free(a);
                sat_shape_free(b);
            }
            printf("  sweep contact %s/%s: %ld touches, %ld overlapping at the start\n",
                   kind_name((sat_kind)ka), kind_name((sat_kind)kb), touches, overlapping);
            ENSUREF(touches > PAIRS / 400, "%ld touches", touches);
        }
}

void run_explain_tests(void)
{
    RUN_TEST(test_explain_boxes);
    RUN_TEST(test_explain_round);
    RUN_TEST(test_explain_random);
    RUN_TEST(test_contacts_hand);
    RUN_TEST(test_contacts_random);
    RUN_TEST(test_sweep_contact);
}
