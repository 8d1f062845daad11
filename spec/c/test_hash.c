/*
 * test_hash.c - the spatial hash (sat_hash.h) on its own, without Lua: lifetime and cell
 * sizes, insert / remove / handles, cells (negative, far, clamped, many, too many: the big
 * list), re-sync after the core's own transforms, change tracking and membership; and the
 * helpers every file of the hash's tests uses (test_hash.h). The queries and the sweep are
 * tested in test_hash_query.c, the contacts and the step in test_hash_step.c, everything
 * against brute force in test_hash_random.c; run_hash_tests runs them all.
 *
 * The hash does not sync by itself (sat_hash.h): a C user calls sat_hash_sync() after changing
 * shapes, and these tests do exactly that and nothing more.
 */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_hash.h"

/* ---- helpers ------------------------------------------------------------------------- */

/* Inserts s and returns its handle (SAT_HASH_NONE, and a failed check, on failure). */
uint32_t add(sat_hash *h, sat_shape *s)
{
    uint32_t id = NONE;
    int rc = sat_hash_insert(h, s, 0, &id);
    ENSURE_EQ_INT(rc, 0);
    return rc == 0 ? id : NONE;
}

int same_ids(int n, const uint32_t *got, int m, const uint32_t *want)
{
    int i;
    if (n != m)
        return 0;
    for (i = 0; i < n; i++)
        if (got[i] != want[i])
            return 0;
    return 1;
}

const char *ids_text(int n, const uint32_t *ids)
{
    static char buf[256];
    size_t used = 0;
    int i;
    buf[0] = 0;
    if (n < 0)
        return "(error -1)";
    for (i = 0; i < n && used + 16 < sizeof buf; i++)
        used += (size_t)sprintf(buf + used, "%s%u", i ? " " : "", (unsigned)ids[i]);
    if (i < n)
        sprintf(buf + used, " ...");
    return buf;
}
void ensure_point(sat_hash *h, double x, double y, int m, const uint32_t *want)
{
    const uint32_t *ids = NULL;
    int n = sat_hash_query_point(h, x, y, &ids);
    char what[64];
    sprintf(what, "point (%g, %g)", x, y);
    ENSURE_IDS(what, n, ids, m, want);
}

void ensure_rect(sat_hash *h, double x1, double y1, double x2, double y2, int m,
                 const uint32_t *want)
{
    const uint32_t *ids = NULL;
    int n = sat_hash_query_rect(h, x1, y1, x2, y2, &ids);
    char what[96];
    sprintf(what, "rect (%g, %g)-(%g, %g)", x1, y1, x2, y2);
    ENSURE_IDS(what, n, ids, m, want);
}

void ensure_level(const sat_hash *h, uint32_t id, int level, int64_t x0, int64_t y0,
                  int64_t x1, int64_t y1)
{
    int64_t a = -7, b = -7, c = -7, d = -7;
    int k = -7;
    int filed = sat_hash_cells_of(h, id, &k, &a, &b, &c, &d);
    ENSUREF(filed == 1 && k == level && a == x0 && b == y0 && c == x1 && d == y1,
            "handle %u: filed %d, level %d, cells (%lld, %lld)-(%lld, %lld), want level %d "
            "(%lld, %lld)-(%lld, %lld)",
            (unsigned)id, filed, k, (long long)a, (long long)b, (long long)c, (long long)d,
            level, (long long)x0, (long long)y0, (long long)x1, (long long)y1);
}

/* Filed in level 0 (cells of the hash's own size), in cells (x0, y0) to (x1, y1). */
void ensure_cells(const sat_hash *h, uint32_t id, int64_t x0, int64_t y0, int64_t x1,
                  int64_t y1)
{
    ensure_level(h, id, 0, x0, y0, x1, y1);
}

void rm(sat_hash *h, uint32_t id)
{
    const uint32_t *dropped;
    sat_hash_remove(h, id, &dropped);
}

/* Every contact after a step, as pairs in pair order (what the pair pass gave before the
 * step kept its contacts); -1 when out of memory. */
static sat_hash_pair *step_buf;
static size_t step_cap;

int step_pairs(sat_hash *h, const sat_hash_pair **out)
{
    sat_hash_delta d;
    const uint32_t *ids;
    int n, i;
    if (sat_hash_step(h, &d) || (n = sat_hash_contacts(h, &ids)) < 0)
        return -1;
    if ((size_t)n > step_cap) {
        sat_hash_pair *p = realloc(step_buf, (size_t)n * sizeof(*p));
        if (!p)
            return -1;
        step_buf = p;
        step_cap = (size_t)n;
    }
    for (i = 0; i < n; i++) {
        const sat_hash_contact *c = sat_hash_contact_of(h, ids[i]);
        step_buf[i].a = c->a;
        step_buf[i].b = c->b;
        step_buf[i].seq_a = sat_hash_seq(h, c->a);
        step_buf[i].seq_b = sat_hash_seq(h, c->b);
        step_buf[i].result = c->result;
    }
    *out = step_buf;
    return n;
}

void ensure_pair(const sat_hash_pair *p, uint32_t a, uint32_t b, double overlap,
                 double nx, double ny)
{
    ENSUREF(p->a == a && p->b == b, "pair (%u, %u), want (%u, %u)", (unsigned)p->a,
            (unsigned)p->b, (unsigned)a, (unsigned)b);
    ENSURE_NEAR(p->result.overlap, overlap, 1e-12);
    ENSURE_NEAR(p->result.normal.x, nx, 1e-12);
    ENSURE_NEAR(p->result.normal.y, ny, 1e-12);
    ENSURE_NEAR(p->result.mtv.x, -nx * overlap, 1e-12);
    ENSURE_NEAR(p->result.mtv.y, -ny * overlap, 1e-12);
}

