/*
 * test_compound.c - compounds: concave outlines (validation, decomposition into convex parts),
 * their transforms and queries, chains. Their pair tests (the union's MTV) are test_union.c's.
 *
 * A decomposition is checked (check_decomposition) for: parts convex polygons, disjoint in
 * their interiors (the oracle's depth of every part pair), and areas adding up to the
 * outline's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define PI 3.14159265358979323846

/* ---- building ------------------------------------------------------------------------ */

/* Twice the area of part i's outline, and whether it turns left at every vertex. */
static int part_convex(const sat_shape *p)
{
    int n = p->count;
    for (int i = 0; i < n; i++) {
        sat_vec a = sat_polygon_vertex(p, i), b = sat_polygon_vertex(p, (i + 1) % n),
                c = sat_polygon_vertex(p, (i + 2) % n);
        if ((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x) < 0.0)
            return 0;
    }
    return 1;
}
/* The decomposition's checks (6): returns the parts' count. */
static int check_decomposition(const sat_shape *s, const sat_vec *outline, int n, const char *what)
{
    int P = s->count;
    double area = 0.0, size = 2.0 * s->bound;
    for (int i = 0; i < P; i++) {
        const sat_shape *p = sat_compound_part(s, i);
        ENSUREF(p->kind == SAT_POLYGON, "%s: part %d kind %d", what, i, (int)p->kind);
        ENSUREF(part_convex(p), "%s: part %d not convex", what, i);
        area += sat_shape_area(p);
        for (int j = i + 1; j < P; j++) {
            const sat_shape *q = sat_compound_part(s, j);
            sat_vec a[ORC_MAX_POINTS], b[ORC_MAX_POINTS];
            int na = shape_points(p, a), nb = shape_points(q, b);
            if (na > ORC_MAX_POINTS || nb > ORC_MAX_POINTS)
                continue;
            double d = orc_depth_poly_poly(a, na, b, nb);
            ENSUREF(d <= 1e-9 * size, "%s: parts %d and %d overlap by %g", what, i, j, d);
        }
    }
    double want = 0.5 * fabs(orc_area2(outline, n));
    ENSUREF(fabs(area - want) <= 1e-9 * want, "%s: parts' area %.17g, outline's %.17g", what,
            area, want);
    ENSURE_NEAR(sat_shape_area(s), want, 1e-9 * want);
    return P;
}
/* ---- fixed cases --------------------------------------------------------------------- */

