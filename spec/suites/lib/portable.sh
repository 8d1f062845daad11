# Sourced by spec/suites/build.sh and rock.sh: what makes a build give the same bits on every
# platform and load on old ones (issue 29, docs/design.md "Determinism"; issue 25).
#
#   fp_unflagged TARGETS...  make -n -B of the targets (in build/check-fp): prints each
#                            compiler command that builds a file of ours (src/, spec/, bench/,
#                            tools/) without -ffp-contract=off; $fp_commands counts them all
#   fused_ops OBJ...         how many fused multiply-adds (fmadd, fmsub, fnmadd, fnmsub) the
#                            aarch64 objects hold
#   glibc_newer SO           the imported symbols of SO versioned after GLIBC_2.17, one a line
#   libm_other SO            the functions SO imports from libm other than those exact on
#                            every platform (sqrt, fabs, floor, ceil, ldexp, frexp, fmin, fmax)
# shellcheck disable=SC2034 # fp_commands is read by the sourcing script

fp_unflagged() {
  # the Windows Luas are Debian's sources cross-built (not ours): -o keeps make from them
  b=build/check-fp
  fp_commands=$(make -n -B -o "$b/windows-x64/vm/luajit/.built" -o "$b/windows-x64/vm/lua5.4/.built" \
      -o "$b/windows-x64/sat.def" --no-print-directory BUILD="$b" "$@" 2>&1 |
    sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' |
    awk '$1 ~ /(^|[-\/])(cc|gcc|clang)$/ && / (src|spec|bench|tools)\/[^ ]*\.c/' | tee "$b.commands" | wc -l)
  grep -v -e '-ffp-contract=off' "$b.commands"
  return 0
}

fused_ops() {
  n=0
  for o in "$@"; do
    k=$(aarch64-linux-gnu-objdump -d "$o" | grep -cE '[[:space:]]fn?m(add|sub)[[:space:]]')
    n=$((n + k))
  done
  echo "$n"
}

glibc_newer() {
  objdump -T "$1" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\(?GLIBC_[0-9.]+\)?$/) {
      v = $i; gsub(/[()]/, "", v); sub(/^GLIBC_/, "", v); split(v, p, ".")
      if (p[1] > 2 || (p[1] == 2 && p[2] + 0 > 17)) print $NF "@GLIBC_" v } }'
}

libm_other() {
  libm=$(gcc -print-file-name=libm.so.6)
  nm -D --defined-only "$libm" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u >build/libm-functions
  nm -D --undefined-only "$1" | awk '{ sub(/@.*/, "", $2); print $2 }' | sort -u |
    comm -12 - build/libm-functions |
    grep -v -x -e sqrt -e fabs -e floor -e ceil -e ldexp -e frexp -e fmin -e fmax
  return 0
}
