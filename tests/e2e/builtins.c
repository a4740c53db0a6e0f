/* End-to-end: OpenCL C built-in functions and vector types, all kernels of one program
 * (the hardware is built once). Integer functions of 6.12.3 on int, uint, long and
 * ulong (min, max, clamp, abs, abs_diff, add_sat, sub_sat, hadd, rhadd, clz, popcount,
 * rotate, mul_hi, mad24, mad_hi, mad_sat, upsample) over random values and the
 * extremes; any, all, select and bitselect on integers; float functions that
 * are selections or single operations (fmin, fmax, fabs, copysign, fdim, clamp, step,
 * sign, mix, mad) and relational ones (isnan, isinf, isless, signbit, select) over
 * values that include NaN, infinities and signed zeros (float denormals, which the
 * device flushes to zero, are the floating-point units' own tests); float4 and int4
 * kernels with swizzles, vector literals, component-wise comparisons (-1/0), dot, and
 * vector versions of fmin, clamp and select; division, sqrt and fma, which must be
 * correctly rounded, and rsqrt, length and normalize built on them; vload4 at every
 * misalignment, vstore3, vload_half2 of every kind of half (denormals, infinities,
 * NaN) and vstore_half in all four rounding modes (overflow, half denormals,
 * halfway cases); shuffle and shuffle2 (int8 to int4, float4, char16 from two vectors,
 * ulong2, short4 to short8, uchar2 to uchar16) over random masks whose unused high bits
 * are set; for double: fmin, fmax, fdim, copysign, clamp, mix, step, smoothstep,
 * sign, degrees, radians, mad, dot, length, distance, normalize, cross, bitselect,
 * select (scalar and vector), every relational function (vector results -1/0),
 * vload4 and vstore3, vstore_half from double in the four modes, shuffle and
 * shuffle2 of double4, over inputs that include two subnormal doubles (IEEE
 * arithmetic: the double units keep subnormals). Every output is compared bit for bit
 * with a host reference. Compiled with -ffp-contract=off (the kernels say
 * FP_CONTRACT OFF). */
#include "e2e.h"

#include <math.h>
#include <stdint.h>

