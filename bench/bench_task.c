/* Single work-item kernels through the ICD, launched with clEnqueueTask at N = 32768 (the
 * steady state: a loop's fill and drain, about 150 cycles, are a small part of it):
 * streaming (vector add), an integer and a float sum (in order), partial sums in an
 * 8-deep shift register, the float sum again built with -cl-fast-relaxed-math (partial
 * sums), a 16-tap FIR with a private shift register, a sliding-window
 * stencil, a histogram in memory (a true dependence: one iteration at a time from the
 * load to the store's acknowledgement, two trips to sim_dc's 64-cycle memory), a
 * search whose exit depends on the data (speculated: later iterations load before the
 * exit is known), a 64x64 matrix multiply's inner products (the rows taking turns in
 * the inner loop), 4096 rows of 8 (a nest of counted loops), and vector add unrolled
 * by 4 and 16. Then three kernels joined by channels, run at once, and the same with
 * the middle one an autorun kernel: cycles per element of the whole pipeline against
 * one a cycle; and the same three steps through global memory, one kernel after the
 * other: cycles and the bytes the kernels read and write in global memory.
 *
 * Per kernel: simulated cycles (the event's END - START at the board clock), loop
 * iterations (of the innermost loop), cycles per iteration, the bound per iteration
 * (1 where nothing carried limits it, the matrix multiply's interleaved inner product
 * included; the float adder's latency for an in-order sum; the port's words per
 * iteration for the unrolled vector adds, which need three 64-byte words per 16
 * elements; the loop's latency where the loop is not pipelined, marked "serial"), and
 * bound/actual (1.0 = at the bound). All results are computed but not checked
 * (e2e_task checks them); nothing about time is asserted. */
#include "bench.h"
#include "board.h"

#define N 32768
#define M 64

static const char *src =
    "__kernel void vadd(__global const float *restrict a, __global const float *restrict b,\n"
    "                   __global float *restrict c, int n)\n"
    "{ for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }\n"
    "__kernel void isum(__global const int *restrict a, __global int *restrict out, int n)\n"
    "{ int s = 0; for (int i = 0; i < n; i++) s += a[i]; out[0] = s; }\n"
    "__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)\n"
    "{ float s = 0.0f; for (int i = 0; i < n; i++) s += a[i]; out[0] = s; }\n"
    "__kernel void fsum_shift(__global const float *restrict a, __global float *restrict out,\n"
    "                         int n)\n"
    "{\n"
    "    float part[9];\n"
    "    for (int j = 0; j < 9; j++) part[j] = 0.0f;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        part[8] = part[0] + a[i];\n"
    "        for (int j = 0; j < 8; j++) part[j] = part[j + 1];\n"
    "    }\n"
    "    float s = 0.0f;\n"
    "    for (int j = 0; j < 8; j++) s += part[j];\n"
    "    out[0] = s;\n"
    "}\n"
    "__kernel void fir(__global const float *restrict x, __global float *restrict y, int n)\n"
    "{\n"
    "    float sr[16];\n"
    "    for (int j = 0; j < 16; j++) sr[j] = 0.0f;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        for (int j = 15; j > 0; j--) sr[j] = sr[j - 1];\n"
    "        sr[0] = x[i];\n"
    "        float acc = 0.0f;\n"
    "        for (int j = 0; j < 16; j++) acc += sr[j] * (float)(j + 1);\n"
    "        y[i] = acc;\n"
    "    }\n"
    "}\n"
    "__kernel void stencil(__global const int *restrict a, __global int *restrict out, int n)\n"
    "{\n"
    "    int w0 = 0, w1 = a[0];\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        int w2 = i + 1 < n ? a[i + 1] : 0;\n"
    "        out[i] = w0 + 2 * w1 + w2;\n"
    "        w0 = w1; w1 = w2;\n"
    "    }\n"
    "}\n"
    "__kernel void histogram(__global const int *restrict x, __global int *restrict h, int n)\n"
    "{ for (int i = 0; i < n; i++) h[x[i] & 255]++; }\n"
    "__kernel void search(__global const int *restrict a, __global int *restrict out, int key)\n"
    "{ int i = 0; while (a[i] != key) i++; out[0] = i; }\n"
    "__kernel void matmul(__global const float *restrict a, __global const float *restrict b,\n"
    "                     __global float *restrict c, int m)\n"
    "{\n"
    "    for (int r = 0; r < m; r++)\n"
    "        for (int col = 0; col < m; col++) {\n"
    "            float acc = 0.0f;\n"
    "            for (int k = 0; k < m; k++) acc += a[r * m + k] * b[k * m + col];\n"
    "            c[r * m + col] = acc;\n"
    "        }\n"
    "}\n"
    "__kernel void rows8(__global const int *restrict a, __global const int *restrict b,\n"
    "                    __global int *restrict c, int m)\n"
    "{\n"
    "    for (int r = 0; r < 4096; r++)\n"
    "        for (int k = 0; k < m; k++) c[r * m + k] = a[r * m + k] + b[r * m + k];\n"
    "}\n"
    "__kernel void vadd_unroll4(__global const int *restrict a, __global const int *restrict b,\n"
    "                           __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma unroll 4\n"
    "    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void vadd_unroll16(__global const int *restrict a, __global const int *restrict b,\n"
    "                            __global int *restrict c, int n)\n"
    "{\n"
    "    #pragma unroll 16\n"
    "    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];\n"
    "}\n";

