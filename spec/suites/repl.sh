#!/bin/sh
# make repl, scripted through here-documents: Lua 5.4 (the default) from a fresh clone of this
# checkout (when it is a git checkout), and LUA=luajit here. Each prints the one-line hint,
# has the global sat already required, computes a collision, and shows values through
# tostring (the REPL's own printing under Lua 5.4, `=` under LuaJIT); each ends with status 0
# at the end of its input.
# Last line: `repl: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
mkdir -p build/logs
. spec/suites/lib/report.sh
version=$(sed -n 's/^.define SAT_VERSION "\(.*\)"$/\1/p' src/core/sat.h)

# has NAME OUTPUT TEXT: OUTPUT contains TEXT, literally
has() {
  if printf '%s\n' "$2" | grep -qF -- "$3"; then ok "$1"; else bad "$1: no \"$3\" in the output" "$2"; fi
}

# session LABEL DIR [MAKE ARGUMENTS]: make repl in DIR, its input from this function's
# standard input; the output in $out
session() {
  label=$1
  dir=$2
  shift 2
  out=$(cd "$dir" && make --no-print-directory -s repl "$@" 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ]; then ok "$label ends with status 0"; else bad "$label: status $rc" "$out"; fi
}

# ---- Lua 5.4, from a fresh clone --------------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
if git rev-parse --git-dir >/dev/null 2>&1 && git clone -q "$root" "$work/sat" 2>"$work/clone.log"; then
  where="a fresh clone"
  dir=$work/sat
else
  echo "note: not a git checkout (or the clone failed): make repl runs in this checkout"
  where="this checkout"
  dir=$root
fi

session "make repl (Lua 5.4) in $where" "$dir" <<'EOF'
print(type(sat), sat._VERSION)
sat.circle(0, 0, 1)
print(sat.collide(sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2)))
w = sat.world(32); w:add(sat.box(0, 0, 10, 10)); print("shapes", #w:shapes())
EOF
has "Lua 5.4: the hint" "$out" "sat $version is loaded as the global sat. Try: sat.collide("
has "Lua 5.4: sat is the module" "$out" "table	sat $version"
has "Lua 5.4: the REPL prints a value with tostring" "$out" "circle(r 1 at 0, 0)"
has "Lua 5.4: a collision" "$out" "response(overlap 0.5"
has "Lua 5.4: a world holds its shape" "$out" "shapes	1"

# ---- LuaJIT, here ---------------------------------------------------------------------------
if command -v luajit >/dev/null 2>&1; then
  session "make repl LUA=luajit" "$root" LUA=luajit <<'EOF'
=jit.version, sat._VERSION
=sat.circle(0, 0, 1)
=sat.test(sat.circle(0, 0, 1), sat.circle(1.5, 0, 1)), sat.test ~= sat.core.test
EOF
  has "LuaJIT: the hint says to print with =" "$out" "is loaded as the global sat. Try: =sat.collide("
  has "LuaJIT: sat is the module" "$out" "sat $version"
  has "LuaJIT: = prints a value with tostring" "$out" "circle(r 1 at 0, 0)"
  has "LuaJIT: a collision, through the FFI path" "$out" "true	true"
else
  echo "note: luajit is not installed; make repl LUA=luajit not tried"
fi

echo "repl: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