void ensure_hit_is(const sat_hash_hit *hit, uint32_t id, uint64_t seq, double t,
                   double nx, double ny)
{
    ENSUREF(hit->handle == id, "hit handle %u, want %u", (unsigned)hit->handle, (unsigned)id);
    ENSURE(hit->seq == seq);
    ENSURE_NEAR(hit->hit.t, t, 1e-15);
    ENSURE_NEAR(hit->hit.normal.x, nx, 1e-15);
    ENSURE_NEAR(hit->hit.normal.y, ny, 1e-15);
}

/* How many contacts the step re-tested (updated) and ended: with a probe circle around a
 * shape, a step re-tests their pair exactly when the shape changed since the last step. */
void ensure_delta(sat_hash *h, int updated, int ended, const char *what)
{
    sat_hash_delta d;
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSUREF(d.nupdated == updated && d.nended == ended && d.nadded == 0,
            "%s: updated %d, ended %d, added %d", what, d.nupdated, d.nended, d.nadded);
}

/* ---- lifetime, cell sizes, insert and remove ----------------------------------------- */

static void test_hash_new_and_cell_sizes(void)
{
    const double good[] = {SAT_HASH_DEFAULT_CELL, 0.25, 1e6, SAT_HASH_MIN_CELL,
                           SAT_HASH_MAX_CELL};
    /* Sizes the core takes run from 1e-100 to 1e150: no cell outside is of any use, and a
     * subnormal one has no finite reciprocal. */
    const double bad[] = {0.0,     -0.0,    -1.0,     -64.0,          NAN,  INFINITY, -INFINITY,
                          DBL_MIN, DBL_MAX, 1e-101, DBL_MIN * 1e-10, 1e151};
    const uint32_t *ids;
    const sat_hash_hit *hits;
    const sat_hash_pair *pairs;
    int i;
    ENSURE(SAT_HASH_DEFAULT_CELL == 64.0);
    ENSURE(SAT_HASH_MIN_CELL == 1e-100 && SAT_HASH_MAX_CELL == 1e150);
    for (i = 0; i < (int)(sizeof good / sizeof good[0]); i++) {
        sat_hash *h = sat_hash_new(good[i]);
        ENSUREF(h != NULL, "cell %g refused", good[i]);
        if (!h)
            continue;
        ENSURE(sat_hash_cell_size(h) == good[i]);
        /* An empty hash answers everything with nothing. */
        ENSURE_EQ_INT(sat_hash_count(h), 0);
        ENSURE_EQ_INT(sat_hash_handles(h, &ids), 0);
        ENSURE_EQ_INT(sat_hash_sync(h), 0);
        ENSURE_EQ_INT(sat_hash_query_point(h, 0, 0, &ids), 0);
        ENSURE_EQ_INT(sat_hash_query_rect(h, -1e9, -1e9, 1e9, 1e9, &ids), 0);
        ENSURE_EQ_INT(sat_hash_query_segment(h, V(-5, 0), V(5, 1), &hits), 0);
        ENSURE_EQ_INT(step_pairs(h, &pairs), 0);
        sat_hash_free(h);
    }
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        sat_hash *h = sat_hash_new(bad[i]);
        ENSUREF(h == NULL, "cell %g accepted", bad[i]);
        sat_hash_free(h);
    }
    sat_hash_free(NULL); /* like free(NULL) */
}

/* Extreme but accepted cell sizes still give right answers: shapes hundreds of levels up,
 * or everything in one cell. */
static void test_hash_extreme_cells(void)
{
    const double cells[] = {SAT_HASH_MIN_CELL, 1e-9, SAT_HASH_MAX_CELL};
    int i;
    for (i = 0; i < 3; i++) {
        sat_hash *h = sat_hash_new(cells[i]);
        sat_shape *s[3] = {mk_box(0, 0, 10, 10), mk_circle(12, 5, 3), mk_circle(-50, 0, 1)};
        uint32_t id[3], want[2];
        const sat_hash_pair *pairs;
        int n;
        if (!h || !all_built(s, 3)) {
            ENSURE(h != NULL);
            sat_hash_free(h);
            free_shapes(s, 3);
            continue;
        }
        id[0] = add(h, s[0]);
        id[1] = add(h, s[1]);
        id[2] = add(h, s[2]);
        want[0] = id[0], want[1] = id[1];
        ensure_point(h, 9.5, 5, 2, want);
        ensure_point(h, -50, 0.5, 1, &id[2]);
        ensure_point(h, 20, 20, 0, NULL);
        n = step_pairs(h, &pairs);
        ENSURE_EQ_INT(n, 1);
        if (n == 1)
            ensure_pair(&pairs[0], id[0], id[1], 1, 1, 0);
        sat_hash_free(h);
        free_shapes(s, 3);
    }
}

