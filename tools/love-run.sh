#!/bin/sh
# Runs a LÖVE game from this checkout with sat available to it (what `make love-demo` calls).
#   sh tools/love-run.sh <game dir> [arguments for the game]
# LÖVE's require only searches the game folder and package.path/cpath, so the game learns
# where the checkout is from SAT_ROOT: examples/love/main.lua then adds <root>/lua to
# package.path and <root>/build/luajit to package.cpath (LÖVE 11 runs LuaJIT, so the module
# must be the one `make LUA=luajit` builds). A shipped game bundles sat instead: docs/love.md, "Shipping sat with a game".
# Without a display (no DISPLAY or WAYLAND_DISPLAY) it runs under xvfb-run when installed:
# useful with SAT_DEMO_AUTO=1, which plays a script and quits.
set -eu

if [ $# -lt 1 ]; then
  echo "usage: sh tools/love-run.sh <game dir> [game arguments]" >&2
  exit 2
fi
game=$1
shift
case $game in
  /*) ;;
  *) game=$(pwd)/$game ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$game/main.lua" ]; then
  echo "love-run: $game has no main.lua" >&2
  exit 2
fi
if [ ! -f "$root/build/luajit/sat/core.so" ]; then
  echo "love-run: $root/build/luajit/sat/core.so is missing: run 'make LUA=luajit' first" >&2
  exit 1
fi
if ! command -v love >/dev/null 2>&1; then
  echo "love-run: LÖVE 11 is not installed (apt-get install love, or https://love2d.org)" >&2
  exit 1
fi

SAT_ROOT=$root
export SAT_ROOT
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  if command -v xvfb-run >/dev/null 2>&1; then
    echo "love-run: no display, running under xvfb-run (nothing will be seen)" >&2
    exec xvfb-run -a love "$game" "$@"
  fi
  echo "love-run: no display (DISPLAY is unset) and no xvfb-run" >&2
  exit 1
fi
exec love "$game" "$@"
