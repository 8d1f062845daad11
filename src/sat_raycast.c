/*
 * Segment casts: the first point where a segment enters a shape.
 */
#include "sat_internal.h"

/* The way out for a start point that is already inside: -direction, or +x as a last resort. */
static sat_vec fallback_normal(sat_vec dir)
{
    sat_vec n = sat__normalize(sat__neg(dir), NULL);
    if (n.x == 0.0 && n.y == 0.0)
        n.x = 1.0;
    return n;
}

static int raycast_circle(const sat_shape *s, sat_vec a, sat_vec dir, double tol, sat_hit *hit)
{
    double r = s->radius, dist;
    sat_vec out = sat__normalize(a, &dist);
    if (dist <= r + tol) {
        hit->t = 0.0;
        hit->normal = (out.x != 0.0 || out.y != 0.0) ? out : fallback_normal(dir);
        return 1;
    }
    /* |a + t dir|^2 = r^2, the smaller root, in the cancellation-free form. */
    double A = sat__dot(dir, dir), B = sat__dot(a, dir), C = (dist - r) * (dist + r);
    if (!(A > 0.0) || B >= 0.0)
        return 0; /* a point, or moving away from an outside start */
    double disc = B * B - A * C;
    if (disc < 0.0) {
        /* A graze within the touching tolerance still counts, at the closest approach. */
        double t = -B / A;
        sat_vec c = sat__add(a, sat__mul(dir, t));
        if (t > 1.0 || sqrt(sat__dot(c, c)) > r + tol)
            return 0;
        hit->t = t;
        hit->normal = sat__normalize(c, NULL);
        return 1;
    }
    double t = C / (-B + sqrt(disc));
    if (t > 1.0)
        return 0;
    if (t < 0.0)
        t = 0.0;
    sat_vec p = sat__add(a, sat__mul(dir, t));
    sat_vec n = sat__normalize(p, NULL);
    hit->t = t;
    hit->normal = (n.x != 0.0 || n.y != 0.0) ? n : fallback_normal(dir);
    return 1;
}

/* Cyrus-Beck: clip the segment against every edge's half-plane. */
static int raycast_polygon(const sat_shape *s, sat_vec a, sat_vec dir, double tol, sat_hit *hit)
{
    const sat_vec *n = sat__cnormal(s), *pl = sat__cplane(s);
    double t_in = 0.0, t_out = 1.0, nearest = -HUGE_VAL;
    int enter = -1, closest = 0;
    for (int i = 0; i < s->count; i++) {
        double dist = sat__dot(n[i], a) - s->scale * pl[i].x; /* > 0: outside this edge */
        double den = sat__dot(n[i], dir);
        if (dist > tol) {
            if (den >= 0.0)
                return 0;
            double t = -dist / den; /* > 0 */
            if (enter < 0 || t > t_in) {
                t_in = t;
                enter = i;
            }
        } else {
            if (dist > nearest) {
                nearest = dist;
                closest = i;
            }
            if (den > 0.0) {
                double t = -dist / den;
                if (t < t_out)
                    t_out = t;
            }
        }
        if (t_in > t_out || t_in > 1.0)
            return 0;
    }
    if (enter < 0) {
        hit->t = 0.0;
        hit->normal = n[closest];
        return 1;
    }
    hit->t = t_in;
    hit->normal = n[enter];
    return 1;
}

int sat_shape_raycast(const sat_shape *s, sat_vec p1, sat_vec p2, sat_hit *hit)
{
    if (!isfinite(p1.x) || !isfinite(p1.y) || !isfinite(p2.x) || !isfinite(p2.y))
        return 0;
    sat_vec a = sat__relative(s, p1.x, p1.y);
    sat_vec dir = sat__sub(p2, p1);
    if (!isfinite(dir.x) || !isfinite(dir.y))
        return 0;
    double tol = SAT_TOUCH_REL * s->bound;
    if (s->kind == SAT_CIRCLE)
        return raycast_circle(s, a, dir, tol, hit);
    return raycast_polygon(s, a, dir, tol, hit);
}