static void test_hash_insert_remove_handles(void)
{
    sat_hash *h = sat_hash_new(10);
    sat_shape *s[3] = {mk_box(1, 1, 9, 9), mk_circle(5, 5, 3), mk_box(2, 2, 4, 4)};
    uint32_t a, b, c, b2, want[3];
    const uint32_t *ids;
    int n;
    if (!h || !all_built(s, 3))
        goto done;
    a = add(h, s[0]);
    b = add(h, s[1]);
    c = add(h, s[2]);
    ENSURE_EQ_INT(sat_hash_count(h), 3);
    ENSURE(a != b && b != c && a != c);
    ENSURE(a != NONE && b != NONE && c != NONE);
    ENSURE(sat_hash_shape(h, a) == s[0]);
    ENSURE(sat_hash_shape(h, b) == s[1]);
    ENSURE(sat_hash_shape(h, c) == s[2]);
    ENSURE(sat_hash_seq(h, a) < sat_hash_seq(h, b));
    ENSURE(sat_hash_seq(h, b) < sat_hash_seq(h, c));
    want[0] = a, want[1] = b, want[2] = c;
    n = sat_hash_handles(h, &ids);
    ENSURE_IDS("handles", n, ids, 3, want);
    ensure_point(h, 3, 3, 3, want);

    /* Removing the middle one: gone from everything, the others keep their order. */
    rm(h, b);
    ENSURE_EQ_INT(sat_hash_count(h), 2);
    want[0] = a, want[1] = c;
    n = sat_hash_handles(h, &ids);
    ENSURE_IDS("handles after remove", n, ids, 2, want);
    ensure_point(h, 3, 3, 2, want);
    ensure_point(h, 7.5, 5, 1, &a); /* in b's circle and a's box */

    /* Re-added: a new entry, inserted last, so it now comes after c. */
    b2 = add(h, s[1]);
    ENSURE_EQ_INT(sat_hash_count(h), 3);
    ENSURE(sat_hash_shape(h, b2) == s[1]);
    ENSURE(sat_hash_seq(h, b2) > sat_hash_seq(h, c));
    want[0] = a, want[1] = c, want[2] = b2;
    n = sat_hash_handles(h, &ids);
    ENSURE_IDS("handles after re-add", n, ids, 3, want);
    ensure_point(h, 3, 3, 3, want);

    rm(h, a);
    rm(h, c);
    rm(h, b2);
    ENSURE_EQ_INT(sat_hash_count(h), 0);
    ENSURE_EQ_INT(sat_hash_handles(h, &ids), 0);
    ensure_point(h, 3, 3, 0, NULL);
done:
    sat_hash_free(h);
    free_shapes(s, 3);
}

/* Many removals (the insertion list gets compacted) and re-adds keep handles, order and
 * pairs right. Circles of radius 0.6 one apart: each overlaps its two neighbours. */
static void test_hash_many_removals(void)
{
    enum { N = 100 };
    sat_hash *h = sat_hash_new(1);
    sat_shape *s[N];
    uint32_t id[N], want[N];
    const uint32_t *ids;
    const sat_hash_pair *pairs;
    int i, n, m, ok;
    for (i = 0; i < N; i++)
        s[i] = mk_circle(i, 0, 0.6);
    if (!h || !all_built(s, N))
        goto done;
    for (i = 0; i < N; i++)
        id[i] = add(h, s[i]);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, N - 1);
    for (i = 0; i < n && i < N - 1; i++)
        ENSURE(pairs[i].a == id[i] && pairs[i].b == id[i + 1]);

    /* Keep every fifth: nothing overlaps any more. */
    for (i = 0; i < N; i++)
        if (i % 5)
            rm(h, id[i]);
    ENSURE_EQ_INT(sat_hash_count(h), N / 5);
    for (m = 0, i = 0; i < N; i += 5)
        want[m++] = id[i];
    n = sat_hash_handles(h, &ids);
    ENSURE_IDS("survivors", n, ids, m, want);
    ENSURE_EQ_INT(step_pairs(h, &pairs), 0);
    ensure_point(h, 3, 0, 0, NULL);
    ensure_point(h, 5.5, 0, 1, &id[5]);

    /* Back in, in increasing x: every neighbour pair again, each once, sorted by insertion
     * (the survivors came first, so in a pair with a survivor the survivor is a). */
    for (i = 0; i < N; i++)
        if (i % 5)
            id[i] = add(h, s[i]);
    ENSURE_EQ_INT(sat_hash_count(h), N);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, N - 1);
    ok = 1;
    for (i = 0; i < n; i++) {
        const sat_shape *pa = sat_hash_shape(h, pairs[i].a), *pb = sat_hash_shape(h, pairs[i].b);
        if (fabs(pa->pos.x - pb->pos.x) != 1 || pairs[i].seq_a >= pairs[i].seq_b)
            ok = 0;
        if (i && !(pairs[i - 1].seq_a < pairs[i].seq_a ||
                   (pairs[i - 1].seq_a == pairs[i].seq_a && pairs[i - 1].seq_b < pairs[i].seq_b)))
            ok = 0;
    }
    ENSURE(ok);
    n = sat_hash_handles(h, &ids);
    ENSURE_EQ_INT(n, N);
    for (i = 1; i < n; i++)
        ENSURE(sat_hash_seq(h, ids[i - 1]) < sat_hash_seq(h, ids[i]));
done:
    sat_hash_free(h);
    free_shapes(s, N);
}

/* ---- cells --------------------------------------------------------------------------- */

