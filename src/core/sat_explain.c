/*
 * sat_explain.c - sat_explain (see sat.h): listens to sat_collide's own pair functions as
 * they run (sat_collide_traced.c) and writes what they report into the caller's axes, seen
 * from the caller's a and b, in world units.
 *
 * The pair functions report in the order they compute the pair (the lower kind first, or an
 * order on the shapes' state) and in the first shape's frame; here the intervals get that
 * shape's position added, and a pair computed the other way round gets its intervals and
 * its "from" swapped. An edge keeps its own normal; an axis through two closest points is
 * turned to lead from the caller's a toward b.
 */
#include <string.h>

#include "sat_internal.h"

void sat__interval(const sat_shape *s, sat_vec c, sat_vec n, double *lo, double *hi)
{
    double at = sat__dot(c, n), w = s->radius;
    if (s->kind == SAT_COMPOUND) { /* its parts' together */
        *lo = HUGE_VAL;
        *hi = -HUGE_VAL;
        for (int i = 0; i < s->count; i++) {
            const sat_shape *p = sat_compound_part(s, i);
            double pl, ph;
            sat__interval(p, sat__add(c, sat__offset(s, p)), n, &pl, &ph);
            *lo = pl < *lo ? pl : *lo;
            *hi = ph > *hi ? ph : *hi;
        }
        return;
    }
    if (s->kind == SAT_POLYGON) {
        sat__project(s, n, lo, hi);
        *lo += at;
        *hi += at;
        return;
    }
    if (sat__has_segment(s))
        w += fabs(sat__dot(sat__seg_half(s), n));
    *lo = at - w;
    *hi = at + w;
}

typedef struct listener {
    sat__sink sink;  /* first: the sink's callbacks get a pointer to it */
    const sat_shape *a, *b;
    const sat_shape *first, *second;
    int swapped;
    sat_vec d;       /* second's position relative to first's */
    sat_axis *axes;
    int capacity;
    int count;       /* axes reported */
    int base;        /* the current pair's first axis */
    int separating;  /* the first separating axis, or -1 */
    int deciding;    /* the verdict's axis, or -1 */
} listener;

static void on_pair(sat__sink *sink, const sat_shape *first, const sat_shape *second)
{
    listener *x = (listener *)(void *)sink;
    x->first = first;
    x->second = second;
    x->swapped = first != x->a;
    x->d = sat__offset(first, second);
    x->base = x->count;
}

static void on_axis(sat__sink *sink, const sat__step *st)
{
    listener *x = (listener *)(void *)sink;
    int k = x->count++;
    if (st->separates && x->separating < 0)
        x->separating = k;
    if (k >= x->capacity)
        return;
    sat_axis *ax = &x->axes[k];
    sat_vec n = st->n;
    double amin = st->amin, amax = st->amax, bmin = st->bmin, bmax = st->bmax;
    if (!st->measured) {
        if (x->swapped)
            n = sat__neg(n); /* from the caller's a toward b */
        sat__interval(x->first, sat__v(0.0, 0.0), n, &amin, &amax);
        sat__interval(x->second, x->d, n, &bmin, &bmax);
    }
    /* the first shape's position along n, from both parts of the double-double */
    double base = sat__dot(x->first->pos, n) + sat__dot(x->first->pos_lo, n);
    ax->normal = n;
    ax->feature = st->feature;
    ax->index = st->index;
    ax->separates = st->separates;
    ax->overlap = st->overlap;
    if (x->swapped) {
        ax->from = 1 - st->from;
        ax->a_min = bmin + base;
        ax->a_max = bmax + base;
        ax->b_min = amin + base;
        ax->b_max = amax + base;
    } else {
        ax->from = st->from;
        ax->a_min = amin + base;
        ax->a_max = amax + base;
        ax->b_min = bmin + base;
        ax->b_max = bmax + base;
    }
}

static void on_verdict(sat__sink *sink, int axis)
{
    listener *x = (listener *)(void *)sink;
    x->deciding = axis < 0 ? -1 : x->base + axis;
}

/* A contained shape's interval along the normal lies inside the other's: the depth adds the
 * distance from it to the nearer end of the other's, beyond the contained one's width. */
static double containment(const sat_shape *a, const sat_shape *b, const sat_result *r)
{
    double lo, hi, extra;
    if (!r->a_in_b && !r->b_in_a)
        return 0.0;
    sat__interval(r->a_in_b ? a : b, sat__v(0.0, 0.0), r->normal, &lo, &hi);
    extra = r->overlap - (hi - lo);
    return extra > 0.0 ? extra : 0.0;
}

int sat_explain(const sat_shape *a, const sat_shape *b, sat_explanation *e, sat_axis *axes,
                int capacity)
{
    listener x;
    sat_result r;
    memset(&x, 0, sizeof x);
    x.sink.pair = on_pair;
    x.sink.axis = on_axis;
    x.sink.verdict = on_verdict;
    x.a = a;
    x.b = b;
    x.axes = axes;
    x.capacity = axes != NULL && capacity > 0 ? capacity : 0;
    x.separating = -1;
    x.deciding = -1;
    memset(e, 0, sizeof *e);
    e->hit = sat__collide_traced(a, b, &r, &x.sink);
    e->count = x.count;
    e->deciding = e->hit ? x.deciding : x.separating;
    if (e->hit) {
        e->result = r;
        e->containment = containment(a, b, &r);
    }
    return e->hit;
}
