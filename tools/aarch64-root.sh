#!/bin/sh
# The aarch64 Linux Luas for the replay suite (spec/suites/replay.sh): Debian's arm64 packages
# of Lua 5.1, 5.3, 5.4 and LuaJIT (interpreters, libraries, headers), unpacked into
# build/aarch64/root, run there under qemu-user (qemu-aarch64 -L /usr/aarch64-linux-gnu).
# Unpacked, not installed: an arm64 lua5.4 would replace the machine's own /usr/bin/lua5.4.
# Needs the arm64 architecture in dpkg (dpkg --add-architecture arm64 && apt-get update, as
# root: tools/deps.sh test does it). Usage: sh tools/aarch64-root.sh
set -eu
cd "$(dirname "$0")/.."
root=build/aarch64/root
[ -x "$root/usr/bin/lua5.4" ] && [ -x "$root/usr/bin/luajit" ] && exit 0
pkgs="lua5.1 liblua5.1-0 liblua5.1-0-dev lua5.3 liblua5.3-0 liblua5.3-dev lua5.4 liblua5.4-0
liblua5.4-dev luajit libluajit-5.1-2 libreadline8 libtinfo6"
dir=build/aarch64/debs
mkdir -p "$dir" "$root"
(cd "$dir" && for p in $pkgs; do apt-get download -q "$p:arm64" >/dev/null; done)
for d in "$dir"/*.deb; do dpkg-deb -x "$d" "$root"; done
echo "aarch64-root: $root holds $(ls "$root/usr/bin" | tr '\n' ' ')"
