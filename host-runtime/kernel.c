/* Kernels: creation from a built program (and clCloneKernel), arguments (validated
 * against metadata.json), queries, clEnqueueNDRangeKernel/clEnqueueTask, and the
 * execution of an NDRange on the device (worker thread): argument registers from the
 * snapshot taken at enqueue time, geometry with unused dimensions set to global 1,
 * local 1, offset 0, groups 1, the watchdog's idle window from CLHLS_WATCHDOG_CYCLES
 * (consecutive cycles without forward progress), the kernel's occupancy probes for the
 * watchdog's message, counters read into the event. A failed kernel ends its event with
 * CL_OUT_OF_RESOURCES; its message (naming the kernel, and for a hung one where it is
 * stuck) goes to stderr and to the context's notify callback. A kernel that calls printf
 * gets a zeroed printf buffer per NDRange in its hidden argument (not one of the
 * user's arguments); what the work-items printed goes to stdout after the run
 * (printf.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "last_run.h"
#include "rt.h"

/* Idle window of the watchdog: a kernel is hung after this many consecutive cycles
 * without forward progress (docs/user-guide.md, CLHLS_WATCHDOG_CYCLES). */
#define RT_DEFAULT_WATCHDOG_CYCLES 1000000ull

int rt_valid_kernel(cl_kernel k) { return k && k->magic == RT_MAGIC_KERNEL; }

/* The argument area is little-endian, like the registers that hold it. */
static void put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static cl_kernel kernel_new(cl_program p, const rt_kernel_meta *meta)
{
    cl_kernel k = rt_alloc(sizeof *k);
    rt_arg_value *args = rt_alloc(meta->nargs * sizeof *args);
    unsigned char *area = rt_alloc(meta->arg_area_bytes + 1);
    if (!k || !args || !area) {
        rt_free(k);
        rt_free(args);
        rt_free(area);
        return NULL;
    }
    k->dispatch = &rt_dispatch;
    k->magic = RT_MAGIC_KERNEL;
    atomic_init(&k->refcount, 1);
    k->program = p;
    atomic_fetch_add(&p->refcount, 1);
    atomic_fetch_add(&p->kernel_objs, 1);
    k->meta = meta;
    k->args = args;
    k->area = area;
    pthread_mutex_init(&k->lock, NULL);
    return k;
}

/* 1 when p has an executable for some device; p->lock held. */
static int built_any(cl_program p)
{
    for (cl_uint i = 0; i < p->context->ndevices; i++)
        if (p->builds[i].status == CL_BUILD_SUCCESS &&
            p->builds[i].type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) /* not an object */
            return 1;
    return 0;
}

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_program(p), CL_INVALID_PROGRAM);
    RT_CHECK_OBJ(name, CL_INVALID_VALUE);
    pthread_mutex_lock(&p->lock);
    int built = built_any(p);
    const rt_kernel_meta *meta = NULL;
    for (cl_uint i = 0; built && i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, name))
            meta = &p->kernels[i];
    cl_kernel k = meta ? kernel_new(p, meta) : NULL;
    pthread_mutex_unlock(&p->lock);
    RT_CHECK_OBJ(built, CL_INVALID_PROGRAM_EXECUTABLE);
    RT_CHECK_OBJ(meta, CL_INVALID_KERNEL_NAME);
    RT_CHECK_OBJ(k, CL_OUT_OF_HOST_MEMORY);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return k;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint n, cl_kernel *kernels,
                                            cl_uint *nret)
{
    RT_CHECK(rt_valid_program(p), CL_INVALID_PROGRAM);
    pthread_mutex_lock(&p->lock);
    int built = built_any(p);
    cl_uint nk = p->nkernels;
    cl_int rc = CL_SUCCESS;
    if (!built)
        rc = CL_INVALID_PROGRAM_EXECUTABLE;
    else if (kernels && n < nk)
        rc = CL_INVALID_VALUE;
    for (cl_uint i = 0; rc == CL_SUCCESS && kernels && i < nk; i++) {
        kernels[i] = kernel_new(p, &p->kernels[i]);
        if (!kernels[i]) {
            rc = CL_OUT_OF_HOST_MEMORY;
            pthread_mutex_unlock(&p->lock);
            for (cl_uint j = 0; j < i; j++)
                rt_kernel_release(kernels[j]);
            pthread_mutex_lock(&p->lock);
        }
    }
    pthread_mutex_unlock(&p->lock);
    RT_CHECK(rc == CL_SUCCESS, rc);
    if (nret)
        *nret = nk;
    return CL_SUCCESS;
}

