#!/bin/sh
# The busted suite on the native backend (the C module): every spec/*_spec.lua under each Lua,
# JIT on and off (spec/suites/lib/busted-run.sh). busted-pure.sh runs the same specs on the
# pure-Lua backend. Last line `busted: N passed, M failed` (errors count as failed).
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/busted-run.sh
run_busted busted native
