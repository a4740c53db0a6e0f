/* End-to-end: the operators' C models against their RTL. By default a model library
 * simulates the arithmetic operator templates through bit-accurate C models
 * (sim-bridge/fp_model.c); -clhls-rtl-operators simulates their RTL. One program that
 * uses every operator (float and double add, subtract, multiply, fma, divide, sqrt,
 * every comparison, conversions between float, double and integers of each width and
 * signedness, integer divide and remainder of each width and signedness) is built both
 * ways and run on the same inputs: random bit patterns, values around 1 and the
 * special values (zeros, denormals, infinities, NaN, extremes). Every output must be
 * bit-identical and the kernel must take the same cycles (its profiled duration: the
 * simulation forms of the queues, selects and pipelines are cycle for cycle the
 * synthesised ones); the two builds are two cache entries, and each entry's model.json
 * must say which way it simulated the operators. The program is linked with
 * -ffast-math, as many host programs are: its start-up sets flush-to-zero and
 * denormals-are-zero, which every thread it creates inherits, and the models must still
 * compute in the default environment (products that round up to the smallest normal
 * are among the inputs). */
#include "e2e.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdint.h>
#include <unistd.h>

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void ops(__global const float *fa, __global const float *fb,\n"
    "                  __global const float *fc, __global const double *da,\n"
    "                  __global const double *db, __global const double *dc,\n"
    "                  __global const long *la, __global const long *lb,\n"
    "                  __global ulong *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float a = fa[i], b = fb[i], c = fc[i];\n"
    "    double x = da[i], y = db[i], z = dc[i];\n"
    "    long p = la[i], q = lb[i] == 0 ? 7 : lb[i];\n"
    "    int pi = (int)p, qi = (int)q == 0 || ((int)q == -1 && pi == INT_MIN) ? 3 : (int)q;\n"
    "    short ps = (short)p, qs = (short)q == 0 ? 5 : (short)q;\n"
    "    char pc = (char)p, qc = (char)q == 0 ? 9 : (char)q;\n"
    "    if (q == -1 && p == LONG_MIN) q = 2;\n"
    "    __global ulong *r = o + 40 * i;\n"
    "    r[0] = as_uint(a + b);\n"
    "    r[1] = as_uint(a - b);\n"
    "    r[2] = as_uint(a * b);\n"
    "    r[3] = as_uint(fma(a, b, c));\n"
    "    r[4] = as_uint(a / b);\n"
    "    r[5] = as_uint(sqrt(a));\n"
    "    r[6] = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4\n"
    "           | (a >= b) << 5 | isunordered(a, b) << 6 | isordered(a, b) << 7;\n"
    "    r[7] = as_ulong(x + y);\n"
    "    r[8] = as_ulong(x - y);\n"
    "    r[9] = as_ulong(x * y);\n"
    "    r[10] = as_ulong(fma(x, y, z));\n"
    "    r[11] = as_ulong(x / y);\n"
    "    r[12] = as_ulong(sqrt(x));\n"
    "    r[13] = (x < y) | (x <= y) << 1 | (x == y) << 2 | (x != y) << 3 | (x > y) << 4\n"
    "            | (x >= y) << 5 | (x != x || y != y) << 6 | (x == x && y == y) << 7;\n"
    "    r[14] = as_ulong((double)a);\n"
    "    r[15] = as_uint((float)x);\n"
    "    r[16] = (ulong)(long)a ^ (ulong)(ulong)b << 1;\n"
    "    r[17] = (uint)(int)a | (ulong)(uint)b << 32;\n"
    "    r[18] = (ushort)(short)a | (ulong)(ushort)b << 16 | (ulong)(uchar)(char)c << 32\n"
    "            | (ulong)(uchar)a << 40;\n"
    "    r[19] = (ulong)(long)x ^ (ulong)(ulong)y << 1;\n"
    "    r[20] = (uint)(int)x | (ulong)(uint)y << 32;\n"
    "    r[21] = (ushort)(short)x | (ulong)(ushort)y << 16 | (ulong)(uchar)(char)z << 32\n"
    "            | (ulong)(uchar)x << 40;\n"
    "    r[22] = as_uint((float)p) | (ulong)as_uint((float)(ulong)q) << 32;\n"
    "    r[23] = as_uint((float)pi) | (ulong)as_uint((float)(uint)qi) << 32;\n"
    "    r[24] = as_uint((float)ps) | (ulong)as_uint((float)(ushort)qs) << 32;\n"
    "    r[25] = as_uint((float)pc) | (ulong)as_uint((float)(uchar)qc) << 32;\n"
    "    r[26] = as_ulong((double)p);\n"
    "    r[27] = as_ulong((double)(ulong)q);\n"
    "    r[28] = as_ulong((double)pi) ^ as_ulong((double)(uint)qi) << 1;\n"
    "    r[29] = as_ulong((double)ps) ^ as_ulong((double)(uchar)qc) << 1;\n"
    "    r[30] = (ulong)(p / q);\n"
    "    r[31] = (ulong)(p % q);\n"
    "    r[32] = (ulong)p / (ulong)q ^ ((ulong)p % (ulong)q) << 7;\n"
    "    r[33] = (uint)(pi / qi) | (ulong)(uint)(pi % qi) << 32;\n"
    "    r[34] = (uint)pi / (uint)qi | (ulong)((uint)pi % (uint)qi) << 32;\n"
    "    r[35] = (ushort)(ps / qs) | (ulong)(ushort)(ps % qs) << 16\n"
    "            | (ulong)((ushort)ps / (ushort)qs) << 32 | (ulong)((ushort)ps % (ushort)qs) << 48;\n"
    "    r[36] = (uchar)(pc / qc) | (ulong)(uchar)(pc % qc) << 8\n"
    "            | (ulong)((uchar)pc / (uchar)qc) << 16 | (ulong)((uchar)pc % (uchar)qc) << 24;\n"
    "    r[37] = as_uint(a - c * b) ^ (ulong)as_uint(a * a + b) << 32;\n"
    "    r[38] = as_ulong(x / z - sqrt(y));\n"
    "    r[39] = 1;\n"
    "}\n";

enum { N = 2048, SLOTS = 40 };

static const uint32_t fspecial[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000,
    0xbf800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001,
    0x4f000000, 0xcf000000, 0x5f000000, 0xdf000000, 0x3f000000, 0x3fc00000, 0x4b000001,
};
static const uint64_t dspecial[] = {
    0, 0x8000000000000000ull, 1, 0x800fffffffffffffull, 0x0010000000000000ull,
    0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
    0x43e0000000000000ull, 0xc3e0000000000000ull, 0x41e0000000000000ull,
    0x3810000000000000ull, 0x47efffffe0000000ull, 0x36a0000000000000ull,
};

static uint64_t rnd64(unsigned *seed)
{
    return (uint64_t)e2e_xorshift(seed) << 32 | e2e_xorshift(seed);
}

/* A float bit pattern: a special value, a value near 1 (exponents 2^-20..2^20), or
 * any bits; a double also a subnormal. */
static uint32_t pick_float(unsigned *seed, int i)
{
    unsigned kind = e2e_xorshift(seed) % 4;
    if (kind == 0 || i < 3 * 21)
        return fspecial[(i + e2e_xorshift(seed)) % (sizeof fspecial / sizeof *fspecial)];
    uint32_t r = e2e_xorshift(seed);
    if (kind == 3)
        return r;
    return (r & 0x807fffffu) | (uint32_t)(127 - 20 + r % 41) << 23;
}

static uint64_t pick_double(unsigned *seed, int i)
{
    unsigned kind = e2e_xorshift(seed) % 5;
    if (kind == 0 || i < 3 * 18)
        return dspecial[(i + e2e_xorshift(seed)) % (sizeof dspecial / sizeof *dspecial)];
    uint64_t r = rnd64(seed);
    if (kind == 3)
        return r;
    if (kind == 4) /* a subnormal (the binary64 units keep them) or one of the smallest normals */
        return (r & 0x8000000000000000ull) | (r & 0x001fffffffffffffull) >> (r % 53);
    return (r & 0x800fffffffffffffull) | (uint64_t)(1023 - 40 + r % 81) << 52;
}

/* An integer: small, a width's extreme, or any bits. */
static int64_t pick_int(unsigned *seed)
{
    static const int64_t edge[] = {0, 1, -1, 127, -128, 255, 32767, -32768, 65535,
                                   INT32_MAX, INT32_MIN, UINT32_MAX, INT64_MAX, INT64_MIN};
    switch (e2e_xorshift(seed) % 4) {
    case 0:
        return edge[e2e_xorshift(seed) % (sizeof edge / sizeof *edge)];
    case 1:
        return (int64_t)(e2e_xorshift(seed) % 2001) - 1000;
    default:
        return (int64_t)rnd64(seed);
    }
}

/* Builds the program with options, runs it on the buffers and reads the results into
 * out; returns the kernel's profiled duration in ns (its cycles at the board's clock). */
static cl_ulong run(e2e_env *env, const char *options, cl_mem *in, uint64_t *out)
{
    cl_program p = e2e_build(env, src, options, 1, NULL);
    cl_kernel k = e2e_kernel(p, "ops");
    cl_mem bo = e2e_buffer(env, (size_t)N * SLOTS * 8, NULL);
    for (cl_uint a = 0; a < 8; a++)
        E2E_ARG(k, a, in[a]);
    E2E_ARG(k, 8, bo);
    size_t global = N, local = 64;
    cl_event ev;
    CL_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CL_OK(clWaitForEvents(1, &ev));
    cl_ulong t0 = 0, t1 = 0;
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    EXPECT(t1 > t0);
    clReleaseEvent(ev);
    e2e_read(env, bo, (size_t)N * SLOTS * 8, out);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return t1 - t0;
}

/* A JSON file of the cache entry dir, parsed (NULL when absent). */
static cJSON *entry_json(const char *dir, const char *name)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return cJSON_Parse(text);
}

