/* End-to-end: the double math functions of OpenCL C 6.12.2 (hls/library/math_double.cl,
 * and the rounding and selection functions of common.cl and convert.cl) on the device,
 * compared with host references in x87 long double (64-bit significands: expl, sinl,
 * powl, ...), as tests/e2e/math.c does for float. Each function brings 256 inputs:
 * the special values of section 7.5 (every pair of them for two-argument functions),
 * points where the function is delicate (multiples of pi/2 up to 1e300 for sin, cos
 * and tan; the overflow and underflow thresholds; near 1 for the logarithms; halfway
 * cases for the remainders) and random doubles with random exponents over its useful
 * domain. Functions with the same arguments run in one kernel and each is checked on
 * the inputs of all the functions of its kernel. The error is measured in units of
 * the last place of the double result (the ulp of the reference's binade, the lower
 * one at a power of two; 2^-1074 in the subnormal range): the device has IEEE
 * subnormals, so subnormal inputs are values and results in the subnormal range are
 * measured like any other (no flushed alternative). A special value (an infinity,
 * NaN or exact zero) must match exactly, the sign of a zero included. Each limit is the one of
 * section 7.4 for double; the exact functions (fmod, remainder, remquo, frexp,
 * ldexp, modf, fract, nextafter, logb, ilogb, floor, ceil, rint, round, trunc,
 * copysign, fdim, fmin, fmax, maxmag, minmag) have limit 0: bit for bit. lgamma's
 * limit is undefined there; it is checked as 16 ulp or 2^-48 absolute (near its zeros
 * at 1 and 2 and for x < 0 only the absolute error is meaningful). An element
 * of a vector version on (x, x, ...) must equal the scalar result. A table of the
 * largest error and the number of failed inputs per function is printed (and the first
 * three failures of each); any failure fails the test. Three programs. Compiled with
 * -ffp-contract=off. */
#define _GNU_SOURCE
#include "e2e.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

/* One kernel per group: x = a[i], y = b[i], n = c[i]; up to 16 double results per
 * work-item in four double4 buffers (slots as the table below says); int results are
 * converted to double (exact). */
#define GROUP_MACRO                                                                    \
    "#pragma OPENCL FP_CONTRACT OFF\n"                                                 \
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"                                  \
    "#define G(name, ...) __kernel void g_##name(__global const double *restrict a,"   \
    " __global const double *restrict b, __global const int *restrict c,"            \
    " __global double4 *restrict o0, __global double4 *restrict o1,"                  \
    " __global double4 *restrict o2, __global double4 *restrict o3)"                  \
    " { int i = (int)get_global_id(0); double x = a[i], y = b[i]; int n = c[i];"      \
    " __VA_ARGS__ }\n"

static const char *src_expo =
    GROUP_MACRO
    "G(exp, o0[i] = (double4)(exp(x), exp2(x), exp10(x), expm1(x));\n"
    "  o1[i] = (double4)(exp((double2)(x)).y, 0.0, 0.0, 0.0);)\n"
    "G(log, o0[i] = (double4)(log(x), log2(x), log10(x), log1p(x));\n"
    "  o1[i] = (double4)(log10((double3)(x)).z, 0.0, 0.0, 0.0);)\n"
    "G(pow, o0[i] = (double4)(pow(x, y), powr(x, y), pown(x, n), rootn(x, n));\n"
    "  o1[i] = (double4)(cbrt(x), hypot(x, y), pow((double4)(x), (double4)(y)).w, 0.0);)\n";

static const char *src_trig =
    GROUP_MACRO
    "G(trig, double co; double si = sincos(x, &co);\n"
    "  o0[i] = (double4)(sin(x), cos(x), tan(x), si);\n"
    "  o1[i] = (double4)(co, tan((double8)(x)).s5, 0.0, 0.0);)\n"
    "G(rem, int q; double rq = remquo(x, y, &q);\n"
    "  o0[i] = (double4)(fmod(x, y), remainder(x, y), rq, (double)q);\n"
    "  o1[i] = (double4)(fmod((double3)(x), (double3)(y)).y, 0.0, 0.0, 0.0);)\n"
    "G(bits, int e; double m = frexp(x, &e); double mi, fi; double mf = modf(x, &mi);\n"
    "  double ff = fract(x, &fi);\n"
    "  o0[i] = (double4)(m, (double)e, ldexp(x, n), mf);\n"
    "  o1[i] = (double4)(mi, ff, fi, nextafter(x, y));\n"
    "  o2[i] = (double4)(nan(as_ulong(x)), maxmag(x, y), minmag(x, y), logb(x));\n"
    "  o3[i] = (double4)((double)ilogb(x), floor(x), ceil(x), rint(x));)\n"
    "G(round, o0[i] = (double4)(round(x), trunc(x), copysign(x, y), fdim(x, y));\n"
    "  o1[i] = (double4)(fmin(x, y), fmax(x, y), floor((double16)(x)).sa, 0.0);)\n";

