/* A compute unit's body: the fixed shell (rtl-templates/clhls_cu_shell.v: the
 * kernel's register block, the work-group dispatcher, the work-group slot allocator
 * when the kernel has local memory or barriers, the work-item generator) with the nets
 * it drives, its local memories (and the units in front of their shared ports), the
 * probes, ROMs and invariants, the region tree (emit_regions.c), the per-unit request
 * buses its load-store units fill, and the status the shell reads of the body. */
#include <stdio.h>

#include "emit.h"

/* Whether load-store unit port n of k sends write data (a store or atomic unit). */
int hls_emit_port_writes(const hls_kernel *k, int n)
{
    for (int i = 0; i < k->nops; i++)
        if (k->ops[i].lsu == n)
            return k->ops[i].opc != HOP_LOAD;
    return 0;
}

/* The compute unit's ports with write data: they alone have slots on its write-data
 * buses (m_req_wdata, m_req_wstrb), in port order (clhls_mem_interconnect's
 * WRITERS). */
int hls_emit_writer_ports(const hls_kernel *k)
{
    int w = 0;
    for (int n = 0; n < k->nlsus; n++)
        w += hls_emit_port_writes(k, n);
    return w;
}

/* The compute unit's per-unit request buses, each global load-store unit's wires in
 * its slice (a compute unit without units drives the idle values). One combinational
 * block fills every bus: a simulator then copies each slice in place, where slice
 * assignments to a wide bus become a concatenation rebuilt every cycle. */
static void emit_request_buses(emitter *e)
{
    static const char *const buses[] = {"m_req_valid", "m_req_write", "m_req_atomic",
                                        "m_req_addr", "s_resp_ready", "m_req_wdata",
                                        "m_req_wstrb"};
    int writers = hls_emit_writer_ports(e->k);
    unsigned mw = e->mem_w;
    strbuf x = {0};
    sb_append(&x, "always @(*) begin\n    m_req_valid = 0;\n    m_req_write = 0;\n"
                  "    m_req_atomic = 0;\n    m_req_addr = 0;\n    s_resp_ready = ~0;\n");
    for (int i = 0; i < e->k->nops; i++) {
        const hls_op *op = &e->k->ops[i];
        int n = op->lsu;
        if (n < 0)
            continue;
        sb_printf(&x, "    m_req_valid[%d] = lsu%d_m_valid;\n"
                      "    m_req_addr[%d +: 64] = lsu%d_m_addr;\n"
                      "    s_resp_ready[%d] = lsu%d_m_resp_ready;\n",
                  n, n, 64 * n, n, n, n);
        if (op->opc == HOP_LOAD)
            continue;
        unsigned slot = 0; /* the storing units before it */
        for (int m = 0; m < n; m++)
            slot += (unsigned)hls_emit_port_writes(e->k, m);
        sb_printf(&x, "    m_req_wdata[%u +: %u] = lsu%d_m_wdata;\n"
                      "    m_req_wstrb[%u +: %u] = lsu%d_m_wstrb;\n",
                  mw * slot, mw, n, mw / 8 * slot, mw / 8, n);
        if (op->opc == HOP_ATOMIC)
            sb_printf(&x, "    m_req_atomic[%d +: 4] = lsu%d_m_atomic;\n", 4 * n, n);
        else
            sb_printf(&x, "    m_req_write[%d] = 1'b1;\n", n);
    }
    sb_append(&x, "end");
    hls_nl_block *b = hls_nl_block_new(e->m, x.data);
    for (size_t i = 0; i < sizeof buses / sizeof *buses - (writers ? 0 : 2); i++)
        hls_nl_drives(b, buses[i]);
    sb_free(&x);
}

/* The writes of the compute unit as the interconnect takes them (one bit and one
 * address per storing unit, in port order), which every global load unit watches: a
 * write to the line it holds open closes it, so a later load reads memory again. */
static void emit_write_taken(emitter *e)
{
    int writers = hls_emit_writer_ports(e->k), slot = 0;
    if (!writers)
        return;
    int loads = 0;
    for (int i = 0; i < e->k->nops; i++)
        loads |= e->k->ops[i].lsu >= 0 && e->k->ops[i].opc == HOP_LOAD;
    if (!loads)
        return;
    const char *valid = bus_net(e, (unsigned)writers, "per storing unit: its request is taken now",
                                "write_taken");
    const char *addr = bus_net(e, 64u * (unsigned)writers, "per storing unit: its address",
                               "write_addr");
    strbuf v = {0}, a = {0};
    for (int n = e->k->nlsus - 1; n >= 0; n--) { /* {last, ..., first}: slot 0 lowest */
        if (!hls_emit_port_writes(e->k, n))
            continue;
        sb_printf(&v, "%slsu%d_m_valid & m_req_ready[%d]", slot ? ", " : "", n, n);
        sb_printf(&a, "%slsu%d_m_addr", slot ? ", " : "", n);
        slot++;
    }
    hls_nl_assign(e->m, valid, "{%s}", v.data);
    hls_nl_assign(e->m, addr, "{%s}", a.data);
    sb_free(&v);
    sb_free(&a);
}

