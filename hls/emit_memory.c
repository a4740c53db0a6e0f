/* Memory nodes. A memory node holds load-store units (global accesses) and
 * local-memory ports: a work-item's requests issue together, its token waits in a
 * FIFO and leaves with the answers. Each access's unit is named after what serves it
 * (unit_name) and meets the node through a valid/ready request and answer. */
#include <stdio.h>
#include <string.h>

#include "emit.h"

/* The request side of global load-store unit n: wires of its own, gathered into the
 * compute unit's per-unit buses by emit_request_buses (emit_unit.c). Stores and
 * atomics also send data and byte enables, atomics an operation code. */
static void emit_lsu_request_wires(emitter *e, const hls_op *op)
{
    int n = op->lsu;
    bit_net(e, NULL, text(e, "lsu%d_m_valid", n));
    bit_net(e, NULL, text(e, "lsu%d_m_resp_ready", n));
    bus_net(e, 64, NULL, text(e, "lsu%d_m_addr", n));
    if (op->opc != HOP_LOAD) {
        bus_net(e, e->mem_w, NULL, text(e, "lsu%d_m_wdata", n));
        bus_net(e, e->mem_w / 8, NULL, text(e, "lsu%d_m_wstrb", n));
    }
    if (op->opc == HOP_ATOMIC)
        bus_net(e, 4, NULL, text(e, "lsu%d_m_atomic", n));
}

/* The memory-side connections shared by every global load-store unit kind. */
static void connect_lsu_memory_ports(hls_nl_instance *u, int n)
{
    hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_valid", "lsu%d_m_valid", n);
    hls_nl_connect(u, HLS_NL_IN, "m_mem_req_ready", "m_req_ready[%d]", n);
    hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_addr", "lsu%d_m_addr", n);
    hls_nl_connect(u, HLS_NL_IN, "s_mem_resp_valid", "s_resp_valid[%d]", n);
    hls_nl_connect(u, HLS_NL_OUT, "s_mem_resp_ready", "lsu%d_m_resp_ready", n);
}

/* The predicate of a memory access as its node receives it ("1'b1" when the access
 * always executes). */
static const char *pred_in(const emitter *e, const hls_op *op, char buf[40])
{
    if (!op->has_pred)
        return "1'b1";
    return hls_emit_ref(e, buf, &e->k->ops[op->args[op->nargs - 1]], 0);
}

/* Value id as the token waiting in memory node e->r holds it. */
static const char *waiting(const emitter *e, int id, char buf[40])
{
    if (hls_ir_is_invariant(&e->k->ops[id]))
        snprintf(buf, 40, "v%d", id);
    else
        snprintf(buf, 40, "r%d_w_v%d", e->r->id, id);
    return buf;
}

/* Room for a unit's name: "lm%dp%dr%d" with three ints. */
#define UNIT_NAME_SIZE 48

/* Name of the unit serving a memory op: "lsu3" (global), "lm0p2" (port 2 of local
 * memory 0), "lm0p2r1" (requester 1 of port 2, a port accesses share). Its handshake
 * with the memory node: <unit>_req_valid and _req_ready for the request, _resp_valid
 * and _resp_ready for the answer (a load's or atomic's data in <unit>_rdata). */
static const char *unit_name(const hls_op *op, char buf[UNIT_NAME_SIZE])
{
    if (op->chan >= 0 && op->opc == HOP_CHAN_READ && op->imm == HLS_CHAN_COUNT)
        snprintf(buf, UNIT_NAME_SIZE, "ch%dn%d", op->chan, op->id);
    else if (op->chan >= 0)
        snprintf(buf, UNIT_NAME_SIZE, "ch%d", op->chan);
    else if (op->lmem >= 0 && op->lshare >= 0)
        snprintf(buf, UNIT_NAME_SIZE, "lm%dp%dr%d", op->lmem, op->lport, op->lshare);
    else if (op->lmem >= 0)
        snprintf(buf, UNIT_NAME_SIZE, "lm%dp%d", op->lmem, op->lport);
    else
        snprintf(buf, UNIT_NAME_SIZE, "lsu%d", op->lsu);
    return buf;
}

