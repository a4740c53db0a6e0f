/* If-conversion: turns each kernel's CFG into the region tree the hardware is built
 * from. At every loop level (the kernel body, then each loop's body) the blocks and
 * the inner loops form an acyclic graph; walking it in topological order, runs of
 * blocks become one static region and each inner loop a loop region. Inside a static
 * region every block's operations execute for every work-item, under the block's
 * predicate: the OR of its incoming edges' predicates, each the source block's
 * predicate ANDed with the branch condition. Phis become selects on those edge
 * predicates, and memory operations take the predicate as an operand (a masked store
 * never writes, a masked load never issues). A loop's header phis stay phis: they
 * circulate with the loop's token, together with the "active" flag, the predicate the
 * work-item entered with (a work-item whose predicate is 0 passes through the body
 * once, masked). A work-item goes round again while the latch's edge back to the
 * header is taken. A barrier is a region of its own (the barrier unit). Last,
 * liveness (liveness.c) gives every region the values that enter and leave it. */
#include <string.h>

#include "passes.h"

typedef struct converter {
    hls_compile *c;       /* the compilation */
    hls_kernel *k;        /* kernel being converted */
    int *block_pred;      /* op id of each block's predicate, -1 until known */
    int **edge_pred;      /* per block, per successor: op id of the edge's predicate */
    int current;          /* static region receiving ops, -1 for none yet */
    int one, zero;        /* i1 constants */
} converter;

static int constant(converter *v, unsigned width, uint64_t value)
{
    hls_op *op = hls_ir_new_op(v->k, &v->c->arena, HOP_CONST, width);
    op->imm = value;
    return op->id;
}

/* Appends op to the current static region (opening one if needed). */
static void place(converter *v, int parent, int id)
{
    hls_kernel *k = v->k;
    if (v->current < 0) {
        hls_region *r = hls_ir_new_region(k, &v->c->arena, HLS_REGION_STATIC, parent);
        v->current = r->id;
        hls_region *p = &k->regions[parent];
        hls_ir_push(&v->c->arena, &p->children, &p->nchildren, &p->capchildren, r->id);
    }
    hls_region *r = &k->regions[v->current];
    hls_ir_push(&v->c->arena, &r->ops, &r->nops, &r->capops, id);
    k->ops[id].region = v->current;
}

/* A static region with no operations (a loop body that only counts), so that every
 * sequence has a first and a last stage. */
static void place_empty(converter *v, int parent)
{
    hls_region *r = hls_ir_new_region(v->k, &v->c->arena, HLS_REGION_STATIC, parent);
    hls_region *p = &v->k->regions[parent];
    hls_ir_push(&v->c->arena, &p->children, &p->nchildren, &p->capchildren, r->id);
    v->current = r->id;
}

static int new_op(converter *v, int parent, hls_opcode opc, unsigned width, int a, int b,
                  hls_loc loc)
{
    hls_op *op = hls_ir_new_op(v->k, &v->c->arena, opc, width);
    op->nargs = b >= 0 ? 2 : 1;
    op->args[0] = a;
    op->args[1] = b;
    op->loc = loc;
    place(v, parent, op->id);
    return op->id;
}

static int logic_and(converter *v, int parent, int a, int b, hls_loc loc)
{
    if (a == v->one)
        return b;
    if (b == v->one)
        return a;
    return new_op(v, parent, HOP_AND, 1, a, b, loc);
}

static int logic_or(converter *v, int parent, int a, int b, hls_loc loc)
{
    if (a < 0 || a == v->zero)
        return b;
    if (b == v->zero)
        return a;
    return new_op(v, parent, HOP_OR, 1, a, b, loc);
}

static int logic_not(converter *v, int parent, int a, hls_loc loc)
{
    return new_op(v, parent, HOP_XOR, 1, a, v->one, loc);
}

/* The child loop of loop `level` (-1: the kernel) that holds block b; -1 when b is
 * directly in `level`, -2 when b is outside it. */
static int child_loop(const hls_kernel *k, int b, int level)
{
    int l = k->blocks[b].loop;
    if (l == level)
        return -1;
    while (l >= 0 && k->loops[l].parent != level)
        l = k->loops[l].parent;
    return l >= 0 ? l : -2;
}

/* 1 when block b is inside loop l (at any depth). */
static int in_loop(const hls_kernel *k, int b, int l)
{
    for (int x = k->blocks[b].loop; x >= 0; x = k->loops[x].parent)
        if (x == l)
            return 1;
    return 0;
}

