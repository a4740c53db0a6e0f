/* End-to-end: kernels at the edges of what the compiler supports. A kernel without
 * memory operations (and one without arguments) runs to completion; bool results
 * stored as bytes; a __constant argument; 64-bit arithmetic mixed with char and ushort
 * scalars, reading and writing the same buffer. */
#include "e2e.h"

static const char *src =
    "__kernel void nothing(void) { }\n"
    "__kernel void only_scalar(int a) { }\n"
    "__kernel void bools(__global const int *a, __global uchar *flags, __constant float *k)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    bool b = a[i] > 3;\n"
    "    flags[i] = b;\n"
    "    flags[i + 100] = (uchar)(k[0] > 1.0f) + (uchar)(a[i] == -1);\n"
    "}\n"
    "__kernel void wide(__global ulong *o, long s, char c, ushort us)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    o[i] = (ulong)s * i + (ulong)(long)c - (ulong)us + (i << 40) + (o[i] >> 3)\n"
    "           + get_work_dim();\n"
    "}\n";

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, "", 1, NULL);
    cl_int err;
    size_t n = 100, big = 1000;

    cl_kernel k0 = clCreateKernel(p, "nothing", &err);
    CL_OK(err);
    EXPECT(e2e_run(&env, k0, 1, NULL, &big, NULL) == CL_COMPLETE);
    cl_kernel k1 = clCreateKernel(p, "only_scalar", &err);
    CL_OK(err);
    int a = 5;
    CL_OK(clSetKernelArg(k1, 0, sizeof a, &a));
    size_t g3[3] = {7, 5, 3};
    EXPECT(e2e_run(&env, k1, 3, NULL, g3, NULL) == CL_COMPLETE);

    int in[100];
    for (int i = 0; i < 100; i++)
        in[i] = i % 9 - 4;
    float kval = 2.0f;
    cl_mem bin = e2e_buffer(&env, sizeof in, in);
    cl_mem bflags = e2e_buffer(&env, 200, NULL);
    cl_mem bk = clCreateBuffer(env.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof kval,
                               &kval, &err);
    CL_OK(err);
    cl_kernel kb = clCreateKernel(p, "bools", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(kb, 0, sizeof bin, &bin));
    CL_OK(clSetKernelArg(kb, 1, sizeof bflags, &bflags));
    CL_OK(clSetKernelArg(kb, 2, sizeof bk, &bk));
    EXPECT(e2e_run(&env, kb, 1, NULL, &n, NULL) == CL_COMPLETE);
    unsigned char flags[200];
    e2e_read(&env, bflags, sizeof flags, flags);
    for (int i = 0; i < 100; i++) {
        EXPECT(flags[i] == (in[i] > 3));
        EXPECT(flags[i + 100] == 1 + (in[i] == -1));
    }

    cl_ulong o[1000], want[1000];
    for (int i = 0; i < 1000; i++)
        o[i] = 0x123456789abcull * (cl_ulong)i;
    cl_long s = -77777777777;
    cl_char c = -5;
    cl_ushort us = 65000;
    for (cl_ulong i = 0; i < 1000; i++)
        want[i] = (cl_ulong)s * i + (cl_ulong)(cl_long)c - (cl_ulong)us + (i << 40) +
                  (o[i] >> 3) + 1;
    cl_mem bo = e2e_buffer(&env, sizeof o, o);
    cl_kernel kw = clCreateKernel(p, "wide", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(kw, 0, sizeof bo, &bo));
    CL_OK(clSetKernelArg(kw, 1, sizeof s, &s));
    CL_OK(clSetKernelArg(kw, 2, sizeof c, &c));
    CL_OK(clSetKernelArg(kw, 3, sizeof us, &us));
    EXPECT(e2e_run(&env, kw, 1, NULL, &big, NULL) == CL_COMPLETE);
    e2e_read(&env, bo, sizeof o, o);
    for (int i = 0; i < 1000; i++)
        EXPECT(o[i] == want[i]);

    cl_kernel ks[] = {k0, k1, kb, kw};
    for (int i = 0; i < 4; i++)
        clReleaseKernel(ks[i]);
    cl_mem ms[] = {bin, bflags, bk, bo};
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(ms[i]);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
