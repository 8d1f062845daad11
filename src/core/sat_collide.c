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
 *
 * Segments and capsules: every kind is a convex core (polygon, point, segment) grown by a
 * radius, and so is the pair's Minkowski difference. When the cores meet, the depth is the
 * cores' SAT depth plus the radii (the axes being the edge normals of the cores' Minkowski
 * difference, exact); when they do not, it is the radii less the cores' distance, from their
 * closest features, with the normal of the feature (a flat contact keeps an exact normal).
 * Two segments lying on one line (their difference has no area) have depth R, the radii's
 * sum, along the first one's left normal (in the canonical order, so a swap negates it).
 *
 * sat_explain runs these very pair functions: sat_collide_traced.c compiles this file a
 * second time with SAT_TRACING defined, and the TRACE hooks below come alive (see there).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sat_internal.h"

/* ---- the trace ----------------------------------------------------------------------- *
 * Traced, each pair function takes a sink (sat_internal.h) as its last argument, `tr`, and
 * reports to it every axis it tries, with the numbers it computes; a separating axis does
 * not end the test (EXIT_IF goes on): it lists every axis and says "apart" at the end. The
 * hooks are one line each; what they call (trace_*) is in sat_collide_traced.c. Compiled
 * here, every hook is empty, and sat_test and sat_collide are exactly the code they would
 * be without them. */
#ifdef SAT_TRACING
#define TRACE(...) __VA_ARGS__
#define TRACE_PARAM , sat__sink *tr
#define TRACE_ARG , tr
#define EXIT_IF(separated) ((void)(separated)) /* the trace noted it: go on */
#else
#define TRACE(...)
#define TRACE_PARAM
#define TRACE_ARG
#define EXIT_IF(separated) if (separated) return 0
#endif
/* An axis whose intervals the test has (p and q as at the top), and segment_segment's axis
 * (its cores' intervals, grown by the radii there): with the pair function's tolerance. */
#define TRACE_AXIS(n, from, feature, index, amin, amax, bmin, bmax, p, q)                      \
    TRACE(trace_axis(tr, n, from, feature, index, amin, amax, bmin, bmax, p, q, tol))
#define TRACE_SEG(a, b, n, from, feature, sep, amin, amax, bmin, bmax)                        \
    TRACE(trace_seg(tr, a, b, n, from, feature, sep, amin, amax, bmin, bmax, tol))

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

/* Above this many vertices, a polygon's interval along an axis is found by walking to its
 * extreme vertices from where the previous axis left them, instead of by projecting every
 * vertex: a pair of big polygons then costs O(n + m), not O(n * m). Below it the scan,
 * without branches, is faster. The C tests set it to compare both ways. */
#ifndef SAT_SCAN_MAX
#define SAT_SCAN_MAX 8
#endif

/* The small polygons' loops must stay as they were, specialised (no walking) inside each
 * pair function, whatever the compiler's size heuristics make of the larger function that
 * also walks; and the pair functions stay out of line, the small ones apart from the check
 * that sends big polygons the other way. */
#if defined(__GNUC__)
#define SAT_INLINE_ALWAYS inline __attribute__((always_inline))
#define SAT_NOINLINE __attribute__((noinline))
#else
#define SAT_INLINE_ALWAYS inline
#define SAT_NOINLINE
#endif

/* Whether w beats v: is greater, or (!greatest) less. */
static inline int beats(double w, double v, int greatest)
{
    return greatest ? w > v : w < v;
}

/* The vertex of least (greatest) projection along n, walked to from vertex k, and that
 * projection. Around a convex polygon the projections of its vertices fall to their least and
 * rise again, with at most two equal (an edge square to n: validation dropped collinear
 * points), so the first vertex neither of whose neighbours is lower is the least: the value a
 * scan of every vertex finds, bit for bit, as it is the same dot product of the same vertex. */
static inline int walk(const sat_vec *o, int count, sat_vec n, int k, int greatest,
                       double *value)
{
    double v = sat__dot(o[k], n);
    int forward = 1, next = k + 1 == count ? 0 : k + 1;
    double w = sat__dot(o[next], n);
    if (!beats(w, v, greatest)) { /* not that way: the other, or nowhere */
        forward = 0;
        next = k == 0 ? count - 1 : k - 1;
        w = sat__dot(o[next], n);
    }
    while (beats(w, v, greatest)) { /* strictly better each step: it ends */
        k = next;
        v = w;
        next = forward ? (k + 1 == count ? 0 : k + 1) : (k == 0 ? count - 1 : k - 1);
        w = sat__dot(o[next], n);
    }
    *value = v;
    return k;
}

