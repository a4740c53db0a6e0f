/* Loop pipelining: in a kernel written in the single work-item style, iterations of
 * one work-item's loop overlap. Such a loop becomes an NDRange of iterations: a
 * generator issues an iteration token every cycle its first region takes one, the
 * body's regions (static regions and memory nodes, which keep tokens in order) run
 * them as they run work-items, and the end drops every iteration but the one that
 * leaves, which carries the loop's results on. What goes from one iteration to the
 * next becomes a register of one static region (HOP_RECUR): the first iteration reads
 * the value from before the loop, every other one the value its predecessor computed
 * there; the region admits a new iteration only once its predecessor has gone as many
 * stages as computing that value takes (schedule.c: the region's II). The exit test of
 * iteration k is known some stages after iteration k + 1 has started: the generator
 * runs ahead, and HOP_ALIVE (a register of the exits seen, in the region that computes
 * the test) masks every memory access after it of the iterations issued past the exit,
 * so they change nothing and are dropped. When the test waits for a load (a search,
 * `while (a[i] != key)`), the loads before it run ahead too (speculative, spec_alive):
 * they may read past the end of a buffer, which changes nothing; clhls_lsu_load tells
 * the simulator's checks so. Their stores and atomics move after the test
 * (defer_side_effects), where alive masks them. Accesses of different iterations that may touch the same
 * bytes (memorder.c's test across iterations: restrict, separate memories, addresses
 * of the induction variables that never meet; those the loop's #pragma ivdep covers
 * never do) make the memory nodes from the first of them to the last a window that
 * takes one iteration at a time. Loops are taken innermost first: a loop holding
 * pipelined loops is pipelined like any other, its iterations the inner loop's
 * work-items, once its exit test is moved before them (hoist_before_inner); its
 * iterations issued past its exit enter the inner loops inactive. An innermost loop
 * whose II a recurrence sets may take several work-items (outer iterations) in turns,
 * an iteration of each in a round (interleaving): its generator keeps one per lane, and
 * its recurrences and exit register are kept per lane (schedule.c picks the lanes).
 * With relaxed math a carried float sum becomes partial sums (partial_sums). Otherwise
 * a loop keeps going round as a whole, and `serial` says why: a barrier in it, an
 * inner loop that is serial or before its exit test, an exit other than its end, a
 * store or atomic before an exit test that waits for memory that cannot move after
 * it, a value carried through memory, an inner loop's access that may meet one of
 * another outer iteration, or #pragma disable_loop_pipelining. The pragmas of an
 * NDRange kernel's loops are warned about: nothing there is pipelined. */
#include <stdio.h>
#include <string.h>

#include "passes.h"

/* Position of value id among loop r's header phis, -1 when not one of them. */
static int phi_index(const hls_region *r, int id)
{
    for (int p = 0; p < r->nphis; p++)
        if (r->phis[p] == id)
            return p;
    return -1;
}

/* Position of region id among loop r's children, -1 when not one of them. */
static int child_position(const hls_region *r, int id)
{
    for (int c = 0; c < r->nchildren; c++)
        if (r->children[c] == id)
            return c;
    return -1;
}

static const char *where(hls_compile *c, const hls_op *op)
{
    return arena_printf(&c->arena, "%s:%u", op->loc.file ? op->loc.file : c->source_name,
                        op->loc.line);
}

/* Whether kernel k's work-groups are of one work-item (reqd_work_group_size(1, 1, 1)). */
static int groups_of_one(const hls_kernel *k)
{
    return k->reqd_wg_size[0] == 1 && k->reqd_wg_size[1] == 1 && k->reqd_wg_size[2] == 1;
}

/* A single work-item kernel: it reads no work-item id, or its work-groups are of one. */
static int single_work_item(const hls_kernel *k)
{
    if (groups_of_one(k))
        return 1;
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        if (op->opc == HOP_TOKEN && op->imm != HLS_TOK_SLOT && op->imm != HLS_TOK_GROUP_SIZE &&
            op->imm != HLS_TOK_GROUP_LINEAR_SIZE)
            return 0;
    }
    return 1;
}

/* Why loop region r may not be pipelined (structure and exits), or NULL. */
static const char *structure(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    const hls_loop *l = &k->loops[r->loop];
    for (int i = 0; i < r->nchildren; i++) {
        const hls_region *ch = &k->regions[r->children[i]];
        if (ch->kind == HLS_REGION_LOOP && !ch->pipelined)
            return arena_printf(&c->arena, "it holds the loop at %s, which runs one "
                                "iteration at a time",
                                where(c, &(hls_op){.loc = k->loops[ch->loop].loc}));
        if (ch->kind == HLS_REGION_BARRIER)
            return arena_printf(&c->arena, "it holds the barrier at %s",
                                where(c, &k->ops[ch->ops[0]]));
    }
    for (int b = 0; b < k->nblocks; b++) {
        if (k->blocks[b].loop != r->loop || b == l->latch)
            continue;
        for (int s = 0; s < k->blocks[b].nsucc; s++)
            if (!hls_ir_in_loop(k, k->blocks[b].succ[s], r->loop))
                return arena_printf(&c->arena, "it may leave at %s besides its end",
                                    where(c, &(hls_op){.loc = k->blocks[b].loc}));
    }
    const hls_block *latch = &k->blocks[l->latch];
    if (latch->term != HLS_TERM_CONDBR)
        return "its end always goes round again";
    const hls_op *test = &k->ops[latch->cond];
    if (test->opc == HOP_PHI)
        return arena_printf(&c->arena, "whether it goes round again (%s) is decided by the "
                            "iteration before", where(c, &(hls_op){.loc = latch->loc}));
    if (!hls_ir_is_invariant(test) && k->regions[test->region].kind == HLS_REGION_MEMORY)
        return arena_printf(&c->arena, "whether it goes round again (%s) is the answer of the "
                            "%s at %s", where(c, &(hls_op){.loc = latch->loc}),
                            hls_ir_opcode_name(test->opc), where(c, test));
    /* iterations are issued before the test of the one before is known: no inner loop
     * may come before the test */
    int at = hls_ir_is_invariant(test) ? 0 : child_position(r, test->region);
    for (int x = 0; x < at; x++) {
        const hls_region *node = &k->regions[r->children[x]];
        if (node->kind == HLS_REGION_LOOP)
            return arena_printf(&c->arena, "whether it goes round again (%s) is known only "
                                "after the loop at %s", where(c, &(hls_op){.loc = latch->loc}),
                                where(c, &(hls_op){.loc = k->loops[node->loop].loc}));
    }
    return NULL; /* stores and atomics before the test move after it (defer_side_effects) */
}

