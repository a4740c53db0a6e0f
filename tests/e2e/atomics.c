/* End-to-end: OpenCL 1.x atomic functions, all kernels in one program, and the same
 * kernels again with the OpenCL C 2.0 atomic functions in a second program. Under heavy
 * contention (every work-item on the same few addresses): atomic_add whose old values
 * must be exactly 0..N-1 once each, inc, dec, sub, min, max (signed and unsigned),
 * and, or, xor, xchg (int and float), a lock-free increment with a cmpxchg retry loop,
 * the 64-bit atom_ functions (cl_khr_int64_*_atomics), and a 256-bin histogram with
 * __local atomics merged into the global result by global atomics. Each result is
 * checked against the host's arithmetic; the contended kernels run again under random
 * memory latency and back-pressure. The 2.0 program adds atomic_flag and generic
 * pointers into global, local and private memory. The device lists
 * the atomics extensions. */
#include "e2e.h"

#include <stdint.h>

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "__kernel void contend(__global int *c, __global uint *u, __global int *seen,\n"
    "                      __global float *f)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    seen[i] = atomic_add(&c[0], 1);\n"
    "    atomic_inc(&c[1]);\n"
    "    atomic_dec(&c[2]);\n"
    "    atomic_sub(&c[3], i);\n"
    "    atomic_min(&c[4], (i * 37) % 1001 - 500);\n"
    "    atomic_max(&c[5], (i * 53) % 997 - 400);\n"
    "    atomic_min(&u[0], (uint)(i * 2654435761u));\n"
    "    atomic_max(&u[1], (uint)(i * 2654435761u));\n"
    "    atomic_or(&u[2], 1u << (i % 32));\n"
    "    atomic_and(&u[3], ~(1u << (i % 29)));\n"
    "    atomic_xor(&u[4], (uint)i * 0x9e3779b9u);\n"
    "    atom_add(&c[6], 3);\n"
    "    int x = atomic_xchg(&c[7], i);\n"
    "    seen[get_global_size(0) + i] = x;\n"
    "    atomic_xchg(&f[0], (float)i * 0.5f);\n"
    "}\n"
    "__kernel void spin(__global int *c)\n"
    "{\n"
    "    int cur = 0, prev;\n"
    "    while ((prev = atomic_cmpxchg(&c[0], cur, cur + 1)) != cur)\n"
    "        cur = prev;\n"
    "}\n"
    "__kernel void wide(__global long *l, __global ulong *m)\n"
    "{\n"
    "    long i = get_global_id(0);\n"
    "    atom_add(&l[0], i << 33);\n"
    "    atom_min(&l[1], -i * 1000000007L);\n"
    "    atom_max(&m[0], (ulong)i << 40);\n"
    "    atom_xor(&m[1], (ulong)i * 0x9e3779b97f4a7c15UL);\n"
    "    atom_cmpxchg(&l[2], i - 1, i);\n"
    "}\n"
    "__kernel void histogram(__global const uchar *data, __global uint *bins, int n)\n"
    "{\n"
    "    __local uint local_bins[256];\n"
    "    int l = get_local_id(0), size = get_local_size(0);\n"
    "    for (int b = l; b < 256; b += size)\n"
    "        local_bins[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = get_global_id(0); k < n; k += get_global_size(0))\n"
    "        atomic_inc(&local_bins[data[k]]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int b = l; b < 256; b += size)\n"
    "        atomic_add(&bins[b], local_bins[b]);\n"
    "}\n";

/* The same kernels with the OpenCL C 2.0 atomic functions (generic pointers, a helper
 * called with a global and with a local pointer, _explicit forms, a compare-exchange
 * loop with the expected value in a private variable, 64-bit min and max), and the
 * atomic_flag functions. */
