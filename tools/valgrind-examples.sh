#!/bin/sh
# valgrind-examples.sh [BUILD]: runs every example program under valgrind's memcheck
# against BUILD's ICD (default build/, the tree `make run` leaves), at sizes valgrind
# gets through in seconds, and fails on any memcheck error or definitely lost block.
# Only the host process is checked: the runtime, the ocl-icd loader and the simulation
# model (model.so, loaded into the process); the compiler runs in a child process of
# its own, which valgrind does not follow. Each example's output and valgrind's report
# are in BUILD/valgrind/NAME.log.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
export OCL_ICD_VENDORS="$here/$build/clhls.icd" CLHLS_CACHE_DIR="$here/$build/cache"
mkdir -p "$build/valgrind"
failed=0
check() {
    name=$1
    shift
    log="$build/valgrind/$name.log"
    if valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
        --errors-for-leak-kinds=definite "$build/examples/$name/$name" \
        "examples/$name/$name.cl" "$@" > "$log" 2>&1 && grep -q PASSED "$log"; then
        printf '%-16s clean   %s\n' "$name" "$(grep -o 'ERROR SUMMARY: [0-9]* errors' "$log")"
    else
        printf '%-16s FAILED  see %s\n' "$name" "$log"
        failed=1
    fi
}
check vadd 4096
check matmul_tiled 16
check prefix_sum 1024 256
check box_blur 40 30
check transpose 32 32
check bank_conflicts 64 32
check histogram 4096
exit $failed
