/*
 * lsat_shape.c - the shape types: the constructors (circle, point, polygon, box, segment,
 * capsule, concave, compound, chain), the methods of every kind, Lua fields on shapes, and
 * the lookups that find them.
 *
 * A shape is a full userdata holding the sat_shape itself, vertex array included, so it
 * needs no __gc. It is known by the stamp in its user word (lsat.h), not by its metatable.
 *
 * A shape's keys are found by table lookups alone, with no function call (which LuaJIT's
 * JIT also traces well). Methods and fields never share a name (writing a field named like
 * a method is an error), so the order they are searched in makes no difference:
 * - a shape without fields has its kind's metatable, whose __index is the kind's method
 *   table; the method table's own metatable gives category and mask their defaults;
 * - the first field written gives the shape its field table and a metatable of its own:
 *   its kind's, copied, with __index the field table, whose metatable (LSAT_UV_*FIELDSMT)
 *   sends the other keys on to the method table. Before 5.4 the field table is also the
 *   userdata's environment (user value), which costs nothing there; 5.4 would charge 24
 *   bytes a shape for a user value, so there the shape has none and push_fields finds the
 *   table through the shape's own metatable.
 * category and mask live in the struct, where the broad phase reads them; a write stores the
 * value in the field table too. So readers of a method table use raw gets, which never see
 * the defaults.
 *
 * Once sat.fast has taken the internals (lsat_ffi.c), every metatable of a shape's own is
 * also a key of a table only it holds (LSAT_REG_OWNMT), and sat.fast knows a shape by its
 * metatable: only this file puts metatables there, and no Lua code can give a userdata a
 * metatable (short of the debug library; the FFI functions check the stamp besides). Like
 * any Lua table it keeps the size of its peak. Every metatable here is protected
 * (__metatable, copied into the shapes' own), so that no script reaches the method and field
 * tables behind them.
 *
 * Polygons are built lean (sat_polygon_build_lean): no local points kept apart while they are
 * the offsets, until the first turn or scale away from rotation 0 and scale 1, which gives
 * the polygon a plain userdata block for them (give_local). The block is kept alive by the
 * registry's weak-keyed table LSAT_REG_LOCALS (shape -> block): exactly as long as the
 * shape, with no __gc and nothing in the shape's fields. A clone or a part copied out keeps
 * its local points in its own storage (sat_shape_copy), and needs no block.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lsat.h"

/* Points on the C stack before a polygon's input needs a temporary buffer. */
#define STACK_POINTS 64

/* Each kind's upvalues (its method table, its metatable, its field tables' metatable) and
 * its metatable's registry name. */
static const struct {
    int methods, mt, fieldsmt;
    const char *name;
} kind_uv[SAT_KIND_COUNT] = {
    [SAT_POLYGON] = {LSAT_UV_POLYMETHODS, LSAT_UV_POLYMT, LSAT_UV_POLYFIELDSMT, LSAT_MT_POLYGON},
    [SAT_CIRCLE] = {LSAT_UV_CIRCMETHODS, LSAT_UV_CIRCMT, LSAT_UV_CIRCFIELDSMT, LSAT_MT_CIRCLE},
    [SAT_SEGMENT] = {LSAT_UV_SEGMETHODS, LSAT_UV_SEGMT, LSAT_UV_SEGFIELDSMT, LSAT_MT_SEGMENT},
    [SAT_CAPSULE] = {LSAT_UV_CAPMETHODS, LSAT_UV_CAPMT, LSAT_UV_CAPFIELDSMT, LSAT_MT_CAPSULE},
    [SAT_COMPOUND] = {LSAT_UV_COMPMETHODS, LSAT_UV_COMPMT, LSAT_UV_COMPFIELDSMT,
                      LSAT_MT_COMPOUND},
};

/* The receiver of `method` when it is a shape of kind `kind` or `other` (pass the same
 * twice for one), else "bad self to 'radius' (circle or capsule expected, got polygon)". */
static sat_shape *check_kind(lua_State *L, const char *method, sat_kind kind, sat_kind other)
{
    sat_shape *s = lsat_toshape(L, 1);
    if (s == NULL || (s->kind != kind && s->kind != other)) {
        char name[48]; /* (not pushed: with no argument, it would be the receiver) */
        if (other != kind)
            snprintf(name, sizeof name, "%s or %s", lsat_kind_name(kind), lsat_kind_name(other));
        else
            snprintf(name, sizeof name, "%s", lsat_kind_name(kind));
        lsat_self_error(L, method, name);
    }
    return s;
}

/* The shape userdata on top of the stack was just built: give it its identity, metatable
 * and (on 5.1) the "no fields" environment. */
static void finish_shape(lua_State *L, sat_shape *s)
{
    lsat_state *st = (lsat_state *)lua_touserdata(L, lua_upvalueindex(LSAT_UV_STATE));
    s->id = ++st->next_id;
    s->user = lsat_stamp(s);
    lua_pushvalue(L, lua_upvalueindex(kind_uv[s->kind].mt));
    lua_setmetatable(L, -2);
#if LUA_VERSION_NUM == 501
    lua_pushvalue(L, lua_upvalueindex(LSAT_UV_NOFIELDS));
    sat_setuservalue(L, -2);
#endif
}

/* Pushes the field table of the shape s at idx, or nothing and returns 0 when it has none
 * yet. Allocates nothing (so no finalizer runs between this look and what the caller does
 * with its answer). */
