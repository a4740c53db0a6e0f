/* End-to-end: work-items of a work-group cooperating through __local memory and
 * barriers, all kernels in one program (built as OpenCL C 2.0, so remainder groups
 * run with their real size). A reversal through a __local array for work-group sizes
 * 1, 7, 64, 256 and 1024 with remainder groups; a tree reduction in a __local
 * argument with a barrier inside a loop; a tiled matrix multiply with 2-D __local
 * tiles and barriers inside the tile loop; a transpose through a padded tile; a
 * __local array of structs and one of float4; bytes written into a __local array of
 * words (byte enables) through two __local arguments; a barrier inside a branch that
 * whole work-groups take or skip; tickets from four __local counters, one atomic port
 * each, statically wired to their own banks (no bank conflict counted), and the same
 * from one counter behind the crossbar (conflicts counted). Every output is checked
 * against a host reference;
 * the cooperating kernels run again under random memory latency and back-pressure.
 * Then the rules: CL_KERNEL_LOCAL_MEM_SIZE, a __local argument larger than the
 * hardware holds (CL_OUT_OF_RESOURCES at enqueue), a __local array larger than the
 * board has (the build fails and says how much). */
#include <stdint.h>
#include <unistd.h>

#include "e2e.h"

static const char *src =
    "__kernel void reverse(__global const int *in, __global int *out)\n"
    "{\n"
    "    __local int tile[1024];\n"
    "    int l = get_local_id(0), n = get_local_size(0);\n"
    "    tile[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = tile[n - 1 - l] * 3 + l;\n"
    "}\n"
    "__kernel void reduce(__global const int *in, __global int *out, __local int *s)\n"
    "{\n"
    "    int l = get_local_id(0);\n"
    "    s[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int d = get_local_size(0) / 2; d > 0; d >>= 1) {\n"
    "        if (l < d)\n"
    "            s[l] += s[l + d];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0)\n"
    "        out[get_group_id(0)] = s[0];\n"
    "}\n"
    "#define TS 8\n"
    "__kernel void matmul(__global const float *a, __global const float *b,\n"
    "                     __global float *c, int n)\n"
    "{\n"
    "    __local float as[TS][TS], bs[TS][TS];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int col = get_global_id(0), row = get_global_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < n / TS; t++) {\n"
    "        as[ty][tx] = a[row * n + t * TS + tx];\n"
    "        bs[ty][tx] = b[(t * TS + ty) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TS; k++)\n"
    "            acc += as[ty][k] * bs[k][tx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    c[row * n + col] = acc;\n"
    "}\n"
    "__kernel void transpose(__global const float *in, __global float *out, int w, int h)\n"
    "{\n"
    "    __local float tile[16][17];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    tile[ly][lx] = in[get_global_id(1) * w + get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int ox = get_group_id(1) * 16 + lx, oy = get_group_id(0) * 16 + ly;\n"
    "    out[oy * h + ox] = tile[lx][ly];\n"
    "}\n"
    "typedef struct { int key; float val; } pair;\n"
    "__kernel void structs(__global const int *in, __global float4 *out)\n"
    "{\n"
    "    __local pair p[64];\n"
    "    __local float4 v[64];\n"
    "    int l = get_local_id(0), g = get_global_id(0);\n"
    "    p[l].key = in[g];\n"
    "    p[l].val = (float)in[g] * 0.5f;\n"
    "    v[l] = (float4)((float)l, (float)(2 * l), (float)in[g], -1.0f);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int o = (l + 5) % (int)get_local_size(0);\n"
    "    out[g] = v[o] + (float4)(p[o].val, (float)p[o].key, 0.0f, 0.0f);\n"
    "}\n"
    "__kernel void bytes(__global const uint *in, __global uint *out, __local uint *w,\n"
    "                    __local uchar *c)\n"
    "{\n"
    "    int l = get_local_id(0), n = get_local_size(0);\n"
    "    w[l] = in[get_global_id(0)];\n"
    "    c[l] = (uchar)(l * 7);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    __local uchar *b = (__local uchar *)w;\n"
    "    b[4 * ((l + 1) % n) + (l & 3)] ^= (uchar)0xff;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = w[l] + c[n - 1 - l];\n"
    "}\n"
    "__kernel void branchy(__global const int *in, __global int *out)\n"
    "{\n"
    "    __local int t[64];\n"
    "    int l = get_local_id(0), n = get_local_size(0);\n"
    "    int v = in[get_global_id(0)];\n"
    "    if (get_group_id(0) & 1) {\n"
    "        t[l] = v;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        v = t[(l + 1) % n] - 1;\n"
    "    }\n"
    "    out[get_global_id(0)] = v;\n"
    "}\n"
    "__kernel void sides(__global const int *in, __global int *out)\n"
    "{\n"
    "    __local int t[64];\n"
    "    int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0) % 3;\n"
    "    int v = in[get_global_id(0)];\n"
    "    if (g == 0) {\n"
    "        t[l] = v;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        v = t[(l + 1) % n] + 1;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        t[l] = v * 2;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        v = t[n - 1 - l];\n"
    "    } else if (g == 1) {\n"
    "        t[l] = v * 3;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        v = t[(l + 2) % n] - 5;\n"
    "    } else {\n"
    "        t[n - 1 - l] = v;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        v = t[l] ^ t[(l + 3) % n];\n"
    "    }\n"
    "    out[get_global_id(0)] = v;\n"
    "}\n"
    "__kernel void tickets(__global uint4 *out)\n"
    "{\n"
    "    __local uint t[4];\n"
    "    out[get_global_id(0)] = (uint4)(atomic_inc(&t[0]), atomic_inc(&t[1]),\n"
    "                                    atomic_inc(&t[2]), atomic_inc(&t[3]));\n"
    "}\n"
    "__kernel void tickets_shared(__global uint4 *out)\n"
    "{\n"
    "    __local uint t[4];\n"
    "    out[get_global_id(0)] = (uint4)(atomic_inc(&t[0]), atomic_inc(&t[0]),\n"
    "                                    atomic_inc(&t[0]), atomic_inc(&t[0]));\n"
    "}\n";

