/* OpenCL C 1.2 section 6.12.12, vector misc functions: shuffle and shuffle2 for every
 * integer type, float and double, from vectors of n = 2, 4, 8 or 16 elements to
 * results of m = 2, 4, 8 or 16. Result element i is element mask[i] of x (shuffle),
 * or of x followed by y (shuffle2), counting only the low log2(n), or log2(2n), bits
 * of mask[i]. Each result element is a tree of two-input multiplexers on those bits
 * (n - 1 of them, or 2n - 1; log2(n) or log2(2n) deep). (A private array
 * read at the masked position would be one multiplexer per element, but the compiler
 * cannot keep every such array in registers: one built from two vectors is refused.) */
#include "common.h"

/* Element k & (n - 1) of x, and element k & (2n - 1) of x followed by y: the element
 * of either half chosen by the top bit. (Both halves are computed first, so that each
 * choice is a multiplexer, not a branch.) */
#define PICK_N(T, n, h)                                                                \
    static T OVERLOAD __clhls_pick(uint k, T##n x)                                       \
    {                                                                                  \
        T lo = __clhls_pick(k, x.lo), hi = __clhls_pick(k, x.hi);                      \
        return k & h ? hi : lo;                                                        \
    }
#define PICK2_N(T, n)                                                                  \
    static T OVERLOAD __clhls_pick2(uint k, T##n x, T##n y)                              \
    {                                                                                  \
        T lo = __clhls_pick(k, x), hi = __clhls_pick(k, y);                            \
        return k & n ? hi : lo;                                                        \
    }
#define PICK(T)                                                                        \
    static T OVERLOAD __clhls_pick(uint k, T##2 x)                                       \
    {                                                                                  \
        T lo = x.s0, hi = x.s1;                                                        \
        return k & 1 ? hi : lo;                                                        \
    }                                                                                  \
    PICK_N(T, 4, 2) PICK_N(T, 8, 4) PICK_N(T, 16, 8)                                   \
    PICK2_N(T, 2) PICK2_N(T, 4) PICK2_N(T, 8) PICK2_N(T, 16)

/* The m result elements f((uint)mask[i], ...), by halves of the mask. */
#define LANES_2(f, k, ...) f((uint)(k).s0, __VA_ARGS__), f((uint)(k).s1, __VA_ARGS__)
#define LANES_4(f, k, ...) LANES_2(f, (k).lo, __VA_ARGS__), LANES_2(f, (k).hi, __VA_ARGS__)
#define LANES_8(f, k, ...) LANES_4(f, (k).lo, __VA_ARGS__), LANES_4(f, (k).hi, __VA_ARGS__)
#define LANES_16(f, k, ...) LANES_8(f, (k).lo, __VA_ARGS__), LANES_8(f, (k).hi, __VA_ARGS__)

/* shuffle and shuffle2 from T##n to T##m, with mask type U##m. */
#define SHUFFLE_NM(T, U, n, m)                                                         \
    T##m OVERLOAD shuffle(T##n x, U##m mask)                                             \
    {                                                                                  \
        return (T##m)(LANES_##m(__clhls_pick, mask, x));                               \
    }                                                                                  \
    T##m OVERLOAD shuffle2(T##n x, T##n y, U##m mask)                                    \
    {                                                                                  \
        return (T##m)(LANES_##m(__clhls_pick2, mask, x, y));                             \
    }

#define SHUFFLE_N(T, U, n)                                                             \
    SHUFFLE_NM(T, U, n, 2) SHUFFLE_NM(T, U, n, 4) SHUFFLE_NM(T, U, n, 8)               \
    SHUFFLE_NM(T, U, n, 16)
#define SHUFFLE(T, U)                                                                  \
    PICK(T)                                                                            \
    SHUFFLE_N(T, U, 2) SHUFFLE_N(T, U, 4) SHUFFLE_N(T, U, 8) SHUFFLE_N(T, U, 16)

SHUFFLE(char, uchar)
SHUFFLE(uchar, uchar)
SHUFFLE(short, ushort)
SHUFFLE(ushort, ushort)
SHUFFLE(int, uint)
SHUFFLE(uint, uint)
SHUFFLE(long, ulong)
SHUFFLE(ulong, ulong)
SHUFFLE(float, uint)
SHUFFLE(double, ulong)
