/*
 * sat_compound.c - compounds (see sat.h): building them (from parts, from a concave outline,
 * from a chain of points), keeping their parts in step with their transform, and their pair
 * tests as unions of parts, with the exact MTV of the union.
 *
 * Storage after the shape's header (s->v), count = P parts, N outline points:
 *   v[0]               x: the bytes of this storage, y: N
 *   v[1]               x: the form (sat_form)
 *   v[2 + 2i]          x: byte offset (from v) of part i as built, y: of part i in the world
 *   v[2 + 2i + 1]      part i's offset from the position, world-oriented
 *   v[2 + 2P + j]      outline point j about the position, scale 1, rotation 0
 *   v[2 + 2P + N + j]  outline point j, world-oriented offset
 *   then the parts, each as built and in the world, at multiples of 16 bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "sat_internal.h"

/* ---- storage -------------------------------------------------------------------------- */

static size_t round16(size_t n)
{
    return (n + 15u) & ~(size_t)15u;
}

static int outline_n(const sat_shape *s)
{
    return (int)s->v[0].y;
}

static sat_shape *base_part(sat_shape *s, int i)
{
    return (sat_shape *)(void *)((char *)s->v + (size_t)s->v[2 + 2 * i].x);
}

static sat_shape *live_part(sat_shape *s, int i)
{
    return (sat_shape *)(void *)((char *)s->v + (size_t)s->v[2 + 2 * i].y);
}

static const sat_shape *clive(const sat_shape *s, int i)
{
    return (const sat_shape *)(const void *)((const char *)s->v + (size_t)s->v[2 + 2 * i].y);
}

static sat_vec *outline_local(sat_shape *s)
{
    return s->v + 2 + 2 * s->count;
}

static const sat_vec *coutline_world(const sat_shape *s)
{
    return s->v + 2 + 2 * s->count + outline_n(s);
}

static size_t header_bytes(int parts, int outline)
{
    return (size_t)(2 + 2 * parts + 2 * outline) * sizeof(sat_vec);
}

/* The parts a shape stands for: a compound's, or itself. */
static int nparts(const sat_shape *s)
{
    return s->kind == SAT_COMPOUND ? s->count : 1;
}

static const sat_shape *part_of(const sat_shape *s, int i)
{
    return s->kind == SAT_COMPOUND ? clive(s, i) : s;
}

sat_form sat_compound_form(const sat_shape *s)
{
    return (sat_form)(int)s->v[1].x;
}

const sat_shape *sat_compound_part(const sat_shape *s, int i)
{
    return clive(s, i);
}

int sat_compound_outline_count(const sat_shape *s)
{
    return outline_n(s);
}

sat_vec sat_compound_outline_point(const sat_shape *s, int i)
{
    sat_vec o = coutline_world(s)[i];
    return sat__v((s->pos.x + o.x) + s->pos_lo.x, (s->pos.y + o.y) + s->pos_lo.y);
}

/* ---- building ------------------------------------------------------------------------- */

/* Starts a compound of `parts` parts and `outline` outline points in s. */
static void begin(sat_shape *s, int parts, int outline, sat_form form)
{
    memset(s, 0, sizeof *s);
    s->kind = SAT_COMPOUND;
    s->count = parts;
    s->category = 1u;
    s->mask = 0xFFFFFFFFu;
    s->scale = 1.0;
    s->v[0] = sat__v((double)header_bytes(parts, outline), (double)outline);
    s->v[1] = sat__v((double)form, 0.0);
}

/* Appends part i, a copy of p (in world coordinates for now). */
static void add_part(sat_shape *s, int i, const sat_shape *p)
{
    size_t at = (size_t)s->v[0].x, size = round16(sat_shape_bytes(p));
    sat_shape *b = (sat_shape *)(void *)((char *)s->v + at);
    sat_shape_copy(b, p);
    b->user = 0;
    b->id = 0;
    s->v[2 + 2 * i] = sat__v((double)at, (double)(at + size));
    sat_shape_copy((sat_shape *)(void *)((char *)s->v + at + size), b);
    s->v[0].x = (double)(at + 2 * size);
}

/* A part's weight for the centroid: its area, else (chain) its length. */
static double part_area(const sat_shape *p)
{
    return sat_shape_area(p);
}

static double part_length(const sat_shape *p)
{
    return sat__has_segment(p) ? 2.0 * sat__seg_len(p) : 0.0;
}

/* The position: the parts' centroid (area, else length, else their mean), as a double-double
 * relative to part 0's, so that it keeps its precision far from the origin. Then every part
 * as built is made relative to it, and the outline (given in world coordinates) too. */
