/*
 * lsat_hash.c - the Lua binding of the spatial hash (sat_hash.h): core.newHash(cellSize).
 *
 * The hash object is the engine under sat.world (lua/sat/world.lua), which is the public
 * API; these methods trust their arguments' meaning (the world checks them first) but still
 * check types, so no call can crash.
 *
 * A hash holds its shapes strongly: its user value is a table { [1] = handle+1 -> shape,
 * [2] = shape -> handle }, which keeps every shape userdata (so its sat_shape) alive while
 * it is in the hash, and lets a shape reference its world without a leak (it is an ordinary
 * cycle for the collector).
 *
 * Every query and step first re-syncs the hash (sat_hash_sync): shapes moved by their own
 * methods are picked up here, lazily. Results come back as new tables, except step, which
 * fills tables the caller reuses, so a step allocates nothing when the pairs do not change.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsat.h"
#include "sat_hash.h"

#define MT_HASH "sat.hash"
/* Registered by lsat.c (luaL_newmetatable): the vec and response types. */
#define MT_VEC_NAME LSAT_MT_VEC
#define MT_RESPONSE_NAME LSAT_MT_RESPONSE

/* Every function here shares these upvalues: the metatables, then interned keys (no string
 * is hashed in the hot calls). */
#define UV_HASHMT lua_upvalueindex(1)
#define UV_VECMT lua_upvalueindex(2)
#define UV_RESPMT lua_upvalueindex(3)
#define UV_KEY(k) lua_upvalueindex(4 + (k))
enum { K_OVERLAP, K_NORMAL, K_MTV, K_AINB, K_BINA, K_A, K_B, K_SHAPE, K_T, K_X, K_Y, K_NX,
       K_NY, K_COUNT };
static const char *const key_names[K_COUNT] = {"overlap", "normal", "mtv", "aInB", "bInA",
                                               "a", "b", "shape", "t", "x", "y", "nx", "ny"};
#define UV_COUNT (3 + K_COUNT)

typedef struct lhash {
    sat_hash *h;
    sat_hash_pair *pairs; /* the last step's pairs, kept apart from query buffers */
    size_t npairs, cap;
} lhash;

static lhash *check_hash(lua_State *L)
{
    lhash *lh = (lhash *)lua_touserdata(L, 1);
    int same = 0;
    if (lh != NULL && lua_getmetatable(L, 1)) {
        same = lua_rawequal(L, -1, UV_HASHMT);
        lua_pop(L, 1);
    }
    if (!same)
        luaL_argerror(L, 1, "hash expected");
    if (lh->h == NULL)
        luaL_error(L, "attempt to use a freed hash");
    return lh;
}

static void nomem(lua_State *L)
{
    luaL_error(L, "not enough memory");
}

static double check_finite(lua_State *L, int arg)
{
    double v = (double)luaL_checknumber(L, arg);
    if (!isfinite(v))
        luaL_argerror(L, arg, "finite number expected");
    return v;
}

/* Pushes the user value's subtable k (1: by handle, 2: by shape). */
static void push_uv(lua_State *L, int k)
{
    sat_getuservalue(L, 1);
    lua_rawgeti(L, -1, k);
    lua_remove(L, -2);
}

/* The handle of the shape at idx, or 0 when it is not in the hash. */
static int handle_of(lua_State *L, int idx, uint32_t *handle)
{
    int found;
    idx = lua_absindex(L, idx);
    push_uv(L, 2);
    lua_pushvalue(L, idx);
    lua_rawget(L, -2);
    found = lua_type(L, -1) == LUA_TNUMBER;
    if (found)
        *handle = (uint32_t)lua_tonumber(L, -1);
    lua_pop(L, 2);
    return found;
}

static void sync(lua_State *L, lhash *lh)
{
    if (sat_hash_sync(lh->h))
        nomem(L);
}

/* A list of the shapes of the given handles, on the stack. */
static void push_shapes(lua_State *L, const uint32_t *ids, int n)
{
    int k;
    lua_createtable(L, n, 0);
    push_uv(L, 1);
    for (k = 0; k < n; k++) {
        lua_rawgeti(L, -1, (int)ids[k] + 1);
        lua_rawseti(L, -3, k + 1);
    }
    lua_pop(L, 1);
}

