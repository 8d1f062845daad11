/*
 * lsat_explain.c - seeing the theorem work: sat.explain (the axes of a pair test, as a table
 * that prints as one), sat.contacts and sat.sweep.
 *
 * sat.contacts and sat.sweep return numbers only (nothing allocated). sat.explain is for
 * looking at a pair, not for every frame: it builds a table.
 */
#include <stdio.h>

#include "lsat.h"

#define LSAT_MT_EXPLANATION "sat.explanation"

/* Axes on the C stack before a heap buffer is needed: every pair of polygons up to 29
 * vertices each. */
#define STACK_AXES 64

static const char *feature_name(sat_feature f)
{
    switch (f) {
    case SAT_FEATURE_EDGE:
        return "edge";
    case SAT_FEATURE_VERTEX:
        return "vertex";
    case SAT_FEATURE_CENTRE:
        return "centre";
    case SAT_FEATURE_NORMAL:
        return "normal";
    case SAT_FEATURE_DIRECTION:
        return "direction";
    case SAT_FEATURE_ENDPOINT:
        return "endpoint";
    }
    return "?";
}

static void set_number(lua_State *L, const char *key, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, key);
}

static void set_boolean(lua_State *L, const char *key, int v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, key);
}

/* One axis as a table: {nx, ny, from, feature, aMin, aMax, bMin, bMax, overlap, separates};
 * features numbered from 1, as vertices() and endpoints() give the points (a circle's
 * centre, a segment's normal and direction have no number). */
static void push_axis(lua_State *L, const sat_axis *ax)
{
    lua_createtable(L, 0, 10);
    set_number(L, "nx", ax->normal.x + 0.0);
    set_number(L, "ny", ax->normal.y + 0.0);
    lua_pushstring(L, ax->from ? "b" : "a");
    lua_setfield(L, -2, "from");
    if (ax->feature == SAT_FEATURE_EDGE || ax->feature == SAT_FEATURE_VERTEX ||
        ax->feature == SAT_FEATURE_ENDPOINT)
        lua_pushfstring(L, "%s %d", feature_name(ax->feature), ax->index + 1);
    else
        lua_pushstring(L, feature_name(ax->feature));
    lua_setfield(L, -2, "feature");
    set_number(L, "aMin", ax->a_min);
    set_number(L, "aMax", ax->a_max);
    set_number(L, "bMin", ax->b_min);
    set_number(L, "bMax", ax->b_max);
    set_number(L, "overlap", ax->overlap + 0.0);
    set_boolean(L, "separates", ax->separates);
}

/* sat.explain(a, b) -> explanation: {a, b, hit, axes, deciding, overlap, normal,
 * containment} (the last three when hit). */
static int l_explain(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b = lsat_checkshape(L, 2);
    sat_axis stack[STACK_AXES], *axes = stack;
    sat_explanation e;
    int k, room = STACK_AXES;
    lua_settop(L, 2);
    sat_explain(a, b, &e, axes, room);
    /* A big polygon: again, with room for every axis. The allocation may run a finalizer
     * that moves a shape, so that the test takes another axis: the count is the second
     * test's, and it is made again while there were more axes than room. From here on the
     * explanation is a copy in this call's own memory. */
    while (e.count > room) {
        room = e.count;
        axes = (sat_axis *)sat_newuserdata(L, (size_t)room * sizeof *axes);
        sat_explain(a, b, &e, axes, room);
    }
    lua_createtable(L, 0, 8);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "a");
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "b");
    set_boolean(L, "hit", e.hit);
    lua_createtable(L, e.count, 0);
    for (k = 0; k < e.count; k++) {
        push_axis(L, &axes[k]);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "axes");
    if (e.deciding >= 0)
        set_number(L, "deciding", e.deciding + 1);
    if (e.hit) {
        set_number(L, "overlap", e.result.overlap);
        lsat_push_vec(L, e.result.normal.x, e.result.normal.y);
        lua_setfield(L, -2, "normal");
        set_number(L, "containment", e.containment);
    }
    luaL_getmetatable(L, LSAT_MT_EXPLANATION);
    lua_setmetatable(L, -2);
    return 1;
}

/* ---- tostring: a small table ------------------------------------------------------------ */

/* A field of the table at t as text: a number with 6 significant digits (enough to read,
 * short enough for a column), "?" when it is not one. */
static const char *field_num(lua_State *L, int t, const char *key, char *buf, size_t size)
{
    lua_getfield(L, t, key);
    if (lua_type(L, -1) == LUA_TNUMBER)
        snprintf(buf, size, "%.6g", (double)lua_tonumber(L, -1) + 0.0);
    else
        snprintf(buf, size, "?");
    lua_pop(L, 1);
    return buf;
}

