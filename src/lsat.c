/*
 * lsat.c - the Lua binding of the sat core: module sat.core (vectors, shapes, narrow phase).
 *
 * Objects are full userdata holding the C struct itself (a sat_vec, or a sat_shape with its
 * vertex array), so none needs a __gc. Every function of the module, method and metamethod
 * shares the same upvalues (below): per-lua_State state lives there, never in a C global.
 * Hot calls (sat.test, collidesWith, collide with a reused response) allocate nothing.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lsat.h"

LUALIB_API int luaopen_sat_core(lua_State *L);

/* The upvalues every function of this file is created with. */
#define UV_STATE lua_upvalueindex(1)     /* lsat_state userdata */
#define UV_POLYMETHODS lua_upvalueindex(2)
#define UV_CIRCMETHODS lua_upvalueindex(3)
#define UV_VECMETHODS lua_upvalueindex(4)
#define UV_NOFIELDS lua_upvalueindex(5)  /* empty table: "no fields yet" (5.1 environments) */
#define UV_RESPMT lua_upvalueindex(6)
#define UV_VECMT lua_upvalueindex(7)
#define UV_POLYMT lua_upvalueindex(8)
#define UV_CIRCMT lua_upvalueindex(9)
#define UV_POLYFIELDSMT lua_upvalueindex(10) /* {__index = polygon methods}: see attach_fields */
#define UV_CIRCFIELDSMT lua_upvalueindex(11)
#define UV_KEYS 12 /* then the response's field names, in response_keys order */
#define UV_COUNT (UV_KEYS + RK_COUNT - 1)

/* A response's field names, kept as upvalues: a reused response is filled without hashing
 * a single string. */
enum { RK_A, RK_B, RK_OVERLAP, RK_NORMAL, RK_MTV, RK_AINB, RK_BINA, RK_COUNT };
static const char *const response_keys[RK_COUNT] = {"a", "b", "overlap", "normal", "mtv",
                                                    "aInB", "bInA"};
#define UV_KEY(k) lua_upvalueindex(UV_KEYS + (k))

#define MT_VEC LSAT_MT_VEC
#define MT_POLYGON LSAT_MT_POLYGON
#define MT_CIRCLE LSAT_MT_CIRCLE
#define MT_RESPONSE LSAT_MT_RESPONSE
#define REG_STATE "sat.state"
#define REG_NOFIELDS "sat.nofields"

/* Points on the C stack before a polygon's input needs a temporary buffer. */
#define STACK_POINTS 64

typedef struct lsat_state {
    uint64_t next_id; /* shape ids in creation order: exact ties break deterministically */
} lsat_state;

/* ---- helpers ----------------------------------------------------------------------------- */

/* %.14g: reads naturally (0.1, not 0.10000000000000001) and keeps -0 out of the text. */
static void fmt_num(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.14g", v + 0.0);
}

/* The vec at idx when its metatable is the one at vecmt, else NULL. */
static sat_vec *tovec_mt(lua_State *L, int idx, int vecmt)
{
    sat_vec *v = (sat_vec *)lua_touserdata(L, idx);
    int same;
    if (v == NULL || lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx))
        return NULL;
    same = lua_rawequal(L, -1, vecmt);
    lua_pop(L, 1);
    return same ? v : NULL;
}

static sat_vec *tovec(lua_State *L, int idx)
{
    return tovec_mt(L, idx, UV_VECMT);
}

/* Every shape this binding makes carries a stamp in its user word: its own address mixed
 * with the address of a private object, which no other userdata holds by chance. Checking
 * it costs two API calls and no metatable lookup (the metatable check was a quarter of
 * sat.test). lua_touserdata is NULL for anything but userdata and lua_rawlen 0 for light
 * userdata, so the word is only read inside a full userdata big enough to hold a shape. */
static const char stamp_key;

static uintptr_t shape_stamp(const sat_shape *s)
{
    return (uintptr_t)s ^ (uintptr_t)&stamp_key;
}

sat_shape *lsat_toshape(lua_State *L, int idx)
{
    unsigned char *p = (unsigned char *)lua_touserdata(L, idx);
    uintptr_t word;
    /* lua_rawlen only on userdata: 5.1's lua_objlen turns a number into a string in place */
    if (p == NULL || (size_t)lua_rawlen(L, idx) < sizeof(sat_shape))
        return NULL;
    memcpy(&word, p + offsetof(sat_shape, user), sizeof word); /* any userdata's bytes */
    return word == shape_stamp((const sat_shape *)(void *)p) ? (sat_shape *)(void *)p : NULL;
}

/* The name a value shows in messages: our types by their own names. Works without the
 * upvalues (lsat_checkshape is called from other files). */
static const char *type_name(lua_State *L, int idx)
{
    static const char *const names[] = {MT_VEC, MT_RESPONSE};
    static const char *const shown[] = {"vec", "response"};
    const sat_shape *s = lsat_toshape(L, idx); /* a shape with fields has its own metatable */
    size_t i;
    if (s != NULL)
        return s->kind == SAT_POLYGON ? "polygon" : "circle";
    if (lua_getmetatable(L, idx)) {
        for (i = 0; i < sizeof names / sizeof names[0]; i++) {
            int same;
            lua_getfield(L, LUA_REGISTRYINDEX, names[i]);
            same = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
            if (same) {
                lua_pop(L, 1);
                return shown[i];
            }
        }
        /* another library's object: its own type name, as Lua 5.3+ reports it */
        lua_getfield(L, -1, "__name");
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *name = lua_tostring(L, -1);
            lua_pop(L, 2); /* still referenced by the metatable */
            return name;
        }
        lua_pop(L, 2);
    }
    return luaL_typename(L, idx);
}

