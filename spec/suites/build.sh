#!/bin/sh
# The module builds warning-free (-Werror) with gcc and clang for every installed Lua (make
# CC=... LUA=... in build/check-<cc>), and exports luaopen_sat_core alone. Then the layering
# of src/ (spec/suites/lib/layers.sh): the core includes nothing of the binding or of Lua, no
# include cycle; and, read from the objects with nm, the core calls no Lua and the binding's
# files use each other one way only. Portability (spec/suites/lib/portable.sh): every module
# built here and by make dist (Linux) imports no glibc symbol newer than 2.17 (issue 25) and
# from libm only functions exact everywhere (issue 29); every compiler command of the
# Makefile says -ffp-contract=off, and the objects built for aarch64 (gcc and clang) hold
# no fused multiply-add, while clang without the flag fuses (the check can see them).
# Last line: `build: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/exports.sh
. spec/suites/lib/layers.sh
. spec/suites/lib/portable.sh
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
      newer=$(glibc_newer "$out/$lua/sat/core.so"; libm_other "$out/$lua/sat/core.so")
      if [ -z "$newer" ]; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1))
        echo "build: CC=$cc LUA=$lua imports a glibc symbol newer than 2.17 or a libm function" \
          "that may round differently: $(echo $newer)"
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

# ---- portability: glibc 2.17, exact libm only, no fused multiply-add ------------------------
# (into a folder of its own: make test runs this suite beside the dist suite, which makes dist/)
check_dist=build/check-dist
if make --no-print-directory -s WINDOWS=no DIST="$check_dist" BUILD=build/check-dist-build \
    dist-folder >build/logs/build-dist.log 2>&1; then
  bad_dist=""
  for so in "$check_dist"/sat/native/*.so; do
    newer=$(glibc_newer "$so"; libm_other "$so")
    [ -n "$newer" ] && bad_dist="$bad_dist $so: $(echo $newer);"
  done
  if [ -z "$bad_dist" ]; then
    pass=$((pass + 1))
    echo "ok make dist: $(ls "$check_dist"/sat/native | tr '\n' ' ')need glibc 2.17 at most, exact libm only"
  else
    fail=$((fail + 1)); echo "not ok make dist:$bad_dist"
  fi
else
  fail=$((fail + 1)); echo "not ok make dist (WINDOWS=no) failed"; tail -n 20 build/logs/build-dist.log
fi

# the check itself: a module calling hypot (glibc 2.35's symbol) is caught
probe=build/check-gcc/probe
mkdir -p "$probe"
printf '%s\n' '#include <math.h>' 'double probe(double x, double y);' \
  'double probe(double x, double y) { return hypot(x, y); }' >"$probe/probe.c"
if gcc -O2 -fPIC -shared -o "$probe/probe.so" "$probe/probe.c" -lm 2>"$probe/log"; then
  got=$(glibc_newer "$probe/probe.so"; libm_other "$probe/probe.so")
  case $got in
    *hypot*) pass=$((pass + 1)); echo "ok the checks see a module importing hypot: $(echo $got)" ;;
    *) fail=$((fail + 1)); echo "not ok the checks miss a module importing hypot (got: $got)" ;;
  esac
else
  fail=$((fail + 1)); echo "not ok the probe module does not build"; cat "$probe/log"
fi

fp_unflagged all module-san objects c-tests c-tests-san fuzz-build test-helpers bench-build \
  macos windows windows-helpers math-ulps >build/logs/build-fp.log
unflagged=$(cat build/logs/build-fp.log)
if [ -z "$unflagged" ] && [ "$fp_commands" -gt 20 ]; then
  pass=$((pass + 1))
  echo "ok every recipe's compiler command ($fp_commands in make -n) says -ffp-contract=off"
else
  fail=$((fail + 1))
  echo "not ok -ffp-contract=off missing ($fp_commands commands):"; printf '%s\n' "$unflagged"
fi

if command -v aarch64-linux-gnu-objdump >/dev/null 2>&1; then
  for cc in aarch64-linux-gnu-gcc "clang --target=aarch64-linux-gnu"; do
    command -v "${cc%% *}" >/dev/null 2>&1 || continue
    dir=build/check-aarch64-${cc%% *}
    if make --no-print-directory -s CC="$cc" LUA=luajit BUILD="$dir" objects \
        >build/logs/build-aarch64.log 2>&1; then
      n=$(fused_ops "$dir"/obj/luajit/core/*.o "$dir"/obj/luajit/lua/*.o)
      if [ "$n" -eq 0 ]; then
        pass=$((pass + 1)); echo "ok aarch64 objects by $cc: no fused multiply-add"
      else
        fail=$((fail + 1)); echo "not ok aarch64 objects by $cc: $n fused multiply-adds"
      fi
    else
      fail=$((fail + 1)); echo "not ok make objects CC='$cc'"; tail -n 20 build/logs/build-aarch64.log
    fi
  done
  # the check itself: clang fuses a * b + c by default, even in -std=c99
  if command -v clang >/dev/null 2>&1; then
    dir=build/check-aarch64-fused
    if make --no-print-directory -s FP= CC="clang --target=aarch64-linux-gnu" LUA=luajit \
        BUILD="$dir" "$dir/obj/luajit/core/sat_math.o" >build/logs/build-aarch64.log 2>&1 &&
        n=$(fused_ops "$dir/obj/luajit/core/sat_math.o") && [ "$n" -gt 0 ]; then
      pass=$((pass + 1)); echo "ok without -ffp-contract=off clang fuses ($n in sat_math.o): the check sees it"
    else
      fail=$((fail + 1)); echo "not ok clang without the flag: no fused multiply-add seen"
    fi
  fi
else
  echo "note: no aarch64 binutils (gcc-aarch64-linux-gnu): fused multiply-adds not checked"
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
if gcc -std=c99 -Wall -Wextra -Werror -pedantic -ffp-contract=off -Isrc/core -o "$ex/example" "$ex/example.c" \
     src/core/*.c -lm >build/logs/build-doc-example.log 2>&1 && [ "$("$ex/example")" = ok ]; then
  pass=$((pass + 1)); echo "ok docs/design.md: the C example builds and runs"
else
  fail=$((fail + 1)); echo "not ok docs/design.md: the C example"; cat build/logs/build-doc-example.log
fi

echo "build: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
