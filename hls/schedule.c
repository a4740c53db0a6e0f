/* Scheduling: gives every operation the pipeline stage where it reads its operands
 * (as soon as they exist) and its latency from the board's operator table. Loads get
 * the board's memory latency plus the load-store path's own cycles, so that a
 * work-item never waits for its data in the steady state and one work-item can enter
 * every cycle. Also records, per value, the last stage that reads it, which sizes the
 * pipeline registers that carry it. */
#include "passes.h"

/* Cycles the load-store unit and the interconnect add to the memory's own latency
 * on a load (request and response registers). */
#define HLS_LSU_OVERHEAD 4

static int template_latency(const board_t *b, board_op op)
{
    return b->op_latency[op] ? (int)b->op_latency[op] : 1;
}

static int latency_of(const hls_kernel *k, const hls_op *op, const board_t *b)
{
    switch (op->opc) {
    case HOP_CONST: case HOP_ARG: case HOP_NDRANGE: case HOP_TOKEN:
    case HOP_AND: case HOP_OR: case HOP_XOR: case HOP_TRUNC: case HOP_ZEXT: case HOP_SEXT:
    case HOP_STORE:
        return 0;
    case HOP_SHL: case HOP_LSHR: case HOP_ASHR:
        /* shifting by a constant is wiring */
        return k->ops[op->args[1]].opc == HOP_CONST ? 0 : (int)b->op_latency[BOARD_OP_INT_ADD];
    case HOP_ADD: case HOP_SUB: case HOP_ICMP: case HOP_SELECT:
        return (int)b->op_latency[BOARD_OP_INT_ADD];
    case HOP_MUL:
        return (int)b->op_latency[BOARD_OP_INT_MUL];
    /* the operator templates register their result at least once */
    case HOP_FADD: case HOP_FSUB:
        return template_latency(b, BOARD_OP_FP_ADD);
    case HOP_FMUL:
        return template_latency(b, BOARD_OP_FP_MUL);
    case HOP_FCMP:
        return template_latency(b, BOARD_OP_FP_CMP);
    case HOP_SITOFP: case HOP_UITOFP: case HOP_FPTOSI: case HOP_FPTOUI:
        return template_latency(b, BOARD_OP_FP_CONV);
    case HOP_LOAD:
        return k->mem_latency;
    default:
        HLS_BUG("no latency for op %s", hls_ir_opcode_name(op->opc));
    }
}

static void schedule_kernel(hls_kernel *k, const board_t *board)
{
    k->mem_latency = (int)board->mem_latency_cycles + HLS_LSU_OVERHEAD;
    int depth = 0;
    for (int b = 0; b < k->nblocks; b++) {
        for (int i = 0; i < k->blocks[b].nops; i++) {
            hls_op *op = &k->ops[k->blocks[b].ops[i]];
            int start = 0;
            for (int a = 0; a < op->nargs; a++) {
                const hls_op *arg = &k->ops[op->args[a]];
                if (!hls_ir_is_invariant(arg) && arg->start + arg->latency > start)
                    start = arg->start + arg->latency;
            }
            op->start = start;
            op->latency = latency_of(k, op, board);
            op->last_use = start + op->latency;
            if (start + op->latency > depth)
                depth = start + op->latency;
        }
    }
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        for (int a = 0; a < op->nargs; a++) {
            hls_op *arg = &k->ops[op->args[a]];
            if (op->start > arg->last_use)
                arg->last_use = op->start;
        }
    }
    k->depth = depth;
}

int hls_schedule(hls_compile *c)
{
    for (int i = 0; i < c->program->nkernels; i++)
        schedule_kernel(c->program->kernels[i], c->program->board);
    return HLS_OK;
}
