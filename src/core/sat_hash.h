/*
 * sat_hash.h - a spatial hash broad phase over sat shapes, plus the queries, the sweep and
 * the contact set that a world needs. Plain C99 on top of sat.h; no Lua.
 *
 * How it stays right without being told about moves
 * - A hash links a small record into each shape it holds (sat_shape.members). Every change
 *   the core makes to a shape (move, rotation, scale, radius, geometry, filter bits) walks
 *   that list and marks the shape dirty in each hash, at O(1) per hash. A sync re-files the
 *   dirty entries only, so it costs what changed, never the hash's size. Every query, the
 *   sweep and the step sync first; nothing else is for the caller to call.
 * - The hash stores pointers: a shape must stay valid (and at the same address) while it is
 *   in the hash. It may be in several hashes. Free the hash, or remove the shape, before
 *   freeing the shape: sat_hash_free() unlinks its records from the shapes it still holds.
 *
 * Cells: a grid of levels
 * - Level k has square cells of side cell * 2^k; cell (i, j) of level k covers
 *   [i, i + 1) x [j, j + 1) times that side. An entry is filed at the lowest level where its
 *   padded box covers at most 2 x 2 cells, so a shape is in 1 to 4 cells whatever its size,
 *   a shape far from the origin (whose box the rounding pads) climbs to where its box is a
 *   cell or two, and cell coordinates stay far below 2^50 for every shape the core takes.
 * - Cells are not stored one by one: (level, i, j) is hashed into a power-of-two table of
 *   buckets, each a chain of nodes from one pool, and the table doubles when the nodes
 *   outnumber the buckets.
 * - A query visits, at each level that holds entries, the cells its box covers there, or
 *   scans that level's entries when they are fewer than the cells. Every query stamps the
 *   entries it meets (Chipmunk's idea), so a shape found in several cells is tested once.
 *
 * Static entries (SAT_HASH_STATIC) never pair with each other: not in the step, not in
 * sat_hash_collisions or sat_hash_sweep from a static entry. Queries return them as any.
 *
 * The step keeps the contacts (the colliding pairs) from one step to the next: it re-tests
 * only the pairs of entries that changed (or were added) since the last step, each changed
 * entry querying its own neighbourhood, and tells what changed: contacts that ended, began,
 * or were re-tested. A pair of two unchanged entries keeps its contact and its result.
 *
 * Order
 * - Every insertion gets the next sequence number. Query results are sorted by it (segment
 *   hits by t first), contacts by (a, b), a inserted before b. Nothing depends on
 *   addresses, so the same operations give the same results in the same order.
 *
 * Results live in buffers owned by the hash, valid until the next call on it.
 * Functions returning int return the count, or -1 when memory ran out (nothing changed that
 * a retry would not finish).
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
/* The cell sizes a hash takes: the core's own range of sizes. */
#define SAT_HASH_MIN_CELL SAT_MIN_SIZE
#define SAT_HASH_MAX_CELL SAT_MAX_COORD
#define SAT_HASH_NONE 0xffffffffu
/* sat_hash_insert's flag: the entry never pairs with another static one. */
#define SAT_HASH_STATIC 1u
/* The `filter` of sat_hash_collisions and sat_hash_sweep that keeps every other entry, as
 * the queries do: no category or mask, and a static self meets static others. */
#define SAT_HASH_EVERY 2

typedef struct sat_hash sat_hash;

/* A pair from sat_hash_collisions: handles a (the query's self) and b, result from a to b. */
typedef struct sat_hash_pair {
    uint32_t a, b;
    uint64_t seq_a, seq_b;
    sat_result result;
} sat_hash_pair;

/* A contact of the step: handles a and b (a inserted first), result from a to b. */
typedef struct sat_hash_contact {
    uint32_t a, b;
    sat_result result;
} sat_hash_contact;

/* What a step changed, as contact ids (see sat_hash_contact_of):
 * ended   contacts that no longer hold (their ids are free again),
 * added   new contacts, in pair order (a's insertion, then b's),
 * updated contacts that still hold and were tested again (one of the two changed). */
typedef struct sat_hash_delta {
    const uint32_t *ended, *added, *updated;
    int nended, nadded, nupdated;
} sat_hash_delta;

/* A segment query hit. */
typedef struct sat_hash_hit {
    uint32_t handle;
    uint64_t seq;
    sat_hit hit;
} sat_hash_hit;

/* What a moving shape meets (sat_hash_sweep): the entry, and sat_sweep's hit against it. */
typedef struct sat_hash_sweep_hit {
    uint32_t handle;
    uint64_t seq;
    sat_sweep_hit hit;
} sat_hash_sweep_hit;

