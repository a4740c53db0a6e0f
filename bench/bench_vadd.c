/* Vector-add benchmark through the ICD: cold build (empty cache), build with only the
 * design new, warm build (cache hit), then the kernel at 65,536 work-items: simulated
 * cycles, cycles per work-item against the bound of 1, and simulation speed in
 * simulated cycles per wall second. Prints a table; asserts nothing. */
#define _GNU_SOURCE
#include "bench.h"
#include "kernels.h"

#include <unistd.h>

#define N 65536

/* Builds `src` and returns the program and the seconds clBuildProgram took. */
static cl_program build(cl_context ctx, cl_device_id dev, const char *src, double *seconds)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK(err);
    double t0 = now();
    CHECK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    *seconds = now() - t0;
    return p;
}

int main(void)
{
    setenv("OCL_ICD_VENDORS", ICD_FILE, 0);
    char cache[] = "/tmp/clhls-bench-XXXXXX";
    if (!mkdtemp(cache))
        return 1;
    setenv("CLHLS_CACHE_DIR", cache, 1);

    cl_platform_id platform;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_uint mhz;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);

    double cold, new_design, warm;
    cl_program p = build(ctx, dev, vadd_src, &cold);
    char other[1024];
    snprintf(other, sizeof other, "// variant\n%s", vadd_src);
    clReleaseProgram(build(ctx, dev, other, &new_design));
    clReleaseProgram(build(ctx, dev, vadd_src, &warm));

    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
    }
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * 4, a, &err);
    cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * 4, b, &err);
    cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * 4, NULL, &err);
    CHECK(err);
    cl_kernel k = clCreateKernel(p, "vadd", &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
    size_t global = N, local = 256;
    cl_event ev;
    CHECK(clFinish(q));
    double t0 = now();
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    double wall = now() - t0;
    cl_ulong start, end;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, N * 4, c, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != a[i] + b[i];

    double cycles = (double)(end - start) * mhz / 1000.0;
    printf("vadd, %d work-items, work-group 256, default board (%u MHz)%s\n", N, mhz,
           bad ? "  RESULTS WRONG" : "");
    printf("| metric                               | value      | goal    |\n");
    printf("|--------------------------------------|------------|---------|\n");
    printf("| simulated cycles                     | %10.0f |         |\n", cycles);
    printf("| cycles per work-item                 | %10.3f | <= 1.1  |\n", cycles / N);
    printf("| simulation speed (cycles/s)          | %10.0f | >= 2e6  |\n", cycles / wall);
    printf("| device time (us)                     | %10.1f |         |\n", (end - start) / 1e3);
    printf("| cold build, empty cache (s)          | %10.2f | <= 30   |\n", cold);
    printf("| build of a new design (s)            | %10.2f | <= 30   |\n", new_design);
    printf("| warm build, cache hit (s)            | %10.3f | <= 0.5  |\n", warm);

    clReleaseEvent(ev);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(a);
    free(b);
    free(c);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
    return system(cmd) != 0 || bad;
}