/* 1 when the loop's #pragma ivdep covers both accesses: the programmer says that
 * accesses of different iterations never meet. */
static int ivdep_covers(const hls_kernel *k, const hls_region *r, const hls_op *a,
                        const hls_op *b)
{
    int n = k->blocks[k->loops[r->loop].latch].pragmas.ivdep;
    return n && (a->ivdep >> (n - 1) & b->ivdep >> (n - 1) & 1);
}

/* The kernel argument access op's address is an offset of, -1 when not one alone. */
static int buffer_of(const hls_kernel *k, const hls_op *op)
{
    hls_form f;
    hls_form_of(k, op->args[0], &f);
    int arg = -1;
    for (int i = 0; i < f.nterms; i++)
        if (f.coef[i] && k->ops[f.atom[i]].opc == HOP_ARG && k->ops[f.atom[i]].width == 64)
            arg = arg < 0 ? k->ops[f.atom[i]].arg : -2;
    return arg < 0 ? -1 : arg;
}

/* Appends the memory accesses of region r and the regions inside it to access[*n]. */
static void collect_accesses(const hls_kernel *k, const hls_region *r, int *access, int *n)
{
    for (int i = 0; r->kind == HLS_REGION_MEMORY && i < r->nops; i++)
        access[(*n)++] = r->ops[i];
    for (int c = 0; c < r->nchildren; c++)
        collect_accesses(k, &k->regions[r->children[c]], access, n);
}

/* Why two accesses of different iterations may meet where one iteration at a time
 * cannot keep them apart (an inner loop's), or NULL; accesses of this loop's memory
 * nodes that may meet make their nodes and those between a window (r->window). */
static const char *memory_dependence(hls_compile *c, const hls_kernel *k, hls_region *r)
{
    int64_t *step = arena_alloc(&c->arena, (size_t)k->nops * sizeof *step);
    for (int p = 1; p < r->nphis; p++) {
        const hls_op *phi = &k->ops[r->phis[p]];
        const hls_op *next = &k->ops[phi->in_vals[1]];
        int64_t s = 0;
        if ((next->opc == HOP_ADD || next->opc == HOP_SUB) && next->args[0] == phi->id &&
            k->ops[next->args[1]].opc == HOP_CONST && phi->width <= 64)
            s = (int64_t)k->ops[next->args[1]].imm;
        if (s && phi->width < 64) /* sign-extend the constant of the phi's width */
            s = (int64_t)((uint64_t)s << (64 - phi->width)) >> (64 - phi->width);
        if (next->opc == HOP_SUB)
            s = -s;
        step[phi->id] = s;
    }
    int n = 0, *access = arena_alloc(&c->arena, (size_t)k->nops * sizeof *access);
    int first = 0, last = 0; /* the window's child positions */
    collect_accesses(k, r, access, &n);
    r->window = NULL;
    for (int x = 0; x < n; x++) {
        const hls_op *a = &k->ops[access[x]];
        if (a->opc == HOP_LOAD)
            continue;
        for (int y = 0; y < n; y++) {
            const hls_op *b = &k->ops[access[y]];
            if (a == b || ivdep_covers(k, r, a, b) || !hls_may_alias_across(k, r->loop, a, b, step))
                continue; /* one unit keeps its own order */
            const char *why =
                b->opc == HOP_LOAD
                    ? arena_printf(&c->arena, "the load at %s may read what the %s at %s wrote "
                                   "in an earlier iteration%s", where(c, b),
                                   hls_ir_opcode_name(a->opc), where(c, a),
                                   buffer_of(k, a) >= 0 && buffer_of(k, a) == buffer_of(k, b)
                                       ? "" : " (restrict buffers are never the same memory)")
                    : arena_printf(&c->arena, "the %s at %s and the %s at %s may touch the "
                                   "same bytes in different iterations",
                                   hls_ir_opcode_name(a->opc), where(c, a),
                                   hls_ir_opcode_name(b->opc), where(c, b));
            /* both in this loop's memory nodes: one iteration at a time between them */
            int pa = child_position(r, a->region), pb = child_position(r, b->region);
            if (pa < 0 || pb < 0)
                return why; /* an inner loop's */
            if (!r->window) {
                r->window = why;
                first = pa, last = pa;
            }
            first = pa < first ? pa : first, first = pb < first ? pb : first;
            last = pa > last ? pa : last, last = pb > last ? pb : last;
        }
    }
    if (r->window)
        r->window_first = r->children[first], r->window_last = r->children[last];
    return NULL;
}

/* Whether an op of region ch or of the regions inside it reads value id, or a value
 * marked in `set` when set is not NULL (an inner loop reads a value as the initial
 * value of its header phis, or in its body). */
static int reads(const hls_kernel *k, const hls_region *ch, int id, const char *set)
{
    for (int i = 0; i < ch->nops; i++) {
        const int *args;
        int n = hls_ir_operands(&k->ops[ch->ops[i]], &args);
        for (int a = 0; a < n; a++)
            if (args[a] == id || (set && set[args[a]]))
                return 1;
    }
    for (int p = 0; ch->kind == HLS_REGION_LOOP && p < ch->nphis; p++) {
        int init = k->ops[ch->phis[p]].opc == HOP_PHI ? k->ops[ch->phis[p]].in_vals[0] : -1;
        if (init >= 0 && (init == id || (set && set[init])))
            return 1;
    }
    for (int c = 0; c < ch->nchildren; c++)
        if (reads(k, &k->regions[ch->children[c]], id, set))
            return 1;
    return 0;
}

/* Position of the first child of r that reads value id, r->nchildren when none. */
static int first_reader(const hls_kernel *k, const hls_region *r, int id)
{
    for (int c = 0; c < r->nchildren; c++)
        if (reads(k, &k->regions[r->children[c]], id, NULL))
            return c;
    return r->nchildren;
}

/* Position of the child of r that is region id or holds it, -1 when none. */
static int child_holding(const hls_kernel *k, const hls_region *r, int id)
{
    while (id >= 0 && k->regions[id].parent != r->id)
        id = k->regions[id].parent;
    return id < 0 ? -1 : child_position(r, id);
}

/* The first child position where value id exists (0 for values from outside the
 * body; a memory node's answer, or a value of an inner loop, after it). */
