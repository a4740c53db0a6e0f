/* End-to-end: what a kernel receives and keeps per work-item, all kernels of one
 * program (the hardware is built once). Structs passed by value with the host's
 * layout (a char before them, padding inside, a long, a short and an array field, a
 * second struct after a buffer), scalars of every size at their C alignment, and a
 * kernel with 121 arguments (more than one register each would allow) whose result
 * depends on every one of them. Private arrays indexed at run time: a histogram
 * updated in a loop with a data-dependent trip count, a table with an initialiser
 * updated and read at computed indices, a char array cleared by `= {0}` filled in a
 * do-while loop and read back, a 2-D array whose rows are swapped at run-time
 * indices, an array filled from a vector put together from two others (a
 * shufflevector) and read at run-time indices. Every output element is checked against a host reference; the private
 * array kernels run a second time under random memory latency and back-pressure. */
#include "e2e.h"

#include <stdint.h>

/* The host's view of the kernels' structs: the same C layout on both sides. */
typedef struct {
    cl_char tag;
    cl_int scale;
    cl_float offset;
    cl_long big;
    cl_short small;
    cl_float coef[3];
} params;

typedef struct {
    cl_int lo, hi;
} range;

/* `many`'s ulong arguments: with its buffer 1768 bytes, past the 1024 the device promises
 * and up to the argument area's last registers. */
#define MANY 220

