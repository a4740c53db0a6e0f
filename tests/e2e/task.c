/* End-to-end: single work-item kernels ("tasks", clEnqueueTask), whose loops the
 * compiler pipelines, all in one program. Streaming (vector add, a loop with a
 * predicated store), integer and float reductions (the float one in order, so the
 * result is the sequential sum bit for bit), partial sums in a shift register, a
 * 16-tap FIR filter with a private shift register, a sliding-window stencil, a
 * histogram in memory and a prefix computed in place (true dependences between
 * iterations through memory: one iteration at a time from the loads to the store's
 * acknowledgement), a search whose exit depends on the data (and one that copies as it
 * goes: its stores wait for the exit test), a convergence (Newton's
 * square root per element: an inner loop until the value stops changing), two loops
 * one after the other, nested loops (matrix multiply, its inner loop taking four outer
 * iterations in turns; counted inner loops of 0 to 64 iterations issued back to back;
 * a value carried past an inner loop; imperfect nests: a triangle,
 * trip counts loaded by the outer loop, a value carried through the inner loop, an
 * inner loop reading the outer loop's stores, a search per key), unrolled loops with
 * trip counts that are not a multiple of the factor (their neighbouring accesses
 * merged into port-wide ones, and from a[i + 1] on into pieces no memory line cuts),
 * loops run zero and one time, the loop pragmas (#pragma ivdep on an indirect update,
 * #pragma ivdep safelen(8) on a dependence 8 iterations apart, #pragma max_concurrency
 * 2, #pragma ii 3, #pragma disable_loop_pipelining), work-groups of one work-item
 * (reqd_work_group_size(1, 1, 1) over an NDRange: each one's loop pipelined, float
 * sums of different lengths interleaved), and float sums reassociated under
 * -cl-fast-relaxed-math (a second program). Every result
 * is compared with the host's sequential computation (the relaxed sums within float
 * rounding), once with the board's timing and once under random memory latency and
 * back-pressure. report.json's II of each loop is checked by hls_pipeline_report
 * (tests/hls); cycles per iteration are bench_task's. */
#include <math.h>

#include "e2e.h"

#define N 4096

