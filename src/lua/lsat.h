/*
 * lsat.h - internal to the Lua binding (src/lua/). Not installed.
 *
 * The binding's one shared header. Its includes go one way: every file of src/lua/ includes
 * this header (and src/core's), never another binding file. The type files (lsat_vec.c,
 * lsat_shape.c, lsat_response.c, lsat_explain.c, lsat_ffi.c, lsat_hash.c) call only the
 * helpers declared here (lsat_util.c); lsat_module.c alone calls their openers.
 */
#ifndef LSAT_H
#define LSAT_H

#include <stddef.h>
#include <string.h>

#include "compat.h"
#include "sat.h"

/* ---- the chaos build (make module-chaos) --------------------------------------------------
 * Any call that can run the collector can run a finalizer, and a finalizer can do anything
 * to the objects the calling C function holds (docs/design.md, "Finalizers and
 * allocations"). Built with -DSAT_CHAOS, every such Lua API call of the binding first calls
 * lsat_chaos, which calls the function the registry holds under LSAT_REG_CHAOS (the fuzzer,
 * spec/fuzz/chaos.lua, puts it there) with the calling C function's name and the shapes and
 * hashes on its stack: a finalizer at every allocation, hostile on purpose. In other builds
 * these names are the plain calls. The list is every API function the binding calls that
 * steps the collector or may call Lua code (a metamethod) in one of Lua 5.1 to 5.4 or
 * LuaJIT (their lapi.c / lj_api.c and lauxlib.c); raw gets and sets are not among them: a
 * table they grow may only run an emergency collection, which calls no finalizer. */
#define LSAT_REG_CHAOS "sat.chaos"
#ifdef SAT_CHAOS
SAT_BEGIN_HIDDEN
void lsat_chaos(lua_State *L, const char *where);
SAT_END_HIDDEN
#define LSAT_CHAOS(L) lsat_chaos((L), __func__)
#define lua_createtable(L, na, nr) (LSAT_CHAOS(L), (lua_createtable)((L), (na), (nr)))
#if LUA_VERSION_NUM >= 504
#define lua_newuserdatauv(L, n, uv) (LSAT_CHAOS(L), (lua_newuserdatauv)((L), (n), (uv)))
#else
#define lua_newuserdata(L, n) (LSAT_CHAOS(L), (lua_newuserdata)((L), (n)))
#endif
#define lua_pushstring(L, s) (LSAT_CHAOS(L), (lua_pushstring)((L), (s)))
#define lua_pushlstring(L, s, n) (LSAT_CHAOS(L), (lua_pushlstring)((L), (s), (n)))
#define lua_pushfstring(L, ...) (LSAT_CHAOS(L), (lua_pushfstring)((L), __VA_ARGS__))
#define lua_pushcclosure(L, f, n) (LSAT_CHAOS(L), (lua_pushcclosure)((L), (f), (n)))
/* converting a number allocates its string */
#define lua_tolstring(L, i, len)                                                             \
    ((lua_type((L), (i)) == LUA_TNUMBER ? LSAT_CHAOS(L) : (void)0),                          \
     (lua_tolstring)((L), (i), (len)))
#define lua_getfield(L, i, k) (LSAT_CHAOS(L), (lua_getfield)((L), (i), (k)))
#define lua_setfield(L, i, k) (LSAT_CHAOS(L), (lua_setfield)((L), (i), (k)))
#define luaL_checkstack(L, n, m) (LSAT_CHAOS(L), (luaL_checkstack)((L), (n), (m)))
#define luaL_newmetatable(L, n) (LSAT_CHAOS(L), (luaL_newmetatable)((L), (n)))
#define luaL_error(L, ...) (LSAT_CHAOS(L), (luaL_error)((L), __VA_ARGS__))
#define luaL_argerror(L, a, m) (LSAT_CHAOS(L), (luaL_argerror)((L), (a), (m)))
#define luaL_checktype(L, a, t)                                                              \
    ((lua_type((L), (a)) != (t) ? LSAT_CHAOS(L) : (void)0), (luaL_checktype)((L), (a), (t)))