/* Bits of a local size or a group's work-item count (1 .. the largest work-group). */
static unsigned local_size_bits(const hls_kernel *k)
{
    return hls_emit_lid_bits(k) + 1;
}

/* Appends "r1_x | r2_x ..." over regions of a kind (fmt names the region once or
 * twice, and starts with its join). */
static void region_reduce(emitter *e, strbuf *x, hls_region_kind kind, const char *fmt)
{
    for (int i = 1; i < e->k->nregions; i++)
        if (e->k->regions[i].kind == kind)
            sb_printf(x, fmt, i, i);
}

/* Bits of a local memory's conflict count (0..ports). */
static int conflict_width(int ports)
{
    int bits = 1;
    while ((1 << bits) < ports + 1)
        bits++;
    return bits;
}

/* Port p of local memory i, shared by accesses whose predicates exclude each other
 * within a work-group (localbanks.c): a clhls_port_share in front of it. Its
 * requesters' vectors lm<i>p<p>_* are those of a memory's ports (the accesses drive
 * their slices, emit_local_op in emit_memory.c); the unit takes each one's request
 * packed {write, address, data, strobes[, operation, wide, compare]} and puts the
 * chosen one on the memory's port. */
static void emit_port_share(emitter *e, int i, int p)
{
    const hls_local *m = &e->k->locals[i];
    unsigned n = (unsigned)m->port_users[p], aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits;
    unsigned wb = ww / 8, rw = 1 + aw + ww + wb + (m->atomics ? 5 + ww : 0);
    const char *v = text(e, "lm%dp%d", i, p);
    bus_net(e, n, text(e, "port %d of __local %s, shared by %u accesses no work-group runs "
                          "two of", p, m->name, n), text(e, "%s_req_valid", v));
    static const char *const per_req[] = {"req_ready", "req_write", "resp_valid", "resp_ready"};
    for (size_t f = 0; f < sizeof per_req / sizeof *per_req; f++)
        bus_net(e, n, NULL, text(e, "%s_%s", v, per_req[f]));
    bus_net(e, n * aw, NULL, text(e, "%s_req_addr", v));
    bus_net(e, n * ww, NULL, text(e, "%s_req_wdata", v));
    bus_net(e, n * ww, NULL, text(e, "%s_resp_rdata", v));
    bus_net(e, n * wb, NULL, text(e, "%s_req_wstrb", v));
    if (m->atomics) {
        bus_net(e, 4 * n, NULL, text(e, "%s_req_atomic", v));
        bus_net(e, n, NULL, text(e, "%s_req_wide", v));
        bus_net(e, n * ww, NULL, text(e, "%s_req_cmp", v));
    }
    /* the requests packed, requester n-1 first */
    strbuf x = {0};
    sb_append(&x, "{");
    for (int r = (int)n - 1; r >= 0; r--) {
        unsigned u = (unsigned)r;
        sb_printf(&x, "%s%s_req_write[%u], %s_req_addr[%u +: %u], %s_req_wdata[%u +: %u], "
                  "%s_req_wstrb[%u +: %u]", r == (int)n - 1 ? "" : ",\n        ", v, u, v,
                  aw * u, aw, v, ww * u, ww, v, wb * u, wb);
        if (m->atomics)
            sb_printf(&x, ", %s_req_atomic[%u +: 4], %s_req_wide[%u], %s_req_cmp[%u +: %u]", v,
                      4 * u, v, u, v, ww * u, ww);
    }
    sb_append(&x, "}");
    hls_nl_assign(e->m, bus_net(e, n * rw, NULL, text(e, "%s_s_req", v)), "%s", x.data);
    sb_free(&x);
    const char *req = bus_net(e, rw, NULL, text(e, "%s_m_req", v));
    bit_net(e, NULL, text(e, "%s_m_req_valid", v));
    bit_net(e, NULL, text(e, "%s_s_resp_ready", v));
    bit_net(e, NULL, text(e, "%s_idle", v));

    hls_nl_instance *u = instance(e, "clhls_port_share", text(e, "%s_share", v), 1);
    hls_nl_param(u, "N", "%u", n);
    hls_nl_param(u, "REQ_W", "%u", rw);
    hls_nl_param(u, "WORD_W", "%u", ww);
    /* a lone requester at the port's rate: the memory's latency and the answer's cycle */
    hls_nl_param(u, "RESP_DEPTH", "%d",
                 HLS_LOCAL_LATENCY + hls_ir_port_sliced(e->c->program, e->k, i, p) + 1);
    hls_nl_connect(u, HLS_NL_IN, "s_req_valid", "%s_req_valid", v);
    hls_nl_connect(u, HLS_NL_OUT, "s_req_ready", "%s_req_ready", v);
    hls_nl_connect(u, HLS_NL_IN, "s_req_data", "%s_s_req", v);
    hls_nl_connect(u, HLS_NL_OUT, "m_req_valid", "%s_m_req_valid", v);
    hls_nl_connect(u, HLS_NL_IN, "m_req_ready", "lm%d_req_ready[%d]", i, p);
    hls_nl_connect(u, HLS_NL_OUT, "m_req_data", "%s", req);
    hls_nl_connect(u, HLS_NL_IN, "s_resp_valid", "lm%d_resp_valid[%d]", i, p);
    hls_nl_connect(u, HLS_NL_OUT, "s_resp_ready", "%s_s_resp_ready", v);
    hls_nl_connect(u, HLS_NL_IN, "s_resp_data", "lm%d_resp_rdata[%u +: %u]", i, ww * (unsigned)p,
                   ww);
    hls_nl_connect(u, HLS_NL_OUT, "m_resp_valid", "%s_resp_valid", v);
    hls_nl_connect(u, HLS_NL_IN, "m_resp_ready", "%s_resp_ready", v);
    hls_nl_connect(u, HLS_NL_OUT, "m_resp_data", "%s_resp_rdata", v);
    hls_nl_connect(u, HLS_NL_OUT, "idle", "%s_idle", v);

    /* the chosen request on the memory's port */
    unsigned at = rw, up = (unsigned)p;
    hls_nl_assign(e->m, text(e, "lm%d_req_valid[%d]", i, p), "%s_m_req_valid", v);
    hls_nl_assign(e->m, text(e, "lm%d_req_write[%d]", i, p), "%s[%u]", req, at -= 1);
    hls_nl_assign(e->m, text(e, "lm%d_req_addr[%u +: %u]", i, aw * up, aw), "%s[%u +: %u]", req,
                  at -= aw, aw);
    hls_nl_assign(e->m, text(e, "lm%d_req_wdata[%u +: %u]", i, ww * up, ww), "%s[%u +: %u]", req,
                  at -= ww, ww);
    hls_nl_assign(e->m, text(e, "lm%d_req_wstrb[%u +: %u]", i, wb * up, wb), "%s[%u +: %u]", req,
                  at -= wb, wb);
    if (m->atomics) {
        hls_nl_assign(e->m, text(e, "lm%d_req_atomic[%u +: 4]", i, 4 * up), "%s[%u +: 4]", req,
                      at -= 4);
        hls_nl_assign(e->m, text(e, "lm%d_req_wide[%d]", i, p), "%s[%u]", req, at -= 1);
        hls_nl_assign(e->m, text(e, "lm%d_req_cmp[%u +: %u]", i, ww * up, ww), "%s[%u +: %u]",
                      req, at -= ww, ww);
    }
    hls_nl_assign(e->m, text(e, "lm%d_resp_ready[%d]", i, p), "%s_s_resp_ready", v);
}

