/*
 * Building, validating and transforming shapes; per-shape queries.
 */
#include <stdlib.h>
#include <string.h>

#include "sat_internal.h"
#include "sat_math.h"

const char *sat_status_message(sat_status status)
{
    switch (status) {
    case SAT_OK: return "ok";
    case SAT_ERR_NONFINITE: return "number must be finite (not NaN or infinite)";
    case SAT_ERR_TOO_FEW_POINTS: return "needs at least 3 distinct, non-collinear points";
    case SAT_ERR_ZERO_AREA: return "points enclose no area";
    case SAT_ERR_NOT_CONVEX: return "points are not convex (sat.concave takes a concave outline)";
    case SAT_ERR_NEGATIVE_RADIUS: return "radius must be >= 0";
    case SAT_ERR_BAD_SCALE: return "scale factor must be > 0";
    case SAT_ERR_TOO_MANY_POINTS: return "too many points";
    case SAT_ERR_RANGE:
        return "out of range (coordinates and sizes up to 1e150, polygons and segments at "
               "least 1e-100 across)";
    case SAT_ERR_NOMEM: return "out of memory";
    case SAT_ERR_SAME_POINTS: return "endpoints must differ";
    case SAT_ERR_ANGLE: return "resulting angle is not finite (the rotation overflows)";
    case SAT_ERR_SELF_CROSSING: return "outline crosses itself";
    case SAT_ERR_SELF_TOUCHING: return "outline touches itself";
    case SAT_ERR_NO_PARTS: return "no parts";
    case SAT_ERR_NO_LOCAL:
        return "a lean polygon cannot turn or scale before it is given the block for its local "
               "points (sat_shape_give_local)";
    }
    return "unknown error";
}

size_t sat_circle_bytes(void)
{
    return sizeof(sat_shape);
}

size_t sat_segment_bytes(void)
{
    return sizeof(sat_shape) + 4 * sizeof(sat_vec);
}

size_t sat_capsule_bytes(void)
{
    return sat_segment_bytes();
}

/* The arrays every polygon keeps (sat.h): normals, offsets, the deepest vertices. */
size_t sat_polygon_lean_bytes(int count)
{
    if (count < 0)
        count = 0;
    if (count > SAT_MAX_POINTS)
        count = SAT_MAX_POINTS;
    return sizeof(sat_shape) + (size_t)(2 * count + sat__deep_entries(count)) * sizeof(sat_vec);
}

/* And the local points after them. */
size_t sat_polygon_bytes(int count)
{
    if (count < 0)
        count = 0;
    if (count > SAT_MAX_POINTS)
        count = SAT_MAX_POINTS;
    return sat_polygon_lean_bytes(count) + (size_t)count * sizeof(sat_vec);
}

size_t sat_shape_bytes(const sat_shape *s)
{
    if (s->kind == SAT_POLYGON)
        return s->local == SAT__LOCAL_NONE ? sat_polygon_lean_bytes(s->count)
                                           : sat_polygon_bytes(s->count);
    if (s->kind == SAT_COMPOUND)
        return sizeof(sat_shape) + (size_t)s->v[0].x;
    return sat__has_segment(s) ? sat_segment_bytes() : sat_circle_bytes();
}

static void init_common(sat_shape *s, sat_kind kind)
{
    s->kind = kind;
    s->count = 0;
    s->category = 1u;
    s->mask = 0xFFFFFFFFu;
    s->id = 0;
    s->members = NULL;
    s->user = 0;
    s->pos = sat__v(0.0, 0.0);
    s->pos_lo = sat__v(0.0, 0.0);
    s->angle = 0.0;
    s->scale = 1.0;
    s->radius = 0.0;
    s->bound = 0.0;
    s->local = SAT__LOCAL_INLINE;
}

/* A segment's or capsule's world half, direction, half-length, box and bound. */
static void update_segment(sat_shape *s)
{
    double c, sn, k = s->scale, r = s->radius;
    sat_sincos(s->angle, &sn, &c);
    sat_vec lh = s->v[2], lu = sat__v(1.0, 0.0);
    if (s->v[3].y > 0.0)
        lu = sat__normalize(lh, NULL);
    lh = sat__v(k * lh.x, k * lh.y);
    /* + 0.0 turns a -0 into 0, so results never print "-0". */
    s->v[0] = sat__v(c * lh.x - sn * lh.y + 0.0, sn * lh.x + c * lh.y + 0.0);
    s->v[1] = sat__v(c * lu.x - sn * lu.y + 0.0, sn * lu.x + c * lu.y + 0.0);
    s->v[3].x = k * s->v[3].y;
    s->bound = s->v[3].x + r;
}

