/* End-to-end: loops, all kernels of one program (the hardware is built once). A `for`
 * whose trip count comes from a buffer (zero included); Collatz step counts for
 * 1..4096; a while loop running (id mod 37) times; do/while (at least one trip); a
 * carried value read as its low byte and read whole on the next trip;
 * break and continue; a search loop with three exits (found, terminator, end); three
 * nested loops with data-dependent trip counts and early exits from the inner and the
 * middle loop; a loop on one side of a branch; branches (and a store) inside a loop;
 * loops whose loads must see the same work-item's stores of the previous iteration
 * (acc[i] += ... in place, an in-place prefix sum over a private row); 4-tap and
 * `#pragma unroll` 16-tap float FIRs; `#pragma unroll 4` over a run-time trip count
 * (every remainder); int and float row sums; Mandelbrot escape counts on a 64x64 grid
 * compared exactly.
 *
 * Floats are compared bit for bit. That holds because the kernels say FP_CONTRACT OFF
 * (clang would otherwise fuse a*b+c into fmuladd) and this file is compiled with
 * -ffp-contract=off, every operation is a single IEEE binary32 operation rounded to
 * nearest even on both sides, sums run in the same order, and no value is subnormal
 * (clhls flushes subnormals to zero; the host does not): the Mandelbrot reference
 * checks this last point for every intermediate of every iteration. */
#include "e2e.h"

#include <math.h>
#include <stdint.h>