static int defined_from(const hls_kernel *k, const hls_region *r, int id)
{
    const hls_op *op = &k->ops[id];
    int at = hls_ir_is_invariant(op) || op->region < 0 ? -1 : child_holding(k, r, op->region);
    if (at < 0)
        return 0;
    return k->regions[r->children[at]].kind == HLS_REGION_STATIC ? at : at + 1;
}

static int find(int *group, int i)
{
    while (group[i] != i)
        i = group[i] = group[group[i]];
    return i;
}

/* Inserts an empty region of `kind` into loop r's body at position at. */
static int insert_region(hls_compile *c, hls_kernel *k, int loop_region, int at,
                         hls_region_kind kind)
{
    hls_region *s = hls_ir_new_region(k, &c->arena, kind, loop_region);
    int id = s->id;
    hls_region *r = &k->regions[loop_region];
    hls_ir_push(&c->arena, &r->children, &r->nchildren, &r->capchildren, id);
    for (int j = r->nchildren - 1; j > at; j--)
        r->children[j] = r->children[j - 1];
    r->children[at] = id;
    return id;
}

/* Moves the computations that read the values of group p (phis[q] with find(group,
 * q) == p) and sit before child position `at` to a static region at `at`: ASAP
 * placement put them where their other operands were. Returns NULL, or why they cannot
 * move (a memory access, or the exit test, needs them there). */
static const char *sink_readers(hls_compile *c, hls_kernel *k, int rid, int *group, int p, int at)
{
    hls_region *r = &k->regions[rid];
    char *moved = arena_alloc(&c->arena, (size_t)k->nops);
    for (int q = 1; q < r->nphis; q++)
        if (find(group, q) == p)
            moved[r->phis[q]] = 1;
    int test = k->blocks[k->loops[r->loop].latch].cond;
    for (int x = 0; x < at; x++) {
        const hls_region *ch = &k->regions[r->children[x]];
        if (ch->kind == HLS_REGION_LOOP && reads(k, ch, -1, moved))
            return arena_printf(&c->arena, "a value it carries to the next iteration (%s) "
                                "is needed by the loop at %s before it exists",
                                where(c, &k->ops[r->phis[p]]),
                                where(c, &(hls_op){.loc = k->loops[ch->loop].loc}));
        for (int i = 0; i < ch->nops; i++) {
            const hls_op *op = &k->ops[ch->ops[i]];
            const int *args;
            int na = hls_ir_operands(op, &args), reads = 0;
            for (int a = 0; a < na; a++)
                reads |= moved[args[a]];
            if (!reads)
                continue;
            if (ch->kind != HLS_REGION_STATIC || op->id == test || op->opc == HOP_RECUR ||
                op->opc == HOP_ALIVE)
                return arena_printf(&c->arena, "a value it carries to the next iteration "
                                    "(%s) is needed at %s before memory answers what it "
                                    "depends on", where(c, &k->ops[r->phis[p]]), where(c, op));
            moved[op->id] = 1;
        }
    }
    if (at >= r->nchildren || k->regions[r->children[at]].kind != HLS_REGION_STATIC)
        insert_region(c, k, rid, at, HLS_REGION_STATIC);
    r = &k->regions[rid];
    hls_region *to = &k->regions[r->children[at]];
    int nmove = 0;
    for (int x = 0; x < at; x++)
        for (int i = 0; i < k->regions[r->children[x]].nops; i++)
            nmove += moved[k->regions[r->children[x]].ops[i]];
    int *ops = arena_alloc(&c->arena, (size_t)(nmove + to->nops + 1) * sizeof *ops), m = 0;
    for (int x = 0; x < at; x++) {
        hls_region *ch = &k->regions[r->children[x]];
        int kept = 0;
        for (int i = 0; i < ch->nops; i++) {
            int id = ch->ops[i];
            if (moved[id]) {
                ops[m++] = id;
                k->ops[id].region = to->id;
            } else {
                ch->ops[kept++] = id;
            }
        }
        ch->nops = kept;
    }
    for (int i = 0; i < to->nops; i++)
        ops[m++] = to->ops[i];
    to->ops = ops;
    to->nops = to->capops = m;
    hls_liveness(c, k);
    return NULL;
}

/* The stores and atomics of loop rid before its exit test, when the test waits for
 * memory: iterations issued past the exit must not change memory, so they move to
 * memory nodes right after the region that computes the test, where `alive` masks
 * them (one new node per node they leave, in order). They may not move when what stays
 * before the test reads what they answer, or when an access they would pass may touch
 * the same bytes. Returns NULL, or why they cannot move. */
static const char *defer_side_effects(hls_compile *c, hls_kernel *k, int rid)
{
    hls_region *r = &k->regions[rid];
    const hls_block *latch = &k->blocks[k->loops[r->loop].latch];
    const hls_op *test = &k->ops[latch->cond];
    int at = hls_ir_is_invariant(test) ? 0 : child_position(r, test->region);
    char *moving = arena_alloc(&c->arena, (size_t)k->nops);
    int nmoving = 0;
    for (int x = 0; x < at; x++) {
        const hls_region *node = &k->regions[r->children[x]];
        for (int i = 0; node->kind == HLS_REGION_MEMORY && i < node->nops; i++)
            if (k->ops[node->ops[i]].opc != HOP_LOAD)
                moving[node->ops[i]] = 1, nmoving++;
    }
    if (!nmoving)
        return NULL;
    for (int x = 0; x <= at; x++) { /* what stays up to the test */
        const hls_region *ch = &k->regions[r->children[x]];
        const char *why = NULL;
        const hls_op *side = NULL;
        for (int i = 0; !why && i < ch->nops; i++) {
            const hls_op *b = &k->ops[ch->ops[i]];
            const int *args;
            int na = hls_ir_operands(b, &args);
            for (int a = 0; !why && !moving[b->id] && a < na; a++)
                if (moving[args[a]])
                    side = &k->ops[args[a]], why = "what comes before the test needs its answer";
            for (int y = 0; !why && !moving[b->id] && hls_ir_is_memory(b) && y <= x; y++) {
                const hls_region *before = &k->regions[r->children[y]];
                for (int j = 0; !why && before->kind == HLS_REGION_MEMORY && j < before->nops;
                     j++)
                    if (moving[before->ops[j]] && (y < x || j < i) &&
                        hls_may_alias(k, &k->ops[before->ops[j]], b))
                        side = &k->ops[before->ops[j]],
                        why = arena_printf(&c->arena, "it may touch the bytes the %s at %s "
                                           "reads", hls_ir_opcode_name(b->opc), where(c, b));
            }
        }
        if (why)
            return arena_printf(&c->arena, "whether it goes round again (%s) waits for memory, "
                                "and the %s at %s before it cannot wait for the test: %s",
                                where(c, &(hls_op){.loc = latch->loc}),
                                hls_ir_opcode_name(side->opc), where(c, side), why);
    }
    for (int x = at - 1; x >= 0; x--) { /* last first: each new node right after the test */
        hls_region *node = &k->regions[k->regions[rid].children[x]];
        int kept = 0, n = 0;
        int *moved = arena_alloc(&c->arena, (size_t)node->nops * sizeof *moved);
        for (int i = 0; node->kind == HLS_REGION_MEMORY && i < node->nops; i++) {
            if (moving[node->ops[i]])
                moved[n++] = node->ops[i];
            else
                node->ops[kept++] = node->ops[i];
        }
        if (!n)
            continue;
        node->nops = kept;
        int id = insert_region(c, k, rid, at + 1, HLS_REGION_MEMORY);
        hls_region *to = &k->regions[id];
        for (int i = 0; i < n; i++) {
            hls_ir_push(&c->arena, &to->ops, &to->nops, &to->capops, moved[i]);
            k->ops[moved[i]].region = id;
        }
        if (!kept) { /* the node left empty goes */
            hls_region *loop = &k->regions[rid];
            for (int j = x; j + 1 < loop->nchildren; j++)
                loop->children[j] = loop->children[j + 1];
            loop->nchildren--;
            at--;
        }
    }
    hls_liveness(c, k);
    return NULL;
}