static const char *fixed_src =
    "typedef struct { char tag; int scale; float offset; long big; short small;\n"
    "                 float coef[3]; } params;\n"
    "typedef struct { int lo, hi; } range;\n"
    "__kernel void structs(char c, params p, __global float *out, range r,\n"
    "                      __global long *outl, short s)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float x = (float)i;\n"
    "    out[i] = (p.coef[0] * x + p.coef[1]) * x + p.coef[2] + p.offset * (float)p.scale;\n"
    "    long v = p.big + (long)p.tag * i + p.small * (long)s + c;\n"
    "    outl[i] = (i >= r.lo && i < r.hi) ? v : -1;\n"
    "}\n"
    "__kernel void volatiles(volatile int4 v, volatile float f, __global int4 *out)\n"
    "{\n"
    "    volatile int4 w = v + (int)get_global_id(0);\n"
    "    out[get_global_id(0)] = w * (int4)((int)f);\n"
    "}\n"
    "__kernel void histogram(__global const int *in, __global int *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    int h[8];\n"
    "    for (int j = 0; j < 8; j++)\n"
    "        h[j] = 0;\n"
    "    int n = in[i * 17] & 15;\n"
    "    for (int j = 0; j < n; j++)\n"
    "        h[in[i * 17 + 1 + j] & 7]++;\n"
    "    int s = 0;\n"
    "    for (int j = 0; j < 8; j++)\n"
    "        s = s * 3 + h[j];\n"
    "    out[i] = s;\n"
    "}\n"
    "__kernel void table(__global const int *idx, __global float *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float t[5] = {1.0f, 2.5f, -3.0f, 4.0f, 0.5f};\n"
    "    t[i % 5] += 1.0f;\n"
    "    out[i] = t[idx[i] % 5] * t[(i + 1) % 5];\n"
    "}\n"
    "__kernel void digits(__global const uint *in, __global uint *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    uchar d[12] = {0};\n"
    "    uint x = in[i];\n"
    "    int n = 0;\n"
    "    do {\n"
    "        d[n++] = x % 10;\n"
    "        x /= 10;\n"
    "    } while (x);\n"
    "    uint r = 0;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        r = r * 10 + d[k];\n"
    "    out[2 * i] = r;\n"
    "    out[2 * i + 1] = n * 100 + d[11] + d[(i & 1) + 10];\n"
    "}\n"
    "__kernel void matrix(__global const float *in, __global float *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float m[4][4];\n"
    "    for (int r = 0; r < 4; r++)\n"
    "        for (int c = 0; c < 4; c++)\n"
    "            m[r][c] = in[16 * i + 4 * r + c];\n"
    "    int p = i & 3, q = (i >> 2) & 3;\n"
    "    for (int c = 0; c < 4; c++) {\n"
    "        float t = m[p][c];\n"
    "        m[p][c] = m[q][c];\n"
    "        m[q][c] = t;\n"
    "    }\n"
    "    for (int r = 0; r < 4; r++)\n"
    "        for (int c = 0; c < 4; c++)\n"
    "            out[16 * i + 4 * r + c] = m[r][c] * (float)(r + 1);\n"
    "}\n"
    "__kernel void gather(__global const float4 *in, __global const int *idx,\n"
    "                     __global float *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    float8 v = (float8)(in[2 * i + 1], in[2 * i]);\n"
    "    float t[8];\n"
    "    for (int j = 0; j < 8; j++)\n"
    "        t[j] = v[j];\n"
    "    out[i] = t[idx[i] & 7] - t[(idx[i] >> 3) & 7];\n"
    "}\n"
    /* c ? a[i] : a[j]: LLVM reads through a phi of the two addresses when i is loaded on
     * one path only, through a select when both indices come from a second array */
    "__kernel void choose(__global const int *in, __global int *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    short a[8];\n"
    "    uchar b[8];\n"
    "    for (int j = 0; j < 8; j++) {\n"
    "        a[j] = (short)in[i * 17 + j];\n"
    "        b[j] = (uchar)in[i * 17 + 8 + j];\n"
    "    }\n"
    "    int c = in[i * 17 + 16];\n"
    "    a[c & 7] = 7;\n"
    "    b[(c >> 3) & 7] = 9;\n"
    "    int x = (c & 64) ? a[in[(i * 17 + 5) % 4352] & 7] : a[0];\n"
    "    int y = (c & 128) ? a[b[5] & 7] : a[1];\n"
    "    out[i] = x * 65536 + (y & 0xffff);\n"
    "}\n"
    /* the same across different arrays: LLVM reads and writes through a select or phi
     * of addresses in two or three arrays */
    "__kernel void choose_arrays(__global const int *in, __global uint *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    uint a[8], b[8], d[8];\n"
    "    for (int j = 0; j < 8; j++) {\n"
    "        a[j] = (uint)in[i * 17 + j];\n"
    "        b[j] = (uint)in[i * 17 + 8 + j] ^ (uint)i;\n"
    "        d[j] = (uint)j * 977u;\n"
    "    }\n"
    "    int c = in[i * 17 + 16], k = (c >> 5) & 7;\n"
    "    uint v = (c & 1) ? a[c & 7] : b[(c >> 3) & 7];\n"
    "    uint w;\n"
    "    if (c & 2)\n"
    "        w = a[in[(i * 17 + 5) % 4352] & 7];\n"
    "    else\n"
    "        w = b[k];\n"
    "    uint x = (c & 4) ? a[k] : (c & 8) ? b[c & 7] : d[(c >> 9) & 7];\n"
    "    *((c & 16) ? &a[k] : &b[(k + 3) & 7]) += v;\n"
    "    if (c & 32)\n"
    "        a[(c >> 12) & 7] = w;\n"
    "    else\n"
    "        b[(c >> 12) & 7] = w;\n"
    "    *((c & 64) ? &d[k] : (c & 128) ? &a[c & 7] : &b[c & 7]) = x;\n"
    "    uint h = v * 3u + w * 5u + x * 7u;\n"
    "    for (int j = 0; j < 8; j++)\n"
    "        h = h * 31u + a[j] * 11u + b[j] * 13u + d[j];\n"
    "    out[i] = h;\n"
    "}\n"
    /* pointer variables over private arrays: one set to an array chosen at run time, one
     * that walks an array in a loop, ping-pong buffers swapped in a loop */
    "__kernel void array_pointers(__global const int *in, __global uint *out)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    uint a[8], b[8];\n"
    "    for (int j = 0; j < 8; j++) {\n"
    "        a[j] = (uint)in[i * 17 + j];\n"
    "        b[j] = (uint)in[i * 17 + 8 + j] + (uint)j;\n"
    "    }\n"
    "    int c = in[i * 17 + 16];\n"
    "    uint *p = (c & 1) ? a : b;\n"
    "    p[(c >> 1) & 7] ^= 0x5a5au;\n"
    "    uint h = p[(c >> 4) & 7];\n"
    "    uint *w = a + ((c >> 7) & 1);\n"
    "    for (int j = 0; j < ((c >> 9) & 7); j++) {\n"
    "        h = h * 7u + *w;\n"
    "        *w += (uint)j;\n"
    "        w += (c >> (12 + j)) & 1;\n"
    "    }\n"
    "    uint *src = a, *dst = b;\n"
    "    for (int r = 0; r < ((c >> 20) & 3) + 1; r++) {\n"
    "        for (int j = 0; j < 8; j++)\n"
    "            dst[j] = src[(j + r) & 7] * 3u + (uint)r;\n"
    "        uint *t = src;\n"
    "        src = dst;\n"
    "        dst = t;\n"
    "    }\n"
    "    for (int j = 0; j < 8; j++)\n"
    "        h = h * 31u + a[j] * 11u + b[j] + src[(j + c) & 7];\n"
    "    out[i] = h;\n"
    "}\n";