#define luaL_addlstring(B, s, n) (LSAT_CHAOS((B)->L), (luaL_addlstring)((B), (s), (n)))
#define luaL_addstring(B, s) (LSAT_CHAOS((B)->L), (luaL_addstring)((B), (s)))
#define luaL_addvalue(B) (LSAT_CHAOS((B)->L), (luaL_addvalue)(B))
#define luaL_pushresult(B) (LSAT_CHAOS((B)->L), (luaL_pushresult)(B))
#if LUA_VERSION_NUM >= 502
#define luaL_prepbuffsize(B, n) (LSAT_CHAOS((B)->L), (luaL_prepbuffsize)((B), (n)))
#else
#define luaL_prepbuffer(B) (LSAT_CHAOS((B)->L), (luaL_prepbuffer)(B))
#endif
#endif

/* Registry names: the metatables (named as the types show in messages) and the binding's
 * own values. */
#define LSAT_MT_VEC "sat.vec"
#define LSAT_MT_POLYGON "sat.polygon"
#define LSAT_MT_CIRCLE "sat.circle"
#define LSAT_MT_SEGMENT "sat.segment"
#define LSAT_MT_CAPSULE "sat.capsule"
#define LSAT_MT_COMPOUND "sat.compound"
#define LSAT_MT_RESPONSE "sat.response"
#define LSAT_MT_HASH "sat.hash"
#define LSAT_REG_STATE "sat.state"
#define LSAT_REG_NOFIELDS "sat.nofields"
#define LSAT_REG_OWNMT "sat.ownmetatables" /* see lsat_shape.c */
#define LSAT_REG_LOCALS "sat.localpoints" /* see lsat_shape.c */

/* Field names kept as upvalues, so that filling a table hashes no string. */
enum lsat_key {
    LSAT_K_A,
    LSAT_K_B,
    LSAT_K_OVERLAP,
    LSAT_K_NORMAL,
    LSAT_K_MTV,
    LSAT_K_AINB,
    LSAT_K_BINA,
    LSAT_K_SHAPE,
    LSAT_K_T,
    LSAT_K_X,
    LSAT_K_Y,
    LSAT_K_NX,
    LSAT_K_NY,
    LSAT_K_PART,
    LSAT_K_OWNPART,
    LSAT_K_INDEX, /* "__index": read from a metatable without making a string */
    LSAT_K_COUNT
};

/* The upvalues of every function the module makes (functions, methods and metamethods
 * alike), in the order lsat_module.c pushes them: per-lua_State state lives here, never in
 * a C global. */
enum lsat_upvalue {
    LSAT_UV_STATE = 1, /* the lsat_state userdata */
    LSAT_UV_POLYMETHODS,
    LSAT_UV_CIRCMETHODS,
    LSAT_UV_VECMETHODS,
    LSAT_UV_NOFIELDS, /* an empty table: "no fields yet" (5.1 environments) */
    LSAT_UV_RESPMT,
    LSAT_UV_VECMT,
    LSAT_UV_POLYMT,
    LSAT_UV_CIRCMT,
    LSAT_UV_POLYFIELDSMT, /* the metatable of a polygon's field table (lsat_shape.c) */
    LSAT_UV_CIRCFIELDSMT,
    LSAT_UV_HASHMT,
    LSAT_UV_SEGMETHODS, /* segments and capsules: as the two kinds above */
    LSAT_UV_CAPMETHODS,
    LSAT_UV_SEGMT,
    LSAT_UV_CAPMT,
    LSAT_UV_SEGFIELDSMT,
    LSAT_UV_CAPFIELDSMT,
    LSAT_UV_COMPMETHODS, /* compounds: as the kinds above */
    LSAT_UV_COMPMT,
    LSAT_UV_COMPFIELDSMT,
    LSAT_UV_KEYS, /* then the LSAT_K_COUNT field names, in lsat_key order */
    LSAT_UV_COUNT = LSAT_UV_KEYS + LSAT_K_COUNT - 1
};

/* The pseudo-index of field name k inside a function of the module. */
#define LSAT_KEY(k) lua_upvalueindex(LSAT_UV_KEYS + (k))
/* While the module opens, upvalue uv sits at this stack index (base: where the first is). */
#define LSAT_SLOT(base, uv) ((base) + (uv) - 1)

typedef struct lsat_state {
    uint64_t next_id; /* shape ids in creation order: exact ties break deterministically */
} lsat_state;

