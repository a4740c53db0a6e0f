/* The region tree of a compute unit. Every region has a valid/ready input and output
 * carrying the work-item's token (the region's live values). A static region is a
 * pipeline of fixed latencies: a stall-free cluster whose input waits for room in its
 * exit FIFO, or, when short, stages that advance together (r<N>_en) while the exit
 * FIFO has room; the FIFO's registered ready keeps every stall inside its region. In
 * region N a value produced at stage p and read up to stage q is carried by registers
 * r<N>_v<id>_d1 .. _d(q-p); r<N>_v<id> is the value at its home stage (stage 0 for
 * values entering the region). A loop merges its entry and its back edge (back edge
 * first), admits a new work-item only while it has credits, runs the body's regions,
 * and splits at the end: back into the back-edge FIFO, or out through the exit FIFO.
 * A barrier region is a clhls_barrier unit (computing the work-group function, if
 * any). A memory node is emit_memory.c's, a static region's operators emit_ops.c's. */
#include <stdio.h>
#include <string.h>

#include "emit.h"

/* Stages of a folded region per stage of its simulation. Fewer registers to move make
 * a cycle shorter, and more operations of one work-item per stage make it a longer
 * chain of dependent ones, which the host runs one after the other (the polynomial of
 * 256 operations, seconds for 2M work-items: 3.6 unfolded, 3.0 in fours, 2.5 in
 * eights, 2.0 in 16s and 32s, 2.2 in 64s, 2.8 in one stage). */
#define FOLD_STAGES 16

/* Delays (stages after its home) at which the region reads value id. */
static int read_delays(const emitter *e, int id, int *out)
{
    const hls_region *r = e->r;
    const hls_sched *s = &r->sched;
    int home = home_stage(e, &e->k->ops[id]), n = 0;
    for (int i = 0; i <= r->nops; i++) {
        int stage = -1;
        if (i == r->nops) {
            stage = s->last_use[id]; /* the exit */
        } else {
            const hls_op *op = &e->k->ops[r->ops[i]];
            for (int a = 0; a < op->nargs; a++)
                if (op->args[a] == id)
                    stage = s->start[op->id];
            /* a lane also picks the register its iteration's next value goes to */
            int ready = op->opc == HOP_RECUR && op->nargs > 3 && op->args[3] == id
                            ? home_stage(e, &e->k->ops[op->args[1]]) : 0;
            if (ready - home > 0)
                out[n++] = ready - home;
        }
        if (stage - home > 0)
            out[n++] = stage - home;
    }
    return hls_emit_sort_unique(out, n);
}

/* A clhls_delay_taps' list of delays ({last, .., first}) for readers taps[t] stages
 * after `home`: those stages, or (sim) the stages of the simulation between them. */
static void delay_list(const emitter *e, strbuf *x, const int *taps, int n, int home, int sim)
{
    x->len = 0;
    for (int t = n - 1; t >= 0; t--)
        sb_printf(x, "%s32'd%d", t == n - 1 ? "{" : ", ",
                  sim ? sim_stage(e, home + taps[t]) - sim_stage(e, home) : taps[t]);
    sb_printf(x, "}");
}

/* Carries a value of the region from its home stage to each stage that reads it: a
 * delay line (one reader) or a delay line with a tap per reader (clhls_delay_taps),
 * r<R>_v<id>_d<delay> being the value that many stages after its home. The lines hold
 * the bits its readers use (the others read as zeros). */
static void emit_carry_registers(emitter *e, int id)
{
    const hls_op *op = &e->k->ops[id];
    if (hls_ir_is_invariant(op) || op->opc == HOP_STORE || e->r->sched.last_use[id] < 0)
        return;
    int *taps = arena_alloc(&e->c->arena, sizeof *taps * (2 * (size_t)e->r->nops + 1));
    int n = read_delays(e, id, taps), home = home_stage(e, op);
    if (!n)
        return;
    unsigned w = op->width, kept = hls_emit_live_width(op);
    const char *all = bus_net(e, (unsigned)n * kept, NULL, text(e, "r%d_v%d_taps", R, id));
    hls_nl_instance *u;
    if (n == 1) {
        u = instance(e, "clhls_delay", text(e, "r%d_c%d_%d", R, id, taps[0]), 0);
        hls_nl_param(u, "WIDTH", "%u", kept);
        hls_nl_param(u, "LATENCY", "%d", taps[0]);
        sim_latency(e, u, home, home + taps[0]);
    } else {
        strbuf delays = {0};
        delay_list(e, &delays, taps, n, home, 0);
        u = instance(e, "clhls_delay_taps", text(e, "r%d_c%d", R, id), 0);
        hls_nl_param(u, "WIDTH", "%u", kept);
        hls_nl_param(u, "TAPS", "%d", n);
        hls_nl_param(u, "DELAYS", "%s", delays.data);
        if (e->fold) {
            delay_list(e, &delays, taps, n, home, 1);
            hls_nl_param(u, "SIM_DELAYS", "%s", delays.data);
        }
        sb_free(&delays);
    }
    hls_nl_connect(u, HLS_NL_IN, "ce", "r%d_en", R);
    hls_nl_connect(u, HLS_NL_IN, "d", "r%d_v%d[%u:0]", R, id, kept - 1);
    hls_nl_connect(u, HLS_NL_OUT, "q", "%s", all);
    for (int t = 0; t < n; t++)
        hls_nl_assign(e->m, bus_net(e, w, NULL, text(e, "r%d_v%d_d%d", R, id, taps[t])), "%s",
                      hls_emit_zero_extend(e, w, kept,
                                           text(e, "%s[%u +: %u]", all, (unsigned)t * kept, kept)));
}