static void finish(sat_shape *s, const sat_vec *outline_world)
{
    int P = s->count, N = outline_n(s);
    const sat_shape *p0 = base_part(s, 0);
    double wa = 0.0, wl = 0.0;
    sat_vec ca = sat__v(0.0, 0.0), cl = sat__v(0.0, 0.0), cm = sat__v(0.0, 0.0);
    for (int i = 0; i < P; i++) {
        const sat_shape *p = base_part(s, i);
        sat_vec d = sat__offset(p0, p);
        double a = part_area(p), l = part_length(p);
        wa += a;
        wl += l;
        ca = sat__add(ca, sat__mul(d, a));
        cl = sat__add(cl, sat__mul(d, l));
        cm = sat__add(cm, d);
    }
    sat_vec c = wa > 0.0 ? sat__mul(ca, 1.0 / wa)
                         : wl > 0.0 ? sat__mul(cl, 1.0 / wl) : sat__mul(cm, 1.0 / P);
    /* the position: part 0's plus c */
    s->pos = p0->pos;
    s->pos_lo = p0->pos_lo;
    sat__dd_add(&s->pos.x, &s->pos_lo.x, c.x);
    sat__dd_add(&s->pos.y, &s->pos_lo.y, c.y);
    for (int i = 0; i < P; i++) {
        sat_shape *p = base_part(s, i);
        sat_vec d = sat__offset(s, p);
        p->pos = d;
        p->pos_lo = sat__v(0.0, 0.0);
    }
    sat_vec *ol = outline_local(s);
    for (int j = 0; j < N; j++)
        ol[j] = sat__relative(s, outline_world[j].x, outline_world[j].y);
    s->angle = 0.0;
    s->scale = 1.0;
    sat__refresh(s);
}

static int bad_part(const sat_shape *p)
{
    return p == NULL || (unsigned)p->kind >= SAT_KIND_COUNT;
}

size_t sat_compound_bytes(const sat_shape *const *parts, int count)
{
    size_t bytes = sizeof(sat_shape);
    int P = 0;
    for (int i = 0; i < count; i++) {
        const sat_shape *p = parts[i];
        if (bad_part(p))
            continue;
        for (int k = 0; k < nparts(p); k++, P++)
            bytes += 2 * round16(sat_shape_bytes(part_of(p, k)));
    }
    return bytes + header_bytes(P, 0);
}

sat_status sat_compound_init(sat_shape *s, const sat_shape *const *parts, int count)
{
    int P = 0;
    for (int i = 0; i < count; i++) {
        if (bad_part(parts[i]))
            return SAT_ERR_NO_PARTS;
        P += nparts(parts[i]);
    }
    if (P < 1)
        return SAT_ERR_NO_PARTS;
    begin(s, P, 0, SAT_FORM_PARTS);
    P = 0;
    for (int i = 0; i < count; i++)
        for (int k = 0; k < nparts(parts[i]); k++)
            add_part(s, P++, part_of(parts[i], k));
    finish(s, NULL);
    return SAT_OK;
}

sat_shape *sat_compound_new(const sat_shape *const *parts, int count, sat_status *status)
{
    sat_status st = SAT_ERR_NO_PARTS;
    sat_shape *s = NULL;
    for (int i = 0; i < count; i++)
        if (bad_part(parts[i]))
            count = 0;
    if (count > 0) {
        st = SAT_ERR_NOMEM;
        s = malloc(sat_compound_bytes(parts, count));
        if (s && (st = sat_compound_init(s, parts, count)) != SAT_OK) {
            free(s);
            s = NULL;
        }
    }
    if (status)
        *status = st;
    return s;
}

/* ---- chains --------------------------------------------------------------------------- */

/* A segment on the stack, aligned as a shape: in sat_vec units. */
#define SEGMENT_VECS ((sizeof(sat_shape) + 4 * sizeof(sat_vec)) / sizeof(sat_vec) + 1)

/* The points a chain keeps: each farther than tol (and SAT_MIN_SIZE) from the last one kept,
 * and for a closed chain the last not on the first. Writes them to out when it is not NULL;
 * returns their count. */
static int keep_points(const sat_vec *points, int count, int closed, double tol, sat_vec *out)
{
    int n = 0;
    sat_vec last = points[0];
    for (int i = 0; i < count; i++) {
        double l = sat__len(sat__sub(points[i], last));
        if (i > 0 && !(l > tol && l >= SAT_MIN_SIZE))
            continue;
        if (out)
            out[n] = points[i];
        last = points[i];
        n++;
    }
    if (closed && n > 2) {
        double l = sat__len(sat__sub(last, points[0]));
        if (!(l > tol && l >= SAT_MIN_SIZE))
            n--;
    }
    return n;
}

/* How many points and segments a chain keeps, or an error. */
static sat_status chain_points(const sat_vec *points, int count, int closed, int *kept,
                               int *segments)
{
    if (count > SAT_MAX_POINTS)
        return SAT_ERR_TOO_MANY_POINTS;
    double size = 0.0;
    for (int i = 0; i < count; i++) {
        if (!isfinite(points[i].x) || !isfinite(points[i].y))
            return SAT_ERR_NONFINITE;
        if (!sat__in_range(points[i].x) || !sat__in_range(points[i].y))
            return SAT_ERR_RANGE;
        size = fmax(size, fmax(fabs(points[i].x - points[0].x), fabs(points[i].y - points[0].y)));
    }
    int n = count > 0 ? keep_points(points, count, closed, SAT_MERGE_REL * size, NULL) : 0;
    if (n < 2)
        return SAT_ERR_NO_PARTS;
    *kept = n;
    *segments = n - 1 + (closed && n >= 3);
    return SAT_OK;
}

