/* Host overhead of the runtime, side by side with PoCL in the same run: wall time
 * per clEnqueueNDRangeKernel + clFinish of a one-work-item kernel, per enqueue of the
 * same kernel pipelined (many enqueues, one clFinish), and per blocking 64-byte
 * clEnqueueReadBuffer and clEnqueueWriteBuffer. Each platform is measured in a child
 * process of its own, found by name through the ocl-icd loader pointed
 * (OCL_ICD_VENDORS) at a directory holding only its .icd (the build tree's clhls.icd,
 * the system's pocl.icd): a platform loaded beside another would share the two cores
 * with its worker threads. Each figure is the best of several batches. Prints a table with the ratio clhls/PoCL (the goal is at most 1.0x); PoCL
 * missing (or --clhls-only) leaves its column n/a. Asserts nothing. clhls's kernel time includes the
 * simulation of the one work-item. A second table (clhls only) shows the device
 * timeline of a kernel and a 1 MiB write released together: on one in-order queue they
 * run one after the other; on two queues the write runs on the host link during the
 * kernel. A third (clhls only) shows two kernels of one program with data-dependent
 * loops released together: on one in-order queue they run one after the other; on two
 * queues they run at once in the accelerator (the accelerator's cycles from the first
 * START to the last END, and the host time the simulation took). */
#define _GNU_SOURCE
#include "bench.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BATCHES 5       /* best of */
#define SYNC_ITERS 200  /* enqueue + finish per batch */
#define PIPE_ITERS 1000 /* enqueues per batch before its one finish */
#define XFER_ITERS 1000 /* blocking transfers per batch */
#define XFER_BYTES 64   /* bytes per transfer */

static const char *source =
    "__kernel void one(__global int *p)\n"
    "{\n"
    "    p[get_global_id(0)] += 1;\n"
    "}\n";

/* What is measured, in microseconds per operation (negative: not measured). */
enum { M_SYNC, M_PIPE, M_READ, M_WRITE, M_COUNT };
static const char *const what[M_COUNT] = {
    "NDRange + clFinish (1 work-item)",
    "NDRange, pipelined (1 finish/1000)",
    "clEnqueueReadBuffer 64 B, blocking",
    "clEnqueueWriteBuffer 64 B, blocking",
};