static const char *src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void ints(__global const int *a, __global const int *b, __global int *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int x = a[i], y = b[i];\n"
    "    uint ux = (uint)x, uy = (uint)y;\n"
    "    o[12 * i + 0] = min(x, y) ^ (int)((uint)max(x, y) << 1);\n"
    "    o[12 * i + 1] = clamp(x, -100, 100) + (int)clamp(ux, 5u, 1000u);\n"
    "    o[12 * i + 2] = (int)abs(x) ^ (int)abs_diff(x, y);\n"
    "    o[12 * i + 3] = add_sat(x, y);\n"
    "    o[12 * i + 4] = sub_sat(x, y) ^ (int)add_sat(ux, uy) ^ (int)sub_sat(ux, uy);\n"
    "    o[12 * i + 5] = hadd(x, y) + rhadd(ux, uy);\n"
    "    o[12 * i + 6] = clz(x) + 64 * popcount(y) + 4096 * clz((uchar)y);\n"
    "    o[12 * i + 7] = rotate(x, y) ^ (int)rotate((ushort)x, (ushort)y);\n"
    "    o[12 * i + 8] = mul_hi(x, y) ^ (int)mul_hi(ux, uy);\n"
    "    long lx = (long)x * 77777777L, ly = (long)y * -1234567891L;\n"
    "    o[12 * i + 9] = (int)mul_hi(lx, ly) ^ (int)(mul_hi((ulong)lx, (ulong)ly) >> 7);\n"
    "    o[12 * i + 10] = mad24(x & 0x7fffff, y & 0xffff, 5) + (int)popcount(lx);\n"
    "    o[12 * i + 11] = (int)(min(lx, ly) >> 3) ^ (int)abs(ly) ^ (int)clz(lx);\n"
    "}\n"
    "__kernel void ints2(__global const int *a, __global const int *b, __global long *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int x = a[i], y = b[i];\n"
    "    long lx = (long)x * 3037000499L, ly = (long)y << 20;\n"
    "    o[8 * i + 0] = mad_hi(x, y, x) + (long)mad_hi((uint)x, (uint)y, 7u);\n"
    "    o[8 * i + 1] = mad_sat(x, y, y);\n"
    "    o[8 * i + 2] = mad_sat(lx, ly, (long)x) ^ (long)mad_sat((uint)x, (uint)y, 3u);\n"
    "    o[8 * i + 3] = (long)mad_sat((ulong)lx, (ulong)ly, (ulong)y) ^ mad_sat((short)x, (short)y, (short)7);\n"
    "    o[8 * i + 4] = upsample(x, (uint)y) ^ (long)upsample((short)x, (ushort)y) ^ (long)upsample((uchar)x, (uchar)y);\n"
    "    int4 v = (int4)(x, y, x ^ y, x & y);\n"
    "    o[8 * i + 5] = any(v) + 2 * all(v) + 4 * any((char2)((char)x, (char)y)) + 8 * all(v.xy);\n"
    "    o[8 * i + 6] = select(x, y, y > x) ^ (long)select((short)x, (short)y, (ushort)(x & 1)) ^ (long)select(lx, ly, (ulong)y);\n"
    "    int2 s = select((int2)(x, y), (int2)(y, x), (uint2)((uint)x, (uint)y));\n"
    "    o[8 * i + 7] = ((long)s.x << 32 | (uint)s.y) ^ (long)bitselect(x, y, 0x0ff0f00f) ^ bitselect(lx, ly, (long)y);\n"
    "}\n"
    "__kernel void floats(__global const float *a, __global const float *b, __global float *o,\n"
    "                     __global int *t)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float x = a[i], y = b[i];\n"
    "    o[8 * i + 0] = fmin(x, y);\n"
    "    o[8 * i + 1] = fmax(x, y);\n"
    "    o[8 * i + 2] = copysign(fabs(x), y);\n"
    "    o[8 * i + 3] = fdim(x, y);\n"
    "    o[8 * i + 4] = clamp(x, -1.0f, 1.0f) + step(y, x);\n"
    "    o[8 * i + 5] = sign(x);\n"
    "    o[8 * i + 6] = mix(x, y, 0.25f) + mad(x, y, 1.0f);\n"
    "    o[8 * i + 7] = select(x, y, isgreater(x, y));\n"
    "    t[i] = isnan(x) + 2 * isinf(y) + 4 * isless(x, y) + 8 * signbit(x) + 16 * isfinite(y);\n"
    "}\n"
    "__kernel void vec(__global const float4 *a, __global const float4 *b, __global float4 *c,\n"
    "                  float k)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float4 x = a[i], y = b[i];\n"
    "    float4 r = x * k + y.wzyx;\n"
    "    r.s1 = dot(x, y) > 0.0f ? r.s1 : -r.s1;\n"
    "    r.hi = fmin(r.hi, x.lo);\n"
    "    c[i] = select(r + (float4)(1.0f, 2.0f, 3.0f, 4.0f), y, x < y);\n"
    "}\n"
    "__kernel void ivec(__global const int4 *a, __global int2 *c, __global int4 *d)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int4 x = a[i];\n"
    "    int4 m = x > (int4)(0);\n"
    "    c[i] = (x.lo + x.hi) & m.xz;\n"
    "    d[i] = clamp(x.yxwz, -1000, 1000) + (int4)(i, 2 * i, 3, 4) + m;\n"
    "}\n"
    "__kernel void fp(__global const float *a, __global const float *b, __global float *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float x = a[i], y = b[i];\n"
    "    o[6 * i + 0] = x / y;\n"
    "    o[6 * i + 1] = sqrt(fabs(x));\n"
    "    o[6 * i + 2] = fma(x, y, -1.0f);\n"
    "    o[6 * i + 3] = rsqrt(fabs(y));\n"
    "    o[6 * i + 4] = length((float2)(x, y));\n"
    "    o[6 * i + 5] = normalize((float4)(x, y, 1.0f, 2.0f)).y;\n"
    "}\n"
    "__kernel void vloads(__global const float *a, __global float *o, __global const half *h,\n"
    "                     __global half *ho, __global float *hf)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float4 v = vload4(0, a + i);\n"
    "    vstore3(v.xyz * 2.0f + v.w, i, o);\n"
    "    float x = a[i];\n"
    "    vstore_half(x, 4 * i, ho);\n"
    "    vstore_half_rtz(x, 4 * i + 1, ho);\n"
    "    vstore_half_rtp(x, 4 * i + 2, ho);\n"
    "    vstore_half_rtn(x, 4 * i + 3, ho);\n"
    "    vstore2(vload_half2(i, h), i, hf);\n"
    "}\n"
    "__kernel void shuffles(__global const int8 *a, __global const uint8 *m, __global int8 *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int8 x = a[2 * i], z = a[2 * i + 1];\n"
    "    uint8 k = m[3 * i], l = m[3 * i + 1], n = m[3 * i + 2];\n"
    "    o[3 * i] = (int8)(shuffle(x, k.lo),\n"
    "                      as_int4(shuffle2(as_float4(x.lo), as_float4(x.hi), k.hi)));\n"
    "    o[3 * i + 1] = (int8)(as_int4(shuffle2(as_char16(x.lo), as_char16(x.hi), as_uchar16(l.lo))),\n"
    "                          as_int4(shuffle(as_ulong2(z.lo), as_ulong2(l.hi))));\n"
    "    o[3 * i + 2] = (int8)(as_int4(shuffle2(as_short4(z.s45), as_short4(z.s67), as_ushort8(n.lo))),\n"
    "                          as_int4(shuffle(as_uchar2((ushort)z.s0), as_uchar16(n.hi))));\n"
    "}\n"
    "__kernel void doubles(__global const double *a, __global const double *b,\n"
    "                      __global const ulong *m, __global double *o, __global long *ol,\n"
    "                      __global double *o3, __global half *ho, __global double4 *os)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    double x = a[i], y = b[i];\n"
    "    double4 v = vload4(0, a + i), w = vload4(0, b + i);\n"
    "    ulong k = m[i];\n"
    "    o[24 * i] = fmin(x, y);\n"
    "    o[24 * i + 1] = fmax(x, y);\n"
    "    o[24 * i + 2] = fdim(x, y);\n"
    "    o[24 * i + 3] = copysign(x, y);\n"
    "    o[24 * i + 4] = clamp(x, -1.0, 2.0);\n"
    "    o[24 * i + 5] = mix(x, y, 0.25);\n"
    "    o[24 * i + 6] = step(y, x);\n"
    "    o[24 * i + 7] = smoothstep(-1.0, 2.0, x);\n"
    "    o[24 * i + 8] = sign(x);\n"
    "    o[24 * i + 9] = degrees(x);\n"
    "    o[24 * i + 10] = radians(x);\n"
    "    o[24 * i + 11] = mad(x, y, 1.0);\n"
    "    o[24 * i + 12] = dot(v.xyz, w.xyz);\n"
    "    o[24 * i + 13] = length(v.xy);\n"
    "    o[24 * i + 14] = distance(v, w);\n"
    "    o[24 * i + 15] = normalize(v).z;\n"
    "    o[24 * i + 16] = cross(v.xyz, w.xyz).x;\n"
    "    o[24 * i + 17] = cross(v, w).y;\n"
    "    o[24 * i + 18] = bitselect(x, y, as_double(k));\n"
    "    o[24 * i + 19] = select(x, y, (long)(k & 1));\n"
    "    o[24 * i + 20] = select(v, w, as_long4((ulong4)(k, k << 1, k << 2, k << 3))).w;\n"
    "    o[24 * i + 21] = fmin(v, y).z;\n"
    "    o[24 * i + 22] = clamp(v, -1.0, 2.0).y;\n"
    "    o[24 * i + 23] = smoothstep(-1.0, 2.0, (double2)(x)).y;\n"
    "    ol[16 * i] = isequal(x, y);\n"
    "    ol[16 * i + 1] = isnotequal(x, y);\n"
    "    ol[16 * i + 2] = isgreater(x, y);\n"
    "    ol[16 * i + 3] = isgreaterequal(x, y);\n"
    "    ol[16 * i + 4] = isless(x, y);\n"
    "    ol[16 * i + 5] = islessequal(x, y);\n"
    "    ol[16 * i + 6] = islessgreater(x, y);\n"
    "    ol[16 * i + 7] = isordered(x, y);\n"
    "    ol[16 * i + 8] = isunordered(x, y);\n"
    "    ol[16 * i + 9] = isnan(x);\n"
    "    ol[16 * i + 10] = isinf(x);\n"
    "    ol[16 * i + 11] = isfinite(x);\n"
    "    ol[16 * i + 12] = isnormal(x);\n"
    "    ol[16 * i + 13] = signbit(x);\n"
    "    ol[16 * i + 14] = isless(v, w).x;\n"
    "    ol[16 * i + 15] = isnan((double3)(y, x, y)).y + 2 * any(isgreater(v, w));\n"
    "    vstore3(v.xyz * 2.0 + v.w, i, o3);\n"
    "    vstore_half(x, 4 * i, ho);\n"
    "    vstore_half_rtz(x, 4 * i + 1, ho);\n"
    "    vstore_half_rtp(x, 4 * i + 2, ho);\n"
    "    vstore_half_rtn(x, 4 * i + 3, ho);\n"
    "    ulong4 mk = (ulong4)(k, k >> 8, k >> 16, k >> 24);\n"
    "    os[2 * i] = shuffle(v, mk);\n"
    "    os[2 * i + 1] = shuffle2(v, w, mk >> 3);\n"
    "}\n";

static cl_program prog;
static e2e_env env;

enum { N = 256 };

/* Runs kernel `name` (in, in, out) over N work-items and reads the output back. */
static void run_2in_1out(const char *name, const void *a, size_t na, const void *b, size_t nb,
                         void *o, size_t no)
{
    cl_mem ba = e2e_buffer(&env, na, a), bb = e2e_buffer(&env, nb, b);
    cl_mem bo = e2e_buffer(&env, no, NULL);
    cl_kernel k = e2e_kernel(prog, name);
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bo);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env.queue, bo, CL_TRUE, 0, no, o, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
}

