/*
 * test_build.c - building shapes: status messages, sizes, circle and polygon init (windings,
 * merging, collinear points, many vertices), every refusal, heap new/free, copy and clone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define V orc_v
#define PI 3.14159265358979323846

static void test_status_messages(void)
{
    static const sat_status all[] = {
        SAT_OK, SAT_ERR_NONFINITE, SAT_ERR_TOO_FEW_POINTS, SAT_ERR_ZERO_AREA,
        SAT_ERR_NOT_CONVEX, SAT_ERR_NEGATIVE_RADIUS, SAT_ERR_BAD_SCALE,
        SAT_ERR_TOO_MANY_POINTS, SAT_ERR_NOMEM, SAT_ERR_SAME_POINTS, SAT_ERR_ANGLE,
    };
    const int n = (int)(sizeof all / sizeof all[0]);
    int i, j;
    for (i = 0; i < n; i++) {
        const char *m = sat_status_message(all[i]);
        ENSUREF(m != NULL && strlen(m) >= 2, "status %d", (int)all[i]);
        for (j = 0; j < i; j++)
            ENSUREF(m && strcmp(m, sat_status_message(all[j])) != 0, "statuses %d and %d share '%s'",
                    (int)all[i], (int)all[j], m ? m : "(null)");
    }
    ENSURE(strstr(sat_status_message(SAT_ERR_NOT_CONVEX), "convex") != NULL);
    ENSURE(strstr(sat_status_message(SAT_ERR_NEGATIVE_RADIUS), "radius") != NULL);
    ENSURE(strstr(sat_status_message(SAT_ERR_BAD_SCALE), "scale") != NULL);
    ENSURE(strstr(sat_status_message(SAT_ERR_TOO_FEW_POINTS), "3") != NULL);
    ENSURE(strstr(sat_status_message(SAT_ERR_NONFINITE), "finite") != NULL);
    /* A code from a newer header (or garbage) still gets text, never NULL. */
    ENSURE(sat_status_message((sat_status)97) != NULL);
    ENSURE(strlen(sat_status_message((sat_status)97)) > 0);
}

static void test_sizes(void)
{
    ENSURE(sat_circle_bytes() >= sizeof(sat_shape));
    /* normals, offsets and local points, and a uint16 a vertex (int32 past 65536) in whole
     * entries, none for 3 or 4 */
    ENSURE(sat_polygon_bytes(3) == sizeof(sat_shape) + 9 * sizeof(sat_vec));
    ENSURE(sat_polygon_lean_bytes(4) == sizeof(sat_shape) + 8 * sizeof(sat_vec));
    ENSURE(sat_polygon_lean_bytes(5) == sizeof(sat_shape) + 11 * sizeof(sat_vec));
    ENSURE(sat_polygon_bytes(64) == sizeof(sat_shape) + 200 * sizeof(sat_vec));
    ENSURE(sat_polygon_bytes(65537) == sizeof(sat_shape) + (3 * 65537 + 16385) * sizeof(sat_vec));
    ENSURE(sat_polygon_bytes(64) > sat_polygon_bytes(63));
}

static void test_circle_init(void)
{
    sat_shape *s = (sat_shape *)malloc(sat_circle_bytes());
    sat_vec p;
    ENSURE(s != NULL);
    if (!s)
        return;
    ENSURE_EQ_INT(sat_circle_init(s, 3, -4, 2.5), SAT_OK);
    ENSURE_EQ_INT(s->kind, SAT_CIRCLE);
    ENSURE_EQ_INT(s->count, 0);
    ENSURE(s->category == 1u);
    ENSURE(s->mask == 0xFFFFFFFFu);
    ENSURE(s->id == 0);
    p = sat_shape_position(s);
    ENSURE(p.x == 3 && p.y == -4);
    ENSURE(sat_circle_radius(s) == 2.5);
    ENSURE(sat_shape_rotation(s) == 0);
    ENSURE_NEAR(sat_shape_area(s), PI * 6.25, 1e-13);
    ENSURE(sat_shape_bytes(s) == sat_circle_bytes());
    /* A point is a circle of radius 0. */
    ENSURE_EQ_INT(sat_circle_init(s, -1, 1, 0), SAT_OK);
    ENSURE(sat_circle_radius(s) == 0);
    ENSURE(sat_shape_area(s) == 0);
    free(s);
}

