/*
 * sat.h - exact Separating Axis Theorem tests for 2D convex polygons, circles, segments and
 * capsules.
 *
 * Plain C99, no Lua, no allocation in any pair test. Shapes are built once through the
 * functions below, validated, and then trusted; never fill a sat_shape in by hand.
 *
 * Conventions
 * - A shape is local geometry about its centroid (a circle's centre, a segment's or a
 *   capsule's midpoint) plus a position, a rotation (radians) and a uniform scale. Rotation
 *   and scale pivot about the position.
 * - Every kind is a convex core (a polygon, a point or a segment) grown by a radius: a
 *   polygon (0), a circle (its radius, about a point), a segment (0) and a capsule (its
 *   radius, about a segment). Round shapes are never polygonised: depths are exact.
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
    SAT_SEGMENT = 2, /* zero thickness */
    SAT_CAPSULE = 3, /* the points within a radius of a segment */
    SAT_COMPOUND = 4, /* a rigid union of parts of the kinds above (sat_compound.c) */
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
    SAT_ERR_NOMEM,
    SAT_ERR_SAME_POINTS,    /* a segment's two endpoints are one point */
    SAT_ERR_ANGLE,          /* a rotation whose resulting angle is not finite */
    SAT_ERR_SELF_CROSSING,  /* a concave outline whose edges cross */
    SAT_ERR_SELF_TOUCHING,  /* a concave outline that touches itself (a vertex on an edge) */
    SAT_ERR_NO_PARTS,       /* a compound of no parts, or a chain of fewer than 2 points */
    SAT_ERR_NO_LOCAL        /* a lean polygon's first turn or scale, before it was given the
                             * block for its local points (sat_shape_give_local) */
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
struct sat_member; /* a hash's record of holding the shape (sat_hash.c) */

typedef struct sat_shape {
    /* What a pair test reads comes first: 64 bytes, one cache line. */
    sat_kind kind;
    int count;              /* polygon vertices after validation; 0 for a circle */
    sat_vec pos;            /* position (centroid), high part */
    sat_vec pos_lo;         /* position, low-order part: position = pos + pos_lo */
    double radius;          /* circle or capsule radius; 0 for polygons and segments */
    double bound;           /* world-size bounding radius about the position */
    double scale;           /* uniform scale, > 0 (1 for circles; a capsule's scales its
                             * segment, its radius is scaled in place) */
    /* The rest (48 bytes) only the transforms, the queries and the embedding read; the
     * bounding box is not stored but derived where it is read (sat_shape_bbox). */
    uintptr_t user;         /* the embedding's own word, 0 by default; copies keep it (the
                             * Lua binding stamps its shapes here to recognise them) */
    double angle;           /* rotation, radians */
    uint64_t id;            /* caller's identity, breaks exact ties; 0 by default */
    struct sat_member *members; /* the hashes holding the shape, told of every change of
                                 * transform, geometry or filter; NULL when in none (copies
                                 * start in none) */
    uint32_t category;      /* filter bits for broad phases (default 1) */
    uint32_t mask;          /* categories this shape accepts (default all) */
    uintptr_t local;        /* a polygon's local points (sat_internal.h, sat__clocal): 0, in
                             * its storage after the deepest vertices; 1 (a lean polygon),
                             * none kept: they are the offsets, the polygon never having left
                             * rotation 0 and scale 1; else the address of the block it was
                             * given (sat_shape_give_local). 0 for the other kinds. */
    /* Polygon storage, counter-clockwise (in a y-up frame), the arrays a pair test reads
     * first:
     *   [0, n)    world-oriented unit normal of edge i (from point i to point i + 1)
     *   [n, 2n)   world-oriented offsets: rotate(scale * local point)
     *   then n uint16 (int32 past 65536 vertices), in whole entries: the index of the
     *             vertex deepest along edge i's normal (edge i's interval along it runs
     *             from that vertex to vertex i: derived where read, sat__support and
     *             sat__least, not stored); none for 3 or 4 vertices, whose deepest vertex
     *             is one of the two past the edge
     *   then n    local points about the centroid, scale 1 (the local normals are computed
     *             from them, not stored): only when local is 0. A lean polygon
     *             (sat_polygon_build_lean) stops before them: while its rotation is 0 and
     *             its scale 1 the offsets are its local points bit for bit, and the block
     *             for them is given to it before its first turn or scale.
     * Segment and capsule storage (count 0), 4 entries, the segment running from
     * position - h to position + h:
     *   [0]  h: world-oriented half of the segment, rotate(scale * local half)
     *   [1]  its unit direction (rotate(1, 0) when h is 0, a circle-like capsule)
     *   [2]  the local half, scale 1
     *   [3]  x: world half-length (scale * |local half|), y: |local half|
     * Compound storage (count = parts; see sat_compound.c): a header, a table of the parts,
     * the outline (a concave shape's, a chain's points) and the parts themselves, each
     * twice: as built (about the compound's position, rotation 0, scale 1; a polygon
     * part at its own rotation 0 and scale 1 lean) and in the world, kept up to date by
     * every transform. */
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
    int part;         /* a compound's part entered (its index, from 0); -1 for other kinds */
} sat_hit;

