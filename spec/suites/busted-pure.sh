#!/bin/sh
# The busted suite on the pure-Lua backend (SAT_BACKEND=lua): the same specs as busted.sh,
# under each Lua, JIT on and off (spec/suites/lib/busted-run.sh). Specs about the C module
# itself (sat.fast, its loader, its internals) are pending there with their reason, as are
# those that need what the pure backend has not got yet. Last line
# `busted-pure: N passed, M failed` (errors count as failed).
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/busted-run.sh
run_busted busted-pure lua
