#!/bin/sh
# check_template_ports.sh SOURCE_DIR [YOSYS]
# The netlist check compares every instance of a template with the template's ports
# in hls/template_ports.c: it must be exactly what tools/template_ports.py prints from
# rtl-templates/ now.
src=$1; yosys=${2:-yosys}
if python3 "$src/tools/template_ports.py" "$src/rtl-templates" "$yosys" |
        diff -u "$src/hls/template_ports.c" -; then
    echo PASS
else
    echo "hls/template_ports.c differs: run tools/template_ports.py rtl-templates > hls/template_ports.c"
    exit 1
fi
