/* End-to-end: acyclic control flow, all kernels of one program (the hardware is built
 * once). An `if (i < n)` guard with a global size above n (masked stores never write);
 * masked loads whose addresses lie outside their buffer (above and below: a masked load
 * must never issue, the simulator would report the address); if/else storing to
 * different buffers; `?:` chains on int and float; ifs nested 3 deep with a store in
 * the deepest leaf; dense and sparse switches with a default, a fall-through and a
 * store in a case; early returns; int, uint and float compares mixed (NaN, infinities,
 * -0.0, equal values); stores on both sides of a branch to one buffer followed by a
 * load of an address one side stored; a 2-D 3x3 stencil whose border branch keeps the
 * interior's out-of-range loads masked; program-scope __constant tables. Every output
 * element is checked against a host reference; elements a kernel must not write are
 * checked to keep their initial value.
 * Compiled with -ffp-contract=off (the kernels say FP_CONTRACT OFF): float results are
 * compared bit for bit. */
#include "e2e.h"

#include <math.h>
#include <stdint.h>

static const char *src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__constant int lut[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, -3};\n"
    "__constant float weights[5] = {0.5f, -1.25f, 3.0f, 0.125f, 7.75f};\n"
    "struct pair { short a; int b; };\n"
    "__constant struct pair pairs[3] = {{1, -2}, {-3, 40000}, {5, -6}};\n"
    "__kernel void tables(__global const int *in, __global int *o, __global float *f)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int v = in[i];\n"
    "    uint k = (uint)v % 3u;\n"
    "    o[2 * i] = lut[v & 15] + pairs[k].a * pairs[k].b;\n"
    "    float s = 0.0f;\n"
    "    for (int t = 0; t < (v & 7); t++)\n"
    "        s += weights[t % 5];\n"
    "    f[i] = s;\n"
    "    if (v < 0)\n"
    "        o[2 * i + 1] = lut[(v >> 4) & 15];\n"
    "}\n"
    "__kernel void guard(__global const int *in, __global int *out, int n)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    if (i < n)\n"
    "        out[i] = in[i] * 3 + 1;\n"
    "}\n"
    "__kernel void masked_load(__global const int *in, __global int *o1, __global int *o2,\n"
    "                          __global int *o3, int n)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    if (i < n)\n"
    "        o1[i] = in[i];\n"
    "    o2[i] = i < n ? in[i] * 2 : -i;\n"
    "    o3[i] = (i >= 16 && i - 16 < n) ? in[i - 16] : 7;\n"
    "}\n"
    "__kernel void split(__global const int *a, __global int *odd, __global int *even)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int x = a[i];\n"
    "    if (x & 1)\n"
    "        odd[i] = x * 5;\n"
    "    else\n"
    "        even[i] = x - 3;\n"
    "}\n"
    "__kernel void chains(__global const int *a, __global const float *f, __global int *oi,\n"
    "                     __global float *of)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int x = a[i];\n"
    "    float v = f[i];\n"
    "    oi[i] = x < -100 ? -2 : x < 0 ? -1 : x == 0 ? 0 : x < 100 ? 1 : 2;\n"
    "    of[i] = v > 1.5f ? v * 2.0f : v < -1.5f ? -v : v >= 0.0f ? v + 0.25f : 0.5f - v;\n"
    "}\n"
    "__kernel void nested(__global const int *a, __global const int *b, __global int *o,\n"
    "                     __global int *deep)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int x = a[i], y = b[i], r;\n"
    "    if (x > 0) {\n"
    "        if (y > 0) {\n"
    "            if (x > y) {\n"
    "                r = x - y;\n"
    "                deep[i] = y;\n"
    "            } else {\n"
    "                r = y - x + 1000;\n"
    "            }\n"
    "        } else {\n"
    "            if (x + y > 0)\n"
    "                r = 1;\n"
    "            else\n"
    "                r = 2 * x;\n"
    "        }\n"
    "    } else {\n"
    "        if (y > x) {\n"
    "            if (y & 1)\n"
    "                r = 3;\n"
    "            else\n"
    "                r = y * 2;\n"
    "        } else {\n"
    "            r = -x;\n"
    "        }\n"
    "    }\n"
    "    o[i] = r;\n"
    "}\n"
    "__kernel void sw(__global const int *a, __global int *o, __global int *o3)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int x = a[i], r = 1, s;\n"
    "    switch (x & 7) {\n"
    "    case 0: r = 10; break;\n"
    "    case 1: r = x * 2; /* fall through */\n"
    "    case 2: r += 5; break;\n"
    "    case 3: o3[i] = x; /* fall through */\n"
    "    case 4: r = -x; break;\n"
    "    case 6: r = x ^ 0x55; break;\n"
    "    default: r = 99;\n"
    "    }\n"
    "    switch (x) {\n"
    "    case -5: s = 1; break;\n"
    "    case 17: s = 2; break;\n"
    "    case 1000: s = 3; break;\n"
    "    case 65536: s = 4; break;\n"
    "    default: s = 0;\n"
    "    }\n"
    "    o[2 * i] = r;\n"
    "    o[2 * i + 1] = s;\n"
    "}\n"
    "__kernel void early(__global const int *a, __global int *o1, __global int *o2)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int x = a[i];\n"
    "    if (x < 0)\n"
    "        return;\n"
    "    o1[i] = x * 2;\n"
    "    if (x > 500)\n"
    "        return;\n"
    "    o2[i] = x + 1;\n"
    "}\n"
    "__kernel void mixed(__global const int *a, __global const float *f, __global int *o,\n"
    "                    __global float *of)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int x = a[i];\n"
    "    float v = f[i];\n"
    "    int r = 0;\n"
    "    if (v > (float)x) r |= 1;\n"
    "    if (x > 10 && v < 0.5f) r |= 2;\n"
    "    if (v != v) r |= 4;\n"
    "    if ((uint)x > 100u) r |= 8;\n"
    "    if (v >= -2.0f || x == 3) r |= 16;\n"
    "    if (!(v <= 1.0f)) r |= 32;\n"
    "    o[i] = r;\n"
    "    of[i] = (r & 1) ? v : (r & 8) ? (float)x : -1.0f;\n"
    "}\n"
    "__kernel void both(__global const int *a, __global int *o, int n)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int x = a[i];\n"
    "    if (x > 0) {\n"
    "        o[2 * i] = x;\n"
    "        o[2 * n + i] = x * 3;\n"
    "    } else {\n"
    "        o[2 * i + 1] = -x;\n"
    "        o[2 * n + i] = 7;\n"
    "    }\n"
    "    if ((x & 3) == 0)\n"
    "        o[2 * i] += 100;\n"
    "}\n"
    "__kernel void stencil(__global const int *in, __global int *out)\n"
    "{\n"
    "    int x = (int)get_global_id(0), y = (int)get_global_id(1);\n"
    "    int w = (int)get_global_size(0), h = (int)get_global_size(1);\n"
    "    int c = y * w + x;\n"
    "    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)\n"
    "        out[c] = in[c];\n"
    "    else\n"
    "        out[c] = 4 * in[c] - in[c - 1] - in[c + 1] - in[c - w] - in[c + w]\n"
    "                 + ((in[c - w - 1] + in[c - w + 1] + in[c + w - 1] + in[c + w + 1]) >> 1);\n"
    "}\n";

