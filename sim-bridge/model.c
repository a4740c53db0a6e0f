/* Accelerator models: loads a verilated model library (built by sim_build_model) with
 * dlopen(RTLD_LOCAL), so several models live side by side, and drives it through the
 * harness ABI one clock cycle at a time: reset, register access through the register
 * port, and the run loop that steps the model against the board memory until the
 * kernel reports done, a load-store unit accepts an access outside the checked
 * ranges, the memory sees a bad address, or the watchdog sees no forward
 * progress (neither the top's `progress` output nor a memory handshake) for the idle
 * window. The run loop allocates nothing and copies only the port width. Several
 * compute units (kernels of the program) run at once under the one clock through
 * sim_model_unit_start and sim_model_run_units: each has its own done bit (read in
 * turn through the register port, done is sticky), its own access ranges and its own
 * watchdog (the top's `progress_units` bit, or a memory handshake of its own tags).
 * Cycles in which nothing moves and the model waits for the memory are one jump
 * (harness ABI 10: the top's `still`, the memory's calm); a kernel that ended well
 * handed its final counts over (ABI 11), which sim_model_reg_final gives without a
 * register cycle. Every cycle runs in the default floating-point environment (round to
 * nearest, no flush-to-zero), which the operators' C models (fp_model.c) compute in,
 * whatever the host program set: it is established once per call here, not per
 * operation there. */
#include "sim_internal.h"

#include "device_abi.h" /* HLS_REGS_PER_KERNEL: a control block's registers */

#include <dlfcn.h>
#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RESET_CYCLES 1 /* cycles reset is held (every reset in the templates is synchronous) */

#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>
/* SSE's control and status register: the default is round to nearest with every
 * exception masked and neither flush-to-zero nor denormals-are-zero; the low six bits
 * are the sticky exception flags. A host built with -ffast-math sets FTZ and DAZ. */
