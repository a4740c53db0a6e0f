#!/bin/sh
# clhls synth, one case per run (tests/synth/CMakeLists.txt):
#   board NAME [meets [EXAMPLE]]
#                  synthesis of the vadd example (or EXAMPLE) for board NAME into a fresh directory:
#                  exit 0, synth.json with exactly the documented schema, the board's
#                  capacities, LUTs and FFs used, a critical path whose ends are named
#                  in the kernel's terms (a load-store unit or an operator with its
#                  source line); for a board with place and route the fmax is "routed"
#                  and the bitstream is an iCE40 image, for the others it is an
#                  "estimate" and there is no bitstream; with "meets", the fmax is at
#                  least the board's clock and, on UltraScale+ and Cyclone V, the path
#                  has at most 8 logic levels
#   reuse          a second run on the same design and board reuses the results (no tool runs);
#                  damaged results are synthesised again
#   local-memory   a kernel whose __local argument takes the board's whole local memory
#                  (64 KB on alveo_u250, for each of the work-group slots): synthesised,
#                  its banks in block RAM
#   delay-lines    a value carried across a chain of operators (two clhls_delay rings):
#                  on the DE10-Nano in LUT RAM (MLAB), no M10K, each output a register;
#                  on the iCEBreaker (no LUT RAM: the mark removed) synthesised too
#   does-not-fit   a board too small: exit 1 and the table of what the design needs;
#                  over its flip-flops or block RAMs, Yosys stops before logic mapping
#   errors         --help, bad invocations, unknown board, bad kernel, accesses the
#                  board's memory port cannot carry, bad board files
#                  (exit 1, naming file and field) and a missing Yosys (exit 2)
set -u
clhls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); case=$2; here=$(cd "$(dirname "$0")" && pwd)
boards=$(cd "$here/../../boards" && pwd)
kernel=$here/fill.cl
examples=$(cd "$here/../../examples" && pwd)  # vadd, the example of `make run`
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# run STATUS COMMAND...: runs COMMAND (stdout in $tmp/out, stderr in $tmp/err) and
# fails unless it exits with STATUS.
run() {
    want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" -eq "$want" ] || fail "$* exited $got, expected $want: $(tail -n 30 "$tmp/out" "$tmp/err")"
}
# check_json FILE BOARD_FILE KIND [EXAMPLE]: synth.json has the schema, the board's
# capacities and results that mean something (of vadd: its adder among the modules).
check_json() {
    python3 - "$1" "$2" "$3" "${4:-}" <<'PY' || fail "synth.json: $(cat "$1")"
import json, os, re, sys
r = json.load(open(sys.argv[1])); board = json.load(open(sys.argv[2])); kind = sys.argv[3]
example = sys.argv[4]
def need(cond, what):
    if not cond:
        print("synth.json:", what); sys.exit(1)
need(set(r) == {"board", "tool", "seconds", "resources", "modules", "fmax_mhz", "fmax_kind",
                "fmax_estimate_mhz", "critical_path", "fits", "files"}, "keys %s" % sorted(r))
need(r["board"] == board["name"], "board")
need(r["tool"].startswith("Yosys "), "tool")
need(isinstance(r["seconds"], (int, float)) and r["seconds"] > 0, "seconds")
need(set(r["resources"]) == {"lut", "ff", "bram", "dsp"}, "resources")
for k, v in r["resources"].items():
    need(set(v) == {"used", "capacity"}, "resource " + k)
    need(v["capacity"] == board["resources"][k], "capacity of " + k)
    need(v["used"] >= 0 and v["used"] <= v["capacity"], "used " + k)
need(r["resources"]["lut"]["used"] > 100 and r["resources"]["ff"]["used"] > 100, "LUTs and FFs")
need(isinstance(r["modules"], dict), "modules")
for name, m in r["modules"].items():
    need(set(m) == {"lut", "ff", "bram", "dsp"}, "module " + name)
# a template parametrisation is named by its parameters, not by Yosys's hash
need(not any("$paramod" in n for n in r["modules"]), "module names %s" % sorted(r["modules"]))
if example == "vadd" and any(n.startswith("clhls_cu_") for n in r["modules"]):
    need(any(re.match(r"clhls_fadd\(LATENCY=\d+,W=32(,SIM_LATENCY=0)?(,SIM_NORMAL=\d)?\)$", n) for n in r["modules"]),
         "no clhls_fadd(LATENCY=..,W=32) among %s" % sorted(r["modules"]))
need(r["fmax_mhz"] > 1 and r["fmax_mhz"] < 2000, "fmax")
need(r["fmax_kind"] == kind, "fmax_kind %s, expected %s" % (r["fmax_kind"], kind))
# the delay model's figure, also where place and route gave the fmax (its error there)
need(r["fmax_estimate_mhz"] > 1 and (kind == "routed" or r["fmax_estimate_mhz"] == r["fmax_mhz"]),
     "fmax_estimate_mhz")
p = r["critical_path"]
need(set(p) == {"from", "to", "from_where", "to_where", "levels", "through"} and
     p["levels"] > 0 and p["from"] != "?" and p["to"] != "?", "critical path")
# the units the path crosses, in order, with the levels of each: they add up, and each
# is named in the kernel's terms
need(p["through"] and sum(u["levels"] for u in p["through"]) == p["levels"], "through %s" % p)
for u in p["through"]:
    need(set(u) == {"unit", "levels", "where"} and u["where"], "through %s" % u)
# an end inside a load-store unit (lsuN) or an operator (uN) or carrying an operation's
# value (rR_vN) of a compute unit is named with the kernel's source line
for end in ("from", "to"):
    where = p[end + "_where"]
    need(where and where != "?", end + "_where")
    if re.match(r"cu_\w+?\.(lsu\d+|u\d+|r\d+_v\d+)[._\[]", p[end]):
        need(re.search(r"\.cl:\d+:\d+ in kernel ", where), "%s_where %r for %r" % (end, where, p[end]))
need(r["fits"] is True, "fits")
f = r["files"]
need(set(f) == {"netlist", "pnr", "bitstream"}, "files")
need(os.path.getsize(f["netlist"]) > 1000, "netlist")
if kind == "routed":
    need(os.path.getsize(f["pnr"]) > 1000, "pnr")
    image = open(f["bitstream"], "rb").read()
    need(len(image) == 104090 and b"\x7e\xaa\x99\x7e" in image[:64], "not an iCE40 UP5K image")
else:
    need(f["pnr"] is None and f["bitstream"] is None, "pnr and bitstream should be null")
PY
}

