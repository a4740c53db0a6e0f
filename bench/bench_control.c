/* Control-flow benchmark through the ICD: Mandelbrot escape counts (256x256, at most 256
 * iterations), Collatz step counts (1..65536), a 3x3 float stencil whose border takes
 * another branch (256x256; with the runtime's work-groups, then with 16x16 ones), 4- and
 * 16-tap float FIRs (unrolled loops), and vector add behind an `if (i < n)` guard
 * (1,000,000 elements in 1,000,192 work-items). Each kernel is its own program, built
 * from an empty cache, so its build time is its own.
 *
 * Per kernel: simulated cycles (the event's END - START at the board clock, which the
 * runtime derives from the busy_cycles counter), the bound, bound/cycles (1.0 = at the
 * bound), simulation speed (simulated cycles per wall second of the enqueue) and build
 * seconds. The bound is 1 work-item per cycle for loop-free code; for a kernel with a
 * loop it is the number of loop iterations summed over all work-items, computed on the
 * host (one iteration per cycle per loop), and never less than the work-item count.
 * Results are checked against the host (floats bit for bit: FP_CONTRACT OFF in the
 * kernels, -ffp-contract=off here). Prints a table and one line per kernel; asserts
 * nothing about time. Against another OpenCL platform (OCL_ICD_VENDORS=...pocl.icd) it
 * runs too; the "cycles" are then that device's time at its reported clock. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>

#include "bench.h"
#include "kernels.h"

/* What one kernel measured. */
typedef struct result {
    const char *name;           /* kernel name */
    double items;               /* work-items */
    double bound;               /* cycles at the bound */
    const char *bound_kind;     /* what the bound counts */
    double cycles;              /* simulated cycles; < 0 when unknown */
    double wall;                /* wall seconds of the enqueue; < 0 when it did not run */
    double build;               /* seconds clBuildProgram took; < 0 when it failed */
    long wrong;                 /* output elements that differ from the host; -1 not checked */
    char note[200];             /* why something is missing, or a remark */
} result;

/* Builds one kernel's program; returns NULL (and a note) on failure. */
static cl_program build(bench *b, const char *src, result *r)
{
    double t;
    cl_program p = bench_build(b, r->name, src, &t, r->note, sizeof r->note);
    r->build = p ? t : -1;
    return p;
}

/* Runs k over the range; fills cycles and wall time. Returns 0 when it completed. */
static int run(bench *b, cl_kernel k, cl_uint dim, const size_t *global, const size_t *local,
               result *r)
{
    cl_event ev;
    CHECK(clFinish(b->q));
    double t0 = now();
    cl_int err = clEnqueueNDRangeKernel(b->q, k, dim, NULL, global, local, 0, NULL, &ev);
    if (err != CL_SUCCESS) {
        snprintf(r->note, sizeof r->note, "enqueue failed (%d)", err);
        return -1;
    }
    clWaitForEvents(1, &ev);
    double wall = now() - t0;
    cl_int st;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st != CL_COMPLETE) {
        snprintf(r->note, sizeof r->note, "kernel ended with status %d", st);
        clReleaseEvent(ev);
        return -1;
    }
    r->wall = wall;
    cl_ulong start, end;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) ==
            CL_SUCCESS &&
        end >= start && b->mhz)
        r->cycles = (double)(end - start) * b->mhz / 1000.0;
    else
        snprintf(r->note, sizeof r->note, "no profiling information");
    clReleaseEvent(ev);
    return 0;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* ---- Mandelbrot ---------------------------------------------------------------- */

static float sub(float v, long *subnormals)
{
    *subnormals += fpclassify(v) == FP_SUBNORMAL;
    return v;
}

