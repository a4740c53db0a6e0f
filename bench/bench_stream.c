/* STREAM through the ICD: McCalpin's four kernels (copy c = a, scale b = q c, add
 * c = a + b, triad a = b + q c) over N floats, as NDRange kernels of 1, 4 and 8 compute
 * units (num_compute_units), of 4 and 16 SIMD work-items (num_simd_work_items: one
 * access of 16 or 64 bytes per array and cycle), and as single work-item loops unrolled
 * 16 times (each iteration one port-wide access per array). Every program is built from an empty
 * cache; every run is checked against the host. Prints one table; asserts nothing
 * about time.
 *
 * Per kernel: simulated cycles (the event's END - START at the board clock), the bytes
 * the kernel must move (8 or 12 per element), bytes per cycle, and that against the
 * memory's peak: one port-wide word per cycle on each memory port (the default board's
 * 64 bytes; CLHLS_BOARD picks another, such as a board of several ports). An NDRange
 * compute unit takes one work-item per cycle, so one unit moves 8 or 12 bytes a cycle
 * at best; the copies of a replicated kernel share the port through the interconnect. */
#include <stdint.h>

#include "bench.h"
#include "board.h"

#define N (1 << 16)  /* floats per array */

/* The four kernels; the attribute (%s) in front of each NDRange one. */
static const char *const ndrange_fmt =
    "%s __kernel void copy(__global const float *restrict a, __global float *restrict c)\n"
    "{ int i = get_global_id(0); c[i] = a[i]; }\n"
    "%s __kernel void scale(__global float *restrict b, __global const float *restrict c, float q)\n"
    "{ int i = get_global_id(0); b[i] = q * c[i]; }\n"
    "%s __kernel void add(__global const float *restrict a, __global const float *restrict b,\n"
    "                     __global float *restrict c)\n"
    "{ int i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "%s __kernel void triad(__global float *restrict a, __global const float *restrict b,\n"
    "                       __global const float *restrict c, float q)\n"
    "{ int i = get_global_id(0); a[i] = b[i] + q * c[i]; }\n";

static const char *const task_src =
    "__kernel void copy(__global const float *restrict a, __global float *restrict c, int n)\n"
    "{\n    #pragma unroll 16\n    for (int i = 0; i < n; i++) c[i] = a[i]; }\n"
    "__kernel void scale(__global float *restrict b, __global const float *restrict c, float q,\n"
    "                    int n)\n"
    "{\n    #pragma unroll 16\n    for (int i = 0; i < n; i++) b[i] = q * c[i]; }\n"
    "__kernel void add(__global const float *restrict a, __global const float *restrict b,\n"
    "                  __global float *restrict c, int n)\n"
    "{\n    #pragma unroll 16\n    for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }\n"
    "__kernel void triad(__global float *restrict a, __global const float *restrict b,\n"
    "                    __global const float *restrict c, float q, int n)\n"
    "{\n    #pragma unroll 16\n    for (int i = 0; i < n; i++) a[i] = b[i] + q * c[i]; }\n";

/* A kernel of STREAM: its arrays (indices into the three buffers a, b, c), whether it
 * takes q, and the bytes it moves per element. */
static const struct {
    const char *name;
    int arrays[3];  /* argument order, -1 after the last */
    int q;          /* takes the scalar after the arrays */
    int bytes;      /* per element */
} kernels[] = {
    {"copy", {0, 2, -1}, 0, 8},
    {"scale", {1, 2, -1}, 1, 8},
    {"add", {0, 1, 2}, 0, 12},
    {"triad", {0, 1, 2}, 1, 12},
};
#define NKERNELS (int)(sizeof kernels / sizeof *kernels)

static float host[3][N];

/* The host's STREAM step k on host[]. */
static void host_step(int k, float q)
{
    for (int i = 0; i < N; i++) {
        if (k == 0)
            host[2][i] = host[0][i];
        else if (k == 1)
            host[1][i] = q * host[2][i];
        else if (k == 2)
            host[2][i] = host[0][i] + host[1][i];
        else
            host[0][i] = host[1][i] + q * host[2][i];
    }
}

/* Runs the four kernels of program p in STREAM's order (units: 0 for the task loops)
 * and prints a row each; returns 1 when a result differs from the host's. */
static int run_program(bench *b, cl_program p, const char *variant, int units, double build,
                       double peak, unsigned ports)
{
    cl_mem bufs[3];
    unsigned seed = 12345;
    for (int a = 0; a < 3; a++) {
        for (int i = 0; i < N; i++)
            host[a][i] = (float)((int)((seed = seed * 1103515245u + 12345u) >> 16) % 1000) / 8.0f;
        /* array a on memory port a mod ports (Intel's CL_CHANNEL_n_INTELFPGA: port n - 1) */
        cl_int err;
        bufs[a] = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR |
                                             (cl_mem_flags)(a % ports + 1) << 16,
                                 sizeof host[a], host[a], &err);
        CHECK(err);
    }
    int wrong = 0;
    float q = 3.0f;
    cl_int n = N;
    for (int k = 0; k < NKERNELS; k++) {
        cl_int err;
        cl_kernel kern = clCreateKernel(p, kernels[k].name, &err);
        CHECK(err);
        cl_uint arg = 0;
        for (int a = 0; a < 3 && kernels[k].arrays[a] >= 0; a++)
            CHECK(clSetKernelArg(kern, arg++, sizeof(cl_mem), &bufs[kernels[k].arrays[a]]));
        if (kernels[k].q)
            CHECK(clSetKernelArg(kern, arg++, sizeof q, &q));
        if (!units)
            CHECK(clSetKernelArg(kern, arg++, sizeof n, &n));
        cl_event ev;
        size_t global = units ? N : 1, local = units ? 256 : 1;
        CHECK(clEnqueueNDRangeKernel(b->q, kern, 1, NULL, &global, &local, 0, NULL, &ev));
        CHECK(clWaitForEvents(1, &ev));
        double cycles = bench_event_cycles(ev, b->mhz);
        clReleaseEvent(ev);
        clReleaseKernel(kern);
        host_step(k, q);
        static float got[N];
        int out = k == 0 ? 2 : k == 1 ? 1 : k == 2 ? 2 : 0;
        CHECK(clEnqueueReadBuffer(b->q, bufs[out], CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        int same = !memcmp(got, host[out], sizeof got);
        wrong |= !same;
        double bytes = (double)kernels[k].bytes * N;
        char build_cell[32];
        cell(build_cell, sizeof build_cell, k ? -1 : build, "%.1f");
        printf("| %s | %s | %.0f | %.0f | %.1f | %.0f %% | %s | %s |\n", variant, kernels[k].name,
               cycles, bytes, bytes / cycles, 100.0 * bytes / cycles / peak, k ? "" : build_cell,
               same ? "" : "WRONG RESULTS");
    }
    for (int a = 0; a < 3; a++)
        clReleaseMemObject(bufs[a]);
    return wrong;
}

int main(void)
{
    char err[256];
    board_t *board = board_load(board_default_name(), err, sizeof err);
    if (!board) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* bytes per cycle: one word a cycle on each memory port */
    double peak = board->mem_ports * board->mem_width_bits / 8.0;
    unsigned ports = board->mem_ports;
    board_free(board);
    bench b;
    bench_open(&b, ICD_FILE);
    printf("STREAM on %s (%s), %d floats per array, peak %.0f bytes per cycle (%u memory "
           "port%s; the arrays a, b, c on ports 0, 1, 2 mod %u)\n\n",
           b.device_name, b.platform_name, N, peak, ports, ports > 1 ? "s" : "", ports);
    printf("| variant | kernel | cycles | bytes | bytes/cycle | of peak | build s | note |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    static const struct {
        int units, lanes; /* 0 units: the task loops */
    } variants[] = {{1, 1}, {4, 1}, {8, 1}, {1, 4}, {1, 16}, {0, 0}};
    int status = 0;
    for (size_t c = 0; c < sizeof variants / sizeof *variants; c++) {
        int units = variants[c].units, lanes = variants[c].lanes;
        static char src[4096];
        char attr[160], variant[64], note[256];
        if (lanes > 1) {
            snprintf(attr, sizeof attr, "__attribute__((num_simd_work_items(%d))) "
                     "__attribute__((reqd_work_group_size(256, 1, 1)))", lanes);
            snprintf(src, sizeof src, ndrange_fmt, attr, attr, attr, attr);
            snprintf(variant, sizeof variant, "NDRange, %d SIMD work-items", lanes);
        } else if (units) {
            snprintf(attr, sizeof attr, "__attribute__((num_compute_units(%d)))", units);
            snprintf(src, sizeof src, ndrange_fmt, attr, attr, attr, attr);
            snprintf(variant, sizeof variant, "NDRange, %d compute unit%s", units,
                     units > 1 ? "s" : "");
        } else {
            snprintf(src, sizeof src, "%s", task_src);
            snprintf(variant, sizeof variant, "task loop, unroll 16");
        }
        double build;
        cl_program p = bench_build(&b, "stream", src, &build, note, sizeof note);
        if (!p) {
            printf("| %s | | | | | | | %s |\n", variant, note);
            status = 1;
            continue;
        }
        status |= run_program(&b, p, variant, units, build, peak, ports);
        clReleaseProgram(p);
    }
    return bench_close(&b) || status;
}
