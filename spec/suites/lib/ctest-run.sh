# Sourced by spec/suites/c.sh and c-san.sh: runs a C test binary and reads its closing
# "N passed, M failed" line into $pass and $fail.
#   run_ctest BINARY LOG WHAT-A-CRASH-MEANS
# A binary that exits non-zero with 0 failures (a sanitizer report after the summary, say)
# counts one failure; one that ends without the line (a crash) counts one failure.
# shellcheck disable=SC2034 # pass and fail are read by the sourcing script
run_ctest() {
  "$1" >"$2" 2>&1
  rc=$?
  cat "$2"
  last=$(tail -n 1 "$2")
  if printf '%s\n' "$last" | grep -Eq '^[0-9]+ passed, [0-9]+ failed$'; then
    pass=${last%% passed*}
    fail=${last#*passed, }
    fail=${fail%% failed}
    if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
      echo "$1 exited with status $rc ($3)"
      fail=1
    fi
  else
    echo "$1 stopped before its summary line (status $rc): $3"
    pass=0
    fail=1
  fi
}
