/* Runtime unit tests through the real ocl-icd loader (OCL_ICD_VENDORS points at the
 * build's clhls.icd): platform and device queries against the board file and the
 * OpenCL 3.0 rules (every query of a 3.0 device, the optional features the devices have
 * and lack), object lifetimes, error codes of invalid calls, buffers
 * (read/write/copy/fill/map, their rectangular forms, migration, USE_HOST_PTR and
 * ALLOC_HOST_PTR, host-access flags, sub-buffers, every clGetMemObjectInfo query,
 * property lists), pipes (creation, queries, lifetime, every buffer command refusing
 * them), queues with property lists, context destructor callbacks, images (none: the
 * specification's errors), events (user events, wait lists, callbacks, markers,
 * barriers, out-of-order queues) and profiling on the device timeline. No kernel is
 * built here (see test_kernels.c, test_device.c and tests/e2e). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS /* clSetProgramReleaseCallback */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <criterion/criterion.h>

#include "runtime_test.h"
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "board.h"

/* 1 when LeakSanitizer finds memory nothing points to any more (0 without it). Criterion
 * does not fail a test for leaks reported at exit, so tests about lifetimes ask. */
static int leaks_now(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return __lsan_do_recoverable_leak_check();
#else
    return 0;
#endif
}

#if defined(__SANITIZE_ADDRESS__)
/* OpenSSL, which Criterion links, keeps per-thread state LeakSanitizer may report. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libcrypto.so\n"; }
#endif

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;  /* in-order, profiling */

static void setup(void)
{
    rt_test_open(&platform, &device, &ctx);
    cl_int err;
    queue = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    cr_assert_eq(err, CL_SUCCESS);
}

static void teardown(void)
{
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
}

TestSuite(api, .init = setup, .fini = teardown, .timeout = 60);

/* ---- platform and device ---- */

Test(api, platform_strings)
{
    char s[256];
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof s, s, NULL), CL_SUCCESS);
    cr_assert_str_eq(s, "clhls");
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof s, s, NULL), CL_SUCCESS);
    cr_assert(strstr(s, "cl_khr_icd"));
    cr_assert(strstr(s, "cl_khr_fp64"), "%s", s);   /* every device has doubles */
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof s, s, NULL), CL_SUCCESS);
    cr_assert_str_eq(s, "clhls");
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof s, s, NULL), CL_SUCCESS);
    cr_assert(!strncmp(s, "OpenCL 3.0 clhls ", 17), "%s", s);
    size_t n;
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, NULL, &n), CL_SUCCESS);
    cr_assert_eq(n, 6);
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 2, s, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetPlatformInfo(platform, 0x7777, sizeof s, s, NULL), CL_INVALID_VALUE);
}

Test(api, device_types)
{
    cl_device_id d;
    cl_uint n;
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ACCELERATOR, 1, &d, &n), CL_SUCCESS);
    cr_assert_eq(d, device);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &d, NULL), CL_SUCCESS);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &d, &n), CL_DEVICE_NOT_FOUND);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &d, &n), CL_DEVICE_NOT_FOUND);
    cr_assert_eq(clGetDeviceIDs(platform, 0, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &d, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
    cl_device_type t;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    cr_assert_eq(t, CL_DEVICE_TYPE_ACCELERATOR);
}

Test(api, device_matches_board)
{
    char err[256];
    board_t *b = board_load(board_default_name(), err, sizeof err);
    cr_assert(b, "%s", err);
    cl_ulong ul;
    cl_uint u;
    size_t sz, sizes[3];
    cl_bool bo;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ul, &ul, NULL), 0);
    cr_assert_eq(ul, b->global_mem_bytes);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ul, &ul, NULL), 0);
    cr_assert_eq(ul, b->max_alloc_bytes);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ul, &ul, NULL), 0);
    cr_assert_eq(ul, b->local_mem_bytes);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL), 0);
    cr_assert_eq(u, (cl_uint)lround(b->clock_mhz));
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL), 0);
    cr_assert_eq(u, b->compute_units);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof sz, &sz, NULL), 0);
    cr_assert_eq(sz, b->max_work_group_size);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL), 0);
    cr_assert_eq(sizes[0], b->max_work_group_size);
    /* Profiling times are counted in single nanoseconds. */
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof sz, &sz, NULL), 0);
    cr_assert_eq(sz, 1);
    /* A fixed vendor ID (docs/user-guide.md). */
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_VENDOR_ID, sizeof u, &u, NULL), 0);
    cr_assert_eq(u, 0x1FFFF);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_ADDRESS_BITS, sizeof u, &u, NULL), 0);
    cr_assert_eq(u, 64);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_ENDIAN_LITTLE, sizeof bo, &bo, NULL), 0);
    cr_assert_eq(bo, CL_TRUE);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof bo, &bo, NULL), 0);
    cr_assert_eq(bo, CL_FALSE);
    cl_device_fp_config fp;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL), 0);
    cr_assert_eq(fp, CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_FMA |
                         CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    /* Doubles: IEEE subnormals, round to nearest, fused fma (the OpenCL 2.0+ minimum). */
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL), 0);
    cr_assert_eq(fp, CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM);
    const cl_device_info widths[] = {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
                                     CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
                                     CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
                                     CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF};
    for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
        cl_uint w;
        cr_assert_eq(clGetDeviceInfo(device, widths[i], sizeof w, &w, NULL), 0);
        cr_assert_eq(w, i < 2 ? 1u : 0u, "vector width query 0x%x: %u", widths[i], w);
    }
    char s[256];
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_VERSION, sizeof s, s, NULL), 0);
    cr_assert_str_eq(s, "OpenCL C 1.2 ");
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof s, s, NULL), 0);
    cr_assert_str_eq(s, "OpenCL 3.0 clhls");
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof s, s, NULL), 0);
    cr_assert(strstr(s, b->name));
    /* Byte and short stores work (test_kernels.c, byte_addressable_stores), the 32 and
     * 64-bit atomics (tests/e2e/atomics.c) and doubles with subnormals
     * (tests/e2e/double.c); nothing else optional is there. */
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof s, s, NULL), 0);
    cr_assert_str_eq(s, "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
                        "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
                        "cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics "
                        "cl_khr_int64_extended_atomics cl_khr_fp64");
    cl_platform_id p;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof p, &p, NULL), 0);
    cr_assert_eq(p, platform);
    cr_assert_eq(clGetDeviceInfo(device, 0x7777, sizeof s, s, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof s, s, NULL), CL_INVALID_DEVICE);
    board_free(b);
}

/* ---- OpenCL 3.0 platform and device queries ---- */

/* A query answers a value of exactly `size` bytes equal to `expect` (compared as
 * bytes), says so in param_value_size_ret, and is CL_INVALID_VALUE into one byte less. */
#define EXPECT_DEVICE_INFO(name, type, expect)                                          \
    do {                                                                                \
        type want_ = (expect), got_;                                                    \
        size_t ret_ = 0;                                                                \
        unsigned char small_[sizeof(type)];                                             \
        memset(&got_, 0xAB, sizeof got_);                                               \
        cr_assert_eq(clGetDeviceInfo(device, name, 0, NULL, &ret_), CL_SUCCESS, #name); \
        cr_assert_eq(ret_, sizeof(type), #name ": size %zu", ret_);                     \
        cr_assert_eq(clGetDeviceInfo(device, name, sizeof got_, &got_, &ret_), 0, #name); \
        cr_assert(!memcmp(&got_, &want_, sizeof(type)), #name ": unexpected value");    \
        cr_assert_eq(clGetDeviceInfo(device, name, sizeof(type) - 1, small_, NULL),     \
                     CL_INVALID_VALUE, #name ": short size");                           \
    } while (0)

#define EXPECT_PLATFORM_INFO(name, type, expect)                                        \
    do {                                                                                \
        type want_ = (expect), got_;                                                    \
        size_t ret_ = 0;                                                                \
        unsigned char small_[sizeof(type)];                                             \
        cr_assert_eq(clGetPlatformInfo(platform, name, 0, NULL, &ret_), CL_SUCCESS, #name); \
        cr_assert_eq(ret_, sizeof(type), #name ": size %zu", ret_);                     \
        cr_assert_eq(clGetPlatformInfo(platform, name, sizeof got_, &got_, NULL), 0, #name); \
        cr_assert(!memcmp(&got_, &want_, sizeof(type)), #name ": unexpected value");    \
        cr_assert_eq(clGetPlatformInfo(platform, name, sizeof(type) - 1, small_, NULL), \
                     CL_INVALID_VALUE, #name ": short size");                           \
    } while (0)

/* A string query: the value, its size with the NUL, CL_INVALID_VALUE one byte short. */
static void expect_device_string(cl_device_info name, const char *expect)
{
    char s[256], small[256];
    size_t ret = 0, len = strlen(expect) + 1;
    cr_assert_eq(clGetDeviceInfo(device, name, sizeof s, s, &ret), CL_SUCCESS, "0x%x", name);
    cr_assert_str_eq(s, expect, "0x%x", name);
    cr_assert_eq(ret, len, "0x%x", name);
    cr_assert_eq(clGetDeviceInfo(device, name, len - 1, small, NULL), CL_INVALID_VALUE,
                 "0x%x", name);
}

/* A cl_name_version[] query into a malloc'ed array (*n entries); checks the size rules. */
static cl_name_version *name_versions(int is_platform, cl_uint name, size_t *n)
{
    size_t bytes = 99;
    cl_int rc = is_platform ? clGetPlatformInfo(platform, name, 0, NULL, &bytes)
                            : clGetDeviceInfo(device, name, 0, NULL, &bytes);
    cr_assert_eq(rc, CL_SUCCESS, "0x%x", name);
    cr_assert_eq(bytes % sizeof(cl_name_version), 0, "0x%x: %zu bytes", name, bytes);
    *n = bytes / sizeof(cl_name_version);
    cl_name_version *v = calloc(*n + 1, sizeof *v);
    size_t ret = 0;
    rc = is_platform ? clGetPlatformInfo(platform, name, bytes, v, &ret)
                     : clGetDeviceInfo(device, name, bytes, v, &ret);
    cr_assert_eq(rc, CL_SUCCESS, "0x%x", name);
    cr_assert_eq(ret, bytes);
    if (bytes) {
        rc = is_platform ? clGetPlatformInfo(platform, name, bytes - 1, v, NULL)
                         : clGetDeviceInfo(device, name, bytes - 1, v, NULL);
        cr_assert_eq(rc, CL_INVALID_VALUE, "0x%x: short size", name);
    }
    return v;
}

/* The *_WITH_VERSION list names exactly the extensions of the string query, once each,
 * in the same order, all at version 1.0.0. */
static void expect_extensions_match(int is_platform, cl_uint string_name, cl_uint list_name)
{
    char s[1024];
    cl_int rc = is_platform ? clGetPlatformInfo(platform, string_name, sizeof s, s, NULL)
                            : clGetDeviceInfo(device, string_name, sizeof s, s, NULL);
    cr_assert_eq(rc, CL_SUCCESS);
    size_t n;
    cl_name_version *v = name_versions(is_platform, list_name, &n);
    size_t i = 0;
    for (char *save = NULL, *tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        cr_assert_lt(i, n, "%s is missing from the list", tok);
        cr_assert_str_eq(v[i].name, tok);
        cr_assert_eq(v[i].version, CL_MAKE_VERSION(1, 0, 0), "%s", tok);
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(v[j].name, tok, "%s is listed twice", tok);
        i++;
    }
    cr_assert_eq(i, n, "the list has more entries than the string");
    free(v);
}

Test(api, platform_opencl30_queries)
{
    EXPECT_PLATFORM_INFO(CL_PLATFORM_NUMERIC_VERSION, cl_version, CL_MAKE_VERSION(3, 0, 0));
    /* No device and host timer synchronization: resolution 0, and the timers say so. */
    EXPECT_PLATFORM_INFO(CL_PLATFORM_HOST_TIMER_RESOLUTION, cl_ulong, 0);
    cl_ulong t0, t1;
    cr_assert_eq(clGetHostTimer(device, &t0), CL_INVALID_OPERATION);
    cr_assert_eq(clGetDeviceAndHostTimer(device, &t0, &t1), CL_INVALID_OPERATION);
    expect_extensions_match(1, CL_PLATFORM_EXTENSIONS, CL_PLATFORM_EXTENSIONS_WITH_VERSION);
    /* Every extension all devices have is a platform extension too. */
    char pext[1024], dext[1024];
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof pext, pext, NULL), 0);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof dext, dext, NULL), 0);
    for (char *save = NULL, *tok = strtok_r(dext, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        cr_assert(strstr(pext, tok), "%s", tok);
}

Test(api, device_opencl30_queries)
{
    char s[256];
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof s, s, NULL), 0);
    cr_assert_str_eq(s, "OpenCL 3.0 clhls");
    EXPECT_DEVICE_INFO(CL_DEVICE_NUMERIC_VERSION, cl_version, CL_MAKE_VERSION(3, 0, 0));
    /* Every optional 3.0 feature OpenCL C 1.2 lacks is either there or says it is not. */
    EXPECT_DEVICE_INFO(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool, CL_TRUE);
    EXPECT_DEVICE_INFO(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool, CL_TRUE);
    EXPECT_DEVICE_INFO(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool, CL_FALSE);
    /* Pipes between kernels of a program, packets up to the widest element the hardware
     * moves (256 bytes), no reservations. */
    EXPECT_DEVICE_INFO(CL_DEVICE_PIPE_SUPPORT, cl_bool, CL_TRUE);
    EXPECT_DEVICE_INFO(CL_DEVICE_MAX_PIPE_ARGS, cl_uint, 16);
    EXPECT_DEVICE_INFO(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint, 256);
    EXPECT_DEVICE_INFO(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                       cl_device_device_enqueue_capabilities, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties,
                       CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    EXPECT_DEVICE_INFO(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool, CL_FALSE);
    EXPECT_DEVICE_INFO(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint, 0);
    EXPECT_DEVICE_INFO(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t, 1);
    /* Sequentially consistent atomics up to device scope (no SVM: no all-devices scope). */
    EXPECT_DEVICE_INFO(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities,
                       CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                           CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                           CL_DEVICE_ATOMIC_SCOPE_DEVICE);
    EXPECT_DEVICE_INFO(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities,
                       CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                           CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                           CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE);
    /* No intermediate language, no built-in kernels. */
    expect_device_string(CL_DEVICE_IL_VERSION, "");
    expect_device_string(CL_DEVICE_BUILT_IN_KERNELS, "");
    size_t n;
    free(name_versions(0, CL_DEVICE_ILS_WITH_VERSION, &n));
    cr_assert_eq(n, 0);
    free(name_versions(0, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, &n));
    cr_assert_eq(n, 0);
    /* Not conformance-tested: a well-formed vYYYY-MM-DD-XX naming no release. */
    expect_device_string(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, "v0000-01-01-00");
    expect_extensions_match(0, CL_DEVICE_EXTENSIONS, CL_DEVICE_EXTENSIONS_WITH_VERSION);
}

/* OpenCL C: 1.2 as the highest fully supported version, every -cl-std the compiler
 * takes in the list, and the optional 3.0 features that agree with the API queries
 * (the pairing the Khronos CTS checks). */
Test(api, device_opencl_c_versions_and_features)
{
    expect_device_string(CL_DEVICE_OPENCL_C_VERSION, "OpenCL C 1.2 ");
    size_t n;
    cl_name_version *v = name_versions(0, CL_DEVICE_OPENCL_C_ALL_VERSIONS, &n);
    const cl_version want[] = {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
                               CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(2, 0, 0),
                               CL_MAKE_VERSION(3, 0, 0)};
    cr_assert_eq(n, 5);
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_eq(v[i].name, "OpenCL C");
        cr_assert_eq(v[i].version, want[i], "entry %zu: 0x%x", i, v[i].version);
    }
    free(v);

    v = name_versions(0, CL_DEVICE_OPENCL_C_FEATURES, &n);
    const char *features[] = {"__opencl_c_atomic_order_acq_rel",
                              "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
                              "__opencl_c_fp64", "__opencl_c_int64",
                              "__opencl_c_work_group_collective_functions"};
    cr_assert_eq(n, sizeof features / sizeof *features);
    for (size_t i = 0; i < n; i++)
        cr_assert_str_eq(v[i].name, features[i]);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(v[i].version, CL_MAKE_VERSION(3, 0, 0), "%s", v[i].name);
    free(v);
    /* The features that are not listed are the ones the queries deny, and
     * __opencl_c_fp64 goes with a nonzero CL_DEVICE_DOUBLE_FP_CONFIG. */
    cl_bool b;
    cl_device_fp_config fp;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, NULL), 0);
    cr_assert_eq(b, CL_FALSE, "__opencl_c_images");
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL), 0);
    cr_assert_neq(fp, 0, "__opencl_c_fp64");
}

/* ---- contexts and queues ---- */

Test(api, context_lifetime)
{
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context c = clCreateContext(props, 1, &device, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_uint rc;
    cr_assert_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL), 0);
    cr_assert_eq(rc, 1);
    cl_command_queue q = clCreateCommandQueue(c, device, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    /* The queue keeps the context alive. */
    cr_assert_eq(clReleaseContext(c), CL_SUCCESS);
    cl_context qc;
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL), 0);
    cr_assert_eq(qc, c);
    cl_uint nd;
    cr_assert_eq(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL), 0);
    cr_assert_eq(nd, 1);
    size_t psize;
    cr_assert_eq(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &psize), 0);
    cr_assert_eq(psize, sizeof props);
    cr_assert_eq(clReleaseCommandQueue(q), CL_SUCCESS);
}

