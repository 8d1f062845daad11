/*
 * spec/helpers/satmath.c - the core's own maths (src/core/sat_math.c) as a Lua module, for
 * spec/math_spec.lua, which checks that the pure-Lua twin (lua/sat/pure/sat_math.lua) gives
 * the same bits. They are not in sat.core's API.
 *
 *   local m = require("satmath")
 *   m.sin(x), m.cos(x), m.sincos(x) -> s, c, m.atan2(y, x), m.hypot(x, y)
 *   m.run(name, xs[, ys]) -> a new array of name's results over the arrays of arguments
 *       (one call from Lua for many: the spec compares hundreds of thousands)
 *
 * Built per Lua version by make test-helpers (with sat_math.c compiled in); not part of the
 * library.
 */
#include <lua.h>
#include <lauxlib.h>

#include "sat_math.h"

#if LUA_VERSION_NUM >= 502
#define lua_objlen lua_rawlen
#endif

static int l_sin(lua_State *L)
{
    lua_pushnumber(L, sat_sin(luaL_checknumber(L, 1)));
    return 1;
}

static int l_cos(lua_State *L)
{
    lua_pushnumber(L, sat_cos(luaL_checknumber(L, 1)));
    return 1;
}

static int l_sincos(lua_State *L)
{
    double s, c;
    sat_sincos(luaL_checknumber(L, 1), &s, &c);
    lua_pushnumber(L, s);
    lua_pushnumber(L, c);
    return 2;
}

static int l_atan2(lua_State *L)
{
    lua_pushnumber(L, sat_atan2(luaL_checknumber(L, 1), luaL_checknumber(L, 2)));
    return 1;
}

static int l_hypot(lua_State *L)
{
    lua_pushnumber(L, sat_hypot(luaL_checknumber(L, 1), luaL_checknumber(L, 2)));
    return 1;
}

static double arg(lua_State *L, int t, int i)
{
    double v;
    lua_rawgeti(L, t, i);
    v = (double)lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* run(name, xs[, ys]): sin, cos, atan2 (ys[i], xs[i]) and hypot (xs[i], ys[i]); sincos
 * gives 2n results, s and c of each argument in turn. */
static int l_run(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    int n, i, k = 0;
    luaL_checktype(L, 2, LUA_TTABLE);
    n = (int)lua_objlen(L, 2);
    lua_createtable(L, n, 0);
    for (i = 1; i <= n; i++) {
        double x = arg(L, 2, i), y = 0.0, r, c;
        if (name[0] == 'a' || name[0] == 'h') {
            luaL_checktype(L, 3, LUA_TTABLE);
            y = arg(L, 3, i);
        }
        switch (name[0]) {
        case 's':
            if (name[3] == 'c') {
                sat_sincos(x, &r, &c);
                lua_pushnumber(L, r);
                lua_rawseti(L, -2, ++k);
                r = c;
            } else {
                r = sat_sin(x);
            }
            break;
        case 'c': r = sat_cos(x); break;
        case 'a': r = sat_atan2(y, x); break;
        case 'h': r = sat_hypot(x, y); break;
        default: return luaL_error(L, "unknown function %s", name);
        }
        lua_pushnumber(L, r);
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

int luaopen_satmath(lua_State *L);

int luaopen_satmath(lua_State *L)
{
    static const struct {
        const char *name;
        lua_CFunction f;
    } fns[] = {{"sin", l_sin}, {"cos", l_cos}, {"sincos", l_sincos}, {"atan2", l_atan2},
               {"hypot", l_hypot}, {"run", l_run}};
    int i;
    lua_newtable(L);
    for (i = 0; i < (int)(sizeof fns / sizeof fns[0]); i++) {
        lua_pushcfunction(L, fns[i].f);
        lua_setfield(L, -2, fns[i].name);
    }
    return 1;
}