/* 1 when value id enters and leaves the region, which never reads it. */
static int passes_through(const emitter *e, int id)
{
    const hls_region *r = e->r;
    if (e->k->ops[id].region == r->id)
        return 0;
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &e->k->ops[r->ops[i]];
        for (int a = 0; a < op->nargs; a++)
            if (op->args[a] == id)
                return 0;
    }
    for (int i = 0; i < r->nlive_out; i++)
        if (r->live_out[i] == id)
            return 1;
    return 0;
}

static const char *value_at_end(emitter *e, int id, char *buf)
{
    if (passes_through(e, id) && e->r->sched.depth > 0) {
        sprintf(buf, "r%d_side_v%d", e->r->id, id);
        return buf;
    }
    return hls_emit_ref(e, buf, &e->k->ops[id], e->r->sched.depth);
}

/* Value-name callback for hls_emit_pack(): a region's input. */
static const char *in_value(emitter *e, int id, char *buf)
{
    sprintf(buf, "r%d_in_v%d", e->r->id, id);
    return buf;
}

/* Values that only pass through a region ride a FIFO beside its pipeline (the
 * pipeline keeps work-items in order): a RAM instead of a register per stage. */
static void emit_side_fifo(emitter *e, const hls_region *r)
{
    int *side = arena_alloc(&e->c->arena, sizeof *side * ((size_t)r->nlive_in + 1)), n = 0;
    for (int i = 0; i < r->nlive_in; i++)
        if (passes_through(e, r->live_in[i]))
            side[n++] = r->live_in[i];
    if (!n || !r->sched.depth)
        return;
    const char *prefix = text(e, "r%d_side", R);
    hls_emit_declare_token(e, prefix, side, n);
    unsigned bits = hls_emit_token_bits(e->k, side, n);
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_side_data", R));
    hls_emit_fifo(e, prefix, bits, r->sched.depth + 2,
              (fifo_ports){.s_valid = text(e, "r%d_in_valid & r%d_in_ready", R, R),
                           .s_data = hls_emit_pack(e, side, n, in_value),
                           .m_ready = text(e, "r%d_valid_s[%d] & r%d_en", R, r->sched.depth, R),
                           .m_data = data});
    hls_emit_unpack(e, prefix, data, side, n);
}

/* The stage registers of a static region: which stages hold a work-item, and the
 * values entering it (but those that ride the side FIFO). */
static void emit_stage_registers(emitter *e, const hls_region *r)
{
    int d = r->sched.depth;
    const char *valid = bus_reg(e, (unsigned)d + 1, "stage s holds a work-item",
                                text(e, "r%d_valid_s", R));
    const char *enter = text(e, "r%d_in_valid & r%d_in_ready", R, R);
    block(e, valid, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                            "    else if (r%d_en) %s <= %s;", valid, R, valid,
                         d ? text(e, "{%s[%d:0], %s}", valid, d - 1, enter) : enter));
    for (int i = 0; i < r->nlive_in; i++) {
        int id = r->live_in[i];
        if (d && passes_through(e, id))
            continue;
        const char *v = bus_reg(e, e->k->ops[id].width, NULL, text(e, "r%d_v%d", R, id));
        block(e, v, text(e, "always @(posedge clk) if (r%d_en) %s <= r%d_in_v%d;", R, v, R, id));
    }
}

/* Whether static region r is simulated folded: with CLHLS_SIM_MODELS, every
 * FOLD_STAGES of its stages are one (the SIM_LATENCY parameters of its operators and
 * carried values count stages of the simulation), and the values it computes leave
 * through one delay of the stages folded away; the hardware is the same either way.
 * Every register of such a region moves on its enable alone, so what leaves it, and
 * when, is the same as the pipeline's. A region of one stage gains nothing (vector
 * add: 40 host instructions a cycle more folded); a __constant table's read is a
 * register of its own, so a region with one stays a pipeline in simulation too. */
static int folded_region(const emitter *e, const hls_region *r)
{
    if (r->sched.depth < 2)
        return 0;
    for (int i = 0; i < r->nops; i++) {
        hls_opcode opc = e->k->ops[r->ops[i]].opc;
        if (opc == HOP_LOAD || opc == HOP_RECUR || opc == HOP_ALIVE)
            return 0; /* a register read or written at a stage of its own */
    }
    return 1;
}

/* Value-name callback for hls_emit_pack(): a value leaving a folded region, after the stages
 * folded away (r<N>_end_v<id>), or beside the pipeline. */
static const char *folded_value_at_end(emitter *e, int id, char *buf)
{
    if (passes_through(e, id))
        return value_at_end(e, id, buf);
    sprintf(buf, "r%d_end_v%d", e->r->id, id);
    return buf;
}

/* The exit data of a folded region: the values it computes or carries, through a
 * delay of LATENCY 0 and SIM_LATENCY the stages folded away, named r<N>_end_v<id>. */