static void bench_mandel(bench *b, result *r)
{
    enum { W = 256, H = 256, MAXIT = 256 };
    r->items = W * H;
    r->bound_kind = "loop iterations";
    cl_program p = build(b, mandel_src, r);
    /* The host reference first: the bound needs it even when the build failed. */
    float x0 = -2.0f, y0 = -1.25f, d = 2.5f / (float)W;
    int maxit = MAXIT;
    int *want = xmalloc(W * H * sizeof *want);
    long total = 0, subnormals = 0;
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            float cx = x0 + (float)px * d, cy = y0 + (float)py * d;
            float x = 0.0f, y = 0.0f;
            int it = 0;
            for (;;) {
                float xx = sub(x * x, &subnormals), yy = sub(y * y, &subnormals);
                if (!(it < maxit && xx + yy <= 4.0f))
                    break;
                float xt = sub(sub(xx - yy, &subnormals) + cx, &subnormals);
                y = sub(sub(2.0f * x * y, &subnormals) + cy, &subnormals);
                x = xt;
                it++;
            }
            want[py * W + px] = it;
            total += it;
        }
    r->bound = (double)total > r->items ? (double)total : r->items;
    if (subnormals)
        snprintf(r->note, sizeof r->note,
                 "%ld subnormal intermediates: a flush-to-zero device may differ", subnormals);
    if (p) {
        cl_int err;
        cl_kernel k = clCreateKernel(p, "mandel", &err);
        CHECK(err);
        cl_mem bo = buffer(b, W * H * sizeof(int), NULL);
        ARG(k, 0, bo);
        ARG(k, 1, x0);
        ARG(k, 2, y0);
        ARG(k, 3, d);
        ARG(k, 4, maxit);
        size_t g[2] = {W, H}, l[2] = {16, 16};
        if (run(b, k, 2, g, l, r) == 0) {
            int *o = xmalloc(W * H * sizeof *o);
            CHECK(clEnqueueReadBuffer(b->q, bo, CL_TRUE, 0, W * H * sizeof *o, o, 0, NULL,
                                      NULL));
            r->wrong = 0;
            for (int i = 0; i < W * H; i++)
                r->wrong += o[i] != want[i];
            free(o);
        }
        clReleaseMemObject(bo);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    free(want);
}

/* ---- Collatz ------------------------------------------------------------------- */

static void bench_collatz(bench *b, result *r)
{
    enum { N = 65536 };
    r->items = N;
    r->bound_kind = "loop iterations";
    cl_program p = build(b, collatz_src, r);
    int *want = xmalloc(N * sizeof *want);
    long total = 0;
    uint64_t peak = 0;
    for (int i = 0; i < N; i++) {
        uint64_t x = (uint64_t)i + 1;
        int s = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            peak = x > peak ? x : peak;
            s++;
        }
        want[i] = s;
        total += s;
    }
    r->bound = (double)total > r->items ? (double)total : r->items;
    if (peak >> 32)
        snprintf(r->note, sizeof r->note, "a trajectory exceeds 32 bits: the kernel's uint wraps");
    if (p) {
        cl_int err;
        cl_kernel k = clCreateKernel(p, "collatz", &err);
        CHECK(err);
        cl_mem bo = buffer(b, N * sizeof(int), NULL);
        ARG(k, 0, bo);
        size_t g = N, l = 256;
        if (run(b, k, 1, &g, &l, r) == 0) {
            int *o = xmalloc(N * sizeof *o);
            CHECK(clEnqueueReadBuffer(b->q, bo, CL_TRUE, 0, N * sizeof *o, o, 0, NULL, NULL));
            r->wrong = 0;
            for (int i = 0; i < N; i++)
                r->wrong += o[i] != want[i];
            free(o);
        }
        clReleaseMemObject(bo);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    free(want);
}

/* ---- 3x3 stencil with a border branch -------------------------------------------- */

/* Once with the work-groups the runtime chooses (rows of 256: each load's memory words
 * are shared by 16 neighbouring work-items), once with 16x16 groups, where every
 * 16-item row of a group starts a new memory word for each of the nine loads and the
 * x-1 and x+1 loads straddle two: about one memory request per work-item, the memory
 * port's limit. The second run reuses the first one's program (*p_io), which the
 * caller releases. */