static const char *field_str(lua_State *L, int t, const char *key, char *buf, size_t size)
{
    lua_getfield(L, t, key);
    snprintf(buf, size, "%s", lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
    return buf;
}

static int field_true(lua_State *L, int t, const char *key)
{
    int v;
    lua_getfield(L, t, key);
    v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* A row's first columns: the marker of the deciding axis, #, from, feature, axis. */
#define ROW "\n%s%3d  %-4s  %-11s %-20s"

/* The row of the axis table at index axis, into row (of ROW_SIZE). Written out before it is
 * added to the buffer: while a luaL_Buffer is in use nothing else may sit on the stack
 * above it when it grows (on 5.1 and LuaJIT it keeps its pieces there). */
#define ROW_SIZE 384

static void axis_row(lua_State *L, char *row, int axis, int k, int deciding)
{
    char nx[32], ny[32], amin[32], amax[32], bmin[32], bmax[32], ov[32], from[8], feat[32];
    char cell[96], line[ROW_SIZE];
    field_num(L, axis, "nx", nx, sizeof nx);
    field_num(L, axis, "ny", ny, sizeof ny);
    field_num(L, axis, "aMin", amin, sizeof amin);
    field_num(L, axis, "aMax", amax, sizeof amax);
    field_num(L, axis, "bMin", bmin, sizeof bmin);
    field_num(L, axis, "bMax", bmax, sizeof bmax);
    field_num(L, axis, "overlap", ov, sizeof ov);
    field_str(L, axis, "from", from, sizeof from);
    field_str(L, axis, "feature", feat, sizeof feat);
    snprintf(cell, sizeof cell, "(%s, %s)", nx, ny);
    snprintf(row, ROW_SIZE, ROW, k == deciding ? ">" : " ", k, from, feat, cell);
    snprintf(cell, sizeof cell, "[%s, %s]", amin, amax);
    snprintf(line, sizeof line, " %-22s", cell);
    strncat(row, line, ROW_SIZE - strlen(row) - 1);
    snprintf(cell, sizeof cell, "[%s, %s]", bmin, bmax);
    if (field_true(L, axis, "separates"))
        snprintf(line, sizeof line, " %-22s %-10s separates", cell, ov);
    else
        snprintf(line, sizeof line, " %-22s %s", cell, ov);
    strncat(row, line, ROW_SIZE - strlen(row) - 1);
}

/* explanation(hit, overlap 1 along (0.6, 0.8); axis 5 decides), then one row per axis. */
static int explanation_tostring(lua_State *L)
{
    char ov[32], nx[32], ny[32], co[32], line[256];
    luaL_Buffer buf;
    int deciding = 0, count, k;
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_getfield(L, 1, "deciding");
    if (lua_type(L, -1) == LUA_TNUMBER)
        deciding = (int)lua_tonumber(L, -1);
    lua_getfield(L, 1, "axes");
    count = lua_istable(L, 3) ? (int)lua_rawlen(L, 3) : 0;
    luaL_buffinit(L, &buf);
    if (field_true(L, 1, "hit")) {
        field_num(L, 1, "overlap", ov, sizeof ov);
        field_num(L, 1, "containment", co, sizeof co);
        lua_getfield(L, 1, "normal");
        {
            sat_vec *n = lsat_tovec(L, -1);
            snprintf(nx, sizeof nx, "%.6g", n ? n->x + 0.0 : 0.0);
            snprintf(ny, sizeof ny, "%.6g", n ? n->y + 0.0 : 0.0);
        }
        lua_pop(L, 1);
        snprintf(line, sizeof line, "explanation(hit, overlap %s along (%s, %s), containment %s",
                 ov, nx, ny, co);
    } else {
        snprintf(line, sizeof line, "explanation(apart");
    }
    luaL_addstring(&buf, line);
    if (deciding > 0)
        snprintf(line, sizeof line, "; axis %d %s)", deciding,
                 field_true(L, 1, "hit") ? "gives the MTV" : "separates first");
    else
        snprintf(line, sizeof line, ")");
    luaL_addstring(&buf, line);
    snprintf(line, sizeof line, "\n   #  %-4s  %-11s %-20s %-22s %-22s %s", "from", "feature",
             "axis", "a", "b", "overlap");
    luaL_addstring(&buf, line);
    for (k = 1; k <= count; k++) {
        char row[ROW_SIZE];
        row[0] = '\0';
        lua_rawgeti(L, 3, k);
        if (lua_istable(L, -1))
            axis_row(L, row, lua_gettop(L), k, deciding);
        lua_pop(L, 1);
        luaL_addstring(&buf, row);
    }
    luaL_pushresult(&buf);
    return 1;
}

/* ---- contacts and sweep: numbers only ------------------------------------------------ */

/* sat.contacts(a, b) -> n, x1, y1, x2, y2: 0 alone when apart, else n and the n points. */
static int l_contacts(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b = lsat_checkshape(L, 2);
    sat_vec p[2];
    int n = sat_contacts(a, b, p), k;
    lua_pushinteger(L, n);
    for (k = 0; k < n; k++) {
        lua_pushnumber(L, p[k].x);
        lua_pushnumber(L, p[k].y);
    }
    return 1 + 2 * n;
}

/* sat.sweep(a, dx, dy, b [, bdx, bdy]) -> t, nx, ny, x, y | nil */
static int l_sweep(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b;
    sat_vec va, vb, p;
    sat_sweep_hit hit;
    va.x = lsat_checkcoord(L, 2);
    va.y = lsat_checkcoord(L, 3);
    b = lsat_checkshape(L, 4);
    vb.x = lua_isnoneornil(L, 5) ? 0.0 : lsat_checkcoord(L, 5);
    vb.y = lua_isnoneornil(L, 6) ? 0.0 : lsat_checkcoord(L, 6);
    if (!sat_sweep_contact(a, va, b, vb, &hit, &p)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, hit.t);
    lua_pushnumber(L, hit.result.normal.x + 0.0);
    lua_pushnumber(L, hit.result.normal.y + 0.0);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    return 5;
}

static const luaL_Reg module_funcs[] = {
    {"explain", l_explain}, {"contacts", l_contacts}, {"sweep", l_sweep}, {NULL, NULL}};

static const luaL_Reg explanation_meta[] = {{"__tostring", explanation_tostring}, {NULL, NULL}};

void lsat_open_explain(lua_State *L, int module, int base)
{
    luaL_newmetatable(L, LSAT_MT_EXPLANATION);
    lsat_setfuncs(L, lua_gettop(L), base, explanation_meta);
    lua_pop(L, 1);
    lsat_setfuncs(L, module, base, module_funcs);
}