Test(api, context_errors)
{
    cl_int err;
    cr_assert_null(clCreateContext(NULL, 0, &device, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cr_assert_null(clCreateContext(NULL, 1, NULL, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cl_context_properties bad[] = {0x7777, 0, 0};
    cr_assert_null(clCreateContext(bad, 1, &device, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PROPERTY);
    /* A supported property with a value it cannot have. */
    cl_context_properties bogus_platform[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)0x1234, 0};
    cr_assert_null(clCreateContext(bogus_platform, 1, &device, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PLATFORM);
    cl_context_properties bad_sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, 5, 0};
    cr_assert_null(clCreateContext(bad_sync, 1, &device, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PROPERTY);
    cl_context_properties twice[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE,
                                     CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
    cr_assert_null(clCreateContext(twice, 1, &device, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PROPERTY);
    cl_context_properties good_sync[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                         CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
    cl_context c2 = clCreateContext(good_sync, 1, &device, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    clReleaseContext(c2);
    cl_context_properties bad_sync2[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                         CL_CONTEXT_INTEROP_USER_SYNC, 5, 0};
    cr_assert_null(clCreateContextFromType(bad_sync2, CL_DEVICE_TYPE_ALL, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PROPERTY);
    int dummy;
    cr_assert_null(clCreateContext(NULL, 1, &device, NULL, &dummy, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cl_context c = clCreateContextFromType(NULL, CL_DEVICE_TYPE_ACCELERATOR, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    clReleaseContext(c);
    cr_assert_null(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL, NULL, &err));
    cr_assert_eq(err, CL_DEVICE_NOT_FOUND);
}

static int destructor_order[4];
static atomic_int destructor_count;
static void CL_CALLBACK on_context_destroy(cl_context c, void *data)
{
    int i = atomic_fetch_add(&destructor_count, 1);
    if (i < 4)
        destructor_order[i] = (int)(intptr_t)data;
}

/* clSetContextDestructorCallback: the callbacks run when the context goes, which is
 * after its last object, newest first. */
Test(api, context_destructor_callback)
{
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clSetContextDestructorCallback(NULL, on_context_destroy, NULL), CL_INVALID_CONTEXT);
    cr_assert_eq(clSetContextDestructorCallback(c, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clSetContextDestructorCallback(c, on_context_destroy, (void *)1), CL_SUCCESS);
    cr_assert_eq(clSetContextDestructorCallback(c, on_context_destroy, (void *)2), CL_SUCCESS);
    cl_mem m = clCreateBuffer(c, 0, 64, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clReleaseContext(c), CL_SUCCESS);
    cr_assert_eq(atomic_load(&destructor_count), 0, "the buffer holds the context");
    cr_assert_eq(clReleaseMemObject(m), CL_SUCCESS);
    cr_assert_eq(atomic_load(&destructor_count), 2);
    cr_assert_eq(destructor_order[0], 2);
    cr_assert_eq(destructor_order[1], 1);
}

/* clCreateCommandQueueWithProperties: host queues with CL_QUEUE_PROPERTIES, the list
 * kept for CL_QUEUE_PROPERTIES_ARRAY, device queues refused (the devices have none). */
Test(api, queue_with_properties)
{
    cl_int err;
    cl_command_queue_properties p;
    size_t ret = 99;
    /* NULL: an in-order queue, and no property list. */
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), 0);
    cr_assert_eq(p, 0);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &ret), 0);
    cr_assert_eq(ret, 0);
    /* It works like any queue. */
    cl_mem m = clCreateBuffer(ctx, 0, 16, NULL, &err);
    int in[4] = {1, 2, 3, 4}, out[4];
    cr_assert_eq(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 16, in, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, out, 0, NULL, NULL), 0);
    cr_assert_arr_eq(in, out, sizeof in);
    clReleaseMemObject(m);
    /* No device queue and no default one; CL_QUEUE_SIZE is a device queue's query. */
    cl_command_queue dq = (cl_command_queue)1;
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, &ret), 0);
    cr_assert_null(dq);
    cr_assert_eq(ret, sizeof dq);
    cl_uint qsize;
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, NULL),
                 CL_INVALID_COMMAND_QUEUE);
    clReleaseCommandQueue(q);

    /* A list comes back as given. */
    const cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), 0);
    cr_assert_eq(p, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_queue_properties back[3];
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, &ret), 0);
    cr_assert_eq(ret, sizeof props);
    cr_assert_arr_eq(back, props, sizeof props);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back - 1, back, NULL),
                 CL_INVALID_VALUE);
    clReleaseCommandQueue(q);
    const cl_queue_properties empty[] = {0};
    q = clCreateCommandQueueWithProperties(ctx, device, empty, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, &ret), 0);
    cr_assert_eq(ret, sizeof(cl_queue_properties));
    cr_assert_eq(back[0], 0);
    clReleaseCommandQueue(q);

    /* Errors. */
    const cl_queue_properties on_device[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    const cl_queue_properties on_device_in_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
    const cl_queue_properties default_alone[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT, 0};
    const cl_queue_properties size_alone[] = {CL_QUEUE_SIZE, 16384, 0};
    const cl_queue_properties unknown[] = {0x7777, 0, 0};
    const cl_queue_properties twice[] = {CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0};
    const cl_queue_properties bad_bits[] = {CL_QUEUE_PROPERTIES, 0x1000, 0};
    struct { const cl_queue_properties *list; cl_int err; } cases[] = {
        {on_device, CL_INVALID_QUEUE_PROPERTIES}, {on_device_in_order, CL_INVALID_VALUE},
        {default_alone, CL_INVALID_VALUE},        {size_alone, CL_INVALID_VALUE},
        {unknown, CL_INVALID_VALUE},              {twice, CL_INVALID_VALUE},
        {bad_bits, CL_INVALID_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        err = 0;
        cr_assert_null(clCreateCommandQueueWithProperties(ctx, device, cases[i].list, &err));
        cr_assert_eq(err, cases[i].err, "case %zu: %d", i, err);
    }
    cr_assert_null(clCreateCommandQueueWithProperties(NULL, device, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    cr_assert_null(clCreateCommandQueueWithProperties(ctx, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_DEVICE);
}

Test(api, queue_errors)
{
    cl_int err;
    cr_assert_null(clCreateCommandQueue(NULL, device, 0, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    cr_assert_null(clCreateCommandQueue(ctx, device, 0x1000, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cl_command_queue_properties p;
    cr_assert_eq(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), 0);
    cr_assert_eq(p, CL_QUEUE_PROFILING_ENABLE);
    cr_assert_eq(clFlush(queue), CL_SUCCESS);
    cr_assert_eq(clFinish(queue), CL_SUCCESS);
}

/* ---- buffers ---- */

Test(api, buffer_errors)
{
    cl_int err;
    int host[4];
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err));
    cr_assert_eq(err, CL_INVALID_BUFFER_SIZE);
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1 << 62, NULL, &err));
    cr_assert_eq(err, CL_INVALID_BUFFER_SIZE);
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_HOST_PTR);
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, host, &err));
    cr_assert_eq(err, CL_INVALID_HOST_PTR);
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16, host, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cr_assert_null(clCreateBuffer(NULL, 0, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    cl_mem m = clCreateBuffer(ctx, 0, 16, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_TRUE, 8, 16, host, 0, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueReadBuffer(queue, NULL, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, 16, host, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cr_assert_eq(clEnqueueCopyBuffer(queue, m, m, 0, 4, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    int pat = 0;
    cr_assert_eq(clEnqueueFillBuffer(queue, m, &pat, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, host, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_mem_flags f;
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, NULL), 0);
    cr_assert_eq(f, CL_MEM_READ_WRITE);
    clReleaseMemObject(m);
    cl_mem ho = clCreateBuffer(ctx, CL_MEM_HOST_WRITE_ONLY, 16, NULL, &err);
    cr_assert_eq(clEnqueueReadBuffer(queue, ho, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_OPERATION);
    clReleaseMemObject(ho);
}

/* clCreateBufferWithProperties: with no list or the empty one it is clCreateBuffer;
 * CL_MEM_PROPERTIES gives the list back (nothing for other buffers and sub-buffers);
 * OpenCL defines no buffer property, so any name is CL_INVALID_PROPERTY. */
Test(api, buffer_with_properties)
{
    cl_int err;
    int data[256], back[256];
    for (int i = 0; i < 256; i++)
        data[i] = 3 * i + 1;
    size_t ret = 99;
    cl_mem a = clCreateBufferWithProperties(ctx, NULL, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clGetMemObjectInfo(a, CL_MEM_PROPERTIES, 0, NULL, &ret), 0);
    cr_assert_eq(ret, 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_arr_eq(back, data, sizeof data);
    cl_mem_flags f;
    cr_assert_eq(clGetMemObjectInfo(a, CL_MEM_FLAGS, sizeof f, &f, NULL), 0);
    cr_assert_eq(f, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_WRITE);

    const cl_mem_properties empty[] = {0};
    cl_mem b = clCreateBufferWithProperties(ctx, empty, CL_MEM_READ_ONLY, 8192, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem_properties props[2] = {99, 99};
    cr_assert_eq(clGetMemObjectInfo(b, CL_MEM_PROPERTIES, sizeof props, props, &ret), 0);
    cr_assert_eq(ret, sizeof(cl_mem_properties));
    cr_assert_eq(props[0], 0);
    cr_assert_eq(props[1], 99);
    cr_assert_eq(clGetMemObjectInfo(b, CL_MEM_PROPERTIES, sizeof props[0] - 1, props, NULL),
                 CL_INVALID_VALUE);
    cl_bool svm = CL_TRUE;
    cr_assert_eq(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, &ret), 0);
    cr_assert_eq(svm, CL_FALSE);
    cr_assert_eq(ret, sizeof svm);
    cl_buffer_region r = {4096, 4096};
    cl_mem s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_PROPERTIES, 0, NULL, &ret), 0);
    cr_assert_eq(ret, 0);
    cl_mem c = clCreateBuffer(ctx, 0, 64, NULL, &err);
    cr_assert_eq(clGetMemObjectInfo(c, CL_MEM_PROPERTIES, 0, NULL, &ret), 0);
    cr_assert_eq(ret, 0);

    /* Errors: the properties first, then those of clCreateBuffer. */
    const cl_mem_properties unknown[] = {0x7777, 0, 0};
    err = 0;
    cr_assert_null(clCreateBufferWithProperties(ctx, unknown, 0, 64, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PROPERTY);
    cr_assert_null(clCreateBufferWithProperties(NULL, NULL, 0, 64, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    cr_assert_null(clCreateBufferWithProperties(ctx, empty, 0, 0, NULL, &err));
    cr_assert_eq(err, CL_INVALID_BUFFER_SIZE);
    cr_assert_null(clCreateBufferWithProperties(ctx, NULL, CL_MEM_USE_HOST_PTR, 64, NULL, &err));
    cr_assert_eq(err, CL_INVALID_HOST_PTR);
    clReleaseMemObject(s);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    cr_assert_eq(leaks_now(), 0);
}

Test(api, buffer_read_write_copy_fill)
{
    enum { N = 10000 };
    static int a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = i * 7 - 3;
    cl_int err;
    cl_mem m1 = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem m2 = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, sizeof a, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clEnqueueCopyBuffer(queue, m1, m2, 0, 0, sizeof a, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m2, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL), 0);
    cr_assert_arr_eq(a, b, sizeof a);
    /* Non-blocking write then a blocking read of a part, in order. */
    int part[100];
    for (int i = 0; i < 100; i++)
        part[i] = -i;
    cr_assert_eq(clEnqueueWriteBuffer(queue, m2, CL_FALSE, 400, sizeof part, part, 0, NULL, NULL), 0);
    int back[100];
    cr_assert_eq(clEnqueueReadBuffer(queue, m2, CL_TRUE, 400, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_arr_eq(part, back, sizeof part);
    short pat = 0x1234;
    cr_assert_eq(clEnqueueFillBuffer(queue, m2, &pat, sizeof pat, 8, 16, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m2, CL_TRUE, 0, 32, back, 0, NULL, NULL), 0);
    cr_assert_eq(back[0], a[0]);
    cr_assert_eq(back[1], a[1]);
    for (int i = 2; i < 6; i++)
        cr_assert_eq(back[i], 0x12341234);
    cr_assert_eq(back[6], a[6]);
    clReleaseMemObject(m1);
    clReleaseMemObject(m2);
}

Test(api, buffer_map_unmap)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, 0, 4096, NULL, &err);
    int *p = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4096,
                                0, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    for (int i = 0; i < 1024; i++)
        p[i] = i * i;
    cl_uint mc;
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL), 0);
    cr_assert_eq(mc, 1);
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), 0);
    int back[1024];
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < 1024; i++)
        cr_assert_eq(back[i], i * i);
    p = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ, 400, 40, 0, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(p[0], 100 * 100);
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), 0);
    clFinish(queue);
    clReleaseMemObject(m);
}

Test(api, use_host_ptr)
{
    int host[256];
    for (int i = 0; i < 256; i++)
        host[i] = i;
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    cr_assert_eq(err, CL_SUCCESS);
    void *hp;
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), 0);
    cr_assert_eq(hp, host);
    /* A fill writes the buffer: the host memory follows. */
    int pat = 77;
    cr_assert_eq(clEnqueueFillBuffer(queue, m, &pat, sizeof pat, 0, 64, 0, NULL, NULL), 0);
    clFinish(queue);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(host[i], 77);
    cr_assert_eq(host[16], 16);
    /* Map returns the host pointer itself. */
    int *p = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 64, 64, 0, NULL,
                                NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(p, host + 16);
    p[0] = -5;
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), 0);
    int back[32];
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_eq(back[16], -5);
    cr_assert_eq(back[17], 17);
    clReleaseMemObject(m);
}

