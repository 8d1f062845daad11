/*
 * lsat.h - internal to the Lua binding (src/lsat*.c). Not installed.
 */
#ifndef LSAT_H
#define LSAT_H

#include "compat.h"
#include "sat.h"

/* Registry names of the binding's metatables, shared by every src/lsat*.c. */
#define LSAT_MT_VEC "sat.vec"
#define LSAT_MT_POLYGON "sat.polygon"
#define LSAT_MT_CIRCLE "sat.circle"
#define LSAT_MT_RESPONSE "sat.response"

SAT_BEGIN_HIDDEN

/* The shape at idx, or NULL when it is not a sat shape (never raises). */
sat_shape *lsat_toshape(lua_State *L, int idx);
/* The Lua error "bad argument #arg to 'fn' (shape expected, got <type>)"; never returns. */
sat_shape *lsat_shape_error(lua_State *L, int arg);
/* The shape at argument arg, or that error. Inline, with the error out of line: sat.test
 * checks two, and a call costs there. */
static inline sat_shape *lsat_checkshape(lua_State *L, int arg)
{
    sat_shape *s = lsat_toshape(L, arg);
    return s != NULL ? s : lsat_shape_error(L, arg);
}

/* A new vec (x, y) pushed, with the metatable at stack index vecmt (an upvalue will do). */
sat_vec *lsat_push_vec(lua_State *L, int vecmt, double x, double y);
/* Fields of a response table at absolute index resp, the key being the value at index key
 * (an upvalue will do). A vec field is written into the vec already there when it has the
 * metatable at vecmt, so that a reused response allocates nothing. */
void lsat_set_value(lua_State *L, int resp, int key, int idx); /* the value at idx */
void lsat_set_number(lua_State *L, int resp, int key, double v);
void lsat_set_boolean(lua_State *L, int resp, int key, int v);
void lsat_set_vec(lua_State *L, int resp, int key, int vecmt, sat_vec v);

/* Registers the broad-phase (spatial hash) functions into the table on top of the stack.
 * Defined in lsat_hash.c. */
void lsat_open_hash(lua_State *L);

SAT_END_HIDDEN

#endif