static int type_error(lua_State *L, int arg, const char *expected)
{
    const char *msg = lua_pushfstring(L, "%s expected, got %s", expected, type_name(L, arg));
    return luaL_argerror(L, arg, msg);
}

static const char *nonfinite_name(double v)
{
    return v != v ? "nan" : (v > 0 ? "inf" : "-inf");
}

/* A number argument that must be finite: "finite number expected, got nan". */
static double check_finite(lua_State *L, int arg)
{
    int isnum;
    double v = (double)sat_tonumberx(L, arg, &isnum);
    if (!isnum)
        type_error(L, arg, "number");
    if (!isfinite(v))
        luaL_argerror(L, arg, lua_pushfstring(L, "finite number expected, got %s",
                                              nonfinite_name(v)));
    return v;
}

/* A coordinate, size or radius going into the core: finite, and within its range. */
static double check_coord(lua_State *L, int arg)
{
    double v = check_finite(L, arg);
#ifdef SAT_MAX_COORD
    if (fabs(v) > SAT_MAX_COORD)
        luaL_argerror(L, arg, sat_status_message(SAT_ERR_RANGE));
#endif
    return v;
}

static double opt_finite(lua_State *L, int arg, double def)
{
    return lua_isnoneornil(L, arg) ? def : check_finite(L, arg);
}

static sat_vec *check_vec(lua_State *L, int arg)
{
    sat_vec *v = tovec(L, arg);
    if (v == NULL)
        type_error(L, arg, "vec");
    return v;
}

sat_shape *lsat_shape_error(lua_State *L, int arg)
{
    type_error(L, arg, "shape");
    return NULL;
}

static sat_shape *check_kind(lua_State *L, int arg, sat_kind kind)
{
    sat_shape *s = lsat_toshape(L, arg);
    if (s == NULL || s->kind != kind)
        type_error(L, arg, kind == SAT_POLYGON ? "polygon" : "circle");
    return s;
}

/* A core refusal, as an argument error carrying the core's own text. */
static void check_status(lua_State *L, sat_status st, int arg)
{
    if (st != SAT_OK)
        luaL_argerror(L, arg, sat_status_message(st));
}

sat_vec *lsat_push_vec(lua_State *L, int vecmt, double x, double y)
{
    sat_vec *v;
    vecmt = lua_absindex(L, vecmt);
    v = (sat_vec *)sat_newuserdata(L, sizeof *v);
    v->x = x;
    v->y = y;
    lua_pushvalue(L, vecmt);
    lua_setmetatable(L, -2);
    return v;
}

static sat_vec *push_vec(lua_State *L, double x, double y)
{
    return lsat_push_vec(L, UV_VECMT, x, y);
}

/* Response fields (see lsat.h); the key pushed first, so that no value has to be moved
 * under it (lua_insert was 6% of a reused collide). */
void lsat_set_value(lua_State *L, int resp, int key, int idx)
{
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, key);
    lua_pushvalue(L, idx);
    lua_rawset(L, resp);
}

void lsat_set_number(lua_State *L, int resp, int key, double v)
{
    lua_pushvalue(L, key);
    lua_pushnumber(L, v);
    lua_rawset(L, resp);
}

void lsat_set_boolean(lua_State *L, int resp, int key, int v)
{
    lua_pushvalue(L, key);
    lua_pushboolean(L, v);
    lua_rawset(L, resp);
}

void lsat_set_vec(lua_State *L, int resp, int key, int vecmt, sat_vec v)
{
    sat_vec *p;
    key = lua_absindex(L, key);
    vecmt = lua_absindex(L, vecmt);
    lua_pushvalue(L, key);
    lua_rawget(L, resp);
    p = tovec_mt(L, -1, vecmt);
    lua_pop(L, 1);
    if (p != NULL) {
        *p = v;
        return;
    }
    lua_pushvalue(L, key);
    lsat_push_vec(L, vecmt, v.x, v.y);
    lua_rawset(L, resp);
}

/* The shape userdata on top of the stack was just built: give it its identity, metatable
 * and (on 5.1) the "no fields" environment. */
static void finish_shape(lua_State *L, sat_shape *s)
{
    lsat_state *st = (lsat_state *)lua_touserdata(L, UV_STATE);
    s->id = ++st->next_id;
    s->user = shape_stamp(s);
    lua_pushvalue(L, s->kind == SAT_POLYGON ? UV_POLYMT : UV_CIRCMT);
    lua_setmetatable(L, -2);
#if LUA_VERSION_NUM == 501
    lua_pushvalue(L, UV_NOFIELDS);
    sat_setuservalue(L, -2);
#endif
}

/* A shape's keys are found by table lookups alone, with no function call (which under
 * LuaJIT's JIT is also what traces well). Methods and fields never share a name (writing a
 * field named like a method is an error), so the order they are searched in makes no
 * difference:
 * - a shape without fields has its kind's metatable, whose __index is the kind's method
 *   table; the method table's own metatable gives category and mask their defaults;
 * - the first field written gives the shape its field table (the user value) and a
 *   metatable of its own: its kind's, copied, with __index the field table, whose metatable
 *   (UV_*FIELDSMT) sends the other keys on to the method table.
 * category and mask live in the struct, where the broad phase reads them; a write stores the
 * value in the field table too. So readers of a method table use raw gets, which never see
 * the defaults.
 *
 * Once sat.fast has given its table (see ffi_track_metatables), every metatable of its own
 * is also a key there, and sat.fast knows a shape by its metatable: only this file puts
 * metatables there, and no Lua code can give a userdata a metatable (short of the debug
 * library). Like any Lua table it keeps the size of its peak: some 40 bytes for each shape
 * with fields alive at once. */
