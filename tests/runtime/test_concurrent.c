/* Kernels of one program running at once in one simulated accelerator, through the
 * real ocl-icd loader: one program of several kernels with data-dependent loops (one
 * hardware build, found in the shared cache by every test process) and a second small
 * program. Kernels of different queues that are ready together overlap on the device
 * timeline and take fewer accelerator cycles together than one after the other; the
 * same kernel's NDRanges take turns on its compute unit; a kernel of another program
 * waits until the accelerator is idle; an out-of-bounds kernel and a hung one fail
 * alone while the other kernel runs to its right result. Also with CLHLS_SIM_STRESS
 * (random memory latency). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <criterion/criterion.h>

#include "runtime_test.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source =
    "__kernel void collatz(__global const uint *in, __global uint *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint x = in[i], steps = 0;\n"
    "    while (x != 1) {\n"
    "        x = (x & 1) ? 3 * x + 1 : x >> 1;\n"
    "        steps++;\n"
    "    }\n"
    "    out[i] = steps;\n"
    "}\n"
    "__kernel void sum_to(__global const uint *n, __global uint *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint s = 0;\n"
    "    for (uint k = 0; k < n[i]; k++)\n"
    "        s += k ^ (uint)i;\n"
    "    out[i] = s;\n"
    "}\n"
    "__kernel void poke(__global uint *out, uint at)\n"
    "{\n"
    "    out[at - get_global_id(0)] = 7;\n"
    "}\n"
    "__kernel void spin(__global uint *out, uint stop)\n"
    "{\n"
    "    uint x = 0, n = 0;\n"
    "    while (x != stop) {\n"
    "        x = (x + 6) & 63;\n"
    "        n++;\n"
    "    }\n"
    "    out[get_global_id(0)] = n;\n"
    "}\n";

static const char *other_source =
    "__kernel void twice(__global uint *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = 2 * out[i];\n"
    "}\n";

enum { N = 256 };

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_program program, other;

/* The last message the runtime gave the context's callback. */
static pthread_mutex_t notify_lock = PTHREAD_MUTEX_INITIALIZER;
static char notified[4096];

static void CL_CALLBACK on_notify(const char *msg, const void *info, size_t cb, void *data)
{
    (void)info;
    (void)cb;
    (void)data;
    pthread_mutex_lock(&notify_lock);
    snprintf(notified, sizeof notified, "%s", msg);
    pthread_mutex_unlock(&notify_lock);
}

static cl_program build(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
    if (err != CL_SUCCESS)
        rt_test_build_failed(device, p, err);
    return p;
}

static void setup(void)
{
    cr_assert_eq(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &device, on_notify, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    program = build(source);
    other = build(other_source);
}

static void teardown(void)
{
    clReleaseProgram(program);
    clReleaseProgram(other);
    clReleaseContext(ctx);
}

TestSuite(concurrent, .init = setup, .fini = teardown, .timeout = 900);

/* A profiling queue; out of order when ooo. */
static cl_command_queue profiling_queue(int ooo)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(
        ctx, device,
        CL_QUEUE_PROFILING_ENABLE | (ooo ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0), &err);
    cr_assert_eq(err, CL_SUCCESS);
    return q;
}

static cl_mem buffer(size_t size, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, host ? CL_MEM_COPY_HOST_PTR : 0, size, host, &err);
    cr_assert_eq(err, CL_SUCCESS);
    return m;
}

/* A kernel of p with its buffer arguments set. */
static cl_kernel kernel2(cl_program p, const char *name, cl_mem a, cl_mem b)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    cr_assert_eq(err, CL_SUCCESS, "kernel %s", name);
    cr_assert_eq(clSetKernelArg(k, 0, sizeof a, &a), 0);
    if (b)
        cr_assert_eq(clSetKernelArg(k, 1, sizeof b, &b), 0);
    return k;
}

