#!/usr/bin/env python3
"""The multi-threaded model (CLHLS_SIM_THREADS, docs/user-guide.md "Environment
variables"), end to end through the ICD with real host programs.

usage: check_sim_threads.py CLHLS VADD VADD_CL MATMUL MATMUL_CL

1. examples/vadd (a design below the default threshold) with CLHLS_SIM_THREADS=2: one
   note on stderr, no threaded model built, the same counters.
2. vadd with CLHLS_SIM_THREADS_MIN=0 lowering the threshold: the runtime builds
   ENTRY/threads2/ (model.json says "threads": 2) and runs on it; simulated cycles and
   every hardware counter (CLHLS_COUNTERS) are the single-threaded run's. A second run
   finds it in the cache; `clhls threads-model ENTRY --threads 2` says it is there.
3. examples/matmul_tiled (two kernels, __local tiles and barriers; above the default
   threshold) with CLHLS_SIM_THREADS=2 alone: threaded, with the same cycles, counters
   and printed table as the single-threaded run.
4. A threaded model that cannot be built (Verilator replaced by /bin/false): a clear
   message, and the program runs single-threaded and passes.
Prints PASSED at the end; any failed check exits 1 with what was wrong."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CLHLS, VADD, VADD_CL, MATMUL, MATMUL_CL = sys.argv[1:6]
VARS = ("CLHLS_SIM_THREADS", "CLHLS_SIM_THREADS_MIN", "CLHLS_WAVES", "CLHLS_COUNTERS",
        "CLHLS_VERILATOR", "CLHLS_SIM_STRESS")
failures = []
scratch = tempfile.mkdtemp(prefix="sim-threads-")


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)
    return cond


def run(argv, env_add, timeout=600):
    """(exit status, stdout, stderr, the CLHLS_COUNTERS records of the run)"""
    env = {k: v for k, v in os.environ.items() if k not in VARS}
    counters = os.path.join(scratch, "counters.json")
    if os.path.exists(counters):
        os.remove(counters)
    env.update(env_add)
    env["CLHLS_COUNTERS"] = counters
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    kernels = []
    if os.path.exists(counters):
        with open(counters) as f:
            kernels = json.load(f).get("kernels", [])
    return p.returncode, p.stdout, p.stderr, kernels


def measured(kernels):
    """What a run measured, per kernel run: everything but the host's clock."""
    keep = ("kernel", "work_dim", "global", "local", "offset", "simulated_cycles", "status",
            "ok", "counters")
    return [{k: r.get(k) for k in keep} for r in kernels]


def entry_of(source):
    """The cache entry `clhls build` makes of a source, as clBuildProgram finds it."""
    p = subprocess.run([CLHLS, "build", source], capture_output=True, text=True)
    m = re.search(r"entry: (\S+)", p.stdout)
    check(p.returncode == 0 and m, "clhls build %s: %s%s" % (source, p.stdout, p.stderr))
    return m.group(1) if m else ""


def table(out):
    """The program's printed results, without the host-time columns of vadd."""
    return [l for l in out.splitlines() if not re.match(r"(write|read|kernel) ", l)]


# 1. vadd, below the default threshold
vadd_entry = entry_of(VADD_CL)
vadd_threads = os.path.join(vadd_entry, "threads2")
shutil.rmtree(vadd_threads, ignore_errors=True)
rc, out1, err, single = run([VADD, VADD_CL, "4096"], {})
check(rc == 0 and "PASSED" in out1 and single, "vadd: exit %d\n%s%s" % (rc, out1, err))
rc, out, err, small = run([VADD, VADD_CL, "4096"], {"CLHLS_SIM_THREADS": "2"})
check(rc == 0 and "PASSED" in out, "vadd, CLHLS_SIM_THREADS=2: exit %d\n%s%s" % (rc, out, err))
check(err.count("too small for threads") == 1 and "CLHLS_SIM_THREADS_MIN" in err,
      "no single note for a design below the threshold:\n" + err)
