/*
 * lsat_response.c - the narrow phase from Lua: sat.test, sat.collide and
 * shape:collidesWith, and the response type sat.collide fills.
 *
 * These are the calls a game makes most: each checks its shapes with the inline
 * lsat_checkshape and calls sat_test / sat_collide directly, and with a reused response
 * table sat.collide allocates nothing.
 */
#include "lsat.h"

static int l_test(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b = lsat_checkshape(L, 2);
    lua_pushboolean(L, sat_test(a, b));
    return 1;
}

static int shape_collides_with(lua_State *L)
{
    sat_shape *a = lsat_checkself(L, "collidesWith"), *b = lsat_checkshape(L, 2);
    sat_result r;
    if (!sat_collide(a, b, &r)) {
        lua_pushboolean(L, 0);
        lua_pushnumber(L, 0.0);
        lua_pushnumber(L, 0.0);
    } else {
        lua_pushboolean(L, 1);
        lua_pushnumber(L, r.mtv.x);
        lua_pushnumber(L, r.mtv.y);
    }
    return 3;
}

/* The response is filled at once, with raw sets that run no collector, once it has its vecs
 * (made first when it has none): a finalizer run by their allocation could be filling the
 * same table, or taking its vecs away (then again). The result is the one tested before. */
static int l_collide(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b = lsat_checkshape(L, 2);
    sat_result r;
    int round;
    if (!lua_isnoneornil(L, 3) && !lua_istable(L, 3))
        return lsat_type_error(L, 3, "table");
    if (!sat_collide(a, b, &r)) {
        lua_pushnil(L);
        return 1;
    }
    if (lua_istable(L, 3)) {
        lua_settop(L, 3);
    } else {
        lua_settop(L, 2);
        lua_createtable(L, 0, 7);
        lsat_make_response(L, 3);
    }
    for (round = 0; !lsat_fill_response(L, 3, &r, 0); round++) {
        if (round == LSAT_MAX_ROUNDS)
            return luaL_error(L, "response table changed while being filled");
        lsat_make_response(L, 3);
    }
    lsat_set_value(L, 3, LSAT_KEY(LSAT_K_A), 1);
    lsat_set_value(L, 3, LSAT_KEY(LSAT_K_B), 2);
    return 1;
}

/* Appends "name value" of a response field to the buffer. The value stays pushed until its
 * text is (a type name may be a string only it holds), then the text alone is added. */
static void add_field(lua_State *L, luaL_Buffer *buf, int resp, const char *name)
{
    char x[32], y[32];
    sat_vec *v;
    int top;
    luaL_addstring(buf, name);
    luaL_addchar(buf, ' ');
    top = lua_gettop(L);
    lua_pushstring(L, name);
    lua_rawget(L, resp);
    v = lsat_tovec(L, -1);
    if (v != NULL) {
        lsat_fmt_num(x, sizeof x, v->x);
        lsat_fmt_num(y, sizeof y, v->y);
        lua_pushfstring(L, "vec(%s, %s)", x, y);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
        lsat_fmt_num(x, sizeof x, (double)lua_tonumber(L, -1));
        lua_pushstring(L, x);
    } else if (lua_type(L, -1) == LUA_TBOOLEAN) {
        lua_pushstring(L, lua_toboolean(L, -1) ? "true" : "false");
    } else {
        lua_pushstring(L, lsat_type_name(L, -1));
    }
    lua_replace(L, top + 1);
    lua_settop(L, top + 1);
    luaL_addvalue(buf);
}

static int response_tostring(lua_State *L)
{
    static const char *const fields[] = {"overlap", "normal", "mtv", "aInB", "bInA"};
    luaL_Buffer buf;
    size_t i;
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    luaL_buffinit(L, &buf);
    luaL_addstring(&buf, "response(");
    for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (i > 0)
            luaL_addstring(&buf, ", ");
        add_field(L, &buf, 1, fields[i]);
    }
    luaL_addchar(&buf, ')');
    luaL_pushresult(&buf);
    return 1;
}

static const luaL_Reg response_meta[] = {{"__tostring", response_tostring}, {NULL, NULL}};

static const luaL_Reg module_funcs[] = {{"test", l_test}, {"collide", l_collide}, {NULL, NULL}};

static const luaL_Reg shape_methods[] = {{"collidesWith", shape_collides_with}, {NULL, NULL}};

void lsat_open_response(lua_State *L, int module, int base)
{
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_POLYMETHODS), base, shape_methods);
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_CIRCMETHODS), base, shape_methods);
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_SEGMETHODS), base, shape_methods);
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_CAPMETHODS), base, shape_methods);
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_COMPMETHODS), base, shape_methods);
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_RESPMT), base, response_meta);
    lsat_setfuncs(L, module, base, module_funcs);
    lsat_protect_metatable(L, LSAT_SLOT(base, LSAT_UV_RESPMT), LSAT_MT_RESPONSE);
}