unsigned hls_emit_atomic_ops(const hls_kernel *k, int lmem, int *wide)
{
    unsigned ops = 0;
    for (int j = 0; j < k->nops; j++) {
        const hls_op *op = &k->ops[j];
        if (op->opc == HOP_ATOMIC && op->lmem == lmem) {
            ops |= 1u << op->imm;
            if (wide)
                *wide |= op->width > 32;
        }
    }
    return ops;
}

/* 1 when every store and atomic of local memory lmem writes a whole word: its banks
 * then need no byte enables. */
static int writes_whole_words(const hls_kernel *k, int lmem)
{
    for (int j = 0; j < k->nops; j++) {
        const hls_op *op = &k->ops[j];
        if (op->lmem == lmem && (op->opc == HOP_STORE || op->opc == HOP_ATOMIC) &&
            op->width != k->locals[lmem].word_bits)
            return 0;
    }
    return 1;
}

/* Declares the port vectors of local memory i (the accesses drive their slices) and
 * instantiates it; a memory with atomic accesses gets their ports too. */
static void emit_local_memory(emitter *e, int i)
{
    const hls_local *m = &e->k->locals[i];
    unsigned np = (unsigned)m->nports, aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits;
    bus_net(e, np, text(e, "__local %s: %llu bytes per work-group slot, %d slots, %d banks of "
                           "%u-bit words, %u ports", m->name, 1ull << m->addr_bits, HLS_WG_SLOTS,
                        m->banks, ww, np),
            text(e, "lm%d_req_valid", i));
    static const char *const per_port[] = {"req_ready", "req_write", "resp_valid", "resp_ready"};
    for (size_t f = 0; f < sizeof per_port / sizeof *per_port; f++)
        bus_net(e, np, NULL, text(e, "lm%d_%s", i, per_port[f]));
    bus_net(e, np * aw, NULL, text(e, "lm%d_req_addr", i));
    bus_net(e, np * ww, NULL, text(e, "lm%d_req_wdata", i));
    bus_net(e, np * ww, NULL, text(e, "lm%d_resp_rdata", i));
    bus_net(e, np * ww / 8, NULL, text(e, "lm%d_req_wstrb", i));
    bus_net(e, (unsigned)conflict_width(m->nports),
            m->wiring == HLS_BANKS_STATIC ? text(e, "statically wired: %s", m->wiring_reason)
                                          : NULL,
            text(e, "lm%d_conflicts", i));
    bit_net(e, NULL, text(e, "lm%d_idle", i));
    if (m->atomics) {
        bus_net(e, 4 * np, NULL, text(e, "lm%d_req_atomic", i));
        bus_net(e, np, NULL, text(e, "lm%d_req_wide", i));
        bus_net(e, np * ww, NULL, text(e, "lm%d_req_cmp", i));
    }
    hls_nl_instance *u = instance(e, "clhls_local_mem", text(e, "lm%d", i), 1);
    hls_nl_param(u, "NPORTS", "%u", np);
    hls_nl_param(u, "ADDR_W", "%u", aw);
    hls_nl_param(u, "WORD_W", "%u", ww);
    hls_nl_param(u, "BANKS", "%d", m->banks);
    strbuf sliced = {0}; /* the ports whose s_req_ready is a register */
    int nsliced = 0;
    sb_printf(&sliced, "%u'b", np);
    for (int p = (int)np - 1; p >= 0; p--) {
        int slice = hls_ir_port_sliced(e->c->program, e->k, i, p);
        nsliced += slice;
        sb_append(&sliced, slice ? "1" : "0");
    }
    if (nsliced)
        hls_nl_param(u, "REQ_SLICE", "%s", sliced.data);
    sb_free(&sliced);
    if (m->atomics)
        hls_nl_param(u, "ATOMICS", "16'h%04x", hls_emit_atomic_ops(e->k, i, NULL));
    if (writes_whole_words(e->k, i))
        hls_nl_param(u, "WHOLE_WORDS", "1");
    if (m->wiring == HLS_BANKS_STATIC) { /* localbanks.c proved each port's banks */
        strbuf banks = {0};
        sb_printf(&banks, "%u'b", np * (unsigned)m->banks);
        for (int p = (int)np - 1; p >= 0; p--)
            for (int b = m->banks - 1; b >= 0; b--)
                sb_append(&banks, m->port_banks[p] >> b & 1 ? "1" : "0");
        hls_nl_param(u, "STATIC", "1");
        hls_nl_param(u, "PORT_BANKS", "%s", banks.data);
        sb_free(&banks);
    }
    static const struct {
        const char *port;  /* the memory's port */
        const char *field; /* lm<i>_<field> */
        hls_nl_dir dir;    /* what the port does */
    } ports[] = {
        {"s_req_valid", "req_valid", HLS_NL_IN},    {"s_req_ready", "req_ready", HLS_NL_OUT},
        {"s_req_write", "req_write", HLS_NL_IN},    {"s_req_addr", "req_addr", HLS_NL_IN},
        {"s_req_wdata", "req_wdata", HLS_NL_IN},    {"s_req_wstrb", "req_wstrb", HLS_NL_IN},
        {"m_resp_valid", "resp_valid", HLS_NL_OUT}, {"m_resp_ready", "resp_ready", HLS_NL_IN},
        {"m_resp_rdata", "resp_rdata", HLS_NL_OUT}};
    for (size_t f = 0; f < sizeof ports / sizeof *ports; f++)
        hls_nl_connect(u, ports[f].dir, ports[f].port, "lm%d_%s", i, ports[f].field);
    hls_nl_connect(u, HLS_NL_OUT, "conflicts", "lm%d_conflicts", i);
    hls_nl_connect(u, HLS_NL_OUT, "idle", "lm%d_idle", i);
    static const char *const atomic[] = {"req_atomic", "req_wide", "req_cmp"};
    const unsigned atomic_width[] = {4 * np, np, np * ww};
    for (size_t f = 0; f < sizeof atomic / sizeof *atomic; f++)
        if (m->atomics)
            hls_nl_connect(u, HLS_NL_IN, text(e, "s_%s", atomic[f]), "lm%d_%s", i, atomic[f]);
        else
            hls_nl_connect(u, HLS_NL_IN, text(e, "s_%s", atomic[f]), "%u'd0", atomic_width[f]);
    for (int p = 0; p < m->nports; p++)
        if (m->port_users && m->port_users[p] > 1)
            emit_port_share(e, i, p);
}