/* The box of a polygon's world offsets. */
static void polygon_box(const sat_shape *s, sat_vec *box_lo, sat_vec *box_hi)
{
    const sat_vec *off = sat__coff(s);
    sat_vec lo = sat__v(HUGE_VAL, HUGE_VAL), hi = sat__v(-HUGE_VAL, -HUGE_VAL);
    for (int i = 0; i < s->count; i++) {
        sat_vec o = off[i];
        if (o.x < lo.x) lo.x = o.x;
        if (o.y < lo.y) lo.y = o.y;
        if (o.x > hi.x) hi.x = o.x;
        if (o.y > hi.y) hi.y = o.y;
    }
    *box_lo = lo;
    *box_hi = hi;
}

/* A compound's: its parts' boxes about their offsets. */
static void compound_box(const sat_shape *s, sat_vec *box_lo, sat_vec *box_hi)
{
    sat_vec lo = sat__v(HUGE_VAL, HUGE_VAL), hi = sat__v(-HUGE_VAL, -HUGE_VAL);
    for (int i = 0; i < s->count; i++) {
        const sat_vec *t = sat__cpart_table(s, i);
        sat_vec o = t[0], plo = t[1], phi = t[2];
        lo.x = fmin(lo.x, o.x + plo.x);
        lo.y = fmin(lo.y, o.y + plo.y);
        hi.x = fmax(hi.x, o.x + phi.x);
        hi.y = fmax(hi.y, o.y + phi.y);
    }
    *box_lo = lo;
    *box_hi = hi;
}

void sat__box(const sat_shape *s, sat_vec *lo, sat_vec *hi)
{
    double r = s->radius;
    switch (s->kind) {
    case SAT_POLYGON:
        polygon_box(s, lo, hi);
        return;
    case SAT_COMPOUND:
        compound_box(s, lo, hi);
        return;
    case SAT_SEGMENT:
    case SAT_CAPSULE:
        *hi = sat__v(fabs(s->v[0].x) + r, fabs(s->v[0].y) + r);
        *lo = sat__neg(*hi);
        return;
    default:
        *lo = sat__v(-r, -r);
        *hi = sat__v(r, r);
        return;
    }
}

/* A polygon's world normals, offsets and bound from its local points at its rotation and
 * scale. local may be the offsets themselves (a lean polygon as it is built): the normals
 * are computed first, from the points alone, and each offset only from its own point. */
static void polygon_transform(sat_shape *s, const sat_vec *local)
{
    sat_vec *off = sat__off(s), *n = sat__normal(s);
    double c, sn, k = s->scale, bound = 0.0;
    sat_sincos(s->angle, &sn, &c);
    for (int i = 0; i < s->count; i++) {
        /* + 0.0 turns a -0 into 0, so results never print "-0". */
        sat_vec ln = sat__edge_normal(local, s->count, i);
        n[i] = sat__v(c * ln.x - sn * ln.y + 0.0, sn * ln.x + c * ln.y + 0.0);
    }
    for (int i = 0; i < s->count; i++) {
        sat_vec p = sat__v(k * local[i].x, k * local[i].y);
        sat_vec o = sat__v(c * p.x - sn * p.y, sn * p.x + c * p.y);
        double d = sat__len(o);
        off[i] = o;
        if (d > bound) bound = d;
    }
    s->bound = bound;
}

/* Recompute what depends on rotation and scale: world offsets, normals and bound. A lean
 * polygon without its block is at rotation 0 (or -0) and scale 1 (the transforms refuse
 * anything else): its offsets, normals and bound are those it was built with. */
static void update_cache(sat_shape *s)
{
    if (s->kind == SAT_CIRCLE) {
        s->bound = s->radius;
    } else if (sat__has_segment(s)) {
        update_segment(s);
    } else if (s->kind == SAT_COMPOUND) {
        sat__compound_refresh(s);
    } else if (s->local != SAT__LOCAL_NONE) {
        polygon_transform(s, sat__clocal(s));
    }
    sat__changed(s);
}

sat_status sat_circle_init(sat_shape *s, double x, double y, double radius)
{
    if (!isfinite(x) || !isfinite(y) || !isfinite(radius))
        return SAT_ERR_NONFINITE;
    if (radius < 0.0)
        return SAT_ERR_NEGATIVE_RADIUS;
    if (!sat__in_range(x) || !sat__in_range(y) || !sat__in_range(radius))
        return SAT_ERR_RANGE;
    init_common(s, SAT_CIRCLE);
    s->pos = sat__v(x, y);
    s->radius = radius;
    update_cache(s);
    return SAT_OK;
}

/* Both kinds with a segment: the midpoint as a double-double, so that the endpoints stay
 * exact far from the origin (x1 + half is the midpoint without rounding). */
