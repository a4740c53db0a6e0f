/* End-to-end: explicit conversions (convert_<type>[_sat][_rte|_rtz|_rtp|_rtn]) and the
 * float and double rounding functions, all kernels of one program (the hardware is
 * built once). Float to int, uint, char, long and ulong in every rounding mode, with
 * and without _sat; int, uint, long and ulong to float in every rounding mode (and
 * char and ushort, which convert exactly); integer to integer conversions that
 * saturate in both directions (narrower, wider, signed to unsigned and back) and some
 * that wrap; vector forms (int4 from float4, uchar16 from int16, float4 from int4) and
 * rint, round, trunc, floor and ceil on scalars and float4. Double: to long, ulong,
 * int, uint and char in every mode with and without _sat, to float in every mode
 * (the host converting in each rounding mode), long and ulong to double in every mode,
 * int, uint, char and float to double (exact), a vector form each way, and the
 * rounding functions. The float inputs include halfway cases of both parities,
 * values one ulp either side of integers and of every type's range limits, signed
 * zeros, NaN, infinities, large magnitudes up to and past 2^64, and random values; the
 * double inputs the same and double's own edges (around 2^52, 2^63, the float range
 * and halfway between floats); the integer inputs the ties and range limits of the
 * int-to-float and integer conversions, and random values. Every result is compared
 * bit for bit with a host reference: the rounding of floats and doubles by rint,
 * trunc, ceil, floor and round, the rounding of integers to float or double and the
 * clamping by exact integer arithmetic. Results out of the destination's range
 * without _sat are undefined and not compared (the kernels must still finish).
 * The inputs have no denormals, which the device flushes to zero (nor results below
 * float's normal range from double). */
#include "e2e.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

