/*
 * sat_sweep.c - the swept pair test (see sat.h): where a shape translated by v first touches
 * another, exactly, with no tunnelling at any speed, for every pair of kinds.
 *
 * Every kind is a convex core (polygon, segment, point) grown by a radius, so the pair
 * overlaps at time t when t v lies within R (the radii's sum) of M = B - A, the Minkowski
 * difference of the cores with b at its offset from a: the sweep is a ray from the origin
 * along v against M grown by R. M is never built: its edges are the two cores' edges, its
 * supports the sums of theirs.
 * - Flat pairs (R within the touch tolerance: polygons, segments, points): M's supporting
 *   half-planes along every edge normal of the two cores (plus a segment's direction, which
 *   bounds M when it has no area) give the times of overlap (Cyrus-Beck). The supports of a
 *   polygon along the other polygon's normals, taken in angular order, move forward only
 *   (rotating calipers): O(n + m).
 * - Round pairs (a circle or a capsule): M is a polygon, segment or point X plus a point or
 *   segment S. M's faces as half-planes first (the mitred polygon, which holds M grown by
 *   R): a miss there is a miss, and when the entry, exit and touch fall on faces they are
 *   exact. Otherwise one is at a corner: every edge of X shifted by each point of S, S's
 *   edges at X's extreme vertices and a disk at every vertex sum lie within M grown by R,
 *   and its boundary is made of them, so the entry (the exit) is the first (last) time the
 *   ray meets one of them: O(n).
 * The motion presses into b when, somewhere on the way, the pair overlaps by more than the
 * touch tolerance (M grown by R - tol, or shrunk by tol - R); only then is there a hit, at
 * the first touch (M grown by R). Sliding along a surface (overlap staying within the
 * tolerance) is no hit. A flat pair whose difference has no area (a point or parallel
 * segments against a segment) can never overlap by more than the tolerance: there, crossing
 * the line from more than the tolerance on one side to more than it on the other is a hit.
 */
#include <string.h>

#include "sat_internal.h"

enum { SWEEP_NONE = 0, SWEEP_CONTACT = 1, SWEEP_OVERLAP = 2 };

/* A core is a segment when the shape has one of some length. A capsule of zero length
 * (sat.capsule(x, y, x, y, r)) is a point, as a circle's core: its direction is a
 * placeholder, so no line, normal or face of the sweep may come from it. */
static inline int has_line(const sat_shape *s)
{
    return sat__has_segment(s) && sat__seg_len(s) > 0.0;
}

/* What the ray found: the times of pressing in (lo, hi), and the first touch: its time,
 * the normal there (from a toward b) and, for a flat face, the gap and closing speed from
 * which the move is computed exactly. */
typedef struct sweep {
    sat_vec v;
    double rho_t, rho_s; /* M grown by these: touching, pressing in */
    double lo, hi;
    double te, gap, vn;
    sat_vec normal;
    int face;            /* the touch is on a flat face (gap / vn), else a disk (te) */
    int lo_id, hi_id, te_id; /* round pairs: the faces that gave lo, hi and te */
    int collided, hit;   /* sat_collide was called already, with this answer and res */
    sat_result res;
} sweep;

/* ---- flat pairs: supporting half-planes --------------------------------------------- */

static void flat_init(sweep *w, sat_vec v, double R, double tol)
{
    w->v = v;
    w->rho_t = R;
    w->rho_s = R - tol;
    w->lo = -HUGE_VAL;
    w->hi = HUGE_VAL;
    w->te = -HUGE_VAL;
    w->gap = 0.0;
    w->vn = 0.0;
    w->normal = sat__v(0.0, 0.0);
    w->face = 1;
    w->lo_id = w->hi_id = w->te_id = -1;
    w->collided = 0;
}

/* M lies in {x : m . x <= h}. Returns 0 once no time is left for pressing in. The touch is
 * the half-plane entered last; of equal ones, the most head-on. */
