#!/bin/sh
# The module builds warning-free (-Werror) with gcc and clang for every installed Lua (make
# CC=... LUA=... in build/check-<cc>), and exports luaopen_sat_core alone. Then the layering
# of src/ (spec/suites/lib/layers.sh): the core includes nothing of the binding or of Lua, no
# include cycle; and, read from the objects with nm, the core calls no Lua and the binding's
# files use each other one way only. Last line: `build: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/exports.sh
. spec/suites/lib/layers.sh
mkdir -p build/logs
pass=0
fail=0

for cc in gcc clang; do
  command -v "$cc" >/dev/null 2>&1 || continue
  for lua in lua5.4 luajit lua5.1 lua5.3; do
    command -v "$lua" >/dev/null 2>&1 || continue
    out="build/check-$cc"
    log="build/logs/build-$cc-$lua.log"
    if make --no-print-directory -s CC="$cc" LUA="$lua" BUILD="$out" all >"$log" 2>&1; then
      pass=$((pass + 1))
      if entry_only "$out/$lua/sat/core.so"; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1))
        echo "build: CC=$cc LUA=$lua exports more than luaopen_sat_core: $exported"
      fi
    else
      fail=$((fail + 1)); echo "build FAILED: CC=$cc LUA=$lua"; cat "$log"
    fi
  done
done

if out=$(check_includes); then
  pass=$((pass + 1)); echo "ok includes: src/core includes no binding or Lua header; no cycle"
else
  fail=$((fail + 1)); echo "not ok includes:"; printf '%s\n' "$out"
fi

if ! make --no-print-directory -s BUILD=build/check-gcc CC=gcc LUA=lua5.4 objects \
    >build/logs/build-objects.log 2>&1; then
  fail=$((fail + 1)); echo "not ok links: make objects failed"; cat build/logs/build-objects.log
elif out=$(check_links build/check-gcc/obj/lua5.4); then
  pass=$((pass + 1))
  echo "ok links: the core calls no Lua; the binding's files use each other one way"
else
  fail=$((fail + 1)); echo "not ok links:"; printf '%s\n' "$out"
fi

# The C example of docs/design.md, inside a main(), against the core alone: it builds with
# -Werror and runs to its end.
ex=build/check-gcc/doc-example
mkdir -p "$ex"
{
  echo '#include <stdio.h>'
  sed -n '/^```c$/,/^```$/p' docs/design.md | sed '1d;$d' | sed -n '1,/^$/p'
  echo 'int main(void) {'
  sed -n '/^```c$/,/^```$/p' docs/design.md | sed '1d;$d' | sed '1,/^$/d'
  echo 'puts("ok"); return 0; }'
} >"$ex/example.c"
if gcc -std=c99 -Wall -Wextra -Werror -pedantic -Isrc/core -o "$ex/example" "$ex/example.c" \
     src/core/*.c -lm >build/logs/build-doc-example.log 2>&1 && [ "$("$ex/example")" = ok ]; then
  pass=$((pass + 1)); echo "ok docs/design.md: the C example builds and runs"
else
  fail=$((fail + 1)); echo "not ok docs/design.md: the C example"; cat build/logs/build-doc-example.log
fi

echo "build: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
