/* The scheduler: the event state machine, the commands, the per-device workers and the
 * device timeline. Entry points (memory.c, kernel.c, event.c) build a command and
 * submit it here; a worker runs it through the executors (exec_mem.c, exec_kernel.c),
 * which alone touch the device, and records it (trace.c).
 *
 * Every enqueued command carries an event that moves QUEUED -> SUBMITTED -> RUNNING ->
 * COMPLETE, or to a negative status; a command whose wait list holds a failed event
 * ends with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST without running, which in turn
 * propagates to its own dependants. Callbacks run once per status they asked for, on
 * the thread that changed the status, without the runtime lock held.
 *
 * One worker thread per device takes a pending command whose wait list and queue-order
 * predecessors are all finished (see the timeline below for which), marks it
 * SUBMITTED, runs it and completes it. In-order queues chain each command to the
 * previous one (and keep it out of the pending list, parked behind its predecessor,
 * until that one is taken: a pick never walks a long in-order queue); out-of-order
 * queues order only through wait lists, barriers and markers.
 *
 * Profiling times are on the profiling clock (rt_clock_now): host time, except that a
 * host thread that waits for the device resumes when the awaited command ended on the
 * device timeline, however long its simulation took. QUEUED is the clock at enqueue.
 * SUBMIT is when the command could go to the device: QUEUED, or later the time its last
 * predecessor (wait list, in-order predecessor, barrier, user event) ended. A device has
 * two engines (rt_engine): the host link (transfers) and the accelerator (kernels,
 * copies, fills); each executes one command at a time: START = max(SUBMIT, END of the
 * engine's previous command), END = START + the modelled duration (kernel: busy cycles
 * at the board clock; transfer: host-link time; copy and fill: device memory time),
 * COMPLETE = END. The exception: kernels of one program run at once on the accelerator
 * (run_kernels below), their START from its cycle count. Commands of different engines
 * that do not wait for each other overlap (a write of another queue during a kernel),
 * as the FPGA's DMA and its kernels would.
 * Markers and barriers use no engine: START = END = SUBMIT. No host time enters START
 * or END, so commands enqueued back to back run back to back. The worker executes the
 * ready command that starts first on this timeline, so a transfer the host link could
 * do during a kernel is not held behind a read waiting for that kernel. */
#include <stdio.h>
#include <string.h>

#include "rt.h"
#include "trace.h"

/* Wake-ups (all under rt_lock): host threads sleep on rt_cond, woken only when what one
 * waits for happened (an event it waits for became final, a queue it finishes ran
 * empty); idle workers sleep on work_cond, woken when a command is enqueued or an event
 * became final (which may make a pending command ready). A status change nobody waits
 * for wakes no one. */
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER;
static unsigned idle_workers; /* workers asleep on work_cond (rt_lock) */

cl_event rt_event_create(cl_context ctx, cl_command_queue q, cl_command_type type)
{
    cl_event e = rt_alloc(sizeof *e);
    if (!e)
        return NULL;
    rt_object_init(&e->obj, RT_MAGIC_EVENT);
    e->context = ctx;
    rt_retain(ctx);
    e->queue = q;
    if (q)
        rt_retain(q);
    e->type = type;
    e->status = q ? CL_QUEUED : CL_SUBMITTED;
    e->profiling = q && (q->props & CL_QUEUE_PROFILING_ENABLE);
    e->t_queued = rt_clock_now();
    return e;
}

/* A due callback, copied out so it can run without the lock. */
typedef struct due_cb {
    void (CL_CALLBACK *fn)(cl_event, cl_int, void *); /* the callback */
    void *data;                                        /* its user data */
} due_cb;

/* Collects (and marks fired) the callbacks due at e's status; rt_lock held. */
static size_t collect_due(cl_event e, due_cb *out, size_t max)
{
    size_t n = 0;
    for (rt_event_cb *cb = e->callbacks; cb && n < max; cb = cb->next) {
        if (!cb->fired && e->status <= cb->type) {
            cb->fired = 1;
            out[n].fn = cb->fn;
            out[n].data = cb->data;
            n++;
        }
    }
    return n;
}

