/*
 * sat_union.c - compounds' pair tests: the exact MTV of the union of their parts, sat_test
 * over part pairs, and containment (sat__compound_test, sat__compound_collide; sat_collide.c
 * dispatches a pair with a compound here). The part pairs are tested by the functions the
 * caller passes (sat_collide.c's sat_test and sat__part_collide), so that this file calls no
 * other: the core's files call each other one way.
 *
 * For a port, the union's MTV (sat__compound_collide, union_mtv) in short: every part pair
 * is tested (boxes first); no pair overlapping: the first touching pair's result; one pair
 * overlapping and no other pair's difference box within its MTV: that pair's result. Else
 * the search, in rounds of growing reach (2x the deepest overlap, then 4x the nearest box
 * left out, never beyond the boxes' exit; the exit at once when at least half of the part
 * pairs are within the first reach): the Minkowski differences D_ij of the part pairs
 * in reach are built (part i of a, j of b, in (i, j) order); in round 0 the deepest pair's
 * own MTV is the answer when no difference refuses it. Else a grid over the differences'
 * boxes (each cell's differences deepest first, in 8 classes, index order within a class),
 * the differences visited by their boxes' distance (32 classes, index order within one);
 * each boundary piece (edge, arc or corner) within the annulus floor <= |t| <= best is kept
 * when no other difference covers it (segments by chords cut from their parameter range,
 * arcs by their hull points); kept pieces give their own points and, swept by their boxes'
 * left sides (ties: the piece's index), their crossings; each candidate is taken when it is
 * nearer than the best and no difference holds it deeper than its own part pair's touch
 * tolerance (the pair's, never the whole compounds': the union touches or overlaps exactly
 * where a part pair does by its own test; the gate of every part pair is sat__part_gap, in
 * every compound path); ties between equally near candidates by the rank the exhaustive
 * search (the C tests' oracle) would give them (see consider). The answer is the exhaustive search's, bit for bit.
 *
 * The outlines' facts (issue 25 item 8): a concave compound's part vertices are matched to
 * its outline points (within a quarter of the merge distance; the next outline point asked
 * first), and a part edge that another part has reversed is a diagonal. An edge of D_ij is
 * dropped (never a candidate, never crossed) when it is made with a diagonal (of either
 * shape), or with an edge against a vertex whose outline corner is reflex or whose outline
 * edges cross that edge's line by more than an angle of SAT_COLLINEAR_REL (mark, fits): a
 * position on it puts one outline inside the other shape, so the piece is inside the union
 * but near its ends; a corner (radius 0) between two dropped edges is dropped too. Unions of
 * parts and chains have no facts: every piece kept. The rule: the exhaustive search takes
 * the same filtered pieces (and the answer is still its answer, bit for bit); against the
 * unfiltered pieces the answer is never shorter and longer by less than the pair's touch
 * tolerance (the dropped pieces' ends, where the covering depth goes to 0), and it leaves
 * the shapes apart: both checked by the oracle test on every random pair.
 * The search's speed, none of which changes an answer: a corner is asked when an edge next
 * to it is exposed or was not asked (rounding may put an edge's nearest point beyond the
 * best while its corner is nearer); depth tests and chords stop at the first edge that
 * decides (holds, chord); each grid cell keeps its last SAT__HINTS front holders, asked
 * before its list; a piece found covered in a round is not asked again within that round's
 * reach (done: the pieces, the arcs, are marked in the arena's flags). Whole regions are
 * certified at once: each grid cell is split in SAT__SUB x SAT__SUB certificates' cells, and
 * one whose rectangle, grown by a sixteenth of its side, a single difference holds deeper
 * than its tolerance and the margin (rect_held: its corners, a difference's depth being
 * concave; asked once per round, the last difference that held one first) covers what of a
 * piece lies in it with no chord (covered asks it first at each front); the certificates'
 * cells asked ring by ring about the origin's raise the floor to the radius they cover
 * whole (raise_floor: no candidate nearer is ever taken), and the differences whose boxes
 * lie within the floor are not visited (expose_all).
 */
#include <stdlib.h>
#include <string.h>

#include "sat_internal.h"

/* The test build swaps the search for the exhaustive one it checks against. */
#ifndef SAT_UNION_MTV
#define SAT_UNION_MTV union_mtv
#endif

/* fmin and fmax as glibc computes them on x86-64 (minsd, maxsd), and the pure twin
 * (sat_internal.lua): equal operands (-0 and +0 included) give the second, a NaN the
 * other operand; inline (libm's are calls). */
static inline double umin(double x, double y)
{
    return x < y ? x : y == y ? y : x;
}

static inline double umax(double x, double y)
{
    return x > y ? x : y == y ? y : x;
}

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
 * inside some D_ij by more than the touch tolerance of parts i and j, so the MTV is the shortest t on the
 * boundary of the union of the D_ij that lies inside none: the nearest point of some edge or
 * arc, or a crossing of two boundaries. */

typedef struct mdiff {
    int first, n;  /* its core's vertices in the arena, counter-clockwise, then the n
                    * outward unit normals of its edges (vertex k to k + 1) */
    double r;
    sat_vec lo, hi; /* its box, radius included */
    double deep;    /* about the most it can cover a point by: r + twice its area over its
                     * perimeter (the search asks the deepest first) */
    double tol;     /* its parts' own touch tolerance: t inside it by no more is a touch */
    int i, j;       /* its parts: a's, b's */
} mdiff;

/* ---- what the outlines alone tell (concave compounds) ---------------------------------- *
 * A concave compound's parts meet along diagonals; its outline says which part vertex is
 * which outline point, and how the outline turns there. A boundary piece of D_ij that pairs
 * a diagonal with anything, or a vertex with an edge the outline at that vertex crosses (a
 * reflex vertex crosses every edge), is a position where one shape's outline enters the
 * other's interior: never on the boundary of the union (see sat_union.c's header). */
typedef struct facts {
    const sat_shape *s; /* a concave compound of polygons, or NULL: nothing known */
    int *at;            /* per part: where its vertices' entries start in m and diag */
    int *m;             /* per part vertex: its outline point, or -1 (none within reach) */
    int *diag;          /* per part edge (vertex k to k + 1): 1 when another part has it
                         * reversed (a diagonal: its inside is inside the compound) */
    const double *turn; /* per outline point m, SAT__TURN doubles from SAT__TURN * m: its
                         * edges' vectors r1 (to the point before) and r2 (to the next),
                         * -SAT_COLLINEAR_REL * |r1| and * |r2|, 1 when reflex (fits) */
} facts;

#define SAT__FACTS_STACK 512
#define SAT__TURN 7
#define SAT__TURN_STACK 64

typedef struct facts_mem {
    int *mem;
    double *turn;
    int buf[SAT__FACTS_STACK];
    double tbuf[SAT__TURN * SAT__TURN_STACK];
} facts_mem;

/* The outline point within a quarter of the merge distance of p (the guess first), or -1. */
static int outline_at(const sat_vec *w, int N, sat_vec p, double tt, int guess)
{
    if (guess >= 0) {
        sat_vec d = sat__sub(w[guess], p);
        if (sat__dot(d, d) <= tt)
            return guess;
    }
    for (int k = 0; k < N; k++) {
        sat_vec d = sat__sub(w[k], p);
        if (sat__dot(d, d) <= tt)
            return k;
    }
    return -1;
}

/* The facts of s (none unless a concave compound of polygons): each part vertex's outline
 * point (the next outline point along the part is asked first), each part edge whether
 * another part has it reversed (the edges that skip outline points, listed by their first
 * point). 0: out of memory. */
static int facts_begin(facts *f, facts_mem *fm, const sat_shape *s)
{
    f->s = NULL;
    fm->mem = fm->buf;
    fm->turn = fm->tbuf;
    if (s->kind != SAT_COMPOUND || sat_compound_form(s) != SAT_FORM_CONCAVE)
        return 1;
    int P = s->count, N = sat__outline_n(s), V = 0;
    for (int i = 0; i < P; i++) {
        const sat_shape *p = sat__cpart(s, i);
        if (p->kind != SAT_POLYGON)
            return 1;
        V += p->count;
    }
    long need = (long)P + 1 + 4L * V + N;
    if (need > SAT__FACTS_STACK && (fm->mem = malloc((size_t)need * sizeof(int))) == NULL) {
        fm->mem = fm->buf;
        return 0;
    }
    if (N > SAT__TURN_STACK &&
        (fm->turn = malloc((size_t)N * SAT__TURN * sizeof(double))) == NULL) {
        fm->turn = fm->tbuf;
        return 0;
    }
    int *at = fm->mem, *m = at + P + 1, *diag = m + V, *head = diag + V, *next = head + N;
    int *to = next + V;
    const sat_vec *w = sat__coutline_world(s);
    double tol = 0.25 * SAT_MERGE_REL * s->bound, tt = tol * tol, *turn = fm->turn;
    for (int q = 0; q < N; q++) {
        sat_vec r1 = sat__sub(w[q == 0 ? N - 1 : q - 1], w[q]), r2 = sat__sub(w[q + 1 == N ? 0 : q + 1], w[q]);
        double *g = turn + SAT__TURN * q;
        g[0] = r1.x;
        g[1] = r1.y;
        g[2] = r2.x;
        g[3] = r2.y;
        g[4] = -SAT_COLLINEAR_REL * sat__len(r1);
        g[5] = -SAT_COLLINEAR_REL * sat__len(r2);
        g[6] = sat__cross(r2, r1) < 0.0;
    }
    for (int k = 0; k < N; k++)
        head[k] = -1;
    at[0] = 0;
    for (int i = 0; i < P; i++) {
        const sat_shape *p = sat__cpart(s, i);
        const sat_vec *o = sat__coff(p);
        sat_vec c = sat__cpart_table(s, i)[0];
        int e0 = at[i], n = p->count, guess = -1;
        at[i + 1] = e0 + n;
        for (int k = 0; k < n; k++) {
            m[e0 + k] = outline_at(w, N, sat__add(c, o[k]), tt, guess);
            guess = m[e0 + k] < 0 ? -1 : m[e0 + k] + 1 == N ? 0 : m[e0 + k] + 1;
        }
        for (int k = 0; k < n; k++) {
            int a = m[e0 + k], b = m[e0 + (k + 1 == n ? 0 : k + 1)];
            diag[e0 + k] = 0;
            to[e0 + k] = b;
            next[e0 + k] = -1;
            if (a >= 0 && b >= 0 && b != (a + 1 == N ? 0 : a + 1)) {
                next[e0 + k] = head[a];
                head[a] = e0 + k;
            }
        }
    }
    for (int e = 0; e < V; e++) { /* edges a -> b and b -> a: both diagonals */
        int a = m[e], b = to[e];
        if (a < 0 || b < 0 || b == (a + 1 == N ? 0 : a + 1))
            continue;
        for (int g = head[b]; g >= 0 && !diag[e]; g = next[g])
            diag[e] = to[g] == a;
    }
    f->s = s;
    f->at = at;
    f->m = m;
    f->diag = diag;
    f->turn = turn;
    return 1;
}

