/*
 * test_parts.c - which part of a compound a contact is with, and the points of swept hits:
 * sat_hit.part (raycasts), sat_sweep_hit.part_a / part_b (sweeps), sat_collide_parts, and
 * sat_sweep_point against sat_sweep_contact; and the hash's SAT_HASH_EVERY filter (the
 * queries' view: no categories, static shapes meeting static ones).
 *
 * The parts expected are found independently: by placing the shapes so that one part alone
 * is in reach (its index read back with sat_shape_contains on sat_compound_part), and, on
 * random pairs, by testing every part pair with sat_collide, with no box check.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "oracle.h"
#include "sat_hash.h"

#define V orc_v

static double uniform(ctest_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(ctest_next(r) >> 11) / 9007199254740992.0);
}

static sat_shape *box(double x1, double y1, double x2, double y2)
{
    sat_vec p[4] = {{x1, y1}, {x2, y1}, {x2, y2}, {x1, y2}};
    return sat_polygon_new(p, 4, NULL);
}

/* The index of the part of compound c containing (x, y), or -1 (the first such part). */
static int part_at(const sat_shape *c, double x, double y)
{
    for (int i = 0; i < c->count; i++)
        if (sat_shape_contains(sat_compound_part(c, i), x, y))
            return i;
    return -1;
}

/* A staircase of segments: (0, 0) (10, 0) (10, -10) (20, -10) (20, -20) ... (y up). */
static sat_shape *stairs(int steps)
{
    sat_vec p[32];
    int n = 0;
    for (int i = 0; i < steps; i++) {
        p[n++] = V(10.0 * i, -10.0 * i);
        p[n++] = V(10.0 * (i + 1), -10.0 * i);
    }
    return sat_chain_new(p, n, 0, NULL);
}

static void test_raycast_part(void)
{
    sat_shape *ch = stairs(4), *b = box(0, 0, 4, 4);
    sat_vec l[] = {{0, 0}, {30, 0}, {30, 10}, {20, 10}, {20, 30}, {0, 30}}; /* an L, y up */
    sat_shape *ell = sat_concave_new(l, 6, NULL);
    sat_hit hit;
    if (!ch || !b || !ell)
        goto done;
    /* straight down onto the tread of step k: the part of the segment under (x, ...) */
    for (int k = 0; k < 4; k++) {
        double x = 10.0 * k + 5.0;
        memset(&hit, 0x5a, sizeof hit);
        ENSURE(sat_shape_raycast(ch, V(x, 50), V(x, -100), &hit));
        ENSURE_NEAR(hit.normal.y, 1.0, 1e-12);
        ENSURE_EQ_INT(hit.part, part_at(ch, x, -10.0 * k));
    }
    /* a polygon is no compound */
    memset(&hit, 0x5a, sizeof hit);
    ENSURE(sat_shape_raycast(b, V(-5, 2), V(10, 2), &hit));
    ENSURE_EQ_INT(hit.part, -1);
    /* into the L's upright from the left at y 20, its foot from above at x 25 */
    ENSURE(sat_shape_raycast(ell, V(-10, 20), V(40, 20), &hit));
    ENSURE_EQ_INT(hit.part, part_at(ell, 1, 20));
    ENSURE(sat_shape_raycast(ell, V(25, 40), V(25, -5), &hit));
    ENSURE_EQ_INT(hit.part, part_at(ell, 25, 9));
    ENSURE(part_at(ell, 1, 20) != part_at(ell, 25, 9));
done:
    sat_shape_free(ch);
    sat_shape_free(b);
    sat_shape_free(ell);
}

/* A capsule hit on a round end (its cap: a disk's hit) and on its side, and a circle: no
 * compound, part -1 whatever the hit held before (the cap's hit once copied a part never
 * set). */
