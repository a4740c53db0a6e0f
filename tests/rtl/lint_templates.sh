#!/bin/sh
# lint_templates.sh TEMPLATE_DIR [yosys]
# Every template must pass `verilator --lint-only -Wall` and `yosys synth` with no
# warning at all.
tpl=$1; yosys=${2:-yosys}; verilator=${VERILATOR:-verilator}
status=0
for f in "$tpl"/clhls_*.v; do
    mod=$(basename "$f" .v)
    out=$("$verilator" --lint-only -Wall -y "$tpl" --top-module "$mod" "$f" 2>&1) || status=1
    if [ -n "$out" ]; then echo "$out"; status=1; fi
    if command -v "$yosys" >/dev/null 2>&1; then
        # The load unit's line queue has no BRAM library to map to in a plain
        # `synth`; synthesise a smaller instance to keep the test quick.
        params=""
        [ "$mod" = clhls_lsu_load ] && params="chparam -set DEPTH 8 $mod;"
        out=$("$yosys" -q -p "read_verilog $tpl/clhls_*.v; $params synth -top $mod" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$mod (yosys): $out"; status=1; fi
    fi
    echo "checked $mod"
done
# clhls_fma registers between its parts only from LATENCY 2 and 3 on: lint those
# structures too.
if [ -f "$tpl/clhls_fma.v" ]; then
    for lat in 1 2; do
        out=$("$verilator" --lint-only -Wall -GLATENCY=$lat -y "$tpl" --top-module clhls_fma \
              "$tpl/clhls_fma.v" 2>&1) || status=1
        if [ -n "$out" ]; then echo "$out"; status=1; fi
        echo "checked clhls_fma (LATENCY $lat)"
    done
fi
[ $status -eq 0 ] && echo PASS
exit $status