/* Cell ranges are floor(coordinate / size), negative ones included, and at 1e9. */
static void test_hash_cells_negative_and_far(void)
{
    sat_hash *h = sat_hash_new(10), *g = sat_hash_new(64);
    sat_shape *s[5] = {
        mk_box(-25, -5, -15, -1), mk_circle(-0.5, -0.5, 0.25), mk_box(1, 1, 9, 9),
        mk_box(1e9 + 1, -1e9 - 50, 1e9 + 100, -1e9 - 10),
        mk_box(1e9 + 99.5, -1e9 - 30, 1e9 + 150, -1e9 - 20),
    };
    uint32_t id[5], w[2];
    const sat_hash_hit *hits;
    const sat_hash_pair *pairs;
    int n;
    if (!h || !g || !all_built(s, 5))
        goto done;
    id[0] = add(h, s[0]);
    id[1] = add(h, s[1]);
    id[2] = add(h, s[2]);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[0], -3, -1, -2, -1);
    ensure_cells(h, id[1], -1, -1, -1, -1);
    ensure_cells(h, id[2], 0, 0, 0, 0);
    ensure_point(h, -20, -3, 1, &id[0]);
    ensure_point(h, -14, -3, 0, NULL);
    ensure_point(h, -0.5, -0.3, 1, &id[1]);
    ensure_point(h, 0.5, 0.5, 0, NULL);

    /* 1e9 / 64 = 15625000 exactly. */
    id[3] = add(g, s[3]);
    id[4] = add(g, s[4]);
    ENSURE_EQ_INT(sat_hash_sync(g), 0);
    ensure_cells(g, id[3], 15625000, -15625001, 15625001, -15625001);
    ensure_cells(g, id[4], 15625001, -15625001, 15625002, -15625001);
    ensure_point(g, 1e9 + 50, -1e9 - 30, 1, &id[3]);
    ensure_point(g, 1e9 + 100.25, -1e9 - 30, 1, &id[4]);
    ensure_point(g, 1e9 + 99.75, -1e9 - 25, 2, &id[3]);
    ensure_point(g, 1e9 + 100.25, -1e9 - 45, 0, NULL);
    ensure_rect(g, 1e9 + 120, -1e9 - 21, 1e9 + 130, -1e9 - 19, 1, &id[4]);
    n = sat_hash_query_segment(g, V(1e9, -1e9 - 25), V(1e9 + 200, -1e9 - 25), &hits);
    ENSURE_EQ_INT(n, 2);
    if (n == 2) {
        ensure_hit_is(&hits[0], id[3], sat_hash_seq(g, id[3]), 1.0 / 200, -1, 0);
        ensure_hit_is(&hits[1], id[4], sat_hash_seq(g, id[4]), 99.5 / 200, -1, 0);
    }
    n = step_pairs(g, &pairs);
    ENSURE_EQ_INT(n, 1);
    if (n == 1)
        ensure_pair(&pairs[0], id[3], id[4], 0.5, 1, 0);
    w[0] = id[3], w[1] = id[4];
    n = sat_hash_query_segment(g, V(1e9 + 200, -1e9 - 25), V(1e9, -1e9 - 25), &hits);
    ENSURE_EQ_INT(n, 2);
    if (n == 2) {
        ENSURE(hits[0].handle == w[1] && hits[1].handle == w[0]);
        ENSURE_NEAR(hits[0].hit.t, 50.0 / 200, 1e-15);
        ENSURE_NEAR(hits[1].hit.t, 100.0 / 200, 1e-15);
    }
done:
    sat_hash_free(h);
    sat_hash_free(g);
    free_shapes(s, 5);
}

/* One shape 500 cells long: filed at level 8 (cells of 256) in two cells, met once by every
 * query and the step. */
static void test_hash_shape_over_many_cells(void)
{
    enum { K = 5 };
    sat_hash *h = sat_hash_new(1);
    sat_shape *wide = mk_box(0.5, 0.5, 500.5, 1.5), *s[K];
    uint32_t wid, id[K];
    const uint32_t *ids;
    const sat_hash_pair *pairs;
    const sat_hash_hit *hits;
    int i, n;
    for (i = 0; i < K; i++)
        s[i] = mk_circle(50 + 100 * i, 1, 0.25); /* inside the wide box, 100 cells apart */
    if (!h || !wide || !all_built(s, K))
        goto done;
    wid = add(h, wide);
    for (i = 0; i < K; i++)
        id[i] = add(h, s[i]);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, wid, 8, 0, 0, 1, 0);
    ensure_point(h, 200, 1.2, 1, &wid);
    ensure_point(h, 500.6, 1, 0, NULL);
    n = sat_hash_query_rect(h, 0, 0, 600, 2, &ids);
    ENSURE_EQ_INT(n, K + 1);
    if (n == K + 1) {
        ENSURE(ids[0] == wid);
        for (i = 0; i < K; i++)
            ENSURE(ids[i + 1] == id[i]);
    }
    n = sat_hash_query_shape(h, wide, wid, &ids);
    ENSURE_IDS("shapes in the wide box", n, ids, K, id);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, K);
    for (i = 0; i < n && i < K; i++) {
        ENSURE(pairs[i].a == wid && pairs[i].b == id[i]);
        ENSURE(pairs[i].result.b_in_a);
    }
    /* Along the box, inside it: t = 0 for the box, then each circle at x - 0.25. */
    n = sat_hash_query_segment(h, V(0.75, 1), V(1000.75, 1), &hits);
    ENSURE_EQ_INT(n, K + 1);
    if (n == K + 1) {
        ENSURE(hits[0].handle == wid && hits[0].hit.t == 0);
        for (i = 0; i < K; i++) {
            ENSURE(hits[i + 1].handle == id[i]);
            ENSURE_NEAR(hits[i + 1].hit.t, (49.0 + 100 * i) / 1000, 1e-15);
        }
    }
