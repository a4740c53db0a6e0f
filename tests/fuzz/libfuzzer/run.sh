#!/bin/sh
# Runs every libFuzzer harness of a CLHLS_FUZZERS build tree (`make fuzz`) for a
# bounded time, one after the other (one process each), each on a working copy of its
# seed corpus in BUILD/fuzz-corpus/NAME (kept between runs: what one run finds, the
# next starts from) with the dictionary NAME.dict (the inputs' keys and names). A crash, leak, timeout or sanitizer report leaves its input in
# BUILD/fuzz-artifacts/ and makes the exit status non-zero once every harness ran.
# Usage: run.sh BUILD SECONDS
set -u
build=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/fuzz-artifacts"
failed=""
for name in binary board options metadata; do
    work="$build/fuzz-corpus/$name"
    mkdir -p "$work"
    cp -n "$here/corpus/$name"/* "$work"/ 2>/dev/null || true
    echo "== fuzz_$name: ${seconds} s"
    if ! "$build/tests/fuzz/libfuzzer/fuzz_$name" -max_total_time="$seconds" -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 -dict="$here/$name.dict" \
            -artifact_prefix="$build/fuzz-artifacts/$name-" "$work" \
            >"$build/fuzz-artifacts/$name.log" 2>&1; then
        failed="$failed $name"
        tail -n 60 "$build/fuzz-artifacts/$name.log"
    fi
    awk '/^stat::number_of_executed_units/ { runs = $2 }
         /^stat::average_exec_per_sec/ { rate = $2 }
         END { printf "   %s runs, %s per second\n", runs, rate }' "$build/fuzz-artifacts/$name.log"
done
if [ -n "$failed" ]; then
    echo "fuzz: failed:$failed (inputs and logs in $build/fuzz-artifacts/)"
    exit 1
fi
echo "fuzz: every harness ran ${seconds} s with no failure"