static int32_t ref_add_sat(int32_t x, int32_t y)
{
    int64_t s = (int64_t)x + y;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

static int32_t ref_sub_sat(int32_t x, int32_t y)
{
    int64_t s = (int64_t)x - y;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

static int clz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }
static int clz64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }

static uint32_t rot32(uint32_t x, uint32_t n)
{
    n &= 31;
    return n ? (x << n) | (x >> (32 - n)) : x;
}

static uint16_t rot16(uint16_t x, uint16_t n)
{
    n &= 15;
    return (uint16_t)(n ? (x << n) | (x >> (16 - n)) : x);
}

static int64_t mulhi_s64(int64_t x, int64_t y) { return (int64_t)(((__int128)x * y) >> 64); }
static uint64_t mulhi_u64(uint64_t x, uint64_t y)
{
    return (uint64_t)(((unsigned __int128)x * y) >> 64);
}

static void test_ints(void)
{
    int32_t a[N], b[N], o[12 * N];
    unsigned seed = 99;
    const int32_t edge[] = {0, 1, -1, INT32_MAX, INT32_MIN, 100, -100, 0x7fffff, 255, -256};
    for (int i = 0; i < N; i++) {
        a[i] = i < 10 ? edge[i] : (int32_t)e2e_xorshift(&seed);
        b[i] = i < 100 ? edge[(i / 10) % 10] : (int32_t)e2e_xorshift(&seed);
        if (i >= 100 && i < 150)
            b[i] >>= (i % 31); /* small magnitudes too */
    }
    run_2in_1out("ints", a, sizeof a, b, sizeof b, o, sizeof o);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int32_t e[12];
        e[0] = (int32_t)((uint32_t)(x < y ? x : y) ^ ((uint32_t)(x > y ? x : y) << 1));
        uint32_t cu = ux < 5u ? 5u : ux > 1000u ? 1000u : ux;
        e[1] = (int32_t)((uint32_t)(x < -100 ? -100 : x > 100 ? 100 : x) + cu);
        uint32_t absx = x < 0 ? 0u - ux : ux;
        uint32_t diff = x > y ? ux - uy : uy - ux;
        e[2] = (int32_t)(absx ^ diff);
        e[3] = ref_add_sat(x, y);
        uint32_t uadd = ux + uy < ux ? UINT32_MAX : ux + uy;
        uint32_t usub = uy > ux ? 0 : ux - uy;
        e[4] = (int32_t)((uint32_t)ref_sub_sat(x, y) ^ uadd ^ usub);
        e[5] = (int32_t)((uint32_t)(int32_t)(((int64_t)x + y) >> 1) +
                         (uint32_t)(((uint64_t)ux + uy + 1) >> 1));
        e[6] = clz32(ux) + 64 * __builtin_popcount(uy) + 4096 * (clz32((uint8_t)y) - 24);
        e[7] = (int32_t)(rot32(ux, uy) ^ (uint32_t)rot16((uint16_t)x, (uint16_t)y));
        e[8] = (int32_t)((uint32_t)(int32_t)(((int64_t)x * y) >> 32) ^
                         (uint32_t)(((uint64_t)ux * uy) >> 32));
        int64_t lx = (int64_t)x * 77777777LL, ly = (int64_t)y * -1234567891LL;
        e[9] = (int32_t)((uint32_t)mulhi_s64(lx, ly) ^ (uint32_t)(mulhi_u64((uint64_t)lx, (uint64_t)ly) >> 7));
        e[10] = (int32_t)((uint32_t)(x & 0x7fffff) * (uint32_t)(y & 0xffff) + 5u +
                          (uint32_t)__builtin_popcountll((uint64_t)lx));
        uint64_t absly = ly < 0 ? 0 - (uint64_t)ly : (uint64_t)ly;
        e[11] = (int32_t)((uint32_t)((lx < ly ? lx : ly) >> 3) ^ (uint32_t)absly ^
                          (uint32_t)clz64((uint64_t)lx));
        for (int j = 0; j < 12; j++)
            if (o[12 * i + j] != e[j]) {
                fprintf(stderr, "ints[%d] output %d (x=%d y=%d): %d, expected %d\n", i, j, x, y,
                        o[12 * i + j], e[j]);
                _Exit(1);
            }
    }
}

