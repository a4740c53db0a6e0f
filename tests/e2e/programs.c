/* End-to-end: constructs that published OpenCL programs use and that must run
 * unchanged, all kernels of one program (the hardware is built once). Functions of
 * every linkage (plain C99 `inline`, `static inline`, `extern inline`, plain), one
 * passing the address of a private variable (an output pointer, a struct returned by
 * value: Philox's mulhilo, complex multiplication). Struct and array copies between
 * address spaces: __global to __local and back through a run-time index, __constant
 * to __local, by-value struct arguments of 12 and 44 bytes stored whole, a 160-byte
 * struct (a loop of words), memcpy and memset of a run-time length, memmove within a
 * buffer. Work-item functions with the dimension known only at run time, from 0 to
 * 4 (past get_work_dim()), in 1-D and 2-D NDRanges with offsets. Vector expressions:
 * literals of mixed scalar and vector parts, broadcasts, swizzles (.xyzw, .s0123,
 * .lo, .hi, .even, .odd) read and written, relational results as -1/0, built-ins of
 * the common, math, geometric, relational and integer families on vectors of 2, 3,
 * 4, 8 and 16 float, int, uchar and double elements, conversions and as_type. Every
 * result is checked against a host computation. */
#include "e2e.h"

#include <math.h>
#include <stdint.h>

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    /* (2) functions of every linkage */
    "inline uint mulhilo(uint a, uint b, uint *hip) { *hip = mul_hi(a, b); return a * b; }\n"
    "static inline float sq(float x) { return x * x; }\n"
    "extern inline float cube(float x) { return x * x * x; }\n"
    "float plus_one(float x) { return x + 1.0f; }\n"
    "typedef struct { float re, im; } cplx;\n"
    "inline cplx cmul(cplx a, cplx b)\n"
    "{\n"
    "    cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};\n"
    "    return r;\n"
    "}\n"
    "inline void cmul_to(cplx a, cplx b, cplx *r) { *r = cmul(a, b); }\n"
    "__kernel void inlines(__global const uint *u, __global uint *ou,\n"
    "                      __global const float *f, __global float *of)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    uint hi, lo = mulhilo(u[2 * i], u[2 * i + 1], &hi);\n"
    "    ou[2 * i] = lo;\n"
    "    ou[2 * i + 1] = hi;\n"
    "    cplx a = {f[4 * i], f[4 * i + 1]}, b = {f[4 * i + 2], f[4 * i + 3]}, r;\n"
    "    cmul_to(a, b, &r);\n"
    "    of[4 * i] = r.re;\n"
    "    of[4 * i + 1] = r.im;\n"
    "    of[4 * i + 2] = sq(a.re) + cube(a.im);\n"
    "    of[4 * i + 3] = plus_one(b.re);\n"
    "}\n"
    /* (3) copies between address spaces */
    "typedef struct { float a; int b; float c; } s12;\n"
    "typedef struct { int v[10]; float f; } s44;\n"
    "typedef struct { int v[40]; } s160;\n"
    "__constant s12 table[4] = {{1.5f, 2, 3.5f}, {-1.0f, 7, 0.25f}, {8.0f, -3, 9.0f},\n"
    "                           {0.5f, 100, -2.0f}};\n"
    "__kernel void local_copies(__global const s12 *g, __global s12 *out,\n"
    "                           __global s12 *out2)\n"
    "{\n"
    "    __local s12 s[64], t[64];\n"
    "    int l = get_local_id(0), gid = get_global_id(0);\n"
    "    s[l] = g[gid];\n"
    "    t[l] = table[l & 3];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[gid] = s[63 - l];\n"
    "    s12 p = t[(l * 5) & 63];\n"
    "    p.b += l;\n"
    "    out2[gid] = p;\n"
    "}\n"
    "__kernel void struct_args(__global s12 *z, s12 a, __global s44 *zb, s44 b)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    z[i] = a;\n"
    "    z[i].b += i;\n"
    "    zb[i] = b;\n"
    "    zb[i].v[i % 10] = i;\n"
    "}\n"
    "__kernel void big_copy(__global const s160 *s, __global s160 *d)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    d[i] = s[(i * 7) % get_global_size(0)];\n"
    "}\n"
    "__kernel void run_time_copies(__global uchar *d, __global const uchar *s,\n"
    "                              __global const int *len)\n"
    "{\n"
    "    int i = get_global_id(0), n = len[i];\n"
    "    __builtin_memcpy(d + 32 * i, s + 32 * i, n);\n"
    "    __builtin_memset(d + 32 * i + n, 0x5a + i, 32 - n);\n"
    "}\n"
    "__kernel void moves(__global uchar *d, __global const int *len)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    __builtin_memmove(d + 64 * i + 1, d + 64 * i, len[i]);\n"
    "    __builtin_memmove(d + 64 * i + 40, d + 64 * i + 44, 12);\n"
    "}\n"
    /* (7) vector expressions */
    "__kernel void vexpr(__global const float4 *x, __global float4 *o)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float4 a = x[2 * i], b = x[2 * i + 1];\n"
    "    o[i] = (float4)(a.x, b.y, a.z + b.z, 7.0f) * 2.0f - fabs(b) + max(a, b) +\n"
    "           (float4)(min(a.x, b.w));\n"
    "}\n"
    "__kernel void vforms(__global const float *x, __global float *o, __global int *oi)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    __global const float *in = x + 16 * i;\n"
    "    __global float *out = o + 64 * i;\n"
    "    __global int *outi = oi + 32 * i;\n"
    "    float4 a = vload4(0, in), b = vload4(1, in);\n"
    "    float8 c = vload8(1, in);\n"
    "    float4 m = (float4)(a.xy, 1.0f, b.w);\n"
    "    float3 t = (float3)(a.s2, b.s01);\n"
    "    float8 e = (float8)(a, b);\n"
    "    float4 w = a;\n"
    "    w.xz = b.yx;\n"
    "    w.hi = w.lo * 2.0f;\n"
    "    w.s3 = -w.s0;\n"
    "    float16 s = (float16)(a, b, c);\n"
    "    s.s89ab = s.s0123 + s.scdef;\n"
    "    s.odd = s.even * 0.5f;\n"
    "    vstore4(m, 0, out);\n"
    "    vstore4(e.even, 1, out);\n"
    "    vstore4(e.odd, 2, out);\n"
    "    vstore4(w, 3, out);\n"
    "    vstore3(t, 0, out + 16);\n"
    "    vstore3(cross(t, a.wzy), 1, out + 16);\n"
    "    out[22] = dot(a, b);\n"
    "    out[23] = length(a.xy);\n"
    "    vstore16(s, 0, out + 24);\n"
    "    vstore4(max(a, 0.5f), 0, out + 40);\n"
    "    vstore4(min(a, b), 1, out + 40);\n"
    "    vstore4(clamp(a, -1.0f, 1.0f), 2, out + 40);\n"
    "    vstore4(mix(a, b, 0.25f), 3, out + 40);\n"
    "    vstore2(fabs(c.lo.hi) + sqrt(fabs(c.hi.lo)), 0, out + 56);\n"
    "    vstore4(floor(b) + (float4)(ceil(a.s3)), 0, out + 58);\n"
    "    int4 lt = a < b;\n"
    "    vstore4(lt, 0, outi);\n"
    "    vstore4(isequal(a, (float4)(b.x)), 1, outi);\n"
    "    vstore4(select((int4)(1, 2, 3, 4), (int4)(10, 20, 30, 40), a > b), 2, outi);\n"
    "    vstore4(convert_int4_rtz(a * 10.0f), 3, outi);\n"
    "    vstore4(as_int4(as_uint4(b) ^ (uint4)(0x80000000u)), 4, outi);\n"
    "    outi[20] = any(lt);\n"
    "    outi[21] = all(lt);\n"
    "    vstore3(convert_int3(t) + (int3)(1), 0, outi + 22);\n"
    "    vstore2(isless(c.s37, c.s73), 0, outi + 25);\n"
    "    outi[27] = as_int(a.y) >> 20;\n"
    "}\n"
    "__kernel void vints(__global const int *x, __global int *o, __global uchar *oc)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    int4 a = vload4(0, x + 8 * i), b = vload4(1, x + 8 * i);\n"
    "    __global int *out = o + 48 * i;\n"
    "    __global uchar *outc = oc + 48 * i;\n"
    "    int8 e = (int8)(a.s10, b.hi, (int2)(7), a.w, 9);\n"
    "    int4 r = max(a, b) + min(a, 5) - as_int4(abs_diff(a, b));\n"
    "    int4 sh = (a >> 3) ^ (b << 2);\n"
    "    int16 big = (int16)(a, b, a + b, a - b);\n"
    "    big.sfedc = big.s0123;\n"
    "    big.even = big.odd + 1;\n"
    "    vstore8(e, 0, out);\n"
    "    vstore4(r, 2, out);\n"
    "    vstore4(sh, 3, out);\n"
    "    vstore16(big, 1, out);\n"
    "    vstore4(rotate(a, (int4)(1, 8, 31, 33)) + clamp(b, -100, 100), 8, out);\n"
    "    vstore4(as_int4(abs(a)) + (int4)(a > 0) + convert_int4(a.wzyx == b), 9, out);\n"
    "    vstore4(bitselect(a, b, (int4)(0x0f0f0f0f)) + hadd(a, b), 10, out);\n"
    "    uchar16 c16 = convert_uchar16_sat(big);\n"
    "    vstore16(add_sat(c16, (uchar16)(200)), 0, outc);\n"
    "    vstore16(clz(c16) + c16.sfedcba9876543210, 1, outc);\n"
    "    uchar3 u3 = c16.s5a3;\n"
    "    vstore3(u3 * (uchar)3, 0, outc + 32);\n"
    "    vstore8(convert_uchar8(upsample((uchar8)(1), c16.lo) > (ushort8)(300)) & (uchar8)(3),\n"
    "            0, outc + 40);\n"
    "}\n"
    "__kernel void vdoubles(__global const double *x, __global double *o)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    double4 a = vload4(0, x + 8 * i), b = vload4(1, x + 8 * i);\n"
    "    __global double *out = o + 32 * i;\n"
    "    double8 d = (double8)(a.xy, 0.5, b.w, (double2)(a.z), b.s01);\n"
    "    d.s7531 = d.s0246 * 2.0;\n"
    "    double2 p = d.lo.hi + d.hi.lo;\n"
    "    double16 s = (double16)(d, d.odd, (double4)(p, p.yx));\n"
    "    s.sf = fmax(a.x, b.x) + fabs(min(a.y, b.y));\n"
    "    vstore16(s, 0, out);\n"
    "    vstore4(max(a, b) - mix(a, b, 0.5) + (double4)(sqrt(fabs(a.w))), 4, out);\n"
    "    vstore4(convert_double4(convert_int4(a * 3.0)) + convert_double4(a < b), 5, out);\n"
    "    vstore4(as_double4(as_long4(b) ^ (long4)(0x8000000000000000L)), 6, out);\n"
    "    vstore2(p, 0, out + 28);\n"
    "    double ip;\n"
    "    out[30] = fract(a.x * 1.25, &ip);\n"
    "    out[31] = ip;\n"
    "}\n";


