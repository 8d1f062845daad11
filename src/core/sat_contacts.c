/*
 * sat_contacts.c - contact points (sat_contacts) and the swept test with its contact point
 * (sat_sweep_contact). See sat.h.
 *
 * Every kind is a convex core (a polygon, a segment or a point) grown by a radius. With the
 * normal n of sat_collide, the contacts lie on lines along n:
 * - two faces meeting (the face most turned toward the other shape, a polygon's edge or a
 *   segment, within SAT_CONTACT_FACE_COS of n): the reference face is the better turned
 *   of the two, the incident face the other shape's most turned against it; the incident
 *   face clipped to the reference face's side planes (their spans across n intersected)
 *   gives a line at each end of what is left, one when that is a point;
 * - anything round (the cores apart, n through their closest points): one line, through the
 *   first shape's core point farthest along n.
 * On each line the two shapes' chords (the segments of the line inside each) meet; the
 * contact is the middle of their common part: midway between the two surfaces along n.
 * Touching, that part is a point on both surfaces; overlapping, it lies inside both. A line
 * whose chords miss each other (a corner of the incident face above the reference face) gives
 * no contact. Should no line meet both shapes (two segments crossing: their chords meet at
 * one place only), the line where the common part is longest is found by a golden-section
 * search: that length is a concave function across n.
 *
 * Everything happens in the frame of the pair's first shape in sat_collide's order, so the
 * points are the same whichever shape is a, and keep their precision far from the origin.
 */
#include <stdlib.h>
#include <string.h>

#include "sat_internal.h"

/* The empty chord. */
#define NONE_LO HUGE_VAL
#define NONE_HI (-HUGE_VAL)

/* A line of the contact: x = tau * t + lambda * n, with t = perp(n). */
typedef struct line {
    sat_vec t, n;
    double tau;
    double tol; /* the pair's touch tolerance: how far outside a point may be and touch */
} line;

/* Narrows [lo, hi] to the part of the line in {x : m . x <= h}. A line along the boundary
 * (m square to n) is inside when within the tolerance. */
static void clip_plane(const line *ln, sat_vec m, double h, double *lo, double *hi)
{
    double nm = sat__dot(ln->n, m), rhs = h - ln->tau * sat__dot(ln->t, m);
    if (fabs(nm) <= SAT_CONTACT_PARALLEL) {
        if (rhs < -ln->tol) {
            *lo = NONE_LO;
            *hi = NONE_HI;
        }
        return;
    }
    double v = rhs / nm;
    if (nm > 0.0)
        *hi = v < *hi ? v : *hi;
    else
        *lo = v > *lo ? v : *lo;
}

/* The chord of the disk of radius r about c (within the tolerance: a line grazing it meets
 * it at one point). */
static void disk_chord(const line *ln, sat_vec c, double r, double *lo, double *hi)
{
    double off = sat__dot(c, ln->t) - ln->tau, at = sat__dot(c, ln->n), disc = r * r - off * off;
    if (disc >= 0.0) {
        double half = sqrt(disc);
        *lo = at - half;
        *hi = at + half;
    } else if (fabs(off) <= r + ln->tol) {
        *lo = *hi = at;
    } else {
        *lo = NONE_LO;
        *hi = NONE_HI;
    }
}

