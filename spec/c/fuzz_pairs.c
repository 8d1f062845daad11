/*
 * fuzz_pairs.c - libFuzzer target for the C core (make fuzz FUZZ_SECONDS=N).
 *
 * The input bytes describe two shapes (circles, segments, capsules, polygons of up to 64
 * points: raw points, points around a circle in angular order, or boxes; or compounds: a
 * concave outline or a chain from such points, or a union of two such shapes) with arbitrary
 * doubles, huge, tiny, NaN and infinite ones included, then a sequence of transforms and a
 * motion. Every function of sat.h is called on them, and cheap invariants are checked with
 * abort() on violation:
 *   - a refused build or transform returns a status with a message, and a refused transform
 *     leaves the shape byte for byte unchanged;
 *   - queries return no NaN; a raycast hit has t in [0, 1] and a unit normal;
 *   - sat_test == sat_collide, in both orders; a shape touches itself;
 *   - a collision has a finite overlap >= 0, a finite unit normal, mtv = -normal * overlap;
 *     swapping the shapes negates the normal and swaps the flags, bit for bit;
 *   - a miss leaves the result untouched;
 *   - a sweep's hit has t in [0, 1], a finite unit normal and a finite move, and when it
 *     overlaps at the start it is sat_collide's result; sat_sweep_contact agrees with it and
 *     gives a finite point;
 *   - sat_explain gives sat_collide's verdict and result bit for bit, within its bound of
 *     axes, the deciding one in range; sat_contacts gives 0 points when apart, else 1 or 2
 *     finite ones, the same in both orders.
 * Refused inputs are fine; crashes, sanitizer reports and violations are not.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_POINTS 64

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t byte(reader *r)
{
    uint8_t b;
    if (r->n == 0)
        return 0;
    b = *r->p++;
    r->n--;
    return b;
}

static double number(reader *r)
{
    static const double special[] = {
        0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 4.0, 5.0, 1e-300, -1e-300, 4.9406564584124654e-324,
        2.2250738585072014e-308, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308,
        1e9, -1e9, 1e15, -1e15, 1e-9, 3.14159265358979323846, 1.5707963267948966, 1e154,
        1.34e154, 0.1, 1e200, -1e200,
    };
    uint8_t mode = byte(r);
    if (mode < 24) { /* raw bits: anything at all */
        uint64_t bits = 0;
        double d;
        int i;
        for (i = 0; i < 8; i++)
            bits = (bits << 8) | byte(r);
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    if (mode < 48) {
        uint8_t k = byte(r);
        if (k == 255)
            return NAN;
        if (k == 254)
            return INFINITY;
        if (k == 253)
            return -INFINITY;
        return special[k % (sizeof special / sizeof special[0])];
    }
    {
        /* Small dyadic values (multiples of 1/16 in [-2048, 2048)): exact touching cases. */
        int hi = byte(r); /* (two statements: the order of the reads is fixed) */
        int lo = byte(r);
        return (hi * 256 + lo - 32768) / 16.0;
    }
}

static sat_vec vec(reader *r)
{
    sat_vec v;
    v.x = number(r);
    v.y = number(r);
    return v;
}

/* FUZZ_TRACE=1 in the environment prints every step (to replay a crash file). */
static int tracing(void)
{
    static int t = -1;
    if (t < 0) {
        const char *e = getenv("FUZZ_TRACE");
        t = e && e[0] == '1';
    }
    return t;
}

static void trace_shape(const char *what, const sat_shape *s)
{
    int i;
    if (!tracing())
        return;
    if (s->kind == SAT_COMPOUND) {
        fprintf(stderr, "%s: compound of %d parts, form %d\n", what, s->count,
                (int)sat_compound_form(s));
        for (i = 0; i < s->count; i++)
            trace_shape("  part", sat_compound_part(s, i));
        return;
    }
    fprintf(stderr, "%s: kind %d count %d pos (%.17g + %.17g, %.17g + %.17g) angle %.17g "
            "scale %.17g radius %.17g bound %.17g\n", what, (int)s->kind, s->count, s->pos.x,
            s->pos_lo.x, s->pos.y, s->pos_lo.y, s->angle, s->scale, s->radius, s->bound);
    for (i = 0; i < s->count; i++) {
        sat_vec v = sat_polygon_vertex(s, i);
        fprintf(stderr, "  vertex %d: %.17g, %.17g\n", i, v.x, v.y);
    }
}