#define SENT 0x5a5a5a5a /* initial value of outputs a kernel may leave unwritten */
enum { N = 2048 };

static unsigned seed = 2463534242u;
static unsigned rnd(void) { return e2e_xorshift(&seed); }
static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (unsigned)(hi - lo + 1)); }



static void test_guard(e2e_env *env, cl_program p)
{
    /* n not a multiple of anything; 536 work-items beyond it. */
    enum { NN = 1000, G = 1536 };
    static int in[NN], out[G];
    for (int i = 0; i < NN; i++)
        in[i] = rnd_in(-100000, 100000);
    cl_mem bin = e2e_buffer(env, sizeof in, in), bout = e2e_filled_buffer(env, G, SENT);
    cl_kernel k = e2e_kernel(p, "guard");
    int n = NN;
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, bout);
    E2E_ARG(k, 2, n);
    size_t g = G;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bout, sizeof out, out);
    for (int i = 0; i < G; i++)
        EXPECT(out[i] == (i < NN ? in[i] * 3 + 1 : SENT));
    printf("guard:       %d work-items, n=%d: %d stores, %d masked stores left memory alone\n",
           G, NN, NN, G - NN);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
}

static void test_masked_load(e2e_env *env, cl_program p)
{
    /* `in` is exactly one 4096-byte page: in[n..2n-1] and in[-16..-1] are addresses
     * outside the buffer (the device leaves unmapped gaps between buffers). */
    enum { NN = 1024, G = 2048 };
    static int in[NN], o1[G], o2[G], o3[G];
    for (int i = 0; i < NN; i++)
        in[i] = rnd_in(-1000000, 1000000);
    cl_mem bin = e2e_buffer(env, sizeof in, in);
    cl_mem b1 = e2e_filled_buffer(env, G, SENT), b2 = e2e_filled_buffer(env, G, SENT), b3 = e2e_filled_buffer(env, G, SENT);
    cl_kernel k = e2e_kernel(p, "masked_load");
    int n = NN;
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, b1);
    E2E_ARG(k, 2, b2);
    E2E_ARG(k, 3, b3);
    E2E_ARG(k, 4, n);
    size_t g = G;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, b1, sizeof o1, o1);
    e2e_read(env, b2, sizeof o2, o2);
    e2e_read(env, b3, sizeof o3, o3);
    for (int i = 0; i < G; i++) {
        EXPECT(o1[i] == (i < NN ? in[i] : SENT));
        EXPECT(o2[i] == (i < NN ? in[i] * 2 : -i));
        EXPECT(o3[i] == ((i >= 16 && i - 16 < NN) ? in[i - 16] : 7));
    }
    printf("masked_load: %d work-items, buffer of %d: %d loads above and 16 below the "
           "buffer stayed masked\n", G, NN, 2 * (G - NN) + (G - NN - 16));
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(b1);
    clReleaseMemObject(b2);
    clReleaseMemObject(b3);
}

