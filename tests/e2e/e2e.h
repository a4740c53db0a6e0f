/* Helpers shared by the end-to-end tests: plain OpenCL host code (through libOpenCL and
 * the ocl-icd loader) that builds one program of several kernels, runs NDRanges and
 * compares with host references. A failed check prints where and exits at once with
 * status 1 (_Exit: the leak checker has nothing useful to say about an aborted test). */
#ifndef CLHLS_E2E_H
#define CLHLS_E2E_H

#ifndef CL_TARGET_OPENCL_VERSION /* a test of 2.0's API says so first */
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);  \
            _Exit(1);                                                                 \
        }                                                                             \
    } while (0)
#define CL_OK(call)                                                                   \
    do {                                                                              \
        cl_int e_ = (call);                                                           \
        if (e_ != CL_SUCCESS) {                                                       \
            fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, e_);      \
            _Exit(1);                                                                 \
        }                                                                             \
    } while (0)

/* The environment of one test: first platform, first device, a profiling queue. */
typedef struct e2e_env {
    cl_platform_id platform;    /* the platform */
    cl_device_id device;        /* the device */
    cl_context ctx;             /* a context on it */
    cl_command_queue queue;     /* in-order, profiling */
} e2e_env;

static inline void e2e_init(e2e_env *env)
{
    CL_OK(clGetPlatformIDs(1, &env->platform, NULL));
    CL_OK(clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL, 1, &env->device, NULL));
    cl_int err;
    env->ctx = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
    CL_OK(err);
    env->queue = clCreateCommandQueue(env->ctx, env->device, CL_QUEUE_PROFILING_ENABLE, &err);
    CL_OK(err);
}

static inline void e2e_fini(e2e_env *env)
{
    clReleaseCommandQueue(env->queue);
    clReleaseContext(env->ctx);
}

/* Builds src with options; on failure prints the log and exits (expect_ok) or returns
 * NULL with the status in *status. */
static inline cl_program e2e_build(e2e_env *env, const char *src, const char *options,
                                   int expect_ok, cl_int *status)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(env->ctx, 1, &src, NULL, &err);
    CL_OK(err);
    err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
    if (status)
        *status = err;
    if (err != CL_SUCCESS && expect_ok) {
        size_t len = 0;
        clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = calloc(1, len + 1);
        clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", err, log);
        free(log);
        _Exit(1);
    }
    return p;
}

static inline char *e2e_build_log(e2e_env *env, cl_program p)
{
    size_t len = 0;
    CL_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len));
    char *log = calloc(1, len + 1);
    CL_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, len, log, NULL));
    return log;
}

static inline cl_mem e2e_buffer(e2e_env *env, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env->ctx, init ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, bytes,
                              (void *)init, &err);
    CL_OK(err);
    return m;
}

/* Runs k over an NDRange and waits; returns the event's final status. */
static inline cl_int e2e_run(e2e_env *env, cl_kernel k, cl_uint dim, const size_t *offset,
                             const size_t *global, const size_t *local)
{
    cl_event ev;
    CL_OK(clEnqueueNDRangeKernel(env->queue, k, dim, offset, global, local, 0, NULL, &ev));
    clWaitForEvents(1, &ev);
    cl_int st;
    CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st == CL_COMPLETE) {
        cl_ulong t0, t1;
        CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
        CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
        EXPECT(t1 > t0);
    }
    clReleaseEvent(ev);
    return st;
}

/* Runs k over `global` work-items in groups of `local`, which must complete; returns
 * its duration in ns (END - START: the simulated cycles at the board's clock). */
static inline cl_ulong e2e_run_timed(e2e_env *env, cl_kernel k, size_t global, size_t local)
{
    cl_event ev;
    CL_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CL_OK(clWaitForEvents(1, &ev));
    cl_int st;
    CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    EXPECT(st == CL_COMPLETE);
    cl_ulong t0, t1;
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    clReleaseEvent(ev);
    return t1 - t0;
}

/* Runs k as a single work-item (clEnqueueTask) and waits; returns the event's final
 * status. */
static inline cl_int e2e_task(e2e_env *env, cl_kernel k)
{
    cl_event ev;
    CL_OK(clEnqueueTask(env->queue, k, 0, NULL, &ev));
    clWaitForEvents(1, &ev);
    cl_int st;
    CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    clReleaseEvent(ev);
    return st;
}

/* Kernel `name` of program p. */
static inline cl_kernel e2e_kernel(cl_program p, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CL_OK(err);
    return k;
}
#define E2E_ARG(k, i, v) CL_OK(clSetKernelArg((k), (i), sizeof(v), &(v)))

/* A buffer of `count` ints, each `value` (outputs a kernel must leave alone keep it). */
static inline cl_mem e2e_filled_buffer(e2e_env *env, size_t count, int value)
{
    int *t = malloc(count * sizeof *t);
    EXPECT(t);
    for (size_t i = 0; i < count; i++)
        t[i] = value;
    cl_mem m = e2e_buffer(env, count * sizeof *t, t);
    free(t);
    return m;
}

/* xorshift32: the next pseudo-random number of *state. */
static inline unsigned e2e_xorshift(unsigned *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* The bits of a float. */
static inline unsigned e2e_fbits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline void e2e_read(e2e_env *env, cl_mem m, size_t bytes, void *dst)
{
    CL_OK(clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
}

#endif
