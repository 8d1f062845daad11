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
            const char *name = lua_tostring(L, -1);
            lua_pop(L, 2); /* still referenced by the metatable */
            return name;
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

void lsat_set_vec(lua_State *L, int t, int key, sat_vec v)
{
    sat_vec *p;
    key = lua_absindex(L, key);
    lua_pushvalue(L, key);
    lua_rawget(L, t);
    p = lsat_tovec(L, -1);
    lua_pop(L, 1);
    if (p != NULL) {
        *p = v;
        return;
    }
    lua_pushvalue(L, key);
    lsat_push_vec(L, v.x, v.y);
    lua_rawset(L, t);
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

void lsat_setfuncs(lua_State *L, int idx, int base, const luaL_Reg *funcs)
{
    int i;
    lua_pushvalue(L, idx);
    for (i = 0; i < LSAT_UV_COUNT; i++)
        lua_pushvalue(L, base + i);
    luaL_setfuncs(L, funcs, LSAT_UV_COUNT);
    lua_pop(L, 1);
}