static sat_status segment_init(sat_shape *s, sat_kind kind, double x1, double y1, double x2,
                               double y2, double radius)
{
    if (!isfinite(x1) || !isfinite(y1) || !isfinite(x2) || !isfinite(y2) || !isfinite(radius))
        return SAT_ERR_NONFINITE;
    if (radius < 0.0)
        return SAT_ERR_NEGATIVE_RADIUS;
    if (!sat__in_range(x1) || !sat__in_range(y1) || !sat__in_range(x2) || !sat__in_range(y2) ||
        !sat__in_range(radius))
        return SAT_ERR_RANGE;
    sat_vec half = sat__v(0.5 * (x2 - x1), 0.5 * (y2 - y1));
    double len = sat__len(half);
    if (kind == SAT_SEGMENT && !(len > 0.0))
        return SAT_ERR_SAME_POINTS;
    if (len > 0.0 && 2.0 * len < SAT_MIN_SIZE)
        return SAT_ERR_RANGE;
    init_common(s, kind);
    s->radius = radius;
    s->v[2] = half;
    s->v[3] = sat__v(len, len);
    sat__two_sum(x1, half.x, &s->pos.x, &s->pos_lo.x);
    sat__two_sum(y1, half.y, &s->pos.y, &s->pos_lo.y);
    update_cache(s);
    return SAT_OK;
}

sat_status sat_segment_init(sat_shape *s, double x1, double y1, double x2, double y2)
{
    return segment_init(s, SAT_SEGMENT, x1, y1, x2, y2, 0.0);
}

sat_status sat_capsule_init(sat_shape *s, double x1, double y1, double x2, double y2,
                            double radius)
{
    return segment_init(s, SAT_CAPSULE, x1, y1, x2, y2, radius);
}

void sat__refresh(sat_shape *s)
{
    update_cache(s);
}

/* Distance of b from the line through a and c is at most tol (or a and c coincide, so b is
 * the tip of a spike). */
static int collinear(sat_vec a, sat_vec b, sat_vec c, double tol)
{
    sat_vec ac = sat__sub(c, a);
    double len = sqrt(sat__dot(ac, ac));
    if (len <= tol)
        return 1;
    return fabs(sat__cross(ac, sat__sub(b, a))) <= tol * len;
}

/* Merge consecutive points (cyclically) closer than tol; returns the new count. */
int sat__merge_close(sat_vec *p, int n, double tol)
{
    int m = 0;
    double tol2 = tol * tol;
    for (int i = 0; i < n; i++) {
        if (m > 0) {
            sat_vec d = sat__sub(p[i], p[m - 1]);
            if (sat__dot(d, d) <= tol2)
                continue;
        }
        p[m++] = p[i];
    }
    while (m > 1) {
        sat_vec d = sat__sub(p[m - 1], p[0]);
        if (sat__dot(d, d) > tol2)
            break;
        m--;
    }
    return m;
}

/* Whether three points are pairwise farther apart than tol (not only consecutive ones). */
static int has_three_distinct(const sat_vec *p, int n, double tol)
{
    double tol2 = tol * tol;
    int i = 1;
    while (i < n && sat__dot(sat__sub(p[i], p[0]), sat__sub(p[i], p[0])) <= tol2)
        i++;
    for (int j = i + 1; j < n; j++) {
        sat_vec d0 = sat__sub(p[j], p[0]), di = sat__sub(p[j], p[i]);
        if (sat__dot(d0, d0) > tol2 && sat__dot(di, di) > tol2)
            return 1;
    }
    return 0;
}

/* Drop collinear points, cyclically, with a stack (monotone-chain style); returns count. */
int sat__drop_collinear(sat_vec *p, int n, double tol)
{
    int m = 0, start = 0;
    for (int i = 0; i < n; i++) {
        while (m >= 2 && collinear(p[m - 2], p[m - 1], p[i], tol))
            m--;
        p[m++] = p[i];
    }
    /* Close the loop: the seam between the last and the first points. */
    for (;;) {
        if (m - start >= 3 && collinear(p[m - 2], p[m - 1], p[start], tol)) {
            m--;
        } else if (m - start >= 3 && collinear(p[m - 1], p[start], p[start + 1], tol)) {
            start++;
        } else {
            break;
        }
    }
    if (start > 0)
        memmove(p, p + start, (size_t)(m - start) * sizeof(sat_vec));
    return m - start;
}

