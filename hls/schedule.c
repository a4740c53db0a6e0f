/* Scheduling: each static region becomes a pipeline. Every operation gets the stage
 * where it reads its operands (as soon as they exist) and its latency from the
 * board's operator table; values entering the region are there at stage 0. Static
 * regions hold fixed latencies only (memory accesses are in memory nodes, memnodes.c),
 * so each deep enough one is a stall-free cluster. The schedule also records, per
 * value, the last stage that reads it, which sizes the registers that carry it. A
 * memory node gets the time its answers take (the board's memory latency plus the
 * load-store path's own cycles) and a FIFO for the waiting tokens as deep as its
 * load-store units' capacity, so one work-item can enter every cycle while the answers
 * are on their way. Then every loop gets its latency (cycles around: the body's
 * regions and the back-edge FIFO), its credits (how many work-items it admits: at
 * least the latency, so one iteration issues per cycle) and a back-edge FIFO as deep
 * as the credits, so the back edge always has room and the loop cannot deadlock. A
 * loop with a barrier inside admits every work-item the barrier units can hold besides
 * (all work-groups in flight), so a group never waits at a barrier for work-items kept
 * out of the loop. */
#include "passes.h"

/* Cycles the load-store unit and the interconnect add to the memory's own latency
 * on a load (the unit's request queue, the interconnect's request and response
 * slices, the unit's line queue, and a cycle for the grant); a request slice adds
 * one, and the load unit's answer slice one more (hls_ir_node_slice_cycles). */
#define HLS_LSU_OVERHEAD 5
/* Cycles a static region adds besides its stages: the input register and its exit
 * FIFO. */
#define HLS_REGION_OVERHEAD 2
/* Static regions at least this deep are stall-free. */
#define HLS_STALL_FREE_MIN_DEPTH 2
/* Entries of the token FIFO of a memory node with local accesses only: the local
 * memory's latency and room for answers held up downstream. */
#define HLS_LOCAL_NODE_DEPTH 8
/* Credits beyond a loop's latency, so short stalls do not starve it. */
#define HLS_LOOP_SLACK 2
/* Cycles a work-item takes through a barrier unit when its group is complete. */
#define HLS_BARRIER_TRANSIT 3

static int template_latency(const board_t *b, board_op op)
{
    return b->op_latency[op] ? (int)b->op_latency[op] : 1;
}

static int latency_of(const hls_kernel *k, const hls_op *op, const board_t *b)
{
    switch (op->opc) {
    case HOP_CONST: case HOP_ARG: case HOP_ROM: case HOP_LOCAL: case HOP_NDRANGE: case HOP_TOKEN:
    case HOP_RECUR: case HOP_ALIVE: /* a register's output, or of the stage's values */
    case HOP_AND: case HOP_OR: case HOP_XOR: case HOP_TRUNC: case HOP_ZEXT: case HOP_SEXT:
        return 0;
    case HOP_SHL: case HOP_LSHR: case HOP_ASHR:
        /* shifting by a constant is wiring */
        return k->ops[op->args[1]].opc == HOP_CONST ? 0 : (int)b->op_latency[BOARD_OP_INT_ADD];
    case HOP_ADD: case HOP_SUB: case HOP_ICMP: case HOP_SELECT:
    case HOP_EXTRACT: case HOP_INSERT: /* a multiplexer */
        return (int)b->op_latency[BOARD_OP_INT_ADD];
    case HOP_MUL:
        return (int)b->op_latency[BOARD_OP_INT_MUL];
    case HOP_UDIV: case HOP_SDIV: case HOP_UREM: case HOP_SREM:
        return template_latency(b, BOARD_OP_INT_DIV);
    /* the operator templates register their result at least once */
    case HOP_FADD: case HOP_FSUB:
        return template_latency(b, BOARD_OP_FP_ADD);
    case HOP_FMUL:
        return template_latency(b, BOARD_OP_FP_MUL);
    case HOP_FMA:
        return template_latency(b, BOARD_OP_FP_FMA);
    case HOP_FDIV: /* digit recurrences: their structure fixes the latency */
        return HLS_FDIV_LATENCY(op->width);
    case HOP_FSQRT:
        return HLS_FSQRT_LATENCY(op->width);
    case HOP_FCMP:
        return template_latency(b, BOARD_OP_FP_CMP);
    case HOP_SITOFP: case HOP_UITOFP: case HOP_FPTOSI: case HOP_FPTOUI:
    case HOP_FPEXT: case HOP_FPTRUNC:
        return template_latency(b, BOARD_OP_FP_CONV);
    case HOP_LOAD: /* from a table in ROM: the other accesses are in memory nodes */
        return 1;
    default:
        HLS_BUG("no latency for op %s", hls_ir_opcode_name(op->opc));
    }
}