static const char *src =
    "__kernel void vadd(__global const float *restrict a, __global const float *restrict b,\n"
    "                   __global float *restrict c, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void clamp_pos(__global const int *restrict a, __global int *restrict b, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        if (a[i] > 0)\n"
    "            b[i] = a[i] * 3;\n"
    "}\n"
    "__kernel void isum(__global const int *restrict a, __global int *restrict out, int n)\n"
    "{\n"
    "    int sum = 0;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        sum += a[i];\n"
    "    out[0] = sum;\n"
    "}\n"
    "__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)\n"
    "{\n"
    "    float sum = 0.0f;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        sum += a[i];\n"
    "    out[0] = sum;\n"
    "}\n"
    "__kernel void fsum_shift(__global const float *restrict a, __global float *restrict out,\n"
    "                         int n)\n"
    "{\n"
    "    float part[9];\n"
    "    for (int j = 0; j < 9; j++)\n"
    "        part[j] = 0.0f;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        part[8] = part[0] + a[i];\n"
    "        for (int j = 0; j < 8; j++)\n"
    "            part[j] = part[j + 1];\n"
    "    }\n"
    "    float sum = 0.0f;\n"
    "    for (int j = 0; j < 8; j++)\n"
    "        sum += part[j];\n"
    "    out[0] = sum;\n"
    "}\n"
    "__kernel void fir(__global const float *restrict x, __constant float *coef,\n"
    "                  __global float *restrict y, int n)\n"
    "{\n"
    "    float sr[16];\n"
    "    for (int j = 0; j < 16; j++)\n"
    "        sr[j] = 0.0f;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        for (int j = 15; j > 0; j--)\n"
    "            sr[j] = sr[j - 1];\n"
    "        sr[0] = x[i];\n"
    "        float acc = 0.0f;\n"
    "        for (int j = 0; j < 16; j++)\n"
    "            acc += sr[j] * coef[j];\n"
    "        y[i] = acc;\n"
    "    }\n"
    "}\n"
    "__kernel void stencil(__global const int *restrict a, __global int *restrict out, int n)\n"
    "{\n"
    "    int w0 = 0, w1 = a[0];\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        int w2 = i + 1 < n ? a[i + 1] : 0;\n"
    "        out[i] = w0 + 2 * w1 + w2;\n"
    "        w0 = w1;\n"
    "        w1 = w2;\n"
    "    }\n"
    "}\n"
    "__kernel void histogram(__global const uchar *restrict x, __global int *restrict h, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        h[x[i]]++;\n"
    "}\n"
    "__kernel void prefix_inplace(__global int *a, __global const int *b, int n)\n"
    "{\n"
    "    for (int i = 1; i < n; i++)\n"
    "        a[i] = a[i - 1] * 3 + b[i] + a[i];\n"
    "}\n"
    "__kernel void search(__global const int *restrict a, __global int *restrict out, int key)\n"
    "{\n"
    "    int i = 0;\n"
    "    while (a[i] != key)\n"
    "        i++;\n"
    "    out[0] = i;\n"
    "}\n"
    "__kernel void copy_until(__global const int *restrict a, __global int *restrict b, int key)\n"
    "{\n"
    "    int i = 0;\n"
    "    while (a[i] != key) {\n"
    "        b[i] = a[i] * 2 + 1;\n"
    "        i++;\n"
    "    }\n"
    "}\n"
    "__kernel void newton(__global const float *restrict a, __global float *restrict out,\n"
    "                     int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        float v = fabs(a[i]) + 1.0f, x = v, last = 0.0f;\n"
    "        for (int k = 0; k < 40 && x != last; k++) {\n"
    "            last = x;\n"
    "            x = 0.5f * (x + v / x);\n"
    "        }\n"
    "        out[i] = x;\n"
    "    }\n"
    "}\n"
    "__kernel void two_loops(__global const int *restrict a, __global int *restrict out, int n)\n"
    "{\n"
    "    int lo = 0x7fffffff;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        lo = min(lo, a[i]);\n"
    "    for (int i = 0; i < n; i++)\n"
    "        out[i] = a[i] - lo;\n"
    "}\n"
    "__kernel void matmul(__global const float *restrict a, __global const float *restrict b,\n"
    "                     __global float *restrict c, int m)\n"
    "{\n"
    "    for (int r = 0; r < m; r++)\n"
    "        for (int col = 0; col < m; col++) {\n"
    "            float acc = 0.0f;\n"
    "            for (int k = 0; k < m; k++)\n"
    "                acc += a[r * m + k] * b[k * m + col];\n"
    "            c[r * m + col] = acc;\n"
    "        }\n"
    "}\n"
    "__kernel void prefix_tri(__global const int *restrict a, __global const int *restrict b,\n"
    "                         __global int *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        int s = b[i];\n"
    "        for (int j = 0; j <= i; j++)\n"
    "            s += a[j];\n"
    "        out[i] = s;\n"
    "    }\n"
    "}\n"
    "__kernel void counted(__global const int *restrict a, __global const int *restrict b,\n"
    "                      __global int *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        int s = 0;\n"
    "        for (int j = 0; j < (a[i] & 3); j++)\n"
    "            s = s * 3 + b[4 * i + j];\n"
    "        out[i] = s;\n"
    "    }\n"
    "}\n"
    "__kernel void carried_after(__global const int *restrict a, __global const int *restrict b,\n"
    "                            __global int *restrict out, int n)\n"
    "{\n"
    "    int t = 1;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        for (int j = 0; j < 4; j++)\n"
    "            t = t * 5 + a[4 * i + j];\n"
    "        out[i] = t + b[i];\n"
    "    }\n"
    "}\n"
    "__kernel void dep_outer(__global const int *a, __global const int *b, __global int *out,\n"
    "                        int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        int s = b[i];\n"
    "        for (int j = 0; j < i; j++)\n"
    "            s += out[j] + a[j];\n"
    "        out[i] = s & 0xffff;\n"
    "    }\n"
    "}\n"
    "__kernel void multi_search(__global const int *restrict a, __global const int *restrict keys,\n"
    "                           __global int *restrict out, int n)\n"
    "{\n"
    "    for (int q = 0; q < n; q++) {\n"
    "        int i = 0;\n"
    "        while (a[i] != keys[q])\n"
    "            i++;\n"
    "        out[q] = i;\n"
    "    }\n"
    "}\n"
    "__kernel void vadd_unroll2(__global const int *restrict a, __global const int *restrict b,\n"
    "                           __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma unroll 2\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void vadd_unroll4(__global const int *restrict a, __global const int *restrict b,\n"
    "                           __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma unroll 4\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void vadd_unroll16(__global const int *restrict a, __global const int *restrict b,\n"
    "                            __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma unroll 16\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void scatter_ivdep(__global int *restrict a, __global const int *restrict idx,\n"
    "                            __global const int *restrict b, int n)\n"
    "{\n"
    "    #pragma ivdep\n"
    "    for (int i = 0; i < n; i++)\n"
    "        a[idx[i]] += b[i];\n"
    "}\n"
    "__kernel void safelen8(__global int *restrict a, int n)\n"
    "{\n"
    "    #pragma ivdep safelen(8)\n"
    "    for (int i = 0; i < n; i++)\n"
    "        a[i + 8] = a[i] * 3 + 1;\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n"
    "void rows(__global const int *restrict a, __global int *restrict out, int n)\n"
    "{\n"
    "    int r = get_global_id(0), s = 0;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        s += a[r * n + i] * (i + 1);\n"
    "    out[r] = s;\n"
    "}\n"
    "__kernel void vadd_two(__global const int *restrict a, __global const int *restrict b,\n"
    "                       __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma max_concurrency 2\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void vadd_ii3(__global const int *restrict a, __global const int *restrict b,\n"
    "                       __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma ii 3\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void vadd_serial(__global const int *restrict a, __global const int *restrict b,\n"
    "                          __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma disable_loop_pipelining\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void vsub_shift_unroll16(__global const int *restrict a,\n"
    "                                  __global const int *restrict b,\n"
    "                                  __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma unroll 16\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c[i] = a[i + 1] - b[i];\n"
    "}\n"
    "__kernel void rows_count(__global const int *restrict a, __global int *restrict out,\n"
    "                         int m)\n"
    "{\n"
    "    for (int r = 0; r < 64; r++) {\n"
    "        int s = 0;\n"
    "        for (int k = m; k > 0; k--)\n"
    "            s += a[r * m + k - 1] * k;\n"
    "        out[r] = s;\n"
    "    }\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n"
    "void frows(__global const float *restrict a, __global float *restrict out, int n)\n"
    "{\n"
    "    int r = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < n - r % 5; i++)\n"
    "        s += a[r * n + i];\n"
    "    out[r] = s;\n"
    "}\n"
    "__kernel void fsum_past(__global const float *restrict a, __global float *restrict out,\n"
    "                        int rows)\n"
    "{\n"
    "    float total = 0.0f;\n"
    "    for (int r = 0; r < rows; r++) {\n"
    "        float s = 0.0f;\n"
    "        for (int k = 0; k < 64; k++)\n"
    "            s += a[r * 64 + k];\n"
    "        total = total * 0.5f + s;\n"
    "        out[r] = total;\n"
    "    }\n"
    "}\n";

