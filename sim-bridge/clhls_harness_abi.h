/* The binary interface between the simulator library (C) and a verilated accelerator
 * model (a shared library built from the generated Verilog and harness.cpp). The model
 * exports one symbol, clhls_harness_get(), returning the function table below. All
 * traffic crosses this boundary as plain C structs, once per clock cycle. */
#ifndef CLHLS_HARNESS_ABI_H
#define CLHLS_HARNESS_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLHLS_HARNESS_ABI_VERSION 12/* 2: clhls_port_out.progress, has_progress_port;
                                       3: clhls_port_out.mem_req_atomic;
                                       4: the access checker (check_accesses,
                                          access_fault, clhls_port_out.access_fault);
                                       5: no mem_req_atomic (the accelerator's atomic
                                          unit executes atomics; the port carries reads
                                          and writes only);
                                       6: compute units running at once: per-unit
                                          progress (unit_progress, has_unit_progress,
                                          tag_unit), ranges and faults per compute
                                          unit;
                                       7: held_access (speculative loads outside the
                                          ranges);
                                       8: cycle() samples the memory port before
                                          the edge and the registered read data
                                          after it (outputs depend on registers);
                                       9: waveforms (has_waves, waves_open,
                                          waves_window, waves_close); create
                                          takes no argument;
                                      10: jumps over still cycles (still,
                                          jump);
                                      11: a run's final counts (final_reg,
                                          forget_finals);
                                      12: several memory ports (clhls_mem_in,
                                          clhls_mem_out, mem_ports) */
#define CLHLS_MEM_MAX_BYTES 128 /* widest memory port: 1024 bits */
#define CLHLS_MEM_MAX_PORTS 8   /* most memory ports */

/* What the board drives into one memory port in one cycle. */
typedef struct clhls_mem_in {
    uint8_t req_ready;          /* memory accepts a request this cycle */
    uint8_t resp_valid;         /* a response is presented this cycle */
    uint32_t resp_tag;          /* tag of the request this response answers */
    uint8_t resp_rdata[CLHLS_MEM_MAX_BYTES]; /* read data, byte 0 = lowest address;
                                                read only when resp_valid */
} clhls_mem_in;

/* What the accelerator drives out of one memory port in one cycle. */
typedef struct clhls_mem_out {
    uint8_t req_valid;          /* a request is presented */
    uint8_t req_write;          /* 1 = write, 0 = read */
    uint64_t req_addr;          /* byte address, aligned to the port width */
    uint32_t req_tag;           /* tag, echoed in the response */
    /* wdata and wstrb are filled only when req_valid && req_write */
    uint8_t req_wdata[CLHLS_MEM_MAX_BYTES]; /* write data */
    uint8_t req_wstrb[CLHLS_MEM_MAX_BYTES]; /* write byte enables, one byte per lane (0/1) */
    uint8_t resp_ready;         /* the accelerator accepts the presented response */
} clhls_mem_out;

/* Inputs of the accelerator top for one cycle (what the board drives). */
typedef struct clhls_port_in {
    uint8_t rst;                /* synchronous active-high reset */
    uint8_t reg_we;             /* register write enable */
    uint32_t reg_addr;          /* register index (64-bit registers) */
    uint64_t reg_wdata;         /* register write data */
    clhls_mem_in mem[CLHLS_MEM_MAX_PORTS]; /* the memory ports (mem_ports of them) */
} clhls_port_in;

/* Outputs of the accelerator top in one cycle, sampled before the clock edge. */
typedef struct clhls_port_out {
    uint64_t reg_rdata;         /* contents of register reg_addr (registered at the edge) */
    clhls_mem_out mem[CLHLS_MEM_MAX_PORTS]; /* the memory ports (mem_ports of them) */
    uint8_t progress;           /* the top's `progress` output: something moved inside the
                                   accelerator this cycle (the watchdog's evidence; 0 when
                                   the top has no such port) */
    uint8_t access_fault;       /* a load-store unit has accepted a request outside the
                                   checked ranges (sticky until check_accesses) */
    uint64_t unit_progress;     /* the top's `progress_units` output: bit u, compute unit u
                                   (the program's kernel u) moved this cycle (units 0..63;
                                   0 when the top has no such port) */
} clhls_port_out;

/* check_accesses' unit that stands for every compute unit. */
#define CLHLS_ALL_UNITS 0xFFFFFFFFu

/* A range of device memory the load-store units may touch: [base, base + bytes). */
typedef struct clhls_mem_range {
    uint64_t base;
    uint64_t bytes;
} clhls_mem_range;

