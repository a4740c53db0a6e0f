/* The emitter's shared part, private to the emit_*.c files that build the Verilog
 * (emit_verilog.c: the top and the entry point; emit_unit.c: a compute unit;
 * emit_regions.c: its regions; emit_memory.c: its memory nodes; emit_ops.c: the
 * operators of a static region; emit_names.c: the names of values and tokens). It holds
 * the emitter's state while a compute unit is built, the small helpers every part
 * declares nets and instances with (static inline, so they keep their short names),
 * and the functions one part calls in another. */
#ifndef CLHLS_HLS_EMIT_H
#define CLHLS_HLS_EMIT_H

#include <stdarg.h>

#include "netlist.h"
#include "passes.h"

/* The emitter's state while it builds one compute unit. */
typedef struct emitter {
    hls_compile *c;         /* the compilation */
    hls_nl_module *m;       /* the compute unit's module being built */
    const hls_kernel *k;    /* kernel being emitted */
    int kernel_index;       /* position in the program (register block) */
    unsigned mem_w;         /* memory port width in bits */
    const hls_region *r;    /* static region being emitted */
    int fold;               /* its stages per simulated stage (folded_region), or 0 */
    const hls_region *loop; /* loop whose back edge or exit is being packed */
} emitter;

/* Text formatted in the compilation's arena (a name or an expression). */
static inline const char *text(emitter *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline const char *text(emitter *e, const char *fmt, ...)
{
    strbuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    const char *s = arena_strdup(&e->c->arena, sb.data ? sb.data : "");
    sb_free(&sb);
    return s;
}

/* Declares a one-bit net of the compute unit; returns its name. */
static inline const char *bit_net(emitter *e, const char *comment, const char *name)
{
    hls_nl_net(e->m, name, 1, comment);
    return name;
}

/* Declares a net of `width` bits, with a range even at one bit (values, tokens and
 * per-port buses are indexed); returns its name. */
static inline const char *bus_net(emitter *e, unsigned width, const char *comment,
                                  const char *name)
{
    hls_nl_net(e->m, name, width, comment);
    hls_nl_vector(e->m, name);
    return name;
}

/* A one-bit reg of the compute unit (assigned in a block); returns its name. */
static inline const char *bit_reg(emitter *e, const char *comment, const char *name)
{
    hls_nl_reg(e->m, name, 1, comment);
    return name;
}

/* The same as bus_net for a reg (assigned in a block). */
static inline const char *bus_reg(emitter *e, unsigned width, const char *comment,
                                  const char *name)
{
    hls_nl_reg(e->m, name, width, comment);
    hls_nl_vector(e->m, name);
    return name;
}

/* A block of the compute unit that assigns reg `reg`. */
static inline void block(emitter *e, const char *reg, const char *block_text)
{
    hls_nl_drives(hls_nl_block_new(e->m, block_text), reg);
}

/* An instance with the clock and, when `reset`, the reset connected. */
static inline hls_nl_instance *instance(emitter *e, const char *module, const char *name,
                                        int reset)
{
    hls_nl_instance *i = hls_nl_instance_new(e->m, module, name);
    hls_nl_connect(i, HLS_NL_IN, "clk", "clk");
    if (reset)
        hls_nl_connect(i, HLS_NL_IN, "rst", "rst");
    return i;
}

/* An instance of a fixed-latency unit of the current static region: the clock, and
 * the region's enable on ce. */
static inline hls_nl_instance *stage_unit(emitter *e, const char *module, int id)
{
    hls_nl_instance *i = instance(e, module, text(e, "u%d", id), 0);
    hls_nl_connect(i, HLS_NL_IN, "ce", "r%d_en", e->r->id);
    return i;
}

/* The stage of the simulation that stage s of the current region is. */
static inline int sim_stage(const emitter *e, int s)
{
    return e->fold ? s / e->fold : s;
}

/* A unit's latency in simulation, from stage `from` to stage `to` of a folded region. */
static inline void sim_latency(emitter *e, hls_nl_instance *u, int from, int to)
{
    if (e->fold)
        hls_nl_param(u, "SIM_LATENCY", "%d", sim_stage(e, to) - sim_stage(e, from));
}

/* The stage op starts at in the current static region (a memory node has none: its
 * accesses read the node's input). */
static inline int start_of(const emitter *e, const hls_op *op)
{
    return e->r->kind == HLS_REGION_MEMORY ? 0 : e->r->sched.start[op->id];
}

static inline int home_stage(const emitter *e, const hls_op *op)
{
    const hls_sched *s = &e->r->sched;
    return op->region == e->r->id ? s->start[op->id] + s->latency[op->id] : 0;
}

/* Bits of a counter that goes from 0 to max. */
static inline unsigned count_bits(int max)
{
    unsigned bits = 1;
    while ((1u << bits) <= (unsigned)max)
        bits++;
    return bits;
}

/* Expression `name` of width `from` fitted to width `to` (zero extension). */
static inline const char *fit(emitter *e, const char *name, unsigned from, unsigned to)
{
    if (from == to)
        return name;
    if (from > to)
        return text(e, "%s[%u:0]", name, to - 1);
    return text(e, "{%u'd0, %s}", to - from, name);
}

/* The ports of a clhls_fifo: what each reads or drives ("" leaves an output open). */
typedef struct fifo_ports {
    const char *s_valid, *s_ready, *s_data; /* the side that pushes */
    const char *m_valid, *m_ready, *m_data; /* the side that pops */
    const char *count;                      /* entries held */
} fifo_ports;

/* Names of values and tokens (emit_names.c). */
/* Name of op's value as seen at `stage` of the current region. */
const char *hls_emit_ref(const emitter *e, char buf[40], const hls_op *op, int stage);
/* The work-item generator's output for a token field ("wi_local_id_y", "wi_slot"). */
void hls_emit_token_wire(char *buf, size_t size, int field, int dim);
unsigned hls_emit_token_width(int field);        /* bits of a token field */
const char *hls_emit_ndrange_reg(int reg);       /* an NDRange register's name */
unsigned hls_emit_ndrange_width(int reg);        /* and its bits */
int hls_emit_sort_unique(int *v, int n);         /* sorted, repeats dropped: new length */
unsigned hls_emit_live_width(const hls_op *op);  /* the low bits registers carry of it */
/* x (bits wide) widened to width with zeros above */
const char *hls_emit_zero_extend(emitter *e, unsigned width, unsigned bits, const char *x);
/* Tokens: their bits, their nets PREFIX_v<id>, packed ({PREFIX_v<a>, ...}, `name`
 * giving each value's expression) and unpacked into those nets. A token carries the
 * low bits of each value its readers use (narrow.c); the unpacked net's others are 0. */
unsigned hls_emit_token_bits(const hls_kernel *k, const int *ids, int n);
void hls_emit_declare_token(emitter *e, const char *prefix, const int *ids, int n);
const char *hls_emit_pack(emitter *e, const int *ids, int n,
                          const char *(*name)(emitter *, int, char *));
void hls_emit_unpack(emitter *e, const char *prefix, const char *data, const int *ids, int n);
/* A clhls_fifo of `width` bits and `depth` entries. */
void hls_emit_fifo(emitter *e, const char *name, unsigned width, int depth, fifo_ports p);
/* Region `region`'s port for value id: "r<N>_<side>_v<id>", or the invariant's wire. */
const char *hls_emit_port_value(const hls_kernel *k, char *buf, int region, const char *side,
                                int id);

/* Operators and values (emit_ops.c). */
void hls_emit_op(emitter *e, const hls_op *op);        /* an op of a static region */
/* An icmp predicate's Verilog expression, with %s for its two operands. */
const char *hls_emit_icmp_expr(uint64_t pred);
void hls_emit_invariant(emitter *e, const hls_op *op); /* a constant, argument, NDRange */
void hls_emit_roms(emitter *e);                        /* the __constant tables */
/* The register of HOP_ALIVE op `alive`: an iteration of the work-item has left the loop. */
const char *hls_emit_alive_done(emitter *e, int alive);

/* Regions (emit_regions.c). */
void hls_emit_region(emitter *e, int id);         /* region id and its children */
void hls_emit_declare_regions(emitter *e);        /* every region's handshakes, tokens */
unsigned hls_emit_lid_bits(const hls_kernel *k); /* bits of a local linear id */

/* Memory nodes (emit_memory.c). */
void hls_emit_memory_node(emitter *e, const hls_region *r); /* its units and handshake */

/* The compute unit (emit_unit.c). */
void hls_emit_compute_unit(emitter *e); /* its module's body */
/* Whether its load-store unit port n sends write data; how many ports do. */
int hls_emit_port_writes(const hls_kernel *k, int n);
int hls_emit_writer_ports(const hls_kernel *k);
/* Bits of its bank conflicts in one cycle (of every copy of it: unit 0 counts them). */
int hls_emit_conflicts_width(const hls_kernel *k);
/* The atomic operation codes of its accesses to local memory lmem (-1: global memory):
 * bit k for code k; sets *wide (when not NULL) when one is on a 64-bit element. */
unsigned hls_emit_atomic_ops(const hls_kernel *k, int lmem, int *wide);
/* The most memory requests of one kind a compute unit of k issues in one cycle: one
 * per memory port its load-store units may reach at once (clhls_cu_shell's REQS); the
 * bits of such a count. */
int hls_emit_requests_per_cycle(const hls_program *p, const hls_kernel *k);
int hls_emit_request_bits(const hls_program *p, const hls_kernel *k);
/* The bits of a copy's events for unit 0 (clhls_cu_shell's cu_events): busy, retire,
 * the read and write counts, stalled, then the bank conflicts. */
int hls_emit_event_bits(const hls_program *p, const hls_kernel *k);

/* The top (emit_verilog.c). */
unsigned hls_emit_reg_addr_bits(const hls_program *p); /* bits of the register address */

/* In an operator of the current region (op, and char args[][40]): argument i's name and
 * width; the region's number. */
#define ARG(i) hls_emit_ref(e, args[i], &e->k->ops[op->args[i]], start_of(e, op))
#define ARG_WIDTH(i) (e->k->ops[op->args[i]].width)
#define R (e->r->id)

#endif
