/* Compute units benchmark through the ICD: a compute-bound NDRange kernel (a
 * polynomial of STEPS multiply-adds per work-item, serial in each work-item) built with
 * 1, 2 and 4 compute units (num_compute_units), each in a program of its own from an
 * empty cache, so its clBuildProgram time is its own hardware build. Every run's output
 * is checked against the host. Prints one table; asserts nothing about time.
 *
 * Per count: simulated cycles (the event's END - START at the board clock), cycles per
 * work-item, the speed-up over one compute unit against the goal (1.9x for two,
 * 3.7x for four; N would be ideal) and the build seconds.
 * Against another OpenCL platform (OCL_ICD_VENDORS=...) the attribute is what that
 * platform makes of it. */
#include <stdint.h>

#include "bench.h"

#define N 16384      /* work-items */
#define LOCAL 64     /* work-group size */
#define STEPS 32     /* multiply-adds per work-item */

static const char *const src_fmt =
    "__attribute__((num_compute_units(%d)))\n"
    "__kernel void poly(__global const float *x, __global float *y, int steps)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float v = x[i], acc = 0.0f;\n"
    "    for (int s = 0; s < steps; s++)\n"
    "        acc = acc * v + (float)(s + 1);\n"
    "    y[i] = acc;\n"
    "}\n";

int main(void)
{
    bench b;
    bench_open(&b, ICD_FILE);
    float *x = xmalloc(N * sizeof *x), *y = xmalloc(N * sizeof *y), *ref = xmalloc(N * sizeof *ref);
    for (int i = 0; i < N; i++) {
        x[i] = (float)((int)(rnd() % 2001) - 1000) / 1024.0f;
        float acc = 0.0f;
        for (int s = 0; s < STEPS; s++)
            acc = acc * x[i] + (float)(s + 1);
        ref[i] = acc;
    }
    printf("compute units on %s (%s), %d work-items in groups of %d, %d steps each\n\n",
           b.device_name, b.platform_name, N, LOCAL, STEPS);
    printf("| compute units | cycles | cycles/work-item | speed-up | goal | build s | note |\n");
    printf("|---|---|---|---|---|---|---|\n");
    static const int counts[] = {1, 2, 4};
    static const double goal[] = {1.0, 1.9, 3.7};
    double one = -1;
    int status = 0;
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        char src[1024], note[256] = "";
        snprintf(src, sizeof src, src_fmt, counts[c]);
        double build;
        cl_program p = bench_build(&b, "poly", src, &build, note, sizeof note);
        double cycles = -1;
        if (p) {
            cl_int err;
            cl_kernel k = clCreateKernel(p, "poly", &err);
            CHECK(err);
            cl_mem bufs[2] = {buffer(&b, N * sizeof *x, x), buffer(&b, N * sizeof *y, NULL)};
            cl_int steps = STEPS;
            ARG(k, 0, bufs[0]);
            ARG(k, 1, bufs[1]);
            ARG(k, 2, steps);
            size_t global = N, local = LOCAL;
            cl_event ev;
            CHECK(clEnqueueNDRangeKernel(b.q, k, 1, NULL, &global, &local, 0, NULL, &ev));
            CHECK(clWaitForEvents(1, &ev));
            cycles = bench_event_cycles(ev, b.mhz);
            clReleaseEvent(ev);
            CHECK(clEnqueueReadBuffer(b.q, bufs[1], CL_TRUE, 0, N * sizeof *y, y, 0, NULL, NULL));
            if (memcmp(y, ref, N * sizeof *y)) {
                snprintf(note, sizeof note, "WRONG RESULTS");
                status = 1;
            }
            bench_release(k, p, bufs, 2);
        }
        if (counts[c] == 1)
            one = cycles;
        char cyc[32], per[32], speed[32], secs[32];
        cell(cyc, sizeof cyc, cycles, "%.0f");
        cell(per, sizeof per, cycles < 0 ? -1 : cycles / N, "%.3f");
        cell(speed, sizeof speed, cycles > 0 && one > 0 ? one / cycles : -1, "%.2fx");
        cell(secs, sizeof secs, build, "%.1f");
        printf("| %d | %s | %s | %s | %.1fx | %s | %s |\n", counts[c], cyc, per, speed, goal[c],
               secs, note);
    }
    free(x);
    free(y);
    free(ref);
    return bench_close(&b) || status;
}
