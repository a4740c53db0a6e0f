/* Contexts and command queues. A context holds its devices (which live as long as the
 * platform); a queue retains its context, and every event of a queue retains the queue,
 * so a queue released by the program lives until its last command completed. A
 * context's destructor callbacks run when its last reference (the program's or an
 * object's) goes. Queues are host queues only: the devices have no on-device queues. */
#include <string.h>

#include "rt.h"

/* ---- contexts ---- */

/* Checks the property list; returns CL_SUCCESS and its length (with the 0). */
static cl_int check_props(const cl_context_properties *props, size_t *len)
{
    *len = 0;
    if (!props)
        return CL_SUCCESS;
    int seen_platform = 0, seen_sync = 0;
    size_t i = 0;
    for (; props[i]; i += 2) {
        switch (props[i]) {
        case CL_CONTEXT_PLATFORM:
            RT_CHECK(!seen_platform, CL_INVALID_PROPERTY);
            seen_platform = 1;
            RT_CHECK((cl_platform_id)props[i + 1] == rt_platform(), CL_INVALID_PLATFORM);
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            RT_CHECK(!seen_sync, CL_INVALID_PROPERTY);
            seen_sync = 1;
            /* A cl_bool: any other value is not valid for the property. */
            RT_CHECK(props[i + 1] == CL_TRUE || props[i + 1] == CL_FALSE, CL_INVALID_PROPERTY);
            break;
        default:
            RT_FAIL(CL_INVALID_PROPERTY);
        }
    }
    *len = i + 1;
    return CL_SUCCESS;
}