#define REG_OWNMT "sat.ownmetatables"

/* Copies every entry of the table at src into the table at dst, with raw sets. */
static void copy_entries(lua_State *L, int src, int dst)
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

/* Pops the table on top of the stack and makes it the field table of the shape s at idx,
 * giving the shape its own metatable that reads it. */
static void attach_fields(lua_State *L, int idx, const sat_shape *s)
{
    int kind_mt = s->kind == SAT_POLYGON ? UV_POLYMT : UV_CIRCMT, fields;
    idx = lua_absindex(L, idx);
    fields = lua_gettop(L);
    lua_pushvalue(L, s->kind == SAT_POLYGON ? UV_POLYFIELDSMT : UV_CIRCFIELDSMT);
    lua_setmetatable(L, fields);
    lua_createtable(L, 0, 4);
    copy_entries(L, kind_mt, -1);
    lua_pushliteral(L, "__index");
    lua_pushvalue(L, fields);
    lua_rawset(L, -3);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_OWNMT);
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, -2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
    lua_setmetatable(L, idx);
    sat_setuservalue(L, idx);
}

/* Pushes the shape's field table, or nothing and returns 0 when it has none yet. */
static int push_fields(lua_State *L, int idx)
{
    sat_getuservalue(L, idx);
    if (lua_istable(L, -1) && !lua_rawequal(L, -1, UV_NOFIELDS))
        return 1;
    lua_pop(L, 1);
    return 0;
}

/* ---- vectors ----------------------------------------------------------------------------- */

