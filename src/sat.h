/*
 * sat.h - exact Separating Axis Theorem tests for 2D convex polygons and circles.
 *
 * Plain C99, no Lua, no allocation in any pair test. Shapes are built once through the
 * functions below, validated, and then trusted; never fill a sat_shape in by hand.
 *
 * Conventions
 * - A shape is local geometry about its centroid (a circle's centre) plus a position, a
 *   rotation (radians) and a uniform scale. Rotation and scale pivot about the position.
 * - The position is kept as a double-double (pos + pos_lo), and every pair test works
 *   relative to one of the two shapes, so results do not degrade far from the origin.
 * - sat_collide's normal is a unit vector pointing from a toward b; mtv = -normal * overlap
 *   is the translation that takes a out of b (also when one contains the other).
 * - Touching (a gap of zero, within SAT_TOUCH_REL of the pair's size) is a collision with
 *   overlap 0, for every pair of kinds.
 * - Swapping a and b negates the normal and swaps the containment flags, bit for bit.
 */
#ifndef SAT_H
#define SAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Linked into another shared object (the Lua module defines SAT_HIDDEN), the core exports
 * nothing: calls into it and within it are then direct, not through the PLT, and the
 * compiler may inline them (an exported function could be interposed). The declarations of
 * sat.h, sat_hash.h and lsat.h lie between SAT_BEGIN_HIDDEN and SAT_END_HIDDEN. */
#if defined(SAT_HIDDEN) && defined(__GNUC__)
#define SAT_BEGIN_HIDDEN _Pragma("GCC visibility push(hidden)")
#define SAT_END_HIDDEN _Pragma("GCC visibility pop")
#else
#define SAT_BEGIN_HIDDEN
#define SAT_END_HIDDEN
#endif

SAT_BEGIN_HIDDEN

#define SAT_VERSION "0.1.0"

typedef struct sat_vec {
    double x, y;
} sat_vec;

/* Kinds are ordered: a pair is computed with the lower kind first. A new kind is a new
 * entry here, a row in the dispatch table of sat_collide.c, and its projection function. */
typedef enum sat_kind {
    SAT_POLYGON = 0,
    SAT_CIRCLE = 1,
    SAT_KIND_COUNT
} sat_kind;

typedef enum sat_status {
    SAT_OK = 0,
    SAT_ERR_NONFINITE,      /* NaN or infinite coordinate, angle, radius or factor */
    SAT_ERR_TOO_FEW_POINTS, /* fewer than 3 distinct, non-collinear points */
    SAT_ERR_ZERO_AREA,      /* the points enclose no area */
    SAT_ERR_NOT_CONVEX,     /* the outline turns both ways or winds more than once */
    SAT_ERR_NEGATIVE_RADIUS,
    SAT_ERR_BAD_SCALE,      /* scale factor <= 0 */
    SAT_ERR_TOO_MANY_POINTS,/* more than SAT_MAX_POINTS */
    SAT_ERR_RANGE,          /* beyond SAT_MAX_COORD, or a polygon under SAT_MIN_SIZE */
    SAT_ERR_NOMEM
} sat_status;

/* A hard limit only against absurd input; any convex outline a game uses fits. */
#define SAT_MAX_POINTS 1048576

/* Positions, coordinates, radii and sizes are at most this in magnitude, so that squared
 * distances never overflow a double; a polygon is at least SAT_MIN_SIZE across (its bounding
 * box's larger side), so that its area and normals never underflow. No game comes near
 * either. */
#define SAT_MAX_COORD 1e150
#define SAT_MIN_SIZE 1e-100

/* Read-only to users: build with sat_*_init / sat_*_new, change with the functions below. */
typedef struct sat_shape {
    /* What a pair test reads comes first: 64 bytes, one cache line. */
    sat_kind kind;
    int count;              /* polygon vertices after validation; 0 for a circle */
    sat_vec pos;            /* position (centroid), high part */
    sat_vec pos_lo;         /* position, low-order part: position = pos + pos_lo */
    double radius;          /* circle radius; 0 for polygons */
    double bound;           /* world-size bounding radius about the position */
    uintptr_t user;         /* the embedding's own word, 0 by default; copies keep it (the
                             * Lua binding stamps its shapes here to recognise them, next
                             * to what the pair test reads) */
    double scale;           /* uniform scale, > 0 (1 for circles) */
    uint32_t category;      /* filter bits for broad phases (default 1) */
    uint32_t mask;          /* categories this shape accepts (default all) */
    uint64_t id;            /* caller's identity, breaks exact ties; 0 by default */
    uint64_t gen;           /* incremented by every change of transform or geometry */
    double angle;           /* rotation, radians */
    sat_vec box_lo, box_hi; /* world-size bounding box relative to the position */
    /* Polygon storage, 5 * count entries, counter-clockwise (in a y-up frame), the arrays a
     * pair test reads first:
     *   [0, n)    world-oriented unit normal of edge i (from point i to point i + 1)
     *   [n, 2n)   x: local support of edge i along its normal, y: width along it
     *   [2n, 3n)  world-oriented offsets: rotate(scale * local point)
     *   [3n, 4n)  local points about the centroid, scale 1
     *   [4n, 5n)  local unit normal of edge i */
    sat_vec v[];
} sat_shape;

