/*
 * Private helpers shared by the core's .c files: vector maths, the double-double position
 * arithmetic, and where each array of a polygon lives in its storage.
 */
#ifndef SAT_INTERNAL_H
#define SAT_INTERNAL_H

#include <math.h>
#include <stdint.h>

#include "sat.h"
#include "sat_constants.h"

#define SAT_PI 3.14159265358979323846

static inline sat_vec sat__v(double x, double y)
{
    sat_vec v;
    v.x = x;
    v.y = y;
    return v;
}

static inline double sat__dot(sat_vec a, sat_vec b) { return a.x * b.x + a.y * b.y; }
static inline double sat__cross(sat_vec a, sat_vec b) { return a.x * b.y - a.y * b.x; }
static inline sat_vec sat__sub(sat_vec a, sat_vec b) { return sat__v(a.x - b.x, a.y - b.y); }
static inline sat_vec sat__add(sat_vec a, sat_vec b) { return sat__v(a.x + b.x, a.y + b.y); }
static inline sat_vec sat__neg(sat_vec a) { return sat__v(-a.x, -a.y); }
static inline sat_vec sat__mul(sat_vec a, double k) { return sat__v(a.x * k, a.y * k); }

/* Squares of lengths in this range neither overflow nor lose bits to underflow. */
#define SAT__SQ_LO 1e-280
#define SAT__SQ_HI 1e300

/* Outside that range, a rescale by a power of two is exact and brings the square back into
 * it; one step is enough for any finite double. Inline, without calls, so the common path
 * keeps its registers. Returns the factor applied (1 when none). */
static inline double sat__rescale(sat_vec *a, double *l2)
{
    double k = 1.0;
    if (!(*l2 > SAT__SQ_LO && *l2 < SAT__SQ_HI)) {
        k = *l2 < 1.0 ? 0x1p600 : 0x1p-600;
        a->x *= k;
        a->y *= k;
        *l2 = a->x * a->x + a->y * a->y;
    }
    return k;
}

/* Length, without overflow or underflow. */
static inline double sat__len(sat_vec a)
{
    double l2 = a.x * a.x + a.y * a.y;
    double k = sat__rescale(&a, &l2);
    return sqrt(l2) / k;
}

/* Guarded normalize: a zero (or non-finite) vector in, a zero vector out; otherwise unit,
 * subnormal and huge inputs included. */
static inline sat_vec sat__normalize(sat_vec a, double *len)
{
    double l2 = a.x * a.x + a.y * a.y;
    double k = sat__rescale(&a, &l2), l = sqrt(l2);
    if (len)
        *len = l / k;
    if (!(l > 0.0) || !(l < HUGE_VAL))
        return sat__v(0.0, 0.0);
    return sat__v(a.x / l, a.y / l);
}

/* Knuth's TwoSum: s + e == a + b exactly. Needs strict IEEE evaluation (no -ffast-math). */
static inline void sat__two_sum(double a, double b, double *s, double *e)
{
    double x = a + b;
    double bv = x - a;
    double av = x - bv;
    *e = (a - av) + (b - bv);
    *s = x;
}

/* b's position relative to a's, from the double-double positions: the high parts of two
 * nearby positions subtract exactly, so the offset keeps its precision far from 0. */
static inline sat_vec sat__offset(const sat_shape *a, const sat_shape *b)
{
    return sat__v((b->pos.x - a->pos.x) + (b->pos_lo.x - a->pos_lo.x),
                  (b->pos.y - a->pos.y) + (b->pos_lo.y - a->pos_lo.y));
}

/* Within the range every function accepts. */
static inline int sat__in_range(double v)
{
    return fabs(v) <= SAT_MAX_COORD;
}

/* The checks every outline's points pass first (sat_polygon_validate, sat_concave_prepare), in
 * this order: at most SAT_MAX_POINTS, each finite, each in range, at least 3. */
