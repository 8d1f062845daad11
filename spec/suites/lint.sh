#!/bin/sh
# luacheck (.luacheckrc) on every Lua file git knows of, tracked or not ignored: one test per
# file. Last line: `lint: N passed, M failed`.
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
echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
