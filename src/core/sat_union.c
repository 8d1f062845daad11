/*
 * sat_union.c - compounds' pair tests: the exact MTV of the union of their parts, sat_test
 * over part pairs, and containment (sat__compound_test, sat__compound_collide; sat_collide.c
 * dispatches a pair with a compound here). The part pairs are tested by the functions the
 * caller passes (sat_collide.c's sat_test and sat_collide), so that this file calls no
 * other: the core's files call each other one way.
 */
#include <stdlib.h>
#include <string.h>

#include "sat_internal.h"

/* Distance from p to the segment a-b. */
static double seg_point_dist(sat_vec p, sat_vec a, sat_vec b)
{
    sat_vec ab = sat__sub(b, a), ap = sat__sub(p, a);
    double l2 = sat__dot(ab, ab), t = l2 > 0.0 ? sat__dot(ap, ab) / l2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return sat__len(sat__sub(ap, sat__mul(ab, t)));
}

/* ---- compounds: the union's pair tests ----------------------------------------------------------------------- *
 * In the frame of a's position (b's parts' offsets from it are exact, from the
 * double-double positions). For part i of a and part j of b, D_ij = core(b_j) (+) -core(a_i)
 * grown by r_i + r_j is the set of translations t after which a_i + t meets b_j: a convex
 * polygon (the cores' Minkowski sum) with a radius. a overlaps b after t exactly when t is
 * inside some D_ij by more than the touch tolerance, so the MTV is the shortest t on the
 * boundary of the union of the D_ij that lies inside none: the nearest point of some edge or
 * arc, or a crossing of two boundaries. */

typedef struct mdiff {
    int first, n;  /* its core's vertices in the arena, counter-clockwise, then the n
                    * outward unit normals of its edges (vertex k to k + 1) */
    double r;
    sat_vec lo, hi; /* its box, radius included */
} mdiff;

typedef struct arena {
    sat_vec *v;
    mdiff *d;
    int nv, cv, nd, cd, failed;
    sat_vec vbuf[SAT_COMPOUND_STACK];
    mdiff dbuf[64];
} arena;

static void arena_init(arena *ar)
{
    ar->v = ar->vbuf;
    ar->d = ar->dbuf;
    ar->nv = ar->nd = 0;
    ar->cv = SAT_COMPOUND_STACK;
    ar->cd = 64;
    ar->failed = 0;
}

static void arena_free(arena *ar)
{
    if (ar->v != ar->vbuf)
        free(ar->v);
    if (ar->d != ar->dbuf)
        free(ar->d);
}

/* Room for k more vertices and one more difference (the stack first, then the heap). */
static int arena_room(arena *ar, int k)
{
    if (ar->nv + k > ar->cv) {
        int cap = 2 * (ar->nv + k);
        sat_vec *v = malloc((size_t)cap * sizeof *v);
        if (v == NULL)
            return ar->failed = 1, 0;
        memcpy(v, ar->v, (size_t)ar->nv * sizeof *v);
        if (ar->v != ar->vbuf)
            free(ar->v);
        ar->v = v;
        ar->cv = cap;
    }
    if (ar->nd + 1 > ar->cd) {
        int cap = 2 * ar->cd;
        mdiff *d = malloc((size_t)cap * sizeof *d);
        if (d == NULL)
            return ar->failed = 1, 0;
        memcpy(d, ar->d, (size_t)ar->nd * sizeof *d);
        if (ar->d != ar->dbuf)
            free(ar->d);
        ar->d = d;
        ar->cd = cap;
    }
    return 1;
}

static int core_count(const sat_shape *x)
{
    if (x->kind == SAT_POLYGON)
        return x->count;
    return sat__has_segment(x) && sat__seg_len(x) > 0.0 ? 2 : 1;
}

/* x's core vertices at offset c, counter-clockwise, scaled by sign (-1: negated). */
static int core_points(const sat_shape *x, sat_vec c, double sign, sat_vec *out)
{
    if (x->kind == SAT_POLYGON) {
        const sat_vec *o = sat__coff(x);
        for (int i = 0; i < x->count; i++)
            out[i] = sat__mul(sat__add(c, o[i]), sign);
        return x->count;
    }
    if (core_count(x) == 2) {
        sat_vec h = sat__seg_half(x);
        out[0] = sat__mul(sat__sub(c, h), sign);
        out[1] = sat__mul(sat__add(c, h), sign);
        return 2;
    }
    out[0] = sat__mul(c, sign);
    return 1;
}

