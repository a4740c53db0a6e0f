/* End-to-end: the OpenCL C 2.0 work-group functions, computed by barrier units in
 * hardware. One program (built as OpenCL C 2.0): work_group_reduce_{add,min,max},
 * work_group_scan_{inclusive,exclusive}_{add,min,max}, work_group_any, work_group_all
 * and work_group_broadcast for int, uint, long, ulong, float and double, in 1, 2 and 3
 * dimensions, for work-group sizes 1, 7, 64, 256 and 1024 with remainder groups (real
 * sizes through the collectives). Integer results are exact; float and double
 * reductions and scans combine the values in local-id order, ((v0 + v1) + v2) + ...,
 * so the host computes the same bits (and every run gives them). The 1-D kernels run
 * again under random memory latency and back-pressure. */
#include "e2e.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "size_t linear(void)\n"
    "{\n"
    "    return get_global_id(0) + get_global_size(0) * (get_global_id(1) +\n"
    "           get_global_size(1) * get_global_id(2));\n"
    "}\n"
    "__kernel void ints(__global const int *in, __global int *out)\n"
    "{\n"
    "    size_t g = linear();\n"
    "    int x = in[g];\n"
    "    out[8 * g + 0] = work_group_reduce_add(x);\n"
    "    out[8 * g + 1] = work_group_reduce_min(x);\n"
    "    out[8 * g + 2] = work_group_reduce_max(x);\n"
    "    out[8 * g + 3] = work_group_scan_inclusive_add(x);\n"
    "    out[8 * g + 4] = work_group_scan_exclusive_min(x);\n"
    "    out[8 * g + 5] = work_group_scan_exclusive_max(x);\n"
    "    out[8 * g + 6] = work_group_any(x > 900) + 2 * work_group_all(x > -900);\n"
    "    out[8 * g + 7] = get_work_dim() == 1 ? work_group_broadcast(x, get_local_size(0) - 1)\n"
    "                   : get_work_dim() == 2 ? work_group_broadcast(x, get_local_size(0) - 1, 1)\n"
    "                   : work_group_broadcast(x, 1, get_local_size(1) - 1, get_local_size(2) - 1);\n"
    "}\n"
    "__kernel void uints(__global const uint *in, __global uint *out)\n"
    "{\n"
    "    size_t g = linear();\n"
    "    uint x = in[g];\n"
    "    out[4 * g + 0] = work_group_reduce_min(x);\n"
    "    out[4 * g + 1] = work_group_reduce_max(x);\n"
    "    out[4 * g + 2] = work_group_scan_inclusive_max(x);\n"
    "    out[4 * g + 3] = work_group_scan_exclusive_add(x);\n"
    "}\n"
    "__kernel void longs(__global const long *in, __global long *out, __global ulong *uout)\n"
    "{\n"
    "    size_t g = linear();\n"
    "    long x = in[g];\n"
    "    out[3 * g + 0] = work_group_reduce_add(x);\n"
    "    out[3 * g + 1] = work_group_scan_exclusive_add(x);\n"
    "    out[3 * g + 2] = work_group_reduce_min(x);\n"
    "    uout[2 * g + 0] = work_group_reduce_max((ulong)x);\n"
    "    uout[2 * g + 1] = work_group_scan_inclusive_min((ulong)x);\n"
    "}\n"
    "__kernel void floats(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t g = linear();\n"
    "    float x = in[g];\n"
    "    out[5 * g + 0] = work_group_reduce_add(x);\n"
    "    out[5 * g + 1] = work_group_scan_inclusive_add(x);\n"
    "    out[5 * g + 2] = work_group_reduce_min(x);\n"
    "    out[5 * g + 3] = work_group_reduce_max(x);\n"
    "    out[5 * g + 4] = work_group_scan_exclusive_max(x);\n"
    "}\n"
    "__kernel void doubles(__global const double *in, __global double *out)\n"
    "{\n"
    "    size_t g = linear();\n"
    "    double x = in[g];\n"
    "    out[3 * g + 0] = work_group_reduce_add(x);\n"
    "    out[3 * g + 1] = work_group_scan_exclusive_add(x);\n"
    "    out[3 * g + 2] = work_group_broadcast(x, 0);\n"
    "}\n";

/* The geometry of one run: global and local sizes per dimension. */
typedef struct shape {
    unsigned dim;
    size_t global[3], local[3];
} shape;

