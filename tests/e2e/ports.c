/* End-to-end: a board of several memory ports (the Alveo U250's four DDR4 channels of
 * 16 GiB, CLHLS_BOARD=alveo_u250). Buffers go to the ports round robin in the order they are
 * created, or to the port Intel's CL_CHANNEL_n_INTELFPGA flag names (channel n is port
 * n - 1); a kernel sees each buffer's address in its port's range. Every load-store
 * unit reaches every port: a vector add over three ports, a copy whose load and store
 * go to different ports in half the cycles of the same copy on one port, a load that
 * alternates between two buffers on two ports (its answers stay in order), and global
 * atomics on a buffer of another port all give the host's results, with the board's
 * timing and under CLHLS_SIM_STRESS. A channel the board does not have is
 * CL_INVALID_VALUE. */
#include "e2e.h"

/* Intel's FPGA SDK's placement flags (cl_ext_intelfpga.h). */
#ifndef CL_CHANNEL_1_INTELFPGA
#define CL_CHANNEL_1_INTELFPGA ((cl_mem_flags)1 << 16)
#define CL_CHANNEL_2_INTELFPGA ((cl_mem_flags)2 << 16)
#define CL_CHANNEL_5_INTELFPGA ((cl_mem_flags)5 << 16)
#endif

#define N 4096              /* elements of the scalar kernels */
#define LINES 2048          /* float16 elements of the copies */
#define PORT_SHIFT 34       /* the board's ports serve 16 GiB each */
#define BINS 16

static const char *const src =
    "__kernel void where(__global const float *a, __global const float *b,\n"
    "                    __global const float *c, __global ulong *out)\n"
    "{ out[0] = (ulong)a; out[1] = (ulong)b; out[2] = (ulong)c; out[3] = (ulong)out; }\n"
    "__kernel void add(__global const float *a, __global const float *b, __global float *c)\n"
    "{ int i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "__kernel void copy16(__global const float16 *a, __global float16 *c)\n"
    "{ int i = get_global_id(0); c[i] = a[i]; }\n"
    "__kernel void pick(__global const int *a, __global const int *b, __global int *c)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    __global const int *p = (i / 48) % 2 ? a : b;\n"
    "    c[i] = p[i] * 3 + 1;\n"
    "}\n"
    "__kernel void count(__global const int *v, __global int *bins)\n"
    "{ atomic_add(&bins[v[get_global_id(0)] & 15], 1); }\n";

/* A buffer of `bytes` with `flags` (and CL_MEM_COPY_HOST_PTR when init is given). */
static cl_mem placed(e2e_env *env, cl_mem_flags flags, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env->ctx, flags | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              (void *)init, &err);
    CL_OK(err);
    return m;
}

/* Runs k over n work-items in groups of 64; returns its cycles at the board's 300 MHz. */
static double cycles_of(e2e_env *env, cl_kernel k, size_t n)
{
    return (double)e2e_run_timed(env, k, n, 64) * 0.3;
}

/* The port of each buffer, as a kernel sees its address. */
static void ports_of(e2e_env *env, cl_program p, cl_mem a, cl_mem b, cl_mem c, cl_mem out,
                     unsigned port[4])
{
    cl_kernel k = e2e_kernel(p, "where");
    E2E_ARG(k, 0, a);
    E2E_ARG(k, 1, b);
    E2E_ARG(k, 2, c);
    E2E_ARG(k, 3, out);
    EXPECT(e2e_task(env, k) == CL_COMPLETE);
    cl_ulong addr[4];
    e2e_read(env, out, sizeof addr, addr);
    for (int i = 0; i < 4; i++) {
        port[i] = (unsigned)(addr[i] >> PORT_SHIFT);
        EXPECT((addr[i] & (((cl_ulong)1 << PORT_SHIFT) - 1)) >= 0x10000); /* past the reserve */
    }
    clReleaseKernel(k);
}

