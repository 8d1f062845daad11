# Sourced by spec/suites/build.sh and rock.sh: whether a built sat/core.so exports
# luaopen_sat_core alone (the core and the binding are internal: SAT_HIDDEN, src/core/sat.h).
#   entry_only SO   returns 0 when it does; $exported lists the functions it exports
# shellcheck disable=SC2034 # exported is read by the sourcing script
entry_only() {
  exported=$(nm -D --defined-only "$1" | awk '$2 == "T" { print $3 }' | tr '\n' ' ')
  [ "$exported" = "luaopen_sat_core " ]
}