/* Moves the computation of value `root` of loop rid (its exit test, or the next value
 * of a value it carries) before its first inner loop when it sits after it and needs
 * nothing that loop or memory answers: to the first static region where what it reads
 * exists. A nest's outer test (col < m) is then known as the outer iteration starts,
 * and the next one is issued while the inner loop runs; the next value of the
 * induction variable is ready before the accesses that read the variable. Nothing
 * moves when anything in the way is needed. */
static void hoist_before_inner(hls_compile *c, hls_kernel *k, int rid, int root)
{
    hls_region *r = &k->regions[rid];
    int inner = 0;
    while (inner < r->nchildren && k->regions[r->children[inner]].kind != HLS_REGION_LOOP)
        inner++;
    if (root < 0 || inner == r->nchildren || hls_ir_is_invariant(&k->ops[root]) ||
        k->ops[root].region < 0 || child_holding(k, r, k->ops[root].region) <= inner ||
        k->regions[k->ops[root].region].kind != HLS_REGION_STATIC)
        return;
    char *slice = arena_alloc(&c->arena, (size_t)k->nops);
    slice[root] = 1;
    int nslice = 1, target = 0; /* where every value the slice reads exists */
    for (int x = r->nchildren - 1; x > inner; x--) {
        const hls_region *ch = &k->regions[r->children[x]];
        for (int i = ch->nops - 1; ch->kind == HLS_REGION_STATIC && i >= 0; i--) {
            if (!slice[ch->ops[i]])
                continue;
            const int *args;
            int na = hls_ir_operands(&k->ops[ch->ops[i]], &args);
            for (int a = 0; a < na; a++) {
                const hls_op *d = &k->ops[args[a]];
                if (d->region < 0 && !hls_ir_is_invariant(d) && phi_index(r, d->id) < 0)
                    return; /* an inner loop's phi */
                int pos = hls_ir_is_invariant(d) || d->region < 0 ? -1
                                                                  : child_holding(k, r, d->region);
                if (pos < inner) { /* from before the loop, or before the inner loop */
                    int from = defined_from(k, r, d->id);
                    target = from > target ? from : target;
                    continue;
                }
                if (pos == inner || k->regions[r->children[pos]].kind != HLS_REGION_STATIC)
                    return; /* the inner loop's, or memory's */
                if (!slice[d->id])
                    slice[d->id] = 1, nslice++;
            }
        }
    }
    if (k->regions[r->children[target]].kind != HLS_REGION_STATIC)
        insert_region(c, k, rid, target, HLS_REGION_STATIC), inner++;
    r = &k->regions[rid];
    hls_region *to = &k->regions[r->children[target]];
    int *ops = arena_alloc(&c->arena, (size_t)(to->nops + nslice) * sizeof *ops), m = 0;
    for (int i = 0; i < to->nops; i++)
        ops[m++] = to->ops[i];
    for (int x = inner + 1; x < r->nchildren; x++) {
        hls_region *ch = &k->regions[r->children[x]];
        int kept = 0;
        for (int i = 0; i < ch->nops; i++) {
            int id = ch->ops[i];
            if (slice[id] && ch->kind == HLS_REGION_STATIC) {
                ops[m++] = id;
                k->ops[id].region = to->id;
            } else {
                ch->ops[kept++] = id;
            }
        }
        ch->nops = kept;
    }
    to->ops = ops;
    to->nops = to->capops = m;
    hls_liveness(c, k);
}

/* The static region of each loop-carried value (phis[1..]): values that feed each
 * other directly (a shift register) share one. It is the last static child between
 * where the values' next values exist and where the first of them is read (an empty
 * one is inserted where there is none). Returns NULL, or why there is no such place. */
static const char *place_recurrences(hls_compile *c, hls_kernel *k, int rid, int *home)
{
    hls_region *r = &k->regions[rid];
    int n = r->nphis;
    int *group = arena_alloc(&c->arena, (size_t)n * sizeof *group);
    int *lo = arena_alloc(&c->arena, (size_t)n * sizeof *lo);
    int *hi = arena_alloc(&c->arena, (size_t)n * sizeof *hi);
    for (int p = 0; p < n; p++)
        group[p] = p, lo[p] = 0, hi[p] = r->nchildren;
    for (int p = 1; p < n; p++)
        for (int q = 1; q < n; q++)
            if (k->ops[r->phis[p]].in_vals[1] == r->phis[q])
                group[find(group, p)] = find(group, q);
    for (int q = 1; q < n; q++) {
        const hls_op *phi = &k->ops[r->phis[q]];
        int p = find(group, q), reader = first_reader(k, r, phi->id);
        int from = defined_from(k, r, phi->in_vals[1]);
        if (phi->in_vals[1] == r->phis[0])
            return "the condition it was entered under goes round";
        hi[p] = reader < hi[p] ? reader : hi[p];
        lo[p] = from > lo[p] ? from : lo[p];
    }
    for (int p = 1; p < n; p++) {
        if (find(group, p) != p || lo[p] <= hi[p])
            continue;
        /* computations with the value placed before it exists move to where it does */
        const char *why = sink_readers(c, k, rid, group, p, lo[p]);
        if (why)
            return why;
        return place_recurrences(c, k, rid, home);
    }
    for (int p = 1; p < n; p++) {
        if (find(group, p) != p)
            continue;
        r = &k->regions[rid];
        int at = -1;
        for (int x = lo[p]; x <= hi[p] && x < r->nchildren; x++)
            if (k->regions[r->children[x]].kind == HLS_REGION_STATIC)
                at = x;
        if (at < 0) {
            at = lo[p];
            insert_region(c, k, rid, at, HLS_REGION_STATIC);
            for (int q = 1; q < n; q++) { /* the positions after it move on */
                lo[q] += lo[q] >= at;
                hi[q] += hi[q] >= at;
            }
            r = &k->regions[rid];
        }
        home[p] = r->children[at];
    }
    for (int q = 1; q < n; q++)
        home[q] = home[find(group, q)];
    return NULL;
}

