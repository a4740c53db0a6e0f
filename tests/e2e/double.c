/* End-to-end: double precision in hardware, one program. Add, subtract, multiply,
 * divide (correctly rounded), sqrt and fma of doubles, compares and selects,
 * conversions between double and float (float to double exact, double to float
 * rounded to nearest even) and between double and 32/64-bit integers, double
 * constants, and double loads and stores; over random values with random exponents,
 * exact halfway cases for double-to-float and the special values (±0, ±inf, NaN).
 * A second kernel of the same program works in the subnormal range (IEEE gradual
 * underflow, CL_FP_DENORM): x + 0, x > 0, sqrt, x * 0.5, x / 3, fma with a subnormal
 * product, nextafter(0, 1), ldexp down into and up out of the subnormal range, frexp,
 * ilogb and logb of subnormals, fmod by and of a subnormal, a float subnormal
 * converted to double, on values like 2^-1070, the largest subnormal, the smallest,
 * the boundary 2^-1022 and random subnormals. Every result is compared bit for bit
 * with the host's IEEE double arithmetic (float results of (float)x flushed below
 * FLT_MIN, as the device's float side does). Compiled with -ffp-contract=off (the
 * kernel says FP_CONTRACT OFF); the host computes with subnormals (no FTZ/DAZ). */
#include "e2e.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

