#!/bin/sh
# The chaos build (make module-chaos: the module with ASan + UBSan in which every Lua API call
# of the binding that can run the collector first calls a hostile function, src/lua/lsat.h)
# driven by its fuzzer (spec/fuzz/chaos.lua: random sequences of every call of the binding,
# the hostile function turning, scaling, moving, cloning, writing fields of, colliding and
# explaining the shapes of the call in progress and adding to, removing from, stepping and
# querying their worlds). Under Lua 5.4, 5.1, 5.3 and LuaJIT (its compiler on: sat.collide and
# the other hot calls go through the FFI, lua/sat/fast.lua) and LuaJIT -joff (the C
# functions), gcc's sanitizer runtimes preloaded into the interpreter. A run passes when the
# fuzzer ends with "0 failures", the hostile function was called (the build is the chaos
# one) and no sanitizer reported anything.
#
# In `make test`: CHAOS_OPS operations (default 2500) from seed CHAOS_SEED (default 1) per
# interpreter. `make chaos CHAOS_SECONDS=600` runs each interpreter for a fifth of that
# (CPU seconds, from seed CHAOS_SEED, default the time).
# Prints per interpreter: operations, hostile calls, sanitizer reports. Then the lua_close
# cases (spec/scripts/atclose.lua) under Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT. Last line:
# `chaos: N passed, M failed`, one count per run and one per interpreter at close.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p build/logs
secs=${CHAOS_SECONDS:-}
ops=${CHAOS_OPS:-2500}
seed=${CHAOS_SEED:-}
pass=0
fail=0
reports=0
asan=$(gcc -print-file-name=libasan.so 2>/dev/null)
ubsan=$(gcc -print-file-name=libubsan.so 2>/dev/null)
if [ ! -f "$asan" ] || [ ! -f "$ubsan" ]; then
  echo "gcc's libasan / libubsan not found: the chaos build needs them"
  echo "chaos: 0 passed, 1 failed"
  exit 1
fi
if [ -n "$secs" ]; then
  seed=${seed:-$(date +%s)}
  n=0
  each=$((secs / 5))
else
  seed=${seed:-1}
  n=$ops
  each=""
fi

start=$(date +%s)
for config in lua5.4 lua5.1 lua5.3 luajit luajit-joff; do
  lua=${config%-*}
  flags=""
  [ "$config" = luajit-joff ] && flags="-joff"
  if ! command -v "$lua" >/dev/null 2>&1; then
    echo "$config: $lua is not installed"
    fail=$((fail + 1))
    continue
  fi
  blog=build/logs/chaos-build-$lua.log
  if ! make --no-print-directory -s LUA="$lua" module-chaos >"$blog" 2>&1; then
    cat "$blog"
    echo "$config: make module-chaos failed"
    fail=$((fail + 1))
    continue
  fi
  log=build/logs/chaos-$config.log
  # a run that stalls is stopped (the fuzzer checks its CPU time between operations)
  LD_PRELOAD="$asan $ubsan" ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
    LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/chaos-$lua/?.so;;" \
    timeout $((${each:-0} + 600)) "$lua" $flags spec/fuzz/chaos.lua "$seed" "$n" $each >"$log" 2>&1
  rc=$?
  found=$(grep -cE 'ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer' "$log")
  reports=$((reports + found))
  line=$(grep -E '^chaos: .* 0 failures$' "$log")
  hostile=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) hostile calls.*/\1/p')
  done_ops=$(printf '%s\n' "$line" | sed -n 's/.* seed [0-9]*, \([0-9]*\) operations.*/\1/p')
  if [ "$rc" -eq 0 ] && [ -n "$line" ] && [ "$found" -eq 0 ] && [ "${hostile:-0}" -gt 0 ]; then
    echo "$config: $done_ops operations, $hostile hostile calls, 0 sanitizer reports" \
      "($(printf '%s\n' "$line" | sed -n 's/.*(\([0-9]* acting\)).*/\1/p'))"
    pass=$((pass + 1))
  else
    echo "$config seed $seed: FAILED (exit $rc, $found sanitizer reports, ${hostile:-no} hostile calls; log $log):"
    grep -E -A12 'ERROR: AddressSanitizer|runtime error:' "$log" | head -n 30
    grep -E -A40 '^chaos: FAILURE' "$log" | head -n 40
    [ -z "$(grep -E 'ERROR: AddressSanitizer|runtime error:|^chaos: FAILURE' "$log")" ] && tail -n 20 "$log"
    echo "reproduce: LD_PRELOAD='$asan $ubsan' LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/chaos-$lua/?.so;;' $lua $flags spec/fuzz/chaos.lua $seed $n $each"
    fail=$((fail + 1))
  fi
done
echo "seed $seed, $(($(date +%s) - start)) s, sanitizer reports in all: $reports"

# The lua_close cases (issue 25, #7; spec/scripts/atclose.lua): each in a process of its own
# under every Lua, with the module as built to ship (make all: never unloaded); each exits 0
# and its finalizer, run by lua_close, printed "at close:". One count per interpreter.
for lua in lua5.1 lua5.2 lua5.3 lua5.4 luajit; do
  if ! command -v "$lua" >/dev/null 2>&1; then
    echo "at close, $lua: not installed"
    fail=$((fail + 1))
    continue
  fi
  blog=build/logs/chaos-build-release-$lua.log
  if ! make --no-print-directory -s LUA="$lua" all >"$blog" 2>&1; then
    cat "$blog"
    echo "at close, $lua: make all failed"
    fail=$((fail + 1))
    continue
  fi
  ok=0
  bad=""
  for c in $("$lua" spec/scripts/atclose.lua list); do
    out=build/logs/chaos-atclose-$lua-$c.log
    "$lua" spec/scripts/atclose.lua "$c" 'lua/?.lua;lua/?/init.lua' "build/$lua/?.so" >"$out" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^at close: ' "$out"; then
      ok=$((ok + 1))
    else
      bad="$bad $c (exit $rc: $(tr '\n' ' ' <"$out" | cut -c1-200))"
    fi
  done
  if [ -z "$bad" ] && [ "$ok" -gt 0 ]; then
    echo "at close, $lua: $ok cases, each exited 0 after its finalizer called sat"
    pass=$((pass + 1))
  else
    echo "at close, $lua: FAILED:$bad"
    fail=$((fail + 1))
  fi
done

echo "chaos: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
