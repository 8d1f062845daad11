#!/bin/sh
# Checks that what a make target needs is there by looking for the commands and headers
# themselves (so tools installed without dpkg, or on a system without it, count). What is
# missing is installed with apt-get when run as root; otherwise the exact command is printed
# and the script fails. Run from the checkout's root (make does).
# Usage: sh tools/deps.sh test|demo|love|bench|dist|dist-linux|windows|lua [LUA]
#   lua LUA   building and running the module for LUA (make repl)
#   dist, windows and test also need the Debian sources of LuaJIT and Lua 5.4 for the Windows
#   build (make windows): a deb-src entry, added as root when there is none.
set -eu

target=${1:-test}
missing=""   # the Debian packages of what is missing, each once
what=""      # what is missing, for the message

# want PACKAGES LABEL TEST...: when TEST fails, LABEL is missing and PACKAGES provide it.
want() {
  pkgs=$1
  label=$2
  shift 2
  "$@" >/dev/null 2>&1 && return 0
  what="$what $label"
  for p in $pkgs; do
    case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac
  done
}

have() { command -v "$1"; }
need_cmd() { want "$2" "$1" have "$1"; } # COMMAND PACKAGES

# The headers preprocess with these flags (as the Makefile compiles).
headers() { # FLAGS HEADER...
  flags=$1
  shift
  for h in "$@"; do printf '#include <%s>\n' "$h"; done |
    ${CC:-cc} $flags -E -x c - -o /dev/null
}

# The Makefile's LUA_INC for a Lua: pkg-config first, Debian's include dir otherwise.
lua_flags() { pkg-config --cflags "$1" 2>/dev/null || echo "-I/usr/include/$1"; }

need_base() {
  need_cmd make make
  need_cmd "${CC:-cc}" gcc
  need_cmd pkg-config pkg-config
  if have "${CC:-cc}" >/dev/null; then
    want libc6-dev "C-headers" headers "" stdio.h math.h stdint.h
  fi
}

need_lua() { # LUA: the interpreter and its headers
  case $1 in
    luajit) dev=libluajit-5.1-dev ;;
    lua5.1) dev=liblua5.1-0-dev ;;
    lua5.[234]) dev=lib$1-dev ;;
    *) echo "deps.sh: unknown Lua '$1'" >&2; exit 2 ;;
  esac
  need_cmd "$1" "$1"
  if have "${CC:-cc}" >/dev/null; then
    want "$dev" "$1-headers" headers "$(lua_flags "$1")" lua.h lauxlib.h
  fi
}

# clang's libFuzzer runtime, in clang's resource directory (its layout differs by version).
fuzzer_runtime() {
  dir=$(clang -print-resource-dir)
  arch=$(uname -m)
  [ -f "$dir/lib/linux/libclang_rt.fuzzer-$arch.a" ] ||
    [ -f "$dir/lib/$arch-unknown-linux-gnu/libclang_rt.fuzzer.a" ]
}

need_fuzz() {
  need_cmd clang clang
  if have clang >/dev/null; then
    want "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev" libFuzzer fuzzer_runtime
  fi
}

need_love() {
  need_cmd love love
  need_cmd xvfb-run xvfb
  need_cmd xauth xauth
}

need_windows() {
  need_cmd x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
  need_cmd dpkg-source dpkg-dev
}

need_zip() {
  need_cmd zip zip
  need_cmd unzip unzip
}

check() {
  missing=""
  what=""
  case $target in
    demo)  need_base; need_lua lua5.4 ;;
    love)  need_base; need_lua luajit; need_love ;;
    bench) need_base; need_lua lua5.4; need_lua luajit ;;
    lua)   need_base; need_lua "${2:-lua5.4}" ;;
    dist-linux) need_base; need_lua luajit; need_lua lua5.4; need_zip ;;
    dist)  need_base; need_lua luajit; need_lua lua5.4; need_zip; need_windows ;;
    windows)
      need_base; need_windows
      need_cmd wine "wine wine64"
      need_cmd x86_64-w64-mingw32-objdump binutils-mingw-w64-x86-64
      need_cmd file file ;;
    test)
      need_base
      for l in lua5.4 luajit lua5.1 lua5.3; do need_lua "$l"; done
      need_cmd nm binutils
      need_fuzz
      need_cmd busted lua-busted
      need_cmd luacheck lua-check
      need_cmd luarocks luarocks
      need_cmd valgrind valgrind
      need_love
      need_zip
      need_windows
      need_cmd wine "wine wine64"
      need_cmd x86_64-w64-mingw32-objdump binutils-mingw-w64-x86-64
      need_cmd file file
      need_cmd qemu-aarch64 qemu-user           # the replay suite's aarch64 part
      need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu ;;
    *) echo "deps.sh: unknown target '$target'" >&2; exit 2 ;;
  esac
}

