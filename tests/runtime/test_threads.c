/* Several host threads on one context at once, through the real ocl-icd loader: each
 * thread builds its own program (the same source: one hardware build, then cache hits)
 * and creates kernels from a program all threads share, sets arguments, enqueues
 * buffer writes, kernels and reads on a queue of its own (in-order or out-of-order)
 * and on one in-order queue all threads share, waits in every way (clWaitForEvents,
 * clFinish, polling the status, event callbacks) and releases its objects, some while
 * their commands are still running. User events gate commands of every thread at once
 * and fail them; two threads race to set one user event. Every result is checked.
 * `make tsan` runs this test under ThreadSanitizer (tests/runtime/tsan.supp); the
 * normal suite runs it under AddressSanitizer. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CLHLS_NO_CRITERION
#include <criterion/criterion.h>
#else
/* ThreadSanitizer cannot run Criterion (its boxfort arena cannot be mapped beside the
 * sanitizer's shadow memory: "Could not initialize inheritable arena", Criterion issue
 * #274), so the CLHLS_TSAN tree builds this file with a minimal stand-in: the same
 * Test(), TestSuite() and cr_* macros, each test run in turn in one process between
 * the suite's init and fini; the exit status is 1 when a check failed. */
static int shim_failed; /* a check failed */

static void shim_check(int ok, int fatal, const char *file, int line, const char *expr,
                       const char *fmt, ...)
{
    if (ok)
        return;
    fprintf(stderr, "%s:%d: failed: %s", file, line, expr);
    if (fmt[0]) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    shim_failed = 1;
    if (fatal)
        exit(1);
}

#define SHIM_CHECK(ok, fatal, expr, ...)                                              \
    shim_check((ok), (fatal), __FILE__, __LINE__, (expr), "" __VA_ARGS__)
#define cr_assert(c, ...) SHIM_CHECK((c), 1, #c, __VA_ARGS__)
#define cr_expect(c, ...) SHIM_CHECK((c), 0, #c, __VA_ARGS__)
#define cr_assert_eq(a, b, ...) SHIM_CHECK((a) == (b), 1, #a " == " #b, __VA_ARGS__)
#define cr_expect_eq(a, b, ...) SHIM_CHECK((a) == (b), 0, #a " == " #b, __VA_ARGS__)
#define cr_expect_str_empty(s, ...) SHIM_CHECK(!(s)[0], 0, #s " is empty", __VA_ARGS__)
#define cr_assert_fail(...) SHIM_CHECK(0, 1, "cr_assert_fail", __VA_ARGS__)
#define cr_log_error(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))

/* The suite's fixtures, and the tests in the order the file defines them. */
typedef struct shim_suite_t {
    void (*init)(void);         /* before each test */
    void (*fini)(void);         /* after each test */
    int timeout;                /* ignored: ctest's TIMEOUT applies */
} shim_suite_t;
static struct { const char *name; void (*fn)(void); } shim_tests[8];
static int shim_ntests;

#define TestSuite(suite, ...) static shim_suite_t shim_suite = {__VA_ARGS__}
#define Test(suite, test)                                                             \
    static void suite##_##test(void);                                                 \
    __attribute__((constructor)) static void shim_add_##suite##_##test(void)          \
    {                                                                                 \
        shim_tests[shim_ntests].name = #suite "::" #test;                             \
        shim_tests[shim_ntests++].fn = suite##_##test;                                \
    }                                                                                 \
    static void suite##_##test(void)
#endif

#include "runtime_test.h"

/* Two small kernels, one program. */
static const char *source =
    "__kernel void add_k(__global int *buf, int k)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    buf[i] += k;\n"
    "}\n"
    "__kernel void iota(__global int *out, int base)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = base + (int)i;\n"
    "}\n";

#define NTHREADS 4  /* host threads */
#define ROUNDS 3    /* rounds of commands per thread */
#define N 16        /* ints per buffer */

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue shared_q; /* in-order, used by every thread */
static cl_program shared_prog;    /* built once, kernels created by every thread */

