/* Memory order inside a work-item. Load-store units run independently, so two
 * accesses of one work-item to the same address could reach memory in either order.
 * Where a later access may touch what a store wrote (the work-item reads back its own
 * store, or overwrites it through another unit), the store becomes acknowledged: the
 * work-item waits at the store's stage until memory holds the value, as it waits for
 * a load's data. "Later" follows the CFG: later in the same block, or in a block
 * reachable from the store's (back edges included: the next iteration of a loop);
 * the other side of a branch is never later. Inside one region,
 * an access also waits for each earlier access it may conflict with (a store after a
 * load of the same address waits for the load's data), since the schedule would
 * otherwise issue them in the same cycle. Two accesses may alias unless one is a
 * __constant load (kernels never write __constant memory), they are in different
 * memories (global, each local memory), they come from two different
 * restrict-qualified buffer arguments, or their addresses are one address plus two
 * constants far enough apart that their bytes cannot overlap (a[i] and a[i + 1], an
 * unrolled loop's a[0] ... a[99], the fields of one struct); an atomic may alias every
 * access of its memory,
 * so it runs after the work-item's earlier stores there have landed and before its
 * later accesses (OpenCL C 2.0 atomics are sequentially consistent). A barrier waits for the stores before it:
 * they are acknowledged too. In a kernel with mem_fence(CLK_CHANNEL_MEM_FENCE) a
 * channel access may meet another channel's access and every global access, so they
 * keep program order (and the stores before a channel access are acknowledged). */
#include <stdint.h>
#include <string.h>

#include "passes.h"

/* The buffer argument an address is computed from, or -1 when unknown. */
static int base_argument(const hls_kernel *k, int addr)
{
    for (;;) {
        const hls_op *op = &k->ops[addr];
        if (op->opc == HOP_ARG)
            return op->arg;
        if (op->opc != HOP_ADD)
            return -1;
        addr = op->args[0];
    }
}

/* 1 when a's and b's bytes are at one address plus constants that keep them apart
 * (their exact forms differ by a constant). Every atom of the address must be computed
 * outside every loop: there it has one value for the whole work-item, while one
 * computed in a loop changes between the iterations whose accesses are compared (a
 * store of a[i] and the next iteration's load of a[i + 1] with i going down meet). */
static int disjoint_offsets(const hls_kernel *k, const hls_op *a, const hls_op *b)
{
    hls_form fa, fb;
    int64_t b_after_a;
    hls_exact_form_of(k, a->args[0], &fa);
    hls_exact_form_of(k, b->args[0], &fb);
    if (!hls_form_difference(&fa, &fb, &b_after_a))
        return 0;
    for (int i = 0; i < fa.nterms; i++) {
        const hls_op *atom = &k->ops[fa.atom[i]];
        if (!hls_ir_is_invariant(atom) && k->blocks[atom->block].loop >= 0)
            return 0;
    }
    return b_after_a >= (int64_t)(a->width / 8) || -b_after_a >= (int64_t)(b->width / 8);
}

static int is_restrict(const hls_kernel *k, int arg)
{
    return arg >= 0 && strstr(k->args[arg].type_qual, "restrict") != NULL;
}

/* 1 when a kernel with mem_fence(CLK_CHANNEL_MEM_FENCE) must keep a and b in program
 * order: a channel access and another channel's access or a global memory access. The
 * order holds for every such pair of the kernel, not only for the pairs a fence
 * separates: more order than asked for, never less. */
static int channel_fenced(const hls_kernel *k, const hls_op *a, const hls_op *b)
{
    if (!k->channel_fence || (a->chan < 0 && b->chan < 0))
        return 0;
    const hls_op *channel = a->chan >= 0 ? a : b, *other = channel == a ? b : a;
    return other->chan >= 0 ? other->chan != channel->chan : other->addr_space == 1;
}

/* 1 when a and b never meet whatever their addresses: two loads, two memories, a
 * __constant load, a channel access, two SIMD lanes (two work-items). */
static int apart(const hls_op *a, const hls_op *b)
{
    if (a->chan >= 0 || b->chan >= 0)
        return 1; /* a channel is no memory (and has one reader and one writer) */
    if (a->lane >= 0 && b->lane >= 0 && a->lane != b->lane)
        return 1; /* two SIMD lanes' work-items: nothing orders them (no barrier between) */
    if (a->opc == HOP_LOAD && b->opc == HOP_LOAD)
        return 1;
    if ((a->addr_space == 3) != (b->addr_space == 3) || a->lmem != b->lmem)
        return 1; /* local memories and global memory are separate spaces */
    return (a->opc == HOP_LOAD && a->addr_space == 2) || (b->opc == HOP_LOAD && b->addr_space == 2);
}

/* 1 when a and b come from two different restrict-qualified buffer arguments. */
static int restrict_pair(const hls_kernel *k, const hls_op *a, const hls_op *b)
{
    int ba = base_argument(k, a->args[0]), bb = base_argument(k, b->args[0]);
    return ba >= 0 && bb >= 0 && ba != bb && is_restrict(k, ba) && is_restrict(k, bb);
}

int hls_may_alias(const hls_kernel *k, const hls_op *a, const hls_op *b)
{
    if (channel_fenced(k, a, b))
        return 1;
    if (apart(a, b))
        return 0;
    if (a->opc == HOP_ATOMIC || b->opc == HOP_ATOMIC)
        return 1; /* an atomic is ordered with every access of its memory */
    return !disjoint_offsets(k, a, b) && !restrict_pair(k, a, b);
}

