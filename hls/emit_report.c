/* report.json: what the compiler built for each kernel and why, for `clhls report`
 * (tools/report.c) to draw. Written from the hardware IR after scheduling: the region
 * tree (static regions with their depth, stall enable or stall-free cluster and exit
 * FIFO; loops with latency, credits and back-edge FIFO; barrier units), the CFG's
 * blocks, every load-store unit with its kind, width, source line and the access
 * pattern an affine analysis of its address finds (consecutive work-items, or in a
 * single work-item kernel consecutive iterations of its innermost loop, at a constant
 * stride, or irregular), the local memories with their banks, their wiring
 * (static or crossbar, localbanks.c) and the bank conflicts the same analysis predicts, the barrier and collective units, and every
 * operator with its source line and stage. The format is described in
 * docs/architecture.md ("report.json"). */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "passes.h"

/* ---- affine address analysis (hls_form_of, linform.c) ---- */

/* A work-item stride the analysis could not find. */
#define STRIDE_UNKNOWN INT64_MIN

/* What the stride analysis knows about each op of a kernel. */
enum { STRIDE_TODO, STRIDE_VISITING, STRIDE_DONE };
typedef struct stride_memo {
    unsigned char *state;       /* by op id: STRIDE_TODO, _VISITING or _DONE */
    int64_t *stride;            /* by op id, once done */
    int nops;                   /* ops of the kernel */
    int task;                   /* a single work-item kernel: strides are between
                                   iterations of `loop`, not between work-items */
    int loop;                   /* task: the loop the strides are known for (-1: none) */
} stride_memo;

/* How an atom changes from one work-item to the next in local-id order: 1 for the
 * first dimension's ids, 0 for values the same for a whole row of a group, or
 * STRIDE_UNKNOWN. */
static int64_t atom_stride(const hls_kernel *k, int id, stride_memo *memo);

static int64_t form_stride(const hls_kernel *k, const hls_form *f, stride_memo *memo)
{
    if (f->unknown)
        return STRIDE_UNKNOWN;
    int64_t s = 0;
    for (int i = 0; i < f->nterms; i++) {
        if (!f->coef[i])
            continue;
        int64_t a = atom_stride(k, f->atom[i], memo);
        if (a == STRIDE_UNKNOWN)
            return STRIDE_UNKNOWN;
        if (__builtin_mul_overflow(a, f->coef[i], &a) || __builtin_add_overflow(s, a, &s))
            return STRIDE_UNKNOWN;
    }
    return s;
}

/* The preheader edge's index among a loop header phi's incoming values, or -1. */
static int phi_entry(const hls_kernel *k, const hls_op *phi)
{
    if (phi->opc != HOP_PHI || phi->nin != 2 || phi->block < 0)
        return -1;
    int loop = k->blocks[phi->block].loop;
    if (loop < 0 || k->loops[loop].header != phi->block)
        return -1;
    for (int i = 0; i < 2; i++)
        if (phi->in_blocks[i] == k->loops[loop].preheader)
            return i;
    return -1;
}

static int64_t atom_stride_of(const hls_kernel *k, int id, stride_memo *memo);

static int64_t atom_stride(const hls_kernel *k, int id, stride_memo *memo)
{
    if (memo->state[id] == STRIDE_DONE)
        return memo->stride[id];
    if (memo->state[id] == STRIDE_VISITING)
        return STRIDE_UNKNOWN; /* a cycle through loop phis */
    memo->state[id] = STRIDE_VISITING;
    int64_t s = atom_stride_of(k, id, memo);
    memo->state[id] = STRIDE_DONE;
    memo->stride[id] = s;
    return s;
}

/* 0 when no operand of op changes (an operation of values that do not change does not
 * change), else STRIDE_UNKNOWN. */
static int64_t operands_stride(const hls_kernel *k, const hls_op *op, stride_memo *memo)
{
    const int *args;
    int n = hls_ir_operands(op, &args);
    for (int i = 0; i < n; i++) {
        hls_form f;
        hls_form_of(k, args[i], &f);
        if (form_stride(k, &f, memo) != 0)
            return STRIDE_UNKNOWN;
    }
    return 0;
}

/* How an atom of a single work-item kernel changes from one iteration of memo->loop
 * to the next: 0 for values from outside the loop, an induction variable's constant
 * step, what an operation of such values gives, or STRIDE_UNKNOWN. */
