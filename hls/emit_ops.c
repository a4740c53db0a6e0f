/* The operators of a static region and the values of the whole module. An integer
 * operation is a combinational expression followed by its latency's registers; a
 * floating-point operation, a conversion or a divider is an operator unit of the
 * templates; a __constant table read is a register fed by the table. The module's
 * __constant tables are byte arrays with their initial values, and its invariant
 * values (constants, arguments, NDRange registers) module-level wires v<id>. */
#include <stdio.h>

#include "emit.h"

const char *hls_emit_icmp_expr(uint64_t pred)
{
    switch (pred) {
    case LLVMIntEQ: return "%s == %s";
    case LLVMIntNE: return "%s != %s";
    case LLVMIntUGT: return "%s > %s";
    case LLVMIntUGE: return "%s >= %s";
    case LLVMIntULT: return "%s < %s";
    case LLVMIntULE: return "%s <= %s";
    case LLVMIntSGT: return "$signed(%s) > $signed(%s)";
    case LLVMIntSGE: return "$signed(%s) >= $signed(%s)";
    case LLVMIntSLT: return "$signed(%s) < $signed(%s)";
    case LLVMIntSLE: return "$signed(%s) <= $signed(%s)";
    default: HLS_BUG("icmp predicate %llu", (unsigned long long)pred);
    }
}

/* An integer operation's combinational expression (HOP_EXTRACT reads r<N>_v<id>_s). */
static void int_expr(emitter *e, const hls_op *op, strbuf *x)
{
    char args[4][40];
    unsigned w = op->width;
    switch (op->opc) {
    case HOP_ADD: sb_printf(x, "%s + %s", ARG(0), ARG(1)); break;
    case HOP_SUB: sb_printf(x, "%s - %s", ARG(0), ARG(1)); break;
    case HOP_MUL: sb_printf(x, "%s * %s", ARG(0), ARG(1)); break;
    case HOP_AND: sb_printf(x, "%s & %s", ARG(0), ARG(1)); break;
    case HOP_OR: sb_printf(x, "%s | %s", ARG(0), ARG(1)); break;
    case HOP_XOR: sb_printf(x, "%s ^ %s", ARG(0), ARG(1)); break;
    case HOP_SHL: sb_printf(x, "%s << %s", ARG(0), ARG(1)); break;
    case HOP_LSHR: sb_printf(x, "%s >> %s", ARG(0), ARG(1)); break;
    case HOP_ASHR: sb_printf(x, "$signed(%s) >>> %s", ARG(0), ARG(1)); break;
    case HOP_ICMP: sb_printf(x, hls_emit_icmp_expr(op->imm), ARG(0), ARG(1)); break;
    case HOP_SELECT: sb_printf(x, "%s ? %s : %s", ARG(0), ARG(1), ARG(2)); break;
    case HOP_TRUNC: sb_printf(x, "%s[%u:0]", ARG(0), w - 1); break;
    case HOP_EXTRACT: sb_printf(x, "r%d_v%d_s[%u:0]", R, op->id, w - 1); break;
    case HOP_INSERT: { /* every element: the new value where the index points */
        unsigned ew = (unsigned)op->imm, n = w / ew;
        sb_append(x, "{");
        for (unsigned i = n; i-- > 0;)
            sb_printf(x, "%s == %u ? %s : %s[%u +: %u]%s", ARG(2), i, ARG(1), ARG(0), i * ew, ew,
                      i ? ",\n        " : "");
        sb_append(x, "}");
        break;
    }
    case HOP_ZEXT: sb_printf(x, "{%u'd0, %s}", w - ARG_WIDTH(0), ARG(0)); break;
    case HOP_SEXT: {
        unsigned aw = ARG_WIDTH(0);
        sb_printf(x, "{{%u{%s[%u]}}, %s}", w - aw, ARG(0), aw - 1, ARG(0));
        break;
    }
    default: HLS_BUG("not an integer op: %s", hls_ir_opcode_name(op->opc));
    }
}

/* The bits an add, sub, mul, and, or, xor or left shift computes when its readers use
 * fewer than its width (narrow.c), else 0. */