static const char *folded_exit_data(emitter *e, const hls_region *r)
{
    int *computed = arena_alloc(&e->c->arena, sizeof *computed * ((size_t)r->nlive_out + 1)),
        n = 0;
    for (int i = 0; i < r->nlive_out; i++)
        if (!passes_through(e, r->live_out[i]))
            computed[n++] = r->live_out[i];
    if (n) {
        const char *prefix = text(e, "r%d_end", R);
        hls_emit_declare_token(e, prefix, computed, n);
        unsigned bits = hls_emit_token_bits(e->k, computed, n);
        hls_nl_instance *u = instance(e, "clhls_delay", text(e, "r%d_unfold", R), 0);
        hls_nl_param(u, "WIDTH", "%u", bits);
        hls_nl_param(u, "LATENCY", "0");
        hls_nl_param(u, "SIM_LATENCY", "%d", r->sched.depth - sim_stage(e, r->sched.depth));
        hls_nl_connect(u, HLS_NL_IN, "ce", "r%d_en", R);
        hls_nl_connect(u, HLS_NL_IN, "d", "%s", hls_emit_pack(e, computed, n, value_at_end));
        const char *q = bus_net(e, bits, "the region's values at its end (folded in simulation)",
                                text(e, "r%d_end_data", R));
        hls_nl_connect(u, HLS_NL_OUT, "q", "%s", q);
        hls_emit_unpack(e, prefix, q, computed, n);
    }
    return hls_emit_pack(e, r->live_out, r->nlive_out, folded_value_at_end);
}

/* A static region (fixed latencies only: memory accesses are in memory nodes). Stall
 * enable: every stage advances together while r<N>_en, which drops when the 2-entry
 * exit FIFO is full. Stall-free cluster (schedule.c decides): the stages always
 * advance; a counter of the work-items inside (stages and exit FIFO) admits a new one
 * only while the exit FIFO will have room for it. */
static void emit_static(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    e->r = r;
    e->fold = folded_region(e, r) ? FOLD_STAGES : 0;
    int d = r->sched.depth;
    const char *en = bit_net(e, NULL, text(e, "r%d_en", R));
    const char *fifo_ready = bit_net(e, NULL, text(e, "r%d_fifo_ready", R));
    emit_stage_registers(e, r);
    emit_side_fifo(e, r);
    for (int i = 0; i < r->nops; i++)
        hls_emit_op(e, &k->ops[r->ops[i]]);
    for (int i = 0; i < r->nlive_in; i++)
        if (!d || !passes_through(e, r->live_in[i]))
            emit_carry_registers(e, r->live_in[i]);
    for (int i = 0; i < r->nops; i++)
        emit_carry_registers(e, r->ops[i]);
    if (r->stall_free) {
        unsigned cw = count_bits(r->exit_depth);
        const char *inside = bus_reg(e, cw, "work-items in the stages and the exit FIFO",
                                     text(e, "r%d_inside", R));
        hls_nl_assign(e->m, en, "1'b1");
        /* with recurrences, a work-item enters II stages after the one before */
        hls_nl_assign(e->m, text(e, "r%d_in_ready", R), "%s < %u'd%d%s", inside, cw, r->exit_depth,
                      r->ii > 1 ? text(e, " && ~|r%d_valid_s[%d:0]", R, r->ii - 2) : "");
        block(e, inside, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                                 "    else %s <= %s + {%u'd0, r%d_in_valid & r%d_in_ready}\n"
                                 "                     - {%u'd0, r%d_out_valid & r%d_out_ready};",
                              inside, inside, inside, cw - 1, R, R, cw - 1, R, R));
    } else {
        if (r->ii > 1)
            HLS_BUG("region %d of %d stages has an II of %d", R, d + 1, r->ii);
        hls_nl_assign(e->m, text(e, "r%d_in_ready", R), "%s", en);
        hls_nl_assign(e->m, en, "~(r%d_valid_s[%d] & ~%s)", R, d, fifo_ready);
    }
    unsigned bits = hls_emit_token_bits(k, r->live_out, r->nlive_out);
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_out_data", R));
    hls_emit_fifo(e, text(e, "r%d_exit", R), bits, r->exit_depth,
              (fifo_ports){.s_valid = text(e, "r%d_valid_s[%d] & %s", R, d, en),
                           .s_ready = fifo_ready,
                           .s_data = e->fold ? folded_exit_data(e, r)
                                             : hls_emit_pack(e, r->live_out, r->nlive_out,
                                                             value_at_end),
                           .m_valid = text(e, "r%d_out_valid", R),
                           .m_ready = text(e, "r%d_out_ready", R), .m_data = data});
    hls_emit_unpack(e, text(e, "r%d_out", R), data, r->live_out, r->nlive_out);
    e->fold = 0;
}

static int phi_index(const hls_region *r, int id)
{
    for (int p = 0; p < r->nphis; p++)
        if (r->phis[p] == id)
            return p;
    return -1;
}

/* Value-name callbacks for hls_emit_pack(): the outputs of e->loop's last child (for a header
 * phi on the back edge, the phi's latch value). */
static const char *back_value(emitter *e, int id, char *buf)
{
    const hls_region *r = e->loop;
    const hls_region *last = &e->k->regions[r->children[r->nchildren - 1]];
    int p = phi_index(r, id);
    int v = p >= 0 ? e->k->ops[id].in_vals[1] : id;
    return hls_emit_port_value(e->k, buf, last->id, "out", v);
}

