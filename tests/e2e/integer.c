/* End-to-end: integer operations (int and uint: add/sub/mul/and/or/xor/shifts/compares/
 * select), char/short/long loads and stores, and int<->float conversions, all
 * straight-line kernels of one program, checked against the host. */
#include "e2e.h"

static const char *src =
    "__kernel void imix(__global const int *a, __global const int *b, __global int *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int x = a[i], y = b[i];\n"
    "    o[10 * i + 0] = x + y;\n"
    "    o[10 * i + 1] = x - y;\n"
    "    o[10 * i + 2] = x * y;\n"
    "    o[10 * i + 3] = x & y;\n"
    "    o[10 * i + 4] = x | y;\n"
    "    o[10 * i + 5] = x ^ y;\n"
    "    o[10 * i + 6] = x << y;\n"
    "    o[10 * i + 7] = x >> y;\n"
    "    o[10 * i + 8] = x < y ? x : y;\n"
    "    o[10 * i + 9] = (x == y) + (x >= y) * 2;\n"
    "}\n"
    "__kernel void umix(__global const uint *a, __global const uint *b, __global uint *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint x = a[i], y = b[i];\n"
    "    o[4 * i + 0] = x >> y;\n"
    "    o[4 * i + 1] = x < y;\n"
    "    o[4 * i + 2] = x * y + 7u;\n"
    "    o[4 * i + 3] = x > y ? x - y : y - x;\n"
    "}\n"
    "__kernel void narrow(__global const char *c, __global const short *s,\n"
    "                     __global const long *l, __global char *oc, __global short *os,\n"
    "                     __global long *ol)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    oc[i] = (char)(c[i] * 3 + 1);\n"
    "    os[i] = (short)(s[i] - 7);\n"
    "    ol[i] = l[i] * 5 + s[i];\n"
    "}\n"
    "__kernel void conv(__global const int *a, __global const float *f,\n"
    "                   __global const uint *u, __global float *of, __global int *oi,\n"
    "                   __global float *ou)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    of[i] = (float)a[i];\n"
    "    oi[i] = (int)f[i];\n"
    "    ou[i] = (float)u[i];\n"
    "}\n";

enum { N = 512 };

static cl_kernel kernel(cl_program p, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CL_OK(err);
    return k;
}

static void args(cl_kernel k, int n, cl_mem *m)
{
    for (int i = 0; i < n; i++)
        CL_OK(clSetKernelArg(k, (cl_uint)i, sizeof m[i], &m[i]));
}

int main(void)
{
    static int a[N], b[N], o[10 * N];
    static unsigned ua[N], ub[N], uo[4 * N];
    static signed char c[N], oc[N];
    static short s[N], os[N];
    static long long l[N], ol[N];
    static float f[N], of[N], ouf[N];
    static int oi[N];
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = (int)(seed >> 8) - (1 << 22);
        seed = seed * 1103515245u + 12345u;
        b[i] = i % 7 == 0 ? a[i] : (int)(seed >> 12) - (1 << 18);
        ua[i] = seed ^ (unsigned)i * 2654435761u;
        ub[i] = (unsigned)i * 40503u;
        c[i] = (signed char)(i - 128);
        s[i] = (short)(i * 97 - 20000);
        l[i] = (long long)i * 123456789012LL - 5000000000LL;
        f[i] = (float)(i - N / 2) * 1234.56f;
    }
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, "", 1, NULL);
    size_t n = N;

    cl_kernel k = kernel(p, "imix");
    cl_mem m3[3] = {e2e_buffer(&env, sizeof a, a), e2e_buffer(&env, sizeof b, b),
                    e2e_buffer(&env, sizeof o, NULL)};
    args(k, 3, m3);
    EXPECT(e2e_run(&env, k, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, m3[2], sizeof o, o);
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i];
        unsigned ux = (unsigned)x, uy = (unsigned)y;
        EXPECT(o[10 * i + 0] == (int)(ux + uy));
        EXPECT(o[10 * i + 1] == (int)(ux - uy));
        EXPECT(o[10 * i + 2] == (int)(ux * uy));
        EXPECT(o[10 * i + 3] == (x & y));
        EXPECT(o[10 * i + 4] == (x | y));
        EXPECT(o[10 * i + 5] == (x ^ y));
        EXPECT(o[10 * i + 6] == (int)(ux << (uy & 31)));
        EXPECT(o[10 * i + 7] == (x >> (y & 31)));
        EXPECT(o[10 * i + 8] == (x < y ? x : y));
        EXPECT(o[10 * i + 9] == (x == y) + (x >= y) * 2);
    }
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(m3[i]);
    clReleaseKernel(k);

    k = kernel(p, "umix");
    cl_mem u3[3] = {e2e_buffer(&env, sizeof ua, ua), e2e_buffer(&env, sizeof ub, ub),
                    e2e_buffer(&env, sizeof uo, NULL)};
    args(k, 3, u3);
    EXPECT(e2e_run(&env, k, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, u3[2], sizeof uo, uo);
    for (int i = 0; i < N; i++) {
        unsigned x = ua[i], y = ub[i];
        EXPECT(uo[4 * i + 0] == x >> (y & 31));
        EXPECT(uo[4 * i + 1] == (unsigned)(x < y));
        EXPECT(uo[4 * i + 2] == x * y + 7u);
        EXPECT(uo[4 * i + 3] == (x > y ? x - y : y - x));
    }
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(u3[i]);
    clReleaseKernel(k);

    k = kernel(p, "narrow");
    cl_mem m6[6] = {e2e_buffer(&env, sizeof c, c), e2e_buffer(&env, sizeof s, s),
                    e2e_buffer(&env, sizeof l, l), e2e_buffer(&env, sizeof oc, NULL),
                    e2e_buffer(&env, sizeof os, NULL), e2e_buffer(&env, sizeof ol, NULL)};
    args(k, 6, m6);
    EXPECT(e2e_run(&env, k, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, m6[3], sizeof oc, oc);
    e2e_read(&env, m6[4], sizeof os, os);
    e2e_read(&env, m6[5], sizeof ol, ol);
    for (int i = 0; i < N; i++) {
        EXPECT(oc[i] == (signed char)(c[i] * 3 + 1));
        EXPECT(os[i] == (short)(s[i] - 7));
        EXPECT(ol[i] == l[i] * 5 + s[i]);
    }
    for (int i = 0; i < 6; i++)
        clReleaseMemObject(m6[i]);
    clReleaseKernel(k);

    k = kernel(p, "conv");
    cl_mem c6[6] = {e2e_buffer(&env, sizeof a, a), e2e_buffer(&env, sizeof f, f),
                    e2e_buffer(&env, sizeof ua, ua), e2e_buffer(&env, sizeof of, NULL),
                    e2e_buffer(&env, sizeof oi, NULL), e2e_buffer(&env, sizeof ouf, NULL)};
    args(k, 6, c6);
    EXPECT(e2e_run(&env, k, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, c6[3], sizeof of, of);
    e2e_read(&env, c6[4], sizeof oi, oi);
    e2e_read(&env, c6[5], sizeof ouf, ouf);
    for (int i = 0; i < N; i++) {
        EXPECT(of[i] == (float)a[i]);
        EXPECT(oi[i] == (int)f[i]);
        EXPECT(ouf[i] == (float)ua[i]);
    }
    for (int i = 0; i < 6; i++)
        clReleaseMemObject(c6[i]);
    clReleaseKernel(k);

    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
