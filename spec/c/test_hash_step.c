/*
 * test_hash_step.c - the spatial hash's contacts and step (sat_hash_step.c): static entries,
 * what a step tells (added, updated, ended, dropped), and the pair pass: touching within the
 * core's tolerance, a pair sharing many cells, the order of the contacts and the categories.
 * Helpers: test_hash.h.
 */
#include <stdint.h>

#include "test_hash.h"

/* ---- static entries and the step's deltas -------------------------------------------- */

/* Static entries never pair with each other, in the step, in collisions and in sweeps from
 * a static one; they pair with everything else, and a static one moved is re-tested
 * against the others only. Queries see them as any shape. */
static void test_hash_static(void)
{
    sat_hash *h = sat_hash_new(10);
    sat_shape *s[4] = {mk_box(0, 0, 10, 10), mk_box(10, 0, 20, 10), mk_box(20, 0, 30, 10),
                       mk_circle(15, 5, 1)};
    uint32_t id[4], w[3];
    const sat_hash_pair *pairs;
    const sat_hash_sweep_hit *sweeps;
    const uint32_t *ids;
    sat_hash_delta d;
    int i, n;
    if (!h || !all_built(s, 4))
        goto done;
    for (i = 0; i < 3; i++)
        ENSURE_EQ_INT(sat_hash_insert(h, s[i], SAT_HASH_STATIC, &id[i]), 0);
    id[3] = add(h, s[3]);
    ENSURE(sat_hash_is_static(h, id[0]) && !sat_hash_is_static(h, id[3]));
    n = step_pairs(h, &pairs); /* touching tiles: no pair; the circle inside s1 */
    ENSURE_EQ_INT(n, 1);
    if (n == 1)
        ENSURE(pairs[0].a == id[1] && pairs[0].b == id[3]);
    ENSURE_EQ_INT(sat_hash_collisions(h, s[1], id[1], 1, &pairs), 1);
    /* not as itself (so meeting itself too) */
    ENSURE_EQ_INT(sat_hash_collisions(h, s[1], NONE, 1, &pairs), 4);
    n = sat_hash_sweep(h, s[0], id[0], V(5, 0), 1, &sweeps); /* into the circle, not s1 */
    ENSURE(n == 1 && sweeps[0].handle == id[3]);
    ENSURE_EQ_INT(sat_hash_sweep(h, s[3], id[3], V(10, 0), 1, &sweeps), 2);
    w[0] = id[0], w[1] = id[1];
    n = sat_hash_query_point(h, 10, 5, &ids);
    ENSURE_IDS("statics in queries", n, ids, 2, w);
    /* A static moved onto another static and onto the circle: one new pair. */
    sat_shape_move(s[2], -14, 0);
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSURE(d.nadded == 1 && d.nupdated == 0 && d.nended == 0);
    if (d.nadded == 1)
        ENSURE(sat_hash_contact_of(h, d.added[0])->a == id[2] &&
               sat_hash_contact_of(h, d.added[0])->b == id[3]);
    n = sat_hash_collisions(h, s[3], id[3], 1, &pairs);
    ENSURE_EQ_INT(n, 2);
done:
    sat_hash_free(h);
    free_shapes(s, 4);
}

/* What a step tells: a contact added once, re-tested only when one of its shapes changed
 * (its result then updated), ended when it stops, dropped when a shape leaves; an unchanged
 * pair keeps its result while a third shape moves around it. */
static void test_hash_step_deltas(void)
{
    sat_hash *h = sat_hash_new(10);
    sat_shape *s[3] = {mk_circle(0, 0, 2), mk_circle(3, 0, 2), mk_circle(100, 0, 1)};
    uint32_t id[3], k;
    const uint32_t *dropped;
    const sat_hash_contact *c;
    sat_hash_delta d;
    if (!h || !all_built(s, 3))
        goto done;
    for (k = 0; k < 3; k++)
        id[k] = add(h, s[k]);
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSURE(d.nadded == 1 && d.nupdated == 0 && d.nended == 0);
    if (d.nadded != 1)
        goto done;
    k = d.added[0];
    c = sat_hash_contact_of(h, k);
    ENSURE(c && c->a == id[0] && c->b == id[1]);
    ENSURE_NEAR(c->result.overlap, 1, 1e-12);
    ensure_delta(h, 0, 0, "still");
    sat_shape_move(s[2], -90, 5); /* the third comes near, meets neither */
    ensure_delta(h, 0, 0, "a third moved");
    ENSURE_NEAR(sat_hash_contact_of(h, k)->result.overlap, 1, 1e-12);
    sat_shape_move(s[1], 0.5, 0);
    ensure_delta(h, 1, 0, "b moved");
    ENSURE(sat_hash_contact_of(h, k) == c);
    ENSURE_NEAR(c->result.overlap, 0.5, 1e-12);
    sat_shape_move(s[0], -5, 0);
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSURE(d.nended == 1 && d.nadded == 0 && d.nupdated == 0 && d.ended[0] == k);
    ENSURE(sat_hash_contact_of(h, k) == NULL);
    sat_shape_move(s[0], 5, 0);
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSURE(d.nadded == 1 && d.nended == 0);
    k = d.nadded == 1 ? d.added[0] : NONE;
    /* Removing a shape drops its contacts, told by id. */
    ENSURE_EQ_INT(sat_hash_remove(h, id[1], &dropped), 1);
    ENSURE(dropped[0] == k && sat_hash_contact_of(h, k) == NULL);
    ensure_delta(h, 0, 0, "after the removal");
    /* Added and removed between two steps: no one heard of its contact. */
    id[1] = add(h, s[1]);
    ENSURE_EQ_INT(sat_hash_remove(h, id[1], &dropped), 0);
    ensure_delta(h, 0, 0, "added and removed");
done:
    sat_hash_free(h);
    free_shapes(s, 3);
}

