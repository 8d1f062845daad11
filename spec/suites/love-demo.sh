#!/bin/sh
# Runs the LÖVE demo's scripted mode (examples/love, SAT_DEMO_AUTO=1) headless under xvfb-run
# and checks its log: the player really collided with a wall and slid along it, slid along
# a slope, crossed a sensor zone (enter and exit fired), as a capsule slid along a segment
# from below and from above, the stress mode ran, no Lua error happened, and the screenshot
# exists and is a picture (not a blank window). Then the same on the pure-Lua backend
# (SAT_BACKEND=lua), once it has compounds.
# Writes build/love-demo/demo.log and build/love-demo/demo.png.
# LÖVE is optional for the library: without love or xvfb-run this suite reports 0 and 0.
# Last line: `love-demo: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/love.sh
. spec/suites/lib/limit.sh
need_love love-demo

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
notok() { fail=$((fail + 1)); echo "not ok $1 - $2"; }

out=build/love-demo
mkdir -p "$out" build/logs
rm -f "$out/demo.log" "$out/demo.png"

love_build love-demo

# XDG_DATA_HOME keeps LÖVE's save directory inside build/ instead of ~/.local/share/love.
# A run that spins or blocks is stopped (300 s of processor time, 120 idle rounds: see
# lib/limit.sh), however loaded the machine.
limited 300 120 env SAT_ROOT="$(pwd)" SAT_DEMO_AUTO=1 SAT_DEMO_OUT="$(pwd)/$out" \
  XDG_DATA_HOME="$(pwd)/$out/xdg" xvfb-run -a love examples/love --auto \
  >build/logs/love-demo-run.log 2>&1
rc=$?
log=$out/demo.log
love_ran love-demo "$rc" "$log"

# The checks of one run's log ($log); run for the native backend, then for the pure one.
demo_checks() {
# Sliding along a wall. The box goes diagonally (right and down) into wall-mid, a vertical
# wall. On the frames where world:move reports wall-mid with a normal pointing at it (+x),
# the player must stay left of the wall's face, keep its x, and keep going down.
res=$(awk '
  $1 == "level" && $2 == "wall-mid" { wx1 = $5; wy1 = $6; wy2 = $8 }
  $1 == "hit" && $3 == "wall-mid" && $5 > 0.99 && ($6 < 0 ? -$6 : $6) < 0.01 { hit[$2] = 1 }
  $1 == "frame" && $4 == "slide" {
    if (first == "") { first = $2; x0 = $8 }
    if (hit[$2]) {
      n++
      if (n == 1) { cx = $8; cy = $10 }
      lx = $8; ly = $10
      if ($14 > maxx2) maxx2 = $14
      if ($14 > wx1 + 0.01) inside = inside " frame " $2 " right edge " $14
      if ($13 > wy2 || $15 < wy1) beside = beside " " $2
      d = $8 - cx; if (d < 0) d = -d; if (d > dx) dx = d
    }
  }
  END {
    if (wx1 == "") { print "no level line for wall-mid"; exit }
    if (n < 10) { print "only " n + 0 " frames in contact with wall-mid"; exit }
    if (cx - x0 < 20) { print "did not move toward the wall first (x " x0 " -> " cx ")"; exit }
    if (inside != "") { print "inside the wall (face at x " wx1 "):" inside; exit }
    if (beside != "") { print "not beside the wall at frames" beside; exit }
    if (dx > 0.5) { print "x moved " dx " while against the wall"; exit }
    if (ly - cy < 20) { print "slid only " ly - cy " along the wall"; exit }
    printf "ok %d frames against the wall, slid %.1f down, x %.2f, right edge <= %.4f (face %s)\n", n, ly - cy, lx, maxx2, wx1
  }' "$log")
case $res in
  ok*) ok "slides along a wall: ${res#ok }" ;;
  *) notok "slides along a wall" "$res" ;;
esac