static const char *last_out_value(emitter *e, int id, char *buf)
{
    const hls_region *r = e->loop;
    return hls_emit_port_value(e->k, buf, r->children[r->nchildren - 1], "out", id);
}

/* A loop's count of the work-items inside: taken (`take`: entered, or issued by a
 * pipelined loop's generator), not yet out through its exit; and whether it is 0, a
 * flag of its own (the body's emptiness is an AND of such flags, no compares). */
static void emit_work_items_inside(emitter *e, const hls_region *r, const char *take)
{
    const char *count = text(e, "r%d_count", r->id);
    const char *none = text(e, "r%d_none_inside", r->id);
    unsigned bits = count_bits(r->credits), pad = bits - 1;
    block(e, count, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                            "    else %s <= %s + {%u'd0, %s} - {%u'd0, r%d_exit_push};",
                         count, count, count, pad, take, pad, r->id));
    block(e, none, text(e, "always @(posedge clk)\n    if (rst) %s <= 1'b1;\n"
                           "    else if ((%s) & ~r%d_exit_push) %s <= 1'b0;\n"
                           "    else if (~(%s) & r%d_exit_push) %s <= %s == %u'd1;",
                        none, take, r->id, none, take, r->id, none, count, bits));
}

/* A loop's merge: the back edge first, entries while credits last. Whether a credit
 * is left is a flag that follows the count (as r<N>_none_inside does), so the loop's
 * input ready, which runs back through the regions before it into their units, starts
 * at a register instead of a compare of the count. */
static void emit_loop_merge(emitter *e, const hls_region *r, const hls_region *first)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    char a[48];
    const char *take = text(e, "r%d_in_valid & r%d_in_ready & ~r%d_back_valid", n, n, n);
    const char *credit = bit_reg(e, "a credit is left: fewer work-items inside than credits",
                                 text(e, "r%d_credit", n));
    block(e, credit, text(e, "always @(posedge clk)\n    if (rst) %s <= 1'b1;\n"
                             "    else if ((%s) & ~r%d_exit_push) %s <= r%d_count != %u'd%d;\n"
                             "    else if (~(%s) & r%d_exit_push) %s <= 1'b1;",
                          credit, take, n, credit, n, count_bits(r->credits), r->credits - 1,
                          take, n, credit));
    const char *ok = bit_net(e, NULL, text(e, "r%d_entry_ok", n));
    hls_nl_assign(e->m, ok, "%s && !r%d_back_valid", credit, n);
    hls_nl_assign(e->m, text(e, "r%d_in_ready", n), "%s & r%d_in_ready", ok, first->id);
    hls_nl_assign(e->m, text(e, "r%d_in_valid", first->id),
                  "r%d_back_valid | (r%d_in_valid & %s)", n, n, ok);
    for (int i = 0; i < first->nlive_in; i++) {
        int id = first->live_in[i];
        int p = phi_index(r, id);
        hls_nl_assign(e->m, text(e, "r%d_in_v%d", first->id, id),
                      "r%d_back_valid ? r%d_back_v%d : %s", n, n, id,
                      hls_emit_port_value(k, a, n, "in", p >= 0 ? k->ops[id].in_vals[0] : id));
    }
    emit_work_items_inside(e, r, take);
}

/* A loop's exit: the last child's work-items that do not go on (cont is 0) leave
 * through the exit FIFO with the loop's results (e->loop is r). */
static void emit_loop_exit(emitter *e, const hls_region *r, const hls_region *last,
                           const char *cont)
{
    int n = r->id;
    hls_nl_assign(e->m, text(e, "r%d_exit_push", n), "r%d_out_valid & ~%s & r%d_exit_ready",
                  last->id, cont, n);
    unsigned bits = hls_emit_token_bits(e->k, r->live_out, r->nlive_out);
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_exit_data", n));
    hls_emit_fifo(e, text(e, "r%d_exit", n), bits, 2,
              (fifo_ports){.s_valid = text(e, "r%d_out_valid & ~%s", last->id, cont),
                           .s_ready = text(e, "r%d_exit_ready", n),
                           .s_data = hls_emit_pack(e, r->live_out, r->nlive_out, last_out_value),
                           .m_valid = text(e, "r%d_out_valid", n),
                           .m_ready = text(e, "r%d_out_ready", n), .m_data = data});
    hls_emit_unpack(e, text(e, "r%d_out", n), data, r->live_out, r->nlive_out);
}

/* A loop's split: the last child's work-items go round through the back-edge FIFO
 * while the loop continues, else out through the exit FIFO. */
static void emit_loop_split(emitter *e, const hls_region *r, const hls_region *first,
                            const hls_region *last)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    char b[48];
    const char *cont = bit_net(e, NULL, text(e, "r%d_cont", n));
    hls_nl_assign(e->m, cont, "%s", hls_emit_port_value(k, b, last->id, "out", r->cont));
    hls_nl_assign(e->m, text(e, "r%d_out_ready", last->id), "%s ? r%d_back_ready : r%d_exit_ready",
                  cont, n, n);
    const char *back = text(e, "r%d_back", n);
    hls_emit_declare_token(e, back, first->live_in, first->nlive_in);
    unsigned bits = hls_emit_token_bits(k, first->live_in, first->nlive_in);
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_back_data", n));
    e->loop = r;
    hls_emit_fifo(e, back, bits, r->back_depth,
              (fifo_ports){.s_valid = text(e, "r%d_out_valid & %s", last->id, cont),
                           .s_ready = text(e, "r%d_back_ready", n),
                           .s_data = hls_emit_pack(e, first->live_in, first->nlive_in, back_value),
                           .m_valid = text(e, "r%d_back_valid", n),
                           .m_ready = text(e, "r%d_in_ready", first->id), .m_data = data});
    hls_emit_unpack(e, back, data, first->live_in, first->nlive_in);
    emit_loop_exit(e, r, last, cont);
}