static atomic_int destructor_calls;
static void CL_CALLBACK on_destroy(cl_mem m, void *data) { atomic_fetch_add(&destructor_calls, 1); }

Test(api, sub_buffer_and_lifetime)
{
    cl_int err;
    int data[2048];
    for (int i = 0; i < 2048; i++)
        data[i] = i;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    cl_buffer_region r = {4096, 64};
    cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_buffer_region bad = {4, 64};
    cr_assert_null(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err));
    cr_assert_eq(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cr_assert_eq(clSetMemObjectDestructorCallback(m, on_destroy, NULL), 0);
    /* The sub-buffer keeps its parent alive. */
    clReleaseMemObject(m);
    cr_assert_eq(atomic_load(&destructor_calls), 0);
    int back[16];
    cr_assert_eq(clEnqueueReadBuffer(queue, s, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_eq(back[0], 1024);
    cr_assert_eq(back[15], 1039);
    /* Commands hold their buffers until they are finished: clFinish, then release. */
    clFinish(queue);
    clReleaseMemObject(s);
    cr_assert_eq(atomic_load(&destructor_calls), 1);
}

/* ---- events ---- */

static atomic_int cb_order[8];
static atomic_int cb_count;
static void CL_CALLBACK on_status(cl_event e, cl_int status, void *data)
{
    int slot = atomic_fetch_add(&cb_count, 1);
    if (slot < 8)
        cb_order[slot] = (int)(intptr_t)data * 100 + (status < 0 ? 99 : status);
}

Test(api, user_event_gates_commands)
{
    cl_int err;
    cl_event user = clCreateUserEvent(ctx, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_int st;
    cr_assert_eq(clGetEventInfo(user, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), 0);
    cr_assert_eq(st, CL_SUBMITTED);
    cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
    int v[16], back[16];
    for (int i = 0; i < 16; i++)
        v[i] = 40 + i;
    cl_event w, marker;
    cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_FALSE, 0, sizeof v, v, 1, &user, &w), 0);
    cr_assert_eq(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker), 0);
    cr_assert_eq(clSetEventCallback(w, CL_COMPLETE, on_status, (void *)1), 0);
    cr_assert_eq(clSetEventCallback(marker, CL_COMPLETE, on_status, (void *)2), 0);
    usleep(100000);
    cr_assert_eq(clGetEventInfo(w, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), 0);
    cr_assert_eq(st, CL_QUEUED);
    cr_assert_eq(atomic_load(&cb_count), 0);
    cr_assert_eq(clSetUserEventStatus(user, CL_COMPLETE), 0);
    cr_assert_eq(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
    cr_assert_eq(clWaitForEvents(1, &marker), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_arr_eq(v, back, sizeof v);
    clFinish(queue);
    /* The write completed before the marker; both callbacks ran once. */
    for (int i = 0; i < 100 && atomic_load(&cb_count) < 2; i++)
        usleep(10000);
    cr_assert_eq(atomic_load(&cb_count), 2);
    cr_assert_eq(cb_order[0], 100);
    cr_assert_eq(cb_order[1], 200);
    /* A callback registered after completion runs at once. */
    cr_assert_eq(clSetEventCallback(w, CL_SUBMITTED, on_status, (void *)3), 0);
    cr_assert_eq(atomic_load(&cb_count), 3);
    cr_assert_eq(clSetEventCallback(w, 42, on_status, NULL), CL_INVALID_VALUE);
    cl_command_type t;
    cr_assert_eq(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), 0);
    cr_assert_eq(t, CL_COMMAND_MARKER);
    cr_assert_eq(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_START, 8, &t, NULL),
                 CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(w);
    clReleaseEvent(marker);
    clReleaseEvent(user);
    clReleaseMemObject(m);
}

Test(api, failed_user_event_propagates)
{
    cl_int err;
    cl_event user = clCreateUserEvent(ctx, &err);
    cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
    int v[16] = {0};
    cl_event w, b;
    cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_FALSE, 0, sizeof v, v, 1, &user, &w), 0);
    cr_assert_eq(clEnqueueBarrierWithWaitList(queue, 1, &w, &b), 0);
    cr_assert_eq(clSetUserEventStatus(user, -1234), 0);
    cr_assert_eq(clWaitForEvents(1, &b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_int st;
    clGetEventInfo(w, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    cr_assert_eq(st, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clGetEventInfo(b, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    cr_assert(st < 0);
    /* The queue goes on. */
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL), 0);
    clReleaseEvent(w);
    clReleaseEvent(b);
    clReleaseEvent(user);
    clReleaseMemObject(m);
}

/* A long in-order queue behind a user event: its commands wait (parked one behind the
 * other) while another queue's command, enqueued after all of them, runs; once the
 * event is set they run in enqueue order (each START at or after its predecessor's END,
 * the last write to each element wins). */
Test(api, long_in_order_queue_waits_in_order)
{
    enum { WRITES = 300, ELEMS = 64 };
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_event user = clCreateUserEvent(ctx, &err);
    cl_mem m = clCreateBuffer(ctx, 0, ELEMS * sizeof(int), NULL, &err);
    cl_mem other = clCreateBuffer(ctx, 0, 64, NULL, &err);
    static int values[WRITES];
    cl_event ev[WRITES];
    for (int i = 0; i < WRITES; i++) {
        values[i] = 1000 + i;
        cr_assert_eq(clEnqueueWriteBuffer(q2, m, CL_FALSE, (size_t)(i % ELEMS) * sizeof(int),
                                          sizeof(int), &values[i], i ? 0 : 1, i ? NULL : &user,
                                          &ev[i]),
                     CL_SUCCESS);
    }
    int v[16] = {7}, back[16] = {0};
    cr_assert_eq(clEnqueueWriteBuffer(queue, other, CL_FALSE, 0, sizeof v, v, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, other, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_eq(back[0], 7);
    cl_int st;
    clGetEventInfo(ev[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    cr_assert_eq(st, CL_QUEUED);
    clGetEventInfo(ev[WRITES - 1], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    cr_assert_eq(st, CL_QUEUED);
    cr_assert_eq(clSetUserEventStatus(user, CL_COMPLETE), 0);
    cr_assert_eq(clFinish(q2), CL_SUCCESS);
    int got[ELEMS];
    cr_assert_eq(clEnqueueReadBuffer(q2, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), 0);
    for (int k = 0; k < ELEMS; k++) {
        int last = k + (WRITES - 1 - k) / ELEMS * ELEMS;
        cr_assert_eq(got[k], 1000 + last, "element %d: %d", k, got[k]);
    }
    cl_ulong prev_end = 0;
    for (int i = 0; i < WRITES; i++) {
        cl_ulong start, end;
        cr_assert_eq(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start,
                                             &start, NULL), 0);
        cr_assert_eq(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof end, &end,
                                             NULL), 0);
        cr_assert_geq(start, prev_end, "write %d started before write %d ended", i, i - 1);
        prev_end = end;
        clReleaseEvent(ev[i]);
    }
    clReleaseEvent(user);
    clReleaseMemObject(m);
    clReleaseMemObject(other);
    clReleaseCommandQueue(q2);
}

Test(api, out_of_order_queue_barrier)
{
    cl_int err;
    cl_command_queue oq = clCreateCommandQueue(ctx, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_event user = clCreateUserEvent(ctx, &err);
    cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
    int v[16] = {1}, back[16];
    cl_event w, r, barrier, after;
    cr_assert_eq(clEnqueueWriteBuffer(oq, m, CL_FALSE, 0, sizeof v, v, 1, &user, &w), 0);
    /* Independent of the gated write: runs first in an out-of-order queue. */
    cr_assert_eq(clEnqueueReadBuffer(oq, m, CL_FALSE, 0, sizeof back, back, 0, NULL, &r), 0);
    cr_assert_eq(clWaitForEvents(1, &r), 0);
    cr_assert_eq(clEnqueueBarrierWithWaitList(oq, 0, NULL, &barrier), 0);
    cr_assert_eq(clEnqueueMarkerWithWaitList(oq, 0, NULL, &after), 0);
    usleep(50000);
    cl_int st;
    clGetEventInfo(after, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    cr_assert(st > 0, "the marker must wait for the barrier");
    clSetUserEventStatus(user, CL_COMPLETE);
    cr_assert_eq(clWaitForEvents(1, &after), 0);
    clFinish(oq);
    clReleaseEvent(w);
    clReleaseEvent(r);
    clReleaseEvent(barrier);
    clReleaseEvent(after);
    clReleaseEvent(user);
    clReleaseMemObject(m);
    clReleaseCommandQueue(oq);
}

Test(api, profiling_order)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, 0, 1 << 20, NULL, &err);
    static char data[1 << 20];
    cl_event e1, e2;
    cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_FALSE, 0, sizeof data, data, 0, NULL, &e1), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_FALSE, 0, sizeof data, data, 0, NULL, &e2), 0);
    cl_ulong t1[5], t2[5];
    cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                  CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                  CL_PROFILING_COMMAND_COMPLETE};
    cr_assert_eq(clWaitForEvents(1, &e2), 0);
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(clGetEventProfilingInfo(e1, names[i], sizeof t1[i], &t1[i], NULL), 0);
        cr_assert_eq(clGetEventProfilingInfo(e2, names[i], sizeof t2[i], &t2[i], NULL), 0);
        if (i) {
            cr_assert_leq(t1[i - 1], t1[i]);
            cr_assert_leq(t2[i - 1], t2[i]);
        }
    }
    /* The device timeline: the second transfer starts after the first ends, and a 1 MiB
     * transfer takes at least the host-link time. */
    cr_assert_leq(t1[3], t2[2]);
    char errs[256];
    board_t *b = board_load(board_default_name(), errs, sizeof errs);
    double expect = b->host_link_latency_us * 1000.0 + (double)sizeof data / b->host_link_gbps;
    cr_assert_geq((double)(t1[3] - t1[2]), expect * 0.99);
    board_free(b);
    /* A queue without profiling. */
    cl_command_queue q2 = clCreateCommandQueue(ctx, device, 0, &err);
    cl_event e3;
    cr_assert_eq(clEnqueueMarkerWithWaitList(q2, 0, NULL, &e3), 0);
    clFinish(q2);
    cr_assert_eq(clGetEventProfilingInfo(e3, CL_PROFILING_COMMAND_END, 8, t1, NULL),
                 CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(e1);
    clReleaseEvent(e2);
    clReleaseEvent(e3);
    clReleaseCommandQueue(q2);
    clReleaseMemObject(m);
}

Test(api, legacy_marker_barrier_wait)
{
    cl_event mk;
    cr_assert_eq(clEnqueueMarker(queue, &mk), 0);
    cr_assert_eq(clEnqueueBarrier(queue), 0);
    cr_assert_eq(clEnqueueWaitForEvents(queue, 1, &mk), 0);
    cr_assert_eq(clEnqueueMarker(queue, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clFinish(queue), 0);
    cr_assert_eq(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
    clReleaseEvent(mk);
}

Test(api, program_errors_without_build)
{
    cl_int err;
    const char *src = "__kernel void k(__global int *a) { a[0] = 1; }";
    cr_assert_null(clCreateProgramWithSource(ctx, 0, &src, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_null(clCreateKernel(p, "k", &err));
    cr_assert_eq(err, CL_INVALID_PROGRAM_EXECUTABLE);
    cl_build_status bs;
    cr_assert_eq(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL), 0);
    cr_assert_eq(bs, CL_BUILD_NONE);
    size_t len;
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &len), 0);
    cr_assert_eq(len, strlen(src) + 1);
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof len, &len, NULL),
                 CL_INVALID_PROGRAM_EXECUTABLE);
    cr_assert_eq(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
    cr_assert_eq(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
    const unsigned char *bin = (const unsigned char *)"x";
    size_t blen = 1;
    cl_int bstatus = 1;
    cr_assert_null(clCreateProgramWithBinary(ctx, 1, &device, &blen, &bin, &bstatus, &err));
    cr_assert_eq(err, CL_INVALID_BINARY);
    cr_assert_eq(bstatus, CL_INVALID_BINARY);
    blen = 0;
    cr_assert_null(clCreateProgramWithBinary(ctx, 1, &device, &blen, &bin, &bstatus, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cr_assert_eq(bstatus, CL_INVALID_VALUE);
    /* Not built: no binary, size 0. */
    size_t bsize = 99;
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsize, &bsize, NULL), 0);
    cr_assert_eq(bsize, 0);
    /* OpenCL 2.x queries: no IL, and no executable yet for the global-variable ones. */
    len = 99;
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &len), 0);
    cr_assert_eq(len, 0);
    cl_bool b;
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof b, &b, NULL),
                 CL_INVALID_PROGRAM_EXECUTABLE);
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof b, &b, NULL),
                 CL_INVALID_PROGRAM_EXECUTABLE);
    cr_assert_eq(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                       sizeof len, &len, NULL), 0);
    cr_assert_eq(len, 0);
    /* No program-scope global variables, so no destructors to be told about. */
    cr_assert_eq(clSetProgramReleaseCallback(p, NULL, NULL), CL_INVALID_OPERATION);
    cr_assert_eq(clSetProgramReleaseCallback(NULL, NULL, NULL), CL_INVALID_PROGRAM);
    cr_assert_eq(clReleaseProgram(p), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(NULL, 0, 4, &len), CL_INVALID_KERNEL);
    cr_assert_eq(clUnloadPlatformCompiler(platform), CL_SUCCESS);
}