static const char *src =
    "/* The ten conversions of x to T: convert_T, _rte, _rtz, _rtp, _rtn, then the same\n"
    " * with _sat; six zeros after them. */\n"
    "#define ALL_MODES(T, x)                                                            \\\n"
    "    (T##16)(convert_##T(x), convert_##T##_rte(x), convert_##T##_rtz(x),            \\\n"
    "            convert_##T##_rtp(x), convert_##T##_rtn(x), convert_##T##_sat(x),      \\\n"
    "            convert_##T##_sat_rte(x), convert_##T##_sat_rtz(x),                    \\\n"
    "            convert_##T##_sat_rtp(x), convert_##T##_sat_rtn(x), 0, 0, 0, 0, 0, 0)\n"
    "__kernel void float_to_int(__global const float *a, __global int8 *oi, __global uint8 *ou,\n"
    "                           __global char16 *oc)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float x = a[i];\n"
    "    int16 ri = ALL_MODES(int, x);\n"
    "    uint16 ru = ALL_MODES(uint, x);\n"
    "    oi[2 * i] = ri.lo;\n"
    "    oi[2 * i + 1] = ri.hi;\n"
    "    ou[2 * i] = ru.lo;\n"
    "    ou[2 * i + 1] = ru.hi;\n"
    "    oc[i] = ALL_MODES(char, x);\n"
    "}\n"
    "__kernel void float_to_long(__global const float *a, __global long4 *ol, __global ulong4 *ou)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float x = a[i];\n"
    "    long16 rl = ALL_MODES(long, x);\n"
    "    ulong16 ru = ALL_MODES(ulong, x);\n"
    "    ol[3 * i] = rl.s0123;\n"
    "    ol[3 * i + 1] = rl.s4567;\n"
    "    ol[3 * i + 2] = rl.s89ab;\n"
    "    ou[3 * i] = ru.s0123;\n"
    "    ou[3 * i + 1] = ru.s4567;\n"
    "    ou[3 * i + 2] = ru.s89ab;\n"
    "}\n"
    "/* convert_float, _rte, _rtz, _rtp, _rtn of v */\n"
    "#define TO_FLOAT(v)                                                                \\\n"
    "    convert_float(v), convert_float_rte(v), convert_float_rtz(v), convert_float_rtp(v), \\\n"
    "        convert_float_rtn(v)\n"
    "__kernel void int_to_float(__global const int *a, __global const long *b, __global float8 *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int x = a[i];\n"
    "    long y = b[i];\n"
    "    o[4 * i] = (float8)(TO_FLOAT(x), convert_float_rtp((char)x),\n"
    "                        convert_float_rtn((ushort)x), 0.0f);\n"
    "    o[4 * i + 1] = (float8)(TO_FLOAT((uint)x), 0.0f, 0.0f, 0.0f);\n"
    "    o[4 * i + 2] = (float8)(TO_FLOAT(y), 0.0f, 0.0f, 0.0f);\n"
    "    o[4 * i + 3] = (float8)(TO_FLOAT((ulong)y), 0.0f, 0.0f, 0.0f);\n"
    "}\n"
    "__kernel void int_to_int(__global const int *a, __global const long *b, __global long4 *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int x = a[i];\n"
    "    long y = b[i];\n"
    "    long16 r;\n"
    "    r.s0 = convert_uchar_sat(x);\n"
    "    r.s1 = convert_int_sat(y);\n"
    "    r.s2 = convert_int_sat((uint)x);\n"
    "    r.s3 = convert_ushort_sat((char)x);\n"
    "    r.s4 = convert_long_sat((ulong)y);\n"
    "    r.s5 = (long)convert_ulong_sat(y);\n"
    "    r.s6 = convert_char_sat_rte((short)x);\n"
    "    r.s7 = convert_uint_sat_rtz(y);\n"
    "    r.s8 = convert_short(y);\n"
    "    r.s9 = convert_uchar_rtp(x);\n"
    "    r.sa = convert_char_sat((uchar)x);\n"
    "    r.sb = (long)convert_ulong_sat(x);\n"
    "    r.sc = convert_uint_sat((ulong)y);\n"
    "    r.sd = convert_ushort_sat_rtn((uint)x);\n"
    "    r.se = convert_long_sat(x);\n"
    "    r.sf = convert_uchar_sat((ulong)y);\n"
    "    o[4 * i] = r.s0123;\n"
    "    o[4 * i + 1] = r.s4567;\n"
    "    o[4 * i + 2] = r.s89ab;\n"
    "    o[4 * i + 3] = r.scdef;\n"
    "}\n"
    "__kernel void rounding(__global const float *a, __global float8 *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float x = a[i];\n"
    "    o[i] = (float8)(rint(x), round(x), trunc(x), floor(x), ceil(x), 0.0f, 0.0f, 0.0f);\n"
    "}\n"
    "__kernel void vectors(__global const float4 *a, __global const int8 *b, __global int8 *oi,\n"
    "                      __global uchar16 *oc, __global float8 *of)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float4 x = a[i];\n"
    "    int16 v = (int16)(b[2 * i], b[2 * i + 1]);\n"
    "    oi[i] = (int8)(convert_int4_rte(x), convert_int4_sat_rtn(x));\n"
    "    oc[i] = convert_uchar16_sat(v);\n"
    "    of[3 * i] = (float8)(rint(x), round(x));\n"
    "    of[3 * i + 1] = (float8)(trunc(x), floor(x));\n"
    "    of[3 * i + 2] = (float8)(ceil(x), convert_float4_rtz(v.s5af0));\n"
    "}\n"
    "/* double: to every integer type in every mode, to float, and from integers */\n"
    "__kernel void double_to(__global const double *a, __global long4 *ol, __global ulong4 *ou,\n"
    "                        __global int8 *oi, __global uint8 *ouu, __global char16 *oc,\n"
    "                        __global float8 *of)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    double x = a[i];\n"
    "    long16 rl = ALL_MODES(long, x);\n"
    "    ulong16 ru = ALL_MODES(ulong, x);\n"
    "    ol[3 * i] = rl.s0123;\n"
    "    ol[3 * i + 1] = rl.s4567;\n"
    "    ol[3 * i + 2] = rl.s89ab;\n"
    "    ou[3 * i] = ru.s0123;\n"
    "    ou[3 * i + 1] = ru.s4567;\n"
    "    ou[3 * i + 2] = ru.s89ab;\n"
    "    int16 ri = ALL_MODES(int, x);\n"
    "    uint16 rv = ALL_MODES(uint, x);\n"
    "    oi[2 * i] = ri.lo;\n"
    "    oi[2 * i + 1] = ri.hi;\n"
    "    ouu[2 * i] = rv.lo;\n"
    "    ouu[2 * i + 1] = rv.hi;\n"
    "    oc[i] = ALL_MODES(char, x);\n"
    "    of[i] = (float8)(TO_FLOAT(x), convert_float2_rtp((double2)(x)).y, 0.0f, 0.0f);\n"
    "}\n"
    "/* convert_double, _rte, _rtz, _rtp, _rtn of v */\n"
    "#define TO_DOUBLE(v)                                                               \\\n"
    "    convert_double(v), convert_double_rte(v), convert_double_rtz(v),               \\\n"
    "        convert_double_rtp(v), convert_double_rtn(v)\n"
    "__kernel void to_double(__global const int *a, __global const long *b,\n"
    "                        __global const float *f, __global double4 *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int x = a[i];\n"
    "    long y = b[i];\n"
    "    double8 r0 = (double8)(TO_DOUBLE(y), convert_double(x), convert_double_rtn((uint)x),\n"
    "                           convert_double(f[i]));\n"
    "    double8 r1 = (double8)(TO_DOUBLE((ulong)y), convert_double_rtp((char)x),\n"
    "                           convert_double4_rtz((long4)(y)).z, 0.0);\n"
    "    double t = (double)y * 0x1p-20;\n"
    "    double8 r2 = (double8)(rint(t), round(t), trunc(t), floor(t), ceil(t),\n"
    "                           convert_double(3.5f), 0.0, 0.0);\n"
    "    o[6 * i] = r0.lo;\n"
    "    o[6 * i + 1] = r0.hi;\n"
    "    o[6 * i + 2] = r1.lo;\n"
    "    o[6 * i + 3] = r1.hi;\n"
    "    o[6 * i + 4] = r2.lo;\n"
    "    o[6 * i + 5] = r2.hi;\n"
    "}\n";