/* START and END of e on the device timeline. */
static void interval(cl_event e, cl_ulong t[2])
{
    cr_assert_eq(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t[0], &t[0], NULL), 0);
    cr_assert_eq(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t[1], &t[1], NULL), 0);
    cr_assert_lt(t[0], t[1]);
}

static int overlap(const cl_ulong a[2], const cl_ulong b[2]) { return a[0] < b[1] && b[0] < a[1]; }

static cl_int status_of(cl_event e)
{
    cl_int s;
    cr_assert_eq(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL), 0);
    return s;
}

/* Inputs and references of the two long kernels. */
static cl_uint collatz_in[N], collatz_ref[N], sum_in[N], sum_ref[N];

static void make_inputs(void)
{
    for (cl_uint i = 0; i < N; i++) {
        cl_uint x = collatz_in[i] = 27 + 2 * (i % 40), steps = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            steps++;
        }
        collatz_ref[i] = steps;
        sum_in[i] = 40 + (i * 7) % 90;
        cl_uint s = 0;
        for (cl_uint k = 0; k < sum_in[i]; k++)
            s += k ^ i;
        sum_ref[i] = s;
    }
}

static void check(cl_command_queue q, cl_mem m, const cl_uint *ref, const char *what)
{
    cl_uint back[N];
    cr_assert_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], ref[i], "%s: at %d: %u, not %u", what, i, back[i], ref[i]);
}

/* first on one queue and second on another (or both on one out-of-order queue when ooo),
 * held by one user event. Checks the results; returns the two intervals. */
static void two_kernels_on(int ooo, const char *first, const char *second, cl_ulong t1[2],
                           cl_ulong t2[2])
{
    make_inputs();
    int same = !strcmp(first, second);
    const cl_uint *in1 = !strcmp(first, "collatz") ? collatz_in : sum_in;
    const cl_uint *in2 = !strcmp(second, "collatz") ? collatz_in : sum_in;
    cl_mem a1 = buffer(sizeof collatz_in, (void *)in1), b1 = buffer(sizeof collatz_in, NULL);
    cl_mem a2 = buffer(sizeof sum_in, (void *)in2), b2 = buffer(sizeof sum_in, NULL);
    cl_kernel k1 = kernel2(program, first, a1, b1), k2 = kernel2(program, second, a2, b2);
    cl_command_queue q1 = profiling_queue(ooo), q2 = ooo ? q1 : profiling_queue(0);
    if (ooo)
        clRetainCommandQueue(q1);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), e1, e2;
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(q1, k1, 1, NULL, &global, NULL, 1, &gate, &e1), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(q2, k2, 1, NULL, &global, NULL, 1, &gate, &e2), 0);
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clFinish(q1), 0);
    cr_assert_eq(clFinish(q2), 0);
    cr_assert_eq(status_of(e1), CL_COMPLETE);
    cr_assert_eq(status_of(e2), CL_COMPLETE);
    check(q1, b1, !strcmp(first, "collatz") ? collatz_ref : sum_ref, first);
    check(q2, b2, !strcmp(second, "collatz") ? collatz_ref : sum_ref, second);
    interval(e1, t1);
    interval(e2, t2);
    cr_log_info("%s [%llu, %llu] ns, %s%s [%llu, %llu] ns", first, (unsigned long long)t1[0],
                (unsigned long long)t1[1], second, same ? " again" : "",
                (unsigned long long)t2[0], (unsigned long long)t2[1]);
    clReleaseEvent(e1);
    clReleaseEvent(e2);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    clReleaseMemObject(a1);
    clReleaseMemObject(b1);
    clReleaseMemObject(a2);
    clReleaseMemObject(b2);
}

static void two_kernels(const char *first, const char *second, cl_ulong t1[2], cl_ulong t2[2])
{
    two_kernels_on(0, first, second, t1, t2);
}

/* Two kernels of the program at once: they overlap on the device timeline, and the
 * accelerator's time from the first START to the last END is shorter than the two
 * kernels' busy times together. */
