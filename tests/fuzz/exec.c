/* The executor of the differential tests: one process per platform and program, started
 * by the runner (runner.c), so that clhls (which loads libLLVM-16) and PoCL (which loads
 * its own LLVM) never share a process, a crash or hang of one side is only that child's,
 * and the PoCL side can run in an executable built without sanitizers.
 *
 *   clhls_fuzz_exec PLATFORM JOB RESULT_DIR
 *
 * PLATFORM is a substring of the platform's name. JOB is a text file:
 *   source FILE
 *   options TEXT...
 *   kernel NAME DIMS G0 G1 G2 L0 L1 L2        (one line per kernel, in order)
 * The executor builds the program and runs each kernel on fresh buffers (`out`: one
 * word per work-item, `in`: FZ_INPUT_WORDS words, `res`: FZ_RES_WORDS words),
 * writing RESULT_DIR/I.bin (out then res) for kernel I. It reports on stdout, one line
 * each, flushed at once so the runner knows where it stopped:
 *   BUILD_OK | BUILD_FAIL (log in RESULT_DIR/build.log) | SETUP_FAIL message
 *   START I  then  DONE I  or  ERROR I code where
 * Exit status 0 when everything ran (ERROR lines included), 2 on a build failure,
 * 3 on a setup failure. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One kernel to run. */
typedef struct job_kernel {
    char name[64];      /* kernel function */
    fz_shape shape;     /* NDRange */
} job_kernel;

/* The job file. */
typedef struct job {
    char *source;           /* program text */
    char options[1024];     /* build options */
    job_kernel *kernels;    /* what to run */
    int nkernels;           /* how many */
} job;

static void setup_fail(const char *what, cl_int err)
{
    printf("SETUP_FAIL %s (%d)\n", what, err);
    fflush(stdout);
    exit(3);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(text);
        return NULL;
    }
    text[n] = 0;
    fclose(f);
    return text;
}

static void read_job(const char *path, job *j)
{
    FILE *f = fopen(path, "r");
    if (!f)
        setup_fail("cannot open the job file", 0);
    char line[2048];
    memset(j, 0, sizeof *j);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "source ", 7)) {
            j->source = read_file(line + 7);
            if (!j->source)
                setup_fail("cannot read the source file", 0);
        } else if (!strncmp(line, "options ", 8)) {
            size_t n = strlen(line + 8);
            if (n >= sizeof j->options)
                setup_fail("the options are too long", 0);
            memcpy(j->options, line + 8, n + 1);
        } else if (!strncmp(line, "kernel ", 7)) {
            j->kernels = realloc(j->kernels, sizeof *j->kernels * (size_t)(j->nkernels + 1));
            job_kernel *k = &j->kernels[j->nkernels++];
            memset(k, 0, sizeof *k);
            fz_shape *s = &k->shape;
            if (sscanf(line + 7, "%63s %u %zu %zu %zu %zu %zu %zu", k->name, &s->dims,
                       &s->global[0], &s->global[1], &s->global[2], &s->local[0], &s->local[1],
                       &s->local[2]) != 8)
                setup_fail("bad kernel line in the job file", 0);
        }
    }
    fclose(f);
    if (!j->source)
        setup_fail("the job file names no source", 0);
}

static cl_device_id find_device(const char *platform_name)
{
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);
    if (err != CL_SUCCESS || n == 0)
        setup_fail("no OpenCL platform (check OCL_ICD_VENDORS)", err);
    cl_platform_id *ids = calloc(n, sizeof *ids);
    clGetPlatformIDs(n, ids, NULL);
    for (cl_uint i = 0; i < n; i++) {
        char name[256] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, platform_name)) {
            cl_device_id dev;
            err = clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
            free(ids);
            if (err != CL_SUCCESS)
                setup_fail("the platform has no device", err);
            return dev;
        }
    }
    free(ids);
    setup_fail("no platform of that name", 0);
    return NULL;
}

static void write_build_log(cl_program prog, cl_device_id dev, const char *dir)
{
    size_t len = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(1, len + 1);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/build.log", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(log, f);
        fclose(f);
    }
    free(log);
}