/* What holds an iteration back from region `to` of loop r: a pipelined loop's window
 * (one iteration at a time between accesses that may meet an earlier iteration's)
 * while an iteration is in it; "" when nothing does. */
static const char *window_gate(emitter *e, const hls_region *r, int to)
{
    return r->kind == HLS_REGION_LOOP && r->pipelined && r->window && to == r->window_first
               ? text(e, " & ~r%d_window", r->id)
               : "";
}

/* A pipelined loop's window: set when an iteration enters its first region, cleared
 * when it leaves the last (acknowledged stores answered). */
static void emit_window(emitter *e, const hls_region *r)
{
    const char *busy = bus_reg(e, 1, "an iteration is between accesses that may meet an "
                                     "earlier iteration's", text(e, "r%d_window", r->id));
    block(e, busy, text(e, "always @(posedge clk)\n    if (rst) %s <= 1'b0;\n"
                           "    else if (r%d_in_valid & r%d_in_ready) %s <= 1'b1;\n"
                           "    else if (r%d_out_valid & r%d_out_ready) %s <= 1'b0;",
                        busy, r->window_first, r->window_first, busy, r->window_last,
                        r->window_last, busy));
}

/* A counted loop's last iteration, told as the generator issues it (r<N>_last): its
 * exit test on the generator's copy of the induction variable (r<N>_iv: the next
 * iteration's value, after the first's) and the work-item's values as issued. */
static const char *emit_count(emitter *e, const hls_region *r, const hls_region *first,
                              const char *issue)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    const hls_op *iv = &k->ops[r->count_iv], *test = &k->ops[r->count_test];
    const hls_op *next = &k->ops[iv->args[1]];
    char a[48];
    const char *held = bus_reg(e, iv->width, "the induction variable of the next iteration",
                               text(e, "r%d_iv", n));
    const char *now = bus_net(e, iv->width, "the induction variable of the iteration issued",
                              text(e, "r%d_iv_now", n));
    const char *after = bus_net(e, iv->width, "its next value", text(e, "r%d_iv_next", n));
    hls_nl_assign(e->m, now, "r%d_busy ? %s : %s", n, held,
                  hls_emit_port_value(k, a, first->id, "in", iv->args[0]));
    hls_nl_assign(e->m, after, "%s + %s", now, hls_emit_port_value(k, a, first->id, "in",
                                                                     next->args[1]));
    block(e, held, text(e, "always @(posedge clk) if (%s) %s <= %s;", issue, held, after));
    const char *side[2];
    for (int i = 0; i < 2; i++)
        side[i] = test->args[i] == iv->id ? now : test->args[i] == next->id ? after
                  : text(e, "%s", hls_emit_port_value(k, a, first->id, "in", test->args[i]));
    const char *last = bit_net(e, "the iteration issued is the work-item's last",
                               text(e, "r%d_last", n));
    hls_nl_assign(e->m, last, "~(%s & (%s(%s)))",
                  hls_emit_port_value(k, a, first->id, "in", r->phis[0]),
                  r->exit_test == r->count_test ? "" : "~",
                  text(e, hls_emit_icmp_expr(test->imm), side[0], side[1]));
    return last;
}

/* A pipelined loop's generator: a work-item enters with its first iteration (the
 * first region taking it), and the generator issues the others until the last: until
 * the exit test says so (r<N>_stop), or, in a counted loop, as it issues the last. */