/* The vectors an access drives its slice of: the memory's port vectors "lm<M>", or on
 * a shared port its requesters' "lm<M>p<P>"; and its slice's index. */
static const char *local_vectors(emitter *e, const hls_op *op, int *index)
{
    *index = op->lshare >= 0 ? op->lshare : op->lport;
    return op->lshare >= 0 ? text(e, "lm%dp%d", op->lmem, op->lport) : text(e, "lm%d", op->lmem);
}

/* assign lm<M>_<field>[base +: width] = expression: port P's slice of a local memory's
 * port vector (lm<M>p<P>_<field>, requester R's slice, on a shared port). */
static void local_port_assign(emitter *e, const hls_op *op, const char *field, unsigned width,
                              const char *expr)
{
    int index;
    const char *v = local_vectors(e, op, &index);
    hls_nl_assign(e->m, text(e, "%s_%s[%u +: %u]", v, field, width * (unsigned)index, width),
                  "%s", expr);
}

/* A local-memory access on its port: the request carries the word address ({slot,
 * offset}), a store's or atomic's value (and a cmpxchg's compare value) repeated
 * across the word with the byte enables of its bytes; a load or atomic picks its bytes
 * out of the answered word with its address (carried in the node's token). Every local
 * access gets a response: data, or a store's acknowledgement. */
static void emit_local_op(emitter *e, const hls_op *op)
{
    char args[4][40], u[UNIT_NAME_SIZE], at_answer[40];
    const hls_local *m = &e->k->locals[op->lmem];
    int port;
    const char *lm = local_vectors(e, op, &port);
    unsigned aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits, wb = ww / 8;
    unsigned ob = 0; /* bits of the byte offset inside a word */
    while ((1u << ob) < wb)
        ob++;
    unit_name(op, u);
    int atomic = op->opc == HOP_ATOMIC;
    hls_nl_assign(e->m, text(e, "%s_req_valid[%d]", lm, port), "%s_req_valid", u);
    hls_nl_assign(e->m, text(e, "%s_req_ready", u), "%s_req_ready[%d]", lm, port);
    hls_nl_assign(e->m, text(e, "%s_req_write[%d]", lm, port), "1'b%d", op->opc == HOP_STORE);
    local_port_assign(e, op, "req_addr", aw, text(e, "%s[%u:0]", ARG(0), aw - 1));
    if (m->atomics) { /* the operation, its lane width and a cmpxchg's compare value */
        local_port_assign(e, op, "req_atomic", 4, text(e, "4'd%d", atomic ? (int)op->imm : 0));
        hls_nl_assign(e->m, text(e, "%s_req_wide[%d]", lm, port), "1'b%d", op->width == 64);
        if (atomic && op->imm == HLS_ATOMIC_CMPXCHG)
            local_port_assign(e, op, "req_cmp", ww, text(e, "{%u{%s}}", ww / op->width, ARG(2)));
        else
            local_port_assign(e, op, "req_cmp", ww, text(e, "%u'd0", ww));
    }
    if (op->opc == HOP_STORE || atomic) {
        unsigned w = op->width;
        local_port_assign(e, op, "req_wdata", ww, text(e, "{%u{%s}}", ww / w, ARG(1)));
        if (w == ww)
            local_port_assign(e, op, "req_wstrb", wb, text(e, "{%u{1'b1}}", wb));
        else
            local_port_assign(e, op, "req_wstrb", wb,
                              text(e, "{%u'd0, %u'h%llx} << %s[%u:0]", wb - w / 8, w / 8,
                                   (1ull << (w / 8)) - 1, ARG(0), ob - 1));
    } else {
        local_port_assign(e, op, "req_wdata", ww, text(e, "%u'd0", ww));
        local_port_assign(e, op, "req_wstrb", wb, text(e, "%u'd0", wb));
    }
    hls_nl_assign(e->m, text(e, "%s_resp_valid", u), "%s_resp_valid[%d]", lm, port);
    hls_nl_assign(e->m, text(e, "%s_resp_ready[%d]", lm, port), "%s_resp_ready", u);
    if (op->opc != HOP_LOAD && !atomic)
        return;
    const char *answer = text(e, "%s_resp_rdata[%u +: %u]", lm, ww * (unsigned)port, ww);
    if (op->width == ww) {
        hls_nl_assign(e->m, text(e, "%s_rdata", u), "%s", answer);
        return;
    }
    waiting(e, op->args[0], at_answer);
    const char *word = bus_net(e, ww, NULL, text(e, "%s_word", u));
    hls_nl_assign(e->m, word, "%s >> {%s[%u:0], 3'd0}", answer, at_answer, ob - 1);
    hls_nl_assign(e->m, text(e, "%s_rdata", u), "%s[%u:0]", word, op->width - 1);
}

