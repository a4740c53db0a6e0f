/* End-to-end: the float math functions of OpenCL C 6.12.2 (hls/library/math.cl) on the
 * device, compared with host references in double precision (libm; the OpenCL-only
 * functions such as sinpi, pown, powr, rootn and atan2pi from their definitions).
 * Each function brings 512 inputs: the special values of section 7.5 (and every pair
 * of them for two-argument functions), points near where the function is delicate
 * (around 0 and 1, multiples of pi/2 up to 1e30 for sin and cos, the overflow and
 * underflow thresholds, poles and zeros) and random floats with random exponents over
 * its useful domain. Functions that take the same arguments run in one kernel (their
 * hardware shares much: sin, cos, tan and sincos are one argument reduction), and
 * each is checked on the inputs of all the functions of its kernel. The error is
 * measured as the conformance tests do, in units of the last place of the float
 * result (the ulp of the reference's binade, the lower one at a power of two); the
 * device flushes denormals to zero, so a result whose reference is below FLT_MIN may
 * be +-0, and the reference is also taken with denormal inputs flushed (either
 * passes). A special value (the reference an infinity, NaN or exact zero) must match
 * exactly, the sign of a zero included. Each function's limit is the one of section
 * 7.4 (full profile); lgamma's is undefined there, and is checked here as 16 ulp or
 * 2^-20 absolute (near its zeros at 1 and 2 and for x < 0 only the absolute error is
 * meaningful). The native_ and half_ versions, computed in the same kernels, must
 * equal the full functions bit for bit, and so must an element of a vector version
 * applied to (x, x, ...) (neither adds hardware: they compute the same values); a
 * kernel of cheap functions checks vector versions element by element, with pointers
 * into global memory. A table of the largest error per function is printed. The
 * kernels are in three programs, so that no single hardware build gets too large.
 * Compiled with -ffp-contract=off. */
#define _GNU_SOURCE
#include "e2e.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

/* One kernel per group of functions that share their inputs (and, after inlining,
 * much of their hardware: sin, cos, tan and sincos are one argument reduction):
 * x = a[i], y = b[i], n = c[i]; the results (and second results, and the native_
 * and half_ versions) go out as up to 16 floats per work-item, slots the table
 * below names, in four float4 buffers (restrict, so that their stores need no
 * ordering); int results are converted to float (exact for the values that occur). */
#define GROUP_MACRO                                                                    \
    "#pragma OPENCL FP_CONTRACT OFF\n"                                                 \
    "#define G(name, ...) __kernel void g_##name(__global const float *restrict a,"    \
    " __global const float *restrict b, __global const int *restrict c,"              \
    " __global float4 *restrict o0, __global float4 *restrict o1,"                    \
    " __global float4 *restrict o2, __global float4 *restrict o3)"                    \
    " { int i = (int)get_global_id(0); float x = a[i], y = b[i]; int n = c[i];"       \
    " __VA_ARGS__ }\n"

static const char *src_exp =
    GROUP_MACRO
    "G(exp, o0[i] = (float4)(exp(x), exp2(x), exp10(x), expm1(x));\n"
    "  o1[i] = (float4)(native_exp(x), native_exp2(x), native_exp10(x), half_exp(x));\n"
    "  o2[i] = (float4)(half_exp2(x), half_exp10(x), exp((float4)(x)).w, 0.0f);)\n"
    "G(log, o0[i] = (float4)(log(x), log2(x), log10(x), log1p(x));\n"
    "  o1[i] = (float4)(native_log(x), native_log2(x), native_log10(x), half_log(x));\n"
    "  o2[i] = (float4)(half_log2(x), half_log10(x), 0.0f, log10((float3)(x)).z);)\n"
    "G(pow, o0[i] = (float4)(pow(x, y), powr(x, y), pown(x, n), rootn(x, n));\n"
    "  o1[i] = (float4)(native_powr(x, y), half_powr(x, y), cbrt(x), hypot(x, y));)\n"
    "G(hyp, o0[i] = (float4)(sinh(x), cosh(x), tanh(x), asinh(x));\n"
    "  o1[i] = (float4)(acosh(x), atanh(x), 0.0f, 0.0f);)\n";

static const char *src_trig =
    GROUP_MACRO
    "G(trig, float co; float si = sincos(x, &co);\n"
    "  o0[i] = (float4)(sin(x), cos(x), tan(x), si);\n"
    "  o1[i] = (float4)(co, native_sin(x), native_cos(x), native_tan(x));\n"
    "  o2[i] = (float4)(half_sin(x), half_cos(x), half_tan(x), 0.0f);)\n"
    "G(pi, o0[i] = (float4)(sinpi(x), cospi(x), tanpi(x), tanpi((float4)(x)).y);)\n"
    "G(asin, o0[i] = (float4)(asin(x), acos(x), asinpi(x), acospi(x));\n"
    "  o1[i] = (float4)(acospi((float2)(x)).y, 0.0f, 0.0f, 0.0f);)\n"
    "G(atan, o0[i] = (float4)(atan(x), atanpi(x), atan2(x, y), atan2pi(x, y));\n"
    "  o1[i] = (float4)(atan2((float16)(x), (float16)(y)).sf, 0.0f, 0.0f, 0.0f);)\n";

