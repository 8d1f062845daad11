/*
 * test_union_search.c - the union's MTV (src/core/sat_union.c) against the exhaustive search it
 * replaced, kept here, test-only, as the oracle: bit for bit the same result.
 *
 * The core's file is compiled a second time in this file, its search swapped for the
 * exhaustive one (SAT_UNION_MTV) and its exported functions renamed, so that both run
 * on the same differences, pieces and candidates: every candidate of every piece (its own
 * points, and its crossings with every piece of every other difference whose box it meets),
 * each checked against every difference. The pruned search must give the same answer: the
 * same point, so the same overlap, normal, MTV and flags.
 *
 * Pairs (at least one a compound, both orders): random concave outlines (star-shaped, up to
 * 40 points, deep notches), stars of 4 to 24 spikes, zigzag and random chains (open and
 * closed), unions of 2 to 8 parts of every kind (polygons, circles, segments, capsules,
 * zero radius too), placed overlapping, touching (moved out by the exhaustive MTV, or boxes
 * resting on each other), rotated and scaled, and far from the origin (1e6 and 1e9 away).
 */
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

static int ex_union_mtv(const sat_shape *A, const sat_shape *B, double tol, sat_vec deepest_mtv,
                        double deepest, sat_vec *t);
#define SAT_UNION_MTV ex_union_mtv
#define sat__compound_test ex_compound_test
#define sat__compound_collide ex_compound_collide
#define sat__seam_pair ex_seam_pair
#include "sat_union.c"
#undef sat__compound_test
#undef sat__compound_collide
#undef sat__seam_pair
int sat__compound_collide(const sat_shape *a, const sat_shape *b, sat_result *r,
                          const sat__pair_fns *fns);

/* ---- the exhaustive search, as it was --------------------------------------------------- */

static int ex_piece_count(const mdiff *d)
{
    return d->n == 1 ? 1 : 2 * d->n;
}

/* 1: the exhaustive search takes every piece, the dropped ones too (what the answer would be
 * without the outlines' facts). */
static int ex_unfiltered;

/* Whether piece idx of d is dropped: an edge marked so, a corner (radius 0) between two. */
static int ex_dropped(const arena *ar, const mdiff *d, int idx)
{
    const unsigned char *f = ar->f + d->first;
    if (ex_unfiltered || d->n == 1)
        return 0;
    if (idx % 2 == 0)
        return f[idx / 2] & 1;
    return !(d->r > 0.0) && (f[idx / 2] & 1) && (f[(idx / 2 + 1) % d->n] & 1);
}

/* Every difference is asked. */
static void ex_consider(search *sr, sat_vec c)
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

/* Crossings of two differences' boundaries (pieces pa[0, na) and pb[0, nb)), skipping pieces
 * that come no nearer than the best so far (a crossing lies on both). */
static void ex_crossing_candidates(search *sr, const piece *pa, int na, const piece *pb, int nb)
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
                ex_consider(sr, x[m]);
        }
    }
}


#define EX_PIECES_STACK 192

