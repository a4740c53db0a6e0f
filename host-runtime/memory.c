/* The entry points of memory objects: buffers (creation with host pointers,
 * sub-buffers), pipes, queries, destructor callbacks, and the buffer commands (read,
 * write, copy, fill, their rectangular forms, map, unmap, migrate), which are validated
 * here and handed to the scheduler (sched.c); the memory executor (exec_mem.c) places
 * buffers on the devices and runs the commands. A map of a CL_MEM_USE_HOST_PTR buffer
 * returns the host pointer itself; a CL_MEM_ALLOC_HOST_PTR buffer owns host memory of
 * its size that every map points into (the same address each time), filled by the map
 * and written back by the unmap. The CL_MEM_HOST_* flags forbid reads, writes and maps
 * from the host; sub-buffers inherit them unless they name their own. Intel's
 * CL_CHANNEL_n_INTELFPGA flags put a buffer into memory port n - 1 of its devices (a
 * sub-buffer lies in its parent's and reports the parent's channel). A pipe is a FIFO
 * in the hardware between the writing and the reading kernel of one program, joined
 * when the program was built (by the pipe argument's name); its cl_mem has no device
 * memory, only a packet size (which clSetKernelArg checks against the argument's) and a
 * capacity, and every buffer command refuses it (CL_INVALID_MEM_OBJECT). */
#include <string.h>

