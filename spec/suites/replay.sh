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
#     unpacked by tools/aarch64-root.sh): native lua5.1, lua5.3, lua5.4, luajit -joff and
#     luajit with its JIT on (Debian's 2.1.0-beta3 fuses multiply-adds in compiled traces:
#     sat.pure.jit turns the compiler off for the files whose arithmetic that would change;
#     spec/replay/fma.lua checks that it knows when), pure backend lua5.4 and luajit (JIT on)
#   the levels (spec/replay/level.lua: sat.level's grid and Tiled maps built again and again,
#     so that their placement arithmetic gets compiled): native luajit (x86-64), aarch64 LuaJIT
#     with its JIT on, native and pure, the same digests as native lua5.4
#   the web: the scene in a love.js build (spec/replay/love/main.lua, packaged and run in
#     headless Chromium by spec/web/run.sh, the web suite's harness): the pure backend on
#     love.js's Lua 5.1 in WebAssembly
# REPLAY_FRAMES frames (default 2000: about 1 s a run natively, 5 to 35 s under qemu, 15 s on
# the web). The parts that cannot run here (no wine, no qemu or arm64 Luas, no node, npm or
# chromium, no pure backend) say so in one line (the web part fails instead when CI=true, as
# the web suite does). Last line: `replay: N passed, M failed`.
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
# the levels (spec/replay/level.lua: grid and Tiled maps built again and again, a digest per
# build): reference native lua5.4; levelcheck NAME FILE compares FILE with it
levelref=build/replay/level-ref.txt
LUA_PATH=$paths LUA_CPATH="build/lua5.4/?.so;;" lua5.4 spec/replay/level.lua >"$levelref" 2>&1
levelcheck() {
  if [ "$(wc -l <"$levelref")" -ge 2 ] && cmp -s "$levelref" "$2"; then
    ok "$1: the same $(wc -l <"$2" | tr -d ' ') level digests"
  else
    bad "$1: not the reference's level digests" "$(diff "$levelref" "$2" | head -n 6)"
  fi
}
LUA_PATH=$paths LUA_CPATH="build/luajit/?.so;;" luajit spec/replay/level.lua \
  >build/replay/level-luajit.txt 2>&1
levelcheck "levels, native-gcc-luajit" build/replay/level-luajit.txt
# this LuaJIT (x64: its compiler rounds a * b and adds; sat.pure.jit must say it does not fuse)
if line=$(LUA_PATH=$paths luajit spec/replay/fma.lua 2>&1); then
  ok "$line"
else
  bad "LuaJIT: sat.pure.jit knows whether its compiler fuses multiply-adds" "$line"
fi

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
      if [ $l = luajit ]; then
        line=$(LUA_PATH=$paths timeout -k 10 120 wine "$exe" spec/replay/fma.lua </dev/null 2>/dev/null | tr -d '\r')
        case $line in
          *": agree") ok "wine-x64 $line" ;;
          *) bad "wine-x64 LuaJIT: sat.pure.jit knows whether its compiler fuses multiply-adds" "$line" ;;
        esac
      fi
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
  # LuaJIT with its JIT on: does sat.pure.jit know that it fuses multiply-adds? Then the scene
  if line=$(LUA_PATH=$paths qemu "$root/usr/bin/luajit" spec/replay/fma.lua 2>&1); then
    ok "aarch64 $line"
  else
    bad "aarch64 LuaJIT: sat.pure.jit knows whether its compiler fuses multiply-adds" "$line"
  fi
  out=build/replay/aarch64-luajit-jit.txt
  LUA_PATH=$paths LUA_CPATH="build/aarch64/luajit/?.so;;" qemu "$root/usr/bin/luajit" \
    spec/replay/scene.lua "$frames" >"$out" 2>build/logs/replay-err.log ||
    cat build/logs/replay-err.log >>"$out"
  check "aarch64-native-luajit-jit-on" "$out"
  LUA_PATH=$paths LUA_CPATH="build/aarch64/luajit/?.so;;" qemu "$root/usr/bin/luajit" \
    spec/replay/level.lua >build/replay/level-aarch64-luajit.txt 2>&1
  levelcheck "levels, aarch64-native-luajit-jit-on" build/replay/level-aarch64-luajit.txt
  # the pure backend: PUC Lua 5.4, and LuaJIT with its JIT on (every pure file interpreted
  # there, by sat.pure.jit)
  if [ -f lua/sat/backend.lua ]; then
    for l in lua5.4 luajit; do
      out=build/replay/aarch64-pure-$l.txt
      SAT_BACKEND=lua LUA_PATH=$paths LUA_CPATH=";;" qemu "$root/usr/bin/$l" \
        spec/replay/scene.lua "$frames" >"$out" 2>build/logs/replay-err.log ||
        cat build/logs/replay-err.log >>"$out"
      case $l in luajit) name=aarch64-pure-luajit-jit-on ;; *) name=aarch64-pure-$l ;; esac
      check "$name" "$out"
    done
    SAT_BACKEND=lua LUA_PATH=$paths LUA_CPATH=";;" qemu "$root/usr/bin/luajit" \
      spec/replay/level.lua >build/replay/level-aarch64-pure-luajit.txt 2>&1
    levelcheck "levels, aarch64-pure-luajit-jit-on" build/replay/level-aarch64-pure-luajit.txt
  fi
fi

# the web: the scene as a LÖVE game, packaged by love.js and run in headless Chromium by the
# web suite's harness (spec/web/run.sh: npm packages in build/web/npm, installed on first use)
game=build/replay/web
rm -rf "$game"
mkdir -p "$game"
cp spec/replay/love/main.lua spec/web/conf.lua spec/replay/scene.lua "$game/"
cp -r lua/sat "$game/sat"
echo "return $frames" >"$game/frames.lua"
sh spec/web/run.sh "$game" DONE 300 >build/replay/web-console.txt 2>build/logs/replay-web.log
rc=$?
if [ "$rc" -eq 2 ]; then
  echo "note: no web run: $(tail -n 1 build/logs/replay-web.log)"
  if [ "${CI:-}" = true ]; then
    bad "the web run can run here (CI=true)" "$(tail -n 1 build/logs/replay-web.log)"
  fi
else
  # the scene's lines: between "backend" and "DONE" (the rest is the page's)
  sed -n '/^backend /,/^DONE/p' build/replay/web-console.txt >build/replay/web-all.txt
  first=$(head -n 1 build/replay/web-all.txt)
  out=build/replay/web.txt
  sed '1d;$d' build/replay/web-all.txt | grep -v '^ERROR ' >"$out"
  grep '^ERROR \|^PAGEERROR ' build/replay/web-console.txt >>"$out"
  [ "$rc" -eq 0 ] || tail -n 3 build/logs/replay-web.log >>"$out"
  case $first in
    "backend lua "*)
      ok "the web build chose the pure backend by itself (${first#backend lua })"
      check "web-pure-love.js-$(echo "${first#backend lua }" | tr -d ' ' | tr 'A-Z' 'a-z')" "$out" ;;
    *) bad "the web build ran the scene on the pure backend" "$(tail -n 5 build/replay/web-console.txt)" ;;
  esac
fi

echo "digests at frame $frames (platform, world digest, game log):"
sed 's/^/  /' "$table"
echo "replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