static int *random_ints(size_t n, unsigned seed, int mod)
{
    int *v = malloc(n * sizeof *v);
    EXPECT(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (int)(e2e_xorshift(&seed) % (unsigned)mod) - mod / 2;
    return v;
}

/* reverse over `global` work-items in groups of `local` (the last one smaller when
 * local does not divide global). */
static int reverse(e2e_env *env, cl_program prog, size_t global, size_t local)
{
    int *in = random_ints(global, 7 + (unsigned)local, 1 << 20), *out = malloc(global * sizeof *out);
    EXPECT(out);
    cl_mem bin = e2e_buffer(env, global * sizeof *in, in);
    cl_mem bout = e2e_buffer(env, global * sizeof *out, NULL);
    cl_kernel k = e2e_kernel(prog, "reverse");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, bout);
    EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bout, CL_TRUE, 0, global * sizeof *out, out, 0, NULL,
                              NULL));
    int bad = 0;
    for (size_t g = 0; g < global && !bad; g++) {
        size_t base = g / local * local, n = global - base < local ? global - base : local;
        size_t l = g - base;
        int want = in[base + n - 1 - l] * 3 + (int)l;
        if (out[g] != want)
            bad = fprintf(stderr, "reverse (global %zu, local %zu): out[%zu] = %d, expected %d\n",
                          global, local, g, out[g], want);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(in);
    free(out);
    return bad;
}

static int reduce(e2e_env *env, cl_program prog, size_t groups, size_t local)
{
    size_t global = groups * local;
    int *in = random_ints(global, 99, 1000), *out = malloc(groups * sizeof *out);
    EXPECT(out);
    cl_mem bin = e2e_buffer(env, global * sizeof *in, in);
    cl_mem bout = e2e_buffer(env, groups * sizeof *out, NULL);
    cl_kernel k = e2e_kernel(prog, "reduce");
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, bout);
    CL_OK(clSetKernelArg(k, 2, local * sizeof(int), NULL));
    cl_ulong lmem = 0;
    CL_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem,
                                   NULL));
    EXPECT(lmem == local * sizeof(int));
    EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bout, CL_TRUE, 0, groups * sizeof *out, out, 0, NULL,
                              NULL));
    int bad = 0;
    for (size_t g = 0; g < groups && !bad; g++) {
        int sum = 0;
        for (size_t i = 0; i < local; i++)
            sum += in[g * local + i];
        if (out[g] != sum)
            bad = fprintf(stderr, "reduce (local %zu): group %zu = %d, expected %d\n", local, g,
                          out[g], sum);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(in);
    free(out);
    return bad;
}