static inline int halfplane(sweep *w, sat_vec m, double h, int id)
{
    double vm = sat__dot(w->v, m), hs = h + w->rho_s;
    if (vm == 0.0)
        return hs > 0.0;
    if (vm < 0.0) {
        double l = hs / vm, ht = h + w->rho_t, te = ht / vm;
        if (l > w->lo) {
            w->lo = l;
            w->lo_id = id;
        }
        if (te > w->te || (te == w->te && -vm > w->vn)) {
            w->te = te;
            w->gap = -ht;
            w->vn = -vm;
            w->normal = sat__neg(m);
            w->te_id = id;
        }
    } else {
        double u = hs / vm;
        if (u < w->hi) {
            w->hi = u;
            w->hi_id = id;
        }
    }
    return w->lo < w->hi;
}

static inline int flat_axis(sweep *w, sat_vec m, double h)
{
    return halfplane(w, m, h, -1);
}

/* The largest m . x over a shape's core (relative to its position). A segment's or a
 * point's along its own normal is 0 by definition. */
static double core_max(const sat_shape *s, sat_vec m)
{
    if (s->kind == SAT_POLYGON) {
        double lo, hi;
        sat__project(s, m, &lo, &hi);
        return hi;
    }
    return has_line(s) ? fabs(sat__dot(sat__seg_half(s), m)) : 0.0;
}

/* The vertex of a polygon's offsets with the least dot product with n, climbing forward from
 * k (rotating calipers: for normals taken in angular order it only moves forward). */
static int climb_min(const sat_vec *o, int count, int k, sat_vec n, double *value)
{
    double cur = sat__dot(o[k], n);
    for (int steps = 1; steps < count; steps++) {
        int next = k + 1 == count ? 0 : k + 1;
        double d = sat__dot(o[next], n);
        if (!(d < cur))
            break;
        k = next;
        cur = d;
    }
    *value = cur;
    return k;
}

/* Up to this many vertices a polygon is scanned, not climbed (no branch to mispredict). */
#define SWEEP_SCAN_MAX 8

static int argmin_dot(const sat_vec *o, int count, sat_vec n)
{
    int k = 0;
    double best = sat__dot(o[0], n);
    for (int i = 1; i < count; i++) {
        double d = sat__dot(o[i], n);
        if (d < best) {
            best = d;
            k = i;
        }
    }
    return k;
}

/* The least of a few offsets along n. */
static double min_dot(const sat_vec *o, int count, sat_vec n)
{
    double least = sat__dot(o[0], n);
    for (int i = 1; i < count; i++) {
        double d = sat__dot(o[i], n);
        least = d < least ? d : least;
    }
    return least;
}

/* The axes of p's polygon normals (p is a, sign -1, or b, sign +1; b sits at r). Along n,
 * with A and B the two cores' intervals, M = B - A spans [Bmin - Amax, Bmax - Amin]: its
 * half-plane along sign * n is an edge of M. Against another polygon, the other's extreme
 * facing p comes from the calipers (O(n + m)), or for a few vertices from a scan. (The
 * opposite half-plane, which a scan could give too, costs more than the exits it hastens.) */
static int flat_polygon_axes(sweep *w, const sat_shape *p, const sat_shape *other, sat_vec r,
                             double sign)
{
    const sat_vec *n = sat__cnormal(p);
    const sat_vec *oo = other->kind == SAT_POLYGON ? sat__coff(other) : NULL;
    int few = oo && other->count <= SWEEP_SCAN_MAX;
    int k = oo && !few ? argmin_dot(oo, other->count, n[0]) : 0;
    for (int i = 0; i < p->count; i++) {
        double own = sat__support(p, i), rn = sat__dot(r, n[i]), least;
        if (few)
            least = min_dot(oo, other->count, n[i]);
        else if (oo)
            k = climb_min(oo, other->count, k, n[i], &least);
        else
            least = -core_max(other, sat__neg(n[i]));
        /* a's normal (sign -1): h = Amax - Bmin; b's (sign +1): h = Bmax - Amin */
        double h = sign < 0.0 ? own - (rn + least) : (rn + own) - least;
        if (!flat_axis(w, sat__mul(n[i], sign), h))
            return 0;
    }
    return 1;
}

