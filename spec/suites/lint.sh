#!/bin/sh
# luacheck (.luacheckrc) on every Lua file git knows of, tracked or not ignored: one test per
# file. Then the world's own rule: no `for ... in pairs` loop in lua/sat/world*.lua, the
# world's files (under LuaJIT such a loop, compiled, can hang for ever when a finalizer runs
# it: see clearTable in world_events.lua and docs/design.md, "Finalizers").
# Last line: `lint: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
mkdir -p build/logs
pass=0
fail=0
if command -v luacheck >/dev/null 2>&1; then
  for f in $(git ls-files --cached --others --exclude-standard '*.lua' | sort); do
    [ -f "$f" ] || continue
    if luacheck -q "$f" >build/logs/lint.log 2>&1; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); cat build/logs/lint.log
    fi
  done
else
  echo "lint: luacheck is not installed (apt-get install lua-check)"; fail=1
fi
world=$(ls lua/sat/world*.lua)
if grep -nE '^[^-]*\bfor\b.*\bin[[:space:]]+pairs[[:space:]]*\(' $world >build/logs/lint-pairs.log; then
  fail=$((fail + 1))
  echo "lint: the world walks a table with a pairs loop (use next in a while loop):"
  cat build/logs/lint-pairs.log
else
  pass=$((pass + 1))
fi
# The Lua layer takes its core from sat.backend (docs/design.md, "The core interface"): of
# lua/sat/**, only backend.lua, fast.lua (the native FFI path) and loader.lua name sat.core.
files=$(git ls-files --cached --others --exclude-standard 'lua/sat/*.lua' | sort \
  | grep -v -e '^lua/sat/backend\.lua$' -e '^lua/sat/fast\.lua$' -e '^lua/sat/loader\.lua$')
# shellcheck disable=SC2086 # the file names have no spaces
if [ -n "$files" ] && grep -nE "^[^-]*require[[:space:]]*\(?[[:space:]]*[\"']sat\.core[\"']" $files \
  >build/logs/lint-core.log; then
  fail=$((fail + 1))
  echo "lint: the Lua layer requires sat.core (take require(\"sat.backend\").core):"
  cat build/logs/lint-core.log
else
  pass=$((pass + 1))
fi
echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