/* What a shape moving by v meets (sat_sweep).
 * overlapping = 1: at the start it already overlaps the other by more than the touch
 *   tolerance; t = 0 and result is sat_collide(moving, other).
 * overlapping = 0: the motion presses into the other; t in [0, 1] is where they first
 *   touch, result.normal is the contact normal (from the moving shape toward the other),
 *   overlap 0, containment flags 0. */
typedef struct sat_sweep_hit {
    int overlapping;
    double t;
    sat_vec move;  /* t * v, computed so that exact cases stay exact (0 when overlapping) */
    double dist2;  /* squared distance between the positions, to order equal t */
    sat_result result;
    /* The parts that meet, when a or b is a compound (index from 0; -1 for another kind):
     * on the way, the part pair that touches first; overlapping at the start, the part pair
     * of the union's result (sat_collide_parts). */
    int part_a, part_b;
} sat_sweep_hit;

/* ---- building ------------------------------------------------------------------------ */

const char *sat_status_message(sat_status status);

/* Bytes a shape needs: a circle, a segment or a capsule, or a polygon built from `count`
 * input points. */
size_t sat_circle_bytes(void);
size_t sat_segment_bytes(void);
size_t sat_capsule_bytes(void);
size_t sat_polygon_bytes(int count);
/* Bytes a copy of the given shape needs (sat_shape_copy): what it occupies, but for a lean
 * polygon that was given a block, whose copy keeps its local points in its own storage. */
size_t sat_shape_bytes(const sat_shape *s);

/* Build in caller memory of the size above. On failure *s is unspecified: discard it. */
sat_status sat_circle_init(sat_shape *s, double x, double y, double radius);
/* World-coordinate points of a convex outline, either winding. Points closer than the merge
 * tolerance are merged and collinear ones dropped; the position becomes the centroid. */
sat_status sat_polygon_init(sat_shape *s, const sat_vec *points, int count);
/* The segment from (x1, y1) to (x2, y2) (two different points); the position becomes its
 * midpoint. */
sat_status sat_segment_init(sat_shape *s, double x1, double y1, double x2, double y2);
/* The points within radius >= 0 of that segment; equal endpoints make a circle-like capsule,
 * radius 0 a segment-like one. */
sat_status sat_capsule_init(sat_shape *s, double x1, double y1, double x2, double y2,
                            double radius);

/* The same in two steps, so that the shape is sized for the vertices it keeps rather than
 * for its input (many points may reduce to few): sat_polygon_validate checks the points and
 * reduces them in `work` (room for count points; it may be `points` itself, which is then
 * overwritten), and describes the outline in *out; sat_polygon_build makes the shape from it
 * in memory of sat_polygon_bytes(out->count) apart from the work. Only out->count is for the
 * caller to read. */
typedef struct sat_outline {
    const sat_vec *work; /* the kept points, relative to origin, scaled by 2^-exponent */
    int count;           /* vertices the polygon keeps */
    int exponent;
    sat_vec origin;
    sat_vec centroid;    /* in the frame of work */
} sat_outline;
sat_status sat_polygon_validate(const sat_vec *points, int count, sat_vec *work,
                                sat_outline *out);
void sat_polygon_build(sat_shape *s, const sat_outline *out);
/* The same, lean: in memory of sat_polygon_lean_bytes(out->count), with no room for the
 * local points (16 bytes a vertex), which are the offsets while the polygon keeps rotation 0
 * and scale 1 (level tiles). Before its first turn or scale away from that, it needs a block
 * of sat_shape_local_bytes(s) bytes, aligned for doubles, given by sat_shape_give_local
 * (which copies the points in): until then such a transform is refused with
 * SAT_ERR_NO_LOCAL, after every other check, and changes nothing. The block belongs to the
 * caller, who keeps it as long as the shape (and frees it after; sat_shape_free does not). */