sat_status sat_chain_bytes(const sat_vec *points, int count, int closed, size_t *bytes)
{
    int kept, segs;
    sat_status st = chain_points(points, count, closed, &kept, &segs);
    if (st == SAT_OK)
        *bytes = sizeof(sat_shape) + header_bytes(segs, kept) +
                 (size_t)segs * 2 * round16(sat_segment_bytes());
    return st;
}

sat_status sat_chain_init(sat_shape *s, const sat_vec *points, int count, int closed)
{
    int kept, segs;
    sat_status st = chain_points(points, count, closed, &kept, &segs);
    if (st != SAT_OK)
        return st;
    double size = 0.0;
    for (int i = 0; i < count; i++)
        size = fmax(size, fmax(fabs(points[i].x - points[0].x), fabs(points[i].y - points[0].y)));
    double tol = SAT_MERGE_REL * size;
    /* the kept points go into the outline's place first (world coordinates), then become
     * local in finish() */
    begin(s, segs, kept, segs > kept - 1 ? SAT_FORM_LOOP : SAT_FORM_CHAIN);
    sat_vec *ol = outline_local(s);
    int n = keep_points(points, count, closed, tol, ol);
    sat_vec seg[SEGMENT_VECS];
    sat_shape *g = (sat_shape *)(void *)seg;
    for (int i = 0; i < segs; i++) {
        sat_vec p = ol[i], q = ol[(i + 1) % n];
        if (sat_segment_init(g, p.x, p.y, q.x, q.y) != SAT_OK) /* cannot happen: checked */
            return SAT_ERR_SAME_POINTS;
        add_part(s, i, g);
    }
    finish(s, ol); /* (made local in place) */
    return SAT_OK;
}

sat_shape *sat_chain_new(const sat_vec *points, int count, int closed, sat_status *status)
{
    size_t bytes;
    sat_shape *s = NULL;
    sat_status st = sat_chain_bytes(points, count, closed, &bytes);
    if (st == SAT_OK) {
        s = malloc(bytes);
        st = s ? sat_chain_init(s, points, count, closed) : SAT_ERR_NOMEM;
        if (st != SAT_OK) {
            free(s);
            s = NULL;
        }
    }
    if (status)
        *status = st;
    return s;
}

/* ---- concave outlines: validation and decomposition ----------------------------------- */

/* The work area of sat_concave_prepare: the reduced outline (at unit size, relative to
 * origin), and a half-edge structure of its triangulation, whose faces are the parts. */
typedef struct concave_work {
    int cap;        /* the input's count, which the layout is sized for */
    int n;          /* outline points kept */
    int halves;     /* half-edges in use */
    int exponent;
    sat_vec origin;
    size_t bytes;   /* of the shape */
    int parts;
} concave_work;

typedef struct half {
    int from;       /* vertex it leaves */
    int next, prev, twin;
    int dead;
} half;

static sat_vec *cw_points(concave_work *w)
{
    return (sat_vec *)(void *)((char *)w + round16(sizeof(concave_work)));
}

static half *cw_halves(concave_work *w)
{
    return (half *)(void *)(cw_points(w) + w->cap);
}

static int *cw_ints(concave_work *w)
{
    size_t halves = round16((size_t)3 * (size_t)w->cap * sizeof(half));
    return (int *)(void *)((char *)cw_halves(w) + halves);
}

static sat_vec *cw_scratch(concave_work *w)
{
    size_t ints = round16((size_t)(4 * w->cap + 4) * sizeof(int));
    return (sat_vec *)(void *)((char *)cw_ints(w) + ints);
}

size_t sat_concave_work_bytes(int count)
{
    if (count < 3)
        count = 3;
    if (count > SAT_MAX_POINTS)
        count = SAT_MAX_POINTS;
    /* the header, the points, 3n half-edges, then scratch: 3 ints a vertex and a part's
     * points */
    return round16(sizeof(concave_work)) + (size_t)count * sizeof(sat_vec) +
           round16((size_t)3 * (size_t)count * sizeof(half)) +
           round16((size_t)(4 * count + 4) * sizeof(int)) +
           (size_t)2 * (size_t)count * sizeof(sat_vec);
}

static double orient(sat_vec a, sat_vec b, sat_vec c)
{
    return sat__cross(sat__sub(b, a), sat__sub(c, a));
}

static double seg_point_dist(sat_vec p, sat_vec a, sat_vec b)
{
    sat_vec ab = sat__sub(b, a), ap = sat__sub(p, a);
    double l2 = sat__dot(ab, ab), t = l2 > 0.0 ? sat__dot(ap, ab) / l2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return sat__len(sat__sub(ap, sat__mul(ab, t)));
}

