#!/bin/sh
# tools/deps.sh decides what is missing from the commands and headers themselves, not from
# dpkg (issue 13, finding 17). Each case runs it with a PATH of its own: links to the real
# commands a target needs, a fake id (root or not), a fake apt-get that records its arguments
# (and "installs" by adding the command when asked to), and dpkg-query missing or lying.
#   - the tools there, dpkg-query absent or saying nothing is installed: nothing to install
#   - LÖVE installed outside apt (a love command dpkg does not know): counts as there
#   - love missing, not root: fails, printing the exact apt-get command for it alone
#   - love missing, root: apt-get installs exactly it, and the check passes after
#   - an install that does not provide the command: fails, saying what is still missing
#   - a compiler that cannot find the headers: their -dev packages are wanted
#   - a fresh system (root): what can be checked only after a first install (headers need
#     the compiler) is installed in a second round; a round with nothing new fails
# Then the deb-src entries the Windows build needs (`apt-get source luajit lua5.4`), with apt
# pointed at a fake root of its own (APT_CONFIG: Dir), in every layout of apt's sources:
#   - sources.list only (debootstrap's default), with and without a sources.list.d folder;
#     deb822 .sources only (Debian 12's images); both; a .list file: the deb-src lines mirror
#     exactly the Debian deb entries, apt-get update runs, apt-get source then works
#   - sources already there: nothing written; not root: the exact commands printed
#   - no Debian entry, no sources, apt-get update failing, apt-get source still failing, a
#     list that cannot be written, a tool failing underneath: each fails, saying why
# Last line: `deps: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
. spec/suites/lib/report.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The commands deps.sh itself runs, and those the demo and love targets want.
tools="cut uname cat grep sed awk chmod make cc gcc pkg-config lua5.4 luajit xvfb-run xauth tail rm
  mkdir tr apt-config"
for t in $tools; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "note: $t is not installed here; these cases need it"
    echo "deps: 0 passed, 0 failed"
    exit 0
  fi
done

# bin DIR [user]: a fresh PATH directory; "user" makes id say a non-root uid
bin() {
  rm -rf "$1"
  mkdir -p "$1"
  for t in $tools; do ln -s "$(command -v "$t")" "$1/$t"; done
  printf '#!/bin/sh\necho %s\n' "$([ "${2:-}" = user ] && echo 1000 || echo 0)" >"$1/id"
  # apt-get: records its arguments; "install" adds each package named as a command when
  # $1/provides says so (a package that really provides its command)
  cat >"$1/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$1/apt-get.log"
[ "\$1" = install ] || exit 0
for p in "\$@"; do
  case \$p in -*) continue ;; esac
  if [ -f "$1/provides" ] && grep -qxF -- "\$p" "$1/provides"; then
    printf '#!/bin/sh\necho fake\n' >"$1/\$p"; chmod +x "$1/\$p"
  fi
done
EOF
  chmod +x "$1/id" "$1/apt-get"
}

# lie DIR: a dpkg-query that says no package is installed
lie() {
  printf '#!/bin/sh\necho "unknown ok not-installed"\nexit 1\n' >"$1/dpkg-query"
  chmod +x "$1/dpkg-query"
}

# deps DIR TARGET: runs deps.sh with only DIR on PATH; sets $rc, $out (stdout and stderr)
deps() {
  out=$(cd "$root" && PATH=$1 CC=cc /bin/sh tools/deps.sh "$2" 2>&1)
  rc=$?
}

apt_calls() { cat "$1/apt-get.log" 2>/dev/null; }

# nothing_to_install TARGET WHAT: deps.sh TARGET with $b as PATH succeeds without apt-get
nothing_to_install() {
  deps "$b" "$1"
  if [ "$rc" -eq 0 ] && [ -z "$(apt_calls "$b")" ]; then
    ok "$2: nothing to install"
  else
    bad "$2 (status $rc)" "$out
apt-get: $(apt_calls "$b")"
  fi
}

b=$work/bin
# 1. no dpkg at all, every tool there
bin "$b"
nothing_to_install demo "no dpkg-query, the demo's tools there"