size_t sat_polygon_lean_bytes(int count);
void sat_polygon_build_lean(sat_shape *s, const sat_outline *out);
/* What the block of a lean polygon that has none needs; 0 for any other shape. */
size_t sat_shape_local_bytes(const sat_shape *s);
/* Gives the block (sat_shape_local_bytes(s) bytes) to such a polygon; does nothing to any
 * other shape. */
void sat_shape_give_local(sat_shape *s, void *block);
/* Copy a shape into memory of sat_shape_bytes(src); the copy is in no hash, and shares
 * nothing with src: a lean polygon's copy is lean, without a block while src has none, and
 * with its local points in its own storage once src has one. */
void sat_shape_copy(sat_shape *dst, const sat_shape *src);

/* Heap variants for C users: NULL on failure with *status set (status may be NULL). A
 * polygon is sized for the vertices it keeps. */
sat_shape *sat_circle_new(double x, double y, double radius, sat_status *status);
sat_shape *sat_polygon_new(const sat_vec *points, int count, sat_status *status);
sat_shape *sat_segment_new(double x1, double y1, double x2, double y2, sat_status *status);
sat_shape *sat_capsule_new(double x1, double y1, double x2, double y2, double radius,
                           sat_status *status);
sat_shape *sat_shape_clone(const sat_shape *s);
void sat_shape_free(sat_shape *s);

/* ---- transform (each returns SAT_OK, or an error and leaves the shape unchanged) ------- */

sat_status sat_shape_move_to(sat_shape *s, double x, double y);
sat_status sat_shape_move(sat_shape *s, double dx, double dy);
sat_vec sat_shape_position(const sat_shape *s);
sat_status sat_shape_set_rotation(sat_shape *s, double angle);
/* The angle is kept as given, not reduced: a turn that makes it overflow is SAT_ERR_ANGLE. */
sat_status sat_shape_rotate(sat_shape *s, double dangle);
/* The same about a pivot (cx, cy) in world coordinates, as HC's rotate(angle, cx, cy): the
 * shape turns and its position moves on the circle about the pivot (exactly as far from the
 * origin as near it: the offset from the pivot is taken from the double-double position).
 * SAT_ERR_RANGE when that would take the position out of range. */
sat_status sat_shape_rotate_about(sat_shape *s, double dangle, double cx, double cy);
sat_status sat_shape_set_rotation_about(sat_shape *s, double angle, double cx, double cy);
double sat_shape_rotation(const sat_shape *s);
sat_status sat_shape_scale(sat_shape *s, double factor); /* multiplies the scale */
/* The whole transform at once, exactly as read from the struct (pos, pos_lo, angle, scale,
 * radius): what a world's restore (lua/sat/world_state.lua) puts back, bit for bit, where
 * moveTo, setRotation and scale would round. The caches are recomputed from it as after any
 * transform. SAT_ERR_BAD_SCALE for a scale <= 0 (or not 1 for a circle), SAT_ERR_NEGATIVE_RADIUS
 * for a radius < 0 (or not 0 for a kind without one). */
sat_status sat_shape_set_transform(sat_shape *s, sat_vec pos, sat_vec pos_lo, double angle,
                                   double scale, double radius);
/* World radius of a circle or a capsule. */
sat_status sat_circle_set_radius(sat_shape *s, double radius);
/* Filter bits for broad phases: s meets t only when each one's category is in the other's
 * mask. The hashes holding s are told, as of a move. */
void sat_shape_set_filter(sat_shape *s, uint32_t category, uint32_t mask);
double sat_circle_radius(const sat_shape *s); /* world radius (circle, capsule; else 0) */

/* ---- queries ------------------------------------------------------------------------- */

sat_aabb sat_shape_bbox(const sat_shape *s);
double sat_shape_area(const sat_shape *s);
/* World vertex i of a polygon, 0 <= i < count. */
sat_vec sat_polygon_vertex(const sat_shape *s, int i);
/* World endpoints of a segment or a capsule, in the order they were given. */
void sat_segment_endpoints(const sat_shape *s, sat_vec *p1, sat_vec *p2);
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

/* The swept test: 1 and *hit filled when a, translated by v, overlaps b at the start or
 * presses into it on the way; 0 otherwise (also when v is not finite or beyond
 * SAT_MAX_COORD). Exact and continuous: no tunnelling at any speed, for every pair of kinds.
 * Sliding along b within the touch tolerance is no hit. Two shapes with no area between them
 * (a point or a segment against a parallel segment) can never press in: for them, crossing
 * the line from beyond the tolerance on one side to beyond it on the other is the hit, and a
 * shape that starts on the line (or moves along it) passes. O(n + m) for polygons of n and m
 * vertices. */