static void setup(void)
{
    rt_test_open(&platform, &device, &ctx);
    cl_int err;
    shared_q = clCreateCommandQueue(ctx, device, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    shared_prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    err = clBuildProgram(shared_prog, 1, &device, NULL, NULL, NULL);
    if (err != CL_SUCCESS)
        rt_test_build_failed(device, shared_prog, err);
}

static void teardown(void)
{
    clReleaseProgram(shared_prog);
    clReleaseCommandQueue(shared_q);
    clReleaseContext(ctx);
}

/* The first test process builds the hardware (a Verilator build); under
 * ThreadSanitizer everything on the host runs several times slower. */
TestSuite(threads, .init = setup, .fini = teardown, .timeout = 1200);

/* What one thread did: the first failure (checked by the main thread, since Criterion's
 * assertions belong to the test's thread) and its callbacks. */
typedef struct worker {
    int idx;                    /* thread number */
    pthread_t thread;           /* the thread */
    char failure[256];          /* first failed check, "" when none */
    atomic_int callbacks;       /* CL_COMPLETE callbacks that ran */
    atomic_int bad_callbacks;   /* callbacks that saw a wrong status or event */
} worker;

/* Records the first failed check of worker w and leaves its function. */
#define EXPECT(w, cond, ...)                                                          \
    do {                                                                              \
        if (!(cond)) {                                                                \
            if (!(w)->failure[0])                                                     \
                snprintf((w)->failure, sizeof (w)->failure, __VA_ARGS__);             \
            return;                                                                   \
        }                                                                             \
    } while (0)
#define EXPECT_OK(w, call)                                                            \
    do {                                                                              \
        cl_int e_ = (call);                                                           \
        EXPECT(w, e_ == CL_SUCCESS, "line %d: %s: %d", __LINE__, #call, e_);          \
    } while (0)

/* A CL_COMPLETE callback: runs on whichever thread completed the event. */
static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data)
{
    worker *w = data;
    cl_int s = 1;
    cl_command_type t = 0;
    if (status != CL_COMPLETE ||
        clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL) != CL_SUCCESS ||
        s != CL_COMPLETE ||
        clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL) != CL_SUCCESS ||
        t != CL_COMMAND_READ_BUFFER)
        atomic_fetch_add(&w->bad_callbacks, 1);
    atomic_fetch_add(&w->callbacks, 1);
}

/* Waits for e by polling its status (the third way to wait). */
static cl_int poll_event(cl_event e)
{
    for (;;) {
        cl_int s;
        cl_int rc = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
        if (rc != CL_SUCCESS)
            return rc;
        if (s <= CL_COMPLETE)
            return s == CL_COMPLETE ? CL_SUCCESS : s;
        sched_yield();
    }
}