static void test_circle_refusals(void)
{
    sat_shape *s = (sat_shape *)malloc(sat_circle_bytes());
    sat_status st = SAT_OK;
    ENSURE(s != NULL);
    if (!s)
        return;
    ENSURE_EQ_INT(sat_circle_init(s, NAN, 0, 1), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_circle_init(s, 0, INFINITY, 1), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_circle_init(s, -INFINITY, 0, 1), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_circle_init(s, 0, 0, INFINITY), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_circle_init(s, 0, 0, NAN), SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_circle_init(s, 0, 0, -1), SAT_ERR_NEGATIVE_RADIUS);
    ENSURE_EQ_INT(sat_circle_init(s, 0, 0, -1e-300), SAT_ERR_NEGATIVE_RADIUS);
    ENSURE(sat_circle_new(0, 0, -2, &st) == NULL);
    ENSURE_EQ_INT(st, SAT_ERR_NEGATIVE_RADIUS);
    ENSURE(sat_circle_new(NAN, 0, 2, &st) == NULL);
    ENSURE_EQ_INT(st, SAT_ERR_NONFINITE);
    ENSURE(sat_circle_new(0, 0, -2, NULL) == NULL); /* status is optional */
    free(s);
}

/* The triangle (0,0) (6,0) (0,6) counter-clockwise, its centroid (2,2), area 18. */
static void check_triangle(const sat_shape *s)
{
    sat_vec want[3];
    sat_vec p = sat_shape_position(s);
    want[0] = V(0, 0), want[1] = V(6, 0), want[2] = V(0, 6);
    ENSURE_EQ_INT(s->kind, SAT_POLYGON);
    ENSURE_EQ_INT(s->count, 3);
    ENSURE_NEAR(p.x, 2, 1e-15);
    ENSURE_NEAR(p.y, 2, 1e-15);
    ENSURE_NEAR(sat_shape_area(s), 18, 1e-13);
    ENSURE(same_outline(s, want, 3, 1e-14));
}

static void test_polygon_windings(void)
{
    static const double ccw[] = {0, 0, 6, 0, 0, 6};
    static const double cw[] = {0, 0, 0, 6, 6, 0};
    static const double cw_rotated[] = {6, 0, 0, 0, 0, 6};
    sat_shape *a = mk_polygon(ccw, 3), *b = mk_polygon(cw, 3), *c = mk_polygon(cw_rotated, 3);
    if (a) check_triangle(a);
    if (b) check_triangle(b);
    if (c) check_triangle(c);
    if (a) ENSURE(a->category == 1u && a->mask == 0xFFFFFFFFu && a->id == 0);
    if (a) ENSURE(sat_shape_rotation(a) == 0);
    sat_shape_free(a);
    sat_shape_free(b);
    sat_shape_free(c);
}

static void test_polygon_in_caller_memory(void)
{
    sat_vec pts[4];
    sat_shape *s = (sat_shape *)malloc(sat_polygon_bytes(4));
    ENSURE(s != NULL);
    if (!s)
        return;
    pts[0] = V(10, 20), pts[1] = V(14, 20), pts[2] = V(14, 22), pts[3] = V(10, 22);
    ENSURE_EQ_INT(sat_polygon_init(s, pts, 4), SAT_OK);
    ENSURE_EQ_INT(s->count, 4);
    ENSURE(sat_shape_position(s).x == 12 && sat_shape_position(s).y == 21);
    ENSURE(sat_shape_area(s) == 8);
    ENSURE(same_outline(s, pts, 4, 0));
    ENSURE(sat_shape_bytes(s) <= sat_polygon_bytes(4));
    free(s);
}