/* The node of `level`'s acyclic graph that block b belongs to (b itself, or the
 * header of the inner loop holding it), or -1 when b is outside the level. */
static int level_node(const hls_kernel *k, int b, int level)
{
    int l = child_loop(k, b, level);
    return l == -1 ? b : l >= 0 ? k->loops[l].header : -1;
}

/* Successor nodes of node n at `level` (n a block of the level or an inner loop's
 * header); back edges and exits from the level are left out. */
static int node_successors(const hls_kernel *k, int n, int level, int *out)
{
    int count = 0, inner = child_loop(k, n, level);
    for (int b = 0; b < k->nblocks; b++) {
        if (inner >= 0 ? !in_loop(k, b, inner) : b != n)
            continue;
        const hls_block *blk = &k->blocks[b];
        for (int s = 0; s < blk->nsucc; s++) {
            int succ = blk->succ[s];
            if ((inner >= 0 && in_loop(k, succ, inner)) ||
                (level >= 0 && succ == k->loops[level].header))
                continue;
            int node = level_node(k, succ, level);
            if (node < 0)
                continue;
            int seen = 0;
            for (int i = 0; i < count; i++)
                seen |= out[i] == node;
            if (!seen)
                out[count++] = node;
        }
    }
    return count;
}

/* node_successors into scratch, then *out: a copy of its size in the arena. */
static int successors_copy(converter *v, int node, int level, int *scratch, int **out)
{
    int n = node_successors(v->k, node, level, scratch);
    *out = arena_alloc(&v->c->arena, (size_t)(n + 1) * sizeof **out);
    memcpy(*out, scratch, (size_t)n * sizeof **out);
    return n;
}

/* The nodes of `level` in topological order, from its entry; returns the count. */
static int topological(converter *v, int entry, int level, int *order)
{
    const hls_kernel *k = v->k;
    int n = k->nblocks, count = 0, sp = 0;
    arena *a = &v->c->arena; /* sized by the kernel: not on the stack */
    char *seen = arena_alloc(a, (size_t)n);
    int *stack = arena_alloc(a, (size_t)n * sizeof *stack);
    int *next = arena_alloc(a, (size_t)n * sizeof *next);
    int *nsucc = arena_alloc(a, (size_t)n * sizeof *nsucc);
    int **succ = arena_alloc(a, (size_t)n * sizeof *succ);
    int *found = arena_alloc(a, (size_t)n * sizeof *found);
    stack[sp] = entry, next[sp] = 0;
    nsucc[sp] = successors_copy(v, entry, level, found, &succ[sp]);
    sp++;
    seen[entry] = 1;
    while (sp) {
        int top = sp - 1;
        if (next[top] < nsucc[top]) {
            int s = succ[top][next[top]++];
            if (!seen[s]) {
                seen[s] = 1;
                stack[sp] = s, next[sp] = 0;
                nsucc[sp] = successors_copy(v, s, level, found, &succ[sp]);
                sp++;
            }
            continue;
        }
        order[count++] = stack[top];
        sp--;
    }
    for (int i = 0; i < count / 2; i++) {
        int t = order[i];
        order[i] = order[count - 1 - i];
        order[count - 1 - i] = t;
    }
    return count;
}

/* Predicate of block b: the OR of its incoming edges' predicates. */
static int incoming_predicate(converter *v, int parent, int b)
{
    const hls_block *blk = &v->k->blocks[b];
    int pred = -1;
    for (int p = 0; p < blk->npreds; p++) {
        const hls_block *from = &v->k->blocks[blk->preds[p]];
        for (int s = 0; s < from->nsucc; s++)
            if (from->succ[s] == b) {
                int e = v->edge_pred[blk->preds[p]][s];
                if (e < 0)
                    HLS_BUG("edge b%d -> b%d used before its predicate", blk->preds[p], b);
                pred = logic_or(v, parent, pred, e, blk->loc);
            }
    }
    return pred < 0 ? v->zero : pred;
}

/* Turns a phi of a block that is not a loop header into a chain of selects on the
 * incoming edges' predicates; the phi op itself becomes the last select. */
