/* OpenCL C 1.2 section 6.12.5, geometric functions for float, float2, float3 and
 * float4 and the same sizes of double: dot, cross, length, distance, normalize, and
 * for float their fast_ versions. Sums are taken left to right with a multiply and an
 * add per element (no fused rounding), as a C loop over the elements would compute
 * them. */
#include "common.h"

#define DOT_CROSS(T)                                                                   \
    T OVERLOAD dot(T x, T y) { return x * y; }                                           \
    T OVERLOAD dot(T##2 x, T##2 y) { return x.x * y.x + x.y * y.y; }                     \
    T OVERLOAD dot(T##3 x, T##3 y) { return x.x * y.x + x.y * y.y + x.z * y.z; }         \
    T OVERLOAD dot(T##4 x, T##4 y)                                                     \
    {                                                                                  \
        return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;                            \
    }                                                                                  \
    T##3 OVERLOAD cross(T##3 a, T##3 b)                                                \
    {                                                                                  \
        return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); \
    }                                                                                  \
    T##4 OVERLOAD cross(T##4 a, T##4 b)                                                \
    {                                                                                  \
        return (T##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, \
                      (T)0);                                                           \
    }
DOT_CROSS(float)
DOT_CROSS(double)

/* length, distance, normalize of V, a vector (or scalar) of the scalar T. */
#define GEOMETRIC(T, V)                                                                \
    T OVERLOAD length(V p) { return sqrt(dot(p, p)); }                                   \
    T OVERLOAD distance(V p0, V p1) { return length(p0 - p1); }                          \
    V OVERLOAD normalize(V p)                                                            \
    {                                                                                  \
        T l = length(p);                                                               \
        return l == (T)0 ? p : p / l;                                                  \
    }
#define FAST_GEOMETRIC(T)                                                              \
    float OVERLOAD fast_length(T p) { return half_sqrt(dot(p, p)); }                     \
    float OVERLOAD fast_distance(T p0, T p1) { return fast_length(p0 - p1); }            \
    T OVERLOAD fast_normalize(T p) { return p * half_rsqrt(dot(p, p)); }
GEOMETRIC(float, float)
GEOMETRIC(float, float2)
GEOMETRIC(float, float3)
GEOMETRIC(float, float4)
GEOMETRIC(double, double)
GEOMETRIC(double, double2)
GEOMETRIC(double, double3)
GEOMETRIC(double, double4)
FAST_GEOMETRIC(float)
FAST_GEOMETRIC(float2)
FAST_GEOMETRIC(float3)
FAST_GEOMETRIC(float4)