/* A new kernel object for the same kernel, with the arguments set so far (buffer
 * arguments are not retained, as by the source kernel). */
cl_kernel CL_API_CALL clCloneKernel(cl_kernel src, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_kernel(src), CL_INVALID_KERNEL);
    cl_kernel k = kernel_new(src->program, src->meta);
    RT_CHECK_OBJ(k, CL_OUT_OF_HOST_MEMORY);
    pthread_mutex_lock(&src->lock);
    memcpy(k->args, src->args, src->meta->nargs * sizeof *k->args);
    memcpy(k->area, src->area, src->meta->arg_area_bytes);
    pthread_mutex_unlock(&src->lock);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return k;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel k)
{
    RT_CHECK(rt_valid_kernel(k), CL_INVALID_KERNEL);
    atomic_fetch_add(&k->refcount, 1);
    return CL_SUCCESS;
}

void rt_kernel_release(cl_kernel k)
{
    if (atomic_fetch_sub(&k->refcount, 1) != 1)
        return;
    k->magic = RT_MAGIC_DEAD;
    rt_free(k->args); /* buffer arguments are not retained by the kernel */
    rt_free(k->area);
    pthread_mutex_destroy(&k->lock);
    cl_program p = k->program;
    atomic_fetch_sub(&p->kernel_objs, 1);
    rt_free(k);
    rt_program_release(p);
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel k)
{
    RT_CHECK(rt_valid_kernel(k), CL_INVALID_KERNEL);
    rt_kernel_release(k);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    RT_CHECK(rt_valid_kernel(k), CL_INVALID_KERNEL);
    RT_CHECK(index < k->meta->nargs, CL_INVALID_ARG_INDEX);
    const rt_arg_meta *a = &k->meta->args[index];
    rt_arg_value v;
    memset(&v, 0, sizeof v);
    v.set = 1;
    v.size = size;
    switch (a->kind) {
    case RT_ARG_BUFFER:
        RT_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
        v.mem = value ? *(const cl_mem *)value : NULL;
        RT_CHECK(!v.mem || rt_valid_mem(v.mem), CL_INVALID_MEM_OBJECT);
        RT_CHECK(!v.mem || v.mem->context == k->program->context, CL_INVALID_MEM_OBJECT);
        break;
    case RT_ARG_SCALAR: /* a value or a struct: its bytes, as the host lays them out */
        RT_CHECK(value, CL_INVALID_ARG_VALUE);
        RT_CHECK(size == a->size, CL_INVALID_ARG_SIZE);
        break;
    case RT_ARG_LOCAL:
        RT_CHECK(!value, CL_INVALID_ARG_VALUE);
        RT_CHECK(size > 0, CL_INVALID_ARG_SIZE);
        break;
    }
    /* The kernel does not retain a buffer argument (a buffer the program releases is
     * destroyed, and its destructor callback runs); an enqueued NDRange retains its
     * snapshot of the arguments until the command completes. */
    pthread_mutex_lock(&k->lock);
    k->args[index] = v;
    if (a->kind == RT_ARG_SCALAR)
        memcpy(k->area + a->offset, value, size);
    else if (a->kind == RT_ARG_LOCAL)
        put_le64(k->area + a->offset, size);
    pthread_mutex_unlock(&k->lock);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info name, size_t size, void *value,
                                   size_t *size_ret)
{
    RT_CHECK(rt_valid_kernel(k), CL_INVALID_KERNEL);
    cl_uint u;
    switch (name) {
    case CL_KERNEL_FUNCTION_NAME:
        return rt_info(size, value, size_ret, k->meta->name, strlen(k->meta->name) + 1);
    case CL_KERNEL_NUM_ARGS:
        return rt_info(size, value, size_ret, &k->meta->nargs, sizeof k->meta->nargs);
    case CL_KERNEL_REFERENCE_COUNT:
        u = (cl_uint)atomic_load(&k->refcount);
        return rt_info(size, value, size_ret, &u, sizeof u);
    case CL_KERNEL_CONTEXT:
        return rt_info(size, value, size_ret, &k->program->context, sizeof(cl_context));
    case CL_KERNEL_PROGRAM:
        return rt_info(size, value, size_ret, &k->program, sizeof k->program);
    case CL_KERNEL_ATTRIBUTES:
        return rt_info(size, value, size_ret, k->meta->attributes,
                       strlen(k->meta->attributes) + 1);
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info name,
                                      size_t size, void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_kernel(k), CL_INVALID_KERNEL);
    RT_CHECK(index < k->meta->nargs, CL_INVALID_ARG_INDEX);
    const rt_arg_meta *a = &k->meta->args[index];
    switch (name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        return rt_info(size, value, size_ret, &a->address, sizeof a->address);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        return rt_info(size, value, size_ret, &a->access, sizeof a->access);
    case CL_KERNEL_ARG_TYPE_NAME:
        return rt_info(size, value, size_ret, a->type_name, strlen(a->type_name) + 1);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        return rt_info(size, value, size_ret, &a->type_qual, sizeof a->type_qual);
    case CL_KERNEL_ARG_NAME:
        return rt_info(size, value, size_ret, a->name, strlen(a->name) + 1);
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

/* Largest work-group k accepts on d. */
static size_t kernel_max_wg(cl_kernel k, cl_device_id d)
{
    size_t m = d->board->max_work_group_size;
    if (k->meta->max_wg && k->meta->max_wg < m)
        m = k->meta->max_wg;
    return m;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d,
                                            cl_kernel_work_group_info name, size_t size,
                                            void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_kernel(k), CL_INVALID_KERNEL);
    cl_context c = k->program->context;
    if (!d) {
        RT_CHECK(c->ndevices == 1, CL_INVALID_DEVICE);
        d = c->devices[0];
    }
    RT_CHECK(rt_context_device_index(c, d) >= 0, CL_INVALID_DEVICE);
    size_t sz;
    cl_ulong ul;
    switch (name) {
    case CL_KERNEL_WORK_GROUP_SIZE:
        sz = kernel_max_wg(k, d);
        return rt_info(size, value, size_ret, &sz, sizeof sz);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        return rt_info(size, value, size_ret, k->meta->reqd_wg, sizeof k->meta->reqd_wg);
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        sz = 1;
        return rt_info(size, value, size_ret, &sz, sizeof sz);
    case CL_KERNEL_LOCAL_MEM_SIZE: /* the arrays, and the __local arguments set so far */
        ul = k->meta->local_mem;
        pthread_mutex_lock(&k->lock);
        for (cl_uint i = 0; i < k->meta->nargs; i++)
            if (k->meta->args[i].kind == RT_ARG_LOCAL && k->args[i].set)
                ul += k->args[i].size;
        pthread_mutex_unlock(&k->lock);
        return rt_info(size, value, size_ret, &ul, sizeof ul);
    case CL_KERNEL_PRIVATE_MEM_SIZE:
        ul = 0;
        return rt_info(size, value, size_ret, &ul, sizeof ul);
    default:
        /* CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels only. */
        RT_FAIL(CL_INVALID_VALUE);
    }
}

/* Picks a local size for a NULL local_work_size: per dimension the largest divisor of
 * the global size within the remaining work-group budget. */
static void pick_local(const size_t *global, cl_uint dim, size_t max_wg, size_t max_item,
                       size_t *local)
{
    size_t budget = max_wg;
    for (cl_uint i = 0; i < dim; i++) {
        size_t limit = budget < max_item ? budget : max_item;
        size_t best = 1;
        for (size_t l = limit < global[i] ? limit : global[i]; l > 1; l--) {
            if (global[i] % l == 0) {
                best = l;
                break;
            }
        }
        local[i] = best;
        budget /= best;
    }
}

/* An NDRange without work-items (global_work_size NULL or a 0 in it, OpenCL 2.1): a
 * kernel command that runs nothing, complete once its wait list is. The arguments must
 * still all be set. */
static cl_int enqueue_empty(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *list,
                            cl_event *event)
{
    int unset = 0;
    pthread_mutex_lock(&k->lock);
    for (cl_uint i = 0; i < k->meta->nargs; i++)
        unset |= !k->args[i].set;
    pthread_mutex_unlock(&k->lock);
    RT_CHECK(!unset, CL_INVALID_KERNEL_ARGS);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    rt_command *c = rt_command_new(q, RT_CMD_NONE, CL_COMMAND_NDRANGE_KERNEL, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    return rt_command_submit(c, 0, event);
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                          const size_t *offset, const size_t *global,
                                          const size_t *local, cl_uint n, const cl_event *list,
                                          cl_event *event)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_CHECK(rt_valid_kernel(k), CL_INVALID_KERNEL);
    cl_program p = k->program;
    RT_CHECK(p->context == q->context, CL_INVALID_CONTEXT);
    int di = rt_context_device_index(q->context, q->device);
    pthread_mutex_lock(&p->lock);
    int built = p->builds[di].status == CL_BUILD_SUCCESS;
    pthread_mutex_unlock(&p->lock);
    RT_CHECK(built, CL_INVALID_PROGRAM_EXECUTABLE);
    RT_CHECK(dim >= 1 && dim <= 3, CL_INVALID_WORK_DIMENSION);
    int empty = !global;
    for (cl_uint i = 0; global && i < dim; i++)
        empty |= global[i] == 0;
    if (empty)
        return enqueue_empty(q, k, n, list, event);
    /* The hardware counts work-items in the board's index width. */
    unsigned index_bits = q->device->board->work_item_index_bits;
    uint64_t max_index = index_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << index_bits) - 1;
    for (cl_uint i = 0; i < dim; i++) {
        RT_CHECK(global[i] <= max_index, CL_INVALID_GLOBAL_WORK_SIZE);
        RT_CHECK(!offset || offset[i] <= max_index - global[i], CL_INVALID_GLOBAL_OFFSET);
    }
    const rt_kernel_meta *meta = k->meta;
    size_t max_wg = kernel_max_wg(k, q->device);
    size_t max_item = q->device->board->max_work_group_size;
    size_t loc[3] = {1, 1, 1};
    if (local) {
        size_t prod = 1;
        for (cl_uint i = 0; i < dim; i++) {
            RT_CHECK(local[i] > 0, CL_INVALID_WORK_GROUP_SIZE);
            RT_CHECK(local[i] <= max_item, CL_INVALID_WORK_ITEM_SIZE);
            RT_CHECK(!meta->uniform_wg || global[i] % local[i] == 0,
                     CL_INVALID_WORK_GROUP_SIZE);
            prod *= local[i];
            loc[i] = local[i];
        }
        RT_CHECK(prod <= max_wg, CL_INVALID_WORK_GROUP_SIZE);
        if (meta->reqd_wg[0])
            for (cl_uint i = 0; i < 3; i++)
                RT_CHECK(loc[i] == (meta->reqd_wg[i] ? meta->reqd_wg[i] : 1),
                         CL_INVALID_WORK_GROUP_SIZE);
    } else if (meta->reqd_wg[0]) {
        for (cl_uint i = 0; i < dim; i++) {
            loc[i] = meta->reqd_wg[i];
            RT_CHECK(!meta->uniform_wg || global[i] % loc[i] == 0, CL_INVALID_WORK_GROUP_SIZE);
        }
    } else {
        pick_local(global, dim, max_wg, max_item, loc);
    }
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);

    rt_command *c = rt_command_new(q, RT_CMD_KERNEL, CL_COMMAND_NDRANGE_KERNEL, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    /* The kernel first: freeing the command releases it and reads its arguments'
     * count. */
    c->kernel = k;
    atomic_fetch_add(&k->refcount, 1);
    c->args = rt_alloc(meta->nargs * sizeof *c->args);
    c->area = rt_alloc(meta->arg_area_bytes + 1);
    if (!c->args || !c->area) {
        rt_command_free(c);
        RT_FAIL(CL_OUT_OF_HOST_MEMORY);
    }
    int unset = 0;
    pthread_mutex_lock(&k->lock);
    memcpy(c->area, k->area, meta->arg_area_bytes);
    for (cl_uint i = 0; i < meta->nargs; i++) {
        c->args[i] = k->args[i];
        unset |= !k->args[i].set;
        if (c->args[i].mem)
            atomic_fetch_add(&c->args[i].mem->refcount, 1);
    }
    pthread_mutex_unlock(&k->lock);
    if (unset) {
        rt_command_free(c);
        RT_FAIL(CL_INVALID_KERNEL_ARGS);
    }
    for (cl_uint i = 0; i < meta->nargs; i++) {
        const rt_arg_meta *a = &meta->args[i];
        if (a->kind != RT_ARG_LOCAL || c->args[i].size <= a->local_max)
            continue;
        char msg[512];
        snprintf(msg, sizeof msg, "kernel '%s': __local argument %u ('%s') asks for %zu bytes; "
                 "the hardware built for it holds at most %zu", meta->name, i, a->name,
                 c->args[i].size, a->local_max);
        if (rt_verbose())
            fprintf(stderr, "clhls: %s\n", msg);
        if (q->context->notify)
            q->context->notify(msg, NULL, 0, q->context->notify_data);
        rt_command_free(c);
        RT_FAIL(CL_OUT_OF_RESOURCES);
    }
    c->work_dim = dim;
    for (cl_uint i = 0; i < 3; i++) {
        c->global[i] = i < dim ? global[i] : 1;
        c->local[i] = i < dim ? loc[i] : 1;
        c->offset3[i] = i < dim && offset ? offset[i] : 0;
    }
    return rt_command_submit(c, 0, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n,
                                 const cl_event *list, cl_event *event)
{
    size_t one = 1;
    return clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, n, list, event);
}