static void test_concave_shapes(void)
{
    static const double L[] = {0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4};
    static const double U[] = {0, 0, 6, 0, 6, 5, 5, 5, 5, 1, 1, 1, 1, 5, 0, 5};
    double comb[2 * 42];
    int n = 0;
    /* a comb: a base and 10 teeth (a level's typical jagged outline) */
    comb[n++] = 0, comb[n++] = 0, comb[n++] = 20, comb[n++] = 0;
    for (int t = 9; t >= 0; t--) {
        comb[n++] = 2 * t + 2, comb[n++] = 3;
        comb[n++] = 2 * t + 1.5, comb[n++] = 6;
        comb[n++] = 2 * t + 1, comb[n++] = 3;
    }
    n /= 2;
    sat_status st;
    struct {
        const char *name;
        const double *xy;
        int n, most;
    } cases[] = {{"L", L, 6, 2}, {"U", U, 8, 3}, {"comb", comb, n, 11}};
    for (int c = 0; c < 3; c++) {
        sat_shape *s = mk_concave(cases[c].xy, cases[c].n, &st);
        ENSUREF(s != NULL, "%s: %s", cases[c].name, sat_status_message(st));
        if (!s)
            continue;
        sat_vec o[64];
        for (int i = 0; i < cases[c].n; i++)
            o[i] = orc_v(cases[c].xy[2 * i], cases[c].xy[2 * i + 1]);
        int parts = check_decomposition(s, o, cases[c].n, cases[c].name);
        ENSUREF(parts <= cases[c].most, "%s: %d parts (at most %d expected)", cases[c].name,
                parts, cases[c].most);
        printf("  concave %s: %d points, %d parts\n", cases[c].name, cases[c].n, parts);
        ENSURE_EQ_INT(sat_compound_outline_count(s), cases[c].n);
        sat_shape_free(s);
    }
    /* clockwise, collinear runs, a spike, a near-degenerate notch */
    static const double cw[] = {0, 0, 0, 4, 1, 4, 1, 1, 4, 1, 4, 0};
    static const double runs[] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 4, 1, 3, 1, 2, 1, 1, 1, 1, 2,
                                  1, 3, 1, 4, 0, 4, 0, 3, 0, 2, 0, 1};
    static const double spike[] = {0, 0, 4, 0, 4, 4, 2, 4, 2, 8, 2, 4, 0, 4};
    static const double notch[] = {0, 0, 4, 0, 4, 4, 2.000001, 4, 2, 1e-7 + 4 - 1e-6, 1.999999, 4, 0, 4};
    const double *ok[] = {cw, runs, spike, notch};
    int okn[] = {6, 16, 7, 7};
    for (int c = 0; c < 4; c++) {
        sat_shape *s = mk_concave(ok[c], okn[c], &st);
        ENSUREF(s != NULL, "case %d: %s", c, sat_status_message(st));
        sat_shape_free(s);
    }
    /* refusals */
    static const double bow[] = {0, 0, 4, 4, 4, 0, 0, 4};
    static const double touch[] = {0, 0, 4, 0, 4, 4, 2, 0, 0, 4};
    sat_shape *s = mk_concave(bow, 4, &st);
    ENSURE(s == NULL && st == SAT_ERR_SELF_CROSSING);
    s = mk_concave(touch, 5, &st);
    ENSURE(s == NULL && st == SAT_ERR_SELF_TOUCHING);
    sat_vec p[6];
    for (int i = 0; i < 6; i++)
        p[i] = orc_v(L[2 * i], L[2 * i + 1]);
    s = sat_polygon_new(p, 6, &st);
    ENSURE(s == NULL && st == SAT_ERR_NOT_CONVEX);
    ENSURE(strstr(sat_status_message(st), "sat.concave") != NULL);
}
static void test_transform(void)
{
    static const double L[] = {0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4};
    sat_status st;
    sat_shape *s = mk_concave(L, 6, &st);
    sat_vec p = sat_shape_position(s);
    /* the area centroid of the L: (4 * (2, 0.5) + 3 * (0.5, 2.5)) / 7 */
    double cx = 9.5 / 7, cy = 9.5 / 7;
    ENSURE_NEAR(p.x, cx, 1e-12);
    ENSURE_NEAR(p.y, cy, 1e-12);
    ENSURE_NEAR(sat_shape_area(s), 7.0, 1e-12);
    ENSURE(sat_shape_contains(s, 3, 0.5) && sat_shape_contains(s, 0.5, 3) && !sat_shape_contains(s, 3, 3));
    sat_shape_rotate(s, PI / 2);
    sat_shape_scale(s, 2);
    sat_shape_move_to(s, 100, 50);
    ENSURE_NEAR(sat_shape_area(s), 28.0, 1e-9);
    /* a point (x, y) of the L goes to (100, 50) + 2 * rotate90((x, y) - c) */
#define TX(x, y) (100 - 2 * ((y) - cy))
#define TY(x, y) (50 + 2 * ((x) - cx))
    ENSURE(sat_shape_contains(s, TX(3, 0.5), TY(3, 0.5)) && !sat_shape_contains(s, TX(3, 3), TY(3, 3)));
    sat_vec q = sat_compound_outline_point(s, 1);
    ENSURE_NEAR(q.x, TX(4, 0), 1e-9);
    ENSURE_NEAR(q.y, TY(4, 0), 1e-9);
    sat_aabb bb = sat_shape_bbox(s);
    ENSURE_NEAR(bb.x1, TX(0, 4), 1e-9);
    ENSURE_NEAR(bb.x2, TX(0, 0), 1e-9);
    ENSURE_NEAR(bb.y1, TY(0, 0), 1e-9);
    ENSURE_NEAR(bb.y2, TY(4, 0), 1e-9);
    sat_hit h;
    /* a ray along x at the height of the L's (0.5, 3) meets the arm's edge x = 1 turned */
    ENSURE(sat_shape_raycast(s, orc_v(TX(0, 3) - 20, TY(0.5, 3)), orc_v(TX(0, 3) + 20, TY(0.5, 3)), &h));
    ENSURE_NEAR(TX(0, 3) - 20 + 40 * h.t, TX(0, 4), 1e-9);
#undef TX
#undef TY
    sat_shape *c = sat_shape_clone(s);
    ENSURE(same_bytes(c, s));
    sat_shape_free(c);
    sat_shape_free(s);
    /* a chain's position is its length centroid */
    sat_vec pts[3] = {{0, 0}, {4, 0}, {4, 2}};
    sat_shape *ch = sat_chain_new(pts, 3, 0, &st);
    p = sat_shape_position(ch);
    ENSURE_NEAR(p.x, (4 * 2 + 2 * 4) / 6.0, 1e-12);
    ENSURE_NEAR(p.y, (2 * 1) / 6.0, 1e-12);
    ENSURE_EQ_INT(ch->count, 2);
    sat_shape_free(ch);
    ENSURE(sat_chain_new(pts, 1, 0, &st) == NULL && st == SAT_ERR_NO_PARTS);
}
/* ---- random and adversarial outlines --------------------------------------------------- */