static int64_t iteration_stride(const hls_kernel *k, int id, stride_memo *memo)
{
    const hls_op *op = &k->ops[id];
    if (hls_ir_is_invariant(op) || op->block < 0 || memo->loop < 0 ||
        !hls_ir_in_loop(k, op->block, memo->loop))
        return 0;
    if ((op->opc == HOP_PHI || op->opc == HOP_RECUR) &&
        op->block == k->loops[memo->loop].header) {
        int e = op->opc == HOP_PHI ? phi_entry(k, op) : -1;
        if (op->opc == HOP_PHI && e < 0)
            return STRIDE_UNKNOWN;
        hls_form next; /* the value plus a constant */
        hls_form_of(k, op->opc == HOP_RECUR ? op->args[1] : op->in_vals[1 - e], &next);
        int self = 0;
        for (int i = 0; i < next.nterms; i++)
            if (next.atom[i] == id && next.coef[i] == 1)
                self = 1;
            else if (next.coef[i])
                return STRIDE_UNKNOWN;
        return self && !next.unknown ? next.constant : STRIDE_UNKNOWN;
    }
    if (op->opc == HOP_PHI || op->opc == HOP_RECUR || hls_ir_is_memory(op) ||
        op->opc == HOP_BARRIER || op->opc == HOP_COLLECTIVE)
        return STRIDE_UNKNOWN;
    return operands_stride(k, op, memo);
}

static int64_t atom_stride_of(const hls_kernel *k, int id, stride_memo *memo)
{
    const hls_op *op = &k->ops[id];
    if (memo->task)
        return iteration_stride(k, id, memo);
    switch (op->opc) {
    case HOP_CONST: case HOP_ARG: case HOP_NDRANGE: case HOP_ROM: case HOP_LOCAL:
        return 0;
    case HOP_TOKEN:
        switch (op->imm) {
        case HLS_TOK_GLOBAL_ID: case HLS_TOK_LOCAL_ID:
            return op->dim == 0 ? 1 : 0;
        case HLS_TOK_LOCAL_LINEAR_ID:
            return 1;
        default: /* group id and size, slot: the same for the whole group */
            return 0;
        }
    case HOP_PHI: {
        /* an induction variable: its start's stride when each iteration adds a value
         * the same for every work-item */
        int e = phi_entry(k, op);
        if (e < 0)
            return STRIDE_UNKNOWN;
        hls_form start, step;
        hls_form_of(k, op->in_vals[e], &start);
        hls_form_of(k, op->in_vals[1 - e], &step);
        int64_t s = form_stride(k, &start, memo);
        int self = -1;
        for (int i = 0; i < step.nterms; i++)
            if (step.atom[i] == id)
                self = i;
        if (self >= 0 && step.coef[self] == 1) {
            step.coef[self] = 0;
            if (form_stride(k, &step, memo) != 0)
                s = STRIDE_UNKNOWN;
        } else {
            s = STRIDE_UNKNOWN;
        }
        return s;
    }
    case HOP_LOAD: case HOP_STORE: case HOP_ATOMIC: case HOP_BARRIER: case HOP_COLLECTIVE:
        return STRIDE_UNKNOWN;
    default: /* any operation of values the same for a row is the same for the row */
        return operands_stride(k, op, memo);
    }
}

/* Bytes between the addresses of two work-items next to each other in local-id order
 * (a single work-item kernel: of two iterations one after the other of the innermost
 * loop holding the access), or STRIDE_UNKNOWN. */
static int64_t address_stride(const hls_kernel *k, const hls_op *op, stride_memo *memo)
{
    int loop = op->block >= 0 ? k->blocks[op->block].loop : -1;
    if (memo->task && loop != memo->loop) { /* what is known is for another loop */
        memset(memo->state, STRIDE_TODO, (size_t)memo->nops);
        memo->loop = loop;
    }
    hls_form f;
    hls_form_of(k, op->args[0], &f);
    return form_stride(k, &f, memo);
}

static const char *pattern_name(int64_t stride, unsigned bytes)
{
    if (stride == STRIDE_UNKNOWN)
        return "irregular";
    if (stride == 0)
        return "uniform";
    if (stride == (int64_t)bytes)
        return "consecutive";
    return "strided";
}