static void convert_phi(converter *v, int parent, int b, int id)
{
    hls_kernel *k = v->k; /* new ops may move k->ops: index it, keep no pointer */
    int n = k->ops[id].nin;
    hls_loc loc = k->ops[id].loc;
    int *preds = arena_alloc(&v->c->arena, (size_t)n * sizeof *preds);
    for (int e = 0; e < n; e++) {
        int from_id = k->ops[id].in_blocks[e];
        const hls_block *from = &k->blocks[from_id];
        preds[e] = -1;
        for (int s = 0; s < from->nsucc; s++)
            if (from->succ[s] == b)
                preds[e] = logic_or(v, parent, preds[e], v->edge_pred[from_id][s], loc);
    }
    int rest = k->ops[id].in_vals[n - 1];
    for (int e = n - 2; e >= 1; e--) {
        hls_op *sel = hls_ir_new_op(k, &v->c->arena, HOP_SELECT, k->ops[id].width);
        sel->nargs = 3;
        sel->args[0] = preds[e], sel->args[1] = k->ops[id].in_vals[e], sel->args[2] = rest;
        sel->loc = loc;
        place(v, parent, sel->id);
        rest = sel->id;
    }
    hls_op *phi = &k->ops[id];
    int first = phi->in_vals[0];
    phi->opc = HOP_SELECT;
    phi->nargs = 3;
    phi->args[0] = preds[0], phi->args[1] = first, phi->args[2] = rest;
    phi->nin = 0;
    place(v, parent, id);
}

/* Edge predicates of b's terminator. */
static void branch_predicates(converter *v, int parent, int b, int pred)
{
    hls_kernel *k = v->k;
    const hls_block *blk = &k->blocks[b];
    int *edge = v->edge_pred[b];
    switch (blk->term) {
    case HLS_TERM_RET:
        return;
    case HLS_TERM_BR:
        edge[0] = pred;
        return;
    case HLS_TERM_CONDBR:
        edge[0] = logic_and(v, parent, pred, blk->cond, blk->loc);
        edge[1] = logic_and(v, parent, pred, logic_not(v, parent, blk->cond, blk->loc), blk->loc);
        return;
    case HLS_TERM_SWITCH: {
        int any = -1;
        unsigned w = k->ops[blk->cond].width;
        for (int s = 1; s < blk->nsucc; s++) {
            int eq = new_op(v, parent, HOP_ICMP, 1, blk->cond,
                            constant(v, w, k->blocks[b].cases[s]), blk->loc);
            k->ops[eq].imm = LLVMIntEQ;
            edge[s] = logic_and(v, parent, pred, eq, blk->loc);
            any = logic_or(v, parent, any, eq, blk->loc);
        }
        edge[0] = logic_and(v, parent, pred,
                            any < 0 ? v->one : logic_not(v, parent, any, blk->loc), blk->loc);
        return;
    }
    }
}

static void convert_level(converter *v, int level, int parent);

static void convert_loop(converter *v, int l, int parent)
{
    hls_kernel *k = v->k;
    hls_loop *loop = &k->loops[l];
    v->current = -1; /* the loop ends the static region before it */
    hls_region *r = hls_ir_new_region(k, &v->c->arena, HLS_REGION_LOOP, parent);
    int rid = r->id;
    r->loop = l;
    hls_region *p = &k->regions[parent];
    hls_ir_push(&v->c->arena, &p->children, &p->nchildren, &p->capchildren, rid);

    /* The active flag: the preheader's edge predicate on entry, 1 on the back edge. */
    const hls_block *pre = &k->blocks[loop->preheader];
    int entry_pred = -1;
    for (int s = 0; s < pre->nsucc; s++)
        if (pre->succ[s] == loop->header)
            entry_pred = v->edge_pred[loop->preheader][s];
    hls_op *active = hls_ir_new_op(k, &v->c->arena, HOP_PHI, 1);
    active->nin = 2;
    active->in_vals = arena_alloc(&v->c->arena, 2 * sizeof(int));
    active->in_blocks = arena_alloc(&v->c->arena, 2 * sizeof(int));
    active->in_vals[0] = entry_pred, active->in_blocks[0] = loop->preheader;
    active->in_vals[1] = v->one, active->in_blocks[1] = loop->latch;
    active->loc = loop->loc;
    int nphis = 1;
    const hls_block *h = &k->blocks[loop->header];
    for (int i = 0; i < h->nops; i++)
        nphis += k->ops[h->ops[i]].opc == HOP_PHI;
    int *phis = arena_alloc(&v->c->arena, (size_t)nphis * sizeof *phis);
    phis[0] = active->id;
    nphis = 1;
    for (int i = 0; i < h->nops; i++)
        if (k->ops[h->ops[i]].opc == HOP_PHI)
            phis[nphis++] = h->ops[i];
    r = &k->regions[rid];
    r->phis = phis;
    r->nphis = nphis;
    v->block_pred[loop->header] = phis[0];

    convert_level(v, l, rid);
    if (!k->regions[rid].nchildren)
        place_empty(v, rid);

    const hls_block *latch = &k->blocks[loop->latch];
    for (int s = 0; s < latch->nsucc; s++)
        if (latch->succ[s] == loop->header)
            k->regions[rid].cont = v->edge_pred[loop->latch][s];
    v->current = -1; /* what follows the loop is a new static region */
}

