/* End-to-end: global memory as the OpenCL memory model promises it, all kernels of one
 * program. A work-item reads its own earlier stores (through a second pointer to the
 * same buffer, so the compiler cannot pass the value on); after a barrier with
 * CLK_GLOBAL_MEM_FENCE every work-item of the group reads the group's earlier stores:
 * one work-item's store of a word all of them read (once, and in a loop where another
 * work-item writes it each time), each work-item's store read by its neighbour (once,
 * and a smoothing loop of loads, barrier, stores, barrier), and a counter that every
 * work-item increments atomically. The words of consecutive groups share memory
 * lines, which earlier work-items' loads open before the stores land. Several group
 * sizes and loop counts, each run also under random memory latency and back-pressure;
 * every output is checked against a host computation. */
#include "e2e.h"

#define N 4096

static const char *src =
    "__kernel void group_word(__global int *g, __global int *out, int base)\n"
    "{\n"
    "    int grp = (int)get_group_id(0);\n"
    "    if (get_local_id(0) == 0)\n"
    "        g[grp] = grp + base;\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = g[grp];\n"
    "}\n"
    "__kernel void group_word_loop(__global int *g, __global int *out, int iters)\n"
    "{\n"
    "    int grp = (int)get_group_id(0), acc = 0;\n"
    "    for (int it = 0; it < iters; it++) {\n"
    "        if (get_local_id(0) == it % get_local_size(0))\n"
    "            g[grp] = grp * 1000 + it;\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "        acc = acc * 3 + g[grp];\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    }\n"
    "    out[get_global_id(0)] = acc;\n"
    "}\n"
    "__kernel void own_store(__global int *a, __global const int *same, __global int *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    a[i] = i * 7 + 1;\n"
    "    out[i] = same[i];\n"
    "}\n"
    "__kernel void neighbour(__global int *a, __global int *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0), l = (int)get_local_id(0), n = (int)get_local_size(0);\n"
    "    a[i] = i * 5 + 3;\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    out[i] = a[i - l + (l + 1) % n];\n"
    "}\n"
    "__kernel void smooth(__global int *a, int iters)\n"
    "{\n"
    "    int i = (int)get_global_id(0), l = (int)get_local_id(0), n = (int)get_local_size(0);\n"
    "    for (int it = 0; it < iters; it++) {\n"
    "        int v = a[i] + 2 * a[i - l + (l + 1) % n] + it;\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "        a[i] = v;\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    }\n"
    "}\n"
    "__kernel void count_then_read(__global int *c, __global int *out)\n"
    "{\n"
    "    atomic_inc(&c[get_group_id(0)]);\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = c[get_group_id(0)];\n"
    "}\n";

static void check(const int *got, const int *want, size_t n, const char *what, size_t wg)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "%s, groups of %zu: [%zu] = %d, expected %d\n", what, wg, i, got[i],
                    want[i]);
            _Exit(1);
        }
}

static void run(e2e_env *env, cl_kernel k, size_t wg)
{
    size_t global = N;
    EXPECT(e2e_run(env, k, 1, NULL, &global, &wg) == CL_COMPLETE);
}

