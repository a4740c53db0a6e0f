/* OpenCL C 1.2 section 6.12.7, vector data load and store: vloadn and vstoren for
 * every scalar type (double included) and n = 2, 3, 4, 8, 16, and the half-precision
 * forms (vload_half, vload_halfn, vloada_halfn, vstore_half, vstore_halfn,
 * vstorea_halfn, the stores from float or double and with the rounding-mode
 * suffixes), for every address space. vloadn and vstoren only promise the element's
 * alignment, so they read and write element by element (neighbouring elements share
 * a memory line; the load-store units fetch it once per line). Half values are
 * converted with integer operations on their bits: denormal halves are exact floats;
 * float or double to half rounds once, as the suffix says (to nearest even by
 * default), overflows to infinity or to the largest half as the rounding direction
 * says, and produces half denormals. */
#include "common.h"

/* vloadn/vstoren for element type T in address space AS (stores: not __constant). */
#define VLOAD_AS(T, AS)                                                                \
    T##2 OVERLOAD vload2(size_t i, const AS T *p) { p += 2 * i; return (T##2)(p[0], p[1]); } \
    T##3 OVERLOAD vload3(size_t i, const AS T *p)                                        \
    {                                                                                  \
        p += 3 * i;                                                                    \
        return (T##3)(p[0], p[1], p[2]);                                               \
    }                                                                                  \
    T##4 OVERLOAD vload4(size_t i, const AS T *p)                                        \
    {                                                                                  \
        p += 4 * i;                                                                    \
        return (T##4)(p[0], p[1], p[2], p[3]);                                         \
    }                                                                                  \
    T##8 OVERLOAD vload8(size_t i, const AS T *p)                                        \
    {                                                                                  \
        return (T##8)(vload4(2 * i, p), vload4(2 * i + 1, p));                         \
    }                                                                                  \
    T##16 OVERLOAD vload16(size_t i, const AS T *p)                                      \
    {                                                                                  \
        return (T##16)(vload8(2 * i, p), vload8(2 * i + 1, p));                        \
    }

#define VSTORE_AS(T, AS)                                                               \
    void OVERLOAD vstore2(T##2 v, size_t i, AS T *p)                                     \
    {                                                                                  \
        p += 2 * i;                                                                    \
        p[0] = v.s0;                                                                   \
        p[1] = v.s1;                                                                   \
    }                                                                                  \
    void OVERLOAD vstore3(T##3 v, size_t i, AS T *p)                                     \
    {                                                                                  \
        p += 3 * i;                                                                    \
        p[0] = v.s0;                                                                   \
        p[1] = v.s1;                                                                   \
        p[2] = v.s2;                                                                   \
    }                                                                                  \
    void OVERLOAD vstore4(T##4 v, size_t i, AS T *p)                                     \
    {                                                                                  \
        vstore2(v.lo, 2 * i, p);                                                       \
        vstore2(v.hi, 2 * i + 1, p);                                                   \
    }                                                                                  \
    void OVERLOAD vstore8(T##8 v, size_t i, AS T *p)                                     \
    {                                                                                  \
        vstore4(v.lo, 2 * i, p);                                                       \
        vstore4(v.hi, 2 * i + 1, p);                                                   \
    }                                                                                  \
    void OVERLOAD vstore16(T##16 v, size_t i, AS T *p)                                   \
    {                                                                                  \
        vstore8(v.lo, 2 * i, p);                                                       \
        vstore8(v.hi, 2 * i + 1, p);                                                   \
    }

#define VLOAD_VSTORE(T)                                                                \
    VLOAD_AS(T, __global) VLOAD_AS(T, __local) VLOAD_AS(T, __constant)                 \
    VLOAD_AS(T, __private) VSTORE_AS(T, __global) VSTORE_AS(T, __local)                \
    VSTORE_AS(T, __private)
VLOAD_VSTORE(char)
VLOAD_VSTORE(uchar)
VLOAD_VSTORE(short)
VLOAD_VSTORE(ushort)
VLOAD_VSTORE(int)
VLOAD_VSTORE(uint)
VLOAD_VSTORE(long)
VLOAD_VSTORE(ulong)
VLOAD_VSTORE(float)
VLOAD_VSTORE(double)

/* The float value of half bits h. */
static float half_to_float(ushort h)
{
    uint sign = (uint)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    if (exp == 0x1f) /* infinity or NaN (payload kept) */
        return as_float(sign | 0x7f800000u | mant << 13);
    if (exp == 0) /* zero or denormal: mant * 2^-24, exact in float */
        return as_float(sign) + (sign ? -(float)mant : (float)mant) * 0x1p-24f;
    return as_float(sign | (exp + 112) << 23 | mant << 13);
}

/* Half bits of f (a float or a double: F, whose bits are the unsigned U, with M
 * fraction bits and exponent bias BIAS) rounded by mode: 0 to nearest even, 1 toward
 * zero, 2 toward +inf, 3 toward -inf. A denormal float counts as zero, as in the
 * binary32 units; a subnormal double is a value (far below the smallest half: 0, or
 * the smallest half denormal when rounding away from zero), as in the binary64 units. */
#define TO_HALF(F, U, M, BIAS)                                                         \
    static ushort OVERLOAD to_half(F f, int mode)                                      \
    {                                                                                  \
        U sign_bit = (U)1 << (8 * sizeof(U) - 1);                                      \
        U inf = (((U)1 << (8 * sizeof(U) - 1 - M)) - 1) << M;                          \
        U u = as_##U(f), a = u & ~sign_bit;                                            \
        uint sign = (uint)(u >> (8 * sizeof(U) - 16)) & 0x8000;                        \
        if (a > inf) /* NaN: quiet, top payload bits kept */                           \
            return (ushort)(sign | 0x7e00 | (uint)(a >> (M - 10) & 0x1ff));             \
        if (a == inf)                                                                  \
            return (ushort)(sign | 0x7c00);                                            \
        int away = (mode == 2 && !sign) || (mode == 3 && sign); /* away from 0 */      \
        int e = (int)(a >> M) - BIAS;                                                  \
        if (e > 15) /* beyond the half range: infinity, or the largest half */         \
            return (ushort)(sign | (mode == 0 || away ? 0x7c00 : 0x7bff));             \
        /* q: the magnitude in units of the half's last place, with the exponent      \
         * field above the 10 fraction bits for a normal half; rest: what the         \
         * truncation lost, against half of that last place */                         \
        ulong sig = a >> M != 0 ? (ulong)(a & (((U)1 << M) - 1)) | (1ul << M)          \
                    : M == 52   ? (ulong)a : 0;                                        \
        int shift = e >= -14 ? M - 10 : min(M - 10 + (-14 - e), M + 8);                \
        ulong q = sig >> shift, rest = sig & ((1ul << shift) - 1);                     \
        ulong halfway = 1ul << (shift - 1);                                            \
        if (e >= -14)                                                                  \
            q = (ulong)(e + 15) << 10 | (q & 0x3ff);                                   \
        int up = mode == 0 ? rest > halfway || (rest == halfway && (q & 1))            \
                 : mode == 1 ? 0                                                       \
                             : away && rest;                                           \
        return (ushort)(sign | (q + (ulong)up)); /* a carry into the exponent is right */ \
    }
TO_HALF(float, uint, 23, 127)
TO_HALF(double, ulong, 52, 1023)

#define VLOAD_HALF_AS(AS)                                                              \
    float OVERLOAD vload_half(size_t i, const AS half *p)                               \
    {                                                                                  \
        return half_to_float(((const AS ushort *)p)[i]);                               \
    }                                                                                  \
    float2 OVERLOAD vload_half2(size_t i, const AS half *p)                             \
    {                                                                                  \
        return (float2)(vload_half(2 * i, p), vload_half(2 * i + 1, p));               \
    }                                                                                  \
    float3 OVERLOAD vload_half3(size_t i, const AS half *p)                             \
    {                                                                                  \
        return (float3)(vload_half(3 * i, p), vload_half(3 * i + 1, p),                \
                        vload_half(3 * i + 2, p));                                     \
    }                                                                                  \
    float4 OVERLOAD vload_half4(size_t i, const AS half *p)                             \
    {                                                                                  \
        return (float4)(vload_half2(2 * i, p), vload_half2(2 * i + 1, p));             \
    }                                                                                  \
    float8 OVERLOAD vload_half8(size_t i, const AS half *p)                             \
    {                                                                                  \
        return (float8)(vload_half4(2 * i, p), vload_half4(2 * i + 1, p));             \
    }                                                                                  \
    float16 OVERLOAD vload_half16(size_t i, const AS half *p)                           \
    {                                                                                  \
        return (float16)(vload_half8(2 * i, p), vload_half8(2 * i + 1, p));            \
    }                                                                                  \
    float2 OVERLOAD vloada_half2(size_t i, const AS half *p) { return vload_half2(i, p); } \
    float3 OVERLOAD vloada_half3(size_t i, const AS half *p)                            \
    {                                                                                  \
        return (float3)(vload_half(4 * i, p), vload_half(4 * i + 1, p),                \
                        vload_half(4 * i + 2, p));                                     \
    }                                                                                  \
    float4 OVERLOAD vloada_half4(size_t i, const AS half *p) { return vload_half4(i, p); } \
    float8 OVERLOAD vloada_half8(size_t i, const AS half *p) { return vload_half8(i, p); } \
    float16 OVERLOAD vloada_half16(size_t i, const AS half *p) { return vload_half16(i, p); }

VLOAD_HALF_AS(__global)
VLOAD_HALF_AS(__local)
VLOAD_HALF_AS(__constant)
VLOAD_HALF_AS(__private)

/* vstore_half<R> of F (float or double): R is the suffix, M the rounding mode number. */
#define VSTORE_HALF_MODE(AS, R, M, F)                                                     \
    void OVERLOAD vstore_half##R(F v,    size_t i, AS half *p)                          \
    {                                                                                  \
        ((AS ushort *)p)[i] = to_half(v, M);                                           \
    }                                                                                  \
    void OVERLOAD vstore_half2##R(F##2 v,  size_t i, AS half *p)                        \
    {                                                                                  \
        vstore_half##R(v.s0, 2 * i, p);                                                \
        vstore_half##R(v.s1, 2 * i + 1, p);                                            \
    }                                                                                  \
    void OVERLOAD vstore_half3##R(F##3 v,  size_t i, AS half *p)                        \
    {                                                                                  \
        vstore_half##R(v.s0, 3 * i, p);                                                \
        vstore_half##R(v.s1, 3 * i + 1, p);                                            \
        vstore_half##R(v.s2, 3 * i + 2, p);                                            \
    }                                                                                  \
    void OVERLOAD vstore_half4##R(F##4 v,  size_t i, AS half *p)                        \
    {                                                                                  \
        vstore_half2##R(v.lo, 2 * i, p);                                               \
        vstore_half2##R(v.hi, 2 * i + 1, p);                                           \
    }                                                                                  \
    void OVERLOAD vstore_half8##R(F##8 v,  size_t i, AS half *p)                        \
    {                                                                                  \
        vstore_half4##R(v.lo, 2 * i, p);                                               \
        vstore_half4##R(v.hi, 2 * i + 1, p);                                           \
    }                                                                                  \
    void OVERLOAD vstore_half16##R(F##16 v,  size_t i, AS half *p)                      \
    {                                                                                  \
        vstore_half8##R(v.lo, 2 * i, p);                                               \
        vstore_half8##R(v.hi, 2 * i + 1, p);                                           \
    }                                                                                  \
    void OVERLOAD vstorea_half2##R(F##2 v,  size_t i, AS half *p) { vstore_half2##R(v, i, p); } \
    void OVERLOAD vstorea_half3##R(F##3 v,  size_t i, AS half *p)                       \
    {                                                                                  \
        vstore_half##R(v.s0, 4 * i, p);                                                \
        vstore_half##R(v.s1, 4 * i + 1, p);                                            \
        vstore_half##R(v.s2, 4 * i + 2, p);                                            \
    }                                                                                  \
    void OVERLOAD vstorea_half4##R(F##4 v,  size_t i, AS half *p) { vstore_half4##R(v, i, p); } \
    void OVERLOAD vstorea_half8##R(F##8 v,  size_t i, AS half *p) { vstore_half8##R(v, i, p); } \
    void OVERLOAD vstorea_half16##R(F##16 v,  size_t i, AS half *p)                     \
    {                                                                                  \
        vstore_half16##R(v, i, p);                                                     \
    }

#define VSTORE_HALF_TYPE(AS, F)                                                        \
    VSTORE_HALF_MODE(AS, , 0, F) VSTORE_HALF_MODE(AS, _rte, 0, F)                      \
    VSTORE_HALF_MODE(AS, _rtz, 1, F) VSTORE_HALF_MODE(AS, _rtp, 2, F)                  \
    VSTORE_HALF_MODE(AS, _rtn, 3, F)
#define VSTORE_HALF_AS(AS) VSTORE_HALF_TYPE(AS, float) VSTORE_HALF_TYPE(AS, double)
VSTORE_HALF_AS(__global)
VSTORE_HALF_AS(__local)
VSTORE_HALF_AS(__private)
