/* Verilog emission: one compute-unit module per kernel (clhls_cu_UNIT, UNIT the kernel's
 * name or a short form of a long one: hls_kernel.unit) and the
 * accelerator top (clhls_top) that joins them on the register port and, through
 * clhls_mem_interconnect (and a clhls_atomic_unit when a kernel has global atomics),
 * on the board's memory port.
 *
 * Every module is built in the netlist model (netlist.h) — nets and regs, instances,
 * assigns, blocks that name the regs they assign — and no file is written unless each
 * one passes hls_nl_check. This file holds the entry point, the top and the compute
 * units' ports; the body of a compute unit is emit_unit.c's, with its regions
 * (emit_regions.c), memory nodes (emit_memory.c) and operators (emit_ops.c), on the
 * state and names of emit.h and emit_names.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "regmap.h"

/* The global atomics of the program's kernels (clhls_top has an atomic unit on its
 * memory port when there are any): a mask with bit k set when operation code k occurs
 * (0 when none does), and *wide (when not NULL) when one is on a 64-bit element. */
static unsigned global_atomic_ops(const hls_program *p, int *wide)
{
    unsigned ops = 0;
    if (wide)
        *wide = 0;
    for (int i = 0; i < p->nkernels; i++)
        ops |= hls_emit_atomic_ops(p->kernels[i], -1, wide);
    return ops;
}

/* Load-store unit ports of one compute unit of a kernel (one, idle, when it has no
 * load-store unit). */
static int unit_ports(const hls_kernel *k)
{
    return k->nlsus ? k->nlsus : 1;
}

/* ... of the kernel's module: those of each of its compute units, unit 0's first. */
static int kernel_ports(const hls_kernel *k)
{
    return unit_ports(k) * k->compute_units;
}

/* Whether port n of the kernel's module sends write data; how many of them do. */
static int kernel_port_writes(const hls_kernel *k, int n)
{
    return hls_emit_port_writes(k, n % unit_ports(k));
}

static int kernel_writer_ports(const hls_kernel *k)
{
    return hls_emit_writer_ports(k) * k->compute_units;
}

/* Bits of the register address: 8 for a register of a block, the rest (at least 8)
 * for the kernel's block. */
unsigned hls_emit_reg_addr_bits(const hls_program *p)
{
    unsigned block_bits = 8;
    while ((1u << block_bits) < (unsigned)p->nkernels)
        block_bits++;
    return 8 + block_bits;
}

/* The clock, the reset and the register port, first in the top and in every compute
 * unit. */
static void clock_and_register_ports(hls_nl_module *m, const hls_program *p,
                                     const char *rdata_comment)
{
    hls_nl_port(m, HLS_NL_IN, "clk", 1, "kernel clock");
    hls_nl_port(m, HLS_NL_IN, "rst", 1, "synchronous active-high reset");
    hls_nl_port(m, HLS_NL_IN, "reg_we", 1, "register write enable");
    hls_nl_port(m, HLS_NL_IN, "reg_addr", hls_emit_reg_addr_bits(p),
                "register index (64-bit registers)");
    hls_nl_port(m, HLS_NL_IN, "reg_wdata", 64, "register write data");
    hls_nl_port(m, HLS_NL_OUT, "reg_rdata", 64, rdata_comment);
}

/* A compute unit's ports of a channel's FIFO (named ch<C>_<name> in the unit and in
 * the top), and which end of the channel has each. */
enum { WRITER = 1, READER = 2 };
static const struct channel_port_desc {
    const char *name;     /* after ch<C>_ */
    int ends;             /* WRITER, READER or both */
    hls_nl_dir dir;       /* seen from the compute unit */
    int element;          /* 1: the element's bits wide; 0: 1 bit; -1: the FIFO's count */
    const char *comment;  /* after "channel 'NAME': " */
} channel_ports[] = {
    {"w_valid", WRITER, HLS_NL_OUT, 0, "an element is written"},
    {"w_ready", WRITER, HLS_NL_IN, 0, "the channel has room"},
    {"w_data", WRITER, HLS_NL_OUT, 1, "the element written"},
    {"r_valid", READER, HLS_NL_IN, 0, "an element is there"},
    {"r_data", READER, HLS_NL_IN, 1, "the oldest element"},
    {"r_pop", READER, HLS_NL_OUT, 0, "the element is taken"},
    {"count", WRITER | READER, HLS_NL_IN, -1, "entries in the channel (a probe)"},
};

/* 1 when kernel `kernel` is an end of ch that has port f. */
static int channel_end(const hls_channel *ch, const struct channel_port_desc *f, int kernel)
{
    return ((f->ends & WRITER) && ch->writer == kernel) ||
           ((f->ends & READER) && ch->reader == kernel);
}

/* Port f's name for channel c: "ch<C>_<name>" (the top's net of the same name). */
static const char *channel_port(hls_compile *c, const struct channel_port_desc *f, int ch)
{
    return arena_printf(&c->arena, "ch%d_%s", ch, f->name);
}

static unsigned channel_port_bits(const hls_channel *ch, const struct channel_port_desc *f)
{
    return f->element > 0 ? ch->bits : f->element < 0 ? count_bits(ch->depth) : 1;
}

/* The module of kernel `index` (clhls_cu_UNIT) in the netlist, or with `one` set the
 * module of one of its several compute units (clhls_cu_UNIT_one): its comment and
 * ports. hls_emit_compute_unit builds a compute unit's body; emit_copies that of a
 * kernel of several. The check of clhls_top holds the top's instance of the kernel's
 * module to these ports. */