#define check(C) check_at((C), __LINE__, #C)

static void check_at(int ok, int line, const char *expr)
{
    if (!ok) {
        fprintf(stderr, "fuzz_pairs.c:%d: invariant violated: %s\n", line, expr);
        abort();
    }
}

static void check_status(sat_status st)
{
    const char *m = sat_status_message(st);
    check(m != NULL && m[0] != '\0');
}

static sat_shape *make_shape(reader *r, int depth);

/* Points for an outline from the bytes, in one of the polygon styles; returns their count. */
static int outline_points(reader *r, uint8_t kind, sat_vec *pts)
{
    int n = byte(r) % (MAX_POINTS + 1), i, style = (kind >> 1) % 4;
    if (style == 0) { /* raw points */
        for (i = 0; i < n; i++)
            pts[i] = vec(r);
    } else if (style == 1 || style == 2) {
        /* Around a circle in angular order (convex unless the steps pass a full turn);
         * style 2 gives every point its own radius (a star: concave, simple). */
        sat_vec c = vec(r);
        double rad = number(r), total = 0, acc = 0, steps[MAX_POINTS];
        for (i = 0; i < n; i++)
            total += steps[i] = 1 + byte(r);
        total += byte(r);
        for (i = 0; i < n; i++) {
            double t, ri = style == 2 ? number(r) : rad;
            acc += steps[i];
            t = 6.283185307179586 * acc / (total + 1);
            pts[i].x = c.x + ri * cos(t);
            pts[i].y = c.y + ri * sin(t);
        }
    } else { /* a box, either winding */
        sat_vec p = vec(r), d = vec(r);
        n = 4;
        pts[0] = p;
        pts[1].x = p.x + d.x, pts[1].y = p.y;
        pts[2].x = p.x + d.x, pts[2].y = p.y + d.y;
        pts[3].x = p.x, pts[3].y = p.y + d.y;
    }
    return n;
}

/* A compound from the bytes: a concave outline, a chain, or a union of two shapes. */
static sat_shape *make_compound(reader *r, uint8_t kind, int depth, sat_status *st)
{
    sat_vec pts[MAX_POINTS];
    int form = byte(r) % 3, n;
    if (form == 2) {
        sat_shape *p[2], *s = NULL;
        p[0] = make_shape(r, depth + 1);
        p[1] = make_shape(r, depth + 1);
        *st = SAT_ERR_NO_PARTS;
        if (p[0] && p[1])
            s = sat_compound_new((const sat_shape *const *)p, 2, st);
        free(p[0]);
        free(p[1]);
        if (s) {
            check(s->kind == SAT_COMPOUND && s->count >= 2);
            check(sat_compound_form(s) == SAT_FORM_PARTS);
        }
        return s;
    }
    n = outline_points(r, kind, pts);
    if (form == 0) {
        sat_shape *s = sat_concave_new(pts, n, st);
        if (s) {
            check(s->kind == SAT_COMPOUND && s->count >= 1);
            check(sat_compound_outline_count(s) >= 3 && sat_compound_outline_count(s) <= n);
        }
        return s;
    }
    return sat_chain_new(pts, n, byte(r) & 1, st);
}