static int push_fields(lua_State *L, int idx, const sat_shape *s)
{
#if SAT_FIELDS_IN_UV
    (void)s;
    sat_getuservalue(L, idx);
    if (lua_istable(L, -1) && !lua_rawequal(L, -1, lua_upvalueindex(LSAT_UV_NOFIELDS)))
        return 1;
    lua_pop(L, 1);
    return 0;
#else
    /* a metatable of its own: the kind's, copied, with __index the field table */
    if (!lua_getmetatable(L, idx))
        return 0;
    if (lua_rawequal(L, -1, lua_upvalueindex(kind_uv[s->kind].mt))) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushvalue(L, LSAT_KEY(LSAT_K_INDEX));
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_istable(L, -1))
        return 1;
    lua_pop(L, 1);
    return 0;
#endif
}

/* Pushes the field table of the shape s at idx, giving the shape one (and the metatable of
 * its own that reads it) when it has none. The new tables are made first and the shape
 * looked at again after: a finalizer run by their allocation may have given it fields,
 * which are kept (ours are dropped). */
static void push_own_fields(lua_State *L, int idx, const sat_shape *s)
{
    int fields, mt;
    idx = lua_absindex(L, idx);
    if (push_fields(L, idx, s))
        return;
    lua_newtable(L);
    fields = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(kind_uv[s->kind].fieldsmt));
    lua_setmetatable(L, fields);
    lua_createtable(L, 0, 4);
    mt = lua_gettop(L);
    lsat_copy_entries(L, lua_upvalueindex(kind_uv[s->kind].mt), mt);
    lua_pushvalue(L, LSAT_KEY(LSAT_K_INDEX));
    lua_pushvalue(L, fields);
    lua_rawset(L, mt);
    lua_getfield(L, LUA_REGISTRYINDEX, LSAT_REG_OWNMT);
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, mt);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
    /* from here to the end nothing allocates */
    if (push_fields(L, idx, s)) {
        lua_replace(L, fields);
        lua_settop(L, fields);
        return;
    }
    lua_setmetatable(L, idx);
#if SAT_FIELDS_IN_UV
    lua_pushvalue(L, fields);
    sat_setuservalue(L, idx);
#endif
}

static int l_circle(lua_State *L)
{
    double x = lsat_checkcoord(L, 1), y = lsat_checkcoord(L, 2), r = lsat_checkfinite(L, 3);
    sat_shape *s;
    if (r < 0.0)
        return luaL_argerror(L, 3, "radius must be >= 0");
    lsat_checkcoord(L, 3);
    s = (sat_shape *)sat_newshape(L, sat_circle_bytes());
    lsat_checkstatus(L, sat_circle_init(s, x, y, r), 3);
    finish_shape(L, s);
    return 1;
}

static int l_point(lua_State *L)
{
    double x = lsat_checkcoord(L, 1), y = lsat_checkcoord(L, 2);
    sat_shape *s = (sat_shape *)sat_newshape(L, sat_circle_bytes());
    lsat_checkstatus(L, sat_circle_init(s, x, y, 0.0), 1);
    finish_shape(L, s);
    return 1;
}

/* segment(x1, y1, x2, y2) and capsule(x1, y1, x2, y2, r): the endpoints' checks, then the
 * radius's (capsule), then the core's refusal (equal endpoints, a segment too short) as an
 * error on argument 3, the second point. */
static int push_segment(lua_State *L, sat_kind kind)
{
    double x1 = lsat_checkcoord(L, 1), y1 = lsat_checkcoord(L, 2);
    double x2 = lsat_checkcoord(L, 3), y2 = lsat_checkcoord(L, 4), r = 0.0;
    sat_shape *s;
    sat_status st;
    if (kind == SAT_CAPSULE) {
        r = lsat_checkfinite(L, 5);
        if (r < 0.0)
            return luaL_argerror(L, 5, sat_status_message(SAT_ERR_NEGATIVE_RADIUS));
        lsat_checkcoord(L, 5);
    }
    s = (sat_shape *)sat_newshape(L, sat_segment_bytes());
    st = kind == SAT_CAPSULE ? sat_capsule_init(s, x1, y1, x2, y2, r)
                             : sat_segment_init(s, x1, y1, x2, y2);
    lsat_checkstatus(L, st, 3);
    finish_shape(L, s);
    return 1;
}

static int l_segment(lua_State *L)
{
    return push_segment(L, SAT_SEGMENT);
}

static int l_capsule(lua_State *L)
{
    return push_segment(L, SAT_CAPSULE);
}

/* Builds the polygon from n points and pushes it; a refusal is an error on argument 1. The
 * points are reduced in place (they are the binding's own copy), and the shape is then sized
 * for the vertices it keeps, not for its input. Nothing is pushed that outlives an error but
 * garbage. */
static int push_polygon(lua_State *L, sat_vec *pts, int n)
{
    sat_outline o;
    sat_shape *s;
    if (n < 3)
        return luaL_argerror(L, 1, sat_status_message(SAT_ERR_TOO_FEW_POINTS));
    lsat_checkstatus(L, sat_polygon_validate(pts, n, pts, &o), 1);
    s = (sat_shape *)sat_newshape(L, sat_polygon_lean_bytes(o.count));
    sat_polygon_build_lean(s, &o);
    finish_shape(L, s);
    return 1;
}

/* Room for n points: the C stack when small, else a temporary userdata (garbage later, also
 * after an error: nothing to free). */
static sat_vec *point_buffer(lua_State *L, sat_vec *stackbuf, size_t n)
{
    if (n > (size_t)SAT_MAX_POINTS)
        luaL_argerror(L, 1, sat_status_message(SAT_ERR_TOO_MANY_POINTS));
    return n <= STACK_POINTS ? stackbuf : (sat_vec *)sat_newuserdata(L, n * sizeof(sat_vec));
}

