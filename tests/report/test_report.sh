#!/bin/sh
# clhls report: the exit codes; a page without synthesis results or a run (it says how
# to get them); then with a synth.json in the entry and a last_run.json in another entry
# of the same program (as a host program's build through the ICD makes), a page that
# shows them. Every page is rendered in headless Chromium, which must log no console
# message (a probe page with a console.error shows that such a message is caught),
# and the rendered DOM must hold each section: the region graph with a node per static
# region and a frame per loop, the CFG, loops, load-store units, local memory, barrier
# units, operators, resources, last run, annotated source. Text from the source is
# escaped. Then a flattened synthesis that was placed and routed and does not fit, and
# last the drawing of the channels between a program's kernels.
set -u
clhls=$1; kernel=$2; chromium=$3
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CLHLS_CACHE_DIR="$work/cache"

# Renders a page; its DOM goes to $1.dom. Fails on a console message.
render() {
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
        --enable-logging=stderr --v=0 --dump-dom "file://$1" > "$1.dom" 2> "$1.log" ||
        fail "chromium could not render $1: $(tail -5 "$1.log")"
    grep -q '</html>' "$1.dom" || fail "no DOM for $1"
}
console_messages() { grep -E ':CONSOLE[:(]|Uncaught' "$1.log"; }
# The page of $work/$1.cl, rendered to $work/$1.html.dom, with no console message.
report_page() {
    "$clhls" report "$work/$1.cl" -o "$work/$1.html" > /dev/null 2>&1 || fail "report of $1.cl"
    render "$work/$1.html"
    console_messages "$work/$1.html" && fail "console messages on the page of $1.cl"
}

# The detector catches a console message.
printf '<!DOCTYPE html><html><body><script>console.error("probe")</script></body></html>' \
    > "$work/probe.html"
render "$work/probe.html"
console_messages "$work/probe.html" | grep -q probe || fail "a console message went unseen"

# Exit codes.
"$clhls" report --help | grep -q "^usage: clhls report" || fail "--help"
"$clhls" report > /dev/null 2>&1; [ $? -eq 1 ] || fail "no file: not exit 1"
"$clhls" report "$work/missing.cl" > /dev/null 2>&1; [ $? -eq 1 ] || fail "missing file: not exit 1"
"$clhls" report "$kernel" --board no_such_board > /dev/null 2>&1
[ $? -eq 1 ] || fail "unknown board: not exit 1"
printf '__kernel void k(__global int *a) { a[0] = undeclared; }\n' > "$work/bad.cl"
out=$("$clhls" report "$work/bad.cl" -o "$work/bad.html" 2>&1); [ $? -eq 1 ] || fail "bad source: $out"
echo "$out" | grep -q "bad.cl:1:.*error" || fail "bad source without its diagnostic: $out"
[ ! -e "$work/bad.html" ] || fail "a page for a program that did not build"
# Build options as for clhls build: -D reaches the compiler (the macro decides whether
# the kernel builds), a missing -I directory is the user's error.
printf '#ifndef OK\n#error OK is not defined\n#endif\n__kernel void k(__global int *a) { a[0] = 1; }\n' > "$work/def.cl"
out=$("$clhls" report "$work/def.cl" -D OK -o "$work/def.html" 2>&1) || fail "report -D: $out"
"$clhls" report "$work/def.cl" -o "$work/def.html" > /dev/null 2>&1 && fail "built without -D"
"$clhls" report "$kernel" -I "$work/no/such/dir" > /dev/null 2>&1; [ $? -eq 1 ] || fail "-I: not exit 1"

# Without synthesis results or a run.
out=$("$clhls" report "$kernel" -o "$work/plain.html" 2>&1) || fail "report: $out"
entry=$(echo "$out" | sed -n 's/^  entry: //p')
[ -f "$entry/report.json" ] || fail "no entry in: $out"
render "$work/plain.html"
console_messages "$work/plain.html" && fail "console messages on the page"
grep -q 'clhls synth report_kernel.cl --board sim_dc' "$work/plain.html.dom" ||
    fail "no hint how to synthesize"
