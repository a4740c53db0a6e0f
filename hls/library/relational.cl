/* OpenCL C 1.2 section 6.12.6, relational functions for float: the scalar versions
 * return 0 or 1, the vector versions 0 or -1 per element; select and bitselect. */
#include "common.h"

/* Scalar test f(x) -> int, and its vector versions giving -1 for true. */
#define TEST_1(f, expr)                                                                \
    int OVERLOAD f(float x) { return (expr) ? 1 : 0; }                                   \
    int2 OVERLOAD f(float2 x) { return (int2)(-f(x.s0), -f(x.s1)); }                     \
    int3 OVERLOAD f(float3 x) { return (int3)(-f(x.s0), -f(x.s1), -f(x.s2)); }           \
    int4 OVERLOAD f(float4 x) { return (int4)(f(x.lo), f(x.hi)); }                       \
    int8 OVERLOAD f(float8 x) { return (int8)(f(x.lo), f(x.hi)); }                       \
    int16 OVERLOAD f(float16 x) { return (int16)(f(x.lo), f(x.hi)); }

#define TEST_2(f, expr)                                                                \
    int OVERLOAD f(float x, float y) { return (expr) ? 1 : 0; }                          \
    int2 OVERLOAD f(float2 x, float2 y) { return (int2)(-f(x.s0, y.s0), -f(x.s1, y.s1)); } \
    int3 OVERLOAD f(float3 x, float3 y)                                                  \
    {                                                                                  \
        return (int3)(-f(x.s0, y.s0), -f(x.s1, y.s1), -f(x.s2, y.s2));                    \
    }                                                                                  \
    int4 OVERLOAD f(float4 x, float4 y) { return (int4)(f(x.lo, y.lo), f(x.hi, y.hi)); }  \
    int8 OVERLOAD f(float8 x, float8 y) { return (int8)(f(x.lo, y.lo), f(x.hi, y.hi)); }  \
    int16 OVERLOAD f(float16 x, float16 y) { return (int16)(f(x.lo, y.lo), f(x.hi, y.hi)); }

TEST_1(isnan, x != x)
TEST_1(isinf, (as_uint(x) & 0x7fffffffu) == 0x7f800000u)
TEST_1(isfinite, (as_uint(x) & 0x7f800000u) != 0x7f800000u)
TEST_1(isnormal, (as_uint(x) & 0x7f800000u) != 0x7f800000u && (as_uint(x) & 0x7f800000u) != 0)
TEST_1(signbit, as_int(x) < 0)
TEST_2(isequal, x == y)
TEST_2(isnotequal, x != y)
TEST_2(isgreater, x > y)
TEST_2(isgreaterequal, x >= y)
TEST_2(isless, x < y)
TEST_2(islessequal, x <= y)
TEST_2(islessgreater, x < y || x > y)
TEST_2(isordered, x == x && y == y)
TEST_2(isunordered, x != x || y != y)

/* select(a, b, c): c ? b : a, per element by the most significant bit of c for
 * vectors. */
#define SELECT(T, C)                                                                   \
    T OVERLOAD select(T a, T b, C c) { return c ? b : a; }                               \
    T##2 OVERLOAD select(T##2 a, T##2 b, C##2 c) { return as_int2(c) < 0 ? b : a; }       \
    T##3 OVERLOAD select(T##3 a, T##3 b, C##3 c) { return as_int3(c) < 0 ? b : a; }       \
    T##4 OVERLOAD select(T##4 a, T##4 b, C##4 c) { return as_int4(c) < 0 ? b : a; }       \
    T##8 OVERLOAD select(T##8 a, T##8 b, C##8 c) { return as_int8(c) < 0 ? b : a; }       \
    T##16 OVERLOAD select(T##16 a, T##16 b, C##16 c) { return as_int16(c) < 0 ? b : a; }
SELECT(float, int)
SELECT(float, uint)

float OVERLOAD bitselect(float a, float b, float c)
{
    return as_float((as_uint(a) & ~as_uint(c)) | (as_uint(b) & as_uint(c)));
}
VEC_3(float, float, bitselect)