/* Built with -cl-fast-relaxed-math: float sums reassociated into partial sums. */
static const char *relaxed_src =
    "__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)\n"
    "{\n"
    "    float s = 0.5f;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        s += a[i];\n"
    "    out[0] = s;\n"
    "}\n"
    "__kernel void fdot(__global const float *restrict a, __global const float *restrict b,\n"
    "                   __global float *restrict out, int n)\n"
    "{\n"
    "    for (int r = 0; r < 4; r++) {\n"
    "        float s = 0.0f;\n"
    "        for (int i = 0; i < n; i++)\n"
    "            s -= a[i] * b[(i + r) & 4095];\n"
    "        out[r] = s;\n"
    "    }\n"
    "}\n";

static float fa[N], fb[N], fout[N], fwant[N];
static int ia[N], ib[N], iout[N], iwant[N];

static void check_ints(const int *got, const int *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: [%zu] = %d, expected %d\n", what, i, got[i], want[i]);
            _Exit(1);
        }
}

static void check_floats(const float *got, const float *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (e2e_fbits(got[i]) != e2e_fbits(want[i])) {
            fprintf(stderr, "%s: [%zu] = %.9g, expected %.9g\n", what, i, (double)got[i],
                    (double)want[i]);
            _Exit(1);
        }
}