static void run_all(e2e_env *env, cl_program p)
{
    static float fa[N], fb[N], fc[N];
    static int ia[N], ib[N], ic[N], bins[BINS];
    for (int i = 0; i < N; i++) {
        fa[i] = (float)i * 0.5f;
        fb[i] = (float)(N - i);
        ia[i] = i * 7 - 100;
        ib[i] = -i;
    }
    /* created in this order: the device's next four ports, round robin */
    cl_mem a = e2e_buffer(env, sizeof fa, fa), b = e2e_buffer(env, sizeof fb, fb);
    cl_mem c = e2e_buffer(env, sizeof fc, NULL), out = e2e_buffer(env, 4 * sizeof(cl_ulong), NULL);
    unsigned port[4];
    ports_of(env, p, a, b, c, out, port);
    printf("round robin: ports %u %u %u %u\n", port[0], port[1], port[2], port[3]);
    fflush(stdout);
    for (unsigned i = 1; i < 4; i++)
        EXPECT(port[i] == (port[0] + i) % 4);

    cl_kernel add = e2e_kernel(p, "add");
    E2E_ARG(add, 0, a);
    E2E_ARG(add, 1, b);
    E2E_ARG(add, 2, c);
    cycles_of(env, add, N);
    e2e_read(env, c, sizeof fc, fc);
    for (int i = 0; i < N; i++)
        EXPECT(fc[i] == fa[i] + fb[i]);

    /* the copy: load and store on one port, then on two */
    size_t bytes = LINES * 16 * sizeof(float);
    float *src16 = malloc(bytes), *dst16 = malloc(bytes);
    EXPECT(src16 && dst16);
    for (size_t i = 0; i < LINES * 16; i++)
        src16[i] = (float)i - 3.25f;
    cl_mem one_a = placed(env, CL_CHANNEL_2_INTELFPGA, bytes, src16);
    cl_mem one_c = placed(env, CL_CHANNEL_2_INTELFPGA, bytes, NULL);
    cl_mem two_c = placed(env, CL_CHANNEL_1_INTELFPGA, bytes, NULL);
    ports_of(env, p, one_a, one_c, two_c, out, port);
    EXPECT(port[0] == 1 && port[1] == 1 && port[2] == 0);
    cl_kernel copy = e2e_kernel(p, "copy16");
    E2E_ARG(copy, 0, one_a);
    E2E_ARG(copy, 1, one_c);
    double on_one = cycles_of(env, copy, LINES);
    e2e_read(env, one_c, bytes, dst16);
    EXPECT(!memcmp(src16, dst16, bytes));
    E2E_ARG(copy, 1, two_c);
    double on_two = cycles_of(env, copy, LINES);
    e2e_read(env, two_c, bytes, dst16);
    EXPECT(!memcmp(src16, dst16, bytes));
    printf("copy of %d float16: %.0f cycles on one port, %.0f on two\n", LINES, on_one, on_two);
    EXPECT(on_two < 0.6 * on_one);

    /* one load unit alternating between ports 0 and 1 every 48 work-items */
    cl_mem pa = placed(env, CL_CHANNEL_1_INTELFPGA, sizeof ia, ia);
    cl_mem pb = placed(env, CL_CHANNEL_2_INTELFPGA, sizeof ib, ib);
    cl_mem pc = e2e_buffer(env, sizeof ic, NULL);
    cl_kernel pick = e2e_kernel(p, "pick");
    E2E_ARG(pick, 0, pa);
    E2E_ARG(pick, 1, pb);
    E2E_ARG(pick, 2, pc);
    cycles_of(env, pick, N);
    e2e_read(env, pc, sizeof ic, ic);
    for (int i = 0; i < N; i++)
        EXPECT(ic[i] == ((i / 48) % 2 ? ia[i] : ib[i]) * 3 + 1);

    /* global atomics on one port, their values read from another */
    cl_mem vals = placed(env, CL_CHANNEL_1_INTELFPGA, sizeof ia, ia);
    cl_mem hist = e2e_filled_buffer(env, BINS, 0);
    cl_kernel count = e2e_kernel(p, "count");
    E2E_ARG(count, 0, vals);
    E2E_ARG(count, 1, hist);
    cycles_of(env, count, N);
    e2e_read(env, hist, sizeof bins, bins);
    int want[BINS] = {0};
    for (int i = 0; i < N; i++)
        want[ia[i] & 15]++;
    for (int i = 0; i < BINS; i++)
        EXPECT(bins[i] == want[i]);

    cl_mem all[] = {a, b, c, out, one_a, one_c, two_c, pa, pb, pc, vals, hist};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseMemObject(all[i]);
    cl_kernel ks[] = {add, copy, pick, count};
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
        clReleaseKernel(ks[i]);
    free(src16);
    free(dst16);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, "", 1, NULL);
    run_all(&env, p);
    printf("-- again under CLHLS_SIM_STRESS=20261203 --\n");
    setenv("CLHLS_SIM_STRESS", "20261203", 1);
    e2e_fini(&env); /* a new context: a new device and memory, under stress */
    e2e_init(&env);
    clReleaseProgram(p);
    p = e2e_build(&env, src, "", 1, NULL);
    run_all(&env, p);
    unsetenv("CLHLS_SIM_STRESS");
    cl_int err;
    cl_mem none = clCreateBuffer(env.ctx, CL_CHANNEL_5_INTELFPGA, 64, NULL, &err);
    EXPECT(!none && err == CL_INVALID_VALUE);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