static void convert_block(converter *v, int b, int level, int parent)
{
    hls_kernel *k = v->k;
    int is_header = level >= 0 && b == k->loops[level].header;
    int pred = b == 0 ? v->one : is_header ? v->block_pred[b] : incoming_predicate(v, parent, b);
    v->block_pred[b] = pred;
    hls_block *blk = &k->blocks[b];
    for (int i = 0; i < blk->nops; i++) {
        hls_op *op = &k->ops[blk->ops[i]];
        if (op->opc == HOP_PHI) {
            if (!is_header)
                convert_phi(v, parent, b, op->id);
            continue;
        }
        if (hls_ir_is_invariant(op))
            continue;
        if (op->opc == HOP_COLLECTIVE) { /* computed by the barrier unit just made */
            hls_region *r = &k->regions[k->nregions - 1];
            if (r->kind != HLS_REGION_BARRIER || r->nops != 1)
                HLS_BUG("work-group function %%%d without its barrier", op->id);
            hls_ir_push(&v->c->arena, &r->ops, &r->nops, &r->capops, op->id);
            op->region = r->id;
            continue;
        }
        if (op->opc == HOP_BARRIER) {
            /* A region of its own between static regions. Every work-item of the group
             * passes it, masked or not: a barrier is reached by all of a group or by
             * none (OpenCL leaves a divergent barrier undefined). */
            v->current = -1;
            hls_region *r = hls_ir_new_region(k, &v->c->arena, HLS_REGION_BARRIER, parent);
            hls_ir_push(&v->c->arena, &r->ops, &r->nops, &r->capops, op->id);
            op->region = r->id;
            hls_region *p = &k->regions[parent];
            hls_ir_push(&v->c->arena, &p->children, &p->nchildren, &p->capchildren, r->id);
            continue;
        }
        if (hls_ir_is_memory(op) && pred != v->one) {
            op->args[op->nargs++] = pred;
            op->has_pred = 1;
        }
        place(v, parent, op->id);
    }
    branch_predicates(v, parent, b, pred);
}

static void convert_level(converter *v, int level, int parent)
{
    hls_kernel *k = v->k;
    int entry = level < 0 ? 0 : k->loops[level].header;
    int *order = arena_alloc(&v->c->arena, (size_t)k->nblocks * sizeof *order);
    int n = topological(v, entry, level, order);
    for (int i = 0; i < n; i++) {
        int inner = child_loop(k, order[i], level);
        if (inner >= 0)
            convert_loop(v, inner, parent);
        else
            convert_block(v, order[i], level, parent);
    }
}

/* Loop header phis with the preheader's value first and the latch's second. */
static void order_phi_inputs(hls_kernel *k, const hls_region *r)
{
    const hls_loop *l = &k->loops[r->loop];
    for (int p = 1; p < r->nphis; p++) {
        hls_op *phi = &k->ops[r->phis[p]];
        if (phi->nin != 2)
            HLS_BUG("loop header phi %%%d has %d inputs", phi->id, phi->nin);
        if (phi->in_blocks[0] != l->preheader) {
            int v = phi->in_vals[0], b = phi->in_blocks[0];
            phi->in_vals[0] = phi->in_vals[1], phi->in_blocks[0] = phi->in_blocks[1];
            phi->in_vals[1] = v, phi->in_blocks[1] = b;
        }
    }
}

/* Replaces every use of a phi whose inputs are all one value by that value (the
 * LCSSA phis of single-exit loops), so no select is built for them. */
