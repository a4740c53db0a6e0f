#!/bin/sh
# check_regmap.sh CLHLS SOURCE_DIR
# The register map is written once (hls/regmap.c): the Verilog include of the
# templates and the table in docs/architecture.md must be exactly what
# `clhls regmap` prints from it.
clhls=$1; src=$2
status=0
tmp=$(mktemp)
if ! "$clhls" regmap --verilog | diff -u "$src/rtl-templates/clhls_regmap.vh" -; then
    echo "rtl-templates/clhls_regmap.vh differs: run clhls regmap --verilog > it"
    status=1
fi
# The table sits between the two marker comments of the "Register map" section.
sed -n '/<!-- regmap: begin/,/<!-- regmap: end/p' "$src/docs/architecture.md" |
    sed '1d;$d' > "$tmp"
if [ ! -s "$tmp" ]; then
    echo "docs/architecture.md has no regmap markers"
    status=1
elif ! "$clhls" regmap --markdown | diff -u "$tmp" -; then
    echo "docs/architecture.md's register map differs from clhls regmap --markdown"
    status=1
fi
rm -f "$tmp"
[ $status -eq 0 ] && echo PASS
exit $status