done:
    sat_hash_free(h);
    sat_shape_free(wide);
    free_shapes(s, K);
}

/* Each shape at the lowest level where its padded box covers at most 2 x 2 cells: cell 1,
 * a 40-wide box at level 5 (cells of 32), another across a boundary of that level at level 6;
 * every query and the step still meet them, and a shape moves between levels as it is
 * scaled. */
static void test_hash_levels(void)
{
    sat_hash *h = sat_hash_new(1);
    sat_shape *s[4] = {
        mk_box(0.5, 0.5, 40.5, 40.5), /* cells 0..1 of 32 */
        mk_circle(20, 20, 0.3),
        mk_box(30.5, 0.5, 70.5, 40.5), /* 10 into the first; cells 0..2 of 32, 0..1 of 64 */
        mk_circle(100, 100, 0.3),
    };
    uint32_t id[4], w[3];
    const sat_hash_pair *pairs;
    const sat_hash_hit *hits;
    int n;
    if (!h || !all_built(s, 4))
        goto done;
    id[0] = add(h, s[0]);
    id[1] = add(h, s[1]);
    id[2] = add(h, s[2]);
    id[3] = add(h, s[3]);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, id[0], 5, 0, 0, 1, 1);
    ensure_level(h, id[2], 6, 0, 0, 1, 0);
    ensure_cells(h, id[1], 19, 19, 20, 20);
    w[0] = id[0], w[1] = id[1];
    ensure_point(h, 20, 20, 2, w);
    w[0] = id[0], w[1] = id[2];
    ensure_point(h, 35, 20, 2, w);
    ensure_point(h, 41, 20, 1, &id[2]);
    ensure_point(h, 80, 20, 0, NULL);
    ensure_point(h, 100, 100, 1, &id[3]);
    /* Each pair once: across levels, and at different levels. */
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 2);
    if (n == 2) {
        ENSURE(pairs[0].a == id[0] && pairs[0].b == id[1]);
        ENSURE(pairs[0].result.b_in_a && !pairs[0].result.a_in_b);
        ensure_pair(&pairs[1], id[0], id[2], 10, 1, 0);
    }
    n = sat_hash_query_segment(h, V(-10, 20), V(100, 20), &hits);
    ENSURE_EQ_INT(n, 3);
    if (n == 3) {
        ensure_hit_is(&hits[0], id[0], sat_hash_seq(h, id[0]), 10.5 / 110, -1, 0);
        ensure_hit_is(&hits[1], id[1], sat_hash_seq(h, id[1]), 29.7 / 110, -1, 0);
        ensure_hit_is(&hits[2], id[2], sat_hash_seq(h, id[2]), 40.5 / 110, -1, 0);
    }
    /* A quarter the size about (20.5, 20.5): [15.5, 25.5], cells 1..3 of 8, 0..1 of 16. */
    sat_shape_scale(s[0], 0.25);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, id[0], 4, 0, 0, 1, 1);
    ensure_point(h, 35, 20, 1, &id[2]);
    ensure_point(h, 25, 25, 1, &id[0]);
    ENSURE_EQ_INT(step_pairs(h, &pairs), 1);
    /* And back. */
    sat_shape_scale(s[0], 4);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, id[0], 5, 0, 0, 1, 1);
    w[0] = id[0], w[1] = id[2];
    ensure_point(h, 35, 20, 2, w);
    ENSURE_EQ_INT(step_pairs(h, &pairs), 2);
    rm(h, id[0]);
    ensure_point(h, 35, 20, 1, &id[2]);
    ENSURE_EQ_INT(step_pairs(h, &pairs), 0);
done:
    sat_hash_free(h);
    free_shapes(s, 4);
}

/* The most entries in one cell of any level. */
static uint32_t fullest_cell(sat_hash *h)
{
    const sat_hash_cell *cells;
    uint32_t most = 0;
    int level, n, i;
    for (level = 0; level < 1100; level++) {
        n = sat_hash_cells(h, level, &cells);
        ENSURE(n >= 0);
        for (i = 0; i < n; i++)
            if (cells[i].count > most)
                most = cells[i].count;
    }
    return most;
}

/* Far from the origin a shape's padded box grows with the rounding (16 ulps of its
 * distance), and the shape climbs to the level where that box is a cell or two: at 3e15 in
 * cells of 1, circles of radius 1 are filed at level 4 or 5 (cells of 16 or 32, coordinates
 * near 1e14),
 * each in its own cells, far below the 2^50 where coordinates used to clamp (issue 13, #7:
 * every shape beyond about 7e16 shared one cell, so a step tested every pair). */
