# Sourced by the busted suites: counts a TAP log's results into $pass and $fail.
#   tap_count LOG
# The TAP plan says how many ran: a result line lost from the log counts as a failure.
# shellcheck disable=SC2034 # pass and fail are read by the sourcing script
tap_count() {
  pass=$(grep -c '^ok ' "$1")
  fail=$(grep -c '^not ok ' "$1")
  plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$1" | tail -n 1)
  if [ -n "$plan" ] && [ $((pass + fail)) -lt "$plan" ]; then
    echo "$1: $((plan - pass - fail)) of $plan results missing"
    fail=$((plan - pass))
  fi
}
