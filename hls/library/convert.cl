/* OpenCL C 1.2 section 6.2.3, the explicit conversions convert_<dest>[_sat][_rte|_rtz|
 * _rtp|_rtn] between char ... ulong, float and double, scalars and vectors, and the
 * rounding functions of 6.12.2: rint, round, trunc, floor, ceil (float and double).
 * Integer to integer wraps, or clamps with _sat. Float or double to integer rounds as
 * the suffix says (toward zero by default); with _sat NaN gives 0 and out-of-range
 * values clamp. Integer to float or double rounds to nearest even by default, as the
 * int-to-float unit does (exactly when the integer fits the significand); a directed
 * mode converts that value back into a wider integer, compares it with the exact value
 * and steps one ulp through its bits. Double to float likewise: the nearest float
 * (the double-to-float unit), compared with the double, stepped one ulp for a
 * directed mode. Float to double is exact, a type to itself the identity.
 * Rounding a float to an integral value works on its bits: a mask splits off the
 * fraction, which is compared with one half, and adding one unit to the truncated
 * bits carries into the exponent when it must; float denormal inputs count as zero,
 * as in the float units, double subnormals are values, as in the double units. Every named function calls one helper per destination and source
 * type, __clhls_to_<dest>[_sat](x, mode), whose constant mode the inliner folds;
 * macros generate them all. */
#include "common.h"

/* Rounding modes of the helpers; AWAY (half away from zero) is round()'s. */
#define RTE 0
#define RTZ 1
#define RTP 2
#define RTN 3
#define AWAY 4

/* Each type's width, signedness, range, and the float bounds of its range: FLO the
 * smallest value, FHI one past the largest (both powers of two, exact in float). */
#define WIDTH(T) ((int)sizeof(T) * 8)
#define SIGNED(T) ((T)(-1) < (T)0)
#define MIN_char CHAR_MIN
#define MIN_uchar 0
#define MIN_short SHRT_MIN
#define MIN_ushort 0
#define MIN_int INT_MIN
#define MIN_uint 0
#define MIN_long LONG_MIN
#define MIN_ulong 0
#define MAX_char CHAR_MAX
#define MAX_uchar UCHAR_MAX
#define MAX_short SHRT_MAX
#define MAX_ushort USHRT_MAX
#define MAX_int INT_MAX
#define MAX_uint UINT_MAX
#define MAX_long LONG_MAX
#define MAX_ulong ULONG_MAX
#define FLO_char -0x1p7f
#define FLO_uchar 0.0f
#define FLO_short -0x1p15f
#define FLO_ushort 0.0f
#define FLO_int -0x1p31f
#define FLO_uint 0.0f
#define FLO_long -0x1p63f
#define FLO_ulong 0.0f
#define FHI_char 0x1p7f
#define FHI_uchar 0x1p8f
#define FHI_short 0x1p15f
#define FHI_ushort 0x1p16f
#define FHI_int 0x1p31f
#define FHI_uint 0x1p32f
#define FHI_long 0x1p63f
#define FHI_ulong 0x1p64f
/* A wider (or as wide) integer type of the same signedness, for comparing an
 * integer with a float that holds an integral value. */
#define WIDE_char long
#define WIDE_uchar ulong
#define WIDE_short long
#define WIDE_ushort ulong
#define WIDE_int long
#define WIDE_uint ulong
#define WIDE_long long
#define WIDE_ulong ulong
/* The default rounding of a conversion to the destination type. */
#define DEFAULT_char RTZ
#define DEFAULT_uchar RTZ
#define DEFAULT_short RTZ
#define DEFAULT_ushort RTZ
#define DEFAULT_int RTZ
#define DEFAULT_uint RTZ
#define DEFAULT_long RTZ
#define DEFAULT_ulong RTZ
#define DEFAULT_float RTE
#define DEFAULT_double RTE

