/* End-to-end: printf in kernels (OpenCL C 1.2 section 6.12.13), all kernels in one
 * program. The test sends its own stdout to a file around each NDRange and compares
 * what the kernels printed with the host's snprintf of the same formats and values:
 * every conversion (d i o u x X c s f F e E g G a A p %%), flags, width, precision,
 * '*', the length modifiers hh h l, vectors (%vN with hh h hl l), a double; printf in
 * a loop and in a branch (work-items whose branch is not taken print nothing), several
 * work-items (each one's records in its order, work-items by global id), the return
 * value, and a full buffer (printf returns -1, later records are dropped, the runtime
 * says so on stderr once). The device reports a 1 MiB printf buffer; the hidden
 * buffer argument is not one of the kernel's arguments. */
#include "e2e.h"

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <unistd.h>

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void convs(int i, uint u, long l, ulong ul, float f, double d, char c,\n"
    "                    short s, __global int *ret)\n"
    "{\n"
    "    printf(\"d=%d i=%i o=%o u=%u x=%x X=%X\\n\", i, i, u, u, u, u);\n"
    "    printf(\"[%5d] [%-5d] [%+d] [% d] [%05d] [%.3d] [%#o] [%#x] [%#X]\\n\",\n"
    "           i, i, i, i, i, i, u, u, u);\n"
    "    printf(\"hh=%hhd %hhu h=%hd %hu l=%ld %lu %lx %lo\\n\", c, c, s, s, l, ul, ul, ul);\n"
    "    printf(\"c=%c [%3c] s=%s [%10s] [%-10s] [%.2s] %%\\n\", 'A', 'z', \"hello\",\n"
    "           \"right\", \"left\", \"trunc\");\n"
    "    printf(\"f=%f F=%F e=%e E=%E g=%g G=%G\\n\", f, f, f, f, f, f);\n"
    "    printf(\"[%10.3f] [%-10.2e] [%+g] [%#g] [%010.4f] [%.0f] [% .1E]\\n\",\n"
    "           f, f, f, f, f, f, f);\n"
    "    printf(\"a=%a A=%A [%.2a]\\n\", f, f, f);\n"
    "    printf(\"dbl=%f %.10e %g %a\\n\", d, d, d, d);\n"
    "    printf(\"star=[%*d] [%-*.*f] [%.*s]\\n\", 6, i, 9, 2, f, 3, \"abcdef\");\n"
    "    printf(\"inf=%f %E %g\\n\", INFINITY, -INFINITY, (float)u);\n"
    "    printf(\"p=%p\\n\", ret);\n"
    "    printf(\"no conversions\\n\");\n"
    "    ret[0] = printf(\"ret\\n\");\n"
    "}\n"
    "__kernel void vecs(float f, int i)\n"
    "{\n"
    "    float4 v = (float4)(f, -f, 2.5f, 0.125f);\n"
    "    int4 iv = (int4)(i, -i, 0, 255);\n"
    "    char4 cv = (char4)((char)i, -3, 127, -128);\n"
    "    ushort2 sv = (ushort2)(65535, (ushort)i);\n"
    "    long2 lv = (long2)(-5000000000L, (long)i * 1000000007L);\n"
    "    float3 v3 = (float3)(f * 2.0f, 1e10f, -1e-3f);\n"
    "    uchar8 u8 = (uchar8)(0, 1, 2, 3, 250, 251, 252, (uchar)i);\n"
    "    printf(\"%v4hlf|%v4hld|%v4hhd|%v2hx|%v2ld|%#v4hlx|%v3hlg\\n\", v, iv, cv, sv, lv,\n"
    "           iv, v3);\n"
    "    printf(\"%8.2v4hlf|%-4v4hli|%v8hhu|%+v2hd\\n\", v, iv, u8, (short2)(3, -4));\n"
    "}\n"
    "__kernel void items(__global int *ret, int n)\n"
    "{\n"
    "    int g = get_global_id(0);\n"
    "    int bad = 0;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        bad |= printf(\"item %d step %d\\n\", g, k);\n"
    "    if (g % 3 == 1)\n"
    "        bad |= printf(\"branch %d of %d\\n\", g, (int)get_global_size(0));\n"
    "    ret[g] = bad | printf(\"done %d\\n\", g);\n"
    "}\n"
    "__kernel void flood(__global int *ok, int n)\n"
    "{\n"
    "    int g = get_global_id(0), count = 0;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        count += printf(\"%d:%d\\n\", g, k) == 0;\n"
    "    ok[g] = count;\n"
    "}\n"
    "__kernel void plain(__global int *out)\n"
    "{\n"
    "    out[get_global_id(0)] = 7;\n"
    "}\n";

/* Growing text the expected output is built in. */
typedef struct text {
    char *data;
    size_t len, cap;
} text;

static void addf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    EXPECT(n >= 0);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->data = realloc(t->data, t->cap);
        EXPECT(t->data);
    }
    va_start(ap, fmt);
    vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* Runs k and returns what it wrote to stdout (and to stderr in *err when asked). */
