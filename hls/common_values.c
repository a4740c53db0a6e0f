/* Common values: within a static region, an operation computing what an earlier one of
 * the same region computes (same operation, width, immediate and operands) is dropped,
 * and its readers read the earlier one. LLVM's GVN merges such values only where one
 * dominates the other; if-conversion joins blocks that do not (the two arms of a
 * branch, a loop's preheader and the path that skips the loop), and in a region every
 * operation computes for every work-item, so both arms' copies compute the same value
 * side by side. matmul_tiled's `row * n`, once on the way into its loop and once on the
 * way around it, became two multipliers and two 32-bit values carried through every
 * FIFO and barrier of the loop.
 *
 * Only operations whose result depends on their operands alone merge: arithmetic,
 * logic, comparisons, selects, conversions, element moves. Merging runs to a fixed
 * point (operands merged make their readers equal), then liveness is found again. Runs
 * after if-conversion. */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* 1 when op's value is a function of its operands, immediate and width only. */
static int pure(const hls_op *op)
{
    return op->opc >= HOP_ADD && op->opc <= HOP_INSERT;
}

/* A pure op of a region and its position there. */
typedef struct entry {
    const hls_op *op;
    int position;
} entry;

/* Orders entries by what their ops compute, then by position (the earlier first). */
static int compare_entries(const void *pa, const void *pb)
{
    const entry *x = pa, *y = pb;
    const hls_op *a = x->op, *b = y->op;
    if (a->opc != b->opc)
        return a->opc < b->opc ? -1 : 1;
    if (a->width != b->width)
        return a->width < b->width ? -1 : 1;
    if (a->imm != b->imm)
        return a->imm < b->imm ? -1 : 1;
    if (a->nargs != b->nargs)
        return a->nargs < b->nargs ? -1 : 1;
    for (int i = 0; i < a->nargs; i++)
        if (a->args[i] != b->args[i])
            return a->args[i] < b->args[i] ? -1 : 1;
    return (x->position > y->position) - (x->position < y->position);
}

static int same_value(const hls_op *a, const hls_op *b)
{
    if (a->opc != b->opc || a->width != b->width || a->imm != b->imm || a->nargs != b->nargs)
        return 0;
    return !memcmp(a->args, b->args, (size_t)a->nargs * sizeof *a->args);
}

/* Marks in `into` (id -> the op read instead) the ops of static region r that repeat
 * an earlier op of r; returns how many. */
static int find_repeats(hls_compile *c, const hls_kernel *k, const hls_region *r, int *into)
{
    entry *list = arena_alloc(&c->arena, ((size_t)r->nops + 1) * sizeof *list);
    int n = 0;
    for (int i = 0; i < r->nops; i++)
        if (pure(&k->ops[r->ops[i]]) && into[r->ops[i]] < 0)
            list[n++] = (entry){&k->ops[r->ops[i]], i};
    qsort(list, (size_t)n, sizeof *list, compare_entries);
    int found = 0;
    for (int i = 1, first = 0; i < n; i++) {
        if (same_value(list[first].op, list[i].op))
            into[list[i].op->id] = list[first].op->id, found++;
        else
            first = i;
    }
    return found;
}

static void merge_kernel(hls_compile *c, hls_kernel *k)
{
    int *into = arena_alloc(&c->arena, ((size_t)k->nops + 1) * sizeof *into);
    for (int i = 0; i < k->nops; i++)
        into[i] = -1;
    int merged = 0, found;
    do {
        found = 0;
        for (int r = 0; r < k->nregions; r++)
            if (k->regions[r].kind == HLS_REGION_STATIC && k->regions[r].nops > 1)
                found += find_repeats(c, k, &k->regions[r], into);
        hls_ir_read_through(k, into, -1);
        merged += found;
    } while (found);
    if (!merged)
        return;
    for (int r = 0; r < k->nregions; r++) {
        hls_region *reg = &k->regions[r];
        if (reg->kind != HLS_REGION_STATIC)
            continue;
        int kept = 0;
        for (int i = 0; i < reg->nops; i++)
            if (into[reg->ops[i]] < 0)
                reg->ops[kept++] = reg->ops[i];
        reg->nops = kept;
    }
    hls_liveness(c, k);
}

int hls_common_values(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++)
        merge_kernel(c, c->program->kernels[i]);
    return HLS_OK;
}