static cl_program prog;
static e2e_env env;

enum { N = 256 };
enum { RTE, RTZ, RTP, RTN };
static const char *const mode_name[] = {"rte", "rtz", "rtp", "rtn"};

typedef __int128 wide;

/* A float from its bits (NaNs with a sign, values written exactly). */
static float fbits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int same_float(float got, float want)
{
    return e2e_fbits(got) == e2e_fbits(want) || (isnan(got) && isnan(want));
}

static void print_wide(wide v)
{
    if (v < 0)
        fprintf(stderr, "%lld", (long long)v);
    else
        fprintf(stderr, "%llu", (unsigned long long)v);
}

/* The float inputs: edge cases first, then random values of three kinds. */
static void float_inputs(float *a)
{
    const float edge[] = {
        0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 3.5f, -3.5f, 0.25f, -0.75f,
        0x1.fffffep-2f, 0x1.000002p-1f, -0x1.fffffep-2f, -0x1.000002p-1f,   /* around 1/2 */
        0x1.fffffep-1f, 0x1.000002p+0f, -0x1.fffffep-1f, -0x1.000002p+0f,   /* around 1 */
        1.0f, -1.0f, 1e-30f, -1e-30f, 0x1.2p-126f, -0x1p-126f,
        4194304.5f, 4194305.5f, -4194304.5f, -4194305.5f, 8388607.5f, -8388607.5f,
        0x1p23f, 0x1p23f + 1.0f, -0x1p23f - 1.0f, 16777215.0f, 0x1p24f, 0x1p24f + 2.0f,
        126.5f, 127.5f, 0x1.fffffep6f, 128.0f, -127.5f, -128.5f, -128.0f, -129.0f,
        -0x1.000002p7f, 254.5f, 255.5f, 256.0f, 65535.5f, 65536.5f, -32768.5f,
        0x1.fffffep30f, 0x1p31f, -0x1p31f, -0x1.000002p31f, 0x1.fffffep31f, 0x1p32f,
        -0x1.fffffep30f, 2147483520.0f, 100.25f, -100.75f,
        0x1.fffffep62f, 0x1p63f, -0x1p63f, -0x1.000002p63f, -0x1.fffffep62f, 0x1.fffffep63f,
        0x1p64f, 0x1.000002p64f, 1e20f, -1e20f, 1e30f, -1e30f, 0x1.fffffep127f,
        INFINITY, -INFINITY, fbits(0x7fc00000u), fbits(0xffc00000u), fbits(0x7f800001u),
    };
    const int nedge = (int)(sizeof edge / sizeof *edge);
    unsigned seed = 1234;
    for (int i = 0; i < N; i++) {
        uint32_t r1 = e2e_xorshift(&seed), r2 = e2e_xorshift(&seed);
        if (i < nedge)
            a[i] = edge[i];
        else if (i % 3 == 0) /* any mantissa, |x| from 2^-20 to 2^66 */
            a[i] = fbits((r1 & 0x807fffffu) | (107 + r2 % 87) << 23);
        else if (i % 3 == 1) /* quarters: ties of both parities, .25 and .75 */
            a[i] = (float)((int)(r1 % 65536) - 32768) / 4.0f;
        else /* any mantissa, |x| from 1/2 to 2^25, where rounding splits the mantissa */
            a[i] = fbits((r1 & 0x807fffffu) | (126 + r2 % 26) << 23);
    }
}

/* x rounded to an integral value (host libm, exact; rint in the default mode). */
static double ref_round(double x, int mode)
{
    switch (mode) {
    case RTE: return rint(x);
    case RTZ: return trunc(x);
    case RTP: return ceil(x);
    default: return floor(x);
    }
}

/* Checks o[10 i + j], the conversions of in[i] (a float or a double, as a double)
 * to a type with range [min, max] (lo = min and hi = max + 1 as doubles): j = 0 the
 * default (toward zero), 1..4 the modes, 5..9 the same saturated. */
/* The 10 results of each of the N inputs, `stride` apart in out, into w in order. */
#define GATHER(w, out, stride)                                                         \
    for (int i_ = 0; i_ < 10 * N; i_++)                                                \
        (w)[i_] = (out)[(stride) * (i_ / 10) + i_ % 10]

static void check_float_to(const char *type, const double *in, const wide *o, double lo,
                           double hi, wide min, wide max)
{
    static const int modes[5] = {RTZ, RTE, RTZ, RTP, RTN};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 10; j++) {
            double x = in[i], r = ref_round(x, modes[j % 5]);
            int sat = j >= 5;
            wide want;
            if (sat)
                want = isnan(x) ? 0 : r < lo ? min : r >= hi ? max : (wide)r;
            else if (isnan(r) || r < lo || r >= hi)
                continue; /* undefined */
            else
                want = (wide)r;
            if (o[10 * i + j] != want) {
                fprintf(stderr, "convert_%s%s%s%s(%a) = ", type, sat ? "_sat" : "",
                        j % 5 ? "_" : "", j % 5 ? mode_name[modes[j % 5]] : "", x);
                print_wide(o[10 * i + j]);
                fprintf(stderr, ", expected ");
                print_wide(want);
                fprintf(stderr, "\n");
                _Exit(1);
            }
        }
}