#define MXCSR_DEFAULT 0x1F80u
#define MXCSR_FLAGS 0x3Fu
typedef unsigned fp_env;
static fp_env fp_env_enter(void)
{
    fp_env saved = _mm_getcsr();
    if ((saved & ~MXCSR_FLAGS) != MXCSR_DEFAULT)
        _mm_setcsr(MXCSR_DEFAULT);
    return saved;
}
static void fp_env_leave(fp_env saved)
{
    if ((saved & ~MXCSR_FLAGS) != MXCSR_DEFAULT)
        _mm_setcsr(saved);
}
#else
typedef int fp_env;
static fp_env fp_env_enter(void)
{
    fp_env saved = fegetround();
    if (saved != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    return saved;
}
static void fp_env_leave(fp_env saved)
{
    if (saved != FE_TONEAREST)
        fesetround(saved);
}
#endif

/* A compute unit started by sim_model_unit_start: running, or ended with its result
 * waiting for sim_model_unit_result. */
typedef struct sim_unit {
    unsigned cu;                   /* its compute unit (the program's kernel index) */
    uint32_t status_reg;           /* its status register */
    uint64_t done_mask;            /* the done bit in it */
    uint64_t idle_cycles;          /* its watchdog window */
    uint64_t last_move;            /* the model's cycle count when it last moved (or
                                      started, or the host wrote a register) */
    sim_mem_stats before;          /* the memory's counters when it started */
    int status;                    /* SIM_OK, SIM_ERR_TIMEOUT, ... once ended */
    sim_run_result result;         /* its outcome once ended */
    clhls_mem_range *ranges;       /* its access ranges (the harness reads them) */
} sim_unit;

struct sim_model {
    void *dl;                      /* dlopen handle of model.so */
    const clhls_harness_api *api;  /* the model's function table */
    void *inst;                    /* the model instance (harness-owned) */
    unsigned width;                /* memory port width in bytes */
    unsigned nmem;                 /* its memory ports */
    clhls_port_in in;              /* inputs driven in the current cycle */
    clhls_port_out out;            /* outputs sampled in the current cycle */
    uint64_t cycles;               /* cycles simulated since open */
    uint64_t idle;                 /* consecutive cycles without progress, carried from a
                                      run that returned SIM_RUNNING to the next run */
    int port_reset_pending;        /* the next run starts with an empty memory port */
    clhls_mem_range *ranges;       /* the accesses checked against (the harness reads
                                      them), NULL when not checking */
    uint64_t running;              /* slots of units running (bit s: units[s]) */
    uint64_t ended;                /* slots of units ended whose result was not taken */
    uint64_t failed;               /* slots of units that ended by a fault or the watchdog
                                      since the last reset: their hardware still runs */
    uint64_t failed_cus;           /* the same units by compute unit (bit cu, cu < 64):
                                      their writes are dropped */
    unsigned poll;                 /* the slot whose status register was read last */
    int every_cycle;               /* CLHLS_SIM_EVERY_CYCLE=1: no jumps over still cycles */
    sim_memory *mem;               /* the memory of the units' run (register cycles while
                                      units run step it too), NULL before one */
    sim_unit units[SIM_MAX_UNITS]; /* slots of the compute units started at once */
    int16_t tag_units[256];        /* the harness's tag_unit of the first 256 tags */
};

/* The compute unit whose memory handshake carries tag, -1 when the tags do not tell. */
static inline int tag_cu(const sim_model *m, uint32_t tag)
{
    return tag < 256 ? m->tag_units[tag] : m->api->tag_unit(m->inst, tag);
}

/* Bit cu of a mask of compute units (none for -1, -2 or a unit past 63). */
static inline uint64_t cu_bit(int cu)
{
    return (unsigned)cu < 64 ? (uint64_t)1 << cu : 0;
}

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

sim_model *sim_model_open(const char *so_path, const board_t *board, char *err,
                          size_t errlen)
{
    if (!so_path || !board) {
        fail(err, errlen, "sim_model_open: model path and board are required");
        return NULL;
    }
    void *dl = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fail(err, errlen, "cannot load model %s: %s", so_path, dlerror());
        return NULL;
    }
    const clhls_harness_api *(*get)(void);
    *(void **)&get = dlsym(dl, "clhls_harness_get");
    const clhls_harness_api *api = get ? get() : NULL;
    if (!api) {
        fail(err, errlen, "%s is not a clhls model (no clhls_harness_get)", so_path);
        dlclose(dl);
        return NULL;
    }
    if (api->abi_version != CLHLS_HARNESS_ABI_VERSION) {
        fail(err, errlen, "%s: harness ABI version %d, this library needs %d (rebuild the model)",
             so_path, api->abi_version, CLHLS_HARNESS_ABI_VERSION);
        dlclose(dl);
        return NULL;
    }
    if (api->mem_ports != board->mem_ports) {
        fail(err, errlen, "%s: the model has %u memory ports but board %s has %u", so_path,
             api->mem_ports, board->name ? board->name : "(unnamed)", board->mem_ports);
        dlclose(dl);
        return NULL;
    }
    if (api->mem_width_bytes * 8 != board->mem_width_bits ||
        api->mem_width_bytes > CLHLS_MEM_MAX_BYTES) {
        fail(err, errlen, "%s: the model's memory port is %u bits wide but board %s has a %u-bit memory port",
             so_path, api->mem_width_bytes * 8, board->name ? board->name : "(unnamed)",
             board->mem_width_bits);
        dlclose(dl);
        return NULL;
    }
    sim_model *m = hls_try_alloc(sizeof *m);
    if (!m) {
        fail(err, errlen, "out of memory");
        dlclose(dl);
        return NULL;
    }
    m->dl = dl;
    m->api = api;
    m->width = api->mem_width_bytes;
    m->nmem = api->mem_ports;
    m->inst = api->create();
    if (!m->inst) {
        fail(err, errlen, "%s: cannot create the model instance", so_path);
        dlclose(dl);
        free(m);
        return NULL;
    }
    for (uint32_t t = 0; t < 256; t++) /* the top named its units when created */
        m->tag_units[t] = (int16_t)api->tag_unit(m->inst, t);
    const char *every = getenv("CLHLS_SIM_EVERY_CYCLE");
    m->every_cycle = every && strcmp(every, "0") != 0;
    sim_model_reset(m);
    return m;
}

void sim_model_close(sim_model *model)
{
    if (!model)
        return;
    model->api->destroy(model->inst);
    dlclose(model->dl);
    free(model->ranges);
    for (unsigned u = 0; u < SIM_MAX_UNITS; u++)
        free(model->units[u].ranges);
    free(model);
}

/* A write request of a failed unit (its tag tells) reaches the memory without byte
 * enables: it is answered and changes nothing. */
