#!/bin/sh
# The path a new user takes on a fresh Debian, in a chroot (issue 25, finding 16): a
# debootstrapped system whose apt sources are only /etc/apt/sources.list (debootstrap's
# default, as on many VMs), a clone of this checkout's HEAD in /root/sat, and there, as root:
#   1. sh tools/deps.sh test   installs everything make test needs, from nothing (make and
#                              the compiler included), and the deb-src entries of the
#                              Windows build
#   2. sh tools/deps.sh test   again: nothing left to install
#   3. make demo               builds the module and runs the demo
#   4. sh spec/suites/deps.sh  the deps suite, on that system
# Each step's output goes to DIR.logs/<n>-<step>.log; a summary is printed at the end, and the
# script fails at the first step that does.
#
# Usage, as root on Debian or Ubuntu with the Debian mirror reachable:
#   sh tools/fresh-chroot.sh [DIR]          DIR: /srv/chroot unless given
# FRESH_SUITE (bookworm) and FRESH_MIRROR (http://deb.debian.org/debian) pick the system.
# debootstrap runs once, into DIR.base (kept: about 300 MB); each run starts from a fresh
# copy of it in DIR. Only committed work is cloned. rm -rf DIR DIR.base DIR.logs cleans up.
set -eu

dir=${1:-/srv/chroot}
suite=${FRESH_SUITE:-bookworm}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
root=$(cd "$(dirname "$0")/.." && pwd)
base=$dir.base
logs=$dir.logs

say() { printf 'fresh-chroot: %s\n' "$*"; }
die() { printf 'fresh-chroot: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null 2>&1 ||
  die "debootstrap is missing: apt-get install debootstrap"
command -v git >/dev/null 2>&1 || die "git is missing"

if [ ! -f "$base/.sat-base-complete" ]; then
  say "debootstrap $suite $base $mirror (once; the base is kept)"
  rm -rf "$base"
  mkdir -p "$(dirname "$base")"
  debootstrap "$suite" "$base" "$mirror" >"$base.debootstrap.log" 2>&1 ||
    die "debootstrap failed; see $base.debootstrap.log"
  touch "$base/.sat-base-complete"
fi

mounted=""
cleanup() {
  for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

say "a fresh copy of $base in $dir"
# A run stopped before its cleanup leaves /proc mounted in the old copy: rm -rf must not
# walk into it.
for m in $(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts); do
  umount -l "$m" || die "$m is mounted and cannot be unmounted"
done
rm -rf "$dir"
cp -a "$base" "$dir"
rm -f "$dir/.sat-base-complete"
rm -rf "$logs"
mkdir -p "$logs"

# The layout this is about: sources.list alone.
say "apt's sources: $(cd "$dir/etc/apt" && ls -d sources.list sources.list.d/* 2>/dev/null | tr '\n' ' ')"
[ -f "$dir/etc/apt/sources.list" ] || die "no sources.list in the new system"
if ls "$dir"/etc/apt/sources.list.d/*.list "$dir"/etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
  die "the new system has files in sources.list.d: not the layout under test"
fi
sed 's/^/fresh-chroot:   sources.list: /' "$dir/etc/apt/sources.list"

head=$(git -C "$root" rev-parse HEAD)
say "cloning $root at $(git -C "$root" log -1 --format='%h %s' | cut -c1-60) into $dir/root/sat"
git clone -q --no-hardlinks "$root" "$dir/root/sat"
git -C "$dir/root/sat" checkout -q "$head"
[ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ] ||
  say "note: $root has uncommitted changes, which are not in the clone"

cp /etc/resolv.conf "$dir/etc/resolv.conf"
if mount -t proc proc "$dir/proc"; then
  mounted="$dir/proc"
else
  say "note: /proc could not be mounted in the chroot; going on without it"
fi

# step N NAME COMMAND: runs COMMAND in the chroot, in /root/sat, with a clean environment
step() {
  n=$1 name=$2 cmd=$3
  log=$logs/$n-$name.log
  say "step $n: $cmd"
  start=$(date +%s)
  if chroot "$dir" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
       PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
       sh -c "cd /root/sat && $cmd" >"$log" 2>&1; then
    say "step $n: ok ($(($(date +%s) - start)) s); last lines of $log:"
    tail -n 4 "$log" | sed 's/^/fresh-chroot:   | /'
  else
    rc=$?
    say "step $n FAILED (exit $rc); last lines of $log:"
    tail -n 25 "$log" | sed 's/^/fresh-chroot:   | /'
    exit 1
  fi
}

step 1 deps "sh tools/deps.sh test"
say "added by deps.sh: $(ls "$dir/etc/apt/sources.list.d" | tr '\n' ' ')"
step 2 deps-again "sh tools/deps.sh test && echo 'deps: nothing to install'"
step 3 demo "make demo"
step 4 deps-suite "sh spec/suites/deps.sh"
say "all steps passed on a fresh $suite with only sources.list (logs: $logs)"