static void use_at(hls_sched *s, int id, int stage)
{
    if (stage > s->last_use[id])
        s->last_use[id] = stage;
}

/* The stages of a static region's loop-carried values (HOP_RECUR) and its II. A value
 * is there from the stage of its first reader; one that only feeds the next element of
 * a shift register as late as a stage after that one's (at most the last stage), so a
 * value that goes round a shift register of depth D has D iterations to be computed.
 * The next iteration reads the next value at the value's stage once it is ready there:
 * it enters as many stages after its predecessor as the next value is ready after that
 * stage (at least 1). */
static void stage_recurrences(const hls_kernel *k, hls_region *r, int depth)
{
    hls_sched *s = &r->sched;
    r->ii = 1;
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        if (op->opc != HOP_RECUR)
            continue;
        int at = depth;
        for (int j = 0; j < r->nops; j++) {
            const hls_op *reader = &k->ops[r->ops[j]];
            for (int a = 0; a < reader->nargs && reader->opc != HOP_RECUR; a++)
                if (reader->args[a] == op->id && s->start[reader->id] < at)
                    at = s->start[reader->id];
        }
        s->start[op->id] = at;
    }
    for (int changed = 1; changed;) { /* a stage after the element it feeds */
        changed = 0;
        for (int i = 0; i < r->nops; i++) {
            const hls_op *op = &k->ops[r->ops[i]];
            int next = op->opc == HOP_RECUR ? op->args[1] : -1;
            if (next >= 0 && k->ops[next].opc == HOP_RECUR && k->ops[next].region == r->id &&
                s->start[next] > s->start[op->id] + 1)
                s->start[next] = s->start[op->id] + 1, changed = 1;
        }
    }
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        if (op->opc != HOP_RECUR)
            continue;
        int at = s->start[op->id], next = op->args[1];
        int ready = k->ops[next].region == r->id ? s->start[next] + s->latency[next] : 0;
        s->last_use[op->id] = s->last_use[op->id] > at ? s->last_use[op->id] : at;
        use_at(s, op->args[0], at);
        use_at(s, op->args[2], at);
        use_at(s, next, ready > at ? ready : at); /* written into its register there */
        if (op->nargs > 3) /* the lane: which register, and whose value is ready */
            use_at(s, op->args[3], ready > at ? ready : at);
        if (ready - at > r->ii)
            r->ii = ready - at, r->ii_op = next;
    }
}

/* The II a #pragma ii asks of the pipelined loop whose first region r is, 0 when none. */
static int asked_ii(const hls_kernel *k, const hls_region *r)
{
    const hls_region *loop = r->parent >= 0 ? &k->regions[r->parent] : NULL;
    if (!loop || loop->kind != HLS_REGION_LOOP || !loop->pipelined ||
        loop->children[0] != r->id)
        return 0;
    return k->blocks[k->loops[loop->loop].latch].pragmas.ii;
}

