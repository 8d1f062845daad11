/*
 * sat_hash.c - the spatial hash broad phase (see sat_hash.h): its entries. Lifetime, the
 * shapes' records and change tracking, levels, nodes and cells, filing and the sync. The
 * queries are in sat_hash_query.c, the contacts and the step in sat_hash_step.c; what they
 * share in sat_hash_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sat_hash_internal.h"

/* Above any level a shape the core takes can need (sizes from 1e-100 to 1e150 span 2^830). */
#define MAX_LEVEL 1100

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

struct hchunk {
    sat_hash *hash;
    uint32_t first; /* the handle of m[0] */
    hmember m[MEMBER_CHUNK];
};

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
    free(h->fresh);
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

int sat_hash_remove_count(const sat_hash *h, uint32_t i)
{
    int n = 0;
    for (uint32_t k = h->e[i].contacts; k != SAT_HASH_NONE; k = h->c[k].next[side(&h->c[k], i)])
        n += !(h->c[k].flags & C_ADDED);
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