static void emit_iteration_generator(emitter *e, const hls_region *r, const hls_region *first)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    char a[48], b[48];
    const char *busy = bus_reg(e, 1, "issuing a work-item's iterations", text(e, "r%d_busy", n));
    const char *take = bit_net(e, NULL, text(e, "r%d_take", n));
    const char *issue = text(e, "r%d_in_valid & r%d_in_ready", first->id, first->id);
    const char *occupied = busy, *bound = "";
    /* a bound of at least the body's capacity (credits) bounds nothing */
    int bounded = r->max_in_flight && r->max_in_flight < r->credits;
    if (r->speculative || bounded) {
        unsigned w = count_bits(r->credits); /* the body holds at most credits iterations */
        const char *flight = bus_reg(e, w, "iterations issued and not yet at the end",
                                     text(e, "r%d_flight", n));
        block(e, flight, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                                 "    else %s <= %s + {%u'd0, %s}"
                                 " - {%u'd0, r%d_out_valid & r%d_out_ready};",
                              flight, flight, flight, w - 1, issue, w - 1,
                              r->children[r->nchildren - 1], r->children[r->nchildren - 1]));
        if (r->speculative) /* a work-item enters when no iteration is in flight */
            occupied = text(e, "(%s | (|%s))", busy, flight);
        if (bounded) /* safelen(N), max_concurrency N: at most N in flight */
            bound = text(e, " & (%s < %u'd%d)", flight, w, r->max_in_flight);
    }
    const char *gates = text(e, "%s%s", window_gate(e, r, first->id), bound);
    hls_nl_assign(e->m, text(e, "r%d_in_ready", n), "~%s & r%d_in_ready%s", occupied, first->id,
                  gates);
    hls_nl_assign(e->m, take, "r%d_in_valid & r%d_in_ready", n, n);
    hls_nl_assign(e->m, text(e, "r%d_in_valid", first->id), "(%s | (r%d_in_valid & ~%s))%s",
                  busy, n, occupied, gates);
    for (int i = 0; i < first->nlive_in; i++) {
        int id = first->live_in[i];
        const char *in = text(e, "r%d_in_v%d", first->id, id);
        if (phi_index(r, id) >= 0) { /* the loop's own: as it enters, then its back-edge constant */
            hls_nl_assign(e->m, in, "%s ? %s : %s", busy,
                          hls_emit_port_value(k, b, n, "in", k->ops[id].in_vals[1]),
                          hls_emit_port_value(k, a, n, "in", k->ops[id].in_vals[0]));
            continue;
        }
        const char *held = bus_reg(e, k->ops[id].width, NULL, text(e, "r%d_h_v%d", n, id));
        const char *value = hls_emit_port_value(k, a, n, "in", id);
        block(e, held, text(e, "always @(posedge clk) if (%s) %s <= %s;", take, held, value));
        hls_nl_assign(e->m, in, "%s ? %s : %s", busy, held, value);
    }
    const char *done = r->count_test >= 0
                           ? text(e, "(%s & %s)", issue, emit_count(e, r, first, issue))
                           : text(e, "r%d_stop", n);
    block(e, busy, text(e, "always @(posedge clk)\n    if (rst) %s <= 1'b0;\n"
                           "    else %s <= (%s | %s) & ~%s;", busy, busy, busy, take, done));
    emit_work_items_inside(e, r, take);
}

/* A pipelined loop's generator when work-items take turns (r->lanes): each lane holds
 * a work-item and the lanes issue an iteration each in turn. A free lane's turn takes
 * the next work-item, issuing its first iteration; with none waiting, it issues a dead
 * iteration while any lane holds one, so that one work-item's iterations stay a round
 * apart. An alive iteration that leaves frees its lane (r<N>_stop_lane). */
static void emit_lane_generator(emitter *e, const hls_region *r, const hls_region *first)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    unsigned bits = count_bits(r->lanes - 1), entries = 1u << bits;
    char a[48], b[48];
    const char *turn = bus_reg(e, bits, "the lane whose iteration is issued next",
                               text(e, "r%d_turn", n));
    const char *busy = bus_reg(e, entries, "per lane: it holds a work-item",
                               text(e, "r%d_busy", n));
    const char *take = bit_net(e, NULL, text(e, "r%d_take", n));
    hls_nl_assign(e->m, text(e, "r%d_in_ready", n), "~%s[%s] & r%d_in_ready", busy, turn,
                  first->id);
    hls_nl_assign(e->m, take, "r%d_in_valid & ~%s[%s] & r%d_in_ready", n, busy, turn, first->id);
    hls_nl_assign(e->m, text(e, "r%d_in_valid", first->id), "(|%s) | r%d_in_valid", busy, n);
    block(e, turn, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                           "    else if (r%d_in_valid & r%d_in_ready)\n"
                           "        %s <= %s == %u'd%d ? 0 : %s + 1;",
                        turn, first->id, first->id, turn, turn, bits, r->lanes - 1, turn));
    block(e, busy, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                           "    else %s <= (%s | ({%u'd0, %s} << %s))\n"
                           "        & ~({%u'd0, r%d_stop} << r%d_stop_lane);",
                        busy, busy, busy, entries - 1, take, turn, entries - 1, n, n));
    for (int i = 0; i < first->nlive_in; i++) {
        int id = first->live_in[i];
        int p = phi_index(r, id);
        const char *in = text(e, "r%d_in_v%d", first->id, id);
        if (id == r->lane) {
            hls_nl_assign(e->m, in, "{%u'd0, %s}", HLS_LANE_BITS - bits, turn);
        } else if (p >= 0) { /* a loop's own value: as it enters, then its back-edge constant */
            hls_nl_assign(e->m, in, "%s ? %s : %s", take,
                          hls_emit_port_value(k, a, n, "in", k->ops[id].in_vals[0]),
                          hls_emit_port_value(k, b, n, "in", k->ops[id].in_vals[1]));
        } else { /* the work-item's value: as it enters, then held in its lane */
            const char *held = text(e, "r%d_h_v%d", n, id);
            hls_nl_reg_array(e->m, held, k->ops[id].width, entries, NULL);
            const char *value = hls_emit_port_value(k, a, n, "in", id);
            block(e, held, text(e, "always @(posedge clk) if (%s) %s[%s] <= %s;", take, held,
                                turn, value));
            hls_nl_assign(e->m, in, "%s[%s] ? %s[%s] : %s", busy, turn, held, turn, value);
        }
    }
    emit_work_items_inside(e, r, take);
}

/* A pipelined loop's end: the iteration that leaves goes out through the exit FIFO,
 * the others (and those issued past the exit) are dropped. */