static inline sat_status sat__check_points(const sat_vec *points, int count)
{
    if (count > SAT_MAX_POINTS)
        return SAT_ERR_TOO_MANY_POINTS;
    for (int i = 0; i < count; i++)
        if (!isfinite(points[i].x) || !isfinite(points[i].y))
            return SAT_ERR_NONFINITE;
    for (int i = 0; i < count; i++)
        if (!sat__in_range(points[i].x) || !sat__in_range(points[i].y))
            return SAT_ERR_RANGE;
    return count < 3 ? SAT_ERR_TOO_FEW_POINTS : SAT_OK;
}

/* The step of sat_polygon_validate and sat_concave_prepare after sat__check_points: the
 * points written to p relative to the first (so that an outline far from
 * 0 keeps its shape) and scaled by 2^-exponent to unit size (a power of two is exact, and
 * keeps areas and centroids from overflowing or underflowing at any size): *size in
 * [0.5, 1). p may be points itself. */
static inline sat_status sat__unit_points(const sat_vec *points, int count, sat_vec *p,
                                          int *exponent, double *size)
{
    sat_vec origin = points[0], lo = {0.0, 0.0}, hi = {0.0, 0.0};
    for (int i = 0; i < count; i++) {
        p[i].x = points[i].x - origin.x;
        p[i].y = points[i].y - origin.y;
        lo.x = fmin(lo.x, p[i].x);
        lo.y = fmin(lo.y, p[i].y);
        hi.x = fmax(hi.x, p[i].x);
        hi.y = fmax(hi.y, p[i].y);
    }
    double extent = fmax(hi.x - lo.x, hi.y - lo.y);
    if (!(extent > 0.0))
        return SAT_ERR_TOO_FEW_POINTS;
    if (extent < SAT_MIN_SIZE)
        return SAT_ERR_RANGE;
    (void)frexp(extent, exponent);
    for (int i = 0; i < count; i++) {
        p[i].x = ldexp(p[i].x, -*exponent);
        p[i].y = ldexp(p[i].y, -*exponent);
    }
    *size = ldexp(extent, -*exponent);
    return SAT_OK;
}

/* A world point relative to a shape's position. */
static inline sat_vec sat__relative(const sat_shape *s, double x, double y)
{
    return sat__v((x - s->pos.x) - s->pos_lo.x, (y - s->pos.y) - s->pos_lo.y);
}

/* A holder's record in a shape's list (sat_shape.members), made and owned by the holder (a
 * hash: sat_hash.c). The shape's code only walks the list; each record says what to do. */
struct sat_member {
    struct sat_member *next;
    struct sat_member **link;               /* what points at this record */
    void (*changed)(struct sat_member *m);  /* told of every change, at O(1) */
};

/* Every change of a shape's transform, geometry or filter bits ends here: the hashes
 * holding it mark it for their next sync. */
static inline void sat__changed(sat_shape *s)
{
    for (struct sat_member *m = s->members; m; m = m->next)
        m->changed(m);
}

/* Polygon storage (see sat.h): normals, offsets, then the deepest vertices' indices (uint16,
 * or int32 past SAT_DEEP16 vertices, padded to whole entries; none for 3 or 4 vertices),
 * then the local points. */
#define SAT_DEEP16 65536
static inline int sat__deep_entries(int count)
{
    if (count <= 4) /* none kept: see sat__least */
        return 0;
    return count <= SAT_DEEP16 ? (count + 7) / 8 : (count + 3) / 4;
}
static inline sat_vec *sat__normal(sat_shape *s) { return s->v; }
static inline sat_vec *sat__off(sat_shape *s) { return s->v + s->count; }

static inline const sat_vec *sat__cnormal(const sat_shape *s) { return s->v; }
static inline const sat_vec *sat__coff(const sat_shape *s) { return s->v + s->count; }

/* Records k as the vertex deepest along edge i's normal (read by sat__least). */
static inline void sat__set_deep(sat_shape *s, int i, int k)
{
    void *p = s->v + 2 * s->count;
    if (s->count <= SAT_DEEP16)
        ((uint16_t *)p)[i] = (uint16_t)k;
    else
        ((int32_t *)p)[i] = (int32_t)k;
}

