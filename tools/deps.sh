#!/bin/sh
# Checks that what a make target needs is there by looking for the commands and headers
# themselves (so tools installed without dpkg, or on a system without it, count). What is
# missing is installed with apt-get when run as root; otherwise the exact command is printed
# and the script fails. Run from the checkout's root (make does).
# Usage: sh tools/deps.sh test|demo|love|bench|dist|dist-linux|windows|lua [LUA]
#   lua LUA   building and running the module for LUA (make repl)
#   dist, windows and test also need the Debian sources of LuaJIT and Lua 5.4 for the Windows
#   build (make windows): a deb-src entry, added as root when there is none.
# Every failure says why on stderr: what is missing and the command that installs it, the
# output of an apt-get that failed, or (for anything unforeseen) what the script was doing.
set -eu

target=${1:-test}
said=""      # set once the reason of a failure has been printed
doing="checking what $target needs"
trap 'deps_rc=$?; [ "$deps_rc" -eq 0 ] || [ -n "$said" ] ||
  echo "deps: stopped (exit $deps_rc) while $doing" >&2' EXIT

# fail LINE...: prints the lines on stderr and stops.
fail() {
  printf '%s\n' "$@" >&2
  said=yes
  exit 1
}

# quietly COMMAND...: runs it with its output kept aside; when it fails, prints the command,
# its status and the end of its output, and returns its status.
quietly() {
  q_log=${TMPDIR:-/tmp}/sat-deps.$$
  q_rc=0
  "$@" >"$q_log" 2>&1 || q_rc=$?
  if [ "$q_rc" -ne 0 ]; then
    echo "deps: '$*' failed (exit $q_rc):" >&2
    tail -n 15 "$q_log" | sed 's/^/deps:   /' >&2
    said=yes
  fi
  rm -f "$q_log"
  return "$q_rc"
}
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

# the web suite: love.js and puppeteer-core come from npm (into build/web/npm, on first use)
need_web() {
  need_cmd node nodejs
  need_cmd npm npm
  need_cmd chromium chromium
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
    bench) need_base; need_lua lua5.4; need_lua luajit; need_lua lua5.1 ;;
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
      need_web
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
    # In rounds: some needs show only once others are met (headers are checked with the C
    # compiler, libFuzzer's package is named after clang's version), so a system with
    # nothing installs the rest in a second round. A round that would install only what
    # was installed already fails.
    DEBIAN_FRONTEND=noninteractive
    export DEBIAN_FRONTEND
    installed=""
    updated=""
    while [ -n "$missing" ]; do
      new=""
      for p in $missing; do
        case " $installed " in *" $p "*) ;; *) new="$new $p" ;; esac
      done
      [ -n "$new" ] || fail "deps: installed$installed, but still missing:$what"
      echo "deps: missing$what: installing$new"
      doing="installing$new"
      if [ -z "$updated" ]; then
        quietly apt-get update -qq || fail "deps: apt-get update failed (above): check the network and /etc/apt's sources"
        updated=1
      fi
      quietly apt-get install -y -qq --no-install-recommends $new ||
        fail "deps: could not install$new (above)"
      installed="$installed$new"
      doing="checking again after installing$installed"
      check "$@"
    done
  else
    fail "deps: missing:$what" \
      "deps: run as root:  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
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
doing="asking apt-get source for luajit and lua5.4"
sources() { apt-get source --print-uris -qq luajit lua5.4 >/dev/null 2>&1; }
sources && exit 0

# Where apt reads its sources: apt-config's answer (so APT_CONFIG and Dir::Etc settings
# count), else Debian's defaults. Either layout, both or none may be there: sources.list
# (debootstrap's default, many VMs), *.list and deb822 *.sources files in sources.list.d.
doing="reading apt's sources"
sourcelist=/etc/apt/sources.list
sourceparts=/etc/apt/sources.list.d
if have apt-config >/dev/null; then
  eval "$(apt-config shell sourcelist Dir::Etc::sourcelist/f sourceparts Dir::Etc::sourceparts/d \
    2>/dev/null || true)"
fi
sourceparts=${sourceparts%/}

# deb-src lines mirroring the Debian deb entries, from both formats (nothing when there are
# none: a glob that matches no file is skipped, never a failure).
deb_src_lines() {
  for f in "$sourcelist" "$sourceparts"/*.list; do
    if [ -f "$f" ]; then
      sed -n 's/^deb\([[:space:]].*debian.*\)$/deb-src\1/p' "$f"
    fi
  done
  for f in "$sourceparts"/*.sources; do
    if [ -f "$f" ]; then
      awk '
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
    fi
  done
  return 0
}

list=$sourceparts/sat-deb-src.list
lines=$(deb_src_lines)
if root && [ -n "$lines" ]; then
  if [ ! -e "$list" ]; then
    echo "deps: adding deb-src entries ($list) for apt-get source luajit lua5.4"
    doing="writing $list"
    mkdir -p "$sourceparts" 2>/dev/null || true
    printf '%s\n' "$lines" 2>/dev/null >"$list" || fail "deps: cannot write $list"
  fi
  doing="updating apt's lists for the deb-src entries"
  quietly apt-get update -qq ||
    fail "deps: apt-get update failed (above) with the deb-src entries of $list"
  sources && exit 0
  doing="asking apt-get source for luajit and lua5.4"
  quietly apt-get source --print-uris -qq luajit lua5.4 ||
    fail "deps: with the deb-src entries of $list, apt-get source still finds no luajit or lua5.4 (above)"
  exit 0
fi
if [ -z "$lines" ]; then
  fail "deps: apt-get source luajit lua5.4 (the Windows build) needs deb-src entries, and no Debian 'deb' entry was found to mirror in $sourcelist or $sourceparts/*.list, *.sources; as root:" \
    "deps:   add a deb-src line for Debian's archive to $sourcelist and apt-get update" \
    "deps: (or: make windows WIN_LUAJIT_SRC=<dir> WIN_LUA54_SRC=<dir>, with those source trees)"
fi
quoted=$(printf '%s\n' "$lines" | sed "s/.*/'&'/" | tr '\n' ' ')
fail "deps: apt-get source luajit lua5.4 (the Windows build) needs deb-src entries; as root:" \
  "deps:   printf '%s\\n' $quoted>$list && apt-get update" \
  "deps: (or: make windows WIN_LUAJIT_SRC=<dir> WIN_LUA54_SRC=<dir>, with those source trees)"