static void ex_sift_down(cand *h, int n, int i)
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
static int ex_search_pieces(search *sr)
{
    const arena *ar = sr->ar;
    piece pstack[EX_PIECES_STACK], *pcs = pstack;
    cand cstack[3 * EX_PIECES_STACK], *cs = cstack;
    int total = 0, nc = 0;
    for (int k = 0; k < ar->nd; k++)
        total += ex_piece_count(&ar->d[k]);
    if (total > EX_PIECES_STACK) {
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
        for (int idx = 0; idx < ex_piece_count(d); idx++, at++) {
            get_piece(ar->v + d->first, d, idx, &pcs[at]);
            if (pcs[at].far >= sr->floor && !ex_dropped(ar, d, idx))
                piece_points(&pcs[at], cs, &nc);
        }
    }
    /* the nearest first, from a binary heap (most of the nearest are inside another
     * difference; the rest is then pruned by distance) */
    for (int i = nc / 2 - 1; i >= 0; i--)
        ex_sift_down(cs, nc, i);
    for (int n = nc; n > 0 && cs[0].norm < sr->best;) {
        ex_consider(sr, cs[0].c);
        cs[0] = cs[--n];
        ex_sift_down(cs, n, 0);
    }
    /* the pieces that may still cross nearer than that (corners cross nothing), kept in
     * place, each difference's after the previous one's; then the pairs of differences */
    int *first = (int *)(void *)cs, kept = 0; /* cs is free now: room for nd + 1 ints */
    for (int k = 0, at = 0; k < ar->nd; k++) {
        first[k] = kept;
        for (int idx = 0; idx < ex_piece_count(&ar->d[k]); idx++, at++)
            if (pcs[at].dist < sr->best && pcs[at].far >= sr->floor &&
                !(pcs[at].arc && !(pcs[at].r > 0.0)) && !ex_dropped(ar, &ar->d[k], idx))
                pcs[kept++] = pcs[at];
    }
    first[ar->nd] = kept;
    for (int k = 0; k < ar->nd; k++)
        for (int m = k + 1; m < ar->nd; m++)
            if (first[k] < first[k + 1] && first[m] < first[m + 1] &&
                boxes_cross(&ar->d[k], &ar->d[m]))
                ex_crossing_candidates(sr, pcs + first[k], first[k + 1] - first[k],
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
static int ex_union_mtv(const sat_shape *A, const sat_shape *B, double tol,
                        sat_vec deepest_mtv, double deepest, sat_vec *t)
{
    int na = sat__nparts(A), nb = sat__nparts(B);
    part_boxes AB = boxes_of(A), BB = boxes_of(B);
    double reach = 2.0 * deepest + tol;
    arena ar;
    search sr;
    facts fa, fb;
    facts_mem ma, mb;
    if (!(facts_begin(&fa, &ma, A) & facts_begin(&fb, &mb, B))) {
        facts_end(&ma);
        facts_end(&mb);
        return 0;
    }
    arena_init(&ar, &fa, &fb);
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
                if (!add_diff(&ar, x, ca, y, cb, i, j)) {
                    arena_free(&ar);
                    facts_end(&ma);
                    facts_end(&mb);
                    return 0;
                }
            }
        }
        memset(&sr, 0, sizeof sr);
        sr.ar = &ar;
        sr.best = HUGE_VAL;
        sr.floor = deepest - 1e-9 * (A->bound + B->bound) - tol;
        sr.last = 0;
        sr.at = sat__v(0.0, 0.0);
        /* the deepest pair's own MTV, when it leaves every other difference, is the least
         * there can be */
        sr.floor = -HUGE_VAL;
        ex_consider(&sr, deepest_mtv);
        sr.floor = deepest - 1e-9 * (A->bound + B->bound) - tol;
        if (sr.best < HUGE_VAL) {
            *t = sr.at;
            arena_free(&ar);
            facts_end(&ma);
            facts_end(&mb);
            return 1;
        }
        if (!ex_search_pieces(&sr)) {
            arena_free(&ar);
            facts_end(&ma);
            facts_end(&mb);
            return 0;
        }
        if (sr.best <= beyond || !(beyond < HUGE_VAL)) {
            *t = sr.at;
            arena_free(&ar);
            facts_end(&ma);
            facts_end(&mb);
            return sr.best < HUGE_VAL;
        }
        reach = sr.best < HUGE_VAL ? sr.best : 2.0 * fmax(beyond, reach);
    }
}


/* ---- random pairs ---------------------------------------------------------------------- */

#define PI 3.14159265358979323846
#define SEED 0x5ea7c4ULL

static double uni(ctest_rng *g, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(ctest_next(g) >> 11) * (1.0 / 9007199254740992.0));
}

static int below(ctest_rng *g, int n)
{
    return (int)(ctest_next(g) % (uint64_t)n);
}

static sat_shape *from_points(const sat_vec *p, int n, int kind, int closed)
{
    sat_status st;
    sat_shape *s = kind == 0 ? sat_concave_new(p, n, &st) : sat_chain_new(p, n, closed, &st);
    ENSUREF(s != NULL, "%s refused: %s", kind == 0 ? "outline" : "chain", sat_status_message(st));
    return s;
}

/* A star-shaped outline of 5 to 40 points, up to r across, deep notches among them. */
static sat_shape *random_outline(ctest_rng *g, double r)
{
    sat_vec p[40];
    int n = 5 + below(g, 36);
    double ph = uni(g, 0, 2 * PI);
    for (int i = 0; i < n; i++) {
        double t = ph + 2 * PI * (i + uni(g, -0.3, 0.3)) / n;
        double rr = r * (below(g, 3) == 0 ? uni(g, 0.15, 0.5) : uni(g, 0.6, 1.0));
        p[i] = orc_v(rr * cos(t), rr * sin(t));
    }
    return from_points(p, n, 0, 0);
}