/* A segment's axes: both normals and both directions (bounding M along the segment when the
 * difference has no area). s is a (sign -1) or b (sign +1). */
static int flat_segment_axes(sweep *w, const sat_shape *s, const sat_shape *other, sat_vec r,
                             double sign)
{
    sat_vec u = sat__seg_dir(s), n = sat__perp(u);
    sat_vec axes[4];
    double own[4];
    axes[0] = n, axes[1] = sat__neg(n), axes[2] = u, axes[3] = sat__neg(u);
    own[0] = own[1] = 0.0;
    own[2] = own[3] = sat__seg_len(s);
    for (int i = 0; i < 4; i++) {
        sat_vec m = axes[i];
        double h = sign < 0.0 ? core_max(other, m) + sat__dot(r, m) + own[i]
                              : own[i] + sat__dot(r, m) + core_max(other, sat__neg(m));
        if (!flat_axis(w, m, h))
            return 0;
    }
    return 1;
}

static int flat_axes(sweep *w, const sat_shape *a, const sat_shape *b, sat_vec r)
{
    if (a->kind == SAT_POLYGON && !flat_polygon_axes(w, a, b, r, -1.0))
        return 0;
    if (b->kind == SAT_POLYGON && !flat_polygon_axes(w, b, a, r, 1.0))
        return 0;
    if (has_line(a) && !flat_segment_axes(w, a, b, r, -1.0))
        return 0;
    if (has_line(b) && !flat_segment_axes(w, b, a, r, 1.0))
        return 0;
    return 1;
}

/* A flat pair whose difference has no area: its line (through r along u, half-length L)
 * crossed from beyond the tolerance on one side to beyond it on the other. */
static int flat_crossing(sweep *w, const sat_shape *a, const sat_shape *b, sat_vec r, double tol)
{
    const sat_shape *s = has_line(a) ? a : b;
    if (!has_line(s))
        return SWEEP_NONE; /* two points */
    sat_vec u = sat__seg_dir(s), n = sat__perp(u), v = w->v;
    double L = (has_line(a) ? sat__seg_len(a) : 0.0) +
               (has_line(b) ? sat__seg_len(b) : 0.0);
    double s0 = -sat__dot(n, r), s1 = s0 + sat__dot(n, v);
    if (!((s0 > tol && s1 < -tol) || (s0 < -tol && s1 > tol)))
        return SWEEP_NONE;
    double gap = fabs(s0), vn = fabs(s0 - s1), t = gap / vn;
    if (fabs(sat__dot(sat__sub(sat__mul(v, t), r), u)) > L + tol)
        return SWEEP_NONE;
    w->te = t;
    w->gap = gap;
    w->vn = vn;
    w->normal = s0 > 0.0 ? sat__neg(n) : n;
    w->face = 1;
    return SWEEP_CONTACT;
}

/* A flat pair has no area between its cores when neither is a polygon and they are points
 * or parallel segments (the parallelogram no thicker than the tolerance). */
static int no_area(const sat_shape *a, const sat_shape *b, double tol)
{
    if (a->kind == SAT_POLYGON || b->kind == SAT_POLYGON)
        return 0;
    if (!has_line(a) || !has_line(b))
        return 1;
    double thin = fmin(sat__seg_len(a), sat__seg_len(b));
    return 2.0 * thin * fabs(sat__cross(sat__seg_dir(a), sat__seg_dir(b))) <= tol;
}

/* ---- round pairs: M = X + S grown by R ---------------------------------------------- */

/* base + sign * (a shape's core): X and S. */
typedef struct rcore {
    const sat_shape *s;
    sat_vec base;
    double sign;
} rcore;

