/* Bank conflicts in __local memory: two kernels that differ only in the width of a
 * __local tile, 32 x 32 against 32 x 33. Each work-item stores 4 pixels of a row into
 * the tile and then reads 4 pixels of a column: in the 32-word-wide tile those 4 reads
 * hit one bank and take turns, in the padded tile they hit 4 banks and run together
 * (bank_conflicts.cl explains the banks). The kernels sum each group of 4 rows of a
 * W x H float image (default 512 x 128); both results are checked against the host.
 * The table shows cycles, work-items per cycle and __local accesses per cycle;
 * CLHLS_VERBOSE=1 prints the bank conflicts the hardware counted (local_conflicts).
 *   usage: bank_conflicts [bank_conflicts.cl] [W H, multiples of 32] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cl_int err_ = (call);                                                         \
        if (err_ != CL_SUCCESS) {                                                     \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, err_); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* Runs k over a 2-D range and returns its simulated cycles: the event's device time
 * (END - START, in ns) at the device clock. Exits when the kernel fails. */
static double run_2d(cl_command_queue q, cl_kernel k, const size_t *global,
                     const size_t *local, cl_uint mhz)
{
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    cl_int status;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    if (status != CL_COMPLETE) {
        fprintf(stderr, "kernel failed with status %d\nFAILED\n", status);
        exit(1);
    }
    cl_ulong start, end;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    clReleaseEvent(ev);
    return (double)(end - start) * mhz / 1000.0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : EXAMPLE_CL;
    int w = argc > 3 ? atoi(argv[2]) : 512, h = argc > 3 ? atoi(argv[3]) : 128;
    char *source = read_file(path);
    if (!source || w <= 0 || h <= 0 || w % 32 || h % 32) {
        fprintf(stderr, "usage: %s [bank_conflicts.cl] [W H, multiples of 32]  "
                "(cannot read %s)\n", argv[0], path);
        return 1;
    }

    cl_platform_id platform;
    cl_device_id device;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    char dname[256];
    cl_uint mhz;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname, dname, NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL));
    printf("device: %s (%u MHz)\n", dname, mhz);

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&source, NULL, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = xmalloc(len + 1);
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        log[len] = 0;
        fprintf(stderr, "build failed:\n%s\nFAILED\n", log);
        return 1;
    }

    /* Small integers: every sum is exact, whatever the order of the additions. */
    size_t elems = (size_t)w * (size_t)h, outs = elems / 4;
    float *in = xmalloc(elems * sizeof *in), *out = xmalloc(outs * sizeof *out);
    float *want = xmalloc(outs * sizeof *want);
    for (size_t i = 0; i < elems; i++)
        in[i] = (float)((i * 2654435761u) >> 24);
    for (int y = 0; y < h / 4; y++)
        for (int x = 0; x < w; x++) {
            const float *col = in + (size_t)(4 * y) * w + x; /* pixel (x, 4y) */
            want[(size_t)y * w + x] = col[0] + col[w] + col[2 * w] + col[3 * w];
        }
    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, elems * sizeof *in,
                                in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, outs * sizeof *out, NULL, &err);
    CHECK(err);

    static const char *const names[2] = {"column_sums_32", "column_sums_33"};
    static const char *const tiles[2] = {"32 x 32", "32 x 33"};
    double cycles[2];
    int failed = 0;
    for (int i = 0; i < 2; i++) {
        cl_kernel k = clCreateKernel(prog, names[i], &err);
        CHECK(err);
        cl_int cw = w;
        CHECK(clSetKernelArg(k, 0, sizeof din, &din));
        CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
        CHECK(clSetKernelArg(k, 2, sizeof cw, &cw));
        float poison = -1.0f;
        CHECK(clEnqueueFillBuffer(q, dout, &poison, sizeof poison, 0, outs * sizeof *out, 0,
                                  NULL, NULL));
        size_t global[2] = {(size_t)w, (size_t)h / 4}, local[2] = {32, 8};
        cycles[i] = run_2d(q, k, global, local, mhz);
        CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, outs * sizeof *out, out, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t j = 0; j < outs; j++)
            if (out[j] != want[j] && bad++ == 0)
                fprintf(stderr, "%s: out[%zu][%zu] = %g, expected %g\n", names[i], j / (size_t)w,
                        j % (size_t)w, out[j], want[j]);
        if (bad) {
            fprintf(stderr, "%s: %zu of %zu outputs wrong\n", names[i], bad, outs);
            failed = 1;
        }
        clReleaseKernel(k);
    }

    printf("sums of 4 rows of a %d x %d image: %zu work-items in groups of 32 x 8, each with\n"
           "4 __local stores along a row and 4 __local loads down a column\n", w, h, outs);
    printf("| kernel         | tile    | sim cycles | work-items/cycle | local accesses/cycle | "
           "speed-up |\n");
    printf("|----------------|---------|------------|------------------|----------------------|"
           "----------|\n");
    for (int i = 0; i < 2; i++)
        printf("| %-14s | %-7s | %10.0f | %16.2f | %20.2f | %7.2fx |\n", names[i], tiles[i],
               cycles[i], (double)outs / cycles[i], 8.0 * (double)outs / cycles[i],
               cycles[0] / cycles[i]);
    printf("results: %s\n", failed ? "WRONG (see above)" : "both kernels match the host");
    printf("Run with CLHLS_VERBOSE=1 to see the bank conflicts the hardware counted for each\n"
           "kernel (local_conflicts: accesses that waited a cycle for their bank).\n");
    printf("%s\n", failed ? "FAILED" : "PASSED");

    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(in);
    free(out);
    free(want);
    free(source);
    return failed;
}