/* A channel access, on the compute unit's ports of the channel's FIFO (the top joins
 * them): ch<C>_w_valid, _w_ready and _w_data of the kernel that writes it, ch<C>_r_valid,
 * _r_data and _r_pop of the kernel that reads it. A blocking write goes into the FIFO
 * as its request (the FIFO's registered room is the request's ready) and has no
 * answer; a non-blocking one is always taken, goes into the FIFO when there is room,
 * and answers whether it did from a FIFO of flags beside the node's tokens. A read asks
 * nothing: its answer is the FIFO's oldest element, taken when the work-item leaves the
 * node (a blocking read waits for one; a non-blocking read answers at once, with the
 * valid bit above the element). A count answers at once with the FIFO's entries. */
static void emit_channel_op(emitter *e, const hls_op *op)
{
    char args[4][40], u[UNIT_NAME_SIZE];
    int c = op->chan;
    if (op->opc == HOP_CHAN_READ && op->imm == HLS_CHAN_COUNT) { /* the entries, at once */
        unit_name(op, u);
        hls_nl_assign(e->m, text(e, "%s_req_ready", u), "1'b1");
        hls_nl_assign(e->m, text(e, "%s_resp_valid", u), "1'b1");
        unsigned cw = count_bits(e->c->program->channels[c].depth);
        hls_nl_assign(e->m, text(e, "%s_rdata", u), "{%u'd0, ch%d_count}", op->width - cw, c);
        return;
    }
    if (op->opc == HOP_CHAN_READ) {
        hls_nl_assign(e->m, text(e, "ch%d_req_ready", c), "1'b1");
        hls_nl_assign(e->m, text(e, "ch%d_resp_valid", c), op->imm ? "1'b1" : "ch%d_r_valid", c);
        hls_nl_assign(e->m, text(e, "ch%d_rdata", c), op->imm ? "{ch%d_r_valid, ch%d_r_data}"
                                                              : "ch%d_r_data", c, c);
        hls_nl_assign(e->m, text(e, "ch%d_r_pop", c), "ch%d_resp_ready & ch%d_r_valid", c, c);
        return;
    }
    hls_nl_assign(e->m, text(e, "ch%d_w_data", c), "%s", ARG(0));
    if (!op->imm) {
        hls_nl_assign(e->m, text(e, "ch%d_w_valid", c), "ch%d_req_valid", c);
        hls_nl_assign(e->m, text(e, "ch%d_req_ready", c), "ch%d_w_ready", c);
        return;
    }
    hls_nl_assign(e->m, text(e, "ch%d_w_valid", c), "ch%d_req_valid & ch%d_req_ready", c, c);
    hls_emit_fifo(e, text(e, "ch%d_written", c), 1, e->r->exit_depth,
                  (fifo_ports){.s_valid = text(e, "ch%d_req_valid", c),
                               .s_ready = text(e, "ch%d_req_ready", c),
                               .s_data = text(e, "ch%d_w_ready", c),
                               .m_valid = text(e, "ch%d_resp_valid", c),
                               .m_ready = text(e, "ch%d_resp_ready", c),
                               .m_data = text(e, "ch%d_rdata", c)});
}