/* One row: the kernel, its innermost iterations, the bound per iteration and the
 * scalar argument (n, the key, or m). */
typedef struct row {
    const char *name;       /* kernel */
    double iterations;      /* of its innermost loop */
    double bound;           /* cycles per iteration at the bound */
    const char *bound_kind; /* what sets the bound */
    int scalar;             /* its last argument */
    int buffers;            /* buffer arguments before it */
    int relaxed;            /* from the program built with -cl-fast-relaxed-math */
} row;

/* fsum again, built with -cl-fast-relaxed-math: partial sums, II 1. */
static const char *relaxed_src =
    "__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)\n"
    "{ float s = 0.0f; for (int i = 0; i < n; i++) s += a[i]; out[0] = s; }\n";

/* Kernels joined by channels (Intel's cl_intel_channels): a source reads memory into a
 * channel, a stage maps it into the next, a sink writes memory; each loop is pipelined
 * and the channels carry one element a cycle each way. The same with the stage an
 * autorun kernel (its body one element, run for ever). And the same three steps
 * through global memory (g_*), one kernel after the other. */
static const char *channel_src =
    "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
    "channel float c_in __attribute__((depth(4)));\n"
    "channel float c_out __attribute__((depth(64)));\n"
    "__kernel void source(__global const float *restrict a, int n)\n"
    "{ for (int i = 0; i < n; i++) write_channel_intel(c_in, a[i]); }\n"
    "__kernel void stage(int n)\n"
    "{ for (int i = 0; i < n; i++) write_channel_intel(c_out, read_channel_intel(c_in) * 3.0f); }\n"
    "__kernel void sink(__global float *restrict b, int n)\n"
    "{ for (int i = 0; i < n; i++) b[i] = read_channel_intel(c_out) + 1.0f; }\n"
    "channel float a_in __attribute__((depth(4)));\n"
    "channel float a_out __attribute__((depth(64)));\n"
    "__kernel void source_a(__global const float *restrict a, int n)\n"
    "{ for (int i = 0; i < n; i++) write_channel_intel(a_in, a[i]); }\n"
    "__attribute__((max_global_work_dim(0))) __attribute__((autorun))\n"
    "__kernel void stage_a(void) { write_channel_intel(a_out, read_channel_intel(a_in) * 3.0f); }\n"
    "__kernel void sink_a(__global float *restrict b, int n)\n"
    "{ for (int i = 0; i < n; i++) b[i] = read_channel_intel(a_out) + 1.0f; }\n"
    "__kernel void g_source(__global const float *restrict a, __global float *restrict t, int n)\n"
    "{ for (int i = 0; i < n; i++) t[i] = a[i]; }\n"
    "__kernel void g_stage(__global const float *restrict t, __global float *restrict u, int n)\n"
    "{ for (int i = 0; i < n; i++) u[i] = t[i] * 3.0f; }\n"
    "__kernel void g_sink(__global const float *restrict u, __global float *restrict b, int n)\n"
    "{ for (int i = 0; i < n; i++) b[i] = u[i] + 1.0f; }\n";

/* One row: the host kernels of a pipeline (the sink first, then any stage, the source
 * last: the readers are enqueued first, as host programs do) on their own queues at
 * once; cycles per element from the last START (the source's: the readers wait for it)
 * to the last END (bound: 1). Returns the cycles. */
