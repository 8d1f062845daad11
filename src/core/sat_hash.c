/*
 * sat_hash.c - the spatial hash broad phase (see sat_hash.h).
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "sat_hash.h"
#include "sat_internal.h"

/* Query ranges are clamped to this many cells: far beyond any world, and small enough that
 * a range's width never overflows. An entry never comes near it (see place()). */
#define CELL_LIMIT 1125899906842624.0 /* 2^50 */
/* Above any level a shape the core takes can need (sizes from 1e-100 to 1e150 span 2^830). */
#define MAX_LEVEL 1100
/* A step passes over every bucket instead of querying each changed entry's neighbourhood
 * when more than 1 / SAT_HASH_BUCKET_PASS of the entries changed (bench/level.lua and
 * bench/world.lua find where the two cost the same). */
#define SAT_HASH_BUCKET_PASS 2

/* E_DIRTY and E_CHANGED: in h->dirty, in h->changed (a removed entry's slot stays listed,
 * and keeps the flag, until the list is next read); E_DONE: the step pass tested its pairs;
 * E_MARK: step scratch, in contact with the entry under test. */
enum { E_STATIC = 1, E_DIRTY = 2, E_CHANGED = 4, E_FILED = 8, E_DONE = 16, E_MARK = 32 };
enum { C_LIVE = 1, C_PENDING = 2, C_ADDED = 4, C_UPDATED = 8 };

/* A hash's record in a shape's list (sat_shape.members, sat_internal.h): the core walks
 * the list on every change of the shape. Records live in chunks of MEMBER_CHUNK that never
 * move (the list points into them), the record of handle i at i's place; a record finds its
 * chunk, and so its hash and handle, from its index in it. */
typedef struct hmember {
    struct sat_member base; /* first: the list holds &base */
    uint32_t index;         /* in its chunk */
} hmember;

#define MEMBER_CHUNK_BITS 8
#define MEMBER_CHUNK (1u << MEMBER_CHUNK_BITS)

typedef struct hchunk {
    sat_hash *hash;
    uint32_t first; /* the handle of m[0] */
    hmember m[MEMBER_CHUNK];
} hchunk;

typedef struct hentry {
    const sat_shape *shape; /* NULL: a free slot */
    uint64_t seq;           /* insertion number, from 1 */
    sat_aabb box;           /* padded bounding box, as filed (its first cell: entry_cell) */
    uint32_t stamp;         /* the last query that met it */
    uint32_t contacts;      /* its first contact (a list through hcontact.next); a free
                               slot: none (a step walks the lists of the slots listed in
                               h->changed, free ones too) */
    uint32_t lpos;          /* index in its level's list; a free slot: the next free one */
    uint16_t level;
    uint8_t span;           /* 1: it covers a second column, 2: a second row */
    uint8_t flags;
} hentry;

/* An entry filed in a cell: which entry, and which of its (up to) four cells, k (bit 0: its
 * second column, bit 1: its second row), as entry * 4 + k; the cell is the entry's. A bucket
 * mixes cells and levels: tag, the high half of the cell's hash (the bucket is from the low
 * bits), tells most other cells apart without reading their entries. */
typedef struct hnode {
    uint32_t ek, next, tag;
} hnode;

#define NODE_ENTRY(ek) ((ek) >> 2)
#define NODE_K(ek) ((ek) & 3u)

typedef struct hlevel {
    double inv;      /* 1 / its cell side */
    uint32_t *ents;  /* the entries filed here, in no order */
    size_t cap;
    uint32_t count;
} hlevel;

/* A contact lives in two lists: its a's ([0]) and its b's ([1]). */
typedef struct hcontact {
    sat_hash_contact pub;
    uint32_t next[2], prev[2];
    uint32_t flags;
} hcontact;

typedef struct hkey {
    uint64_t seq;
    uint32_t handle;
} hkey;

typedef struct ckey {
    uint64_t sa, sb;
    uint32_t id;
} ckey;

