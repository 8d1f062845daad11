#!/bin/sh
# Runs a LÖVE game in a web browser as a love.js web build, headless, and prints the page's
# console (what the game's print writes) until a line that starts with the marker.
#   sh spec/web/run.sh <game dir> [marker (default DONE)] [timeout in seconds (default 120)]
# The game dir is packaged by the love.js npm package (11.4.x, its compatibility build, -c: no
# SharedArrayBuffer, so no COOP/COEP headers needed) into build/web/out/<dir name>/, served on
# a free port of 127.0.0.1 (spec/web/serve.js), opened in Debian's chromium, headless, through
# puppeteer-core (spec/web/browse.js). The npm packages are installed into build/web/npm/ on
# first use, then reused (WEB_NPM_DIR= another place). Messages other than console.log come out
# prefixed "console.<type>: "; page errors "PAGEERROR ...".
# Exit status: 0 when the marker came; 1 on a timeout or an error; 2 when the tools are missing
# (node, npm, chromium: the reason on stderr, in one line).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 1 ] || [ ! -f "$1/main.lua" ]; then
  echo "usage: sh spec/web/run.sh <game dir with main.lua> [marker] [seconds]" >&2
  exit 2
fi
game=$(cd "$1" && pwd)
marker=${2:-DONE}
seconds=${3:-120}
npmdir=${WEB_NPM_DIR:-$root/build/web/npm}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
LOVEJS_VERSION=11.4.1

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "web: $tool is not installed (apt-get install nodejs npm)" >&2
    exit 2
  fi
done
if [ -z "$chromium" ]; then
  echo "web: chromium is not installed (apt-get install chromium)" >&2
  exit 2
fi

# the npm packages, once
if [ ! -f "$npmdir/node_modules/love.js/package.json" ] ||
   [ ! -f "$npmdir/node_modules/puppeteer-core/package.json" ]; then
  mkdir -p "$npmdir" "$root/build/logs"
  if ! (cd "$npmdir" && npm install --no-audit --no-fund --no-save \
          "love.js@$LOVEJS_VERSION" puppeteer-core) >"$root/build/logs/web-npm.log" 2>&1; then
    echo "web: npm could not install love.js and puppeteer-core: $(tail -n 1 "$root/build/logs/web-npm.log")" >&2
    exit 2
  fi
fi

out=$root/build/web/out/$(basename "$game")
rm -rf "$out"
mkdir -p "$(dirname "$out")"
# love.js zips the game folder into game.data and writes index.html, love.js, love.wasm
if ! "$npmdir/node_modules/.bin/love.js" -c -t "$(basename "$game")" "$game" "$out" \
     >"$out.log" 2>&1; then
  echo "web: love.js could not package $game:" >&2
  tail -n 5 "$out.log" >&2
  exit 1
fi

portfile=$out.port
rm -f "$portfile"
node "$root/spec/web/serve.js" "$out" >"$portfile" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT INT TERM
port=""
i=0
while [ -z "$port" ] && [ $i -lt 50 ]; do
  port=$(sed -n 's/^port \([0-9]*\)$/\1/p' "$portfile" 2>/dev/null)
  [ -n "$port" ] || sleep 0.1
  i=$((i + 1))
done
if [ -z "$port" ]; then
  echo "web: the static server did not start: $(cat "$portfile")" >&2
  exit 1
fi
NODE_PATH=$npmdir/node_modules node "$root/spec/web/browse.js" "$port" "$marker" "$seconds" "$chromium"
