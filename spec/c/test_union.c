/*
 * test_union.c - compounds' pair tests (src/core/sat_union.c): the union's MTV and
 * containment, for concave outlines, unions of parts and chains, against an independent
 * brute-force oracle.
 *
 * The oracle (below, no sat_* pair test): for a pair a, b, every part pair (a_i, b_j) gives the
 * set of translations t after which a_i + t overlaps b_j: the hull of every difference of
 * their core points (oracle.h's orc_hull, not the core's Minkowski merge) grown by the radii.
 * Along a direction u, each such set covers an interval of distances, found in closed form
 * (its polygon's half-planes, its edges' capsules); the first distance along u not covered by
 * any is where the pair stops overlapping. The MTV's length is the least of those over 256
 * directions, each local minimum refined by golden-section search over the direction, and
 * the core's own direction (a narrow pocket between parts can lie between two samples).
 *
 * The property test (>= 100,000 pairs: random simple concave outlines, compounds of 2 to 5
 * parts of every kind and chains, against every kind) checks:
 *   1. sat_test and sat_collide agree, and with the oracle away from touching;
 *   2. the MTV's length equals the oracle's within 1e-9 of the pair's size, and no direction
 *      the oracle sampled leaves sooner;
 *   3. after a moves by its MTV no part of a overlaps a part of b beyond 1e-9 of the size;
 *   4. swapping a and b flips the normal and swaps the containment flags, bit for bit;
 *   5. moving both by (1e9, -1e9) gives the same overlap and normal within 1e-9.
 */
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"

#define PI 3.14159265358979323846
#define SEED 0xc0ffee16ULL
#define PAIRS 100000
#define TOL_REL 1e-9
#define DIRS 256