# 2. dpkg-query says nothing is installed
bin "$b"
lie "$b"
nothing_to_install demo "dpkg-query says nothing is installed, the tools are there"

# 3. LÖVE installed outside apt
bin "$b"
lie "$b"
printf '#!/bin/sh\necho "LOVE 11.4 (Mysterious Mysteries)"\n' >"$b/love"
chmod +x "$b/love"
nothing_to_install love "a love command dpkg does not know counts as LÖVE"

# 4. love missing, not root: the exact command, for love alone
bin "$b" user
deps "$b" love
want="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends love"
if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -qxF "deps: run as root:  $want" &&
   printf '%s\n' "$out" | grep -q '^deps: missing: love$' && [ -z "$(apt_calls "$b")" ]; then
  ok "love missing, not root: fails and prints the apt-get command for love alone"
else
  bad "love missing, not root (status $rc)" "$out"
fi

# 5. love missing, root: apt-get installs it, and then it is there
bin "$b"
echo love >"$b/provides"
deps "$b" love
if [ "$rc" -eq 0 ] && [ "$(apt_calls "$b" | grep '^install')" = "install -y -qq --no-install-recommends love" ] &&
   [ -x "$b/love" ]; then
  ok "love missing, root: apt-get installs love alone, and the check passes after"
else
  bad "love missing, root (status $rc)" "$out
apt-get: $(apt_calls "$b")"
fi

# 6. an install that does not provide the command
bin "$b"
deps "$b" love
if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q 'still missing: love'; then
  ok "an install that leaves love missing fails, saying so"
else
  bad "an install that does not provide love (status $rc)" "$out"
fi

# 7. headers the compiler cannot find
bin "$b" user
printf '#!/bin/sh\nexit 1\n' >"$b/nocc"
chmod +x "$b/nocc"
out=$(cd "$root" && PATH=$b CC=nocc /bin/sh tools/deps.sh demo 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q 'install -y --no-install-recommends libc6-dev liblua5.4-dev$'; then
  ok "headers that do not preprocess: libc6-dev and liblua5.4-dev are wanted"
else
  bad "missing headers (status $rc)" "$out"
fi

# 8. nothing there, root (a fresh system): the headers can be checked only once the compiler
# is in, so they come in a second round; the first round's packages are not asked again.
# The fake apt-get "installs" gcc as a compiler that finds headers once liblua5.4-dev is in.
bin "$b"
cat >"$b/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$b/apt-get.log"
[ "\$1" = install ] || exit 0
for p in "\$@"; do
  case \$p in
    gcc) printf '#!/bin/sh\n[ -f "$b/liblua5.4-dev" ]\n' >"$b/gcc"; chmod +x "$b/gcc" ;;
    liblua5.4-dev) : >"$b/liblua5.4-dev" ;;
  esac
