#!/bin/sh
# run_tb.sh TOP BUILD_DIR TEMPLATE_DIR TB_FILE [plusargs...]
# Verilates one self-checking testbench (Verilog, --binary --timing) against the
# templates, runs it and succeeds only if it printed a PASS line and exited 0.
# TB_VERILATOR_ARGS (environment, optional): more Verilator arguments, split at
# white space (so no spaces inside one), e.g. "+define+CLHLS_SIM_MODELS
# /path/fp_model.c -CFLAGS -ffp-contract=off" for the operators' C models; a build
# with other arguments needs its own BUILD_DIR.
set -e
top=$1; out=$2/$1; tpl=$3; tb=$4; shift 4
verilator=${VERILATOR:-verilator}
mkdir -p "$out"
# shellcheck disable=SC2086 # TB_VERILATOR_ARGS is a list of arguments
if ! "$verilator" --binary --timing -j 1 -Wno-fatal -Wno-lint -Wno-style \
        --top-module "$top" -y "$tpl" "$tb" --Mdir "$out" -o "$top" \
        -CFLAGS -O1 ${TB_VERILATOR_ARGS:-} >"$out/build.log" 2>&1; then
    cat "$out/build.log"
    exit 1
fi
"$out/$top" "$@" >"$out/run.log" 2>&1 || { cat "$out/run.log"; exit 1; }
cat "$out/run.log"
grep -q '^PASS' "$out/run.log"