static int64_t sat64(__int128 v)
{
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

static void test_ints2(void)
{
    int32_t a[N], b[N];
    int64_t o[8 * N];
    unsigned seed = 77;
    const int32_t edge[] = {0, 1, -1, INT32_MAX, INT32_MIN, 46341, -46341, 0x10000, 255, -256};
    for (int i = 0; i < N; i++) {
        a[i] = i < 100 ? edge[i % 10] : (int32_t)e2e_xorshift(&seed);
        b[i] = i < 100 ? edge[i / 10] : (int32_t)e2e_xorshift(&seed) >> (i % 20);
    }
    run_2in_1out("ints2", a, sizeof a, b, sizeof b, o, sizeof o);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int64_t lx = (int64_t)x * 3037000499LL, ly = (int64_t)((uint64_t)(int64_t)y << 20);
        int64_t e[8];
        e[0] = (int64_t)(int32_t)((uint32_t)(((int64_t)x * y) >> 32) + ux) +
               (int64_t)(uint32_t)((uint32_t)(((uint64_t)ux * uy) >> 32) + 7u);
        int64_t m = (int64_t)x * y + y;
        e[1] = m > INT32_MAX ? INT32_MAX : m < INT32_MIN ? INT32_MIN : m;
        uint64_t um = (uint64_t)ux * uy + 3u;
        e[2] = sat64((__int128)lx * ly + x) ^ (int64_t)(um > UINT32_MAX ? UINT32_MAX : um);
        unsigned __int128 uu = (unsigned __int128)(uint64_t)lx * (uint64_t)ly + (uint64_t)(int64_t)y;
        int32_t sm = (int16_t)x * (int16_t)y + 7;
        e[3] = (int64_t)(uu > UINT64_MAX ? UINT64_MAX : (uint64_t)uu) ^
               (int64_t)(int16_t)(sm > INT16_MAX ? INT16_MAX : sm < INT16_MIN ? INT16_MIN : sm);
        e[4] = (int64_t)((uint64_t)(int64_t)x << 32 | uy) ^
               (int64_t)(int32_t)((uint32_t)(int32_t)(int16_t)x << 16 | (uint16_t)y) ^
               (int64_t)(uint16_t)((uint16_t)(uint8_t)x << 8 | (uint8_t)y);
        int32_t v[4] = {x, y, x ^ y, x & y};
        int any4 = 0, all4 = 1;
        for (int j = 0; j < 4; j++)
            any4 |= v[j] < 0, all4 &= v[j] < 0;
        e[5] = any4 + 2 * all4 + 4 * ((int8_t)x < 0 || (int8_t)y < 0) + 8 * (x < 0 && y < 0);
        e[6] = (int64_t)(y > x ? y : x) ^ (int64_t)(int16_t)(x & 1 ? y : x) ^ (y ? ly : lx);
        int32_t s0 = x < 0 ? y : x, s1 = y < 0 ? x : y;
        e[7] = (int64_t)((uint64_t)(int64_t)s0 << 32 | (uint32_t)s1) ^
               (int64_t)(int32_t)(((uint32_t)x & ~0x0ff0f00fu) | ((uint32_t)y & 0x0ff0f00fu)) ^
               (int64_t)(((uint64_t)lx & ~(uint64_t)(int64_t)y) | ((uint64_t)ly & (uint64_t)(int64_t)y));
        for (int j = 0; j < 8; j++)
            if (o[8 * i + j] != e[j]) {
                fprintf(stderr, "ints2[%d] output %d (x=%d y=%d): %lld, expected %lld\n", i, j, x,
                        y, (long long)o[8 * i + j], (long long)e[j]);
                _Exit(1);
            }
    }
}

static float ref_fmin(float x, float y) { return isnan(y) ? x : isnan(x) ? y : y < x ? y : x; }
static float ref_fmax(float x, float y) { return isnan(y) ? x : isnan(x) ? y : y > x ? y : x; }

static int same_float(float got, float want)
{
    return e2e_fbits(got) == e2e_fbits(want) || (isnan(got) && isnan(want));
}