static void worker_body(worker *w)
{
    cl_int err;
    int ooo = w->idx % 2; /* odd threads: an out-of-order queue */
    /* Its own program from the same source: a cache hit, built while the others build. */
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    EXPECT_OK(w, err);
    EXPECT_OK(w, clBuildProgram(prog, 1, &device, NULL, NULL, NULL));
    cl_command_queue q = clCreateCommandQueue(
        ctx, device, (ooo ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0) |
                         (w->idx == 0 ? CL_QUEUE_PROFILING_ENABLE : 0), &err);
    EXPECT_OK(w, err);
    cl_kernel add_k = clCreateKernel(prog, "add_k", &err);
    EXPECT_OK(w, err);
    cl_kernel iota = clCreateKernel(shared_prog, "iota", &err); /* the shared program */
    EXPECT_OK(w, err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    EXPECT_OK(w, err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    EXPECT_OK(w, err);
    size_t global = N;
    int expected_callbacks = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int in[N], got[N];
        for (int i = 0; i < N; i++)
            in[i] = w->idx * 1000 + r * 100 + i;
        /* Its own queue: write, add, read, chained by events (needed out of order). */
        cl_event ew, ek, er;
        EXPECT_OK(w, clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof in, in, 0, NULL, &ew));
        int k = r + 1;
        EXPECT_OK(w, clSetKernelArg(add_k, 0, sizeof buf, &buf));
        EXPECT_OK(w, clSetKernelArg(add_k, 1, sizeof k, &k));
        EXPECT_OK(w, clEnqueueNDRangeKernel(q, add_k, 1, NULL, &global, NULL, 1, &ew, &ek));
        EXPECT_OK(w, clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof got, got, 1, &ek, &er));
        EXPECT_OK(w, clSetEventCallback(er, CL_COMPLETE, on_complete, w));
        expected_callbacks++;
        switch (r % 3) {
        case 0: EXPECT_OK(w, clWaitForEvents(1, &er)); break;
        case 1: EXPECT_OK(w, clFinish(q)); break;
        default: /* the kernel's status read while it runs, then the read's */
            EXPECT_OK(w, poll_event(ek));
            EXPECT_OK(w, poll_event(er));
            break;
        }
        for (int i = 0; i < N; i++)
            EXPECT(w, got[i] == in[i] + k, "thread %d round %d: buf[%d] = %d, expected %d",
                   w->idx, r, i, got[i], in[i] + k);
        if (w->idx == 0) { /* profiling: the times are ordered */
            cl_ulong t[4];
            const cl_profiling_info what[4] = {
                CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
            for (int i = 0; i < 4; i++)
                EXPECT_OK(w, clGetEventProfilingInfo(ek, what[i], sizeof t[i], &t[i], NULL));
            EXPECT(w, t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3],
                   "profiling times out of order");
        }
        EXPECT_OK(w, clReleaseEvent(ew));
        EXPECT_OK(w, clReleaseEvent(ek));
        EXPECT_OK(w, clReleaseEvent(er));

        /* The shared queue: a kernel and a blocking read among the other threads'. */
        int base = w->idx * 10000 + r * 100;
        EXPECT_OK(w, clSetKernelArg(iota, 0, sizeof out, &out));
        EXPECT_OK(w, clSetKernelArg(iota, 1, sizeof base, &base));
        EXPECT_OK(w, clEnqueueNDRangeKernel(shared_q, iota, 1, NULL, &global, NULL, 0, NULL,
                                            NULL));
        EXPECT_OK(w, clEnqueueReadBuffer(shared_q, out, CL_TRUE, 0, sizeof got, got, 0, NULL,
                                         NULL));
        for (int i = 0; i < N; i++)
            EXPECT(w, got[i] == base + i, "thread %d round %d: shared out[%d] = %d, expected %d",
                   w->idx, r, i, got[i], base + i);

        /* A marker after a barrier on its own queue, waited for through its event. */
        cl_event em;
        EXPECT_OK(w, clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
        EXPECT_OK(w, clEnqueueMarkerWithWaitList(q, 0, NULL, &em));
        EXPECT_OK(w, clWaitForEvents(1, &em));
        EXPECT_OK(w, clReleaseEvent(em));
    }
    /* Release everything while the last commands still run: they keep what they use. */
    int fill = 7, last[N];
    cl_event ef, ek, er;
    EXPECT_OK(w, clEnqueueFillBuffer(q, buf, &fill, sizeof fill, 0, N * sizeof(int), 0, NULL,
                                     &ef));
    int k = 5;
    EXPECT_OK(w, clSetKernelArg(add_k, 1, sizeof k, &k));
    EXPECT_OK(w, clEnqueueNDRangeKernel(q, add_k, 1, NULL, &global, NULL, 1, &ef, &ek));
    EXPECT_OK(w, clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof last, last, 1, &ek, &er));
    EXPECT_OK(w, clSetEventCallback(er, CL_COMPLETE, on_complete, w));
    expected_callbacks++;
    EXPECT_OK(w, clReleaseMemObject(buf));
    EXPECT_OK(w, clReleaseMemObject(out));
    EXPECT_OK(w, clReleaseKernel(add_k));
    EXPECT_OK(w, clReleaseKernel(iota));
    EXPECT_OK(w, clReleaseProgram(prog));
    EXPECT_OK(w, clReleaseCommandQueue(q));
    EXPECT_OK(w, clWaitForEvents(1, &er));
    for (int i = 0; i < N; i++)
        EXPECT(w, last[i] == fill + k, "thread %d: after release buf[%d] = %d, expected %d",
               w->idx, i, last[i], fill + k);
    EXPECT_OK(w, clReleaseEvent(ef));
    EXPECT_OK(w, clReleaseEvent(ek));
    /* The callback ran before the event completed for waiters, or runs now on this
     * thread: wait for the count (the worker calls it just after the status change). */
    while (atomic_load(&w->callbacks) < expected_callbacks)
        sched_yield();
    EXPECT_OK(w, clReleaseEvent(er));
}