static int lowest(const sat_vec *p, int n)
{
    int k = 0;
    for (int i = 1; i < n; i++)
        if (p[i].y < p[k].y || (p[i].y == p[k].y && p[i].x < p[k].x))
            k = i;
    return k;
}

static int half_of(sat_vec v)
{
    return v.y < 0.0 || (v.y == 0.0 && v.x < 0.0);
}

static int angle_less(sat_vec u, sat_vec v)
{
    int hu = half_of(u), hv = half_of(v);
    return hu != hv ? hu < hv : sat__cross(u, v) > 0.0;
}

/* The Minkowski sum of two convex counter-clockwise polygons (1 or 2 points included), by
 * merging their edges in angle order from the lowest vertices: at most np + nq points. */
static int minkowski(const sat_vec *P, int np, const sat_vec *Q, int nq, sat_vec *out)
{
    int i0 = lowest(P, np), j0 = lowest(Q, nq), i = 0, j = 0, k = 0;
    while (i < np || j < nq) {
        out[k++] = sat__add(P[(i0 + i) % np], Q[(j0 + j) % nq]);
        if (k >= np + nq)
            break;
        if (i == np || np == 1) {
            j++;
        } else if (j == nq || nq == 1) {
            i++;
        } else {
            sat_vec eP = sat__sub(P[(i0 + i + 1) % np], P[(i0 + i) % np]);
            sat_vec eQ = sat__sub(Q[(j0 + j + 1) % nq], Q[(j0 + j) % nq]);
            if (angle_less(eP, eQ)) {
                i++;
            } else if (angle_less(eQ, eP)) {
                j++;
            } else {
                i++;
                j++;
            }
        }
    }
    return k;
}

/* Drops repeated points; a sum with no area (parallel segments, points) becomes the segment
 * between its extremes, or a point. */
static int tidy(sat_vec *p, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || p[i].x != p[m - 1].x || p[i].y != p[m - 1].y)
            p[m++] = p[i];
    while (m > 1 && p[m - 1].x == p[0].x && p[m - 1].y == p[0].y)
        m--;
    if (m < 3)
        return m;
    double ext = 0.0, a2 = 0.0;
    for (int i = 0; i < m; i++) {
        ext = fmax(ext, sat__len(sat__sub(p[i], p[0])));
        a2 += sat__cross(sat__sub(p[i], p[0]), sat__sub(p[(i + 1) % m], p[0]));
    }
    if (fabs(a2) > 1e-10 * ext * ext)
        return m;
    int e1 = 0, e2 = 0;
    double far = -1.0;
    for (int i = 0; i < m; i++) {
        double d = sat__len(sat__sub(p[i], p[0]));
        if (d > far)
            far = d, e1 = i;
    }
    far = -1.0;
    for (int i = 0; i < m; i++) {
        double d = sat__len(sat__sub(p[i], p[e1]));
        if (d > far)
            far = d, e2 = i;
    }
    sat_vec a = p[e1], b = p[e2];
    p[0] = a;
    p[1] = b;
    return far > 0.0 ? 2 : 1;
}

/* Adds D for parts x (of a, at offset ca) and y (of b, at offset cb). */
static int add_diff(arena *ar, const sat_shape *x, sat_vec ca, const sat_shape *y, sat_vec cb)
{
    int nx = core_count(x), ny = core_count(y);
    if (!arena_room(ar, 2 * (nx + ny)))
        return 0;
    sat_vec *P = ar->v + ar->nv, *Q = P + ny, *out = Q + nx;
    core_points(y, cb, 1.0, P);
    core_points(x, ca, -1.0, Q);
    int k = tidy(out, minkowski(P, ny, Q, nx, out));
    memmove(P, out, (size_t)k * sizeof *P);
    mdiff *d = &ar->d[ar->nd++];
    d->first = ar->nv;
    d->n = k;
    d->r = x->radius + y->radius;
    d->lo = d->hi = P[0];
    for (int i = 0; i < k; i++) {
        sat_vec e = sat__sub(P[(i + 1) % k], P[i]);
        P[k + i] = sat__normalize(sat__v(e.y, -e.x), NULL);
        d->lo = sat__v(fmin(d->lo.x, P[i].x), fmin(d->lo.y, P[i].y));
        d->hi = sat__v(fmax(d->hi.x, P[i].x), fmax(d->hi.y, P[i].y));
    }
    d->lo = sat__v(d->lo.x - d->r, d->lo.y - d->r);
    d->hi = sat__v(d->hi.x + d->r, d->hi.y + d->r);
    ar->nv += 2 * k;
    return 1;
}