static const char *src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void trip(__global const int *cnt, __global const uint *v, __global uint *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint s = 0;\n"
    "    for (int k = 0; k < cnt[i]; k++)\n"
    "        s = s * 33u + v[(i + (size_t)k) & 1023];\n"
    "    o[i] = s;\n"
    "}\n"
    "__kernel void collatz(__global int *steps)\n"
    "{\n"
    "    uint x = (uint)get_global_id(0) + 1u;\n"
    "    int s = 0;\n"
    "    while (x != 1u) {\n"
    "        x = (x & 1u) ? 3u * x + 1u : x >> 1;\n"
    "        s++;\n"
    "    }\n"
    "    steps[get_global_id(0)] = s;\n"
    "}\n"
    "__kernel void mod37(__global const uint *seed, __global uint *o, __global int *cnt)\n"
    "{\n"
    "    uint i = (uint)get_global_id(0);\n"
    "    int m = (int)(i % 37u), k = 0;\n"
    "    uint h = seed[i];\n"
    "    while (k < m) {\n"
    "        h = h * 1664525u + 1013904223u;\n"
    "        h ^= h >> 13;\n"
    "        k++;\n"
    "    }\n"
    "    o[i] = h;\n"
    "    cnt[i] = k;\n"
    "}\n"
    "__kernel void dowhile(__global const uint *a, __global uint *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint x = a[i], s = 0, d = 0;\n"
    "    do {\n"
    "        s += x & 7u;\n"
    "        x >>= 3;\n"
    "        d++;\n"
    "    } while (x != 0u);\n"
    "    o[i] = s * 16u + d;\n"
    "}\n"
    "__kernel void lcg(__global const uint *seed, __global uchar *lo, __global uint *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint x = seed[i], hi = 0;\n"
    "    int n = 0;\n"
    "    do {\n"
    "        hi += x >> 24;\n"
    "        x = x * 1664525u + 1013904223u;\n"
    "        lo[8 * i + (size_t)n] = (uchar)x;\n"
    "        n++;\n"
    "    } while (n <= (int)(seed[i] & 7u));\n"
    "    o[i] = hi;\n"
    "}\n"
    "__kernel void brk(__global const int *data, __global int *o, int m)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int s = 0, c = 0;\n"
    "    for (int k = 0; k < m; k++) {\n"
    "        int v = data[i * m + k];\n"
    "        if (v < 0)\n"
    "            continue;\n"
    "        if (v > 900)\n"
    "            break;\n"
    "        s += v;\n"
    "        c++;\n"
    "    }\n"
    "    o[2 * i] = s;\n"
    "    o[2 * i + 1] = c;\n"
    "}\n"
    "__kernel void search(__global const int *rows, __global const int *keys, __global int *o,\n"
    "                     int m)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int key = keys[i];\n"
    "    for (int k = 0; k < m; k++) {\n"
    "        int v = rows[i * m + k];\n"
    "        if (v == key) {\n"
    "            o[i] = k;\n"
    "            return;\n"
    "        }\n"
    "        if (v < 0) {\n"
    "            o[i] = -2 - k;\n"
    "            return;\n"
    "        }\n"
    "    }\n"
    "    o[i] = -1;\n"
    "}\n"
    "__kernel void nest3(__global const uint *tab, __global uint *o)\n"
    "{\n"
    "    uint i = (uint)get_global_id(0);\n"
    "    uint acc = i;\n"
    "    int na = 1 + (int)(i & 3u), nb = 1 + (int)((i >> 2) % 5u), nc = 2 + (int)((i >> 5) % 7u);\n"
    "    for (int a = 0; a < na; a++) {\n"
    "        for (int b = 0; b < nb; b++) {\n"
    "            for (int c = 0; c < nc; c++) {\n"
    "                uint v = tab[(a * 5 + b) * 8 + c] ^ (i * 2654435761u);\n"
    "                if ((v & 7u) == 0u)\n"
    "                    break;\n"
    "                acc = acc * 31u + (v >> 3);\n"
    "            }\n"
    "            if ((acc & 15u) == 9u)\n"
    "                break;\n"
    "        }\n"
    "    }\n"
    "    o[i] = acc;\n"
    "}\n"
    "__kernel void loop_in_branch(__global const int *a, __global int *o)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int x = a[i];\n"
    "    if (i % 3 == 0) {\n"
    "        uint s = (uint)x;\n"
    "        for (int k = 0; k < (x & 63); k++)\n"
    "            s = s * 3u + (uint)(k ^ x);\n"
    "        o[i] = (int)s;\n"
    "    } else {\n"
    "        o[i] = -x;\n"
    "    }\n"
    "}\n"
    "__kernel void branch_in_loop(__global const int *in, __global int *o, int n, int m)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int s = 0, c = 0;\n"
    "    for (int k = 0; k < m; k++) {\n"
    "        int v = in[k * n + i];\n"
    "        if (v & 1)\n"
    "            s += v;\n"
    "        else\n"
    "            s -= v >> 1;\n"
    "        if (v > 80) {\n"
    "            c++;\n"
    "            o[n + i] = k;\n"
    "        }\n"
    "    }\n"
    "    o[i] = s * 1000 + c;\n"
    "}\n"
    "__kernel void accum(__global int *acc, __global const int *in, int n, int K)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    for (int k = 0; k < K; k++)\n"
    "        acc[i] += in[k * n + i];\n"
    "}\n"
    "__kernel void prefix(__global int *a, int m)\n"
    "{\n"
    "    int base = (int)get_global_id(0) * m;\n"
    "    for (int k = 1; k < m; k++)\n"
    "        a[base + k] += a[base + k - 1];\n"
    "}\n"
    "__kernel void fir4(__global const float *x, __constant float *c, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    for (int t = 0; t < 4; t++)\n"
    "        s += c[t] * x[i + t];\n"
    "    y[i] = s;\n"
    "}\n"
    "__kernel void fir16(__global const float *x, __constant float *c, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    #pragma unroll\n"
    "    for (int t = 0; t < 16; t++)\n"
    "        s += c[t] * x[i + t];\n"
    "    y[i] = s;\n"
    "}\n"
    "__kernel void unroll4(__global const int *len, __global const uint *in, __global uint *o,\n"
    "                      int m)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    uint s = 2166136261u;\n"
    "    int L = len[i];\n"
    "    #pragma unroll 4\n"
    "    for (int k = 0; k < L; k++)\n"
    "        s = (s ^ in[i * m + k]) * 16777619u;\n"
    "    o[i] = s;\n"
    "}\n"
    "__kernel void rowsum(__global const int *a, __global const float *f, __global int *oi,\n"
    "                     __global float *of, int m)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int s = 0;\n"
    "    for (int k = 0; k < m; k++)\n"
    "        s += a[i * m + k];\n"
    "    float fs = 0.0f;\n"
    "    for (int k = 0; k < m; k++)\n"
    "        fs += f[i * m + k];\n"
    "    oi[i] = s;\n"
    "    of[i] = fs;\n"
    "}\n"
    "__kernel void mandel(__global int *o, float x0, float y0, float d, int maxit)\n"
    "{\n"
    "    int px = (int)get_global_id(0), py = (int)get_global_id(1);\n"
    "    float cx = x0 + (float)px * d, cy = y0 + (float)py * d;\n"
    "    float x = 0.0f, y = 0.0f;\n"
    "    int it = 0;\n"
    "    while (it < maxit && x * x + y * y <= 4.0f) {\n"
    "        float xt = x * x - y * y + cx;\n"
    "        y = 2.0f * x * y + cy;\n"
    "        x = xt;\n"
    "        it++;\n"
    "    }\n"
    "    o[py * (int)get_global_size(0) + px] = it;\n"
    "}\n";

#define SENT 0x5a5a5a5a /* initial value of outputs a kernel may leave unwritten */

static unsigned seed = 88172645u;
static unsigned rnd(void) { return e2e_xorshift(&seed); }
static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (unsigned)(hi - lo + 1)); }