/* ---- pieces of the JSON ---- */

static void add_loc(cJSON *j, hls_loc loc)
{
    cJSON_AddNumberToObject(j, "line", loc.line);
    cJSON_AddNumberToObject(j, "col", loc.col);
}

static const char *space_name(int as)
{
    return as == 2 ? "constant" : as == 3 ? "local" : "global";
}

static const char *memory_kind(const hls_op *op)
{
    return op->opc == HOP_LOAD ? "load" : op->opc == HOP_STORE ? "store" : "atomic";
}

static const char *const atomic_names[] = {"none", "add", "sub", "xchg", "cmpxchg", "min", "max",
                                     "umin", "umax", "and", "or", "xor"};

/* The static region holding op and its schedule, or NULL. */
static const hls_region *region_of(const hls_kernel *k, const hls_op *op)
{
    return op->region >= 0 && k->regions[op->region].kind == HLS_REGION_STATIC
               ? &k->regions[op->region] : NULL;
}

static void add_schedule(cJSON *j, const hls_kernel *k, const hls_op *op)
{
    const hls_region *r = region_of(k, op);
    cJSON_AddNumberToObject(j, "region", op->region);
    if (r && r->sched.start) {
        cJSON_AddNumberToObject(j, "stage", r->sched.start[op->id]);
        cJSON_AddNumberToObject(j, "latency", r->sched.latency[op->id]);
    } else if (op->region >= 0 && k->regions[op->region].kind == HLS_REGION_MEMORY) {
        cJSON_AddNumberToObject(j, "latency", k->regions[op->region].latency);
    }
}

/* Bits one entry of a FIFO carrying these values takes. */
static unsigned values_bits(const hls_kernel *k, const int *ids, int n)
{
    unsigned bits = 0;
    for (int i = 0; i < n; i++)
        bits += k->ops[ids[i]].width;
    return bits;
}

static int is_operator(const hls_op *op)
{
    switch (op->opc) {
    case HOP_CONST: case HOP_ARG: case HOP_ROM: case HOP_LOCAL: case HOP_NDRANGE:
    case HOP_TOKEN: case HOP_LOAD: case HOP_STORE: case HOP_ATOMIC: case HOP_BARRIER:
    case HOP_COLLECTIVE:
        return 0;
    default:
        return 1;
    }
}

static const char *collective_name(uint64_t imm, char *buf, size_t len)
{
    static const char *const kinds[] = {"?", "broadcast", "reduce", "scan_inclusive",
                                        "scan_exclusive"};
    static const char *const funcs[] = {"add", "min", "max", "any", "all"};
    static const char *const types[] = {"unsigned", "signed", "float"};
    if (HLS_COLL_KIND(imm) == HLS_COLL_BROADCAST)
        snprintf(buf, len, "broadcast %s", types[HLS_COLL_TYPE(imm)]);
    else
        snprintf(buf, len, "%s_%s %s", kinds[HLS_COLL_KIND(imm)], funcs[HLS_COLL_FUNC(imm)],
                 types[HLS_COLL_TYPE(imm)]);
    return buf;
}

/* The blocks whose operations a region executes (a loop: its header and latch too). */
static cJSON *region_blocks(const hls_kernel *k, const hls_region *r, arena *a)
{
    unsigned char *seen = arena_alloc(a, (size_t)k->nblocks + 1);
    if (r->kind == HLS_REGION_LOOP) {
        seen[k->loops[r->loop].header] = 1;
        seen[k->loops[r->loop].latch] = 1;
    }
    for (int i = 0; i < r->nops; i++)
        if (k->ops[r->ops[i]].block >= 0)
            seen[k->ops[r->ops[i]].block] = 1;
    cJSON *j = cJSON_CreateArray();
    for (int b = 0; b < k->nblocks; b++)
        if (seen[b])
            cJSON_AddItemToArray(j, cJSON_CreateNumber(b));
    return j;
}

