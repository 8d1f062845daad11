/*
 * Every tolerance of the core, with its unit and why. Private to src/.
 *
 * Lengths in a game range from fractions of a unit (metres) to thousands (pixels), so the
 * tolerances are relative to the size of the geometry involved, never absolute.
 */
#ifndef SAT_CONSTANTS_H
#define SAT_CONSTANTS_H

/* Polygon building. Unit: fraction of the input's size (the larger side of its bounding box).
 * Points closer than this are one point: 1e-9 is far above double rounding (1e-16) yet far
 * below anything a level designer places on purpose. */
#define SAT_MERGE_REL 1e-9

/* Polygon building. Unit: fraction of the input's size. A point whose distance to the line
 * through its neighbours is below this is collinear and dropped, so that no edge normal is
 * computed from a sliver; the same bound decides convexity (a turn smaller than this either
 * way is straight, not concave). */
#define SAT_COLLINEAR_REL 1e-9

/* Polygon building. Unit: fraction of the squared size. An outline whose area is below this
 * has no area. */
#define SAT_AREA_REL 1e-12

/* Pair tests, contains and raycasts. Unit: fraction of the pair's size (sum of the bounding
 * radii). A gap up to this counts as touching (overlap 0). Rounding in the projections is
 * ~1e-16 of the size; 1e-12 absorbs it, so a shape moved by its MTV, or resting on another,
 * stays touching frame after frame instead of flickering in and out of contact. */
#define SAT_TOUCH_REL 1e-12

#endif
