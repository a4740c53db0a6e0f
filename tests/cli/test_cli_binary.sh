#!/bin/sh
# What `clhls build` makes for host programs: a kernel source no earlier run has built
# (a comment makes it new), with -D and -I, is built with -o FILE.clbin; the steps of
# the model's build are shown; then a host program (test_clbin) loads the binary with
# clCreateProgramWithBinary through the ICD and checks the kernel's results, and with
# CLHLS_VERILATOR=/bin/false (a build that misses the cache fails) builds the source
# with the same options, which must come from the cache, and with other options,
# which must fail; the same again from the kernel's directory with a relative -I. The
# cache's entries are removed at the end.
set -u
clhls=$1; host=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
mkdir "$tmp/inc"
printf '#define OFFSET 7\n' > "$tmp/inc/offset.h"
cat > "$tmp/scale.cl" <<KERNEL
/* $$ $(date +%s%N) */
#include "offset.h"
__kernel void scale(__global const int *a, __global int *b)
{
    size_t i = get_global_id(0);
    b[i] = SCALE * a[i] + OFFSET;
}
KERNEL
"$clhls" build "$tmp/scale.cl" -D SCALE=3 -I "$tmp/inc" -o "$tmp/scale.clbin" \
    >"$tmp/out" 2>"$tmp/err" || fail "clhls build exited $?: $(cat "$tmp/out" "$tmp/err")"
for step in "Verilator" "C++ compile of the model" "link of the model"; do
    grep -q "^clhls: $step done in" "$tmp/err" || fail "no step $step: $(cat "$tmp/err")"
done
grep -q "^$tmp/scale.clbin: program binary for sim_dc, [0-9]* bytes$" "$tmp/out" ||
    fail "no binary: $(cat "$tmp/out")"
CLHLS_VERILATOR=/bin/false "$host" "$tmp/scale.clbin" "$tmp/scale.cl" "-D SCALE=3 -I $tmp/inc" \
    "-D SCALE=4 -I $tmp/inc" > "$tmp/host" 2>&1 || fail "$(cat "$tmp/host")"
# The host program's relative include directory is its working directory's: the same
# options, the same entry.
(cd "$tmp" && CLHLS_VERILATOR=/bin/false "$host" scale.clbin scale.cl "-D SCALE=3 -I inc" \
    "-D SCALE=4 -I inc") > "$tmp/host-relative" 2>&1 ||
    fail "relative -I: $(cat "$tmp/host-relative")"
"$clhls" cache clean --all > /dev/null || fail "cache clean --all exited $?"
cat "$tmp/host"
