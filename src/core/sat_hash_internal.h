/*
 * sat_hash_internal.h - what the spatial hash's files share (see sat_hash.h): the hash's
 * structs and the small helpers more than one of them calls. Included by those files only:
 *   sat_hash.c        the entries: lifetime, the shapes' records and change tracking,
 *                     levels, nodes and cells, filing, sync;
 *   sat_hash_query.c  gathering candidates, the queries, the collisions, the sweep;
 *   sat_hash_step.c   the contacts kept from step to step, and the step.
 * They call each other one way (step -> query -> sat_hash.c): what sat_hash.c needs of the
 * contacts (removing an entry drops its contacts) is here, inline.
 */
#ifndef SAT_HASH_INTERNAL_H
#define SAT_HASH_INTERNAL_H

#include <float.h>
#include <stdlib.h>

#include "sat_hash.h"
#include "sat_internal.h"

/* Query ranges are clamped to this many cells: far beyond any world, and small enough that
 * a range's width never overflows. An entry never comes near it (see place()). */
#define CELL_LIMIT 1125899906842624.0 /* 2^50 */

/* E_DIRTY and E_CHANGED: in h->dirty, in h->changed (a removed entry's slot stays listed,
 * and keeps the flag, until the list is next read); E_DONE: the step pass tested its pairs;
 * E_MARK: step scratch, in contact with the entry under test. */
enum { E_STATIC = 1, E_DIRTY = 2, E_CHANGED = 4, E_FILED = 8, E_DONE = 16, E_MARK = 32 };
enum { C_LIVE = 1, C_PENDING = 2, C_ADDED = 4, C_UPDATED = 8 };

/* The shapes' records, in chunks (sat_hash.c). */
typedef struct hchunk hchunk;

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

/* The step's sort key of a contact, and a new contact its pass found (sat_hash_step.c). */
typedef struct ckey ckey;
typedef struct hfresh hfresh;

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
    hfresh *fresh; /* the new contacts a step's pass found, made after it in pair order */
    size_t nfresh, freshcap;
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
static inline int reserve(void **p, size_t *cap, size_t need, size_t elem)
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
static inline int64_t cell_of(double v, double inv)
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
static inline uint64_t cell_hash(uint32_t level, int64_t x, int64_t y)
{
    uint64_t k = (uint64_t)x * 0x9E3779B97F4A7C15u ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Fu ^
                 (uint64_t)level * 0x165667B19E3779F9u;
    k ^= k >> 31;
    k *= 0xBF58476D1CE4E5B9u;
    k ^= k >> 29;
    return k;
}

static inline size_t bucket_of(const sat_hash *h, uint64_t k)
{
    return (size_t)(k & (h->nbuckets - 1));
}

/* The first cell (column cx, row cy) of a filed entry, at its level: where its box, as
 * filed, begins (place() found it so; a box moved within its cells begins in the same). */
static inline void entry_cell(const sat_hash *h, const hentry *e, int64_t *cx, int64_t *cy)
{
    double inv = h->lv[e->level].inv;
    *cx = cell_of(e->box.x1, inv);
    *cy = cell_of(e->box.y1, inv);
}

static inline int box_overlap(const sat_aabb *a, const sat_aabb *b)
{
    return a->x1 <= b->x2 && b->x1 <= a->x2 && a->y1 <= b->y2 && b->y1 <= a->y2;
}

/* A shape's bounding box, padded by the touch tolerance (with room to spare) and by the
 * rounding of a box far from the origin, so that every pair the core calls touching has
 * overlapping boxes. */
static inline sat_aabb padded_box(const sat_shape *s)
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

static inline int accepts(const sat_shape *a, const sat_shape *b)
{
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

/* The next value of a per-entry counter (the query stamp, the step's pass and mark); when
 * it wraps, every entry's copy is reset so that no old value matches a new one. */
static inline uint32_t next_count(sat_hash *h, uint32_t *counter, size_t field)
{
    if (++*counter == 0) {
        for (size_t i = 0; i < h->eused; i++)
            *(uint32_t *)(void *)((char *)&h->e[i] + field) = 0;
        *counter = 1;
    }
    return *counter;
}

#define NEXT_COUNT(h, counter, field) next_count((h), &(h)->counter, offsetof(hentry, field))

/* ---- the contact lists ------------------------------------------------------------------ */

/* Which of c's two lists is entry i's. */
static inline int side(const hcontact *c, uint32_t i)
{
    return c->pub.a == i ? 0 : 1;
}

/* Unlinks contact k from its two entries' lists and frees its slot (removing an entry drops
 * its contacts so; the step, those that ended). */
static inline void contact_free(sat_hash *h, uint32_t k)
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

SAT_BEGIN_HIDDEN

/* ---- gathering candidates (sat_hash_query.c), which the step's pass calls too ---------- */

/* Every entry (except self) whose box overlaps q, once each, into h->keys; the count, or
 * -1 when out of memory. Syncs first. */
int sat__hash_gather_box(sat_hash *h, sat_aabb q, uint32_t self);
/* The entries of one level whose box overlaps q and that the query of this stamp has not
 * met, into h->keys from *n on (h->keys_oom set when it could not grow). */
void sat__hash_gather_box_level(sat_hash *h, uint32_t level, const sat_aabb *q, uint32_t stamp,
                                size_t *n);

SAT_END_HIDDEN

#endif
