#!/bin/sh
# check_layers.sh TREE: the layers of docs/architecture.md hold: every #include "..."
# and every target_link_libraries of each layer folder names only its own layer or one
# below:  common <- boards <- hls <- sim-bridge <- host-runtime <- tools
cd "$1" || exit 2
python3 - <<'PY'
import os, re, sys
order = ["common", "boards", "hls", "sim-bridge", "host-runtime", "tools"]
rank = {d: i for i, d in enumerate(order)}
# which layer a header lives in (by file name; first found)
where = {}
for d in order:
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith((".h", ".vh")) and f not in where:
                where[f] = d
targets = {"clhls_common": "common", "clhls_board": "boards", "clhls_hls": "hls",
           "clhls_sim": "sim-bridge", "clhls_binfmt": "host-runtime",
           "clhls_icd": "host-runtime", "clhls": "tools"}
bad = 0
for d in order:
    uses = set()
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            if f.endswith((".c", ".h", ".cpp")):
                for n, line in enumerate(open(p, errors="replace"), 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    h = os.path.basename(m.group(1))
                    to = where.get(h)
                    if to is None:
                        continue  # system, generated (Verilator's) or in-tree data
                    uses.add(to)
                    if rank[to] > rank[d]:
                        print(f"UP: {p}:{n} includes {m.group(1)} ({to})"); bad += 1
            if f == "CMakeLists.txt":
                text = open(p).read()
                for m in re.finditer(r"target_link_libraries\(\s*(\S+)([^)]*)\)", text):
                    for lib in m.group(2).split():
                        to = targets.get(lib)
                        if to is None:
                            continue
                        uses.add(to)
                        if rank[to] > rank[d]:
                            print(f"UP: {p}: {m.group(1)} links {lib} ({to})"); bad += 1
    below = sorted((u for u in uses if u != d), key=rank.get)
    print(f"{d:13s} uses: {', '.join(below) if below else '(nothing of clhls)'}")
print("layering: OK" if not bad else f"layering: {bad} upward dependencies")
sys.exit(1 if bad else 0)
PY
