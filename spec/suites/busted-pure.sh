#!/bin/sh
# The busted suite on the pure-Lua backend (SAT_BACKEND=lua): the same specs as busted.sh,
# under every Lua, as busted.sh runs them natively (issue 26, point 7): first the
# interpreters that run it in games, Lua 5.1 (love.js, the web), LuaJIT with the JIT on (LÖVE)
# and off (LÖVE on iOS, where no JIT runs), then Lua 5.4, 5.3 and 5.2 (spec/suites/lib/
# busted-run.sh). BUSTED_PURE_RUNS names others (`make test-pure` runs this suite alone). Specs about the C module
# itself (sat.fast, its loader, its internals) are pending there with their reason, as are
# those that need what the pure backend has not got yet. Last line
# `busted-pure: N passed, M failed` (errors count as failed).
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/busted-run.sh
runs=${BUSTED_PURE_RUNS:-all}
[ "$runs" = all ] && runs="lua5.1 luajit luajit-joff lua5.4 lua5.3 lua5.2"
run_busted busted-pure lua "$runs"