static void test_polygon_merges_near_duplicates(void)
{
    /* A 10 x 10 square; each corner also given again 1e-12 away (far below the 1e-9 relative
     * merge tolerance), the first repeated at the end as outlines often are. */
    static const double xy[] = {
        0, 0, 1e-12, 0, 10, 0, 10, 1e-12, 10 - 1e-12, 10, 10, 10,
        0, 10, 0, 10, 0, 0,
    };
    sat_vec want[4];
    sat_shape *s = mk_polygon(xy, 9);
    want[0] = V(0, 0), want[1] = V(10, 0), want[2] = V(10, 10), want[3] = V(0, 10);
    if (!s)
        return;
    ENSURE_EQ_INT(s->count, 4);
    ENSURE(same_outline(s, want, 4, 1e-11));
    ENSURE_NEAR(sat_shape_area(s), 100, 1e-9);
    ENSURE(sat_shape_bytes(s) == sat_polygon_bytes(4));
    sat_shape_free(s);
}

static void test_polygon_drops_collinear(void)
{
    /* A 4 x 2 box with points along every edge, clockwise. */
    static const double xy[] = {
        0, 0, 0, 1, 0, 2, 1, 2, 2.5, 2, 4, 2, 4, 0.5, 4, 0, 3, 0, 1, 0,
    };
    sat_vec want[4];
    sat_shape *s = mk_polygon(xy, 10);
    want[0] = V(0, 0), want[1] = V(4, 0), want[2] = V(4, 2), want[3] = V(0, 2);
    if (!s)
        return;
    ENSURE_EQ_INT(s->count, 4);
    ENSURE(same_outline(s, want, 4, 0));
    ENSURE(sat_shape_area(s) == 8);
    ENSURE(sat_shape_position(s).x == 2 && sat_shape_position(s).y == 1);
    sat_shape_free(s);
}

static void regular(sat_vec *p, int n, double cx, double cy, double r)
{
    int i;
    for (i = 0; i < n; i++)
        p[i] = V(cx + r * cos(2 * PI * i / n), cy + r * sin(2 * PI * i / n));
}

static void test_polygon_64_vertices(void)
{
    sat_vec p[64];
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *s;
    int i;
    regular(p, 64, 100, -50, 10);
    s = sat_polygon_new(p, 64, &st);
    ENSURE_EQ_INT(st, SAT_OK);
    if (!s)
        return;
    ENSURE_EQ_INT(s->count, 64);
    ENSURE_NEAR(sat_shape_position(s).x, 100, 1e-12);
    ENSURE_NEAR(sat_shape_position(s).y, -50, 1e-12);
    ENSURE_NEAR(sat_shape_area(s), 0.5 * 64 * 100 * sin(2 * PI / 64), 1e-10);
    ENSURE(same_outline(s, p, 64, 1e-12));
    for (i = 0; i < 64; i++) {
        sat_vec v = sat_polygon_vertex(s, i);
        ENSURE_NEAR(hypot(v.x - 100, v.y + 50), 10, 1e-12);
    }
    sat_shape_free(s);
}