/* Value-name callback for hls_emit_pack(): a memory node's input. */
static const char *node_in_value(emitter *e, int id, char *buf)
{
    return hls_emit_port_value(e->k, buf, e->r->id, "in", id);
}

/* A global access: its load-store unit, which takes the request from the memory node
 * and gives back the answer (load, atomic, acknowledged store). */
static void emit_global_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    int n = op->lsu;
    /* Only the board's address bits reach the unit: the rest of the address
     * arithmetic and of the unit's address registers is left unused. */
    unsigned abits = e->c->program->board->mem_addr_bits;
    const char *address = text(e, "%s", ARG(0));
    if (abits < 64) {
        address = bus_net(e, 64, NULL, text(e, "lsu%d_address", n));
        hls_nl_assign(e->m, address, "%s & 64'h%llx", ARG(0), (1ull << abits) - 1);
    }
    emit_lsu_request_wires(e, op);
    bit_net(e, NULL, text(e, "lsu%d_idle", n));
    bit_net(e, NULL, text(e, "lsu%d_count", n));
    int plain_store = op->opc == HOP_STORE && !op->acked;
    const char *kind = op->opc == HOP_ATOMIC ? "atomic" : op->opc == HOP_LOAD ? "load"
                       : plain_store ? "store" : "store_ack";
    hls_nl_instance *u = instance(e, text(e, "clhls_lsu_%s", kind), text(e, "lsu%d", n), 1);
    hls_nl_param(u, "DATA_W", "%u", op->width);
    hls_nl_param(u, "MEM_W", "%u", e->mem_w);
    int writers = hls_emit_writer_ports(e->k);
    if (op->opc != HOP_ATOMIC && abits < 64) /* its open line is compared on these bits */
        hls_nl_param(u, "ADDR_W", "%u", abits);
    if (op->opc == HOP_LOAD && !hls_ir_reuses_lines(e->k, op)) /* every load reads anew */
        hls_nl_param(u, "REUSE", "0");
    if (op->opc == HOP_LOAD && hls_ir_node_sliced(e->c->program, e->k, e->r)) { /* readies: registers */
        hls_nl_param(u, "REQ_SLICE", "1");
        hls_nl_param(u, "RESP_SLICE", "1");
    }
    if (op->opc == HOP_LOAD && hls_ir_short_clock(e->c->program)) /* order head: a register */
        hls_nl_param(u, "ORDER_HEAD_REG", "1");
    if (op->opc == HOP_LOAD && writers) { /* the compute unit's writes close its open line */
        hls_nl_param(u, "WRITERS", "%d", writers);
        hls_nl_connect(u, HLS_NL_IN, "s_write_valid", "write_taken");
        hls_nl_connect(u, HLS_NL_IN, "s_write_addr", "write_addr");
    } else if (op->opc == HOP_LOAD) {
        hls_nl_connect(u, HLS_NL_IN, "s_write_valid", "1'b0");
        hls_nl_connect(u, HLS_NL_IN, "s_write_addr", "64'd0");
    }
    if (op->opc == HOP_LOAD && op->spec_alive >= 0) { /* issued before the exit is known */
        hls_nl_param(u, "SPECULATIVE", "1");
        hls_nl_connect(u, HLS_NL_IN, "s_release", "%s", hls_emit_alive_done(e, op->spec_alive));
    } else if (op->opc == HOP_LOAD) {
        hls_nl_connect(u, HLS_NL_IN, "s_release", "1'b0");
    }
    if (plain_store) /* a store nobody waits for is flushed when the unit drains */
        hls_nl_param(u, "IDLE_FLUSH", "4");
    else
        hls_nl_param(u, "DEPTH", "%d", e->k->lsu_depth);
    hls_nl_param(u, "CU", "%d", e->kernel_index);
    hls_nl_param(u, "UNIT", "%d", n);
    hls_nl_connect(u, HLS_NL_IN, "s_req_valid", "lsu%d_req_valid", n);
    hls_nl_connect(u, HLS_NL_OUT, "s_req_ready", "lsu%d_req_ready", n);
    hls_nl_connect(u, HLS_NL_IN, "s_req_addr", "%s", address);
    if (op->opc == HOP_ATOMIC) {
        hls_nl_connect(u, HLS_NL_IN, "s_req_op", "4'd%d", (int)op->imm);
        hls_nl_connect(u, HLS_NL_IN, "s_req_operand", "%s", ARG(1));
        hls_nl_connect(u, HLS_NL_IN, "s_req_compare", "%s",
                       op->imm == HLS_ATOMIC_CMPXCHG ? ARG(2) : "0");
    } else if (op->opc == HOP_STORE) {
        hls_nl_connect(u, HLS_NL_IN, "s_req_data", "%s", ARG(1));
    }
    if (plain_store)
        hls_nl_connect(u, HLS_NL_IN, "flush", "drained");
    if (hls_ir_waits_for_memory(op)) {
        hls_nl_connect(u, HLS_NL_OUT, "m_resp_valid", "lsu%d_resp_valid", n);
        hls_nl_connect(u, HLS_NL_IN, "m_resp_ready", "lsu%d_resp_ready", n);
        if (op->opc != HOP_STORE)
            hls_nl_connect(u, HLS_NL_OUT, "m_resp_data", "lsu%d_rdata", n);
    }
    connect_lsu_memory_ports(u, n);
    if (op->opc == HOP_ATOMIC)
        hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_atomic", "lsu%d_m_atomic", n);
    if (op->opc != HOP_LOAD) {
        hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_wdata", "lsu%d_m_wdata", n);
        hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_wstrb", "lsu%d_m_wstrb", n);
    }
    if (op->opc != HOP_STORE && e->c->program->board->mem_ports == 1)
        hls_nl_connect(u, HLS_NL_IN, "s_mem_resp_rdata", "s_resp_rdata");
    else if (op->opc != HOP_STORE) /* its own answers (clhls_mem_route) */
        hls_nl_connect(u, HLS_NL_IN, "s_mem_resp_rdata", "s_resp_rdata[%u +: %u]",
                       e->mem_w * (unsigned)n, e->mem_w);
    hls_nl_connect(u, HLS_NL_OUT, "idle", "lsu%d_idle", n);
    hls_nl_connect(u, HLS_NL_OUT, "still", "%s", bit_net(e, NULL, text(e, "lsu%d_still", n)));
    hls_nl_connect(u, HLS_NL_OUT,
                   op->opc == HOP_ATOMIC ? "count_atomic" : op->opc == HOP_LOAD ? "count_read"
                                                                               : "count_write",
                   "lsu%d_count", n);
}