/* Copies src into dir/name; 0 on success. */
static int copy_file(const char *src, const char *dir, const char *name)
{
    char path[4096], buf[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *in = fopen(src, "rb"), *out = in ? fopen(path, "wb") : NULL;
    size_t n;
    int rc = in && out ? 0 : -1;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
        rc = fwrite(buf, 1, n, out) == n ? 0 : -1;
    if (in)
        fclose(in);
    if (out && fclose(out))
        rc = -1;
    return rc;
}

/* Measures platform p into us[]; its device name into dev_name. */
static void measure(cl_platform_id p, double us[M_COUNT], char *dev_name, size_t len)
{
    cl_device_id dev;
    cl_int err;
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    clGetDeviceInfo(dev, CL_DEVICE_NAME, len - 1, dev_name, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "one", &err);
    CHECK(err);
    int zero = 0;
    cl_mem counter = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero,
                                    &zero, &err);
    CHECK(err);
    cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, XFER_BYTES, NULL, &err);
    CHECK(err);
    ARG(k, 0, counter);
    size_t one = 1;
    unsigned char host[XFER_BYTES];
    memset(host, 0x5a, sizeof host);
    long launches = 0;
    for (int m = 0; m < M_COUNT; m++)
        us[m] = 1e30;
    /* One warm-up batch (not counted), then BATCHES. */
    for (int b = 0; b <= BATCHES; b++) {
        double t0 = now();
        for (int i = 0; i < SYNC_ITERS; i++) {
            CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
            CHECK(clFinish(q));
        }
        double t1 = now();
        for (int i = 0; i < PIPE_ITERS; i++)
            CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
        CHECK(clFinish(q));
        double t2 = now();
        for (int i = 0; i < XFER_ITERS; i++)
            CHECK(clEnqueueReadBuffer(q, small, CL_TRUE, 0, XFER_BYTES, host, 0, NULL, NULL));
        double t3 = now();
        for (int i = 0; i < XFER_ITERS; i++)
            CHECK(clEnqueueWriteBuffer(q, small, CL_TRUE, 0, XFER_BYTES, host, 0, NULL, NULL));
        double t4 = now();
        launches += SYNC_ITERS + PIPE_ITERS;
        if (b == 0)
            continue;
        double t[M_COUNT] = {(t1 - t0) / SYNC_ITERS, (t2 - t1) / PIPE_ITERS,
                             (t3 - t2) / XFER_ITERS, (t4 - t3) / XFER_ITERS};
        for (int m = 0; m < M_COUNT; m++)
            if (t[m] * 1e6 < us[m])
                us[m] = t[m] * 1e6;
    }
    /* Every launch ran: the counter says so. */
    int got = 0;
    CHECK(clEnqueueReadBuffer(q, counter, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    if (got != launches) {
        fprintf(stderr, "%s: the kernel ran %d times, expected %ld\n", dev_name, got, launches);
        exit(1);
    }
    clReleaseMemObject(small);
    clReleaseMemObject(counter);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

#define SPAN_ITEMS (64 * 1024)  /* work-items of the kernel on the timeline */
#define SPAN_BYTES (1u << 20)   /* bytes of the write beside it */

/* Profiling time name of a finished event. */
static cl_ulong prof(cl_event e, cl_profiling_info name)
{
    cl_ulong t = 0;
    CHECK(clGetEventProfilingInfo(e, name, sizeof t, &t, NULL));
    return t;
}

/* The first device of p, a context, two profiling queues on it and src built. */
static cl_program two_queues(cl_platform_id p, const char *src, cl_device_id *dev,
                             cl_context *ctx, cl_command_queue q[2])
{
    cl_int err;
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, dev, NULL));
    *ctx = clCreateContext(NULL, 1, dev, NULL, NULL, &err);
    CHECK(err);
    for (int i = 0; i < 2; i++) {
        q[i] = clCreateCommandQueue(*ctx, *dev, CL_QUEUE_PROFILING_ENABLE, &err);
        CHECK(err);
    }
    cl_program prog = clCreateProgramWithSource(*ctx, 1, &src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, dev, NULL, NULL, NULL));
    return prog;
}

/* ns from the earlier START to the later END of two commands. */
static double span(cl_ulong start0, cl_ulong end0, cl_ulong start1, cl_ulong end1)
{
    return (double)((end0 > end1 ? end0 : end1) - (start0 < start1 ? start0 : start1));
}

/* The device timeline of `one` over SPAN_ITEMS work-items and a SPAN_BYTES write, both
 * held by one user event: on one in-order queue (two = 0) or on two queues. ns[0] the
 * kernel's END - START, ns[1] the write's, ns[2] from the first START to the last END. */
static void timeline(cl_platform_id p, int two, double ns[3])
{
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q[2];
    cl_program prog = two_queues(p, source, &dev, &ctx, q);
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "one", &err);
    CHECK(err);
    cl_mem items = clCreateBuffer(ctx, 0, SPAN_ITEMS * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dst = clCreateBuffer(ctx, 0, SPAN_BYTES, NULL, &err);
    CHECK(err);
    unsigned char *host = calloc(1, SPAN_BYTES);
    ARG(k, 0, items);
    cl_event gate = clCreateUserEvent(ctx, &err), ke, we;
    CHECK(err);
    size_t global = SPAN_ITEMS;
    CHECK(clEnqueueNDRangeKernel(q[0], k, 1, NULL, &global, NULL, 1, &gate, &ke));
    CHECK(clEnqueueWriteBuffer(q[two], dst, CL_FALSE, 0, SPAN_BYTES, host, 1, &gate, &we));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clFinish(q[0]));
    CHECK(clFinish(q[1]));
    cl_ulong ks = prof(ke, CL_PROFILING_COMMAND_START), kend = prof(ke, CL_PROFILING_COMMAND_END);
    cl_ulong ws = prof(we, CL_PROFILING_COMMAND_START), wend = prof(we, CL_PROFILING_COMMAND_END);
    ns[0] = (double)(kend - ks);
    ns[1] = (double)(wend - ws);
    ns[2] = span(ks, kend, ws, wend);
    free(host);
    clReleaseEvent(gate);
    clReleaseEvent(ke);
    clReleaseEvent(we);
    clReleaseMemObject(items);
    clReleaseMemObject(dst);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q[0]);
    clReleaseCommandQueue(q[1]);
    clReleaseContext(ctx);
}