static void schedule_static(hls_compile *c, hls_kernel *k, hls_region *r)
{
    hls_sched *s = &r->sched;
    size_t n = (size_t)k->nops;
    s->start = arena_alloc(&c->arena, n * sizeof(int));
    s->latency = arena_alloc(&c->arena, n * sizeof(int));
    s->last_use = arena_alloc(&c->arena, n * sizeof(int));
    for (int i = 0; i < k->nops; i++)
        s->last_use[i] = -1;
    for (int i = 0; i < r->nlive_in; i++)
        s->last_use[r->live_in[i]] = 0;
    int depth = 0;
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        int start = 0;
        /* a loop-carried value is there at stage 0 (its next value, computed later, is
         * read by the iteration after) */
        for (int a = 0; a < (op->opc == HOP_RECUR ? 0 : op->nargs); a++) {
            int arg = op->args[a];
            if (!hls_ir_is_invariant(&k->ops[arg]) && s->start[arg] + s->latency[arg] > start)
                start = s->start[arg] + s->latency[arg];
        }
        for (int w = 0; w < op->nwaits; w++) /* earlier accesses it must follow */
            if (s->start[op->waits[w]] + s->latency[op->waits[w]] > start)
                start = s->start[op->waits[w]] + s->latency[op->waits[w]];
        s->start[op->id] = start;
        s->latency[op->id] = latency_of(k, op, c->program->board);
        s->last_use[op->id] = start + s->latency[op->id];
        if (start + s->latency[op->id] > depth)
            depth = start + s->latency[op->id];
    }
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        for (int a = 0; a < op->nargs; a++)
            if (!hls_ir_is_invariant(&k->ops[op->args[a]]) && op->opc != HOP_RECUR)
                use_at(s, op->args[a], s->start[op->id]);
    }
    stage_recurrences(k, r, depth);
    int asked = asked_ii(k, r);
    if (asked > r->ii) {
        /* #pragma ii N above what the recurrences need: the loop's first region admits
         * an iteration every N cycles, which its stages 0..N-2 must be there to tell */
        r->ii = asked;
        r->ii_op = -1;
        depth = depth > asked - 2 ? depth : asked - 2;
        depth = depth > HLS_STALL_FREE_MIN_DEPTH ? depth : HLS_STALL_FREE_MIN_DEPTH;
    }
    for (int i = 0; i < r->nlive_out; i++)
        use_at(s, r->live_out[i], depth);
    s->depth = depth;
    k->depth += depth + 1;
    /* A stall-free cluster: its exit FIFO holds every work-item the stages can hold and
     * one cycle more, so admitting only while there is room never stops a stage and
     * still lets one work-item in per cycle. Tiny regions keep the stall enable. */
    r->stall_free = depth >= HLS_STALL_FREE_MIN_DEPTH;
    r->exit_depth = r->stall_free ? depth + 3 : 2;
}

