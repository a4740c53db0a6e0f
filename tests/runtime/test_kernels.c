/* Runtime tests that run kernels, through the real ocl-icd loader. One program of
 * several kernels (built once per build tree: every test process finds it in the shared
 * build cache) serves them all: buffer lifetimes with kernel arguments (the kernel does
 * not hold a buffer, an enqueued NDRange does), kernels on the profiling timeline and
 * transfers overlapping them there (the host-link and accelerator engines),
 * program binaries (round trip through an empty cache, corrupt, truncated and foreign
 * blobs), byte and short stores at odd addresses (cl_khr_byte_addressable_store),
 * CL_KERNEL_ATTRIBUTES, the absence of __IMAGE_SUPPORT__ in kernels, clCloneKernel and
 * the OpenCL 3.0 queries of a built program, NDRanges without work-items. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS /* clSetProgramReleaseCallback */
#include <CL/cl.h>
#include <criterion/criterion.h>

#include "runtime_test.h"
#include <dirent.h>
#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "board.h"

/* The program. The #error makes the whole build fail if the compiler lets kernels see
 * __IMAGE_SUPPORT__ (the devices have no images). */
static const char *source =
    "#ifdef __IMAGE_SUPPORT__\n"
    "#error \"__IMAGE_SUPPORT__ is defined, but the device has no images\"\n"
    "#endif\n"
    "__kernel void scale(__global const int *in, __global int *out, int k)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = in[i] * k;\n"
    "}\n"
    "__kernel void store_chars(__global char *out)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    out[3 * i + 1] = (char)(i + 1);\n"
    "}\n"
    "__kernel void store_shorts(__global short *out)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    out[3 * i + 1] = (short)(1000 + 7 * i);\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(4, 1, 1)))\n"
    "__attribute__((work_group_size_hint(4, 1, 1)))\n"
    "__attribute__((vec_type_hint(float4)))\n"
    "void attrs(__global int *out)\n"
    "{\n"
    "    out[get_global_id(0)] = 1;\n"
    "}\n";

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;  /* in-order, profiling */
static cl_program program;

static void setup(void)
{
    rt_test_open(&platform, &device, &ctx);
    cl_int err;
    queue = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    cr_assert_eq(err, CL_SUCCESS);
    program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    err = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
    if (err != CL_SUCCESS)
        rt_test_build_failed(device, program, err);
}

static void teardown(void)
{
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
}

/* The first test process builds the hardware (a Verilator build): minutes on a busy
 * machine. */
TestSuite(kernels, .init = setup, .fini = teardown, .timeout = 900);

static cl_kernel kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateKernel(%s): %d", name, err);
    return k;
}

static cl_mem buffer(cl_mem_flags flags, size_t size, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
    cr_assert_eq(err, CL_SUCCESS);
    return m;
}

/* ---- buffer lifetimes ---- */

static atomic_int destroyed;
static void CL_CALLBACK on_destroy(cl_mem m, void *data) { atomic_fetch_add(&destroyed, 1); }

/* clSetKernelArg does not keep a buffer alive (the Khronos CTS's
 * retain_mem_object_set_kernel_arg): released by the program, it is destroyed at once. */
Test(kernels, set_kernel_arg_does_not_retain)
{
    cl_kernel k = kernel("scale");
    cl_mem in = buffer(CL_MEM_READ_ONLY, 32, NULL);
    cr_assert_eq(clSetMemObjectDestructorCallback(in, on_destroy, NULL), 0);
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cl_uint refs;
    cr_assert_eq(clGetMemObjectInfo(in, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL), 0);
    cr_assert_eq(refs, 1, "the kernel holds no reference");
    /* Setting the argument again, or to another buffer, changes nothing either. */
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cr_assert_eq(clReleaseMemObject(in), 0);
    cr_assert_eq(atomic_load(&destroyed), 1, "the destructor callback ran at release");
    clReleaseKernel(k);
}

