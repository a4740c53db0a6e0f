#!/bin/sh
# lint_templates.sh TEMPLATE_DIR [yosys [MODULE]]
# Every template must pass `verilator --lint-only -Wall` (with and without the
# simulation models and checks, +define+CLHLS_SIM_MODELS, +define+CLHLS_SIM_CHECKS)
# and `yosys synth` with no warning at all, the floating-point ones at W = 64 too.
# With MODULE, only that template and its extra configurations (the tests run one
# template per test, in parallel).
tpl=$1; yosys=${2:-yosys}; only=${3:-}; verilator=${VERILATOR:-verilator}
status=0
# skip MOD: true when a MODULE was given and MOD is another one
skip() { [ -n "$only" ] && [ "$1" != "$only" ]; }
for f in "$tpl"/clhls_*.v; do
    mod=$(basename "$f" .v)
    skip "$mod" && continue
    out=$("$verilator" --lint-only -Wall -y "$tpl" --top-module "$mod" "$f" 2>&1) || status=1
    if [ -n "$out" ]; then echo "$out"; status=1; fi
    # and as simulation builds it: the operators through their C models
    if grep -q CLHLS_SIM_MODELS "$f"; then
        out=$("$verilator" --lint-only -Wall +define+CLHLS_SIM_MODELS -y "$tpl" -I"$tpl" \
              --top-module "$mod" "$f" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$mod (models): $out"; status=1; fi
    fi
    if grep -q CLHLS_SIM_CHECKS "$f"; then
        out=$("$verilator" --lint-only -Wall +define+CLHLS_SIM_CHECKS -y "$tpl" -I"$tpl" \
              --top-module "$mod" "$f" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$mod (checks): $out"; status=1; fi
    fi
    if command -v "$yosys" >/dev/null 2>&1; then
        # The load unit's line queue and the atomic unit's cache and queue have no BRAM
        # library to map to in a plain `synth`; synthesise smaller instances to keep the
        # test quick.
        params=""
        [ "$mod" = clhls_lsu_load ] && params="chparam -set DEPTH 8 $mod;"
        [ "$mod" = clhls_atomic_unit ] && params="chparam -set MEM_W 128 -set LINES 4 -set DEPTH 8 $mod;"
        out=$("$yosys" -q -p "read_verilog $tpl/clhls_*.v; $params synth -top $mod" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$mod (yosys): $out"; status=1; fi
    fi
    echo "checked $mod"
done
# clhls_fma registers between its parts only from LATENCY 2 and 3 on: lint those
# structures too.
if [ -f "$tpl/clhls_fma.v" ] && ! skip clhls_fma; then
    for lat in 1 2; do
        out=$("$verilator" --lint-only -Wall -GLATENCY=$lat -y "$tpl" --top-module clhls_fma \
              "$tpl/clhls_fma.v" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$out"; status=1; fi
        echo "checked clhls_fma (LATENCY $lat)"
    done
fi
# The floating-point templates serve binary32 (W = 32, the default, linted above) and
# binary64: lint every one at W = 64 too (the conversions at both integer-width
# extremes, fadd and fma at each register structure). Yosys runs the coarse part of `synth`
# there (elaboration, proc, opt, wreduce, alumacc: where its warnings come from); the
# gate mapping is the same code at either width and takes minutes for the 64-bit
# divider, square root and fma.
for cfg in "clhls_fadd" "clhls_fadd -GLATENCY=5" "clhls_fmul" "clhls_fcmp" "clhls_fdiv" "clhls_fsqrt" \
           "clhls_itofp -GIN_W=64" "clhls_itofp -GIN_W=8 -GSIGNED=0" \
           "clhls_fptoi -GOUT_W=64" "clhls_fptoi -GOUT_W=8 -GSIGNED=0" \
           "clhls_fma" "clhls_fma -GLATENCY=2" "clhls_fma -GLATENCY=1"; do
    set -- $cfg
    mod=$1; shift
    [ -f "$tpl/$mod.v" ] || continue
    skip "$mod" && continue
    out=$("$verilator" --lint-only -Wall -GW=64 "$@" -y "$tpl" --top-module "$mod" \
          "$tpl/$mod.v" 2>&1) || status=1
    if [ -n "$out" ]; then echo "$out"; status=1; fi
    if [ $# -eq 0 ] && command -v "$yosys" >/dev/null 2>&1; then
        out=$("$yosys" -q -p "read_verilog $tpl/clhls_*.v; chparam -set W 64 $mod; synth -top $mod -run :fine" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$mod W=64 (yosys): $out"; status=1; fi
    fi
    echo "checked $mod (W 64 $*)"
done
# Subnormal handling is a parameter (SUBNORMALS, 1 by default at W = 64, 0 at W = 32):
# lint the other value at each width too, and clhls_ftod without it.
for cfg in "clhls_fadd" "clhls_fmul" "clhls_fma" "clhls_fdiv" "clhls_fsqrt" "clhls_fcmp"; do
    [ -f "$tpl/$cfg.v" ] || continue
    skip "$cfg" && continue
    for ws in "-GW=64 -GSUBNORMALS=0" "-GW=32 -GSUBNORMALS=1"; do
        out=$("$verilator" --lint-only -Wall $ws -y "$tpl" --top-module "$cfg" "$tpl/$cfg.v" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$out"; status=1; fi
        echo "checked $cfg ($ws)"
    done
done
if [ -f "$tpl/clhls_ftod.v" ] && ! skip clhls_ftod; then
    out=$("$verilator" --lint-only -Wall -GSUBNORMALS=0 -y "$tpl" --top-module clhls_ftod \
          "$tpl/clhls_ftod.v" 2>&1) || status=1
    if [ -n "$out" ]; then echo "$out"; status=1; fi
    echo "checked clhls_ftod (SUBNORMALS 0)"
fi
# clhls_barrier computes a work-group function only with OP != 0 (the default is a
# plain barrier): lint each structure, with Yosys synthesising the 32-bit ones and
# running the coarse part of `synth` on the 64-bit ones: broadcast; the per-slot
# accumulator of integer (any, min) and float (max) reductions; the float add
# reduction's summer; scans combining integers, float minima and float sums.
for cfg in "-GOP=1 -GVW=64" "-GOP=2 -GFUNC=3 -GTYPE=1 -GVW=32" "-GOP=2 -GFUNC=1 -GTYPE=1 -GVW=64" \
           "-GOP=2 -GFUNC=2 -GTYPE=2 -GVW=64" "-GOP=2 -GFUNC=0 -GTYPE=2 -GVW=32" \
           "-GOP=3 -GFUNC=0 -GTYPE=0 -GVW=32" "-GOP=4 -GFUNC=1 -GTYPE=2 -GVW=32" \
           "-GOP=3 -GFUNC=0 -GTYPE=2 -GVW=64"; do
    [ -f "$tpl/clhls_barrier.v" ] || continue
    skip clhls_barrier && continue
    out=$("$verilator" --lint-only -Wall $cfg -y "$tpl" --top-module clhls_barrier \
          "$tpl/clhls_barrier.v" 2>&1) || status=1
    if [ -n "$out" ]; then echo "$out"; status=1; fi
    if command -v "$yosys" >/dev/null 2>&1; then
        params=$(echo "$cfg" | sed 's/-G\([A-Z_]*\)=\([0-9]*\)/-set \1 \2/g')
        case "$cfg" in *VW=64*) run="-run :fine" ;; *) run="" ;; esac
        out=$("$yosys" -q -p "read_verilog $tpl/clhls_*.v; chparam $params clhls_barrier; synth -top clhls_barrier $run" 2>&1) || status=1
        if [ -n "$out" ]; then echo "clhls_barrier $cfg (yosys): $out"; status=1; fi
    fi
    echo "checked clhls_barrier ($cfg)"
done
# The NDRange templates keep indexes, sizes and counters as narrow as the board and
# the kernel allow (a small board's 24-bit indexes and 50-bit event counters, a
# 64-item work-group; one-item groups): lint those widths too; and the load unit with
# the registers a short clock gets (its request slice, a deep order queue's head
# register).
for cfg in "clhls_kernel_regs -GID_W=24 -GLS_W=7 -GCOUNT_W=50" "clhls_kernel_regs -GID_W=32 -GLS_W=2" \
           "clhls_wg_dispatch -GID_W=24 -GLS_W=7" "clhls_wg_dispatch -GID_W=32 -GLS_W=2" \
           "clhls_wi_gen -GID_W=24 -GLS_W=7" "clhls_wi_gen -GID_W=40 -GLS_W=11" \
           "clhls_wg_slots -GSLOTS=4 -GSLOT_W=2 -GLS_W=7" \
           "clhls_lsu_load -GREQ_SLICE=1 -GORDER_HEAD_REG=1 -GDEPTH=256" \
           "clhls_cu_shell -GSLOTS=4 -GSLOT_W=2 -GID_W=24 -GLS_W=7 -GBLOCK=3 -GNARGS=2 -GNPROBES=3 -GPEAKS=3'b101"; do
    set -- $cfg
    mod=$1; shift
    [ -f "$tpl/$mod.v" ] || continue
    skip "$mod" && continue
    out=$("$verilator" --lint-only -Wall "$@" -y "$tpl" -I"$tpl" --top-module "$mod" \
          "$tpl/$mod.v" 2>&1) || status=1
    if [ -n "$out" ]; then echo "$mod $*: $out"; status=1; fi
    if command -v "$yosys" >/dev/null 2>&1; then
        params=$(echo "$*" | sed 's/-G\([A-Z_]*\)=\([0-9]*\)/-set \1 \2/g')
        out=$("$yosys" -q -p "read_verilog -I$tpl $tpl/clhls_*.v; chparam $params $mod; synth -top $mod" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$mod $* (yosys): $out"; status=1; fi
    fi
    echo "checked $mod ($*)"
done
# clhls_local_mem statically wired (STATIC = 1): one bank per port (and a request
# slice on one of them), a port reaching two banks with atomics, one port; linted as
# synthesis and as the simulator builds it (the wiring check).
for cfg in "-GSTATIC=1 -GPORT_BANKS=4'b1001 -GREQ_SLICE=2'b10" "-GSTATIC=1 -GBANKS=4 -GPORT_BANKS=8'b11000011 -GATOMICS=16'h0ffe" \
           "-GNPORTS=1 -GBANKS=1 -GSTATIC=1 -GPORT_BANKS=1'b1"; do
    [ -f "$tpl/clhls_local_mem.v" ] || continue
    skip clhls_local_mem && continue
    for define in "" "+define+CLHLS_SIM_CHECKS"; do
        out=$("$verilator" --lint-only -Wall $cfg $define -y "$tpl" --top-module clhls_local_mem \
              "$tpl/clhls_local_mem.v" 2>&1) || status=1
        if [ -n "$out" ]; then echo "clhls_local_mem $cfg $define: $out"; status=1; fi
    done
    if command -v "$yosys" >/dev/null 2>&1; then
        params=$(echo "$cfg" | sed 's/-G\([A-Z_]*\)=/-set \1 /g')
        out=$("$yosys" -q -p "read_verilog $tpl/clhls_*.v; chparam $params clhls_local_mem; synth -top clhls_local_mem" 2>&1) || status=1
        if [ -n "$out" ]; then echo "clhls_local_mem $cfg (yosys): $out"; status=1; fi
    fi
    echo "checked clhls_local_mem ($cfg)"
done
[ $status -eq 0 ] && echo PASS
exit $status
