/* End-to-end: kernels at the edges of what the compiler supports. A kernel without
 * memory operations (and one without arguments) runs to completion; bool results
 * stored as bytes; a __constant argument; 64-bit arithmetic mixed with char and ushort
 * scalars, reading and writing the same buffer; vectors passed by value (3-element ones
 * take the room of 4, as cl_float3 does on the host; a long8 is 64 bytes); a float16
 * access is one whole line of the 512-bit memory port, a long16 two; a kernel whose
 * name has 250 characters (the hardware names its compute unit with a short form). */
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
    "}\n"
    "__kernel void vector_args(__global float4 *f, float4 s, int3 k, char3 c, double2 d,\n"
    "                          __global uchar16 *u, uchar16 x, long8 l, __global long *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    f[i] = f[i] * s + (float4)(k.z, c.x, c.z, (float)(d.x * d.y));\n"
    "    u[i] = u[i] ^ x;\n"
    "    o[i] = l.s7 * (long)i + l.s0 + k.x;\n"
    "}\n"
    "__kernel void lines(__global float16 *f, __global long16 *l)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    f[i] = f[i].sfedcba9876543210 * 0.5f;\n"
    "    l[i] = l[i] + (long16)(i) * l[i].s0;\n"
    "}\n";

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    /* One more kernel, named with 250 characters. */
    char long_name[251], full[8192];
    for (int i = 0; i < 250; i++)
        long_name[i] = (char)('a' + i % 26);
    long_name[250] = '\0';
    snprintf(full, sizeof full, "%s__kernel void %s(__global int *o) { o[get_global_id(0)] = 7; }\n",
             src, long_name);
    cl_program p = e2e_build(&env, full, "", 1, NULL);
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

    /* Vectors by value: their bytes as the host lays them out. */
    enum { V = 64 };
    cl_float4 f[V], fwant[V];
    cl_uchar16 u[V], uwant[V];
    cl_long lo[V];
    cl_float4 vs = {{1.5f, -2.0f, 0.25f, 3.0f}};
    cl_int3 vk = {{-7, 11, 123456}};
    cl_char3 vc = {{-3, 100, 42}};
    cl_double2 vd = {{0.5, -6.0}};
    cl_uchar16 vx;
    cl_long8 vl;
    for (int j = 0; j < 16; j++)
        vx.s[j] = (cl_uchar)(0x11 * j + 3);
    for (int j = 0; j < 8; j++)
        vl.s[j] = (cl_long)0x100000001ll * (j + 1) * (j % 2 ? -1 : 1);
    for (int i = 0; i < V; i++)
        for (int j = 0; j < 16; j++) {
            if (j < 4)
                f[i].s[j] = (float)(i * 4 + j) * 0.5f - 9.0f;
            u[i].s[j] = (cl_uchar)(i * 16 + j);
        }
    float add[4] = {(float)vk.s[2], (float)vc.s[0], (float)vc.s[2], (float)(vd.s[0] * vd.s[1])};
    for (int i = 0; i < V; i++)
        for (int j = 0; j < 16; j++) {
            if (j < 4)
                fwant[i].s[j] = f[i].s[j] * vs.s[j] + add[j];
            uwant[i].s[j] = u[i].s[j] ^ vx.s[j];
        }
    cl_mem bf = e2e_buffer(&env, sizeof f, f), bu = e2e_buffer(&env, sizeof u, u);
    cl_mem blo = e2e_buffer(&env, sizeof lo, NULL);
    cl_kernel kv = clCreateKernel(p, "vector_args", &err);
    CL_OK(err);
    EXPECT(clSetKernelArg(kv, 2, 12, &vk) == CL_INVALID_ARG_SIZE); /* an int3 is 16 bytes */
    CL_OK(clSetKernelArg(kv, 0, sizeof bf, &bf));
    CL_OK(clSetKernelArg(kv, 1, sizeof vs, &vs));
    CL_OK(clSetKernelArg(kv, 2, sizeof vk, &vk));
    CL_OK(clSetKernelArg(kv, 3, sizeof vc, &vc));
    CL_OK(clSetKernelArg(kv, 4, sizeof vd, &vd));
    CL_OK(clSetKernelArg(kv, 5, sizeof bu, &bu));
    CL_OK(clSetKernelArg(kv, 6, sizeof vx, &vx));
    CL_OK(clSetKernelArg(kv, 7, sizeof vl, &vl));
    CL_OK(clSetKernelArg(kv, 8, sizeof blo, &blo));
    char type[32];
    CL_OK(clGetKernelArgInfo(kv, 2, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    EXPECT(!strcmp(type, "int3"));
    size_t nv = V;
    EXPECT(e2e_run(&env, kv, 1, NULL, &nv, NULL) == CL_COMPLETE);
    e2e_read(&env, bf, sizeof f, f);
    e2e_read(&env, bu, sizeof u, u);
    e2e_read(&env, blo, sizeof lo, lo);
    for (int i = 0; i < V; i++) {
        EXPECT(!memcmp(&f[i], &fwant[i], sizeof f[i]));
        EXPECT(!memcmp(&u[i], &uwant[i], sizeof u[i]));
        EXPECT(lo[i] == vl.s[7] * i + vl.s[0] + vk.s[0]);
    }

    /* Whole memory lines and two lines per access. */
    static cl_float16 f16[V], f16want[V];
    static cl_long16 l16[V], l16want[V];
    for (int i = 0; i < V; i++)
        for (int j = 0; j < 16; j++) {
            f16[i].s[j] = (float)(i * 16 + j) - 333.0f;
            l16[i].s[j] = (cl_long)0x10000000001ll * (i + 1) - j;
        }
    for (int i = 0; i < V; i++)
        for (int j = 0; j < 16; j++) {
            f16want[i].s[j] = f16[i].s[15 - j] * 0.5f;
            l16want[i].s[j] = l16[i].s[j] + (cl_long)i * l16[i].s[0];
        }
    cl_mem bf16 = e2e_buffer(&env, sizeof f16, f16), bl16 = e2e_buffer(&env, sizeof l16, l16);
    cl_kernel kl = clCreateKernel(p, "lines", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(kl, 0, sizeof bf16, &bf16));
    CL_OK(clSetKernelArg(kl, 1, sizeof bl16, &bl16));
    EXPECT(e2e_run(&env, kl, 1, NULL, &nv, NULL) == CL_COMPLETE);
    e2e_read(&env, bf16, sizeof f16, f16);
    e2e_read(&env, bl16, sizeof l16, l16);
    for (int i = 0; i < V; i++) {
        EXPECT(!memcmp(&f16[i], &f16want[i], sizeof f16[i]));
        EXPECT(!memcmp(&l16[i], &l16want[i], sizeof l16[i]));
    }

    /* The long name is the kernel's, whatever the hardware calls its unit. */
    cl_kernel kn = clCreateKernel(p, long_name, &err);
    CL_OK(err);
    char got[300];
    CL_OK(clGetKernelInfo(kn, CL_KERNEL_FUNCTION_NAME, sizeof got, got, NULL));
    EXPECT(!strcmp(got, long_name));
    CL_OK(clSetKernelArg(kn, 0, sizeof bin, &bin));
    EXPECT(e2e_run(&env, kn, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, bin, sizeof in, in);
    for (int i = 0; i < 100; i++)
        EXPECT(in[i] == 7);

    cl_kernel ks[] = {k0, k1, kb, kw, kv, kl, kn};
    for (int i = 0; i < 7; i++)
        clReleaseKernel(ks[i]);
    cl_mem ms[] = {bin, bflags, bk, bo, bf, bu, blo, bf16, bl16};
    for (int i = 0; i < 9; i++)
        clReleaseMemObject(ms[i]);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
