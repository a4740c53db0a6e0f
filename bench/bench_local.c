/* __local memory and barrier benchmark through the ICD. Every program is built from an
 * empty cache (its clBuildProgram time is its own hardware build); every kernel's
 * output is checked against the host. Prints one table of kernels and one of programs;
 * asserts nothing about time.
 *
 * Per kernel: work-items, simulated cycles (the event's END - START at the board
 * clock), the bound, cycles/bound (1.0 = at the bound) and simulation speed (simulated
 * cycles per wall second of the enqueue). Per program: the seconds clBuildProgram took.
 *
 * The bound is what the compute unit could do at best on the default board: its
 * pipeline takes one work-item per cycle, and its one memory port moves one 64-byte line
 * per cycle (sim_dc: 512 bits at 300 MHz, 19.2 GB/s). So the bound is the larger of the
 * work-item count and the memory roofline, the 64-byte lines the kernel's accesses need
 * (neighbouring work-items' accesses to one line share it; a store that strides down a
 * column needs a line of its own). The rows are:
 *   (a) exclusive scans of 4096 ints in groups of 256: naive (work-item l loops over
 *       the l elements before it: l loop iterations), work-efficient Blelloch (2 log2 256
 *       = 16 barrier steps in two loops over a padded __local tree) and the OpenCL 2.0
 *       work-group functions. The bound is one work-item per cycle, what a scan needs;
 *       the note gives the loop iterations the naive scan executes.
 *   (b) barrier cost: a copy of 65536 floats in groups of 256 straight through, through
 *       __local memory (each work-item reads back its own word: no barrier needed; the
 *       array is volatile so that the load really reads the memory), and the same with
 *       a barrier between the store and the load.
 *       Two work-groups are in flight per compute unit: the barrier costs only what
 *       those two cannot hide. The note gives cycles per work-item.
 *   (c) __local accesses per cycle: each work-item stores 4 words (consecutive, one
 *       float4 from global memory) and loads 4, consecutive words (4 banks) or words
 *       256 apart (one bank: bank conflicts). Each __local array has up to 8 banks,
 *       one access per bank per cycle; with 8 accesses per work-item the bound is one
 *       work-item per cycle either way (over the whole run every bank gets 1 access
 *       per work-item). The note gives __local accesses per cycle. lds_static: four
 *       atomic_inc per work-item on four __local counters, one port each, which the
 *       compiler wires statically to their own banks (no arbiter, no conflict).
 *   (d) the transposes (256 x 256, naive and through a padded 16 x 16 tile) and the
 *       tiled matrix multiply (64 x 64, 16 x 16 tiles padded to 16 x 17) against
 *       max(work-items, memory lines). The naive transpose's stores need a line per
 *       element, so its roofline is above the work-item count. For the multiply the
 *       note also gives two tighter counts: tile-loop iterations (4 per work-item) and
 *       the __local ports: each array has 17 accesses per iteration (16 reads of the
 *       unrolled inner loop and the store) on its 8 banks.
 *   (e) atomics: a 256-bin histogram of 262144 random bytes (4096 work-items in groups
 *       of 256, 64 bytes each) with one global atomic per byte (histogram_global: the
 *       atomic unit's cache holds every bin) and with __local atomics per work-group
 *       merged by 256 global atomics per group (histogram_local), and one global
 *       counter that every one of 65536 work-items increments (counter). The bound is
 *       one byte (loop iteration) or work-item per cycle; the note gives cycles per
 *       byte or per atomic.
 * Against another OpenCL platform (OCL_ICD_VENDORS=...) it runs too; the "cycles" are
 * then that device's time at its reported clock. */
#define _GNU_SOURCE
#include <stdint.h>

#include "bench.h"

/* One program: its build. */
typedef struct program {
    const char *name;           /* short name */
    double build;               /* seconds clBuildProgram took; < 0 when it failed */
    double cycles, wall;        /* simulated cycles and wall seconds of its kernels */
    char note[240];             /* the build error */
} program;

/* One kernel's row. */
typedef struct row {
    const char *section;        /* (a) .. (d) */
    const char *name;           /* kernel name */
    program *prog;              /* the program it is in */
    double items;               /* work-items */
    double bound;               /* cycles at the bound */
    double cycles;              /* simulated cycles; < 0 when it did not run */
    double wall;                /* wall seconds of the enqueue */
    long wrong;                 /* outputs that differ from the host; -1 not checked */
    char note[160];             /* a remark */
} row;