static const char *src20 =
    "void bump(volatile atomic_int *p, int v) { atomic_fetch_add(p, v); }\n"
    "__kernel void contend(__global atomic_int *c, __global atomic_uint *u,\n"
    "                      __global int *seen, __global atomic_float *f)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    seen[i] = atomic_fetch_add(&c[0], 1);\n"
    "    bump(&c[1], 1);\n"
    "    atomic_fetch_sub_explicit(&c[2], 1, memory_order_relaxed);\n"
    "    atomic_fetch_sub(&c[3], i);\n"
    "    atomic_fetch_min(&c[4], (i * 37) % 1001 - 500);\n"
    "    atomic_fetch_max_explicit(&c[5], (i * 53) % 997 - 400, memory_order_acq_rel,\n"
    "                              memory_scope_device);\n"
    "    atomic_fetch_min(&u[0], (uint)(i * 2654435761u));\n"
    "    atomic_fetch_max(&u[1], (uint)(i * 2654435761u));\n"
    "    atomic_fetch_or(&u[2], 1u << (i % 32));\n"
    "    atomic_fetch_and(&u[3], ~(1u << (i % 29)));\n"
    "    atomic_fetch_xor_explicit(&u[4], (uint)i * 0x9e3779b9u, memory_order_seq_cst,\n"
    "                              memory_scope_work_group);\n"
    "    atomic_fetch_add(&c[6], 3);\n"
    "    seen[get_global_size(0) + i] = atomic_exchange(&c[7], i);\n"
    "    atomic_exchange(&f[0], (float)i * 0.5f);\n"
    "}\n"
    "__kernel void spin(__global atomic_int *c)\n"
    "{\n"
    "    int cur = atomic_load(c);\n"
    "    while (!atomic_compare_exchange_weak(c, &cur, cur + 1))\n"
    "        ;\n"
    "}\n"
    "__kernel void wide(__global atomic_long *l, __global atomic_ulong *m)\n"
    "{\n"
    "    long i = get_global_id(0), expected = i - 1;\n"
    "    atomic_fetch_add(&l[0], i << 33);\n"
    "    atomic_fetch_min(&l[1], -i * 1000000007L);\n"
    "    atomic_fetch_max(&m[0], (ulong)i << 40);\n"
    "    atomic_fetch_xor(&m[1], (ulong)i * 0x9e3779b97f4a7c15UL);\n"
    "    atomic_compare_exchange_strong(&l[2], &expected, i);\n"
    "}\n"
    "__kernel void histogram(__global const uchar *data, __global atomic_uint *bins, int n)\n"
    "{\n"
    "    __local atomic_uint local_bins[256];\n"
    "    int l = get_local_id(0), size = get_local_size(0);\n"
    "    for (int b = l; b < 256; b += size)\n"
    "        atomic_init(&local_bins[b], 0);\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = get_global_id(0); k < n; k += get_global_size(0))\n"
    "        atomic_fetch_add_explicit(&local_bins[data[k]], 1, memory_order_relaxed,\n"
    "                                  memory_scope_work_group);\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int b = l; b < 256; b += size)\n"
    "        atomic_fetch_add(&bins[b], atomic_load(&local_bins[b]));\n"
    "}\n"
    "__kernel void flags(__global atomic_flag *f, __global int *seen, __global atomic_int *s)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    seen[i] = atomic_flag_test_and_set(&f[i % 8]);\n"
    "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release,\n"
    "                           memory_scope_device);\n"
    "    if (i == 5)\n"
    "        atomic_store(s, 42);\n"
    "    if (i == 6)\n"
    "        atomic_flag_clear_explicit(&f[8], memory_order_release);\n"
    "}\n"
    /* generic pointers into global, local and private memory, also given to built-ins */
    "void put(int *p, size_t i, int v) { p[i] = v; }\n"
    "int get(const int *p, size_t i) { return p[i]; }\n"
    "__kernel void generic_ptrs(__global const int *a, __global int *c)\n"
    "{\n"
    "    __local int t[64];\n"
    "    int priv[4] = {1, 2, 3, 4};\n"
    "    size_t l = get_local_id(0);\n"
    "    put(t, l, a[get_global_id(0)]);\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int4 q = vload4(l / 4, t);\n"
    "    float whole, part = fract((float)l * 0.25f, &whole);\n"
    "    put(c, get_global_id(0), get(t, 63 - l) + get(priv, l & 3) + q.w +\n"
    "                             (int)(part * 4.0f) + 8 * (int)whole);\n"
    "}\n";

