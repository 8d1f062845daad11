#!/bin/sh
# The replay test (issue 29, point 4): spec/replay/scene.lua (every kind, rotations and scales,
# compounds, world:move with every response, handlers that add and remove, queries, a rollback
# every 50 frames replayed and checked) prints its digest every 100 frames; every platform and
# backend below must print the same lines as the first (native, gcc, Lua 5.4):
#   native, gcc:   lua5.1, lua5.3, lua5.4, luajit, luajit -joff
#   native, clang: lua5.4, luajit
#   pure backend (SAT_BACKEND=lua), where this checkout has it: lua5.1/5.2/5.3/5.4/luajit
#   Windows x64 under wine (make windows): luajit, lua5.4
#   aarch64 Linux under qemu-user (module by gcc-aarch64-linux-gnu, Debian's arm64 Luas
#     unpacked by tools/aarch64-root.sh): lua5.1, lua5.3, lua5.4, luajit -joff (Debian's arm64
#     LuaJIT 2.1.0-beta3 fuses multiply-adds in its JIT and has no -O-fma flag: run with the JIT
#     on, it is reported, not counted)
# REPLAY_FRAMES frames (default 2000: about 1 s a run natively, 16 s under qemu).
# The parts that cannot run here (no wine, no qemu or arm64 Luas, no pure backend) say so in
# one line. Last line: `replay: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/report.sh
frames=${REPLAY_FRAMES:-2000}
mkdir -p build/logs build/replay
paths='lua/?.lua;lua/?/init.lua;spec/replay/?.lua;;'
table=build/replay/table.txt
: >"$table"

ref=build/replay/ref.txt
# check NAME FILE: FILE's lines against the reference
check() {
  echo "$1 $(tail -n 1 "$2" | awk '{ print $2, $3 }')" >>"$table"
  if [ "$(wc -l <"$2")" -ge 1 ] && cmp -s "$ref" "$2"; then
    ok "$1: the same $(wc -l <"$2" | tr -d ' ') digests"
  else
    bad "$1: not the reference's digests" "$(diff "$ref" "$2" | head -n 6)"
  fi
}

# native: NAME BUILD-DIR LUA [LUA-ARGS]
native() {
  name=$1 dir=$2 lua=$3
  shift 3
  out=build/replay/$(echo "$name" | tr ' /' '__').txt
  LUA_PATH=$paths LUA_CPATH="$dir/?.so;;" "$lua" "$@" spec/replay/scene.lua "$frames" \
    >"$out" 2>build/logs/replay-err.log || cat build/logs/replay-err.log >>"$out"
  check "$name" "$out"
}

for l in lua5.4 lua5.1 lua5.3 luajit; do
  if ! make --no-print-directory LUA=$l all >build/logs/replay-build.log 2>&1; then
    tail -n 20 build/logs/replay-build.log
    bad "make LUA=$l all"
  fi
done
LUA_PATH=$paths LUA_CPATH="build/lua5.4/?.so;;" lua5.4 spec/replay/scene.lua "$frames" >"$ref" ||
  bad "the scene under lua5.4 (native, gcc)"
if [ "$(wc -l <"$ref")" -eq $((frames / 100)) ]; then
  ok "the reference: native, gcc, lua5.4: $(wc -l <"$ref" | tr -d ' ') digests, every rollback replayed the same"
else
  bad "the reference printed $(wc -l <"$ref") lines, not $((frames / 100))"
fi
echo "native-gcc-lua5.4 $(tail -n 1 "$ref" | awk '{ print $2, $3 }')" >>"$table"
for l in lua5.1 lua5.3 luajit; do
  native "native-gcc-$l" "build/$l" "$l"
done
native "native-gcc-luajit-joff" build/luajit luajit -joff

if command -v clang >/dev/null 2>&1; then
  for l in lua5.4 luajit; do
    if make --no-print-directory CC=clang BUILD=build/clang LUA=$l all >build/logs/replay-build.log 2>&1; then
      native "native-clang-$l" "build/clang/$l" "$l"
    else
      tail -n 20 build/logs/replay-build.log
      bad "make CC=clang LUA=$l all"
    fi
  done
else
  echo "note: clang is not installed: no clang build"
fi