/* The first access outside the checked ranges. */
typedef struct clhls_access_fault {
    uint64_t addr;              /* the work-item's byte address */
    uint32_t unit;              /* the load-store unit (its UNIT parameter) */
    uint32_t cu;                /* its compute unit (the program's kernel index; 0 when the
                                   top does not name its units) */
    uint32_t bytes;             /* the access's size */
    uint8_t kind;               /* 0 load, 1 store, 2 atomic, 3 a speculative load held */
} clhls_access_fault;

typedef struct clhls_harness_api {
    int abi_version;            /* CLHLS_HARNESS_ABI_VERSION */
    unsigned mem_width_bytes;   /* width of each of the model's memory ports in bytes */
    unsigned mem_ports;         /* its memory ports: the top's memory fields are vectors
                                   of this many, port m at slice m */
    unsigned has_progress_port; /* 1 when the top has the `progress` output, 0 when not
                                   (then only memory handshakes count as progress) */
    unsigned has_unit_progress; /* 1 when the top has the `progress_units` output */
    /* Creates one model instance. */
    void *(*create)(void);
    void (*destroy)(void *model);
    /* One clock cycle: sample the memory port's outputs (the values that decide this
     * cycle's handshakes; they depend on registers only), drive in, take the rising
     * edge, then sample the register read data (the value at in->reg_addr before the
     * edge, registered at it) and access_fault. */
    void (*cycle)(void *model, const clhls_port_in *in, clhls_port_out *out);
    /* From now on, checks every request a global load-store unit of compute unit cu
     * accepts against ranges (n of them; the array must stay valid until the next
     * call for that unit), and clears that unit's recorded fault; ranges NULL stops
     * checking it. cu CLHLS_ALL_UNITS sets the ranges of every unit (and clears every
     * fault). Simulation only: the load-store unit templates report requests, with
     * their compute unit's number (the template parameter CU), through the DPI-C
     * function clhls_sim_access. */
    void (*check_accesses)(void *model, unsigned cu, const clhls_mem_range *ranges,
                           unsigned n);
    /* 1 and the first access outside the ranges of compute unit cu since its
     * check_accesses (cu CLHLS_ALL_UNITS: of any unit), else 0. */
    int (*access_fault)(void *model, unsigned cu, clhls_access_fault *fault);
    /* The compute unit whose request or response carries this memory port tag, -1
     * when the tags do not tell (a top that does not name its units, or one whose
     * atomic unit retags every request). */
    int (*tag_unit)(void *model, uint32_t tag);
    /* 1 and the first of the requests of compute unit cu (CLHLS_ALL_UNITS: of any unit)
     * that speculative load units hold unanswered because they lie outside the ranges
     * (kind 3), else 0. A held request is answered once its loop iteration is known to
     * be past the loop's exit; one still held when the unit stops moving was not. */
    int (*held_access)(void *model, unsigned cu, clhls_access_fault *held);
    /* 1 when the model was built with tracing (the traced variant), else 0: then the
     * waves functions below do nothing and waves_open fails. */
    unsigned has_waves;
    /* Opens an FST file at path and records every signal in it from the next cycle on
     * (time: cycle c's inputs at c ns, its rising edge at c ns + 500 ps, c counted
     * from create), in the window waves_window sets (at first every cycle). 0, or -1
     * when the file cannot be written, one is already open or there is no tracing. */
    int (*waves_open)(void *model, const char *path);
    /* Records only cycles first..last (inclusive) from now on; first > last records
     * nothing. */
    void (*waves_window)(void *model, uint64_t first, uint64_t last);
    /* Writes the rest of the file and closes it (destroy does it too); nothing more is
     * recorded. */
    void (*waves_close)(void *model);
    /* 1 when the next cycle, driven with in, would change no register of the model but
     * its counts (the top's `still` output, as the last edge left it): no memory
     * response is presented, no request would be taken, the register port only reads,
     * and no waveform is being recorded. 0 for a top without the output. */
    int (*still)(void *model, const clhls_port_in *in);
    /* cycle() standing for `cycles` (>= 1) cycles of the same inputs, for a model that
     * is still (the top's sim_skip input): counters count them all, registers that
     * nothing changes stay. */
    void (*jump)(void *model, const clhls_port_in *in, clhls_port_out *out, uint64_t cycles);
    /* 1 and *value when register `offset` of control block `block` holds a count the
     * block handed over once its kernel was done (clhls_sim_counts, at the edge where a
     * status read first sees done; the count is final from then on) since
     * forget_finals of the block; 0 otherwise (read it through the register port). */
    int (*final_reg)(void *model, uint32_t block, uint32_t offset, uint64_t *value);
    /* Forgets the final counts of control block `block` (a kernel starts). */
    void (*forget_finals)(void *model, uint32_t block);
} clhls_harness_api;

const clhls_harness_api *clhls_harness_get(void);

#ifdef __cplusplus
}
#endif

#endif