static cl_event kernel_event;
static atomic_int status_at_destroy = 1000;
static void CL_CALLBACK on_destroy_after_kernel(cl_mem m, void *data)
{
    cl_int st;
    clGetEventInfo(kernel_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    atomic_store(&status_at_destroy, st);
    atomic_fetch_add(&destroyed, 1);
}

/* An enqueued NDRange holds its buffers: released while the command waits, the input
 * lives until the kernel has run (with the right results) and is destroyed then. */
Test(kernels, enqueued_kernel_holds_its_buffers)
{
    enum { N = 256 };
    int data[N], back[N];
    for (int i = 0; i < N; i++)
        data[i] = i - 50;
    cl_kernel k = kernel("scale");
    cl_mem in = buffer(CL_MEM_COPY_HOST_PTR, sizeof data, data);
    cl_mem out = buffer(0, sizeof data, NULL);
    cr_assert_eq(clSetMemObjectDestructorCallback(in, on_destroy_after_kernel, NULL), 0);
    int factor = -3;
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof out, &out), 0);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof factor, &factor), 0);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err);
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 1, &gate,
                                        &kernel_event), 0);
    cr_assert_eq(clReleaseMemObject(in), 0);
    usleep(20000);
    cr_assert_eq(atomic_load(&destroyed), 0, "the waiting command holds the buffer");
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clFinish(queue), 0);
    cr_assert_eq(atomic_load(&destroyed), 1, "destroyed once the command completed");
    cr_assert_eq(atomic_load(&status_at_destroy), CL_COMPLETE);
    cr_assert_eq(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], data[i] * factor, "at %d", i);
    /* The kernel's argument now names a destroyed buffer: setting a new one is fine. */
    cl_mem in2 = buffer(CL_MEM_COPY_HOST_PTR, sizeof data, data);
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in2, &in2), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_eq(back[N - 1], data[N - 1] * factor);
    clReleaseEvent(kernel_event);
    clReleaseEvent(gate);
    clReleaseMemObject(in2);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* ---- NDRanges without work-items ---- */

/* A global size of 0 in any dimension, or a NULL global size, is a kernel command that
 * runs nothing (OpenCL 2.1; the Khronos CTS's zero_sized_enqueue): it waits for its
 * wait list, completes as CL_COMMAND_NDRANGE_KERNEL and writes nothing. */
Test(kernels, zero_sized_ndrange)
{
    enum { N = 16 };
    int zeros[N] = {0}, back[N];
    cl_kernel k = kernel("scale");
    cl_mem in = buffer(CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros);
    cl_mem out = buffer(CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros);
    /* The arguments must still be set. */
    size_t none[3] = {0, 0, 0};
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, none, NULL, 0, NULL, NULL),
                 CL_INVALID_KERNEL_ARGS);
    int factor = 2;
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof out, &out), 0);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof factor, &factor), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, NULL, NULL, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, none, NULL, 0, NULL, NULL), 0);
    size_t some_zero[3] = {N, 1, 0};
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 3, NULL, some_zero, NULL, 0, NULL, NULL), 0);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), ev;
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 2, NULL, none, NULL, 1, &gate, &ev), 0);
    cl_command_type type;
    cr_assert_eq(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), 0);
    cr_assert_eq(type, CL_COMMAND_NDRANGE_KERNEL);
    cl_int st;
    usleep(20000);
    cr_assert_eq(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), 0);
    cr_assert(st == CL_QUEUED || st == CL_SUBMITTED, "waits for its wait list (%d)", st);
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clFinish(queue), 0);
    cr_assert_eq(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), 0);
    cr_assert_eq(st, CL_COMPLETE);
    cr_assert_eq(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], 0, "nothing written at %d", i);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* ---- profiling ---- */

static const cl_profiling_info prof_names[5] = {
    CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
    CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};

static void prof_times(cl_event e, cl_ulong t[5])
{
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(clGetEventProfilingInfo(e, prof_names[i], sizeof t[i], &t[i], NULL), 0);
        if (i)
            cr_assert_leq(t[i - 1], t[i], "profiling time %d before %d", i, i - 1);
    }
}

static double clock_mhz(void)
{
    char err[256];
    board_t *b = board_load(board_default_name(), err, sizeof err);
    cr_assert(b, "%s", err);
    double mhz = b->clock_mhz;
    board_free(b);
    return mhz;
}

/* Write, kernel, task and read held back by a user event, then released together: on
 * the device timeline each starts where the previous one ended, the kernel lasts at
 * least one cycle per work-item at the board clock, and the results are right. */
