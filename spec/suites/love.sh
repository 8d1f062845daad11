#!/bin/sh
# Runs spec/love (a tiny LÖVE 11 program) headless under xvfb-run with the module that
# `make LUA=luajit` builds: it requires sat, collides, draws and writes one line per check.
# LÖVE is optional for the library: without love or xvfb-run this suite reports 0 and 0.
# Last line: `love: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/love.sh
. spec/suites/lib/limit.sh
need_love love
mkdir -p build/logs
if ! make --no-print-directory -s LUA=luajit all >build/logs/love-build.log 2>&1; then
  cat build/logs/love-build.log
  echo "love: 0 passed, 1 failed"
  exit 1
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT INT TERM
# A run that spins or blocks is stopped (60 s of processor time, 120 idle rounds: see
# lib/limit.sh), however loaded the machine (a wall-clock 120 s failed here under load).
limited 60 120 env SAT_ROOT="$(pwd)" SAT_LOVE_OUT="$out" xvfb-run -a love spec/love \
  >build/logs/love-run.log 2>&1
rc=$?
cat "$out"
pass=$(grep -c '^ok ' "$out")
fail=$(grep -c '^not ok ' "$out")
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
  echo "love exited with status $rc:"
  tail -n 20 build/logs/love-run.log
  fail=1
fi
if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
  echo "love ran no check:"
  tail -n 20 build/logs/love-run.log
  fail=1
fi
echo "love: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