root() { [ "$(id -u)" = 0 ] && have apt-get >/dev/null; }

check "$@"
if [ -n "$missing" ]; then
  if root; then
    echo "deps: missing$what: installing$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    installed=$missing
    check "$@"
    if [ -n "$missing" ]; then
      echo "deps: installed$installed, but still missing:$what" >&2
      exit 1
    fi
  else
    echo "deps: missing:$what" >&2
    echo "deps: run as root:  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing" >&2
    exit 1
  fi
fi

# ---- the Debian sources the Windows build cross-compiles --------------------------------
# The replay suite's aarch64 Luas (tools/aarch64-root.sh): Debian's arm64 packages, unpacked.
if [ "$target" = test ] && have dpkg >/dev/null && have apt-get >/dev/null; then
  if [ "$(id -u)" = 0 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64 && apt-get update -qq
  fi
  sh "$(dirname "$0")/aarch64-root.sh" || echo "deps: tools/aarch64-root.sh failed (the replay suite skips aarch64)" >&2
fi

case $target in dist | windows | test) ;; *) exit 0 ;; esac
[ -f build/windows-x64/src/luajit/src/lua.h ] && [ -f build/windows-x64/src/lua5.4/src/lua.h ] &&
  exit 0
have apt-get >/dev/null || exit 0 # another system: make windows WIN_LUAJIT_SRC=... WIN_LUA54_SRC=...
apt-get source --print-uris -qq luajit lua5.4 >/dev/null 2>&1 && exit 0

# deb-src lines mirroring the Debian deb entries, from both formats of apt's sources.
deb_src_lines() {
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^deb\([[:space:]].*debian.*\)$/deb-src\1/p' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && awk '
      function flush() {
        if (types ~ /(^| )deb( |$)/ && uris ~ /debian/) {
          n = split(uris, u, " "); m = split(suites, s, " ")
          for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
            print "deb-src " (key != "" ? "[signed-by=" key "] " : "") u[i] " " s[j] " " comps
        }
        types = uris = suites = comps = key = ""
      }
      /^[[:space:]]*$/ { flush(); next }
      /^Types:/ { sub(/^Types:[[:space:]]*/, ""); types = $0 }
      /^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); uris = $0 }
      /^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
      /^Components:/ { sub(/^Components:[[:space:]]*/, ""); comps = $0 }
      /^Signed-By:/ { sub(/^Signed-By:[[:space:]]*/, ""); key = $0 }
      END { flush() }' "$f"
  done
}

list=/etc/apt/sources.list.d/sat-deb-src.list
lines=$(deb_src_lines)
if root && [ ! -e "$list" ] && [ -n "$lines" ]; then
  echo "deps: adding deb-src entries ($list) for apt-get source luajit lua5.4"
  printf '%s\n' "$lines" >"$list"
  apt-get update -qq
  apt-get source --print-uris -qq luajit lua5.4 >/dev/null && exit 0
fi
echo "deps: apt-get source luajit lua5.4 (the Windows build) needs deb-src entries; as root:" >&2
if [ -n "$lines" ]; then
  quoted=$(printf '%s\n' "$lines" | sed "s/.*/'&'/" | tr '\n' ' ')
  printf '%s\n' "deps:   printf '%s\\n' $quoted>$list && apt-get update" >&2
else
  echo "deps:   add a deb-src line for Debian's archive to /etc/apt/sources.list and apt-get update" >&2
fi
echo "deps: (or: make windows WIN_LUAJIT_SRC=<dir> WIN_LUA54_SRC=<dir>, with those source trees)" >&2
exit 1