Test(kernels, profiling_back_to_back)
{
    enum { N = 4096 };
    static int data[N], back[N];
    for (int i = 0; i < N; i++)
        data[i] = 3 * i + 1;
    cl_kernel k = kernel("scale");
    cl_mem in = buffer(0, sizeof data, NULL);
    cl_mem out = buffer(0, sizeof data, NULL);
    int factor = 5;
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof out, &out), 0);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof factor, &factor), 0);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err);
    cl_event ev[4];
    size_t global = N;
    cr_assert_eq(clEnqueueWriteBuffer(queue, in, CL_FALSE, 0, sizeof data, data, 1, &gate, &ev[0]), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, &ev[1]), 0);
    cr_assert_eq(clEnqueueTask(queue, k, 0, NULL, &ev[2]), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, out, CL_FALSE, 0, sizeof back, back, 0, NULL, &ev[3]), 0);
    usleep(20000);
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clWaitForEvents(1, &ev[3]), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], data[i] * factor, "at %d", i);
    cl_ulong t[4][5];
    for (int i = 0; i < 4; i++)
        prof_times(ev[i], t[i]);
    for (int i = 1; i < 4; i++)
        cr_assert_eq(t[i][2], t[i - 1][3], "command %d starts where %d ended", i, i - 1);
    /* One work-item per cycle at most: N work-items take N cycles or more. */
    double min_ns = N * 1000.0 / clock_mhz();
    cr_assert_geq((double)(t[1][3] - t[1][2]), min_ns);
    /* ... and the modelled time, not the seconds the simulation took. */
    cr_assert_lt((double)(t[1][3] - t[1][2]), 100 * min_ns);
    cr_assert_gt(t[2][3] - t[2][2], 0);
    for (int i = 0; i < 4; i++)
        clReleaseEvent(ev[i]);
    clReleaseEvent(gate);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static double host_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* A read enqueued right behind a kernel starts at the kernel's END (or at its own
 * QUEUED, if that is later); and after the host waited for the kernel (whose simulation
 * takes far longer than the modelled time) the next command is queued at the kernel's
 * END, not when the simulation finished. */
Test(kernels, profiling_kernel_then_read)
{
    enum { N = 1 << 20 };
    cl_kernel k = kernel("scale");
    cl_mem in = buffer(0, N * sizeof(int), NULL);
    cl_mem out = buffer(0, N * sizeof(int), NULL);
    int factor = 2, small[4];
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof out, &out), 0);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof factor, &factor), 0);
    size_t global = N;
    cl_event ke, re, ke2, me;
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, &ke), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, out, CL_FALSE, 0, sizeof small, small, 0, NULL, &re), 0);
    cr_assert_eq(clWaitForEvents(1, &re), 0);
    cl_ulong tk[5], tr[5];
    prof_times(ke, tk);
    prof_times(re, tr);
    /* Queued while the kernel ran (the usual case: the kernel lasts 3.5 ms), the read
     * starts at the kernel's END; queued later (the host thread was descheduled), at
     * its QUEUED. Never later: the seconds the simulation took do not count. */
    cr_assert_eq(tr[2], tr[0] > tk[3] ? tr[0] : tk[3]);

    /* Wait for a kernel, then enqueue. */
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, &ke2), 0);
    double t0 = host_ms();
    cr_assert_eq(clFinish(queue), 0);
    double waited_ms = host_ms() - t0;
    cr_assert_eq(clEnqueueMarkerWithWaitList(queue, 0, NULL, &me), 0);
    cr_assert_eq(clWaitForEvents(1, &me), 0);
    cl_ulong tk2[5], tm[5];
    prof_times(ke2, tk2);
    prof_times(me, tm);
    double modelled_ms = (tk2[3] - tk2[2]) * 1e-6;
    cr_log_info("kernel of %d work-items: modelled %.3f ms, host wait %.1f ms", N, modelled_ms,
                waited_ms);
    /* The simulation is far slower than the FPGA; none of that shows. */
    cr_assert_gt(waited_ms, modelled_ms + 20.0);
    cr_assert_geq(tm[0], tk2[3]);
    cr_assert_lt(tm[0] - tk2[3], 10000000ull, "queued %llu ns after the kernel's END",
                 (unsigned long long)(tm[0] - tk2[3]));
    clReleaseEvent(ke);
    clReleaseEvent(re);
    clReleaseEvent(ke2);
    clReleaseEvent(me);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* ---- engines: transfers overlap kernels on the device timeline ---- */

/* A profiling queue; out of order when ooo. */
static cl_command_queue profiling_queue(int ooo)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(
        ctx, device, CL_QUEUE_PROFILING_ENABLE | (ooo ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0),
        &err);
    cr_assert_eq(err, CL_SUCCESS);
    return q;
}

/* `scale` of n work-items set up on fresh buffers *in and *out (out = 2 * in). */
static cl_kernel long_scale(size_t n, cl_mem *in, cl_mem *out)
{
    cl_kernel k = kernel("scale");
    *in = buffer(0, n * sizeof(int), NULL);
    *out = buffer(0, n * sizeof(int), NULL);
    int factor = 2;
    cr_assert_eq(clSetKernelArg(k, 0, sizeof *in, in), 0);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof *out, out), 0);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof factor, &factor), 0);
    return k;
}

/* [a0, a1) and [b0, b1) share some time. */
static int overlap(const cl_ulong a[5], const cl_ulong b[5]) { return a[2] < b[3] && b[2] < a[3]; }

