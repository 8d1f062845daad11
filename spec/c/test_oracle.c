/*
 * test_oracle.c - the independent oracle (see oracle.h) and tests of the oracle itself
 * against hand-computed values, so that a disagreement with the core points at the core.
 *
 * The oracle never projects onto axes: polygon pairs go through the Minkowski difference
 * (convex hull of every vertex difference) and a distance from the origin to it; circles
 * through closest-point distances.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

sat_vec orc_v(double x, double y)
{
    sat_vec v;
    v.x = x;
    v.y = y;
    return v;
}

static double cross3(sat_vec o, sat_vec a, sat_vec b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static int by_x_then_y(const void *pa, const void *pb)
{
    const sat_vec *a = (const sat_vec *)pa, *b = (const sat_vec *)pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return 0;
}

int orc_hull(const sat_vec *pts, int n, sat_vec *out)
{
    sat_vec *s;
    int i, k = 0, lower;
    if (n < 3) {
        for (i = 0; i < n; i++)
            out[i] = pts[i];
        return n;
    }
    s = (sat_vec *)malloc((size_t)n * sizeof *s);
    if (!s)
        return 0;
    memcpy(s, pts, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, by_x_then_y);
    /* out needs room for the chain while it is built: at most n + 1 with the closing point,
     * so build into a scratch array of n + 1 and copy. */
    {
        sat_vec *h = (sat_vec *)malloc((size_t)(n + 1) * sizeof *h);
        if (!h) {
            free(s);
            return 0;
        }
        for (i = 0; i < n; i++) { /* lower chain */
            while (k >= 2 && cross3(h[k - 2], h[k - 1], s[i]) <= 0)
                k--;
            h[k++] = s[i];
        }
        lower = k + 1;
        for (i = n - 2; i >= 0; i--) { /* upper chain */
            while (k >= lower && cross3(h[k - 2], h[k - 1], s[i]) <= 0)
                k--;
            h[k++] = s[i];
        }
        k--; /* the last point repeats the first */
        if (k < 0)
            k = 0;
        memcpy(out, h, (size_t)k * sizeof *h);
        free(h);
    }
    free(s);
    return k;
}

double orc_area2(const sat_vec *p, int n)
{
    double a = 0;
    int i;
    for (i = 0; i < n; i++) {
        sat_vec u = p[i], v = p[(i + 1) % n];
        a += u.x * v.y - u.y * v.x;
    }
    return a;
}

sat_vec orc_centroid(const sat_vec *p, int n)
{
    /* Relative to the first point, to keep the products small. */
    double a = 0, cx = 0, cy = 0;
    sat_vec o = p[0], c;
    int i;
    for (i = 1; i + 1 < n; i++) {
        double ux = p[i].x - o.x, uy = p[i].y - o.y;
        double vx = p[i + 1].x - o.x, vy = p[i + 1].y - o.y;
        double t = ux * vy - uy * vx;
        a += t;
        cx += t * (ux + vx);
        cy += t * (uy + vy);
    }
    c.x = o.x + cx / (3 * a);
    c.y = o.y + cy / (3 * a);
    return c;
}

double orc_segment_distance(sat_vec q, sat_vec a, sat_vec b)
{
    double dx = b.x - a.x, dy = b.y - a.y;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((q.x - a.x) * dx + (q.y - a.y) * dy) / len2 : 0;
    double px, py;
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    px = a.x + t * dx - q.x;
    py = a.y + t * dy - q.y;
    return hypot(px, py);
}

double orc_edge_margin(sat_vec q, const sat_vec *p, int n)
{
    double worst = -INFINITY;
    int i;
    for (i = 0; i < n; i++) {
        sat_vec a = p[i], b = p[(i + 1) % n];
        double ex = b.x - a.x, ey = b.y - a.y;
        /* Outward normal of a counter-clockwise edge is (ey, -ex). */
        double d = ((q.x - a.x) * ey - (q.y - a.y) * ex) / hypot(ex, ey);
        if (d > worst)
            worst = d;
    }
    return worst;
}

double orc_outline_distance(sat_vec q, const sat_vec *p, int n)
{
    double best = INFINITY;
    int i;
    for (i = 0; i < n; i++) {
        double d = orc_segment_distance(q, p[i], p[(i + 1) % n]);
        if (d < best)
            best = d;
    }
    return best;
}