static void test_polygon_1000_vertex_circle(void)
{
    /* A circle approximated by 1000 points, given clockwise: every point is a vertex (each
     * bulges 2e-4 of the radius beyond its neighbours' chord), area close to pi r^2. */
    enum { N = 1000 };
    sat_vec *p = (sat_vec *)malloc(N * sizeof *p), *q = (sat_vec *)malloc(N * sizeof *q);
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *s;
    int i;
    ENSURE(p && q);
    if (!p || !q) {
        free(p);
        free(q);
        return;
    }
    regular(p, N, -3, 7, 50);
    for (i = 0; i < N; i++)
        q[i] = p[N - 1 - i];
    s = sat_polygon_new(q, N, &st);
    ENSURE_EQ_INT(st, SAT_OK);
    if (s) {
        ENSURE_EQ_INT(s->count, N);
        ENSURE_NEAR(sat_shape_area(s), 0.5 * N * 2500 * sin(2 * PI / N), 1e-8);
        ENSURE_NEAR(sat_shape_area(s) / (PI * 2500), 1, 1e-5);
        ENSURE(same_outline(s, p, N, 1e-12));
        ENSURE(sat_shape_contains(s, -3 + 49.99, 7));
        ENSURE(!sat_shape_contains(s, -3 + 50.01, 7));
    }
    sat_shape_free(s);
    free(p);
    free(q);
}

/* sat_polygon_new and sat_polygon_init both refuse, with this status. */
static void refuse(const double *xy, int n, sat_status want, const char *what)
{
    sat_vec pts[16];
    sat_status st = SAT_OK;
    sat_shape *s, *buf;
    int i;
    for (i = 0; i < n && i < 16; i++)
        pts[i] = V(xy[2 * i], xy[2 * i + 1]);
    s = sat_polygon_new(pts, n, &st);
    ENSUREF(s == NULL && st == want, "%s: got status %d '%s', want %d '%s'", what, (int)st,
            sat_status_message(st), (int)want, sat_status_message(want));
    sat_shape_free(s);
    buf = (sat_shape *)malloc(sat_polygon_bytes(n > 0 ? n : 1));
    if (buf) {
        st = sat_polygon_init(buf, pts, n);
        ENSUREF(st == want, "%s (init): got status %d '%s'", what, (int)st,
                sat_status_message(st));
        free(buf);
    }
}

static void test_polygon_refusals(void)
{
    static const double two[] = {0, 0, 1, 0};
    static const double dup3[] = {0, 0, 1, 0, 1, 0};
    static const double dup4[] = {0, 0, 5, 5, 0, 0, 5, 5};
    static const double near3[] = {0, 0, 4, 0, 4, 1e-11};
    static const double line5[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4};
    static const double line3[] = {0, 0, 2, 0, 1, 0};
    static const double concave[] = {0, 0, 4, 0, 1, 1, 0, 4};
    static const double concave_cw[] = {0, 4, 1, 1, 4, 0, 0, 0};
    static const double nan_pt[] = {0, 0, 4, 0, NAN, 4};
    static const double inf_pt[] = {0, 0, 4, INFINITY, 4, 4};
    static const double ninf_pt[] = {-INFINITY, 0, 4, 0, 4, 4};
    double star[10], star_cw[10], arrow[10];
    int i;
    /* A pentagram: the points of a regular pentagon visited two apart turn the same way at
     * every corner but wind twice around. */
    for (i = 0; i < 5; i++) {
        int k = (2 * i) % 5;
        star[2 * i] = 10 * cos(2 * PI * k / 5);
        star[2 * i + 1] = 10 * sin(2 * PI * k / 5);
        star_cw[2 * (4 - i)] = star[2 * i];
        star_cw[2 * (4 - i) + 1] = star[2 * i + 1];
    }
    /* A convex pentagon with one vertex pushed inwards: concave at one corner. */
    for (i = 0; i < 5; i++) {
        double r = i == 2 ? 2 : 10;
        arrow[2 * i] = r * cos(2 * PI * i / 5);
        arrow[2 * i + 1] = r * sin(2 * PI * i / 5);
    }
    refuse(two, 0, SAT_ERR_TOO_FEW_POINTS, "no points");
    refuse(two, 1, SAT_ERR_TOO_FEW_POINTS, "one point");
    refuse(two, 2, SAT_ERR_TOO_FEW_POINTS, "two points");
    refuse(two, -5, SAT_ERR_TOO_FEW_POINTS, "negative count");
    refuse(dup3, 3, SAT_ERR_TOO_FEW_POINTS, "three points, two the same");
    refuse(dup4, 4, SAT_ERR_TOO_FEW_POINTS, "four points, two distinct");
    refuse(near3, 3, SAT_ERR_TOO_FEW_POINTS, "third point within the merge tolerance");
    refuse(line5, 5, SAT_ERR_ZERO_AREA, "five collinear points");
    refuse(line3, 3, SAT_ERR_ZERO_AREA, "three collinear points, doubling back");
    refuse(concave, 4, SAT_ERR_NOT_CONVEX, "concave quad");
    refuse(concave_cw, 4, SAT_ERR_NOT_CONVEX, "concave quad, clockwise");
    refuse(arrow, 5, SAT_ERR_NOT_CONVEX, "pentagon with a dent");
    refuse(star, 5, SAT_ERR_NOT_CONVEX, "pentagram");
    refuse(star_cw, 5, SAT_ERR_NOT_CONVEX, "pentagram, clockwise");
    refuse(nan_pt, 3, SAT_ERR_NONFINITE, "NaN coordinate");
    refuse(inf_pt, 3, SAT_ERR_NONFINITE, "infinite coordinate");
    refuse(ninf_pt, 3, SAT_ERR_NONFINITE, "-infinite coordinate");
    refuse(nan_pt, 2, SAT_ERR_TOO_FEW_POINTS, "NaN outside the count is not read");
}

