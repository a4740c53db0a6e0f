#!/usr/bin/env python3
"""Waveforms (CLHLS_WAVES, docs/user-guide.md "Waveforms"), end to end through the ICD.

usage: check_waves.py CLHLS VADD VADD_CL TRACE_HOST OUT_DIR

1. `clhls build vadd.cl --waves` makes the traced model beside the normal one
   (ENTRY/waves/model.so, an entry of its own); only the traced one has the FST writer.
2. examples/vadd run with CLHLS_WAVES=all.fst: the file is written, fst2vcd (GTKWave's)
   reads it, and it holds the clock, the top's memory handshake and the compute unit's
   signals under the names report.json gives (regions r<N>_..., load-store units lsu<N>,
   loops' r<N>_count), on a time axis of model cycles (cycle c at c ns).
3. CLHLS_WAVES_KERNEL naming no kernel of the program: no file, the normal model.
4. tests/runtime/trace_host at_once (two kernels at once; it exits without releasing
   anything, so the file is closed at exit) with CLHLS_WAVES_KERNEL and
   CLHLS_WAVES_CYCLES=0:99: exactly 100 cycles of that kernel, the two kernels' windows
   at different cycles.
5. A traced model that cannot be built (Verilator replaced by /bin/false): a message,
   and the program runs and passes without waveforms.
Prints PASSED at the end; any failed check exits 1 with what was wrong."""
import json
import os
import re
import shutil
import subprocess
import sys

CLHLS, VADD, VADD_CL, TRACE_HOST, OUT = sys.argv[1:6]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)
    return cond


def run(argv, env_add, timeout=900):
    env = dict(os.environ)
    for k in ("CLHLS_WAVES", "CLHLS_WAVES_KERNEL", "CLHLS_WAVES_CYCLES"):
        env.pop(k, None)
    env.update(env_add)
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def vcd_of(fst):
    """(vars: {full.path.name: id}, changes: {id: [(time, value)]}, times: [t])"""
    fst2vcd = shutil.which("fst2vcd")
    if not fst2vcd:
        sys.exit("fst2vcd not found: install gtkwave (tools/setup-deps.sh)")
    p = subprocess.run([fst2vcd, fst], capture_output=True, text=True)
    if not check(p.returncode == 0, "fst2vcd %s: %s" % (fst, p.stderr.strip())):
        return {}, {}, []
    scope, vars_, changes, times, t = [], {}, {}, [], None
    for line in p.stdout.splitlines():
        if line.startswith("$scope"):
            scope.append(line.split()[2])
        elif line.startswith("$upscope"):
            scope.pop()
        elif line.startswith("$var"):
            f = line.split()
            vars_[".".join(scope + [f[4]])] = f[3]
        elif line.startswith("#"):
            t = int(line[1:])
            times.append(t)
        elif t is not None and line:
            if line[0] in "bB":
                value, ident = line[1:].split()
            else:
                value, ident = line[0], line[1:]
            changes.setdefault(ident, []).append((t, value))
    return vars_, changes, times


def values_at(changes, ident, times):
    """The signal's value at each time of times (the last change at or before it)."""
    out, ch, k, v = {}, changes.get(ident, []), 0, None
    for t in times:
        while k < len(ch) and ch[k][0] <= t:
            v = ch[k][1]
            k += 1
        out[t] = v
    return out


os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    os.remove(os.path.join(OUT, f))

# 1. clhls build --waves
rc, out, err = run([CLHLS, "build", VADD_CL, "--waves"], {})
check(rc == 0, "clhls build --waves: exit %d\n%s" % (rc, err))
m = re.search(r"entry: (\S+)", out)
entry = m.group(1) if m else ""
check(m is not None, "clhls build --waves printed no entry:\n" + out)
traced = os.path.join(entry, "waves", "model.so")
check(os.path.isfile(traced) and os.path.isfile(os.path.join(entry, "waves", "manifest.json")),
      "no traced model entry " + traced)
check("traced model" in out, "clhls build --waves does not say where the traced model is")
if os.path.isfile(traced):
    with open(os.path.join(entry, "model.so"), "rb") as f:
        check(b"fstWriter" not in f.read(), "the normal model.so has the FST writer")
    with open(traced, "rb") as f:
        check(b"fstWriter" in f.read(), "the traced model.so has no FST writer")
    with open(os.path.join(entry, "waves", "model.json")) as f:
        check(json.load(f).get("waves") is True, "waves/model.json does not say waves")

