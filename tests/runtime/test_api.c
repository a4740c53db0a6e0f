/* Runtime unit tests through the real ocl-icd loader (OCL_ICD_VENDORS points at the
 * build's clhls.icd): platform and device queries against the board file, object
 * lifetimes, error codes of invalid calls, buffers (read/write/copy/fill/map,
 * USE_HOST_PTR, sub-buffers), events (user events, wait lists, callbacks, markers,
 * barriers, out-of-order queues) and profiling. No kernel is built here (see tests/e2e). */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#ifndef CL_PROFILING_COMMAND_COMPLETE
#define CL_PROFILING_COMMAND_COMPLETE 0x1284 /* OpenCL 2.0; clhls reports it */
#endif
#include <criterion/criterion.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "board.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;  /* in-order, profiling */

static void setup(void)
{
    cr_assert_eq(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
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
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof s, s, NULL), CL_SUCCESS);
    cr_assert_str_eq(s, "clhls");
    cr_assert_eq(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof s, s, NULL), CL_SUCCESS);
    cr_assert(!strncmp(s, "OpenCL 1.2 ", 11));
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
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof sz, &sz, NULL), 0);
    cr_assert_eq(sz, (size_t)ceil(1000.0 / b->clock_mhz));
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_ADDRESS_BITS, sizeof u, &u, NULL), 0);
    cr_assert_eq(u, 64);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_ENDIAN_LITTLE, sizeof bo, &bo, NULL), 0);
    cr_assert_eq(bo, CL_TRUE);
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof bo, &bo, NULL), 0);
    cr_assert_eq(bo, CL_FALSE);
    cl_device_fp_config fp;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL), 0);
    cr_assert_eq(fp, CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
    char s[256];
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_VERSION, sizeof s, s, NULL), 0);
    cr_assert_str_eq(s, "OpenCL C 1.2 ");
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof s, s, NULL), 0);
    cr_assert_str_eq(s, "OpenCL 1.2 clhls");
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof s, s, NULL), 0);
    cr_assert(strstr(s, b->name));
    cl_platform_id p;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof p, &p, NULL), 0);
    cr_assert_eq(p, platform);
    cr_assert_eq(clGetDeviceInfo(device, 0x7777, sizeof s, s, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof s, s, NULL), CL_INVALID_DEVICE);
    board_free(b);
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
    int dummy;
    cr_assert_null(clCreateContext(NULL, 1, &device, NULL, &dummy, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cl_context c = clCreateContextFromType(NULL, CL_DEVICE_TYPE_ACCELERATOR, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    clReleaseContext(c);
    cr_assert_null(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL, NULL, &err));
    cr_assert_eq(err, CL_DEVICE_NOT_FOUND);
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
    cr_assert_null(clCreateProgramWithBinary(ctx, 1, &device, &blen, &bin, NULL, &err));
    cr_assert_eq(err, CL_INVALID_BINARY);
    cr_assert_eq(clReleaseProgram(p), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(NULL, 0, 4, &len), CL_INVALID_KERNEL);
    cr_assert_eq(clUnloadPlatformCompiler(platform), CL_SUCCESS);
}

Test(api, unsupported_features_fail_cleanly)
{
    cl_int err;
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = desc.image_height = 4;
    cr_assert_null(clCreateImage(ctx, 0, &fmt, &desc, NULL, &err));
    cr_assert_neq(err, CL_SUCCESS);
    cl_uint n = 99;
    cr_assert_eq(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n), 0);
    cr_assert_eq(n, 0);
}
