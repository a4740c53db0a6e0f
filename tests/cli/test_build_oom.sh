#!/bin/sh
# Out of memory in the compiler: `clhls build` of a small kernel (with its model) into
# a cache without entries, once with no failure to count the allocations that go
# through the allocation hook (common/alloc.h; the compiler's and the simulator bridge's),
# N, then once with each of them failing in turn (CLHLS_FAIL_ALLOC_AFTER=K-1 fails
# allocation K and every later one). Every N is tried while N is at most 150; beyond,
# a deterministic spread of 60 (the first five, the last five and 50 evenly between).
# Each run must end with status 1 or 2 and a message (out of memory, or a file that
# could not be read for want of it), no sanitizer report (LeakSanitizer is on: nothing
# leaks), no scratch directory left in the cache, and no entry but a whole one (the
# next build takes it as a hit). The cache's Verilator runtime (compiled once) is kept
# between runs; everything else in it is removed first.
set -u
clhls=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cache=$CLHLS_CACHE_DIR
# Empties the cache but for the Verilator runtime.
clear_cache() {
    mkdir -p "$cache"
    find "$cache" -mindepth 1 -maxdepth 1 ! -name verilated-runtime -exec rm -rf {} +
}
cat > "$tmp/k.cl" <<'KERNEL'
__kernel void twice(__global const int *a, __global int *b)
{
    b[get_global_id(0)] = 2 * a[get_global_id(0)];
}
KERNEL

# Once without counting, so that the cache has Verilator's runtime and every counted
# build below makes the same allocations.
clear_cache
"$clhls" build "$tmp/k.cl" >"$tmp/out" 2>"$tmp/err" ||
    fail "the build fails: $(cat "$tmp/err")"
clear_cache
CLHLS_FAIL_ALLOC_AFTER=1000000000 "$clhls" build "$tmp/k.cl" >"$tmp/out" 2>"$tmp/err" ||
    fail "the build fails without injected failures: $(cat "$tmp/err")"
n=$(sed -n 's/^clhls: \([0-9]*\) allocations (CLHLS_FAIL_ALLOC_AFTER)$/\1/p' "$tmp/err")
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "no allocation count: $(cat "$tmp/err")"
if [ "$n" -le 150 ]; then
    points=$(seq 1 "$n")
else
    points=$( (seq 1 5; seq $((n - 4)) "$n"; seq 1 50 | awk -v n="$n" '{ print int(1 + $1 * (n - 1) / 51) }') |
             sort -n -u)
fi
tried=0
for k in $points; do
    clear_cache
    CLHLS_FAIL_ALLOC_AFTER=$((k - 1)) "$clhls" build "$tmp/k.cl" >"$tmp/out" 2>"$tmp/err"
    status=$?
    what="allocation $k of $n failing"
    [ "$status" -eq 1 ] || [ "$status" -eq 2 ] ||
        fail "$what: status $status: $(cat "$tmp/out" "$tmp/err")"
    grep -q "Sanitizer\|runtime error" "$tmp/err" && fail "$what: $(cat "$tmp/err")"
    grep -q "out of memory\|Cannot allocate memory" "$tmp/err" || fail "$what: no message: $(cat "$tmp/err")"
    left=$(find "$cache" -mindepth 1 -maxdepth 1 -name 'tmp*')
    [ -z "$left" ] || fail "$what: scratch directories left: $left"
    if [ -n "$(find "$cache" -mindepth 1 -maxdepth 1 -name '[0-9a-f]*')" ]; then
        "$clhls" build "$tmp/k.cl" >"$tmp/out" 2>"$tmp/err" &&
            grep -q "^clhls: cache hit" "$tmp/err" && ! grep -q damaged "$tmp/err" ||
            fail "$what: the entry left is not whole: $(cat "$tmp/err")"
    fi
    tried=$((tried + 1))
done
clear_cache
echo "PASS: $tried of the build's $n allocations failed in turn, each cleanly"
