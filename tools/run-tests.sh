#!/bin/sh
# Runs every test suite and ends with the one line CI reads: "tests: N passed, M failed".
#   built in: build (warning-free C with gcc and clang, per Lua), lint (luacheck per file)
#   then each tools/suite-*.sh, whose last line must be "<name>: N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 1
. tools/exports.sh
mkdir -p build/logs
total_pass=0
total_fail=0
summary=""

record() { # name passed failed
  total_pass=$((total_pass + $2))
  total_fail=$((total_fail + $3))
  summary="$summary
  $1: $2 passed, $3 failed"
}

# ---- build: every supported compiler and Lua, warnings are errors -------------------------
pass=0; fail=0
for cc in gcc clang; do
  command -v "$cc" >/dev/null 2>&1 || continue
  for lua in lua5.4 luajit lua5.1 lua5.3; do
    command -v "$lua" >/dev/null 2>&1 || continue
    out="build/check-$cc"
    if make --no-print-directory -s CC="$cc" LUA="$lua" BUILD="$out" all >build/logs/build-$cc-$lua.log 2>&1; then
      pass=$((pass + 1))
      if entry_only "$out/$lua/sat/core.so"; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1)); echo "build: CC=$cc LUA=$lua exports more than luaopen_sat_core: $exported"
      fi
    else
      fail=$((fail + 1)); echo "build FAILED: CC=$cc LUA=$lua"; cat build/logs/build-$cc-$lua.log
    fi
  done
done
echo "build: $pass passed, $fail failed"
record build $pass $fail

# ---- lint: luacheck, one test per Lua file ------------------------------------------------
pass=0; fail=0
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
record lint $pass $fail

# ---- the suites ---------------------------------------------------------------------------
for s in tools/suite-*.sh; do
  [ -f "$s" ] || continue
  name=$(basename "$s" .sh); name=${name#suite-}
  echo "==== $name"
  log="build/logs/suite-$name.log"
  sh "$s" >"$log" 2>&1
  rc=$?
  cat "$log"
  last=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -z "$last" ]; then
    echo "$name: no summary line (exit $rc)"
    record "$name" 0 1
    continue
  fi
  p=$(echo "$last" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
  f=$(echo "$last" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "$name: exited $rc"; f=1
  fi
  record "$name" "$p" "$f"
done

echo
echo "summary:$summary"
echo "tests: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
