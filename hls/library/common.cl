/* OpenCL C 1.2 section 6.12.4, common functions, and the float functions of 6.12.2
 * that are single operations or selections: fabs, fmin, fmax, fdim, copysign, mad,
 * fma, sqrt and friends, clamp, mix, step, smoothstep, sign, degrees, radians. fmin
 * and fmax return the other argument when one is a NaN; sqrt and fma are correctly
 * rounded (they become the clhls_fsqrt and clhls_fma units). */
#include "common.h"

float OVERLOAD fabs(float x) { return __builtin_fabsf(x); }
VEC_1(float, float, fabs)

float OVERLOAD fmin(float x, float y) { return isnan(y) ? x : isnan(x) ? y : y < x ? y : x; }
VEC_2(float, float, fmin)
float2 OVERLOAD fmin(float2 x, float y) { return fmin(x, (float2)(y)); }
float3 OVERLOAD fmin(float3 x, float y) { return fmin(x, (float3)(y)); }
float4 OVERLOAD fmin(float4 x, float y) { return fmin(x, (float4)(y)); }
float8 OVERLOAD fmin(float8 x, float y) { return fmin(x, (float8)(y)); }
float16 OVERLOAD fmin(float16 x, float y) { return fmin(x, (float16)(y)); }

float OVERLOAD fmax(float x, float y) { return isnan(y) ? x : isnan(x) ? y : y > x ? y : x; }
VEC_2(float, float, fmax)
float2 OVERLOAD fmax(float2 x, float y) { return fmax(x, (float2)(y)); }
float3 OVERLOAD fmax(float3 x, float y) { return fmax(x, (float3)(y)); }
float4 OVERLOAD fmax(float4 x, float y) { return fmax(x, (float4)(y)); }
float8 OVERLOAD fmax(float8 x, float y) { return fmax(x, (float8)(y)); }
float16 OVERLOAD fmax(float16 x, float y) { return fmax(x, (float16)(y)); }

float OVERLOAD fdim(float x, float y)
{
    return isnan(x) || isnan(y) ? as_float(0x7fc00000) : x > y ? x - y : 0.0f;
}
VEC_2(float, float, fdim)

float OVERLOAD copysign(float x, float y)
{
    return as_float((as_uint(x) & 0x7fffffffu) | (as_uint(y) & 0x80000000u));
}
VEC_2(float, float, copysign)

/* mad may round twice (the specification allows it): a multiply and an add. */
float OVERLOAD mad(float a, float b, float c) { return a * b + c; }
VEC_3(float, float, mad)

float OVERLOAD fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
VEC_3(float, float, fma)

float OVERLOAD sqrt(float x) { return __builtin_sqrtf(x); }
VEC_1(float, float, sqrt)
float OVERLOAD native_sqrt(float x) { return __builtin_sqrtf(x); }
VEC_1(float, float, native_sqrt)
float OVERLOAD half_sqrt(float x) { return __builtin_sqrtf(x); }
VEC_1(float, float, half_sqrt)
float OVERLOAD rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
VEC_1(float, float, rsqrt)
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

float OVERLOAD clamp(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }
VEC_3(float, float, clamp)
float2 OVERLOAD clamp(float2 x, float lo, float hi) { return clamp(x, (float2)(lo), (float2)(hi)); }
float3 OVERLOAD clamp(float3 x, float lo, float hi) { return clamp(x, (float3)(lo), (float3)(hi)); }
float4 OVERLOAD clamp(float4 x, float lo, float hi) { return clamp(x, (float4)(lo), (float4)(hi)); }
float8 OVERLOAD clamp(float8 x, float lo, float hi) { return clamp(x, (float8)(lo), (float8)(hi)); }
float16 OVERLOAD clamp(float16 x, float lo, float hi)
{
    return clamp(x, (float16)(lo), (float16)(hi));
}

float OVERLOAD mix(float x, float y, float a) { return x + (y - x) * a; }
VEC_3(float, float, mix)
float2 OVERLOAD mix(float2 x, float2 y, float a) { return mix(x, y, (float2)(a)); }
float3 OVERLOAD mix(float3 x, float3 y, float a) { return mix(x, y, (float3)(a)); }
float4 OVERLOAD mix(float4 x, float4 y, float a) { return mix(x, y, (float4)(a)); }
float8 OVERLOAD mix(float8 x, float8 y, float a) { return mix(x, y, (float8)(a)); }
float16 OVERLOAD mix(float16 x, float16 y, float a) { return mix(x, y, (float16)(a)); }

float OVERLOAD step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
VEC_2(float, float, step)
float2 OVERLOAD step(float edge, float2 x) { return step((float2)(edge), x); }
float3 OVERLOAD step(float edge, float3 x) { return step((float3)(edge), x); }
float4 OVERLOAD step(float edge, float4 x) { return step((float4)(edge), x); }
float8 OVERLOAD step(float edge, float8 x) { return step((float8)(edge), x); }
float16 OVERLOAD step(float edge, float16 x) { return step((float16)(edge), x); }

float OVERLOAD smoothstep(float e0, float e1, float x)
{
    float t = clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}
VEC_3(float, float, smoothstep)

float OVERLOAD sign(float x)
{
    return isnan(x) ? 0.0f : x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x;
}
VEC_1(float, float, sign)

float OVERLOAD degrees(float r) { return r * 57.295779513082320876798154814105f; }
VEC_1(float, float, degrees)
float OVERLOAD radians(float d) { return d * 0.017453292519943295769236907684886f; }
VEC_1(float, float, radians)

/* double: the functions that are single operations or selections. */
double OVERLOAD fabs(double x) { return __builtin_fabs(x); }
VEC_1(double, double, fabs)
double OVERLOAD fmin(double x, double y) { return y != y ? x : x != x ? y : y < x ? y : x; }
VEC_2(double, double, fmin)
double OVERLOAD fmax(double x, double y) { return y != y ? x : x != x ? y : y > x ? y : x; }
VEC_2(double, double, fmax)
double OVERLOAD copysign(double x, double y)
{
    return as_double((as_ulong(x) & 0x7fffffffffffffffUL) | (as_ulong(y) & 0x8000000000000000UL));
}
VEC_2(double, double, copysign)
double OVERLOAD mad(double a, double b, double c) { return a * b + c; }
VEC_3(double, double, mad)
double OVERLOAD fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
VEC_3(double, double, fma)
double OVERLOAD sqrt(double x) { return __builtin_sqrt(x); }
VEC_1(double, double, sqrt)
double OVERLOAD rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
VEC_1(double, double, rsqrt)
