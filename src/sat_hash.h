/*
 * sat_hash.h - a spatial hash broad phase over sat shapes, plus the queries and the swept
 * test that a world needs. Plain C99 on top of sat.h; no Lua.
 *
 * How it stays right without being told about moves
 * - Every sat_shape carries `gen`, which the core increments on every change of transform
 *   or geometry. An entry remembers the gen it last saw, its padded bounding box and the
 *   range of cells it is stored in. sat_hash_sync() compares gens; only a changed shape gets
 *   a new box, and only a changed cell range touches the cells. Queries, the pair pass and
 *   the sweep do NOT sync by themselves: call sat_hash_sync() first whenever a shape may
 *   have changed since the last sync (the Lua binding does this for every call).
 * - The hash stores pointers: a shape must stay valid (and at the same address) while it is
 *   in the hash. It may be in several hashes.
 *
 * Cells
 * - Cell (i, j) covers [i*size, (i+1)*size) x [j*size, (j+1)*size). Cells are not stored
 *   one by one: (i, j) is hashed into a power-of-two table of buckets, each a chain of nodes
 *   {i, j, entry} from one pool, and the table doubles when the nodes outnumber the buckets
 *   (two cells sharing a bucket are told apart by the (i, j) in the node).
 * - A shape whose box covers more than SAT_HASH_MAX_CELLS cells goes in a list of big
 *   shapes instead, met by every query; a query whose box covers more cells than a scan of
 *   every entry would cost scans every entry. Cell coordinates are clamped to +-2^50, so
 *   huge coordinates still work (they only share cells).
 * - Every query stamps the entries it meets (Chipmunk's idea), so a shape found in several
 *   cells is tested once. The pair pass goes bucket by bucket instead and takes a pair only
 *   in the first cell the two ranges share, so it too tests each pair once.
 *
 * Order
 * - Every insertion gets the next sequence number. Query results are sorted by it (segment
 *   hits by t first), step pairs by (a, b), a inserted before b. Nothing depends on
 *   addresses, so the same operations give the same results in the same order.
 *
 * Results live in buffers owned by the hash, valid until the next call on it.
 * Functions returning int return the count, or -1 when memory ran out (nothing changed).
 */
#ifndef SAT_HASH_H
#define SAT_HASH_H

#include <stdint.h>

#include "sat.h"

#ifdef __cplusplus
extern "C" {
#endif

SAT_BEGIN_HIDDEN

#define SAT_HASH_DEFAULT_CELL 64.0
#define SAT_HASH_MAX_CELLS 1024
#define SAT_HASH_NONE 0xffffffffu

typedef struct sat_hash sat_hash;

/* A colliding pair of the step: handles a and b (a inserted first), result from a to b. */
typedef struct sat_hash_pair {
    uint32_t a, b;
    uint64_t seq_a, seq_b;
    sat_result result;
} sat_hash_pair;

/* A segment query hit. */
typedef struct sat_hash_hit {
    uint32_t handle;
    uint64_t seq;
    sat_hit hit;
} sat_hash_hit;

/* What a moving shape meets (sat_hash_sweep).
 * overlapping = 1: at the start it already overlaps the other by more than the touch
 *   tolerance; t = 0 and result is sat_collide(moving, other).
 * overlapping = 0: the motion presses into the other; t in [0, 1] is where they first
 *   touch, result.normal is the contact normal (from the moving shape toward the other),
 *   overlap 0, containment flags 0. */
typedef struct sat_hash_sweep_hit {
    uint32_t handle;
    uint64_t seq;
    int overlapping;
    double t;
    sat_vec move; /* t * v, computed so that exact cases stay exact (0 when overlapping) */
    double dist2; /* squared distance between the positions, to order equal t */
    sat_result result;
} sat_hash_sweep_hit;

/* cell_size must be finite and > 0; NULL when it is not or memory ran out. */
sat_hash *sat_hash_new(double cell_size);
void sat_hash_free(sat_hash *h);
double sat_hash_cell_size(const sat_hash *h);
int sat_hash_count(const sat_hash *h);

/* Adds s (its box is computed now). Returns 0 and the handle, or -1 (no memory). The hash
 * does not check whether s is already in it; the caller does. */
int sat_hash_insert(sat_hash *h, const sat_shape *s, uint32_t *handle);
/* Removes the entry; the handle becomes free for reuse. */
void sat_hash_remove(sat_hash *h, uint32_t handle);
const sat_shape *sat_hash_shape(const sat_hash *h, uint32_t handle);
uint64_t sat_hash_seq(const sat_hash *h, uint32_t handle);

/* The cell range the entry is stored in (inclusive): 1, or 0 for a big entry (in no cell).
 * As of the last sync. */
int sat_hash_cells_of(const sat_hash *h, uint32_t handle, int64_t *x0, int64_t *y0,
                      int64_t *x1, int64_t *y1);

/* Re-hashes every entry whose shape changed since it was last seen. Returns 0 or -1 (no
 * memory: the entries not yet synced stay stale and are retried next time). */
int sat_hash_sync(sat_hash *h);

/* Every handle in insertion order. */
int sat_hash_handles(sat_hash *h, const uint32_t **out);

/* Shapes containing the point (boundary included). */
int sat_hash_query_point(sat_hash *h, double x, double y, const uint32_t **out);
/* Shapes overlapping or touching the axis-aligned rectangle [x1, x2] x [y1, y2]
 * (x1 <= x2, y1 <= y2; a degenerate rectangle is a segment or a point). */
int sat_hash_query_rect(sat_hash *h, double x1, double y1, double x2, double y2,
                        const uint32_t **out);
/* Shapes the segment hits, sorted by t then insertion. */
int sat_hash_query_segment(sat_hash *h, sat_vec p1, sat_vec p2, const sat_hash_hit **out);
/* Shapes overlapping or touching s, except the entry `self` (SAT_HASH_NONE for none). */
int sat_hash_query_shape(sat_hash *h, const sat_shape *s, uint32_t self, const uint32_t **out);
/* Shapes whose padded bounding box overlaps that of s, except `self`. */
int sat_hash_neighbors(sat_hash *h, const sat_shape *s, uint32_t self, const uint32_t **out);
/* sat_collide(s, other) for every colliding other except `self`, by insertion order. With
 * filter != 0, only others whose category is in s's mask and whose mask has s's category.
 * In each pair a = self (or SAT_HASH_NONE), b = the other. */
int sat_hash_collisions(sat_hash *h, const sat_shape *s, uint32_t self, int filter,
                        const sat_hash_pair **out);
/* Every colliding pair whose categories and masks accept each other, sorted by (a, b). */
int sat_hash_step(sat_hash *h, const sat_hash_pair **out);
/* What s meets when translated by v: others (except `self`, and with filter != 0 only those
 * the categories accept) that it overlaps at the start or presses into on the way. Sorted
 * by t, then distance, then insertion. Exact, continuous: no tunnelling at any speed.
 * Returns the count, or -1 when out of memory or when v is not finite. */
int sat_hash_sweep(sat_hash *h, const sat_shape *s, uint32_t self, sat_vec v, int filter,
                   const sat_hash_sweep_hit **out);

/* The swept test of one pair (what sat_hash_sweep does per candidate): 1 and *hit filled
 * (handle and seq left 0) when a, translated by v, overlaps b at the start or presses into
 * it on the way; 0 otherwise. */
int sat_sweep(const sat_shape *a, sat_vec v, const sat_shape *b, sat_hash_sweep_hit *hit);

SAT_END_HIDDEN

#ifdef __cplusplus
}
#endif

#endif