/* The chord of shape s (at offset c) on the line. */
static void chord(const sat_shape *s, sat_vec c, const line *ln, double *lo, double *hi)
{
    *lo = -HUGE_VAL;
    *hi = HUGE_VAL;
    if (s->kind == SAT_POLYGON) {
        const sat_vec *m = sat__cnormal(s);
        for (int i = 0; i < s->count; i++) /* every plane: a rounding inversion is no miss */
            clip_plane(ln, m[i], sat__support(s, i) + sat__dot(c, m[i]), lo, hi);
        return;
    }
    if (!sat__has_segment(s)) {
        disk_chord(ln, c, s->radius, lo, hi);
        return;
    }
    /* a capsule: its rectangle and its two end disks, of which it is the hull */
    sat_vec h = sat__seg_half(s), u = sat__seg_dir(s), v = sat__perp(u);
    double L = sat__seg_len(s), r = s->radius, l2, h2;
    clip_plane(ln, u, L + sat__dot(c, u), lo, hi);
    clip_plane(ln, sat__neg(u), L - sat__dot(c, u), lo, hi);
    clip_plane(ln, v, r + sat__dot(c, v), lo, hi);
    clip_plane(ln, sat__neg(v), r - sat__dot(c, v), lo, hi);
    for (int e = 0; e < 2; e++) {
        disk_chord(ln, e ? sat__add(c, h) : sat__sub(c, h), r, &l2, &h2);
        if (l2 > h2)
            continue;
        if (*lo > *hi) {
            *lo = l2;
            *hi = h2;
        } else {
            *lo = l2 < *lo ? l2 : *lo;
            *hi = h2 > *hi ? h2 : *hi;
        }
    }
}

/* The common part of both chords on the line: its length (negative: they miss each other by
 * that much) and its middle. A chord may come out inverted by rounding (a line through a
 * corner, a shape far smaller than the other's coordinates): it counts as the point it
 * nearly is, and only a line missing a shape by more than the tolerance is rejected. */
static double common(const sat_shape *a, const sat_shape *b, sat_vec d, const line *ln,
                     double *mid)
{
    double alo, ahi, blo, bhi;
    chord(a, sat__v(0.0, 0.0), ln, &alo, &ahi);
    chord(b, d, ln, &blo, &bhi);
    double lo = alo > blo ? alo : blo, hi = ahi < bhi ? ahi : bhi;
    if (!(fabs(lo) < HUGE_VAL && fabs(hi) < HUGE_VAL)) { /* missed: a disk, or along a face */
        *mid = 0.0;
        return -HUGE_VAL;
    }
    *mid = 0.5 * (lo + hi);
    return hi - lo;
}

/* ---- features ------------------------------------------------------------------------- */

/* A shape's core at offset c: its vertex i (a polygon's, a segment's end, or the point). */
static int core_count(const sat_shape *s)
{
    if (s->kind == SAT_POLYGON)
        return s->count;
    return sat__has_segment(s) && sat__seg_len(s) > 0.0 ? 2 : 1;
}

static sat_vec core_vertex(const sat_shape *s, sat_vec c, int i)
{
    if (s->kind == SAT_POLYGON)
        return sat__add(c, sat__coff(s)[i]);
    if (sat__has_segment(s))
        return i ? sat__add(c, sat__seg_half(s)) : sat__sub(c, sat__seg_half(s));
    return c;
}

/* A face: from P to Q, with its outward unit normal m. */
typedef struct face {
    sat_vec P, Q, m;
} face;

/* The face of the core most turned toward u, and how much (the cosine); -2 for a point. */
static double toward(const sat_shape *s, sat_vec c, sat_vec u, face *f)
{
    int count = core_count(s);
    if (count == 1)
        return -2.0;
    if (s->kind == SAT_POLYGON) {
        const sat_vec *m = sat__cnormal(s);
        int best = 0;
        double most = sat__dot(m[0], u);
        for (int i = 1; i < count; i++) {
            double v = sat__dot(m[i], u);
            if (v > most) {
                most = v;
                best = i;
            }
        }
        f->P = core_vertex(s, c, best);
        f->Q = core_vertex(s, c, best + 1 == count ? 0 : best + 1);
        f->m = m[best];
        return most;
    }
    sat_vec m = sat__perp(sat__seg_dir(s));
    double v = sat__dot(m, u);
    f->P = core_vertex(s, c, 0);
    f->Q = core_vertex(s, c, 1);
    f->m = v < 0.0 ? sat__neg(m) : m;
    return fabs(v);
}

/* The core's vertex farthest along u (the first of equals). */
static sat_vec farthest(const sat_shape *s, sat_vec c, sat_vec u)
{
    int count = core_count(s), best = 0;
    double most = sat__dot(core_vertex(s, c, 0), u);
    for (int i = 1; i < count; i++) {
        double v = sat__dot(core_vertex(s, c, i), u);
        if (v > most) {
            most = v;
            best = i;
        }
    }
    return core_vertex(s, c, best);
}

