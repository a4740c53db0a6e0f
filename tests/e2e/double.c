/* End-to-end: double precision in hardware, one program. Add, subtract, multiply,
 * divide (correctly rounded), sqrt and fma of doubles, compares and selects,
 * conversions between double and float (float to double exact, double to float
 * rounded to nearest even) and between double and 32/64-bit integers, double
 * constants, and double loads and stores; over random values with random exponents,
 * exact halfway cases for double-to-float and the special values (±0, ±inf, NaN).
 * Every result is compared bit for bit with the host's IEEE double arithmetic
 * (denormal results flushed to zero, as the device's units do). Compiled with
 * -ffp-contract=off (the kernel says FP_CONTRACT OFF). */
#include "e2e.h"

#include <float.h>
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
    "}\n";

enum { N = 256 };

static double ftz(double x) { return fabs(x) < DBL_MIN ? copysign(0.0, x) : x; }

static int same(double got, double want)
{
    return (isnan(got) && isnan(want)) || memcmp(&got, &want, sizeof got) == 0;
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
        e[0] = ftz(ftz(x * y) + ftz(x / ftz(y + 1.0)));
        e[1] = ftz(x - y);
        e[2] = x < y ? x : -y;
        e[3] = ftz(ftz((double)i * 0.1) + (double)(int64_t)ftz(x * 0.5));
        e[4] = sqrt(fabs(x));
        e[5] = ftz(fma(x, y, -1.0));
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
        if (fabs(x * 1000.0) < 9e18 && ol[2 * i] != (cl_long)ftz(x * 1000.0)) {
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
    clReleaseProgram(prog);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