# Sliding along a 45 degree slope: holding only "down", the polygon meets slope-45 (a
# triangle below-left of it) and must move down-right along it, with the normal toward it.
res=$(awk '
  $1 == "hit" && $3 == "slope-45" && $5 < -0.69 && $5 > -0.72 && $6 > 0.69 && $6 < 0.72 { hit[$2] = 1 }
  $1 == "frame" && $4 == "slope" && hit[$2] {
    n++
    if (n == 1) { cx = $8; cy = $10 }
    lx = $8; ly = $10
  }
  END {
    if (n < 10) { print "only " n + 0 " frames in contact with slope-45"; exit }
    ddx = lx - cx; ddy = ly - cy
    if (ddx < 20 || ddy < 20) { print "moved " ddx ", " ddy " along the slope"; exit }
    r = ddx / ddy
    if (r < 0.9 || r > 1.1) { print "not along the 45 degree slope: moved " ddx ", " ddy; exit }
    printf "ok %d frames, moved %.1f, %.1f\n", n, ddx, ddy
  }' "$log")
case $res in
  ok*) ok "slides along a slope: ${res#ok }" ;;
  *) notok "slides along a slope" "$res" ;;
esac

# The circle crosses zone-a (a sensor the move filter lets it "cross"): step() fires enter
# then exit, for the player and that zone.
enter=$(awk '$1 == "enter" && (($3 == "player" && $4 == "zone-a") || ($3 == "zone-a" && $4 == "player")) { print $2; exit }' "$log")
exit_=$(awk -v e="${enter:-0}" '$1 == "exit" && $2 > e && (($3 == "player" && $4 == "zone-a") || ($3 == "zone-a" && $4 == "player")) { print $2; exit }' "$log")
if [ -n "$enter" ]; then ok "enter fired (player, zone-a) at frame $enter"; else notok "enter fired" "no enter line for player and zone-a"; fi
if [ -n "$exit_" ]; then ok "exit fired (player, zone-a) at frame $exit_"; else notok "exit fired after enter" "no exit line for player and zone-a"; fi

# The player touching a wall shows up through step() as well (enter with a wall).
if awk '$1 == "enter" && ($3 == "player" || $4 == "player") && ($3 ~ /^(wall|slope)/ || $4 ~ /^(wall|slope)/) { f = 1 } END { exit !f }' "$log"; then
  ok "enter fired for the player against a wall"
else
  notok "enter fired for the player against a wall" "no enter line for player and a wall"
fi

# The capsule player and the ledge (a segment at y = 60): pressed up against its underside
# it slides along it, its top on the segment's line; dropped onto it, it walks along its top,
# its bottom on the line. Hits carry the normal from the player toward the ledge.
if grep -q '^player [0-9]* capsule$' "$log"; then
  ok "the player becomes a capsule"
else
  notok "the player becomes a capsule" "no 'player ... capsule' line"
fi
for side in ceiling walk; do
  res=$(awk -v side=$side '
    $1 == "level" && $2 == "ledge" { ly = $6 }
    $1 == "hit" && $3 == "ledge" && ($5 < 0 ? -$5 : $5) < 1e-4 {
      if ((side == "ceiling" && $6 < -0.9999) || (side == "walk" && $6 > 0.9999)) hit[$2] = 1
    }
    $1 == "frame" && $4 == "capsule-" side && hit[$2] {
      n++
      edge = side == "ceiling" ? $13 : $15   # its top, or its bottom
      d = edge - ly; if (d < 0) d = -d; if (d > worst) worst = d
      if (n == 1) { x0 = $8; y0 = $10 }
      x1 = $8; dy = $10 - y0; if (dy < 0) dy = -dy; if (dy > drift) drift = dy
    }
    END {
      if (ly == "") { print "no level line for the ledge"; exit }
      if (n < 5) { print "only " n + 0 " frames against the ledge"; exit }
      if (worst > 0.01) { print "its edge " worst " off the ledge line"; exit }
      if (drift > 0.01) { print "y drifted " drift " along the ledge"; exit }
      if (x1 - x0 < 20) { print "moved only " x1 - x0 " along the ledge"; exit }
      printf "ok %d frames, %.1f along, on the line within %.2g\n", n, x1 - x0, worst
    }' "$log")
  case $res in
    ok*) ok "a capsule slides along a segment ($side): ${res#ok }" ;;
    *) notok "a capsule slides along a segment ($side)" "$res" ;;
  esac
done

stress=$(awk '$1 == "stress" && $4 >= 1000 { n++ } END { print n + 0 }' "$log")
if [ "$stress" -ge 10 ]; then
  ok "stress mode stepped $stress frames with >= 1000 moving shapes"
