#!/bin/sh
# make dist, and what a game gets from it. The folder dist/sat/ and the zip are made; every
# lua/sat/*.lua is in them, and library/sat.lua (the LuaLS definitions); the zip holds the
# folder; each native module exports luaopen_sat_core alone; from a copy of the zip's content
# alone (no checkout on any path), lua5.4 and luajit load every module init.lua can require
# (spec/dist/check.lua), and a Lua the folder has no module for gets an error naming the file
# it looked for; a native file that is garbage, truncated, or built for another machine or
# system makes require fail with the reason under SAT_BACKEND=native (never a crash, never "No such
# file"), and fall back on the pure backend otherwise. Then a
# LÖVE 11 game made of spec/dist/main.lua and the folder runs headless in each way a game
# ships: a folder, a .love with sat/native/ beside it, everything inside the .love (copied to
# the save directory, reused on the next start, refreshed when the game's copy changes,
# rewritten when the copy is damaged), and fused executables (binary inside, binary beside).
# Last, the scripted scene (spec/web/scene.lua) in a game made of the folder, with its
# native/ and with native/ deleted (the pure backend): the same lines, every number bit for
# bit (the web suite runs the same scene in a browser).
# Without love or xvfb-run the LÖVE part is skipped with a note.
# Last line: `dist: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/exports.sh
. spec/suites/lib/report.sh
. spec/suites/lib/limit.sh
root=$(pwd)
mkdir -p build/logs

version=$(sed -n 's/^.define SAT_VERSION "\(.*\)"$/\1/p' src/core/sat.h)
zip=dist/sat-$version.zip
arch=$(uname -m | sed 's/^x86_64$/x64/; s/^amd64$/x64/; s/^aarch64$/arm64/')

if make --no-print-directory dist >build/logs/dist-make.log 2>&1 && [ -d dist/sat ] && [ -f "$zip" ]; then
  ok "make dist: dist/sat/ and $zip ($(ls dist/sat/native | tr '\n' ' '))"
else
  tail -n 30 build/logs/dist-make.log
  bad "make dist made dist/sat/ and $zip"
  echo "dist: $pass passed, $fail failed"
  exit 1
fi