/* OpenCL 3.0 entry points of features the devices lack: the specification's error. */
Test(api, opencl30_optional_features_absent)
{
    cl_int err = 0;
    cr_assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0));
    const char il[4] = {0};
    cr_assert_null(clCreateProgramWithIL(ctx, il, sizeof il, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    cr_assert_eq(clSetDefaultDeviceCommandQueue(ctx, device, queue), CL_INVALID_OPERATION);
    cr_assert_eq(clGetHostTimer(NULL, NULL), CL_INVALID_DEVICE);
}

Test(api, unsupported_features_fail_cleanly)
{
    cl_int err;
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = desc.image_height = 4;
    cr_assert_null(clCreateImage(ctx, 0, &fmt, &desc, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    cl_uint n = 99;
    cr_assert_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n), 0);
    cr_assert_eq(n, 0);
}

/* No device supports images: every image and sampler entry point says so with the
 * specification's error, after checking what it can check. */
Test(api, images_absent)
{
    cl_int err;
    cl_bool bo;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof bo, &bo, NULL), 0);
    cr_assert_eq(bo, CL_FALSE);
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = desc.image_height = 4;
    err = 0;
    cr_assert_null(clCreateImage2D(ctx, 0, &fmt, 4, 4, 0, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    err = 0;
    cr_assert_null(clCreateImage3D(ctx, 0, &fmt, 4, 4, 4, 0, 0, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    err = 0;
    cr_assert_null(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    /* The OpenCL 2.0 and 3.0 forms with property lists, the same way. */
    err = 0;
    cr_assert_null(clCreateImageWithProperties(ctx, NULL, 0, &fmt, &desc, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    const cl_mem_properties no_props[] = {0};
    err = 0;
    cr_assert_null(clCreateImageWithProperties(ctx, no_props, 0, &fmt, &desc, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    cr_assert_null(clCreateImageWithProperties(NULL, NULL, 0, &fmt, &desc, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    err = 0;
    cr_assert_null(clCreateSamplerWithProperties(ctx, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    cr_assert_null(clCreateSamplerWithProperties(NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    cl_uint n;
    cr_assert_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_BUFFER, 0, NULL, &n),
                 CL_INVALID_VALUE);
    cr_assert_eq(clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D,
                                            0, NULL, &n), CL_INVALID_VALUE);
    cr_assert_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE3D, 4, &fmt, &n), 0);
    cr_assert_eq(n, 0);
    /* Read-write images in a kernel (OpenCL 2.0 flag): none either (CTS api
     * consistency_read_write_images, consistency_depth_images). */
    n = 99;
    cr_assert_eq(clGetSupportedImageFormats(ctx, CL_MEM_KERNEL_READ_AND_WRITE,
                                            CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n), 0);
    cr_assert_eq(n, 0);
    /* A buffer is not an image. */
    cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
    size_t sz;
    cr_assert_eq(clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
    size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
    char host[64];
    cr_assert_eq(clEnqueueReadImage(queue, m, CL_TRUE, origin, region, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_OPERATION);
    cr_assert_eq(clEnqueueWriteImage(queue, m, CL_TRUE, origin, region, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_OPERATION);
    cr_assert_eq(clEnqueueCopyImage(queue, m, m, origin, origin, region, 0, NULL, NULL),
                 CL_INVALID_OPERATION);
    cr_assert_eq(clEnqueueCopyImageToBuffer(queue, m, m, origin, region, 0, 0, NULL, NULL),
                 CL_INVALID_OPERATION);
    cr_assert_eq(clEnqueueCopyBufferToImage(queue, m, m, 0, origin, region, 0, NULL, NULL),
                 CL_INVALID_OPERATION);
    float color[4] = {0};
    cr_assert_eq(clEnqueueFillImage(queue, m, color, origin, region, 0, NULL, NULL),
                 CL_INVALID_OPERATION);
    size_t rp, sp;
    err = 0;
    cr_assert_null(clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ, origin, region, &rp, &sp, 0,
                                     NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    clReleaseMemObject(m);
}

/* ---- profiling on the device timeline ---- */

static const cl_profiling_info prof_names[5] = {
    CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
    CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};

/* The five profiling times of a finished event, checked to be in order. */
static void prof_times(cl_event e, cl_ulong t[5])
{
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(clGetEventProfilingInfo(e, prof_names[i], sizeof t[i], &t[i], NULL), 0);
        if (i)
            cr_assert_leq(t[i - 1], t[i], "profiling time %d before %d", i, i - 1);
    }
}

/* Modelled host-link time of a transfer of bytes on the default board, in ns. */
static double link_ns(size_t bytes)
{
    char err[256];
    board_t *b = board_load(board_default_name(), err, sizeof err);
    cr_assert(b, "%s", err);
    double ns = b->host_link_latency_us * 1000.0 + (double)bytes / b->host_link_gbps;
    board_free(b);
    return ns;
}

/* QUEUED <= SUBMIT <= START <= END <= COMPLETE for every kind of command (kernels:
 * test_kernels.c), in in-order and out-of-order queues. */
Test(api, profiling_order_every_command)
{
    cl_int err;
    for (int ooo = 0; ooo < 2; ooo++) {
        cl_command_queue q = clCreateCommandQueue(
            ctx, device, CL_QUEUE_PROFILING_ENABLE | (ooo ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0),
            &err);
        cr_assert_eq(err, CL_SUCCESS);
        cl_mem a = clCreateBuffer(ctx, 0, 8192, NULL, &err);
        cl_mem b = clCreateBuffer(ctx, 0, 8192, NULL, &err);
        static char host[8192];
        int pat = 3;
        size_t o[3] = {0, 0, 0}, r[3] = {64, 4, 2};
        cl_event ev[13];
        cl_command_type types[13] = {
            CL_COMMAND_WRITE_BUFFER, CL_COMMAND_READ_BUFFER, CL_COMMAND_COPY_BUFFER,
            CL_COMMAND_FILL_BUFFER, CL_COMMAND_MAP_BUFFER, CL_COMMAND_UNMAP_MEM_OBJECT,
            CL_COMMAND_MARKER, CL_COMMAND_BARRIER, CL_COMMAND_MIGRATE_MEM_OBJECTS,
            CL_COMMAND_READ_BUFFER_RECT, CL_COMMAND_WRITE_BUFFER_RECT,
            CL_COMMAND_COPY_BUFFER_RECT, CL_COMMAND_MARKER};
        cr_assert_eq(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, 8192, host, 0, NULL, &ev[0]), 0);
        cr_assert_eq(clEnqueueReadBuffer(q, a, CL_FALSE, 0, 8192, host, 1, &ev[0], &ev[1]), 0);
        cr_assert_eq(clEnqueueCopyBuffer(q, a, b, 0, 0, 8192, 1, &ev[1], &ev[2]), 0);
        cr_assert_eq(clEnqueueFillBuffer(q, b, &pat, sizeof pat, 0, 4096, 1, &ev[2], &ev[3]), 0);
        void *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 4096, 1, &ev[3], &ev[4], &err);
        cr_assert_eq(err, CL_SUCCESS);
        cr_assert_eq(clEnqueueUnmapMemObject(q, b, p, 0, NULL, &ev[5]), 0);
        cr_assert_eq(clEnqueueMarkerWithWaitList(q, 1, &ev[5], &ev[6]), 0);
        cr_assert_eq(clEnqueueBarrierWithWaitList(q, 0, NULL, &ev[7]), 0);
        cl_mem both[2] = {a, b};
        cr_assert_eq(clEnqueueMigrateMemObjects(q, 2, both, 0, 0, NULL, &ev[8]), 0);
        cr_assert_eq(clEnqueueReadBufferRect(q, a, CL_FALSE, o, o, r, 128, 0, 0, 0, host, 1,
                                             &ev[8], &ev[9]), 0);
        cr_assert_eq(clEnqueueWriteBufferRect(q, a, CL_FALSE, o, o, r, 128, 0, 0, 0, host, 1,
                                              &ev[9], &ev[10]), 0);
        size_t d[3] = {64, 0, 0};
        cr_assert_eq(clEnqueueCopyBufferRect(q, a, a, o, d, r, 128, 0, 128, 0, 1, &ev[10],
                                             &ev[11]), 0);
        cr_assert_eq(clEnqueueMarker(q, &ev[12]), 0);
        cr_assert_eq(clFinish(q), 0);
        cl_ulong prev_end = 0;
        for (int i = 0; i < 13; i++) {
            cl_command_type t;
            cr_assert_eq(clGetEventInfo(ev[i], CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), 0);
            cr_assert_eq(t, types[i], "command %d", i);
            cl_ulong tt[5];
            prof_times(ev[i], tt);
            /* Each waited for the one before: it starts no earlier than that one ended
             * (one device runs one command at a time, in-order or not). */
            cr_assert_geq(tt[2], prev_end, "command %d starts before its predecessor ended", i);
            prev_end = tt[3];
            clReleaseEvent(ev[i]);
        }
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        clReleaseCommandQueue(q);
    }
}

/* Commands held back by a user event, then released at once, run back to back on the
 * device timeline: each starts exactly where the previous one ended, lasts its modelled
 * time, and none starts before the host released the user event. */
Test(api, profiling_back_to_back)
{
    cl_int err;
    enum { SIZE = 1 << 20 };
    cl_mem a = clCreateBuffer(ctx, 0, SIZE, NULL, &err);
    cl_mem b = clCreateBuffer(ctx, 0, SIZE, NULL, &err);
    char *host = calloc(1, SIZE), *back = calloc(1, SIZE);
    for (int i = 0; i < SIZE; i++)
        host[i] = (char)(i * 13);
    cl_event user = clCreateUserEvent(ctx, &err);
    cl_event w, c, r;
    cr_assert_eq(clEnqueueWriteBuffer(queue, a, CL_FALSE, 0, SIZE, host, 1, &user, &w), 0);
    cr_assert_eq(clEnqueueCopyBuffer(queue, a, b, 0, 0, SIZE, 0, NULL, &c), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, b, CL_FALSE, 0, SIZE, back, 0, NULL, &r), 0);
    usleep(50000);
    cr_assert_eq(clSetUserEventStatus(user, CL_COMPLETE), 0);
    cr_assert_eq(clWaitForEvents(1, &r), 0);
    cr_assert_arr_eq(host, back, SIZE);
    cl_ulong tw[5], tc[5], tr[5];
    prof_times(w, tw);
    prof_times(c, tc);
    prof_times(r, tr);
    /* The write could start only when the host set the user event, 50 ms later. */
    cr_assert_geq(tw[1] - tw[0], 50000000ull);
    cr_assert_eq(tw[2], tw[1]);
    /* Back to back: no host time between them. */
    cr_assert_eq(tc[2], tw[3]);
    cr_assert_eq(tr[2], tc[3]);
    /* Transfers last their host-link time; COMPLETE is END. */
    cr_assert_eq(tw[3] - tw[2], (cl_ulong)link_ns(SIZE));
    cr_assert_eq(tr[3] - tr[2], (cl_ulong)link_ns(SIZE));
    cr_assert_eq(tr[4], tr[3]);
    clReleaseEvent(w);
    clReleaseEvent(c);
    clReleaseEvent(r);
    clReleaseEvent(user);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(host);
    free(back);
}

/* Enqueued back to back without a gate: a large write (modelled at several ms) and a
 * read enqueued right behind it; the read starts at the write's END, however long the
 * host took to do the write. After a blocking wait the host resumes where the command
 * ended on the device timeline. */
Test(api, profiling_back_to_back_ungated)
{
    cl_int err;
    enum { BIG = 64 << 20 };
    cl_mem m = clCreateBuffer(ctx, 0, BIG, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    char *host = calloc(1, BIG);
    int small[16];
    cl_event w, r, mk;
    cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_FALSE, 0, BIG, host, 0, NULL, &w), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof small, small, 0, NULL, &r), 0);
    cr_assert_eq(clEnqueueMarkerWithWaitList(queue, 0, NULL, &mk), 0);
    cr_assert_eq(clWaitForEvents(1, &mk), 0);
    cl_ulong tw[5], tr[5], tm[5];
    prof_times(w, tw);
    prof_times(r, tr);
    prof_times(mk, tm);
    cr_assert_eq(tw[3] - tw[2], (cl_ulong)link_ns(BIG));
    /* Queued while the write ran (the usual case: it lasts 5.6 ms), the read starts at
     * the write's END; queued later (the host thread was descheduled), at its QUEUED.
     * Never later. */
    cr_assert_eq(tr[2], tr[0] > tw[3] ? tr[0] : tw[3]);
    /* The blocking read returned when the read ended on the device timeline: the
     * marker, enqueued right after, is queued at that time (not after the host time the
     * simulation took). */
    cr_assert_geq(tm[0], tr[3]);
    cr_assert_lt(tm[0] - tr[3], 10000000ull, "%llu ns", (unsigned long long)(tm[0] - tr[3]));
    clReleaseEvent(w);
    clReleaseEvent(r);
    clReleaseEvent(mk);
    clReleaseMemObject(m);
    free(host);
}

/* ---- rectangular transfers ---- */

/* Byte offset of (x, y, z) with the given pitches. */
static size_t at3(const size_t o[3], size_t x, size_t y, size_t z, size_t row, size_t slice)
{
    return (o[2] + z) * slice + (o[1] + y) * row + o[0] + x;
}

/* Reads and writes 2D and 3D rectangles with explicit and zero (tight) pitches, against
 * a host reference. */
Test(api, rect_read_write)
{
    cl_int err;
    enum { SIZE = 4096 };
    unsigned char init[SIZE], dev[SIZE], host[SIZE], expect[SIZE];
    for (int i = 0; i < SIZE; i++)
        init[i] = (unsigned char)(i * 7 + 1);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, SIZE, init, &err);
    cr_assert_eq(err, CL_SUCCESS);
    struct {
        size_t bo[3], ho[3], region[3], brow, bslice, hrow, hslice;
    } cases[] = {
        {{3, 2, 1}, {1, 1, 0}, {5, 3, 2}, 16, 128, 8, 32},   /* 3D, every pitch given */
        {{2, 1, 1}, {0, 0, 0}, {4, 3, 2}, 0, 0, 0, 0},       /* 3D, tight pitches */
        {{7, 5, 0}, {3, 2, 0}, {9, 6, 1}, 32, 0, 16, 0},     /* 2D, row pitches */
        {{0, 0, 0}, {0, 0, 0}, {100, 1, 1}, 0, 0, 0, 0},     /* one row */
        {{1, 0, 3}, {0, 1, 1}, {3, 2, 4}, 4, 12, 6, 18},     /* slices of tight rows */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t brow = cases[c].brow ? cases[c].brow : cases[c].region[0];
        size_t bslice = cases[c].bslice ? cases[c].bslice : cases[c].region[1] * brow;
        size_t hrow = cases[c].hrow ? cases[c].hrow : cases[c].region[0];
        size_t hslice = cases[c].hslice ? cases[c].hslice : cases[c].region[1] * hrow;
        const size_t *r = cases[c].region;
        /* Read: the region lands in host memory, nothing else is touched. */
        memset(host, 0xEE, SIZE);
        memset(expect, 0xEE, SIZE);
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    expect[at3(cases[c].ho, x, y, z, hrow, hslice)] =
                        init[at3(cases[c].bo, x, y, z, brow, bslice)];
        cr_assert_eq(clEnqueueReadBufferRect(queue, m, CL_TRUE, cases[c].bo, cases[c].ho, r,
                                             cases[c].brow, cases[c].bslice, cases[c].hrow,
                                             cases[c].hslice, host, 0, NULL, NULL), 0, "case %zu", c);
        cr_assert_arr_eq(host, expect, SIZE, "read case %zu", c);
        /* Write the other way round, from a fresh pattern. */
        for (int i = 0; i < SIZE; i++)
            host[i] = (unsigned char)(255 - i);
        memcpy(expect, init, SIZE);
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0]; x++)
                    expect[at3(cases[c].bo, x, y, z, brow, bslice)] =
                        host[at3(cases[c].ho, x, y, z, hrow, hslice)];
        cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, SIZE, init, 0, NULL, NULL), 0);
        cr_assert_eq(clEnqueueWriteBufferRect(queue, m, CL_TRUE, cases[c].bo, cases[c].ho, r,
                                              cases[c].brow, cases[c].bslice, cases[c].hrow,
                                              cases[c].hslice, host, 0, NULL, NULL), 0);
        cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, SIZE, dev, 0, NULL, NULL), 0);
        cr_assert_arr_eq(dev, expect, SIZE, "write case %zu", c);
        cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, SIZE, init, 0, NULL, NULL), 0);
    }
    clReleaseMemObject(m);
}

