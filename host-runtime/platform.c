/* The clhls platform and its devices, and the symbols the ICD loader looks up by name
 * (clIcdGetPlatformIDsKHR, clGetPlatformInfo, clGetExtensionFunctionAddress[ForPlatform]).
 * The platform is created on first use: one device per board named in CLHLS_BOARDS
 * (comma-separated; default: the default board). Device queries answer from the board
 * file, truthfully: no images, no doubles, only the extensions the hardware has.
 * Platform and devices are OpenCL 3.0; of the features 3.0 makes optional the devices
 * have non-uniform work-groups, work-group collective functions, 64-bit integers,
 * pipes (for OpenCL C 2.0 programs) and the minimum atomic capabilities
 * (docs/user-guide.md, "OpenCL versions"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define RT_VERSION "0.1.0"

/* The OpenCL version of the platform and the devices: CL_PLATFORM_VERSION,
 * CL_DEVICE_VERSION and their numeric forms must agree on major and minor. */
#define RT_CL_VERSION "3.0"
#define RT_CL_NUMERIC_VERSION CL_MAKE_VERSION(3, 0, 0)

/* CL_DEVICE_VENDOR_ID. clhls has no PCI vendor ID and no registered Khronos vendor ID;
 * it answers the last value of the Khronos vendor-ID range (0x10000-0x1FFFF, which
 * Khronos allocates from the bottom up), so that it never looks like a PCI vendor's
 * device (docs/user-guide.md). */
#define RT_VENDOR_ID 0x1FFFFu

/* CL_DEVICE_EXTENSIONS: what the hardware really does. Byte and short stores are
 * written with byte enables, so they never touch the neighbouring bytes
 * (tests/runtime/test_kernels.c stores chars and shorts at odd addresses). The 32 and
 * 64-bit atomic functions run in the local memories and at the memory side
 * (tests/e2e/atomics.c). Double precision is IEEE binary64 with subnormals
 * (CL_DEVICE_DOUBLE_FP_CONFIG; the W = 64 operator templates, tests/e2e/double.c). */
#define RT_DEVICE_EXTENSIONS                                                           \
    "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "                \
    "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "           \
    "cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics "                  \
    "cl_khr_int64_extended_atomics cl_khr_fp64"

/* CL_PLATFORM_EXTENSIONS: the loader interface, and every extension all devices have
 * (the specification asks for those; every device reports RT_DEVICE_EXTENSIONS). */
#define RT_PLATFORM_EXTENSIONS "cl_khr_icd " RT_DEVICE_EXTENSIONS

/* CL_DEVICE_OPENCL_C_ALL_VERSIONS: the -cl-std values the compiler takes (hls/options.c).
 * 3.0, 1.2, 1.1 and 1.0 are what an OpenCL 3.0 device must list; 2.0 is listed because
 * the compiler builds -cl-std=CL2.0 programs, which the specification lets a 3.0 device
 * do only when 2.0 is in this list. CL_DEVICE_OPENCL_C_VERSION stays "OpenCL C 1.2":
 * a 3.0 device may name a newer version there only when it has every optional feature
 * of that version. */