# ---- the folder and the zip ---------------------------------------------------------------
# the Lua files, and the LuaLS definitions for a game's editor (shipped, never loaded)
differ=""
for f in lua/sat/*.lua library/*.lua; do
  cmp -s "$f" "dist/sat/${f#lua/sat/}" || differ="$differ $f"
done
if [ -z "$differ" ]; then
  ok "every lua/sat/*.lua is in dist/sat/, library/*.lua in dist/sat/library/, unchanged: $(
    cd lua/sat && echo *.lua) library/$(cd library && echo *.lua)"
else
  bad "missing or changed in dist/sat/:$differ"
fi

in_zip=$(unzip -Z1 "$zip" | grep -v '/$' | sort)
in_dir=$(cd dist && find sat -type f | sort)
if [ "$in_zip" = "$in_dir" ]; then
  ok "the zip holds the folder's $(printf '%s\n' "$in_dir" | wc -l) files"
else
  bad "the zip and the folder differ" "$(printf 'zip:\n%s\nfolder:\n%s' "$in_zip" "$in_dir")"
fi

for want in "linux-$arch-luajit.so" "linux-$arch-lua54.so"; do
  f=dist/sat/native/$want
  if [ ! -f "$f" ]; then
    bad "dist/sat/native/$want exists"
  elif entry_only "$f"; then
    ok "native/$want exports luaopen_sat_core alone"
  else
    bad "native/$want exports: $exported"
  fi
done
glibc=$(objdump -T dist/sat/native/linux-*.so 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
[ -n "$glibc" ] && echo "note: the Linux modules need glibc ${glibc#GLIBC_} or newer"
if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
  for want in windows-x64-luajit.dll windows-x64-lua54.dll; do
    if [ -f "dist/sat/native/$want" ]; then ok "native/$want is there"; else bad "native/$want is missing"; fi
  done
fi

# ---- plain Lua, from the zip's content alone ----------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/plain"
(cd "$work/plain" && unzip -q "$root/$zip")
cp spec/dist/check.lua "$work/check.lua"
for lua in lua5.4 luajit; do
  if out=$(cd "$work/plain" && LUA_PATH='./?.lua;./?/init.lua' LUA_CPATH='' "$lua" ../check.lua sat 2>&1); then
    ok "$lua, from the unzipped folder alone: $out"
  else
    bad "$lua from the unzipped folder" "$out"
  fi
done

# a Lua the folder has no module for: the pure backend, silently, and sat.nativeError names the
# file the loader looked for; forced to native (SAT_BACKEND=native), the error names it
mkdir -p "$work/none"
cp -r "$work/plain/sat" "$work/none/"
rm "$work/none/sat/native/linux-$arch-lua54.so"
out=$(cd "$work/none" && LUA_PATH='./?.lua;./?/init.lua' LUA_CPATH='' SAT_BACKEND= lua5.4 -e '
  local sat = require("sat"); print(sat.backend); print(sat.nativeError)' 2>&1)
if [ $? -eq 0 ] && [ "$(printf '%s\n' "$out" | head -n 1)" = lua ] &&
   printf '%s\n' "$out" | grep -q "sat/native/linux-$arch-lua54.so (no such file)"; then
  ok "without its native file, require('sat') runs the pure backend; sat.nativeError names the file"
else
  bad "without its native file, the pure backend and sat.nativeError" "$out"
fi
out=$(cd "$work/none" && LUA_PATH='./?.lua;./?/init.lua' LUA_CPATH='' SAT_BACKEND=native lua5.4 -e 'require("sat")' 2>&1)
if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q "sat/native/linux-$arch-lua54.so (no such file)" &&
   printf '%s\n' "$out" | grep -q "no native module fits Lua 5.4"; then
  ok "without its native file, SAT_BACKEND=native: require('sat') says which file it looked for"
else
  bad "the error without a native file names it (SAT_BACKEND=native)" "$out"
fi

# A damaged file, or one for another machine, is refused before the system's loader sees it
# (handed to it, a truncated file killed the process: SIGBUS in dlopen, exit 135; a file for
# another machine was "No such file or directory"): require fails, saying why, in each Lua.
make --no-print-directory loader-fixtures >build/logs/dist-fixtures.log 2>&1
refused() { # LUA FILE-NAME WHAT REASON: require('sat') with FILE-NAME made by the caller
  out=$(cd "$work/none" && LUA_PATH='./?.lua;./?/init.lua' LUA_CPATH='' SAT_BACKEND=native "$1" -e 'require("sat")' 2>&1)
  rc=$?
  if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qF "sat/native/$2: $4" &&
     ! printf '%s\n' "$out" | grep -q "No such file or directory"; then
    ok "$1, $3: require fails (exit 1) saying '$4'"
  else
    bad "$1, $3: require fails saying '$4' (exit $rc)" "$out"
  fi
}
for lua in lua5.4 luajit; do
  abi=$lua; [ "$lua" = lua5.4 ] && abi=lua54
  file=linux-$arch-$abi.so
  cp "$work/plain/sat/native/$file" "$work/whole.so"
  size=$(wc -c <"$work/whole.so")
  printf 'not a library' >"$work/none/sat/native/$file"
  refused "$lua" "$file" "a file that is not a library" "not a native library (no ELF, PE or Mach-O header)"
  for cut in 12288 $((size / 2)) $((size - 1)); do
    head -c "$cut" "$work/whole.so" >"$work/none/sat/native/$file"
    refused "$lua" "$file" "its native file cut to $cut bytes" "truncated ($cut bytes, its header needs"
  done
  if [ -f build/fixtures/foreign.so ]; then
    other=$(file -b build/fixtures/foreign.so | sed -n 's/.*ARM aarch64.*/arm64/p; s/.*x86-64.*/x86-64/p')
    cp build/fixtures/foreign.so "$work/none/sat/native/$file"
    refused "$lua" "$file" "its native file built for $other" \
      "wrong architecture ($other file, this is $(echo "$arch" | sed 's/^x64$/x86-64/'))"
  else
    echo "note: no build/fixtures/foreign.so (no cross compiler): the wrong-architecture case is the loader spec's"
  fi
  if [ -f build/fixtures/windows-x64.dll ]; then
    cp build/fixtures/windows-x64.dll "$work/none/sat/native/$file"
    want="not a library for Linux or macOS (a Windows DLL, x86-64)"
    [ "$lua" = luajit ] && want="not a library for Linux (a Windows DLL, x86-64)"
    refused "$lua" "$file" "a Windows DLL in its place" "$want"
  fi
  rm -f "$work/none/sat/native/$file"