/* Floor of n / d for d > 0. */
static int64_t floor_div(int64_t n, int64_t d)
{
    return n / d - (n % d != 0 && n < 0);
}

int hls_may_alias_across(const hls_kernel *k, int loop, const hls_op *a, const hls_op *b,
                         const int64_t *step)
{
    if (channel_fenced(k, a, b))
        return 1;
    if (apart(a, b) || restrict_pair(k, a, b))
        return 0;
    hls_form fa, fb;
    int64_t delta, g = 0;
    hls_form_of(k, a->args[0], &fa); /* an index stays in range */
    hls_form_of(k, b->args[0], &fb);
    if (!hls_form_difference(&fa, &fb, &delta))
        return 1;
    for (int i = 0; i < fa.nterms; i++) {
        const hls_op *atom = &k->ops[fa.atom[i]];
        if (hls_ir_is_invariant(atom) || atom->block < 0 || !hls_ir_in_loop(k, atom->block, loop))
            continue; /* the same in every iteration */
        if (k->blocks[atom->block].loop != loop)
            return 1; /* an inner loop's value: it changes within an iteration */
        int64_t t;
        if (!step[atom->id] || __builtin_mul_overflow(fa.coef[i], step[atom->id], &t) ||
            __builtin_add_overflow(g, t, &g))
            return 1;
    }
    /* b, d iterations after a, starts delta + g * d bytes after a: they meet when
     * -(b's bytes) < delta + g * d < a's bytes for some d other than 0 */
    int64_t wa = a->width / 8, wb = b->width / 8;
    if (g < 0)
        g = -g; /* d and -d both count */
    if (!g)
        return delta > -wb && delta < wa;
    if (delta > INT64_MAX / 2 || delta < INT64_MIN / 2)
        return 1;
    int64_t lo = floor_div(-wb - delta, g) + 1, hi = -floor_div(delta - wa, g) - 1;
    return lo <= hi && !(lo == 0 && hi == 0);
}

/* reach[a * n + b]: block b can run after block a in one work-item (a path of at
 * least one edge, back edges included: the next iteration of a loop counts). */
static char *reachability(hls_compile *c, const hls_kernel *k)
{
    int n = k->nblocks;
    char *reach = arena_alloc(&c->arena, (size_t)n * (size_t)n);
    int *stack = arena_alloc(&c->arena, (size_t)n * sizeof *stack);
    for (int a = 0; a < n; a++) {
        char *row = reach + (size_t)a * (size_t)n;
        int sp = 0;
        for (int s = 0; s < k->blocks[a].nsucc; s++)
            if (!row[k->blocks[a].succ[s]])
                row[k->blocks[a].succ[s]] = 1, stack[sp++] = k->blocks[a].succ[s];
        while (sp) {
            const hls_block *b = &k->blocks[stack[--sp]];
            for (int s = 0; s < b->nsucc; s++)
                if (!row[b->succ[s]])
                    row[b->succ[s]] = 1, stack[sp++] = b->succ[s];
        }
    }
    return reach;
}

/* 1 when access b may execute after access a in the same work-item: later in the
 * same block, or in a block reachable from a's (a branch's other side is not). */
static int runs_after(const hls_kernel *k, const char *reach, const hls_op *a, const hls_op *b)
{
    if (a->block == b->block && b->id > a->id)
        return 1; /* lowering numbers a block's operations in program order */
    return reach[(size_t)a->block * (size_t)k->nblocks + (size_t)b->block];
}

static void order_kernel(hls_compile *c, hls_kernel *k)
{
    const char *reach = reachability(c, k);
    /* A store that a later access may touch waits for memory's acknowledgement; so
     * does a store before a barrier (the group's other work-items read after it) and
     * every local store (a local memory acknowledges within a few cycles). */
    for (int i = 0; i < k->nops; i++) {
        hls_op *s = &k->ops[i];
        if (s->opc != HOP_STORE || s->region < 0)
            continue;
        for (int j = 0; j < k->nops && !s->acked; j++)
            s->acked = k->ops[j].opc == HOP_BARRIER && k->ops[j].region >= 0 &&
                       runs_after(k, reach, s, &k->ops[j]);
        s->acked |= s->lmem >= 0;
        for (int j = 0; j < k->nops && !s->acked; j++) {
            const hls_op *m = &k->ops[j];
            s->acked = j != i && hls_ir_is_memory(m) && m->region >= 0 && hls_may_alias(k, s, m) &&
                       runs_after(k, reach, s, m);
        }
    }
    /* Inside a region: each access after the earlier ones it may conflict with. */
    for (int r = 0; r < k->nregions; r++) {
        const hls_region *reg = &k->regions[r];
        for (int i = 0; i < reg->nops; i++) {
            hls_op *b = &k->ops[reg->ops[i]];
            if (!hls_ir_is_memory(b))
                continue;
            for (int j = 0; j < i; j++) {
                hls_op *a = &k->ops[reg->ops[j]];
                if (hls_ir_is_memory(a) && hls_may_alias(k, a, b) && runs_after(k, reach, a, b))
                    hls_ir_push(&c->arena, &b->waits, &b->nwaits, &b->capwaits, a->id);
            }
        }
    }
}

int hls_memorder(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++)
        order_kernel(c, c->program->kernels[i]);
    return HLS_OK;
}