static void test_float_to_integer(void)
{
    static float a[N];
    /* 16 results per input (10 used) for 32 and 8-bit types, 12 for 64-bit ones */
    static int32_t oi[16 * N];
    static uint32_t ou[16 * N];
    static int8_t oc[16 * N];
    static int64_t ol[12 * N];
    static uint64_t oul[12 * N];
    static wide w[10 * N];
    static double ad[N];
    float_inputs(a);
    for (int i = 0; i < N; i++)
        ad[i] = a[i];
    cl_mem ba = e2e_buffer(&env, sizeof a, a);
    cl_mem bi = e2e_buffer(&env, sizeof oi, NULL), bu = e2e_buffer(&env, sizeof ou, NULL);
    cl_mem bc = e2e_buffer(&env, sizeof oc, NULL), bl = e2e_buffer(&env, sizeof ol, NULL);
    cl_mem bul = e2e_buffer(&env, sizeof oul, NULL);
    size_t g = N;
    cl_kernel k = e2e_kernel(prog, "float_to_int");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bi);
    E2E_ARG(k, 2, bu);
    E2E_ARG(k, 3, bc);
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    clReleaseKernel(k);
    k = e2e_kernel(prog, "float_to_long");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bl);
    E2E_ARG(k, 2, bul);
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    clReleaseKernel(k);
    e2e_read(&env, bi, sizeof oi, oi);
    e2e_read(&env, bu, sizeof ou, ou);
    e2e_read(&env, bc, sizeof oc, oc);
    e2e_read(&env, bl, sizeof ol, ol);
    e2e_read(&env, bul, sizeof oul, oul);
    GATHER(w, oi, 16);
    check_float_to("int", ad, w, -0x1p31f, 0x1p31f, INT32_MIN, INT32_MAX);
    GATHER(w, ou, 16);
    check_float_to("uint", ad, w, 0.0f, 0x1p32f, 0, UINT32_MAX);
    GATHER(w, oc, 16);
    check_float_to("char", ad, w, -0x1p7f, 0x1p7f, INT8_MIN, INT8_MAX);
    GATHER(w, ol, 12);
    check_float_to("long", ad, w, -0x1p63f, 0x1p63f, INT64_MIN, INT64_MAX);
    GATHER(w, oul, 12);
    check_float_to("ulong", ad, w, 0.0f, 0x1p64f, 0, UINT64_MAX);
    clReleaseMemObject(ba);
    clReleaseMemObject(bi);
    clReleaseMemObject(bu);
    clReleaseMemObject(bc);
    clReleaseMemObject(bl);
    clReleaseMemObject(bul);
}

/* The integer m (negated if neg) rounded to a significand of prec bits (24: float,
 * 53: double) as mode says, by exact integer arithmetic: keep the top prec
 * significant bits and decide on the rest. */
static double ref_to_fp(uint64_t m, int neg, int mode, int prec)
{
    int bits = m ? 64 - __builtin_clzll(m) : 0;
    if (bits <= prec) {
        double f = (double)m; /* exact */
        return neg ? -f : f;
    }
    int shift = bits - prec;
    uint64_t q = m >> shift, rest = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    int up = mode == RTE   ? rest > half || (rest == half && (q & 1))
             : mode == RTP ? !neg && rest != 0
             : mode == RTN ? neg && rest != 0
                           : 0;
    double f = ldexp((double)(q + (uint64_t)up), shift); /* q + up <= 2^prec: exact */
    return neg ? -f : f;
}

static float ref_to_float(uint64_t m, int neg, int mode) { return (float)ref_to_fp(m, neg, mode, 24); }

static float ref_signed_to_float(int64_t x, int mode)
{
    return ref_to_float(x < 0 ? 0 - (uint64_t)x : (uint64_t)x, x < 0, mode);
}

static double ref_signed_to_double(int64_t x, int mode)
{
    return ref_to_fp(x < 0 ? 0 - (uint64_t)x : (uint64_t)x, x < 0, mode, 53);
}