/* Sets the user event *arg after 20 ms. */
static void *open_gate_later(void *arg)
{
    usleep(20000);
    cr_assert_eq(clSetUserEventStatus(*(cl_event *)arg, CL_COMPLETE), 0);
    return NULL;
}

/* A kernel on one queue and writes on two other queues, all held by one user event: the
 * first write runs on the host link while the kernel runs on the accelerator (both start
 * when the event was set), the second write waits for the link; the host thread that
 * waited for the first write (from before the event was set, so that none of its own
 * time counts) resumes at its END, long before the kernel's. */
Test(kernels, engines_write_during_kernel)
{
    enum { N = 1 << 20, SMALL = 4096 };
    static char data[SMALL];
    cl_mem in, out;
    cl_kernel k = long_scale(N, &in, &out);
    cl_mem w1m = buffer(0, SMALL, NULL), w2m = buffer(0, SMALL, NULL);
    cl_command_queue q1 = profiling_queue(0), q2 = profiling_queue(0), q3 = profiling_queue(0);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), ke, w1, w2, mk;
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(q1, k, 1, NULL, &global, NULL, 1, &gate, &ke), 0);
    cr_assert_eq(clEnqueueWriteBuffer(q2, w1m, CL_FALSE, 0, SMALL, data, 1, &gate, &w1), 0);
    cr_assert_eq(clEnqueueWriteBuffer(q3, w2m, CL_FALSE, 0, SMALL, data, 1, &gate, &w2), 0);
    pthread_t opener;
    cr_assert_eq(pthread_create(&opener, NULL, open_gate_later, &gate), 0);
    cr_assert_eq(clWaitForEvents(1, &w1), 0);
    cr_assert_eq(clEnqueueMarkerWithWaitList(q2, 0, NULL, &mk), 0);
    pthread_join(opener, NULL);
    cr_assert_eq(clFinish(q1), 0);
    cr_assert_eq(clFinish(q2), 0);
    cr_assert_eq(clFinish(q3), 0);
    cl_ulong tk[5], t1[5], t2[5], tm[5];
    prof_times(ke, tk);
    prof_times(w1, t1);
    prof_times(w2, t2);
    prof_times(mk, tm);
    cr_log_info("kernel [%llu, %llu], write [%llu, %llu], write [%llu, %llu] ns",
                (unsigned long long)tk[2], (unsigned long long)tk[3],
                (unsigned long long)t1[2], (unsigned long long)t1[3],
                (unsigned long long)t2[2], (unsigned long long)t2[3]);
    /* Both engines start when the gate opened. */
    cr_assert_eq(tk[2], tk[1]);
    cr_assert_eq(t1[2], t1[1]);
    cr_assert(overlap(tk, t1), "the write overlaps the kernel");
    cr_assert(t1[3] < tk[3], "the 4 KiB write ends long before the 1M-item kernel");
    /* One host link: the second write starts where the first ended. */
    cr_assert_eq(t2[2], t1[3]);
    /* The host waited for the write, not for the kernel: the marker enqueued right after
     * is queued at the write's END (plus the host's own few microseconds), before the
     * kernel ends on the device timeline (its simulation took the host far longer). */
    cr_assert_geq(tm[0], t1[3]);
    cr_assert_lt(tm[0], tk[3], "queued %llu ns after the write, the kernel ends %llu ns after it",
                 (unsigned long long)(tm[0] - t1[3]), (unsigned long long)(tk[3] - t1[3]));
    cl_event all[] = {ke, w1, w2, mk, gate};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(q3);
    clReleaseMemObject(w1m);
    clReleaseMemObject(w2m);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* An out-of-order queue: a read that does not wait for the kernel runs during it; a
 * read that waits for it starts at its END; a fill (the accelerator's, like a copy)
 * does not overlap the kernel. Results right. */
Test(kernels, engines_out_of_order_queue)
{
    enum { N = 1 << 20, SMALL = 4096 };
    cl_mem in, out;
    cl_kernel k = long_scale(N, &in, &out);
    static int host_in[N];
    for (int i = 0; i < N; i++)
        host_in[i] = i - 7;
    int other_init[SMALL / 4], other_back[SMALL / 4], back[SMALL / 4], pattern = 0x5a5a;
    for (int i = 0; i < SMALL / 4; i++)
        other_init[i] = 100 + i;
    cl_mem other = buffer(CL_MEM_COPY_HOST_PTR, SMALL, other_init);
    cl_mem filled = buffer(0, SMALL, NULL);
    cl_command_queue q = profiling_queue(1);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), wi, ke, r_other, r_out, fe;
    size_t global = N;
    cr_assert_eq(clEnqueueWriteBuffer(q, in, CL_FALSE, 0, sizeof host_in, host_in, 1, &gate, &wi), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 1, &wi, &ke), 0);
    cr_assert_eq(clEnqueueReadBuffer(q, other, CL_FALSE, 0, SMALL, other_back, 1, &wi, &r_other), 0);
    cr_assert_eq(clEnqueueReadBuffer(q, out, CL_FALSE, 0, SMALL, back, 1, &ke, &r_out), 0);
    cr_assert_eq(clEnqueueFillBuffer(q, filled, &pattern, sizeof pattern, 0, SMALL, 1, &wi, &fe), 0);
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clFinish(q), 0);
    for (int i = 0; i < SMALL / 4; i++) {
        cr_assert_eq(back[i], 2 * (i - 7), "at %d", i);
        cr_assert_eq(other_back[i], 100 + i, "at %d", i);
    }
    cl_ulong tw[5], tk[5], to[5], tr[5], tf[5];
    prof_times(wi, tw);
    prof_times(ke, tk);
    prof_times(r_other, to);
    prof_times(r_out, tr);
    prof_times(fe, tf);
    cr_assert_eq(tk[2], tw[3], "the kernel starts when its input arrived");
    cr_assert_eq(to[2], tw[3], "the independent read starts when the link is free");
    cr_assert(overlap(tk, to), "the independent read overlaps the kernel");
    cr_assert_eq(tr[2], tk[3], "the dependent read starts at the kernel's END");
    cr_assert(!overlap(tk, tf), "a fill runs on the accelerator, not beside the kernel");
    cl_event all[] = {wi, ke, r_other, r_out, fe, gate};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(q);
    clReleaseMemObject(other);
    clReleaseMemObject(filled);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* Double buffering: queue A runs a kernel and then reads its result; queue B's write,
 * enqueued after that read, goes first on the host link (during the kernel) instead of
 * behind the read that waits for the kernel's END. */
