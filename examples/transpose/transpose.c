/* Matrix transpose, naive against a __local tile: a W x H float matrix (default
 * 256 x 256) is transposed once by a kernel that stores each element straight to its
 * transposed place (the stores stride down columns), once by a kernel whose 16 x 16
 * work-groups stage a tile in __local memory (16 x 17, padded against bank conflicts)
 * so that both the loads and the stores walk along rows. Both kernels are in one
 * program. The results are compared with the host's transpose; the table shows each
 * kernel's simulated cycles and its memory requests (64-byte lines read or written).
 *
 * What to expect on the default board (sim_dc): its memory takes one request per cycle
 * and a kernel's pipeline one work-item per cycle. The naive kernel needs about 1.06
 * requests per element, so it runs at about that rate: the uncoalesced stores cost it
 * little here, but they keep the memory port busy all the time. The tiled kernel needs
 * 8.5 times fewer requests, leaving the memory to other work, at about the same rate
 * (1.07 cycles per element): a work-group's work-items wait at the barrier for the
 * group's loads (the memory latency), which the four work-groups a compute unit keeps
 * in flight mostly hide.
 *   usage: transpose [transpose.cl] [W H, multiples of 16] */
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
    int w = argc > 3 ? atoi(argv[2]) : 256, h = argc > 3 ? atoi(argv[3]) : 256;
    char *source = read_file(path);
    if (!source || w <= 0 || h <= 0 || w % 16 || h % 16) {
        fprintf(stderr, "usage: %s [transpose.cl] [W H, multiples of 16]  (cannot read %s)\n",
                argv[0], path);
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

    size_t elems = (size_t)w * (size_t)h, bytes = elems * sizeof(float);
    float *in = xmalloc(bytes), *out = xmalloc(bytes);
    for (size_t i = 0; i < elems; i++)
        in[i] = (float)i * 0.25f - 1000.0f; /* distinct, exactly representable */
    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);

    /* Memory requests: the board's memory moves 64-byte lines (16 floats). Both kernels
     * read 16 floats per line; the naive kernel's stores need a line each, the tiled
     * kernel's 16 per line. */
    static const char *const names[2] = {"transpose_naive", "transpose_tiled"};
    double requests[2] = {(double)elems / 16.0 + (double)elems, (double)elems / 8.0};
    double cycles[2];
    int failed = 0;
    for (int i = 0; i < 2; i++) {
        cl_kernel k = clCreateKernel(prog, names[i], &err);
        CHECK(err);
        cl_int cw = w, ch = h;
        CHECK(clSetKernelArg(k, 0, sizeof din, &din));
        CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
        CHECK(clSetKernelArg(k, 2, sizeof cw, &cw));
        CHECK(clSetKernelArg(k, 3, sizeof ch, &ch));
        float poison = -1.0f;
        CHECK(clEnqueueFillBuffer(q, dout, &poison, sizeof poison, 0, bytes, 0, NULL, NULL));
        size_t global[2] = {(size_t)w, (size_t)h}, local[2] = {16, 16};
        cycles[i] = run_2d(q, k, global, local, mhz);
        CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
        size_t bad = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (out[(size_t)x * h + y] != in[(size_t)y * w + x] && bad++ == 0)
                    fprintf(stderr, "%s: out[%d][%d] = %g, expected %g\n", names[i], x, y,
                            out[(size_t)x * h + y], in[(size_t)y * w + x]);
        if (bad) {
            fprintf(stderr, "%s: %zu of %zu elements wrong\n", names[i], bad, elems);
            failed = 1;
        }
        clReleaseKernel(k);
    }

    printf("transpose of a %d x %d float matrix, 16 x 16 work-groups\n", w, h);
    printf("| kernel          | sim cycles | cycles/element | memory requests | speed-up |\n");
    printf("|-----------------|------------|----------------|-----------------|----------|\n");
    for (int i = 0; i < 2; i++)
        printf("| %-15s | %10.0f | %14.2f | %15.0f | %7.2fx |\n", names[i], cycles[i],
               cycles[i] / (double)elems, requests[i], cycles[0] / cycles[i]);
    printf("results: %s\n", failed ? "WRONG (see above)" : "both kernels match the host");
    printf("%s\n", failed ? "FAILED" : "PASSED");

    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(in);
    free(out);
    free(source);
    return failed;
}
