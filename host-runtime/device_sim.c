/* The simulated device: fills in rt_device_ops with the simulator (clhls_sim.h). Device
 * memory is one sim_memory per device; buffers get addresses from a first-fit allocator
 * that aligns them to 4096 bytes and leaves a guard gap of at least 4096 unmapped bytes
 * between any two buffers (and below the first), so an out-of-bounds access lands
 * outside every region and the simulator reports it. On a board with several memory
 * ports a buffer lies inside one port's range, past its first BOARD_PORT_RESERVED
 * bytes: the one asked for, else the next in round robin (the n-th buffer placed by
 * the policy goes to port n mod ports, or the ports after it when that one is full).
 * A one-port board's buffers start at SIM_BASE. A kernel runs as described in
 * docs/architecture.md "Running a kernel": the watchdog ends it when nothing moved for
 * the launch's idle window; then the occupancy probes say where the work-items are
 * stuck. Kernels of one program run at once, each on its compute unit (kernel_start,
 * kernel_wait): the model steps them all, and each ends alone (done, its own fault, its
 * own watchdog). One mutex per device serialises everything, because the simulator's
 * memory and models are not thread-safe. A traced model (CLHLS_WAVES) records into its
 * FST file the cycles program_waves asks for: every cycle, or those of one kernel's
 * launches (from its reset and argument writes to its end), or a window of cycles
 * counted from each recorded launch's start; the file is closed when the program is
 * unloaded or, for programs still loaded, at exit (in the process that opened it), so
 * it is complete however the host program ends normally. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clhls_sim.h"
#include "rt.h"

_Static_assert(RT_DEV_MAX_KERNELS == SIM_MAX_UNITS, "one compute unit slot per kernel at once");

/* Every block starts at a multiple of HLS_BUFFER_ALIGN (the compiler relies on it). */
#define SIM_ALIGN ((unsigned)HLS_BUFFER_ALIGN)
#define SIM_GUARD 4096u
#define SIM_BASE 0x10000u /* first address handed out; 0 stays the NULL buffer */
_Static_assert(SIM_GUARD % SIM_ALIGN == 0 && SIM_BASE % SIM_ALIGN == 0,
               "blocks start at multiples of SIM_ALIGN");

/* One allocated block. */
typedef struct sim_block {
    struct sim_block *next;     /* next block, by ascending address */
    uint64_t addr;              /* start address */
    uint64_t size;              /* size rounded up to SIM_ALIGN */
} sim_block;

struct rt_device_impl {
    const board_t *board;       /* the board simulated */
    sim_memory *mem;            /* device global memory */
    sim_block *blocks;          /* allocated blocks, ascending */
    uint64_t placed;            /* blocks placed by the round robin (no port asked for) */
    pthread_mutex_t lock;       /* serialises every operation */
};

struct rt_device_program {
    sim_model *model;           /* the loaded accelerator */
    const rt_kernel_launch *launch[SIM_MAX_UNITS]; /* the kernels started and not yet
                                                      ended (NULL: a free entry) */
    rt_kernel_result *result[SIM_MAX_UNITS];       /* ... and where their outcomes go */
    struct {
        unsigned unit;          /* compute unit */
        int status;             /* its outcome */
    } done[SIM_MAX_UNITS];      /* kernels ended whose outcome kernel_wait has not
                                   reported, in order */
    unsigned ndone;             /* how many */
    rt_device_impl *dev;        /* its device (whose lock guards the model) */
    rt_waves waves;             /* what it records (waves.on: a waveform is open) */
    struct {
        uint64_t from, to;      /* cycles to record of a recorded launch (to: UINT64_MAX
                                   until it ends) */
    } rec[SIM_MAX_UNITS];       /* by slot, for the launches recorded */
    uint64_t recording;         /* slots whose launch is recorded (bit s) */
    int clean;                  /* reset since the last failed launch: what the
                                   channels hold is what the kernels left there */
    struct {
        uint64_t value;         /* what the register holds */
        int known;              /* it was written */
    } *regs;                    /* the geometry and argument registers written, by
                                   register number (a reset keeps them) */
    uint32_t nregs;             /* entries of regs */
    pid_t waves_pid;            /* the process that opened the waveform */
    struct rt_device_program *waves_next; /* the next program with a waveform open */
};

