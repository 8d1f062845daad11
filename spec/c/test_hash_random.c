/*
 * test_hash_random.c - the spatial hash against brute force: random shapes in three regions
 * (the origin, 1e9 out, 2-3e15 out) added, moved, turned, scaled and removed, and after
 * every few operations every query, the collisions, the sweep and the step compared with
 * what testing every shape gives (a removal's ids as many as sat_hash_remove_count said);
 * the same run twice gives the same digest. Helpers:
 * test_hash.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_hash.h"

/* ---- randomized comparison with brute force ------------------------------------------ */

#define RB_SHAPES 400
#define RB_OPS 6000
#define RB_CHECK_EVERY 8
#define RB_SEED 0x6a5d5eed1234ULL
#define RB_CONTACTS (1 << 17)


static double rb_unit(ctest_rng *r)
{
    return (double)(ctest_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static double rb_range(ctest_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rb_unit(r);
}

static int rb_below(ctest_rng *r, int n)
{
    return (int)(ctest_next(r) % (uint64_t)n);
}

typedef struct rb_world {
    ctest_rng rng;
    double cell;
    sat_hash *h;
    sat_shape *s[RB_SHAPES];
    uint32_t handle[RB_SHAPES];
    uint64_t seq[RB_SHAPES];
    int in[RB_SHAPES];
    int order[RB_SHAPES]; /* the shapes in the hash, in insertion order */
    int norder;
    int stat[RB_SHAPES];    /* inserted static */
    int changed[RB_SHAPES]; /* inserted or transformed since the last step */
    int at[RB_SHAPES];      /* handle -> shape index */
    /* The contacts as the steps' deltas told them: id -> (a, b) handles, live or not. */
    uint32_t ca[RB_CONTACTS], cb[RB_CONTACTS];
    unsigned char clive[RB_CONTACTS];
    int ncontacts;
    uint64_t digest;      /* of every result, for the determinism check */
    long checks, results;
    int bad;              /* mismatches (the first few are printed) */
} rb_world;

/* Regions: the origin, 1e9 out, and 2-3e15 out (ulps of 0.25-0.5 there). */
static const double rb_far[3][2] = {{0, 0}, {1e9, -1e9}, {-3e15, 2e15}};

static void rb_mix(rb_world *w, uint64_t v)
{
    w->digest = (w->digest ^ v) * 0x100000001b3ULL;
}

static void rb_mix_double(rb_world *w, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    rb_mix(w, u);
}

static int rb_accepts(const sat_shape *a, const sat_shape *b)
{
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

/* Mostly about a cell, some of many cells, a few of 40 to 60 (levels up to 6); circles,
 * points and polygons of 3 to 8 corners. */
static sat_shape *rb_make(rb_world *w, int region)
{
    double x = rb_far[region][0] + rb_range(&w->rng, -15, 15) * w->cell;
    double y = rb_far[region][1] + rb_range(&w->rng, -15, 15) * w->cell;
    double u = rb_unit(&w->rng), size;
    int kind = rb_below(&w->rng, 4), n, i;
    sat_vec p[8];
    double a0;
    sat_shape *s;
    if (u < 0.7)
        size = w->cell * rb_range(&w->rng, 0.05, 1.5);
    else if (u < 0.95)
        size = w->cell * rb_range(&w->rng, 1.5, 12);
    else
        size = w->cell * rb_range(&w->rng, 40, 60);
    if (kind == 0)
        s = sat_circle_new(x, y, size / 2, NULL);
    else if (kind == 1)
        s = sat_circle_new(x, y, 0, NULL);
    else {
        n = 3 + rb_below(&w->rng, 6);
        a0 = rb_range(&w->rng, 0, 2 * PI);
        for (i = 0; i < n; i++) {
            double a = a0 + 2 * PI * i / n;
            p[i].x = x + size / 2 * cos(a);
            p[i].y = y + size / 2 * sin(a);
        }
        s = sat_polygon_new(p, n, NULL);
        if (!s) /* too small to be a polygon that far out */
            s = sat_circle_new(x, y, size / 2, NULL);
    }
    if (s) {
        /* Categories 1, 2, 4; masks mostly everything. */
        sat_shape_set_filter(s, 1u << rb_below(&w->rng, 3), s->mask);
        if (rb_below(&w->rng, 4) == 0)
            sat_shape_set_filter(s, s->category, (uint32_t)rb_below(&w->rng, 8));
    }
    return s;
}

static void rb_mismatch(rb_world *w, long op, const char *what, int got, int want)
{
    w->bad++;
    ENSUREF(0, "op %ld: %s: hash %d, brute force %d", op, what, got, want);
}

/* ids from the hash against the brute-force list (indices into w->s, insertion order). */
static void rb_compare_ids(rb_world *w, long op, const char *what, int n, const uint32_t *ids,
                           int m, const int *want)
{
    int k;
    w->checks++;
    w->results += m;
    rb_mix(w, (uint64_t)n);
    if (n != m) {
        rb_mismatch(w, op, what, n, m);
        return;
    }
    for (k = 0; k < n; k++) {
        rb_mix(w, ids[k]);
        if (ids[k] != w->handle[want[k]]) {
            rb_mismatch(w, op, what, (int)ids[k], (int)w->handle[want[k]]);
            return;
        }
    }
}

static int same_result(const sat_result *a, const sat_result *b)
{
    return a->overlap == b->overlap && a->normal.x == b->normal.x &&
           a->normal.y == b->normal.y && a->a_in_b == b->a_in_b && a->b_in_a == b->b_in_a;
}

/* A pair the last step could re-test: one of its shapes changed since. */
static int rb_changed_pair(const rb_world *w, uint32_t a, uint32_t b)
{
    return w->changed[w->at[a]] || w->changed[w->at[b]];
}

/* The step's delta against the contacts told so far: it ends only contacts it told of,
 * adds only new ones (in pair order), updates told ones, and every one of them has a shape
 * that changed since the last step (the others are kept untested). Then the contacts it
 * holds against brute force: every accepted, colliding pair, except two static shapes, a
 * inserted first, sorted by (a, b), with the result of a fresh sat_collide. */
static void rb_check_step(rb_world *w, long op)
{
    sat_hash_delta d;
    const uint32_t *ids;
    int want = 0, live = 0, i, j, k = 0, n;
    uint64_t last_a = 0, last_b = 0;
    w->checks++;
    if (sat_hash_step(w->h, &d)) {
        rb_mismatch(w, op, "step: out of memory", -1, 0);
        return;
    }
    for (i = 0; i < d.nended; i++) {
        uint32_t id = d.ended[i];
        if (id >= RB_CONTACTS || !w->clive[id] || !rb_changed_pair(w, w->ca[id], w->cb[id])) {
            rb_mismatch(w, op, "step: ended contact", (int)id, 0);
            return;
        }
        w->clive[id] = 0;
        w->ncontacts--;
    }
    for (i = 0; i < d.nupdated; i++) {
        uint32_t id = d.updated[i];
        const sat_hash_contact *c = sat_hash_contact_of(w->h, id);
        if (id >= RB_CONTACTS || !w->clive[id] || !c || c->a != w->ca[id] || c->b != w->cb[id] ||
            !rb_changed_pair(w, c->a, c->b)) {
            rb_mismatch(w, op, "step: updated contact", (int)id, 0);
            return;
        }
    }
    for (i = 0; i < d.nadded; i++) {
        uint32_t id = d.added[i];
        const sat_hash_contact *c = sat_hash_contact_of(w->h, id);
        uint64_t sa, sb;
        if (id >= RB_CONTACTS || w->clive[id] || !c || !rb_changed_pair(w, c->a, c->b)) {
            rb_mismatch(w, op, "step: added contact", (int)id, 0);
            return;
        }
        sa = sat_hash_seq(w->h, c->a), sb = sat_hash_seq(w->h, c->b);
        if (i > 0 && !(last_a < sa || (last_a == sa && last_b < sb))) {
            rb_mismatch(w, op, "step: added out of pair order", i, i);
            return;
        }
        last_a = sa, last_b = sb;
        w->clive[id] = 1;
        w->ca[id] = c->a;
        w->cb[id] = c->b;
        w->ncontacts++;
    }
    rb_mix(w, (uint64_t)d.nended * 3 + (uint64_t)d.nadded * 5 + (uint64_t)d.nupdated * 7);
    for (i = 0; i < RB_SHAPES; i++)
        w->changed[i] = 0;

    n = sat_hash_contacts(w->h, &ids);
    for (i = 0; i < w->norder; i++)
        for (j = i + 1; j < w->norder; j++) {
            const sat_shape *a = w->s[w->order[i]], *b = w->s[w->order[j]];
            sat_result r;
            if ((w->stat[w->order[i]] && w->stat[w->order[j]]) || !rb_accepts(a, b) ||
                !sat_collide(a, b, &r))
                continue;
            want++;
            if (k < n) {
                const sat_hash_contact *p = sat_hash_contact_of(w->h, ids[k]);
                if (!p || !w->clive[ids[k]] || p->a != w->handle[w->order[i]] ||
                    p->b != w->handle[w->order[j]] || !same_result(&p->result, &r)) {
                    rb_mismatch(w, op, "step: contact differs at index", k, k);
                    return;
                }
                live++;
                rb_mix(w, p->a);
                rb_mix(w, p->b);
                rb_mix_double(w, p->result.overlap);
            }
            k++;
        }
    w->results += want;
    if (n != want)
        rb_mismatch(w, op, "step: contact count", n, want);
    else if (live != w->ncontacts)
        rb_mismatch(w, op, "step: contacts told and held", w->ncontacts, live);
}

/* Removes shape i: the contacts dropped are exactly its told ones. */
static void rb_remove(rb_world *w, long op, int i)
{
    const uint32_t *dropped;
    uint32_t hd = w->handle[i];
    int counted = sat_hash_remove_count(w->h, hd);
    int n = sat_hash_remove(w->h, hd, &dropped), mine = 0, k;
    if (n != counted) { /* (the binding makes room for that many ids first) */
        rb_mismatch(w, op, "remove: ids dropped / sat_hash_remove_count", n, counted);
        return;
    }
    for (k = 0; k < RB_CONTACTS; k++)
        if (w->clive[k] && (w->ca[k] == hd || w->cb[k] == hd))
            mine++;
    for (k = 0; k < n; k++) {
        uint32_t id = dropped[k];
        if (id >= RB_CONTACTS || !w->clive[id] || (w->ca[id] != hd && w->cb[id] != hd)) {
            rb_mismatch(w, op, "remove: dropped contact", (int)id, 0);
            return;
        }
        w->clive[id] = 0;
        w->ncontacts--;
    }
    if (n != mine)
        rb_mismatch(w, op, "remove: contacts dropped", n, mine);
}

static void rb_check_point(rb_world *w, long op, double x, double y)
{
    const uint32_t *ids;
    int want[RB_SHAPES], m = 0, i;
    int n = sat_hash_query_point(w->h, x, y, &ids);
    for (i = 0; i < w->norder; i++)
        if (sat_shape_contains(w->s[w->order[i]], x, y))
            want[m++] = w->order[i];
    rb_compare_ids(w, op, "point", n, ids, m, want);
}

static void rb_check_rect(rb_world *w, long op, double x1, double y1, double x2, double y2)
{
    sat_vec p[4];
    sat_shape *r;
    const uint32_t *ids;
    int want[RB_SHAPES], m = 0, i, n;
    p[0] = V(x1, y1), p[1] = V(x2, y1), p[2] = V(x2, y2), p[3] = V(x1, y2);
    r = sat_polygon_new(p, 4, NULL);
    if (!r)
        return; /* too thin to be a polygon: see test_hash_thin_rect */
    n = sat_hash_query_rect(w->h, x1, y1, x2, y2, &ids);
    for (i = 0; i < w->norder; i++)
        if (sat_test(r, w->s[w->order[i]]))
            want[m++] = w->order[i];
    rb_compare_ids(w, op, "rect", n, ids, m, want);
    sat_shape_free(r);
}

/* A degenerate rectangle: a horizontal or vertical segment, against the raycast. */
static void rb_check_flat_rect(rb_world *w, long op, double x1, double y1, double x2, double y2)
{
    const uint32_t *ids;
    int want[RB_SHAPES], m = 0, i, n;
    n = sat_hash_query_rect(w->h, x1, y1, x2, y2, &ids);
    for (i = 0; i < w->norder; i++) {
        sat_hit hit;
        if (sat_shape_raycast(w->s[w->order[i]], V(x1, y1), V(x2, y2), &hit))
            want[m++] = w->order[i];
    }
    rb_compare_ids(w, op, "flat rect", n, ids, m, want);
}

static void rb_check_segment(rb_world *w, long op, sat_vec p1, sat_vec p2)
{
    const sat_hash_hit *hits;
    sat_hit want[RB_SHAPES];
    int who[RB_SHAPES], m = 0, i, j, n;
    n = sat_hash_query_segment(w->h, p1, p2, &hits);
    /* Insertion sort by t; equal t keeps insertion order. */
    for (i = 0; i < w->norder; i++) {
        sat_hit hit;
        if (!sat_shape_raycast(w->s[w->order[i]], p1, p2, &hit))
            continue;
        for (j = m; j > 0 && want[j - 1].t > hit.t; j--) {
            want[j] = want[j - 1];
            who[j] = who[j - 1];
        }
        want[j] = hit;
        who[j] = w->order[i];
        m++;
    }
    w->checks++;
    w->results += m;
    if (n != m) {
        rb_mismatch(w, op, "segment: hit count", n, m);
        return;
    }
    for (i = 0; i < n; i++) {
        rb_mix(w, hits[i].handle);
        rb_mix_double(w, hits[i].hit.t);
        if (hits[i].handle != w->handle[who[i]] || hits[i].seq != w->seq[who[i]] ||
            hits[i].hit.t != want[i].t || hits[i].hit.normal.x != want[i].normal.x ||
            hits[i].hit.normal.y != want[i].normal.y) {
            rb_mismatch(w, op, "segment: hit differs at index", i, i);
            return;
        }
    }
}

/* Shape query, neighbours, collisions and sweep of shape q (index qi in the hash, or -1). */
static void rb_check_shape(rb_world *w, long op, const sat_shape *q, int qi, int filter,
                           sat_vec v)
{
    uint32_t self = qi >= 0 ? w->handle[qi] : NONE;
    const uint32_t *ids;
    const sat_hash_pair *pairs;
    const sat_hash_sweep_hit *sw;
    int want[RB_SHAPES], m = 0, i, j, n;
    sat_hash_sweep_hit swant[RB_SHAPES];
    sat_aabb qb = sat_shape_bbox(q);

    n = sat_hash_query_shape(w->h, q, self, &ids);
    for (i = 0; i < w->norder; i++)
        if (w->order[i] != qi && sat_test(q, w->s[w->order[i]]))
            want[m++] = w->order[i];
    rb_compare_ids(w, op, "shape", n, ids, m, want);

    /* Neighbours: every shape whose bounding box overlaps q's is there, and everything there
     * has a box within a hair (the padding) of q's. */
    n = sat_hash_neighbors(w->h, q, self, &ids);
    w->checks++;
    for (i = 0, j = 0; i < w->norder; i++) {
        int o = w->order[i];
        sat_aabb b = sat_shape_bbox(w->s[o]);
        double far = fabs(b.x1) + fabs(b.y1) + fabs(qb.x1) + fabs(qb.y1) + 1;
        double slack = 1e-9 * (w->s[o]->bound + q->bound) + 1e-13 * far;
        int overlap = b.x1 <= qb.x2 && qb.x1 <= b.x2 && b.y1 <= qb.y2 && qb.y1 <= b.y2;
        int near = b.x1 <= qb.x2 + slack && qb.x1 - slack <= b.x2 &&
                   b.y1 <= qb.y2 + slack && qb.y1 - slack <= b.y2;
        int listed = j < n && ids[j] == w->handle[o];
        if (o == qi)
            continue;
        if (listed)
            j++;
        if ((overlap && !listed) || (listed && !near)) {
            rb_mismatch(w, op, "neighbours: listed, box overlap", listed, overlap);
            break;
        }
    }
    if (j != n)
        rb_mismatch(w, op, "neighbours: listed in order", j, n);

    /* Collisions, with and without the filter. */
    n = sat_hash_collisions(w->h, q, self, filter, &pairs);
    w->checks++;
    for (i = 0, m = 0; i < w->norder; i++) {
        int o = w->order[i];
        sat_result r;
        if (o == qi || (qi >= 0 && w->stat[qi] && w->stat[o]) ||
            (filter && !rb_accepts(q, w->s[o])) || !sat_collide(q, w->s[o], &r))
            continue;
        if (m < n && (pairs[m].a != self || pairs[m].b != w->handle[o] ||
                      pairs[m].seq_b != w->seq[o] || !same_result(&pairs[m].result, &r))) {
            rb_mismatch(w, op, "collisions: pair differs at index", m, m);
            return;
        }
        m++;
    }
    w->results += m;
    if (n != m)
        rb_mismatch(w, op, "collisions: count", n, m);

    /* Sweep: sat_sweep against every shape, sorted by t, distance, insertion. */
    n = sat_hash_sweep(w->h, q, self, v, filter, &sw);
    for (i = 0, m = 0; i < w->norder; i++) {
        int o = w->order[i];
        sat_hash_sweep_hit hit;
        const sat_sweep_hit *h = &hit.hit;
        if (o == qi || (qi >= 0 && w->stat[qi] && w->stat[o]) ||
            (filter && !rb_accepts(q, w->s[o])) || !sat_sweep(q, v, w->s[o], &hit.hit))
            continue;
        hit.handle = w->handle[o];
        hit.seq = w->seq[o];
        for (j = m; j > 0 && (swant[j - 1].hit.t > h->t ||
                              (swant[j - 1].hit.t == h->t && swant[j - 1].hit.dist2 > h->dist2));
             j--)
            swant[j] = swant[j - 1];
        swant[j] = hit;
        m++;
    }
    w->checks++;
    w->results += m;
    if (n != m) {
        rb_mismatch(w, op, "sweep: count", n, m);
        return;
    }
    for (i = 0; i < n; i++) {
        const sat_sweep_hit *got = &sw[i].hit, *ref = &swant[i].hit;
        rb_mix(w, sw[i].handle);
        rb_mix_double(w, got->t);
        if (sw[i].handle != swant[i].handle || got->t != ref->t ||
            got->overlapping != ref->overlapping ||
            got->result.normal.x != ref->result.normal.x ||
            got->result.normal.y != ref->result.normal.y || !(got->t >= 0 && got->t <= 1)) {
            rb_mismatch(w, op, "sweep: hit differs at index", i, i);
            return;
        }
    }
}

static void rb_check_all(rb_world *w, long op)
{
    int region = rb_below(&w->rng, 3), k;
    double px = rb_far[region][0] + rb_range(&w->rng, -16, 16) * w->cell;
    double py = rb_far[region][1] + rb_range(&w->rng, -16, 16) * w->cell;
    double ex, ey, rw, rh;
    sat_vec v;
    const uint32_t *ids;
    int n;

    ENSURE_EQ_INT(sat_hash_sync(w->h), 0);
    ENSURE_EQ_INT(sat_hash_count(w->h), w->norder);
    n = sat_hash_handles(w->h, &ids);
    rb_compare_ids(w, op, "handles", n, ids, w->norder, w->order);
    rb_check_step(w, op);
    rb_check_point(w, op, px, py);
    /* A shape's position and its corners (on its boundary, in its outermost cells), so that
     * point queries do find things, and find a shape in every cell it reaches. */
    if (w->norder) {
        const sat_shape *s = w->s[w->order[rb_below(&w->rng, w->norder)]];
        rb_check_point(w, op, s->pos.x, s->pos.y);
        for (k = 0; k < s->count; k++) {
            sat_vec c = sat_polygon_vertex(s, k);
            rb_check_point(w, op, c.x, c.y);
        }
    }
    ex = rb_range(&w->rng, -30, 30) * w->cell;
    ey = rb_range(&w->rng, -30, 30) * w->cell;
    rb_check_segment(w, op, V(px, py), V(px + ex, py + ey));
    ex = rb_range(&w->rng, -3, 3) * w->cell; /* short ones, often one cell */
    ey = rb_range(&w->rng, -3, 3) * w->cell;
    rb_check_segment(w, op, V(px, py), V(px + ex, py + ey));
    rw = rb_range(&w->rng, 0.05, 8) * w->cell;
    rh = rb_range(&w->rng, 0.05, 8) * w->cell;
    rb_check_rect(w, op, px, py, px + rw, py + rh);
    rb_check_flat_rect(w, op, px, py, px + rw, py);
    rb_check_flat_rect(w, op, px, py, px, py + rh);
    for (k = 0; k < 2; k++) {
        int i = rb_below(&w->rng, RB_SHAPES), filter = rb_below(&w->rng, 2);
        v.x = rb_range(&w->rng, -5, 5) * w->cell;
        v.y = rb_range(&w->rng, -5, 5) * w->cell;
        if (!w->s[i])
            continue;
        rb_check_shape(w, op, w->s[i], w->in[i] ? i : -1, filter, v);
    }
}

/* One run: RB_OPS random inserts, removes, moves, turns and scales over RB_SHAPES shapes,
 * every query and the pair pass checked every RB_CHECK_EVERY operations. */
static void rb_run(rb_world *w, uint64_t seed, double cell)
{
    long op;
    int i, k;
    memset(w, 0, sizeof *w);
    w->rng.s = seed;
    w->digest = 0xcbf29ce484222325ULL;
    w->cell = cell;
    w->h = sat_hash_new(w->cell);
    ENSURE(w->h != NULL);
    if (!w->h)
        return;
    for (op = 0; op < RB_OPS && w->bad < 5; op++) {
        double u;
        i = rb_below(&w->rng, RB_SHAPES);
        u = rb_unit(&w->rng);
        if (!w->s[i]) {
            w->s[i] = rb_make(w, rb_below(&w->rng, 3));
            ENSURE(w->s[i] != NULL);
            if (!w->s[i])
                break;
        }
        if (!w->in[i] && u < 0.5) {
            w->stat[i] = rb_below(&w->rng, 4) == 0;
            ENSURE_EQ_INT(sat_hash_insert(w->h, w->s[i], w->stat[i] ? SAT_HASH_STATIC : 0,
                                          &w->handle[i]),
                          0);
            ENSURE_EQ_INT(sat_hash_is_static(w->h, w->handle[i]), w->stat[i]);
            w->seq[i] = sat_hash_seq(w->h, w->handle[i]);
            w->in[i] = 1;
            w->changed[i] = 1;
            w->at[w->handle[i]] = i;
            w->order[w->norder++] = i;
        } else if (w->in[i] && u < 0.6) {
            rb_remove(w, op, i);
            w->in[i] = 0;
            k = 0;
            while (w->order[k] != i)
                k++;
            memmove(&w->order[k], &w->order[k + 1], (size_t)(w->norder - k - 1) * sizeof(int));
            w->norder--;
        } else if (u < 0.8) {
            double dx = rb_range(&w->rng, -2, 2) * w->cell;
            double dy = rb_range(&w->rng, -2, 2) * w->cell;
            w->changed[i] |= sat_shape_move(w->s[i], dx, dy) == SAT_OK;
        } else if (u < 0.9) {
            w->changed[i] |= sat_shape_rotate(w->s[i], rb_range(&w->rng, -1, 1)) == SAT_OK;
        } else {
            double f = rb_range(&w->rng, 0.5, 2), b = w->s[i]->bound * f;
            if (b < 100 * w->cell && b > 0.01 * w->cell)
                w->changed[i] |= sat_shape_scale(w->s[i], f) == SAT_OK;
        }
        if (op % 256 == 128) {
            /* Everything moves a little: the step's pass over the buckets instead of a
             * query per changed entry. */
            for (k = 0; k < w->norder; k++) {
                int j = w->order[k];
                double d = rb_range(&w->rng, -0.3, 0.3) * w->cell;
                w->changed[j] |= sat_shape_move(w->s[j], d, -d) == SAT_OK;
            }
            rb_check_all(w, op);
        }
        if (op % RB_CHECK_EVERY == RB_CHECK_EVERY - 1)
            rb_check_all(w, op);
    }
    sat_hash_free(w->h);
    w->h = NULL;
    free_shapes(w->s, RB_SHAPES);
}

static void test_hash_random_vs_brute_force(void)
{
    static rb_world w; /* large: keep it off the stack */
    static const uint64_t seeds[4] = {RB_SEED, RB_SEED + 1, RB_SEED + 2, RB_SEED + 3};
    /* The far region's shapes climb a few levels with every size; query ranges there reach
     * the clamp in x and y with the first size, and in x only with 2.2 (the case of
     * test_hash_segment_in_clamped_cells). */
    static const double cells[4] = {0.75, 6.5, 41, 2.2};
    uint64_t digest;
    long checks = 0, results = 0;
    int k;
    for (k = 0; k < 4; k++) {
        rb_run(&w, seeds[k], cells[k]);
        checks += w.checks;
        results += w.results;
    }
    /* Determinism: the same operations again, on shapes and a hash allocated anew, give the
     * same results in the same order. */
    digest = w.digest;
    rb_run(&w, seeds[3], cells[3]);
    ENSURE(w.digest == digest);
    /* The comparisons had something to compare. */
    ENSUREF(checks > 20000 && results > 300000, "%ld checks, %ld results", checks, results);
    if (getenv("SAT_TEST_VERBOSE"))
        printf("hash vs brute force: %ld comparisons, %ld results\n", checks, results);
}

void run_hash_random_tests(void)
{
    RUN_TEST(test_hash_random_vs_brute_force);
}