/* A polygon's interval along its own edge normal i, about its position and at world size:
 * the support (greatest) is edge i's first vertex along it, the least its deepest vertex
 * (found once, at build). Derived where read, from the arrays a pair test reads anyway, so
 * that nothing is stored twice: the same bits as a scan of that vertex would give. */
static inline double sat__support(const sat_shape *s, int i)
{
    return sat__dot(sat__coff(s)[i], sat__cnormal(s)[i]);
}
static inline double sat__least(const sat_shape *s, int i)
{
    const sat_vec *o = sat__coff(s);
    sat_vec n = sat__cnormal(s)[i];
    int c = s->count;
    const void *d = s->v + 2 * c;
    if ((unsigned)(c - 5) <= (unsigned)(SAT_DEEP16 - 5)) /* 5 to 65536: one test */
        return sat__dot(o[((const uint16_t *)d)[i]], n);
    if (c > 4)
        return sat__dot(o[((const int32_t *)d)[i]], n);
    /* A triangle's or a quad's deepest vertex is one of the two past edge i's (a triangle's
     * one): the lesser of their dot products, not stored (a box's 16 bytes). */
    int j = i + 2 >= c ? i + 2 - c : i + 2, k = j + 1 == c ? 0 : j + 1;
    double v = sat__dot(o[j], n), w = c == 4 ? sat__dot(o[k], n) : v;
    return w < v ? w : v;
}

/* Where a polygon's local points are (sat_shape.local): in its storage after the deepest
 * vertices' indices, nowhere apart (a lean polygon at rotation 0 and scale 1: they are the
 * offsets), or in the block it was given. */
#define SAT__LOCAL_INLINE ((uintptr_t)0)
#define SAT__LOCAL_NONE ((uintptr_t)1)
static inline const sat_vec *sat__clocal(const sat_shape *s)
{
    if (s->local == SAT__LOCAL_INLINE)
        return sat__coff(s) + s->count + sat__deep_entries(s->count);
    if (s->local == SAT__LOCAL_NONE)
        return sat__coff(s);
    return (const sat_vec *)s->local;
}
static inline sat_vec *sat__local(sat_shape *s)
{
    return (sat_vec *)(uintptr_t)sat__clocal(s);
}
/* Whether turning or scaling a polygon to this angle and scale needs the block for its
 * local points that it has not been given yet. */
static inline int sat__needs_local(const sat_shape *s, double angle, double scale)
{
    return s->kind == SAT_POLYGON && s->local == SAT__LOCAL_NONE &&
           !(angle == 0.0 && scale == 1.0);
}

/* The local unit normal of edge i (from local point i to point i + 1) of a polygon of n
 * points: not stored (16 bytes a vertex), but computed from the local points by this one
 * function, at build time and at every rotation or scale, so that it is the same bits
 * each time. */
static inline sat_vec sat__edge_normal(const sat_vec *local, int n, int i)
{
    sat_vec p = local[i], q = local[i + 1 == n ? 0 : i + 1];
    return sat__normalize(sat__v(q.y - p.y, -(q.x - p.x)), NULL);
}

/* Compound storage (see sat.h and sat_compound.c):
 *   v[0]               x: the bytes of this storage, y: N (outline points)
 *   v[1]               x: the form (sat_form)
 *   v[2 + 4i]          x: byte offset (from v) of part i as built, y: of part i in the world
 *   v[2 + 4i + 1]      part i's offset from the position, world-oriented
 *   v[2 + 4i + 2, + 3] part i's box (lo, hi) about its position (sat__box: the pair tests
 *                      read it for every part pair, so it is kept, not derived)
 *   v[2 + 4P + j]      outline point j about the position, scale 1, rotation 0
 *   v[2 + 4P + N + j]  outline point j, world-oriented offset
 *   then the parts, each as built and in the world, at multiples of 16 bytes: as built, a
 *   polygon at rotation 0 and scale 1 is lean (its offsets are its local points), in the
 *   world every part keeps them inline (sat__copy_inline). */