static uint64_t watchdog_cycles(void)
{
    const char *s = getenv("CLHLS_WATCHDOG_CYCLES");
    if (s && *s) {
        unsigned long long v = strtoull(s, NULL, 0);
        if (v)
            return v;
    }
    return RT_DEFAULT_WATCHDOG_CYCLES;
}

/* Formats what the work-items printed (the buffer at addr on d) to stdout, then frees
 * the buffer. */
static void print_output(cl_device_id d, const rt_printf_meta *pm, const char *name,
                         uint64_t addr, const uint64_t global[3], const uint64_t offset[3])
{
    unsigned char header[8];
    size_t room = pm->buffer_bytes - pm->header_bytes;
    unsigned char *data = NULL;
    if (d->ops->read(d->impl, addr, header, sizeof header) == RT_DEV_OK) {
        uint64_t claimed = (uint64_t)header[0] | (uint64_t)header[1] << 8 |
                           (uint64_t)header[2] << 16 | (uint64_t)header[3] << 24;
        size_t len = claimed < room ? (size_t)claimed : room;
        data = rt_alloc(len + 1);
        if (!data || (len && d->ops->read(d->impl, addr + pm->header_bytes, data, len) !=
                                 RT_DEV_OK) ||
            rt_printf_output(pm, name, data, len, claimed, global, offset))
            fprintf(stderr, "clhls: kernel '%s': its printf output could not be read\n",
                    name);
    }
    rt_free(data);
    d->ops->free(d->impl, addr);
}