static void *worker_main(void *arg)
{
    worker_body(arg);
    return NULL;
}

static void run_workers(worker *w, int n, void *(*fn)(void *))
{
    for (int i = 0; i < n; i++) {
        w[i].idx = i;
        cr_assert_eq(pthread_create(&w[i].thread, NULL, fn, &w[i]), 0);
    }
    for (int i = 0; i < n; i++)
        pthread_join(w[i].thread, NULL);
    for (int i = 0; i < n; i++)
        cr_expect_str_empty(w[i].failure, "thread %d: %s", i, w[i].failure);
}

Test(threads, many_threads_one_context)
{
    worker w[NTHREADS];
    memset(w, 0, sizeof w);
    run_workers(w, NTHREADS, worker_main);
    for (int i = 0; i < NTHREADS; i++)
        cr_expect_eq(atomic_load(&w[i].bad_callbacks), 0, "thread %d: bad callbacks", i);
    cr_expect_eq(clFinish(shared_q), CL_SUCCESS);
}

/* ---- user events gating every thread's commands ---- */

static cl_event gate_ok, gate_fail; /* user events: one completes, one fails */
static pthread_barrier_t enqueued;  /* every thread has enqueued its gated commands */

static void gated_body(worker *w)
{
    cl_int err = CL_SUCCESS;
    /* The last thread uses the shared queue, the others one of their own. */
    cl_command_queue q = shared_q;
    if (w->idx != NTHREADS - 1)
        q = clCreateCommandQueue(ctx, device,
                                 w->idx % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
    cl_mem buf = q ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err) : NULL;
    int in[N], got[N];
    for (int i = 0; i < N; i++)
        in[i] = w->idx * 100 + i;
    cl_event ew, er, ebad;
    int enq_ok = q && buf && err == CL_SUCCESS &&
                 clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof in, in, 1, &gate_ok, &ew) ==
                     CL_SUCCESS &&
                 clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof got, got, 1, &ew, &er) ==
                     CL_SUCCESS &&
                 clEnqueueFillBuffer(q, buf, &in[0], sizeof in[0], 0, sizeof in, 1, &gate_fail,
                                     &ebad) == CL_SUCCESS;
    /* Everyone waits at the barrier even after a failure, or the others would hang. */
    pthread_barrier_wait(&enqueued);
    EXPECT(w, enq_ok, "thread %d: enqueueing the gated commands failed", w->idx);
    EXPECT_OK(w, clSetEventCallback(er, CL_COMPLETE, on_complete, w));
    EXPECT_OK(w, clWaitForEvents(1, &er));
    for (int i = 0; i < N; i++)
        EXPECT(w, got[i] == in[i], "thread %d: gated read[%d] = %d", w->idx, i, got[i]);
    EXPECT(w, clWaitForEvents(1, &ebad) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           "thread %d: a command after a failed user event did not fail", w->idx);
    cl_int s = 0;
    EXPECT_OK(w, clGetEventInfo(ebad, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
    EXPECT(w, s == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "status %d", s);
    EXPECT_OK(w, clFinish(q));
    while (atomic_load(&w->callbacks) < 1)
        sched_yield();
    EXPECT_OK(w, clReleaseEvent(ew));
    EXPECT_OK(w, clReleaseEvent(er));
    EXPECT_OK(w, clReleaseEvent(ebad));
    EXPECT_OK(w, clReleaseMemObject(buf));
    if (q != shared_q)
        EXPECT_OK(w, clReleaseCommandQueue(q));
}

static void *gated_main(void *arg)
{
    gated_body(arg);
    return NULL;
}

/* Sets gate_fail, racing another thread doing the same. */
static void *fail_gate(void *arg)
{
    *(cl_int *)arg = clSetUserEventStatus(gate_fail, -1);
    return NULL;
}

Test(threads, user_events_across_threads)
{
    cl_int err;
    gate_ok = clCreateUserEvent(ctx, &err);
    cr_assert_eq(err, CL_SUCCESS);
    gate_fail = clCreateUserEvent(ctx, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(pthread_barrier_init(&enqueued, NULL, NTHREADS + 1), 0);
    worker w[NTHREADS];
    memset(w, 0, sizeof w);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].idx = i;
        cr_assert_eq(pthread_create(&w[i].thread, NULL, gated_main, &w[i]), 0);
    }
    pthread_barrier_wait(&enqueued);
    /* Two threads set the failing gate at once: exactly one succeeds. */
    pthread_t setter;
    cl_int rc[2];
    cr_assert_eq(pthread_create(&setter, NULL, fail_gate, &rc[0]), 0);
    rc[1] = clSetUserEventStatus(gate_fail, -2);
    pthread_join(setter, NULL);
    cr_expect((rc[0] == CL_SUCCESS) != (rc[1] == CL_SUCCESS) &&
                  (rc[0] == CL_INVALID_OPERATION || rc[1] == CL_INVALID_OPERATION),
              "racing clSetUserEventStatus: %d and %d", rc[0], rc[1]);
    cr_expect_eq(clSetUserEventStatus(gate_ok, CL_COMPLETE), CL_SUCCESS);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(w[i].thread, NULL);
    for (int i = 0; i < NTHREADS; i++) {
        cr_expect_str_empty(w[i].failure, "thread %d: %s", i, w[i].failure);
        cr_expect_eq(atomic_load(&w[i].bad_callbacks), 0, "thread %d: bad callbacks", i);
    }
    pthread_barrier_destroy(&enqueued);
    clReleaseEvent(gate_ok);
    clReleaseEvent(gate_fail);
}