static void forward_trivial_phis(arena *a, hls_kernel *k)
{
    int *fwd = arena_alloc(a, (size_t)(k->nops + 1) * sizeof *fwd);
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        fwd[i] = i;
        if (op->opc != HOP_PHI)
            continue;
        int same = 1;
        for (int e = 1; e < op->nin; e++)
            same &= op->in_vals[e] == op->in_vals[0];
        if (same && op->in_vals[0] != i)
            fwd[i] = op->in_vals[0];
    }
    for (int i = 0; i < k->nops; i++) /* follow chains of trivial phis */
        while (fwd[fwd[i]] != fwd[i])
            fwd[i] = fwd[fwd[i]];
    for (int i = 0; i < k->nops; i++) {
        hls_op *op = &k->ops[i];
        for (int a = 0; a < op->nargs; a++)
            op->args[a] = fwd[op->args[a]];
        for (int e = 0; e < op->nin; e++)
            op->in_vals[e] = fwd[op->in_vals[e]];
    }
    for (int b = 0; b < k->nblocks; b++) {
        hls_block *blk = &k->blocks[b];
        if (blk->term == HLS_TERM_CONDBR || blk->term == HLS_TERM_SWITCH)
            blk->cond = fwd[blk->cond];
        int n = 0;
        for (int i = 0; i < blk->nops; i++)
            if (fwd[blk->ops[i]] == blk->ops[i])
                blk->ops[n++] = blk->ops[i];
        blk->nops = n;
    }
}

/* Work-item ids and sizes are read where the work-item enters: move them to the
 * start of the entry block (before anything, a barrier included) so that they travel
 * with the token like any other value. */
static void hoist_token_reads(hls_compile *c, hls_kernel *k)
{
    int *tokens = NULL, ntokens = 0, cap = 0;
    for (int b = 0; b < k->nblocks; b++) {
        hls_block *blk = &k->blocks[b];
        int n = 0;
        for (int i = 0; i < blk->nops; i++) {
            hls_op *op = &k->ops[blk->ops[i]];
            if (op->opc == HOP_TOKEN) {
                op->block = 0;
                hls_ir_push(&c->arena, &tokens, &ntokens, &cap, op->id);
            } else {
                blk->ops[n++] = blk->ops[i];
            }
        }
        blk->nops = n;
    }
    hls_block *entry = &k->blocks[0];
    if (!ntokens)
        return;
    int *ops = arena_alloc(&c->arena, (size_t)(ntokens + entry->nops + 1) * sizeof *ops);
    memcpy(ops, tokens, (size_t)ntokens * sizeof *ops);
    if (entry->nops)
        memcpy(ops + ntokens, entry->ops, (size_t)entry->nops * sizeof *ops);
    entry->ops = ops;
    entry->nops += ntokens;
    entry->capops = entry->nops;
}

/* Drops the operations nothing needs (a predicate of a block without stores, a value
 * only a removed phi read): live are stores, channel accesses (a read takes an
 * element away), each loop's decision to go round again,
 * and whatever those read, through phis too. */
static void remove_dead_ops(hls_compile *c, hls_kernel *k)
{
    char *live = arena_alloc(&c->arena, (size_t)k->nops + 1);
    int *work = arena_alloc(&c->arena, ((size_t)k->nops + 1) * sizeof *work);
    int n = 0;
    for (int i = 0; i < k->nops; i++)
        if (k->ops[i].opc == HOP_STORE || k->ops[i].opc == HOP_ATOMIC ||
            k->ops[i].opc == HOP_BARRIER || k->ops[i].chan >= 0)
            live[i] = 1, work[n++] = i;
    if (k->slot_op >= 0 && !live[k->slot_op]) /* the slot is freed as work-items retire */
        live[k->slot_op] = 1, work[n++] = k->slot_op;
    for (int r = 0; r < k->nregions; r++) {
        int cont = k->regions[r].cont;
        if (k->regions[r].kind == HLS_REGION_LOOP && !live[cont])
            live[cont] = 1, work[n++] = cont;
    }
    while (n) {
        const int *args;
        int na = hls_ir_operands(&k->ops[work[--n]], &args);
        for (int a = 0; a < na; a++)
            if (!live[args[a]])
                live[args[a]] = 1, work[n++] = args[a];
    }
    for (int r = 0; r < k->nregions; r++) {
        hls_region *reg = &k->regions[r];
        int kept = 0;
        for (int i = 0; i < reg->nops; i++)
            if (live[reg->ops[i]])
                reg->ops[kept++] = reg->ops[i];
        reg->nops = kept;
        if (reg->kind != HLS_REGION_LOOP)
            continue;
        kept = 1; /* the active flag stays first */
        for (int i = 1; i < reg->nphis; i++)
            if (live[reg->phis[i]])
                reg->phis[kept++] = reg->phis[i];
        reg->nphis = kept;
    }
    /* load-store units and local-memory ports of the accesses that remain, numbered
     * again; a memory keeps no more banks than it now has ports */
    k->nlsus = 0;
    for (int i = 0; i < k->nlocals; i++)
        k->locals[i].nports = 0;
    for (int i = 0; i < k->nops; i++) {
        hls_op *op = &k->ops[i];
        if (op->lsu >= 0)
            op->lsu = live[i] ? k->nlsus++ : -1;
        if (op->lmem >= 0 && op->lport >= 0)
            op->lport = live[i] ? k->locals[op->lmem].nports++ : -1;
    }
    for (int i = 0; i < k->nlocals; i++) {
        hls_local *m = &k->locals[i];
        int banks = 1;
        while (banks < m->nports && banks < m->banks)
            banks *= 2;
        m->banks = banks;
    }
}

