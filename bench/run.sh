#!/bin/sh
# make bench: builds optimised (-O2, no sanitizers, in build/bench only) and runs every
# benchmark: the C core, the binding and the world under lua5.4 and luajit.
#   JSON=1  print one JSON object per line ({"name", "value", "unit"}) instead of the table
# Builds and notes go to stderr. Exits 0 unless a build fails or a benchmark crashes:
# a missed speed target is reported, never fatal.
set -u
cd "$(dirname "$0")/.."

B=build/bench
CC=${CC:-cc}
WARN="-std=c99 -Wall -Wextra -Werror -pedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith"
LUAS="lua5.4 luajit"
JSON=${JSON:-0}
RESULTS=$B/results.jsonl
status=0

mkdir -p "$B"
: >"$RESULTS"

note() { echo "bench: $*" >&2; }

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

lua_inc() { pkg-config --cflags "$1" 2>/dev/null || echo "-I/usr/include/$1"; }

# ---- build ------------------------------------------------------------------------------
core_src=$(ls src/*.c | grep -v '/lsat')
note "building (CC=$CC, -O2)"
if ! $CC $WARN -O2 -Isrc -o "$B/core" $core_src bench/core.c -lm >&2; then
  note "FAILED: building bench/core.c"
  exit 1
fi
for lua in $LUAS; do
  # -B: never reuse an object built with other flags.
  if ! make --no-print-directory -s -B BUILD="$B" OPT=-O2 CFLAGS= CC="$CC" LUA="$lua" all >&2 ||
     ! $CC $WARN -O2 -fPIC -shared $(lua_inc "$lua") -o "$B/$lua/bench_clock.so" bench/lclock.c >&2; then
    note "FAILED: building for $lua"
    exit 1
  fi
done

# ---- run --------------------------------------------------------------------------------
started=$(date +%s)
load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
run "C core" "$B/core"
for lua in $LUAS; do
  for part in binding world; do
    run "$part ($lua)" env LUA_PATH="lua/?.lua;lua/?/init.lua;bench/?.lua" \
      LUA_CPATH="$B/$lua/?.so" "$lua" "bench/$part.lua"
  done
done
load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
note "ran in $(($(date +%s) - started)) s"

# ---- report -----------------------------------------------------------------------------
if [ "$JSON" = 1 ]; then
  cat "$RESULTS"
else
  echo "sat benchmarks - $(date -u +%Y-%m-%d)"
  echo "  cpu:      $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)," \
    "$(nproc) cores; kernel $(uname -r)"
  echo "  compiler: $($CC --version | head -1), -O2"
  echo "  lua:      $(lua5.4 -v 2>&1 | cut -d' ' -f1-2); $(luajit -v 2>&1 | cut -d' ' -f1-2)"
  echo "  load:     $load_before before, $load_after after (1-minute average; on this 2-core" \
    "machine anything above ~0.3 means other work shared the cores and inflated the times)"
  lua5.4 bench/report.lua "$RESULTS" || status=1
fi
exit $status
