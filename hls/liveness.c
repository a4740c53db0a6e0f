/* Liveness over the region tree: every region gets the values that enter it and the
 * values that leave it, the fields of the token that flows between regions. A value is
 * live at a point of a sequence when a later region reads it; a loop's body also
 * holds, at its end, what goes round again (the latch values of the header phis and
 * the "go round again" predicate). The work-group slot, when the kernel has one, is
 * live to the very end: retiring work-items free it. If-conversion computes it first;
 * passes that split regions compute it again. */
#include <string.h>

#include "passes.h"

typedef struct liveness {
    hls_kernel *k;        /* the kernel */
    arena *a;             /* where sets live */
    int words;            /* 64-bit words per set */
    uint64_t **defs;      /* per region: values defined inside (deep) */
    uint64_t **uses;      /* per region: values read inside and defined outside */
} liveness;

static uint64_t *set_new(liveness *lv)
{
    return arena_alloc(lv->a, (size_t)lv->words * sizeof(uint64_t));
}

static void set_add(uint64_t *s, int id)
{
    s[id / 64] |= 1ull << (id % 64);
}

static int set_has(const uint64_t *s, int id)
{
    return (int)(s[id / 64] >> (id % 64)) & 1;
}

static void add_operands(liveness *lv, uint64_t *uses, const hls_op *op)
{
    const int *args;
    int n = hls_ir_operands(op, &args);
    for (int a = 0; a < n; a++)
        if (!hls_ir_is_invariant(&lv->k->ops[args[a]]))
            set_add(uses, args[a]);
}

/* Fills defs and uses of region id and everything inside it. */
static void gather(liveness *lv, int id)
{
    hls_region *r = &lv->k->regions[id];
    uint64_t *defs = lv->defs[id] = set_new(lv), *uses = lv->uses[id] = set_new(lv);
    for (int i = 0; i < r->nops; i++) {
        set_add(defs, r->ops[i]);
        add_operands(lv, uses, &lv->k->ops[r->ops[i]]);
    }
    for (int i = 0; i < r->nphis; i++) {
        set_add(defs, r->phis[i]);
        add_operands(lv, uses, &lv->k->ops[r->phis[i]]);
    }
    for (int c = 0; c < r->nchildren; c++) {
        int child = r->children[c];
        gather(lv, child);
        for (int w = 0; w < lv->words; w++) {
            defs[w] |= lv->defs[child][w];
            uses[w] |= lv->uses[child][w];
        }
    }
    for (int w = 0; w < lv->words; w++)
        uses[w] &= ~defs[w];
}

static int *set_list(liveness *lv, const uint64_t *s, int *n)
{
    int count = 0;
    for (int i = 0; i < lv->k->nops; i++)
        count += set_has(s, i);
    int *list = arena_alloc(lv->a, (size_t)(count + 1) * sizeof *list);
    *n = 0;
    for (int i = 0; i < lv->k->nops; i++)
        if (set_has(s, i))
            list[(*n)++] = i;
    return list;
}

/* Live sets of the children of sequence `id`, given what must be live at its end. */
static void sequence_liveness(liveness *lv, int id, const uint64_t *at_end)
{
    hls_region *seq = &lv->k->regions[id];
    uint64_t *live = set_new(lv);
    memcpy(live, at_end, (size_t)lv->words * sizeof *live);
    for (int c = seq->nchildren - 1; c >= 0; c--) {
        hls_region *r = &lv->k->regions[seq->children[c]];
        r->live_out = set_list(lv, live, &r->nlive_out);
        uint64_t *in = set_new(lv);
        for (int w = 0; w < lv->words; w++)
            in[w] = lv->uses[r->id][w] | (live[w] & ~lv->defs[r->id][w]);
        r->live_in = set_list(lv, in, &r->nlive_in);
        if (r->kind == HLS_REGION_LOOP) {
            /* The body's end holds what goes round again and what leaves. */
            uint64_t *end = set_new(lv);
            for (int w = 0; w < lv->words; w++)
                end[w] = live[w] | in[w];
            if (!hls_ir_is_invariant(&lv->k->ops[r->cont]))
                set_add(end, r->cont);
            for (int p = 0; p < r->nphis; p++) {
                int latch_value = lv->k->ops[r->phis[p]].in_vals[1];
                if (!hls_ir_is_invariant(&lv->k->ops[latch_value]))
                    set_add(end, latch_value);
            }
            sequence_liveness(lv, r->id, end);
            r = &lv->k->regions[seq->children[c]];
        }
        live = in;
    }
}

void hls_liveness(hls_compile *c, hls_kernel *k)
{
    liveness lv = {.k = k, .a = &c->arena, .words = (k->nops + 63) / 64 + 1};
    lv.defs = arena_alloc(&c->arena, (size_t)k->nregions * sizeof *lv.defs);
    lv.uses = arena_alloc(&c->arena, (size_t)k->nregions * sizeof *lv.uses);
    gather(&lv, 0);
    uint64_t *at_end = set_new(&lv);
    if (k->slot_op >= 0) /* retiring work-items tell the slot allocator their slot */
        set_add(at_end, k->slot_op);
    sequence_liveness(&lv, 0, at_end);
}