SAT_BEGIN_HIDDEN

/* ---- shapes: recognised by a stamp, not a metatable -------------------------------------- */

/* Every shape the binding makes carries a stamp in its user word: its own address mixed
 * with the address of this object, which no other userdata holds by chance. Checking it
 * needs no metatable lookup. */
extern const char lsat_stamp_key;

static inline uintptr_t lsat_stamp(const sat_shape *s)
{
    return (uintptr_t)s ^ (uintptr_t)&lsat_stamp_key;
}

/* A kind's name, as kind() returns it and messages show it. */
static inline const char *lsat_kind_name(sat_kind kind)
{
    static const char *const names[SAT_KIND_COUNT] = {"polygon", "circle", "segment",
                                                      "capsule", "compound"};
    return (unsigned)kind < SAT_KIND_COUNT ? names[kind] : "shape";
}

/* The shape at idx, or NULL when it is not a sat shape (never raises). lua_touserdata is
 * NULL for anything but userdata, and lua_rawlen 0 for light userdata, so the word is only
 * read inside a full userdata big enough to hold a shape. Inline: sat.test checks two. */
static inline sat_shape *lsat_toshape(lua_State *L, int idx)
{
    unsigned char *p = (unsigned char *)lua_touserdata(L, idx);
    uintptr_t word;
    /* lua_rawlen only on userdata: 5.1's lua_objlen turns a number into a string in place */
    if (p == NULL || (size_t)lua_rawlen(L, idx) < sizeof(sat_shape))
        return NULL;
    memcpy(&word, p + offsetof(sat_shape, user), sizeof word); /* any userdata's bytes */
    return word == lsat_stamp((const sat_shape *)(void *)p) ? (sat_shape *)(void *)p : NULL;
}

/* ---- vecs: recognised the same way ----------------------------------------------------- */

/* A vec's payload: its two numbers and the stamp, which makes a userdata of exactly this size
 * a vec whatever its metatable says (a userdata given the vec metatable through the debug
 * library is not one, and is never written). */
typedef struct lsat_vec {
    sat_vec v;
    uintptr_t stamp;
} lsat_vec;

static inline uintptr_t lsat_vec_stamp(const lsat_vec *v)
{
    return (uintptr_t)v ^ (uintptr_t)&lsat_stamp_key;
}

/* The vec at idx, or NULL when it is not one (never raises). */
static inline sat_vec *lsat_tovec(lua_State *L, int idx)
{
    lsat_vec *v = (lsat_vec *)lua_touserdata(L, idx);
    if (v == NULL || (size_t)lua_rawlen(L, idx) != sizeof(lsat_vec))
        return NULL;
    return v->stamp == lsat_vec_stamp(v) ? &v->v : NULL;
}

/* The Lua error "bad argument #arg to 'fn' (shape expected, got <type>)"; never returns. */
sat_shape *lsat_shape_error(lua_State *L, int arg);

/* The shape at argument arg, or that error, kept out of line. */
static inline sat_shape *lsat_checkshape(lua_State *L, int arg)
{
    sat_shape *s = lsat_toshape(L, arg);
    return s != NULL ? s : lsat_shape_error(L, arg);
}

/* The error "bad self to 'method' (<expected> expected, got <type>)", at the position of
 * the caller: the receiver of a method called with a dot, or through an alias, is not what
 * the method takes. Never returns. */
int lsat_self_error(lua_State *L, const char *method, const char *expected);
/* The same for a shape method: NULL, to be returned in its place. */
sat_shape *lsat_self_shape_error(lua_State *L, const char *method);

/* The receiver (argument 1) of shape method `method`: a shape, or that error. */
static inline sat_shape *lsat_checkself(lua_State *L, const char *method)
{
    sat_shape *s = lsat_toshape(L, 1);
    return s != NULL ? s : lsat_self_shape_error(L, method);
}

/* ---- lsat_util.c: argument checks, type names and errors --------------------------------- */

/* The name a value shows in messages: the binding's types by their own names ("polygon",
 * "vec"), another library's by its __name, which it then leaves pushed (held while the
 * message is made: a finalizer could otherwise drop it). Reads the registry, not the
 * upvalues. */