enum { MAXROWS = 20 };
static row rows[MAXROWS];
static int nrows;

static row *add_row(const char *section, const char *name, program *p, double items,
                    double bound)
{
    row *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    r->section = section;
    r->name = name;
    r->prog = p;
    r->items = items;
    r->bound = bound;
    r->cycles = r->wall = -1;
    r->wrong = -1;
    return r;
}

/* Builds one program; NULL (and the first line of the log in p->note) on failure. */
static cl_program build(bench *b, program *p, const char *src, const char *options)
{
    cl_int err;
    cl_program prog = clCreateProgramWithSource(b->ctx, 1, &src, NULL, &err);
    CHECK(err);
    double t0 = now();
    err = clBuildProgram(prog, 1, &b->dev, options, NULL, NULL);
    double t = now() - t0;
    p->build = -1;
    if (err != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(prog, b->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = calloc(1, len + 1);
        if (log)
            clGetProgramBuildInfo(prog, b->dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        fprintf(stderr, "program %s: build failed (%d):\n%s\n", p->name, err, log ? log : "");
        /* The log's first line, and the next one too when the first only introduces it
         * ("...failed:"). */
        const char *first = log ? log : "";
        while (*first == '\n' || *first == ' ')
            first++;
        int len1 = (int)strcspn(first, "\n");
        const char *second = first + len1;
        while (*second == '\n' || *second == ' ')
            second++;
        int len2 = len1 > 0 && first[len1 - 1] == ':' ? (int)strcspn(second, "\n") : 0;
        snprintf(p->note, sizeof p->note, "build failed (%d): %.*s%s%.*s", err, len1, first,
                 len2 ? " " : "", len2, second);
        free(log);
        clReleaseProgram(prog);
        return NULL;
    }
    p->build = t;
    return prog;
}

static cl_kernel kernel(cl_program p, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK(err);
    return k;
}

/* Runs k; fills the row's cycles and wall time. Returns 0 when it completed. */
static int run(bench *b, cl_kernel k, cl_uint dim, const size_t *global, const size_t *local,
               row *r)
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
        end >= start && b->mhz) {
        r->cycles = (double)(end - start) * b->mhz / 1000.0;
        r->prog->cycles += r->cycles;
        r->prog->wall += wall;
    } else {
        snprintf(r->note, sizeof r->note, "no profiling information");
    }
    clReleaseEvent(ev);
    return 0;
}

