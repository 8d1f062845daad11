/*
 * oracle.h - geometry written independently of the core (no SAT, no sat_* calls except the
 * small shape builders at the end), used to check the core's answers.
 *
 * Depths are signed: > 0 is the penetration depth (the shortest translation that separates),
 * < 0 is minus the gap between the shapes. Polygons are arrays of world vertices in
 * counter-clockwise order (y-up), as returned by orc_hull.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include "sat.h"

#define ORC_MAX_POINTS 64

/* A vector from two numbers. */
sat_vec orc_v(double x, double y);

/* Convex hull by Andrew's monotone chain: counter-clockwise, no repeated or collinear points.
 * out must hold n points. Returns the hull's vertex count (< 3 when degenerate). */
int orc_hull(const sat_vec *pts, int n, sat_vec *out);
/* Twice the signed area (> 0 counter-clockwise). */
double orc_area2(const sat_vec *p, int n);
/* Area centroid of a simple polygon. */
sat_vec orc_centroid(const sat_vec *p, int n);
/* Distance from q to the segment a-b. */
double orc_segment_distance(sat_vec q, sat_vec a, sat_vec b);
/* Largest signed distance of q to the edge lines of a counter-clockwise convex polygon:
 * < 0 inside (minus the distance to the boundary), > 0 outside (not the distance). */
double orc_edge_margin(sat_vec q, const sat_vec *p, int n);
/* Distance from q to the polygon's outline. */
double orc_outline_distance(sat_vec q, const sat_vec *p, int n);

/* Signed depths, see above. */
double orc_depth_poly_poly(const sat_vec *a, int na, const sat_vec *b, int nb);
double orc_depth_circle_poly(sat_vec c, double r, const sat_vec *p, int n);
double orc_depth_circle_circle(sat_vec ca, double ra, sat_vec cb, double rb);

/* Any two convex bodies, each a core grown by a radius: a core is n world points, a
 * polygon (n >= 3, counter-clockwise), a segment (n = 2) or a point (n = 1). The signed
 * depth goes through the hull of every difference a_i - b_j (a polygon, or a segment or a
 * point when the cores are collinear), grown by ra + rb: the distance from the origin to
 * its outline plus the radii when the origin is inside, else the radii less the distance
 * from the origin to it. */
double orc_depth(const sat_vec *a, int na, double ra, const sat_vec *b, int nb, double rb);
/* Containment margin of body a in body b (as the orc_inside_* below): every point of a's
 * core, grown by ra, against b: the edge margins of a polygon, or the distance to b's core
 * less rb. */
double orc_inside(const sat_vec *a, int na, double ra, const sat_vec *b, int nb, double rb);
/* Distance from q to a core of n points (0 inside a polygon). */
double orc_core_distance(sat_vec q, const sat_vec *p, int n);
/* Distance between the segments a0-a1 and b0-b1: 0 when they cross or touch (by the signs
 * of orientation tests), else the least of the four end-to-segment distances. */
double orc_segments_distance(sat_vec a0, sat_vec a1, sat_vec b0, sat_vec b1);

/* Containment margins: < 0 when a lies inside b with room to spare, > 0 when some part of a
 * sticks out of b (by that much at least), 0 when touching from inside. */
double orc_inside_poly_poly(const sat_vec *a, int na, const sat_vec *b, int nb);
double orc_inside_circle_poly(sat_vec c, double r, const sat_vec *p, int n);
double orc_inside_poly_circle(const sat_vec *p, int n, sat_vec c, double r);
double orc_inside_circle_circle(sat_vec ca, double ra, sat_vec cb, double rb);

/* Test builders (heap; free with sat_shape_free). They record a test failure and return NULL
 * when the core refuses the shape. */
sat_shape *mk_polygon(const double *xy, int n);
sat_shape *mk_box(double x1, double y1, double x2, double y2);
sat_shape *mk_circle(double x, double y, double r);
sat_shape *mk_segment(double x1, double y1, double x2, double y2);
sat_shape *mk_capsule(double x1, double y1, double x2, double y2, double r);
/* A concave shape from n points (x, y pairs): NULL with *st set when the core refuses it
 * (not a test failure: refusals are tested too). */
sat_shape *mk_concave(const double *xy, int n, sat_status *st);
/* A convex shape's core points in the world: a polygon's vertices, a circle's centre, a
 * segment's or capsule's ends. Returns their count. */
int shape_points(const sat_shape *p, sat_vec *out);
/* 1 when none of s[0, n) is NULL (a builder refused it); free_shapes frees them all. */
int all_built(sat_shape **s, int n);
void free_shapes(sat_shape **s, int n);
/* 1 when polygon s has exactly the n world vertices of `expect` (counter-clockwise), in the
 * same cyclic order from any start, each within tol. */
int same_outline(const sat_shape *s, const sat_vec *expect, int n, double tol);
/* Every byte of a shape, for "an error leaves the shape unchanged". */
int same_bytes(const sat_shape *a, const sat_shape *b);
/* Applies a refused change to a copy of s and checks status and bytes (ENSUREF: ctest.h). */
#define REFUSED(S, CALL, WANT)                                                             \
    do {                                                                                   \
        sat_shape *before_ = sat_shape_clone(S);                                           \
        sat_status st_ = (CALL);                                                           \
        ENSUREF(st_ == (WANT), "%s: status %d '%s'", #CALL, (int)st_,                      \
                sat_status_message(st_));                                                  \
        ENSUREF(before_ && same_bytes(before_, S), "%s changed the shape", #CALL);         \
        sat_shape_free(before_);                                                           \
    } while (0)

#endif