static void run1(e2e_env *env, cl_kernel k, size_t g)
{
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
}

static void test_trip(e2e_env *env, cl_program p)
{
    enum { N = 2048 };
    static int cnt[N];
    static unsigned v[1024], o[N];
    long total = 0;
    int zeros = 0;
    for (int i = 0; i < 1024; i++)
        v[i] = rnd();
    for (int i = 0; i < N; i++) {
        cnt[i] = i % 9 == 0 ? 0 : rnd_in(0, 47);
        total += cnt[i];
        zeros += cnt[i] == 0;
    }
    cl_mem bc = e2e_buffer(env, sizeof cnt, cnt), bv = e2e_buffer(env, sizeof v, v);
    cl_mem bo = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "trip");
    E2E_ARG(k, 0, bc);
    E2E_ARG(k, 1, bv);
    E2E_ARG(k, 2, bo);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    for (int i = 0; i < N; i++) {
        unsigned s = 0;
        for (int t = 0; t < cnt[i]; t++)
            s = s * 33u + v[(i + t) & 1023];
        EXPECT(o[i] == s);
    }
    printf("trip:           %d work-items, trip counts 0..47 from a buffer (%d zero), %ld "
           "iterations\n", N, zeros, total);
    clReleaseKernel(k);
    clReleaseMemObject(bc);
    clReleaseMemObject(bv);
    clReleaseMemObject(bo);
}

static int collatz_steps(unsigned n, uint64_t *peak)
{
    uint64_t x = n;
    int s = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        if (x > *peak)
            *peak = x;
        s++;
    }
    return s;
}

static void test_collatz(e2e_env *env, cl_program p)
{
    enum { N = 4096 };
    static int o[N];
    cl_mem bo = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "collatz");
    E2E_ARG(k, 0, bo);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    uint64_t peak = 0;
    long total = 0;
    int most = 0;
    for (int i = 0; i < N; i++) {
        int s = collatz_steps((unsigned)i + 1, &peak);
        EXPECT(o[i] == s);
        total += s;
        if (s > most)
            most = s;
    }
    /* The reference itself: known values, and no 32-bit overflow in the kernel. */
    EXPECT(o[0] == 0 && o[26] == 111 && o[96] == 118);
    EXPECT(peak < UINT64_C(1) << 32);
    printf("collatz:        %d work-items (1..%d), %ld steps, longest %d, peak value %llu\n",
           N, N, total, most, (unsigned long long)peak);
    clReleaseKernel(k);
    clReleaseMemObject(bo);
}