static double pipeline_row(bench *b, cl_program p, const char *label, const char *const *names,
                           int nk, cl_mem in, cl_mem out)
{
    cl_kernel k[3];
    cl_command_queue q[3];
    cl_event ev[3];
    cl_int err;
    int n = N;
    for (int i = 0; i < nk; i++) {
        k[i] = clCreateKernel(p, names[i], &err);
        CHECK(err);
        q[i] = i ? clCreateCommandQueue(b->ctx, b->dev, CL_QUEUE_PROFILING_ENABLE, &err) : b->q;
        CHECK(err);
    }
    ARG(k[0], 0, out);
    ARG(k[0], 1, n);
    if (nk == 3)
        ARG(k[1], 0, n);
    ARG(k[nk - 1], 0, in);
    ARG(k[nk - 1], 1, n);
    for (int i = 0; i < nk; i++) {
        CHECK(clEnqueueTask(q[i], k[i], 0, NULL, &ev[i]));
        CHECK(clFlush(q[i]));
    }
    CHECK(clWaitForEvents((cl_uint)nk, ev));
    cl_ulong started = 0, last = 0; /* the last START (all run), the last END */
    for (int i = 0; i < nk; i++) {
        cl_ulong t0, t1;
        CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
        CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
        started = t0 > started ? t0 : started;
        last = t1 > last ? t1 : last;
        clReleaseEvent(ev[i]);
        clReleaseKernel(k[i]);
        if (i)
            clReleaseCommandQueue(q[i]);
    }
    double cycles = (double)(last - started) * b->mhz / 1000.0;
    printf("%-22s %10.0f %12d %10.2f %14s %10.2f\n", label, cycles, N, cycles / N, "1",
           N / cycles);
    return cycles;
}

/* The channel pipeline's three steps through global memory: g_source copies in to a
 * buffer, g_stage maps it into another, g_sink writes out, one after the other on the
 * in-order queue. Returns the cycles from the first START to the last END. */
static double through_memory(bench *b, cl_program p, cl_mem in, cl_mem out)
{
    static const char *const names[] = {"g_source", "g_stage", "g_sink"};
    cl_mem t = buffer(b, N * sizeof(float), NULL), u = buffer(b, N * sizeof(float), NULL);
    cl_mem from[] = {in, t, u}, to[] = {t, u, out};
    cl_event ev[3];
    cl_int err;
    int n = N;
    for (int i = 0; i < 3; i++) {
        cl_kernel k = clCreateKernel(p, names[i], &err);
        CHECK(err);
        ARG(k, 0, from[i]);
        ARG(k, 1, to[i]);
        ARG(k, 2, n);
        CHECK(clEnqueueTask(b->q, k, 0, NULL, &ev[i]));
        clReleaseKernel(k);
    }
    CHECK(clWaitForEvents(3, ev));
    cl_ulong first, last;
    CHECK(clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_START, sizeof first, &first, NULL));
    CHECK(clGetEventProfilingInfo(ev[2], CL_PROFILING_COMMAND_END, sizeof last, &last, NULL));
    for (int i = 0; i < 3; i++)
        clReleaseEvent(ev[i]);
    clReleaseMemObject(t);
    clReleaseMemObject(u);
    return (double)(last - first) * b->mhz / 1000.0;
}

static void channel_pipeline(bench *b)
{
    double t;
    char note[200];
    cl_program p = bench_build(b, "channels", channel_src, &t, note, sizeof note);
    if (!p) {
        fprintf(stderr, "channels: build failed: %s\n", note);
        exit(1);
    }
    float *data = xmalloc(N * sizeof *data);
    for (int i = 0; i < N; i++)
        data[i] = (float)(rnd() % 1000);
    cl_mem in = buffer(b, N * sizeof *data, data), out = buffer(b, N * sizeof *data, NULL);
    printf("\nkernels joined by channels: source -> stage -> sink (the host's kernels at once), "
           "N = %d; build %.1f s\n", N, t);
    printf("%-22s %10s %12s %10s %14s %10s\n", "pipeline", "cycles", "elements", "cyc/elem",
           "bound/elem", "bound/act");
    double joined = pipeline_row(b, p, "3 kernels", (const char *const[]){"sink", "stage",
                                 "source"}, 3, in, out);
    pipeline_row(b, p, "stage autorun", (const char *const[]){"sink_a", "source_a"}, 2, in,
                 out);
    /* Global memory traffic: each element read once and written once at the ends of the
     * channel pipeline; read and written by each of the three kernels without it. */
    double apart = through_memory(b, p, in, out);
    printf("\nthe same three steps, joined by channels or through global memory, N = %d\n", N);
    printf("%-22s %10s %10s %14s %10s\n", "variant", "cycles", "cyc/elem", "global bytes",
           "bytes/elem");
    printf("%-22s %10.0f %10.2f %14.0f %10d\n", "channels, at once", joined, joined / N,
           2.0 * N * sizeof(float), 2 * (int)sizeof(float));
    printf("%-22s %10.0f %10.2f %14.0f %10d\n", "memory, in turn", apart, apart / N,
           6.0 * N * sizeof(float), 6 * (int)sizeof(float));
    printf("%-22s %10.2fx %9s %13.2fx\n", "channels' gain", apart / joined, "", 3.0);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseProgram(p);
    free(data);
}

