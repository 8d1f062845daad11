#!/bin/sh
# Runs the SAT explorer's scripted mode (examples/explorer, SAT_EXPLORER_AUTO=1) headless under
# xvfb-run and checks its log: every frame played; on each, sat.explain's verdict and numbers
# were sat.collide's; the shapes were apart, then dragged into each other (a hit, with
# contacts), and every kind was shown on both sides; swapping a and b kept the axes; no Lua
# error; and the screenshot exists and is a picture (not a blank window). Then the same run on
# the pure-Lua backend (SAT_BACKEND=lua): every frame's line equal to the native run's.
# Writes build/explorer/explorer.log and build/explorer/explorer.png.
# LÖVE is optional for the library: without love or xvfb-run this suite reports 0 and 0.
# Last line: `explorer: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/love.sh
. spec/suites/lib/limit.sh
need_love explorer

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
notok() { fail=$((fail + 1)); echo "not ok $1 - $2"; }

out=build/explorer
mkdir -p "$out" build/logs
rm -f "$out/explorer.log" "$out/explorer.png"

love_build explorer

# XDG_DATA_HOME keeps LÖVE's save directory inside build/.
# A run that spins or blocks is stopped (120 s of processor time, 120 idle rounds: see
# lib/limit.sh), however loaded the machine.
limited 120 120 env SAT_ROOT="$(pwd)" SAT_EXPLORER_AUTO=1 SAT_EXPLORER_OUT="$(pwd)/$out" \
  XDG_DATA_HOME="$(pwd)/$out/xdg" xvfb-run -a love examples/explorer --auto \
  >build/logs/explorer-run.log 2>&1
rc=$?
log=$out/explorer.log
love_ran explorer "$rc" "$log"

# frame N step S a KIND b KIND hit H axes N deciding K overlap X contacts C agrees|DIFFERS
differs=$(grep '^frame ' "$log" | grep -vc ' agrees$')
got=$(grep -c "^frame " "$log")
if [ "$got" -gt 0 ] && [ "$differs" -eq 0 ]; then
  ok "on every frame the explanation is sat.collide's result, bit for bit"
else
  notok "the explanation is sat.collide's result" "$differs frames differ: $(grep -m 1 DIFFERS "$log")"
fi

res=$(awk '
  $1 != "frame" { next }
  $4 == "apart" && $10 == 0 && $18 == 0 { apart++ }
  $4 == "drag" { last = $10; lastc = $18 }
  $10 == 1 && $18 < 1 { nocontact = nocontact " " $2 }
  $10 == 0 && $18 != 0 { strayc = strayc " " $2 }
  { a[$6] = 1; b[$8] = 1 }
  END {
    na = 0; nb = 0
    for (k in a) na++
    for (k in b) nb++
    if (apart < 5) { print "only " apart + 0 " apart frames at the start"; exit }
    if (last != 1 || lastc < 1) { print "the drag did not end in a hit with contacts"; exit }
    if (nocontact != "") { print "hits without contacts at frames" nocontact; exit }
    if (strayc != "") { print "contacts while apart at frames" strayc; exit }
    if (na < 7 || nb < 7) { print "kinds shown: a " na ", b " nb " of 7"; exit }
    print "ok"
  }' "$log")
case $res in
  ok) ok "apart, then dragged into a hit with contacts; every kind on both sides" ;;
  *) notok "apart, dragged into a hit, every kind" "$res" ;;
esac

# Swapping a and b: the same number of axes and the same deciding one, the kinds swapped.
res=$(awk '
  $1 != "frame" { next }
  $4 == "kinds-a" { before = $12 " " $14 " " $10; ka = $6; kb = $8 }
  $4 == "swap" && !seen { seen = 1; after = $12 " " $14 " " $10; sa = $6; sb = $8 }
  END {
    if (!seen) { print "no swap frame"; exit }
    if (before != after) { print "axes, deciding, hit " before " before, " after " swapped"; exit }
    if (sa != kb || sb != ka) { print "kinds " ka "/" kb " then " sa "/" sb; exit }
    print "ok"
  }' "$log")
case $res in
  ok) ok "swapping a and b keeps the axes and the verdict" ;;
  *) notok "swapping a and b keeps the axes" "$res" ;;
esac

love_screenshot "$out/explorer.png" "$log"

# The same scripted run on the pure-Lua backend (SAT_BACKEND=lua): its log, every frame's
# explanation and numbers, equals the native run's line for line.
plog=$out/explorer-pure.log
if [ "$(sed -n 's/^start .* backend \([a-z]*\) .*/\1/p' "$log")" = native ]; then
  ok "the first run is on the native backend"
else
  notok "the first run is on the native backend" "$(head -n 1 "$log")"
fi
mkdir -p "$out/pure"
SAT_BACKEND=lua SAT_ROOT=$(pwd) SAT_EXPLORER_AUTO=1 SAT_EXPLORER_OUT=$(pwd)/$out/pure \
  XDG_DATA_HOME=$(pwd)/$out/xdg timeout 120 xvfb-run -a love examples/explorer --auto \
  >build/logs/explorer-pure-run.log 2>&1
rc=$?
cp "$out/pure/explorer.log" "$plog" 2>/dev/null || : >"$plog"
if [ "$rc" -eq 0 ] && [ "$(sed -n 's/^start .* backend \([a-z]*\) .*/\1/p' "$plog")" = lua ]; then
  ok "the pure backend's run finishes (SAT_BACKEND=lua)"
else
  notok "the pure backend's run finishes (SAT_BACKEND=lua)" "exit $rc: $(head -n 1 "$plog"; tail -n 5 build/logs/explorer-pure-run.log)"
fi
if grep '^frame ' "$log" >"$out/native.frames" && grep '^frame ' "$plog" >"$out/pure.frames" &&
   cmp -s "$out/native.frames" "$out/pure.frames"; then
  ok "on the pure backend every frame's log line is the native one's ($(wc -l <"$out/pure.frames") frames)"
else
  notok "on the pure backend every frame's log line is the native one's" \
    "$(diff "$out/native.frames" "$out/pure.frames" | head -n 6)"
fi

echo "explorer: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
