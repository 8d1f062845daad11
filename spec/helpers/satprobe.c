/*
 * satprobe - the C core's own functions, raw, for the pure backend's spec
 * (spec/pure_core_spec.lua): the core compiled into this module as into sat.core (the same
 * sources and flags), called with the C's statuses and every field of its results, and a
 * shape's whole internal state read back, so that the Lua core (lua/sat/pure/) can be
 * compared with it number by number, bit for bit, where sat.core's API shows only a part.
 *
 * A shape is a full userdata holding the sat_shape. Points are flat tables {x1, y1, ...}.
 * Indices are the C's (0-based) unless named otherwise. A transform that a lean polygon
 * refuses with SAT_ERR_NO_LOCAL gets the block for its local points and is made again, as
 * the binding does (lsat_shape.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "sat.h"
#include "sat_internal.h"

#if LUA_VERSION_NUM == 501
#define probe_rawlen(L, i) lua_objlen(L, (i))
#else
#define probe_rawlen(L, i) lua_rawlen(L, (i))
#endif

/* the registry's weak-keyed table: shape -> the block of its local points */
static const char BLOCKS = 'b';

static sat_shape *check(lua_State *L, int i)
{
    sat_shape *s = (sat_shape *)lua_touserdata(L, i);
    if (s == NULL || probe_rawlen(L, i) < sizeof(sat_shape))
        luaL_argerror(L, i, "probe shape expected");
    return s;
}

static sat_shape *new_shape(lua_State *L, size_t bytes)
{
    sat_shape *s = (sat_shape *)lua_newuserdata(L, bytes);
    memset(s, 0, bytes);
    return s;
}

/* Pushes status, then the shape on top (or nil) */
static int finish(lua_State *L, sat_status st)
{
    lua_pushinteger(L, st);
    if (st == SAT_OK)
        lua_pushvalue(L, -2);
    else
        lua_pushnil(L);
    return 2;
}

static int p_circle(lua_State *L)
{
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2), r = luaL_checknumber(L, 3);
    sat_shape *s = new_shape(L, sat_circle_bytes());
    return finish(L, sat_circle_init(s, x, y, r));
}

static int p_segment(lua_State *L)
{
    sat_shape *s = new_shape(L, sat_segment_bytes());
    return finish(L, sat_segment_init(s, luaL_checknumber(L, 1), luaL_checknumber(L, 2),
                                      luaL_checknumber(L, 3), luaL_checknumber(L, 4)));
}

static int p_capsule(lua_State *L)
{
    sat_shape *s = new_shape(L, sat_capsule_bytes());
    return finish(L, sat_capsule_init(s, luaL_checknumber(L, 1), luaL_checknumber(L, 2),
                                      luaL_checknumber(L, 3), luaL_checknumber(L, 4),
                                      luaL_checknumber(L, 5)));
}

/* A flat table of coordinates as points (a userdata buffer on the stack). */
static sat_vec *points(lua_State *L, int i, int *count)
{
    int n = (int)probe_rawlen(L, i) / 2;
    sat_vec *p = (sat_vec *)lua_newuserdata(L, (size_t)(n > 0 ? n : 1) * sizeof *p);
    for (int k = 0; k < n; k++) {
        lua_rawgeti(L, i, 2 * k + 1);
        p[k].x = lua_tonumber(L, -1);
        lua_rawgeti(L, i, 2 * k + 2);
        p[k].y = lua_tonumber(L, -1);
        lua_pop(L, 2);
    }
    *count = n;
    return p;
}

static void push_points(lua_State *L, const sat_vec *p, int n)
{
    lua_createtable(L, 2 * n, 0);
    for (int k = 0; k < n; k++) {
        lua_pushnumber(L, p[k].x);
        lua_rawseti(L, -2, 2 * k + 1);
        lua_pushnumber(L, p[k].y);
        lua_rawseti(L, -2, 2 * k + 2);
    }
}

/* polygon(points, lean) -> status, shape: validate, then build (lean: as the binding does) */
static int p_polygon(lua_State *L)
{
    int n, lean = lua_toboolean(L, 2);
    sat_outline o;
    luaL_checktype(L, 1, LUA_TTABLE);
    sat_vec *p = points(L, 1, &n);
    sat_status st = sat_polygon_validate(p, n, p, &o);
    if (st != SAT_OK) {
        lua_pushinteger(L, st);
        lua_pushnil(L);
        return 2;
    }
    sat_shape *s = new_shape(L, lean ? sat_polygon_lean_bytes(o.count)
                                     : sat_polygon_bytes(o.count));
    if (lean)
        sat_polygon_build_lean(s, &o);
    else
        sat_polygon_build(s, &o);
    return finish(L, SAT_OK);
}

