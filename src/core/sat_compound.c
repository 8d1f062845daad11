/*
 * sat_compound.c - building compounds (see sat.h): from parts, from a concave outline
 * (validation, ear clipping, Hertel-Mehlhorn), from a chain of points. Their transforms and
 * queries are sat_shape.c's, their raycast sat_raycast.c's, their pair tests sat_union.c's
 * and their sweep sat_sweep.c's: each file handles every kind, so that the core's files
 * call each other one way.
 *
 * Storage after the shape's header (s->v), count = P parts, N outline points:
 *   v[0]               x: the bytes of this storage, y: N
 *   v[1]               x: the form (sat_form)
 *   v[2 + 4i]          x: byte offset (from v) of part i as built, y: of part i in the world
 *   v[2 + 4i + 1]      part i's offset from the position, world-oriented
 *   v[2 + 4i + 2, + 3] part i's box (lo, hi) about its position (sat__box: the pair tests
 *                      read it for every part pair, so it is kept, not derived)
 *   v[2 + 4P + j]      outline point j about the position, scale 1, rotation 0
 *   v[2 + 4P + N + j]  outline point j, world-oriented offset
 *   then the parts, each as built and in the world, at multiples of 16 bytes: as built, a
 *   polygon at rotation 0 and scale 1 is lean (its offsets are its local points), in the
 *   world every part keeps them inline (sat__copy_inline). *
 * For a port, sat_concave_prepare in full (every step deterministic; no sort anywhere):
 * 1. Points about their mean, rescaled by a power of two; repeated and collinear points
 *    merged (within SAT_MERGE_REL of the size) until nothing changes.
 * 2. Simplicity (check_simple): a uniform grid over the box (cells about the size of one a
 *    point, doubled until the edges' boxes, widened by tol, make at most 8n + 64 entries and
 *    there are at most n + 1 cells); each edge listed, in edge order, in every cell its
 *    widened box meets. A pair (i < j, not adjacent, not 0 and n - 1) is tested only in the
 *    first cell both are in (the column and row of the larger of their boxes' first column
 *    and row) and only when i's widened box meets j's plain box; of the pairs that cross or
 *    touch, the least (i, j) decides (crossing or touching), as a scan of every pair would.
 *    Then adjacent edges folding back.
 * 3. Counter-clockwise (reversed when the signed area is negative).
 * 4. Ear clipping (triangulate): a FIFO queue of vertices, all 0..n-1 at first; a vertex
 *    taken from it is an ear when it is convex (orient > 0) and no reflex or flat vertex left
 *    (other than its triangle's corners and the points equal to its neighbours) is in its
 *    triangle; those are found in a uniform grid of the vertices reflex at the start (cells
 *    about one each; the triangle's rows, in each row the triangle's x-span within the row,
 *    widened by a millionth of a cell), plus a list of vertices that turned reflex later.
 *    An ear is clipped (its two neighbours re-flagged and queued at the back); a vertex that
 *    is not an ear is dropped from the queue. When the queue is empty, every vertex left is
 *    queued, from the last ear's later neighbour on; after a whole such round without an
 *    ear, the most convex vertex (the first of the greatest orient, from the one just tried)
 *    is clipped.
 * 5. Hertel-Mehlhorn (merge_parts): the diagonals in the order they were made, each removed
 *    when both its ends stay convex (or straight) without it.
 */
#include <stdlib.h>
#include <string.h>

#include "sat_internal.h"

/* ---- storage -------------------------------------------------------------------------- */

static size_t round16(size_t n)
{
    return (n + 15u) & ~(size_t)15u;
}

