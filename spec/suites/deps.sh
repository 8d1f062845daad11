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
# Last line: `deps: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
. spec/suites/lib/report.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The commands deps.sh itself runs, and those the demo and love targets want.
tools="cut uname cat grep sed awk chmod make cc gcc pkg-config lua5.4 luajit xvfb-run xauth"
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

echo "deps: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