static int rc_vertices(const rcore *c)
{
    return c->s->kind == SAT_POLYGON ? c->s->count : has_line(c->s) ? 2 : 1;
}

static sat_vec rc_vertex(const rcore *c, int i)
{
    sat_vec o = sat__v(0.0, 0.0);
    if (c->s->kind == SAT_POLYGON)
        o = sat__coff(c->s)[i];
    else if (has_line(c->s))
        o = i ? sat__seg_half(c->s) : sat__neg(sat__seg_half(c->s));
    return sat__add(c->base, sat__mul(o, c->sign));
}

/* Edge i (from vertex i to the next): its outward normal and support. A segment is a
 * polygon of two vertices and two edges; its support along its own normal is its line. */
static int rc_edges(const rcore *c)
{
    return c->s->kind == SAT_POLYGON ? c->s->count : has_line(c->s) ? 2 : 0;
}

static sat_vec rc_edge(const rcore *c, int i, double *h)
{
    sat_vec m;
    if (c->s->kind == SAT_POLYGON) {
        m = sat__mul(sat__cnormal(c->s)[i], c->sign);
        *h = sat__dot(m, c->base) + sat__support(c->s, i);
    } else {
        sat_vec n = sat__perp(sat__seg_dir(c->s));
        m = sat__mul(n, i ? c->sign : -c->sign);
        *h = sat__dot(m, c->base);
    }
    return m;
}

/* The ray meets the face from P to Q (outward normal m, on the line m . x = h) grown by
 * the radii. */
static void round_face(sweep *w, sat_vec P, sat_vec Q, sat_vec m, double h)
{
    double vm = sat__dot(w->v, m);
    sat_vec e = sat__sub(Q, P);
    double ee = sat__dot(e, e);
    if (vm == 0.0 || !(ee > 0.0))
        return; /* along it, or a face of no length: the disks at its ends decide */
    for (int k = 0; k < 2; k++) {
        double rho = k ? w->rho_t : w->rho_s, t = (h + rho) / vm;
        double along = sat__dot(sat__sub(sat__mul(w->v, t), P), e);
        if (!(along >= 0.0 && along <= ee))
            continue;
        if (vm > 0.0) {
            if (!k && t > w->hi)
                w->hi = t;
        } else if (!k) {
            if (t < w->lo)
                w->lo = t;
        } else if (t < w->te) {
            w->te = t;
            w->gap = -(h + rho);
            w->vn = -vm;
            w->normal = sat__neg(m);
            w->face = 1;
        }
    }
}

/* The ray meets the disk about c (a point of M) grown by the radii. The roots of
 * |t v - c|^2 = rho^2 in the cancellation-free form. */
static void round_disk(sweep *w, sat_vec c, double vv)
{
    double b = -sat__dot(c, w->v), cc = sat__dot(c, c);
    for (int k = 0; k < 2; k++) {
        double rho = k ? w->rho_t : w->rho_s, C = cc - rho * rho, disc = b * b - vv * C;
        if (!(disc >= 0.0))
            continue;
        double q = -(b + (b < 0.0 ? -sqrt(disc) : sqrt(disc)));
        double t1 = q / vv, t2 = q != 0.0 ? C / q : t1;
        if (t2 < t1) {
            double x = t1;
            t1 = t2;
            t2 = x;
        }
        if (!k) {
            if (t1 < w->lo)
                w->lo = t1;
            if (t2 > w->hi)
                w->hi = t2;
        } else if (t1 < w->te) {
            w->te = t1;
            w->normal = c; /* the centre; the normal is taken at the end */
            w->face = 0;
        }
    }
}

/* Every face and disk of X + S (see the top): the ray's entry into M grown by rho_t and
 * its times inside M grown by rho_s. */