static hls_nl_module *compute_unit_ports(hls_compile *c, hls_nl_netlist *nl, int index, int one)
{
    const hls_kernel *k = c->program->kernels[index];
    unsigned mw = c->program->board->mem_width_bits;
    int whole = !one && k->compute_units > 1; /* the module of several compute units */
    unsigned n = (unsigned)(one ? unit_ports(k) : kernel_ports(k));
    unsigned w = (unsigned)(one ? hls_emit_writer_ports(k) : kernel_writer_ports(k));
    hls_nl_dir out = whole ? HLS_NL_OUT : HLS_NL_OUT_REG; /* its units drive its requests */
    hls_nl_module *m = hls_nl_module_new(
        nl, arena_printf(&c->arena, "clhls_cu_%s%s", k->unit, one ? "_one" : ""));
    if (whole)
        hls_nl_comment(m, "Kernel '%s': its %d compute units (clhls_cu_%s_one), which share "
                       "its control block and deal its work-groups out in turn, generated by "
                       "clhls %s.", k->name, k->compute_units, k->unit, hls_version());
    else
        hls_nl_comment(m, "Compute unit of kernel '%s', generated by clhls %s.", k->name,
                       hls_version());
    hls_nl_comment(m, "%d regions, %d pipeline stages, %d load-store units, loads scheduled "
                   "at %d cycles%s.", k->nregions, k->depth, k->nlsus, k->mem_latency,
                   whole ? " (each unit)" : "");
    hls_nl_lint_off(m, "PINCONNECTEMPTY",
                    whole ? "Unit 0's events and the other units' register reads stay open."
                          : "FIFO outputs the compute unit does not need (occupancy counts) "
                            "stay open.");
    clock_and_register_ports(m, c->program, "register read data (0 outside this kernel)");
    hls_nl_port(m, out, "m_req_valid", n, "per load-store unit: request valid");
    hls_nl_port(m, HLS_NL_IN, "m_req_ready", n, "per unit: request accepted");
    hls_nl_port(m, out, "m_req_write", n, "per unit: 1 = write");
    hls_nl_port(m, out, "m_req_atomic", 4 * n, "per unit: atomic operation code (0 = none)");
    hls_nl_port(m, out, "m_req_addr", 64 * n, "per unit: line address");
    if (w) {
        hls_nl_port(m, out, "m_req_wdata", mw * w,
                    "per storing unit (stores, atomics), in port order: write data");
        hls_nl_port(m, out, "m_req_wstrb", mw / 8 * w, "per storing unit: write byte enables");
    }
    hls_nl_port(m, HLS_NL_IN, "s_resp_valid", n, "per unit: response valid");
    hls_nl_port(m, out, "s_resp_ready", n, "per unit: response accepted");
    if (c->program->board->mem_ports == 1)
        hls_nl_port(m, HLS_NL_IN, "s_resp_rdata", mw, "response data (shared)");
    else /* each unit's own memory port's answer (clhls_mem_route) */
        hls_nl_port(m, HLS_NL_IN, "s_resp_rdata", mw * n, "per unit: response data");
    hls_nl_port(m, HLS_NL_OUT, "progress", 1, "a work-item moved this cycle");
    hls_nl_port(m, HLS_NL_OUT, "quiet", 1,
                "idle long enough to stop its clock (simulation; 0 in synthesis)");
    hls_nl_port(m, HLS_NL_IN, "skip", 32,
                "the next edge stands for 1 + skip cycles (simulation; 0 in synthesis)");
    hls_nl_port(m, HLS_NL_OUT, "still", 1,
                "the next edge changes only counts (simulation; 0 in synthesis)");
    if (one) {
        unsigned events = (unsigned)hls_emit_event_bits(c->program, k);
        hls_nl_port(m, HLS_NL_IN, "cu_index", 8, "which of the kernel's compute units (0 leads)");
        hls_nl_port(m, HLS_NL_IN, "peer_events", events * (unsigned)(k->compute_units - 1),
                    "unit 0: the other units' cu_events, unit 1 lowest (clhls_cu_shell)");
        hls_nl_port(m, HLS_NL_OUT, "cu_events", events, "this unit's events, for unit 0");
    }
    for (int i = 0; i < c->program->nchannels; i++) /* its ends of the channels' FIFOs */
        for (size_t f = 0; f < sizeof channel_ports / sizeof *channel_ports; f++)
            if (channel_end(&c->program->channels[i], &channel_ports[f], index))
                hls_nl_port(m, channel_ports[f].dir, channel_port(c, &channel_ports[f], i),
                            channel_port_bits(&c->program->channels[i], &channel_ports[f]),
                            arena_printf(&c->arena, "channel '%s': %s",
                                         c->program->channels[i].name,
                                         channel_ports[f].comment));
    /* one bit per load-store unit, indexed even when there is one */
    static const char *const per_unit[] = {"m_req_valid", "m_req_ready", "m_req_write",
                                           "s_resp_valid", "s_resp_ready"};
    for (size_t i = 0; i < sizeof per_unit / sizeof *per_unit; i++)
        hls_nl_vector(m, per_unit[i]);
    return m;
}

/* The body of the module of a kernel of several compute units: its units side by
 * side, unit u on ports u * (its ports) up, unit 0 answering the register reads and
 * taking the others' events (clhls_cu_shell). */
