/* Hardware IR helpers: creating ops, names for dumps, the textual dump behind
 * --dump-after, and the verifier that runs after every pass in tests. */
#include "ir.h"

#include <llvm-c/Core.h>
#include <string.h>

static const char *const opcode_names[HOP_COUNT] = {
    [HOP_CONST] = "const", [HOP_ARG] = "arg", [HOP_NDRANGE] = "ndrange",
    [HOP_TOKEN] = "token", [HOP_ADD] = "add", [HOP_SUB] = "sub", [HOP_MUL] = "mul",
    [HOP_AND] = "and", [HOP_OR] = "or", [HOP_XOR] = "xor", [HOP_SHL] = "shl",
    [HOP_LSHR] = "lshr", [HOP_ASHR] = "ashr", [HOP_ICMP] = "icmp", [HOP_SELECT] = "select",
    [HOP_TRUNC] = "trunc", [HOP_ZEXT] = "zext", [HOP_SEXT] = "sext", [HOP_FADD] = "fadd",
    [HOP_FSUB] = "fsub", [HOP_FMUL] = "fmul", [HOP_FCMP] = "fcmp", [HOP_SITOFP] = "sitofp",
    [HOP_UITOFP] = "uitofp", [HOP_FPTOSI] = "fptosi", [HOP_FPTOUI] = "fptoui",
    [HOP_LOAD] = "load", [HOP_STORE] = "store",
};

static const char *const token_names[] = {"global_id", "local_id", "group_id", "group_size"};
static const char *const ndrange_names[] = {"work_dim", "global_size", "local_size",
                                            "global_offset", "num_groups"};

hls_op *hls_ir_new_op(hls_kernel *k, arena *a, hls_opcode opc, unsigned width)
{
    if (k->nops == k->capops) {
        int cap = k->capops ? k->capops * 2 : 64;
        hls_op *ops = arena_alloc(a, (size_t)cap * sizeof *ops);
        if (k->nops)
            memcpy(ops, k->ops, (size_t)k->nops * sizeof *ops);
        k->ops = ops;
        k->capops = cap;
    }
    hls_op *op = &k->ops[k->nops];
    op->id = k->nops++;
    op->opc = opc;
    op->width = width;
    op->lsu = -1;
    return op;
}

const char *hls_ir_opcode_name(hls_opcode opc)
{
    return opc < HOP_COUNT && opcode_names[opc] ? opcode_names[opc] : "?";
}

int hls_ir_is_invariant(const hls_op *op)
{
    return op->opc == HOP_CONST || op->opc == HOP_ARG || op->opc == HOP_NDRANGE;
}

void hls_ir_dump(FILE *out, const hls_program *p)
{
    for (int ki = 0; ki < p->nkernels; ki++) {
        const hls_kernel *k = p->kernels[ki];
        fprintf(out, "kernel %s (%d args, %d load-store units, depth %d)\n", k->name,
                k->nargs, k->nlsus, k->depth);
        for (int b = 0; b < k->nblocks; b++) {
            fprintf(out, "  block %d:\n", b);
            for (int i = 0; i < k->blocks[b].nops; i++) {
                const hls_op *op = &k->ops[k->blocks[b].ops[i]];
                fprintf(out, "    %%%d = %s i%u", op->id, hls_ir_opcode_name(op->opc),
                        op->width);
                if (op->opc == HOP_CONST)
                    fprintf(out, " %llu", (unsigned long long)op->imm);
                else if (op->opc == HOP_ARG)
                    fprintf(out, " %s", k->args[op->arg].name);
                else if (op->opc == HOP_TOKEN)
                    fprintf(out, " %s(%d)", token_names[op->imm], op->dim);
                else if (op->opc == HOP_NDRANGE)
                    fprintf(out, " %s(%d)", ndrange_names[op->imm], op->dim);
                else if (op->opc == HOP_ICMP || op->opc == HOP_FCMP)
                    fprintf(out, " pred%llu", (unsigned long long)op->imm);
                for (int a = 0; a < op->nargs; a++)
                    fprintf(out, "%s%%%d", a ? ", " : " ", op->args[a]);
                if (op->lsu >= 0)
                    fprintf(out, " [lsu %d, addrspace %d]", op->lsu, op->addr_space);
                if (op->latency || op->start)
                    fprintf(out, "  @%d+%d", op->start, op->latency);
                if (op->loc.line)
                    fprintf(out, "  ; line %u", op->loc.line);
                fputc('\n', out);
            }
        }
    }
}

/* Expected width of operand `a` of op, or 0 when any width is fine. */
static unsigned operand_width(const hls_op *op, int a)
{
    switch (op->opc) {
    case HOP_ADD: case HOP_SUB: case HOP_MUL: case HOP_AND: case HOP_OR: case HOP_XOR:
    case HOP_SHL: case HOP_LSHR: case HOP_ASHR:
        return op->width;
    case HOP_SELECT:
        return a == 0 ? 1 : op->width;
    case HOP_FADD: case HOP_FSUB: case HOP_FMUL: case HOP_FCMP: case HOP_FPTOSI:
    case HOP_FPTOUI:
        return 32;
    case HOP_LOAD:
        return 64;
    case HOP_STORE:
        return a == 0 ? 64 : op->width;
    default:
        return 0;
    }
}

int hls_ir_verify(const hls_program *p, strbuf *err)
{
    for (int ki = 0; ki < p->nkernels; ki++) {
        const hls_kernel *k = p->kernels[ki];
        for (int b = 0; b < k->nblocks; b++) {
            for (int i = 0; i < k->blocks[b].nops; i++) {
                const hls_op *op = &k->ops[k->blocks[b].ops[i]];
                if (op->width < 1 || op->width > 64) {
                    sb_printf(err, "%s: op %%%d has width %u\n", k->name, op->id, op->width);
                    return -1;
                }
                for (int a = 0; a < op->nargs; a++) {
                    int arg = op->args[a];
                    if (arg < 0 || arg >= op->id) {
                        sb_printf(err, "%s: op %%%d uses %%%d before its definition\n",
                                  k->name, op->id, arg);
                        return -1;
                    }
                    unsigned want = operand_width(op, a);
                    if (want && k->ops[arg].width != want) {
                        sb_printf(err, "%s: op %%%d (%s) operand %d is i%u, expected i%u\n",
                                  k->name, op->id, hls_ir_opcode_name(op->opc), a,
                                  k->ops[arg].width, want);
                        return -1;
                    }
                    if (op->start && k->ops[arg].start + k->ops[arg].latency > op->start &&
                        !hls_ir_is_invariant(&k->ops[arg])) {
                        sb_printf(err, "%s: op %%%d starts at stage %d before operand %%%d "
                                       "is ready\n", k->name, op->id, op->start, arg);
                        return -1;
                    }
                }
                if ((op->opc == HOP_LOAD || op->opc == HOP_STORE) &&
                    (op->lsu < 0 || op->lsu >= k->nlsus || op->width % 8 ||
                     (op->width & (op->width - 1)))) {
                    sb_printf(err, "%s: memory op %%%d has no valid load-store unit/width\n",
                              k->name, op->id);
                    return -1;
                }
            }
        }
    }
    return 0;
}