static size_t total(const shape *s)
{
    return s->global[0] * s->global[1] * s->global[2];
}

/* The linear global indexes of the work-items of the group holding g, in local-id
 * order; returns how many, and sets *pos to g's position. */
static size_t group_of(const shape *s, size_t g, size_t *members, size_t *pos)
{
    size_t id[3] = {g % s->global[0], g / s->global[0] % s->global[1],
                    g / (s->global[0] * s->global[1])};
    size_t base[3], size[3];
    for (int d = 0; d < 3; d++) {
        base[d] = id[d] / s->local[d] * s->local[d];
        size[d] = s->global[d] - base[d] < s->local[d] ? s->global[d] - base[d] : s->local[d];
    }
    size_t n = 0;
    for (size_t z = 0; z < size[2]; z++)
        for (size_t y = 0; y < size[1]; y++)
            for (size_t x = 0; x < size[0]; x++) {
                size_t m = base[0] + x + s->global[0] * (base[1] + y + s->global[1] * (base[2] + z));
                if (m == g)
                    *pos = n;
                members[n++] = m;
            }
    return n;
}

static cl_mem run(e2e_env *env, cl_program prog, const char *name, const shape *s,
                  const void *in, size_t in_size, size_t out_size, cl_mem *second,
                  size_t second_size)
{
    cl_mem bin = e2e_buffer(env, in_size, in), bout = e2e_buffer(env, out_size, NULL);
    cl_kernel k = e2e_kernel(prog, name);
    E2E_ARG(k, 0, bin);
    E2E_ARG(k, 1, bout);
    if (second) {
        *second = e2e_buffer(env, second_size, NULL);
        E2E_ARG(k, 2, *second);
    }
    EXPECT(e2e_run(env, k, s->dim, NULL, s->global, s->local) == CL_COMPLETE);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    return bout;
}

static int check_ints(e2e_env *env, cl_program prog, const shape *s)
{
    size_t n = total(s), *members = malloc(1024 * sizeof *members);
    int *in = calloc(n, sizeof *in), *out = malloc(8 * n * sizeof *out);
    EXPECT(members && in && out);
    unsigned seed = 11 + (unsigned)n;
    for (size_t i = 0; i < n; i++)
        in[i] = (int)(e2e_xorshift(&seed) % 2001) - 1000;
    cl_mem b = run(env, prog, "ints", s, in, n * sizeof *in, 8 * n * sizeof *out, NULL, 0);
    CL_OK(clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, 8 * n * sizeof *out, out, 0, NULL, NULL));
    clReleaseMemObject(b);
    int bad = 0;
    for (size_t g = 0; g < n && !bad; g++) {
        size_t pos = 0, m = group_of(s, g, members, &pos);
        int sum = 0, mn = INT_MAX, mx = INT_MIN, incl = 0, exmin = INT_MAX, exmax = INT_MIN;
        int any = 0, all = 1;
        for (size_t i = 0; i < m; i++) {
            int v = in[members[i]];
            if (i < pos)
                exmin = v < exmin ? v : exmin, exmax = v > exmax ? v : exmax;
            if (i <= pos)
                incl += v;
            sum += v, mn = v < mn ? v : mn, mx = v > mx ? v : mx;
            any |= v > 900, all &= v > -900;
        }
        /* the broadcast source: local id (size_x - 1) in 1-D, (size_x - 1, 1) in 2-D,
         * (1, size_y - 1, size_z - 1) in 3-D, in the group's real sizes */
        size_t sx = 0, sy = 0, sz = 0;
        {
            size_t id[3] = {g % s->global[0], g / s->global[0] % s->global[1],
                            g / (s->global[0] * s->global[1])}, size[3];
            for (int d = 0; d < 3; d++) {
                size_t base = id[d] / s->local[d] * s->local[d];
                size[d] = s->global[d] - base < s->local[d] ? s->global[d] - base : s->local[d];
            }
            sx = size[0], sy = size[1], sz = size[2];
        }
        size_t src_pos = s->dim == 1 ? sx - 1 : s->dim == 2 ? sx - 1 + sx : 1 + sx * (sy - 1) + sx * sy * (sz - 1);
        int want[8] = {sum, mn, mx, incl, exmin, exmax, any + 2 * all, in[members[src_pos]]};
        for (int c = 0; c < 8; c++)
            if (out[8 * g + c] != want[c])
                bad = fprintf(stderr, "ints (dim %u, local %zu %zu %zu): item %zu result %d = %d, "
                              "expected %d\n", s->dim, s->local[0], s->local[1], s->local[2], g,
                              c, out[8 * g + c], want[c]);
    }
    free(members), free(in), free(out);
    return bad;
}

