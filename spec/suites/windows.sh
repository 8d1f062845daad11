#!/bin/sh
# The Windows build, for real: make windows cross-builds sat/core.dll with mingw-w64 for
# LuaJIT 2.1 and Lua 5.4, and the two Windows interpreters it links against from Debian's
# source packages (cached under build/windows-x64/). Each DLL is a PE32+ DLL (file), exports
# luaopen_sat_core alone and imports only its Lua's DLL (lua51.dll / lua54.dll), KERNEL32 and
# msvcrt (objdump -p). Then, under wine, with each Windows interpreter: the busted specs
# (spec/*_spec.lua) through spec/wine/run.lua, busted's part that the specs use (busted
# itself is not installed there), after that runner's own check (spec/wine/selftest.lua);
# and the folder make dist makes, from a directory holding nothing else: sat/loader.lua picks
# windows-x64-<abi>.dll, and names it when it is missing.
# Without mingw-w64 or wine this suite says so and reports 0 and 0.
# Last line: `windows: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/tap-count.sh
root=$(pwd)
mkdir -p build/logs
. spec/suites/lib/report.sh
. spec/suites/lib/limit.sh
wine_tests=0
# under wine: counted apart too, for the closing line
wok() { wine_tests=$((wine_tests + 1)); ok "$@"; }

for tool in x86_64-w64-mingw32-gcc x86_64-w64-mingw32-objdump wine file; do
  if ! command -v $tool >/dev/null 2>&1; then
    echo "note: $tool is not installed (sh tools/deps.sh windows installs mingw-w64 and wine)"
    echo "windows: 0 passed, 0 failed"
    exit 0
  fi
done

log=build/logs/windows-build.log
if make --no-print-directory windows windows-luas windows-helpers >"$log" 2>&1; then
  ok "make windows: build/windows-x64/{luajit,lua5.4}/sat/core.dll, and the Windows Luas"
else
  tail -n 30 "$log"
  bad "make windows"
  echo "windows: $pass passed, $fail failed"
  exit 1
fi

vm=build/windows-x64/vm
for lua in luajit lua5.4; do
  dll=build/windows-x64/$lua/sat/core.dll
  case $lua in luajit) luadll=lua51.dll ;; *) luadll=lua54.dll ;; esac
  kind=$(file -b "$dll")
  case $kind in
    "PE32+ executable (DLL)"*x86-64*) ok "$lua: file says $kind" ;;
    *) bad "$lua: file says $kind, not a PE32+ DLL" ;;
  esac
  dump=$(x86_64-w64-mingw32-objdump -p "$dll")
  exports=$(printf '%s\n' "$dump" | sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' |
    sed -n 's/^[[:space:]]*\[[[:space:]]*[0-9]*\][[:space:]]*//p' | tr '\n' ' ')
  if [ "$exports" = "luaopen_sat_core " ]; then
    ok "$lua: core.dll exports luaopen_sat_core alone"
  else
    bad "$lua: core.dll exports: $exports"
  fi
  imports=$(printf '%s\n' "$dump" | sed -n 's/^[[:space:]]*DLL Name: //p' | sort | tr '\n' ' ')
  want=$(printf '%s\n' KERNEL32.dll msvcrt.dll "$luadll" | sort | tr '\n' ' ')
  if [ "$imports" = "$want" ]; then
    ok "$lua: core.dll imports $imports"
  else
    bad "$lua: core.dll imports $imports, not $want"
  fi
done

# ---- under wine ---------------------------------------------------------------------------
# A prefix of our own under build/ (made on the first run). Its server is kept up for the
# whole suite and stopped at the end, so that no wine process outlives it. The first program
# starts wine's background processes, which inherit its output: it writes to a file, else a
# later $(...) would wait for them to exit.
WINEPREFIX=$root/build/wine
WINEDEBUG=-all
export WINEPREFIX WINEDEBUG
# Every wine program runs with no input under the stall guard (lib/limit.sh: WINE_CPU s of
# processor time, 600 unless set; WINE_IDLE rounds without any, 120): a program that hangs
# fails its test, not the whole run, and a loaded machine fails nothing.
run_wine() { limited "${WINE_CPU:-600}" "${WINE_IDLE:-120}" wine "$@"; }
trap 'wineserver -k 2>/dev/null' EXIT INT TERM
run_wine "$vm/lua5.4/lua.exe" -e "" >build/logs/wine-boot.log 2>&1
wineserver -p60

exe_of() { case $1 in luajit) echo "$vm/luajit/luajit.exe" ;; *) echo "$vm/lua5.4/lua.exe" ;; esac; }

# the runner's own check: "pass ..." tests ok, "fail ..." tests not ok, all of them reported
expected=$(($(grep -cE '^[[:space:]]*(it|pending)\(' spec/wine/selftest.lua) + 1)) # + the describe that errors
selftest() { # NAME COMMAND...
  name=$1
  shift
  out=$("$@" spec/wine/run.lua spec/wine/selftest.lua 2>&1)
  wrong=$(printf '%s\n' "$out" | grep -E '^(not )?ok ' | grep -vE '^ok [0-9]+ - (# SKIP )?pass' |
    grep -vE '^not ok [0-9]+ - fail')
  got=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ')
  if [ -z "$wrong" ] && [ "$got" -eq "$expected" ]; then
    ok "$name: spec/wine/run.lua passes what holds and fails what does not ($got tests)"
  else
    bad "$name: spec/wine/run.lua's own check ($got of $expected reported)" "$wrong"
  fi
}
selftest "lua5.4 (Linux)" lua5.4