const char *lsat_type_name(lua_State *L, int idx);
/* "bad argument #arg to 'fn' (<expected> expected, got <type>)"; never returns. */
int lsat_type_error(lua_State *L, int arg, const char *expected);
/* "nan", "inf" or "-inf". */
const char *lsat_nonfinite_name(double v);
/* A number argument that must be finite: "finite number expected, got nan". */
double lsat_checkfinite(lua_State *L, int arg);
/* The same, or def when the argument is nil or absent. */
double lsat_optfinite(lua_State *L, int arg, double def);
/* A coordinate, size or radius going into the core: finite, and within SAT_MAX_COORD. */
double lsat_checkcoord(lua_State *L, int arg);
/* A core refusal, as an argument error carrying the core's own text. */
void lsat_checkstatus(lua_State *L, sat_status st, int arg);
/* %.14g: reads naturally (0.1, not 0.10000000000000001) and never shows -0. */
void lsat_fmt_num(char *buf, size_t size, double v);

/* ---- lsat_util.c: vecs, tables and registration ------------------------------------------ */

/* The vec at arg (lsat_tovec), or an error. */
sat_vec *lsat_checkvec(lua_State *L, int arg);
/* The receiver (argument 1) of vec method `method` (lsat_tovec), or lsat_self_error. */
sat_vec *lsat_checkvecself(lua_State *L, const char *method);
/* A new vec (x, y) pushed. */
sat_vec *lsat_push_vec(lua_State *L, double x, double y);

/* Fields of a table at absolute index t, the key being the value at index key (LSAT_KEY(k)
 * will do). The key is pushed first, so that no value has to be moved under it. */
static inline void lsat_set_value(lua_State *L, int t, int key, int idx) /* value at idx */
{
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, key);
    lua_pushvalue(L, idx);
    lua_rawset(L, t);
}

static inline void lsat_set_number(lua_State *L, int t, int key, double v)
{
    lua_pushvalue(L, key);
    lua_pushnumber(L, v);
    lua_rawset(L, t);
}

static inline void lsat_set_boolean(lua_State *L, int t, int key, int v)
{
    lua_pushvalue(L, key);
    lua_pushboolean(L, v);
    lua_rawset(L, t);
}


/* Rounds of "make the tables, then fill them" before giving up: only a finalizer that takes
 * away what a call made, round after round, can use them up. */
#define LSAT_MAX_ROUNDS 64

/* A response made ready, then filled (sat.collide, and the hash's results). make: gives the
 * table at r two vecs of its own under normal and mtv, so that filling it allocates
 * nothing; may run the collector. fill (r absolute): gives it the response metatable (when
 * it has none) and writes res into it, seen from a (flip: from b), allocating nothing; 0
 * (nothing written) when it lacks those vecs (never made, or a finalizer took one), and the
 * caller makes them and starts over. A reused response is filled at the first try. */
void lsat_make_response(lua_State *L, int r);
int lsat_fill_response(lua_State *L, int r, const sat_result *res, int flip);

/* Protects the metatable at idx (`__metatable`): getmetatable() on its objects gives name,
 * so that no script reaches the method and field tables through it, and setmetatable()
 * cannot replace it. The binding reads its metatables with lua_getmetatable, which sees
 * through this. */
void lsat_protect_metatable(lua_State *L, int idx, const char *name);

/* Copies every entry of the table at src into the table at dst, with raw sets. */
void lsat_copy_entries(lua_State *L, int src, int dst);

/* Registers funcs into the table at idx, each with the LSAT_UV_COUNT upvalues from base. */
void lsat_setfuncs(lua_State *L, int idx, int base, const luaL_Reg *funcs);

/* ---- the type files' openers, called by luaopen_sat_core (lsat_module.c) ----------------- *
 * Each registers its functions into the module table at index module and its methods into
 * the tables among the upvalues at base. */
void lsat_open_vec(lua_State *L, int module, int base);
void lsat_open_shape(lua_State *L, int module, int base);
void lsat_open_response(lua_State *L, int module, int base);
void lsat_open_hash(lua_State *L, int module, int base);
void lsat_open_explain(lua_State *L, int module, int base);
/* Last: it hands on methods the others registered. */
void lsat_open_ffi(lua_State *L, int module, int base);

SAT_END_HIDDEN

#endif