static int matmul(e2e_env *env, cl_program prog)
{
    enum { N = 24 };
    float a[N * N], b[N * N], c[N * N];
    unsigned seed = 4242;
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)((int)(e2e_xorshift(&seed) % 17) - 8) * 0.25f;
        b[i] = (float)((int)(e2e_xorshift(&seed) % 13) - 6) * 0.5f;
    }
    cl_mem ba = e2e_buffer(env, sizeof a, a), bb = e2e_buffer(env, sizeof b, b);
    cl_mem bc = e2e_buffer(env, sizeof c, NULL);
    cl_kernel k = e2e_kernel(prog, "matmul");
    cl_int n = N;
    E2E_ARG(k, 0, ba);
    E2E_ARG(k, 1, bb);
    E2E_ARG(k, 2, bc);
    E2E_ARG(k, 3, n);
    size_t global[2] = {N, N}, local[2] = {8, 8};
    EXPECT(e2e_run(env, k, 2, NULL, global, local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    int bad = 0;
    for (int r = 0; r < N && !bad; r++)
        for (int col = 0; col < N && !bad; col++) {
            float acc = 0.0f;
            for (int t = 0; t < N / 8; t++)
                for (int kk = 0; kk < 8; kk++)
                    acc += a[r * N + t * 8 + kk] * b[(t * 8 + kk) * N + col];
            if (e2e_fbits(c[r * N + col]) != e2e_fbits(acc))
                bad = fprintf(stderr, "matmul c[%d][%d] = %g, expected %g\n", r, col,
                              c[r * N + col], acc);
        }
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    return bad;
}

static int transpose(e2e_env *env, cl_program prog)
{
    enum { W = 48, H = 32 };
    float in[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = (float)i * 0.5f;
    cl_mem bi = e2e_buffer(env, sizeof in, in), bo = e2e_buffer(env, sizeof out, NULL);
    cl_kernel k = e2e_kernel(prog, "transpose");
    cl_int w = W, h = H;
    E2E_ARG(k, 0, bi);
    E2E_ARG(k, 1, bo);
    E2E_ARG(k, 2, w);
    E2E_ARG(k, 3, h);
    size_t global[2] = {W, H}, local[2] = {16, 16};
    EXPECT(e2e_run(env, k, 2, NULL, global, local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int y = 0; y < H && !bad; y++)
        for (int x = 0; x < W && !bad; x++)
            if (out[x * H + y] != in[y * W + x])
                bad = fprintf(stderr, "transpose out[%d][%d] = %g, expected %g\n", x, y,
                              out[x * H + y], in[y * W + x]);
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    return bad;
}

static int structs(e2e_env *env, cl_program prog)
{
    enum { G = 192, L = 64 };
    int *in = random_ints(G, 5, 2000);
    float out[4 * G];
    cl_mem bi = e2e_buffer(env, G * sizeof *in, in), bo = e2e_buffer(env, sizeof out, NULL);
    cl_kernel k = e2e_kernel(prog, "structs");
    E2E_ARG(k, 0, bi);
    E2E_ARG(k, 1, bo);
    size_t global = G, local = L;
    EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int g = 0; g < G && !bad; g++) {
        int base = g / L * L, o = (g - base + 5) % L, src = base + o;
        float want[4] = {(float)o + (float)in[src] * 0.5f, (float)(2 * o) + (float)in[src],
                         (float)in[src], -1.0f};
        for (int c = 0; c < 4; c++)
            if (e2e_fbits(out[4 * g + c]) != e2e_fbits(want[c]))
                bad = fprintf(stderr, "structs out[%d].s%d = %g, expected %g\n", g, c,
                              out[4 * g + c], want[c]);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    return bad;
}

static int bytes(e2e_env *env, cl_program prog, size_t local)
{
    enum { G = 96 };
    unsigned in[G], out[G];
    unsigned seed = 77;
    for (int i = 0; i < G; i++)
        in[i] = e2e_xorshift(&seed);
    cl_mem bi = e2e_buffer(env, sizeof in, in), bo = e2e_buffer(env, sizeof out, NULL);
    cl_kernel k = e2e_kernel(prog, "bytes");
    E2E_ARG(k, 0, bi);
    E2E_ARG(k, 1, bo);
    CL_OK(clSetKernelArg(k, 2, local * 4, NULL));
    CL_OK(clSetKernelArg(k, 3, local, NULL));
    size_t global = G;
    EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (size_t g = 0; g < G && !bad; g++) {
        size_t base = g / local * local, l = g - base, n = local;
        /* word l had byte (prev & 3) flipped by work-item prev = (l - 1) mod n */
        size_t prev = (l + n - 1) % n;
        unsigned w = in[g] ^ (0xffu << (8 * (prev & 3)));
        unsigned want = w + (unsigned char)((n - 1 - l) * 7);
        if (out[g] != want)
            bad = fprintf(stderr, "bytes (local %zu) out[%zu] = %08x, expected %08x\n", local, g,
                          out[g], want);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    return bad;
}

static int branchy(e2e_env *env, cl_program prog)
{
    enum { G = 256, L = 32 };
    int *in = random_ints(G, 31, 100000), out[G];
    cl_mem bi = e2e_buffer(env, G * sizeof *in, in), bo = e2e_buffer(env, sizeof out, NULL);
    cl_kernel k = e2e_kernel(prog, "branchy");
    E2E_ARG(k, 0, bi);
    E2E_ARG(k, 1, bo);
    size_t global = G, local = L;
    EXPECT(e2e_run(env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int g = 0; g < G && !bad; g++) {
        int grp = g / L, l = g % L;
        int want = grp & 1 ? in[grp * L + (l + 1) % L] - 1 : in[g];
        if (out[g] != want)
            bad = fprintf(stderr, "branchy out[%d] = %d, expected %d\n", g, out[g], want);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    return bad;
}

/* sides: each group takes one side of an if/else-if/else on its id, so the accesses of
 * t on the three sides share ports (no group runs two of them); neighbouring groups
 * take different sides, so requests of two sides meet at the shared ports. */
static int sides(e2e_env *env, cl_program prog, size_t groups, size_t local)
{
    size_t g_size = groups * local;
    int *in = random_ints(g_size, 41 + (unsigned)local, 100000), *out = malloc(g_size * sizeof *out);
    EXPECT(out);
    cl_mem bi = e2e_buffer(env, g_size * sizeof *in, in), bo = e2e_buffer(env, g_size * sizeof *out, NULL);
    cl_kernel k = e2e_kernel(prog, "sides");
    E2E_ARG(k, 0, bi);
    E2E_ARG(k, 1, bo);
    EXPECT(e2e_run(env, k, 1, NULL, &g_size, &local) == CL_COMPLETE);
    CL_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, g_size * sizeof *out, out, 0, NULL, NULL));
    int bad = 0, n = (int)local;
    for (size_t i = 0; i < g_size && !bad; i++) {
        int grp = (int)(i / local), l = (int)(i % local);
        const int *x = in + (size_t)grp * local;
        int want = grp % 3 == 0   ? (x[(n - 1 - l + 1) % n] + 1) * 2
                   : grp % 3 == 1 ? x[(l + 2) % n] * 3 - 5
                                  : x[n - 1 - l] ^ x[n - 1 - (l + 3) % n];
        if (out[i] != want)
            bad = fprintf(stderr, "sides (groups of %zu) out[%zu] = %d, expected %d\n", local, i,
                          out[i], want);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
    return bad;
}

/* Runs kernel k with CLHLS_VERBOSE=1 and stderr in a file; returns the local_conflicts
 * counter the runtime printed for it, or -1. */
static long run_counting_conflicts(e2e_env *env, cl_kernel k, size_t global, size_t local)
{
    char path[] = "/tmp/e2e_local_XXXXXX";
    int fd = mkstemp(path);
    EXPECT(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    EXPECT(saved >= 0 && dup2(fd, 2) == 2);
    setenv("CLHLS_VERBOSE", "1", 1);
    cl_int status = e2e_run(env, k, 1, NULL, &global, &local);
    unsetenv("CLHLS_VERBOSE");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    EXPECT(status == CL_COMPLETE);
    FILE *f = fopen(path, "r");
    EXPECT(f);
    char line[4096];
    long conflicts = -1;
    while (fgets(line, sizeof line, f)) {
        const char *c = strstr(line, "local_conflicts=");
        if (strstr(line, "clhls: kernel '") && c)
            conflicts = strtol(c + strlen("local_conflicts="), NULL, 10);
    }
    fclose(f);
    unlink(path);
    return conflicts;
}

/* Tickets: each work-item takes one from each of four __local counters (tickets: one
 * counter per port, statically wired) or four from one (tickets_shared: four ports on
 * one bank, a crossbar). Whatever a work-group slot's counters held before, a group's
 * tickets from one counter are consecutive numbers, each once. */
static int tickets(e2e_env *env, cl_program prog, const char *name, int shared)
{
    enum { GROUPS = 6, L = 64, N = GROUPS * L };
    cl_uint out[4 * N];
    cl_mem bo = e2e_buffer(env, sizeof out, NULL);
    cl_kernel k = e2e_kernel(prog, name);
    E2E_ARG(k, 0, bo);
    long conflicts = run_counting_conflicts(env, k, N, L);
    CL_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int grp = 0; grp < GROUPS && !bad; grp++)
        for (int c = 0; c < (shared ? 1 : 4) && !bad; c++) {
            /* the counter's tickets in this group: 4 per work-item when shared */
            int n = shared ? 4 * L : L;
            cl_uint v[4 * L];
            for (int i = 0; i < n; i++)
                v[i] = shared ? out[4 * (grp * L + i / 4) + i % 4] : out[4 * (grp * L + i) + c];
            /* n consecutive numbers are within n - 1 of v[0] either way (mod 2^32) */
            int lowest = 0;
            for (int i = 0; i < n; i++)
                if ((int32_t)(v[i] - v[0]) < lowest)
                    lowest = (int32_t)(v[i] - v[0]);
            cl_uint first = v[0] + (cl_uint)lowest;
            unsigned char seen[4 * L] = {0};
            for (int i = 0; i < n && !bad; i++) {
                cl_uint d = v[i] - first;
                if (d >= (cl_uint)n || seen[d]++)
                    bad = fprintf(stderr, "%s: group %d counter %d: ticket %u not one of %d "
                                  "consecutive ones from %u\n", name, grp, c, v[i], n, first);
            }
        }
    if (!bad && (shared ? conflicts <= 0 : conflicts != 0))
        bad = fprintf(stderr, "%s: local_conflicts = %ld, expected %s\n", name, conflicts,
                      shared ? "some" : "0");
    clReleaseKernel(k);
    clReleaseMemObject(bo);
    return bad;
}

/* The kernels whose work-items wait for each other, under the current timing. */
static int cooperate(e2e_env *env, cl_program prog)
{
    return reverse(env, prog, 1000, 64) || reverse(env, prog, 100, 7) ||
           reduce(env, prog, 6, 64) || matmul(env, prog) || bytes(env, prog, 32) ||
           branchy(env, prog) || sides(env, prog, 12, 32);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_ulong dev_local = 0;
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof dev_local, &dev_local,
                          NULL));
    EXPECT(dev_local == 65536);
    cl_program prog = e2e_build(&env, src, "-cl-std=CL2.0", 1, NULL);

    if (cooperate(&env, prog) || reverse(&env, prog, 5, 1) || reverse(&env, prog, 600, 256) ||
        reverse(&env, prog, 3000, 1024) || reduce(&env, prog, 3, 256) ||
        reduce(&env, prog, 4, 1) || transpose(&env, prog) || structs(&env, prog) ||
        bytes(&env, prog, 8) || tickets(&env, prog, "tickets", 0) ||
        tickets(&env, prog, "tickets_shared", 1))
        return 1;
    setenv("CLHLS_SIM_STRESS", "20261123", 1);
    if (cooperate(&env, prog))
        return 1;
    setenv("CLHLS_SIM_STRESS", "7", 1);
    if (sides(&env, prog, 7, 64) || sides(&env, prog, 3, 5))
        return 1;
    unsetenv("CLHLS_SIM_STRESS");

    /* CL_KERNEL_LOCAL_MEM_SIZE: the arrays the kernel declares, and the __local
     * arguments as set; a __local argument beyond what the hardware holds fails the
     * enqueue. */
    cl_kernel k = e2e_kernel(prog, "reverse");
    cl_ulong lmem = 0;
    CL_OK(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem,
                                   NULL));
    EXPECT(lmem == 4096);
    clReleaseKernel(k);
    k = e2e_kernel(prog, "reduce");
    cl_mem buf = e2e_buffer(&env, 64 * sizeof(int), NULL);
    E2E_ARG(k, 0, buf);
    E2E_ARG(k, 1, buf);
    CL_OK(clSetKernelArg(k, 2, 65536 + 4, NULL));
    size_t global = 64, local = 64;
    EXPECT(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL) ==
           CL_OUT_OF_RESOURCES);
    CL_OK(clSetKernelArg(k, 2, 65536, NULL)); /* the whole local memory: fine */
    EXPECT(e2e_run(&env, k, 1, NULL, &global, &local) == CL_COMPLETE);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);

    /* More __local arrays than the board has: the build fails at the kernel. */
    cl_int status;
    cl_program big = e2e_build(&env,
                               "__kernel void big(__global int *o)\n"
                               "{\n"
                               "    __local int a[20000];\n"
                               "    a[get_local_id(0)] = 1;\n"
                               "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                               "    o[get_global_id(0)] = a[0];\n"
                               "}\n",
                               "", 0, &status);
    EXPECT(status == CL_BUILD_PROGRAM_FAILURE);
    char *log = e2e_build_log(&env, big);
    EXPECT(strstr(log, "80000 bytes of __local arrays") && strstr(log, "65536 bytes"));
    free(log);
    clReleaseProgram(big);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