done
EOF
chmod +x "$b/apt-get"
rm -f "$b/gcc"
out=$(cd "$root" && PATH=$b CC=gcc /bin/sh tools/deps.sh demo 2>&1)
rc=$?
calls=$(apt_calls "$b" | grep '^install')
if [ "$rc" -eq 0 ] && [ "$calls" = "install -y -qq --no-install-recommends gcc
install -y -qq --no-install-recommends libc6-dev liblua5.4-dev" ] &&
   [ "$(apt_calls "$b" | grep -c '^update')" = 1 ]; then
  ok "a fresh system: the compiler first, then the headers it finds missing, in a second round"
else
  bad "a fresh system, headers after the compiler (status $rc)" "$out
apt-get: $(apt_calls "$b")"
fi

# 9. a round that would only install the last rounds' packages again: fails, saying so
bin "$b"
cat >"$b/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$b/apt-get.log"
[ "\$1" = install ] || exit 0
printf '#!/bin/sh\nexit 1\n' >"$b/gcc"; chmod +x "$b/gcc"
EOF
chmod +x "$b/apt-get"
rm -f "$b/gcc"
out=$(cd "$root" && PATH=$b CC=gcc /bin/sh tools/deps.sh demo 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && printf '%s\n' "$out" |
     grep -q '^deps: installed gcc libc6-dev liblua5.4-dev, but still missing: C-headers lua5.4-headers$' &&
   [ "$(apt_calls "$b" | grep -c '^install')" = 2 ]; then
  ok "headers still missing after installing their packages: fails after two rounds, saying so"
else
  bad "headers never found (status $rc)" "$out
apt-get: $(apt_calls "$b")"
fi

# ---- deb-src entries, in every layout of apt's sources ----------------------------------
# A fake root for apt (APT_CONFIG sets Dir: apt-config, which deps.sh asks, answers there).
# The fake apt-get's "source" works once sat-deb-src.list exists (unless $b/source-fails),
# or from the start when $b/source-ok; "update" fails when $b/update-fails.
r=$work/root
mkdir -p "$work/tree" # deps.sh runs from a folder without build/windows-x64/src
fresh_root() { # fresh_root [no-parts]: etc/apt with an empty sources.list.d (or none)
  rm -rf "$r"
  mkdir -p "$r/etc/apt/apt.conf.d"
  [ "${1:-}" = no-parts ] || mkdir -p "$r/etc/apt/sources.list.d"
  printf 'Dir "%s/";\n' "$r" >"$work/apt.conf"
}
parts=$r/etc/apt/sources.list.d
winbin() { # winbin [user]: bin, plus the windows target's commands as stubs
  bin "$b" "${1:-}"
  for t in x86_64-w64-mingw32-gcc x86_64-w64-mingw32-objdump dpkg-source wine file; do
    printf '#!/bin/sh\nexit 0\n' >"$b/$t"
    chmod +x "$b/$t"
  done
  cat >"$b/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$b/apt-get.log"
case \$1 in
  update) [ -f "$b/update-fails" ] && { echo "E: fake update failure"; exit 100; }; exit 0 ;;
  source) [ -f "$b/source-ok" ] && exit 0
          [ -f "$parts/sat-deb-src.list" ] && [ ! -f "$b/source-fails" ] && exit 0
          echo "E: You must put some 'deb-src' URIs in your sources.list"; exit 100 ;;
esac
EOF
  chmod +x "$b/apt-get"
}
windeps() { # runs deps.sh windows from $work/tree with $b as PATH and the fake root
  out=$(cd "$work/tree" && PATH=$b CC=cc APT_CONFIG=$work/apt.conf /bin/sh "$root/tools/deps.sh" windows 2>&1)
  rc=$?
}
listed() { cat "$parts/sat-deb-src.list" 2>/dev/null; }

LIST='deb http://deb.debian.org/debian bookworm main
deb http://security.debian.org/debian-security bookworm-security main
# deb http://deb.debian.org/debian bookworm-backports main
deb https://example.com/other stable main'
LIST_SRC='deb-src http://deb.debian.org/debian bookworm main
deb-src http://security.debian.org/debian-security bookworm-security main'
SOURCES='Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: https://example.com/other
Suites: stable
Components: main'
K='[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]'
SOURCES_SRC="deb-src $K http://deb.debian.org/debian bookworm main
deb-src $K http://deb.debian.org/debian bookworm-updates main
deb-src $K http://deb.debian.org/debian-security bookworm-security main"
CALLS='source --print-uris -qq luajit lua5.4
update -qq
source --print-uris -qq luajit lua5.4'

# layout NAME WANT-LINES: as root, deps.sh adds exactly WANT-LINES, updates, and succeeds
layout() {
  windeps
  if [ "$rc" -eq 0 ] && [ "$(listed)" = "$2" ] && [ "$(apt_calls "$b")" = "$CALLS" ] &&
     printf '%s\n' "$out" | grep -qF "deps: adding deb-src entries ($parts/sat-deb-src.list)"; then
    ok "$1: sat-deb-src.list mirrors the Debian deb entries, apt-get source then works"
  else
    bad "$1 (status $rc)" "$out
list:
$(listed)
apt-get: $(apt_calls "$b")"
  fi
}