static int l_vec(lua_State *L)
{
    double x = opt_finite(L, 1, 0.0);
    double y = opt_finite(L, 2, 0.0);
    push_vec(L, x, y);
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
    sat_vec *v = check_vec(L, 1);
    size_t len;
    const char *k = lua_tolstring(L, 2, &len);
    if (k != NULL && lua_type(L, 2) == LUA_TSTRING && len == 1) {
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
    lua_rawget(L, UV_VECMETHODS);
    return 1;
}

static int vec_newindex(lua_State *L)
{
    sat_vec *v = check_vec(L, 1);
    size_t len;
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
    if (k != NULL && len == 1 && (k[0] == 'x' || k[0] == 'y')) {
        double n;
        if (lua_type(L, 3) != LUA_TNUMBER)
            return luaL_error(L, "bad value for vec.%s (number expected, got %s)", k,
                              type_name(L, 3));
        n = (double)lua_tonumber(L, 3);
        if (!isfinite(n))
            return luaL_error(L, "bad value for vec.%s (finite number expected, got %s)", k,
                              nonfinite_name(n));
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
    sat_vec *v = check_vec(L, 1);
    char x[32], y[32];
    fmt_num(x, sizeof x, v->x);
    fmt_num(y, sizeof y, v->y);
    lua_pushfstring(L, "vec(%s, %s)", x, y);
    return 1;
}

static int operand_error(lua_State *L, const char *op, const char *expected)
{
    return luaL_error(L, "bad operands for vec '%s' (%s expected, got %s %s %s)", op, expected,
                      type_name(L, 1), op, type_name(L, 2));
}

/* A number operand of * or /: must be finite. */
static double operand_number(lua_State *L, int idx, const char *op)
{
    double n = (double)lua_tonumber(L, idx);
    if (!isfinite(n))
        luaL_error(L, "bad operands for vec '%s' (finite number expected, got %s)", op,
                   nonfinite_name(n));
    return n;
}

static int vec_add(lua_State *L)
{
    sat_vec *a = tovec(L, 1), *b = tovec(L, 2);
    if (a == NULL || b == NULL)
        return operand_error(L, "+", "vec + vec");
    push_vec(L, a->x + b->x, a->y + b->y);
    return 1;
}

static int vec_sub(lua_State *L)
{
    sat_vec *a = tovec(L, 1), *b = tovec(L, 2);
    if (a == NULL || b == NULL)
        return operand_error(L, "-", "vec - vec");
    push_vec(L, a->x - b->x, a->y - b->y);
    return 1;
}

static int vec_unm(lua_State *L)
{
    sat_vec *a = check_vec(L, 1);
    push_vec(L, -a->x, -a->y);
    return 1;
}

static int vec_mul(lua_State *L)
{
    sat_vec *a = tovec(L, 1), *b = tovec(L, 2), *v;
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
    push_vec(L, v->x * n, v->y * n);
    return 1;
}

static int vec_div(lua_State *L)
{
    sat_vec *a = tovec(L, 1);
    double n;
    if (a == NULL || lua_type(L, 2) != LUA_TNUMBER)
        return operand_error(L, "/", "vec / number");
    n = operand_number(L, 2, "/");
    if (n == 0.0)
        return luaL_error(L, "bad operands for vec '/' (division by zero)");
    push_vec(L, a->x / n, a->y / n);
    return 1;
}

static int vec_eq(lua_State *L)
{
    sat_vec *a = tovec(L, 1), *b = tovec(L, 2);
    lua_pushboolean(L, a != NULL && b != NULL && a->x == b->x && a->y == b->y);
    return 1;
}

static int vec_clone(lua_State *L)
{
    sat_vec *a = check_vec(L, 1);
    push_vec(L, a->x, a->y);
    return 1;
}

static int vec_unpack(lua_State *L)
{
    sat_vec *a = check_vec(L, 1);
    lua_pushnumber(L, a->x);
    lua_pushnumber(L, a->y);
    return 2;
}

static int vec_dot(lua_State *L)
{
    sat_vec *a = check_vec(L, 1), *b = check_vec(L, 2);
    lua_pushnumber(L, a->x * b->x + a->y * b->y);
    return 1;
}

static int vec_cross(lua_State *L)
{
    sat_vec *a = check_vec(L, 1), *b = check_vec(L, 2);
    lua_pushnumber(L, a->x * b->y - a->y * b->x);
    return 1;
}

static int vec_len(lua_State *L)
{
    sat_vec *a = check_vec(L, 1);
    lua_pushnumber(L, hypot(a->x, a->y));
    return 1;
}

static int vec_len2(lua_State *L)
{
    sat_vec *a = check_vec(L, 1);
    lua_pushnumber(L, a->x * a->x + a->y * a->y);
    return 1;
}

static int vec_normalized_l(lua_State *L)
{
    sat_vec n = vec_normalized(*check_vec(L, 1));
    push_vec(L, n.x, n.y);
    return 1;
}

static int vec_perp(lua_State *L)
{
    sat_vec *a = check_vec(L, 1);
    push_vec(L, -a->y, a->x);
    return 1;
}

static int vec_rotated(lua_State *L)
{
    sat_vec *a = check_vec(L, 1);
    double angle = check_finite(L, 2), c = cos(angle), s = sin(angle);
    push_vec(L, c * a->x - s * a->y, s * a->x + c * a->y);
    return 1;
}

/* The projection of self onto the line of v; onto a zero vector it is the zero vector. */
static int vec_project_on(lua_State *L)
{
    sat_vec *a = check_vec(L, 1), *b = check_vec(L, 2);
    sat_vec u = vec_normalized(*b);
    double d = a->x * u.x + a->y * u.y;
    push_vec(L, u.x * d, u.y * d);
    return 1;
}

/* Self mirrored by the surface of the given normal (any length; a zero normal reflects
 * nothing): v - 2 (v . n) n with n normalized. */
static int vec_reflect(lua_State *L)
{
    sat_vec *a = check_vec(L, 1), *b = check_vec(L, 2);
    sat_vec u = vec_normalized(*b);
    double d = 2.0 * (a->x * u.x + a->y * u.y);
    push_vec(L, a->x - d * u.x, a->y - d * u.y);
    return 1;
}

static int vec_dist(lua_State *L)
{
    sat_vec *a = check_vec(L, 1), *b = check_vec(L, 2);
    lua_pushnumber(L, hypot(a->x - b->x, a->y - b->y));
    return 1;
}

/* ---- shape constructors ------------------------------------------------------------------ */

static int l_circle(lua_State *L)
{
    double x = check_coord(L, 1), y = check_coord(L, 2), r = check_finite(L, 3);
    sat_shape *s;
    if (r < 0.0)
        return luaL_argerror(L, 3, "radius must be >= 0");
    check_coord(L, 3);
    s = (sat_shape *)sat_newuserdata_uv(L, sat_circle_bytes());
    check_status(L, sat_circle_init(s, x, y, r), 3);
    finish_shape(L, s);
    return 1;
}

static int l_point(lua_State *L)
{
    double x = check_coord(L, 1), y = check_coord(L, 2);
    sat_shape *s = (sat_shape *)sat_newuserdata_uv(L, sat_circle_bytes());
    check_status(L, sat_circle_init(s, x, y, 0.0), 1);
    finish_shape(L, s);
    return 1;
}

/* Builds the polygon from n points and pushes it; a refusal is an error on argument 1.
 * Nothing is pushed that outlives an error but garbage. */
static int push_polygon(lua_State *L, const sat_vec *pts, int n)
{
    sat_shape *s;
    if (n < 3)
        return luaL_argerror(L, 1, sat_status_message(SAT_ERR_TOO_FEW_POINTS));
    s = (sat_shape *)sat_newuserdata_uv(L, sat_polygon_bytes(n));
    check_status(L, sat_polygon_init(s, pts, n), 1);
    finish_shape(L, s);
    return 1;
}

/* Room for n points: the C stack when small, else a temporary userdata (garbage later). */
static sat_vec *point_buffer(lua_State *L, sat_vec *stackbuf, size_t n)
{
    if (n > (size_t)SAT_MAX_POINTS)
        luaL_argerror(L, 1, sat_status_message(SAT_ERR_TOO_MANY_POINTS));
    return n <= STACK_POINTS ? stackbuf : (sat_vec *)sat_newuserdata(L, n * sizeof(sat_vec));
}

static double table_number(lua_State *L, int i)
{
    double v;
    lua_rawgeti(L, 1, i);
    if (lua_type(L, -1) != LUA_TNUMBER)
        luaL_argerror(L, 1, lua_pushfstring(L, "number expected at index %d, got %s", i,
                                            type_name(L, -1)));
    v = (double)lua_tonumber(L, -1);
    if (!isfinite(v))
        luaL_argerror(L, 1, lua_pushfstring(L, "finite number expected at index %d, got %s",
                                            i, nonfinite_name(v)));
#ifdef SAT_MAX_COORD
    if (fabs(v) > SAT_MAX_COORD)
        luaL_argerror(L, 1, lua_pushfstring(L, "%s at index %d",
                                            sat_status_message(SAT_ERR_RANGE), i));
#endif
    lua_pop(L, 1);
    return v;
}

static int polygon_from_table(lua_State *L)
{
    sat_vec stackbuf[STACK_POINTS], *pts;
    size_t len = lua_rawlen(L, 1), i, n;
    int vecs;
    lua_rawgeti(L, 1, 1);
    vecs = tovec(L, -1) != NULL;
    if (!vecs && lua_type(L, -1) != LUA_TNUMBER)
        return luaL_argerror(L, 1, lua_pushfstring(L, "table of numbers or vecs expected, "
                                                      "got %s at index 1", type_name(L, -1)));
    lua_pop(L, 1);
    if (!vecs && len % 2 != 0)
        return luaL_argerror(L, 1, lua_pushfstring(L, "odd number of coordinates (%d)",
                                                   (int)len));
    n = vecs ? len : len / 2;
    pts = point_buffer(L, stackbuf, n);
    for (i = 0; i < n; i++) {
        if (vecs) {
            sat_vec *v;
            lua_rawgeti(L, 1, (int)i + 1);
            v = tovec(L, -1);
            if (v == NULL)
                return luaL_argerror(L, 1, lua_pushfstring(L, "vec expected at index %d, "
                                                              "got %s", (int)i + 1,
                                                           type_name(L, -1)));
            pts[i] = *v;
            lua_pop(L, 1);
        } else {
            pts[i].x = table_number(L, 2 * (int)i + 1);
            pts[i].y = table_number(L, 2 * (int)i + 2);
        }
    }
    return push_polygon(L, pts, (int)n);
}

static int l_polygon(lua_State *L)
{
    sat_vec stackbuf[STACK_POINTS], *pts;
    int top = lua_gettop(L), i, n;
    if (top == 1 && lua_istable(L, 1))
        return polygon_from_table(L);
    if (top == 0 || !lua_isnumber(L, 1))
        return type_error(L, 1, "number or table");
    for (i = 1; i <= top; i++)
        check_coord(L, i);
    if (top % 2 != 0)
        check_finite(L, top + 1); /* "number expected, got no value" */
    n = top / 2;
    pts = point_buffer(L, stackbuf, (size_t)n);
    for (i = 0; i < n; i++) {
        pts[i].x = (double)lua_tonumber(L, 2 * i + 1);
        pts[i].y = (double)lua_tonumber(L, 2 * i + 2);
    }
    return push_polygon(L, pts, n);
}

static int l_box(lua_State *L)
{
    double x = check_coord(L, 1), y = check_coord(L, 2);
    double w = check_finite(L, 3), h = check_finite(L, 4);
    sat_vec pts[4];
    if (!(w > 0.0))
        return luaL_argerror(L, 3, "width must be > 0");
    if (!(h > 0.0))
        return luaL_argerror(L, 4, "height must be > 0");
    check_coord(L, 3);
    check_coord(L, 4);
    pts[0].x = x;
    pts[0].y = y;
    pts[1].x = x + w;
    pts[1].y = y;
    pts[2].x = x + w;
    pts[2].y = y + h;
    pts[3].x = x;
    pts[3].y = y + h;
    return push_polygon(L, pts, 4);
}

/* ---- shape fields and metamethods -------------------------------------------------------- */

/* Keeps the low 32 bits of an integer-valued number: LuaJIT's bit.bnot(1) (-2) works. */
static int to_bits(lua_State *L, int idx, uint32_t *out)
{
    double d, m;
    if (lua_type(L, idx) != LUA_TNUMBER)
        return 0;
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, idx)) {
        *out = (uint32_t)((lua_Unsigned)lua_tointeger(L, idx) & 0xFFFFFFFFu);
        return 1;
    }
#endif
    d = (double)lua_tonumber(L, idx);
    if (!isfinite(d) || floor(d) != d)
        return 0;
    m = fmod(d, 4294967296.0);
    if (m < 0.0)
        m += 4294967296.0;
    *out = (uint32_t)m;
    return 1;
}

