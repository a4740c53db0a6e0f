/* End-to-end: replication. Kernels of several compute units (Intel's num_compute_units, and the
 * build option -clhls-compute-units=KERNEL:N as Vitis's nk). One program holds each
 * body with 1, 2 and 4 compute units (the source is written from one template per
 * count) and once more replicated by the build option: a compute-bound polynomial
 * whose groups the units share, a work-group sum through local memory and barriers
 * (each unit has its own local memory), a histogram of global atomics (the units
 * share the atomic unit), and a 2-D grid whose ids must come out right whatever unit
 * runs a group. Every count gives the host's results exactly, with the board's timing
 * and under CLHLS_SIM_STRESS; four units finish the polynomial in well under half the
 * cycles of one; CL_DEVICE_MAX_COMPUTE_UNITS counts the built design's units. Counts
 * the hardware cannot build are build errors: 0, 17, three numbers, a kernel with a
 * channel or an autorun kernel replicated, an option naming no kernel, and a bad
 * option (CL_INVALID_BUILD_OPTIONS). SIMD work-items (num_simd_work_items 1, 4, 16,
 * a second program): a straight-line kernel reading every work-item function of
 * dimension 0 from an offset, a kernel with a branch, a loop per work-item and a
 * global atomic, and a 2-D kernel from an offset, each width giving the host's results;
 * the compile-time size is the kernel's, an offset that is no multiple of the width is
 * CL_INVALID_GLOBAL_OFFSET, and widths the hardware cannot build are build errors. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <stdarg.h>

#include "e2e.h"

#define N 1024      /* work-items of the 1-D kernels */
#define STEPS 16    /* polynomial steps per work-item */
#define GROUP 16    /* the group sum's work-group */
#define BINS 16     /* the histogram's bins */
#define W 48        /* the grid: W x H, groups of 8 x 4 */
#define H 20

static const int counts[] = {1, 2, 4};
#define NCOUNTS (int)(sizeof counts / sizeof *counts)

/* The kernels with `units` compute units (0: no attribute, suffix "_opt"). */
static void append_kernels(char *src, size_t cap, int units)
{
    char attr[64] = "", suffix[16];
    if (units)
        snprintf(attr, sizeof attr, "__attribute__((num_compute_units(%d)))\n", units);
    if (units)
        snprintf(suffix, sizeof suffix, "%d", units);
    else
        snprintf(suffix, sizeof suffix, "_opt");
    size_t len = strlen(src);
    snprintf(src + len, cap - len,
             "%s__kernel void poly%s(__global const float *x, __global float *y, int steps)\n"
             "{\n"
             "    int i = get_global_id(0);\n"
             "    float v = x[i], acc = 0.0f;\n"
             "    for (int s = 0; s < steps; s++)\n"
             "        acc = acc * v + (float)(s + 1);\n"
             "    y[i] = acc;\n"
             "}\n"
             "%s__attribute__((reqd_work_group_size(%d, 1, 1)))\n"
             "__kernel void gsum%s(__global const int *in, __global int *out)\n"
             "{\n"
             "    __local int part[%d];\n"
             "    int l = get_local_id(0);\n"
             "    part[l] = in[get_global_id(0)];\n"
             "    for (int s = %d / 2; s > 0; s /= 2) {\n"
             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
             "        if (l < s)\n"
             "            part[l] += part[l + s];\n"
             "    }\n"
             "    if (l == 0)\n"
             "        out[get_group_id(0)] = part[0] * 3 + (int)get_group_id(0);\n"
             "}\n"
             "%s__kernel void hist%s(__global const int *in, __global int *bins)\n"
             "{\n"
             "    atomic_inc(&bins[in[get_global_id(0)] & %d]);\n"
             "}\n"
             "%s__kernel void grid%s(__global int *out)\n"
             "{\n"
             "    int x = get_global_id(0), y = get_global_id(1);\n"
             "    out[y * get_global_size(0) + x] = (int)(get_group_id(0) * 1000 +\n"
             "        get_group_id(1) * 100 + get_local_id(0) * 10 + get_local_id(1));\n"
             "}\n",
             attr, suffix, attr, GROUP, suffix, GROUP, GROUP, attr, suffix, BINS - 1, attr,
             suffix);
}

static float x[N], y_ref[N];
static int ints[N];

/* Runs k over N work-items in groups of `local`; returns its time (the event's time at
 * the board's clock is what a user sees; the ratio is what matters here). */