int hls_emit_requests_per_cycle(const hls_program *p, const hls_kernel *k)
{
    int most = (int)p->board->mem_ports;
    return k->nlsus < most ? (k->nlsus ? k->nlsus : 1) : most;
}

int hls_emit_request_bits(const hls_program *p, const hls_kernel *k)
{
    int bits = 1;
    while ((1 << bits) <= hls_emit_requests_per_cycle(p, k))
        bits++;
    return bits;
}

int hls_emit_event_bits(const hls_program *p, const hls_kernel *k)
{
    return hls_emit_conflicts_width(k) + 3 + 2 * hls_emit_request_bits(p, k);
}

/* The width of the compute unit's bank conflicts in one cycle: every port of every
 * local memory of every copy of it may be refused (unit 0 counts them all), and at
 * least the 8 bits of the usual counter. */
int hls_emit_conflicts_width(const hls_kernel *k)
{
    int ports = 0;
    for (int i = 0; i < k->nlocals; i++)
        ports += k->locals[i].nports;
    int w = conflict_width(ports * k->compute_units);
    return w > 8 ? w : 8;
}

/* The local memories, and their bank conflicts this cycle. */
static void emit_local_memories(emitter *e)
{
    const hls_kernel *k = e->k;
    int width = hls_emit_conflicts_width(k);
    strbuf x = {0};
    sb_printf(&x, "%d'd0", width);
    for (int i = 0; i < k->nlocals; i++)
        if (k->locals[i].nports) {
            emit_local_memory(e, i);
            int pad = width - conflict_width(k->locals[i].nports);
            if (pad)
                sb_printf(&x, " + {{%d{1'b0}}, lm%d_conflicts}", pad, i);
            else
                sb_printf(&x, " + lm%d_conflicts", i);
        }
    hls_nl_assign(e->m, bus_net(e, (unsigned)width, NULL, "local_conflicts"), "%s", x.data);
    sb_free(&x);
}

