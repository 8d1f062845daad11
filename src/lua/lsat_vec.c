/*
 * lsat_vec.c - the vec type: sat.vec(x, y), its arithmetic metamethods and its methods.
 *
 * A vec is a full userdata holding a sat_vec, so it needs no __gc; x and y are read and
 * written by __index and __newindex, every other key goes to the method table.
 */
#include <math.h>

#include "lsat.h"
#include "sat_math.h"

static int l_vec(lua_State *L)
{
    double x = lsat_optfinite(L, 1, 0.0);
    double y = lsat_optfinite(L, 2, 0.0);
    lsat_push_vec(L, x, y);
    return 1;
}

/* Guarded normalize: a zero vector in, a zero vector out. Scaled first so that no finite
 * vector overflows while its length is computed. */
static sat_vec vec_normalized(sat_vec v)
{
    double m = fmax(fabs(v.x), fabs(v.y));
    sat_vec r = {0.0, 0.0};
    if (m > 0.0) {
        double x = v.x / m, y = v.y / m, len = sqrt(x * x + y * y);
        r.x = x / len;
        r.y = y / len;
    }
    return r;
}

static int vec_index(lua_State *L)
{
    sat_vec *v = lsat_checkvec(L, 1);
    size_t len;
    /* (a number key is not converted: that would make a string, and can run the collector) */
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
    if (k != NULL && len == 1) {
        if (k[0] == 'x') {
            lua_pushnumber(L, v->x);
            return 1;
        }
        if (k[0] == 'y') {
            lua_pushnumber(L, v->y);
            return 1;
        }
    }
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(LSAT_UV_VECMETHODS));
    return 1;
}

static int vec_newindex(lua_State *L)
{
    sat_vec *v = lsat_checkvec(L, 1);
    size_t len;
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
    if (k != NULL && len == 1 && (k[0] == 'x' || k[0] == 'y')) {
        double n;
        if (lua_type(L, 3) != LUA_TNUMBER)
            return luaL_error(L, "bad value for vec.%s (number expected, got %s)", k,
                              lsat_type_name(L, 3));
        n = (double)lua_tonumber(L, 3);
        if (!isfinite(n))
            return luaL_error(L, "bad value for vec.%s (finite number expected, got %s)", k,
                              lsat_nonfinite_name(n));
        if (k[0] == 'x')
            v->x = n;
        else
            v->y = n;
        return 0;
    }
    if (k != NULL)
        return luaL_error(L, "cannot set field '%s' of a vec (a vec has only x and y)", k);
    return luaL_error(L, "cannot set a %s key of a vec (a vec has only x and y)",
                      luaL_typename(L, 2));
}

static int vec_tostring(lua_State *L)
{
    sat_vec *v = lsat_checkvec(L, 1);
    char x[32], y[32];
    lsat_fmt_num(x, sizeof x, v->x);
    lsat_fmt_num(y, sizeof y, v->y);
    lua_pushfstring(L, "vec(%s, %s)", x, y);
    return 1;
}

static int operand_error(lua_State *L, const char *op, const char *expected)
{
    return luaL_error(L, "bad operands for vec '%s' (%s expected, got %s %s %s)", op, expected,
                      lsat_type_name(L, 1), op, lsat_type_name(L, 2));
}

/* A number operand of * or /: must be finite. */
static double operand_number(lua_State *L, int idx, const char *op)
{
    double n = (double)lua_tonumber(L, idx);
    if (!isfinite(n))
        luaL_error(L, "bad operands for vec '%s' (finite number expected, got %s)", op,
                   lsat_nonfinite_name(n));
    return n;
}

static int vec_add(lua_State *L)
{
    sat_vec *a = lsat_tovec(L, 1), *b = lsat_tovec(L, 2);
    if (a == NULL || b == NULL)
        return operand_error(L, "+", "vec + vec");
    lsat_push_vec(L, a->x + b->x, a->y + b->y);
    return 1;
}

static int vec_sub(lua_State *L)
{
    sat_vec *a = lsat_tovec(L, 1), *b = lsat_tovec(L, 2);
    if (a == NULL || b == NULL)
        return operand_error(L, "-", "vec - vec");
    lsat_push_vec(L, a->x - b->x, a->y - b->y);
    return 1;
}

static int vec_unm(lua_State *L)
{
    sat_vec *a = lsat_checkvec(L, 1);
    lsat_push_vec(L, -a->x, -a->y);
    return 1;
}

static int vec_mul(lua_State *L)
{
    sat_vec *a = lsat_tovec(L, 1), *b = lsat_tovec(L, 2), *v;
    double n;
    if (a != NULL && b == NULL && lua_type(L, 2) == LUA_TNUMBER) {
        v = a;
        n = operand_number(L, 2, "*");
    } else if (b != NULL && a == NULL && lua_type(L, 1) == LUA_TNUMBER) {
        v = b;
        n = operand_number(L, 1, "*");
    } else {
        return operand_error(L, "*", "vec * number or number * vec");
    }
    lsat_push_vec(L, v->x * n, v->y * n);
    return 1;
}