/* Appends a new op of region `region` computing a `opc` b. */
static int new_op(hls_compile *c, hls_kernel *k, int region, hls_opcode opc, unsigned width,
                  int a, int b, hls_loc loc)
{
    hls_op *op = hls_ir_new_op(k, &c->arena, opc, width);
    op->nargs = b >= 0 ? 2 : 1;
    op->args[0] = a;
    op->args[1] = b;
    op->loc = loc;
    op->region = region;
    int id = op->id;
    hls_region *r = &k->regions[region];
    hls_ir_push(&c->arena, &r->ops, &r->nops, &r->capops, id);
    return id;
}

static int constant(hls_compile *c, hls_kernel *k, unsigned width, uint64_t value)
{
    hls_op *op = hls_ir_new_op(k, &c->arena, HOP_CONST, width);
    op->imm = value;
    return op->id;
}

/* The nearest static child of loop r before position x. */
static int static_before(const hls_kernel *k, const hls_region *r, int x)
{
    while (k->regions[r->children[--x]].kind != HLS_REGION_STATIC)
        ;
    return r->children[x];
}

/* Rewrites loop region rid as a pipelined loop (home: the static region of each
 * loop-carried value). */
static void pipeline_loop(hls_compile *c, hls_kernel *k, int rid, const int *home)
{
    /* the generator feeds a static region, and the end reads a token's `cont` */
    if (k->regions[k->regions[rid].children[0]].kind != HLS_REGION_STATIC)
        insert_region(c, k, rid, 0, HLS_REGION_STATIC);
    if (k->regions[k->regions[rid].children[k->regions[rid].nchildren - 1]].kind ==
        HLS_REGION_LOOP)
        insert_region(c, k, rid, k->regions[rid].nchildren, HLS_REGION_STATIC);
    hls_region *r = &k->regions[rid];
    const hls_loop *l = &k->loops[r->loop];
    int first_region = r->children[0], active = r->phis[0];
    /* the exit is decided where the latch's test is computed (after its loads) */
    const hls_block *latch = &k->blocks[l->latch];
    int test = latch->cond, test_region = first_region;
    if (!hls_ir_is_invariant(&k->ops[test]))
        test_region = k->ops[test].region;
    int at = child_position(r, test_region);
    hls_loc loc = l->loc;
    /* the first-iteration flag: 1 on entry, 0 on the back edge */
    hls_op *first = hls_ir_new_op(k, &c->arena, HOP_PHI, 1);
    first->nin = 2;
    first->in_vals = arena_alloc(&c->arena, 2 * sizeof(int));
    first->in_blocks = arena_alloc(&c->arena, 2 * sizeof(int));
    first->in_vals[0] = constant(c, k, 1, 1), first->in_blocks[0] = l->preheader;
    first->in_vals[1] = constant(c, k, 1, 0), first->in_blocks[1] = l->latch;
    first->loc = loc;
    int first_id = first->id;
    /* the lane: which of the work-items taking turns the iteration is of (generator) */
    int lane = -1;
    if (k->regions[rid].interleave) {
        hls_op *op = hls_ir_new_op(k, &c->arena, HOP_PHI, HLS_LANE_BITS);
        op->nin = 2;
        op->in_vals = arena_alloc(&c->arena, 2 * sizeof(int));
        op->in_blocks = arena_alloc(&c->arena, 2 * sizeof(int));
        op->in_vals[0] = op->in_vals[1] = constant(c, k, HLS_LANE_BITS, 0);
        op->in_blocks[0] = l->preheader, op->in_blocks[1] = l->latch;
        op->loc = loc;
        lane = op->id;
    }
    /* go round again: the latch's test, for an active work-item */
    if (latch->succ[0] != l->header)
        test = new_op(c, k, test_region, HOP_XOR, 1, test, constant(c, k, 1, 1), loc);
    k->regions[rid].exit_test = test;
    int cont = new_op(c, k, test_region, HOP_AND, 1, active, test, loc);
    int alive = new_op(c, k, test_region, HOP_ALIVE, 1, cont, first_id, loc);
    if (lane >= 0)
        k->ops[alive].args[k->ops[alive].nargs++] = lane;
    int dead = new_op(c, k, test_region, HOP_XOR, 1, alive, constant(c, k, 1, 1), loc);
    int stays = new_op(c, k, test_region, HOP_OR, 1, dead, cont, loc); /* not the exit */
    r = &k->regions[rid];
    r->cont = stays;
    /* loop-carried values: registers of their regions; the header phis left are the
     * active flag, the first-iteration flag and the lane */
    int *phis = arena_alloc(&c->arena, 3 * sizeof *phis), kept = 0;
    for (int p = 0; p < r->nphis; p++) {
        hls_op *phi = &k->ops[r->phis[p]];
        if (p == 0) {
            phis[kept++] = phi->id;
            continue;
        }
        int init = phi->in_vals[0], next = phi->in_vals[1];
        phi->opc = HOP_RECUR;
        phi->nin = 0;
        phi->nargs = lane >= 0 ? 4 : 3;
        phi->args[0] = init, phi->args[1] = next, phi->args[2] = first_id, phi->args[3] = lane;
        phi->region = home[p];
        hls_region *h = &k->regions[home[p]];
        hls_ir_push(&c->arena, &h->ops, &h->nops, &h->capops, phi->id);
        for (int i = h->nops - 1; i > 0; i--)
            h->ops[i] = h->ops[i - 1];
        h->ops[0] = phi->id;
    }
    phis[kept++] = first_id;
    if (lane >= 0)
        phis[kept++] = lane;
    r->phis = phis;
    r->nphis = kept;
    r->lane = lane;
    /* the loads before the exit test run ahead (structure() allows only loads there);
     * the accesses after it of iterations issued past the exit are masked */
    for (int x = 1; x < r->nchildren; x++) {
        r = &k->regions[rid];
        const hls_region *node = &k->regions[r->children[x]];
        if (node->kind == HLS_REGION_LOOP) { /* entered inactive: one pass, nothing done */
            int entry = k->ops[node->phis[0]].in_vals[0], in = node->id;
            int masked = new_op(c, k, static_before(k, &k->regions[rid], x), HOP_AND, 1, entry,
                                alive, loc);
            k->ops[k->regions[in].phis[0]].in_vals[0] = masked;
            continue;
        }
        if (node->kind != HLS_REGION_MEMORY)
            continue;
        if (x < at) {
            for (int i = 0; i < node->nops; i++) {
                hls_op *load = &k->ops[node->ops[i]];
                load->spec_alive = alive;
                k->regions[rid].speculative |= load->lsu >= 0; /* may leave its buffer */
            }
            continue;
        }
        int before = static_before(k, r, x);
        for (int i = 0; i < node->nops; i++) {
            hls_op *op = &k->ops[k->regions[r->children[x]].ops[i]];
            if (!op->has_pred) {
                op->has_pred = 1;
                op->args[op->nargs++] = alive;
                continue;
            }
            int pred = op->args[op->nargs - 1], id = op->id;
            int masked = new_op(c, k, before, HOP_AND, 1, pred, alive, op->loc);
            k->ops[id].args[k->ops[id].nargs - 1] = masked;
        }
    }
    k->regions[rid].pipelined = 1;
}