case $case in
board)
    board=$3 example=${5:-vadd}
    kind=estimate
    grep -q '"pnr_tool": "' "$boards/$board.json" && kind=routed
    run 0 "$clhls" synth "$examples/$example/$example.cl" --board "$board" -o "$tmp/out_dir"
    check_json "$tmp/out_dir/synth.json" "$boards/$board.json" $kind "$example"
    if [ "${4:-}" = meets ]; then
        python3 - "$tmp/out_dir/synth.json" "$boards/$board.json" <<'PY' || fail "timing: $(cat "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1])); board = json.load(open(sys.argv[2]))
fmax, clock, levels = r["fmax_mhz"], board["clock_mhz"], r["critical_path"]["levels"]
if fmax < clock:
    sys.exit("fmax %.1f MHz below the board's %g MHz" % (fmax, clock))
if board["fpga"]["family"] in ("xcup", "cyclonev") and levels > 8:
    sys.exit("%d logic levels, more than 8" % levels)
PY
    fi
    grep -q "^| LUT  *| *[0-9][0-9]* | *[0-9][0-9]* | *[0-9.]* *|$" "$tmp/out" || fail "table: $(cat "$tmp/out")"
    grep -q "^fmax: [0-9.]* MHz ($kind; board clock" "$tmp/out" || fail "fmax: $(cat "$tmp/out")"
    grep -q "^critical path: .* -> .* ([0-9]* logic levels)$" "$tmp/out" || fail "path: $(cat "$tmp/out")"
    grep -q "^  from [^ ]" "$tmp/out" && grep -q "^  to   [^ ]" "$tmp/out" || fail "path names: $(cat "$tmp/out")"
    grep -q "^  logic levels in each unit it crosses, in order:$" "$tmp/out" &&
        grep -q "^ *[0-9][0-9]*  [a-z_].* (.*)$" "$tmp/out" || fail "path units: $(cat "$tmp/out")"
    ;;