double orc_depth_poly_poly(const sat_vec *a, int na, const sat_vec *b, int nb)
{
    /* Shapes overlap iff the origin lies in A - B; translating a by t moves A - B by t, so
     * the depth is the distance from the origin to the outline of A - B. */
    return orc_depth(a, na, 0, b, nb, 0);
}

double orc_depth_circle_poly(sat_vec c, double r, const sat_vec *p, int n)
{
    double m = orc_edge_margin(c, p, n);
    if (m <= 0)
        return r - m;
    return r - orc_outline_distance(c, p, n);
}

double orc_depth_circle_circle(sat_vec ca, double ra, sat_vec cb, double rb)
{
    return ra + rb - hypot(cb.x - ca.x, cb.y - ca.y);
}

double orc_core_distance(sat_vec q, const sat_vec *p, int n)
{
    if (n == 1)
        return hypot(q.x - p[0].x, q.y - p[0].y);
    if (n == 2)
        return orc_segment_distance(q, p[0], p[1]);
    if (orc_edge_margin(q, p, n) <= 0)
        return 0;
    return orc_outline_distance(q, p, n);
}

double orc_depth(const sat_vec *a, int na, double ra, const sat_vec *b, int nb, double rb)
{
    sat_vec diff[ORC_MAX_POINTS * ORC_MAX_POINTS], hull[ORC_MAX_POINTS * ORC_MAX_POINTS];
    sat_vec origin = {0, 0};
    int i, j, k = 0, h;
    for (i = 0; i < na; i++)
        for (j = 0; j < nb; j++) {
            diff[k].x = a[i].x - b[j].x;
            diff[k].y = a[i].y - b[j].y;
            k++;
        }
    h = orc_hull(diff, k, hull);
    if (h >= 3) {
        double m = orc_edge_margin(origin, hull, h);
        if (m <= 0)
            return ra + rb - m;
        return ra + rb - orc_outline_distance(origin, hull, h);
    }
    /* No area: the hull is the segment (or the point) the differences lie on. */
    if (h == 2)
        return ra + rb - orc_segment_distance(origin, hull[0], hull[1]);
    return ra + rb - hypot(diff[0].x, diff[0].y);
}

double orc_inside(const sat_vec *a, int na, double ra, const sat_vec *b, int nb, double rb)
{
    double worst = -INFINITY;
    int i;
    for (i = 0; i < na; i++) {
        double m = nb >= 3 ? orc_edge_margin(a[i], b, nb) : orc_core_distance(a[i], b, nb) - rb;
        if (m > worst)
            worst = m;
    }
    return worst + ra;
}

/* Which side of the line o-a the point b is on: -1, 0 or 1. */
static int orient(sat_vec o, sat_vec a, sat_vec b)
{
    double c = cross3(o, a, b);
    return (c > 0) - (c < 0);
}

double orc_segments_distance(sat_vec a0, sat_vec a1, sat_vec b0, sat_vec b1)
{
    int o1 = orient(a0, a1, b0), o2 = orient(a0, a1, b1);
    int o3 = orient(b0, b1, a0), o4 = orient(b0, b1, a1);
    double d[4], best;
    int i;
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return 0; /* a proper crossing */
    d[0] = orc_segment_distance(a0, b0, b1);
    d[1] = orc_segment_distance(a1, b0, b1);
    d[2] = orc_segment_distance(b0, a0, a1);
    d[3] = orc_segment_distance(b1, a0, a1);
    best = d[0];
    for (i = 1; i < 4; i++)
        if (d[i] < best)
            best = d[i];
    return best;
}

double orc_inside_poly_poly(const sat_vec *a, int na, const sat_vec *b, int nb)
{
    double worst = -INFINITY;
    int i;
    for (i = 0; i < na; i++) {
        double m = orc_edge_margin(a[i], b, nb);
        if (m > worst)
            worst = m;
    }
    return worst;
}

double orc_inside_circle_poly(sat_vec c, double r, const sat_vec *p, int n)
{
    return orc_edge_margin(c, p, n) + r;
}

