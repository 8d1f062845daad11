/*
 * sat_collide_traced.c - sat_collide.c compiled a second time with its trace on: the same
 * pair functions, from the same source, reporting every axis to a sink (sat__collide_traced,
 * which sat_explain.c listens to). Kept apart so that sat_test and sat_collide stay exactly
 * the code they are without it. Here too is what the pair functions' one-line hooks call:
 * each turns what the test computed along an axis into a sat__step for the sink.
 */
#include <string.h>

#include "sat_internal.h"

#define SAT_TRACING 1

/* The hooks' functions, defined below the pair functions (after sat_collide.c, whose own
 * definitions, such as FEATURE_DIR, they use). */
static void trace_axis(sat__sink *tr, sat_vec n, int from, sat_feature feature, int index,
                       double amin, double amax, double bmin, double bmax, double p, double q,
                       double tol);
static void trace_vertex(sat__sink *tr, const sat_shape *a, sat_vec d, int edge, int vertex,
                         sat_vec w, double rad, int separates);
static void trace_centres(sat__sink *tr, const sat_shape *a, const sat_shape *b, sat_vec d,
                          double tol);
static void trace_features(sat__sink *tr, int feature, int vertex, sat_vec w, double flat,
                           sat_vec flat_n, double R, int separates);
static void trace_centre(sat__sink *tr, const sat__closest *c, const sat__segcore *k, double R,
                         int separates);
static void trace_seg(sat__sink *tr, const sat_shape *a, const sat_shape *b, sat_vec n, int from,
                      sat_feature feature, double *sep, double amin, double amax, double bmin,
                      double bmax, double tol);
static void trace_ends(sat__sink *tr, const sat__closest *c, int near, const sat__segcore *ka,
                       const sat__segcore *kb, double R, int separates);

#include "sat_collide.c"

/* ---- what the hooks report ------------------------------------------------------------ */

/* An axis whose intervals the test has (p and q as at the top). */
static void trace_axis(sat__sink *tr, sat_vec n, int from, sat_feature feature, int index,
                       double amin, double amax, double bmin, double bmax, double p, double q,
                       double tol)
{
    sat__step s;
    s.n = n;
    s.from = from;
    s.feature = feature;
    s.index = index;
    s.measured = 1;
    s.amin = amin;
    s.amax = amax;
    s.bmin = bmin;
    s.bmax = bmax;
    s.overlap = q < p ? q : p; /* as least_consider takes it */
    s.separates = p < -tol || q < -tol;
    tr->apart |= s.separates;
    tr->axis(tr, &s);
}

/* An axis through two closest points (dir from the first shape toward the second), with the
 * depth the test computes along it and its verdict. */
static void trace_closest(sat__sink *tr, sat_vec dir, int from, sat_feature feature, int index,
                          double overlap, int separates)
{
    sat__step s;
    memset(&s, 0, sizeof s);
    s.n = dir;
    s.from = from;
    s.feature = feature;
    s.index = index;
    s.overlap = overlap;
    s.separates = separates;
    tr->apart |= separates;
    tr->axis(tr, &s);
}

/* polygon_circle's axis through a polygon's vertex and a round shape's centre (at d), when
 * the test took one (vertex): w leads from one end of `edge` to the centre, as the full test
 * measures it, from the first end when it is that end's own difference. None when the centre
 * is on the vertex (the test takes none either). */
static void trace_vertex(sat__sink *tr, const sat_shape *a, sat_vec d, int edge, int vertex,
                         sat_vec w, double rad, int separates)
{
    if (!vertex)
        return;
    sat_vec w0 = sat__sub(d, sat__coff(a)[edge]);
    int at = w.x == w0.x && w.y == w0.y ? edge : edge + 1 == a->count ? 0 : edge + 1;
    double dist;
    sat_vec u = sat__normalize(w, &dist);
    if (u.x != 0.0 || u.y != 0.0)
        trace_closest(tr, u, 0, SAT_FEATURE_VERTEX, at, rad - dist, separates);
}

/* circle_circle's one axis, through the centres (concentric: (1, 0)). */
static void trace_centres(sat__sink *tr, const sat_shape *a, const sat_shape *b, sat_vec d,
                          double tol)
{
    double dist, reach = a->radius + b->radius + tol;
    sat_vec n = sat__normalize(d, &dist);
    if (n.x == 0.0 && n.y == 0.0)
        n = sat__v(1.0, 0.0);
    trace_closest(tr, n, 0, SAT_FEATURE_CENTRE, 0, a->radius + b->radius - dist,
                  sat__dot(d, d) > reach * reach);
}

/* polygon_segment's axis through the closest features: a polygon vertex (feature >= 0) or
 * the segment's endpoint (-1 - endpoint) against the other. */
static void trace_features(sat__sink *tr, int feature, int vertex, sat_vec w, double flat,
                           sat_vec flat_n, double R, int separates)
{
    FEATURE_DIR(dist, dir, vertex, w, flat, flat_n)
    if (feature >= 0)
        trace_closest(tr, dir, 0, SAT_FEATURE_VERTEX, feature, R - dist, separates);
    else
        trace_closest(tr, dir, 1, SAT_FEATURE_ENDPOINT, -1 - feature, R - dist, separates);
}

/* circle_segment's one axis: from the centre to its closest point of the segment (inside
 * it, or at an end: then the axis through that endpoint). */
static void trace_centre(sat__sink *tr, const sat__closest *c, const sat__segcore *k, double R,
                         int separates)
{
    sat_vec dir;
    double dist = sat__closest_dir(c, k, &dir);
    if (c->inside)
        trace_closest(tr, dir, 0, SAT_FEATURE_CENTRE, 0, R - dist, separates);
    else /* the end c->to leads to: c + h is endpoint 1 (the second) */
        trace_closest(tr, dir, 1, SAT_FEATURE_ENDPOINT, sat__dot(c->to, k->u) + k->L > 0.0,
                      R - dist, separates);
}

/* segment_segment's axis: as seg_axis takes it, with the intervals grown by each radius.
 * Explaining, seg_axis stops at a separating axis before it takes the gap into sep: this
 * does it, so that the closest ends are still looked at. */
static void trace_seg(sat__sink *tr, const sat_shape *a, const sat_shape *b, sat_vec n, int from,
                      sat_feature feature, double *sep, double amin, double amax, double bmin,
                      double bmax, double tol)
{
    double R = a->radius + b->radius, p = amax - bmin + R, q = bmax - amin + R;
    double s0 = bmin - amax, s1 = amin - bmax;
    s0 = s1 > s0 ? s1 : s0;
    *sep = s0 > *sep ? s0 : *sep;
    trace_axis(tr, n, from, feature, 0, amin - a->radius, amax + a->radius, bmin - b->radius,
               bmax + b->radius, p, q, tol);
}

/* segment_segment's axis through the closest ends when the cores are apart: end `near`
 * (a's 0 and 1, b's 2 and 3) against the other core, the direction from a toward b. */
static void trace_ends(sat__sink *tr, const sat__closest *c, int near, const sat__segcore *ka,
                       const sat__segcore *kb, double R, int separates)
{
    sat_vec dir;
    double dist = sat__closest_dir(c, near < 2 ? kb : ka, &dir);
    trace_closest(tr, near < 2 ? dir : sat__neg(dir), near >= 2, SAT_FEATURE_ENDPOINT, near & 1,
                  R - dist, separates);
}