static void bench_stencil(bench *b, result *r, const size_t *local, cl_program *p_io)
{
    enum { W = 256, H = 256 };
    r->items = W * H;
    r->bound = r->items;
    r->bound_kind = "1 work-item/cycle";
    cl_program p = *p_io ? *p_io : build(b, stencil_src, r);
    if (!p)
        return;
    *p_io = p;
    if (local)
        snprintf(r->note, sizeof r->note, "%zux%zu work-groups: about one memory request per "
                 "work-item", local[0], local[1]);
    float *in = xmalloc(W * H * sizeof *in), *o = xmalloc(W * H * sizeof *o);
    for (int i = 0; i < W * H; i++)
        in[i] = (float)(rnd() % 4096) / 1024.0f - 2.0f;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "stencil", &err);
    CHECK(err);
    cl_mem bi = buffer(b, W * H * sizeof *in, in), bo = buffer(b, W * H * sizeof *o, NULL);
    ARG(k, 0, bi);
    ARG(k, 1, bo);
    size_t g[2] = {W, H};
    if (run(b, k, 2, g, local, r) == 0) {
        CHECK(clEnqueueReadBuffer(b->q, bo, CL_TRUE, 0, W * H * sizeof *o, o, 0, NULL, NULL));
        r->wrong = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int c = y * W + x;
                float want;
                if (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                    want = in[c];
                else
                    want = 0.25f * in[c] +
                           0.125f * (in[c - 1] + in[c + 1] + in[c - W] + in[c + W]) +
                           0.0625f * (in[c - W - 1] + in[c - W + 1] + in[c + W - 1] +
                                      in[c + W + 1]);
                r->wrong += fbits(o[c]) != fbits(want);
            }
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    free(in);
    free(o);
}

/* ---- FIR ------------------------------------------------------------------------- */

static void bench_fir(bench *b, result *r, const char *src, int taps)
{
    enum { N = 262144 };
    r->items = N;
    r->bound = r->items;
    r->bound_kind = "1 work-item/cycle";
    cl_program p = build(b, src, r);
    if (!p)
        return;
    float *x = xmalloc((N + 15) * sizeof *x), *o = xmalloc(N * sizeof *o), c[16];
    for (int i = 0; i < N + 15; i++)
        x[i] = (float)((int)(rnd() % 200001) - 100000) * 0.001f;
    for (int t = 0; t < 16; t++)
        c[t] = (float)((int)(rnd() % 2001) - 1000) / 1024.0f;
    cl_int err;
    cl_kernel k = clCreateKernel(p, r->name, &err);
    CHECK(err);
    cl_mem bx = buffer(b, (N + 15) * sizeof *x, x), bo = buffer(b, N * sizeof *o, NULL);
    cl_mem bc = clCreateBuffer(b->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)taps * sizeof(float), c, &err);
    CHECK(err);
    ARG(k, 0, bx);
    ARG(k, 1, bc);
    ARG(k, 2, bo);
    size_t g = N, l = 256;
    if (run(b, k, 1, &g, &l, r) == 0) {
        CHECK(clEnqueueReadBuffer(b->q, bo, CL_TRUE, 0, N * sizeof *o, o, 0, NULL, NULL));
        r->wrong = 0;
        for (int i = 0; i < N; i++) {
            float s = 0.0f;
            for (int t = 0; t < taps; t++)
                s += c[t] * x[i + t];
            r->wrong += fbits(o[i]) != fbits(s);
        }
    }
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    clReleaseMemObject(bc);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(x);
    free(o);
}

/* ---- guarded vector add ---------------------------------------------------------- */

static void bench_vadd_guard(bench *b, result *r)
{
    enum { N = 1000000, G = (N + 255) / 256 * 256 };
    r->items = G;
    r->bound = r->items;
    r->bound_kind = "1 work-item/cycle";
    cl_program p = build(b, vadd_guard_src, r);
    if (!p)
        return;
    float *a = xmalloc(N * sizeof *a), *bb = xmalloc(N * sizeof *bb);
    float *o = xmalloc(G * sizeof *o);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        bb[i] = (float)(2 * (i % 1000));
    }
    for (int i = 0; i < G; i++)
        o[i] = -1.0f;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "vadd_guard", &err);
    CHECK(err);
    /* c has G elements, initialised to -1: the G - N masked work-items must leave it. */
    cl_mem ba = buffer(b, N * sizeof *a, a), bbb = buffer(b, N * sizeof *bb, bb);
    cl_mem bc = buffer(b, G * sizeof *o, o);
    int n = N;
    ARG(k, 0, ba);
    ARG(k, 1, bbb);
    ARG(k, 2, bc);
    ARG(k, 3, n);
    size_t g = G, l = 256;
    if (run(b, k, 1, &g, &l, r) == 0) {
        CHECK(clEnqueueReadBuffer(b->q, bc, CL_TRUE, 0, G * sizeof *o, o, 0, NULL, NULL));
        r->wrong = 0;
        for (int i = 0; i < G; i++)
            r->wrong += fbits(o[i]) != fbits(i < N ? a[i] + bb[i] : -1.0f);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bbb);
    clReleaseMemObject(bc);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(a);
    free(bb);
    free(o);
}