/* OpenCL C 2.0: get_enqueued_local_size, and generic pointers (an inline function's
 * output pointer, struct copies through generic pointers to __global, __local and
 * private memory). */
static const char *src20 =
    "typedef struct { float a; int b; float c; } s12;\n"
    "inline void copy_to(s12 *d, const s12 *s) { *d = *s; }\n"
    "inline uint mulhilo(uint a, uint b, uint *hip) { *hip = mul_hi(a, b); return a * b; }\n"
    "__kernel void generic_copies(__global s12 *out, __global const s12 *in)\n"
    "{\n"
    "    __local s12 t[16];\n"
    "    int l = get_local_id(0), g = get_global_id(0);\n"
    "    copy_to(&t[l], &in[g]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    s12 p;\n"
    "    copy_to(&p, &t[15 - l]);\n"
    "    uint hi;\n"
    "    p.b = (int)mulhilo((uint)p.b, 0x9e3779b9u, &hi) ^ (int)hi;\n"
    "    copy_to(&out[g], &p);\n"
    "}\n"
    "__kernel void dims(__global ulong *o, int first)\n"
    "{\n"
    "    size_t w = get_global_id(0) - get_global_offset(0) +\n"
    "               (get_global_id(1) - get_global_offset(1)) * get_global_size(0);\n"
    "    for (int j = 0; j < 5; j++) {\n"
    "        int d = first + j;\n"
    "        __global ulong *p = o + (w * 5 + j) * 8;\n"
    "        p[0] = get_global_id(d);\n"
    "        p[1] = get_local_id(d);\n"
    "        p[2] = get_group_id(d);\n"
    "        p[3] = get_local_size(d);\n"
    "        p[4] = get_global_size(d);\n"
    "        p[5] = get_num_groups(d);\n"
    "        p[6] = get_global_offset(d);\n"
    "        p[7] = get_enqueued_local_size(d) * 16 + get_work_dim();\n"
    "    }\n"
    "}\n";