/* A polygon's interval along n: by a scan, or by walking from the extremes of the
 * previous axis (walking), kept in at[0] (least) and at[1] (greatest). Each polygon's edge normals come
 * in angular order, once around, so the other's extremes move once around it in all. */
static SAT_INLINE_ALWAYS void interval(const sat_shape *s, sat_vec n, int walking, int at[2],
                                       double *lo, double *hi)
{
    if (!walking) {
        sat__project(s, n, lo, hi);
        return;
    }
    at[0] = walk(sat__coff(s), s->count, n, at[0], 0, lo);
    at[1] = walk(sat__coff(s), s->count, n, at[1], 1, hi);
}

/* Along a's normal i, a's interval (from its deepest vertex to its support) is derived and
 * b's is found; then the same with the roles swapped. Axes are numbered a's first, then b's. walk_a and walk_b say
 * how each one's interval is found (constants where this is inlined for small polygons). */
static SAT_INLINE_ALWAYS int polygon_pair(const sat_shape *a, const sat_shape *b, sat_vec d,
                                          double tol, best_axis *best, int full, int walk_a,
                                          int walk_b TRACE_PARAM)
{
    const sat_vec *na = sat__cnormal(a), *nb = sat__cnormal(b);
    int a_in_b = 1, b_in_a = 1, at_a[2] = {0, 0}, at_b[2] = {0, 0};
    least_axis least;
    least_init(&least);

    for (int i = 0; i < a->count; i++) {
        sat_vec n = na[i];
        double amax = sat__support(a, i), amin = sat__least(a, i), lo, hi, dn = sat__dot(d, n);
        interval(b, n, walk_b, at_b, &lo, &hi);
        double bmin = dn + lo, bmax = dn + hi, p = amax - bmin, q = bmax - amin;
        TRACE_AXIS(n, 0, SAT_FEATURE_EDGE, i, amin, amax, bmin, bmax, p, q);
        EXIT_IF(p < -tol || q < -tol); /* the scans cost more than a mispredicted exit */
        if (!full)
            continue;
        least_consider(&least, p, q, i);
        b_in_a &= (bmin >= amin - tol) & (bmax <= amax + tol);
        a_in_b &= (amin >= bmin - tol) & (amax <= bmax + tol);
    }
    for (int j = 0; j < b->count; j++) {
        sat_vec n = nb[j];
        double dn = sat__dot(d, n), bmax = dn + sat__support(b, j), bmin = dn + sat__least(b, j);
        double amin, amax;
        interval(a, n, walk_a, at_a, &amin, &amax);
        double p = amax - bmin, q = bmax - amin;
        TRACE_AXIS(n, 1, SAT_FEATURE_EDGE, j, amin, amax, bmin, bmax, p, q);
        EXIT_IF(p < -tol || q < -tol);
        if (!full)
            continue;
        least_consider(&least, p, q, a->count + j);
        b_in_a &= (bmin >= amin - tol) & (bmax <= amax + tol);
        a_in_b &= (amin >= bmin - tol) & (amax <= bmax + tol);
    }
    TRACE(if (tr->apart) return 0;)
    if (!full)
        return 1;
    int index = least.code >> 1;
    sat_vec n = index < a->count ? na[index] : nb[index - a->count];
    best->depth = least.depth;
    best->normal = least.code & 1 ? sat__neg(n) : n;
    best->a_in_b = a_in_b;
    best->b_in_a = b_in_a;
    TRACE(tr->verdict(tr, index);)
    return 1;
}

/* The pair as it always was: projections by scans. */
static SAT_INLINE_ALWAYS int polygon_polygon(const sat_shape *a, const sat_shape *b, sat_vec d,
                                             double tol, best_axis *best, int full TRACE_PARAM)
{
    return polygon_pair(a, b, d, tol, best, full, 0, 0 TRACE_ARG);
}

