/* CFG analysis: predecessors, reverse post-order, dominators (Cooper, Harvey and
 * Kennedy's iterative algorithm) and natural loops. An edge to a block that dominates
 * its source is a back edge and makes a loop; any other edge that goes backwards in
 * reverse post-order enters a cycle somewhere other than its header, which hardware
 * built from loops cannot implement (irreducible control flow): that is a user error
 * at the branch. Loops come out outer before inner, each with the preheader and the
 * single latch that loop-simplify guarantees. */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

static void add_pred(arena *a, hls_block *b, int pred)
{
    for (int i = 0; i < b->npreds; i++)
        if (b->preds[i] == pred)
            return;
    int cap = b->npreds;
    int *grown = arena_alloc(a, (size_t)(cap + 1) * sizeof *grown);
    if (cap)
        memcpy(grown, b->preds, (size_t)cap * sizeof *grown);
    grown[b->npreds++] = pred;
    b->preds = grown;
}

static int intersect(const hls_kernel *k, int a, int b)
{
    while (a != b) {
        while (k->blocks[a].rpo > k->blocks[b].rpo)
            a = k->blocks[a].idom;
        while (k->blocks[b].rpo > k->blocks[a].rpo)
            b = k->blocks[b].idom;
    }
    return a;
}

static void dominators(hls_kernel *k)
{
    for (int b = 0; b < k->nblocks; b++)
        k->blocks[b].idom = -1;
    k->blocks[0].idom = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 1; i < k->nblocks; i++) {
            hls_block *b = &k->blocks[k->rpo[i]];
            int idom = -1;
            for (int p = 0; p < b->npreds; p++) {
                int pred = b->preds[p];
                if (k->blocks[pred].idom < 0)
                    continue;
                idom = idom < 0 ? pred : intersect(k, pred, idom);
            }
            if (idom != b->idom) {
                b->idom = idom;
                changed = 1;
            }
        }
    }
    k->blocks[0].idom = -1;
}

/* Marks in `in` every block of the natural loop of back edge latch -> header. */
static int loop_body(arena *a, const hls_kernel *k, int header, int latch, char *in)
{
    int *stack = arena_alloc(a, (size_t)k->nblocks * sizeof *stack), sp = 0, size = 1;
    in[header] = 1;
    if (!in[latch]) {
        in[latch] = 1;
        stack[sp++] = latch;
        size++;
    }
    while (sp) {
        const hls_block *b = &k->blocks[stack[--sp]];
        for (int p = 0; p < b->npreds; p++)
            if (!in[b->preds[p]]) {
                in[b->preds[p]] = 1;
                stack[sp++] = b->preds[p];
                size++;
            }
    }
    return size;
}

typedef struct found_loop {
    int header, latch, size; /* as in hls_loop; size = blocks in the loop */
    char *in;                /* membership by block id */
} found_loop;

static int by_size_desc(const void *a, const void *b)
{
    return ((const found_loop *)b)->size - ((const found_loop *)a)->size;
}

static int analyse(hls_compile *c, hls_kernel *k)
{
    arena *a = &c->arena;
    /* Lowering numbered the blocks in reverse post-order. */
    k->rpo = arena_alloc(a, (size_t)k->nblocks * sizeof *k->rpo);
    for (int b = 0; b < k->nblocks; b++) {
        k->rpo[b] = b;
        k->blocks[b].rpo = b;
        k->blocks[b].preds = NULL;
        k->blocks[b].npreds = 0;
        k->blocks[b].loop = -1;
    }
    for (int b = 0; b < k->nblocks; b++)
        for (int s = 0; s < k->blocks[b].nsucc; s++)
            add_pred(a, &k->blocks[k->blocks[b].succ[s]], b);
    dominators(k);

    found_loop *found = arena_alloc(a, (size_t)(k->nblocks + 1) * sizeof *found);
    int nfound = 0;
    for (int b = 0; b < k->nblocks; b++) {
        const hls_block *blk = &k->blocks[b];
        for (int s = 0; s < blk->nsucc; s++) {
            int h = blk->succ[s];
            if (k->blocks[h].rpo > blk->rpo)
                continue;
            if (!hls_ir_dominates(k, h, b)) {
                hls_error(&c->diag, blk->loc, "irreducible control flow: this branch enters a "
                                              "loop other than through its header, which "
                                              "hardware cannot implement");
                return HLS_ERR_UNSUPPORTED;
            }
            for (int f = 0; f < nfound; f++)
                if (found[f].header == h)
                    HLS_BUG("loop at block %d has several latches after loop-simplify", h);
            found_loop *l = &found[nfound++];
            l->header = h;
            l->latch = b;
            l->in = arena_alloc(a, (size_t)k->nblocks);
            l->size = loop_body(a, k, h, b, l->in);
        }
    }
    /* Outer before inner; a block's loop is the innermost (last) one holding it. */
    qsort(found, (size_t)nfound, sizeof *found, by_size_desc);
    k->nloops = nfound;
    k->loops = arena_alloc(a, (size_t)(nfound + 1) * sizeof *k->loops);
    for (int i = 0; i < nfound; i++) {
        hls_loop *l = &k->loops[i];
        l->header = found[i].header;
        l->latch = found[i].latch;
        l->loc = k->blocks[l->latch].loc;
        l->parent = -1;
        for (int o = i - 1; o >= 0 && l->parent < 0; o--)
            if (found[o].in[l->header])
                l->parent = o;
        l->depth = l->parent < 0 ? 1 : k->loops[l->parent].depth + 1;
        for (int b = 0; b < k->nblocks; b++)
            if (found[i].in[b])
                k->blocks[b].loop = i;
        l->preheader = -1;
        const hls_block *h = &k->blocks[l->header];
        for (int p = 0; p < h->npreds; p++) {
            if (found[i].in[h->preds[p]])
                continue;
            if (l->preheader >= 0)
                HLS_BUG("loop at block %d has several entries after loop-simplify", l->header);
            l->preheader = h->preds[p];
        }
        if (l->preheader < 0)
            HLS_BUG("loop at block %d has no preheader", l->header);
    }
    return HLS_OK;
}

int hls_cfg(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++) {
        int rc = analyse(c, c->program->kernels[i]);
        if (rc)
            return rc;
    }
    return HLS_OK;
}