/* Fills the response table at resp from r (seen from a; flip: seen from b). */
static void fill_response(lua_State *L, int resp, const sat_result *r, int flip)
{
    sat_vec n = r->normal, m = r->mtv;
    if (flip) {
        n.x = -n.x + 0.0, n.y = -n.y + 0.0;
        m.x = -m.x + 0.0, m.y = -m.y + 0.0;
    }
    lsat_set_number(L, resp, UV_KEY(K_OVERLAP), r->overlap);
    lsat_set_vec(L, resp, UV_KEY(K_NORMAL), UV_VECMT, n);
    lsat_set_vec(L, resp, UV_KEY(K_MTV), UV_VECMT, m);
    lsat_set_boolean(L, resp, UV_KEY(K_AINB), flip ? r->b_in_a : r->a_in_b);
    lsat_set_boolean(L, resp, UV_KEY(K_BINA), flip ? r->a_in_b : r->b_in_a);
}

/* Gives the table at idx the response metatable when it has none. */
static void set_response_mt(lua_State *L, int idx)
{
    if (lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        return;
    }
    if (lua_istable(L, UV_RESPMT)) {
        lua_pushvalue(L, UV_RESPMT);
        lua_setmetatable(L, idx);
    }
}

/* A new response table {a, b, overlap, normal, mtv, aInB, bInA} with the response
 * metatable; a and b are the values at ia and ib. */
static void push_response(lua_State *L, int ia, int ib, const sat_result *r)
{
    int resp;
    ia = lua_absindex(L, ia);
    ib = lua_absindex(L, ib);
    lua_createtable(L, 0, 7);
    resp = lua_gettop(L);
    set_response_mt(L, resp);
    lsat_set_value(L, resp, UV_KEY(K_A), ia);
    lsat_set_value(L, resp, UV_KEY(K_B), ib);
    fill_response(L, resp, r, 0);
}

/* ---- methods --------------------------------------------------------------------------- */

/* hash:add(shape) -> true, or false when it is already in. */
static int h_add(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    uint32_t handle;
    if (handle_of(L, 2, &handle)) {
        lua_pushboolean(L, 0);
        return 1;
    }
    /* the tables grow first, so a memory error leaves nothing half-added */
    push_uv(L, 1);
    push_uv(L, 2);
    if (sat_hash_insert(lh->h, s, &handle))
        nomem(L);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -3, (int)handle + 1);
    lua_pushvalue(L, 2);
    lua_pushnumber(L, (lua_Number)handle);
    lua_rawset(L, -3);
    lua_pushboolean(L, 1);
    return 1;
}

/* hash:remove(shape) -> true, or false when it was not in. */
static int h_remove(lua_State *L)
{
    lhash *lh = check_hash(L);
    uint32_t handle;
    lsat_checkshape(L, 2);
    if (!handle_of(L, 2, &handle)) {
        lua_pushboolean(L, 0);
        return 1;
    }
    sat_hash_remove(lh->h, handle);
    push_uv(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)handle + 1);
    push_uv(L, 2);
    lua_pushvalue(L, 2);
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_pushboolean(L, 1);
    return 1;
}

static int h_has(lua_State *L)
{
    uint32_t handle;
    check_hash(L);
    lua_pushboolean(L, lsat_toshape(L, 2) != NULL && handle_of(L, 2, &handle));
    return 1;
}

static int h_count(lua_State *L)
{
    lhash *lh = check_hash(L);
    lua_pushinteger(L, (lua_Integer)sat_hash_count(lh->h));
    return 1;
}

static int h_cell_size(lua_State *L)
{
    lhash *lh = check_hash(L);
    lua_pushnumber(L, sat_hash_cell_size(lh->h));
    return 1;
}

static int h_shapes(lua_State *L)
{
    lhash *lh = check_hash(L);
    const uint32_t *ids;
    int n = sat_hash_handles(lh->h, &ids);
    push_shapes(L, ids, n);
    return 1;
}

static int h_sync(lua_State *L)
{
    sync(L, check_hash(L));
    return 0;
}