check(not os.path.exists(vadd_threads), "a threaded model built below the threshold")
check(measured(small) == measured(single), "vadd below the threshold measured otherwise")

# 2. the threshold lowered: the runtime builds the threaded model and runs on it
lowered = {"CLHLS_SIM_THREADS": "2", "CLHLS_SIM_THREADS_MIN": "0"}
rc, out, err, threaded = run([VADD, VADD_CL, "4096"], lowered)
check(rc == 0 and "PASSED" in out, "vadd threaded: exit %d\n%s%s" % (rc, out, err))
check("building the program's model on 2 threads" in err, "no build message:\n" + err)
check(os.path.isfile(os.path.join(vadd_threads, "model.so")) and
      os.path.isfile(os.path.join(vadd_threads, "manifest.json")),
      "no threaded model entry " + vadd_threads)
if os.path.isfile(os.path.join(vadd_threads, "model.json")):
    with open(os.path.join(vadd_threads, "model.json")) as f:
        check(json.load(f).get("threads") == 2, "threads2/model.json does not say 2 threads")
check(measured(threaded) == measured(single),
      "vadd: the threaded model measured otherwise:\n%s\n%s"
      % (measured(single), measured(threaded)))
check(table(out) == table(out1), "vadd printed other results threaded")
rc, out, err, again = run([VADD, VADD_CL, "4096"], lowered)
check(rc == 0 and "building the program's model" not in err,
      "the threaded model was built again:\n" + err)
check(measured(again) == measured(single), "vadd: the cached threaded model measured otherwise")
p = subprocess.run([CLHLS, "threads-model", vadd_entry, "--threads", "2"], capture_output=True,
                   text=True)
check(p.returncode == 0 and "threaded model (cache hit)" in p.stdout,
      "clhls threads-model: %s%s" % (p.stdout, p.stderr))

# 3. matmul_tiled, above the default threshold: threaded with the variable alone
mm_entry = entry_of(MATMUL_CL)
mm_threads = os.path.join(mm_entry, "threads2")
shutil.rmtree(mm_threads, ignore_errors=True)
rc, mm_out, err, mm_single = run([MATMUL, MATMUL_CL, "32"], {})
check(rc == 0 and "PASSED" in mm_out and len(mm_single) == 2,
      "matmul_tiled: exit %d\n%s%s" % (rc, mm_out, err))
rc, out, err, mm_threaded = run([MATMUL, MATMUL_CL, "32"], {"CLHLS_SIM_THREADS": "2"})
check(rc == 0 and "PASSED" in out, "matmul_tiled threaded: exit %d\n%s%s" % (rc, out, err))
check(os.path.isfile(os.path.join(mm_threads, "model.so")),
      "matmul_tiled: no threaded model " + mm_threads)
check(measured(mm_threaded) == measured(mm_single),
      "matmul_tiled: the threaded model measured otherwise:\n%s\n%s"
      % (measured(mm_single), measured(mm_threaded)))
check(out == mm_out, "matmul_tiled printed other results threaded:\n%s\n%s" % (mm_out, out))

# 4. no threaded model to be had: the program runs single-threaded
shutil.rmtree(vadd_threads, ignore_errors=True)
rc, out, err, failed = run([VADD, VADD_CL, "4096"], dict(lowered, CLHLS_VERILATOR="/bin/false"))
check(rc == 0 and "PASSED" in out, "vadd without a threaded model: exit %d\n%s" % (rc, err))
check("the threaded model could not be built" in err and "runs single-threaded" in err,
      "no clear message when the threaded model cannot be built:\n" + err)
check(measured(failed) == measured(single), "vadd measured otherwise on the fallback")

shutil.rmtree(scratch, ignore_errors=True)
if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("threaded models of vadd and matmul_tiled measured as the single-threaded ones; PASSED")
