#!/bin/sh
# LuaRocks packaging: rockspec/sat-scm-1.rockspec lists the C sources `make sources` prints
# (the one recipe checked against the Makefile) and every Lua file of lua/sat/ but loader.lua
# (which only a `make dist` folder uses), and for each Lua `luarocks make` installs
# into an empty tree (offline: the only dependency, lua, is the VM), after which a clean
# interpreter with nothing but that tree on its paths requires sat and runs a collision; the
# LuaLS definitions (library/sat.lua) are in the rock's directory, not on the module path.
# The build happens in a copy of the sources (luarocks leaves .o files).
# Last line: `luarocks: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
. spec/suites/lib/exports.sh
. spec/suites/lib/portable.sh
root=$(pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

if ! command -v luarocks >/dev/null 2>&1; then
  echo "luarocks is not installed (apt-get install luarocks)"
  echo "luarocks: 0 passed, 1 failed"
  exit 1
fi

rockspec=rockspec/sat-scm-1.rockspec

# 1. the rockspec builds what the Makefile builds: the same sources, nothing else
listed=$(grep -o '"src/[A-Za-z0-9_/]*\.c"' "$rockspec" | tr -d '"' | sort)
built=$(make --no-print-directory -s sources | sort)
if [ -n "$built" ] && [ "$listed" = "$built" ]; then
  ok "rockspec lists the sources make builds"
else
  bad "rockspec sources differ from make sources (update $rockspec)"
  echo "  listed: $(echo $listed)"
  echo "  make:   $(echo $built)"
fi

# 2. every Lua file of the layer is a module of the rock
missing=""
for f in lua/sat/*.lua; do
  [ "$f" = lua/sat/loader.lua ] && continue
  grep -q "= \"$f\"" "$rockspec" || missing="$missing $f"
done
if [ -z "$missing" ]; then
  ok "rockspec lists every lua/sat/*.lua but loader.lua"
else
  bad "rockspec misses:$missing (update $rockspec)"
fi

# and every file of the pure-Lua backend (where no native module loads)
missing=""
for f in lua/sat/pure/*.lua; do
  grep -q "= \"$f\"" "$rockspec" || missing="$missing $f"
done
if [ -z "$missing" ]; then
  ok "rockspec lists every lua/sat/pure/*.lua"
else
  bad "rockspec misses:$missing (update $rockspec)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

cat >"$work/check.lua" <<'LUA'
local sat = require("sat")
local a, b = sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2)
assert(sat.test(a, b), "no hit")
local r = assert(sat.collide(a, b), "no response")
assert(math.abs(r.overlap - 0.5) < 1e-12, "overlap " .. r.overlap)
assert(r.normal.x == 1 and r.normal.y == 0, tostring(r.normal))
local hit, mx = a:collidesWith(b)
assert(hit and math.abs(mx + 0.5) < 1e-12)
assert(not sat.test(a, sat.box(5, 5, 1, 1)))
assert(type(require("sat.world")) == "table", "sat.world")
-- a world, its parts loaded: a box moved against a wall stops at it (its right side at
-- x = 20: centre 15), slides on in y, and touches it
local w = sat.world(16)
local box = w:add(sat.box(0, 0, 10, 10))
w:add(sat.box(20, -50, 10, 100), "static")
local x, y, cols = w:move(box, 20, 5)
assert(x == 15 and y == 10 and #cols == 1, "move: " .. x .. " " .. y .. " " .. #cols)
assert(w:step() == 1, "step")
assert(type(sat.debug) == "table", "sat.debug")
assert(#sat.level.grid(sat.world(), { "##", "#." }, 8, 8) == 2, "sat.level")
print(sat._VERSION .. " from " .. (package.searchpath and
  package.searchpath("sat.core", package.cpath) or package.cpath))
LUA

# no native module on the paths: sat falls back on the pure backend, silently
cat >"$work/pure.lua" <<'LUA'
local sat = require("sat")
assert(sat.backend == "lua", "backend " .. tostring(sat.backend))
assert(type(sat.nativeError) == "string" and sat.nativeError:find("sat.core", 1, true),
  "nativeError " .. tostring(sat.nativeError))
local r = assert(sat.collide(sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2)), "no response")
assert(math.abs(r.overlap - 0.5) < 1e-12, "overlap " .. r.overlap)
print(sat._VERSION .. ", pure-Lua backend")
LUA

for v in 5.4 5.3 5.1; do
  lua=lua$v
  command -v "$lua" >/dev/null 2>&1 || { echo "skip Lua $v: $lua not installed"; continue; }
  src="$work/src-$v"
  tree="$work/tree-$v"
  mkdir -p "$src"
  cp -r "$root/src" "$root/lua" "$root/library" "$root/rockspec" "$src/"
  if (cd "$src" && luarocks --lua-version "$v" make "$rockspec" --tree="$tree") \
      >"$work/make-$v.log" 2>&1; then
    ok "luarocks --lua-version $v make"
    # the compiler command luarocks ran says -ffp-contract=off (no fused multiply-add)
    if grep -E '(^|[ /])(cc|gcc|clang) .*-ffp-contract=off .*src/core/sat_math\.c' "$work/make-$v.log" \
        >/dev/null; then
      ok "Lua $v: the module is compiled with -ffp-contract=off"
    else
      bad "Lua $v: no -ffp-contract=off in luarocks' compiler command"
      grep -E 'src/core' "$work/make-$v.log" | head -n 3
    fi
  else
    bad "luarocks --lua-version $v make"
    tail -n 20 "$work/make-$v.log"
    continue
  fi
  rockdir=$(luarocks --lua-version "$v" --tree="$tree" show --rock-dir sat 2>/dev/null)
  if [ -n "$rockdir" ] && cmp -s "$root/library/sat.lua" "$rockdir/library/sat.lua"; then
    ok "Lua $v: the rock's directory holds library/sat.lua (the LuaLS definitions)"
  else
    bad "Lua $v: library/sat.lua in the rock's directory (${rockdir:-not found})"
  fi
  if [ -e "$tree/share/lua/$v/sat/library" ] || [ -e "$tree/share/lua/$v/library" ]; then
    bad "Lua $v: the LuaLS definitions were installed on the module path"
  fi
  lpath="$tree/share/lua/$v/?.lua;$tree/share/lua/$v/?/init.lua"
  cpath="$tree/lib/lua/$v/?.so"
  if command -v nm >/dev/null 2>&1; then
    if entry_only "$tree/lib/lua/$v/sat/core.so"; then
      ok "Lua $v: sat/core.so exports luaopen_sat_core alone"
    else
      bad "Lua $v: sat/core.so exports: $exported"
    fi
    newer=$(glibc_newer "$tree/lib/lua/$v/sat/core.so"; libm_other "$tree/lib/lua/$v/sat/core.so")
    if [ -z "$newer" ]; then
      ok "Lua $v: sat/core.so needs glibc 2.17 at most and imports only exact libm functions"
    else
      bad "Lua $v: sat/core.so imports $(echo $newer)"
    fi
  fi
  interpreters=$lua
  [ "$v" = 5.1 ] && command -v luajit >/dev/null 2>&1 && interpreters="$lua luajit"
  for interp in $interpreters; do
    # from an empty directory, with only the tree on the paths (no ;; defaults)
    if out=$(cd "$work" && LUA_PATH="$lpath" LUA_CPATH="$cpath" "$interp" check.lua 2>&1); then
      ok "$interp requires sat from the Lua $v tree: $out"
    else
      bad "$interp requires sat from the Lua $v tree"
      printf '%s\n' "$out"
    fi
    if out=$(cd "$work" && LUA_PATH="$lpath" LUA_CPATH="" "$interp" pure.lua 2>&1); then
      ok "$interp without the native module: $out"
    else
      bad "$interp without the native module falls back on the pure backend"
      printf '%s\n' "$out"
    fi
  done
done

echo "luarocks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