static inline int sat__outline_n(const sat_shape *s) { return (int)s->v[0].y; }
static inline sat_shape *sat__base_part(sat_shape *s, int i)
{
    return (sat_shape *)(void *)((char *)s->v + (size_t)s->v[2 + 4 * i].x);
}
static inline sat_shape *sat__live_part(sat_shape *s, int i)
{
    return (sat_shape *)(void *)((char *)s->v + (size_t)s->v[2 + 4 * i].y);
}
static inline const sat_shape *sat__cpart(const sat_shape *s, int i)
{
    return (const sat_shape *)(const void *)((const char *)s->v + (size_t)s->v[2 + 4 * i].y);
}
static inline sat_vec *sat__outline_local(sat_shape *s) { return s->v + 2 + 4 * s->count; }
/* Part i's world-oriented offset from the position, and its box (lo, hi). */
static inline sat_vec *sat__part_table(sat_shape *s, int i) { return s->v + 3 + 4 * i; }
static inline const sat_vec *sat__cpart_table(const sat_shape *s, int i)
{
    return s->v + 3 + 4 * i;
}
static inline const sat_vec *sat__coutline_world(const sat_shape *s)
{
    return s->v + 2 + 4 * s->count + sat__outline_n(s);
}
/* The parts a shape stands for: a compound's, or itself. */
static inline int sat__nparts(const sat_shape *s)
{
    return s->kind == SAT_COMPOUND ? s->count : 1;
}
static inline const sat_shape *sat__part_of(const sat_shape *s, int i)
{
    return s->kind == SAT_COMPOUND ? sat__cpart(s, i) : s;
}

/* Segment and capsule storage (see sat.h): the world half h (the segment runs from
 * position - h to position + h), its unit direction and the world half-length. */
static inline int sat__has_segment(const sat_shape *s)
{
    return s->kind == SAT_SEGMENT || s->kind == SAT_CAPSULE;
}
static inline sat_vec sat__seg_half(const sat_shape *s) { return s->v[0]; }
static inline sat_vec sat__seg_dir(const sat_shape *s) { return s->v[1]; }
static inline double sat__seg_len(const sat_shape *s) { return s->v[3].x; }
/* The unit normal of a direction: counter-clockwise (in a y-up frame), the segment's left. */
static inline sat_vec sat__perp(sat_vec u) { return sat__v(-u.y, u.x); }

/* A segment core at offset c: half h (from c - h to c + h), unit direction u, left normal n,
 * half-length L. */
typedef struct sat__segcore {
    sat_vec c, h, u, n;
    double L;
} sat__segcore;

static inline sat__segcore sat__seg_core(const sat_shape *s, sat_vec c)
{
    sat__segcore k;
    k.c = c;
    k.h = sat__seg_half(s);
    k.u = sat__seg_dir(s);
    k.n = sat__perp(k.u);
    k.L = sat__seg_len(s);
    return k;
}

/* Where the core's closest point to p is: inside the segment (then `side` is p's signed
 * distance along the normal) or at an end (then `to` leads from p to it); d2 is the squared
 * distance, enough to compare (no square root until one is chosen). */
typedef struct sat__closest {
    double d2, side;
    sat_vec to;
    int inside;
} sat__closest;

static inline sat__closest sat__core_closest(sat_vec p, const sat__segcore *k)
{
    sat__closest c;
    sat_vec w = sat__sub(p, k->c);
    double t = sat__dot(w, k->u);
    c.inside = t >= -k->L && t <= k->L;
    c.side = sat__dot(w, k->n);
    c.to = sat__sub(t > 0.0 ? sat__add(k->c, k->h) : sat__sub(k->c, k->h), p);
    c.d2 = c.inside ? c.side * c.side : sat__dot(c.to, c.to);
    return c;
}

/* The distance of a closest point, and the unit direction from p toward it: the core's
 * normal when it is inside the segment (exact for a flat contact), else the way to the end.
 * A p on the segment gets -n: its shape is pushed to the left. */