static const cl_name_version opencl_c_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
    {CL_MAKE_VERSION(2, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};

/* CL_DEVICE_OPENCL_C_FEATURES: the optional OpenCL C 3.0 features, each with the
 * version that introduced its macro. Kernels built with -cl-std=CL3.0 see exactly these
 * macros (hls/frontend.c). __opencl_c_int64 is required of full-profile devices.
 * __opencl_c_pipes is not listed although the devices have pipes: in OpenCL C 3.0 it
 * requires __opencl_c_generic_address_space, which they lack, so pipes are for
 * -cl-std=CL2.0 programs (CL_DEVICE_PIPE_SUPPORT is what the API reports). */
static const cl_name_version opencl_c_features[] = {
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_work_group_collective_functions"},
};

static struct _cl_platform_id the_platform;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

static void add_device(const char *name, cl_device_type type)
{
    char err[512];
    board_t *board = board_load(name, err, sizeof err);
    if (!board) {
        fprintf(stderr, "clhls: no device for board '%s': %s\n", name, err);
        return;
    }
    cl_device_id d = rt_alloc(sizeof *d);
    cl_device_id *list = rt_realloc(the_platform.devices,
                                    (the_platform.ndevices + 1) * sizeof *list);
    if (!d || !list) {
        rt_free(d);
        if (list)
            the_platform.devices = list;
        board_free(board);
        return;
    }
    the_platform.devices = list;
    rt_object_init(&d->obj, RT_MAGIC_DEVICE);
    d->platform = &the_platform;
    d->board = board;
    d->type = type;
    d->ops = &rt_device_sim_ops;
    if (d->ops->open(board, &d->impl, err, sizeof err) != RT_DEV_OK) {
        fprintf(stderr, "clhls: cannot open a device for board '%s': %s\n", name, err);
        board_free(board);
        rt_free(d);
        return;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s (%s, simulated)", board->name,
             board->part ? board->part : "?");
    d->name = rt_strdup(buf);
    list[the_platform.ndevices++] = d;
}

static void platform_init(void)
{
    rt_object_init(&the_platform.obj, RT_MAGIC_PLATFORM);
    const char *t = getenv("CLHLS_DEVICE_TYPE");
    cl_device_type type = (t && strcmp(t, "gpu") == 0) ? CL_DEVICE_TYPE_GPU
                                                      : CL_DEVICE_TYPE_ACCELERATOR;
    const char *boards = getenv("CLHLS_BOARDS");
    if (!boards || !*boards) {
        add_device(board_default_name(), type);
        return;
    }
    char *copy = rt_strdup(boards);
    if (!copy)
        return;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        if (*tok)
            add_device(tok, type);
    }
    rt_free(copy);
}

cl_platform_id rt_platform(void)
{
    pthread_once(&platform_once, platform_init);
    return &the_platform;
}

int rt_valid_device(cl_device_id d)
{
    if (!d)
        return 0;
    cl_platform_id p = rt_platform();
    for (cl_uint i = 0; i < p->ndevices; i++)
        if (p->devices[i] == d)
            return 1;
    return 0;
}

/* ---- name and version lists ---- */

/* The version of an extension the runtime reports. Every Khronos extension the devices
 * can have is at revision 1.0.0 (the registry's cl.xml); so is the loader interface
 * the runtime implements (cl_khr_icd 1.0.0: no clIcdGetFunctionAddressForPlatformKHR). */
static cl_version extension_version(const char *name)
{
    (void)name;
    return CL_MAKE_VERSION(1, 0, 0);
}

/* Answers a *_WITH_VERSION query from a space-separated list of extension names (the
 * string of the matching CL_*_EXTENSIONS query, so the two always agree). */
static cl_int info_extensions_with_version(const char *list, size_t size, void *value,
                                           size_t *size_ret)
{
    size_t count = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, " ");
        count += len > 0;
        p += len + (p[len] == ' ');
    }
    cl_name_version *v = rt_alloc(count * sizeof *v);
    RT_CHECK(v, CL_OUT_OF_HOST_MEMORY);
    size_t i = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, " ");
        if (len > 0 && len < CL_NAME_VERSION_MAX_NAME_SIZE) {
            memcpy(v[i].name, p, len);
            v[i].name[len] = 0;
            v[i].version = extension_version(v[i].name);
            i++;
        }
        p += len + (p[len] == ' ');
    }
    cl_int rc = rt_info(size, value, size_ret, v, i * sizeof *v);
    rt_free(v);
    return rc;
}

/* ---- platform ---- */

static cl_int get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                               cl_uint *num_platforms)
{
    RT_CHECK(!(num_entries == 0 && platforms), CL_INVALID_VALUE);
    RT_CHECK(platforms || num_platforms, CL_INVALID_VALUE);
    if (platforms)
        platforms[0] = rt_platform();
    if (num_platforms)
        *num_platforms = 1;
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                    cl_uint *num_platforms)
{
    return get_platform_ids(num_entries, platforms, num_platforms);
}

