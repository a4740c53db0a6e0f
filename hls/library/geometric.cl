/* OpenCL C 1.2 section 6.12.5, geometric functions for float, float2, float3 and
 * float4: dot, cross, length, distance, normalize and their fast_ versions. Sums are
 * taken left to right with a multiply and an add per element (no fused rounding),
 * as a C loop over the elements would compute them. */
#include "common.h"

float OVERLOAD dot(float x, float y) { return x * y; }
float OVERLOAD dot(float2 x, float2 y) { return x.x * y.x + x.y * y.y; }
float OVERLOAD dot(float3 x, float3 y) { return x.x * y.x + x.y * y.y + x.z * y.z; }
float OVERLOAD dot(float4 x, float4 y)
{
    return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}

float3 OVERLOAD cross(float3 a, float3 b)
{
    return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
float4 OVERLOAD cross(float4 a, float4 b)
{
    return (float4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x,
                    0.0f);
}

#define GEOMETRIC(T)                                                                   \
    float OVERLOAD length(T p) { return sqrt(dot(p, p)); }                               \
    float OVERLOAD distance(T p0, T p1) { return length(p0 - p1); }                      \
    T OVERLOAD normalize(T p)                                                            \
    {                                                                                  \
        float l = length(p);                                                           \
        return l == 0.0f ? p : p / l;                                                  \
    }                                                                                  \
    float OVERLOAD fast_length(T p) { return half_sqrt(dot(p, p)); }                     \
    float OVERLOAD fast_distance(T p0, T p1) { return fast_length(p0 - p1); }            \
    T OVERLOAD fast_normalize(T p) { return p * half_rsqrt(dot(p, p)); }
GEOMETRIC(float)
GEOMETRIC(float2)
GEOMETRIC(float3)
GEOMETRIC(float4)