static void test_integer_to_float(void)
{
    static int32_t a[N];
    static int64_t b[N];
    static float o[32 * N]; /* a float8 per source type and input */
    const int32_t edge32[] = {
        0, 1, -1, 255, -128, 0xffffff, 0x1000000, 0x1000001, 0x1000002, 0x1000003,
        -0x1000001, -0x1000003, 0x2000002, 0x2000006, -0x2000006, 0x7fffffff, INT32_MIN,
        INT32_MIN + 1, 0x7fffffc0, 0x7fffff40, 0x7fffff80, 0x7fffffbf, -0x7fffffc0,
        -0x7fffff40, (int32_t)0x80000080u, (int32_t)0xffffff80u, (int32_t)0xffffff7fu,
    };
    const int64_t edge64[] = {
        0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1,
        0x7fffff8000000000, 0x7fffff7fffffffff, 0x7fffff8000000001, /* 2^63 - 2^39 */
        0x7fffffc000000000, 0x7fffffbfffffffff, 0x7fffffc000000001, /* 2^63 - 2^38 */
        0x10000010000, 0x10000030000, -0x10000010000, -0x10000030000, /* ties at 2^40 */
        0x1000001, -0x1000001, 0x7fffffff, (int64_t)0xffffff8000000000u,
        (int64_t)0xffffff7fffffffffu, (int64_t)0x8000008000000000u,
        (int64_t)0x8000018000000000u, (int64_t)0x8000008000000001u,
    };
    const int n32 = (int)(sizeof edge32 / sizeof *edge32);
    const int n64 = (int)(sizeof edge64 / sizeof *edge64);
    unsigned seed = 777;
    for (int i = 0; i < N; i++) {
        uint32_t r1 = e2e_xorshift(&seed), r2 = e2e_xorshift(&seed), r3 = e2e_xorshift(&seed);
        uint32_t s = e2e_xorshift(&seed);
        /* random magnitudes and signs: the bits shifted right by a random count */
        uint32_t r32 = r1 >> (s % 32);
        uint64_t r64 = ((uint64_t)r2 << 32 | r3) >> (s / 64 % 64);
        a[i] = i < n32 ? edge32[i] : (int32_t)(s & 32 ? 0 - r32 : r32);
        b[i] = i < n64 ? edge64[i] : (int64_t)(s & 64 ? 0 - r64 : r64);
    }
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bb = e2e_buffer(&env, sizeof b, b);
    cl_mem bo = e2e_buffer(&env, sizeof o, NULL);
    cl_kernel k = e2e_kernel(prog, "int_to_float");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bo);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(&env, bo, sizeof o, o);
    static const int modes[5] = {RTE, RTE, RTZ, RTP, RTN};
    static const char *const source[4] = {"int", "uint", "long", "ulong"};
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 20; j++) {
            int mode = modes[j % 5];
            float want;
            switch (j / 5) {
            case 0: want = ref_signed_to_float(a[i], mode); break;
            case 1: want = ref_to_float((uint32_t)a[i], 0, mode); break;
            case 2: want = ref_signed_to_float(b[i], mode); break;
            default: want = ref_to_float((uint64_t)b[i], 0, mode); break;
            }
            float got = o[32 * i + 8 * (j / 5) + j % 5];
            if (!same_float(got, want)) {
                fprintf(stderr, "convert_float%s%s(%s 0x%llx) = %a, expected %a\n",
                        j % 5 ? "_" : "", j % 5 ? mode_name[mode] : "", source[j / 5],
                        j < 10 ? (unsigned long long)(uint32_t)a[i] : (unsigned long long)b[i],
                        got, want);
                _Exit(1);
            }
        }
        EXPECT(same_float(o[32 * i + 5], (float)(int8_t)a[i]));
        EXPECT(same_float(o[32 * i + 6], (float)(uint16_t)a[i]));
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
}

static wide clamp_wide(wide v, wide lo, wide hi) { return v < lo ? lo : v > hi ? hi : v; }

