/* The simulator's C API: board memory (backing store plus the timing model of the
 * board's memory port) and accelerator models (verilated shared libraries). The host
 * runtime's simulated device is the only user outside tests; nothing else calls the
 * simulator directly. */
#ifndef CLHLS_SIM_H
#define CLHLS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

typedef enum {
    SIM_RUNNING = 1,           /* sim_model_run: the max_cycles cap came first; not done,
                                  not hung (call again to continue) */
    SIM_OK = 0,
    SIM_ERR_TIMEOUT = -1,      /* the watchdog: no forward progress for the idle window */
    SIM_ERR_BAD_ADDRESS = -2,  /* the accelerator touched memory outside any buffer */
    SIM_ERR_LOAD = -3,         /* the model library could not be loaded */
    SIM_ERR_ARG = -4,          /* invalid argument to the API */
    SIM_ERR_BUILD = -5,        /* Verilator build failed */
    SIM_ERR_NOMEM = -6,        /* out of host memory */
    SIM_ERR_BAD_ACCESS = -7,   /* a load-store unit accepted a work-item's access outside
                                  the ranges of sim_model_check_accesses */
} sim_status;

/* ---- board memory ---- */
typedef struct sim_memory sim_memory;

sim_memory *sim_memory_create(const board_t *board);
void sim_memory_destroy(sim_memory *mem);
/* Makes [addr, addr+size) a valid, zero-filled region (a buffer). */
int sim_memory_map(sim_memory *mem, uint64_t addr, uint64_t size);
/* Removes the region that starts at addr. */
int sim_memory_unmap(sim_memory *mem, uint64_t addr);
/* Host access; the whole range must lie inside one mapped region. */
int sim_memory_write(sim_memory *mem, uint64_t addr, const void *src, size_t size);
int sim_memory_read(sim_memory *mem, uint64_t addr, void *dst, size_t size);
/* Direct pointer to the backing store of [addr, addr+size), NULL when not mapped. */
void *sim_memory_ptr(sim_memory *mem, uint64_t addr, size_t size);

/* Stress mode: timing chaos that must not change any result. With a non-zero seed the
 * port gives every request a random extra latency of 0..4x the board latency and
 * deasserts mem_req_ready on about a quarter of the cycles, in bursts; responses to
 * different tags may overtake each other, responses to one tag stay in request order,
 * and every request still takes effect (writes land, reads take their data) at
 * acceptance, in acceptance order. The random sequence restarts from the seed at every
 * port reset (each run after sim_model_reset), so a kernel launch's timing depends only
 * on the seed and the kernel. sim_memory_create takes the seed from CLHLS_SIM_STRESS
 * (absent, empty or 0: off; a number is the seed; any other text is hashed into one).
 * Setting it drops every request in flight (call it between runs). */
void sim_memory_set_stress(sim_memory *mem, uint64_t seed);
/* The stress seed, 0 when stress mode is off. */
uint64_t sim_memory_stress(const sim_memory *mem);
/* The seed CLHLS_SIM_STRESS asks for now (0 = off), parsed as described above. */
uint64_t sim_stress_env(void);

/* ---- accelerator models ---- */
typedef struct sim_model sim_model;

/* What building a model took (the build report and bench_speed print it). */
typedef struct sim_build_stats {
    double verilator_seconds;  /* Verilog to C++ */
    double compile_seconds;    /* the generated C++ and the harness compiled */
    double link_seconds;       /* the shared library linked */
    size_t cxx_bytes;          /* C++ that Verilator generated */
    unsigned cxx_files;        /* .cpp files among it */
    unsigned units;            /* translation units it was compiled as */
    char opt[4];               /* the C++ optimisation level, "-O1" or "-O2" */
    char runtime_damaged[256]; /* why Verilator's cached runtime was compiled again ("" if not) */
} sim_build_stats;