static inline double sat__closest_dir(const sat__closest *c, const sat__segcore *k, sat_vec *dir)
{
    double dist;
    if (c->inside) {
        *dir = c->side < 0.0 ? k->n : sat__neg(k->n);
        return fabs(c->side);
    }
    *dir = sat__normalize(c->to, &dist);
    if (dir->x == 0.0 && dir->y == 0.0)
        *dir = sat__neg(k->n);
    return dist;
}

/* Distance from p to the core, and the direction toward it (as above). */
static inline double sat__core_distance(sat_vec p, const sat__segcore *k, sat_vec *dir)
{
    sat__closest c = sat__core_closest(p, k);
    return sat__closest_dir(&c, k, dir);
}

/* Interval of a polygon's offsets (relative to its position) along n. */
static inline void sat__project(const sat_shape *s, sat_vec n, double *lo, double *hi)
{
    const sat_vec *o = sat__coff(s);
    double mn = sat__dot(o[0], n), mx = mn;
    for (int i = 1; i < s->count; i++) {
        double v = sat__dot(o[i], n);
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    *lo = mn;
    *hi = mx;
}

/* The gap up to which a pair counts as touching. */
static inline double sat__touch_tol(const sat_shape *a, const sat_shape *b)
{
    return SAT_TOUCH_REL * (a->bound + b->bound);
}

/* The core's own functions across its files: hidden in the Lua module, as sat.h's are. */
SAT_BEGIN_HIDDEN

/* ---- shapes (sat_shape.c) and compounds (sat_compound.c) ----------------------------- */

/* A shape's world-size bounding box relative to its position: not stored (32 bytes a shape)
 * but derived, from the radius, the world half or the world offsets (a compound: from its
 * parts'), by the arithmetic that once stored it. */
void sat__box(const sat_shape *s, sat_vec *lo, sat_vec *hi);
/* Part i's box (lo, hi) about its position: a compound's from its table; a shape that is its
 * own part has it in own (its sat__box, taken once by the caller). */
static inline void sat__part_box(const sat_shape *s, int i, const sat_vec own[2], sat_vec *lo,
                                 sat_vec *hi)
{
    const sat_vec *t = s->kind == SAT_COMPOUND ? sat__cpart_table(s, i) + 1 : own;
    *lo = t[0];
    *hi = t[1];
}
/* Whether two boxes about positions d apart (the second's from the first's) are farther
 * apart than gap along an axis. */
static inline int sat__boxes_apart(sat_vec alo, sat_vec ahi, sat_vec d, sat_vec blo, sat_vec bhi,
                                   double gap)
{
    return d.x + blo.x - ahi.x > gap || alo.x - (d.x + bhi.x) > gap || d.y + blo.y - ahi.y > gap ||
           alo.y - (d.y + bhi.y) > gap;
}
/* The gap up to which two parts of compounds (x, y: parts or shapes that are their own part)
 * may touch: four times the pair's own touch tolerance (the boxes' rounding), never the whole
 * compound's. Every compound path (test, collide, the parts of a result, contacts, sweep)
 * gates its part pairs by this one rule, and a pair that passes is decided by its own test
 * (its own tolerance), so that the union touches exactly when a part pair does. */
static inline double sat__part_gap(const sat_shape *x, const sat_shape *y)
{
    return 4.0 * sat__touch_tol(x, y);
}
/* A copy that keeps a polygon's local points in its own storage, whatever the source's
 * layout (a compound's parts: their storage is copied with the compound's, so it can point
 * nowhere else), in memory of sat__inline_bytes(src). */
size_t sat__inline_bytes(const sat_shape *s);
void sat__copy_inline(sat_shape *dst, const sat_shape *src);
/* Recompute what depends on rotation and scale (and, for a compound, its parts). */
void sat__refresh(sat_shape *s);
/* Outline reduction shared by polygons and concave outlines (sat_shape.c). */
int sat__merge_close(sat_vec *p, int n, double tol);
int sat__drop_collinear(sat_vec *p, int n, double tol);
/* Adds d to the double-double (hi, lo) and renormalises. */
void sat__dd_add(double *hi, double *lo, double d);

/* Compounds' transforms and queries, in sat_shape.c. A compound's parts after its rotation
 * or scale changed (and its box, bound, outline). */
void sat__compound_refresh(sat_shape *s);
/* Its parts' positions after its own moved. */
void sat__compound_place(sat_shape *s);
/* Whether scaling by factor keeps every part valid. */
sat_status sat__compound_scale_ok(const sat_shape *s, double factor);
double sat__compound_area(const sat_shape *s);
int sat__compound_contains(const sat_shape *s, double x, double y);
/* Pair tests with b a compound (a of any kind, the first in sat_collide's order), in
 * sat_union.c, which tests the part pairs (never compounds) with fns: sat_collide.c passes
 * its sat_test and sat__part_collide, a sat_collide whose identical parts run in the caller's
 * order (a call back, so that sat_union.c depends on no other file);
 * the swept test in sat_sweep.c. */
typedef struct sat__pair_fns {
    int (*test)(const sat_shape *a, const sat_shape *b);
    int (*collide)(const sat_shape *a, const sat_shape *b, sat_result *r);
} sat__pair_fns;
/* sat_collide for a part pair of compounds (sat_collide.c): identical parts with equal ids
 * are computed in the caller's order, not in memory order (sat_union.c's part pairs, and
 * sat_collide_parts in sat_contacts.c). */
int sat__part_collide(const sat_shape *a, const sat_shape *b, sat_result *result);
int sat__compound_test(const sat_shape *a, const sat_shape *b, const sat__pair_fns *fns);
int sat__compound_collide(const sat_shape *a, const sat_shape *b, sat_result *r,
                          const sat__pair_fns *fns);
/* Whether n (from a toward b) is the normal of a seam (an edge of a concave's part inside its
 * outline) of part i of a or part j of b (sat_union.c). */
int sat__seam_pair(const sat_shape *a, int i, const sat_shape *b, int j, sat_vec n);
int sat__compound_sweep(const sat_shape *a, sat_vec v, const sat_shape *b, sat_sweep_hit *hit);
int sat__compound_sweep_pair(const sat_shape *a, sat_vec v, const sat_shape *b,
                             sat_sweep_hit *hit, const sat_shape **pa, const sat_shape **pb);

/* A shape's interval along n, radius included, with its position at offset c. */
void sat__interval(const sat_shape *s, sat_vec c, sat_vec n, double *lo, double *hi);

/* ---- the pair tests' trace (sat_collide.c reports, sat_explain.c listens) ------------- */

/* One axis, in the frame of the pair's first shape as sat_collide computes it (its canonical
 * order, which may be the caller's reversed). */
typedef struct sat__step {
    sat_vec n;               /* unit */
    int from;                /* 0: the first shape, 1: the second */
    sat_feature feature;
    int index;
    int separates;
    /* 1: the intervals below are the test's own (relative to the first shape's position,
     * radii included); 0: an axis through two closest points, n from the first shape toward
     * the second, whose intervals the listener projects itself. */
    int measured;
    double amin, amax, bmin, bmax;
    double overlap;          /* as the test computed it */
} sat__step;

/* What a traced pair test reports to, in this order: the pair (first, second: the order it
 * computes them in), each axis it tries, and on a hit the axis (numbered from 0 in this
 * pair's order) that gave the MTV, or -1. A kind made of parts reports each part pair the
 * same way. The test goes on past a separating axis (sat__report sets apart) and says
 * "apart" at the end. */
typedef struct sat__sink sat__sink;
struct sat__sink {
    int apart;  /* an axis of this pair separated (set as they are reported) */
    void (*pair)(sat__sink *sink, const sat_shape *first, const sat_shape *second);
    void (*axis)(sat__sink *sink, const sat__step *step);
    void (*verdict)(sat__sink *sink, int axis);
};

/* sat_collide reporting to a sink. */
int sat__collide_traced(const sat_shape *a, const sat_shape *b, sat_result *result,
                        sat__sink *sink);
/* Whether sat_collide computes a pair in the caller's order (a first). */
int sat__comes_first(const sat_shape *a, const sat_shape *b);

SAT_END_HIDDEN

#endif