/* A star of 3 to 16 spikes (up to 24 now and then). */
static sat_shape *random_star(ctest_rng *g, double r)
{
    sat_vec p[48];
    int k = below(g, 8) == 0 ? 17 + below(g, 8) : 3 + below(g, 14);
    double in = uni(g, 0.25, 0.75), ph = uni(g, 0, 2 * PI);
    for (int i = 0; i < 2 * k; i++) {
        double t = ph + PI * i / k;
        p[i] = orc_v((i % 2 ? in * r : r) * cos(t), (i % 2 ? in * r : r) * sin(t));
    }
    return from_points(p, 2 * k, 0, 0);
}

/* A zigzag or a random polyline of 2 to 30 points, sometimes closed. */
static sat_shape *random_chain(ctest_rng *g, double r)
{
    sat_vec p[30];
    int n = 2 + below(g, 29), zig = below(g, 2);
    double amp = r * uni(g, 0.05, 0.5);
    for (int i = 0; i < n; i++) {
        double x = -r + 2 * r * i / (n - 1);
        p[i] = zig ? orc_v(x, i % 2 ? amp : -amp) : orc_v(x + uni(g, -0.3, 0.3) * r / n, uni(g, -r, r) * 0.5);
    }
    return from_points(p, n, 1, n >= 3 && below(g, 4) == 0);
}

/* A convex shape of any kind about (x, y), up to r across (radius 0 now and then). */
static sat_shape *random_convex(ctest_rng *g, double x, double y, double r)
{
    int kind = below(g, 4);
    if (kind == 0) {
        double xy[20];
        int n = 3 + below(g, 8);
        for (int i = 0; i < n; i++) {
            double t = 2 * PI * (i + uni(g, -0.3, 0.3)) / n;
            xy[2 * i] = x + r * cos(t);
            xy[2 * i + 1] = y + r * 0.6 * sin(t);
        }
        return mk_polygon(xy, n);
    }
    if (kind == 1)
        return mk_circle(x, y, below(g, 6) == 0 ? 0.0 : r * uni(g, 0.2, 1));
    double th = uni(g, 0, 2 * PI), l = r * uni(g, 0.2, 1);
    double x1 = x - l * cos(th), y1 = y - l * sin(th), x2 = x + l * cos(th), y2 = y + l * sin(th);
    if (kind == 2)
        return mk_segment(x1, y1, x2, y2);
    return mk_capsule(x1, y1, x2, y2, below(g, 6) == 0 ? 0.0 : r * uni(g, 0.05, 0.5));
}

/* A union of 2 to 8 parts of mixed kinds. */
static sat_shape *random_union(ctest_rng *g, double r)
{
    sat_shape *p[8];
    int n = 2 + below(g, 7);
    for (int i = 0; i < n; i++)
        p[i] = random_convex(g, uni(g, -r, r) * 0.7, uni(g, -r, r) * 0.7, r * 0.5);
    sat_status st;
    sat_shape *s = all_built(p, n) ? sat_compound_new((const sat_shape *const *)p, n, &st) : NULL;
    ENSUREF(s != NULL, "union refused");
    free_shapes(p, n);
    return s;
}

static sat_shape *random_compound(ctest_rng *g, double r)
{
    switch (below(g, 4)) {
    case 0:
        return random_outline(g, r);
    case 1:
        return random_star(g, r);
    case 2:
        return random_chain(g, r);
    default:
        return random_union(g, r);
    }
}

/* ---- the comparison -------------------------------------------------------------------- */

typedef struct tally {
    long pairs, hits, deep, touching, far, ties, filtered;
    double worst; /* the most the filtered answer is longer, in touch tolerances */
} tally;

static const sat__pair_fns part_fns = {sat_test, sat_collide};

static int same_result(const sat_result *p, const sat_result *q)
{
    return memcmp(&p->overlap, &q->overlap, sizeof p->overlap) == 0 &&
           memcmp(&p->normal, &q->normal, sizeof p->normal) == 0 &&
           memcmp(&p->mtv, &q->mtv, sizeof p->mtv) == 0 && p->a_in_b == q->a_in_b &&
           p->b_in_a == q->b_in_a;
}

/* Whether a moved by t overlaps b through no part pair by more than the pair's own touch
 * tolerance. */
static int leaves(const sat_shape *a, const sat_shape *b, sat_vec t)
{
    sat_shape *m = sat_shape_clone(a);
    int out = 1;
    sat_shape_move(m, t.x, t.y);
    for (int i = 0; i < sat__nparts(m) && out; i++)
        for (int j = 0; j < sat__nparts(b) && out; j++) {
            sat_result r;
            const sat_shape *x = sat__part_of(m, i), *y = sat__part_of(b, j);
            out = !sat_collide(x, y, &r) || r.overlap <= sat__touch_tol(x, y);
        }
    sat_shape_free(m);
    return out;
}