/* The span across n (along t) of a face, or of a core's whole incident feature. */
static void span(sat_vec t, sat_vec P, sat_vec Q, double *lo, double *hi)
{
    double p = sat__dot(P, t), q = sat__dot(Q, t);
    *lo = p < q ? p : q;
    *hi = p < q ? q : p;
}

/* The other core's face most turned against the reference face's normal m (its two ends;
 * a point twice). */
static void incident(const sat_shape *s, sat_vec c, sat_vec m, sat_vec *P, sat_vec *Q)
{
    face f;
    if (toward(s, c, sat__neg(m), &f) < -1.0) {
        *P = *Q = core_vertex(s, c, 0);
        return;
    }
    *P = f.P;
    *Q = f.Q;
}

/* Where the point of a part pair's deepest line is of no use (compound_contacts): when its
 * place across the normal, at + its tau, is surely (by slack) above lo and below hi. */
typedef struct window {
    double at, slack, lo, hi;
} window;

/* The line where the common part is longest, across the span both shapes cover; 0 (and the
 * search given up) as soon as the line is known to lie within the window w (NULL: none):
 * the line is always between the search's lo and hi. */
static int deepest(const sat_shape *a, const sat_shape *b, sat_vec d, line *ln, const window *w)
{
    const double k = 0.6180339887498949; /* the golden section */
    double alo, ahi, blo, bhi, mid;
    sat__interval(a, sat__v(0.0, 0.0), ln->t, &alo, &ahi);
    sat__interval(b, d, ln->t, &blo, &bhi);
    double lo = alo > blo ? alo : blo, hi = ahi < bhi ? ahi : bhi;
    if (lo > hi)
        lo = hi = 0.5 * (lo + hi);
    double x1 = hi - k * (hi - lo), x2 = lo + k * (hi - lo), f1, f2;
    ln->tau = x1;
    f1 = common(a, b, d, ln, &mid);
    ln->tau = x2;
    f2 = common(a, b, d, ln, &mid);
    for (int i = 0; i < 96 && x1 < x2; i++) {
        if (w && (w->at + lo) - w->slack > w->lo && (w->at + hi) + w->slack < w->hi)
            return 0;
        if (f1 < f2) {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + k * (hi - lo);
            ln->tau = x2;
            f2 = common(a, b, d, ln, &mid);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - k * (hi - lo);
            ln->tau = x1;
            f1 = common(a, b, d, ln, &mid);
        }
    }
    ln->tau = f1 < f2 ? x2 : x1;
    return 1;
}

/* The contacts of a (at the origin) and b (at d), n from a toward b: relative to a. With
 * lines_only, none (0) when no line of the faces or of the farthest point meets both (the
 * search for the deepest line left out). */
static int contact_points(const sat_shape *a, const sat_shape *b, sat_vec d, sat_vec n,
                          sat_vec out[2], int lines_only, const window *w)
{
    line ln;
    face fa, fb, *ref;
    sat_vec P, Q;
    double taus[2], mid;
    int lines = 1, found = 0;
    ln.n = n;
    ln.t = sat__perp(n);
    ln.tol = sat__touch_tol(a, b);
    double ca = toward(a, sat__v(0.0, 0.0), n, &fa), cb = toward(b, d, sat__neg(n), &fb);
    if ((ca > cb ? ca : cb) >= SAT_CONTACT_FACE_COS) {
        double rlo, rhi, ilo, ihi;
        ref = ca >= cb ? &fa : &fb;
        if (ref == &fa)
            incident(b, d, fa.m, &P, &Q);
        else
            incident(a, sat__v(0.0, 0.0), fb.m, &P, &Q);
        span(ln.t, ref->P, ref->Q, &rlo, &rhi);
        span(ln.t, P, Q, &ilo, &ihi);
        double lo = rlo > ilo ? rlo : ilo, hi = rhi < ihi ? rhi : ihi;
        if (hi - lo > ln.tol) {
            taus[0] = lo;
            taus[1] = hi;
            lines = 2;
        } else {
            taus[0] = 0.5 * (lo + hi);
        }
    } else {
        taus[0] = sat__dot(farthest(a, sat__v(0.0, 0.0), n), ln.t);
    }
    for (int i = 0; i < lines; i++) {
        ln.tau = taus[i];
        if (common(a, b, d, &ln, &mid) >= -2.0 * ln.tol)
            out[found++] = sat__add(sat__mul(ln.t, ln.tau), sat__mul(n, mid));
    }
    if (found == 0 && !lines_only) {
        if (!deepest(a, b, d, &ln, w))
            return 0;
        common(a, b, d, &ln, &mid);
        out[found++] = sat__add(sat__mul(ln.t, ln.tau), sat__mul(n, mid));
    }
    return found;
}

