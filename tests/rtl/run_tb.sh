#!/bin/sh
# run_tb.sh TOP BUILD_DIR TEMPLATE_DIR TB_FILE [plusargs...]
# Verilates one self-checking testbench (Verilog, --binary --timing) against the
# templates, runs it and succeeds only if it printed a PASS line and exited 0.
set -e
top=$1; out=$2/$1; tpl=$3; tb=$4; shift 4
verilator=${VERILATOR:-verilator}
mkdir -p "$out"
if ! "$verilator" --binary --timing -j 1 -Wno-fatal -Wno-lint -Wno-style \
        --top-module "$top" -y "$tpl" "$tb" --Mdir "$out" -o "$top" \
        -CFLAGS -O1 >"$out/build.log" 2>&1; then
    cat "$out/build.log"
    exit 1
fi
"$out/$top" "$@" >"$out/run.log" 2>&1 || { cat "$out/run.log"; exit 1; }
cat "$out/run.log"
grep -q '^PASS' "$out/run.log"