static void round_features(sweep *w, const rcore *X, const rcore *S)
{
    int nx = rc_vertices(X), ns = rc_vertices(S), ex = rc_edges(X), es = rc_edges(S);
    double vv = sat__dot(w->v, w->v);
    sat_vec sp[2];
    for (int k = 0; k < ns; k++)
        sp[k] = rc_vertex(S, k);
    for (int i = 0; i < ex; i++) {
        double h;
        sat_vec m = rc_edge(X, i, &h), P = rc_vertex(X, i);
        sat_vec Q = rc_vertex(X, i + 1 == nx ? 0 : i + 1);
        for (int k = 0; k < ns; k++)
            round_face(w, sat__add(P, sp[k]), sat__add(Q, sp[k]), m, h + sat__dot(m, sp[k]));
    }
    for (int j = 0; j < es; j++) {
        double h, best = -HUGE_VAL;
        sat_vec m = rc_edge(S, j, &h), top = sat__v(0.0, 0.0);
        for (int i = 0; i < nx; i++) {
            sat_vec x = rc_vertex(X, i);
            double d = sat__dot(m, x);
            if (d > best) {
                best = d;
                top = x;
            }
        }
        round_face(w, sat__add(top, sp[j]), sat__add(top, sp[j + 1 == ns ? 0 : j + 1]), m,
                   h + best);
    }
    for (int i = 0; i < nx; i++) {
        sat_vec x = rc_vertex(X, i);
        for (int k = 0; k < ns; k++)
            round_disk(w, sat__add(x, sp[k]), vv);
    }
}

/* Face f of X + S: X's edges first, each shifted by S's point farthest along its normal,
 * then S's edges at X's vertex farthest along theirs. P to Q is the face (a part of it when
 * an edge of one is parallel to the other), on the line m . x = h. */
static sat_vec rc_face(const rcore *X, const rcore *S, int f, sat_vec *P, sat_vec *Q, double *h)
{
    const rcore *E = X, *O = S;
    int ex = rc_edges(X);
    if (f >= ex) {
        E = S;
        O = X;
        f -= ex;
    }
    int ne = rc_vertices(E), no = rc_vertices(O), top = 0;
    sat_vec m = rc_edge(E, f, h);
    double best = -HUGE_VAL;
    for (int k = 0; k < no; k++) {
        double d = sat__dot(m, rc_vertex(O, k));
        if (d > best) {
            best = d;
            top = k;
        }
    }
    sat_vec o = rc_vertex(O, top);
    *h += best;
    *P = sat__add(rc_vertex(E, f), o);
    *Q = sat__add(rc_vertex(E, f + 1 == ne ? 0 : f + 1), o);
    return m;
}

/* Whether the ray at time t lies on face f itself (not beyond its ends, in a corner, where
 * M grown by rho is round and the mitred polygon of the half-planes too big). */
static int on_face(const sweep *w, const rcore *X, const rcore *S, int f, double t)
{
    sat_vec P, Q;
    double h;
    if (f < 0 || !(fabs(t) < HUGE_VAL))
        return 0;
    rc_face(X, S, f, &P, &Q, &h);
    sat_vec e = sat__sub(Q, P);
    double along = sat__dot(sat__sub(sat__mul(w->v, t), P), e), ee = sat__dot(e, e);
    return ee > 0.0 && along >= 0.0 && along <= ee;
}

/* M's faces as half-planes first (the mitred polygon, a superset of M grown by rho): a
 * miss there is a miss, and when the entry, exit and touch fall on the faces themselves
 * they are exact. Otherwise one of them is at a corner: every face and disk decides. */