static void test_hash_far_cells(void)
{
    enum { N = 2000 };
    sat_hash *h = sat_hash_new(1), *g = sat_hash_new(64);
    sat_shape *s[3] = {mk_circle(3e15, 2e15, 1), mk_circle(3e15 + 40, 2e15, 1),
                       mk_circle(-3e15, -2e15, 1)};
    sat_shape *row[N];
    uint32_t id[3], w[2];
    const sat_hash_pair *pairs;
    const sat_hash_hit *hits;
    const uint32_t *ids;
    int64_t x0, y0, x1, y1;
    int i, n, level;
    for (i = 0; i < N; i++)
        row[i] = mk_circle(1e17 + 4096.0 * i, -1e17, 8);
    if (!h || !g || !all_built(s, 3) || !all_built(row, N))
        goto done;
    id[0] = add(h, s[0]);
    id[1] = add(h, s[1]);
    id[2] = add(h, s[2]);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    for (i = 0; i < 3; i++) {
        ENSURE(sat_hash_cells_of(h, id[i], &level, &x0, &y0, &x1, &y1));
        ENSUREF(level == 4 || level == 5, "level %d", level); /* 5 where it straddles */
        ENSURE(fabs((double)x0) < 1125899906842624.0 / 4 && fabs((double)y0) < 1e15);
    }
    ENSURE_EQ_INT((int)fullest_cell(h), 1);
    ensure_point(h, 3e15, 2e15, 1, &id[0]);
    ensure_point(h, 3e15 + 40, 2e15 + 1, 1, &id[1]);
    ensure_point(h, 3e15 + 20, 2e15, 0, NULL);
    ensure_point(h, -3e15, -2e15 - 1, 1, &id[2]);
    ENSURE_EQ_INT(step_pairs(h, &pairs), 0);
    n = sat_hash_query_segment(h, V(3e15 - 16, 2e15), V(3e15 + 48, 2e15), &hits);
    ENSURE_EQ_INT(n, 2);
    if (n == 2) {
        ENSURE(hits[0].handle == id[0] && hits[1].handle == id[1]);
        ENSURE_NEAR(hits[0].hit.t, 15.0 / 64, 1e-15);
        ENSURE_NEAR(hits[1].hit.t, 55.0 / 64, 1e-15);
    }
    sat_shape_move(s[1], -38, 0); /* now 2 apart: touching */
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 1);
    if (n == 1)
        ensure_pair(&pairs[0], id[0], id[1], 0, 1, 0);
    w[0] = id[0], w[1] = id[1];
    ensure_point(h, 3e15 + 1, 2e15, 2, w);

    /* 2000 circles 4096 apart at 1e17 (ulps of 16 there): padded boxes about 370 wide, so
     * each alone in its cells, and no pair. */
    for (i = 0; i < N; i++)
        add(g, row[i]);
    ENSURE_EQ_INT(step_pairs(g, &pairs), 0);
    ENSURE_EQ_INT((int)fullest_cell(g), 1);
    ENSURE_EQ_INT(sat_hash_query_rect(g, 1e17 - 10, -1e17 - 10, 1e17 + 5000, -1e17 + 10, &ids),
                  2);
done:
    sat_hash_free(h);
    sat_hash_free(g);
    free_shapes(s, 3);
    free_shapes(row, N);
}

/* Cells far smaller than the shapes (issue 13, #8: every shape went to a list met by every
 * query, so the step tested every pair): circles of radius 0.5, 2 apart, in cells of 1e-3
 * are filed at level 9 or 10 (cells of 0.512 or 1.024), at most four to a cell, and the
 * step finds their pairs once the rows are pushed together. */
static void test_hash_tiny_cells(void)
{
    enum { N = 1000 };
    sat_hash *h = sat_hash_new(1e-3);
    sat_shape *s[N];
    uint32_t id[N];
    const sat_hash_pair *pairs;
    int64_t x0, y0, x1, y1;
    int i, n, level, ok = 1;
    for (i = 0; i < N; i++)
        s[i] = mk_circle(2.0 * (i % 40), 2.0 * (i / 40), 0.5);
    if (!h || !all_built(s, N))
        goto done;
    for (i = 0; i < N; i++)
        id[i] = add(h, s[i]);
    ENSURE_EQ_INT(step_pairs(h, &pairs), 0);
    for (i = 0; i < N; i++)
        if (!sat_hash_cells_of(h, id[i], &level, &x0, &y0, &x1, &y1) || level < 9 || level > 10)
            ok = 0;
    ENSURE(ok);
    ENSURE(fullest_cell(h) <= 4);
    /* Each row of 40 moved to spacing 1: touching neighbours, 39 pairs a row. */
    for (i = 0; i < N; i++)
        sat_shape_move(s[i], -1.0 * (i % 40), 0);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 39 * (N / 40));
done:
    sat_hash_free(h);
    free_shapes(s, N);
}

/* ---- re-sync after the core's own transforms ----------------------------------------- */