enum { N = 512 };

static int contend(e2e_env *env, cl_program prog)
{
    cl_int c[8] = {0, 5, 7, 100, 1000, -1000, 0, -1};
    cl_uint u[5] = {0xffffffffu, 0, 0, 0xffffffffu, 0x12345678u};
    cl_float f = -1.0f;
    cl_mem bc = e2e_buffer(env, sizeof c, c), bu = e2e_buffer(env, sizeof u, u);
    cl_mem bs = e2e_buffer(env, 2 * N * sizeof(cl_int), NULL), bf = e2e_buffer(env, sizeof f, &f);
    cl_kernel k = e2e_kernel(prog, "contend");
    E2E_ARG(k, 0, bc);
    E2E_ARG(k, 1, bu);
    E2E_ARG(k, 2, bs);
    E2E_ARG(k, 3, bf);
    size_t g = N, l = 64;
    EXPECT(e2e_run(env, k, 1, NULL, &g, &l) == CL_COMPLETE);
    cl_int oc[8], seen[2 * N];
    cl_uint ou[5];
    cl_float of;
    CL_OK(clEnqueueReadBuffer(env->queue, bc, CL_TRUE, 0, sizeof oc, oc, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env->queue, bu, CL_TRUE, 0, sizeof ou, ou, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env->queue, bs, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env->queue, bf, CL_TRUE, 0, sizeof of, &of, 0, NULL, NULL));
    cl_int want[8] = {N, 5 + N, 7 - N, 100, 1000, -1000, 3 * N, 0};
    cl_uint wu[5] = {0xffffffffu, 0, 0, 0xffffffffu, 0x12345678u};
    for (int i = 0; i < N; i++) {
        want[3] -= i;
        int mn = (i * 37) % 1001 - 500, mx = (i * 53) % 997 - 400;
        want[4] = mn < want[4] ? mn : want[4];
        want[5] = mx > want[5] ? mx : want[5];
        cl_uint h = (cl_uint)i * 2654435761u;
        wu[0] = h < wu[0] ? h : wu[0];
        wu[1] = h > wu[1] ? h : wu[1];
        wu[2] |= 1u << (i % 32);
        wu[3] &= ~(1u << (i % 29));
        wu[4] ^= (cl_uint)i * 0x9e3779b9u;
    }
    for (int j = 0; j < 7; j++)
        if (oc[j] != want[j]) {
            fprintf(stderr, "contend c[%d] = %d, expected %d\n", j, oc[j], want[j]);
            return 1;
        }
    for (int j = 0; j < 5; j++)
        if (ou[j] != wu[j]) {
            fprintf(stderr, "contend u[%d] = %08x, expected %08x\n", j, ou[j], wu[j]);
            return 1;
        }
    /* every old value of the add exactly once; the exchanges form one chain from -1
     * through every work-item's id to the last value left in memory */
    char hit[N + 1];
    memset(hit, 0, sizeof hit);
    for (int i = 0; i < N; i++) {
        if (seen[i] < 0 || seen[i] >= N || hit[seen[i]]++) {
            fprintf(stderr, "contend: atomic_add returned %d twice or out of range\n", seen[i]);
            return 1;
        }
    }
    memset(hit, 0, sizeof hit);
    int from_start = 0;
    for (int i = 0; i < N; i++) {
        int x = seen[N + i];
        if (x == -1)
            from_start++;
        else if (x < 0 || x >= N || hit[x]++ || x == i) {
            fprintf(stderr, "contend: atomic_xchg returned %d (work-item %d)\n", x, i);
            return 1;
        }
    }
    if (from_start != 1 || hit[oc[7]]) {
        fprintf(stderr, "contend: the exchanges do not form one chain (%d, %d)\n", from_start,
                oc[7]);
        return 1;
    }
    float twice = of * 2.0f; /* some work-item's i * 0.5 */
    if (twice != (float)(int)twice || twice < 0.0f || twice >= (float)N) {
        fprintf(stderr, "contend: atomic_xchg on a float left %g\n", of);
        return 1;
    }
    clReleaseKernel(k);
    clReleaseMemObject(bc);
    clReleaseMemObject(bu);
    clReleaseMemObject(bs);
    clReleaseMemObject(bf);
    return 0;
}