static void at_once(void)
{
    cl_ulong t1[2], t2[2];
    two_kernels("collatz", "sum_to", t1, t2);
    cr_assert(overlap(t1, t2), "the kernels overlap");
    cl_ulong span = (t1[1] > t2[1] ? t1[1] : t2[1]) - (t1[0] < t2[0] ? t1[0] : t2[0]);
    cl_ulong busy = (t1[1] - t1[0]) + (t2[1] - t2[0]);
    cr_log_info("accelerator busy %llu ns for %llu ns of kernels", (unsigned long long)span,
                (unsigned long long)busy);
    cr_assert_lt(span, busy);
}

Test(concurrent, kernels_of_two_queues_run_at_once) { at_once(); }

/* The same on one out-of-order queue: two kernels without a dependency between them. */
Test(concurrent, kernels_of_an_out_of_order_queue_run_at_once)
{
    cl_ulong t1[2], t2[2];
    two_kernels_on(1, "collatz", "sum_to", t1, t2);
    cr_assert(overlap(t1, t2), "the kernels overlap");
}

Test(concurrent, kernels_run_at_once_under_stress)
{
    setenv("CLHLS_SIM_STRESS", "7", 1);
    at_once();
    unsetenv("CLHLS_SIM_STRESS");
}

/* One kernel on two queues: its compute unit runs one NDRange after the other. */
Test(concurrent, same_kernel_takes_turns)
{
    cl_ulong t1[2], t2[2];
    two_kernels("collatz", "collatz", t1, t2);
    cr_assert(!overlap(t1, t2), "one compute unit, one NDRange at a time");
}

/* A kernel of another program waits until the accelerator is idle. */
Test(concurrent, other_program_waits)
{
    make_inputs();
    cl_mem a = buffer(sizeof collatz_in, collatz_in), b = buffer(sizeof collatz_in, NULL);
    cl_mem c = buffer(sizeof sum_in, sum_in);
    cl_kernel k1 = kernel2(program, "collatz", a, b), k2 = kernel2(other, "twice", c, NULL);
    cl_command_queue q1 = profiling_queue(0), q2 = profiling_queue(0);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), e1, e2;
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(q1, k1, 1, NULL, &global, NULL, 1, &gate, &e1), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(q2, k2, 1, NULL, &global, NULL, 1, &gate, &e2), 0);
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clFinish(q1), 0);
    cr_assert_eq(clFinish(q2), 0);
    check(q1, b, collatz_ref, "collatz");
    cl_uint twice_ref[N];
    for (int i = 0; i < N; i++)
        twice_ref[i] = 2 * sum_in[i];
    check(q2, c, twice_ref, "twice");
    cl_ulong t1[2], t2[2];
    interval(e1, t1);
    interval(e2, t2);
    cr_assert(!overlap(t1, t2), "one configuration at a time");
    cl_event all[] = {e1, e2, gate};
    for (int i = 0; i < 3; i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
}

/* sum_to (k1, N work-items) on q1 and k2 (items work-items) on q2, held by one user
 * event and released together with the notify text cleared; returns once k2 has
 * failed, as it must, with CL_OUT_OF_RESOURCES. */