static void test_split(e2e_env *env, cl_program p)
{
    static int a[N], odd[N], even[N];
    int nodd = 0;
    for (int i = 0; i < N; i++)
        a[i] = rnd_in(-50000, 50000);
    cl_mem ba = e2e_buffer(env, sizeof a, a), bo = e2e_filled_buffer(env, N, SENT), be = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "split");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, be);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, sizeof odd, odd);
    e2e_read(env, be, sizeof even, even);
    for (int i = 0; i < N; i++) {
        int is_odd = a[i] & 1;
        nodd += is_odd;
        EXPECT(odd[i] == (is_odd ? a[i] * 5 : SENT));
        EXPECT(even[i] == (is_odd ? SENT : a[i] - 3));
    }
    EXPECT(nodd > N / 4 && nodd < 3 * N / 4);
    printf("split:       %d work-items: %d to the odd buffer, %d to the even one\n", N, nodd,
           N - nodd);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
    clReleaseMemObject(be);
}

static void test_chains(e2e_env *env, cl_program p)
{
    static int a[N], oi[N];
    static float f[N], of[N];
    static const int edges[] = {-101, -100, -99, -1, 0, 1, 99, 100, 101};
    static const float fedges[] = {1.5f, -1.5f, 0.0f, -0.0f, 1.625f, -1.625f, 2.0f, -3.0f};
    for (int i = 0; i < N; i++) {
        a[i] = i < 9 ? edges[i] : rnd_in(-300, 300);
        f[i] = i < 8 ? fedges[i] : (float)rnd_in(-32, 32) * 0.125f;
    }
    cl_mem ba = e2e_buffer(env, sizeof a, a), bf = e2e_buffer(env, sizeof f, f);
    cl_mem boi = e2e_filled_buffer(env, N, SENT), bof = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "chains");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bf);
    E2E_ARG(k, 2, boi);
    E2E_ARG(k, 3, bof);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, boi, sizeof oi, oi);
    e2e_read(env, bof, sizeof of, of);
    int hist[5] = {0};
    for (int i = 0; i < N; i++) {
        int x = a[i];
        float v = f[i];
        int wi = x < -100 ? -2 : x < 0 ? -1 : x == 0 ? 0 : x < 100 ? 1 : 2;
        float wf = v > 1.5f ? v * 2.0f : v < -1.5f ? -v : v >= 0.0f ? v + 0.25f : 0.5f - v;
        EXPECT(oi[i] == wi);
        EXPECT(e2e_fbits(of[i]) == e2e_fbits(wf));
        hist[wi + 2]++;
    }
    for (int j = 0; j < 5; j++)
        EXPECT(hist[j] > 0);
    printf("chains:      %d work-items: int chain outcomes %d/%d/%d/%d/%d, float chain bit-exact\n",
           N, hist[0], hist[1], hist[2], hist[3], hist[4]);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bf);
    clReleaseMemObject(boi);
    clReleaseMemObject(bof);
}