Test(kernels, engines_transfer_not_held_behind_a_waiting_read)
{
    enum { N = 1 << 20, SMALL = 4096 };
    static char data[SMALL];
    int back[16];
    cl_mem in, out;
    cl_kernel k = long_scale(N, &in, &out);
    cl_mem next = buffer(0, SMALL, NULL);
    cl_command_queue qa = profiling_queue(0), qb = profiling_queue(0);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), ke, re, we;
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(qa, k, 1, NULL, &global, NULL, 1, &gate, &ke), 0);
    cr_assert_eq(clEnqueueReadBuffer(qa, out, CL_FALSE, 0, sizeof back, back, 0, NULL, &re), 0);
    cr_assert_eq(clEnqueueWriteBuffer(qb, next, CL_FALSE, 0, SMALL, data, 1, &gate, &we), 0);
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clFinish(qa), 0);
    cr_assert_eq(clFinish(qb), 0);
    cl_ulong tk[5], tr[5], tw[5];
    prof_times(ke, tk);
    prof_times(re, tr);
    prof_times(we, tw);
    cr_assert_eq(tr[2], tk[3]);
    cr_assert_eq(tw[2], tw[1], "the write starts when the gate opened");
    cr_assert(overlap(tk, tw), "the write overlaps the kernel");
    cl_event all[] = {ke, re, we, gate};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(qa);
    clReleaseCommandQueue(qb);
    clReleaseMemObject(next);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* ---- byte-addressable stores ---- */

/* chars and shorts stored by neighbouring work-items into one memory word, at odd
 * addresses, leave every other byte as it was. */
Test(kernels, byte_addressable_stores)
{
    enum { N = 300, BYTES = 3 * N + 16 };
    unsigned char init[2 * BYTES], back[2 * BYTES];
    memset(init, 0xA5, sizeof init);
    cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, sizeof init, init);
    size_t global = N;
    cl_kernel kc = kernel("store_chars");
    cr_assert_eq(clSetKernelArg(kc, 0, sizeof m, &m), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, kc, 1, NULL, &global, NULL, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int b = 0; b < 2 * BYTES; b++) {
        int i = (b - 1) / 3;
        unsigned char expect = b >= 1 && (b - 1) % 3 == 0 && i < N ? (unsigned char)(i + 1) : 0xA5;
        cr_assert_eq(back[b], expect, "char stores: byte %d is 0x%02x", b, back[b]);
    }
    cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, sizeof init, init, 0, NULL, NULL), 0);
    cl_kernel ks = kernel("store_shorts");
    cr_assert_eq(clSetKernelArg(ks, 0, sizeof m, &m), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, ks, 1, NULL, &global, NULL, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int s = 0; s < BYTES; s++) {
        int i = (s - 1) / 3;
        int written = s >= 1 && (s - 1) % 3 == 0 && i < N;
        unsigned short v = (unsigned short)(back[2 * s] | back[2 * s + 1] << 8);
        unsigned short expect = written ? (unsigned short)(1000 + 7 * i) : 0xA5A5;
        cr_assert_eq(v, expect, "short stores: short %d is 0x%04x", s, v);
    }
    char ext[256];
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), 0);
    cr_assert(strstr(ext, "cl_khr_byte_addressable_store"));
    clReleaseKernel(kc);
    clReleaseKernel(ks);
    clReleaseMemObject(m);
}