sat_status sat_polygon_validate(const sat_vec *points, int count, sat_vec *work,
                                sat_outline *out)
{
    int exponent;
    double size;
    sat_status checked = sat__check_points(points, count);
    if (checked != SAT_OK)
        return checked;
    sat_vec origin = points[0], *p = work; /* (read first: work may be points itself) */
    checked = sat__unit_points(points, count, p, &exponent, &size);
    if (checked != SAT_OK)
        return checked;

    int n = sat__merge_close(p, count, SAT_MERGE_REL * size);
    if (n < 3)
        return SAT_ERR_TOO_FEW_POINTS;
    int distinct = has_three_distinct(p, n, SAT_MERGE_REL * size);
    n = sat__drop_collinear(p, n, SAT_COLLINEAR_REL * size);
    n = sat__merge_close(p, n, SAT_MERGE_REL * size);
    if (n < 3)
        return distinct ? SAT_ERR_ZERO_AREA : SAT_ERR_TOO_FEW_POINTS;

    /* Signed area and centroid by a fan from point 0. */
    double area2 = 0.0;
    sat_vec c = sat__v(0.0, 0.0);
    for (int i = 1; i + 1 < n; i++) {
        double a = sat__cross(sat__sub(p[i], p[0]), sat__sub(p[i + 1], p[0]));
        area2 += a;
        c.x += a * (p[0].x + p[i].x + p[i + 1].x);
        c.y += a * (p[0].y + p[i].y + p[i + 1].y);
    }
    if (!(fabs(area2) * 0.5 > SAT_AREA_REL * size * size))
        return SAT_ERR_ZERO_AREA;
    c = sat__mul(c, 1.0 / (3.0 * area2));
    if (area2 < 0.0) {
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            sat_vec t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
    }

    /* Convex: every turn is to the left (straight ones are gone), and the turns add up to
     * one full turn (a pentagram turns left everywhere but twice around). */
    double turning = 0.0;
    for (int i = 0; i < n; i++) {
        sat_vec e0 = sat__sub(p[(i + 1) % n], p[i]);
        sat_vec e1 = sat__sub(p[(i + 2) % n], p[(i + 1) % n]);
        double cr = sat__cross(e0, e1);
        if (cr < 0.0)
            return SAT_ERR_NOT_CONVEX;
        turning += sat_atan2(cr, sat__dot(e0, e1));
    }
    if (fabs(turning - 2.0 * SAT_PI) > SAT_PI)
        return SAT_ERR_NOT_CONVEX;

    out->work = p;
    out->count = n;
    out->exponent = exponent;
    out->origin = origin;
    out->centroid = c;
    return SAT_OK;
}

/* Both layouts: lean, the local points are written where the offsets go, and become them
 * (rotation 0, scale 1). */
static void polygon_build(sat_shape *s, const sat_outline *o, int lean)
{
    const sat_vec *p = o->work;
    sat_vec c = o->centroid;
    int n = o->count, exponent = o->exponent;
    init_common(s, SAT_POLYGON);
    s->count = n;
    s->local = lean ? SAT__LOCAL_NONE : SAT__LOCAL_INLINE;
    /* The points are read from the first n entries (sat_polygon_init validates in the
     * shape's own storage) into the local points, which are past them; the local normals
     * then take their place until polygon_transform makes them world normals. */
    sat_vec *local = sat__local(s), *ln = sat__normal(s);
    for (int i = 0; i < n; i++) {
        sat_vec q = sat__sub(p[i], c);
        local[i] = sat__v(ldexp(q.x, exponent), ldexp(q.y, exponent));
    }
    for (int i = 0; i < n; i++)
        ln[i] = sat__edge_normal(local, n, i);
    memset(sat__off(s) + n, 0, (size_t)sat__deep_entries(n) * sizeof(sat_vec)); /* padding */
    /* The deepest vertex along each edge normal (a triangle's or a quad's is derived where
     * read: sat__least). It only moves forward as i does (rotating calipers), so this is
     * linear. */
    if (n > 4) {
        int j = 0;
        for (int k = 1; k < n; k++)
            if (sat__dot(local[k], ln[0]) < sat__dot(local[j], ln[0]))
                j = k;
        for (int i = 0; i < n; i++) {
            for (int steps = 0; steps < n; steps++) {
                int next = (j + 1) % n;
                if (!(sat__dot(local[next], ln[i]) < sat__dot(local[j], ln[i])))
                    break;
                j = next;
            }
            sat__set_deep(s, i, j);
        }
    }
    c = sat__v(ldexp(c.x, exponent), ldexp(c.y, exponent));
    sat__two_sum(o->origin.x, c.x, &s->pos.x, &s->pos_lo.x);
    sat__two_sum(o->origin.y, c.y, &s->pos.y, &s->pos_lo.y);
    polygon_transform(s, local);
}

void sat_polygon_build(sat_shape *s, const sat_outline *o)
{
    polygon_build(s, o, 0);
}

void sat_polygon_build_lean(sat_shape *s, const sat_outline *o)
{
    polygon_build(s, o, 1);
}

size_t sat_shape_local_bytes(const sat_shape *s)
{
    if (s->kind != SAT_POLYGON || s->local != SAT__LOCAL_NONE)
        return 0;
    return (size_t)s->count * sizeof(sat_vec);
}

void sat_shape_give_local(sat_shape *s, void *block)
{
    if (block == NULL || sat_shape_local_bytes(s) == 0)
        return;
    memcpy(block, sat__coff(s), (size_t)s->count * sizeof(sat_vec));
    s->local = (uintptr_t)block;
}

