#!/bin/sh
# Runs every test suite (spec/suites/*.sh, build and lint first) and ends with the one line
# CI reads: "tests: N passed, M failed". A suite's count is its last line of the form
# "<name>: N passed, M failed"; its whole output goes to build/logs/suite-<name>.log.
set -u
cd "$(dirname "$0")/.." || exit 1
mkdir -p build/logs
total_pass=0
total_fail=0
summary=""

record() { # name passed failed
  total_pass=$((total_pass + $2))
  total_fail=$((total_fail + $3))
  summary="$summary
  $1: $2 passed, $3 failed"
}

# A suite that hangs is stopped and fails, so that the run still ends with its line: by the
# stall guard (spec/suites/lib/limit.sh), when its processes have used SUITE_CPU seconds of
# processor time (5400 unless set) or none for SUITE_IDLE rounds of about a second (600):
# limits a loaded machine cannot reach, as it could a wall-clock one.
. spec/suites/lib/limit.sh
cpu=${SUITE_CPU:-5400}
idle=${SUITE_IDLE:-600}
ran=" "
for s in spec/suites/build.sh spec/suites/lint.sh spec/suites/*.sh; do
  case $ran in *" $s "*) continue ;; esac
  ran="$ran$s "
  name=$(basename "$s" .sh)
  echo "==== $name"
  log="build/logs/suite-$name.log"
  start=$(date +%s)
  limited "$cpu" "$idle" sh "$s" >"$log" 2>&1
  rc=$?
  cat "$log"
  echo "($name took $(($(date +%s) - start)) s)"
  if [ "$rc" -eq 124 ]; then
    echo "$name: stopped by the stall guard (SUITE_CPU, SUITE_IDLE); counted as a failure"
    rc=1
  fi
  last=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -z "$last" ]; then
    echo "$name: no summary line (exit $rc)"
    record "$name" 0 1
    continue
  fi
  p=$(echo "$last" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
  f=$(echo "$last" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "$name: exited $rc"; f=1
  fi
  record "$name" "$p" "$f"
done

echo
echo "summary:$summary"
echo "tests: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