static int bad;

/* Reports one mismatch (and stops after a few). */
#define MISMATCH(...)                                                                 \
    do {                                                                              \
        fprintf(stderr, __VA_ARGS__);                                                 \
        if (++bad > 20)                                                               \
            _Exit(1);                                                                 \
    } while (0)

static int same_float(float got, float want)
{
    return e2e_fbits(got) == e2e_fbits(want);
}

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-5 * (fabs(want) + 1.0);
}

static void inlines(e2e_env *env, cl_program prog)
{
    enum { N = 64 };
    unsigned seed = 4242;
    cl_uint u[2 * N];
    float f[4 * N];
    for (int i = 0; i < 2 * N; i++)
        u[i] = e2e_xorshift(&seed);
    for (int i = 0; i < 4 * N; i++)
        f[i] = (float)(int)(e2e_xorshift(&seed) % 2001 - 1000) * 0.125f;
    cl_mem bu = e2e_buffer(env, sizeof u, u), bf = e2e_buffer(env, sizeof f, f);
    cl_mem bou = e2e_buffer(env, sizeof u, NULL), bof = e2e_buffer(env, sizeof f, NULL);
    cl_kernel k = e2e_kernel(prog, "inlines");
    E2E_ARG(k, 0, bu);
    E2E_ARG(k, 1, bou);
    E2E_ARG(k, 2, bf);
    E2E_ARG(k, 3, bof);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    cl_uint ou[2 * N];
    float of[4 * N];
    e2e_read(env, bou, sizeof ou, ou);
    e2e_read(env, bof, sizeof of, of);
    for (int i = 0; i < N; i++) {
        uint64_t p = (uint64_t)u[2 * i] * u[2 * i + 1];
        if (ou[2 * i] != (cl_uint)p || ou[2 * i + 1] != (cl_uint)(p >> 32))
            MISMATCH("inlines[%d]: mulhilo %08x %08x, expected %08x %08x\n", i, ou[2 * i],
                     ou[2 * i + 1], (cl_uint)p, (cl_uint)(p >> 32));
        float are = f[4 * i], aim = f[4 * i + 1], bre = f[4 * i + 2], bim = f[4 * i + 3];
        float want[4] = {are * bre - aim * bim, are * bim + aim * bre,
                         are * are + aim * aim * aim, bre + 1.0f};
        for (int j = 0; j < 4; j++)
            if (!same_float(of[4 * i + j], want[j]))
                MISMATCH("inlines[%d][%d] = %g, expected %g\n", i, j, of[4 * i + j], want[j]);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bu), clReleaseMemObject(bf), clReleaseMemObject(bou),
        clReleaseMemObject(bof);
}