/* Whether edges (a, b) and (c, d), not adjacent, cross (1) or touch within tol (2). */
static int edges_meet(sat_vec a, sat_vec b, sat_vec c, sat_vec d, double tol)
{
    double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)) &&
        ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))) {
        /* a proper crossing, unless it is only a touch within the tolerance */
        double m = fmin(fmin(seg_point_dist(c, a, b), seg_point_dist(d, a, b)),
                        fmin(seg_point_dist(a, c, d), seg_point_dist(b, c, d)));
        return m <= tol ? 2 : 1;
    }
    if (seg_point_dist(c, a, b) <= tol || seg_point_dist(d, a, b) <= tol ||
        seg_point_dist(a, c, d) <= tol || seg_point_dist(b, c, d) <= tol)
        return 2;
    return 0;
}

/* Checks that the outline is simple: O(n^2) edge pairs, each after a box test. */
static sat_status check_simple(const sat_vec *p, int n, double tol)
{
    for (int i = 0; i < n; i++) {
        sat_vec a = p[i], b = p[(i + 1) % n];
        double lox = fmin(a.x, b.x) - tol, hix = fmax(a.x, b.x) + tol;
        double loy = fmin(a.y, b.y) - tol, hiy = fmax(a.y, b.y) + tol;
        for (int j = i + 2; j < n; j++) {
            if (i == 0 && j == n - 1)
                continue; /* adjacent through the seam */
            sat_vec c = p[j], d = p[(j + 1) % n];
            if (fmax(c.x, d.x) < lox || fmin(c.x, d.x) > hix || fmax(c.y, d.y) < loy ||
                fmin(c.y, d.y) > hiy)
                continue;
            int m = edges_meet(a, b, c, d, tol);
            if (m == 1)
                return SAT_ERR_SELF_CROSSING;
            if (m == 2)
                return SAT_ERR_SELF_TOUCHING;
        }
    }
    /* adjacent edges folding back onto each other */
    for (int i = 0; i < n; i++) {
        sat_vec a = p[(i + n - 1) % n], b = p[i], c = p[(i + 1) % n];
        sat_vec e0 = sat__sub(b, a), e1 = sat__sub(c, b);
        if (sat__dot(e0, e1) < 0.0 && fabs(sat__cross(e0, e1)) <= tol * sat__len(e1) &&
            (seg_point_dist(c, a, b) <= tol || seg_point_dist(a, b, c) <= tol))
            return SAT_ERR_SELF_TOUCHING;
    }
    return SAT_OK;
}

static int in_triangle(sat_vec p, sat_vec a, sat_vec b, sat_vec c)
{
    return orient(a, b, p) >= 0.0 && orient(b, c, p) >= 0.0 && orient(c, a, p) >= 0.0;
}

/* Ear clipping into the half-edge structure: n outline half-edges (i -> i + 1), then a pair
 * per diagonal. O(n^2) in the worst case (each ear checks the reflex vertices). */
static int triangulate(const sat_vec *p, int n, half *h, int *prv, int *nxt, int *out)
{
    int H = n;
    for (int i = 0; i < n; i++) {
        h[i].from = i;
        h[i].next = (i + 1) % n;
        h[i].prev = (i + n - 1) % n;
        h[i].twin = -1;
        h[i].dead = 0;
        prv[i] = (i + n - 1) % n;
        nxt[i] = (i + 1) % n;
        out[i] = i; /* the half-edge from i to nxt[i] in the remaining polygon */
    }
    int left = n, i = 0, misses = 0;
    while (left > 3) {
        int a = prv[i], c = nxt[i];
        int ear = orient(p[a], p[i], p[c]) > 0.0;
        if (ear) {
            for (int k = nxt[c]; k != a; k = nxt[k]) {
                if (orient(p[prv[k]], p[k], p[nxt[k]]) > 0.0)
                    continue; /* only reflex (or flat) vertices can lie in an ear */
                if (sat__dot(sat__sub(p[k], p[a]), sat__sub(p[k], p[a])) == 0.0 ||
                    sat__dot(sat__sub(p[k], p[c]), sat__sub(p[k], p[c])) == 0.0)
                    continue;
                if (in_triangle(p[k], p[a], p[i], p[c])) {
                    ear = 0;
                    break;
                }
            }
        }
        /* after a whole round without an ear (rounding in a near-degenerate outline): the
         * most convex vertex, so that clipping always ends */
        if (!ear && misses >= left) {
            double bestc = -HUGE_VAL;
            int k = i, best = i;
            do {
                double o = orient(p[prv[k]], p[k], p[nxt[k]]);
                if (o > bestc) {
                    bestc = o;
                    best = k;
                }
                k = nxt[k];
            } while (k != i);
            i = best;
            a = prv[i];
            c = nxt[i];
            ear = 1;
        }
        if (!ear) {
            misses++;
            i = nxt[i];
            continue;
        }
        misses = 0;
        /* clip: half-edges a->i (out[a]) and i->c (out[i]) close with c->a (d1); the rest
         * gets a->c (d2) */
        int eai = out[a], eic = out[i], before = h[eai].prev, after = h[eic].next;
        int d1 = H++, d2 = H++;
        h[d1].from = c;
        h[d1].twin = d2;
        h[d1].dead = 0;
        h[d1].next = eai;
        h[d1].prev = eic;
        h[eai].prev = d1;
        h[eic].next = d1;
        h[d2].from = a;
        h[d2].twin = d1;
        h[d2].dead = 0;
        h[d2].prev = before;
        h[d2].next = after;
        h[before].next = d2;
        h[after].prev = d2;
        out[a] = d2;
        nxt[a] = c;
        prv[c] = a;
        left--;
        i = c;
    }
    return H;
}