/* Runs k as a task and waits for it. */
static void task(e2e_env *env, cl_kernel k)
{
    cl_event ev;
    CL_OK(clEnqueueTask(env->queue, k, 0, NULL, &ev));
    CL_OK(clWaitForEvents(1, &ev));
    cl_int st;
    CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    EXPECT(st == CL_COMPLETE);
    clReleaseEvent(ev);
}

/* A kernel of (in, in, out, n) on buffers of N words: runs it for n, reads out. */
static void run3(e2e_env *env, cl_program p, const char *name, const void *a, const void *b,
                 void *out, int n)
{
    cl_kernel k = e2e_kernel(p, name);
    cl_mem ma = e2e_buffer(env, N * 4, a), mb = e2e_buffer(env, N * 4, b);
    cl_mem mc = e2e_filled_buffer(env, N, -7);
    E2E_ARG(k, 0, ma);
    E2E_ARG(k, 1, mb);
    E2E_ARG(k, 2, mc);
    E2E_ARG(k, 3, n);
    task(env, k);
    e2e_read(env, mc, N * 4, out);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
}

/* A kernel of (in, out, int) on buffers of N words. */
static void run2(e2e_env *env, cl_program p, const char *name, const void *a, void *out,
                 int n)
{
    cl_kernel k = e2e_kernel(p, name);
    cl_mem ma = e2e_buffer(env, N * 4, a), mo = e2e_filled_buffer(env, N, -7);
    E2E_ARG(k, 0, ma);
    E2E_ARG(k, 1, mo);
    E2E_ARG(k, 2, n);
    task(env, k);
    e2e_read(env, mo, N * 4, out);
    clReleaseMemObject(ma);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
}

/* Work-groups of one work-item (reqd_work_group_size(1, 1, 1)) over an NDRange of 64:
 * each work-item's loop is pipelined, the work-items one after the other. */
static void groups_of_one(e2e_env *env, cl_program p)
{
    enum { ROWS = 64, COLS = N / ROWS };
    cl_kernel k = e2e_kernel(p, "rows");
    cl_mem ma = e2e_buffer(env, N * 4, ia), mo = e2e_filled_buffer(env, N, -7);
    int n = COLS;
    E2E_ARG(k, 0, ma);
    E2E_ARG(k, 1, mo);
    E2E_ARG(k, 2, n);
    size_t global = ROWS, local = 1;
    EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    e2e_read(env, mo, N * 4, iout);
    for (int r = 0; r < N; r++) {
        unsigned s = 0;
        for (int i = 0; r < ROWS && i < COLS; i++)
            s += (unsigned)ia[r * COLS + i] * (unsigned)(i + 1);
        iwant[r] = r < ROWS ? (int)s : -7;
    }
    check_ints(iout, iwant, N, "rows");
    clReleaseMemObject(ma);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    /* in-order float sums of different lengths: 4 work-items take turns in the loop
     * (interleaved), each leaving when its own sum is done */
    k = e2e_kernel(p, "frows");
    ma = e2e_buffer(env, N * 4, fa), mo = e2e_filled_buffer(env, N, -7);
    E2E_ARG(k, 0, ma);
    E2E_ARG(k, 1, mo);
    E2E_ARG(k, 2, n);
    EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    e2e_read(env, mo, N * 4, fout);
    for (int r = 0; r < N; r++) {
        float s = 0.0f;
        for (int i = 0; r < ROWS && i < COLS - r % 5; i++)
            s += fa[r * COLS + i];
        memcpy(&fwant[r], r < ROWS ? (void *)&s : (void *)&(int){-7}, sizeof s);
    }
    check_floats(fout, fwant, N, "frows");
    clReleaseMemObject(ma);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
}

