/*
 * ctest.h - the C core's tiny test harness (Box2D's RUN_TEST / ENSURE style).
 *
 * A test is a `static void test_x(void)` function; RUN_TEST(test_x) runs it and counts it as
 * passed when none of its checks failed. ENSURE-style checks do not return: a test goes on
 * after a failure, so one run shows every broken check (printing is capped per test so that a
 * property test failing 100,000 times stays readable). The binary ends with exactly
 * "N passed, M failed", counting TEST FUNCTIONS, and exits non-zero when M > 0.
 *
 * Each area lives in its own spec/c/test_<area>.c and exports one runner, declared below and
 * called by main in test_main.c.
 */
#ifndef CTEST_H
#define CTEST_H

#include <stdint.h>

#include <math.h>
#include <stdio.h>

typedef struct ctest_state {
    const char *test;   /* name of the running test function */
    long checks;        /* checks evaluated, all tests */
    long failed_checks; /* failed checks, all tests */
    long test_failures; /* failed checks in the running test */
    int passed;         /* test functions without a failed check */
    int failed;         /* test functions with at least one */
} ctest_state;

extern ctest_state ctest;

/* Prints one failure (at most CTEST_PRINT_LIMIT per test); fmt may be NULL. */
void ctest_fail(const char *file, int line, const char *expr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void ctest_begin(const char *name);
void ctest_end(void);

#define CTEST_PRINT_LIMIT 12

#define RUN_TEST(T)                                                                        \
    do {                                                                                   \
        ctest_begin(#T);                                                                   \
        T();                                                                               \
        ctest_end();                                                                       \
    } while (0)

#define ENSURE(C)                                                                          \
    do {                                                                                   \
        ctest.checks++;                                                                    \
        if (!(C))                                                                          \
            ctest_fail(__FILE__, __LINE__, #C, NULL);                                      \
    } while (0)

/* ENSURE with a printf-style explanation: ENSUREF(x > 0, "pair %d: x = %g", i, x). */
#define ENSUREF(C, ...)                                                                    \
    do {                                                                                   \
        ctest.checks++;                                                                    \
        if (!(C))                                                                          \
            ctest_fail(__FILE__, __LINE__, #C, __VA_ARGS__);                               \
    } while (0)

/* |a - b| <= tol; NaN on either side fails. */
#define ENSURE_NEAR(A, B, TOL)                                                             \
    do {                                                                                   \
        double ctest_a_ = (A), ctest_b_ = (B), ctest_t_ = (TOL);                           \
        ctest.checks++;                                                                    \
        if (!(fabs(ctest_a_ - ctest_b_) <= ctest_t_))                                      \
            ctest_fail(__FILE__, __LINE__, #A " ~= " #B, "%.17g vs %.17g (diff %.3g, tol %.3g)", \
                       ctest_a_, ctest_b_, fabs(ctest_a_ - ctest_b_), ctest_t_);           \
    } while (0)

/* Integer equality that prints both sides (status codes, counts). */
#define ENSURE_EQ_INT(A, B)                                                                \
    do {                                                                                   \
        long ctest_ia_ = (long)(A), ctest_ib_ = (long)(B);                                 \
        ctest.checks++;                                                                    \
        if (ctest_ia_ != ctest_ib_)                                                        \
            ctest_fail(__FILE__, __LINE__, #A " == " #B, "%ld vs %ld", ctest_ia_, ctest_ib_); \
    } while (0)

/* splitmix64: the seeded random numbers of the randomized tests. */
typedef struct ctest_rng {
    uint64_t s;
} ctest_rng;

static inline uint64_t ctest_next(ctest_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* One runner per area file. */
void run_oracle_tests(void);
void run_build_tests(void);
void run_transform_tests(void);
void run_query_tests(void);
void run_collide_tests(void);
void run_property_tests(void);
void run_sweep_tests(void);
void run_hash_tests(void);
void run_segment_tests(void);
void run_bigpoly_tests(void);
void run_explain_tests(void);
void run_compound_tests(void);
void run_union_tests(void);
void run_union_search_tests(void);
void run_math_tests(void);
void run_parts_tests(void);

#endif