static void test_mod37(e2e_env *env, cl_program p)
{
    enum { N = 2048 };
    static unsigned sd[N], o[N];
    static int cnt[N];
    for (int i = 0; i < N; i++)
        sd[i] = rnd();
    cl_mem bs = e2e_buffer(env, sizeof sd, sd), bo = e2e_filled_buffer(env, N, SENT), bc = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "mod37");
    E2E_ARG(k, 0, bs);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, bc);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, bc, sizeof cnt, cnt);
    long total = 0;
    for (int i = 0; i < N; i++) {
        unsigned h = sd[i];
        int m = i % 37;
        for (int t = 0; t < m; t++) {
            h = h * 1664525u + 1013904223u;
            h ^= h >> 13;
        }
        EXPECT(o[i] == h);
        EXPECT(cnt[i] == m);
        total += m;
    }
    printf("mod37:          %d work-items, while loop of id%%37 trips (0..36), %ld iterations\n",
           N, total);
    clReleaseKernel(k);
    clReleaseMemObject(bs);
    clReleaseMemObject(bo);
    clReleaseMemObject(bc);
}

static void test_dowhile(e2e_env *env, cl_program p)
{
    enum { N = 2048 };
    static unsigned a[N], o[N];
    for (int i = 0; i < N; i++)
        a[i] = i % 5 == 0 ? (unsigned)(i / 5) % 9 : rnd() >> (rnd() % 32);
    a[1] = 0xffffffffu;
    cl_mem ba = e2e_buffer(env, sizeof a, a), bo = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "dowhile");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bo);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    int ones = 0;
    for (int i = 0; i < N; i++) {
        unsigned x = a[i], s = 0, d = 0;
        do {
            s += x & 7u;
            x >>= 3;
            d++;
        } while (x != 0u);
        EXPECT(o[i] == s * 16u + d);
        ones += d == 1;
    }
    /* 0: one trip; 0xffffffff = 037777777777: digit sum 73, 11 digits */
    EXPECT(a[0] == 0 && o[0] == 1 && o[1] == 73u * 16u + 11u);
    EXPECT(ones > 0);
    printf("dowhile:        %d work-items, 1..11 trips (%d with the single guaranteed trip)\n",
           N, ones);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
}

/* A value carried around a loop whose new value one reader takes only the low byte of
 * ((uchar)x) while the next trip reads it whole (x >> 24): the low byte's reader may
 * not narrow what the loop carries. */
static void test_lcg(e2e_env *env, cl_program p)
{
    enum { N = 1024 };
    static unsigned seed[N], o[N];
    static unsigned char lo[8 * N];
    for (int i = 0; i < N; i++)
        seed[i] = rnd();
    cl_mem bs = e2e_buffer(env, sizeof seed, seed), bo = e2e_filled_buffer(env, N, SENT);
    cl_mem bl = e2e_buffer(env, sizeof lo, NULL);
    cl_kernel k = e2e_kernel(p, "lcg");
    E2E_ARG(k, 0, bs);
    E2E_ARG(k, 1, bl);
    E2E_ARG(k, 2, bo);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, bl, sizeof lo, lo);
    int bad = 0;
    for (int i = 0; i < N && !bad; i++) {
        unsigned x = seed[i], hi = 0;
        int n = 0;
        do {
            hi += x >> 24;
            x = x * 1664525u + 1013904223u;
            bad |= lo[8 * i + n] != (unsigned char)x;
            n++;
        } while (n <= (int)(seed[i] & 7u));
        bad |= o[i] != hi;
        if (bad)
            fprintf(stderr, "lcg[%d] = %u, expected %u\n", i, o[i], hi);
    }
    EXPECT(!bad);
    printf("lcg:            %d work-items, 1..8 trips, the carried value read whole and as "
           "its low byte\n", N);
    clReleaseKernel(k);
    clReleaseMemObject(bs);
    clReleaseMemObject(bl);
    clReleaseMemObject(bo);
}