/* Both searches on the pair (in sat_collide's order, the compound second); the exhaustive
 * result in *ex. Where two candidates tie (as long to the bit, at different points), each
 * search takes its own: then the overlap is the same and the pruned one's point leaves the
 * union too. */
static int check_pair(const sat_shape *a, const sat_shape *b, const char *what, long i, tally *t,
                      sat_result *ex)
{
    if (!sat__comes_first(a, b)) {
        const sat_shape *s = a;
        a = b;
        b = s;
    }
    sat_result rn, re, ru;
    int hn = sat__compound_collide(a, b, &rn, &part_fns);
    int he = ex_compound_collide(a, b, &re, &part_fns);
    /* every piece taken: the answer without the outlines' facts, never longer, and the
     * filtered one longer by no more than the touch tolerance */
    ex_unfiltered = 1;
    int hu = ex_compound_collide(a, b, &ru, &part_fns);
    ex_unfiltered = 0;
    ENSUREF(hu == he, "%s pair %ld: unfiltered %d, filtered %d", what, i, hu, he);
    if (hu && he && (ru.overlap != re.overlap || ru.mtv.x != re.mtv.x || ru.mtv.y != re.mtv.y)) {
        double tl = sat__touch_tol(a, b), more = (re.overlap - ru.overlap) / tl;
        t->filtered++;
        t->worst = fmax(t->worst, more);
        ENSUREF(re.overlap >= ru.overlap && re.overlap - ru.overlap <= tl,
                "%s pair %ld: filtered %.17g, unfiltered %.17g (touch tolerance %.3g)", what, i,
                re.overlap, ru.overlap, tl);
        ENSUREF(leaves(a, b, re.mtv), "%s pair %ld: the filtered MTV leaves an overlap", what, i);
    }
    t->pairs++;
    t->hits += he;
    t->deep += he && re.overlap > 0.0;
    if (hn && he && !same_result(&rn, &re) && rn.overlap == re.overlap &&
        rn.a_in_b == re.a_in_b && rn.b_in_a == re.b_in_a && leaves(a, b, rn.mtv)) {
        t->ties++;
        *ex = re;
        return he;
    }
    ENSUREF(hn == he && (!he || same_result(&rn, &re)),
            "%s pair %ld: pruned %d (%.17g; %.17g %.17g), exhaustive %d (%.17g; %.17g %.17g)",
            what, i, hn, rn.overlap, rn.mtv.x, rn.mtv.y, he, re.overlap, re.mtv.x, re.mtv.y);
    *ex = re;
    return he;
}

static void test_random_pairs(void)
{
    ctest_rng g = {SEED};
    tally t;
    memset(&t, 0, sizeof t);
    const char *env = getenv("SAT_UNION_PAIRS");
    long pairs = env ? atol(env) : 3000;
    for (long i = 0; i < pairs; i++) {
        double r = uni(&g, 2, 10);
        sat_shape *b = random_compound(&g, r);
        sat_shape *a = below(&g, 3) == 0 ? random_convex(&g, 0, 0, uni(&g, 1, 6))
                                         : random_compound(&g, uni(&g, 1, 10));
        if (a == NULL || b == NULL) {
            sat_shape_free(a);
            sat_shape_free(b);
            continue;
        }
        sat_shape_rotate(b, uni(&g, -PI, PI));
        sat_shape_rotate(a, uni(&g, -PI, PI));
        if (below(&g, 3) == 0)
            sat_shape_scale(b, uni(&g, 0.5, 2));
        sat_shape_move(a, uni(&g, -r, r), uni(&g, -r, r));
        if (below(&g, 4) == 0) { /* far from the origin */
            double far = below(&g, 2) ? 1e6 : 1e9;
            sat_shape_move(a, far, -far);
            sat_shape_move(b, far, -far);
            t.far++;
        }
        sat_result ex;
        if (check_pair(a, b, "random", i, &t, &ex) && ex.overlap > 0.0) {
            /* moved out by the MTV: touching */
            sat_shape *m = sat_shape_clone(a);
            sat_vec d = sat__comes_first(a, b) ? ex.mtv : sat__neg(ex.mtv);
            sat_shape_move(m, d.x, d.y);
            check_pair(m, b, "touching", i, &t, &ex);
            t.touching++;
            sat_shape_free(m);
        }
        sat_shape_free(a);
        sat_shape_free(b);
    }
    printf("  union search: %ld pairs (%ld hits, %ld overlapping, %ld touching, %ld far from 0), "
           "the pruned search as the exhaustive one bit for bit (%ld ties of two points as far); "
           "%ld answers moved by the outlines' facts, by at most %.3g touch tolerances\n",
           t.pairs, t.hits, t.deep, t.touching, t.far, t.ties, t.filtered, t.worst);
}