static int check_uints(e2e_env *env, cl_program prog, const shape *s)
{
    size_t n = total(s), *members = malloc(1024 * sizeof *members);
    cl_uint *in = calloc(n, sizeof *in), *out = malloc(4 * n * sizeof *out);
    EXPECT(members && in && out);
    unsigned seed = 5;
    for (size_t i = 0; i < n; i++)
        in[i] = e2e_xorshift(&seed);
    cl_mem b = run(env, prog, "uints", s, in, n * sizeof *in, 4 * n * sizeof *out, NULL, 0);
    CL_OK(clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, 4 * n * sizeof *out, out, 0, NULL, NULL));
    clReleaseMemObject(b);
    int bad = 0;
    for (size_t g = 0; g < n && !bad; g++) {
        size_t pos = 0, m = group_of(s, g, members, &pos);
        cl_uint mn = UINT_MAX, mx = 0, inmax = 0, exadd = 0;
        for (size_t i = 0; i < m; i++) {
            cl_uint v = in[members[i]];
            mn = v < mn ? v : mn, mx = v > mx ? v : mx;
            if (i <= pos)
                inmax = v > inmax ? v : inmax;
            if (i < pos)
                exadd += v;
        }
        cl_uint want[4] = {mn, mx, inmax, exadd};
        for (int c = 0; c < 4; c++)
            if (out[4 * g + c] != want[c])
                bad = fprintf(stderr, "uints: item %zu result %d = %u, expected %u\n", g, c,
                              out[4 * g + c], want[c]);
    }
    free(members), free(in), free(out);
    return bad;
}

static int check_longs(e2e_env *env, cl_program prog, const shape *s)
{
    size_t n = total(s), *members = malloc(1024 * sizeof *members);
    cl_long *in = malloc(n * sizeof *in), *out = malloc(3 * n * sizeof *out);
    cl_ulong *uout = malloc(2 * n * sizeof *uout);
    EXPECT(members && in && out && uout);
    unsigned seed = 99;
    for (size_t i = 0; i < n; i++)
        in[i] = (cl_long)(((uint64_t)e2e_xorshift(&seed) << 32) | e2e_xorshift(&seed)) >> 3;
    cl_mem ub;
    cl_mem b = run(env, prog, "longs", s, in, n * sizeof *in, 3 * n * sizeof *out, &ub,
                   2 * n * sizeof *uout);
    CL_OK(clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, 3 * n * sizeof *out, out, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(env->queue, ub, CL_TRUE, 0, 2 * n * sizeof *uout, uout, 0, NULL,
                              NULL));
    clReleaseMemObject(b);
    clReleaseMemObject(ub);
    int bad = 0;
    for (size_t g = 0; g < n && !bad; g++) {
        size_t pos = 0, m = group_of(s, g, members, &pos);
        uint64_t sum = 0, ex = 0, umax = 0, umin = UINT64_MAX;
        cl_long mn = INT64_MAX;
        for (size_t i = 0; i < m; i++) {
            cl_long v = in[members[i]];
            sum += (uint64_t)v;
            if (i < pos)
                ex += (uint64_t)v;
            mn = v < mn ? v : mn;
            umax = (uint64_t)v > umax ? (uint64_t)v : umax;
            if (i <= pos)
                umin = (uint64_t)v < umin ? (uint64_t)v : umin;
        }
        if ((uint64_t)out[3 * g] != sum || (uint64_t)out[3 * g + 1] != ex || out[3 * g + 2] != mn ||
            uout[2 * g] != umax || uout[2 * g + 1] != umin)
            bad = fprintf(stderr, "longs: item %zu wrong\n", g);
    }
    free(members), free(in), free(out), free(uout);
    return bad;
}