/* A point relative to shape s, in world coordinates (the double-double position). */
static sat_vec world(const sat_shape *s, sat_vec p)
{
    return sat__v((s->pos.x + p.x) + s->pos_lo.x, (s->pos.y + p.y) + s->pos_lo.y);
}

/* Where along t (a's frame) the point of the deepest line of part pair x, y (x at c, y at d
 * from x) lies: its tau is within the common part of both parts' spans across n (their
 * middle when they miss), and the point c + t tau + n mid; with a margin far above the
 * rounding. */
static void deepest_span(const sat_shape *x, const sat_shape *y, sat_vec c, sat_vec d, sat_vec t,
                         double *lo, double *hi, window *w)
{
    double xlo, xhi, ylo, yhi, at = sat__dot(c, t);
    sat__interval(x, sat__v(0.0, 0.0), t, &xlo, &xhi);
    sat__interval(y, d, t, &ylo, &yhi);
    double l = xlo > ylo ? xlo : ylo, h = xhi < yhi ? xhi : yhi;
    if (l > h)
        l = h = 0.5 * (l + h);
    double slack = 1e-6 * (fabs(at) + fabs(l) + fabs(h) + x->bound + y->bound + fabs(d.x) + fabs(d.y));
    *lo = at + l - slack;
    *hi = at + h + slack;
    w->at = at;
    w->slack = slack;
}

/* A part pair that meets (x of a, at c; y of b, at d from x): its points along the normal
 * when a line of its faces or farthest point meets both (n of them), else (n 0) its deepest
 * line's span across it (plo, phi; w's at and slack); a pair's points' span otherwise. */
typedef struct met {
    const sat_shape *x, *y;
    sat_vec c, d, p[2];
    int n;
    double plo, phi;
    window w;
} met;

#define SAT__MET_STACK 64

/* Whether x (at c, its box xlo, xhi) and part j of b meet as sat_union.c gates and tests
 * them; m filled when they do. */
static int pair_meets(const sat_shape *x, sat_vec c, sat_vec xlo, sat_vec xhi, const sat_shape *b,
                      int j, const sat_vec bown[2], sat_vec normal, sat_vec t, met *m)
{
    const sat_shape *y = sat__part_of(b, j);
    sat_vec ylo, yhi, d = sat__offset(x, y);
    sat__part_box(b, j, bown, &ylo, &yhi);
    if (sat__boxes_apart(xlo, xhi, d, ylo, yhi, sat__part_gap(x, y)) || !sat_test(x, y))
        return 0;
    m->x = x;
    m->y = y;
    m->c = c;
    m->d = d;
    m->n = contact_points(x, y, d, normal, m->p, 1, NULL);
    m->plo = HUGE_VAL;
    m->phi = -HUGE_VAL;
    if (m->n == 0)
        deepest_span(x, y, c, d, t, &m->plo, &m->phi, &m->w);
    for (int k = 0; k < m->n; k++) {
        double s = sat__dot(sat__add(c, m->p[k]), t);
        m->plo = s < m->plo ? s : m->plo;
        m->phi = s > m->phi ? s : m->phi;
    }
    return 1;
}

/* The extremes across the normal so far (their places slo, shi; points lo, hi) and the
 * first pass's bounds (top, bottom). */
typedef struct ends {
    double slo, shi, top, bottom;
    sat_vec lo, hi;
} ends;