static void read_back(bench *b, cl_mem m, size_t bytes, void *host)
{
    CHECK(clEnqueueReadBuffer(b->q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
}

/* Fills a buffer with a value no kernel writes, so untouched outputs show. */
static void poison(bench *b, cl_mem m, size_t bytes)
{
    int v = 0x7eadbeef;
    CHECK(clEnqueueFillBuffer(b->q, m, &v, sizeof v, 0, bytes, 0, NULL, NULL));
}

/* ---- (a) scans ----------------------------------------------------------------- */

static const char *scans_src =
    "__kernel void scan_naive(__global const int *restrict in, __global int *restrict out,\n"
    "                         __global int *restrict sums)\n"
    "{\n"
    "    int g = get_global_id(0), l = get_local_id(0);\n"
    "    int s = 0;\n"
    "    for (int j = g - l; j < g; j++)\n"
    "        s += in[j];\n"
    "    out[g] = s;\n"
    "    if (l == (int)get_local_size(0) - 1)\n"
    "        sums[get_group_id(0)] = s + in[g];\n"
    "}\n"
    "#define PAD(i) ((i) + ((i) >> 3))\n"
    "__kernel void scan_blelloch(__global const int *restrict in, __global int *restrict out,\n"
    "                            __global int *restrict sums, __local int *temp)\n"
    "{\n"
    "    int l = get_local_id(0), n = get_local_size(0);\n"
    "    temp[PAD(l)] = in[get_global_id(0)];\n"
    "    int offset = 1;\n"
    "    for (int d = n >> 1; d > 0; d >>= 1) {\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        if (l < d) {\n"
    "            int ai = offset * (2 * l + 1) - 1, bi = offset * (2 * l + 2) - 1;\n"
    "            temp[PAD(bi)] += temp[PAD(ai)];\n"
    "        }\n"
    "        offset <<= 1;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l == 0) {\n"
    "        sums[get_group_id(0)] = temp[PAD(n - 1)];\n"
    "        temp[PAD(n - 1)] = 0;\n"
    "    }\n"
    "    for (int d = 1; d < n; d <<= 1) {\n"
    "        offset >>= 1;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        if (l < d) {\n"
    "            int ai = offset * (2 * l + 1) - 1, bi = offset * (2 * l + 2) - 1;\n"
    "            int t = temp[PAD(ai)];\n"
    "            temp[PAD(ai)] = temp[PAD(bi)];\n"
    "            temp[PAD(bi)] += t;\n"
    "        }\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = temp[PAD(l)];\n"
    "}\n";

/* In a program of its own: a build failure (work-group functions not in the hardware)
 * leaves the other scans running. */
static const char *scan_wg_src =
    "__kernel void scan_wg(__global const int *restrict in, __global int *restrict out,\n"
    "                      __global int *restrict sums)\n"
    "{\n"
    "    int x = in[get_global_id(0)];\n"
    "    int s = work_group_scan_exclusive_add(x);\n"
    "    int total = work_group_broadcast(s + x, get_local_size(0) - 1);\n"
    "    out[get_global_id(0)] = s;\n"
    "    if (get_local_id(0) == 0)\n"
    "        sums[get_group_id(0)] = total;\n"
    "}\n";

static void bench_scans(bench *b, program *ps, program *pw)
{
    enum { N = 4096, WG = 256, G = N / WG };
    static const char *const names[3] = {"scan_naive", "scan_blelloch", "scan_wg"};
    row *r[3];
    for (int i = 0; i < 3; i++)
        r[i] = add_row("(a)", names[i], i < 2 ? ps : pw, N, N);
    snprintf(r[0]->note, sizeof r[0]->note, "%d loop iterations (l per work-item)",
             G * WG * (WG - 1) / 2);
    snprintf(r[1]->note, sizeof r[1]->note, "16 barrier steps per work-item");
    snprintf(r[2]->note, sizeof r[2]->note, "a scan and a broadcast per work-group");
    int *in = xmalloc(N * sizeof *in), *want = xmalloc(N * sizeof *want);
    int want_sums[G], sums[G], *out = xmalloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = (int)(rnd() % 2001) - 1000;
    for (int g = 0; g < G; g++) {
        int s = 0;
        for (int l = 0; l < WG; l++) {
            want[g * WG + l] = s;
            s += in[g * WG + l];
        }
        want_sums[g] = s;
    }
    cl_mem bin = buffer(b, N * sizeof *in, in), bout = buffer(b, N * sizeof *out, NULL);
    cl_mem bsums = buffer(b, sizeof sums, NULL);
    cl_program p[2] = {build(b, ps, scans_src, "-cl-std=CL2.0"),
                       build(b, pw, scan_wg_src, "-cl-std=CL2.0")};
    for (int i = 0; i < 3; i++) {
        cl_program prog = p[i < 2 ? 0 : 1];
        if (!prog)
            continue;
        cl_kernel k = kernel(prog, names[i]);
        ARG(k, 0, bin);
        ARG(k, 1, bout);
        ARG(k, 2, bsums);
        if (i == 1)
            CHECK(clSetKernelArg(k, 3, (WG + (WG - 1) / 8) * sizeof(int), NULL));
        poison(b, bout, N * sizeof *out);
        poison(b, bsums, sizeof sums);
        size_t g = N, l = WG;
        if (run(b, k, 1, &g, &l, r[i]) == 0) {
            read_back(b, bout, N * sizeof *out, out);
            read_back(b, bsums, sizeof sums, sums);
            r[i]->wrong = 0;
            for (int j = 0; j < N; j++)
                r[i]->wrong += out[j] != want[j];
            for (int j = 0; j < G; j++)
                r[i]->wrong += sums[j] != want_sums[j];
        }
        clReleaseKernel(k);
    }
    for (int i = 0; i < 2; i++)
        if (p[i])
            clReleaseProgram(p[i]);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseMemObject(bsums);
    free(in);
    free(want);
    free(out);
}

/* ---- (b) barrier cost ---------------------------------------------------------- */

/* volatile: otherwise the compiler hands the stored value straight to the load of the
 * same word and copy_local keeps only the __local store. */
static const char *barrier_src =
    "__kernel void copy_global(__global const float *restrict in, __global float *restrict out)\n"
    "{\n"
    "    out[get_global_id(0)] = in[get_global_id(0)];\n"
    "}\n"
    "__kernel void copy_local(__global const float *restrict in, __global float *restrict out)\n"
    "{\n"
    "    volatile __local float t[256];\n"
    "    int l = get_local_id(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    out[get_global_id(0)] = t[l];\n"
    "}\n"
    "__kernel void copy_local_barrier(__global const float *restrict in,\n"
    "                                 __global float *restrict out)\n"
    "{\n"
    "    volatile __local float t[256];\n"
    "    int l = get_local_id(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[l];\n"
    "}\n";

static void bench_barrier(bench *b, program *pp)
{
    enum { N = 65536, WG = 256 };
    static const char *const names[3] = {"copy_global", "copy_local", "copy_local_barrier"};
    /* roofline: N/16 lines read and N/16 written, below N */
    row *r[3];
    for (int i = 0; i < 3; i++)
        r[i] = add_row("(b)", names[i], pp, N, N);
    float *in = xmalloc(N * sizeof *in), *out = xmalloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = (float)(rnd() % 100000) * 0.125f;
    cl_mem bin = buffer(b, N * sizeof *in, in), bout = buffer(b, N * sizeof *out, NULL);
    cl_program p = build(b, pp, barrier_src, NULL);
    for (int i = 0; p && i < 3; i++) {
        cl_kernel k = kernel(p, names[i]);
        ARG(k, 0, bin);
        ARG(k, 1, bout);
        poison(b, bout, N * sizeof *out);
        size_t g = N, l = WG;
        if (run(b, k, 1, &g, &l, r[i]) == 0) {
            read_back(b, bout, N * sizeof *out, out);
            r[i]->wrong = 0;
            for (int j = 0; j < N; j++)
                r[i]->wrong += memcmp(&out[j], &in[j], sizeof(float)) != 0;
            snprintf(r[i]->note, sizeof r[i]->note, "%.3f cycles/work-item",
                     r[i]->cycles / r[i]->items);
        }
        clReleaseKernel(k);
    }
    if (p)
        clReleaseProgram(p);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(in);
    free(out);
}

/* ---- (c) bank conflicts -------------------------------------------------------- */

static const char *banks_src =
    "__kernel __attribute__((reqd_work_group_size(256, 1, 1)))\n"
    "void lds_consecutive(__global const float4 *restrict in, __global float *restrict out)\n"
    "{\n"
    "    __local float t[1024];\n"
    "    int l = get_local_id(0);\n"
    "    float4 v = in[get_global_id(0)];\n"
    "    t[4 * l] = v.x;\n"
    "    t[4 * l + 1] = v.y;\n"
    "    t[4 * l + 2] = v.z;\n"
    "    t[4 * l + 3] = v.w;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int m = 255 - l;\n"
    "    out[get_global_id(0)] = t[4 * m] + t[4 * m + 1] + t[4 * m + 2] + t[4 * m + 3];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(256, 1, 1)))\n"
    "void lds_same_bank(__global const float4 *restrict in, __global float *restrict out)\n"
    "{\n"
    "    __local float t[1024];\n"
    "    int l = get_local_id(0);\n"
    "    float4 v = in[get_global_id(0)];\n"
    "    t[4 * l] = v.x;\n"
    "    t[4 * l + 1] = v.y;\n"
    "    t[4 * l + 2] = v.z;\n"
    "    t[4 * l + 3] = v.w;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[l] + t[l + 256] + t[l + 512] + t[l + 768];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(256, 1, 1)))\n"
    "void lds_static(__global uint4 *restrict out)\n"
    "{\n"
    "    __local uint t[4];\n"
    "    out[get_global_id(0)] = (uint4)(atomic_inc(&t[0]), atomic_inc(&t[1]),\n"
    "                                    atomic_inc(&t[2]), atomic_inc(&t[3]));\n"
    "}\n";

/* lds_static: four __local counters, one atomic port each, wired statically to their
 * own banks (no arbiter). A group's tickets from one counter must be 256 consecutive
 * numbers (from whatever the slot's counter held); returns the groups that differ. */
static long static_tickets_wrong(const cl_uint *out, int n, int wg)
{
    long wrong = 0;
    for (int g = 0; g < n / wg; g++)
        for (int c = 0; c < 4; c++) {
            const cl_uint *v = out + 4 * g * wg + c;
            int lowest = 0;
            for (int i = 0; i < wg; i++)
                if ((int32_t)(v[4 * i] - v[0]) < lowest)
                    lowest = (int32_t)(v[4 * i] - v[0]);
            unsigned char seen[256] = {0};
            int ok = wg <= 256;
            for (int i = 0; i < wg && ok; i++) {
                cl_uint d = v[4 * i] - (v[0] + (cl_uint)lowest);
                ok = d < (cl_uint)wg && !seen[d]++;
            }
            wrong += !ok;
        }
    return wrong;
}

static void bench_banks(bench *b, program *pp)
{
    enum { N = 32768, WG = 256 };
    static const char *const names[2] = {"lds_consecutive", "lds_same_bank"};
    row *r[2];
    for (int i = 0; i < 2; i++)
        r[i] = add_row("(c)", names[i], pp, N, N);
    row *rs = add_row("(c)", "lds_static", pp, N, N);
    /* small integers: the sums are exact in any order */
    float *in = xmalloc(4 * N * sizeof *in), *out = xmalloc(N * sizeof *out);
    float *want[2] = {xmalloc(N * sizeof(float)), xmalloc(N * sizeof(float))};
    for (int i = 0; i < 4 * N; i++)
        in[i] = (float)(rnd() % 1000);
    for (int g = 0; g < N / WG; g++)
        for (int l = 0; l < WG; l++) {
            const float *t = in + 4 * g * WG;
            int m = WG - 1 - l;
            want[0][g * WG + l] = t[4 * m] + t[4 * m + 1] + t[4 * m + 2] + t[4 * m + 3];
            want[1][g * WG + l] = t[l] + t[l + 256] + t[l + 512] + t[l + 768];
        }
    cl_mem bin = buffer(b, 4 * N * sizeof *in, in), bout = buffer(b, N * sizeof *out, NULL);
    cl_program p = build(b, pp, banks_src, NULL);
    for (int i = 0; p && i < 2; i++) {
        cl_kernel k = kernel(p, names[i]);
        ARG(k, 0, bin);
        ARG(k, 1, bout);
        poison(b, bout, N * sizeof *out);
        size_t g = N, l = WG;
        if (run(b, k, 1, &g, &l, r[i]) == 0) {
            read_back(b, bout, N * sizeof *out, out);
            r[i]->wrong = 0;
            for (int j = 0; j < N; j++)
                r[i]->wrong += out[j] != want[i][j];
            snprintf(r[i]->note, sizeof r[i]->note, "%.2f __local accesses/cycle (8 per work-item)",
                     8.0 * N / r[i]->cycles);
        }
        clReleaseKernel(k);
    }
    if (p) {
        cl_mem btickets = buffer(b, 4 * N * sizeof(cl_uint), NULL);
        cl_kernel k = kernel(p, "lds_static");
        ARG(k, 0, btickets);
        size_t g = N, l = WG;
        if (run(b, k, 1, &g, &l, rs) == 0) {
            cl_uint *tickets = xmalloc(4 * N * sizeof *tickets);
            read_back(b, btickets, 4 * N * sizeof *tickets, tickets);
            rs->wrong = static_tickets_wrong(tickets, N, WG);
            snprintf(rs->note, sizeof rs->note, "%.2f __local accesses/cycle (4 atomics per "
                     "work-item, static banks)", 4.0 * N / rs->cycles);
            free(tickets);
        }
        clReleaseKernel(k);
        clReleaseMemObject(btickets);
        clReleaseProgram(p);
    }
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(in);
    free(out);
    free(want[0]);
    free(want[1]);
}

/* ---- (d) transpose and tiled matrix multiply ------------------------------------ */

static const char *transpose_src =
    "__kernel void transpose_naive(__global const float *restrict in,\n"
    "                              __global float *restrict out, int w, int h)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    out[x * h + y] = in[y * w + x];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(16, 16, 1)))\n"
    "void transpose_tiled(__global const float *restrict in, __global float *restrict out,\n"
    "                     int w, int h)\n"
    "{\n"
    "    __local float tile[16][17];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    tile[ly][lx] = in[get_global_id(1) * w + get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int ox = get_group_id(1) * 16 + lx, oy = get_group_id(0) * 16 + ly;\n"
    "    out[oy * h + ox] = tile[lx][ly];\n"
    "}\n";

static void bench_transpose(bench *b, program *pp)
{
    enum { W = 256, H = 256, N = W * H };
    static const char *const names[2] = {"transpose_naive", "transpose_tiled"};
    /* memory lines: the loads 16 floats per line; the naive stores one line each */
    double lines[2] = {N / 16.0 + N, N / 16.0 + N / 16.0};
    row *r[2];
    for (int i = 0; i < 2; i++) {
        r[i] = add_row("(d)", names[i], pp, N, lines[i] > N ? lines[i] : N);
        snprintf(r[i]->note, sizeof r[i]->note, "%.0f memory lines", lines[i]);
    }
    float *in = xmalloc(N * sizeof *in), *out = xmalloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    cl_mem bin = buffer(b, N * sizeof *in, in), bout = buffer(b, N * sizeof *out, NULL);
    cl_program p = build(b, pp, transpose_src, NULL);
    for (int i = 0; p && i < 2; i++) {
        cl_kernel k = kernel(p, names[i]);
        cl_int w = W, h = H;
        ARG(k, 0, bin);
        ARG(k, 1, bout);
        ARG(k, 2, w);
        ARG(k, 3, h);
        poison(b, bout, N * sizeof *out);
        size_t g[2] = {W, H}, l[2] = {16, 16};
        if (run(b, k, 2, g, l, r[i]) == 0) {
            read_back(b, bout, N * sizeof *out, out);
            r[i]->wrong = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    r[i]->wrong += out[x * H + y] != in[y * W + x];
        }
        clReleaseKernel(k);
    }
    if (p)
        clReleaseProgram(p);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(in);
    free(out);
}

static const char *matmul_src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#define TS 16\n"
    "__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))\n"
    "void matmul_tiled(__global const float *restrict a, __global const float *restrict b,\n"
    "                  __global float *restrict c, int n)\n"
    "{\n"
    "    __local float as[TS][TS + 1], bs[TS][TS + 1];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < n / TS; t++) {\n"
    "        as[ty][tx] = a[row * n + t * TS + tx];\n"
    "        bs[ty][tx] = b[(t * TS + ty) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TS; k++)\n"
    "            acc += as[ty][k] * bs[k][tx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    c[row * n + col] = acc;\n"
    "}\n";

static void bench_matmul(bench *b, program *pp)
{
    enum { N = 64, TS = 16 };
    /* lines: per work-item and tile one float of A and one of B (16 work-items share a
     * line), and C once */
    double lines = 2.0 * (N / TS) * N * N / 16 + (double)N * N / 16;
    double items = (double)N * N, iters = items * (N / TS);
    row *r = add_row("(d)", "matmul_tiled", pp, items, lines > items ? lines : items);
    snprintf(r->note, sizeof r->note, "%.0f lines; %.0f tile iterations; __local ports %.0f",
             lines, iters, iters * (TS + 1) / 8);
    float *a = xmalloc(N * N * sizeof *a), *bb = xmalloc(N * N * sizeof *bb);
    float *c = xmalloc(N * N * sizeof *c);
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)((int)(rnd() % 256) - 128) / 64.0f;
        bb[i] = (float)((int)(rnd() % 256) - 128) / 64.0f + 1.0f / 3.0f;
    }
    cl_mem ba = buffer(b, N * N * sizeof *a, a), bbm = buffer(b, N * N * sizeof *bb, bb);
    cl_mem bc = buffer(b, N * N * sizeof *c, NULL);
    cl_program p = build(b, pp, matmul_src, NULL);
    if (p) {
        cl_kernel k = kernel(p, "matmul_tiled");
        cl_int n = N;
        ARG(k, 0, ba);
        ARG(k, 1, bbm);
        ARG(k, 2, bc);
        ARG(k, 3, n);
        poison(b, bc, N * N * sizeof *c);
        size_t g[2] = {N, N}, l[2] = {TS, TS};
        if (run(b, k, 2, g, l, r) == 0) {
            read_back(b, bc, N * N * sizeof *c, c);
            r->wrong = 0;
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) {
                    float acc = 0.0f;
                    for (int kk = 0; kk < N; kk++)
                        acc += a[i * N + kk] * bb[kk * N + j];
                    r->wrong += memcmp(&acc, &c[i * N + j], sizeof acc) != 0;
                }
        }
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bbm);
    clReleaseMemObject(bc);
    free(a);
    free(bb);
    free(c);
}