static int spin(e2e_env *env, cl_program prog)
{
    cl_int zero = 0, out;
    cl_mem b = e2e_buffer(env, sizeof zero, &zero);
    cl_kernel k = e2e_kernel(prog, "spin");
    E2E_ARG(k, 0, b);
    size_t g = 200;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(b);
    if (out != 200) {
        fprintf(stderr, "spin: %d increments, expected 200\n", out);
        return 1;
    }
    return 0;
}

static int wide(e2e_env *env, cl_program prog)
{
    cl_long l[3] = {5, 0, -1};
    cl_ulong m[2] = {7, 0};
    cl_mem bl = e2e_buffer(env, sizeof l, l), bm = e2e_buffer(env, sizeof m, m);
    cl_kernel k = e2e_kernel(prog, "wide");
    E2E_ARG(k, 0, bl);
    E2E_ARG(k, 1, bm);
    size_t g = 300;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bl, CL_TRUE, 0, sizeof l, l, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env->queue, bm, CL_TRUE, 0, sizeof m, m, 0, NULL, NULL));
    cl_long wl[3] = {5, 0, -1};
    cl_ulong wm[2] = {7, 0};
    for (cl_long i = 0; i < 300; i++) {
        wl[0] += i << 33;
        wl[1] = -i * 1000000007LL < wl[1] ? -i * 1000000007LL : wl[1];
        wm[0] = (cl_ulong)i << 40 > wm[0] ? (cl_ulong)i << 40 : wm[0];
        wm[1] ^= (cl_ulong)i * 0x9e3779b97f4a7c15ULL;
    }
    /* the cmpxchg chain advances only when work-item i finds i - 1: at least to 0 */
    int bad = l[0] != wl[0] || l[1] != wl[1] || m[0] != wm[0] || m[1] != wm[1] ||
              l[2] < 0 || l[2] >= 300;
    if (bad)
        fprintf(stderr, "wide: %lld %lld %llu %llu %lld\n", (long long)l[0], (long long)l[1],
                (unsigned long long)m[0], (unsigned long long)m[1], (long long)l[2]);
    clReleaseKernel(k);
    clReleaseMemObject(bl);
    clReleaseMemObject(bm);
    return bad;
}

static int histogram(e2e_env *env, cl_program prog)
{
    enum { D = 20000 };
    unsigned char *data = malloc(D);
    EXPECT(data);
    unsigned seed = 2024;
    for (int i = 0; i < D; i++) /* skewed: some bins are hot */
        data[i] = (unsigned char)(e2e_xorshift(&seed) % 7 == 0 ? 42 : e2e_xorshift(&seed));
    cl_uint bins[256], want[256];
    memset(want, 0, sizeof want);
    for (int i = 0; i < D; i++)
        want[data[i]]++;
    cl_mem bd = e2e_buffer(env, D, data), bb = e2e_filled_buffer(env, 256, 0);
    cl_kernel k = e2e_kernel(prog, "histogram");
    cl_int n = D;
    E2E_ARG(k, 0, bd);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, n);
    size_t g = 1024, l = 128;
    EXPECT(e2e_run(env, k, 1, NULL, &g, &l) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bb, CL_TRUE, 0, sizeof bins, bins, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(bd);
    clReleaseMemObject(bb);
    free(data);
    for (int b = 0; b < 256; b++)
        if (bins[b] != want[b]) {
            fprintf(stderr, "histogram bin %d = %u, expected %u\n", b, bins[b], want[b]);
            return 1;
        }
    return 0;
}