/* The nets the shell drives: the NDRange registers, the argument area, and the
 * work-items entering the body with their token fields. */
static void declare_shell_outputs(emitter *e, unsigned nwords)
{
    bus_net(e, 32, NULL, "work_dim");
    for (int reg = HLS_ND_GLOBAL_SIZE; reg <= HLS_ND_NUM_GROUPS; reg++)
        for (int dim = 0; dim < 3; dim++)
            bus_net(e, hls_emit_ndrange_width(reg), NULL,
                    text(e, "%s_%c", hls_emit_ndrange_reg(reg), "xyz"[dim]));
    bus_net(e, 64 * nwords, "the argument area, byte b at bits 8*b", "args");
    bit_net(e, NULL, "wi_valid");
    bit_net(e, NULL, "wi_ready");
    char name[32];
    for (int field = HLS_TOK_GLOBAL_ID; field <= HLS_TOK_GROUP_LINEAR_SIZE; field++)
        for (int dim = 0; dim < (field < HLS_TOK_SLOT ? 3 : 1); dim++) {
            hls_emit_token_wire(name, sizeof name, field, dim);
            bus_net(e, hls_emit_token_width(field), NULL, text(e, "%s", name));
        }
    bit_net(e, "no work-item left to enter or inside: stores may flush", "drained");
}

/* Bits of the event counters: a year of the board's clock before a count wraps (50 at
 * 24 MHz, 54 at 300 MHz), not 64 bits of registers and carries each. */
static unsigned counter_bits(double clock_mhz)
{
    const double year_s = 365.25 * 24 * 3600;
    unsigned bits = 34;
    while (bits < 64 && (double)(1ull << bits) < clock_mhz * 1e6 * year_s)
        bits++;
    return bits;
}

/* The shell (clhls_cu_shell): control block, work-group dispatch, work-group slots
 * and work-item generation. */