static void emit_copies(hls_compile *c, hls_nl_module *m, int index)
{
    const hls_kernel *k = c->program->kernels[index];
    unsigned mw = c->program->board->mem_width_bits;
    unsigned n = (unsigned)unit_ports(k), w = (unsigned)hls_emit_writer_ports(k);
    unsigned events = (unsigned)hls_emit_event_bits(c->program, k);
    const struct {
        const char *port;
        hls_nl_dir dir;
        unsigned bits;    /* per load-store unit port */
        int per_writer;   /* 1: only the storing ports have it */
    } buses[] = {
        {"m_req_valid", HLS_NL_OUT, 1, 0},    {"m_req_ready", HLS_NL_IN, 1, 0},
        {"m_req_write", HLS_NL_OUT, 1, 0},    {"m_req_atomic", HLS_NL_OUT, 4, 0},
        {"m_req_addr", HLS_NL_OUT, 64, 0},    {"m_req_wdata", HLS_NL_OUT, mw, 1},
        {"m_req_wstrb", HLS_NL_OUT, mw / 8, 1}, {"s_resp_valid", HLS_NL_IN, 1, 0},
        {"s_resp_ready", HLS_NL_OUT, 1, 0},
    };
    strbuf peers = {0}, progress = {0}, quiet = {0}, still = {0}; /* peers: unit 1 lowest */
    for (int u = k->compute_units - 1; u > 0; u--)
        sb_printf(&peers, "%scu%d_events", u < k->compute_units - 1 ? ", " : "{", u);
    sb_append(&peers, "}");
    for (int u = 0; u < k->compute_units; u++) {
        hls_nl_instance *cu =
            hls_nl_instance_new(m, arena_printf(&c->arena, "clhls_cu_%s_one", k->unit),
                                arena_printf(&c->arena, "cu%d", u));
        static const char *const shared[] = {"clk", "rst", "reg_we", "reg_addr", "reg_wdata"};
        for (size_t s = 0; s < sizeof shared / sizeof *shared; s++)
            hls_nl_connect(cu, HLS_NL_IN, shared[s], "%s", shared[s]);
        if (c->program->board->mem_ports == 1)
            hls_nl_connect(cu, HLS_NL_IN, "s_resp_rdata", "s_resp_rdata");
        else
            hls_nl_connect(cu, HLS_NL_IN, "s_resp_rdata", "s_resp_rdata[%u +: %u]",
                           (unsigned)u * n * mw, n * mw);
        hls_nl_connect(cu, HLS_NL_OUT, "reg_rdata", "%s", u ? "" : "reg_rdata");
        for (size_t b = 0; b < sizeof buses / sizeof *buses; b++) {
            unsigned slots = buses[b].per_writer ? w : n, bits = buses[b].bits;
            if (slots)
                hls_nl_connect(cu, buses[b].dir, buses[b].port, "%s[%u +: %u]", buses[b].port,
                               (unsigned)u * slots * bits, slots * bits);
        }
        const char *moved = arena_printf(&c->arena, "progress_%d", u);
        hls_nl_net(m, moved, 1, NULL);
        hls_nl_connect(cu, HLS_NL_OUT, "progress", "%s", moved);
        sb_printf(&progress, "%s%s", u ? " | " : "", moved);
        const char *unit_quiet = arena_printf(&c->arena, "quiet_%d", u);
        hls_nl_net(m, unit_quiet, 1, NULL);
        hls_nl_connect(cu, HLS_NL_OUT, "quiet", "%s", unit_quiet);
        sb_printf(&quiet, "%s%s", u ? " & " : "", unit_quiet);
        const char *unit_still = arena_printf(&c->arena, "still_%d", u);
        hls_nl_net(m, unit_still, 1, NULL);
        hls_nl_connect(cu, HLS_NL_IN, "skip", "skip");
        hls_nl_connect(cu, HLS_NL_OUT, "still", "%s", unit_still);
        sb_printf(&still, "%s%s", u ? " & " : "", unit_still);
        hls_nl_connect(cu, HLS_NL_IN, "cu_index", "8'd%d", u);
        if (u) {
            const char *net = arena_printf(&c->arena, "cu%d_events", u);
            hls_nl_net(m, net, events, NULL);
            hls_nl_connect(cu, HLS_NL_OUT, "cu_events", "%s", net);
            hls_nl_connect(cu, HLS_NL_IN, "peer_events", "%u'd0",
                           events * (unsigned)(k->compute_units - 1));
        } else {
            hls_nl_connect(cu, HLS_NL_OUT, "cu_events", "%s", "");
            hls_nl_connect(cu, HLS_NL_IN, "peer_events", "%s", peers.data);
        }
    }
    sb_free(&peers);
    hls_nl_assign(m, "progress", "%s", progress.data);
    hls_nl_assign(m, "quiet", "%s", quiet.data);
    hls_nl_assign(m, "still", "%s", still.data);
    sb_free(&progress);
    sb_free(&quiet);
    sb_free(&still);
}

/* Connects fields of a memory interface of instance i (space-separated, e.g. "valid
 * ready rdata"): port PORT_FIELD to net NET_FIELD. On an interface the instance sends
 * (m_*), every field but ready is an output; on one it receives (s_*), the reverse. */
static void connect_fields(hls_nl_instance *i, const char *port, const char *net,
                           const char *fields)
{
    strbuf name = {0};
    int sends = port[0] == 'm';
    for (const char *f = fields; *f;) {
        int len = (int)strcspn(f, " ");
        int ready = len == 5 && !strncmp(f, "ready", 5);
        name.len = 0;
        sb_printf(&name, "%s_%.*s", port, len, f);
        hls_nl_connect(i, sends != ready ? HLS_NL_OUT : HLS_NL_IN, name.data, "%s_%.*s", net,
                       len, f);
        f += len + (f[len] == ' ');
    }
    sb_free(&name);
}

/* Instance i's `still` on the top's net `net`, ANDed into `stills`. */
static void gather_still(hls_nl_module *top, hls_nl_instance *i, const char *net,
                         const char *comment, strbuf *stills)
{
    hls_nl_net(top, net, 1, comment);
    hls_nl_connect(i, HLS_NL_OUT, "still", "%s", net);
    sb_printf(stills, " & %s", net);
}

/* One memory port of clhls_top (channel `mem`, -1 on a board of one port, whose nets
 * are the top's own ports): its interconnect, whose requests go straight out when no
 * kernel has a global atomic, else through a clhls_atomic_unit, which executes the
 * atomics (the port carries reads and writes only) and clears its cache when any
 * kernel starts (the host may have written memory). `stills` gathers the `still` of
 * each. */