/* The host's view of the kernels' structs. */
typedef struct {
    cl_float a;
    cl_int b;
    cl_float c;
} s12;
typedef struct {
    cl_int v[10];
    cl_float f;
} s44;
typedef struct {
    cl_int v[40];
} s160;

static int same_s12(const s12 *x, const s12 *y)
{
    return same_float(x->a, y->a) && x->b == y->b && same_float(x->c, y->c);
}

static void copies(e2e_env *env, cl_program prog)
{
    enum { N = 128, L = 64 };
    unsigned seed = 99;
    static const s12 table[4] = {{1.5f, 2, 3.5f}, {-1.0f, 7, 0.25f}, {8.0f, -3, 9.0f},
                                 {0.5f, 100, -2.0f}};
    s12 g[N], out[N], out2[N];
    for (int i = 0; i < N; i++)
        g[i] = (s12){(float)(e2e_xorshift(&seed) % 1000) * 0.5f, (cl_int)e2e_xorshift(&seed),
                     -(float)i};
    cl_mem bg = e2e_buffer(env, sizeof g, g);
    cl_mem bout = e2e_buffer(env, sizeof out, NULL), bout2 = e2e_buffer(env, sizeof out2, NULL);
    cl_kernel k = e2e_kernel(prog, "local_copies");
    E2E_ARG(k, 0, bg);
    E2E_ARG(k, 1, bout);
    E2E_ARG(k, 2, bout2);
    size_t gs = N, ls = L;
    EXPECT(e2e_run(env, k, 1, NULL, &gs, &ls) == CL_COMPLETE);
    e2e_read(env, bout, sizeof out, out);
    e2e_read(env, bout2, sizeof out2, out2);
    for (int i = 0; i < N; i++) {
        int l = i % L, base = i - l;
        s12 want2 = table[((l * 5) & 63) & 3];
        want2.b += l;
        if (!same_s12(&out[i], &g[base + L - 1 - l]) || !same_s12(&out2[i], &want2))
            MISMATCH("local_copies[%d]: {%g %d %g} {%g %d %g}\n", i, out[i].a, out[i].b,
                     out[i].c, out2[i].a, out2[i].b, out2[i].c);
    }
    clReleaseKernel(k);

    /* by-value structs of 12 and 44 bytes stored whole */
    s12 a = {2.5f, -77, 1e6f};
    s44 b = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, -0.5f};
    s44 zb[N];
    cl_mem bzb = e2e_buffer(env, sizeof zb, NULL);
    k = e2e_kernel(prog, "struct_args");
    E2E_ARG(k, 0, bout);
    E2E_ARG(k, 1, a);
    E2E_ARG(k, 2, bzb);
    E2E_ARG(k, 3, b);
    EXPECT(e2e_run(env, k, 1, NULL, &gs, NULL) == CL_COMPLETE);
    e2e_read(env, bout, sizeof out, out);
    e2e_read(env, bzb, sizeof zb, zb);
    for (int i = 0; i < N; i++) {
        s12 want = a;
        want.b += i;
        s44 wantb = b;
        wantb.v[i % 10] = i;
        if (!same_s12(&out[i], &want) || memcmp(&zb[i], &wantb, sizeof wantb))
            MISMATCH("struct_args[%d]: {%g %d %g}, v[0] %d f %g\n", i, out[i].a, out[i].b,
                     out[i].c, zb[i].v[0], zb[i].f);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bzb);

    /* a 160-byte struct: a loop of words */
    enum { B = 32 };
    s160 *big = malloc(2 * B * sizeof *big);
    EXPECT(big);
    for (int i = 0; i < B; i++)
        for (int j = 0; j < 40; j++)
            big[i].v[j] = (cl_int)e2e_xorshift(&seed);
    cl_mem bs = e2e_buffer(env, B * sizeof *big, big), bd = e2e_buffer(env, B * sizeof *big, NULL);
    k = e2e_kernel(prog, "big_copy");
    E2E_ARG(k, 0, bs);
    E2E_ARG(k, 1, bd);
    size_t bg_size = B;
    EXPECT(e2e_run(env, k, 1, NULL, &bg_size, NULL) == CL_COMPLETE);
    e2e_read(env, bd, B * sizeof *big, big + B);
    for (int i = 0; i < B; i++)
        if (memcmp(&big[B + i], &big[(i * 7) % B], sizeof *big))
            MISMATCH("big_copy[%d] differs\n", i);
    clReleaseKernel(k);
    clReleaseMemObject(bs), clReleaseMemObject(bd);
    free(big);

    /* memcpy and memset of a run-time length, memmove within a buffer */
    enum { R = 48 };
    cl_uchar s[32 * R], d[32 * R], m[64 * R];
    cl_int len[R];
    for (int i = 0; i < 32 * R; i++)
        s[i] = (cl_uchar)e2e_xorshift(&seed);
    for (int i = 0; i < 64 * R; i++)
        m[i] = (cl_uchar)e2e_xorshift(&seed);
    for (int i = 0; i < R; i++)
        len[i] = i % 33;
    cl_mem bsrc = e2e_buffer(env, sizeof s, s), bdst = e2e_filled_buffer(env, sizeof d / 4, 0);
    cl_mem blen = e2e_buffer(env, sizeof len, len), bm = e2e_buffer(env, sizeof m, m);
    k = e2e_kernel(prog, "run_time_copies");
    E2E_ARG(k, 0, bdst);
    E2E_ARG(k, 1, bsrc);
    E2E_ARG(k, 2, blen);
    size_t rs = R;
    EXPECT(e2e_run(env, k, 1, NULL, &rs, NULL) == CL_COMPLETE);
    e2e_read(env, bdst, sizeof d, d);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < 32; j++) {
            cl_uchar want = j < len[i] ? s[32 * i + j] : (cl_uchar)(0x5a + i);
            if (d[32 * i + j] != want)
                MISMATCH("run_time_copies[%d][%d] = %d, expected %d\n", i, j, d[32 * i + j],
                         want);
        }
    clReleaseKernel(k);
    k = e2e_kernel(prog, "moves");
    E2E_ARG(k, 0, bm);
    E2E_ARG(k, 1, blen);
    EXPECT(e2e_run(env, k, 1, NULL, &rs, NULL) == CL_COMPLETE);
    cl_uchar got[64 * R];
    e2e_read(env, bm, sizeof got, got);
    for (int i = 0; i < R; i++) {
        memmove(m + 64 * i + 1, m + 64 * i, (size_t)len[i]);
        memmove(m + 64 * i + 40, m + 64 * i + 44, 12);
        if (memcmp(got + 64 * i, m + 64 * i, 64))
            MISMATCH("moves[%d] differs\n", i);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bsrc), clReleaseMemObject(bdst), clReleaseMemObject(blen),
        clReleaseMemObject(bm), clReleaseMemObject(bg), clReleaseMemObject(bout),
        clReleaseMemObject(bout2);
}