/* Copies rectangles between buffers, inside one buffer and between sub-buffers of one
 * buffer; overlap is judged on the bytes really touched. */
Test(api, rect_copy)
{
    cl_int err;
    enum { SIZE = 3 * 4096 };
    static unsigned char init[SIZE], dev[SIZE], expect[SIZE];
    for (int i = 0; i < SIZE; i++)
        init[i] = (unsigned char)(i * 5 + 3);
    cl_mem src = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, SIZE, init, &err);
    cl_mem dst = clCreateBuffer(ctx, 0, SIZE, NULL, &err);
    unsigned char zero = 0;
    cr_assert_eq(clEnqueueFillBuffer(queue, dst, &zero, 1, 0, SIZE, 0, NULL, NULL), 0);
    size_t so[3] = {5, 3, 2}, doo[3] = {1, 7, 1}, r[3] = {11, 4, 3};
    cr_assert_eq(clEnqueueCopyBufferRect(queue, src, dst, so, doo, r, 20, 200, 0, 0, 0, NULL,
                                         NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, SIZE, dev, 0, NULL, NULL), 0);
    memset(expect, 0, SIZE);
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            for (size_t x = 0; x < r[0]; x++)
                expect[at3(doo, x, y, z, 11, 44)] = init[at3(so, x, y, z, 20, 200)];
    cr_assert_arr_eq(dev, expect, SIZE);

    /* One buffer: the left and right halves of 16-byte rows are disjoint although the
     * rectangles' extents overlap. */
    size_t left[3] = {0, 0, 0}, right[3] = {8, 0, 0}, half[3] = {8, 10, 1};
    cr_assert_eq(clEnqueueCopyBufferRect(queue, src, src, left, right, half, 16, 0, 16, 0, 0,
                                         NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, src, CL_TRUE, 0, SIZE, dev, 0, NULL, NULL), 0);
    memcpy(expect, init, SIZE);
    for (int y = 0; y < 10; y++)
        memcpy(expect + 16 * y + 8, init + 16 * y, 8);
    cr_assert_arr_eq(dev, expect, SIZE);
    /* Rows shifted by one byte do overlap. */
    size_t one[3] = {1, 0, 0};
    cr_assert_eq(clEnqueueCopyBufferRect(queue, src, src, left, one, half, 16, 0, 16, 0, 0,
                                         NULL, NULL), CL_MEM_COPY_OVERLAP);
    /* So does a slice landing on another slice's rows. */
    size_t z1[3] = {0, 2, 0}, reg3[3] = {4, 4, 2};
    cr_assert_eq(clEnqueueCopyBufferRect(queue, src, src, left, z1, reg3, 4, 16, 4, 16, 0, NULL,
                                         NULL), CL_MEM_COPY_OVERLAP);
    /* One buffer object, two layouts: invalid. */
    size_t far[3] = {0, 0, 100};
    cr_assert_eq(clEnqueueCopyBufferRect(queue, src, src, left, far, half, 16, 0, 32, 0, 0,
                                         NULL, NULL), CL_INVALID_VALUE);

    /* Sub-buffers of one buffer: [0, 8192) and [4096, 12288) share [4096, 8192). */
    cl_buffer_region ra = {0, 8192}, rb = {4096, 8192};
    cl_mem sa = clCreateSubBuffer(dst, 0, CL_BUFFER_CREATE_TYPE_REGION, &ra, &err);
    cl_mem sb = clCreateSubBuffer(dst, 0, CL_BUFFER_CREATE_TYPE_REGION, &rb, &err);
    size_t sa_o[3] = {0, 64, 0}, sb_o[3] = {8, 0, 0}, sreg[3] = {8, 4, 1};
    /* Rows of sa at 4096 + 64*k, rows of sb at 4096 + 8 + 64*k: disjoint. */
    cr_assert_eq(clEnqueueCopyBufferRect(queue, sa, sb, sa_o, sb_o, sreg, 64, 0, 64, 0, 0, NULL,
                                         NULL), 0);
    size_t sb_bad[3] = {4, 0, 0};
    cr_assert_eq(clEnqueueCopyBufferRect(queue, sa, sb, sa_o, sb_bad, sreg, 64, 0, 64, 0, 0,
                                         NULL, NULL), CL_MEM_COPY_OVERLAP);
    /* Different pitches in sub-buffers: allowed, and judged exactly. Rows of sb at
     * 4104 + 32*k fall between the rows of sa; at 4104 + 56*k the second one hits sa's
     * second row (4160..4167). */
    cr_assert_eq(clEnqueueCopyBufferRect(queue, sa, sb, sa_o, sb_o, sreg, 64, 0, 32, 0, 0, NULL,
                                         NULL), 0);
    cr_assert_eq(clEnqueueCopyBufferRect(queue, sa, sb, sa_o, sb_o, sreg, 64, 0, 56, 0, 0, NULL,
                                         NULL), CL_MEM_COPY_OVERLAP);
    size_t sb_far[3] = {0, 0, 1};
    cr_assert_eq(clEnqueueCopyBufferRect(queue, sa, sb, sa_o, sb_far, sreg, 64, 0, 32, 4096, 0,
                                         NULL, NULL), 0);
    clFinish(queue);
    clReleaseMemObject(sa);
    clReleaseMemObject(sb);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
}

