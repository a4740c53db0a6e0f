/* End-to-end: failures the host program survives. A build with a clang error fails with
 * CL_BUILD_PROGRAM_FAILURE and a "file:line:col: error" log; a kernel that stores out of
 * bounds ends its event with a negative status and a message naming the access, its
 * source line and the buffer it missed (on stderr and to the context's callback), while
 * the queue and the program go on working; so does a search loop whose speculated loads
 * leave the buffer in an iteration that is not past its exit; so does a kernel stopped by the watchdog, whose
 * message names the loop where its work-items are stuck, or the barrier where part of a
 * work-group waits for the rest. */
#include <regex.h>

#include "e2e.h"

static const char *bad_src =
    "__kernel void broken(__global int *a)\n"
    "{\n"
    "    a[get_global_id(0)] = undeclared_thing;\n"
    "}\n";

static const char *oob_src =
    "__kernel void oob(__global int *a, int far)\n"
    "{\n"
    "    a[get_global_id(0) + far] = 1;\n"
    "}\n"
    "__kernel void fill(__global int *a, int v)\n"
    "{\n"
    "    a[get_global_id(0)] = v;\n"
    "}\n"
    "__kernel void spin(__global int *a, int stop)\n"
    "{\n"
    "    int x = 0, n = 0;\n"
    "    while (x != stop) {\n"
    "        x = (x + 6) & 63;\n"
    "        n++;\n"
    "    }\n"
    "    a[get_global_id(0)] = n;\n"
    "}\n"
    "__kernel void divergent(__global int *a)\n"
    "{\n"
    "    __local int t[64];\n"
    "    int l = get_local_id(0);\n"
    "    t[l] = l;\n"
    "    for (int i = 0; i < a[l]; i++)\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    a[get_global_id(0)] = t[63 - l];\n"
    "}\n"
    "__kernel void peek(__global int *dst, __global const int *src, int off)\n"
    "{\n"
    "    dst[get_global_id(0)] = src[get_global_id(0) + off];\n"
    "}\n"
    "__kernel void find(__global const int *a, __global int *out, int key)\n"
    "{\n"
    "    int i = 0;\n"
    "    while (a[i] != key)\n"
    "        i++;\n"
    "    out[0] = i;\n"
    "}\n"
    "__kernel void guarded(__global int *a, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        a[i] = 3 * i;\n"
    "}\n";

/* The last message the runtime gave the context's notify callback. */
static char notified[4096];