# 2. every cycle of a run
all_fst = os.path.join(OUT, "all.fst")
rc, out, err = run([VADD, VADD_CL, "2048"], {"CLHLS_WAVES": all_fst})
check(rc == 0 and "PASSED" in out, "vadd with CLHLS_WAVES: exit %d\n%s%s" % (rc, out, err))
check("building the traced model" not in err, "the traced model was built again:\n" + err)
check("recording every cycle" in err and all_fst in err, "no line saying where:\n" + err)
check(os.path.isfile(all_fst), "CLHLS_WAVES wrote no " + all_fst)
vars_, changes, times = vcd_of(all_fst)
top, cu = "TOP.clhls_top", "TOP.clhls_top.cu_vadd"
for name in ("clk", "rst", "m_mem_req_valid", "m_mem_req_ready", "s_mem_resp_valid",
             "s_mem_resp_ready", "progress"):
    check(top + "." + name in vars_, "no signal %s.%s" % (top, name))
check(all(t % 500 == 0 for t in times), "times not on half cycles (500 ps)")
if top + ".clk" in vars_:
    clk = [v for _, v in changes.get(vars_[top + ".clk"], [])]
    check("0" in clk and "1" in clk and len(clk) > 100, "the clock does not toggle")
if top + ".m_mem_req_valid" in vars_ and top + ".m_mem_req_ready" in vars_:
    valid = values_at(changes, vars_[top + ".m_mem_req_valid"], times)
    ready = values_at(changes, vars_[top + ".m_mem_req_ready"], times)
    check(any(valid[t] == "1" and ready[t] == "1" for t in times),
          "no memory request handshake (m_mem_req_valid & m_mem_req_ready) recorded")
with open(os.path.join(entry, "report.json")) as f:
    kernel = [k for k in json.load(f)["kernels"] if k["name"] == "vadd"][0]
regions = [r for r in kernel["regions"] if r["kind"] != "body"]
check(regions and kernel["lsus"], "report.json has no regions or load-store units")
for r in regions:
    check("%s.r%d_in_valid" % (cu, r["id"]) in vars_,
          "region %d of the report: no %s.r%d_in_valid" % (r["id"], cu, r["id"]))
    if r["kind"] == "loop":
        check("%s.r%d_count" % (cu, r["id"]) in vars_,
              "loop at line %d (region %d): no r%d_count" % (r["line"], r["id"], r["id"]))
for lsu in kernel["lsus"]:
    check(any(v.startswith("%s.lsu%d." % (cu, lsu["index"])) for v in vars_),
          "LSU %d of the report: no scope %s.lsu%d" % (lsu["index"], cu, lsu["index"]))
all_cycles = {t // 1000 for t in times}

# 3. a kernel the program does not have
none_fst = os.path.join(OUT, "none.fst")
rc, out, err = run([VADD, VADD_CL, "256"], {"CLHLS_WAVES": none_fst,
                                             "CLHLS_WAVES_KERNEL": "no_such_kernel"})
check(rc == 0 and "PASSED" in out, "vadd with another kernel's filter: exit %d\n%s" % (rc, err))
check(not os.path.exists(none_fst), "a waveform for a program without the kernel")
check("CLHLS_WAVES" not in err, "a message for a program without the kernel:\n" + err)

# 4. one kernel of two running at once, a window of cycles, closed at exit
first = {}
for name in ("scale", "add"):
    fst = os.path.join(OUT, name + ".fst")
    rc, out, err = run([TRACE_HOST, "at_once"], {"CLHLS_WAVES": fst,
                                                 "CLHLS_WAVES_KERNEL": name,
                                                 "CLHLS_WAVES_CYCLES": "0:99"})
    check(rc == 0 and "DONE" in out, "trace_host at_once: exit %d\n%s" % (rc, err))
    check("cycles 0 to 99 of each launch of kernel " + name in err, "no line saying so:\n" + err)
    check(os.path.isfile(fst), "no " + fst)
    vars_, changes, times = vcd_of(fst)
    cycles = sorted({t // 1000 for t in times})
    check(len(cycles) == 100 and cycles[-1] - cycles[0] == 99,
          "%s: %d cycles recorded (%s..%s), not 0:99 of the launch" %
          (name, len(cycles), cycles[0] if cycles else "-", cycles[-1] if cycles else "-"))
    check("TOP.clhls_top.cu_scale.progress" in vars_ and "TOP.clhls_top.cu_add.progress" in vars_,
          name + ": the compute units' signals are missing")
    first[name] = cycles[0] if cycles else None
check(first.get("scale") != first.get("add"),
      "the two kernels' windows start at the same cycle: %s" % first)

# 5. no traced model to be had: the program runs without waveforms
shutil.rmtree(os.path.join(entry, "waves"), ignore_errors=True)
fail_fst = os.path.join(OUT, "fail.fst")
rc, out, err = run([VADD, VADD_CL, "256"], {"CLHLS_WAVES": fail_fst,
                                             "CLHLS_VERILATOR": "/bin/false"})
check(rc == 0 and "PASSED" in out, "vadd without a traced model: exit %d\n%s" % (rc, err))
check("the traced model could not be built" in err and "runs without waveforms" in err,
      "no clear message when the traced model cannot be built:\n" + err)
check(not os.path.exists(fail_fst), "a waveform without a traced model")

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("recorded %d cycles of vadd; PASSED" % len(all_cycles))
