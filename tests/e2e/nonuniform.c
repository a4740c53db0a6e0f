/* End-to-end: OpenCL 2.0 non-uniform work-groups. A 3x3 box blur over a 640x480 image
 * with global size 638x478 and local size 16x16: the last column and row of groups are
 * 14 wide / 14 high, and get_local_size says so while get_enqueued_local_size keeps 16.
 * The same enqueue is CL_INVALID_WORK_GROUP_SIZE for OpenCL C 1.2 and for
 * -cl-uniform-work-group-size. A kernel with reqd_work_group_size(8, 2, 1) reads its
 * group's size through get_local_size and a barrier: constants in OpenCL C 1.2 (every
 * group has that size), the group's own in 2.0, where the last column of groups is 4
 * wide; a 1-D launch of it without a local size is CL_INVALID_WORK_GROUP_SIZE. */
#include "e2e.h"

#define W 640
#define H 480

static const char *src =
    "#if __OPENCL_C_VERSION__ < 200\n"
    "#define get_enqueued_local_size get_local_size\n"
    "#endif\n"
    "__kernel void blur(__global const float *in, __global float *out)\n"
    "{\n"
    "    size_t x = get_global_id(0) + 1, y = get_global_id(1) + 1;\n"
    "    size_t w = get_global_size(0) + 2;\n"
    "    float s = in[(y - 1) * w + x - 1] + in[(y - 1) * w + x] + in[(y - 1) * w + x + 1]\n"
    "            + in[y * w + x - 1] + in[y * w + x] + in[y * w + x + 1]\n"
    "            + in[(y + 1) * w + x - 1] + in[(y + 1) * w + x] + in[(y + 1) * w + x + 1];\n"
    "    out[y * w + x] = s * (1.0f / 9.0f);\n"
    "}\n"
    "__kernel void shape(__global uint *o)\n"
    "{\n"
    "    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "    o[4 * i + 0] = get_local_size(0) | get_local_size(1) << 8;\n"
    "    o[4 * i + 1] = get_enqueued_local_size(0) | get_enqueued_local_size(1) << 8;\n"
    "    o[4 * i + 2] = get_group_id(0) | get_group_id(1) << 8;\n"
    "    o[4 * i + 3] = get_local_id(0) | get_local_id(1) << 8;\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "void sized(__global uint *o)\n"
    "{\n"
    "    __local uint t[16];\n"
    "    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
    "    t[l] = get_local_size(0) | get_local_size(1) << 8 | (uint)l << 16;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    o[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
    "        t[get_local_size(0) * get_local_size(1) - 1 - l];\n"
    "}\n";

/* Runs `sized` over global g[0] x 4 (groups 8 x 2) and checks each work-item read the
 * entry of the work-item opposite it in its group, which wrote the group's size. */
static void check_sized(e2e_env *env, cl_program p, size_t gx)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, "sized", &err);
    CL_OK(err);
    size_t g[2] = {gx, 4}, one = 64;
    cl_uint got[24 * 4];
    cl_mem o = e2e_buffer(env, sizeof got, NULL);
    CL_OK(clSetKernelArg(k, 0, sizeof o, &o));
    EXPECT(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL) ==
           CL_INVALID_WORK_GROUP_SIZE);
    EXPECT(e2e_run(env, k, 2, NULL, g, NULL) == CL_COMPLETE);
    e2e_read(env, o, gx * 4 * sizeof *got, got);
    for (size_t y = 0; y < 4; y++)
        for (size_t x = 0; x < gx; x++) {
            size_t lx = x / 8 == gx / 8 ? gx % 8 : 8, l = y % 2 * lx + x % 8;
            cl_uint want = (cl_uint)(lx | 2 << 8 | (2 * lx - 1 - l) << 16);
            if (got[y * gx + x] != want) {
                fprintf(stderr, "sized, global %zu: (%zu,%zu) read %#x, expected %#x\n", gx, x,
                        y, got[y * gx + x], want);
                EXPECT(0);
            }
        }
    clReleaseMemObject(o);
    clReleaseKernel(k);
}

