/*
 * Private helpers shared by the core's .c files: vector maths, the double-double position
 * arithmetic, and where each array of a polygon lives in its storage.
 */
#ifndef SAT_INTERNAL_H
#define SAT_INTERNAL_H

#include <math.h>

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

/* A world point relative to a shape's position. */
static inline sat_vec sat__relative(const sat_shape *s, double x, double y)
{
    return sat__v((x - s->pos.x) - s->pos_lo.x, (y - s->pos.y) - s->pos_lo.y);
}

/* Polygon storage (see sat.h). */
static inline sat_vec *sat__normal(sat_shape *s) { return s->v; }
static inline sat_vec *sat__plane(sat_shape *s) { return s->v + s->count; }
static inline sat_vec *sat__off(sat_shape *s) { return s->v + 2 * s->count; }
static inline sat_vec *sat__local(sat_shape *s) { return s->v + 3 * s->count; }
static inline sat_vec *sat__lnormal(sat_shape *s) { return s->v + 4 * s->count; }

static inline const sat_vec *sat__cnormal(const sat_shape *s) { return s->v; }
static inline const sat_vec *sat__cplane(const sat_shape *s) { return s->v + s->count; }
static inline const sat_vec *sat__coff(const sat_shape *s) { return s->v + 2 * s->count; }
static inline const sat_vec *sat__clocal(const sat_shape *s) { return s->v + 3 * s->count; }

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

#endif
