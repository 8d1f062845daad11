/*
 * sat_collide_traced.c - sat_collide.c compiled a second time with its trace on: the same
 * pair functions, from the same source, reporting every axis to a sink (sat__collide_traced,
 * which sat_explain.c listens to). Kept apart so that sat_test and sat_collide stay exactly
 * the code they are without it.
 */
#define SAT_TRACING 1
#include "sat_collide.c"