static void emit_shell(emitter *e, unsigned nwords, int nprobes, const char *retire_slot)
{
    const hls_kernel *k = e->k;
    int slots = k->slot_op >= 0;
    hls_nl_instance *u = instance(e, "clhls_cu_shell", "shell", 1);
    hls_nl_param(u, "NARGS", "%u", nwords);
    hls_nl_param(u, "NPROBES", "%d", nprobes ? nprobes : 1);
    hls_probe probed[HLS_MAX_PROBES];
    hls_ir_probes(e->c->program, e->kernel_index, probed);
    unsigned peaks = 0; /* a channel's probe keeps its peak since start */
    for (int i = 0; i < nprobes; i++)
        if (probed[i].channel >= 0)
            peaks |= 1u << i;
    if (peaks)
        hls_nl_param(u, "PEAKS", "%d'h%x", nprobes, peaks);
    hls_nl_param(u, "ID_W", "%u", e->c->program->board->work_item_index_bits);
    hls_nl_param(u, "LS_W", "%u", local_size_bits(k));
    hls_nl_param(u, "BLOCK", "%d", e->kernel_index);
    if (hls_emit_reg_addr_bits(e->c->program) != 16)
        hls_nl_param(u, "REG_ADDR_W", "%u", hls_emit_reg_addr_bits(e->c->program));
    hls_nl_param(u, "SLOTS", "%d", slots ? HLS_WG_SLOTS : 0);
    hls_nl_param(u, "SLOT_W", "%d", HLS_SLOT_BITS);
    if (hls_emit_conflicts_width(k) != 8)
        hls_nl_param(u, "CONFLICT_W", "%d", hls_emit_conflicts_width(k));
    unsigned count_bits = counter_bits(e->c->program->board->clock_mhz);
    if (count_bits < 64)
        hls_nl_param(u, "COUNT_W", "%u", count_bits);
    if (k->autorun) /* it starts itself out of reset */
        hls_nl_param(u, "AUTORUN", "1");
    if (k->compute_units > 1) /* one of several: the kernel's module joins them */
        hls_nl_param(u, "NCU", "%d", k->compute_units);
    if (hls_emit_requests_per_cycle(e->c->program, k) > 1) /* several memory ports */
        hls_nl_param(u, "REQS", "%d", hls_emit_requests_per_cycle(e->c->program, k));
    /* A short clock gets the work-item generator's register for the next group, so
     * the pipeline's ready ends there; a slower clock keeps the area. */
    if (hls_ir_short_clock(e->c->program))
        hls_nl_param(u, "GROUP_REG", "1");
    static const char *const reg_port[] = {"reg_we", "reg_addr", "reg_wdata"};
    for (size_t i = 0; i < sizeof reg_port / sizeof *reg_port; i++)
        hls_nl_connect(u, HLS_NL_IN, reg_port[i], "%s", reg_port[i]);
    hls_nl_connect(u, HLS_NL_OUT, "reg_rdata", "reg_rdata");
    hls_nl_connect(u, HLS_NL_OUT, "work_dim", "work_dim");
    for (int reg = HLS_ND_GLOBAL_SIZE; reg <= HLS_ND_NUM_GROUPS; reg++)
        for (int dim = 0; dim < 3; dim++) {
            const char *name = text(e, "%s_%c", hls_emit_ndrange_reg(reg), "xyz"[dim]);
            hls_nl_connect(u, HLS_NL_OUT, name, "%s", name);
        }
    hls_nl_connect(u, HLS_NL_OUT, "args", "args");
    hls_nl_connect(u, HLS_NL_OUT, "m_valid", "wi_valid");
    hls_nl_connect(u, HLS_NL_IN, "m_ready", "wi_ready");
    char name[32];
    for (int field = HLS_TOK_GLOBAL_ID; field <= HLS_TOK_GROUP_LINEAR_SIZE; field++)
        for (int dim = 0; dim < (field < HLS_TOK_SLOT ? 3 : 1); dim++) {
            hls_emit_token_wire(name, sizeof name, field, dim);
            hls_nl_connect(u, HLS_NL_OUT, text(e, "m_%s", name + 3), "%s", name);
        }
    hls_nl_connect(u, HLS_NL_IN, "retire_valid", "retire");
    hls_nl_connect(u, HLS_NL_IN, "retire_slot", "%s", retire_slot);
    static const char *const status[] = {"body_empty", "lsus_idle", "stall_mem", "mem_read",
                                         "mem_write", "local_conflicts", "probes"};
    for (size_t i = 0; i < sizeof status / sizeof *status; i++)
        hls_nl_connect(u, HLS_NL_IN, status[i], "%s", status[i]);
    hls_nl_connect(u, HLS_NL_OUT, "drained", "drained");
    hls_nl_connect(u, HLS_NL_OUT, "quiet", "quiet");
    hls_nl_connect(u, HLS_NL_IN, "skip", "skip");
    hls_nl_connect(u, HLS_NL_OUT, "still", "%s",
                   bit_net(e, "the shell's next edge changes only counts", "shell_still"));
    int copies = k->compute_units > 1;
    hls_nl_connect(u, HLS_NL_IN, "cu_index", "%s", copies ? "cu_index" : "8'd0");
    if (copies)
        hls_nl_connect(u, HLS_NL_IN, "peer_events", "peer_events");
    else
        hls_nl_connect(u, HLS_NL_IN, "peer_events", "%d'd0",
                       hls_emit_event_bits(e->c->program, k));
    hls_nl_connect(u, HLS_NL_OUT, "cu_events", "%s", copies ? "cu_events" : "");
}