double orc_inside_poly_circle(const sat_vec *p, int n, sat_vec c, double r)
{
    double worst = -INFINITY;
    int i;
    for (i = 0; i < n; i++) {
        double d = hypot(p[i].x - c.x, p[i].y - c.y);
        if (d > worst)
            worst = d;
    }
    return worst - r;
}

double orc_inside_circle_circle(sat_vec ca, double ra, sat_vec cb, double rb)
{
    return hypot(cb.x - ca.x, cb.y - ca.y) + ra - rb;
}

/* ---- builders ------------------------------------------------------------------------- */

sat_shape *mk_polygon(const double *xy, int n)
{
    sat_vec pts[ORC_MAX_POINTS * 16];
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *s;
    int i;
    if (n > (int)(sizeof pts / sizeof pts[0])) {
        ENSUREF(0, "mk_polygon: %d points is too many for the test builder", n);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        pts[i].x = xy[2 * i];
        pts[i].y = xy[2 * i + 1];
    }
    s = sat_polygon_new(pts, n, &st);
    ENSUREF(s != NULL && st == SAT_OK, "mk_polygon refused: %s", sat_status_message(st));
    return s;
}

sat_shape *mk_box(double x1, double y1, double x2, double y2)
{
    double xy[8];
    xy[0] = x1, xy[1] = y1, xy[2] = x2, xy[3] = y1;
    xy[4] = x2, xy[5] = y2, xy[6] = x1, xy[7] = y2;
    return mk_polygon(xy, 4);
}

sat_shape *mk_circle(double x, double y, double r)
{
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *s = sat_circle_new(x, y, r, &st);
    ENSUREF(s != NULL && st == SAT_OK, "mk_circle refused: %s", sat_status_message(st));
    return s;
}

sat_shape *mk_segment(double x1, double y1, double x2, double y2)
{
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *s = sat_segment_new(x1, y1, x2, y2, &st);
    ENSUREF(s != NULL && st == SAT_OK, "mk_segment refused: %s", sat_status_message(st));
    return s;
}

sat_shape *mk_capsule(double x1, double y1, double x2, double y2, double r)
{
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *s = sat_capsule_new(x1, y1, x2, y2, r, &st);
    ENSUREF(s != NULL && st == SAT_OK, "mk_capsule refused: %s", sat_status_message(st));
    return s;
}

sat_shape *mk_concave(const double *xy, int n, sat_status *st)
{
    sat_vec *p = malloc((size_t)n * sizeof *p);
    for (int i = 0; i < n; i++)
        p[i] = orc_v(xy[2 * i], xy[2 * i + 1]);
    sat_shape *s = sat_concave_new(p, n, st);
    free(p);
    return s;
}

int shape_points(const sat_shape *p, sat_vec *out)
{
    if (p->kind == SAT_POLYGON) {
        for (int i = 0; i < p->count; i++)
            out[i] = sat_polygon_vertex(p, i);
        return p->count;
    }
    if (p->kind == SAT_CIRCLE) {
        out[0] = sat_shape_position(p);
        return 1;
    }
    sat_segment_endpoints(p, &out[0], &out[1]);
    return 2;
}

int all_built(sat_shape **s, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!s[i])
            return 0;
    return 1;
}

void free_shapes(sat_shape **s, int n)
{
    int i;
    for (i = 0; i < n; i++)
        sat_shape_free(s[i]);
}

int same_outline(const sat_shape *s, const sat_vec *expect, int n, double tol)
{
    int start, i;
    if (s->kind != SAT_POLYGON || s->count != n)
        return 0;
    for (start = 0; start < n; start++) {
        for (i = 0; i < n; i++) {
            sat_vec v = sat_polygon_vertex(s, (start + i) % n);
            if (!(fabs(v.x - expect[i].x) <= tol && fabs(v.y - expect[i].y) <= tol))
                break;
        }
        if (i == n)
            return 1;
    }
    return 0;
}

int same_bytes(const sat_shape *a, const sat_shape *b)
{
    size_t na = sat_shape_bytes(a), nb = sat_shape_bytes(b);
    return na == nb && memcmp(a, b, na) == 0;
}

/* ---- tests of the oracle -------------------------------------------------------------- */

#define V orc_v

