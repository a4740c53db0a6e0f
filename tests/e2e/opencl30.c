/* End-to-end: OpenCL C 3.0 (-cl-std=CL3.0). Kernels see exactly the feature macros of
 * CL_DEVICE_OPENCL_C_FEATURES and the extension macros of CL_DEVICE_EXTENSIONS (every
 * macro clang-16 could define is checked, in the program that then runs); non-uniform
 * work-groups work as with 2.0 (get_local_size against get_enqueued_local_size, 64-bit
 * integers on the way) and -cl-uniform-work-group-size refuses them; what the device
 * lacks fails the build (generic pointers, program-scope globals); atomics on
 * __global and __local memory run; doubles (__opencl_c_fp64, cl_khr_fp64) compile
 * without a pragma and run, subnormals included. Every -cl-std of CL_DEVICE_OPENCL_C_ALL_VERSIONS compiles as that
 * version, and no -cl-std means OpenCL C 1.2. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#define CL_TARGET_OPENCL_VERSION 300 /* the 3.0 queries; e2e.h then says 1.2 */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#undef CL_TARGET_OPENCL_VERSION

#include "e2e.h"

/* Every optional OpenCL C feature (the unified OpenCL C specification, clang-16's
 * cl_ext_float_atomics ones included) and every extension macro clang-16 defines for
 * spir64. */
static const char *const known_macros[] = {
    "__opencl_c_3d_image_writes", "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices", "__opencl_c_device_enqueue",
    "__opencl_c_generic_address_space", "__opencl_c_fp64", "__opencl_c_images",
    "__opencl_c_int64", "__opencl_c_pipes", "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images", "__opencl_c_subgroups",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_kernel_clock_scope_device", "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group", "__opencl_c_ext_image_unorm_int_2_101010",
    "__opencl_c_ext_image_unsigned_10x6_12x4_14x2",
    "__opencl_c_ext_fp16_global_atomic_load_store", "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add", "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max", "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max",
    "cl_khr_3d_image_writes", "cl_khr_byte_addressable_store", "cl_khr_depth_images",
    "cl_khr_extended_bit_ops", "cl_khr_fp16", "cl_khr_fp64", "cl_khr_gl_msaa_sharing",
    "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
    "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics", "cl_khr_integer_dot_product",
    "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
    "cl_khr_mipmap_image", "cl_khr_mipmap_image_writes", "cl_khr_srgb_image_writes",
    "cl_khr_subgroups", "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate", "cl_ext_float_atomics",
    "cles_khr_int64", "__IMAGE_SUPPORT__", NULL,
};

