#!/bin/sh
# Runs every test suite (spec/suites/*.sh, build and lint first) and ends with the one line
# CI reads: "tests: N passed, M failed". A suite's count is its last line of the form
# "<name>: N passed, M failed"; its whole output goes to build/logs/suite-<name>.log.
#
# Two lanes: the build suite (its own folders, build/check-*), the C core's suites (c,
# c-san: their own binaries under build/c), the busted suite on the pure backend and
# valgrind run one after another in a second lane, beside the rest, so that a two-core
# machine finishes in about half the time (the lanes' shares measured in CI runs). The
# modules and the specs' helpers of every Lua are built first (make LUA=<lua> all
# test-helpers, and the sanitizer build module-san that valgrind and world-fuzz share), so
# that a lane's make finds them made and writes nothing another lane reads. SUITE_LANES=1 runs everything in one lane. No suite measures time, so the lanes'
# sharing of the machine changes no result. The summary lists the suites in their fixed
# order.
set -u
cd "$(dirname "$0")/.." || exit 1
mkdir -p build/logs
rm -f build/logs/result-*

# A suite that hangs is stopped and fails, so that the run still ends with its line: by the
# stall guard (spec/suites/lib/limit.sh), when its processes have used SUITE_CPU seconds of
# processor time (5400 unless set) or none for SUITE_IDLE rounds of about a second (600):
# limits a loaded machine cannot reach, as it could a wall-clock one.
. spec/suites/lib/limit.sh
cpu=${SUITE_CPU:-5400}
idle=${SUITE_IDLE:-600}
lanes=${SUITE_LANES:-2}
c_lane=" build c c-san busted-pure valgrind "

# run_suite NAME: runs spec/suites/NAME.sh into its log; writes "passed failed" to its result.
run_suite() {
  name=$1
  log="build/logs/suite-$name.log"
  start=$(date +%s)
  limited "$cpu" "$idle" sh "spec/suites/$name.sh" >"$log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  if [ "$rc" -eq 124 ]; then
    echo "$name: stopped by the stall guard (SUITE_CPU, SUITE_IDLE); counted as a failure" >>"$log"
    rc=1
  fi
  last=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -z "$last" ]; then
    echo "$name: no summary line (exit $rc)" >>"$log"
    p=0; f=1
  else
    p=$(echo "$last" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
    f=$(echo "$last" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
      echo "$name: exited $rc" >>"$log"; f=1
    fi
  fi
  echo "$p $f $took" >"build/logs/result-$name"
}

show() { # NAME: the suite's log and its time
  echo "==== $1"
  cat "build/logs/suite-$1.log"
  echo "($1 took $(cut -d' ' -f3 "build/logs/result-$1") s)"
}

order=""
for s in spec/suites/build.sh spec/suites/lint.sh spec/suites/*.sh; do
  name=$(basename "$s" .sh)
  case " $order " in *" $name "*) continue ;; esac
  order="$order $name"
done

# build and lint first, alone: the others use what build makes.
# (with two lanes the build suite runs first in the second one: it builds into folders of
# its own, build/check-*, and the modules the other suites load are built just below)
first="build lint"
[ "$lanes" -gt 1 ] && first="lint"
for name in $first; do run_suite "$name"; show "$name"; done

second=""
if [ "$lanes" -gt 1 ]; then
  # (Lua 5.4's first: it also makes the loader's fixtures, which every Lua's make wants; then
  # the others two at a time, each in folders of its own: build/<lua>, build/asan-<lua>)
  prebuild() { # LUA TARGETS...
    lua=$1; shift
    command -v "$lua" >/dev/null 2>&1 || return 0
    make --no-print-directory -s LUA="$lua" "$@" >>"build/logs/prebuild-$lua.log" 2>&1 \
      || echo "note: make LUA=$lua $* failed (build/logs/prebuild-$lua.log)"
  }
  san=""
  [ -f "$(gcc -print-file-name=libasan.so 2>/dev/null)" ] && san=module-san
  rm -f build/logs/prebuild-*.log
  prebuild lua5.4 all test-helpers $san
  (prebuild luajit all test-helpers $san; prebuild lua5.2 all test-helpers) &
  pre_pid=$!
  prebuild lua5.1 all test-helpers
  prebuild lua5.3 all test-helpers
  wait "$pre_pid"
  for name in $order; do
    case $c_lane in *" $name "*) second="$second $name" ;; esac
  done
  (for name in $second; do run_suite "$name"; done) &
  lane_pid=$!
fi
for name in $order; do
  case " build lint $second " in *" $name "*) continue ;; esac
  run_suite "$name"; show "$name"
done
if [ -n "$second" ]; then
  wait "$lane_pid"
  for name in $second; do show "$name"; done
fi

total_pass=0
total_fail=0
echo
echo "summary:"
for name in $order; do
  set -- $(cat "build/logs/result-$name" 2>/dev/null || echo "0 1 0")
  echo "  $name: $1 passed, $2 failed"
  total_pass=$((total_pass + $1))
  total_fail=$((total_fail + $2))
done
echo "tests: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