grep -q 'No run recorded yet' "$work/plain.html.dom" || fail "no word about the missing run"

# Escaping: the comment's markup is text.
grep -q '&lt;b&gt;not bold&lt;/b&gt; &amp; "quoted"' "$work/plain.html.dom" ||
    fail "the source's markup is not shown as text"
grep -q '<b>not bold' "$work/plain.html" && fail "the source's markup went into the page"

# Synthesis results in the entry, a run recorded in another entry of the same program.
mkdir -p "$entry/synth/sim_dc"
cat > "$entry/synth/sim_dc/synth.json" <<'JSON'
{"board": "sim_dc", "tool": "yosys synth_xilinx", "seconds": 12.5,
 "resources": {"lut": {"used": 43210, "capacity": 1728000}, "ff": {"used": 51234, "capacity": 3456000},
               "bram": {"used": 12, "capacity": 2688}, "dsp": {"used": 0, "capacity": 12288}},
 "modules": {"clhls_cu_block_sums": {"lut": 40001, "ff": 50001, "bram": 11, "dsp": 0}},
 "fmax_mhz": 287.5, "fmax_kind": "estimate",
 "critical_path": {"from": "cu0/r3_stage_2", "to": "cu0/lsu0_req", "levels": 9},
 "fits": true, "files": {}}
JSON
run_entry="$CLHLS_CACHE_DIR/0123456789abcdef0123456789abcdef"
cp -r "$entry" "$run_entry"
rm -rf "$run_entry/synth"
cat > "$run_entry/last_run.json" <<'JSON'
{"format": 1, "kernels": {"block_sums": {"board": "sim_dc", "time": 1700000000, "ok": true,
 "cycles": 98766, "work_dim": 1, "global": [4096], "local": [256],
 "counters": {"local_conflicts": 321, "busy_cycles": 98765, "work_items": 4096,
              "stall_mem_cycles": 4321, "mem_read_requests": 257, "mem_write_requests": 16}}}}
JSON
out=$("$clhls" report "$kernel" -o "$work/full.html" 2>&1) || fail "report: $out"
echo "$out" | grep -q "with synthesis results, with the last run" || fail "not found: $out"
render "$work/full.html"
console_messages "$work/full.html" && fail "console messages on the page"
dom="$work/full.html.dom"
for want in 'id="summary"' 'class="findings"' 'id="resources"' 'id="kernel-block_sums"' 'class="region-graph"' \
    'class="cfg-graph"' 'class="stall-points"' 'class="loops"' 'class="lsus"' 'class="local-ports"' \
    'class="barriers"' 'class="bar-chart operators"' 'class="bar-chart resources-total"' \
    'class="per-cu"' 'id="last-run"' 'class="counters"' 'class="bar-chart run-cycles"' \
    'id="source"' 'class="source"'; do
    grep -q "$want" "$dom" || fail "the page has no $want"
done
grep -q 'Banks behind a crossbar (an arbiter per bank): port 0 may hit any bank' "$dom" ||
    fail "no bank wiring of the local memory"
