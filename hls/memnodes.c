/* Memory nodes: the global and local memory accesses leave the static regions, so that
 * every static region holds fixed-latency operations only (a stall-free cluster, see
 * schedule.c) and every wait for memory happens between regions. A static region with
 * accesses becomes a chain: static part 0, memory node 0, static part 1, memory node
 * 1, and so on. An access goes into the first node its operands allow: a value
 * computed in static part i can feed node i, a value answered by node i (a load's
 * data) only node i + 1 and later, and an earlier access the access must follow
 * (memorder.c) puts it in a later node than that access. Any other operation goes into
 * the first static part where its operands exist. Parts left empty are dropped; the
 * first piece keeps the region's id. Tables in ROM answer in a fixed time and stay in
 * their static region. In hardware (emit_memory.c) a node issues all of a
 * work-item's requests together, the work-item's token waits beside them in a FIFO,
 * and it leaves once every answer it needs is back. Liveness is computed again for
 * the new sequence. */
#include "passes.h"

/* The chain's piece an operation belongs to: static part j is piece 2j, node j piece
 * 2j + 1. */
static int piece_after(const hls_kernel *k, const int *piece, int region, int id)
{
    const hls_op *def = &k->ops[id];
    if (hls_ir_is_invariant(def) || def->region != region)
        return 0; /* enters the region: there from its first piece */
    return piece[id] + (hls_ir_is_access(def) ? 1 : 0);
}

static void split(hls_compile *c, hls_kernel *k, int id, int *piece)
{
    hls_region *r = &k->regions[id];
    int last = -1;
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        int p = 0;
        for (int a = 0; a < op->nargs; a++) {
            int after = piece_after(k, piece, id, op->args[a]);
            p = after > p ? after : p;
        }
        for (int w = 0; w < op->nwaits; w++) { /* after the awaited access's answer */
            int after = piece_after(k, piece, id, op->waits[w]);
            p = after > p ? after : p;
        }
        if (hls_ir_is_access(op))
            p |= 1; /* the first node at or after p */
        else if (p & 1)
            p++; /* the static part after the node */
        piece[op->id] = p;
        last = p > last ? p : last;
    }
    if (last < 1)
        return; /* no access: the region stays as it is */
    int parent = r->parent, npieces = last + 1, kept = 0;
    int *ids = arena_alloc(&c->arena, (size_t)npieces * sizeof *ids);
    int *count = arena_alloc(&c->arena, (size_t)npieces * sizeof *count);
    for (int i = 0; i < r->nops; i++)
        count[piece[r->ops[i]]]++;
    int *ops = r->ops, nops = r->nops;
    for (int p = 0; p < npieces; p++) {
        if (!count[p]) {
            ids[p] = -1; /* an empty static part (nodes are never empty) */
            continue;
        }
        hls_region_kind kind = p & 1 ? HLS_REGION_MEMORY : HLS_REGION_STATIC;
        hls_region *to = kept++ ? hls_ir_new_region(k, &c->arena, kind, parent) : &k->regions[id];
        to->kind = kind;
        to->ops = arena_alloc(&c->arena, (size_t)count[p] * sizeof(int));
        to->nops = 0;
        to->capops = count[p];
        ids[p] = to->id;
    }
    for (int i = 0; i < nops; i++) {
        hls_region *to = &k->regions[ids[piece[ops[i]]]];
        to->ops[to->nops++] = ops[i];
        k->ops[ops[i]].region = to->id;
    }
    /* the new pieces follow the first one in the parent's sequence */
    hls_region *seq = &k->regions[parent];
    int at = 0;
    while (seq->children[at] != id)
        at++;
    for (int p = npieces - 1; p >= 0; p--) {
        if (ids[p] < 0 || ids[p] == id)
            continue;
        hls_ir_push(&c->arena, &seq->children, &seq->nchildren, &seq->capchildren, 0);
        for (int j = seq->nchildren - 1; j > at + 1; j--)
            seq->children[j] = seq->children[j - 1];
        seq->children[at + 1] = ids[p];
    }
}

int hls_memory_nodes(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++) {
        hls_kernel *k = c->program->kernels[i];
        int *piece = arena_alloc(&c->arena, (size_t)k->nops * sizeof *piece);
        int nregions = k->nregions;
        for (int r = 0; r < nregions; r++)
            if (k->regions[r].kind == HLS_REGION_STATIC)
                split(c, k, r, piece);
        hls_liveness(c, k);
    }
    return HLS_OK;
}
