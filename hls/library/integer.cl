/* OpenCL C 1.2 section 6.12.3, integer functions, for every integer type and its
 * vectors: abs, abs_diff, add_sat, sub_sat, hadd, rhadd, clamp, clz, popcount, min,
 * max, mul_hi, mad_hi, mad_sat, rotate, mad24, mul24. Written with plain operators
 * and selections, so each becomes adders, comparators and multiplexers; clz and
 * popcount are trees of shifts and adds, not loops. */
#include "common.h"

/* The unsigned type of T and its width. */
#define U_char uchar
#define U_uchar uchar
#define U_short ushort
#define U_ushort ushort
#define U_int uint
#define U_uint uint
#define U_long ulong
#define U_ulong ulong
#define UNSIGNED_(T) U_##T
#define UNSIGNED(T) UNSIGNED_(T)
#define BITS(T) ((int)sizeof(T) * 8)
#define IS_SIGNED(T) ((T)(-1) < (T)0)

#define INTEGER_FUNCTIONS(T)                                                           \
    UNSIGNED(T) OVERLOAD abs(T x) { return (UNSIGNED(T))(x < (T)0 ? -x : x); }           \
    UNSIGNED(T) OVERLOAD abs_diff(T x, T y)                                              \
    {                                                                                  \
        return x > y ? (UNSIGNED(T))((UNSIGNED(T))x - (UNSIGNED(T))y)                    \
                     : (UNSIGNED(T))((UNSIGNED(T))y - (UNSIGNED(T))x);                   \
    }                                                                                  \
    T OVERLOAD min(T x, T y) { return y < x ? y : x; }                                   \
    T OVERLOAD max(T x, T y) { return y > x ? y : x; }                                   \
    T OVERLOAD clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                    \
    T OVERLOAD add_sat(T x, T y)                                                         \
    {                                                                                  \
        T s = (T)((UNSIGNED(T))x + (UNSIGNED(T))y);                                      \
        if (!IS_SIGNED(T))                                                             \
            return s < x ? (T)-1 : s;                                                  \
        T lim = (T)(x < (T)0 ? (T)1 << (BITS(T) - 1) : ~((T)1 << (BITS(T) - 1)));         \
        return (x < (T)0) == (y < (T)0) && (s < (T)0) != (x < (T)0) ? lim : s;           \
    }                                                                                  \
    T OVERLOAD sub_sat(T x, T y)                                                         \
    {                                                                                  \
        T d = (T)((UNSIGNED(T))x - (UNSIGNED(T))y);                                      \
        if (!IS_SIGNED(T))                                                             \
            return y > x ? (T)0 : d;                                                   \
        T lim = (T)(x < (T)0 ? (T)1 << (BITS(T) - 1) : ~((T)1 << (BITS(T) - 1)));         \
        return (x < (T)0) != (y < (T)0) && (d < (T)0) != (x < (T)0) ? lim : d;           \
    }                                                                                  \
    /* (x + y) >> 1 and (x + y + 1) >> 1 without overflow */                          \
    T OVERLOAD hadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + (x & y & (T)1)); }     \
    T OVERLOAD rhadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + ((x | y) & (T)1)); }  \
    T OVERLOAD clz(T x)                                                                  \
    {                                                                                  \
        UNSIGNED(T) u = (UNSIGNED(T))x;                                                  \
        int n = 0;                                                                     \
        for (int part = BITS(T) / 2; part > 0; part /= 2) {                            \
            int empty = (u >> (BITS(T) - part)) == 0;                                  \
            n += empty ? part : 0;                                                     \
            u = empty ? (UNSIGNED(T))(u << part) : u;                                  \
        }                                                                              \
        return (T)(n + (u == 0));                                                      \
    }                                                                                  \
    T OVERLOAD popcount(T x)                                                             \
    {                                                                                  \
        UNSIGNED(T) u = (UNSIGNED(T))x;                                                  \
        int n = 0;                                                                     \
        for (int b = 0; b < BITS(T); b++)                                              \
            n += (int)((u >> b) & 1);                                                  \
        return (T)n;                                                                   \
    }                                                                                  \
    T OVERLOAD rotate(T x, T n)                                                          \
    {                                                                                  \
        int s = (int)((UNSIGNED(T))n & (UNSIGNED(T))(BITS(T) - 1));                      \
        UNSIGNED(T) u = (UNSIGNED(T))x;                                                  \
        return (T)(s ? (UNSIGNED(T))(u << s) | (UNSIGNED(T))(u >> (BITS(T) - s)) : u);   \
    }                                                                                  \
    VEC_1(UNSIGNED(T), T, abs)                                                           \
    VEC_2(UNSIGNED(T), T, abs_diff)                                                      \
    VEC_2(T, T, min)                                                                     \
    VEC_2(T, T, max)                                                                     \
    VEC_3(T, T, clamp)                                                                   \
    VEC_2(T, T, add_sat)                                                                 \
    VEC_2(T, T, sub_sat)                                                                 \
    VEC_2(T, T, hadd)                                                                    \
    VEC_2(T, T, rhadd)                                                                   \
    VEC_1(T, T, clz)                                                                     \
    VEC_1(T, T, popcount)                                                                \
    VEC_2(T, T, rotate)                                                                  \
    T##2 OVERLOAD min(T##2 x, T y) { return min(x, (T##2)(y)); }                           \
    T##3 OVERLOAD min(T##3 x, T y) { return min(x, (T##3)(y)); }                           \
    T##4 OVERLOAD min(T##4 x, T y) { return min(x, (T##4)(y)); }                           \
    T##8 OVERLOAD min(T##8 x, T y) { return min(x, (T##8)(y)); }                           \
    T##16 OVERLOAD min(T##16 x, T y) { return min(x, (T##16)(y)); }                        \
    T##2 OVERLOAD max(T##2 x, T y) { return max(x, (T##2)(y)); }                           \
    T##3 OVERLOAD max(T##3 x, T y) { return max(x, (T##3)(y)); }                           \
    T##4 OVERLOAD max(T##4 x, T y) { return max(x, (T##4)(y)); }                           \
    T##8 OVERLOAD max(T##8 x, T y) { return max(x, (T##8)(y)); }                           \
    T##16 OVERLOAD max(T##16 x, T y) { return max(x, (T##16)(y)); }                        \
    T##2 OVERLOAD clamp(T##2 x, T lo, T hi) { return clamp(x, (T##2)(lo), (T##2)(hi)); }   \
    T##3 OVERLOAD clamp(T##3 x, T lo, T hi) { return clamp(x, (T##3)(lo), (T##3)(hi)); }   \
    T##4 OVERLOAD clamp(T##4 x, T lo, T hi) { return clamp(x, (T##4)(lo), (T##4)(hi)); }   \
    T##8 OVERLOAD clamp(T##8 x, T lo, T hi) { return clamp(x, (T##8)(lo), (T##8)(hi)); }   \
    T##16 OVERLOAD clamp(T##16 x, T lo, T hi) { return clamp(x, (T##16)(lo), (T##16)(hi)); }