static void test_floats(void)
{
    float a[N], b[N], o[8 * N];
    int t[N];
    unsigned seed = 5;
    const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 0.5f,
                          1e-30f, -3.25f, 2.0f, 1e30f};
    const int nedge = (int)(sizeof edge / sizeof *edge);
    for (int i = 0; i < N; i++) {
        a[i] = i < nedge * nedge ? edge[i % nedge]
                                 : (float)(int)(e2e_xorshift(&seed) % 20001 - 10000) / 64.0f;
        b[i] = i < nedge * nedge ? edge[i / nedge]
                                 : (float)(int)(e2e_xorshift(&seed) % 20001 - 10000) / 64.0f;
    }
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bb = e2e_buffer(&env, sizeof b, b);
    cl_mem bo = e2e_buffer(&env, sizeof o, NULL), bt = e2e_buffer(&env, sizeof t, NULL);
    cl_kernel k = e2e_kernel(prog, "floats");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bo);
    E2E_ARG(k, 3, bt);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env.queue, bo, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env.queue, bt, CL_TRUE, 0, sizeof t, t, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i];
        float e[8];
        e[0] = ref_fmin(x, y);
        e[1] = ref_fmax(x, y);
        e[2] = copysignf(fabsf(x), y);
        e[3] = isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0.0f;
        e[4] = ref_fmin(ref_fmax(x, -1.0f), 1.0f) + (x < y ? 0.0f : 1.0f);
        e[5] = isnan(x) ? 0.0f : x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x;
        e[6] = (x + (y - x) * 0.25f) + (x * y + 1.0f);
        e[7] = x > y ? y : x;
        int te = (x != x) + 2 * (isinf(y) != 0) + 4 * (x < y) + 8 * (signbit(a[i]) != 0) +
                 16 * (isfinite(y) != 0);
        for (int j = 0; j < 8; j++)
            if (!same_float(o[8 * i + j], e[j])) {
                fprintf(stderr, "floats[%d] output %d (x=%g y=%g): %g, expected %g\n", i, j,
                        a[i], b[i], o[8 * i + j], e[j]);
                _Exit(1);
            }
        if (t[i] != te) {
            fprintf(stderr, "floats[%d] tests (x=%g y=%g): %d, expected %d\n", i, a[i], b[i],
                    t[i], te);
            _Exit(1);
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
    clReleaseMemObject(bt);
}

static void test_vectors(void)
{
    float a[4 * N], b[4 * N], c[4 * N];
    int ia[4 * N], ic[2 * N], id[4 * N];
    unsigned seed = 42;
    for (int i = 0; i < 4 * N; i++) {
        a[i] = (float)(int)(e2e_xorshift(&seed) % 2001 - 1000) / 8.0f;
        b[i] = (float)(int)(e2e_xorshift(&seed) % 2001 - 1000) / 8.0f;
        ia[i] = (int)(e2e_xorshift(&seed) % 4001) - 2000;
    }
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bb = e2e_buffer(&env, sizeof b, b);
    cl_mem bc = e2e_buffer(&env, sizeof c, NULL), bia = e2e_buffer(&env, sizeof ia, ia);
    cl_mem bic = e2e_buffer(&env, sizeof ic, NULL), bid = e2e_buffer(&env, sizeof id, NULL);
    cl_kernel k = e2e_kernel(prog, "vec");
    float kk = 1.5f;
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bc);
    E2E_ARG(k, 3, kk);
    size_t g = N;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env.queue, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        const float *x = a + 4 * i, *y = b + 4 * i;
        float r[4];
        for (int j = 0; j < 4; j++)
            r[j] = x[j] * kk + y[3 - j];
        float dot = x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
        r[1] = dot > 0.0f ? r[1] : -r[1];
        r[2] = ref_fmin(r[2], x[0]);
        r[3] = ref_fmin(r[3], x[1]);
        for (int j = 0; j < 4; j++) {
            float e = x[j] < y[j] ? y[j] : r[j] + (float)(j + 1);
            if (!same_float(c[4 * i + j], e)) {
                fprintf(stderr, "vec[%d].s%d = %g, expected %g\n", i, j, c[4 * i + j], e);
                _Exit(1);
            }
        }
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "ivec");
    E2E_ARG(k, 0, bia);
    E2E_ARG(k, 1, bic);
    E2E_ARG(k, 2, bid);
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env.queue, bic, CL_TRUE, 0, sizeof ic, ic, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env.queue, bid, CL_TRUE, 0, sizeof id, id, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        const int *x = ia + 4 * i;
        int m[4], sw[4] = {x[1], x[0], x[3], x[2]}, add[4] = {i, 2 * i, 3, 4};
        for (int j = 0; j < 4; j++)
            m[j] = x[j] > 0 ? -1 : 0;
        int e0 = (x[0] + x[2]) & m[0], e1 = (x[1] + x[3]) & m[2];
        EXPECT(ic[2 * i] == e0 && ic[2 * i + 1] == e1);
        for (int j = 0; j < 4; j++) {
            int cl = sw[j] < -1000 ? -1000 : sw[j] > 1000 ? 1000 : sw[j];
            if (id[4 * i + j] != cl + add[j] + m[j]) {
                fprintf(stderr, "ivec[%d].s%d = %d, expected %d\n", i, j, id[4 * i + j],
                        cl + add[j] + m[j]);
                _Exit(1);
            }
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    clReleaseMemObject(bia);
    clReleaseMemObject(bic);
    clReleaseMemObject(bid);
}

/* The device flushes denormal results to zero (docs/architecture.md). */
static float ftz(float x) { return fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x; }

static void test_division_and_roots(void)
{
    float a[N], b[N], o[6 * N];
    unsigned seed = 2026;
    const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 3.0f, 1e-30f,
                          1e30f, 7.0f, 0.1f};
    const int nedge = (int)(sizeof edge / sizeof *edge);
    for (int i = 0; i < N; i++) {
        uint32_t r1 = e2e_xorshift(&seed), r2 = e2e_xorshift(&seed);
        /* random mantissas and exponents from 2^-60 to 2^60 */
        uint32_t e1 = 67 + r1 % 121, e2 = 67 + r2 % 121;
        uint32_t bits1 = (r1 & 0x807fffffu) | e1 << 23, bits2 = (r2 & 0x807fffffu) | e2 << 23;
        memcpy(&a[i], &bits1, 4);
        memcpy(&b[i], &bits2, 4);
        if (i < nedge * nedge) {
            a[i] = edge[i % nedge];
            b[i] = edge[i / nedge];
        }
    }
    run_2in_1out("fp", a, sizeof a, b, sizeof b, o, sizeof o);
    for (int i = 0; i < N; i++) {
        float x = ftz(a[i]), y = ftz(b[i]), e[6];
        e[0] = ftz(x / y);
        e[1] = ftz(sqrtf(fabsf(x)));
        e[2] = ftz(fmaf(x, y, -1.0f));
        e[3] = ftz(1.0f / ftz(sqrtf(fabsf(y))));
        e[4] = ftz(sqrtf(ftz(ftz(x * x) + ftz(y * y))));
        float p[4] = {x, y, 1.0f, 2.0f}, d = 0.0f;
        for (int j = 0; j < 4; j++)
            d = ftz(d + ftz(p[j] * p[j]));
        float l = ftz(sqrtf(d));
        e[5] = l == 0.0f ? y : ftz(y / l);
        for (int j = 0; j < 6; j++)
            if (!same_float(o[6 * i + j], e[j])) {
                fprintf(stderr, "fp[%d] output %d (x=%a y=%a): %a, expected %a\n", i, j, a[i],
                        b[i], o[6 * i + j], e[j]);
                _Exit(1);
            }
    }
}