void rt_event_set_status(cl_event e, cl_int status)
{
    due_cb due[32];
    size_t n;
    for (;;) {
        pthread_mutex_lock(&rt_lock);
        if (e->status <= CL_COMPLETE || status >= e->status) {
            pthread_mutex_unlock(&rt_lock);
            return;
        }
        e->status = status;
        n = collect_due(e, due, 32);
        if (status <= CL_COMPLETE && e->waiters)
            pthread_cond_broadcast(&rt_cond);
        if (status <= CL_COMPLETE && idle_workers)
            pthread_cond_broadcast(&work_cond);
        pthread_mutex_unlock(&rt_lock);
        break;
    }
    for (size_t i = 0; i < n; i++)
        due[i].fn(e, status, due[i].data);
    /* More than 32 callbacks: the rest in further rounds. */
    for (;;) {
        pthread_mutex_lock(&rt_lock);
        n = collect_due(e, due, 32);
        pthread_mutex_unlock(&rt_lock);
        if (!n)
            break;
        for (size_t i = 0; i < n; i++)
            due[i].fn(e, status, due[i].data);
    }
}

cl_int rt_event_wait(cl_event e)
{
    uint64_t began = rt_clock_now();
    pthread_mutex_lock(&rt_lock);
    e->waiters++;
    while (e->status > CL_COMPLETE)
        pthread_cond_wait(&rt_cond, &rt_lock);
    e->waiters--;
    cl_int s = e->status;
    uint64_t until = e->t_complete;
    pthread_mutex_unlock(&rt_lock);
    rt_clock_waited(began, until);
    return s;
}

/* ---- commands ---- */

/* Ordering-only predecessors (in-order chain, barriers); their failure does not
 * propagate. Kept apart from the wait list, whose failures do. */
typedef struct rt_order {
    cl_uint n;                  /* entries */
    cl_event *events;           /* retained events */
} rt_order;

/* The command plus its ordering predecessors; rt_command is the public part. */
typedef struct command_full {
    rt_command c;               /* must be first */
    rt_order order;             /* ordering-only predecessors */
} command_full;

rt_command *rt_command_new(cl_command_queue q, rt_cmd_kind kind, cl_command_type type,
                           cl_uint nwait, const cl_event *wait)
{
    command_full *f = rt_alloc(sizeof *f);
    if (!f)
        return NULL;
    rt_command *c = &f->c;
    c->kind = kind;
    c->event = rt_event_create(q->context, q, type);
    c->deps = nwait ? rt_alloc(nwait * sizeof *c->deps) : NULL;
    if (!c->event || (nwait && !c->deps)) {
        if (c->event)
            rt_release(c->event);
        rt_free(c->deps);
        rt_free(f);
        return NULL;
    }
    for (cl_uint i = 0; i < nwait; i++) {
        c->deps[i] = wait[i];
        rt_retain(wait[i]);
    }
    c->ndeps = nwait;
    return c;
}

/* Releases the objects a command uses (not its event or predecessors), so that they are
 * gone before clFinish returns. */
static void command_release_objects(rt_command *c)
{
    if (c->mem)
        rt_release(c->mem);
    if (c->src)
        rt_release(c->src);
    for (cl_uint i = 0; i < c->nmems; i++)
        rt_release(c->mems[i]);
    rt_free(c->mems);
    if (c->args) {
        for (cl_uint i = 0; i < c->kernel->meta->nargs; i++)
            if (c->args[i].mem)
                rt_release(c->args[i].mem);
        rt_free(c->args);
    }
    rt_free(c->area);
    c->area = NULL;
    if (c->kernel)
        rt_release(c->kernel);
    c->mem = c->src = NULL;
    c->mems = NULL;
    c->nmems = 0;
    c->args = NULL;
    c->kernel = NULL;
}

void rt_command_free(rt_command *c)
{
    command_full *f = (command_full *)c;
    for (cl_uint i = 0; i < c->ndeps; i++)
        rt_release(c->deps[i]);
    rt_free(c->deps);
    for (cl_uint i = 0; i < f->order.n; i++)
        rt_release(f->order.events[i]);
    rt_free(f->order.events);
    rt_mem_command_free(c);
    command_release_objects(c);
    if (c->event)
        rt_release(c->event);
    rt_free(f);
}