static cl_context context_new(const cl_context_properties *props, size_t nprops,
                              cl_uint ndevices, const cl_device_id *devices,
                              void (CL_CALLBACK *notify)(const char *, const void *,
                                                         size_t, void *),
                              void *data, cl_int *errcode_ret)
{
    cl_context c = rt_alloc(sizeof *c);
    cl_device_id *devs = rt_alloc(ndevices * sizeof *devs);
    cl_context_properties *p = nprops ? rt_alloc(nprops * sizeof *p) : NULL;
    if (!c || !devs || (nprops && !p)) {
        rt_free(c);
        rt_free(devs);
        rt_free(p);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    /* Duplicate devices in the list count once. */
    cl_uint n = 0;
    for (cl_uint i = 0; i < ndevices; i++) {
        int dup = 0;
        for (cl_uint j = 0; j < n; j++)
            dup |= devs[j] == devices[i];
        if (!dup)
            devs[n++] = devices[i];
    }
    if (nprops)
        memcpy(p, props, nprops * sizeof *p);
    rt_object_init(&c->obj, RT_MAGIC_CONTEXT);
    c->ndevices = n;
    c->devices = devs;
    c->props = p;
    c->nprops = nprops;
    c->notify = notify;
    c->notify_data = data;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return c;
}

cl_context CL_API_CALL clCreateContext(const cl_context_properties *props, cl_uint ndevices,
                                       const cl_device_id *devices,
                                       void (CL_CALLBACK *notify)(const char *, const void *,
                                                                  size_t, void *),
                                       void *data, cl_int *errcode_ret)
{
    size_t nprops;
    cl_int rc = check_props(props, &nprops);
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    RT_CHECK_OBJ(devices && ndevices, CL_INVALID_VALUE);
    RT_CHECK_OBJ(notify || !data, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < ndevices; i++)
        RT_CHECK_OBJ(rt_valid_device(devices[i]), CL_INVALID_DEVICE);
    return context_new(props, nprops, ndevices, devices, notify, data, errcode_ret);
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *props,
                                               cl_device_type type,
                                               void (CL_CALLBACK *notify)(const char *,
                                                                          const void *,
                                                                          size_t, void *),
                                               void *data, cl_int *errcode_ret)
{
    size_t nprops;
    cl_int rc = check_props(props, &nprops);
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    RT_CHECK_OBJ(notify || !data, CL_INVALID_VALUE);
    cl_uint n = 0;
    rc = clGetDeviceIDs(rt_platform(), type, 0, NULL, &n);
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    cl_device_id devs[64];
    if (n > 64)
        n = 64;
    rc = clGetDeviceIDs(rt_platform(), type, n, devs, NULL);
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    return context_new(props, nprops, n, devs, notify, data, errcode_ret);
}

cl_int CL_API_CALL clRetainContext(cl_context c)
{
    return rt_api_retain(__func__, c, RT_MAGIC_CONTEXT, CL_INVALID_CONTEXT);
}

cl_int CL_API_CALL clReleaseContext(cl_context c)
{
    return rt_api_release(__func__, c, RT_MAGIC_CONTEXT, CL_INVALID_CONTEXT);
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context c,
                                                  void (CL_CALLBACK *fn)(cl_context, void *),
                                                  void *data)
{
    RT_CHECK(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK(fn, CL_INVALID_VALUE);
    rt_context_cb *cb = rt_alloc(sizeof *cb);
    RT_CHECK(cb, CL_OUT_OF_HOST_MEMORY);
    cb->fn = fn;
    cb->data = data;
    pthread_mutex_lock(&rt_lock);
    cb->next = c->destructors; /* called in reverse order of registration */
    c->destructors = cb;
    pthread_mutex_unlock(&rt_lock);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info name, size_t size,
                                    void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_context(c), CL_INVALID_CONTEXT);
    cl_uint u;
    switch (name) {
    case CL_CONTEXT_REFERENCE_COUNT:
        u = rt_refcount(c);
        return rt_info(size, value, size_ret, &u, sizeof u);
    case CL_CONTEXT_NUM_DEVICES:
        return rt_info(size, value, size_ret, &c->ndevices, sizeof c->ndevices);
    case CL_CONTEXT_DEVICES:
        return rt_info(size, value, size_ret, c->devices, c->ndevices * sizeof *c->devices);
    case CL_CONTEXT_PROPERTIES:
        return rt_info(size, value, size_ret, c->props, c->nprops * sizeof *c->props);
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

/* ---- command queues ---- */

/* A host queue on d with the CL_QUEUE_* flags props (checked), keeping a copy of the
 * property list of clCreateCommandQueueWithProperties (nlist entries with the 0; NULL
 * for none). */
static cl_command_queue queue_new(cl_context c, cl_device_id d,
                                  cl_command_queue_properties props,
                                  const cl_queue_properties *list, size_t nlist,
                                  cl_int *errcode_ret)
{
    cl_command_queue q = rt_alloc(sizeof *q);
    cl_queue_properties *copy = list ? rt_alloc(nlist * sizeof *copy) : NULL;
    if (!q || (list && !copy)) {
        rt_free(q);
        rt_free(copy);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    if (rt_device_start_worker(d) != 0) {
        rt_free(q);
        rt_free(copy);
        RT_FAIL_OBJ(CL_OUT_OF_RESOURCES);
    }
    if (list)
        memcpy(copy, list, nlist * sizeof *copy);
    rt_object_init(&q->obj, RT_MAGIC_QUEUE);
    q->context = c;
    rt_retain(c);
    q->device = d;
    static atomic_uint queues_created;
    q->serial = atomic_fetch_add(&queues_created, 1) + 1;
    q->props = props;
    q->props_array = copy;
    q->nprops_array = list ? nlist : 0;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return q;
}

/* The CL_QUEUE_PROPERTIES flags a host queue can have. */
static const cl_command_queue_properties host_queue_flags =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context c, cl_device_id d,
                                                  cl_command_queue_properties props,
                                                  cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(rt_valid_device(d) && rt_context_device_index(c, d) >= 0, CL_INVALID_DEVICE);
    RT_CHECK_OBJ(!(props & ~host_queue_flags), CL_INVALID_VALUE);
    return queue_new(c, d, props, NULL, 0, errcode_ret);
}

/* The properties are CL_QUEUE_PROPERTIES and CL_QUEUE_SIZE, each at most once. A
 * device queue (CL_QUEUE_ON_DEVICE, valid with CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
 * is CL_INVALID_QUEUE_PROPERTIES: the devices have none (CL_DEVICE_QUEUE_ON_DEVICE_
 * PROPERTIES is 0). CL_QUEUE_SIZE is valid only for a device queue. */
cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context c, cl_device_id d,
                                                                const cl_queue_properties *list,
                                                                cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(rt_valid_device(d) && rt_context_device_index(c, d) >= 0, CL_INVALID_DEVICE);
    cl_command_queue_properties props = 0;
    int seen_props = 0, seen_size = 0;
    size_t n = 0;
    for (; list && list[n]; n += 2) {
        switch (list[n]) {
        case CL_QUEUE_PROPERTIES:
            RT_CHECK_OBJ(!seen_props, CL_INVALID_VALUE);
            seen_props = 1;
            props = (cl_command_queue_properties)list[n + 1];
            break;
        case CL_QUEUE_SIZE:
            RT_CHECK_OBJ(!seen_size, CL_INVALID_VALUE);
            seen_size = 1;
            break;
        default:
            RT_FAIL_OBJ(CL_INVALID_VALUE);
        }
    }
    const cl_command_queue_properties device_flags = CL_QUEUE_ON_DEVICE |
                                                     CL_QUEUE_ON_DEVICE_DEFAULT;
    RT_CHECK_OBJ(!(props & ~(host_queue_flags | device_flags)), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!(props & CL_QUEUE_ON_DEVICE_DEFAULT) || (props & CL_QUEUE_ON_DEVICE),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(!(props & CL_QUEUE_ON_DEVICE) ||
                 (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!seen_size || (props & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!(props & CL_QUEUE_ON_DEVICE), CL_INVALID_QUEUE_PROPERTIES);
    return queue_new(c, d, props, list, list ? n + 1 : 0, errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q)
{
    return rt_api_retain(__func__, q, RT_MAGIC_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q)
{
    /* Commands reach the device's worker when enqueued: nothing to flush. */
    return rt_api_release(__func__, q, RT_MAGIC_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info name,
                                         size_t size, void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    cl_uint u;
    switch (name) {
    case CL_QUEUE_CONTEXT:
        return rt_info(size, value, size_ret, &q->context, sizeof q->context);
    case CL_QUEUE_DEVICE:
        return rt_info(size, value, size_ret, &q->device, sizeof q->device);
    case CL_QUEUE_REFERENCE_COUNT:
        u = rt_refcount(q);
        return rt_info(size, value, size_ret, &u, sizeof u);
    case CL_QUEUE_PROPERTIES:
        return rt_info(size, value, size_ret, &q->props, sizeof q->props);
    case CL_QUEUE_PROPERTIES_ARRAY: /* size 0 unless created with a property list */
        return rt_info(size, value, size_ret, q->props_array,
                       q->nprops_array * sizeof *q->props_array);
    case CL_QUEUE_SIZE: /* a query for device queues only: this is a host queue */
        RT_FAIL(CL_INVALID_COMMAND_QUEUE);
    case CL_QUEUE_DEVICE_DEFAULT: { /* no device has a default device queue */
        cl_command_queue none = NULL;
        return rt_info(size, value, size_ret, &none, sizeof none);
    }
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}