static cJSON *region_json(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    arena *a = &c->arena;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "id", r->id);
    cJSON_AddStringToObject(j, "kind", hls_ir_region_kind_name(r->kind));
    cJSON_AddNumberToObject(j, "parent", r->parent);
    cJSON *ch = cJSON_AddArrayToObject(j, "children");
    for (int i = 0; i < r->nchildren; i++)
        cJSON_AddItemToArray(ch, cJSON_CreateNumber(r->children[i]));
    cJSON_AddItemToObject(j, "blocks", region_blocks(k, r, a));
    cJSON_AddNumberToObject(j, "live_in_bits", values_bits(k, r->live_in, r->nlive_in));
    cJSON_AddNumberToObject(j, "live_out_bits", values_bits(k, r->live_out, r->nlive_out));
    unsigned first = 0, last = 0;
    for (int i = 0; i < r->nops; i++) {
        unsigned line = k->ops[r->ops[i]].loc.line;
        if (line && (!first || line < first))
            first = line;
        if (line > last)
            last = line;
    }
    cJSON *stalls = cJSON_AddArrayToObject(j, "stall_points");
    if (r->kind == HLS_REGION_STATIC) {
        cJSON_AddNumberToObject(j, "depth", r->sched.depth);
        cJSON_AddNumberToObject(j, "ops", r->nops);
        cJSON_AddBoolToObject(j, "stall_free", r->stall_free);
        cJSON_AddNumberToObject(j, "exit_fifo", r->exit_depth);
    } else if (r->kind == HLS_REGION_MEMORY) {
        cJSON_AddNumberToObject(j, "ops", r->nops);
        cJSON_AddNumberToObject(j, "token_fifo", r->exit_depth);
        for (int i = 0; i < r->nops; i++) {
            const hls_op *op = &k->ops[r->ops[i]];
            cJSON *s = cJSON_CreateObject();
            char what[160];
            const char *unit = op->lmem >= 0 ? "local memory" : "load-store unit";
            if (hls_ir_waits_for_memory(op))
                snprintf(what, sizeof what, "%s %s waits for %s", unit, memory_kind(op),
                         op->opc == HOP_STORE ? "its acknowledgement" : "its data");
            else
                snprintf(what, sizeof what, "%s store waits for room", unit);
            cJSON_AddStringToObject(s, "what", what);
            cJSON_AddNumberToObject(s, "op", op->id);
            add_loc(s, op->loc);
            cJSON_AddItemToArray(stalls, s);
        }
    } else if (r->kind == HLS_REGION_LOOP) {
        const hls_loop *l = &k->loops[r->loop];
        add_loc(j, l->loc);
        cJSON_AddNumberToObject(j, "loop", r->loop);
        cJSON_AddNumberToObject(j, "nesting", l->depth);
        cJSON_AddNumberToObject(j, "header", l->header);
        cJSON_AddNumberToObject(j, "latch", l->latch);
        cJSON_AddNumberToObject(j, "latency", r->latency);
        cJSON_AddNumberToObject(j, "credits", r->credits);
        cJSON_AddNumberToObject(j, "back_fifo", r->back_depth);
        cJSON_AddNumberToObject(j, "barrier_hold", r->barrier_hold);
        /* iterations of one work-item: how often one starts, and why not more often */
        cJSON_AddStringToObject(j, "mode", r->pipelined ? "pipelined"
                                           : k->single_work_item ? "serial" : "work-items");
        cJSON_AddNumberToObject(j, "ii", r->ii);
        cJSON_AddStringToObject(j, "ii_reason", hls_loop_ii_reason(c, k, r));
        cJSON_AddNumberToObject(j, "speculated", r->speculated);
        /* work-items (outer iterations) taking turns, an iteration of each in a round */
        int lanes = r->pipelined && r->lanes > 1 ? r->lanes : 1;
        cJSON_AddNumberToObject(j, "interleaved", lanes);
        /* iterations a pipelined loop keeps going at once: its latency over the cycles
         * between two iterations entering */
        int every = (r->ii + lanes - 1) / lanes;
        cJSON_AddNumberToObject(j, "in_flight",
                                r->pipelined ? (r->latency + every - 1) / every : 1);
        cJSON_AddNumberToObject(j, "phis", r->nphis);
        cJSON_AddNumberToObject(j, "token_bits", values_bits(k, r->phis, r->nphis) +
                                                     values_bits(k, r->live_in, r->nlive_in));
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "what", "entry waits for a credit");
        add_loc(s, l->loc);
        cJSON_AddItemToArray(stalls, s);
    } else if (r->kind == HLS_REGION_BARRIER) {
        const hls_op *bar = &k->ops[r->ops[0]];
        add_loc(j, bar->loc);
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "what", "work-items wait for their whole work-group");
        add_loc(s, bar->loc);
        cJSON_AddItemToArray(stalls, s);
    }
    if (r->kind != HLS_REGION_LOOP && r->kind != HLS_REGION_BARRIER) {
        cJSON_AddNumberToObject(j, "line", first);
        cJSON_AddNumberToObject(j, "col", 0);
    }
    cJSON_AddNumberToObject(j, "first_line", first);
    cJSON_AddNumberToObject(j, "last_line", last);
    return j;
}