static void test_nested(e2e_env *env, cl_program p)
{
    static int a[N], b[N], o[N], deep[N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_in(-1000, 1000);
        b[i] = i % 5 == 0 ? a[i] : rnd_in(-1000, 1000);
    }
    cl_mem ba = e2e_buffer(env, sizeof a, a), bb = e2e_buffer(env, sizeof b, b);
    cl_mem bo = e2e_filled_buffer(env, N, SENT), bd = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "nested");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bo);
    E2E_ARG(k, 3, bd);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, bd, sizeof deep, deep);
    int leaves[7] = {0};
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i], r, d = SENT, leaf;
        if (x > 0) {
            if (y > 0) {
                if (x > y) {
                    r = x - y;
                    d = y;
                    leaf = 0;
                } else {
                    r = y - x + 1000;
                    leaf = 1;
                }
            } else {
                if (x + y > 0) {
                    r = 1;
                    leaf = 2;
                } else {
                    r = 2 * x;
                    leaf = 3;
                }
            }
        } else {
            if (y > x) {
                if (y & 1) {
                    r = 3;
                    leaf = 4;
                } else {
                    r = y * 2;
                    leaf = 5;
                }
            } else {
                r = -x;
                leaf = 6;
            }
        }
        EXPECT(o[i] == r);
        EXPECT(deep[i] == d);
        leaves[leaf]++;
    }
    for (int j = 0; j < 7; j++)
        EXPECT(leaves[j] > 0);
    printf("nested:      %d work-items: 7 leaves 3 deep all taken (%d reached the store)\n", N,
           leaves[0]);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
    clReleaseMemObject(bd);
}

static void test_switch(e2e_env *env, cl_program p)
{
    static int a[N], o[2 * N], o3[N];
    static const int keys[] = {-5, 17, 1000, 65536, -4, 18, 999, 65537};
    for (int i = 0; i < N; i++)
        a[i] = i % 7 == 0 ? keys[(i / 7) % 8] : rnd_in(-100000, 100000);
    cl_mem ba = e2e_buffer(env, sizeof a, a);
    cl_mem bo = e2e_filled_buffer(env, 2 * N, SENT), b3 = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "sw");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, b3);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, b3, sizeof o3, o3);
    int cases[8] = {0}, sparse[5] = {0};
    for (int i = 0; i < N; i++) {
        int x = a[i], r = 1, s, w3 = SENT;
        switch (x & 7) {
        case 0:
            r = 10;
            break;
        case 1:
            r = x * 2;
            /* fall through */
        case 2:
            r += 5;
            break;
        case 3:
            w3 = x;
            /* fall through */
        case 4:
            r = -x;
            break;
        case 6:
            r = x ^ 0x55;
            break;
        default:
            r = 99;
        }
        switch (x) {
        case -5:
            s = 1;
            break;
        case 17:
            s = 2;
            break;
        case 1000:
            s = 3;
            break;
        case 65536:
            s = 4;
            break;
        default:
            s = 0;
        }
        EXPECT(o[2 * i] == r);
        EXPECT(o[2 * i + 1] == s);
        EXPECT(o3[i] == w3);
        cases[x & 7]++;
        sparse[s]++;
    }
    for (int j = 0; j < 8; j++)
        EXPECT(cases[j] > 0);
    for (int j = 0; j < 5; j++)
        EXPECT(sparse[j] > 0);
    printf("switch:      %d work-items: every dense case (fall-throughs, a store in case 3) "
           "and every sparse key taken\n", N);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
    clReleaseMemObject(b3);
}

