/*
 * lsat_ffi.c - core._ffi: LuaJIT's way in (lua/sat/fast.lua).
 *
 * Under LuaJIT the JIT turns an FFI call into a direct call of the C function, with no Lua
 * C API on the way, which a lua_CFunction never gets. This file hands fast.lua the core's
 * functions as a table of pointers, and what it needs to recognise shapes without asking C.
 *
 * What fast.lua uses is handed over once, by core._ffi.take(), which sat.fast's install()
 * calls as sat loads: later calls get nothing, so no script can learn the metatables (they
 * are protected), add a foreign metatable to the shapes' own, or have sat.fast build its
 * FFI path from anything but these. And the functions fast.lua calls check their arguments
 * themselves, as the C API functions do (size and stamp), however they were reached.
 */
#include <math.h>
#include <stddef.h>

#include "lsat.h"

/* Laid out exactly as the cdef in lua/sat/fast.lua; the sizes and offsets let that side
 * check the layout before using it. */
#define LSAT_FFI_MAGIC 0x5A7F0004u

/* What a checked function returns when an argument is not what it should be. */
#define LSAT_FFI_REFUSED (-1)

typedef struct lsat_ffi_api {
    uint32_t magic, size, result_size, off_normal, off_mtv, off_a_in_b, off_b_in_a;
    /* sat_test itself, unchecked: what bench/binding.lua measures the binding against */
    int (*raw_test)(const sat_shape *a, const sat_shape *b);
    /* Checked: `len` is where this Lua keeps a userdata's length (see length_offset); each
     * returns LSAT_FFI_REFUSED when an argument is not a shape (a vec) and changes nothing;
     * move and move_to return the core's status otherwise (0: done). */
    int (*test)(const void *a, const void *b, int len);
    int (*collide)(const void *a, const void *b, sat_result *r, int len);
    int (*move)(void *s, double dx, double dy, int len);
    int (*move_to)(void *s, double x, double y, int len);
    int (*position)(const void *s, double *xy, int len);
    int (*set_vec)(void *v, double x, double y, int len);
    /* sat.contacts: n (0, 1, 2), the points in out (x1, y1, x2, y2) */
    int (*contacts)(const void *a, const void *b, double *out, int len);
    /* sat.sweep: io holds dx, dy, bdx, bdy in, t, nx, ny, x, y out; 1 for a hit, 0 for none;
     * LSAT_FFI_REFUSED also for a motion out of range (the C function raises) */
    int (*sweep)(const void *a, const void *b, double *io, int len);
} lsat_ffi_api;

/* The length of the full userdata whose payload is at p, `len` bytes before it. */
static inline uint32_t payload_length(const void *p, int len)
{
    uint32_t n;
    memcpy(&n, (const unsigned char *)p - len, sizeof n);
    return n;
}

/* The shape at p, or NULL: as lsat_toshape, with the length read from the userdata's
 * header, so that the stamp is read only inside a userdata big enough to hold a shape. */
static inline sat_shape *ffi_shape(const void *p, int len)
{
    uintptr_t word;
    if (p == NULL || payload_length(p, len) < sizeof(sat_shape))
        return NULL;
    memcpy(&word, (const unsigned char *)p + offsetof(sat_shape, user), sizeof word);
    return word == lsat_stamp((const sat_shape *)p) ? (sat_shape *)(uintptr_t)p : NULL;
}

static int ffi_test(const void *a, const void *b, int len)
{
    const sat_shape *sa = ffi_shape(a, len), *sb = ffi_shape(b, len);
    return sa != NULL && sb != NULL ? sat_test(sa, sb) : LSAT_FFI_REFUSED;
}

static int ffi_collide(const void *a, const void *b, sat_result *r, int len)
{
    const sat_shape *sa = ffi_shape(a, len), *sb = ffi_shape(b, len);
    return sa != NULL && sb != NULL ? sat_collide(sa, sb, r) : LSAT_FFI_REFUSED;
}

static int ffi_move(void *p, double dx, double dy, int len)
{
    sat_shape *s = ffi_shape(p, len);
    return s != NULL ? (int)sat_shape_move(s, dx, dy) : LSAT_FFI_REFUSED;
}