done

# ---- LÖVE: the three ways to ship, and fused ------------------------------------------------
if ! command -v love >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null 2>&1; then
  echo "note: love and xvfb-run are needed for the LÖVE part (apt-get install love xvfb xauth)"
  echo "dist: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi

xdg=$work/xdg
identity=$(sed -n 's/^[[:space:]]*t\.identity = "\(.*\)"$/\1/p' spec/love/conf.lua)
save=$xdg/love/$identity            # LÖVE's save directory of the game (a .love or a folder)
fsave=$xdg/$identity                # ... of a fused game
native=linux-$arch-luajit.so
out=$work/out.txt

# run NAME GAME...: runs the game headless; its checks count; sets $loaded and $copied
run() {
  name=$1
  shift
  rm -f "$out"
  limited 120 120 env XDG_DATA_HOME="$xdg" SAT_DIST_OUT="$out" xvfb-run -a "$@" \
    >"$work/love.log" 2>&1
  rc=$?
  loaded=""
  copied=""
  if [ ! -f "$out" ]; then
    bad "$name: the game ran (exit $rc)" "$(tail -n 15 "$work/love.log")"
    return 1
  fi
  loaded=$(sed -n 's/^loaded //p' "$out")
  copied=$(sed -n 's/^copied //p' "$out")
  if [ "$rc" -eq 0 ] && ! grep -q '^not ok' "$out" && [ "$(grep -c '^ok' "$out")" -ge 5 ]; then
    ok "$name: $(grep -c '^ok' "$out") checks pass in LÖVE"
  else
    bad "$name: the game's checks (exit $rc)" "$(cat "$out"; tail -n 5 "$work/love.log")"
  fi
}

# expect NAME WHAT ACTUAL WANTED
expect() {
  if [ "$3" = "$4" ]; then ok "$1: $2"; else bad "$1: $2" "got:  $3
want: $4"; fi
}

# game DIR [lua-only]: spec/dist/main.lua, spec/love/conf.lua (a small headless window)
# and dist/sat/ (without native/ when lua-only)
game() {
  mkdir -p "$1"
  cp spec/dist/main.lua spec/love/conf.lua "$1/"
  cp -r dist/sat "$1/"
  [ "${2:-}" = lua-only ] && rm -rf "$1/sat/native"
  return 0
}

lovefile() { # OUT.love DIR
  (cd "$2" && zip -qr "$1" .)
}

# 1. a folder
game "$work/folder"
run "folder" love "$work/folder"
expect "folder" "loads the game's own sat/native/$native" "$loaded" "$work/folder/sat/native/$native"

# 2. a .love, with sat/native/ beside it
game "$work/beside-src" lua-only
mkdir -p "$work/beside/sat"
lovefile "$work/beside/game.love" "$work/beside-src"
cp -r dist/sat/native "$work/beside/sat/"
run ".love + sat/native beside" love "$work/beside/game.love"
expect ".love + sat/native beside" "loads sat/native/$native next to the .love" \
  "$loaded" "$work/beside/sat/native/$native"

