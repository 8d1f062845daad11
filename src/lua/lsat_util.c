/*
 * lsat_util.c - what every file of the binding shares (see lsat.h): argument checks with
 * one wording, type names for messages, vecs as other types meet them, table helpers and
 * registration with the shared upvalues.
 */
#include <math.h>
#include <stdio.h>

#include "lsat.h"

const char lsat_stamp_key = 0;

/* ---- errors and checks ------------------------------------------------------------------- */

/* Whether name is the name of the shapes' or the vecs' metatables. */
static int is_own_name(const char *name)
{
    return strcmp(name, LSAT_MT_POLYGON) == 0 || strcmp(name, LSAT_MT_CIRCLE) == 0 ||
           strcmp(name, LSAT_MT_SEGMENT) == 0 || strcmp(name, LSAT_MT_CAPSULE) == 0 ||
           strcmp(name, LSAT_MT_VEC) == 0;
}

const char *lsat_type_name(lua_State *L, int idx)
{
    const sat_shape *s = lsat_toshape(L, idx); /* a shape with fields has its own metatable */
    idx = lua_absindex(L, idx);
    if (s != NULL)
        return lsat_kind_name(s->kind);
    if (lsat_tovec(L, idx) != NULL)
        return "vec";
    if (lua_getmetatable(L, idx)) {
        int response;
        lua_getfield(L, LUA_REGISTRYINDEX, LSAT_MT_RESPONSE);
        response = lua_rawequal(L, -1, -2);
        lua_pop(L, 1);
        if (response) {
            lua_pop(L, 1);
            return "response";
        }
        /* another library's object: its own type name, as Lua 5.3+ reports it (not the name
         * of a shape's or a vec's metatable: a userdata given one is neither) */
        lua_getfield(L, -1, "__name");
        if (lua_type(L, -1) == LUA_TSTRING && !is_own_name(lua_tostring(L, -1))) {
            /* left on the stack: the next allocation (the message's own) may run a
             * finalizer that changes that metatable and collects the old name */
            lua_remove(L, -2);
            return lua_tostring(L, -1);
        }
        lua_pop(L, 2);
    }
    return luaL_typename(L, idx);
}

int lsat_type_error(lua_State *L, int arg, const char *expected)
{
    const char *msg = lua_pushfstring(L, "%s expected, got %s", expected,
                                      lsat_type_name(L, arg));
    return luaL_argerror(L, arg, msg);
}

sat_shape *lsat_shape_error(lua_State *L, int arg)
{
    lsat_type_error(L, arg, "shape");
    return NULL;
}

/* Not luaL_argerror: it names the method by the call site's name ("?" through an alias, the
 * alias's own name, or "calling 'm' on bad self" for a colon call), and counts the receiver
 * as argument #1 of a dot call. */
int lsat_self_error(lua_State *L, const char *method, const char *expected)
{
    const char *got = lsat_type_name(L, 1);
    luaL_where(L, 1);
    lua_pushfstring(L, "bad self to '%s' (%s expected, got %s)", method, expected, got);
    lua_concat(L, 2);
    return lua_error(L);
}

sat_shape *lsat_self_shape_error(lua_State *L, const char *method)
{
    lsat_self_error(L, method, "shape");
    return NULL;
}

const char *lsat_nonfinite_name(double v)
{
    return v != v ? "nan" : (v > 0 ? "inf" : "-inf");
}

double lsat_checkfinite(lua_State *L, int arg)
{
    int isnum;
    double v = (double)sat_tonumberx(L, arg, &isnum);
    if (!isnum)
        lsat_type_error(L, arg, "number");
    if (!isfinite(v))
        luaL_argerror(L, arg, lua_pushfstring(L, "finite number expected, got %s",
                                              lsat_nonfinite_name(v)));
    return v;
}

double lsat_optfinite(lua_State *L, int arg, double def)
{
    return lua_isnoneornil(L, arg) ? def : lsat_checkfinite(L, arg);
}

double lsat_checkcoord(lua_State *L, int arg)
{
    double v = lsat_checkfinite(L, arg);
    if (fabs(v) > SAT_MAX_COORD)
        luaL_argerror(L, arg, sat_status_message(SAT_ERR_RANGE));
    return v;
}

void lsat_checkstatus(lua_State *L, sat_status st, int arg)
{
    if (st != SAT_OK)
        luaL_argerror(L, arg, sat_status_message(st));
}

void lsat_protect_metatable(lua_State *L, int idx, const char *name)
{
    lua_pushstring(L, name);
    lua_setfield(L, idx, "__metatable");
}

void lsat_fmt_num(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.14g", v + 0.0);
}

/* ---- vecs -------------------------------------------------------------------------------- */

sat_vec *lsat_checkvec(lua_State *L, int arg)
{
    sat_vec *v = lsat_tovec(L, arg);
    if (v == NULL)
        lsat_type_error(L, arg, "vec");
    return v;
}

sat_vec *lsat_checkvecself(lua_State *L, const char *method)
{
    sat_vec *v = lsat_tovec(L, 1);
    if (v == NULL)
        lsat_self_error(L, method, "vec");
    return v;
}

sat_vec *lsat_push_vec(lua_State *L, double x, double y)
{
    lsat_vec *v = (lsat_vec *)sat_newuserdata(L, sizeof *v);
    v->v.x = x;
    v->v.y = y;
    v->stamp = lsat_vec_stamp(v);
    lua_pushvalue(L, lua_upvalueindex(LSAT_UV_VECMT));
    lua_setmetatable(L, -2);
    return &v->v;
}