/* The second pass over a pair that meets: its points (its deepest line's when it can be an
 * extreme) taken into the extremes. */
static void take(met *m, sat_vec normal, sat_vec t, ends *e)
{
    int n = m->n;
    if (n == 0) {
        m->w.lo = e->slo < e->top ? e->slo : e->top;
        m->w.hi = e->shi > e->bottom ? e->shi : e->bottom;
        if (!(m->plo > m->w.lo && m->phi < m->w.hi))
            n = contact_points(m->x, m->y, m->d, normal, m->p, 0, &m->w);
    }
    for (int k = 0; k < n; k++) {
        sat_vec q = sat__add(m->c, m->p[k]);
        double s = sat__dot(q, t);
        if (s < e->slo)
            e->slo = s, e->lo = q;
        if (s > e->shi)
            e->shi = s, e->hi = q;
    }
}

/* With a compound, r the union's result (a first): every part pair that meets gives its
 * points along the union's normal, and the two extremes across the normal are kept (one
 * point when they coincide). The part pairs are gated as sat_union.c gates them
 * (sat__part_gap), so that every pair the union's verdict came from gives points. The search
 * for a pair's deepest line (when no other line meets both) is made only where its point
 * can be an extreme: a first pass finds, over the pairs that meet, the least place across the
 * normal that some point surely has (top: a pair's least point, or the greatest place of its
 * deepest line's span) and the greatest (bottom); a deepest line above top (and the least
 * point so far) and below bottom (and the greatest so far) is neither extreme, so its search
 * is not made, or given up as soon as its bracket lies there (deepest's window). The first
 * pass lists the pairs that meet, with what it found of them, for the second (without
 * memory for the list: the second pass finds them again, the same). */
static int compound_contacts(const sat_shape *a, const sat_shape *b, const sat_result *r,
                             sat_vec out[2])
{
    sat_vec aown[2], bown[2];
    sat_vec t = sat__perp(r->normal);
    met buf[SAT__MET_STACK], *list = buf, m;
    int nm = 0, cm = SAT__MET_STACK, lost = 0;
    ends e;
    e.slo = e.top = HUGE_VAL;
    e.shi = e.bottom = -HUGE_VAL;
    e.lo = e.hi = sat__v(0.0, 0.0);
    if (a->kind != SAT_COMPOUND)
        sat__box(a, &aown[0], &aown[1]);
    if (b->kind != SAT_COMPOUND)
        sat__box(b, &bown[0], &bown[1]);
    for (int pass = 0; pass < 2 && !(pass == 1 && !lost); pass++) {
        for (int i = 0; i < sat__nparts(a); i++) {
            const sat_shape *x = sat__part_of(a, i);
            sat_vec xlo, xhi, c = sat__offset(a, x);
            sat__part_box(a, i, aown, &xlo, &xhi);
            for (int j = 0; j < sat__nparts(b); j++) {
                if (!pair_meets(x, c, xlo, xhi, b, j, bown, r->normal, t, &m))
                    continue;
                if (pass == 1) { /* (no list) */
                    take(&m, r->normal, t, &e);
                    continue;
                }
                /* (a pair's points are known: its least is a bound) */
                double up = m.n > 0 ? m.plo : m.phi, down = m.n > 0 ? m.phi : m.plo;
                e.top = up < e.top ? up : e.top;
                e.bottom = down > e.bottom ? down : e.bottom;
                if (!lost && nm == cm) {
                    met *grown = malloc((size_t)(2 * cm) * sizeof *grown);
                    if (grown == NULL) {
                        lost = 1;
                        continue;
                    }
                    memcpy(grown, list, (size_t)nm * sizeof *grown);
                    if (list != buf)
                        free(list);
                    list = grown;
                    cm *= 2;
                }
                if (!lost)
                    list[nm++] = m;
            }
        }
    }
    if (!lost)
        for (int u = 0; u < nm; u++)
            take(&list[u], r->normal, t, &e);
    if (list != buf)
        free(list);
    if (!(e.slo <= e.shi))
        return 0;
    out[0] = world(a, e.lo);
    if (!(e.shi - e.slo > SAT_TOUCH_REL * (a->bound + b->bound)))
        return 1;
    out[1] = world(a, e.hi);
    return 2;
}