/* How deep t is inside D (its radius less its signed distance from the core). */
static double depth(const sat_vec *v, int n, double r, sat_vec t)
{
    if (n == 1)
        return r - sat__len(sat__sub(t, v[0]));
    if (n == 2)
        return r - seg_point_dist(t, v[0], v[1]);
    const sat_vec *nm = v + n;
    double smax = -HUGE_VAL;
    for (int i = 0; i < n; i++) {
        double s = sat__dot(nm[i], sat__sub(t, v[i]));
        smax = s > smax ? s : smax;
    }
    if (smax <= 0.0)
        return r - smax;
    if (smax > r)
        return r - smax; /* beyond one edge's line by more than r: apart, by at least that */
    double m = HUGE_VAL;
    for (int i = 0; i < n; i++)
        m = fmin(m, seg_point_dist(t, v[i], v[(i + 1) % n]));
    return r - m;
}

/* A piece of D's boundary: a segment p0 -> p1 with outward normal n, or an arc about c of
 * radius r from normal n0 counter-clockwise to n1 (full: the whole circle). dist: its
 * least distance from the origin (none of its points is nearer). */
typedef struct piece {
    int arc, full;
    sat_vec p0, p1, n, c, n0, n1;
    double r, dist, far; /* far: its greatest distance from the origin */
    sat_vec lo, hi;      /* its box */
} piece;

/* Pieces 2k (edge k) and 2k + 1 (the arc at vertex k + 1, or its corner when r is 0). */
static int piece_count(const mdiff *d)
{
    return d->n == 1 ? 1 : 2 * d->n;
}

static sat_vec nearest_on(sat_vec p0, sat_vec p1)
{
    sat_vec e = sat__sub(p1, p0);
    double l2 = sat__dot(e, e), t = l2 > 0.0 ? -sat__dot(p0, e) / l2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return sat__add(p0, sat__mul(e, t));
}

static void get_piece(const sat_vec *v, const mdiff *d, int idx, piece *pc)
{
    int n = d->n;
    pc->r = d->r;
    if (n == 1) {
        pc->arc = 1;
        pc->full = 1;
        pc->c = v[0];
        pc->n0 = pc->n1 = sat__v(1.0, 0.0);
        pc->dist = fmax(0.0, sat__len(v[0]) - d->r);
        pc->lo = sat__v(v[0].x - d->r, v[0].y - d->r);
        pc->hi = sat__v(v[0].x + d->r, v[0].y + d->r);
        pc->far = sat__len(v[0]) + d->r;
        return;
    }
    int k = idx / 2;
    const sat_vec *nm = v + n;
    if (idx % 2 == 0) {
        pc->arc = 0;
        pc->n = nm[k];
        pc->p0 = sat__add(v[k], sat__mul(pc->n, d->r));
        pc->p1 = sat__add(v[(k + 1) % n], sat__mul(pc->n, d->r));
        pc->dist = sat__len(nearest_on(pc->p0, pc->p1));
        pc->lo = sat__v(fmin(pc->p0.x, pc->p1.x), fmin(pc->p0.y, pc->p1.y));
        pc->hi = sat__v(fmax(pc->p0.x, pc->p1.x), fmax(pc->p0.y, pc->p1.y));
        pc->far = fmax(sat__len(pc->p0), sat__len(pc->p1));
        return;
    }
    pc->arc = 1;
    pc->full = 0;
    pc->c = v[(k + 1) % n];
    pc->n0 = nm[k];
    pc->n1 = nm[(k + 1) % n];
    pc->dist = fmax(0.0, sat__len(pc->c) - d->r);
    pc->lo = sat__v(pc->c.x - d->r, pc->c.y - d->r);
    pc->hi = sat__v(pc->c.x + d->r, pc->c.y + d->r);
    pc->far = sat__len(pc->c) + d->r;
}