/* Programs with a waveform open (closed at exit when still loaded), under waves_lock;
 * waves_lock is taken before a device's lock, never after. */
static pthread_mutex_t waves_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_device_program *waves_open;
static int waves_atexit;

static uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

static int sim_open(const board_t *board, rt_device_impl **out, char *err, size_t errlen)
{
    rt_device_impl *d = rt_alloc(sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of host memory");
        return RT_DEV_NOMEM;
    }
    d->board = board;
    d->mem = sim_memory_create(board);
    if (!d->mem) {
        snprintf(err, errlen, "cannot create the memory of board %s", board->name);
        rt_free(d);
        return RT_DEV_ERROR;
    }
    pthread_mutex_init(&d->lock, NULL);
    *out = d;
    return RT_DEV_OK;
}

static void sim_close(rt_device_impl *d)
{
    if (!d)
        return;
    while (d->blocks) {
        sim_block *b = d->blocks;
        d->blocks = b->next;
        rt_free(b);
    }
    sim_memory_destroy(d->mem);
    pthread_mutex_destroy(&d->lock);
    rt_free(d);
}

/* First fit of need bytes in [lo, hi): a candidate starts after the previous block
 * plus the guard gap (blocks below lo, of lower ports, are passed over). Maps the block
 * and links it into the sorted list; RT_DEV_NOMEM when it does not fit. */
static int place(rt_device_impl *d, uint64_t need, uint64_t lo, uint64_t hi, uint64_t *addr)
{
    sim_block **link = &d->blocks;
    while (*link && (*link)->addr < lo)
        link = &(*link)->next;
    uint64_t cand = lo;
    while (*link && cand + need + SIM_GUARD > (*link)->addr) {
        cand = (*link)->addr + (*link)->size + SIM_GUARD;
        link = &(*link)->next;
    }
    if (cand + need > hi)
        return RT_DEV_NOMEM;
    sim_block *b = rt_alloc(sizeof *b);
    if (!b || sim_memory_map(d->mem, cand, need) != SIM_OK) {
        rt_free(b);
        return RT_DEV_NOMEM;
    }
    b->addr = cand;
    b->size = need;
    b->next = *link;
    *link = b;
    *addr = cand;
    return RT_DEV_OK;
}

/* A one-port board: from SIM_BASE to the end of memory (plus a guard gap). Several
 * ports: port `port`, or (-1) the round robin's port and the ports after it. */
static int sim_alloc(rt_device_impl *d, uint64_t size, int port, uint64_t *addr)
{
    uint64_t need = round_up(size ? size : 1, SIM_ALIGN);
    unsigned ports = d->board->mem_ports ? d->board->mem_ports : 1;
    if (port >= (int)ports)
        return RT_DEV_NOMEM;
    int rc = RT_DEV_NOMEM;
    pthread_mutex_lock(&d->lock);
    if (ports == 1) {
        rc = place(d, need, SIM_BASE, SIM_BASE + d->board->global_mem_bytes + SIM_GUARD, addr);
    } else {
        uint64_t span = board_port_span(d->board);
        unsigned first = port >= 0 ? (unsigned)port : (unsigned)(d->placed % ports);
        unsigned tries = port >= 0 ? 1 : ports;
        for (unsigned i = 0; i < tries && rc != RT_DEV_OK; i++) {
            uint64_t p = (first + i) % ports;
            rc = place(d, need, p * span + BOARD_PORT_RESERVED, (p + 1) * span, addr);
        }
        if (rc == RT_DEV_OK && port < 0)
            d->placed++;
    }
    pthread_mutex_unlock(&d->lock);
    return rc;
}

static void sim_free(rt_device_impl *d, uint64_t addr)
{
    pthread_mutex_lock(&d->lock);
    for (sim_block **link = &d->blocks; *link; link = &(*link)->next) {
        if ((*link)->addr == addr) {
            sim_block *b = *link;
            *link = b->next;
            sim_memory_unmap(d->mem, addr);
            rt_free(b);
            break;
        }
    }
    pthread_mutex_unlock(&d->lock);
}

static int sim_write(rt_device_impl *d, uint64_t addr, const void *src, size_t size)
{
    if (!size)
        return RT_DEV_OK;
    pthread_mutex_lock(&d->lock);
    int rc = sim_memory_write(d->mem, addr, src, size);
    pthread_mutex_unlock(&d->lock);
    return rc == SIM_OK ? RT_DEV_OK : RT_DEV_ERROR;
}