for lua in luajit lua5.4; do
  exe=$(exe_of $lua)
  selftest "$lua under wine" run_wine "$exe"
  log=build/logs/windows-specs-$lua.log
  LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/windows-x64/$lua/?.dll;;" \
    run_wine "$exe" spec/wine/run.lua spec/*_spec.lua >"$log" 2>&1
  rc=$?
  suite_pass=$pass suite_fail=$fail
  tap_count "$log" # sets pass and fail to the log's counts
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
  echo "$lua under wine: the specs, $pass passed, $fail failed"
  if [ "$fail" -ne 0 ] || [ "$pass" -eq 0 ]; then
    awk '/^not ok /{n=2} n>0{print; n--}' "$log" | head -n 40
    [ "$(grep -c '^not ok ' "$log")" -eq 0 ] && tail -n 10 "$log"
    [ "$fail" -eq 0 ] && fail=1
  fi
  wine_tests=$((wine_tests + pass))
  pass=$((suite_pass + pass))
  fail=$((suite_fail + fail))
done

# ---- the dist folder under wine, from a directory holding nothing else ----------------------
if make --no-print-directory dist-folder >build/logs/windows-dist.log 2>&1; then
  ok "make dist-folder"
else
  tail -n 20 build/logs/windows-dist.log
  bad "make dist-folder"
fi
work=$(mktemp -d)
trap 'wineserver -k 2>/dev/null; rm -rf "$work"' EXIT INT TERM
cp -r dist/sat "$work/"
cat >"$work/check.lua" <<'LUA'
local sat = require("sat")
local r = assert(sat.collide(sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2)))
assert(r.overlap == 0.5 and r.normal.x == 1, "response " .. tostring(r.normal))
local w = sat.world(16)
local a = w:add(sat.circle(0, 0, 4))
w:add(sat.box(2, -2, 4, 4))
assert(#w:queryShape(a) == 1, "queryShape")
print(require("sat.loader").path)
LUA
for lua in luajit lua5.4; do
  exe=$root/$(exe_of $lua)
  abi=$(echo $lua | sed 's/^lua5\./lua5/')
  out=$(cd "$work" && LUA_PATH='.\?.lua;.\?\init.lua' LUA_CPATH='' run_wine "$exe" check.lua 2>&1 | tr -d '\r')
  case $out in
    *"native"[/\\]"windows-x64-$abi.dll") wok "$lua under wine: the dist folder alone loads native/windows-x64-$abi.dll" ;;
    *) bad "$lua under wine: the dist folder alone loads native/windows-x64-$abi.dll" "$out" ;;
  esac
done
rm "$work/sat/native/windows-x64-luajit.dll"
out=$(cd "$work" && SAT_BACKEND=native LUA_PATH='.\?.lua;.\?\init.lua' LUA_CPATH='' run_wine "$root/$(exe_of luajit)" check.lua 2>&1 | tr -d '\r')
if printf '%s\n' "$out" | grep -q 'no native module fits LuaJIT on Windows x64' &&
   printf '%s\n' "$out" | grep -q 'windows-x64-luajit.dll (no such file)'; then
  wok "luajit under wine: without its DLL, the error names windows-x64-luajit.dll"
else
  bad "luajit under wine: the error without the DLL" "$out"
fi

# a truncated DLL, or a Linux library in its place: refused with the reason, before Windows'
# loader sees it
dll=$work/sat/native/windows-x64-lua54.dll
cp "$dll" "$work/whole.dll"
size=$(wc -c <"$work/whole.dll")
head -c $((size / 2)) "$work/whole.dll" >"$dll"
out=$(cd "$work" && SAT_BACKEND=native LUA_PATH='.\?.lua;.\?\init.lua' LUA_CPATH='' run_wine "$root/$(exe_of lua5.4)" check.lua 2>&1 | tr -d '\r')
if printf '%s\n' "$out" | grep -qF "windows-x64-lua54.dll: truncated ($((size / 2)) bytes, its header needs"; then
  wok "lua5.4 under wine: a truncated DLL is refused as truncated"
else
  bad "lua5.4 under wine: a truncated DLL is refused as truncated" "$out"
fi
if make --no-print-directory loader-fixtures >/dev/null 2>&1 && [ -f build/fixtures/foreign.so ]; then
  cp build/fixtures/foreign.so "$dll"
  out=$(cd "$work" && SAT_BACKEND=native LUA_PATH='.\?.lua;.\?\init.lua' LUA_CPATH='' run_wine "$root/$(exe_of lua5.4)" check.lua 2>&1 | tr -d '\r')
  if printf '%s\n' "$out" | grep -qF "windows-x64-lua54.dll: not a library for Windows (an ELF library, "; then
    wok "lua5.4 under wine: a Linux library in the DLL's place is refused as one"
  else
    bad "lua5.4 under wine: a Linux library in the DLL's place is refused as one" "$out"
  fi
fi

echo "under wine: $wine_tests tests ran (the specs with LuaJIT and Lua 5.4, the dist folder)"
echo "windows: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
