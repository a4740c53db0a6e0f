/* A 3x3 box blur of a W x H float image (default 638 x 478) in 16 x 16 work-groups that
 * stage their tile and its one-pixel halo in __local memory; pixels beyond the border
 * repeat the edge. 638 and 478 are not multiples of 16: the program is built as OpenCL
 * C 2.0 (-cl-std=CL2.0) and enqueues exactly W x H work-items, so the last column and
 * row of work-groups are smaller (non-uniform work-groups). A second kernel reports
 * each group's get_local_size and get_enqueued_local_size; the program prints them for
 * the four corner groups and checks them for all. Every output pixel is compared bit
 * for bit with a host blur that adds in the kernel's order.
 *   usage: box_blur [box_blur.cl] [W H] */
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

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int main(int argc, char **argv)
{
    enum { T = 16 };
    const char *path = argc > 1 ? argv[1] : EXAMPLE_CL;
    int w = argc > 3 ? atoi(argv[2]) : 638, h = argc > 3 ? atoi(argv[3]) : 478;
    char *source = read_file(path);
    if (!source || w <= 0 || h <= 0) {
        fprintf(stderr, "usage: %s [box_blur.cl] [W H]  (cannot read %s)\n", argv[0], path);
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
    if (clBuildProgram(prog, 1, &device, "-cl-std=CL2.0", NULL, NULL) != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = xmalloc(len + 1);
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        log[len] = 0;
        fprintf(stderr, "build failed:\n%s\nFAILED\n", log);
        return 1;
    }

    /* The image: a smooth pattern plus noise, and the host's blur (the same order of
     * additions as the kernel, then / 9). */
    size_t pixels = (size_t)w * (size_t)h;
    float *img = xmalloc(pixels * sizeof *img), *want = xmalloc(pixels * sizeof *want);
    float *out = xmalloc(pixels * sizeof *out);
    unsigned seed = 77;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            seed = seed * 1103515245u + 12345u;
            img[(size_t)y * w + x] = (float)((x * 7 + y * 3) % 256) / 255.0f +
                                     (float)((seed >> 16) % 1000) / 10000.0f;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += img[(size_t)clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
            want[(size_t)y * w + x] = s / 9.0f;
        }

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                pixels * sizeof *img, img, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, pixels * sizeof *out, NULL, &err);
    CHECK(err);
    size_t global[2] = {(size_t)w, (size_t)h}, local[2] = {T, T};
    size_t gx = ((size_t)w + T - 1) / T, gy = ((size_t)h + T - 1) / T, groups = gx * gy;
    cl_mem dinfo = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, groups * 4 * sizeof(int), NULL, &err);
    CHECK(err);

    cl_kernel blur = clCreateKernel(prog, "box_blur", &err);
    CHECK(err);
    cl_int cw = w, ch = h;
    CHECK(clSetKernelArg(blur, 0, sizeof din, &din));
    CHECK(clSetKernelArg(blur, 1, sizeof dout, &dout));
    CHECK(clSetKernelArg(blur, 2, sizeof cw, &cw));
    CHECK(clSetKernelArg(blur, 3, sizeof ch, &ch));
    double cycles = run_2d(q, blur, global, local, mhz);
    CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, pixels * sizeof *out, out, 0, NULL, NULL));
    int failed = 0;
    size_t bad = 0;
    for (size_t i = 0; i < pixels; i++)
        if (bits(out[i]) != bits(want[i]) && bad++ < 3)
            fprintf(stderr, "box_blur: pixel (%zu, %zu) = %a, host %a\n", i % (size_t)w,
                    i / (size_t)w, out[i], want[i]);
    if (bad) {
        fprintf(stderr, "box_blur: %zu of %zu pixels differ from the host\n", bad, pixels);
        failed = 1;
    }

    cl_kernel sizes = clCreateKernel(prog, "group_sizes", &err);
    CHECK(err);
    CHECK(clSetKernelArg(sizes, 0, sizeof dinfo, &dinfo));
    run_2d(q, sizes, global, local, mhz);
    int *info = xmalloc(groups * 4 * sizeof *info);
    CHECK(clEnqueueReadBuffer(q, dinfo, CL_TRUE, 0, groups * 4 * sizeof *info, info, 0, NULL,
                              NULL));
    for (size_t g = 0; g < groups; g++) {
        size_t bx = g % gx, by = g / gx;
        int sx = (int)(bx + 1 < gx ? T : (size_t)w - bx * T);
        int sy = (int)(by + 1 < gy ? T : (size_t)h - by * T);
        if (info[4 * g] != sx || info[4 * g + 1] != sy || info[4 * g + 2] != T ||
            info[4 * g + 3] != T) {
            fprintf(stderr, "group (%zu, %zu): local size %d x %d, enqueued %d x %d; expected "
                    "%d x %d, enqueued %d x %d\n", bx, by, info[4 * g], info[4 * g + 1],
                    info[4 * g + 2], info[4 * g + 3], sx, sy, T, T);
            failed = 1;
        }
    }

    printf("3x3 box blur of a %d x %d image: %zu x %zu work-groups of %d x %d enqueued\n", w, h,
           gx, gy, T, T);
    printf("| %-21s | %-14s | %-23s |\n", "corner work-group", "get_local_size",
           "get_enqueued_local_size");
    printf("|-----------------------|----------------|-------------------------|\n");
    size_t corners[4][2] = {{0, 0}, {gx - 1, 0}, {0, gy - 1}, {gx - 1, gy - 1}};
    static const char *const where[4] = {"top left", "top right", "bottom left", "bottom right"};
    for (int c = 0; c < 4; c++) {
        size_t g = corners[c][1] * gx + corners[c][0];
        char id[32], ls[32], els[32];
        snprintf(id, sizeof id, "(%zu, %zu)", corners[c][0], corners[c][1]);
        snprintf(ls, sizeof ls, "%d x %d", info[4 * g], info[4 * g + 1]);
        snprintf(els, sizeof els, "%d x %d", info[4 * g + 2], info[4 * g + 3]);
        printf("| %-12s %-8s | %14s | %23s |\n", where[c], id, ls, els);
    }
    printf("box_blur: %.0f simulated cycles, %.2f cycles/pixel\n", cycles,
           cycles / (double)pixels);
    printf("results: %s\n", failed ? "WRONG (see above)"
                                   : "every pixel matches the host bit for bit");
    printf("%s\n", failed ? "FAILED" : "PASSED");

    clReleaseKernel(blur);
    clReleaseKernel(sizes);
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dinfo);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(img);
    free(want);
    free(out);
    free(info);
    free(source);
    return failed;
}