static const char *src_misc =
    GROUP_MACRO
    "G(rem, int q; float rq = remquo(x, y, &q);\n"
    "  o0[i] = (float4)(fmod(x, y), remainder(x, y), rq, (float)q);)\n"
    "G(bits, int e; float m = frexp(x, &e); float mi, fi; float mf = modf(x, &mi);\n"
    "  float ff = fract(x, &fi);\n"
    "  o0[i] = (float4)(m, (float)e, ldexp(x, n), mf);\n"
    "  o1[i] = (float4)(mi, ff, fi, nextafter(x, y));\n"
    "  o2[i] = (float4)(nan(as_uint(x)), maxmag(x, y), minmag(x, y), logb(x));\n"
    "  float2 f2; float2 r2 = fract((float2)(x), &f2);\n"
    "  o3[i] = (float4)((float)ilogb(x), r2.y, 0.0f, 0.0f);)\n"
    "G(erf, o0[i] = (float4)(erf(x), erfc(x), 0.0f, 0.0f);)\n"
    "G(gamma, int sg; float lr = lgamma_r(x, &sg);\n"
    "  o0[i] = (float4)(tgamma(x), lgamma(x), lr, (float)sg);)\n"
    /* vector versions and pointers into global memory */
    "__kernel void vec(__global const float4 *restrict a, __global const float4 *restrict b,\n"
    "                  __global float4 *restrict o0, __global float4 *restrict o1,\n"
    "                  __global float4 *restrict o2, __global float4 *restrict o3,\n"
    "                  __global int4 *restrict e, __global float2 *restrict f)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float4 x = a[i], y = b[i];\n"
    "    float4 m = frexp(x, e + i);\n"
    "    float2 r = fract(x.lo, f + i);\n"
    "    float3 l = ldexp(x.xyz, 3);\n"
    "    float4 w = (float4)(logb(x.lo), maxmag(x.lo, y.lo));\n"
    "    o0[i] = m;\n"
    "    o1[i] = (float4)(r, convert_float2(ilogb(x.zw)));\n"
    "    o2[i] = (float4)(l, nextafter(x, y).w);\n"
    "    o3[i] = (float4)(w.lo + w.hi, 0.0f, 0.0f);\n"
    "}\n";

enum { N = 512 }; /* inputs per function */
enum { PROGRAMS = 3 };
static const char *const *const sources[PROGRAMS] = {&src_exp, &src_trig, &src_misc};

/* The kernels g_<name>, in their programs. */
typedef struct group {
    const char *name; /* kernel g_<name> */
    int prog;         /* program */
} group;

static const group groups[] = {{"exp", 0}, {"log", 0}, {"pow", 0},  {"hyp", 0},
                               {"trig", 1}, {"pi", 1}, {"asin", 1}, {"atan", 1},
                               {"rem", 2}, {"bits", 2}, {"erf", 2}, {"gamma", 2}};
enum { NGROUP = (int)(sizeof groups / sizeof *groups) };

static e2e_env env;
static cl_program programs[PROGRAMS];

/* ------------------------------------------------------------ references */

static double ref_sinpi(double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    double r = x - 2.0 * nearbyint(x / 2.0); /* exact: x mod 2 in [-1, 1] */
    if (r == 0.0 || fabs(r) == 1.0)
        return copysign(0.0, x);
    return sin(M_PI * r);
}

static double ref_cospi(double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    double r = fabs(x - 2.0 * nearbyint(x / 2.0));
    if (r == 0.5)
        return 0.0;
    return cos(M_PI * r);
}

static double ref_tanpi(double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    double r = x - 2.0 * nearbyint(x / 2.0); /* in [-1, 1] */
    if (x == nearbyint(x)) {                  /* n: zero, signed as n if even, -n if odd */
        int odd = fmod(fabs(x), 2.0) == 1.0;
        return copysign(0.0, odd ? -x : x);
    }
    if (fabs(r) == 0.5) { /* n + 1/2: +inf for even n, -inf for odd */
        double n = floor(x);
        return fmod(fabs(n), 2.0) == 0.0 ? INFINITY : -INFINITY;
    }
    return tan(M_PI * r);
}

static double ref_asinpi(double x) { return asin(x) / M_PI; }
static double ref_acospi(double x) { return acos(x) / M_PI; }
static double ref_atanpi(double x) { return atan(x) / M_PI; }
static double ref_atan2pi(double y, double x) { return atan2(y, x) / M_PI; }

static double ref_powr(double x, double y)
{
    if (x < 0.0 || isnan(x) || isnan(y) || (x == 0.0 && y == 0.0) || (isinf(x) && y == 0.0) ||
        (x == 1.0 && isinf(y)))
        return NAN;
    return pow(fabs(x), y);
}

static double ref_rootn(double x, int n)
{
    if (n == 0 || (x < 0.0 && n % 2 == 0) || isnan(x))
        return NAN;
    double r = pow(fabs(x), 1.0 / n);
    return n % 2 ? copysign(r, x) : r;
}

static double ref_maxmag(double x, double y)
{
    return fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : fmax(x, y);
}

static double ref_minmag(double x, double y)
{
    return fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : fmin(x, y);
}

static double ref_fract(double x, double *ip)
{
    *ip = floor(x);
    if (isinf(x))
        return 0.0;
    if (x == 0.0 || isnan(x))
        return x;
    return fmin(x - floor(x), 0x1.fffffep-1);
}

static double ref_modf(double x, double *ip)
{
    double r = modf(x, ip);
    return r;
}

/* remquo's quotient: the low 7 bits of n (x = n y + r) with the sign of x/y. */
static int ref_quo(float x, float y)
{
    double ax = fabs((double)x), ay = fabs((double)y);
    if (isnan(x) || isnan(y) || isinf(x) || y == 0.0f || isinf(y))
        return 0;
    double m = fmod(ax, 128.0 * ay); /* exact */
    double r = remainder(ax, ay);
    long n = lround((m - r) / ay) & 127;
    return !signbit(x) != !signbit(y) ? -(int)n : (int)n;
}

