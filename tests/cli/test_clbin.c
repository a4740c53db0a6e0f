/* A host program for what `clhls build` makes (test_cli_binary.sh runs it):
 *   test_clbin FILE.clbin FILE.cl HIT_OPTIONS MISS_OPTIONS
 * loads the program binary that `clhls build -o` wrote with clCreateProgramWithBinary
 * through the ICD, runs its kernel `scale` (b[i] = SCALE * a[i] + OFFSET, SCALE 3 and
 * OFFSET 7) and checks every result; then builds FILE.cl from source with the options
 * `clhls build` was given (HIT_OPTIONS), runs and checks it again, and with other
 * options (MISS_OPTIONS). The script runs it with CLHLS_VERILATOR=/bin/false, where a
 * build that is not in the cache cannot make its model: the first source build must
 * succeed (a cache hit) and the second must fail (a miss), which shows that the check
 * can tell them apart. Prints PASS, or FAIL and why (exit 1). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 256

static int fail(const char *what, cl_int err)
{
    printf("FAIL: %s (error %d)\n", what, err);
    return 1;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    if (data)
        data[n] = 0;
    *len = (size_t)n;
    fclose(f);
    return data;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_log(cl_program p, cl_device_id dev)
{
    size_t len = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(1, len + 1);
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    printf("build log:\n%s\n", log);
    free(log);
}

/* Runs kernel `scale` of a built program over N items; 0 when every result is right. */
static int run_scale(cl_context ctx, cl_command_queue q, cl_program p)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, "scale", &err);
    if (!k)
        return fail("clCreateKernel", err);
    int a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = i - 100;
        b[i] = -1;
    }
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof b, NULL, &err);
    size_t global = N;
    int bad = !da || !db || clSetKernelArg(k, 0, sizeof da, &da) != CL_SUCCESS ||
              clSetKernelArg(k, 1, sizeof db, &db) != CL_SUCCESS ||
              clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) != CL_SUCCESS ||
              clEnqueueReadBuffer(q, db, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL) != CL_SUCCESS;
    if (bad)
        printf("FAIL: running the kernel\n");
    for (int i = 0; i < N && !bad; i++)
        if (b[i] != 3 * a[i] + 7) {
            printf("FAIL: b[%d] = %d, expected %d\n", i, b[i], 3 * a[i] + 7);
            bad = 1;
        }
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseKernel(k);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        printf("usage: test_clbin FILE.clbin FILE.cl HIT_OPTIONS MISS_OPTIONS\n");
        return 2;
    }
    size_t bin_len, src_len;
    unsigned char *bin = read_file(argv[1], &bin_len);
    char *src = (char *)read_file(argv[2], &src_len);
    if (!bin || !src) {
        printf("FAIL: cannot read %s or %s\n", argv[1], argv[2]);
        return 1;
    }
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err, status;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
        return fail("no clhls device", 0);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = ctx ? clCreateCommandQueue(ctx, dev, 0, &err) : NULL;
    if (!q)
        return fail("context and queue", err);

    /* The program binary of `clhls build -o`. */
    const unsigned char *bins[] = {bin};
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &bin_len, bins, &status, &err);
    if (!p || status != CL_SUCCESS)
        return fail("clCreateProgramWithBinary", err ? err : status);
    if ((err = clBuildProgram(p, 1, &dev, NULL, NULL, NULL)) != CL_SUCCESS) {
        print_log(p, dev);
        return fail("clBuildProgram of the binary", err);
    }
    if (run_scale(ctx, q, p))
        return 1;
    clReleaseProgram(p);

    /* The source with the options `clhls build` had: in the cache. */
    const char *srcs[] = {src};
    p = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
    double t0 = now();
    if ((err = clBuildProgram(p, 1, &dev, argv[3], NULL, NULL)) != CL_SUCCESS) {
        print_log(p, dev);
        return fail("clBuildProgram with the options of clhls build: not a cache hit", err);
    }
    double hit_seconds = now() - t0;
    if (run_scale(ctx, q, p))
        return 1;
    clReleaseProgram(p);

    /* Other options: not in the cache, and no Verilator to build them. */
    p = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
    err = clBuildProgram(p, 1, &dev, argv[4], NULL, NULL);
    if (err != CL_BUILD_PROGRAM_FAILURE) {
        print_log(p, dev);
        return fail("clBuildProgram with other options did not fail: the check cannot tell a "
                    "miss from a hit",
                    err);
    }
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(bin);
    free(src);
    printf("PASS (clBuildProgram from the cache in %.2f s)\n", hit_seconds);
    return 0;
}