static void test_early(e2e_env *env, cl_program p)
{
    static int a[N], o1[N], o2[N];
    for (int i = 0; i < N; i++)
        a[i] = rnd_in(-400, 1000);
    cl_mem ba = e2e_buffer(env, sizeof a, a), b1 = e2e_filled_buffer(env, N, SENT), b2 = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "early");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, b1);
    E2E_ARG(k, 2, b2);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, b1, sizeof o1, o1);
    e2e_read(env, b2, sizeof o2, o2);
    int first = 0, second = 0;
    for (int i = 0; i < N; i++) {
        int x = a[i];
        EXPECT(o1[i] == (x < 0 ? SENT : x * 2));
        EXPECT(o2[i] == (x < 0 || x > 500 ? SENT : x + 1));
        first += x < 0;
        second += x > 500;
    }
    EXPECT(first > 0 && second > 0);
    printf("early:       %d work-items: %d returned at once, %d after the first store\n", N,
           first, second);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(b1);
    clReleaseMemObject(b2);
}

static void test_mixed(e2e_env *env, cl_program p)
{
    static int a[N], o[N];
    static float f[N], of[N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 13 == 0 ? rnd_in(-2000000, -1) : rnd_in(-20, 150);
        switch (i % 11) {
        case 0: f[i] = (float)a[i]; break; /* equal to x: > is false */
        case 1: f[i] = NAN; break;
        case 2: f[i] = INFINITY; break;
        case 3: f[i] = -INFINITY; break;
        case 4: f[i] = -0.0f; break;
        case 5: f[i] = i % 2 ? 0.5f : 1.0f; break;
        case 6: f[i] = -2.0f; break;
        default: f[i] = (float)rnd_in(-40, 200) * 0.25f;
        }
        if (i % 17 == 0)
            a[i] = 3;
    }
    cl_mem ba = e2e_buffer(env, sizeof a, a), bf = e2e_buffer(env, sizeof f, f);
    cl_mem bo = e2e_filled_buffer(env, N, SENT), bof = e2e_filled_buffer(env, N, SENT);
    cl_kernel k = e2e_kernel(p, "mixed");
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bf);
    E2E_ARG(k, 2, bo);
    E2E_ARG(k, 3, bof);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, sizeof o, o);
    e2e_read(env, bof, sizeof of, of);
    int bits[6] = {0};
    for (int i = 0; i < N; i++) {
        int x = a[i], r = 0;
        float v = f[i];
        if (v > (float)x)
            r |= 1;
        if (x > 10 && v < 0.5f)
            r |= 2;
        if (v != v)
            r |= 4;
        if ((unsigned)x > 100u)
            r |= 8;
        if (v >= -2.0f || x == 3)
            r |= 16;
        if (!(v <= 1.0f))
            r |= 32;
        float w = (r & 1) ? v : (r & 8) ? (float)x : -1.0f;
        EXPECT(o[i] == r);
        EXPECT(e2e_fbits(of[i]) == e2e_fbits(w));
        for (int j = 0; j < 6; j++)
            bits[j] += (r >> j) & 1;
    }
    for (int j = 0; j < 6; j++)
        EXPECT(bits[j] > 0 && bits[j] < N);
    printf("mixed:       %d work-items: 6 int/uint/float conditions (NaN, inf, -0.0 among the "
           "inputs), each both true and false\n", N);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bf);
    clReleaseMemObject(bo);
    clReleaseMemObject(bof);
}

static void test_both(e2e_env *env, cl_program p)
{
    static int a[N], o[3 * N];
    for (int i = 0; i < N; i++)
        a[i] = rnd_in(-10000, 10000);
    cl_mem ba = e2e_buffer(env, sizeof a, a), bo = e2e_filled_buffer(env, 3 * N, SENT);
    cl_kernel k = e2e_kernel(p, "both");
    int n = N;
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, n);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, sizeof o, o);
    int reread = 0;
    for (int i = 0; i < N; i++) {
        int x = a[i];
        int w0 = SENT, w1 = SENT, w2;
        if (x > 0) {
            w0 = x;
            w2 = x * 3;
        } else {
            w1 = -x;
            w2 = 7;
        }
        if ((x & 3) == 0) {
            w0 += 100;
            reread += x > 0;
        }
        EXPECT(o[2 * i] == w0);
        EXPECT(o[2 * i + 1] == w1);
        EXPECT(o[2 * N + i] == w2);
    }
    EXPECT(reread > 0);
    printf("both:        %d work-items: stores on both sides to one buffer; %d loads saw the "
           "work-item's own branch store\n", N, reread);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bo);
}