/* The pragmas of an NDRange kernel's loops, which are not pipelined, are warned about:
 * they change nothing there. */
static void ndrange_pragmas(hls_compile *c, const hls_kernel *k)
{
    for (int rid = 0; rid < k->nregions; rid++) {
        const hls_region *r = &k->regions[rid];
        if (r->kind != HLS_REGION_LOOP)
            continue;
        const hls_loop_pragmas *p = &k->blocks[k->loops[r->loop].latch].pragmas;
        static const struct { hls_pragma_kind kind; const char *name; } all[] = {
            {HLS_PRAGMA_IVDEP, "ivdep"}, {HLS_PRAGMA_II, "ii"},
            {HLS_PRAGMA_DISABLE_PIPELINING, "disable_loop_pipelining"},
            {HLS_PRAGMA_MAX_CONCURRENCY, "max_concurrency"},
            {HLS_PRAGMA_MAX_INTERLEAVING, "max_interleaving"},
            {HLS_PRAGMA_LOOP_COALESCE, "loop_coalesce"},
        };
        int asked[] = {p->ivdep, p->ii, p->no_pipelining, p->max_concurrency,
                       p->max_interleaving, p->coalesce};
        for (int i = 0; i < 6; i++) {
            if (!asked[i])
                continue;
            const hls_pragma *at = hls_loop_pragma(c, all[i].kind, p->start);
            hls_warning(&c->diag, at ? at->loc : k->loops[r->loop].loc,
                        "'%s' has no effect in kernel '%s': it reads work-item ids, so its "
                        "loops run iterations of different work-items instead of being "
                        "pipelined (single work-item kernels' loops are)",
                        at ? at->text : arena_printf(&c->arena, "#pragma %s", all[i].name),
                        k->name);
        }
    }
}

/* Why loop region r stays serial because a pragma says so, or NULL. */
static const char *pragma_serial(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    const hls_loop_pragmas *p = &k->blocks[k->loops[r->loop].latch].pragmas;
    if (!p->no_pipelining)
        return NULL;
    const hls_pragma *at = hls_loop_pragma(c, HLS_PRAGMA_DISABLE_PIPELINING, p->start);
    return arena_printf(&c->arena, "#pragma disable_loop_pipelining at %s",
                        where(c, &(hls_op){.loc = at ? at->loc : k->loops[r->loop].loc}));
}

/* Whether op (of the loop region rid's kernel) is inside that loop. */
static int inside(const hls_kernel *k, const hls_region *r, const hls_op *op)
{
    if (op->block >= 0)
        return hls_ir_in_loop(k, op->block, r->loop);
    return op->region >= 0 && child_holding(k, r, op->region) >= 0;
}

/* Readers of value id inside loop r (each reading op once). */
static int readers_inside(const hls_kernel *k, const hls_region *r, int id)
{
    int n = 0;
    for (int i = 0; i < k->nops; i++) {
        const int *args;
        int na = hls_ir_operands(&k->ops[i], &args), reads = 0;
        for (int a = 0; a < na; a++)
            reads |= args[a] == id;
        n += reads && (inside(k, r, &k->ops[i]) || phi_index(r, i) >= 0);
    }
    return n;
}

/* With -cl-fast-relaxed-math or -cl-unsafe-math-optimizations, a float sum carried
 * round loop rid (s = s + x or s - x, s and the new sum read by nothing else in the
 * loop) may be reassociated: it becomes as many partial sums as the adder has stages,
 * a shift register (s itself and new carried values, +0.0 on entry) which the
 * schedule carries at II 1, as a hand-written one is; after the loop, readers of the
 * sum get the partials added up. */