/* The same, walking over whichever has more than SAT_SCAN_MAX vertices. */
static SAT_INLINE_ALWAYS int polygon_polygon_walk(const sat_shape *a, const sat_shape *b,
                                                  sat_vec d, double tol, best_axis *best,
                                                  int full TRACE_PARAM)
{
    return polygon_pair(a, b, d, tol, best, full, a->count > SAT_SCAN_MAX,
                        b->count > SAT_SCAN_MAX TRACE_ARG);
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
                                 double tol, best_axis *best, int full TRACE_PARAM)
{
    const sat_vec *n = sat__cnormal(a);
    double rad = b->radius, most = -HUGE_VAL, pmin = HUGE_VAL;
    int count = a->count, edge = 0, c_in_p = 1;
    least_axis least;
    least_init(&least);

    for (int i = 0; i < count; i++) {
        double amax = sat__support(a, i), amin = sat__least(a, i), dn = sat__dot(d, n[i]);
        double p = amax - (dn - rad), q = (dn + rad) - amin;
        TRACE_AXIS(n[i], 0, SAT_FEATURE_EDGE, i, amin, amax, dn - rad, dn + rad, p, q);
        EXIT_IF(p < -tol || q < -tol); /* exiting early saves more than its misprediction costs */
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
        TRACE(trace_vertex(tr, a, d, edge, vertex, w, rad, sat__dot(w, w) > reach * reach);)
        if (vertex && sat__dot(w, w) > reach * reach)
            return 0; /* the last axis: explaining, the test may stop here too */
    }
    TRACE(if (tr->apart) return 0;)
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
    /* the vertex axis (after the edges) when it went below the edges' least */
    TRACE(tr->verdict(tr, best->depth < least.depth ? count : least.code >> 1);)
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
                                best_axis *best, int full TRACE_PARAM)
{
    double reach = a->radius + b->radius + tol;
    TRACE(trace_centres(tr, a, b, d, tol);)
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
        TRACE(tr->verdict(tr, 0);)
    }
    return 1;
}

/* ---- segments and capsules ------------------------------------------------------------ */

/* The depth (R - distance) and normal when the cores are apart, from their closest
 * features: dir leads from a's toward b's. */
static inline void apart_best(best_axis *best, double R, double dist, sat_vec dir)
{
    best->depth = R - dist;
    best->normal = dir;
}

/* polygon_segment's closest features when the cores are apart: declares their distance and
 * the direction from the polygon's toward the segment's (flat_n for a flat contact at
 * distance flat, else along w, from a vertex to an end). A macro, for the trace to take
 * the same steps while the untraced function stays the tokens it was. */
#define FEATURE_DIR(dist, dir, vertex, w, flat, flat_n)                                       \
    double dist = (flat);                                                                     \
    sat_vec dir = (flat_n);                                                                   \
    if (vertex) {                                                                             \
        sat_vec u_ = sat__normalize((w), &dist);                                              \
        if (u_.x != 0.0 || u_.y != 0.0)                                                       \
            dir = u_;                                                                         \
    }

/* polygon (a) / segment or capsule (b). The SAT axes are the polygon's edge normals and the
 * segment's normal (the edge normals of their Minkowski difference). When the cores are
 * apart, their closest features are an end of the segment against the polygon (on the edge
 * it lies farthest beyond, or one of that edge's ends: see polygon_circle), or the
 * polygon's extreme vertex along the segment's normal against the segment's inside. */