# 3. everything inside the .love: copied to the save directory, then reused
game "$work/inside-src"
mkdir -p "$work/inside"
lovefile "$work/inside/game.love" "$work/inside-src"
run "inside the .love" love "$work/inside/game.love"
first=$loaded
case $first in
  "$save"/sat-native/*/"$native") ok "inside the .love: loads a copy in the save directory ($copied copied)" ;;
  *) bad "inside the .love: loads a copy in the save directory" "loaded: $first" ;;
esac
if [ -f "$first" ] && cmp -s "$first" "dist/sat/native/$native"; then
  ok "inside the .love: the copy is the game's file"
else
  bad "inside the .love: the copy is the game's file"
fi
expect "inside the .love" "the first start copies it" "$copied" yes
run "inside the .love, again" love "$work/inside/game.love"
expect "inside the .love, again" "reuses the copy" "$loaded $copied" "$first no"

# the game's binary changes (an update): a new copy, the old one removed
printf 'an update' >>"$work/inside-src/sat/native/$native"
rm "$work/inside/game.love"
lovefile "$work/inside/game.love" "$work/inside-src"
run "inside the updated .love" love "$work/inside/game.love"
second=$loaded
if [ "$second" != "$first" ] && [ "$copied" = yes ] && cmp -s "$second" "$work/inside-src/sat/native/$native"; then
  ok "inside the updated .love: a new copy of the new file"
else
  bad "inside the updated .love: a new copy of the new file" "first $first, then $second ($copied)"
fi
if [ ! -e "$first" ]; then ok "inside the updated .love: the old copy is gone"; else bad "the old copy $first is still there"; fi

# a damaged copy in the save directory is written again
printf 'damaged' >"$second"
run "inside the .love, damaged copy" love "$work/inside/game.love"
if [ "$loaded" = "$second" ] && [ "$copied" = yes ] && cmp -s "$second" "$work/inside-src/sat/native/$native"; then
  ok "inside the .love, damaged copy: written again"
else
  bad "inside the .love, damaged copy: written again" "loaded $loaded ($copied)"
fi

# 4. fused: the LÖVE executable with the game appended
lovebin=$(readlink -f "$(command -v love)")
mkdir -p "$work/fused-in" "$work/fused-beside/sat"
cat "$lovebin" "$work/inside/game.love" >"$work/fused-in/game" && chmod +x "$work/fused-in/game"
run "fused, everything inside" "$work/fused-in/game"
case $loaded in
  "$fsave"/sat-native/*/"$native") ok "fused, everything inside: loads a copy in its save directory" ;;
  *) bad "fused, everything inside: loads a copy in its save directory" "loaded: $loaded" ;;
esac
cat "$lovebin" "$work/beside/game.love" >"$work/fused-beside/game" && chmod +x "$work/fused-beside/game"
cp -r dist/sat/native "$work/fused-beside/sat/"
run "fused, sat/native beside" "$work/fused-beside/game"
expect "fused, sat/native beside" "loads sat/native/$native next to the executable" \
  "$loaded" "$work/fused-beside/sat/native/$native"

# 5. the scripted scene (spec/web/scene.lua: every kind, every pair call, a world with static
# tiles, moves with filters, steps with handlers, queries, errors) in a game made of dist/sat:
# with its native/ (the native module, LuaJIT), then with native/ deleted (the pure backend,
# chosen by itself): the same lines, every number printed with %.17g, -0 as such.
scene_run() { # NAME DIR: runs the scene game, its output in DIR.txt
  rm -f "$2.txt"
  XDG_DATA_HOME=$xdg timeout 120 xvfb-run -a love "$2" >"$2.txt" 2>"$2.err"
  rc=$?
  if [ "$rc" -eq 0 ] && grep -q '^DONE [0-9]' "$2.txt" && ! grep -q '^ERROR' "$2.txt"; then
    ok "$1: the scene ran in LÖVE ($(head -n 1 "$2.txt"), $(sed -n 's/^DONE //p' "$2.txt") lines)"
  else
    bad "$1: the scene ran in LÖVE (exit $rc)" "$(grep -m 1 '^ERROR' "$2.txt"; tail -n 5 "$2.err")"
  fi
}
for how in native lua; do
  mkdir -p "$work/scene-$how"
  cp spec/web/main.lua spec/web/conf.lua spec/web/scene.lua "$work/scene-$how/"
  cp -r dist/sat "$work/scene-$how/"
done
rm -rf "$work/scene-lua/sat/native"
scene_run "the scene, sat/native/ there" "$work/scene-native"
scene_run "the scene, sat/native/ deleted" "$work/scene-lua"
expect "the scene, sat/native/ there" "runs the native module" "$(head -n 1 "$work/scene-native.txt")" "backend native"
expect "the scene, sat/native/ deleted" "runs the pure backend" "$(head -n 1 "$work/scene-lua.txt")" "backend lua"
tail -n +2 "$work/scene-native.txt" >"$work/scene-native.body"
tail -n +2 "$work/scene-lua.txt" >"$work/scene-lua.body"
if [ -s "$work/scene-native.body" ] && cmp -s "$work/scene-native.body" "$work/scene-lua.body"; then
  ok "the scene: the pure backend's $(wc -l <"$work/scene-lua.body") lines equal the native module's"
else
  bad "the scene: the pure backend's lines equal the native module's" \
    "$(diff "$work/scene-native.body" "$work/scene-lua.body" | head -n 10)"
fi

echo "dist: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
