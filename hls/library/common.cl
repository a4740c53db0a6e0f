/* OpenCL C 1.2 section 6.12.4, common functions, and the float and double functions
 * of 6.12.2 that are single operations or selections: fabs, fmin, fmax, fdim,
 * copysign, mad, fma, sqrt and friends, clamp, max, min, mix, step, smoothstep, sign,
 * degrees, radians. fmin and fmax return the other argument when one is a NaN; sqrt and fma
 * are correctly rounded (they become the clhls_fsqrt and clhls_fma units). One macro
 * defines each family for float and for double (T, with S the suffix of T's
 * literals, and U the unsigned integer type of T's size); the native_ and half_
 * versions exist for float only. */
#include "common.h"

/* f(Tn x, T y) for a two-argument f, as f(x, (Tn)(y)). */
#define VEC_2S(T, f)                                                                   \
    T##2 OVERLOAD f(T##2 x, T y) { return f(x, (T##2)(y)); }                             \
    T##3 OVERLOAD f(T##3 x, T y) { return f(x, (T##3)(y)); }                             \
    T##4 OVERLOAD f(T##4 x, T y) { return f(x, (T##4)(y)); }                             \
    T##8 OVERLOAD f(T##8 x, T y) { return f(x, (T##8)(y)); }                             \
    T##16 OVERLOAD f(T##16 x, T y) { return f(x, (T##16)(y)); }

/* A literal of type T: LIT(1.5, S) is 1.5f for float and 1.5 for double. */
#define LIT_(x, S) x##S
#define LIT(x, S) LIT_(x, S)

