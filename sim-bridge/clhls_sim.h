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
    SIM_OK = 0,
    SIM_ERR_TIMEOUT = -1,      /* the cycle budget ran out (watchdog) */
    SIM_ERR_BAD_ADDRESS = -2,  /* the accelerator touched memory outside any buffer */
    SIM_ERR_LOAD = -3,         /* the model library could not be loaded */
    SIM_ERR_ARG = -4,          /* invalid argument to the API */
    SIM_ERR_BUILD = -5,        /* Verilator build failed */
    SIM_ERR_NOMEM = -6,        /* out of host memory */
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

/* ---- accelerator models ---- */
typedef struct sim_model sim_model;

/* Verilator-builds the given Verilog files (top module `top`) with the harness into
 * the shared library out_so. Work happens in work_dir. runtime_dir keeps the parts
 * that do not depend on the design (Verilator's runtime compiled position-independent),
 * built once and shared by later builds; it is created when missing. On failure
 * returns SIM_ERR_BUILD and *log holds Verilator's and the C++ compiler's output
 * (malloc'd; also set, possibly empty, on success). */
int sim_build_model(const char *const *verilog_files, size_t nfiles, const char *top,
                    const char *work_dir, const char *runtime_dir, const char *out_so,
                    char **log);

/* Loads a model library for a board. Returns NULL and a message on failure. */
sim_model *sim_model_open(const char *so_path, const board_t *board, char *err,
                          size_t errlen);
void sim_model_close(sim_model *model);

/* Holds reset for a few cycles; clears any state from an earlier (failed) run. */
void sim_model_reset(sim_model *model);
/* Register access through the register port; each takes one cycle. */
void sim_model_reg_write(sim_model *model, uint32_t reg, uint64_t value);
uint64_t sim_model_reg_read(sim_model *model, uint32_t reg);

/* Result of sim_model_run. */
typedef struct sim_run_result {
    uint64_t cycles;           /* cycles simulated by this run */
    uint64_t bad_address;      /* first offending address (SIM_ERR_BAD_ADDRESS) */
    int bad_write;             /* 1 when the offending access was a write */
    uint64_t mem_read_bytes;   /* bytes moved from memory (whole port words) */
    uint64_t mem_write_bytes;  /* bytes written to memory (enabled lanes) */
    uint64_t mem_requests;     /* memory requests served */
} sim_run_result;

/* Steps the model against mem until (reg_read(status_reg) & done_mask) != 0 or
 * max_cycles pass. Returns SIM_OK, SIM_ERR_TIMEOUT or SIM_ERR_BAD_ADDRESS. */
int sim_model_run(sim_model *model, sim_memory *mem, uint32_t status_reg,
                  uint64_t done_mask, uint64_t max_cycles, sim_run_result *result);

/* Total cycles simulated by this model since it was opened. */
uint64_t sim_model_cycles(const sim_model *model);

#endif