static void drop_failed_write(const sim_model *m, clhls_mem_out *out, int cu)
{
    if (cu >= 0 && cu < 64 && (m->failed_cus >> cu & 1) && out->req_write)
        memset(out->req_wstrb, 0, m->width);
}

/* Whether memory port p takes a request in this cycle; presents a response taken. */
static inline int request_taken(const clhls_port_in *in, const clhls_port_out *out, unsigned p)
{
    return in->mem[p].req_ready & out->mem[p].req_valid;
}
static inline int response_taken(const clhls_port_in *in, const clhls_port_out *out, unsigned p)
{
    return in->mem[p].resp_valid & out->mem[p].resp_ready;
}

/* One cycle of register access: with the memory ports idle, or, while compute units
 * run, with the memory serving them (what this cycle reveals, a done bit, a fault or
 * a bad address, stays recorded for the run loop to see). */
static void idle_cycle(sim_model *m)
{
    int serve = m->running && m->mem;
    if (serve)
        sim_mem_port_drive(m->mem, &m->in);
    else
        sim_mem_port_idle(&m->in);
    fp_env saved = fp_env_enter();
    m->api->cycle(m->inst, &m->in, &m->out);
    fp_env_leave(saved);
    for (unsigned p = 0; serve && m->failed_cus && p < m->nmem; p++)
        if (request_taken(&m->in, &m->out, p))
            drop_failed_write(m, &m->out.mem[p],
                              m->api->tag_unit(m->inst, m->out.mem[p].req_tag));
    if (serve)
        sim_mem_port_update(m->mem, &m->in, &m->out);
    m->cycles++;
    m->in.reg_we = 0;
}

void sim_model_reset(sim_model *model)
{
    if (!model)
        return;
    memset(&model->in, 0, sizeof model->in);
    model->in.rst = 1;
    for (int i = 0; i < RESET_CYCLES; i++)
        idle_cycle(model);
    model->in.rst = 0;
    model->idle = 0;
    model->port_reset_pending = 1;
    model->running = model->ended = model->failed = model->failed_cus = 0;
    model->mem = NULL;
}

void sim_model_reg_write(sim_model *model, uint32_t reg, uint64_t value)
{
    if (!model)
        return;
    model->in.reg_we = 1;
    model->in.reg_addr = reg;
    model->in.reg_wdata = value;
    model->idle = 0; /* the host acted: a new watchdog window */
    idle_cycle(model);
    for (uint64_t r = model->running; r; r &= r - 1)
        model->units[__builtin_ctzll(r)].last_move = model->cycles;
}

uint64_t sim_model_reg_read(sim_model *model, uint32_t reg)
{
    if (!model)
        return 0;
    model->in.reg_addr = reg;
    idle_cycle(model);
    return model->out.reg_rdata;
}

int sim_model_reg_final(const sim_model *model, uint32_t reg, uint64_t *value)
{
    if (!model || !value || model->every_cycle)
        return 0;
    return model->api->final_reg(model->inst, reg / HLS_REGS_PER_KERNEL,
                                 reg % HLS_REGS_PER_KERNEL, value);
}

/* The ranges in the harness's form (it keeps them until told others), or NULL when out
 * of memory. */
static clhls_mem_range *harness_ranges(const sim_mem_range *ranges, unsigned n)
{
    clhls_mem_range *copy = hls_try_alloc((n ? n : 1) * sizeof *copy);
    for (unsigned i = 0; copy && i < n; i++)
        copy[i] = (clhls_mem_range){ranges[i].base, ranges[i].bytes};
    return copy;
}

int sim_model_check_accesses(sim_model *model, const sim_mem_range *ranges, unsigned n)
{
    if (!model || (!ranges && n))
        return SIM_ERR_ARG;
    clhls_mem_range *copy = NULL;
    if (ranges && !(copy = harness_ranges(ranges, n)))
        return SIM_ERR_NOMEM;
    model->api->check_accesses(model->inst, CLHLS_ALL_UNITS, copy, n);
    free(model->ranges);
    model->ranges = copy;
    return SIM_OK;
}

/* Copies an access outside the checked ranges into a run's result. */
static void bad_access(sim_run_result *res, const clhls_access_fault *fault)
{
    res->bad_address = fault->addr;
    res->bad_write = fault->kind == 1 || fault->kind == 2; /* a store, an atomic */
    res->bad_unit = fault->unit;
    res->bad_cu = fault->cu;
    res->bad_bytes = fault->bytes;
    res->bad_kind = fault->kind;
}