else
  notok "stress mode ran" "$stress frames logged with >= 1000 shapes"
fi

# The platformer room (examples/love/platform.lua): "frame ... room" lines. The hero rides
# the lift every frame of the ride (grounded on it) while it rises and comes down; walks up
# the stairs, over the plateau and down the 30 degree slope grounded every frame; lands on
# the one-way ledge after jumping up through it, and drops through it to the floor; the
# ball bounces, and a hit on the concave rock names its part.
res=$(awk '
  $1 == "frame" && $5 == "room" && $4 == "plat-ride" {
    n++; if ($13 == 1 && $17 == 1) on++
    if (lo == "" || $19 < lo) lo = $19; if (hi == "" || $19 > hi) hi = $19
  }
  $1 == "frame" && $5 == "room" && $4 == "plat-walk" {
    w++; if ($13 == 1) g++
    seen[substr($15, 1, 5)] = 1; if (top == "" || $11 < top) top = $11
  }
  $1 == "frame" && $5 == "room" && $4 == "plat-stand" && $15 == "ledge" { ledge++ }
  $1 == "frame" && $5 == "room" && $4 == "plat-drop" { last = $15 " " $13 }
  $1 == "frame" && $5 == "room" && / hit rock part [0-9]/ { part++ }
  $1 == "frame" && $5 == "room" { bounces = $24 }
  END {
    if (n < 400 || on != n) { print "on the lift " on + 0 " of " n + 0 " ride frames"; exit }
    if (hi - lo < 100) { print "the lift moved only " hi - lo; exit }
    if (w < 200 || g != w) { print "grounded " g + 0 " of " w + 0 " walking frames"; exit }
    if (!seen["step-"] || !seen["plate"] || !seen["slope"]) { print "did not walk over the stairs, plateau and slope"; exit }
    if (ledge < 10) { print "stood on the one-way ledge " ledge + 0 " frames"; exit }
    if (last != "floor 1") { print "did not drop through the ledge to the floor: " last; exit }
    if (bounces < 3) { print "the ball bounced " bounces + 0 " times"; exit }
    if (part < 1) { print "no hit on the rock names a part"; exit }
    printf "ok lift %d/%d frames (it moved %.1f), walk grounded %d/%d, %d frames on the ledge, %d bounces, %d rock hits with a part\n", on, n, hi - lo, g, w, ledge, bounces, part
  }' "$log")
case $res in
  ok*) ok "platformer room: ${res#ok }" ;;
  *) notok "platformer room" "$res" ;;
esac

}
demo_checks

love_screenshot "$out/demo.png" "$log"

# The same scripted run on the pure-Lua backend (SAT_BACKEND=lua), its log held to the same
# checks, once the pure backend has compounds (the level has a concave rock and a chain):
# until then a note says so.
if [ "$(sed -n 's/^start .* backend \([a-z]*\) .*/\1/p' "$log")" = native ]; then
  ok "the first run is on the native backend"
else
  notok "the first run is on the native backend" "$(head -n 1 "$log")"
fi
if LUA_PATH='lua/?.lua;;' lua5.4 -e 'require("sat.pure.sat_compound")' >/dev/null 2>&1; then
  mkdir -p "$out/pure"
  rm -f "$out/pure/demo.log"
  SAT_BACKEND=lua SAT_ROOT=$(pwd) SAT_DEMO_AUTO=1 SAT_DEMO_OUT=$(pwd)/$out/pure \
    XDG_DATA_HOME=$(pwd)/$out/xdg timeout 600 xvfb-run -a love examples/love --auto \
    >build/logs/love-demo-pure-run.log 2>&1
  rc=$?
  log=$out/pure/demo.log
  love_ran love-demo-pure "$rc" "$log"
  if [ "$(sed -n 's/^start .* backend \([a-z]*\) .*/\1/p' "$log")" = lua ]; then
    ok "the second run is on the pure backend"
  else
    notok "the second run is on the pure backend" "$(head -n 1 "$log")"
  fi
  demo_checks
else
  echo "note: the pure backend has no compounds yet (lua/sat/pure/sat_compound.lua): the demo's level has some, so its run on the pure backend waits for them"
fi

echo "love-demo: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