static const char *src_inv =
    GROUP_MACRO
    "G(pi, o0[i] = (double4)(sinpi(x), cospi(x), tanpi(x), cospi((double2)(x)).x);)\n"
    "G(asin, o0[i] = (double4)(asin(x), acos(x), asinpi(x), acospi(x));)\n"
    "G(atan, o0[i] = (double4)(atan(x), atanpi(x), atan2(x, y), atan2pi(x, y));\n"
    "  o1[i] = (double4)(atan2((double3)(x), (double3)(y)).z, 0.0, 0.0, 0.0);)\n"
    "G(hyp, o0[i] = (double4)(sinh(x), cosh(x), tanh(x), asinh(x));\n"
    "  o1[i] = (double4)(acosh(x), atanh(x), 0.0, 0.0);)\n"
    "G(erf, o0[i] = (double4)(erf(x), erfc(x), erfc((double4)(x)).z, 0.0);)\n"
    "G(gamma, int sg; double lr = lgamma_r(x, &sg);\n"
    "  o0[i] = (double4)(tgamma(x), lgamma(x), lr, (double)sg);)\n";

enum { N = 256 }; /* inputs per function */
enum { PROGRAMS = 3 };
static const char *const *const sources[PROGRAMS] = {&src_expo, &src_trig, &src_inv};

typedef struct group {
    const char *name; /* kernel g_<name> */
    int prog;         /* program */
} group;

static const group groups[] = {{"exp", 0},  {"log", 0}, {"pow", 0},   {"trig", 1},
                               {"rem", 1},  {"bits", 1}, {"round", 1}, {"pi", 2},
                               {"asin", 2}, {"atan", 2}, {"hyp", 2},   {"erf", 2},
                               {"gamma", 2}};
enum { NGROUP = (int)(sizeof groups / sizeof *groups) };

static e2e_env env;
static cl_program programs[PROGRAMS];

/* ------------------------------------------------------------ references */

static long double ref_powr(long double x, long double y)
{
    if (x < 0.0L || isnan(x) || isnan(y) || (x == 0.0L && y == 0.0L) ||
        (isinf(x) && y == 0.0L) || (x == 1.0L && isinf(y)))
        return NAN;
    return powl(fabsl(x), y);
}

static long double ref_rootn(long double x, int n)
{
    if (n == 0 || (x < 0.0L && n % 2 == 0) || isnan(x))
        return NAN;
    long double r = powl(fabsl(x), 1.0L / n);
    return n % 2 ? copysignl(r, x) : r;
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
        return copysign(0.0, x);
    if (x == 0.0 || isnan(x))
        return x;
    return fmin(x - floor(x), 0x1.fffffffffffffp-1);
}

/* sinpi, cospi, tanpi from their definitions: x reduced exactly modulo 2 and then
 * into [-1/2, 1/2] by the exact reflections (sinpi(r) = sinpi(1 - r), cospi(r) =
 * sinpi(1/2 - r)), where pi r is accurate in long double. */
static long double sinpi_half(long double r) { return sinl(M_PIl * r); }

static long double ref_sinpi(long double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    long double r = x - 2.0L * nearbyintl(x / 2.0L); /* exact: in [-1, 1] */
    if (r == 0.0L || fabsl(r) == 1.0L)
        return copysignl(0.0L, x);
    r = r > 0.5L ? 1.0L - r : r < -0.5L ? -1.0L - r : r;
    return sinpi_half(r);
}

static long double ref_cospi(long double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    long double r = fabsl(x - 2.0L * nearbyintl(x / 2.0L)); /* in [0, 1] */
    if (r == 0.5L)
        return 0.0L;
    return sinpi_half(0.5L - r);
}

static long double ref_tanpi(long double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    long double r = x - 2.0L * nearbyintl(x / 2.0L);
    if (x == nearbyintl(x)) { /* n: zero, signed as n if even, -n if odd */
        int odd = fmodl(fabsl(x), 2.0L) == 1.0L;
        return copysignl(0.0L, odd ? -x : x);
    }
    if (fabsl(r) == 0.5L) /* n + 1/2: +inf for even n, -inf for odd */
        return fmodl(fabsl(floorl(x)), 2.0L) == 0.0L ? INFINITY : -INFINITY;
    return ref_sinpi(x) / ref_cospi(x);
}

/* remquo's quotient: the low 7 bits of n (x = n y + r) with the sign of x/y. */
static int ref_quo(double x, double y)
{
    if (isnan(x) || isnan(y) || isinf(x) || y == 0.0 || isinf(y))
        return 0;
    long double ax = fabsl((long double)x), ay = fabsl((long double)y);
    long double m = fmodl(ax, 128.0L * ay); /* exact */
    long double r = remainderl((long double)fabs(x), ay);
    long n = lroundl((m - r) / ay) & 127;
    return !signbit(x) != !signbit(y) ? -(int)n : (int)n;
}

