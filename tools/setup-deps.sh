#!/bin/sh
# Installs the Debian 12 packages clhls needs to build and test, when any is missing.
# Called by `make run` and `make test`; safe to run again (it does nothing when all
# packages are present). Packages named as arguments are wanted too (`make fuzz`
# passes libclang-rt-16-dev, which only the fuzzers need, and `make valgrind`
# valgrind).
set -eu

PACKAGES="build-essential cmake pkg-config git
clang-16 llvm-16-dev libclang-cpp16 zlib1g-dev libzstd-dev libedit-dev libffi-dev libncurses-dev libxml2-dev
verilator yosys nextpnr-ice40 fpga-icestorm
ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers opencl-clhpp-headers clinfo
libcriterion-dev libcjson-dev libxxhash-dev
python3-pyopencl python3-numpy pocl-opencl-icd
chromium gtkwave"
PACKAGES="$PACKAGES $*"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

[ -z "$missing" ] && exit 0

echo "clhls: installing missing packages:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
