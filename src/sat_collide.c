/*
 * Pair tests: separating axes with the minimum translation and containment.
 *
 * Every pair is computed in a canonical order (lower kind first; for equal kinds an order
 * on the shapes' own state), in the first shape's frame, and flipped afterwards when the
 * caller's order was the other one. So swapping a and b negates the normal bit for bit, and
 * sat_test and sat_collide run the same arithmetic and always agree.
 *
 * Along each axis n, with a projecting to [amin, amax] and b to [bmin, bmax]:
 *   p = amax - bmin   the move of a along -n that separates them
 *   q = bmax - amin   the move of a along +n that separates them
 * A negative p or q is a separating axis. The depth along the axis is min(p, q), which is
 * also right when one interval contains the other (it includes the distance to the nearer
 * end), and the smallest depth over the axes is the exact penetration depth for convex
 * shapes when the axes are the edge normals plus, for a circle, the axis through its centre
 * and the polygon's closest vertex.
 */
#include <stdint.h>

#include "sat_internal.h"

typedef struct best_axis {
    double depth;
    sat_vec normal;
    int a_in_b, b_in_a;
} best_axis;

static inline void best_init(best_axis *b)
{
    b->depth = HUGE_VAL;
    b->normal = sat__v(1.0, 0.0);
    b->a_in_b = 1;
    b->b_in_a = 1;
}

/* mtv = -normal * overlap, with no -0 in either (they print as "-0"). */
static inline void set_mtv(sat_result *r)
{
    if (r->normal.x == 0.0)
        r->normal.x = 0.0;
    if (r->normal.y == 0.0)
        r->normal.y = 0.0;
    r->mtv = sat__mul(r->normal, -r->overlap);
    if (r->mtv.x == 0.0)
        r->mtv.x = 0.0;
    if (r->mtv.y == 0.0)
        r->mtv.y = 0.0;
}

static inline void finish(const best_axis *best, double tol, sat_result *r)
{
    r->overlap = best->depth > tol ? best->depth : 0.0;
    r->normal = best->normal;
    set_mtv(r);
    r->a_in_b = best->a_in_b;
    r->b_in_a = best->b_in_a;
}

/* Keeps the least depth with conditional moves instead of branches the predictor would have
 * to guess (which axis is least is random from one pair to the next; whether a pair is apart
 * is too, but exiting early on a separating axis saves more than its misprediction costs). */
typedef struct least_axis {
    double depth;
    int index;   /* which axis */
    int flip;    /* the normal is the axis negated */
} least_axis;

static inline void least_init(least_axis *l)
{
    l->depth = HUGE_VAL;
    l->index = 0;
    l->flip = 0;
}

static inline void least_consider(least_axis *l, double p, double q, int index)
{
    double depth = p <= q ? p : q;
    int better = depth < l->depth;
    l->depth = better ? depth : l->depth;
    l->index = better ? index : l->index;
    l->flip = better ? p > q : l->flip;
}

/* ---- polygon / polygon ---------------------------------------------------------------- */

/* Along a's normal i, a's interval is cached (support and width) and b's is scanned; then
 * the same with the roles swapped. Axes are numbered a's first, then b's. */