/* The status of a run the watchdog ended: an out-of-bounds load when a speculative
 * load unit of compute unit cu (CLHLS_ALL_UNITS: of any) still holds a request outside
 * its buffers (its iteration was not past its loop's exit), else a timeout. */
static int watchdog_status(sim_model *m, unsigned cu, sim_run_result *res)
{
    clhls_access_fault held;
    if (!m->api->held_access(m->inst, cu, &held))
        return SIM_ERR_TIMEOUT;
    bad_access(res, &held);
    return SIM_ERR_BAD_ACCESS;
}

int sim_model_run(sim_model *model, sim_memory *mem, uint32_t status_reg,
                  uint64_t done_mask, uint64_t idle_cycles, uint64_t max_cycles,
                  sim_run_result *result)
{
    sim_run_result local;
    if (!result)
        result = &local;
    memset(result, 0, sizeof *result);
    if (!model || !mem || sim_mem_width_bytes(mem) != model->width || idle_cycles == 0)
        return SIM_ERR_ARG;
    if (model->port_reset_pending) {
        sim_mem_port_reset(mem);
        model->port_reset_pending = 0;
    }
    sim_mem_clear_bad(mem);

    const sim_mem_stats before = sim_mem_get_stats(mem);
    void (*const cycle)(void *, const clhls_port_in *, clhls_port_out *) = model->api->cycle;
    void *const inst = model->inst;
    clhls_port_in *const in = &model->in;
    clhls_port_out *const out = &model->out;
    in->rst = 0;
    in->reg_we = 0;
    in->reg_addr = status_reg;
    out->progress = 0; /* a model without the port never writes it */

    int status = SIM_RUNNING;
    uint64_t n = 0, idle = model->idle, last = 0;
    fp_env saved = fp_env_enter();
    while (!max_cycles || n < max_cycles) {
        sim_mem_port_drive(mem, in);
        cycle(inst, in, out);
        n++;
        /* forward progress: inside the accelerator, or a handshake on the memory port */
        unsigned moved = out->progress;
        for (unsigned p = 0; p < model->nmem; p++)
            moved |= request_taken(in, out, p) | response_taken(in, out, p);
        if (out->access_fault) {
            status = SIM_ERR_BAD_ACCESS;
            break;
        }
        if (sim_mem_port_update(mem, in, out)) {
            status = SIM_ERR_BAD_ADDRESS;
            break;
        }
        if (out->reg_rdata & done_mask) {
            status = SIM_OK;
            break;
        }
        if (moved) {
            idle = 0;
            last = n;
        } else if (++idle >= idle_cycles) {
            status = SIM_ERR_TIMEOUT;
            break;
        }
    }
    fp_env_leave(saved);
    sim_mem_port_idle(in);
    model->cycles += n;
    model->idle = status == SIM_RUNNING ? idle : 0;

    const sim_mem_stats after = sim_mem_get_stats(mem);
    result->cycles = n;
    result->last_progress = last;
    result->mem_read_bytes = after.read_bytes - before.read_bytes;
    result->mem_write_bytes = after.write_bytes - before.write_bytes;
    result->mem_requests = after.requests - before.requests;
    if (status == SIM_ERR_BAD_ADDRESS)
        sim_mem_bad(mem, &result->bad_address, &result->bad_write);
    clhls_access_fault fault;
    if (status == SIM_ERR_BAD_ACCESS && model->api->access_fault(inst, CLHLS_ALL_UNITS, &fault))
        bad_access(result, &fault);
    if (status == SIM_ERR_TIMEOUT)
        status = watchdog_status(model, CLHLS_ALL_UNITS, result);
    return status;
}

/* ---- compute units running at once ---- */

static unsigned lowest_bit(uint64_t v) { return (unsigned)__builtin_ctzll(v); }

/* The slot of compute unit cu that is running or has ended, SIM_MAX_UNITS if none. */
static unsigned slot_of(const sim_model *m, unsigned cu)
{
    for (uint64_t r = m->running | m->ended; r; r &= r - 1)
        if (m->units[lowest_bit(r)].cu == cu)
            return lowest_bit(r);
    return SIM_MAX_UNITS;
}

