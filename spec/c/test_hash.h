/*
 * test_hash.h - what the files of the spatial hash's C tests share (test_hash.c,
 * test_hash_query.c, test_hash_step.c, test_hash_random.c): short names, the checks of ids,
 * cells, pairs, hits and deltas, and the runners run_hash_tests calls. The helpers are
 * defined in test_hash.c.
 */
#ifndef TEST_HASH_H
#define TEST_HASH_H

#include <stdint.h>

#include "ctest.h"
#include "oracle.h"
#include "sat_hash.h"

#define V orc_v
#define PI 3.14159265358979323846
#define NONE SAT_HASH_NONE

/* Inserts s and returns its handle (SAT_HASH_NONE, and a failed check, on failure). */
uint32_t add(sat_hash *h, sat_shape *s);
void rm(sat_hash *h, uint32_t id);

int same_ids(int n, const uint32_t *got, int m, const uint32_t *want);
const char *ids_text(int n, const uint32_t *ids);
/* got[0, n) is exactly want[0, m), in that order. */
#define ENSURE_IDS(what, n, got, m, want)                                                  \
    ENSUREF(same_ids((n), (got), (m), (want)), "%s: got [%s] (%d)", (what),               \
            ids_text((n), (got)), (n))

void ensure_point(sat_hash *h, double x, double y, int m, const uint32_t *want);
void ensure_rect(sat_hash *h, double x1, double y1, double x2, double y2, int m,
                 const uint32_t *want);
/* Filed at the level, in cells (x0, y0) to (x1, y1); ensure_cells: at level 0. */
void ensure_level(const sat_hash *h, uint32_t id, int level, int64_t x0, int64_t y0, int64_t x1,
                  int64_t y1);
void ensure_cells(const sat_hash *h, uint32_t id, int64_t x0, int64_t y0, int64_t x1,
                  int64_t y1);

/* Every contact after a step, as pairs in pair order; -1 when out of memory. */
int step_pairs(sat_hash *h, const sat_hash_pair **out);
void ensure_pair(const sat_hash_pair *p, uint32_t a, uint32_t b, double overlap, double nx,
                 double ny);
void ensure_hit_is(const sat_hash_hit *hit, uint32_t id, uint64_t seq, double t, double nx,
                   double ny);
/* A step re-tested (updated) and ended that many contacts, and added none. */
void ensure_delta(sat_hash *h, int updated, int ended, const char *what);

void run_hash_query_tests(void);
void run_hash_step_tests(void);
void run_hash_random_tests(void);

#endif
