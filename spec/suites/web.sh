#!/bin/sh
# The web build, for real (issue 26): a LÖVE game made of the `make dist` folder (the real
# recipe, into build/web/dist, Linux modules only) without its native/ files, the scripted scene
# (spec/web/scene.lua, main.lua, conf.lua), packaged by the love.js npm package (11.4.x, its
# compatibility build) and run in headless Chromium (spec/web/run.sh): the game picks the pure
# backend by itself (no native file fits the web), and its console output equals the native
# module's output from the same folder (LuaJIT, what LÖVE runs, and Lua 5.4) line for line:
# every number of the scene (%.17g, so equal text means equal bits), every event, every error.
# The npm packages are installed into build/web/npm/ on first use, then reused. Without node,
# npm or chromium (or when npm cannot fetch), it says so in one line: 0 and 0, or a failure
# when CI=true.
# Last line: `web: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/report.sh
mkdir -p build/logs build/web

missing() {
  echo "note: $1"
  if [ "${CI:-}" = true ]; then
    bad "the web build can run here (CI=true)" "$1"
  fi
  echo "web: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
}
for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || missing "$tool is not installed: the web suite needs node, npm and chromium (apt-get install nodejs npm chromium)"
done
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
  missing "chromium is not installed: the web suite needs it (apt-get install chromium)"

dist=build/web/dist
if make --no-print-directory dist-folder WINDOWS=no DIST=$dist >build/logs/web-dist.log 2>&1; then
  ok "make dist-folder into $dist ($(ls $dist/sat/native | tr '\n' ' '))"
else
  tail -n 20 build/logs/web-dist.log
  bad "make dist-folder into $dist"
  echo "web: $pass passed, $fail failed"
  exit 1
fi

# the game: the scene and the folder, without native/
game=build/web/scene
rm -rf "$game"
mkdir -p "$game"
cp spec/web/main.lua spec/web/conf.lua spec/web/scene.lua "$game/"
cp -r "$dist/sat" "$game/"
rm -rf "$game/sat/native"

# the native runs: the same folder with native/, plain LuaJIT and Lua 5.4
ref=build/web/native
rm -rf "$ref"
mkdir -p "$ref"
cp spec/web/scene.lua spec/web/plain.lua "$ref/"
cp -r "$dist/sat" "$ref/"
for lua in luajit lua5.4; do
  (cd "$ref" && LUA_PATH='./?.lua;./?/init.lua' LUA_CPATH='' "$lua" plain.lua) >"build/web/$lua.txt" 2>&1
  if [ "$(head -n 1 "build/web/$lua.txt")" = "backend native" ] && grep -q '^DONE [0-9]' "build/web/$lua.txt"; then
    ok "$lua, the folder's native module: $(tail -n 1 "build/web/$lua.txt" | cut -d' ' -f2) lines"
  else
    bad "$lua ran the scene on the native module" "$(tail -n 5 "build/web/$lua.txt")"
  fi
done

sh spec/web/run.sh "$game" DONE 150 >build/web/console.txt 2>build/logs/web-run.log
rc=$?
if [ "$rc" -eq 2 ]; then
  missing "$(tail -n 1 build/logs/web-run.log)"
fi
# the scene's lines: from "backend" to "DONE"; anything else (a resource's 404, love.js's own
# messages) is the page's
sed -n '/^backend /,/^DONE/p' build/web/console.txt >build/web/web.txt
if [ "$rc" -eq 0 ] && grep -q '^DONE [0-9]' build/web/web.txt; then
  ok "the web build ran the scene in headless Chromium: $(tail -n 1 build/web/web.txt | cut -d' ' -f2) lines"
else
  bad "the web build ran the scene (exit $rc)" "$(tail -n 10 build/web/console.txt; tail -n 5 build/logs/web-run.log)"
fi
if grep -q '^PAGEERROR\|^ERROR' build/web/console.txt; then
  bad "no error in the page" "$(grep -m 3 '^PAGEERROR\|^ERROR' build/web/console.txt)"
else
  ok "no error in the page"
fi
first=$(head -n 1 build/web/web.txt)
if [ "$first" = "backend lua" ]; then
  ok "the web build chose the pure backend by itself"
else
  bad "the web build chose the pure backend by itself" "first line: $first"
fi
for lua in luajit lua5.4; do
  tail -n +2 build/web/web.txt >build/web/web.body
  tail -n +2 "build/web/$lua.txt" >"build/web/$lua.body"
  if [ -s build/web/web.body ] && cmp -s build/web/web.body "build/web/$lua.body"; then
    ok "the web's $(wc -l <build/web/web.body) lines equal native $lua's, line for line"
  else
    bad "the web's lines equal native $lua's" "$(diff "build/web/$lua.body" build/web/web.body | head -n 10)"
  fi
done

echo "web: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
