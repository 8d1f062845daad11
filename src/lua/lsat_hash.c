/*
 * lsat_hash.c - the Lua binding of the spatial hash (sat_hash.h): core.newHash(cellSize).
 *
 * The hash object is the engine under sat.world (lua/sat/world.lua), which is the public
 * API; these methods trust their arguments' meaning (the world checks them first) but still
 * check types, so no call can crash. Handles and contact ids go to Lua as numbers from 1
 * (the core's plus one), so that Lua can index arrays with them.
 *
 * A hash holds its shapes strongly: its user value is a table handle -> shape, which keeps
 * every shape userdata (so its sat_shape) alive while it is in the hash, and lets a shape
 * reference its world without a leak (an ordinary cycle for the collector). It is never
 * handed out: no Lua code can drop a shape the core still points at. Which handle a shape
 * has, the core knows (sat_hash_find). The same table keeps, under keys 0 to -2, the pool:
 * the tables that results given to fill have dropped (hits, responses, move's collisions,
 * all alike), for the next result that needs one, so that a table shared by calls of varying
 * counts makes no garbage either. One pool for every kind, bounded: tables going from a
 * query's result to a move's and back stay in it (with a pool per kind they piled up in the
 * kind they went to, kilobytes a frame). A table is in the pool once, and taken out of it
 * when a caller gives it back in a result to fill; within one result each table fills one
 * entry: `where` tells, for each table, its place in the pool or the fill that took it.
 *
 * No pointer into the hash's memory is held across a call that can run the collector.
 * Creating an object (a table, a userdata, a string) can run a finalizer, and a finalizer
 * can add shapes to this very hash (its buffers then move) or drop the last reference to
 * another. So each function makes the tables and vecs it will fill first, then runs the
 * query, then fills them with raw gets and sets alone, which run no collector in Lua 5.4 or
 * LuaJIT (lapi.c and lj_api.c step it only where an object is made; a table grown by a raw
 * set does not). When what it made turns out too few, or a finalizer took some away, it
 * makes more and runs the query again.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lsat.h"
#include "sat_hash.h"


typedef struct lhash {
    sat_hash *h;
    int cap;        /* the user value's array part holds handles 1..cap */
    lua_Number fill; /* the marks of fills so far (pool_marks) */
} lhash;

static lhash *check_hash(lua_State *L)
{
    lhash *lh = (lhash *)lua_touserdata(L, 1);
    int same = 0;
    if (lh != NULL && lua_getmetatable(L, 1)) {
        same = lua_rawequal(L, -1, lua_upvalueindex(LSAT_UV_HASHMT));
        lua_pop(L, 1);
    }
    if (!same)
        luaL_argerror(L, 1, "hash expected");
    if (lh->h == NULL)
        luaL_error(L, "attempt to use a freed hash");
    return lh;
}

static int nomem(lua_State *L)
{
    return luaL_error(L, "not enough memory");
}

static int too_many_rounds(lua_State *L)
{
    return luaL_error(L, "result table changed while being filled");
}

/* Pushes the user value (handle -> shape) and returns its index. */
static int push_shapes(lua_State *L)
{
    sat_getuservalue(L, 1);
    return lua_gettop(L);
}

/* The pool, in the user value: the tables (POOL_LIST[1..size]), where each table is
 * (POOL_WHERE, weak keys: table -> its index in the list, or the negative mark of the fill
 * that took it last). */
enum { POOL_LIST = 0, POOL_WHERE = -1, POOL_FIRST_KEY = POOL_WHERE };

/* The most tables the pool keeps: more are dropped to the collector. */
#define POOL_MAX 1024

/* Pushes the list and `where` of the pool; returns the list's index (where's is + 1). */
static int push_pool(lua_State *L)
{
    int uv;
    sat_getuservalue(L, 1);
    uv = lua_gettop(L);
    lua_rawgeti(L, uv, POOL_LIST);
    lua_rawgeti(L, uv, POOL_WHERE);
    lua_remove(L, uv);
    return uv;
}

/* where[v] for the table at v (absolute): 0 when none. */
static lua_Number where_of(lua_State *L, int where, int v)
{
    lua_Number w;
    lua_pushvalue(L, v);
    lua_rawget(L, where);
    w = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
    lua_pop(L, 1);
    return w;
}

static void set_where(lua_State *L, int where, int v, lua_Number w)
{
    lua_pushvalue(L, v);
    if (w != 0)
        lua_pushnumber(L, w);
    else
        lua_pushnil(L);
    lua_rawset(L, where);
}

/* Takes the table at v (absolute, at index i of the list) out of the pool: the last one
 * fills its place. */
