# Sourced by spec/suites/build.sh: the layering of src/, checked from the sources and from the
# objects. Each function returns 0 when the rule holds, else prints what breaks it.
#
#   check_includes   every #include of src/core/ and src/lua/, resolved the way the Makefile's
#                    -I flags resolve it: src/core/ includes nothing from src/lua/ and no Lua
#                    header, every quoted include exists, and no file includes itself through
#                    others (no cycle).
#   check_links DIR  the objects `make objects` left in DIR (core/*.o, lua/*.o), read with nm:
#                    the core references no Lua or binding symbol, and the binding's files
#                    reference each other one way only (no cycle); lsat_util.o, which they
#                    all use, references none of them.

# Prints "from to" for every include edge, "from <lua>" for a Lua header, and
# "from ?name" for a quoted include that resolves nowhere.
include_edges() {
  for f in src/core/*.[ch] src/lua/*.[ch]; do
    dir=${f%/*}
    case $dir in
      src/core) path="src/core" ;;
      *) path="$dir src/core src/lua" ;;
    esac
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$f" |
      while read -r inc; do
        name=${inc#?}
        name=${name%?}
        case $inc in
          \<*)
            case $name in
              lua.h | lauxlib.h | lualib.h | luaconf.h | luajit.h) echo "$f <lua>" ;;
            esac
            ;;
          *)
            to=""
            for d in $path; do
              if [ -f "$d/$name" ]; then to=$(realpath -m --relative-to=. "$d/$name"); break; fi
            done
            # the core cannot reach a binding header, but say so rather than "no file"
            [ -z "$to" ] && [ -f "src/lua/$name" ] && to="src/lua/$name"
            echo "$f ${to:-?$name}"
            ;;
        esac
      done
  done
}

# Reads "from to" edges on stdin; prints one cycle when there is one (and exits 1).
find_cycle() {
  awk '
    { n[$1]++; e[$1, n[$1]] = $2; node[$1] = 1; node[$2] = 1 }
    function visit(v,   i, w) {
      state[v] = 1; path[++depth] = v
      for (i = 1; i <= n[v]; i++) {
        w = e[v, i]
        if (state[w] == 1) { cycle = w; return 1 }
        if (state[w] == 0 && visit(w)) return 1
      }
      state[v] = 2; depth--
      return 0
    }
    END {
      for (v in node) if (state[v] == 0 && visit(v)) {
        s = ""; on = 0
        for (i = 1; i <= depth; i++) { if (path[i] == cycle) on = 1; if (on) s = s path[i] " -> " }
        print "cycle: " s cycle
        exit 1
      }
    }'
}

check_includes() {
  edges=$(include_edges)
  bad=$(printf '%s\n' "$edges" | awk '
    $2 ~ /^\?/ { print $1 ": #include \"" substr($2, 2) "\" resolves to no file"; next }
    $1 ~ /^src\/core\// && ($2 == "<lua>" || $2 ~ /^src\/lua\//) {
      print $1 ": the core includes " ($2 == "<lua>" ? "a Lua header" : $2)
    }')
  cycle=$(printf '%s\n' "$edges" | grep -v ' <lua>$' | find_cycle)
  [ -z "$bad" ] && [ -z "$cycle" ] && return 0
  [ -n "$bad" ] && printf '%s\n' "$bad"
  [ -n "$cycle" ] && printf '%s\n' "$cycle"
  return 1
}

check_links() {
  dir=$1
  tmp=$(mktemp -d)
  for o in "$dir"/core/*.o "$dir"/lua/*.o; do
    obj=${o#"$dir"/}
    nm --defined-only -g "$o" | awk -v o="$obj" 'NF == 3 { print $3, o }' >>"$tmp/defs"
    nm -u "$o" | awk -v o="$obj" '{ print $NF, o }' >>"$tmp/uses"
  done
  # "user definer" for every symbol one of our objects takes from another
  deps=$(awk 'NR == FNR { by[$1] = $2; next } ($1 in by) && by[$1] != $2 { print $2, by[$1] }' \
    "$tmp/defs" "$tmp/uses" | sort -u)
  lua_in_core=$(awk '$2 ~ /^core\// && $1 ~ /^(lua|luaL|luaJIT)_/ { print $2 ": calls " $1 }' \
    "$tmp/uses")
  rm -rf "$tmp"
  bad=$(printf '%s\n' "$deps" | awk '
    $1 ~ /^core\// && $2 ~ /^lua\// { print $1 ": the core uses " $2 }
    $1 == "lua/lsat_util.o" && $2 ~ /^lua\// { print $1 ": the shared helpers use " $2 }')
  cycle=$(printf '%s\n' "$deps" | find_cycle)
  [ -z "$lua_in_core" ] && [ -z "$bad" ] && [ -z "$cycle" ] && return 0
  [ -n "$lua_in_core" ] && printf '%s\n' "$lua_in_core"
  [ -n "$bad" ] && printf '%s\n' "$bad"
  [ -n "$cycle" ] && printf '%s\n' "$cycle"
  return 1
}