static double table_number(lua_State *L, int i)
{
    double v;
    lua_rawgeti(L, 1, i);
    if (lua_type(L, -1) != LUA_TNUMBER)
        luaL_argerror(L, 1, lua_pushfstring(L, "number expected at index %d, got %s", i,
                                            lsat_type_name(L, -1)));
    v = (double)lua_tonumber(L, -1);
    if (!isfinite(v))
        luaL_argerror(L, 1, lua_pushfstring(L, "finite number expected at index %d, got %s",
                                            i, lsat_nonfinite_name(v)));
    if (fabs(v) > SAT_MAX_COORD)
        luaL_argerror(L, 1, lua_pushfstring(L, "%s at index %d",
                                            sat_status_message(SAT_ERR_RANGE), i));
    lua_pop(L, 1);
    return v;
}

typedef int (*push_fn)(lua_State *L, sat_vec *pts, int n);

static int polygon_from_table(lua_State *L, push_fn push)
{
    sat_vec stackbuf[STACK_POINTS], *pts;
    size_t len = lua_rawlen(L, 1), i, n;
    int vecs;
    lua_rawgeti(L, 1, 1);
    vecs = lsat_tovec(L, -1) != NULL;
    if (!vecs && lua_type(L, -1) != LUA_TNUMBER)
        return luaL_argerror(L, 1, lua_pushfstring(L, "table of numbers or vecs expected, "
                                                      "got %s at index 1", lsat_type_name(L, -1)));
    lua_pop(L, 1);
    if (!vecs && len % 2 != 0)
        return luaL_argerror(L, 1, lua_pushfstring(L, "odd number of coordinates (%d)",
                                                   (int)len));
    n = vecs ? len : len / 2;
    pts = point_buffer(L, stackbuf, n);
    for (i = 0; i < n; i++) {
        if (vecs) {
            sat_vec *v;
            lua_rawgeti(L, 1, (int)i + 1);
            v = lsat_tovec(L, -1);
            if (v == NULL)
                return luaL_argerror(L, 1, lua_pushfstring(L, "vec expected at index %d, "
                                                              "got %s", (int)i + 1,
                                                           lsat_type_name(L, -1)));
            pts[i] = *v;
            lua_pop(L, 1);
        } else {
            pts[i].x = table_number(L, 2 * (int)i + 1);
            pts[i].y = table_number(L, 2 * (int)i + 2);
        }
    }
    return push(L, pts, (int)n);
}

/* The argument forms of polygon(): x1, y1, x2, y2, ... or one table of numbers or vecs. */
static int outline_args(lua_State *L, push_fn push)
{
    sat_vec stackbuf[STACK_POINTS], *pts;
    int top = lua_gettop(L), i, n;
    if (lua_istable(L, 1)) {
        /* trailing nils are no arguments (a wrapper passing its optional ones on) */
        for (i = 2; i <= top; i++)
            if (!lua_isnil(L, i))
                return luaL_argerror(L, i, lua_pushfstring(L, "nothing expected after the "
                                                              "table of points, got %s",
                                                           lsat_type_name(L, i)));
        lua_settop(L, 1);
        return polygon_from_table(L, push);
    }
    if (top == 0 || !lua_isnumber(L, 1))
        return lsat_type_error(L, 1, "number or table");
    for (i = 1; i <= top; i++)
        lsat_checkcoord(L, i);
    if (top % 2 != 0)
        lsat_checkfinite(L, top + 1); /* "number expected, got no value" */
    n = top / 2;
    pts = point_buffer(L, stackbuf, (size_t)n);
    for (i = 0; i < n; i++) {
        pts[i].x = (double)lua_tonumber(L, 2 * i + 1);
        pts[i].y = (double)lua_tonumber(L, 2 * i + 2);
    }
    return push(L, pts, n);
}

static int l_polygon(lua_State *L)
{
    return outline_args(L, push_polygon);
}

/* A concave outline: validated and decomposed in a work area that is garbage afterwards (also
 * after an error: nothing to free), then built in a shape sized for its parts. */
static int push_concave(lua_State *L, sat_vec *pts, int n)
{
    size_t bytes;
    void *work;
    sat_shape *s;
    if (n < 3)
        return luaL_argerror(L, 1, sat_status_message(SAT_ERR_TOO_FEW_POINTS));
    work = sat_newuserdata(L, sat_concave_work_bytes(n));
    lsat_checkstatus(L, sat_concave_prepare(pts, n, work, &bytes), 1);
    s = (sat_shape *)sat_newshape(L, bytes);
    sat_concave_build(s, work);
    finish_shape(L, s);
    return 1;
}

static int l_concave(lua_State *L)
{
    return outline_args(L, push_concave);
}

/* chain(points [, closed]): the closed flag waits at index 2 while the points are read. */
static int push_chain(lua_State *L, sat_vec *pts, int n)
{
    int closed = lua_toboolean(L, 2);
    size_t bytes;
    sat_shape *s;
    sat_status st = sat_chain_bytes(pts, n, closed, &bytes);
    if (st == SAT_ERR_NO_PARTS)
        return luaL_argerror(L, 1, "needs at least 2 distinct points");
    lsat_checkstatus(L, st, 1);
    s = (sat_shape *)sat_newshape(L, bytes);
    lsat_checkstatus(L, sat_chain_init(s, pts, n, closed), 1);
    finish_shape(L, s);
    return 1;
}

static int l_chain(lua_State *L)
{
    int closed;
    if (!lua_istable(L, 1))
        return lsat_type_error(L, 1, "table");
    if (!lua_isnoneornil(L, 2) && lua_type(L, 2) != LUA_TBOOLEAN)
        return lsat_type_error(L, 2, "boolean or nil");
    closed = lua_toboolean(L, 2);
    lua_settop(L, 1);
    lua_pushboolean(L, closed);
    return polygon_from_table(L, push_chain);
}