int sat_contacts(const sat_shape *a, const sat_shape *b, sat_vec out[2])
{
    sat_result r;
    sat_vec p[2];
    if (!sat__comes_first(a, b)) {
        const sat_shape *t = a;
        a = b;
        b = t;
    }
    if (!sat_collide(a, b, &r))
        return 0;
    if (b->kind == SAT_COMPOUND)
        return compound_contacts(a, b, &r, out);
    int n = contact_points(a, b, sat__offset(a, b), r.normal, p, 0, NULL);
    for (int i = 0; i < n; i++)
        out[i] = world(a, p[i]);
    return n;
}

/* The middle of the contact points (of one: itself). */
static sat_vec middle(const sat_vec *p, int n)
{
    return n == 2 ? sat__mul(sat__add(p[0], p[1]), 0.5) : p[0];
}

/* The point of a hit of a on b (neither a compound; a moving by va, b by vb): a moved by
 * hit->move against b (0 when they overlap or touch at the start, where the normal is
 * sat_collide's), in the frame of the first of the two as sat_contacts takes them, and
 * where b is by then. */
static sat_vec hit_point(const sat_shape *a, const sat_shape *b, sat_vec vb,
                         const sat_sweep_hit *hit)
{
    sat_vec p[2], at, d = sat__offset(a, b);
    if (sat__comes_first(a, b))
        at = world(a, sat__add(middle(p, contact_points(a, b, sat__sub(d, hit->move),
                                                         hit->result.normal, p, 0, NULL)),
                               hit->move));
    else
        at = world(b, middle(p, contact_points(b, a, sat__add(sat__neg(d), hit->move),
                                               sat__neg(hit->result.normal), p, 0, NULL)));
    return sat__add(at, sat__v(vb.x * hit->t, vb.y * hit->t));
}

void sat_sweep_point(const sat_shape *a, sat_vec va, const sat_shape *b, sat_vec vb,
                     const sat_sweep_hit *hit, sat_vec *point)
{
    (void)va;
    if (a->kind == SAT_COMPOUND || b->kind == SAT_COMPOUND) {
        /* the part pair that touches first, or the union's contacts when they overlap */
        sat_vec p[2];
        if (!hit->overlapping && (hit->part_a >= 0 || hit->part_b >= 0)) {
            *point = hit_point(sat__part_of(a, hit->part_a < 0 ? 0 : hit->part_a),
                               sat__part_of(b, hit->part_b < 0 ? 0 : hit->part_b), vb, hit);
            return;
        }
        int n;
        if (hit->overlapping) { /* the union's result is known: the pair as sat_contacts
                                 * takes it, the normal negated with the order */
            sat_result r = hit->result;
            int first = sat__comes_first(a, b);
            if (!first)
                r.normal = sat__v(-r.normal.x + 0.0, -r.normal.y + 0.0);
            n = compound_contacts(first ? a : b, first ? b : a, &r, p);
        } else {
            n = sat_contacts(a, b, p);
        }
        *point = n > 0 ? middle(p, n) : sat_shape_position(a);
        return;
    }
    *point = hit_point(a, b, vb, hit);
}

int sat_sweep_contact(const sat_shape *a, sat_vec va, const sat_shape *b, sat_vec vb,
                      sat_sweep_hit *hit, sat_vec *point)
{
    if (a->kind == SAT_COMPOUND || b->kind == SAT_COMPOUND) {
        const sat_shape *pa, *pb;
        if (!sat__in_range(vb.x) || !sat__in_range(vb.y) ||
            !sat__compound_sweep_pair(a, sat__sub(va, vb), b, hit, &pa, &pb))
            return 0;
    } else if (!sat__in_range(vb.x) || !sat__in_range(vb.y) ||
               !sat_sweep(a, sat__sub(va, vb), b, hit)) {
        return 0;
    }
    sat_sweep_point(a, va, b, vb, hit, point);
    return 1;
}