static inline int polygon_segment(const sat_shape *a, const sat_shape *b, sat_vec d,
                                  double tol, best_axis *best, int full TRACE_PARAM)
{
    const sat_vec *n = sat__cnormal(a), *o = sat__coff(a);
    double R = b->radius, sep = -HUGE_VAL, far[2] = {-HUGE_VAL, -HUGE_VAL};
    int count = a->count, edge[2] = {0, 0}, b_in_a = 1, a_in_b = 1;
    sat__segcore k = sat__seg_core(b, d);
    least_axis least;
    least_init(&least);

    for (int i = 0; i < count; i++) {
        double amax = sat__support(a, i), amin = sat__least(a, i), dn = sat__dot(d, n[i]);
        double hn = sat__dot(k.h, n[i]), w = fabs(hn), lo = dn - w, hi = dn + w;
        double p = amax - (lo - R), q = (hi + R) - amin;
        TRACE_AXIS(n[i], 0, SAT_FEATURE_EDGE, i, amin, amax, lo - R, hi + R, p, q);
        EXIT_IF(p < -tol || q < -tol);
        least_consider(&least, p, q, i);
        double e0 = (dn - hn) - amax, e1 = (dn + hn) - amax, s0 = lo - amax, s1 = amin - hi;
        int m0 = -(e0 > far[0]), m1 = -(e1 > far[1]);
        far[0] = e0 > far[0] ? e0 : far[0];
        far[1] = e1 > far[1] ? e1 : far[1];
        edge[0] ^= (edge[0] ^ i) & m0;
        edge[1] ^= (edge[1] ^ i) & m1;
        s0 = s1 > s0 ? s1 : s0;
        sep = s0 > sep ? s0 : sep;
        b_in_a &= hi + R <= amax + tol;
        a_in_b &= (amin >= lo - R - tol) & (amax <= hi + R + tol);
    }
    /* The segment's normal: the polygon's extent, and its extreme vertices. */
    double pmin = HUGE_VAL, pmax = -HUGE_VAL, dn = sat__dot(d, k.n);
    int vmin = 0, vmax = 0;
    for (int i = 0; i < count; i++) {
        double v = sat__dot(o[i], k.n);
        vmin = v < pmin ? i : vmin;
        vmax = v > pmax ? i : vmax;
        pmin = v < pmin ? v : pmin;
        pmax = v > pmax ? v : pmax;
    }
    {
        double p = pmax - (dn - R), q = (dn + R) - pmin;
        TRACE_AXIS(k.n, 1, SAT_FEATURE_NORMAL, 0, pmin, pmax, dn - R, dn + R, p, q);
        EXIT_IF(p < -tol || q < -tol);
        least_consider(&least, p, q, count);
        double s0 = dn - pmax, s1 = pmin - dn;
        s0 = s1 > s0 ? s1 : s0;
        sep = s0 > sep ? s0 : sep;
        a_in_b &= (pmin >= dn - R - tol) & (pmax <= dn + R + tol);
    }

    if (sep > 0.0) {
        /* Apart: the closest features, compared squared; a root only for the closest. */
        double d2 = HUGE_VAL, flat = 0.0, reach = R + tol;
        sat_vec flat_n = k.n, w = sat__v(0.0, 0.0);
        int vertex = 0;
        TRACE(int feature = 0;) /* the polygon's vertex, or -1 - the segment's endpoint */
        for (int e = 0; e < 2; e++) {
            sat_vec end = e ? sat__add(d, k.h) : sat__sub(d, k.h);
            int j = edge[e], at_vertex = 0;
            TRACE(int at = -1 - e;)
            sat_vec v0 = o[j], v1 = o[j + 1 == count ? 0 : j + 1], ed = sat__sub(v1, v0);
            sat_vec we = sat__v(0.0, 0.0);
            double fe = far[e] > 0.0 ? far[e] : 0.0;
            if (fe > 0.0 && sat__dot(sat__sub(end, v0), ed) < 0.0) {
                we = sat__sub(end, v0);
                at_vertex = 1;
                TRACE(at = j;)
            } else if (fe > 0.0 && sat__dot(sat__sub(end, v1), ed) > 0.0) {
                we = sat__sub(end, v1);
                at_vertex = 1;
                TRACE(at = j + 1 == count ? 0 : j + 1;)
            }
            double c2 = at_vertex ? sat__dot(we, we) : fe * fe;
            if (c2 < d2) {
                d2 = c2;
                vertex = at_vertex;
                w = we;
                flat = fe;
                flat_n = n[j];
                TRACE(feature = at;)
            }
        }
        /* The polygon's vertex against the inside of the segment. */
        double gap = dn - pmax;
        int v = vmax;
        sat_vec side = k.n;
        if (pmin - dn > gap) {
            gap = pmin - dn;
            v = vmin;
            side = sat__neg(k.n);
        }
        if (gap > 0.0 && gap * gap < d2 && fabs(sat__dot(sat__sub(o[v], d), k.u)) <= k.L) {
            d2 = gap * gap;
            vertex = 0;
            flat = gap;
            flat_n = side;
            TRACE(feature = v;)
        }
        TRACE(trace_features(tr, feature, vertex, w, flat, flat_n, R, d2 > reach * reach);)
        if (d2 > reach * reach)
            return 0; /* the last axis: explaining, the test may stop here too */
        TRACE(if (tr->apart) return 0;)
        if (!full)
            return 1;
        FEATURE_DIR(dist, dir, vertex, w, flat, flat_n)
        apart_best(best, R, dist, dir);
        TRACE(tr->verdict(tr, count + 1);)
    } else {
        TRACE(if (tr->apart) return 0;)
        if (!full)
            return 1;
        int index = least.code >> 1;
        sat_vec axis = index < count ? n[index] : k.n;
        best->depth = least.depth;
        best->normal = least.code & 1 ? sat__neg(axis) : axis;
        TRACE(tr->verdict(tr, index);)
    }
    best->b_in_a = b_in_a;
    /* The polygon is in the capsule when every vertex is within the radius of the segment;
     * only looked at when it lies within the capsule's extent along every axis. */
    if (a_in_b) {
        double reach = R + tol;
        for (int i = 0; i < count && a_in_b; i++)
            a_in_b = sat__core_closest(o[i], &k).d2 <= reach * reach;
    }
    best->a_in_b = a_in_b;
    return 1;
}

