#!/bin/sh
# Middle-end tests: each dump/NAME.cl names a pass (`// PASS: name`) and lists
# `// CHECK: text` lines; `clhls build --no-model --dump-after=PASS` must print every
# CHECK text, in order, each on a later line than the one before (fixed text, where
# {{.*}} stands for anything on the line, as in FileCheck); `// OPTIONS: opts` gives
# build options. Prints PASS or the first mismatch with the dump.
set -u
clhls=$1; dir=$2
fail=0; n=0
for cl in "$dir"/*.cl; do
    n=$((n + 1))
    pass=$(sed -n 's|^// PASS: *||p' "$cl")
    options=$(sed -n 's|^// OPTIONS: *||p' "$cl")
    dump=$("$clhls" build "$cl" --no-model --dump-after="$pass" --options "$options" 2>&1) || {
        echo "FAIL $(basename "$cl"): build failed"; echo "$dump"; fail=1; continue; }
    missing=$(sed -n 's|^// CHECK: ||p' "$cl" | awk -v dump="$dump" '
        BEGIN { nl = split(dump, lines, "\n"); at = 1 }
        function matches(line, check,    parts, np, p, pos) {
            np = split(check, parts, /\{\{\.\*\}\}/)
            for (p = 1; p <= np; p++) {
                pos = index(line, parts[p])
                if (!pos) return 0
                line = substr(line, pos + length(parts[p]))
            }
            return 1
        }
        {
            found = 0
            for (i = at; i <= nl; i++)
                if (matches(lines[i], $0)) { found = 1; at = i + 1; break }
            if (!found) { print; exit }
        }')
    if [ -n "$missing" ]; then
        echo "FAIL $(basename "$cl"): after pass $pass, not found in order: $missing"
        echo "$dump"
        fail=1
    fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no dump tests in $dir"; exit 1; }
[ "$fail" -eq 0 ] && echo "PASS: $n dump tests"
exit "$fail"