/* validate(points) -> status, count, exponent, ox, oy, cx, cy, work (flat, count points) */
static int p_validate(lua_State *L)
{
    int n;
    sat_outline o;
    luaL_checktype(L, 1, LUA_TTABLE);
    sat_vec *p = points(L, 1, &n);
    sat_status st = sat_polygon_validate(p, n, p, &o);
    lua_pushinteger(L, st);
    if (st != SAT_OK)
        return 1;
    lua_pushinteger(L, o.count);
    lua_pushinteger(L, o.exponent);
    lua_pushnumber(L, o.origin.x);
    lua_pushnumber(L, o.origin.y);
    lua_pushnumber(L, o.centroid.x);
    lua_pushnumber(L, o.centroid.y);
    push_points(L, o.work, o.count);
    return 8;
}

static int p_merge_close(lua_State *L)
{
    int n;
    sat_vec *p = points(L, 1, &n);
    n = sat__merge_close(p, n, luaL_checknumber(L, 2));
    push_points(L, p, n);
    return 1;
}

static int p_drop_collinear(lua_State *L)
{
    int n;
    sat_vec *p = points(L, 1, &n);
    n = sat__drop_collinear(p, n, luaL_checknumber(L, 2));
    push_points(L, p, n);
    return 1;
}

static void set_num(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void set_array(lua_State *L, const char *k, const sat_vec *v, int n, int y)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, y ? v[i].y : v[i].x);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, k);
}

/* fields(s) -> every field of the shape, as the pure core's record names them */
static int p_fields(lua_State *L)
{
    sat_shape *s = check(L, 1);
    lua_createtable(L, 0, 24);
    set_int(L, "kind", s->kind);
    set_int(L, "count", s->count);
    set_num(L, "px", s->pos.x);
    set_num(L, "py", s->pos.y);
    set_num(L, "plx", s->pos_lo.x);
    set_num(L, "ply", s->pos_lo.y);
    set_num(L, "radius", s->radius);
    set_num(L, "bound", s->bound);
    set_num(L, "scale", s->scale);
    set_num(L, "angle", s->angle);
    set_num(L, "id", (double)s->id);
    set_num(L, "category", (double)s->category);
    set_num(L, "mask", (double)s->mask);
    if (s->kind == SAT_POLYGON) {
        int n = s->count;
        set_array(L, "nx", sat__cnormal(s), n, 0);
        set_array(L, "ny", sat__cnormal(s), n, 1);
        set_array(L, "ox", sat__coff(s), n, 0);
        set_array(L, "oy", sat__coff(s), n, 1);
        lua_pushboolean(L, s->local == SAT__LOCAL_NONE);
        lua_setfield(L, -2, "lean");
        if (s->local != SAT__LOCAL_NONE) {
            set_array(L, "lx", sat__clocal(s), n, 0);
            set_array(L, "ly", sat__clocal(s), n, 1);
        }
        /* what the C derives where it reads it, and the pure core keeps */
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lua_pushnumber(L, sat__support(s, i));
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "sup");
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lua_pushnumber(L, sat__least(s, i));
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "least");
        if (n > 4) {
            const void *d = s->v + 2 * n;
            lua_createtable(L, n, 0);
            for (int i = 0; i < n; i++) {
                int k = n <= SAT_DEEP16 ? ((const uint16_t *)d)[i] : ((const int32_t *)d)[i];
                lua_pushinteger(L, k + 1);
                lua_rawseti(L, -2, i + 1);
            }
            lua_setfield(L, -2, "deep");
        }
    } else if (sat__has_segment(s)) {
        set_num(L, "hx", s->v[0].x);
        set_num(L, "hy", s->v[0].y);
        set_num(L, "ux", s->v[1].x);
        set_num(L, "uy", s->v[1].y);
        set_num(L, "lhx", s->v[2].x);
        set_num(L, "lhy", s->v[2].y);
        set_num(L, "hlen", s->v[3].x);
        set_num(L, "lhlen", s->v[3].y);
    }
    return 1;
}

static int p_set_id(lua_State *L)
{
    check(L, 1)->id = (uint64_t)luaL_checknumber(L, 2);
    return 0;
}