/* Every cache entry of this program (its compute unit is `ops`) must have simulated
 * the operators the way its options asked: model.json says "rtl" exactly when the
 * metadata's options are -clhls-rtl-operators. Both kinds must be there. */
static int check_entries(void)
{
    const char *root = getenv("CLHLS_CACHE_DIR");
    DIR *d = root ? opendir(root) : NULL;
    if (!d) {
        fprintf(stderr, "cannot read the cache directory (CLHLS_CACHE_DIR)\n");
        return 1;
    }
    int seen[2] = {0, 0}, bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char dir[4200], cu[4300];
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        snprintf(cu, sizeof cu, "%s/rtl/clhls_cu_ops.v", dir);
        if (access(cu, R_OK))
            continue;
        cJSON *meta = entry_json(dir, "metadata.json"), *model = entry_json(dir, "model.json");
        const char *opts = cJSON_GetStringValue(cJSON_GetObjectItem(meta, "options"));
        const char *ops = cJSON_GetStringValue(cJSON_GetObjectItem(model, "operators"));
        if (opts && ops) {
            int rtl = strstr(opts, "-clhls-rtl-operators") != NULL;
            seen[rtl] = 1;
            if (strcmp(ops, rtl ? "rtl" : "c-models")) {
                fprintf(stderr, "%s: options \"%s\" but operators \"%s\"\n", dir, opts, ops);
                bad = 1;
            }
        }
        cJSON_Delete(meta);
        cJSON_Delete(model);
    }
    closedir(d);
    if (!seen[0] || !seen[1]) {
        fprintf(stderr, "no cache entry with model.json for %s\n",
                seen[0] ? "the RTL operators" : "the C models");
        bad = 1;
    }
    return bad;
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    static uint32_t f[3][N];
    static uint64_t d[3][N];
    static int64_t l[2][N];
    unsigned seed = 2024;
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++) {
            f[k][i] = pick_float(&seed, i);
            d[k][i] = pick_double(&seed, i);
        }
        for (int k = 0; k < 2; k++)
            l[k][i] = pick_int(&seed);
    }
    /* Products just below the smallest normal that round up to it: (1 - 2^-24) * 2^-126
     * in binary32 and (1 - 2^-53) * 2^-1022 in binary64. A flush-to-zero FPU gives 0. */
    f[0][N - 1] = 0x3f7fffffu, f[1][N - 1] = 0x00800000u;
    d[0][N - 1] = 0x3fefffffffffffffull, d[1][N - 1] = 0x0010000000000000ull;
    cl_mem in[8];
    for (int k = 0; k < 3; k++) {
        in[k] = e2e_buffer(&env, sizeof f[k], f[k]);
        in[3 + k] = e2e_buffer(&env, sizeof d[k], d[k]);
    }
    for (int k = 0; k < 2; k++)
        in[6 + k] = e2e_buffer(&env, sizeof l[k], l[k]);

    uint64_t *models = calloc((size_t)N * SLOTS, 8), *rtl = calloc((size_t)N * SLOTS, 8);
    EXPECT(models && rtl);
    cl_ulong models_ns = run(&env, "", in, models);
    cl_ulong rtl_ns = run(&env, "-clhls-rtl-operators", in, rtl);

    int bad = check_entries();
    if (models_ns != rtl_ns) {
        fprintf(stderr, "the kernel took %llu ns with the simulation forms, %llu ns with the RTL\n",
                (unsigned long long)models_ns, (unsigned long long)rtl_ns);
        bad = 1;
    }
    long ran = 0;
    for (int i = 0; i < N; i++) {
        ran += rtl[(size_t)i * SLOTS + SLOTS - 1] == 1;
        for (int s = 0; s < SLOTS; s++) {
            size_t at = (size_t)i * SLOTS + s;
            if (models[at] != rtl[at] && bad++ < 20)
                fprintf(stderr,
                        "item %d slot %d: C models %016llx, RTL %016llx (f %08x %08x %08x, "
                        "d %016llx %016llx, l %lld %lld)\n",
                        i, s, (unsigned long long)models[at], (unsigned long long)rtl[at],
                        f[0][i], f[1][i], f[2][i], (unsigned long long)d[0][i],
                        (unsigned long long)d[1][i], (long long)l[0][i], (long long)l[1][i]);
        }
    }
    /* Every work-item's last slot is 1: the kernel ran and wrote everything. */
    if (ran != N) {
        fprintf(stderr, "%ld of %d work-items wrote their results\n", ran, N);
        bad++;
    }
    for (int k = 0; k < 8; k++)
        clReleaseMemObject(in[k]);
    free(models);
    free(rtl);
    e2e_fini(&env);
    if (bad) {
        fprintf(stderr, "%d differences between the C models and the RTL\n", bad);
        return 1;
    }
    printf("operators: %d work-items x %d results, C models and RTL bit-identical\n", N,
           SLOTS);
    return 0;
}