static void emit_iteration_end(emitter *e, const hls_region *r, const hls_region *last)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    char b[48];
    const char *cont = bit_net(e, "the iteration does not leave", text(e, "r%d_cont", n));
    hls_nl_assign(e->m, cont, "%s", hls_emit_port_value(k, b, last->id, "out", r->cont));
    hls_nl_assign(e->m, text(e, "r%d_out_ready", last->id), "%s | r%d_exit_ready", cont, n);
    e->loop = r;
    emit_loop_exit(e, r, last, cont);
}

/* A loop: merge (back edge first, entries while credits last), body, split; or,
 * pipelined, a generator of iterations, the body, and an end that keeps the exit. */
static void emit_loop(emitter *e, const hls_region *r)
{
    const hls_region *first = &e->k->regions[r->children[0]];
    const hls_region *last = &e->k->regions[r->children[r->nchildren - 1]];
    bit_net(e, NULL, text(e, "r%d_exit_ready", r->id));
    if (r->pipelined) {
        (r->lanes > 1 ? emit_lane_generator : emit_iteration_generator)(e, r, first);
        emit_iteration_end(e, r, last);
        if (r->window)
            emit_window(e, r);
        for (int c = 0; c < r->nchildren; c++)
            hls_emit_region(e, r->children[c]);
        if (r->count_test >= 0 && r->lanes <= 1) /* the generator counts instead */
            hls_nl_unused(e->m, text(e, "r%d_stop", r->id));
        return;
    }
    bit_net(e, NULL, text(e, "r%d_back_valid", r->id));
    bit_net(e, NULL, text(e, "r%d_back_ready", r->id));
    emit_loop_merge(e, r, first);
    emit_loop_split(e, r, first, last);
    for (int c = 0; c < r->nchildren; c++)
        hls_emit_region(e, r->children[c]);
}

/* Bits of a local linear id in a barrier unit (a group has at most 2^bits items). */
unsigned hls_emit_lid_bits(const hls_kernel *k)
{
    unsigned bits = 1;
    while ((1u << bits) < k->max_wg)
        bits++;
    return bits;
}

/* A barrier unit: every work-item's token waits in the entry of its work-group slot
 * and local id until the whole group is there, then the group leaves in local-id
 * order. */
static void emit_barrier(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    const hls_op *b = &k->ops[r->ops[0]];
    const hls_op *coll = r->nops > 1 ? &k->ops[r->ops[1]] : NULL;
    /* the token carried through: what lives on, but the function's result */
    int *carried = arena_alloc(&e->c->arena, sizeof *carried * ((size_t)r->nlive_out + 1)),
        n = 0;
    for (int i = 0; i < r->nlive_out; i++)
        if (!coll || r->live_out[i] != coll->id)
            carried[n++] = r->live_out[i];
    unsigned lw = hls_emit_lid_bits(k), bits = hls_emit_token_bits(k, carried, n);
    unsigned vw = coll ? coll->width : 1;
    char value[40] = "", chosen[48];
    snprintf(chosen, sizeof chosen, "%u'd0", lw); /* only a broadcast chooses */
    if (coll) {
        hls_emit_port_value(k, value, R, "in", coll->args[0]);
        if (coll->nargs > 1) {
            hls_emit_port_value(k, chosen, R, "in", coll->args[1]);
            snprintf(chosen + strlen(chosen), sizeof chosen - strlen(chosen), "[%u:0]", lw - 1);
        }
    }
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_out_data", R));
    const char *result = coll ? bus_net(e, vw, NULL, text(e, "r%d_result", R)) : "";
    hls_nl_instance *u = instance(e, "clhls_barrier", text(e, "r%d_unit", R), 1);
    hls_nl_param(u, "W", "%u", bits);
    hls_nl_param(u, "SLOTS", "%d", HLS_WG_SLOTS);
    hls_nl_param(u, "SLOT_W", "%d", HLS_SLOT_BITS);
    hls_nl_param(u, "LID_W", "%u", lw);
    if (coll) { /* the work-group function the unit computes */
        hls_nl_param(u, "OP", "%d", HLS_COLL_KIND(coll->imm));
        hls_nl_param(u, "FUNC", "%d", HLS_COLL_FUNC(coll->imm));
        hls_nl_param(u, "TYPE", "%d", HLS_COLL_TYPE(coll->imm));
        hls_nl_param(u, "VW", "%u", vw);
    }
    hls_nl_connect(u, HLS_NL_IN, "s_valid", "r%d_in_valid", R);
    hls_nl_connect(u, HLS_NL_OUT, "s_ready", "r%d_in_ready", R);
    hls_nl_connect(u, HLS_NL_IN, "s_slot", "r%d_in_v%d", R, b->args[0]);
    hls_nl_connect(u, HLS_NL_IN, "s_lid", "r%d_in_v%d[%u:0]", R, b->args[1], lw - 1);
    char size[40]; /* a constant when the kernel's groups are all one size */
    hls_emit_port_value(k, size, R, "in", b->args[2]);
    hls_nl_connect(u, HLS_NL_IN, "s_size", "%s[%u:0]", size, lw);
    hls_nl_connect(u, HLS_NL_IN, "s_value", "%s", coll ? value : "1'b0"); /* plain: none */
    hls_nl_connect(u, HLS_NL_IN, "s_chosen", "%s", chosen);
    hls_nl_connect(u, HLS_NL_OUT, "m_result", "%s", result);
    hls_nl_connect(u, HLS_NL_IN, "s_data", "%s", hls_emit_pack(e, carried, n, in_value));
    hls_nl_connect(u, HLS_NL_OUT, "m_valid", "r%d_out_valid", R);
    hls_nl_connect(u, HLS_NL_IN, "m_ready", "r%d_out_ready", R);
    hls_nl_connect(u, HLS_NL_OUT, "m_data", "%s", data);
    hls_nl_connect(u, HLS_NL_OUT, "held", "r%d_held", R);
    hls_nl_connect(u, HLS_NL_OUT, "empty", "r%d_none_held", R);
    hls_nl_connect(u, HLS_NL_OUT, "waiting", "r%d_waiting", R);
    hls_nl_connect(u, HLS_NL_OUT, "still", "%s",
                   bit_net(e, "its next edge changes nothing", text(e, "r%d_still", R)));
    hls_emit_unpack(e, text(e, "r%d_out", R), data, carried, n);
    if (coll && n < r->nlive_out)
        hls_nl_assign(e->m, text(e, "r%d_out_v%d", R, coll->id), "%s", result);
}

