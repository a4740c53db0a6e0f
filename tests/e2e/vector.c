/* End-to-end: vector add and saxpy (float) in one program, with explicit and NULL local
 * sizes, checked against the host; and `quad`, whose four scalar loads and stores at
 * consecutive addresses the compiler merges into one 16-byte access each, on a buffer
 * and on a sub-buffer that starts a page in. */
#include <math.h>

#include "e2e.h"

static const char *src =
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void saxpy(float alpha, __global const float *x, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = alpha * x[i] + y[i];\n"
    "}\n"
    "__kernel void quad(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float a = in[4 * i], b = in[4 * i + 1], c = in[4 * i + 2], d = in[4 * i + 3];\n"
    "    out[4 * i] = d;\n"
    "    out[4 * i + 1] = c + 1.0f;\n"
    "    out[4 * i + 2] = b;\n"
    "    out[4 * i + 3] = a - 1.0f;\n"
    "}\n";

int main(void)
{
    enum { N = 4096 };
    static float a[N], b[N], c[N], y[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.25f - 100.0f;
        b[i] = (float)(N - i) * 1.5f;
        y[i] = (float)(i % 17) - 8.0f;
    }
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, "", 1, NULL);
    cl_int err;
    cl_kernel kv = clCreateKernel(p, "vadd", &err);
    CL_OK(err);
    cl_kernel ks = clCreateKernel(p, "saxpy", &err);
    CL_OK(err);
    cl_mem da = e2e_buffer(&env, sizeof a, a), db = e2e_buffer(&env, sizeof b, b);
    cl_mem dc = e2e_buffer(&env, sizeof c, NULL), dy = e2e_buffer(&env, sizeof y, y);

    /* An unset argument is refused. */
    size_t n = N, local = 64;
    EXPECT(clEnqueueNDRangeKernel(env.queue, kv, 1, NULL, &n, &local, 0, NULL, NULL) ==
           CL_INVALID_KERNEL_ARGS);
    CL_OK(clSetKernelArg(kv, 0, sizeof da, &da));
    CL_OK(clSetKernelArg(kv, 1, sizeof db, &db));
    CL_OK(clSetKernelArg(kv, 2, sizeof dc, &dc));
    EXPECT(clSetKernelArg(kv, 3, sizeof dc, &dc) == CL_INVALID_ARG_INDEX);
    EXPECT(clSetKernelArg(kv, 0, 4, &da) == CL_INVALID_ARG_SIZE);
    size_t bad_local = 48;
    EXPECT(clEnqueueNDRangeKernel(env.queue, kv, 1, NULL, &n, &bad_local, 0, NULL, NULL) ==
           CL_INVALID_WORK_GROUP_SIZE);
    EXPECT(clEnqueueNDRangeKernel(env.queue, kv, 4, NULL, &n, NULL, 0, NULL, NULL) ==
           CL_INVALID_WORK_DIMENSION);
    EXPECT(e2e_run(&env, kv, 1, NULL, &n, &local) == CL_COMPLETE);
    e2e_read(&env, dc, sizeof c, c);
    for (int i = 0; i < N; i++)
        EXPECT(c[i] == a[i] + b[i]);

    float alpha = 2.5f;
    EXPECT(clSetKernelArg(ks, 0, sizeof(double), &alpha) == CL_INVALID_ARG_SIZE);
    EXPECT(clSetKernelArg(ks, 0, sizeof alpha, NULL) == CL_INVALID_ARG_VALUE);
    CL_OK(clSetKernelArg(ks, 0, sizeof alpha, &alpha));
    CL_OK(clSetKernelArg(ks, 1, sizeof da, &da));
    CL_OK(clSetKernelArg(ks, 2, sizeof dy, &dy));
    EXPECT(e2e_run(&env, ks, 1, NULL, &n, NULL) == CL_COMPLETE);
    static float out[N];
    e2e_read(&env, dy, sizeof out, out);
    for (int i = 0; i < N; i++)
        EXPECT(fabsf(out[i] - (alpha * a[i] + y[i])) <= 1e-6f * fabsf(alpha * a[i] + y[i]) + 1e-6f);

    char name[64];
    CL_OK(clGetKernelInfo(ks, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    EXPECT(!strcmp(name, "saxpy"));
    cl_kernel_arg_address_qualifier aq;
    CL_OK(clGetKernelArgInfo(ks, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    EXPECT(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    CL_OK(clGetKernelArgInfo(ks, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    EXPECT(!strcmp(name, "alpha"));
    /* quad on the whole of a, then on a sub-buffer of c from byte 4096 on (into y). */
    cl_kernel kq = clCreateKernel(p, "quad", &err);
    CL_OK(err);
    size_t quads = N / 4, sub_quads = (N * sizeof(float) - 4096) / 16;
    cl_buffer_region tail = {4096, N * sizeof(float) - 4096};
    cl_mem dtail = clCreateSubBuffer(dc, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &tail,
                                     &err);
    CL_OK(err);
    for (int pass = 0; pass < 2; pass++) {
        cl_mem in = pass ? dtail : da;
        CL_OK(clSetKernelArg(kq, 0, sizeof in, &in));
        CL_OK(clSetKernelArg(kq, 1, sizeof dy, &dy));
        size_t items = pass ? sub_quads : quads;
        EXPECT(e2e_run(&env, kq, 1, NULL, &items, NULL) == CL_COMPLETE);
        e2e_read(&env, dy, sizeof out, out);
        const float *src_q = pass ? c + 1024 : a;
        for (size_t q = 0; q < items; q++) {
            const float *x = src_q + 4 * q;
            float *o = out + 4 * q;
            EXPECT(o[0] == x[3] && o[1] == x[2] + 1.0f && o[2] == x[1] && o[3] == x[0] - 1.0f);
        }
    }
    clReleaseMemObject(dtail);
    clReleaseKernel(kq);

    cl_kernel all[4];
    cl_uint nk;
    CL_OK(clCreateKernelsInProgram(p, 4, all, &nk));
    EXPECT(nk == 3);
    for (cl_uint k = 0; k < nk; k++)
        clReleaseKernel(all[k]);
    EXPECT(clCreateKernel(p, "nope", &err) == NULL && err == CL_INVALID_KERNEL_NAME);

    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseMemObject(dy);
    clReleaseKernel(kv);
    clReleaseKernel(ks);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