/* compound({shape, ...}): copies of the shapes (compounds give their parts). The shapes are
 * held in a table of this call's own while it runs (a finalizer may take them out of the
 * caller's), and the size is asked again after the allocation of the compound, which may
 * run a finalizer that turns one of them (a lean polygon then takes more room). */
static int l_compound(lua_State *L)
{
    const sat_shape *stackbuf[STACK_POINTS], **parts;
    size_t n, i, bytes;
    sat_shape *s;
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    n = (size_t)lua_rawlen(L, 1);
    if (n == 0)
        return luaL_argerror(L, 1, "no parts (a table of shapes expected)");
    if (n > (size_t)SAT_MAX_POINTS)
        return luaL_argerror(L, 1, sat_status_message(SAT_ERR_TOO_MANY_POINTS));
    lua_createtable(L, (int)n, 0); /* 2: the shapes, held */
    parts = n <= STACK_POINTS ? stackbuf
                              : (const sat_shape **)sat_newuserdata(L, n * sizeof *parts);
    /* no allocation from here to the compound's (raw gets and sets of a table made big
     * enough run no collector) */
    for (i = 0; i < n; i++) {
        lua_rawgeti(L, 1, (int)i + 1);
        parts[i] = lsat_toshape(L, -1);
        if (parts[i] == NULL)
            return luaL_argerror(L, 1, lua_pushfstring(L, "shape expected at index %d, got %s",
                                                       (int)i + 1, lsat_type_name(L, -1)));
        lua_rawseti(L, 2, (int)i + 1);
    }
    bytes = sat_compound_bytes(parts, (int)n);
    s = (sat_shape *)sat_newshape(L, bytes);
    while (sat_compound_bytes(parts, (int)n) > bytes) {
        lua_pop(L, 1);
        bytes = sat_compound_bytes(parts, (int)n);
        s = (sat_shape *)sat_newshape(L, bytes);
    }
    lsat_checkstatus(L, sat_compound_init(s, parts, (int)n), 1);
    finish_shape(L, s);
    return 1;
}

static int l_box(lua_State *L)
{
    double x = lsat_checkcoord(L, 1), y = lsat_checkcoord(L, 2);
    double w = lsat_checkfinite(L, 3), h = lsat_checkfinite(L, 4);
    sat_vec pts[4];
    if (!(w > 0.0))
        return luaL_argerror(L, 3, "width must be > 0");
    if (!(h > 0.0))
        return luaL_argerror(L, 4, "height must be > 0");
    lsat_checkcoord(L, 3);
    lsat_checkcoord(L, 4);
    pts[0].x = x;
    pts[0].y = y;
    pts[1].x = x + w;
    pts[1].y = y;
    pts[2].x = x + w;
    pts[2].y = y + h;
    pts[3].x = x;
    pts[3].y = y + h;
    return push_polygon(L, pts, 4);
}

/* ---- shape fields and metamethods -------------------------------------------------------- */

/* Keeps the low 32 bits of an integer-valued number: LuaJIT's bit.bnot(1) (-2) works. */
static int to_bits(lua_State *L, int idx, uint32_t *out)
{
    double d, m;
    if (lua_type(L, idx) != LUA_TNUMBER)
        return 0;
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, idx)) {
        *out = (uint32_t)((lua_Unsigned)lua_tointeger(L, idx) & 0xFFFFFFFFu);
        return 1;
    }
#endif
    d = (double)lua_tonumber(L, idx);
    if (!isfinite(d) || floor(d) != d)
        return 0;
    m = d - 4294967296.0 * floor(d / 4294967296.0); /* d mod 2^32 in [0, 2^32), exact */
    *out = (uint32_t)m;
    return 1;
}

static int is_method(lua_State *L, const sat_shape *s, int key)
{
    int found;
    lua_pushvalue(L, key);
    lua_rawget(L, lua_upvalueindex(kind_uv[s->kind].methods));
    found = !lua_isnil(L, -1);
    lua_pop(L, 1);
    return found;
}

static int shape_newindex(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    int filter = 0; /* 1: category, 2: mask */
    uint32_t bits = 0;
    if (lua_type(L, 2) == LUA_TSTRING) {
        const char *k = lua_tostring(L, 2);
        filter = strcmp(k, "category") == 0 ? 1 : strcmp(k, "mask") == 0 ? 2 : 0;
        if (filter != 0) {
            if (!to_bits(L, 3, &bits))
                return luaL_error(L, "bad value for field '%s' (integer expected, got %s)", k,
                                  lua_type(L, 3) == LUA_TNUMBER ? "non-integer number"
                                                                : lsat_type_name(L, 3));
            /* stored in the field table too, where a table lookup finds it */
            sat_pushuint32(L, bits);
            lua_replace(L, 3);
        } else if (is_method(L, s, 2)) {
            return luaL_error(L, "cannot set field '%s' of a %s: '%s' is a method", k,
                              lsat_kind_name(s->kind), k);
        }
    }
    if (!lua_isnil(L, 3))
        push_own_fields(L, 1, s);
    else if (!push_fields(L, 1, s))
        return 0; /* removing from no fields */
    /* the field and the bits together, after the last allocation (a finalizer's write in
     * between would be lost, or leave the bits and the field apart) */
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, -3);
    if (filter == 1)
        sat_shape_set_filter(s, bits, s->mask); /* (the hashes holding it are told) */
    else if (filter == 2)
        sat_shape_set_filter(s, s->category, bits);
    return 0;
}