/* Two kernels of one program with data-dependent loops (different compute units). */
static const char *pair_source =
    "__kernel void collatz(__global uint *p)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint x = p[i], steps = 0;\n"
    "    while (x != 1) {\n"
    "        x = (x & 1) ? 3 * x + 1 : x >> 1;\n"
    "        steps++;\n"
    "    }\n"
    "    p[i] = steps;\n"
    "}\n"
    "__kernel void sum_to(__global uint *p)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint s = 0;\n"
    "    for (uint k = 0; k < p[i]; k++)\n"
    "        s += k ^ (uint)i;\n"
    "    p[i] = s;\n"
    "}\n";

#define PAIR_ITEMS 1024 /* work-items of each kernel of the pair */

/* collatz and sum_to over PAIR_ITEMS work-items each, held by one user event, on one
 * in-order queue (two = 0) or on two queues. ns[0] and ns[1] the kernels' END - START,
 * ns[2] from the first START to the last END; *wall_s the host time from the release
 * to the end of both. */
static void pair_timeline(cl_platform_id p, int two, double ns[3], double *wall_s,
                          double *mhz)
{
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q[2];
    cl_program prog = two_queues(p, pair_source, &dev, &ctx, q);
    cl_int err;
    cl_uint clock = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, NULL));
    *mhz = clock;
    static const char *const names[2] = {"collatz", "sum_to"};
    cl_uint init[PAIR_ITEMS];
    for (unsigned i = 0; i < PAIR_ITEMS; i++)
        init[i] = 27 + 2 * (i % 40);
    cl_kernel k[2];
    cl_mem m[2];
    cl_event ev[2];
    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK(err);
    size_t global = PAIR_ITEMS;
    for (int i = 0; i < 2; i++) {
        k[i] = clCreateKernel(prog, names[i], &err);
        CHECK(err);
        m[i] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
        CHECK(err);
        ARG(k[i], 0, m[i]);
        CHECK(clEnqueueNDRangeKernel(q[two ? i : 0], k[i], 1, NULL, &global, NULL, 1, &gate,
                                     &ev[i]));
    }
    double t0 = now();
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clFinish(q[0]));
    CHECK(clFinish(q[1]));
    *wall_s = now() - t0;
    cl_ulong s[2], e[2];
    for (int i = 0; i < 2; i++) {
        s[i] = prof(ev[i], CL_PROFILING_COMMAND_START);
        e[i] = prof(ev[i], CL_PROFILING_COMMAND_END);
        ns[i] = (double)(e[i] - s[i]);
    }
    ns[2] = span(s[0], e[0], s[1], e[1]);
    clReleaseEvent(gate);
    for (int i = 0; i < 2; i++) {
        clReleaseEvent(ev[i]);
        clReleaseMemObject(m[i]);
        clReleaseKernel(k[i]);
        clReleaseCommandQueue(q[i]);
    }
    clReleaseProgram(prog);
    clReleaseContext(ctx);
}

/* What a child process reports of one platform. */
typedef struct platform_result {
    double us[M_COUNT];
    char name[128];
} platform_result;

/* Measures the platform called `name` (found through the .icd files of `vendors`) in
 * a child process; 0 and *r on success, -1 when it is missing or the child failed. */
