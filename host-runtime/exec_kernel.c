/* The kernel executor: runs the NDRange of a kernel command on its device for the
 * scheduler (sched.c), through the device operations only. A start prepares the
 * argument area from the snapshot taken at enqueue time (buffer addresses after the
 * buffers' newest data is on the device), geometry with unused dimensions set to global
 * 1, local 1, offset 0, groups 1, the watchdog's idle window from CLHLS_WATCHDOG_CYCLES
 * (consecutive cycles without forward progress) and the kernel's occupancy probes for
 * the watchdog's message; a kernel that calls printf gets a zeroed printf buffer per
 * NDRange in its hidden argument (not one of the user's arguments). A finish reads what
 * the work-items printed to stdout (printf.c), marks the buffers the kernel may have
 * written, reads the counters and records the run for `clhls report` (last_run.c). A
 * failed kernel ends with CL_OUT_OF_RESOURCES; its message (naming the kernel, and for a
 * hung one where it is stuck) goes to stderr and to the context's notify callback. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "last_run.h"
#include "rt.h"

/* Idle window of the watchdog: a kernel is hung after this many consecutive cycles
 * without forward progress (docs/user-guide.md, CLHLS_WATCHDOG_CYCLES). */
#define RT_DEFAULT_WATCHDOG_CYCLES 1000000ull

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

cl_int rt_kernel_start(rt_command *c, rt_kernel_run **out, rt_kernel_outcome *failed)
{
    cl_event e = c->event;
    cl_command_queue q = e->queue;
    cl_device_id d = q->device;
    int di = rt_context_device_index(q->context, d);
    cl_kernel k = c->kernel;
    const rt_kernel_meta *meta = k->meta;
    rt_device_program *model = k->program->builds[di].model;
    *out = NULL;

    /* The argument area: the values set, then every buffer's device address (a pipe
     * argument has no place there: its FIFO was joined when the program was built). */
    size_t nwords = meta->arg_area_bytes / 8;
    rt_kernel_run *run = rt_alloc(sizeof *run); /* zeroed */
    if (!run)
        return CL_OUT_OF_HOST_MEMORY;
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
    rt_launch_buffer *buffers = run->buffers;
    unsigned nbuffers = 0;
    /* printf: a zeroed buffer of its own for this NDRange, the hidden argument. */
    const rt_printf_meta *pm = meta->printf;
    if (pm) {
        static const unsigned char zero = 0;
        int prc = d->ops->alloc(d->impl, pm->buffer_bytes, -1, &run->pbuf);
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
        rt_put_le64(c->area + pm->arg_offset, run->pbuf);
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
        rt_put_le64(c->area + a->offset, m ? m->addr[di] : 0);
    }
    for (size_t w = 0; w < nwords; w++) {
        run->regs[w] = meta->arg_area_reg + (uint32_t)w;
        run->vals[w] = rt_get_le64(c->area + 8 * w);
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
    l->simd = meta->simd;
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
        return rt_kernel_finish(run, rc, failed);
    *out = run;
    return CL_SUCCESS;
}

void rt_kernel_cycles(const rt_kernel_run *run, uint64_t *start, uint64_t *end)
{
    *start = run->r.start_cycle;
    *end = run->r.end_cycle;
}

cl_int rt_kernel_finish(rt_kernel_run *run, int rc, rt_kernel_outcome *out)
{
    rt_command *c = run->c;
    cl_command_queue q = c->event->queue;
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
        if (!strcmp(meta->counters[i].name, "work_items")) /* each stood for simd */
            run->cvals[i] *= meta->simd;
        counters[i].value = run->cvals[i];
        if (!strcmp(meta->counters[i].name, "busy_cycles"))
            busy = run->cvals[i];
    }
    out->counters = counters;
    out->ncounters = meta->ncounters;
    run->counters = NULL; /* the caller's now */
    out->sim_cycles = run->r.cycles;
    rt_last_run_record(k->program->builds[di].entry_dir, d->board->name, &run->l, run->cvals,
                       run->r.cycles, rc == RT_DEV_OK); /* for `clhls report` */
    out->ns = (uint64_t)((double)busy * 1000.0 / d->board->clock_mhz);
    if (rt_verbose()) {
        fprintf(stderr, "clhls: kernel '%s' on %s: %" PRIu64 " cycles simulated",
                meta->name, d->board->name, run->r.cycles);
        for (unsigned i = 0; i < meta->ncounters; i++)
            fprintf(stderr, ", %s=%" PRIu64, counters[i].name, counters[i].value);
        fprintf(stderr, "\nclhls: kernel '%s': %" PRIu64 " of its cycles jumped over (nothing "
                        "moved in them)\n", meta->name, run->r.skipped_cycles);
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

int rt_kernel_wait(cl_device_id d, rt_device_program *model, uint64_t max_cycles,
                   unsigned *unit)
{
    return d->ops->kernel_wait(d->impl, model, max_cycles, unit);
}

uint64_t rt_kernel_clock(cl_device_id d, rt_device_program *model)
{
    return d->ops->cycles(d->impl, model);
}
