/*
 * sat_hash.c - the spatial hash broad phase and the swept pair test (see sat_hash.h).
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "sat_hash.h"
#include "sat_internal.h"

/* Cell coordinates are clamped here: far beyond any world, and small enough that a range's
 * width never overflows. */
#define CELL_LIMIT 1125899906842624.0 /* 2^50 */

typedef struct hentry {
    const sat_shape *shape; /* NULL: a free slot */
    uint64_t gen;           /* shape->gen when the box was computed */
    uint64_t seq;           /* insertion number, from 1 */
    sat_aabb box;           /* padded bounding box */
    int64_t cx0, cy0, cx1, cy1; /* cells it is stored in, inclusive (unused when big) */
    uint32_t stamp;
    uint32_t order;         /* index in h->order */
    uint32_t big;           /* index in h->bigs + 1, 0 when stored in cells */
} hentry;

typedef struct hnode {
    int64_t cx, cy; /* the cell: a bucket mixes cells */
    uint32_t entry, next;
} hnode;

typedef struct hkey {
    uint64_t seq;
    uint32_t handle;
} hkey;

struct sat_hash {
    double cell, inv;
    hentry *e;
    size_t ecap, eused; /* slots allocated, slots ever used */
    uint32_t live;
    uint32_t *free_slots; /* capacity kept >= eused, so removing never allocates */
    size_t nfree, freecap;
    uint32_t *order; /* handles in insertion order, SAT_HASH_NONE where removed */
    size_t norder, ordercap, ndead;
    uint32_t *bigs;
    size_t nbig, bigcap;
    uint32_t *heads; /* bucket chains */
    size_t nbuckets; /* a power of two */
    hnode *nodes;
    size_t nodecap, nodeused, nodelive;
    uint32_t nodefree; /* free list through next */
    size_t nnodefree;
    uint32_t stamp;
    uint64_t next_seq;
    /* result buffers */
    hkey *keys;
    size_t keycap;
    uint32_t *ids;
    size_t idcap;
    sat_hash_pair *pairs;
    size_t paircap;
    sat_hash_hit *hits;
    size_t hitcap;
    sat_hash_sweep_hit *sweeps;
    size_t sweepcap;
    sat_shape *rect; /* scratch box for rectangle queries */
};

/* ---- small helpers --------------------------------------------------------------------- */

/* Grows *p to hold at least need elements; 0 on success, -1 (untouched) when out of memory. */
static int reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > ((size_t)-1) / 2 / elem)
            return -1;
        n *= 2;
    }
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

#define RESERVE(h, field, capfield, need) \
    reserve((void **)&(h)->field, &(h)->capfield, (need), sizeof(*(h)->field))

/* floor(v * inv), clamped; without a libm call (this runs four times per moved shape). */
static int64_t cell_of(double v, double inv)
{
    double c = v * inv;
    if (!(c > -CELL_LIMIT))
        return -(int64_t)CELL_LIMIT; /* also -inf */
    if (!(c < CELL_LIMIT))
        return (int64_t)CELL_LIMIT;
    int64_t t = (int64_t)c; /* truncates toward zero */
    return (double)t > c ? t - 1 : t;
}

static size_t bucket_of(const sat_hash *h, int64_t x, int64_t y)
{
    uint64_t k = (uint64_t)x * 0x9E3779B97F4A7C15u ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Fu;
    k ^= k >> 31;
    k *= 0xBF58476D1CE4E5B9u;
    k ^= k >> 29;
    return (size_t)(k & (h->nbuckets - 1));
}

static int box_overlap(const sat_aabb *a, const sat_aabb *b)
{
    return a->x1 <= b->x2 && b->x1 <= a->x2 && a->y1 <= b->y2 && b->y1 <= a->y2;
}

/* A shape's bounding box, padded by the touch tolerance (with room to spare) and by the
 * rounding of a box far from the origin, so that every pair the core calls touching has
 * overlapping boxes. */
static sat_aabb padded_box(const sat_shape *s)
{
    sat_aabb b = sat_shape_bbox(s);
    double far = fabs(s->pos.x) + fabs(s->pos.y) + s->bound;
    double pad = SAT_BROAD_TOUCH_PAD * SAT_TOUCH_REL * s->bound +
                 SAT_BROAD_ROUNDING * DBL_EPSILON * far + DBL_MIN;
    b.x1 -= pad;
    b.y1 -= pad;
    b.x2 += pad;
    b.y2 += pad;
    return b;
}

static double range_cells(int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    return ((double)(x1 - x0) + 1.0) * ((double)(y1 - y0) + 1.0);
}

static uint32_t next_stamp(sat_hash *h)
{
    if (++h->stamp == 0) {
        for (size_t i = 0; i < h->eused; i++)
            h->e[i].stamp = 0;
        h->stamp = 1;
    }
    return h->stamp;
}

/* ---- nodes and cells ------------------------------------------------------------------- */

static int reserve_nodes(sat_hash *h, size_t count)
{
    size_t avail = h->nnodefree + (h->nodecap - h->nodeused);
    if (avail >= count)
        return 0;
    return RESERVE(h, nodes, nodecap, h->nodeused + (count - h->nnodefree));
}