static cJSON *block_json(const hls_kernel *k, int b)
{
    const hls_block *blk = &k->blocks[b];
    static const char *const terms[] = {"ret", "br", "condbr", "switch"};
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "id", b);
    cJSON_AddStringToObject(j, "term", terms[blk->term]);
    cJSON *succ = cJSON_AddArrayToObject(j, "succ");
    for (int i = 0; i < blk->nsucc; i++)
        cJSON_AddItemToArray(succ, cJSON_CreateNumber(blk->succ[i]));
    cJSON_AddNumberToObject(j, "loop", blk->loop);
    cJSON_AddNumberToObject(j, "rpo", blk->rpo);
    cJSON_AddNumberToObject(j, "ops", blk->nops);
    unsigned first = 0, last = 0;
    int region = -1;
    for (int i = 0; i < blk->nops; i++) {
        const hls_op *op = &k->ops[blk->ops[i]];
        if (op->loc.line && (!first || op->loc.line < first))
            first = op->loc.line;
        if (op->loc.line > last)
            last = op->loc.line;
        if (region < 0 && op->region >= 0)
            region = op->region;
    }
    cJSON_AddNumberToObject(j, "first_line", first);
    cJSON_AddNumberToObject(j, "last_line", last);
    cJSON_AddNumberToObject(j, "region", region);
    return j;
}

static cJSON *lsu_json(hls_compile *c, const hls_kernel *k, const hls_op *op, stride_memo *memo)
{
    const board_t *board = c->program->board;
    unsigned bytes = op->width / 8 ? op->width / 8 : 1, mem_bytes = board->mem_width_bits / 8;
    int64_t stride = address_stride(k, op, memo);
    const char *unit, *kind = memory_kind(op);
    int coalescing;
    if (op->opc == HOP_ATOMIC) {
        unit = "clhls_lsu_atomic";
        coalescing = 0;
    } else if (op->opc == HOP_LOAD) {
        unit = "clhls_lsu_load";
        coalescing = hls_ir_reuses_lines(k, op);
    } else if (op->acked) { /* it merges stores one right after another to a line */
        unit = "clhls_lsu_store_ack";
        coalescing = 1;
    } else {
        unit = "clhls_lsu_store";
        coalescing = 1;
    }
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "index", op->lsu);
    cJSON_AddNumberToObject(j, "op", op->id);
    cJSON_AddStringToObject(j, "kind", kind);
    cJSON_AddStringToObject(j, "unit", unit);
    cJSON_AddStringToObject(j, "space", space_name(op->addr_space));
    cJSON_AddNumberToObject(j, "width_bits", op->width);
    cJSON_AddBoolToObject(j, "coalescing", coalescing);
    cJSON_AddBoolToObject(j, "acknowledged", op->acked);
    cJSON_AddBoolToObject(j, "predicated", op->has_pred);
    if (op->opc == HOP_ATOMIC)
        cJSON_AddStringToObject(j, "atomic", atomic_names[op->imm]);
    cJSON_AddStringToObject(j, "pattern", pattern_name(stride, bytes));
    if (stride != STRIDE_UNKNOWN)
        cJSON_AddNumberToObject(j, "stride_bytes", (double)stride);
    /* between work-items, or a single work-item's loop iterations */
    cJSON_AddStringToObject(j, "stride_across", k->single_work_item ? "iterations" : "work-items");
    /* work-items (iterations) served by one memory request, in the steady state */
    double per_request = 1;
    if (coalescing && stride == 0)
        per_request = 0; /* one address: the open line serves every work-item */
    else if (coalescing && stride != STRIDE_UNKNOWN) {
        int64_t s = stride < 0 ? -stride : stride;
        per_request = s < (int64_t)mem_bytes ? (double)mem_bytes / (double)s : 1;
    }
    cJSON_AddBoolToObject(j, "burst",
                          coalescing && (per_request > 1 || per_request == 0));
    cJSON_AddNumberToObject(j, "work_items_per_request", per_request);
    add_loc(j, op->loc);
    add_schedule(j, k, op);
    return j;
}

