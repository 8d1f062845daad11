#!/bin/sh
# Instructions per call of the pure core's pair calls and the native module's, counted by
# valgrind (cachegrind, no cache simulation): the same on a loaded machine as on a quiet one,
# unlike times. For each case: (count of 1 + 2k rounds) - (count of 1 round), over 2k * 1024
# calls. Usage: sh bench/pure_core_sim.sh <lua> [scene ...]   (scenes: poly8 box circle_poly8
# capsule_poly8 capsule_capsule segment_poly8 circle_circle; default poly8)
set -u
cd "$(dirname "$0")/.." || exit 1
lua=${1:-lua5.4}
shift
scenes=${*:-poly8}
K=2
count() { # scene case rounds -> instructions
  PURE_BENCH_ONLY="^$1\$" PURE_BENCH_CASE="$1/$2" PURE_BENCH_ROUNDS=$3 \
    LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/$lua/?.so;;" \
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null $lua bench/pure_core.lua 2>&1 |
    awk '/ I *refs:/ { gsub(",", "", $4); print $4 }'
}
for scene in $scenes; do
  for c in "native sat.test" "native collidesWith" "pure sat_test" "pure sat_test, bound" \
    "pure sat_collide" "pure sat_collide, bound"; do
    one=$(count "$scene" "$c" 1)
    more=$(count "$scene" "$c" $((1 + 2 * K)))
    echo "$lua $scene | $c | $(( (more - one) / (2 * K * 1024) )) instructions per call"
  done
done