static double uniform(ctest_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(ctest_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

static int below(ctest_rng *r, int n)
{
    return (int)(ctest_next(r) % (uint64_t)n);
}
/* ---- the oracle ---------------------------------------------------------------------- */

typedef struct obody {
    sat_vec p[ORC_MAX_POINTS * 2 + 8];
    int n;
    double r;
} obody;

/* The translations after which part x overlaps part y, relative to the point o. */
static void oracle_diff(const sat_shape *x, const sat_shape *y, sat_vec o, obody *d)
{
    sat_vec a[ORC_MAX_POINTS], b[ORC_MAX_POINTS], all[ORC_MAX_POINTS * ORC_MAX_POINTS / 4];
    int na = shape_points(x, a), nb = shape_points(y, b), k = 0;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < na; j++)
            all[k++] = orc_v((b[i].x - o.x) - (a[j].x - o.x), (b[i].y - o.y) - (a[j].y - o.y));
    d->r = x->radius + y->radius;
    d->n = orc_hull(all, k, d->p);
    if (d->n < 3) { /* collinear: the extremes */
        int e1 = 0, e2 = 0;
        double far = -1;
        for (int i = 0; i < k; i++) {
            double l = hypot(all[i].x - all[0].x, all[i].y - all[0].y);
            if (l > far)
                far = l, e1 = i;
        }
        far = -1;
        for (int i = 0; i < k; i++) {
            double l = hypot(all[i].x - all[e1].x, all[i].y - all[e1].y);
            if (l > far)
                far = l, e2 = i;
        }
        d->p[0] = all[e1];
        d->p[1] = all[e2];
        d->n = far > 0 ? 2 : 1;
    }
}

/* The chord of the disk (c, r) on the ray s * u: [lo, hi], or lo > hi. */
static void disk_chord(sat_vec c, double r, sat_vec u, double *lo, double *hi)
{
    double m = c.x * u.x + c.y * u.y, q = c.x * c.x + c.y * c.y - r * r, disc = m * m - q;
    if (disc <= 0) {
        *lo = 1;
        *hi = 0;
        return;
    }
    *lo = m - sqrt(disc);
    *hi = m + sqrt(disc);
}

static void widen(double *lo, double *hi, double l, double h)
{
    if (l < h) {
        *lo = fmin(*lo, l);
        *hi = fmax(*hi, h);
    }
}

/* The chord of the band within r of the segment a-b (its rectangle). */
static void band_chord(sat_vec a, sat_vec b, double r, sat_vec u, double *lo, double *hi)
{
    sat_vec e = orc_v(b.x - a.x, b.y - a.y);
    double L = hypot(e.x, e.y);
    *lo = -HUGE_VAL;
    *hi = HUGE_VAL;
    if (!(L > 0)) {
        *lo = 1;
        *hi = 0;
        return;
    }
    sat_vec t = orc_v(e.x / L, e.y / L), n = orc_v(-t.y, t.x);
    /* slabs: 0 < (s u - a).t < L and -r < (s u - a).n < r */
    double slabs[2][3] = {{t.x * u.x + t.y * u.y, -(a.x * t.x + a.y * t.y), L},
                          {n.x * u.x + n.y * u.y, -(a.x * n.x + a.y * n.y), r}};
    for (int k = 0; k < 2; k++) {
        double du = slabs[k][0], off = slabs[k][1], w = slabs[k][2];
        double lo_v = k == 0 ? 0.0 : -w, hi_v = k == 0 ? w : w;
        if (du == 0.0) {
            if (!(off > lo_v && off < hi_v)) {
                *lo = 1;
                *hi = 0;
                return;
            }
            continue;
        }
        double s1 = (lo_v - off) / du, s2 = (hi_v - off) / du;
        if (s1 > s2) {
            double tmp = s1;
            s1 = s2;
            s2 = tmp;
        }
        *lo = fmax(*lo, s1);
        *hi = fmin(*hi, s2);
    }
}

/* The open interval of distances along u at which the point is inside d by more than tol. */
static void body_chord(const obody *d, sat_vec u, double tol, double *lo, double *hi)
{
    double r = d->r - tol;
    *lo = HUGE_VAL;
    *hi = -HUGE_VAL;
    if (d->n >= 3) { /* the polygon, inset by tol when it has no radius */
        double l = -HUGE_VAL, h = HUGE_VAL, inset = r < 0 ? tol : 0.0;
        for (int i = 0; i < d->n && l < h; i++) {
            sat_vec a = d->p[i], b = d->p[(i + 1) % d->n];
            double ex = b.x - a.x, ey = b.y - a.y, len = hypot(ex, ey);
            sat_vec nn = orc_v(ey / len, -ex / len); /* outward */
            double du = nn.x * u.x + nn.y * u.y, c = nn.x * a.x + nn.y * a.y - inset;
            if (du > 0)
                h = fmin(h, c / du);
            else if (du < 0)
                l = fmax(l, c / du);
            else if (c <= 0)
                l = h = 0;
        }
        widen(lo, hi, l, h);
    }
    if (r <= 0)
        return;
    for (int i = 0; i < d->n; i++) {
        double l, h;
        disk_chord(d->p[i], r, u, &l, &h);
        widen(lo, hi, l, h);
        if (d->n >= 2 && (d->n > 2 || i == 0)) {
            band_chord(d->p[i], d->p[(i + 1) % d->n], r, u, &l, &h);
            widen(lo, hi, l, h);
        }
    }
}

typedef struct oracle {
    obody *d;
    int n;
    double tol;
    double *lo, *hi;
} oracle;

/* The first distance along the direction at angle th at which no body covers the point. */
static double exit_along(const oracle *o, double th)
{
    sat_vec u = orc_v(cos(th), sin(th));
    double *lo = o->lo, *hi = o->hi, s = 0.0;
    int n = o->n;
    for (int k = 0; k < n; k++)
        body_chord(&o->d[k], u, o->tol, &lo[k], &hi[k]);
    for (int moved = 1; moved;) {
        moved = 0;
        for (int k = 0; k < n; k++)
            if (lo[k] < s && s < hi[k]) {
                s = hi[k];
                moved = 1;
            }
    }
    return s;
}

/* The least exit over the directions, refined about each local minimum of the samples. */
static double oracle_mtv(const oracle *o, double *sampled_min)
{
    double e[DIRS], best = HUGE_VAL;
    for (int i = 0; i < DIRS; i++)
        e[i] = exit_along(o, 2 * PI * i / DIRS);
    double smin = HUGE_VAL;
    for (int i = 0; i < DIRS; i++)
        smin = fmin(smin, e[i]);
    *sampled_min = smin;
    for (int i = 0; i < DIRS; i++) {
        double prev = e[(i + DIRS - 1) % DIRS], next = e[(i + 1) % DIRS];
        if (!(e[i] <= prev && e[i] <= next) || e[i] > smin * 1.5 + 1e-9)
            continue;
        double a = 2 * PI * (i - 1) / DIRS, b = 2 * PI * (i + 1) / DIRS, g = 0.5 * (sqrt(5.0) - 1);
        double c = b - g * (b - a), d = a + g * (b - a), fc = exit_along(o, c), fd = exit_along(o, d);
        for (int it = 0; it < 80; it++) {
            if (fc < fd) {
                b = d, d = c, fd = fc;
                c = b - g * (b - a);
                fc = exit_along(o, c);
            } else {
                a = c, c = d, fc = fd;
                d = a + g * (b - a);
                fd = exit_along(o, d);
            }
        }
        best = fmin(best, fmin(fmin(fc, fd), e[i]));
    }
    return fmin(best, smin);
}

static int nparts_of(const sat_shape *s)
{
    return s->kind == SAT_COMPOUND ? s->count : 1;
}

static const sat_shape *part_of(const sat_shape *s, int i)
{
    return s->kind == SAT_COMPOUND ? sat_compound_part(s, i) : s;
}

/* ---- random shapes ------------------------------------------------------------------- */

/* A star-shaped (so simple) outline of 5 to 24 points about (x, y), up to r across, with
 * deep notches, some collinear runs and near-degenerate notches. */
static int random_outline(ctest_rng *g, double x, double y, double r, double *xy)
{
    int n = 5 + below(g, 20);
    double ph = uniform(g, 0, 2 * PI);
    for (int i = 0; i < n; i++) {
        double t = ph + 2 * PI * (i + uniform(g, -0.35, 0.35)) / n;
        double rr = r * (below(g, 3) == 0 ? uniform(g, 0.15, 0.5) : uniform(g, 0.6, 1.0));
        xy[2 * i] = x + rr * cos(t);
        xy[2 * i + 1] = y + rr * sin(t);
    }
    if (n < 23 && below(g, 4) == 0) { /* a collinear point in the middle of edge 0 */
        memmove(xy + 4, xy + 2, (size_t)(2 * n - 2) * sizeof *xy);
        xy[2] = 0.5 * (xy[0] + xy[4]);
        xy[3] = 0.5 * (xy[1] + xy[5]);
        n++;
    }
    return n;
}

static sat_shape *random_convex(ctest_rng *g, int kind, double x, double y, double r)
{
    if (kind == SAT_POLYGON) {
        double xy[24], rx = r * uniform(g, 0.3, 1), ry = rx * uniform(g, 0.3, 1),
                       ph = uniform(g, 0, 2 * PI);
        int n = 3 + below(g, 8);
        for (int i = 0; i < n; i++) {
            double t = 2 * PI * (i + uniform(g, -0.3, 0.3)) / n;
            xy[2 * i] = x + rx * cos(t) * cos(ph) - ry * sin(t) * sin(ph);
            xy[2 * i + 1] = y + rx * cos(t) * sin(ph) + ry * sin(t) * cos(ph);
        }
        return mk_polygon(xy, n);
    }
    if (kind == SAT_CIRCLE)
        return mk_circle(x, y, below(g, 8) == 0 ? 0.0 : r * uniform(g, 0.2, 1));
    double th = uniform(g, 0, 2 * PI), l = r * uniform(g, 0.2, 1);
    double x1 = x - l * cos(th), y1 = y - l * sin(th), x2 = x + l * cos(th), y2 = y + l * sin(th);
    if (kind == SAT_SEGMENT)
        return mk_segment(x1, y1, x2, y2);
    return mk_capsule(x1, y1, x2, y2, r * uniform(g, 0.05, 0.6));
}

/* Kinds: 0-3 the convex ones, 4 a concave outline, 5 a compound of 2 to 5 parts, 6 a chain. */
static sat_shape *random_shape(ctest_rng *g, int kind, double x, double y, double r)
{
    if (kind < 4)
        return random_convex(g, kind, x, y, r);
    if (kind == 4) {
        double xy[64];
        sat_status st;
        int n = random_outline(g, x, y, r, xy);
        sat_shape *s = mk_concave(xy, n, &st);
        ENSUREF(s != NULL, "random outline refused: %s", sat_status_message(st));
        return s;
    }
    if (kind == 5) {
        sat_shape *p[5];
        int n = 2 + below(g, 4);
        for (int i = 0; i < n; i++)
            p[i] = random_convex(g, below(g, 4), x + uniform(g, -r, r) * 0.6,
                                 y + uniform(g, -r, r) * 0.6, r * 0.6);
        sat_status st;
        sat_shape *s = sat_compound_new((const sat_shape *const *)p, n, &st);
        ENSUREF(s != NULL, "compound refused: %s", sat_status_message(st));
        for (int i = 0; i < n; i++)
            sat_shape_free(p[i]);
        return s;
    }
    sat_vec pts[8];
    int n = 2 + below(g, 6);
    for (int i = 0; i < n; i++)
        pts[i] = orc_v(x - r + 2 * r * i / (n - 1) + uniform(g, -0.2, 0.2) * r / n,
                       y + uniform(g, -0.5, 0.5) * r);
    sat_status st;
    sat_shape *s = sat_chain_new(pts, n, below(g, 4) == 0 && n >= 3, &st);
    ENSUREF(s != NULL, "chain refused: %s", sat_status_message(st));
    return s;
}

/* ---- the property test --------------------------------------------------------------- */

typedef struct stats {
    long pairs, deep, oracle_checked, pockets;
    double worst_oracle, worst_after, worst_far;
} stats;

static void check_deep(const sat_shape *a, const sat_shape *b, long i, stats *st,
                       const sat_result *rp, const oracle *op, double size, double band);

static void check_pair(const sat_shape *a, const sat_shape *b, long i, stats *st)
{
    sat_result r, w;
    double size = a->bound + b->bound, band = TOL_REL * size;
    int hit = sat_collide(a, b, &r), t = sat_test(a, b);
    st->pairs++;
    ENSUREF(hit == t, "pair %ld: collide %d, test %d", i, hit, t);
    /* 4. swap */
    int hw = sat_collide(b, a, &w);
    ENSUREF(hw == hit, "pair %ld: swapped collide %d vs %d", i, hw, hit);
    if (hit && hw) {
        ENSUREF(w.overlap == r.overlap && w.normal.x == -r.normal.x + 0.0 &&
                    w.normal.y == -r.normal.y + 0.0 && w.a_in_b == r.b_in_a && w.b_in_a == r.a_in_b,
                "pair %ld: swapped (%.17g, %.17g %.17g) vs (%.17g, %.17g %.17g)", i, w.overlap,
                w.normal.x, w.normal.y, r.overlap, r.normal.x, r.normal.y);
    }
    /* the oracle, relative to a's position */
    sat_vec o = sat_shape_position(a);
    oracle orc;
    int pairs = nparts_of(a) * nparts_of(b);
    obody *bodies = malloc((size_t)pairs * sizeof *bodies);
    orc.d = bodies;
    orc.n = 0;
    orc.lo = malloc((size_t)pairs * sizeof(double));
    orc.hi = malloc((size_t)pairs * sizeof(double));
    orc.tol = band * 1e-3;
    double deepest = -HUGE_VAL;
    for (int x = 0; x < nparts_of(a); x++)
        for (int y = 0; y < nparts_of(b); y++) {
            oracle_diff(part_of(a, x), part_of(b, y), o, &bodies[orc.n++]);
            sat_vec pa[ORC_MAX_POINTS], pb[ORC_MAX_POINTS];
            int na = shape_points(part_of(a, x), pa), nb = shape_points(part_of(b, y), pb);
            double d = orc_depth(pa, na, part_of(a, x)->radius, pb, nb, part_of(b, y)->radius);
            deepest = fmax(deepest, d);
        }
    /* 1. against the oracle away from touching */
    if (fabs(deepest) > band)
        ENSUREF(hit == (deepest > 0), "pair %ld: hit %d, oracle's deepest part pair %g", i, hit,
                deepest);
    if (hit && deepest > band)
        check_deep(a, b, i, st, &r, &orc, size, band);
    free(bodies);
    free(orc.lo);
    free(orc.hi);
}

static void check_deep(const sat_shape *a, const sat_shape *b, long i, stats *st,
                       const sat_result *rp, const oracle *op, double size, double band)
{
    sat_result r = *rp;
    oracle orc = *op;
    st->deep++;
    /* 2. the length */
    double sampled, want = oracle_mtv(&orc, &sampled);
    /* the core's own direction among the samples: a narrow pocket between parts, where a
     * leaves sooner than anywhere the sampled directions reach, is then found too */
    double along = exit_along(&orc, atan2(r.mtv.y, r.mtv.x));
    if (along < want - band)
        st->pockets++;
    want = fmin(want, along);
    double err = fabs(r.overlap - want) / size;
    st->oracle_checked++;
    if (err > st->worst_oracle)
        st->worst_oracle = err;
    ENSUREF(err <= TOL_REL, "pair %ld (kinds %d, %d): overlap %.17g, oracle %.17g (err %.3g)", i,
            (int)a->kind, (int)b->kind, r.overlap, want, err);
    ENSUREF(r.overlap <= sampled + band, "pair %ld: a sampled direction leaves at %.17g < %.17g",
            i, sampled, r.overlap);
    ENSUREF(fabs(hypot(r.mtv.x, r.mtv.y) - r.overlap) <= 1e-12 * size, "pair %ld: |mtv|", i);
    /* 3. after the MTV: touching, no part pair overlapping */
    {
        sat_shape *m = sat_shape_clone(a);
        sat_shape_move(m, r.mtv.x, r.mtv.y);
        double worst = -HUGE_VAL;
        for (int x = 0; x < nparts_of(m); x++)
            for (int y = 0; y < nparts_of(b); y++) {
                sat_vec pa[ORC_MAX_POINTS], pb[ORC_MAX_POINTS];
                int na = shape_points(part_of(m, x), pa), nb = shape_points(part_of(b, y), pb);
                worst = fmax(worst, orc_depth(pa, na, part_of(m, x)->radius, pb, nb,
                                              part_of(b, y)->radius));
            }
        if (worst / size > st->worst_after)
            st->worst_after = worst / size;
        ENSUREF(worst <= band, "pair %ld: after the mtv still %.3g deep", i, worst);
        ENSUREF(worst >= -band, "pair %ld: after the mtv %.3g apart, not touching", i, worst);
        sat_shape_free(m);
    }
    /* 5. far away */
    {
        sat_shape *fa = sat_shape_clone(a), *fb = sat_shape_clone(b);
        sat_result f;
        sat_shape_move(fa, 1e9, -1e9);
        sat_shape_move(fb, 1e9, -1e9);
        int far = sat_collide(fa, fb, &f);
        ENSUREF(far, "pair %ld: no hit at 1e9", i);
        if (far) {
            double e = fabs(f.overlap - r.overlap) / size;
            if (e > st->worst_far)
                st->worst_far = e;
            ENSUREF(e <= TOL_REL, "pair %ld: overlap %.17g at 0, %.17g at 1e9", i, r.overlap,
                    f.overlap);
            if (r.overlap > band)
                ENSUREF(fabs(f.normal.x - r.normal.x) <= TOL_REL * 10 &&
                            fabs(f.normal.y - r.normal.y) <= TOL_REL * 10,
                        "pair %ld: normal at 1e9", i);
        }
        sat_shape_free(fa);
        sat_shape_free(fb);
    }
}

static void test_property(void)
{
    ctest_rng g = {SEED};
    stats st;
    memset(&st, 0, sizeof st);
    const char *env = getenv("SAT_COMPOUND_PAIRS");
    long pairs = env ? atol(env) : PAIRS;
    for (long i = 0; i < pairs; i++) {
        int kb = 4 + below(&g, 3), ka = below(&g, 7);
        sat_shape *b = random_shape(&g, kb, 0, 0, uniform(&g, 3, 10));
        double r = uniform(&g, 1, 8);
        sat_shape *a = random_shape(&g, ka, uniform(&g, -8, 8), uniform(&g, -8, 8), r);
        if (a && b) {
            if (below(&g, 2)) {
                sat_shape_rotate(b, uniform(&g, -PI, PI));
                sat_shape_scale(b, uniform(&g, 0.7, 1.4));
            }
            if (!getenv("SAT_COMPOUND_ONLY") || atol(getenv("SAT_COMPOUND_ONLY")) == i)
                check_pair(a, b, i, &st);
        }
        sat_shape_free(a);
        sat_shape_free(b);
    }
    printf("  compound property: %ld pairs, %ld overlapping checked against the oracle (%ld "
           "leaving through a pocket between sampled directions); worst relative errors: "
           "oracle %.2g, after mtv %.2g, at 1e9 %.2g\n",
           st.pairs, st.oracle_checked, st.pockets, st.worst_oracle, st.worst_after,
           st.worst_far);
}
/* A box pushed into the seam between two parts gets the floor's normal; a compound's union
 * MTV is not the deepest part's. */
static void test_seams(void)
{
    /* a floor from 0 to 20 at y <= 0, with a notch below: parts meet at seams */
    static const double floor_xy[] = {0, -4, 20, -4, 20, 0, 0, 0, 0, -2, 10, -2, 10, -3, 0, -3};
    (void)floor_xy;
    static const double fl[] = {0, 0, 20, 0, 20, 2, 14, 2, 14, 5, 12, 5, 12, 2, 0, 2};
    sat_status st;
    sat_shape *f = mk_concave(fl, 8, &st);
    ENSURE(f != NULL);
    if (!f)
        return;
    int parts = f->count;
    ENSUREF(parts >= 2, "%d parts", parts);
    for (double x = 0.5; x < 11.0; x += 0.37) {
        sat_shape *box = mk_box(x, 1.9, x + 1, 2.9); /* sunk 0.1 into the floor's top */
        sat_result r;
        ENSURE(sat_collide(box, f, &r));
        ENSURE_NEAR(r.overlap, 0.1, 1e-12);
        ENSURE_NEAR(r.normal.x, 0.0, 1e-12);
        ENSURE_NEAR(r.normal.y, -1.0, 1e-12);
        sat_shape_free(box);
    }
    /* two boxes side by side as one compound: a circle at the seam goes up, not sideways */
    sat_shape *b1 = mk_box(0, 0, 5, 2), *b2 = mk_box(5, 0, 10, 2), *pp[2] = {b1, b2};
    sat_shape *c = sat_compound_new((const sat_shape *const *)pp, 2, &st);
    sat_shape *ball = mk_circle(5, 2.5, 1);
    sat_result r;
    ENSURE(sat_collide(ball, c, &r));
    ENSURE_NEAR(r.overlap, 0.5, 1e-12);
    ENSURE_NEAR(r.normal.y, -1.0, 1e-12);
    /* a wide box straddling: the union's MTV is up (0.5), though each part alone would let it
     * out sideways */
    sat_shape *wide = mk_box(3, 1.5, 7, 2.5);
    ENSURE(sat_collide(wide, c, &r));
    ENSURE_NEAR(r.overlap, 0.5, 1e-12);
    ENSURE_NEAR(r.normal.x, 0.0, 1e-12);
    /* resting across the seam: two contact points at the box's corners; sliding along is no
     * hit, pressing in is one at once */
    sat_shape *rest = mk_box(3, 2, 7, 3);
    sat_vec cp[2];
    ENSURE_EQ_INT(sat_contacts(rest, c, cp), 2);
    ENSURE_NEAR(cp[0].y, 2.0, 1e-12);
    ENSURE_NEAR(cp[1].y, 2.0, 1e-12);
    ENSURE_NEAR(fmin(cp[0].x, cp[1].x), 3.0, 1e-12);
    ENSURE_NEAR(fmax(cp[0].x, cp[1].x), 7.0, 1e-12);
    sat_sweep_hit sh;
    ENSURE(!sat_sweep(rest, orc_v(5, 0), c, &sh));
    ENSURE(!sat_sweep(rest, orc_v(-5, 0), c, &sh));
    ENSURE(sat_sweep(rest, orc_v(0, -1), c, &sh) && sh.t == 0.0 && sh.result.normal.y == -1.0);
    sat_shape *drop = mk_box(3, 4, 7, 5);
    ENSURE(sat_sweep(drop, orc_v(0, -4), c, &sh));
    ENSURE_NEAR(sh.t, 0.5, 1e-12);
    sat_shape_free(rest);
    sat_shape_free(drop);
    /* containment exact for the union: a box inside the floor across a seam is in it */
    sat_shape *in = mk_box(4, 0.5, 6, 1.5);
    ENSURE(sat_collide(in, f, &r) && r.a_in_b && !r.b_in_a);
    sat_shape_free(b1);
    sat_shape_free(b2);
    sat_shape_free(c);
    sat_shape_free(ball);
    sat_shape_free(wide);
    sat_shape_free(in);
    sat_shape_free(f);
}
/* A concave's seams (edges of its parts inside the outline) are no surface: a sweep never
 * gives their normals. Where a box moving along a tile line meets the outline at an inner
 * corner, or presses into it from touching, the part across a seam is met at the same time
 * as the part whose outline edge it reaches; rounding used to decide between them, and gave
 * a diagonal seam's normal. Fixed cases (found by the random test below before the fix),
 * then random outlines of tiles with boxes on tile lines: every normal along an axis. */
static void ensure_seam_sweep(const double *xy, int n, double x, double y, double w, double h,
                              sat_vec v, double t, double nx, double ny)
{
    sat_status st;
    sat_shape *c = mk_concave(xy, n, &st), *box = mk_box(x, y, x + w, y + h);
    sat_sweep_hit hit;
    ENSURE(c != NULL && box != NULL);
    if (c && box) {
        ENSUREF(c->count >= 2, "%d parts", c->count);
        ENSURE_EQ_INT(sat_sweep(box, v, c, &hit), 1);
        ENSURE_EQ_INT(hit.overlapping, 0);
        ENSURE_NEAR(hit.t, t, 1e-12);
        ENSUREF(hit.result.normal.x == nx && hit.result.normal.y == ny,
                "normal (%.17g, %.17g), the outline's (%g, %g)", hit.result.normal.x,
                hit.result.normal.y, nx, ny);
    }
    sat_shape_free(c);
    sat_shape_free(box);
}

static void test_seam_normals(void)
{
    /* An L: its arm (48..64, 48..64) and the inner corner (64, 64); a box whose top runs
     * along y = 64 under the arm reaches the wall x = 64 when its right side (x + w) does. */
    static const double l1[] = {96, 48, 96, 80, 64, 80, 64, 64, 48, 64, 48, 48};
    double x = 56.826498039836522, w = 4.2768083543300701, vx = 8.7474229268240045;
    ensure_seam_sweep(l1, 6, x, 64, w, 18.318134280217937, orc_v(vx, 0), (64 - (x + w)) / vx,
                      1, 0);
    /* Resting on the top y = 32 with its right side on the outline's x = 96, pressing down:
     * the top's normal at once. */
    static const double l2[] = {96, 32, 96, 80, 80, 80, 80, 48, 64, 48, 64, 32};
    ensure_seam_sweep(l2, 6, 89.83419734689798, 17.354701045299603, 6.1658026531020207,
                      14.645298954700397, orc_v(0, 14.039056388697645), 0, 0, 1);
    /* Its right side on the outline's x = 48, its bottom at y = 80, moving right and down:
     * the side's normal at once. */
    static const double l3[] = {64, 64, 80, 64, 80, 80, 48, 80, 48, 48, 64, 48};
    ensure_seam_sweep(l3, 6, 34.355763325799032, 69.314166966186988, 13.644236674200965,
                      10.685833033813008, orc_v(0.97417460845240811, 12.952793159478155), 0, 1,
                      0);

    /* sat_collide, touching only: the first touching part pair's normal unless it is a
     * seam's. A box against the right side x = 96 at its lower corner (96, 0): its left side
     * lies on the outline's, the normal is (-1, 0) (was the seam's (-0.707, -0.707)). */
    {
        static const double h1[] = {0, 0, 96, 0, 96, 48, 80, 48, 80, 32, 64, 32, 64, 48, 0, 48};
        sat_status st;
        sat_shape *c = mk_concave(h1, 8, &st), *box = mk_box(96, 0, 104, 8);
        sat_result r;
        ENSURE(c != NULL && box != NULL);
        if (c && box) {
            ENSURE(sat_collide(box, c, &r));
            ENSURE(r.overlap == 0.0);
            ENSUREF(r.normal.x == -1.0 && r.normal.y == 0.0, "normal (%.17g, %.17g)",
                    r.normal.x, r.normal.y);
        }
        sat_shape_free(c);
        sat_shape_free(box);
    }

    /* Random histograms of tiles (columns of random heights over a floor, 16 wide), boxes
     * with sides on tile lines, moving along an axis or not: a touch that is not an overlap
     * at the start has a normal along an axis (the outline's edges and the box's are). */
    ctest_rng g = {SEED ^ 0x5ea3ULL};
    long hits = 0, seams = 0;
    for (int trial = 0; trial < 800; trial++) {
        double xy[2 * (2 * 12 + 2)];
        int cols = 3 + below(&g, 10), n = 0, last = -1;
        xy[n++] = 0, xy[n++] = 0;
        xy[n++] = 16.0 * cols, xy[n++] = 0;
        for (int k = cols - 1; k >= 0; k--) {
            int hgt = 1 + below(&g, 4);
            if (hgt == last) { /* (a straight point: the outline goes on) */
                xy[n - 2] = 16.0 * k;
                continue;
            }
            xy[n++] = 16.0 * (k + 1), xy[n++] = 16.0 * hgt;
            xy[n++] = 16.0 * k, xy[n++] = 16.0 * hgt;
            last = hgt;
        }
        sat_status st;
        sat_shape *c = mk_concave(xy, n / 2, &st);
        ENSUREF(c != NULL, "histogram refused: %s", sat_status_message(st));
        if (!c)
            continue;
        for (int k = 0; k < 40; k++) {
            double bw = uniform(&g, 2, 20), bh = uniform(&g, 2, 20);
            double bx = 16.0 * below(&g, cols + 2) - 16.0, by = 16.0 * below(&g, 7) - 16.0;
            if (below(&g, 2))
                bx -= bw;
            if (below(&g, 2))
                by -= bh;
            sat_vec v = orc_v(uniform(&g, -20, 20), uniform(&g, -20, 20));
            int axis = below(&g, 3);
            if (axis == 1)
                v.y = 0;
            else if (axis == 2)
                v.x = 0;
            sat_shape *box = mk_box(bx, by, bx + bw, by + bh);
            sat_result r;
            sat_sweep_hit hit;
            if (box && !(sat_collide(box, c, &r) && r.overlap > 0) && sat_sweep(box, v, c, &hit)) {
                hits++;
                if (hit.result.normal.x != 0 && hit.result.normal.y != 0) {
                    if (++seams <= 3)
                        printf("  histogram %d, box (%.17g, %.17g) %.17g x %.17g moving "
                            "(%.17g, %.17g): normal (%.17g, %.17g)\n", trial, bx, by, bw, bh,
                            v.x, v.y, hit.result.normal.x, hit.result.normal.y);
                }
            }
            sat_shape_free(box);
        }
        sat_shape_free(c);
    }
    ENSUREF(seams == 0, "%ld of %ld touches with a seam's normal", seams, hits);
    ENSUREF(hits > 3000, "%ld touches", hits);
    printf("  seam normals: %ld touches of boxes on tile lines with histograms of tiles, none "
           "along a seam\n", hits);
}

/* Parts far apart: a compound spanning 1e15 has a touch tolerance of about 1e3 relative to its
 * whole bound, but each part pair is judged at its own scale (sat__part_gap, and its own
 * tolerance inside the union's search). libFuzzer's finding: two circles of radius 2.2e-308,
 * 1e15 apart, against a point 8.8e-280 from one of them (a gap 4e27 times that circle's
 * radius; the lone pair's squared distance underflows): the union called it touching and
 * sat_contacts gave no point. */
static void test_far_parts(void)
{
    sat_status st;
    sat_result r;
    sat_vec p[2], q[2];
    double m = 2.2250738585072014e-308;
    sat_shape *c0 = sat_circle_new(1e15, 2032, m, &st), *c1 = sat_circle_new(0, 0, m, &st);
    const sat_shape *cp[2] = {c0, c1};
    sat_shape *c = sat_compound_new(cp, 2, &st);
    sat_shape *pt = sat_circle_new(m, 8.7694909019891829e-280, 0, &st);
    ENSURE(sat_test(c, pt) == 0 && sat_test(pt, c) == 0);
    ENSURE(sat_collide(c, pt, &r) == 0 && sat_collide(pt, c, &r) == 0);
    ENSURE(sat_contacts(c, pt, p) == 0 && sat_contacts(pt, c, p) == 0);

    /* Unit circles 1e15 apart: a unit circle resting on one touches it at (1, 0), one point;
     * 1e-6 further out (far below the whole compound's tolerance, far above the pair's) it is
     * apart, as the lone pair is. */
    sat_shape *u0 = sat_circle_new(0, 0, 1, &st), *u1 = sat_circle_new(1e15, 0, 1, &st);
    const sat_shape *up[2] = {u0, u1};
    sat_shape *u = sat_compound_new(up, 2, &st);
    sat_shape *rest = sat_circle_new(2, 0, 1, &st), *off = sat_circle_new(2 + 1e-6, 0, 1, &st);
    ENSURE(sat_test(u, rest) == 1 && sat_collide(rest, u, &r) == 1 && r.overlap == 0.0);
    ENSURE(sat_contacts(u, rest, p) == 1 && sat_contacts(rest, u, q) == 1);
    ENSURE(p[0].x == 1.0 && p[0].y == 0.0 && q[0].x == 1.0 && q[0].y == 0.0);
    ENSURE(sat_test(u0, off) == 0 && sat_test(u, off) == 0 && sat_test(off, u) == 0);
    ENSURE(sat_collide(off, u, &r) == 0 && sat_contacts(off, u, p) == 0);

    /* Two unit squares side by side and a third 1e15 away; a 0.1 square across their seam,
     * y 0.5 to 0.6: the union's MTV takes it out through the nearer side, +0.5 in y (-0.6 the
     * other way; 1.05 sideways either way). With the whole compound's tolerance (about 500)
     * the search took the first square's own exit, 0.05 in x, into the second square, 0.1
     * deep. */
    sat_shape *s0 = mk_box(0, 0, 1, 1), *s1 = mk_box(1, 0, 2, 1), *s2 = mk_box(1e15, 0, 1e15 + 1, 1);
    const sat_shape *sp[3] = {s0, s1, s2};
    sat_shape *sq = sat_compound_new(sp, 3, &st), *b = mk_box(0.95, 0.5, 1.05, 0.6);
    ENSURE(sat_collide(b, sq, &r) == 1);
    ENSUREF(fabs(r.overlap - 0.5) < 1e-9 && fabs(r.mtv.x) < 1e-9 && fabs(r.mtv.y - 0.5) < 1e-9,
            "overlap %.17g mtv (%.17g, %.17g)", r.overlap, r.mtv.x, r.mtv.y);
    {
        sat_result rs;
        ENSURE(sat_collide(sq, b, &rs) == 1 && rs.overlap == r.overlap &&
               rs.mtv.x == -r.mtv.x && rs.mtv.y == -r.mtv.y);
    }
    int n = sat_contacts(b, sq, p);
    ENSURE(n == 1 || n == 2);
    for (int k = 0; k < n; k++) /* overlapping: inside both */
        ENSUREF(p[k].x >= 0.95 - 1e-12 && p[k].x <= 1.05 + 1e-12 && p[k].y >= 0.5 - 1e-12 &&
                p[k].y <= 0.6 + 1e-12, "contact (%.17g, %.17g)", p[k].x, p[k].y);
    sat_shape_move(b, r.mtv.x, r.mtv.y); /* out: touching, no part overlapping */
    ENSURE(sat_collide(b, sq, &r) == 1 && r.overlap == 0.0);
    ENSURE(sat_collide(b, s0, &r) == 1 && r.overlap == 0.0);
    ENSURE(sat_collide(b, s1, &r) == 1 && r.overlap == 0.0);

    sat_shape *all[] = {c0, c1, c, pt, u0, u1, u, rest, off, s0, s1, s2, sq, b};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        sat_shape_free(all[i]);
}

void run_union_tests(void)
{
    RUN_TEST(test_far_parts);
    RUN_TEST(test_seams);
    RUN_TEST(test_seam_normals);
    RUN_TEST(test_property);
}