static void test_raycast_part_rounds(void)
{
    sat_shape *k = sat_capsule_new(0, 0, 10, 0, 1, NULL), *c = sat_circle_new(0, 0, 2, NULL);
    sat_hit hit;
    if (!k || !c)
        goto done;
    memset(&hit, 0x5a, sizeof hit);
    ENSURE(sat_shape_raycast(k, V(-5, 0), V(20, 0), &hit)); /* the left cap, head on */
    ENSURE_NEAR(hit.normal.x, -1.0, 1e-12);
    ENSURE_NEAR(hit.t, 4.0 / 25.0, 1e-12);
    ENSURE_EQ_INT(hit.part, -1);
    memset(&hit, 0x5a, sizeof hit);
    ENSURE(sat_shape_raycast(k, V(5, 5), V(5, -5), &hit)); /* the side, from above */
    ENSURE_NEAR(hit.normal.y, 1.0, 1e-12);
    ENSURE_EQ_INT(hit.part, -1);
    memset(&hit, 0x5a, sizeof hit);
    ENSURE(sat_shape_raycast(c, V(-5, 0), V(5, 0), &hit));
    ENSURE_EQ_INT(hit.part, -1);
done:
    sat_shape_free(k);
    sat_shape_free(c);
}

static void test_sweep_parts(void)
{
    sat_shape *ch = stairs(5), *b = box(21, 5, 27, 9), *c = sat_circle_new(0, 0, 1, NULL);
    sat_shape *floor = box(-100, -2, 100, 0), *twin = NULL;
    sat_sweep_hit hit;
    if (!ch || !b || !c || !floor)
        goto done;
    /* a box above the third tread (x 21..27) falls onto it: part 2's segment, (20, -20) to
     * (30, -20) */
    memset(&hit, 0x5a, sizeof hit);
    ENSURE(sat_sweep(b, V(0, -40), ch, &hit));
    ENSURE_EQ_INT(hit.overlapping, 0);
    ENSURE_NEAR(hit.move.y, -25.0, 1e-12);
    ENSURE_EQ_INT(hit.part_a, -1);
    ENSURE_EQ_INT(hit.part_b, part_at(ch, 24, -20));
    /* either way round: the chain moving up onto the box */
    ENSURE(sat_sweep(ch, V(0, 40), b, &hit));
    ENSURE_EQ_INT(hit.part_a, part_at(ch, 24, -20));
    ENSURE_EQ_INT(hit.part_b, -1);
    /* no compound: both -1 */
    ENSURE(sat_sweep(c, V(0, -10), floor, &hit));
    ENSURE_EQ_INT(hit.part_a, -1);
    ENSURE_EQ_INT(hit.part_b, -1);
    /* a compound of two circles falling onto the floor: its lower circle (part 1) lands */
    {
        sat_shape *p0 = sat_circle_new(0, 20, 2, NULL), *p1 = sat_circle_new(3, 10, 2, NULL);
        const sat_shape *parts[2];
        parts[0] = p0, parts[1] = p1;
        twin = p0 && p1 ? sat_compound_new(parts, 2, NULL) : NULL;
        sat_shape_free(p0);
        sat_shape_free(p1);
        if (!twin)
            goto done;
        ENSURE(sat_sweep(twin, V(0, -30), floor, &hit));
        ENSURE_NEAR(hit.move.y, -8.0, 1e-12);
        ENSURE_EQ_INT(hit.part_a, part_at(twin, 3, 10));
        ENSURE_EQ_INT(hit.part_b, -1);
        /* overlapping at the start: the union's result, its part from sat_collide_parts */
        sat_shape_move(twin, 0, -9);
        ENSURE(sat_sweep(twin, V(5, 0), floor, &hit));
        ENSURE_EQ_INT(hit.overlapping, 1);
        ENSURE_EQ_INT(hit.part_a, part_at(twin, 3, 1));
        ENSURE_EQ_INT(hit.part_b, -1);
    }
done:
    sat_shape_free(ch);
    sat_shape_free(b);
    sat_shape_free(c);
    sat_shape_free(floor);
    sat_shape_free(twin);
}