/* circle (a) / segment or capsule (b): the centre against the segment. */
static inline int circle_segment(const sat_shape *a, const sat_shape *b, sat_vec d, double tol,
                                 best_axis *best, int full TRACE_PARAM)
{
    sat__segcore k = sat__seg_core(b, d);
    double R = a->radius + b->radius, reach = R + tol;
    sat__closest c = sat__core_closest(sat__v(0.0, 0.0), &k);
    TRACE(trace_centre(tr, &c, &k, R, c.d2 > reach * reach);)
    if (c.d2 > reach * reach)
        return 0;
    if (full) {
        sat_vec dir, e0 = sat__sub(d, k.h), e1 = sat__add(d, k.h);
        double dist = sat__closest_dir(&c, &k, &dir);
        double far2 = fmax(sat__dot(e0, e0), sat__dot(e1, e1)), room = a->radius + tol - b->radius;
        apart_best(best, R, dist, dir);
        best->a_in_b = dist + a->radius <= b->radius + tol;
        best->b_in_a = room >= 0.0 && far2 <= room * room;
        TRACE(tr->verdict(tr, 0);)
    }
    return 1;
}

/* Along one axis: a's core projects to [amin, amax], b's to [bmin, bmax]; R is the radii. */
static inline int seg_axis(least_axis *least, double *sep, double amin, double amax,
                           double bmin, double bmax, double R, double tol, int index)
{
    double p = amax - bmin + R, q = bmax - amin + R, s0 = bmin - amax, s1 = amin - bmax;
    if (p < -tol || q < -tol)
        return 0;
    least_consider(least, p, q, index);
    s0 = s1 > s0 ? s1 : s0;
    *sep = s0 > *sep ? s0 : *sep;
    return 1;
}

/* Whether both ends of a core are within `room` of another: containment, for the ends'
 * closest points c0, c1 on the other core. */
static inline int ends_within(const sat__closest *c0, const sat__closest *c1, double room)
{
    return room >= 0.0 && c0->d2 <= room * room && c1->d2 <= room * room;
}

/* Segments and capsules, both (a at the origin). The axes are both normals (the edge
 * normals of the parallelogram the two segments' difference is) and both directions (which
 * tell collinear segments end to end apart). Apart, the closest features are an end of one
 * against the other. */
static inline int segment_segment(const sat_shape *a, const sat_shape *b, sat_vec d, double tol,
                                  best_axis *best, int full TRACE_PARAM)
{
    sat__segcore ka = sat__seg_core(a, sat__v(0.0, 0.0)), kb = sat__seg_core(b, d);
    double R = a->radius + b->radius, sep = -HUGE_VAL, x, w;
    least_axis least;
    least_init(&least);
    /* na: a is a point there; b spans x +- w. Likewise for the others. */
    x = sat__dot(d, ka.n);
    w = fabs(sat__dot(kb.h, ka.n));
    double bn_lo = x - w, bn_hi = x + w;
    TRACE_SEG(a, b, ka.n, 0, SAT_FEATURE_NORMAL, &sep, 0.0, 0.0, bn_lo, bn_hi);
    EXIT_IF(!seg_axis(&least, &sep, 0.0, 0.0, bn_lo, bn_hi, R, tol, 0));
    x = sat__dot(d, kb.n);
    w = fabs(sat__dot(ka.h, kb.n));
    double an_lo = -w, an_hi = w, bn = x;
    TRACE_SEG(a, b, kb.n, 1, SAT_FEATURE_NORMAL, &sep, an_lo, an_hi, bn, bn);
    EXIT_IF(!seg_axis(&least, &sep, an_lo, an_hi, bn, bn, R, tol, 1));
    x = sat__dot(d, ka.u);
    w = fabs(sat__dot(kb.h, ka.u));
    TRACE_SEG(a, b, ka.u, 0, SAT_FEATURE_DIRECTION, &sep, -ka.L, ka.L, x - w, x + w);
    EXIT_IF(!seg_axis(&least, &sep, -ka.L, ka.L, x - w, x + w, R, tol, 2));
    x = sat__dot(d, kb.u);
    w = fabs(sat__dot(ka.h, kb.u));
    TRACE_SEG(a, b, kb.u, 1, SAT_FEATURE_DIRECTION, &sep, -w, w, x - kb.L, x + kb.L);
    EXIT_IF(!seg_axis(&least, &sep, -w, w, x - kb.L, x + kb.L, R, tol, 3));

    /* The four ends against the other segment: a's first (from them the direction leads
     * toward b already; from b's it is turned). */
    sat__closest c[4];
    c[0] = sat__core_closest(sat__neg(ka.h), &kb);
    c[1] = sat__core_closest(ka.h, &kb);
    c[2] = sat__core_closest(sat__sub(d, kb.h), &ka);
    c[3] = sat__core_closest(sat__add(d, kb.h), &ka);
    int near = 0;
    if (sep > 0.0) {
        /* Apart: the closest of the four ends, compared squared. */
        double reach = R + tol;
        for (int e = 1; e < 4; e++)
            near = c[e].d2 < c[near].d2 ? e : near;
        TRACE(trace_ends(tr, &c[near], near, &ka, &kb, R, c[near].d2 > reach * reach);)
        if (c[near].d2 > reach * reach)
            return 0; /* the last axis: explaining, the test may stop here too */
    }
    TRACE(if (tr->apart) return 0;)
    if (!full)
        return 1;
    if (sep > 0.0) {
        sat_vec dir;
        double dist = sat__closest_dir(&c[near], near < 2 ? &kb : &ka, &dir);
        apart_best(best, R, dist, near < 2 ? dir : sat__neg(dir));
        TRACE(tr->verdict(tr, 4);)
    } else if (ka.L > 0.0 && kb.L > 0.0 && fabs(bn_lo) <= tol && fabs(bn_hi) <= tol &&
               an_hi - bn <= tol && bn - an_lo <= tol) {
        /* On one line: the difference has no area, so the cores' depth is 0. */
        best->depth = R;
        best->normal = ka.n;
        TRACE(tr->verdict(tr, 0);)
    } else {
        int index = least.code >> 1;
        sat_vec axis = index == 0 ? ka.n : index == 1 ? kb.n : index == 2 ? ka.u : kb.u;
        best->depth = least.depth;
        best->normal = least.code & 1 ? sat__neg(axis) : axis;
        TRACE(tr->verdict(tr, index);)
    }
    best->a_in_b = ends_within(&c[0], &c[1], b->radius + tol - a->radius);
    best->b_in_a = ends_within(&c[2], &c[3], a->radius + tol - b->radius);
    return 1;
}

