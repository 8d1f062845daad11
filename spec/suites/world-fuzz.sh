#!/bin/sh
# The world's re-entrancy fuzzer (spec/fuzz/world_reentrancy.lua): random world operations
# from handlers, filters and re-arming finalizers, checked against a brute force after each
# operation. Under lua5.4 and luajit, each with the module `make LUA=<lua>` builds and with the
# ASan + UBSan build (make module-san; gcc's runtimes preloaded into the interpreter, as the
# valgrind suite does). A mismatch, a crash or a sanitizer report fails the run.
#
# In `make test`: seeds 1 to WORLD_FUZZ_SEEDS (default 4), WORLD_FUZZ_OPS operations each
# (default 4000): seconds in all. `make soak` sets SOAK_SECONDS: then each (lua, build) runs
# from one seed (SOAK_SEED, default the time) for SOAK_SECONDS / 8 seconds (4 interpreter
# configurations, 2 builds).
# Last line: `world-fuzz: N passed, M failed`, one count per run.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/limit.sh
mkdir -p build/logs
name=world-fuzz
seeds=${WORLD_FUZZ_SEEDS:-4}
ops=${WORLD_FUZZ_OPS:-4000}
soak=${SOAK_SECONDS:-}
pass=0
fail=0
asan=$(gcc -print-file-name=libasan.so 2>/dev/null)
ubsan=$(gcc -print-file-name=libubsan.so 2>/dev/null)
total_ops=0

# run <lua> <cpath dir> <label> <seed> <ops> [seconds]: one run, counted ($flags: the
# interpreter's options)
run() {
  lua=$1 dir=$2 label=$3 seed=$4 n=$5 secs=${6:-}
  # a run that stalls (the fuzzer's CPU limit is checked between operations) fails by
  # exit 124, with the log so far: stopped by lib/limit.sh after that much processor time,
  # or 120 rounds without any; never by a loaded machine's slowness
  limit=$(( ${secs:-0} + 300 ))
  log=build/logs/world-fuzz-$lua$flags$tag-$label-$seed.log
  if [ "$label" = asan ]; then
    limited "$limit" 120 env LD_PRELOAD="$asan $ubsan" \
      ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
      UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
      LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="$dir/?.so;;" \
      "$lua" $flags spec/fuzz/world_reentrancy.lua "$seed" "$n" $secs >"$log" 2>&1
  else
    limited "$limit" 120 env LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="$dir/?.so;;" \
      "$lua" $flags spec/fuzz/world_reentrancy.lua "$seed" "$n" $secs >"$log" 2>&1
  fi
  rc=$?
  [ "$rc" -eq 124 ] && echo "(stopped by the stall guard: $limit s of processor time, or blocked)" >>"$log"
  if [ "$rc" -eq 0 ] && grep -q ', 0 mismatches$' "$log" &&
     ! grep -qE 'ERROR: AddressSanitizer|runtime error:' "$log"; then
    echo "$lua$flags$tag ($label): $(grep ', 0 mismatches$' "$log")"
    k=$(sed -n 's/.*seed [0-9]*, \([0-9]*\) operations.*/\1/p' "$log")
    total_ops=$((total_ops + ${k:-0}))
    pass=$((pass + 1))
  else
    echo "$lua$flags$tag ($label) seed $seed: FAILED (exit $rc; log $log):"
    head -n 60 "$log"
    echo "reproduce: ${FUZZ_JIT_GC:+FUZZ_JIT_GC=1 }LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='$dir/?.so;;' $lua $flags spec/fuzz/world_reentrancy.lua $seed $n"
    fail=$((fail + 1))
  fi
}

start=$(date +%s)
# LuaJIT three times: with its compiler (finalizers then leave membership alone, see the
# fuzzer), without it (-joff: the full mix from finalizers too, checked against the model),
# and with its compiler and meddling finalizers (FUZZ_JIT_GC=1, "-jitgc": they then run
# between any two statements; the world must stay whole, checked against itself)
for config in lua5.4 luajit luajit-joff luajit-jitgc; do
  lua=${config%-*}
  flags="" tag=""
  unset FUZZ_JIT_GC
  [ "$config" = luajit-joff ] && flags=" -joff"
  if [ "$config" = luajit-jitgc ]; then
    tag="-jitgc"
    export FUZZ_JIT_GC=1
  fi
  if ! command -v "$lua" >/dev/null 2>&1; then
    echo "$lua: not installed (required)"
    fail=$((fail + 1))
    continue
  fi
  builds="plain"
  if make --no-print-directory -s LUA="$lua" all >build/logs/world-fuzz-build-$lua.log 2>&1; then :; else
    cat build/logs/world-fuzz-build-$lua.log
    echo "$lua: build failed"
    fail=$((fail + 1))
    continue
  fi
  if [ -f "$asan" ] && [ -f "$ubsan" ]; then
    if make --no-print-directory -s LUA="$lua" module-san >>build/logs/world-fuzz-build-$lua.log 2>&1; then
      builds="plain asan"
    else
      cat build/logs/world-fuzz-build-$lua.log
      echo "$lua: the ASan + UBSan build failed"
      fail=$((fail + 1))
    fi
  else
    echo "$lua: gcc's libasan / libubsan not found: the sanitizer runs are skipped"
  fi
  for label in $builds; do
    dir=build/$lua
    [ "$label" = asan ] && dir=build/asan-$lua
    if [ -n "$soak" ]; then
      seed=${SOAK_SEED:-$(date +%s)}
      run "$lua" "$dir" "$label" "$seed" 0 $((soak / 8))
    else
      s=1
      while [ "$s" -le "$seeds" ]; do
        run "$lua" "$dir" "$label" "$s" "$ops"
        s=$((s + 1))
      done
    fi
  done
done
echo "$total_ops operations in $(($(date +%s) - start)) s, sanitizer reports: $(cat build/logs/world-fuzz-*-asan-*.log 2>/dev/null | grep -cE 'ERROR: AddressSanitizer|runtime error:')"
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
