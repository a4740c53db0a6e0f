/* Private interface between the parts of the simulator library: the memory port's
 * per-cycle timing model (memory.c), driven by the run loop (model.c). Not installed;
 * nothing outside sim-bridge/ includes it. Every allocation of the bridge goes through
 * the toolchain's allocation hook (common/alloc.h), so a test can make each one fail. */
#ifndef CLHLS_SIM_INTERNAL_H
#define CLHLS_SIM_INTERNAL_H

#include "alloc.h" /* the allocation hook: hls_try_alloc, ... (CLHLS_FAIL_ALLOC_AFTER) */
#include "clhls_harness_abi.h"
#include "clhls_sim.h"

/* Traffic counters of a memory port since the memory was created. */
typedef struct sim_mem_stats {
    uint64_t read_bytes;   /* bytes returned by reads (whole port words) */
    uint64_t write_bytes;  /* bytes written (enabled lanes) */
    uint64_t requests;     /* requests accepted */
} sim_mem_stats;

/* Width of the memory port in bytes. */
unsigned sim_mem_width_bytes(const sim_memory *mem);
/* The memory ports (the board's). */
unsigned sim_mem_ports(const sim_memory *mem);
/* Drops every request in flight, refills the bandwidth budget, clears the bad address. */
void sim_mem_port_reset(sim_memory *mem);
/* Forgets a recorded bad address (the start of a run). */
void sim_mem_clear_bad(sim_memory *mem);
/* Idle port inputs: not ready, no response. */
void sim_mem_port_idle(clhls_port_in *in);
/* Sets this cycle's memory inputs (req_ready, resp_* of each port) of the accelerator.
 * ready is decided before the request is seen. */
void sim_mem_port_drive(sim_memory *mem, clhls_port_in *in);
/* Completes the cycle: takes an accepted request, pops a consumed response, advances
 * time. Returns 1 when a bad address was recorded (now or earlier), else 0. */
int sim_mem_port_update(sim_memory *mem, const clhls_port_in *in,
                        const clhls_port_out *out);
/* After sim_mem_port_drive: for how many cycles from this one the inputs it drove stay
 * the same if no handshake comes, until a response falls due or the budget allows a
 * request; 0 when no such event is ahead (the accelerator then waits for nothing the
 * memory does: for the host, or for ever) and under stress (which draws each cycle
 * anew). */
uint64_t sim_mem_port_calm(const sim_memory *mem);
/* Advances time by cycles without a handshake (a jump over cycles nothing moved in,
 * within the calm sim_mem_port_calm gave). */
void sim_mem_port_skip(sim_memory *mem, uint64_t cycles);
/* The first bad address since the last clear; returns 0 when there is none. */
int sim_mem_bad(const sim_memory *mem, uint64_t *addr, int *is_write);
/* Traffic counters of every port together; of port `port` alone. */
sim_mem_stats sim_mem_get_stats(const sim_memory *mem);
sim_mem_stats sim_mem_port_stats(const sim_memory *mem, unsigned port);

#endif