/* Needs a reserved node. */
static void cell_add(sat_hash *h, int64_t cx, int64_t cy, uint32_t entry)
{
    uint32_t id;
    if (h->nnodefree) {
        id = h->nodefree;
        h->nodefree = h->nodes[id].next;
        h->nnodefree--;
    } else {
        id = (uint32_t)h->nodeused++;
    }
    size_t b = bucket_of(h, cx, cy);
    h->nodes[id].cx = cx;
    h->nodes[id].cy = cy;
    h->nodes[id].entry = entry;
    h->nodes[id].next = h->heads[b];
    h->heads[b] = id;
    h->nodelive++;
}

static void cell_remove(sat_hash *h, int64_t cx, int64_t cy, uint32_t entry)
{
    uint32_t *link = &h->heads[bucket_of(h, cx, cy)];
    while (*link != SAT_HASH_NONE) {
        uint32_t id = *link;
        const hnode *nd = &h->nodes[id];
        if (nd->entry == entry && nd->cx == cx && nd->cy == cy) {
            *link = h->nodes[id].next;
            h->nodes[id].next = h->nodefree;
            h->nodefree = id;
            h->nnodefree++;
            h->nodelive--;
            return;
        }
        link = &h->nodes[id].next;
    }
}

static void entry_fill_cells(sat_hash *h, uint32_t i)
{
    const hentry *e = &h->e[i];
    for (int64_t cy = e->cy0; cy <= e->cy1; cy++)
        for (int64_t cx = e->cx0; cx <= e->cx1; cx++)
            cell_add(h, cx, cy, i);
}

/* Doubles the bucket table and rebuilds the chains; on failure keeps the old table (still
 * correct, only longer chains). */
static void maybe_grow_buckets(sat_hash *h)
{
    if (h->nodelive <= h->nbuckets || h->nbuckets > ((size_t)1 << 30))
        return;
    size_t n = h->nbuckets;
    while (n < h->nodelive)
        n *= 2;
    uint32_t *heads = malloc(n * sizeof(*heads));
    if (!heads)
        return;
    free(h->heads);
    h->heads = heads;
    h->nbuckets = n;
    for (size_t b = 0; b < n; b++)
        h->heads[b] = SAT_HASH_NONE;
    /* Same node count as before, so the pool is big enough. */
    h->nodeused = 0;
    h->nodelive = 0;
    h->nnodefree = 0;
    h->nodefree = SAT_HASH_NONE;
    for (size_t i = 0; i < h->eused; i++)
        if (h->e[i].shape && !h->e[i].big)
            entry_fill_cells(h, (uint32_t)i);
}

/* ---- entries --------------------------------------------------------------------------- */

typedef struct placement {
    sat_aabb box;
    int64_t cx0, cy0, cx1, cy1;
    int big;
} placement;

static placement place(const sat_hash *h, const sat_shape *s)
{
    placement p;
    p.box = padded_box(s);
    p.cx0 = cell_of(p.box.x1, h->inv);
    p.cy0 = cell_of(p.box.y1, h->inv);
    p.cx1 = cell_of(p.box.x2, h->inv);
    p.cy1 = cell_of(p.box.y2, h->inv);
    p.big = range_cells(p.cx0, p.cy0, p.cx1, p.cy1) > SAT_HASH_MAX_CELLS;
    return p;
}