#include "rt.h"

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
                               CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                               RT_MEM_CHANNEL_MASK;
    RT_CHECK_OBJ(!(flags & ~known), CL_INVALID_VALUE);
    /* Intel's CL_CHANNEL_n_INTELFPGA: memory port n - 1 of every device (0: the round
     * robin). */
    unsigned channel = (unsigned)((flags & RT_MEM_CHANNEL_MASK) >> RT_MEM_CHANNEL_SHIFT);
    for (cl_uint i = 0; i < c->ndevices; i++)
        RT_CHECK_OBJ(channel <= c->devices[i]->board->mem_ports, CL_INVALID_VALUE);
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
    void *alloc_host = (flags & CL_MEM_ALLOC_HOST_PTR) ? rt_alloc(size) : NULL;
    if (!m || !addr || ((flags & CL_MEM_ALLOC_HOST_PTR) && !alloc_host)) {
        rt_free(m);
        rt_free(addr);
        rt_free(alloc_host);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    if (rt_mem_place(c, size, (int)channel - 1, host_ptr, addr) != 0) {
        rt_free(addr);
        rt_free(alloc_host);
        rt_free(m);
        RT_FAIL_OBJ(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    rt_object_init(&m->obj, RT_MAGIC_MEM);
    m->context = c;
    rt_retain(c);
    m->flags = flags;
    m->size = size;
    m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : NULL;
    m->alloc_host = alloc_host;
    m->addr = addr;
    m->valid_dev = 0;
    pthread_mutex_init(&m->lock, NULL);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

/* OpenCL itself defines no buffer property (only extensions the devices lack do), so a
 * list may only be empty: {0}. It is kept for CL_MEM_PROPERTIES. */
cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context c, const cl_mem_properties *props,
                                                cl_mem_flags flags, size_t size,
                                                void *host_ptr, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(!props || !props[0], CL_INVALID_PROPERTY);
    cl_mem_properties *copy = props ? rt_alloc(sizeof *copy) : NULL;
    RT_CHECK_OBJ(!props || copy, CL_OUT_OF_HOST_MEMORY);
    cl_mem m = clCreateBuffer(c, flags, size, host_ptr, errcode_ret);
    if (!m) {
        rt_free(copy);
        return NULL;
    }
    m->props = copy; /* the terminator, zeroed by rt_alloc */
    m->nprops = props ? 1 : 0;
    return m;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags,
                                     cl_buffer_create_type type, const void *info,
                                     cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_buffer(parent) && !parent->parent, CL_INVALID_MEM_OBJECT);
    RT_CHECK_OBJ(type == CL_BUFFER_CREATE_TYPE_REGION && info, CL_INVALID_VALUE);
    RT_CHECK_OBJ(!(flags & ~(access_flags | host_flags | RT_MEM_CHANNEL_MASK)),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(at_most_one(flags & access_flags) && at_most_one(flags & host_flags),
                 CL_INVALID_VALUE);
    /* It lives in its parent's memory port: it may only name the parent's channel. */
    RT_CHECK_OBJ(!(flags & RT_MEM_CHANNEL_MASK) ||
                 (flags & RT_MEM_CHANNEL_MASK) == (parent->flags & RT_MEM_CHANNEL_MASK),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((parent->flags & CL_MEM_WRITE_ONLY) &&
                   (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((parent->flags & CL_MEM_READ_ONLY) &&
                   (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))), CL_INVALID_VALUE);
    /* Host access can only be narrowed. */
    RT_CHECK_OBJ(!((parent->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((parent->flags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((parent->flags & CL_MEM_HOST_NO_ACCESS) &&
                   (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))),
                 CL_INVALID_VALUE);
    const cl_buffer_region *reg = info;
    RT_CHECK_OBJ(reg->size > 0, CL_INVALID_BUFFER_SIZE);
    RT_CHECK_OBJ(reg->origin <= parent->size && reg->size <= parent->size - reg->origin,
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(reg->origin % HLS_BUFFER_ALIGN == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET);
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
    flags |= parent->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                              RT_MEM_CHANNEL_MASK);
    rt_object_init(&m->obj, RT_MAGIC_MEM);
    m->context = c;
    rt_retain(c);
    m->flags = flags;
    m->size = reg->size;
    m->host_ptr = parent->host_ptr ? (char *)parent->host_ptr + reg->origin : NULL;
    m->parent = parent;
    rt_retain(parent);
    m->origin = reg->origin;
    m->addr = addr;
    m->valid_dev = -1;
    pthread_mutex_init(&m->lock, NULL);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

/* A pipe: no device memory. Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS may be
 * given; 0 means both, and a missing access flag means CL_MEM_READ_WRITE as for a
 * buffer (CL_MEM_FLAGS reports the result). OpenCL defines no pipe property, so a
 * property list may only be empty ({0}, kept for CL_PIPE_PROPERTIES). */
cl_mem CL_API_CALL clCreatePipe(cl_context c, cl_mem_flags flags, cl_uint packet_size,
                                cl_uint max_packets, const cl_pipe_properties *props,
                                cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(!(flags & ~(cl_mem_flags)(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)),
                 CL_INVALID_VALUE);
    RT_CHECK_OBJ(!props || !props[0], CL_INVALID_VALUE);
    /* Every device of the context reports RT_PIPE_MAX_PACKET_SIZE. */
    RT_CHECK_OBJ(packet_size > 0 && packet_size <= RT_PIPE_MAX_PACKET_SIZE,
                 CL_INVALID_PIPE_SIZE);
    RT_CHECK_OBJ(max_packets > 0, CL_INVALID_PIPE_SIZE);
    if (!flags)
        flags = CL_MEM_HOST_NO_ACCESS;
    flags |= CL_MEM_READ_WRITE;
    cl_mem m = rt_alloc(sizeof *m);
    RT_CHECK_OBJ(m, CL_OUT_OF_HOST_MEMORY);
    rt_object_init(&m->obj, RT_MAGIC_MEM);
    m->context = c;
    rt_retain(c);
    m->flags = flags;
    m->size = (size_t)packet_size * max_packets;
    m->valid_dev = -1;
    m->pipe_packet_size = packet_size;
    m->pipe_max_packets = max_packets;
    m->pipe_props = props != NULL;
    pthread_mutex_init(&m->lock, NULL);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem m, cl_pipe_info name, size_t size, void *value,
                                 size_t *size_ret)
{
    RT_CHECK(rt_valid_mem(m) && rt_mem_is_pipe(m), CL_INVALID_MEM_OBJECT);
    static const cl_pipe_properties none = 0;
    switch (name) {
    case CL_PIPE_PACKET_SIZE:
        return rt_info(size, value, size_ret, &m->pipe_packet_size, sizeof m->pipe_packet_size);
    case CL_PIPE_MAX_PACKETS:
        return rt_info(size, value, size_ret, &m->pipe_max_packets, sizeof m->pipe_max_packets);
    case CL_PIPE_PROPERTIES: /* size 0 unless clCreatePipe had a list, which was {0} */
        return rt_info(size, value, size_ret, &none, m->pipe_props ? sizeof none : 0);
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

cl_int CL_API_CALL clRetainMemObject(cl_mem m)
{
    return rt_api_retain(__func__, m, RT_MAGIC_MEM, CL_INVALID_MEM_OBJECT);
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem m)
{
    return rt_api_release(__func__, m, RT_MAGIC_MEM, CL_INVALID_MEM_OBJECT);
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
    cl_bool b;
    cl_mem_object_type t = rt_mem_is_pipe(m) ? CL_MEM_OBJECT_PIPE : CL_MEM_OBJECT_BUFFER;
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
        u = rt_refcount(m);
        return rt_info(size, value, size_ret, &u, sizeof u);
    case CL_MEM_CONTEXT: return rt_info(size, value, size_ret, &m->context, sizeof m->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        return rt_info(size, value, size_ret, &m->parent, sizeof m->parent);
    case CL_MEM_OFFSET: return rt_info(size, value, size_ret, &m->origin, sizeof m->origin);
    case CL_MEM_USES_SVM_POINTER: /* the devices have no shared virtual memory */
        b = CL_FALSE;
        return rt_info(size, value, size_ret, &b, sizeof b);
    case CL_MEM_PROPERTIES: /* size 0 unless clCreateBufferWithProperties had a list */
        return rt_info(size, value, size_ret, m->props, m->nprops * sizeof *m->props);
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

/* ---- enqueue entry points ---- */

/* Checks shared by buffer commands (a pipe is not a buffer). */
#define CHECK_QUEUE_MEM(q, m)                                                         \
    do {                                                                              \
        RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);                        \
        RT_CHECK(rt_valid_buffer(m), CL_INVALID_MEM_OBJECT);                          \
        RT_CHECK((m)->context == (q)->context, CL_INVALID_CONTEXT);                   \
    } while (0)

static int in_bounds(cl_mem m, size_t offset, size_t size)
{
    return offset <= m->size && size <= m->size - offset;
}

/* The wait list checked and host access not forbidden: a new command of kind on q for
 * m (retained) in *out. CL_SUCCESS, or the error. */
static cl_int buffer_command(cl_command_queue q, cl_mem m, rt_cmd_kind kind,
                             cl_command_type type, cl_mem_flags forbidden, cl_uint n,
                             const cl_event *list, rt_command **out)
{
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    RT_CHECK(!(m->flags & forbidden), CL_INVALID_OPERATION);
    rt_command *c = rt_command_new(q, kind, type, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    c->mem = m;
    rt_retain(m);
    *out = c;
    return CL_SUCCESS;
}

/* A new copy command of kind on q from src to dst (both retained); NULL when out of
 * memory. */
static rt_command *copy_command(cl_command_queue q, cl_mem src, cl_mem dst, rt_cmd_kind kind,
                                cl_command_type type, cl_uint n, const cl_event *list)
{
    rt_command *c = rt_command_new(q, kind, type, n, list);
    if (c) {
        c->mem = dst;
        rt_retain(dst);
        c->src = src;
        rt_retain(src);
    }
    return c;
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
    rt_command *c;
    cl_int rc = buffer_command(q, m, kind, type, forbidden, n, list, &c);
    if (rc != CL_SUCCESS)
        return rc;
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
    RT_CHECK(rt_valid_buffer(src) && rt_valid_buffer(dst), CL_INVALID_MEM_OBJECT);
    RT_CHECK(src->context == q->context && dst->context == q->context, CL_INVALID_CONTEXT);
    RT_CHECK(size && in_bounds(src, src_offset, size) && in_bounds(dst, dst_offset, size),
             CL_INVALID_VALUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    if (rt_mem_root(src) == rt_mem_root(dst)) {
        size_t s = src->origin + src_offset, d = dst->origin + dst_offset;
        RT_CHECK(s + size <= d || d + size <= s, CL_MEM_COPY_OVERLAP);
    }
    rt_command *c = copy_command(q, src, dst, RT_CMD_COPY, CL_COMMAND_COPY_BUFFER, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    c->offset = dst_offset;
    c->src_offset = src_offset;
    c->size = size;
    return rt_command_submit(c, 0, event);
}

/* ---- rectangular commands ---- */

/* Resolves one side of a rectangular command: zero pitches become tight, and the
 * pitches must hold a row and a slice. Sets the byte offset of the first row and, in
 * *end, one past the last byte touched. 0 on success, -1 when the pitches or the
 * origin are invalid (or the arithmetic overflows). */
static int rect_side(const size_t origin[3], const size_t region[3], size_t *row,
                     size_t *slice, size_t *offset, size_t *end)
{
    size_t tight;
    if (*row == 0)
        *row = region[0];
    if (*row < region[0] || __builtin_mul_overflow(region[1], *row, &tight))
        return -1;
    if (*slice == 0)
        *slice = tight;
    if (*slice < tight || *slice % *row != 0)
        return -1;
    size_t a, b, last_a, last_b;
    if (__builtin_mul_overflow(origin[2], *slice, &a) ||
        __builtin_mul_overflow(origin[1], *row, &b) ||
        __builtin_add_overflow(a, b, offset) ||
        __builtin_add_overflow(*offset, origin[0], offset) ||
        __builtin_mul_overflow(region[2] - 1, *slice, &last_a) ||
        __builtin_mul_overflow(region[1] - 1, *row, &last_b) ||
        __builtin_add_overflow(*offset, last_a, end) ||
        __builtin_add_overflow(*end, last_b, end) ||
        __builtin_add_overflow(*end, region[0], end))
        return -1;
    return 0;
}

/* The region of a rectangular command from the entry point's arguments: side 0 at
 * origin0 with its pitches, side 1 at origin1 with its. 0 with end[i] one past the last
 * byte each side touches, or -1 (rect_side). */
static int rect_resolve(rt_rect *r, const size_t region[3], const size_t origin0[3],
                        size_t row0, size_t slice0, const size_t origin1[3], size_t row1,
                        size_t slice1, size_t end[2])
{
    memcpy(r->region, region, sizeof r->region);
    r->row[0] = row0;
    r->slice[0] = slice0;
    r->row[1] = row1;
    r->slice[1] = slice1;
    if (rect_side(origin0, region, &r->row[0], &r->slice[0], &r->offset[0], &end[0]) ||
        rect_side(origin1, region, &r->row[1], &r->slice[1], &r->offset[1], &end[1]))
        return -1;
    return 0;
}

/* 1 when two regions of the same rows and slices, starting at byte a and b of one
 * buffer with their own pitches, share a byte. Both sides' rows ascend and do not
 * overlap each other (the pitches hold a row and a slice), so one merge-like sweep
 * over the rows answers exactly. */
static int rects_overlap(const size_t region[3], size_t a, size_t a_row, size_t a_slice,
                         size_t b, size_t b_row, size_t b_slice)
{
    size_t w = region[0], rows = region[1] * region[2];
    size_t a_end = a + (region[2] - 1) * a_slice + (region[1] - 1) * a_row + w;
    size_t b_end = b + (region[2] - 1) * b_slice + (region[1] - 1) * b_row + w;
    if (a_end <= b || b_end <= a)
        return 0;
    size_t i = 0, j = 0;
    while (i < rows && j < rows) {
        size_t ra = a + (i / region[1]) * a_slice + (i % region[1]) * a_row;
        size_t rb = b + (j / region[1]) * b_slice + (j % region[1]) * b_row;
        if (ra + w <= rb)
            i++;
        else if (rb + w <= ra)
            j++;
        else
            return 1;
    }
    return 0;
}

/* Read and write of a rectangle share everything but the direction. */
static cl_int enqueue_transfer_rect(cl_command_queue q, cl_mem m, rt_cmd_kind kind,
                                    cl_command_type type, cl_mem_flags forbidden,
                                    cl_bool blocking, const size_t *buffer_origin,
                                    const size_t *host_origin, const size_t *region,
                                    size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                                    cl_uint n, const cl_event *list, cl_event *event)
{
    CHECK_QUEUE_MEM(q, m);
    RT_CHECK(buffer_origin && host_origin && region && ptr, CL_INVALID_VALUE);
    RT_CHECK(region[0] && region[1] && region[2], CL_INVALID_VALUE);
    rt_rect r;
    size_t end[2];
    RT_CHECK(rect_resolve(&r, region, buffer_origin, buffer_row_pitch, buffer_slice_pitch,
                          host_origin, host_row_pitch, host_slice_pitch, end) == 0,
             CL_INVALID_VALUE);
    RT_CHECK(end[0] <= m->size, CL_INVALID_VALUE);
    rt_command *c;
    cl_int rc = buffer_command(q, m, kind, type, forbidden, n, list, &c);
    if (rc != CL_SUCCESS)
        return rc;
    c->ptr = ptr;
    c->rect = r;
    return rt_command_submit(c, blocking, event);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                           const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           void *ptr, cl_uint n, const cl_event *list,
                                           cl_event *event)
{
    return enqueue_transfer_rect(q, m, RT_CMD_READ_RECT, CL_COMMAND_READ_BUFFER_RECT,
                                 CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, blocking,
                                 buffer_origin, host_origin, region, buffer_row_pitch,
                                 buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, n,
                                 list, event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                            const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void *ptr, cl_uint n, const cl_event *list,
                                            cl_event *event)
{
    return enqueue_transfer_rect(q, m, RT_CMD_WRITE_RECT, CL_COMMAND_WRITE_BUFFER_RECT,
                                 CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, blocking,
                                 buffer_origin, host_origin, region, buffer_row_pitch,
                                 buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                                 (void *)ptr, n, list, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                           const size_t *src_origin, const size_t *dst_origin,
                                           const size_t *region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch,
                                           size_t dst_slice_pitch, cl_uint n,
                                           const cl_event *list, cl_event *event)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_CHECK(rt_valid_buffer(src) && rt_valid_buffer(dst), CL_INVALID_MEM_OBJECT);
    RT_CHECK(src->context == q->context && dst->context == q->context, CL_INVALID_CONTEXT);
    RT_CHECK(src_origin && dst_origin && region, CL_INVALID_VALUE);
    RT_CHECK(region[0] && region[1] && region[2], CL_INVALID_VALUE);
    rt_rect r;
    size_t end[2];
    RT_CHECK(rect_resolve(&r, region, dst_origin, dst_row_pitch, dst_slice_pitch, src_origin,
                          src_row_pitch, src_slice_pitch, end) == 0,
             CL_INVALID_VALUE);
    RT_CHECK(end[0] <= dst->size && end[1] <= src->size, CL_INVALID_VALUE);
    /* One buffer object: one layout for both rectangles. */
    RT_CHECK(src != dst || (r.row[0] == r.row[1] && r.slice[0] == r.slice[1]), CL_INVALID_VALUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    /* The same buffer, or sub-buffers of one buffer: compare where the rows really lie. */
    if (rt_mem_root(src) == rt_mem_root(dst))
        RT_CHECK(!rects_overlap(region, dst->origin + r.offset[0], r.row[0], r.slice[0],
                                src->origin + r.offset[1], r.row[1], r.slice[1]),
                 CL_MEM_COPY_OVERLAP);
    rt_command *c = copy_command(q, src, dst, RT_CMD_COPY_RECT, CL_COMMAND_COPY_BUFFER_RECT, n,
                                 list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    c->rect = r;
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
    rt_command *c;
    cl_int rc = buffer_command(q, m, RT_CMD_FILL, CL_COMMAND_FILL_BUFFER, 0, n, list, &c);
    if (rc != CL_SUCCESS)
        return rc;
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
    RT_CHECK_OBJ(rt_valid_buffer(m), CL_INVALID_MEM_OBJECT);
    RT_CHECK_OBJ(m->context == q->context, CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(size && in_bounds(m, offset, size), CL_INVALID_VALUE);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    RT_CHECK_OBJ(!(flags & ~known), CL_INVALID_VALUE);
    RT_CHECK_OBJ(!((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                   (flags & (CL_MAP_READ | CL_MAP_WRITE))),
                 CL_INVALID_VALUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    /* No flags: the region is mapped for reading and writing. */
    if (!flags)
        flags = CL_MAP_READ | CL_MAP_WRITE;
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
    mp->flags = flags;
    cl_mem r = rt_mem_root(m);
    if (m->host_ptr) {
        mp->ptr = (char *)m->host_ptr + offset;
    } else if (r->alloc_host) {
        mp->ptr = (char *)r->alloc_host + m->origin + offset;
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
    c->mem = m;
    rt_retain(m);
    c->offset = offset;
    c->size = size;
    c->mapping = mp;
    void *ptr = mp->ptr;
    rc = rt_command_submit(c, blocking, event);
    if (rc != CL_SUCCESS) {
        /* Not mapped: enqueueing failed (the command is gone), or a blocking map
         * failed (its command is finished and no longer uses the mapping). */
        if (mp->owned)
            rt_free(mp->ptr);
        rt_free(mp);
        RT_FAIL_OBJ(rc);
    }
    /* Registered only now: a mapping the host never received cannot be unmapped. */
    pthread_mutex_lock(&m->lock);
    mp->next = m->maps;
    m->maps = mp;
    m->map_count++;
    pthread_mutex_unlock(&m->lock);
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
    rt_retain(m);
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
        RT_CHECK(rt_valid_buffer(mems[i]), CL_INVALID_MEM_OBJECT); /* no pipe: no storage */
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
        rt_retain(mems[i]);
    }
    c->nmems = nmems;
    c->migrate_flags = flags;
    return rt_command_submit(c, 0, event);
}