static void test_collide_parts_placed(void)
{
    sat_vec l[] = {{0, 0}, {30, 0}, {30, 10}, {20, 10}, {20, 30}, {0, 30}};
    sat_shape *ell = sat_concave_new(l, 6, NULL), *floor2 = NULL;
    sat_shape *probe = box(24, 8, 28, 12), *wall = box(-3, 20, 1, 24), *seam = box(8, 8, 12, 12);
    sat_shape *a = box(0, 0, 10, 10), *b = box(10, 0, 20, 10);
    sat_result r;
    int pa, pb;
    if (!ell || !probe || !wall || !seam || !a || !b)
        goto done;
    /* pressed 2 into the foot from above: the foot */
    ENSURE(sat_collide(probe, ell, &r));
    ENSURE(sat_collide_parts(probe, ell, &r, &pa, &pb));
    ENSURE_EQ_INT(pa, -1);
    ENSURE_EQ_INT(pb, part_at(ell, 25, 9));
    /* either way round */
    ENSURE(sat_collide(ell, probe, &r));
    ENSURE(sat_collide_parts(ell, probe, &r, &pa, &pb));
    ENSURE_EQ_INT(pa, part_at(ell, 25, 9));
    ENSURE_EQ_INT(pb, -1);
    /* into the upright from the left */
    ENSURE(sat_collide(wall, ell, &r));
    ENSURE(sat_collide_parts(wall, ell, &r, &pa, &pb));
    ENSURE_EQ_INT(pb, part_at(ell, 1, 22));
    /* no compound: -1 and -1 */
    ENSURE(sat_collide(a, b, &r));
    ENSURE(sat_collide_parts(a, b, &r, &pa, &pb));
    ENSURE_EQ_INT(pa, -1);
    ENSURE_EQ_INT(pb, -1);
    /* a floor of two boxes side by side and a box pressed into the seam: both parts are as
     * deep along the same normal, so the first */
    {
        const sat_shape *parts[2];
        parts[0] = a, parts[1] = b;
        floor2 = sat_compound_new(parts, 2, NULL);
        if (!floor2)
            goto done;
        ENSURE(sat_collide(seam, floor2, &r));
        ENSURE_NEAR(r.normal.y, -1.0, 1e-12);
        ENSURE(sat_collide_parts(seam, floor2, &r, &pa, &pb));
        ENSURE_EQ_INT(pb, 0);
        /* moved right a little: deeper into part 1? no, equally deep (2 down) but the same
         * normal: still the first; moved past the seam: the second alone */
        sat_shape_move(seam, 5, 0);
        ENSURE(sat_collide(seam, floor2, &r));
        ENSURE(sat_collide_parts(seam, floor2, &r, &pa, &pb));
        ENSURE_EQ_INT(pb, 1);
        /* not colliding at all: 0, both -1 */
        sat_shape_move(seam, 0, 50);
        ENSURE_EQ_INT(sat_collide_parts(seam, floor2, &r, &pa, &pb), 0);
        ENSURE_EQ_INT(pa, -1);
        ENSURE_EQ_INT(pb, -1);
    }
done:
    sat_shape_free(ell);
    sat_shape_free(probe);
    sat_shape_free(wall);
    sat_shape_free(seam);
    sat_shape_free(a);
    sat_shape_free(b);
    sat_shape_free(floor2);
}

/* A random shape of any kind about (x, y), of size about r; compounds of 2 to 5 parts. */
static sat_shape *random_shape(ctest_rng *g, int kind, double x, double y, double r)
{
    switch (kind) {
    case 0:
        return box(x - r, y - r * 0.6, x + r, y + r * 0.6);
    case 1:
        return sat_circle_new(x, y, r, NULL);
    case 2: {
        double a = uniform(g, 0, 6.28);
        return sat_capsule_new(x - r * cos(a), y - r * sin(a), x + r * cos(a), y + r * sin(a),
                               r * 0.3, NULL);
    }
    case 3: {
        double a = uniform(g, 0, 6.28);
        return sat_segment_new(x - r * cos(a), y - r * sin(a), x + r * cos(a), y + r * sin(a),
                               NULL);
    }
    case 4: { /* a zigzag chain */
        sat_vec p[6];
        for (int i = 0; i < 6; i++)
            p[i] = V(x - r + 0.4 * r * i, y + (i % 2 ? 0.5 : -0.5) * r);
        return sat_chain_new(p, 6, 0, NULL);
    }
    case 5: { /* a comb, concave */
        sat_vec p[] = {{x - r, y - r},       {x + r, y - r},       {x + r, y + r},
                       {x + 0.6 * r, y + r}, {x + 0.6 * r, y},     {x + 0.2 * r, y},
                       {x + 0.2 * r, y + r}, {x - 0.2 * r, y + r}, {x - 0.2 * r, y},
                       {x - 0.6 * r, y},     {x - 0.6 * r, y + r}, {x - r, y + r}};
        return sat_concave_new(p, 12, NULL);
    }
    default: { /* a union of a box, a circle and a capsule */
        sat_shape *p[3];
        const sat_shape *cp[3];
        sat_shape *s;
        p[0] = box(x - r, y - r * 0.3, x, y + r * 0.3);
        p[1] = sat_circle_new(x + r * 0.5, y, r * 0.5, NULL);
        p[2] = sat_capsule_new(x, y - r, x + r, y - r * 0.5, r * 0.2, NULL);
        for (int i = 0; i < 3; i++)
            cp[i] = p[i];
        s = p[0] && p[1] && p[2] ? sat_compound_new(cp, 3, NULL) : NULL;
        for (int i = 0; i < 3; i++)
            sat_shape_free(p[i]);
        return s;
    }
    }
}