/* The values a memory node's waiting token carries: what leaves the node besides the
 * answers, the predicates of the accesses it waits for, and the address of a local
 * load narrower than its memory's word (it picks the bytes out of the answer).
 * Returns how many (sorted). */
static int node_carried(const hls_kernel *k, const hls_region *r, int *carried)
{
    int n = 0;
    for (int i = 0; i < r->nlive_out; i++)
        if (k->ops[r->live_out[i]].region != r->id)
            carried[n++] = r->live_out[i];
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        int pred = op->has_pred ? op->args[op->nargs - 1] : -1;
        if (hls_ir_waits_for_memory(op) && pred >= 0 && !hls_ir_is_invariant(&k->ops[pred]))
            carried[n++] = pred;
        int address = op->args[0];
        if (op->lmem >= 0 && op->opc != HOP_STORE && op->width < k->locals[op->lmem].word_bits &&
            !hls_ir_is_invariant(&k->ops[address]))
            carried[n++] = address;
    }
    return hls_emit_sort_unique(carried, n);
}

/* A memory node's access: the handshake nets of its unit (commented with the op and
 * its line), and the unit or the local-memory port. */
static void emit_node_access(emitter *e, const hls_op *op)
{
    char u[UNIT_NAME_SIZE];
    unit_name(op, u);
    bit_net(e, op->loc.line ? text(e, "%%%d %s, line %u", op->id, hls_ir_opcode_name(op->opc),
                                   op->loc.line) : NULL,
            text(e, "%s_req_valid", u));
    bit_net(e, NULL, text(e, "%s_req_ready", u));
    if (hls_ir_waits_for_memory(op) || op->lmem >= 0) { /* local stores are acknowledged */
        bit_net(e, NULL, text(e, "%s_resp_valid", u));
        bit_net(e, NULL, text(e, "%s_resp_ready", u));
    }
    if (op->opc != HOP_STORE && !(op->opc == HOP_CHAN_WRITE && !op->imm))
        bus_net(e, op->width, NULL, text(e, "%s_rdata", u));
    if (op->chan >= 0)
        emit_channel_op(e, op);
    else if (op->lmem >= 0)
        emit_local_op(e, op);
    else
        emit_global_op(e, op);
}

