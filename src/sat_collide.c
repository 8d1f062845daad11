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

/* The result in the caller's order: the normal negated and the flags swapped when the pair
 * was computed the other way round; mtv = -normal * overlap. Adding 0 turns a -0 into 0 and
 * leaves every other value as it is, so neither prints as "-0". */
static inline void finish(const best_axis *best, int swapped, sat_result *r)
{
    /* Without branches: which order a pair of one kind takes is as random as the pair. */
    double sign = 1.0 - 2.0 * swapped, overlap = best->depth;
    int flip = (best->a_in_b ^ best->b_in_a) & -swapped;
    r->overlap = overlap;
    r->normal = sat__v(sign * best->normal.x + 0.0, sign * best->normal.y + 0.0);
    r->mtv = sat__v(-r->normal.x * overlap + 0.0, -r->normal.y * overlap + 0.0);
    r->a_in_b = best->a_in_b ^ flip;
    r->b_in_a = best->b_in_a ^ flip;
}

/* Keeps the least depth with conditional moves instead of branches the predictor would have
 * to guess (which axis is least is random from one pair to the next; whether a pair is apart
 * is too, but exiting early on a separating axis saves more than its misprediction costs). */
typedef struct least_axis {
    double depth;
    int code;    /* 2 * the axis, + 1 when the normal is the axis negated */
} least_axis;

static inline void least_init(least_axis *l)
{
    l->depth = HUGE_VAL;
    l->code = 0;
}

static inline void least_consider(least_axis *l, double p, double q, int index)
{
    /* Written as a min instruction and a mask: compilers turn plain selects into branches. */
    double depth = q < p ? q : p;
    int better = -(depth < l->depth);
    l->depth = depth < l->depth ? depth : l->depth;
    l->code ^= (l->code ^ (2 * index + (p > q))) & better;
}

/* ---- polygon / polygon ---------------------------------------------------------------- */

/* Along a's normal i, a's interval is cached (support and width) and b's is scanned; then
 * the same with the roles swapped. Axes are numbered a's first, then b's. */
static inline int polygon_polygon(const sat_shape *a, const sat_shape *b, sat_vec d,
                                  double tol, best_axis *best, int full)
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
    int index = least.code >> 1;
    sat_vec n = index < a->count ? na[index] : nb[index - a->count];
    best->depth = least.depth;
    best->normal = least.code & 1 ? sat__neg(n) : n;
    best->a_in_b = a_in_b;
    best->b_in_a = b_in_a;
    return 1;
}

/* ---- polygon / circle ----------------------------------------------------------------- */

/* The polygon's edge normals, and the axis from the centre to the polygon's closest vertex
 * when the centre lies in that vertex's region (beyond both of its edges): only there can it
 * be the axis of least depth, and there the polygon's interval along it starts at that
 * vertex, so its depth is the radius less the centre's distance to the vertex.
 *
 * One pass over the normals and planes (no vertex read, no branch but the exit on a
 * separating edge) gives the depths along the edge normals and the edge the centre lies
 * farthest beyond. When the centre is outside, its closest feature is on that edge (any
 * other edge's normal is farther from the direction to the closest point, and its line no
 * nearer), so the only vertices whose regions can hold the centre are that edge's two
 * ends: two vertices read, not all of them. */
static inline int polygon_circle(const sat_shape *a, const sat_shape *b, sat_vec d,
                                 double tol, best_axis *best, int full)
{
    const sat_vec *n = sat__cnormal(a), *pl = sat__cplane(a);
    double s = a->scale, rad = b->radius, most = -HUGE_VAL, pmin = HUGE_VAL;
    int count = a->count, edge = 0, c_in_p = 1;
    least_axis least;
    least_init(&least);

    for (int i = 0; i < count; i++) {
        double amax = s * pl[i].x, amin = amax - s * pl[i].y, dn = sat__dot(d, n[i]);
        double p = amax - (dn - rad), q = (dn + rad) - amin;
        if (p < -tol || q < -tol)
            return 0; /* exiting early saves more than its misprediction costs */
        /* Selects written as min/max instructions and masks, never as branches. */
        double wide = q > p ? q : p;
        int beyond = -(p < pmin);
        least_consider(&least, p, q, i);
        pmin = p < pmin ? p : pmin; /* the least p: the centre farthest beyond */
        edge ^= (edge ^ i) & beyond;
        most = wide > most ? wide : most;
        c_in_p &= dn + rad <= amax + tol;
    }

    /* The vertex axis: when the centre is beyond `edge`, and behind the perpendicular at
     * one of its ends. */
    sat_vec w = sat__v(0.0, 0.0);
    int vertex = 0;
    if (pmin < rad) {
        const sat_vec *o = sat__coff(a);
        sat_vec v0 = o[edge], v1 = o[edge + 1 == count ? 0 : edge + 1], e = sat__sub(v1, v0);
        sat_vec w0 = sat__sub(d, v0), w1 = sat__sub(d, v1);
        if (sat__dot(w0, e) < 0.0) {
            w = w0;
            vertex = 1;
        } else if (sat__dot(w1, e) > 0.0) {
            w = w1;
            vertex = 1;
        }
        /* Apart along the axis through the vertex: beyond the reach, compared squared. */
        double reach = rad + tol;
        if (vertex && sat__dot(w, w) > reach * reach)
            return 0;
    }
    if (!full)
        return 1;

    sat_vec axis = n[least.code >> 1];
    best->depth = least.depth;
    best->normal = least.code & 1 ? sat__neg(axis) : axis;
    if (vertex) {
        double dist;
        sat_vec u = sat__normalize(w, &dist); /* from the vertex toward the centre */
        double qv = rad - dist;
        if ((u.x != 0.0 || u.y != 0.0) && qv < least.depth) {
            best->depth = qv;
            best->normal = u;
        }
    }
    best->b_in_a = c_in_p;
    /* The polygon is in the circle when every vertex is within the reach. It cannot be when
     * along some normal it extends farther than the reach from the centre (most - rad, with
     * a margin of tol over the rounding): then no vertex is read. */
    double reach = rad + tol;
    int a_in_b = 0;
    if (most - rad <= reach + tol) {
        const sat_vec *o = sat__coff(a);
        double far2 = 0.0;
        for (int i = 0; i < count; i++) {
            sat_vec v = sat__sub(o[i], d);
            double d2 = sat__dot(v, v);
            far2 = d2 > far2 ? d2 : far2;
        }
        a_in_b = far2 <= reach * reach;
    }
    best->a_in_b = a_in_b;
    return 1;
}