int sat_sweep(const sat_shape *a, sat_vec v, const sat_shape *b, sat_sweep_hit *hit);

/* sat_sweep with both shapes moving, a by va and b by vb (the relative motion va - vb), and
 * the point where they first touch: sat_contacts at that time (the middle of two), or, when
 * they already overlap, now. hit->move is the relative move (t * (va - vb)). */
int sat_sweep_contact(const sat_shape *a, sat_vec va, const sat_shape *b, sat_vec vb,
                      sat_sweep_hit *hit, sat_vec *point);

/* The contact point of a hit of sat_sweep(a, va - vb, b, hit) (a moving by va, b by vb):
 * what sat_sweep_contact gives for that hit, without sweeping again. */
void sat_sweep_point(const sat_shape *a, sat_vec va, const sat_shape *b, sat_vec vb,
                     const sat_sweep_hit *hit, sat_vec *point);

/* Which parts of compounds a collision is with: for a and b colliding with result r (what
 * sat_collide(a, b, r) gave), the part of a (*part_a) and of b (*part_b) in contact, as an
 * index from 0 (-1 for a shape that is not a compound): among the part pairs that collide,
 * the one whose own normal is nearest r's (within 1e-9 of the best), then the deeper, then
 * the first in part order. Returns 1, or 0 (both -1) when no part pair collides. */
int sat_collide_parts(const sat_shape *a, const sat_shape *b, const sat_result *r, int *part_a,
                      int *part_b);

/* Where a and b touch or overlap most: 0 when they are apart, else 1 or 2 points written to
 * out, each midway between the two surfaces along sat_collide's normal (the middle of the
 * two shapes' common chord there): on both surfaces when they touch, inside both when they
 * overlap. Two faces in contact give two points (the incident face clipped to the reference
 * face), anything round one. The same points, in the same order, whichever shape is a. */
int sat_contacts(const sat_shape *a, const sat_shape *b, sat_vec out[2]);

/* ---- compounds: concave outlines, unions of parts, chains ---------------------------- *
 * A compound (kind SAT_COMPOUND) is one rigid shape made of parts of the other kinds: copies,
 * kept in its own storage (a copy of a compound is a plain memcpy). Its position is the area
 * centroid of its parts (a chain's: their length centroid); rotation and scale pivot about
 * it. Every pair test treats it as the union of its parts:
 * - sat_test: any part meets any part (touching included);
 * - sat_collide: the exact shortest translation out of the union (not the deepest part's,
 *   nor a per-axis maximum), computed from the Minkowski differences of the part pairs near
 *   the origin (each a convex polygon grown by a radius): the candidates are the nearest
 *   points of their boundaries and the crossings of two boundaries, and the nearest one
 *   inside no difference wins. Cost: O(k (n + m)) to build the k differences whose boxes
 *   come within reach, then O(k^2 e^2) candidates each checked against the k (e: edges of a
 *   difference): a box on a floor meets 1 to 3 parts; the pair tests allocate only when more
 *   than SAT_COMPOUND_STACK difference vertices are needed.
 * - a_in_b / b_in_a: exact for the union when the container is convex or a concave outline
 *   (tested against the outline); for another compound, a shape counts as inside only when
 *   it is inside one part.
 * sat_sweep takes the earliest touch over the part pairs; sat_contacts the extreme points
 * over the part pairs along the union's normal; sat_explain reports the verdict alone (no
 * axes); sat_shape_raycast the earliest entry over the parts. */

#define SAT_COMPOUND_STACK 1024

/* What a compound was built from. */
typedef enum sat_form {
    SAT_FORM_PARTS = 0,   /* sat_compound_init: shapes of any kinds */
    SAT_FORM_CONCAVE = 1, /* sat_concave_*: a simple outline, decomposed */
    SAT_FORM_CHAIN = 2,   /* sat_chain_init: an open polyline of segments */
    SAT_FORM_LOOP = 3     /* sat_chain_init, closed */
} sat_form;

/* A compound of copies of parts[0, count) (compounds among them give their own parts):
 * sat_compound_bytes is the memory it needs; sat_compound_init builds it there. */
size_t sat_compound_bytes(const sat_shape *const *parts, int count);
sat_status sat_compound_init(sat_shape *s, const sat_shape *const *parts, int count);