RT_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                   cl_platform_id *platforms,
                                                   cl_uint *num_platforms)
{
    return get_platform_ids(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL rt_get_platform_info(cl_platform_id platform, cl_platform_info name,
                                        size_t size, void *value, size_t *size_ret)
{
    RT_CHECK(!platform || platform == rt_platform(), CL_INVALID_PLATFORM);
    const char *s;
    cl_version version;
    cl_ulong timer;
    switch (name) {
    case CL_PLATFORM_PROFILE: s = "FULL_PROFILE"; break;
    case CL_PLATFORM_VERSION: s = "OpenCL " RT_CL_VERSION " clhls " RT_VERSION; break;
    case CL_PLATFORM_NUMERIC_VERSION:
        version = RT_CL_NUMERIC_VERSION;
        return rt_info(size, value, size_ret, &version, sizeof version);
    case CL_PLATFORM_NAME: s = "clhls"; break;
    case CL_PLATFORM_VENDOR: s = "clhls project"; break;
    case CL_PLATFORM_EXTENSIONS: s = RT_PLATFORM_EXTENSIONS; break;
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
        return info_extensions_with_version(RT_PLATFORM_EXTENSIONS, size, value, size_ret);
    /* No device and host timer synchronization: clGetDeviceAndHostTimer and
     * clGetHostTimer return CL_INVALID_OPERATION, and the resolution must then be 0. */
    case CL_PLATFORM_HOST_TIMER_RESOLUTION:
        timer = 0;
        return rt_info(size, value, size_ret, &timer, sizeof timer);
    case CL_PLATFORM_ICD_SUFFIX_KHR: s = "clhls"; break;
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
    return rt_info(size, value, size_ret, s, strlen(s) + 1);
}

RT_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info name,
                                              size_t size, void *value, size_t *size_ret)
{
    return rt_get_platform_info(platform, name, size, value, size_ret);
}

void *CL_API_CALL rt_get_extension_function_address(const char *name)
{
    if (name && strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
        return (void *)clIcdGetPlatformIDsKHR;
    return NULL;
}

void *CL_API_CALL rt_get_extension_function_address_for_platform(cl_platform_id platform,
                                                                 const char *name)
{
    if (platform && platform != rt_platform())
        return NULL;
    return rt_get_extension_function_address(name);
}

RT_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    return rt_get_extension_function_address(name);
}

RT_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                     const char *name)
{
    return rt_get_extension_function_address_for_platform(platform, name);
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform)
{
    RT_CHECK(platform == rt_platform(), CL_INVALID_PLATFORM);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

/* ---- devices ---- */

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type,
                                  cl_uint num_entries, cl_device_id *devices,
                                  cl_uint *num_devices)
{
    cl_platform_id p = rt_platform();
    RT_CHECK(!platform || platform == p, CL_INVALID_PLATFORM);
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                 CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                 CL_DEVICE_TYPE_CUSTOM;
    RT_CHECK(type == CL_DEVICE_TYPE_ALL || (type && !(type & ~known)), CL_INVALID_DEVICE_TYPE);
    RT_CHECK(!(num_entries == 0 && devices), CL_INVALID_VALUE);
    RT_CHECK(devices || num_devices, CL_INVALID_VALUE);
    cl_uint n = 0;
    for (cl_uint i = 0; i < p->ndevices; i++) {
        cl_device_id d = p->devices[i];
        int match = type == CL_DEVICE_TYPE_ALL || (type & d->type) ||
                    ((type & CL_DEVICE_TYPE_DEFAULT) && i == 0);
        if (!match)
            continue;
        if (devices && n < num_entries)
            devices[n] = d;
        n++;
    }
    if (num_devices)
        *num_devices = n;
    return n ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
    RT_CHECK(rt_valid_device(device), CL_INVALID_DEVICE);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
    RT_CHECK(rt_valid_device(device), CL_INVALID_DEVICE);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                      const cl_device_partition_property *props,
                                      cl_uint num_entries, cl_device_id *out,
                                      cl_uint *num_devices)
{
    RT_CHECK(rt_valid_device(in_device), CL_INVALID_DEVICE);
    /* CL_DEVICE_PARTITION_PROPERTIES is empty: no partition type is supported. */
    RT_FAIL(CL_INVALID_VALUE);
}

/* CL_DEVICE_MAX_COMPUTE_UNITS: the compute units of the largest program loaded on the
 * device so far (every kernel's, as they may all run at once), and before the first
 * the board's compute units per kernel (board-format.md). */
static cl_uint device_compute_units(cl_device_id d)
{
    cl_uint board = d->board->compute_units ? d->board->compute_units : 1;
    cl_uint built = atomic_load(&d->built_units);
    return built > board ? built : board;
}

/* Largest 1-D index space the hardware counts (64-bit registers, size_t host). */
static size_t device_max_wg(cl_device_id d) { return d->board->max_work_group_size; }

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info name, size_t size,
                                   void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_device(d), CL_INVALID_DEVICE);
    const board_t *b = d->board;
    union {
        cl_uint u;
        cl_ulong ul;
        cl_bool b;
        size_t sz;
        size_t sz3[3];
        cl_device_type type;
        cl_device_fp_config fp;
        cl_device_mem_cache_type cache;
        cl_device_local_mem_type lmem;
        cl_device_exec_capabilities exec;
        cl_command_queue_properties qprops;
        cl_platform_id platform;
        cl_device_id device;
        cl_device_partition_property part[1];
        cl_device_affinity_domain affinity;
        cl_version version;
        cl_device_svm_capabilities svm;
        cl_device_atomic_capabilities atomic;
        cl_device_device_enqueue_capabilities enqueue;
    } v;
    memset(&v, 0, sizeof v);
    size_t n = 0;
    const char *s = NULL;
    const void *list = NULL; /* an array answer (n bytes) instead of v */