static int sim_read(rt_device_impl *d, uint64_t addr, void *dst, size_t size)
{
    if (!size)
        return RT_DEV_OK;
    pthread_mutex_lock(&d->lock);
    int rc = sim_memory_read(d->mem, addr, dst, size);
    pthread_mutex_unlock(&d->lock);
    return rc == SIM_OK ? RT_DEV_OK : RT_DEV_ERROR;
}

static int sim_copy(rt_device_impl *d, uint64_t dst, uint64_t src, size_t size)
{
    if (!size)
        return RT_DEV_OK;
    pthread_mutex_lock(&d->lock);
    void *s = sim_memory_ptr(d->mem, src, size);
    void *t = sim_memory_ptr(d->mem, dst, size);
    if (s && t)
        memmove(t, s, size);
    pthread_mutex_unlock(&d->lock);
    return s && t ? RT_DEV_OK : RT_DEV_ERROR;
}

static int sim_fill(rt_device_impl *d, uint64_t addr, const void *pattern,
                    size_t pattern_size, size_t size)
{
    if (!size)
        return RT_DEV_OK;
    pthread_mutex_lock(&d->lock);
    unsigned char *t = sim_memory_ptr(d->mem, addr, size);
    if (t)
        for (size_t i = 0; i < size; i += pattern_size)
            memcpy(t + i, pattern, pattern_size);
    pthread_mutex_unlock(&d->lock);
    return t ? RT_DEV_OK : RT_DEV_ERROR;
}

static int sim_program_load(rt_device_impl *d, const char *model_path,
                            rt_device_program **out, char *err, size_t errlen)
{
    rt_device_program *p = rt_alloc(sizeof *p);
    if (p)
        memset(p, 0, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of host memory");
        return RT_DEV_NOMEM;
    }
    p->dev = d;
    pthread_mutex_lock(&d->lock);
    p->model = sim_model_open(model_path, d->board, err, errlen);
    pthread_mutex_unlock(&d->lock);
    if (!p->model) {
        rt_free(p);
        return RT_DEV_LOAD;
    }
    *out = p;
    return RT_DEV_OK;
}

/* Takes p off the list of programs with a waveform open. waves_lock held. */
static void waves_unlist(rt_device_program *p)
{
    for (rt_device_program **link = &waves_open; *link; link = &(*link)->waves_next)
        if (*link == p) {
            *link = p->waves_next;
            break;
        }
}

/* At exit: the waveforms of the programs still loaded are written out and closed (a
 * kernel running in a device worker ends first: the device's lock). Nothing in a
 * forked child, whose file is its parent's. */
static void waves_close_all(void)
{
    pthread_mutex_lock(&waves_lock);
    for (rt_device_program *p = waves_open; p; p = p->waves_next) {
        if (p->waves_pid != getpid())
            continue;
        pthread_mutex_lock(&p->dev->lock);
        sim_model_waves_close(p->model);
        p->waves.on = 0;
        pthread_mutex_unlock(&p->dev->lock);
    }
    waves_open = NULL;
    pthread_mutex_unlock(&waves_lock);
}

/* The cycles the model records now: every running recorded launch's span. d->lock held. */
static void waves_apply(rt_device_program *p)
{
    uint64_t from = UINT64_MAX, to = 0;
    for (uint64_t r = p->recording; r; r &= r - 1) {
        unsigned s = (unsigned)__builtin_ctzll(r);
        from = p->rec[s].from < from ? p->rec[s].from : from;
        to = p->rec[s].to > to ? p->rec[s].to : to;
    }
    sim_model_waves_window(p->model, from, to); /* from > to: nothing */
}

/* Whether launch l is recorded: a waveform is open, and it records every kernel or
 * this one. */