/* A kernel command between its start on the device and its end. */
struct rt_kernel_run {
    rt_command *c;              /* the command */
    cl_device_id d;             /* its device */
    int di;                     /* the device's index in the context */
    uint32_t *regs;             /* the argument area's registers ... */
    uint64_t *vals;             /* ... and values */
    uint64_t *cvals;            /* counter values (the result's array) */
    rt_counter_value *counters; /* named counters (go to the event) */
    rt_launch_buffer *buffers;  /* the buffers the kernel was given */
    uint64_t pbuf;              /* its printf buffer, 0 when none */
    rt_kernel_launch l;         /* the launch */
    rt_kernel_result r;         /* its outcome */
};

static void run_free(rt_kernel_run *run)
{
    rt_free(run->regs);
    rt_free(run->vals);
    rt_free(run->cvals);
    rt_free(run->counters);
    rt_free(run->buffers);
    rt_free(run);
}

rt_device_program *rt_kernel_model(const rt_command *c)
{
    cl_command_queue q = c->event->queue;
    int di = rt_context_device_index(q->context, q->device);
    return c->kernel->program->builds[di].model;
}

unsigned rt_kernel_unit(const rt_command *c)
{
    return (unsigned)(c->kernel->meta - c->kernel->program->kernels);
}

cl_int rt_kernel_start(rt_command *c, rt_kernel_run **out)
{
    cl_event e = c->event;
    cl_command_queue q = e->queue;
    cl_device_id d = q->device;
    int di = rt_context_device_index(q->context, d);
    cl_kernel k = c->kernel;
    const rt_kernel_meta *meta = k->meta;
    rt_device_program *model = k->program->builds[di].model;
    *out = NULL;

    /* The argument area: the values set, then every buffer's device address. */
    size_t nwords = meta->arg_area_bytes / 8;
    rt_kernel_run *run = rt_alloc(sizeof *run);
    if (!run)
        return CL_OUT_OF_HOST_MEMORY;
    memset(run, 0, sizeof *run);
    run->c = c;
    run->d = d;
    run->di = di;
    run->regs = rt_alloc((nwords + 1) * sizeof *run->regs);
    run->vals = rt_alloc((nwords + 1) * sizeof *run->vals);
    run->cvals = rt_alloc((meta->ncounters + 1) * sizeof *run->cvals);
    run->counters = rt_alloc((meta->ncounters + 1) * sizeof *run->counters);
    run->buffers = rt_alloc((meta->nargs + 1) * sizeof *run->buffers);
    if (!run->regs || !run->vals || !run->cvals || !run->counters || !run->buffers) {
        run_free(run);
        return CL_OUT_OF_HOST_MEMORY;
    }
    memset(run->cvals, 0, (meta->ncounters + 1) * sizeof *run->cvals); /* a start that
                                                                           fails reads none */
    rt_launch_buffer *buffers = run->buffers;
    unsigned nbuffers = 0;
    /* printf: a zeroed buffer of its own for this NDRange, the hidden argument. */
    const rt_printf_meta *pm = meta->printf;
    if (pm) {
        static const unsigned char zero = 0;
        int prc = d->ops->alloc(d->impl, pm->buffer_bytes, &run->pbuf);
        if (prc == RT_DEV_OK &&
            d->ops->fill(d->impl, run->pbuf, &zero, 1, pm->buffer_bytes) != RT_DEV_OK) {
            d->ops->free(d->impl, run->pbuf);
            prc = RT_DEV_ERROR;
        }
        if (prc != RT_DEV_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "kernel '%s': no device memory for its printf buffer "
                     "(%zu bytes)", meta->name, pm->buffer_bytes);
            fprintf(stderr, "clhls: %s\n", msg);
            if (q->context->notify)
                q->context->notify(msg, NULL, 0, q->context->notify_data);
            run_free(run);
            return CL_OUT_OF_RESOURCES;
        }
        put_le64(c->area + pm->arg_offset, run->pbuf);
        buffers[nbuffers++] =
            (rt_launch_buffer){run->pbuf, pm->buffer_bytes, "printf buffer", -1};
    }
    for (cl_uint i = 0; i < meta->nargs; i++) {
        const rt_arg_meta *a = &meta->args[i];
        cl_mem m = c->args[i].mem;
        if (a->kind != RT_ARG_BUFFER)
            continue;
        if (m) {
            rt_mem_acquire(m, di);
            buffers[nbuffers++] = (rt_launch_buffer){m->addr[di], m->size, a->name, (int)i};
        }
        put_le64(c->area + a->offset, m ? m->addr[di] : 0);
    }
    for (size_t w = 0; w < nwords; w++) {
        run->regs[w] = meta->arg_area_reg + (uint32_t)w;
        run->vals[w] = get_le64(c->area + 8 * w);
    }
    rt_kernel_launch *l = &run->l;
    l->name = meta->name;
    l->regs = &meta->regs;
    l->work_dim = c->work_dim;
    for (int i = 0; i < 3; i++) {
        l->global[i] = c->global[i];
        l->local[i] = c->local[i];
        l->offset[i] = c->offset3[i];
        l->groups[i] = (c->global[i] + c->local[i] - 1) / c->local[i];
    }
    l->nargs = (unsigned)nwords;
    l->arg_regs = run->regs;
    l->arg_values = run->vals;
    l->ncounters = meta->ncounters;
    l->counters = meta->counters;
    l->nprobes = meta->nprobes;
    l->probes = meta->probes;
    l->watchdog_cycles = watchdog_cycles();
    l->nbuffers = nbuffers;
    l->buffers = buffers;
    l->nlsus = meta->nlsus;
    l->lsus = meta->lsus;
    l->unit = rt_kernel_unit(c);
    run->r.counter_values = run->cvals;
    int rc = d->ops->kernel_start(d->impl, model, l, &run->r);
    if (rc != RT_DEV_OK)
        return rt_kernel_finish(run, rc, NULL);
    *out = run;
    return CL_SUCCESS;
}

