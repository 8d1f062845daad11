/*
 * sat_hash_query.c - the spatial hash's queries (see sat_hash.h): gathering the candidates
 * of a box or a segment level by level, the point, rectangle, segment and shape queries, the
 * collisions of one shape and the sweep of a moving one.
 */
#include <float.h>
#include <stdlib.h>

#include "sat_hash_internal.h"

/* ---- gathering candidates -------------------------------------------------------------- */

static int cmp_key(const void *pa, const void *pb)
{
    const hkey *a = pa, *b = pb;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Scanning a level's entries costs about what visiting this many cells costs. */
static double scan_limit(const hlevel *L)
{
    return 2.0 * (double)L->count + 16.0;
}

static double range_cells(int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    return ((double)(x1 - x0) + 1.0) * ((double)(y1 - y0) + 1.0);
}

static void key_push(sat_hash *h, size_t *n, uint32_t i)
{
    if (*n == h->keycap && RESERVE(h, keys, keycap, *n + 1)) {
        h->keys_oom = 1;
        return;
    }
    h->keys[*n].seq = h->e[i].seq;
    h->keys[*n].handle = i;
    (*n)++;
}

/* The entries filed in cell (cx, cy) of the level whose boxes overlap q and that this query
 * has not met yet (the stamp), into h->keys. */
static void gather_cell(sat_hash *h, uint32_t level, int64_t cx, int64_t cy, const sat_aabb *q,
                        uint32_t stamp, size_t *n)
{
    uint64_t hk = cell_hash(level, cx, cy);
    uint32_t tag = (uint32_t)(hk >> 32);
    for (uint32_t id = h->heads[bucket_of(h, hk)]; id != SAT_HASH_NONE;
         id = h->nodes[id].next) {
        const hnode *nd = &h->nodes[id];
        /* Not checked against the entry's cell: a node of another cell with the same tag
         * (a chance of 2^-32 a node) brings an entry that passes only when its box overlaps
         * q, and every such entry is a candidate anyway (q covers one of its cells). */
        if (nd->tag != tag)
            continue;
        uint32_t i = NODE_ENTRY(nd->ek);
        hentry *e = &h->e[i];
        if (e->stamp == stamp)
            continue;
        e->stamp = stamp;
        if (box_overlap(&e->box, q))
            key_push(h, n, i);
    }
}

/* Every entry of the level whose box overlaps q and that this query has not met. */
static void scan_level(sat_hash *h, const hlevel *L, const sat_aabb *q, uint32_t stamp,
                       size_t *n)
{
    for (uint32_t j = 0; j < L->count; j++) {
        uint32_t i = L->ents[j];
        if (h->e[i].stamp != stamp && box_overlap(&h->e[i].box, q)) {
            h->e[i].stamp = stamp;
            key_push(h, n, i);
        }
    }
}

/* Starts a query: its stamp, `self` already met. Its candidates go to h->keys, which grows
 * as it finds them (sized for the query, not the hash); keys_oom tells when it could not. */
static int gather_begin(sat_hash *h, uint32_t self, uint32_t *stamp)
{
    if (sat_hash_sync(h) || RESERVE(h, keys, keycap, 1))
        return -1;
    h->keys_oom = 0;
    *stamp = NEXT_COUNT(h, stamp, stamp);
    if (self != SAT_HASH_NONE)
        h->e[self].stamp = *stamp;
    return 0;
}

void sat__hash_gather_box_level(sat_hash *h, uint32_t level, const sat_aabb *q, uint32_t stamp,
                                size_t *n)
{
    const hlevel *L = &h->lv[level];
    int64_t x0 = cell_of(q->x1, L->inv), y0 = cell_of(q->y1, L->inv);
    int64_t x1 = cell_of(q->x2, L->inv), y1 = cell_of(q->y2, L->inv);
    if (range_cells(x0, y0, x1, y1) > scan_limit(L)) {
        scan_level(h, L, q, stamp, n);
        return;
    }
    for (int64_t cy = y0; cy <= y1; cy++)
        for (int64_t cx = x0; cx <= x1; cx++)
            gather_cell(h, level, cx, cy, q, stamp, n);
}

/* Every entry (except self) whose box overlaps q, once each, into h->keys; the count, or
 * -1 when out of memory. Syncs first. */
int sat__hash_gather_box(sat_hash *h, sat_aabb q, uint32_t self)
{
    uint32_t stamp;
    if (gather_begin(h, self, &stamp))
        return -1;
    size_t n = 0;
    for (size_t u = 0; u < h->nused; u++)
        sat__hash_gather_box_level(h, h->used[u], &q, stamp, &n);
    return h->keys_oom ? -1 : (int)n;
}

/* Sorts h->keys[0, n) by insertion: by insertion sort when short (most queries), by qsort
 * otherwise. */
static void sort_keys(hkey *keys, size_t n)
{
    if (n > 16) {
        qsort(keys, n, sizeof(*keys), cmp_key);
        return;
    }
    for (size_t k = 1; k < n; k++) {
        hkey v = keys[k];
        size_t j = k;
        while (j > 0 && keys[j - 1].seq > v.seq) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = v;
    }
}

/* Sorts h->keys[0, n) by insertion and copies the handles to h->ids. */
static int finish_ids(sat_hash *h, size_t n, const uint32_t **out)
{
    if (RESERVE(h, ids, idcap, n + 1))
        return -1;
    sort_keys(h->keys, n);
    for (size_t k = 0; k < n; k++)
        h->ids[k] = h->keys[k].handle;
    *out = h->ids;
    return (int)n;
}

/* ---- queries --------------------------------------------------------------------------- */

static sat_aabb point_box(double x1, double y1, double x2, double y2)
{
    sat_aabb q;
    double pad = SAT_BROAD_ROUNDING * DBL_EPSILON * (fabs(x1) + fabs(y1) + fabs(x2) + fabs(y2)) +
                 DBL_MIN;
    q.x1 = (x1 < x2 ? x1 : x2) - pad;
    q.y1 = (y1 < y2 ? y1 : y2) - pad;
    q.x2 = (x1 < x2 ? x2 : x1) + pad;
    q.y2 = (y1 < y2 ? y2 : y1) + pad;
    return q;
}

int sat_hash_query_point(sat_hash *h, double x, double y, const uint32_t **out)
{
    int n = sat__hash_gather_box(h, point_box(x, y, x, y), SAT_HASH_NONE);
    if (n < 0)
        return -1;
    size_t m = 0;
    for (int k = 0; k < n; k++)
        if (sat_shape_contains(h->e[h->keys[k].handle].shape, x, y))
            h->keys[m++] = h->keys[k];
    return finish_ids(h, m, out);
}

int sat_hash_query_shape(sat_hash *h, const sat_shape *s, uint32_t self, const uint32_t **out)
{
    int n = sat__hash_gather_box(h, padded_box(s), self);
    if (n < 0)
        return -1;
    size_t m = 0;
    for (int k = 0; k < n; k++)
        if (sat_test(s, h->e[h->keys[k].handle].shape))
            h->keys[m++] = h->keys[k];
    return finish_ids(h, m, out);
}

int sat_hash_neighbors(sat_hash *h, const sat_shape *s, uint32_t self, const uint32_t **out)
{
    int n = sat__hash_gather_box(h, padded_box(s), self);
    if (n < 0)
        return -1;
    return finish_ids(h, (size_t)n, out);
}

static int cmp_hit(const void *pa, const void *pb)
{
    const sat_hash_hit *a = pa, *b = pb;
    if (a->hit.t != b->hit.t)
        return a->hit.t < b->hit.t ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Candidates along the segment at one level: column by column, the rows the segment crosses
 * there (a little widened), so a long diagonal costs its length in cells, not its box. */
static void gather_segment_level(sat_hash *h, uint32_t level, sat_vec p1, sat_vec p2,
                                 const sat_aabb *q, uint32_t stamp, size_t *n)
{
    const hlevel *L = &h->lv[level];
    int64_t x0 = cell_of(q->x1, L->inv), x1 = cell_of(q->x2, L->inv);
    int64_t y0 = cell_of(q->y1, L->inv), y1 = cell_of(q->y2, L->inv);
    double cost = ((double)(x1 - x0) + 1.0) + ((double)(y1 - y0) + 1.0);
    if (cost > scan_limit(L)) {
        scan_level(h, L, q, stamp, n);
        return;
    }
    if (range_cells(x0, y0, x1, y1) <= 4.0) {
        sat__hash_gather_box_level(h, level, q, stamp, n);
        return;
    }
    double side = 1.0 / L->inv;
    double dx = p2.x - p1.x, dy = p2.y - p1.y;
    for (int64_t cx = x0; cx <= x1; cx++) {
        double xa = (double)cx * side, xb = (double)(cx + 1) * side;
        /* The clamped end columns hold everything beyond them, not one cell's width. */
        if (xa < q->x1 || cx <= -(int64_t)CELL_LIMIT)
            xa = q->x1;
        if (xb > q->x2 || cx >= (int64_t)CELL_LIMIT)
            xb = q->x2;
        double ya = q->y1, yb = q->y2;
        if (dx != 0.0) {
            double ta = (xa - p1.x) / dx, tb = (xb - p1.x) / dx;
            double u = p1.y + dy * ta, w = p1.y + dy * tb;
            double slack = SAT_BROAD_ROUNDING * DBL_EPSILON * (fabs(u) + fabs(w)) +
                           (q->y2 - q->y1) * SAT_BROAD_SEGMENT_SLACK;
            ya = (u < w ? u : w) - slack;
            yb = (u < w ? w : u) + slack;
            if (ya < q->y1)
                ya = q->y1;
            if (yb > q->y2)
                yb = q->y2;
        }
        int64_t ra = cell_of(ya, L->inv), rb = cell_of(yb, L->inv);
        for (int64_t cy = ra; cy <= rb; cy++)
            gather_cell(h, level, cx, cy, q, stamp, n);
    }
}

static int gather_segment(sat_hash *h, sat_vec p1, sat_vec p2)
{
    uint32_t stamp;
    if (gather_begin(h, SAT_HASH_NONE, &stamp))
        return -1;
    sat_aabb q = point_box(p1.x, p1.y, p2.x, p2.y);
    size_t n = 0;
    for (size_t u = 0; u < h->nused; u++)
        gather_segment_level(h, h->used[u], p1, p2, &q, stamp, &n);
    return h->keys_oom ? -1 : (int)n;
}

int sat_hash_query_segment(sat_hash *h, sat_vec p1, sat_vec p2, const sat_hash_hit **out)
{
    int n = gather_segment(h, p1, p2);
    if (n < 0 || RESERVE(h, hits, hitcap, (size_t)n + 1))
        return -1;
    size_t m = 0;
    for (int k = 0; k < n; k++) {
        uint32_t i = h->keys[k].handle;
        sat_hit hit;
        if (sat_shape_raycast(h->e[i].shape, p1, p2, &hit)) {
            h->hits[m].handle = i;
            h->hits[m].seq = h->e[i].seq;
            h->hits[m].hit = hit;
            m++;
        }
    }
    qsort(h->hits, m, sizeof(*h->hits), cmp_hit);
    *out = h->hits;
    return (int)m;
}

/* A convex shape meets a rectangle where it crosses one of the rectangle's edges, or lies
 * inside it, and then so does its centroid: exact for rectangles of any thinness, through
 * the core's own segment cast and its touching tolerance. */
static int meets_thin_rect(const sat_shape *s, const sat_vec corner[4])
{
    sat_vec p = sat_shape_position(s);
    double xlo = fmin(corner[0].x, corner[2].x), xhi = fmax(corner[0].x, corner[2].x);
    double ylo = fmin(corner[0].y, corner[2].y), yhi = fmax(corner[0].y, corner[2].y);
    sat_hit hit;
    if (p.x >= xlo && p.x <= xhi && p.y >= ylo && p.y <= yhi)
        return 1;
    for (int i = 0; i < 4; i++)
        if (sat_shape_raycast(s, corner[i], corner[(i + 1) % 4], &hit))
            return 1;
    return 0;
}

int sat_hash_query_rect(sat_hash *h, double x1, double y1, double x2, double y2,
                        const uint32_t **out)
{
    if (x1 == x2 && y1 == y2)
        return sat_hash_query_point(h, x1, y1, out);
    sat_vec pts[4];
    pts[0] = sat__v(x1, y1);
    pts[1] = sat__v(x2, y1);
    pts[2] = sat__v(x2, y2);
    pts[3] = sat__v(x1, y2);
    if (x1 == x2 || y1 == y2) {
        /* No area: the rectangle is a segment. */
        sat_vec a = sat__v(x1, y1), b = sat__v(x2, y2);
        const sat_hash_hit *hits;
        int n = sat_hash_query_segment(h, a, b, &hits);
        if (n < 0 || RESERVE(h, keys, keycap, (size_t)n + 1))
            return -1;
        for (int k = 0; k < n; k++) {
            h->keys[k].seq = hits[k].seq;
            h->keys[k].handle = hits[k].handle;
        }
        return finish_ids(h, (size_t)n, out);
    }
    int thin = sat_polygon_init(h->rect, pts, 4) != SAT_OK;
    int n = sat__hash_gather_box(h, point_box(x1, y1, x2, y2), SAT_HASH_NONE);
    if (n < 0)
        return -1;
    size_t m = 0;
    for (int k = 0; k < n; k++) {
        const sat_shape *s = h->e[h->keys[k].handle].shape;
        /* too thin to be a polygon: tested edge by edge instead */
        if (thin ? meets_thin_rect(s, pts) : sat_test(h->rect, s))
            h->keys[m++] = h->keys[k];
    }
    return finish_ids(h, m, out);
}

/* Whether a query from self (or from no entry) skips entry i: two static entries never
 * meet, and with filter != 0 neither do shapes whose categories refuse each other. */
static int skips(const sat_hash *h, const sat_shape *s, uint32_t self, int filter, uint32_t i)
{
    if (filter == SAT_HASH_EVERY)
        return 0;
    if (self != SAT_HASH_NONE && (h->e[self].flags & h->e[i].flags & E_STATIC))
        return 1;
    return filter && !accepts(s, h->e[i].shape);
}

int sat_hash_collisions(sat_hash *h, const sat_shape *s, uint32_t self, int filter,
                        const sat_hash_pair **out)
{
    int n = sat__hash_gather_box(h, padded_box(s), self);
    if (n < 0 || RESERVE(h, pairs, paircap, (size_t)n + 1))
        return -1;
    sort_keys(h->keys, (size_t)n);
    size_t m = 0;
    for (int k = 0; k < n; k++) {
        uint32_t i = h->keys[k].handle;
        sat_hash_pair *p = &h->pairs[m];
        if (skips(h, s, self, filter, i) || !sat_collide(s, h->e[i].shape, &p->result))
            continue;
        p->a = self;
        p->b = i;
        p->seq_a = self == SAT_HASH_NONE ? 0 : h->e[self].seq;
        p->seq_b = h->e[i].seq;
        m++;
    }
    *out = h->pairs;
    return (int)m;
}

/* ---- sweep ------------------------------------------------------------------------------ */

static int cmp_sweep(const void *pa, const void *pb)
{
    const sat_hash_sweep_hit *a = pa, *b = pb;
    if (a->hit.t != b->hit.t)
        return a->hit.t < b->hit.t ? -1 : 1;
    if (a->hit.dist2 != b->hit.dist2)
        return a->hit.dist2 < b->hit.dist2 ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int sat_hash_sweep(sat_hash *h, const sat_shape *s, uint32_t self, sat_vec v, int filter,
                   const sat_hash_sweep_hit **out)
{
    if (!isfinite(v.x) || !isfinite(v.y))
        return -1;
    sat_aabb q = padded_box(s);
    if (v.x < 0.0)
        q.x1 += v.x;
    else
        q.x2 += v.x;
    if (v.y < 0.0)
        q.y1 += v.y;
    else
        q.y2 += v.y;
    int n = sat__hash_gather_box(h, q, self);
    if (n < 0 || RESERVE(h, sweeps, sweepcap, (size_t)n + 1))
        return -1;
    size_t m = 0;
    for (int k = 0; k < n; k++) {
        uint32_t i = h->keys[k].handle;
        if (skips(h, s, self, filter, i))
            continue;
        if (sat_sweep(s, v, h->e[i].shape, &h->sweeps[m].hit)) {
            h->sweeps[m].handle = i;
            h->sweeps[m].seq = h->e[i].seq;
            m++;
        }
    }
    if (m > 1)
        qsort(h->sweeps, m, sizeof(*h->sweeps), cmp_sweep);
    *out = h->sweeps;
    return (int)m;
}
