/*
 * compat.h - lets the binding build unchanged for Lua 5.1 / LuaJIT, 5.2, 5.3 and 5.4.
 *
 * The source is written against the 5.4 API plus a few sat_* names for what differs.
 * Missing 5.2+ functions are provided under sat_compat_* names and the standard names are
 * renamed onto them by macros (luasocket's pattern): LuaJIT's headers already declare
 * luaL_setfuncs / luaL_testudata while saying LUA_VERSION_NUM 501, so a definition under
 * the standard name would clash there; a renamed one never does.
 */
#ifndef SAT_COMPAT_H
#define SAT_COMPAT_H

#include <lua.h>
#include <lauxlib.h>

#if LUA_VERSION_NUM == 501

#define luaL_setfuncs sat_compat_setfuncs
#define luaL_testudata sat_compat_testudata
#define lua_absindex sat_compat_absindex
#define lua_rawlen(L, i) lua_objlen(L, (i))

static inline int sat_compat_absindex(lua_State *L, int idx)
{
    return (idx > 0 || idx <= LUA_REGISTRYINDEX) ? idx : lua_gettop(L) + idx + 1;
}

/* 5.2's luaL_setfuncs: every function gets the nup values below the table's top as
 * upvalues; the values are popped. */
static inline void sat_compat_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
{
    int i;
    luaL_checkstack(L, nup + 1, "too many upvalues");
    for (; l->name != NULL; l++) {
        for (i = 0; i < nup; i++)
            lua_pushvalue(L, -nup);
        lua_pushcclosure(L, l->func, nup);
        lua_setfield(L, -(nup + 2), l->name);
    }
    lua_pop(L, nup);
}

static inline void *sat_compat_testudata(lua_State *L, int idx, const char *tname)
{
    void *p = lua_touserdata(L, idx);
    if (p != NULL && lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
        int same;
        lua_getfield(L, LUA_REGISTRYINDEX, tname);
        same = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        return same ? p : NULL;
    }
    return NULL;
}

#endif

/* One user value per shape (its table of Lua fields). On 5.1 it is the userdata's
 * environment table, which a new userdata inherits from the running function: the binding
 * replaces it at creation (see lsat_shape.c). */
#if LUA_VERSION_NUM == 501
#define sat_newuserdata(L, size) lua_newuserdata(L, (size))
#define sat_newuserdata_uv(L, size) lua_newuserdata(L, (size))
#define sat_getuservalue(L, idx) lua_getfenv(L, (idx))
#define sat_setuservalue(L, idx) ((void)lua_setfenv(L, (idx)))
#elif LUA_VERSION_NUM < 504
#define sat_newuserdata(L, size) lua_newuserdata(L, (size))
#define sat_newuserdata_uv(L, size) lua_newuserdata(L, (size))
#define sat_getuservalue(L, idx) ((void)lua_getuservalue(L, (idx)))
#define sat_setuservalue(L, idx) lua_setuservalue(L, (idx))
#else
#define sat_newuserdata(L, size) lua_newuserdatauv(L, (size), 0)
#define sat_newuserdata_uv(L, size) lua_newuserdatauv(L, (size), 1)
#define sat_getuservalue(L, idx) ((void)lua_getiuservalue(L, (idx), 1))
#define sat_setuservalue(L, idx) ((void)lua_setiuservalue(L, (idx), 1))
#endif

/* A shape's userdata. Before 5.4 every userdata has its environment or user value, where a
 * shape keeps its field table; 5.4 charges 24 bytes for a user value, so there a shape has
 * none, and its field table is found through the metatable of its own that it gets with it
 * (lsat_shape.c). */
#if LUA_VERSION_NUM < 504
#define SAT_FIELDS_IN_UV 1
#define sat_newshape(L, size) lua_newuserdata(L, (size))
#else
#define SAT_FIELDS_IN_UV 0
#define sat_newshape(L, size) lua_newuserdatauv(L, (size), 0)
#endif

/* The number at idx (a string convertible to one too), *isnum telling whether it was one: one
 * API call where 5.2+ has lua_tonumberx. */
#if LUA_VERSION_NUM == 501
static inline lua_Number sat_tonumberx(lua_State *L, int idx, int *isnum)
{
    *isnum = lua_isnumber(L, idx);
    return *isnum ? lua_tonumber(L, idx) : 0;
}
#else
#define sat_tonumberx(L, idx, isnum) lua_tonumberx(L, (idx), (isnum))
#endif

/* Integers print as integers (1, not 1.0) where the language has them. */
#if LUA_VERSION_NUM >= 503
#define sat_pushuint32(L, u) lua_pushinteger(L, (lua_Integer)(u))
#else
#define sat_pushuint32(L, u) lua_pushnumber(L, (lua_Number)(u))
#endif

#endif