static void streaming(e2e_env *env, cl_program p)
{
    static const int lengths[] = {N, 1, 0, 1001};
    for (size_t t = 0; t < sizeof lengths / sizeof *lengths; t++) {
        int n = lengths[t];
        run3(env, p, "vadd", fa, fb, fout, n);
        for (int i = 0; i < N; i++) {
            float unwritten;
            int minus7 = -7;
            memcpy(&unwritten, &minus7, sizeof unwritten);
            fwant[i] = i < n ? fa[i] + fb[i] : unwritten;
        }
        check_floats(fout, fwant, N, "vadd");
        static const char *const unrolled[] = {"vadd_unroll2", "vadd_unroll4", "vadd_unroll16"};
        for (int u = 0; u < 3; u++) {
            run3(env, p, unrolled[u], ia, ib, iout, n);
            for (int i = 0; i < N; i++)
                iwant[i] = i < n ? ia[i] + ib[i] : -7;
            check_ints(iout, iwant, N, unrolled[u]);
        }
        /* a[i + 1]: pieces that no memory line cuts (4, 8, 16, 32 and 4 bytes) */
        int m = n < N ? n : N - 1;
        run3(env, p, "vsub_shift_unroll16", ia, ib, iout, m);
        for (int i = 0; i < N; i++)
            iwant[i] = i < m ? ia[i + 1] - ib[i] : -7;
        check_ints(iout, iwant, N, "vsub_shift_unroll16");
    }
    run2(env, p, "clamp_pos", ia, iout, N - 3);
    for (int i = 0; i < N; i++)
        iwant[i] = i < N - 3 && ia[i] > 0 ? ia[i] * 3 : -7;
    check_ints(iout, iwant, N, "clamp_pos");
}

static void reductions(e2e_env *env, cl_program p)
{
    static const int lengths[] = {N, 1, 0, 777};
    for (size_t t = 0; t < sizeof lengths / sizeof *lengths; t++) {
        int n = lengths[t];
        run2(env, p, "isum", ia, iout, n);
        int sum = 0;
        for (int i = 0; i < n; i++)
            sum = (int)((unsigned)sum + (unsigned)ia[i]);
        check_ints(iout, &sum, 1, "isum");
        run2(env, p, "fsum", fa, fout, n);
        float fs = 0.0f;
        for (int i = 0; i < n; i++)
            fs += fa[i];
        check_floats(fout, &fs, 1, "fsum");
        run2(env, p, "fsum_shift", fa, fout, n);
        float part[9] = {0};
        for (int i = 0; i < n; i++) {
            part[8] = part[0] + fa[i];
            memmove(part, part + 1, 8 * sizeof *part);
        }
        fs = 0.0f;
        for (int j = 0; j < 8; j++)
            fs += part[j];
        check_floats(fout, &fs, 1, "fsum_shift");
        run2(env, p, "two_loops", ia, iout, n);
        int lo = 0x7fffffff;
        for (int i = 0; i < n; i++)
            lo = ia[i] < lo ? ia[i] : lo;
        for (int i = 0; i < N; i++)
            iwant[i] = i < n ? ia[i] - lo : -7;
        check_ints(iout, iwant, N, "two_loops");
    }
}

static void filters(e2e_env *env, cl_program p)
{
    static float coef[16];
    for (int j = 0; j < 16; j++)
        coef[j] = (float)(j + 1) / 17.0f;
    cl_kernel k = e2e_kernel(p, "fir");
    cl_mem mx = e2e_buffer(env, N * 4, fa), mc = e2e_buffer(env, sizeof coef, coef);
    cl_mem my = e2e_filled_buffer(env, N, 0);
    int n = N - 5;
    E2E_ARG(k, 0, mx);
    E2E_ARG(k, 1, mc);
    E2E_ARG(k, 2, my);
    E2E_ARG(k, 3, n);
    task(env, k);
    e2e_read(env, my, N * 4, fout);
    float sr[16] = {0};
    for (int i = 0; i < n; i++) {
        memmove(sr + 1, sr, 15 * sizeof *sr);
        sr[0] = fa[i];
        float acc = 0.0f;
        for (int j = 0; j < 16; j++)
            acc += sr[j] * coef[j];
        fwant[i] = acc;
    }
    check_floats(fout, fwant, (size_t)n, "fir");
    clReleaseMemObject(mx);
    clReleaseMemObject(mc);
    clReleaseMemObject(my);
    clReleaseKernel(k);

    run2(env, p, "stencil", ia, iout, N);
    for (int i = 0; i < N; i++)
        iwant[i] = (i ? ia[i - 1] : 0) + 2 * ia[i] + (i + 1 < N ? ia[i + 1] : 0);
    check_ints(iout, iwant, N, "stencil");
}