int sim_model_unit_start(sim_model *model, unsigned cu, uint32_t control_reg,
                         uint64_t start_mask, uint32_t status_reg, uint64_t done_mask,
                         uint64_t idle_cycles, const sim_mem_range *ranges, unsigned n)
{
    if (!model || cu == CLHLS_ALL_UNITS || !done_mask || !idle_cycles || (!ranges && n) ||
        slot_of(model, cu) < SIM_MAX_UNITS || !~(model->running | model->ended))
        return SIM_ERR_ARG;
    unsigned slot = lowest_bit(~(model->running | model->ended));
    sim_unit *u = &model->units[slot];
    clhls_mem_range *copy = NULL;
    if (ranges && !(copy = harness_ranges(ranges, n)))
        return SIM_ERR_NOMEM;
    if (u->ranges && u->cu != cu) /* the unit that had the slot is checked no more */
        model->api->check_accesses(model->inst, u->cu, NULL, 0);
    model->api->check_accesses(model->inst, cu, copy, n);
    free(u->ranges);
    u->ranges = copy;
    u->cu = cu;
    u->status_reg = status_reg;
    u->done_mask = done_mask;
    u->idle_cycles = idle_cycles;
    u->status = SIM_RUNNING;
    memset(&u->result, 0, sizeof u->result);
    model->api->forget_finals(model->inst, control_reg / HLS_REGS_PER_KERNEL);
    sim_model_reg_write(model, control_reg, start_mask);
    u->result.start_cycle = u->last_move = model->cycles;
    u->before = model->mem ? sim_mem_get_stats(model->mem) : (sim_mem_stats){0, 0, 0};
    model->running |= (uint64_t)1 << slot;
    return SIM_OK;
}

/* Ends the unit in slot with status after the cycle the model's count has reached. */
static void unit_end(sim_model *m, unsigned slot, int status)
{
    sim_unit *u = &m->units[slot];
    uint64_t bit = (uint64_t)1 << slot;
    u->status = status;
    u->result.end_cycle = m->cycles;
    u->result.cycles = m->cycles - u->result.start_cycle;
    u->result.last_progress = u->last_move - u->result.start_cycle;
    if (m->mem) {
        sim_mem_stats now = sim_mem_get_stats(m->mem);
        u->result.mem_read_bytes = now.read_bytes - u->before.read_bytes;
        u->result.mem_write_bytes = now.write_bytes - u->before.write_bytes;
        u->result.mem_requests = now.requests - u->before.requests;
    }
    m->running &= ~bit;
    m->ended |= bit;
    if (status != SIM_OK) {
        m->failed |= bit;
        if (u->cu < 64)
            m->failed_cus |= (uint64_t)1 << u->cu;
    }
}


/* Ends every running unit that has an access fault recorded, and stops checking it
 * (its hardware goes on; the fault is its own). */
static void end_faulted_units(sim_model *m)
{
    for (uint64_t r = m->running; r; r &= r - 1) {
        unsigned slot = lowest_bit(r);
        clhls_access_fault fault;
        if (!m->api->access_fault(m->inst, m->units[slot].cu, &fault))
            continue;
        bad_access(&m->units[slot].result, &fault);
        unit_end(m, slot, SIM_ERR_BAD_ACCESS);
        m->api->check_accesses(m->inst, m->units[slot].cu, NULL, 0);
    }
}

/* The running slot that is polled `steps` turns after slot poll (in slot order, round
 * the running ones). */
static unsigned poll_after(uint64_t running, unsigned poll, uint64_t steps)
{
    unsigned k = (unsigned)__builtin_popcountll(running);
    unsigned rank = (unsigned)__builtin_popcountll(running & (((uint64_t)1 << poll) - 1));
    rank = (unsigned)((rank + steps % k) % k);
    uint64_t r = running;
    while (rank--)
        r &= r - 1;
    return lowest_bit(r);
}

/* How many cycles from this one the model may be jumped over: it is still with these
 * inputs, which the memory keeps until its next event, no unit's watchdog falls due
 * earlier and the run's budget allows them (at least 2 to be worth a jump; 1 steps
 * one). Only to a memory event: a model that waits for nothing the memory does waits
 * for the host (a channel's writer not started yet) or for ever, and its cycles stay
 * as slow as the host's (a jump to the watchdog would end a reader whose writer the
 * host is about to start). The last cycle's progress or a response presented now rule
 * it out at once (a busy cycle pays two tests). */