/* ---- circle / circle ------------------------------------------------------------------ */

/* Decided on squared distances (no square root unless they touch), the same way for the
 * yes/no test and the full result, so the two always agree. */
static inline int circle_circle(const sat_shape *a, const sat_shape *b, sat_vec d, double tol,
                                best_axis *best, int full)
{
    double reach = a->radius + b->radius + tol;
    if (sat__dot(d, d) > reach * reach)
        return 0;
    if (full) {
        double dist;
        sat_vec n = sat__normalize(d, &dist);
        best_init(best); /* concentric: the normal stays (1, 0) */
        if (n.x != 0.0 || n.y != 0.0)
            best->normal = n;
        best->depth = a->radius + b->radius - dist;
        best->a_in_b = dist + a->radius <= b->radius + tol;
        best->b_in_a = dist + b->radius <= a->radius + tol;
    }
    return 1;
}

/* ---- dispatch ------------------------------------------------------------------------- */

/* The pair functions take the shapes alone and work out the offset and the tolerance
 * themselves: the offset is computed as a pair of doubles, and passing it in two registers
 * made the callee rebuild the pair through memory (a store that cannot forward, ~5 ns). */
typedef int (*test_fn)(const sat_shape *a, const sat_shape *b);
typedef int (*collide_fn)(const sat_shape *a, const sat_shape *b, best_axis *best);

#define SAT_PAIR(name)                                                                        \
    static int name##_test(const sat_shape *a, const sat_shape *b)                            \
    {                                                                                         \
        return name(a, b, sat__offset(a, b), sat__touch_tol(a, b), NULL, 0);                  \
    }                                                                                         \
    static int name##_full(const sat_shape *a, const sat_shape *b, best_axis *best)           \
    {                                                                                         \
        double tol = sat__touch_tol(a, b);                                                    \
        if (!name(a, b, sat__offset(a, b), tol, best, 1))                                     \
            return 0;                                                                         \
        best->depth = best->depth > tol ? best->depth : 0.0; /* within tol: touching */       \
        return 1;                                                                             \
    }

SAT_PAIR(polygon_polygon)
SAT_PAIR(polygon_circle)
SAT_PAIR(circle_circle)

/* Indexed [first kind][second kind] with first <= second; the other half is reached by
 * swapping. A new kind adds a row and a column here and its pair functions above.
 * symmetric_test: the yes/no test of two shapes of this kind gives the same answer from the
 * same arithmetic in either order, so sat_test skips the canonical order (circles: the
 * offset negates exactly and the rest is commutative). It is never set across kinds. */
static const struct {
    test_fn test;
    collide_fn collide;
    int symmetric_test;
} pairs[SAT_KIND_COUNT][SAT_KIND_COUNT] = {
    [SAT_POLYGON] = {
        [SAT_POLYGON] = {polygon_polygon_test, polygon_polygon_full, 0},
        [SAT_CIRCLE] = {polygon_circle_test, polygon_circle_full, 0},
    },
    [SAT_CIRCLE] = {
        [SAT_CIRCLE] = {circle_circle_test, circle_circle_full, 1},
    },
};

/* Whether a is computed first. Total and independent of argument order: the kinds, then
 * the shapes' own state, then the caller's id, then (identical shapes, equal ids) memory. */
static int same_kind_first(const sat_shape *a, const sat_shape *b)
{
#define SAT_ORDER(f)                                                                          \
    if (a->f != b->f)                                                                         \
        return a->f < b->f;
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

/* The kinds decide at once, here, without a call. */
static inline int comes_first(const sat_shape *a, const sat_shape *b)
{
    return a->kind != b->kind ? a->kind < b->kind : same_kind_first(a, b);
}

int sat_test(const sat_shape *a, const sat_shape *b)
{
    if (a->kind == b->kind && pairs[a->kind][a->kind].symmetric_test)
        return pairs[a->kind][a->kind].test(a, b);
    if (!comes_first(a, b)) {
        const sat_shape *t = a;
        a = b;
        b = t;
    }
    return pairs[a->kind][b->kind].test(a, b);
}

int sat_collide(const sat_shape *a, const sat_shape *b, sat_result *result)
{
    best_axis best;
    int swapped = !comes_first(a, b);
    if (swapped) {
        const sat_shape *t = a;
        a = b;
        b = t;
    }
    if (!pairs[a->kind][b->kind].collide(a, b, &best))
        return 0;
    finish(&best, swapped, result);
    return 1;
}