/* ------------------------------------------------------------ ulp errors */

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The error of got against the reference ref, in ulps of the double result; 0 for
 * matching special values, INFINITY for a mismatch of specials. */
static double ulp_error(double got, long double ref)
{
    if (isnan(ref))
        return isnan(got) ? 0.0 : INFINITY;
    if (isnan(got))
        return INFINITY;
    if (isinf(ref) || fabsl(ref) > 0x1.fffffffffffff8p1023L)
        return got == (double)copysignl(INFINITY, ref) ? 0.0 : INFINITY;
    if (ref == 0.0L)
        return got == 0.0 && !signbit(got) == !signbit(ref) ? 0.0 : INFINITY;
    int e = ilogbl(ref);
    if (fabsl(ref) == ldexpl(1.0L, e))
        e--; /* a power of two: the ulp of the binade below */
    if (e < -1022)
        e = -1022;
    long double g = isinf(got) ? copysignl(0x1p1024L, (long double)got) : (long double)got;
    return (double)(fabsl(g - ref) / ldexpl(1.0L, e - 52));
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
    int vs;           /* ... of an element of a vector version on (x, x, ...) (or -1) */
} fn;

static const fn fns[] = {
    {"exp", 0, ARG_X, 3, -60, 10, 0, 0, 0, -1, 4},
    {"exp2", 0, ARG_X, 3, -60, 10, 0, 0, 1, -1, -1},
    {"exp10", 0, ARG_X, 3, -60, 9, 0, 0, 2, -1, -1},
    {"expm1", 0, ARG_X, 3, -60, 10, 0, 0, 3, -1, -1},
    {"log", 1, ARG_X, 3, -1022, 1023, 0, 0, 0, -1, -1},
    {"log2", 1, ARG_X, 3, -1022, 1023, 0, 0, 1, -1, -1},
    {"log10", 1, ARG_X, 3, -1022, 1023, 0, 0, 2, -1, 4},
    {"log1p", 1, ARG_X, 2, -60, 1023, 0, 0, 3, -1, -1},
    {"pow", 2, ARG_XY, 16, -40, 40, -20, 10, 0, -1, 6},
    {"powr", 2, ARG_XY, 16, -40, 40, -20, 10, 1, -1, -1},
    {"pown", 2, ARG_XN, 16, -40, 40, -30, 30, 2, -1, -1},
    {"rootn", 2, ARG_XN, 16, -1022, 1023, -12, 12, 3, -1, -1},
    {"cbrt", 2, ARG_X, 2, -1022, 1023, 0, 0, 4, -1, -1},
    {"hypot", 2, ARG_XY, 4, -1022, 1023, -1022, 1023, 5, -1, -1},
    {"sin", 3, ARG_X, 4, -30, 1023, 0, 0, 0, -1, -1},
    {"cos", 3, ARG_X, 4, -30, 1023, 0, 0, 1, -1, -1},
    {"tan", 3, ARG_X, 5, -30, 1023, 0, 0, 2, -1, 5},
    {"sincos", 3, ARG_X, 4, -30, 1023, 0, 0, 3, 4, -1},
    {"sinpi", 7, ARG_X, 4, -30, 60, 0, 0, 0, -1, -1},
    {"cospi", 7, ARG_X, 4, -30, 60, 0, 0, 1, -1, 3},
    {"tanpi", 7, ARG_X, 6, -30, 60, 0, 0, 2, -1, -1},
    {"asin", 8, ARG_X, 4, -60, -1, 0, 0, 0, -1, -1},
    {"acos", 8, ARG_X, 4, -60, -1, 0, 0, 1, -1, -1},
    {"asinpi", 8, ARG_X, 5, -60, -1, 0, 0, 2, -1, -1},
    {"acospi", 8, ARG_X, 5, -60, -1, 0, 0, 3, -1, -1},
    {"atan", 9, ARG_X, 5, -60, 60, 0, 0, 0, -1, -1},
    {"atanpi", 9, ARG_X, 5, -60, 60, 0, 0, 1, -1, -1},
    {"atan2", 9, ARG_XY, 6, -100, 100, -100, 100, 2, -1, 4},
    {"atan2pi", 9, ARG_XY, 6, -100, 100, -100, 100, 3, -1, -1},
    {"sinh", 10, ARG_X, 4, -60, 10, 0, 0, 0, -1, -1},
    {"cosh", 10, ARG_X, 4, -60, 10, 0, 0, 1, -1, -1},
    {"tanh", 10, ARG_X, 5, -60, 5, 0, 0, 2, -1, -1},
    {"asinh", 10, ARG_X, 4, -60, 1023, 0, 0, 3, -1, -1},
    {"acosh", 10, ARG_X, 4, 0, 1023, 0, 0, 4, -1, -1},
    {"atanh", 10, ARG_X, 5, -60, -1, 0, 0, 5, -1, -1},
    {"erf", 11, ARG_X, 16, -60, 5, 0, 0, 0, -1, -1},
    {"erfc", 11, ARG_X, 16, -60, 5, 0, 0, 1, -1, 2},
    {"tgamma", 12, ARG_X, 16, -40, 8, 0, 0, 0, -1, -1},
    {"lgamma", 12, ARG_X, 16, -40, 1023, 0, 0, 1, -1, -1},
    {"lgamma_r", 12, ARG_X, 16, -40, 1023, 0, 0, 2, 3, -1},
    {"fmod", 4, ARG_XY, 0, -1022, 1023, -1022, 1023, 0, -1, 4},
    {"remainder", 4, ARG_XY, 0, -1022, 1023, -1022, 1023, 1, -1, -1},
    {"remquo", 4, ARG_XY, 0, -1022, 1023, -1022, 1023, 2, 3, -1},
    {"frexp", 5, ARG_X, 0, -1022, 1023, 0, 0, 0, 1, -1},
    {"ldexp", 5, ARG_XN, 0, -1022, 1023, -2200, 2200, 2, -1, -1},
    {"modf", 5, ARG_X, 0, -30, 60, 0, 0, 3, 4, -1},
    {"fract", 5, ARG_X, 0, -30, 60, 0, 0, 5, 6, -1},
    {"nextafter", 5, ARG_XY, 0, -1022, 1023, -1022, 1023, 7, -1, -1},
    {"nan", 5, ARG_X, 0, -1022, 1023, 0, 0, 8, -1, -1},
    {"maxmag", 5, ARG_XY, 0, -10, 10, -10, 10, 9, -1, -1},
    {"minmag", 5, ARG_XY, 0, -10, 10, -10, 10, 10, -1, -1},
    {"logb", 5, ARG_X, 0, -1022, 1023, 0, 0, 11, -1, -1},
    {"ilogb", 5, ARG_X, 0, -1022, 1023, 0, 0, 12, -1, -1},
    {"floor", 5, ARG_X, 0, -10, 60, 0, 0, 13, -1, -1},
    {"ceil", 5, ARG_X, 0, -10, 60, 0, 0, 14, -1, -1},
    {"rint", 5, ARG_X, 0, -10, 60, 0, 0, 15, -1, -1},
    {"round", 6, ARG_X, 0, -10, 60, 0, 0, 0, -1, -1},
    {"trunc", 6, ARG_X, 0, -10, 60, 0, 0, 1, -1, -1},
    {"copysign", 6, ARG_XY, 0, -1022, 1023, -1022, 1023, 2, -1, -1},
    {"fdim", 6, ARG_XY, 0, -60, 60, -60, 60, 3, -1, -1},
    {"fmin", 6, ARG_XY, 0, -60, 60, -60, 60, 4, -1, -1},
    {"fmax", 6, ARG_XY, 0, -60, 60, -60, 60, 5, -1, -1},
};
enum { NFN = (int)(sizeof fns / sizeof *fns) };