sat_status sat_polygon_init(sat_shape *s, const sat_vec *points, int count)
{
    sat_outline o;
    sat_status st = sat_polygon_validate(points, count, s->v, &o);
    if (st == SAT_OK)
        sat_polygon_build(s, &o);
    return st;
}

size_t sat__inline_bytes(const sat_shape *s)
{
    return s->kind == SAT_POLYGON ? sat_polygon_bytes(s->count) : sat_shape_bytes(s);
}

void sat__copy_inline(sat_shape *dst, const sat_shape *src)
{
    if (src->kind == SAT_POLYGON) {
        size_t n = (size_t)src->count;
        memcpy(dst, src, sat_polygon_lean_bytes(src->count));
        dst->local = SAT__LOCAL_INLINE;
        memcpy(sat__local(dst), sat__clocal(src), n * sizeof(sat_vec));
    } else {
        memcpy(dst, src, sat_shape_bytes(src));
    }
    dst->members = NULL; /* the hashes hold src, not its copy */
}

/* A lean polygon without a block stays lean; one with a block gets its points inline, so
 * that no two shapes share a block (and a copy needs nothing given). */
void sat_shape_copy(sat_shape *dst, const sat_shape *src)
{
    if (src->kind == SAT_POLYGON && src->local == SAT__LOCAL_NONE) {
        memcpy(dst, src, sat_polygon_lean_bytes(src->count));
        dst->members = NULL;
    } else {
        sat__copy_inline(dst, src);
    }
}


/* Validated in a buffer of its own, so that the shape is sized for the vertices it keeps, not
 * for its input. */
sat_shape *sat_polygon_new(const sat_vec *points, int count, sat_status *status)
{
    sat_status st = SAT_ERR_TOO_MANY_POINTS;
    sat_shape *s = NULL;
    sat_vec *work = NULL;
    sat_outline o;
    if (count <= SAT_MAX_POINTS) {
        st = SAT_ERR_NOMEM;
        work = malloc((size_t)(count > 0 ? count : 1) * sizeof *work);
    }
    if (work && (st = sat_polygon_validate(points, count, work, &o)) == SAT_OK) {
        s = malloc(sat_polygon_bytes(o.count));
        if (s)
            sat_polygon_build(s, &o);
        else
            st = SAT_ERR_NOMEM;
    }
    free(work);
    if (status)
        *status = st;
    return s;
}

/* A shape of `bytes` built by init, or NULL with the reason in *status. */
static sat_shape *new_shape(size_t bytes, sat_status (*init)(sat_shape *, const double *),
                            const double *args, sat_status *status)
{
    sat_status st = SAT_ERR_NOMEM;
    sat_shape *s = malloc(bytes);
    if (s && (st = init(s, args)) != SAT_OK) {
        free(s);
        s = NULL;
    }
    if (status)
        *status = st;
    return s;
}

static sat_status segment_args(sat_shape *s, const double *a)
{
    return sat_segment_init(s, a[0], a[1], a[2], a[3]);
}

static sat_status capsule_args(sat_shape *s, const double *a)
{
    return sat_capsule_init(s, a[0], a[1], a[2], a[3], a[4]);
}

static sat_status circle_args(sat_shape *s, const double *a)
{
    return sat_circle_init(s, a[0], a[1], a[2]);
}

sat_shape *sat_circle_new(double x, double y, double radius, sat_status *status)
{
    double args[3];
    args[0] = x, args[1] = y, args[2] = radius;
    return new_shape(sat_circle_bytes(), circle_args, args, status);
}

sat_shape *sat_segment_new(double x1, double y1, double x2, double y2, sat_status *status)
{
    double args[4];
    args[0] = x1, args[1] = y1, args[2] = x2, args[3] = y2;
    return new_shape(sat_segment_bytes(), segment_args, args, status);
}

sat_shape *sat_capsule_new(double x1, double y1, double x2, double y2, double radius,
                           sat_status *status)
{
    double args[5];
    args[0] = x1, args[1] = y1, args[2] = x2, args[3] = y2, args[4] = radius;
    return new_shape(sat_capsule_bytes(), capsule_args, args, status);
}

sat_shape *sat_shape_clone(const sat_shape *src)
{
    sat_shape *s = malloc(sat_shape_bytes(src));
    if (s)
        sat_shape_copy(s, src);
    return s;
}

void sat_shape_free(sat_shape *s)
{
    free(s);
}

/* ---- transform ---------------------------------------------------------------------- */

sat_status sat_shape_move_to(sat_shape *s, double x, double y)
{
    if (!isfinite(x) || !isfinite(y))
        return SAT_ERR_NONFINITE;
    if (!sat__in_range(x) || !sat__in_range(y))
        return SAT_ERR_RANGE;
    s->pos = sat__v(x, y);
    s->pos_lo = sat__v(0.0, 0.0);
    if (s->kind == SAT_COMPOUND)
        sat__compound_place(s);
    sat__changed(s);
    return SAT_OK;
}

