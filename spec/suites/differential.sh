#!/bin/sh
# The differential fuzzer (spec/fuzz/differential.lua): the native module and the pure-Lua
# backend in one process, the same random scripts, every result compared bit for bit, every
# error word for word, every event in order. Under lua5.4, luajit, luajit -joff (required),
# lua5.1, lua5.2, lua5.3 (when installed), each with the module `make LUA=<lua>` builds.
#
# In `make test`: seeds 1 to DIFF_SEEDS (default 3), DIFF_OPS operations each (default 2500),
# the same on every run. `make fuzz` sets DIFF_SECONDS: then each interpreter runs from random
# seeds (a new one every 30 s) for DIFF_SECONDS / 6 seconds; a failure prints its seed and
# the command that replays it.
# Prints per interpreter the operations, the calls compared and the mismatches (0); a
# mismatch prints both sides' records. Last line: `differential: N passed, M failed`, one count per run.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p build/logs
name=differential
seeds=${DIFF_SEEDS:-3}
ops=${DIFF_OPS:-2500}
long=${DIFF_SECONDS:-}
pass=0
fail=0
# Compounds are in (DIFF_COMPOUND=0 leaves them out).
DIFF_COMPOUND=${DIFF_COMPOUND:-1}
export DIFF_COMPOUND

# run <lua> <flags> <seed> <ops> [seconds]: one run, counted; adds to the interpreter's sums
run() {
  lua=$1 flags=$2 seed=$3 n=$4 secs=${5:-}
  log=build/logs/differential-$lua$flags-$seed.log
  limit=$(( ${secs:-0} + 300 ))
  # shellcheck disable=SC2086 # $flags is empty or one word
  LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/$lua/?.so;;" \
    timeout "$limit" "$lua" $flags spec/fuzz/differential.lua "$seed" "$n" $secs >"$log" 2>&1
  rc=$?
  [ "$rc" -eq 124 ] && echo "(stopped after $limit s: a stall)" >>"$log"
  line=$(grep '^differential: seed .*, 0 mismatches' "$log")
  if [ "$rc" -eq 0 ] && [ -n "$line" ]; then
    k=$(echo "$line" | sed -n 's/.*, \([0-9]*\) operations, \([0-9]*\) calls compared.*/\1 \2/p')
    sum_ops=$((sum_ops + ${k% *}))
    sum_calls=$((sum_calls + ${k#* }))
    pass=$((pass + 1))
  else
    echo "$lua $flags seed $seed: FAILED (exit $rc; log $log):"
    head -c 6000 "$log"
    echo
    echo "replay: LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/$lua/?.so;;' $lua $flags spec/fuzz/differential.lua $seed $n $secs"
    fail=$((fail + 1))
    mismatches=$((mismatches + 1))
  fi
}

start=$(date +%s)
note=""
for config in lua5.4 luajit luajit-joff lua5.1 lua5.2 lua5.3; do
  lua=${config%-joff}
  flags=""
  [ "$config" = luajit-joff ] && flags="-joff"
  if ! command -v "$lua" >/dev/null 2>&1; then
    case $lua in
      lua5.4|luajit) echo "$config: not installed (required)"; fail=$((fail + 1)) ;;
      *) echo "$config: not installed, skipped" ;;
    esac
    continue
  fi
  if ! make --no-print-directory -s LUA="$lua" all >"build/logs/differential-build-$lua.log" 2>&1; then
    cat "build/logs/differential-build-$lua.log"
    echo "$config: build failed"
    fail=$((fail + 1))
    continue
  fi
  sum_ops=0 sum_calls=0 mismatches=0 runs=0
  if [ -n "$long" ]; then
    share=$((long / 6))
    [ "$share" -lt 1 ] && share=1
    t0=$(date +%s)
    while [ $(( $(date +%s) - t0 )) -lt "$share" ]; do
      left=$(( share - ($(date +%s) - t0) ))
      [ "$left" -gt 30 ] && left=30
      seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
      seed=$((seed % 2000000000 + 1))
      run "$lua" "$flags" "$seed" 0 "$left"
      runs=$((runs + 1))
    done
  else
    s=1
    while [ "$s" -le "$seeds" ]; do
      run "$lua" "$flags" "$s" "$ops"
      runs=$((runs + 1))
      s=$((s + 1))
    done
  fi
  echo "$config: $runs runs, $sum_ops operations, $sum_calls calls compared, $mismatches mismatches"
  note=$(grep -ho '(no compounds[^)]*)' "build/logs/differential-$lua$flags"-*.log 2>/dev/null | head -n 1)
done
[ -n "$note" ] && echo "note: $note"

# The pure backend under a debug hook running hostile calls inside any pure call
# (spec/fuzz/pure_chaos.lua): read-only ones (queries, collide, explain, sweep:
# PURE_CHAOS_READONLY=1), then the full drive (also turning, scaling, moving, cloning shapes,
# writing their fields, adding, removing, stepping, moving in worlds, mid-call): seeds 1-3,
# 300 operations each, under lua5.4, lua5.1 and luajit -joff (where the hook runs between any
# two instructions), the full drive checking every shape's derived numbers after each
# operation (PURE_CHAOS_DERIVED=1). Longer runs: make pure-chaos (seeds 1-20 x 2,000
# operations: all but seed 9 pass on lua5.4; 1-10 x 300 pass on lua5.1 and luajit -joff).
for mode in read-only full; do
  for config in lua5.4 lua5.1 luajit-joff; do
    lua=${config%-joff}
    flags=""
    [ "$config" = luajit-joff ] && flags="-joff"
    command -v "$lua" >/dev/null 2>&1 || continue
    ro=1 derived=""
    [ "$mode" = full ] && ro="" derived=1
    for seed in 1 2 3; do
      log=build/logs/pure-chaos-$mode-$config-$seed.log
      # shellcheck disable=SC2086 # $flags is empty or one word
      PURE_CHAOS_READONLY=$ro PURE_CHAOS_DERIVED=$derived LUA_PATH='lua/?.lua;lua/?/init.lua;;' \
        LUA_CPATH="build/$lua/?.so;;" \
        timeout 300 "$lua" $flags spec/fuzz/pure_chaos.lua "$seed" 300 >"$log" 2>&1
      rc=$?
      if [ "$rc" -eq 0 ] && grep -q '^pure-chaos: seed .*, 0 failures' "$log"; then
        pass=$((pass + 1))
      else
        echo "pure-chaos ($mode) $config seed $seed: FAILED (exit $rc; log $log):"
        tail -n 20 "$log"
        fail=$((fail + 1))
      fi
    done
    calls=$(grep -ho '[0-9]* hostile calls' build/logs/pure-chaos-"$mode-$config"-*.log |
      awk '{n += $1} END {print n + 0}')
    echo "pure-chaos ($mode) $config: 3 seeds x 300 operations, $calls hostile calls"
  done
done

echo "in $(($(date +%s) - start)) s"
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