/* ---- kernel queries, kernel language ---- */

Test(kernels, kernel_attributes)
{
    cl_kernel k = kernel("attrs");
    char s[256];
    size_t len;
    cr_assert_eq(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof s, s, &len), 0);
    cr_assert_eq(len, strlen(s) + 1);
    cr_log_info("CL_KERNEL_ATTRIBUTES: %s", s);
    /* vec_type_hint appears only when the compiler's metadata carries it. */
    const char *expect = "reqd_work_group_size(4,1,1) work_group_size_hint(4,1,1)";
    cr_assert(!strncmp(s, expect, strlen(expect)), "%s", s);
    size_t wg[3];
    cr_assert_eq(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg,
                                          wg, NULL), 0);
    cr_assert_eq(wg[0], 4);
    cl_kernel plain = kernel("scale");
    cr_assert_eq(clGetKernelInfo(plain, CL_KERNEL_ATTRIBUTES, sizeof s, s, NULL), 0);
    cr_assert_str_eq(s, "");
    clReleaseKernel(plain);
    clReleaseKernel(k);
}

/* The program opens with #ifdef __IMAGE_SUPPORT__ / #error: it built, so kernels do not
 * see the macro. */
Test(kernels, no_image_support_macro)
{
    cl_build_status bs;
    cr_assert_eq(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs,
                                       NULL), 0);
    cr_assert_eq(bs, CL_BUILD_SUCCESS);
    cl_bool images;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL), 0);
    cr_assert_eq(images, CL_FALSE);
}

/* ---- OpenCL 3.0 ---- */

/* clCloneKernel: a kernel object of its own with the arguments set so far; setting an
 * argument of one afterwards leaves the other as it was. */
Test(kernels, clone_kernel)
{
    enum { N = 64 };
    int data[N], back[N];
    for (int i = 0; i < N; i++)
        data[i] = 5 * i - 7;
    cl_kernel k = kernel("scale");
    cl_mem in = buffer(CL_MEM_COPY_HOST_PTR, sizeof data, data);
    cl_mem out1 = buffer(0, sizeof data, NULL), out2 = buffer(0, sizeof data, NULL);
    int three = 3, four = 4;
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof out1, &out1), 0);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof three, &three), 0);
    cl_int err;
    cl_kernel c = clCloneKernel(k, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_neq(c, k);
    char name[64];
    cr_assert_eq(clGetKernelInfo(c, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), 0);
    cr_assert_str_eq(name, "scale");
    cl_program p;
    cr_assert_eq(clGetKernelInfo(c, CL_KERNEL_PROGRAM, sizeof p, &p, NULL), 0);
    cr_assert_eq(p, program);
    cr_assert_eq(clSetKernelArg(c, 1, sizeof out2, &out2), 0);
    cr_assert_eq(clSetKernelArg(c, 2, sizeof four, &four), 0);
    cr_assert_eq(clReleaseKernel(k), 0); /* the clone does not need its source */
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(queue, c, 1, NULL, &global, NULL, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, out2, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], 4 * data[i], "at %d", i);
    cl_kernel c2 = clCloneKernel(c, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(c2, 1, sizeof out1, &out1), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, c2, 1, NULL, &global, NULL, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, out1, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], 4 * data[i], "clone of a clone: at %d", i);
    err = 0;
    cr_assert_null(clCloneKernel(NULL, &err));
    cr_assert_eq(err, CL_INVALID_KERNEL);
    clReleaseKernel(c);
    clReleaseKernel(c2);
    clReleaseMemObject(in);
    clReleaseMemObject(out1);
    clReleaseMemObject(out2);
}

/* A built program: no program-scope global variables (so no constructors, destructors
 * or storage for them), no IL; kernels have no sub-groups and take no SVM pointers. */