static void test_polygon_far_apart_points(void)
{
    /* Finite points whose differences overflow: refused, never a shape full of inf. */
    static const double huge[] = {-1e308, -1e308, 1e308, -1e308, 0, 1e308};
    sat_vec pts[3];
    sat_status st = SAT_OK;
    sat_shape *s;
    int i;
    for (i = 0; i < 3; i++)
        pts[i] = V(huge[2 * i], huge[2 * i + 1]);
    s = sat_polygon_new(pts, 3, &st);
    ENSURE(s == NULL);
    ENSURE(st != SAT_OK);
    ENSURE(strlen(sat_status_message(st)) > 0);
    sat_shape_free(s);
}

static void test_polygon_extreme_coordinates(void)
{
    /* Huge or tiny but finite outlines: either refused, or built with the right centroid.
     * The triangle (0,0) (L,0) (0,L) has its centroid at (L/3, L/3) and area L^2/2. */
    static const double sizes[] = {1e100, 1e116, 1e150, 1e-100, 1e-150, 1e-160};
    int i;
    for (i = 0; i < 6; i++) {
        double L = sizes[i];
        sat_vec pts[3];
        sat_status st = SAT_ERR_NOMEM;
        sat_shape *s;
        pts[0] = V(0, 0), pts[1] = V(L, 0), pts[2] = V(0, L);
        s = sat_polygon_new(pts, 3, &st);
        ENSUREF((s == NULL) == (st != SAT_OK), "size %g: status %d", L, (int)st);
        if (s) {
            sat_vec p = sat_shape_position(s);
            ENSUREF(fabs(p.x - L / 3) <= 1e-15 * L && fabs(p.y - L / 3) <= 1e-15 * L,
                    "size %g: centroid (%g, %g), want %g", L, p.x, p.y, L / 3);
            if (L * L > 1e-290) /* (an area below that is denormal: no precision left) */
                ENSUREF(fabs(sat_shape_area(s) / (L * L / 2) - 1) <= 1e-14, "size %g: area %g",
                        L, sat_shape_area(s));
        }
        sat_shape_free(s);
    }
}

static void test_polygon_too_many_points(void)
{
    /* Real (zeroed) memory, so a core that reads the points first stays defined. */
    int n = SAT_MAX_POINTS + 1;
    sat_vec *p = (sat_vec *)calloc((size_t)n, sizeof *p);
    sat_status st = SAT_OK;
    sat_shape *s;
    ENSURE(p != NULL);
    if (!p)
        return;
    s = sat_polygon_new(p, n, &st);
    ENSURE(s == NULL);
    ENSURE_EQ_INT(st, SAT_ERR_TOO_MANY_POINTS);
    sat_shape_free(s);
    free(p);
}