static cl_ulong run_1d(e2e_env *env, cl_kernel k, size_t local)
{
    return e2e_run_timed(env, k, N, local);
}

static cl_kernel kernel_of(cl_program p, const char *body, int units)
{
    char name[32];
    if (units)
        snprintf(name, sizeof name, "%s%d", body, units);
    else
        snprintf(name, sizeof name, "%s_opt", body);
    return e2e_kernel(p, name);
}

/* The polynomial with each count; returns the time of `units` units. */
static cl_ulong polynomial(e2e_env *env, cl_program p, int units)
{
    cl_kernel k = kernel_of(p, "poly", units);
    cl_mem xb = e2e_buffer(env, sizeof x, x);
    cl_mem yb = e2e_buffer(env, sizeof x, NULL);
    cl_int steps = STEPS;
    E2E_ARG(k, 0, xb);
    E2E_ARG(k, 1, yb);
    E2E_ARG(k, 2, steps);
    cl_ulong t = run_1d(env, k, 64);
    float y[N];
    e2e_read(env, yb, sizeof y, y);
    for (int i = 0; i < N; i++)
        if (e2e_fbits(y[i]) != e2e_fbits(y_ref[i])) {
            fprintf(stderr, "poly with %d units: y[%d] = %a, expected %a\n", units, i, y[i],
                    y_ref[i]);
            _Exit(1);
        }
    clReleaseMemObject(xb);
    clReleaseMemObject(yb);
    clReleaseKernel(k);
    return t;
}