/* Probes: entries in each channel the kernel writes or reads, work-items inside each
 * loop, waiting in each barrier, waiting for memory in each memory node (for the
 * diagnosis of a hang). Returns how many. */
static int emit_probes(emitter *e)
{
    const hls_kernel *k = e->k;
    const hls_program *p = e->c->program;
    hls_probe probed[HLS_MAX_PROBES];
    int nprobes = hls_ir_probes(p, e->kernel_index, probed);
    strbuf x = {0};
    sb_append(&x, "{");
    for (int i = nprobes - 1; i >= 0; i--) {
        const char *sep = i == nprobes - 1 ? "" : ", ";
        if (probed[i].channel >= 0) {
            int c = probed[i].channel;
            sb_printf(&x, "%s%u'd0, ch%d_count", sep, 32 - count_bits(p->channels[c].depth), c);
            continue;
        }
        const hls_region *r = &k->regions[probed[i].region];
        unsigned bits = r->kind == HLS_REGION_LOOP     ? count_bits(r->credits)
                        : r->kind == HLS_REGION_MEMORY ? count_bits(r->exit_depth)
                                                       : hls_emit_lid_bits(k) + HLS_SLOT_BITS + 1;
        const char *name = r->kind == HLS_REGION_LOOP     ? "count"
                           : r->kind == HLS_REGION_MEMORY ? "tokens"
                                                          : "held";
        sb_printf(&x, "%s%u'd0, r%d_%s", sep, 32 - bits, r->id, name);
    }
    sb_printf(&x, "%s}", nprobes ? "" : "32'd0");
    const char *probes = bus_net(e, 32u * (unsigned)(nprobes ? nprobes : 1),
                                 "entries in each channel, work-items in each loop, barrier "
                                 "and memory node (hangs)", "probes");
    hls_nl_assign(e->m, probes, "%s", x.data);
    sb_free(&x);
    return nprobes;
}

/* The compute unit's `still` (simulation; 0 in synthesis): its next edge changes no
 * register but the shell's counts. No work-item enters or leaves a region, a static
 * region's stages hold or are empty (the values in empty stages are nobody's), and the
 * shell, every load-store unit and every barrier are still. A loop's registers
 * (credits, counts, its generator, the FIFOs of its back edge and exit) move only with
 * those handshakes or with an iteration leaving a static stage. A local memory (and a
 * port shared in front of it) is still when idle, nothing queued, in flight or owed,
 * and no request enters. A channel's FIFO (in the top) moves only as a memory node's
 * work-item enters or leaves it. */
static void emit_still(emitter *e, strbuf *x)
{
    const hls_kernel *k = e->k;
    sb_append(x, "\n`ifdef CLHLS_SIM_CHECKS\n        shell_still");
    for (int n = 0; n < k->nlsus; n++)
        sb_printf(x, " & lsu%d_still", n);
    for (int i = 1; i < k->nregions; i++) {
        if (k->regions[i].kind == HLS_REGION_SEQ)
            continue;
        sb_printf(x, "\n        & ~(r%d_in_valid & r%d_in_ready) & ~(r%d_out_valid & r%d_out_ready)",
                  i, i, i, i);
        if (k->regions[i].kind == HLS_REGION_STATIC)
            sb_printf(x, " & (~|r%d_valid_s | ~r%d_en)", i, i);
        else if (k->regions[i].kind == HLS_REGION_BARRIER)
            sb_printf(x, " & r%d_still", i);
    }
    for (int i = 0; i < k->nlocals; i++) {
        const hls_local *m = &k->locals[i];
        if (!m->nports)
            continue;
        sb_printf(x, "\n        & lm%d_idle & ~|(lm%d_req_valid & lm%d_req_ready)", i, i, i);
        for (int p = 0; p < m->nports; p++)
            if (m->port_users && m->port_users[p] > 1)
                sb_printf(x, "\n        & lm%dp%d_idle & ~|(lm%dp%d_req_valid & lm%dp%d_req_ready)",
                          i, p, i, p, i, p);
    }
    sb_append(x, "\n`else\n        1'b0\n`endif");
}

/* What the shell needs to know of the body: whether it is empty, whether the
 * load-store units are idle, memory requests issued this cycle, and forward progress
 * (the watchdog's sign of life: a work-item entered a region of the body, left a loop,
 * or retired; going round a loop is not). */