/* ---- dispatch ------------------------------------------------------------------------- */

#ifndef SAT_TRACING
/* The pair functions take the shapes alone and work out the offset and the tolerance
 * themselves: passed in two registers, the offset was rebuilt by the callee through memory,
 * a store that cannot be forwarded. */
typedef int (*test_fn)(const sat_shape *a, const sat_shape *b);
typedef int (*collide_fn)(const sat_shape *a, const sat_shape *b, best_axis *best);

#define SAT_PAIR(name)                                                                        \
    static SAT_NOINLINE int name##_test(const sat_shape *a, const sat_shape *b)               \
    {                                                                                         \
        return name(a, b, sat__offset(a, b), sat__touch_tol(a, b), NULL, 0);                  \
    }                                                                                         \
    static SAT_NOINLINE int name##_full(const sat_shape *a, const sat_shape *b,               \
                                        best_axis *best)                                      \
    {                                                                                         \
        double tol = sat__touch_tol(a, b);                                                    \
        if (!name(a, b, sat__offset(a, b), tol, best, 1))                                     \
            return 0;                                                                         \
        best->depth = best->depth > tol ? best->depth : 0.0; /* within tol: touching */       \
        return 1;                                                                             \
    }
#else
/* Traced: one function per pair, the full test with the sink. */
typedef int (*explain_fn)(const sat_shape *a, const sat_shape *b, best_axis *best,
                          sat__sink *tr);

#define SAT_PAIR(name)                                                                        \
    static int name##_explain(const sat_shape *a, const sat_shape *b, best_axis *best,        \
                              sat__sink *tr)                                                  \
    {                                                                                         \
        double tol = sat__touch_tol(a, b);                                                    \
        if (!name(a, b, sat__offset(a, b), tol, best, 1, tr))                                 \
            return 0;                                                                         \
        best->depth = best->depth > tol ? best->depth : 0.0;                                  \
        return 1;                                                                             \
    }
#endif

SAT_PAIR(polygon_polygon)
SAT_PAIR(polygon_polygon_walk)
SAT_PAIR(polygon_circle)

/* Polygon pairs walk above SAT_SCAN_MAX vertices: decided here, ahead of the small pairs'
 * functions, which stay what they were (a jump more). */
#ifndef SAT_TRACING
static int polygon_pair_test(const sat_shape *a, const sat_shape *b)
{
    if (a->count > SAT_SCAN_MAX || b->count > SAT_SCAN_MAX)
        return polygon_polygon_walk_test(a, b);
    return polygon_polygon_test(a, b);
}

static int polygon_pair_full(const sat_shape *a, const sat_shape *b, best_axis *best)
{
    if (a->count > SAT_SCAN_MAX || b->count > SAT_SCAN_MAX)
        return polygon_polygon_walk_full(a, b, best);
    return polygon_polygon_full(a, b, best);
}
#else
static int polygon_pair_explain(const sat_shape *a, const sat_shape *b, best_axis *best,
                                sat__sink *tr)
{
    if (a->count > SAT_SCAN_MAX || b->count > SAT_SCAN_MAX)
        return polygon_polygon_walk_explain(a, b, best, tr);
    return polygon_polygon_explain(a, b, best, tr);
}
#endif
SAT_PAIR(circle_circle)
SAT_PAIR(polygon_segment)
SAT_PAIR(circle_segment)
SAT_PAIR(segment_segment)