static void emit_memory_channel(hls_compile *c, hls_nl_module *top, int nports, unsigned mw,
                                int mem, strbuf *stills)
{
    const hls_program *p = c->program;
    const char *sfx = mem < 0 ? "" : arena_printf(&c->arena, "%d", mem);
    /* the port's nets: the top's ports, or memM_req_* / memM_resp_* */
    const char *port_req = mem < 0 ? "m_mem_req" : arena_printf(&c->arena, "mem%d_req", mem);
    const char *port_resp = mem < 0 ? "s_mem_resp" : arena_printf(&c->arena, "mem%d_resp", mem);
    /* the units' side: the request buses, or those the routers fill for this port */
    const char *unit_req = mem < 0 ? "req" : arena_printf(&c->arena, "ic%d_req", mem);
    const char *unit_resp = mem < 0 ? "resp" : arena_printf(&c->arena, "ic%d_resp", mem);
    const char *ic = port_req;      /* the interconnect's memory side: the port, or ... */
    const char *icr = port_resp;
    /* what the interconnect's operation codes drive */
    const char *atomic = arena_printf(&c->arena, "no_atomic%s", sfx);
    int wide;
    unsigned ops = global_atomic_ops(p, &wide);
    if (ops) {
        ic = arena_printf(&c->arena, "ic%s_mem_req", sfx); /* ... the wires into the atomic unit */
        icr = arena_printf(&c->arena, "ic%s_mem_resp", sfx);
        atomic = arena_printf(&c->arena, "%s_atomic", ic);
        const board_t *b = p->board;
        /* enough requests in flight for one per cycle at the board's latency (and the
         * unit's and the interconnect's cycles) */
        unsigned depth = 32;
        while (depth < b->mem_latency_cycles + 16)
            depth *= 2;
        static const char *const one_bit[] = {"valid", "ready", "write"};
        for (size_t i = 0; i < sizeof one_bit / sizeof *one_bit; i++) {
            hls_nl_net(top, arena_printf(&c->arena, "%s_%s", ic, one_bit[i]), 1, NULL);
            if (i < 2)
                hls_nl_net(top, arena_printf(&c->arena, "%s_%s", icr, one_bit[i]), 1, NULL);
        }
        hls_nl_net(top, atomic, 4, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "%s_addr", ic), 64, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "%s_wdata", ic), mw, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "%s_rdata", icr), mw, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "%s_wstrb", ic), mw / 8, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "%s_tag", ic), 16, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "%s_tag", icr), 16, NULL);
        hls_nl_instance *u = hls_nl_instance_new(top, "clhls_atomic_unit",
                                                 arena_printf(&c->arena, "atomic_unit%s", sfx));
        hls_nl_param(u, "MEM_W", "%u", mw);
        hls_nl_param(u, "TAG_W", "16");
        hls_nl_param(u, "ADDR_W", "%u", b->mem_addr_bits);
        hls_nl_param(u, "LINES", "16");
        hls_nl_param(u, "DEPTH", "%u", depth);
        hls_nl_param(u, "OPS", "16'h%04x", ops);
        hls_nl_param(u, "WIDE", "%d", wide);
        hls_nl_connect(u, HLS_NL_IN, "clk", "clk");
        hls_nl_connect(u, HLS_NL_IN, "rst", "rst");
        hls_nl_connect(u, HLS_NL_IN, "invalidate", "kernel_start");
        connect_fields(u, "s_req", ic, "valid ready write atomic addr wdata wstrb tag");
        connect_fields(u, "m_resp", icr, "valid ready rdata tag");
        connect_fields(u, "m_mem_req", port_req, "valid ready write addr wdata wstrb tag");
        connect_fields(u, "s_mem_resp", port_resp, "valid ready rdata tag");
        gather_still(top, u, arena_printf(&c->arena, "atomic_unit%s_still", sfx),
                     "the atomic unit's next edge changes nothing", stills);
    } else {
        hls_nl_net(top, atomic, 4, "no kernel has a global atomic: always 0");
        hls_nl_unused(top, atomic);
    }
    hls_nl_instance *ict = hls_nl_instance_new(top, "clhls_mem_interconnect",
                                               arena_printf(&c->arena, "memory_interconnect%s", sfx));
    hls_nl_param(ict, "NPORTS", "%d", nports);
    hls_nl_param(ict, "MEM_W", "%u", mw);
    hls_nl_param(ict, "TAG_W", "16");
    /* the storing units' ports, highest first (a Verilog binary literal) */
    strbuf mask = {0};
    int writers = 0;
    sb_printf(&mask, "%d'b", nports);
    for (int i = p->nkernels - 1; i >= 0; i--)
        for (int n = kernel_ports(p->kernels[i]) - 1; n >= 0; n--) {
            int w = kernel_port_writes(p->kernels[i], n);
            sb_append(&mask, w ? "1" : "0");
            writers += w;
        }
    hls_nl_param(ict, "WRITERS", "%s", mask.data);
    hls_nl_param(ict, "NWRITE", "%d", writers);
    sb_free(&mask);
    hls_nl_connect(ict, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(ict, HLS_NL_IN, "rst", "rst");
    connect_fields(ict, "s_req", unit_req, "valid ready");
    connect_fields(ict, "s_req", "req", "write atomic addr wdata wstrb");
    connect_fields(ict, "m_resp", unit_resp, "valid ready rdata");
    connect_fields(ict, "m_mem_req", ic, "valid ready write");
    hls_nl_connect(ict, HLS_NL_OUT, "m_mem_req_atomic", "%s", atomic);
    connect_fields(ict, "m_mem_req", ic, "addr wdata wstrb tag");
    connect_fields(ict, "s_mem_resp", icr, "valid ready rdata tag");
    gather_still(top, ict, arena_printf(&c->arena, "interconnect%s_still", sfx),
                 "the interconnect's next edge changes nothing", stills);
}

/* The fields of a memory port: name (after m_mem_req_ or s_mem_resp_), bits (0: the
 * memory's width, 1: its byte enables) and whether the accelerator drives it. */
static const struct {
    const char *req_or_resp;
    const char *field;
    unsigned bits;
    int out;
} memory_fields[] = {
    {"req", "valid", 1, 1},  {"req", "ready", 1, 0},  {"req", "write", 1, 1},
    {"req", "addr", 64, 1},  {"req", "wdata", 0, 1},  {"req", "wstrb", 1, 1},
    {"req", "tag", 16, 1},   {"resp", "valid", 1, 0}, {"resp", "ready", 1, 1},
    {"resp", "rdata", 0, 0}, {"resp", "tag", 16, 0},
};

static unsigned memory_field_bits(size_t f, unsigned mw)
{
    return memory_fields[f].bits == 0 ? mw : !strcmp(memory_fields[f].field, "wstrb")
                                                 ? mw / 8
                                                 : memory_fields[f].bits;
}

/* The concatenation {PREFIX<n-1>SUFFIX, ..., PREFIX0SUFFIX}: element k at slice k. */
static const char *vector_of(hls_compile *c, int n, const char *prefix, const char *suffix)
{
    strbuf v = {0};
    for (int k = n - 1; k >= 0; k--)
        sb_printf(&v, "%s%s%d%s", k < n - 1 ? ", " : "{", prefix, k, suffix);
    sb_append(&v, "}");
    const char *text = arena_printf(&c->arena, "%s", v.data);
    sb_free(&v);
    return text;
}

/* The memory ports of clhls_top: the interconnect of each (emit_memory_channel) and,
 * on a board of several, in front of them each load-store unit port's clhls_mem_route,
 * which passes its requests to the port of their address and its answers back in
 * order; the units' addresses, write data and operation codes reach every
 * interconnect unrouted. The top's ports are then vectors of the ports' fields, port
 * m's at slice m. `memory_still` is the AND of their `still`. */