static int is_method(lua_State *L, const sat_shape *s, int key)
{
    int found;
    lua_pushvalue(L, key);
    lua_rawget(L, s->kind == SAT_POLYGON ? UV_POLYMETHODS : UV_CIRCMETHODS);
    found = !lua_isnil(L, -1);
    lua_pop(L, 1);
    return found;
}

static int shape_newindex(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    int filter = 0; /* 1: category, 2: mask */
    uint32_t bits = 0;
    if (lua_type(L, 2) == LUA_TSTRING) {
        const char *k = lua_tostring(L, 2);
        filter = strcmp(k, "category") == 0 ? 1 : strcmp(k, "mask") == 0 ? 2 : 0;
        if (filter != 0) {
            if (!to_bits(L, 3, &bits))
                return luaL_error(L, "bad value for field '%s' (integer expected, got %s)", k,
                                  lua_type(L, 3) == LUA_TNUMBER ? "non-integer number"
                                                                : type_name(L, 3));
            /* stored in the field table too, where a table lookup finds it */
            sat_pushuint32(L, bits);
            lua_replace(L, 3);
        } else if (is_method(L, s, 2)) {
            return luaL_error(L, "cannot set field '%s' of a %s: '%s' is a method", k,
                              s->kind == SAT_POLYGON ? "polygon" : "circle", k);
        }
    }
    if (!push_fields(L, 1)) {
        if (lua_isnil(L, 3))
            return 0; /* removing from no fields */
        lua_newtable(L);
        lua_pushvalue(L, -1);
        attach_fields(L, 1, s);
    }
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, -3);
    if (filter == 1)
        s->category = bits;
    else if (filter == 2)
        s->mask = bits;
    return 0;
}

static int shape_tostring(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    sat_vec p = sat_shape_position(s);
    char x[32], y[32], r[32];
    fmt_num(x, sizeof x, p.x);
    fmt_num(y, sizeof y, p.y);
    if (s->kind == SAT_POLYGON) {
        lua_pushfstring(L, "polygon(%d vertices at %s, %s)", s->count, x, y);
    } else {
        fmt_num(r, sizeof r, sat_circle_radius(s));
        lua_pushfstring(L, "circle(r %s at %s, %s)", r, x, y);
    }
    return 1;
}

/* ---- shape methods ----------------------------------------------------------------------- */