static void test_brk(e2e_env *env, cl_program p)
{
    enum { N = 2048, M = 32 };
    static int data[N * M], o[2 * N];
    for (int i = 0; i < N * M; i++)
        data[i] = rnd_in(-300, 920);
    cl_mem bd = e2e_buffer(env, sizeof data, data), bo = e2e_filled_buffer(env, 2 * N, SENT);
    cl_kernel k = e2e_kernel(p, "brk");
    int m = M;
    E2E_ARG(k, 0, bd);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, m);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    int broke = 0, skipped = 0;
    for (int i = 0; i < N; i++) {
        int s = 0, c = 0, kk;
        for (kk = 0; kk < M; kk++) {
            int v = data[i * M + kk];
            if (v < 0) {
                skipped++;
                continue;
            }
            if (v > 900)
                break;
            s += v;
            c++;
        }
        broke += kk < M;
        EXPECT(o[2 * i] == s);
        EXPECT(o[2 * i + 1] == c);
    }
    EXPECT(broke > 0 && broke < N && skipped > 0);
    printf("brk:            %d work-items, rows of %d: %d left by break, %d continues\n", N, M,
           broke, skipped);
    clReleaseKernel(k);
    clReleaseMemObject(bd);
    clReleaseMemObject(bo);
}

static void test_search(e2e_env *env, cl_program p)
{
    enum { N = 2048, M = 48 };
    static int rows[N * M], keys[N], o[N];
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < M; k++)
            rows[i * M + k] = rnd_in(0, 199);
        if (i % 4 == 1) /* a terminator somewhere */
            rows[i * M + rnd_in(0, M - 1)] = -1;
        keys[i] = rnd_in(0, 199);
        if (i % 3 == 0) /* the key is present at a random place */
            rows[i * M + rnd_in(0, M - 1)] = keys[i];
    }
    cl_mem br = e2e_buffer(env, sizeof rows, rows), bk = e2e_buffer(env, sizeof keys, keys);
    cl_mem bo = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "search");
    int m = M;
    E2E_ARG(k, 0, br);
    E2E_ARG(k, 1, bk);
    E2E_ARG(k, 2, bo);
    E2E_ARG(k, 3, m);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    int found = 0, term = 0, none = 0;
    for (int i = 0; i < N; i++) {
        int want = -1;
        for (int k2 = 0; k2 < M; k2++) {
            int v = rows[i * M + k2];
            if (v == keys[i]) {
                want = k2;
                break;
            }
            if (v < 0) {
                want = -2 - k2;
                break;
            }
        }
        EXPECT(o[i] == want);
        found += want >= 0;
        term += want <= -2;
        none += want == -1;
    }
    EXPECT(found > 0 && term > 0 && none > 0);
    printf("search:         %d work-items, rows of %d: %d found, %d stopped at a terminator, %d "
           "not found\n", N, M, found, term, none);
    clReleaseKernel(k);
    clReleaseMemObject(br);
    clReleaseMemObject(bk);
    clReleaseMemObject(bo);
}

static void test_nest3(e2e_env *env, cl_program p)
{
    enum { N = 2048 };
    static unsigned tab[160], o[N];
    for (int i = 0; i < 160; i++)
        tab[i] = rnd();
    cl_mem bt = e2e_buffer(env, sizeof tab, tab), bo = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "nest3");
    E2E_ARG(k, 0, bt);
    E2E_ARG(k, 1, bo);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    long inner_breaks = 0, middle_breaks = 0, iters = 0;
    for (unsigned i = 0; i < N; i++) {
        unsigned acc = i;
        int na = 1 + (int)(i & 3u), nb = 1 + (int)((i >> 2) % 5u), nc = 2 + (int)((i >> 5) % 7u);
        for (int a = 0; a < na; a++) {
            for (int b = 0; b < nb; b++) {
                for (int c = 0; c < nc; c++) {
                    unsigned v = tab[(a * 5 + b) * 8 + c] ^ (i * 2654435761u);
                    if ((v & 7u) == 0u) {
                        inner_breaks++;
                        break;
                    }
                    acc = acc * 31u + (v >> 3);
                    iters++;
                }
                if ((acc & 15u) == 9u) {
                    middle_breaks++;
                    break;
                }
            }
        }
        EXPECT(o[i] == acc);
    }
    EXPECT(inner_breaks > 0 && middle_breaks > 0);
    printf("nest3:          %d work-items, 3 nested loops (1..4 x 1..5 x 2..8): %ld inner "
           "iterations, %ld inner and %ld middle early exits\n", N, iters, inner_breaks,
           middle_breaks);
    clReleaseKernel(k);
    clReleaseMemObject(bt);
    clReleaseMemObject(bo);
}

