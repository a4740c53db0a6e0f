#!/bin/sh
# A kernel of thousands of blocks: 2,000 if-statements in a row, each dividing (a
# division may trap, so LLVM keeps every one behind its branch: 4,001 blocks), built
# with `clhls build --no-model` in a stack of 128 KB. The compiler's working arrays
# grow with the kernel and so live in its arena, never on the stack, whose use stays
# the same for any kernel (under ASan, a stack array of one int per block overflowed
# here). Prints PASS or the build's output.
set -u
clhls=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cl="$dir/many_blocks.cl"
{
    echo "__kernel void many_blocks(__global const int *in, __global int *out)"
    echo "{"
    echo "    int x = in[get_global_id(0)], y = in[0], acc = x;"
    i=0
    while [ "$i" -lt 2000 ]; do
        echo "    if (x == $i) acc = acc / y;"
        i=$((i + 1))
    done
    echo "    out[get_global_id(0)] = acc;"
    echo "}"
} > "$cl"
out=$(ulimit -s 128 && CLHLS_CACHE_DIR="$dir/cache" "$clhls" build "$cl" --no-model 2>&1)
rc=$?
entry=$(printf '%s\n' "$out" | sed -n 's/^  entry: //p')
if [ "$rc" -eq 0 ] && [ -n "$entry" ] && [ -f "$entry/rtl/clhls_cu_many_blocks.v" ]; then
    echo "PASS: a kernel of 2000 if-statements built in a stack of 128 KB"
    exit 0
fi
echo "FAIL: clhls build exited with $rc"
printf '%s\n' "$out" | head -40
exit 1
