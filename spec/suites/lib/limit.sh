# Sourced by the suites and spec/run-tests.sh: a stall guard that the machine's load cannot
# trip. A wall-clock `timeout` fails a run that is only slow because other processes had
# the CPU (10 busy processes stretched the love suite's 3 s LÖVE run past its 120 s limit);
# the two ways a run really stalls are measured instead, on the run's own processes:
#   - it spins: together they have used more than CPU seconds of processor time;
#   - it is blocked (a deadlock, a lost X server): they have used no processor time at all
#     during IDLE rounds of about a second. A process that only waits for its turn on a busy
#     machine still gets some (the scheduler gives every runnable process a share), and a
#     round takes longer on a loaded machine, never shorter.
#
#   limited CPU IDLE COMMAND [ARG...]
# runs COMMAND (stdin from /dev/null) and, once a round, adds up the processor time of it
# and of every process below it (each one's own and its reaped children's, from
# /proc/<pid>/stat; a nested `limited` run counts too). Returns COMMAND's status, or 124
# when it was stopped (SIGTERM to the processes, SIGKILL 5 rounds later), with a line on
# stderr saying which limit. Also runnable as `sh spec/suites/lib/limit.sh CPU IDLE
# COMMAND...` (a spec uses that). Without /proc it runs COMMAND with no guard.

# The processor time in clock ticks of the process $2 and all its descendants ($1 = ticks),
# or their pids, one a line ($1 = pids).
limit_tree() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v what="$1" -v root="$2" '
    {
      pid = $1
      sub(/^[0-9]+ \(.*\) /, "") # past "pid (comm) ": state, ppid, pgrp, ...
      parent[pid] = $2
      ticks[pid] = $12 + $13 + $14 + $15
    }
    END {
      for (p in parent) {
        q = p
        for (d = 0; d < 64 && q != "" && q != root && q > 1; d++) q = parent[q]
        if (q != root) continue
        t += ticks[p]
        if (what == "pids") print p
      }
      if (what == "ticks") print t + 0
    }'
}

# Signals the process $2 and its descendants with $1.
limit_signal() {
  for limit_p in $(limit_tree pids "$2"); do
    [ "$limit_p" -gt 1 ] && kill "-$1" "$limit_p" 2>/dev/null
  done
}

limited() {
  limit_cpu=$1 limit_idle=$2
  shift 2
  if [ ! -r /proc/self/stat ]; then
    "$@" </dev/null
    return
  fi
  limit_hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
  "$@" </dev/null &
  limit_pid=$!
  limit_last=0 limit_still=0 limit_why=""
  while kill -0 "$limit_pid" 2>/dev/null; do
    sleep 1
    limit_now=$(limit_tree ticks "$limit_pid")
    if [ "$limit_now" -gt $((limit_cpu * limit_hz)) ]; then
      limit_why="used more than $limit_cpu s of processor time (a loop?)"
    elif [ "$limit_now" -gt "$limit_last" ]; then
      limit_last=$limit_now limit_still=0
    else
      limit_still=$((limit_still + 1))
      [ "$limit_still" -ge "$limit_idle" ] &&
        limit_why="used no processor time for $limit_idle rounds (blocked?)"
    fi
    if [ -n "$limit_why" ]; then
      limit_signal TERM "$limit_pid"
      limit_wait=0
      while kill -0 "$limit_pid" 2>/dev/null && [ "$limit_wait" -lt 5 ]; do
        sleep 1
        limit_wait=$((limit_wait + 1))
      done
      limit_signal KILL "$limit_pid"
      wait "$limit_pid" 2>/dev/null
      echo "limit: stopped '$*': it $limit_why" >&2
      return 124
    fi
  done
  wait "$limit_pid"
}

# run as a command: sh spec/suites/lib/limit.sh CPU IDLE COMMAND...
case ${0##*/} in
  limit.sh) limited "$@"; exit $? ;;
esac