/* Schedules the regions inside region id; returns its latency (input to output). */
static int schedule_region(hls_compile *c, hls_kernel *k, int id)
{
    hls_region *r = &k->regions[id];
    if (r->kind == HLS_REGION_STATIC) {
        schedule_static(c, k, r);
        return r->sched.depth + HLS_REGION_OVERHEAD;
    }
    if (r->kind == HLS_REGION_BARRIER)
        return HLS_BARRIER_TRANSIT;
    if (r->kind == HLS_REGION_MEMORY) {
        int global = 0;
        for (int i = 0; i < r->nops; i++)
            global |= k->ops[r->ops[i]].lsu >= 0;
        r->exit_depth = global ? k->lsu_depth : HLS_LOCAL_NODE_DEPTH;
        r->latency = (global ? k->mem_latency : HLS_LOCAL_LATENCY + 1) +
                     hls_ir_node_slice_cycles(c->program, k, r);
        return r->latency;
    }
    int latency = 0, hold = 0, capacity = 0, window_from = 0;
    r->ii = 1;
    for (int i = 0; i < r->nchildren; i++) {
        int child = k->regions[id].children[i];
        int l = schedule_region(c, k, child);
        const hls_region *ch = &k->regions[child];
        const hls_region *loop = &k->regions[id];
        if (loop->window && child == loop->window_first)
            window_from = latency;
        if (loop->window && child == loop->window_last &&
            latency + l - window_from > loop->ii) /* one iteration at a time through it */
            k->regions[id].ii = latency + l - window_from, k->regions[id].ii_op = -1;
        for (int o = 0; ch->kind == HLS_REGION_STATIC && o < ch->nops; o++)
            if (k->ops[ch->ops[o]].opc == HOP_ALIVE && loop->count_test < 0)
                /* its stages, input and generator (a counted loop issues none past) */
                k->regions[id].speculated = latency + ch->sched.start[ch->ops[o]] + 2;
        /* an inner loop holds up to its credits of the outer loop's work-items (a
         * pipelined one runs one work-item's iterations at a time) */
        latency += ch->kind == HLS_REGION_LOOP && !ch->pipelined ? ch->credits + 1 : l;
        if (ch->kind == HLS_REGION_STATIC && ch->ii > k->regions[id].ii)
            k->regions[id].ii = ch->ii, k->regions[id].ii_op = ch->ii_op;
        capacity += ch->kind == HLS_REGION_STATIC ? ch->sched.depth + 1 + ch->exit_depth
                    : ch->kind == HLS_REGION_LOOP ? ch->credits : ch->exit_depth;
        if (ch->kind == HLS_REGION_LOOP)
            hold += ch->barrier_hold;
        if (ch->kind == HLS_REGION_BARRIER)
            hold += HLS_WG_SLOTS * (int)k->max_wg;
    }
    r = &k->regions[id];
    r->lanes = 1;
    if (r->kind == HLS_REGION_LOOP && r->pipelined && r->interleave && r->ii > 1 &&
        r->ii_op >= 0) {
        /* as many work-items take turns as a recurrence needs iterations to fill its
         * latency: a region then admits an iteration every II / lanes cycles, and one
         * work-item's next iteration comes a round of lanes later */
        r->lanes = r->ii < r->interleave ? r->ii : r->interleave;
        for (int i = 0; i < r->nchildren; i++) {
            hls_region *ch = &k->regions[r->children[i]];
            if (ch->kind == HLS_REGION_STATIC)
                ch->ii = (ch->ii + r->lanes - 1) / r->lanes;
        }
    }
    if (r->kind == HLS_REGION_LOOP && r->pipelined) {
        /* One work-item's iterations at a time, a new one every II cycles; the next
         * work-item enters as soon as the exit is known, while the last iterations of
         * the one before drain. */
        r->latency = latency + 1; /* the generator */
        /* work-items inside: in an outer pipelined loop, the next enters while the
         * iterations of those before drain, at most one per token the body holds */
        r->credits = 2 + capacity;
        r->back_depth = 0;
        return latency + 2;
    }
    if (r->kind == HLS_REGION_LOOP) {
        /* With a barrier inside, every work-item of the groups in flight must be able
         * to enter and wait there: the barrier units' entries add to the cycle's
         * storage, so the back-edge FIFO stays as deep as without them. */
        r->latency = latency + 1; /* the back-edge FIFO */
        r->barrier_hold = hold;
        r->back_depth = r->latency + HLS_LOOP_SLACK;
        r->credits = r->back_depth + hold;
        r->ii = r->latency; /* an iteration goes all the way round before the next */
        r->ii_op = -1;
    }
    return latency;
}

/* A loop whose work-items do not take turns needs no lane: it becomes the constant 0,
 * which nothing carries. */
static void drop_lanes(hls_compile *c, hls_kernel *k)
{
    int dropped = 0;
    for (int rid = 0; rid < k->nregions; rid++) {
        hls_region *r = &k->regions[rid];
        if (r->kind != HLS_REGION_LOOP || !r->pipelined || !r->interleave || r->lanes > 1)
            continue;
        hls_op *lane = &k->ops[r->lane];
        lane->opc = HOP_CONST;
        lane->imm = 0;
        lane->nin = 0;
        lane->block = -1;
        r->nphis--; /* the last header phi */
        r->interleave = 0;
        dropped = 1;
    }
    if (dropped)
        hls_liveness(c, k);
}

/* A #pragma ii N the schedule of loop region r cannot meet is a warning at the pragma,
 * with what keeps the II above N. */