static void test_integer_to_integer(void)
{
    static int32_t a[N];
    static int64_t b[N];
    static int64_t o[16 * N];
    const int32_t edge32[] = {
        0, -1, 1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535,
        65536, INT32_MAX, INT32_MIN, (int32_t)0x80000001u, 0x17f, 0x180, -0x181,
    };
    const int64_t edge64[] = {
        0, -1, 1, INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN, (int64_t)INT32_MIN - 1,
        UINT32_MAX, (int64_t)UINT32_MAX + 1, INT64_MAX, INT64_MIN, 255, 256, -32769, 65535,
        0x1000000ff, 0x100000100, -0x100000001, 0x7fff, 0x8000, 0x18000,
    };
    const int n32 = (int)(sizeof edge32 / sizeof *edge32);
    const int n64 = (int)(sizeof edge64 / sizeof *edge64);
    unsigned seed = 4242;
    for (int i = 0; i < N; i++) {
        uint32_t r1 = e2e_xorshift(&seed), r2 = e2e_xorshift(&seed), r3 = e2e_xorshift(&seed);
        uint32_t s = e2e_xorshift(&seed);
        uint32_t r32 = r1 >> (s % 32);
        uint64_t r64 = ((uint64_t)r2 << 32 | r3) >> (s / 64 % 64);
        a[i] = i < n32 ? edge32[i] : (int32_t)(s & 32 ? 0 - r32 : r32);
        b[i] = i < n64 ? edge64[i] : (int64_t)(s & 64 ? 0 - r64 : r64);
    }
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bb = e2e_buffer(&env, sizeof b, b);
    cl_mem bo = e2e_buffer(&env, sizeof o, NULL);
    cl_kernel k = e2e_kernel(prog, "int_to_int");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bo);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(&env, bo, sizeof o, o);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i];
        int64_t y = b[i];
        wide e[16];
        e[0] = clamp_wide(x, 0, UINT8_MAX);
        e[1] = clamp_wide(y, INT32_MIN, INT32_MAX);
        e[2] = clamp_wide((uint32_t)x, INT32_MIN, INT32_MAX);
        e[3] = clamp_wide((int8_t)x, 0, UINT16_MAX);
        e[4] = clamp_wide((uint64_t)y, INT64_MIN, INT64_MAX);
        e[5] = (int64_t)(uint64_t)clamp_wide(y, 0, UINT64_MAX);
        e[6] = clamp_wide((int16_t)x, INT8_MIN, INT8_MAX);
        e[7] = clamp_wide(y, 0, UINT32_MAX);
        e[8] = (int16_t)y;
        e[9] = (uint8_t)x;
        e[10] = clamp_wide((uint8_t)x, INT8_MIN, INT8_MAX);
        e[11] = (int64_t)(uint64_t)clamp_wide(x, 0, UINT64_MAX);
        e[12] = clamp_wide((uint64_t)y, 0, UINT32_MAX);
        e[13] = clamp_wide((uint32_t)x, 0, UINT16_MAX);
        e[14] = x;
        e[15] = clamp_wide((uint64_t)y, 0, UINT8_MAX);
        for (int j = 0; j < 16; j++)
            if (o[16 * i + j] != e[j]) {
                fprintf(stderr, "int_to_int[%d] output %d (x=%d y=%lld): %lld, expected ", i, j,
                        x, (long long)y, (long long)o[16 * i + j]);
                print_wide(e[j]);
                fprintf(stderr, "\n");
                _Exit(1);
            }
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
}

static void test_rounding_functions(void)
{
    static float a[N], o[8 * N];
    static const char *const name[5] = {"rint", "round", "trunc", "floor", "ceil"};
    float_inputs(a);
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bo = e2e_buffer(&env, sizeof o, NULL);
    cl_kernel k = e2e_kernel(prog, "rounding");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bo);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(&env, bo, sizeof o, o);
    for (int i = 0; i < N; i++) {
        float x = a[i];
        float e[5] = {rintf(x), roundf(x), truncf(x), floorf(x), ceilf(x)};
        for (int j = 0; j < 5; j++)
            if (!same_float(o[8 * i + j], e[j])) {
                fprintf(stderr, "%s(%a) = %a, expected %a\n", name[j], x, o[8 * i + j], e[j]);
                _Exit(1);
            }
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
}

static void test_vectors(void)
{
    enum { G = N / 4 };
    static float a[N], of[6 * N];
    static int32_t b[16 * G], oi[8 * G];
    static uint8_t oc[16 * G];
    const int32_t edge[] = {0, -1, 1, 255, 256, -256, INT32_MAX, INT32_MIN, 254, 128};
    float_inputs(a);
    unsigned seed = 31337;
    for (int i = 0; i < 16 * G; i++) {
        uint32_t r = e2e_xorshift(&seed), s = e2e_xorshift(&seed);
        /* around 0..255 half the time, random magnitudes and signs otherwise */
        b[i] = i < 10 ? edge[i]
               : i % 2 ? (int32_t)(r % 1000) - 300
                       : (int32_t)(s & 32 ? 0 - (r >> (s % 32)) : r >> (s % 32));
    }
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bb = e2e_buffer(&env, sizeof b, b);
    cl_mem bi = e2e_buffer(&env, sizeof oi, NULL), bc = e2e_buffer(&env, sizeof oc, NULL);
    cl_mem bf = e2e_buffer(&env, sizeof of, NULL);
    cl_kernel k = e2e_kernel(prog, "vectors");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bi);
    E2E_ARG(k, 3, bc);
    E2E_ARG(k, 4, bf);
    size_t g = G;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(&env, bi, sizeof oi, oi);
    e2e_read(&env, bc, sizeof oc, oc);
    e2e_read(&env, bf, sizeof of, of);
    for (int i = 0; i < G; i++) {
        static const int perm[4] = {5, 10, 15, 0}; /* v.s5af0 */
        for (int j = 0; j < 4; j++) {
            float x = a[4 * i + j], r = rintf(x), d = floorf(x);
            if (!isnan(r) && r >= -0x1p31f && r < 0x1p31f && oi[8 * i + j] != (int32_t)r) {
                fprintf(stderr, "convert_int4_rte(%a) = %d\n", x, oi[8 * i + j]);
                _Exit(1);
            }
            int32_t sat = isnan(x) ? 0 : d < -0x1p31f ? INT32_MIN : d >= 0x1p31f ? INT32_MAX
                                                                         : (int32_t)d;
            if (oi[8 * i + 4 + j] != sat) {
                fprintf(stderr, "convert_int4_sat_rtn(%a) = %d, expected %d\n", x,
                        oi[8 * i + 4 + j], sat);
                _Exit(1);
            }
            float e[6] = {rintf(x), roundf(x), truncf(x), floorf(x), ceilf(x),
                          ref_signed_to_float(b[16 * i + perm[j]], RTZ)};
            for (int f = 0; f < 6; f++)
                if (!same_float(of[24 * i + 4 * f + j], e[f])) {
                    fprintf(stderr, "vectors[%d] float4 %d .s%d (x=%a v=%d): %a, expected %a\n",
                            i, f, j, x, b[16 * i + perm[j]], of[24 * i + 4 * f + j], e[f]);
                    _Exit(1);
                }
        }
        for (int j = 0; j < 16; j++) {
            int32_t v = b[16 * i + j];
            uint8_t want = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            if (oc[16 * i + j] != want) {
                fprintf(stderr, "convert_uchar16_sat(%d) = %u, expected %u\n", v,
                        oc[16 * i + j], want);
                _Exit(1);
            }
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bi);
    clReleaseMemObject(bc);
    clReleaseMemObject(bf);
}