static int shape_tostring(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    sat_vec p = sat_shape_position(s);
    char x[32], y[32], r[32], e[4][32];
    lsat_fmt_num(x, sizeof x, p.x);
    lsat_fmt_num(y, sizeof y, p.y);
    if (s->kind == SAT_POLYGON) {
        lua_pushfstring(L, "polygon(%d vertices at %s, %s)", s->count, x, y);
    } else if (s->kind == SAT_COMPOUND) {
        static const char *const forms[] = {"", "concave, ", "chain, ", "closed chain, "};
        lua_pushfstring(L, "compound(%s%d part%s at %s, %s)", forms[sat_compound_form(s)],
                        s->count, s->count == 1 ? "" : "s", x, y);
    } else if (s->kind != SAT_CIRCLE) {
        /* segment(1, 2 -> 3, 4), capsule(r 5, 1, 2 -> 3, 4): its endpoints */
        sat_vec p1, p2;
        sat_segment_endpoints(s, &p1, &p2);
        lsat_fmt_num(e[0], sizeof e[0], p1.x);
        lsat_fmt_num(e[1], sizeof e[1], p1.y);
        lsat_fmt_num(e[2], sizeof e[2], p2.x);
        lsat_fmt_num(e[3], sizeof e[3], p2.y);
        lsat_fmt_num(r, sizeof r, s->radius);
        if (s->kind == SAT_SEGMENT)
            lua_pushfstring(L, "segment(%s, %s -> %s, %s)", e[0], e[1], e[2], e[3]);
        else
            lua_pushfstring(L, "capsule(r %s, %s, %s -> %s, %s)", r, e[0], e[1], e[2], e[3]);
    } else {
        lsat_fmt_num(r, sizeof r, sat_circle_radius(s));
        lua_pushfstring(L, "circle(r %s at %s, %s)", r, x, y);
    }
    return 1;
}

/* ---- shape methods ----------------------------------------------------------------------- */

/* The end of a method that changes the shape: the core's refusal as an error on argument 2,
 * else the shape itself (so that calls chain). */
static int transformed(lua_State *L, sat_status st)
{
    lsat_checkstatus(L, st, 2);
    lua_settop(L, 1);
    return 1;
}

static int shape_move_to(lua_State *L)
{
    sat_shape *s = lsat_checkself(L, "moveTo");
    double x = lsat_checkcoord(L, 2), y = lsat_checkcoord(L, 3);
    return transformed(L, sat_shape_move_to(s, x, y));
}

static int shape_move(lua_State *L)
{
    sat_shape *s = lsat_checkself(L, "move");
    double dx = lsat_checkfinite(L, 2), dy = lsat_checkfinite(L, 3);
    sat_status st = sat_shape_move(s, dx, dy);
    /* out of range: name the coordinate that leaves it */
    if (st == SAT_ERR_RANGE && fabs(s->pos.x + dx) <= SAT_MAX_COORD)
        lsat_checkstatus(L, st, 3);
    return transformed(L, st);
}

static int shape_position(lua_State *L)
{
    sat_vec p = sat_shape_position(lsat_checkself(L, "position"));
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    return 2;
}

/* Gives the lean polygon s at idx the block for its local points, anchored to it (see the
 * top). A memory error leaves the shape as it was: the block is given last. The block is
 * made first and the shape asked again after: a finalizer run by the allocation may have
 * turned it, giving it a block of its own, which must stay the one anchored. */
static void give_local(lua_State *L, int idx, sat_shape *s)
{
    void *block;
    if (sat_shape_local_bytes(s) == 0)
        return;
    idx = lua_absindex(L, idx);
    lua_getfield(L, LUA_REGISTRYINDEX, LSAT_REG_LOCALS);
    block = sat_newuserdata(L, sat_shape_local_bytes(s));
    /* from here to the end nothing allocates (a raw set runs no collector) */
    if (sat_shape_local_bytes(s) != 0) { /* (a polygon's count never changes: same size) */
        lua_pushvalue(L, idx);
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
        sat_shape_give_local(s, block);
    }
    lua_pop(L, 2);
}

/* The four rotations: absolute or not, about a pivot or not. */
static sat_status turn(sat_shape *s, int absolute, int pivot, double a, double cx, double cy)
{
    if (!pivot)
        return absolute ? sat_shape_set_rotation(s, a) : sat_shape_rotate(s, a);
    return absolute ? sat_shape_set_rotation_about(s, a, cx, cy)
                    : sat_shape_rotate_about(s, a, cx, cy);
}

/* rotate(da [, cx, cy]) and setRotation(a [, cx, cy]): with a pivot (as HC's), the shape
 * turns about it; without, about its own position. The pivot is both numbers or neither. A
 * lean polygon's first turn gives it its block (the core refuses it, changing nothing, after
 * every other check) and is then made again. */
static int rotation_change(lua_State *L, int absolute)
{
    sat_shape *s = lsat_checkself(L, absolute ? "setRotation" : "rotate");
    double a = lsat_checkfinite(L, 2), cx = 0.0, cy = 0.0;
    int pivot = !(lua_isnoneornil(L, 3) && lua_isnoneornil(L, 4));
    sat_status st;
    if (pivot) {
        cx = lsat_checkcoord(L, 3);
        cy = lsat_checkcoord(L, 4);
    }
    st = turn(s, absolute, pivot, a, cx, cy);
    if (st == SAT_ERR_NO_LOCAL) {
        give_local(L, 1, s);
        st = turn(s, absolute, pivot, a, cx, cy);
    }
    if (pivot && st == SAT_ERR_RANGE) /* the pivot is in range: the turn takes it out */
        return luaL_argerror(L, 3, "the turn about this pivot takes the shape out of range "
                                   "(coordinates up to 1e150)");
    return transformed(L, st);
}

static int shape_set_rotation(lua_State *L)
{
    return rotation_change(L, 1);
}

static int shape_rotate(lua_State *L)
{
    return rotation_change(L, 0);
}