static void facts_end(facts_mem *fm)
{
    if (fm->mem != fm->buf)
        free(fm->mem);
    if (fm->turn != fm->tbuf)
        free(fm->turn);
}

typedef struct arena {
    sat_vec *v;
    unsigned char *f; /* by v's index: edge k of the difference at first is dropped */
    mdiff *d;
    int nv, cv, nd, cd, failed;
    const facts *fa, *fb; /* a's and b's */
    sat_vec vbuf[SAT_COMPOUND_STACK];
    unsigned char fbuf[SAT_COMPOUND_STACK];
    mdiff dbuf[64];
} arena;

static void arena_init(arena *ar, const facts *fa, const facts *fb)
{
    ar->v = ar->vbuf;
    ar->f = ar->fbuf;
    ar->d = ar->dbuf;
    ar->nv = ar->nd = 0;
    ar->cv = SAT_COMPOUND_STACK;
    ar->cd = 64;
    ar->failed = 0;
    ar->fa = fa;
    ar->fb = fb;
}

static void arena_free(arena *ar)
{
    if (ar->v != ar->vbuf) {
        free(ar->v);
        free(ar->f);
    }
    if (ar->d != ar->dbuf)
        free(ar->d);
}

/* Room for nv more vertices and nd more differences (the stack first, then the heap, grown
 * to what is asked, or twice as much when that is more). */