/* Every positive half value by its bits (0x7c00 is infinity), for the references. */
static double half_value[0x7c01];

static void half_table(void)
{
    for (int b = 0; b < 0x7c00; b++)
        half_value[b] = b < 0x400 ? ldexp(b, -24) : ldexp(0x400 | (b & 0x3ff), (b >> 10) - 25);
    half_value[0x7c00] = INFINITY;
}

static float half_to_float_ref(uint16_t h)
{
    float sign = h & 0x8000 ? -1.0f : 1.0f;
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) {
        uint32_t bits = (uint32_t)(h & 0x8000) << 16 | 0x7f800000u | (uint32_t)(h & 0x3ff) << 13;
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    return sign * (float)half_value[h & 0x7fff];
}

/* The half nearest f (a float or a double, whose smallest normal value is min) by
 * mode (0 even, 1 zero, 2 +inf, 3 -inf), by search in the table. */
static uint16_t to_half_ref(double f, double min, int mode)
{
    if (isnan(f))
        return 0; /* compared separately: any quiet NaN */
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    double m = fabs(f);
    if (m < min) /* flushed to zero */
        return sign;
    if (isinf(m))
        return sign | 0x7c00;
    int lo = 0, hi = 0x7bff;
    while (lo < hi) { /* the largest half <= m */
        int mid = (lo + hi + 1) / 2;
        if (half_value[mid] <= m)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (half_value[lo] == m)
        return sign | (uint16_t)lo;
    double next = lo == 0x7bff ? 65536.0 : half_value[lo + 1];
    int away = (mode == 2 && !sign) || (mode == 3 && sign), up;
    if (mode == 0)
        up = m - half_value[lo] > next - m || (m - half_value[lo] == next - m && (lo & 1));
    else
        up = mode != 1 && away;
    return sign | (uint16_t)(lo + up);
}

static void test_vloads(void)
{
    enum { M = 64 };
    float a[M + 4], o[3 * M], hf[2 * M];
    uint16_t h[2 * M], ho[4 * M];
    unsigned seed = 31;
    const float edge[] = {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, -70000.0f, INFINITY,
                          NAN, 5.9604645e-08f, 2.9802322e-08f, 8.940697e-08f, 1e-8f, 1.0009766f,
                          1.00146484375f, -2.5f, 0.1f};
    for (int i = 0; i < M + 4; i++) {
        uint32_t r = e2e_xorshift(&seed), bits = (r & 0x807fffffu) | (uint32_t)(100 + r % 45) << 23;
        memcpy(&a[i], &bits, 4);
        if (i < (int)(sizeof edge / sizeof *edge))
            a[i] = edge[i];
    }
    for (int i = 0; i < 2 * M; i++)
        h[i] = (uint16_t)(i < 8 ? (const uint16_t[]){0, 0x8000, 1, 0x83ff, 0x7c00, 0xfc00,
                                                     0x7e01, 0x7bff}[i]
                                : e2e_xorshift(&seed));
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bo = e2e_buffer(&env, sizeof o, NULL);
    cl_mem bh = e2e_buffer(&env, sizeof h, h), bho = e2e_buffer(&env, sizeof ho, NULL);
    cl_mem bhf = e2e_buffer(&env, sizeof hf, NULL);
    cl_kernel k = e2e_kernel(prog, "vloads");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, bh);
    E2E_ARG(k, 3, bho);
    E2E_ARG(k, 4, bhf);
    size_t g = M;
    EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env.queue, bo, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env.queue, bho, CL_TRUE, 0, sizeof ho, ho, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env.queue, bhf, CL_TRUE, 0, sizeof hf, hf, 0, NULL, NULL));
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < 3; j++) {
            float e = ftz(ftz(ftz(a[i + j]) * 2.0f) + ftz(a[i + 3]));
            if (!same_float(o[3 * i + j], e)) {
                fprintf(stderr, "vload4/vstore3[%d].s%d = %a, expected %a\n", i, j,
                        o[3 * i + j], e);
                _Exit(1);
            }
        }
        for (int mode = 0; mode < 4; mode++) {
            uint16_t got = ho[4 * i + mode], want = to_half_ref(a[i], 0x1p-126, mode);
            int ok = isnan(a[i]) ? (got & 0x7c00) == 0x7c00 && (got & 0x3ff) : got == want;
            if (!ok) {
                fprintf(stderr, "vstore_half mode %d of %a: 0x%04x, expected 0x%04x\n", mode,
                        a[i], got, want);
                _Exit(1);
            }
        }
        for (int j = 0; j < 2; j++)
            if (!same_float(hf[2 * i + j], half_to_float_ref(h[2 * i + j]))) {
                fprintf(stderr, "vload_half of 0x%04x: %a, expected %a\n", h[2 * i + j],
                        hf[2 * i + j], half_to_float_ref(h[2 * i + j]));
                _Exit(1);
            }
    }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
    clReleaseMemObject(bh);
    clReleaseMemObject(bho);
    clReleaseMemObject(bhf);
}

static void ref_shuffle(const void *src, int n, const void *mask, int m, int size, void *dst);

static int same_double(double got, double want)
{
    return memcmp(&got, &want, sizeof got) == 0 || (isnan(got) && isnan(want));
}