static void test_loop_in_branch(e2e_env *env, cl_program p)
{
    enum { N = 2048 };
    static int a[N], o[N];
    for (int i = 0; i < N; i++)
        a[i] = rnd_in(-100000, 100000);
    cl_mem ba = e2e_buffer(env, sizeof a, a), bo = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "loop_in_branch");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bo);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    int entered = 0;
    for (int i = 0; i < N; i++) {
        int x = a[i], want;
        if (i % 3 == 0) {
            unsigned s = (unsigned)x;
            for (int t = 0; t < (x & 63); t++)
                s = s * 3u + (unsigned)(t ^ x);
            want = (int)s;
            entered++;
        } else {
            want = -x;
        }
        EXPECT(o[i] == want);
    }
    printf("loop_in_branch: %d work-items, %d entered the loop (0..63 trips), the rest "
           "took the other side\n", N, entered);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
}

static void test_branch_in_loop(e2e_env *env, cl_program p)
{
    enum { N = 2048, M = 24 };
    static int in[N * M], o[2 * N];
    for (int i = 0; i < N * M; i++)
        in[i] = rnd_in(-100, 100);
    cl_mem bi = e2e_buffer(env, sizeof in, in), bo = e2e_filled_buffer(env, 2 * N, SENT);
    cl_kernel k = e2e_kernel(p, "branch_in_loop");
    int n = N, m = M;
    E2E_ARG(k, 0, bi);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, n);
    E2E_ARG(k, 3, m);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    int never = 0;
    for (int i = 0; i < N; i++) {
        int s = 0, c = 0, last = SENT;
        for (int t = 0; t < M; t++) {
            int v = in[t * N + i];
            if (v & 1)
                s += v;
            else
                s -= v >> 1;
            if (v > 80) {
                c++;
                last = t;
            }
        }
        EXPECT(o[i] == s * 1000 + c);
        EXPECT(o[N + i] == last);
        never += c == 0;
    }
    EXPECT(never > 0 && never < N);
    printf("branch_in_loop: %d work-items x %d iterations, if/else and a conditional store "
           "inside (%d never stored)\n", N, M, never);
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

static void test_accum(e2e_env *env, cl_program p)
{
    enum { N = 2048, K = 20 };
    static int acc[N], in[K * N], o[N];
    for (int i = 0; i < N; i++)
        acc[i] = rnd_in(-1000000, 1000000);
    for (int i = 0; i < K * N; i++)
        in[i] = rnd_in(-100000, 100000);
    cl_mem ba = e2e_buffer(env, sizeof acc, acc), bi = e2e_buffer(env, sizeof in, in);
    cl_kernel k = e2e_kernel(p, "accum");
    int n = N, kk = K;
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bi);
    E2E_ARG(k, 2, n);
    E2E_ARG(k, 3, kk);
    run1(env, k, N);
    e2e_read(env, ba, sizeof o, o);
    for (int i = 0; i < N; i++) {
        int s = acc[i];
        for (int t = 0; t < K; t++)
            s += in[t * N + i];
        EXPECT(o[i] == s);
    }
    printf("accum:          %d work-items, acc[i] += in[k*n+i] in place, %d load-after-store "
           "iterations each\n", N, K);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bi);
}

static void test_prefix(e2e_env *env, cl_program p)
{
    enum { N = 1024, M = 16 };
    static int a[N * M], o[N * M];
    for (int i = 0; i < N * M; i++)
        a[i] = rnd_in(-50000, 50000);
    cl_mem ba = e2e_buffer(env, sizeof a, a);
    cl_kernel k = e2e_kernel(p, "prefix");
    int m = M;
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, m);
    run1(env, k, N);
    e2e_read(env, ba, sizeof o, o);
    for (int i = 0; i < N; i++) {
        int s = 0;
        for (int t = 0; t < M; t++) {
            s += a[i * M + t];
            EXPECT(o[i * M + t] == s);
        }
    }
    printf("prefix:         %d work-items, in-place prefix sum over a row of %d (each load reads "
           "the previous iteration's store)\n", N, M);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
}