/* get_*(d) for d = first..first+4 over an NDRange of `dim` dimensions. */
static void dims_run(e2e_env *env, cl_program prog, cl_uint dim, const size_t *offset,
                     const size_t *global, const size_t *local, int first)
{
    size_t n = global[0] * (dim > 1 ? global[1] : 1);
    cl_ulong *o = malloc(n * 5 * 8 * sizeof *o);
    EXPECT(o);
    cl_mem bo = e2e_buffer(env, n * 5 * 8 * sizeof *o, NULL);
    cl_kernel k = e2e_kernel(prog, "dims");
    E2E_ARG(k, 0, bo);
    E2E_ARG(k, 1, first);
    EXPECT(e2e_run(env, k, dim, offset, global, local) == CL_COMPLETE);
    e2e_read(env, bo, n * 5 * 8 * sizeof *o, o);
    for (size_t y = 0; y < (dim > 1 ? global[1] : 1); y++)
        for (size_t x = 0; x < global[0]; x++) {
            size_t w = x + y * global[0], id[2] = {x, y};
            for (int j = 0; j < 5; j++) {
                int d = first + j;
                cl_ulong want[8] = {0, 0, 0, 1, 1, 1, 0, 1 * 16 + dim};
                if (d >= 0 && (cl_uint)d < dim) {
                    want[0] = offset[d] + id[d];
                    want[1] = id[d] % local[d];
                    want[2] = id[d] / local[d];
                    want[3] = local[d];
                    want[4] = global[d];
                    want[5] = global[d] / local[d];
                    want[6] = offset[d];
                    want[7] = local[d] * 16 + dim;
                }
                for (int f = 0; f < 8; f++)
                    if (o[(w * 5 + j) * 8 + f] != want[f])
                        MISMATCH("dims (%u-D) item (%zu, %zu) d=%d function %d: %llu, "
                                 "expected %llu\n", dim, x, y, d, f,
                                 (unsigned long long)o[(w * 5 + j) * 8 + f],
                                 (unsigned long long)want[f]);
            }
        }
    clReleaseKernel(k);
    clReleaseMemObject(bo);
    free(o);
}