/* Every argument rule of the rectangular commands. */
Test(api, rect_errors)
{
    cl_int err;
    enum { SIZE = 1024 };
    char host[4 * SIZE];
    cl_mem m = clCreateBuffer(ctx, 0, SIZE, NULL, &err);
    cl_mem other = clCreateBuffer(ctx, 0, SIZE, NULL, &err);
    struct {
        size_t bo[3], ho[3], r[3], brow, bslice, hrow, hslice;
        cl_int expect;
    } cases[] = {
        {{0, 0, 0}, {0, 0, 0}, {16, 8, 8}, 0, 0, 0, 0, CL_SUCCESS},            /* exactly fits */
        {{0, 0, 0}, {0, 0, 0}, {16, 8, 8}, 16, 128, 0, 0, CL_SUCCESS},
        {{15, 7, 7}, {0, 0, 0}, {1, 1, 1}, 16, 128, 0, 0, CL_SUCCESS},         /* last byte */
        {{0, 0, 0}, {0, 0, 0}, {0, 1, 1}, 0, 0, 0, 0, CL_INVALID_VALUE},       /* zero region */
        {{0, 0, 0}, {0, 0, 0}, {1, 0, 1}, 0, 0, 0, 0, CL_INVALID_VALUE},
        {{0, 0, 0}, {0, 0, 0}, {1, 1, 0}, 0, 0, 0, 0, CL_INVALID_VALUE},
        {{0, 0, 0}, {0, 0, 0}, {16, 2, 1}, 15, 0, 0, 0, CL_INVALID_VALUE},     /* row < width */
        {{0, 0, 0}, {0, 0, 0}, {16, 2, 1}, 0, 0, 15, 0, CL_INVALID_VALUE},
        {{0, 0, 0}, {0, 0, 0}, {16, 2, 2}, 16, 16, 0, 0, CL_INVALID_VALUE},    /* slice < rows */
        {{0, 0, 0}, {0, 0, 0}, {16, 2, 2}, 0, 0, 16, 31, CL_INVALID_VALUE},
        {{0, 0, 0}, {0, 0, 0}, {16, 2, 2}, 16, 40, 0, 0, CL_INVALID_VALUE},    /* not a multiple */
        {{0, 0, 0}, {0, 0, 0}, {16, 2, 2}, 0, 0, 16, 33, CL_INVALID_VALUE},
        {{0, 0, 0}, {0, 0, 0}, {16, 2, 2}, 16, 48, 16, 48, CL_SUCCESS},        /* 3 rows a slice */
        {{0, 0, 0}, {0, 0, 0}, {16, 8, 9}, 0, 0, 0, 0, CL_INVALID_VALUE},      /* one slice too many */
        {{1, 0, 0}, {0, 0, 0}, {16, 8, 8}, 0, 0, 0, 0, CL_INVALID_VALUE},      /* one byte past */
        {{0, 0, 8}, {0, 0, 0}, {1, 1, 1}, 16, 128, 0, 0, CL_INVALID_VALUE},    /* origin past */
        {{(size_t)-1, 0, 0}, {0, 0, 0}, {2, 1, 1}, 0, 0, 0, 0, CL_INVALID_VALUE}, /* wraps */
        {{0, (size_t)1 << 62, 0}, {0, 0, 0}, {4, 1, 1}, 16, 0, 0, 0, CL_INVALID_VALUE},
        {{0, 0, 0}, {0, 0, 0}, {(size_t)1 << 40, (size_t)1 << 40, 1}, 0, 0, 0, 0, CL_INVALID_VALUE},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        cl_int rr = clEnqueueReadBufferRect(queue, m, CL_TRUE, cases[c].bo, cases[c].ho,
                                            cases[c].r, cases[c].brow, cases[c].bslice,
                                            cases[c].hrow, cases[c].hslice, host, 0, NULL, NULL);
        cl_int rw = clEnqueueWriteBufferRect(queue, m, CL_TRUE, cases[c].bo, cases[c].ho,
                                             cases[c].r, cases[c].brow, cases[c].bslice,
                                             cases[c].hrow, cases[c].hslice, host, 0, NULL, NULL);
        /* As a copy: buffer side = destination, host side = the source buffer (which
         * the host side fits in every valid case). */
        cl_int rc = clEnqueueCopyBufferRect(queue, other, m, cases[c].ho, cases[c].bo,
                                            cases[c].r, cases[c].hrow, cases[c].hslice,
                                            cases[c].brow, cases[c].bslice, 0, NULL, NULL);
        cr_assert_eq(rr, cases[c].expect, "read case %zu: %d", c, rr);
        cr_assert_eq(rw, cases[c].expect, "write case %zu: %d", c, rw);
        cr_assert_eq(rc, cases[c].expect, "copy case %zu: %d", c, rc);
    }
    size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1}, big[3] = {0, 300, 0};
    /* The source side out of range. */
    cr_assert_eq(clEnqueueCopyBufferRect(queue, m, other, big, o, r, 4, 0, 0, 0, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    /* NULL arguments. */
    cr_assert_eq(clEnqueueReadBufferRect(queue, m, CL_TRUE, NULL, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueReadBufferRect(queue, m, CL_TRUE, o, NULL, r, 0, 0, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueReadBufferRect(queue, m, CL_TRUE, o, o, NULL, 0, 0, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueReadBufferRect(queue, m, CL_TRUE, o, o, r, 0, 0, 0, 0, NULL, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueWriteBufferRect(queue, m, CL_TRUE, o, o, r, 0, 0, 0, 0, NULL, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueCopyBufferRect(queue, m, other, NULL, o, r, 0, 0, 0, 0, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueCopyBufferRect(queue, m, other, o, o, NULL, 0, 0, 0, 0, 0, NULL, NULL),
                 CL_INVALID_VALUE);
    /* Handles and wait lists. */
    cr_assert_eq(clEnqueueReadBufferRect(queue, NULL, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueReadBufferRect(NULL, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
    cr_assert_eq(clEnqueueReadBufferRect(queue, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 1, NULL, NULL),
                 CL_INVALID_EVENT_WAIT_LIST);
    cl_event e = NULL;
    cr_assert_eq(clEnqueueCopyBufferRect(queue, m, other, o, o, r, 0, 0, 0, 0, 0, &e, NULL),
                 CL_INVALID_EVENT_WAIT_LIST);
    cr_assert_eq(clEnqueueCopyBufferRect(queue, m, NULL, o, o, r, 0, 0, 0, 0, 0, NULL, NULL),
                 CL_INVALID_MEM_OBJECT);
    clFinish(queue);
    clReleaseMemObject(m);
    clReleaseMemObject(other);
}

/* ---- migration, host memory, host-access flags ---- */

Test(api, migrate_mem_objects)
{
    cl_int err;
    int data[256], back[256];
    for (int i = 0; i < 256; i++)
        data[i] = i * i;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    cl_mem b = clCreateBuffer(ctx, 0, sizeof data, NULL, &err);
    cl_mem both[2] = {a, b};
    cl_event e;
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 2, both, 0, 0, NULL, &e), 0);
    cr_assert_eq(clWaitForEvents(1, &e), 0);
    cl_command_type t;
    cr_assert_eq(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), 0);
    cr_assert_eq(t, CL_COMMAND_MIGRATE_MEM_OBJECTS);
    clReleaseEvent(e);
    /* Migrating keeps the contents (unless told they may be dropped). */
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 1, &a, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 1, &a, 0, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_arr_eq(data, back, sizeof data);
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 1, &b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                            0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 2, both,
                                            CL_MIGRATE_MEM_OBJECT_HOST |
                                                CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                            0, NULL, NULL), 0);
    /* Errors. */
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 0, both, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 1, &a, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_mem bad[2] = {a, NULL};
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 2, bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueMigrateMemObjects(NULL, 1, &a, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 1, &a, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    clFinish(queue);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

/* CL_MEM_ALLOC_HOST_PTR: maps point into the buffer's own host memory, the same address
 * every time (sub-buffers at their offset); CL_MEM_HOST_PTR stays NULL. */
Test(api, alloc_host_ptr)
{
    cl_int err;
    enum { N = 3 * 1024 };
    static int data[N];
    for (int i = 0; i < N; i++)
        data[i] = 5 * i + 1;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof data,
                              data, &err);
    cr_assert_eq(err, CL_SUCCESS);
    void *hp = (void *)1;
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), 0);
    cr_assert_null(hp);
    int *p1 = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ, 0, sizeof data, 0, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_arr_eq(p1, data, sizeof data);
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p1, 0, NULL, NULL), 0);
    int *p2 = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_WRITE, 4096, 4096, 0, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq((char *)p2, (char *)p1 + 4096, "maps point into one host allocation");
    for (int i = 0; i < 1024; i++)
        p2[i] = -i;
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p2, 0, NULL, NULL), 0);
    /* A sub-buffer maps at its offset in the same memory. */
    cl_buffer_region r = {8192, 4096};
    cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem_flags f;
    cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_FLAGS, sizeof f, &f, NULL), 0);
    cr_assert(f & CL_MEM_ALLOC_HOST_PTR);
    int *p3 = clEnqueueMapBuffer(queue, s, CL_TRUE, CL_MAP_READ, 0, 4096, 0, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq((char *)p3, (char *)p1 + 8192);
    cr_assert_eq(p3[0], data[2048]);
    cr_assert_eq(clEnqueueUnmapMemObject(queue, s, p3, 0, NULL, NULL), 0);
    int back[N];
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert_eq(back[i], i >= 1024 && i < 2048 ? -(i - 1024) : data[i], "at %d", i);
    clReleaseMemObject(s);
    clReleaseMemObject(m);
    /* ALLOC_HOST_PTR with USE_HOST_PTR is a contradiction. */
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_USE_HOST_PTR, sizeof data,
                                  data, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
}

