/* Shared by the OpenCL C built-in library of clhls (the .cl files of hls/library): definitions of
 * the functions opencl-c.h declares, compiled to one bitcode file that the compiler
 * links into every program, so that a built-in becomes ordinary hardware (its
 * branches and loops included). Vector versions apply the scalar one per element. */
#ifndef CLHLS_LIBRARY_COMMON_H
#define CLHLS_LIBRARY_COMMON_H

#define OVERLOAD __attribute__((overloadable))

/* Vector versions of a one-argument function, per element, for n = 2, 3, 4, 8, 16. */
#define VEC_1_(R, T, f)                                                                 \
    R##2 OVERLOAD f(T##2 x) { return (R##2)(f(x.s0), f(x.s1)); }                         \
    R##3 OVERLOAD f(T##3 x) { return (R##3)(f(x.s0), f(x.s1), f(x.s2)); }                \
    R##4 OVERLOAD f(T##4 x) { return (R##4)(f(x.lo), f(x.hi)); }                         \
    R##8 OVERLOAD f(T##8 x) { return (R##8)(f(x.lo), f(x.hi)); }                         \
    R##16 OVERLOAD f(T##16 x) { return (R##16)(f(x.lo), f(x.hi)); }

/* ... of a two-argument function. */
#define VEC_2_(R, T, f)                                                                 \
    R##2 OVERLOAD f(T##2 x, T##2 y) { return (R##2)(f(x.s0, y.s0), f(x.s1, y.s1)); }      \
    R##3 OVERLOAD f(T##3 x, T##3 y)                                                      \
    {                                                                                  \
        return (R##3)(f(x.s0, y.s0), f(x.s1, y.s1), f(x.s2, y.s2));                       \
    }                                                                                  \
    R##4 OVERLOAD f(T##4 x, T##4 y) { return (R##4)(f(x.lo, y.lo), f(x.hi, y.hi)); }      \
    R##8 OVERLOAD f(T##8 x, T##8 y) { return (R##8)(f(x.lo, y.lo), f(x.hi, y.hi)); }      \
    R##16 OVERLOAD f(T##16 x, T##16 y) { return (R##16)(f(x.lo, y.lo), f(x.hi, y.hi)); }

/* ... of a three-argument function. */
#define VEC_3_(R, T, f)                                                                 \
    R##2 OVERLOAD f(T##2 x, T##2 y, T##2 z)                                              \
    {                                                                                  \
        return (R##2)(f(x.s0, y.s0, z.s0), f(x.s1, y.s1, z.s1));                          \
    }                                                                                  \
    R##3 OVERLOAD f(T##3 x, T##3 y, T##3 z)                                              \
    {                                                                                  \
        return (R##3)(f(x.s0, y.s0, z.s0), f(x.s1, y.s1, z.s1), f(x.s2, y.s2, z.s2));      \
    }                                                                                  \
    R##4 OVERLOAD f(T##4 x, T##4 y, T##4 z)                                              \
    {                                                                                  \
        return (R##4)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi));                          \
    }                                                                                  \
    R##8 OVERLOAD f(T##8 x, T##8 y, T##8 z)                                              \
    {                                                                                  \
        return (R##8)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi));                          \
    }                                                                                  \
    R##16 OVERLOAD f(T##16 x, T##16 y, T##16 z)                                          \
    {                                                                                  \
        return (R##16)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi));                         \
    }

/* The arguments expanded first (R may be a macro such as UNSIGNED(T)). */
#define VEC_1(R, T, f) VEC_1_(R, T, f)
#define VEC_2(R, T, f) VEC_2_(R, T, f)
#define VEC_3(R, T, f) VEC_3_(R, T, f)

/* Every integer type, for a macro M(T) defining the scalar and vector versions. */
#define FOR_INTEGERS(M)                                                                \
    M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong)

#endif
