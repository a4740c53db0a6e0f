/* End-to-end: what a kernel receives and keeps per work-item, all kernels of one
 * program (the hardware is built once). Structs passed by value with the host's
 * layout (a char before them, padding inside, a long, a short and an array field, a
 * second struct after a buffer), scalars of every size at their C alignment, and a
 * kernel with 121 arguments (more than one register each would allow) whose result
 * depends on every one of them. Every output element is checked against a host
 * reference. */
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

#define MANY 120

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
    "}\n";

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    size_t max_param = 0;
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof max_param,
                          &max_param, NULL));
    EXPECT(max_param >= 1024);

    /* The program: the fixed kernels, then `many` with 120 int arguments. */
    size_t cap = strlen(fixed_src) + 64 * MANY + 256;
    char *src = malloc(cap);
    EXPECT(src);
    strcpy(src, fixed_src);
    strcat(src, "__kernel void many(__global int *out");
    for (int a = 0; a < MANY; a++)
        snprintf(src + strlen(src), cap - strlen(src), ", int a%d", a);
    strcat(src, ")\n{\n    int i = (int)get_global_id(0);\n    int s = i;\n");
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
    { /* many: every argument counts */
        cl_kernel k = e2e_kernel(prog, "many");
        cl_mem out = e2e_buffer(&env, N * sizeof(int), NULL);
        E2E_ARG(k, 0, out);
        unsigned seed = 12345, a[MANY];
        for (int i = 0; i < MANY; i++) {
            a[i] = e2e_xorshift(&seed);
            E2E_ARG(k, (cl_uint)i + 1, a[i]);
        }
        size_t g = N;
        EXPECT(e2e_run(&env, k, 1, NULL, &g, NULL) == CL_COMPLETE);
        unsigned o[N];
        CL_OK(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
        for (unsigned i = 0; i < N; i++) {
            unsigned s = i;
            for (int j = 0; j < MANY; j++)
                s = s * 3 + a[j];
            if (o[i] != s) {
                fprintf(stderr, "many[%u] = %u, expected %u\n", i, o[i], s);
                return 1;
            }
        }
        clReleaseMemObject(out);
        clReleaseKernel(k);
    }
    clReleaseProgram(prog);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