static int shape_rotation(lua_State *L)
{
    lua_pushnumber(L, sat_shape_rotation(lsat_checkself(L, "rotation")));
    return 1;
}

/* scale(s) or, as LÖVE writes it, scale(sx, sy) with sy == sx: a shape's scale is uniform. */
static int shape_scale(lua_State *L)
{
    sat_shape *s = lsat_checkself(L, "scale");
    double f = lsat_checkfinite(L, 2);
    sat_status st;
    if (!(f > 0.0))
        return luaL_argerror(L, 2, sat_status_message(SAT_ERR_BAD_SCALE));
    if (!lua_isnoneornil(L, 3) && lsat_checkfinite(L, 3) != f)
        return luaL_argerror(L, 3, "non-uniform scale is not supported (sy must equal sx)");
    st = sat_shape_scale(s, f);
    if (st == SAT_ERR_NO_LOCAL) { /* as in rotation_change */
        give_local(L, 1, s);
        st = sat_shape_scale(s, f);
    }
    return transformed(L, st);
}

/* bbox and endpoints: two points as four numbers */
static int push_two_points(lua_State *L, double x1, double y1, double x2, double y2)
{
    lua_pushnumber(L, x1);
    lua_pushnumber(L, y1);
    lua_pushnumber(L, x2);
    lua_pushnumber(L, y2);
    return 4;
}

static int shape_bbox(lua_State *L)
{
    sat_aabb b = sat_shape_bbox(lsat_checkself(L, "bbox"));
    return push_two_points(L, b.x1, b.y1, b.x2, b.y2);
}

static int shape_contains(lua_State *L)
{
    sat_shape *s = lsat_checkself(L, "contains");
    double x = lsat_checkfinite(L, 2), y = lsat_checkfinite(L, 3);
    lua_pushboolean(L, sat_shape_contains(s, x, y));
    return 1;
}

static int shape_area(lua_State *L)
{
    lua_pushnumber(L, sat_shape_area(lsat_checkself(L, "area")));
    return 1;
}

static int shape_kind(lua_State *L)
{
    lua_pushstring(L, lsat_kind_name(lsat_checkself(L, "kind")->kind));
    return 1;
}

/* Pushes a new userdata for a copy of the shape at idx, returning it: the size is asked again
 * after the allocation, which may run a finalizer that turns a lean polygon (its copy then
 * needs room for its local points), and the allocation made again while it is too small. */
static sat_shape *new_copy_of(lua_State *L, const sat_shape *src)
{
    size_t bytes = sat_shape_bytes(src);
    sat_shape *c = (sat_shape *)sat_newshape(L, bytes);
    while (sat_shape_bytes(src) > bytes) {
        lua_pop(L, 1);
        bytes = sat_shape_bytes(src);
        c = (sat_shape *)sat_newshape(L, bytes);
    }
    return c;
}

/* Gives the shape c at idx (made by this call: in no hash) a copy of the entries of the
 * table at fields as its field table, and the filter bits those say (category and mask read
 * as a shape's: the defaults when absent), after the allocations. */
static void copy_fields(lua_State *L, int idx, sat_shape *c, int fields)
{
    uint32_t bits[2] = {1u, 0xFFFFFFFFu};
    static const char *const names[2] = {"category", "mask"};
    int i;
    idx = lua_absindex(L, idx);
    fields = lua_absindex(L, fields);
    push_own_fields(L, idx, c);
    lua_pushstring(L, names[0]);
    lua_pushstring(L, names[1]);
    /* from here to the end nothing allocates (raw sets run no collector) */
    lsat_copy_entries(L, fields, -3);
    for (i = 0; i < 2; i++) {
        lua_pushvalue(L, -2 + i);
        lua_rawget(L, -4);
        to_bits(L, -1, &bits[i]); /* (what a write stored there always converts) */
        lua_pop(L, 1);
    }
    sat_shape_set_filter(c, bits[0], bits[1]);
    lua_pop(L, 3);
}

/* Gives the shape c at idx (made by this call: in no hash) the filter bits of s, and, when
 * they are not the defaults, fields that say so (a shape's category and mask read as the bits
 * the broad phase filters with). The bits are read after the allocations. */
static void copy_filter(lua_State *L, int idx, sat_shape *c, const sat_shape *s)
{
    int f;
    if (s->category == 1u && s->mask == 0xFFFFFFFFu) {
        sat_shape_set_filter(c, 1u, 0xFFFFFFFFu);
        return;
    }
    push_own_fields(L, idx, c);
    f = lua_gettop(L);
    lua_pushstring(L, "category");
    lua_pushstring(L, "mask");
    /* from here to the end nothing allocates (raw sets run no collector) */
    lua_pushvalue(L, f + 1);
    sat_pushuint32(L, s->category);
    lua_rawset(L, f);
    lua_pushvalue(L, f + 2);
    sat_pushuint32(L, s->mask);
    lua_rawset(L, f);
    sat_shape_set_filter(c, s->category, s->mask);
    lua_settop(L, f - 1);
}

/* A copy with a new id; the Lua fields are copied too (a shallow copy of the table). */
static int shape_clone(lua_State *L)
{
    sat_shape *s = lsat_checkself(L, "clone"), *c;
    lua_settop(L, 1);
    c = new_copy_of(L, s);
    sat_shape_copy(c, s);
    finish_shape(L, c);
    if (push_fields(L, 1, s))
        copy_fields(L, 2, c, 3);
    lua_settop(L, 2);
    return 1;
}

/* core.ghost(shape [, ghost]) -> ghost: a copy of the shape with its identity (its id: the
 * pair tests of the copy are the shape's, bit for bit), in no hash, without fields; made in
 * `ghost` when that is a shape in no hash with room enough, else in a new userdata. Internal
 * to sat.world: world:check moves the copy where the shape would go, changing nothing. */
