/* Buffers: creation (with host pointers), sub-buffers, queries, and the buffer commands
 * (read, write, copy, fill, map, unmap, migrate) that the device workers execute.
 *
 * A buffer is allocated on every device of its context; the root buffer records which
 * device holds the newest data and migrates it (through the host) before a command on
 * another device uses it. CL_MEM_USE_HOST_PTR memory is written back from the device
 * after every command that may write the buffer, and a map of such a buffer returns the
 * host pointer itself. Transfers take host-link time on the device timeline. */
#include <string.h>

#include "rt.h"

int rt_valid_mem(cl_mem m) { return m && m->magic == RT_MAGIC_MEM; }

static cl_mem root_of(cl_mem m) { return m->parent ? m->parent : m; }

/* Device of the queue that runs c, as an index into the context's devices. */
static int queue_dev(cl_command_queue q) { return rt_context_device_index(q->context, q->device); }

static uint64_t transfer_ns(cl_device_id d, size_t bytes)
{
    const board_t *b = d->board;
    double ns = b->host_link_latency_us * 1000.0;
    if (b->host_link_gbps > 0)
        ns += (double)bytes / b->host_link_gbps;
    return (uint64_t)ns;
}

static uint64_t device_mem_ns(cl_device_id d, size_t bytes)
{
    const board_t *b = d->board;
    double gbps = b->mem_bandwidth_gbps * (b->mem_ports ? b->mem_ports : 1);
    return gbps > 0 ? (uint64_t)((double)bytes / gbps) : 0;
}

int rt_mem_acquire(cl_mem m, int di)
{
    cl_mem r = root_of(m);
    cl_context c = r->context;
    int rc = 0;
    pthread_mutex_lock(&r->lock);
    if (r->valid_dev >= 0 && r->valid_dev != di) {
        cl_device_id from = c->devices[r->valid_dev], to = c->devices[di];
        void *tmp = rt_alloc(r->size);
        if (!tmp ||
            from->ops->read(from->impl, r->addr[r->valid_dev], tmp, r->size) != RT_DEV_OK ||
            to->ops->write(to->impl, r->addr[di], tmp, r->size) != RT_DEV_OK)
            rc = -1;
        else
            r->valid_dev = di;
        rt_free(tmp);
    }
    pthread_mutex_unlock(&r->lock);
    return rc;
}

void rt_mem_written(cl_mem m, int di)
{
    cl_mem r = root_of(m);
    cl_device_id d = r->context->devices[di];
    pthread_mutex_lock(&r->lock);
    r->valid_dev = di;
    if (r->host_ptr)
        d->ops->read(d->impl, r->addr[di], r->host_ptr, r->size);
    pthread_mutex_unlock(&r->lock);
}

/* ---- creation and lifetime ---- */

static const cl_mem_flags access_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags host_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

static int at_most_one(cl_mem_flags f) { return (f & (f - 1)) == 0; }

cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size,
                                  void *host_ptr, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    const cl_mem_flags known = access_flags | host_flags | CL_MEM_USE_HOST_PTR |
                               CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
    RT_CHECK_OBJ(!(flags & ~known), CL_INVALID_VALUE);
    RT_CHECK_OBJ(at_most_one(flags & access_flags), CL_INVALID_VALUE);
    RT_CHECK_OBJ(at_most_one(flags & host_flags), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((flags & CL_MEM_USE_HOST_PTR) &&
                   (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(size > 0, CL_INVALID_BUFFER_SIZE);
    for (cl_uint i = 0; i < c->ndevices; i++)
        RT_CHECK_OBJ(size <= c->devices[i]->board->max_alloc_bytes, CL_INVALID_BUFFER_SIZE);
    int wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    RT_CHECK_OBJ(wants_ptr == (host_ptr != NULL), CL_INVALID_HOST_PTR);
    if (!(flags & access_flags))
        flags |= CL_MEM_READ_WRITE;

    cl_mem m = rt_alloc(sizeof *m);
    uint64_t *addr = rt_alloc(c->ndevices * sizeof *addr);
    if (!m || !addr) {
        rt_free(m);
        rt_free(addr);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    cl_uint done = 0;
    for (; done < c->ndevices; done++) {
        cl_device_id d = c->devices[done];
        if (d->ops->alloc(d->impl, size, &addr[done]) != RT_DEV_OK)
            break;
    }
    int ok = done == c->ndevices;
    if (ok && host_ptr) {
        cl_device_id d = c->devices[0];
        ok = d->ops->write(d->impl, addr[0], host_ptr, size) == RT_DEV_OK;
    }
    if (!ok) {
        for (cl_uint i = 0; i < done; i++)
            c->devices[i]->ops->free(c->devices[i]->impl, addr[i]);
        rt_free(addr);
        rt_free(m);
        RT_FAIL_OBJ(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    m->dispatch = &rt_dispatch;
    m->magic = RT_MAGIC_MEM;
    atomic_init(&m->refcount, 1);
    m->context = c;
    atomic_fetch_add(&c->refcount, 1);
    m->flags = flags;
    m->size = size;
    m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : NULL;
    m->addr = addr;
    m->valid_dev = 0;
    pthread_mutex_init(&m->lock, NULL);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags,
                                     cl_buffer_create_type type, const void *info,
                                     cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_mem(parent) && !parent->parent, CL_INVALID_MEM_OBJECT);
    RT_CHECK_OBJ(type == CL_BUFFER_CREATE_TYPE_REGION && info, CL_INVALID_VALUE);
    RT_CHECK_OBJ(!(flags & ~(access_flags | host_flags)), CL_INVALID_VALUE);
    RT_CHECK_OBJ(at_most_one(flags & access_flags) && at_most_one(flags & host_flags),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((parent->flags & CL_MEM_WRITE_ONLY) &&
                   (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((parent->flags & CL_MEM_READ_ONLY) &&
                   (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))), CL_INVALID_VALUE);
    const cl_buffer_region *reg = info;
    RT_CHECK_OBJ(reg->size > 0, CL_INVALID_BUFFER_SIZE);
    RT_CHECK_OBJ(reg->origin <= parent->size && reg->size <= parent->size - reg->origin,
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(reg->origin % 4096 == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cl_context c = parent->context;
    cl_mem m = rt_alloc(sizeof *m);
    uint64_t *addr = rt_alloc(c->ndevices * sizeof *addr);
    if (!m || !addr) {
        rt_free(m);
        rt_free(addr);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    for (cl_uint i = 0; i < c->ndevices; i++)
        addr[i] = parent->addr[i] + reg->origin;
    if (!(flags & access_flags))
        flags |= parent->flags & access_flags;
    if (!(flags & host_flags))
        flags |= parent->flags & host_flags;
    flags |= parent->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    m->dispatch = &rt_dispatch;
    m->magic = RT_MAGIC_MEM;
    atomic_init(&m->refcount, 1);
    m->context = c;
    atomic_fetch_add(&c->refcount, 1);
    m->flags = flags;
    m->size = reg->size;
    m->host_ptr = parent->host_ptr ? (char *)parent->host_ptr + reg->origin : NULL;
    m->parent = parent;
    atomic_fetch_add(&parent->refcount, 1);
    m->origin = reg->origin;
    m->addr = addr;
    m->valid_dev = -1;
    pthread_mutex_init(&m->lock, NULL);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem m)
{
    RT_CHECK(rt_valid_mem(m), CL_INVALID_MEM_OBJECT);
    atomic_fetch_add(&m->refcount, 1);
    return CL_SUCCESS;
}

void rt_mem_release(cl_mem m)
{
    if (atomic_fetch_sub(&m->refcount, 1) != 1)
        return;
    while (m->callbacks) {
        rt_mem_cb *cb = m->callbacks;
        m->callbacks = cb->next;
        cb->fn(m, cb->data);
        rt_free(cb);
    }
    m->magic = RT_MAGIC_DEAD;
    cl_context c = m->context;
    if (!m->parent)
        for (cl_uint i = 0; i < c->ndevices; i++)
            c->devices[i]->ops->free(c->devices[i]->impl, m->addr[i]);
    while (m->maps) {
        rt_mapping *mp = m->maps;
        m->maps = mp->next;
        if (mp->owned)
            rt_free(mp->ptr);
        rt_free(mp);
    }
    if (m->parent)
        rt_mem_release(m->parent);
    pthread_mutex_destroy(&m->lock);
    rt_free(m->addr);
    rt_free(m);
    rt_context_release(c);
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem m)
{
    RT_CHECK(rt_valid_mem(m), CL_INVALID_MEM_OBJECT);
    rt_mem_release(m);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m,
                                                    void (CL_CALLBACK *fn)(cl_mem, void *),
                                                    void *data)
{
    RT_CHECK(rt_valid_mem(m), CL_INVALID_MEM_OBJECT);
    RT_CHECK(fn, CL_INVALID_VALUE);
    rt_mem_cb *cb = rt_alloc(sizeof *cb);
    RT_CHECK(cb, CL_OUT_OF_HOST_MEMORY);
    cb->fn = fn;
    cb->data = data;
    pthread_mutex_lock(&m->lock);
    cb->next = m->callbacks; /* called in reverse order of registration */
    m->callbacks = cb;
    pthread_mutex_unlock(&m->lock);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info name, size_t size, void *value,
                                      size_t *size_ret)
{
    RT_CHECK(rt_valid_mem(m), CL_INVALID_MEM_OBJECT);
    cl_uint u;
    cl_mem_object_type t = CL_MEM_OBJECT_BUFFER;
    void *p;
    switch (name) {
    case CL_MEM_TYPE: return rt_info(size, value, size_ret, &t, sizeof t);
    case CL_MEM_FLAGS: return rt_info(size, value, size_ret, &m->flags, sizeof m->flags);
    case CL_MEM_SIZE: return rt_info(size, value, size_ret, &m->size, sizeof m->size);
    case CL_MEM_HOST_PTR:
        p = (m->flags & CL_MEM_USE_HOST_PTR) ? m->host_ptr : NULL;
        return rt_info(size, value, size_ret, &p, sizeof p);
    case CL_MEM_MAP_COUNT:
        pthread_mutex_lock(&m->lock);
        u = m->map_count;
        pthread_mutex_unlock(&m->lock);
        return rt_info(size, value, size_ret, &u, sizeof u);
    case CL_MEM_REFERENCE_COUNT:
        u = (cl_uint)atomic_load(&m->refcount);
        return rt_info(size, value, size_ret, &u, sizeof u);
    case CL_MEM_CONTEXT: return rt_info(size, value, size_ret, &m->context, sizeof m->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        return rt_info(size, value, size_ret, &m->parent, sizeof m->parent);
    case CL_MEM_OFFSET: return rt_info(size, value, size_ret, &m->origin, sizeof m->origin);
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c, cl_mem_flags flags,
                                              cl_mem_object_type type, cl_uint n,
                                              cl_image_format *formats, cl_uint *nret)
{
    RT_CHECK(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK(!(n == 0 && formats), CL_INVALID_VALUE);
    if (nret)
        *nret = 0; /* no image support */
    return CL_SUCCESS;
}

/* ---- execution of buffer commands (worker thread) ---- */

cl_int rt_mem_execute(rt_command *c, uint64_t *ns)
{
    cl_command_queue q = c->event->queue;
    cl_device_id d = q->device;
    int di = queue_dev(q);
    int rc = RT_DEV_OK;
    switch (c->kind) {
    case RT_CMD_READ:
        if (rt_mem_acquire(c->mem, di))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->read(d->impl, c->mem->addr[di] + c->offset, c->ptr, c->size);
        *ns = transfer_ns(d, c->size);
        break;
    case RT_CMD_WRITE:
        if (rt_mem_acquire(c->mem, di))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->write(d->impl, c->mem->addr[di] + c->offset, c->ptr, c->size);
        rt_mem_written(c->mem, di);
        *ns = transfer_ns(d, c->size);
        break;
    case RT_CMD_COPY:
        if (rt_mem_acquire(c->mem, di) || rt_mem_acquire(c->src, di))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->copy(d->impl, c->mem->addr[di] + c->offset,
                          c->src->addr[di] + c->src_offset, c->size);
        rt_mem_written(c->mem, di);
        *ns = device_mem_ns(d, 2 * c->size);
        break;
    case RT_CMD_FILL:
        if (rt_mem_acquire(c->mem, di))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->fill(d->impl, c->mem->addr[di] + c->offset, c->pattern, c->pattern_size,
                          c->size);
        rt_mem_written(c->mem, di);
        *ns = device_mem_ns(d, c->size);
        break;
    case RT_CMD_MAP:
        if (!(c->mapping->flags & CL_MAP_WRITE_INVALIDATE_REGION)) {
            if (rt_mem_acquire(c->mem, di))
                return CL_OUT_OF_RESOURCES;
            rc = d->ops->read(d->impl, c->mem->addr[di] + c->offset, c->mapping->ptr, c->size);
            *ns = transfer_ns(d, c->size);
        }
        break;
    case RT_CMD_UNMAP:
        if (c->mapping->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) {
            if (rt_mem_acquire(c->mem, di))
                rc = RT_DEV_ERROR;
            else
                rc = d->ops->write(d->impl, c->mem->addr[di] + c->mapping->offset,
                                   c->mapping->ptr, c->mapping->size);
            rt_mem_written(c->mem, di);
            *ns = transfer_ns(d, c->mapping->size);
        }
        if (c->mapping->owned)
            rt_free(c->mapping->ptr);
        rt_free(c->mapping);
        c->mapping = NULL;
        break;
    case RT_CMD_MIGRATE:
        for (cl_uint i = 0; i < c->nmems; i++)
            if (rt_mem_acquire(c->mems[i], di))
                rc = RT_DEV_ERROR;
        break;
    default:
        break;
    }
    return rc == RT_DEV_OK ? CL_COMPLETE : CL_OUT_OF_RESOURCES;
}

/* ---- enqueue entry points ---- */

/* Checks shared by buffer commands. */
#define CHECK_QUEUE_MEM(q, m)                                                         \
    do {                                                                              \
        RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);                        \
        RT_CHECK(rt_valid_mem(m), CL_INVALID_MEM_OBJECT);                             \
        RT_CHECK((m)->context == (q)->context, CL_INVALID_CONTEXT);                   \
    } while (0)

static int in_bounds(cl_mem m, size_t offset, size_t size)
{
    return offset <= m->size && size <= m->size - offset;
}

/* Read and write share everything but the direction and the host-access flags that
 * forbid it. */
static cl_int enqueue_transfer(cl_command_queue q, cl_mem m, rt_cmd_kind kind,
                               cl_command_type type, cl_mem_flags forbidden, cl_bool blocking,
                               size_t offset, size_t size, void *ptr, cl_uint n,
                               const cl_event *list, cl_event *event)
{
    CHECK_QUEUE_MEM(q, m);
    RT_CHECK(ptr && size && in_bounds(m, offset, size), CL_INVALID_VALUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    RT_CHECK(!(m->flags & forbidden), CL_INVALID_OPERATION);
    rt_command *c = rt_command_new(q, kind, type, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    c->mem = m;
    atomic_fetch_add(&m->refcount, 1);
    c->offset = offset;
    c->size = size;
    c->ptr = ptr;
    return rt_command_submit(c, blocking, event);
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                       size_t offset, size_t size, void *ptr, cl_uint n,
                                       const cl_event *list, cl_event *event)
{
    return enqueue_transfer(q, m, RT_CMD_READ, CL_COMMAND_READ_BUFFER,
                            CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, blocking, offset,
                            size, ptr, n, list, event);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                        size_t offset, size_t size, const void *ptr,
                                        cl_uint n, const cl_event *list, cl_event *event)
{
    return enqueue_transfer(q, m, RT_CMD_WRITE, CL_COMMAND_WRITE_BUFFER,
                            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, blocking, offset,
                            size, (void *)ptr, n, list, event);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                       size_t src_offset, size_t dst_offset, size_t size,
                                       cl_uint n, const cl_event *list, cl_event *event)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_CHECK(rt_valid_mem(src) && rt_valid_mem(dst), CL_INVALID_MEM_OBJECT);
    RT_CHECK(src->context == q->context && dst->context == q->context, CL_INVALID_CONTEXT);
    RT_CHECK(size && in_bounds(src, src_offset, size) && in_bounds(dst, dst_offset, size),
             CL_INVALID_VALUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    if (root_of(src) == root_of(dst)) {
        size_t s = src->origin + src_offset, d = dst->origin + dst_offset;
        RT_CHECK(s + size <= d || d + size <= s, CL_MEM_COPY_OVERLAP);
    }
    rt_command *c = rt_command_new(q, RT_CMD_COPY, CL_COMMAND_COPY_BUFFER, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    c->mem = dst;
    atomic_fetch_add(&dst->refcount, 1);
    c->src = src;
    atomic_fetch_add(&src->refcount, 1);
    c->offset = dst_offset;
    c->src_offset = src_offset;
    c->size = size;
    return rt_command_submit(c, 0, event);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint n, const cl_event *list, cl_event *event)
{
    CHECK_QUEUE_MEM(q, m);
    RT_CHECK(pattern && pattern_size && pattern_size <= 128 &&
                 !(pattern_size & (pattern_size - 1)),
             CL_INVALID_VALUE);
    RT_CHECK(offset % pattern_size == 0 && size % pattern_size == 0 &&
                 in_bounds(m, offset, size),
             CL_INVALID_VALUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    rt_command *c = rt_command_new(q, RT_CMD_FILL, CL_COMMAND_FILL_BUFFER, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    c->mem = m;
    atomic_fetch_add(&m->refcount, 1);
    c->offset = offset;
    c->size = size;
    memcpy(c->pattern, pattern, pattern_size);
    c->pattern_size = pattern_size;
    return rt_command_submit(c, 0, event);
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                     cl_map_flags flags, size_t offset, size_t size,
                                     cl_uint n, const cl_event *list, cl_event *event,
                                     cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_CHECK_OBJ(rt_valid_mem(m), CL_INVALID_MEM_OBJECT);
    RT_CHECK_OBJ(m->context == q->context, CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(size && in_bounds(m, offset, size), CL_INVALID_VALUE);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    RT_CHECK_OBJ(!(flags & ~known), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                   (flags & (CL_MAP_READ | CL_MAP_WRITE))),
                 CL_INVALID_VALUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    RT_CHECK_OBJ(!((flags & CL_MAP_READ) &&
                   (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))),
                 CL_INVALID_OPERATION);
    RT_CHECK_OBJ(!((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
                   (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))),
                 CL_INVALID_OPERATION);
    rt_mapping *mp = rt_alloc(sizeof *mp);
    RT_CHECK_OBJ(mp, CL_OUT_OF_HOST_MEMORY);
    mp->offset = offset;
    mp->size = size;
    mp->flags = flags ? flags : CL_MAP_READ | CL_MAP_WRITE;
    if (m->host_ptr) {
        mp->ptr = (char *)m->host_ptr + offset;
    } else {
        mp->ptr = rt_alloc(size);
        mp->owned = 1;
    }
    rt_command *c = mp->ptr ? rt_command_new(q, RT_CMD_MAP, CL_COMMAND_MAP_BUFFER, n, list)
                            : NULL;
    if (!c) {
        if (mp->owned)
            rt_free(mp->ptr);
        rt_free(mp);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    pthread_mutex_lock(&m->lock);
    mp->next = m->maps;
    m->maps = mp;
    m->map_count++;
    pthread_mutex_unlock(&m->lock);
    c->mem = m;
    atomic_fetch_add(&m->refcount, 1);
    c->offset = offset;
    c->size = size;
    c->mapping = mp;
    void *ptr = mp->ptr;
    rc = rt_command_submit(c, blocking, event);
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return ptr;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr, cl_uint n,
                                           const cl_event *list, cl_event *event)
{
    CHECK_QUEUE_MEM(q, m);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    rt_mapping *mp = NULL;
    pthread_mutex_lock(&m->lock);
    for (rt_mapping **link = &m->maps; *link; link = &(*link)->next) {
        if ((*link)->ptr == ptr) {
            mp = *link;
            *link = mp->next;
            m->map_count--;
            break;
        }
    }
    pthread_mutex_unlock(&m->lock);
    RT_CHECK(mp, CL_INVALID_VALUE);
    rt_command *c = rt_command_new(q, RT_CMD_UNMAP, CL_COMMAND_UNMAP_MEM_OBJECT, n, list);
    if (!c) {
        pthread_mutex_lock(&m->lock);
        mp->next = m->maps;
        m->maps = mp;
        m->map_count++;
        pthread_mutex_unlock(&m->lock);
        RT_FAIL(CL_OUT_OF_HOST_MEMORY);
    }
    c->mem = m;
    atomic_fetch_add(&m->refcount, 1);
    c->mapping = mp;
    return rt_command_submit(c, 0, event);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint nmems,
                                              const cl_mem *mems, cl_mem_migration_flags flags,
                                              cl_uint n, const cl_event *list, cl_event *event)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_CHECK(nmems && mems, CL_INVALID_VALUE);
    RT_CHECK(!(flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                                 CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)),
             CL_INVALID_VALUE);
    for (cl_uint i = 0; i < nmems; i++) {
        RT_CHECK(rt_valid_mem(mems[i]), CL_INVALID_MEM_OBJECT);
        RT_CHECK(mems[i]->context == q->context, CL_INVALID_CONTEXT);
    }
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    rt_command *c = rt_command_new(q, RT_CMD_MIGRATE, CL_COMMAND_MIGRATE_MEM_OBJECTS, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    c->mems = rt_alloc(nmems * sizeof *c->mems);
    if (!c->mems) {
        rt_command_free(c);
        RT_FAIL(CL_OUT_OF_HOST_MEMORY);
    }
    for (cl_uint i = 0; i < nmems; i++) {
        c->mems[i] = mems[i];
        atomic_fetch_add(&mems[i]->refcount, 1);
    }
    c->nmems = nmems;
    return rt_command_submit(c, 0, event);
}