/* ---- tables ------------------------------------------------------------------------------ */

/* The vec at t[key] (t absolute), or NULL; nothing left pushed. */
static sat_vec *get_vec(lua_State *L, int t, int key)
{
    sat_vec *p;
    lua_pushvalue(L, key);
    lua_rawget(L, t);
    p = lsat_tovec(L, -1);
    lua_pop(L, 1);
    return p;
}

/* ---- responses: made ready first, filled after ------------------------------------------ */

void lsat_make_response(lua_State *L, int r)
{
    sat_vec *n;
    r = lua_absindex(L, r);
    n = get_vec(L, r, LSAT_KEY(LSAT_K_NORMAL));
    if (n == NULL) {
        lua_pushvalue(L, LSAT_KEY(LSAT_K_NORMAL));
        lsat_push_vec(L, 0.0, 0.0);
        lua_rawset(L, r);
        n = get_vec(L, r, LSAT_KEY(LSAT_K_NORMAL)); /* (after the allocation) */
    }
    {
        sat_vec *m = get_vec(L, r, LSAT_KEY(LSAT_K_MTV));
        if (m == NULL || m == n) {
            lua_pushvalue(L, LSAT_KEY(LSAT_K_MTV));
            lsat_push_vec(L, 0.0, 0.0);
            lua_rawset(L, r);
        }
    }
}

int lsat_fill_response(lua_State *L, int r, const sat_result *res, int flip)
{
    sat_vec n = res->normal, m = res->mtv;
    sat_vec *pn = get_vec(L, r, LSAT_KEY(LSAT_K_NORMAL));
    sat_vec *pm = get_vec(L, r, LSAT_KEY(LSAT_K_MTV));
    if (pn == NULL || pm == NULL || pn == pm)
        return 0;
    if (lua_getmetatable(L, r)) {
        lua_pop(L, 1);
    } else {
        lua_pushvalue(L, lua_upvalueindex(LSAT_UV_RESPMT));
        lua_setmetatable(L, r);
    }
    if (flip) {
        n.x = -n.x + 0.0, n.y = -n.y + 0.0;
        m.x = -m.x + 0.0, m.y = -m.y + 0.0;
    }
    *pn = n;
    *pm = m;
    lsat_set_number(L, r, LSAT_KEY(LSAT_K_OVERLAP), res->overlap);
    lsat_set_boolean(L, r, LSAT_KEY(LSAT_K_AINB), flip ? res->b_in_a : res->a_in_b);
    lsat_set_boolean(L, r, LSAT_KEY(LSAT_K_BINA), flip ? res->a_in_b : res->b_in_a);
    return 1;
}

void lsat_copy_entries(lua_State *L, int src, int dst)
{
    src = lua_absindex(L, src);
    dst = lua_absindex(L, dst);
    lua_pushnil(L);
    while (lua_next(L, src)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, dst);
    }
}

#ifdef SAT_CHAOS
/* The chaos build's finalizer at every allocation (lsat.h): calls registry[LSAT_REG_CHAOS]
 * (a function) with `where`, then every shape and hash on the caller's stack, at most 8; its
 * errors are dropped, as Lua 5.4 drops a finalizer's. The entry is false while it runs, so
 * the binding calls it makes meet no hostile function of their own (real finalizers still
 * run in them). Calls the API by the functions' own names, (lua_getfield) and the like,
 * past the macros. */
void lsat_chaos(lua_State *L, const char *where)
{
    int top = lua_gettop(L), i, n = 0;
    if (!lua_checkstack(L, 12))
        return;
    (lua_getfield)(L, LUA_REGISTRYINDEX, LSAT_REG_CHAOS);
    if (lua_type(L, -1) != LUA_TFUNCTION) {
        lua_settop(L, top);
        return;
    }
    lua_pushboolean(L, 0);
    (lua_setfield)(L, LUA_REGISTRYINDEX, LSAT_REG_CHAOS);
    (lua_pushstring)(L, where);
    for (i = 1; i <= top && n < 8; i++) {
        int hash = 0;
        if (lua_type(L, i) == LUA_TUSERDATA && lsat_toshape(L, i) == NULL &&
            lua_getmetatable(L, i)) {
            (lua_getfield)(L, LUA_REGISTRYINDEX, LSAT_MT_HASH);
            hash = lua_rawequal(L, -1, -2);
            lua_pop(L, 2);
        }
        if (hash || lsat_toshape(L, i) != NULL) {
            lua_pushvalue(L, i);
            n++;
        }
    }
    if (lua_pcall(L, 1 + n, 0, 0) != 0)
        lua_pop(L, 1);
    lua_pushvalue(L, top + 1);
    (lua_setfield)(L, LUA_REGISTRYINDEX, LSAT_REG_CHAOS);
    lua_settop(L, top);
}
#endif

void lsat_setfuncs(lua_State *L, int idx, int base, const luaL_Reg *funcs)
{
    int i;
    lua_pushvalue(L, idx);
    for (i = 0; i < LSAT_UV_COUNT; i++)
        lua_pushvalue(L, base + i);
    luaL_setfuncs(L, funcs, LSAT_UV_COUNT);
    lua_pop(L, 1);
}