/* atomic_flag: of the work-items on one flag exactly one finds it clear. */
static int flags(e2e_env *env, cl_program prog)
{
    enum { W = 400 };
    cl_int f[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1}, st = 0, seen[W];
    cl_mem bf = e2e_buffer(env, sizeof f, f), bs = e2e_buffer(env, sizeof seen, NULL);
    cl_mem bst = e2e_buffer(env, sizeof st, &st);
    cl_kernel k = e2e_kernel(prog, "flags");
    E2E_ARG(k, 0, bf);
    E2E_ARG(k, 1, bs);
    E2E_ARG(k, 2, bst);
    size_t g = W;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bf, sizeof f, f);
    e2e_read(env, bs, sizeof seen, seen);
    e2e_read(env, bst, sizeof st, &st);
    clReleaseKernel(k);
    clReleaseMemObject(bf);
    clReleaseMemObject(bs);
    clReleaseMemObject(bst);
    int clear[8] = {0};
    for (int i = 0; i < W; i++)
        clear[i % 8] += seen[i] == 0;
    for (int j = 0; j < 8; j++)
        if (clear[j] != 1 || f[j] == 0) {
            fprintf(stderr, "flags: flag %d found clear %d times, left %d\n", j, clear[j], f[j]);
            return 1;
        }
    if (f[8] != 0 || st != 42) {
        fprintf(stderr, "flags: cleared flag %d, stored %d\n", f[8], st);
        return 1;
    }
    return 0;
}

/* Generic pointers resolved to the memory they point into, also in calls of vload4 and
 * fract (hls/addrspace.c). */
static int generic(e2e_env *env, cl_program prog)
{
    enum { W = 256 };
    cl_int a[W], c[W];
    for (int i = 0; i < W; i++)
        a[i] = i * 7 - 300;
    cl_mem ba = e2e_buffer(env, sizeof a, a), bc = e2e_buffer(env, sizeof c, NULL);
    cl_kernel k = e2e_kernel(prog, "generic_ptrs");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bc);
    size_t g = W, l = 64;
    EXPECT(e2e_run(env, k, 1, NULL, &g, &l) == CL_COMPLETE);
    e2e_read(env, bc, sizeof c, c);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bc);
    for (int i = 0; i < W; i++) {
        int l = i % 64, base = i - l;
        int want = a[base + 63 - l] + l % 4 + 1 + a[base + l / 4 * 4 + 3] + l % 4 + 8 * (l / 4);
        if (c[i] != want) {
            fprintf(stderr, "generic: c[%d] = %d, expected %d\n", i, c[i], want);
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    char ext[2048];
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    const char *need[] = {"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
                          "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
                          "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"};
    for (size_t i = 0; i < sizeof need / sizeof *need; i++)
        if (!strstr(ext, need[i])) {
            fprintf(stderr, "CL_DEVICE_EXTENSIONS lacks %s: %s\n", need[i], ext);
            return 1;
        }
    cl_program prog = e2e_build(&env, src, "", 1, NULL);
    cl_program prog20 = e2e_build(&env, src20, "-cl-std=CL2.0", 1, NULL);
    for (int stress = 0; stress < 2; stress++) {
        if (stress)
            setenv("CLHLS_SIM_STRESS", "777", 1);
        for (int v = 0; v < 2; v++) {
            cl_program p = v ? prog20 : prog;
            if (contend(&env, p) || spin(&env, p) || (!stress && wide(&env, p)) ||
                histogram(&env, p) || (v && (flags(&env, p) || generic(&env, p)))) {
                fprintf(stderr, "(OpenCL C %s atomics%s)\n", v ? "2.0" : "1.x",
                        stress ? ", under memory stress" : "");
                return 1;
            }
        }
    }
    unsetenv("CLHLS_SIM_STRESS");
    clReleaseProgram(prog);
    clReleaseProgram(prog20);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