/* Hertel-Mehlhorn: remove each diagonal whose two ends stay convex (or straight) in the
 * merged part. */
static void merge_parts(const sat_vec *p, half *h, int n, int H)
{
    for (int d = n; d < H; d += 2) {
        int d1 = d, d2 = d + 1;
        if (h[d1].dead)
            continue;
        /* at d2's start (d1's end): the part of d2 comes in by prev(d2), leaves by next(d1) */
        int in1 = h[d2].prev, out1 = h[d1].next, in2 = h[d1].prev, out2 = h[d2].next;
        sat_vec v1 = p[h[d2].from], v2 = p[h[d1].from];
        sat_vec a1 = p[h[in1].from], c1 = p[h[h[out1].next].from];
        sat_vec a2 = p[h[in2].from], c2 = p[h[h[out2].next].from];
        if (orient(a1, v1, c1) < 0.0 || orient(a2, v2, c2) < 0.0)
            continue;
        h[in1].next = out1;
        h[out1].prev = in1;
        h[in2].next = out2;
        h[out2].prev = in2;
        h[d1].dead = h[d2].dead = 1;
    }
}

/* Calls fn with each part, validated as a polygon. A part that does not validate (a sliver of
 * no area, or rounding at a straight vertex) is split into its fan's triangles, and those of
 * no area dropped. Returns the parts' count. */
typedef void (*part_fn)(void *ctx, const sat_outline *o);

static int each_part(concave_work *w, part_fn fn, void *ctx)
{
    const sat_vec *p = cw_points(w);
    half *h = cw_halves(w);
    unsigned char *mark = (unsigned char *)cw_ints(w);
    sat_vec *pts = cw_scratch(w), *tmpw = pts + w->cap;
    int parts = 0;
    sat_outline o;
    memset(mark, 0, (size_t)w->halves);
    for (int e = 0; e < w->halves; e++) {
        if (h[e].dead || mark[e])
            continue;
        int k = 0, f = e;
        do {
            mark[f] = 1;
            sat_vec q = p[h[f].from];
            pts[k++] = sat__v(w->origin.x + ldexp(q.x, w->exponent),
                              w->origin.y + ldexp(q.y, w->exponent));
            f = h[f].next;
        } while (f != e && k < w->cap);
        if (sat_polygon_validate(pts, k, tmpw, &o) == SAT_OK) {
            fn(ctx, &o);
            parts++;
            continue;
        }
        for (int t = 1; t + 1 < k; t++) {
            sat_vec tri[3];
            tri[0] = pts[0];
            tri[1] = pts[t];
            tri[2] = pts[t + 1];
            if (sat_polygon_validate(tri, 3, tmpw, &o) == SAT_OK) {
                fn(ctx, &o);
                parts++;
            }
        }
    }
    return parts;
}

static void count_bytes(void *ctx, const sat_outline *o)
{
    *(size_t *)ctx += 2 * round16(sat_polygon_bytes(o->count));
}

sat_status sat_concave_prepare(const sat_vec *points, int count, void *work, size_t *bytes)
{
    concave_work *w = (concave_work *)work;
    if (count > SAT_MAX_POINTS)
        return SAT_ERR_TOO_MANY_POINTS;
    for (int i = 0; i < count; i++)
        if (!isfinite(points[i].x) || !isfinite(points[i].y))
            return SAT_ERR_NONFINITE;
    for (int i = 0; i < count; i++)
        if (!sat__in_range(points[i].x) || !sat__in_range(points[i].y))
            return SAT_ERR_RANGE;
    if (count < 3)
        return SAT_ERR_TOO_FEW_POINTS;
    w->cap = count;
    sat_vec *p = cw_points(w), origin = points[0], lo = sat__v(0.0, 0.0), hi = lo;
    for (int i = 0; i < count; i++) {
        p[i] = sat__sub(points[i], origin);
        lo.x = fmin(lo.x, p[i].x);
        lo.y = fmin(lo.y, p[i].y);
        hi.x = fmax(hi.x, p[i].x);
        hi.y = fmax(hi.y, p[i].y);
    }
    double size = fmax(hi.x - lo.x, hi.y - lo.y);
    if (!(size > 0.0))
        return SAT_ERR_TOO_FEW_POINTS;
    if (size < SAT_MIN_SIZE)
        return SAT_ERR_RANGE;
    int exponent;
    (void)frexp(size, &exponent);
    for (int i = 0; i < count; i++)
        p[i] = sat__v(ldexp(p[i].x, -exponent), ldexp(p[i].y, -exponent));
    size = ldexp(size, -exponent);
    /* merged and collinear points (spikes and folds among them) go, until none is left */
    int n = count, before;
    do {
        before = n;
        n = sat__merge_close(p, n, SAT_MERGE_REL * size);
        if (n >= 3)
            n = sat__drop_collinear(p, n, SAT_COLLINEAR_REL * size);
    } while (n >= 3 && n < before);
    if (n < 3)
        return SAT_ERR_ZERO_AREA;
    sat_status st = check_simple(p, n, SAT_MERGE_REL * size);
    if (st != SAT_OK)
        return st;
    double area2 = 0.0;
    for (int i = 0; i < n; i++)
        area2 += sat__cross(p[i], p[(i + 1) % n]);
    if (!(fabs(area2) * 0.5 > SAT_AREA_REL * size * size))
        return SAT_ERR_ZERO_AREA;
    if (area2 < 0.0) {
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            sat_vec t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
    }
    int *ints = cw_ints(w);
    w->n = n;
    w->exponent = exponent;
    w->origin = origin;
    w->halves = triangulate(p, n, cw_halves(w), ints, ints + count, ints + 2 * count);
    merge_parts(p, cw_halves(w), n, w->halves);
    size_t b = 0;
    w->parts = each_part(w, count_bytes, &b);
    w->bytes = sizeof(sat_shape) + header_bytes(w->parts, n) + b;
    *bytes = w->bytes;
    return w->parts > 0 ? SAT_OK : SAT_ERR_ZERO_AREA;
}

