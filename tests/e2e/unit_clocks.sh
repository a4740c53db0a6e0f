#!/bin/sh
# unit_clocks.sh PROGRAM FILE.cl: runs an example program twice, once as it runs by
# default (the simulator stops the clock of every kernel that is quiet) and once with
# CLHLS_SIM_ALL_CLOCKS=1 (every kernel clocked every cycle), and checks that both runs
# pass and that every kernel took the same cycles and counted the same events.
set -eu
program=$1
source=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for clocks in 0 1; do
    CLHLS_VERBOSE=1 CLHLS_SIM_ALL_CLOCKS=$clocks "$program" "$source" >"$dir/out$clocks" 2>&1 ||
        { cat "$dir/out$clocks"; echo "FAILED: the run with CLHLS_SIM_ALL_CLOCKS=$clocks"; exit 1; }
    grep -q PASSED "$dir/out$clocks" ||
        { cat "$dir/out$clocks"; echo "FAILED: no PASSED with CLHLS_SIM_ALL_CLOCKS=$clocks"; exit 1; }
    grep "cycles simulated" "$dir/out$clocks" >"$dir/counts$clocks" || true
done
kernels=$(wc -l <"$dir/counts0")
if [ "$kernels" -lt 2 ]; then
    cat "$dir/out0"
    echo "FAILED: expected the counters of two kernels or more"
    exit 1
fi
if ! diff "$dir/counts1" "$dir/counts0"; then
    echo "FAILED: cycles or counters differ with the quiet kernels' clocks stopped"
    exit 1
fi
echo "PASS: $kernels kernel runs, the same cycles and counters with and without stopped clocks"
