/* A host program for check_trace.py, run with CLHLS_TRACE and CLHLS_COUNTERS set as a
 * user would set them. It exits without releasing anything (the files are written at
 * exit) and prints what clGetEventProfilingInfo returned, one line per command:
 *   PROFILE <label> <queued> <submit> <start> <end>      (ns)
 *   FAILED <label> <status>
 *
 * `trace_host timeline`: on two in-order profiling queues, a kernel of 64K work-items
 * and a 4 KiB write of the other queue both held by one user event (they overlap on the
 * device timeline), a marker, a kernel that stores far outside its buffer (it fails)
 * and a read that waits for it (it fails without running).
 * `trace_host threads`: four threads each enqueue writes and a marker on a queue of
 * their own; the program exits as soon as they enqueued, without waiting.
 * `trace_host at_once`: two kernels of the program (scale and add, 64K work-items each)
 * on two queues, both held by one user event: they run at once in the accelerator.
 * `trace_host channels`: task kernels joined by a channel of depth 16 on one in-order
 * queue: produce 8 elements, then consume them; produce 3, consume 3; then both at
 * once on two queues, 4096 elements (the counters give how full the channel got). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The program exits holding every object, as programs do; under AddressSanitizer its
 * leak check would report them all. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static const char *source =
    "__kernel void scale(__global const int *in, __global int *out, int k)\n"
    "{ size_t i = get_global_id(0); out[i] = k * in[i]; }\n"
    "__kernel void store_at(__global int *out, int at)\n"
    "{ out[at + get_global_id(0)] = 1; }\n"
    "__kernel void add(__global const int *in, __global int *out)\n"
    "{ size_t i = get_global_id(0); out[i] = in[i] + 1; }\n";

static cl_context ctx;
static cl_device_id dev;

#define CHECK(call)                                                                   \
    do {                                                                              \
        cl_int rc_ = (call);                                                          \
        if (rc_ != CL_SUCCESS) {                                                      \
            fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #call, rc_);      \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static cl_command_queue queue(void)
{
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    CHECK(err);
    return q;
}

static cl_mem buffer(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    return m;
}

/* The program of one source string, built for the device. */
static cl_program program(const char *text)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    return p;
}

static cl_kernel kernel(cl_program p, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK(err);
    return k;
}

static void print_profile(const char *label, cl_event e)
{
    cl_int status;
    CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    if (status != CL_COMPLETE) {
        printf("FAILED %s %d\n", label, status);
        return;
    }
    static const cl_profiling_info what[] = {CL_PROFILING_COMMAND_QUEUED,
                                             CL_PROFILING_COMMAND_SUBMIT,
                                             CL_PROFILING_COMMAND_START,
                                             CL_PROFILING_COMMAND_END};
    cl_ulong t[4];
    for (int i = 0; i < 4; i++)
        CHECK(clGetEventProfilingInfo(e, what[i], sizeof t[i], &t[i], NULL));
    printf("PROFILE %s %llu %llu %llu %llu\n", label, (unsigned long long)t[0],
           (unsigned long long)t[1], (unsigned long long)t[2], (unsigned long long)t[3]);
}

static void timeline(void)
{
    enum { N = 1 << 16, SMALL = 4096 };
    static char data[SMALL];
    cl_int err;
    cl_program p = program(source);
    cl_kernel scale = kernel(p, "scale");
    cl_kernel store_at = kernel(p, "store_at");
    cl_mem in = buffer(N * sizeof(int)), out = buffer(N * sizeof(int)), w = buffer(SMALL);
    int factor = 3, far = 1 << 28;
    CHECK(clSetKernelArg(scale, 0, sizeof in, &in));
    CHECK(clSetKernelArg(scale, 1, sizeof out, &out));
    CHECK(clSetKernelArg(scale, 2, sizeof factor, &factor));
    CHECK(clSetKernelArg(store_at, 0, sizeof w, &w));
    CHECK(clSetKernelArg(store_at, 1, sizeof far, &far));
    cl_command_queue q1 = queue(), q2 = queue();
    cl_event gate = clCreateUserEvent(ctx, &err), ke, we, mk, bad, rd;
    CHECK(err);
    size_t global = N, local = 64, one = 1;
    CHECK(clEnqueueNDRangeKernel(q1, scale, 1, NULL, &global, &local, 1, &gate, &ke));
    CHECK(clEnqueueWriteBuffer(q2, w, CL_FALSE, 0, SMALL, data, 1, &gate, &we));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clFinish(q1));
    CHECK(clFinish(q2));
    CHECK(clEnqueueMarkerWithWaitList(q2, 0, NULL, &mk));
    CHECK(clEnqueueNDRangeKernel(q1, store_at, 1, NULL, &one, &one, 0, NULL, &bad));
    static int back[16];
    cl_int rc = clEnqueueReadBuffer(q1, w, CL_TRUE, 0, sizeof back, back, 1, &bad, &rd);
    if (rc != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        fprintf(stderr, "the read after the failing kernel returned %d\n", rc);
        exit(1);
    }
    CHECK(clFinish(q1));
    CHECK(clFinish(q2));
    print_profile("kernel", ke);
    print_profile("write", we);
    print_profile("marker", mk);
    print_profile("bad_kernel", bad);
    print_profile("read", rd);
}