static char *run_captured(e2e_env *env, cl_kernel k, size_t global, size_t local, char **err)
{
    char out_path[] = "/tmp/clhls-printf-out-XXXXXX", err_path[] = "/tmp/clhls-printf-err-XXXXXX";
    int fd = mkstemp(out_path), efd = mkstemp(err_path);
    EXPECT(fd >= 0 && efd >= 0);
    fflush(stdout);
    fflush(stderr);
    int saved = dup(1), saved_err = dup(2);
    EXPECT(saved >= 0 && saved_err >= 0);
    EXPECT(dup2(fd, 1) == 1);
    if (err)
        EXPECT(dup2(efd, 2) == 2);
    cl_int st = e2e_run(env, k, 1, NULL, &global, &local);
    CL_OK(clFinish(env->queue));
    fflush(stdout);
    fflush(stderr);
    EXPECT(dup2(saved, 1) == 1);
    EXPECT(dup2(saved_err, 2) == 2);
    close(saved);
    close(saved_err);
    EXPECT(st == CL_COMPLETE);
    char *result[2] = {NULL, NULL};
    int fds[2] = {fd, efd};
    for (int i = 0; i < 2; i++) {
        off_t len = lseek(fds[i], 0, SEEK_END);
        EXPECT(len >= 0);
        result[i] = calloc(1, (size_t)len + 1);
        EXPECT(result[i]);
        EXPECT(pread(fds[i], result[i], (size_t)len, 0) == len);
        close(fds[i]);
    }
    unlink(out_path);
    unlink(err_path);
    if (err)
        *err = result[1];
    else
        free(result[1]);
    return result[0];
}

static void expect_same(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want)) {
        fprintf(stderr, "%s: the kernel printed:\n%s\nexpected:\n%s\n", what, got, want);
        _Exit(1);
    }
}

/* One vector conversion as the host formats it: each lane, comma-separated. */
#define LANES(t, n, fmt, ...)                                                         \
    do {                                                                              \
        const __typeof__(t) lanes_[] = {__VA_ARGS__};                                 \
        for (int l_ = 0; l_ < (n); l_++)                                              \
            addf(t_, l_ ? "," fmt : fmt, lanes_[l_]);                                 \
    } while (0)

