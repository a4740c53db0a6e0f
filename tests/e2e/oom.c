/* End-to-end: host out-of-memory. Child processes run one whole host program (platform,
 * context, queue, buffers, build, kernel, run, read back) with every allocation after
 * the N-th failing (CLHLS_FAIL_ALLOC_AFTER=N), for every N up to the count the program
 * needs. The count is the process's one (common/alloc.h): the runtime's allocations and
 * the simulator bridge's (the model opened, the device memory, the checked ranges of
 * each run) in one sequence; the compiler that clBuildProgram runs counts its own and
 * fails likewise. Each must end normally: every failing call returns an error code (a
 * failing command ends its event with a negative status), nothing crashes, nothing
 * leaks (LeakSanitizer runs in each child), and the program's own cleanup works on
 * whatever was created. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *src =
    "__kernel void twice(__global const int *a, __global int *b)\n"
    "{\n"
    "    b[get_global_id(0)] = 2 * a[get_global_id(0)];\n"
    "}\n";

/* What the host program exits with when some call failed cleanly (an error code):
 * not 1, which is also what a sanitizer report exits with. */
#define CLEAN_FAILURE 3

/* The host program. Returns 0 when everything worked, CLEAN_FAILURE when some call
 * failed cleanly, and never crashes. */
static int host_program(void)
{
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
        return CLEAN_FAILURE;
    int failed = 0, in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = i;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx)
        return CLEAN_FAILURE;
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    cl_kernel k = NULL;
    cl_event ev = NULL;
    failed |= !q || !a || !b || !p;
    if (!failed && clBuildProgram(p, 1, &dev, "", NULL, NULL) == CL_SUCCESS)
        k = clCreateKernel(p, "twice", &err);
    failed |= !k;
    if (!failed) {
        size_t n = 256;
        failed |= clSetKernelArg(k, 0, sizeof a, &a) != CL_SUCCESS;
        failed |= clSetKernelArg(k, 1, sizeof b, &b) != CL_SUCCESS;
        failed |= clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev) != CL_SUCCESS;
        failed |= clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) !=
                  CL_SUCCESS;
        failed |= clFinish(q) != CL_SUCCESS;
        /* a command that fails while it executes ends its event with an error */
        cl_int status = CL_COMPLETE;
        if (ev && clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                 NULL) != CL_SUCCESS)
            status = -1;
        failed |= status != CL_COMPLETE;
    }
    if (!failed)
        for (int i = 0; i < 256; i++)
            if (out[i] != 2 * in[i]) {
                fprintf(stderr, "wrong result at %d: %d\n", i, out[i]);
                return 2;
            }
    if (ev)
        clReleaseEvent(ev);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    if (q)
        clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return failed ? CLEAN_FAILURE : 0;
}

/* Runs the host program in a child with the given allocation budget (-1: none);
 * returns its exit status, or -1 when it died of a signal. */
static int run_child(long budget)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char value[32];
        snprintf(value, sizeof value, "%ld", budget);
        if (budget >= 0)
            setenv("CLHLS_FAIL_ALLOC_AFTER", value, 1);
        exit(host_program()); /* exit, not _exit: LeakSanitizer checks at exit */
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
    /* Without injected failures the program works (and warms the build cache). */
    if (run_child(-1) != 0) {
        fprintf(stderr, "the host program fails without injected failures\n");
        return 1;
    }
    int clean_failures = 0;
    long budget;
    for (budget = 0; budget < 2000; budget++) {
        int rc = run_child(budget);
        if (rc == 0)
            break; /* the budget covers every allocation: done */
        if (rc != CLEAN_FAILURE) {
            fprintf(stderr, "allocation %ld failing: the host program %s (status %d)\n", budget,
                    rc < 0 ? "crashed" : "went wrong", rc);
            return 1;
        }
        clean_failures++;
    }
    printf("%d allocation failures handled cleanly; the program needs %ld allocations\n",
           clean_failures, budget);
    if (clean_failures == 0 || budget == 2000)
        return 1;
    printf("PASSED\n");
    return 0;
}
