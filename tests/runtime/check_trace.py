#!/usr/bin/env python3
"""runtime_trace: runs trace_host with CLHLS_TRACE, CLHLS_COUNTERS and CLHLS_VERBOSE in
its environment, as a user would, and checks the files the runtime wrote at exit:
the trace's structure (Chrome Trace Event Format, as ui.perfetto.dev reads it), that
its times are the ones clGetEventProfilingInfo gave the program, that the write ran
beside the kernel on another track, the failed commands with their status, the
counters against CLHLS_VERBOSE's line; the same with four threads enqueueing and an
exit without waiting; two kernels of one program running at once (they overlap in time,
each on a track of its own); how full a channel got (the counter channel_peak.c) with
its kernels in turn and at once; and an unwritable path (one message, the program goes on).

usage: check_trace.py TRACE_HOST SCRATCH_DIR"""
import json
import os
import re
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def run(host, mode, env_extra):
    env = dict(os.environ, **env_extra)
    p = subprocess.run([host, mode], env=env, capture_output=True, text=True, timeout=900)
    check(p.returncode == 0 and "DONE" in p.stdout,
          f"trace_host {mode} ran (status {p.returncode}): {p.stderr[-2000:]}")
    return p


def load(path):
    with open(path) as f:
        return json.load(f)


def check_structure(trace):
    """Every X event complete, every pid/tid named, no overlap within a tid."""
    check(isinstance(trace, dict) and isinstance(trace.get("traceEvents"), list),
          "the trace is an object with a traceEvents array")
    check(trace.get("displayTimeUnit") == "ns", "displayTimeUnit is ns")
    events = trace["traceEvents"]
    xs = [e for e in events if e.get("ph") == "X"]
    meta = [e for e in events if e.get("ph") == "M"]
    processes = {e["pid"] for e in meta if e.get("name") == "process_name" and e["args"]["name"]}
    threads = {(e["pid"], e["tid"]) for e in meta if e.get("name") == "thread_name" and e["args"]["name"]}
    for e in xs:
        for key in ("name", "cat", "ph", "ts", "dur", "pid", "tid", "args"):
            check(key in e, f"X event has {key}: {e}")
        check(isinstance(e["ts"], (int, float)) and e["dur"] >= 0, f"ts/dur numbers: {e}")
        check(e["pid"] in processes, f"pid {e['pid']} named by process_name")
        check((e["pid"], e["tid"]) in threads, f"tid {e['pid']}/{e['tid']} named by thread_name")
        for key in ("queue", "status", "queued_ns", "submit_ns", "start_ns", "end_ns"):
            check(key in e["args"], f"args has {key}: {e['name']}")
    by_track = {}
    for e in xs:
        by_track.setdefault((e["pid"], e["tid"]), []).append(e)
    for track, evs in by_track.items():
        evs.sort(key=lambda e: (e["args"]["start_ns"], e["args"]["end_ns"]))
        for a, b in zip(evs, evs[1:]):
            check(a["args"]["end_ns"] <= b["args"]["start_ns"],
                  f"track {track}: '{a['name']}' and '{b['name']}' do not overlap")
    return xs