static int in_range(int64_t x, int64_t y, int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    return x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

static void big_add(sat_hash *h, uint32_t i)
{
    h->bigs[h->nbig++] = i;
    h->e[i].big = (uint32_t)h->nbig;
}

static void big_remove(sat_hash *h, uint32_t i)
{
    size_t k = h->e[i].big - 1;
    uint32_t last = h->bigs[--h->nbig];
    h->bigs[k] = last;
    h->e[last].big = (uint32_t)(k + 1);
    h->e[i].big = 0;
}

/* Moves entry i to placement p, touching only the cells that differ. Needs reserved nodes
 * (or bigs) for what it adds. */
static void entry_move(sat_hash *h, uint32_t i, const placement *p)
{
    hentry *e = &h->e[i];
    if (e->big && p->big) {
        /* stays in the big list */
    } else if (e->big) {
        big_remove(h, i);
        e->cx0 = p->cx0, e->cy0 = p->cy0, e->cx1 = p->cx1, e->cy1 = p->cy1;
        entry_fill_cells(h, i);
    } else if (p->big) {
        for (int64_t cy = e->cy0; cy <= e->cy1; cy++)
            for (int64_t cx = e->cx0; cx <= e->cx1; cx++)
                cell_remove(h, cx, cy, i);
        big_add(h, i);
    } else if (e->cx0 != p->cx0 || e->cy0 != p->cy0 || e->cx1 != p->cx1 || e->cy1 != p->cy1) {
        for (int64_t cy = e->cy0; cy <= e->cy1; cy++)
            for (int64_t cx = e->cx0; cx <= e->cx1; cx++)
                if (!in_range(cx, cy, p->cx0, p->cy0, p->cx1, p->cy1))
                    cell_remove(h, cx, cy, i);
        for (int64_t cy = p->cy0; cy <= p->cy1; cy++)
            for (int64_t cx = p->cx0; cx <= p->cx1; cx++)
                if (!in_range(cx, cy, e->cx0, e->cy0, e->cx1, e->cy1))
                    cell_add(h, cx, cy, i);
        e->cx0 = p->cx0, e->cy0 = p->cy0, e->cx1 = p->cx1, e->cy1 = p->cy1;
    }
    e->box = p->box;
    e->gen = e->shape->gen;
}

/* Capacity for moving entry i to p. */
static int reserve_move(sat_hash *h, uint32_t i, const placement *p)
{
    const hentry *e = &h->e[i];
    if (p->big)
        return e->big ? 0 : RESERVE(h, bigs, bigcap, h->nbig + 1);
    return reserve_nodes(h, (size_t)range_cells(p->cx0, p->cy0, p->cx1, p->cy1));
}

static void compact_order(sat_hash *h)
{
    size_t k = 0;
    for (size_t j = 0; j < h->norder; j++) {
        uint32_t i = h->order[j];
        if (i == SAT_HASH_NONE)
            continue;
        h->order[k] = i;
        h->e[i].order = (uint32_t)k;
        k++;
    }
    h->norder = k;
    h->ndead = 0;
}

/* ---- lifetime -------------------------------------------------------------------------- */

sat_hash *sat_hash_new(double cell_size)
{
    if (!isfinite(cell_size) || !(cell_size > 0.0) || !isfinite(1.0 / cell_size))
        return NULL;
    sat_hash *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->cell = cell_size;
    h->inv = 1.0 / cell_size;
    h->nbuckets = 256;
    h->heads = malloc(h->nbuckets * sizeof(*h->heads));
    h->rect = malloc(sat_polygon_bytes(4));
    if (!h->heads || !h->rect) {
        sat_hash_free(h);
        return NULL;
    }
    for (size_t b = 0; b < h->nbuckets; b++)
        h->heads[b] = SAT_HASH_NONE;
    h->nodefree = SAT_HASH_NONE;
    h->next_seq = 1;
    return h;
}

void sat_hash_free(sat_hash *h)
{
    if (!h)
        return;
    free(h->e);
    free(h->free_slots);
    free(h->order);
    free(h->bigs);
    free(h->heads);
    free(h->nodes);
    free(h->keys);
    free(h->ids);
    free(h->pairs);
    free(h->hits);
    free(h->sweeps);
    free(h->rect);
    free(h);
}

double sat_hash_cell_size(const sat_hash *h)
{
    return h->cell;
}

int sat_hash_count(const sat_hash *h)
{
    return (int)h->live;
}

int sat_hash_insert(sat_hash *h, const sat_shape *s, uint32_t *handle)
{
    if (h->live >= 0x7ffffff0u)
        return -1;
    placement p = place(h, s);
    size_t slots = h->nfree ? h->eused : h->eused + 1;
    if (RESERVE(h, e, ecap, slots) || RESERVE(h, free_slots, freecap, slots) ||
        RESERVE(h, order, ordercap, h->norder + 1) ||
        (p.big ? RESERVE(h, bigs, bigcap, h->nbig + 1)
               : reserve_nodes(h, (size_t)range_cells(p.cx0, p.cy0, p.cx1, p.cy1))))
        return -1;
    uint32_t i = h->nfree ? h->free_slots[--h->nfree] : (uint32_t)h->eused++;
    hentry *e = &h->e[i];
    memset(e, 0, sizeof(*e));
    e->shape = s;
    e->seq = h->next_seq++;
    e->order = (uint32_t)h->norder;
    h->order[h->norder++] = i;
    h->live++;
    if (p.big) {
        e->box = p.box;
        e->gen = s->gen;
        big_add(h, i);
    } else {
        e->cx0 = p.cx0, e->cy0 = p.cy0, e->cx1 = p.cx1, e->cy1 = p.cy1;
        e->box = p.box;
        e->gen = s->gen;
        entry_fill_cells(h, i);
        maybe_grow_buckets(h);
    }
    *handle = i;
    return 0;
}

void sat_hash_remove(sat_hash *h, uint32_t i)
{
    hentry *e = &h->e[i];
    if (e->big) {
        big_remove(h, i);
    } else {
        for (int64_t cy = e->cy0; cy <= e->cy1; cy++)
            for (int64_t cx = e->cx0; cx <= e->cx1; cx++)
                cell_remove(h, cx, cy, i);
    }
    h->order[e->order] = SAT_HASH_NONE;
    h->ndead++;
    e->shape = NULL;
    e->seq = 0;
    h->free_slots[h->nfree++] = i;
    h->live--;
    if (h->ndead > 32 && h->ndead > h->live)
        compact_order(h);
}

const sat_shape *sat_hash_shape(const sat_hash *h, uint32_t handle)
{
    return h->e[handle].shape;
}

uint64_t sat_hash_seq(const sat_hash *h, uint32_t handle)
{
    return h->e[handle].seq;
}

int sat_hash_cells_of(const sat_hash *h, uint32_t handle, int64_t *x0, int64_t *y0,
                      int64_t *x1, int64_t *y1)
{
    const hentry *e = &h->e[handle];
    if (e->big)
        return 0;
    *x0 = e->cx0, *y0 = e->cy0, *x1 = e->cx1, *y1 = e->cy1;
    return 1;
}

int sat_hash_sync(sat_hash *h)
{
    for (size_t k = 0; k < h->norder; k++) {
        uint32_t i = h->order[k];
        if (i == SAT_HASH_NONE)
            continue;
        hentry *e = &h->e[i];
        if (e->gen == e->shape->gen)
            continue;
        placement p = place(h, e->shape);
        if (!p.big && !e->big && p.cx0 == e->cx0 && p.cy0 == e->cy0 && p.cx1 == e->cx1 &&
            p.cy1 == e->cy1) {
            /* moved inside its cells: no hash work */
            e->box = p.box;
            e->gen = e->shape->gen;
            continue;
        }
        if (reserve_move(h, i, &p))
            return -1;
        entry_move(h, i, &p);
    }
    maybe_grow_buckets(h);
    return 0;
}

int sat_hash_handles(sat_hash *h, const uint32_t **out)
{
    if (h->ndead)
        compact_order(h);
    *out = h->order;
    return (int)h->norder;
}

/* ---- gathering candidates -------------------------------------------------------------- */

static int cmp_key(const void *pa, const void *pb)
{
    const hkey *a = pa, *b = pb;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Scanning every entry costs about what visiting this many cells costs. */
static double scan_limit(const sat_hash *h)
{
    return 2.0 * (double)h->live + 16.0;
}

static void key_push(sat_hash *h, size_t *n, uint32_t i)
{
    h->keys[*n].seq = h->e[i].seq;
    h->keys[*n].handle = i;
    (*n)++;
}

/* The entries filed in cell (cx, cy) whose boxes overlap q and that this query has not met
 * yet (the stamp), into h->keys. */
static void gather_cell(sat_hash *h, int64_t cx, int64_t cy, const sat_aabb *q, uint32_t stamp,
                        size_t *n)
{
    for (uint32_t id = h->heads[bucket_of(h, cx, cy)]; id != SAT_HASH_NONE;
         id = h->nodes[id].next) {
        uint32_t i = h->nodes[id].entry;
        hentry *e = &h->e[i];
        if (e->stamp == stamp)
            continue;
        e->stamp = stamp;
        if (box_overlap(&e->box, q))
            key_push(h, n, i);
    }
}

/* The same for the shapes too big to be filed in cells. */
static void gather_bigs(sat_hash *h, const sat_aabb *q, uint32_t stamp, size_t *n)
{
    for (size_t k = 0; k < h->nbig; k++) {
        uint32_t i = h->bigs[k];
        if (h->e[i].stamp != stamp && box_overlap(&h->e[i].box, q)) {
            h->e[i].stamp = stamp;
            key_push(h, n, i);
        }
    }
}

/* Every entry (except self) whose box overlaps q, once each, into h->keys; the count, or
 * -1 when out of memory. */
static int gather_box(sat_hash *h, sat_aabb q, uint32_t self)
{
    if (RESERVE(h, keys, keycap, (size_t)h->live + 1))
        return -1;
    size_t n = 0;
    uint32_t stamp = next_stamp(h);
    if (self != SAT_HASH_NONE)
        h->e[self].stamp = stamp;
    int64_t x0 = cell_of(q.x1, h->inv), y0 = cell_of(q.y1, h->inv);
    int64_t x1 = cell_of(q.x2, h->inv), y1 = cell_of(q.y2, h->inv);
    if (range_cells(x0, y0, x1, y1) > scan_limit(h)) {
        for (size_t k = 0; k < h->norder; k++) {
            uint32_t i = h->order[k];
            if (i == SAT_HASH_NONE || h->e[i].stamp == stamp)
                continue;
            if (box_overlap(&h->e[i].box, &q))
                key_push(h, &n, i);
        }
        return (int)n;
    }
    for (int64_t cy = y0; cy <= y1; cy++)
        for (int64_t cx = x0; cx <= x1; cx++)
            gather_cell(h, cx, cy, &q, stamp, &n);
    gather_bigs(h, &q, stamp, &n);
    return (int)n;
}

/* Sorts h->keys[0, n) by insertion and copies the handles to h->ids. */
static int finish_ids(sat_hash *h, size_t n, const uint32_t **out)
{
    if (RESERVE(h, ids, idcap, n + 1))
        return -1;
    int sorted = 1;
    for (size_t k = 1; k < n && sorted; k++)
        sorted = h->keys[k - 1].seq < h->keys[k].seq;
    if (!sorted)
        qsort(h->keys, n, sizeof(*h->keys), cmp_key);
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
    int n = gather_box(h, point_box(x, y, x, y), SAT_HASH_NONE);
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
    int n = gather_box(h, padded_box(s), self);
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
    int n = gather_box(h, padded_box(s), self);
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

/* Candidates along the segment: column by column, the rows the segment crosses there (a
 * little widened), so a long diagonal costs its length in cells, not its box. */
static int gather_segment(sat_hash *h, sat_vec p1, sat_vec p2)
{
    sat_aabb q = point_box(p1.x, p1.y, p2.x, p2.y);
    int64_t x0 = cell_of(q.x1, h->inv), x1 = cell_of(q.x2, h->inv);
    int64_t y0 = cell_of(q.y1, h->inv), y1 = cell_of(q.y2, h->inv);
    double cost = ((double)(x1 - x0) + 1.0) + ((double)(y1 - y0) + 1.0);
    if (cost > scan_limit(h) || range_cells(x0, y0, x1, y1) <= 4.0)
        return gather_box(h, q, SAT_HASH_NONE);
    if (RESERVE(h, keys, keycap, (size_t)h->live + 1))
        return -1;
    size_t n = 0;
    uint32_t stamp = next_stamp(h);
    double dx = p2.x - p1.x, dy = p2.y - p1.y;
    for (int64_t cx = x0; cx <= x1; cx++) {
        double xa = (double)cx * h->cell, xb = (double)(cx + 1) * h->cell;
        /* The clamped end columns hold everything beyond them, not one cell's width. */
        if (xa < q.x1 || cx <= -(int64_t)CELL_LIMIT)
            xa = q.x1;
        if (xb > q.x2 || cx >= (int64_t)CELL_LIMIT)
            xb = q.x2;
        double ya = q.y1, yb = q.y2;
        if (dx != 0.0) {
            double ta = (xa - p1.x) / dx, tb = (xb - p1.x) / dx;
            double u = p1.y + dy * ta, w = p1.y + dy * tb;
            double slack = SAT_BROAD_ROUNDING * DBL_EPSILON * (fabs(u) + fabs(w)) +
                           (q.y2 - q.y1) * SAT_BROAD_SEGMENT_SLACK;
            ya = (u < w ? u : w) - slack;
            yb = (u < w ? w : u) + slack;
            if (ya < q.y1)
                ya = q.y1;
            if (yb > q.y2)
                yb = q.y2;
        }
        int64_t ra = cell_of(ya, h->inv), rb = cell_of(yb, h->inv);
        for (int64_t cy = ra; cy <= rb; cy++)
            gather_cell(h, cx, cy, &q, stamp, &n);
    }
    gather_bigs(h, &q, stamp, &n);
    return (int)n;
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
        qsort(h->keys, (size_t)n, sizeof(*h->keys), cmp_key);
        return finish_ids(h, (size_t)n, out);
    }
    if (sat_polygon_init(h->rect, pts, 4) != SAT_OK) {
        /* Too thin to be a polygon: tested edge by edge instead. */
        int n = gather_box(h, point_box(x1, y1, x2, y2), SAT_HASH_NONE);
        if (n < 0)
            return -1;
        size_t m = 0;
        for (int k = 0; k < n; k++)
            if (meets_thin_rect(h->e[h->keys[k].handle].shape, pts))
                h->keys[m++] = h->keys[k];
        return finish_ids(h, m, out);
    }
    int n = gather_box(h, point_box(x1, y1, x2, y2), SAT_HASH_NONE);
    if (n < 0)
        return -1;
    size_t m = 0;
    for (int k = 0; k < n; k++)
        if (sat_test(h->rect, h->e[h->keys[k].handle].shape))
            h->keys[m++] = h->keys[k];
    return finish_ids(h, m, out);
}

static int accepts(const sat_shape *a, const sat_shape *b)
{
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

static int pair_push(sat_hash *h, size_t *n, uint32_t a, uint32_t b, const sat_result *r)
{
    if (RESERVE(h, pairs, paircap, *n + 1))
        return -1;
    sat_hash_pair *p = &h->pairs[(*n)++];
    p->a = a;
    p->b = b;
    p->seq_a = a == SAT_HASH_NONE ? 0 : h->e[a].seq;
    p->seq_b = h->e[b].seq;
    p->result = *r;
    return 0;
}

int sat_hash_collisions(sat_hash *h, const sat_shape *s, uint32_t self, int filter,
                        const sat_hash_pair **out)
{
    int n = gather_box(h, padded_box(s), self);
    if (n < 0)
        return -1;
    if (n > 1)
        qsort(h->keys, (size_t)n, sizeof(*h->keys), cmp_key);
    size_t m = 0;
    for (int k = 0; k < n; k++) {
        uint32_t i = h->keys[k].handle;
        const sat_shape *o = h->e[i].shape;
        sat_result r;
        if (filter && !accepts(s, o))
            continue;
        if (sat_collide(s, o, &r) && pair_push(h, &m, self, i, &r))
            return -1;
    }
    *out = h->pairs;
    return (int)m;
}

/* ---- the pair pass --------------------------------------------------------------------- */

static int cmp_pair(const void *pa, const void *pb)
{
    const sat_hash_pair *a = pa, *b = pb;
    if (a->seq_a != b->seq_a)
        return a->seq_a < b->seq_a ? -1 : 1;
    return a->seq_b < b->seq_b ? -1 : a->seq_b > b->seq_b;
}

static int consider(sat_hash *h, size_t *n, uint32_t i, uint32_t j)
{
    const hentry *a = &h->e[i], *b = &h->e[j];
    if (!box_overlap(&a->box, &b->box) || !accepts(a->shape, b->shape))
        return 0;
    if (a->seq > b->seq) {
        const hentry *t = a;
        uint32_t u = i;
        a = b, b = t;
        i = j, j = u;
    }
    sat_result r;
    if (!sat_collide(a->shape, b->shape, &r))
        return 0;
    return pair_push(h, n, i, j, &r);
}

/* Every pair of entries sharing a cell, found bucket by bucket: within a bucket, two nodes
 * of the same cell are a candidate, reported only in the first cell the two ranges share
 * (the corner of their intersection), so each pair is tested once without stamps. Big
 * entries, kept out of the cells, meet everything by box. */
int sat_hash_step(sat_hash *h, const sat_hash_pair **out)
{
    size_t n = 0;
    for (size_t bk = 0; bk < h->nbuckets; bk++) {
        uint32_t head = h->heads[bk];
        if (head == SAT_HASH_NONE || h->nodes[head].next == SAT_HASH_NONE)
            continue;
        for (uint32_t p = head; p != SAT_HASH_NONE; p = h->nodes[p].next) {
            const hnode *np = &h->nodes[p];
            for (uint32_t q = np->next; q != SAT_HASH_NONE; q = h->nodes[q].next) {
                const hnode *nq = &h->nodes[q];
                if (nq->cx != np->cx || nq->cy != np->cy)
                    continue;
                const hentry *a = &h->e[np->entry], *b = &h->e[nq->entry];
                int64_t fx = a->cx0 > b->cx0 ? a->cx0 : b->cx0;
                int64_t fy = a->cy0 > b->cy0 ? a->cy0 : b->cy0;
                if (fx == np->cx && fy == np->cy && consider(h, &n, np->entry, nq->entry))
                    return -1;
            }
        }
    }
    for (size_t q = 0; q < h->nbig; q++) {
        uint32_t i = h->bigs[q];
        for (size_t k = 0; k < h->norder; k++) {
            uint32_t j = h->order[k];
            if (j == SAT_HASH_NONE || j == i || (h->e[j].big && h->e[j].seq < h->e[i].seq))
                continue;
            if (consider(h, &n, i, j))
                return -1;
        }
    }
    int sorted = 1;
    for (size_t k = 1; k < n && sorted; k++)
        sorted = cmp_pair(&h->pairs[k - 1], &h->pairs[k]) < 0;
    if (!sorted)
        qsort(h->pairs, n, sizeof(*h->pairs), cmp_pair);
    *out = h->pairs;
    return (int)n;
}

/* ---- the swept test -------------------------------------------------------------------- *
 * Everything in a's frame (a's position at the origin), b at offset r. The motion presses
 * into b when, somewhere on the way, the pair overlaps by more than the touch tolerance;
 * only then is there a hit, at the first touch. Sliding along a surface (overlap staying
 * within the tolerance) is no hit. */

enum { SWEEP_NONE = 0, SWEEP_CONTACT = 1, SWEEP_OVERLAP = 2 };

/* Both polygons: the separating axis test over time. On each axis the interval of times
 * with more than tol of overlap; the pair presses in where all of them meet. The first
 * touch is on the axis whose gap closes last. */
static int sweep_poly_poly(const sat_shape *a, const sat_shape *b, sat_vec r, sat_vec v,
                           double tol, double *t, sat_vec *normal, sat_vec *move)
{
    double lo = -HUGE_VAL, hi = HUGE_VAL, te_best = -HUGE_VAL, vn_best = 0.0, gap_best = 0.0;
    sat_vec best = sat__v(0.0, 0.0);
    for (int side = 0; side < 2; side++) {
        const sat_shape *s = side ? b : a;
        const sat_vec *axes = sat__cnormal(s);
        for (int k = 0; k < s->count; k++) {
            sat_vec m = axes[k];
            double a0, a1, b0, b1, l, u, te, gap;
            sat__project(a, m, &a0, &a1);
            sat__project(b, m, &b0, &b1);
            double rm = sat__dot(r, m); /* b sits at r */
            b0 += rm;
            b1 += rm;
            double vn = sat__dot(v, m);
            if (vn == 0.0) {
                if (!(a1 > b0 + tol && a0 < b1 - tol))
                    return SWEEP_NONE;
                continue;
            }
            if (vn > 0.0) {
                l = (b0 + tol - a1) / vn;
                u = (b1 - tol - a0) / vn;
                gap = b0 - a1;
            } else {
                l = (b1 - tol - a0) / vn;
                u = (b0 + tol - a1) / vn;
                gap = b1 - a0;
            }
            te = gap / vn;
            if (l > lo)
                lo = l;
            if (u < hi)
                hi = u;
            if (!(lo < hi))
                return SWEEP_NONE;
            if (te > te_best || (te == te_best && fabs(vn) > fabs(vn_best))) {
                te_best = te;
                vn_best = vn;
                gap_best = gap;
                best = vn > 0.0 ? m : sat__neg(m);
            }
        }
    }
    if (!(hi > 0.0) || !(lo < 1.0))
        return SWEEP_NONE;
    if (lo < 0.0)
        return SWEEP_OVERLAP;
    *normal = best;
    if (te_best > 0.0) {
        /* v * gap / vn, multiplying first: a gap of 115 along v = (200, 0) gives 115 */
        *t = te_best;
        *move = sat__v(v.x * gap_best / vn_best, v.y * gap_best / vn_best);
    } else {
        *t = 0.0;
        *move = sat__v(0.0, 0.0);
    }
    return SWEEP_CONTACT;
}

/* A polygon at offset base: its corners, outward normals and edge supports. */
typedef struct rpoly {
    const sat_vec *off, *n;
    int count;
    sat_vec base;
    double scale;
    const sat_vec *plane;
} rpoly;

static rpoly rpoly_of(const sat_shape *s, sat_vec base)
{
    rpoly p;
    p.off = sat__coff(s);
    p.n = sat__cnormal(s);
    p.count = s->count;
    p.base = base;
    p.scale = s->scale;
    p.plane = sat__cplane(s);
    return p;
}

/* Signed distance from c to the polygon (negative inside), the closest boundary point and
 * the face whose line is farthest (the way out, or the side facing c). */
static double poly_distance(const rpoly *p, sat_vec c, sat_vec *closest, int *face)
{
    sat_vec rel = sat__sub(c, p->base);
    double maxsep = -HUGE_VAL;
    int f = 0;
    for (int k = 0; k < p->count; k++) {
        double sep = sat__dot(p->n[k], rel) - p->scale * p->plane[k].x;
        if (sep > maxsep) {
            maxsep = sep;
            f = k;
        }
    }
    *face = f;
    if (maxsep <= 0.0) {
        *closest = sat__sub(c, sat__mul(p->n[f], maxsep));
        return maxsep;
    }
    double best2 = HUGE_VAL;
    for (int k = 0; k < p->count; k++) {
        sat_vec e0 = p->off[k], e1 = p->off[(k + 1) % p->count];
        sat_vec e = sat__sub(e1, e0), d = sat__sub(rel, e0);
        double ee = sat__dot(e, e), s = ee > 0.0 ? sat__dot(d, e) / ee : 0.0;
        if (s < 0.0)
            s = 0.0;
        if (s > 1.0)
            s = 1.0;
        sat_vec q = sat__add(e0, sat__mul(e, s));
        sat_vec w = sat__sub(rel, q);
        double d2 = sat__dot(w, w);
        if (d2 < best2) {
            best2 = d2;
            *closest = sat__add(q, p->base);
        }
    }
    return sqrt(best2);
}

/* First t in [0, 1] at which the point c0 + t w is within R of the polygon (inside it by
 * -R when R < 0), or -1. */
static double poly_first_time(const rpoly *p, sat_vec c0, sat_vec w, double R)
{
    sat_vec rel = sat__sub(c0, p->base);
    if (R < 0.0) {
        double t0 = 0.0, t1 = 1.0;
        for (int k = 0; k < p->count; k++) {
            double num = p->scale * p->plane[k].x + R - sat__dot(p->n[k], rel);
            double dn = sat__dot(w, p->n[k]);
            if (dn == 0.0) {
                if (num < 0.0)
                    return -1.0;
            } else if (dn > 0.0) {
                double tt = num / dn;
                if (tt < t1)
                    t1 = tt;
            } else {
                double tt = num / dn;
                if (tt > t0)
                    t0 = tt;
            }
            if (t0 > t1)
                return -1.0;
        }
        return t0;
    }
    sat_vec q;
    int face;
    if (poly_distance(p, c0, &q, &face) <= R)
        return 0.0;
    double best = HUGE_VAL, ww = sat__dot(w, w);
    if (!(ww > 0.0))
        return -1.0;
    for (int k = 0; k < p->count; k++) {
        /* the edge pushed out by R */
        double dn = sat__dot(w, p->n[k]);
        if (dn < 0.0) {
            double tt = (p->scale * p->plane[k].x + R - sat__dot(p->n[k], rel)) / dn;
            if (tt >= 0.0 && tt < best) {
                sat_vec e0 = p->off[k], e1 = p->off[(k + 1) % p->count];
                sat_vec e = sat__sub(e1, e0);
                sat_vec at = sat__add(rel, sat__mul(w, tt));
                double s = sat__dot(sat__sub(at, e0), e), ee = sat__dot(e, e);
                if (s >= 0.0 && s <= ee)
                    best = tt;
            }
        }
        /* the corner rounded by R */
        sat_vec d = sat__sub(rel, p->off[k]);
        double B = sat__dot(d, w), C = sat__dot(d, d) - R * R;
        double disc = B * B - ww * C;
        if (B < 0.0 && disc >= 0.0) {
            double tt = C / (-B + sqrt(disc));
            if (tt >= 0.0 && tt < best)
                best = tt;
        }
    }
    return best <= 1.0 ? best : -1.0;
}

/* A circle of radius ra at c0 moving by w against a polygon. The normal points from the
 * circle toward the polygon. */
static int sweep_circle_poly(const rpoly *p, double ra, sat_vec c0, sat_vec w, double tol,
                             double *t, sat_vec *normal)
{
    sat_vec q;
    int face;
    if (poly_distance(p, c0, &q, &face) < ra - tol)
        return SWEEP_OVERLAP;
    if (poly_first_time(p, c0, w, ra - tol) < 0.0)
        return SWEEP_NONE;
    double tc = poly_first_time(p, c0, w, ra);
    if (tc < 0.0)
        tc = 0.0; /* cannot happen: pressing in implies touching first */
    sat_vec c = sat__add(c0, sat__mul(w, tc));
    poly_distance(p, c, &q, &face);
    sat_vec n = sat__normalize(sat__sub(q, c), NULL);
    if (n.x == 0.0 && n.y == 0.0)
        n = sat__neg(p->n[face]);
    *t = tc;
    *normal = n;
    return SWEEP_CONTACT;
}

/* Two circles: a at the origin moving by v, b at r. */
static int sweep_circle_circle(double R, sat_vec r, sat_vec v, double tol, double *t,
                               sat_vec *normal)
{
    double rr = sat__dot(r, r), vv = sat__dot(v, v);
    if (R - tol > 0.0 && sqrt(rr) < R - tol)
        return SWEEP_OVERLAP;
    if (!(vv > 0.0) || !(R - tol > 0.0))
        return SWEEP_NONE;
    double tm = sat__dot(r, v) / vv;
    if (tm < 0.0)
        tm = 0.0;
    if (tm > 1.0)
        tm = 1.0;
    sat_vec closest = sat__sub(r, sat__mul(v, tm));
    if (!(sqrt(sat__dot(closest, closest)) < R - tol))
        return SWEEP_NONE;
    double dist = sqrt(rr), tc;
    if (dist <= R) {
        tc = 0.0;
    } else {
        /* |r - t v| = R, the smaller root in the cancellation-free form */
        double B = -sat__dot(r, v), C = (dist - R) * (dist + R);
        double disc = B * B - vv * C;
        tc = disc > 0.0 && B < 0.0 ? C / (-B + sqrt(disc)) : tm;
    }
    sat_vec d = sat__sub(r, sat__mul(v, tc));
    sat_vec n = sat__normalize(d, NULL);
    if (n.x == 0.0 && n.y == 0.0)
        n = sat__normalize(v, NULL);
    *t = tc;
    *normal = n;
    return SWEEP_CONTACT;
}

int sat_sweep(const sat_shape *a, sat_vec v, const sat_shape *b, sat_hash_sweep_hit *hit)
{
    sat_vec r = sat__offset(a, b), zero = sat__v(0.0, 0.0), n = zero, move = zero;
    double tol = sat__touch_tol(a, b), t = 0.0;
    int rc, exact = 0;
    if (!isfinite(v.x) || !isfinite(v.y))
        return 0;
    if (a->kind == SAT_POLYGON && b->kind == SAT_POLYGON) {
        rc = sweep_poly_poly(a, b, r, v, tol, &t, &n, &move);
        exact = 1;
    } else if (a->kind == SAT_CIRCLE && b->kind == SAT_POLYGON) {
        rpoly p = rpoly_of(b, r);
        rc = sweep_circle_poly(&p, sat_circle_radius(a), zero, v, tol, &t, &n);
    } else if (a->kind == SAT_POLYGON && b->kind == SAT_CIRCLE) {
        /* b moves by -v relative to a; its normal points from b toward a */
        rpoly p = rpoly_of(a, zero);
        rc = sweep_circle_poly(&p, sat_circle_radius(b), r, sat__neg(v), tol, &t, &n);
        n = sat__neg(n);
    } else {
        rc = sweep_circle_circle(sat_circle_radius(a) + sat_circle_radius(b), r, v, tol, &t, &n);
    }
    if (rc == SWEEP_NONE)
        return 0;
    memset(hit, 0, sizeof(*hit));
    hit->dist2 = sat__dot(r, r);
    if (rc == SWEEP_OVERLAP) {
        sat_result res;
        if (!sat_collide(a, b, &res))
            return 0;
        if (res.overlap > 0.0) {
            hit->overlapping = 1;
            hit->result = res;
            return 1;
        }
        /* the core calls it touching: a contact now, if the motion presses in */
        if (!(sat__dot(v, res.normal) > 0.0))
            return 0;
        n = res.normal;
        t = 0.0;
        move = zero;
        exact = 1;
    }
    hit->t = t;
    hit->move = exact ? move : sat__v(v.x * t, v.y * t);
    hit->result.normal = n;
    return 1;
}

static int cmp_sweep(const void *pa, const void *pb)
{
    const sat_hash_sweep_hit *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->dist2 != b->dist2)
        return a->dist2 < b->dist2 ? -1 : 1;
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
    int n = gather_box(h, q, self);
    if (n < 0 || RESERVE(h, sweeps, sweepcap, (size_t)n + 1))
        return -1;
    size_t m = 0;
    for (int k = 0; k < n; k++) {
        uint32_t i = h->keys[k].handle;
        const sat_shape *o = h->e[i].shape;
        if (filter && !accepts(s, o))
            continue;
        if (sat_sweep(s, v, o, &h->sweeps[m])) {
            h->sweeps[m].handle = i;
            h->sweeps[m].seq = h->e[i].seq;
            m++;
        }
    }
    qsort(h->sweeps, m, sizeof(*h->sweeps), cmp_sweep);
    *out = h->sweeps;
    return (int)m;
}