static int arena_reserve(arena *ar, int nv, int nd)
{
    if (ar->nv + nv > ar->cv) {
        int cap = ar->nv + nv > 2 * ar->cv ? ar->nv + nv : 2 * ar->cv;
        sat_vec *v = malloc((size_t)cap * sizeof *v);
        unsigned char *f = malloc((size_t)cap);
        if (v == NULL || f == NULL) {
            free(v);
            free(f);
            return ar->failed = 1, 0;
        }
        memcpy(v, ar->v, (size_t)ar->nv * sizeof *v);
        memcpy(f, ar->f, (size_t)ar->nv);
        if (ar->v != ar->vbuf) {
            free(ar->v);
            free(ar->f);
        }
        ar->v = v;
        ar->f = f;
        ar->cv = cap;
    }
    if (ar->nd + nd > ar->cd) {
        int cap = ar->nd + nd > 2 * ar->cd ? ar->nd + nd : 2 * ar->cd;
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

/* Room for k more vertices and one more difference. */
static int arena_room(arena *ar, int k)
{
    return arena_reserve(ar, k, 1);
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

/* Whether vertex k of part i of f's compound may touch, from outside, an edge whose
 * outward normal (from the edge's shape towards f's) is n: its outline point is convex (or
 * straight) and neither of the outline's edges there goes across the edge's line (by more
 * than an angle of SAT_COLLINEAR_REL); 1 when nothing is known. */
static int fits(const facts *f, int i, int k, sat_vec n)
{
    int m = f->m[f->at[i] + k];
    if (m < 0)
        return 1;
    const double *g = f->turn + SAT__TURN * m; /* (r1, r2, their limits: facts_begin) */
    if (g[6] != 0.0)
        return 0; /* reflex */
    return !(g[0] * n.x + g[1] * n.y < g[4]) && !(g[2] * n.x + g[3] * n.y < g[5]);
}

/* Whether edge k of part i of f's compound is a diagonal. */
static int diagonal(const facts *f, int i, int k)
{
    return f->s != NULL && f->diag[f->at[i] + k];
}

/* What a difference's edge comes from, to drop it (see facts): the parts (xi of a, negated
 * in Q; yj of b, in P) and where it is kept, flags[k] for edge k. */
typedef struct marks {
    const facts *fa, *fb;
    int xi, yj;
    unsigned char *flags;
} marks;

/* Edge k: P's edge from pi (b's part's edge) against Q's vertex qj (a's part's vertex),
 * step 1; Q's edge from qj (a's edge qj) against P's vertex pi, step 2; both, step 3. */
static void mark(const marks *mk, int k, int step, int pi, int qj, sat_vec e)
{
    int drop = ((step & 1) && diagonal(mk->fb, mk->yj, pi)) ||
               ((step & 2) && diagonal(mk->fa, mk->xi, qj));
    if (!drop && step == 1 && mk->fa->s != NULL)
        drop = !fits(mk->fa, mk->xi, qj, sat__normalize(sat__v(e.y, -e.x), NULL));
    else if (!drop && step == 2 && mk->fb->s != NULL)
        drop = !fits(mk->fb, mk->yj, pi, sat__neg(sat__normalize(sat__v(e.y, -e.x), NULL)));
    mk->flags[k] = (unsigned char)drop;
}

/* The Minkowski sum of two convex counter-clockwise polygons (1 or 2 points included), by
 * merging their edges in angle order from the lowest vertices: at most np + nq points. With
 * mk, each edge's source is marked (mark). */
static int minkowski(const sat_vec *P, int np, const sat_vec *Q, int nq, sat_vec *out,
                     const marks *mk)
{
    int i0 = lowest(P, np), j0 = lowest(Q, nq), i = 0, j = 0, k = 0;
    while (i < np || j < nq) {
        int step;
        /* (i0 + i) % np and the next, (j0 + j) % nq and the next, without a division */
        int a = i0 + i >= np ? i0 + i - np : i0 + i, a1 = a + 1 == np ? 0 : a + 1;
        int b = j0 + j >= nq ? j0 + j - nq : j0 + j, b1 = b + 1 == nq ? 0 : b + 1;
        sat_vec eP = sat__v(0.0, 0.0), eQ = eP;
        out[k] = sat__add(P[a], Q[b]);
        if (i == np || np == 1) {
            step = 2;
        } else if (j == nq || nq == 1) {
            step = 1;
        } else {
            eP = sat__sub(P[a1], P[a]);
            eQ = sat__sub(Q[b1], Q[b]);
            step = angle_less(eP, eQ) ? 1 : angle_less(eQ, eP) ? 2 : 3;
        }
        if (mk != NULL) {
            if (step == 1 && np > 1 && i < np)
                eP = sat__sub(P[a1], P[a]);
            else if (step == 2 && nq > 1 && j < nq)
                eQ = sat__sub(Q[b1], Q[b]);
            mark(mk, k, step, a, b, step == 2 ? eQ : eP);
        }
        if (++k >= np + nq)
            break;
        i += step & 1;
        j += step >> 1;
    }
    return k;
}

/* Drops repeated points; a sum with no area (parallel segments, points) becomes the segment
 * between its extremes, or a point. *a2: twice its area, when 3 points or more are left. */
static int tidy(sat_vec *p, int n, double *area2)
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
        ext = umax(ext, sat__len(sat__sub(p[i], p[0])));
        a2 += sat__cross(sat__sub(p[i], p[0]), sat__sub(p[(i + 1) % m], p[0]));
    }
    *area2 = a2;
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

/* Adds D for parts x (a's part i, at offset ca) and y (b's part j, at offset cb). */
static int add_diff(arena *ar, const sat_shape *x, sat_vec ca, const sat_shape *y, sat_vec cb,
                    int xi, int yj)
{
    int nx = core_count(x), ny = core_count(y);
    if (!arena_room(ar, 2 * (nx + ny)))
        return 0;
    /* (the sum where it stays, the parts' points after it: its normals overwrite them) */
    sat_vec *out = ar->v + ar->nv, *P = out + nx + ny, *Q = P + ny;
    marks mk;
    mk.fa = ar->fa;
    mk.fb = ar->fb;
    mk.xi = xi;
    mk.yj = yj;
    mk.flags = ar->f + ar->nv;
    core_points(y, cb, 1.0, P);
    core_points(x, ca, -1.0, Q);
    double a2 = 0.0, per = 0.0;
    int m = minkowski(P, ny, Q, nx, out, &mk), k = tidy(out, m, &a2);
    P = out;
    if (k != m || k < 3) /* (a sum tidied: its edges' sources are not known) */
        memset(mk.flags, 0, (size_t)k);
    mdiff *d = &ar->d[ar->nd++];
    d->first = ar->nv;
    d->n = k;
    d->i = xi;
    d->j = yj;
    d->r = x->radius + y->radius;
    d->tol = sat__touch_tol(x, y);
    d->lo = d->hi = P[0];
    for (int i = 0; i < k; i++) {
        double len;
        sat_vec e = sat__sub(P[i + 1 == k ? 0 : i + 1], P[i]);
        P[k + i] = sat__normalize(sat__v(e.y, -e.x), &len);
        per += len; /* (|e|, as sat__len gives it) */
        d->lo = sat__v(umin(d->lo.x, P[i].x), umin(d->lo.y, P[i].y));
        d->hi = sat__v(umax(d->hi.x, P[i].x), umax(d->hi.y, P[i].y));
    }
    d->lo = sat__v(d->lo.x - d->r, d->lo.y - d->r);
    d->hi = sat__v(d->hi.x + d->r, d->hi.y + d->r);
    /* (a2: tidy's, the same sum; none below 3 points) */
    d->deep = d->r + (k >= 3 && per > 0.0 ? a2 / per : 0.0);
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
        m = umin(m, seg_point_dist(t, v[i], v[(i + 1) % n]));
    return r - m;
}

/* Whether t is inside D deeper than lim: depth(v, n, r, t) > lim, the same answer; a core
 * of no radius is left at the first edge that t is not inside by more than lim (its depth is
 * the least of 0 - s over the edges' signed distances s, NaN ones aside). */
static int holds(const sat_vec *v, int n, double r, sat_vec t, double lim)
{
    if (n < 3 || r != 0.0)
        return depth(v, n, r, t) > lim;
    const sat_vec *nm = v + n;
    for (int i = 0; i < n; i++) {
        double s = sat__dot(nm[i], sat__sub(t, v[i]));
        if (!(0.0 - s > lim) && s == s)
            return 0;
    }
    return 1;
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

static sat_vec nearest_on(sat_vec p0, sat_vec p1)
{
    sat_vec e = sat__sub(p1, p0);
    double l2 = sat__dot(e, e), t = l2 > 0.0 ? -sat__dot(p0, e) / l2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return sat__add(p0, sat__mul(e, t));
}

/* Pieces 2k (edge k) and 2k + 1 (the arc at vertex k + 1, or its corner when r is 0); a
 * difference of one point has one piece (its circle, or the point). */
static void get_piece(const sat_vec *v, const mdiff *d, int idx, piece *pc)
{
    int n = d->n;
    pc->r = d->r;
    if (n == 1) {
        pc->arc = 1;
        pc->full = 1;
        pc->c = v[0];
        pc->n0 = pc->n1 = sat__v(1.0, 0.0);
        pc->dist = umax(0.0, sat__len(v[0]) - d->r);
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
        pc->lo = sat__v(umin(pc->p0.x, pc->p1.x), umin(pc->p0.y, pc->p1.y));
        pc->hi = sat__v(umax(pc->p0.x, pc->p1.x), umax(pc->p0.y, pc->p1.y));
        pc->far = umax(sat__len(pc->p0), sat__len(pc->p1));
        return;
    }
    pc->arc = 1;
    pc->full = 0;
    pc->c = v[(k + 1) % n];
    pc->n0 = nm[k];
    pc->n1 = nm[(k + 1) % n];
    pc->dist = umax(0.0, sat__len(pc->c) - d->r);
    pc->lo = sat__v(pc->c.x - d->r, pc->c.y - d->r);
    pc->hi = sat__v(pc->c.x + d->r, pc->c.y + d->r);
    pc->far = sat__len(pc->c) + d->r;
}

static int in_arc(const piece *pc, sat_vec dir)
{
    return pc->full || (sat__cross(pc->n0, dir) >= 0.0 && sat__cross(dir, pc->n1) >= 0.0);
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
        double h = sqrt(umax(0.0, a->r * a->r - al * al));
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

/* ---- the search: the nearest candidate inside no difference --------------------------- *
 * Candidates (the local minima of |t| on the boundary of the union) lie on pieces; one on a
 * piece that other differences cover is inside them, so it cannot be the answer. A piece is
 * "exposed" when the differences near it (a grid over their boxes) leave some of it
 * uncovered within the annulus floor <= |t| <= the best so far; only exposed pieces give
 * candidates: their own points, and their crossings with other exposed pieces. Coverage is
 * claimed only deeper than the difference's touch tolerance plus a margin far above rounding, so that no
 * candidate the exhaustive search would take is on a covered piece; every candidate is then
 * checked as that search checks it, against the differences whose boxes hold it: the same
 * candidates, the same arithmetic, the same answer. */

/* The differences by cell of a uniform grid: a cell lists every difference whose box meets
 * it, so that a point's cell lists every difference whose box holds it (the cell of a
 * coordinate is monotone in it, and clamped to the grid at both ends). */
typedef struct dgrid {
    double x0, y0, w;
    int nx, ny;
    int *start; /* cell row * nx + col: its differences are item[start[cell], start[cell + 1]) */
    int *item;
} dgrid;

static int grid_at(double x, double x0, double w, int n)
{
    double f = (x - x0) / w; /* (floor(f) clamped: below 0, at n or above, else truncated) */
    return !(f >= 0.0) ? 0 : f >= (double)n ? n - 1 : (int)f;
}

static int grid_cell(const dgrid *g, sat_vec c)
{
    return grid_at(c.y, g->y0, g->w, g->ny) * g->nx + grid_at(c.x, g->x0, g->w, g->nx);
}

#define SAT__HINTS 4

/* The certificates' cells: each grid cell split in SAT__SUB x SAT__SUB. */
#define SAT__SUB 3

typedef struct search {
    arena *ar;
    double best;
    double floor;  /* no candidate nearer is outside the deepest part pair's difference */
    double cap;    /* no candidate farther is wanted */
    double margin; /* a piece is covered only deeper than tol + margin */
    int last;      /* the difference that refused the last candidate: asked first */
    double done;   /* the pieces marked covered are covered within it (the rounds before) */
    sat_vec at;
    int rank[7];   /* the best's place in the exhaustive search's order (see consider) */
    dgrid g;
    int *order;         /* the differences by the distance of their boxes, nearest first */
    int *stamp, serial; /* stamp[k] == serial: difference k asked already for this piece */
    int *hint;          /* per difference: the last that covered one of its pieces, or -1 */
    int *chint;         /* per grid cell: the last SAT__HINTS differences that held a front
                         * there, the latest first (-1: none) */
    int sub;            /* the certificates' cells: the grid's split in sub x sub */
    double fw;          /* their side */
    int lastcert;       /* the last difference that held a cell, or -1: asked first */
    int *cert;          /* per such cell: the difference that holds its rectangle (grown
                         * a little) deeper than its tolerance and the margin, -1: none,
                         * -2: not asked yet (see cell_cover) */
    int cover;          /* the last difference that covered a piece, or -1 */
    piece *ex;          /* the exposed pieces: ex[i] is piece exd[2i + 1] of difference exd[2i] */
    int *exd, nex, cex;
} search;

/* Whether difference k holds c deeper than its parts' own touch tolerance: a moved by c
 * overlaps that part pair by its own rule (the rule of the part pair's test). */
static int refuses(const search *sr, int k, sat_vec c)
{
    const mdiff *d = &sr->ar->d[k];
    if (c.x < d->lo.x || c.x > d->hi.x || c.y < d->lo.y || c.y > d->hi.y)
        return 0;
    return holds(sr->ar->v + d->first, d->n, d->r, c, d->tol);
}

/* Takes c when it is nearer than the best so far and inside no difference beyond the touch
 * tolerance; of two as near, the one the exhaustive search takes: its rank is lower (a
 * piece's own point {0, i, j, piece, point} (of difference D_ij); a crossing {1, i, j, i',
 * j', piece of D_ij, 2 * piece of D_i'j' + point}, where D_ij comes first: i < i', or
 * i = i' and j < j'; the rest 0). A c on the common boundary of two differences is taken:
 * a moved there touches both parts and overlaps neither (the definition of the MTV; with
 * shapes of some area the differences of neighbouring parts overlap, so an internal seam
 * is never such a boundary). */
static void consider(search *sr, sat_vec c, const int rank[7])
{
    double norm = sat__len(c);
    if (!(norm <= sr->best) || norm > sr->cap || norm < sr->floor)
        return;
    if (norm == sr->best) {
        int i = 0;
        while (i < 6 && rank[i] == sr->rank[i])
            i++;
        if (!(rank[i] < sr->rank[i]))
            return;
    }
    if (refuses(sr, sr->last, c))
        return;
    const dgrid *g = &sr->g;
    int cell = grid_cell(g, c), last = sr->last;
    const int *it = g->item + g->start[cell], *stop = g->item + g->start[cell + 1];
    for (; it < stop; it++) {
        int k = *it;
        if (k != last && refuses(sr, k, c)) {
            sr->last = k;
            return;
        }
    }
    sr->best = norm;
    sr->at = c;
    memcpy(sr->rank, rank, sizeof sr->rank);
}

/* ---- coverage -------------------------------------------------------------------------- */

/* Narrows (*a, *b) to where the ray u0 + s du lies in the slab (lo, hi). */
static void slab(double u0, double du, double lo, double hi, double *a, double *b)
{
    if (du == 0.0) {
        if (!(u0 > lo && u0 < hi))
            *a = HUGE_VAL, *b = -HUGE_VAL;
        return;
    }
    double s1 = (lo - u0) / du, s2 = (hi - u0) / du;
    if (du < 0.0) {
        double t = s1;
        s1 = s2;
        s2 = t;
    }
    if (s1 > *a)
        *a = s1;
    if (s2 < *b)
        *b = s2;
}

/* Where p0 + s e is within g of the point c: s in (*a, *b), empty when not *a < *b. */
static void disc_chord(sat_vec p0, sat_vec e, sat_vec c, double g, double *a, double *b)
{
    sat_vec f = sat__sub(p0, c);
    double A = sat__dot(e, e), B = sat__dot(f, e), C = sat__dot(f, f) - g * g;
    double disc = B * B - A * C;
    *a = HUGE_VAL;
    *b = -HUGE_VAL;
    if (A > 0.0 && disc > 0.0) {
        double sq = sqrt(disc);
        *a = (-B - sq) / A;
        *b = (-B + sq) / A;
    }
}

/* The parameters s at which p0 + s e lies deeper than lim inside the difference d (of core
 * v): (*lo, *hi), empty when not *lo < *hi. With lim >= r, the core's edges' half-planes
 * moved in by lim - r; else the union of the core, its edges' bands and its vertices' discs
 * of radius r - lim (convex: one interval). */
static void chord(const sat_vec *v, const mdiff *d, double lim, sat_vec p0, sat_vec e,
                  double from, double to, double *lo, double *hi)
{
    int n = d->n;
    const sat_vec *nm = v + n;
    double g = d->r - lim, a = -HUGE_VAL, b = HUGE_VAL;
    *lo = HUGE_VAL;
    *hi = -HUGE_VAL;
    if (n >= 3) { /* each edge's half-plane u0 + s du < in */
        double in = g < 0.0 ? g : 0.0;
        for (int i = 0; i < n && a < b; i++) {
            if (!(g > 0.0) && (a >= to || b <= from))
                return; /* (what is left of it is beyond [from, to]) */
            double u0 = sat__dot(nm[i], sat__sub(p0, v[i])), du = sat__dot(nm[i], e);
            if (du > 0.0) {
                double s1 = (in - u0) / du;
                b = s1 < b ? s1 : b;
            } else if (du < 0.0) {
                double s1 = (in - u0) / du;
                a = s1 > a ? s1 : a;
            } else if (!(u0 < in)) {
                b = -HUGE_VAL;
            }
        }
        if (a < b)
            *lo = a, *hi = b;
    }
    if (!(g > 0.0))
        return;
    for (int i = 0; i < n; i++) {
        disc_chord(p0, e, v[i], g, &a, &b);
        if (a < b)
            *lo = umin(*lo, a), *hi = umax(*hi, b);
        if (n == 1 || (n == 2 && i == 1))
            continue;
        /* the band along edge i (its tangent t, length L) */
        sat_vec t = sat__v(-nm[i].y, nm[i].x), q = sat__sub(p0, v[i]);
        double L = sat__dot(t, sat__sub(v[(i + 1) % n], v[i]));
        a = -HUGE_VAL;
        b = HUGE_VAL;
        slab(sat__dot(t, q), sat__dot(t, e), 0.0, L, &a, &b);
        slab(sat__dot(nm[i], q), sat__dot(nm[i], e), -g, g, &a, &b);
        if (a < b)
            *lo = umin(*lo, a), *hi = umax(*hi, b);
    }
}

/* What is left of a piece's parameters: at most SAT__GAPS intervals [gap[2i], gap[2i + 1]],
 * in order. */
#define SAT__GAPS 16

/* Removes [lo, hi] from the n intervals; returns how many are left. When the cut would
 * leave more than SAT__GAPS, it is not made (what is left is only ever too much). */
static int cut(double *gap, int n, double lo, double hi)
{
    double out[2 * SAT__GAPS + 2];
    int m = 0;
    for (int i = 0; i < n; i++) {
        double a = gap[2 * i], b = gap[2 * i + 1];
        if (hi < a || lo > b) {
            out[m++] = a, out[m++] = b;
            continue;
        }
        if (lo > a)
            out[m++] = a, out[m++] = lo;
        if (hi < b)
            out[m++] = hi, out[m++] = b;
        if (m > 2 * SAT__GAPS)
            return n;
    }
    memcpy(gap, out, (size_t)m * sizeof *gap);
    return m / 2;
}

/* The points whose hull holds an arc of radius > 0 (its ends and the corners of its tangent
 * lines, a quarter turn at most between them): their count, 0 when the arc turns further
 * than a half (never on a difference's boundary). */
static int arc_hull(const piece *pc, sat_vec *out)
{
    sat_vec c = pc->c, n0 = pc->n0, n1 = pc->n1;
    double r = pc->r;
    if (pc->full) {
        out[0] = sat__v(c.x - r, c.y - r);
        out[1] = sat__v(c.x + r, c.y - r);
        out[2] = sat__v(c.x + r, c.y + r);
        out[3] = sat__v(c.x - r, c.y + r);
        return 4;
    }
    double cs = sat__dot(n0, n1), sn = sat__cross(n0, n1);
    int k = 0;
    if (!(sn >= 0.0 && cs >= 0.0)) { /* more than a quarter: split in two */
        if (sn < 0.0 || (sn == 0.0 && cs > 0.0))
            return 0;
        sat_vec m = sn > 0.0 ? sat__normalize(sat__add(n0, n1), NULL) : sat__perp(n0);
        out[k++] = sat__add(c, sat__mul(n0, r));
        out[k++] = sat__add(c, sat__mul(sat__add(n0, m), r / (1.0 + sat__dot(n0, m))));
        n0 = m;
    }
    out[k++] = sat__add(c, sat__mul(n0, r));
    out[k++] = sat__add(c, sat__mul(sat__add(n0, n1), r / (1.0 + sat__dot(n0, n1))));
    out[k++] = sat__add(c, sat__mul(n1, r));
    return k;
}

/* What a piece must have covered: a segment p0 + s e's parameters left in gap[0, 2n), or an
 * arc's hull points h[0, np), all inside one difference; lo, hi: its box. */
typedef struct cover {
    int arc, n, np;
    sat_vec p0, e, lo, hi;
    double gap[2 * SAT__GAPS];
    sat_vec h[8];
} cover;

/* Whether difference m (asked once per piece, never k itself) covers what is left of a
 * piece of difference k (cutting what it covers away). */
static int ask(search *sr, int k, int m, cover *cv)
{
    if (m < 0 || m == k || sr->stamp[m] == sr->serial)
        return 0;
    sr->stamp[m] = sr->serial;
    const mdiff *d = &sr->ar->d[m];
    const sat_vec *v = sr->ar->v + d->first;
    double lim = d->tol + sr->margin, a, b;
    if (cv->hi.x < d->lo.x || d->hi.x < cv->lo.x || cv->hi.y < d->lo.y || d->hi.y < cv->lo.y)
        return 0;
    if (cv->arc) {
        for (int q = 0; q < cv->np; q++)
            if (!holds(v, d->n, d->r, cv->h[q], lim))
                return 0;
    } else {
        chord(v, d, lim, cv->p0, cv->e, cv->gap[0], cv->gap[2 * cv->n - 1], &a, &b);
        if (a < b)
            cv->n = cut(cv->gap, cv->n, a, b);
        if (cv->n > 0)
            return 0;
    }
    sr->hint[k] = sr->cover = m;
    return 1;
}

/* The certificates' cells: the grid's cells split in sub x sub, of side fw. The rectangle
 * of one, grown by a sixteenth of its side on every side (a front on its side is inside it,
 * and what is cut leaves the next front in the next cell). */
static void cell_rect(const search *sr, int cx, int cy, sat_vec *lo, sat_vec *hi)
{
    const dgrid *g = &sr->g;
    double e = sr->fw / 16.0;
    *lo = sat__v(g->x0 + cx * sr->fw - e, g->y0 + cy * sr->fw - e);
    *hi = sat__v(g->x0 + (cx + 1) * sr->fw + e, g->y0 + (cy + 1) * sr->fw + e);
}

/* The certificates' cell of c: its column and row. */
static void fine_cell(const search *sr, sat_vec c, int *cx, int *cy)
{
    const dgrid *g = &sr->g;
    *cx = grid_at(c.x, g->x0, sr->fw, g->nx * sr->sub);
    *cy = grid_at(c.y, g->y0, sr->fw, g->ny * sr->sub);
}

/* Whether a difference (core v, n, r) holds the rectangle (lo, hi) deeper than lim: a core
 * of no radius when the rectangle's farthest corner along each edge's normal is inside by
 * more than lim, else when it holds the four corners (its depth is concave: a convex core
 * grown by a radius). */
static int rect_held(const sat_vec *v, int n, double r, sat_vec lo, sat_vec hi, double lim)
{
    if (n < 3 || r != 0.0)
        return holds(v, n, r, lo, lim) && holds(v, n, r, hi, lim) &&
               holds(v, n, r, sat__v(hi.x, lo.y), lim) && holds(v, n, r, sat__v(lo.x, hi.y), lim);
    const sat_vec *nm = v + n;
    for (int i = 0; i < n; i++) {
        sat_vec c = sat__v(nm[i].x > 0.0 ? hi.x : lo.x, nm[i].y > 0.0 ? hi.y : lo.y);
        double s = sat__dot(nm[i], sat__sub(c, v[i]));
        if (!(0.0 - s > lim))
            return 0;
    }
    return 1;
}

/* The difference (of the grid's list at the cell's middle, in its order) that holds the
 * whole of a fine cell's grown rectangle deeper than its tolerance and the margin, or -1:
 * asked once per search. A difference's depth is concave (a convex core grown by a radius),
 * so it holds the rectangle when it holds its four corners. */
static int cell_cover(search *sr, int cx, int cy)
{
    const dgrid *g = &sr->g;
    int fine = cy * g->nx * sr->sub + cx;
    if (sr->cert[fine] != -2)
        return sr->cert[fine];
    sat_vec lo, hi;
    int found = -1, cell = cy / sr->sub * g->nx + cx / sr->sub; /* (the grid's cell holding it) */
    cell_rect(sr, cx, cy, &lo, &hi);
    const int *item = g->item;
    const mdiff *ds = sr->ar->d;
    const sat_vec *vs = sr->ar->v;
    int j0 = g->start[cell], j1 = g->start[cell + 1], last = sr->lastcert;
    double margin = sr->margin;
    for (int j = j0 - 1; j < j1 && found < 0; j++) {
        int m = j < j0 ? last : item[j];
        if (m < 0 || (j >= j0 && m == last))
            continue;
        const mdiff *d = &ds[m];
        const sat_vec *v = vs + d->first;
        double lim = d->tol + margin;
        if (lo.x < d->lo.x || hi.x > d->hi.x || lo.y < d->lo.y || hi.y > d->hi.y)
            continue;
        if (rect_held(v, d->n, d->r, lo, hi, lim))
            found = m;
    }
    if (found >= 0)
        sr->lastcert = found;
    return sr->cert[fine] = found;
}

/* Whether the differences near a piece of difference k cover it: the hints first, then,
 * for an arc, those the grid lists in the cell of its first hull point; for a segment, at the
 * nearest end of what is left uncovered (the front), those of its cell whose boxes hold it
 * (every difference that can hold that point), until none of them moves the front on:
 * then that point is exposed. */
static int covered(search *sr, int k, cover *cv)
{
    const dgrid *g = &sr->g;
    sr->serial++;
    if (ask(sr, k, sr->hint[k], cv) || ask(sr, k, sr->cover, cv))
        return 1;
    if (cv->arc) { /* (one difference holds it all: the cell of its first hull point lists it) */
        int cell = grid_cell(g, cv->h[0]);
        for (int j = g->start[cell]; j < g->start[cell + 1]; j++)
            if (ask(sr, k, g->item[j], cv))
                return 1;
        return 0;
    }
    for (;;) {
        double front = cv->gap[0];
        sat_vec f = sat__add(cv->p0, sat__mul(cv->e, front));
        int cell = grid_cell(g, f), fx, fy;
        fine_cell(sr, f, &fx, &fy);
        int m = cell_cover(sr, fx, fy);
        if (m >= 0 && m != k) { /* (what of it is in the cell's rectangle is covered) */
            sat_vec lo, hi;
            double a = -HUGE_VAL, b = HUGE_VAL;
            cell_rect(sr, fx, fy, &lo, &hi);
            slab(cv->p0.x, cv->e.x, lo.x, hi.x, &a, &b);
            slab(cv->p0.y, cv->e.y, lo.y, hi.y, &a, &b);
            if (a < b)
                cv->n = cut(cv->gap, cv->n, a, b);
            if (cv->n == 0)
                return 1;
            if (cv->gap[0] != front)
                continue;
        }
        for (int h = 0; h < SAT__HINTS && cv->gap[0] == front; h++)
            if (ask(sr, k, sr->chint[SAT__HINTS * cell + h], cv))
                return 1;
        /* (the list's scan with what it reads in locals: only ask moves the front) */
        const int *it = g->item + g->start[cell], *stop = g->item + g->start[cell + 1];
        const int *stamp = sr->stamp, serial = sr->serial;
        const mdiff *ds = sr->ar->d;
        const sat_vec *vs = sr->ar->v;
        double margin = sr->margin;
        if (cv->gap[0] != front)
            it = stop;
        for (; it < stop; it++) {
            int m2 = *it;
            const mdiff *d = &ds[m2];
            if (f.x < d->lo.x || f.x > d->hi.x || f.y < d->lo.y || f.y > d->hi.y ||
                stamp[m2] == serial || m2 == k ||
                !holds(vs + d->first, d->n, d->r, f, d->tol + margin))
                continue; /* (it does not hold the front) */
            int *ch = sr->chint + SAT__HINTS * cell, h = 0;
            while (h < SAT__HINTS - 1 && ch[h] != m2)
                h++;
            for (; h > 0; h--) /* (to the front, the others one on) */
                ch[h] = ch[h - 1];
            ch[0] = m2;
            if (ask(sr, k, m2, cv))
                return 1;
            if (cv->gap[0] != front)
                break;
        }
        if (cv->gap[0] == front)
            return 0;
    }
}

/* Whether some of a segment piece of difference k is left uncovered within the annulus
 * floor <= |t| <= the best so far (both widened by the margin). */
static int segment_exposed(search *sr, int k, const piece *pc, int before)
{
    cover cv;
    sat_vec p0 = pc->p0, e = sat__sub(pc->p1, pc->p0);
    double A = sat__dot(e, e), B = sat__dot(p0, e), P = sat__dot(p0, p0);
    double R = umin(sr->best, sr->cap) + sr->margin, F = sr->floor - sr->margin;
    if (before && sr->done > F)
        F = sr->done; /* (covered within it in the rounds before) */
    double disc = B * B - A * (P - R * R);
    if (!(A > 0.0) || !(disc >= 0.0))
        return 0;
    double sq = sqrt(disc);
    cv.arc = 0;
    cv.p0 = p0;
    cv.e = e;
    cv.gap[0] = umax(0.0, (-B - sq) / A);
    cv.gap[1] = umin(1.0, (-B + sq) / A);
    cv.n = cv.gap[0] <= cv.gap[1];
    disc = B * B - A * (P - F * F);
    if (cv.n && F > 0.0 && disc > 0.0) {
        sq = sqrt(disc);
        cv.n = cut(cv.gap, cv.n, (-B - sq) / A, (-B + sq) / A);
    }
    if (cv.n == 0)
        return 0;
    sat_vec q0 = sat__add(p0, sat__mul(e, cv.gap[0]));
    sat_vec q1 = sat__add(p0, sat__mul(e, cv.gap[2 * cv.n - 1]));
    cv.lo = sat__v(umin(q0.x, q1.x), umin(q0.y, q1.y));
    cv.hi = sat__v(umax(q0.x, q1.x), umax(q0.y, q1.y));
    return !covered(sr, k, &cv);
}

/* Whether an arc piece of difference k is inside no single other difference. */
static int arc_exposed(search *sr, int k, const piece *pc)
{
    cover cv;
    cv.arc = 1;
    cv.np = arc_hull(pc, cv.h);
    if (cv.np == 0)
        return 1;
    cv.lo = cv.hi = cv.h[0];
    for (int i = 1; i < cv.np; i++) {
        cv.lo = sat__v(umin(cv.lo.x, cv.h[i].x), umin(cv.lo.y, cv.h[i].y));
        cv.hi = sat__v(umax(cv.hi.x, cv.h[i].x), umax(cv.hi.y, cv.h[i].y));
    }
    return !covered(sr, k, &cv);
}

/* ---- the pruned search ------------------------------------------------------------------- */

#define SAT__INTS_STACK 1024
#define SAT__EXPOSED_STACK 32

/* The scratch of a search, on the stack while it is small. */
typedef struct scratch {
    int *ints;
    int ibuf[SAT__INTS_STACK];
    piece pbuf[SAT__EXPOSED_STACK];
    int dbuf[2 * SAT__EXPOSED_STACK];
} scratch;

static void search_end(search *sr, scratch *sc)
{
    if (sc->ints != sc->ibuf)
        free(sc->ints);
    if (sr->ex != sc->pbuf) {
        free(sr->ex);
        free(sr->exd);
    }
}

/* The distance from the origin to a difference's box. */
static double box_dist(const mdiff *d)
{
    double dx = umax(0.0, umax(d->lo.x, -d->hi.x)), dy = umax(0.0, umax(d->lo.y, -d->hi.y));
    return sqrt(dx * dx + dy * dy);
}

/* The distance from the origin to the farthest corner of a difference's box. */
static double box_far(const mdiff *d)
{
    double dx = umax(-d->lo.x, d->hi.x), dy = umax(-d->lo.y, d->hi.y);
    return sqrt(dx * dx + dy * dy);
}

/* Puts the differences in order into out by a class each, class[k] in [0, classes),
 * each class in index order (a counting sort). */
static void by_class(int nd, const int *cls, int classes, int *out)
{
    int count[65] = {0};
    for (int k = 0; k < nd; k++)
        count[cls[k] + 1]++;
    for (int c = 0; c < classes; c++)
        count[c + 1] += count[c];
    for (int k = 0; k < nd; k++)
        out[count[cls[k]]++] = k;
}

/* The grid over the differences' boxes within cap (cells about half a box's mean side,
 * coarser until there are at most 4 cells and 16 entries a difference), each cell's
 * differences deepest first (in 8 classes: half as deep as the deepest or more, a quarter,
 * ...), the order of the search (by their boxes' distance, in 32 classes up to cap), the
 * stamps and hints. 0: out of memory. */
static int search_begin(search *sr, scratch *sc, double cap)
{
    const arena *ar = sr->ar;
    int nd = ar->nd;
    dgrid *g = &sr->g;
    double R = cap + sr->margin, side = 0.0, top = 0.0;
    sat_vec lo = ar->d[0].lo, hi = ar->d[0].hi;
    sc->ints = sc->ibuf;
    sr->ex = sc->pbuf;
    sr->exd = sc->dbuf;
    sr->nex = 0;
    sr->cex = SAT__EXPOSED_STACK;
    for (int k = 0; k < nd; k++) {
        const mdiff *d = &ar->d[k];
        lo = sat__v(umin(lo.x, d->lo.x), umin(lo.y, d->lo.y));
        hi = sat__v(umax(hi.x, d->hi.x), umax(hi.y, d->hi.y));
        side += (d->hi.x - d->lo.x) + (d->hi.y - d->lo.y);
        top = umax(top, d->deep);
    }
    lo = sat__v(umin(umax(lo.x, -R), R), umin(umax(lo.y, -R), R));
    hi = sat__v(umax(umin(hi.x, R), lo.x), umax(umin(hi.y, R), lo.y));
    double ext = umax(hi.x - lo.x, hi.y - lo.y), w = umax(side / (4.0 * nd), ext / 256.0);
    long entries;
    g->x0 = lo.x;
    g->y0 = lo.y;
    g->w = w > 0.0 ? w : 1.0;
    for (;;) {
        g->nx = grid_at(hi.x, g->x0, g->w, 257) + 1;
        g->ny = grid_at(hi.y, g->y0, g->w, 257) + 1;
        entries = 0;
        for (int k = 0; k < nd; k++) {
            const mdiff *d = &ar->d[k];
            entries += (long)(grid_at(d->hi.x, g->x0, g->w, g->nx) -
                              grid_at(d->lo.x, g->x0, g->w, g->nx) + 1) *
                       (grid_at(d->hi.y, g->y0, g->w, g->ny) - grid_at(d->lo.y, g->y0, g->w, g->ny) + 1);
        }
        if ((entries <= 16L * nd && (long)g->nx * g->ny <= 4L * nd) || g->nx * g->ny == 1)
            break;
        g->w *= 2.0;
    }
    long cells = (long)g->nx * g->ny;
    sr->sub = SAT__SUB;
    sr->fw = g->w / sr->sub;
    long fine = cells * sr->sub * sr->sub;
    long need = 3L * nd + (SAT__HINTS + 1) * cells + fine + 1 + entries;
    if (need > SAT__INTS_STACK && (sc->ints = malloc((size_t)need * sizeof(int))) == NULL) {
        sc->ints = sc->ibuf;
        return 0;
    }
    sr->order = sc->ints;
    sr->stamp = sr->order + nd;
    sr->hint = sr->stamp + nd;
    g->start = sr->hint + nd;
    g->item = g->start + cells + 1;
    sr->chint = g->item + entries;
    sr->cert = sr->chint + SAT__HINTS * cells;
    /* the differences deepest first, into the grid (the classes in the hints, the order in
     * the stamps, until they are set) */
    for (int k = 0; k < nd; k++) {
        double lim = 0.5 * top;
        int c = 0;
        while (c < 7 && !(ar->d[k].deep >= lim))
            c++, lim *= 0.5;
        sr->hint[k] = c;
    }
    by_class(nd, sr->hint, 8, sr->stamp);
    memset(g->start, 0, (size_t)(cells + 1) * sizeof(int));
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < nd; i++) {
            const mdiff *d = &ar->d[sr->stamp[i]];
            int c0 = grid_at(d->lo.x, g->x0, g->w, g->nx), c1 = grid_at(d->hi.x, g->x0, g->w, g->nx);
            int r0 = grid_at(d->lo.y, g->y0, g->w, g->ny), r1 = grid_at(d->hi.y, g->y0, g->w, g->ny);
            for (int r = r0; r <= r1; r++)
                for (int c = c0; c <= c1; c++) {
                    if (pass == 0)
                        g->start[r * g->nx + c + 1]++;
                    else
                        g->item[g->start[r * g->nx + c]++] = sr->stamp[i];
                }
        }
        if (pass == 0)
            for (long c = 0; c < cells; c++)
                g->start[c + 1] += g->start[c];
        else
            for (long c = cells; c > 0; c--) /* each start moved to its end: back one cell */
                g->start[c] = g->start[c - 1];
    }
    g->start[0] = 0;
    /* the search's order: by the distance of the boxes */
    for (int k = 0; k < nd; k++) {
        double f = floor(32.0 * box_dist(&ar->d[k]) / (cap > 0.0 ? cap : 1.0));
        sr->hint[k] = f < 31.0 ? (int)f : 31;
    }
    by_class(nd, sr->hint, 32, sr->order);
    for (int k = 0; k < nd; k++)
        sr->stamp[k] = 0, sr->hint[k] = -1;
    for (long c = 0; c < SAT__HINTS * cells; c++)
        sr->chint[c] = -1;
    for (long c = 0; c < fine; c++)
        sr->cert[c] = -2;
    sr->lastcert = -1;
    sr->serial = 0;
    sr->cover = -1;
    return 1;
}

/* Raises the floor to the radius of a disc about the origin that the certified cells cover
 * (every cell nearer than it is held whole by one difference, deeper than its tolerance and
 * the margin: no candidate there is ever taken), the cells asked ring by ring about the
 * origin's, until a ring is no nearer than a cell that is not held. */
static void raise_floor(search *sr)
{
    const dgrid *g = &sr->g;
    int fnx = g->nx * sr->sub, fny = g->ny * sr->sub;
    double fw = sr->fw, x1 = g->x0 + fnx * fw, y1 = g->y0 + fny * fw;
    if (!(g->x0 < 0.0 && g->y0 < 0.0 && x1 > 0.0 && y1 > 0.0))
        return;
    double rho = umin(umin(-g->x0, x1), umin(-g->y0, y1));
    int ox = grid_at(0.0, g->x0, fw, fnx), oy = grid_at(0.0, g->y0, fw, fny);
    for (int k = 0; (k - 1) * fw < rho && (k - 1) * fw < sr->cap; k++) {
        /* the ring's cells in turn around it (neighbours one after another: the last
         * difference that held one is asked first) */
        int side = 2 * k, cells = k == 0 ? 1 : 4 * side;
        for (int q = 0; q < cells; q++) {
            int cx, cy;
            if (k == 0)
                cx = ox, cy = oy;
            else if (q < side)
                cx = ox - k + q, cy = oy - k;
            else if (q < 2 * side)
                cx = ox + k, cy = oy - k + (q - side);
            else if (q < 3 * side)
                cx = ox + k - (q - 2 * side), cy = oy + k;
            else
                cx = ox - k, cy = oy + k - (q - 3 * side);
            if (cx < 0 || cx >= fnx || cy < 0 || cy >= fny)
                continue;
            double lx = g->x0 + cx * fw, hx = g->x0 + (cx + 1) * fw;
            double ly = g->y0 + cy * fw, hy = g->y0 + (cy + 1) * fw;
            double dx = umax(0.0, umax(lx, -hx)), dy = umax(0.0, umax(ly, -hy));
            double dmin = sqrt(dx * dx + dy * dy);
            if (dmin < rho && cell_cover(sr, cx, cy) < 0)
                rho = dmin;
        }
    }
    rho -= sr->margin;
    if (rho > sr->floor)
        sr->floor = rho;
}

/* Keeps an exposed piece (idx of difference k) and considers its own points. 0: out of
 * memory. */
static int expose(search *sr, int k, int idx, const piece *pc)
{
    const mdiff *d = &sr->ar->d[k];
    cand own[3];
    int n = 0;
    if (sr->nex == sr->cex) {
        int cap = 2 * sr->cex;
        piece *ex = malloc((size_t)cap * sizeof *ex);
        int *exd = malloc((size_t)cap * 2 * sizeof *exd);
        if (ex == NULL || exd == NULL) {
            free(ex);
            free(exd);
            return 0;
        }
        memcpy(ex, sr->ex, (size_t)sr->nex * sizeof *ex);
        memcpy(exd, sr->exd, (size_t)sr->nex * 2 * sizeof *exd);
        if (sr->cex != SAT__EXPOSED_STACK) {
            free(sr->ex);
            free(sr->exd);
        }
        sr->ex = ex;
        sr->exd = exd;
        sr->cex = cap;
    }
    sr->ex[sr->nex] = *pc;
    sr->exd[2 * sr->nex] = k;
    sr->exd[2 * sr->nex++ + 1] = idx;
    piece_points(pc, own, &n);
    for (int i = 0; i < n; i++) {
        int rank[7] = {0, d->i, d->j, idx, i, 0, 0};
        consider(sr, own[i].c, rank);
    }
    return 1;
}

/* Piece idx (odd: an arc, or a corner) of difference k; adjacent: an edge next to it is
 * exposed or was not asked (its nearest point not nearer than the best, by rounding perhaps
 * than the corner itself); a corner is the end of both: covered when they are, dropped when
 * they are, inside another difference when one is covered and the other dropped. 0: out of
 * memory. */
static int vertex_piece(search *sr, int k, int idx, int adjacent)
{
    const mdiff *d = &sr->ar->d[k];
    unsigned char *fl = &sr->ar->f[d->first + idx / 2];
    piece pc;
    if (!(d->r > 0.0) && !adjacent)
        return 1; /* (a corner of two covered edges) */
    get_piece(sr->ar->v + d->first, d, idx, &pc);
    if (pc.far < sr->floor)
        return 1;
    if (!(pc.r > 0.0)) {
        int rank[7] = {0, d->i, d->j, idx, 0, 0, 0};
        consider(sr, pc.c, rank);
        return 1;
    }
    if (pc.dist < umin(sr->best, sr->cap) && !(*fl & 4)) {
        if (arc_exposed(sr, k, &pc))
            return expose(sr, k, idx, &pc);
        *fl |= 4; /* (covered: in the next rounds too) */
    }
    return 1;
}

/* Every difference's exposed pieces (those nearer than the best so far), the differences
 * nearest first. 0: out of memory. */
static int expose_all(search *sr)
{
    const arena *ar = sr->ar;
    for (int o = 0; o < ar->nd; o++) {
        int k = sr->order[o];
        const mdiff *d = &ar->d[k];
        if (box_dist(d) > umin(sr->best, sr->cap) + sr->margin)
            continue; /* its box is beyond: every piece is */
        if (box_far(d) + sr->margin < sr->floor)
            continue; /* its box is within the floor: every piece is */
        if (d->n == 1) {
            if (!vertex_piece(sr, k, 0, 1)) /* the whole circle, or a point */
                return 0;
            continue;
        }
        int first = 0, prev = 0;
        for (int i = 0; i < d->n; i++) {
            piece pc;
            int x = 0, open = 0; /* open: exposed, or not asked (beyond the annulus) */
            unsigned char *fl = &ar->f[d->first + i];
            if (!(*fl & 1)) { /* (a dropped edge is never exposed) */
                get_piece(ar->v + d->first, d, 2 * i, &pc);
                if (pc.dist < umin(sr->best, sr->cap) && pc.far >= sr->floor) {
                    x = segment_exposed(sr, k, &pc, *fl & 2);
                    *fl = (unsigned char)(x ? *fl & ~2 : *fl | 2);
                }
                open = x || !(pc.dist < umin(sr->best, sr->cap) && pc.far >= sr->floor);
            }
            if (x && !expose(sr, k, 2 * i, &pc))
                return 0;
            if (i == 0)
                first = open;
            else if (!vertex_piece(sr, k, 2 * i - 1, prev || open))
                return 0;
            prev = open;
        }
        if (!vertex_piece(sr, k, 2 * d->n - 1, prev || first))
            return 0;
    }
    return 1;
}

typedef struct by_x {
    double x;
    int i;
} by_x;

static int by_x_less(const void *p, const void *q)
{
    const by_x *a = (const by_x *)p, *b = (const by_x *)q;
    return a->x < b->x ? -1 : a->x > b->x ? 1 : (a->i > b->i) - (a->i < b->i);
}

/* The crossings of exposed pieces of different differences, the pieces in order of their
 * boxes' left sides (the pairs whose boxes meet: a sweep), each pair as the exhaustive
 * search takes it (D_ij before D_i'j': see consider). 0: out of memory. */
static int cross_exposed(search *sr)
{
    by_x sbuf[SAT__EXPOSED_STACK], *o = sbuf;
    int n = sr->nex;
    if (n > SAT__EXPOSED_STACK && (o = malloc((size_t)n * sizeof *o)) == NULL)
        return 0;
    for (int i = 0; i < n; i++)
        o[i].x = sr->ex[i].lo.x, o[i].i = i;
    qsort(o, (size_t)n, sizeof *o, by_x_less);
    for (int u = 0; u < n; u++) {
        for (int w = u + 1; w < n && !(sr->ex[o[u].i].hi.x < o[w].x); w++) {
            const piece *p = &sr->ex[o[u].i], *q = &sr->ex[o[w].i];
            const int *dp = &sr->exd[2 * o[u].i], *dq = &sr->exd[2 * o[w].i];
            const mdiff *a = &sr->ar->d[dp[0]], *b = &sr->ar->d[dq[0]];
            sat_vec x[2];
            if (dq[0] == dp[0] || p->hi.y < q->lo.y || q->hi.y < p->lo.y ||
                !(p->dist < sr->best) || !(q->dist < sr->best) || !boxes_cross(a, b))
                continue;
            if (b->i < a->i || (b->i == a->i && b->j < a->j)) {
                const piece *tp = p;
                const int *td = dp;
                const mdiff *ta = a;
                p = q, dp = dq, a = b;
                q = tp, dq = td, b = ta;
            }
            int m = cross_pieces(p, q, x);
            for (int j = 0; j < m; j++) {
                int rank[7] = {1, a->i, a->j, b->i, b->j, dp[1], 2 * dq[1] + j};
                consider(sr, x[j], rank);
            }
        }
    }
    if (o != sbuf)
        free(o);
    return 1;
}

/* A part and where it is (from a's position), its box about it. */
typedef struct placed {
    const sat_shape *s;
    sat_vec c;
    part_box b;
} placed;

#define SAT__PLACED_STACK 64

/* The shortest move along an axis that takes a's box (of its parts) off b's: an upper bound
 * of the answer (a moved so is apart from b, or touches it). */
static double box_exit(const sat_shape *A, const part_boxes *AB, const sat_shape *B,
                       const part_boxes *BB)
{
    sat_vec lo[2], hi[2];
    for (int s = 0; s < 2; s++) {
        const sat_shape *S = s == 0 ? A : B;
        const part_boxes *pb = s == 0 ? AB : BB;
        lo[s] = sat__v(HUGE_VAL, HUGE_VAL);
        hi[s] = sat__v(-HUGE_VAL, -HUGE_VAL);
        for (int i = 0; i < sat__nparts(S); i++) {
            sat_vec c = sat__offset(A, sat__part_of(S, i));
            part_box b = box_of(pb, i);
            lo[s] = sat__v(umin(lo[s].x, c.x + b.lo.x), umin(lo[s].y, c.y + b.lo.y));
            hi[s] = sat__v(umax(hi[s].x, c.x + b.hi.x), umax(hi[s].y, c.y + b.hi.y));
        }
    }
    return umin(umin(hi[1].x - lo[0].x, hi[0].x - lo[1].x),
                umin(hi[1].y - lo[0].y, hi[0].y - lo[1].y));
}

/* Whether c is inside no difference (all asked). */
static int outside_all(const search *sr, sat_vec c)
{
    for (int k = 0; k < sr->ar->nd; k++)
        if (refuses(sr, k, c))
            return 0;
    return 1;
}

/* The shortest t out of the union. The part pairs whose differences' boxes come within
 * `reach` take part: first those within twice the deepest pair's overlap, then those
 * within four times as far, and so on, until the search finds the answer nearer than any
 * pair left out; never farther than the boxes' exit (an upper bound of the answer). No t
 * shorter than the deepest part pair's overlap leaves that pair's difference: those
 * candidates are not checked. Returns 0 when out of memory. */
static int union_mtv(const sat_shape *A, const sat_shape *B, double tol, sat_vec deepest_mtv,
                     double deepest, sat_vec *t)
{
    int na = sat__nparts(A), nb = sat__nparts(B), ok = 1;
    part_boxes AB = boxes_of(A), BB = boxes_of(B);
    double size = A->bound + B->bound;
    double ub = box_exit(A, &AB, B, &BB) * (1.0 + 1e-9) + 1e-9 * size + tol;
    double reach = umin(2.0 * deepest + tol, ub), built = -HUGE_VAL;
    arena ar;
    search sr;
    scratch sc;
    facts fa, fb;
    facts_mem ma, mb;
    placed pbuf[SAT__PLACED_STACK], *pa = pbuf, *pb;
    ok = facts_begin(&fa, &ma, A) & facts_begin(&fb, &mb, B);
    if (na + nb > SAT__PLACED_STACK && (pa = malloc((size_t)(na + nb) * sizeof *pa)) == NULL) {
        pa = pbuf;
        ok = 0;
    }
    pb = pa + na;
    for (int i = 0; i < na && ok; i++) {
        pa[i].s = sat__part_of(A, i);
        pa[i].c = sat__offset(A, pa[i].s);
        pa[i].b = box_of(&AB, i);
    }
    for (int j = 0; j < nb && ok; j++) {
        pb[j].s = sat__part_of(B, j);
        pb[j].c = sat__offset(A, pb[j].s);
        pb[j].b = box_of(&BB, j);
    }
    arena_init(&ar, &fa, &fb);
    memset(&sr, 0, sizeof sr);
    sr.ar = &ar;
    sr.margin = 1e-7 * size;
    sr.floor = deepest - 1e-9 * size - tol;
    /* most part pairs within the first reach (two overlapping concave shapes): all of them
     * at once, never asked twice */
    long within = 0;
    for (int i = 0; i < na && ok; i++)
        for (int j = 0; j < nb; j++)
            within += !(box_reach(&pa[i].b, pa[i].c, &pb[j].b, pb[j].c) > reach);
    if (2 * within >= (long)na * nb)
        reach = ub;
    for (int round = 0; ok; round++) {
        /* the differences newly in reach (room for them first) */
        double beyond = HUGE_VAL;
        long nv = 0, nd = 0;
        for (int i = 0; i < na; i++) {
            for (int j = 0; j < nb; j++) {
                double lb = box_reach(&pa[i].b, pa[i].c, &pb[j].b, pb[j].c);
                if (!(lb > reach) && lb > built) {
                    nv += 2 * (core_count(pa[i].s) + core_count(pb[j].s));
                    nd++;
                }
            }
        }
        ok = nv + ar.nv < 0x3fffffffL && arena_reserve(&ar, (int)nv, (int)nd);
        for (int i = 0; i < na && ok; i++) {
            for (int j = 0; j < nb && ok; j++) {
                double lb = box_reach(&pa[i].b, pa[i].c, &pb[j].b, pb[j].c);
                if (lb > reach)
                    beyond = umin(beyond, lb);
                else if (lb > built)
                    ok = add_diff(&ar, pa[i].s, pa[i].c, pb[j].s, pb[j].c, i, j);
            }
        }
        built = reach;
        if (!ok)
            break;
        if (round == 0 && outside_all(&sr, deepest_mtv)) {
            /* the deepest pair's own MTV, when it leaves every other difference, is the
             * least there can be */
            *t = deepest_mtv;
            break;
        }
        sr.best = HUGE_VAL;
        sr.cap = umin(beyond, ub);
        sr.last = 0;
        ok = search_begin(&sr, &sc, sr.cap);
        if (ok) {
            raise_floor(&sr);
            ok = expose_all(&sr) && cross_exposed(&sr);
            search_end(&sr, &sc);
        }
        if (ok && (sr.best < HUGE_VAL || !(beyond < HUGE_VAL))) {
            *t = sr.at;
            ok = sr.best < HUGE_VAL;
            break;
        }
        sr.done = umin(sr.best, sr.cap) + sr.margin;
        if (!(reach < ub))
            ub = HUGE_VAL; /* (rounding: no answer within the bound) */
        reach = umin(4.0 * umax(beyond, reach), ub);
    }
    arena_free(&ar);
    facts_end(&ma);
    facts_end(&mb);
    if (pa != pbuf)
        free(pa);
    return ok;
}

/* The boxes of x and y (parts; their boxes xb and yb) come within the pair's own gap
 * (sat__part_gap: the one rule of every compound path). */
static int boxes_meet(const sat_shape *x, const part_box *xb, const sat_shape *y,
                      const part_box *yb)
{
    return !sat__boxes_apart(xb->lo, xb->hi, sat__offset(x, y), yb->lo, yb->hi,
                             sat__part_gap(x, y));
}

int sat__compound_test(const sat_shape *a, const sat_shape *b, const sat__pair_fns *fns)
{
    part_boxes ab = boxes_of(a), bb = boxes_of(b);
    for (int i = 0; i < sat__nparts(a); i++) {
        const sat_shape *x = sat__part_of(a, i);
        part_box xb = box_of(&ab, i);
        for (int j = 0; j < sat__nparts(b); j++) {
            const sat_shape *y = sat__part_of(b, j);
            part_box yb = box_of(&bb, j);
            if (boxes_meet(x, &xb, y, &yb) && fns->test(x, y))
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
        sat_vec lo = sat__v(umin(e0.x, e1.x), umin(e0.y, e1.y));
        sat_vec hi = sat__v(umax(e0.x, e1.x), umax(e0.y, e1.y));
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
                       const sat__pair_fns *fns)
{
    const sat_shape *s = sb->s;
    if (s->kind == SAT_COMPOUND && sat_compound_form(s) == SAT_FORM_CONCAVE)
        return in_outline(x, xb, s, fns);
    for (int j = 0; j < sat__nparts(s); j++) {
        const sat_shape *y = sat__part_of(s, j);
        part_box yb = box_of(sb, j);
        sat_result r;
        if (boxes_meet(x, xb, y, &yb) && fns->collide(x, y, &r) && r.a_in_b)
            return 1;
    }
    return 0;
}

static int all_inside(const part_boxes *ab, const part_boxes *bb, const sat__pair_fns *fns)
{
    for (int i = 0; i < sat__nparts(ab->s); i++) {
        part_box xb = box_of(ab, i);
        if (!part_inside(sat__part_of(ab->s, i), &xb, bb, fns))
            return 0;
    }
    return 1;
}

/* ---- seams ------------------------------------------------------------------------------
 * A concave's parts meet along seams: edges of its parts inside its outline, no surface of
 * the shape, so their normals are none of its. A pair of parts touching where a seam meets
 * the outline (an inner corner) may give one; the union's answer there is another pair's. */

/* The squared distance from p to the segment from e0 to e1. */
static double seg_dist2(sat_vec p, sat_vec e0, sat_vec e1)
{
    sat_vec e = sat__sub(e1, e0), q = sat__sub(p, e0);
    double ee = sat__dot(e, e), u = ee > 0.0 ? sat__dot(q, e) / ee : 0.0;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    sat_vec d = sat__sub(q, sat__mul(e, u));
    return sat__dot(d, d);
}

/* Whether n is the outward normal of a seam of part i of c: an edge with that normal, bit
 * for bit (the sweeps give a face's normal as stored), that holds no edge of the outline
 * (both ends within tol of it). A part's corners are outline points, so an edge of a part on
 * the outline holds one or more of its edges whole; a seam runs inside, meeting the outline
 * at points only (its ends, and a vertex it passes straight through). */
static int seam_normal(const sat_shape *c, int i, sat_vec n)
{
    const sat_shape *p;
    if (c->kind != SAT_COMPOUND || sat__outline_n(c) == 0)
        return 0;
    p = sat__cpart(c, i);
    if (p->kind != SAT_POLYGON)
        return 0;
    const sat_vec *nn = sat__cnormal(p), *o = sat__coff(p), *w = sat__coutline_world(c);
    int N = sat__outline_n(c);
    for (int f = 0; f < p->count; f++) {
        if (nn[f].x == n.x && nn[f].y == n.y) {
            sat_vec at = sat__cpart_table(c, i)[0];
            sat_vec e0 = sat__add(at, o[f]), e1 = sat__add(at, o[f + 1 == p->count ? 0 : f + 1]);
            double tol = SAT_MERGE_REL * c->bound, tt = tol * tol;
            for (int k = 0; k < N; k++) {
                sat_vec w1 = w[k + 1 == N ? 0 : k + 1];
                if (seg_dist2(w[k], e0, e1) <= tt && seg_dist2(w1, e0, e1) <= tt)
                    return 0;
            }
            return 1;
        }
    }
    return 0;
}

int sat__seam_pair(const sat_shape *a, int i, const sat_shape *b, int j, sat_vec n)
{
    return seam_normal(b, j, sat__neg(n)) || seam_normal(a, i, n);
}

/* The first part pair after (fi, fj), in the pairs' order, touching with a normal that is
 * no seam's: its result in *r, if any. */
static void next_touch(const sat_shape *a, const part_boxes *ab, const sat_shape *b,
                       const part_boxes *bb, int fi, int fj, const sat__pair_fns *fns,
                       sat_result *r)
{
    for (int i = fi; i < sat__nparts(a); i++) {
        const sat_shape *x = sat__part_of(a, i);
        part_box xb = box_of(ab, i);
        for (int j = i == fi ? fj + 1 : 0; j < sat__nparts(b); j++) {
            const sat_shape *y = sat__part_of(b, j);
            part_box yb = box_of(bb, j);
            sat_result pr;
            if (boxes_meet(x, &xb, y, &yb) && fns->collide(x, y, &pr) &&
                !sat__seam_pair(a, i, b, j, pr.normal)) {
                *r = pr;
                return;
            }
        }
    }
}

int sat__compound_collide(const sat_shape *a, const sat_shape *b, sat_result *r,
                          const sat__pair_fns *fns)
{
    double tol = sat__touch_tol(a, b);
    part_boxes ab = boxes_of(a), bb = boxes_of(b);
    int any = 0, deep = 0, single = 1, fi = 0, fj = 0;
    sat_result first, deepest;
    for (int i = 0; i < sat__nparts(a); i++) {
        const sat_shape *x = sat__part_of(a, i);
        part_box xb = box_of(&ab, i);
        for (int j = 0; j < sat__nparts(b); j++) {
            const sat_shape *y = sat__part_of(b, j);
            part_box yb = box_of(&bb, j);
            sat_result pr;
            if (!boxes_meet(x, &xb, y, &yb) || !fns->collide(x, y, &pr))
                continue;
            if (!any) {
                first = pr;
                fi = i;
                fj = j;
            }
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
        /* touching only: the first pair's result, or when its normal is a seam's, the first
         * pair's that is not (the first's when every one is) */
        *r = first;
        if (sat__seam_pair(a, fi, b, fj, first.normal))
            next_touch(a, &ab, b, &bb, fi, fj, fns, r);
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
            if (!SAT_UNION_MTV(a, b, tol, deepest.mtv, deepest.overlap, &t)) {
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
    r->a_in_b = all_inside(&ab, &bb, fns);
    r->b_in_a = all_inside(&bb, &ab, fns);
    return 1;
}