/* Inputs of a LUT: a wide AND is built of groups of at most this many signals. */
#define LUT_INPUTS 6

/* A term of a wide AND: a Verilog expression and the signals it reads. */
typedef struct and_term {
    const char *expr;
    int inputs;
} and_term;

/* target = the AND of the n terms (each reading at most LUT_INPUTS / 2 signals, so any
 * two fit a group). Over LUT_INPUTS signals in all, the terms are ANDed in groups of at
 * most LUT_INPUTS signals, each a kept net (<target>_and<level>_<group>), and the groups
 * likewise, up to one: a tree of LUTs. Left as one expression, Yosys's ABC maps a wide
 * AND into LUT6s behind chains of MUXF7/8/9 (34 inputs: 7 levels, 1.65 ns on the U250,
 * in matmul_tiled's 32-port node) where the tree takes 2 LUTs. Overwrites t. */
static void emit_and_tree(emitter *e, const char *target, and_term *t, int n)
{
    for (int level = 0;; level++) {
        int total = 0;
        for (int i = 0; i < n; i++) {
            if (t[i].inputs > LUT_INPUTS / 2)
                HLS_BUG("emit: a term of %s reads %d signals", target, t[i].inputs);
            total += t[i].inputs;
        }
        if (total <= LUT_INPUTS)
            break;
        int groups = 0;
        for (int i = 0; i < n;) {
            int first = i, inputs = 0;
            strbuf x = {0};
            while (i < n && inputs + t[i].inputs <= LUT_INPUTS) {
                sb_printf(&x, "%s%s", i == first ? "" : " & ", t[i].expr);
                inputs += t[i++].inputs;
            }
            if (i - first == 1) { /* a lone term stays as it is (groups <= first) */
                t[groups++] = t[first];
            } else {
                const char *g = bit_net(e, NULL, text(e, "%s_and%d_%d", target, level, groups));
                hls_nl_keep(e->m, g);
                hls_nl_assign(e->m, g, "%s", x.data);
                t[groups++] = (and_term){g, 1};
            }
            sb_free(&x);
        }
        n = groups;
    }
    strbuf x = {0};
    for (int i = 0; i < n; i++)
        sb_printf(&x, "%s%s", i ? "\n        & " : "", t[i].expr);
    hls_nl_assign(e->m, target, "%s", x.data);
    sb_free(&x);
}

/* Whether a unit before unit i has its predicate. */
static int pred_seen(const char *const *preds, int i)
{
    for (int j = 0; j < i; j++)
        if (preds[j] && !strcmp(preds[i], preds[j]))
            return 1;
    return 0;
}

/* A handshake's AND: `first`, and each unit's signal (its name and `suffix`, as
 * "_req_ready") where its predicate (preds[i], or NULL for always) is 1. Over one LUT's
 * inputs, the units of one predicate share an AND of their signals (a kept net named
 * <target>_if<k>), so the predicate is one input of the whole, as a loop body's 32
 * unrolled local loads are one predicate. */