typedef struct sat_result {
    double overlap;   /* penetration depth, >= 0 */
    sat_vec normal;   /* unit, from a toward b */
    sat_vec mtv;      /* -normal * overlap: moves a out of b */
    int a_in_b;       /* every point of a is in b */
    int b_in_a;       /* every point of b is in a */
} sat_result;

typedef struct sat_aabb {
    double x1, y1, x2, y2;
} sat_aabb;

typedef struct sat_hit {
    double t;         /* fraction of the segment, in [0, 1] */
    sat_vec normal;   /* unit surface normal at the hit */
} sat_hit;

/* ---- building ------------------------------------------------------------------------ */

const char *sat_status_message(sat_status status);

/* Bytes a shape needs: a circle, or a polygon built from `count` input points. */
size_t sat_circle_bytes(void);
size_t sat_polygon_bytes(int count);
/* Bytes the given shape occupies (what a copy needs). */
size_t sat_shape_bytes(const sat_shape *s);

/* Build in caller memory of the size above. On failure *s is unspecified: discard it. */
sat_status sat_circle_init(sat_shape *s, double x, double y, double radius);
/* World-coordinate points of a convex outline, either winding. Points closer than the merge
 * tolerance are merged and collinear ones dropped; the position becomes the centroid. */
sat_status sat_polygon_init(sat_shape *s, const sat_vec *points, int count);
/* Copy a shape into memory of sat_shape_bytes(src). */
void sat_shape_copy(sat_shape *dst, const sat_shape *src);

/* Heap variants for C users: NULL on failure with *status set (status may be NULL). */
sat_shape *sat_circle_new(double x, double y, double radius, sat_status *status);
sat_shape *sat_polygon_new(const sat_vec *points, int count, sat_status *status);
sat_shape *sat_shape_clone(const sat_shape *s);
void sat_shape_free(sat_shape *s);

/* ---- transform (each returns SAT_OK, or an error and leaves the shape unchanged) ------- */

sat_status sat_shape_move_to(sat_shape *s, double x, double y);
sat_status sat_shape_move(sat_shape *s, double dx, double dy);
sat_vec sat_shape_position(const sat_shape *s);
sat_status sat_shape_set_rotation(sat_shape *s, double angle);
sat_status sat_shape_rotate(sat_shape *s, double dangle);
double sat_shape_rotation(const sat_shape *s);
sat_status sat_shape_scale(sat_shape *s, double factor); /* multiplies the scale */
sat_status sat_circle_set_radius(sat_shape *s, double radius); /* world radius */
/* Filter bits for broad phases: s meets t only when each one's category is in the other's
 * mask. Not a change of transform (gen stays). */
void sat_shape_set_filter(sat_shape *s, uint32_t category, uint32_t mask);
double sat_circle_radius(const sat_shape *s);                  /* world radius */

/* ---- queries ------------------------------------------------------------------------- */

sat_aabb sat_shape_bbox(const sat_shape *s);
double sat_shape_area(const sat_shape *s);
/* World vertex i of a polygon, 0 <= i < count. */
sat_vec sat_polygon_vertex(const sat_shape *s, int i);
/* Boundary points count as inside (touching). */
int sat_shape_contains(const sat_shape *s, double x, double y);
/* First entry of the segment p1->p2 into the shape. Returns 1 and fills *hit, or 0.
 * A segment that starts inside hits at t = 0 with the normal of the nearest surface. */
int sat_shape_raycast(const sat_shape *s, sat_vec p1, sat_vec p2, sat_hit *hit);

/* ---- pair tests (no allocation) ------------------------------------------------------ */

/* 1 when a and b overlap or touch. Exits on the first separating axis. */
int sat_test(const sat_shape *a, const sat_shape *b);
/* 1 and a filled result when they overlap or touch; 0 (result untouched) otherwise. */
int sat_collide(const sat_shape *a, const sat_shape *b, sat_result *result);

SAT_END_HIDDEN

#ifdef __cplusplus
}
#endif

#endif