static double ref_fmin_d(double x, double y) { return isnan(y) ? x : isnan(x) ? y : y < x ? y : x; }
static double ref_fmax_d(double x, double y) { return isnan(y) ? x : isnan(x) ? y : y > x ? y : x; }
static double ref_clamp_d(double x, double lo, double hi) { return ref_fmin_d(ref_fmax_d(x, lo), hi); }

static double ref_smoothstep_d(double e0, double e1, double x)
{
    double t = ref_clamp_d(((x - e0) / (e1 - e0)), 0.0, 1.0);
    return ((t * t) * (3.0 - (2.0 * t)));
}

/* sqrt of the sum of squares of the n elements of d, left to right. */
static double ref_length_d(const double *d, int n)
{
    double sum = (d[0] * d[0]);
    for (int j = 1; j < n; j++)
        sum = (sum + (d[j] * d[j]));
    return sqrt(sum);
}

/* Double built-ins: common, geometric, relational, select and bitselect, vload4 and
 * vstore3, vstore_half in four modes, shuffle and shuffle2, bit for bit. */
static void test_doubles(void)
{
    enum { M = 64 };
    static double a[M + 4], b[M + 4], o[24 * M], o3[3 * M], os[8 * M];
    static int64_t ol[16 * M];
    static uint64_t k[M];
    static uint16_t ho[4 * M];
    unsigned seed = 2024;
    const double edge[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 0.5, 65504.0,
                           65519.99, 65520.0, -70000.0, 0x1p-24, 0x1.8p-25, 1e-8, 1.00048828125,
                           1.0009765625 + 0x1p-40, -2.5, 0.1, 2.0, -1.5, 0x1p-1070,
                           -0x1.8p-1060};
    for (int i = 0; i < M + 4; i++) {
        uint64_t r = (uint64_t)e2e_xorshift(&seed) << 32 | e2e_xorshift(&seed);
        uint64_t bits = (r & 0x800fffffffffffffull) | (uint64_t)(1023 - 30 + r % 61) << 52;
        memcpy(&a[i], &bits, 8);
        b[i] = i % 5 == 0 ? a[i] : (double)((int)(e2e_xorshift(&seed) % 41u) - 20) / 8.0;
        if (i < (int)(sizeof edge / sizeof *edge))
            a[i] = edge[i];
        if (i == 3 || i == 7)
            b[i] = NAN;
    }
    for (int i = 0; i < M; i++)
        k[i] = (uint64_t)e2e_xorshift(&seed) << 32 | e2e_xorshift(&seed);
    cl_mem ba = e2e_buffer(&env, sizeof a, a), bb = e2e_buffer(&env, sizeof b, b);
    cl_mem bk = e2e_buffer(&env, sizeof k, k), bo = e2e_buffer(&env, sizeof o, NULL);
    cl_mem bl = e2e_buffer(&env, sizeof ol, NULL), b3 = e2e_buffer(&env, sizeof o3, NULL);
    cl_mem bh = e2e_buffer(&env, sizeof ho, NULL), bs = e2e_buffer(&env, sizeof os, NULL);
    cl_kernel kern = e2e_kernel(prog, "doubles");
    E2E_ARG(kern, 0, ba);
    E2E_ARG(kern, 1, bb);
    E2E_ARG(kern, 2, bk);
    E2E_ARG(kern, 3, bo);
    E2E_ARG(kern, 4, bl);
    E2E_ARG(kern, 5, b3);
    E2E_ARG(kern, 6, bh);
    E2E_ARG(kern, 7, bs);
    size_t g = M;
    EXPECT(e2e_run(&env, kern, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(&env, bo, sizeof o, o);
    e2e_read(&env, bl, sizeof ol, ol);
    e2e_read(&env, b3, sizeof o3, o3);
    e2e_read(&env, bh, sizeof ho, ho);
    e2e_read(&env, bs, sizeof os, os);
    for (int i = 0; i < M; i++) {
        double x = a[i], y = b[i], e[24];
        const double *v = a + i, *w = b + i;
        double d[4];
        for (int j = 0; j < 4; j++)
            d[j] = (v[j] - w[j]);
        uint64_t ux, uy, ub;
        memcpy(&ux, &x, 8);
        memcpy(&uy, &y, 8);
        ub = (ux & ~k[i]) | (uy & k[i]);
        e[0] = ref_fmin_d(x, y);
        e[1] = ref_fmax_d(x, y);
        e[2] = isnan(x) || isnan(y) ? NAN : x > y ? (x - y) : 0.0;
        e[3] = copysign(x, y);
        e[4] = ref_clamp_d(x, -1.0, 2.0);
        e[5] = (x + ((y - x) * 0.25));
        e[6] = x < y ? 0.0 : 1.0;
        e[7] = ref_smoothstep_d(-1.0, 2.0, x);
        e[8] = isnan(x) ? 0.0 : x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x;
        e[9] = (x * 57.295779513082320876798154814105);
        e[10] = (x * 0.017453292519943295769236907684886);
        e[11] = ((x * y) + 1.0);
        e[12] = (((v[0] * w[0]) + (v[1] * w[1])) + (v[2] * w[2]));
        e[13] = ref_length_d(v, 2);
        e[14] = ref_length_d(d, 4);
        double l = ref_length_d(v, 4);
        e[15] = l == 0.0 ? v[2] : (v[2] / l);
        e[16] = ((v[1] * w[2]) - (v[2] * w[1]));
        e[17] = ((v[2] * w[0]) - (v[0] * w[2]));
        memcpy(&e[18], &ub, 8);
        e[19] = k[i] & 1 ? y : x;
        e[20] = (int64_t)(k[i] << 3) < 0 ? w[3] : v[3];
        e[21] = ref_fmin_d(v[2], y);
        e[22] = ref_clamp_d(v[1], -1.0, 2.0);
        e[23] = ref_smoothstep_d(-1.0, 2.0, x);
        for (int j = 0; j < 24; j++)
            if (!same_double(o[24 * i + j], e[j])) {
                fprintf(stderr, "doubles[%d] output %d (x=%a y=%a): %a, expected %a\n", i, j, x,
                        y, o[24 * i + j], e[j]);
                _Exit(1);
            }
        int any_greater = 0;
        for (int j = 0; j < 4; j++)
            any_greater |= v[j] > w[j];
        int64_t el[16] = {x == y, x != y, x > y, x >= y, x < y, x <= y, x < y || x > y,
                          !isnan(x) && !isnan(y), isnan(x) || isnan(y), isnan(x) != 0,
                          isinf(x) != 0, isfinite(x) != 0, isnormal(x) != 0, signbit(x) != 0,
                          v[0] < w[0] ? -1 : 0, (isnan(x) ? -1 : 0) + 2 * any_greater};
        for (int j = 0; j < 16; j++)
            if (ol[16 * i + j] != el[j]) {
                fprintf(stderr, "doubles[%d] relational %d (x=%a y=%a): %lld, expected %lld\n",
                        i, j, x, y, (long long)ol[16 * i + j], (long long)el[j]);
                _Exit(1);
            }
        for (int j = 0; j < 3; j++) {
            double want = ((v[j] * 2.0) + v[3]);
            if (!same_double(o3[3 * i + j], want)) {
                fprintf(stderr, "vload4/vstore3 of doubles[%d].s%d = %a, expected %a\n", i, j,
                        o3[3 * i + j], want);
                _Exit(1);
            }
        }
        for (int mode = 0; mode < 4; mode++) {
            uint16_t got = ho[4 * i + mode], want = to_half_ref(x, 0.0, mode);
            int ok = isnan(x) ? (got & 0x7c00) == 0x7c00 && (got & 0x3ff) : got == want;
            if (!ok) {
                fprintf(stderr, "vstore_half mode %d of double %a: 0x%04x, expected 0x%04x\n",
                        mode, x, got, want);
                _Exit(1);
            }
        }
        uint64_t mk[4] = {k[i], k[i] >> 8, k[i] >> 16, k[i] >> 24}, m2[4];
        for (int j = 0; j < 4; j++)
            m2[j] = mk[j] >> 3;
        double vw[8], want[8];
        memcpy(vw, v, 32);
        memcpy(vw + 4, w, 32);
        ref_shuffle(v, 4, mk, 4, 8, want);
        ref_shuffle(vw, 8, m2, 4, 8, want + 4);
        for (int j = 0; j < 8; j++)
            if (!same_double(os[8 * i + j], want[j])) {
                fprintf(stderr, "double shuffle%s[%d].s%d = %a, expected %a\n", j < 4 ? "" : "2",
                        i, j % 4, os[8 * i + j], want[j]);
                _Exit(1);
            }
    }
    clReleaseKernel(kern);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bk);
    clReleaseMemObject(bo);
    clReleaseMemObject(bl);
    clReleaseMemObject(b3);
    clReleaseMemObject(bh);
    clReleaseMemObject(bs);
}

/* The reference of shuffle: m elements of `size` bytes, element j the one of the n in
 * src that the low bits of mask element j choose (n: 2n for shuffle2, src x then y). */
static void ref_shuffle(const void *src, int n, const void *mask, int m, int size, void *dst)
{
    for (int j = 0; j < m; j++) {
        uint64_t k = 0;
        memcpy(&k, (const char *)mask + j * size, (size_t)size); /* little-endian */
        memcpy((char *)dst + j * size, (const char *)src + (k & (uint64_t)(n - 1)) * size,
               (size_t)size);
    }
}

static void test_shuffles(void)
{
    int32_t a[16 * N], o[24 * N];
    uint32_t m[24 * N];
    unsigned seed = 612;
    for (int i = 0; i < 16 * N; i++)
        a[i] = (int32_t)e2e_xorshift(&seed);
    for (int i = 0; i < 24 * N; i++) /* the first item: every mask bit set; the second: none */
        m[i] = i < 24 ? 0xffffffffu : i < 48 ? 0 : e2e_xorshift(&seed);
    run_2in_1out("shuffles", a, sizeof a, m, sizeof m, o, sizeof o);
    static const char *const what[6] = {"int4 shuffle(int8)", "float4 shuffle2(float4)",
                                        "char16 shuffle2(char16)", "ulong2 shuffle(ulong2)",
                                        "short8 shuffle2(short4)", "uchar16 shuffle(uchar2)"};
    for (int i = 0; i < N; i++) {
        const int32_t *x = a + 16 * i, *z = x + 8;
        const uint32_t *k = m + 24 * i;
        int32_t e[24];
        ref_shuffle(x, 8, k, 4, 4, e);             /* int8 -> int4 */
        ref_shuffle(x, 8, k + 4, 4, 4, e + 4);     /* float4, float4 (as bits) */
        ref_shuffle(x, 32, k + 8, 16, 1, e + 8);   /* char16, char16 */
        ref_shuffle(z, 2, k + 12, 2, 8, e + 12);   /* ulong2 */
        ref_shuffle(z + 4, 8, k + 16, 8, 2, e + 16); /* short4, short4 */
        ref_shuffle(z, 2, k + 20, 16, 1, e + 20);  /* uchar2 -> uchar16 */
        for (int j = 0; j < 24; j++)
            if (o[24 * i + j] != e[j]) {
                fprintf(stderr, "shuffles[%d] %s, word %d: 0x%08x, expected 0x%08x\n", i,
                        what[j / 4], j % 4, (unsigned)o[24 * i + j], (unsigned)e[j]);
                _Exit(1);
            }
    }
}

int main(void)
{
    e2e_init(&env);
    prog = e2e_build(&env, src, "", 1, NULL);
    test_ints();
    test_ints2();
    test_floats();
    test_vectors();
    test_division_and_roots();
    half_table();
    test_vloads();
    test_shuffles();
    test_doubles();
    clReleaseProgram(prog);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