static void test_heap_new_free(void)
{
    sat_vec pts[3];
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *c = sat_circle_new(1, 2, 3, &st), *p;
    ENSURE(c != NULL);
    ENSURE_EQ_INT(st, SAT_OK);
    if (c)
        ENSURE(sat_circle_radius(c) == 3 && sat_shape_position(c).x == 1);
    sat_shape_free(c);
    c = sat_circle_new(1, 2, 3, NULL);
    ENSURE(c != NULL);
    sat_shape_free(c);
    pts[0] = V(0, 0), pts[1] = V(3, 0), pts[2] = V(0, 3);
    st = SAT_ERR_NOMEM;
    p = sat_polygon_new(pts, 3, &st);
    ENSURE(p != NULL);
    ENSURE_EQ_INT(st, SAT_OK);
    if (p)
        ENSURE(sat_shape_area(p) == 4.5);
    sat_shape_free(p);
    p = sat_polygon_new(pts, 3, NULL);
    ENSURE(p != NULL);
    sat_shape_free(p);
    p = sat_polygon_new(pts, 2, NULL);
    ENSURE(p == NULL);
}

static void test_copy_and_clone(void)
{
    /* A polygon built from 6 points of which 4 remain: its copy needs only 4 points' room
     * (ASan checks that the copy stays inside it). */
    static const double xy[] = {0, 0, 2, 0, 4, 0, 4, 2, 0, 2, 0, 2};
    sat_shape *p = mk_polygon(xy, 6), *c = mk_circle(5, 6, 7), *dst, *cl;
    sat_result r;
    if (!p || !c) {
        sat_shape_free(p);
        sat_shape_free(c);
        return;
    }
    ENSURE_EQ_INT(p->count, 4);
    ENSURE(sat_shape_bytes(p) == sat_polygon_bytes(4));
    ENSURE(sat_shape_bytes(c) == sat_circle_bytes());
    ENSURE_EQ_INT(sat_shape_set_rotation(p, 0.3), SAT_OK);
    p->id = 42;
    dst = (sat_shape *)malloc(sat_shape_bytes(p));
    ENSURE(dst != NULL);
    if (dst) {
        sat_shape_copy(dst, p);
        ENSURE(same_bytes(dst, p));
        ENSURE(dst->id == 42 && sat_shape_rotation(dst) == 0.3);
        /* Independent: changing the copy leaves the original alone. */
        ENSURE_EQ_INT(sat_shape_move(dst, 1, 0), SAT_OK);
        ENSURE(sat_shape_position(p).x == 2 && sat_shape_position(dst).x == 3);
        free(dst);
    }
    cl = sat_shape_clone(p);
    ENSURE(cl != NULL);
    if (cl) {
        ENSURE(same_bytes(cl, p));
        /* A clone on its original: each contains the other. */
        ENSURE(sat_collide(cl, p, &r));
        ENSURE(r.a_in_b && r.b_in_a);
        ENSURE_NEAR(r.overlap, 2, 1e-14); /* the box's smaller width */
        ENSURE_EQ_INT(sat_shape_scale(cl, 2), SAT_OK);
        ENSURE(sat_shape_area(p) == 8);
        ENSURE_NEAR(sat_shape_area(cl), 32, 1e-13);
        sat_shape_free(cl);
    }
    cl = sat_shape_clone(c);
    ENSURE(cl != NULL);
    if (cl) {
        ENSURE(same_bytes(cl, c));
        ENSURE_EQ_INT(sat_circle_set_radius(cl, 1), SAT_OK);
        ENSURE(sat_circle_radius(c) == 7);
        sat_shape_free(cl);
    }
    sat_shape_free(p);
    sat_shape_free(c);
}

