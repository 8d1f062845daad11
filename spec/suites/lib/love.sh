# Sourced by spec/suites/love.sh and love-demo.sh. LÖVE is optional for the library: without
# love or xvfb-run a LÖVE suite says so, reports 0 and 0, and stops.
#   need_love NAME
need_love() {
  if ! command -v love >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null 2>&1; then
    echo "note: love and xvfb-run are needed for this suite (apt-get install love xvfb xauth)"
    echo "$1: 0 passed, 0 failed"
    exit 0
  fi
}

# The scripted runs of the LÖVE programs (love-demo.sh, explorer.sh) are checked alike. These
# call the suite's own ok and notok (which count its passes and failures).

# love_build NAME: the LuaJIT module (build/logs/NAME-build.log); on failure the suite's
# last line, and exit.
love_build() {
  if make --no-print-directory -s LUA=luajit all >"build/logs/$1-build.log" 2>&1; then
    ok "build the LuaJIT module"
  else
    cat "build/logs/$1-build.log"
    notok "build the LuaJIT module" "make LUA=luajit failed"
    echo "$1: $pass passed, $fail failed"
    exit 1
  fi
}

# love_ran NAME STATUS LOG: the run logged "done" and quit with status 0 (else the tails of
# build/logs/NAME-run.log and LOG); it logged every frame its "start ... frames N" line
# announced; no "error" line. LOG exists afterwards (empty when the run wrote none).
love_ran() {
  if [ "$2" -eq 0 ] && [ -f "$3" ] && grep -q '^done ' "$3"; then
    ok "the scripted run finishes and quits with status 0"
  else
    notok "the scripted run finishes and quits with status 0" "exit status $2"
    tail -n 20 "build/logs/$1-run.log"
    [ -f "$3" ] && tail -n 5 "$3"
  fi
  [ -f "$3" ] || : >"$3"
  want=$(sed -n 's/^start .* frames \([0-9]*\).*/\1/p' "$3")
  got=$(grep -c '^frame ' "$3")
  if [ -n "$want" ] && [ "$got" -eq "$want" ]; then
    ok "all $want frames played"
  else
    notok "all frames played" "logged $got of ${want:-?}"
  fi
  if grep -q '^error ' "$3"; then
    notok "no Lua error" "$(grep -m 1 '^error ' "$3")"
  else
    ok "no Lua error"
  fi
}

# love_screenshot PNG LOG: the screenshot is a PNG and not a blank window: more than 32
# colours, counted by identify when installed, else by the program (LOG's line
# "screenshot ... colors N").
love_screenshot() {
  if [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
    ok "screenshot written ($1)"
    colors=""
    if command -v identify >/dev/null 2>&1; then
      colors=$(identify -format '%k' "$1" 2>/dev/null)
      how="identify"
    fi
    if [ -z "$colors" ]; then
      colors=$(sed -n 's/^screenshot .* colors \([0-9]*\)$/\1/p' "$2")
      how="the program's own count"
    fi
    if [ -n "$colors" ] && [ "$colors" -gt 32 ]; then
      ok "screenshot is not blank ($colors distinct colours, $how)"
    else
      notok "screenshot is not blank" "${colors:-?} distinct colours ($how)"
    fi
  else
    notok "screenshot written" "$1 missing or not a PNG"
    notok "screenshot is not blank" "no screenshot"
  fi
}