static void generic_copies(e2e_env *env, cl_program prog)
{
    enum { N = 64, L = 16 };
    s12 in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (s12){(float)i * 0.75f, i * 1000 + 7, -(float)i};
    cl_mem bin = e2e_buffer(env, sizeof in, in), bout = e2e_buffer(env, sizeof out, NULL);
    cl_kernel k = e2e_kernel(prog, "generic_copies");
    E2E_ARG(k, 0, bout);
    E2E_ARG(k, 1, bin);
    size_t g = N, l = L;
    EXPECT(e2e_run(env, k, 1, NULL, &g, &l) == CL_COMPLETE);
    e2e_read(env, bout, sizeof out, out);
    for (int i = 0; i < N; i++) {
        s12 want = in[i - i % L + L - 1 - i % L];
        uint64_t p = (uint64_t)(uint32_t)want.b * 0x9e3779b9u;
        want.b = (cl_int)((uint32_t)p ^ (uint32_t)(p >> 32));
        if (!same_s12(&out[i], &want))
            MISMATCH("generic_copies[%d]: {%g %d %g}, expected {%g %d %g}\n", i, out[i].a,
                     out[i].b, out[i].c, want.a, want.b, want.c);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bin), clReleaseMemObject(bout);
}

static void dims(e2e_env *env, cl_program prog)
{
    size_t off2[2] = {3, 5}, g2[2] = {8, 6}, l2[2] = {4, 3};
    dims_run(env, prog, 2, off2, g2, l2, 0);
    size_t off1[1] = {7}, g1[1] = {32}, l1[1] = {8};
    dims_run(env, prog, 1, off1, g1, l1, 0);
    dims_run(env, prog, 1, off1, g1, l1, -1); /* a negative int is a huge uint */
}

static float fmaxf_cl(float x, float y)
{
    return fmaxf(x, y);
}

static void vectors_float(e2e_env *env, cl_program prog)
{
    enum { N = 32 };
    unsigned seed = 31337;
    float x[16 * N];
    for (int i = 0; i < 16 * N; i++)
        x[i] = (float)(int)(e2e_xorshift(&seed) % 41 - 20) * 0.25f;
    for (int i = 0; i < N; i += 4) /* some equal elements for isequal and the selects */
        x[16 * i + 4] = x[16 * i];
    cl_mem bx = e2e_buffer(env, sizeof x, x);
    cl_mem bo = e2e_buffer(env, 64 * N * sizeof(float), NULL);
    cl_mem boi = e2e_buffer(env, 32 * N * sizeof(int), NULL);

    cl_kernel k = e2e_kernel(prog, "vexpr");
    E2E_ARG(k, 0, bx);
    E2E_ARG(k, 1, bo);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    float o[64 * N];
    cl_int oi[32 * N];
    e2e_read(env, bo, 4 * N * sizeof(float), o);
    for (int i = 0; i < N; i++) {
        const float *a = x + 8 * i, *b = x + 8 * i + 4;
        float lit[4] = {a[0], b[1], a[2] + b[2], 7.0f}, mn = fminf(a[0], b[3]);
        for (int j = 0; j < 4; j++) {
            float want = lit[j] * 2.0f - fabsf(b[j]) + fmaxf_cl(a[j], b[j]) + mn;
            if (!same_float(o[4 * i + j], want))
                MISMATCH("vexpr[%d].s%d = %g, expected %g\n", i, j, o[4 * i + j], want);
        }
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "vforms");
    E2E_ARG(k, 0, bx);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, boi);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, boi, sizeof oi, oi);
    for (int i = 0; i < N; i++) {
        const float *a = x + 16 * i, *b = a + 4, *c = a + 8;
        float w[64] = {0};
        int exact[64] = {0};
        /* m, e.even, e.odd, w */
        float m[4] = {a[0], a[1], 1.0f, b[3]};
        float e[8] = {a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]};
        float ww[4] = {b[1], a[1], b[0], a[3]};
        ww[2] = ww[0] * 2.0f, ww[3] = ww[1] * 2.0f;
        ww[3] = -ww[0];
        for (int j = 0; j < 4; j++) {
            w[j] = m[j], w[4 + j] = e[2 * j], w[8 + j] = e[2 * j + 1], w[12 + j] = ww[j];
            exact[j] = exact[4 + j] = exact[8 + j] = exact[12 + j] = 1;
        }
        float t[3] = {a[2], b[0], b[1]}, u[3] = {a[3], a[2], a[1]};
        float cr[3] = {t[1] * u[2] - t[2] * u[1], t[2] * u[0] - t[0] * u[2],
                       t[0] * u[1] - t[1] * u[0]};
        for (int j = 0; j < 3; j++)
            w[16 + j] = t[j], exact[16 + j] = 1, w[19 + j] = cr[j];
        w[22] = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        w[23] = sqrtf(a[0] * a[0] + a[1] * a[1]);
        float s[16];
        for (int j = 0; j < 16; j++)
            s[j] = a[j]; /* a, b, c are consecutive */
        for (int j = 0; j < 4; j++)
            s[8 + j] = s[j] + s[12 + j];
        for (int j = 0; j < 8; j++)
            s[2 * j + 1] = s[2 * j] * 0.5f;
        for (int j = 0; j < 16; j++)
            w[24 + j] = s[j], exact[24 + j] = 1;
        for (int j = 0; j < 4; j++) {
            w[40 + j] = fmaxf(a[j], 0.5f);
            w[44 + j] = fminf(a[j], b[j]);
            w[48 + j] = fminf(fmaxf(a[j], -1.0f), 1.0f);
            w[52 + j] = a[j] + (b[j] - a[j]) * 0.25f;
            exact[40 + j] = exact[44 + j] = exact[48 + j] = 1;
            w[58 + j] = floorf(b[j]) + ceilf(a[3]);
            exact[58 + j] = 1;
        }
        w[56] = fabsf(c[2]) + sqrtf(fabsf(c[4]));
        w[57] = fabsf(c[3]) + sqrtf(fabsf(c[5]));
        for (int j = 0; j < 62; j++)
            if (exact[j] ? !same_float(o[64 * i + j], w[j]) : !near(o[64 * i + j], w[j]))
                MISMATCH("vforms[%d] float %d = %g, expected %g\n", i, j, o[64 * i + j], w[j]);
        int wi[28];
        for (int j = 0; j < 4; j++) {
            wi[j] = a[j] < b[j] ? -1 : 0;
            wi[4 + j] = a[j] == b[0] ? -1 : 0;
            wi[8 + j] = a[j] > b[j] ? 10 * (j + 1) : j + 1;
            wi[12 + j] = (int)(a[j] * 10.0f);
            uint32_t bits;
            memcpy(&bits, &b[j], 4);
            wi[16 + j] = (int)(bits ^ 0x80000000u);
        }
        wi[20] = (wi[0] | wi[1] | wi[2] | wi[3]) ? 1 : 0;
        wi[21] = (wi[0] & wi[1] & wi[2] & wi[3]) ? 1 : 0;
        for (int j = 0; j < 3; j++)
            wi[22 + j] = (int)t[j] + 1;
        wi[25] = c[3] < c[7] ? -1 : 0;
        wi[26] = c[7] < c[3] ? -1 : 0;
        int32_t ay;
        memcpy(&ay, &a[1], 4);
        wi[27] = ay >> 20;
        for (int j = 0; j < 28; j++)
            if (oi[32 * i + j] != wi[j])
                MISMATCH("vforms[%d] int %d = %d, expected %d\n", i, j, oi[32 * i + j], wi[j]);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bx), clReleaseMemObject(bo), clReleaseMemObject(boi);
}