/* The header, the parts' table and the outline (see sat_internal.h). */
static size_t header_bytes(int parts, int outline)
{
    return (size_t)(2 + 4 * parts + 2 * outline) * sizeof(sat_vec);
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

/* A part as built: a polygon at rotation 0 and scale 1 lean (its offsets are its local
 * points), any other shape with its local points in the compound's storage (never in a
 * block: a copy of the compound is a memcpy). */
static int lean_part(const sat_shape *p)
{
    return p->kind == SAT_POLYGON && p->angle == 0.0 && p->scale == 1.0;
}

static size_t base_bytes(const sat_shape *p)
{
    return round16(lean_part(p) ? sat_polygon_lean_bytes(p->count) : sat__inline_bytes(p));
}

/* A part in the world: inline, what sat__compound_refresh turns and sat_compound_part gives
 * (so that it can be copied out like any shape). */
static size_t live_bytes(const sat_shape *p)
{
    return round16(sat__inline_bytes(p));
}

/* Appends part i, a copy of p (in world coordinates for now), as built and in the world. */
static void add_part(sat_shape *s, int i, const sat_shape *p)
{
    size_t at = (size_t)s->v[0].x, size = base_bytes(p);
    sat_shape *b = (sat_shape *)(void *)((char *)s->v + at);
    if (lean_part(p)) {
        memcpy(b, p, sat_polygon_lean_bytes(p->count));
        b->local = SAT__LOCAL_NONE;
        b->members = NULL;
    } else {
        sat__copy_inline(b, p);
    }
    b->user = 0;
    b->id = 0;
    s->v[2 + 4 * i] = sat__v((double)at, (double)(at + size));
    sat__copy_inline((sat_shape *)(void *)((char *)s->v + at + size), b);
    s->v[0].x = (double)(at + size + live_bytes(p));
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
    int P = s->count, N = sat__outline_n(s);
    const sat_shape *p0 = sat__base_part(s, 0);
    /* weights relative to the largest, so that tiny or huge areas neither underflow nor
     * overflow in the sums */
    double amax = 0.0, lmax = 0.0, wa = 0.0, wl = 0.0;
    for (int i = 0; i < P; i++) {
        amax = fmax(amax, part_area(sat__base_part(s, i)));
        lmax = fmax(lmax, part_length(sat__base_part(s, i)));
    }
    sat_vec ca = sat__v(0.0, 0.0), cl = sat__v(0.0, 0.0), cm = sat__v(0.0, 0.0);
    for (int i = 0; i < P; i++) {
        const sat_shape *p = sat__base_part(s, i);
        sat_vec d = sat__offset(p0, p);
        double a = amax > 0.0 ? part_area(p) / amax : 0.0;
        double l = lmax > 0.0 ? part_length(p) / lmax : 0.0;
        wa += a;
        wl += l;
        ca = sat__add(ca, sat__mul(d, a));
        cl = sat__add(cl, sat__mul(d, l));
        cm = sat__add(cm, d);
    }
    sat_vec c = wa > 0.0 ? sat__v(ca.x / wa, ca.y / wa)
                         : wl > 0.0 ? sat__v(cl.x / wl, cl.y / wl)
                                    : sat__v(cm.x / P, cm.y / P);
    if (!isfinite(c.x) || !isfinite(c.y)) /* parts spread beyond any sense: the first's */
        c = sat__v(0.0, 0.0);
    /* the position: part 0's plus c */
    s->pos = p0->pos;
    s->pos_lo = p0->pos_lo;
    sat__dd_add(&s->pos.x, &s->pos_lo.x, c.x);
    sat__dd_add(&s->pos.y, &s->pos_lo.y, c.y);
    for (int i = 0; i < P; i++) {
        sat_shape *p = sat__base_part(s, i);
        sat_vec d = sat__offset(s, p);
        p->pos = d;
        p->pos_lo = sat__v(0.0, 0.0);
    }
    sat_vec *ol = sat__outline_local(s);
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
        for (int k = 0; k < sat__nparts(p); k++, P++)
            bytes += base_bytes(sat__part_of(p, k)) + live_bytes(sat__part_of(p, k));
    }
    return bytes + header_bytes(P, 0);
}