/* ---- (e) atomics ----------------------------------------------------------------- */

static const char *atomics_src =
    "__kernel void histogram_global(__global const uchar *data, __global uint *bins, int n)\n"
    "{\n"
    "    for (int k = get_global_id(0); k < n; k += get_global_size(0))\n"
    "        atomic_inc(&bins[data[k]]);\n"
    "}\n"
    "__kernel void histogram_local(__global const uchar *data, __global uint *bins, int n)\n"
    "{\n"
    "    __local uint local_bins[256];\n"
    "    int l = get_local_id(0), size = get_local_size(0);\n"
    "    for (int b = l; b < 256; b += size)\n"
    "        local_bins[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = get_global_id(0); k < n; k += get_global_size(0))\n"
    "        atomic_inc(&local_bins[data[k]]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int b = l; b < 256; b += size)\n"
    "        atomic_add(&bins[b], local_bins[b]);\n"
    "}\n"
    "__kernel void counter(__global uint *count, __global uint *old)\n"
    "{\n"
    "    old[get_global_id(0)] = atomic_inc(count);\n"
    "}\n";

static void bench_atomics(bench *b, program *pp)
{
    enum { N = 262144, ITEMS = 4096, WG = 256, COUNT = 65536 };
    static const char *const names[2] = {"histogram_global", "histogram_local"};
    row *r[3];
    for (int i = 0; i < 2; i++)
        r[i] = add_row("(e)", names[i], pp, ITEMS, N);
    r[2] = add_row("(e)", "counter", pp, COUNT, COUNT);
    unsigned char *data = xmalloc(N);
    cl_uint expect[256] = {0}, bins[256];
    for (int i = 0; i < N; i++) {
        data[i] = (unsigned char)(rnd() >> 7);
        expect[data[i]]++;
    }
    cl_uint *old = xmalloc(COUNT * sizeof *old);
    cl_mem bdata = buffer(b, N, data), bbins = buffer(b, sizeof bins, NULL);
    cl_mem bcount = buffer(b, sizeof(cl_uint), NULL), bold = buffer(b, COUNT * sizeof *old, NULL);
    cl_program p = build(b, pp, atomics_src, NULL);
    for (int i = 0; p && i < 2; i++) {
        cl_kernel k = kernel(p, names[i]);
        cl_int n = N;
        ARG(k, 0, bdata);
        ARG(k, 1, bbins);
        ARG(k, 2, n);
        cl_uint zero = 0;
        CHECK(clEnqueueFillBuffer(b->q, bbins, &zero, sizeof zero, 0, sizeof bins, 0, NULL, NULL));
        size_t g = ITEMS, l = WG;
        if (run(b, k, 1, &g, &l, r[i]) == 0) {
            read_back(b, bbins, sizeof bins, bins);
            r[i]->wrong = 0;
            for (int j = 0; j < 256; j++)
                r[i]->wrong += bins[j] != expect[j];
            snprintf(r[i]->note, sizeof r[i]->note, "%.2f cycles/byte", r[i]->cycles / N);
        }
        clReleaseKernel(k);
    }
    if (p) {
        cl_kernel k = kernel(p, "counter");
        ARG(k, 0, bcount);
        ARG(k, 1, bold);
        cl_uint zero = 0;
        CHECK(clEnqueueFillBuffer(b->q, bcount, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL));
        size_t g = COUNT, l = WG;
        if (run(b, k, 1, &g, &l, r[2]) == 0) {
            /* every old value 0..COUNT-1 exactly once */
            read_back(b, bold, COUNT * sizeof *old, old);
            unsigned char *seen = xmalloc(COUNT);
            memset(seen, 0, COUNT);
            r[2]->wrong = 0;
            for (int j = 0; j < COUNT; j++) {
                if (old[j] >= COUNT || seen[old[j]])
                    r[2]->wrong++;
                else
                    seen[old[j]] = 1;
            }
            free(seen);
            snprintf(r[2]->note, sizeof r[2]->note, "%.2f cycles/atomic", r[2]->cycles / COUNT);
        }
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    clReleaseMemObject(bdata);
    clReleaseMemObject(bbins);
    clReleaseMemObject(bcount);
    clReleaseMemObject(bold);
    free(data);
    free(old);
}

/* ---- report ---------------------------------------------------------------------- */

int main(void)
{
    bench b;
    bench_open(&b, ICD_FILE);

    enum { NP = 7 };
    program progs[NP] = {{.name = "scans"},   {.name = "scan_wg"},   {.name = "barrier"},
                         {.name = "banks"},   {.name = "transpose"}, {.name = "matmul"},
                         {.name = "atomics"}};
    for (int i = 0; i < NP; i++)
        progs[i].build = -1;
    double t0 = now();
    bench_scans(&b, &progs[0], &progs[1]);
    bench_barrier(&b, &progs[2]);
    bench_banks(&b, &progs[3]);
    bench_transpose(&b, &progs[4]);
    bench_matmul(&b, &progs[5]);
    bench_atomics(&b, &progs[6]);
    double total = now() - t0;

    printf("__local memory and barriers, platform \"%s\", device \"%s\" (%u MHz); bound: "
           "max(work-items, 64-byte memory lines), 1 of each per cycle\n", b.platform_name, b.device_name, b.mhz);
    printf("|     | kernel             | work-items | sim cycles | bound      | cycles/bound | "
           "sim cycles/s | results   | notes\n");
    printf("|-----|--------------------|------------|------------|------------|--------------|"
           "--------------|-----------|------\n");
    int bad = 0;
    for (int i = 0; i < nrows; i++) {
        row *r = &rows[i];
        char cyc[32], ratio[32], speed[32], ok[32];
        cell(cyc, sizeof cyc, r->cycles, "%.0f");
        cell(ratio, sizeof ratio, r->cycles >= 0 ? r->cycles / r->bound : -1, "%.2f");
        cell(speed, sizeof speed, r->cycles >= 0 && r->wall > 0 ? r->cycles / r->wall : -1,
             "%.3g");
        if (r->wrong < 0)
            snprintf(ok, sizeof ok, "not run");
        else if (r->wrong == 0)
            snprintf(ok, sizeof ok, "ok");
        else
            snprintf(ok, sizeof ok, "%ld WRONG", r->wrong);
        bad |= r->wrong != 0;
        const char *note = r->note[0] ? r->note : r->prog->build < 0 ? r->prog->note : "";
        printf("| %s | %-18s | %10.0f | %10s | %10.0f | %12s | %12s | %-9s | %s\n", r->section,
               r->name, r->items, cyc, r->bound, ratio, speed, ok, note);
    }
    printf("\n| program   | build s | sim cycles | sim wall s | sim cycles/s |\n");
    printf("|-----------|---------|------------|------------|--------------|\n");
    double build_total = 0;
    for (int i = 0; i < NP; i++) {
        program *p = &progs[i];
        char bld[32], speed[32];
        cell(bld, sizeof bld, p->build, "%.1f");
        cell(speed, sizeof speed, p->wall > 0 ? p->cycles / p->wall : -1, "%.3g");
        build_total += p->build > 0 ? p->build : 0;
        printf("| %-9s | %7s | %10.0f | %10.2f | %12s |%s%s\n", p->name, bld, p->cycles, p->wall,
               speed, p->build < 0 ? " " : "", p->build < 0 ? p->note : "");
    }
    printf("total %.1f s: %.1f s building hardware\n", total, build_total);

    return bench_close(&b) || bad;
}