/* sim_build_model's flags. By default the arithmetic operator templates (clhls_fadd,
 * clhls_fmul, clhls_idiv, ...) are simulated through their bit-accurate C models
 * (sim-bridge/fp_model.c, Verilog define CLHLS_SIM_MODELS): the template tests prove
 * them equal to the RTL, and they cost a few instructions a cycle instead of hundreds;
 * the same define makes the SIM_LATENCY parameters count, which simulate a compute
 * unit's static regions folded (docs/architecture.md). SIM_BUILD_RTL_OPERATORS simulates
 * the operators' RTL and the pipelines' registers instead. */
#define SIM_BUILD_RTL_OPERATORS 1u
/* SIM_BUILD_WAVES builds the traced variant: Verilator's --trace-fst, the harness and
 * every unit compiled with VM_TRACE, Verilator's FST writer compiled in and zlib linked.
 * Each cycle then costs more; the normal model is built without it. */
#define SIM_BUILD_WAVES 2u
/* SIM_BUILD_THREADS(n), n from 2 to SIM_MAX_THREADS, builds the multi-threaded variant:
 * Verilator's --threads n, the harness compiled with CLHLS_MODEL_THREADS=n, so each
 * evaluation of the model is spread over n threads (the calling one and n - 1 of its
 * Verilator context). Cycle counts and results are the single-threaded model's. */
#define SIM_MAX_THREADS 64u
#define SIM_BUILD_THREADS(n) (((unsigned)(n) & 0xffu) << 8)
/* The thread count of sim_build_model's flags (0: single-threaded). */
#define SIM_BUILD_THREADS_OF(flags) (((unsigned)(flags) >> 8) & 0xffu)

/* Verilator-builds the given Verilog files (top module `top`) with the harness into
 * the shared library out_so. Work happens in work_dir. runtime_dir keeps the parts
 * that do not depend on the design (Verilator's runtime compiled position-independent),
 * built once and shared by later builds; it is created when missing. On failure
 * returns SIM_ERR_BUILD and *log holds Verilator's and the C++ compiler's output
 * (malloc'd; also set, possibly empty, on success). stats, when not NULL, receives
 * what the build took. */
int sim_build_model(const char *const *verilog_files, size_t nfiles, const char *top,
                    const char *work_dir, const char *runtime_dir, const char *out_so,
                    unsigned flags, char **log, sim_build_stats *stats);
/* sim_build_model that also calls progress(ctx, step) as each of its steps begins:
 * "Verilator", "Verilator runtime (once)" when runtime_dir needs building, "C++ compile
 * of the model", "link of the model". progress may be NULL. */
int sim_build_model_progress(const char *const *verilog_files, size_t nfiles,
                             const char *top, const char *work_dir, const char *runtime_dir,
                             const char *out_so, unsigned flags,
                             void (*progress)(void *ctx, const char *step), void *ctx,
                             char **log, sim_build_stats *stats);
/* The harness source sim_build_model compiles ($CLHLS_HARNESS_CPP, else the source
 * tree's, else the installed copy; its directory holds the interface and the operator
 * models it includes), or NULL when there is none. */
const char *sim_harness_source(void);
/* Source file i of those every model compiles besides the design, written to path:
 * 0 the harness (sim_harness_source), then its interface and the operator models
 * beside it. 0, or -1 past the last one or when there is no harness. */
int sim_harness_file(size_t i, char *path, size_t size);

/* Loads a model library for a board. Returns NULL and a message on failure. */
sim_model *sim_model_open(const char *so_path, const board_t *board, char *err,
                          size_t errlen);
void sim_model_close(sim_model *model);

/* Holds reset for a few cycles; clears any state from an earlier (failed) run. */
void sim_model_reset(sim_model *model);
/* Register access through the register port; each takes one cycle. */
void sim_model_reg_write(sim_model *model, uint32_t reg, uint64_t value);
uint64_t sim_model_reg_read(sim_model *model, uint32_t reg);
/* 1 and *value when register reg holds a count its kernel's control block handed over
 * once the kernel was done in its last start (final from then on: the value a read
 * would give, without the read's cycle); 0 when it did not (the kernel has not ended
 * well, or CLHLS_SIM_EVERY_CYCLE=1): read it with sim_model_reg_read. */