/* ------------------------------------------------------------ ulp errors */

static float ftz(float x) { return fabsf(x) < FLT_MIN ? copysignf(0.0f, x) : x; }

/* The error of got against the double reference ref, in ulps of the float result;
 * 0 for matching special values, INFINITY for a mismatch of specials. */
static double ulp_error(float got, double ref)
{
    if (isnan(ref))
        return isnan(got) ? 0.0 : INFINITY;
    if (isnan(got))
        return INFINITY;
    if (isinf(ref) || fabs(ref) >= 0x1.ffffffp127) {
        if (isinf(ref) || fabs(ref) > 0x1p128)
            return (double)got == copysign(INFINITY, ref) ? 0.0 : INFINITY;
    }
    if (ref == 0.0)
        return got == 0.0f && !signbit(got) == !signbit(ref) ? 0.0 : INFINITY;
    if (fabs(ref) < FLT_MIN && got == 0.0f)
        return 0.0; /* flushed to zero */
    int e = ilogb(ref);
    if (fabs(ref) == ldexp(1.0, e))
        e--; /* a power of two: the ulp of the binade below */
    if (e < -126)
        e = -126;
    double g = isinf(got) ? copysign(0x1p128, (double)got) : (double)got;
    return fabs(g - ref) / ldexp(1.0, e - 23);
}

/* -------------------------------------------------------------- the table */

typedef enum { ARG_X, ARG_XY, ARG_XN } argkind;

typedef struct fn {
    const char *name; /* as printed */
    int group;        /* index in groups[] */
    argkind args;     /* the arguments its own inputs vary */
    double ulps;      /* the limit */
    int lo, hi;       /* exponent range of its random x */
    int ylo, yhi;     /* ... of y, or the range of n */
    int r, s;         /* output slots of the result and of a second result (or -1) */
    int nv, hv;       /* ... of the native_ and half_ versions (or -1) */
    int vs;           /* ... of an element of a vector version on (x, x, ...) (or -1) */
} fn;

static const fn fns[] = {
    {"exp", 0, ARG_X, 3, -30, 7, 0, 0, 0, -1, 4, 7, 10},
    {"exp2", 0, ARG_X, 3, -30, 7, 0, 0, 1, -1, 5, 8, -1},
    {"exp10", 0, ARG_X, 3, -30, 5, 0, 0, 2, -1, 6, 9, -1},
    {"expm1", 0, ARG_X, 3, -40, 7, 0, 0, 3, -1, -1, -1, -1},
    {"log", 1, ARG_X, 3, -126, 127, 0, 0, 0, -1, 4, 7, -1},
    {"log2", 1, ARG_X, 3, -126, 127, 0, 0, 1, -1, 5, 8, -1},
    {"log10", 1, ARG_X, 3, -126, 127, 0, 0, 2, -1, 6, 9, 11},
    {"log1p", 1, ARG_X, 2, -40, 127, 0, 0, 3, -1, -1, -1, -1},
    {"pow", 2, ARG_XY, 16, -20, 20, -10, 8, 0, -1, -1, -1, -1},
    {"powr", 2, ARG_XY, 16, -20, 20, -10, 8, 1, -1, 4, 5, -1},
    {"pown", 2, ARG_XN, 16, -20, 20, -40, 40, 2, -1, -1, -1, -1},
    {"rootn", 2, ARG_XN, 16, -126, 127, -12, 12, 3, -1, -1, -1, -1},
    {"cbrt", 2, ARG_X, 2, -126, 127, 0, 0, 6, -1, -1, -1, -1},
    {"hypot", 2, ARG_XY, 4, -126, 127, -126, 127, 7, -1, -1, -1, -1},
    {"sinh", 3, ARG_X, 4, -30, 7, 0, 0, 0, -1, -1, -1, -1},
    {"cosh", 3, ARG_X, 4, -30, 7, 0, 0, 1, -1, -1, -1, -1},
    {"tanh", 3, ARG_X, 5, -30, 4, 0, 0, 2, -1, -1, -1, -1},
    {"asinh", 3, ARG_X, 4, -40, 127, 0, 0, 3, -1, -1, -1, -1},
    {"acosh", 3, ARG_X, 4, 0, 127, 0, 0, 4, -1, -1, -1, -1},
    {"atanh", 3, ARG_X, 5, -40, -1, 0, 0, 5, -1, -1, -1, -1},
    {"sin", 4, ARG_X, 4, -20, 100, 0, 0, 0, -1, 5, 8, -1},
    {"cos", 4, ARG_X, 4, -20, 100, 0, 0, 1, -1, 6, 9, -1},
    {"tan", 4, ARG_X, 5, -20, 100, 0, 0, 2, -1, 7, 10, -1},
    {"sincos", 4, ARG_X, 4, -20, 100, 0, 0, 3, 4, -1, -1, -1},
    {"sinpi", 5, ARG_X, 4, -30, 26, 0, 0, 0, -1, -1, -1, -1},
    {"cospi", 5, ARG_X, 4, -30, 26, 0, 0, 1, -1, -1, -1, -1},
    {"tanpi", 5, ARG_X, 6, -30, 26, 0, 0, 2, -1, -1, -1, 3},
    {"asin", 6, ARG_X, 4, -30, -1, 0, 0, 0, -1, -1, -1, -1},
    {"acos", 6, ARG_X, 4, -30, -1, 0, 0, 1, -1, -1, -1, -1},
    {"asinpi", 6, ARG_X, 5, -30, -1, 0, 0, 2, -1, -1, -1, -1},
    {"acospi", 6, ARG_X, 5, -30, -1, 0, 0, 3, -1, -1, -1, 4},
    {"atan", 7, ARG_X, 5, -30, 60, 0, 0, 0, -1, -1, -1, -1},
    {"atanpi", 7, ARG_X, 5, -30, 60, 0, 0, 1, -1, -1, -1, -1},
    {"atan2", 7, ARG_XY, 6, -60, 60, -60, 60, 2, -1, -1, -1, 4},
    {"atan2pi", 7, ARG_XY, 6, -60, 60, -60, 60, 3, -1, -1, -1, -1},
    {"fmod", 8, ARG_XY, 0, -126, 127, -126, 127, 0, -1, -1, -1, -1},
    {"remainder", 8, ARG_XY, 0, -126, 127, -126, 127, 1, -1, -1, -1, -1},
    {"remquo", 8, ARG_XY, 0, -126, 127, -126, 127, 2, 3, -1, -1, -1},
    {"frexp", 9, ARG_X, 0, -126, 127, 0, 0, 0, 1, -1, -1, -1},
    {"ldexp", 9, ARG_XN, 0, -126, 127, -300, 300, 2, -1, -1, -1, -1},
    {"modf", 9, ARG_X, 0, -20, 30, 0, 0, 3, 4, -1, -1, -1},
    {"fract", 9, ARG_X, 0.5, -20, 30, 0, 0, 5, 6, -1, -1, 13}, /* correctly rounded */
    {"nextafter", 9, ARG_XY, 0, -126, 127, -126, 127, 7, -1, -1, -1, -1},
    {"nan", 9, ARG_X, 0, -126, 127, 0, 0, 8, -1, -1, -1, -1},
    {"maxmag", 9, ARG_XY, 0, -10, 10, -10, 10, 9, -1, -1, -1, -1},
    {"minmag", 9, ARG_XY, 0, -10, 10, -10, 10, 10, -1, -1, -1, -1},
    {"logb", 9, ARG_X, 0, -126, 127, 0, 0, 11, -1, -1, -1, -1},
    {"ilogb", 9, ARG_X, 0, -126, 127, 0, 0, 12, -1, -1, -1, -1},
    {"erf", 10, ARG_X, 16, -30, 3, 0, 0, 0, -1, -1, -1, -1},
    {"erfc", 10, ARG_X, 16, -30, 3, 0, 0, 1, -1, -1, -1, -1},
    {"tgamma", 11, ARG_X, 16, -20, 5, 0, 0, 0, -1, -1, -1, -1},
    {"lgamma", 11, ARG_X, 16, -20, 100, 0, 0, 1, -1, -1, -1, -1},
    {"lgamma_r", 11, ARG_X, 16, -20, 100, 0, 0, 2, 3, -1, -1, -1},
};
enum { NFN = (int)(sizeof fns / sizeof *fns) };