static void emit_guarded_and(emitter *e, const char *target, const char *first,
                             const char *const *units, const char *const *preds, int n,
                             const char *suffix)
{
    and_term *t = arena_alloc(&e->c->arena, sizeof *t * (size_t)(2 * n + 1));
    and_term *same = t + n + 1;
    int nt = 0, shared = 0, inputs = 1 + n;
    for (int i = 0; i < n; i++)
        inputs += preds[i] && !pred_seen(preds, i);
    t[nt++] = (and_term){first, 1};
    for (int i = 0; i < n; i++) {
        const char *all = text(e, "%s%s", units[i], suffix);
        if (preds[i] && inputs > LUT_INPUTS) {
            if (pred_seen(preds, i))
                continue;
            int m = 0;
            for (int j = i; j < n; j++)
                if (preds[j] && !strcmp(preds[i], preds[j]))
                    same[m++] = (and_term){text(e, "%s%s", units[j], suffix), 1};
            if (m > 1) {
                all = bit_net(e, text(e, "the units asked when %s is 1", preds[i]),
                              text(e, "%s_if%d", target, shared++));
                hls_nl_keep(e->m, all);
                emit_and_tree(e, all, same, m);
            }
        }
        t[nt++] = preds[i] ? (and_term){text(e, "(~%s | %s)", preds[i], all), 2}
                           : (and_term){all, 1};
    }
    emit_and_tree(e, target, t, nt);
}

/* A memory node's requests: a work-item enters when every unit its predicates select
 * takes its request and the token FIFO has room, and then they all go out. */
static void emit_node_requests(emitter *e, const hls_region *r)
{
    char p[40];
    const char **units = arena_alloc(&e->c->arena, sizeof *units * (size_t)r->nops);
    const char **preds = arena_alloc(&e->c->arena, sizeof *preds * (size_t)r->nops);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &e->k->ops[r->ops[i]];
        char u[UNIT_NAME_SIZE];
        units[i] = text(e, "%s", unit_name(op, u));
        preds[i] = op->has_pred ? text(e, "%s", pred_in(e, op, p)) : NULL;
    }
    const char *room = bit_net(e, "the token FIFO has room", text(e, "r%d_tokens_ready", R));
    emit_guarded_and(e, text(e, "r%d_in_ready", R), room, units, preds, r->nops,
                     "_req_ready");
    const char *issue = bit_net(e, "the requests go out", text(e, "r%d_issue", R));
    hls_nl_assign(e->m, issue, "r%d_in_valid & r%d_in_ready", R, R);
    for (int i = 0; i < r->nops; i++)
        hls_nl_assign(e->m, text(e, "%s_req_valid", units[i]), "%s%s%s", issue,
                      preds[i] ? " & " : "", preds[i] ? preds[i] : "");
}

/* The terms of a memory node's join without unit `except` (an op index): the oldest
 * token is there and, for each other unit whose answer it waits for, that answer is. */
static void join_terms(emitter *e, const hls_region *r, int except, strbuf *x)
{
    char u[UNIT_NAME_SIZE], p[40];
    sb_printf(x, "r%d_w_valid", R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &e->k->ops[r->ops[i]];
        if (!hls_ir_waits_for_memory(op) || r->ops[i] == except)
            continue;
        unit_name(op, u);
        if (op->has_pred)
            sb_printf(x, "\n        & (~%s | %s_resp_valid)",
                      waiting(e, op->args[op->nargs - 1], p), u);
        else
            sb_printf(x, "\n        & %s_resp_valid", u);
    }
}

/* A memory node's answers: the oldest waiting token leaves when every answer it waits
 * for is there, taking them all. A unit's ready is the leave without the unit's own
 * answer (a unit takes it as delivered only with its valid): in a node of a few units
 * the answer's valid then never runs through the join back into the unit; a wider
 * node's units share the leave, one AND instead of one per unit. */