static int measure_in_child(const char *vendors, const char *name, platform_result *r)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        setenv("OCL_ICD_VENDORS", vendors, 1);
        cl_platform_id p = bench_find_platform(name);
        platform_result mine = {{0}, ""};
        if (p)
            measure(p, mine.us, mine.name, sizeof mine.name);
        _exit(p && write(fd[1], &mine, sizeof mine) == (ssize_t)sizeof mine ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], r, sizeof *r);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return got == (ssize_t)sizeof *r && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    /* --clhls-only: leave PoCL out (to profile the runtime alone). */
    int clhls_only = argc > 1 && !strcmp(argv[1], "--clhls-only");
    /* A vendors directory per platform, and a build cache of this run. */
    char vendors[] = "/tmp/clhls-bench-icd-XXXXXX";
    char pocl_vendors[] = "/tmp/clhls-bench-icd-XXXXXX";
    char cache[] = "/tmp/clhls-bench-XXXXXX";
    if (!mkdtemp(vendors) || !mkdtemp(pocl_vendors) || !mkdtemp(cache)) {
        perror("mkdtemp");
        return 1;
    }
    if (copy_file(ICD_FILE, vendors, "clhls.icd")) {
        fprintf(stderr, "cannot copy %s\n", ICD_FILE);
        return 1;
    }
    int have_pocl = !clhls_only && copy_file(POCL_ICD_FILE, pocl_vendors, "pocl.icd") == 0;
    setenv("OCL_ICD_VENDORS", vendors, 1);
    setenv("CLHLS_CACHE_DIR", cache, 1);

    /* Both children before this process loads any platform (fork and threads). */
    platform_result res[2];
    if (measure_in_child(vendors, "clhls", &res[0])) {
        fprintf(stderr, "no clhls platform through %s, or its measurement failed\n", vendors);
        return 1;
    }
    int pocl = have_pocl && measure_in_child(pocl_vendors, "Portable Computing Language", &res[1]) == 0;
    double us[2][M_COUNT];
    char names[2][128];
    for (int i = 0; i < 2; i++) {
        for (int m = 0; m < M_COUNT; m++)
            us[i][m] = i == 0 || pocl ? res[i].us[m] : -1;
        snprintf(names[i], sizeof names[i], "%s", i == 0 || pocl ? res[i].name : "");
    }
    cl_platform_id clhls = bench_find_platform("clhls");
    if (!clhls) {
        fprintf(stderr, "no clhls platform through %s\n", vendors);
        return 1;
    }

    printf("\nHost overhead per operation, best of %d batches (us)\n", BATCHES);
    printf("  clhls: %s\n  PoCL:  %s\n\n", names[0], pocl ? names[1] : "(not found)");
    printf("| %-36s | %10s | %10s | %12s |\n", "operation", "clhls", "PoCL", "clhls/PoCL");
    printf("|%s|%s|%s|%s|\n", "--------------------------------------", "------------",
           "------------", "--------------");
    for (int m = 0; m < M_COUNT; m++) {
        char a[32], b[32], r[32];
        cell(a, sizeof a, us[0][m], "%.1f");
        cell(b, sizeof b, us[1][m], "%.1f");
        cell(r, sizeof r, pocl && us[1][m] > 0 ? us[0][m] / us[1][m] : -1, "%.2fx");
        printf("| %-36s | %10s | %10s | %12s |\n", what[m], a, b, r);
    }

    printf("\nDevice timeline (clhls): a kernel of %d work-items and a %u KiB write released "
           "together (ns)\n\n", SPAN_ITEMS, SPAN_BYTES / 1024);
    printf("| %-36s | %10s | %10s | %12s |\n", "queues", "kernel", "write", "first-last");
    printf("|%s|%s|%s|%s|\n", "--------------------------------------", "------------",
           "------------", "--------------");
    for (int two = 0; two < 2; two++) {
        double ns[3];
        timeline(clhls, two, ns);
        printf("| %-36s | %10.0f | %10.0f | %12.0f |\n",
               two ? "two queues (write during the kernel)" : "one in-order queue", ns[0], ns[1],
               ns[2]);
    }

    printf("\nTwo kernels of one program (collatz, sum_to: %d work-items each) released "
           "together: device timeline (ns), the accelerator's cycles from the first START "
           "to the last END, host time of the simulation (s)\n\n", PAIR_ITEMS);
    printf("| %-36s | %10s | %10s | %12s | %12s | %8s |\n", "queues", "collatz", "sum_to",
           "first-last", "accel cycles", "host s");
    printf("|%s|%s|%s|%s|%s|%s|\n", "--------------------------------------", "------------",
           "------------", "--------------", "--------------", "----------");
    for (int two = 0; two < 2; two++) {
        double ns[3], wall, mhz;
        pair_timeline(clhls, two, ns, &wall, &mhz);
        printf("| %-36s | %10.0f | %10.0f | %12.0f | %12.0f | %8.2f |\n",
               two ? "two queues (at once)" : "one in-order queue",
               ns[0], ns[1], ns[2], ns[2] * mhz / 1000.0, wall);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", vendors, pocl_vendors, cache);
    return system(cmd) != 0;
}