static const char *kernels =
    "#if __OPENCL_C_VERSION__ != 300\n"
    "#error \"not OpenCL C 3.0\"\n"
    "#endif\n"
    "#ifndef __opencl_c_int64\n"
    "#error \"__opencl_c_int64 is not defined\"\n"
    "#endif\n"
    "#ifndef __opencl_c_work_group_collective_functions\n"
    "#error \"__opencl_c_work_group_collective_functions is not defined\"\n"
    "#endif\n"
    "#ifdef __opencl_c_generic_address_space\n"
    "#error \"__opencl_c_generic_address_space is defined\"\n"
    "#endif\n"
    "#ifndef __opencl_c_fp64\n"
    "#error \"__opencl_c_fp64 is not defined\"\n"
    "#endif\n"
    /* Doubles, no pragma needed in 3.0; subnormal products are exact. */
    "__kernel void halve(__global double *d)\n"
    "{\n"
    "    d[get_global_id(0)] = d[get_global_id(0)] * 0.5;\n"
    "}\n"
    "__kernel void shape(__global uint *o)\n"
    "{\n"
    "    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "    o[5 * i + 0] = get_local_size(0) | get_local_size(1) << 8;\n"
    "    o[5 * i + 1] = get_enqueued_local_size(0) | get_enqueued_local_size(1) << 8;\n"
    "    o[5 * i + 2] = get_group_id(0) | get_group_id(1) << 8;\n"
    "    o[5 * i + 3] = get_local_id(0) | get_local_id(1) << 8;\n"
    "    long big = (long)get_global_id(0) * 0x100000000L - (long)get_global_id(1);\n"
    "    o[5 * i + 4] = (uint)(big >> 32) ^ (uint)big;\n"
    "}\n"
    /* Atomics on __global and __local pointers (no generic address space in 3.0 here):
     * sequentially consistent ones at device scope, and the expected value of a
     * compare-exchange in private memory. */
    "__kernel void atomics(__global atomic_int *count, __global int *seen,\n"
    "                      __global int *group_counts)\n"
    "{\n"
    "    __local atomic_int in_group;\n"
    "    if (get_local_id(0) == 0)\n"
    "        atomic_init(&in_group, 0);\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    seen[get_global_id(0)] = atomic_fetch_add(&count[0], 1);\n"
    "    atomic_fetch_add_explicit(&in_group, 1, memory_order_relaxed, memory_scope_work_group);\n"
    "    int expected = atomic_load_explicit(&count[1], memory_order_acquire);\n"
    "    while (!atomic_compare_exchange_weak(&count[1], &expected, expected + 2))\n"
    "        ;\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0)\n"
    "        group_counts[get_group_id(0)] = atomic_load(&in_group);\n"
    "}\n";

/* One check: name is defined (want) or not. */
static size_t macro_check(char *s, size_t len, size_t cap, const char *name, int want)
{
    EXPECT(len + 512 < cap);
    return len + (size_t)snprintf(s + len, cap - len,
                                  want ? "#ifndef %s\n#error \"%s is reported by the device, "
                                         "but kernels do not see it (hls/frontend.c)\"\n#endif\n"
                                       : "#ifdef %s\n#error \"%s is defined, but the device "
                                         "does not report it (hls/frontend.c)\"\n#endif\n",
                                  name, name);
}

/* The checks: each name the device reports (" a b ... ", features and extensions) is
 * defined, each other known macro is not. */