FOR_INTEGERS(INTEGER_FUNCTIONS)

/* mul_hi: the high half of the double-width product. */
#define MUL_HI_WIDE(T, W)                                                              \
    T OVERLOAD mul_hi(T x, T y) { return (T)(((W)x * (W)y) >> BITS(T)); }                \
    VEC_2(T, T, mul_hi)
MUL_HI_WIDE(char, short)
MUL_HI_WIDE(uchar, ushort)
MUL_HI_WIDE(short, int)
MUL_HI_WIDE(ushort, uint)
MUL_HI_WIDE(int, long)
MUL_HI_WIDE(uint, ulong)

ulong OVERLOAD mul_hi(ulong x, ulong y)
{
    ulong xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
    ulong ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
    ulong mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
VEC_2(ulong, ulong, mul_hi)

long OVERLOAD mul_hi(long x, long y)
{
    /* the unsigned high half, corrected for the signs */
    ulong h = mul_hi((ulong)x, (ulong)y);
    h -= x < 0 ? (ulong)y : 0;
    h -= y < 0 ? (ulong)x : 0;
    return (long)h;
}
VEC_2(long, long, mul_hi)

/* mad24/mul24: the low 32 bits of the product (operands are 24-bit values). */
int OVERLOAD mul24(int x, int y) { return (int)((uint)x * (uint)y); }
uint OVERLOAD mul24(uint x, uint y) { return x * y; }
int OVERLOAD mad24(int x, int y, int z) { return (int)((uint)x * (uint)y + (uint)z); }
uint OVERLOAD mad24(uint x, uint y, uint z) { return x * y + z; }
VEC_2(int, int, mul24)
VEC_2(uint, uint, mul24)
VEC_3(int, int, mad24)
VEC_3(uint, uint, mad24)

/* mad_hi: the high half of the product, plus c. */
#define MAD_HI(T)                                                                      \
    T OVERLOAD mad_hi(T a, T b, T c)                                                     \
    {                                                                                  \
        return (T)((UNSIGNED(T))mul_hi(a, b) + (UNSIGNED(T))c);                        \
    }                                                                                  \
    VEC_3(T, T, mad_hi)
FOR_INTEGERS(MAD_HI)

/* mad_sat: a * b + c saturated; the exact value in a wider type where there is one. */
#define MAD_SAT_WIDE(T, W, LO, HI)                                                     \
    T OVERLOAD mad_sat(T a, T b, T c)                                                    \
    {                                                                                  \
        W v = (W)a * (W)b + (W)c;                                                      \
        return (T)(v < (W)(LO) ? (W)(LO) : v > (W)(HI) ? (W)(HI) : v);                 \
    }                                                                                  \
    VEC_3(T, T, mad_sat)
MAD_SAT_WIDE(char, int, CHAR_MIN, CHAR_MAX)
MAD_SAT_WIDE(uchar, uint, 0, UCHAR_MAX)
MAD_SAT_WIDE(short, int, SHRT_MIN, SHRT_MAX)
MAD_SAT_WIDE(ushort, uint, 0, USHRT_MAX)
MAD_SAT_WIDE(int, long, INT_MIN, INT_MAX)
MAD_SAT_WIDE(uint, ulong, 0, UINT_MAX)

ulong OVERLOAD mad_sat(ulong a, ulong b, ulong c)
{
    ulong lo = a * b, sum = lo + c;
    return mul_hi(a, b) != 0 || sum < lo ? ULONG_MAX : sum;
}
VEC_3(ulong, ulong, mad_sat)

long OVERLOAD mad_sat(long a, long b, long c)
{
    /* the 128-bit product as hi:lo, then hi:lo + c with c sign-extended */
    ulong lo = (ulong)a * (ulong)b;
    long hi = mul_hi(a, b);
    ulong sum = lo + (ulong)c;
    hi += (long)(sum < lo) + (c < 0 ? -1 : 0);
    /* representable when hi is the sign extension of sum */
    if (hi == ((long)sum >> 63))
        return (long)sum;
    return hi < 0 ? LONG_MIN : LONG_MAX;
}
VEC_3(long, long, mad_sat)

/* upsample: hi in the upper half, lo in the lower. */
#define UPSAMPLE(R, H, L)                                                              \
    R OVERLOAD upsample(H hi, L lo)                                                      \
    {                                                                                  \
        return (R)((UNSIGNED(R))(R)hi << (sizeof(L) * 8) | (UNSIGNED(R))lo);             \
    }                                                                                  \
    R##2 OVERLOAD upsample(H##2 hi, L##2 lo)                                             \
    {                                                                                  \
        return (R##2)(upsample(hi.s0, lo.s0), upsample(hi.s1, lo.s1));                 \
    }                                                                                  \
    R##3 OVERLOAD upsample(H##3 hi, L##3 lo)                                             \
    {                                                                                  \
        return (R##3)(upsample(hi.s0, lo.s0), upsample(hi.s1, lo.s1),                  \
                      upsample(hi.s2, lo.s2));                                         \
    }                                                                                  \
    R##4 OVERLOAD upsample(H##4 hi, L##4 lo)                                             \
    {                                                                                  \
        return (R##4)(upsample(hi.lo, lo.lo), upsample(hi.hi, lo.hi));                 \
    }                                                                                  \
    R##8 OVERLOAD upsample(H##8 hi, L##8 lo)                                             \
    {                                                                                  \
        return (R##8)(upsample(hi.lo, lo.lo), upsample(hi.hi, lo.hi));                 \
    }                                                                                  \
    R##16 OVERLOAD upsample(H##16 hi, L##16 lo)                                          \
    {                                                                                  \
        return (R##16)(upsample(hi.lo, lo.lo), upsample(hi.hi, lo.hi));                \
    }
UPSAMPLE(short, char, uchar)
UPSAMPLE(ushort, uchar, uchar)
UPSAMPLE(int, short, ushort)
UPSAMPLE(uint, ushort, ushort)
UPSAMPLE(long, int, uint)
UPSAMPLE(ulong, uint, uint)
