/* End-to-end: integer operations (int and uint: add/sub/mul/and/or/xor/shifts/compares/
 * select), char/short/long loads and stores, int<->float conversions, and division and
 * remainder at every width, signed and unsigned (a division by zero gives some value
 * and the kernel still completes), all kernels of one program, checked against the
 * host. */
#include "e2e.h"

/* Division and remainder by constants (hls/divide.c: shifts and multiplies instead of
 * a divider): powers of two of either sign, divisors whose reciprocal needs w + 1 bits
 * (7 of 32 bits), above half the range, the most negative int, and 64-bit ones. */
#define CONST_DIVISORS(X)                                                            \
    X(int, 2) X(int, 8) X(int, -8) X(int, 3) X(int, 7) X(int, -10) X(int, 641)           \
    X(int, 1 << 30) X(int, (-2147483647 - 1)) X(int, 123456789) X(int, -1000000007)     \
    X(uint, 2u) X(uint, 16u) X(uint, 3u) X(uint, 7u) X(uint, 10u) X(uint, 6u)            \
    X(uint, 641u) X(uint, 0x80000000u) X(uint, 0x80000001u) X(uint, 0xFFFFFFFFu)         \
    X(uint, 1000000007u) X(short, 10) X(short, -3) X(ushort, 7) X(ushort, 1000)          \
    X(char, 3) X(char, -7) X(uchar, 5) X(uchar, 4) X(long, 8) X(long, -16) X(long, 7)    \
    X(ulong, 4) X(ulong, 10)
