#!/bin/sh
# Installs the Debian packages a make target needs, when they are missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# Usage: sh tools/deps.sh test|demo|love|bench
set -eu

base="make gcc libc6-dev pkg-config"
case "${1:-test}" in
  demo)  want="$base lua5.4 liblua5.4-dev" ;;
  love)  want="$base luajit libluajit-5.1-dev love" ;;
  bench) want="$base lua5.4 liblua5.4-dev luajit libluajit-5.1-dev" ;;
  test)  want="$base binutils clang libclang-rt-14-dev lua5.4 liblua5.4-dev luajit libluajit-5.1-dev
               lua5.1 liblua5.1-0-dev lua5.3 liblua5.3-dev lua-busted lua-check luarocks
               valgrind love xvfb xauth" ;;
  *) echo "deps.sh: unknown target '$1'" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing$missing"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
  echo "deps: missing packages:$missing" >&2
  echo "deps: run as root:  $cmd" >&2
  exit 1
fi