static void test_fir(e2e_env *env, cl_program p, const char *name, int taps)
{
    enum { N = 2048 };
    static float x[N + 15], y[N];
    float c[16];
    for (int i = 0; i < N + 15; i++)
        x[i] = (float)rnd_in(-100000, 100000) * 0.001f;
    for (int t = 0; t < 16; t++)
        c[t] = (float)rnd_in(-1000, 1000) / 1024.0f + 0.0001f * (float)t;
    cl_int err;
    cl_mem bx = e2e_buffer(env, sizeof x, x), by = e2e_filled_buffer(env, N, SENT);
    cl_mem bc = clCreateBuffer(env->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)taps * sizeof(float), c, &err);
    CL_OK(err);
    cl_kernel k = e2e_kernel(p, name);
    E2E_ARG(k, 0, bx);
    E2E_ARG(k, 1, bc);
    E2E_ARG(k, 2, by);
    run1(env, k, N);
    e2e_read(env, by, sizeof y, y);
    for (int i = 0; i < N; i++) {
        float s = 0.0f;
        for (int t = 0; t < taps; t++)
            s += c[t] * x[i + t];
        EXPECT(e2e_fbits(y[i]) == e2e_fbits(s));
    }
    printf("%s:%*s%d work-items, %d-tap float FIR, bit-exact\n", name,
           (int)(15 - strlen(name)), "", N, taps);
    clReleaseKernel(k);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bc);
}

static void test_unroll4(e2e_env *env, cl_program p)
{
    enum { N = 2048, M = 23 };
    static int len[N];
    static unsigned in[N * M], o[N];
    for (int i = 0; i < N; i++)
        len[i] = i < 2 * (M + 1) ? i % (M + 1) : rnd_in(0, M);
    for (int i = 0; i < N * M; i++)
        in[i] = rnd();
    cl_mem bl = e2e_buffer(env, sizeof len, len), bi = e2e_buffer(env, sizeof in, in);
    cl_mem bo = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "unroll4");
    int m = M;
    E2E_ARG(k, 0, bl);
    E2E_ARG(k, 1, bi);
    E2E_ARG(k, 2, bo);
    E2E_ARG(k, 3, m);
    run1(env, k, N);
    e2e_read(env, bo, sizeof o, o);
    for (int i = 0; i < N; i++) {
        unsigned s = 2166136261u;
        for (int t = 0; t < len[i]; t++)
            s = (s ^ in[i * M + t]) * 16777619u;
        EXPECT(o[i] == s);
    }
    printf("unroll4:        %d work-items, #pragma unroll 4 over 0..%d trips (every remainder "
           "mod 4)\n", N, M);
    clReleaseKernel(k);
    clReleaseMemObject(bl);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

static void test_rowsum(e2e_env *env, cl_program p)
{
    enum { N = 1024, M = 64 };
    static int a[N * M], oi[N];
    static float f[N * M], of[N];
    for (int i = 0; i < N * M; i++) {
        a[i] = rnd_in(-1000000, 1000000);
        f[i] = (float)rnd_in(-100000, 100000) * 0.01f;
    }
    cl_mem ba = e2e_buffer(env, sizeof a, a), bf = e2e_buffer(env, sizeof f, f);
    cl_mem boi = e2e_filled_buffer(env, N, SENT), bof = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "rowsum");
    int m = M;
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bf);
    E2E_ARG(k, 2, boi);
    E2E_ARG(k, 3, bof);
    E2E_ARG(k, 4, m);
    run1(env, k, N);
    e2e_read(env, boi, sizeof oi, oi);
    e2e_read(env, bof, sizeof of, of);
    for (int i = 0; i < N; i++) {
        int s = 0;
        float fs = 0.0f;
        for (int t = 0; t < M; t++)
            s += a[i * M + t];
        for (int t = 0; t < M; t++)
            fs += f[i * M + t];
        EXPECT(oi[i] == s);
        EXPECT(e2e_fbits(of[i]) == e2e_fbits(fs));
    }
    printf("rowsum:         %d work-items, int and float sums of a row of %d (in order, "
           "bit-exact)\n", N, M);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bf);
    clReleaseMemObject(boi);
    clReleaseMemObject(bof);
}