/* sat_shape_set_transform puts back what the struct held, bit for bit (a world's restore):
 * a clone given the transform of its original, after moves far from the origin (a low part),
 * a turn and a scale that moveTo, setRotation and scale could not give back, is its original
 * byte for byte; a refusal changes nothing. */
static void test_set_transform(void)
{
    static const double xy[] = {0, 0, 3, 0, 4, 2, 1, 3};
    sat_shape *p = mk_polygon(xy, 4), *c = mk_circle(5, 6, 7), *q = NULL, *d = NULL;
    if (!p || !c)
        goto done;
    q = sat_shape_clone(p);
    d = sat_shape_clone(c);
    if (!q || !d)
        goto done;
    ENSURE_EQ_INT(sat_shape_move_to(p, 1e16, -3), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(p, 1, 0.1), SAT_OK); /* 1e16 + 1: a low part of 1 */
    ENSURE(p->pos_lo.x == 1);
    ENSURE_EQ_INT(sat_shape_set_rotation(p, 0.7), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(p, 1.1), SAT_OK);
    ENSURE_EQ_INT(sat_shape_set_transform(q, p->pos, p->pos_lo, p->angle, p->scale, p->radius),
                  SAT_OK);
    ENSURE(same_bytes(p, q));
    ENSURE_EQ_INT(sat_circle_set_radius(c, 2.5), SAT_OK);
    ENSURE_EQ_INT(sat_shape_move(c, -1, 1e-3), SAT_OK);
    ENSURE_EQ_INT(sat_shape_set_transform(d, c->pos, c->pos_lo, c->angle, c->scale, c->radius),
                  SAT_OK);
    ENSURE(same_bytes(c, d));
    /* refusals, each leaving the shape as it was */
    ENSURE_EQ_INT(sat_shape_set_transform(q, p->pos, p->pos_lo, p->angle, 0.0, 0.0),
                  SAT_ERR_BAD_SCALE);
    ENSURE_EQ_INT(sat_shape_set_transform(q, p->pos, p->pos_lo, NAN, 1.0, 0.0),
                  SAT_ERR_NONFINITE);
    ENSURE_EQ_INT(sat_shape_set_transform(q, p->pos, p->pos_lo, 0.0, 1.0, 1.0),
                  SAT_ERR_NEGATIVE_RADIUS); /* a polygon has no radius */
    ENSURE_EQ_INT(sat_shape_set_transform(d, c->pos, c->pos_lo, 0.0, 2.0, 1.0),
                  SAT_ERR_BAD_SCALE); /* a circle's scale is 1 */
    ENSURE_EQ_INT(sat_shape_set_transform(d, c->pos, c->pos_lo, 0.0, 1.0, -1.0),
                  SAT_ERR_NEGATIVE_RADIUS);
    ENSURE(same_bytes(p, q));
    ENSURE(same_bytes(c, d));
done:
    sat_shape_free(p);
    sat_shape_free(c);
    sat_shape_free(q);
    sat_shape_free(d);
}

void run_build_tests(void)
{
    RUN_TEST(test_status_messages);
    RUN_TEST(test_sizes);
    RUN_TEST(test_circle_init);
    RUN_TEST(test_circle_refusals);
    RUN_TEST(test_polygon_windings);
    RUN_TEST(test_polygon_in_caller_memory);
    RUN_TEST(test_polygon_merges_near_duplicates);
    RUN_TEST(test_polygon_drops_collinear);
    RUN_TEST(test_polygon_64_vertices);
    RUN_TEST(test_polygon_1000_vertex_circle);
    RUN_TEST(test_polygon_refusals);
    RUN_TEST(test_polygon_far_apart_points);
    RUN_TEST(test_polygon_extreme_coordinates);
    RUN_TEST(test_polygon_too_many_points);
    RUN_TEST(test_heap_new_free);
    RUN_TEST(test_copy_and_clone);
    RUN_TEST(test_set_transform);
}
