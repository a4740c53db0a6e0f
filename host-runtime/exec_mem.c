/* The memory executor: the buffer commands (read, write, copy, fill, their rectangular
 * forms, map, unmap, migrate) run on their device for the scheduler (sched.c), and the
 * placement and coherence of buffers across a context's devices, all through the device
 * operations. A buffer is allocated on every device of its context; the root buffer
 * records which device holds the newest data and migrates it (through the host) before
 * a command on another device uses it. CL_MEM_USE_HOST_PTR memory is written back from
 * the device after every command that may write the buffer. Transfers take host-link
 * time on the device timeline (the host-link engine), copies and fills device-memory
 * time (the accelerator engine); data migrated from another device first adds its
 * trip through the host. */
#include <string.h>

#include "rt.h"

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

/* Makes the newest data of m available on context device di; adds the bytes moved
 * between devices to *moved. 0 on success. */
static int acquire(cl_mem m, int di, size_t *moved)
{
    cl_mem r = rt_mem_root(m);
    cl_context c = r->context;
    int rc = 0;
    pthread_mutex_lock(&r->lock);
    if (r->valid_dev >= 0 && r->valid_dev != di) {
        *moved += r->size;
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

int rt_mem_acquire(cl_mem m, int di)
{
    size_t moved = 0;
    return acquire(m, di, &moved);
}

void rt_mem_written(cl_mem m, int di)
{
    cl_mem r = rt_mem_root(m);
    cl_device_id d = r->context->devices[di];
    pthread_mutex_lock(&r->lock);
    r->valid_dev = di;
    if (r->host_ptr)
        d->ops->read(d->impl, r->addr[di], r->host_ptr, r->size);
    pthread_mutex_unlock(&r->lock);
}

int rt_mem_place(cl_context c, size_t size, int port, const void *host_ptr, uint64_t *addr)
{
    cl_uint done = 0;
    for (; done < c->ndevices; done++) {
        cl_device_id d = c->devices[done];
        if (d->ops->alloc(d->impl, size, port, &addr[done]) != RT_DEV_OK)
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
        return -1;
    }
    return 0;
}

/* Moves every row of a rectangular command: read (device -> host), write (host ->
 * device) or copy (device -> device). Rows that are contiguous on both sides move as
 * one block per slice. */
static int rect_move(rt_command *c, cl_device_id d, int di)
{
    const rt_rect *r = &c->rect;
    uint64_t base = c->mem->addr[di];
    uint64_t src = c->src ? c->src->addr[di] : 0;
    unsigned char *host = c->ptr;
    /* Whole slices at once when both sides are tight. */
    int tight = r->row[0] == r->region[0] && r->row[1] == r->region[0];
    size_t rows = tight ? 1 : r->region[1];
    size_t len = tight ? r->region[0] * r->region[1] : r->region[0];
    for (size_t z = 0; z < r->region[2]; z++) {
        for (size_t y = 0; y < rows; y++) {
            size_t a = r->offset[0] + z * r->slice[0] + y * r->row[0];
            size_t b = r->offset[1] + z * r->slice[1] + y * r->row[1];
            int rc;
            if (c->kind == RT_CMD_READ_RECT)
                rc = d->ops->read(d->impl, base + a, host + b, len);
            else if (c->kind == RT_CMD_WRITE_RECT)
                rc = d->ops->write(d->impl, base + a, host + b, len);
            else
                rc = d->ops->copy(d->impl, base + a, src + b, len);
            if (rc != RT_DEV_OK)
                return rc;
        }
    }
    return RT_DEV_OK;
}

static size_t rect_bytes(const rt_rect *r) { return r->region[0] * r->region[1] * r->region[2]; }

/* The mapping's host memory has no data of the buffer (a failed map). */
static int mapping_stale(cl_mem m, rt_mapping *mp)
{
    pthread_mutex_lock(&m->lock);
    int stale = mp->stale;
    pthread_mutex_unlock(&m->lock);
    return stale;
}

cl_int rt_mem_execute(rt_command *c, uint64_t *ns)
{
    cl_command_queue q = c->event->queue;
    cl_device_id d = q->device;
    int di = rt_queue_device_index(q);
    int rc = RT_DEV_OK;
    size_t moved = 0; /* bytes migrated from another device first */
    switch (c->kind) {
    case RT_CMD_READ:
        if (acquire(c->mem, di, &moved))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->read(d->impl, c->mem->addr[di] + c->offset, c->ptr, c->size);
        *ns = transfer_ns(d, c->size);
        break;
    case RT_CMD_WRITE:
        if (acquire(c->mem, di, &moved))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->write(d->impl, c->mem->addr[di] + c->offset, c->ptr, c->size);
        rt_mem_written(c->mem, di);
        *ns = transfer_ns(d, c->size);
        break;
    case RT_CMD_COPY:
        if (acquire(c->mem, di, &moved) || acquire(c->src, di, &moved))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->copy(d->impl, c->mem->addr[di] + c->offset,
                          c->src->addr[di] + c->src_offset, c->size);
        rt_mem_written(c->mem, di);
        *ns = device_mem_ns(d, 2 * c->size);
        break;
    case RT_CMD_READ_RECT:
    case RT_CMD_WRITE_RECT:
    case RT_CMD_COPY_RECT:
        if (acquire(c->mem, di, &moved) || (c->src && acquire(c->src, di, &moved)))
            return CL_OUT_OF_RESOURCES;
        rc = rect_move(c, d, di);
        if (c->kind != RT_CMD_READ_RECT)
            rt_mem_written(c->mem, di);
        *ns = c->kind == RT_CMD_COPY_RECT ? device_mem_ns(d, 2 * rect_bytes(&c->rect))
                                          : transfer_ns(d, rect_bytes(&c->rect));
        break;
    case RT_CMD_FILL:
        if (acquire(c->mem, di, &moved))
            return CL_OUT_OF_RESOURCES;
        rc = d->ops->fill(d->impl, c->mem->addr[di] + c->offset, c->pattern, c->pattern_size,
                          c->size);
        rt_mem_written(c->mem, di);
        *ns = device_mem_ns(d, c->size);
        break;
    case RT_CMD_MAP:
        if (!(c->mapping->flags & CL_MAP_WRITE_INVALIDATE_REGION)) {
            if (acquire(c->mem, di, &moved))
                return CL_OUT_OF_RESOURCES;
            rc = d->ops->read(d->impl, c->mem->addr[di] + c->offset, c->mapping->ptr, c->size);
            *ns = transfer_ns(d, c->size);
        }
        break;
    case RT_CMD_UNMAP:
        if ((c->mapping->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
            !mapping_stale(c->mem, c->mapping)) {
            if (acquire(c->mem, di, &moved))
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
        for (cl_uint i = 0; i < c->nmems; i++) {
            cl_mem r = rt_mem_root(c->mems[i]);
            if (c->migrate_flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) {
                /* Nothing to move: the buffer is simply here now. */
                pthread_mutex_lock(&r->lock);
                r->valid_dev = di;
                pthread_mutex_unlock(&r->lock);
            } else if (!(c->migrate_flags & CL_MIGRATE_MEM_OBJECT_HOST) &&
                       acquire(c->mems[i], di, &moved)) {
                rc = RT_DEV_ERROR;
            }
        }
        break;
    default:
        break;
    }
    /* Data migrated from another device went through the host: out and back in. */
    if (moved)
        *ns += 2 * transfer_ns(d, moved);
    return rc == RT_DEV_OK ? CL_COMPLETE : CL_OUT_OF_RESOURCES;
}

void rt_mem_cancel(rt_command *c)
{
    if (c->kind == RT_CMD_MAP) {
        pthread_mutex_lock(&c->mem->lock);
        c->mapping->stale = 1;
        pthread_mutex_unlock(&c->mem->lock);
    } else if (c->kind == RT_CMD_UNMAP) {
        /* The application gave the region back; its data is dropped. */
        if (c->mapping->owned)
            rt_free(c->mapping->ptr);
        rt_free(c->mapping);
        c->mapping = NULL;
    }
}

void rt_mem_command_free(rt_command *c)
{
    if (c->kind != RT_CMD_UNMAP || !c->mapping)
        return;
    cl_mem m = c->mem;
    pthread_mutex_lock(&m->lock);
    c->mapping->next = m->maps;
    m->maps = c->mapping;
    m->map_count++;
    pthread_mutex_unlock(&m->lock);
    c->mapping = NULL;
}
