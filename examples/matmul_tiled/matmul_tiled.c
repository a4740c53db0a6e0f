/* Matrix multiply with __local tiles: C = A x B for N x N floats (default 64), once with
 * a naive kernel that reads A and B from global memory for every product, once with a
 * tiled kernel whose 16 x 16 work-groups stage 16 x 16 tiles of A and B in __local
 * memory, with barriers inside the tile loop. Both kernels are in one program (the
 * hardware is built once). Every element of C is compared bit for bit with a host loop
 * that adds the products in the same order (kernels and host without fused
 * multiply-add); the program prints each kernel's simulated cycles and global memory
 * traffic. CLHLS_VERBOSE=1 also prints the hardware counters, among them the __local
 * bank conflicts (local_conflicts).
 *   usage: matmul_tiled [matmul_tiled.cl] [N, a multiple of 16] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
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

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : EXAMPLE_CL;
    int n = argc > 2 ? atoi(argv[2]) : 64;
    char *source = read_file(path);
    if (!source || n <= 0 || n % 16) {
        fprintf(stderr, "usage: %s [matmul_tiled.cl] [N, a multiple of 16]  (cannot read %s)\n",
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

    /* Inputs: random multiples of 1/64 in [-2, 2); the sums still round, so the check
     * relies on the host adding in the kernels' order. */
    size_t elems = (size_t)n * (size_t)n, bytes = elems * sizeof(float);
    float *a = xmalloc(bytes), *b = xmalloc(bytes), *want = xmalloc(bytes), *c = xmalloc(bytes);
    unsigned seed = 12345;
    for (size_t i = 0; i < elems; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = (float)((int)(seed >> 16) % 256 - 128) / 64.0f;
        seed = seed * 1103515245u + 12345u;
        b[i] = (float)((int)(seed >> 16) % 256 - 128) / 64.0f + 1.0f / 3.0f;
    }
    for (int r = 0; r < n; r++)
        for (int col = 0; col < n; col++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += a[r * n + k] * b[k * n + col];
            want[r * n + col] = acc;
        }

    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);

    static const char *const names[2] = {"matmul_naive", "matmul_tiled"};
    /* Global memory traffic in the kernels: the naive one loads 2N floats per element
     * of C, the tiled one 2N/16; both store each element of C once. */
    double loads[2] = {2.0 * n * (double)elems, 2.0 * n / 16.0 * (double)elems};
    double cycles[2];
    int failed = 0;
    for (int i = 0; i < 2; i++) {
        cl_kernel k = clCreateKernel(prog, names[i], &err);
        CHECK(err);
        cl_int cn = n;
        CHECK(clSetKernelArg(k, 0, sizeof da, &da));
        CHECK(clSetKernelArg(k, 1, sizeof db, &db));
        CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
        CHECK(clSetKernelArg(k, 3, sizeof cn, &cn));
        size_t global[2] = {(size_t)n, (size_t)n}, local[2] = {16, 16};
        memset(c, 0xff, bytes);
        CHECK(clEnqueueWriteBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
        cycles[i] = run_2d(q, k, global, local, mhz);
        CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t j = 0; j < elems; j++)
            if (bits(c[j]) != bits(want[j])) {
                if (bad++ == 0)
                    fprintf(stderr, "%s: C[%zu][%zu] = %a, host %a\n", names[i], j / (size_t)n,
                            j % (size_t)n, c[j], want[j]);
            }
        if (bad) {
            fprintf(stderr, "%s: %zu of %zu elements differ from the host\n", names[i], bad,
                    elems);
            failed = 1;
        }
        clReleaseKernel(k);
    }

    printf("C = A x B, %d x %d floats, 16 x 16 work-groups\n", n, n);
    printf("| kernel       | sim cycles | cycles/element | global loads | speed-up |\n");
    printf("|--------------|------------|----------------|--------------|----------|\n");
    for (int i = 0; i < 2; i++)
        printf("| %-12s | %10.0f | %14.2f | %12.0f | %7.2fx |\n", names[i], cycles[i],
               cycles[i] / (double)elems, loads[i], cycles[0] / cycles[i]);
    printf("results: %s\n",
           failed ? "WRONG (see above)" : "both kernels match the host bit for bit");
    printf("(CLHLS_VERBOSE=1 prints each kernel's hardware counters, e.g. local_conflicts)\n");
    printf("%s\n", failed ? "FAILED" : "PASSED");

    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(a);
    free(b);
    free(c);
    free(want);
    free(source);
    return failed;
}