static int round_sweep(sweep *w, const sat_shape *a, const sat_shape *b, sat_vec r)
{
    rcore X, S;
    if (a->radius > 0.0) {
        /* M = (B + r) + (-A), -A a point or a segment */
        X.s = b, X.base = r, X.sign = 1.0;
        S.s = a, S.base = sat__v(0.0, 0.0), S.sign = -1.0;
    } else {
        X.s = a, X.base = sat__v(0.0, 0.0), X.sign = -1.0;
        S.s = b, S.base = r, S.sign = 1.0;
    }
    int faces = rc_edges(&X) + rc_edges(&S), f = 0;
    if (X.s->kind == SAT_POLYGON) {
        /* the same faces as rc_face, X's without its generality (a pair test's hot loop) */
        const sat_vec *n = sat__cnormal(X.s);
        sat_vec hs = has_line(S.s) ? sat__seg_half(S.s) : sat__v(0.0, 0.0);
        for (; f < X.s->count; f++) {
            sat_vec m = sat__mul(n[f], X.sign);
            double h = sat__dot(m, sat__add(X.base, S.base)) + sat__support(X.s, f) +
                       fabs(sat__dot(m, hs));
            if (!halfplane(w, m, h, f))
                return SWEEP_NONE;
        }
    }
    for (; f < faces; f++) {
        sat_vec P, Q;
        double h;
        sat_vec m = rc_face(&X, &S, f, &P, &Q, &h);
        if (!halfplane(w, m, h, f))
            return SWEEP_NONE;
    }
    if (!(w->hi > 0.0) || !(w->lo < 1.0))
        return SWEEP_NONE;
    if (w->lo < 0.0) {
        /* Overlapping at the start, perhaps (a deep overlap enters far behind, often at a
         * corner): sat_collide knows at once. */
        w->collided = 1;
        w->hit = sat_collide(a, b, &w->res);
        if (w->hit && w->res.overlap > 0.0)
            return SWEEP_OVERLAP;
    }
    if (!on_face(w, &X, &S, w->lo_id, w->lo) || !on_face(w, &X, &S, w->hi_id, w->hi) ||
        !on_face(w, &X, &S, w->te_id, w->te)) {
        w->lo = HUGE_VAL;
        w->hi = -HUGE_VAL;
        w->te = HUGE_VAL;
        round_features(w, &X, &S);
        if (!(w->lo < w->hi) || !(w->hi > 0.0) || !(w->lo < 1.0))
            return SWEEP_NONE;
    }
    if (w->lo < 0.0)
        return SWEEP_OVERLAP;
    if (!(w->te < HUGE_VAL)) {
        w->te = w->lo; /* cannot happen: pressing in implies touching first */
        w->face = 0;
        w->normal = sat__mul(w->v, w->lo + 1.0);
    }
    if (!w->face) {
        /* from a toward the disk's centre at the touch */
        sat_vec toward = sat__sub(w->normal, sat__mul(w->v, w->te > 0.0 ? w->te : 0.0));
        w->normal = sat__normalize(toward, NULL);
        if (w->normal.x == 0.0 && w->normal.y == 0.0)
            w->normal = sat__normalize(w->v, NULL);
    }
    return SWEEP_CONTACT;
}

/* ---- the swept test ------------------------------------------------------------------ */

