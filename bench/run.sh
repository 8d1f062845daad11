#!/bin/sh
# make bench: builds optimised (make bench-build: -O2, no sanitizers, in build/bench only) and
# runs every benchmark: the C core, the binding, the world and the level scenes (bench/level.lua)
# under lua5.4 and luajit; then the pure-Lua backend against the native one (rows *.pure.*)
# under luajit, lua5.4 and lua5.1.
#   JSON=1  print one JSON object per line ({"name", "value", "unit"}) instead of the table
# Builds and notes go to stderr. Exits 0 unless a build fails or a benchmark crashes:
# a missed speed target is reported, never fatal.
set -u
cd "$(dirname "$0")/.." || exit 1

B=build/bench
CC=${CC:-cc}
LUAS="lua5.4 luajit"
PURE_LUAS="luajit lua5.4 lua5.1"
JSON=${JSON:-0}
RESULTS=$B/results.jsonl
status=0

mkdir -p "$B"
: >"$RESULTS"

note() { echo "bench: $*" >&2; }

# CPU seconds: busy (all cores, everyone), and this shell's children (the benchmarks: `times`
# must run in this shell, not in a $(...) subshell). Their difference over the run is what
# other programs took from the machine meanwhile.
cpu_busy() { awk -v hz="$(getconf CLK_TCK)" '/^cpu /{ print ($2 + $3 + $4 + $7 + $8) / hz; exit }' /proc/stat; }
cpu_ours() { awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# Runs "$@" with its stdout appended to the results; a crash is remembered, not fatal.
run() {
  label=$1
  shift
  note "running $label"
  if ! timeout 300 "$@" >>"$RESULTS"; then
    note "FAILED: $label"
    status=1
  fi
}

# ---- build ------------------------------------------------------------------------------
note "building (make bench-build, CC=$CC)"
if ! make --no-print-directory -s CC="$CC" BENCH_LUAS="$LUAS lua5.1" bench-build >&2; then
  note "FAILED: make bench-build"
  exit 1
fi

# ---- run --------------------------------------------------------------------------------
started=$(uptime_s)
busy0=$(cpu_busy)
times >"$B/times.0"
run "C core" "$B/bench-core"
for lua in $LUAS; do
  for part in binding world level; do
    run "$part ($lua)" env LUA_PATH="lua/?.lua;lua/?/init.lua;bench/?.lua" \
      LUA_CPATH="$B/$lua/?.so" "$lua" "bench/$part.lua"
  done
done
# The pure-Lua backend against the native one (issue 26), rows <vm>.pure.* beside <vm>.cpu.*:
# the pair calls of both backends in one process (bench/pure.lua), and the scenes the targets
# name on each backend: the level frame (map100) and, under LuaJIT, the 10,000 moving shapes
# (n10000). Timed by CPU time (BENCH_CLOCK=cpu): a shared machine's waits for a core do not
# count. Fewer frames (BENCH_FRAMES), medians still. Lua 5.1 too (love.js runs it).
luarun() { # LABEL LUA [VAR=VALUE...] FILE [ARGS]: a Lua benchmark with the bench build's paths
  label=$1
  lua=$2
  shift 2
  run "$label" env LUA_PATH="lua/?.lua;lua/?/init.lua;bench/?.lua" LUA_CPATH="$B/$lua/?.so" "$@"
}
for lua in $PURE_LUAS; do
  luarun "pure pairs ($lua)" "$lua" BENCH_CLOCK=cpu "$lua" bench/pure.lua
  for be in native lua; do
    luarun "$be: level map100 ($lua)" "$lua" BENCH_CLOCK=cpu BENCH_FRAMES=10 SAT_BACKEND=$be "$lua" \
      bench/level.lua map100
    if [ "$lua" = luajit ]; then
      luarun "$be: world n10000 ($lua)" "$lua" BENCH_CLOCK=cpu BENCH_FRAMES=10 SAT_BACKEND=$be \
        "$lua" bench/world.lua n10000
    fi
  done
done
# What the pool pairs read, from a simulated cache (cachegrind: 32 KiB L1, 8 MiB last level,
# the desktop sizes whose misses the pool rows were written for; this machine's own caches
# may be far larger): per call, the difference between 3 passes and 1 over the same calls,
# enough calls (65,536) that a pass over the large pool reads more than the last level holds.
# c.pool<N>.<test|collide>.sim_instructions / .sim_l1_misses / .sim_ll_misses.
sim_counts() {
  valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=8388608,16,64 \
    --cachegrind-out-file=/dev/null "$B/bench-core" "$@" 2>&1 >/dev/null |
    awk '/ I   refs:/ { gsub(",", "", $4); i = $4 } / D1  misses:/ { gsub(",", "", $4); d = $4 }
         /LLd misses:/ { gsub(",", "", $4); l = $4 } END { if (i == "") exit 1; print i, d, l }'
}
if command -v valgrind >/dev/null 2>&1; then
  SIM_CALLS=65536
  for op in test collide; do
    for shapes in 64 65536; do
      note "simulating the caches: $op, pool of $shapes"
      if one=$(sim_counts $SIM_CALLS 1 "sim-$op" $shapes) &&
        three=$(sim_counts $SIM_CALLS 3 "sim-$op" $shapes); then
        echo "$one $three" | awk -v k="c.pool$shapes.$op" -v n=$((2 * SIM_CALLS)) '{
          printf "{\"name\": \"%s.sim_instructions\", \"value\": %.1f, \"unit\": \"per call\"}\n", k, ($4 - $1) / n
          printf "{\"name\": \"%s.sim_l1_misses\", \"value\": %.2f, \"unit\": \"per call\"}\n", k, ($5 - $2) / n
          printf "{\"name\": \"%s.sim_ll_misses\", \"value\": %.2f, \"unit\": \"per call\"}\n", k, ($6 - $3) / n
        }' >>"$RESULTS"
      else
        note "FAILED: cache simulation ($op, $shapes)"
        status=1
      fi
    done
  done
