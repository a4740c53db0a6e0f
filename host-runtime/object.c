/* The base every other file of the runtime stands on: the common header of the OpenCL
 * objects (rt_object: the ICD dispatch pointer, a magic number per kind, a reference
 * count), their validation, retain and release, and the destruction of each kind when
 * its last reference goes, in one place whoever holds that reference (the program, an
 * object that retains another, a command the device's worker just finished). Also the
 * runtime-wide lock and condition of the event graph, and the small lookups that entry
 * points, scheduler and executors share (a device's index in a context, a buffer's root,
 * wait lists). Nothing here calls a file above it; destroying a buffer or a program
 * frees its device memory or unloads its model through the device operations. */
#include "rt.h"

pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t rt_cond = PTHREAD_COND_INITIALIZER;

void rt_object_init(rt_object *o, uint32_t magic)
{
    o->dispatch = &rt_dispatch;
    o->magic = magic;
    atomic_init(&o->refcount, 1);
}

int rt_valid_object(const void *o, uint32_t magic)
{
    return o && ((const rt_object *)o)->magic == magic;
}

void rt_retain(void *o) { atomic_fetch_add(&((rt_object *)o)->refcount, 1); }

cl_uint rt_refcount(const void *o)
{
    return (cl_uint)atomic_load(&((const rt_object *)o)->refcount);
}

/* ---- destruction, one function per kind (the last reference is gone) ---- */

static void context_destroy(cl_context c)
{
    c->obj.magic = RT_MAGIC_DEAD;
    /* Nothing holds the context any more: nobody else can register a callback. */
    while (c->destructors) {
        rt_context_cb *cb = c->destructors;
        c->destructors = cb->next;
        cb->fn(c, cb->data);
        rt_free(cb);
    }
    rt_free(c->devices);
    rt_free(c->props);
    rt_free(c);
}

static void queue_destroy(cl_command_queue q)
{
    /* No command holds the queue any more, so its bookkeeping is empty or stale. */
    pthread_mutex_lock(&rt_lock);
    cl_event last = q->last, barrier = q->barrier;
    cl_event *since = q->since_barrier;
    size_t nsince = q->nsince;
    q->last = q->barrier = NULL;
    q->since_barrier = NULL;
    q->nsince = 0;
    pthread_mutex_unlock(&rt_lock);
    if (last)
        rt_release(last);
    if (barrier)
        rt_release(barrier);
    for (size_t i = 0; i < nsince; i++)
        rt_release(since[i]);
    rt_free(since);
    q->obj.magic = RT_MAGIC_DEAD;
    cl_context c = q->context;
    rt_free(q->props_array);
    rt_free(q);
    rt_release(c);
}

static void mem_destroy(cl_mem m)
{
    while (m->callbacks) {
        rt_mem_cb *cb = m->callbacks;
        m->callbacks = cb->next;
        cb->fn(m, cb->data);
        rt_free(cb);
    }
    m->obj.magic = RT_MAGIC_DEAD;
    cl_context c = m->context;
    if (!m->parent && !rt_mem_is_pipe(m)) /* a pipe has no device memory */
        for (cl_uint i = 0; i < c->ndevices; i++)
            c->devices[i]->ops->free(c->devices[i]->impl, m->addr[i]);
    while (m->maps) {
        rt_mapping *mp = m->maps;
        m->maps = mp->next;
        if (mp->owned)
            rt_free(mp->ptr);
        rt_free(mp);
    }
    rt_free(m->alloc_host);
    rt_free(m->props);
    if (m->parent)
        rt_release(m->parent);
    pthread_mutex_destroy(&m->lock);
    rt_free(m->addr);
    rt_free(m);
    rt_release(c);
}

static void program_destroy(cl_program p)
{
    p->obj.magic = RT_MAGIC_DEAD;
    cl_context c = p->context;
    for (cl_uint i = 0; i < c->ndevices; i++) {
        cl_device_id d = c->devices[i];
        if (p->builds[i].model)
            d->ops->program_unload(d->impl, p->builds[i].model);
        rt_free(p->builds[i].log);
        rt_free(p->builds[i].entry_dir);
        rt_free(p->builds[i].binary);
        rt_free(p->builds[i].object);
    }
    rt_free(p->builds);
    rt_metadata_free(p->kernels, p->nkernels);
    rt_free(p->source);
    rt_free(p->options);
    pthread_mutex_destroy(&p->lock);
    rt_free(p);
    rt_release(c);
}

