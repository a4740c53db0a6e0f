#!/bin/sh
# report.json of single work-item kernels' loops (pipeline_report.cl): a streaming loop
# at II 1, an in-order float sum at the board's float adder latency, #pragma ii 5 met
# (II 5, the pragma the reason), #pragma ivdep pipelining an indirect update at II 1,
# #pragma disable_loop_pipelining keeping its loop serial with the pragma's line, a
# search speculated at II 1, and a float sum per row whose inner loop interleaves as
# many rows as the adder's latency. Access patterns are across iterations: a[i]
# consecutive and burst-coalesced, a[idx[i]] irregular, each with the cycles its memory
# node takes (sim_dc's memory latency and more). `clhls report` draws them as a
# loop analysis, with a finding for the float sum's II and none for the interleaved
# loop's.
set -u
clhls=$1; kernel=$2; board=$3
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CLHLS_CACHE_DIR="$work/cache"
out=$("$clhls" build "$kernel" --board "$(basename "$board" .json)" --no-model 2>&1) || fail "build: $out"
entry=$(echo "$out" | sed -n 's/^  entry: //p')
[ -f "$entry/report.json" ] || fail "no report.json in the entry '$entry': $out"
python3 - "$entry/report.json" "$board" <<'PY' || fail "report.json: $out"
import json, sys
report = json.load(open(sys.argv[1]))
board = json.load(open(sys.argv[2]))
fadd, memory = board["latency"]["fp_add"], board["memory"]["latency_cycles"]
loops = {}
for k in report["kernels"]:
    assert k["single_work_item"], k["name"]
    mine = [r for r in k["regions"] if r["kind"] == "loop"]
    assert len(mine) == (2 if k["name"] == "rows" else 1), (k["name"], mine)
    loops[k["name"]] = max(mine, key=lambda r: r["nesting"])
def expect(name, mode, ii, reason):
    l = loops[name]
    assert (l["mode"], l["ii"]) == (mode, ii), (name, l["mode"], l["ii"], l["ii_reason"])
    assert reason in l["ii_reason"], (name, l["ii_reason"])
expect("stream", "pipelined", 1, "")
assert loops["stream"]["ii_reason"] == "", loops["stream"]
expect("fsum", "pipelined", fadd, "goes through the fadd at ")
expect("asked", "pipelined", 5, "#pragma ii 5 at ")
assert loops["asked"]["ii_reason"].endswith(":18"), loops["asked"]
expect("scatter", "pipelined", 1, "")
off = loops["off"]
assert off["mode"] == "serial" and off["ii"] > 1, off
assert off["ii_reason"].startswith("one iteration at a time: #pragma disable_loop_pipelining at "), off
assert off["ii_reason"].endswith(":31"), off
expect("search", "pipelined", 1, "")
assert loops["search"]["speculated"] > 2, loops["search"]
assert loops["stream"]["speculated"] == 0, loops["stream"] # counted: none past the exit
expect("rows", "pipelined", fadd, "; %d outer iterations take turns in it, so an iteration "
       "starts every cycle" % fadd)
assert loops["rows"]["interleaved"] == fadd, loops["rows"]
assert loops["fsum"]["interleaved"] == 1, loops["fsum"]
lsus = {k["name"]: k["lsus"] for k in report["kernels"]}
for l in lsus["stream"]:
    assert (l["pattern"], l["stride_across"], l["burst"]) == ("consecutive", "iterations", True), l
loads = sorted(l["pattern"] for l in lsus["scatter"] if l["kind"] == "load")
assert loads == ["consecutive", "consecutive", "irregular"], lsus["scatter"]
for name, units in lsus.items(): # every access has its scheduled cycles
    for l in units:
        assert l["latency"] >= memory, (name, l)
store = [l for l in lsus["scatter"] if l["kind"] == "store"][0]
assert (store["pattern"], store["burst"]) == ("irregular", False), store
PY
# The page shows them as a loop analysis, and the loop above II 1 as a finding.
"$clhls" report "$kernel" --board "$(basename "$board" .json)" -o "$work/r.html" > /dev/null 2>&1 ||
    fail "clhls report"
for text in 'Loops (single work-item: iterations pipelined)' 'pipelined, II 1 |' \
            "loop pipelined at II $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['latency']['fp_add'])" "$board"): a value carried"; do
    grep -qF "$text" "$work/r.html" || fail "report page: no '$text'"
done
grep -qF 'pipelined</span> '"$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['latency']['fp_add'])" "$board")"' interleaved' "$work/r.html" ||
    fail "report page: the interleaved loop"
[ "$(grep -o 'loop pipelined at II [0-9]*: a value carried' "$work/r.html" | wc -l)" -eq 1 ] ||
    fail "report page: a finding for the interleaved loop"
echo PASS