static int l_ghost(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    sat_shape *g = lua_isnoneornil(L, 2) ? NULL : lsat_checkshape(L, 2);
    size_t bytes = sat_shape_bytes(s);
    if (g == NULL || g == s || g->members != NULL || (size_t)lua_rawlen(L, 2) < bytes) {
        lua_settop(L, 1);
        g = (sat_shape *)sat_newshape(L, bytes);
    } else {
        lua_settop(L, 2);
    }
    sat_shape_copy(g, s);
    g->user = lsat_stamp(g);
    lua_pushvalue(L, lua_upvalueindex(kind_uv[g->kind].mt));
    lua_setmetatable(L, 2);
#if LUA_VERSION_NUM == 501
    lua_pushvalue(L, lua_upvalueindex(LSAT_UV_NOFIELDS));
    sat_setuservalue(L, 2);
#endif
    return 1;
}

static int shape_raycast(lua_State *L)
{
    sat_shape *s = lsat_checkself(L, "raycast");
    sat_vec p1, p2;
    sat_hit hit;
    p1.x = lsat_checkfinite(L, 2);
    p1.y = lsat_checkfinite(L, 3);
    p2.x = lsat_checkfinite(L, 4);
    p2.y = lsat_checkfinite(L, 5);
    if (!sat_shape_raycast(s, p1, p2, &hit)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, hit.t);
    lua_pushnumber(L, hit.normal.x);
    lua_pushnumber(L, hit.normal.y);
    return 3;
}

/* vertices([t]) -> t: world coordinates x1, y1, x2, y2, ...; fills and trims t when given
 * (no allocation in a draw loop once t is big enough). A compound's: its outline (a concave
 * shape's) or its points (a chain's). */
static int shape_vertices(lua_State *L)
{
    sat_shape *s = check_kind(L, "vertices", SAT_POLYGON, SAT_COMPOUND);
    int i, count = s->count, outline = s->kind == SAT_COMPOUND;
    if (outline) {
        count = sat_compound_outline_count(s);
        if (count == 0)
            return luaL_error(L, "a compound of parts has no outline (parts() gives its parts)");
    }
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_createtable(L, 2 * count, 0);
    } else {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_settop(L, 2);
    }
    /* the points after the table's allocation, with none in between them (raw sets run no
     * collector): one state of the shape (a shape's count never changes) */
    for (i = 0; i < count; i++) {
        sat_vec v = outline ? sat_compound_outline_point(s, i) : sat_polygon_vertex(s, i);
        lua_pushnumber(L, v.x);
        lua_rawseti(L, 2, 2 * i + 1);
        lua_pushnumber(L, v.y);
        lua_rawseti(L, 2, 2 * i + 2);
    }
    for (i = 2 * count + 1;; i++) {
        lua_rawgeti(L, 2, i);
        if (lua_isnil(L, -1))
            break;
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, 2, i);
    }
    lua_settop(L, 2);
    return 1;
}

static int shape_radius(lua_State *L)
{
    lua_pushnumber(L, sat_circle_radius(check_kind(L, "radius", SAT_CIRCLE, SAT_CAPSULE)));
    return 1;
}

static int shape_set_radius(lua_State *L)
{
    sat_shape *s = check_kind(L, "setRadius", SAT_CIRCLE, SAT_CAPSULE);
    double r = lsat_checkfinite(L, 2);
    if (r < 0.0)
        return luaL_argerror(L, 2, sat_status_message(SAT_ERR_NEGATIVE_RADIUS));
    lsat_checkcoord(L, 2);
    return transformed(L, sat_circle_set_radius(s, r));
}

/* endpoints() -> x1, y1, x2, y2: a segment's or a capsule's, in world coordinates. */
static int shape_endpoints(lua_State *L)
{
    sat_vec p1, p2;
    sat_segment_endpoints(check_kind(L, "endpoints", SAT_SEGMENT, SAT_CAPSULE), &p1, &p2);
    return push_two_points(L, p1.x, p1.y, p2.x, p2.y);
}

/* parts() -> {shape, ...}: copies of a compound's parts in world coordinates (new shapes,
 * with no fields). */
static int shape_parts(lua_State *L)
{
    sat_shape *s = check_kind(L, "parts", SAT_COMPOUND, SAT_COMPOUND);
    int i;
    lua_settop(L, 1);
    lua_createtable(L, s->count, 0);
    for (i = 0; i < s->count; i++) {
        /* (the part is found again after each allocation, as every state is) */
        sat_shape *c = new_copy_of(L, sat_compound_part(s, i));
        sat_shape_copy(c, sat_compound_part(s, i));
        finish_shape(L, c);
        copy_filter(L, -1, c, s);
        lua_rawseti(L, 2, i + 1);
    }
    return 1;
}

static int l_is_shape(lua_State *L)
{
    lua_pushboolean(L, lsat_toshape(L, 1) != NULL);
    return 1;
}

static const luaL_Reg shape_meta[] = {
    {"__newindex", shape_newindex}, {"__tostring", shape_tostring}, {NULL, NULL}};

static const luaL_Reg shape_methods[] = {
    {"moveTo", shape_move_to},   {"move", shape_move},           {"position", shape_position},
    {"setRotation", shape_set_rotation}, {"rotate", shape_rotate}, {"rotation", shape_rotation},
    {"scale", shape_scale},      {"bbox", shape_bbox},           {"contains", shape_contains},
    {"area", shape_area},        {"kind", shape_kind},           {"clone", shape_clone},
    {"raycast", shape_raycast},  {NULL, NULL}};

static const luaL_Reg polygon_methods[] = {{"vertices", shape_vertices}, {NULL, NULL}};