/* The block for a lean polygon's local points, anchored to the shape (as the binding's). */
static void give_local(lua_State *L, int i, sat_shape *s)
{
    size_t bytes = sat_shape_local_bytes(s);
    if (bytes == 0)
        return;
    lua_pushlightuserdata(L, (void *)&BLOCKS);
    lua_rawget(L, LUA_REGISTRYINDEX);
    void *block = lua_newuserdata(L, bytes);
    lua_pushvalue(L, i);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
    lua_pop(L, 2);
    sat_shape_give_local(s, block);
}

static int p_give_local(lua_State *L)
{
    give_local(L, 1, check(L, 1));
    return 0;
}

/* ---- transforms: status ---------------------------------------------------------------- */

#define RETRY(call)                                                                           \
    sat_status st = (call);                                                                   \
    if (st == SAT_ERR_NO_LOCAL) {                                                             \
        give_local(L, 1, s);                                                                  \
        st = (call);                                                                          \
    }                                                                                         \
    lua_pushinteger(L, st);                                                                   \
    return 1;

static int p_move_to(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
    RETRY(sat_shape_move_to(s, x, y))
}

static int p_move(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
    RETRY(sat_shape_move(s, x, y))
}

static int p_set_rotation(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double a = luaL_checknumber(L, 2);
    RETRY(sat_shape_set_rotation(s, a))
}

static int p_rotate(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double a = luaL_checknumber(L, 2);
    RETRY(sat_shape_rotate(s, a))
}

static int p_rotate_about(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double a = luaL_checknumber(L, 2), x = luaL_checknumber(L, 3), y = luaL_checknumber(L, 4);
    RETRY(sat_shape_rotate_about(s, a, x, y))
}

static int p_set_rotation_about(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double a = luaL_checknumber(L, 2), x = luaL_checknumber(L, 3), y = luaL_checknumber(L, 4);
    RETRY(sat_shape_set_rotation_about(s, a, x, y))
}

static int p_scale(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double f = luaL_checknumber(L, 2);
    RETRY(sat_shape_scale(s, f))
}

static int p_set_radius(lua_State *L)
{
    sat_shape *s = check(L, 1);
    double r = luaL_checknumber(L, 2);
    RETRY(sat_circle_set_radius(s, r))
}

static int p_set_filter(lua_State *L)
{
    sat_shape_set_filter(check(L, 1), (uint32_t)luaL_checknumber(L, 2),
                         (uint32_t)luaL_checknumber(L, 3));
    return 0;
}

static int p_clone(lua_State *L)
{
    sat_shape *s = check(L, 1);
    sat_shape *c = new_shape(L, sat_shape_bytes(s));
    sat_shape_copy(c, s);
    return 1;
}

/* ---- queries ---------------------------------------------------------------------------- */

static int p_position(lua_State *L)
{
    sat_vec p = sat_shape_position(check(L, 1));
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    return 2;
}

static int p_bbox(lua_State *L)
{
    sat_aabb b = sat_shape_bbox(check(L, 1));
    lua_pushnumber(L, b.x1);
    lua_pushnumber(L, b.y1);
    lua_pushnumber(L, b.x2);
    lua_pushnumber(L, b.y2);
    return 4;
}

static int p_box(lua_State *L)
{
    sat_vec lo, hi;
    sat__box(check(L, 1), &lo, &hi);
    lua_pushnumber(L, lo.x);
    lua_pushnumber(L, lo.y);
    lua_pushnumber(L, hi.x);
    lua_pushnumber(L, hi.y);
    return 4;
}

static int p_area(lua_State *L)
{
    lua_pushnumber(L, sat_shape_area(check(L, 1)));
    return 1;
}

