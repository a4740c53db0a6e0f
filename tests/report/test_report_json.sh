#!/bin/sh
# report.json: `clhls build` writes it into the cache entry, and it holds every loop with
# the latency, credits and back-edge FIFO depth that --dump-after=schedule prints, the
# barrier, the local memory with its ports, and the load-store units with their lines.
set -u
clhls=$1; kernel=$2
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CLHLS_CACHE_DIR="$work/cache"
out=$("$clhls" build "$kernel" --no-model --dump-after=schedule 2>&1) || fail "build: $out"
entry=$(echo "$out" | sed -n 's/^  entry: //p')
[ -f "$entry/report.json" ] || fail "no report.json in the entry '$entry'"
# "latency L, credits C, back-edge fifo F" of each loop in the dump, in region order
echo "$out" | sed -n 's/.*region \([0-9]*\): loop at line \([0-9]*\) .*latency \([0-9]*\), credits \([0-9]*\), back-edge fifo \([0-9]*\).*/\1 \2 \3 \4 \5/p' > "$work/dump"
[ "$(wc -l < "$work/dump")" -eq 2 ] || fail "the dump shows $(wc -l < "$work/dump") loops: $out"
python3 - "$entry/report.json" "$work/dump" <<'PY' || fail "report.json does not match the dump"
import json, sys
report = json.load(open(sys.argv[1]))
dump = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
k, = report["kernels"]
assert k["name"] == "block_sums", k["name"]
loops = [(r["id"], r["line"], r["latency"], r["credits"], r["back_fifo"])
         for r in k["regions"] if r["kind"] == "loop"]
assert loops == dump, (loops, dump)
assert all(c >= l for (_, _, l, c, _) in loops), loops
assert [r["line"] for r in k["regions"] if r["kind"] == "barrier"] == [12]
m, = k["local_memories"]
assert m["name"] == "partial" and m["bytes"] == 1024 and m["banks"] >= 1, m
assert sorted((p["kind"], p["line"]) for p in m["ports"]) == [("load", 16), ("store", 11)], m
# partial[l] and partial[j]: any bank each, so the banks pass keeps the crossbar
assert m["wiring"] == "crossbar" and m["wiring_reason"] == "port 0 may hit any bank", m
assert all(p["banks"] == list(range(m["banks"])) for p in m["ports"]), m
lsus = sorted((l["kind"], l["line"], l["pattern"]) for l in k["lsus"])
assert lsus == [("load", 10, "consecutive"), ("store", 17, "uniform")], lsus
assert any(o["kind"] == "add" and o["line"] == 10 for o in k["operators"]), k["operators"]
PY
echo PASS
