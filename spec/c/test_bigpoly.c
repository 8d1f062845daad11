/*
 * test_bigpoly.c - polygon pairs of many vertices: the pair tests walk to each axis's extreme
 * vertices instead of projecting every vertex (O(n + m), not O(n * m)), and must give what
 * the projection of every vertex gives, bit for bit. And a polygon is sized for the
 * vertices it keeps, not for its input.
 *
 * The pair tests are compiled a second time here, from the same source, with the vertex count
 * above which they walk (SAT_SCAN_MAX) made a variable: scan_max = INT_MAX scans every vertex
 * (the linear code), 0 walks for every polygon, a triangle included. The source's exported
 * functions are renamed so as not to clash with the core's (a new one needs a line here).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "sat.h"

static int scan_max;
int copy_test(const sat_shape *a, const sat_shape *b);
int copy_collide(const sat_shape *a, const sat_shape *b, sat_result *result);
int copy_part_collide(const sat_shape *a, const sat_shape *b, sat_result *result);
int copy_collide_parts(const sat_shape *a, const sat_shape *b, const sat_result *r, int *part_a,
                       int *part_b);
#define SAT_SCAN_MAX scan_max
#define sat_test copy_test
#define sat_collide copy_collide
#define sat__part_collide copy_part_collide
#define sat_collide_parts copy_collide_parts
#include "sat_collide.c"
#undef sat_test
#undef sat_collide
#undef sat__part_collide
#undef sat_collide_parts
#undef SAT_SCAN_MAX

#define PI 3.14159265358979323846

static double uniform(ctest_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(ctest_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A convex polygon of about n vertices on an ellipse (rx, ry) turned by `turn`, about
 * (cx, cy): at random angles, or (regular) at equal steps starting at angle `start`. */