typedef struct build_ctx {
    sat_shape *s;
    int i;
} build_ctx;

/* Builds the polygon straight into the compound's next part slot. */
static void build_part(void *ctx, const sat_outline *o)
{
    build_ctx *b = (build_ctx *)ctx;
    sat_shape *s = b->s;
    size_t at = (size_t)s->v[0].x, size = round16(sat_polygon_bytes(o->count));
    sat_shape *base = (sat_shape *)(void *)((char *)s->v + at);
    sat_polygon_build(base, o);
    s->v[2 + 2 * b->i] = sat__v((double)at, (double)(at + size));
    sat_shape_copy((sat_shape *)(void *)((char *)s->v + at + size), base);
    s->v[0].x = (double)(at + 2 * size);
    b->i++;
}

void sat_concave_build(sat_shape *s, const void *work)
{
    concave_work *w = (concave_work *)(uintptr_t)work;
    build_ctx b;
    b.s = s;
    b.i = 0;
    begin(s, w->parts, w->n, SAT_FORM_CONCAVE);
    each_part(w, build_part, &b);
    const sat_vec *p = cw_points(w);
    sat_vec *ow = cw_scratch(w);
    for (int j = 0; j < w->n; j++)
        ow[j] = sat__v(w->origin.x + ldexp(p[j].x, w->exponent),
                       w->origin.y + ldexp(p[j].y, w->exponent));
    finish(s, ow);
}

sat_shape *sat_concave_new(const sat_vec *points, int count, sat_status *status)
{
    sat_status st = SAT_ERR_TOO_MANY_POINTS;
    sat_shape *s = NULL;
    void *work = NULL;
    size_t bytes;
    if (count <= SAT_MAX_POINTS) {
        st = SAT_ERR_NOMEM;
        work = malloc(sat_concave_work_bytes(count));
    }
    if (work && (st = sat_concave_prepare(points, count, work, &bytes)) == SAT_OK) {
        s = malloc(bytes);
        if (s)
            sat_concave_build(s, work);
        else
            st = SAT_ERR_NOMEM;
    }
    free(work);
    if (status)
        *status = st;
    return s;
}

/* ---- transform ------------------------------------------------------------------------ */

void sat__compound_place(sat_shape *s)
{
    for (int i = 0; i < s->count; i++) {
        sat_shape *p = live_part(s, i);
        sat_vec o = s->v[3 + 2 * i];
        p->pos = s->pos;
        p->pos_lo = s->pos_lo;
        sat__dd_add(&p->pos.x, &p->pos_lo.x, o.x);
        sat__dd_add(&p->pos.y, &p->pos_lo.y, o.y);
    }
}

void sat__compound_refresh(sat_shape *s)
{
    double c = cos(s->angle), sn = sin(s->angle), k = s->scale, bound = 0.0;
    sat_vec lo = sat__v(HUGE_VAL, HUGE_VAL), hi = sat__v(-HUGE_VAL, -HUGE_VAL);
    for (int i = 0; i < s->count; i++) {
        sat_shape *b = base_part(s, i), *p = live_part(s, i);
        memcpy(p, b, sat_shape_bytes(b));
        if (k != 1.0) {
            if (p->kind == SAT_CIRCLE) {
                p->radius *= k;
            } else {
                p->scale *= k;
                if (p->kind == SAT_CAPSULE)
                    p->radius *= k;
            }
        }
        p->angle = b->angle + s->angle;
        sat__refresh(p);
        sat_vec q = sat__mul(b->pos, k);
        sat_vec o = sat__v(c * q.x - sn * q.y + 0.0, sn * q.x + c * q.y + 0.0);
        s->v[3 + 2 * i] = o;
        lo.x = fmin(lo.x, o.x + p->box_lo.x);
        lo.y = fmin(lo.y, o.y + p->box_lo.y);
        hi.x = fmax(hi.x, o.x + p->box_hi.x);
        hi.y = fmax(hi.y, o.y + p->box_hi.y);
        bound = fmax(bound, sat__len(o) + p->bound);
    }
    int N = outline_n(s);
    sat_vec *ol = outline_local(s), *ow = ol + N;
    for (int j = 0; j < N; j++) {
        sat_vec q = sat__mul(ol[j], k);
        ow[j] = sat__v(c * q.x - sn * q.y + 0.0, sn * q.x + c * q.y + 0.0);
    }
    s->box_lo = lo;
    s->box_hi = hi;
    s->bound = bound;
    s->radius = 0.0;
    sat__compound_place(s);
}