/* A shape from the bytes, or NULL when the core refuses it. */
static sat_shape *make_shape(reader *r, int depth)
{
    uint8_t kind = byte(r);
    sat_status st;
    sat_shape *s;
    if (kind >= 0xC0 && depth < 2 && !(kind & 1)) {
        s = make_compound(r, kind, depth, &st);
    } else if ((kind & 3) == 3) { /* a segment, or a capsule */
        double x1 = number(r), y1 = number(r), x2 = number(r), y2 = number(r);
        s = (sat_shape *)malloc(sat_segment_bytes());
        if (!s)
            return NULL;
        if (kind & 4)
            st = sat_capsule_init(s, x1, y1, x2, y2, number(r));
        else
            st = sat_segment_init(s, x1, y1, x2, y2);
        if (st == SAT_OK)
            check(s->kind == ((kind & 4) ? SAT_CAPSULE : SAT_SEGMENT));
    } else if (kind & 1) {
        double x = number(r), y = number(r), rad = number(r);
        s = (sat_shape *)malloc(sat_circle_bytes());
        if (!s)
            return NULL;
        st = sat_circle_init(s, x, y, rad);
    } else {
        sat_vec pts[MAX_POINTS];
        int n = outline_points(r, kind, pts), i;
        s = (sat_shape *)malloc(sat_polygon_bytes(n > 0 ? n : 1));
        if (!s)
            return NULL;
        if (tracing())
            for (i = 0; i < n; i++)
                fprintf(stderr, "  point %d: %.17g, %.17g\n", i, pts[i].x, pts[i].y);
        st = sat_polygon_init(s, pts, n);
        if (st == SAT_OK) {
            check(s->kind == SAT_POLYGON && s->count >= 3 && s->count <= n);
            check(sat_shape_bytes(s) <= sat_polygon_bytes(n));
        }
    }
    check_status(st);
    if (st != SAT_OK) {
        if (tracing())
            fprintf(stderr, "shape refused: %s\n", sat_status_message(st));
        free(s);
        return NULL;
    }
    trace_shape("built", s);
    return s;
}

/* One transform from the bytes; a refusal must leave the shape as it was. */
static void transform(reader *r, sat_shape *s)
{
    uint8_t op = byte(r) % 7;
    double x = number(r), y = op < 2 ? number(r) : 0;
    sat_shape *before = sat_shape_clone(s);
    sat_status st = SAT_OK;
    if (!before)
        return;
    check(memcmp(before, s, sat_shape_bytes(s)) == 0);
    switch (op) {
    case 0: st = sat_shape_move_to(s, x, y); break;
    case 1: st = sat_shape_move(s, x, y); break;
    case 2: st = sat_shape_set_rotation(s, x); break;
    case 3: st = sat_shape_rotate(s, x); break;
    case 4: st = sat_shape_scale(s, x); break;
    case 5:
        if (s->kind == SAT_CIRCLE || s->kind == SAT_CAPSULE)
            st = sat_circle_set_radius(s, x);
        break;
    default: { /* copy into fresh memory and back */
        sat_shape *c = (sat_shape *)malloc(sat_shape_bytes(s));
        if (c) {
            sat_shape_copy(c, s);
            check(memcmp(c, s, sat_shape_bytes(s)) == 0);
            sat_shape_copy(s, c);
            free(c);
        }
    }
    }
    check_status(st);
    if (tracing()) {
        fprintf(stderr, "op %d (%.17g, %.17g): %s\n", op, x, y, sat_status_message(st));
        trace_shape("now", s);
    }
    if (st != SAT_OK)
        check(memcmp(before, s, sat_shape_bytes(s)) == 0);
    sat_shape_free(before);
}