static int in_arc(const piece *pc, sat_vec dir)
{
    return pc->full || (sat__cross(pc->n0, dir) >= 0.0 && sat__cross(dir, pc->n1) >= 0.0);
}

typedef struct search {
    arena *ar;
    double tol, best;
    double floor; /* no candidate nearer is outside the deepest part pair's difference */
    int last;     /* the difference that refused the last candidate: asked first */
    sat_vec at;
} search;

/* Takes c when it is nearer than the best so far and inside no difference beyond the touch
 * tolerance. A c on the common boundary of two differences is taken: a moved there touches
 * both parts and overlaps neither (the definition of the MTV; with shapes of some area the
 * differences of neighbouring parts overlap, so an internal seam is never such a
 * boundary). */
static int refuses(const search *sr, int k, sat_vec c)
{
    const mdiff *d = &sr->ar->d[k];
    if (c.x < d->lo.x || c.x > d->hi.x || c.y < d->lo.y || c.y > d->hi.y)
        return 0;
    return depth(sr->ar->v + d->first, d->n, d->r, c) > sr->tol;
}

static void consider(search *sr, sat_vec c)
{
    double norm = sat__len(c);
    if (!(norm < sr->best) || norm < sr->floor)
        return;
    if (refuses(sr, sr->last, c))
        return;
    for (int k = 0; k < sr->ar->nd; k++) {
        if (k != sr->last && refuses(sr, k, c)) {
            sr->last = k;
            return;
        }
    }
    sr->best = norm;
    sr->at = c;
}

/* A candidate: a point of some piece, and its distance from the origin. */
typedef struct cand {
    sat_vec c;
    double norm;
} cand;

static void add_cand(cand *out, int *k, sat_vec c)
{
    out[*k].c = c;
    out[*k].norm = sat__len(c);
    (*k)++;
}

/* A piece's own candidates (at most 3): the nearest point of a segment (and its ends, where
 * it meets an arc), of an arc, or a corner. */
static void piece_points(const piece *pc, cand *out, int *k)
{
    if (!pc->arc) {
        add_cand(out, k, nearest_on(pc->p0, pc->p1));
        if (pc->r > 0.0) {
            add_cand(out, k, pc->p0);
            add_cand(out, k, pc->p1);
        }
        return;
    }
    if (pc->r > 0.0) {
        sat_vec dir = sat__normalize(sat__neg(pc->c), NULL);
        if (dir.x == 0.0 && dir.y == 0.0)
            dir = pc->full ? sat__v(1.0, 0.0) : pc->n0;
        if (in_arc(pc, dir))
            add_cand(out, k, sat__add(pc->c, sat__mul(dir, pc->r)));
    } else {
        add_cand(out, k, pc->c);
    }
}


static int on_piece_arc(const piece *pc, sat_vec x)
{
    return !pc->arc || in_arc(pc, sat__normalize(sat__sub(x, pc->c), NULL));
}

/* The points where two pieces cross (at most 2). */
static int cross_pieces(const piece *a, const piece *b, sat_vec x[2])
{
    if (a->arc && !(a->r > 0.0))
        return 0;
    if (b->arc && !(b->r > 0.0))
        return 0;
    int k = 0;
    if (!a->arc && !b->arc) {
        sat_vec d1 = sat__sub(a->p1, a->p0), d2 = sat__sub(b->p1, b->p0);
        sat_vec w = sat__sub(b->p0, a->p0);
        double den = sat__cross(d1, d2);
        if (den == 0.0)
            return 0;
        double t = sat__cross(w, d2) / den, u = sat__cross(w, d1) / den;
        if (t >= 0.0 && t <= 1.0 && u >= 0.0 && u <= 1.0)
            x[k++] = sat__add(a->p0, sat__mul(d1, t));
        return k;
    }
    if (a->arc && b->arc) {
        sat_vec d = sat__sub(b->c, a->c);
        double L = sat__len(d);
        if (!(L > 0.0) || L > a->r + b->r || L < fabs(a->r - b->r))
            return 0;
        double al = (a->r * a->r - b->r * b->r + L * L) / (2.0 * L);
        double h = sqrt(fmax(0.0, a->r * a->r - al * al));
        sat_vec m = sat__add(a->c, sat__mul(d, al / L)), pp = sat__mul(sat__perp(d), h / L);
        sat_vec c[2];
        c[0] = sat__add(m, pp);
        c[1] = sat__sub(m, pp);
        for (int i = 0; i < 2; i++)
            if (on_piece_arc(a, c[i]) && on_piece_arc(b, c[i]))
                x[k++] = c[i];
        return k;
    }
    const piece *s = a->arc ? b : a, *c = a->arc ? a : b;
    sat_vec d = sat__sub(s->p1, s->p0), f = sat__sub(s->p0, c->c);
    double A = sat__dot(d, d), B = 2.0 * sat__dot(f, d), C = sat__dot(f, f) - c->r * c->r;
    double disc = B * B - 4.0 * A * C;
    if (!(A > 0.0) || disc < 0.0)
        return 0;
    double sq = sqrt(disc);
    double ts[2];
    ts[0] = (-B - sq) / (2.0 * A);
    ts[1] = (-B + sq) / (2.0 * A);
    for (int i = 0; i < 2; i++) {
        if (ts[i] < 0.0 || ts[i] > 1.0)
            continue;
        sat_vec p = sat__add(s->p0, sat__mul(d, ts[i]));
        if (on_piece_arc(c, p))
            x[k++] = p;
    }
    return k;
}