static void test_oracle_hull(void)
{
    /* A square given clockwise with an interior point, a duplicate and an edge midpoint. */
    sat_vec in[7], out[7];
    int n;
    in[0] = V(0, 0), in[1] = V(0, 2), in[2] = V(2, 2), in[3] = V(1, 1);
    in[4] = V(2, 0), in[5] = V(2, 2), in[6] = V(1, 0);
    n = orc_hull(in, 7, out);
    ENSURE_EQ_INT(n, 4);
    ENSURE(orc_area2(out, n) == 8);
    /* Counter-clockwise from the lowest-leftmost point. */
    ENSURE(out[0].x == 0 && out[0].y == 0);
    ENSURE(out[1].x == 2 && out[1].y == 0);
    ENSURE(out[2].x == 2 && out[2].y == 2);
    ENSURE(out[3].x == 0 && out[3].y == 2);
    /* All collinear: no hull. */
    in[0] = V(0, 0), in[1] = V(1, 1), in[2] = V(3, 3);
    ENSURE(orc_hull(in, 3, out) < 3);
}

static void test_oracle_centroid(void)
{
    sat_vec p[3];
    sat_vec c;
    p[0] = V(0, 0), p[1] = V(3, 0), p[2] = V(0, 3);
    c = orc_centroid(p, 3);
    ENSURE_NEAR(c.x, 1, 1e-15);
    ENSURE_NEAR(c.y, 1, 1e-15);
}

static void test_oracle_depths(void)
{
    sat_vec a[4], b[4], c[3];
    /* Boxes [0,4]^2 and [3,7]x[1,3]: depth 1 along x. */
    a[0] = V(0, 0), a[1] = V(4, 0), a[2] = V(4, 4), a[3] = V(0, 4);
    b[0] = V(3, 1), b[1] = V(7, 1), b[2] = V(7, 3), b[3] = V(3, 3);
    ENSURE_NEAR(orc_depth_poly_poly(a, 4, b, 4), 1, 1e-15);
    ENSURE_NEAR(orc_depth_poly_poly(b, 4, a, 4), 1, 1e-15);
    /* [0,4]^2 and [7,9]x[8,10]: gap from corner (4,4) to corner (7,8) = 5. */
    b[0] = V(7, 8), b[1] = V(9, 8), b[2] = V(9, 10), b[3] = V(7, 10);
    ENSURE_NEAR(orc_depth_poly_poly(a, 4, b, 4), -5, 1e-15);
    /* [6,8]x[4,6] inside [0,10]^2: leaves by 4 to the right. */
    b[0] = V(6, 4), b[1] = V(8, 4), b[2] = V(8, 6), b[3] = V(6, 6);
    a[0] = V(0, 0), a[1] = V(10, 0), a[2] = V(10, 10), a[3] = V(0, 10);
    ENSURE_NEAR(orc_depth_poly_poly(b, 4, a, 4), 4, 1e-15);
    ENSURE(orc_inside_poly_poly(b, 4, a, 4) == -2);
    ENSURE(orc_inside_poly_poly(a, 4, b, 4) > 0);
    /* Circle at (7,5) r 1 in [0,10]^2: 3 to the edge, plus the radius. */
    ENSURE_NEAR(orc_depth_circle_poly(V(7, 5), 1, a, 4), 4, 1e-15);
    ENSURE(orc_inside_circle_poly(V(7, 5), 1, a, 4) == -2);
    /* Circle at (13,14) r 5 off the corner (10,10): the 3-4-5 touch. */
    ENSURE_NEAR(orc_depth_circle_poly(V(13, 14), 5, a, 4), 0, 1e-15);
    ENSURE_NEAR(orc_depth_circle_poly(V(13, 14), 4, a, 4), -1, 1e-15);
    /* Triangle (0,0) (3,0) (0,3) against the circle at (3,3) r 1: gap 3/sqrt(2) - 1. */
    c[0] = V(0, 0), c[1] = V(3, 0), c[2] = V(0, 3);
    ENSURE_NEAR(orc_depth_circle_poly(V(3, 3), 1, c, 3), 1 - 3 / sqrt(2.0), 1e-15);
    ENSURE_NEAR(orc_inside_poly_circle(c, 3, V(1, 1), 3), sqrt(5.0) - 3, 1e-15);
    ENSURE_NEAR(orc_depth_circle_circle(V(0, 0), 2, V(3, 4), 4), 1, 1e-15);
    ENSURE_NEAR(orc_inside_circle_circle(V(0, 0), 2, V(3, 4), 8), -1, 1e-15);
}

