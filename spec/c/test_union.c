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
void run_union_tests(void)
{
    RUN_TEST(test_seams);
    RUN_TEST(test_property);
}
