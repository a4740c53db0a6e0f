#!/bin/sh
# The clhls command line: `boards` lists the default board, `build --no-model
# --dump-after=schedule` prints the scheduled IR and the cache entry, a bad kernel
# exits 1 with its diagnostic, an unknown pass name is refused, and a bad invocation
# prints the usage.
set -u
clhls=$1; kernel=$2
fail() { echo "FAIL: $*"; exit 1; }
out=$("$clhls" boards) || fail "clhls boards exited $?"
echo "$out" | grep -q "^sim_dc .*(default)$" || fail "boards: $out"
out=$("$clhls" build "$kernel" --no-model --dump-after=schedule 2>&1) || fail "build: $out"
echo "$out" | grep -q "^kernel vadd (3 args, 3 load-store units" || fail "dump: $out"
echo "$out" | grep -q "entry: " || fail "no cache entry: $out"
bad=$(mktemp -d)
printf '__kernel void k(__global int *a, __local int *t)\n{\n    async_work_group_copy(t, a, 2, 0);\n}\n' > "$bad/async.cl"
out=$("$clhls" build "$bad/async.cl" --no-model 2>&1) && fail "bad kernel built"
rm -rf "$bad"
echo "$out" | grep -q "^async.cl:3:5: error: OpenCL builtin 'async_work_group_copy' is not supported yet" ||
    fail "bad kernel: $out"
out=$("$clhls" build "$kernel" --no-model --dump-after=nosuchpass 2>&1) && fail "unknown pass accepted"
echo "$out" | grep -q "no such pass (passes: lower cfg ifconvert memorder schedule)" || fail "pass: $out"
"$clhls" frobnicate 2>/dev/null && fail "unknown command accepted"
echo PASS
