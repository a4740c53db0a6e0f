/* Memory order inside a work-item. Load-store units run independently, so two
 * accesses of one work-item to the same address could reach memory in either order.
 * Where a later access may touch what a store wrote (the work-item reads back its own
 * store, or overwrites it through another unit), the store becomes acknowledged: the
 * work-item waits at the store's stage until memory holds the value, as it waits for
 * a load's data. "Later" means later in the same static region, in any region that
 * follows, or anywhere in an enclosing loop (the next iteration). Inside one region,
 * an access also waits for each earlier access it may conflict with (a store after a
 * load of the same address waits for the load's data), since the schedule would
 * otherwise issue them in the same cycle. Two accesses may alias unless one is a
 * __constant load (kernels never write __constant memory) or they come from two
 * different restrict-qualified buffer arguments. */
#include <string.h>

#include "passes.h"

static int is_memory(const hls_op *op)
{
    return op->opc == HOP_LOAD || op->opc == HOP_STORE;
}

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

static int is_restrict(const hls_kernel *k, int arg)
{
    return arg >= 0 && strstr(k->args[arg].type_qual, "restrict") != NULL;
}

static int may_alias(const hls_kernel *k, const hls_op *a, const hls_op *b)
{
    if (a->opc == HOP_LOAD && b->opc == HOP_LOAD)
        return 0;
    if ((a->opc == HOP_LOAD && a->addr_space == 2) || (b->opc == HOP_LOAD && b->addr_space == 2))
        return 0;
    int ba = base_argument(k, a->args[0]), bb = base_argument(k, b->args[0]);
    if (ba >= 0 && bb >= 0 && ba != bb && is_restrict(k, ba) && is_restrict(k, bb))
        return 0;
    return 1;
}

/* Collects into `out` the memory ops of region id and everything inside it. */
static void memory_ops(const hls_kernel *k, int id, int *out, int *n)
{
    const hls_region *r = &k->regions[id];
    for (int i = 0; i < r->nops; i++)
        if (is_memory(&k->ops[r->ops[i]]))
            out[(*n)++] = r->ops[i];
    for (int c = 0; c < r->nchildren; c++)
        memory_ops(k, r->children[c], out, n);
}

/* The memory ops a work-item may execute after store s: later in its region, in the
 * regions after it in every enclosing sequence, and in every enclosing loop. */
static int accesses_after(const hls_kernel *k, const hls_op *s, int *out)
{
    int n = 0;
    const hls_region *r = &k->regions[s->region];
    int seen = 0;
    for (int i = 0; i < r->nops; i++) {
        if (seen && is_memory(&k->ops[r->ops[i]]))
            out[n++] = r->ops[i];
        seen |= r->ops[i] == s->id;
    }
    for (int child = r->id, parent = r->parent; parent >= 0;
         child = parent, parent = k->regions[parent].parent) {
        const hls_region *p = &k->regions[parent];
        if (p->kind == HLS_REGION_LOOP) {
            memory_ops(k, parent, out, &n); /* the next iteration: everything in the loop */
            continue;
        }
        int after = 0;
        for (int c = 0; c < p->nchildren; c++) {
            if (after)
                memory_ops(k, p->children[c], out, &n);
            after |= p->children[c] == child;
        }
    }
    return n;
}

static void order_kernel(hls_compile *c, hls_kernel *k)
{
    /* every enclosing level may add the whole kernel's accesses once */
    int *later = arena_alloc(&c->arena, (size_t)(k->nops + 1) * (size_t)(k->nloops + 2) *
                                            sizeof *later);
    for (int i = 0; i < k->nops; i++) {
        hls_op *s = &k->ops[i];
        if (s->opc != HOP_STORE || s->region < 0)
            continue;
        int n = accesses_after(k, s, later);
        for (int j = 0; j < n && !s->acked; j++)
            s->acked = later[j] != s->id && may_alias(k, s, &k->ops[later[j]]);
    }
    /* Inside a region: each access after the earlier ones it may conflict with. */
    for (int r = 0; r < k->nregions; r++) {
        const hls_region *reg = &k->regions[r];
        for (int i = 0; i < reg->nops; i++) {
            hls_op *b = &k->ops[reg->ops[i]];
            if (!is_memory(b))
                continue;
            for (int j = 0; j < i; j++) {
                hls_op *a = &k->ops[reg->ops[j]];
                if (is_memory(a) && may_alias(k, a, b))
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