grep -q 'fmax (estimate)' "$dom" || fail "fmax not labelled an estimate"
grep -q '287.5 MHz' "$dom" || fail "no fmax"
grep -q '43210 of 1728000 (2.5%)' "$dom" || fail "no LUTs against the capacity"
grep -q '40001 (2.31%)' "$dom" || fail "no compute unit's LUTs"
grep -q 'cu0/r3_stage_2' "$dom" || fail "no critical path"
# 257 + 16 requests of 64 bytes in 98765 cycles, against the port's 64 bytes a cycle
grep -q '0.2 of 64.0 B/cycle (0%)' "$dom" || fail "no memory port use of the last run"
grep -q '<td class="num">321</td>' "$dom" || fail "no local_conflicts counter"
grep -q '98765' "$dom" || fail "no busy cycles"
grep -q 'the last run took 24.113 cycles per work-item' "$dom" || fail "no finding from the run"
grep -q 'No synthesis results' "$dom" && fail "says no synthesis with synth.json present"
# the region graph: a node per static region, memory node and barrier, a frame per loop
python3 - "$entry/report.json" "$dom" <<'PY' || fail "the region graph does not match report.json"
import json, re, sys
k, = json.load(open(sys.argv[1]))["kernels"]
dom = open(sys.argv[2]).read()
graph = re.search(r'<svg class="region-graph".*?</svg>', dom, re.S).group(0)
kinds = [r["kind"] for r in k["regions"]]
nodes = len(re.findall(r'<g class="node ', graph))
assert nodes == kinds.count("static") + kinds.count("barrier") + kinds.count("memory"), kinds
assert len(re.findall(r'<g class="node memory"', graph)) == kinds.count("memory") > 0, kinds
assert len(re.findall(r'<g class="loop"', graph)) == kinds.count("loop") == 2
for r in k["regions"]:
    if r["kind"] == "loop":
        assert "credits %d | latency %d" % (r["credits"], r["latency"]) in graph, r
cfg = re.search(r'<svg class="cfg-graph".*?</svg>', dom, re.S).group(0)
assert len(re.findall(r'<g class="block ', cfg)) == len(k["blocks"])
assert len(re.findall(r'class="back-edge"', cfg)) == 2
# the source: line 10 (the loop's load) is annotated with its load-store unit
row = re.search(r'<tr class="hw" id="L10">.*?</tr>', dom, re.S).group(0)
assert "global load LSU" in row and "acc += in[i];" in row, row
PY

# A flattened synthesis (only the top in its modules), placed and routed, that does not
# fit: the whole accelerator, "routed", and the warning.
cat > "$entry/synth/sim_dc/synth.json" <<'JSON'
{"board": "sim_dc", "tool": "yosys", "seconds": 3,
 "resources": {"lut": {"used": 2000000, "capacity": 1728000}, "ff": {"used": 10, "capacity": 3456000},
               "bram": {"used": 0, "capacity": 2688}, "dsp": {"used": 0, "capacity": 12288}},
 "modules": {"clhls_top": {"lut": 2000000, "ff": 10, "bram": 0, "dsp": 0}},
 "fmax_mhz": 412.0, "fmax_kind": "routed", "fits": false, "files": {}}
JSON
"$clhls" report "$kernel" -o "$work/flat.html" > /dev/null 2>&1 || fail "report of a flattened synthesis"
for want in 'fmax (placed and routed)' 'does not fit the board' 'flattened the design' \
    '2000000 of 1728000 (115.7%)' 'class="seg-over"'; do
    grep -q "$want" "$work/flat.html" || fail "flattened synthesis: no '$want'"
done
grep -q 'class="per-cu"' "$work/flat.html" && fail "a table per compute unit without their numbers"

# Channels and pipes: the kernels they join drawn with an arrow per channel, labelled,
# and a table; a program without them has no such section.
grep -q 'id="channels"' "$work/plain.html.dom" && fail "a channels section without channels"
cat > "$work/chain.cl" <<'CL'
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c_raw __attribute__((depth(16)));
channel int c_cooked;
channel int c_done;
__kernel void source(__global const int *in, int n)
{ for (int i = 0; i < n; i++) write_channel_intel(c_raw, in[i]); (void)read_channel_intel(c_done); }
__kernel void stage(int n) { for (int i = 0; i < n; i++) write_channel_intel(c_cooked, read_channel_intel(c_raw) * 3); }
__kernel void sink(__global int *out, int n)
{ for (int i = 0; i < n; i++) out[i] = read_channel_intel(c_cooked); write_channel_intel(c_done, 1); }
CL
report_page chain
python3 - "$work/chain.html.dom" <<'PY' || fail "the channels drawing does not match the program"
import re, sys
dom = open(sys.argv[1]).read()
svg = re.search(r'<svg class="channels".*?</svg>', dom, re.S).group(0)
assert len(re.findall(r'<g class="node ', svg)) == 3, svg
assert len(re.findall(r'<g class="channel">', svg)) == 3, svg
for label in ("c_raw: 16 x 32 bits", "c_cooked: 2 x 32 bits", "c_done: 2 x 32 bits"):
    assert label in svg, label
