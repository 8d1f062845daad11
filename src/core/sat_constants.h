/*
 * Every tolerance of the core, with its unit and why. Private to src/core/.
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

/* Contact points. Unit: cosine of the angle between the contact normal and a face's normal.
 * A face within this of the normal meets the other shape flat (two points where two faces
 * meet); otherwise the contact is round (one point, on the line through the closest
 * features). Polygon faces are exact normals (cosine 1 within rounding); only a corner of
 * a round shape comes near without being one. */
#define SAT_CONTACT_FACE_COS (1.0 - 1e-9)

/* Contact points. Unit: the cosine between a face's normal and the line a chord is taken
 * along (both unit vectors). Below it the face lies along the line: the line is inside or
 * outside it as a whole (within the touch tolerance), never cut by it at a point that
 * rounding would fling far away. */
#define SAT_CONTACT_PARALLEL 1e-12

/* Broad phase only: these widen the boxes and cell ranges a query examines, never a result.
 * A shape's box is padded by SAT_BROAD_TOUCH_PAD times its touch tolerance, so that every
 * pair the core calls touching has overlapping boxes, plus SAT_BROAD_ROUNDING ulps of the
 * coordinates' magnitude (unit: multiples of DBL_EPSILON), for the rounding of boxes far from
 * the origin. A segment query widens the rows it walks in each cell column by
 * SAT_BROAD_SEGMENT_SLACK of the segment's height (unit: fraction), for the rounding of the
 * column crossings. */
#define SAT_BROAD_TOUCH_PAD 4.0
#define SAT_BROAD_ROUNDING 8.0
#define SAT_BROAD_SEGMENT_SLACK 1e-9

#endif