/* Program-scope __constant tables (ints, floats, an array of structs) read with
 * computed indexes, in straight-line code, in a loop and under a branch. */
static void test_tables(e2e_env *env, cl_program p)
{
    static const int lut[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, -3};
    static const float weights[5] = {0.5f, -1.25f, 3.0f, 0.125f, 7.75f};
    static const struct { short a; int b; } pairs[3] = {{1, -2}, {-3, 40000}, {5, -6}};
    int *in = malloc(N * sizeof *in), *o = malloc(2 * N * sizeof *o);
    float *f = malloc(N * sizeof *f);
    EXPECT(in && o && f);
    for (int i = 0; i < N; i++)
        in[i] = (int)rnd();
    cl_kernel k = e2e_kernel(p, "tables");
    cl_mem bi = e2e_buffer(env, N * sizeof *in, in), bo = e2e_filled_buffer(env, 2 * N, SENT),
           bf = e2e_buffer(env, N * sizeof *f, NULL);
    E2E_ARG(k, 0, bi);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, bf);
    size_t g = N;
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    e2e_read(env, bo, 2 * N * sizeof *o, o);
    e2e_read(env, bf, N * sizeof *f, f);
    int negative = 0;
    for (int i = 0; i < N; i++) {
        int v = in[i];
        unsigned kk = (unsigned)v % 3u;
        EXPECT(o[2 * i] == lut[v & 15] + pairs[kk].a * pairs[kk].b);
        float s = 0.0f;
        for (int t = 0; t < (v & 7); t++)
            s += weights[t % 5];
        EXPECT(e2e_fbits(f[i]) == e2e_fbits(s));
        EXPECT(o[2 * i + 1] == (v < 0 ? lut[(v >> 4) & 15] : SENT));
        negative += v < 0;
    }
    printf("tables:      %d work-items: int, float and struct __constant tables, %d reads "
           "under a branch\n", N, negative);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseMemObject(bf);
    clReleaseKernel(k);
    free(in);
    free(o);
    free(f);
}

static void test_stencil(e2e_env *env, cl_program p)
{
    /* 64 x 48 ints = 3 pages exactly: the interior formula at the border would read
     * outside the buffer on the first and last rows. */
    enum { W = 64, H = 48 };
    static int in[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = rnd_in(-30000, 30000);
    cl_mem bin = e2e_buffer(env, sizeof in, in), bout = e2e_filled_buffer(env, W * H, SENT);
    cl_kernel k = e2e_kernel(p, "stencil");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, bout);
    size_t g[2] = {W, H};
    EXPECT(e2e_run(env, k, 2, NULL, g, NULL) == CL_COMPLETE);
    e2e_read(env, bout, sizeof out, out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int c = y * W + x, want;
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                want = in[c];
            else
                want = 4 * in[c] - in[c - 1] - in[c + 1] - in[c - W] - in[c + W] +
                       ((in[c - W - 1] + in[c - W + 1] + in[c + W - 1] + in[c + W + 1]) >> 1);
            EXPECT(out[c] == want);
        }
    printf("stencil:     %dx%d work-items: 3x3 interior, %d border work-items copied\n", W, H,
           2 * W + 2 * H - 4);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
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
        test_guard(&env, p);
        test_masked_load(&env, p);
        test_split(&env, p);
        test_chains(&env, p);
        test_nested(&env, p);
        test_switch(&env, p);
        test_early(&env, p);
        test_mixed(&env, p);
        test_both(&env, p);
        test_stencil(&env, p);
        test_tables(&env, p);
    }
    unsetenv("CLHLS_SIM_STRESS");
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
