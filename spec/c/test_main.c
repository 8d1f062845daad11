/*
 * test_main.c - runs every area of the C core's tests and prints "N passed, M failed"
 * (N and M count test functions). Usage: tests [area ...] with areas oracle, build, transform,
 * query, collide, property, sweep, hash, segment, bigpoly, explain, compound, union,
 * union-search, math, parts; no argument runs them all.
 */
#include <stdarg.h>
#include <string.h>

#include "ctest.h"
#include "sat.h"

ctest_state ctest;

void ctest_begin(const char *name)
{
    ctest.test = name;
    ctest.test_failures = 0;
}

void ctest_end(void)
{
    if (ctest.test_failures == 0) {
        ctest.passed++;
    } else {
        ctest.failed++;
        if (ctest.test_failures > CTEST_PRINT_LIMIT)
            printf("  ... %ld failed checks in %s in all\n", ctest.test_failures, ctest.test);
        printf("FAILED %s\n", ctest.test);
    }
    fflush(stdout);
}

void ctest_fail(const char *file, int line, const char *expr, const char *fmt, ...)
{
    ctest.failed_checks++;
    ctest.test_failures++;
    if (ctest.test_failures > CTEST_PRINT_LIMIT)
        return;
    printf("%s:%d: %s: check failed: %s", file, line, ctest.test ? ctest.test : "?", expr);
    if (fmt) {
        va_list ap;
        printf(" -- ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
    }
    printf("\n");
    fflush(stdout);
}

typedef struct area {
    const char *name;
    void (*run)(void);
} area;

static const area areas[] = {
    {"oracle", run_oracle_tests},
    {"build", run_build_tests},
    {"transform", run_transform_tests},
    {"query", run_query_tests},
    {"collide", run_collide_tests},
    {"property", run_property_tests},
    {"sweep", run_sweep_tests},
    {"hash", run_hash_tests},
    {"segment", run_segment_tests},
    {"bigpoly", run_bigpoly_tests},
    {"explain", run_explain_tests},
    {"compound", run_compound_tests},
    {"union", run_union_tests},
    {"union-search", run_union_search_tests},
    {"math", run_math_tests},
    {"parts", run_parts_tests},
};

#define AREA_COUNT ((int)(sizeof areas / sizeof areas[0]))

int main(int argc, char **argv)
{
    int i, j;
    printf("sat %s C core tests\n", SAT_VERSION);
    for (i = 0; i < AREA_COUNT; i++) {
        int wanted = argc < 2;
        for (j = 1; j < argc; j++)
            if (strcmp(argv[j], areas[i].name) == 0)
                wanted = 1;
        if (wanted)
            areas[i].run();
    }
    for (j = 1; j < argc; j++) {
        int known = 0;
        for (i = 0; i < AREA_COUNT; i++)
            if (strcmp(argv[j], areas[i].name) == 0)
                known = 1;
        if (!known) {
            printf("unknown area '%s'\n", argv[j]);
            ctest.failed++;
        }
    }
    printf("%ld checks, %ld failed (counted below: test functions)\n", ctest.checks,
           ctest.failed_checks);
    printf("%d passed, %d failed\n", ctest.passed, ctest.failed);
    return ctest.failed == 0 ? 0 : 1;
}