/* Runs one kernel; returns CL_SUCCESS or the first error, with where naming the call. */
static cl_int run_kernel(cl_context ctx, cl_command_queue q, cl_program prog,
                         const job_kernel *jk, const char *dir, int index, const char **where)
{
    const fz_shape *s = &jk->shape;
    size_t items = s->global[0] * s->global[1] * s->global[2];
    size_t out_bytes = items * 4, res_bytes = FZ_RES_WORDS * 4;
    uint32_t *host = malloc(out_bytes + res_bytes);
    uint32_t input[FZ_INPUT_WORDS];
    for (uint32_t i = 0; i < FZ_INPUT_WORDS; i++)
        input[i] = fz_input_word(i);
    for (size_t i = 0; i < items; i++)
        host[i] = 0xdeadbeefu;
    for (uint32_t i = 0; i < FZ_RES_WORDS; i++)
        host[items + i] = fz_result_init_word(i);

    cl_int err;
    cl_mem out = NULL, in = NULL, res = NULL;
    cl_kernel kernel = clCreateKernel(prog, jk->name, &err);
    *where = "clCreateKernel";
    if (err != CL_SUCCESS)
        goto done;
    *where = "clCreateBuffer";
    out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_bytes, host, &err);
    if (err != CL_SUCCESS)
        goto done;
    in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof input, input, &err);
    if (err != CL_SUCCESS)
        goto done;
    res = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, res_bytes, host + items,
                         &err);
    if (err != CL_SUCCESS)
        goto done;
    *where = "clSetKernelArg";
    if ((err = clSetKernelArg(kernel, 0, sizeof out, &out)) != CL_SUCCESS ||
        (err = clSetKernelArg(kernel, 1, sizeof in, &in)) != CL_SUCCESS ||
        (err = clSetKernelArg(kernel, 2, sizeof res, &res)) != CL_SUCCESS)
        goto done;
    *where = "clEnqueueNDRangeKernel";
    err = clEnqueueNDRangeKernel(q, kernel, s->dims, NULL, s->global, s->local, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        goto done;
    *where = "clFinish";
    if ((err = clFinish(q)) != CL_SUCCESS)
        goto done;
    *where = "clEnqueueReadBuffer";
    if ((err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, out_bytes, host, 0, NULL, NULL)) !=
            CL_SUCCESS ||
        (err = clEnqueueReadBuffer(q, res, CL_TRUE, 0, res_bytes, host + items, 0, NULL, NULL)) !=
            CL_SUCCESS)
        goto done;
    char path[4096];
    snprintf(path, sizeof path, "%s/%d.bin", dir, index);
    FILE *f = fopen(path, "wb");
    *where = "writing the result file";
    if (!f || fwrite(host, 1, out_bytes + res_bytes, f) != out_bytes + res_bytes)
        err = CL_OUT_OF_HOST_MEMORY;
    if (f)
        fclose(f);
done:
    if (out)
        clReleaseMemObject(out);
    if (in)
        clReleaseMemObject(in);
    if (res)
        clReleaseMemObject(res);
    if (kernel)
        clReleaseKernel(kernel);
    free(host);
    return err;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s PLATFORM JOB RESULT_DIR\n", argv[0]);
        return 3;
    }
    job j;
    read_job(argv[2], &j);
    cl_device_id dev = find_device(argv[1]);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        setup_fail("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (err != CL_SUCCESS)
        setup_fail("clCreateCommandQueue", err);
    const char *src = j.source;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS)
        setup_fail("clCreateProgramWithSource", err);
    err = clBuildProgram(prog, 1, &dev, j.options, NULL, NULL);
    int rc = 0;
    if (err != CL_SUCCESS) {
        write_build_log(prog, dev, argv[3]);
        printf("BUILD_FAIL %d\n", err);
        rc = 2;
    } else {
        printf("BUILD_OK\n");
    }
    fflush(stdout);
    for (int i = 0; i < j.nkernels && rc == 0; i++) {
        printf("START %d\n", i);
        fflush(stdout);
        const char *where = "";
        err = run_kernel(ctx, q, prog, &j.kernels[i], argv[3], i, &where);
        if (err == CL_SUCCESS)
            printf("DONE %d\n", i);
        else
            printf("ERROR %d %d %s\n", i, err, where);
        fflush(stdout);
    }
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(j.source);
    free(j.kernels);
    return rc;
}