static void at_once(void)
{
    enum { N = 1 << 16 };
    cl_int err;
    cl_program p = program(source);
    cl_kernel scale = kernel(p, "scale");
    cl_kernel add = kernel(p, "add");
    cl_mem in = buffer(N * sizeof(int)), out = buffer(N * sizeof(int)),
           out2 = buffer(N * sizeof(int));
    int factor = 3;
    CHECK(clSetKernelArg(scale, 0, sizeof in, &in));
    CHECK(clSetKernelArg(scale, 1, sizeof out, &out));
    CHECK(clSetKernelArg(scale, 2, sizeof factor, &factor));
    CHECK(clSetKernelArg(add, 0, sizeof in, &in));
    CHECK(clSetKernelArg(add, 1, sizeof out2, &out2));
    cl_command_queue q1 = queue(), q2 = queue();
    cl_event gate = clCreateUserEvent(ctx, &err), k1, k2;
    CHECK(err);
    size_t global = N;
    CHECK(clEnqueueNDRangeKernel(q1, scale, 1, NULL, &global, NULL, 1, &gate, &k1));
    CHECK(clEnqueueNDRangeKernel(q2, add, 1, NULL, &global, NULL, 1, &gate, &k2));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clFinish(q1));
    CHECK(clFinish(q2));
    print_profile("scale", k1);
    print_profile("add", k2);
}

static const char *channel_source =
    "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
    "channel int c __attribute__((depth(16)));\n"
    "__kernel void produce(int n) { for (int i = 0; i < n; i++) write_channel_intel(c, i); }\n"
    "__kernel void consume(__global int *out, int n)\n"
    "{ for (int i = 0; i < n; i++) out[i] = read_channel_intel(c); }\n";

/* A single work-item launch (clEnqueueTask, deprecated in the target version). */
static void task(cl_command_queue q, cl_kernel k, cl_uint nwait, const cl_event *wait)
{
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, nwait, wait, NULL));
}

static void channels(void)
{
    enum { N = 4096 };
    cl_int err;
    cl_program p = program(channel_source);
    cl_kernel produce = kernel(p, "produce");
    cl_kernel consume = kernel(p, "consume");
    cl_mem out = buffer(N * sizeof(int));
    CHECK(clSetKernelArg(consume, 0, sizeof out, &out));
    cl_command_queue q1 = queue(), q2 = queue();
    static const int in_turn[] = {8, 3};
    for (size_t i = 0; i < sizeof in_turn / sizeof *in_turn; i++) {
        CHECK(clSetKernelArg(produce, 0, sizeof(int), &in_turn[i]));
        CHECK(clSetKernelArg(consume, 1, sizeof(int), &in_turn[i]));
        task(q1, produce, 0, NULL);
        task(q1, consume, 0, NULL);
        CHECK(clFinish(q1));
    }
    int n = N;
    CHECK(clSetKernelArg(produce, 0, sizeof n, &n));
    CHECK(clSetKernelArg(consume, 1, sizeof n, &n));
    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK(err);
    task(q1, produce, 1, &gate);
    task(q2, consume, 1, &gate);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clFinish(q1));
    CHECK(clFinish(q2));
    static int back[N];
    CHECK(clEnqueueReadBuffer(q2, out, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (back[i] != i) {
            fprintf(stderr, "consume: out[%d] = %d\n", i, back[i]);
            exit(1);
        }
}

enum { THREADS = 4, WRITES = 20 };

static void *enqueue_writes(void *arg)
{
    static char data[THREADS][1024];
    char *mine = data[(size_t)arg];
    cl_command_queue q = queue();
    cl_mem m = buffer(sizeof data[0]);
    for (int i = 0; i < WRITES; i++)
        CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof data[0], mine, 0, NULL, NULL));
    CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, NULL));
    return NULL;
}

static void threads(void)
{
    pthread_t t[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, enqueue_writes, (void *)i) != 0)
            exit(1);
    for (size_t i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "timeline") && strcmp(argv[1], "threads") &&
                      strcmp(argv[1], "at_once") && strcmp(argv[1], "channels"))) {
        fprintf(stderr, "usage: trace_host timeline|threads|at_once|channels\n");
        return 2;
    }
    cl_platform_id plat;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &plat, NULL));
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    if (!strcmp(argv[1], "timeline"))
        timeline();
    else if (!strcmp(argv[1], "at_once"))
        at_once();
    else if (!strcmp(argv[1], "channels"))
        channels();
    else
        threads();
    printf("DONE\n");
    fflush(stdout);
    return 0; /* nothing released: the runtime writes its files at exit */
}