int sat_sweep(const sat_shape *a, sat_vec v, const sat_shape *b, sat_sweep_hit *hit)
{
    sat_vec r = sat__offset(a, b), zero = sat__v(0.0, 0.0);
    double tol = sat__touch_tol(a, b), R = a->radius + b->radius;
    sweep w;
    int rc;
    if (!sat__in_range(v.x) || !sat__in_range(v.y))
        return 0; /* NaN and infinities too */
    if (a->kind == SAT_COMPOUND || b->kind == SAT_COMPOUND)
        return sat__compound_sweep(a, v, b, hit);
    flat_init(&w, v, R, tol);
    if (v.x == 0.0 && v.y == 0.0) {
        rc = SWEEP_OVERLAP; /* no motion: only an overlap at the start is a hit */
    } else if (R > tol) {
        rc = round_sweep(&w, a, b, r);
    } else if (no_area(a, b, tol)) {
        rc = flat_crossing(&w, a, b, r, tol);
    } else {
        rc = flat_axes(&w, a, b, r) ? SWEEP_CONTACT : SWEEP_NONE;
        if (rc && (!(w.hi > 0.0) || !(w.lo < 1.0)))
            rc = SWEEP_NONE;
        if (rc && w.lo < 0.0)
            rc = SWEEP_OVERLAP;
    }
    if (rc == SWEEP_NONE)
        return 0;
    memset(hit, 0, sizeof(*hit));
    hit->part_a = hit->part_b = -1;
    hit->dist2 = sat__dot(r, r);
    if (rc == SWEEP_OVERLAP) {
        sat_result res;
        if (w.collided)
            res = w.res;
        if (!(w.collided ? w.hit : sat_collide(a, b, &res)))
            return 0;
        if (res.overlap > 0.0) {
            hit->overlapping = 1;
            hit->result = res;
            return 1;
        }
        /* the core calls it touching: a contact now, if the motion presses in */
        if (!(sat__dot(v, res.normal) > 0.0))
            return 0;
        hit->result.normal = res.normal;
        return 1;
    }
    if (w.te > 0.0) {
        hit->t = w.te;
        /* v * gap / vn, multiplying first: a gap of 115 along v = (200, 0) gives 115 */
        hit->move = w.face ? sat__v(v.x * w.gap / w.vn, v.y * w.gap / w.vn)
                           : sat__v(v.x * w.te, v.y * w.te);
    } else {
        hit->t = 0.0;
        hit->move = zero;
    }
    hit->result.normal = w.normal;
    return 1;
}

/* ---- compounds ------------------------------------------------------------------------ */

/* When box (lo, hi) moving along v first comes within gap of box (blo, bhi) at d: a time in
 * [0, 1], or HUGE_VAL when it does not. */
static double box_entry(sat_vec lo, sat_vec hi, sat_vec v, sat_vec d, sat_vec blo, sat_vec bhi,
                        double gap)
{
    double t0 = 0.0, t1 = 1.0, l[2] = {lo.x, lo.y}, h[2] = {hi.x, hi.y}, u[2] = {v.x, v.y};
    double bl[2] = {d.x + blo.x - gap, d.y + blo.y - gap}, bh[2] = {d.x + bhi.x + gap, d.y + bhi.y + gap};
    for (int k = 0; k < 2; k++) {
        if (u[k] == 0.0) {
            if (h[k] < bl[k] || l[k] > bh[k])
                return HUGE_VAL;
            continue;
        }
        double enter = ((u[k] > 0.0 ? bl[k] : bh[k]) - (u[k] > 0.0 ? h[k] : l[k])) / u[k];
        double leave = ((u[k] > 0.0 ? bh[k] : bl[k]) - (u[k] > 0.0 ? l[k] : h[k])) / u[k];
        t0 = fmax(t0, enter);
        t1 = fmin(t1, leave);
    }
    return t0 <= t1 ? t0 : HUGE_VAL;
}

/* Seams. A concave's parts meet along seams: edges of its parts inside its outline. A seam
 * is no surface of the shape, so its normal is none of the shape's; yet a part's sweep may
 * give it. Where the motion meets the outline at a seam's end (an outline vertex, a tile's
 * inner corner), another part is met at the same time through an outline edge (or the
 * mover's face there), and which of the two part pairs comes first is decided by rounding. So of two touches within the pair's touch tolerance of each other (the
 * distances moved), one whose normal is a seam's (sat__seam_pair, sat_union.c) never takes
 * the place of one whose normal is not, and always gives way to it. */

/* Whether touch h (part i of a, j of b) comes before the best so far, hit (parts bi, bj;
 * *bseam: whether its normal is a seam's, -1 until asked): the earlier, but of two within
 * tol (moving along v, of length vlen), the one whose normal is no seam's. *hseam: h's, -1
 * when not asked. */