static void check_asked_ii(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    const hls_loop_pragmas *p = &k->blocks[k->loops[r->loop].latch].pragmas;
    if (!p->ii || (r->pipelined && r->ii <= p->ii))
        return;
    const hls_pragma *at = hls_loop_pragma(c, HLS_PRAGMA_II, p->start);
    hls_warning(&c->diag, at ? at->loc : k->loops[r->loop].loc,
                "'%s' cannot be honoured in kernel '%s': the loop's II is %d: %s",
                at ? at->text : arena_printf(&c->arena, "#pragma ii %d", p->ii), k->name,
                r->ii, hls_loop_ii_reason(c, k, r));
}

/* The first loop inside loop region r, within `levels` levels of it (0: all), that keeps
 * r's nest from running as one loop: one not pipelined, or not counted (its runs cost
 * the cycles until its exit test is known); -1 when none. */
static int uncoalesced(const hls_kernel *k, const hls_region *r, int levels)
{
    for (int i = 0; i < r->nchildren; i++) {
        const hls_region *ch = &k->regions[r->children[i]];
        if (ch->kind != HLS_REGION_LOOP || levels == 1)
            continue;
        if (!ch->pipelined || ch->count_test < 0)
            return ch->id;
        int below = uncoalesced(k, ch, levels ? levels - 1 : 0);
        if (below >= 0)
            return below;
    }
    return -1;
}

/* #pragma loop_coalesce [N] on loop region r: a nest runs as one loop when every loop in
 * it is pipelined and the inner ones are counted (their generators issue the next run's
 * iterations right after the last); otherwise a warning at the pragma names the loop
 * that keeps it from doing so. */
static void check_coalesce(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    const hls_loop_pragmas *p = &k->blocks[k->loops[r->loop].latch].pragmas;
    if (!p->coalesce)
        return;
    const hls_pragma *at = hls_loop_pragma(c, HLS_PRAGMA_LOOP_COALESCE, p->start);
    int bad = uncoalesced(k, r, at ? at->value : 0);
    bad = bad < 0 && !r->pipelined ? r->id : bad;
    if (bad < 0)
        return;
    const hls_region *l = &k->regions[bad];
    hls_loc where = k->loops[l->loop].loc;
    hls_warning(&c->diag, at ? at->loc : k->loops[r->loop].loc,
                "'%s' is not achieved in kernel '%s': the loop at %s:%u %s, so the nest does "
                "not run as one loop", at ? at->text : "#pragma loop_coalesce", k->name,
                where.file ? where.file : c->source_name, where.line,
                l->pipelined ? "is not counted (its exit test is not a counter against a "
                               "bound fixed before it: each run of it costs the cycles until "
                               "its test is known)"
                             : arena_printf(&c->arena, "runs %s", hls_loop_ii_reason(c, k, l)));
}

int hls_schedule(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++) {
        hls_kernel *k = c->program->kernels[i];
        k->mem_latency = (int)c->program->board->mem_latency_cycles + HLS_LSU_OVERHEAD;
        /* room for twice the scheduled latency, so that a unit keeps one request per
         * cycle going when answers come late */
        k->lsu_depth = 16;
        while (k->lsu_depth < 2 * k->mem_latency)
            k->lsu_depth *= 2;
        k->depth = 0;
        schedule_region(c, k, 0);
        drop_lanes(c, k);
        /* a single work-item kernel's loops that do not start an iteration every cycle */
        for (int r = 0; r < k->nregions && k->single_work_item; r++) {
            const hls_region *reg = &k->regions[r];
            if (reg->kind == HLS_REGION_LOOP)
                check_asked_ii(c, k, reg), check_coalesce(c, k, reg);
            if (reg->kind == HLS_REGION_LOOP && reg->ii > 1)
                hls_note(&c->diag, k->loops[reg->loop].loc, "loop in kernel '%s': II %d: %s",
                         k->name, reg->ii, hls_loop_ii_reason(c, k, reg));
        }
    }
    return HLS_OK;
}
