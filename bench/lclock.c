/*
 * bench/lclock.c - the benchmarks' clock for Lua, and the floor of a call into C.
 *
 *   local clock = require("bench_clock")
 *   clock.now()   -> seconds (CLOCK_MONOTONIC, the same clock as bench/core.c)
 *   clock.nop(...) -> nothing: an empty lua_CFunction, the cost of calling C from Lua
 *   bench_nop2(a, b)  an empty C function of two pointers, for LuaJIT's FFI (the floor of
 *                     an FFI call, which is how sat.fast reaches the core under LuaJIT)
 *
 * Built per Lua version by bench/run.sh; not part of the library.
 */
#define _POSIX_C_SOURCE 199309L

#include <time.h>

#include <lua.h>
#include <lauxlib.h>

static int l_now(lua_State *L)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec * 1e-9);
    return 1;
}

static int l_nop(lua_State *L)
{
    (void)L;
    return 0;
}

int luaopen_bench_clock(lua_State *L);
int bench_nop2(const void *a, const void *b);

int bench_nop2(const void *a, const void *b)
{
    (void)a;
    (void)b;
    return 0;
}

int luaopen_bench_clock(lua_State *L)
{
    lua_newtable(L);
    lua_pushcfunction(L, l_now);
    lua_setfield(L, -2, "now");
    lua_pushcfunction(L, l_nop);
    lua_setfield(L, -2, "nop");
    return 1;
}
