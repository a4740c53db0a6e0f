#!/bin/sh
# Cache entries are checked before use (common/manifest.h). A build's entry has a
# manifest.json that lists its files; a byte flipped in metadata.json, a deleted
# Verilog file, a manifest of another format and a truncated model.so are each
# refused with the reason in the log ("cache entry KEY is damaged (...); rebuilt") and
# the entry is rebuilt; the rebuilt program runs through the ICD (test_clbin: its
# binary and a cache hit of its source); a truncated model.so in the runtime's
# unpacked binary (bin-HASH/) is replaced on the next load, and so is Verilator's
# compiled runtime (with its precompiled headers, which every C++ unit of a model uses)
# when a new design needs it. Then four `clhls build`
# of one new source start at the same moment in a cache without entries: all
# succeed, there is exactly one entry, whole, no scratch directory is left, and the
# next build is a hit. The cache's Verilator runtime (compiled once) is kept between
# runs; everything else in it is removed first.
set -u
clhls=$1; host=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
cache=$CLHLS_CACHE_DIR
mkdir -p "$cache"
find "$cache" -mindepth 1 -maxdepth 1 ! -name verilated-runtime -exec rm -rf {} +
# build ARGS...: clhls build of scale.cl with -D SCALE=3 -I inc (stdout in $tmp/out,
# stderr in $tmp/err), which must succeed; $entry is the entry it used.
build() {
    "$clhls" build "$tmp/scale.cl" -D SCALE=3 -I "$tmp/inc" "$@" >"$tmp/out" 2>"$tmp/err" ||
        fail "clhls build $* exited $?: $(cat "$tmp/out" "$tmp/err")"
    entry=$(sed -n 's/^  entry: //p' "$tmp/out")
}
# rebuilt REASON: the last build refused its entry for REASON and built it again.
rebuilt() {
    grep -qF "is damaged ($1" "$tmp/err" || fail "not refused for '$1': $(cat "$tmp/err")"
    grep -q "cache hit" "$tmp/err" && fail "a damaged entry was a hit: $(cat "$tmp/err")"
}
# hit: the last build was a cache hit, with nothing refused.
hit() {
    grep -q "^clhls: cache hit" "$tmp/err" || fail "no cache hit: $(cat "$tmp/err")"
    grep -q "damaged" "$tmp/err" && fail "refused a whole entry: $(cat "$tmp/err")"
}
mkdir "$tmp/inc"
printf '#define OFFSET 7\n' > "$tmp/inc/offset.h"
cat > "$tmp/scale.cl" <<'KERNEL'
#include "offset.h"
__kernel void scale(__global const int *a, __global int *b)
{
    size_t i = get_global_id(0);
    b[i] = SCALE * a[i] + OFFSET;
}
KERNEL

# Damage to an entry without a model (cheap to rebuild).
build --no-model
grep -q '"format":1' "$entry/manifest.json" || fail "manifest: $(cat "$entry/manifest.json")"
grep -q '"path":"metadata.json","size":[0-9]*,"xxh3":"[0-9a-f]\{16\}"' "$entry/manifest.json" ||
    fail "manifest: $(cat "$entry/manifest.json")"
python3 -c 'import sys; p = sys.argv[1]; d = bytearray(open(p, "rb").read()); d[10] ^= 1; open(p, "wb").write(d)' \
    "$entry/metadata.json"
build --no-model
rebuilt "metadata.json: contents changed"
rm "$entry/rtl/clhls_top.v"
build --no-model
rebuilt "rtl/clhls_top.v: missing"
sed -i 's/"format":1/"format":99/' "$entry/manifest.json"
build --no-model
rebuilt "manifest.json: format 99, expected 1"
build --no-model
hit

# A truncated model: rebuilt, and the rebuilt program runs (its binary, then its source
# from the cache with no Verilator to build anything).
build -o "$tmp/scale.clbin"
size=$(stat -c %s "$entry/model.so")
truncate -s 1000 "$entry/model.so"
build -o "$tmp/scale.clbin"
rebuilt "model.so: size 1000, expected $size"
CLHLS_VERILATOR=/bin/false "$host" "$tmp/scale.clbin" "$tmp/scale.cl" "-D SCALE=3 -I $tmp/inc" \
    "-D SCALE=4 -I $tmp/inc" > "$tmp/host" 2>&1 || fail "$(cat "$tmp/host")"
hit_line=$(cat "$tmp/host")
# The runtime's unpacked binary, truncated: unpacked again.
bin=$(find "$cache" -mindepth 1 -maxdepth 1 -name 'bin-*')
[ -n "$bin" ] && [ -f "$bin/manifest.json" ] || fail "no unpacked binary with a manifest: $bin"
truncate -s 1000 "$bin/model.so"
CLHLS_VERILATOR=/bin/false "$host" "$tmp/scale.clbin" "$tmp/scale.cl" "-D SCALE=3 -I $tmp/inc" \
    "-D SCALE=4 -I $tmp/inc" > "$tmp/host" 2>&1 || fail "after a damaged bin entry: $(cat "$tmp/host")"
cmp -s "$bin/model.so" "$entry/model.so" || fail "the damaged bin entry was not replaced"