/* x rounded to an integral value of its type T (bits: the unsigned U) as mode says;
 * |x| >= 2^MANT (INTEGRAL: its bits), infinities and NaN are returned as they are,
 * the sign of a zero result is x's. M is the fraction's bits, BIAS the exponent's,
 * ONE and HALF the bits of 1 and 1/2, MIN those of the smallest magnitude that is not
 * flushed to zero: float's smallest normal (the float units flush denormals), 1 for
 * double (its units keep subnormals: ceil(0x1p-1074) is 1). */
#define ROUND_FP(T, U, M, BIAS, ONE, HALF, MIN, INTEGRAL)                              \
    static T OVERLOAD __clhls_round(T x, int mode)                                     \
    {                                                                                  \
        U sign_bit = (U)1 << (8 * sizeof(U) - 1);                                      \
        U u = as_##U(x) & ~sign_bit, sign = as_##U(x) & sign_bit;                      \
        int e = (int)(u >> M) - BIAS; /* the exponent: |x| is in [2^e, 2^(e+1)) */     \
        /* the bits of |x| below its units bit: all of them when |x| < 1 */           \
        U frac_mask = e < 0 ? ~sign_bit : (((U)1 << M) - 1) >> e;                      \
        U frac = u & frac_mask;                                                        \
        /* one half, and what adding 1 to the integer part adds, in the bits of |x| */ \
        U halfway = e < 0 ? (U)HALF : (frac_mask >> 1) + 1;                            \
        U unit = e < 0 ? (U)ONE : frac_mask + 1;                                       \
        int odd = (u & (frac_mask + 1)) != 0; /* the units bit (0 when |x| < 1) */     \
        int up = mode == RTE    ? frac > halfway || (frac == halfway && odd)           \
                 : mode == RTP  ? !sign && frac != 0                                   \
                 : mode == RTN  ? sign && frac != 0                                    \
                 : mode == AWAY ? frac >= halfway                                      \
                                : 0;                                                   \
        U r = (u & ~frac_mask) + (up ? unit : 0);                                      \
        return u >= (U)INTEGRAL ? x : as_##T(sign | (u < (U)MIN ? 0 : r));             \
    }                                                                                  \
    T OVERLOAD rint(T x) { return __clhls_round(x, RTE); }                               \
    T OVERLOAD round(T x) { return __clhls_round(x, AWAY); }                             \
    T OVERLOAD trunc(T x) { return __clhls_round(x, RTZ); }                              \
    T OVERLOAD floor(T x) { return __clhls_round(x, RTN); }                              \
    T OVERLOAD ceil(T x) { return __clhls_round(x, RTP); }                               \
    VEC_1(T, T, rint)                                                                  \
    VEC_1(T, T, round)                                                                 \
    VEC_1(T, T, trunc)                                                                 \
    VEC_1(T, T, floor)                                                                 \
    VEC_1(T, T, ceil)
ROUND_FP(float, uint, 23, 127, 0x3f800000u, 0x3f000000u, 0x00800000u, 0x4b000000u)
ROUND_FP(double, ulong, 52, 1023, 0x3ff0000000000000UL, 0x3fe0000000000000UL, 1UL,
         0x4330000000000000UL)

/* f, the integer x rounded to nearest even in F (bits: the unsigned U), rounded
 * instead as mode says. f is converted back into a wider integer type W and compared
 * with x (f at or above FHI, one past S's largest value, is above every x); a
 * directed mode that disagrees with the nearest value moves one ulp: toward +inf is
 * one more in the bits of a positive value and one less in a negative one's. f is
 * never zero when it differs from x. Types narrower than F's significand (MANT bits)
 * convert exactly. */
