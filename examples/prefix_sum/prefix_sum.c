/* Exclusive prefix sums of N ints (default 4096) in work-groups of G (default 256),
 * three ways, all in one program built as OpenCL C 2.0: a naive kernel (each work-item
 * loops over the elements before it), the work-efficient Blelloch scan (up-sweep and
 * down-sweep in a padded __local argument, barriers inside loops), and OpenCL C 2.0's
 * work_group_scan_exclusive_add with work_group_broadcast of the group's total. Each
 * kernel writes the per-group scans and the group totals; the host then adds the
 * scanned totals to finish the scan of the whole array (the usual second pass). Every
 * output is checked against a host scan; the table shows each kernel's simulated
 * cycles.
 *   usage: prefix_sum [prefix_sum.cl] [N] [G, a power of two dividing N] */
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

/* Builds source with options; prints the build log and returns NULL on failure. */
static cl_program build(cl_context ctx, cl_device_id device, const char *source,
                        const char *options)
{
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &device, options, NULL, NULL) == CL_SUCCESS)
        return prog;
    size_t len = 0;
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = xmalloc(len + 1);
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = 0;
    fprintf(stderr, "build with \"%s\" failed:\n%s\n", options, log);
    free(log);
    clReleaseProgram(prog);
    return NULL;
}

/* Runs k over a 1-D range and returns its simulated cycles: the event's device time
 * (END - START, in ns) at the device clock. Exits when the kernel fails. */
static double run_1d(cl_command_queue q, cl_kernel k, size_t global, size_t local,
                     cl_uint mhz)
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
    size_t n = argc > 2 ? strtoul(argv[2], NULL, 0) : 4096;
    size_t wg = argc > 3 ? strtoul(argv[3], NULL, 0) : 256;
    char *source = read_file(path);
    if (!source || wg == 0 || (wg & (wg - 1)) || n == 0 || n % wg) {
        fprintf(stderr, "usage: %s [prefix_sum.cl] [N] [G, a power of two dividing N]  "
                "(cannot read %s)\n", argv[0], path);
        return 1;
    }
    size_t groups = n / wg;

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
    cl_program prog = build(ctx, device, source, "-cl-std=CL2.0");
    if (!prog) {
        printf("FAILED\n");
        return 1;
    }

    /* Input and host references: the scan within each group, the group totals, and
     * the scan of the whole array. */
    int *in = xmalloc(n * sizeof *in), *want = xmalloc(n * sizeof *want);
    int *want_sums = xmalloc(groups * sizeof *want_sums), *want_all = xmalloc(n * sizeof *want_all);
    unsigned seed = 2024;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        in[i] = (int)((seed >> 16) % 2001) - 1000;
    }
    int all = 0;
    for (size_t grp = 0; grp < groups; grp++) {
        int s = 0;
        for (size_t l = 0; l < wg; l++) {
            want[grp * wg + l] = s;
            want_all[grp * wg + l] = all;
            s += in[grp * wg + l];
            all += in[grp * wg + l];
        }
        want_sums[grp] = s;
    }

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *in,
                                in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dsums = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, groups * sizeof(int), NULL, &err);
    CHECK(err);

    enum { NK = 3 };
    static const char *const names[NK] = {"scan_naive", "scan_blelloch", "scan_wg"};
    double cycles[NK];
    int *out = xmalloc(n * sizeof *out), *sums = xmalloc(groups * sizeof *sums);
    int failed = 0;
    for (int i = 0; i < NK; i++) {
        cl_kernel k = clCreateKernel(prog, names[i], &err);
        CHECK(err);
        CHECK(clSetKernelArg(k, 0, sizeof din, &din));
        CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
        CHECK(clSetKernelArg(k, 2, sizeof dsums, &dsums));
        if (i == 1) /* the padded tree: PAD(G - 1) + 1 ints, PAD(i) = i + i / 8 */
            CHECK(clSetKernelArg(k, 3, (wg + (wg - 1) / 8) * sizeof(int), NULL));
        int fill = 0x7eadbeef;
        CHECK(clEnqueueFillBuffer(q, dout, &fill, sizeof fill, 0, n * sizeof(int), 0, NULL, NULL));
        CHECK(clEnqueueFillBuffer(q, dsums, &fill, sizeof fill, 0, groups * sizeof(int), 0, NULL,
                                  NULL));
        cycles[i] = run_1d(q, k, n, wg, mhz);
        CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, dsums, CL_TRUE, 0, groups * sizeof *sums, sums, 0, NULL,
                                  NULL));
        /* The second pass, on the host: group g adds the totals of the groups before it. */
        size_t bad = 0;
        int base = 0;
        for (size_t grp = 0; grp < groups; grp++) {
            if (sums[grp] != want_sums[grp] && bad++ < 3)
                fprintf(stderr, "%s: sums[%zu] = %d, expected %d\n", names[i], grp, sums[grp],
                        want_sums[grp]);
            for (size_t l = 0; l < wg; l++) {
                size_t j = grp * wg + l;
                if ((out[j] != want[j] || base + out[j] != want_all[j]) && bad++ < 3)
                    fprintf(stderr, "%s: out[%zu] = %d, expected %d\n", names[i], j, out[j],
                            want[j]);
            }
            base += sums[grp];
        }
        if (bad) {
            fprintf(stderr, "%s: %zu wrong values\n", names[i], bad);
            failed = 1;
        }
        clReleaseKernel(k);
    }

    printf("exclusive scan of %zu ints in %zu work-groups of %zu\n", n, groups, wg);
    printf("| kernel        | sim cycles | cycles/element | speed-up |\n");
    printf("|---------------|------------|----------------|----------|\n");
    for (int i = 0; i < NK; i++)
        printf("| %-13s | %10.0f | %14.2f | %7.2fx |\n", names[i], cycles[i],
               cycles[i] / (double)n, cycles[0] / cycles[i]);
    printf("first elements: in  %6d %6d %6d %6d %6d ...\n", in[0], in[1], in[2], in[3], in[4]);
    printf("                out %6d %6d %6d %6d %6d ...; total of all %zu: %d\n", want_all[0],
           want_all[1], want_all[2], want_all[3], want_all[4], n, all);
    printf("results: %s\n", failed ? "WRONG (see above)" : "all three kernels match the host");
    printf("%s\n", failed ? "FAILED" : "PASSED");

    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dsums);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(in);
    free(want);
    free(want_sums);
    free(want_all);
    free(out);
    free(sums);
    free(source);
    return failed;
}
