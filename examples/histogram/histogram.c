/* A 256-bin histogram with atomics: N random bytes (default 1 << 18, skewed so that
 * a few bins are hot) counted by a kernel whose work-items add to the global bins
 * directly (one global atomic per byte, executed at the memory side one at a time)
 * and by one that counts into __local bins per work-group (atomics in the local
 * memory's banks) and merges them with 256 global atomics per group. Both kernels are
 * in one program; the results are compared with the host's counts and the table shows
 * each kernel's simulated cycles and global atomics.
 *
 * What to expect on the default board (sim_dc): both kernels loop over about 16 bytes
 * per work-item, one loop iteration per cycle at best. The global version sends every
 * byte to memory as an atomic (the memory side executes one per cycle, whatever the
 * address): about 1.03 cycles per byte, and the memory port is busy all the time. The
 * local version runs at the same rate (a bank executes one atomic per cycle, the next
 * one on the same bin seeing the previous result) and sends 16 times fewer requests
 * to memory: on a board whose memory does not execute atomics at full rate, or with
 * other traffic, it is the one that scales.
 *   usage: histogram [histogram.cl] [N] */
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

/* Runs k over `global` work-items in groups of `local` and returns its simulated
 * cycles (the event's device time at the device clock). Exits when the kernel fails. */
static double run(cl_command_queue q, cl_kernel k, size_t global, size_t local, cl_uint mhz)
{
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
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
    int n = argc > 2 ? atoi(argv[2]) : 1 << 18;
    char *source = read_file(path);
    if (!source || n <= 0) {
        fprintf(stderr, "usage: %s [histogram.cl] [N]  (cannot read %s)\n", argv[0], path);
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

    unsigned char *data = xmalloc((size_t)n);
    unsigned seed = 12345, want[256] = {0}, got[256];
    for (int i = 0; i < n; i++) {
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        data[i] = (unsigned char)(seed % 5 == 0 ? 42 : seed >> 8); /* bin 42 is hot */
        want[data[i]]++;
    }
    cl_mem bdata = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)n, data,
                                  &err);
    CHECK(err);
    cl_mem bbins = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof got, NULL, &err);
    CHECK(err);

    static const char *const names[] = {"histogram_global", "histogram_local"};
    size_t global = 16384, local = 256;
    printf("%d bytes into 256 bins: %zu work-items in groups of %zu\n", n, global, local);
    printf("| kernel           | sim cycles | cycles/byte | global atomics | speed-up |\n"
           "|------------------|------------|-------------|----------------|----------|\n");
    double first = 0;
    int bad = 0;
    for (int v = 0; v < 2; v++) {
        cl_kernel k = clCreateKernel(prog, names[v], &err);
        CHECK(err);
        cl_uint zero = 0;
        CHECK(clEnqueueFillBuffer(q, bbins, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL));
        CHECK(clSetKernelArg(k, 0, sizeof bdata, &bdata));
        CHECK(clSetKernelArg(k, 1, sizeof bbins, &bbins));
        CHECK(clSetKernelArg(k, 2, sizeof n, &n));
        double cycles = run(q, k, global, local, mhz);
        CHECK(clEnqueueReadBuffer(q, bbins, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        for (int b = 0; b < 256; b++)
            if (got[b] != want[b] && !bad)
                bad = fprintf(stderr, "%s: bin %d = %u, expected %u\n", names[v], b, got[b],
                              want[b]);
        if (!v)
            first = cycles;
        printf("| %-16s | %10.0f | %11.2f | %14zu | %7.2fx |\n", names[v], cycles, cycles / n,
               v ? global / local * 256 : (size_t)n, first / cycles);
        clReleaseKernel(k);
    }
    printf(bad ? "results: WRONG\nFAILED\n" : "results: both kernels match the host's counts\n"
                                              "PASSED\n");
    clReleaseMemObject(bdata);
    clReleaseMemObject(bbins);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(data);
    free(source);
    return bad ? 1 : 0;
}