static void test_conversions(e2e_env *env, cl_program p)
{
    cl_kernel k = e2e_kernel(p, "convs");
    cl_uint nargs = 0;
    CL_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    EXPECT(nargs == 9); /* the hidden printf buffer is not the user's */
    EXPECT(clSetKernelArg(k, 9, sizeof(cl_mem), NULL) == CL_INVALID_ARG_INDEX);
    cl_int i = -1234;
    cl_uint u = 3000000000u;
    cl_long l = -9000000000123LL;
    cl_ulong ul = 0xfedcba9876543210ull;
    cl_float f = 3.14159265f;
    cl_double d = 2.718281828459045;
    cl_char c = -100;
    cl_short s = -30000;
    int ret = 99;
    cl_mem rb = e2e_buffer(env, sizeof ret, &ret);
    E2E_ARG(k, 0, i);
    E2E_ARG(k, 1, u);
    E2E_ARG(k, 2, l);
    E2E_ARG(k, 3, ul);
    E2E_ARG(k, 4, f);
    E2E_ARG(k, 5, d);
    E2E_ARG(k, 6, c);
    E2E_ARG(k, 7, s);
    E2E_ARG(k, 8, rb);
    char *got = run_captured(env, k, 1, 1, NULL);
    double fd = f;
    text t = {0};
    addf(&t, "d=%d i=%i o=%o u=%u x=%x X=%X\n", i, i, u, u, u, u);
    addf(&t, "[%5d] [%-5d] [%+d] [% d] [%05d] [%.3d] [%#o] [%#x] [%#X]\n", i, i, i, i, i, i,
         u, u, u);
    addf(&t, "hh=%hhd %hhu h=%hd %hu l=%ld %lu %lx %lo\n", c, (unsigned char)c, s,
         (unsigned short)s, (long)l, (unsigned long)ul, (unsigned long)ul, (unsigned long)ul);
    addf(&t, "c=%c [%3c] s=%s [%10s] [%-10s] [%.2s] %%\n", 'A', 'z', "hello", "right", "left",
         "trunc");
    addf(&t, "f=%f F=%F e=%e E=%E g=%g G=%G\n", fd, fd, fd, fd, fd, fd);
    addf(&t, "[%10.3f] [%-10.2e] [%+g] [%#g] [%010.4f] [%.0f] [% .1E]\n", fd, fd, fd, fd, fd,
         fd, fd);
    addf(&t, "a=%a A=%A [%.2a]\n", fd, fd, fd);
    addf(&t, "dbl=%f %.10e %g %a\n", d, d, d, d);
    addf(&t, "star=[%*d] [%-*.*f] [%.*s]\n", 6, i, 9, 2, fd, 3, "abcdef");
    addf(&t, "inf=%f %E %g\n", (double)INFINITY, -(double)INFINITY, (double)(float)u);
    /* the device address is not known here: compared below */
    char *pline = strstr(got, "p=");
    EXPECT(pline);
    char *pend = strchr(pline, '\n');
    EXPECT(pend);
    EXPECT(!strncmp(pline, "p=0x", 4) || !strncmp(pline, "p=(nil)", 7));
    addf(&t, "%.*s\n", (int)(pend - pline), pline);
    addf(&t, "no conversions\n");
    addf(&t, "ret\n");
    expect_same("conversions", got, t.data);
    e2e_read(env, rb, sizeof ret, &ret);
    EXPECT(ret == 0);
    free(got);
    free(t.data);
    clReleaseMemObject(rb);
    clReleaseKernel(k);
}