static int waves_records(const rt_device_program *p, const rt_kernel_launch *l)
{
    return p->waves.on && (p->waves.kernel[0] || p->waves.window) &&
           (!p->waves.kernel[0] || !strcmp(p->waves.kernel, l->name));
}

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static int sim_program_waves(rt_device_impl *d, rt_device_program *p, const rt_waves *w,
                             char *err, size_t errlen)
{
    pthread_mutex_lock(&waves_lock);
    pthread_mutex_lock(&d->lock);
    int rc = p->waves.on || !w->on ? SIM_ERR_ARG
                                   : sim_model_waves_open(p->model, w->path, err, errlen);
    if (rc == SIM_OK) {
        p->waves = *w;
        p->waves_pid = getpid();
        p->recording = 0;
        if (w->kernel[0] || w->window) /* only recorded launches, from the first */
            waves_apply(p);
        p->waves_next = waves_open;
        waves_open = p;
        if (!waves_atexit)
            waves_atexit = atexit(waves_close_all) == 0;
    } else if (p->waves.on || !w->on) {
        snprintf(err, errlen, "a waveform is open already");
    }
    pthread_mutex_unlock(&d->lock);
    pthread_mutex_unlock(&waves_lock);
    return rc == SIM_OK ? RT_DEV_OK : RT_DEV_ERROR;
}

static void sim_program_unload(rt_device_impl *d, rt_device_program *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&waves_lock);
    waves_unlist(p);
    pthread_mutex_unlock(&waves_lock);
    pthread_mutex_lock(&d->lock);
    sim_model_close(p->model);
    pthread_mutex_unlock(&d->lock);
    rt_free(p->regs);
    rt_free(p);
}

/* Appends the printf-formatted text to the message at *len; returns 0 when it did not
 * fit (the message is then left as it was). */
static int msg_append(char *msg, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int msg_append(char *msg, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size - *len) {
        msg[*len] = 0;
        return 0;
    }
    *len += (size_t)n;
    return 1;
}

/* 1 when a kernel started on compute unit `unit` has not ended. */
static int unit_runs(const rt_device_program *p, unsigned unit)
{
    for (unsigned s = 0; s < SIM_MAX_UNITS; s++)
        if (p->launch[s] && p->launch[s]->unit == unit)
            return 1;
    return 0;
}

/* Reads every probe of a kernel the watchdog ended and appends the non-zero ones to
 * msg: "; stuck: NAME: VALUE of CAPACITY; NAME: VALUE of CAPACITY ..." (just
 * "NAME: VALUE" when the capacity is not given), then "; ..." when the rest does not
 * fit. A channel's probe is appended even when the channel is empty, with ", and kernel
 * 'NAME' is not running" when the kernel at its other end is not (an autorun kernel
 * always runs). d->lock held; the model is still in the state the watchdog found. */
static void append_stuck(const rt_device_program *p, const rt_kernel_launch *l, char *msg,
                         size_t size)
{
    static const char more[] = "; ...";
    size_t len = strlen(msg), room = size - (sizeof more - 1);
    int first = 1;
    for (unsigned i = 0; i < l->nprobes; i++) {
        const rt_probe *pr = &l->probes[i];
        uint64_t v = (uint32_t)sim_model_reg_read(p->model, pr->reg); /* 63:32: a peak */
        if (!v && !pr->peer)
            continue;
        const char *sep = first ? "; stuck: " : "; ";
        int ok = pr->capacity
                     ? msg_append(msg, room, &len, "%s%s: %" PRIu64 " of %" PRIu64, sep,
                                  pr->name, v, pr->capacity)
                     : msg_append(msg, room, &len, "%s%s: %" PRIu64, sep, pr->name, v);
        if (ok && pr->peer && !pr->peer_autorun && !unit_runs(p, pr->peer_unit))
            ok = msg_append(msg, room, &len, ", and kernel '%s' is not running", pr->peer);
        if (!ok) {
            msg_append(msg, size, &len, "%s", more);
            return;
        }
        first = 0;
    }
}

/* Where an access at [addr, addr + bytes) lies against the kernel's buffers: "N bytes
 * past the end of argument I 'NAME' (SIZE bytes at 0xADDR)" for the nearest one. */
