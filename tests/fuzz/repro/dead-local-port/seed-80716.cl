#pragma OPENCL FP_CONTRACT OFF
/* helpers of the clhls differential tests (tests/fuzz/gen.c) */
uint fz_mix(uint h, uint v) { h = (h ^ v) * 0x01000193u; return h ^ (h >> 13); }
/* NaN -> 1.5, |x| < 1e-30 (denormals, -0) -> +0: flushing devices agree */
float fz_f(float x) { return isnan(x) ? 1.5f : (fabs(x) < 1e-30f ? 0.0f : x); }
float4 fz_f4(float4 x) { return select(select(x, (float4)(0.0f), fabs(x) < (float4)(1e-30f)), (float4)(1.5f), isnan(x)); }
int fz_div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
int fz_mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
long fz_div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
long fz_mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
uint fz_div_uint(uint a, uint b) { return b == 0u ? a : a / b; }
uint fz_mod_uint(uint a, uint b) { return b == 0u ? a : a % b; }
ulong fz_div_ulong(ulong a, ulong b) { return b == 0UL ? a : a / b; }
ulong fz_mod_ulong(ulong a, ulong b) { return b == 0UL ? a : a % b; }
#ifdef FZ_REFERENCE
/* signed abs_diff by its definition (PoCL 3.1 is wrong when the difference
 * exceeds the signed type's maximum, as abs_diff(2, INT_MIN)) */
#define FZ_ABS_DIFF(x, y) fz_abs_diff(x, y)
uint __attribute__((overloadable)) fz_abs_diff(int a, int b) { return a > b ? (uint)a - (uint)b : (uint)b - (uint)a; }
ulong __attribute__((overloadable)) fz_abs_diff(long a, long b) { return a > b ? (ulong)a - (ulong)b : (ulong)b - (ulong)a; }
/* the work-group functions by their definition, for a reference without them; every
 * loop runs over the whole group (PoCL 3.1 gives every work-item the last one's
 * scan when a loop after a barrier stops at the work-item's own local id) */
