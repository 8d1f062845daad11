#!/bin/sh
# The C core's tests under AddressSanitizer + UndefinedBehaviorSanitizer (make c-tests-san:
# build/c/tests-san, -O1, -fno-sanitize-recover=all): any report, leaks included, is fatal
# and counts as a failure. Counts are the binary's (test functions).
# Last line: `c-asan-ubsan: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/ctest-run.sh
mkdir -p build/logs
name=c-asan-ubsan
log=build/logs/c-tests-san.log

if ! make --no-print-directory c-tests-san >build/logs/c-build-san.log 2>&1; then
  cat build/logs/c-build-san.log
  echo "the sanitizer build of the C tests failed (log above)"
  echo "$name: 0 passed, 1 failed"
  exit 1
fi

# the compound property test's pairs (100,000 in the c suite): fewer at the sanitizers' pace
SAT_COMPOUND_PAIRS=20000
export SAT_COMPOUND_PAIRS
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1:check_initialization_order=1 \
  UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
run_ctest ./build/c/tests-san "$log" "a sanitizer report or a crash, above"
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