#ifndef SAT_TRACING
/* A compound second (the kinds are ordered), first of any kind: sat_union.c, which tests
 * the part pairs with these. */
static const sat__pair_fns part_pairs = {sat_test, sat__part_collide};

static int compound_test(const sat_shape *a, const sat_shape *b)
{
    return sat__compound_test(a, b, &part_pairs);
}

static int compound_full(const sat_shape *a, const sat_shape *b, best_axis *best)
{
    sat_result r;
    if (!sat__compound_collide(a, b, &r, &part_pairs))
        return 0;
    best->depth = r.overlap;
    best->normal = r.normal;
    best->a_in_b = r.a_in_b;
    best->b_in_a = r.b_in_a;
    return 1;
}

#endif

#ifndef SAT_TRACING
/* Indexed [first kind][second kind] with first <= second; the other half is reached by
 * swapping. A new kind adds a row and a column here (and in the traced build's table below)
 * and its pair functions above.
 * symmetric_test: the yes/no test of two shapes of this kind gives the same answer from the
 * same arithmetic in either order, so sat_test skips the canonical order (circles: the
 * offset negates exactly and the rest is commutative). It is never set across kinds. */
static const struct {
    test_fn test;
    collide_fn collide;
    int symmetric_test;
} pairs[SAT_KIND_COUNT][SAT_KIND_COUNT] = {
    [SAT_POLYGON] = {
        [SAT_POLYGON] = {polygon_pair_test, polygon_pair_full, 0},
        [SAT_CIRCLE] = {polygon_circle_test, polygon_circle_full, 0},
        [SAT_SEGMENT] = {polygon_segment_test, polygon_segment_full, 0},
        [SAT_CAPSULE] = {polygon_segment_test, polygon_segment_full, 0},
        [SAT_COMPOUND] = {compound_test, compound_full, 0},
    },
    [SAT_CIRCLE] = {
        [SAT_CIRCLE] = {circle_circle_test, circle_circle_full, 1},
        [SAT_SEGMENT] = {circle_segment_test, circle_segment_full, 0},
        [SAT_CAPSULE] = {circle_segment_test, circle_segment_full, 0},
        [SAT_COMPOUND] = {compound_test, compound_full, 0},
    },
    [SAT_SEGMENT] = {
        [SAT_SEGMENT] = {segment_segment_test, segment_segment_full, 0},
        [SAT_CAPSULE] = {segment_segment_test, segment_segment_full, 0},
        [SAT_COMPOUND] = {compound_test, compound_full, 0},
    },
    [SAT_CAPSULE] = {
        [SAT_CAPSULE] = {segment_segment_test, segment_segment_full, 0},
        [SAT_COMPOUND] = {compound_test, compound_full, 0},
    },
    [SAT_COMPOUND] = {
        [SAT_COMPOUND] = {compound_test, compound_full, 0},
    },
};
#else
/* sat_explain's: the same rows, each pair's traced function. A pair without one is
 * explained by its result alone (no axes). */
static const explain_fn explainers[SAT_KIND_COUNT][SAT_KIND_COUNT] = {
    [SAT_POLYGON] = {
        [SAT_POLYGON] = polygon_pair_explain,
        [SAT_CIRCLE] = polygon_circle_explain,
        [SAT_SEGMENT] = polygon_segment_explain,
        [SAT_CAPSULE] = polygon_segment_explain,
    },
    [SAT_CIRCLE] = {
        [SAT_CIRCLE] = circle_circle_explain,
        [SAT_SEGMENT] = circle_segment_explain,
        [SAT_CAPSULE] = circle_segment_explain,
    },
    [SAT_SEGMENT] = {
        [SAT_SEGMENT] = segment_segment_explain,
        [SAT_CAPSULE] = segment_segment_explain,
    },
    [SAT_CAPSULE] = {
        [SAT_CAPSULE] = segment_segment_explain,
    },
};
#endif

/* Whether a is computed first. Total and independent of argument order: the kinds, then
 * the shapes' own state, then the caller's id, then (identical shapes, equal ids) memory.
 * same_kind_order gives `tie` for identical shapes with equal ids. */
static inline int same_kind_order(const sat_shape *a, const sat_shape *b, int tie)
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
    return tie;
}

static int same_kind_first(const sat_shape *a, const sat_shape *b)
{
    return same_kind_order(a, b, (uintptr_t)a <= (uintptr_t)b);
}