static void pool_remove(lua_State *L, int list, int where, int v, int i)
{
    int size = (int)lua_rawlen(L, list);
    lua_rawgeti(L, list, i);
    if (i < 1 || i > size || !lua_rawequal(L, -1, v)) { /* not there: nothing to undo */
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    if (i < size) {
        int last;
        lua_rawgeti(L, list, size);
        last = lua_gettop(L);
        set_where(L, where, last, i);
        lua_rawseti(L, list, i);
    }
    lua_pushnil(L);
    lua_rawseti(L, list, size);
}

/* A new mark for one round of a fill (negative: where's marks of pooled tables are not). */
static lua_Number pool_mark(lhash *lh)
{
    lh->fill += 1;
    if (lh->fill > 9007199254740000.0) /* (2^53: never, at a billion fills a second) */
        lh->fill = 1;
    return -lh->fill;
}

/* Empties the table at r but for the vectors under normal and mtv, which a response filled
 * into it later reuses (its metatable stays too): a table from the pool starts bare,
 * whatever it was before (a segment hit's t, a collision's type, the game's own fields), so
 * that no such field of an earlier use shows in a later one. */
static void clear_table(lua_State *L, int r)
{
    lua_pushnil(L);
    while (lua_next(L, r)) {
        lua_pop(L, 1);
        if (lua_rawequal(L, -1, LSAT_KEY(LSAT_K_NORMAL)) || lua_rawequal(L, -1, LSAT_KEY(LSAT_K_MTV)))
            continue;
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, r); /* (clearing a field during the traversal is allowed) */
    }
}

/* Makes t[k] (t absolute; the pool's list and where at list and list + 1) a table of its own
 * for the fill marked `take`: the table there unless another entry of this fill has it
 * (taken out of the pool if the caller gave back a table the pool held), else one from the
 * pool, else, with make, a new one with room for `make` fields (which may run the
 * collector). Returns 0 when it would need a new one and make is 0: then nothing was
 * allocated. */
static int pool_claim(lua_State *L, int list, int t, int k, lua_Number take, int make)
{
    int where = list + 1, v, size;
    lua_rawgeti(L, t, k);
    v = lua_gettop(L);
    if (lua_istable(L, v)) {
        lua_Number w = where_of(L, where, v);
        if (w != take) {
            if (w > 0)
                pool_remove(L, list, where, v, (int)w);
            else
                clear_table(L, v); /* (an earlier fill's: what it held goes) */
            set_where(L, where, v, take);
            lua_pop(L, 1);
            return 1;
        }
    }
    lua_pop(L, 1);
    size = (int)lua_rawlen(L, list);
    if (size > 0) {
        lua_rawgeti(L, list, size);
        lua_pushnil(L);
        lua_rawseti(L, list, size);
    } else if (make) {
        lua_createtable(L, 0, make);
    } else {
        return 0;
    }
    set_where(L, where, lua_gettop(L), take);
    lua_rawseti(L, t, k);
    return 1;
}

/* pool_claim for t[1..n]; with responses (and make), each made a response (lsat_make_response).
 * Returns 0 when a table is missing and make is 0. */
static int pool_claim_all(lua_State *L, int t, int n, lua_Number take, int make, int responses)
{
    int list = push_pool(L), k, ok = 1;
    for (k = 1; k <= n && ok; k++) {
        ok = pool_claim(L, list, t, k, take, make ? 8 : 0);
        if (ok && responses && make) { /* (without make: lsat_fill_response checks) */
            lua_rawgeti(L, t, k);
            lsat_make_response(L, -1);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 2);
    return ok;
}

/* Pushes t[k] when it is a table (1), else nothing (0). */
static int get_table_at(lua_State *L, int t, int k)
{
    lua_rawgeti(L, t, k);
    if (lua_istable(L, -1))
        return 1;
    lua_pop(L, 1);
    return 0;
}

/* The table argument at arg (the caller's, to be filled and trimmed), or a new one, at an
 * absolute index. Making one can run the collector: call it before any query. */
static int out_table(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg)) {
        lua_settop(L, arg);
        lua_newtable(L);
        lua_replace(L, arg);
    }
    luaL_checktype(L, arg, LUA_TTABLE);
    return arg;
}

/* Removes t[n + 1], t[n + 2], ... up to the first nil; with a mark (the fill's, not 0), the
 * tables among them go to the pool (each once, up to POOL_MAX; none that this fill has in
 * t[1..n]), emptied (clear_table). Allocates nothing but the pool's own growth. */
static void trim_into(lua_State *L, int t, int n, lua_Number take)
{
    int pool = take != 0;
    int list = pool ? push_pool(L) : 0, where = list + 1;
    for (;;) {
        lua_rawgeti(L, t, ++n);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1 + 2 * (pool != 0));
            return;
        }
        if (pool && lua_istable(L, -1)) {
            int r = lua_gettop(L), size = (int)lua_rawlen(L, list);
            lua_Number w = where_of(L, where, r);
            if (w <= 0 && w != take) {
                clear_table(L, r);
                if (size < POOL_MAX) {
                    set_where(L, where, r, size + 1);
                    lua_rawseti(L, list, size + 1);
                } else {
                    set_where(L, where, r, 0);
                    lua_pop(L, 1);
                }
            } else {
                lua_pop(L, 1);
            }
        } else {
            lua_pop(L, 1);
        }
        lua_pushnil(L);
        lua_rawseti(L, t, n);
    }
}

static void trim(lua_State *L, int t, int n)
{
    trim_into(L, t, n, 0);
}

/* hash:mark() -> a new mark, for hash:claim and hash:trim (world:move's collisions). */
static int h_mark(lua_State *L)
{
    lua_pushnumber(L, pool_mark(check_hash(L)));
    return 1;
}

/* hash:claim(t, k, mark) -> t[k] made a table of its own for the fill marked `mark`: the
 * one there unless t[j] has it for the same mark, else one from the pool, else a new one. */