static int check_floats(e2e_env *env, cl_program prog, const shape *s)
{
    size_t n = total(s), *members = malloc(1024 * sizeof *members);
    float *in = calloc(n, sizeof *in), *out = malloc(5 * n * sizeof *out);
    EXPECT(members && in && out);
    unsigned seed = 1234;
    for (size_t i = 0; i < n; i++) /* values that round when summed */
        in[i] = (float)((int)(e2e_xorshift(&seed) % 20001) - 10000) / 7.0f;
    cl_mem b = run(env, prog, "floats", s, in, n * sizeof *in, 5 * n * sizeof *out, NULL, 0);
    CL_OK(clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, 5 * n * sizeof *out, out, 0, NULL, NULL));
    clReleaseMemObject(b);
    int bad = 0;
    for (size_t g = 0; g < n && !bad; g++) {
        size_t pos = 0, m = group_of(s, g, members, &pos);
        float sum = in[members[0]], incl = 0.0f, mn = INFINITY, mx = -INFINITY, exmax = -INFINITY;
        for (size_t i = 0; i < m; i++) {
            float v = in[members[i]];
            if (i)
                sum += v;
            if (i <= pos)
                incl = i ? incl + v : v;
            if (i < pos)
                exmax = v > exmax ? v : exmax;
            mn = v < mn ? v : mn, mx = v > mx ? v : mx;
        }
        float want[5] = {sum, incl, mn, mx, exmax};
        for (int c = 0; c < 5; c++)
            if (e2e_fbits(out[5 * g + c]) != e2e_fbits(want[c]))
                bad = fprintf(stderr, "floats: item %zu result %d = %a, expected %a\n", g, c,
                              out[5 * g + c], want[c]);
    }
    free(members), free(in), free(out);
    return bad;
}

static int check_doubles(e2e_env *env, cl_program prog, const shape *s)
{
    size_t n = total(s), *members = malloc(1024 * sizeof *members);
    double *in = malloc(n * sizeof *in), *out = malloc(3 * n * sizeof *out);
    EXPECT(members && in && out);
    unsigned seed = 4321;
    for (size_t i = 0; i < n; i++)
        in[i] = (double)((int)(e2e_xorshift(&seed) % 20001) - 10000) / 3.0;
    cl_mem b = run(env, prog, "doubles", s, in, n * sizeof *in, 3 * n * sizeof *out, NULL, 0);
    CL_OK(clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, 3 * n * sizeof *out, out, 0, NULL, NULL));
    clReleaseMemObject(b);
    int bad = 0;
    for (size_t g = 0; g < n && !bad; g++) {
        size_t pos = 0, m = group_of(s, g, members, &pos);
        double sum = in[members[0]], ex = 0.0;
        for (size_t i = 1; i < m; i++)
            sum += in[members[i]];
        for (size_t i = 0; i < pos; i++)
            ex = i ? ex + in[members[i]] : in[members[i]];
        if (memcmp(&out[3 * g], &sum, 8) || memcmp(&out[3 * g + 1], &ex, 8) ||
            memcmp(&out[3 * g + 2], &in[members[0]], 8))
            bad = fprintf(stderr, "doubles: item %zu: %a %a %a, expected %a %a %a\n", g,
                          out[3 * g], out[3 * g + 1], out[3 * g + 2], sum, ex, in[members[0]]);
    }
    free(members), free(in), free(out);
    return bad;
}

static int one_dimension(e2e_env *env, cl_program prog)
{
    static const shape shapes[] = {
        {1, {1000, 1, 1}, {64, 1, 1}}, {1, {100, 1, 1}, {7, 1, 1}}, {1, {5, 1, 1}, {1, 1, 1}},
        {1, {600, 1, 1}, {256, 1, 1}}, {1, {2100, 1, 1}, {1024, 1, 1}},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        if (check_ints(env, prog, &shapes[i]))
            return 1;
    return check_uints(env, prog, &shapes[0]) || check_longs(env, prog, &shapes[1]) ||
           check_floats(env, prog, &shapes[0]) || check_floats(env, prog, &shapes[3]) ||
           check_doubles(env, prog, &shapes[1]);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program prog = e2e_build(&env, src, "-cl-std=CL2.0", 1, NULL);
    static const shape two = {2, {30, 20, 1}, {8, 4, 1}}, three = {3, {10, 6, 4}, {4, 3, 2}};
    if (one_dimension(&env, prog) || check_ints(&env, prog, &two) ||
        check_ints(&env, prog, &three) || check_floats(&env, prog, &two))
        return 1;
    setenv("CLHLS_SIM_STRESS", "31337", 1);
    if (one_dimension(&env, prog))
        return 1;
    unsetenv("CLHLS_SIM_STRESS");
    clReleaseProgram(prog);
    e2e_fini(&env);
    printf("PASS\n");
    return 0;
}
