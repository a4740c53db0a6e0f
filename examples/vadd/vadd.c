/* A plain OpenCL 1.2 host program with nothing clhls-specific: takes the first platform
 * and device, builds the kernel source given as argv[1] (default vadd.cl next to the
 * program's source), adds two vectors of argv[2] floats (default 65536) on a profiling
 * queue, checks the result against the host and prints the kernel's device time.
 *   usage: vadd [kernel.cl] [n] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : VADD_DEFAULT_CL;
    size_t n = argc > 2 ? strtoul(argv[2], NULL, 0) : 65536;
    char *source = read_file(path);
    if (!source || n == 0) {
        fprintf(stderr, "usage: %s [kernel.cl] [n]  (cannot read %s)\n", argv[0], path);
        return 1;
    }

    cl_platform_id platform;
    cl_device_id device;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    char pname[256], dname[256];
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname, dname, NULL));
    printf("platform: %s\ndevice:   %s\n", pname, dname);

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
        char *log = malloc(len + 1);
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        log[len] = 0;
        fprintf(stderr, "build failed:\n%s\n", log);
        free(log);
        clReleaseProgram(prog);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
        free(source);
        printf("FAILED\n");
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "vadd", &err);
    CHECK(err);

    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1000.0f - (float)i;
        c[i] = -1.0f;
    }
    size_t bytes = n * sizeof(float);
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));

    /* write a, write b, the kernel, read c: each with its event for profiling */
    cl_event ev[4];
    CHECK(clEnqueueWriteBuffer(q, da, CL_FALSE, 0, bytes, a, 0, NULL, &ev[0]));
    CHECK(clEnqueueWriteBuffer(q, db, CL_FALSE, 0, bytes, b, 0, NULL, &ev[1]));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev[2]));
    CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, &ev[3]));
    cl_int status;
    CHECK(clGetEventInfo(ev[2], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));

    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (fabsf(c[i] - (a[i] + b[i])) > 1e-6f * fabsf(a[i] + b[i]) + 1e-6f)
            bad++;
    printf("results: %zu of %zu elements correct\n", n - bad, n);

    if (status == CL_COMPLETE) {
        static const char *const names[4] = {"write a", "write b", "kernel vadd", "read c"};
        cl_ulong first = 0;
        printf("%-12s %12s %12s %12s %12s\n", "command", "queued(us)", "start(us)",
               "end(us)", "duration(us)");
        for (int i = 0; i < 4; i++) {
            cl_ulong queued, start, end;
            CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_QUEUED, sizeof queued,
                                          &queued, NULL));
            CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start,
                                          &start, NULL));
            CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof end, &end,
                                          NULL));
            if (i == 0)
                first = queued;
            printf("%-12s %12.3f %12.3f %12.3f %12.3f\n", names[i], (queued - first) / 1e3,
                   (start - first) / 1e3, (end - first) / 1e3, (end - start) / 1e3);
        }
        cl_ulong start, end;
        CHECK(clGetEventProfilingInfo(ev[2], CL_PROFILING_COMMAND_START, sizeof start, &start,
                                      NULL));
        CHECK(clGetEventProfilingInfo(ev[2], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
        printf("vadd of %zu floats: kernel device time %.3f us, %.2f Gelem/s\n", n,
               (double)(end - start) / 1e3, (double)n / (double)(end - start));
    } else {
        printf("kernel failed with status %d\n", status);
    }
    printf("%s\n", bad == 0 && status == CL_COMPLETE ? "PASSED" : "FAILED");

    for (int i = 0; i < 4; i++)
        clReleaseEvent(ev[i]);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(a);
    free(b);
    free(c);
    free(source);
    return bad == 0 && status == CL_COMPLETE ? 0 : 1;
}
