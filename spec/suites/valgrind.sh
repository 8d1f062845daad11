#!/bin/sh
# Memory checking of the binding: each binding spec (gc_spec.lua first: tens of thousands of
# shapes and vectors made and dropped) runs with busted under valgrind with lua5.4 and the
# module `make LUA=lua5.4` builds. Counts are busted's, plus one failure for every spec file
# in which valgrind found an invalid read/write, a use of uninitialised memory or a
# definite leak. Then the same specs once more, in one busted run, against the module built
# with gcc's AddressSanitizer + UndefinedBehaviorSanitizer (make module-san; the runtimes
# preloaded into lua5.4, and into luajit for the FFI path): they see what valgrind cannot
# (undefined behaviour, overflows inside one allocation).
# Last line: `valgrind: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/tap-count.sh
mkdir -p build/logs

specs="spec/gc_spec.lua spec/vec_spec.lua spec/shape_spec.lua spec/collide_spec.lua spec/errors_spec.lua spec/module_spec.lua spec/world_spec.lua spec/world_callbacks_spec.lua spec/world_move_spec.lua spec/safety_spec.lua spec/pivot_spec.lua spec/messages_spec.lua spec/segment_spec.lua spec/world_hardening_spec.lua spec/world_reentrancy_spec.lua spec/world_static_spec.lua spec/explain_spec.lua spec/debug_spec.lua spec/compound_spec.lua spec/hardening_spec.lua"
# explain_spec.lua's random pairs per pair of kinds (150 by default): fewer, at valgrind's pace
SAT_SPEC_PAIRS=20
export SAT_SPEC_PAIRS

for tool in valgrind lua5.4 busted; do
  if ! command -v $tool >/dev/null 2>&1; then
    echo "$tool is not installed (apt-get install valgrind lua5.4 lua-busted)"
    echo "valgrind: 0 passed, 1 failed"
    exit 1
  fi
done
if ! make --no-print-directory -s LUA=lua5.4 all test-helpers >build/logs/valgrind-build.log 2>&1; then
  cat build/logs/valgrind-build.log
  echo "valgrind: 0 passed, 1 failed"
  exit 1
fi

busted=$(command -v busted)
total_pass=0
total_fail=0
for spec in $specs; do
  name=$(basename "$spec" .lua)
  log=build/logs/valgrind-$name.log
  vlog=build/logs/valgrind-$name.vg
  LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua5.4/?.so;;' \
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --log-file="$vlog" lua5.4 "$busted" -o TAP "$spec" >"$log" 2>&1
  rc=$?
  tap_count "$log"
  awk '/^not ok /{n=3} n>0{print; n--}' "$log" | head -n 30
  if [ -s "$vlog" ] || [ "$rc" -eq 99 ]; then
    echo "$spec: valgrind reported errors:"
    head -n 40 "$vlog"
    fail=$((fail + 1))
  elif [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    tail -n 20 "$log"
    fail=1
  fi
  echo "$spec: $pass passed, $fail failed"
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
done

# ---- the ASan + UBSan build of the module -------------------------------------------------
# Under lua5.4 (the C functions) and under LuaJIT (with the JIT on: sat.test, sat.collide and
# collidesWith reach the core through the FFI, lua/sat/fast.lua), plus fast_spec.lua,
# bigpoly_spec.lua and shape_oom_spec.lua (too slow under valgrind).
asan=$(gcc -print-file-name=libasan.so 2>/dev/null)
ubsan=$(gcc -print-file-name=libubsan.so 2>/dev/null)
if [ -f "$asan" ] && [ -f "$ubsan" ]; then
  for lua in lua5.4 luajit; do
    if ! command -v $lua >/dev/null 2>&1; then
      echo "asan+ubsan ($lua): $lua is not installed"
      total_fail=$((total_fail + 1))
      continue
    fi
    log=build/logs/asan-$lua.log
    if make --no-print-directory -s LUA=$lua module-san test-helpers >"$log" 2>&1; then
      LD_PRELOAD="$asan $ubsan" ASAN_OPTIONS=detect_leaks=0 \
        LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/asan-$lua/?.so;;" \
        $lua "$busted" -o TAP $specs spec/fast_spec.lua spec/bigpoly_spec.lua \
        spec/shape_oom_spec.lua >"$log" 2>&1
      rc=$?
      tap_count "$log"
      awk '/^not ok /{n=3} n>0{print; n--}' "$log" | head -n 30
      if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
        grep -A20 -E 'ERROR: AddressSanitizer|runtime error' "$log" | head -n 40
        tail -n 5 "$log"
        fail=1
      fi
    else
      cat "$log"
      pass=0
      fail=1
    fi
    echo "asan+ubsan ($lua): $pass passed, $fail failed"
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
  done
else
  echo "asan+ubsan: skipped (gcc's libasan / libubsan not found)"
fi

echo "valgrind: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