static uint64_t still_cycles(sim_model *m, const sim_memory *mem, uint64_t cycles, uint64_t left)
{
    uint64_t n;
    if (m->out.progress | m->in.mem[0].resp_valid || m->every_cycle ||
        (n = sim_mem_port_calm(mem)) < 2 || !m->api->still(m->inst, &m->in))
        return 1; /* (still() looks at every port's response) */
    for (uint64_t r = m->running; r; r &= r - 1) {
        const sim_unit *u = &m->units[lowest_bit(r)];
        uint64_t due = u->last_move + u->idle_cycles; /* the cycle its watchdog ends it */
        if (due - cycles < n)
            n = due - cycles;
    }
    if (left < n)
        n = left;
    return n < ((uint64_t)1 << 31) ? n : (uint64_t)1 << 31;
}

int sim_model_run_units(sim_model *model, sim_memory *mem, uint64_t max_cycles)
{
    if (!model || !mem || sim_mem_width_bytes(mem) != model->width || !model->running)
        return SIM_ERR_ARG;
    if (model->port_reset_pending) {
        sim_mem_port_reset(mem);
        model->port_reset_pending = 0;
        if (!model->mem) /* the units started before the first run: counters from here */
            for (uint64_t r = model->running; r; r &= r - 1)
                model->units[lowest_bit(r)].before = sim_mem_get_stats(mem);
    }
    model->mem = mem;
    void (*const cycle)(void *, const clhls_port_in *, clhls_port_out *) = model->api->cycle;
    void *const inst = model->inst;
    clhls_port_in *const in = &model->in;
    clhls_port_out *const out = &model->out;
    const int per_unit = model->api->has_unit_progress != 0;
    in->rst = 0;
    in->reg_we = 0;
    out->progress = 0;
    out->unit_progress = 0;

    sim_unit *const units = model->units;
    const unsigned nmem = model->nmem;
    uint64_t running = model->running, n = 0, cycles = model->cycles;
    unsigned poll = model->poll;
    int status = SIM_OK, ended = 0;
    fp_env saved = fp_env_enter();
    while (!ended) {
        if (max_cycles && n >= max_cycles) {
            status = SIM_RUNNING;
            break;
        }
        /* the status register of one running unit a cycle, in turn (done is sticky) */
        uint64_t later = running & ~(((uint64_t)2 << poll) - 1);
        poll = lowest_bit(later ? later : running);
        in->reg_addr = units[poll].status_reg;
        sim_mem_port_drive(mem, in);
        /* Cycles where nothing moves are one jump: the status registers they would read
         * hold (a done bit set in them was read before the model became still), the
         * last one's is read. */
        uint64_t jump = still_cycles(model, mem, cycles, max_cycles ? max_cycles - n : UINT64_MAX);
        if (jump > 1) {
            poll = poll_after(running, poll, jump - 1);
            in->reg_addr = units[poll].status_reg;
            model->api->jump(inst, in, out, jump);
            sim_mem_port_skip(mem, jump - 1);
            for (uint64_t r = running; r; r &= r - 1)
                units[lowest_bit(r)].result.skipped_cycles += jump - 1;
        } else {
            cycle(inst, in, out);
        }
        n += jump;
        cycles += jump;
        /* a memory handshake is the progress of the unit its tag names (bit cu of
         * mem_moved), or of every unit when the tags do not tell (any) */
        uint64_t mem_moved = 0;
        int any = 0, req_cu[CLHLS_MEM_MAX_PORTS];
        for (unsigned p = 0; p < nmem; p++) {
            req_cu[p] = request_taken(in, out, p) ? tag_cu(model, out->mem[p].req_tag) : -2;
            int resp_cu = response_taken(in, out, p) ? tag_cu(model, in->mem[p].resp_tag) : -2;
            any |= req_cu[p] == -1 || resp_cu == -1;
            mem_moved |= cu_bit(req_cu[p]) | cu_bit(resp_cu);
        }
        model->cycles = cycles; /* what unit_end reads */
        if (out->access_fault) {
            end_faulted_units(model);
            ended = running != model->running;
        }
        for (unsigned p = 0; model->failed_cus && p < nmem; p++)
            drop_failed_write(model, &out->mem[p], req_cu[p]);
        if (sim_mem_port_update(mem, in, out)) {
            if (model->failed) {
                /* an address outside every buffer after a unit's fault: that unit's
                 * (the load-store units see an access before the memory does) */
                sim_mem_clear_bad(mem);
            } else {
                uint64_t addr = 0;
                int write = 0;
                sim_mem_bad(mem, &addr, &write);
                for (uint64_t r = model->running; r; r &= r - 1) {
                    unsigned slot = lowest_bit(r);
                    units[slot].result.bad_address = addr;
                    units[slot].result.bad_write = write;
                    unit_end(model, slot, SIM_ERR_BAD_ADDRESS);
                }
                break;
            }
        }
        if ((model->running >> poll & 1) && (out->reg_rdata & units[poll].done_mask)) {
            unit_end(model, poll, SIM_OK);
            ended = 1;
        }
        /* each running unit's watchdog: its own progress or memory handshake */
        for (uint64_t r = model->running; r; r &= r - 1) {
            unsigned slot = lowest_bit(r);
            sim_unit *u = &units[slot];
            unsigned mine = per_unit && u->cu < 64 ? (unsigned)(out->unit_progress >> u->cu & 1)
                                                   : out->progress;
            if (u->cu < 64)
                mine |= (unsigned)(mem_moved >> u->cu & 1);
            if (mine | any) {
                u->last_move = cycles;
            } else if (cycles - u->last_move >= u->idle_cycles) {
                unit_end(model, slot, watchdog_status(model, u->cu, &u->result));
                ended = 1;
            }
        }
        running = model->running;
    }
    fp_env_leave(saved);
    model->cycles = cycles;
    model->poll = poll;
    sim_mem_port_idle(in);
    return status;
}