static void emit_memory_ports(hls_compile *c, hls_nl_module *top, int nports, unsigned mw)
{
    const hls_program *p = c->program;
    int nmem = (int)p->board->mem_ports;
    strbuf stills = {0};
    sb_append(&stills, "1'b1");
    if (global_atomic_ops(p, NULL)) {
        hls_nl_net(top, "kernel_start", 1,
                   "a kernel starts (the host may have written memory): forget cached lines");
        hls_nl_assign(top, "kernel_start", "reg_we && reg_addr[7:0] == 8'd%u && reg_wdata[0]",
                      hls_regmap_find("control")->offset);
    }
    if (nmem == 1) {
        emit_memory_channel(c, top, nports, mw, -1, &stills);
    } else {
        unsigned sel_lo = 0;
        while ((1ull << sel_lo) < board_port_span(p->board))
            sel_lo++;
        /* each memory port's fields memM_req_*, memM_resp_*, joined into the top's vectors */
        for (size_t f = 0; f < sizeof memory_fields / sizeof *memory_fields; f++) {
            unsigned bits = memory_field_bits(f, mw);
            const char *rr = memory_fields[f].req_or_resp;
            const char *field = arena_printf(&c->arena, "_%s_%s", rr, memory_fields[f].field);
            const char *port = arena_printf(&c->arena, "%s_mem%s", !strcmp(rr, "req") ? "m" : "s",
                                            field);
            for (int m = 0; m < nmem; m++) {
                const char *net = arena_printf(&c->arena, "mem%d%s", m, field);
                hls_nl_net(top, net, bits, NULL);
                if (!memory_fields[f].out)
                    hls_nl_assign(top, net, "%s[%u +: %u]", port, bits * (unsigned)m, bits);
            }
            if (memory_fields[f].out)
                hls_nl_assign(top, port, "%s", vector_of(c, nmem, "mem", field));
        }
        /* per unit port i: its route's handshakes towards the ports (routeI_valid,
         * routeI_rready, a bit per port) and towards the unit */
        static const char *const route_nets[] = {"valid", "rready", "req_ready", "resp_valid"};
        for (int i = 0; i < nports; i++)
            for (size_t f = 0; f < sizeof route_nets / sizeof *route_nets; f++)
                hls_nl_net(top, arena_printf(&c->arena, "route%d_%s", i, route_nets[f]),
                           f < 2 ? (unsigned)nmem : 1, NULL);
        /* per memory port m: its interconnect's slave side, bit i for unit port i */
        for (int m = 0; m < nmem; m++) {
            static const char *const ic_nets[] = {"req_valid", "req_ready", "resp_valid",
                                                  "resp_ready"};
            for (size_t f = 0; f < sizeof ic_nets / sizeof *ic_nets; f++) {
                const char *net = arena_printf(&c->arena, "ic%d_%s", m, ic_nets[f]);
                hls_nl_net(top, net, (unsigned)nports, NULL);
                hls_nl_vector(top, net);
            }
            hls_nl_net(top, arena_printf(&c->arena, "ic%d_resp_rdata", m), mw, NULL);
            const char *bit = arena_printf(&c->arena, "[%d]", m);
            hls_nl_assign(top, arena_printf(&c->arena, "ic%d_req_valid", m), "%s",
                          vector_of(c, nports, "route", arena_printf(&c->arena, "_valid%s", bit)));
            hls_nl_assign(top, arena_printf(&c->arena, "ic%d_resp_ready", m), "%s",
                          vector_of(c, nports, "route", arena_printf(&c->arena, "_rready%s", bit)));
        }
        hls_nl_net(top, "ic_resp_rdata", mw * (unsigned)nmem,
                   "the interconnects' answer data, memory port m's at slice m");
        hls_nl_assign(top, "ic_resp_rdata", "%s", vector_of(c, nmem, "ic", "_resp_rdata"));
        for (int i = 0; i < nports; i++) {
            hls_nl_instance *r = hls_nl_instance_new(top, "clhls_mem_route",
                                                     arena_printf(&c->arena, "route%d", i));
            const char *bit = arena_printf(&c->arena, "[%d]", i);
            hls_nl_param(r, "NMEM", "%d", nmem);
            hls_nl_param(r, "SEL_LO", "%u", sel_lo);
            hls_nl_param(r, "MEM_W", "%u", mw);
            hls_nl_connect(r, HLS_NL_IN, "clk", "clk");
            hls_nl_connect(r, HLS_NL_IN, "rst", "rst");
            hls_nl_connect(r, HLS_NL_IN, "s_req_valid", "req_valid%s", bit);
            hls_nl_connect(r, HLS_NL_OUT, "s_req_ready", "route%d_req_ready", i);
            hls_nl_connect(r, HLS_NL_IN, "s_req_addr", "req_addr[%d +: 64]", 64 * i);
            hls_nl_connect(r, HLS_NL_OUT, "m_req_valid", "route%d_valid", i);
            hls_nl_connect(r, HLS_NL_IN, "m_req_ready", "%s",
                           vector_of(c, nmem, "ic", arena_printf(&c->arena, "_req_ready%s", bit)));
            hls_nl_connect(r, HLS_NL_IN, "s_resp_valid", "%s",
                           vector_of(c, nmem, "ic", arena_printf(&c->arena, "_resp_valid%s", bit)));
            hls_nl_connect(r, HLS_NL_OUT, "s_resp_ready", "route%d_rready", i);
            hls_nl_connect(r, HLS_NL_IN, "s_resp_rdata", "ic_resp_rdata");
            hls_nl_connect(r, HLS_NL_OUT, "m_resp_valid", "route%d_resp_valid", i);
            hls_nl_connect(r, HLS_NL_IN, "m_resp_ready", "resp_ready%s", bit);
            hls_nl_connect(r, HLS_NL_OUT, "m_resp_rdata", "resp_rdata[%u +: %u]", mw * (unsigned)i,
                           mw);
            gather_still(top, r, arena_printf(&c->arena, "route%d_still", i), NULL, &stills);
        }
        hls_nl_assign(top, "req_ready", "%s", vector_of(c, nports, "route", "_req_ready"));
        hls_nl_assign(top, "resp_valid", "%s", vector_of(c, nports, "route", "_resp_valid"));
        for (int m = 0; m < nmem; m++)
            emit_memory_channel(c, top, nports, mw, m, &stills);
    }
    hls_nl_net(top, "memory_still", 1, "the memory side's next edge changes nothing");
    hls_nl_assign(top, "memory_still", "%s", stills.data);
    hls_nl_unused(top, "memory_still"); /* (in synthesis) */
    sb_free(&stills);
}