static void group_sums(e2e_env *env, cl_program p, int units)
{
    cl_kernel k = kernel_of(p, "gsum", units);
    cl_mem in = e2e_buffer(env, sizeof ints, ints);
    cl_mem out = e2e_filled_buffer(env, N / GROUP, -1);
    E2E_ARG(k, 0, in);
    E2E_ARG(k, 1, out);
    run_1d(env, k, GROUP);
    int got[N / GROUP];
    e2e_read(env, out, sizeof got, got);
    for (int g = 0; g < N / GROUP; g++) {
        int sum = 0;
        for (int l = 0; l < GROUP; l++)
            sum += ints[g * GROUP + l];
        if (got[g] != sum * 3 + g) {
            fprintf(stderr, "gsum with %d units: group %d = %d, expected %d\n", units, g,
                    got[g], sum * 3 + g);
            _Exit(1);
        }
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static void histogram(e2e_env *env, cl_program p, int units)
{
    cl_kernel k = kernel_of(p, "hist", units);
    cl_mem in = e2e_buffer(env, sizeof ints, ints);
    cl_mem bins = e2e_filled_buffer(env, BINS, 0);
    E2E_ARG(k, 0, in);
    E2E_ARG(k, 1, bins);
    run_1d(env, k, 32);
    int got[BINS], want[BINS] = {0};
    e2e_read(env, bins, sizeof got, got);
    for (int i = 0; i < N; i++)
        want[ints[i] & (BINS - 1)]++;
    for (int b = 0; b < BINS; b++)
        if (got[b] != want[b]) {
            fprintf(stderr, "hist with %d units: bin %d = %d, expected %d\n", units, b, got[b],
                    want[b]);
            _Exit(1);
        }
    clReleaseMemObject(in);
    clReleaseMemObject(bins);
    clReleaseKernel(k);
}

static void grid(e2e_env *env, cl_program p, int units)
{
    cl_kernel k = kernel_of(p, "grid", units);
    cl_mem out = e2e_filled_buffer(env, W * H, -1);
    E2E_ARG(k, 0, out);
    size_t global[2] = {W, H}, local[2] = {8, 4};
    EXPECT(e2e_run(env, k, 2, NULL, global, local) == CL_COMPLETE);
    int got[W * H];
    e2e_read(env, out, sizeof got, got);
    for (int y = 0; y < H; y++)
        for (int x0 = 0; x0 < W; x0++) {
            int want = x0 / 8 * 1000 + y / 4 * 100 + x0 % 8 * 10 + y % 4;
            if (got[y * W + x0] != want) {
                fprintf(stderr, "grid with %d units: (%d, %d) = %d, expected %d\n", units, x0,
                        y, got[y * W + x0], want);
                _Exit(1);
            }
        }
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* A program that must not build: CL_BUILD_PROGRAM_FAILURE (or `want`) with `needle`
 * in its log. */
static void build_error(e2e_env *env, const char *src, const char *options, cl_int want,
                        const char *needle)
{
    cl_int st;
    cl_program p = e2e_build(env, src, options, 0, &st);
    char *log = e2e_build_log(env, p);
    if (st != want || !strstr(log, needle)) {
        fprintf(stderr, "expected %d with \"%s\", got %d:\n%s\n", want, needle, st, log);
        _Exit(1);
    }
    free(log);
    clReleaseProgram(p);
}

static void build_errors(e2e_env *env)
{
    const char *poly = "__kernel void k(__global int *a) { a[get_global_id(0)]++; }\n";
    char src[512];
    static const char *const bad[] = {"0", "17", "2, 1, 1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(src, sizeof src, "__attribute__((num_compute_units(%s)))\n%s", bad[i], poly);
        build_error(env, src, NULL, CL_BUILD_PROGRAM_FAILURE,
                    "<source>:1:16: error: num_compute_units takes one number from 1 to 16");
    }
    build_error(env,
                "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
                "channel int c;\n"
                "__attribute__((num_compute_units(2)))\n"
                "__kernel void w(__global const int *a) { write_channel_intel(c, a[0]); }\n"
                "__kernel void r(__global int *a) { a[0] = read_channel_intel(c); }\n",
                NULL, CL_BUILD_PROGRAM_FAILURE,
                "<source>:3:16: error: kernel 'w' uses channels or pipes, so it has one "
                "compute unit");
    build_error(env,
                "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
                "channel int c;\n"
                "__attribute__((max_global_work_dim(0))) __attribute__((autorun))\n"
                "__kernel void spin(void) { write_channel_intel(c, 1); }\n"
                "__kernel void r(__global int *a) { a[0] = read_channel_intel(c); }\n",
                "-clhls-compute-units=spin:2", CL_BUILD_PROGRAM_FAILURE,
                "error: autorun kernel 'spin' has one compute unit");
    build_error(env, poly, "-clhls-compute-units=nothing:2", CL_BUILD_PROGRAM_FAILURE,
                "-clhls-compute-units=nothing:2: the program has no kernel of that name");
    build_error(env, poly, "-clhls-compute-units=k:0", CL_INVALID_BUILD_OPTIONS,
                "expected -clhls-compute-units=KERNEL:N with N from 1 to 16");
    build_error(env, poly, "-clhls-compute-units=k", CL_INVALID_BUILD_OPTIONS,
                "expected -clhls-compute-units=KERNEL:N");
    build_error(env,
                "__attribute__((num_simd_work_items(3))) __attribute__((reqd_work_group_size(6,1,1)))\n"
                "__kernel void k(__global int *a) { a[get_global_id(0)]++; }\n",
                NULL, CL_BUILD_PROGRAM_FAILURE,
                "<source>:1:16: error: num_simd_work_items takes 1, 2, 4, 8 or 16");
    build_error(env,
                "__attribute__((num_simd_work_items(4)))\n"
                "__kernel void k(__global int *a) { a[get_global_id(0)]++; }\n",
                NULL, CL_BUILD_PROGRAM_FAILURE,
                "error: num_simd_work_items(4) needs reqd_work_group_size(X, Y, Z) with X a "
                "multiple of 4");
    build_error(env,
                "__attribute__((num_simd_work_items(8))) __attribute__((reqd_work_group_size(12,1,1)))\n"
                "__kernel void k(__global int *a) { a[get_global_id(0)]++; }\n",
                NULL, CL_BUILD_PROGRAM_FAILURE, "multiple of 8 (X is 12)");
    build_error(env,
                "__attribute__((num_simd_work_items(2))) __attribute__((reqd_work_group_size(8,1,1)))\n"
                "__kernel void k(__global int *a)\n"
                "{\n"
                "    __local int t[8];\n"
                "    t[get_local_id(0)] = a[get_global_id(0)];\n"
                "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                "    a[get_global_id(0)] = t[7 - get_local_id(0)];\n"
                "}\n",
                NULL, CL_BUILD_PROGRAM_FAILURE,
                "kernel 'k' synchronizes its work-group (a barrier or a work-group function) at "
                "line 6, so it cannot have SIMD work-items");
}

/* SIMD work-items: the kernels with `lanes` lanes, suffix the count. */
static void append_simd_kernels(char *src, size_t cap, int lanes)
{
    size_t len = strlen(src);
    snprintf(src + len, cap - len,
             "__attribute__((num_simd_work_items(%d))) __attribute__((reqd_work_group_size(16, 1, 1)))\n"
             "__kernel void straight%d(__global const int *a, __global const int *b, __global int *c)\n"
             "{\n"
             "    int i = get_global_id(0);\n"
             "    c[i] = a[i] * 3 + b[i] + (int)get_local_id(0) * 5 + (int)get_local_size(0) * 7 +\n"
             "           (int)(get_global_size(0) >> 4) + (int)get_local_linear_id() * 11 +\n"
             "           (int)get_enqueued_local_size(0) + (int)get_global_offset(0);\n"
             "}\n"
             "__attribute__((num_simd_work_items(%d))) __attribute__((reqd_work_group_size(16, 1, 1)))\n"
             "__kernel void branch%d(__global const int *a, __global const int *b, __global int *c,\n"
             "                       __global int *bins)\n"
             "{\n"
             "    int i = get_global_id(0), acc = 0;\n"
             "    if (a[i] & 1)\n"
             "        c[i] = a[i] + b[i];\n"
             "    else\n"
             "        c[i] = a[i] - (int)get_group_id(0);\n"
             "    for (int j = 0; j < (a[i] & 7); j++)\n"
             "        acc += b[(i + j) %% get_global_size(0)];\n"
             "    c[i] += acc;\n"
             "    atomic_inc(&bins[a[i] & 15]);\n"
             "}\n"
             "__attribute__((num_simd_work_items(%d))) __attribute__((reqd_work_group_size(16, 2, 1)))\n"
             "__kernel void plane%d(__global int *out)\n"
             "{\n"
             "    int x = get_global_id(0), y = get_global_id(1);\n"
             "    out[(y - 3) * 64 + x - 16] = x * 7 + y * 1000 + (int)get_local_id(1) * 100000 +\n"
             "        (int)get_group_id(0) * 10000000;\n"
             "}\n",
             lanes, lanes, lanes, lanes, lanes, lanes);
}

/* Each SIMD width gives the host's results; the compile-time work-group size and the
 * enqueue checks are the kernel's, not its hardware's. */
static void simd_lanes(e2e_env *env, cl_program p)
{
    static const int widths[] = {1, 4, 16};
    int a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = ints[i], b[i] = ints[(i * 7) % N] / 3;
    cl_mem ab = e2e_buffer(env, sizeof a, a), bb = e2e_buffer(env, sizeof b, b);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        char name[32];
        cl_mem cb = e2e_filled_buffer(env, N, -1);
        snprintf(name, sizeof name, "straight%d", widths[w]);
        cl_kernel k = e2e_kernel(p, name);
        E2E_ARG(k, 0, ab);
        E2E_ARG(k, 1, bb);
        E2E_ARG(k, 2, cb);
        size_t compiled[3];
        CL_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                       sizeof compiled, compiled, NULL));
        EXPECT(compiled[0] == 16 && compiled[1] == 1 && compiled[2] == 1);
        size_t offset = 32, global = N - 64, local = 16;
        EXPECT(e2e_run(env, k, 1, &offset, &global, &local) == CL_COMPLETE);
        int got[N];
        e2e_read(env, cb, sizeof got, got);
        for (int i = 0; i < N; i++) {
            int want = -1;
            if (i >= 32 && i < N - 32)
                want = a[i] * 3 + b[i] + (i % 16) * 5 + 16 * 7 + (N - 64) / 16 + (i % 16) * 11 +
                       16 + 32;
            if (got[i] != want) {
                fprintf(stderr, "straight with %d lanes: c[%d] = %d, expected %d\n", widths[w], i,
                        got[i], want);
                _Exit(1);
            }
        }
        if (widths[w] > 1) { /* the hardware takes offsets of whole hardware work-items */
            offset = 2;
            EXPECT(clEnqueueNDRangeKernel(env->queue, k, 1, &offset, &global, &local, 0, NULL,
                                          NULL) == CL_INVALID_GLOBAL_OFFSET);
        }
        clReleaseKernel(k);
        snprintf(name, sizeof name, "branch%d", widths[w]);
        k = e2e_kernel(p, name);
        cl_mem bins = e2e_filled_buffer(env, 16, 0);
        E2E_ARG(k, 0, ab);
        E2E_ARG(k, 1, bb);
        E2E_ARG(k, 2, cb);
        E2E_ARG(k, 3, bins);
        global = N;
        EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
        int hist[16], want_hist[16] = {0};
        e2e_read(env, cb, sizeof got, got);
        e2e_read(env, bins, sizeof hist, hist);
        for (int i = 0; i < N; i++) {
            int want = a[i] & 1 ? a[i] + b[i] : a[i] - i / 16;
            for (int j = 0; j < (a[i] & 7); j++)
                want += b[(i + j) % N];
            want_hist[a[i] & 15]++;
            if (got[i] != want) {
                fprintf(stderr, "branch with %d lanes: c[%d] = %d, expected %d\n", widths[w], i,
                        got[i], want);
                _Exit(1);
            }
        }
        EXPECT(!memcmp(hist, want_hist, sizeof hist));
        clReleaseKernel(k);
        clReleaseMemObject(bins);
        snprintf(name, sizeof name, "plane%d", widths[w]);
        k = e2e_kernel(p, name);
        E2E_ARG(k, 0, cb);
        size_t off2[2] = {16, 3}, global2[2] = {64, 8}, local2[2] = {16, 2};
        EXPECT(e2e_run(env, k, 2, off2, global2, local2) == CL_COMPLETE);
        e2e_read(env, cb, sizeof got, got);
        for (int y = 3; y < 11; y++)
            for (int x = 16; x < 80; x++) {
                int want = x * 7 + y * 1000 + (y - 3) % 2 * 100000 + (x - 16) / 16 * 10000000;
                if (got[(y - 3) * 64 + x - 16] != want) {
                    fprintf(stderr, "plane with %d lanes: (%d, %d) = %d, expected %d\n",
                            widths[w], x, y, got[(y - 3) * 64 + x - 16], want);
                    _Exit(1);
                }
            }
        clReleaseKernel(k);
        clReleaseMemObject(cb);
    }
    clReleaseMemObject(ab);
    clReleaseMemObject(bb);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    unsigned seed = 77;
    for (int i = 0; i < N; i++) {
        ints[i] = (int)(e2e_xorshift(&seed) % 2001) - 1000;
        x[i] = (float)ints[i] / 1024.0f;
        float acc = 0.0f;
        for (int s = 0; s < STEPS; s++)
            acc = acc * x[i] + (float)(s + 1);
        y_ref[i] = acc;
    }
    static char src[32768];
    for (int c = 0; c < NCOUNTS; c++)
        append_kernels(src, sizeof src, counts[c]);
    append_kernels(src, sizeof src, 0);
    cl_program p = e2e_build(&env, src,
                             "-clhls-compute-units=poly_opt:3 -clhls-compute-units=gsum_opt:2 "
                             "-clhls-compute-units=hist_opt:3 -clhls-compute-units=grid_opt:4",
                             1, NULL);
    /* 4 bodies with 1 + 2 + 4 units, and 3 + 2 + 3 + 4 by the option */
    static char simd_src[16384];
    for (int w = 1; w <= 16; w *= 4)
        append_simd_kernels(simd_src, sizeof simd_src, w);
    cl_program ps = e2e_build(&env, simd_src, "-cl-std=CL2.0", 1, NULL);
    cl_uint units = 0;
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    EXPECT(units == 4 * (1 + 2 + 4) + 3 + 2 + 3 + 4);
    for (int stress = 0; stress < 2; stress++) {
        if (stress) {
            setenv("CLHLS_SIM_STRESS", "20261130", 1);
            printf("-- again under CLHLS_SIM_STRESS=20261130 --\n");
        }
        cl_ulong t[NCOUNTS];
        for (int c = 0; c <= NCOUNTS; c++) {
            int n = c < NCOUNTS ? counts[c] : 0;
            cl_ulong time = polynomial(&env, p, n);
            if (c < NCOUNTS)
                t[c] = time;
            group_sums(&env, p, n);
            histogram(&env, p, n);
            grid(&env, p, n);
        }
        printf("poly: 1 unit %llu ns, 2 units %llu ns, 4 units %llu ns\n",
               (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2]);
        if (!stress) /* four units share the groups: far fewer cycles than one */
            EXPECT(t[2] * 2 < t[0] && t[1] < t[0]);
        printf("compute units: every count gives the host's results\n");
        simd_lanes(&env, ps);
        printf("SIMD work-items: every width gives the host's results\n");
    }
    unsetenv("CLHLS_SIM_STRESS");
    build_errors(&env);
    printf("compute units: build errors\n");
    clReleaseProgram(p);
    clReleaseProgram(ps);
    e2e_fini(&env);
    return 0;
}