static void CL_CALLBACK notify(const char *errinfo, const void *info, size_t size, void *user)
{
    (void)info, (void)size, (void)user;
    snprintf(notified, sizeof notified, "%s", errinfo);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    /* a context that reports failures to the program */
    clReleaseCommandQueue(env.queue);
    clReleaseContext(env.ctx);
    cl_int cerr;
    env.ctx = clCreateContext(NULL, 1, &env.device, notify, NULL, &cerr);
    CL_OK(cerr);
    env.queue = clCreateCommandQueue(env.ctx, env.device, CL_QUEUE_PROFILING_ENABLE, &cerr);
    CL_OK(cerr);

    /* 1. Build failure. */
    cl_int st;
    cl_program bad = e2e_build(&env, bad_src, "", 0, &st);
    EXPECT(st == CL_BUILD_PROGRAM_FAILURE);
    cl_build_status bs;
    CL_OK(clGetProgramBuildInfo(bad, env.device, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    EXPECT(bs == CL_BUILD_ERROR);
    char *log = e2e_build_log(&env, bad);
    regex_t re;
    EXPECT(regcomp(&re, "[^ :]+:3:[0-9]+: error", REG_EXTENDED) == 0);
    if (regexec(&re, log, 0, NULL, 0) != 0) {
        fprintf(stderr, "unexpected build log:\n%s\n", log);
        return 1;
    }
    regfree(&re);
    free(log);
    cl_int err;
    EXPECT(clCreateKernel(bad, "broken", &err) == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(bad);

    /* Bad options. */
    cl_program opt = e2e_build(&env, oob_src, "-cl-no-such-option", 0, &st);
    EXPECT(st == CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(opt);

    /* 2. Out-of-bounds store. */
    cl_program p = e2e_build(&env, oob_src, "", 1, NULL);
    cl_kernel k = clCreateKernel(p, "oob", &err);
    CL_OK(err);
    cl_mem m = e2e_buffer(&env, 64 * sizeof(int), NULL);
    int far = 1 << 20; /* 4 MiB past a 256-byte buffer */
    CL_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CL_OK(clSetKernelArg(k, 1, sizeof far, &far));
    size_t n = 64;
    cl_event ev, after;
    CL_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &n, NULL, 0, NULL, &ev));
    CL_OK(clEnqueueMarkerWithWaitList(env.queue, 1, &ev, &after));
    EXPECT(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    EXPECT(st < 0);
    clWaitForEvents(1, &after);
    CL_OK(clGetEventInfo(after, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    EXPECT(st == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clReleaseEvent(ev);
    clReleaseEvent(after);

    EXPECT(strstr(notified, "kernel 'oob': out-of-bounds store of 4 bytes at device address 0x"));
    EXPECT(strstr(notified, " by the store at <source>:3:"));
    EXPECT(strstr(notified, ": 4194048 bytes past the end of argument 0 'a' (256 bytes at 0x"));

    /* The program goes on: the same model runs a good kernel afterwards. */
    cl_kernel kf = clCreateKernel(p, "fill", &err);
    CL_OK(err);
    int v = 42;
    CL_OK(clSetKernelArg(kf, 0, sizeof m, &m));
    CL_OK(clSetKernelArg(kf, 1, sizeof v, &v));
    EXPECT(e2e_run(&env, kf, 1, NULL, &n, NULL) == CL_COMPLETE);
    int back[64];
    e2e_read(&env, m, sizeof back, back);
    for (int i = 0; i < 64; i++)
        EXPECT(back[i] == 42);

    /* Precise: a store 16 bytes past the end of a 64-byte buffer (inside its allocation's
     * padding), a load just past another buffer's end, a store past the end of a
     * sub-buffer into its parent's memory: each ends the kernel with the access, its
     * source line and the buffer it missed. A bounds check keeps the accesses of the
     * work-items beyond the buffer from being made at all. */
    cl_mem m16 = e2e_buffer(&env, 16 * sizeof(int), NULL);
    far = 20;
    size_t one = 1;
    CL_OK(clSetKernelArg(k, 0, sizeof m16, &m16));
    CL_OK(clSetKernelArg(k, 1, sizeof far, &far));
    EXPECT(e2e_run(&env, k, 1, NULL, &one, NULL) < 0);
    EXPECT(strstr(notified, "kernel 'oob': out-of-bounds store of 4 bytes at device address 0x"));
    EXPECT(strstr(notified, ": 16 bytes past the end of argument 0 'a' (64 bytes at 0x"));
    cl_kernel kp = clCreateKernel(p, "peek", &err);
    CL_OK(err);
    int off = 1;
    size_t sixteen = 16;
    CL_OK(clSetKernelArg(kp, 0, sizeof m, &m));
    CL_OK(clSetKernelArg(kp, 1, sizeof m16, &m16));
    CL_OK(clSetKernelArg(kp, 2, sizeof off, &off));
    EXPECT(e2e_run(&env, kp, 1, NULL, &sixteen, NULL) < 0);
    EXPECT(strstr(notified, "kernel 'peek': out-of-bounds load of 4 bytes at device address 0x"));
    EXPECT(strstr(notified, " by the load at <source>:29:29:"));
    EXPECT(strstr(notified, ": 0 bytes past the end of argument 1 'src' (64 bytes at 0x"));
    off = 0; /* in bounds, the same kernel runs */
    CL_OK(clSetKernelArg(kp, 2, sizeof off, &off));
    EXPECT(e2e_run(&env, kp, 1, NULL, &sixteen, NULL) == CL_COMPLETE);
    cl_buffer_region half = {0, 32 * sizeof(int)};
    cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
    CL_OK(err);
    size_t n33 = 33;
    CL_OK(clSetKernelArg(kf, 0, sizeof sub, &sub));
    CL_OK(clSetKernelArg(kf, 1, sizeof v, &v));
    EXPECT(e2e_run(&env, kf, 1, NULL, &n33, NULL) < 0);
    EXPECT(strstr(notified, "kernel 'fill': out-of-bounds store of 4 bytes"));
    EXPECT(strstr(notified, ": 0 bytes past the end of argument 0 'a' (128 bytes at 0x"));
    cl_kernel kg = clCreateKernel(p, "guarded", &err);
    CL_OK(err);
    int count = 60;
    size_t n64 = 64;
    CL_OK(clSetKernelArg(kg, 0, sizeof sub, &sub));
    CL_OK(clSetKernelArg(kg, 1, sizeof(int), &(int){32}));
    EXPECT(e2e_run(&env, kg, 1, NULL, &n64, NULL) == CL_COMPLETE);
    CL_OK(clSetKernelArg(kg, 0, sizeof m, &m));
    CL_OK(clSetKernelArg(kg, 1, sizeof count, &count));
    EXPECT(e2e_run(&env, kg, 1, NULL, &n64, NULL) == CL_COMPLETE);
    int got[64];
    e2e_read(&env, m, sizeof got, got);
    for (int i = 0; i < 60; i++)
        EXPECT(got[i] == 3 * i);
    clReleaseKernel(kg);
    clReleaseKernel(kp);
    clReleaseMemObject(sub);
    clReleaseMemObject(m16);

    /* A search loop (single work-item, pipelined): its later iterations load before
     * the exit is known, past the end of the buffer when the key is its last element;
     * those loads change nothing. When the key is missing, the first load past the end
     * belongs to an iteration that is not past the exit: out of bounds, reported when
     * the watchdog finds the kernel waiting on it. */
    cl_kernel kfind = clCreateKernel(p, "find", &err);
    CL_OK(err);
    int fives[64];
    for (int i = 0; i < 64; i++)
        fives[i] = 5 * i;
    cl_mem mfives = e2e_buffer(&env, sizeof fives, fives), mfound = e2e_buffer(&env, 4, NULL);
    CL_OK(clSetKernelArg(kfind, 0, sizeof mfives, &mfives));
    CL_OK(clSetKernelArg(kfind, 1, sizeof mfound, &mfound));
    int key = 5 * 63, found = -1;
    CL_OK(clSetKernelArg(kfind, 2, sizeof key, &key));
    EXPECT(e2e_task(&env, kfind) == CL_COMPLETE);
    e2e_read(&env, mfound, sizeof found, &found);
    EXPECT(found == 63);
    key = 7;
    CL_OK(clSetKernelArg(kfind, 2, sizeof key, &key));
    EXPECT(e2e_task(&env, kfind) < 0);
    EXPECT(strstr(notified, "kernel 'find': out-of-bounds load of 4 bytes at device address 0x"));
    EXPECT(strstr(notified, " by the load at <source>:"));
    EXPECT(strstr(notified, ": 0 bytes past the end of argument 0 'a' (256 bytes at 0x"));
    EXPECT(strstr(notified, "speculated loop iteration that was not past the loop's exit"));
    key = 5 * 2; /* the program goes on */
    CL_OK(clSetKernelArg(kfind, 2, sizeof key, &key));
    EXPECT(e2e_task(&env, kfind) == CL_COMPLETE);
    e2e_read(&env, mfound, sizeof found, &found);
    EXPECT(found == 2);
    clReleaseMemObject(mfives);
    clReleaseMemObject(mfound);
    clReleaseKernel(kfind);

    /* 3. A loop that never ends (x stays even, the stop is odd) makes no forward
     * progress: the watchdog ends it with a negative status and a message that names
     * the loop; the program goes on. A long kernel that keeps moving is not hung, even
     * with a watchdog window far shorter than the kernel. */
    cl_kernel ks = clCreateKernel(p, "spin", &err);
    CL_OK(err);
    int stop = 7;
    CL_OK(clSetKernelArg(ks, 0, sizeof m, &m));
    CL_OK(clSetKernelArg(ks, 1, sizeof stop, &stop));
    setenv("CLHLS_WATCHDOG_CYCLES", "20000", 1);
    EXPECT(e2e_run(&env, ks, 1, NULL, &n, NULL) < 0);
    EXPECT(strstr(notified, "made no forward progress for 20000 cycles"));
    EXPECT(strstr(notified, "stuck: loop at <source>:"));
    EXPECT(strstr(notified, "work-items inside: "));
    stop = 40;
    CL_OK(clSetKernelArg(ks, 1, sizeof stop, &stop));
    EXPECT(e2e_run(&env, ks, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, m, sizeof back, back);
    for (int i = 0; i < 64; i++)
        EXPECT(back[i] == 28); /* 40 = 6 * 28 mod 64 */
    size_t big = 1 << 16;
    cl_mem mb = e2e_buffer(&env, big * sizeof(int), NULL);
    CL_OK(clSetKernelArg(kf, 0, sizeof mb, &mb));
    setenv("CLHLS_WATCHDOG_CYCLES", "1000", 1);
    EXPECT(e2e_run(&env, kf, 1, NULL, &big, NULL) == CL_COMPLETE);
    unsetenv("CLHLS_WATCHDOG_CYCLES");
    int *all = malloc(big * sizeof *all);
    e2e_read(&env, mb, big * sizeof *all, all);
    for (size_t i = 0; i < big; i++)
        EXPECT(all[i] == 42);
    free(all);
    clReleaseMemObject(mb);
    clReleaseKernel(ks);

    /* 4. A barrier that half of a group reaches twice (undefined in OpenCL, warned at
     * build time): the group waits forever; the watchdog's message names the barrier and
     * how many work-items wait there. */
    char *warned = e2e_build_log(&env, p);
    EXPECT(strstr(warned, "warning: work-items of a group may reach this barrier"));
    free(warned);
    int trips[64];
    for (int i = 0; i < 64; i++)
        trips[i] = 1 + (i & 1);
    CL_OK(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, sizeof trips, trips, 0, NULL, NULL));
    cl_kernel kd = clCreateKernel(p, "divergent", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(kd, 0, sizeof m, &m));
    size_t local = 64;
    setenv("CLHLS_WATCHDOG_CYCLES", "20000", 1);
    EXPECT(e2e_run(&env, kd, 1, NULL, &n, &local) < 0);
    unsetenv("CLHLS_WATCHDOG_CYCLES");
    EXPECT(strstr(notified, "; barrier at <source>:24:9: work-items waiting: 32 of "));
    clReleaseKernel(kd);

    clReleaseKernel(k);
    clReleaseKernel(kf);
    clReleaseMemObject(m);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