static int shape_move_to(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    double x = check_coord(L, 2), y = check_coord(L, 3);
    check_status(L, sat_shape_move_to(s, x, y), 2);
    lua_settop(L, 1);
    return 1;
}

static int shape_move(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    double dx = check_finite(L, 2), dy = check_finite(L, 3);
    check_status(L, sat_shape_move(s, dx, dy), 2);
    lua_settop(L, 1);
    return 1;
}

static int shape_position(lua_State *L)
{
    sat_vec p = sat_shape_position(lsat_checkshape(L, 1));
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    return 2;
}

static int shape_set_rotation(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    check_status(L, sat_shape_set_rotation(s, check_finite(L, 2)), 2);
    lua_settop(L, 1);
    return 1;
}

static int shape_rotate(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    check_status(L, sat_shape_rotate(s, check_finite(L, 2)), 2);
    lua_settop(L, 1);
    return 1;
}

static int shape_rotation(lua_State *L)
{
    lua_pushnumber(L, sat_shape_rotation(lsat_checkshape(L, 1)));
    return 1;
}

static int shape_scale(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    double f = check_finite(L, 2);
    if (!(f > 0.0))
        return luaL_argerror(L, 2, sat_status_message(SAT_ERR_BAD_SCALE));
    check_status(L, sat_shape_scale(s, f), 2);
    lua_settop(L, 1);
    return 1;
}

static int shape_bbox(lua_State *L)
{
    sat_aabb b = sat_shape_bbox(lsat_checkshape(L, 1));
    lua_pushnumber(L, b.x1);
    lua_pushnumber(L, b.y1);
    lua_pushnumber(L, b.x2);
    lua_pushnumber(L, b.y2);
    return 4;
}

static int shape_contains(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    double x = check_finite(L, 2), y = check_finite(L, 3);
    lua_pushboolean(L, sat_shape_contains(s, x, y));
    return 1;
}

static int shape_area(lua_State *L)
{
    lua_pushnumber(L, sat_shape_area(lsat_checkshape(L, 1)));
    return 1;
}

static int shape_kind(lua_State *L)
{
    lua_pushstring(L, lsat_checkshape(L, 1)->kind == SAT_POLYGON ? "polygon" : "circle");
    return 1;
}

/* A copy with a new id; the Lua fields are copied too (a shallow copy of the table). */
static int shape_clone(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    sat_shape *c = (sat_shape *)sat_newuserdata_uv(L, sat_shape_bytes(s));
    sat_shape_copy(c, s);
    finish_shape(L, c);
    if (push_fields(L, 1)) {
        lua_newtable(L);
        copy_entries(L, -2, -1);
        attach_fields(L, -3, c);
        lua_pop(L, 1);
    }
    return 1;
}

static int shape_raycast(lua_State *L)
{
    sat_shape *s = lsat_checkshape(L, 1);
    sat_vec p1, p2;
    sat_hit hit;
    p1.x = check_finite(L, 2);
    p1.y = check_finite(L, 3);
    p2.x = check_finite(L, 4);
    p2.y = check_finite(L, 5);
    if (!sat_shape_raycast(s, p1, p2, &hit)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, hit.t);
    lua_pushnumber(L, hit.normal.x);
    lua_pushnumber(L, hit.normal.y);
    return 3;
}

/* vertices([t]) -> t: world coordinates x1, y1, x2, y2, ...; fills and trims t when given
 * (no allocation in a draw loop once t is big enough). */
static int shape_vertices(lua_State *L)
{
    sat_shape *s = check_kind(L, 1, SAT_POLYGON);
    int i;
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_createtable(L, 2 * s->count, 0);
    } else {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_settop(L, 2);
    }
    for (i = 0; i < s->count; i++) {
        sat_vec v = sat_polygon_vertex(s, i);
        lua_pushnumber(L, v.x);
        lua_rawseti(L, 2, 2 * i + 1);
        lua_pushnumber(L, v.y);
        lua_rawseti(L, 2, 2 * i + 2);
    }
    for (i = 2 * s->count + 1;; i++) {
        lua_rawgeti(L, 2, i);
        if (lua_isnil(L, -1))
            break;
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, 2, i);
    }
    lua_settop(L, 2);
    return 1;
}

static int shape_radius(lua_State *L)
{
    lua_pushnumber(L, sat_circle_radius(check_kind(L, 1, SAT_CIRCLE)));
    return 1;
}

static int shape_set_radius(lua_State *L)
{
    sat_shape *s = check_kind(L, 1, SAT_CIRCLE);
    double r = check_finite(L, 2);
    if (r < 0.0)
        return luaL_argerror(L, 2, sat_status_message(SAT_ERR_NEGATIVE_RADIUS));
    check_coord(L, 2);
    check_status(L, sat_circle_set_radius(s, r), 2);
    lua_settop(L, 1);
    return 1;
}

/* ---- narrow phase ------------------------------------------------------------------------ */

static int l_test(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b = lsat_checkshape(L, 2);
    lua_pushboolean(L, sat_test(a, b));
    return 1;
}

