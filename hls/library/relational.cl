/* OpenCL C 1.2 section 6.12.6, relational functions for float and double: the scalar
 * versions return 0 or 1 (int), the vector versions 0 or -1 per element (intn for
 * float, longn for double); select and bitselect. */
#include "common.h"

/* Scalar test f(x) -> int, and its vector versions giving -1 for true in I, the
 * signed integer type of T's size. */
#define TEST_1(f, T, I, expr)                                                          \
    int OVERLOAD f(T x) { return (expr) ? 1 : 0; }                                       \
    I##2 OVERLOAD f(T##2 x) { return (I##2)(-(I)f(x.s0), -(I)f(x.s1)); }                 \
    I##3 OVERLOAD f(T##3 x) { return (I##3)(-(I)f(x.s0), -(I)f(x.s1), -(I)f(x.s2)); }    \
    I##4 OVERLOAD f(T##4 x) { return (I##4)(f(x.lo), f(x.hi)); }                         \
    I##8 OVERLOAD f(T##8 x) { return (I##8)(f(x.lo), f(x.hi)); }                         \
    I##16 OVERLOAD f(T##16 x) { return (I##16)(f(x.lo), f(x.hi)); }

#define TEST_2(f, T, I, expr)                                                          \
    int OVERLOAD f(T x, T y) { return (expr) ? 1 : 0; }                                  \
    I##2 OVERLOAD f(T##2 x, T##2 y) { return (I##2)(-(I)f(x.s0, y.s0), -(I)f(x.s1, y.s1)); } \
    I##3 OVERLOAD f(T##3 x, T##3 y)                                                      \
    {                                                                                  \
        return (I##3)(-(I)f(x.s0, y.s0), -(I)f(x.s1, y.s1), -(I)f(x.s2, y.s2));           \
    }                                                                                  \
    I##4 OVERLOAD f(T##4 x, T##4 y) { return (I##4)(f(x.lo, y.lo), f(x.hi, y.hi)); }      \
    I##8 OVERLOAD f(T##8 x, T##8 y) { return (I##8)(f(x.lo, y.lo), f(x.hi, y.hi)); }      \
    I##16 OVERLOAD f(T##16 x, T##16 y) { return (I##16)(f(x.lo, y.lo), f(x.hi, y.hi)); }

/* The tests for T, whose bits are the unsigned U (ABS: all but the sign bit, EXP: the
 * exponent's bits, which are INF's too). */
#define RELATIONAL(T, I, U, ABS, EXP)                                                  \
    TEST_1(isnan, T, I, x != x)                                                        \
    TEST_1(isinf, T, I, (as_##U(x) & ABS) == EXP)                                      \
    TEST_1(isfinite, T, I, (as_##U(x) & EXP) != EXP)                                   \
    TEST_1(isnormal, T, I, (as_##U(x) & EXP) != EXP && (as_##U(x) & EXP) != 0)         \
    TEST_1(signbit, T, I, as_##I(x) < 0)                                               \
    TEST_2(isequal, T, I, x == y)                                                      \
    TEST_2(isnotequal, T, I, x != y)                                                   \
    TEST_2(isgreater, T, I, x > y)                                                     \
    TEST_2(isgreaterequal, T, I, x >= y)                                               \
    TEST_2(isless, T, I, x < y)                                                        \
    TEST_2(islessequal, T, I, x <= y)                                                  \
    TEST_2(islessgreater, T, I, x < y || x > y)                                        \
    TEST_2(isordered, T, I, x == x && y == y)                                          \
    TEST_2(isunordered, T, I, x != x || y != y)
RELATIONAL(float, int, uint, 0x7fffffffu, 0x7f800000u)
RELATIONAL(double, long, ulong, 0x7fffffffffffffffUL, 0x7ff0000000000000UL)

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
SELECT(double, long, long)
SELECT(double, ulong, long)

/* bitselect on the bits of T (as the unsigned U). */
#define FP_BITSELECT(T, U)                                                             \
    T OVERLOAD bitselect(T a, T b, T c)                                                \
    {                                                                                  \
        return as_##T((as_##U(a) & ~as_##U(c)) | (as_##U(b) & as_##U(c)));            \
    }                                                                                  \
    VEC_3(T, T, bitselect)
FP_BITSELECT(float, uint)
FP_BITSELECT(double, ulong)

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