static void test_hash_sync_after_transforms(void)
{
    sat_hash *h = sat_hash_new(10);
    sat_shape *s[4] = {mk_box(1, 1, 3, 3), mk_box(1, 4, 29, 6), mk_circle(55, 55, 2),
                       mk_circle(-45, 5, 1)};
    uint32_t id[4], w[2];
    const sat_hash_pair *pairs;
    const sat_hash_hit *hits;
    int64_t x0, y0, x1, y1;
    int i, n;
    if (!h || !all_built(s, 4))
        goto done;
    for (i = 0; i < 4; i++)
        id[i] = add(h, s[i]);
    ENSURE_EQ_INT(sat_hash_cells_of(h, id[0], &i, &x0, &y0, &x1, &y1), 0); /* not filed yet */
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[0], 0, 0, 0, 0);
    ensure_level(h, id[1], 1, 0, 0, 1, 0); /* 28 wide: 3 cells of 10, 2 of 20 */
    ensure_cells(h, id[2], 5, 5, 5, 5);

    /* Moved within its cell: the same cell range, the queries see the new place. */
    ENSURE_EQ_INT(sat_shape_move(s[0], 4, 4), SAT_OK); /* [5, 7]^2 */
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[0], 0, 0, 0, 0);
    ensure_point(h, 2, 2, 0, NULL);
    ensure_point(h, 6, 6.5, 1, &id[0]);

    /* Moved to another cell: the range is as of the last sync until the next one. */
    ENSURE_EQ_INT(sat_shape_move(s[0], 20, 0), SAT_OK); /* [25, 27] x [5, 7] */
    ensure_cells(h, id[0], 0, 0, 0, 0);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[0], 2, 0, 2, 0);
    ensure_point(h, 6, 6.5, 0, NULL);
    w[0] = id[0], w[1] = id[1];
    ensure_point(h, 26, 5.5, 2, w);
    ENSURE_EQ_INT(sat_shape_move_to(s[0], -15, -15), SAT_OK);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[0], -2, -2, -2, -2);
    ensure_point(h, -15, -15, 1, &id[0]);
    ensure_point(h, 26, 5.5, 1, &id[1]);

    /* Turned a quarter about (15, 5): [14, 16] x [-9, 19]. */
    ENSURE_EQ_INT(sat_shape_set_rotation(s[1], PI / 2), SAT_OK);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, id[1], 1, 0, -1, 0, 0);
    ensure_point(h, 15, 18, 1, &id[1]);
    ensure_point(h, 2, 5, 0, NULL);
    ENSURE_EQ_INT(sat_shape_rotate(s[1], -PI / 2), SAT_OK);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, id[1], 1, 0, 0, 1, 0);
    ensure_point(h, 2, 5, 1, &id[1]);
    ensure_point(h, 15, 18, 0, NULL);

    /* Grown across one cell border only: [10.2, 19.5] scaled by 1.1 about 14.85 is
     * [9.735, 19.965], so the range gains column 0 and keeps column 1 as its last. */
    ENSURE_EQ_INT(sat_shape_move_to(s[0], 14.85, 50), SAT_OK);
    ENSURE_EQ_INT(sat_shape_scale(s[0], 4.65), SAT_OK); /* [10.2, 19.5] x [45.35, 54.65] */
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[0], 1, 4, 1, 5);
    ensure_point(h, 9.8, 50, 0, NULL);
    ENSURE_EQ_INT(sat_shape_scale(s[0], 1.1), SAT_OK);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[0], 0, 4, 1, 5);
    ensure_point(h, 9.8, 50, 1, &id[0]);

    /* Scaled about its centre, then given a radius. */
    ENSURE_EQ_INT(sat_shape_scale(s[2], 5), SAT_OK); /* radius 10 */
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, id[2], 1, 2, 2, 3, 3);
    ensure_point(h, 46, 55, 1, &id[2]);
    ENSURE_EQ_INT(sat_circle_set_radius(s[2], 1), SAT_OK);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_cells(h, id[2], 5, 5, 5, 5);
    ensure_point(h, 46, 55, 0, NULL);

    /* The other queries and the pair pass see a move too: s3 onto the long box's left end. */
    ENSURE_EQ_INT(step_pairs(h, &pairs), 0);
    ENSURE_EQ_INT(sat_shape_move_to(s[3], 2, 7), SAT_OK); /* 1 above the box's top y = 6 */
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 1);
    if (n == 1)
        ensure_pair(&pairs[0], id[1], id[3], 0, 0, 1);
    n = sat_hash_query_segment(h, V(2, 20), V(2, 0), &hits);
    ENSURE_EQ_INT(n, 2);
    if (n == 2) {
        ensure_hit_is(&hits[0], id[3], sat_hash_seq(h, id[3]), 12.0 / 20, 0, 1);
        ensure_hit_is(&hits[1], id[1], sat_hash_seq(h, id[1]), 14.0 / 20, 0, 1);
    }
    /* A failed transform changes nothing, so a sync has nothing to do. */
    ENSURE(sat_shape_move(s[3], NAN, 0) != SAT_OK);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_point(h, 2, 7, 1, &id[3]);
done:
    sat_hash_free(h);
    free_shapes(s, 4);
}

/* A shape may be in two hashes at once; each sees its moves after its own sync. */
static void test_hash_shape_in_two_hashes(void)
{
    sat_hash *a = sat_hash_new(1), *b = sat_hash_new(100);
    sat_shape *s = mk_circle(0, 0, 2.5);
    uint32_t ia, ib;
    if (!a || !b || !s)
        goto done;
    ia = add(a, s);
    ib = add(b, s);
    sat_shape_move(s, 500, -500);
    ENSURE_EQ_INT(sat_hash_sync(a), 0);
    ensure_point(a, 500, -501, 1, &ia);
    ensure_level(a, ia, 2, 124, -126, 125, -125); /* 5 wide: cells of 4 */
    ENSURE_EQ_INT(sat_hash_sync(b), 0);
    ensure_point(b, 501, -500, 1, &ib);
    ensure_cells(b, ib, 4, -6, 5, -5);
    ensure_point(b, 0, 0, 0, NULL);
    rm(a, ia);
    ensure_point(b, 501, -500, 1, &ib);
done:
    sat_hash_free(a);
    sat_hash_free(b);
    sat_shape_free(s);
}

/* ---- change tracking and membership ------------------------------------------------ */

/* Every change the core makes reaches the hash (moves, rotation, scale, radius, filter
 * bits); reads and refused changes do not; a copy is in no hash. */