static int ffi_move_to(void *p, double x, double y, int len)
{
    sat_shape *s = ffi_shape(p, len);
    return s != NULL ? (int)sat_shape_move_to(s, x, y) : LSAT_FFI_REFUSED;
}

/* Into a buffer: a struct returned by value would be a new cdata per call. */
static int ffi_position(const void *p, double *xy, int len)
{
    const sat_shape *s = ffi_shape(p, len);
    sat_vec v;
    if (s == NULL)
        return LSAT_FFI_REFUSED;
    v = sat_shape_position(s);
    xy[0] = v.x;
    xy[1] = v.y;
    return 0;
}

/* Writes (x, y) into the vec at p (a reused response's normal or mtv). */
static int ffi_set_vec(void *p, double x, double y, int len)
{
    lsat_vec *v = (lsat_vec *)p;
    if (v == NULL || payload_length(p, len) != sizeof(lsat_vec) || v->stamp != lsat_vec_stamp(v))
        return LSAT_FFI_REFUSED;
    v->v.x = x;
    v->v.y = y;
    return 0;
}

static int ffi_contacts(const void *a, const void *b, double *out, int len)
{
    const sat_shape *sa = ffi_shape(a, len), *sb = ffi_shape(b, len);
    sat_vec p[2];
    int n, k;
    if (sa == NULL || sb == NULL)
        return LSAT_FFI_REFUSED;
    n = sat_contacts(sa, sb, p);
    for (k = 0; k < n; k++) {
        out[2 * k] = p[k].x;
        out[2 * k + 1] = p[k].y;
    }
    return n;
}

static int ffi_sweep(const void *a, const void *b, double *io, int len)
{
    const sat_shape *sa = ffi_shape(a, len), *sb = ffi_shape(b, len);
    sat_sweep_hit hit;
    sat_vec va, vb, p;
    int k;
    if (sa == NULL || sb == NULL)
        return LSAT_FFI_REFUSED;
    for (k = 0; k < 4; k++) /* NaN fails too */
        if (!(fabs(io[k]) <= SAT_MAX_COORD))
            return LSAT_FFI_REFUSED;
    va.x = io[0];
    va.y = io[1];
    vb.x = io[2];
    vb.y = io[3];
    if (!sat_sweep_contact(sa, va, sb, vb, &hit, &p))
        return 0;
    io[0] = hit.t;
    io[1] = hit.result.normal.x + 0.0;
    io[2] = hit.result.normal.y + 0.0;
    io[3] = p.x;
    io[4] = p.y;
    return 1;
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
    ffi_test,
    ffi_collide,
    ffi_move,
    ffi_move_to,
    ffi_position,
    ffi_set_vec,
    ffi_contacts,
    ffi_sweep,
};

/* Where this Lua keeps a full userdata's length: the distance before the payload of a 32-bit
 * word that equals the length of every userdata of a few odd sizes, at one distance only;
 * 0 when there is no such distance (sat.fast then stays off). The FFI hands C a userdata's
 * payload, with no way to ask Lua its length. Only words within 32 bytes of the payload are
 * read: inside the userdata's header in every Lua from 5.1 to 5.4 and LuaJIT. */
static int length_offset(lua_State *L)
{
    static const size_t sizes[] = {1, 3, 13, 37, 101, 255};
    enum { N = sizeof sizes / sizeof sizes[0] };
    const void *p[N];
    int i, d, found = 0;
    for (i = 0; i < N; i++)
        p[i] = sat_newuserdata(L, sizes[i]);
    for (d = 4; d <= 32; d += 4) {
        for (i = 0; i < N && payload_length(p[i], d) == sizes[i]; i++)
            ;
        if (i == N) {
            if (found != 0) { /* two fit: trust neither */
                found = 0;
                break;
            }
            found = d;
        }
    }
    lua_pop(L, N);
    return found;
}

/* lengthOffset(): the above, for sat.fast to ask under LuaJIT only (the words it compares
 * include a header's padding, which no other Lua needs read). */
static int ffi_length_offset(lua_State *L)
{
    lua_pushinteger(L, length_offset(L));
    return 1;
}