static sat_shape *ellipse(ctest_rng *r, int n, double cx, double cy, double rx, double ry,
                          double turn, int regular, double start)
{
    sat_vec *p = malloc((size_t)n * sizeof *p);
    double *angle = malloc((size_t)n * sizeof *angle);
    sat_status st = SAT_OK;
    sat_shape *s = NULL;
    int i;
    if (p && angle) {
        for (i = 0; i < n; i++)
            angle[i] = regular ? start + 2.0 * PI * i / n : uniform(r, 0.0, 2.0 * PI);
        if (!regular)
            qsort(angle, (size_t)n, sizeof *angle, by_value);
        for (i = 0; i < n; i++) {
            double x = rx * cos(angle[i]), y = ry * sin(angle[i]);
            p[i].x = cx + cos(turn) * x - sin(turn) * y;
            p[i].y = cy + sin(turn) * x + cos(turn) * y;
        }
        s = sat_polygon_new(p, n, &st);
    }
    ENSUREF(s != NULL, "%d-gon refused: %s", n, sat_status_message(st));
    free(p);
    free(angle);
    return s;
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int same_result(const sat_result *x, const sat_result *y)
{
    return same_double(x->overlap, y->overlap) && same_double(x->normal.x, y->normal.x) &&
           same_double(x->normal.y, y->normal.y) && same_double(x->mtv.x, y->mtv.x) &&
           same_double(x->mtv.y, y->mtv.y) && x->a_in_b == y->a_in_b && x->b_in_a == y->b_in_a;
}

typedef struct tally {
    int pairs, hits, contained;
} tally;

/* a against b, both orders: scanned, walked and the core's own give one answer, bit for bit. */
static void compare(const sat_shape *a, const sat_shape *b, const char *what, tally *t)
{
    int k;
    for (k = 0; k < 2; k++) {
        const sat_shape *x = k ? b : a, *y = k ? a : b;
        sat_result scanned, walked, core;
        int ts, tw, tc, cs, cw, cc;
        memset(&scanned, 0, sizeof scanned);
        memset(&walked, 0, sizeof walked);
        memset(&core, 0, sizeof core);
        scan_max = INT_MAX;
        ts = copy_test(x, y);
        cs = copy_collide(x, y, &scanned);
        scan_max = 0;
        tw = copy_test(x, y);
        cw = copy_collide(x, y, &walked);
        tc = sat_test(x, y);
        cc = sat_collide(x, y, &core);
        ENSUREF(ts == tw && tw == tc && ts == cs && cs == cw && cw == cc,
                "%s (%d/%d vertices): test %d %d %d, collide %d %d %d", what, x->count, y->count,
                ts, tw, tc, cs, cw, cc);
        ENSUREF(same_result(&scanned, &walked) && same_result(&scanned, &core),
                "%s (%d/%d vertices): overlap %.17g %.17g %.17g, normal (%.17g, %.17g) "
                "(%.17g, %.17g), in %d%d %d%d", what, x->count, y->count, scanned.overlap,
                walked.overlap, core.overlap, scanned.normal.x, scanned.normal.y,
                walked.normal.x, walked.normal.y, scanned.a_in_b, scanned.b_in_a,
                walked.a_in_b, walked.b_in_a);
        t->pairs++;
        t->hits += cs;
        t->contained += cs && (scanned.a_in_b || scanned.b_in_a);
    }
}

/* Random pairs of every size from a triangle up, placed so that they overlap, touch, are
 * apart or one holds the other, some far from the origin. */
static void test_walk_matches_scan(void)
{
    ctest_rng r = {0xB16B0B5ULL};
    tally t = {0, 0, 0};
    int i;
    for (i = 0; i < 600; i++) {
        int na = 3 + (int)(ctest_next(&r) % (i % 3 == 0 ? 200 : 40));
        int nb = 3 + (int)(ctest_next(&r) % (i % 4 == 0 ? 300 : 30));
        double far = i % 5 == 0 ? 1e9 : 0.0;
        double ra = uniform(&r, 1, 20), rb = uniform(&r, 1, 20);
        double dist = uniform(&r, 0.0, 1.3) * (ra + rb), dir = uniform(&r, 0, 2 * PI);
        sat_shape *a = ellipse(&r, na, far, -far, ra, ra * uniform(&r, 0.05, 1), uniform(&r, 0, 7),
                               i % 7 == 0, 0.0);
        sat_shape *b = ellipse(&r, nb, far + dist * cos(dir), -far + dist * sin(dir), rb,
                               rb * uniform(&r, 0.05, 1), uniform(&r, 0, 7), i % 6 == 0, 0.0);
        if (a && b) {
            if (i % 9 == 0)
                sat_shape_set_rotation(b, uniform(&r, -4, 4));
            if (i % 11 == 0)
                sat_shape_scale(a, uniform(&r, 0.1, 3));
            compare(a, b, "random pair", &t);
        }
        sat_shape_free(a);
        sat_shape_free(b);
    }
    /* a real mix: hits and misses, and some containment */
    ENSUREF(t.hits > t.pairs / 5 && t.hits < t.pairs * 4 / 5, "%d hits of %d", t.hits, t.pairs);
    ENSUREF(t.contained > 10, "%d contained", t.contained);
}

/* Exact ties: edges square to the other's normals (boxes and regular polygons with sides
 * along the axes), where two vertices project to the same value and rounding picks one. */
static void test_ties(void)
{
    ctest_rng r = {77};
    tally t = {0, 0, 0};
    static const int counts[] = {4, 8, 12, 64, 400, 1000};
    int i, j, k;
    for (i = 0; i < 6; i++) {
        for (j = 0; j < 6; j++) {
            /* a side square to the x axis: vertices at odd multiples of pi / n */
            sat_shape *a = ellipse(&r, counts[i], 0, 0, 10, 10, 0, 1, PI / counts[i]);
            sat_shape *b = ellipse(&r, counts[j], 0, 0, 3, 3, 0, 1, PI / counts[j]);
            for (k = 0; a && b && k < 12; k++) {
                static const double at[][2] = {{13, 0}, {12.9, 0}, {0, 13}, {13.5, 1},
                                               {0, 0},  {6.99, 0}, {7, 0}, {-13, 0.5},
                                               {9, 9},  {9.2, 9.2}, {0, -6.5}, {1e-9, 13}};
                sat_shape_move_to(b, at[k][0], at[k][1]);
                compare(a, b, "ties", &t);
            }
            sat_shape_free(a);
            sat_shape_free(b);
        }
    }
    ENSURE(t.hits > 0 && t.hits < t.pairs);
}

/* Polygons of a thousand vertices against the scan; then two of 30,000, overlapping, whose
 * answer is known: the scan would take seconds for each, the walk takes a fraction of a
 * millisecond. */
static void test_big(void)
{
    ctest_rng r = {4242};
    tally t = {0, 0, 0};
    sat_shape *a = ellipse(&r, 1200, 0, 0, 100, 60, 0.3, 0, 0);
    sat_shape *b = ellipse(&r, 900, 150, 10, 80, 80, 0, 0, 0);
    sat_shape *box = ellipse(&r, 4, 0, 0, 300, 300, PI / 4, 1, 0); /* holds a */
    sat_result res;
    int i;
    if (a && b && box) {
        for (i = 0; i < 8; i++) {
            sat_shape_move(b, -20, 3); /* overlapping more, then holding a's end */
            sat_shape_rotate(b, 0.1);
            compare(a, b, "a thousand", &t);
        }
        compare(a, box, "in a square", &t);
        sat_shape_move_to(b, 400, 0);
        compare(a, b, "apart", &t);
        ENSURE(t.contained >= 2);
    }
    sat_shape_free(a);
    sat_shape_free(b);
    sat_shape_free(box);

    a = ellipse(&r, 30000, 0, 0, 100, 100, 0, 1, 0);
    b = ellipse(&r, 30000, 120, 0, 50, 50, 0, 1, 0);
    for (i = 0; a && b && i < 50; i++) {
        double dir = 2 * PI * i / 50;
        sat_shape_move_to(b, 120 * cos(dir), 120 * sin(dir));
        ENSURE(sat_test(a, b));
        ENSURE(sat_collide(a, b, &res));
        /* both round to within 1e-7 of their radius: the depth is 150 - 120 */
        ENSURE_NEAR(res.overlap, 30.0, 1e-4);
        ENSURE_NEAR(res.normal.x, cos(dir), 1e-3);
        ENSURE_NEAR(res.normal.y, sin(dir), 1e-3);
        sat_shape_move_to(b, 151 * cos(dir), 151 * sin(dir));
        ENSURE(!sat_test(a, b));
    }
    sat_shape_free(a);
    sat_shape_free(b);

    /* Past 65,536 vertices a polygon keeps its deepest vertices as int32, not uint16: a
     * regular 70,000-gon keeps them all (each is 4e-7 off its neighbours' chord, above
     * the collinear bound of 2e-7), and its intervals along its own normals, which a box
     * inside it and a box across its left side read, must still run across its whole
     * width. */
    a = ellipse(&r, 70000, 0, 0, 100, 100, 0, 1, 0);
    b = ellipse(&r, 4, 0, 0, 2, 2, PI / 4, 1, 0); /* a square of side 2 sqrt 2 */
    if (a && b) {
        ENSUREF(a->count > 65536, "%d vertices kept", a->count);
        ENSURE(sat_collide(a, b, &res));
        ENSURE(res.b_in_a && !res.a_in_b);
        sat_shape_move_to(b, 99, 0); /* across its right side: in by sqrt(2) + 1 */
        ENSURE(sat_collide(a, b, &res) && !res.b_in_a);
        ENSURE_NEAR(res.overlap, 1.0 + sqrt(2.0), 1e-6);
        ENSURE_NEAR(res.normal.x, 1.0, 1e-6);
        sat_shape_move_to(b, -99, 0); /* across its left side */
        ENSURE(sat_collide(a, b, &res) && !res.b_in_a);
        ENSURE_NEAR(res.overlap, 1.0 + sqrt(2.0), 1e-6);
        ENSURE_NEAR(res.normal.x, -1.0, 1e-6);
        sat_shape_move_to(b, 0, -102);
        ENSURE(!sat_test(a, b));
    }
    sat_shape_free(a);
    sat_shape_free(b);
}

/* Many input points that reduce to few vertices: the shape is sized for what it keeps, and
 * building in two steps (validate into a buffer, then build in memory of the final size, as
 * sat_polygon_new and the Lua binding do) gives the shape sat_polygon_init gives. Run under
 * ASan, a build that wrote past the final size would be caught. */
/* A square 10 across at (1e6, 0), with side points along each side. */
static void square(sat_vec *pts, int side)
{
    int i;
    for (i = 0; i < side; i++) {
        double t = 10.0 * i / side;
        pts[i] = (sat_vec){t + 1e6, 0};
        pts[side + i] = (sat_vec){10 + 1e6, t};
        pts[2 * side + i] = (sat_vec){10 - t + 1e6, 10};
        pts[3 * side + i] = (sat_vec){1e6, 10 - t};
    }
}

static void test_sized_for_what_it_keeps(void)
{
    enum { SIDE = 25000, N = 4 * SIDE };
    sat_vec *pts = malloc(N * sizeof *pts), *work = malloc(N * sizeof *work);
    sat_shape *in_place = malloc(sat_polygon_bytes(N)), *exact = NULL, *heap;
    sat_outline o;
    sat_status st;
    if (!pts || !work || !in_place) {
        ENSURE(!"out of memory");
        goto done;
    }
    square(pts, SIDE);
    ENSURE_EQ_INT(sat_polygon_init(in_place, pts, N), SAT_OK);
    ENSURE_EQ_INT(in_place->count, 4);
    ENSURE_EQ_INT(sat_polygon_validate(pts, N, work, &o), SAT_OK);
    ENSURE_EQ_INT(o.count, 4);
    exact = malloc(sat_polygon_bytes(o.count));
    if (exact) {
        sat_polygon_build(exact, &o);
        ENSURE(sat_shape_bytes(exact) == sat_polygon_bytes(4));
        ENSURE(memcmp(exact, in_place, sat_polygon_bytes(4)) == 0);
    }
    heap = sat_polygon_new(pts, N, &st);
    ENSURE(heap != NULL && st == SAT_OK);
    if (heap)
        ENSURE(memcmp(heap, in_place, sat_polygon_bytes(4)) == 0);
    sat_shape_free(heap);
    /* in place: the work may be the input itself */
    ENSURE_EQ_INT(sat_polygon_validate(pts, N, pts, &o), SAT_OK);
    ENSURE_EQ_INT(o.count, 4);
    /* refusals are the same as sat_polygon_init's, and sat_polygon_new's */
    square(pts, SIDE); /* again (validated in place), with a dent in its bottom side */
    pts[SIDE / 2].y = 3;
    ENSURE_EQ_INT(sat_polygon_validate(pts, N, work, &o), SAT_ERR_NOT_CONVEX);
    ENSURE(sat_polygon_new(pts, 2, &st) == NULL && st == SAT_ERR_TOO_FEW_POINTS);
    ENSURE(sat_polygon_new(pts, 0, &st) == NULL && st == SAT_ERR_TOO_FEW_POINTS);
    ENSURE(sat_polygon_new(pts, SAT_MAX_POINTS + 1, &st) == NULL && st == SAT_ERR_TOO_MANY_POINTS);
done:
    free(pts);
    free(work);
    free(in_place);
    free(exact);
}

void run_bigpoly_tests(void)
{
    RUN_TEST(test_walk_matches_scan);
    RUN_TEST(test_ties);
    RUN_TEST(test_big);
    RUN_TEST(test_sized_for_what_it_keeps);
}