sat_status sat_compound_init(sat_shape *s, const sat_shape *const *parts, int count)
{
    int P = 0;
    for (int i = 0; i < count; i++) {
        if (bad_part(parts[i]))
            return SAT_ERR_NO_PARTS;
        P += sat__nparts(parts[i]);
    }
    if (P < 1)
        return SAT_ERR_NO_PARTS;
    begin(s, P, 0, SAT_FORM_PARTS);
    P = 0;
    for (int i = 0; i < count; i++)
        for (int k = 0; k < sat__nparts(parts[i]); k++)
            add_part(s, P++, sat__part_of(parts[i], k));
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
    sat_vec *ol = sat__outline_local(s);
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

/* The ints of the work area: 10 a point (the grids of the simplicity check and of ear
 * clipping, the clipping's lists and queue), and a few more. */
static size_t cw_int_count(int cap)
{
    return (size_t)10 * (size_t)cap + 128u;
}

static sat_vec *cw_scratch(concave_work *w)
{
    size_t ints = round16(cw_int_count(w->cap) * sizeof(int));
    return (sat_vec *)(void *)((char *)cw_ints(w) + ints);
}

size_t sat_concave_work_bytes(int count)
{
    if (count < 3)
        count = 3;
    if (count > SAT_MAX_POINTS)
        count = SAT_MAX_POINTS;
    /* the header, the points, 3n half-edges, then scratch: the ints and a part's points */
    return round16(sizeof(concave_work)) + (size_t)count * sizeof(sat_vec) +
           round16((size_t)3 * (size_t)count * sizeof(half)) +
           round16(cw_int_count(count) * sizeof(int)) + (size_t)2 * (size_t)count * sizeof(sat_vec);
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
    /* both ends of one edge on one side of the other's line, farther than twice tol (far
     * above rounding): every point of it is, so no end comes within tol */
    double ab2 = sat__dot(sat__sub(b, a), sat__sub(b, a)), cd2 = sat__dot(sat__sub(d, c), sat__sub(d, c));
    double t1 = 4.0 * tol * tol * ab2, t2 = 4.0 * tol * tol * cd2;
    if ((o1 * o2 > 0.0 && o1 * o1 > t1 && o2 * o2 > t1) ||
        (o3 * o4 > 0.0 && o3 * o3 > t2 && o4 * o4 > t2))
        return 0;
    if (seg_point_dist(c, a, b) <= tol || seg_point_dist(d, a, b) <= tol ||
        seg_point_dist(a, c, d) <= tol || seg_point_dist(b, c, d) <= tol)
        return 2;
    return 0;
}

/* A uniform grid: the column (or row) of coordinate x, in cells of width w from x0, clamped
 * to [0, n): monotone in x. */
static int grid_at(double x, double x0, double w, int n)
{
    double f = floor((x - x0) / w);
    return f < 0.0 ? 0 : f > (double)(n - 1) ? n - 1 : (int)f;
}

/* The width of a grid's cells for about n of them over the box (lo, hi), however flat. */
static double grid_width(sat_vec lo, sat_vec hi, int n)
{
    double dx = hi.x - lo.x, dy = hi.y - lo.y;
    return fmax(sqrt(dx * dy / n), fmax(dx, dy) / n);
}

/* Edge i's box, widened by tol. */
static void edge_box(const sat_vec *p, int n, int i, double tol, sat_vec *lo, sat_vec *hi)
{
    sat_vec a = p[i], b = p[(i + 1) % n];
    *lo = sat__v(fmin(a.x, b.x) - tol, fmin(a.y, b.y) - tol);
    *hi = sat__v(fmax(a.x, b.x) + tol, fmax(a.y, b.y) + tol);
}

/* Checks that the outline is simple: no two edges (not adjacent) cross or come within tol.
 * The pairs whose widened boxes meet come from a uniform grid over those boxes (about one
 * cell a point, coarser until there are at most 8 entries a point), each pair in one cell
 * only: the first both are in (the row and column where both begin). Of the pairs that meet,
 * the first in the order (i, j) decides, as in a scan of every pair; then adjacent edges
 * folding back.
 * ints: room for 9n + 66; corner: n (each edge's first cell). */
static sat_status check_simple(const sat_vec *p, int n, double tol, int *ints, sat_vec *corner)
{
    sat_vec lo = p[0], hi = p[0];
    for (int i = 1; i < n; i++) {
        lo = sat__v(fmin(lo.x, p[i].x), fmin(lo.y, p[i].y));
        hi = sat__v(fmax(hi.x, p[i].x), fmax(hi.y, p[i].y));
    }
    lo = sat__v(lo.x - tol, lo.y - tol);
    hi = sat__v(hi.x + tol, hi.y + tol);
    double w = grid_width(lo, hi, n);
    int nx, ny;
    long entries, cap = 8L * n + 64;
    if (!(w > 0.0))
        w = 1.0;
    for (;;) {
        nx = grid_at(hi.x, lo.x, w, n + 1) + 1;
        ny = grid_at(hi.y, lo.y, w, n + 1) + 1;
        entries = 0;
        for (int i = 0; i < n && entries <= cap; i++) {
            sat_vec bl, bh;
            edge_box(p, n, i, tol, &bl, &bh);
            entries += (long)(grid_at(bh.x, lo.x, w, nx) - grid_at(bl.x, lo.x, w, nx) + 1) *
                       (grid_at(bh.y, lo.y, w, ny) - grid_at(bl.y, lo.y, w, ny) + 1);
        }
        if (entries <= cap && (long)nx * ny <= (long)n + 1)
            break;
        w *= 2.0;
    }
    int cells = nx * ny, *start = ints, *item = ints + cells + 1;
    memset(start, 0, (size_t)(cells + 1) * sizeof(int));
    for (int pass = 0; pass < 2; pass++) { /* counts, then the entries in edge order */
        for (int i = 0; i < n; i++) {
            sat_vec bl, bh;
            edge_box(p, n, i, tol, &bl, &bh);
            corner[i] = sat__v(grid_at(bl.x, lo.x, w, nx), grid_at(bl.y, lo.y, w, ny));
            for (int r = grid_at(bl.y, lo.y, w, ny); r <= grid_at(bh.y, lo.y, w, ny); r++)
                for (int c = grid_at(bl.x, lo.x, w, nx); c <= grid_at(bh.x, lo.x, w, nx); c++) {
                    if (pass == 0)
                        start[r * nx + c + 1]++;
                    else
                        item[start[r * nx + c]++] = i;
                }
        }
        if (pass == 0)
            for (int c = 0; c < cells; c++)
                start[c + 1] += start[c];
        else
            for (int c = cells; c > 0; c--) /* each start moved to its end: back one cell */
                start[c] = start[c - 1];
    }
    start[0] = 0;
    int bi = n, bj = n, bm = 0;
    for (int cell = 0; cell < cells; cell++)
        for (int u = start[cell]; u < start[cell + 1]; u++) {
            int i = item[u];
            sat_vec a = p[i], b = p[(i + 1) % n];
            double lox = fmin(a.x, b.x) - tol, hix = fmax(a.x, b.x) + tol;
            double loy = fmin(a.y, b.y) - tol, hiy = fmax(a.y, b.y) + tol;
            for (int v = u + 1; v < start[cell + 1]; v++) {
                int j = item[v];
                if (j == i + 1 || (i == 0 && j == n - 1) || i > bi || (i == bi && j >= bj))
                    continue; /* adjacent, or not before the first found */
                sat_vec c = p[j], d = p[(j + 1) % n];
                if ((int)fmax(corner[i].y, corner[j].y) * nx + (int)fmax(corner[i].x, corner[j].x) !=
                        cell ||
                    fmax(c.x, d.x) < lox || fmin(c.x, d.x) > hix || fmax(c.y, d.y) < loy ||
                    fmin(c.y, d.y) > hiy)
                    continue; /* met in another cell (the first they share), or the boxes miss */
                int m = edges_meet(a, b, c, d, tol);
                if (m != 0)
                    bi = i, bj = j, bm = m;
            }
        }
    if (bm == 1)
        return SAT_ERR_SELF_CROSSING;
    if (bm == 2)
        return SAT_ERR_SELF_TOUCHING;
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

/* The state of ear clipping: the remaining polygon's links, each vertex's flags, the queue
 * of vertices to try, and a uniform grid of the vertices that were reflex (or flat) at the
 * start; a vertex that turns reflex later (rounding) goes to a list of its own. */
enum { GONE = 1, QUEUED = 2, REFLEX = 4, LISTED = 8 };

typedef struct clipper {
    const sat_vec *p;
    int n, left, reflexes; /* vertices left, of them reflex (or flat) */
    int *prv, *nxt, *out, *flag, *queue, head, queued;
    int *start, *item, *extra, extras;
    double x0, y0, w;
    int nx, ny;
} clipper;

static void push(clipper *cl, int i)
{
    if (cl->flag[i] & (GONE | QUEUED))
        return;
    cl->flag[i] |= QUEUED;
    cl->queue[(cl->head + cl->queued++) % cl->n] = i;
}

/* Vertex i's reflex flag from its neighbours now (a vertex only turns convex, but for
 * rounding: then it joins the extra list). */
static void reflex_now(clipper *cl, int i)
{
    const sat_vec *p = cl->p;
    int was = (cl->flag[i] & REFLEX) != 0;
    int is = !(orient(p[cl->prv[i]], p[i], p[cl->nxt[i]]) > 0.0);
    if (is && !(cl->flag[i] & LISTED)) {
        cl->flag[i] |= LISTED;
        cl->extra[cl->extras++] = i;
    }
    cl->flag[i] = is ? cl->flag[i] | REFLEX : cl->flag[i] & ~REFLEX;
    cl->reflexes += is - was;
}

/* Whether vertex k, reflex (or flat) and not a corner of the triangle (a, i, c) nor on a or
 * c, lies in it. */
static int blocks(const clipper *cl, int k, int a, int i, int c)
{
    const sat_vec *p = cl->p;
    if ((cl->flag[k] & (GONE | REFLEX)) != REFLEX || k == a || k == i || k == c)
        return 0;
    if (sat__dot(sat__sub(p[k], p[a]), sat__sub(p[k], p[a])) == 0.0 ||
        sat__dot(sat__sub(p[k], p[c]), sat__sub(p[k], p[c])) == 0.0)
        return 0;
    return in_triangle(p[k], p[a], p[i], p[c]);
}

/* The x-span of segment (a, b) within the band y0 <= y <= y1, widened into (*lo, *hi). */
static void band_span(sat_vec a, sat_vec b, double y0, double y1, double *lo, double *hi)
{
    if (a.y > b.y) {
        sat_vec t = a;
        a = b;
        b = t;
    }
    if (b.y < y0 || a.y > y1)
        return;
    double xa = a.x, xb = b.x;
    if (a.y < y0)
        xa = a.x + (b.x - a.x) * ((y0 - a.y) / (b.y - a.y));
    if (b.y > y1)
        xb = a.x + (b.x - a.x) * ((y1 - a.y) / (b.y - a.y));
    *lo = fmin(*lo, fmin(xa, xb));
    *hi = fmax(*hi, fmax(xa, xb));
}

/* Whether i is an ear: convex, and no reflex (or flat) vertex in its triangle (only those
 * can be): those the grid lists in the cells the triangle crosses (row by row, its span in
 * each, widened by a millionth of a cell for rounding), and the extra ones. */
static int is_ear(const clipper *cl, int i)
{
    const sat_vec *p = cl->p;
    int a = cl->prv[i], c = cl->nxt[i];
    if (!(orient(p[a], p[i], p[c]) > 0.0))
        return 0;
    if (cl->reflexes == 0)
        return 1;
    double loy = fmin(p[a].y, fmin(p[i].y, p[c].y)), hiy = fmax(p[a].y, fmax(p[i].y, p[c].y));
    for (int r = grid_at(loy, cl->y0, cl->w, cl->ny); r <= grid_at(hiy, cl->y0, cl->w, cl->ny); r++) {
        double eps = 1e-6 * cl->w, y0 = cl->y0 + r * cl->w - eps, y1 = y0 + cl->w + 2.0 * eps;
        double lo = HUGE_VAL, hi = -HUGE_VAL;
        band_span(p[a], p[i], y0, y1, &lo, &hi);
        band_span(p[i], p[c], y0, y1, &lo, &hi);
        band_span(p[c], p[a], y0, y1, &lo, &hi);
        if (!(lo <= hi))
            continue;
        for (int q = grid_at(lo - eps, cl->x0, cl->w, cl->nx);
             q <= grid_at(hi + eps, cl->x0, cl->w, cl->nx); q++)
            for (int u = cl->start[r * cl->nx + q]; u < cl->start[r * cl->nx + q + 1]; u++)
                if (blocks(cl, cl->item[u], a, i, c))
                    return 0;
    }
    for (int u = 0; u < cl->extras; u++)
        if (blocks(cl, cl->extra[u], a, i, c))
            return 0;
    return 1;
}

/* Ear clipping into the half-edge structure: n outline half-edges (i -> i + 1), then a pair
 * per diagonal. The vertices wait in a queue (every one at first, then the two neighbours
 * of each ear clipped); an ear's test asks only the reflex (or flat) vertices a grid lists
 * under its triangle. When the queue runs dry every vertex left is queued again, and after
 * a whole round without an ear (rounding in a near-degenerate outline) the most convex
 * vertex is clipped, so that it always ends. ints: room for 8n + 2. */
static int triangulate(const sat_vec *p, int n, half *h, int *ints)
{
    clipper cl;
    int H = n, round = -1;
    cl.p = p;
    cl.n = cl.left = n;
    cl.prv = ints;
    cl.nxt = cl.prv + n;
    cl.out = cl.nxt + n;
    cl.flag = cl.out + n;
    cl.queue = cl.flag + n;
    cl.extra = cl.queue + n;
    cl.head = cl.queued = cl.extras = cl.reflexes = 0;
    for (int i = 0; i < n; i++) {
        h[i].from = i;
        h[i].next = (i + 1) % n;
        h[i].prev = (i + n - 1) % n;
        h[i].twin = -1;
        h[i].dead = 0;
        cl.prv[i] = (i + n - 1) % n;
        cl.nxt[i] = (i + 1) % n;
        cl.out[i] = i; /* the half-edge from i to nxt[i] in the remaining polygon */
        cl.flag[i] = 0;
    }
    /* the grid of the reflex vertices: about one cell each */
    sat_vec lo = p[0], hi = p[0];
    for (int i = 0; i < n; i++) {
        lo = sat__v(fmin(lo.x, p[i].x), fmin(lo.y, p[i].y));
        hi = sat__v(fmax(hi.x, p[i].x), fmax(hi.y, p[i].y));
        if (!(orient(p[cl.prv[i]], p[i], p[cl.nxt[i]]) > 0.0))
            cl.flag[i] = REFLEX | LISTED, cl.reflexes++;
    }
    cl.x0 = lo.x;
    cl.y0 = lo.y;
    cl.w = grid_width(lo, hi, cl.reflexes + 1);
    if (!(cl.w > 0.0))
        cl.w = 1.0;
    do {
        cl.nx = grid_at(hi.x, cl.x0, cl.w, n + 1) + 1;
        cl.ny = grid_at(hi.y, cl.y0, cl.w, n + 1) + 1;
        cl.w *= 2.0;
    } while ((long)cl.nx * cl.ny > (long)n + 1);
    cl.w *= 0.5;
    cl.start = cl.extra + n;
    cl.item = cl.start + cl.nx * cl.ny + 1;
    memset(cl.start, 0, (size_t)(cl.nx * cl.ny + 1) * sizeof(int));
    for (int pass = 0; pass < 2; pass++) { /* counts, then the entries in order */
        for (int i = 0; i < n; i++) {
            if (!(cl.flag[i] & REFLEX))
                continue;
            int cell = grid_at(p[i].y, cl.y0, cl.w, cl.ny) * cl.nx + grid_at(p[i].x, cl.x0, cl.w, cl.nx);
            if (pass == 0)
                cl.start[cell + 1]++;
            else
                cl.item[cl.start[cell]++] = i;
        }
        for (int c = 0; pass == 0 && c < cl.nx * cl.ny; c++)
            cl.start[c + 1] += cl.start[c];
        for (int c = cl.nx * cl.ny; pass == 1 && c > 0; c--)
            cl.start[c] = cl.start[c - 1];
    }
    cl.start[0] = 0;
    for (int i = 0; i < n; i++)
        push(&cl, i);
    int i = 0, live = 0; /* live: a vertex left (the last ear's neighbour) */
    while (cl.left > 3) {
        if (cl.queued == 0) { /* dry: every vertex left */
            for (int k = 0, v = live; k < cl.left; k++, v = cl.nxt[v])
                push(&cl, v);
            round = cl.left;
        }
        i = cl.queue[cl.head];
        cl.head = (cl.head + 1) % n;
        cl.queued--;
        cl.flag[i] &= ~QUEUED;
        if (cl.flag[i] & GONE)
            continue;
        if (!is_ear(&cl, i)) {
            if (round > 0 && --round == 0) {
                /* a whole round without an ear: the most convex vertex */
                double bestc = -HUGE_VAL;
                int k = i, best = i;
                do {
                    double o = orient(p[cl.prv[k]], p[k], p[cl.nxt[k]]);
                    if (o > bestc) {
                        bestc = o;
                        best = k;
                    }
                    k = cl.nxt[k];
                } while (k != i);
                i = best;
            } else {
                continue;
            }
        }
        round = -1;
        /* clip: half-edges a->i (out[a]) and i->c (out[i]) close with c->a (d1); the rest
         * gets a->c (d2) */
        int a = cl.prv[i], c = cl.nxt[i];
        int eai = cl.out[a], eic = cl.out[i], before = h[eai].prev, after = h[eic].next;
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
        cl.out[a] = d2;
        cl.nxt[a] = c;
        cl.prv[c] = a;
        cl.left--;
        if (cl.flag[i] & REFLEX)
            cl.reflexes--;
        cl.flag[i] = GONE;
        reflex_now(&cl, a);
        reflex_now(&cl, c);
        push(&cl, a);
        push(&cl, c);
        live = c;
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

/* Each part lean as built, inline in the world (see add_part). */
static void count_bytes(void *ctx, const sat_outline *o)
{
    *(size_t *)ctx += round16(sat_polygon_lean_bytes(o->count)) +
                      round16(sat_polygon_bytes(o->count));
}

sat_status sat_concave_prepare(const sat_vec *points, int count, void *work, size_t *bytes)
{
    concave_work *w = (concave_work *)work;
    sat_status checked = sat__check_points(points, count);
    if (checked != SAT_OK)
        return checked;
    w->cap = count;
    sat_vec *p = cw_points(w), origin = points[0];
    int exponent;
    double size;
    checked = sat__unit_points(points, count, p, &exponent, &size);
    if (checked != SAT_OK)
        return checked;
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
    sat_status st = check_simple(p, n, SAT_MERGE_REL * size, cw_ints(w), cw_scratch(w));
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
    w->n = n;
    w->exponent = exponent;
    w->origin = origin;
    w->halves = triangulate(p, n, cw_halves(w), cw_ints(w));
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
    size_t at = (size_t)s->v[0].x, size = round16(sat_polygon_lean_bytes(o->count));
    sat_shape *base = (sat_shape *)(void *)((char *)s->v + at);
    sat_polygon_build_lean(base, o);
    s->v[2 + 4 * b->i] = sat__v((double)at, (double)(at + size));
    sat__copy_inline((sat_shape *)(void *)((char *)s->v + at + size), base);
    s->v[0].x = (double)(at + size + round16(sat_polygon_bytes(o->count)));
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