static inline int polygon_polygon(const sat_shape *a, const sat_shape *b, sat_vec d,
                                  double tol, sat_result *r, int full)
{
    const sat_vec *na = sat__cnormal(a), *pa = sat__cplane(a);
    const sat_vec *nb = sat__cnormal(b), *pb = sat__cplane(b);
    double sa = a->scale, sb = b->scale;
    int a_in_b = 1, b_in_a = 1;
    least_axis least;
    least_init(&least);

    for (int i = 0; i < a->count; i++) {
        sat_vec n = na[i];
        double amax = sa * pa[i].x, amin = amax - sa * pa[i].y, lo, hi, dn = sat__dot(d, n);
        sat__project(b, n, &lo, &hi);
        double bmin = dn + lo, bmax = dn + hi, p = amax - bmin, q = bmax - amin;
        if (p < -tol || q < -tol)
            return 0; /* the scans cost more than a mispredicted exit */
        if (!full)
            continue;
        least_consider(&least, p, q, i);
        b_in_a &= (bmin >= amin - tol) & (bmax <= amax + tol);
        a_in_b &= (amin >= bmin - tol) & (amax <= bmax + tol);
    }
    for (int j = 0; j < b->count; j++) {
        sat_vec n = nb[j];
        double dn = sat__dot(d, n), bmax = dn + sb * pb[j].x, bmin = bmax - sb * pb[j].y;
        double amin, amax;
        sat__project(a, n, &amin, &amax);
        double p = amax - bmin, q = bmax - amin;
        if (p < -tol || q < -tol)
            return 0;
        if (!full)
            continue;
        least_consider(&least, p, q, a->count + j);
        b_in_a &= (bmin >= amin - tol) & (bmax <= amax + tol);
        a_in_b &= (amin >= bmin - tol) & (amax <= bmax + tol);
    }
    if (!full)
        return 1;
    sat_vec n = least.index < a->count ? na[least.index] : nb[least.index - a->count];
    best_axis best;
    best.depth = least.depth;
    best.normal = least.flip ? sat__neg(n) : n;
    best.a_in_b = a_in_b;
    best.b_in_a = b_in_a;
    finish(&best, tol, r);
    return 1;
}

/* ---- polygon / circle ----------------------------------------------------------------- */

/* The polygon's edge normals, and the axis from the centre to the polygon's closest vertex
 * when the centre lies in that vertex's region (beyond both of its edges): only there can it
 * be the axis of least depth, and there the polygon's interval along it starts at that
 * vertex, so it costs no scan. One pass finds the edge depths and the closest vertex. */
static inline int polygon_circle(const sat_shape *a, const sat_shape *b, sat_vec d,
                                 double tol, sat_result *r, int full)
{
    const sat_vec *n = sat__cnormal(a), *pl = sat__cplane(a), *o = sat__coff(a);
    double s = a->scale, rad = b->radius, near2 = HUGE_VAL, far2 = 0.0;
    int k = 0, c_in_p = 1, count = a->count;
    least_axis least;
    least_init(&least);

    for (int i = 0; i < count; i++) {
        double amax = s * pl[i].x, amin = amax - s * pl[i].y, dn = sat__dot(d, n[i]);
        double p = amax - (dn - rad), q = (dn + rad) - amin;
        sat_vec w = sat__sub(o[i], d);
        double d2 = sat__dot(w, w);
        int nearer = d2 < near2;
        near2 = nearer ? d2 : near2;
        k = nearer ? i : k;
        if (p < -tol || q < -tol)
            return 0;
        if (!full)
            continue;
        least_consider(&least, p, q, i);
        c_in_p &= dn + rad <= amax + tol;
        far2 = d2 > far2 ? d2 : far2;
    }

    sat_vec vk = o[k], w = sat__sub(d, vk); /* vertex -> centre */
    sat_vec prev = o[k == 0 ? count - 1 : k - 1], next = o[k + 1 == count ? 0 : k + 1];
    int vertex_axis = sat__dot(w, sat__sub(vk, prev)) > 0.0 && sat__dot(w, sat__sub(next, vk)) < 0.0;
    sat_vec u = sat__v(0.0, 0.0);
    double qv = HUGE_VAL;
    if (vertex_axis) {
        /* u from the centre toward the vertex; the polygon's interval along u starts at the
         * vertex, so moving the polygon along +u (depth qv) is the short way out. */
        u = sat__normalize(sat__neg(w), NULL);
        if (u.x != 0.0 || u.y != 0.0) {
            qv = (sat__dot(d, u) + rad) - sat__dot(vk, u);
            if (qv < -tol)
                return 0;
        }
    }
    if (!full)
        return 1;

    best_axis best;
    int use_vertex = qv < least.depth;
    best.depth = use_vertex ? qv : least.depth;
    best.normal = use_vertex ? sat__neg(u) : least.flip ? sat__neg(n[least.index]) : n[least.index];
    best.b_in_a = c_in_p;
    double reach = rad + tol;
    best.a_in_b = far2 <= reach * reach;
    finish(&best, tol, r);
    return 1;
}

/* ---- circle / circle ------------------------------------------------------------------ */

/* Decided on squared distances (no square root unless they touch), the same way for the
 * yes/no test and the full result, so the two always agree. */