static void partial_sums(hls_compile *c, hls_kernel *k, int rid)
{
    int depth = (int)c->program->board->op_latency[BOARD_OP_FP_ADD];
    const hls_loop *l = &k->loops[k->regions[rid].loop];
    for (int p = 1; c->opts.reassociate && depth > 1 && p < k->regions[rid].nphis; p++) {
        const hls_region *r = &k->regions[rid];
        int phi = r->phis[p];
        const hls_op *s = &k->ops[phi];
        if (s->opc != HOP_PHI || s->nin != 2)
            continue;
        int e = s->in_blocks[1] == l->preheader; /* the entry's edge */
        int sum = s->in_vals[1 - e];
        const hls_op *add = &k->ops[sum];
        if (!((add->opc == HOP_FADD && (add->args[0] == phi) != (add->args[1] == phi)) ||
              (add->opc == HOP_FSUB && add->args[0] == phi && add->args[1] != phi)) ||
            readers_inside(k, r, phi) != 1 || readers_inside(k, r, sum) != 1)
            continue;
        /* part[0] is s; part[i].next = part[i + 1]; part[depth - 1].next = the sum */
        unsigned width = s->width;
        int region = add->region, zero = constant(c, k, width, 0);
        hls_loc loc = add->loc;
        int *parts = arena_alloc(&c->arena, (size_t)depth * sizeof *parts);
        parts[0] = phi;
        for (int i = 1; i < depth; i++) {
            hls_op *q = hls_ir_new_op(k, &c->arena, HOP_PHI, width);
            q->nin = 2;
            q->in_vals = arena_alloc(&c->arena, 2 * sizeof(int));
            q->in_blocks = arena_alloc(&c->arena, 2 * sizeof(int));
            q->in_blocks[0] = k->ops[phi].in_blocks[0], q->in_blocks[1] = k->ops[phi].in_blocks[1];
            q->in_vals[e] = zero;
            q->block = l->header;
            q->loc = k->ops[phi].loc;
            parts[i] = q->id;
        }
        for (int i = 0; i < depth; i++)
            k->ops[parts[i]].in_vals[1 - e] = i + 1 < depth ? parts[i + 1] : sum;
        int total = sum; /* what the loop's last iteration leaves in the partials */
        for (int i = 1; i < depth; i++)
            total = new_op(c, k, region, HOP_FADD, width, total, parts[i], loc);
        for (int i = 0; i < k->nops; i++) { /* the readers after the loop */
            hls_op *op = &k->ops[i];
            if (inside(k, &k->regions[rid], op) || phi_index(&k->regions[rid], i) >= 0)
                continue;
            int *args = op->opc == HOP_PHI ? op->in_vals : op->args;
            for (int a = 0; a < (op->opc == HOP_PHI ? op->nin : op->nargs); a++)
                if (args[a] == sum)
                    args[a] = total;
        }
        hls_region *w = &k->regions[rid];
        int *phis = arena_alloc(&c->arena, (size_t)(w->nphis + depth - 1) * sizeof *phis);
        memcpy(phis, w->phis, (size_t)w->nphis * sizeof *phis);
        memcpy(phis + w->nphis, parts + 1, (size_t)(depth - 1) * sizeof *phis);
        w->phis = phis;
        w->nphis += depth - 1;
    }
    hls_liveness(c, k);
}

/* Whether value id of pipelined loop r is its induction variable (a recurrence whose
 * next value adds a constant to it) or that variable's next value: the recurrence, else
 * -1. */
static int induction(const hls_kernel *k, const hls_region *r, int id)
{
    const hls_op *op = &k->ops[id];
    if (op->opc == HOP_ADD && k->ops[op->args[0]].opc == HOP_RECUR &&
        k->ops[op->args[0]].args[1] == id)
        op = &k->ops[op->args[0]]; /* the next value */
    if (op->opc != HOP_RECUR || op->region < 0 || child_holding(k, r, op->region) < 0)
        return -1;
    const hls_op *next = &k->ops[op->args[1]];
    return next->opc == HOP_ADD && next->args[0] == op->id &&
                   k->ops[next->args[1]].opc == HOP_CONST ? op->id : -1;
}

/* A counted loop (r->count_test): its exit test compares its induction variable, or
 * that variable's next value, with a value from before the loop, so its generator can
 * tell the last iteration as it issues it: the next work-item enters right after it,
 * and no iteration is issued past the exit. */
static void find_count(const hls_kernel *k, hls_region *r)
{
    const hls_op *t = &k->ops[r->exit_test];
    if (t->opc == HOP_XOR && k->ops[t->args[1]].opc == HOP_CONST) /* pipeline_loop's not */
        t = &k->ops[t->args[0]];
    if (r->speculative || t->opc != HOP_ICMP)
        return;
    for (int side = 0; side < 2; side++) {
        int iv = induction(k, r, t->args[side]);
        const hls_op *bound = &k->ops[t->args[1 - side]];
        if (iv >= 0 && (hls_ir_is_invariant(bound) || !inside(k, r, bound))) {
            r->count_test = t->id;
            r->count_iv = iv;
            return;
        }
    }
}

/* Whether every iteration of the loop around loop r that enters r goes round it as
 * many times: r's exit test reads only values from outside that loop, and values r's
 * iterations compute from such values without memory, starting from such values. */
static int fixed_trips(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    const hls_region *outer = &k->regions[r->parent];
    const hls_loop *l = &k->loops[r->loop];
    char *seen = arena_alloc(&c->arena, (size_t)k->nops);
    int *work = arena_alloc(&c->arena, (size_t)k->nops * sizeof *work), n = 0;
    work[n++] = k->blocks[l->latch].cond;
    seen[work[0]] = 1;
    while (n) {
        const hls_op *op = &k->ops[work[--n]];
        int p = phi_index(r, op->id);
        if (hls_ir_is_invariant(op) || !inside(k, outer, op) || p == 0)
            continue; /* from outside the nest, or the active flag */
        if ((p < 0 && !inside(k, r, op)) || hls_ir_is_memory(op))
            return 0; /* the outer loop's, or memory's */
        const int *args;
        int na = hls_ir_operands(op, &args);
        if (p > 0) { /* r's own value: it starts from outside, goes on from the next */
            int e = op->in_blocks[1] == l->preheader; /* the entry's edge */
            const hls_op *init = &k->ops[op->in_vals[e]];
            if (!hls_ir_is_invariant(init) && inside(k, outer, init))
                return 0;
            args = &op->in_vals[1 - e], na = 1;
        }
        for (int a = 0; a < na; a++)
            if (!seen[args[a]])
                seen[args[a]] = 1, work[n++] = args[a];
    }
    return 1;
}

/* How many work-items may take turns in loop region r, an iteration of each in a
 * round (0: one at a time). Those of a loop inside a loop are the outer loop's
 * iterations; they take turns when each goes round r as many times, so they leave in
 * the order they came (settle_interleaving checks the outer loop). At the top of a
 * kernel whose work-groups are of one, they are work-items, which may leave in any
 * order. #pragma ii N asks for one at a time; #pragma max_interleaving N bounds them. */
static int interleaving(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    const hls_loop_pragmas *p = &k->blocks[k->loops[r->loop].latch].pragmas;
    int most = p->max_interleaving > 1 ? p->max_interleaving - 1 : HLS_MAX_LANES;
    if (p->ii || p->max_interleaving == 1 || r->window)
        return 0;
    for (int i = 0; i < r->nchildren; i++)
        if (k->regions[r->children[i]].kind == HLS_REGION_LOOP)
            return 0;
    if (k->regions[r->parent].kind == HLS_REGION_LOOP ? !fixed_trips(c, k, r)
                                                       : !groups_of_one(k))
        return 0;
    return most < HLS_MAX_LANES ? most : HLS_MAX_LANES;
}