static int h_query_point(lua_State *L)
{
    lhash *lh = check_hash(L);
    double x = check_finite(L, 2), y = check_finite(L, 3);
    const uint32_t *ids;
    int n;
    sync(L, lh);
    n = sat_hash_query_point(lh->h, x, y, &ids);
    if (n < 0)
        nomem(L);
    push_shapes(L, ids, n);
    return 1;
}

/* hash:queryRect(x, y, w, h), w and h >= 0 */
static int h_query_rect(lua_State *L)
{
    lhash *lh = check_hash(L);
    double x = check_finite(L, 2), y = check_finite(L, 3);
    double w = check_finite(L, 4), hh = check_finite(L, 5);
    const uint32_t *ids;
    int n;
    luaL_argcheck(L, w >= 0.0, 4, "width must be >= 0");
    luaL_argcheck(L, hh >= 0.0, 5, "height must be >= 0");
    luaL_argcheck(L, isfinite(x + w) && isfinite(y + hh), 4, "rectangle too large");
    sync(L, lh);
    n = sat_hash_query_rect(lh->h, x, y, x + w, y + hh, &ids);
    if (n < 0)
        nomem(L);
    push_shapes(L, ids, n);
    return 1;
}

/* hash:querySegment(x1, y1, x2, y2) -> { {shape=, t=, x=, y=, nx=, ny=}, ... } */
static int h_query_segment(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_vec p1, p2;
    const sat_hash_hit *hits;
    int n, k;
    p1.x = check_finite(L, 2), p1.y = check_finite(L, 3);
    p2.x = check_finite(L, 4), p2.y = check_finite(L, 5);
    luaL_argcheck(L, isfinite(p2.x - p1.x) && isfinite(p2.y - p1.y), 4, "segment too long");
    sync(L, lh);
    n = sat_hash_query_segment(lh->h, p1, p2, &hits);
    if (n < 0)
        nomem(L);
    lua_createtable(L, n, 0);
    push_uv(L, 1);
    for (k = 0; k < n; k++) {
        double t = hits[k].hit.t;
        int hit;
        lua_createtable(L, 0, 6);
        hit = lua_gettop(L);
        lua_pushvalue(L, UV_KEY(K_SHAPE));
        lua_rawgeti(L, -3, (int)hits[k].handle + 1);
        lua_rawset(L, hit);
        lsat_set_number(L, hit, UV_KEY(K_T), t);
        lsat_set_number(L, hit, UV_KEY(K_X), t >= 1.0 ? p2.x : p1.x + (p2.x - p1.x) * t);
        lsat_set_number(L, hit, UV_KEY(K_Y), t >= 1.0 ? p2.y : p1.y + (p2.y - p1.y) * t);
        lsat_set_number(L, hit, UV_KEY(K_NX), hits[k].hit.normal.x);
        lsat_set_number(L, hit, UV_KEY(K_NY), hits[k].hit.normal.y);
        lua_rawseti(L, -3, k + 1);
    }
    lua_pop(L, 1);
    return 1;
}

/* hash:queryShape(shape) / hash:neighbors(shape): the shape itself excluded. */
static int shape_query(lua_State *L, int neighbors)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    uint32_t self = SAT_HASH_NONE;
    const uint32_t *ids;
    int n;
    handle_of(L, 2, &self);
    sync(L, lh);
    n = neighbors ? sat_hash_neighbors(lh->h, s, self, &ids)
                  : sat_hash_query_shape(lh->h, s, self, &ids);
    if (n < 0)
        nomem(L);
    push_shapes(L, ids, n);
    return 1;
}

static int h_query_shape(lua_State *L)
{
    return shape_query(L, 0);
}

static int h_neighbors(lua_State *L)
{
    return shape_query(L, 1);
}