static inline int circle_circle(const sat_shape *a, const sat_shape *b, sat_vec d, double tol,
                                sat_result *r, int full)
{
    double reach = a->radius + b->radius + tol;
    if (sat__dot(d, d) > reach * reach)
        return 0;
    if (full) {
        double dist;
        sat_vec n = sat__normalize(d, &dist);
        best_axis best;
        best_init(&best); /* concentric: the normal stays (1, 0) */
        if (n.x != 0.0 || n.y != 0.0)
            best.normal = n;
        best.depth = a->radius + b->radius - dist;
        best.a_in_b = dist + a->radius <= b->radius + tol;
        best.b_in_a = dist + b->radius <= a->radius + tol;
        finish(&best, tol, r);
    }
    return 1;
}

/* ---- dispatch ------------------------------------------------------------------------- */

typedef int (*test_fn)(const sat_shape *a, const sat_shape *b, sat_vec d, double tol);
typedef int (*collide_fn)(const sat_shape *a, const sat_shape *b, sat_vec d, double tol,
                          sat_result *r);

#define SAT_PAIR(name)                                                                        \
    static int name##_test(const sat_shape *a, const sat_shape *b, sat_vec d, double tol)    \
    {                                                                                         \
        return name(a, b, d, tol, NULL, 0);                                                   \
    }                                                                                         \
    static int name##_full(const sat_shape *a, const sat_shape *b, sat_vec d, double tol,    \
                           sat_result *r)                                                     \
    {                                                                                         \
        return name(a, b, d, tol, r, 1);                                                      \
    }

SAT_PAIR(polygon_polygon)
SAT_PAIR(polygon_circle)
SAT_PAIR(circle_circle)

/* Indexed [first kind][second kind] with first <= second; the other half is reached by
 * swapping. A new kind adds a row and a column here and its pair functions above. */
static const struct {
    test_fn test;
    collide_fn collide;
} pairs[SAT_KIND_COUNT][SAT_KIND_COUNT] = {
    [SAT_POLYGON] = {
        [SAT_POLYGON] = {polygon_polygon_test, polygon_polygon_full},
        [SAT_CIRCLE] = {polygon_circle_test, polygon_circle_full},
    },
    [SAT_CIRCLE] = {
        [SAT_CIRCLE] = {circle_circle_test, circle_circle_full},
    },
};

/* Whether a is computed first. Total and independent of argument order: the kinds, then
 * the shapes' own state, then the caller's id, then (identical shapes, equal ids) memory. */
static int comes_first(const sat_shape *a, const sat_shape *b)
{
#define SAT_ORDER(f)                                                                          \
    if (a->f != b->f)                                                                         \
        return a->f < b->f;
    SAT_ORDER(kind)
    SAT_ORDER(pos.x)
    SAT_ORDER(pos.y)
    SAT_ORDER(pos_lo.x)
    SAT_ORDER(pos_lo.y)
    SAT_ORDER(bound)
    SAT_ORDER(radius)
    SAT_ORDER(angle)
    SAT_ORDER(scale)
    SAT_ORDER(count)
    SAT_ORDER(id)
#undef SAT_ORDER
    return (uintptr_t)a <= (uintptr_t)b;
}

int sat_test(const sat_shape *a, const sat_shape *b)
{
    if (!comes_first(a, b)) {
        const sat_shape *t = a;
        a = b;
        b = t;
    }
    return pairs[a->kind][b->kind].test(a, b, sat__offset(a, b), sat__touch_tol(a, b));
}

int sat_collide(const sat_shape *a, const sat_shape *b, sat_result *result)
{
    sat_result r;
    int swapped = !comes_first(a, b);
    if (swapped) {
        const sat_shape *t = a;
        a = b;
        b = t;
    }
    if (!pairs[a->kind][b->kind].collide(a, b, sat__offset(a, b), sat__touch_tol(a, b), &r))
        return 0;
    if (swapped) {
        int t = r.a_in_b;
        r.normal = sat__neg(r.normal);
        set_mtv(&r);
        r.a_in_b = r.b_in_a;
        r.b_in_a = t;
    }
    *result = r;
    return 1;
}