/* Random pairs with a compound: the parts named collide, and no colliding part pair (every
 * pair tested, no box check) has a normal nearer the union's beyond the ties' margin; random
 * sweeps: the point is sat_sweep_contact's, bit for bit, and the parts of a hit on the way
 * are a pair that, swept alone, touches at the same time. */
static void test_parts_random(void)
{
    ctest_rng g = {2027};
    long named = 0, swept = 0, points = 0;
    for (int k = 0; k < 20000; k++) {
        int ka = (int)(ctest_next(&g) % 7), kb = 4 + (int)(ctest_next(&g) % 3);
        double ra = uniform(&g, 2, 8), rb = uniform(&g, 4, 12);
        double far = (k % 5 == 0) ? 1e7 : 0.0;
        sat_shape *a = random_shape(&g, ka, far + uniform(&g, -12, 12), uniform(&g, -12, 12), ra);
        sat_shape *b = random_shape(&g, kb, far, 0, rb);
        sat_result r;
        sat_sweep_hit h1, h2;
        sat_vec p1, p2, va, vb;
        int pa, pb;
        if (!a || !b) {
            ENSURE(a && b);
            sat_shape_free(a);
            sat_shape_free(b);
            continue;
        }
        if (k % 2)
            sat_shape_rotate(b, uniform(&g, -3, 3));
        if (k % 2 == 0) { /* either order */
            sat_shape *t = a;
            a = b;
            b = t;
        }
        if (sat_collide(a, b, &r)) {
            double best = -2.0;
            int ok = sat_collide_parts(a, b, &r, &pa, &pb);
            ENSURE(ok);
            ENSURE((a->kind == SAT_COMPOUND) == (pa >= 0));
            ENSURE((b->kind == SAT_COMPOUND) == (pb >= 0));
            if (ok) {
                const sat_shape *x = a->kind == SAT_COMPOUND ? sat_compound_part(a, pa) : a;
                const sat_shape *y = b->kind == SAT_COMPOUND ? sat_compound_part(b, pb) : b;
                sat_result rr;
                ENSURE(sat_collide(x, y, &rr));
                for (int i = 0; i < (a->kind == SAT_COMPOUND ? a->count : 1); i++)
                    for (int j = 0; j < (b->kind == SAT_COMPOUND ? b->count : 1); j++) {
                        const sat_shape *u = a->kind == SAT_COMPOUND ? sat_compound_part(a, i) : a;
                        const sat_shape *w = b->kind == SAT_COMPOUND ? sat_compound_part(b, j) : b;
                        sat_result q;
                        if (sat_collide(u, w, &q)) {
                            double d = q.normal.x * r.normal.x + q.normal.y * r.normal.y;
                            if (d > best)
                                best = d;
                        }
                    }
                ENSUREF(rr.normal.x * r.normal.x + rr.normal.y * r.normal.y >= best - 1e-7,
                        "pair %d: part normal %.17g below the best %.17g", k,
                        rr.normal.x * r.normal.x + rr.normal.y * r.normal.y, best);
                named++;
            }
        }
        va = V(uniform(&g, -30, 30), uniform(&g, -30, 30));
        vb = (k % 3 == 0) ? V(uniform(&g, -10, 10), uniform(&g, -10, 10)) : V(0, 0);
        memset(&h1, 0x5a, sizeof h1);
        memset(&h2, 0x5a, sizeof h2);
        int got1 = sat_sweep_contact(a, va, b, vb, &h1, &p1);
        int got2 = sat_sweep(a, V(va.x - vb.x, va.y - vb.y), b, &h2);
        ENSURE_EQ_INT(got1, got2);
        if (got1 && got2) {
            sat_sweep_point(a, va, b, vb, &h2, &p2);
            ENSUREF(memcmp(&p1, &p2, sizeof p1) == 0, "pair %d: %.17g %.17g vs %.17g %.17g", k,
                    p1.x, p1.y, p2.x, p2.y);
            ENSURE(h1.t == h2.t && h1.part_a == h2.part_a && h1.part_b == h2.part_b);
            points++;
            if (!h2.overlapping && (a->kind == SAT_COMPOUND || b->kind == SAT_COMPOUND)) {
                const sat_shape *x = a->kind == SAT_COMPOUND ? sat_compound_part(a, h2.part_a) : a;
                const sat_shape *y = b->kind == SAT_COMPOUND ? sat_compound_part(b, h2.part_b) : b;
                sat_sweep_hit h3;
                ENSURE(sat_sweep(x, V(va.x - vb.x, va.y - vb.y), y, &h3));
                ENSURE(h3.overlapping ? h2.t == 0.0 : h3.t == h2.t);
                swept++;
            }
        }
        sat_shape_free(a);
        sat_shape_free(b);
    }
    ENSUREF(named > 3000 && swept > 1000 && points > 5000, "named %ld, swept %ld, points %ld",
            named, swept, points);
}