static int32_t rotl32(int32_t v, int n)
{
    uint32_t u = (uint32_t)v;
    n &= 31;
    return (int32_t)(n ? (u << n) | (u >> (32 - n)) : u);
}

static cl_uchar clz8(cl_uchar v)
{
    int n = 0;
    for (int b = 7; b >= 0 && !(v >> b & 1); b--)
        n++;
    return (cl_uchar)n;
}

static void vectors_int(e2e_env *env, cl_program prog)
{
    enum { N = 32 };
    unsigned seed = 2718;
    cl_int x[8 * N];
    for (int i = 0; i < 8 * N; i++)
        x[i] = (cl_int)(e2e_xorshift(&seed) % 601) - 300;
    for (int i = 0; i < N; i += 3)
        x[8 * i + 7] = x[8 * i];
    cl_mem bx = e2e_buffer(env, sizeof x, x);
    cl_mem bo = e2e_buffer(env, 48 * N * sizeof(cl_int), NULL);
    cl_mem bc = e2e_buffer(env, 48 * N, NULL);
    cl_kernel k = e2e_kernel(prog, "vints");
    E2E_ARG(k, 0, bx);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, bc);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    cl_int o[48 * N];
    cl_uchar oc[48 * N];
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, bc, sizeof oc, oc);
    for (int i = 0; i < N; i++) {
        const cl_int *a = x + 8 * i, *b = a + 4;
        cl_int w[44];
        cl_int e[8] = {a[1], a[0], b[2], b[3], 7, 7, a[3], 9};
        for (int j = 0; j < 8; j++)
            w[j] = e[j];
        for (int j = 0; j < 4; j++) {
            cl_int mx = a[j] > b[j] ? a[j] : b[j], mn = a[j] < 5 ? a[j] : 5;
            cl_int ad = a[j] > b[j] ? a[j] - b[j] : b[j] - a[j];
            w[8 + j] = mx + mn - ad;
            w[12 + j] = (a[j] >> 3) ^ (cl_int)((uint32_t)b[j] << 2);
        }
        cl_int big[16];
        for (int j = 0; j < 4; j++)
            big[j] = a[j], big[4 + j] = b[j], big[8 + j] = a[j] + b[j], big[12 + j] = a[j] - b[j];
        for (int j = 0; j < 4; j++)
            big[15 - j] = big[j];
        for (int j = 0; j < 8; j++)
            big[2 * j] = big[2 * j + 1] + 1;
        for (int j = 0; j < 16; j++)
            w[16 + j] = big[j];
        static const int rot[4] = {1, 8, 31, 33};
        for (int j = 0; j < 4; j++) {
            cl_int cl = b[j] < -100 ? -100 : b[j] > 100 ? 100 : b[j];
            w[32 + j] = (cl_int)((uint32_t)rotl32(a[j], rot[j]) + (uint32_t)cl);
            w[36 + j] = (a[j] < 0 ? -a[j] : a[j]) + (a[j] > 0 ? -1 : 0) + (a[3 - j] == b[j] ? -1 : 0);
            cl_int sel = (a[j] & ~0x0f0f0f0f) | (b[j] & 0x0f0f0f0f);
            w[40 + j] = (cl_int)((uint32_t)sel + (uint32_t)(((int64_t)a[j] + b[j]) >> 1));
        }
        for (int j = 0; j < 44; j++)
            if (o[48 * i + j] != w[j])
                MISMATCH("vints[%d] int %d = %d, expected %d\n", i, j, o[48 * i + j], w[j]);
        cl_uchar c16[16], wc[48];
        for (int j = 0; j < 16; j++)
            c16[j] = (cl_uchar)(big[j] < 0 ? 0 : big[j] > 255 ? 255 : big[j]);
        for (int j = 0; j < 16; j++) {
            wc[j] = (cl_uchar)(c16[j] + 200 > 255 ? 255 : c16[j] + 200);
            wc[16 + j] = (cl_uchar)(clz8(c16[j]) + c16[15 - j]);
        }
        wc[32] = (cl_uchar)(c16[5] * 3), wc[33] = (cl_uchar)(c16[10] * 3),
        wc[34] = (cl_uchar)(c16[3] * 3);
        for (int j = 0; j < 8; j++)
            wc[40 + j] = (cl_uchar)((256 | c16[j]) > 300 ? 3 : 0);
        for (int j = 0; j < 48; j++)
            if ((j < 35 || j >= 40) && oc[48 * i + j] != wc[j])
                MISMATCH("vints[%d] uchar %d = %d, expected %d\n", i, j, oc[48 * i + j], wc[j]);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bx), clReleaseMemObject(bo), clReleaseMemObject(bc);
}