/* Crossings of two differences' boundaries (pieces pa[0, na) and pb[0, nb)), skipping pieces
 * that come no nearer than the best so far (a crossing lies on both). */
static void crossing_candidates(search *sr, const piece *pa, int na, const piece *pb, int nb)
{
    for (int i = 0; i < na; i++) {
        if (!(pa[i].dist < sr->best))
            continue;
        for (int j = 0; j < nb; j++) {
            sat_vec x[2];
            if (!(pb[j].dist < sr->best) || pa[i].hi.x < pb[j].lo.x || pb[j].hi.x < pa[i].lo.x ||
                pa[i].hi.y < pb[j].lo.y || pb[j].hi.y < pa[i].lo.y)
                continue;
            int k = cross_pieces(&pa[i], &pb[j], x);
            for (int m = 0; m < k; m++)
                consider(sr, x[m]);
        }
    }
}

/* The boxes of a shape's parts about their positions: a compound's kept in its table, and
 * a shape that is its own part has its box derived once, when the boxes are taken, not for
 * every part pair. */
typedef struct part_box {
    sat_vec lo, hi;
} part_box;

typedef struct part_boxes {
    const sat_shape *s;
    part_box own; /* the shape's own box, when it is its own part */
} part_boxes;

static part_boxes boxes_of(const sat_shape *s)
{
    part_boxes pb;
    pb.s = s;
    if (s->kind == SAT_COMPOUND)
        pb.own.lo = pb.own.hi = sat__v(0.0, 0.0);
    else
        sat__box(s, &pb.own.lo, &pb.own.hi);
    return pb;
}

static part_box box_of(const part_boxes *pb, int i)
{
    if (pb->s->kind != SAT_COMPOUND)
        return pb->own;
    const sat_vec *t = sat__cpart_table(pb->s, i);
    part_box b;
    b.lo = t[1];
    b.hi = t[2];
    return b;
}

/* Distance from the origin to the box of D_ij (a lower bound of its distance): x's box xb at
 * offset ca, y's at cb. */
static double box_reach(const part_box *xb, sat_vec ca, const part_box *yb, sat_vec cb)
{
    sat_vec xlo = xb->lo, xhi = xb->hi, ylo = yb->lo, yhi = yb->hi;
    double lx = (cb.x + ylo.x) - (ca.x + xhi.x);
    double hx = (cb.x + yhi.x) - (ca.x + xlo.x);
    double ly = (cb.y + ylo.y) - (ca.y + xhi.y);
    double hy = (cb.y + yhi.y) - (ca.y + xlo.y);
    double dx = lx > 0.0 ? lx : hx < 0.0 ? -hx : 0.0;
    double dy = ly > 0.0 ? ly : hy < 0.0 ? -hy : 0.0;
    return sqrt(dx * dx + dy * dy);
}

/* Whether two differences' boxes meet (their boundaries can cross only then). */
static int boxes_cross(const mdiff *a, const mdiff *b)
{
    return !(a->hi.x < b->lo.x || b->hi.x < a->lo.x || a->hi.y < b->lo.y || b->hi.y < a->lo.y);
}