#define CONST_DIV_TEXT(T, D) "    r[j++] = (" #T ")x / (" #D "); r[j++] = (" #T ")x % (" #D ");\n"
#define CONST_DIV_COUNT(T, D) +2
enum { NCDIV = 0 CONST_DIVISORS(CONST_DIV_COUNT) };

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
    "}\n"
    "__kernel void divs(__global const long *a, __global const long *b, __global long *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    long x = a[i], y = b[i];\n"
    "    __global long *r = o + 18 * i;\n"
    "    r[0] = (char)x / (char)y;    r[1] = (char)x % (char)y;\n"
    "    r[2] = (uchar)x / (uchar)y;  r[3] = (uchar)x % (uchar)y;\n"
    "    r[4] = (short)x / (short)y;  r[5] = (short)x % (short)y;\n"
    "    r[6] = (ushort)x / (ushort)y; r[7] = (ushort)x % (ushort)y;\n"
    "    r[8] = (int)x / (int)y;      r[9] = (int)x % (int)y;\n"
    "    r[10] = (uint)x / (uint)y;   r[11] = (uint)x % (uint)y;\n"
    "    r[12] = x / y;               r[13] = x % y;\n"
    "    r[14] = (ulong)x / (ulong)y; r[15] = (ulong)x % (ulong)y;\n"
    "    r[16] = i / 7;               r[17] = i % 13;\n"
    "}\n"
    "__kernel void cdivs(__global const long *a, __global long *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    long x = a[i];\n"
    "    __global long *r = o + i * NCDIV;\n"
    "    int j = 0;\n"
    CONST_DIVISORS(CONST_DIV_TEXT)
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
    char options[32];
    snprintf(options, sizeof options, "-DNCDIV=%d", NCDIV);
    cl_program p = e2e_build(&env, src, options, 1, NULL);
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

    /* Division: every width and signedness; divisors include 0 (some value, no hang),
     * +-1, powers of two, and values of every width. */
    static long long da[N], db[N], dout[18 * N];
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        da[i] = (long long)(((unsigned long long)seed << 32) ^ (seed * 2654435761u)) >> (i % 57);
        seed = seed * 1103515245u + 12345u;
        static const long long special[] = {0, 1, -1, 2, -2, 7, 256, -65536};
        db[i] = i % 5 == 0 ? special[(i / 5) % 8]
                           : (long long)(((unsigned long long)seed << 29) ^ seed) >> (i % 61);
    }
    k = kernel(p, "divs");
    cl_mem d3[3] = {e2e_buffer(&env, sizeof da, da), e2e_buffer(&env, sizeof db, db),
                    e2e_buffer(&env, sizeof dout, NULL)};
    args(k, 3, d3);
    EXPECT(e2e_run(&env, k, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, d3[2], sizeof dout, dout);
    int checked = 0;
    for (int i = 0; i < N; i++) {
        long long x = da[i], y = db[i], *r = dout + 18 * i;
/* C leaves x / 0 and MIN / -1 undefined: those elements are not compared */
#define DIV_CHECK(T, at, is_signed)                                                 \
        if ((T)y != 0 && !(is_signed && (T)y == (T)-1)) {                           \
            EXPECT(r[at] == (long long)(T)((T)x / (T)y));                            \
            EXPECT(r[at + 1] == (long long)(T)((T)x % (T)y));                        \
            checked += 2;                                                            \
        }
        /* char and short operands are promoted to int, as in C */
        if ((signed char)y != 0) {
            EXPECT(r[0] == (signed char)x / (signed char)y);
            EXPECT(r[1] == (signed char)x % (signed char)y);
        }
        if ((unsigned char)y != 0) {
            EXPECT(r[2] == (unsigned char)x / (unsigned char)y);
            EXPECT(r[3] == (unsigned char)x % (unsigned char)y);
        }
        if ((short)y != 0) {
            EXPECT(r[4] == (short)x / (short)y);
            EXPECT(r[5] == (short)x % (short)y);
        }
        if ((unsigned short)y != 0) {
            EXPECT(r[6] == (unsigned short)x / (unsigned short)y);
            EXPECT(r[7] == (unsigned short)x % (unsigned short)y);
        }
        DIV_CHECK(int, 8, 1)
        DIV_CHECK(unsigned, 10, 0)
        DIV_CHECK(long long, 12, 1)
        DIV_CHECK(unsigned long long, 14, 0)
#undef DIV_CHECK
        EXPECT(r[16] == i / 7 && r[17] == i % 13);
    }
    EXPECT(checked > 6 * N); /* most pairs are defined in C */
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(d3[i]);
    clReleaseKernel(k);

    /* Division by constants: the edges of every width, then random values. */
    static const long long edges[] = {
        0, 1, -1, 2, -2, 6, 7, -7, 13, 127, -128, 255, 640, 641, 642, 999, 32767, -32768,
        65535, 2147483647LL, -2147483647LL - 1, -2147483647LL, 4294967295LL, 4294967294LL,
        2147483648LL, 2147483649LL, 1000000007LL, 2000000014LL, -1000000007LL,
        9223372036854775807LL, -9223372036854775807LL - 1, -9223372036854775807LL};
    enum { NEDGES = sizeof edges / sizeof *edges };
    static long long ca[N], cout[NCDIV * N];
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        ca[i] = i < NEDGES ? edges[i]
                           : (long long)(((unsigned long long)seed << 32) ^
                                         (seed * 2654435761u)) >> (i % 63);
    }
    k = kernel(p, "cdivs");
    cl_mem c2[2] = {e2e_buffer(&env, sizeof ca, ca), e2e_buffer(&env, sizeof cout, NULL)};
    args(k, 2, c2);
    EXPECT(e2e_run(&env, k, 1, NULL, &n, NULL) == CL_COMPLETE);
    e2e_read(&env, c2[1], sizeof cout, cout);
    typedef unsigned char uchar;
    typedef unsigned short ushort;
    typedef unsigned int uint;
    typedef unsigned long ulong;
    for (int i = 0; i < N; i++) {
        long long x = ca[i], *r = cout + (size_t)i * NCDIV;
        int j = 0;
#define CONST_DIV_CHECK(T, D)                                                           \
        if (r[j] != (long long)((T)x / (D)) || r[j + 1] != (long long)((T)x % (D))) {  \
            fprintf(stderr, "(" #T ")%lld / (" #D "): %lld rem %lld, expected %lld rem %lld\n", \
                    x, r[j], r[j + 1], (long long)((T)x / (D)), (long long)((T)x % (D))); \
            EXPECT(0);                                                                  \
        }                                                                               \
        j += 2;
        CONST_DIVISORS(CONST_DIV_CHECK)
#undef CONST_DIV_CHECK
    }
    for (int i = 0; i < 2; i++)
        clReleaseMemObject(c2[i]);
    clReleaseKernel(k);

    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
