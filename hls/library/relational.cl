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

/* select(a, b, c): c ? b : a; for vectors per element, by the most significant bit of
 * c's element (S: the signed type of c's element size). */
#define SELECT_N(T, C, S, n)                                                           \
    T##n OVERLOAD select(T##n a, T##n b, C##n c) { return as_##S##n(c) < (S##n)(0) ? b : a; }
#define SELECT(T, C, S)                                                                \
    T OVERLOAD select(T a, T b, C c) { return c ? b : a; }                               \
    SELECT_N(T, C, S, 2) SELECT_N(T, C, S, 3) SELECT_N(T, C, S, 4)                     \
    SELECT_N(T, C, S, 8) SELECT_N(T, C, S, 16)
SELECT(float, int, int)
SELECT(float, uint, int)

float OVERLOAD bitselect(float a, float b, float c)
{
    return as_float((as_uint(a) & ~as_uint(c)) | (as_uint(b) & as_uint(c)));
}
VEC_3(float, float, bitselect)

/* any / all: the most significant bit of any / every element. */
#define ANY_ALL(T)                                                                     \
    int OVERLOAD any(T x) { return x < 0; }                                              \
    int OVERLOAD all(T x) { return x < 0; }                                              \
    int OVERLOAD any(T##2 x) { return any(x.s0) | any(x.s1); }                           \
    int OVERLOAD all(T##2 x) { return all(x.s0) & all(x.s1); }                           \
    int OVERLOAD any(T##3 x) { return any(x.s0) | any(x.s1) | any(x.s2); }               \
    int OVERLOAD all(T##3 x) { return all(x.s0) & all(x.s1) & all(x.s2); }               \
    int OVERLOAD any(T##4 x) { return any(x.lo) | any(x.hi); }                           \
    int OVERLOAD all(T##4 x) { return all(x.lo) & all(x.hi); }                           \
    int OVERLOAD any(T##8 x) { return any(x.lo) | any(x.hi); }                           \
    int OVERLOAD all(T##8 x) { return all(x.lo) & all(x.hi); }                           \
    int OVERLOAD any(T##16 x) { return any(x.lo) | any(x.hi); }                          \
    int OVERLOAD all(T##16 x) { return all(x.lo) & all(x.hi); }
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

/* select and bitselect for the integer types. */
#define INT_SELECT(T, S, U)                                                            \
    SELECT(T, S, S) SELECT(T, U, S)                                                    \
    T OVERLOAD bitselect(T a, T b, T c) { return (a & ~c) | (b & c); }                   \
    VEC_3(T, T, bitselect)
INT_SELECT(char, char, uchar)
INT_SELECT(uchar, char, uchar)
INT_SELECT(short, short, ushort)
INT_SELECT(ushort, short, ushort)
INT_SELECT(int, int, uint)
INT_SELECT(uint, int, uint)
INT_SELECT(long, long, ulong)
INT_SELECT(ulong, long, ulong)