/* Runs k in groups of wg, checks `out` against want, releases both. */
static void expect_out(e2e_env *env, cl_kernel k, size_t wg, cl_mem out, const int *want,
                       const char *what)
{
    static int got[N];
    run(env, k, wg);
    e2e_read(env, out, sizeof got, got);
    check(got, want, N, what, wg);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static void group_word(e2e_env *env, cl_program p, size_t wg)
{
    static int want[N];
    cl_kernel k = e2e_kernel(p, "group_word");
    cl_mem g = e2e_filled_buffer(env, N, 0), out = e2e_filled_buffer(env, N, -1);
    int base = 100;
    E2E_ARG(k, 0, g);
    E2E_ARG(k, 1, out);
    E2E_ARG(k, 2, base);
    for (size_t i = 0; i < N; i++)
        want[i] = (int)(i / wg) + base;
    expect_out(env, k, wg, out, want, "group_word");
    clReleaseMemObject(g);
}

static void group_word_loop(e2e_env *env, cl_program p, size_t wg, int iters)
{
    static int want[N];
    cl_kernel k = e2e_kernel(p, "group_word_loop");
    cl_mem g = e2e_filled_buffer(env, N, 0), out = e2e_filled_buffer(env, N, -1);
    E2E_ARG(k, 0, g);
    E2E_ARG(k, 1, out);
    E2E_ARG(k, 2, iters);
    for (size_t i = 0; i < N; i++) {
        unsigned acc = 0;
        for (int it = 0; it < iters; it++)
            acc = acc * 3u + (unsigned)((int)(i / wg) * 1000 + it);
        want[i] = (int)acc;
    }
    expect_out(env, k, wg, out, want, "group_word_loop");
    clReleaseMemObject(g);
}

static void own_store(e2e_env *env, cl_program p, size_t wg)
{
    static int want[N];
    cl_kernel k = e2e_kernel(p, "own_store");
    cl_mem a = e2e_filled_buffer(env, N, 0), out = e2e_filled_buffer(env, N, -1);
    E2E_ARG(k, 0, a);
    E2E_ARG(k, 1, a);
    E2E_ARG(k, 2, out);
    for (size_t i = 0; i < N; i++)
        want[i] = (int)i * 7 + 1;
    expect_out(env, k, wg, out, want, "own_store");
    clReleaseMemObject(a);
}

static void neighbour(e2e_env *env, cl_program p, size_t wg)
{
    static int want[N];
    cl_kernel k = e2e_kernel(p, "neighbour");
    cl_mem a = e2e_filled_buffer(env, N, 0), out = e2e_filled_buffer(env, N, -1);
    E2E_ARG(k, 0, a);
    E2E_ARG(k, 1, out);
    for (size_t i = 0; i < N; i++) {
        size_t first = i - i % wg, j = first + (i % wg + 1) % wg;
        want[i] = (int)j * 5 + 3;
    }
    expect_out(env, k, wg, out, want, "neighbour");
    clReleaseMemObject(a);
}

static void smooth(e2e_env *env, cl_program p, size_t wg, int iters)
{
    static int init[N], got[N], want[N], next[N];
    unsigned seed = 12345;
    for (size_t i = 0; i < N; i++)
        init[i] = want[i] = (int)(e2e_xorshift(&seed) % 100);
    cl_kernel k = e2e_kernel(p, "smooth");
    cl_mem a = e2e_buffer(env, sizeof init, init);
    E2E_ARG(k, 0, a);
    E2E_ARG(k, 1, iters);
    run(env, k, wg);
    e2e_read(env, a, sizeof got, got);
    for (int it = 0; it < iters; it++) {
        for (size_t i = 0; i < N; i++) {
            size_t first = i - i % wg, j = first + (i % wg + 1) % wg;
            next[i] = (int)((unsigned)want[i] + 2u * (unsigned)want[j] + (unsigned)it);
        }
        memcpy(want, next, sizeof want);
    }
    check(got, want, N, "smooth", wg);
    clReleaseMemObject(a);
    clReleaseKernel(k);
}

static void count_then_read(e2e_env *env, cl_program p, size_t wg)
{
    static int want[N];
    cl_kernel k = e2e_kernel(p, "count_then_read");
    cl_mem c = e2e_filled_buffer(env, N, 0), out = e2e_filled_buffer(env, N, -1);
    E2E_ARG(k, 0, c);
    E2E_ARG(k, 1, out);
    for (size_t i = 0; i < N; i++)
        want[i] = (int)wg;
    expect_out(env, k, wg, out, want, "count_then_read");
    clReleaseMemObject(c);
}

static void all(e2e_env *env, cl_program p)
{
    static const size_t sizes[] = {16, 64, 256, 1024};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t wg = sizes[s];
        group_word(env, p, wg);
        group_word_loop(env, p, wg, (int)(s + 2));
        own_store(env, p, wg);
        neighbour(env, p, wg);
        smooth(env, p, wg, (int)(2 * s + 1));
        count_then_read(env, p, wg);
    }
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, NULL, 1, NULL);
    all(&env, p);
    /* The memory made from now on answers late and refuses requests at random. */
    setenv("CLHLS_SIM_STRESS", "11", 1);
    all(&env, p);
    unsetenv("CLHLS_SIM_STRESS");
    clReleaseProgram(p);
    e2e_fini(&env);
    puts("PASS memory");
    return 0;
}