def timeline(host, scratch):
    trace_path = os.path.join(scratch, "timeline.trace.json")
    counters_path = os.path.join(scratch, "timeline.counters.json")
    for p in (trace_path, counters_path):
        if os.path.exists(p):
            os.unlink(p)
    p = run(host, "timeline", {"CLHLS_TRACE": trace_path, "CLHLS_COUNTERS": counters_path,
                               "CLHLS_VERBOSE": "1"})
    profile = {}
    failed = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if f and f[0] == "PROFILE":
            profile[f[1]] = [int(x) for x in f[2:6]]
        elif f and f[0] == "FAILED":
            failed[f[1]] = int(f[2])
    check(set(profile) == {"kernel", "write", "marker"}, f"completed commands: {profile}")
    check(set(failed) == {"bad_kernel", "read"}, f"failed commands: {failed}")
    trace = load(trace_path)
    xs = check_structure(trace)

    def find(pred, what):
        found = [e for e in xs if pred(e)]
        check(len(found) == 1, f"one event for {what}: {[e['name'] for e in found]}")
        return found[0] if found else None

    kernel = find(lambda e: e["name"] == "kernel scale", "kernel scale")
    write = find(lambda e: e["name"] == "write 4 KiB", "write 4 KiB")
    marker = find(lambda e: e["name"] == "marker", "the marker")
    bad = find(lambda e: e["name"] == "kernel store_at", "kernel store_at")
    read = find(lambda e: e["cat"] == "READ_BUFFER", "the read")
    if not all((kernel, write, marker, bad, read)):
        return
    # Times: what the program got from clGetEventProfilingInfo.
    for label, e in (("kernel", kernel), ("write", write), ("marker", marker)):
        q, s, st, en = profile[label]
        a = e["args"]
        check([a["queued_ns"], a["submit_ns"], a["start_ns"], a["end_ns"]] == [q, s, st, en],
              f"{label}: args times {a} equal the program's {profile[label]}")
        check(abs(e["ts"] * 1000 - st) < 1 and abs(e["dur"] * 1000 - (en - st)) < 1,
              f"{label}: ts {e['ts']} us, dur {e['dur']} us are START {st}, END-START {en - st} ns")
        check(a["status"] == "CL_COMPLETE", f"{label} status CL_COMPLETE: {a['status']}")
    check(marker["cat"] == "MARKER" and marker["dur"] == 0, "the marker takes no time")
    # The write ran on the host link during the kernel, which ran on the accelerator.
    check(kernel["tid"] != write["tid"] and kernel["pid"] == write["pid"],
          "kernel and write on different tracks of one device")
    check(kernel["ts"] < write["ts"] + write["dur"] and write["ts"] < kernel["ts"] + kernel["dur"],
          "the write overlaps the kernel in time")
    check(kernel["args"]["queue"] != write["args"]["queue"], "kernel and write on two queues")
    check(kernel["cat"] == "NDRANGE_KERNEL", "kernel category")
    check(kernel["args"]["global"] == [65536] and kernel["args"]["local"] == [64],
          f"kernel NDRange: {kernel['args'].get('global')} {kernel['args'].get('local')}")
    # Failed commands with their status.
    check(bad["args"]["status"] == "CL_OUT_OF_RESOURCES", f"failing kernel: {bad['args']['status']}")
    check(read["args"]["status"] == "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
          f"read after it: {read['args']['status']}")
    # Counters: those of CLHLS_VERBOSE's line, in the trace and in the counters file.
    verbose = {}
    for m in re.finditer(r"clhls: kernel '(\w+)' on (\S+): (\d+) cycles simulated((?:, \w+=\d+)*)",
                         p.stderr):
        verbose[m.group(1)] = (m.group(2), int(m.group(3)),
                               {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(4))})
    check(set(verbose) == {"scale", "store_at"}, f"CLHLS_VERBOSE printed both kernels: {verbose.keys()}")
    if "scale" in verbose:
        board, cycles, counters = verbose["scale"]
        check(len(counters) >= 5 and counters["work_items"] == 65536, f"verbose counters {counters}")
        check(kernel["args"]["counters"] == counters,
              f"trace counters {kernel['args']['counters']} equal the verbose ones {counters}")
        derived = kernel["args"]["derived"]
        check(abs(derived["work_items_per_cycle"] - 65536 / counters["busy_cycles"]) < 1e-9,
              f"work-items per cycle {derived}")
        check(derived.get("mem_bytes_per_cycle", 0) > 0, f"memory bytes per cycle {derived}")
    runs = load(counters_path)
    check(runs.get("format") == 1 and isinstance(runs.get("kernels"), list), "counters file form")
    by_name = {r["kernel"]: r for r in runs["kernels"]}
    check(len(runs["kernels"]) == 2 and set(by_name) == {"scale", "store_at"},
          f"one run per kernel: {[r['kernel'] for r in runs['kernels']]}")
    for name, (board, cycles, counters) in verbose.items():
        r = by_name.get(name)
        if not check(r is not None, f"counters file has {name}"):
            continue
        check(r["board"] == board and r["simulated_cycles"] == cycles and r["counters"] == counters,
              f"{name}: counters file {r} agrees with CLHLS_VERBOSE ({board}, {cycles}, {counters})")
        check(os.path.isdir(r["cache_entry"]), f"{name}: cache entry {r['cache_entry']}")
    s = by_name.get("scale")
    if s:
        check(s["ok"] and s["status"] == "CL_COMPLETE" and s["global"] == [65536],
              f"scale run {s}")
        check([s["start_ns"], s["end_ns"]] == profile["kernel"][2:4], "scale start/end ns")
    b = by_name.get("store_at")
    if b:
        check(not b["ok"] and b["status"] == "CL_OUT_OF_RESOURCES", f"store_at run {b}")