static int same_double(double got, double want)
{
    return memcmp(&got, &want, sizeof got) == 0 || (isnan(got) && isnan(want));
}

/* The double inputs: the float ones, edge cases of double's own, random doubles. */
static void double_inputs(double *a)
{
    static float f[N];
    float_inputs(f);
    const double edge[] = {
        0x1p52, 0x1p52 + 1.0, 0x1p51 + 0.5, -0x1p51 - 0.5, 0x1p51 + 1.5, 4503599627370495.5,
        0.49999999999999994, -0.49999999999999994, 0x1.fffffffffffffp62, -0x1.fffffffffffffp62,
        0x1.fffffffffffffp63, 0x1.0000000000001p63, -0x1.0000000000001p63,
        2147483647.5, 2147483646.5, -2147483648.5, -2147483647.5, 4294967295.5, 4294967294.5,
        127.5, -128.5, -128.49999999999997, 1e300, -1e300, 0x1.fffffefffffffp127,
        0x1.fffffep127 + 0x1p103, 0x1.ffffff0000001p127, 0x1.000001p0, 0x1.0000010000001p0,
        -0x1.000003p0, 0x1.fffffffffffffp1023, 3.4028235677973366e38,
    };
    const int nedge = (int)(sizeof edge / sizeof *edge);
    unsigned seed = 99;
    for (int i = 0; i < N; i++) {
        uint64_t r = (uint64_t)e2e_xorshift(&seed) << 32 | e2e_xorshift(&seed);
        uint32_t s = e2e_xorshift(&seed);
        if (i < nedge)
            a[i] = edge[i];
        else if (i % 3 == 0) { /* any significand, |x| from 2^-20 to 2^66 */
            uint64_t bits = (r & 0x800fffffffffffffull) | (uint64_t)(1003 + s % 87) << 52;
            memcpy(&a[i], &bits, 8);
        } else if (i % 3 == 1) /* the float inputs */
            a[i] = f[i];
        else { /* any significand, |x| from 1/2 to 2^54 */
            uint64_t bits = (r & 0x800fffffffffffffull) | (uint64_t)(1022 + s % 55) << 52;
            memcpy(&a[i], &bits, 8);
        }
    }
}

