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
/* 1 when polygon s has exactly the n world vertices of `expect` (counter-clockwise), in the
 * same cyclic order from any start, each within tol. */
int same_outline(const sat_shape *s, const sat_vec *expect, int n, double tol);
/* Every byte of a shape, for "an error leaves the shape unchanged". */
int same_bytes(const sat_shape *a, const sat_shape *b);

#endif