static void dependences(e2e_env *env, cl_program p)
{
    static unsigned char x[N];
    static int h[256], hwant[256];
    unsigned seed = 99;
    for (int i = 0; i < N; i++)
        x[i] = (unsigned char)(e2e_xorshift(&seed) % 23 * 11); /* repeats close together */
    cl_kernel k = e2e_kernel(p, "histogram");
    cl_mem mx = e2e_buffer(env, N, x), mh = e2e_filled_buffer(env, 256, 0);
    int n = N / 4; /* a thousand trips through memory, each bin hit about 45 times */
    E2E_ARG(k, 0, mx);
    E2E_ARG(k, 1, mh);
    E2E_ARG(k, 2, n);
    task(env, k);
    e2e_read(env, mh, sizeof h, h);
    memset(hwant, 0, sizeof hwant);
    for (int i = 0; i < n; i++)
        hwant[x[i]]++;
    check_ints(h, hwant, 256, "histogram");
    clReleaseMemObject(mx);
    clReleaseMemObject(mh);
    clReleaseKernel(k);

    /* through memory: each iteration reads what the one before stored (one at a time
     * from the loads to the store's acknowledgement) */
    k = e2e_kernel(p, "prefix_inplace");
    cl_mem ma = e2e_buffer(env, N * 4, ia), mb = e2e_buffer(env, N * 4, ib);
    E2E_ARG(k, 0, ma);
    E2E_ARG(k, 1, mb);
    n = 500;
    E2E_ARG(k, 2, n);
    task(env, k);
    e2e_read(env, ma, N * 4, iout);
    memcpy(iwant, ia, sizeof iwant);
    for (int i = 1; i < n; i++)
        iwant[i] = (int)((unsigned)iwant[i - 1] * 3u + (unsigned)ib[i] + (unsigned)iwant[i]);
    check_ints(iout, iwant, N, "prefix_inplace");
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseKernel(k);

    /* convergence: an inner loop whose exit test compares carried values */
    enum { V = 200 };
    run2(env, p, "newton", fa, fout, V);
    for (int i = 0; i < V; i++) {
        volatile float v = fabsf(fa[i]) + 1.0f, x = v, last = 0.0f;
        for (int k = 0; k < 40 && x != last; k++) {
            last = x;
            x = 0.5f * (x + v / x);
        }
        fwant[i] = x;
    }
    check_floats(fout, fwant, V, "newton");

    static const int keys[] = {5, 1000, 4095};
    for (int t = 0; t < 3; t++) {
        for (int i = 0; i < N; i++)
            iwant[i] = i == keys[t] ? -1 : i * 2;
        run2(env, p, "search", iwant, iout, -1);
        check_ints(iout, &keys[t], 1, "search");
    }
    /* the stores before the exit test wait for it: those of the iterations speculated
     * past the exit change nothing */
    static const int stops[] = {0, 1, 777, 4095};
    static int until[N];
    for (int t = 0; t < 4; t++) {
        for (int i = 0; i < N; i++)
            until[i] = i == stops[t] ? -1 : ia[i] & 0x7fff;
        run2(env, p, "copy_until", until, iout, -1);
        for (int i = 0; i < N; i++)
            iwant[i] = i < stops[t] ? until[i] * 2 + 1 : -7;
        check_ints(iout, iwant, N, "copy_until");
    }
}