/* Each channel: a FIFO of its depth from the writing compute unit to the reading one. */
static void emit_channels(hls_compile *c, hls_nl_module *top)
{
    const hls_program *p = c->program;
    for (int i = 0; i < p->nchannels; i++) {
        const hls_channel *ch = &p->channels[i];
        for (size_t f = 0; f < sizeof channel_ports / sizeof *channel_ports; f++)
            hls_nl_net(top, channel_port(c, &channel_ports[f], i),
                       channel_port_bits(ch, &channel_ports[f]), f ? NULL :
                       arena_printf(&c->arena, "channel '%s' (depth %d), from kernel '%s' to "
                                    "kernel '%s'", ch->name, ch->depth,
                                    p->kernels[ch->writer]->name, p->kernels[ch->reader]->name));
        hls_nl_instance *fifo = hls_nl_instance_new(top, "clhls_fifo",
                                                     arena_printf(&c->arena, "channel%d", i));
        hls_nl_param(fifo, "WIDTH", "%u", ch->bits);
        hls_nl_param(fifo, "DEPTH", "%d", ch->depth);
        hls_nl_connect(fifo, HLS_NL_IN, "clk", "clk");
        hls_nl_connect(fifo, HLS_NL_IN, "rst", "rst");
        hls_nl_connect(fifo, HLS_NL_IN, "s_valid", "ch%d_w_valid", i);
        hls_nl_connect(fifo, HLS_NL_OUT, "s_ready", "ch%d_w_ready", i);
        hls_nl_connect(fifo, HLS_NL_IN, "s_data", "ch%d_w_data", i);
        hls_nl_connect(fifo, HLS_NL_OUT, "m_valid", "ch%d_r_valid", i);
        hls_nl_connect(fifo, HLS_NL_IN, "m_ready", "ch%d_r_pop", i);
        hls_nl_connect(fifo, HLS_NL_OUT, "m_data", "ch%d_r_data", i);
        hls_nl_connect(fifo, HLS_NL_OUT, "count", "ch%d_count", i);
    }
}

/* clhls_top: the compute units side by side on the register port, their load-store
 * unit ports joined into the memory port's interconnect, their channels' FIFOs between
 * them. */