static void queries(reader *r, const sat_shape *s)
{
    sat_aabb b = sat_shape_bbox(s);
    sat_vec p = sat_shape_position(s), q1, q2;
    sat_hit hit;
    double area = sat_shape_area(s);
    int i, c;
    check(!isnan(b.x1) && !isnan(b.y1) && !isnan(b.x2) && !isnan(b.y2));
    check(b.x1 <= b.x2 && b.y1 <= b.y2);
    check(!isnan(p.x) && !isnan(p.y));
    check(!isnan(area) && area >= 0);
    check(isfinite(sat_shape_rotation(s)));
    if (s->kind == SAT_CIRCLE || s->kind == SAT_CAPSULE) {
        check(sat_circle_radius(s) >= 0 && isfinite(sat_circle_radius(s)));
    }
    if (s->kind == SAT_SEGMENT || s->kind == SAT_CAPSULE) {
        sat_vec e1, e2;
        sat_segment_endpoints(s, &e1, &e2);
        check(!isnan(e1.x) && !isnan(e1.y) && !isnan(e2.x) && !isnan(e2.y));
    } else if (s->kind == SAT_POLYGON) {
        for (i = 0; i < s->count; i++) {
            sat_vec v = sat_polygon_vertex(s, i);
            check(!isnan(v.x) && !isnan(v.y));
        }
    }
    q1 = vec(r);
    if (tracing())
        fprintf(stderr, "bbox %.17g %.17g %.17g %.17g area %.17g query (%.17g, %.17g)\n", b.x1,
                b.y1, b.x2, b.y2, area, q1.x, q1.y);
    c = sat_shape_contains(s, q1.x, q1.y);
    check(c == 0 || c == 1);
    q2 = vec(r);
    hit.t = -1;
    if (sat_shape_raycast(s, q1, q2, &hit)) {
        if (tracing())
            fprintf(stderr, "raycast (%.17g, %.17g) -> (%.17g, %.17g): t %.17g normal (%.17g, "
                    "%.17g)\n", q1.x, q1.y, q2.x, q2.y, hit.t, hit.normal.x, hit.normal.y);
        check(hit.t >= 0 && hit.t <= 1);
        check(isfinite(hit.normal.x) && isfinite(hit.normal.y));
        check(fabs(hypot(hit.normal.x, hit.normal.y) - 1) < 1e-9);
    }
    /* Its own position (when a double holds it exactly) is inside, and a segment from it hits
     * at 0. */
    if (s->pos_lo.x == 0 && s->pos_lo.y == 0 && s->kind != SAT_COMPOUND) {
        check(sat_shape_contains(s, p.x, p.y) == 1);
        if (fabs(q2.x) <= SAT_MAX_COORD && fabs(q2.y) <= SAT_MAX_COORD) {
            check(sat_shape_raycast(s, p, q2, &hit) == 1);
            check(hit.t == 0);
        }
    }
}

static void pair(const sat_shape *a, const sat_shape *b)
{
    sat_result r, s, sentinel;
    int hit, hit2, t, t2;
    memset(&sentinel, 0xa5, sizeof sentinel);
    r = sentinel;
    s = sentinel;
    hit = sat_collide(a, b, &r);
    hit2 = sat_collide(b, a, &s);
    t = sat_test(a, b);
    t2 = sat_test(b, a);
    if (tracing())
        fprintf(stderr, "pair: hit %d/%d test %d/%d overlap %.17g normal (%.17g, %.17g) "
                "in %d %d\n", hit, hit2, t, t2, r.overlap, r.normal.x, r.normal.y, r.a_in_b,
                r.b_in_a);
    check(hit == 0 || hit == 1);
    check(hit == hit2 && hit == t && t == t2);
    if (!hit) {
        check(memcmp(&r, &sentinel, sizeof r) == 0 && memcmp(&s, &sentinel, sizeof s) == 0);
        return;
    }
    check(isfinite(r.overlap) && r.overlap >= 0);
    check(isfinite(r.normal.x) && isfinite(r.normal.y));
    check(fabs(hypot(r.normal.x, r.normal.y) - 1) < 1e-9);
    check(r.mtv.x == -r.normal.x * r.overlap && r.mtv.y == -r.normal.y * r.overlap);
    check(r.a_in_b == 0 || r.a_in_b == 1);
    check(r.b_in_a == 0 || r.b_in_a == 1);
    check(s.overlap == r.overlap && s.normal.x == -r.normal.x && s.normal.y == -r.normal.y);
    check(s.mtv.x == -r.mtv.x && s.mtv.y == -r.mtv.y);
    check(s.a_in_b == r.b_in_a && s.b_in_a == r.a_in_b);
}