/* A simple outline (either winding, convex or not; no holes) in world coordinates, as
 * sat_polygon_init takes it, decomposed into convex parts: ear clipping, then Hertel-Mehlhorn
 * (remove every diagonal whose two ends stay convex without it), which gives at most four
 * times the fewest convex parts possible. Merged and collinear points are dropped as for a
 * polygon; an outline whose edges cross or touch is refused. In three steps, so that a
 * caller that cannot free on an error (the Lua binding) allocates everything itself:
 * sat_concave_prepare validates and decomposes into `work` (sat_concave_work_bytes(count),
 * aligned for doubles) and says in *bytes the memory the shape needs; sat_concave_build then
 * builds it there from the work. */
size_t sat_concave_work_bytes(int count);
sat_status sat_concave_prepare(const sat_vec *points, int count, void *work, size_t *bytes);
void sat_concave_build(sat_shape *s, const void *work);

/* A chain: the segments between consecutive points (closed: and from the last back to the
 * first), for terrain. Consecutive points closer than the merge tolerance are one. */
sat_status sat_chain_bytes(const sat_vec *points, int count, int closed, size_t *bytes);
sat_status sat_chain_init(sat_shape *s, const sat_vec *points, int count, int closed);

sat_shape *sat_compound_new(const sat_shape *const *parts, int count, sat_status *status);
sat_shape *sat_concave_new(const sat_vec *points, int count, sat_status *status);
sat_shape *sat_chain_new(const sat_vec *points, int count, int closed, sat_status *status);

sat_form sat_compound_form(const sat_shape *s);
/* Part i of a compound, in world coordinates (read-only; copy it to keep it). */
const sat_shape *sat_compound_part(const sat_shape *s, int i);
/* A concave compound's outline (counter-clockwise in a y-up frame) or a chain's points: how
 * many (0 for SAT_FORM_PARTS), and point i in world coordinates. */
int sat_compound_outline_count(const sat_shape *s);
sat_vec sat_compound_outline_point(const sat_shape *s, int i);

/* ---- explaining a pair test ---------------------------------------------------------- */

/* Where an axis comes from. Indices are 0-based, in the order sat_polygon_vertex and
 * sat_segment_endpoints give the points: edge i runs from vertex i to vertex i + 1. */
typedef enum sat_feature {
    SAT_FEATURE_EDGE = 0,  /* a polygon's edge normal */
    SAT_FEATURE_VERTEX,    /* the axis through a polygon's vertex and the other's closest point */
    SAT_FEATURE_CENTRE,    /* through a circle's centre and the other's closest point */
    SAT_FEATURE_NORMAL,    /* a segment's or capsule's normal */
    SAT_FEATURE_DIRECTION, /* along a segment or capsule */
    SAT_FEATURE_ENDPOINT   /* through an endpoint (0 or 1) and the other's closest point */
} sat_feature;

/* One axis a pair test tried. */
typedef struct sat_axis {
    sat_vec normal;       /* unit; an edge's or a segment's own normal, else from a toward b */
    int from;             /* the shape it belongs to: 0 for a, 1 for b */
    sat_feature feature;
    int index;            /* which edge, vertex or endpoint (0 otherwise) */
    int separates;        /* a gap beyond the touch tolerance: the shapes are apart */
    /* Each shape's projection on the axis, radii included, in world units (dot(point,
     * normal)): for drawing. */
    double a_min, a_max, b_min, b_max;
    /* The signed overlap as the test computed it (min(a_max - b_min, b_max - a_min) along a
     * separating axis; negative: a gap), exact even where the world projections round. */
    double overlap;
} sat_axis;

typedef struct sat_explanation {
    int hit;             /* what sat_test and sat_collide answer */
    int count;           /* the axes the test tried (the first `capacity` are written) */
    int deciding;        /* the first separating axis (apart), or the one that gave the MTV
                          * (hit); -1 when none */
    double containment;  /* hit with a shape inside the other: the distance the MTV adds to
                          * the overlap of the projections (to the nearer end); else 0 */
    sat_result result;   /* hit: exactly what sat_collide gives; zeros otherwise */
} sat_explanation;

/* How sat_collide decides a and b, from the same arithmetic: every axis it tries, in the
 * order it tries them (the test itself stops at the first separating one; this goes on and
 * lists them all), the verdict and the result. Axes are written to axes[0, capacity) (axes
 * may be NULL when capacity is 0); e->count says how many there were: call again with
 * more room if it is larger. At most count(a) + count(b) + 5 for these kinds (a polygon's
 * count is its vertices, another kind's 0). Returns e->hit. */
int sat_explain(const sat_shape *a, const sat_shape *b, sat_explanation *e, sat_axis *axes,
                int capacity);

SAT_END_HIDDEN

#ifdef __cplusplus
}
#endif

#endif