/* The CL_MEM_HOST_* flags: which host operations each forbids, on buffers and on
 * sub-buffers that inherit them or narrow them. */
Test(api, host_access_flags)
{
    cl_int err;
    char host[8192];
    size_t o[3] = {0, 0, 0}, r[3] = {16, 2, 1};
    const cl_mem_flags kinds[4] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                   CL_MEM_HOST_NO_ACCESS};
    for (int k = 0; k < 4; k++) {
        cl_mem root = clCreateBuffer(ctx, kinds[k], 8192, NULL, &err);
        cr_assert_eq(err, CL_SUCCESS);
        cl_buffer_region reg = {4096, 4096};
        cl_mem sub = clCreateSubBuffer(root, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
        cr_assert_eq(err, CL_SUCCESS);
        cl_mem_flags f;
        cr_assert_eq(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof f, &f, NULL), 0);
        cr_assert_eq(f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS),
                     kinds[k], "the sub-buffer inherits the host flags");
        cl_mem objs[2] = {root, sub};
        int can_read = kinds[k] == 0 || kinds[k] == CL_MEM_HOST_READ_ONLY;
        int can_write = kinds[k] == 0 || kinds[k] == CL_MEM_HOST_WRITE_ONLY;
        cl_int er = can_read ? CL_SUCCESS : CL_INVALID_OPERATION;
        cl_int ew = can_write ? CL_SUCCESS : CL_INVALID_OPERATION;
        for (int i = 0; i < 2; i++) {
            cl_mem m = objs[i];
            cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, 64, host, 0, NULL, NULL), er);
            cr_assert_eq(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, 64, host, 0, NULL, NULL), ew);
            cr_assert_eq(clEnqueueReadBufferRect(queue, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0,
                                                 NULL, NULL), er);
            cr_assert_eq(clEnqueueWriteBufferRect(queue, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0,
                                                  NULL, NULL), ew);
            const cl_map_flags maps[4] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION, 0};
            const cl_int expect[4] = {er, ew, ew, can_read && can_write ? CL_SUCCESS : CL_INVALID_OPERATION};
            for (int j = 0; j < 4; j++) {
                err = 1;
                void *p = clEnqueueMapBuffer(queue, m, CL_TRUE, maps[j], 0, 64, 0, NULL, NULL, &err);
                cr_assert_eq(err, expect[j], "flags %d, map %d", k, j);
                if (p)
                    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), 0);
                else
                    cr_assert_neq(expect[j], CL_SUCCESS);
            }
            /* Copies and fills are device-side: always allowed. */
            int pat = 1;
            cr_assert_eq(clEnqueueFillBuffer(queue, m, &pat, 4, 0, 64, 0, NULL, NULL), 0);
            cr_assert_eq(clEnqueueCopyBuffer(queue, m, m, 0, 64, 64, 0, NULL, NULL), 0);
        }
        /* A sub-buffer may narrow host access, never widen it. */
        const cl_mem_flags subs[3] = {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                      CL_MEM_HOST_NO_ACCESS};
        for (int j = 0; j < 3; j++) {
            int ok = kinds[k] == 0 || kinds[k] == subs[j] || subs[j] == CL_MEM_HOST_NO_ACCESS;
            cl_mem s2 = clCreateSubBuffer(root, subs[j], CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
            cr_assert_eq(err, ok ? CL_SUCCESS : CL_INVALID_VALUE, "parent %d, sub %d", k, j);
            if (s2) {
                cr_assert_eq(clGetMemObjectInfo(s2, CL_MEM_FLAGS, sizeof f, &f, NULL), 0);
                cr_assert_eq(f, CL_MEM_READ_WRITE | subs[j]);
                clReleaseMemObject(s2);
            }
        }
        clFinish(queue);
        clReleaseMemObject(sub);
        clReleaseMemObject(root);
    }
    /* Two host flags at once. */
    cr_assert_null(clCreateBuffer(ctx, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
}

/* Every clGetMemObjectInfo query on buffers of every flag combination (the CTS's list)
 * and on sub-buffers of them. */
Test(api, mem_object_info_all)
{
    const cl_mem_flags access[3] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
    const cl_mem_flags hostacc[4] = {0, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY,
                                     CL_MEM_HOST_NO_ACCESS};
    const cl_mem_flags ptrs[5] = {0, CL_MEM_COPY_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                                  CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                  CL_MEM_USE_HOST_PTR};
    static char host[4 * 4096];
    for (int h = 0; h < 4; h++)
        for (int a = 0; a < 3; a++)
            for (int p = 0; p < 5; p++) {
                cl_int err;
                cl_mem_flags flags = hostacc[h] | access[a] | ptrs[p];
                int with_ptr = (ptrs[p] & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) != 0;
                cl_mem m = clCreateBuffer(ctx, flags, sizeof host, with_ptr ? host : NULL, &err);
                cr_assert_eq(err, CL_SUCCESS, "flags 0x%llx", (unsigned long long)flags);
                cl_mem_object_type t;
                cl_mem_flags f;
                size_t sz, off, ret;
                void *hp;
                cl_uint u;
                cl_context c;
                cl_mem assoc;
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, &ret), 0);
                cr_assert_eq(t, CL_MEM_OBJECT_BUFFER);
                cr_assert_eq(ret, sizeof t);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, &ret), 0);
                cr_assert_eq(f, flags);
                cr_assert_eq(ret, sizeof f);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof sz, &sz, &ret), 0);
                cr_assert_eq(sz, sizeof host);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, &ret), 0);
                cr_assert_eq(hp, (ptrs[p] & CL_MEM_USE_HOST_PTR) ? (void *)host : NULL);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof u, &u, &ret), 0);
                cr_assert_eq(u, 0);
                cr_assert_eq(ret, sizeof u);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof u, &u, &ret), 0);
                cr_assert_eq(u, 1);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, &ret), 0);
                cr_assert_eq(c, ctx);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, &ret), 0);
                cr_assert_null(assoc);
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof off, &off, &ret), 0);
                cr_assert_eq(off, 0);
                /* A sub-buffer with no flags of its own inherits them all. */
                cl_buffer_region reg = {4096, 4096};
                cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
                cr_assert_eq(err, CL_SUCCESS);
                cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_FLAGS, sizeof f, &f, NULL), 0);
                cr_assert_eq(f, flags);
                cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_SIZE, sizeof sz, &sz, NULL), 0);
                cr_assert_eq(sz, 4096);
                cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), 0);
                cr_assert_eq(hp, (ptrs[p] & CL_MEM_USE_HOST_PTR) ? (void *)(host + 4096) : NULL);
                cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL), 0);
                cr_assert_eq(assoc, m);
                cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof off, &off, NULL), 0);
                cr_assert_eq(off, 4096);
                cr_assert_eq(clGetMemObjectInfo(s, CL_MEM_CONTEXT, sizeof c, &c, NULL), 0);
                cr_assert_eq(c, ctx);
                /* The sub-buffer holds its parent. */
                cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof u, &u, NULL), 0);
                cr_assert_eq(u, 2);
                clReleaseMemObject(s);
                clReleaseMemObject(m);
            }
    /* The query rules: unknown name, short value, size only. */
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
    size_t sz, ret = 0;
    char tiny;
    cr_assert_eq(clGetMemObjectInfo(m, 0x7777, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &tiny, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, NULL, &ret), 0);
    cr_assert_eq(ret, sizeof(size_t));
    cr_assert_eq(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(m);
}

static atomic_int failed_unmap_destroyed;
static void CL_CALLBACK on_failed_unmap_destroy(cl_mem m, void *data)
{
    atomic_fetch_add(&failed_unmap_destroyed, 1);
}

/* A map or an unmap whose wait list failed: the buffer's data stays as it was, the
 * mapping is gone (map count 0), and the buffer is destroyed when released (its
 * destructor callback runs; LeakSanitizer finds nothing unreachable). */
Test(api, map_unmap_failed_wait_list)
{
    cl_int err;
    int data[1024], back[1024];
    for (int i = 0; i < 1024; i++)
        data[i] = i + 100;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    cr_assert_eq(clSetMemObjectDestructorCallback(m, on_failed_unmap_destroy, NULL), 0);
    cl_uint mc;

    /* Unmap behind a failing user event. */
    int *p = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_WRITE, 0, sizeof data, 0, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    for (int i = 0; i < 1024; i++)
        p[i] = -1;
    cl_event user = clCreateUserEvent(ctx, &err), un;
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p, 1, &user, &un), 0);
    cr_assert_eq(clSetUserEventStatus(user, -55), 0);
    cr_assert_eq(clWaitForEvents(1, &un), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL), 0);
    cr_assert_eq(mc, 0);
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_arr_eq(back, data, sizeof data, "the failed unmap wrote nothing back");
    clReleaseEvent(un);

    /* A non-blocking map behind the failed event: the pointer holds no data, and its
     * unmap writes nothing back. */
    cl_event mapped;
    p = clEnqueueMapBuffer(queue, m, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof data, 1,
                           &user, &mapped, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_not_null(p);
    cr_assert_eq(clWaitForEvents(1, &mapped), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL), 0);
    cr_assert_eq(mc, 1);
    p[0] = 12345;
    cr_assert_eq(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), 0);
    cr_assert_eq(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), 0);
    cr_assert_arr_eq(back, data, sizeof data);
    clReleaseEvent(mapped);

    /* A blocking map behind the failed event fails and leaves no mapping. */
    err = 0;
    cr_assert_null(clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ, 0, 64, 1, &user, NULL, &err));
    cr_assert_eq(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cr_assert_eq(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof mc, &mc, NULL), 0);
    cr_assert_eq(mc, 0);

    clFinish(queue);
    clReleaseEvent(user);
    cr_assert_eq(atomic_load(&failed_unmap_destroyed), 0);
    clReleaseMemObject(m);
    cr_assert_eq(atomic_load(&failed_unmap_destroyed), 1, "the buffer was destroyed");
    cr_assert_eq(leaks_now(), 0, "no mapping was leaked");
}