static unsigned narrowed_bits(const hls_op *op)
{
    return hls_ir_low_bits_from_low_bits(op) && op->live_bits && op->live_bits < op->width
               ? op->live_bits : 0;
}

/* Such an operation on the low `live` bits of its operands (the shift amount whole),
 * the result's other bits zeros. In a concatenation the operation takes the width of
 * its operands: the carries and products beyond them are dropped. */
static void narrow_expr(emitter *e, const hls_op *op, unsigned live, strbuf *x)
{
    char args[4][40];
    static const char *const sign[] = {[HOP_ADD] = "+", [HOP_SUB] = "-", [HOP_MUL] = "*",
                                       [HOP_AND] = "&", [HOP_OR] = "|", [HOP_XOR] = "^",
                                       [HOP_SHL] = "<<"};
    const char *a = ARG(0), *b = ARG(1);
    if (op->opc == HOP_SHL)
        sb_printf(x, "{%u'd0, %s[%u:0] << %s}", op->width - live, a, live - 1, b);
    else
        sb_printf(x, "{%u'd0, %s[%u:0] %s %s[%u:0]}", op->width - live, a, live - 1,
                  sign[op->opc], b, live - 1);
}

/* A multiply: clhls_imul on the `live` low bits of its operands (all of them, or those
 * its readers use, narrow.c), the result's other bits zeros. */
static void emit_int_mul(emitter *e, const hls_op *op, unsigned live)
{
    char args[4][40];
    unsigned w = op->width;
    const char *y = text(e, "r%d_v%d", R, op->id);
    if (live < w)
        hls_nl_assign(e->m, y, "{%u'd0, %s}", w - live,
                      bus_net(e, live, NULL, text(e, "r%d_v%d_c", R, op->id)));
    hls_nl_instance *u = stage_unit(e, "clhls_imul", op->id);
    hls_nl_param(u, "W", "%u", live);
    hls_nl_param(u, "LATENCY", "%d", e->r->sched.latency[op->id]);
    sim_latency(e, u, start_of(e, op), home_stage(e, op));
    hls_nl_connect(u, HLS_NL_IN, "a", "%s", fit(e, ARG(0), ARG_WIDTH(0), live));
    hls_nl_connect(u, HLS_NL_IN, "b", "%s", fit(e, ARG(1), ARG_WIDTH(1), live));
    hls_nl_connect(u, HLS_NL_OUT, "y", "%s", live < w ? text(e, "r%d_v%d_c", R, op->id) : y);
}

/* An integer operation: a combinational expression followed by `latency` registers
 * (clhls_delay; none for latency 0); a multiply is clhls_imul. */
static void emit_int_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    unsigned w = op->width;
    if (op->opc == HOP_MUL) {
        unsigned live = narrowed_bits(op);
        emit_int_mul(e, op, live ? live : w);
        return;
    }
    if (op->opc == HOP_EXTRACT) /* the elements shifted down to the one the index picks */
        hls_nl_assign(e->m, bus_net(e, ARG_WIDTH(0), NULL, text(e, "r%d_v%d_s", R, op->id)),
                      "%s >> (%s * %u)", ARG(0), ARG(1), w);
    strbuf x = {0};
    unsigned live = narrowed_bits(op);
    if (live) /* only the low bits are read (narrow.c): computed from the operands' */
        narrow_expr(e, op, live, &x);
    else
        int_expr(e, op, &x);
    const char *c = bus_net(e, w, NULL, text(e, "r%d_v%d_c", R, op->id));
    hls_nl_assign(e->m, c, "%s", x.data);
    sb_free(&x);
    unsigned kept = hls_emit_live_width(op); /* the result's registers hold the bits read */
    hls_nl_instance *u = stage_unit(e, "clhls_delay", op->id);
    hls_nl_param(u, "WIDTH", "%u", kept);
    hls_nl_param(u, "LATENCY", "%d", e->r->sched.latency[op->id]);
    sim_latency(e, u, start_of(e, op), home_stage(e, op));
    const char *q = bus_net(e, kept, NULL, text(e, "r%d_v%d_q", R, op->id));
    hls_nl_connect(u, HLS_NL_IN, "d", "%s[%u:0]", c, kept - 1);
    hls_nl_connect(u, HLS_NL_OUT, "q", "%s", q);
    hls_nl_assign(e->m, text(e, "r%d_v%d", R, op->id), "%s", hls_emit_zero_extend(e, w, kept, q));
}