static float fbits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A random float with an exponent in [lo, hi] and a random sign (positive with pos). */
static float rand_float(unsigned *seed, int lo, int hi, int pos)
{
    uint32_t r = e2e_xorshift(seed);
    int e = lo + (int)(e2e_xorshift(seed) % (unsigned)(hi - lo + 1));
    uint32_t bits = (r & 0x7fffffu) | (uint32_t)(e + 127) << 23 | (pos ? 0 : (r & 0x80000000u));
    return fbits(bits);
}

static const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 0.5f,
                                 -0.5f, 2.0f, -2.0f, 3.0f, -3.0f, 2.5f, -2.5f, 0x1p-149f,
                                 FLT_MIN, -FLT_MAX, FLT_MAX, 0x1.fffffep-1f};
enum { NSPEC = (int)(sizeof specials / sizeof *specials) };

/* Points where f is delicate, written into x[] (and y[]): returns how many. */
static int interesting(const fn *f, float *x, float *y, unsigned *seed)
{
    int k = 0;
    const char *nm = f->name;
#define PUT(v) (x[k] = (v), y[k] = 1.0f, k++)
    /* around 0 and 1 */
    for (int i = 1; i <= 8; i++) {
        PUT(1.0f + (float)i * 0x1p-23f);
        PUT(1.0f - (float)i * 0x1p-24f);
        PUT(ldexpf(1.0f, -i * 15));
        PUT(-ldexpf(1.3f, -i * 14));
    }
    if (!strncmp(nm, "exp", 3) || !strcmp(nm, "sinh") || !strcmp(nm, "cosh") ||
        !strcmp(nm, "tanh")) {
        const float t[] = {88.72283f, 88.722839f, 88.7228394f, 89.41598f, 89.4159851f,
                           -87.33654f, -87.3365479f, -103.972084f, -104.0f, 127.99999f,
                           128.0f, -126.0f, -149.0f, -150.0f, 38.5318375f, 38.53184f,
                           -37.9297f, -45.1545f, 9.0f, 10.0f, 0.3465736f, -0.3465736f,
                           0.6931472f, 27.7f, 41.6f, 44.4f, 20.0f, -20.0f};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (!strncmp(nm, "log", 3) || !strcmp(nm, "acosh") || !strcmp(nm, "asinh") ||
        !strcmp(nm, "atanh") || !strcmp(nm, "cbrt") || !strcmp(nm, "rootn")) {
        const float t[] = {0.70710677f, 1.4142135f, 0x1.67p-1f, 0x1.67p+0f, 0x1.66fffep-1f,
                           0x1.66fffep+0f, 0x1.ff8p-1f, 0x1.008p+0f, 4096.0f, 4095.9998f,
                           -0.99999994f, -0.5f, 0.99999994f, 1e30f, 8.0f, 27.0f, -27.0f,
                           1e-30f, 0x1p-126f, 0x1.fffffep127f, 10.0f, 100.0f, 1000.0f};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
        for (int i = 0; i < 20; i++) /* the table's intervals */
            PUT(fbits(0x3f338000u + ((e2e_xorshift(seed) % 128u) << 16) +
                      (e2e_xorshift(seed) % 3u) - 1u));
    }
    if (f->group == 4 || f->group == 5) {
        /* near multiples of pi/2 (and of 1/2 for the pi functions), large arguments;
         * 0x1.f37c8ap+95 is the float nearest a multiple of pi/2 (2^-29.2 away) */
        for (int i = 0; i < 60; i++) {
            double m = (double)(1 + e2e_xorshift(seed) % (i < 30 ? 64u : 1u << 20));
            float v = strstr(nm, "pi") ? (float)(m * 0.5) : (float)(m * M_PI_2);
            uint32_t b;
            memcpy(&b, &v, 4);
            PUT(fbits(b + (e2e_xorshift(seed) % 5u) - 2u));
        }
        const float t[] = {1e30f, -1e30f, 0x1p100f, 0x1.921fb6p+0f, 0x1.921fb6p+1f,
                           0x1.921fb6p-1f, 0x1.921fb4p-1f, 0x1.2d97c8p+2f, 1e22f, 0x1p23f,
                           0x1p24f + 2.0f, 0x1p25f + 4.0f, 8388609.0f, 8388607.5f, 0.25f,
                           -0.25f, 1.5f, -1.5f, 0.75f, 1e10f, 0x1.5p+120f, 0x1.fffffep127f,
                           0x1p-12f, 0x1.2p-12f, 0x1.f37c8ap+95f, -0x1.f37c8ap+95f};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
        for (int i = 0; i < 40; i++) /* big arguments of every size */
            PUT(rand_float(seed, 0, 127, 0));
    }
    if (!strcmp(nm, "asin") || !strcmp(nm, "acos") || !strcmp(nm, "asinpi") ||
        !strcmp(nm, "acospi") || !strcmp(nm, "atanh")) {
        const float t[] = {0.5f, -0.5f, 0.50000006f, 0.49999997f, -0.50000006f, 0.99999994f,
                           -0.99999994f, 1.00000012f, -1.00000012f, 0.866f, -0.9f, 0.7f};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
        for (int i = 0; i < 60; i++)
            PUT((float)((double)(e2e_xorshift(seed) % 2000001u) / 1e6 - 1.0));
    }
    if (!strcmp(nm, "erf") || !strcmp(nm, "erfc")) {
        const float t[] = {0.5f, 0.49999997f, 0.50000006f, -0.5f, 9.19f, 9.2f, 9.3f, 10.0f,
                           10.06f, 3.9f, 4.0f, -4.0f, -10.0f, 0.84f, 1.5f, 2.0f, 5.0f, 7.0f};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
        for (int i = 0; i < 80; i++)
            PUT((float)((double)(e2e_xorshift(seed) % 2400001u) / 1e5 - 12.0));
    }
    if (!strcmp(nm, "tgamma") || !strncmp(nm, "lgamma", 6)) {
        /* poles and near them, positive and negative arguments across the range */
        for (int i = 1; i <= 40; i++) {
            float p = -(float)i;
            uint32_t b;
            memcpy(&b, &p, 4);
            if (i % 4 == 0)
                PUT(p);
            PUT(fbits(b + 1u));
            PUT(fbits(b - 1u));
            PUT(p + 0.5f);
            PUT(p + (float)(e2e_xorshift(seed) % 1000u) / 1000.0f);
        }
        const float t[] = {35.0f, 35.04f, 35.05f, 34.9f, 1.0f, 2.0f, 3.0f, 0.5f, 1.5f,
                           1e-20f, -1e-20f, 1e-38f, 171.0f, 1e10f, 1e30f, 4e36f, 4.1e36f,
                           2.0000002f, 0.99999994f, 1.46163214f, -2.7476826f};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
        for (int i = 0; i < 60; i++)
            PUT((float)((double)(e2e_xorshift(seed) % 4000001u) / 1e5));
    }
    if (!strcmp(nm, "fmod") || !strncmp(nm, "rem", 3)) {
        for (int i = 0; i < 60; i++) { /* halfway cases and small quotients */
            float yy = rand_float(seed, -20, 20, 0);
            int q = (int)(e2e_xorshift(seed) % 300u);
            x[k] = (float)(q + (i % 2 ? 0.5 : 0.25)) * yy;
            y[k++] = yy;
        }
        for (int i = 0; i < 40; i++) { /* every distance of exponents */
            x[k] = rand_float(seed, 127 - i * 6, 127 - i * 6, 0);
            y[k++] = rand_float(seed, -126, -126 + i * 6, 0);
        }
    }
    if (f->args == ARG_XY && (!strcmp(nm, "pow") || !strcmp(nm, "powr"))) {
        for (int i = 0; i < 60; i++) { /* results near overflow and underflow */
            x[k] = rand_float(seed, -4, 4, 1);
            double l = log2(x[k]);
            y[k++] = (float)((i % 2 ? 127.5 : -125.5) / l);
        }
        for (int i = 0; i < 30; i++) { /* x near 1, y large */
            x[k] = 1.0f + (float)((int)(e2e_xorshift(seed) % 200u) - 100) * 0x1p-23f;
            y[k++] = rand_float(seed, 10, 28, 0);
        }
        for (int i = 0; i < 20; i++) { /* negative x, integral y */
            x[k] = -rand_float(seed, -3, 3, 1);
            y[k++] = (float)((int)(e2e_xorshift(seed) % 41u) - 20);
        }
    }
#undef PUT
    return k;
}

/* The reference for input i of f: r (and s, the second result). */
static void reference(const fn *f, float xf, float yf, int n, double *r, double *s)
{
    double x = xf, y = yf;
    const char *nm = f->name;
    *s = 0.0;
    if (!strcmp(nm, "exp")) *r = exp(x);
    else if (!strcmp(nm, "exp2")) *r = exp2(x);
    else if (!strcmp(nm, "exp10")) *r = exp10(x);
    else if (!strcmp(nm, "expm1")) *r = expm1(x);
    else if (!strcmp(nm, "log")) *r = log(x);
    else if (!strcmp(nm, "log2")) *r = log2(x);
    else if (!strcmp(nm, "log10")) *r = log10(x);
    else if (!strcmp(nm, "log1p")) *r = log1p(x);
    else if (!strcmp(nm, "pow")) *r = pow(x, y);
    else if (!strcmp(nm, "pown")) *r = pow(x, (double)n);
    else if (!strcmp(nm, "powr")) *r = ref_powr(x, y);
    else if (!strcmp(nm, "rootn")) *r = ref_rootn(x, n);
    else if (!strcmp(nm, "cbrt")) *r = cbrt(x);
    else if (!strcmp(nm, "hypot")) *r = hypot(x, y);
    else if (!strcmp(nm, "sinh")) *r = sinh(x);
    else if (!strcmp(nm, "cosh")) *r = cosh(x);
    else if (!strcmp(nm, "tanh")) *r = tanh(x);
    else if (!strcmp(nm, "asinh")) *r = asinh(x);
    else if (!strcmp(nm, "acosh")) *r = acosh(x);
    else if (!strcmp(nm, "atanh")) *r = atanh(x);
    else if (!strcmp(nm, "sin")) *r = sin(x);
    else if (!strcmp(nm, "cos")) *r = cos(x);
    else if (!strcmp(nm, "tan")) *r = tan(x);
    else if (!strcmp(nm, "sincos")) *r = sin(x), *s = cos(x);
    else if (!strcmp(nm, "sinpi")) *r = ref_sinpi(x);
    else if (!strcmp(nm, "cospi")) *r = ref_cospi(x);
    else if (!strcmp(nm, "tanpi")) *r = ref_tanpi(x);
    else if (!strcmp(nm, "asin")) *r = asin(x);
    else if (!strcmp(nm, "acos")) *r = acos(x);
    else if (!strcmp(nm, "atan")) *r = atan(x);
    else if (!strcmp(nm, "atan2")) *r = atan2(x, y);
    else if (!strcmp(nm, "asinpi")) *r = ref_asinpi(x);
    else if (!strcmp(nm, "acospi")) *r = ref_acospi(x);
    else if (!strcmp(nm, "atanpi")) *r = ref_atanpi(x);
    else if (!strcmp(nm, "atan2pi")) *r = ref_atan2pi(x, y);
    else if (!strcmp(nm, "fmod")) *r = fmod(x, y);
    else if (!strcmp(nm, "remainder")) *r = remainder(x, y);
    else if (!strcmp(nm, "remquo")) *r = remainder(x, y), *s = ref_quo(xf, yf);
    else if (!strcmp(nm, "frexp")) {
        int e = 0;
        *r = isinf(x) || isnan(x) ? x : frexp(x, &e);
        *s = e;
    } else if (!strcmp(nm, "ldexp")) *r = ldexp(x, n);
    else if (!strcmp(nm, "modf")) *r = ref_modf(x, s);
    else if (!strcmp(nm, "fract")) *r = ref_fract(x, s);
    else if (!strcmp(nm, "nextafter")) *r = nextafterf(xf, yf);
    else if (!strcmp(nm, "nan")) *r = NAN;
    else if (!strcmp(nm, "maxmag")) *r = ref_maxmag(x, y);
    else if (!strcmp(nm, "minmag")) *r = ref_minmag(x, y);
    else if (!strcmp(nm, "logb")) *r = logb(x);
    else if (!strcmp(nm, "ilogb")) *r = ilogb(x);
    else if (!strcmp(nm, "erf")) *r = erf(x);
    else if (!strcmp(nm, "erfc")) *r = erfc(x);
    else if (!strcmp(nm, "tgamma")) *r = tgamma(x);
    else if (!strcmp(nm, "lgamma")) *r = lgamma(x);
    else if (!strcmp(nm, "lgamma_r")) {
        int sg = 1;
        *r = lgamma_r(x, &sg);
        *s = sg;
    } else {
        fprintf(stderr, "no reference for %s\n", nm);
        _Exit(1);
    }
}

/* The error of got for the inputs x, y against both references (inputs as they
 * are and flushed to zero): the smaller. Exact functions and the second results
 * compare as values (an integer result, or the bits of a float). */
static double error_of(const fn *f, float x, float y, int n, float got, float gots, int *s_ok)
{
    double best = INFINITY;
    *s_ok = 0;
    for (int flush = 0; flush < 2; flush++) {
        float fx = flush ? ftz(x) : x, fy = y;
        if (flush && f->args == ARG_XY)
            fy = ftz(y);
        double r, s;
        reference(f, fx, fy, n, &r, &s);
        double e;
        if (!strcmp(f->name, "ilogb")) { /* the int result converted to float */
            double gi = got, imax = (float)INT_MAX, imin = (float)INT_MIN;
            e = gi == r || (isnan(fx) && gi == imax) || (fx == 0.0f && gi == imin) ||
                        (isinf(fx) && gi == imax)
                    ? 0.0
                    : INFINITY;
        } else if (!strcmp(f->name, "lgamma") || !strcmp(f->name, "lgamma_r")) {
            e = ulp_error(got, r);
            if (isfinite(r) && fabs((double)got - r) <= 0x1p-20)
                e = fmin(e, 0.0); /* absolute accuracy near zeros and poles */
        } else if ((!strcmp(f->name, "maxmag") || !strcmp(f->name, "minmag")) && fx == 0.0f &&
                   fy == 0.0f)
            e = fabsf(got) < FLT_MIN ? 0.0 : INFINITY; /* fmax, fmin: either zero */
        else
            e = ulp_error(got, r);
        int sok = 1;
        if (!strcmp(f->name, "frexp") || !strcmp(f->name, "remquo") ||
            !strcmp(f->name, "lgamma_r")) {
            double gi = gots; /* an int converted to float */
            sok = gi == s || (!strcmp(f->name, "lgamma_r") && !isfinite(r)) ||
                  (!strcmp(f->name, "frexp") && fx == 0.0f && gi == 0.0);
        } else if (!strcmp(f->name, "sincos"))
            sok = ulp_error(gots, s) <= f->ulps;
        else if (!strcmp(f->name, "modf") || !strcmp(f->name, "fract"))
            sok = ulp_error(gots, s) == 0.0;
        if (e < best || (e == best && sok)) {
            best = e;
            *s_ok = sok;
        }
    }
    return best;
}

static double worst[NFN];

/* The inputs of f: every special value (every pair of them for two arguments),
 * the interesting points, random values; n from f's range (or -40..40). Returns
 * how many were written at x, y, c. */
static int inputs_of(const fn *f, float *x, float *y, int *c, unsigned *seed)
{
    int k = 0;
    if (f->args == ARG_XY) {
        for (int i = 0; i < NSPEC; i++)
            for (int j = 0; j < NSPEC; j++) {
                x[k] = specials[i];
                y[k++] = specials[j];
            }
    } else
        for (int i = 0; i < NSPEC; i++) {
            x[k] = specials[i];
            y[k++] = 1.0f;
        }
    float ix[N], iy[N];
    int ni = interesting(f, ix, iy, seed);
    for (int i = 0; i < ni && k < N; i++) {
        x[k] = ix[i];
        y[k++] = iy[i];
    }
    while (k < N) {
        x[k] = rand_float(seed, f->lo, f->hi, 0);
        y[k++] = f->args == ARG_XY ? rand_float(seed, f->ylo, f->yhi, 0) : 1.0f;
    }
    int nlo = f->args == ARG_XN ? f->ylo : -40, nhi = f->args == ARG_XN ? f->yhi : 40;
    for (int i = 0; i < N; i++)
        c[i] = i < 8 ? (int[]){0, 1, -1, 2, -2, 3, INT_MAX, INT_MIN}[i]
                     : nlo + (int)(e2e_xorshift(seed) % (unsigned)(nhi - nlo + 1));
    if (!strcmp(f->name, "nan"))
        for (int i = 0; i < N; i++)
            x[i] = fbits(e2e_xorshift(seed));
    return N;
}

/* Runs group g's kernel on the inputs of all its functions together and checks every
 * function of the group on all of them. */
static void run_group(int g)
{
    enum { MAXF = 10 };
    static float x[MAXF * N], y[MAXF * N], o[16 * MAXF * N];
    static int c[MAXF * N];
    unsigned seed = 1234u + (unsigned)g * 7919u;
    int count = 0;
    for (int i = 0; i < NFN; i++)
        if (fns[i].group == g) {
            EXPECT(count + N <= MAXF * N);
            count += inputs_of(&fns[i], x + count, y + count, c + count, &seed);
        }
    cl_mem bx = e2e_buffer(&env, (size_t)count * sizeof *x, x);
    cl_mem by = e2e_buffer(&env, (size_t)count * sizeof *y, y);
    cl_mem bc = e2e_buffer(&env, (size_t)count * sizeof *c, c);
    cl_mem bo[4];
    for (int k = 0; k < 4; k++)
        bo[k] = e2e_buffer(&env, (size_t)count * 4 * sizeof *o, NULL);
    char kname[64];
    snprintf(kname, sizeof kname, "g_%s", groups[g].name);
    cl_kernel kern = e2e_kernel(programs[groups[g].prog], kname);
    E2E_ARG(kern, 0, bx);
    E2E_ARG(kern, 1, by);
    E2E_ARG(kern, 2, bc);
    for (int k = 0; k < 4; k++)
        E2E_ARG(kern, 3 + k, bo[k]);
    size_t gsize = (size_t)count;
    EXPECT(e2e_run(&env, kern, 1, NULL, &gsize, NULL) == CL_COMPLETE);
    static float ok[4 * MAXF * N];
    for (int k = 0; k < 4; k++) { /* slot 4 k + j of item i is element j of ok[i] */
        e2e_read(&env, bo[k], (size_t)count * 4 * sizeof *ok, ok);
        for (int i = 0; i < count; i++)
            memcpy(o + 16 * i + 4 * k, ok + 4 * i, 4 * sizeof *ok);
    }

    for (int fi = 0; fi < NFN; fi++) {
        const fn *f = &fns[fi];
        if (f->group != g)
            continue;
        double w = 0.0;
        for (int i = 0; i < count; i++) {
            const float *out = o + 16 * i;
            float got = out[f->r], gots = f->s >= 0 ? out[f->s] : 0.0f;
            int sok;
            double e = error_of(f, x[i], y[i], c[i], got, gots, &sok);
            if (!(e <= f->ulps) || !sok) {
                double r, s;
                reference(f, x[i], y[i], c[i], &r, &s);
                fprintf(stderr,
                        "%s(%a, %a, %d): %a (second %a), expected %a (second %a): %g ulp, "
                        "limit %g\n",
                        f->name, x[i], y[i], c[i], got, gots, r, s, e, f->ulps);
                _Exit(1);
            }
            if (e > w)
                w = e;
            if (f->vs >= 0 && e2e_fbits(out[f->vs]) != e2e_fbits(got)) {
                fprintf(stderr, "%s(%a) vector version %a, scalar %a\n", f->name, x[i],
                        out[f->vs], got);
                _Exit(1);
            }
            if (f->nv >= 0 && (e2e_fbits(out[f->nv]) != e2e_fbits(got) ||
                               e2e_fbits(out[f->hv]) != e2e_fbits(got))) {
                fprintf(stderr, "native_/half_%s(%a) = %a / %a, %s = %a\n", f->name, x[i],
                        out[f->nv], out[f->hv], f->name, got);
                _Exit(1);
            }
        }
        worst[fi] = w;
    }
    clReleaseKernel(kern);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bc);
    for (int k = 0; k < 4; k++)
        clReleaseMemObject(bo[k]);
}