static void test_vectors(e2e_env *env, cl_program p)
{
    cl_kernel k = e2e_kernel(p, "vecs");
    cl_float f = -1.75f;
    cl_int i = 77;
    E2E_ARG(k, 0, f);
    E2E_ARG(k, 1, i);
    char *got = run_captured(env, k, 1, 1, NULL);
    text t = {0}, *t_ = &t;
    double v[4] = {f, -f, 2.5, 0.125};
    LANES(v[0], 4, "%f", v[0], v[1], v[2], v[3]);
    addf(&t, "|");
    LANES(i, 4, "%d", i, -i, 0, 255);
    addf(&t, "|");
    LANES(i, 4, "%hhd", (signed char)i, -3, 127, -128);
    addf(&t, "|");
    LANES(i, 2, "%hx", 65535, (unsigned short)i);
    addf(&t, "|");
    LANES((long)0, 2, "%ld", -5000000000L, (long)i * 1000000007L);
    addf(&t, "|");
    LANES(i, 4, "%#x", (unsigned)i, (unsigned)-i, 0, 255);
    addf(&t, "|");
    LANES(v[0], 3, "%g", (double)(f * 2.0f), (double)1e10f, (double)-1e-3f);
    addf(&t, "\n");
    LANES(v[0], 4, "%8.2f", v[0], v[1], v[2], v[3]);
    addf(&t, "|");
    LANES(i, 4, "%-4i", i, -i, 0, 255);
    addf(&t, "|");
    LANES(i, 8, "%hhu", 0, 1, 2, 3, 250, 251, 252, (unsigned char)i);
    addf(&t, "|");
    LANES(i, 2, "%+hd", 3, -4);
    addf(&t, "\n");
    expect_same("vectors", got, t.data);
    free(got);
    free(t.data);
    clReleaseKernel(k);
}

static void test_work_items(e2e_env *env, cl_program p)
{
    cl_kernel k = e2e_kernel(p, "items");
    enum { N = 12, STEPS = 3 };
    cl_mem rb = e2e_filled_buffer(env, N, 99);
    cl_int n = STEPS;
    E2E_ARG(k, 0, rb);
    E2E_ARG(k, 1, n);
    char *got = run_captured(env, k, N, 4, NULL);
    text t = {0};
    for (int g = 0; g < N; g++) {
        for (int s = 0; s < STEPS; s++)
            addf(&t, "item %d step %d\n", g, s);
        if (g % 3 == 1)
            addf(&t, "branch %d of %d\n", g, N);
        addf(&t, "done %d\n", g);
    }
    expect_same("work-items", got, t.data);
    int ret[N];
    e2e_read(env, rb, sizeof ret, ret);
    for (int g = 0; g < N; g++)
        EXPECT(ret[g] == 0);
    free(got);
    free(t.data);
    clReleaseMemObject(rb);
    clReleaseKernel(k);
}

static void test_overflow(e2e_env *env, cl_program p)
{
    cl_kernel k = e2e_kernel(p, "flood");
    enum { N = 64, STEPS = 1000 };
    cl_mem ob = e2e_filled_buffer(env, N, -1);
    cl_int n = STEPS;
    E2E_ARG(k, 0, ob);
    E2E_ARG(k, 1, n);
    char *err = NULL;
    char *got = run_captured(env, k, N, 16, &err);
    int ok[N];
    e2e_read(env, ob, sizeof ok, ok);
    /* records of 24 bytes (16 of header, 8 of values) in 1 MiB less the 8-byte header */
    int total = 0;
    for (int g = 0; g < N; g++) {
        EXPECT(ok[g] >= 0 && ok[g] <= STEPS);
        total += ok[g];
    }
    EXPECT(total == ((1 << 20) - 8) / 24);
    EXPECT(total < N * STEPS);
    text t = {0};
    for (int g = 0; g < N; g++)
        for (int s = 0; s < ok[g]; s++)
            addf(&t, "%d:%d\n", g, s);
    expect_same("overflow", got, t.data);
    const char *msg = strstr(err, "printf buffer");
    EXPECT(msg && !strstr(msg + 1, "printf buffer"));
    free(got);
    free(err);
    free(t.data);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    size_t size = 0;
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof size, &size, NULL));
    EXPECT(size == 1 << 20);
    cl_program p = e2e_build(&env, src, NULL, 1, NULL);
    cl_kernel plain = e2e_kernel(p, "plain");
    cl_uint nargs = 0;
    CL_OK(clGetKernelInfo(plain, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    EXPECT(nargs == 1);
    clReleaseKernel(plain);
    test_conversions(&env, p);
    test_vectors(&env, p);
    test_work_items(&env, p);
    test_overflow(&env, p);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