static void nested(e2e_env *env, cl_program p)
{
    enum { M = 24 };
    run3(env, p, "matmul", fa, fb, fout, M);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < M; c++) {
            float acc = 0.0f;
            for (int k = 0; k < M; k++)
                acc += fa[r * M + k] * fb[k * M + c];
            fwant[r * M + c] = acc;
        }
    check_floats(fout, fwant, M * M, "matmul");
    /* counted inner loops (the generator knows the last iteration as it issues it), run
     * 0, 1, 3, 8 and 64 times per row, back to back */
    static const int counts[] = {0, 1, 3, 8, 64};
    for (int t = 0; t < 5; t++) {
        int m = counts[t];
        run2(env, p, "rows_count", ia, iout, m);
        for (int r = 0; r < N; r++) {
            int s = 0;
            for (int k = m; r < 64 && k > 0; k--)
                s += ia[r * m + k - 1] * k;
            iwant[r] = r < 64 ? s : -7;
        }
        check_ints(iout, iwant, N, "rows_count");
    }
    /* the outer loop carries a value past the inner one: the inner loop's work-items
     * take no turns (with five rows, one past the outer exit would take the lane the
     * second row frees and leave before the fifth row, which would read its value) */
    for (int rows = 5; rows <= 24; rows += 19) {
        run2(env, p, "fsum_past", fa, fout, rows);
        float total = 0.0f;
        for (int r = 0; r < rows; r++) {
            float s = 0.0f;
            for (int k = 0; k < 64; k++)
                s += fa[r * 64 + k];
            total = total * 0.5f + s;
            fwant[r] = total;
        }
        check_floats(fout, fwant, rows, "fsum_past");
    }

    /* imperfect nests: a triangle, inner trip counts loaded in the outer loop (0 to 3),
     * a value carried round the outer loop through the inner one, an inner loop reading
     * what earlier outer iterations stored (non-restrict: one outer iteration at a
     * time), and a search per key (the inner loop speculated) */
    enum { T = 160 };
    run3(env, p, "prefix_tri", ia, ib, iout, T);
    for (int i = 0; i < T; i++) {
        iwant[i] = ib[i];
        for (int j = 0; j <= i; j++)
            iwant[i] += ia[j];
    }
    check_ints(iout, iwant, T, "prefix_tri");
    run3(env, p, "counted", ia, ib, iout, N / 4);
    for (int i = 0; i < N / 4; i++) {
        int s = 0;
        for (int j = 0; j < (ia[i] & 3); j++)
            s = s * 3 + ib[4 * i + j];
        iwant[i] = s;
    }
    check_ints(iout, iwant, N / 4, "counted");
    run3(env, p, "carried_after", ia, ib, iout, N / 4);
    unsigned t = 1; /* wraps as the kernel's int does */
    for (int i = 0; i < N / 4; i++) {
        for (int j = 0; j < 4; j++)
            t = t * 5u + (unsigned)ia[4 * i + j];
        iwant[i] = (int)(t + (unsigned)ib[i]);
    }
    check_ints(iout, iwant, N / 4, "carried_after");
    static int zeros[N];
    cl_kernel k = e2e_kernel(p, "dep_outer");
    cl_mem ma = e2e_buffer(env, N * 4, ia), mb = e2e_buffer(env, N * 4, ib);
    cl_mem mo = e2e_buffer(env, N * 4, zeros);
    int n = T;
    E2E_ARG(k, 0, ma);
    E2E_ARG(k, 1, mb);
    E2E_ARG(k, 2, mo);
    E2E_ARG(k, 3, n);
    task(env, k);
    e2e_read(env, mo, N * 4, iout);
    for (int i = 0; i < T; i++) {
        int s = ib[i];
        for (int j = 0; j < i; j++)
            s += iwant[j] + ia[j];
        iwant[i] = s & 0xffff;
    }
    check_ints(iout, iwant, T, "dep_outer");
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    static int evens[N], keys[N];
    for (int i = 0; i < N; i++)
        evens[i] = 2 * i, keys[i] = 2 * (int)(e2e_xorshift(&(unsigned){(unsigned)i + 1u}) % N);
    keys[0] = 2 * (N - 1); /* the last element: the speculated loads leave the buffer */
    run3(env, p, "multi_search", evens, keys, iout, 40);
    for (int q = 0; q < 40; q++)
        iwant[q] = keys[q] / 2;
    check_ints(iout, iwant, 40, "multi_search");
}

/* The loop pragmas: an indirect update through a permutation under #pragma ivdep
 * (pipelined, iterations of different indexes overlap), a streaming loop slowed to
 * II 3 by #pragma ii 3, and one kept serial by #pragma disable_loop_pipelining. */