static double unit(ctest_rng *g)
{
    return (double)(ctest_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

/* Whether segments a-b and c-d cross properly (each one's ends strictly on both sides of
 * the other's line, by far more than rounding): the brute-force oracle of check_simple. */
static int crosses(sat_vec a, sat_vec b, sat_vec c, sat_vec d, double eps)
{
    double o1 = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    double o2 = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
    double o3 = (d.x - c.x) * (a.y - c.y) - (d.y - c.y) * (a.x - c.x);
    double o4 = (d.x - c.x) * (b.y - c.y) - (d.y - c.y) * (b.x - c.x);
    return ((o1 > eps && o2 < -eps) || (o1 < -eps && o2 > eps)) &&
           ((o3 > eps && o4 < -eps) || (o3 < -eps && o4 > eps));
}

/* Whether some two edges (not adjacent) cross, by every pair; *near: some pair comes close
 * to crossing (within eps), so the oracle does not say. */
static int any_crossing(const sat_vec *p, int n, double eps, int *near)
{
    int found = 0;
    *near = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 2; j < n; j++) {
            if (i == 0 && j == n - 1)
                continue;
            sat_vec a = p[i], b = p[(i + 1) % n], c = p[j], d = p[(j + 1) % n];
            if (crosses(a, b, c, d, eps))
                found = 1;
            else if (crosses(a, b, c, d, -eps))
                *near = 1;
        }
    return found;
}

/* Random polygons (4 to 40 points anywhere in a box, most of them self-crossing): sat.concave
 * refuses exactly those the brute-force oracle finds crossing, and decomposes the others;
 * random star-shaped outlines with deep notches; spiral bands (the grids' worst case),
 * each decomposition checked. */
static void test_concave_random(void)
{
    ctest_rng g = {0xC0C0A7EULL};
    int crossing = 0, simple = 0, stars = 0;
    for (int t = 0; t < 3000; t++) {
        int n = 4 + (int)(ctest_next(&g) % 37);
        sat_vec p[40];
        for (int i = 0; i < n; i++)
            p[i] = orc_v(100.0 * unit(&g) - 50.0, 60.0 * unit(&g) - 30.0);
        int near, cross = any_crossing(p, n, 1e-6, &near);
        if (near)
            continue;
        sat_status st;
        sat_shape *s = sat_concave_new(p, n, &st);
        if (cross) {
            ENSUREF(s == NULL && st == SAT_ERR_SELF_CROSSING, "outline %d (%d points): status %d",
                    t, n, (int)st);
            crossing++;
        } else {
            ENSUREF(s != NULL, "outline %d (%d points): %s", t, n, sat_status_message(st));
            if (s)
                check_decomposition(s, p, n, "random simple outline");
            simple++;
        }
        sat_shape_free(s);
    }
    for (int t = 0; t < 300; t++) {
        int n = 5 + (int)(ctest_next(&g) % 60);
        sat_vec p[64];
        for (int i = 0; i < n; i++) {
            double r = unit(&g) < 0.3 ? 0.5 + unit(&g) : 5.0 + 5.0 * unit(&g);
            double a = 2.0 * PI * (i + 0.8 * unit(&g)) / n;
            p[i] = orc_v(r * cos(a), r * sin(a));
        }
        sat_status st;
        sat_shape *s = sat_concave_new(p, n, &st);
        ENSUREF(s != NULL, "star %d (%d points): %s", t, n, sat_status_message(st));
        if (s)
            check_decomposition(s, p, n, "random star"), stars++;
        sat_shape_free(s);
    }
    static const int sizes[] = {100, 400, 1200};
    for (int k = 0; k < 3; k++) {
        int n = sizes[k], h = n / 2;
        sat_vec *p = malloc((size_t)n * sizeof *p);
        for (int i = 0; i < h; i++) {
            double a = 2.0 * PI * 5.0 * i / (h - 1) + 0.5, r = 4.0 + a;
            p[i] = orc_v(r * cos(a), r * sin(a));
            p[n - 1 - i] = orc_v((r - 3.0) * cos(a), (r - 3.0) * sin(a));
        }
        sat_status st;
        sat_shape *s = sat_concave_new(p, n, &st);
        ENSUREF(s != NULL, "spiral of %d points: %s", n, sat_status_message(st));
        if (s)
            check_decomposition(s, p, n, "spiral");
        sat_shape_free(s);
        /* the band's two ends pinched together: its last point moved onto the first edge's
         * far side, so the closing edge crosses the inner arm */
        p[n - 1] = orc_v(p[2].x + 0.5 * (p[2].x - p[n - 2].x), p[2].y + 0.5 * (p[2].y - p[n - 2].y));
        int near, cross = any_crossing(p, n, 1e-6, &near);
        if (!near) {
            s = sat_concave_new(p, n, &st);
            ENSUREF((s == NULL) == cross, "pinched spiral of %d points: crossing %d, status %d",
                    n, cross, (int)st);
            sat_shape_free(s);
        }
        free(p);
    }
    printf("  concave random: %d crossing refused, %d simple and %d stars decomposed\n",
           crossing, simple, stars);
}

void run_compound_tests(void)
{
    RUN_TEST(test_concave_shapes);
    RUN_TEST(test_transform);
    RUN_TEST(test_concave_random);
}