#define U(x) (v.u = (cl_uint)(x), n = sizeof(cl_uint))
#define UL(x) (v.ul = (cl_ulong)(x), n = sizeof(cl_ulong))
#define B(x) (v.b = (x) ? CL_TRUE : CL_FALSE, n = sizeof(cl_bool))
#define SZ(x) (v.sz = (size_t)(x), n = sizeof(size_t))
    switch (name) {
    case CL_DEVICE_TYPE: v.type = d->type; n = sizeof v.type; break;
    case CL_DEVICE_VENDOR_ID: U(RT_VENDOR_ID); break;
    case CL_DEVICE_MAX_COMPUTE_UNITS: U(device_compute_units(d)); break;
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: U(3); break;
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        v.sz3[0] = v.sz3[1] = v.sz3[2] = device_max_wg(d);
        n = sizeof v.sz3;
        break;
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: SZ(device_max_wg(d)); break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: U(1); break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: U(0); break;
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: U(lround(b->clock_mhz)); break;
    case CL_DEVICE_ADDRESS_BITS: U(64); break;
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS: U(0); break;
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: UL(b->max_alloc_bytes); break;
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: SZ(0); break;
    case CL_DEVICE_IMAGE_SUPPORT: B(0); break;
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: U(0); break;
    /* Pipes: a FIFO in the hardware between two kernels of a program, joined when it is
     * built (OpenCL C 2.0 programs: no __opencl_c_pipes, see opencl_c_features). A
     * packet is at most the widest element the hardware moves. No reservations (the
     * compiler refuses reserve_read_pipe and the like): 0 active ones. */
    case CL_DEVICE_PIPE_SUPPORT: B(1); break;
    case CL_DEVICE_MAX_PIPE_ARGS: U(RT_MAX_PIPE_ARGS); break;
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: U(0); break;
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: U(RT_PIPE_MAX_PACKET_SIZE); break;
    /* No program-scope global variables (0 bytes). */
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: SZ(0); break;
    /* The argument area of every kernel's control block (docs/architecture.md). */
    case CL_DEVICE_MAX_PARAMETER_SIZE: SZ(HLS_MAX_PARAMETER_SIZE); break;
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: U(HLS_BUFFER_ALIGN * 8); break;
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: U(128); break;
    case CL_DEVICE_SINGLE_FP_CONFIG: /* fdiv, fsqrt, fma: correctly rounded templates */
        v.fp = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_FMA |
               CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
        n = sizeof v.fp;
        break;
    /* The W = 64 templates: IEEE subnormals (SUBNORMALS = 1), round to nearest even
     * only, infinities and NaN, a fused clhls_fma. This is the minimum an OpenCL 2.0
     * or newer device with doubles must report; the 1.x minimum also has
     * CL_FP_ROUND_TO_ZERO and CL_FP_ROUND_TO_INF, rounding modes the hardware has no
     * way to select. Double division and sqrt are correctly rounded (OpenCL requires
     * it of double; CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT is a float-only bit). */
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        v.fp = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
        n = sizeof v.fp;
        break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: v.cache = CL_NONE; n = sizeof v.cache; break;
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: U(b->mem_width_bits / 8); break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: UL(0); break;
    case CL_DEVICE_GLOBAL_MEM_SIZE: UL(b->global_mem_bytes); break;
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: UL(b->max_alloc_bytes); break;
    case CL_DEVICE_MAX_CONSTANT_ARGS: U(8); break;
    case CL_DEVICE_LOCAL_MEM_TYPE: v.lmem = CL_LOCAL; n = sizeof v.lmem; break;
    case CL_DEVICE_LOCAL_MEM_SIZE: UL(b->local_mem_bytes); break;
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: B(0); break;
    case CL_DEVICE_HOST_UNIFIED_MEMORY: B(0); break;
    /* Profiling times are nanosecond counts that can differ by any number of ns. */
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: SZ(1); break;
    case CL_DEVICE_ENDIAN_LITTLE: B(1); break;
    case CL_DEVICE_AVAILABLE: B(1); break;
    case CL_DEVICE_COMPILER_AVAILABLE: B(1); break;
    case CL_DEVICE_LINKER_AVAILABLE: B(1); break; /* clLinkProgram (program.c) */
    case CL_DEVICE_EXECUTION_CAPABILITIES: v.exec = CL_EXEC_KERNEL; n = sizeof v.exec; break;
    case CL_DEVICE_QUEUE_PROPERTIES: /* = CL_DEVICE_QUEUE_ON_HOST_PROPERTIES */
        v.qprops = CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
        n = sizeof v.qprops;
        break;
    /* No device-side enqueue, so no on-device queues: every limit of them is 0. */
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: v.enqueue = 0; n = sizeof v.enqueue; break;
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: v.qprops = 0; n = sizeof v.qprops; break;
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: U(0); break;
    case CL_DEVICE_SVM_CAPABILITIES: v.svm = 0; n = sizeof v.svm; break;
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: U(0); break; /* natural alignment */
    /* Atomics execute at memory, ordered with every access of their work-item to the
     * same memory (hls/memorder.c): sequentially consistent up to device scope. No
     * all-devices scope: there is no shared virtual memory. */
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
        v.atomic = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                   CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                   CL_DEVICE_ATOMIC_SCOPE_DEVICE;
        n = sizeof v.atomic;
        break;
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        v.atomic = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                   CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                   CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
        n = sizeof v.atomic;
        break;
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: B(1); break;
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: B(1); break;
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: B(0); break;
    /* No sub-groups. */
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: U(0); break;
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: B(0); break;
    /* The pipeline takes one work-item per cycle: any work-group size suits it. */
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: SZ(1); break;
    case CL_DEVICE_PLATFORM: v.platform = d->platform; n = sizeof v.platform; break;
    case CL_DEVICE_NAME: s = d->name; break;
    case CL_DEVICE_VENDOR: s = b->vendor ? b->vendor : "clhls"; break;
    case CL_DRIVER_VERSION: s = RT_VERSION; break;
    case CL_DEVICE_PROFILE: s = "FULL_PROFILE"; break;
    case CL_DEVICE_VERSION: s = "OpenCL " RT_CL_VERSION " clhls"; break;
    case CL_DEVICE_NUMERIC_VERSION: v.version = RT_CL_NUMERIC_VERSION; n = sizeof v.version; break;
    case CL_DEVICE_OPENCL_C_VERSION: s = "OpenCL C 1.2 "; break;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        list = opencl_c_versions;
        n = sizeof opencl_c_versions;
        break;
    case CL_DEVICE_OPENCL_C_FEATURES:
        list = opencl_c_features;
        n = sizeof opencl_c_features;
        break;
    case CL_DEVICE_EXTENSIONS: s = RT_DEVICE_EXTENSIONS; break;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        return info_extensions_with_version(RT_DEVICE_EXTENSIONS, size, value, size_ret);
    /* No intermediate language and no built-in kernels: empty string, empty arrays. */
    case CL_DEVICE_IL_VERSION: s = ""; break;
    case CL_DEVICE_ILS_WITH_VERSION:
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: n = 0; break;
    case CL_DEVICE_BUILT_IN_KERNELS: s = ""; break;
    /* The format of a conformance test suite release (vYYYY-MM-DD-XX) naming none:
     * the devices have not passed the conformance process. */
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: s = "v0000-01-01-00"; break;
    case CL_DEVICE_PRINTF_BUFFER_SIZE: SZ(HLS_PRINTF_BUFFER_BYTES); break;
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: B(1); break;
    case CL_DEVICE_PARENT_DEVICE: v.device = NULL; n = sizeof v.device; break;
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: U(0); break;
    case CL_DEVICE_PARTITION_PROPERTIES: v.part[0] = 0; n = sizeof v.part; break;
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: v.affinity = 0; n = sizeof v.affinity; break;
    case CL_DEVICE_PARTITION_TYPE: n = 0; break;
    case CL_DEVICE_REFERENCE_COUNT: U(1); break;
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
#undef U
#undef UL
#undef B
#undef SZ
    if (s)
        return rt_info(size, value, size_ret, s, strlen(s) + 1);
    return rt_info(size, value, size_ret, list ? list : (const void *)&v, n);
}