/* ---- racing on one user event ---- */

static cl_event race_event; /* the user event both threads set */
static atomic_int race_go;  /* the round the helper thread should race in */

/* Sets race_event as soon as its round starts; the result in *arg. */
static void *race_setter(void *arg)
{
    int round = ((int *)arg)[0];
    while (atomic_load(&race_go) != round)
        sched_yield();
    ((int *)arg)[1] = clSetUserEventStatus(race_event, CL_COMPLETE);
    return NULL;
}

Test(threads, racing_user_event_status)
{
    for (int round = 1; round <= 16; round++) {
        cl_int err;
        race_event = clCreateUserEvent(ctx, &err);
        cr_assert_eq(err, CL_SUCCESS);
        /* A marker waits for it, and a third party reads its status meanwhile. */
        cl_event marker;
        cr_assert_eq(clEnqueueMarkerWithWaitList(shared_q, 1, &race_event, &marker),
                     CL_SUCCESS);
        int arg[2] = {round, 1};
        pthread_t t;
        cr_assert_eq(pthread_create(&t, NULL, race_setter, arg), 0);
        atomic_store(&race_go, round);
        cl_int mine = clSetUserEventStatus(race_event, CL_COMPLETE);
        cl_int s;
        cr_expect_eq(clGetEventInfo(race_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s,
                                    &s, NULL), CL_SUCCESS);
        pthread_join(t, NULL);
        cr_expect((mine == CL_SUCCESS) != (arg[1] == CL_SUCCESS) &&
                      (mine == CL_INVALID_OPERATION || arg[1] == CL_INVALID_OPERATION),
                  "round %d: racing clSetUserEventStatus returned %d and %d", round, mine,
                  arg[1]);
        cr_expect_eq(clWaitForEvents(1, &marker), CL_SUCCESS);
        clReleaseEvent(marker);
        clReleaseEvent(race_event);
    }
}

#ifdef CLHLS_NO_CRITERION
int main(void)
{
    for (int i = 0; i < shim_ntests; i++) {
        fprintf(stderr, "[ RUN  ] %s\n", shim_tests[i].name);
        shim_suite.init();
        shim_tests[i].fn();
        shim_suite.fini();
        fprintf(stderr, "[ DONE ] %s\n", shim_tests[i].name);
    }
    return shim_failed;
}
#endif