/* ---- report ---------------------------------------------------------------------- */

int main(void)
{
    bench b;
    bench_open(&b, ICD_FILE);

    enum { NK = 7 };
    result res[NK];
    static const char *const names[NK] = {"mandel", "collatz", "stencil", "stencil16", "fir4",
                                          "fir16", "vadd_guard"};
    for (int i = 0; i < NK; i++) {
        memset(&res[i], 0, sizeof res[i]);
        res[i].name = names[i];
        res[i].cycles = res[i].wall = res[i].build = -1;
        res[i].wrong = -1;
    }
    bench_mandel(&b, &res[0]);
    bench_collatz(&b, &res[1]);
    cl_program stencil = NULL;
    static const size_t tiles[2] = {16, 16};
    bench_stencil(&b, &res[2], NULL, &stencil);
    bench_stencil(&b, &res[3], tiles, &stencil);
    res[3].build = res[2].build; /* one program */
    if (stencil)
        clReleaseProgram(stencil);
    bench_fir(&b, &res[4], fir4_src, 4);
    bench_fir(&b, &res[5], fir16_src, 16);
    bench_vadd_guard(&b, &res[6]);

    printf("control-flow kernels, platform \"%s\", device \"%s\" (%u MHz); bound: 1 "
           "work-item/cycle, or the total loop iterations\n", b.platform_name, b.device_name, b.mhz);
    printf("| kernel     | work-items | sim cycles   | bound        | bound/cycles | "
           "sim cycles/s | build s | results   |\n");
    printf("|------------|------------|--------------|--------------|--------------|"
           "--------------|---------|-----------|\n");
    int bad = 0;
    for (int i = 0; i < NK; i++) {
        result *r = &res[i];
        char cyc[32], ratio[32], speed[32], bld[32], ok[32];
        cell(cyc, sizeof cyc, r->cycles, "%.0f");
        cell(ratio, sizeof ratio, r->cycles > 0 ? r->bound / r->cycles : -1, "%.3f");
        cell(speed, sizeof speed, r->cycles >= 0 && r->wall > 0 ? r->cycles / r->wall : -1,
             "%.3g");
        cell(bld, sizeof bld, r->build, "%.2f");
        if (r->wrong < 0)
            snprintf(ok, sizeof ok, "not run");
        else if (r->wrong == 0)
            snprintf(ok, sizeof ok, "ok");
        else
            snprintf(ok, sizeof ok, "%ld WRONG", r->wrong);
        bad |= r->wrong != 0;
        printf("| %-10s | %10.0f | %12s | %12.0f | %12s | %12s | %7s | %-9s |\n", r->name,
               r->items, cyc, r->bound, ratio, speed, bld, ok);
    }
    printf("\n");
    for (int i = 0; i < NK; i++) {
        result *r = &res[i];
        char cyc[32], ratio[32], speed[32], bld[32];
        cell(cyc, sizeof cyc, r->cycles, "%.0f");
        cell(ratio, sizeof ratio, r->cycles > 0 ? r->bound / r->cycles : -1, "%.3f");
        cell(speed, sizeof speed, r->cycles >= 0 && r->wall > 0 ? r->cycles / r->wall : -1,
             "%.3g");
        cell(bld, sizeof bld, r->build, "%.2f");
        printf("%s: %.0f work-items, %s cycles against a bound of %.0f (%s): bound/cycles %s; "
               "%s simulated cycles/s; built in %s s; results %s%s%s\n",
               r->name, r->items, cyc, r->bound, r->bound_kind, ratio, speed, bld,
               r->wrong < 0 ? "not checked" : r->wrong ? "WRONG" : "ok",
               r->note[0] ? "; " : "", r->note);
    }

    return bench_close(&b) || bad;
}