static void blur_reference(const float *in, float *out)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = in[(y - 1) * W + x - 1] + in[(y - 1) * W + x] + in[(y - 1) * W + x + 1] +
                      in[y * W + x - 1] + in[y * W + x] + in[y * W + x + 1] +
                      in[(y + 1) * W + x - 1] + in[(y + 1) * W + x] + in[(y + 1) * W + x + 1];
            out[y * W + x] = s * (1.0f / 9.0f);
        }
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    size_t global[2] = {W - 2, H - 2}, local[2] = {16, 16};

    /* OpenCL C 1.2 and uniform builds refuse the enqueue. */
    const char *uniform_options[] = {"", "-cl-std=CL1.2", "-cl-std=CL2.0 -cl-uniform-work-group-size"};
    for (int i = 0; i < 3; i++) {
        cl_program p = e2e_build(&env, src, uniform_options[i], 1, NULL);
        cl_int err;
        cl_kernel k = clCreateKernel(p, "shape", &err);
        CL_OK(err);
        cl_mem o = e2e_buffer(&env, 16, NULL);
        CL_OK(clSetKernelArg(k, 0, sizeof o, &o));
        EXPECT(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, NULL) ==
               CL_INVALID_WORK_GROUP_SIZE);
        if (i == 0) /* OpenCL C 1.2: the size is the required one, a constant */
            check_sized(&env, p, 24);
        clReleaseMemObject(o);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }

    cl_program p = e2e_build(&env, src, "-cl-std=CL2.0", 1, NULL);
    cl_int err;

    /* The blur. */
    float *img = malloc(W * H * sizeof *img), *want = calloc(W * H, sizeof *want);
    float *got = malloc(W * H * sizeof *got);
    for (int i = 0; i < W * H; i++)
        img[i] = (float)(((unsigned)i * 7919u) % 1000u) * 0.25f;
    blur_reference(img, want);
    cl_mem in = e2e_buffer(&env, W * H * sizeof *img, img);
    cl_mem out = e2e_buffer(&env, W * H * sizeof *img, want); /* borders keep want's zeros */
    float zero = 0;
    CL_OK(clEnqueueFillBuffer(env.queue, out, &zero, sizeof zero, 0, W * H * sizeof zero, 0,
                              NULL, NULL));
    cl_kernel blur = clCreateKernel(p, "blur", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(blur, 0, sizeof in, &in));
    CL_OK(clSetKernelArg(blur, 1, sizeof out, &out));
    EXPECT(e2e_run(&env, blur, 2, NULL, global, local) == CL_COMPLETE);
    e2e_read(&env, out, W * H * sizeof *got, got);
    int wrong = 0;
    for (int i = 0; i < W * H; i++)
        if (got[i] != want[i] && wrong++ < 5)
            fprintf(stderr, "blur: pixel (%d,%d) = %g, expected %g\n", i % W, i / W, got[i],
                    want[i]);
    EXPECT(wrong == 0);

    check_sized(&env, p, 20); /* groups of 8, 8 and 4 work-items by 2 */

    /* What each work-item of the full and the remainder groups sees. */
    size_t g2[2] = {38, 30};
    cl_uint *shape = malloc(g2[0] * g2[1] * 16);
    cl_mem o = e2e_buffer(&env, g2[0] * g2[1] * 16, NULL);
    cl_kernel ks = clCreateKernel(p, "shape", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(ks, 0, sizeof o, &o));
    EXPECT(e2e_run(&env, ks, 2, NULL, g2, local) == CL_COMPLETE);
    e2e_read(&env, o, g2[0] * g2[1] * 16, shape);
    for (size_t y = 0; y < g2[1]; y++)
        for (size_t x = 0; x < g2[0]; x++) {
            const cl_uint *v = &shape[4 * (y * g2[0] + x)];
            size_t gx = x / 16, gy = y / 16;
            size_t lx = gx == 2 ? 38 - 32 : 16, ly = gy == 1 ? 30 - 16 : 16;
            EXPECT(v[0] == (lx | ly << 8));
            EXPECT(v[1] == (16 | 16 << 8));
            EXPECT(v[2] == (gx | gy << 8));
            EXPECT(v[3] == (x % 16 | (y % 16) << 8));
        }

    free(img);
    free(want);
    free(got);
    free(shape);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(o);
    clReleaseKernel(blur);
    clReleaseKernel(ks);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