def threads(host, scratch):
    trace_path = os.path.join(scratch, "threads.trace.json")
    if os.path.exists(trace_path):
        os.unlink(trace_path)
    run(host, "threads", {"CLHLS_TRACE": trace_path})
    xs = check_structure(load(trace_path))
    # Commands still pending at exit are left out; what is there is whole.
    check(all(e["name"] in ("write 1 KiB", "marker") for e in xs), "only writes and markers")
    print(f"threads: {len(xs)} of {4 * 21} commands ran before exit")


def at_once(host, scratch):
    trace_path = os.path.join(scratch, "at_once.trace.json")
    if os.path.exists(trace_path):
        os.unlink(trace_path)
    p = run(host, "at_once", {"CLHLS_TRACE": trace_path})
    profile = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if f and f[0] == "PROFILE":
            profile[f[1]] = [int(x) for x in f[2:6]]
    check(set(profile) == {"scale", "add"}, f"both kernels completed: {p.stdout}")
    xs = check_structure(load(trace_path))  # no track holds overlapping slices
    ks = {e["name"]: e for e in xs if e["cat"] == "NDRANGE_KERNEL"}
    check(set(ks) == {"kernel scale", "kernel add"}, f"two kernels in the trace: {list(ks)}")
    if len(ks) != 2 or len(profile) != 2:
        return
    a, b = ks["kernel scale"], ks["kernel add"]
    check(a["ts"] < b["ts"] + b["dur"] and b["ts"] < a["ts"] + a["dur"],
          "the kernels overlap in time")
    check(a["tid"] != b["tid"] and a["pid"] == b["pid"], "the kernels on two tracks of one device")
    for label, e in (("scale", a), ("add", b)):
        st, en = profile[label][2:4]
        check([e["args"]["start_ns"], e["args"]["end_ns"]] == [st, en],
              f"{label}: trace times are the program's {profile[label]}")


def channels(host, scratch):
    counters_path = os.path.join(scratch, "channels.counters.json")
    if os.path.exists(counters_path):
        os.unlink(counters_path)
    run(host, "channels", {"CLHLS_COUNTERS": counters_path})
    runs = [(r["kernel"], r["counters"].get("channel_peak.c")) for r in load(counters_path)["kernels"]]
    check([r[0] for r in runs[:4]] == ["produce", "consume"] * 2 and
          sorted(r[0] for r in runs[4:]) == ["consume", "produce"], f"the runs in order: {runs}")
    # One after the other: the channel held everything the producer wrote.
    check([r[1] for r in runs[:4]] == [8, 8, 3, 3], f"channel_peak.c in turn: {runs}")
    # At once: somewhere between one entry and the channel's depth.
    check(len(runs) == 6 and all(1 <= r[1] <= 16 for r in runs[4:]), f"channel_peak.c at once: {runs}")


def unwritable(host, scratch):
    bad = os.path.join(scratch, "no-such-dir", "t.json")
    p = run(host, "threads", {"CLHLS_TRACE": bad})
    lines = [l for l in p.stderr.splitlines() if "CLHLS_TRACE" in l]
    check(len(lines) == 1 and bad in lines[0], f"one message for the unwritable path: {p.stderr}")


def main():
    host, scratch = sys.argv[1], sys.argv[2]
    os.makedirs(scratch, exist_ok=True)
    timeline(host, scratch)
    threads(host, scratch)
    at_once(host, scratch)
    channels(host, scratch)
    unwritable(host, scratch)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("PASSED")


main()
