/*
 * sat_hash_step.c - the spatial hash's contacts and its step (see sat_hash.h): the contacts
 * kept from one step to the next, each in the lists of its two entries, and the pass that
 * re-tests the pairs of the entries changed since the last step.
 *
 * The contacts a pass finds new are made after it, in pair order: their ids (which the
 * binding hands out) and their places in the entries' lists (the order of a step's ended and
 * updated ids) then depend on which pairs collide, never on how the pass came upon them
 * (bucket by bucket or entry by entry, cells hashed so or otherwise): the pure-Lua backend
 * (lua/sat/pure/sat_hash_step.lua) gives the same ids without hashing cells alike.
 */
#include <stdlib.h>
#include <string.h>

#include "sat_hash_internal.h"

/* A step passes over every bucket instead of querying each changed entry's neighbourhood
 * when more than 1 / SAT_HASH_BUCKET_PASS of the entries changed (bench/level.lua and
 * bench/world.lua find where the two cost the same). */
#define SAT_HASH_BUCKET_PASS 2

struct ckey {
    uint64_t sa, sb;
    uint32_t id;
};

struct hfresh {
    uint64_t sa, sb; /* the insertion numbers of a and b */
    uint32_t a, b;
    sat_result r;
};

/* ---- contacts -------------------------------------------------------------------------- */

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

/* Notes a new contact of a and b (a inserted before b) for fresh_make; needs room in
 * h->fresh. */
static void fresh_add(sat_hash *h, uint32_t a, uint32_t b, const sat_result *r)
{
    hfresh *f = &h->fresh[h->nfresh++];
    f->sa = h->e[a].seq;
    f->sb = h->e[b].seq;
    f->a = a;
    f->b = b;
    f->r = *r;
}

static int cmp_fresh(const void *pa, const void *pb)
{
    const hfresh *a = pa, *b = pb;
    if (a->sa != b->sa)
        return a->sa < b->sa ? -1 : 1;
    return a->sb < b->sb ? -1 : a->sb > b->sb;
}

/* Makes the contacts the pass found new, in pair order (each pair is found once); 0, or -1
 * when out of memory (none made: the next step's pass finds them again). */
static int fresh_make(sat_hash *h)
{
    size_t n = h->nfresh;
    h->nfresh = 0;
    if (n > 1)
        qsort(h->fresh, n, sizeof(*h->fresh), cmp_fresh);
    if (reserve_contacts(h, n))
        return -1;
    for (size_t k = 0; k < n; k++)
        contact_new(h, h->fresh[k].a, h->fresh[k].b, &h->fresh[k].r);
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

/* ---- the step -------------------------------------------------------------------------- */

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
 * pass already tested (E_DONE): a contact found again (E_MARK) is updated, a new one noted
 * for fresh_make. */
static int test_changed(sat_hash *h, uint32_t i)
{
    if (!h->e[i].shape)
        return 0; /* removed since it changed: its slot is free */
    mark_partners(h, i, 1);
    int n = sat__hash_gather_box(h, h->e[i].box, i);
    if (n < 0 || RESERVE(h, fresh, freshcap, h->nfresh + (size_t)n)) {
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
            fresh_add(h, a, b, &r);
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

/* The bucket pass's test of a candidate pair: only a pair with a changed entry is tested
 * (an unchanged pair keeps its contact as it is); a new contact is noted for fresh_make. */
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
    if (RESERVE(h, fresh, freshcap, h->nfresh + 1))
        return -1;
    fresh_add(h, i, j, &r);
    return 0;
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
                sat__hash_gather_box_level(h, h->used[v], &h->e[i].box, stamp, &n);
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
    h->nfresh = 0;
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
    if (fresh_make(h))
        return -1;
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