#define COMMON_FP(T, S, U, SIGN_BIT)                                                   \
    T OVERLOAD fabs(T x) { return __builtin_fabs##S(x); }                                \
    VEC_1(T, T, fabs)                                                                  \
    T OVERLOAD fmin(T x, T y) { return y != y ? x : x != x ? y : y < x ? y : x; }        \
    VEC_2(T, T, fmin)                                                                  \
    VEC_2S(T, fmin)                                                                    \
    T OVERLOAD fmax(T x, T y) { return y != y ? x : x != x ? y : y > x ? y : x; }        \
    VEC_2(T, T, fmax)                                                                  \
    VEC_2S(T, fmax)                                                                    \
    /* max and min of 6.12.4: undefined for NaNs, so fmax and fmin. */                \
    T OVERLOAD max(T x, T y) { return fmax(x, y); }                                     \
    VEC_2(T, T, max)                                                                   \
    VEC_2S(T, max)                                                                     \
    T OVERLOAD min(T x, T y) { return fmin(x, y); }                                     \
    VEC_2(T, T, min)                                                                   \
    VEC_2S(T, min)                                                                     \
    T OVERLOAD fdim(T x, T y) { return x != x || y != y ? (T)NAN : x > y ? x - y : (T)0; } \
    VEC_2(T, T, fdim)                                                                  \
    T OVERLOAD copysign(T x, T y)                                                      \
    {                                                                                  \
        return as_##T((as_##U(x) & ~(U)SIGN_BIT) | (as_##U(y) & (U)SIGN_BIT));          \
    }                                                                                  \
    VEC_2(T, T, copysign)                                                              \
    /* mad may round twice (the specification allows it): a multiply and an add. */   \
    T OVERLOAD mad(T a, T b, T c) { return a * b + c; }                                  \
    VEC_3(T, T, mad)                                                                   \
    T OVERLOAD fma(T a, T b, T c) { return __builtin_fma##S(a, b, c); }                  \
    VEC_3(T, T, fma)                                                                   \
    T OVERLOAD sqrt(T x) { return __builtin_sqrt##S(x); }                                \
    VEC_1(T, T, sqrt)                                                                  \
    T OVERLOAD rsqrt(T x) { return (T)1 / __builtin_sqrt##S(x); }                        \
    VEC_1(T, T, rsqrt)                                                                 \
    T OVERLOAD clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }                  \
    VEC_3(T, T, clamp)                                                                 \
    T##2 OVERLOAD clamp(T##2 x, T lo, T hi) { return clamp(x, (T##2)(lo), (T##2)(hi)); } \
    T##3 OVERLOAD clamp(T##3 x, T lo, T hi) { return clamp(x, (T##3)(lo), (T##3)(hi)); } \
    T##4 OVERLOAD clamp(T##4 x, T lo, T hi) { return clamp(x, (T##4)(lo), (T##4)(hi)); } \
    T##8 OVERLOAD clamp(T##8 x, T lo, T hi) { return clamp(x, (T##8)(lo), (T##8)(hi)); } \
    T##16 OVERLOAD clamp(T##16 x, T lo, T hi)                                            \
    {                                                                                  \
        return clamp(x, (T##16)(lo), (T##16)(hi));                                      \
    }                                                                                  \
    T OVERLOAD mix(T x, T y, T a) { return x + (y - x) * a; }                            \
    VEC_3(T, T, mix)                                                                   \
    T##2 OVERLOAD mix(T##2 x, T##2 y, T a) { return mix(x, y, (T##2)(a)); }              \
    T##3 OVERLOAD mix(T##3 x, T##3 y, T a) { return mix(x, y, (T##3)(a)); }              \
    T##4 OVERLOAD mix(T##4 x, T##4 y, T a) { return mix(x, y, (T##4)(a)); }              \
    T##8 OVERLOAD mix(T##8 x, T##8 y, T a) { return mix(x, y, (T##8)(a)); }              \
    T##16 OVERLOAD mix(T##16 x, T##16 y, T a) { return mix(x, y, (T##16)(a)); }          \
    T OVERLOAD step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                      \
    VEC_2(T, T, step)                                                                  \
    T##2 OVERLOAD step(T edge, T##2 x) { return step((T##2)(edge), x); }                 \
    T##3 OVERLOAD step(T edge, T##3 x) { return step((T##3)(edge), x); }                 \
    T##4 OVERLOAD step(T edge, T##4 x) { return step((T##4)(edge), x); }                 \
    T##8 OVERLOAD step(T edge, T##8 x) { return step((T##8)(edge), x); }                 \
    T##16 OVERLOAD step(T edge, T##16 x) { return step((T##16)(edge), x); }              \
    T OVERLOAD smoothstep(T e0, T e1, T x)                                             \
    {                                                                                  \
        T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                                 \
        return t * t * ((T)3 - (T)2 * t);                                              \
    }                                                                                  \
    VEC_3(T, T, smoothstep)                                                            \
    T##2 OVERLOAD smoothstep(T e0, T e1, T##2 x) { return smoothstep((T##2)(e0), (T##2)(e1), x); } \
    T##3 OVERLOAD smoothstep(T e0, T e1, T##3 x) { return smoothstep((T##3)(e0), (T##3)(e1), x); } \
    T##4 OVERLOAD smoothstep(T e0, T e1, T##4 x) { return smoothstep((T##4)(e0), (T##4)(e1), x); } \
    T##8 OVERLOAD smoothstep(T e0, T e1, T##8 x) { return smoothstep((T##8)(e0), (T##8)(e1), x); } \
    T##16 OVERLOAD smoothstep(T e0, T e1, T##16 x)                                       \
    {                                                                                  \
        return smoothstep((T##16)(e0), (T##16)(e1), x);                                 \
    }                                                                                  \
    T OVERLOAD sign(T x) { return x != x ? (T)0 : x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : x; } \
    VEC_1(T, T, sign)                                                                  \
    T OVERLOAD degrees(T r) { return r * LIT(57.295779513082320876798154814105, S); }    \
    VEC_1(T, T, degrees)                                                               \
    T OVERLOAD radians(T d) { return d * LIT(0.017453292519943295769236907684886, S); }  \
    VEC_1(T, T, radians)
COMMON_FP(float, f, uint, 0x80000000u)
COMMON_FP(double, , ulong, 0x8000000000000000UL)

/* float only: the native_ and half_ versions. */
float OVERLOAD native_sqrt(float x) { return __builtin_sqrtf(x); }
VEC_1(float, float, native_sqrt)
float OVERLOAD half_sqrt(float x) { return __builtin_sqrtf(x); }
VEC_1(float, float, half_sqrt)
float OVERLOAD native_rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
VEC_1(float, float, native_rsqrt)
float OVERLOAD half_rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
VEC_1(float, float, half_rsqrt)
float OVERLOAD native_divide(float x, float y) { return x / y; }
VEC_2(float, float, native_divide)
float OVERLOAD half_divide(float x, float y) { return x / y; }
VEC_2(float, float, half_divide)
float OVERLOAD native_recip(float x) { return 1.0f / x; }
VEC_1(float, float, native_recip)
float OVERLOAD half_recip(float x) { return 1.0f / x; }
VEC_1(float, float, half_recip)