/* A cell in use (sat_hash_cells) and how many entries are filed in it. */
typedef struct sat_hash_cell {
    int64_t cx, cy;
    uint32_t count;
} sat_hash_cell;

/* cell_size must be in [SAT_HASH_MIN_CELL, SAT_HASH_MAX_CELL]; NULL when it is not or
 * memory ran out. */
sat_hash *sat_hash_new(double cell_size);
void sat_hash_free(sat_hash *h);
double sat_hash_cell_size(const sat_hash *h);
int sat_hash_count(const sat_hash *h);

/* Makes room for one insertion: 0 and the handle it will get, or -1 (no memory). An
 * embedder that must record the handle before the shape enters (and cannot undo that
 * record) reserves first: sat_hash_insert then cannot fail. */
int sat_hash_reserve(sat_hash *h, uint32_t *handle);
/* Adds s (flags: 0 or SAT_HASH_STATIC). Returns 0 and the handle, or -1 (no memory). The
 * hash does not check whether s is already in it; the caller does (sat_hash_find). */
int sat_hash_insert(sat_hash *h, sat_shape *s, unsigned flags, uint32_t *handle);
/* Removes the entry, and its contacts: returns how many, their ids in *dropped (never
 * fails). The handle becomes free for reuse. */
int sat_hash_remove(sat_hash *h, uint32_t handle, const uint32_t **dropped);
/* How many ids sat_hash_remove(h, handle) would give (its contacts a step has told of). */
int sat_hash_remove_count(const sat_hash *h, uint32_t handle);
/* s's handle in h, or SAT_HASH_NONE; costs the number of hashes s is in. */
uint32_t sat_hash_find(const sat_hash *h, const sat_shape *s);
/* Whether handle is one of h's entries now. */
int sat_hash_valid(const sat_hash *h, uint32_t handle);
const sat_shape *sat_hash_shape(const sat_hash *h, uint32_t handle);
uint64_t sat_hash_seq(const sat_hash *h, uint32_t handle);
int sat_hash_is_static(const sat_hash *h, uint32_t handle);

/* Re-files every entry whose shape changed since it was last filed. Returns 0 or -1 (no
 * memory: the entries not yet filed stay marked and are retried next time). The queries, the
 * sweep, the step and sat_hash_cells sync first. */
int sat_hash_sync(sat_hash *h);

/* Where the entry is filed: its level and cell range (inclusive), as of the last sync; 0
 * when it is not filed yet (added since). */
int sat_hash_cells_of(const sat_hash *h, uint32_t handle, int *level, int64_t *x0, int64_t *y0,
                      int64_t *x1, int64_t *y1);
/* The levels holding entries, ascending. */
int sat_hash_levels(const sat_hash *h, const uint16_t **out);
/* The cells of the given level that hold entries, sorted by row then column. */
int sat_hash_cells(sat_hash *h, int level, const sat_hash_cell **out);

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
 * filter 1, only others whose category is in s's mask and whose mask has s's category.
 * A static self meets no static other (but with filter SAT_HASH_EVERY). In each pair a =
 * self (or SAT_HASH_NONE), b = the other. */
int sat_hash_collisions(sat_hash *h, const sat_shape *s, uint32_t self, int filter,
                        const sat_hash_pair **out);
/* sat_sweep of s by v against every other (except `self`, with filter 1 only those the
 * categories accept, and none static when self is, but with filter SAT_HASH_EVERY), the hits
 * sorted by t, then distance, then insertion. `self` need not be s's own entry: a copy of a
 * shape swept from where the shape would be (world:check) is swept as that shape. Returns
 * the count, or -1 when out of memory or when v is not finite. */
int sat_hash_sweep(sat_hash *h, const sat_shape *s, uint32_t self, sat_vec v, int filter,
                   const sat_hash_sweep_hit **out);

/* Brings the contacts up to date: every pair whose categories and masks accept each other,
 * that collides, and that is not two static entries. Returns 0 and what changed, or -1 (no
 * memory; nothing is lost: the next step finishes the work). */
int sat_hash_step(sat_hash *h, sat_hash_delta *out);
/* A contact of the last step, or NULL when id is no live contact. */
const sat_hash_contact *sat_hash_contact_of(const sat_hash *h, uint32_t id);
/* Every contact id, in pair order. */
int sat_hash_contacts(sat_hash *h, const uint32_t **out);

SAT_END_HIDDEN

#ifdef __cplusplus
}
#endif

#endif