static int p_vertex(lua_State *L)
{
    sat_vec v = sat_polygon_vertex(check(L, 1), (int)luaL_checkinteger(L, 2));
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

static int p_endpoints(lua_State *L)
{
    sat_vec p1, p2;
    sat_segment_endpoints(check(L, 1), &p1, &p2);
    lua_pushnumber(L, p1.x);
    lua_pushnumber(L, p1.y);
    lua_pushnumber(L, p2.x);
    lua_pushnumber(L, p2.y);
    return 4;
}

static int p_contains(lua_State *L)
{
    lua_pushinteger(L, sat_shape_contains(check(L, 1), luaL_checknumber(L, 2),
                                          luaL_checknumber(L, 3)));
    return 1;
}

static int p_raycast(lua_State *L)
{
    sat_hit h;
    sat_vec p1 = sat__v(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
    sat_vec p2 = sat__v(luaL_checknumber(L, 4), luaL_checknumber(L, 5));
    int hit = sat_shape_raycast(check(L, 1), p1, p2, &h);
    lua_pushinteger(L, hit);
    if (!hit)
        return 1;
    lua_pushnumber(L, h.t);
    lua_pushnumber(L, h.normal.x);
    lua_pushnumber(L, h.normal.y);
    return 4;
}

static int p_interval(lua_State *L)
{
    double lo, hi;
    sat__interval(check(L, 1), sat__v(luaL_checknumber(L, 2), luaL_checknumber(L, 3)),
                  sat__v(luaL_checknumber(L, 4), luaL_checknumber(L, 5)), &lo, &hi);
    lua_pushnumber(L, lo);
    lua_pushnumber(L, hi);
    return 2;
}

/* ---- pairs ------------------------------------------------------------------------------ */

static int p_test(lua_State *L)
{
    lua_pushinteger(L, sat_test(check(L, 1), check(L, 2)));
    return 1;
}

static int push_result(lua_State *L, const sat_result *r)
{
    lua_pushnumber(L, r->overlap);
    lua_pushnumber(L, r->normal.x);
    lua_pushnumber(L, r->normal.y);
    lua_pushnumber(L, r->mtv.x);
    lua_pushnumber(L, r->mtv.y);
    lua_pushinteger(L, r->a_in_b);
    lua_pushinteger(L, r->b_in_a);
    return 7;
}

static int p_collide(lua_State *L)
{
    sat_result r;
    int hit = sat_collide(check(L, 1), check(L, 2), &r);
    lua_pushinteger(L, hit);
    return hit ? 1 + push_result(L, &r) : 1;
}

static int p_contacts(lua_State *L)
{
    sat_vec p[2];
    int n = sat_contacts(check(L, 1), check(L, 2), p);
    lua_pushinteger(L, n);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, p[i].x);
        lua_pushnumber(L, p[i].y);
    }
    return 1 + 2 * n;
}

static int push_sweep(lua_State *L, int hit, const sat_sweep_hit *h)
{
    lua_pushinteger(L, hit);
    if (!hit)
        return 1;
    lua_pushinteger(L, h->overlapping);
    lua_pushnumber(L, h->t);
    lua_pushnumber(L, h->move.x);
    lua_pushnumber(L, h->move.y);
    lua_pushnumber(L, h->dist2);
    return 6 + push_result(L, &h->result);
}