/* Removed entries that changed since the last step stay listed (in the dirty and the
 * changed lists) as free slots until a sync and a step skip them; several such slots at
 * once, and new entries taking them back, leave every contact right. */
static void test_hash_step_after_removals(void)
{
    sat_hash *h = sat_hash_new(10);
    /* a chain: each circle overlaps the next */
    sat_shape *s[6] = {mk_circle(0, 0, 2),  mk_circle(3, 0, 2),   mk_circle(6, 0, 2),
                       mk_circle(9, 0, 2),  mk_circle(12, 0, 2),  mk_circle(1.5, 3, 2)};
    uint32_t id[6], k;
    const uint32_t *dropped, *ids;
    sat_hash_delta d;
    if (!h || !all_built(s, 6))
        goto done;
    for (k = 0; k < 5; k++)
        id[k] = add(h, s[k]);
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSURE_EQ_INT(d.nadded, 4);
    /* C and D changed and re-filed (listed as changed), E changed only (listed as dirty) */
    sat_shape_move(s[2], 0.25, 0);
    sat_shape_move(s[3], 0.25, 0);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    sat_shape_move(s[4], 0.25, 0);
    ENSURE_EQ_INT(sat_hash_remove(h, id[2], &dropped), 2);
    ENSURE_EQ_INT(sat_hash_remove(h, id[3], &dropped), 1);
    ENSURE_EQ_INT(sat_hash_remove(h, id[4], &dropped), 0);
    ensure_delta(h, 0, 0, "three removed");
    ENSURE_EQ_INT(sat_hash_contacts(h, &ids), 1); /* A-B only */
    /* two new entries take the free slots back: F meets A and B, D again meets nothing */
    sat_shape_move(s[3], 100, 0);
    k = id[3];
    id[5] = add(h, s[5]);
    id[3] = add(h, s[3]);
    ENSURE(id[5] == id[4] && id[3] == k); /* (the last freed first) */
    ENSURE_EQ_INT(sat_hash_step(h, &d), 0);
    ENSUREF(d.nadded == 2 && d.nended == 0, "new ones: added %d, ended %d", d.nadded,
            d.nended);
    ENSURE_EQ_INT(sat_hash_contacts(h, &ids), 3);
    ENSURE_EQ_INT(sat_hash_count(h), 4);
    ENSURE_EQ_INT(sat_hash_handles(h, &ids), 4);
    ENSURE(ids[0] == id[0] && ids[1] == id[1] && ids[2] == id[5] && ids[3] == id[3]);
done:
    sat_hash_free(h);
    free_shapes(s, 6);
}

/* ---- the pair pass ------------------------------------------------------------------- */

/* The core calls a gap within its touch tolerance (1e-12 of the pair's size) touching; the
 * hash must too, although the two bounding boxes do not meet. */