else
  note "valgrind is not installed: no simulated cache rows (apt-get install valgrind)"
fi
times >"$B/times.1"
busy1=$(cpu_busy)
elapsed=$(awk "BEGIN { printf \"%.1f\", $(uptime_s) - $started }")
others=$(awk "BEGIN { v = (($busy1 - $busy0) - ($(cpu_ours "$B/times.1") - $(cpu_ours "$B/times.0"))) / $elapsed;
                      printf \"%.2f\", v < 0 ? 0 : v }")
note "ran in $elapsed s; other programs used $others cores meanwhile"

# ---- report -----------------------------------------------------------------------------
machine() {
  echo "sat benchmarks, $(date -u +%Y-%m-%d)"
  echo "  cpu:      $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)," \
    "$(nproc) cores; L2 $(lscpu 2>/dev/null | sed -n 's/^L2 cache: *//p'), L3" \
    "$(lscpu 2>/dev/null | sed -n 's/^L3 cache: *//p'); kernel $(uname -r)"
  echo "  compiler: $($CC --version | head -1), -O2"
  echo "  lua:      $(lua5.4 -v 2>&1 | cut -d' ' -f1-2); $(luajit -v 2>&1 | cut -d' ' -f1-2)"
  echo "  other programs used $others of the $(nproc) cores on average during the ${elapsed} s run"
  if awk "BEGIN { exit !($others > 0.1) }"; then
    echo "  WARNING: the machine was shared; here that can double the times below."
  fi
}

# The same report in markdown, for docs/benchmarks.md and bench/results/ (build/bench/results.md).
{ echo '```'; machine; echo '```'; lua5.4 bench/report.lua "$RESULTS" --markdown; } >"$B/results.md"

if [ "$JSON" = 1 ]; then
  cat "$RESULTS"
else
  machine
  lua5.4 bench/report.lua "$RESULTS" || status=1
fi
exit $status