reuse)
    export CLHLS_CACHE_DIR=$tmp/cache
    run 0 "$clhls" synth "$kernel" --board ulx3s_85f
    json=$(sed -n 's/^results: //p' "$tmp/out")
    case $json in "$tmp"/cache/*/synth/ulx3s_85f/synth.json) ;; *) fail "results in $json" ;; esac
    grep -q "reused" "$tmp/err" && fail "first run reused: $(cat "$tmp/err")"
    before=$(stat -c %Y.%s "$json")
    cp "$tmp/out" "$tmp/first"
    run 0 "$clhls" synth "$kernel" --board ulx3s_85f
    grep -q "^clhls: synthesis results reused from " "$tmp/err" || fail "not reused: $(cat "$tmp/err")"
    grep -q "Yosys" "$tmp/err" && fail "Yosys ran again: $(cat "$tmp/err")"
    [ "$(stat -c %Y.%s "$json")" = "$before" ] || fail "synth.json rewritten"
    cmp -s "$tmp/out" "$tmp/first" || fail "a different report: $(diff "$tmp/first" "$tmp/out")"
    # damaged results (a truncated netlist) are never reused: synthesised again
    netlist=$(dirname "$json")/netlist.v
    head -c 100 "$netlist" > "$tmp/short" && cat "$tmp/short" > "$netlist"
    run 0 "$clhls" synth "$kernel" --board ulx3s_85f
    grep -q "^clhls: the synthesis results in .* are damaged (netlist.v: size 100, expected [0-9]*); synthesising again" "$tmp/err" ||
        fail "damaged results: $(cat "$tmp/err")"
    [ "$(stat -c %s "$netlist")" -gt 1000 ] || fail "the netlist was not written again"
    ;;
local-memory)
    printf '__kernel void reverse(__global int *a, __local int *t)\n{\n    size_t l = get_local_id(0), n = get_local_size(0);\n    t[l] = a[get_global_id(0)];\n    barrier(CLK_LOCAL_MEM_FENCE);\n    a[get_global_id(0)] = t[n - 1 - l];\n}\n' > "$tmp/reverse.cl"
    run 0 "$clhls" synth "$tmp/reverse.cl" --board alveo_u250 -o "$tmp/out_dir"
    # 4 slots of 64 KB, 2 Mbit: at least 57 block RAMs of 36 kbit
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["resources"]["bram"]["used"] < 57)' \
        "$tmp/out_dir/synth.json" || fail "local memory not in block RAM: $(cat "$tmp/out")"
    ;;
delay-lines)
    # x is read 5 and 13 stages after its load: rings of 5 and 8 stages
    printf '__kernel void horner(__global float *a)\n{\n    size_t i = get_global_id(0);\n    float x = a[i];\n    a[i] = ((x + 1.0f) * x + 2.0f) * x;\n}\n' > "$tmp/horner.cl"
    for board in de10_nano icebreaker; do
        run 0 "$clhls" synth "$tmp/horner.cl" --board $board -o "$tmp/$board"
        [ $board = de10_nano ] || continue
        python3 - "$tmp/$board/netlist.json" <<'PY' || fail "$board delay lines: $(cat "$tmp/out")"
import collections, json, sys
top = json.load(open(sys.argv[1]))["modules"]["clhls_top"]
rings = collections.defaultdict(collections.Counter)  # the cells of each ring buffer
for name, cell in top["cells"].items():
    if ".ring." in name:
        rings[name.split(".ring.")[0]][cell["type"]] += 1
if len(rings) != 2:
    sys.exit("%d ring buffers, expected 2: %s" % (len(rings), dict(rings)))
for name, cells in rings.items():
    # 4 or 7 slots of 32 bits: 32 MLABs of 32 x 1, the 32-bit output register and a
    # pointer of 2 or 3 bits; no M10K
    if cells["MISTRAL_MLAB"] != 32 or cells["MISTRAL_M10K"] or not 34 <= cells["MISTRAL_FF"] <= 35:
        sys.exit("%s: %s" % (name, dict(cells)))
out = {b for n, net in top["netnames"].items() if n.endswith(".ring.oldest") for b in net["bits"]}
drivers = {c["type"] for c in top["cells"].values()
           for p, d in c["port_directions"].items() if d == "output" and out & set(c["connections"][p])}
if len(out) != 64 or drivers != {"MISTRAL_FF"}:
    sys.exit("the rings' outputs (%d bits) come from %s" % (len(out), drivers))
PY
    done
    ;;
does-not-fit)
    mkdir "$tmp/boards"
    sed -e 's/"name": "ulx3s_85f"/"name": "tiny"/' -e 's/"lut": 83640/"lut": 1000/' \
        "$boards/ulx3s_85f.json" > "$tmp/boards/tiny.json"
    CLHLS_BOARD_DIR=$tmp/boards run 1 "$clhls" synth "$kernel" --board tiny -o "$tmp/out_dir"
    grep -q "^clhls synth: the design does not fit tiny: it needs" "$tmp/err" || fail "message: $(cat "$tmp/err")"
    grep -q "^| LUT  *| *[0-9][0-9]* | *1000 | *[0-9.]*! |$" "$tmp/err" || fail "table: $(cat "$tmp/err")"
    grep -q "^| FF  *| *[0-9][0-9]* | *83640 | *[0-9.]*  |$" "$tmp/err" || fail "table: $(cat "$tmp/err")"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["fits"] is not False or r["resources"]["lut"]["used"] <= 1000 or "counted_after" in r)' \
        "$tmp/out_dir/synth.json" || fail "synth.json: $(cat "$tmp/out_dir/synth.json")"
    # Over the board's flip-flops, or its block RAMs: Yosys stops where those are
    # mapped, before logic mapping (ABC), and the cells not mapped yet are not counted.
    sed -e 's/"name": "ulx3s_85f"/"name": "few_ffs"/' -e 's/"ff": 83640/"ff": 100/' \
        "$boards/ulx3s_85f.json" > "$tmp/boards/few_ffs.json"
    sed -e 's/"name": "ulx3s_85f"/"name": "few_brams"/' -e 's/"bram": 208/"bram": 1/' \
        "$boards/ulx3s_85f.json" > "$tmp/boards/few_brams.json"
    printf '__kernel void reverse(__global int *a, __local int *t)\n{\n    size_t l = get_local_id(0), n = get_local_size(0);\n    t[l] = a[get_global_id(0)];\n    barrier(CLK_LOCAL_MEM_FENCE);\n    a[get_global_id(0)] = t[n - 1 - l];\n}\n' > "$tmp/reverse.cl"
    for small in "few_ffs $kernel flip-flop FF 100 LUT" "few_brams $tmp/reverse.cl memory BRAM 1 FF"; do
        set -- $small
        CLHLS_BOARD_DIR=$tmp/boards run 1 "$clhls" synth "$2" --board "$1" -o "$tmp/$1"
        grep -q "^clhls synth: the design does not fit $1: it needs" "$tmp/err" || fail "$1 message: $(cat "$tmp/err")"
        grep -q "^| $4  *| *[0-9][0-9]* | *$5 | *[0-9.]*! |$" "$tmp/err" || fail "$1 table: $(cat "$tmp/err")"
        grep -q "^| $6  *| *? | *83640 | *? |$" "$tmp/err" || fail "$1 table: $(cat "$tmp/err")"
        grep -q "^(synthesis stopped after $3 mapping, where the design already exceeded the board" "$tmp/err" ||
            fail "$1 stop: $(cat "$tmp/err")"
        ! grep -q "Executing ABC" "$tmp/$1/yosys.log" || fail "$1: Yosys went on to logic mapping"
        CLHLS_BOARD_DIR=$tmp/boards run 1 "$clhls" synth "$2" --board "$1" -o "$tmp/$1"
        grep -q "^clhls: synthesis results reused from $tmp/$1" "$tmp/err" || fail "$1 not reused: $(cat "$tmp/err")"
        python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["fits"] is not False or r["counted_after"] != sys.argv[2] + " mapping" or r["resources"]["lut"]["used"] is not None or r["fmax_mhz"] is not None or r["critical_path"] is not None or r["files"]["netlist"] is not None)' \
            "$tmp/$1/synth.json" "$3" || fail "$1 synth.json: $(cat "$tmp/$1/synth.json")"
    done
    ;;
errors)
    run 0 "$clhls" synth --help
    grep -q "^usage: clhls synth FILE.cl --board NAME" "$tmp/out" || fail "help: $(cat "$tmp/out")"
    run 1 "$clhls" synth "$kernel"
    grep -q "no --board NAME" "$tmp/err" || fail "no board: $(cat "$tmp/err")"
    run 1 "$clhls" synth --board icebreaker
    run 1 "$clhls" synth "$kernel" --board icebreaker --bogus
    run 1 "$clhls" synth "$kernel" --board no_such_board
    grep -q "unknown board 'no_such_board'" "$tmp/err" || fail "unknown board: $(cat "$tmp/err")"
    run 1 "$clhls" synth "$tmp/missing.cl" --board icebreaker
    printf '__kernel void bad(__global int *a)\n{\n    a[0] = undefined_name;\n}\n' > "$tmp/bad.cl"
    run 1 "$clhls" synth "$tmp/bad.cl" --board icebreaker
    grep -q "^bad.cl:3:12: error: use of undeclared identifier 'undefined_name'" "$tmp/err" ||
        fail "bad kernel: $(cat "$tmp/err")"
    # what a narrow memory port cannot carry is a build error at the access (a 64-bit
    # load is two 32-bit ones there, and is no error)
    printf '__kernel void count(__global int *bins, __global const long *x)\n{\n    atomic_inc(&bins[0]);\n    bins[1] = (int)x[get_global_id(0)];\n}\n' > "$tmp/narrow.cl"
    run 1 "$clhls" synth "$tmp/narrow.cl" --board icebreaker
    grep -q "^narrow.cl:3:5: error: an atomic operation on __global memory .* needs a memory port of at least 128 bits.*board 'icebreaker' has 32$" "$tmp/err" ||
        fail "atomic on a narrow port: $(cat "$tmp/err")"
    grep -q "^narrow.cl:4:" "$tmp/err" && fail "a 64-bit load on a 32-bit port: $(cat "$tmp/err")"
    mkdir "$tmp/boards"
    sed 's/"lut": 5280/"lut": "many"/' "$boards/icebreaker.json" > "$tmp/boards/bad_type.json"
    CLHLS_BOARD_DIR=$tmp/boards run 1 "$clhls" synth "$kernel" --board bad_type
    grep -q "$tmp/boards/bad_type.json: field 'resources.lut' must be a number" "$tmp/err" ||
        fail "mistyped field: $(cat "$tmp/err")"
    sed 's/"address_bits": 18,//' "$boards/icebreaker.json" > "$tmp/boards/no_addr.json"
    CLHLS_BOARD_DIR=$tmp/boards run 1 "$clhls" synth "$kernel" --board no_addr
    grep -q "$tmp/boards/no_addr.json: field 'memory.address_bits' must be a number" "$tmp/err" ||
        fail "missing field: $(cat "$tmp/err")"
    sed 's/"SB_LUT4": 1/"SB_LUT4": "one"/' "$boards/icebreaker.json" > "$tmp/boards/bad_cell.json"
    CLHLS_BOARD_DIR=$tmp/boards run 1 "$clhls" synth "$kernel" --board bad_cell
    grep -q "$tmp/boards/bad_cell.json: field 'synthesis.cells.lut.SB_LUT4' must be a number" "$tmp/err" ||
        fail "mistyped cell weight: $(cat "$tmp/err")"
    sed 's/"lutram": null/"lutram": "memory_bram -rules x.txt"/' "$boards/icebreaker.json" > "$tmp/boards/bad_lutram.json"
    CLHLS_BOARD_DIR=$tmp/boards run 1 "$clhls" synth "$kernel" --board bad_lutram
    grep -q "$tmp/boards/bad_lutram.json: field 'fpga.lutram' must be \"ram_style\" or \"LABEL: COMMAND\"" "$tmp/err" ||
        fail "bad lutram: $(cat "$tmp/err")"
    # No Yosys on the PATH: a tool error, exit 2, naming the tool.
    mkdir "$tmp/bin"
    PATH=$tmp/bin run 2 "$clhls" synth "$kernel" --board ulx3s_85f -o "$tmp/no_yosys"
    grep -q "cannot run yosys" "$tmp/err" || fail "no yosys: $(cat "$tmp/err")"
    ;;
*)
    fail "unknown case $case"
    ;;
esac
echo "PASS: synth $case ${3:-}"
