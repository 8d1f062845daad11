#!/bin/sh
# The C core's tests (spec/c/: unit tests per area, property tests over 4 x 100,000 random
# pairs against an independent oracle, 100,000 pairs with compounds against a brute-force
# oracle of the union's MTV, a determinism hash), built by `make c-tests`
# (build/c/tests: -O2, $CC) and run. Counts are the binary's (test functions), plus one check
# that the test build is warning-free with clang too. Last line: `c: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/ctest-run.sh
mkdir -p build/logs
name=c
log=build/logs/c-tests.log

if ! make --no-print-directory c-tests >build/logs/c-build.log 2>&1; then
  cat build/logs/c-build.log
  echo "the C tests do not build (log above)"
  echo "$name: 0 passed, 1 failed"
  exit 1
fi

run_ctest ./build/c/tests "$log" "a crash?"

# The same sources with clang, warnings as errors (built, not run).
if command -v clang >/dev/null 2>&1; then
  if make --no-print-directory CC=clang BUILD=build/c-clang c-tests \
      >build/logs/c-build-clang.log 2>&1; then
    echo "clang build of the C tests: warning-free"
    pass=$((pass + 1))
  else
    cat build/logs/c-build-clang.log
    echo "clang build of the C tests FAILED"
    fail=$((fail + 1))
  fi
else
  echo "note: clang is not installed; the C tests were built with ${CC:-cc} only"
fi

echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