struct sat_hash {
    double cell, inv;
    hentry *e;
    size_t ecap, eused; /* slots allocated, slots ever used */
    uint32_t live;
    uint32_t free_head; /* the free slots, a list through hentry.lpos */
    size_t nfree;
    uint32_t *order; /* handles in insertion order; ndead of them stale (removed, their slot
                        maybe reused by a later entry, which is listed after) */
    size_t norder, ordercap, ndead;
    uint32_t *dirty; /* entries changed since filed; capacity kept >= eused */
    size_t ndirty, dirtycap;
    uint32_t *changed; /* entries changed since the last step; capacity kept >= eused */
    size_t nchanged, changedcap;
    hchunk **chunks; /* the shapes' records, MEMBER_CHUNK a chunk */
    size_t nchunks, chunkcap;
    hlevel *lv; /* levels 0 .. nlv - 1 */
    size_t nlv;
    uint16_t *used; /* the levels holding entries, ascending */
    size_t nused, usedcap;
    uint32_t *heads; /* bucket chains */
    size_t nbuckets; /* a power of two */
    hnode *nodes;
    size_t nodecap, nodeused, nodelive;
    uint32_t nodefree; /* free list through next */
    size_t nnodefree;
    hcontact *c;
    size_t ccap, cused, clive, ncfree;
    uint32_t cfree; /* free list through next[0] */
    uint32_t stamp;
    uint64_t next_seq;
    /* result buffers */
    hkey *keys; /* a gather's candidates, grown as it finds them */
    size_t keycap;
    int keys_oom; /* the gather under way could not grow keys */
    uint32_t *ids;
    size_t idcap;
    uint32_t *ended, *added, *updated, *dropped;
    size_t endedcap, addedcap, updatedcap, droppedcap;
    ckey *ckeys;
    size_t ckeycap;
    sat_hash_pair *pairs;
    size_t paircap;
    sat_hash_hit *hits;
    size_t hitcap;
    sat_hash_sweep_hit *sweeps;
    size_t sweepcap;
    sat_hash_cell *cells;
    size_t cellcap;
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

/* The hash of cell (x, y) of the level: its low bits pick the bucket, its high half is the
 * nodes' tag. */
static uint64_t cell_hash(uint32_t level, int64_t x, int64_t y)
{
    uint64_t k = (uint64_t)x * 0x9E3779B97F4A7C15u ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Fu ^
                 (uint64_t)level * 0x165667B19E3779F9u;
    k ^= k >> 31;
    k *= 0xBF58476D1CE4E5B9u;
    k ^= k >> 29;
    return k;
}

static size_t bucket_of(const sat_hash *h, uint64_t k)
{
    return (size_t)(k & (h->nbuckets - 1));
}

static int64_t cell_of(double v, double inv);

/* The first cell (column cx, row cy) of a filed entry, at its level: where its box, as
 * filed, begins (place() found it so; a box moved within its cells begins in the same). */
static void entry_cell(const sat_hash *h, const hentry *e, int64_t *cx, int64_t *cy)
{
    double inv = h->lv[e->level].inv;
    *cx = cell_of(e->box.x1, inv);
    *cy = cell_of(e->box.y1, inv);
}

/* Whether node ek (with the cell's tag) is in cell (x, y) of the level. */
static int node_in(const sat_hash *h, uint32_t ek, uint32_t level, int64_t x, int64_t y)
{
    const hentry *e = &h->e[NODE_ENTRY(ek)];
    if (e->level != level)
        return 0;
    int64_t cx, cy;
    entry_cell(h, e, &cx, &cy);
    return cx + (int64_t)(ek & 1u) == x && cy + (int64_t)(ek >> 1 & 1u) == y;
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

static int accepts(const sat_shape *a, const sat_shape *b)
{
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

/* The next value of a per-entry counter (the query stamp, the step's pass and mark); when
 * it wraps, every entry's copy is reset so that no old value matches a new one. */
static uint32_t next_count(sat_hash *h, uint32_t *counter, size_t field)
{
    if (++*counter == 0) {
        for (size_t i = 0; i < h->eused; i++)
            *(uint32_t *)(void *)((char *)&h->e[i] + field) = 0;
        *counter = 1;
    }
    return *counter;
}

#define NEXT_COUNT(h, counter, field) next_count((h), &(h)->counter, offsetof(hentry, field))

/* ---- the shapes' records: change tracking ---------------------------------------------- */

/* Sets the entry's flag and appends it to the list (which has room for every slot);
 * nothing when the flag is set already (it is listed). */
static void mark(sat_hash *h, uint32_t i, uint8_t flag, uint32_t *list, size_t *n)
{
    hentry *e = &h->e[i];
    if (!(e->flags & flag)) {
        e->flags |= flag;
        list[(*n)++] = i;
    }
}

static void mark_changed(sat_hash *h, uint32_t i)
{
    mark(h, i, E_CHANGED, h->changed, &h->nchanged);
}

static void mark_dirty(sat_hash *h, uint32_t i)
{
    mark(h, i, E_DIRTY, h->dirty, &h->ndirty);
}

static hmember *member_of(const sat_hash *h, uint32_t i)
{
    return &h->chunks[i >> MEMBER_CHUNK_BITS]->m[i & (MEMBER_CHUNK - 1)];
}

static const hchunk *chunk_of(const hmember *hm)
{
    const hmember *m0 = hm - hm->index;
    return (const hchunk *)(const void *)((const char *)m0 - offsetof(hchunk, m));
}

/* Called by the core on every change of a shape in this hash (sat_internal.h). The lists
 * have room for every entry, so this never allocates. */
static void member_changed(struct sat_member *m)
{
    const hmember *hm = (const hmember *)(const void *)m;
    const hchunk *c = chunk_of(hm);
    mark_dirty(c->hash, c->first + hm->index);
}

static void member_unlink(hmember *hm)
{
    struct sat_member *m = &hm->base;
    *m->link = m->next;
    if (m->next)
        m->next->link = m->link;
}

/* ---- levels, nodes and cells ----------------------------------------------------------- */

/* Level k exists and has room for one more entry; 0, or -1 when out of memory. */
static int reserve_level(sat_hash *h, int k)
{
    if ((size_t)k >= h->nlv) {
        size_t n = (size_t)k + 1;
        hlevel *lv = realloc(h->lv, n * sizeof(*lv));
        if (!lv)
            return -1;
        for (size_t i = h->nlv; i < n; i++) {
            lv[i].inv = ldexp(h->inv, -(int)i);
            lv[i].ents = NULL;
            lv[i].cap = 0;
            lv[i].count = 0;
        }
        h->lv = lv;
        h->nlv = n;
    }
    hlevel *L = &h->lv[k];
    if (reserve((void **)&L->ents, &L->cap, (size_t)L->count + 1, sizeof(*L->ents)))
        return -1;
    return L->count == 0 ? RESERVE(h, used, usedcap, h->nused + 1) : 0;
}

static void level_add(sat_hash *h, uint32_t i, int k)
{
    hlevel *L = &h->lv[k];
    if (L->count == 0) {
        size_t u = h->nused;
        while (u > 0 && h->used[u - 1] > k) {
            h->used[u] = h->used[u - 1];
            u--;
        }
        h->used[u] = (uint16_t)k;
        h->nused++;
    }
    h->e[i].lpos = L->count;
    L->ents[L->count++] = i;
}

static void level_remove(sat_hash *h, uint32_t i)
{
    hentry *e = &h->e[i];
    hlevel *L = &h->lv[e->level];
    uint32_t last = L->ents[--L->count];
    L->ents[e->lpos] = last;
    h->e[last].lpos = e->lpos;
    if (L->count == 0) {
        size_t u = 0;
        while (h->used[u] != e->level)
            u++;
        memmove(&h->used[u], &h->used[u + 1], (h->nused - u - 1) * sizeof(*h->used));
        h->nused--;
    }
}

static int reserve_nodes(sat_hash *h, size_t count)
{
    size_t avail = h->nnodefree + (h->nodecap - h->nodeused);
    if (avail >= count)
        return 0;
    return RESERVE(h, nodes, nodecap, h->nodeused + (count - h->nnodefree));
}

/* Needs a reserved node. */
static void cell_add(sat_hash *h, uint32_t level, int64_t cx, int64_t cy, uint32_t ek)
{
    uint32_t id;
    if (h->nnodefree) {
        id = h->nodefree;
        h->nodefree = h->nodes[id].next;
        h->nnodefree--;
    } else {
        id = (uint32_t)h->nodeused++;
    }
    uint64_t hk = cell_hash(level, cx, cy);
    size_t b = bucket_of(h, hk);
    hnode *nd = &h->nodes[id];
    nd->ek = ek;
    nd->tag = (uint32_t)(hk >> 32);
    nd->next = h->heads[b];
    h->heads[b] = id;
    h->nodelive++;
}

static void cell_remove(sat_hash *h, uint32_t level, int64_t cx, int64_t cy, uint32_t ek)
{
    uint32_t *link = &h->heads[bucket_of(h, cell_hash(level, cx, cy))];
    while (*link != SAT_HASH_NONE) {
        uint32_t id = *link;
        const hnode *nd = &h->nodes[id];
        if (nd->ek == ek) {
            *link = nd->next;
            h->nodes[id].next = h->nodefree;
            h->nodefree = id;
            h->nnodefree++;
            h->nodelive--;
            return;
        }
        link = &h->nodes[id].next;
    }
}

/* The entry's cells, added (add != 0) or removed. */
static void entry_cells(sat_hash *h, uint32_t i, int add)
{
    const hentry *e = &h->e[i];
    int64_t cx0, cy0;
    entry_cell(h, e, &cx0, &cy0);
    for (int k = 0; k < 4; k++) {
        if ((k & ~e->span) != 0)
            continue; /* a second column or row it does not cover */
        int64_t cx = cx0 + (k & 1), cy = cy0 + (k >> 1);
        uint32_t ek = i << 2 | (uint32_t)k;
        if (add)
            cell_add(h, e->level, cx, cy, ek);
        else
            cell_remove(h, e->level, cx, cy, ek);
    }
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
        if (h->e[i].shape && (h->e[i].flags & E_FILED))
            entry_cells(h, (uint32_t)i, 1);
}

/* ---- filing entries -------------------------------------------------------------------- */

typedef struct placement {
    sat_aabb box;
    int64_t cx, cy;
    int level, span;
} placement;

/* The lowest level where a box w wide could cover at most 2 cells a side: 2^(k+1) cells
 * of level 0 are wider than it. */
static int start_level(double w, double inv)
{
    double r = w * inv;
    if (!(r >= 2.0))
        return 0;
    int ex;
    frexp(r, &ex); /* r < 2^ex */
    return ex - 1 < MAX_LEVEL ? ex - 1 : MAX_LEVEL;
}

static double level_inv(const sat_hash *h, int k)
{
    return (size_t)k < h->nlv ? h->lv[k].inv : ldexp(h->inv, -k);
}

/* Where s goes: the lowest level at which its padded box covers at most 2 x 2 cells. From
 * start_level, rounding can add a cell a side, never more, so this tries two levels at
 * most. The box is at least 16 ulps of its distance from the origin wide (padded_box), so
 * at that level its cell coordinates stay below 2^50 (CELL_LIMIT): far shapes rise to
 * coarser levels instead of sharing a clamped cell. */
static void place(const sat_hash *h, const sat_shape *s, placement *p)
{
    p->box = padded_box(s);
    double wx = p->box.x2 - p->box.x1, wy = p->box.y2 - p->box.y1;
    double w = wx > wy ? wx : wy;
    for (int k = start_level(w, h->inv);; k++) {
        double inv = level_inv(h, k);
        int64_t x0 = cell_of(p->box.x1, inv), x1 = cell_of(p->box.x2, inv);
        int64_t y0 = cell_of(p->box.y1, inv), y1 = cell_of(p->box.y2, inv);
        if ((x1 - x0 <= 1 && y1 - y0 <= 1) || k >= MAX_LEVEL) {
            p->level = k;
            p->cx = x0;
            p->cy = y0;
            p->span = (x1 > x0 ? 1 : 0) | (y1 > y0 ? 2 : 0);
            return;
        }
    }
}

/* Files entry i at p; needs reserve_filing(h, p). */
static void file_entry(sat_hash *h, uint32_t i, const placement *p)
{
    hentry *e = &h->e[i];
    e->box = p->box;
    e->level = (uint16_t)p->level;
    e->span = (uint8_t)p->span;
    e->flags |= E_FILED;
    level_add(h, i, p->level);
    entry_cells(h, i, 1);
}

static void unfile_entry(sat_hash *h, uint32_t i)
{
    entry_cells(h, i, 0);
    level_remove(h, i);
    h->e[i].flags &= ~E_FILED;
}

static int reserve_filing(sat_hash *h, const placement *p)
{
    return reserve_nodes(h, 4) || reserve_level(h, p->level) ? -1 : 0;
}

int sat_hash_sync(sat_hash *h)
{
    int rc = 0;
    while (h->ndirty) {
        uint32_t i = h->dirty[h->ndirty - 1];
        hentry *e = &h->e[i];
        placement p;
        if (!e->shape) { /* removed since: its slot is free */
            h->ndirty--;
            e->flags &= (uint8_t)~E_DIRTY;
            continue;
        }
        place(h, e->shape, &p);
        int64_t cx = 0, cy = 0;
        if ((e->flags & E_FILED) && p.level == e->level && p.span == e->span)
            entry_cell(h, e, &cx, &cy);
        if ((e->flags & E_FILED) && p.level == e->level && p.span == e->span && p.cx == cx &&
            p.cy == cy) {
            e->box = p.box; /* moved inside its cells: no hash work */
        } else if (reserve_filing(h, &p)) {
            rc = -1;
            break;
        } else {
            if (e->flags & E_FILED)
                unfile_entry(h, i);
            file_entry(h, i, &p);
        }
        h->ndirty--;
        e->flags &= (uint8_t)~E_DIRTY;
        mark_changed(h, i);
    }
    maybe_grow_buckets(h);
    return rc;
}

/* ---- contacts -------------------------------------------------------------------------- */

/* Which of c's two lists is entry i's. */
static int side(const hcontact *c, uint32_t i)
{
    return c->pub.a == i ? 0 : 1;
}

static uint32_t contact_next(const sat_hash *h, uint32_t k, uint32_t i)
{
    const hcontact *c = &h->c[k];
    return c->next[side(c, i)];
}

static int reserve_contacts(sat_hash *h, size_t more)
{
    if (h->ncfree + (h->ccap - h->cused) >= more)
        return 0;
    return RESERVE(h, c, ccap, h->cused + (more - h->ncfree));
}

/* A new contact (a inserted before b), at the head of both lists; needs a reserved slot. */
static void contact_new(sat_hash *h, uint32_t a, uint32_t b, const sat_result *r)
{
    uint32_t k;
    if (h->ncfree) {
        k = h->cfree;
        h->cfree = h->c[k].next[0];
        h->ncfree--;
    } else {
        k = (uint32_t)h->cused++;
    }
    hcontact *c = &h->c[k];
    c->pub.a = a;
    c->pub.b = b;
    c->pub.result = *r;
    c->flags = C_LIVE | C_ADDED;
    for (int s = 0; s < 2; s++) {
        uint32_t i = s ? b : a, head = h->e[i].contacts;
        c->next[s] = head;
        c->prev[s] = SAT_HASH_NONE;
        if (head != SAT_HASH_NONE)
            h->c[head].prev[side(&h->c[head], i)] = k;
        h->e[i].contacts = k;
    }
    h->clive++;
}

static void contact_free(sat_hash *h, uint32_t k)
{
    hcontact *c = &h->c[k];
    for (int s = 0; s < 2; s++) {
        uint32_t i = s ? c->pub.b : c->pub.a, nx = c->next[s], pv = c->prev[s];
        if (pv != SAT_HASH_NONE)
            h->c[pv].next[side(&h->c[pv], i)] = nx;
        else
            h->e[i].contacts = nx;
        if (nx != SAT_HASH_NONE)
            h->c[nx].prev[side(&h->c[nx], i)] = pv;
    }
    c->flags = 0;
    c->next[0] = h->cfree;
    h->cfree = k;
    h->ncfree++;
    h->clive--;
}

/* ---- lifetime -------------------------------------------------------------------------- */

sat_hash *sat_hash_new(double cell_size)
{
    if (!(cell_size >= SAT_HASH_MIN_CELL && cell_size <= SAT_HASH_MAX_CELL))
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
    h->cfree = SAT_HASH_NONE;
    h->free_head = SAT_HASH_NONE;
    h->next_seq = 1;
    return h;
}

void sat_hash_free(sat_hash *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->eused; i++)
        if (h->e[i].shape)
            member_unlink(member_of(h, (uint32_t)i));
    for (size_t k = 0; k < h->nchunks; k++)
        free(h->chunks[k]);
    free(h->chunks);
    for (size_t k = 0; k < h->nlv; k++)
        free(h->lv[k].ents);
    free(h->lv);
    free(h->e);
    free(h->order);
    free(h->dirty);
    free(h->changed);
    free(h->used);
    free(h->heads);
    free(h->nodes);
    free(h->c);
    free(h->keys);
    free(h->ids);
    free(h->ended);
    free(h->added);
    free(h->updated);
    free(h->dropped);
    free(h->ckeys);
    free(h->pairs);
    free(h->hits);
    free(h->sweeps);
    free(h->cells);
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

/* Drops the stale handles from h->order: a live entry is listed last where it was inserted,
 * so walking back, the first time a live handle is met is its own listing (E_MARK, which no
 * step is using, marks it met). */
static void compact_order(sat_hash *h)
{
    size_t k = h->norder;
    for (size_t j = h->norder; j-- > 0;) {
        uint32_t i = h->order[j];
        hentry *e = &h->e[i];
        if (!e->shape || (e->flags & E_MARK))
            continue;
        e->flags |= E_MARK;
        h->order[--k] = i; /* (k > j: that place was read already) */
    }
    h->norder -= k;
    memmove(h->order, h->order + k, h->norder * sizeof(*h->order));
    for (size_t j = 0; j < h->norder; j++)
        h->e[h->order[j]].flags &= (uint8_t)~E_MARK;
    h->ndead = 0;
}

int sat_hash_reserve(sat_hash *h, uint32_t *handle)
{
    if (h->live >= 0x3ffffff0u) /* (a node holds a handle times four) */
        return -1;
    size_t slots = h->nfree ? h->eused : h->eused + 1;
    if (RESERVE(h, e, ecap, slots) || RESERVE(h, order, ordercap, h->norder + 1) ||
        RESERVE(h, dirty, dirtycap, slots) || RESERVE(h, changed, changedcap, slots))
        return -1;
    size_t nchunks = (slots + MEMBER_CHUNK - 1) >> MEMBER_CHUNK_BITS;
    if (nchunks > h->nchunks) {
        if (RESERVE(h, chunks, chunkcap, nchunks))
            return -1;
        hchunk *c = malloc(sizeof(*c));
        if (!c)
            return -1;
        c->hash = h;
        c->first = (uint32_t)(h->nchunks << MEMBER_CHUNK_BITS);
        for (uint32_t k = 0; k < MEMBER_CHUNK; k++)
            c->m[k].index = k;
        h->chunks[h->nchunks++] = c;
    }
    *handle = h->nfree ? h->free_head : (uint32_t)h->eused;
    return 0;
}

/* The entry is filed by the next sync, like any changed shape: so inserting needs no room
 * in the cells, and cannot fail once reserved. */
int sat_hash_insert(sat_hash *h, sat_shape *s, unsigned flags, uint32_t *handle)
{
    uint32_t i;
    if (sat_hash_reserve(h, &i))
        return -1;
    hentry *e = &h->e[i];
    /* a slot still listed in h->dirty or h->changed stays so (and keeps the flag) */
    uint8_t listed = 0;
    if (h->nfree) {
        h->nfree--;
        h->free_head = e->lpos;
        listed = e->flags & (E_DIRTY | E_CHANGED);
    } else {
        h->eused++;
    }
    memset(e, 0, sizeof(*e));
    e->shape = s;
    e->seq = h->next_seq++;
    e->contacts = SAT_HASH_NONE;
    e->flags = (uint8_t)(((flags & SAT_HASH_STATIC) ? E_STATIC : 0) | listed);
    h->order[h->norder++] = i;
    h->live++;
    hmember *hm = member_of(h, i);
    struct sat_member *m = &hm->base;
    m->changed = member_changed;
    m->next = s->members;
    m->link = &s->members;
    if (m->next)
        m->next->link = &m->next;
    s->members = m;
    mark_dirty(h, i);
    *handle = i;
    return 0;
}

int sat_hash_remove(sat_hash *h, uint32_t i, const uint32_t **dropped)
{
    hentry *e = &h->e[i];
    int n = 0;
    while (e->contacts != SAT_HASH_NONE) {
        uint32_t k = e->contacts;
        if (!(h->c[k].flags & C_ADDED))
            h->dropped[n++] = k; /* (an added contact no step has told of yet is no one's) */
        contact_free(h, k);
    }
    if (e->flags & E_FILED)
        unfile_entry(h, i);
    member_unlink(member_of(h, i));
    h->ndead++; /* (its listing in h->order is stale) */
    e->shape = NULL;
    e->seq = 0;
    e->flags &= E_DIRTY | E_CHANGED; /* listed still: the lists skip a free slot */
    e->lpos = h->free_head;
    h->free_head = i;
    h->nfree++;
    h->live--;
    if (h->ndead > 32 && h->ndead > h->live)
        compact_order(h);
    *dropped = h->dropped;
    return n;
}

uint32_t sat_hash_find(const sat_hash *h, const sat_shape *s)
{
    for (const struct sat_member *m = s->members; m; m = m->next) {
        if (m->changed == member_changed) {
            const hmember *hm = (const hmember *)(const void *)m;
            const hchunk *c = chunk_of(hm);
            if (c->hash == h)
                return c->first + hm->index;
        }
    }
    return SAT_HASH_NONE;
}

int sat_hash_valid(const sat_hash *h, uint32_t handle)
{
    return handle < h->eused && h->e[handle].shape != NULL;
}

const sat_shape *sat_hash_shape(const sat_hash *h, uint32_t handle)
{
    return h->e[handle].shape;
}

uint64_t sat_hash_seq(const sat_hash *h, uint32_t handle)
{
    return h->e[handle].seq;
}

int sat_hash_is_static(const sat_hash *h, uint32_t handle)
{
    return (h->e[handle].flags & E_STATIC) != 0;
}

int sat_hash_cells_of(const sat_hash *h, uint32_t handle, int *level, int64_t *x0, int64_t *y0,
                      int64_t *x1, int64_t *y1)
{
    const hentry *e = &h->e[handle];
    if (!(e->flags & E_FILED))
        return 0;
    *level = e->level;
    entry_cell(h, e, x0, y0);
    *x1 = *x0 + (e->span & 1), *y1 = *y0 + (e->span >> 1);
    return 1;
}

int sat_hash_levels(const sat_hash *h, const uint16_t **out)
{
    *out = h->used;
    return (int)h->nused;
}

static int cmp_cell(const void *pa, const void *pb)
{
    const sat_hash_cell *a = pa, *b = pb;
    if (a->cy != b->cy)
        return a->cy < b->cy ? -1 : 1;
    return a->cx < b->cx ? -1 : a->cx > b->cx;
}

int sat_hash_cells(sat_hash *h, int level, const sat_hash_cell **out)
{
    if (sat_hash_sync(h) || RESERVE(h, cells, cellcap, 1))
        return -1;
    *out = h->cells;
    if (level < 0 || (size_t)level >= h->nlv || h->lv[level].count == 0)
        return 0;
    const hlevel *L = &h->lv[level];
    if (RESERVE(h, cells, cellcap, 4 * (size_t)L->count))
        return -1;
    size_t n = 0;
    for (uint32_t j = 0; j < L->count; j++) {
        const hentry *e = &h->e[L->ents[j]];
        for (int k = 0; k < 4; k++) {
            if ((k & ~e->span) != 0)
                continue;
            int64_t cx, cy;
            entry_cell(h, e, &cx, &cy);
            h->cells[n].cx = cx + (k & 1);
            h->cells[n].cy = cy + (k >> 1);
            h->cells[n].count = 1;
            n++;
        }
    }
    qsort(h->cells, n, sizeof(*h->cells), cmp_cell);
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        if (m > 0 && cmp_cell(&h->cells[m - 1], &h->cells[j]) == 0)
            h->cells[m - 1].count++;
        else
            h->cells[m++] = h->cells[j];
    }
    *out = h->cells;
    return (int)m;
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

/* Scanning a level's entries costs about what visiting this many cells costs. */
static double scan_limit(const hlevel *L)
{
    return 2.0 * (double)L->count + 16.0;
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

static void gather_box_level(sat_hash *h, uint32_t level, const sat_aabb *q, uint32_t stamp,
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
static int gather_box(sat_hash *h, sat_aabb q, uint32_t self)
{
    uint32_t stamp;
    if (gather_begin(h, self, &stamp))
        return -1;
    size_t n = 0;
    for (size_t u = 0; u < h->nused; u++)
        gather_box_level(h, h->used[u], &q, stamp, &n);
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
        gather_box_level(h, level, q, stamp, n);
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
    int n = gather_box(h, point_box(x1, y1, x2, y2), SAT_HASH_NONE);
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
    if (self != SAT_HASH_NONE && (h->e[self].flags & h->e[i].flags & E_STATIC))
        return 1;
    return filter && !accepts(s, h->e[i].shape);
}

int sat_hash_collisions(sat_hash *h, const sat_shape *s, uint32_t self, int filter,
                        const sat_hash_pair **out)
{
    int n = gather_box(h, padded_box(s), self);
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

/* ---- the step -------------------------------------------------------------------------- */

static uint32_t find_contact(const sat_hash *h, uint32_t i, uint32_t j);

/* Sets (on != 0) or clears E_MARK on every entry in contact with i. */
static void mark_partners(sat_hash *h, uint32_t i, int on)
{
    for (uint32_t k = h->e[i].contacts; k != SAT_HASH_NONE; k = contact_next(h, k, i)) {
        const hcontact *c = &h->c[k];
        hentry *o = &h->e[c->pub.a == i ? c->pub.b : c->pub.a];
        o->flags = (uint8_t)(on ? o->flags | E_MARK : o->flags & ~E_MARK);
    }
}

/* Tests the pairs of changed entry i with its neighbours, except those with an entry this
 * pass already tested (E_DONE): a contact found again (E_MARK) is updated, a new one added. */
static int test_changed(sat_hash *h, uint32_t i)
{
    if (!h->e[i].shape)
        return 0; /* removed since it changed: its slot is free */
    mark_partners(h, i, 1);
    int n = gather_box(h, h->e[i].box, i);
    if (n < 0 || reserve_contacts(h, (size_t)n)) {
        mark_partners(h, i, 0);
        return -1;
    }
    const hentry *e = &h->e[i];
    for (int j = 0; j < n; j++) {
        uint32_t o = h->keys[j].handle;
        const hentry *eo = &h->e[o];
        if ((eo->flags & E_DONE) || (e->flags & eo->flags & E_STATIC) ||
            !accepts(e->shape, eo->shape))
            continue;
        uint32_t a = i, b = o;
        if (eo->seq < e->seq)
            a = o, b = i;
        sat_result r;
        if (!sat_collide(h->e[a].shape, h->e[b].shape, &r))
            continue;
        if (eo->flags & E_MARK) {
            hcontact *c = &h->c[find_contact(h, i, o)];
            c->pub.result = r;
            c->flags = (c->flags & ~(uint32_t)C_PENDING) | C_UPDATED;
        } else {
            contact_new(h, a, b, &r);
        }
    }
    mark_partners(h, i, 0);
    h->e[i].flags |= E_DONE;
    return 0;
}

static int cmp_ckey(const void *pa, const void *pb)
{
    const ckey *a = pa, *b = pb;
    if (a->sa != b->sa)
        return a->sa < b->sa ? -1 : 1;
    return a->sb < b->sb ? -1 : a->sb > b->sb;
}

/* Sorts ids[0, n) into pair order. */
static int sort_contacts(sat_hash *h, uint32_t *ids, size_t n)
{
    if (n < 2)
        return 0;
    if (RESERVE(h, ckeys, ckeycap, n))
        return -1;
    for (size_t k = 0; k < n; k++) {
        const hcontact *c = &h->c[ids[k]];
        h->ckeys[k].sa = h->e[c->pub.a].seq;
        h->ckeys[k].sb = h->e[c->pub.b].seq;
        h->ckeys[k].id = ids[k];
    }
    qsort(h->ckeys, n, sizeof(*h->ckeys), cmp_ckey);
    for (size_t k = 0; k < n; k++)
        ids[k] = h->ckeys[k].id;
    return 0;
}

/* Sorts each contact of the changed entries into the lists of the delta by its flags: one
 * not found again ends, one added or updated is told; then no entry is changed. */
static int finish_step(sat_hash *h, sat_hash_delta *out)
{
    size_t need = h->clive + 1;
    if (RESERVE(h, ended, endedcap, need) || RESERVE(h, added, addedcap, need) ||
        RESERVE(h, updated, updatedcap, need) || RESERVE(h, ckeys, ckeycap, need) ||
        RESERVE(h, dropped, droppedcap, need))
        return -1;
    size_t ne = 0, na = 0, nu = 0;
    for (size_t q = 0; q < h->nchanged; q++) {
        uint32_t i = h->changed[q];
        uint32_t k = h->e[i].contacts;
        while (k != SAT_HASH_NONE) {
            hcontact *c = &h->c[k];
            uint32_t next = c->next[side(c, i)];
            if (c->flags & C_PENDING) {
                if (!(c->flags & C_ADDED))
                    h->ended[ne++] = k;
                contact_free(h, k);
            } else if (c->flags & C_ADDED) {
                h->added[na++] = k;
                c->flags = C_LIVE;
            } else if (c->flags & C_UPDATED) {
                h->updated[nu++] = k;
                c->flags = C_LIVE;
            }
            k = next;
        }
        h->e[i].flags &= (uint8_t)~(E_CHANGED | E_DONE);
    }
    h->nchanged = 0;
    sort_contacts(h, h->added, na); /* (room reserved above: cannot fail) */
    out->ended = h->ended;
    out->added = h->added;
    out->updated = h->updated;
    out->nended = (int)ne;
    out->nadded = (int)na;
    out->nupdated = (int)nu;
    return 0;
}

/* The contact of entries i and j, or SAT_HASH_NONE: their two lists walked side by side,
 * so that the search costs at most twice the shorter. */
static uint32_t find_contact(const sat_hash *h, uint32_t i, uint32_t j)
{
    uint32_t ki = h->e[i].contacts, kj = h->e[j].contacts;
    while (ki != SAT_HASH_NONE && kj != SAT_HASH_NONE) {
        const hcontact *c = &h->c[ki];
        if (c->pub.a == j || c->pub.b == j)
            return ki;
        c = &h->c[kj];
        if (c->pub.a == i || c->pub.b == i)
            return kj;
        ki = contact_next(h, ki, i);
        kj = contact_next(h, kj, j);
    }
    return SAT_HASH_NONE;
}

/* The bucket pass's test of a candidate pair: only a pair with a changed entry is tested
 * (an unchanged pair keeps its contact as it is). */
static int consider(sat_hash *h, uint32_t i, uint32_t j)
{
    const hentry *a = &h->e[i], *b = &h->e[j];
    if (!((a->flags | b->flags) & E_CHANGED) || (a->flags & b->flags & E_STATIC) ||
        !box_overlap(&a->box, &b->box) || !accepts(a->shape, b->shape))
        return 0;
    if (b->seq < a->seq) {
        uint32_t t = i;
        i = j, j = t;
    }
    sat_result r;
    if (!sat_collide(h->e[i].shape, h->e[j].shape, &r))
        return 0;
    uint32_t k = find_contact(h, i, j);
    if (k != SAT_HASH_NONE) {
        hcontact *c = &h->c[k];
        c->pub.result = r;
        c->flags = (c->flags & ~(uint32_t)C_PENDING) | C_UPDATED;
        return 0;
    }
    if (reserve_contacts(h, 1))
        return -1;
    contact_new(h, i, j, &r);
    return 0;
}

/* Every candidate pair, found bucket by bucket as the pair pass before the contacts were
 * kept found them: within a bucket, two nodes of the same cell (and level) are a candidate,
 * taken only in the first cell the two ranges share, so each pair is met once without
 * stamps. Pairs across levels: each entry gathers the levels above its own. Cheaper than a
 * query per changed entry when most entries changed. */
static int step_buckets(sat_hash *h)
{
    for (size_t bk = 0; bk < h->nbuckets; bk++) {
        uint32_t head = h->heads[bk];
        if (head == SAT_HASH_NONE || h->nodes[head].next == SAT_HASH_NONE)
            continue;
        for (uint32_t p = head; p != SAT_HASH_NONE; p = h->nodes[p].next) {
            const hnode *np = &h->nodes[p];
            uint32_t ep = NODE_ENTRY(np->ek), kp = NODE_K(np->ek);
            const hentry *a = &h->e[ep];
            int64_t cx, cy;
            entry_cell(h, a, &cx, &cy);
            cx += (int64_t)(kp & 1u), cy += (int64_t)(kp >> 1);
            for (uint32_t q = np->next; q != SAT_HASH_NONE; q = h->nodes[q].next) {
                const hnode *nq = &h->nodes[q];
                if (nq->tag != np->tag || !node_in(h, nq->ek, a->level, cx, cy))
                    continue;
                /* Both cover the cell: it is the first they share when it is the first
                 * column of one of them, and the first row of one of them. */
                uint32_t kq = NODE_K(nq->ek);
                if ((kp & kq) == 0 && consider(h, ep, NODE_ENTRY(nq->ek)))
                    return -1;
            }
        }
    }
    for (size_t u = 0; u + 1 < h->nused; u++) {
        const hlevel *L = &h->lv[h->used[u]];
        for (uint32_t j = 0; j < L->count; j++) {
            uint32_t i = L->ents[j], stamp = NEXT_COUNT(h, stamp, stamp);
            size_t n = 0;
            h->e[i].stamp = stamp;
            h->keys_oom = 0;
            for (size_t v = u + 1; v < h->nused; v++)
                gather_box_level(h, h->used[v], &h->e[i].box, stamp, &n);
            if (h->keys_oom)
                return -1;
            for (size_t k = 0; k < n; k++)
                if (consider(h, i, h->keys[k].handle))
                    return -1;
        }
    }
    return 0;
}

/* A pass tests each changed entry against its neighbourhood, skipping the neighbours the
 * pass already tested (so a pair of two changed entries is tested once); or, when most
 * entries changed, every candidate pair with a changed entry, bucket by bucket. A contact
 * of a changed entry is pending until found again. Running out of memory leaves every entry
 * changed and every contact where it was (pending, added or updated), so the next step
 * redoes the pass from the start and tells what it found. */
int sat_hash_step(sat_hash *h, sat_hash_delta *out)
{
    memset(out, 0, sizeof(*out));
    if (sat_hash_sync(h))
        return -1;
    for (size_t q = 0; q < h->nchanged; q++) {
        uint32_t i = h->changed[q];
        h->e[i].flags &= (uint8_t)~E_DONE; /* (left by a pass that ran out of memory) */
        for (uint32_t k = h->e[i].contacts; k != SAT_HASH_NONE; k = contact_next(h, k, i))
            h->c[k].flags |= C_PENDING;
    }
    if (h->nchanged * SAT_HASH_BUCKET_PASS > h->live) {
        if (step_buckets(h))
            return -1;
    } else {
        for (size_t q = 0; q < h->nchanged; q++)
            if (test_changed(h, h->changed[q]))
                return -1;
    }
    return finish_step(h, out);
}

const sat_hash_contact *sat_hash_contact_of(const sat_hash *h, uint32_t id)
{
    if (id >= h->cused || !(h->c[id].flags & C_LIVE) || (h->c[id].flags & C_ADDED))
        return NULL;
    return &h->c[id].pub;
}

int sat_hash_contacts(sat_hash *h, const uint32_t **out)
{
    if (RESERVE(h, ids, idcap, h->clive + 1))
        return -1;
    size_t n = 0;
    for (size_t k = 0; k < h->cused; k++)
        if (sat_hash_contact_of(h, (uint32_t)k))
            h->ids[n++] = (uint32_t)k;
    if (sort_contacts(h, h->ids, n))
        return -1;
    *out = h->ids;
    return (int)n;
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
    int n = gather_box(h, q, self);
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