static char *macro_checks(const char *reported)
{
    size_t cap = 64 * 1024, len = 0;
    char *s = malloc(cap), *names = strdup(reported), *save = NULL;
    EXPECT(s && names);
    s[0] = 0;
    for (char *tok = strtok_r(names, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        len = macro_check(s, len, cap, tok, 1);
    for (int i = 0; known_macros[i]; i++) {
        char padded[256];
        snprintf(padded, sizeof padded, " %s ", known_macros[i]);
        if (!strstr(reported, padded))
            len = macro_check(s, len, cap, known_macros[i], 0);
    }
    free(names);
    return s;
}

/* " name name ... " of the device's OpenCL C features and extensions. */
static char *reported_names(e2e_env *env)
{
    size_t bytes;
    CL_OK(clGetDeviceInfo(env->device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &bytes));
    cl_name_version *f = malloc(bytes + sizeof *f);
    CL_OK(clGetDeviceInfo(env->device, CL_DEVICE_OPENCL_C_FEATURES, bytes, f, NULL));
    size_t ext_len;
    CL_OK(clGetDeviceInfo(env->device, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_len));
    char *s = malloc(bytes / sizeof *f * CL_NAME_VERSION_MAX_NAME_SIZE + ext_len + 8);
    strcpy(s, " ");
    for (size_t i = 0; i < bytes / sizeof *f; i++) {
        strcat(s, f[i].name);
        strcat(s, " ");
    }
    CL_OK(clGetDeviceInfo(env->device, CL_DEVICE_EXTENSIONS, ext_len, s + strlen(s), NULL));
    strcat(s, " ");
    free(f);
    return s;
}

/* Builds src with options, which must fail in the compiler (CL_BUILD_PROGRAM_FAILURE)
 * with `needle` in the log and without `absent` (when not NULL). */
static void expect_build_failure(e2e_env *env, const char *src, const char *options,
                                 const char *needle, const char *absent)
{
    cl_int st;
    cl_program p = e2e_build(env, src, options, 0, &st);
    char *log = e2e_build_log(env, p);
    if (st != CL_BUILD_PROGRAM_FAILURE || !strstr(log, needle) || (absent && strstr(log, absent))) {
        fprintf(stderr, "options '%s': status %d, log:\n%s\n(expected '%s'%s%s)\n", options, st,
                log, needle, absent ? ", not " : "", absent ? absent : "");
        _Exit(1);
    }
    free(log);
    clReleaseProgram(p);
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);

    /* Each OpenCL C version the device lists compiles as that version; no -cl-std is
     * 1.2. The #error stops the build in clang, so nothing is built in hardware. */
    size_t bytes;
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &bytes));
    cl_name_version *versions = malloc(bytes);
    CL_OK(clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, bytes, versions, NULL));
    int have30 = 0;
    for (size_t i = 0; i < bytes / sizeof *versions; i++) {
        unsigned major = CL_VERSION_MAJOR(versions[i].version);
        unsigned minor = CL_VERSION_MINOR(versions[i].version);
        char src[256], options[64];
        snprintf(src, sizeof src,
                 "#if __OPENCL_C_VERSION__ == %u\n#error \"clhls-version-ok\"\n#else\n"
                 "#error \"clhls-version-wrong\"\n#endif\n", major * 100 + minor * 10);
        snprintf(options, sizeof options, "-cl-std=CL%u.%u", major, minor);
        expect_build_failure(&env, src, options, "clhls-version-ok", "clhls-version-wrong");
        have30 |= major == 3 && minor == 0;
    }
    EXPECT(have30);
    free(versions);
    expect_build_failure(&env,
                         "#if __OPENCL_C_VERSION__ == 120\n#error \"clhls-version-ok\"\n#endif\n",
                         "", "clhls-version-ok", NULL);
    /* A 3.0 build option that changes nothing here is accepted. */
    expect_build_failure(&env, "#error \"clhls-options-ok\"\n", "-cl-std=CL3.0 -cl-no-subgroup-ifp",
                         "clhls-options-ok", NULL);

    /* What the device does not have does not compile. */
    const char *absent[] = {
        "__kernel void k(__global int *a) { int *p = a; *p = 1; }",
        "__global int g;\n__kernel void k(__global int *a) { a[0] = g; }",
    };
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
        expect_build_failure(&env, absent[i], "-cl-std=CL3.0", "error", NULL);

    /* The program that runs, with the macro checks in front. */
    char *reported = reported_names(&env);
    printf("device reports:%s\n", reported);
    char *checks = macro_checks(reported);
    char *src = malloc(strlen(checks) + strlen(kernels) + 1);
    strcpy(src, checks);
    strcat(src, kernels);
    cl_program p = e2e_build(&env, src, "-cl-std=CL3.0", 1, NULL);
    cl_int err;

    size_t global[2] = {38, 30}, local[2] = {16, 16};
    size_t n = global[0] * global[1];
    cl_uint *out = malloc(n * 5 * sizeof *out);
    cl_mem o = e2e_buffer(&env, n * 5 * sizeof *out, NULL);
    cl_kernel k = clCreateKernel(p, "shape", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof o, &o));
    EXPECT(e2e_run(&env, k, 2, NULL, global, local) == CL_COMPLETE);
    e2e_read(&env, o, n * 5 * sizeof *out, out);
    for (size_t y = 0; y < global[1]; y++)
        for (size_t x = 0; x < global[0]; x++) {
            const cl_uint *v = &out[5 * (y * global[0] + x)];
            size_t gx = x / 16, gy = y / 16;
            size_t lx = gx == 2 ? 38 - 32 : 16, ly = gy == 1 ? 30 - 16 : 16;
            EXPECT(v[0] == (lx | ly << 8));
            EXPECT(v[1] == (16 | 16 << 8));
            EXPECT(v[2] == (gx | gy << 8));
            EXPECT(v[3] == (x % 16 | (y % 16) << 8));
            long long big = (long long)x * 0x100000000LL - (long long)y;
            EXPECT(v[4] == ((cl_uint)((unsigned long long)big >> 32) ^ (cl_uint)big));
        }
    clReleaseKernel(k);

    /* Atomics: every old value of the add once, the compare-exchange loop adds 2 per
     * work-item, each group counts its own work-items (the last group has 40). */
    enum { W = 1000, L = 64, G = (W + L - 1) / L };
    cl_int count[2] = {0, 0}, seen[W], group_counts[G];
    cl_mem bc = e2e_buffer(&env, sizeof count, count), bs = e2e_buffer(&env, sizeof seen, NULL);
    cl_mem bg = e2e_buffer(&env, sizeof group_counts, NULL);
    k = e2e_kernel(p, "atomics");
    E2E_ARG(k, 0, bc);
    E2E_ARG(k, 1, bs);
    E2E_ARG(k, 2, bg);
    size_t gw = W, lw = L;
    EXPECT(e2e_run(&env, k, 1, NULL, &gw, &lw) == CL_COMPLETE);
    e2e_read(&env, bc, sizeof count, count);
    e2e_read(&env, bs, sizeof seen, seen);
    e2e_read(&env, bg, sizeof group_counts, group_counts);
    EXPECT(count[0] == W && count[1] == 2 * W);
    char hit[W] = {0};
    for (int i = 0; i < W; i++) {
        EXPECT(seen[i] >= 0 && seen[i] < W && !hit[seen[i]]);
        hit[seen[i]] = 1;
    }
    for (int g = 0; g < G; g++)
        EXPECT(group_counts[g] == (g == G - 1 ? W - L * (G - 1) : L));
    clReleaseKernel(k);
    clReleaseMemObject(bc);
    clReleaseMemObject(bs);
    clReleaseMemObject(bg);

    /* Doubles: halves of normals and subnormals (2^-1070 * 0.5 = 2^-1071, the smallest
     * subnormal's half rounds to even, 0), bit for bit against the host. */
    {
        enum { ND = 6 };
        cl_double d[ND] = {3.0, 0x1p-1070, 0x1p-1074, 0x3p-1074, 0x1p-1022, -0x1.8p-1073};
        cl_double want[ND];
        for (int i = 0; i < ND; i++)
            want[i] = d[i] * 0.5;
        cl_mem bd = e2e_buffer(&env, sizeof d, d);
        k = e2e_kernel(p, "halve");
        E2E_ARG(k, 0, bd);
        size_t nd = ND;
        EXPECT(e2e_run(&env, k, 1, NULL, &nd, NULL) == CL_COMPLETE);
        e2e_read(&env, bd, sizeof d, d);
        for (int i = 0; i < ND; i++)
            if (memcmp(&d[i], &want[i], sizeof d[i])) {
                fprintf(stderr, "halve[%d]: %a, expected %a\n", i, d[i], want[i]);
                return 1;
            }
        clReleaseKernel(k);
        clReleaseMemObject(bd);
    }
    clReleaseProgram(p);

    /* -cl-uniform-work-group-size: the same enqueue is refused. */
    p = e2e_build(&env, src, "-cl-std=CL3.0 -cl-uniform-work-group-size", 1, NULL);
    k = clCreateKernel(p, "shape", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof o, &o));
    EXPECT(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, NULL) ==
           CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(k);
    clReleaseProgram(p);

    free(out);
    free(src);
    free(checks);
    free(reported);
    clReleaseMemObject(o);
    e2e_fini(&env);
    printf("PASSED\n");
    return 0;
}