static const char *src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void dbl(__global const double *a, __global const float *f,\n"
    "                  __global double *o, __global float *of, __global long *ol)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    double x = a[i], y = (double)f[i];\n"
    "    o[6 * i + 0] = x * y + x / (y + 1.0);\n"
    "    o[6 * i + 1] = x - y;\n"
    "    o[6 * i + 2] = x < y ? x : -y;\n"
    "    o[6 * i + 3] = (double)i * 0.1 + (double)(long)(x * 0.5);\n"
    "    o[6 * i + 4] = sqrt(fabs(x));\n"
    "    o[6 * i + 5] = fma(x, y, -1.0);\n"
    "    of[i] = (float)x;\n"
    "    ol[2 * i] = (long)(x * 1000.0);\n"
    "    ol[2 * i + 1] = (int)(y * 3.0);\n"
    "}\n"
    /* z[i] is 0.0: operands the compiler cannot fold. */
    "__kernel void sub(__global const double *a, __global const float *f,\n"
    "                  __global const double *z, __global double *o, __global int *oi)\n"
    "{\n"
    "    int i = (int)get_global_id(0), e;\n"
    "    double x = a[i], zero = z[i];\n"
    "    o[13 * i + 0] = x + zero;\n"
    "    o[13 * i + 1] = sqrt(x);\n"
    "    o[13 * i + 2] = x * 0.5;\n"
    "    o[13 * i + 3] = x / 3.0;\n"
    "    o[13 * i + 4] = fma(x, 0.75, x);\n"
    "    o[13 * i + 5] = nextafter(zero, 1.0);\n"
    "    o[13 * i + 6] = ldexp(x, -3);\n"
    "    o[13 * i + 7] = ldexp(x, 60);\n"
    "    o[13 * i + 8] = frexp(x, &e);\n"
    "    o[13 * i + 9] = (double)f[i];\n"
    "    o[13 * i + 10] = logb(x);\n"
    "    o[13 * i + 11] = x - 0x1p-1022;\n"
    "    o[13 * i + 12] = fmod(x, 0x1.8p-1072) + fmod(0x1.4p-1000, x);\n"
    "    oi[3 * i + 0] = x > zero;\n"
    "    oi[3 * i + 1] = e;\n"
    "    oi[3 * i + 2] = ilogb(x);\n"
    "}\n";

enum { N = 256 };

static int same(double got, double want)
{
    return (isnan(got) && isnan(want)) || memcmp(&got, &want, sizeof got) == 0;
}

enum { NS = 64 };

/* The subnormal kernel on a[] (NS values) and the float subnormals f[]. */
static int check_subnormals(e2e_env *env, cl_program prog)
{
    double a[NS], z[NS] = {0};
    float f[NS];
    const double edge[] = {0x1p-1070, -0x1p-1070, 0x1p-1074, -0x1p-1074, 0x3p-1074,
                           0x0.fffffffffffffp-1022, 0x1p-1022, -0x1.8p-1073, 0x1.5p-1021,
                           0x1.fffffffffffffp-1022, 0.0, -0.0, 0x1.8p-1060, 1.0};
    const float fedge[] = {0x1p-149f, -0x1p-149f, 0x1.8p-140f, 0x1p-127f, -0x1.fffffcp-127f,
                           0x1p-126f, 0.0f, 3.0f};
    const int nedge = (int)(sizeof edge / sizeof *edge), nfedge = (int)(sizeof fedge / sizeof *fedge);
    unsigned seed = 1074;
    for (int i = 0; i < NS; i++) {
        uint64_t r = (uint64_t)e2e_xorshift(&seed) << 32 | e2e_xorshift(&seed);
        uint64_t bits = (r & 0x000fffffffffffffull) >> (e2e_xorshift(&seed) % 52);
        bits |= r & 0x8000000000000000ull;   /* a random subnormal (or zero) */
        memcpy(&a[i], &bits, 8);
        if (i < nedge)
            a[i] = edge[i];
        uint32_t fb = (e2e_xorshift(&seed) & 0x007fffffu) >> (e2e_xorshift(&seed) % 23);
        fb |= e2e_xorshift(&seed) & 0x80000000u;
        memcpy(&f[i], &fb, 4);
        if (i < nfedge)
            f[i] = fedge[i];
    }
    cl_mem ba = e2e_buffer(env, sizeof a, a), bf = e2e_buffer(env, sizeof f, f);
    cl_mem bz = e2e_buffer(env, sizeof z, z);
    cl_mem bo = e2e_buffer(env, 13 * NS * sizeof(double), NULL);
    cl_mem boi = e2e_buffer(env, 3 * NS * sizeof(cl_int), NULL);
    cl_kernel k = e2e_kernel(prog, "sub");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bf);
    E2E_ARG(k, 2, bz);
    E2E_ARG(k, 3, bo);
    E2E_ARG(k, 4, boi);
    size_t g = NS;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    static double o[13 * NS];
    static cl_int oi[3 * NS];
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, boi, sizeof oi, oi);
    static const char *const what[13] = {"x + 0", "sqrt(x)", "x * 0.5", "x / 3", "fma(x, 0.75, x)",
                                         "nextafter(0, 1)", "ldexp(x, -3)", "ldexp(x, 60)",
                                         "frexp(x)", "(double)f", "logb(x)", "x - 0x1p-1022",
                                         "fmod(x, 0x1.8p-1072) + fmod(0x1.4p-1000, x)"};
    int bad = 0;
    for (int i = 0; i < NS; i++) {
        double x = a[i], e[13];
        int ex;
        e[0] = x + 0.0;
        e[1] = sqrt(x);
        e[2] = x * 0.5;
        e[3] = x / 3.0;
        e[4] = fma(x, 0.75, x);
        e[5] = nextafter(0.0, 1.0);
        e[6] = ldexp(x, -3);
        e[7] = ldexp(x, 60);
        e[8] = frexp(x, &ex);
        e[9] = (double)f[i];
        e[10] = x == 0.0 ? -INFINITY : logb(x);
        e[11] = x - 0x1p-1022;
        e[12] = fmod(x, 0x1.8p-1072) + fmod(0x1.4p-1000, x);
        for (int j = 0; j < 13; j++)
            if (!same(o[13 * i + j], e[j]) && bad++ < 10)
                fprintf(stderr, "sub[%d] %s (x=%a f=%a): %a, expected %a\n", i, what[j], x,
                        (double)f[i], o[13 * i + j], e[j]);
        int want_gt = x > 0.0, want_ilogb = x == 0.0 ? INT_MIN : ilogb(x);
        if ((oi[3 * i] != want_gt || oi[3 * i + 1] != ex || oi[3 * i + 2] != want_ilogb) &&
            bad++ < 10)
            fprintf(stderr, "sub[%d] (x=%a): x > 0 %d, frexp exponent %d, ilogb %d; expected "
                    "%d, %d, %d\n", i, x, oi[3 * i], oi[3 * i + 1], oi[3 * i + 2], want_gt, ex,
                    want_ilogb);
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bf);
    clReleaseMemObject(bz);
    clReleaseMemObject(bo);
    clReleaseMemObject(boi);
    return bad;
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program prog = e2e_build(&env, src, "", 1, NULL);
    double a[N];
    float f[N];
    unsigned seed = 64;
    const double edge[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 0.1, 1e300, -3.5,
                           /* halfway between two floats: rounds to even */
                           1.0 + 0x1p-24, 1.0 + 3 * 0x1p-24, 3.4028235677973366e38};
    const int nedge = (int)(sizeof edge / sizeof *edge);
    for (int i = 0; i < N; i++) {
        uint64_t r = (uint64_t)e2e_xorshift(&seed) << 32 | e2e_xorshift(&seed);
        uint64_t bits = (r & 0x800fffffffffffffull) | (uint64_t)(1023 - 40 + r % 81) << 52;
        memcpy(&a[i], &bits, 8);
        if (i < nedge)
            a[i] = edge[i];
        f[i] = (float)(int)(e2e_xorshift(&seed) % 20001 - 10000) / 16.0f;
    }
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bf = e2e_buffer(&env, sizeof f, f);
    cl_mem bo = e2e_buffer(&env, 6 * N * sizeof(double), NULL);
    cl_mem bof = e2e_buffer(&env, N * sizeof(float), NULL);
    cl_mem bol = e2e_buffer(&env, 2 * N * sizeof(cl_long), NULL);
    cl_kernel k = e2e_kernel(prog, "dbl");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bf);
    E2E_ARG(k, 2, bo);
    E2E_ARG(k, 3, bof);
    E2E_ARG(k, 4, bol);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    static double o[6 * N];
    static float of[N];
    static cl_long ol[2 * N];
    CL_OK(clEnqueueReadBuffer(env.queue, bo, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env.queue, bof, CL_TRUE, 0, sizeof of, of, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env.queue, bol, CL_TRUE, 0, sizeof ol, ol, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        double x = a[i], y = (double)f[i], e[6];
        e[0] = x * y + x / (y + 1.0);
        e[1] = x - y;
        e[2] = x < y ? x : -y;
        e[3] = (double)i * 0.1 + (double)(int64_t)(x * 0.5);
        e[4] = sqrt(fabs(x));
        e[5] = fma(x, y, -1.0);
        for (int j = 0; j < 6; j++) {
            if (j == 3 && !(fabs(x * 0.5) < 9e18))
                continue; /* out of range for long: unspecified */
            if (!same(o[6 * i + j], e[j])) {
                fprintf(stderr, "dbl[%d] output %d (x=%a y=%a): %a, expected %a\n", i, j, x, y,
                        o[6 * i + j], e[j]);
                return 1;
            }
        }
        float ef = (float)x;
        if (fabsf(ef) < FLT_MIN)
            ef = copysignf(0.0f, ef);
        if (!same(of[i], ef)) {
            fprintf(stderr, "(float)%a = %a, expected %a\n", x, of[i], ef);
            return 1;
        }
        if (fabs(x * 1000.0) < 9e18 && ol[2 * i] != (cl_long)(x * 1000.0)) {
            fprintf(stderr, "(long)(%a * 1000) = %lld\n", x, (long long)ol[2 * i]);
            return 1;
        }
        EXPECT(ol[2 * i + 1] == (int)(y * 3.0));
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bf);
    clReleaseMemObject(bo);
    clReleaseMemObject(bof);
    clReleaseMemObject(bol);
    if (check_subnormals(&env, prog)) {
        fprintf(stderr, "subnormal results differ from the host's IEEE arithmetic\n");
        return 1;
    }
    clReleaseProgram(prog);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
