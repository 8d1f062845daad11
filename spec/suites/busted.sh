#!/bin/sh
# Runs every spec/*_spec.lua with busted under each Lua: builds the module and the specs'
# helpers for that Lua (make LUA=... all test-helpers), then `<lua> busted -o TAP spec` with lua/ and build/<lua>/ on the paths.
# lua5.4 and luajit are required; lua5.1 and lua5.3 run when installed.
# Prints a line per interpreter and last `busted: N passed, M failed` (errors count as failed).
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/tap-count.sh
mkdir -p build/logs

total_pass=0
total_fail=0
busted=$(command -v busted || true)

for lua in lua5.4 luajit lua5.1 lua5.3; do
  if ! command -v "$lua" >/dev/null 2>&1; then
    case $lua in
      lua5.4|luajit) echo "$lua: not installed (required)"; total_fail=$((total_fail + 1)) ;;
      *) echo "$lua: not installed, skipped" ;;
    esac
    continue
  fi
  if [ -z "$busted" ]; then
    echo "$lua: busted is not installed (apt-get install lua-busted)"
    total_fail=$((total_fail + 1))
    continue
  fi
  log=build/logs/busted-$lua.log
  if ! make --no-print-directory -s LUA="$lua" all test-helpers >"$log" 2>&1; then
    cat "$log"
    echo "$lua: build failed"
    total_fail=$((total_fail + 1))
    continue
  fi
  LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/$lua/?.so;;" \
    "$lua" "$busted" -o TAP spec >"$log" 2>&1
  rc=$?
  tap_count "$log"
  # anything busted could not even report (a crash, a missing module) is one failure
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    fail=1
  fi
  if [ "$fail" -ne 0 ]; then
    # each failure's title and message, kept short (the whole log is in $log)
    awk '/^not ok /{n=3} n>0{print; n--}' "$log" | head -n 60
    [ "$(grep -c '^not ok ' "$log")" -eq 0 ] && tail -n 30 "$log"
  fi
  echo "$lua: $pass passed, $fail failed"
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
done

echo "busted: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