static void emit_body_status(emitter *e)
{
    const hls_kernel *k = e->k;
    strbuf x = {0};
    sb_append(&x, "1'b1");
    region_reduce(e, &x, HLS_REGION_STATIC, "\n        & ~|r%d_valid_s & ~r%d_out_valid");
    /* (a loop's and a barrier's registered flags that their counts are 0, no compare) */
    region_reduce(e, &x, HLS_REGION_LOOP, "\n        & r%d_none_inside & ~r%d_out_valid");
    region_reduce(e, &x, HLS_REGION_BARRIER, "\n        & r%d_none_held & ~r%d_out_valid");
    /* (a memory node's token queue is empty: its registered not-empty flag, no compare) */
    region_reduce(e, &x, HLS_REGION_MEMORY, "\n        & ~r%d_w_valid");
    hls_nl_assign(e->m, bit_net(e, "no work-item inside a region", "body_empty"), "%s", x.data);
    x.len = 0;
    for (int n = 0; n < k->nlsus; n++)
        sb_printf(&x, "%slsu%d_idle", n ? " & " : "", n);
    hls_nl_assign(e->m, bit_net(e, "every load-store unit idle, every store acknowledged",
                                "lsus_idle"), "%s", k->nlsus ? x.data : "1'b1");
    /* the requests issued this cycle: at most one on a board of one memory port (its
     * interconnect takes one a cycle), else a sum */
    int req_bits = hls_emit_request_bits(e->c->program, k);
    for (int write = 0; write < 2; write++) {
        x.len = 0;
        sb_printf(&x, "%d'd0", req_bits);
        for (int i = 0; i < k->nops; i++) {
            const hls_op *op = &k->ops[i];
            if (op->lsu >= 0 && (op->opc == HOP_STORE) == write) {
                if (req_bits == 1)
                    sb_printf(&x, " | lsu%d_count", op->lsu);
                else
                    sb_printf(&x, " + {%d'd0, lsu%d_count}", req_bits - 1, op->lsu);
            }
        }
        const char *name = write ? "mem_write" : "mem_read";
        if (req_bits == 1)
            bit_net(e, "a memory request issued this cycle", name);
        else
            hls_nl_net(e->m, name, (unsigned)req_bits, "memory requests issued this cycle");
        hls_nl_assign(e->m, name, "%s", x.data);
    }
    x.len = 0;
    sb_append(&x, "retire");
    for (int c = 0; c < k->regions[0].nchildren; c++)
        sb_printf(&x, " | (r%d_in_valid & r%d_in_ready)", k->regions[0].children[c],
                  k->regions[0].children[c]);
    for (int i = 1; i < k->nregions; i++)
        if (k->regions[i].kind == HLS_REGION_LOOP)
            sb_printf(&x, " | r%d_exit_push", i);
        else if (k->regions[i].kind == HLS_REGION_BARRIER)
            sb_printf(&x, " | (r%d_out_valid & r%d_out_ready)", i, i);
    hls_nl_assign(e->m, "progress", "%s", x.data);
    x.len = 0;
    emit_still(e, &x);
    hls_nl_assign(e->m, "still", "%s", x.data);
    sb_free(&x);
}

/* The compute unit's body in its module: the shell's nets, the regions' handshakes,
 * local memories, probes, the shell, ROMs, invariants, the region tree, the request
 * buses and what the shell needs to know of the body. */
void hls_emit_compute_unit(emitter *e)
{
    const hls_kernel *k = e->k;
    unsigned nwords = k->arg_bytes ? k->arg_bytes / 8 : 1; /* argument area registers */
    int entry = k->regions[0].children[0];
    int last = k->regions[0].children[k->regions[0].nchildren - 1];
    declare_shell_outputs(e, nwords);
    hls_emit_declare_regions(e);
    emit_local_memories(e);
    int nprobes = emit_probes(e);
    hls_nl_assign(e->m, bit_net(e, "a work-item leaves the last region", "retire"),
                  "r%d_out_valid", last);
    hls_nl_assign(e->m, text(e, "r%d_out_ready", last), "1'b1");
    strbuf x = {0};
    sb_append(&x, "1'b0");
    region_reduce(e, &x, HLS_REGION_MEMORY, " | r%d_stall_mem");
    hls_nl_assign(e->m, bit_net(e, "a memory node waits for memory", "stall_mem"), "%s", x.data);
    sb_free(&x);
    emit_shell(e, nwords, nprobes,
               k->slot_op >= 0 ? text(e, "r%d_out_v%d", last, k->slot_op)
                               : text(e, "%d'd0", HLS_SLOT_BITS));
    hls_nl_assign(e->m, "wi_ready", "r%d_in_ready", entry);
    hls_nl_assign(e->m, text(e, "r%d_in_valid", entry), "wi_valid");
    hls_emit_roms(e);
    for (int i = 0; i < k->nops; i++)
        if (hls_ir_is_invariant(&k->ops[i]))
            hls_emit_invariant(e, &k->ops[i]);
    hls_emit_region(e, 0);
    emit_request_buses(e);
    emit_write_taken(e);
    emit_body_status(e);
}