/* sweep(a, vx, vy, b) -> hit, overlapping, t, movex, movey, dist2, result (7) */
static int p_sweep(lua_State *L)
{
    sat_sweep_hit h;
    sat_vec v = sat__v(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
    int hit = sat_sweep(check(L, 1), v, check(L, 4), &h);
    return push_sweep(L, hit, &h);
}

/* sweep_contact(a, vax, vay, b, vbx, vby) -> the same, then the point */
static int p_sweep_contact(lua_State *L)
{
    sat_sweep_hit h;
    sat_vec pt;
    sat_vec va = sat__v(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
    sat_vec vb = sat__v(luaL_checknumber(L, 5), luaL_checknumber(L, 6));
    int hit = sat_sweep_contact(check(L, 1), va, check(L, 4), vb, &h, &pt);
    int n = push_sweep(L, hit, &h);
    if (!hit)
        return n;
    lua_pushnumber(L, pt.x);
    lua_pushnumber(L, pt.y);
    return n + 2;
}

/* explain(a, b) -> {hit, count, deciding, containment, overlap, nx, ny, mx, my, a_in_b,
 * b_in_a, axes = {{nx, ny, from, feature, index, separates, a_min, a_max, b_min, b_max,
 * overlap}, ...}} */
static int p_explain(lua_State *L)
{
    sat_shape *a = check(L, 1), *b = check(L, 2);
    sat_explanation e;
    int cap = 8 + (a->kind == SAT_POLYGON ? a->count : 0) + (b->kind == SAT_POLYGON ? b->count : 0);
    sat_axis *axes = (sat_axis *)lua_newuserdata(L, (size_t)cap * sizeof *axes);
    sat_explain(a, b, &e, axes, cap);
    if (e.count > cap) {
        cap = e.count;
        axes = (sat_axis *)lua_newuserdata(L, (size_t)cap * sizeof *axes);
        sat_explain(a, b, &e, axes, cap);
    }
    lua_createtable(L, 0, 12);
    set_int(L, "hit", e.hit);
    set_int(L, "count", e.count);
    set_int(L, "deciding", e.deciding);
    set_num(L, "containment", e.containment);
    set_num(L, "overlap", e.result.overlap);
    set_num(L, "nx", e.result.normal.x);
    set_num(L, "ny", e.result.normal.y);
    set_num(L, "mx", e.result.mtv.x);
    set_num(L, "my", e.result.mtv.y);
    set_int(L, "a_in_b", e.result.a_in_b);
    set_int(L, "b_in_a", e.result.b_in_a);
    lua_createtable(L, e.count, 0);
    for (int k = 0; k < e.count; k++) {
        const sat_axis *x = &axes[k];
        lua_createtable(L, 0, 11);
        set_num(L, "nx", x->normal.x);
        set_num(L, "ny", x->normal.y);
        set_int(L, "from", x->from);
        set_int(L, "feature", x->feature);
        set_int(L, "index", x->index);
        set_int(L, "separates", x->separates);
        set_num(L, "a_min", x->a_min);
        set_num(L, "a_max", x->a_max);
        set_num(L, "b_min", x->b_min);
        set_num(L, "b_max", x->b_max);
        set_num(L, "overlap", x->overlap);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "axes");
    return 1;
}

/* ---- the C library's functions as the core calls them ---------------------------------- */

static int p_ldexp(lua_State *L)
{
    lua_pushnumber(L, ldexp(luaL_checknumber(L, 1), (int)luaL_checkinteger(L, 2)));
    return 1;
}

static int p_frexp(lua_State *L)
{
    int e;
    double m = frexp(luaL_checknumber(L, 1), &e);
    lua_pushnumber(L, m);
    lua_pushinteger(L, e);
    return 2;
}

/* glibc's fmin and fmax with their operands in the order given: gcc knows them commutative
 * and may swap them at a call site (it did here), which changes which of two zeros of
 * opposite signs comes back; the volatile operands keep the order. */
static int p_fmin(lua_State *L)
{
    volatile double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    double (*volatile f)(double, double) = fmin;
    lua_pushnumber(L, f(x, y));
    return 1;
}

static int p_fmax(lua_State *L)
{
    volatile double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    double (*volatile f)(double, double) = fmax;
    lua_pushnumber(L, f(x, y));
    return 1;
}

static int p_dd_add(lua_State *L)
{
    double hi = luaL_checknumber(L, 1), lo = luaL_checknumber(L, 2);
    sat__dd_add(&hi, &lo, luaL_checknumber(L, 3));
    lua_pushnumber(L, hi);
    lua_pushnumber(L, lo);
    return 2;
}

/* the bits of a double as two 32-bit halves (high, low): for messages and exact checks */
static int p_bits(lua_State *L)
{
    double d = luaL_checknumber(L, 1);
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    lua_pushnumber(L, (double)(u >> 32));
    lua_pushnumber(L, (double)(u & 0xFFFFFFFFu));
    return 2;
}

static int p_status_message(lua_State *L)
{
    lua_pushstring(L, sat_status_message((sat_status)luaL_checkinteger(L, 1)));
    return 1;
}

static const struct {
    const char *name;
    lua_CFunction f;
} funcs[] = {
    {"circle", p_circle}, {"segment", p_segment}, {"capsule", p_capsule},
    {"polygon", p_polygon}, {"validate", p_validate}, {"merge_close", p_merge_close},
    {"drop_collinear", p_drop_collinear}, {"fields", p_fields}, {"set_id", p_set_id},
    {"give_local", p_give_local}, {"move_to", p_move_to}, {"move", p_move},
    {"set_rotation", p_set_rotation}, {"rotate", p_rotate}, {"rotate_about", p_rotate_about},
    {"set_rotation_about", p_set_rotation_about}, {"scale", p_scale},
    {"set_radius", p_set_radius}, {"set_filter", p_set_filter}, {"clone", p_clone},
    {"position", p_position}, {"bbox", p_bbox}, {"box", p_box}, {"area", p_area},
    {"vertex", p_vertex}, {"endpoints", p_endpoints}, {"contains", p_contains},
    {"raycast", p_raycast}, {"interval", p_interval}, {"test", p_test},
    {"collide", p_collide}, {"contacts", p_contacts}, {"sweep", p_sweep},
    {"sweep_contact", p_sweep_contact}, {"explain", p_explain}, {"ldexp", p_ldexp},
    {"frexp", p_frexp}, {"fmin", p_fmin}, {"fmax", p_fmax}, {"dd_add", p_dd_add},
    {"bits", p_bits},
    {"status_message", p_status_message},
};

int luaopen_satprobe(lua_State *L);

int luaopen_satprobe(lua_State *L)
{
    lua_pushlightuserdata(L, (void *)&BLOCKS);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushstring(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, (int)(sizeof funcs / sizeof funcs[0]));
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
        lua_pushcfunction(L, funcs[i].f);
        lua_setfield(L, -2, funcs[i].name);
    }
    return 1;
}
