# Sourced by the busted suites (busted.sh: the native backend, busted-pure.sh: the pure one):
# runs every spec/*_spec.lua with busted under each Lua, on one backend.
#   run_busted NAME BACKEND [RUNS]
# RUNS: the interpreters, by default lua5.4, luajit, luajit-joff (luajit -joff), lua5.1,
# lua5.3, lua5.2; lua5.4 and luajit are required, the others run when installed. Each
# first builds the module and the specs' helpers for its Lua (make LUA=... all test-helpers:
# the pure backend's run needs them too, for the specs that compare it with the native module
# and for the failalloc helper), then runs `<lua> busted -o TAP spec` with SAT_BACKEND set, so
# that a native module that fails to load fails the native run instead of falling back.
# Prints a line per interpreter (passed, failed, pending: a pending test says why, e.g. what
# the pure backend has not got yet) and last `NAME: N passed, M failed` (errors count as
# failed; pending tests are in neither).
. spec/suites/lib/tap-count.sh

run_busted() {
  name=$1
  backend=$2
  total_pass=0
  total_fail=0
  total_pending=0
  busted=$(command -v busted || true)
  mkdir -p build/logs
  for run in ${3:-lua5.4 luajit luajit-joff lua5.1 lua5.3 lua5.2}; do
    lua=${run%-joff}
    flags=
    [ "$run" = luajit-joff ] && flags=-joff
    # LuaJIT with its compiler on: a machine-code area of 8 MB and 8,000 traces instead of
    # 512 KB and 1,000. The specs run thousands of different shapes, pairs and oracles in one
    # process; in the default area their traces fill it, LuaJIT flushes every trace and
    # compiles them again, over and over (world_random_spec on the pure backend: 435 flushes,
    # 177 s of processor time, most of it the kernel's page protection; 14 s with these). The
    # results are the same bits compiled or interpreted (the differential fuzzer, -joff runs).
    [ "$run" = luajit ] && flags="-Omaxmcode=8192 -Omaxtrace=8000"
    if ! command -v "$lua" >/dev/null 2>&1; then
      case $lua in
        lua5.4|luajit) echo "$run: not installed (required)"; total_fail=$((total_fail + 1)) ;;
        *) echo "$run: not installed, skipped" ;;
      esac
      continue
    fi
    if [ -z "$busted" ]; then
      echo "$run: busted is not installed (apt-get install lua-busted)"
      total_fail=$((total_fail + 1))
      continue
    fi
    log=build/logs/busted-$backend-$run.log
    if ! make --no-print-directory -s LUA="$lua" all test-helpers >"$log" 2>&1; then
      cat "$log"
      echo "$run: build failed"
      total_fail=$((total_fail + 1))
      continue
    fi
    # shellcheck disable=SC2086 # $flags: words
    SAT_BACKEND=$backend LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/$lua/?.so;;" \
      "$lua" $flags "$busted" -o TAP spec >"$log" 2>&1
    rc=$?
    tap_count "$log"
    pending=$(grep -c '^ok [0-9]* - # SKIP' "$log")
    pass=$((pass - pending))
    # anything busted could not even report (a crash, a missing module) is one failure
    if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
      fail=1
    fi
    if [ "$fail" -ne 0 ]; then
      # each failure's title and message, kept short (the whole log is in $log)
      awk '/^not ok /{n=3} n>0{print; n--}' "$log" | head -n 60
      [ "$(grep -c '^not ok ' "$log")" -eq 0 ] && tail -n 30 "$log"
    fi
    echo "$run: $pass passed, $fail failed, $pending pending ($backend backend)"
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
    total_pending=$((total_pending + pending))
  done
  if [ "$total_pending" -gt 0 ]; then
    echo "pending on the $backend backend, with the reasons:"
    grep -h '^ok [0-9]* - # SKIP' build/logs/busted-"$backend"-*.log | sed 's/^ok [0-9]* - # SKIP /  /' \
      | sort | uniq -c | sort -rn | head -n 40
  fi
  echo "$name: $total_pass passed, $total_fail failed"
  [ "$total_fail" -eq 0 ]
}