static void test_hash_touching_within_tolerance(void)
{
    sat_hash *h = sat_hash_new(10);
    sat_shape *s[2] = {mk_box(0, 0, 10, 10), mk_box(10 + 1e-12, 0, 20, 10)};
    uint32_t id[2];
    const uint32_t *ids;
    const sat_hash_pair *pairs;
    int n;
    if (!h || !all_built(s, 2))
        goto done;
    ENSURE(sat_test(s[0], s[1]) == 1);
    ENSURE(sat_shape_bbox(s[0]).x2 < sat_shape_bbox(s[1]).x1);
    id[0] = add(h, s[0]);
    id[1] = add(h, s[1]);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 1);
    if (n == 1)
        ensure_pair(&pairs[0], id[0], id[1], 0, 1, 0);
    n = sat_hash_query_shape(h, s[0], id[0], &ids);
    ENSURE_IDS("touching", n, ids, 1, &id[1]);
    n = sat_hash_query_shape(h, s[1], id[1], &ids);
    ENSURE_IDS("touching", n, ids, 1, &id[0]);
    n = sat_hash_collisions(h, s[1], id[1], 1, &pairs);
    ENSURE_EQ_INT(n, 1);
    if (n == 1)
        ensure_pair(&pairs[0], id[1], id[0], 0, -1, 0);
done:
    sat_hash_free(h);
    free_shapes(s, 2);
}

/* Two boxes sharing all four of their cells (level 4, cells of 16): one pair. */
static void test_hash_step_pair_sharing_many_cells(void)
{
    sat_hash *h = sat_hash_new(1);
    sat_shape *s[2] = {mk_box(0.5, 0.5, 20.5, 20.5), mk_box(10.5, 5.5, 30.5, 25.5)};
    uint32_t id[2];
    const sat_hash_pair *pairs;
    int n;
    if (!h || !all_built(s, 2))
        goto done;
    id[0] = add(h, s[0]);
    id[1] = add(h, s[1]);
    ENSURE_EQ_INT(sat_hash_sync(h), 0);
    ensure_level(h, id[0], 4, 0, 0, 1, 1);
    ensure_level(h, id[1], 4, 0, 0, 1, 1);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 1);
    if (n == 1) {
        ensure_pair(&pairs[0], id[0], id[1], 10, 1, 0);
        ENSURE(pairs[0].seq_a == sat_hash_seq(h, id[0]));
        ENSURE(pairs[0].seq_b == sat_hash_seq(h, id[1]));
    }
done:
    sat_hash_free(h);
    free_shapes(s, 2);
}

/* Four boxes in a row, each 2 into the next, inserted out of order: pairs sorted by
 * insertion (a inserted before b), results from a toward b, categories and masks applied. */
static void test_hash_step_order_and_filter(void)
{
    sat_hash *h = sat_hash_new(10);
    sat_shape *p[4] = {mk_box(0, 0, 12, 10), mk_box(10, 0, 22, 10), mk_box(20, 0, 32, 10),
                       mk_box(30, 0, 42, 10)};
    uint32_t id[4];
    const sat_hash_pair *pairs;
    int n;
    if (!h || !all_built(p, 4))
        goto done;
    id[2] = add(h, p[2]);
    id[0] = add(h, p[0]);
    id[3] = add(h, p[3]);
    id[1] = add(h, p[1]);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 3);
    if (n == 3) {
        ensure_pair(&pairs[0], id[2], id[3], 2, 1, 0);
        ensure_pair(&pairs[1], id[2], id[1], 2, -1, 0);
        ensure_pair(&pairs[2], id[0], id[1], 2, 1, 0);
    }
    /* p2 again, now the last inserted: its pairs turn around. */
    rm(h, id[2]);
    id[2] = add(h, p[2]);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 3);
    if (n == 3) {
        ensure_pair(&pairs[0], id[0], id[1], 2, 1, 0);
        ensure_pair(&pairs[1], id[3], id[2], 2, -1, 0);
        ensure_pair(&pairs[2], id[1], id[2], 2, 1, 0);
    }
    /* p1 in category 4, which p0 refuses; p2 accepts only 4, so p3 (category 1) is out. */
    sat_shape_set_filter(p[1], 4, p[1]->mask);
    sat_shape_set_filter(p[0], p[0]->category, ~4u);
    sat_shape_set_filter(p[2], p[2]->category, 4);
    n = step_pairs(h, &pairs);
    ENSURE_EQ_INT(n, 1);
    if (n == 1)
        ensure_pair(&pairs[0], id[1], id[2], 2, 1, 0);
    sat_shape_set_filter(p[0], p[0]->category, 0xffffffffu);
    sat_shape_set_filter(p[2], p[2]->category, 0xffffffffu);
    ENSURE_EQ_INT(step_pairs(h, &pairs), 3);
done:
    sat_hash_free(h);
    free_shapes(p, 4);
}

void run_hash_step_tests(void)
{
    RUN_TEST(test_hash_static);
    RUN_TEST(test_hash_step_deltas);
    RUN_TEST(test_hash_step_after_removals);
    RUN_TEST(test_hash_touching_within_tolerance);
    RUN_TEST(test_hash_step_pair_sharing_many_cells);
    RUN_TEST(test_hash_step_order_and_filter);
}