void rt_kernel_cycles(const rt_kernel_run *run, uint64_t *start, uint64_t *end)
{
    *start = run->r.start_cycle;
    *end = run->r.end_cycle;
}

cl_int rt_kernel_finish(rt_kernel_run *run, int rc, uint64_t *ns)
{
    rt_command *c = run->c;
    cl_event e = c->event;
    cl_command_queue q = e->queue;
    cl_device_id d = run->d;
    int di = run->di;
    cl_kernel k = c->kernel;
    const rt_kernel_meta *meta = k->meta;
    const rt_printf_meta *pm = meta->printf;
    if (pm) /* what the work-items printed, even when the kernel failed */
        print_output(d, pm, meta->name, run->pbuf, run->l.global, run->l.offset);

    /* Buffers the kernel may have written: every non-const global buffer. */
    for (cl_uint i = 0; i < meta->nargs; i++) {
        const rt_arg_meta *a = &meta->args[i];
        if (a->kind == RT_ARG_BUFFER && c->args[i].mem &&
            !(a->type_qual & CL_KERNEL_ARG_TYPE_CONST) &&
            a->address != CL_KERNEL_ARG_ADDRESS_CONSTANT)
            rt_mem_written(c->args[i].mem, di);
    }
    uint64_t busy = run->r.cycles;
    rt_counter_value *counters = run->counters;
    for (unsigned i = 0; i < meta->ncounters; i++) {
        counters[i].name = meta->counters[i].name;
        counters[i].value = run->cvals[i];
        if (!strcmp(meta->counters[i].name, "busy_cycles"))
            busy = run->cvals[i];
    }
    e->counters = counters;
    e->ncounters = meta->ncounters;
    run->counters = NULL; /* the event's now */
    e->sim_cycles = run->r.cycles;
    rt_last_run_record(k->program->builds[di].entry_dir, d->board->name, &run->l, run->cvals,
                       run->r.cycles, rc == RT_DEV_OK); /* for `clhls report` */
    if (ns)
        *ns = (uint64_t)((double)busy * 1000.0 / d->board->clock_mhz);
    if (rt_verbose()) {
        fprintf(stderr, "clhls: kernel '%s' on %s: %" PRIu64 " cycles simulated",
                meta->name, d->board->name, run->r.cycles);
        for (unsigned i = 0; i < meta->ncounters; i++)
            fprintf(stderr, ", %s=%" PRIu64, counters[i].name, counters[i].value);
        fprintf(stderr, "\n");
    }
    cl_int status = CL_COMPLETE;
    if (rc != RT_DEV_OK) {
        fprintf(stderr, "clhls: %s\n", run->r.message);
        cl_context ctx = q->context;
        if (ctx->notify)
            ctx->notify(run->r.message, NULL, 0, ctx->notify_data);
        status = CL_OUT_OF_RESOURCES;
    }
    run_free(run);
    return status;
}