static void release_beside_failing(cl_command_queue q1, cl_kernel k1, cl_command_queue q2,
                                   cl_kernel k2, size_t items, cl_event *gate, cl_event *e1,
                                   cl_event *e2)
{
    cl_int err;
    *gate = clCreateUserEvent(ctx, &err);
    cr_assert_eq(err, 0);
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(q1, k1, 1, NULL, &global, NULL, 1, gate, e1), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(q2, k2, 1, NULL, &items, NULL, 1, gate, e2), 0);
    pthread_mutex_lock(&notify_lock);
    notified[0] = 0;
    pthread_mutex_unlock(&notify_lock);
    cr_assert_eq(clSetUserEventStatus(*gate, CL_COMPLETE), 0);
    cr_assert_eq(clWaitForEvents(1, e2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cr_assert_eq(status_of(*e2), CL_OUT_OF_RESOURCES);
}

/* poke writes out of bounds, released together with sum_to (so they run at once, as
 * kernels_of_two_queues_run_at_once shows): only poke's event fails, with its own
 * message, and sum_to's result is right. Its work-item 0 goes past the end of its
 * buffer first; what the others write after that (in bounds) changes nothing.
 * (Whether sum_to still runs when this thread sees poke fail depends on thread
 * scheduling, so it is not asserted.) */
Test(concurrent, out_of_bounds_fails_alone)
{
    make_inputs();
    cl_mem a = buffer(sizeof sum_in, sum_in), b = buffer(sizeof sum_in, NULL);
    cl_mem small = buffer(64, NULL);
    cl_kernel k1 = kernel2(program, "sum_to", a, b), k2 = kernel2(program, "poke", small, NULL);
    cl_uint at = 16; /* work-item 0: 16 words into a 64-byte buffer, just past its end */
    cr_assert_eq(clSetKernelArg(k2, 1, sizeof at, &at), 0);
    cl_command_queue q1 = profiling_queue(0), q2 = profiling_queue(0);
    cl_event gate, e1, e2;
    release_beside_failing(q1, k1, q2, k2, 4, &gate, &e1, &e2);
    pthread_mutex_lock(&notify_lock);
    cr_log_info("%s", notified);
    cr_assert(strstr(notified, "kernel 'poke': out-of-bounds store"), "message: %s", notified);
    cr_assert(strstr(notified, "past the end of argument 0 'out'"), "message: %s", notified);
    pthread_mutex_unlock(&notify_lock);
    cr_assert_eq(clFinish(q1), 0);
    cr_assert_eq(status_of(e1), CL_COMPLETE);
    check(q1, b, sum_ref, "sum_to");
    cl_uint words[16];
    cr_assert_eq(clEnqueueReadBuffer(q1, small, CL_TRUE, 0, sizeof words, words, 0, NULL, NULL), 0);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(words[i], 0, "word %d of the failed kernel's buffer: %u", i, words[i]);
    /* the accelerator goes on (reset once idle): sum_to again, right */
    cl_event e3;
    size_t global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(q1, k1, 1, NULL, &global, NULL, 0, NULL, &e3), 0);
    cr_assert_eq(clFinish(q1), 0);
    cr_assert_eq(status_of(e3), CL_COMPLETE);
    check(q1, b, sum_ref, "sum_to after");
    cl_event all[] = {e1, e2, e3, gate};
    for (int i = 0; i < 4; i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(small);
}

/* A compute unit launched again while another kernel keeps the accelerator busy (so it
 * is not reset in between) is checked against its new buffers, not the last launch's:
 * poke stores in bounds of a 256-byte buffer, then through a 64-byte sub-buffer of it
 * one word past the sub-buffer's end, which is inside the first launch's buffer. */
Test(concurrent, relaunch_is_checked_against_its_own_buffers)
{
    make_inputs();
    cl_mem a = buffer(sizeof sum_in, sum_in), b = buffer(sizeof sum_in, NULL);
    cl_mem big = buffer(256, NULL);
    cl_buffer_region head = {0, 64};
    cl_int err;
    cl_mem sub = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &head, &err);
    cr_assert_eq(err, 0);
    cl_kernel k1 = kernel2(program, "sum_to", a, b), k2 = kernel2(program, "poke", big, NULL),
              k3 = kernel2(program, "poke", sub, NULL);
    cl_uint inside = 32, past = 16; /* poke stores word at - i of work-item i */
    cr_assert_eq(clSetKernelArg(k2, 1, sizeof inside, &inside), 0);
    cr_assert_eq(clSetKernelArg(k3, 1, sizeof past, &past), 0);
    cl_command_queue q1 = profiling_queue(0), q2 = profiling_queue(0);
    cl_event gate = clCreateUserEvent(ctx, &err), e1, e2, e3;
    cr_assert_eq(err, 0);
    size_t global = N, four = 4, one = 1;
    cr_assert_eq(clEnqueueNDRangeKernel(q1, k1, 1, NULL, &global, NULL, 1, &gate, &e1), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(q2, k2, 1, NULL, &four, NULL, 1, &gate, &e2), 0);
    cr_assert_eq(clEnqueueNDRangeKernel(q2, k3, 1, NULL, &one, NULL, 0, NULL, &e3), 0);
    pthread_mutex_lock(&notify_lock);
    notified[0] = 0;
    pthread_mutex_unlock(&notify_lock);
    cr_assert_eq(clSetUserEventStatus(gate, CL_COMPLETE), 0);
    cr_assert_eq(clWaitForEvents(1, &e3), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cr_assert_eq(status_of(e2), CL_COMPLETE);
    cr_assert_eq(status_of(e3), CL_OUT_OF_RESOURCES);
    pthread_mutex_lock(&notify_lock);
    cr_assert(strstr(notified, "kernel 'poke': out-of-bounds store"), "message: %s", notified);
    cr_assert(strstr(notified, "0 bytes past the end of argument 0 'out' (64 bytes at"),
              "message: %s", notified);
    pthread_mutex_unlock(&notify_lock);
    cr_assert_eq(clFinish(q1), 0);
    cr_assert_eq(status_of(e1), CL_COMPLETE);
    check(q1, b, sum_ref, "sum_to");
    cl_ulong t1[2], t2[2];
    interval(e1, t1);
    interval(e2, t2);
    /* poke's second launch followed its first while sum_to still ran: no reset between */
    cr_assert(overlap(t1, t2) && t2[1] < t1[1], "poke [%llu, %llu], sum_to [%llu, %llu]",
              (unsigned long long)t2[0], (unsigned long long)t2[1],
              (unsigned long long)t1[0], (unsigned long long)t1[1]);
    cl_event all[] = {e1, e2, e3, gate};
    for (int i = 0; i < 4; i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    clReleaseKernel(k3);
    clReleaseMemObject(sub);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(big);
}

/* spin never ends (x stays even, the stop is odd), released together with sum_to: the
 * watchdog ends spin alone, with its message; sum_to's result is right. */
Test(concurrent, hang_fails_alone)
{
    make_inputs();
    cl_mem a = buffer(sizeof sum_in, sum_in), b = buffer(sizeof sum_in, NULL);
    cl_mem c = buffer(64, NULL);
    cl_kernel k1 = kernel2(program, "sum_to", a, b), k2 = kernel2(program, "spin", c, NULL);
    cl_uint stop = 7;
    cr_assert_eq(clSetKernelArg(k2, 1, sizeof stop, &stop), 0);
    cl_command_queue q1 = profiling_queue(0), q2 = profiling_queue(0);
    cl_event gate, e1, e2;
    setenv("CLHLS_WATCHDOG_CYCLES", "5000", 1); /* read at each launch */
    release_beside_failing(q1, k1, q2, k2, 1, &gate, &e1, &e2);
    pthread_mutex_lock(&notify_lock);
    cr_log_info("%s", notified);
    cr_assert(strstr(notified, "kernel 'spin' made no forward progress for 5000 cycles"),
              "message: %s", notified);
    pthread_mutex_unlock(&notify_lock);
    cr_assert_eq(clFinish(q1), 0);
    unsetenv("CLHLS_WATCHDOG_CYCLES");
    cr_assert_eq(status_of(e1), CL_COMPLETE);
    check(q1, b, sum_ref, "sum_to");
    cl_event all[] = {e1, e2, gate};
    for (int i = 0; i < 3; i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
}