/* Adds e (retained) to the ordering predecessors; rt_lock held. */
static int order_add(rt_order *o, cl_event e)
{
    cl_event *n = rt_realloc(o->events, (o->n + 1) * sizeof *n);
    if (!n)
        return -1;
    o->events = n;
    rt_retain(e);
    o->events[o->n++] = e;
    return 0;
}

cl_int rt_command_submit(rt_command *c, int blocking, cl_event *event_out)
{
    command_full *f = (command_full *)c;
    cl_event e = c->event;
    cl_command_queue q = e->queue;
    cl_device_id d = q->device;
    cl_event drop = NULL;
    int in_order = !(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    int is_barrier = e->type == CL_COMMAND_BARRIER;
    int is_marker = e->type == CL_COMMAND_MARKER;
    int fail = 0;
    pthread_mutex_lock(&rt_lock);
    /* 1. Collect the ordering predecessors; this allocates and changes nothing else,
     * so running out of memory leaves the queue as it was. */
    if (in_order) {
        /* In order: after the previous command. */
        if (q->last)
            fail |= order_add(&f->order, q->last);
    } else {
        if (q->barrier)
            fail |= order_add(&f->order, q->barrier);
        if ((is_barrier || is_marker) && c->ndeps == 0)
            for (size_t i = 0; i < q->nsince; i++)
                fail |= order_add(&f->order, q->since_barrier[i]);
        if (!is_barrier && q->nsince == q->capsince) {
            size_t cap = q->capsince ? 2 * q->capsince : 16;
            cl_event *n = rt_realloc(q->since_barrier, cap * sizeof *n);
            if (n) {
                q->since_barrier = n;
                q->capsince = cap;
            } else {
                fail = 1;
            }
        }
    }
    if (fail) {
        pthread_mutex_unlock(&rt_lock);
        rt_command_free(c);
        return CL_OUT_OF_HOST_MEMORY;
    }
    /* 2. Record the command as the queue's latest (nothing can fail now). */
    rt_retain(e);
    if (in_order) {
        drop = q->last;
        q->last = e;
        rt_retain(e);
    } else if (is_barrier) {
        drop = q->barrier;
        q->barrier = e;
        rt_retain(e);
    } else {
        rt_retain(e);
        q->since_barrier[q->nsince++] = e;
    }
    q->outstanding++;
    c->next = c->parked = NULL;
    c->seq = d->submitted++;
    if (in_order && q->newest_pending) {
        /* never ready before its predecessor leaves the list: parked behind it, so the
         * worker's scans do not walk a long in-order queue on every pick */
        q->newest_pending->parked = c;
    } else {
        if (d->pending_tail)
            d->pending_tail->next = c;
        else
            d->pending = c;
        d->pending_tail = c;
    }
    if (in_order)
        q->newest_pending = c;
    if (idle_workers)
        pthread_cond_broadcast(&work_cond);
    pthread_mutex_unlock(&rt_lock);
    if (drop)
        rt_release(drop);
    cl_int rc = CL_SUCCESS;
    if (blocking && rt_event_wait(e) < 0)
        rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (event_out)
        *event_out = e;
    else
        rt_release(e);
    return rc;
}

/* 1 when every predecessor of c is finished; rt_lock held. */
static int command_ready(rt_command *c)
{
    command_full *f = (command_full *)c;
    for (cl_uint i = 0; i < c->ndeps; i++)
        if (c->deps[i]->status > CL_COMPLETE)
            return 0;
    for (cl_uint i = 0; i < f->order.n; i++)
        if (f->order.events[i]->status > CL_COMPLETE)
            return 0;
    return 1;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The engine c occupies on the device timeline; RT_ENGINES for none (markers, barriers,
 * NDRanges without work-items). */
static rt_engine command_engine(const rt_command *c)
{
    switch (c->kind) {
    case RT_CMD_NONE:
        return RT_ENGINES;
    case RT_CMD_KERNEL:
    case RT_CMD_COPY:
    case RT_CMD_COPY_RECT:
    case RT_CMD_FILL:
        return RT_ENGINE_ACCELERATOR;
    default:
        return RT_ENGINE_HOST_LINK;
    }
}

/* SUBMIT of a ready command: QUEUED, or later the END of its last predecessor; *failed
 * is set when an event of its wait list failed. rt_lock held. */
static uint64_t command_submit_time(const rt_command *c, int *failed)
{
    const command_full *f = (const command_full *)c;
    uint64_t ready = c->event->t_queued;
    *failed = 0;
    for (cl_uint i = 0; i < c->ndeps; i++) {
        *failed |= c->deps[i]->status < 0;
        ready = max_u64(ready, c->deps[i]->t_complete);
    }
    for (cl_uint i = 0; i < f->order.n; i++)
        ready = max_u64(ready, f->order.events[i]->t_complete);
    return ready;
}

/* START of a ready command on d's timeline: SUBMIT, or later when its engine is free
 * (a command that does not run, or needs no engine, starts at SUBMIT). rt_lock held. */
static uint64_t command_start_time(cl_device_id d, const rt_command *c, uint64_t submit,
                                   int failed)
{
    rt_engine engine = command_engine(c);
    if (failed || engine == RT_ENGINES)
        return submit;
    return max_u64(submit, d->engine_free_ns[engine]);
}

/* Runs c, whose SUBMIT and START the worker set when it picked c. */
static void command_run(cl_device_id d, rt_command *c, int failed_dep)
{
    cl_event e = c->event;
    rt_event_set_status(e, CL_SUBMITTED);
    if (failed_dep) {
        if (c->kind != RT_CMD_KERNEL && c->kind != RT_CMD_NONE)
            rt_mem_cancel(c);
        e->t_end = e->t_complete = e->t_start;
        rt_trace_command(d, c, RT_ENGINES, 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        rt_event_set_status(e, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        return;
    }
    /* Its engine runs one command at a time, for the modelled time only. */
    rt_event_set_status(e, CL_RUNNING);
    uint64_t ns = 0;
    cl_int status = CL_COMPLETE;
    if (c->kind != RT_CMD_NONE)
        status = rt_mem_execute(c, &ns);
    e->t_end = e->t_start + ns;
    e->t_complete = e->t_end;
    rt_engine engine = command_engine(c);
    if (engine != RT_ENGINES) {
        pthread_mutex_lock(&rt_lock);
        d->engine_free_ns[engine] = e->t_end;
        pthread_mutex_unlock(&rt_lock);
    }
    /* Recorded before the host can see it finish (and exit). */
    rt_trace_command(d, c, engine, 0, status);
    rt_event_set_status(e, status);
}

/* Queue bookkeeping after c finished; returns events to release without the lock. */
static void command_done(rt_command *c)
{
    cl_event e = c->event;
    cl_command_queue q = e->queue;
    cl_event drop[2] = {NULL, NULL};
    int drop_since = 0;
    command_release_objects(c);
    pthread_mutex_lock(&rt_lock);
    q->outstanding--;
    if (e->t_complete > q->t_done)
        q->t_done = e->t_complete;
    if (q->last == e) {
        drop[0] = e;
        q->last = NULL;
    }
    if (q->barrier == e) {
        drop[1] = e;
        q->barrier = NULL;
    }
    for (size_t i = 0; i < q->nsince; i++) {
        if (q->since_barrier[i] == e) {
            q->since_barrier[i] = q->since_barrier[--q->nsince];
            drop_since = 1;
            break;
        }
    }
    if (!q->outstanding && q->finishers)
        pthread_cond_broadcast(&rt_cond);
    pthread_mutex_unlock(&rt_lock);
    for (int i = 0; i < 2; i++)
        if (drop[i])
            rt_release(drop[i]);
    if (drop_since)
        rt_release(e);
    rt_command_free(c);
}

/* Ready commands the worker compares when it picks the next one (bounds the cost of a
 * pick when thousands are ready at once). */
#define PICK_WINDOW 64

/* ---- kernels of one program at once ----
 * The worker that picked a kernel runs its accelerator until no kernel of that program
 * is left running: while some run, it starts every other ready kernel of the same
 * program (the same loaded configuration) whose compute unit is idle and whose SUBMIT
 * the accelerator has reached, mid-run (looking every JOIN_SLICE cycles, and whenever
 * one ends), on the one simulated clock (when the last one
 * ends, the run is over). Device time inside
 * such a run comes from the accelerator's cycle count: the first kernel STARTs at its
 * START (SUBMIT, or when the accelerator became free), a later one at that time plus
 * the cycles between the two starts; END = START + busy cycles, as for a kernel alone.
 * A kernel of another program, a copy or a fill waits until the run is over (one
 * configuration at a time, without partial reconfiguration); the same kernel's next
 * NDRange waits for its compute unit. */

/* Cycles the accelerator runs between two looks for kernels that may join the run. */
#define JOIN_SLICE 256

/* A kernel running on the accelerator. */
typedef struct running_kernel {
    rt_command *c;              /* its command */
    rt_kernel_run *run;         /* its run on the device */
    unsigned unit;              /* its compute unit */
    unsigned lane;              /* its trace lane (0: the accelerator's own track) */
} running_kernel;

static uint64_t cycles_ns(const cl_device_id d, uint64_t cycles)
{
    return (uint64_t)((double)cycles * 1000.0 / d->board->clock_mhz);
}

/* Gives e what the kernel executor read of its run: counters, cycles simulated. */
static void kernel_outcome(cl_event e, rt_kernel_outcome *o)
{
    e->counters = o->counters;
    e->ncounters = o->ncounters;
    e->sim_cycles = o->sim_cycles;
    o->counters = NULL;
}

/* A walk over the first PICK_WINDOW ready commands of a device's pending list. */
typedef struct ready_scan {
    rt_command *c;              /* the ready command reached, NULL before the first */
    rt_command *prev;           /* the command before it in the list, NULL when none */
    unsigned nready;            /* ready commands reached so far */
    uint64_t submit;            /* c's SUBMIT */
    int failed;                 /* an event of c's wait list failed */
} ready_scan;

/* Moves s to the next ready command of d's pending list; 0 when there is none left in
 * the window. rt_lock held. */
static int scan_ready(cl_device_id d, ready_scan *s)
{
    rt_command *prev = s->c, *c = s->c ? s->c->next : d->pending;
    for (; c && s->nready < PICK_WINDOW; prev = c, c = c->next) {
        if (!command_ready(c))
            continue;
        s->nready++;
        s->c = c;
        s->prev = prev;
        s->submit = command_submit_time(c, &s->failed);
        return 1;
    }
    return 0;
}

/* Takes c (after prev, NULL when c is the first) out of d's pending list, with its
 * SUBMIT and START on the device timeline; the command parked behind it takes its
 * place in submission order. rt_lock held. */
static void take_pending(cl_device_id d, rt_command *prev, rt_command *c, uint64_t submit,
                         uint64_t start)
{
    if (prev)
        prev->next = c->next;
    else
        d->pending = c->next;
    if (d->pending_tail == c)
        d->pending_tail = prev;
    cl_command_queue q = c->event->queue;
    if (q->newest_pending == c)
        q->newest_pending = NULL;
    rt_command *s = c->parked;
    if (s) {
        rt_command **at = &d->pending;
        while (*at && (*at)->seq < s->seq)
            at = &(*at)->next;
        s->next = *at;
        *at = s;
        if (!s->next)
            d->pending_tail = s;
        c->parked = NULL;
    }
    c->event->t_submit = submit;
    c->event->t_start = start;
}

/* Takes the first ready kernel command of model out of d's pending list whose SUBMIT is
 * not after now (any SUBMIT when `waiting`: the running kernels wait for the host) and
 * whose compute unit is not among the n running, with SUBMIT and a provisional START
 * (now, or the later SUBMIT) set; NULL when there is none. rt_lock held. */
static rt_command *take_ready_kernel(cl_device_id d, rt_device_program *model,
                                     const running_kernel *running, unsigned n, uint64_t now,
                                     int waiting)
{
    ready_scan s = {0};
    while (scan_ready(d, &s)) {
        rt_command *c = s.c;
        if (c->kind != RT_CMD_KERNEL || s.failed || (s.submit > now && !waiting) ||
            rt_kernel_model(c) != model)
            continue;
        unsigned unit = rt_kernel_unit(c), i = 0;
        while (i < n && running[i].unit != unit)
            i++;
        if (i < n)
            continue;
        take_pending(d, s.prev, c, s.submit, max_u64(now, s.submit));
        return c;
    }
    return NULL;
}

/* Runs the kernel command first (picked by the worker, START set) and every kernel of
 * its program that becomes ready while the accelerator runs, as described above. */
static void run_kernels(cl_device_id d, rt_command *first)
{
    rt_device_program *model = rt_kernel_model(first);
    running_kernel running[RT_DEV_MAX_KERNELS];
    unsigned n = 0;
    uint64_t t0 = first->event->t_start; /* the run's device time at cycle c0 */
    uint64_t c0 = 0, last_end = t0;
    int based = 0;
    rt_command *next = first;
    for (;;) {
        /* Start the kernels that can start now. */
        while (next) {
            rt_command *c = next;
            cl_event e = c->event;
            rt_event_set_status(e, CL_SUBMITTED);
            rt_event_set_status(e, CL_RUNNING);
            /* its trace lane: the first that no running kernel holds */
            unsigned lane = 0;
            for (int taken = 1; taken;) {
                taken = 0;
                for (unsigned i = 0; i < n; i++)
                    if (running[i].lane == lane) {
                        lane++;
                        taken = 1;
                    }
            }
            rt_kernel_run *run = NULL;
            rt_kernel_outcome failed = {0};
            cl_int status = rt_kernel_start(c, &run, &failed);
            if (status == CL_SUCCESS) {
                uint64_t start, end;
                rt_kernel_cycles(run, &start, &end);
                if (!based) {
                    c0 = start;
                    based = 1;
                }
                e->t_start = t0 + cycles_ns(d, start - c0);
                if (e->t_start < e->t_submit) { /* it joined still kernels from ahead of the
                                                   accelerator's clock: it waited for it */
                    t0 += e->t_submit - e->t_start;
                    e->t_start = e->t_submit;
                }
                running[n++] = (running_kernel){c, run, rt_kernel_unit(c), lane};
            } else { /* it did not start: it ends where it is */
                kernel_outcome(e, &failed);
                e->t_end = e->t_complete = e->t_start;
                rt_trace_command(d, c, RT_ENGINE_ACCELERATOR, lane, status);
                rt_event_set_status(e, status);
                command_done(c);
            }
            uint64_t now = based ? t0 + cycles_ns(d, rt_kernel_clock(d, model) - c0) : t0;
            pthread_mutex_lock(&rt_lock);
            next = n < RT_DEV_MAX_KERNELS ? take_ready_kernel(d, model, running, n, now, 0)
                                          : NULL;
            pthread_mutex_unlock(&rt_lock);
        }
        if (!n)
            break;
        /* Run until one ends; complete it. Every JOIN_SLICE cycles, kernels submitted
         * since (a channel's reader started first, its writer enqueued now) join; when
         * none of the running ones moved in the slice (they wait for such a kernel),
         * whatever the accelerator's clock says: the accelerator waits for the host. */
        unsigned unit = 0, i = 0;
        int rc = rt_kernel_wait(d, model, JOIN_SLICE, &unit);
        if (rc == RT_DEV_RUNNING || rc == RT_DEV_STILL) {
            uint64_t now = t0 + cycles_ns(d, rt_kernel_clock(d, model) - c0);
            pthread_mutex_lock(&rt_lock);
            next = n < RT_DEV_MAX_KERNELS
                       ? take_ready_kernel(d, model, running, n, now, rc == RT_DEV_STILL)
                       : NULL;
            pthread_mutex_unlock(&rt_lock);
            continue;
        }
        while (i < n && running[i].unit != unit)
            i++;
        if (i == n) /* nothing was running on the device: every run fails */
            i = 0;
        running_kernel k = running[i];
        running[i] = running[--n];
        cl_event e = k.c->event;
        rt_kernel_outcome out = {0};
        cl_int status = rt_kernel_finish(k.run, rc, &out);
        kernel_outcome(e, &out);
        e->t_end = e->t_start + out.ns;
        e->t_complete = e->t_end;
        last_end = max_u64(last_end, e->t_end);
        /* Recorded before the host can see it finish (and exit). */
        rt_trace_command(d, k.c, RT_ENGINE_ACCELERATOR, k.lane, status);
        rt_event_set_status(e, status);
        command_done(k.c);
        /* Its finish may have made others ready (the same queue's next kernel): they
         * join the kernels still running; when none runs, the run is over and the
         * worker picks the next command as usual (START = max(SUBMIT, the engine's
         * free time), so kernels of one queue run back to back). */
        if (n) {
            uint64_t now = t0 + cycles_ns(d, rt_kernel_clock(d, model) - c0);
            pthread_mutex_lock(&rt_lock);
            next = take_ready_kernel(d, model, running, n, now, 0);
            pthread_mutex_unlock(&rt_lock);
        }
    }
    pthread_mutex_lock(&rt_lock);
    d->engine_free_ns[RT_ENGINE_ACCELERATOR] = last_end;
    pthread_mutex_unlock(&rt_lock);
}

static void *worker_main(void *arg)
{
    cl_device_id d = arg;
    pthread_mutex_lock(&rt_lock);
    for (;;) {
        /* Of the first PICK_WINDOW ready commands, the one that starts first on the
         * device timeline (the earliest in enqueue order among equals): a transfer
         * that its engine could do while a kernel runs goes before a read that waits
         * for that kernel's END, whatever their enqueue order. */
        rt_command *best = NULL, *best_prev = NULL;
        uint64_t best_submit = 0, best_start = 0;
        int best_failed = 0;
        ready_scan s = {0};
        while (scan_ready(d, &s)) {
            uint64_t start = command_start_time(d, s.c, s.submit, s.failed);
            if (!best || start < best_start) {
                best = s.c;
                best_prev = s.prev;
                best_submit = s.submit;
                best_start = start;
                best_failed = s.failed;
            }
        }
        if (!best) {
            idle_workers++;
            pthread_cond_wait(&work_cond, &rt_lock);
            idle_workers--;
            continue;
        }
        /* SUBMIT and START are published by the status changes of command_run. */
        take_pending(d, best_prev, best, best_submit, best_start);
        pthread_mutex_unlock(&rt_lock);
        if (best->kind == RT_CMD_KERNEL && !best_failed) {
            run_kernels(d, best);
        } else {
            command_run(d, best, best_failed);
            command_done(best);
        }
        pthread_mutex_lock(&rt_lock);
    }
    return NULL;
}

int rt_device_start_worker(cl_device_id d)
{
    int rc = 0;
    rt_trace_start(); /* on a host thread, before any command runs */
    pthread_mutex_lock(&rt_lock);
    if (!d->worker_started) {
        rc = pthread_create(&d->worker, NULL, worker_main, d);
        if (rc == 0) {
            pthread_detach(d->worker);
            d->worker_started = 1;
        }
    }
    pthread_mutex_unlock(&rt_lock);
    return rc;
}

/* ---- what the event and queue entry points ask of the scheduler ---- */

cl_int rt_event_status(cl_event e, uint64_t *t_complete)
{
    pthread_mutex_lock(&rt_lock);
    cl_int s = e->status;
    /* Written (without the lock) before the status became final: not earlier. */
    uint64_t t = s <= CL_COMPLETE ? e->t_complete : 0;
    pthread_mutex_unlock(&rt_lock);
    if (t_complete)
        *t_complete = t;
    return s;
}

void rt_event_add_callback(cl_event e, rt_event_cb *cb)
{
    pthread_mutex_lock(&rt_lock);
    cl_int status = e->status;
    int now = status <= cb->type;
    cb->fired = now;
    /* Append, so callbacks of one status run in registration order. */
    rt_event_cb **link = &e->callbacks;
    while (*link)
        link = &(*link)->next;
    *link = cb;
    if (now)
        rt_retain(e);
    pthread_mutex_unlock(&rt_lock);
    if (now) {
        cb->fn(e, status, cb->data);
        rt_release(e);
    }
}

int rt_user_event_set(cl_event e, cl_int status)
{
    /* Claimed under the lock: of threads racing to set it, one writes the times. */
    uint64_t now = rt_clock_now();
    pthread_mutex_lock(&rt_lock);
    int already = e->user_set;
    if (!already) {
        e->user_set = 1;
        e->t_submit = e->t_start = e->t_end = e->t_complete = now;
    }
    pthread_mutex_unlock(&rt_lock);
    if (already)
        return -1;
    rt_event_set_status(e, status);
    return 0;
}

void rt_queue_finish(cl_command_queue q)
{
    uint64_t began = rt_clock_now();
    pthread_mutex_lock(&rt_lock);
    q->finishers++;
    while (q->outstanding)
        pthread_cond_wait(&rt_cond, &rt_lock);
    q->finishers--;
    uint64_t until = q->t_done;
    pthread_mutex_unlock(&rt_lock);
    rt_clock_waited(began, until);
}