/* hash:collisions(shape, filter) -> list of responses (r.a = shape, r.b = other). */
static int h_collisions(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    int filter = lua_toboolean(L, 3);
    uint32_t self = SAT_HASH_NONE;
    const sat_hash_pair *pairs;
    int n, k;
    handle_of(L, 2, &self);
    sync(L, lh);
    n = sat_hash_collisions(lh->h, s, self, filter, &pairs);
    if (n < 0)
        nomem(L);
    lua_settop(L, 2);
    lua_createtable(L, n, 0);
    push_uv(L, 1);
    for (k = 0; k < n; k++) {
        lua_rawgeti(L, 4, (int)pairs[k].b + 1);
        push_response(L, 2, -1, &pairs[k].result);
        lua_rawseti(L, 3, k + 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

/* hash:step(A, B) -> n: A[k], B[k] the shapes of the k-th colliding pair (A[k] inserted
 * first); the entries past n are cleared. hash:fill(response, k, flip) then writes the
 * pair's numbers into a response. */
static int h_step(lua_State *L)
{
    lhash *lh = check_hash(L);
    const sat_hash_pair *pairs;
    size_t k, old;
    int n;
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    sync(L, lh);
    n = sat_hash_step(lh->h, &pairs);
    if (n < 0)
        nomem(L);
    if ((size_t)n > lh->cap) {
        size_t cap = lh->cap ? lh->cap : 64;
        sat_hash_pair *p;
        while (cap < (size_t)n)
            cap *= 2;
        p = (sat_hash_pair *)realloc(lh->pairs, cap * sizeof *p);
        if (p == NULL)
            nomem(L);
        lh->pairs = p;
        lh->cap = cap;
    }
    if (n > 0)
        memcpy(lh->pairs, pairs, (size_t)n * sizeof *pairs);
    old = lh->npairs;
    lh->npairs = (size_t)n;
    push_uv(L, 1);
    for (k = 0; k < (size_t)n; k++) {
        lua_rawgeti(L, 4, (int)lh->pairs[k].a + 1);
        lua_rawseti(L, 2, (int)k + 1);
        lua_rawgeti(L, 4, (int)lh->pairs[k].b + 1);
        lua_rawseti(L, 3, (int)k + 1);
    }
    for (k = (size_t)n; k < old; k++) {
        lua_pushnil(L);
        lua_rawseti(L, 2, (int)k + 1);
        lua_pushnil(L);
        lua_rawseti(L, 3, (int)k + 1);
    }
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

/* hash:event(response, k, a, b, field) -> a[field], b[field]: fills the response from pair k
 * of the last step (seen from its a) and looks up the two shapes' handlers, in one call. */
static int h_event(lua_State *L)
{
    lhash *lh = check_hash(L);
    lua_Number k = luaL_checknumber(L, 3);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_argcheck(L, k >= 1 && k <= (lua_Number)lh->npairs, 3, "no such pair in the last step");
    lua_settop(L, 6);
    set_response_mt(L, 2);
    fill_response(L, 2, &lh->pairs[(size_t)k - 1].result, 0);
    lua_pushvalue(L, 6);
    lua_gettable(L, 4);
    lua_pushvalue(L, 6);
    lua_gettable(L, 5);
    return 2;
}

static int h_fill(lua_State *L)
{
    lhash *lh = check_hash(L);
    lua_Number k = luaL_checknumber(L, 3);
    int flip = lua_toboolean(L, 4);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_argcheck(L, k >= 1 && k <= (lua_Number)lh->npairs, 3, "no such pair in the last step");
    set_response_mt(L, 2);
    fill_response(L, 2, &lh->pairs[(size_t)k - 1].result, flip);
    return 0;
}

/* hash:response(t, overlap, nx, ny, aInB, bInA) -> t made a response (metatable, numbers,
 * vecs); the caller sets a and b. */
static int h_response(lua_State *L)
{
    sat_result r;
    check_hash(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    r.overlap = check_finite(L, 3);
    r.normal.x = check_finite(L, 4);
    r.normal.y = check_finite(L, 5);
    r.mtv.x = -r.normal.x * r.overlap + 0.0;
    r.mtv.y = -r.normal.y * r.overlap + 0.0;
    r.a_in_b = lua_toboolean(L, 6);
    r.b_in_a = lua_toboolean(L, 7);
    lua_settop(L, 2);
    set_response_mt(L, 2);
    fill_response(L, 2, &r, 0);
    return 1;
}

/* hash:sweep(shape, dx, dy, out, sync) -> n: what the shape meets moving by (dx, dy), 10
 * entries each in out: other, t, mx, my (the move to the first touch), nx, ny, overlap,
 * overlapping, aInB, bInA (sorted by t,
 * distance, insertion; category and mask filtered). With sync false the hash is taken as
 * it is (the caller knows only the moving shape changed since the last sync). */
static int h_sweep(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    sat_vec v;
    uint32_t self = SAT_HASH_NONE;
    const sat_hash_sweep_hit *hits;
    int n, k, i = 0;
    v.x = check_finite(L, 3);
    v.y = check_finite(L, 4);
    luaL_checktype(L, 5, LUA_TTABLE);
    lua_settop(L, 6);
    handle_of(L, 2, &self);
    if (lua_toboolean(L, 6))
        sync(L, lh);
    n = sat_hash_sweep(lh->h, s, self, v, 1, &hits);
    if (n < 0)
        nomem(L);
    push_uv(L, 1);
    for (k = 0; k < n; k++) {
        const sat_result *r = &hits[k].result;
        lua_rawgeti(L, 7, (int)hits[k].handle + 1);
        lua_rawseti(L, 5, ++i);
        lua_pushnumber(L, hits[k].t);
        lua_rawseti(L, 5, ++i);
        lua_pushnumber(L, hits[k].move.x);
        lua_rawseti(L, 5, ++i);
        lua_pushnumber(L, hits[k].move.y);
        lua_rawseti(L, 5, ++i);
        lua_pushnumber(L, r->normal.x);
        lua_rawseti(L, 5, ++i);
        lua_pushnumber(L, r->normal.y);
        lua_rawseti(L, 5, ++i);
        lua_pushnumber(L, r->overlap);
        lua_rawseti(L, 5, ++i);
        lua_pushboolean(L, hits[k].overlapping);
        lua_rawseti(L, 5, ++i);
        lua_pushboolean(L, r->a_in_b);
        lua_rawseti(L, 5, ++i);
        lua_pushboolean(L, r->b_in_a);
        lua_rawseti(L, 5, ++i);
    }
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

typedef struct cellkey {
    int64_t cx, cy;
} cellkey;

static int cmp_cell(const void *pa, const void *pb)
{
    const cellkey *a = (const cellkey *)pa, *b = (const cellkey *)pb;
    if (a->cy != b->cy)
        return a->cy < b->cy ? -1 : 1;
    return a->cx < b->cx ? -1 : a->cx > b->cx;
}

/* hash:cells() -> flat list cx, cy, count, ... of the cells holding shapes, by row then
 * column (big shapes, kept out of the cells, are not counted). */
static int h_cells(lua_State *L)
{
    lhash *lh = check_hash(L);
    const uint32_t *ids;
    int n, k, out = 0;
    size_t total = 0, i, j;
    cellkey *keys;
    sync(L, lh);
    n = sat_hash_handles(lh->h, &ids);
    for (k = 0; k < n; k++) {
        int64_t x0, y0, x1, y1;
        if (sat_hash_cells_of(lh->h, ids[k], &x0, &y0, &x1, &y1))
            total += (size_t)((x1 - x0 + 1) * (y1 - y0 + 1));
    }
    keys = (cellkey *)malloc((total ? total : 1) * sizeof *keys);
    if (keys == NULL)
        nomem(L);
    for (k = 0, i = 0; k < n; k++) {
        int64_t x0, y0, x1, y1, cx, cy;
        if (!sat_hash_cells_of(lh->h, ids[k], &x0, &y0, &x1, &y1))
            continue;
        for (cy = y0; cy <= y1; cy++)
            for (cx = x0; cx <= x1; cx++) {
                keys[i].cx = cx;
                keys[i].cy = cy;
                i++;
            }
    }
    qsort(keys, total, sizeof *keys, cmp_cell);
    lua_createtable(L, 0, 0);
    for (i = 0; i < total; i = j) {
        for (j = i + 1; j < total && cmp_cell(&keys[i], &keys[j]) == 0; j++)
            ;
        lua_pushnumber(L, (lua_Number)keys[i].cx);
        lua_rawseti(L, -2, ++out);
        lua_pushnumber(L, (lua_Number)keys[i].cy);
        lua_rawseti(L, -2, ++out);
        lua_pushnumber(L, (lua_Number)(j - i));
        lua_rawseti(L, -2, ++out);
    }
    free(keys);
    return 1;
}

static int h_gc(lua_State *L)
{
    lhash *lh = (lhash *)luaL_checkudata(L, 1, MT_HASH); /* __gc: no upvalues */
    sat_hash_free(lh->h);
    free(lh->pairs);
    lh->h = NULL;
    lh->pairs = NULL;
    lh->npairs = lh->cap = 0;
    return 0;
}

/* hash:limits() -> the largest coordinate the core takes, and its message for beyond it. */
static int h_limits(lua_State *L)
{
    check_hash(L);
#ifdef SAT_MAX_COORD
    lua_pushnumber(L, SAT_MAX_COORD);
    lua_pushstring(L, sat_status_message(SAT_ERR_RANGE));
#else
    lua_pushnumber(L, HUGE_VAL);
    lua_pushstring(L, "out of range");
#endif
    return 2;
}

static int h_tostring(lua_State *L)
{
    lhash *lh = check_hash(L);
    char cell[32];
    snprintf(cell, sizeof cell, "%.14g", sat_hash_cell_size(lh->h));
    lua_pushfstring(L, "hash(%d shapes, cell %s)", sat_hash_count(lh->h), cell);
    return 1;
}

/* core.newHash([cellSize]) */
static int l_new_hash(lua_State *L)
{
    double cell = lua_isnoneornil(L, 1) ? SAT_HASH_DEFAULT_CELL : check_finite(L, 1);
    lhash *lh;
    luaL_argcheck(L, cell > 0.0, 1, "cell size must be > 0");
    lh = (lhash *)sat_newuserdata_uv(L, sizeof *lh);
    memset(lh, 0, sizeof *lh);
    lua_pushvalue(L, UV_HASHMT);
    lua_setmetatable(L, -2);
    lua_createtable(L, 2, 0);
    lua_newtable(L);
    lua_rawseti(L, -2, 1);
    lua_newtable(L);
    lua_rawseti(L, -2, 2);
    sat_setuservalue(L, -2);
    lh->h = sat_hash_new(cell);
    if (lh->h == NULL)
        nomem(L);
    return 1;
}

static const luaL_Reg hash_methods[] = {
    {"add", h_add},
    {"remove", h_remove},
    {"has", h_has},
    {"count", h_count},
    {"cellSize", h_cell_size},
    {"shapes", h_shapes},
    {"sync", h_sync},
    {"queryPoint", h_query_point},
    {"queryRect", h_query_rect},
    {"querySegment", h_query_segment},
    {"queryShape", h_query_shape},
    {"neighbors", h_neighbors},
    {"collisions", h_collisions},
    {"step", h_step},
    {"fill", h_fill},
    {"event", h_event},
    {"response", h_response},
    {"sweep", h_sweep},
    {"cells", h_cells},
    {"limits", h_limits},
    {NULL, NULL}};

/* Pushes the upvalues, in UV_* order. */
static void push_upvalues(lua_State *L)
{
    int k;
    luaL_getmetatable(L, MT_HASH);
    luaL_getmetatable(L, MT_VEC_NAME);
    luaL_getmetatable(L, MT_RESPONSE_NAME);
    for (k = 0; k < K_COUNT; k++)
        lua_pushstring(L, key_names[k]);
}

void lsat_open_hash(lua_State *L)
{
    int module = lua_gettop(L);
    if (luaL_newmetatable(L, MT_HASH)) {
        lua_pushstring(L, MT_HASH);
        lua_setfield(L, -2, "__name");
        lua_newtable(L);
        push_upvalues(L);
        luaL_setfuncs(L, hash_methods, UV_COUNT);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, h_gc);
        lua_setfield(L, -2, "__gc");
        push_upvalues(L);
        lua_pushcclosure(L, h_tostring, UV_COUNT);
        lua_setfield(L, -2, "__tostring");
    }
    lua_pop(L, 1);
    push_upvalues(L);
    lua_pushcclosure(L, l_new_hash, UV_COUNT);
    lua_setfield(L, module, "newHash");
}
