/*
 * lsat_module.c - luaopen_sat_core, the module's one exported symbol: it makes the shared
 * upvalues (lsat.h) and has each type file register its functions with them.
 */
#ifdef _WIN32
#include <windows.h>
#endif

#include "lsat.h"

LUALIB_API int luaopen_sat_core(lua_State *L);

/* Keeps this module loaded until the process ends. LuaJIT and Lua 5.1 unload C modules at
 * lua_close before they have run every finalizer (those of objects made earlier, or during
 * the close), and a finalizer that calls into sat would then call unmapped code. On Linux
 * the module is linked with -z nodelete (the Makefile); a Windows DLL pins itself. */
static void pin_module(void)
{
#ifdef _WIN32
    HMODULE self;
    GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                       &lsat_stamp_key, &self);
#endif
}

/* The field names, in lsat_key order. */
static const char *const key_names[LSAT_K_COUNT] = {
    "a", "b", "overlap", "normal", "mtv", "aInB", "bInA", "shape", "t", "x", "y", "nx", "ny",
    "part", "ownPart", "__index"};

/* Pushes the metatable registered as name (creating it), with __name set on every version. */
static void push_metatable(lua_State *L, const char *name)
{
    luaL_newmetatable(L, name);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
}

/* Pushes the registry's value for name, made by make (and registered) when it is not of the
 * given type yet: kept across reloads of the module. */
static void push_registered(lua_State *L, const char *name, int type, void (*make)(lua_State *L))
{
    lua_getfield(L, LUA_REGISTRYINDEX, name);
    if (lua_type(L, -1) != type) {
        lua_pop(L, 1);
        make(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, name);
    }
}

static void new_state(lua_State *L)
{
    lsat_state *st = (lsat_state *)sat_newuserdata(L, sizeof *st);
    st->next_id = 0;
}

static void new_table(lua_State *L)
{
    lua_newtable(L);
}

/* Pushes the upvalues, in lsat_upvalue order. */
static void push_upvalues(lua_State *L)
{
    int k;
    /* one state per lua_State, so that ids stay unique across reloads */
    push_registered(L, LSAT_REG_STATE, LUA_TUSERDATA, new_state);
    lua_newtable(L); /* polygon methods */
    lua_newtable(L); /* circle methods */
    lua_newtable(L); /* vec methods */
    /* shared by every shape made before a reload too (5.1 environments) */
    push_registered(L, LSAT_REG_NOFIELDS, LUA_TTABLE, new_table);
    push_metatable(L, LSAT_MT_RESPONSE);
    push_metatable(L, LSAT_MT_VEC);
    push_metatable(L, LSAT_MT_POLYGON);
    push_metatable(L, LSAT_MT_CIRCLE);
    lua_newtable(L); /* a polygon's field table's metatable */
    lua_newtable(L); /* a circle's */
    push_metatable(L, LSAT_MT_HASH);
    lua_newtable(L); /* segment methods */
    lua_newtable(L); /* capsule methods */
    push_metatable(L, LSAT_MT_SEGMENT);
    push_metatable(L, LSAT_MT_CAPSULE);
    lua_newtable(L); /* a segment's field table's metatable */
    lua_newtable(L); /* a capsule's */
    lua_newtable(L); /* compound methods */
    push_metatable(L, LSAT_MT_COMPOUND);
    lua_newtable(L); /* a compound's field table's metatable */
    for (k = 0; k < LSAT_K_COUNT; k++)
        lua_pushstring(L, key_names[k]);
}

int luaopen_sat_core(lua_State *L)
{
    int module, base;
    pin_module();
    luaL_checkstack(L, 2 * LSAT_UV_COUNT + 4, "cannot open sat.core");
    lua_newtable(L);
    module = lua_gettop(L);
    base = module + 1;
    push_upvalues(L);
    lsat_open_vec(L, module, base);
    lsat_open_shape(L, module, base);
    lsat_open_response(L, module, base);
    lsat_open_hash(L, module, base);
    lsat_open_explain(L, module, base);
    lsat_open_ffi(L, module, base);
    lua_settop(L, module);
    lua_pushstring(L, SAT_VERSION);
    lua_setfield(L, module, "_VERSION");
    return 1;
}
