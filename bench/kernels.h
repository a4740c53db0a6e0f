/* The benchmark kernels as OpenCL C source: vector add, and the control-flow ones:
 * Mandelbrot escape counts, Collatz step counts, a 3x3 stencil with a border branch, 4-
 * and 16-tap FIRs (unrolled loops) and a guarded vector add. bench_vadd and
 * bench_control run and check them; bench_speed measures how fast they build and
 * simulate. FP_CONTRACT OFF keeps the floats
 * bit-comparable with a host compiled with -ffp-contract=off. */
#ifndef CLHLS_BENCH_KERNELS_H
#define CLHLS_BENCH_KERNELS_H

static const char *const vadd_src =
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n";

static const char *const mandel_src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void mandel(__global int *o, float x0, float y0, float d, int maxit)\n"
    "{\n"
    "    int px = (int)get_global_id(0), py = (int)get_global_id(1);\n"
    "    float cx = x0 + (float)px * d, cy = y0 + (float)py * d;\n"
    "    float x = 0.0f, y = 0.0f;\n"
    "    int it = 0;\n"
    "    while (it < maxit && x * x + y * y <= 4.0f) {\n"
    "        float xt = x * x - y * y + cx;\n"
    "        y = 2.0f * x * y + cy;\n"
    "        x = xt;\n"
    "        it++;\n"
    "    }\n"
    "    o[py * (int)get_global_size(0) + px] = it;\n"
    "}\n";

static const char *const collatz_src =
    "__kernel void collatz(__global int *steps)\n"
    "{\n"
    "    uint x = (uint)get_global_id(0) + 1u;\n"
    "    int s = 0;\n"
    "    while (x != 1u) {\n"
    "        x = (x & 1u) ? 3u * x + 1u : x >> 1;\n"
    "        s++;\n"
    "    }\n"
    "    steps[get_global_id(0)] = s;\n"
    "}\n";

static const char *const stencil_src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void stencil(__global const float *in, __global float *out)\n"
    "{\n"
    "    int x = (int)get_global_id(0), y = (int)get_global_id(1);\n"
    "    int w = (int)get_global_size(0), h = (int)get_global_size(1);\n"
    "    int c = y * w + x;\n"
    "    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)\n"
    "        out[c] = in[c];\n"
    "    else\n"
    "        out[c] = 0.25f * in[c]\n"
    "                 + 0.125f * (in[c - 1] + in[c + 1] + in[c - w] + in[c + w])\n"
    "                 + 0.0625f * (in[c - w - 1] + in[c - w + 1] + in[c + w - 1]\n"
    "                              + in[c + w + 1]);\n"
    "}\n";

static const char *const fir4_src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void fir4(__global const float *x, __constant float *c, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    #pragma unroll\n"
    "    for (int t = 0; t < 4; t++)\n"
    "        s += c[t] * x[i + t];\n"
    "    y[i] = s;\n"
    "}\n";

static const char *const fir16_src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void fir16(__global const float *x, __constant float *c, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    #pragma unroll\n"
    "    for (int t = 0; t < 16; t++)\n"
    "        s += c[t] * x[i + t];\n"
    "    y[i] = s;\n"
    "}\n";

static const char *const vadd_guard_src =
    "__kernel void vadd_guard(__global const float *a, __global const float *b,\n"
    "                         __global float *c, int n)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

#endif