static void vectors_double(e2e_env *env, cl_program prog)
{
    enum { N = 16 };
    unsigned seed = 1618;
    double x[8 * N];
    for (int i = 0; i < 8 * N; i++)
        x[i] = (double)((int)(e2e_xorshift(&seed) % 2001) - 1000) / 64.0;
    cl_mem bx = e2e_buffer(env, sizeof x, x);
    cl_mem bo = e2e_buffer(env, 32 * N * sizeof(double), NULL);
    cl_kernel k = e2e_kernel(prog, "vdoubles");
    E2E_ARG(k, 0, bx);
    E2E_ARG(k, 1, bo);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    double o[32 * N];
    e2e_read(env, bo, sizeof o, o);
    for (int i = 0; i < N; i++) {
        const double *a = x + 8 * i, *b = a + 4;
        double w[32];
        double d[8] = {a[0], a[1], 0.5, b[3], a[2], a[2], b[0], b[1]};
        double even[4] = {d[0], d[2], d[4], d[6]};
        d[7] = even[0] * 2.0, d[5] = even[1] * 2.0, d[3] = even[2] * 2.0, d[1] = even[3] * 2.0;
        double p[2] = {d[2] + d[4], d[3] + d[5]};
        for (int j = 0; j < 8; j++)
            w[j] = d[j];
        for (int j = 0; j < 4; j++)
            w[8 + j] = d[2 * j + 1];
        w[12] = p[0], w[13] = p[1], w[14] = p[1];
        w[15] = fmax(a[0], b[0]) + fabs(fmin(a[1], b[1]));
        for (int j = 0; j < 4; j++) {
            double mix = a[j] + (b[j] - a[j]) * 0.5;
            w[16 + j] = fmax(a[j], b[j]) - mix + sqrt(fabs(a[3]));
            w[20 + j] = (double)(int)(a[j] * 3.0) + (a[j] < b[j] ? -1.0 : 0.0);
            w[24 + j] = -b[j];
        }
        w[28] = p[0], w[29] = p[1];
        w[31] = floor(a[0] * 1.25);
        w[30] = fmin(a[0] * 1.25 - w[31], 0x1.fffffffffffffp-1);
        for (int j = 0; j < 32; j++) {
            if (memcmp(&o[32 * i + j], &w[j], sizeof w[j]))
                MISMATCH("vdoubles[%d] %d = %.17g, expected %.17g\n", i, j, o[32 * i + j], w[j]);
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(bx), clReleaseMemObject(bo);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program prog = e2e_build(&env, src, "", 1, NULL);
    cl_program prog20 = e2e_build(&env, src20, "-cl-std=CL2.0", 1, NULL);
    inlines(&env, prog);
    copies(&env, prog);
    generic_copies(&env, prog20);
    dims(&env, prog20);
    vectors_float(&env, prog);
    vectors_int(&env, prog);
    vectors_double(&env, prog);
    clReleaseProgram(prog);
    clReleaseProgram(prog20);
    e2e_fini(&env);
    if (bad)
        return 1;
    printf("PASSED\n");
    return 0;
}