#define SAT__PIECES_STACK 192

static void sift_down(cand *h, int n, int i)
{
    for (;;) {
        int m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && h[l].norm < h[m].norm)
            m = l;
        if (r < n && h[r].norm < h[m].norm)
            m = r;
        if (m == i)
            return;
        cand t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The pieces of every difference, built once; their own candidates in order of distance, the
 * first inside no difference being the best of them; then the crossings of pieces nearer
 * than that. Returns 0 when out of memory. */
static int search_pieces(search *sr)
{
    const arena *ar = sr->ar;
    piece pstack[SAT__PIECES_STACK], *pcs = pstack;
    cand cstack[3 * SAT__PIECES_STACK], *cs = cstack;
    int total = 0, nc = 0;
    for (int k = 0; k < ar->nd; k++)
        total += piece_count(&ar->d[k]);
    if (total > SAT__PIECES_STACK) {
        pcs = malloc((size_t)total * sizeof *pcs);
        cs = malloc((size_t)(3 * total) * sizeof *cs);
        if (pcs == NULL || cs == NULL) {
            free(pcs);
            free(cs);
            return 0;
        }
    }
    for (int k = 0, at = 0; k < ar->nd; k++) {
        const mdiff *d = &ar->d[k];
        for (int idx = 0; idx < piece_count(d); idx++, at++) {
            get_piece(ar->v + d->first, d, idx, &pcs[at]);
            if (pcs[at].far >= sr->floor)
                piece_points(&pcs[at], cs, &nc);
        }
    }
    /* the nearest first, from a binary heap (most of the nearest are inside another
     * difference; the rest is then pruned by distance) */
    for (int i = nc / 2 - 1; i >= 0; i--)
        sift_down(cs, nc, i);
    for (int n = nc; n > 0 && cs[0].norm < sr->best;) {
        consider(sr, cs[0].c);
        cs[0] = cs[--n];
        sift_down(cs, n, 0);
    }
    /* the pieces that may still cross nearer than that (corners cross nothing), kept in
     * place, each difference's after the previous one's; then the pairs of differences */
    int *first = (int *)(void *)cs, kept = 0; /* cs is free now: room for nd + 1 ints */
    for (int k = 0, at = 0; k < ar->nd; k++) {
        first[k] = kept;
        for (int idx = 0; idx < piece_count(&ar->d[k]); idx++, at++)
            if (pcs[at].dist < sr->best && pcs[at].far >= sr->floor &&
                !(pcs[at].arc && !(pcs[at].r > 0.0)))
                pcs[kept++] = pcs[at];
    }
    first[ar->nd] = kept;
    for (int k = 0; k < ar->nd; k++)
        for (int m = k + 1; m < ar->nd; m++)
            if (first[k] < first[k + 1] && first[m] < first[m + 1] &&
                boxes_cross(&ar->d[k], &ar->d[m]))
                crossing_candidates(sr, pcs + first[k], first[k + 1] - first[k],
                                    pcs + first[m], first[m + 1] - first[m]);
    if (pcs != pstack) {
        free(pcs);
        free(cs);
    }
    return 1;
}

/* The shortest t out of the union, over the part pairs whose differences come within
 * reach: those whose boxes are nearer than `reach` (first a guess: twice the deepest part
 * pair's overlap), more added until none is left nearer than the best. No t shorter than
 * the deepest part pair's overlap leaves that pair's difference: those candidates are not
 * checked. Returns 0 when the arena ran out of memory. */
static int union_mtv(const sat_shape *A, const sat_shape *B, double tol, sat_vec deepest_mtv,
                     double deepest, sat_vec *t)
{
    int na = sat__nparts(A), nb = sat__nparts(B);
    part_boxes AB = boxes_of(A), BB = boxes_of(B);
    double reach = 2.0 * deepest + tol;
    arena ar;
    search sr;
    arena_init(&ar);
    for (;;) {
        ar.nv = ar.nd = 0;
        double beyond = HUGE_VAL;
        for (int i = 0; i < na; i++) {
            const sat_shape *x = sat__part_of(A, i);
            sat_vec ca = sat__offset(A, x);
            part_box xb = box_of(&AB, i);
            for (int j = 0; j < nb; j++) {
                const sat_shape *y = sat__part_of(B, j);
                sat_vec cb = sat__offset(A, y);
                part_box yb = box_of(&BB, j);
                double lb = box_reach(&xb, ca, &yb, cb);
                if (lb > reach) {
                    beyond = fmin(beyond, lb);
                    continue;
                }
                if (!add_diff(&ar, x, ca, y, cb)) {
                    arena_free(&ar);
                    return 0;
                }
            }
        }
        sr.ar = &ar;
        sr.tol = tol;
        sr.best = HUGE_VAL;
        sr.floor = deepest - 1e-9 * (A->bound + B->bound) - tol;
        sr.last = 0;
        sr.at = sat__v(0.0, 0.0);
        /* the deepest pair's own MTV, when it leaves every other difference, is the least
         * there can be */
        sr.floor = -HUGE_VAL;
        consider(&sr, deepest_mtv);
        sr.floor = deepest - 1e-9 * (A->bound + B->bound) - tol;
        if (sr.best < HUGE_VAL) {
            *t = sr.at;
            arena_free(&ar);
            return 1;
        }
        if (!search_pieces(&sr)) {
            arena_free(&ar);
            return 0;
        }
        if (sr.best <= beyond || !(beyond < HUGE_VAL)) {
            *t = sr.at;
            arena_free(&ar);
            return sr.best < HUGE_VAL;
        }
        reach = sr.best < HUGE_VAL ? sr.best : 2.0 * fmax(beyond, reach);
    }
}

/* The boxes of x and y (parts; their boxes xb and yb) come within tol. */
static int boxes_meet(const sat_shape *x, const part_box *xb, const sat_shape *y,
                      const part_box *yb, double tol)
{
    sat_vec d = sat__offset(x, y), xlo = xb->lo, xhi = xb->hi, ylo = yb->lo, yhi = yb->hi;
    return !(d.x + ylo.x - xhi.x > tol || xlo.x - (d.x + yhi.x) > tol ||
             d.y + ylo.y - xhi.y > tol || xlo.y - (d.y + yhi.y) > tol);
}

int sat__compound_test(const sat_shape *a, const sat_shape *b, const sat__pair_fns *fns)
{
    double tol = sat__touch_tol(a, b);
    part_boxes ab = boxes_of(a), bb = boxes_of(b);
    for (int i = 0; i < sat__nparts(a); i++) {
        const sat_shape *x = sat__part_of(a, i);
        part_box xb = box_of(&ab, i);
        for (int j = 0; j < sat__nparts(b); j++) {
            const sat_shape *y = sat__part_of(b, j);
            part_box yb = box_of(&bb, j);
            if (boxes_meet(x, &xb, y, &yb, tol) && fns->test(x, y))
                return 1;
        }
    }
    return 0;
}

/* Whether x (a part) is inside a concave shape's outline: its position inside, and no edge
 * of the outline entering it beyond the touch tolerance. */
static int in_outline(const sat_shape *x, const part_box *xb, const sat_shape *s,
                      const sat__pair_fns *fns)
{
    int N = sat__outline_n(s), in = 0;
    const sat_vec *o = sat__coutline_world(s);
    sat_vec p = sat__offset(s, x);
    for (int i = 0, j = N - 1; i < N; j = i++) {
        if ((o[i].y > p.y) != (o[j].y > p.y) &&
            p.x < o[j].x + (p.y - o[j].y) * (o[i].x - o[j].x) / (o[i].y - o[j].y))
            in = !in;
    }
    if (!in)
        return 0;
    sat_vec buf[(sizeof(sat_shape) + 4 * sizeof(sat_vec)) / sizeof(sat_vec) + 1];
    sat_vec xlo = xb->lo, xhi = xb->hi;
    sat_shape *g = (sat_shape *)(void *)buf;
    double tol = sat__touch_tol(x, s);
    for (int i = 0; i < N; i++) {
        sat_vec e0 = o[i], e1 = o[(i + 1) % N];
        sat_vec lo = sat__v(fmin(e0.x, e1.x), fmin(e0.y, e1.y));
        sat_vec hi = sat__v(fmax(e0.x, e1.x), fmax(e0.y, e1.y));
        if (lo.x > p.x + xhi.x || hi.x < p.x + xlo.x || lo.y > p.y + xhi.y || hi.y < p.y + xlo.y)
            continue;
        if (sat_segment_init(g, e0.x, e0.y, e1.x, e1.y) != SAT_OK)
            continue;
        g->pos_lo = s->pos_lo;
        sat__dd_add(&g->pos.x, &g->pos_lo.x, s->pos.x);
        sat__dd_add(&g->pos.y, &g->pos_lo.y, s->pos.y);
        sat_result r;
        if (fns->collide(x, g, &r) && r.overlap > tol)
            return 0;
    }
    return 1;
}

/* Whether part x is inside the shape s: its outline for a concave one, else one part (a
 * convex shape is its own part). */
static int part_inside(const sat_shape *x, const part_box *xb, const part_boxes *sb,
                       double tol, const sat__pair_fns *fns)
{
    const sat_shape *s = sb->s;
    if (s->kind == SAT_COMPOUND && sat_compound_form(s) == SAT_FORM_CONCAVE)
        return in_outline(x, xb, s, fns);
    for (int j = 0; j < sat__nparts(s); j++) {
        const sat_shape *y = sat__part_of(s, j);
        part_box yb = box_of(sb, j);
        sat_result r;
        if (boxes_meet(x, xb, y, &yb, tol) && fns->collide(x, y, &r) && r.a_in_b)
            return 1;
    }
    return 0;
}

static int all_inside(const part_boxes *ab, const part_boxes *bb, double tol,
                      const sat__pair_fns *fns)
{
    for (int i = 0; i < sat__nparts(ab->s); i++) {
        part_box xb = box_of(ab, i);
        if (!part_inside(sat__part_of(ab->s, i), &xb, bb, tol, fns))
            return 0;
    }
    return 1;
}

int sat__compound_collide(const sat_shape *a, const sat_shape *b, sat_result *r,
                          const sat__pair_fns *fns)
{
    double tol = sat__touch_tol(a, b);
    part_boxes ab = boxes_of(a), bb = boxes_of(b);
    int any = 0, deep = 0, single = 1;
    sat_result first, deepest;
    for (int i = 0; i < sat__nparts(a); i++) {
        const sat_shape *x = sat__part_of(a, i);
        part_box xb = box_of(&ab, i);
        for (int j = 0; j < sat__nparts(b); j++) {
            const sat_shape *y = sat__part_of(b, j);
            part_box yb = box_of(&bb, j);
            sat_result pr;
            if (!boxes_meet(x, &xb, y, &yb, tol) || !fns->collide(x, y, &pr))
                continue;
            if (!any)
                first = pr;
            any = 1;
            if (pr.overlap > 0.0) {
                if (deep)
                    single = 0;
                if (!deep || pr.overlap > deepest.overlap)
                    deepest = pr;
                deep = 1;
            }
        }
    }
    if (!any)
        return 0;
    if (!deep) {
        *r = first;
    } else {
        /* one part pair overlapping, and every other difference's box beyond its MTV: that
         * MTV is the union's */
        if (single) {
            int within = 0;
            for (int i = 0; i < sat__nparts(a); i++) {
                const sat_shape *x = sat__part_of(a, i);
                sat_vec ca = sat__offset(a, x);
                part_box xb = box_of(&ab, i);
                for (int j = 0; j < sat__nparts(b); j++) {
                    const sat_shape *y = sat__part_of(b, j);
                    part_box yb = box_of(&bb, j);
                    if (box_reach(&xb, ca, &yb, sat__offset(a, y)) <= deepest.overlap + tol)
                        within++;
                }
            }
            single = within == 1;
        }
        if (single) {
            *r = deepest;
        } else {
            sat_vec t;
            if (!union_mtv(a, b, tol, deepest.mtv, deepest.overlap, &t)) {
                *r = deepest; /* no memory: the deepest pair's, the best known */
            } else {
                double len;
                sat_vec n = sat__normalize(t, &len);
                r->overlap = len;
                r->normal = sat__v(-n.x + 0.0, -n.y + 0.0);
                r->mtv = t;
                if (n.x == 0.0 && n.y == 0.0) {
                    r->overlap = 0.0;
                    r->normal = deepest.normal;
                    r->mtv = sat__v(0.0, 0.0);
                }
            }
        }
    }
    r->a_in_b = all_inside(&ab, &bb, tol, fns);
    r->b_in_a = all_inside(&bb, &ab, tol, fns);
    return 1;
}