static void append_nearest_buffer(const rt_kernel_launch *l, uint64_t addr, unsigned bytes,
                                  char *msg, size_t size)
{
    const rt_launch_buffer *best = NULL;
    uint64_t best_gap = UINT64_MAX;
    for (unsigned i = 0; i < l->nbuffers; i++) {
        const rt_launch_buffer *b = &l->buffers[i];
        uint64_t end = b->addr + b->bytes;
        uint64_t gap = addr >= end ? addr - end : addr + bytes <= b->addr ? b->addr - addr : 0;
        if (gap < best_gap) {
            best = b;
            best_gap = gap;
        }
    }
    size_t len = strlen(msg);
    if (!best) {
        msg_append(msg, size, &len, ": the kernel was given no buffer");
        return;
    }
    uint64_t end = best->addr + best->bytes;
    char what[160];
    if (best->arg >= 0)
        snprintf(what, sizeof what, "argument %d '%s'", best->arg, best->name);
    else
        snprintf(what, sizeof what, "the %s", best->name);
    if (addr >= end)
        msg_append(msg, size, &len, ": %" PRIu64 " bytes past the end of %s", addr - end, what);
    else if (addr < best->addr)
        msg_append(msg, size, &len, ": %" PRIu64 " bytes before the start of %s",
                   best->addr - addr, what);
    else
        msg_append(msg, size, &len, ": it runs %" PRIu64 " bytes past the end of %s",
                   addr + bytes - end, what);
    msg_append(msg, size, &len, " (%" PRIu64 " bytes at 0x%" PRIx64 ")", best->bytes,
               best->addr);
}

/* Writes a geometry or argument register, unless it holds that value already (the
 * control block keeps them through a reset: a launch like the last one costs the
 * simulator no register cycle for them). */
static void write_setting(rt_device_program *p, uint32_t reg, uint64_t value)
{
    if (reg < p->nregs && p->regs[reg].known && p->regs[reg].value == value)
        return;
    sim_model_reg_write(p->model, reg, value);
    if (reg >= p->nregs) {
        uint32_t n = reg < 256 ? 256 : reg + 1 + reg / 2;
        void *more = rt_realloc(p->regs, n * sizeof *p->regs);
        if (!more)
            return; /* not remembered: written again next time */
        p->regs = more;
        memset(&p->regs[p->nregs], 0, (n - p->nregs) * sizeof *p->regs);
        p->nregs = n;
    }
    p->regs[reg].value = value;
    p->regs[reg].known = 1;
}

/* 1 when the kernel reads or writes a channel (its probes name one). */
static int uses_channels(const rt_kernel_launch *l)
{
    for (unsigned i = 0; i < l->nprobes; i++)
        if (l->probes[i].peer)
            return 1;
    return 0;
}

/* Starts a kernel. When none runs, the accelerator is reset first, unless the kernel
 * uses channels and no launch failed since the last reset: then the channels keep
 * what earlier kernels wrote into them and nobody read, as on a board (the compute
 * units of kernels that ended are idle and start again without a reset). */
/* Starts l on its compute unit (d->lock held): when no unit of the accelerator runs, a
 * reset first (the memory's stress mode follows CLHLS_SIM_STRESS then); geometry,
 * arguments, the unit's buffers for the access checker, start. */