static void emit_node_answers(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    char u[UNIT_NAME_SIZE], p[40];
    strbuf x = {0};
    const char **units = arena_alloc(&e->c->arena, sizeof *units * (size_t)r->nops);
    const char **preds = arena_alloc(&e->c->arena, sizeof *preds * (size_t)r->nops);
    int answers = 0;
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        if (!hls_ir_waits_for_memory(op))
            continue;
        units[answers] = text(e, "%s", unit_name(op, u));
        preds[answers++] =
            op->has_pred ? text(e, "%s", waiting(e, op->args[op->nargs - 1], p)) : NULL;
    }
    emit_guarded_and(e, text(e, "r%d_out_valid", R), text(e, "r%d_w_valid", R), units, preds,
                     answers, "_resp_valid");
    hls_nl_assign(e->m, text(e, "r%d_leave", R), "r%d_out_valid & r%d_out_ready", R, R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        const char *ready = text(e, "%s_resp_ready", unit_name(op, u));
        if (!hls_ir_waits_for_memory(op)) {
            if (op->lmem >= 0) /* an acknowledgement nobody waits for */
                hls_nl_assign(e->m, ready, "1'b1");
            continue;
        }
        const char *amp = op->has_pred ? " & " : "";
        const char *pred = op->has_pred ? waiting(e, op->args[op->nargs - 1], p) : "";
        if (answers <= HLS_JOIN_UNITS) {
            join_terms(e, r, r->ops[i], &x);
            hls_nl_assign(e->m, ready, "%s\n        & r%d_out_ready%s%s", x.data, R, amp, pred);
            sb_free(&x);
        } else {
            hls_nl_assign(e->m, ready, "r%d_leave%s%s", R, amp, pred);
        }
    }
    for (int i = 0; i < r->nlive_out; i++) {
        int id = r->live_out[i];
        if (k->ops[id].region == r->id)
            hls_nl_assign(e->m, text(e, "r%d_out_v%d", R, id), "%s_rdata",
                          unit_name(&k->ops[id], u));
        else
            hls_nl_assign(e->m, text(e, "r%d_out_v%d", R, id), "r%d_w_v%d", R, id);
    }
    /* waiting for memory: the oldest token's answers, or a unit's room */
    hls_nl_assign(e->m, text(e, "r%d_stall_mem", R),
                  "(r%d_w_valid & ~r%d_out_valid)\n"
                  "        | (r%d_in_valid & r%d_tokens_ready & ~r%d_in_ready)",
                  R, R, R, R, R);
}

/* A memory node: its accesses' units, and the handshake that makes them one elastic
 * step. A work-item enters when every unit it uses (its predicate is 1) takes its
 * request and the token FIFO has room; all its requests go out in that cycle (a
 * unit's ready depends on the unit's registers only, so offering each request only
 * with every ready is safe). Its token waits in the FIFO in order; it leaves when
 * every answer it waits for is at its unit's output, taking them all at once. Each
 * unit answers in request order, so the answers at the units' heads are the oldest
 * token's. */
void hls_emit_memory_node(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    e->r = r;
    size_t most = (size_t)r->nlive_out + 2 * (size_t)r->nops + 1; /* node_carried's bound */
    int *carried = arena_alloc(&e->c->arena, sizeof *carried * most);
    int n = node_carried(k, r, carried);
    for (int i = 0; i < r->nops; i++)
        emit_node_access(e, &k->ops[r->ops[i]]);
    emit_node_requests(e, r);
    /* the waiting tokens */
    unsigned bits = hls_emit_token_bits(k, carried, n);
    bit_net(e, NULL, text(e, "r%d_w_valid", R));
    bit_net(e, NULL, text(e, "r%d_leave", R));
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_w_data", R));
    hls_emit_fifo(e, text(e, "r%d_wait", R), bits, r->exit_depth,
              (fifo_ports){.s_valid = text(e, "r%d_issue", R),
                           .s_ready = text(e, "r%d_tokens_ready", R),
                           .s_data = hls_emit_pack(e, carried, n, node_in_value),
                           .m_valid = text(e, "r%d_w_valid", R),
                           .m_ready = text(e, "r%d_leave", R), .m_data = data,
                           .count = text(e, "r%d_tokens", R)});
    const char *prefix = text(e, "r%d_w", R);
    hls_emit_declare_token(e, prefix, carried, n);
    hls_emit_unpack(e, prefix, data, carried, n);
    emit_node_answers(e, r);
}