static void pragmas(e2e_env *env, cl_program p)
{
    static int idx[N];
    for (int i = 0; i < N; i++)
        idx[i] = i;
    unsigned seed = 7;
    for (int i = N - 1; i > 0; i--) { /* a random permutation */
        int j = (int)(e2e_xorshift(&seed) % (unsigned)(i + 1)), t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    static const int lengths[] = {N / 2, 1, 0, 1001};
    for (size_t t = 0; t < sizeof lengths / sizeof *lengths; t++) {
        int n = lengths[t];
        cl_kernel k = e2e_kernel(p, "scatter_ivdep");
        cl_mem ma = e2e_buffer(env, N * 4, ia), mi = e2e_buffer(env, N * 4, idx);
        cl_mem mb = e2e_buffer(env, N * 4, ib);
        E2E_ARG(k, 0, ma);
        E2E_ARG(k, 1, mi);
        E2E_ARG(k, 2, mb);
        E2E_ARG(k, 3, n);
        task(env, k);
        e2e_read(env, ma, N * 4, iout);
        memcpy(iwant, ia, sizeof iwant);
        for (int i = 0; i < n; i++)
            iwant[idx[i]] += ib[i];
        check_ints(iout, iwant, N, "scatter_ivdep");
        clReleaseMemObject(ma);
        clReleaseMemObject(mi);
        clReleaseMemObject(mb);
        clReleaseKernel(k);
        /* a dependence 8 iterations apart: at most 8 in flight keep it */
        k = e2e_kernel(p, "safelen8");
        ma = e2e_buffer(env, N * 4, ia);
        int m = n < N - 8 ? n : N - 8;
        E2E_ARG(k, 0, ma);
        E2E_ARG(k, 1, m);
        task(env, k);
        e2e_read(env, ma, N * 4, iout);
        memcpy(iwant, ia, sizeof iwant);
        for (int i = 0; i < m; i++)
            iwant[i + 8] = (int)((unsigned)iwant[i] * 3u + 1u);
        check_ints(iout, iwant, N, "safelen8");
        clReleaseMemObject(ma);
        clReleaseKernel(k);
        static const char *const names[] = {"vadd_ii3", "vadd_serial", "vadd_two"};
        for (int v = 0; v < 3; v++) {
            run3(env, p, names[v], ia, ib, iout, n);
            for (int i = 0; i < N; i++)
                iwant[i] = i < n ? ia[i] + ib[i] : -7;
            check_ints(iout, iwant, N, names[v]);
        }
    }
}

/* Relaxed math: a float sum and a nest of dot products (subtracted) reassociated into
 * partial sums agree with the host's double-precision sums to float rounding, for
 * trip counts below, at and above the number of partials. */
static void relaxed(e2e_env *env, cl_program p)
{
    static const int lengths[] = {N, 3, 0, 1001};
    for (size_t t = 0; t < sizeof lengths / sizeof *lengths; t++) {
        int n = lengths[t];
        run2(env, p, "fsum", fa, fout, n);
        double want = 0.5, size = 0.5;
        for (int i = 0; i < n; i++)
            want += fa[i], size += fabs(fa[i]);
        if (fabs(fout[0] - want) > 1e-5 * size) {
            fprintf(stderr, "relaxed fsum(%d) = %.9g, expected %.9g\n", n, (double)fout[0], want);
            _Exit(1);
        }
        run3(env, p, "fdot", fa, fb, fout, n);
        for (int r = 0; r < 4; r++) {
            want = 0, size = 0;
            for (int i = 0; i < n; i++) {
                double x = (double)fa[i] * (double)fb[(i + r) & 4095];
                want -= x, size += fabs(x);
            }
            if (fabs(fout[r] - want) > 1e-5 * size + 1e-30) {
                fprintf(stderr, "relaxed fdot(%d)[%d] = %.9g, expected %.9g\n", n, r,
                        (double)fout[r], want);
                _Exit(1);
            }
        }
    }
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    unsigned seed = 2026;
    for (int i = 0; i < N; i++) {
        ia[i] = (int)(e2e_xorshift(&seed) % 2001) - 1000;
        ib[i] = (int)(e2e_xorshift(&seed) % 2001) - 1000;
        fa[i] = (float)ia[i] / 37.0f;
        fb[i] = (float)ib[i] / 41.0f;
    }
    cl_program p = e2e_build(&env, src, NULL, 1, NULL);
    cl_program pr = e2e_build(&env, relaxed_src, "-cl-fast-relaxed-math", 1, NULL);
    for (int stress = 0; stress < 2; stress++) {
        if (stress) {
            setenv("CLHLS_SIM_STRESS", "20261129", 1);
            printf("-- again under CLHLS_SIM_STRESS=20261129 --\n");
        }
        streaming(&env, p);
        groups_of_one(&env, p);
        reductions(&env, p);
        filters(&env, p);
        dependences(&env, p);
        nested(&env, p);
        pragmas(&env, p);
        relaxed(&env, pr);
        printf("task kernels: all results match the host's\n");
    }
    unsetenv("CLHLS_SIM_STRESS");
    clReleaseProgram(p);
    clReleaseProgram(pr);
    e2e_fini(&env);
    return 0;
}
