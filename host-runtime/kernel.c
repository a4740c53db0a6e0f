/* The entry points of kernels: creation from a built program (and clCloneKernel),
 * arguments (validated against metadata.json: buffers, values, __local sizes, pipes),
 * queries, and clEnqueueNDRangeKernel / clEnqueueTask, which check the NDRange against
 * the kernel and the device, snapshot the arguments into a kernel command and hand it
 * to the scheduler (sched.c). The kernel executor (exec_kernel.c) runs it on the
 * device. */
#include <stdio.h>
#include <string.h>

#include "rt.h"


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
    rt_object_init(&k->obj, RT_MAGIC_KERNEL);
    k->program = p;
    rt_retain(p);
    atomic_fetch_add(&p->kernel_objs, 1);
    k->meta = meta;
    k->args = args;
    k->area = area;
    pthread_mutex_init(&k->lock, NULL);
    return k;
}

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_program(p), CL_INVALID_PROGRAM);
    RT_CHECK_OBJ(name, CL_INVALID_VALUE);
    pthread_mutex_lock(&p->lock);
    int built = rt_program_built(p);
    const rt_kernel_meta *meta = NULL;
    for (cl_uint i = 0; built && i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, name) && !p->kernels[i].autorun)
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
    int built = rt_program_built(p);
    cl_uint nk = rt_program_host_kernels(p);
    cl_int rc = CL_SUCCESS;
    if (!built)
        rc = CL_INVALID_PROGRAM_EXECUTABLE;
    else if (kernels && n < nk)
        rc = CL_INVALID_VALUE;
    for (cl_uint i = 0, made = 0; rc == CL_SUCCESS && kernels && i < p->nkernels; i++) {
        if (p->kernels[i].autorun)
            continue;
        kernels[made] = kernel_new(p, &p->kernels[i]);
        if (!kernels[made]) {
            rc = CL_OUT_OF_HOST_MEMORY;
            pthread_mutex_unlock(&p->lock);
            for (cl_uint j = 0; j < made; j++)
                rt_release(kernels[j]);
            pthread_mutex_lock(&p->lock);
        }
        made++;
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
    return rt_api_retain(__func__, k, RT_MAGIC_KERNEL, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel k)
{
    return rt_api_release(__func__, k, RT_MAGIC_KERNEL, CL_INVALID_KERNEL);
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
        RT_CHECK(!v.mem || !rt_mem_is_pipe(v.mem), CL_INVALID_ARG_VALUE); /* not a buffer */
        break;
    case RT_ARG_PIPE: /* a pipe object (never NULL) whose packets are the argument's
                         (any packet size when the kernel does not use the pipe) */
        RT_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
        RT_CHECK(value, CL_INVALID_ARG_VALUE);
        v.mem = *(const cl_mem *)value;
        RT_CHECK(rt_valid_mem(v.mem), CL_INVALID_MEM_OBJECT);
        RT_CHECK(v.mem->context == k->program->context, CL_INVALID_MEM_OBJECT);
        RT_CHECK(rt_mem_is_pipe(v.mem), CL_INVALID_ARG_VALUE);
        RT_CHECK(!a->size || v.mem->pipe_packet_size == a->size, CL_INVALID_ARG_VALUE);
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
    /* The kernel does not retain a buffer or pipe argument (a memory object the program
     * releases is destroyed, and its destructor callback runs); an enqueued NDRange
     * retains its snapshot of the arguments until the command completes. A pipe writes
     * nothing into the argument area: its FIFO was connected when the program was
     * built. */
    pthread_mutex_lock(&k->lock);
    k->args[index] = v;
    if (a->kind == RT_ARG_SCALAR)
        memcpy(k->area + a->offset, value, size);
    else if (a->kind == RT_ARG_LOCAL)
        rt_put_le64(k->area + a->offset, size);
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
        u = rt_refcount(k);
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

/* Checks an NDRange of k on d with work-items (global sizes all non-zero) and resolves
 * its local size into loc (given, required by the kernel, or picked). CL_SUCCESS, or
 * the specification's error. */
static cl_int ndrange_geometry(cl_kernel k, cl_device_id d, cl_uint dim, const size_t *offset,
                               const size_t *global, const size_t *local, size_t loc[3])
{
    /* The hardware counts work-items in the board's index width. */
    unsigned index_bits = d->board->work_item_index_bits;
    uint64_t max_index = index_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << index_bits) - 1;
    for (cl_uint i = 0; i < dim; i++) {
        RT_CHECK(global[i] <= max_index, CL_INVALID_GLOBAL_WORK_SIZE);
        RT_CHECK(!offset || offset[i] <= max_index - global[i], CL_INVALID_GLOBAL_OFFSET);
    }
    const rt_kernel_meta *meta = k->meta;
    size_t max_wg = kernel_max_wg(k, d);
    size_t max_item = d->board->max_work_group_size;
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
        for (cl_uint i = 0; i < 3; i++) { /* a required size beyond work_dim: no launch has it */
            RT_CHECK(i < dim || meta->reqd_wg[i] <= 1, CL_INVALID_WORK_GROUP_SIZE);
            if (i < dim)
                loc[i] = meta->reqd_wg[i];
            RT_CHECK(i >= dim || !meta->uniform_wg || global[i] % loc[i] == 0,
                     CL_INVALID_WORK_GROUP_SIZE);
        }
    } else {
        pick_local(global, dim, max_wg, max_item, loc);
    }
    /* SIMD lanes: the hardware runs global / simd work-items of dimension 0 from offset /
     * simd (the required local size is a multiple of simd; a non-uniform last group may
     * not be) */
    RT_CHECK(meta->simd <= 1 || global[0] % meta->simd == 0, CL_INVALID_GLOBAL_WORK_SIZE);
    RT_CHECK(meta->simd <= 1 || !offset || offset[0] % meta->simd == 0, CL_INVALID_GLOBAL_OFFSET);
    return CL_SUCCESS;
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
    size_t loc[3] = {1, 1, 1};
    cl_int rc = ndrange_geometry(k, q->device, dim, offset, global, local, loc);
    if (rc != CL_SUCCESS)
        return rc;
    const rt_kernel_meta *meta = k->meta;
    rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);

    rt_command *c = rt_command_new(q, RT_CMD_KERNEL, CL_COMMAND_NDRANGE_KERNEL, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    /* The kernel first: freeing the command releases it and reads its arguments'
     * count. */
    c->kernel = k;
    rt_retain(k);
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
            rt_retain(c->args[i].mem);
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
