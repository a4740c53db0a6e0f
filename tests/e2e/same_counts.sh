#!/bin/sh
# same_counts.sh MODE PROGRAM [ARGS...]: runs a host program twice, once as it runs by
# default and once with the simulator's shortcut of MODE turned off, and checks that
# both runs succeed and that every kernel took the same cycles and counted the same
# events (the lines CLHLS_VERBOSE=1 prints).
#   clocks  CLHLS_SIM_ALL_CLOCKS=1 clocks every kernel in every cycle (by default the
#           clocks of quiet kernels stop); the program must run two kernels or more.
#   jumps   CLHLS_SIM_EVERY_CYCLE=1 evaluates the model in every cycle and reads the
#           counters through the register port (by default the simulator jumps over
#           cycles where nothing moves, and a kernel's control block hands its final
#           counts over once done); the default run must have jumped over some.
set -eu
mode=$1
shift
case $mode in
clocks) variable=CLHLS_SIM_ALL_CLOCKS ;;
jumps) variable=CLHLS_SIM_EVERY_CYCLE ;;
*) echo "same_counts.sh: unknown mode $mode"; exit 2 ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for off in 0 1; do
    if ! env CLHLS_VERBOSE=1 "$variable=$off" "$@" >"$dir/out$off" 2>&1; then
        cat "$dir/out$off"
        echo "FAILED: the run with $variable=$off"
        exit 1
    fi
    grep "cycles simulated" "$dir/out$off" >"$dir/counts$off" || true
done
runs=$(wc -l <"$dir/counts0")
if [ "$runs" -lt 1 ] || { [ "$mode" = clocks ] && [ "$runs" -lt 2 ]; }; then
    cat "$dir/out0"
    echo "FAILED: too few kernel runs ($runs) to compare"
    exit 1
fi
if ! diff "$dir/counts1" "$dir/counts0"; then
    echo "FAILED: cycles or counters differ with $variable=1 (below) and by default (above)"
    exit 1
fi
jumped=$(sed -n 's/.*: \([0-9]*\) of its cycles jumped over.*/\1/p' "$dir/out0" |
         awk '{ s += $1 } END { print s + 0 }')
if [ "$mode" = jumps ] && [ "$jumped" -eq 0 ]; then
    cat "$dir/out0"
    echo "FAILED: the default run jumped over no cycle"
    exit 1
fi
echo "PASS: $runs kernel runs, the same cycles and counters with $variable=0 and 1" \
     "($jumped cycles jumped over by default)"