/* What the affine analysis predicts for two ports of one local memory. Same memory
 * node: one work-item's two addresses, issued together, which differ by a constant or
 * not. */
static const char *port_pair_verdict(const hls_kernel *k, const hls_local *m, const hls_op *p,
                                     const hls_op *q, const hls_form *pf, const hls_form *qf,
                                     int64_t *apart)
{
    *apart = 0;
    if (p->region != q->region)
        return "timing"; /* different work-items: they meet in a bank now and then */
    int64_t d, word = m->word_bits / 8;
    if (!hls_form_difference(qf, pf, &d) || d == INT64_MIN)
        return "unknown";
    d = d < 0 ? -d : d;
    *apart = d;
    if (d < word)
        return p->opc == HOP_LOAD && q->opc == HOP_LOAD ? "broadcast" : "conflict";
    if (d % word)
        return "unknown";
    return (d / word) % m->banks ? "disjoint" : "conflict";
}

static cJSON *local_json(hls_compile *c, const hls_kernel *k, int index, stride_memo *memo)
{
    const hls_local *m = &k->locals[index];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", m->name);
    cJSON_AddNumberToObject(j, "arg", m->arg);
    cJSON_AddNumberToObject(j, "bytes", (double)m->size);
    cJSON_AddNumberToObject(j, "copy_bytes", (double)(1ull << m->addr_bits));
    cJSON_AddNumberToObject(j, "copies", HLS_WG_SLOTS);
    cJSON_AddNumberToObject(j, "word_bits", m->word_bits);
    cJSON_AddNumberToObject(j, "banks", m->banks);
    cJSON_AddBoolToObject(j, "atomics", m->atomics);
    /* the banks pass's decision (localbanks.c) */
    cJSON_AddStringToObject(j, "wiring", m->wiring == HLS_BANKS_STATIC ? "static" : "crossbar");
    cJSON_AddStringToObject(j, "wiring_reason", m->wiring_reason ? m->wiring_reason : "");
    const hls_op **ports = arena_alloc(&c->arena, sizeof *ports * ((size_t)m->nports + 1));
    hls_form *forms = arena_alloc(&c->arena, sizeof *forms * ((size_t)m->nports + 1));
    cJSON *pj = cJSON_AddArrayToObject(j, "ports");
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        if (op->lmem != index || !hls_ir_is_memory(op))
            continue;
        if (op->lport >= 0 && op->lport < m->nports) {
            ports[op->lport] = op;
            hls_form_of(k, op->args[0], &forms[op->lport]);
        }
        int64_t stride = address_stride(k, op, memo);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "port", op->lport);
        cJSON_AddNumberToObject(p, "op", op->id);
        cJSON_AddStringToObject(p, "kind", memory_kind(op));
        if (op->opc == HOP_ATOMIC)
            cJSON_AddStringToObject(p, "atomic", atomic_names[op->imm]);
        cJSON_AddNumberToObject(p, "width_bits", op->width);
        cJSON_AddStringToObject(p, "pattern", pattern_name(stride, op->width / 8));
        if (stride != STRIDE_UNKNOWN)
            cJSON_AddNumberToObject(p, "stride_bytes", (double)stride);
        cJSON *banks = cJSON_AddArrayToObject(p, "banks"); /* those its address may reach */
        for (int b = 0; m->port_banks && b < m->banks; b++)
            if (m->port_banks[op->lport] >> b & 1)
                cJSON_AddItemToArray(banks, cJSON_CreateNumber(b));
        add_loc(p, op->loc);
        add_schedule(p, k, op);
        cJSON_AddItemToArray(pj, p);
    }
    /* Conflicts: certain when two accesses of one work-item in the same cycle meet in a
     * bank; possible when accesses of different work-items (other stages, regions, or
     * the other side of a barrier) share the banks; none with one port. */
    cJSON *pairs = cJSON_AddArrayToObject(j, "port_pairs");
    int certain = 0, possible = 0;
    for (int a = 0; a < m->nports; a++)
        for (int b = a + 1; b < m->nports; b++) {
            if (!ports[a] || !ports[b])
                continue;
            int64_t apart;
            const char *v = port_pair_verdict(k, m, ports[a], ports[b], &forms[a], &forms[b],
                                              &apart);
            certain += !strcmp(v, "conflict");
            possible += !strcmp(v, "timing") || !strcmp(v, "unknown");
            cJSON *pp = cJSON_CreateObject();
            cJSON_AddNumberToObject(pp, "a", a);
            cJSON_AddNumberToObject(pp, "b", b);
            cJSON_AddStringToObject(pp, "verdict", v);
            if (apart)
                cJSON_AddNumberToObject(pp, "bytes_apart", (double)apart);
            cJSON_AddItemToArray(pairs, pp);
        }
    /* statically wired: no two ports share a bank, whatever the timing */
    cJSON_AddStringToObject(j, "predicted_conflicts",
                            m->wiring == HLS_BANKS_STATIC ? "none"
                            : certain                     ? "certain"
                            : possible                    ? "possible"
                                                          : "none");
    cJSON_AddNumberToObject(j, "conflicting_pairs", certain);
    return j;
}