# source, stage and sink left to right; c_done goes back
xs = {m.group(2): float(m.group(1)) for m in
      re.finditer(r'<rect x="([0-9.]+)"[^>]*>.*?kernel (\w+)<', svg, re.S)}
assert xs["source"] < xs["stage"] < xs["sink"], xs
table = re.search(r'<table class="channels">.*?</table>', dom, re.S).group(0)
assert re.search(r'<td>c_done</td><td>channel</td>.*?<td>sink</td><td>source</td>', table, re.S), table
assert table.count("no run recorded") == 3, table
PY
# With runs recorded: how full each channel got, from its writer's run (c_done's writer,
# sink, has none: from its reader's).
set -- "$CLHLS_CACHE_DIR"/*/chain.cl
[ $# -eq 1 ] || fail "expected one entry of chain.cl: $*"
cat > "$(dirname "$1")/last_run.json" <<'JSON'
{"format": 1, "kernels": {
 "source": {"board": "sim_dc", "time": 1700000000, "ok": true, "cycles": 5000, "work_dim": 1,
            "global": [1], "local": [1], "counters": {"busy_cycles": 4990, "work_items": 1,
            "channel_peak.c_raw": 16, "channel_peak.c_done": 1}},
 "stage": {"board": "sim_dc", "time": 1700000000, "ok": true, "cycles": 5000, "work_dim": 1,
           "global": [1], "local": [1], "counters": {"busy_cycles": 4980, "work_items": 1,
           "channel_peak.c_raw": 9, "channel_peak.c_cooked": 2}}}}
JSON
report_page chain
python3 - "$work/chain.html.dom" <<'PY' || fail "the channels drawing does not show the last run"
import re, sys
dom = open(sys.argv[1]).read()
svg = re.search(r'<svg class="channels".*?</svg>', dom, re.S).group(0)
for label in ("c_raw: 16 x 32 bits, peak 16", "c_cooked: 2 x 32 bits, peak 2",
              "c_done: 2 x 32 bits, peak 1", "at most 16 held in the last run"):
    assert label in svg, label
table = re.search(r'<table class="channels">.*?</table>', dom, re.S).group(0)
for row in ("<td>c_raw</td>.*?<td>16 of 16: full at times", "<td>c_cooked</td>.*?<td>2 of 2: full",
            "<td>c_done</td>.*?<td>1 of 2</td>"):
    assert re.search(row, table, re.S), row
PY
# A kernel of three compute units and one of SIMD work-items: the kernels table and the
# kernels' cards say so.
cat > "$work/units.cl" <<'CL'
__attribute__((num_compute_units(3)))
__kernel void scale(__global int *a) { a[get_global_id(0)] *= 3; }
__attribute__((num_simd_work_items(4))) __attribute__((reqd_work_group_size(8, 1, 1)))
__kernel void lanes(__global int *a) { a[get_global_id(0)] += 1; }
CL
report_page units
python3 - "$work/units.html.dom" <<'PY' || fail "the page does not show the compute units"
import re, sys
dom = open(sys.argv[1]).read()
table = re.search(r'<table class="kernels">.*?</table>', dom, re.S).group(0)
assert re.search(r'<th>compute units</th>', table), table
assert re.search(r'>scale</a></td><td>3</td>', table), table
assert re.search(r'compute units</[^>]+>\s*<[^>]+>3, groups dealt in turn<', dom), "no card"
assert re.search(r'SIMD work-items</[^>]+>\s*<[^>]+>4 a cycle<', dom), "no SIMD card"
PY
echo PASS