/* The kinds decide at once, here, without a call. */
static inline int comes_first(const sat_shape *a, const sat_shape *b)
{
    return a->kind != b->kind ? a->kind < b->kind : same_kind_first(a, b);
}

#ifndef SAT_TRACING
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

static inline int collide_in(const sat_shape *a, const sat_shape *b, sat_result *result,
                             int swapped)
{
    best_axis best;
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

int sat_collide(const sat_shape *a, const sat_shape *b, sat_result *result)
{
    return collide_in(a, b, result, !comes_first(a, b));
}

/* A part pair of a compound pair (a from the first compound in sat_collide's order, or
 * the shape that is its own part): identical parts with equal ids (parts have id 0: a
 * compound and its clone) run in the caller's order, which follows the compounds', rather
 * than in memory order, which is malloc's, changes from run to run and is not the pure
 * backend's (the differential fuzzer's seed 3, operation 2114: the MTV negated). Either
 * order gives the same numbers then; only the sign would differ. */
int sat__part_collide(const sat_shape *a, const sat_shape *b, sat_result *result)
{
    int first = a->kind != b->kind ? a->kind < b->kind : same_kind_order(a, b, 1);
    return collide_in(a, b, result, !first);
}

/* ---- which parts: sat_collide_parts (sat.h), here beside the part pairs' collide (the
 * swept test, sat_sweep.c, calls it: in sat_contacts.c, which calls the swept test, it made
 * a cycle) ---------------------------------------------------------------------------------- */

/* Part i's box about its own position: a compound's kept in its table, another shape's own. */
static void part_box(const sat_shape *s, int i, sat_vec *lo, sat_vec *hi)
{
    if (s->kind == SAT_COMPOUND) {
        const sat_vec *t = sat__cpart_table(s, i);
        *lo = t[1];
        *hi = t[2];
    } else {
        sat__box(s, lo, hi);
    }
}

int sat_collide_parts(const sat_shape *a, const sat_shape *b, const sat_result *r, int *part_a,
                      int *part_b)
{
    int bi = -1, bj = -1;
    double bdot = 0.0, bdepth = 0.0;
    sat_vec blo = sat__v(0.0, 0.0), bhi = blo;
    *part_a = *part_b = -1;
    if (a->kind != SAT_COMPOUND && b->kind != SAT_COMPOUND)
        return 1;
    if (b->kind != SAT_COMPOUND)
        sat__box(b, &blo, &bhi);
    for (int i = 0; i < sat__nparts(a); i++) {
        const sat_shape *x = sat__part_of(a, i);
        sat_vec xlo, xhi;
        part_box(a, i, &xlo, &xhi);
        for (int j = 0; j < sat__nparts(b); j++) {
            const sat_shape *y = sat__part_of(b, j);
            sat_vec ylo = blo, yhi = bhi, d = sat__offset(x, y);
            sat_result rr;
            if (b->kind == SAT_COMPOUND)
                part_box(b, j, &ylo, &yhi);
            if (sat__boxes_apart(xlo, xhi, d, ylo, yhi, sat__part_gap(x, y)) ||
                !sat__part_collide(x, y, &rr))
                continue;
            double dot = sat__dot(rr.normal, r->normal);
            if (bi < 0 || dot > bdot + 1e-9 || (dot >= bdot - 1e-9 && rr.overlap > bdepth)) {
                bi = i, bj = j;
                bdot = dot, bdepth = rr.overlap;
            }
        }
    }
    if (bi < 0)
        return 0;
    *part_a = a->kind == SAT_COMPOUND ? bi : -1;
    *part_b = b->kind == SAT_COMPOUND ? bj : -1;
    return 1;
}
#else
/* Here, where the order is compiled a second time, so that sat_collide's code stays as it
 * is. */
int sat__comes_first(const sat_shape *a, const sat_shape *b)
{
    return comes_first(a, b);
}

int sat__collide_traced(const sat_shape *a, const sat_shape *b, sat_result *result,
                        sat__sink *sink)
{
    best_axis best;
    int swapped = !comes_first(a, b);
    const sat_shape *first = swapped ? b : a, *second = swapped ? a : b;
    explain_fn explain = explainers[first->kind][second->kind];
    sink->apart = 0;
    sink->pair(sink, first, second);
    if (explain == NULL) { /* a kind that does not explain itself: its verdict alone */
        if (!sat_collide(a, b, result))
            return 0;
        sink->verdict(sink, -1);
        return 1;
    }
    if (!explain(first, second, &best, sink))
        return 0;
    finish(&best, swapped, result);
    return 1;
}
#endif