# the pure backend, where this checkout has it: the scene, and the convex scene (compounds,
# concave outlines and chains made as boxes) against the native one of the same run
if [ -f lua/sat/backend.lua ]; then
  LUA_PATH=$paths LUA_CPATH="build/lua5.4/?.so;;" lua5.4 spec/replay/scene.lua "$frames" convex \
    >build/replay/ref-convex.txt
  if SAT_BACKEND=lua LUA_PATH=$paths lua5.4 -e \
    'local sat = require("sat") sat.compound({ sat.circle(0, 0, 1) })' >/dev/null 2>&1; then
    whole=1
  else
    whole=0
    echo "note: the pure backend here has no compounds: its runs are the convex scene's only"
  fi
  for l in lua5.1 lua5.2 lua5.3 lua5.4 luajit; do
    command -v $l >/dev/null 2>&1 || continue
    for scene in whole convex; do
      [ $scene = whole ] && [ $whole = 0 ] && continue
      out=build/replay/pure-$scene-$l.txt
      arg=; [ $scene = convex ] && arg=convex
      SAT_BACKEND=lua LUA_PATH=$paths LUA_CPATH=";;" $l spec/replay/scene.lua "$frames" $arg \
        >"$out" 2>build/logs/replay-err.log || cat build/logs/replay-err.log >>"$out"
      if [ $scene = whole ]; then
        check "pure-$l" "$out"
      elif cmp -s build/replay/ref-convex.txt "$out"; then
        ok "pure-$l, convex scene: the native digests"
        echo "pure-$l(convex) $(tail -n 1 "$out" | awk '{ print $2, $3 }')" >>"$table"
      else
        bad "pure-$l, convex scene: not the native digests" "$(diff build/replay/ref-convex.txt "$out" | head -n 6)"
      fi
    done
  done
else
  echo "note: this checkout has no pure-Lua backend (lua/sat/backend.lua): no pure runs"
fi

# Windows x64 under wine
if command -v wine >/dev/null 2>&1 && command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
  if make --no-print-directory windows windows-luas >build/logs/replay-windows.log 2>&1; then
    WINEPREFIX=$(pwd)/build/wine WINEDEBUG=-all
    export WINEPREFIX WINEDEBUG
    trap 'wineserver -k 2>/dev/null' EXIT INT TERM
    for l in luajit lua5.4; do
      case $l in luajit) exe=build/windows-x64/vm/luajit/luajit.exe ;; *) exe=build/windows-x64/vm/lua5.4/lua.exe ;; esac
      out=build/replay/wine-$l.txt
      LUA_PATH=$paths LUA_CPATH="build/windows-x64/$l/?.dll;;" timeout -k 10 600 wine "$exe" \
        spec/replay/scene.lua "$frames" </dev/null 2>build/logs/replay-err.log | tr -d '\r' >"$out"
      [ -s "$out" ] || cat build/logs/replay-err.log >>"$out"
      check "wine-x64-$l" "$out"
    done
  else
    tail -n 20 build/logs/replay-windows.log
    bad "make windows windows-luas"
  fi
else
  echo "note: wine or mingw-w64 is not installed (sh tools/deps.sh windows): no Windows runs"
fi

# aarch64 Linux under qemu-user
root=build/aarch64/root
if ! command -v qemu-aarch64 >/dev/null 2>&1 || ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
  echo "note: qemu-user or gcc-aarch64-linux-gnu is not installed (sh tools/deps.sh test): no aarch64 runs"
elif ! sh tools/aarch64-root.sh >build/logs/replay-aarch64-root.log 2>&1; then
  echo "note: Debian's arm64 Lua packages cannot be fetched here (dpkg --add-architecture arm64, as tools/deps.sh test does): no aarch64 runs"
else
  qemu() { qemu-aarch64 -L /usr/aarch64-linux-gnu \
    -E LD_LIBRARY_PATH="$root/usr/lib/aarch64-linux-gnu:$root/lib/aarch64-linux-gnu" "$@"; }
  for l in lua5.4 lua5.1 lua5.3 luajit; do
    case $l in luajit) inc= ;; *) inc="-I$(pwd)/$root/usr/include/aarch64-linux-gnu" ;; esac
    if ! make --no-print-directory CC=aarch64-linux-gnu-gcc BUILD=build/aarch64 LUA=$l \
      CFLAGS="$inc" all >build/logs/replay-build.log 2>&1; then
      tail -n 20 build/logs/replay-build.log
      bad "aarch64: make LUA=$l all"
      continue
    fi
    out=build/replay/aarch64-$l.txt
    case $l in luajit) args=-joff ;; *) args= ;; esac
    LUA_PATH=$paths LUA_CPATH="build/aarch64/$l/?.so;;" qemu "$root/usr/bin/$l" $args \
      spec/replay/scene.lua "$frames" >"$out" 2>build/logs/replay-err.log ||
      cat build/logs/replay-err.log >>"$out"
    check "aarch64-native-$l${args:+ $args}" "$out"
  done
  # LuaJIT with its JIT on: reported, not counted (see the top)
  out=build/replay/aarch64-luajit-jit.txt
  LUA_PATH=$paths LUA_CPATH="build/aarch64/luajit/?.so;;" qemu "$root/usr/bin/luajit" \
    spec/replay/scene.lua "$frames" >"$out" 2>&1
  if cmp -s "$ref" "$out"; then
    echo "note: aarch64 LuaJIT with the JIT on gives the same digests"
  else
    echo "note: aarch64 LuaJIT $(qemu "$root/usr/bin/luajit" -v | awk '{ print $2 }') with the JIT on differs (it fuses multiply-adds; no -O-fma flag): $(head -n 1 "$out")"
  fi
fi

echo "note: no web run (the love.js harness, spec/web, is not on this branch yet)"
echo "digests at frame $frames (platform, world digest, game log):"
sed 's/^/  /' "$table"
echo "replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