/* x rounded to float in the host's rounding mode (mode), NaN to a NaN. */
static float ref_double_to_float(double x, int mode)
{
    static const int fe[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
    fesetround(fe[mode]);
    volatile double v = x;
    volatile float f = (float)v;
    fesetround(FE_TONEAREST);
    return f;
}

static void test_double(void)
{
    static double a[N];
    static int64_t ol[12 * N];
    static uint64_t oul[12 * N];
    static int32_t oi[16 * N];
    static uint32_t ou[16 * N];
    static int8_t oc[16 * N];
    static float of[8 * N];
    static wide w[10 * N];
    double_inputs(a);
    cl_mem ba = e2e_buffer(&env, sizeof a, a);
    cl_mem bl = e2e_buffer(&env, sizeof ol, NULL), bul = e2e_buffer(&env, sizeof oul, NULL);
    cl_mem bi = e2e_buffer(&env, sizeof oi, NULL), bu = e2e_buffer(&env, sizeof ou, NULL);
    cl_mem bc = e2e_buffer(&env, sizeof oc, NULL), bf = e2e_buffer(&env, sizeof of, NULL);
    cl_kernel k = e2e_kernel(prog, "double_to");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bl);
    E2E_ARG(k, 2, bul);
    E2E_ARG(k, 3, bi);
    E2E_ARG(k, 4, bu);
    E2E_ARG(k, 5, bc);
    E2E_ARG(k, 6, bf);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    clReleaseKernel(k);
    e2e_read(&env, bl, sizeof ol, ol);
    e2e_read(&env, bul, sizeof oul, oul);
    e2e_read(&env, bi, sizeof oi, oi);
    e2e_read(&env, bu, sizeof ou, ou);
    e2e_read(&env, bc, sizeof oc, oc);
    e2e_read(&env, bf, sizeof of, of);
    GATHER(w, ol, 12);
    check_float_to("long", a, w, -0x1p63, 0x1p63, INT64_MIN, INT64_MAX);
    GATHER(w, oul, 12);
    check_float_to("ulong", a, w, 0.0, 0x1p64, 0, UINT64_MAX);
    GATHER(w, oi, 16);
    check_float_to("int", a, w, -0x1p31, 0x1p31, INT32_MIN, INT32_MAX);
    GATHER(w, ou, 16);
    check_float_to("uint", a, w, 0.0, 0x1p32, 0, UINT32_MAX);
    GATHER(w, oc, 16);
    check_float_to("char", a, w, -0x1p7, 0x1p7, INT8_MIN, INT8_MAX);
    static const int modes[6] = {RTE, RTE, RTZ, RTP, RTN, RTP};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 6; j++) {
            float want = ref_double_to_float(a[i], modes[j]), got = of[8 * i + j];
            if (fabsf(want) < FLT_MIN || fabs(a[i]) < FLT_MIN)
                continue; /* below float's normal range: the device flushes */
            if (!same_float(got, want)) {
                fprintf(stderr, "convert_float%s%s(%a) = %a, expected %a\n", j % 5 ? "_" : "",
                        j % 5 ? mode_name[modes[j]] : "", a[i], got, want);
                _Exit(1);
            }
        }

    /* integers and floats to double */
    static int32_t x[N];
    static int64_t y[N];
    static float f[N];
    static double o[24 * N];
    const int64_t edge64[] = {
        0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1, 0x20000000000001, 0x20000000000003,
        -0x20000000000001, -0x20000000000003, 0x40000000000002, 0x40000000000006,
        0x7ffffffffffffc00, 0x7ffffffffffffbff, 0x7ffffffffffffdff, 0x7ffffffffffffe00,
        (int64_t)0xfffffffffffff800u, (int64_t)0xfffffffffffffc00u, (int64_t)0xfffffffffffffbffu,
        (int64_t)0x8000000000000400u, (int64_t)0x8000000000000c00u, 0x1fffffffffffff,
    };
    const int n64 = (int)(sizeof edge64 / sizeof *edge64);
    unsigned seed = 5150;
    float_inputs(f);
    for (int i = 0; i < N; i++) {
        uint32_t r1 = e2e_xorshift(&seed), r2 = e2e_xorshift(&seed), r3 = e2e_xorshift(&seed);
        uint32_t s = e2e_xorshift(&seed);
        uint64_t r64 = ((uint64_t)r2 << 32 | r3) >> (s / 64 % 64);
        x[i] = (int32_t)r1 >> (s % 32);
        y[i] = i < n64 ? edge64[i] : (int64_t)(s & 64 ? 0 - r64 : r64);
    }
    cl_mem bx = e2e_buffer(&env, sizeof x, x), by = e2e_buffer(&env, sizeof y, y);
    cl_mem bff = e2e_buffer(&env, sizeof f, f), bo = e2e_buffer(&env, sizeof o, NULL);
    k = e2e_kernel(prog, "to_double");
    E2E_ARG(k, 0, bx);
    E2E_ARG(k, 1, by);
    E2E_ARG(k, 2, bff);
    E2E_ARG(k, 3, bo);
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    clReleaseKernel(k);
    e2e_read(&env, bo, sizeof o, o);
    for (int i = 0; i < N; i++) {
        double e[24] = {0};
        uint64_t uy = (uint64_t)y[i];
        static const int m5[5] = {RTE, RTE, RTZ, RTP, RTN};
        for (int j = 0; j < 5; j++) {
            e[j] = ref_signed_to_double(y[i], m5[j]);
            e[8 + j] = ref_to_fp(uy, 0, m5[j], 53);
        }
        e[5] = x[i];
        e[6] = (uint32_t)x[i];
        e[7] = f[i];
        e[13] = (int8_t)x[i];
        e[14] = ref_signed_to_double(y[i], RTZ);
        double t = (double)y[i] * 0x1p-20;
        e[16] = rint(t);
        e[17] = round(t);
        e[18] = trunc(t);
        e[19] = floor(t);
        e[20] = ceil(t);
        e[21] = 3.5;
        for (int j = 0; j < 24; j++)
            if (!same_double(o[24 * i + j], e[j])) {
                fprintf(stderr, "to_double[%d] output %d (x=%d y=%lld f=%a): %a, expected %a\n",
                        i, j, x[i], (long long)y[i], f[i], o[24 * i + j], e[j]);
                _Exit(1);
            }
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bl);
    clReleaseMemObject(bul);
    clReleaseMemObject(bi);
    clReleaseMemObject(bu);
    clReleaseMemObject(bc);
    clReleaseMemObject(bf);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bff);
    clReleaseMemObject(bo);
}

int main(void)
{
    e2e_init(&env);
    prog = e2e_build(&env, src, "", 1, NULL);
    test_float_to_integer();
    test_integer_to_float();
    test_integer_to_integer();
    test_rounding_functions();
    test_vectors();
    test_double();
    clReleaseProgram(prog);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
