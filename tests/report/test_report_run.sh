#!/bin/sh
# The last run, end to end: a host program (examples/vadd) builds and runs its kernel
# through the clhls ICD, the runtime records the run in the build's cache entry
# (last_run.json: the kernel, its geometry and counters), and `clhls report` of the same
# source finds that entry and shows the run's counters.
set -u
clhls=$1; vadd=$2; kernel=$3
fail() { echo "FAIL: $*"; exit 1; }
: "${CLHLS_CACHE_DIR:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -f "$CLHLS_CACHE_DIR"/*/last_run.json
out=$("$vadd" "$kernel" 2>&1) || fail "vadd: $out"
set -- "$CLHLS_CACHE_DIR"/*/last_run.json
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one last_run.json, found: $*"
busy=$(python3 - "$1" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["kernels"]["vadd"]
c = run["counters"]
assert run["ok"] is True and run["board"] == "sim_dc", run
assert run["work_dim"] == 1 and c["work_items"] == run["global"][0] > 0, run
assert 0 < c["busy_cycles"] <= run["cycles"], run
print(int(c["busy_cycles"]))
PY
) || fail "last_run.json: $(cat "$1")"
out=$("$clhls" report "$kernel" -o "$work/vadd.html" 2>&1) || fail "report: $out"
echo "$out" | grep -q "with the last run" || fail "the report did not find the run: $out"
grep -q "<td class=\"num\">$busy</td>" "$work/vadd.html" ||
    fail "the page does not show busy_cycles $busy"
echo PASS