static int launch_start(rt_device_impl *d, rt_device_program *p, const rt_kernel_launch *l,
                        rt_kernel_result *r)
{
    const rt_kernel_regs *g = l->regs;
    sim_model *m = p->model;
    for (unsigned i = 0; i < SIM_MAX_UNITS; i++)
        if (p->launch[i] && p->launch[i]->unit == l->unit) {
            snprintf(r->message, sizeof r->message, "kernel '%s': its compute unit is busy",
                     l->name);
            return RT_DEV_ERROR;
        }
    unsigned slot = 0;
    while (slot < SIM_MAX_UNITS && p->launch[slot])
        slot++;
    if (slot == SIM_MAX_UNITS) {
        snprintf(r->message, sizeof r->message, "kernel '%s': %d kernels run already",
                 l->name, SIM_MAX_UNITS);
        return RT_DEV_ERROR;
    }
    int record = waves_records(p, l);
    if (record && !p->waves.window) { /* the whole launch: its reset and arguments too */
        p->rec[slot].from = sim_model_cycles(m);
        p->rec[slot].to = UINT64_MAX;
        p->recording |= (uint64_t)1 << slot;
        waves_apply(p);
    }
    if (!sim_model_running_units(m) && !p->ndone) {
        uint64_t stress = sim_stress_env();
        if (stress != sim_memory_stress(d->mem))
            sim_memory_set_stress(d->mem, stress);
        if (!(p->clean && uses_channels(l))) {
            sim_model_reset(m);
            p->clean = 1;
        }
    }
    write_setting(p, g->work_dim, l->work_dim);
    for (int i = 0; i < 3; i++) {
        uint64_t lanes = i == 0 && l->simd > 1 ? l->simd : 1; /* num_simd_work_items */
        write_setting(p, g->global_size[i], l->global[i] / lanes);
        write_setting(p, g->local_size[i], l->local[i] / lanes);
        write_setting(p, g->global_offset[i], l->offset[i] / lanes);
        write_setting(p, g->num_groups[i], l->groups[i]);
    }
    for (unsigned i = 0; i < l->nargs; i++)
        write_setting(p, l->arg_regs[i], l->arg_values[i]);
    /* Every access a work-item makes must fall inside one of the kernel's buffers. */
    sim_mem_range few[16];
    sim_mem_range *ranges = l->nbuffers <= 16 ? few : rt_alloc(l->nbuffers * sizeof *ranges);
    int crc = SIM_ERR_NOMEM;
    if (ranges) {
        for (unsigned i = 0; i < l->nbuffers; i++)
            ranges[i] = (sim_mem_range){l->buffers[i].addr, l->buffers[i].bytes};
        crc = sim_model_unit_start(m, l->unit, g->control, g->start_mask, g->status,
                                   g->done_mask, l->watchdog_cycles ? l->watchdog_cycles : 1,
                                   ranges, l->nbuffers);
        if (ranges != few)
            rt_free(ranges);
    }
    if (crc != SIM_OK) {
        snprintf(r->message, sizeof r->message, "kernel '%s': %s", l->name,
                 crc == SIM_ERR_NOMEM ? "out of host memory" : "cannot start its compute unit");
        if (record) {
            p->recording &= ~((uint64_t)1 << slot);
            waves_apply(p);
        }
        return crc == SIM_ERR_NOMEM ? RT_DEV_NOMEM : RT_DEV_ERROR;
    }
    r->start_cycle = sim_model_cycles(m);
    if (record && p->waves.window) { /* cycles first..last from its start */
        p->rec[slot].from = add_sat(r->start_cycle, p->waves.first);
        p->rec[slot].to = add_sat(r->start_cycle, p->waves.last);
        p->recording |= (uint64_t)1 << slot;
        waves_apply(p);
    }
    p->launch[slot] = l;
    p->result[slot] = r;
    return RT_DEV_OK;
}

/* The outcome of the ended unit (d->lock held, right after it ended): the probes of a
 * hung one, its counters, its message. Frees the unit for its next launch. */
static int launch_end(rt_device_program *p, unsigned unit)
{
    sim_model *m = p->model;
    unsigned slot = 0;
    while (slot < SIM_MAX_UNITS - 1 && (!p->launch[slot] || p->launch[slot]->unit != unit))
        slot++;
    const rt_kernel_launch *l = p->launch[slot];
    rt_kernel_result *r = p->result[slot];
    sim_run_result res;
    int rc = sim_model_unit_result(m, unit, &res);
    p->launch[slot] = NULL;
    p->result[slot] = NULL;
    p->clean &= rc == SIM_OK;
    r->cycles = res.cycles;
    r->start_cycle = res.start_cycle;
    r->end_cycle = res.end_cycle;
    r->skipped_cycles = res.skipped_cycles;
    /* Where it is stuck: the probes, read first, while its hardware is as it was. */
    if (rc == SIM_ERR_TIMEOUT) {
        snprintf(r->message, sizeof r->message,
                 "kernel '%s' made no forward progress for %" PRIu64
                 " cycles (CLHLS_WATCHDOG_CYCLES)", l->name, l->watchdog_cycles);
        append_stuck(p, l, r->message, sizeof r->message);
    }
    /* Counters (also after a failure: they say how far it got), the final ones the
     * control block handed over once done without the register port's cycles. */
    for (unsigned i = 0; i < l->ncounters; i++) {
        uint64_t v;
        if (!sim_model_reg_final(m, l->counters[i].reg, &v))
            v = sim_model_reg_read(m, l->counters[i].reg);
        r->counter_values[i] = v >> l->counters[i].shift;
    }
    if (p->recording >> slot & 1) { /* its counters were the last cycles recorded */
        p->recording &= ~((uint64_t)1 << slot);
        waves_apply(p);
    }
    switch (rc) {
    case SIM_OK:
        return RT_DEV_OK;
    case SIM_ERR_TIMEOUT:
        return RT_DEV_TIMEOUT;
    case SIM_ERR_BAD_ACCESS: {
        static const char *const kinds[] = {"load", "store", "atomic", "load"};
        const char *kind = kinds[res.bad_kind < 4 ? res.bad_kind : 0];
        r->bad_address = res.bad_address;
        r->bad_write = res.bad_write;
        size_t len = 0;
        r->message[0] = '\0';
        msg_append(r->message, sizeof r->message, &len,
                   "kernel '%s': out-of-bounds %s of %u bytes at device address 0x%" PRIx64,
                   l->name, kind, res.bad_bytes, res.bad_address);
        if (res.bad_unit < l->nlsus)
            msg_append(r->message, sizeof r->message, &len, " by the %s at %s",
                       l->lsus[res.bad_unit].kind, l->lsus[res.bad_unit].at);
        append_nearest_buffer(l, res.bad_address, res.bad_bytes, r->message, sizeof r->message);
        len = strlen(r->message);
        if (res.bad_kind == 3) /* held by a speculative unit until the watchdog */
            msg_append(r->message, sizeof r->message, &len,
                       " (in a speculated loop iteration that was not past the loop's exit; "
                       "the kernel waited there until the watchdog ended it)");
        return RT_DEV_BAD_ADDRESS;
    }
    case SIM_ERR_BAD_ADDRESS:
        r->bad_address = res.bad_address;
        r->bad_write = res.bad_write;
        snprintf(r->message, sizeof r->message,
                 "kernel '%s': out-of-bounds %s at device address 0x%" PRIx64
                 " (outside every buffer)",
                 l->name, res.bad_write ? "write" : "read", res.bad_address);
        return RT_DEV_BAD_ADDRESS;
    default:
        snprintf(r->message, sizeof r->message, "kernel '%s': simulator error %d", l->name,
                 rc);
        return RT_DEV_ERROR;
    }
}