static int vec_div(lua_State *L)
{
    sat_vec *a = lsat_tovec(L, 1);
    double n;
    if (a == NULL || lua_type(L, 2) != LUA_TNUMBER)
        return operand_error(L, "/", "vec / number");
    n = operand_number(L, 2, "/");
    if (n == 0.0)
        return luaL_error(L, "bad operands for vec '/' (division by zero)");
    lsat_push_vec(L, a->x / n, a->y / n);
    return 1;
}

static int vec_eq(lua_State *L)
{
    sat_vec *a = lsat_tovec(L, 1), *b = lsat_tovec(L, 2);
    lua_pushboolean(L, a != NULL && b != NULL && a->x == b->x && a->y == b->y);
    return 1;
}

static int vec_clone(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "clone");
    lsat_push_vec(L, a->x, a->y);
    return 1;
}

static int vec_unpack(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "unpack");
    lua_pushnumber(L, a->x);
    lua_pushnumber(L, a->y);
    return 2;
}

static int vec_dot(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "dot"), *b = lsat_checkvec(L, 2);
    lua_pushnumber(L, a->x * b->x + a->y * b->y);
    return 1;
}

static int vec_cross(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "cross"), *b = lsat_checkvec(L, 2);
    lua_pushnumber(L, a->x * b->y - a->y * b->x);
    return 1;
}

static int vec_len(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "len");
    lua_pushnumber(L, sat_hypot(a->x, a->y));
    return 1;
}

static int vec_len2(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "len2");
    lua_pushnumber(L, a->x * a->x + a->y * a->y);
    return 1;
}

static int vec_normalized_l(lua_State *L)
{
    sat_vec n = vec_normalized(*lsat_checkvecself(L, "normalized"));
    lsat_push_vec(L, n.x, n.y);
    return 1;
}

static int vec_perp(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "perp");
    lsat_push_vec(L, -a->y, a->x);
    return 1;
}

static int vec_rotated(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "rotated");
    double angle = lsat_checkfinite(L, 2), c, s;
    sat_sincos(angle, &s, &c);
    lsat_push_vec(L, c * a->x - s * a->y, s * a->x + c * a->y);
    return 1;
}

/* The projection of self onto the line of v; onto a zero vector it is the zero vector. */
static int vec_project_on(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "projectOn"), *b = lsat_checkvec(L, 2);
    sat_vec u = vec_normalized(*b);
    double d = a->x * u.x + a->y * u.y;
    lsat_push_vec(L, u.x * d, u.y * d);
    return 1;
}

/* Self mirrored by the surface of the given normal (any length; a zero normal reflects
 * nothing): v - 2 (v . n) n with n normalized. */
static int vec_reflect(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "reflect"), *b = lsat_checkvec(L, 2);
    sat_vec u = vec_normalized(*b);
    double d = 2.0 * (a->x * u.x + a->y * u.y);
    lsat_push_vec(L, a->x - d * u.x, a->y - d * u.y);
    return 1;
}

static int vec_dist(lua_State *L)
{
    sat_vec *a = lsat_checkvecself(L, "dist"), *b = lsat_checkvec(L, 2);
    lua_pushnumber(L, sat_hypot(a->x - b->x, a->y - b->y));
    return 1;
}

static int l_is_vec(lua_State *L)
{
    lua_pushboolean(L, lsat_tovec(L, 1) != NULL);
    return 1;
}

static const luaL_Reg vec_meta[] = {
    {"__index", vec_index}, {"__newindex", vec_newindex}, {"__tostring", vec_tostring},
    {"__add", vec_add},     {"__sub", vec_sub},           {"__unm", vec_unm},
    {"__mul", vec_mul},     {"__div", vec_div},           {"__eq", vec_eq},
    {NULL, NULL}};

static const luaL_Reg vec_methods[] = {
    {"clone", vec_clone},   {"unpack", vec_unpack}, {"dot", vec_dot},
    {"cross", vec_cross},   {"len", vec_len},       {"len2", vec_len2},
    {"normalized", vec_normalized_l}, {"perp", vec_perp}, {"rotated", vec_rotated},
    {"projectOn", vec_project_on},    {"reflect", vec_reflect}, {"dist", vec_dist},
    {NULL, NULL}};

static const luaL_Reg module_funcs[] = {{"vec", l_vec}, {"isVec", l_is_vec}, {NULL, NULL}};

void lsat_open_vec(lua_State *L, int module, int base)
{
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_VECMETHODS), base, vec_methods);
    lsat_setfuncs(L, LSAT_SLOT(base, LSAT_UV_VECMT), base, vec_meta);
    lsat_setfuncs(L, module, base, module_funcs);
    lsat_protect_metatable(L, LSAT_SLOT(base, LSAT_UV_VECMT), LSAT_MT_VEC);
}