static cJSON *kernel_json(hls_compile *c, const hls_kernel *k)
{
    /* one stride analysis for the kernel: an op's stride does not depend on who asks */
    stride_memo memo = {arena_alloc(&c->arena, (size_t)k->nops + 1),
                        arena_alloc(&c->arena, ((size_t)k->nops + 1) * sizeof(int64_t)),
                        k->nops, k->single_work_item, -1};
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", k->name);
    cJSON_AddStringToObject(j, "unit", k->unit); /* cu_UNIT in the design's names */
    add_loc(j, k->loc);
    cJSON_AddNumberToObject(j, "pipeline_depth", k->depth);
    cJSON_AddNumberToObject(j, "compute_units", k->compute_units);
    cJSON_AddNumberToObject(j, "simd_work_items", k->simd);
    cJSON_AddBoolToObject(j, "single_work_item", k->single_work_item); /* loops pipelined */
    cJSON_AddNumberToObject(j, "mem_latency", k->mem_latency);
    cJSON_AddNumberToObject(j, "max_work_group_size", k->max_wg * (unsigned)k->simd);
    cJSON_AddNumberToObject(j, "work_group_slots", k->slot_op >= 0 ? HLS_WG_SLOTS : 0);
    cJSON *rs = cJSON_AddArrayToObject(j, "regions");
    for (int i = 0; i < k->nregions; i++)
        cJSON_AddItemToArray(rs, region_json(c, k, &k->regions[i]));
    cJSON *bs = cJSON_AddArrayToObject(j, "blocks");
    for (int b = 0; b < k->nblocks; b++)
        cJSON_AddItemToArray(bs, block_json(k, b));
    cJSON *lsus = cJSON_AddArrayToObject(j, "lsus");
    cJSON *roms = cJSON_AddArrayToObject(j, "rom_reads");
    cJSON *bars = cJSON_AddArrayToObject(j, "barriers");
    cJSON *ops = cJSON_AddArrayToObject(j, "operators");
    cJSON *fifos = cJSON_AddArrayToObject(j, "fifos");
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        if (op->lsu >= 0) {
            cJSON_AddItemToArray(lsus, lsu_json(c, k, op, &memo));
        } else if (op->rom >= 0) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "op", op->id);
            cJSON_AddNumberToObject(r, "rom", op->rom);
            cJSON_AddStringToObject(r, "table", c->program->roms[op->rom].name);
            cJSON_AddNumberToObject(r, "width_bits", op->width);
            add_loc(r, op->loc);
            add_schedule(r, k, op);
            cJSON_AddItemToArray(roms, r);
        } else if (op->opc == HOP_BARRIER) {
            cJSON *b = cJSON_CreateObject();
            cJSON_AddNumberToObject(b, "op", op->id);
            cJSON_AddNumberToObject(b, "region", op->region);
            cJSON_AddNumberToObject(b, "fence", (double)op->imm);
            cJSON_AddNumberToObject(b, "slots", HLS_WG_SLOTS);
            cJSON_AddNumberToObject(b, "entries_per_slot", k->max_wg);
            const hls_region *r = op->region >= 0 ? &k->regions[op->region] : NULL;
            cJSON_AddNumberToObject(b, "entry_bits",
                                    r ? values_bits(k, r->live_in, r->nlive_in) : 0);
            if (r && r->nops > 1 && k->ops[r->ops[1]].opc == HOP_COLLECTIVE) {
                char name[64];
                cJSON_AddStringToObject(b, "collective",
                                        collective_name(k->ops[r->ops[1]].imm, name, sizeof name));
            } else {
                cJSON_AddNullToObject(b, "collective");
            }
            add_loc(b, op->loc);
            cJSON_AddItemToArray(bars, b);
        } else if (is_operator(op)) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "op", op->id);
            cJSON_AddStringToObject(o, "kind", hls_ir_opcode_name(op->opc));
            cJSON_AddNumberToObject(o, "width", op->width);
            /* a compare's or a conversion's operands may be wider than its result */
            cJSON_AddNumberToObject(o, "operand_width",
                                    op->nargs ? k->ops[op->args[0]].width : op->width);
            add_loc(o, op->loc);
            add_schedule(o, k, op);
            const hls_region *r = region_of(k, op);
            int latency = r && r->sched.start ? r->sched.latency[op->id] : 0;
            /* logic and extensions, and shifts by a constant, are wires */
            cJSON_AddBoolToObject(o, "wiring", r && latency == 0 && op->opc != HOP_PHI);
            cJSON_AddItemToArray(ops, o);
        }
    }
    for (int i = 0; i < k->nregions; i++) {
        const hls_region *r = &k->regions[i];
        cJSON *f = NULL;
        if (r->kind == HLS_REGION_STATIC) {
            f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "what", r->stall_free ? "exit of a stall-free region"
                                                             : "exit of a region");
            cJSON_AddNumberToObject(f, "depth", r->exit_depth);
            cJSON_AddNumberToObject(f, "bits", values_bits(k, r->live_out, r->nlive_out));
        } else if (r->kind == HLS_REGION_MEMORY) {
            f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "what", "tokens waiting for memory");
            cJSON_AddNumberToObject(f, "depth", r->exit_depth);
            cJSON_AddNumberToObject(f, "bits", values_bits(k, r->live_out, r->nlive_out));
        } else if (r->kind == HLS_REGION_LOOP) {
            f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "what", "loop back edge");
            cJSON_AddNumberToObject(f, "depth", r->back_depth);
            cJSON_AddNumberToObject(f, "bits", values_bits(k, r->phis, r->nphis) +
                                                   values_bits(k, r->live_in, r->nlive_in));
        }
        if (f) {
            cJSON_AddNumberToObject(f, "region", i);
            cJSON_AddItemToArray(fifos, f);
        }
    }
    cJSON *ls = cJSON_AddArrayToObject(j, "local_memories");
    for (int i = 0; i < k->nlocals; i++)
        cJSON_AddItemToArray(ls, local_json(c, k, i, &memo));
    return j;
}

int hls_emit_report(hls_compile *c, const char *entry)
{
    const hls_program *p = c->program;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "format", 1);
    cJSON_AddStringToObject(root, "tool_version", hls_version());
    cJSON_AddStringToObject(root, "board", p->board->name);
    cJSON_AddStringToObject(root, "source_name", c->source_name);
    cJSON_AddNumberToObject(root, "clock_mhz", p->board->clock_mhz);
    cJSON_AddNumberToObject(root, "mem_width_bytes", p->board->mem_width_bits / 8);
    cJSON_AddNumberToObject(root, "mem_latency_cycles", p->board->mem_latency_cycles);
    cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
    for (int i = 0; i < p->nkernels; i++)
        cJSON_AddItemToArray(ks, kernel_json(c, p->kernels[i]));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    char *path = arena_printf(&c->arena, "%s/report.json", entry);
    int ok = text && hls_write_text(path, text, 1) == 0;
    cJSON_free(text);
    if (!ok) {
        sb_printf(c->diag.log, "error: cannot write %s\n", path);
        return HLS_ERR_TOOL;
    }
    return HLS_OK;
}