static int comes_first(const sat_shape *a, int i, const sat_shape *b, int j,
                       const sat_sweep_hit *h, const sat_sweep_hit *hit, int bi, int bj,
                       int *bseam, double vlen, double tol, int *hseam)
{
    int earlier = h->t < hit->t;
    if (!(fabs(h->t - hit->t) * vlen <= tol))
        return earlier;
    if (*bseam < 0)
        *bseam = sat__seam_pair(a, bi, b, bj, hit->result.normal);
    *hseam = sat__seam_pair(a, i, b, j, h->result.normal);
    if (*hseam != *bseam)
        return !*hseam;
    return earlier;
}

/* A compound: the earliest touch over the part pairs; *pa, *pb: that pair (NULL when they
 * overlap at the start: the union's result, whose parts hit->part_a and part_b name). A
 * part pair whose boxes, the first's moving along v, come no nearer than four times their
 * touch tolerance (and a hair of v) cannot touch, nor one whose boxes meet only after a
 * touch already found. Of two touches within the touch tolerance, one with a seam's normal
 * gives way (comes_first). */
int sat__compound_sweep_pair(const sat_shape *a, sat_vec v, const sat_shape *b,
                             sat_sweep_hit *hit, const sat_shape **pa, const sat_shape **pb)
{
    sat_result res;
    int found = 0;
    sat_vec d = sat__offset(a, b), aown[2], bown[2];
    if (!sat__in_range(v.x) || !sat__in_range(v.y))
        return 0;
    *pa = *pb = NULL;
    if (sat_collide(a, b, &res) && res.overlap > 0.0) {
        memset(hit, 0, sizeof *hit);
        hit->overlapping = 1;
        hit->result = res;
        hit->dist2 = sat__dot(d, d);
        sat_collide_parts(a, b, &res, &hit->part_a, &hit->part_b);
        return 1;
    }
    if (a->kind != SAT_COMPOUND)
        sat__box(a, &aown[0], &aown[1]);
    if (b->kind != SAT_COMPOUND)
        sat__box(b, &bown[0], &bown[1]);
    double hair = 1e-12 * (fabs(v.x) + fabs(v.y));
    double vlen = sat__len(v), tol = sat__touch_tol(a, b);
    int bi = 0, bj = 0, bseam = -1, hseam;
    for (int i = 0; i < sat__nparts(a); i++) {
        const sat_shape *x = sat__part_of(a, i);
        sat_vec xlo, xhi;
        sat__part_box(a, i, aown, &xlo, &xhi);
        for (int j = 0; j < sat__nparts(b); j++) {
            const sat_shape *y = sat__part_of(b, j);
            sat_sweep_hit h;
            sat_vec ylo, yhi;
            sat__part_box(b, j, bown, &ylo, &yhi);
            double enter = box_entry(xlo, xhi, v, sat__offset(x, y), ylo, yhi,
                                     sat__part_gap(x, y) + hair);
            if (!(enter <= 1.0) || (found && enter > hit->t) || !sat_sweep(x, v, y, &h))
                continue;
            if (h.overlapping) { /* within the union's tolerance: a touch now */
                h.overlapping = 0;
                h.t = 0.0;
                h.move = sat__v(0.0, 0.0);
                h.result.overlap = 0.0;
                h.result.mtv = sat__v(0.0, 0.0);
                h.result.a_in_b = h.result.b_in_a = 0;
            }
            hseam = -1;
            if (!found || comes_first(a, i, b, j, &h, hit, bi, bj, &bseam, vlen, tol, &hseam)) {
                *hit = h;
                hit->part_a = a->kind == SAT_COMPOUND ? i : -1;
                hit->part_b = b->kind == SAT_COMPOUND ? j : -1;
                *pa = x;
                *pb = y;
                found = 1;
                bi = i;
                bj = j;
                bseam = hseam;
            }
        }
    }
    if (found)
        hit->dist2 = sat__dot(d, d);
    return found;
}

int sat__compound_sweep(const sat_shape *a, sat_vec v, const sat_shape *b, sat_sweep_hit *hit)
{
    const sat_shape *pa, *pb;
    return sat__compound_sweep_pair(a, v, b, hit, &pa, &pb);
}
