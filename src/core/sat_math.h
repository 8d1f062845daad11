/*
 * The core's own sin, cos, atan2 and hypot (sat_math.c): the same bits on every platform
 * and in the pure-Lua backend (lua/sat/pure/sat_math.lua), since a C library's may round
 * differently. Private to the core and the binding; not part of the C API (sat.h).
 */
#ifndef SAT_MATH_H
#define SAT_MATH_H

#include "sat.h"

SAT_BEGIN_HIDDEN

/* Within 1 ulp of the true value for every finite argument (docs/design.md,
 * "Determinism"); an infinite or NaN argument gives NaN. Angles are not reduced first by the
 * caller: sat_sin(1e300) is sin(1e300). Exact where it matters: sat_sin(+-0) = +-0,
 * sat_cos(0) = 1, sat_sin(-x) = -sat_sin(x) and sat_cos(-x) = sat_cos(x) bit for bit. */
double sat_sin(double x);
double sat_cos(double x);
/* Both at once, the same bits as the two calls, one argument reduction. */
void sat_sincos(double x, double *s, double *c);
/* C99's atan2 (Annex F, signed zeros and infinities included), odd in y bit for bit. */
double sat_atan2(double y, double x);
/* sqrt(x^2 + y^2) without overflow or underflow for any finite pair; inf if either is
 * infinite (even with a NaN), else NaN if either is NaN. Symmetric bit for bit. */
double sat_hypot(double x, double y);

SAT_END_HIDDEN

#endif
