# Sourced by the suites that count their own checks (deps, dist, repl, windows).
#   ok WHAT            one check passed
#   bad WHAT [DETAIL]  one check failed; DETAIL (any number of lines) is printed indented
# Both count into $pass and $fail, which the sourcing script prints last.
pass=0
fail=0
ok() { pass=$((pass + 1)); printf 'ok   %s\n' "$1"; }
bad() {
  fail=$((fail + 1))
  printf 'FAIL %s\n' "$1"
  if [ $# -gt 1 ]; then printf '%s\n' "$2" | sed 's/^/     /'; fi
}