/* 1 when op's value is the same for every work-item of a group, given its operands'
 * (by nature: work-group ids and sizes, reductions and broadcasts; loads are not
 * assumed to be). */
static int uniform_by_nature(const hls_op *op)
{
    switch (op->opc) {
    case HOP_TOKEN:
        return op->imm == HLS_TOK_GROUP_ID || op->imm == HLS_TOK_GROUP_SIZE ||
               op->imm == HLS_TOK_SLOT || op->imm == HLS_TOK_GROUP_LINEAR_SIZE;
    case HOP_LOAD: case HOP_ATOMIC: case HOP_CHAN_READ: case HOP_CHAN_WRITE:
        return 0;
    default:
        return 1;
    }
}

/* 1 when every branch of loop l that may leave it or go round again has a uniform
 * condition: the work-items of a group go round it equally often. */
static int exits_uniformly(const hls_kernel *k, int l, const char *uniform)
{
    for (int b = 0; b < k->nblocks; b++) {
        const hls_block *blk = &k->blocks[b];
        if (blk->nsucc < 2 || !in_loop(k, b, l) || uniform[blk->cond])
            continue;
        if (b == k->loops[l].latch)
            return 0;
        for (int s = 0; s < blk->nsucc; s++)
            if (!in_loop(k, blk->succ[s], l))
                return 0;
    }
    return 1;
}

/* 1 for each op whose value is the same for every work-item of a group: by nature
 * (uniform_by_nature) with uniform operands; a work-group function unless a scan;
 * and a loop's header phi only while every decision to leave the loop or go round
 * again is (else work-items leave it after different iterations, holding different
 * values).
 * On the region tree (after if-conversion) a value merged after a branch is a select
 * on the branch's predicates, so control that differs between work-items makes it
 * differ too. Used for the barriers' check here and the ports' sharing (localbanks.c). */
char *hls_uniform_values(arena *a, const hls_kernel *k)
{
    char *uniform = arena_alloc(a, (size_t)k->nops + 1);
    memset(uniform, 1, (size_t)k->nops);
    for (int changed = 1; changed;) { /* phis may read values defined later */
        changed = 0;
        for (int i = 0; i < k->nops; i++) {
            const hls_op *op = &k->ops[i];
            if (!uniform[i])
                continue;
            int u = uniform_by_nature(op);
            if (op->opc == HOP_COLLECTIVE) {
                u = HLS_COLL_KIND(op->imm) != HLS_COLL_SCAN_INCLUSIVE &&
                    HLS_COLL_KIND(op->imm) != HLS_COLL_SCAN_EXCLUSIVE;
            } else {
                const int *args;
                int n = hls_ir_operands(op, &args);
                for (int j = 0; j < n; j++)
                    u &= uniform[args[j]];
            }
            if (!u)
                uniform[i] = 0, changed = 1;
        }
        for (int r = 0; r < k->nregions; r++) {
            const hls_region *reg = &k->regions[r];
            if (reg->kind != HLS_REGION_LOOP || exits_uniformly(k, reg->loop, uniform))
                continue;
            for (int i = 0; i < reg->nphis; i++)
                if (uniform[reg->phis[i]])
                    uniform[reg->phis[i]] = 0, changed = 1;
        }
    }
    return uniform;
}

