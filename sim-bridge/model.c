/* Accelerator models: loads a verilated model library (built by sim_build_model) with
 * dlopen(RTLD_LOCAL), so several models live side by side, and drives it through the
 * harness ABI one clock cycle at a time: reset, register access through the register
 * port, and the run loop that steps the model against the board memory until the
 * kernel reports done, a load-store unit accepts an access outside the checked
 * ranges, the memory sees a bad address, or the watchdog sees no forward
 * progress (neither the top's `progress` output nor a memory handshake) for the idle
 * window. The run loop allocates nothing and copies only the port width. Every cycle
 * runs in the default floating-point environment (round to nearest, no flush-to-zero),
 * which the operators' C models (fp_model.c) compute in, whatever the host program
 * set: it is established once per call here, not per operation there. */
#include "sim_internal.h"

#include <dlfcn.h>
#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RESET_CYCLES 4 /* cycles reset is held */

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

struct sim_model {
    void *dl;                      /* dlopen handle of model.so */
    const clhls_harness_api *api;  /* the model's function table */
    void *inst;                    /* the model instance (harness-owned) */
    unsigned width;                /* memory port width in bytes */
    clhls_port_in in;              /* inputs driven in the current cycle */
    clhls_port_out out;            /* outputs sampled in the current cycle */
    uint64_t cycles;               /* cycles simulated since open */
    uint64_t idle;                 /* consecutive cycles without progress, carried from a
                                      run that returned SIM_RUNNING to the next run */
    int port_reset_pending;        /* the next run starts with an empty memory port */
    clhls_mem_range *ranges;       /* the accesses checked against (the harness reads
                                      them), NULL when not checking */
};

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
    m->inst = api->create(NULL);
    if (!m->inst) {
        fail(err, errlen, "%s: cannot create the model instance", so_path);
        dlclose(dl);
        free(m);
        return NULL;
    }
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
    free(model);
}

/* One cycle with the memory port idle. */
static void idle_cycle(sim_model *m)
{
    sim_mem_port_idle(&m->in);
    fp_env saved = fp_env_enter();
    m->api->cycle(m->inst, &m->in, &m->out);
    fp_env_leave(saved);
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
}

uint64_t sim_model_reg_read(sim_model *model, uint32_t reg)
{
    if (!model)
        return 0;
    model->in.reg_addr = reg;
    idle_cycle(model);
    return model->out.reg_rdata;
}

int sim_model_check_accesses(sim_model *model, const sim_mem_range *ranges, unsigned n)
{
    if (!model || (!ranges && n))
        return SIM_ERR_ARG;
    clhls_mem_range *copy = NULL;
    if (ranges) {
        copy = hls_try_alloc((n ? n : 1) * sizeof *copy);
        if (!copy)
            return SIM_ERR_NOMEM;
        for (unsigned i = 0; i < n; i++)
            copy[i] = (clhls_mem_range){ranges[i].base, ranges[i].bytes};
    }
    model->api->check_accesses(model->inst, copy, n);
    free(model->ranges);
    model->ranges = copy;
    return SIM_OK;
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
        unsigned moved = out->progress | (in->mem_req_ready & out->mem_req_valid) |
                         (in->mem_resp_valid & out->mem_resp_ready);
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
    if (status == SIM_ERR_BAD_ACCESS && model->api->access_fault(inst, &fault)) {
        result->bad_address = fault.addr;
        result->bad_write = fault.kind != 0;
        result->bad_unit = fault.unit;
        result->bad_bytes = fault.bytes;
        result->bad_kind = fault.kind;
    }
    return status;
}

uint64_t sim_model_cycles(const sim_model *model) { return model ? model->cycles : 0; }

int sim_model_has_progress_port(const sim_model *model)
{
    return model && model->api->has_progress_port ? 1 : 0;
}