/* array_pointers of the kernel source above, on the host. */
static unsigned array_pointers_ref(const int *in, int i)
{
    unsigned a[8], b[8];
    for (int j = 0; j < 8; j++) {
        a[j] = (unsigned)in[i * 17 + j];
        b[j] = (unsigned)in[i * 17 + 8 + j] + (unsigned)j;
    }
    int c = in[i * 17 + 16];
    unsigned *p = (c & 1) ? a : b;
    p[(c >> 1) & 7] ^= 0x5a5au;
    unsigned h = p[(c >> 4) & 7];
    unsigned *w = a + ((c >> 7) & 1);
    for (int j = 0; j < ((c >> 9) & 7); j++) {
        h = h * 7u + *w;
        *w += (unsigned)j;
        w += (c >> (12 + j)) & 1;
    }
    unsigned *src = a, *dst = b;
    for (int r = 0; r < ((c >> 20) & 3) + 1; r++) {
        for (int j = 0; j < 8; j++)
            dst[j] = src[(j + r) & 7] * 3u + (unsigned)r;
        unsigned *t = src;
        src = dst;
        dst = t;
    }
    for (int j = 0; j < 8; j++)
        h = h * 31u + a[j] * 11u + b[j] + src[(j + c) & 7];
    return h;
}

/* choose_arrays of the kernel source above, on the host. */
static unsigned choose_arrays_ref(const int *in, int i)
{
    unsigned a[8], b[8], d[8];
    for (int j = 0; j < 8; j++) {
        a[j] = (unsigned)in[i * 17 + j];
        b[j] = (unsigned)in[i * 17 + 8 + j] ^ (unsigned)i;
        d[j] = (unsigned)j * 977u;
    }
    int c = in[i * 17 + 16], k = (c >> 5) & 7;
    unsigned v = (c & 1) ? a[c & 7] : b[(c >> 3) & 7];
    unsigned w = (c & 2) ? a[in[(i * 17 + 5) % 4352] & 7] : b[k];
    unsigned x = (c & 4) ? a[k] : (c & 8) ? b[c & 7] : d[(c >> 9) & 7];
    *((c & 16) ? &a[k] : &b[(k + 3) & 7]) += v;
    if (c & 32)
        a[(c >> 12) & 7] = w;
    else
        b[(c >> 12) & 7] = w;
    *((c & 64) ? &d[k] : (c & 128) ? &a[c & 7] : &b[c & 7]) = x;
    unsigned h = v * 3u + w * 5u + x * 7u;
    for (int j = 0; j < 8; j++)
        h = h * 31u + a[j] * 11u + b[j] * 13u + d[j];
    return h;
}