/* Work-items of an outer loop's iterations take turns in a loop only when the outer
 * loop is pipelined, does not speculate, and nothing after the inner loop carries a
 * value to its next iteration or learns its exit (HOP_RECUR, HOP_ALIVE): iterations
 * past the outer exit leave the inner loop at once, ahead of those before them. */
static void settle_interleaving(hls_kernel *k)
{
    for (int rid = 0; rid < k->nregions; rid++) {
        hls_region *r = &k->regions[rid];
        const hls_region *outer = &k->regions[r->parent >= 0 ? r->parent : 0];
        if (r->kind != HLS_REGION_LOOP || !r->interleave || outer->kind != HLS_REGION_LOOP)
            continue;
        int ok = outer->pipelined && !outer->speculative;
        for (int x = child_position(outer, rid) + 1; ok && x < outer->nchildren; x++) {
            const hls_region *ch = &k->regions[outer->children[x]];
            for (int i = 0; i < ch->nops; i++)
                ok &= k->ops[ch->ops[i]].opc != HOP_RECUR && k->ops[ch->ops[i]].opc != HOP_ALIVE;
        }
        r->interleave = ok ? r->interleave : 0;
    }
}

/* Pipelines loop region rid, or says in `serial` why it stays as it is. */
static void pipeline_region(hls_compile *c, hls_kernel *k, int rid)
{
    /* the outer test and the carried values' next values, before the inner loops */
    const hls_loop *l = &k->loops[k->regions[rid].loop];
    const hls_block *latch = &k->blocks[l->latch];
    hoist_before_inner(c, k, rid, latch->term == HLS_TERM_CONDBR ? latch->cond : -1);
    for (int p = 1; p < k->regions[rid].nphis; p++) {
        const hls_op *phi = &k->ops[k->regions[rid].phis[p]];
        if (phi->opc == HOP_PHI && phi->nin == 2)
            hoist_before_inner(c, k, rid, phi->in_vals[phi->in_blocks[0] == l->preheader]);
    }
    const char *why = pragma_serial(c, k, &k->regions[rid]);
    if (!why)
        why = structure(c, k, &k->regions[rid]);
    if (!why)
        why = defer_side_effects(c, k, rid);
    if (!why)
        why = memory_dependence(c, k, &k->regions[rid]);
    if (!why)
        partial_sums(c, k, rid);
    int *home = arena_alloc(&c->arena, (size_t)k->regions[rid].nphis * sizeof *home);
    if (!why)
        why = place_recurrences(c, k, rid, home);
    if (why) {
        k->regions[rid].serial = why;
        return;
    }
    k->regions[rid].interleave = interleaving(c, k, &k->regions[rid]);
    pipeline_loop(c, k, rid, home);
    const hls_loop_pragmas *p = &k->blocks[k->loops[k->regions[rid].loop].latch].pragmas;
    const hls_pragma *ivdep = p->ivdep ? hls_loop_pragma(c, HLS_PRAGMA_IVDEP, p->start) : NULL;
    int bound = ivdep ? ivdep->value : 0; /* safelen(N) */
    if (p->max_concurrency && (!bound || p->max_concurrency < bound))
        bound = p->max_concurrency;
    hls_region *r = &k->regions[rid];
    r->max_in_flight = bound;
    if (bound || r->speculative) /* their generator counts one work-item's iterations */
        r->interleave = 0;
    find_count(k, r);
}

static void pipeline_kernel(hls_compile *c, hls_kernel *k)
{
    k->single_work_item = single_work_item(k);
    if (!k->single_work_item) {
        ndrange_pragmas(c, k);
        return;
    }
    /* inner loops first: a loop holding pipelined loops may be pipelined too */
    int nregions = k->nregions, deepest = 0;
    for (int l = 0; l < k->nloops; l++)
        deepest = k->loops[l].depth > deepest ? k->loops[l].depth : deepest;
    for (int depth = deepest; depth > 0; depth--)
        for (int rid = 0; rid < nregions; rid++)
            if (k->regions[rid].kind == HLS_REGION_LOOP &&
                k->loops[k->regions[rid].loop].depth == depth)
                pipeline_region(c, k, rid);
    settle_interleaving(k);
    hls_liveness(c, k);
}

int hls_pipeline(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++)
        pipeline_kernel(c, c->program->kernels[i]);
    return HLS_OK;
}

const char *hls_loop_ii_reason(hls_compile *c, const hls_kernel *k, const hls_region *r)
{
    if (r->serial)
        return arena_printf(&c->arena, "one iteration at a time: %s", r->serial);
    if (!r->pipelined)
        return "iterations of different work-items follow each other";
    const hls_loop_pragmas *p = &k->blocks[k->loops[r->loop].latch].pragmas;
    if (r->ii > 1 && r->ii_op < 0 && r->ii == p->ii) {
        const hls_pragma *at = hls_loop_pragma(c, HLS_PRAGMA_II, p->start);
        return arena_printf(&c->arena, "%s at %s",
                            at ? at->text : arena_printf(&c->arena, "#pragma ii %d", p->ii),
                            where(c, &(hls_op){.loc = at ? at->loc : k->loops[r->loop].loc}));
    }
    if (r->ii > 1 && r->ii_op < 0 && r->window)
        return arena_printf(&c->arena, "one iteration at a time through memory: %s",
                            r->window);
    if (r->ii <= 1 || r->ii_op < 0)
        return "";
    const hls_op *op = &k->ops[r->ii_op];
    const char *turns = "";
    if (r->lanes > 1) {
        int every = (r->ii + r->lanes - 1) / r->lanes;
        turns = arena_printf(&c->arena, "; %d %s take turns in it, so an iteration starts "
                             "every %s", r->lanes,
                             k->regions[r->parent].kind == HLS_REGION_LOOP ? "outer iterations"
                                                                          : "work-items",
                             every > 1 ? arena_printf(&c->arena, "%d cycles", every) : "cycle");
    }
    return arena_printf(&c->arena, "a value carried to the next iteration goes through the "
                        "%s at %s:%u:%u, ready %d cycles after the value it starts from%s",
                        hls_ir_opcode_name(op->opc),
                        op->loc.file ? op->loc.file : c->source_name,
                        op->loc.line, op->loc.col, r->ii, turns);
}

