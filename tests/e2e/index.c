/* End-to-end: every work-item function (get_global_id, get_local_id, get_group_id,
 * get_global_size, get_local_size, get_num_groups, get_global_offset, get_work_dim)
 * written to a buffer by each work-item, for 2-D and 3-D NDRanges with a global offset
 * and for 1-D ranges with a NULL local size whose global size has few divisors. */
#include "e2e.h"

static const char *src =
    "__kernel void ids(__global uint *o)\n"
    "{\n"
    "    size_t x = get_global_id(0) - get_global_offset(0);\n"
    "    size_t y = get_global_id(1) - get_global_offset(1);\n"
    "    size_t z = get_global_id(2) - get_global_offset(2);\n"
    "    size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
    "    __global uint *p = o + lin * 32;\n"
    "    p[0] = get_global_id(0);   p[1] = get_global_id(1);   p[2] = get_global_id(2);\n"
    "    p[3] = get_local_id(0);    p[4] = get_local_id(1);    p[5] = get_local_id(2);\n"
    "    p[6] = get_group_id(0);    p[7] = get_group_id(1);    p[8] = get_group_id(2);\n"
    "    p[9] = get_global_size(0); p[10] = get_global_size(1); p[11] = get_global_size(2);\n"
    "    p[12] = get_local_size(0); p[13] = get_local_size(1); p[14] = get_local_size(2);\n"
    "    p[15] = get_num_groups(0); p[16] = get_num_groups(1); p[17] = get_num_groups(2);\n"
    "    p[18] = get_global_offset(0); p[19] = get_global_offset(1);\n"
    "    p[20] = get_global_offset(2); p[21] = get_work_dim();\n"
    "}\n";

/* Runs ids over the range and checks every work-item's record. local NULL: the runtime
 * picks; the records must then agree on one local size that divides the global size. */
static void check(e2e_env *env, cl_kernel k, cl_uint dim, const size_t *off_in,
                  const size_t *g_in, const size_t *l_in)
{
    size_t g[3] = {1, 1, 1}, l[3] = {1, 1, 1}, off[3] = {0, 0, 0};
    for (cl_uint d = 0; d < dim; d++) {
        g[d] = g_in[d];
        l[d] = l_in ? l_in[d] : 0;
        off[d] = off_in ? off_in[d] : 0;
    }
    size_t items = g[0] * g[1] * g[2];
    size_t bytes = items * 32 * sizeof(cl_uint);
    cl_mem m = e2e_buffer(env, bytes, NULL);
    CL_OK(clSetKernelArg(k, 0, sizeof m, &m));
    EXPECT(e2e_run(env, k, dim, off_in, g_in, l_in) == CL_COMPLETE);
    cl_uint *o = malloc(bytes);
    e2e_read(env, m, bytes, o);
    if (!l_in)
        for (cl_uint d = 0; d < 3; d++) {
            l[d] = o[12 + d];
            EXPECT(l[d] >= 1 && g[d] % l[d] == 0);
        }
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                const cl_uint *p = o + ((z * g[1] + y) * g[0] + x) * 32;
                size_t pos[3] = {x, y, z};
                for (cl_uint d = 0; d < 3; d++) {
                    EXPECT(p[0 + d] == off[d] + pos[d]);
                    EXPECT(p[3 + d] == pos[d] % l[d]);
                    EXPECT(p[6 + d] == pos[d] / l[d]);
                    EXPECT(p[9 + d] == g[d]);
                    EXPECT(p[12 + d] == l[d]);
                    EXPECT(p[15 + d] == g[d] / l[d]);
                    EXPECT(p[18 + d] == off[d]);
                }
                EXPECT(p[21] == dim);
            }
    free(o);
    clReleaseMemObject(m);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, "", 1, NULL);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "ids", &err);
    CL_OK(err);

    size_t g2[2] = {24, 10}, l2[2] = {8, 5}, o2[2] = {3, 7};
    check(&env, k, 2, o2, g2, l2);
    size_t g3[3] = {6, 4, 3}, l3[3] = {3, 2, 3}, o3[3] = {1, 2, 5};
    check(&env, k, 3, o3, g3, l3);
    size_t g1 = 1031; /* prime: only 1 divides it within the work-group limit */
    check(&env, k, 1, NULL, &g1, NULL);
    size_t g1b = 1000;
    check(&env, k, 1, NULL, &g1b, NULL);
    size_t g2b[2] = {13, 9};
    check(&env, k, 2, o2, g2b, NULL);

    /* Geometry errors. */
    size_t big[3] = {4096, 1, 1}, bl[3] = {2048, 1, 1};
    EXPECT(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, big, bl, 0, NULL, NULL) ==
           CL_INVALID_WORK_ITEM_SIZE);
    size_t l32[2] = {32, 64}, g32[2] = {64, 64};
    EXPECT(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, g32, l32, 0, NULL, NULL) ==
           CL_INVALID_WORK_GROUP_SIZE);
    size_t huge_off = (size_t)-2;
    EXPECT(clEnqueueNDRangeKernel(env.queue, k, 1, &huge_off, big, NULL, 0, NULL, NULL) ==
           CL_INVALID_GLOBAL_OFFSET);
    /* No work-items (OpenCL 2.1): a kernel command that runs nothing. */
    size_t zero = 0;
    EXPECT(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &zero, NULL, 0, NULL, NULL) ==
           CL_SUCCESS);

    clReleaseKernel(k);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