static void kernel_destroy(cl_kernel k)
{
    k->obj.magic = RT_MAGIC_DEAD;
    rt_free(k->args); /* buffer arguments are not retained by the kernel */
    rt_free(k->area);
    pthread_mutex_destroy(&k->lock);
    cl_program p = k->program;
    atomic_fetch_sub(&p->kernel_objs, 1);
    rt_free(k);
    rt_release(p);
}

static void event_destroy(cl_event e)
{
    e->obj.magic = RT_MAGIC_DEAD;
    while (e->callbacks) {
        rt_event_cb *cb = e->callbacks;
        e->callbacks = cb->next;
        rt_free(cb);
    }
    rt_free(e->counters);
    if (e->queue)
        rt_release(e->queue);
    rt_release(e->context);
    rt_free(e);
}

void rt_release(void *o)
{
    rt_object *h = o;
    if (atomic_fetch_sub(&h->refcount, 1) != 1)
        return;
    switch (h->magic) {
    case RT_MAGIC_CONTEXT: context_destroy(o); break;
    case RT_MAGIC_QUEUE: queue_destroy(o); break;
    case RT_MAGIC_MEM: mem_destroy(o); break;
    case RT_MAGIC_PROGRAM: program_destroy(o); break;
    case RT_MAGIC_KERNEL: kernel_destroy(o); break;
    case RT_MAGIC_EVENT: event_destroy(o); break;
    default: break; /* platform and devices live as long as the process */
    }
}

/* ---- clRetain* and clRelease* ---- */

/* 1 when o is a live object of kind magic; else says so for func (CLHLS_VERBOSE). */
static int api_valid(const char *func, void *o, uint32_t magic, cl_int invalid)
{
    if (rt_valid_object(o, magic))
        return 1;
    rt_log_check(func, "a valid object of its kind", invalid);
    return 0;
}

cl_int rt_api_retain(const char *func, void *o, uint32_t magic, cl_int invalid)
{
    if (!api_valid(func, o, magic, invalid))
        return invalid;
    rt_retain(o);
    return CL_SUCCESS;
}

cl_int rt_api_release(const char *func, void *o, uint32_t magic, cl_int invalid)
{
    if (!api_valid(func, o, magic, invalid))
        return invalid;
    rt_release(o);
    return CL_SUCCESS;
}

/* ---- shared lookups ---- */

int rt_context_device_index(cl_context c, cl_device_id d)
{
    for (cl_uint i = 0; i < c->ndevices; i++)
        if (c->devices[i] == d)
            return (int)i;
    return -1;
}

int rt_queue_device_index(cl_command_queue q)
{
    return rt_context_device_index(q->context, q->device);
}

int rt_program_built(cl_program p)
{
    for (cl_uint i = 0; i < p->context->ndevices; i++)
        if (p->builds[i].status == CL_BUILD_SUCCESS &&
            p->builds[i].type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) /* not an object */
            return 1;
    return 0;
}

cl_uint rt_program_host_kernels(cl_program p)
{
    cl_uint n = 0;
    for (cl_uint i = 0; i < p->nkernels; i++)
        n += !p->kernels[i].autorun;
    return n;
}

cl_mem rt_mem_root(cl_mem m) { return m->parent ? m->parent : m; }

cl_int rt_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list)
{
    RT_CHECK((n == 0) == (list == NULL), CL_INVALID_EVENT_WAIT_LIST);
    for (cl_uint i = 0; i < n; i++) {
        RT_CHECK(rt_valid_event(list[i]), CL_INVALID_EVENT_WAIT_LIST);
        RT_CHECK(list[i]->context == ctx, CL_INVALID_CONTEXT);
    }
    return CL_SUCCESS;
}