void sat__dd_add(double *hi, double *lo, double d)
{
    double s, e;
    sat__two_sum(*hi, d, &s, &e);
    e += *lo;
    *hi = s + e;
    *lo = e - (*hi - s);
}

sat_status sat_shape_move(sat_shape *s, double dx, double dy)
{
    if (!isfinite(dx) || !isfinite(dy))
        return SAT_ERR_NONFINITE;
    if (!sat__in_range(s->pos.x + dx) || !sat__in_range(s->pos.y + dy))
        return SAT_ERR_RANGE;
    sat__dd_add(&s->pos.x, &s->pos_lo.x, dx);
    sat__dd_add(&s->pos.y, &s->pos_lo.y, dy);
    if (s->kind == SAT_COMPOUND)
        sat__compound_place(s);
    sat__changed(s);
    return SAT_OK;
}

sat_vec sat_shape_position(const sat_shape *s)
{
    return sat__v(s->pos.x + s->pos_lo.x, s->pos.y + s->pos_lo.y);
}

sat_status sat_shape_set_rotation(sat_shape *s, double angle)
{
    if (!isfinite(angle))
        return SAT_ERR_NONFINITE;
    if (sat__needs_local(s, angle, s->scale))
        return SAT_ERR_NO_LOCAL;
    s->angle = angle;
    update_cache(s);
    return SAT_OK;
}

sat_status sat_shape_rotate(sat_shape *s, double dangle)
{
    if (!isfinite(dangle))
        return SAT_ERR_NONFINITE;
    if (!isfinite(s->angle + dangle))
        return SAT_ERR_ANGLE;
    return sat_shape_set_rotation(s, s->angle + dangle);
}

/* Sets the angle and turns the position about (cx, cy) by the rotation (c, sn); checks
 * everything first, so that an error changes nothing. */
static sat_status turn_about(sat_shape *s, double angle, double c, double sn, double cx,
                             double cy)
{
    if (!isfinite(cx) || !isfinite(cy))
        return SAT_ERR_NONFINITE;
    if (!sat__in_range(cx) || !sat__in_range(cy))
        return SAT_ERR_RANGE;
    /* The offset from the pivot, from the double-double position: exact for a pivot near the
     * shape, however far both are from 0. The new position is the pivot plus the turned
     * offset, kept exactly as a double-double. */
    sat_vec d = sat__neg(sat__relative(s, cx, cy));
    sat_vec t = sat__v(c * d.x - sn * d.y, sn * d.x + c * d.y);
    sat_vec hi, lo;
    sat__two_sum(cx, t.x, &hi.x, &lo.x);
    sat__two_sum(cy, t.y, &hi.y, &lo.y);
    if (!sat__in_range(hi.x) || !sat__in_range(hi.y))
        return SAT_ERR_RANGE;
    if (sat__needs_local(s, angle, s->scale))
        return SAT_ERR_NO_LOCAL;
    s->pos = hi;
    s->pos_lo = lo;
    s->angle = angle;
    update_cache(s);
    return SAT_OK;
}

sat_status sat_shape_rotate_about(sat_shape *s, double dangle, double cx, double cy)
{
    if (!isfinite(dangle))
        return SAT_ERR_NONFINITE;
    if (!isfinite(s->angle + dangle))
        return SAT_ERR_ANGLE;
    double c, sn;
    sat_sincos(dangle, &sn, &c);
    return turn_about(s, s->angle + dangle, c, sn, cx, cy);
}

sat_status sat_shape_set_rotation_about(sat_shape *s, double angle, double cx, double cy)
{
    double turn = angle - s->angle, c, sn;
    if (!isfinite(angle))
        return SAT_ERR_NONFINITE;
    if (isfinite(turn)) {
        sat_sincos(turn, &sn, &c);
        return turn_about(s, angle, c, sn, cx, cy);
    }
    /* from one huge angle to another of the other sign: the turn from both ends' sines */
    double ca, sa, co, so;
    sat_sincos(angle, &sa, &ca);
    sat_sincos(s->angle, &so, &co);
    return turn_about(s, angle, ca * co + sa * so, sa * co - ca * so, cx, cy);
}

double sat_shape_rotation(const sat_shape *s)
{
    return s->angle;
}