# Verilator's compiled runtime (a cache entry of its own, one per Verilator, compiler
# and set of sources), its archive and its -O2 precompiled header truncated: a build
# that needs it (a new design) compiles it again and says why. Every runtime entry in
# the cache is truncated (an older one may be there); the one the build uses is whole
# again after it.
rts=$(find "$cache/verilated-runtime" -mindepth 2 -name libverilated_pic.a)
[ -n "$rts" ] || fail "no runtime entry in $cache/verilated-runtime"
for rt in $rts; do
    [ -f "$(dirname "$rt")/manifest.json" ] || fail "a runtime entry without a manifest: $rt"
    truncate -s 1000 "$rt"
    gch=$(dirname "$rt")/pch/clhls_verilated.h.gch/O2.gch
    [ -f "$gch" ] && truncate -s 1000 "$gch"
done
build -D VARIANT=1
grep -qE "runtime in the cache is damaged \((libverilated_pic.a|pch/clhls_verilated.h.gch/O2.gch): size 1000, expected [0-9]+\); compiled again" \
    "$tmp/err" || fail "the damaged runtime was not refused: $(cat "$tmp/err")"
whole=0
for rt in $rts; do
    [ "$(stat -c %s "$rt")" -gt 1000 ] && whole=$((whole + 1)) && used=$(dirname "$rt")
done
[ "$whole" -eq 1 ] || fail "$whole runtime archives replaced, expected the one the build used"

# Verilator's headers, precompiled in the runtime's entry at -O0 (the once-only unit)
# and -O2 (the per-cycle units, also at -O1, and the harness): whole again, in its
# manifest, and used by every C++ unit of a model, as a compiler that records g++'s -H
# shows (a precompiled header it uses is marked "!").
for level in O0 O2; do
    [ "$(stat -c %s "$used/pch/clhls_verilated.h.gch/$level.gch")" -gt 1000 ] ||
        fail "no whole $level header in $used"
    grep -q "\"path\":\"pch/clhls_verilated.h.gch/$level.gch\"" "$used/manifest.json" ||
        fail "no $level header in the runtime's manifest: $(cat "$used/manifest.json")"
done
cat > "$tmp/cxx-h" <<SCRIPT
#!/bin/sh
g++ -H "\$@" 2>"$tmp/cxx.\$\$"; rc=\$?
src=""; prev=""
for a in "\$@"; do [ "\$prev" = -c ] && src=\$a; prev=\$a; done
echo "\$src \$(grep -c '^! .*/clhls_verilated.h.gch/O[02].gch' "$tmp/cxx.\$\$")" >> "$tmp/pch-uses"
[ \$rc -eq 0 ] || cat "$tmp/cxx.\$\$" >&2
exit \$rc
SCRIPT
chmod +x "$tmp/cxx-h"
# (a cache of its own: the compiler's name makes a runtime entry of its own)
CLHLS_CXX="$tmp/cxx-h" CLHLS_CACHE_DIR="$tmp/pch-cache" \
    "$clhls" build "$tmp/scale.cl" -D SCALE=3 -I "$tmp/inc" >"$tmp/out" 2>"$tmp/err" ||
    fail "the build with g++ -H exited $?: $(cat "$tmp/out" "$tmp/err")"
units=$(grep -cE '/(model_[0-9]+|harness)\.cpp ' "$tmp/pch-uses")
[ "$units" -ge 3 ] || fail "$units model units compiled: $(cat "$tmp/pch-uses")"
grep -qE '/(model_[0-9]+|harness)\.cpp 0$' "$tmp/pch-uses" &&
    fail "units compiled without a precompiled header: $(cat "$tmp/pch-uses")"

# Four builds of one new source at once, in a cache without entries.
find "$cache" -mindepth 1 -maxdepth 1 ! -name verilated-runtime -exec rm -rf {} +
printf '/* %s */\n__kernel void racer(__global int *a)\n{\n    a[get_global_id(0)] *= 3;\n}\n' \
    "$$ $(date +%s%N)" > "$tmp/racer.cl"
pids=""
for i in 1 2 3 4; do
    (while [ ! -e "$tmp/go" ]; do sleep 0.01; done
     exec "$clhls" build "$tmp/racer.cl" >"$tmp/racer$i.out" 2>"$tmp/racer$i.err") &
    pids="$pids $!"
done
sleep 0.2
touch "$tmp/go"
i=0
for pid in $pids; do
    i=$((i + 1))
    wait "$pid" || fail "concurrent build $i exited $?: $(cat "$tmp/racer$i.out" "$tmp/racer$i.err")"
done
entries=$(find "$cache" -mindepth 1 -maxdepth 1 -name '[0-9a-f]*' | wc -l)
[ "$entries" -eq 1 ] || fail "$entries entries after the concurrent builds: $(ls "$cache")"
left=$(find "$cache" -mindepth 1 -maxdepth 1 -name 'tmp*')
[ -z "$left" ] || fail "scratch directories left: $left"
entry=$(find "$cache" -mindepth 1 -maxdepth 1 -name '[0-9a-f]*')
for i in 1 2 3 4; do
    grep -qx "  entry: $entry" "$tmp/racer$i.out" || fail "build $i: $(cat "$tmp/racer$i.out")"
done
"$clhls" build "$tmp/racer.cl" >"$tmp/out" 2>"$tmp/err" || fail "build after: $(cat "$tmp/err")"
hit
echo "PASS: damaged entries refused and rebuilt, concurrent builds make one entry; $hit_line"