/* Joins the children of a sequence: each one's output feeds the next one's input. */
static void connect_children(emitter *e, const hls_region *r)
{
    for (int c = 1; c < r->nchildren; c++) {
        const hls_region *from = &e->k->regions[r->children[c - 1]];
        const hls_region *to = &e->k->regions[r->children[c]];
        const char *gate = window_gate(e, r, to->id);
        hls_nl_assign(e->m, text(e, "r%d_in_valid", to->id), "r%d_out_valid%s", from->id, gate);
        hls_nl_assign(e->m, text(e, "r%d_out_ready", from->id), "r%d_in_ready%s", to->id, gate);
        for (int i = 0; i < to->nlive_in; i++)
            hls_nl_assign(e->m, text(e, "r%d_in_v%d", to->id, to->live_in[i]), "r%d_out_v%d",
                          from->id, to->live_in[i]);
    }
}

void hls_emit_region(emitter *e, int id)
{
    const hls_region *r = &e->k->regions[id];
    if (r->kind == HLS_REGION_STATIC) {
        emit_static(e, r);
        return;
    }
    if (r->kind == HLS_REGION_BARRIER) {
        e->r = r;
        emit_barrier(e, r);
        return;
    }
    if (r->kind == HLS_REGION_MEMORY) {
        hls_emit_memory_node(e, r);
        return;
    }
    if (r->kind == HLS_REGION_LOOP)
        emit_loop(e, r);
    else
        for (int c = 0; c < r->nchildren; c++)
            hls_emit_region(e, r->children[c]);
    connect_children(e, r);
}

/* What region r is, for the comment on its input handshake (NULL for a sequence). */
static const char *region_summary(emitter *e, const hls_region *r)
{
    switch (r->kind) {
    case HLS_REGION_STATIC:
        return text(e, "region %d: static, %d stages%s", r->id, r->sched.depth + 1,
                    r->stall_free ? ", stall-free" : "");
    case HLS_REGION_MEMORY:
        return text(e, "region %d: memory node, %d access%s", r->id, r->nops,
                    r->nops == 1 ? "" : "es");
    case HLS_REGION_LOOP: {
        const hls_loop *l = &e->k->loops[r->loop];
        return text(e, "region %d: loop at %s:%u, latency %d, %d credits", r->id,
                    l->loc.file ? l->loc.file : "?", l->loc.line, r->latency, r->credits);
    }
    case HLS_REGION_BARRIER:
        return text(e, "region %d: barrier, line %u", r->id, e->k->ops[r->ops[0]].loc.line);
    default:
        return NULL;
    }
}

/* Handshake and token nets of every region. */
void hls_emit_declare_regions(emitter *e)
{
    for (int i = 1; i < e->k->nregions; i++) {
        const hls_region *r = &e->k->regions[i];
        bit_net(e, region_summary(e, r), text(e, "r%d_in_valid", i));
        bit_net(e, NULL, text(e, "r%d_in_ready", i));
        bit_net(e, NULL, text(e, "r%d_out_valid", i));
        bit_net(e, NULL, text(e, "r%d_out_ready", i));
        if (r->kind == HLS_REGION_LOOP) {
            bus_reg(e, count_bits(r->credits), "work-items inside the loop",
                    text(e, "r%d_count", i));
            bit_reg(e, "no work-item inside the loop", text(e, "r%d_none_inside", i));
            bit_net(e, "a work-item leaves the loop", text(e, "r%d_exit_push", i));
        }
        if (r->kind == HLS_REGION_BARRIER) {
            bus_net(e, hls_emit_lid_bits(e->k) + HLS_SLOT_BITS + 1,
                    "work-items waiting in the barrier", text(e, "r%d_held", i));
            bit_net(e, "none waits in the barrier", text(e, "r%d_none_held", i));
            bit_net(e, "a group is incomplete", text(e, "r%d_waiting", i));
        }
        if (r->kind == HLS_REGION_MEMORY) {
            bus_net(e, count_bits(r->exit_depth), "work-items waiting for memory",
                    text(e, "r%d_tokens", i));
            bit_net(e, "it waits for memory", text(e, "r%d_stall_mem", i));
        }
        hls_emit_declare_token(e, text(e, "r%d_in", i), r->live_in, r->nlive_in);
        hls_emit_declare_token(e, text(e, "r%d_out", i), r->live_out, r->nlive_out);
    }
}