sat_status sat__compound_scale_ok(const sat_shape *s, double factor)
{
    double k = s->scale * factor;
    if (!isfinite(k))
        return SAT_ERR_RANGE;
    if (!(k > 0.0))
        return SAT_ERR_BAD_SCALE;
    for (int i = 0; i < s->count; i++) {
        const sat_shape *p = clive(s, i);
        if (p->kind == SAT_POLYGON && p->bound * factor < 0.5 * SAT_MIN_SIZE)
            return SAT_ERR_RANGE;
        if (sat__has_segment(p) && p->v[3].y > 0.0 &&
            sat__seg_len(p) * factor < 0.5 * SAT_MIN_SIZE)
            return SAT_ERR_RANGE;
    }
    return SAT_OK;
}

/* ---- queries -------------------------------------------------------------------------- */

/* The parts' areas added: exact for a concave shape (its parts do not overlap); a compound
 * whose parts overlap counts the overlap once per part. */
double sat__compound_area(const sat_shape *s)
{
    double a = 0.0;
    for (int i = 0; i < s->count; i++)
        a += sat_shape_area(clive(s, i));
    return a;
}

int sat__compound_contains(const sat_shape *s, double x, double y)
{
    for (int i = 0; i < s->count; i++)
        if (sat_shape_contains(clive(s, i), x, y))
            return 1;
    return 0;
}

/* The earliest entry over the parts (a start inside a part: t = 0 with that part's normal). */
int sat__compound_raycast(const sat_shape *s, sat_vec p1, sat_vec p2, sat_hit *hit)
{
    int found = 0;
    for (int i = 0; i < s->count; i++) {
        sat_hit h;
        if (sat_shape_raycast(clive(s, i), p1, p2, &h) && (!found || h.t < hit->t)) {
            *hit = h;
            found = 1;
        }
    }
    return found;
}