/* Post-dominator sets: pdom[b * words ...] holds the blocks on every path from b to
 * the kernel's end (b included); a block without successors ends the kernel. */
static uint64_t *post_dominators(converter *v, int words)
{
    const hls_kernel *k = v->k;
    int n = k->nblocks;
    uint64_t *pdom = arena_alloc(&v->c->arena, (size_t)n * (size_t)words * sizeof *pdom);
    for (int b = 0; b < n; b++)
        for (int w = 0; w < words; w++)
            pdom[(size_t)b * (size_t)words + (size_t)w] = ~0ull;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = n - 1; i >= 0; i--) {
            int b = k->rpo[i];
            uint64_t *set = pdom + (size_t)b * (size_t)words;
            for (int w = 0; w < words; w++) {
                uint64_t x = k->blocks[b].nsucc ? ~0ull : 0;
                for (int s = 0; s < k->blocks[b].nsucc; s++)
                    x &= pdom[(size_t)k->blocks[b].succ[s] * (size_t)words + (size_t)w];
                if (w == b / 64)
                    x |= 1ull << (b % 64);
                changed |= x != set[w];
                set[w] = x;
            }
        }
    }
    return pdom;
}

/* Warns at each barrier that work-items of one group may reach a different number of
 * times: its block is control-dependent on a branch (a loop's latch included) whose
 * condition may differ between them. OpenCL leaves that undefined; in hardware the
 * group waits forever. */
static void check_barriers(converter *v)
{
    hls_kernel *k = v->k;
    int barriers = 0;
    for (int i = 0; i < k->nops; i++)
        barriers |= k->ops[i].opc == HOP_BARRIER;
    if (!barriers)
        return;
    const char *uniform = hls_uniform_values(&v->c->arena, k);
    int words = (k->nblocks + 63) / 64;
    const uint64_t *pdom = post_dominators(v, words);
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        if (op->opc != HOP_BARRIER || op->block < 0)
            continue;
        int b = op->block, ok = 1;
#define PDOM(x, y) ((pdom[(size_t)(x) * (size_t)words + (size_t)(y) / 64] >> ((y) % 64)) & 1)
        for (int x = 0; x < k->nblocks && ok; x++) {
            const hls_block *blk = &k->blocks[x];
            if (blk->nsucc < 2 || uniform[blk->cond] || (PDOM(x, b) && x != b))
                continue; /* not a divergent branch that decides whether b runs */
            for (int s = 0; s < blk->nsucc; s++)
                ok &= !PDOM(blk->succ[s], b);
        }
#undef PDOM
        if (!ok)
            hls_warning(&v->c->diag, op->loc, "work-items of a group may reach this barrier a "
                        "different number of times (a branch or loop around it depends on "
                        "the work-item); OpenCL leaves that undefined and the work-group would "
                        "wait forever");
    }
}

static void convert_kernel(hls_compile *c, hls_kernel *k)
{
    hoist_token_reads(c, k);
    forward_trivial_phis(&c->arena, k);
    converter v = {.c = c, .k = k, .current = -1};
    v.one = constant(&v, 1, 1);
    v.zero = constant(&v, 1, 0);
    v.block_pred = arena_alloc(&c->arena, (size_t)k->nblocks * sizeof *v.block_pred);
    v.edge_pred = arena_alloc(&c->arena, (size_t)k->nblocks * sizeof *v.edge_pred);
    for (int b = 0; b < k->nblocks; b++) {
        v.block_pred[b] = -1;
        v.edge_pred[b] = arena_alloc(&c->arena, (size_t)(k->blocks[b].nsucc + 1) * sizeof(int));
        for (int s = 0; s < k->blocks[b].nsucc; s++)
            v.edge_pred[b][s] = -1;
    }
    hls_ir_new_region(k, &c->arena, HLS_REGION_SEQ, -1);
    place_empty(&v, 0); /* the body starts with a static region: the work-item enters it */
    convert_level(&v, -1, 0);
    for (int r = 0; r < k->nregions; r++)
        if (k->regions[r].kind == HLS_REGION_LOOP)
            order_phi_inputs(k, &k->regions[r]);
    check_barriers(&v);
    remove_dead_ops(c, k);

    hls_liveness(c, k);
}

int hls_ifconvert(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++)
        convert_kernel(c, c->program->kernels[i]);
    return HLS_OK;
}