sat_status sat_shape_scale(sat_shape *s, double factor)
{
    if (!isfinite(factor))
        return SAT_ERR_NONFINITE;
    if (!(factor > 0.0))
        return SAT_ERR_BAD_SCALE;
    if (!sat__in_range(s->bound * factor))
        return SAT_ERR_RANGE;
    if (s->kind == SAT_POLYGON && s->bound * factor < 0.5 * SAT_MIN_SIZE)
        return SAT_ERR_RANGE;
    if (sat__has_segment(s) && s->v[3].y > 0.0 && sat__seg_len(s) * factor < 0.5 * SAT_MIN_SIZE)
        return SAT_ERR_RANGE;
    if (s->kind == SAT_COMPOUND) {
        sat_status st = sat__compound_scale_ok(s, factor);
        if (st != SAT_OK)
            return st;
    }
    if (s->kind == SAT_CIRCLE) {
        s->radius *= factor;
    } else {
        double k = s->scale * factor;
        if (!isfinite(k))
            return SAT_ERR_RANGE; /* a subnormal outline grown past any sense */
        if (!(k > 0.0))
            return SAT_ERR_BAD_SCALE; /* underflow */
        if (sat__needs_local(s, s->angle, k))
            return SAT_ERR_NO_LOCAL;
        s->scale = k;
        if (s->kind == SAT_CAPSULE)
            s->radius *= factor; /* kept as given, like a circle's (scale is the segment's) */
    }
    update_cache(s);
    return SAT_OK;
}

sat_status sat_shape_set_transform(sat_shape *s, sat_vec pos, sat_vec pos_lo, double angle,
                                   double scale, double radius)
{
    int round = s->kind == SAT_CIRCLE || s->kind == SAT_CAPSULE;
    if (!isfinite(pos.x) || !isfinite(pos.y) || !isfinite(pos_lo.x) || !isfinite(pos_lo.y) ||
        !isfinite(angle) || !isfinite(scale) || !isfinite(radius))
        return SAT_ERR_NONFINITE;
    if (!sat__in_range(pos.x) || !sat__in_range(pos.y) || !sat__in_range(radius))
        return SAT_ERR_RANGE;
    if (!(scale > 0.0) || (s->kind == SAT_CIRCLE && scale != 1.0))
        return SAT_ERR_BAD_SCALE;
    if (radius < 0.0 || (!round && radius != 0.0))
        return SAT_ERR_NEGATIVE_RADIUS;
    if (sat__needs_local(s, angle, scale))
        return SAT_ERR_NO_LOCAL;
    s->pos = pos;
    s->pos_lo = pos_lo;
    s->angle = angle;
    s->scale = scale;
    s->radius = radius;
    update_cache(s);
    return SAT_OK;
}

/* A circle keeps its size in the radius (its scale stays 1), so radius() returns exactly
 * what setRadius() was given. */
sat_status sat_circle_set_radius(sat_shape *s, double radius)
{
    if (!isfinite(radius))
        return SAT_ERR_NONFINITE;
    if (radius < 0.0)
        return SAT_ERR_NEGATIVE_RADIUS;
    if (!sat__in_range(radius))
        return SAT_ERR_RANGE;
    s->radius = radius;
    update_cache(s);
    return SAT_OK;
}

void sat_shape_set_filter(sat_shape *s, uint32_t category, uint32_t mask)
{
    s->category = category;
    s->mask = mask;
    sat__changed(s);
}

double sat_circle_radius(const sat_shape *s)
{
    return s->radius;
}

/* ---- queries ------------------------------------------------------------------------ */

sat_aabb sat_shape_bbox(const sat_shape *s)
{
    sat_aabb b;
    sat_vec lo, hi;
    sat__box(s, &lo, &hi);
    b.x1 = (s->pos.x + lo.x) + s->pos_lo.x;
    b.y1 = (s->pos.y + lo.y) + s->pos_lo.y;
    b.x2 = (s->pos.x + hi.x) + s->pos_lo.x;
    b.y2 = (s->pos.y + hi.y) + s->pos_lo.y;
    return b;
}

double sat_shape_area(const sat_shape *s)
{
    if (s->kind == SAT_COMPOUND)
        return sat__compound_area(s);
    if (s->kind == SAT_CIRCLE)
        return SAT_PI * s->radius * s->radius;
    if (sat__has_segment(s))
        return s->radius * (SAT_PI * s->radius + 4.0 * sat__seg_len(s));
    const sat_vec *p = sat__clocal(s);
    double a2 = 0.0;
    for (int i = 0; i < s->count; i++)
        a2 += sat__cross(p[i], p[(i + 1) % s->count]);
    return 0.5 * a2 * s->scale * s->scale;
}

sat_vec sat_polygon_vertex(const sat_shape *s, int i)
{
    sat_vec o = sat__coff(s)[i];
    return sat__v((s->pos.x + o.x) + s->pos_lo.x, (s->pos.y + o.y) + s->pos_lo.y);
}

void sat_segment_endpoints(const sat_shape *s, sat_vec *p1, sat_vec *p2)
{
    sat_vec h = sat__seg_half(s);
    *p1 = sat__v((s->pos.x - h.x) + s->pos_lo.x, (s->pos.y - h.y) + s->pos_lo.y);
    *p2 = sat__v((s->pos.x + h.x) + s->pos_lo.x, (s->pos.y + h.y) + s->pos_lo.y);
}

