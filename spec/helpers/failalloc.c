/*
 * spec/helpers/failalloc.c - a Lua allocator that fails on demand, for the specs of what
 * the library does when memory runs out (only C can reach a Lua state's allocator).
 *
 *   local failalloc = require("failalloc")
 *   failalloc.pcall(n, f, ...) -> ok, first result or error, refused
 *       calls f(...) protected, with its n-th allocation (1: the first) and every one after
 *       it failing; frees and shrinks never fail. refused: how many allocations failed.
 *       Everything outside f, the protected call itself included, allocates as usual.
 *   failalloc.pcall1(n, f, ...) -> ok, first result or error, refused
 *       the same with only the n-th allocation failing (and Lua's one retry of it, after
 *       its emergency collection), as when memory comes back right after the failure:
 *       what undoes a failed call can allocate.
 *
 * Built per Lua version by make test-helpers; not part of the library.
 */
#include <stddef.h>

#ifdef _WIN32
#include <windows.h>
#endif

#include <lua.h>
#include <lauxlib.h>

typedef struct failstate {
    lua_Alloc real;
    void *real_ud;
    long countdown; /* allocations left before failing; < 0: never fail */
    long refused;
    int once;        /* fail one allocation only (and Lua's retry of it), then never */
    int retry;       /* the one failed: its retry (the same request next) fails too */
    void *last_ptr;
    size_t last_size;
} failstate;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    failstate *st = (failstate *)ud;
    /* For a new block Lua passes a type tag in osize: only a block that exists can shrink. */
    int grows = nsize > 0 && (ptr == NULL || nsize > osize);
    if (st->retry && grows) { /* Lua 5.2 to 5.4 collect (freeing) and ask again once */
        st->retry = 0;
        if (ptr == st->last_ptr && nsize == st->last_size) {
            st->refused++;
            return NULL;
        }
    }
    if (grows && st->countdown >= 0) {
        if (st->countdown == 0) {
            st->refused++;
            if (st->once) {
                st->countdown = -1;
                st->retry = 1;
                st->last_ptr = ptr;
                st->last_size = nsize;
            }
            return NULL;
        }
        st->countdown--;
    }
    return st->real(st->real_ud, ptr, osize, nsize);
}

/* The state outlives the Lua state (lua_close frees through this allocator to the end),
 * so it is static: the specs run one Lua state per process. */
static failstate the_state;

static failstate *state(lua_State *L)
{
    failstate *st = &the_state;
    void *ud;
    if (lua_getallocf(L, &ud) != failing_alloc) {
        st->real = lua_getallocf(L, &st->real_ud);
        st->countdown = -1;
        st->refused = 0;
        lua_setallocf(L, failing_alloc, st);
    }
    return st;
}

static int run(lua_State *L, int once)
{
    lua_Number n = luaL_checknumber(L, 1);
    failstate *st = state(L);
    int status, nargs = lua_gettop(L) - 2;
    luaL_argcheck(L, n >= 1, 1, "n must be >= 1");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    luaL_checkstack(L, 8, NULL); /* room for the results, made before failing starts */
    st->refused = 0;
    st->once = once;
    st->countdown = (long)n - 1;
    status = lua_pcall(L, nargs, 1, 0);
    st->countdown = -1;
    st->once = st->retry = 0;
    lua_pushboolean(L, status == 0);
    lua_insert(L, -2);
    lua_pushnumber(L, (lua_Number)st->refused);
    return 3;
}

static int l_pcall(lua_State *L)
{
    return run(L, 0);
}

static int l_pcall1(lua_State *L)
{
    return run(L, 1);
}

int luaopen_failalloc(lua_State *L);

int luaopen_failalloc(lua_State *L)
{
#ifdef _WIN32
    /* What -z nodelete does on Linux: lua_close unloads C modules before it frees the last
     * objects through this allocator, so the DLL must stay mapped. */
    static const char in_this_dll = 0;
    HMODULE self;
    GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                       &in_this_dll, &self);
#endif
    state(L);
    lua_newtable(L);
    lua_pushcfunction(L, l_pcall);
    lua_setfield(L, -2, "pcall");
    lua_pushcfunction(L, l_pcall1);
    lua_setfield(L, -2, "pcall1");
    return 1;
}