static void explained(const sat_shape *a, const sat_shape *b)
{
    sat_axis axes[2 * MAX_POINTS + 5];
    sat_explanation e;
    sat_result r;
    sat_vec p[2], q[2];
    int hit = sat_collide(a, b, &r), n = sat_contacts(a, b, p), k;
    int bound = (a->kind == SAT_POLYGON ? a->count : 0) + (b->kind == SAT_POLYGON ? b->count : 0) + 5;
    check(sat_explain(a, b, &e, axes, (int)(sizeof axes / sizeof axes[0])) == hit);
    if (a->kind == SAT_COMPOUND || b->kind == SAT_COMPOUND) /* the verdict alone */
        check(e.hit == hit && e.count == 0 && e.deciding == -1);
    else
        check(e.hit == hit && e.count >= 1 && e.count <= bound);
    check(e.deciding >= -1 && e.deciding < e.count);
    check(!hit || memcmp(&e.result, &r, sizeof r) == 0);
    check(hit ? n == 1 || n == 2 : n == 0);
    check(sat_contacts(b, a, q) == n);
    for (k = 0; k < n; k++) {
        check(isfinite(p[k].x) && isfinite(p[k].y));
        check(p[k].x == q[k].x && p[k].y == q[k].y);
    }
}

static void sweep(reader *r, const sat_shape *a, const sat_shape *b)
{
    sat_vec v = vec(r);
    sat_sweep_hit hit;
    if (!sat_sweep(a, v, b, &hit))
        return;
    if (tracing())
        fprintf(stderr, "sweep (%.17g, %.17g): overlapping %d t %.17g normal (%.17g, %.17g)\n",
                v.x, v.y, hit.overlapping, hit.t, hit.result.normal.x, hit.result.normal.y);
    check(hit.t >= 0 && hit.t <= 1);
    check(isfinite(hit.move.x) && isfinite(hit.move.y));
    {
        sat_sweep_hit h2;
        sat_vec p, still = {0.0, 0.0};
        check(sat_sweep_contact(a, v, b, still, &h2, &p) == 1);
        check(h2.t == hit.t && h2.result.normal.x == hit.result.normal.x &&
              h2.result.normal.y == hit.result.normal.y);
        check(isfinite(p.x) && isfinite(p.y));
    }
    check(isfinite(hit.result.normal.x) && isfinite(hit.result.normal.y));
    check(fabs(hypot(hit.result.normal.x, hit.result.normal.y) - 1) < 1e-9);
    if (hit.overlapping) {
        sat_result c;
        check(sat_collide(a, b, &c) == 1);
        check(c.overlap == hit.result.overlap && c.normal.x == hit.result.normal.x &&
              c.normal.y == hit.result.normal.y);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r;
    sat_shape *a, *b, *c;
    int ops, i;
    r.p = data;
    r.n = size;
    a = make_shape(&r, 0);
    b = make_shape(&r, 0);
    if (!a || !b) {
        free(a);
        free(b);
        return 0;
    }
    ops = byte(&r) % 9;
    for (i = 0; i < ops; i++)
        transform(&r, (byte(&r) & 1) ? b : a);
    queries(&r, a);
    queries(&r, b);
    check(sat_test(a, a) == 1 && sat_test(b, b) == 1);
    pair(a, b);
    explained(a, b);
    sweep(&r, a, b);
    sweep(&r, b, a);
    c = sat_shape_clone(a); /* an equal shape elsewhere in memory */
    if (c) {
        check(sat_test(a, c) == 1);
        pair(a, c);
        sat_shape_free(c);
    }
    sat_shape_free(a);
    sat_shape_free(b);
    return 0;
}

#ifdef FUZZ_STANDALONE
/* Without libFuzzer: replay the files named on the command line. */
int main(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        static uint8_t buf[1 << 16];
        size_t n;
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
        printf("%s: ok\n", argv[i]);
    }
    return 0;
}
#endif