static int shape_collides_with(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b = lsat_checkshape(L, 2);
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

static int l_collide(lua_State *L)
{
    sat_shape *a = lsat_checkshape(L, 1), *b = lsat_checkshape(L, 2);
    sat_result r;
    if (!lua_isnoneornil(L, 3) && !lua_istable(L, 3))
        return type_error(L, 3, "table");
    if (!sat_collide(a, b, &r)) {
        lua_pushnil(L);
        return 1;
    }
    if (lua_istable(L, 3)) {
        lua_settop(L, 3);
        if (!lua_getmetatable(L, 3)) {
            lua_pushvalue(L, UV_RESPMT);
            lua_setmetatable(L, 3);
        } else {
            lua_pop(L, 1);
        }
    } else {
        lua_settop(L, 2);
        lua_createtable(L, 0, 7);
        lua_pushvalue(L, UV_RESPMT);
        lua_setmetatable(L, 3);
    }
    lsat_set_value(L, 3, UV_KEY(RK_A), 1);
    lsat_set_value(L, 3, UV_KEY(RK_B), 2);
    lsat_set_number(L, 3, UV_KEY(RK_OVERLAP), r.overlap);
    lsat_set_vec(L, 3, UV_KEY(RK_NORMAL), UV_VECMT, r.normal);
    lsat_set_vec(L, 3, UV_KEY(RK_MTV), UV_VECMT, r.mtv);
    lsat_set_boolean(L, 3, UV_KEY(RK_AINB), r.a_in_b);
    lsat_set_boolean(L, 3, UV_KEY(RK_BINA), r.b_in_a);
    return 1;
}

/* Appends "name value" of a response field to the buffer. */
static void add_field(lua_State *L, luaL_Buffer *buf, int resp, const char *name)
{
    char x[32], y[32];
    sat_vec *v;
    luaL_addstring(buf, name);
    luaL_addchar(buf, ' ');
    lua_pushstring(L, name);
    lua_rawget(L, resp);
    v = tovec(L, -1);
    if (v != NULL) {
        fmt_num(x, sizeof x, v->x);
        fmt_num(y, sizeof y, v->y);
        lua_pop(L, 1);
        lua_pushfstring(L, "vec(%s, %s)", x, y);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
        fmt_num(x, sizeof x, (double)lua_tonumber(L, -1));
        lua_pop(L, 1);
        lua_pushstring(L, x);
    } else if (lua_type(L, -1) == LUA_TBOOLEAN) {
        int t = lua_toboolean(L, -1);
        lua_pop(L, 1);
        lua_pushstring(L, t ? "true" : "false");
    } else {
        const char *t = type_name(L, -1);
        lua_pop(L, 1);
        lua_pushstring(L, t);
    }
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

static int l_is_shape(lua_State *L)
{
    lua_pushboolean(L, lsat_toshape(L, 1) != NULL);
    return 1;
}

static int l_is_vec(lua_State *L)
{
    lua_pushboolean(L, tovec(L, 1) != NULL);
    return 1;
}

/* Registers funcs into the table at idx, each with the UV_COUNT values from base on. */
static void set_funcs(lua_State *L, int idx, int base, const luaL_Reg *funcs)
{
    int i;
    lua_pushvalue(L, idx);
    for (i = 0; i < UV_COUNT; i++)
        lua_pushvalue(L, base + i);
    luaL_setfuncs(L, funcs, UV_COUNT);
    lua_pop(L, 1);
}

/* ---- the FFI's way in (LuaJIT) --------------------------------------------------------- */

/* What lua/sat/fast.lua needs to call the core through LuaJIT's FFI, which the JIT turns
 * into direct calls with no Lua C API on the way. Laid out exactly as the cdef there; the
 * sizes and offsets let that side check the layout before using it. */
#define LSAT_FFI_MAGIC 0x5A7F0002u

typedef struct lsat_ffi_api {
    uint32_t magic, size, result_size, off_normal, off_mtv, off_a_in_b, off_b_in_a;
    int (*test)(const sat_shape *a, const sat_shape *b);
    int (*collide)(const sat_shape *a, const sat_shape *b, sat_result *r);
    /* they change nothing unless they return SAT_OK (0) */
    sat_status (*move)(sat_shape *s, double dx, double dy);
    sat_status (*move_to)(sat_shape *s, double x, double y);
    void (*position)(const sat_shape *s, double *xy);
} lsat_ffi_api;

/* Into a buffer: a struct returned by value would be a new cdata per call. */
static void ffi_position(const sat_shape *s, double *xy)
{
    sat_vec p = sat_shape_position(s);
    xy[0] = p.x;
    xy[1] = p.y;
}

static const lsat_ffi_api ffi_api = {
    LSAT_FFI_MAGIC,
    (uint32_t)sizeof(lsat_ffi_api),
    (uint32_t)sizeof(sat_result),
    (uint32_t)offsetof(sat_result, normal),
    (uint32_t)offsetof(sat_result, mtv),
    (uint32_t)offsetof(sat_result, a_in_b),
    (uint32_t)offsetof(sat_result, b_in_a),
    sat_test,
    sat_collide,
    sat_shape_move,
    sat_shape_move_to,
    ffi_position,
};

/* _ffi.trackMetatables(t): from now on the shapes' own metatables are registered in t (made
 * weak-keyed), which gets those registered so far. sat.fast passes a table only it holds, so
 * that no other code can add a metatable to what it trusts; a later call moves the
 * registration to its own table and only costs the earlier holder speed. */
static int ffi_track_metatables(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_OWNMT);
    if (lua_istable(L, 2))
        copy_entries(L, 2, 1);
    lua_pushvalue(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_OWNMT);
    return 0;
}

static const luaL_Reg ffi_funcs[] = {{"trackMetatables", ffi_track_metatables}, {NULL, NULL}};

/* core._ffi: the api above as a light userdata, with the metatables, the method tables and
 * the C functions fast.lua stands in front of (and falls back on for any other argument). */
static void push_ffi_table(lua_State *L, int base)
{
    /* upvalue positions (UV_* order, from base) and the names they go under */
    static const struct {
        int offset;
        const char *name;
    } values[] = {{7, "polygonMeta"},    {8, "circleMeta"},    {6, "vecMeta"},
                  {5, "responseMeta"},   {1, "polygonMethods"}, {2, "circleMethods"}};
    /* the C methods fast.lua stands in front of */
    static const char *const methods[] = {"collidesWith", "move", "moveTo", "position"};
    size_t i;
    lua_createtable(L, 0, 10);
    lua_pushlightuserdata(L, (void *)&ffi_api);
    lua_setfield(L, -2, "api");
    for (i = 0; i < sizeof values / sizeof values[0]; i++) {
        lua_pushvalue(L, base + values[i].offset);
        lua_setfield(L, -2, values[i].name);
    }
    set_funcs(L, lua_gettop(L), base, ffi_funcs);
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        lua_getfield(L, base + 1, methods[i]);
        lua_setfield(L, -2, methods[i]);
    }
}

