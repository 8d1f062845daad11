/*
 * bench/lclock.c - the benchmarks' clock for Lua, and the floor of a call into C.
 *
 *   local clock = require("bench_clock")
 *   clock.now()   -> seconds (CLOCK_MONOTONIC, the same clock as bench/core.c)
 *   clock.nop(...) -> nothing: an empty lua_CFunction, the cost of calling C from Lua
 *   clock.checks(a, b) -> boolean: the least a memory-safe binding of a pair test does
 *                     through the Lua C API before any test (both pointers, both sizes,
 *                     one word read in each, a boolean pushed): the bound of such a call
 *   clock.heap()  -> bytes in use in the C heap (glibc's mallinfo2), or nil elsewhere: with
 *                    collectgarbage("count"), what a shape costs in C memory as well
 *   bench_nop2(a, b)  an empty C function of two pointers, for LuaJIT's FFI (the floor of
 *                     an FFI call, which is how sat.fast reaches the core under LuaJIT)
 *
 * Built per Lua version by make bench-build; not part of the library.
 */
#define _POSIX_C_SOURCE 199309L

#include <stdint.h>
#include <string.h>
#include <time.h>

#ifdef __GLIBC__ /* (defined by the headers above) */
#include <malloc.h>
#endif

#include <lua.h>
#include <lauxlib.h>

#if LUA_VERSION_NUM == 501
#define lua_rawlen lua_objlen
#endif

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

/* The size and offset sat checks (a shape's stamp lies inside its first 64 bytes). */
#define CHECKED_SIZE 64
#define WORD_AT 56

static uintptr_t word_of(lua_State *L, int idx)
{
    unsigned char *p = (unsigned char *)lua_touserdata(L, idx);
    uintptr_t w = 0;
    if (p != NULL && lua_rawlen(L, idx) >= CHECKED_SIZE)
        memcpy(&w, p + WORD_AT, sizeof w);
    return w ^ (uintptr_t)p;
}

static int l_checks(lua_State *L)
{
    uintptr_t a = word_of(L, 1), b = word_of(L, 2);
    lua_pushboolean(L, a == b);
    return 1;
}

static int l_heap(lua_State *L)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 m = mallinfo2();
    lua_pushnumber(L, (lua_Number)(m.uordblks + m.hblkhd));
#else
    lua_pushnil(L);
#endif
    return 1;
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
    lua_pushcfunction(L, l_checks);
    lua_setfield(L, -2, "checks");
    lua_pushcfunction(L, l_heap);
    lua_setfield(L, -2, "heap");
    return 1;
}