/* Steps the accelerator until a started kernel ends, or for max_cycles (d->lock held);
 * ends every unit that ended in that cycle (their outcomes wait in p->done) and
 * reports the first. */
static int wait_one(rt_device_impl *d, rt_device_program *p, uint64_t max_cycles,
                    unsigned *unit)
{
    if (!p->ndone) {
        if (!sim_model_running_units(p->model))
            return RT_DEV_ERROR;
        int rc = sim_model_run_units(p->model, d->mem, max_cycles);
        if (rc == SIM_RUNNING)
            return sim_model_units_still(p->model) >= max_cycles ? RT_DEV_STILL
                                                                : RT_DEV_RUNNING;
        if (rc != SIM_OK)
            return RT_DEV_ERROR;
        unsigned u;
        while (p->ndone < SIM_MAX_UNITS && sim_model_unit_ended(p->model, &u)) {
            p->done[p->ndone].unit = u;
            p->done[p->ndone++].status = launch_end(p, u);
        }
    }
    *unit = p->done[0].unit;
    int rc = p->done[0].status;
    memmove(p->done, p->done + 1, --p->ndone * sizeof *p->done);
    return rc;
}

static int sim_kernel_start(rt_device_impl *d, rt_device_program *p, const rt_kernel_launch *l,
                            rt_kernel_result *r)
{
    pthread_mutex_lock(&d->lock);
    int rc = launch_start(d, p, l, r);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

static int sim_kernel_wait(rt_device_impl *d, rt_device_program *p, uint64_t max_cycles,
                           unsigned *unit)
{
    pthread_mutex_lock(&d->lock);
    int rc = wait_one(d, p, max_cycles, unit);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

static uint64_t sim_cycles(rt_device_impl *d, rt_device_program *p)
{
    pthread_mutex_lock(&d->lock);
    uint64_t n = sim_model_cycles(p->model);
    pthread_mutex_unlock(&d->lock);
    return n;
}

const rt_device_ops rt_device_sim_ops = {
    .kind = "simulator",
    .open = sim_open,
    .close = sim_close,
    .alloc = sim_alloc,
    .free = sim_free,
    .write = sim_write,
    .read = sim_read,
    .copy = sim_copy,
    .fill = sim_fill,
    .program_load = sim_program_load,
    .program_unload = sim_program_unload,
    .program_waves = sim_program_waves,
    .kernel_start = sim_kernel_start,
    .kernel_wait = sim_kernel_wait,
    .cycles = sim_cycles,
};