int sim_model_reg_final(const sim_model *model, uint32_t reg, uint64_t *value);

/* Result of sim_model_run. */
typedef struct sim_run_result {
    uint64_t cycles;           /* cycles simulated by this run */
    uint64_t bad_address;      /* first offending address (SIM_ERR_BAD_ADDRESS, and the
                                  work-item's address with SIM_ERR_BAD_ACCESS) */
    int bad_write;             /* 1 when the offending access was a write (or an atomic) */
    unsigned bad_unit;         /* SIM_ERR_BAD_ACCESS: the load-store unit (UNIT) */
    unsigned bad_bytes;        /* SIM_ERR_BAD_ACCESS: the access's size */
    int bad_kind;              /* SIM_ERR_BAD_ACCESS: 0 load, 1 store, 2 atomic, 3 a load of
                                  a speculated loop iteration, held until the watchdog */
    uint64_t mem_read_bytes;   /* bytes moved from memory (whole port words) */
    uint64_t mem_write_bytes;  /* bytes written to memory (enabled lanes) */
    uint64_t mem_requests;     /* memory requests served */
    uint64_t last_progress;    /* cycle of this run (1-based) that last moved, 0 if none */
    unsigned bad_cu;           /* SIM_ERR_BAD_ACCESS: the compute unit of the load-store unit */
    uint64_t start_cycle;      /* sim_model_run_units: the model's cycle count when the unit
                                  started (sim_model_cycles) */
    uint64_t end_cycle;        /* ... and when its end was seen (cycles = the difference) */
    uint64_t skipped_cycles;   /* sim_model_run_units: cycles of it the model was not
                                  evaluated in (jumped over: nothing moved in them) */
} sim_run_result;

/* A range of device memory, [base, base + bytes). */
typedef struct sim_mem_range {
    uint64_t base;
    uint64_t bytes;
} sim_mem_range;

/* Checks, from now on, every access a global load-store unit of the model accepts (a
 * work-item's address and size, before lines are formed) against ranges: the first
 * one outside all of them ends the run with SIM_ERR_BAD_ACCESS. It stays recorded
 * (every later run ends at once) until the next call; ranges NULL ends the checking.
 * Copies the ranges. SIM_OK, SIM_ERR_NOMEM or SIM_ERR_ARG. */
int sim_model_check_accesses(sim_model *model, const sim_mem_range *ranges, unsigned n);

/* Steps the model against mem until (reg_read(status_reg) & done_mask) != 0. The
 * watchdog judges forward progress, not time: a cycle moves when the top's `progress`
 * output is 1 or the memory port has a request or a response handshake; after
 * idle_cycles consecutive cycles without a move the run ends with SIM_ERR_TIMEOUT
 * (idle_cycles must be at least 1). A kernel that keeps moving runs to the end,
 * however long, unless max_cycles (0 = no cap) is given: then the run returns
 * SIM_RUNNING after max_cycles cycles, and the next run continues the idle count
 * (sim_model_reset and sim_model_reg_write clear it), so a hung kernel stepped in
 * slices still times out. Returns SIM_OK, SIM_RUNNING, SIM_ERR_TIMEOUT,
 * SIM_ERR_BAD_ADDRESS, SIM_ERR_BAD_ACCESS or SIM_ERR_ARG. Allocates nothing. */
int sim_model_run(sim_model *model, sim_memory *mem, uint32_t status_reg,
                  uint64_t done_mask, uint64_t idle_cycles, uint64_t max_cycles,
                  sim_run_result *result);

/* ---- compute units running at once ----
 * Each kernel of a program is one compute unit of the accelerator (unit cu = the
 * program's kernel cu). Units start one at a time, up to SIM_MAX_UNITS at once, while
 * others run, and the model steps them all under one clock until one ends. A unit is
 * reset only with the whole model (sim_model_reset, never while units run); a unit
 * that ended by a fault or the watchdog goes on in the hardware until then,
 * unobserved: its accesses outside every buffer no longer end anything, and its writes
 * (when the memory port's tags tell whose they are) change nothing. */