#define INTEGER_TO_FP_(F, U, MANT, S, W, FHI)                                          \
    F OVERLOAD __clhls_to_##F(S x, int mode)                                           \
    {                                                                                  \
        F f = (F)x;                                                                    \
        if (WIDTH(S) <= MANT || mode == RTE)                                           \
            return f;                                                                  \
        W w = (W)f;                                                                    \
        int above = f >= FHI || w > (W)x, below = f < FHI && w < (W)x;                 \
        int neg = x < (S)0;                                                            \
        int toward_plus = (mode == RTP || (mode == RTZ && neg)) && below;              \
        int toward_minus = (mode == RTN || (mode == RTZ && !neg)) && above;            \
        int step = toward_plus - toward_minus;                                         \
        return as_##F(as_##U(f) + (U)(neg ? -step : step));                            \
    }
#define INTEGER_TO_FLOAT(S) INTEGER_TO_FP_(float, uint, 24, S, WIDE_##S, FHI_##S)
#define INTEGER_TO_DOUBLE(S) INTEGER_TO_FP_(double, ulong, 53, S, WIDE_##S, FHI_##S)
FOR_INTEGERS(INTEGER_TO_FLOAT)
FOR_INTEGERS(INTEGER_TO_DOUBLE)
float OVERLOAD __clhls_to_float(float x, int mode) { return x; }
double OVERLOAD __clhls_to_double(double x, int mode) { return x; }
double OVERLOAD __clhls_to_double(float x, int mode) { return (double)x; }

/* Double to float: the nearest float f, compared with x, one ulp further for a
 * directed mode that disagrees (as above; an infinite f of a finite x steps back to
 * the largest float; NaN compares false and stays). */
float OVERLOAD __clhls_to_float(double x, int mode)
{
    float f = (float)x;
    if (mode == RTE)
        return f;
    int above = (double)f > x, below = (double)f < x;
    int neg = x < 0.0;
    int toward_plus = (mode == RTP || (mode == RTZ && neg)) && below;
    int toward_minus = (mode == RTN || (mode == RTZ && !neg)) && above;
    int step = toward_plus - toward_minus;
    return as_float(as_uint(f) + (uint)(neg ? -step : step));
}

/* Float or double (F) to the integer type D: rounded as an integral value first,
 * except toward zero, which the float-to-int unit does. Saturated, NaN gives 0 and the
 * rounded value is compared with D's range (its bounds are exact powers of two). */
#define FP_TO_INTEGER_(D, F, LO, HI, FLO, FHI)                                         \
    D OVERLOAD __clhls_to_##D(F x, int mode)                                           \
    {                                                                                  \
        return (D)(mode == RTZ ? x : __clhls_round(x, mode));                          \
    }                                                                                  \
    D OVERLOAD __clhls_to_##D##_sat(F x, int mode)                                     \
    {                                                                                  \
        F r = mode == RTZ ? x : __clhls_round(x, mode);                                \
        return x != x ? (D)0 : r < FLO ? (D)LO : r >= FHI ? (D)HI : (D)r;              \
    }
#define FLOAT_TO_INTEGER(D) FP_TO_INTEGER_(D, float, MIN_##D, MAX_##D, FLO_##D, FHI_##D)
#define DOUBLE_TO_INTEGER(D) FP_TO_INTEGER_(D, double, MIN_##D, MAX_##D, FLO_##D, FHI_##D)
FOR_INTEGERS(FLOAT_TO_INTEGER)
FOR_INTEGERS(DOUBLE_TO_INTEGER)

/* Integer to integer: wraps, or clamps to D's range. A bound is compared only when S
 * reaches beyond it (constant conditions, folded away), and in S, which holds it then. */
#define INTEGER_TO_INTEGER_(D, S, LO, HI)                                              \
    D OVERLOAD __clhls_to_##D(S x, int mode) { return (D)x; }                          \
    D OVERLOAD __clhls_to_##D##_sat(S x, int mode)                                     \
    {                                                                                  \
        if (SIGNED(S) && (!SIGNED(D) || WIDTH(D) < WIDTH(S)) && x < (S)LO)             \
            return (D)LO;                                                              \
        if (WIDTH(S) - SIGNED(S) > WIDTH(D) - SIGNED(D) && x > (S)HI)                  \
            return (D)HI;                                                              \
        return (D)x;                                                                   \
    }