int sim_model_unit_ended(const sim_model *model, unsigned *cu)
{
    if (!model || !model->ended)
        return 0;
    if (cu)
        *cu = model->units[lowest_bit(model->ended)].cu;
    return 1;
}

int sim_model_unit_result(sim_model *model, unsigned cu, sim_run_result *result)
{
    unsigned slot = model ? slot_of(model, cu) : SIM_MAX_UNITS;
    if (slot >= SIM_MAX_UNITS || !(model->ended >> slot & 1))
        return SIM_ERR_ARG;
    const sim_unit *u = &model->units[slot];
    if (result)
        *result = u->result;
    model->ended &= ~((uint64_t)1 << slot);
    return u->status;
}

unsigned sim_model_running_units(const sim_model *model)
{
    return model ? (unsigned)__builtin_popcountll(model->running) : 0;
}

uint64_t sim_model_units_still(const sim_model *model)
{
    uint64_t still = UINT64_MAX;
    for (uint64_t r = model ? model->running : 0; r; r &= r - 1) {
        const sim_unit *u = &model->units[lowest_bit(r)];
        if (model->cycles - u->last_move < still)
            still = model->cycles - u->last_move;
    }
    return still == UINT64_MAX ? 0 : still;
}

uint64_t sim_model_cycles(const sim_model *model) { return model ? model->cycles : 0; }

/* ---- waveforms ---- */

int sim_model_has_waves(const sim_model *model)
{
    return model && model->api->has_waves ? 1 : 0;
}

int sim_model_waves_open(sim_model *model, const char *path, char *err, size_t errlen)
{
    if (!model || !path || !*path) {
        fail(err, errlen, "sim_model_waves_open: model and path are required");
        return SIM_ERR_ARG;
    }
    if (!model->api->has_waves) {
        fail(err, errlen, "the model was built without tracing (build its traced variant: "
                          "clhls build --waves)");
        return SIM_ERR_ARG;
    }
    if (model->api->waves_open(model->inst, path)) {
        fail(err, errlen, "cannot write the waveform %s", path);
        return SIM_ERR_ARG;
    }
    return SIM_OK;
}

void sim_model_waves_window(sim_model *model, uint64_t first, uint64_t last)
{
    if (model)
        model->api->waves_window(model->inst, first, last);
}

void sim_model_waves_close(sim_model *model)
{
    if (model)
        model->api->waves_close(model->inst);
}

int sim_model_has_progress_port(const sim_model *model)
{
    return model && model->api->has_progress_port ? 1 : 0;
}