static void test_oracle_round_bodies(void)
{
    sat_vec box[4], s1[2], s2[2], pt[1];
    box[0] = V(0, 0), box[1] = V(4, 0), box[2] = V(4, 4), box[3] = V(0, 4);
    /* A capsule lying 1 above the box, radius 2: the cores are 1 apart, depth 2 - 1. */
    s1[0] = V(1, 5), s1[1] = V(3, 5);
    ENSURE_NEAR(orc_depth(s1, 2, 2, box, 4, 0), 1, 1e-15);
    ENSURE_NEAR(orc_depth(box, 4, 0, s1, 2, 2), 1, 1e-15);
    /* Off the corner (4, 4) by (3, 4): distance 5. */
    s1[0] = V(7, 8), s1[1] = V(7, 12);
    ENSURE_NEAR(orc_depth(s1, 2, 1, box, 4, 0), -4, 1e-15);
    /* Through the box: the segment y = 1 across it leaves by 1 (down) plus the radius. */
    s1[0] = V(-2, 1), s1[1] = V(6, 1);
    ENSURE_NEAR(orc_depth(s1, 2, 0.5, box, 4, 0), 1.5, 1e-15);
    /* Crossing segments, an X of half-length 1 about (0, 0): 1 either way. */
    s1[0] = V(-1, 0), s1[1] = V(1, 0), s2[0] = V(0, -1), s2[1] = V(0, 1);
    ENSURE_NEAR(orc_depth(s1, 2, 0, s2, 2, 0), 1, 1e-15);
    ENSURE(orc_segments_distance(s1[0], s1[1], s2[0], s2[1]) == 0);
    /* Collinear, overlapping: the differences are collinear, the depth the radii. */
    s2[0] = V(0.5, 0), s2[1] = V(3, 0);
    ENSURE_NEAR(orc_depth(s1, 2, 0.25, s2, 2, 0.5), 0.75, 1e-15);
    /* Collinear, 2 apart end to end. */
    s2[0] = V(3, 0), s2[1] = V(5, 0);
    ENSURE_NEAR(orc_depth(s1, 2, 0, s2, 2, 0), -2, 1e-15);
    ENSURE_NEAR(orc_segments_distance(s1[0], s1[1], s2[0], s2[1]), 2, 1e-15);
    /* Parallel, 3 apart side by side. */
    s2[0] = V(-5, 3), s2[1] = V(5, 3);
    ENSURE_NEAR(orc_segments_distance(s1[0], s1[1], s2[0], s2[1]), 3, 1e-15);
    /* A point on a segment, and 2 beyond its end. */
    pt[0] = V(0.5, 0);
    ENSURE_NEAR(orc_depth(pt, 1, 1, s1, 2, 0), 1, 1e-15);
    ENSURE(orc_inside(pt, 1, 0, s1, 2, 0) == 0);
    pt[0] = V(3, 0);
    ENSURE_NEAR(orc_depth(pt, 1, 0.5, s1, 2, 1), -0.5, 1e-15);
    ENSURE_NEAR(orc_core_distance(V(2, 2), box, 4), 0, 0);
    ENSURE_NEAR(orc_core_distance(V(7, 8), box, 4), 5, 1e-15);
    /* Containment: the box in a capsule about y = 2 from x = 0 to 4 of radius 3 (the far
     * corners are 2 from the core); a short segment in the box. */
    s1[0] = V(0, 2), s1[1] = V(4, 2);
    ENSURE_NEAR(orc_inside(box, 4, 0, s1, 2, 3), -1, 1e-15);
    s2[0] = V(1, 1), s2[1] = V(3, 2);
    ENSURE_NEAR(orc_inside(s2, 2, 0, box, 4, 0), -1, 1e-15);
    ENSURE_NEAR(orc_inside(s2, 2, 0.5, box, 4, 0), -0.5, 1e-15);
}

void run_oracle_tests(void)
{
    RUN_TEST(test_oracle_hull);
    RUN_TEST(test_oracle_centroid);
    RUN_TEST(test_oracle_depths);
    RUN_TEST(test_oracle_round_bodies);
}