/* ---- pipes ---- */

/* clCreatePipe: the flags it takes (0 meaning CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS),
 * an empty property list, the packet size bounds of CL_DEVICE_PIPE_MAX_PACKET_SIZE, and
 * the specification's error for everything else. */
Test(api, pipe_create)
{
    const struct {
        cl_mem_flags given, reported;
    } ok[] = {
        {0, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS},
        {CL_MEM_READ_WRITE, CL_MEM_READ_WRITE},
        {CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS},
        {CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cl_int err = 1;
        cl_mem p = clCreatePipe(ctx, ok[i].given, 4, 16, NULL, &err);
        cr_assert_eq(err, CL_SUCCESS, "flags 0x%llx", (unsigned long long)ok[i].given);
        cr_assert_not_null(p);
        cl_mem_flags f;
        cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof f, &f, NULL), CL_SUCCESS);
        cr_assert_eq(f, ok[i].reported, "flags 0x%llx reported 0x%llx",
                     (unsigned long long)ok[i].given, (unsigned long long)f);
        cr_assert_eq(clReleaseMemObject(p), CL_SUCCESS);
    }
    /* The largest packet, an empty property list, no errcode_ret. */
    const cl_pipe_properties empty[1] = {0};
    cl_mem p = clCreatePipe(ctx, 0, 256, 1, empty, NULL);
    cr_assert_not_null(p);
    clReleaseMemObject(p);

    cl_int err = 0;
    cr_assert_null(clCreatePipe(NULL, 0, 4, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    cr_assert_null(clCreatePipe((cl_context)queue, 0, 4, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    const cl_mem_flags bad_flags[] = {
        CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_COPY_HOST_PTR, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, (cl_mem_flags)1 << 40,
    };
    for (size_t i = 0; i < sizeof bad_flags / sizeof bad_flags[0]; i++) {
        err = 0;
        cr_assert_null(clCreatePipe(ctx, bad_flags[i], 4, 16, NULL, &err));
        cr_assert_eq(err, CL_INVALID_VALUE, "flags 0x%llx", (unsigned long long)bad_flags[i]);
    }
    /* OpenCL defines no pipe property. */
    const cl_pipe_properties props[3] = {1, 1, 0};
    cr_assert_null(clCreatePipe(ctx, 0, 4, 16, props, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    /* Packet size 0 or over CL_DEVICE_PIPE_MAX_PACKET_SIZE, no packets. */
    cl_uint max_packet;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof max_packet,
                                 &max_packet, NULL), CL_SUCCESS);
    cr_assert_null(clCreatePipe(ctx, 0, 0, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PIPE_SIZE);
    cr_assert_null(clCreatePipe(ctx, 0, max_packet + 1, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PIPE_SIZE);
    cr_assert_null(clCreatePipe(ctx, 0, UINT32_MAX, 16, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PIPE_SIZE);
    cr_assert_null(clCreatePipe(ctx, 0, 4, 0, NULL, &err));
    cr_assert_eq(err, CL_INVALID_PIPE_SIZE);
    /* The context comes first, then the flags. */
    cr_assert_null(clCreatePipe(NULL, CL_MEM_READ_ONLY, 0, 0, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    cr_assert_null(clCreatePipe(ctx, CL_MEM_READ_ONLY, 0, 0, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
}

/* clGetPipeInfo: packet size and capacity as created, the property list (none, or the
 * empty one given), the clGet*Info rules; a buffer or a dead handle is not a pipe. */
Test(api, pipe_info)
{
    cl_int err;
    cl_mem p = clCreatePipe(ctx, 0, 12, 1000, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_uint u = 0;
    size_t ret = 0;
    cr_assert_eq(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof u, &u, &ret), CL_SUCCESS);
    cr_assert_eq(u, 12);
    cr_assert_eq(ret, sizeof(cl_uint));
    cr_assert_eq(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof u, &u, &ret), CL_SUCCESS);
    cr_assert_eq(u, 1000);
    cr_assert_eq(ret, sizeof(cl_uint));
    ret = 99;
    cr_assert_eq(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, 0, NULL, &ret), CL_SUCCESS);
    cr_assert_eq(ret, sizeof(cl_uint));
    ret = 99;
    cl_pipe_properties props[2] = {7, 7};
    cr_assert_eq(clGetPipeInfo(p, CL_PIPE_PROPERTIES, sizeof props, props, &ret), CL_SUCCESS);
    cr_assert_eq(ret, 0, "no property list given: size 0");
    cr_assert_eq(props[0], 7, "nothing written");
    /* The clGet*Info rules: a short value, an unknown name. */
    unsigned char small[sizeof(cl_uint) - 1];
    cr_assert_eq(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof small, small, NULL),
                 CL_INVALID_VALUE);
    cr_assert_eq(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, 0, &u, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetPipeInfo(p, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetPipeInfo(p, CL_MEM_SIZE, sizeof u, &u, NULL), CL_INVALID_VALUE);

    /* An empty list given: returned as given ({0}). */
    const cl_pipe_properties empty[1] = {0};
    cl_mem q = clCreatePipe(ctx, 0, 4, 4, empty, &err);
    cr_assert_eq(err, CL_SUCCESS);
    ret = 0;
    cr_assert_eq(clGetPipeInfo(q, CL_PIPE_PROPERTIES, sizeof props, props, &ret), CL_SUCCESS);
    cr_assert_eq(ret, sizeof(cl_pipe_properties));
    cr_assert_eq(props[0], 0);
    clReleaseMemObject(q);

    /* Not a pipe: a buffer (CTS api consistency_pipes), a sub-buffer, NULL, another kind
     * of object. */
    cl_mem b = clCreateBuffer(ctx, 0, 4096, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_buffer_region reg = {0, 64};
    cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clGetPipeInfo(b, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clGetPipeInfo(sub, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clGetPipeInfo((cl_mem)ctx, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL),
                 CL_INVALID_MEM_OBJECT);
    /* The handle is checked before the name. */
    cr_assert_eq(clGetPipeInfo(b, 0x7777, sizeof u, &u, NULL), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(sub);
    clReleaseMemObject(b);
    clReleaseMemObject(p);
}

static atomic_int pipe_destroyed;
static void CL_CALLBACK on_pipe_destroy(cl_mem m, void *data)
{
    /* The pipe is still whole when its callback runs: the newest callback first. */
    cl_uint u = 0;
    clGetPipeInfo(m, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL);
    int expect = atomic_load(&pipe_destroyed) == 0 ? 2 : 1;
    if (u == 8 && (int)(intptr_t)data == expect)
        atomic_fetch_add(&pipe_destroyed, 1);
}

/* A pipe as a memory object: every clGetMemObjectInfo query, retain and release,
 * destructor callbacks. */
Test(api, pipe_mem_object_info)
{
    cl_int err;
    cl_mem p = clCreatePipe(ctx, 0, 8, 100, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem_object_type t;
    cl_mem_flags f;
    size_t sz, off, ret;
    void *hp = &sz;
    cl_uint u;
    cl_context c;
    cl_mem assoc = p;
    cl_bool svm = CL_TRUE;
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof t, &t, &ret), CL_SUCCESS);
    cr_assert_eq(t, CL_MEM_OBJECT_PIPE);
    cr_assert_eq(ret, sizeof t);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof f, &f, NULL), CL_SUCCESS);
    cr_assert_eq(f, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_SIZE, sizeof sz, &sz, &ret), CL_SUCCESS);
    cr_assert_eq(sz, 8 * 100, "packet size times max packets");
    cr_assert_eq(ret, sizeof sz);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
    cr_assert_null(hp);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_MAP_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
    cr_assert_eq(u, 0);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
    cr_assert_eq(u, 1);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
    cr_assert_eq(c, ctx);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                 CL_SUCCESS);
    cr_assert_null(assoc);
    off = 99;
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_OFFSET, sizeof off, &off, NULL), CL_SUCCESS);
    cr_assert_eq(off, 0);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL),
                 CL_SUCCESS);
    cr_assert_eq(svm, CL_FALSE);
    ret = 99;
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
    cr_assert_eq(ret, 0);
    /* The pipe holds its context until it goes. */
    cl_uint ctx_refs, ctx_refs_after;
    cr_assert_eq(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof ctx_refs, &ctx_refs,
                                  NULL), CL_SUCCESS);

    /* Retain, release, destructor callbacks (newest first) when the last reference goes. */
    atomic_store(&pipe_destroyed, 0);
    cr_assert_eq(clSetMemObjectDestructorCallback(p, on_pipe_destroy, (void *)(intptr_t)1),
                 CL_SUCCESS);
    cr_assert_eq(clSetMemObjectDestructorCallback(p, on_pipe_destroy, (void *)(intptr_t)2),
                 CL_SUCCESS);
    cr_assert_eq(clSetMemObjectDestructorCallback(p, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clRetainMemObject(p), CL_SUCCESS);
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
    cr_assert_eq(u, 2);
    cr_assert_eq(clReleaseMemObject(p), CL_SUCCESS);
    cr_assert_eq(atomic_load(&pipe_destroyed), 0);
    cr_assert_eq(clReleaseMemObject(p), CL_SUCCESS);
    cr_assert_eq(atomic_load(&pipe_destroyed), 2, "both callbacks, newest first");
    cr_assert_eq(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof ctx_refs_after,
                                  &ctx_refs_after, NULL), CL_SUCCESS);
    cr_assert_eq(ctx_refs_after, ctx_refs - 1, "the pipe gave its context back");
    cr_assert_eq(leaks_now(), 0);
}

/* Every buffer command refuses a pipe: it has no storage the host or a copy can reach. */
Test(api, pipe_buffer_commands_refused)
{
    cl_int err;
    cl_mem p = clCreatePipe(ctx, 0, 4, 64, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem b = clCreateBuffer(ctx, 0, 256, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    char host[256] = {0};
    const size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};
    int pattern = 0;
    cl_event e = NULL;
    cr_assert_eq(clEnqueueReadBuffer(queue, p, CL_TRUE, 0, 4, host, 0, NULL, &e),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueWriteBuffer(queue, p, CL_TRUE, 0, 4, host, 0, NULL, &e),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueReadBufferRect(queue, p, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                         host, 0, NULL, &e), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueWriteBufferRect(queue, p, CL_TRUE, origin, origin, region, 0, 0, 0,
                                          0, host, 0, NULL, &e), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueCopyBuffer(queue, p, b, 0, 0, 4, 0, NULL, &e), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueCopyBuffer(queue, b, p, 0, 0, 4, 0, NULL, &e), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueCopyBuffer(queue, p, p, 0, 128, 4, 0, NULL, &e),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueCopyBufferRect(queue, p, b, origin, origin, region, 0, 0, 0, 0, 0,
                                         NULL, &e), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueCopyBufferRect(queue, b, p, origin, origin, region, 0, 0, 0, 0, 0,
                                         NULL, &e), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueFillBuffer(queue, p, &pattern, sizeof pattern, 0, 4, 0, NULL, &e),
                 CL_INVALID_MEM_OBJECT);
    err = 0;
    cr_assert_null(clEnqueueMapBuffer(queue, p, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, &e, &err));
    cr_assert_eq(err, CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clEnqueueUnmapMemObject(queue, p, host, 0, NULL, &e), CL_INVALID_MEM_OBJECT);
    cl_mem both[2] = {b, p};
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 2, both, 0, 0, NULL, &e),
                 CL_INVALID_MEM_OBJECT);
    cr_assert_null(e, "no command was enqueued");
    cl_buffer_region reg = {0, 4};
    err = 0;
    cr_assert_null(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err));
    cr_assert_eq(err, CL_INVALID_MEM_OBJECT);
    /* The same commands on the buffer alone still work. */
    cr_assert_eq(clEnqueueMigrateMemObjects(queue, 1, both, 0, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(clEnqueueFillBuffer(queue, b, &pattern, sizeof pattern, 0, 256, 0, NULL, NULL),
                 CL_SUCCESS);
    cr_assert_eq(clFinish(queue), CL_SUCCESS);
    /* The failed commands left the pipe's references as they were. */
    cl_uint u;
    cr_assert_eq(clGetMemObjectInfo(p, CL_MEM_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
    cr_assert_eq(u, 1);
    clReleaseMemObject(b);
    clReleaseMemObject(p);
}