static hls_nl_module *emit_top(hls_compile *c, hls_nl_netlist *nl)
{
    const hls_program *p = c->program;
    unsigned mw = p->board->mem_width_bits;
    int total = 0;
    for (int i = 0; i < p->nkernels; i++)
        total += kernel_ports(p->kernels[i]);
    unsigned all = (unsigned)total;
    hls_nl_module *top = hls_nl_module_new(nl, "clhls_top");
    hls_nl_comment(top, "Accelerator top, generated by clhls %s for board %s: %d kernel(s),",
                   hls_version(), p->board->name, p->nkernels);
    if (p->board->mem_ports == 1)
        hls_nl_comment(top, "%d load-store unit port(s) on one %u-bit memory port.", total, mw);
    else
        hls_nl_comment(top, "%d load-store unit port(s) on %u %u-bit memory ports.", total,
                       p->board->mem_ports, mw);
    clock_and_register_ports(top, p, "register read data (reg_addr at the last edge)");
    /* the memory ports: on a board of several, each field a vector, port m's at slice m */
    static const char *const memory_comments[] = {
        "memory request valid", "memory accepts the request", "1 = write, 0 = read",
        "byte address, port aligned", "write data", "write byte enables", "request tag",
        "response valid", "response accepted", "read data", "tag of the answered request"};
    unsigned nmem = p->board->mem_ports;
    for (size_t f = 0; f < sizeof memory_fields / sizeof *memory_fields; f++) {
        const char *rr = memory_fields[f].req_or_resp;
        const char *name = arena_printf(&c->arena, "%s_mem_%s_%s", !strcmp(rr, "req") ? "m" : "s",
                                        rr, memory_fields[f].field);
        hls_nl_port(top, memory_fields[f].out ? HLS_NL_OUT : HLS_NL_IN, name,
                    memory_field_bits(f, mw) * nmem,
                    nmem == 1 ? memory_comments[f]
                              : arena_printf(&c->arena, "per memory port: %s",
                                             memory_comments[f]));
        if (nmem > 1 && memory_field_bits(f, mw) == 1)
            hls_nl_vector(top, name);
    }
    hls_nl_port(top, HLS_NL_OUT, "progress", 1, "a work-item moved this cycle (watchdog)");
    hls_nl_port(top, HLS_NL_OUT, "progress_units", (unsigned)p->nkernels,
                "bit u: compute unit u moved this cycle");
    hls_nl_vector(top, "progress_units");
    /* The simulator clocks each kernel's compute units on their own clock, which it
     * stops while they are quiet (sim-bridge/harness.cpp): a kernel that does not run
     * costs it nothing. */
    hls_nl_sim_port(top, HLS_NL_IN, "unit_clk", (unsigned)p->nkernels,
                    "bit u: clock of kernel u's compute units (clk when it runs)");
    hls_nl_sim_port(top, HLS_NL_OUT_REG, "unit_quiet", (unsigned)p->nkernels,
                    "bit u: kernel u is quiet (its clock may stop)");
    hls_nl_vector(top, "unit_clk");
    hls_nl_vector(top, "unit_quiet");
    /* The simulator jumps over cycles where nothing moves (sim-bridge/model.c): `still`
     * says the last edge changed nothing but counts, so that the next will not either
     * if the inputs stay quiet; `sim_skip` makes the next edge stand for 1 + sim_skip
     * cycles. */
    hls_nl_sim_port(top, HLS_NL_IN, "sim_skip", 32,
                    "the next edge stands for 1 + sim_skip cycles (of the cycle counters)");
    hls_nl_sim_port(top, HLS_NL_OUT_REG, "still", 1,
                    "the last edge changed no register but counts, the memory port quiet");
    /* The simulator tells the compute units' requests apart (sim-bridge/harness.cpp):
     * each unit's watchdog counts the memory port's tags of its load-store unit ports
     * (when no atomic unit retags the requests). The top tells them once. (The access
     * checker gets the unit's number from each load-store unit's CU parameter.) */
    strbuf text = {0};
    sb_append(&text, "`ifdef CLHLS_SIM_CHECKS\n"
                     "import \"DPI-C\" function void clhls_sim_unit(input int index, "
                     "input int first_tag, input int tags);\n"
                     "initial begin\n");
    int atomic_unit = global_atomic_ops(p, NULL) != 0;
    for (int i = 0, first = 0; i < p->nkernels; i++) {
        int n = kernel_ports(p->kernels[i]);
        sb_printf(&text, "    clhls_sim_unit(%d, %d, %d);\n", i, first, atomic_unit ? 0 : n);
        first += n;
    }
    sb_append(&text, "end\n`endif\n");
    hls_nl_block_new(top, text.data);
    /* the compute units' request buses side by side, filled in one block (see
     * emit_request_buses in emit_unit.c); a single compute unit's buses are the
     * interconnect's */
    int single = p->nkernels == 1;
    hls_nl_net(top, "req_ready", all, NULL);
    hls_nl_net(top, "resp_valid", all, NULL);
    hls_nl_vector(top, "req_ready");
    hls_nl_vector(top, "resp_valid");
    hls_nl_net(top, "resp_rdata", mw * (p->board->mem_ports == 1 ? 1 : all),
               p->board->mem_ports == 1 ? "the answers' data (shared)"
                                        : "each unit port's answer data (its router's)");
    /* the last two carry the write data of the storing units alone
     * (hls_emit_writer_ports) */
    static const char *const bus[] = {"req_valid", "req_write", "resp_ready", "req_atomic",
                                      "req_addr", "req_wdata", "req_wstrb"};
    const unsigned bus_width[] = {1, 1, 1, 4, 64, mw, mw / 8}; /* bits per unit port */
    enum { WRITE_BUSES = 5 };                                /* index of req_wdata */
    unsigned writers = 0;
    for (int i = 0; i < p->nkernels; i++)
        writers += (unsigned)kernel_writer_ports(p->kernels[i]);
    for (size_t f = 0; f < sizeof bus / sizeof *bus; f++) {
        unsigned slots = f < WRITE_BUSES ? all : writers ? writers : 1;
        if (single && (f < WRITE_BUSES || writers))
            hls_nl_net(top, bus[f], bus_width[f] * slots, NULL);
        else
            hls_nl_reg(top, bus[f], bus_width[f] * slots, NULL);
        hls_nl_vector(top, bus[f]);
    }
    text.len = 0;
    sb_append(&text, "always @(*) begin\n");
    if (!writers)
        sb_append(&text, "    req_wdata = 0;\n    req_wstrb = 0;\n");
    for (int i = 0, base = 0, wbase = 0; i < p->nkernels; i++) {
        const hls_kernel *k = p->kernels[i];
        unsigned n = (unsigned)kernel_ports(k), w = (unsigned)kernel_writer_ports(k);
        hls_nl_net(top, arena_printf(&c->arena, "rdata_%d", i), 64, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "progress_%d", i), 1, NULL);
        hls_nl_reg(top, arena_printf(&c->arena, "clk_%d", i), 1, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "quiet_%d", i), 1, NULL);
        hls_nl_unused(top, arena_printf(&c->arena, "quiet_%d", i));
        hls_nl_net(top, arena_printf(&c->arena, "still_%d", i), 1, NULL);
        hls_nl_unused(top, arena_printf(&c->arena, "still_%d", i));
        const char *prefix = single ? "" : arena_printf(&c->arena, "cu%d_", i);
        for (size_t f = 0; f < sizeof bus / sizeof *bus && !single; f++) {
            unsigned slots = f < WRITE_BUSES ? n : w;
            if (!slots)
                continue;
            const char *net = arena_printf(&c->arena, "%s%s", prefix, bus[f]);
            hls_nl_net(top, net, bus_width[f] * slots, NULL);
            hls_nl_vector(top, net);
            sb_printf(&text, "    %s[%u +: %u] = %s;\n", bus[f],
                      bus_width[f] * (unsigned)(f < WRITE_BUSES ? base : wbase),
                      bus_width[f] * slots, net);
        }
        hls_nl_instance *cu = hls_nl_instance_new(
            top, arena_printf(&c->arena, "clhls_cu_%s", k->unit),
            arena_printf(&c->arena, "cu_%s", k->unit));
        hls_nl_connect(cu, HLS_NL_IN, "clk", "clk_%d", i);
        static const char *const shared[] = {"rst", "reg_we", "reg_addr", "reg_wdata"};
        for (size_t s = 0; s < sizeof shared / sizeof *shared; s++)
            hls_nl_connect(cu, HLS_NL_IN, shared[s], "%s", shared[s]);
        hls_nl_connect(cu, HLS_NL_OUT, "reg_rdata", "rdata_%d", i);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_valid", "%sreq_valid", prefix);
        hls_nl_connect(cu, HLS_NL_IN, "m_req_ready", "req_ready[%d +: %u]", base, n);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_write", "%sreq_write", prefix);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_atomic", "%sreq_atomic", prefix);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_addr", "%sreq_addr", prefix);
        if (w) {
            hls_nl_connect(cu, HLS_NL_OUT, "m_req_wdata", "%sreq_wdata", prefix);
            hls_nl_connect(cu, HLS_NL_OUT, "m_req_wstrb", "%sreq_wstrb", prefix);
        }
        hls_nl_connect(cu, HLS_NL_IN, "s_resp_valid", "resp_valid[%d +: %u]", base, n);
        hls_nl_connect(cu, HLS_NL_OUT, "s_resp_ready", "%sresp_ready", prefix);
        if (p->board->mem_ports == 1)
            hls_nl_connect(cu, HLS_NL_IN, "s_resp_rdata", "resp_rdata");
        else
            hls_nl_connect(cu, HLS_NL_IN, "s_resp_rdata", "resp_rdata[%u +: %u]",
                           mw * (unsigned)base, mw * n);
        hls_nl_connect(cu, HLS_NL_OUT, "progress", "progress_%d", i);
        hls_nl_connect(cu, HLS_NL_OUT, "quiet", "quiet_%d", i);
        hls_nl_connect(cu, HLS_NL_IN, "skip", "skip");
        hls_nl_connect(cu, HLS_NL_OUT, "still", "still_%d", i);
        for (int j = 0; j < p->nchannels; j++)
            for (size_t f = 0; f < sizeof channel_ports / sizeof *channel_ports; f++)
                if (channel_end(&p->channels[j], &channel_ports[f], i)) {
                    const char *net = channel_port(c, &channel_ports[f], j);
                    hls_nl_connect(cu, channel_ports[f].dir, net, "%s", net);
                }
        base += (int)n;
        wbase += (int)w;
    }
    sb_append(&text, "end\n");
    if (!single || !writers) { /* a single unit without stores: only the zero write data */
        hls_nl_block *buses = hls_nl_block_new(top, text.data);
        for (size_t f = single ? WRITE_BUSES : 0; f < sizeof bus / sizeof *bus; f++)
            hls_nl_drives(buses, bus[f]);
    }
    sb_free(&text);
    /* each kernel's clock: the simulator's unit_clk bit, in synthesis clk; the jump
     * over still cycles (0 in synthesis) */
    hls_nl_reg(top, "skip", 32, "the next edge stands for 1 + skip cycles (simulation)");
    strbuf clocks = {0};
    sb_append(&clocks, "`ifdef CLHLS_SIM_CHECKS\nalways @(*) begin\n");
    for (int i = 0; i < p->nkernels; i++)
        sb_printf(&clocks, "    clk_%d = unit_clk[%d];\n", i, i);
    sb_append(&clocks, "    unit_quiet = {");
    for (int i = p->nkernels - 1; i >= 0; i--)
        sb_printf(&clocks, "quiet_%d%s", i, i ? ", " : "}");
    /* `still`: the last edge changed nothing but counts (then, the inputs as quiet, the
     * next will not either). A register, and its parts are looked at only in a cycle
     * without progress (an `if` in a clocked block, which Verilator keeps): a busy
     * cycle pays one test for it. */
    sb_append(&clocks, ";\n    skip = sim_skip;\nend\nalways @(posedge clk) begin\n"
                       "    still <= 1'b0;\n"
                       "    if (!progress && !rst && !reg_we && !(|s_mem_resp_valid) &&\n"
                       "        !(|(m_mem_req_valid & m_mem_req_ready)))\n"
                       "        still <= memory_still");
    for (int i = 0; i < p->nkernels; i++) /* (a quiet kernel is not clocked) */
        sb_printf(&clocks, " & (still_%d | quiet_%d)", i, i);
    sb_append(&clocks, ";\nend\n`else\nalways @(*) begin\n");
    for (int i = 0; i < p->nkernels; i++)
        sb_printf(&clocks, "    clk_%d = clk;\n", i);
    sb_append(&clocks, "    skip = 32'd0;\nend\n`endif\n");
    hls_nl_block *unit_clocks = hls_nl_block_new(top, clocks.data);
    hls_nl_drives(unit_clocks, "unit_quiet");
    hls_nl_drives(unit_clocks, "skip");
    hls_nl_drives(unit_clocks, "still");
    for (int i = 0; i < p->nkernels; i++)
        hls_nl_drives(unit_clocks, arena_printf(&c->arena, "clk_%d", i));
    sb_free(&clocks);
    hls_nl_assign(top, "progress", "|progress_units");
    strbuf expr = {0};
    for (int i = p->nkernels - 1; i >= 0; i--)
        sb_printf(&expr, "progress_%d%s", i, i ? ", " : "");
    hls_nl_assign(top, "progress_units", "{%s}", expr.data);
    expr.len = 0;
    sb_append(&expr, "64'd0");
    for (int i = 0; i < p->nkernels; i++)
        sb_printf(&expr, " | rdata_%d", i);
    hls_nl_assign(top, "reg_rdata", "%s", expr.data);
    sb_free(&expr);
    emit_memory_ports(c, top, total, mw);
    emit_channels(c, top);
    return top;
}