/* ---- pair tests ----------------------------------------------------------------------- *
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

/* Distance from the origin to the box of D_ij (a lower bound of its distance). */
static double box_reach(const sat_shape *x, sat_vec ca, const sat_shape *y, sat_vec cb)
{
    double lx = (cb.x + y->box_lo.x) - (ca.x + x->box_hi.x);
    double hx = (cb.x + y->box_hi.x) - (ca.x + x->box_lo.x);
    double ly = (cb.y + y->box_lo.y) - (ca.y + x->box_hi.y);
    double hy = (cb.y + y->box_hi.y) - (ca.y + x->box_lo.y);
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
    int na = nparts(A), nb = nparts(B);
    double reach = 2.0 * deepest + tol;
    arena ar;
    search sr;
    arena_init(&ar);
    for (;;) {
        ar.nv = ar.nd = 0;
        double beyond = HUGE_VAL;
        for (int i = 0; i < na; i++) {
            const sat_shape *x = part_of(A, i);
            sat_vec ca = sat__offset(A, x);
            for (int j = 0; j < nb; j++) {
                const sat_shape *y = part_of(B, j);
                sat_vec cb = sat__offset(A, y);
                double lb = box_reach(x, ca, y, cb);
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

/* The boxes of x and y (parts) come within tol. */
static int boxes_meet(const sat_shape *x, const sat_shape *y, double tol)
{
    sat_vec d = sat__offset(x, y);
    return !(d.x + y->box_lo.x - x->box_hi.x > tol || x->box_lo.x - (d.x + y->box_hi.x) > tol ||
             d.y + y->box_lo.y - x->box_hi.y > tol || x->box_lo.y - (d.y + y->box_hi.y) > tol);
}

int sat__compound_test(const sat_shape *a, const sat_shape *b)
{
    double tol = sat__touch_tol(a, b);
    for (int i = 0; i < nparts(a); i++)
        for (int j = 0; j < nparts(b); j++) {
            const sat_shape *x = part_of(a, i), *y = part_of(b, j);
            if (boxes_meet(x, y, tol) && sat_test(x, y))
                return 1;
        }
    return 0;
}

/* Whether x (a part) is inside a concave shape's outline: its position inside, and no edge
 * of the outline entering it beyond the touch tolerance. */
static int in_outline(const sat_shape *x, const sat_shape *s)
{
    int N = outline_n(s), in = 0;
    const sat_vec *o = coutline_world(s);
    sat_vec p = sat__offset(s, x);
    for (int i = 0, j = N - 1; i < N; j = i++) {
        if ((o[i].y > p.y) != (o[j].y > p.y) &&
            p.x < o[j].x + (p.y - o[j].y) * (o[i].x - o[j].x) / (o[i].y - o[j].y))
            in = !in;
    }
    if (!in)
        return 0;
    sat_vec buf[SEGMENT_VECS];
    sat_shape *g = (sat_shape *)(void *)buf;
    double tol = sat__touch_tol(x, s);
    for (int i = 0; i < N; i++) {
        sat_vec e0 = o[i], e1 = o[(i + 1) % N];
        sat_vec lo = sat__v(fmin(e0.x, e1.x), fmin(e0.y, e1.y));
        sat_vec hi = sat__v(fmax(e0.x, e1.x), fmax(e0.y, e1.y));
        if (lo.x > p.x + x->box_hi.x || hi.x < p.x + x->box_lo.x || lo.y > p.y + x->box_hi.y ||
            hi.y < p.y + x->box_lo.y)
            continue;
        if (sat_segment_init(g, e0.x, e0.y, e1.x, e1.y) != SAT_OK)
            continue;
        g->pos_lo = s->pos_lo;
        sat__dd_add(&g->pos.x, &g->pos_lo.x, s->pos.x);
        sat__dd_add(&g->pos.y, &g->pos_lo.y, s->pos.y);
        sat_result r;
        if (sat_collide(x, g, &r) && r.overlap > tol)
            return 0;
    }
    return 1;
}

/* Whether part x is inside the shape s: its outline for a concave one, else one part (a
 * convex shape is its own part). */
static int part_inside(const sat_shape *x, const sat_shape *s, double tol)
{
    if (s->kind == SAT_COMPOUND && sat_compound_form(s) == SAT_FORM_CONCAVE)
        return in_outline(x, s);
    for (int j = 0; j < nparts(s); j++) {
        const sat_shape *y = part_of(s, j);
        sat_result r;
        if (boxes_meet(x, y, tol) && sat_collide(x, y, &r) && r.a_in_b)
            return 1;
    }
    return 0;
}

static int all_inside(const sat_shape *a, const sat_shape *b, double tol)
{
    for (int i = 0; i < nparts(a); i++)
        if (!part_inside(part_of(a, i), b, tol))
            return 0;
    return 1;
}

int sat__compound_collide(const sat_shape *a, const sat_shape *b, sat_result *r)
{
    double tol = sat__touch_tol(a, b);
    int any = 0, deep = 0, single = 1;
    sat_result first, deepest;
    for (int i = 0; i < nparts(a); i++)
        for (int j = 0; j < nparts(b); j++) {
            const sat_shape *x = part_of(a, i), *y = part_of(b, j);
            sat_result pr;
            if (!boxes_meet(x, y, tol) || !sat_collide(x, y, &pr))
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
    if (!any)
        return 0;
    if (!deep) {
        *r = first;
    } else {
        /* one part pair overlapping, and every other difference's box beyond its MTV: that
         * MTV is the union's */
        if (single) {
            int within = 0;
            for (int i = 0; i < nparts(a); i++) {
                const sat_shape *x = part_of(a, i);
                sat_vec ca = sat__offset(a, x);
                for (int j = 0; j < nparts(b); j++) {
                    const sat_shape *y = part_of(b, j);
                    if (box_reach(x, ca, y, sat__offset(a, y)) <= deepest.overlap + tol)
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
    r->a_in_b = all_inside(a, b, tol);
    r->b_in_a = all_inside(b, a, tol);
    return 1;
}

/* The earliest touch over the part pairs; *pa, *pb: that pair. */
int sat__compound_sweep_pair(const sat_shape *a, sat_vec v, const sat_shape *b,
                             sat_sweep_hit *hit, const sat_shape **pa, const sat_shape **pb)
{
    sat_result res;
    int found = 0;
    sat_vec d = sat__offset(a, b);
    if (!sat__in_range(v.x) || !sat__in_range(v.y))
        return 0;
    *pa = *pb = NULL;
    if (sat_collide(a, b, &res) && res.overlap > 0.0) {
        memset(hit, 0, sizeof *hit);
        hit->overlapping = 1;
        hit->result = res;
        hit->dist2 = sat__dot(d, d);
        return 1;
    }
    for (int i = 0; i < nparts(a); i++)
        for (int j = 0; j < nparts(b); j++) {
            const sat_shape *x = part_of(a, i), *y = part_of(b, j);
            sat_sweep_hit h;
            if (!sat_sweep(x, v, y, &h))
                continue;
            if (h.overlapping) { /* within the union's tolerance: a touch now */
                h.overlapping = 0;
                h.t = 0.0;
                h.move = sat__v(0.0, 0.0);
                h.result.overlap = 0.0;
                h.result.mtv = sat__v(0.0, 0.0);
                h.result.a_in_b = h.result.b_in_a = 0;
            }
            if (!found || h.t < hit->t) {
                *hit = h;
                *pa = x;
                *pb = y;
                found = 1;
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
