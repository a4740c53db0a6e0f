/* Live bits: how many low bits of each integer value its readers use, so that address
 * arithmetic is only as wide as the board's memory port. OpenCL C computes a buffer
 * index as a 64-bit size_t (`in[get_global_id(1) * w + x]` multiplies 64 by 64 bits),
 * but the load-store units take only the board's `memory.address_bits` of an
 * address, and the low n bits of a sum, difference, product, bitwise operation or
 * left shift depend only on the low n bits of its operands. So an address needs n bits
 * of the add that makes it, that add n bits of its operands, and so on back through
 * the arithmetic.
 *
 * A value's live bits are the most any reader uses (a fixpoint from none): an add,
 * sub, mul, and, or, xor, the shifted operand of a left shift and the chosen operands
 * of a select use the bits of their own result that are live; a truncation to w bits
 * at most w, an extension from w bits its live bits up to w; a global access's
 * address the board's address bits (all 64 on a board that decodes them all, such as
 * the default one, whose checks see every address), a local access's its local
 * memory's ({slot, address}) and a __constant table read's the table's; every other
 * reader (compares, right shifts, divisions, conversions, phis, a block's branch, a
 * loop's tests) all of them. The emitter computes an add ... left shift whose live
 * bits are fewer than its width at that many bits and fills the rest with zeros,
 * which no reader looks at (emit_ops.c); synthesis then drops the zeros' registers. */
#include "passes.h"

/* Bits of operand `arg` that op `user` reads, when `live` bits of its result are. */
static unsigned demand(const hls_compile *c, const hls_kernel *k, const hls_op *user, int arg,
                       unsigned live)
{
    unsigned w = k->ops[user->args[arg]].width;
    if (hls_ir_low_bits_from_low_bits(user)) /* a shift amount is read whole */
        return (user->opc != HOP_SHL || arg == 0) && live < w ? live : w;
    switch (user->opc) {
    case HOP_TRUNC: case HOP_ZEXT: case HOP_SEXT: /* bit i of the result is bit i of the operand */
        return live < w ? live : w;
    case HOP_SELECT:
        return arg > 0 && live < w ? live : w;
    case HOP_LOAD: case HOP_STORE: case HOP_ATOMIC: {
        unsigned abits = w;
        if (user->lmem >= 0) /* the local memory's port: {slot, address} */
            abits = k->locals[user->lmem].addr_bits + HLS_SLOT_BITS;
        else if (user->lsu >= 0)
            abits = c->program->board->mem_addr_bits;
        else if (user->opc == HOP_LOAD && user->rom >= 0)
            abits = hls_ir_rom_address_bits(c->program->roms[user->rom].size);
        return arg == 0 && abits < w ? abits : w;
    }
    default:
        return w;
    }
}

/* Every bit of value id is read (by something other than an op's operand). */
static void all_bits(const hls_kernel *k, unsigned *live, int id)
{
    if (id >= 0 && id < k->nops)
        live[id] = k->ops[id].width;
}

static void narrow_kernel(hls_compile *c, hls_kernel *k)
{
    unsigned *live = arena_alloc(&c->arena, (size_t)(k->nops + 1) * sizeof *live);
    for (int i = 0; i < k->nops; i++)
        live[i] = 0;
    /* What reaches a phi is read whole; a back edge's value is a later op than its phi,
     * so every count is cleared before any is marked. */
    for (int i = 0; i < k->nops; i++)
        if (k->ops[i].opc == HOP_PHI)
            for (int j = 0; j < k->ops[i].nin; j++)
                all_bits(k, live, k->ops[i].in_vals[j]);
    for (int b = 0; b < k->nblocks; b++)
        if (k->blocks[b].term == HLS_TERM_CONDBR || k->blocks[b].term == HLS_TERM_SWITCH)
            all_bits(k, live, k->blocks[b].cond);
    for (int r = 0; r < k->nregions; r++) {
        const hls_region *g = &k->regions[r];
        if (g->kind != HLS_REGION_LOOP)
            continue;
        for (int j = 0; j < g->nphis; j++)
            all_bits(k, live, g->phis[j]);
        all_bits(k, live, g->cont);
        all_bits(k, live, g->exit_test);
        all_bits(k, live, g->count_test);
        all_bits(k, live, g->count_iv);
        all_bits(k, live, g->lane);
    }
    all_bits(k, live, k->slot_op);
    /* Readers only add bits, so this settles; a value's bits flow back one reader a
     * round, and the rounds are bounded in case something cycles without a phi. */
    int changed = 1;
    for (int round = 0; changed && round < 4 * k->nops + 4; round++) {
        changed = 0;
        for (int i = k->nops; i-- > 0;) {
            const hls_op *op = &k->ops[i];
            for (int a = 0; a < op->nargs; a++) {
                int v = op->args[a];
                if (v < 0)
                    continue;
                unsigned d = demand(c, k, op, a, live[i]);
                if (d > live[v]) {
                    live[v] = d;
                    changed = 1;
                }
            }
        }
    }
    for (int i = 0; i < k->nops; i++)
        k->ops[i].live_bits = changed || !live[i] ? k->ops[i].width : live[i];
}

int hls_live_bits(hls_compile *c)
{
    for (int ki = 0; ki < c->program->nkernels; ki++)
        narrow_kernel(c, c->program->kernels[ki]);
    return HLS_OK;
}