static const luaL_Reg circle_methods[] = {
    {"radius", shape_radius}, {"setRadius", shape_set_radius}, {NULL, NULL}};

static const luaL_Reg segment_methods[] = {{"endpoints", shape_endpoints}, {NULL, NULL}};

static const luaL_Reg compound_methods[] = {
    {"parts", shape_parts}, {"vertices", shape_vertices}, {NULL, NULL}};

static const luaL_Reg capsule_methods[] = {{"endpoints", shape_endpoints},
                                           {"radius", shape_radius},
                                           {"setRadius", shape_set_radius},
                                           {NULL, NULL}};

/* The tables a shape's keys are looked up in (see the top): each kind's metatable and field
 * tables' metatable send keys to its method table, and the method tables' shared metatable
 * gives category and mask their defaults. */
static void link_lookups(lua_State *L, int base)
{
    size_t k;
    lua_createtable(L, 0, 1); /* the method tables' metatable */
    lua_createtable(L, 0, 2); /* the defaults */
    sat_pushuint32(L, 1u);
    lua_setfield(L, -2, "category");
    sat_pushuint32(L, 0xFFFFFFFFu);
    lua_setfield(L, -2, "mask");
    lua_setfield(L, -2, "__index");
    for (k = 0; k < SAT_KIND_COUNT; k++) {
        int methods = LSAT_SLOT(base, kind_uv[k].methods);
        lua_pushvalue(L, -1);
        lua_setmetatable(L, methods);
        lua_pushvalue(L, methods);
        lua_setfield(L, LSAT_SLOT(base, kind_uv[k].mt), "__index");
        lua_pushvalue(L, methods);
        lua_setfield(L, LSAT_SLOT(base, kind_uv[k].fieldsmt), "__index");
    }
    lua_pop(L, 1);
}

/* ---- exact transforms, for the world's digest and snapshots (lua/sat/world_state.lua) -- */

/* core.transformBits(shape) -> x, y, xlo, ylo, angle, scale, radius, category, mask: what
 * the shape holds, unrounded (the position is the double-double x + xlo, y + ylo). Not
 * public API: the pure backend has its twin. */
static int l_transform_bits(lua_State *L)
{
    const sat_shape *s = lsat_checkshape(L, 1);
    lua_pushnumber(L, s->pos.x);
    lua_pushnumber(L, s->pos.y);
    lua_pushnumber(L, s->pos_lo.x);
    lua_pushnumber(L, s->pos_lo.y);
    lua_pushnumber(L, s->angle);
    lua_pushnumber(L, s->scale);
    lua_pushnumber(L, s->radius);
    sat_pushuint32(L, s->category);
    sat_pushuint32(L, s->mask);
    return 9;
}

/* core.setTransformBits(shape, x, y, xlo, ylo, angle, scale, radius) -> shape: puts back
 * what transformBits read (sat_shape_set_transform); a lean polygon is given its block
 * first when it needs one, as rotate does. */
static int l_set_transform_bits(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    sat_vec pos, lo;
    double angle, scale, radius;
    sat_status st;
    pos.x = luaL_checknumber(L, 2);
    pos.y = luaL_checknumber(L, 3);
    lo.x = luaL_checknumber(L, 4);
    lo.y = luaL_checknumber(L, 5);
    angle = luaL_checknumber(L, 6);
    scale = luaL_checknumber(L, 7);
    radius = luaL_checknumber(L, 8);
    st = sat_shape_set_transform(s, pos, lo, angle, scale, radius);
    if (st == SAT_ERR_NO_LOCAL) {
        give_local(L, 1, s);
        st = sat_shape_set_transform(s, pos, lo, angle, scale, radius);
    }
    return transformed(L, st);
}

static const luaL_Reg module_funcs[] = {
    {"circle", l_circle},   {"point", l_point},     {"polygon", l_polygon},
    {"box", l_box},         {"segment", l_segment}, {"capsule", l_capsule},
    {"concave", l_concave}, {"compound", l_compound}, {"chain", l_chain},
    {"isShape", l_is_shape}, {"ghost", l_ghost}, {"transformBits", l_transform_bits},
    {"setTransformBits", l_set_transform_bits}, {NULL, NULL}};

void lsat_open_shape(lua_State *L, int module, int base)
{
    static const luaL_Reg *const own[SAT_KIND_COUNT] = {
        [SAT_POLYGON] = polygon_methods, [SAT_CIRCLE] = circle_methods,
        [SAT_SEGMENT] = segment_methods, [SAT_CAPSULE] = capsule_methods,
        [SAT_COMPOUND] = compound_methods};
    size_t k;
    for (k = 0; k < SAT_KIND_COUNT; k++) {
        int methods = LSAT_SLOT(base, kind_uv[k].methods);
        lsat_setfuncs(L, methods, base, shape_methods);
        lsat_setfuncs(L, methods, base, own[k]);
        lsat_setfuncs(L, LSAT_SLOT(base, kind_uv[k].mt), base, shape_meta);
    }
    lsat_setfuncs(L, module, base, module_funcs);
    link_lookups(L, base);
    /* the anchors of the lean polygons' blocks: kept when the module is loaded again, since
     * the shapes made before still rely on it */
    lua_getfield(L, LUA_REGISTRYINDEX, LSAT_REG_LOCALS);
    if (!lua_istable(L, -1)) {
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_setfield(L, LUA_REGISTRYINDEX, LSAT_REG_LOCALS);
    }
    lua_pop(L, 1);
    /* copied into a shape's own metatable with the rest */
    for (k = 0; k < SAT_KIND_COUNT; k++)
        lsat_protect_metatable(L, LSAT_SLOT(base, kind_uv[k].mt), kind_uv[k].name);
}