/* Whether value `id` is binary32 and never subnormal: the result of a binary32 unit
 * (they flush), an integer converted, a binary64 narrowed (dtof flushes), a constant
 * that is not subnormal, or a select or phi of such values (looked through to a
 * small depth). The simulation models need not flush such an operand. */
static int never_subnormal(const hls_kernel *k, int id, int depth)
{
    const hls_op *op = &k->ops[id];
    if (op->width != 32 || depth > 8)
        return 0;
    switch (op->opc) {
    case HOP_FADD: case HOP_FSUB: case HOP_FMUL: case HOP_FMA: case HOP_FDIV: case HOP_FSQRT:
    case HOP_SITOFP: case HOP_UITOFP: case HOP_FPTRUNC:
        return 1;
    case HOP_CONST:
        return ((op->imm >> 23) & 0xFF) != 0 || (op->imm & 0x7FFFFF) == 0;
    case HOP_SELECT:
        return never_subnormal(k, op->args[1], depth + 1) &&
               never_subnormal(k, op->args[2], depth + 1);
    case HOP_PHI:
        for (int i = 0; i < op->nin; i++)
            if (!never_subnormal(k, op->in_vals[i], depth + 1))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* SIM_NORMAL of a binary32 operator: bit i set when operand i is never subnormal, so
 * that its C model skips the flush (the hardware's flush leaves such a value as it
 * is). poly128: 11% fewer host instructions per simulated cycle. */
static void sim_normal(emitter *e, hls_nl_instance *u, const hls_op *op)
{
    unsigned mask = 0;
    for (int i = 0; i < op->nargs; i++)
        if (never_subnormal(e->k, op->args[i], 0))
            mask |= 1u << i;
    if (mask)
        hls_nl_param(u, "SIM_NORMAL", "%u", mask);
}

/* A floating-point operation, a conversion or a divider: its operator unit. */
static void emit_fp_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    int lat = e->r->sched.latency[op->id];
    unsigned fw = op->nargs ? ARG_WIDTH(0) : 32; /* the operands' format: 32 or 64 */
    hls_nl_instance *u;
    switch (op->opc) {
    case HOP_FADD: case HOP_FSUB:
        u = stage_unit(e, "clhls_fadd", op->id);
        hls_nl_param(u, "LATENCY", "%d", lat);
        hls_nl_param(u, "W", "%u", fw);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        hls_nl_connect(u, HLS_NL_IN, "b", "%s", ARG(1));
        hls_nl_connect(u, HLS_NL_IN, "sub", "1'b%d", op->opc == HOP_FSUB);
        break;
    case HOP_FMUL: case HOP_FMA: case HOP_FCMP:
        u = stage_unit(e, op->opc == HOP_FMUL ? "clhls_fmul" : op->opc == HOP_FMA ? "clhls_fma"
                                                                               : "clhls_fcmp",
                       op->id);
        hls_nl_param(u, "LATENCY", "%d", lat);
        hls_nl_param(u, "W", "%u", fw);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        hls_nl_connect(u, HLS_NL_IN, "b", "%s", ARG(1));
        if (op->opc == HOP_FMA)
            hls_nl_connect(u, HLS_NL_IN, "c", "%s", ARG(2));
        if (op->opc == HOP_FCMP)
            hls_nl_connect(u, HLS_NL_IN, "pred", "4'd%llu", (unsigned long long)op->imm);
        break;
    case HOP_FDIV:
        u = stage_unit(e, "clhls_fdiv", op->id);
        hls_nl_param(u, "W", "%u", fw);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        hls_nl_connect(u, HLS_NL_IN, "b", "%s", ARG(1));
        break;
    case HOP_FSQRT:
        u = stage_unit(e, "clhls_fsqrt", op->id);
        hls_nl_param(u, "W", "%u", fw);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        break;
    case HOP_SITOFP: case HOP_UITOFP:
        u = stage_unit(e, "clhls_itofp", op->id);
        hls_nl_param(u, "IN_W", "%u", ARG_WIDTH(0));
        hls_nl_param(u, "SIGNED", "%d", op->opc == HOP_SITOFP);
        hls_nl_param(u, "LATENCY", "%d", lat);
        hls_nl_param(u, "W", "%u", op->width);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        break;
    case HOP_FPTOSI: case HOP_FPTOUI:
        u = stage_unit(e, "clhls_fptoi", op->id);
        hls_nl_param(u, "OUT_W", "%u", op->width);
        hls_nl_param(u, "SIGNED", "%d", op->opc == HOP_FPTOSI);
        hls_nl_param(u, "LATENCY", "%d", lat);
        hls_nl_param(u, "W", "%u", fw);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        break;
    case HOP_FPEXT: case HOP_FPTRUNC:
        u = stage_unit(e, op->opc == HOP_FPEXT ? "clhls_ftod" : "clhls_dtof", op->id);
        hls_nl_param(u, "LATENCY", "%d", lat);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        break;
    case HOP_UDIV: case HOP_SDIV: case HOP_UREM: case HOP_SREM: {
        int rem = op->opc == HOP_UREM || op->opc == HOP_SREM;
        const char *unused = bus_net(e, op->width, NULL, text(e, "r%d_v%d_unused", R, op->id));
        u = stage_unit(e, "clhls_idiv", op->id);
        hls_nl_param(u, "WIDTH", "%u", op->width);
        hls_nl_param(u, "SIGNED", "%d", op->opc == HOP_SDIV || op->opc == HOP_SREM);
        hls_nl_param(u, "LATENCY", "%d", lat);
        hls_nl_connect(u, HLS_NL_IN, "a", "%s", ARG(0));
        hls_nl_connect(u, HLS_NL_IN, "b", "%s", ARG(1));
        hls_nl_connect(u, HLS_NL_OUT, "q", "%s", rem ? unused : text(e, "r%d_v%d", R, op->id));
        hls_nl_connect(u, HLS_NL_OUT, "r", "%s", rem ? text(e, "r%d_v%d", R, op->id) : unused);
        sim_latency(e, u, start_of(e, op), home_stage(e, op));
        return;
    }
    default: HLS_BUG("not an operator op: %s", hls_ir_opcode_name(op->opc));
    }
    hls_nl_connect(u, HLS_NL_OUT, "y", "r%d_v%d", R, op->id);
    sim_latency(e, u, start_of(e, op), home_stage(e, op));
    if (op->opc == HOP_FADD || op->opc == HOP_FSUB || op->opc == HOP_FMUL || op->opc == HOP_FMA ||
        op->opc == HOP_FCMP || op->opc == HOP_FDIV || op->opc == HOP_FSQRT)
        sim_normal(e, u, op);
}

/* A __constant table read: the loaded bytes, registered once. */
static void emit_rom_load(emitter *e, const hls_op *op)
{
    char args[4][40];
    unsigned ab = hls_ir_rom_address_bits(e->c->program->roms[op->rom].size);
    strbuf x = {0};
    sb_printf(&x, "always @(posedge clk) if (r%d_en) r%d_v%d <= {", R, R, op->id);
    for (int b = (int)op->width / 8 - 1; b >= 0; b--)
        sb_printf(&x, "rom%d[%s[%u:0] + %u'd%d]%s", op->rom, ARG(0), ab - 1, ab, b, b ? ", " : "");
    sb_append(&x, "};");
    block(e, text(e, "r%d_v%d", R, op->id), x.data);
    sb_free(&x);
}

/* The __constant tables the kernel reads: byte arrays with their initial values. */
void hls_emit_roms(emitter *e)
{
    const hls_program *p = e->c->program;
    strbuf init = {0};
    for (int r = 0; r < p->nroms; r++) {
        int used = 0;
        for (int i = 0; i < e->k->nops; i++)
            used |= e->k->ops[i].opc == HOP_LOAD && e->k->ops[i].rom == r;
        if (!used)
            continue;
        const hls_rom *rom = &p->roms[r];
        unsigned long long entries = 1ull << hls_ir_rom_address_bits(rom->size);
        const char *name = text(e, "rom%d", r);
        hls_nl_reg_array(e->m, name, 8, (unsigned)entries,
                         text(e, "__constant %s: %llu bytes", rom->name,
                              (unsigned long long)rom->size));
        init.len = 0;
        sb_printf(&init, "initial begin : %s_init\n    integer i;\n"
                         "    for (i = 0; i < %llu; i = i + 1)\n        %s[i] = 8'h00;\n",
                  name, entries, name);
        for (uint64_t b = 0; b < rom->size; b++)
            if (rom->bytes[b])
                sb_printf(&init, "    %s[%llu] = 8'h%02x;\n", name, (unsigned long long)b,
                          rom->bytes[b]);
        sb_append(&init, "end");
        block(e, name, init.data);
    }
    sb_free(&init);
}

/* Constants, arguments and NDRange registers: wires of the whole module. */
void hls_emit_invariant(emitter *e, const hls_op *op)
{
    const hls_kernel *k = e->k;
    const char *v = text(e, "v%d", op->id);
    switch (op->opc) {
    case HOP_CONST:
        bus_net(e, op->width, NULL, v);
        if (op->wide) { /* the initial value of a private array */
            strbuf x = {0};
            sb_printf(&x, "%u'h", op->width);
            for (int b = (int)op->width / 8 - 1; b >= 0; b--)
                sb_printf(&x, "%02x", op->wide[b]);
            hls_nl_assign(e->m, v, "%s", x.data);
            sb_free(&x);
            return;
        }
        hls_nl_assign(e->m, v, "%u'h%llx", op->width, (unsigned long long)op->imm);
        return;
    case HOP_ARG:
        bus_net(e, op->width, text(e, "argument %s%s", k->args[op->arg].name,
                                   op->imm ? " (a field)" : ""), v);
        hls_nl_assign(e->m, v, "args[%llu +: %u]",
                      8 * (k->args[op->arg].offset + (unsigned long long)op->imm), op->width);
        return;
    case HOP_ROM: /* addresses inside a table start at 0 */
        bus_net(e, 64, text(e, "__constant %s", e->c->program->roms[op->imm].name), v);
        hls_nl_assign(e->m, v, "64'd0");
        return;
    case HOP_LOCAL: /* and inside a local memory */
        bus_net(e, 64, text(e, "__local %s", k->locals[op->imm].name), v);
        hls_nl_assign(e->m, v, "64'd0");
        return;
    case HOP_NDRANGE: {
        char name[32];
        if (op->imm == HLS_ND_WORK_DIM)
            snprintf(name, sizeof name, "work_dim");
        else
            snprintf(name, sizeof name, "%s_%c", hls_emit_ndrange_reg((int)op->imm),
                     "xyz"[op->dim]);
        bus_net(e, op->width, NULL, v);
        hls_nl_assign(e->m, v, "%s",
                      fit(e, name, hls_emit_ndrange_width((int)op->imm), op->width));
        return;
    }
    default:
        HLS_BUG("not invariant: %s", hls_ir_opcode_name(op->opc));
    }
}

/* Bits that index the lanes of the pipelined loop around the current region. */
static unsigned lane_bits(const emitter *e)
{
    return count_bits(e->k->regions[e->r->parent].lanes - 1);
}

/* The lane of the iteration at `stage` of the current region, as an index. */
static const char *lane_at(emitter *e, const hls_op *lane, int stage)
{
    char buf[40];
    return text(e, "%s[%u:0]", hls_emit_ref(e, buf, lane, stage), lane_bits(e) - 1);
}

/* A loop-carried value when work-items take turns: a register per lane, written with
 * the next value of the lane's iteration as it passes stage `ready` (or `at`), read by
 * the lane's next one (a round later: schedule.c spaces the round so the value is
 * ready by then), or taken at `ready` when the iteration there is the lane's. */
static void emit_lane_recurrence(emitter *e, const hls_op *op, int at, int ready,
                                 const char *next)
{
    char args[4][40];
    const hls_op *lane = &e->k->ops[op->args[3]];
    int written = ready > at ? ready : at;
    const char *held = text(e, "r%d_rec%d", R, op->id);
    hls_nl_reg_array(e->m, held, op->width, 1u << lane_bits(e), "each lane's last next value");
    block(e, held, text(e, "always @(posedge clk) if (r%d_valid_s[%d] & r%d_en) %s[%s] <= %s;",
                        R, written, R, held, lane_at(e, lane, written), next));
    const char *mine = text(e, "%s[%s]", held, lane_at(e, lane, at));
    if (ready > at)
        mine = text(e, "r%d_valid_s[%d] && %s == %s ? %s : %s", R, ready,
                    lane_at(e, lane, ready), lane_at(e, lane, at), next, mine);
    hls_nl_assign(e->m, text(e, "r%d_v%d", R, op->id), "%s ? %s : %s", ARG(2), ARG(0), mine);
}

/* A loop-carried value of a pipelined loop at its stage: the initial value for the
 * first iteration, else the next value of the iteration before: from the stage where
 * it is ready when that iteration is there (the region admits an iteration only when
 * the stages between are empty: schedule.c's II), or from the register it was written
 * into as that iteration passed both stages. */
static void emit_recurrence(emitter *e, const hls_op *op)
{
    char args[4][40], next[40];
    const hls_op *n = &e->k->ops[op->args[1]];
    int at = start_of(e, op), ready = n->region == R ? home_stage(e, n) : 0;
    int written = ready > at ? ready : at; /* when the iteration has passed both */
    hls_emit_ref(e, next, n, written);
    if (e->k->regions[e->r->parent].lanes > 1) {
        emit_lane_recurrence(e, op, at, ready, next);
        return;
    }
    const char *held = bus_reg(e, op->width, "the last next value", text(e, "r%d_rec%d", R, op->id));
    block(e, held, text(e, "always @(posedge clk) if (r%d_valid_s[%d] & r%d_en) %s <= %s;", R,
                        written, R, held, next));
    if (ready > at)
        hls_nl_assign(e->m, text(e, "r%d_v%d", R, op->id), "%s ? %s : r%d_valid_s[%d] ? %s : %s",
                      ARG(2), ARG(0), R, ready, next, held);
    else
        hls_nl_assign(e->m, text(e, "r%d_v%d", R, op->id), "%s ? %s : %s", ARG(2), ARG(0), held);
}

const char *hls_emit_alive_done(emitter *e, int alive)
{
    return text(e, "r%d_done%d", e->k->ops[alive].region, alive);
}

/* The same when work-items take turns: a register per lane, all set at reset (a lane
 * that never held a work-item issues only dead iterations), and the lane of the alive
 * iteration that leaves (r<L>_stop_lane) frees its place in the generator. */
static void emit_lane_alive(emitter *e, const hls_op *op)
{
    char args[4][40];
    int s = start_of(e, op), loop = e->r->parent;
    unsigned lanes = 1u << lane_bits(e);
    const char *lane = lane_at(e, &e->k->ops[op->args[2]], s);
    const char *done = bus_reg(e, lanes, "per lane: an iteration of its work-item has left "
                               "the loop", hls_emit_alive_done(e, op->id));
    block(e, done, text(e, "always @(posedge clk)\n    if (rst) %s <= {%u{1'b1}};\n"
                           "    else if (r%d_valid_s[%d] & r%d_en) %s[%s] <= (~%s & %s[%s]) | ~%s;",
                        done, lanes, R, s, R, done, lane, ARG(1), done, lane, ARG(0)));
    hls_nl_assign(e->m, text(e, "r%d_v%d", R, op->id), "%s | ~%s[%s]", ARG(1), done, lane);
    hls_nl_assign(e->m, bit_net(e, "an alive iteration leaves: its lane is free",
                                text(e, "r%d_stop", loop)),
                  "r%d_valid_s[%d] & r%d_en & r%d_v%d & ~%s", R, s, R, R, op->id, ARG(0));
    hls_nl_assign(e->m, bus_net(e, lane_bits(e), "the lane of the iteration that leaves",
                                text(e, "r%d_stop_lane", loop)), "%s", lane);
}

/* Whether no earlier iteration of the work-item has left the pipelined loop: the first
 * iteration is alive, and the exits seen since make the later ones dead. The exit of
 * an alive iteration stops the loop's generator (r<L>_stop). A speculative loop's
 * generator takes a work-item only when no iteration is in flight, and the register
 * starts again from 0 then, so it never holds an earlier work-item's exit while a
 * held load waits for it (clhls_lsu_load's s_release). */
static void emit_alive(emitter *e, const hls_op *op)
{
    char args[4][40];
    int s = start_of(e, op), loop = e->r->parent;
    if (e->k->regions[loop].lanes > 1) {
        emit_lane_alive(e, op);
        return;
    }
    const char *done = bus_reg(e, 1, "an iteration of this work-item has left the loop",
                               hls_emit_alive_done(e, op->id));
    const char *reset = e->k->regions[loop].speculative ? text(e, "rst | r%d_take", loop) : "rst";
    block(e, done, text(e, "always @(posedge clk)\n    if (%s) %s <= 1'b0;\n"
                           "    else if (r%d_valid_s[%d] & r%d_en) %s <= (~%s & %s) | ~%s;",
                        reset, done, R, s, R, done, ARG(1), done, ARG(0)));
    hls_nl_assign(e->m, text(e, "r%d_v%d", R, op->id), "%s | ~%s", ARG(1), done);
    hls_nl_assign(e->m, bit_net(e, "an alive iteration leaves: the generator stops",
                                text(e, "r%d_stop", e->r->parent)),
                  "r%d_valid_s[%d] & r%d_en & r%d_v%d & ~%s", R, s, R, R, op->id, ARG(0));
}

/* An op of a static region: its value r<N>_v<id> (commented with the op and its
 * line), and what computes it. */
void hls_emit_op(emitter *e, const hls_op *op)
{
    const char *value = text(e, "r%d_v%d", R, op->id);
    const char *comment = op->loc.line ? text(e, "%%%d %s, line %u", op->id,
                                              hls_ir_opcode_name(op->opc), op->loc.line)
                                       : NULL;
    int reg = op->opc == HOP_TOKEN || op->opc == HOP_LOAD;
    (reg ? bus_reg : bus_net)(e, op->width, comment, value);
    switch (op->opc) {
    case HOP_TOKEN: {
        /* read from the work-item generator as the work-item enters (stage 0) */
        char name[32];
        hls_emit_token_wire(name, sizeof name, (int)op->imm, op->dim);
        block(e, value, text(e, "always @(posedge clk) if (r%d_en) %s <= %s;", R, value,
                             fit(e, name, hls_emit_token_width((int)op->imm), op->width)));
        return;
    }
    case HOP_FADD: case HOP_FSUB: case HOP_FMUL: case HOP_FCMP: case HOP_SITOFP:
    case HOP_UITOFP: case HOP_FPTOSI: case HOP_FPTOUI: case HOP_UDIV: case HOP_SDIV:
    case HOP_UREM: case HOP_SREM: case HOP_FDIV: case HOP_FSQRT: case HOP_FMA:
    case HOP_FPEXT: case HOP_FPTRUNC:
        emit_fp_op(e, op);
        return;
    case HOP_RECUR:
        emit_recurrence(e, op);
        return;
    case HOP_ALIVE:
        emit_alive(e, op);
        return;
    case HOP_LOAD: case HOP_STORE: case HOP_ATOMIC:
        if (op->rom < 0 || op->opc != HOP_LOAD) /* memnodes.c moved every other access */
            HLS_BUG("memory access %%%d in static region %d", op->id, R);
        emit_rom_load(e, op);
        return;
    default:
        emit_int_op(e, op);
        return;
    }
}