#define SIM_MAX_UNITS 64

/* Starts compute unit cu (its geometry and arguments written): from now on checks
 * every access its load-store units accept against ranges (copied; NULL: no check),
 * and writes start_mask to control_reg (one cycle, in which running units go on). The
 * unit ends when status_reg & done_mask is set, at its first access outside ranges, or
 * after idle_cycles cycles in a row in which neither the unit (the top's
 * progress_units bit; the whole top's progress for units from 64 on or without that
 * port) nor the memory port for it moved (a handshake whose tag is the unit's, or any
 * handshake when the tags do not tell: with global atomics). SIM_ERR_ARG when cu runs
 * or its result was not taken, or SIM_MAX_UNITS units are started; SIM_ERR_NOMEM. */
int sim_model_unit_start(sim_model *model, unsigned cu, uint32_t control_reg,
                         uint64_t start_mask, uint32_t status_reg, uint64_t done_mask,
                         uint64_t idle_cycles, const sim_mem_range *ranges, unsigned n);
/* Steps the model against mem until at least one running unit ends (an address
 * outside every buffer that the memory sees while no unit has faulted ends every
 * running unit with SIM_ERR_BAD_ADDRESS), or for max_cycles cycles (0: no cap; then
 * SIM_RUNNING). SIM_OK, SIM_RUNNING or SIM_ERR_ARG (no unit running). Allocates
 * nothing. */
int sim_model_run_units(sim_model *model, sim_memory *mem, uint64_t max_cycles);
/* 1 and an ended unit whose result was not taken in *cu, else 0. */
int sim_model_unit_ended(const sim_model *model, unsigned *cu);
/* The outcome of ended unit cu (SIM_OK, SIM_ERR_TIMEOUT, SIM_ERR_BAD_ACCESS or
 * SIM_ERR_BAD_ADDRESS) and its result (cycles from its start to its end; the memory
 * counters are the whole port's over that time); the unit can start again.
 * SIM_ERR_ARG when it has not ended. */
int sim_model_unit_result(sim_model *model, unsigned cu, sim_run_result *result);
/* How many units run. */
unsigned sim_model_running_units(const sim_model *model);
/* Cycles since a running unit last moved (started, made progress or saw its memory
 * handshake): the least over the running units; 0 when none runs. */
uint64_t sim_model_units_still(const sim_model *model);

/* 1 when the model's top has the `progress` output; 0 for an older design, whose
 * watchdog sees only memory handshakes. */
int sim_model_has_progress_port(const sim_model *model);

/* Total cycles simulated by this model since it was opened. */
uint64_t sim_model_cycles(const sim_model *model);

/* ---- waveforms (a model built with SIM_BUILD_WAVES) ----
 * The traced model records every signal of the accelerator, under the generated
 * Verilog's names (clhls_top, cu_KERNEL, r<N>_..., lsu<N>, ...), in an FST file. Its
 * time axis is the model's cycle count (sim_model_cycles): the inputs of cycle c at c
 * ns with the clock low, its rising edge at c ns + 500 ps. */
/* 1 when the model was built with tracing. */
int sim_model_has_waves(const sim_model *model);
/* Opens the FST file path and records from the next cycle on, every cycle until
 * sim_model_waves_window says otherwise. SIM_OK, or SIM_ERR_ARG and a message (no
 * tracing in the model, a file that cannot be written, one already open). */
int sim_model_waves_open(sim_model *model, const char *path, char *err, size_t errlen);
/* Records only the cycles first..last (inclusive, on sim_model_cycles' count) from now
 * on; first > last records nothing. */
void sim_model_waves_window(sim_model *model, uint64_t first, uint64_t last);
/* Writes the rest of the waveform and closes it (sim_model_close does too): a file
 * that was never closed cannot be read. */
void sim_model_waves_close(sim_model *model);

#endif
