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

/* Along the unit direction u the segment passes the centre at `off`, `closest` after its
 * start, and enters half a chord before that. Everything is measured from whichever end
 * is nearer the centre, and nothing squares the segment's length, so far starts and tiny
 * circles keep their precision. */
static int raycast_circle(const sat_shape *s, sat_vec a, sat_vec dir, double tol, sat_hit *hit)
{
    double r = s->radius, la, lb, len;
    sat_vec out = sat__normalize(a, &la);
    if (la <= r + tol) {
        hit->t = 0.0;
        hit->normal = (out.x != 0.0 || out.y != 0.0) ? out : fallback_normal(dir);
        return 1;
    }
    sat_vec u = sat__normalize(dir, &len);
    if (!(len > 0.0))
        return 0; /* a point outside */
    sat_vec b = sat__add(a, dir);
    lb = sat__len(b);
    int from_end = lb < la;
    sat_vec ref = from_end ? b : a;
    double near_tol = tol + SAT_TOUCH_REL * (from_end ? lb : la);
    double off = fabs(sat__cross(u, ref));
    double closest = from_end ? len - sat__dot(b, u) : -sat__dot(a, u);
    if (closest <= 0.0 || off > r + near_tol)
        return 0; /* moving away from an outside start, or passing by */
    double half = off < r ? sqrt((r - off) * (r + off)) : 0.0;
    double entry = closest - half;
    if (entry > len + near_tol)
        return 0;
    hit->t = entry <= 0.0 ? 0.0 : entry >= len ? 1.0 : entry / len;
    /* The hit point relative to the centre, from the nearer end. */
    sat_vec p = sat__add(ref, sat__mul(u, entry - (from_end ? len : 0.0)));
    sat_vec n = r > 0.0 ? sat__normalize(p, NULL) : sat__v(0.0, 0.0);
    hit->normal = (n.x != 0.0 || n.y != 0.0) ? n : fallback_normal(dir);
    return 1;
}

/* Cyrus-Beck: clip the segment against every edge's half-plane. */
static int raycast_polygon(const sat_shape *s, sat_vec a, sat_vec dir, double tol, sat_hit *hit)
{
    const sat_vec *n = sat__cnormal(s), *pl = sat__cplane(s);
    double t_in = 0.0, t_out = 1.0, nearest = -HUGE_VAL;
    int enter = -1, closest = 0;
    /* n . a rounds in proportion to the start's distance; the larger of the two ends' keeps
     * a graze a hit (or a miss) whichever way the segment runs. */
    tol += SAT_TOUCH_REL * fmax(sat__len(a), sat__len(sat__add(a, dir)));
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
        if (t_in > t_out || t_in > 1.0 + SAT_TOUCH_REL)
            return 0;
    }
    if (enter < 0) {
        hit->t = 0.0;
        hit->normal = n[closest];
        return 1;
    }
    hit->t = t_in < 1.0 ? t_in : 1.0;
    hit->normal = n[enter];
    return 1;
}

int sat_shape_raycast(const sat_shape *s, sat_vec p1, sat_vec p2, sat_hit *hit)
{
    if (!sat__in_range(p1.x) || !sat__in_range(p1.y) || !sat__in_range(p2.x) ||
        !sat__in_range(p2.y))
        return 0; /* also NaN and infinities; callers check the range to report it */
    sat_vec a = sat__relative(s, p1.x, p1.y);
    sat_vec dir = sat__sub(p2, p1);
    double tol = SAT_TOUCH_REL * s->bound;
    if (s->kind == SAT_CIRCLE)
        return raycast_circle(s, a, dir, tol, hit);
    return raycast_polygon(s, a, dir, tol, hit);
}