/* Vector versions and pointers into global memory, against the scalar references. */
static void test_vectors(void)
{
    enum { M = 64 };
    float a[4 * M], b[4 * M], o[16 * M], fi[2 * M];
    int e[4 * M];
    unsigned seed = 77;
    for (int i = 0; i < 4 * M; i++) {
        a[i] = rand_float(&seed, -30, 30, 0);
        b[i] = rand_float(&seed, -30, 30, 0);
        if (i < NSPEC)
            a[i] = specials[i];
    }
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bb = e2e_buffer(&env, sizeof b, b);
    cl_mem bo[4], be = e2e_buffer(&env, sizeof e, NULL);
    for (int k = 0; k < 4; k++)
        bo[k] = e2e_buffer(&env, sizeof o / 4, NULL);
    cl_mem bf = e2e_buffer(&env, sizeof fi, NULL);
    cl_kernel k = e2e_kernel(programs[2], "vec");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    for (int j = 0; j < 4; j++)
        E2E_ARG(k, 2 + j, bo[j]);
    E2E_ARG(k, 6, be);
    E2E_ARG(k, 7, bf);
    size_t g = M;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    float part[4 * M];
    for (int j = 0; j < 4; j++) { /* element 4 j + l of item i is element l of bo[j][i] */
        e2e_read(&env, bo[j], sizeof part, part);
        for (int i = 0; i < M; i++)
            memcpy(o + 16 * i + 4 * j, part + 4 * i, 4 * sizeof *part);
    }
    e2e_read(&env, be, sizeof e, e);
    e2e_read(&env, bf, sizeof fi, fi);
    for (int i = 0; i < M; i++) {
        const float *x = a + 4 * i, *y = b + 4 * i;
        float want[16];
        for (int j = 0; j < 4; j++) {
            float fx = ftz(x[j]);
            int ee = 0;
            want[j] = isinf(fx) || isnan(fx) ? fx : (float)frexp(fx, &ee);
            if (e[4 * i + j] != ee) {
                fprintf(stderr, "vec[%d]: frexp(%a) exponent %d, expected %d\n", i, x[j],
                        e[4 * i + j], ee);
                _Exit(1);
            }
            float lb = (float)logb(fx), mm = (float)ref_maxmag(x[j], y[j]);
            want[12 + j] = lb + mm;
        }
        for (int j = 0; j < 2; j++) {
            double ip;
            want[4 + j] = (float)ref_fract(ftz(x[j]), &ip);
            float fz = ftz(x[2 + j]);
            want[6 + j] = isnan(fz) || isinf(fz) ? (float)INT_MAX
                          : fz == 0.0f             ? (float)INT_MIN
                                                   : (float)ilogb(fz);
            if (e2e_fbits(fi[2 * i + j]) != e2e_fbits((float)ip) && !isnan(ip)) {
                fprintf(stderr, "vec[%d]: fract(%a) whole part %a, expected %a\n", i, x[j],
                        fi[2 * i + j], ip);
                _Exit(1);
            }
        }
        for (int j = 0; j < 3; j++)
            want[8 + j] = ftz(ldexpf(x[j], 3));
        want[11] = nextafterf(x[3], y[3]);
        for (int j = 0; j < 14; j++) {
            float got = o[16 * i + j];
            int ok = e2e_fbits(got) == e2e_fbits(want[j]) || (isnan(got) && isnan(want[j])) ||
                     (fabsf(want[j]) < FLT_MIN && fabsf(got) < FLT_MIN);
            if (!ok) {
                fprintf(stderr, "vec[%d] element %d: %a, expected %a\n", i, j, got, want[j]);
                _Exit(1);
            }
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    for (int j = 0; j < 4; j++)
        clReleaseMemObject(bo[j]);
    clReleaseMemObject(be);
    clReleaseMemObject(bf);
}

int main(void)
{
    e2e_init(&env);
    for (int p = 0; p < PROGRAMS; p++)
        programs[p] = e2e_build(&env, *sources[p], "", 1, NULL);
    for (int g = 0; g < NGROUP; g++)
        run_group(g);
    test_vectors();
    printf("%-10s %10s %6s\n", "function", "max ulp", "limit");
    for (int i = 0; i < NFN; i++)
        printf("%-10s %10.3f %6g\n", fns[i].name, worst[i], fns[i].ulps);
    for (int p = 0; p < PROGRAMS; p++)
        clReleaseProgram(programs[p]);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