/* take()'s own upvalues, after the shared ones. */
enum { TAKE_TAKEN = LSAT_UV_COUNT + 1, TAKE_C, TAKE_UPVALUES = TAKE_C };

/* _ffi.take(): the first call gets what sat.fast needs, later calls nothing (nil). */
static int ffi_take(lua_State *L)
{
    static const struct {
        int upvalue;
        const char *name;
    } values[] = {{LSAT_UV_POLYMT, "polygonMeta"},        {LSAT_UV_CIRCMT, "circleMeta"},
                  {LSAT_UV_VECMT, "vecMeta"},             {LSAT_UV_RESPMT, "responseMeta"},
                  {LSAT_UV_POLYMETHODS, "polygonMethods"}, {LSAT_UV_CIRCMETHODS, "circleMethods"},
                  {LSAT_UV_SEGMT, "segmentMeta"},         {LSAT_UV_CAPMT, "capsuleMeta"},
                  {LSAT_UV_SEGMETHODS, "segmentMethods"}, {LSAT_UV_CAPMETHODS, "capsuleMethods"},
                  {LSAT_UV_COMPMT, "compoundMeta"},       {LSAT_UV_COMPMETHODS, "compoundMethods"}};
    int taken = lua_upvalueindex(TAKE_TAKEN);
    size_t i;
    if (lua_toboolean(L, taken))
        return 0;
    lua_pushboolean(L, 1);
    lua_replace(L, taken);
    lua_createtable(L, 0, 16);
    lua_pushlightuserdata(L, (void *)&ffi_api);
    lua_setfield(L, -2, "api");
    lua_pushcfunction(L, ffi_length_offset);
    lua_setfield(L, -2, "lengthOffset");
    for (i = 0; i < sizeof values / sizeof values[0]; i++) {
        lua_pushvalue(L, lua_upvalueindex(values[i].upvalue));
        lua_setfield(L, -2, values[i].name);
    }
    /* The shapes' own metatables (lsat_shape.c registers each one here, weak-keyed): one
     * table per Lua state, kept across reloads of the module. */
    lua_getfield(L, LUA_REGISTRYINDEX, LSAT_REG_OWNMT);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, LSAT_REG_OWNMT);
    }
    lua_setfield(L, -2, "ownMetas");
    lua_pushvalue(L, lua_upvalueindex(TAKE_C));
    lua_setfield(L, -2, "c");
    return 1;
}

/* The C functions fast.lua stands in front of (and falls back on for any other argument),
 * as they were registered: the module's, then the polygons' methods (the circles' are the
 * same functions). */
static void push_c_functions(lua_State *L, int module, int base)
{
    static const char *const functions[] = {"test", "collide", "vec", "contacts", "sweep"};
    static const char *const methods[] = {"collidesWith", "move", "moveTo", "position"};
    size_t i;
    lua_createtable(L, 0, 9);
    for (i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        lua_getfield(L, module, functions[i]);
        lua_setfield(L, -2, functions[i]);
    }
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        lua_getfield(L, LSAT_SLOT(base, LSAT_UV_POLYMETHODS), methods[i]);
        lua_setfield(L, -2, methods[i]);
    }
}

/* core._ffi: the api above as a light userdata (bench/binding.lua calls raw_test), take(),
 * and the C methods fast.lua stands in front of: C functions that check their arguments,
 * harmless to hand to anyone (the specs compare with them). */
void lsat_open_ffi(lua_State *L, int module, int base)
{
    int k;
    lua_createtable(L, 0, 6);
    lua_pushlightuserdata(L, (void *)&ffi_api);
    lua_setfield(L, -2, "api");
    push_c_functions(L, module, base);
    lsat_copy_entries(L, -1, -2);
    for (k = 0; k < LSAT_UV_COUNT; k++)
        lua_pushvalue(L, base + k);
    lua_pushboolean(L, 0); /* not taken yet */
    lua_pushvalue(L, -2 - LSAT_UV_COUNT); /* the C functions */
    lua_pushcclosure(L, ffi_take, TAKE_UPVALUES);
    lua_setfield(L, -3, "take");
    lua_pop(L, 1);
    lua_setfield(L, module, "_ffi");
}