/* ---- registration ------------------------------------------------------------------------ */

static const luaL_Reg module_funcs[] = {
    {"vec", l_vec},         {"circle", l_circle},   {"point", l_point},
    {"polygon", l_polygon}, {"box", l_box},         {"test", l_test},
    {"collide", l_collide}, {"isShape", l_is_shape}, {"isVec", l_is_vec},
    {NULL, NULL}};

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

static const luaL_Reg shape_meta[] = {
    {"__newindex", shape_newindex}, {"__tostring", shape_tostring}, {NULL, NULL}};

static const luaL_Reg shape_methods[] = {
    {"moveTo", shape_move_to},   {"move", shape_move},           {"position", shape_position},
    {"setRotation", shape_set_rotation}, {"rotate", shape_rotate}, {"rotation", shape_rotation},
    {"scale", shape_scale},      {"bbox", shape_bbox},           {"contains", shape_contains},
    {"area", shape_area},        {"kind", shape_kind},           {"clone", shape_clone},
    {"raycast", shape_raycast},  {"collidesWith", shape_collides_with},
    {NULL, NULL}};

static const luaL_Reg polygon_methods[] = {{"vertices", shape_vertices}, {NULL, NULL}};

static const luaL_Reg circle_methods[] = {
    {"radius", shape_radius}, {"setRadius", shape_set_radius}, {NULL, NULL}};

static const luaL_Reg response_meta[] = {{"__tostring", response_tostring}, {NULL, NULL}};

/* The tables a shape's keys are looked up in (see attach_fields): each kind's metatable
 * and field tables' metatable send keys to its method table, and the method tables' shared
 * metatable gives category and mask their defaults. */
static void link_lookups(lua_State *L, int base)
{
    int k;
    lua_createtable(L, 0, 1); /* the method tables' metatable */
    lua_createtable(L, 0, 2); /* the defaults */
    sat_pushuint32(L, 1u);
    lua_setfield(L, -2, "category");
    sat_pushuint32(L, 0xFFFFFFFFu);
    lua_setfield(L, -2, "mask");
    lua_setfield(L, -2, "__index");
    for (k = 0; k < 2; k++) {
        int methods = base + 1 + k;
        lua_pushvalue(L, -1);
        lua_setmetatable(L, methods);
        lua_pushvalue(L, methods);
        lua_setfield(L, base + 7 + k, "__index"); /* the kind's metatable */
        lua_pushvalue(L, methods);
        lua_setfield(L, base + 9 + k, "__index"); /* its field tables' */
    }
    lua_pop(L, 1);
}

/* Pushes the metatable registered as name (creating it), with __name set on every version. */
static void push_metatable(lua_State *L, const char *name)
{
    luaL_newmetatable(L, name);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
}

int luaopen_sat_core(lua_State *L)
{
    int base, i;
    luaL_checkstack(L, 2 * UV_COUNT + 4, "cannot open sat.core");
    lua_newtable(L); /* the module */

    /* The upvalues, in UV_* order. One state per lua_State, kept across reloads so that ids
     * stay unique. */
    base = lua_gettop(L) + 1;
    lua_getfield(L, LUA_REGISTRYINDEX, REG_STATE);
    if (lua_type(L, -1) != LUA_TUSERDATA) {
        lsat_state *st;
        lua_pop(L, 1);
        st = (lsat_state *)sat_newuserdata(L, sizeof *st);
        st->next_id = 0;
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, REG_STATE);
    }
    lua_newtable(L); /* polygon methods */
    lua_newtable(L); /* circle methods */
    lua_newtable(L); /* vec methods */
    /* "no fields": shared by every shape made before a reload too (5.1 environments) */
    lua_getfield(L, LUA_REGISTRYINDEX, REG_NOFIELDS);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, REG_NOFIELDS);
    }
    push_metatable(L, MT_RESPONSE);
    push_metatable(L, MT_VEC);
    push_metatable(L, MT_POLYGON);
    push_metatable(L, MT_CIRCLE);
    lua_newtable(L); /* a polygon's field table's metatable */
    lua_newtable(L); /* a circle's */
    for (i = 0; i < RK_COUNT; i++)
        lua_pushstring(L, response_keys[i]);

    set_funcs(L, base + 1, base, shape_methods);
    set_funcs(L, base + 1, base, polygon_methods);
    set_funcs(L, base + 2, base, shape_methods);
    set_funcs(L, base + 2, base, circle_methods);
    set_funcs(L, base + 3, base, vec_methods);
    set_funcs(L, base + 5, base, response_meta);
    set_funcs(L, base + 6, base, vec_meta);
    set_funcs(L, base + 7, base, shape_meta);
    set_funcs(L, base + 8, base, shape_meta);
    set_funcs(L, base - 1, base, module_funcs);
    link_lookups(L, base);
    push_ffi_table(L, base);
    lua_setfield(L, base - 1, "_ffi");
    lua_settop(L, base - 1);

    lua_pushstring(L, SAT_VERSION);
    lua_setfield(L, -2, "_VERSION");
    lsat_open_hash(L);
    return 1;
}