static double from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t rand64(unsigned *seed)
{
    uint64_t hi = e2e_xorshift(seed);
    return hi << 32 | e2e_xorshift(seed);
}

/* A random double with an exponent in [lo, hi] and a random sign (positive with pos). */
static double rand_double(unsigned *seed, int lo, int hi, int pos)
{
    uint64_t r = rand64(seed);
    int e = lo + (int)(e2e_xorshift(seed) % (unsigned)(hi - lo + 1));
    uint64_t bits = (r & 0xfffffffffffffull) | (uint64_t)(e + 1023) << 52 |
                    (pos ? 0 : (r & 0x8000000000000000ull));
    return from_bits(bits);
}

static const double specials[] = {0.0,      -0.0,    1.0,      -1.0, INFINITY, -INFINITY,
                                  NAN,      0.5,     -0.5,     2.0,  -2.0,     3.0,
                                  -3.0,     2.5,     -2.5,     0x1p-1074, DBL_MIN, -DBL_MAX,
                                  DBL_MAX,  0x1.fffffffffffffp-1};
enum { NSPEC = (int)(sizeof specials / sizeof *specials) };

/* Points where f is delicate, written into x[] (and y[]): returns how many. */
static int interesting(const fn *f, double *x, double *y, unsigned *seed)
{
    int k = 0;
    const char *nm = f->name;
#define PUT(v) (x[k] = (v), y[k] = 1.0, k++)
    for (int i = 1; i <= 6; i++) { /* around 0 and 1 */
        PUT(1.0 + (double)i * 0x1p-52);
        PUT(1.0 - (double)i * 0x1p-53);
        PUT(ldexp(1.0, -i * 150));
        PUT(-ldexp(1.3, -i * 140));
    }
    if (!strncmp(nm, "exp", 3)) {
        const double t[] = {709.782712893384, 709.7827128933841, 709.79, 710.0, -708.39641853226408,
                            -708.4, -744.44007192138, -745.2, 1023.99999, 1024.0, -1022.0,
                            -1074.0, -1075.0, 308.2547155599167, 308.26, -307.65, -323.3,
                            0.34657359027997264, -0.34657359027997264, 0.6931471805599453,
                            36.7, 20.0, -20.0, 0.33, 0.35, -0.33, -0.35};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (!strncmp(nm, "log", 3) || !strcmp(nm, "cbrt") || !strcmp(nm, "rootn")) {
        const double t[] = {0.7071067811865476, 1.4142135623730951, 0x1.6a09ep-1, 0x1.6a09ep+0,
                            0x1.6a09dffffffffp-1, 0x1.6a09dffffffffp+0, 4096.0, 8.0, 27.0,
                            -27.0, 1e300, 1e-300, 10.0, 100.0, 1e22, -0.9999999999999999,
                            -0.5, 0.9999999999999999, 1e-17, -1e-17};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (f->group == 3) {
        /* near multiples of pi/2, large arguments; 0x1.6ac5b262ca1ffp+849 is among
         * the doubles nearest a multiple of pi/2 */
        for (int i = 0; i < 50; i++) {
            double m = (double)(1 + e2e_xorshift(seed) % (i < 25 ? 64u : 1u << 30));
            double v = m * M_PI_2;
            PUT(from_bits(dbits(v) + (e2e_xorshift(seed) % 5u) - 2u));
        }
        const double t[] = {1e300, -1e300, 0x1p1000, 0x1.921fb54442d18p+0,
                            0x1.921fb54442d18p+1, 0x1.921fb54442d18p-1, 0x1.921fb54442d17p-1,
                            1e22, 0x1p52, 0x1p53 + 2.0, 0x1.6ac5b262ca1ffp+849,
                            -0x1.6ac5b262ca1ffp+849, 0x1.fffffffffffffp+1023, 0x1p-30, 0.25,
                            -0.25, 1.5, 0.75, 1e10, 5.3198869769414164e+228};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (f->group == 7) { /* near halves and integers, large arguments */
        for (int i = 0; i < 40; i++) {
            double m = (double)(1 + e2e_xorshift(seed) % (i < 20 ? 64u : 1u << 30)) * 0.5;
            PUT(from_bits(dbits(m) + (e2e_xorshift(seed) % 5u) - 2u));
        }
        const double t[] = {0x1p52, 0x1p52 + 1.0, 0x1p53, 0x1p51 + 0.5, 0x1p51 + 1.5, 0.25,
                            -0.25, 0.75, 1e300, 4503599627370495.5, -4503599627370495.5};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (f->group == 8 || !strcmp(nm, "atanh")) {
        const double t[] = {0.5, -0.5, 0.5000000000000001, 0.49999999999999994, 0.9999999999999999,
                            -0.9999999999999999, 1.0000000000000002, 0.866, -0.9, 0.7};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
        for (int i = 0; i < 60; i++)
            PUT((double)(e2e_xorshift(seed) % 2000001u) / 1e6 - 1.0);
    }
    if (f->group == 9) {
        const double t[] = {0.4375, 0.4374999999999999, 0.6875, 0.6874999999999999, 1.1875,
                            2.4375, -0.4375, 1e300, -1e300, 0.99999999999999, 1.0000000000000002};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (f->group == 10) {
        const double t[] = {22.0, 21.999999999999996, 22.000000000000004, 710.4758600739439,
                            710.476, -710.4758600739439, 709.78, 0x1p28, 0x1p28 - 1.0, 2.0,
                            1.0000000000000002, 1e300, 19.06, 0.34, -0.34, 1.5};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (f->group == 11) {
        for (int i = 0; i < 80; i++)
            PUT((double)(e2e_xorshift(seed) % 6000001u) / 1e5 - 30.0);
        const double t[] = {0.5, 0.49999999999999994, 1.0, 1.5, 2.0, 2.75, 3.5, 4.5, 6.0, 8.0,
                            11.0, 15.0, 20.0, 26.5, 27.2, 27.5, 28.0, -0.5, -1.0, -6.0, -27.0};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
    if (f->group == 12) { /* poles and near them, both signs, across the range */
        for (int i = 1; i <= 30; i++) {
            double p = -(double)i;
            if (i % 4 == 0)
                PUT(p);
            PUT(from_bits(dbits(p) + 1u));
            PUT(from_bits(dbits(p) - 1u));
            PUT(p + 0.5);
            PUT(p + (double)(e2e_xorshift(seed) % 1000u) / 1000.0);
        }
        const double t[] = {171.0, 171.6, 171.7, 170.5, 1.0, 2.0, 3.0, 0.5, 1.5, 9.999999999999998,
                            10.0, 1e-300, -1e-300, 1e-20, 1e300, 2.5e305, 1.4616321449683622,
                            -2.7476826467274127, -171.5, -180.5, 0.9999999999999999,
                            1.0000000000000002, 2.0000000000000004};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
        for (int i = 0; i < 40; i++)
            PUT((double)(e2e_xorshift(seed) % 18000001u) / 1e5);
    }
    if (!strcmp(nm, "fmod") || !strncmp(nm, "rem", 3)) {
        for (int i = 0; i < 40; i++) { /* halfway cases and small quotients */
            double yy = rand_double(seed, -60, 60, 0);
            int q = (int)(e2e_xorshift(seed) % 300u);
            x[k] = (double)(q + (i % 2 ? 0.5 : 0.25)) * yy;
            y[k++] = yy;
        }
        for (int i = 0; i < 30; i++) { /* every distance of exponents */
            x[k] = rand_double(seed, 1023 - i * 68, 1023 - i * 68, 0);
            y[k++] = rand_double(seed, -1022, -1022 + i * 68, 0);
        }
    }
    if (!strcmp(nm, "pow") || !strcmp(nm, "powr")) {
        for (int i = 0; i < 40; i++) { /* results near overflow and underflow */
            x[k] = rand_double(seed, -8, 8, 1);
            double l = log2(x[k]);
            y[k++] = (i % 2 ? 1023.5 : -1021.5) / l;
        }
        for (int i = 0; i < 20; i++) { /* x near 1, y large */
            x[k] = 1.0 + (double)((int)(e2e_xorshift(seed) % 200u) - 100) * 0x1p-52;
            y[k++] = rand_double(seed, 20, 60, 0);
        }
        for (int i = 0; i < 20; i++) { /* negative x, integral y */
            x[k] = -rand_double(seed, -3, 3, 1);
            y[k++] = (double)((int)(e2e_xorshift(seed) % 41u) - 20);
        }
    }
    if (!strcmp(nm, "floor") || !strcmp(nm, "ceil") || !strcmp(nm, "rint") ||
        !strcmp(nm, "round") || !strcmp(nm, "trunc") || !strcmp(nm, "modf") ||
        !strcmp(nm, "fract")) {
        for (int i = 0; i < 40; i++) /* halves, integers and neighbours */
            PUT((double)((int)(e2e_xorshift(seed) % 41u) - 20) * (i % 2 ? 0.5 : 1.0) +
                (i % 3 ? 0.0 : 0x1p-40));
        const double t[] = {0x1p52, 0x1p52 + 1.0, 0x1p51 + 0.5, -0x1p51 - 0.5, 0x1p53,
                            0.49999999999999994, -0.49999999999999994, 4503599627370495.5};
        for (int i = 0; i < (int)(sizeof t / sizeof *t); i++)
            PUT(t[i]);
    }
#undef PUT
    return k;
}

/* The reference for input i of f: r (and s, the second result). */
static void reference(const fn *f, double x, double y, int n, long double *r, long double *s)
{
    long double lx = x, ly = y;
    const char *nm = f->name;
    *s = 0.0L;
    if (!strcmp(nm, "exp")) *r = expl(lx);
    else if (!strcmp(nm, "exp2")) *r = exp2l(lx);
    else if (!strcmp(nm, "exp10")) *r = exp10l(lx);
    else if (!strcmp(nm, "expm1")) *r = expm1l(lx);
    else if (!strcmp(nm, "log")) *r = logl(lx);
    else if (!strcmp(nm, "log2")) *r = log2l(lx);
    else if (!strcmp(nm, "log10")) *r = log10l(lx);
    else if (!strcmp(nm, "log1p")) *r = log1pl(lx);
    else if (!strcmp(nm, "pow")) *r = powl(lx, ly);
    else if (!strcmp(nm, "pown")) *r = powl(lx, (long double)n);
    else if (!strcmp(nm, "powr")) *r = ref_powr(lx, ly);
    else if (!strcmp(nm, "rootn")) *r = ref_rootn(lx, n);
    else if (!strcmp(nm, "cbrt")) *r = cbrtl(lx);
    else if (!strcmp(nm, "hypot")) *r = hypotl(lx, ly);
    else if (!strcmp(nm, "sin")) *r = sinl(lx);
    else if (!strcmp(nm, "cos")) *r = cosl(lx);
    else if (!strcmp(nm, "tan")) *r = tanl(lx);
    else if (!strcmp(nm, "sincos")) *r = sinl(lx), *s = cosl(lx);
    else if (!strcmp(nm, "sinpi")) *r = ref_sinpi(lx);
    else if (!strcmp(nm, "cospi")) *r = ref_cospi(lx);
    else if (!strcmp(nm, "tanpi")) *r = ref_tanpi(lx);
    else if (!strcmp(nm, "asin")) *r = asinl(lx);
    else if (!strcmp(nm, "acos")) *r = acosl(lx);
    else if (!strcmp(nm, "asinpi")) *r = asinl(lx) / M_PIl;
    else if (!strcmp(nm, "acospi")) *r = acosl(lx) / M_PIl;
    else if (!strcmp(nm, "atan")) *r = atanl(lx);
    else if (!strcmp(nm, "atanpi")) *r = atanl(lx) / M_PIl;
    else if (!strcmp(nm, "atan2")) *r = atan2l(lx, ly);
    else if (!strcmp(nm, "atan2pi")) *r = atan2l(lx, ly) / M_PIl;
    else if (!strcmp(nm, "sinh")) *r = sinhl(lx);
    else if (!strcmp(nm, "cosh")) *r = coshl(lx);
    else if (!strcmp(nm, "tanh")) *r = tanhl(lx);
    else if (!strcmp(nm, "asinh")) *r = asinhl(lx);
    else if (!strcmp(nm, "acosh")) *r = acoshl(lx);
    else if (!strcmp(nm, "atanh")) *r = atanhl(lx);
    else if (!strcmp(nm, "erf")) *r = erfl(lx);
    else if (!strcmp(nm, "erfc")) *r = erfcl(lx);
    else if (!strcmp(nm, "tgamma")) *r = tgammal(lx);
    else if (!strcmp(nm, "lgamma")) *r = lgammal(lx);
    else if (!strcmp(nm, "lgamma_r")) {
        int sg = 1;
        *r = lgammal_r(lx, &sg);
        *s = sg;
    } else if (!strcmp(nm, "fmod")) *r = fmod(x, y);
    else if (!strcmp(nm, "remainder")) *r = remainder(x, y);
    else if (!strcmp(nm, "remquo")) *r = remainder(x, y), *s = ref_quo(x, y);
    else if (!strcmp(nm, "frexp")) {
        int e = 0;
        *r = isinf(x) || isnan(x) ? x : frexp(x, &e);
        *s = e;
    } else if (!strcmp(nm, "ldexp")) *r = ldexp(x, n);
    else if (!strcmp(nm, "modf")) {
        double ip;
        *r = modf(x, &ip);
        *s = ip;
    } else if (!strcmp(nm, "fract")) {
        double ip;
        *r = ref_fract(x, &ip);
        *s = ip;
    } else if (!strcmp(nm, "nextafter")) *r = nextafter(x, y);
    else if (!strcmp(nm, "nan")) *r = NAN;
    else if (!strcmp(nm, "maxmag")) *r = ref_maxmag(x, y);
    else if (!strcmp(nm, "minmag")) *r = ref_minmag(x, y);
    else if (!strcmp(nm, "logb")) *r = logb(x);
    else if (!strcmp(nm, "ilogb")) *r = ilogb(x);
    else if (!strcmp(nm, "floor")) *r = floor(x);
    else if (!strcmp(nm, "ceil")) *r = ceil(x);
    else if (!strcmp(nm, "rint")) *r = rint(x);
    else if (!strcmp(nm, "round")) *r = round(x);
    else if (!strcmp(nm, "trunc")) *r = trunc(x);
    else if (!strcmp(nm, "copysign")) *r = copysign(x, y);
    else if (!strcmp(nm, "fdim")) *r = isnan(x) || isnan(y) ? NAN : fdim(x, y);
    else if (!strcmp(nm, "fmin")) *r = fmin(x, y);
    else if (!strcmp(nm, "fmax")) *r = fmax(x, y);
    else {
        fprintf(stderr, "no reference for %s\n", nm);
        _Exit(1);
    }
}

/* The error of got for the inputs x, y against the reference. The exact functions
 * compare bits (0 or INFINITY; NaNs alike, the sign of a zero counts) through
 * ulp_error, whose result is 0 only for an equal value; the second results compare as
 * values. */
static double error_of(const fn *f, double x, double y, int n, double got, double gots,
                       int *s_ok)
{
    long double r, s;
    reference(f, x, y, n, &r, &s);
    double e;
    if (!strcmp(f->name, "ilogb")) { /* the int result converted to double */
        e = got == (double)r || (isnan(x) && got == INT_MAX) || (x == 0.0 && got == INT_MIN) ||
                    (isinf(x) && got == INT_MAX)
                ? 0.0
                : INFINITY;
    } else if (!strncmp(f->name, "lgamma", 6)) {
        e = ulp_error(got, r);
        if (isfinite(r) && fabsl((long double)got - r) <= 0x1p-48L)
            e = fmin(e, 0.0); /* absolute accuracy near zeros and poles */
    } else if ((!strcmp(f->name, "maxmag") || !strcmp(f->name, "minmag") ||
                !strcmp(f->name, "fmin") || !strcmp(f->name, "fmax")) &&
               x == 0.0 && y == 0.0)
        e = got == 0.0 ? 0.0 : INFINITY; /* either zero */
    else
        e = ulp_error(got, r);
    int sok = 1;
    if (!strcmp(f->name, "frexp") || !strcmp(f->name, "remquo") ||
        !strcmp(f->name, "lgamma_r"))
        sok = gots == (double)s || (!strcmp(f->name, "lgamma_r") && !isfinite(r)) ||
              (!strcmp(f->name, "frexp") && x == 0.0 && gots == 0.0);
    else if (!strcmp(f->name, "sincos"))
        sok = ulp_error(gots, s) <= f->ulps;
    else if (!strcmp(f->name, "modf") || !strcmp(f->name, "fract"))
        sok = ulp_error(gots, s) == 0.0;
    *s_ok = sok;
    return e;
}

static double worst[NFN];
static int failures[NFN]; /* inputs out of the limit (the first three are printed) */

/* The inputs of f: every special value (every pair of them for two arguments), the
 * interesting points, random values; n from f's range (or -40..40). */
static int inputs_of(const fn *f, double *x, double *y, int *c, unsigned *seed)
{
    int k = 0;
    if (f->args == ARG_XY) {
        for (int i = 0; i < NSPEC; i++)
            for (int j = 0; j < NSPEC && k < N / 2; j++) {
                x[k] = specials[i];
                y[k++] = specials[(i + j) % NSPEC];
            }
    } else
        for (int i = 0; i < NSPEC; i++) {
            x[k] = specials[i];
            y[k++] = 1.0;
        }
    double ix[N], iy[N];
    int ni = interesting(f, ix, iy, seed);
    for (int i = 0; i < ni && k < N; i++) {
        x[k] = ix[i];
        y[k++] = iy[i];
    }
    while (k < N) {
        x[k] = rand_double(seed, f->lo, f->hi, 0);
        y[k++] = f->args == ARG_XY ? rand_double(seed, f->ylo, f->yhi, 0) : 1.0;
    }
    int nlo = f->args == ARG_XN ? f->ylo : -40, nhi = f->args == ARG_XN ? f->yhi : 40;
    for (int i = 0; i < N; i++)
        c[i] = i < 8 ? (int[]){0, 1, -1, 2, -2, 3, INT_MAX, INT_MIN}[i]
                     : nlo + (int)(e2e_xorshift(seed) % (unsigned)(nhi - nlo + 1));
    if (!strcmp(f->name, "nan"))
        for (int i = 0; i < N; i++)
            x[i] = from_bits(rand64(seed));
    return N;
}

/* Runs group g's kernel on the inputs of all its functions together and checks every
 * function of the group on all of them. */
static void run_group(int g)
{
    enum { MAXF = 14 };
    static double x[MAXF * N], y[MAXF * N], o[16 * MAXF * N], part[4 * MAXF * N];
    static int c[MAXF * N];
    unsigned seed = 4321u + (unsigned)g * 7919u;
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
    for (int k = 0; k < 4; k++) { /* slot 4 k + j of item i is element j of part[i] */
        e2e_read(&env, bo[k], (size_t)count * 4 * sizeof *part, part);
        for (int i = 0; i < count; i++)
            memcpy(o + 16 * i + 4 * k, part + 4 * i, 4 * sizeof *part);
    }
    for (int fi = 0; fi < NFN; fi++) {
        const fn *f = &fns[fi];
        if (f->group != g)
            continue;
        double w = 0.0;
        for (int i = 0; i < count; i++) {
            const double *out = o + 16 * i;
            double got = out[f->r], gots = f->s >= 0 ? out[f->s] : 0.0;
            int sok;
            double e = error_of(f, x[i], y[i], c[i], got, gots, &sok);
            if ((!(e <= f->ulps) || !sok) && failures[fi]++ < 3) {
                long double r, s;
                reference(f, x[i], y[i], c[i], &r, &s);
                fprintf(stderr,
                        "%s(%a, %a, %d): %a (second %a), expected %La (second %La): %g ulp, "
                        "limit %g\n",
                        f->name, x[i], y[i], c[i], got, gots, r, s, e, f->ulps);
            }
            if (e > w)
                w = e;
            if (f->vs >= 0 && dbits(out[f->vs]) != dbits(got) && failures[fi]++ < 3)
                fprintf(stderr, "%s(%a) vector version %a, scalar %a\n", f->name, x[i],
                        out[f->vs], got);
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

int main(void)
{
    e2e_init(&env);
    for (int p = 0; p < PROGRAMS; p++)
        programs[p] = e2e_build(&env, *sources[p], "", 1, NULL);
    for (int g = 0; g < NGROUP; g++)
        run_group(g);
    printf("%-10s %10s %6s %8s\n", "function", "max ulp", "limit", "failures");
    int failed = 0;
    for (int i = 0; i < NFN; i++) {
        printf("%-10s %10.3f %6g %8d\n", fns[i].name, worst[i], fns[i].ulps, failures[i]);
        failed += failures[i];
    }
    for (int p = 0; p < PROGRAMS; p++)
        clReleaseProgram(programs[p]);
    e2e_fini(&env);
    if (failed) {
        printf("FAILED\n");
        return 1;
    }
    printf("PASSED\n");
    return 0;
}