static int h_claim(lua_State *L)
{
    lua_Number take;
    int k, round;
    check_hash(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    k = (int)luaL_checkinteger(L, 3);
    take = luaL_checknumber(L, 4);
    luaL_argcheck(L, k >= 1, 3, "index must be >= 1");
    luaL_argcheck(L, take < 0, 4, "not a mark");
    lua_settop(L, 4);
    for (round = 0;; round++) {
        int list;
        if (round == LSAT_MAX_ROUNDS)
            return too_many_rounds(L);
        list = push_pool(L);
        /* (a move's collision has 11 fields, 13 with parts: a new one is made with room for
         * them, not grown by a rehash as they are set) */
        pool_claim(L, list, 2, k, take, 16);
        lua_settop(L, 4);
        if (get_table_at(L, 2, k)) /* (a finalizer run by a new table may change t) */
            return 1;
    }
}

/* hash:trim(t, n, mark) -> t: t[n + 1], ... removed, their tables into the pool (trim_into). */
static int h_trim(lua_State *L)
{
    lua_Number take;
    int n;
    check_hash(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    n = (int)luaL_checkinteger(L, 3);
    take = luaL_checknumber(L, 4);
    luaL_argcheck(L, n >= 0, 3, "count must be >= 0");
    luaL_argcheck(L, take < 0, 4, "not a mark");
    lua_settop(L, 2);
    trim_into(L, 2, n, take);
    return 1;
}

/* t[1..n] = the shapes of the handles, the rest trimmed; returns t. */
static int return_shapes(lua_State *L, int t, const uint32_t *ids, int n)
{
    int k, shapes;
    if (n < 0)
        return nomem(L);
    shapes = push_shapes(L);
    for (k = 0; k < n; k++) {
        lua_rawgeti(L, shapes, (int)ids[k] + 1);
        lua_rawseti(L, t, k + 1);
    }
    lua_pop(L, 1);
    trim(L, t, n);
    lua_pushvalue(L, t);
    return 1;
}

/* t[key] = part + 1 (a part's index in parts(), from 1), or nil for part -1 (no compound). */
static void set_part(lua_State *L, int t, int key, int part)
{
    lua_pushvalue(L, key);
    if (part >= 0)
        lua_pushinteger(L, (lua_Integer)part + 1);
    else
        lua_pushnil(L);
    lua_rawset(L, t);
}

/* lsat_fill_response, then the parts (-1: not a compound) of a and b in contact, as
 * sat_collide_parts names them: `part` is the other's (b's, seen from a), `ownPart` its own.
 * The parts are computed before (no allocation between the lookup and the fill); writing
 * them may allocate, after which nothing is read. */
static int fill_with_parts(lua_State *L, int r, const sat_result *res, int flip, int part_a,
                           int part_b)
{
    if (!lsat_fill_response(L, r, res, flip))
        return 0;
    set_part(L, r, LSAT_KEY(LSAT_K_PART), flip ? part_a : part_b);
    set_part(L, r, LSAT_KEY(LSAT_K_OWNPART), flip ? part_b : part_a);
    return 1;
}

/* The parts of a and b in contact with result res (-1 and -1 unless a compound is one of
 * them). */
static void parts_of(const sat_shape *a, const sat_shape *b, const sat_result *res, int *pa,
                     int *pb)
{
    *pa = *pb = -1;
    if (a->kind == SAT_COMPOUND || b->kind == SAT_COMPOUND)
        sat_collide_parts(a, b, res, pa, pb);
}

/* ---- membership ----------------------------------------------------------------------------- */

/* Makes the user value's array part hold key `need` (a handle plus one), so that storing a
 * shape there allocates nothing: a table that must grow is copied into a new one made twice
 * as big, which replaces it once it is full. A memory error leaves the old table as it was.
 * (LuaJIT's and Lua 5.1 to 5.3's own growth of a table, when memory runs out halfway, can
 * leave an integer key of its hash part behind the grown array part, out of sight; a shape
 * the core holds would then be lost to Lua: the collector could free it. Lua 5.4 grows a
 * table all or nothing, in place: it needs none of this, and makes no garbage.) */
#if LUA_VERSION_NUM >= 504
static void reserve_shapes(lua_State *L, lhash *lh, int need)
{
    (void)L, (void)lh, (void)need;
}
#else
static void reserve_shapes(lua_State *L, lhash *lh, int need)
{
    int cap = lh->cap, k, old, t;
    if (need <= cap)
        return;
    if (cap > INT_MAX / 2)
        nomem(L);
    cap = cap < 16 ? 16 : 2 * cap;
    while (cap < need)
        cap *= 2;
    lua_createtable(L, cap, 2);
    t = lua_gettop(L);
    /* The allocation may run a finalizer that adds to this hash, growing the user value
     * itself: the table copied is the one there now, if it is still too small. From here to
     * the end nothing allocates (the new table holds every key it is given). */
    if (cap > lh->cap) {
        old = push_shapes(L);
        for (k = POOL_FIRST_KEY; k <= lh->cap; k++) {
            lua_rawgeti(L, old, k);
            lua_rawseti(L, t, k);
        }
        lua_pop(L, 1);
        sat_setuservalue(L, 1);
        lh->cap = cap;
    }
    lua_settop(L, t - 1);
}
#endif

/* hash:add(shape [, static [, byHandle]]) -> handle, or false when it is already in; with
 * byHandle, also byHandle[handle] = shape. The shape goes into the user value (and into
 * byHandle) before the core holds it, with the core's room reserved first: a memory error
 * at any step leaves it out of the core, and out of every table but (for the user value's
 * sake, harmlessly) the user value, whose entry the next shape given that handle replaces.
 * Growing the user value allocates, and may run a finalizer that adds to or removes from
 * this hash (the handle reserved then goes to another shape, or the shape is added): after
 * it, everything is asked again. */
static int h_add(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    unsigned flags = lua_toboolean(L, 3) ? SAT_HASH_STATIC : 0u;
    int by = !lua_isnoneornil(L, 4), round;
    uint32_t handle;
    if (by)
        luaL_checktype(L, 4, LUA_TTABLE);
    lua_settop(L, 4);
    for (round = 0;; round++) {
        if (round == LSAT_MAX_ROUNDS)
            return luaL_error(L, "hash changed while a shape was being added");
        if (sat_hash_find(lh->h, s) != SAT_HASH_NONE) {
            lua_pushboolean(L, 0);
            return 1;
        }
        if (sat_hash_reserve(lh->h, &handle))
            return nomem(L);
        if ((int)handle + 1 <= lh->cap || LUA_VERSION_NUM >= 504)
            break;
        reserve_shapes(L, lh, (int)handle + 1);
    }
    /* from here to the insertion nothing allocates but raw sets (no collector) */
    push_shapes(L);
    lua_pushvalue(L, 2);
    lua_rawseti(L, 5, (int)handle + 1);
    if (by) {
        lua_pushvalue(L, 2);
        lua_rawseti(L, 4, (int)handle + 1);
    }
    if (sat_hash_insert(lh->h, s, flags, &handle)) /* cannot fail once reserved */
        return nomem(L);
    lua_pushinteger(L, (lua_Integer)handle + 1);
    return 1;
}

/* hash:remove(shape, out) -> n, or false when it was not in: out[1..n] the ids of the
 * contacts it was in. */
static int h_remove(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    uint32_t handle = sat_hash_find(lh->h, s);
    const uint32_t *dropped;
    int n, k;
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    if (handle == SAT_HASH_NONE) {
        lua_pushboolean(L, 0);
        return 1;
    }
    /* the room for the ids first: out of memory there leaves the shape in (it once left the
     * core, then failed to list what it dropped: the world kept it half-removed) */
    n = sat_hash_remove_count(lh->h, handle);
    for (k = 1; k <= n; k++) {
        lua_rawgeti(L, 3, k);
        if (lua_isnil(L, -1)) {
            lua_pushboolean(L, 0);
            lua_rawseti(L, 3, k);
        }
        lua_pop(L, 1);
    }
    n = sat_hash_remove(lh->h, handle, &dropped);
    push_shapes(L);
    lua_pushnil(L);
    lua_rawseti(L, 4, (int)handle + 1);
    for (k = 0; k < n; k++) {
        lua_pushinteger(L, (lua_Integer)dropped[k] + 1);
        lua_rawseti(L, 3, k + 1);
    }
    lua_pushinteger(L, n);
    return 1;
}

/* hash:has(shape) -> boolean */
static int h_has(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_toshape(L, 2);
    lua_pushboolean(L, s != NULL && sat_hash_find(lh->h, s) != SAT_HASH_NONE);
    return 1;
}

/* hash:isStatic(shape) -> boolean (false when not in) */
static int h_is_static(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_toshape(L, 2);
    uint32_t handle = s ? sat_hash_find(lh->h, s) : SAT_HASH_NONE;
    lua_pushboolean(L, handle != SAT_HASH_NONE && sat_hash_is_static(lh->h, handle));
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

/* hash:shapes([t]) -> the shapes in insertion order */
static int h_shapes(lua_State *L)
{
    lhash *lh = check_hash(L);
    int t = out_table(L, 2);
    const uint32_t *ids;
    int n = sat_hash_handles(lh->h, &ids);
    return return_shapes(L, t, ids, n);
}

static int h_sync(lua_State *L)
{
    lhash *lh = check_hash(L);
    if (sat_hash_sync(lh->h))
        return nomem(L);
    return 0;
}

/* ---- queries -------------------------------------------------------------------------------- */

/* hash:queryPoint(x, y [, t]) */
static int h_query_point(lua_State *L)
{
    lhash *lh = check_hash(L);
    double x = lsat_checkfinite(L, 2), y = lsat_checkfinite(L, 3);
    int t = out_table(L, 4);
    const uint32_t *ids;
    int n = sat_hash_query_point(lh->h, x, y, &ids);
    return return_shapes(L, t, ids, n);
}

/* hash:queryRect(x, y, w, h [, t]), w and h >= 0 */
static int h_query_rect(lua_State *L)
{
    lhash *lh = check_hash(L);
    double x = lsat_checkfinite(L, 2), y = lsat_checkfinite(L, 3);
    double w = lsat_checkfinite(L, 4), hh = lsat_checkfinite(L, 5);
    const uint32_t *ids;
    int t, n;
    luaL_argcheck(L, w >= 0.0, 4, "width must be >= 0");
    luaL_argcheck(L, hh >= 0.0, 5, "height must be >= 0");
    luaL_argcheck(L, isfinite(x + w) && isfinite(y + hh), 4, "rectangle too large");
    t = out_table(L, 6);
    n = sat_hash_query_rect(lh->h, x, y, x + w, y + hh, &ids);
    return return_shapes(L, t, ids, n);
}

/* hash:queryShape(shape [, t]) / hash:neighbors(shape [, t]): the shape itself excluded. */
static int shape_query(lua_State *L, int neighbors)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    int t = out_table(L, 3);
    uint32_t self = sat_hash_find(lh->h, s);
    const uint32_t *ids;
    int n = neighbors ? sat_hash_neighbors(lh->h, s, self, &ids)
                      : sat_hash_query_shape(lh->h, s, self, &ids);
    return return_shapes(L, t, ids, n);
}

static int h_query_shape(lua_State *L)
{
    return shape_query(L, 0);
}

static int h_neighbors(lua_State *L)
{
    return shape_query(L, 1);
}

/* Fills t[1..n] with the hits {shape, t, x, y, nx, ny}; 0 when t[k] is not a table for
 * some k (nothing allocated). */
static int fill_hits(lua_State *L, int t, const sat_hash_hit *hits, int n, sat_vec p1,
                     sat_vec p2)
{
    int k, shapes = push_shapes(L);
    for (k = 0; k < n; k++) {
        double u = hits[k].hit.t;
        int hit;
        if (!get_table_at(L, t, k + 1)) {
            lua_pop(L, 1);
            return 0;
        }
        hit = lua_gettop(L);
        lua_pushvalue(L, LSAT_KEY(LSAT_K_SHAPE));
        lua_rawgeti(L, shapes, (int)hits[k].handle + 1);
        lua_rawset(L, hit);
        lsat_set_number(L, hit, LSAT_KEY(LSAT_K_T), u);
        lsat_set_number(L, hit, LSAT_KEY(LSAT_K_X), u >= 1.0 ? p2.x : p1.x + (p2.x - p1.x) * u);
        lsat_set_number(L, hit, LSAT_KEY(LSAT_K_Y), u >= 1.0 ? p2.y : p1.y + (p2.y - p1.y) * u);
        lsat_set_number(L, hit, LSAT_KEY(LSAT_K_NX), hits[k].hit.normal.x);
        lsat_set_number(L, hit, LSAT_KEY(LSAT_K_NY), hits[k].hit.normal.y);
        set_part(L, hit, LSAT_KEY(LSAT_K_PART), hits[k].hit.part);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

/* hash:querySegment(x1, y1, x2, y2 [, t]) -> { {shape=, t=, x=, y=, nx=, ny=}, ... } */
static int h_query_segment(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_vec p1, p2;
    lua_Number take;
    int t, n, round;
    p1.x = lsat_checkfinite(L, 2), p1.y = lsat_checkfinite(L, 3);
    p2.x = lsat_checkfinite(L, 4), p2.y = lsat_checkfinite(L, 5);
    luaL_argcheck(L, isfinite(p2.x - p1.x) && isfinite(p2.y - p1.y), 4, "segment too long");
    t = out_table(L, 6);
    for (round = 0;; round++) {
        const sat_hash_hit *hits;
        take = pool_mark(lh);
        if (round == LSAT_MAX_ROUNDS)
            return too_many_rounds(L);
        n = sat_hash_query_segment(lh->h, p1, p2, &hits);
        if (n < 0)
            return nomem(L);
        if (pool_claim_all(L, t, n, take, 0, 0) && fill_hits(L, t, hits, n, p1, p2))
            break;
        pool_claim_all(L, t, n, pool_mark(lh), 1, 0); /* (the hits are stale after: again) */
    }
    trim_into(L, t, n, take);
    lua_pushvalue(L, t);
    return 1;
}

/* Fills t[1..n] with responses from the shape s (at 2) to the others of the pairs. */
static int fill_collisions(lua_State *L, lhash *lh, int t, const sat_shape *s,
                           const sat_hash_pair *pairs, int n)
{
    int k, shapes = push_shapes(L);
    for (k = 0; k < n; k++) {
        int r, pa, pb;
        if (!get_table_at(L, t, k + 1)) {
            lua_pop(L, 1);
            return 0;
        }
        r = lua_gettop(L);
        parts_of(s, sat_hash_shape(lh->h, pairs[k].b), &pairs[k].result, &pa, &pb);
        if (!fill_with_parts(L, r, &pairs[k].result, 0, pa, pb)) {
            lua_pop(L, 2);
            return 0;
        }
        lsat_set_value(L, r, LSAT_KEY(LSAT_K_A), 2);
        lua_pushvalue(L, LSAT_KEY(LSAT_K_B));
        lua_rawgeti(L, shapes, (int)pairs[k].b + 1);
        lua_rawset(L, r);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

/* hash:collisions(shape, filter [, t]) -> list of responses (r.a = shape, r.b = other) */
static int h_collisions(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    int filter = lua_toboolean(L, 3), t = out_table(L, 4), n, round;
    lua_Number take;
    for (round = 0;; round++) {
        const sat_hash_pair *pairs;
        take = pool_mark(lh);
        if (round == LSAT_MAX_ROUNDS)
            return too_many_rounds(L);
        n = sat_hash_collisions(lh->h, s, sat_hash_find(lh->h, s), filter, &pairs);
        if (n < 0)
            return nomem(L);
        if (pool_claim_all(L, t, n, take, 0, 1) && fill_collisions(L, lh, t, s, pairs, n))
            break;
        pool_claim_all(L, t, n, pool_mark(lh), 1, 1); /* (the pairs are stale after: again) */
    }
    trim_into(L, t, n, take);
    lua_pushvalue(L, t);
    return 1;
}

/* ---- the step --------------------------------------------------------------------------------- */

/* Writes the triple (id, a, b) of contact id into buf at o + 1..3: its id (from 1) and its
 * two shapes (a added first), from the user value at shapes. */
static void put_contact(lua_State *L, lhash *lh, int buf, int shapes, uint32_t id, int o)
{
    const sat_hash_contact *c = sat_hash_contact_of(lh->h, id);
    lua_pushinteger(L, (lua_Integer)id + 1);
    lua_rawseti(L, buf, o + 1);
    lua_rawgeti(L, shapes, (int)c->a + 1);
    lua_rawseti(L, buf, o + 2);
    lua_rawgeti(L, shapes, (int)c->b + 1);
    lua_rawseti(L, buf, o + 3);
}

/* hash:step(buf) -> ended, added, updated: what changed in the contacts, as contact ids in
 * buf: buf[1..ended] the contacts that ended; then `added` triples (id, a, b), the new
 * contacts in pair order with their shapes (a added first); then `updated` ids, the
 * contacts re-tested; what buf held past them removed. hash:fill reads a contact's result.
 * (The world clears the shapes from buf as it reads them: buf keeps no shape alive.) */
static int h_step(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_hash_delta d;
    int k, o = 0, shapes;
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    if (sat_hash_step(lh->h, &d))
        return nomem(L);
    shapes = push_shapes(L);
    for (k = 0; k < d.nended; k++) {
        lua_pushinteger(L, (lua_Integer)d.ended[k] + 1);
        lua_rawseti(L, 2, ++o);
    }
    for (k = 0; k < d.nadded; k++, o += 3)
        put_contact(L, lh, 2, shapes, d.added[k], o);
    for (k = 0; k < d.nupdated; k++) {
        lua_pushinteger(L, (lua_Integer)d.updated[k] + 1);
        lua_rawseti(L, 2, ++o);
    }
    lua_pop(L, 1);
    trim(L, 2, o);
    lua_pushinteger(L, d.nended);
    lua_pushinteger(L, d.nadded);
    lua_pushinteger(L, d.nupdated);
    return 3;
}

/* hash:contacts(buf) -> n: every contact of the last step in pair order, as triples (id,
 * a, b) in buf (a added first, shapes as in hash:step), what buf held past them removed; for
 * a world that lost track of a step's delta. */
static int h_contacts(lua_State *L)
{
    lhash *lh = check_hash(L);
    const uint32_t *ids;
    int n, k, shapes;
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    n = sat_hash_contacts(lh->h, &ids);
    if (n < 0)
        return nomem(L);
    shapes = push_shapes(L);
    for (k = 0; k < n; k++)
        put_contact(L, lh, 2, shapes, ids[k], 3 * k);
    lua_pop(L, 1);
    trim(L, 2, 3 * n);
    lua_pushinteger(L, n);
    return 1;
}

/* hash:fill(response, id, flip) -> response: the result of contact id (from its a to its
 * b; flip: from b to a) written into the response. */
static int h_fill(lua_State *L)
{
    lhash *lh = check_hash(L);
    lua_Number id = luaL_checknumber(L, 3);
    int flip = lua_toboolean(L, 4), round;
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    for (round = 0;; round++) {
        /* the contact looked up after the last allocation, and filled with none between */
        int pa, pb;
        const sat_hash_contact *c =
            id >= 1 && id <= 4294967295.0 && id == floor(id)
                ? sat_hash_contact_of(lh->h, (uint32_t)(id - 1))
                : NULL;
        luaL_argcheck(L, c != NULL, 3, "no such contact");
        parts_of(sat_hash_shape(lh->h, c->a), sat_hash_shape(lh->h, c->b), &c->result, &pa, &pb);
        if (fill_with_parts(L, 2, &c->result, flip, pa, pb))
            break;
        if (round == LSAT_MAX_ROUNDS)
            return too_many_rounds(L);
        lsat_make_response(L, 2);
    }
    return 1;
}

/* hash:response(t, overlap, nx, ny, aInB, bInA [, part, ownPart]) -> t made a response
 * (metatable, numbers, vecs); the caller sets a and b. part and ownPart: the parts (from 1)
 * of b and a, 0 or nil for none, written only when a part: t is bare but for what the caller
 * set (hash:claim's, as world:move gives it), so that a plain contact writes no nil field. */
static int h_response(lua_State *L)
{
    sat_result r;
    int round, pb, pa;
    check_hash(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    r.overlap = lsat_checkfinite(L, 3);
    r.normal.x = lsat_checkfinite(L, 4);
    r.normal.y = lsat_checkfinite(L, 5);
    r.mtv.x = -r.normal.x * r.overlap + 0.0;
    r.mtv.y = -r.normal.y * r.overlap + 0.0;
    r.a_in_b = lua_toboolean(L, 6);
    r.b_in_a = lua_toboolean(L, 7);
    pb = (int)luaL_optinteger(L, 8, 0) - 1;
    pa = (int)luaL_optinteger(L, 9, 0) - 1;
    lua_settop(L, 2);
    for (round = 0; !lsat_fill_response(L, 2, &r, 0); round++) {
        if (round == LSAT_MAX_ROUNDS)
            return too_many_rounds(L);
        lsat_make_response(L, 2);
    }
    if (pb >= 0)
        set_part(L, 2, LSAT_KEY(LSAT_K_PART), pb);
    if (pa >= 0)
        set_part(L, 2, LSAT_KEY(LSAT_K_OWNPART), pa);
    return 1;
}

/* hash:sweep's buffer: HIT_STRIDE slots per hit, hit k (from 0) at k * HIT_STRIDE + the
 * offsets below. lua/sat/world_move.lua reads it under the same names. Flags are 1 or 0. */
enum {
    HIT_OTHER = 1,       /* the shape met */
    HIT_T = 2,           /* when, in [0, 1] of the motion */
    HIT_MX = 3,          /* the move to the first touch */
    HIT_MY = 4,
    HIT_NX = 5,          /* the normal, from the moving shape toward the other */
    HIT_NY = 6,
    HIT_OVERLAP = 7,
    HIT_OVERLAPPING = 8, /* 1: it overlapped at the start (t 0, the collide result) */
    HIT_AINB = 9,
    HIT_BINA = 10,
    HIT_PART = 11,       /* the other's part met (from 1; 0: not a compound) */
    HIT_OWNPART = 12,    /* the moving shape's own part (the same) */
    HIT_PX = 13,         /* the contact point (written for a query only) */
    HIT_PY = 14,
    HIT_STRIDE = 14
};

static void set_slot(lua_State *L, int buf, int slot, double v)
{
    lua_pushnumber(L, v);
    lua_rawseti(L, buf, slot);
}

static void set_int_slot(lua_State *L, int buf, int slot, int v)
{
    lua_pushinteger(L, (lua_Integer)v);
    lua_rawseti(L, buf, slot);
}

/* hash:sweep(shape, dx, dy, buf [, as [, query]]) -> n: the n hits of the shape moving by
 * (dx, dy), written into buf (sorted by t, distance, insertion). `as`: the world's member the
 * shape stands for (a copy of it, swept from where it would be: world:check), whose entry is
 * skipped and whose static flag counts; by default the shape's own. Without query, category
 * and mask filtered, and none static when that entry is; with query, every shape met (as the
 * queries), and the contact points written. The caller clears the shapes from buf when done
 * with them. */
static int h_sweep(lua_State *L)
{
    lhash *lh = check_hash(L);
    sat_shape *s = lsat_checkshape(L, 2);
    sat_shape *as = lua_isnoneornil(L, 6) ? s : lsat_checkshape(L, 6);
    int query = lua_toboolean(L, 7);
    const sat_hash_sweep_hit *hits;
    sat_vec v, zero = {0.0, 0.0};
    int n, k, shapes;
    v.x = lsat_checkfinite(L, 3);
    v.y = lsat_checkfinite(L, 4);
    luaL_checktype(L, 5, LUA_TTABLE);
    lua_settop(L, 5);
    n = sat_hash_sweep(lh->h, s, sat_hash_find(lh->h, as), v, query ? SAT_HASH_EVERY : 1, &hits);
    if (n < 0)
        return nomem(L);
    shapes = push_shapes(L);
    for (k = 0; k < n; k++) {
        const sat_sweep_hit *hit = &hits[k].hit;
        const sat_result *r = &hit->result;
        int o = k * HIT_STRIDE;
        lua_rawgeti(L, shapes, (int)hits[k].handle + 1);
        lua_rawseti(L, 5, o + HIT_OTHER);
        set_slot(L, 5, o + HIT_T, hit->t);
        set_slot(L, 5, o + HIT_MX, hit->move.x);
        set_slot(L, 5, o + HIT_MY, hit->move.y);
        set_slot(L, 5, o + HIT_NX, r->normal.x);
        set_slot(L, 5, o + HIT_NY, r->normal.y);
        set_slot(L, 5, o + HIT_OVERLAP, r->overlap);
        set_slot(L, 5, o + HIT_OVERLAPPING, hit->overlapping ? 1 : 0);
        set_slot(L, 5, o + HIT_AINB, r->a_in_b ? 1 : 0);
        set_slot(L, 5, o + HIT_BINA, r->b_in_a ? 1 : 0);
        set_int_slot(L, 5, o + HIT_PART, hit->part_b + 1);
        set_int_slot(L, 5, o + HIT_OWNPART, hit->part_a + 1);
        if (query) {
            sat_vec p;
            sat_sweep_point(s, v, sat_hash_shape(lh->h, hits[k].handle), zero, hit, &p);
            set_slot(L, 5, o + HIT_PX, p.x);
            set_slot(L, 5, o + HIT_PY, p.y);
        }
    }
    lua_pop(L, 1);
    lua_pushinteger(L, n);
    return 1;
}

/* hash:cells([level [, t]]) -> flat list cx, cy, count, ... of the cells of the level
 * (default 0) holding shapes, by row then column. */
static int h_cells(lua_State *L)
{
    lhash *lh = check_hash(L);
    lua_Number level = luaL_optnumber(L, 2, 0);
    int t = out_table(L, 3), n, k;
    const sat_hash_cell *cells;
    luaL_argcheck(L, level == floor(level) && level >= 0, 2, "level must be an integer >= 0");
    n = sat_hash_cells(lh->h, level > 4096 ? 4096 : (int)level, &cells);
    if (n < 0)
        return nomem(L);
    for (k = 0; k < n; k++) {
        set_slot(L, t, 3 * k + 1, (double)cells[k].cx);
        set_slot(L, t, 3 * k + 2, (double)cells[k].cy);
        set_slot(L, t, 3 * k + 3, (double)cells[k].count);
    }
    trim(L, t, 3 * n);
    lua_pushvalue(L, t);
    return 1;
}

/* hash:levels([t]) -> the levels holding shapes, ascending (sat_hash_sync first). */
static int h_levels(lua_State *L)
{
    lhash *lh = check_hash(L);
    int t = out_table(L, 2), n, k;
    const uint16_t *levels;
    if (sat_hash_sync(lh->h))
        return nomem(L);
    n = sat_hash_levels(lh->h, &levels);
    for (k = 0; k < n; k++) {
        lua_pushinteger(L, levels[k]);
        lua_rawseti(L, t, k + 1);
    }
    trim(L, t, n);
    lua_pushvalue(L, t);
    return 1;
}

/* Frees the core's hash; the userdata stays, and every method refuses it from then on. The
 * shapes it held are still alive here (the collector keeps what a finalized object refers
 * to until its finalizer has run), so the core can unlink its records from them. */
static int h_gc(lua_State *L)
{
    lhash *lh = (lhash *)luaL_checkudata(L, 1, LSAT_MT_HASH);
    sat_hash_free(lh->h);
    lh->h = NULL;
    return 0;
}

/* hash:limits() -> the largest coordinate the core takes, and its message for beyond it. */
static int h_limits(lua_State *L)
{
    check_hash(L);
    lua_pushnumber(L, SAT_MAX_COORD);
    lua_pushstring(L, sat_status_message(SAT_ERR_RANGE));
    return 2;
}

static int h_tostring(lua_State *L)
{
    lhash *lh = check_hash(L);
    char cell[32];
    lsat_fmt_num(cell, sizeof cell, sat_hash_cell_size(lh->h));
    lua_pushfstring(L, "hash(%d shapes, cell %s)", sat_hash_count(lh->h), cell);
    return 1;
}

/* core.newHash([cellSize]) */
static int l_new_hash(lua_State *L)
{
    double cell = lsat_optfinite(L, 1, SAT_HASH_DEFAULT_CELL);
    lhash *lh;
    luaL_argcheck(L, cell > 0.0, 1, "cell size must be > 0");
    luaL_argcheck(L, cell >= SAT_HASH_MIN_CELL && cell <= SAT_HASH_MAX_CELL, 1,
                  "cell size must be between 1e-100 and 1e150");
    lh = (lhash *)sat_newuserdata_uv(L, sizeof *lh);
    lh->h = NULL;
    lh->cap = 0;
    lua_pushvalue(L, lua_upvalueindex(LSAT_UV_HASHMT));
    lua_setmetatable(L, -2);
    lh->fill = 0;
    lua_newtable(L);
    lua_newtable(L);
    lua_rawseti(L, -2, POOL_LIST);
    lua_newtable(L); /* where: weak keys, so that a table dropped by all is not kept here */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawseti(L, -2, POOL_WHERE);
    sat_setuservalue(L, -2);
    lh->h = sat_hash_new(cell);
    if (lh->h == NULL)
        return nomem(L);
    return 1;
}

static const luaL_Reg hash_methods[] = {
    {"add", h_add},
    {"remove", h_remove},
    {"has", h_has},
    {"isStatic", h_is_static},
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
    {"contacts", h_contacts},
    {"fill", h_fill},
    {"response", h_response},
    {"sweep", h_sweep},
    {"cells", h_cells},
    {"levels", h_levels},
    {"mark", h_mark},
    {"claim", h_claim},
    {"trim", h_trim},
    {"limits", h_limits},
    {NULL, NULL}};

static const luaL_Reg hash_meta[] = {{"__gc", h_gc}, {"__tostring", h_tostring}, {NULL, NULL}};

static const luaL_Reg module_funcs[] = {{"newHash", l_new_hash}, {NULL, NULL}};

void lsat_open_hash(lua_State *L, int module, int base)
{
    int mt = LSAT_SLOT(base, LSAT_UV_HASHMT);
    lua_newtable(L);
    lsat_setfuncs(L, lua_gettop(L), base, hash_methods);
    lua_setfield(L, mt, "__index");
    lsat_setfuncs(L, mt, base, hash_meta);
    /* getmetatable(hash) gives this, not the metatable: no script can call __gc by hand */
    lua_pushliteral(L, "sat.hash");
    lua_setfield(L, mt, "__metatable");
    lsat_setfuncs(L, module, base, module_funcs);
}