/* The private array kernels, each against its host reference; 0 when all match. */
static int private_arrays(e2e_env *env, cl_program prog)
{
    enum { N = 256 };
    unsigned seed = 777;
    int *in = malloc(N * 17 * sizeof *in);
    float *fin = malloc(N * 16 * sizeof *fin);
    EXPECT(in && fin);
    for (int i = 0; i < N * 17; i++)
        in[i] = (int)(e2e_xorshift(&seed) & 0x7fffffff);
    for (int i = 0; i < N * 16; i++)
        fin[i] = (float)(int)(e2e_xorshift(&seed) % 2001 - 1000) * 0.25f;
    cl_mem bin = e2e_buffer(env, N * 17 * sizeof *in, in);
    cl_mem bfin = e2e_buffer(env, N * 16 * sizeof *fin, fin);
    cl_mem out = e2e_buffer(env, N * 16 * sizeof(float), NULL);
    size_t g = N;
    int bad = 0;

    cl_kernel k = e2e_kernel(prog, "histogram");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    int o[2 * N];
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, N * sizeof *o, o, 0, NULL, NULL));
    for (int i = 0; i < N && !bad; i++) {
        int h[8] = {0}, n = in[i * 17] & 15, s = 0;
        for (int j = 0; j < n; j++)
            h[in[i * 17 + 1 + j] & 7]++;
        for (int j = 0; j < 8; j++)
            s = s * 3 + h[j];
        if (o[i] != s)
            bad = fprintf(stderr, "histogram[%d] = %d, expected %d\n", i, o[i], s);
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "table");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    float f[16 * N];
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, N * sizeof *f, f, 0, NULL, NULL));
    for (int i = 0; i < N && !bad; i++) {
        float t[5] = {1.0f, 2.5f, -3.0f, 4.0f, 0.5f};
        t[i % 5] += 1.0f;
        float e = t[in[i] % 5] * t[(i + 1) % 5];
        if (e2e_fbits(f[i]) != e2e_fbits(e))
            bad = fprintf(stderr, "table[%d] = %g, expected %g\n", i, f[i], e);
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "digits");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, 2 * N * sizeof *o, o, 0, NULL,
                              NULL));
    for (int i = 0; i < N && !bad; i++) {
        unsigned char d[12] = {0};
        unsigned x = (unsigned)in[i], r = 0;
        int n = 0;
        do {
            d[n++] = (unsigned char)(x % 10);
            x /= 10;
        } while (x);
        for (int j = 0; j < n; j++)
            r = r * 10 + d[j];
        unsigned e1 = (unsigned)(n * 100 + d[11] + d[(i & 1) + 10]);
        if ((unsigned)o[2 * i] != r || (unsigned)o[2 * i + 1] != e1)
            bad = fprintf(stderr, "digits[%d] = %u %u, expected %u %u\n", i, o[2 * i],
                          o[2 * i + 1], r, e1);
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "matrix");
    E2E_ARG(k, 0, bfin);
    E2E_ARG(k, 1, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
    for (int i = 0; i < N && !bad; i++) {
        float m[4][4];
        memcpy(m, fin + 16 * i, sizeof m);
        int p = i & 3, q = (i >> 2) & 3;
        for (int c = 0; c < 4; c++) {
            float t = m[p][c];
            m[p][c] = m[q][c];
            m[q][c] = t;
        }
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                if (e2e_fbits(f[16 * i + 4 * r + c]) != e2e_fbits(m[r][c] * (float)(r + 1)))
                    bad = fprintf(stderr, "matrix[%d][%d][%d] = %g, expected %g\n", i, r, c,
                                  f[16 * i + 4 * r + c], m[r][c] * (float)(r + 1));
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "gather");
    E2E_ARG(k, 0, bfin);
    E2E_ARG(k, 1, bin);
    E2E_ARG(k, 2, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, N * sizeof *f, f, 0, NULL, NULL));
    for (int i = 0; i < N && !bad; i++) {
        float t[8];
        memcpy(t, fin + 4 * (2 * i + 1), 4 * sizeof *t);
        memcpy(t + 4, fin + 4 * (2 * i), 4 * sizeof *t);
        float e = t[in[i] & 7] - t[(in[i] >> 3) & 7];
        if (e2e_fbits(f[i]) != e2e_fbits(e))
            bad = fprintf(stderr, "gather[%d] = %g, expected %g\n", i, f[i], e);
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "choose");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, N * sizeof *o, o, 0, NULL, NULL));
    for (int i = 0; i < N && !bad; i++) {
        short a[8];
        unsigned char b[8];
        for (int j = 0; j < 8; j++) {
            a[j] = (short)in[i * 17 + j];
            b[j] = (unsigned char)in[i * 17 + 8 + j];
        }
        int c = in[i * 17 + 16];
        a[c & 7] = 7;
        b[(c >> 3) & 7] = 9;
        int x = (c & 64) ? a[in[(i * 17 + 5) % 4352] & 7] : a[0];
        int y = (c & 128) ? a[b[5] & 7] : a[1];
        int e = (int)((unsigned)x * 65536u + (unsigned)(y & 0xffff));
        if (o[i] != e)
            bad = fprintf(stderr, "choose[%d] = %d, expected %d\n", i, o[i], e);
    }
    clReleaseKernel(k);

    k = e2e_kernel(prog, "choose_arrays");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, N * sizeof *o, o, 0, NULL, NULL));
    for (int i = 0; i < N && !bad; i++)
        if ((unsigned)o[i] != choose_arrays_ref(in, i))
            bad = fprintf(stderr, "choose_arrays[%d] = 0x%x, expected 0x%x\n", i,
                          (unsigned)o[i], choose_arrays_ref(in, i));
    clReleaseKernel(k);

    k = e2e_kernel(prog, "array_pointers");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, out);
    EXPECT(e2e_run(env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, N * sizeof *o, o, 0, NULL, NULL));
    for (int i = 0; i < N && !bad; i++)
        if ((unsigned)o[i] != array_pointers_ref(in, i))
            bad = fprintf(stderr, "array_pointers[%d] = 0x%x, expected 0x%x\n", i,
                          (unsigned)o[i], array_pointers_ref(in, i));
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bfin);
    clReleaseMemObject(out);
    free(in);
    free(fin);
    return bad;
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    size_t max_param = 0;
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof max_param,
                          &max_param, NULL));
    EXPECT(max_param >= 1024);

    /* The program: the fixed kernels, then `many` with MANY ulong arguments. */
    size_t cap = strlen(fixed_src) + 64 * MANY + 256;
    char *src = malloc(cap);
    EXPECT(src);
    strcpy(src, fixed_src);
    strcat(src, "__kernel void many(__global ulong *out");
    for (int a = 0; a < MANY; a++)
        snprintf(src + strlen(src), cap - strlen(src), ", ulong a%d", a);
    strcat(src, ")\n{\n    int i = (int)get_global_id(0);\n    ulong s = i;\n");
    for (int a = 0; a < MANY; a++)
        snprintf(src + strlen(src), cap - strlen(src), "    s = s * 3 + a%d;\n", a);
    strcat(src, "    out[i] = s;\n}\n");
    cl_program prog = e2e_build(&env, src, "", 1, NULL);
    free(src);
    enum { N = 64 };

    { /* structs */
        cl_kernel k = e2e_kernel(prog, "structs");
        cl_char c = -7;
        params p = {.tag = 3, .scale = -5, .offset = 0.75f, .big = 5000000000LL, .small = -300,
                    .coef = {0.5f, -2.0f, 9.25f}};
        range r = {5, 50};
        cl_short s = 11;
        cl_mem out = e2e_buffer(&env, N * sizeof(float), NULL);
        cl_mem outl = e2e_buffer(&env, N * sizeof(cl_long), NULL);
        E2E_ARG(k, 0, c);
        E2E_ARG(k, 1, p);
        E2E_ARG(k, 2, out);
        E2E_ARG(k, 3, r);
        E2E_ARG(k, 4, outl);
        E2E_ARG(k, 5, s);
        size_t g = N;
        EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
        float f[N];
        cl_long l[N];
        CL_OK(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
        CL_OK(clEnqueueReadBuffer(env.queue, outl, CL_TRUE, 0, sizeof l, l, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            float x = (float)i;
            float fe = (p.coef[0] * x + p.coef[1]) * x + p.coef[2] + p.offset * (float)p.scale;
            cl_long v = p.big + (cl_long)p.tag * i + p.small * (cl_long)s + c;
            if (e2e_fbits(f[i]) != e2e_fbits(fe) || l[i] != (i >= r.lo && i < r.hi ? v : -1)) {
                fprintf(stderr, "structs[%d]: %g %lld, expected %g %lld\n", i, f[i],
                        (long long)l[i], fe, (long long)v);
                return 1;
            }
        }
        /* A struct of the wrong size is refused. */
        EXPECT(clSetKernelArg(k, 1, sizeof p - 8, &p) == CL_INVALID_ARG_SIZE);
        clReleaseMemObject(out);
        clReleaseMemObject(outl);
        clReleaseKernel(k);
    }
    { /* volatile arguments and variables: private, so plain values in hardware (a
       * by-value argument's qualifier is not reported: OpenCL names qualifiers of the
       * type a pointer points to) */
        cl_kernel k = e2e_kernel(prog, "volatiles");
        cl_int4 v = {{3, -4, 5, 1000}};
        cl_float f = 3.0f;
        cl_mem out = e2e_buffer(&env, N * sizeof(cl_int4), NULL);
        E2E_ARG(k, 0, v);
        E2E_ARG(k, 1, f);
        E2E_ARG(k, 2, out);
        size_t g = N;
        EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
        cl_int4 o[N];
        CL_OK(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
        for (int i = 0; i < N; i++)
            for (int j = 0; j < 4; j++)
                if (o[i].s[j] != (v.s[j] + i) * 3) {
                    fprintf(stderr, "volatiles[%d].s%d = %d, expected %d\n", i, j, o[i].s[j],
                            (v.s[j] + i) * 3);
                    return 1;
                }
        cl_kernel_arg_type_qualifier q = 0;
        CL_OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof q, &q, NULL));
        EXPECT(q == CL_KERNEL_ARG_TYPE_NONE);
        clReleaseMemObject(out);
        clReleaseKernel(k);
    }
    { /* many: every argument counts */
        cl_kernel k = e2e_kernel(prog, "many");
        cl_mem out = e2e_buffer(&env, N * sizeof(cl_ulong), NULL);
        E2E_ARG(k, 0, out);
        unsigned seed = 12345;
        cl_ulong a[MANY];
        for (int i = 0; i < MANY; i++) {
            a[i] = (cl_ulong)e2e_xorshift(&seed) << 32 | e2e_xorshift(&seed);
            E2E_ARG(k, (cl_uint)i + 1, a[i]);
        }
        size_t g = N;
        EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
        cl_ulong o[N];
        CL_OK(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
        for (unsigned i = 0; i < N; i++) {
            cl_ulong s = i;
            for (int j = 0; j < MANY; j++)
                s = s * 3 + a[j];
            if (o[i] != s) {
                fprintf(stderr, "many[%u] = %llu, expected %llu\n", i, (unsigned long long)o[i],
                        (unsigned long long)s);
                return 1;
            }
        }
        clReleaseMemObject(out);
        clReleaseKernel(k);
    }
    /* The private arrays twice: with the board's memory timing, then under the memory
     * model's stress mode (random latency per request, random back-pressure). */
    if (private_arrays(&env, prog))
        return 1;
    setenv("CLHLS_SIM_STRESS", "20261123", 1);
    if (private_arrays(&env, prog))
        return 1;
    unsetenv("CLHLS_SIM_STRESS");
    clReleaseProgram(prog);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