static FILE *open_output(hls_compile *c, const char *dir, const char *name, strbuf *files)
{
    char *path = arena_printf(&c->arena, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        sb_printf(c->diag.log, "error: cannot write %s: %s\n", path, strerror(errno));
    else
        sb_printf(files, "%s\n", path);
    return f;
}

/* Whether module m passes the check; a failing check is an internal error in the build
 * log. */
static int checked(hls_compile *c, const hls_nl_module *m, const char *name)
{
    strbuf errors = {0};
    int problems = hls_nl_check(m, &errors);
    if (problems)
        sb_printf(c->diag.log, "internal error: the netlist of %s fails its check:\n%s", name,
                  errors.data);
    sb_free(&errors);
    return !problems;
}

/* Writes module m to DIR/NAME.v. */
static int write_module(hls_compile *c, const char *dir, strbuf *files, const hls_nl_module *m,
                        const char *name)
{
    FILE *f = open_output(c, dir, arena_printf(&c->arena, "%s.v", name), files);
    if (!f)
        return HLS_ERR_TOOL;
    hls_nl_print(f, m);
    fclose(f);
    return HLS_OK;
}

/* The compute units and the top are built in one netlist (the top's instances of the
 * units are checked against their ports); no file is written unless every module
 * passes its check. */
int hls_emit_verilog(hls_compile *c, const char *dir, strbuf *files)
{
    const hls_program *p = c->program;
    hls_nl_netlist *nl = hls_nl_netlist_new(&c->arena);
    size_t most = 2 * (size_t)p->nkernels + 1; /* a kernel of several units has two modules */
    hls_nl_module **modules = arena_alloc(&c->arena, most * sizeof *modules);
    const char **names = arena_alloc(&c->arena, most * sizeof *names);
    int count = 0;
    for (int i = 0; i < p->nkernels; i++) {
        const hls_kernel *k = p->kernels[i];
        int several = k->compute_units > 1;
        hls_nl_module *unit = compute_unit_ports(c, nl, i, several);
        emitter e = {.c = c, .m = unit, .k = k, .kernel_index = i,
                     .mem_w = p->board->mem_width_bits};
        hls_emit_compute_unit(&e);
        modules[count] = unit;
        names[count++] = arena_printf(&c->arena, "clhls_cu_%s%s", k->unit, several ? "_one" : "");
        if (several) {
            modules[count] = compute_unit_ports(c, nl, i, 0);
            emit_copies(c, modules[count], i);
            names[count++] = arena_printf(&c->arena, "clhls_cu_%s", k->unit);
        }
    }
    modules[count] = emit_top(c, nl);
    names[count++] = "clhls_top";
    int ok = 1;
    for (int i = 0; i < count; i++)
        ok &= checked(c, modules[i], names[i]);
    if (!ok)
        return HLS_ERR_INTERNAL;
    for (int i = 0; i < count; i++) {
        int rc = write_module(c, dir, files, modules[i], names[i]);
        if (rc != HLS_OK)
            return rc;
    }
    return HLS_OK;
}