Test(kernels, opencl30_program_queries)
{
    cl_bool b = CL_TRUE;
    size_t ret = 0, sz = 99;
    cr_assert_eq(clGetProgramInfo(program, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof b, &b,
                                  &ret), 0);
    cr_assert_eq(b, CL_FALSE);
    cr_assert_eq(ret, sizeof b);
    b = CL_TRUE;
    cr_assert_eq(clGetProgramInfo(program, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof b, &b,
                                  NULL), 0);
    cr_assert_eq(b, CL_FALSE);
    char small;
    cr_assert_eq(clGetProgramInfo(program, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, 1, &small,
                                  NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetProgramInfo(program, CL_PROGRAM_IL, 0, NULL, &ret), 0);
    cr_assert_eq(ret, 0);
    cr_assert_eq(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                       sizeof sz, &sz, &ret), 0);
    cr_assert_eq(sz, 0);
    cr_assert_eq(ret, sizeof sz);
    cr_assert_eq(clSetProgramReleaseCallback(program, NULL, NULL), CL_INVALID_OPERATION);
    cl_kernel k = kernel("scale");
    size_t local = 16, n;
    cr_assert_eq(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                         sizeof local, &local, sizeof n, &n, NULL),
                 CL_INVALID_OPERATION);
    int x;
    cr_assert_eq(clSetKernelArgSVMPointer(k, 0, &x), CL_INVALID_OPERATION);
    clReleaseKernel(k);
}

/* ---- program binaries ---- */

/* The program's binary for the device. */
static unsigned char *get_binary(cl_program p, size_t *len)
{
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *len, len, NULL), 0);
    cr_assert_gt(*len, 128);
    unsigned char *bin = malloc(*len);
    size_t ret;
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, &ret), 0);
    cr_assert_eq(ret, sizeof bin);
    return bin;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

/* Runs scale on ctx2 with program p2 and checks the results. */
static void run_scale(cl_context c2, cl_program p2)
{
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueue(c2, device, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p2, "scale", &err);
    cr_assert_eq(err, CL_SUCCESS);
    enum { N = 64 };
    int data[N], back[N];
    for (int i = 0; i < N; i++)
        data[i] = i * i;
    cl_mem in = clCreateBuffer(c2, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    cl_mem out = clCreateBuffer(c2, 0, sizeof data, NULL, &err);
    int factor = 7;
    cr_assert_eq(clSetKernelArg(k, 0, sizeof in, &in), 0);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof out, &out), 0);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof factor, &factor), 0);
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(q2, k, 1, NULL, &global, NULL, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(q2, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], data[i] * factor, "at %d", i);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseCommandQueue(q2);
}

/* The entries of a directory (not . and ..), and the first one's name. */
static int dir_entries(const char *path, char *first, size_t len)
{
    DIR *d = opendir(path);
    cr_assert(d, "%s", path);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n++ == 0)
            snprintf(first, len, "%s", de->d_name);
    }
    closedir(d);
    return n;
}

/* CL_PROGRAM_BINARIES into clCreateProgramWithBinary in a fresh context with an empty
 * build cache: the build unpacks the blob (one entry, nothing compiled), the kernel runs
 * and gives the right results; the program hands out the same blob again. */
Test(kernels, program_binary_round_trip)
{
    size_t len;
    unsigned char *bin = get_binary(program, &len);
    cl_program_binary_type bt;
    cr_assert_eq(clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt,
                                       NULL), 0);
    cr_assert_eq(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

    char cache[] = "/tmp/clhls-bincache-XXXXXX";
    cr_assert(mkdtemp(cache));
    setenv("CLHLS_CACHE_DIR", cache, 1);
    for (int round = 0; round < 2; round++) {
        cl_int err, st = 1;
        cl_context c2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        cr_assert_eq(err, CL_SUCCESS);
        const unsigned char *bins[1] = {bin};
        cl_program p2 = clCreateProgramWithBinary(c2, 1, &device, &len, bins, &st, &err);
        cr_assert_eq(err, CL_SUCCESS);
        cr_assert_eq(st, CL_SUCCESS);
        cr_assert_eq(clGetProgramBuildInfo(p2, device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt,
                                           NULL), 0);
        cr_assert_eq(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        err = clBuildProgram(p2, 0, NULL, NULL, NULL, NULL);
        if (err != CL_SUCCESS)
            rt_test_build_failed(device, p2, err);
        run_scale(c2, p2);
        /* The cache holds the unpacked entry and nothing a compilation would leave. */
        char name[256];
        cr_assert_eq(dir_entries(cache, name, sizeof name), 1, "round %d", round);
        cr_assert(!strncmp(name, "bin-", 4) && strlen(name) == 36, "%s", name);
        char path[512];
        snprintf(path, sizeof path, "%s/%s/model.so", cache, name);
        cr_assert_eq(access(path, R_OK), 0);
        /* The same blob comes back. */
        size_t len2;
        unsigned char *bin2 = get_binary(p2, &len2);
        cr_assert_eq(len2, len);
        cr_assert_arr_eq(bin2, bin, len);
        free(bin2);
        size_t n;
        cr_assert_eq(clGetProgramInfo(p2, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), 0);
        cr_assert_eq(n, 4);
        clReleaseProgram(p2);
        clReleaseContext(c2);
    }
    nftw(cache, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(bin);
}

/* Recomputes a blob's content hash (XXH3-128 of the blob with the hash field zeroed). */
static void rehash(unsigned char *blob, size_t len)
{
    memset(blob + 104, 0, 16);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(blob, len));
    memcpy(blob + 104, c.digest, 16);
}

/* clCreateProgramWithBinary on a blob; returns the error, *status the binary status. */
static cl_int try_binary(const unsigned char *blob, size_t len, cl_int *status)
{
    cl_int err = 1;
    *status = 1;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &device, &len, &blob, status, &err);
    if (p)
        clReleaseProgram(p);
    cr_assert_eq(p != NULL, err == CL_SUCCESS);
    return err;
}