static void test_hash_sees_every_change(void)
{
    sat_hash *h = sat_hash_new(10);
    sat_shape *s[3] = {mk_box(0, 0, 1, 1), mk_circle(0, 0, 2), mk_circle(0, 0, 100)};
    sat_shape *copy = NULL;
    sat_hash_delta d;
    if (!h || !all_built(s, 3))
        goto done;
    add(h, s[0]);
    add(h, s[1]);
    add(h, s[2]);
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSURE_EQ_INT(d.nadded, 3);
    ensure_delta(h, 0, 0, "nothing changed");
    ENSURE_EQ_INT(sat_shape_move_to(s[0], 1, 1), SAT_OK);
    ensure_delta(h, 2, 0, "move_to"); /* the box with the circle and with the probe */
    ENSURE_EQ_INT(sat_shape_move(s[0], 0.5, 0), SAT_OK);
    ensure_delta(h, 2, 0, "move");
    ENSURE_EQ_INT(sat_shape_set_rotation(s[0], 1), SAT_OK);
    ensure_delta(h, 2, 0, "set_rotation");
    ENSURE_EQ_INT(sat_shape_rotate(s[0], 1), SAT_OK);
    ensure_delta(h, 2, 0, "rotate");
    ENSURE_EQ_INT(sat_shape_scale(s[0], 2), SAT_OK);
    ensure_delta(h, 2, 0, "scale");
    ENSURE_EQ_INT(sat_circle_set_radius(s[1], 3), SAT_OK);
    ensure_delta(h, 2, 0, "set_radius");
    sat_shape_set_filter(s[1], 2, 2); /* meets neither the box nor the probe any more */
    ensure_delta(h, 0, 2, "set_filter");
    (void)sat_shape_position(s[0]);
    (void)sat_shape_bbox(s[0]);
    (void)sat_shape_area(s[0]);
    (void)sat_shape_contains(s[0], 0, 0);
    ENSURE(sat_shape_move(s[0], NAN, 0) != SAT_OK);
    ENSURE(sat_shape_scale(s[0], -1) != SAT_OK);
    ensure_delta(h, 0, 0, "reads and refused changes");
    copy = sat_shape_clone(s[0]);
    ENSURE(copy != NULL && copy->members == NULL);
    if (copy)
        sat_shape_move(copy, 5, 5);
    ensure_delta(h, 0, 0, "a copy moved");
done:
    sat_hash_free(h);
    free_shapes(s, 3);
    sat_shape_free(copy);
}

/* A shape in two hashes, removed and added again, and outliving a hash that held it: each
 * hash sees its changes, and none is left pointing at another (ASan and valgrind watch). */
static void test_hash_membership(void)
{
    sat_hash *a = sat_hash_new(1), *b = sat_hash_new(100), *c = sat_hash_new(5);
    sat_shape *s = mk_circle(0, 0, 2.5), *probe = mk_circle(0, 0, 1000);
    uint32_t ia, ib, ic, again, want;
    const sat_hash_pair *pairs;
    if (!a || !b || !c || !s || !probe)
        goto done;
    ia = add(a, s);
    ib = add(b, s);
    ic = add(c, s);
    add(a, probe);
    add(b, probe);
    ENSURE(sat_hash_find(a, s) == ia && sat_hash_find(b, s) == ib && sat_hash_find(c, s) == ic);
    ENSURE(sat_hash_find(c, probe) == NONE);
    step_pairs(a, &pairs);
    step_pairs(b, &pairs);
    sat_shape_move(s, 3, 0);
    ensure_delta(a, 1, 0, "a sees the move");
    ensure_delta(b, 1, 0, "b sees the move");
    /* Out of the middle one's list, then back in at its head: a new handle may come. */
    rm(b, ib);
    ENSURE(sat_hash_find(b, s) == NONE && sat_hash_find(a, s) == ia && sat_hash_find(c, s) == ic);
    ENSURE_EQ_INT(sat_hash_reserve(b, &want), 0);
    again = add(b, s);
    ENSURE(again == want);
    ENSURE(sat_hash_find(b, s) == again);
    ensure_point(b, 3, 0, 2, (uint32_t[]){sat_hash_find(b, probe), again});
    /* Freed while the shape lives: the other hashes still see it, the freed one is gone from
     * its list. */
    sat_hash_free(a);
    a = NULL;
    sat_shape_move(s, 1, 0);
    ENSURE(sat_hash_find(b, s) == again && sat_hash_find(c, s) == ic);
    ENSURE_EQ_INT(sat_hash_sync(b), 0);
    ensure_point(c, 4, 2, 1, &ic);
    sat_hash_free(b);
    b = NULL;
    sat_hash_free(c);
    c = NULL;
    ENSURE(s->members == NULL);
    ENSURE_EQ_INT(sat_shape_move(s, 1, 0), SAT_OK); /* told to no one */
done:
    sat_hash_free(a);
    sat_hash_free(b);
    sat_hash_free(c);
    sat_shape_free(s);
    sat_shape_free(probe);
}

void run_hash_tests(void)
{
    RUN_TEST(test_hash_new_and_cell_sizes);
    RUN_TEST(test_hash_extreme_cells);
    RUN_TEST(test_hash_insert_remove_handles);
    RUN_TEST(test_hash_many_removals);
    RUN_TEST(test_hash_cells_negative_and_far);
    RUN_TEST(test_hash_shape_over_many_cells);
    RUN_TEST(test_hash_levels);
    RUN_TEST(test_hash_far_cells);
    RUN_TEST(test_hash_tiny_cells);
    RUN_TEST(test_hash_sync_after_transforms);
    RUN_TEST(test_hash_shape_in_two_hashes);
    RUN_TEST(test_hash_sees_every_change);
    RUN_TEST(test_hash_membership);
    run_hash_query_tests();
    run_hash_step_tests();
    run_hash_random_tests();
    free(step_buf);
    step_buf = NULL;
    step_cap = 0;
}
