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
static int raycast_disk(double r, sat_vec a, sat_vec dir, double tol, sat_hit *hit)
{
    double la, lb, len;
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

/* A segment or a capsule: its two side faces (offset by the radius, hit inside the segment's
 * extent) and its two end disks; the first hit of the four. A start within the radius of the
 * segment hits at 0, with the way out from the segment (for a start on the segment itself,
 * the side facing the ray). */
static int raycast_capsule(const sat_shape *s, sat_vec a, sat_vec dir, double tol, sat_hit *hit)
{
    sat__segcore k = sat__seg_core(s, sat__v(0.0, 0.0));
    double r = s->radius, best = HUGE_VAL;
    sat_vec to;
    double dist = sat__core_distance(a, &k, &to);
    if (dist <= r + tol) {
        hit->t = 0.0;
        hit->normal = sat__neg(to);
        if (dist == 0.0 || (to.x == 0.0 && to.y == 0.0))
            hit->normal = sat__dot(k.n, dir) > 0.0 ? sat__neg(k.n) : k.n;
        return 1;
    }
    tol += SAT_TOUCH_REL * fmax(sat__len(a), sat__len(sat__add(a, dir)));
    for (int side = 0; side < 2; side++) {
        sat_vec m = side ? sat__neg(k.n) : k.n;
        double beyond = sat__dot(m, a) - r, closing = -sat__dot(m, dir);
        if (beyond > 0.0 && closing > 0.0 && beyond <= closing + tol) {
            double t = beyond < closing ? beyond / closing : 1.0;
            if (fabs(sat__dot(sat__add(a, sat__mul(dir, t)), k.u)) <= k.L && t < best) {
                best = t;
                hit->t = t;
                hit->normal = m;
            }
        }
    }
    for (int end = 0; end < 2; end++) {
        sat_hit h;
        sat_vec c = end ? k.h : sat__neg(k.h);
        if (raycast_disk(r, sat__sub(a, c), dir, tol, &h) && h.t < best) {
            best = h.t;
            hit->t = h.t; /* (h's part is not set: hit's, -1, stays) */
            hit->normal = h.normal;
        }
    }
    return best <= 1.0;
}

/* Cyrus-Beck: clip the segment against every edge's half-plane. */
static int raycast_polygon(const sat_shape *s, sat_vec a, sat_vec dir, double tol, sat_hit *hit)
{
    const sat_vec *n = sat__cnormal(s);
    double t_in = 0.0, t_out = 1.0, nearest = -HUGE_VAL;
    int enter = -1, closest = 0;
    /* n . a rounds in proportion to the start's distance; the larger of the two ends' keeps
     * a graze a hit (or a miss) whichever way the segment runs. */
    tol += SAT_TOUCH_REL * fmax(sat__len(a), sat__len(sat__add(a, dir)));
    for (int i = 0; i < s->count; i++) {
        double dist = sat__dot(n[i], a) - sat__support(s, i); /* > 0: outside this edge */
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

/* A compound: the earliest entry over the parts (a start inside a part: t = 0 with that
 * part's normal). */
static int compound_raycast(const sat_shape *s, sat_vec p1, sat_vec p2, sat_hit *hit)
{
    int found = 0;
    for (int i = 0; i < s->count; i++) {
        sat_hit h;
        if (sat_shape_raycast(sat__cpart(s, i), p1, p2, &h) && (!found || h.t < hit->t)) {
            *hit = h;
            hit->part = i;
            found = 1;
        }
    }
    return found;
}

int sat_shape_raycast(const sat_shape *s, sat_vec p1, sat_vec p2, sat_hit *hit)
{
    if (!sat__in_range(p1.x) || !sat__in_range(p1.y) || !sat__in_range(p2.x) ||
        !sat__in_range(p2.y))
        return 0; /* also NaN and infinities; callers check the range to report it */
    if (s->kind == SAT_COMPOUND)
        return compound_raycast(s, p1, p2, hit);
    hit->part = -1;
    sat_vec a = sat__relative(s, p1.x, p1.y);
    sat_vec dir = sat__sub(p2, p1);
    double tol = SAT_TOUCH_REL * s->bound;
    if (s->kind == SAT_CIRCLE)
        return raycast_disk(s->radius, a, dir, tol, hit);
    if (sat__has_segment(s))
        return raycast_capsule(s, a, dir, tol, hit);
    return raycast_polygon(s, a, dir, tol, hit);
}
