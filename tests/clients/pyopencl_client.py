#!/usr/bin/env python3
"""A PyOpenCL program as a user writes it, run against clhls unchanged: a kernel of
its own, pyopencl.array arithmetic and comparisons, reductions (pyopencl.array.sum and
a ReductionKernel), an ElementwiseKernel and pyopencl.scan. PyOpenCL builds its own
kernels for these (loops, __local memory, barriers) and caches their program binaries.
Every result is checked against numpy; the exit status is the number of failures."""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import InclusiveScanKernel

platform = next(p for p in cl.get_platforms() if p.name == "clhls")
device = platform.get_devices()[0]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
print(f"device: {device.name}, OpenCL {device.version}")

rng = np.random.default_rng(7)
n = 3000
a = rng.standard_normal(n).astype(np.float32)
b = rng.standard_normal(n).astype(np.float32)
ints = rng.integers(-1000, 1000, n).astype(np.int32)
a_dev, b_dev = cla.to_device(queue, a), cla.to_device(queue, b)
ints_dev = cla.to_device(queue, ints)
failures = 0


def check(name, ok, detail=""):
    global failures
    print(f"{name:<28} {'ok' if ok else 'FAILED'} {detail}")
    failures += 0 if ok else 1


# A program of the user's own, with a bounds check, run with a ragged global size.
program = cl.Program(ctx, """
__kernel void scale_clamped(__global float *x, float s, int n) {
    int i = get_global_id(0);
    if (i < n)
        x[i] = clamp(s * x[i], -1.0f, 1.0f);
}""").build()
x_dev = a_dev.copy()
event = program.scale_clamped(queue, (3072,), (64,), x_dev.data, np.float32(0.5), np.int32(n))
event.wait()
check("own kernel", np.array_equal(x_dev.get(), np.clip(np.float32(0.5) * a, -1, 1)),
      f"({(event.profile.end - event.profile.start) / 1e3:.1f} us on the device)")

# pyopencl.array: element-wise arithmetic and a comparison (char results).
check("array a + 2*b", np.array_equal((a_dev + 2 * b_dev).get(), a + np.float32(2) * b))
check("array a < b", np.array_equal((a_dev < b_dev).get(), (a < b).astype(np.int8)))

# Reductions: pyopencl.array.sum (integers: exact) and a ReductionKernel (a dot product).
check("array sum (int)", int(cla.sum(ints_dev).get()) == int(ints.sum()))
dot = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                      map_expr="x[i]*y[i]", arguments="__global float *x, __global float *y")
got = float(dot(a_dev, b_dev).get())
want = float(np.dot(a.astype(np.float64), b.astype(np.float64)))
check("ReductionKernel dot", abs(got - want) < 1e-3 * max(1.0, abs(want)), f"({got} vs {want})")

# An ElementwiseKernel.
axpy = ElementwiseKernel(ctx, "float a, float *x, float *y, float *z",
                         "z[i] = a*x[i] + y[i]", "axpy")
z_dev = cla.empty_like(a_dev)
axpy(np.float32(2.5), a_dev, b_dev, z_dev)
check("ElementwiseKernel axpy", np.allclose(z_dev.get(), np.float32(2.5) * a + b, rtol=1e-6))

# pyopencl.scan: an inclusive prefix sum (two programs of several kernels each).
inclusive = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
scanned = ints_dev.copy()
inclusive(scanned)
check("InclusiveScanKernel", np.array_equal(scanned.get(), np.cumsum(ints, dtype=np.int32)))

print("PASSED" if failures == 0 else f"{failures} FAILED")
sys.exit(failures)