/* Counts a subnormal result: clhls would have flushed it, so the host result would no
 * longer be the hardware's. */
static float chk(float v, int *subnormals)
{
    *subnormals += fpclassify(v) == FP_SUBNORMAL;
    return v;
}

/* The Mandelbrot escape count of pixel (px, py), exactly as the kernel computes it. */
static int mandel_ref(int px, int py, float x0, float y0, float d, int maxit, int *subnormals)
{
    float cx = chk(x0 + chk((float)px * d, subnormals), subnormals);
    float cy = chk(y0 + chk((float)py * d, subnormals), subnormals);
    float x = 0.0f, y = 0.0f;
    int it = 0;
    for (;;) {
        float xx = chk(x * x, subnormals), yy = chk(y * y, subnormals);
        if (!(it < maxit && chk(xx + yy, subnormals) <= 4.0f))
            break;
        float xt = chk(chk(xx - yy, subnormals) + cx, subnormals);
        y = chk(chk(chk(2.0f * x, subnormals) * y, subnormals) + cy, subnormals);
        x = xt;
        it++;
    }
    return it;
}

static void test_mandel(e2e_env *env, cl_program p)
{
    enum { W = 64, H = 64, MAXIT = 256 };
    static int o[W * H];
    float x0 = -2.0f, y0 = -1.25f, d = 2.5f / 64.0f;
    int maxit = MAXIT;
    cl_mem bo = e2e_filled_buffer(env, W * H, SENT);
    cl_kernel k = e2e_kernel(p, "mandel");
    E2E_ARG(k, 0, bo);
    E2E_ARG(k, 1, x0);
    E2E_ARG(k, 2, y0);
    E2E_ARG(k, 3, d);
    E2E_ARG(k, 4, maxit);
    size_t g[2] = {W, H};
    EXPECT(e2e_run(env, k, 2, NULL, g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, sizeof o, o);
    long total = 0;
    int inside = 0, subnormals = 0, distinct = 0;
    char seen[MAXIT + 1] = {0};
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            int it = mandel_ref(px, py, x0, y0, d, MAXIT, &subnormals);
            EXPECT(o[py * W + px] == it);
            total += it;
            inside += it == MAXIT;
            distinct += !seen[it];
            seen[it] = 1;
        }
    EXPECT(subnormals == 0); /* the exact comparison is meaningful (see the top) */
    EXPECT(inside > 0 && inside < W * H && distinct > 20);
    printf("mandel:         %dx%d work-items, max %d: %ld iterations, %d points inside, %d "
           "distinct counts, exact\n", W, H, MAXIT, total, inside, distinct);
    clReleaseKernel(k);
    clReleaseMemObject(bo);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, "", 1, NULL);
    /* Every kernel twice: with the board's memory timing, then with the memory
     * model's stress mode (random latency per request, random back-pressure on the
     * memory port; docs/user-guide.md): same results, no deadlock. */
    for (int stress = 0; stress < 2; stress++) {
        if (stress) {
            setenv("CLHLS_SIM_STRESS", "20261123", 1);
            printf("-- again under CLHLS_SIM_STRESS=20261123 --\n");
        }
        test_trip(&env, p);
        test_collatz(&env, p);
        test_mod37(&env, p);
        test_dowhile(&env, p);
        test_lcg(&env, p);
        test_brk(&env, p);
        test_search(&env, p);
        test_nest3(&env, p);
        test_loop_in_branch(&env, p);
        test_branch_in_loop(&env, p);
        test_accum(&env, p);
        test_prefix(&env, p);
        test_fir(&env, p, "fir4", 4);
        test_fir(&env, p, "fir16", 16);
        test_unroll4(&env, p);
        test_rowsum(&env, p);
        test_mandel(&env, p);
    }
    unsetenv("CLHLS_SIM_STRESS");
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