/* Corrupt, truncated, padded and foreign blobs, and blobs with a bad file table, are
 * CL_INVALID_BINARY, in binary_status and as the error. */
Test(kernels, program_binary_rejects_bad_blobs)
{
    size_t len;
    unsigned char *bin = get_binary(program, &len);
    unsigned char *b = malloc(len + 16);
    cl_int st;
    /* The original is fine. */
    cr_assert_eq(try_binary(bin, len, &st), CL_SUCCESS);
    cr_assert_eq(st, CL_SUCCESS);
    /* A byte flipped anywhere: in the payload, in model.so's bytes, in the header. */
    size_t where[] = {len / 2, len - 1, 130, 85, 12};
    for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
        memcpy(b, bin, len);
        b[where[i]] ^= 0x40;
        cr_assert_eq(try_binary(b, len, &st), CL_INVALID_BINARY, "flipped byte %zu", where[i]);
        cr_assert_eq(st, CL_INVALID_BINARY);
    }
    /* Truncated or padded. */
    size_t lens[] = {len - 1, len / 2, 128, 127, 8, 1};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        cr_assert_eq(try_binary(bin, lens[i], &st), CL_INVALID_BINARY, "length %zu", lens[i]);
        cr_assert_eq(st, CL_INVALID_BINARY);
    }
    memcpy(b, bin, len);
    memset(b + len, 0, 16);
    cr_assert_eq(try_binary(b, len + 16, &st), CL_INVALID_BINARY);
    /* Built for another board: rejected by name, although the hash is right. */
    memcpy(b, bin, len);
    memset(b + 16, 0, 64);
    memcpy(b + 16, "ice40_up5k", 10);
    rehash(b, len);
    cr_assert_eq(try_binary(b, len, &st), CL_INVALID_BINARY);
    cr_assert_eq(st, CL_INVALID_BINARY);
    /* Another format version, correctly hashed. */
    memcpy(b, bin, len);
    b[8] = 99;
    rehash(b, len);
    cr_assert_eq(try_binary(b, len, &st), CL_INVALID_BINARY);
    /* An unknown binary type (bytes 124..127). */
    memcpy(b, bin, len);
    b[124] = 7;
    rehash(b, len);
    cr_assert_eq(try_binary(b, len, &st), CL_INVALID_BINARY);
    /* Not a clhls binary at all. */
    memcpy(b, bin, len);
    memcpy(b, "\x7f" "ELF\2\1\1\0", 8);
    rehash(b, len);
    cr_assert_eq(try_binary(b, len, &st), CL_INVALID_BINARY);
    /* A file table escaping the entry: the first file's path becomes "../...". */
    memcpy(b, bin, len);
    cr_assert_geq(b[128] | b[129] << 8, 3);
    memcpy(b + 128 + 16, "../", 3);
    rehash(b, len);
    cr_assert_eq(try_binary(b, len, &st), CL_INVALID_BINARY);
    /* An absolute path. */
    memcpy(b, bin, len);
    b[128 + 16] = '/';
    rehash(b, len);
    cr_assert_eq(try_binary(b, len, &st), CL_INVALID_BINARY);
    /* One good and one bad binary for two entries of the list: the call fails, the
     * statuses say which. */
    cl_device_id devs[2] = {device, device};
    size_t lens2[2] = {len, len - 1};
    const unsigned char *bins2[2] = {bin, bin};
    cl_int sts[2] = {1, 1}, err;
    cr_assert_null(clCreateProgramWithBinary(ctx, 2, devs, lens2, bins2, sts, &err));
    cr_assert_eq(err, CL_INVALID_BINARY);
    cr_assert_eq(sts[0], CL_SUCCESS);
    cr_assert_eq(sts[1], CL_INVALID_BINARY);
    free(b);
    free(bin);
}