#define FZ_WG_SCRATCH(n) __local ulong fz_wgs[n]
#define FZ_WG(fn, T, x) fz_wg_##fn##_##T(fz_wgs, x)
#define FZ_WG_BROADCAST1(T, x, a) fz_wg_broadcast_##T(fz_wgs, x, a)
#define FZ_WG_BROADCAST2(T, x, a, b) fz_wg_broadcast_##T(fz_wgs, x, (a) + get_local_size(0) * (b))
#define FZ_WG_BROADCAST3(T, x, a, b, c) fz_wg_broadcast_##T(fz_wgs, x, (a) + get_local_size(0) * ((b) + get_local_size(1) * (c)))
uint fz_wg_lid(void) { return (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2))); }
uint fz_wg_size(void) { return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)); }
void fz_wg_put(__local ulong *s, ulong x) { barrier(CLK_LOCAL_MEM_FENCE); s[fz_wg_lid()] = x; barrier(CLK_LOCAL_MEM_FENCE); }
#define FZ_WG_FUNCS(T, FROM, MAXV, MINV) \
T fz_wg_reduce_add_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = 0; for (uint i = 0; i < fz_wg_size(); i++) a += FROM(s[i]); return a; } \
T fz_wg_scan_inclusive_add_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = 0; for (uint i = 0; i < fz_wg_size(); i++) a += i <= fz_wg_lid() ? FROM(s[i]) : (T)0; return a; } \
T fz_wg_scan_exclusive_add_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = 0; for (uint i = 0; i < fz_wg_size(); i++) a += i < fz_wg_lid() ? FROM(s[i]) : (T)0; return a; } \
T fz_wg_reduce_min_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MAXV; for (uint i = 0; i < fz_wg_size(); i++) a = min(a, FROM(s[i])); return a; } \
T fz_wg_reduce_max_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MINV; for (uint i = 0; i < fz_wg_size(); i++) a = max(a, FROM(s[i])); return a; } \
T fz_wg_scan_inclusive_min_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MAXV; for (uint i = 0; i < fz_wg_size(); i++) a = i <= fz_wg_lid() ? min(a, FROM(s[i])) : a; return a; } \
T fz_wg_scan_inclusive_max_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MINV; for (uint i = 0; i < fz_wg_size(); i++) a = i <= fz_wg_lid() ? max(a, FROM(s[i])) : a; return a; } \
T fz_wg_scan_exclusive_min_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MAXV; for (uint i = 0; i < fz_wg_size(); i++) a = i < fz_wg_lid() ? min(a, FROM(s[i])) : a; return a; } \
T fz_wg_scan_exclusive_max_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MINV; for (uint i = 0; i < fz_wg_size(); i++) a = i < fz_wg_lid() ? max(a, FROM(s[i])) : a; return a; } \
T fz_wg_broadcast_##T(__local ulong *s, T x, size_t at) { fz_wg_put(s, (ulong)x); return FROM(s[at]); }
#define FZ_FROM_INT(v) as_int((uint)(v))
#define FZ_FROM_UINT(v) ((uint)(v))
#define FZ_FROM_LONG(v) as_long(v)
#define FZ_FROM_ULONG(v) (v)
FZ_WG_FUNCS(int, FZ_FROM_INT, INT_MAX, INT_MIN)
FZ_WG_FUNCS(uint, FZ_FROM_UINT, UINT_MAX, 0u)
FZ_WG_FUNCS(long, FZ_FROM_LONG, LONG_MAX, LONG_MIN)
FZ_WG_FUNCS(ulong, FZ_FROM_ULONG, ULONG_MAX, 0UL)
int fz_wg_any_int(__local ulong *s, int p) { fz_wg_put(s, p != 0); int a = 0; for (uint i = 0; i < fz_wg_size(); i++) a |= (int)s[i]; return a; }
int fz_wg_all_int(__local ulong *s, int p) { fz_wg_put(s, p != 0); int a = 1; for (uint i = 0; i < fz_wg_size(); i++) a &= (int)s[i]; return a; }
#else
#define FZ_ABS_DIFF(x, y) abs_diff(x, y)
#define FZ_WG_SCRATCH(n)
#define FZ_WG(fn, T, x) work_group_##fn(x)
#define FZ_WG_BROADCAST1(T, x, a) work_group_broadcast(x, (size_t)(a))
#define FZ_WG_BROADCAST2(T, x, a, b) work_group_broadcast(x, (size_t)(a), (size_t)(b))
#define FZ_WG_BROADCAST3(T, x, a, b, c) work_group_broadcast(x, (size_t)(a), (size_t)(b), (size_t)(c))
#endif
struct s_k_80716 {
    int f0;
    ulong f1;
    uchar f2;
};
/* seed 80716: 2D NDRange, global 32 x 24 x 1, local 16 x 8 x 1; barriers in a group-uniform branch or loop */
__kernel __attribute__((reqd_work_group_size(16, 8, 1))) void k_80716(__global uint *restrict out, __global const uint *restrict in, __global uint *res)
{
    uint fz_gid = (uint)(get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2)));
    uint fz_lid = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
    __local uint fz_lm[128];
    __local uint fz_la[6];
    FZ_WG_SCRATCH(128);
    uint v0 = in[(fz_gid * 1u + 3u) & 1023u];
    int v1 = as_int((uint)(in[(fz_gid * 3u + 10u) & 1023u]));
    int v2 = as_int((uint)(in[(fz_gid * 5u + 17u) & 1023u]));
    uchar v3 = ((uchar)(in[(fz_gid * 7u + 24u) & 1023u]));
    ulong v4 = ((ulong)in[(fz_gid * 9u + 31u) & 1023u] << 32 | (ulong)in[(fz_gid + 20u) & 1023u]);
    int v5 = as_int((uint)(in[(fz_gid * 11u + 38u) & 1023u]));
    uchar v6 = ((uchar)(in[(fz_gid * 13u + 45u) & 1023u]));
    uint4 vu = ((const __global uint4 *)in)[(fz_gid + 7u) & 255u];
    float4 vf = fz_f4(as_float4(((const __global uint4 *)in)[(fz_gid + 8u) & 255u]));
    int a0[8];
    for (int j = 0; j < 8; j++)
        a0[j] = as_int((uint)(in[(fz_gid * 3u + (uint)j * 5u) & 1023u]));
    struct s_k_80716 st;
    st.f0 = as_int((uint)(in[(fz_gid * 41u + 143u) & 1023u]));
    st.f1 = ((ulong)in[(fz_gid * 43u + 150u) & 1023u] << 32 | (ulong)in[(fz_gid + 105u) & 1023u]);
    st.f2 = ((uchar)(in[(fz_gid * 45u + 157u) & 1023u]));
    for (int i0 = 0; i0 < 4; i0++) {
        if (fz_lid == 0u) { fz_la[0] = 0xffffffffu; fz_la[1] = 0xfffffffeu; fz_la[2] = 0x5aa99f08u; fz_la[3] = 0x98a8e362u; fz_la[4] = 0xfffffffdu; fz_la[5] = 0xfffffffdu; }
        barrier(CLK_LOCAL_MEM_FENCE);
        atomic_xor(&fz_la[3], v0);
        barrier(CLK_LOCAL_MEM_FENCE);
        v5 = as_int((uint)(fz_la[2]));
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if ((get_group_id(1) & 1u) == 0u) {
        v5 = FZ_WG_BROADCAST2(int, v5, 7, 6);
    }
    fz_lm[fz_lid] = ((uint)(((int)((fz_f(as_float(in[((uint)get_local_size(1)) & 1023u])) < -0x1.1ef5a2p-17f) ? as_int((uint)(st.f1)) : v2))));
    barrier(CLK_LOCAL_MEM_FENCE);
    v5 = as_int((uint)(fz_lm[(fz_lid + 127u) % 128u]));
    barrier(CLK_LOCAL_MEM_FENCE);
    uint fz_h = 0x811c9dc5u;
    fz_h = fz_mix(fz_h, (uint)(v0));
    fz_h = fz_mix(fz_h, (uint)(v1));
    fz_h = fz_mix(fz_h, (uint)(v2));
    fz_h = fz_mix(fz_h, (uint)(v3));
    fz_h = fz_mix(fz_h, (uint)(v4));
    fz_h = fz_mix(fz_h, (uint)((ulong)(v4) >> 32));
    fz_h = fz_mix(fz_h, (uint)(v5));
    fz_h = fz_mix(fz_h, (uint)(v6));
    fz_h = fz_mix(fz_h, as_uint((vu).s0));
    fz_h = fz_mix(fz_h, as_uint((vu).s1));
    fz_h = fz_mix(fz_h, as_uint((vu).s2));
    fz_h = fz_mix(fz_h, as_uint((vu).s3));
    fz_h = fz_mix(fz_h, as_uint((vf).s0));
    fz_h = fz_mix(fz_h, as_uint((vf).s1));
    fz_h = fz_mix(fz_h, as_uint((vf).s2));
    fz_h = fz_mix(fz_h, as_uint((vf).s3));
    for (int j = 0; j < 8; j++) {
        fz_h = fz_mix(fz_h, (uint)(a0[j]));
    }
    fz_h = fz_mix(fz_h, (uint)(st.f0));
    fz_h = fz_mix(fz_h, (uint)(st.f1));
    fz_h = fz_mix(fz_h, (uint)((ulong)(st.f1) >> 32));
    fz_h = fz_mix(fz_h, (uint)(st.f2));
    out[fz_gid] = fz_h;
}