/* The two searches called directly on two overlapping stars, whose union's MTV is none of
 * the part pairs': the same point. */
static void test_stars(void)
{
    sat_vec p[32];
    sat_shape *s[2];
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 32; i++) {
            double t = PI * i / 16 + 0.37 * k, rr = i % 2 ? 5.0 : 10.0;
            p[i] = orc_v(1.3 * k + rr * cos(t), 0.7 * k + rr * sin(t));
        }
        s[k] = from_points(p, 32, 0, 0);
    }
    if (!s[0] || !s[1])
        return;
    /* the outlines' facts: every part vertex an outline point, and the decomposition's
     * diagonals (a tree of P parts: P - 1 of them) each seen from both its parts */
    for (int k = 0; k < 2; k++) {
        facts f;
        facts_mem fm;
        int unmatched = 0, diags = 0;
        ENSURE(facts_begin(&f, &fm, s[k]));
        ENSURE(f.s == s[k]);
        for (int e = 0; f.s && e < f.at[s[k]->count]; e++) {
            unmatched += f.m[e] < 0;
            diags += f.diag[e];
        }
        ENSURE_EQ_INT(unmatched, 0);
        ENSURE_EQ_INT(diags, 2 * (s[k]->count - 1));
        facts_end(&fm);
    }
    double tol = sat__touch_tol(s[0], s[1]);
    sat_result deepest;
    deepest.overlap = -1.0;
    for (int i = 0; i < s[0]->count; i++)
        for (int j = 0; j < s[1]->count; j++) {
            sat_result r;
            if (sat_collide(sat__part_of(s[0], i), sat__part_of(s[1], j), &r) &&
                r.overlap > deepest.overlap)
                deepest = r;
        }
    sat_vec tp = {0.0, 0.0}, te = tp; /* (read by the checks below even when a search fails) */
    ENSURE(union_mtv(s[0], s[1], tol, deepest.mtv, deepest.overlap, &tp));
    ENSURE(ex_union_mtv(s[0], s[1], tol, deepest.mtv, deepest.overlap, &te));
    ENSUREF(tp.x == te.x && tp.y == te.y, "pruned (%.17g %.17g), exhaustive (%.17g %.17g)", tp.x,
            tp.y, te.x, te.y);
    ENSUREF(sat__len(te) > deepest.overlap + 1.0, "the union's MTV %.17g, the deepest pair's %.17g",
            sat__len(te), deepest.overlap);
    sat_shape_free(s[0]);
    sat_shape_free(s[1]);
}

/* Two zigzag chains crossing at right angles (their union's MTV takes one off the other's
 * end), of 4 to 24 segments, and at other angles. */
static void test_zigzags(void)
{
    tally t;
    memset(&t, 0, sizeof t);
    for (int n = 4; n <= 24; n += 2)
        for (int q = 0; q < 4; q++) {
            sat_vec p[25];
            sat_shape *z[2];
            double ang[4] = {PI / 2, 0.5, 1.2, PI / 3};
            for (int k = 0; k < 2; k++) {
                double rot = k * ang[q], amp = q == 3 ? 0.6 : 2.0;
                for (int i = 0; i <= n; i++) {
                    double u = i - n / 2.0, v = i % 2 ? amp : 0.0;
                    p[i] = orc_v(0.1 * k + u * cos(rot) - v * sin(rot),
                                 0.2 * k + u * sin(rot) + v * cos(rot));
                }
                z[k] = from_points(p, n + 1, 1, 0);
            }
            sat_result ex;
            if (z[0] && z[1])
                check_pair(z[0], z[1], "zigzag", n * 4 + q, &t, &ex);
            sat_shape_free(z[0]);
            sat_shape_free(z[1]);
        }
    ENSURE_EQ_INT(t.hits, t.pairs);
}

void run_union_search_tests(void)
{
    RUN_TEST(test_stars);
    RUN_TEST(test_zigzags);
    RUN_TEST(test_random_pairs);
}