int main(void)
{
    bench b;
    bench_open(&b, ICD_FILE);
    char err[256];
    board_t *board = board_load(board_default_name(), err, sizeof err);
    if (!board) {
        fprintf(stderr, "bench_task: %s\n", err);
        return 1;
    }
    int fp_add = (int)board->op_latency[BOARD_OP_FP_ADD]; /* the default board's adder */
    board_free(board);
    row rows[] = {
        {"vadd", N, 1, "1", N, 3, 0},
        {"isum", N, 1, "1", N, 2, 0},
        {"fsum", N, fp_add, "fadd latency", N, 2, 0},
        {"fsum", N, 1, "partial sums", N, 2, 1},
        {"fsum_shift", N, 1, "1", N, 2, 0},
        {"fir", N, 1, "1", N, 2, 0},
        {"stencil", N, 1, "1", N, 2, 0},
        {"histogram", N, 128, "2 memory trips", N, 2, 0},
        {"search", N, 1, "1", -1, 2, 0},
        {"matmul", (double)M * M * M, 1, "interleaved", M, 3, 0},
        {"rows8", N, 1, "1", 8, 3, 0},
        {"vadd_unroll4", N / 4.0, 1, "1", N, 3, 0},
        {"vadd_unroll16", N / 16.0, 3, "3 port words", N, 3, 0},
    };
    double t;
    char note[200];
    double t_relaxed;
    cl_program p = bench_build(&b, "task", src, &t, note, sizeof note);
    cl_program pr = p ? bench_build_options(&b, "relaxed", relaxed_src, "-cl-fast-relaxed-math",
                                            &t_relaxed, note, sizeof note)
                      : NULL;
    if (!pr) {
        fprintf(stderr, "build failed: %s\n", note);
        return 1;
    }
    printf("single work-item kernels (clEnqueueTask) on %s at %u MHz, N = %d; build %.1f s "
           "(relaxed: %.1f s)\n", b.device_name, b.mhz, N, t, t_relaxed);
    printf("%-14s %10s %12s %10s %14s %10s\n", "kernel", "cycles", "iterations", "cyc/iter",
           "bound/iter", "bound/act");
    int *data = xmalloc(N * 4 * 2);
    for (int i = 0; i < 2 * N; i++)
        data[i] = i == N - 2 ? -1 : (int)(rnd() % 1000);
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        row *w = &rows[r];
        cl_int err;
        cl_kernel k = clCreateKernel(w->relaxed ? pr : p, w->name, &err);
        CHECK(err);
        cl_mem m[3];
        for (int a = 0; a < w->buffers; a++) {
            m[a] = buffer(&b, N * 4, data + (a == 0 ? 0 : N / 2));
            ARG(k, a, m[a]);
        }
        ARG(k, w->buffers, w->scalar);
        cl_event ev;
        CHECK(clEnqueueTask(b.q, k, 0, NULL, &ev));
        CHECK(clWaitForEvents(1, &ev));
        double cycles = bench_event_cycles(ev, b.mhz);
        double iterations = w->scalar < 0 ? N - 2 : w->iterations;
        char bound[32], ratio[32];
        if (w->bound > 0) {
            snprintf(bound, sizeof bound, "%.3g (%s)", w->bound, w->bound_kind);
            snprintf(ratio, sizeof ratio, "%.2f", w->bound * iterations / cycles);
        } else {
            snprintf(bound, sizeof bound, "serial");
            snprintf(ratio, sizeof ratio, "-");
        }
        char name[32];
        snprintf(name, sizeof name, "%s%s", w->name, w->relaxed ? " relaxed" : "");
        printf("%-14s %10.0f %12.0f %10.2f %14s %10s\n", name, cycles, iterations,
               cycles / iterations, bound, ratio);
        clReleaseEvent(ev);
        for (int a = 0; a < w->buffers; a++)
            clReleaseMemObject(m[a]);
        clReleaseKernel(k);
    }
    free(data);
    clReleaseProgram(p);
    clReleaseProgram(pr);
    channel_pipeline(&b);
    return bench_close(&b);
}
