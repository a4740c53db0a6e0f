/* Shared by the benchmark programs: the device every kernel runs on (found through the
 * ICD like any host program, with a build cache of its own so every hardware build is
 * timed), error checks, buffers, a wall clock, a pseudo-random generator and the
 * table cells. Header-only: each benchmark is one program. */
#ifndef CLHLS_BENCH_H
#define CLHLS_BENCH_H

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cl_int e_ = (call);                                                           \
        if (e_ != CL_SUCCESS) {                                                       \
            fprintf(stderr, "%s failed: %d\n", #call, e_);                            \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)
#define ARG(k, i, v) CHECK(clSetKernelArg((k), (i), sizeof(v), &(v)))

/* The platform, device and queue every kernel runs on. */
typedef struct bench {
    cl_device_id dev;           /* the device */
    cl_context ctx;             /* a context on it */
    cl_command_queue q;         /* in-order, profiling */
    cl_uint mhz;                /* the device's clock */
    char platform_name[128];    /* CL_PLATFORM_NAME */
    char device_name[128];      /* CL_DEVICE_NAME */
    char cache[256];            /* the build cache of this run */
    int own_cache;              /* bench_open made it (bench_close removes it) */
} bench;

/* Opens the first device of the first platform (the build tree's clhls.icd unless
 * OCL_ICD_VENDORS says otherwise), with the build cache `cache` (kept), or a fresh one
 * when it is NULL (removed by bench_close). */
static inline void bench_open_cache(bench *b, const char *icd_file, const char *cache)
{
    setenv("OCL_ICD_VENDORS", icd_file, 0);
    memset(b, 0, sizeof *b);
    snprintf(b->cache, sizeof b->cache, "%s", cache ? cache : "/tmp/clhls-bench-XXXXXX");
    if (!cache && !mkdtemp(b->cache)) {
        perror("mkdtemp");
        exit(1);
    }
    b->own_cache = !cache;
    setenv("CLHLS_CACHE_DIR", b->cache, 1);
    cl_platform_id platform;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &b->dev, NULL));
    CHECK(clGetDeviceInfo(b->dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof b->mhz, &b->mhz, NULL));
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof b->platform_name - 1, b->platform_name,
                      NULL);
    clGetDeviceInfo(b->dev, CL_DEVICE_NAME, sizeof b->device_name - 1, b->device_name, NULL);
    b->ctx = clCreateContext(NULL, 1, &b->dev, NULL, NULL, &err);
    CHECK(err);
    b->q = clCreateCommandQueue(b->ctx, b->dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
}

/* Opens the device with a fresh build cache. */
static inline void bench_open(bench *b, const char *icd_file)
{
    bench_open_cache(b, icd_file, NULL);
}

/* Releases the device's objects and removes the build cache bench_open made; returns
 * 0 when done. */
static inline int bench_close(bench *b)
{
    clReleaseCommandQueue(b->q);
    clReleaseContext(b->ctx);
    if (!b->own_cache)
        return 0;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", b->cache);
    return system(cmd) != 0;
}

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The platform whose CL_PLATFORM_NAME contains name, or NULL. */
static inline cl_platform_id bench_find_platform(const char *name)
{
    cl_platform_id ps[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ps, &n) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char buf[256] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof buf - 1, buf, NULL);
        if (strstr(buf, name))
            return ps[i];
    }
    return NULL;
}

/* The device cycles at mhz between a finished event's START and END. */
static inline double bench_event_cycles(cl_event ev, cl_uint mhz)
{
    cl_ulong start, end;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    return (double)(end - start) * mhz / 1000.0;
}

/* Releases a kernel's buffers (the non-NULL ones of n), the kernel and its program. */
static inline void bench_release(cl_kernel k, cl_program p, cl_mem *bufs, int n)
{
    for (int i = 0; i < n; i++)
        if (bufs[i])
            clReleaseMemObject(bufs[i]);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Builds the program of kernel `name` from src; *seconds gets the time clBuildProgram
 * took. On failure prints the build log, puts its first line in note and returns
 * NULL. */
static inline cl_program bench_build_options(bench *b, const char *name, const char *src,
                                             const char *options, double *seconds, char *note,
                                             size_t note_len)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(b->ctx, 1, &src, NULL, &err);
    CHECK(err);
    double t0 = now();
    err = clBuildProgram(p, 1, &b->dev, options, NULL, NULL);
    *seconds = now() - t0;
    if (err == CL_SUCCESS)
        return p;
    size_t len = 0;
    clGetProgramBuildInfo(p, b->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(1, len + 1);
    if (log)
        clGetProgramBuildInfo(p, b->dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    fprintf(stderr, "%s: build failed (%d):\n%s\n", name, err, log ? log : "");
    const char *first = log ? log : "";
    while (*first == '\n' || *first == ' ')
        first++;
    snprintf(note, note_len, "build failed (%d): %.*s", err, (int)strcspn(first, "\n"), first);
    free(log);
    clReleaseProgram(p);
    return NULL;
}

static inline cl_program bench_build(bench *b, const char *name, const char *src,
                                     double *seconds, char *note, size_t note_len)
{
    return bench_build_options(b, name, src, NULL, seconds, note, note_len);
}

static inline cl_mem buffer(bench *b, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(b->ctx, init ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR
                                           : CL_MEM_READ_WRITE,
                              bytes, (void *)init, &err);
    CHECK(err);
    return m;
}

static inline void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* xorshift32 from a fixed seed: the same inputs on every run. */
static unsigned bench_rng = 2463534242u;
static inline unsigned rnd(void)
{
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 17;
    bench_rng ^= bench_rng << 5;
    return bench_rng;
}

/* A table cell: v in fmt, or "n/a" when negative (not measured). */
static inline void cell(char *buf, size_t n, double v, const char *fmt)
{
    if (v < 0)
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, fmt, v);
}

#endif