#define INTEGER_TO_INTEGER(D, S) INTEGER_TO_INTEGER_(D, S, MIN_##D, MAX_##D)

/* The named conversions: one scalar function calling the helper with its mode, and
 * the vector versions per element (4, 8 and 16 through their halves). */
#define CONVERT_VECTORS(D, S, NAME)                                                    \
    D##2 OVERLOAD convert_##D##2##NAME(S##2 x)                                         \
    {                                                                                  \
        return (D##2)(convert_##D##NAME(x.s0), convert_##D##NAME(x.s1));               \
    }                                                                                  \
    D##3 OVERLOAD convert_##D##3##NAME(S##3 x)                                         \
    {                                                                                  \
        return (D##3)(convert_##D##NAME(x.s0), convert_##D##NAME(x.s1),                \
                      convert_##D##NAME(x.s2));                                        \
    }                                                                                  \
    D##4 OVERLOAD convert_##D##4##NAME(S##4 x)                                         \
    {                                                                                  \
        return (D##4)(convert_##D##2##NAME(x.lo), convert_##D##2##NAME(x.hi));         \
    }                                                                                  \
    D##8 OVERLOAD convert_##D##8##NAME(S##8 x)                                         \
    {                                                                                  \
        return (D##8)(convert_##D##4##NAME(x.lo), convert_##D##4##NAME(x.hi));         \
    }                                                                                  \
    D##16 OVERLOAD convert_##D##16##NAME(S##16 x)                                      \
    {                                                                                  \
        return (D##16)(convert_##D##8##NAME(x.lo), convert_##D##8##NAME(x.hi));        \
    }
#define CONVERT(D, S, SAT, ROUNDING, MODE)                                             \
    D OVERLOAD convert_##D##SAT##ROUNDING(S x) { return __clhls_to_##D##SAT(x, MODE); } \
    CONVERT_VECTORS(D, S, SAT##ROUNDING)
#define CONVERT_ROUNDINGS_(D, S, SAT, DEFAULT)                                         \
    CONVERT(D, S, SAT, , DEFAULT)                                                      \
    CONVERT(D, S, SAT, _rte, RTE)                                                      \
    CONVERT(D, S, SAT, _rtz, RTZ)                                                      \
    CONVERT(D, S, SAT, _rtp, RTP)                                                      \
    CONVERT(D, S, SAT, _rtn, RTN)
#define CONVERT_ROUNDINGS(D, S, SAT) CONVERT_ROUNDINGS_(D, S, SAT, DEFAULT_##D)

/* Every integer source type S, and every source type, for a macro M(D, S). */
#define FOR_INTEGER_SOURCES(M, D)                                                      \
    M(D, char) M(D, uchar) M(D, short) M(D, ushort) M(D, int) M(D, uint) M(D, long)    \
    M(D, ulong)
#define FOR_SOURCES(M, D) FOR_INTEGER_SOURCES(M, D) M(D, float) M(D, double)

/* To an integer type D: the integer-to-integer helpers, then every source with and
 * without _sat. To float and double: every source (there is no _sat to them). */
#define INTEGER_HELPERS(D) FOR_INTEGER_SOURCES(INTEGER_TO_INTEGER, D)
FOR_INTEGERS(INTEGER_HELPERS)

#define CONVERT_TO_INTEGER_(D, S) CONVERT_ROUNDINGS(D, S, ) CONVERT_ROUNDINGS(D, S, _sat)
#define CONVERT_TO_INTEGER(D) FOR_SOURCES(CONVERT_TO_INTEGER_, D)
FOR_INTEGERS(CONVERT_TO_INTEGER)

#define CONVERT_TO_FLOAT(D, S) CONVERT_ROUNDINGS(D, S, )
FOR_SOURCES(CONVERT_TO_FLOAT, float)
FOR_SOURCES(CONVERT_TO_FLOAT, double)