/* SAT_HASH_EVERY: the queries' view of a sweep and of collisions. */
static void test_hash_every(void)
{
    sat_hash *h = sat_hash_new(16);
    sat_shape *wall = box(10, -5, 12, 5), *floor = box(-20, -8, 20, -5);
    sat_shape *mover = box(-2, -2, 2, 2), *ghost = box(100, 100, 104, 104);
    const sat_hash_sweep_hit *hits;
    const sat_hash_pair *pairs;
    uint32_t hw, hf, hm;
    if (!h || !wall || !floor || !mover || !ghost)
        goto done;
    sat_shape_set_filter(wall, 2, 2); /* the wall and the mover refuse each other */
    if (sat_hash_insert(h, wall, SAT_HASH_STATIC, &hw) ||
        sat_hash_insert(h, floor, SAT_HASH_STATIC, &hf) ||
        sat_hash_insert(h, mover, SAT_HASH_STATIC, &hm))
        goto done;
    /* a static mover: the static wall and floor are skipped (and the wall by its category) */
    ENSURE_EQ_INT(sat_hash_sweep(h, mover, hm, V(20, 0), 1, &hits), 0);
    ENSURE_EQ_INT(sat_hash_sweep(h, mover, hm, V(20, 0), 0, &hits), 0);
    /* every one: the wall ahead, the floor 4 below */
    sat_shape_move(mover, 0, 1);
    ENSURE_EQ_INT(sat_hash_sweep(h, mover, hm, V(20, 0), SAT_HASH_EVERY, &hits), 1);
    ENSURE(hits[0].handle == hw);
    ENSURE_NEAR(hits[0].hit.move.x, 8.0, 1e-12);
    ENSURE_EQ_INT(sat_hash_sweep(h, mover, hm, V(0, -6), SAT_HASH_EVERY, &hits), 1);
    ENSURE(hits[0].handle == hf);
    /* the copy of the mover far away, swept as the mover: its entry skipped, the rest met */
    sat_shape_move_to(ghost, 0, 0);
    ENSURE_EQ_INT(sat_hash_sweep(h, ghost, hm, V(20, 0), SAT_HASH_EVERY, &hits), 1);
    ENSURE_EQ_INT(sat_hash_sweep(h, ghost, SAT_HASH_NONE, V(20, 0), SAT_HASH_EVERY, &hits), 2);
    /* collisions: the same rule */
    sat_shape_move(mover, 9, -4); /* touching the floor (gap 0), 1 into the wall */
    ENSURE_EQ_INT(sat_hash_collisions(h, mover, hm, 1, &pairs), 0);
    ENSURE_EQ_INT(sat_hash_collisions(h, mover, hm, SAT_HASH_EVERY, &pairs), 2);
done:
    sat_hash_free(h);
    sat_shape_free(wall);
    sat_shape_free(floor);
    sat_shape_free(mover);
    sat_shape_free(ghost);
}

void run_parts_tests(void)
{
    RUN_TEST(test_raycast_part);
    RUN_TEST(test_raycast_part_rounds);
    RUN_TEST(test_sweep_parts);
    RUN_TEST(test_collide_parts_placed);
    RUN_TEST(test_parts_random);
    RUN_TEST(test_hash_every);
}