winbin; fresh_root
printf '%s\n' "$LIST" >"$r/etc/apt/sources.list"
layout "sources.list only" "$LIST_SRC"

winbin; fresh_root no-parts
printf '%s\n' "$LIST" >"$r/etc/apt/sources.list"
layout "sources.list only, no sources.list.d folder" "$LIST_SRC"

winbin; fresh_root
printf '%s\n' "$SOURCES" >"$parts/debian.sources"
layout "deb822 .sources only" "$SOURCES_SRC"

winbin; fresh_root
printf '%s\n' "$LIST" >"$r/etc/apt/sources.list"
printf '%s\n' "$SOURCES" >"$parts/debian.sources"
layout "sources.list and deb822 .sources" "$LIST_SRC
$SOURCES_SRC"

winbin; fresh_root
printf '%s\n' "$LIST" >"$parts/mirror.list"
layout "a .list file in sources.list.d only" "$LIST_SRC"

# deb-src already usable: nothing written, no update
winbin; fresh_root
printf '%s\n' "$LIST" >"$r/etc/apt/sources.list"
: >"$b/source-ok"
windeps
if [ "$rc" -eq 0 ] && [ -z "$(listed)" ] && [ "$(apt_calls "$b")" = "source --print-uris -qq luajit lua5.4" ]; then
  ok "apt-get source already works: nothing written, nothing updated"
else
  bad "apt-get source already works (status $rc)" "$out"
fi

# not root: the exact commands, nothing written
winbin user; fresh_root
printf '%s\n' "$SOURCES" >"$parts/debian.sources"
windeps
quoted=$(printf '%s\n' "$SOURCES_SRC" | sed "s/.*/'&'/" | tr '\n' ' ')
if [ "$rc" -ne 0 ] && [ -z "$(listed)" ] &&
   printf '%s\n' "$out" | grep -qxF "deps:   printf '%s\n' $quoted>$parts/sat-deb-src.list && apt-get update"; then
  ok "not root: fails, printing the printf and apt-get update that add the entries"
else
  bad "not root (status $rc)" "$out"
fi

# fails WHAT TEXT: deps.sh failed, printing TEXT
fails() {
  if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -qF -- "$2"; then
    ok "$1: fails, saying '$2'"
  else
    bad "$1: fails saying '$2' (status $rc)" "$out"
  fi
}

for user in "" user; do
  winbin $user; fresh_root
  printf '%s\n' 'deb https://example.com/other stable main' >"$r/etc/apt/sources.list"
  windeps
  fails "no Debian entry${user:+, not root}" "no Debian 'deb' entry was found to mirror in $r/etc/apt/sources.list"
done
for dir in "" no-parts; do
  winbin; fresh_root $dir
  windeps
  fails "no sources at all${dir:+, no sources.list.d}" "add a deb-src line for Debian's archive to $r/etc/apt/sources.list"
done

winbin; fresh_root
printf '%s\n' "$LIST" >"$r/etc/apt/sources.list"
: >"$b/update-fails"
windeps
fails "apt-get update failing" "E: fake update failure"
fails "apt-get update failing" "deps: apt-get update failed (above) with the deb-src entries of $parts/sat-deb-src.list"

winbin; fresh_root
printf '%s\n' "$LIST" >"$r/etc/apt/sources.list"
: >"$b/source-fails"
windeps
fails "apt-get source failing after the entries" "apt-get source still finds no luajit or lua5.4"

winbin; fresh_root no-parts
printf '%s\n' "$LIST" >"$r/etc/apt/sources.list"
: >"$parts" # a file where the folder should be
windeps
fails "sources.list.d a file" "deps: cannot write $parts/sat-deb-src.list"

# a tool failing underneath (awk on a .sources file): the safety net says where it stopped
winbin; fresh_root
printf '%s\n' "$SOURCES" >"$parts/debian.sources"
rm "$b/awk"
printf '#!/bin/sh\nexit 2\n' >"$b/awk"
chmod +x "$b/awk"
windeps
fails "awk failing" "deps: stopped (exit 2) while reading apt's sources"

echo "deps: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