int sat_shape_contains(const sat_shape *s, double x, double y)
{
    if (!isfinite(x) || !isfinite(y))
        return 0;
    if (s->kind == SAT_COMPOUND)
        return sat__compound_contains(s, x, y);
    sat_vec p = sat__relative(s, x, y);
    double tol = SAT_TOUCH_REL * s->bound;
    if (s->kind == SAT_CIRCLE)
        return sat__len(p) <= s->radius + tol;
    if (sat__has_segment(s)) {
        sat__segcore k = sat__seg_core(s, sat__v(0.0, 0.0));
        sat_vec dir;
        return sat__core_distance(p, &k, &dir) <= s->radius + tol;
    }
    const sat_vec *n = sat__cnormal(s);
    for (int i = 0; i < s->count; i++)
        if (sat__dot(n[i], p) - sat__support(s, i) > tol)
            return 0;
    return 1;
}

/* ---- compounds ------------------------------------------------------------------------ */

sat_form sat_compound_form(const sat_shape *s)
{
    return (sat_form)(int)s->v[1].x;
}

const sat_shape *sat_compound_part(const sat_shape *s, int i)
{
    return sat__cpart(s, i);
}

int sat_compound_outline_count(const sat_shape *s)
{
    return sat__outline_n(s);
}

sat_vec sat_compound_outline_point(const sat_shape *s, int i)
{
    sat_vec o = sat__coutline_world(s)[i];
    return sat__v((s->pos.x + o.x) + s->pos_lo.x, (s->pos.y + o.y) + s->pos_lo.y);
}

/* ---- transform ------------------------------------------------------------------------ */

void sat__compound_place(sat_shape *s)
{
    for (int i = 0; i < s->count; i++) {
        sat_shape *p = sat__live_part(s, i);
        sat_vec o = *sat__part_table(s, i);
        p->pos = s->pos;
        p->pos_lo = s->pos_lo;
        sat__dd_add(&p->pos.x, &p->pos_lo.x, o.x);
        sat__dd_add(&p->pos.y, &p->pos_lo.y, o.y);
    }
}

void sat__compound_refresh(sat_shape *s)
{
    double c, sn, k = s->scale, bound = 0.0;
    sat_sincos(s->angle, &sn, &c);
    for (int i = 0; i < s->count; i++) {
        sat_shape *b = sat__base_part(s, i), *p = sat__live_part(s, i);
        sat__copy_inline(p, b); /* (a lean one's offsets become the local points) */
        if (k != 1.0) {
            if (p->kind == SAT_CIRCLE) {
                p->radius *= k;
            } else {
                p->scale *= k;
                if (p->kind == SAT_CAPSULE)
                    p->radius *= k;
            }
        }
        p->angle = b->angle + s->angle;
        sat__refresh(p);
        sat_vec q = sat__mul(b->pos, k);
        sat_vec o = sat__v(c * q.x - sn * q.y + 0.0, sn * q.x + c * q.y + 0.0);
        sat_vec *t = sat__part_table(s, i);
        t[0] = o;
        sat__box(p, &t[1], &t[2]);
        bound = fmax(bound, sat__len(o) + p->bound);
    }
    int N = sat__outline_n(s);
    sat_vec *ol = sat__outline_local(s), *ow = ol + N;
    for (int j = 0; j < N; j++) {
        sat_vec q = sat__mul(ol[j], k);
        ow[j] = sat__v(c * q.x - sn * q.y + 0.0, sn * q.x + c * q.y + 0.0);
    }
    s->bound = bound;
    s->radius = 0.0;
    sat__compound_place(s);
}

sat_status sat__compound_scale_ok(const sat_shape *s, double factor)
{
    double k = s->scale * factor;
    if (!isfinite(k))
        return SAT_ERR_RANGE;
    if (!(k > 0.0))
        return SAT_ERR_BAD_SCALE;
    for (int i = 0; i < s->count; i++) {
        const sat_shape *p = sat__cpart(s, i);
        if (p->kind == SAT_POLYGON && p->bound * factor < 0.5 * SAT_MIN_SIZE)
            return SAT_ERR_RANGE;
        if (sat__has_segment(p) && p->v[3].y > 0.0 &&
            sat__seg_len(p) * factor < 0.5 * SAT_MIN_SIZE)
            return SAT_ERR_RANGE;
    }
    return SAT_OK;
}

/* The parts' areas added: exact for a concave shape (its parts do not overlap); a compound
 * whose parts overlap counts the overlap once per part. */
double sat__compound_area(const sat_shape *s)
{
    double a = 0.0;
    for (int i = 0; i < s->count; i++)
        a += sat_shape_area(sat__cpart(s, i));
    return a;
}

int sat__compound_contains(const sat_shape *s, double x, double y)
{
    for (int i = 0; i < s->count; i++)
        if (sat_shape_contains(sat__cpart(s, i), x, y))
            return 1;
    return 0;
}
