/* Verilog emission: one compute-unit module per kernel (clhls_cu_UNIT, UNIT the kernel's
 * name or a short form of a long one: hls_kernel.unit) and the
 * accelerator top (clhls_top) that joins them on the register port and, through
 * clhls_mem_interconnect (and a clhls_atomic_unit when a kernel has global atomics),
 * on the board's memory port.
 *
 * A compute unit is the fixed shell (rtl-templates/clhls_cu_shell.v: the kernel's
 * register block, the work-group dispatcher, the work-group slot allocator when the
 * kernel has local memory or barriers, the work-item generator), its local memories
 * and the region tree. Every region has a valid/ready input and output carrying the
 * work-item's token (the region's live values). A static region is a pipeline of
 * fixed latencies: a stall-free cluster whose input waits for room in its exit FIFO,
 * or, when short, stages that advance together (r<N>_en) while the exit FIFO has
 * room; the FIFO's registered ready keeps every stall inside its region. A memory
 * node holds load-store units and local-memory ports: a work-item's requests issue
 * together, its token waits in a FIFO and leaves with the answers. In region N a value
 * produced at stage p and read up to stage q is carried by registers
 * r<N>_v<id>_d1 .. _d(q-p); r<N>_v<id> is the value at its home stage (stage 0 for
 * values entering the region). A loop merges its entry and its back edge (back edge
 * first), admits a new work-item only while it has credits, runs the body's regions,
 * and splits at the end: back into the back-edge FIFO, or out through the exit FIFO.
 * A barrier region is a clhls_barrier unit (computing the work-group function, if
 * any). Invariant values (constants, arguments, NDRange registers) are module-level
 * wires v<id>.
 *
 * Every module is built in the netlist model (netlist.h) — nets and regs, instances,
 * assigns, blocks that name the regs they assign — and no file is written unless each
 * one passes hls_nl_check. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "netlist.h"
#include "passes.h"
#include "regmap.h"

typedef struct emitter {
    hls_compile *c;         /* the compilation */
    hls_nl_module *m;       /* the compute unit's module being built */
    const hls_kernel *k;    /* kernel being emitted */
    int kernel_index;       /* position in the program (register block) */
    unsigned mem_w;         /* memory port width in bits */
    const hls_region *r;    /* static region being emitted */
    int fold;               /* its stages per simulated stage (folded_region), or 0 */
    const hls_region *loop; /* loop whose back edge or exit is being packed */
} emitter;

/* Text formatted in the compilation's arena (a name or an expression). */
static const char *text(emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *text(emitter *e, const char *fmt, ...)
{
    strbuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    const char *s = arena_strdup(&e->c->arena, sb.data ? sb.data : "");
    sb_free(&sb);
    return s;
}

/* Declares a one-bit net of the compute unit; returns its name. */
static const char *bit_net(emitter *e, const char *comment, const char *name)
{
    hls_nl_net(e->m, name, 1, comment);
    return name;
}

/* Declares a net of `width` bits, with a range even at one bit (values, tokens and
 * per-port buses are indexed); returns its name. */
static const char *bus_net(emitter *e, unsigned width, const char *comment, const char *name)
{
    hls_nl_net(e->m, name, width, comment);
    hls_nl_vector(e->m, name);
    return name;
}

/* The same for a reg (assigned in a block). */
static const char *bus_reg(emitter *e, unsigned width, const char *comment, const char *name)
{
    hls_nl_reg(e->m, name, width, comment);
    hls_nl_vector(e->m, name);
    return name;
}

/* A block of the compute unit that assigns reg `reg`. */
static void block(emitter *e, const char *reg, const char *block_text)
{
    hls_nl_drives(hls_nl_block_new(e->m, block_text), reg);
}

/* An instance with the clock and, when `reset`, the reset connected. */
static hls_nl_instance *instance(emitter *e, const char *module, const char *name, int reset)
{
    hls_nl_instance *i = hls_nl_instance_new(e->m, module, name);
    hls_nl_connect(i, HLS_NL_IN, "clk", "clk");
    if (reset)
        hls_nl_connect(i, HLS_NL_IN, "rst", "rst");
    return i;
}

/* An instance of a fixed-latency unit of the current static region: the clock, and
 * the region's enable on ce. */
static hls_nl_instance *stage_unit(emitter *e, const char *module, int id)
{
    hls_nl_instance *i = instance(e, module, text(e, "u%d", id), 0);
    hls_nl_connect(i, HLS_NL_IN, "ce", "r%d_en", e->r->id);
    return i;
}

/* Stages of a folded region per stage of its simulation. Fewer registers to move make
 * a cycle shorter, and more operations of one work-item per stage make it a longer
 * chain of dependent ones, which the host runs one after the other (the polynomial of
 * 256 operations, seconds for 2M work-items: 3.6 unfolded, 3.0 in fours, 2.5 in
 * eights, 2.0 in 16s and 32s, 2.2 in 64s, 2.8 in one stage). */
#define FOLD_STAGES 16

/* The stage of the simulation that stage s of the current region is. */
static int sim_stage(const emitter *e, int s)
{
    return e->fold ? s / e->fold : s;
}

/* A unit's latency in simulation, from stage `from` to stage `to` of a folded region. */
static void sim_latency(emitter *e, hls_nl_instance *u, int from, int to)
{
    if (e->fold)
        hls_nl_param(u, "SIM_LATENCY", "%d", sim_stage(e, to) - sim_stage(e, from));
}

/* The stage op starts at in the current static region (a memory node has none: its
 * accesses read the node's input). */
static int start_of(const emitter *e, const hls_op *op)
{
    return e->r->kind == HLS_REGION_MEMORY ? 0 : e->r->sched.start[op->id];
}

static int home_stage(const emitter *e, const hls_op *op)
{
    const hls_sched *s = &e->r->sched;
    return op->region == e->r->id ? s->start[op->id] + s->latency[op->id] : 0;
}

/* Name of op's value as seen at `stage` of the current region. */
static const char *ref(const emitter *e, char buf[40], const hls_op *op, int stage)
{
    if (hls_ir_is_invariant(op)) {
        snprintf(buf, 40, "v%d", op->id);
        return buf;
    }
    if (e->r->kind == HLS_REGION_MEMORY) { /* a memory node reads its input */
        snprintf(buf, 40, "r%d_in_v%d", e->r->id, op->id);
        return buf;
    }
    int delay = stage - home_stage(e, op);
    if (delay < 0)
        HLS_BUG("value %%%d read at stage %d before it exists (stage %d)", op->id, stage,
                home_stage(e, op));
    if (delay == 0)
        snprintf(buf, 40, "r%d_v%d", e->r->id, op->id);
    else
        snprintf(buf, 40, "r%d_v%d_d%d", e->r->id, op->id, delay);
    return buf;
}

#define ARG(i) ref(e, args[i], &e->k->ops[op->args[i]], start_of(e, op))
#define ARG_WIDTH(i) (e->k->ops[op->args[i]].width)
#define R (e->r->id)

/* Bits of a counter that goes from 0 to max. */
static unsigned count_bits(int max)
{
    unsigned bits = 1;
    while ((1u << bits) <= (unsigned)max)
        bits++;
    return bits;
}

/* Expression `name` of width `from` fitted to width `to` (zero extension). */
static const char *fit(emitter *e, const char *name, unsigned from, unsigned to)
{
    if (from == to)
        return name;
    if (from > to)
        return text(e, "%s[%u:0]", name, to - 1);
    return text(e, "{%u'd0, %s}", to - from, name);
}

/* The work-item generator's output for a token field ("wi_local_id_y", "wi_slot"). */
static void token_wire(char *buf, size_t size, int field, int dim)
{
    static const char *const names[] = {"global_id", "local_id", "group_id", "group_size",
                                        "slot", "local_linear_id", "group_linear_size"};
    if (field >= HLS_TOK_SLOT)
        snprintf(buf, size, "wi_%s", names[field]);
    else
        snprintf(buf, size, "wi_%s_%c", names[field], "xyz"[dim]);
}

static unsigned token_width(int field)
{
    return field == HLS_TOK_GLOBAL_ID ? 64 : field == HLS_TOK_SLOT ? HLS_SLOT_BITS : 32;
}

static const char *ndrange_reg(int reg)
{
    static const char *const names[] = {"work_dim", "global_size", "local_size",
                                        "global_offset", "num_groups"};
    return names[reg];
}

static unsigned ndrange_width(int reg)
{
    return reg == HLS_ND_GLOBAL_SIZE || reg == HLS_ND_GLOBAL_OFFSET ? 64 : 32;
}

static const char *icmp_expr(uint64_t pred)
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
    case HOP_ICMP: sb_printf(x, icmp_expr(op->imm), ARG(0), ARG(1)); break;
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

/* An integer operation: a combinational expression followed by `latency` registers
 * (clhls_delay; none for latency 0). */
static void emit_int_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    unsigned w = op->width;
    if (op->opc == HOP_EXTRACT) /* the elements shifted down to the one the index picks */
        hls_nl_assign(e->m, bus_net(e, ARG_WIDTH(0), NULL, text(e, "r%d_v%d_s", R, op->id)),
                      "%s >> (%s * %u)", ARG(0), ARG(1), w);
    strbuf x = {0};
    int_expr(e, op, &x);
    const char *c = bus_net(e, w, NULL, text(e, "r%d_v%d_c", R, op->id));
    hls_nl_assign(e->m, c, "%s", x.data);
    sb_free(&x);
    hls_nl_instance *u = stage_unit(e, "clhls_delay", op->id);
    hls_nl_param(u, "WIDTH", "%u", w);
    hls_nl_param(u, "LATENCY", "%d", e->r->sched.latency[op->id]);
    sim_latency(e, u, start_of(e, op), home_stage(e, op));
    hls_nl_connect(u, HLS_NL_IN, "d", "%s", c);
    hls_nl_connect(u, HLS_NL_OUT, "q", "r%d_v%d", R, op->id);
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

/* The request side of global load-store unit n: wires of its own, gathered into the
 * compute unit's per-unit buses by emit_request_buses. Stores and atomics also send
 * data and byte enables, atomics an operation code. */
static void emit_lsu_request_wires(emitter *e, const hls_op *op)
{
    int n = op->lsu;
    bit_net(e, NULL, text(e, "lsu%d_m_valid", n));
    bit_net(e, NULL, text(e, "lsu%d_m_resp_ready", n));
    bus_net(e, 64, NULL, text(e, "lsu%d_m_addr", n));
    if (op->opc != HOP_LOAD) {
        bus_net(e, e->mem_w, NULL, text(e, "lsu%d_m_wdata", n));
        bus_net(e, e->mem_w / 8, NULL, text(e, "lsu%d_m_wstrb", n));
    }
    if (op->opc == HOP_ATOMIC)
        bus_net(e, 4, NULL, text(e, "lsu%d_m_atomic", n));
}

/* The memory-side connections shared by every global load-store unit kind. */
static void connect_lsu_memory_ports(hls_nl_instance *u, int n)
{
    hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_valid", "lsu%d_m_valid", n);
    hls_nl_connect(u, HLS_NL_IN, "m_mem_req_ready", "m_req_ready[%d]", n);
    hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_addr", "lsu%d_m_addr", n);
    hls_nl_connect(u, HLS_NL_IN, "s_mem_resp_valid", "s_resp_valid[%d]", n);
    hls_nl_connect(u, HLS_NL_OUT, "s_mem_resp_ready", "lsu%d_m_resp_ready", n);
}

/* The predicate of a memory access as its node receives it ("1'b1" when the access
 * always executes). */
static const char *pred_in(const emitter *e, const hls_op *op, char buf[40])
{
    if (!op->has_pred)
        return "1'b1";
    return ref(e, buf, &e->k->ops[op->args[op->nargs - 1]], 0);
}

/* Value id as the token waiting in memory node e->r holds it. */
static const char *waiting(const emitter *e, int id, char buf[40])
{
    if (hls_ir_is_invariant(&e->k->ops[id]))
        snprintf(buf, 40, "v%d", id);
    else
        snprintf(buf, 40, "r%d_w_v%d", e->r->id, id);
    return buf;
}

/* Address bits of a ROM of `size` bytes (its array is padded to a power of two). */
static unsigned rom_address_bits(uint64_t size)
{
    unsigned bits = 1;
    while ((1ull << bits) < size)
        bits++;
    return bits;
}

/* A __constant table read: the loaded bytes, registered once. */
static void emit_rom_load(emitter *e, const hls_op *op)
{
    char args[4][40];
    unsigned ab = rom_address_bits(e->c->program->roms[op->rom].size);
    strbuf x = {0};
    sb_printf(&x, "always @(posedge clk) if (r%d_en) r%d_v%d <= {", R, R, op->id);
    for (int b = (int)op->width / 8 - 1; b >= 0; b--)
        sb_printf(&x, "rom%d[%s[%u:0] + %u'd%d]%s", op->rom, ARG(0), ab - 1, ab, b, b ? ", " : "");
    sb_append(&x, "};");
    block(e, text(e, "r%d_v%d", R, op->id), x.data);
    sb_free(&x);
}

/* Name of the unit serving a memory op: "lsu3" (global), "lm0p2" (port 2 of local
 * memory 0), "lm0p2r1" (requester 1 of port 2, a port accesses share). Its handshake
 * with the memory node: <unit>_req_valid and _req_ready for the request, _resp_valid
 * and _resp_ready for the answer (a load's or atomic's data in <unit>_rdata). */
static const char *unit_name(const hls_op *op, char buf[24])
{
    if (op->lmem >= 0 && op->lshare >= 0)
        snprintf(buf, 24, "lm%dp%dr%d", op->lmem, op->lport, op->lshare);
    else if (op->lmem >= 0)
        snprintf(buf, 24, "lm%dp%d", op->lmem, op->lport);
    else
        snprintf(buf, 24, "lsu%d", op->lsu);
    return buf;
}

/* The vectors an access drives its slice of: the memory's port vectors "lm<M>", or on
 * a shared port its requesters' "lm<M>p<P>"; and its slice's index. */
static const char *local_vectors(emitter *e, const hls_op *op, int *index)
{
    *index = op->lshare >= 0 ? op->lshare : op->lport;
    return op->lshare >= 0 ? text(e, "lm%dp%d", op->lmem, op->lport) : text(e, "lm%d", op->lmem);
}

/* assign lm<M>_<field>[base +: width] = expression: port P's slice of a local memory's
 * port vector (lm<M>p<P>_<field>, requester R's slice, on a shared port). */
static void local_port_assign(emitter *e, const hls_op *op, const char *field, unsigned width,
                              const char *expr)
{
    int index;
    const char *v = local_vectors(e, op, &index);
    hls_nl_assign(e->m, text(e, "%s_%s[%u +: %u]", v, field, width * (unsigned)index, width),
                  "%s", expr);
}

/* A local-memory access on its port: the request carries the word address ({slot,
 * offset}), a store's or atomic's value (and a cmpxchg's compare value) repeated
 * across the word with the byte enables of its bytes; a load or atomic picks its bytes
 * out of the answered word with its address (carried in the node's token). Every local
 * access gets a response: data, or a store's acknowledgement. */
static void emit_local_op(emitter *e, const hls_op *op)
{
    char args[4][40], u[24], at_answer[40];
    const hls_local *m = &e->k->locals[op->lmem];
    int port;
    const char *lm = local_vectors(e, op, &port);
    unsigned aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits, wb = ww / 8;
    unsigned ob = 0; /* bits of the byte offset inside a word */
    while ((1u << ob) < wb)
        ob++;
    unit_name(op, u);
    int atomic = op->opc == HOP_ATOMIC;
    hls_nl_assign(e->m, text(e, "%s_req_valid[%d]", lm, port), "%s_req_valid", u);
    hls_nl_assign(e->m, text(e, "%s_req_ready", u), "%s_req_ready[%d]", lm, port);
    hls_nl_assign(e->m, text(e, "%s_req_write[%d]", lm, port), "1'b%d", op->opc == HOP_STORE);
    local_port_assign(e, op, "req_addr", aw, text(e, "%s[%u:0]", ARG(0), aw - 1));
    if (m->atomics) { /* the operation, its lane width and a cmpxchg's compare value */
        local_port_assign(e, op, "req_atomic", 4, text(e, "4'd%d", atomic ? (int)op->imm : 0));
        hls_nl_assign(e->m, text(e, "%s_req_wide[%d]", lm, port), "1'b%d", op->width == 64);
        if (atomic && op->imm == HLS_ATOMIC_CMPXCHG)
            local_port_assign(e, op, "req_cmp", ww, text(e, "{%u{%s}}", ww / op->width, ARG(2)));
        else
            local_port_assign(e, op, "req_cmp", ww, text(e, "%u'd0", ww));
    }
    if (op->opc == HOP_STORE || atomic) {
        unsigned w = op->width;
        local_port_assign(e, op, "req_wdata", ww, text(e, "{%u{%s}}", ww / w, ARG(1)));
        if (w == ww)
            local_port_assign(e, op, "req_wstrb", wb, text(e, "{%u{1'b1}}", wb));
        else
            local_port_assign(e, op, "req_wstrb", wb,
                              text(e, "{%u'd0, %u'h%llx} << %s[%u:0]", wb - w / 8, w / 8,
                                   (1ull << (w / 8)) - 1, ARG(0), ob - 1));
    } else {
        local_port_assign(e, op, "req_wdata", ww, text(e, "%u'd0", ww));
        local_port_assign(e, op, "req_wstrb", wb, text(e, "%u'd0", wb));
    }
    hls_nl_assign(e->m, text(e, "%s_resp_valid", u), "%s_resp_valid[%d]", lm, port);
    hls_nl_assign(e->m, text(e, "%s_resp_ready[%d]", lm, port), "%s_resp_ready", u);
    if (op->opc != HOP_LOAD && !atomic)
        return;
    const char *answer = text(e, "%s_resp_rdata[%u +: %u]", lm, ww * (unsigned)port, ww);
    if (op->width == ww) {
        hls_nl_assign(e->m, text(e, "%s_rdata", u), "%s", answer);
        return;
    }
    waiting(e, op->args[0], at_answer);
    const char *word = bus_net(e, ww, NULL, text(e, "%s_word", u));
    hls_nl_assign(e->m, word, "%s >> {%s[%u:0], 3'd0}", answer, at_answer, ob - 1);
    hls_nl_assign(e->m, text(e, "%s_rdata", u), "%s[%u:0]", word, op->width - 1);
}

/* The __constant tables the kernel reads: byte arrays with their initial values. */
static void emit_roms(emitter *e)
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
        unsigned long long entries = 1ull << rom_address_bits(rom->size);
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
static void emit_invariant(emitter *e, const hls_op *op)
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
            snprintf(name, sizeof name, "%s_%c", ndrange_reg((int)op->imm), "xyz"[op->dim]);
        bus_net(e, op->width, NULL, v);
        hls_nl_assign(e->m, v, "%s", fit(e, name, ndrange_width((int)op->imm), op->width));
        return;
    }
    default:
        HLS_BUG("not invariant: %s", hls_ir_opcode_name(op->opc));
    }
}

/* An op of a static region: its value r<N>_v<id> (commented with the op and its
 * line), and what computes it. */
static void emit_op(emitter *e, const hls_op *op)
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
        token_wire(name, sizeof name, (int)op->imm, op->dim);
        block(e, value, text(e, "always @(posedge clk) if (r%d_en) %s <= %s;", R, value,
                             fit(e, name, token_width((int)op->imm), op->width)));
        return;
    }
    case HOP_FADD: case HOP_FSUB: case HOP_FMUL: case HOP_FCMP: case HOP_SITOFP:
    case HOP_UITOFP: case HOP_FPTOSI: case HOP_FPTOUI: case HOP_UDIV: case HOP_SDIV:
    case HOP_UREM: case HOP_SREM: case HOP_FDIV: case HOP_FSQRT: case HOP_FMA:
    case HOP_FPEXT: case HOP_FPTRUNC:
        emit_fp_op(e, op);
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

/* Sorts a list of numbers and drops repeats; returns the new length. */
static int sort_unique(int *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* Delays (stages after its home) at which the region reads value id. */
static int read_delays(const emitter *e, int id, int *out)
{
    const hls_region *r = e->r;
    const hls_sched *s = &r->sched;
    int home = home_stage(e, &e->k->ops[id]), n = 0;
    for (int i = 0; i <= r->nops; i++) {
        int stage = -1;
        if (i == r->nops) {
            stage = s->last_use[id]; /* the exit */
        } else {
            const hls_op *op = &e->k->ops[r->ops[i]];
            for (int a = 0; a < op->nargs; a++)
                if (op->args[a] == id)
                    stage = s->start[op->id];
        }
        if (stage - home > 0)
            out[n++] = stage - home;
    }
    return sort_unique(out, n);
}

/* A clhls_delay_taps' list of delays ({last, .., first}) for readers taps[t] stages
 * after `home`: those stages, or (sim) the stages of the simulation between them. */
static void delay_list(const emitter *e, strbuf *x, const int *taps, int n, int home, int sim)
{
    x->len = 0;
    for (int t = n - 1; t >= 0; t--)
        sb_printf(x, "%s32'd%d", t == n - 1 ? "{" : ", ",
                  sim ? sim_stage(e, home + taps[t]) - sim_stage(e, home) : taps[t]);
    sb_printf(x, "}");
}

/* Carries a value of the region from its home stage to each stage that reads it: a
 * delay line (one reader) or a delay line with a tap per reader (clhls_delay_taps),
 * r<R>_v<id>_d<delay> being the value that many stages after its home. */
static void emit_carry_registers(emitter *e, int id)
{
    const hls_op *op = &e->k->ops[id];
    if (hls_ir_is_invariant(op) || op->opc == HOP_STORE || e->r->sched.last_use[id] < 0)
        return;
    int taps[e->r->nops + 2];
    int n = read_delays(e, id, taps), home = home_stage(e, op);
    if (!n)
        return;
    if (n == 1) {
        hls_nl_instance *u = instance(e, "clhls_delay", text(e, "r%d_c%d_%d", R, id, taps[0]), 0);
        hls_nl_param(u, "WIDTH", "%u", op->width);
        hls_nl_param(u, "LATENCY", "%d", taps[0]);
        sim_latency(e, u, home, home + taps[0]);
        hls_nl_connect(u, HLS_NL_IN, "ce", "r%d_en", R);
        hls_nl_connect(u, HLS_NL_IN, "d", "r%d_v%d", R, id);
        hls_nl_connect(u, HLS_NL_OUT, "q", "%s",
                       bus_net(e, op->width, NULL, text(e, "r%d_v%d_d%d", R, id, taps[0])));
        return;
    }
    strbuf delays = {0};
    delay_list(e, &delays, taps, n, home, 0);
    const char *all = bus_net(e, (unsigned)n * op->width, NULL, text(e, "r%d_v%d_taps", R, id));
    hls_nl_instance *u = instance(e, "clhls_delay_taps", text(e, "r%d_c%d", R, id), 0);
    hls_nl_param(u, "WIDTH", "%u", op->width);
    hls_nl_param(u, "TAPS", "%d", n);
    hls_nl_param(u, "DELAYS", "%s", delays.data);
    if (e->fold) {
        delay_list(e, &delays, taps, n, home, 1);
        hls_nl_param(u, "SIM_DELAYS", "%s", delays.data);
    }
    sb_free(&delays);
    hls_nl_connect(u, HLS_NL_IN, "ce", "r%d_en", R);
    hls_nl_connect(u, HLS_NL_IN, "d", "r%d_v%d", R, id);
    hls_nl_connect(u, HLS_NL_OUT, "q", "%s", all);
    for (int t = 0; t < n; t++)
        hls_nl_assign(e->m, bus_net(e, op->width, NULL, text(e, "r%d_v%d_d%d", R, id, taps[t])),
                      "%s[%u +: %u]", all, (unsigned)t * op->width, op->width);
}

/* Bits of the token of a value list. */
static unsigned token_bits(const hls_kernel *k, const int *ids, int n)
{
    unsigned bits = 0;
    for (int i = 0; i < n; i++)
        bits += k->ops[ids[i]].width;
    return bits ? bits : 1;
}

/* Declares nets PREFIX_v<id> for a list of values. */
static void declare_token(emitter *e, const char *prefix, const int *ids, int n)
{
    for (int i = 0; i < n; i++)
        bus_net(e, e->k->ops[ids[i]].width, NULL, text(e, "%s_v%d", prefix, ids[i]));
}

/* The concatenation {PREFIX_v<a>, PREFIX_v<b>, ...} (or 1'b0 when empty); `name`
 * gives each value's expression. */
static const char *pack(emitter *e, const int *ids, int n,
                        const char *(*name)(emitter *, int, char *))
{
    char buf[64];
    if (!n)
        return "1'b0";
    strbuf x = {0};
    sb_append(&x, "{");
    for (int i = 0; i < n; i++)
        sb_printf(&x, "%s%s", i ? ", " : "", name(e, ids[i], buf));
    sb_append(&x, "}");
    const char *s = text(e, "%s", x.data);
    sb_free(&x);
    return s;
}

/* Assigns the fields of a packed token `data` to PREFIX_v<id> nets. */
static void unpack(emitter *e, const char *prefix, const char *data, const int *ids, int n)
{
    unsigned hi = token_bits(e->k, ids, n);
    for (int i = 0; i < n; i++) {
        unsigned w = e->k->ops[ids[i]].width;
        hls_nl_assign(e->m, text(e, "%s_v%d", prefix, ids[i]), "%s[%u:%u]", data, hi - 1, hi - w);
        hi -= w;
    }
}

/* The ports of a clhls_fifo: what each reads or drives ("" leaves an output open). */
typedef struct fifo_ports {
    const char *s_valid, *s_ready, *s_data; /* the side that pushes */
    const char *m_valid, *m_ready, *m_data; /* the side that pops */
    const char *count;                      /* entries held */
} fifo_ports;

/* A clhls_fifo of `width` bits and `depth` entries. */
static void emit_fifo(emitter *e, const char *name, unsigned width, int depth, fifo_ports p)
{
    hls_nl_instance *f = instance(e, "clhls_fifo", name, 1);
    hls_nl_param(f, "WIDTH", "%u", width);
    hls_nl_param(f, "DEPTH", "%d", depth);
    hls_nl_connect(f, HLS_NL_IN, "s_valid", "%s", p.s_valid);
    hls_nl_connect(f, HLS_NL_OUT, "s_ready", "%s", p.s_ready ? p.s_ready : "");
    hls_nl_connect(f, HLS_NL_IN, "s_data", "%s", p.s_data);
    hls_nl_connect(f, HLS_NL_OUT, "m_valid", "%s", p.m_valid ? p.m_valid : "");
    hls_nl_connect(f, HLS_NL_IN, "m_ready", "%s", p.m_ready);
    hls_nl_connect(f, HLS_NL_OUT, "m_data", "%s", p.m_data);
    hls_nl_connect(f, HLS_NL_OUT, "count", "%s", p.count ? p.count : "");
}

/* 1 when value id enters and leaves the region, which never reads it. */
static int passes_through(const emitter *e, int id)
{
    const hls_region *r = e->r;
    if (e->k->ops[id].region == r->id)
        return 0;
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &e->k->ops[r->ops[i]];
        for (int a = 0; a < op->nargs; a++)
            if (op->args[a] == id)
                return 0;
    }
    for (int i = 0; i < r->nlive_out; i++)
        if (r->live_out[i] == id)
            return 1;
    return 0;
}

static const char *value_at_end(emitter *e, int id, char *buf)
{
    if (passes_through(e, id) && e->r->sched.depth > 0) {
        sprintf(buf, "r%d_side_v%d", e->r->id, id);
        return buf;
    }
    return ref(e, buf, &e->k->ops[id], e->r->sched.depth);
}

/* Value-name callback for pack(): a region's input. */
static const char *in_value(emitter *e, int id, char *buf)
{
    sprintf(buf, "r%d_in_v%d", e->r->id, id);
    return buf;
}

/* Values that only pass through a region ride a FIFO beside its pipeline (the
 * pipeline keeps work-items in order): a RAM instead of a register per stage. */
static void emit_side_fifo(emitter *e, const hls_region *r)
{
    int side[r->nlive_in + 1], n = 0;
    for (int i = 0; i < r->nlive_in; i++)
        if (passes_through(e, r->live_in[i]))
            side[n++] = r->live_in[i];
    if (!n || !r->sched.depth)
        return;
    const char *prefix = text(e, "r%d_side", R);
    declare_token(e, prefix, side, n);
    unsigned bits = token_bits(e->k, side, n);
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_side_data", R));
    emit_fifo(e, prefix, bits, r->sched.depth + 2,
              (fifo_ports){.s_valid = text(e, "r%d_in_valid & r%d_in_ready", R, R),
                           .s_data = pack(e, side, n, in_value),
                           .m_ready = text(e, "r%d_valid_s[%d] & r%d_en", R, r->sched.depth, R),
                           .m_data = data});
    unpack(e, prefix, data, side, n);
}

/* The stage registers of a static region: which stages hold a work-item, and the
 * values entering it (but those that ride the side FIFO). */
static void emit_stage_registers(emitter *e, const hls_region *r)
{
    int d = r->sched.depth;
    const char *valid = bus_reg(e, (unsigned)d + 1, "stage s holds a work-item",
                                text(e, "r%d_valid_s", R));
    const char *enter = text(e, "r%d_in_valid & r%d_in_ready", R, R);
    block(e, valid, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                            "    else if (r%d_en) %s <= %s;", valid, R, valid,
                         d ? text(e, "{%s[%d:0], %s}", valid, d - 1, enter) : enter));
    for (int i = 0; i < r->nlive_in; i++) {
        int id = r->live_in[i];
        if (d && passes_through(e, id))
            continue;
        const char *v = bus_reg(e, e->k->ops[id].width, NULL, text(e, "r%d_v%d", R, id));
        block(e, v, text(e, "always @(posedge clk) if (r%d_en) %s <= r%d_in_v%d;", R, v, R, id));
    }
}

/* Whether static region r is simulated folded: with CLHLS_SIM_MODELS, every
 * FOLD_STAGES of its stages are one (the SIM_LATENCY parameters of its operators and
 * carried values count stages of the simulation), and the values it computes leave
 * through one delay of the stages folded away; the hardware is the same either way.
 * Every register of such a region moves on its enable alone, so what leaves it, and
 * when, is the same as the pipeline's. A region of one stage gains nothing (vector
 * add: 40 host instructions a cycle more folded); a __constant table's read is a
 * register of its own, so a region with one stays a pipeline in simulation too. */
static int folded_region(const emitter *e, const hls_region *r)
{
    if (r->sched.depth < 2)
        return 0;
    for (int i = 0; i < r->nops; i++)
        if (e->k->ops[r->ops[i]].opc == HOP_LOAD)
            return 0;
    return 1;
}

/* Value-name callback for pack(): a value leaving a folded region, after the stages
 * folded away (r<N>_end_v<id>), or beside the pipeline. */
static const char *folded_value_at_end(emitter *e, int id, char *buf)
{
    if (passes_through(e, id))
        return value_at_end(e, id, buf);
    sprintf(buf, "r%d_end_v%d", e->r->id, id);
    return buf;
}

/* The exit data of a folded region: the values it computes or carries, through a
 * delay of LATENCY 0 and SIM_LATENCY the stages folded away, named r<N>_end_v<id>. */
static const char *folded_exit_data(emitter *e, const hls_region *r)
{
    int computed[r->nlive_out + 1], n = 0;
    for (int i = 0; i < r->nlive_out; i++)
        if (!passes_through(e, r->live_out[i]))
            computed[n++] = r->live_out[i];
    if (n) {
        const char *prefix = text(e, "r%d_end", R);
        declare_token(e, prefix, computed, n);
        unsigned bits = token_bits(e->k, computed, n);
        hls_nl_instance *u = instance(e, "clhls_delay", text(e, "r%d_unfold", R), 0);
        hls_nl_param(u, "WIDTH", "%u", bits);
        hls_nl_param(u, "LATENCY", "0");
        hls_nl_param(u, "SIM_LATENCY", "%d", r->sched.depth - sim_stage(e, r->sched.depth));
        hls_nl_connect(u, HLS_NL_IN, "ce", "r%d_en", R);
        hls_nl_connect(u, HLS_NL_IN, "d", "%s", pack(e, computed, n, value_at_end));
        const char *q = bus_net(e, bits, "the region's values at its end (folded in simulation)",
                                text(e, "r%d_end_data", R));
        hls_nl_connect(u, HLS_NL_OUT, "q", "%s", q);
        unpack(e, prefix, q, computed, n);
    }
    return pack(e, r->live_out, r->nlive_out, folded_value_at_end);
}

/* A static region (fixed latencies only: memory accesses are in memory nodes). Stall
 * enable: every stage advances together while r<N>_en, which drops when the 2-entry
 * exit FIFO is full. Stall-free cluster (schedule.c decides): the stages always
 * advance; a counter of the work-items inside (stages and exit FIFO) admits a new one
 * only while the exit FIFO will have room for it. */
static void emit_static(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    e->r = r;
    e->fold = folded_region(e, r) ? FOLD_STAGES : 0;
    int d = r->sched.depth;
    const char *en = bit_net(e, NULL, text(e, "r%d_en", R));
    const char *fifo_ready = bit_net(e, NULL, text(e, "r%d_fifo_ready", R));
    emit_stage_registers(e, r);
    emit_side_fifo(e, r);
    for (int i = 0; i < r->nops; i++)
        emit_op(e, &k->ops[r->ops[i]]);
    for (int i = 0; i < r->nlive_in; i++)
        if (!d || !passes_through(e, r->live_in[i]))
            emit_carry_registers(e, r->live_in[i]);
    for (int i = 0; i < r->nops; i++)
        emit_carry_registers(e, r->ops[i]);
    if (r->stall_free) {
        unsigned cw = count_bits(r->exit_depth);
        const char *inside = bus_reg(e, cw, "work-items in the stages and the exit FIFO",
                                     text(e, "r%d_inside", R));
        hls_nl_assign(e->m, en, "1'b1");
        hls_nl_assign(e->m, text(e, "r%d_in_ready", R), "%s < %u'd%d", inside, cw, r->exit_depth);
        block(e, inside, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                                 "    else %s <= %s + {%u'd0, r%d_in_valid & r%d_in_ready}\n"
                                 "                     - {%u'd0, r%d_out_valid & r%d_out_ready};",
                              inside, inside, inside, cw - 1, R, R, cw - 1, R, R));
    } else {
        hls_nl_assign(e->m, text(e, "r%d_in_ready", R), "%s", en);
        hls_nl_assign(e->m, en, "~(r%d_valid_s[%d] & ~%s)", R, d, fifo_ready);
    }
    unsigned bits = token_bits(k, r->live_out, r->nlive_out);
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_out_data", R));
    emit_fifo(e, text(e, "r%d_exit", R), bits, r->exit_depth,
              (fifo_ports){.s_valid = text(e, "r%d_valid_s[%d] & %s", R, d, en),
                           .s_ready = fifo_ready,
                           .s_data = e->fold ? folded_exit_data(e, r)
                                             : pack(e, r->live_out, r->nlive_out, value_at_end),
                           .m_valid = text(e, "r%d_out_valid", R),
                           .m_ready = text(e, "r%d_out_ready", R), .m_data = data});
    unpack(e, text(e, "r%d_out", R), data, r->live_out, r->nlive_out);
    e->fold = 0;
}

/* Region `region`'s port for value id: "r<N>_in_v<id>", or the invariant's wire. */
static const char *port_value(const hls_kernel *k, char *buf, int region, const char *side, int id)
{
    if (hls_ir_is_invariant(&k->ops[id]))
        sprintf(buf, "v%d", id);
    else
        sprintf(buf, "r%d_%s_v%d", region, side, id);
    return buf;
}

static int phi_index(const hls_region *r, int id)
{
    for (int p = 0; p < r->nphis; p++)
        if (r->phis[p] == id)
            return p;
    return -1;
}

/* Value-name callback for pack(): a memory node's input. */
static const char *node_in_value(emitter *e, int id, char *buf)
{
    return port_value(e->k, buf, e->r->id, "in", id);
}

/* Whether load-store unit port n of k sends write data (a store or atomic unit). */
static int port_writes(const hls_kernel *k, int n)
{
    for (int i = 0; i < k->nops; i++)
        if (k->ops[i].lsu == n)
            return k->ops[i].opc != HOP_LOAD;
    return 0;
}

/* The compute unit's ports with write data: they alone have slots on its write-data
 * buses (m_req_wdata, m_req_wstrb), in port order (clhls_mem_interconnect's
 * WRITERS). */
static int writer_ports(const hls_kernel *k)
{
    int w = 0;
    for (int n = 0; n < k->nlsus; n++)
        w += port_writes(k, n);
    return w;
}

/* A global access: its load-store unit, which takes the request from the memory node
 * and gives back the answer (load, atomic, acknowledged store). */
static void emit_global_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    int n = op->lsu;
    /* Only the board's address bits reach the unit: the rest of the address
     * arithmetic and of the unit's address registers is left unused. */
    unsigned abits = e->c->program->board->mem_addr_bits;
    const char *address = text(e, "%s", ARG(0));
    if (abits < 64) {
        address = bus_net(e, 64, NULL, text(e, "lsu%d_address", n));
        hls_nl_assign(e->m, address, "%s & 64'h%llx", ARG(0), (1ull << abits) - 1);
    }
    emit_lsu_request_wires(e, op);
    bit_net(e, NULL, text(e, "lsu%d_idle", n));
    bit_net(e, NULL, text(e, "lsu%d_count", n));
    int plain_store = op->opc == HOP_STORE && !op->acked;
    const char *kind = op->opc == HOP_ATOMIC ? "atomic" : op->opc == HOP_LOAD ? "load"
                       : plain_store ? "store" : "store_ack";
    hls_nl_instance *u = instance(e, text(e, "clhls_lsu_%s", kind), text(e, "lsu%d", n), 1);
    hls_nl_param(u, "DATA_W", "%u", op->width);
    hls_nl_param(u, "MEM_W", "%u", e->mem_w);
    int writers = writer_ports(e->k);
    if (op->opc == HOP_LOAD && writers) { /* the compute unit's writes close its open line */
        hls_nl_param(u, "WRITERS", "%d", writers);
        hls_nl_param(u, "ADDR_W", "%u", abits < 64 ? abits : 64);
        hls_nl_connect(u, HLS_NL_IN, "s_write_valid", "write_taken");
        hls_nl_connect(u, HLS_NL_IN, "s_write_addr", "write_addr");
    } else if (op->opc == HOP_LOAD) {
        hls_nl_connect(u, HLS_NL_IN, "s_write_valid", "1'b0");
        hls_nl_connect(u, HLS_NL_IN, "s_write_addr", "64'd0");
    }
    if (plain_store) /* a store nobody waits for is flushed when the unit drains */
        hls_nl_param(u, "IDLE_FLUSH", "4");
    else
        hls_nl_param(u, "DEPTH", "%d", e->k->lsu_depth);
    hls_nl_param(u, "CU", "%d", e->kernel_index);
    hls_nl_param(u, "UNIT", "%d", n);
    hls_nl_connect(u, HLS_NL_IN, "s_req_valid", "lsu%d_req_valid", n);
    hls_nl_connect(u, HLS_NL_OUT, "s_req_ready", "lsu%d_req_ready", n);
    hls_nl_connect(u, HLS_NL_IN, "s_req_addr", "%s", address);
    if (op->opc == HOP_ATOMIC) {
        hls_nl_connect(u, HLS_NL_IN, "s_req_op", "4'd%d", (int)op->imm);
        hls_nl_connect(u, HLS_NL_IN, "s_req_operand", "%s", ARG(1));
        hls_nl_connect(u, HLS_NL_IN, "s_req_compare", "%s",
                       op->imm == HLS_ATOMIC_CMPXCHG ? ARG(2) : "0");
    } else if (op->opc == HOP_STORE) {
        hls_nl_connect(u, HLS_NL_IN, "s_req_data", "%s", ARG(1));
    }
    if (plain_store)
        hls_nl_connect(u, HLS_NL_IN, "flush", "drained");
    if (hls_ir_waits_for_memory(op)) {
        hls_nl_connect(u, HLS_NL_OUT, "m_resp_valid", "lsu%d_resp_valid", n);
        hls_nl_connect(u, HLS_NL_IN, "m_resp_ready", "lsu%d_resp_ready", n);
        if (op->opc != HOP_STORE)
            hls_nl_connect(u, HLS_NL_OUT, "m_resp_data", "lsu%d_rdata", n);
    }
    connect_lsu_memory_ports(u, n);
    if (op->opc == HOP_ATOMIC)
        hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_atomic", "lsu%d_m_atomic", n);
    if (op->opc != HOP_LOAD) {
        hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_wdata", "lsu%d_m_wdata", n);
        hls_nl_connect(u, HLS_NL_OUT, "m_mem_req_wstrb", "lsu%d_m_wstrb", n);
    }
    if (op->opc != HOP_STORE)
        hls_nl_connect(u, HLS_NL_IN, "s_mem_resp_rdata", "s_resp_rdata");
    hls_nl_connect(u, HLS_NL_OUT, "idle", "lsu%d_idle", n);
    hls_nl_connect(u, HLS_NL_OUT,
                   op->opc == HOP_ATOMIC ? "count_atomic" : op->opc == HOP_LOAD ? "count_read"
                                                                               : "count_write",
                   "lsu%d_count", n);
}

/* The values a memory node's waiting token carries: what leaves the node besides the
 * answers, the predicates of the accesses it waits for, and the address of a local
 * load narrower than its memory's word (it picks the bytes out of the answer).
 * Returns how many (sorted). */
static int node_carried(const hls_kernel *k, const hls_region *r, int *carried)
{
    int n = 0;
    for (int i = 0; i < r->nlive_out; i++)
        if (k->ops[r->live_out[i]].region != r->id)
            carried[n++] = r->live_out[i];
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        int pred = op->has_pred ? op->args[op->nargs - 1] : -1;
        if (hls_ir_waits_for_memory(op) && pred >= 0 && !hls_ir_is_invariant(&k->ops[pred]))
            carried[n++] = pred;
        int address = op->args[0];
        if (op->lmem >= 0 && op->opc != HOP_STORE && op->width < k->locals[op->lmem].word_bits &&
            !hls_ir_is_invariant(&k->ops[address]))
            carried[n++] = address;
    }
    return sort_unique(carried, n);
}

/* A memory node's access: the handshake nets of its unit (commented with the op and
 * its line), and the unit or the local-memory port. */
static void emit_node_access(emitter *e, const hls_op *op)
{
    char u[24];
    unit_name(op, u);
    bit_net(e, op->loc.line ? text(e, "%%%d %s, line %u", op->id, hls_ir_opcode_name(op->opc),
                                   op->loc.line) : NULL,
            text(e, "%s_req_valid", u));
    bit_net(e, NULL, text(e, "%s_req_ready", u));
    if (hls_ir_waits_for_memory(op) || op->lmem >= 0) { /* local stores are acknowledged */
        bit_net(e, NULL, text(e, "%s_resp_valid", u));
        bit_net(e, NULL, text(e, "%s_resp_ready", u));
    }
    if (op->opc != HOP_STORE)
        bus_net(e, op->width, NULL, text(e, "%s_rdata", u));
    if (op->lmem >= 0)
        emit_local_op(e, op);
    else
        emit_global_op(e, op);
}

/* A memory node's requests: a work-item enters when every unit its predicates select
 * takes its request and the token FIFO has room, and then they all go out. */
static void emit_node_requests(emitter *e, const hls_region *r)
{
    char u[24], p[40];
    strbuf x = {0};
    const char *room = bit_net(e, "the token FIFO has room", text(e, "r%d_tokens_ready", R));
    sb_append(&x, room);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &e->k->ops[r->ops[i]];
        unit_name(op, u);
        if (op->has_pred)
            sb_printf(&x, "\n        & (~%s | %s_req_ready)", pred_in(e, op, p), u);
        else
            sb_printf(&x, "\n        & %s_req_ready", u);
    }
    hls_nl_assign(e->m, text(e, "r%d_in_ready", R), "%s", x.data);
    sb_free(&x);
    const char *issue = bit_net(e, "the requests go out", text(e, "r%d_issue", R));
    hls_nl_assign(e->m, issue, "r%d_in_valid & r%d_in_ready", R, R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &e->k->ops[r->ops[i]];
        hls_nl_assign(e->m, text(e, "%s_req_valid", unit_name(op, u)), "%s%s%s", issue,
                      op->has_pred ? " & " : "", op->has_pred ? pred_in(e, op, p) : "");
    }
}

/* A memory node's answers: the oldest waiting token leaves when every answer it waits
 * for is there, taking them all. */
static void emit_node_answers(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    char u[24], p[40];
    strbuf x = {0};
    sb_printf(&x, "r%d_w_valid", R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        if (!hls_ir_waits_for_memory(op))
            continue;
        unit_name(op, u);
        if (op->has_pred)
            sb_printf(&x, "\n        & (~%s | %s_resp_valid)",
                      waiting(e, op->args[op->nargs - 1], p), u);
        else
            sb_printf(&x, "\n        & %s_resp_valid", u);
    }
    hls_nl_assign(e->m, text(e, "r%d_out_valid", R), "%s", x.data);
    sb_free(&x);
    hls_nl_assign(e->m, text(e, "r%d_leave", R), "r%d_out_valid & r%d_out_ready", R, R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        const char *ready = text(e, "%s_resp_ready", unit_name(op, u));
        if (hls_ir_waits_for_memory(op))
            hls_nl_assign(e->m, ready, "r%d_leave%s%s", R, op->has_pred ? " & " : "",
                          op->has_pred ? waiting(e, op->args[op->nargs - 1], p) : "");
        else if (op->lmem >= 0) /* an acknowledgement nobody waits for */
            hls_nl_assign(e->m, ready, "1'b1");
    }
    for (int i = 0; i < r->nlive_out; i++) {
        int id = r->live_out[i];
        if (k->ops[id].region == r->id)
            hls_nl_assign(e->m, text(e, "r%d_out_v%d", R, id), "%s_rdata",
                          unit_name(&k->ops[id], u));
        else
            hls_nl_assign(e->m, text(e, "r%d_out_v%d", R, id), "r%d_w_v%d", R, id);
    }
    /* waiting for memory: the oldest token's answers, or a unit's room */
    hls_nl_assign(e->m, text(e, "r%d_stall_mem", R),
                  "(r%d_w_valid & ~r%d_out_valid)\n"
                  "        | (r%d_in_valid & r%d_tokens_ready & ~r%d_in_ready)",
                  R, R, R, R, R);
}

/* A memory node: its accesses' units, and the handshake that makes them one elastic
 * step. A work-item enters when every unit it uses (its predicate is 1) takes its
 * request and the token FIFO has room; all its requests go out in that cycle (a
 * unit's ready depends on the unit's registers only, so offering each request only
 * with every ready is safe). Its token waits in the FIFO in order; it leaves when
 * every answer it waits for is at its unit's output, taking them all at once. Each
 * unit answers in request order, so the answers at the units' heads are the oldest
 * token's. */
static void emit_memory_node(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    e->r = r;
    int carried[r->nlive_out + 2 * r->nops + 1];
    int n = node_carried(k, r, carried);
    for (int i = 0; i < r->nops; i++)
        emit_node_access(e, &k->ops[r->ops[i]]);
    emit_node_requests(e, r);
    /* the waiting tokens */
    unsigned bits = token_bits(k, carried, n);
    bit_net(e, NULL, text(e, "r%d_w_valid", R));
    bit_net(e, NULL, text(e, "r%d_leave", R));
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_w_data", R));
    emit_fifo(e, text(e, "r%d_wait", R), bits, r->exit_depth,
              (fifo_ports){.s_valid = text(e, "r%d_issue", R),
                           .s_ready = text(e, "r%d_tokens_ready", R),
                           .s_data = pack(e, carried, n, node_in_value),
                           .m_valid = text(e, "r%d_w_valid", R),
                           .m_ready = text(e, "r%d_leave", R), .m_data = data,
                           .count = text(e, "r%d_tokens", R)});
    const char *prefix = text(e, "r%d_w", R);
    declare_token(e, prefix, carried, n);
    unpack(e, prefix, data, carried, n);
    emit_node_answers(e, r);
}

/* Value-name callbacks for pack(): the outputs of e->loop's last child (for a header
 * phi on the back edge, the phi's latch value). */
static const char *back_value(emitter *e, int id, char *buf)
{
    const hls_region *r = e->loop;
    const hls_region *last = &e->k->regions[r->children[r->nchildren - 1]];
    int p = phi_index(r, id);
    int v = p >= 0 ? e->k->ops[id].in_vals[1] : id;
    return port_value(e->k, buf, last->id, "out", v);
}

static const char *last_out_value(emitter *e, int id, char *buf)
{
    const hls_region *r = e->loop;
    return port_value(e->k, buf, r->children[r->nchildren - 1], "out", id);
}

/* The compute unit's per-unit request buses, each global load-store unit's wires in
 * its slice (a compute unit without units drives the idle values). One combinational
 * block fills every bus: a simulator then copies each slice in place, where slice
 * assignments to a wide bus become a concatenation rebuilt every cycle. */
static void emit_request_buses(emitter *e)
{
    static const char *const buses[] = {"m_req_valid", "m_req_write", "m_req_atomic",
                                        "m_req_addr", "s_resp_ready", "m_req_wdata",
                                        "m_req_wstrb"};
    int writers = writer_ports(e->k);
    unsigned mw = e->mem_w;
    strbuf x = {0};
    sb_append(&x, "always @(*) begin\n    m_req_valid = 0;\n    m_req_write = 0;\n"
                  "    m_req_atomic = 0;\n    m_req_addr = 0;\n    s_resp_ready = ~0;\n");
    for (int i = 0; i < e->k->nops; i++) {
        const hls_op *op = &e->k->ops[i];
        int n = op->lsu;
        if (n < 0)
            continue;
        sb_printf(&x, "    m_req_valid[%d] = lsu%d_m_valid;\n"
                      "    m_req_addr[%d +: 64] = lsu%d_m_addr;\n"
                      "    s_resp_ready[%d] = lsu%d_m_resp_ready;\n",
                  n, n, 64 * n, n, n, n);
        if (op->opc == HOP_LOAD)
            continue;
        unsigned slot = 0; /* the storing units before it */
        for (int m = 0; m < n; m++)
            slot += (unsigned)port_writes(e->k, m);
        sb_printf(&x, "    m_req_wdata[%u +: %u] = lsu%d_m_wdata;\n"
                      "    m_req_wstrb[%u +: %u] = lsu%d_m_wstrb;\n",
                  mw * slot, mw, n, mw / 8 * slot, mw / 8, n);
        if (op->opc == HOP_ATOMIC)
            sb_printf(&x, "    m_req_atomic[%d +: 4] = lsu%d_m_atomic;\n", 4 * n, n);
        else
            sb_printf(&x, "    m_req_write[%d] = 1'b1;\n", n);
    }
    sb_append(&x, "end");
    hls_nl_block *b = hls_nl_block_new(e->m, x.data);
    for (size_t i = 0; i < sizeof buses / sizeof *buses - (writers ? 0 : 2); i++)
        hls_nl_drives(b, buses[i]);
    sb_free(&x);
}

/* The writes of the compute unit as the interconnect takes them (one bit and one
 * address per storing unit, in port order), which every global load unit watches: a
 * write to the line it holds open closes it, so a later load reads memory again. */
static void emit_write_taken(emitter *e)
{
    int writers = writer_ports(e->k), slot = 0;
    if (!writers || !e->k->nlsus)
        return;
    int loads = 0;
    for (int i = 0; i < e->k->nops; i++)
        loads |= e->k->ops[i].lsu >= 0 && e->k->ops[i].opc == HOP_LOAD;
    if (!loads)
        return;
    const char *valid = bus_net(e, (unsigned)writers, "per storing unit: its request is taken now",
                                "write_taken");
    const char *addr = bus_net(e, 64u * (unsigned)writers, "per storing unit: its address",
                               "write_addr");
    strbuf v = {0}, a = {0};
    for (int n = e->k->nlsus - 1; n >= 0; n--) { /* {last, ..., first}: slot 0 lowest */
        if (!port_writes(e->k, n))
            continue;
        sb_printf(&v, "%slsu%d_m_valid & m_req_ready[%d]", slot ? ", " : "", n, n);
        sb_printf(&a, "%slsu%d_m_addr", slot ? ", " : "", n);
        slot++;
    }
    hls_nl_assign(e->m, valid, "{%s}", v.data);
    hls_nl_assign(e->m, addr, "{%s}", a.data);
    sb_free(&v);
    sb_free(&a);
}

static void emit_region(emitter *e, int id);

/* A loop's merge: the back edge first, entries while credits last. */
static void emit_loop_merge(emitter *e, const hls_region *r, const hls_region *first)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    char a[48];
    const char *ok = bit_net(e, NULL, text(e, "r%d_entry_ok", n));
    hls_nl_assign(e->m, ok, "r%d_count < %u'd%d && !r%d_back_valid", n, count_bits(r->credits),
                  r->credits, n);
    hls_nl_assign(e->m, text(e, "r%d_in_ready", n), "%s & r%d_in_ready", ok, first->id);
    hls_nl_assign(e->m, text(e, "r%d_in_valid", first->id),
                  "r%d_back_valid | (r%d_in_valid & %s)", n, n, ok);
    for (int i = 0; i < first->nlive_in; i++) {
        int id = first->live_in[i];
        int p = phi_index(r, id);
        hls_nl_assign(e->m, text(e, "r%d_in_v%d", first->id, id),
                      "r%d_back_valid ? r%d_back_v%d : %s", n, n, id,
                      port_value(k, a, n, "in", p >= 0 ? k->ops[id].in_vals[0] : id));
    }
    const char *count = text(e, "r%d_count", n);
    unsigned pad = count_bits(r->credits) - 1;
    block(e, count, text(e, "always @(posedge clk)\n    if (rst) %s <= 0;\n"
                            "    else %s <= %s + {%u'd0, r%d_in_valid & r%d_in_ready & "
                            "~r%d_back_valid} - {%u'd0, r%d_exit_push};",
                         count, count, count, pad, n, n, n, pad, n));
}

/* A loop's split: the last child's work-items go round through the back-edge FIFO
 * while the loop continues, else out through the exit FIFO. */
static void emit_loop_split(emitter *e, const hls_region *r, const hls_region *first,
                            const hls_region *last)
{
    const hls_kernel *k = e->k;
    int n = r->id;
    char b[48];
    const char *cont = bit_net(e, NULL, text(e, "r%d_cont", n));
    hls_nl_assign(e->m, cont, "%s", port_value(k, b, last->id, "out", r->cont));
    hls_nl_assign(e->m, text(e, "r%d_out_ready", last->id), "%s ? r%d_back_ready : r%d_exit_ready",
                  cont, n, n);
    const char *back = text(e, "r%d_back", n);
    declare_token(e, back, first->live_in, first->nlive_in);
    unsigned bits = token_bits(k, first->live_in, first->nlive_in);
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_back_data", n));
    e->loop = r;
    emit_fifo(e, back, bits, r->back_depth,
              (fifo_ports){.s_valid = text(e, "r%d_out_valid & %s", last->id, cont),
                           .s_ready = text(e, "r%d_back_ready", n),
                           .s_data = pack(e, first->live_in, first->nlive_in, back_value),
                           .m_valid = text(e, "r%d_back_valid", n),
                           .m_ready = text(e, "r%d_in_ready", first->id), .m_data = data});
    unpack(e, back, data, first->live_in, first->nlive_in);
    hls_nl_assign(e->m, text(e, "r%d_exit_push", n), "r%d_out_valid & ~%s & r%d_exit_ready",
                  last->id, cont, n);
    bits = token_bits(k, r->live_out, r->nlive_out);
    data = bus_net(e, bits, NULL, text(e, "r%d_exit_data", n));
    emit_fifo(e, text(e, "r%d_exit", n), bits, 2,
              (fifo_ports){.s_valid = text(e, "r%d_out_valid & ~%s", last->id, cont),
                           .s_ready = text(e, "r%d_exit_ready", n),
                           .s_data = pack(e, r->live_out, r->nlive_out, last_out_value),
                           .m_valid = text(e, "r%d_out_valid", n),
                           .m_ready = text(e, "r%d_out_ready", n), .m_data = data});
    unpack(e, text(e, "r%d_out", n), data, r->live_out, r->nlive_out);
}

/* A loop: merge (back edge first, entries while credits last), body, split. */
static void emit_loop(emitter *e, const hls_region *r)
{
    const hls_region *first = &e->k->regions[r->children[0]];
    const hls_region *last = &e->k->regions[r->children[r->nchildren - 1]];
    bit_net(e, NULL, text(e, "r%d_back_valid", r->id));
    bit_net(e, NULL, text(e, "r%d_exit_ready", r->id));
    bit_net(e, NULL, text(e, "r%d_back_ready", r->id));
    emit_loop_merge(e, r, first);
    emit_loop_split(e, r, first, last);
    for (int c = 0; c < r->nchildren; c++)
        emit_region(e, r->children[c]);
}

/* Bits of a local linear id in a barrier unit (a group has at most 2^bits items). */
static unsigned lid_bits(const hls_kernel *k)
{
    unsigned bits = 1;
    while ((1u << bits) < k->max_wg)
        bits++;
    return bits;
}

/* Bits of a local size or a group's work-item count (1 .. the largest work-group). */
static unsigned local_size_bits(const hls_kernel *k)
{
    return lid_bits(k) + 1;
}

/* A barrier unit: every work-item's token waits in the entry of its work-group slot
 * and local id until the whole group is there, then the group leaves in local-id
 * order. */
static void emit_barrier(emitter *e, const hls_region *r)
{
    const hls_kernel *k = e->k;
    const hls_op *b = &k->ops[r->ops[0]];
    const hls_op *coll = r->nops > 1 ? &k->ops[r->ops[1]] : NULL;
    /* the token carried through: what lives on, but the function's result */
    int carried[r->nlive_out + 1], n = 0;
    for (int i = 0; i < r->nlive_out; i++)
        if (!coll || r->live_out[i] != coll->id)
            carried[n++] = r->live_out[i];
    unsigned lw = lid_bits(k), bits = token_bits(k, carried, n);
    unsigned vw = coll ? coll->width : 1;
    char value[40] = "", chosen[48];
    snprintf(chosen, sizeof chosen, "%u'd0", lw); /* only a broadcast chooses */
    if (coll) {
        port_value(k, value, R, "in", coll->args[0]);
        if (coll->nargs > 1) {
            port_value(k, chosen, R, "in", coll->args[1]);
            snprintf(chosen + strlen(chosen), sizeof chosen - strlen(chosen), "[%u:0]", lw - 1);
        }
    }
    const char *data = bus_net(e, bits, NULL, text(e, "r%d_out_data", R));
    const char *result = coll ? bus_net(e, vw, NULL, text(e, "r%d_result", R)) : "";
    hls_nl_instance *u = instance(e, "clhls_barrier", text(e, "r%d_unit", R), 1);
    hls_nl_param(u, "W", "%u", bits);
    hls_nl_param(u, "SLOTS", "%d", HLS_WG_SLOTS);
    hls_nl_param(u, "SLOT_W", "%d", HLS_SLOT_BITS);
    hls_nl_param(u, "LID_W", "%u", lw);
    if (coll) { /* the work-group function the unit computes */
        hls_nl_param(u, "OP", "%d", HLS_COLL_KIND(coll->imm));
        hls_nl_param(u, "FUNC", "%d", HLS_COLL_FUNC(coll->imm));
        hls_nl_param(u, "TYPE", "%d", HLS_COLL_TYPE(coll->imm));
        hls_nl_param(u, "VW", "%u", vw);
    }
    hls_nl_connect(u, HLS_NL_IN, "s_valid", "r%d_in_valid", R);
    hls_nl_connect(u, HLS_NL_OUT, "s_ready", "r%d_in_ready", R);
    hls_nl_connect(u, HLS_NL_IN, "s_slot", "r%d_in_v%d", R, b->args[0]);
    hls_nl_connect(u, HLS_NL_IN, "s_lid", "r%d_in_v%d[%u:0]", R, b->args[1], lw - 1);
    hls_nl_connect(u, HLS_NL_IN, "s_size", "r%d_in_v%d[%u:0]", R, b->args[2], lw);
    hls_nl_connect(u, HLS_NL_IN, "s_value", "%s", coll ? value : "1'b0"); /* plain: none */
    hls_nl_connect(u, HLS_NL_IN, "s_chosen", "%s", chosen);
    hls_nl_connect(u, HLS_NL_OUT, "m_result", "%s", result);
    hls_nl_connect(u, HLS_NL_IN, "s_data", "%s", pack(e, carried, n, in_value));
    hls_nl_connect(u, HLS_NL_OUT, "m_valid", "r%d_out_valid", R);
    hls_nl_connect(u, HLS_NL_IN, "m_ready", "r%d_out_ready", R);
    hls_nl_connect(u, HLS_NL_OUT, "m_data", "%s", data);
    hls_nl_connect(u, HLS_NL_OUT, "held", "r%d_held", R);
    hls_nl_connect(u, HLS_NL_OUT, "waiting", "r%d_waiting", R);
    unpack(e, text(e, "r%d_out", R), data, carried, n);
    if (coll && n < r->nlive_out)
        hls_nl_assign(e->m, text(e, "r%d_out_v%d", R, coll->id), "%s", result);
}

/* Joins the children of a sequence: each one's output feeds the next one's input. */
static void connect_children(emitter *e, const hls_region *r)
{
    for (int c = 1; c < r->nchildren; c++) {
        const hls_region *from = &e->k->regions[r->children[c - 1]];
        const hls_region *to = &e->k->regions[r->children[c]];
        hls_nl_assign(e->m, text(e, "r%d_in_valid", to->id), "r%d_out_valid", from->id);
        hls_nl_assign(e->m, text(e, "r%d_out_ready", from->id), "r%d_in_ready", to->id);
        for (int i = 0; i < to->nlive_in; i++)
            hls_nl_assign(e->m, text(e, "r%d_in_v%d", to->id, to->live_in[i]), "r%d_out_v%d",
                          from->id, to->live_in[i]);
    }
}

static void emit_region(emitter *e, int id)
{
    const hls_region *r = &e->k->regions[id];
    if (r->kind == HLS_REGION_STATIC) {
        emit_static(e, r);
        return;
    }
    if (r->kind == HLS_REGION_BARRIER) {
        e->r = r;
        emit_barrier(e, r);
        return;
    }
    if (r->kind == HLS_REGION_MEMORY) {
        emit_memory_node(e, r);
        return;
    }
    if (r->kind == HLS_REGION_LOOP)
        emit_loop(e, r);
    else
        for (int c = 0; c < r->nchildren; c++)
            emit_region(e, r->children[c]);
    connect_children(e, r);
}

/* What region r is, for the comment on its input handshake (NULL for a sequence). */
static const char *region_summary(emitter *e, const hls_region *r)
{
    switch (r->kind) {
    case HLS_REGION_STATIC:
        return text(e, "region %d: static, %d stages%s", r->id, r->sched.depth + 1,
                    r->stall_free ? ", stall-free" : "");
    case HLS_REGION_MEMORY:
        return text(e, "region %d: memory node, %d access%s", r->id, r->nops,
                    r->nops == 1 ? "" : "es");
    case HLS_REGION_LOOP: {
        const hls_loop *l = &e->k->loops[r->loop];
        return text(e, "region %d: loop at %s:%u, latency %d, %d credits", r->id,
                    l->loc.file ? l->loc.file : "?", l->loc.line, r->latency, r->credits);
    }
    case HLS_REGION_BARRIER:
        return text(e, "region %d: barrier, line %u", r->id, e->k->ops[r->ops[0]].loc.line);
    default:
        return NULL;
    }
}

/* Handshake and token nets of every region. */
static void declare_regions(emitter *e)
{
    for (int i = 1; i < e->k->nregions; i++) {
        const hls_region *r = &e->k->regions[i];
        bit_net(e, region_summary(e, r), text(e, "r%d_in_valid", i));
        bit_net(e, NULL, text(e, "r%d_in_ready", i));
        bit_net(e, NULL, text(e, "r%d_out_valid", i));
        bit_net(e, NULL, text(e, "r%d_out_ready", i));
        if (r->kind == HLS_REGION_LOOP) {
            bus_reg(e, count_bits(r->credits), "work-items inside the loop",
                    text(e, "r%d_count", i));
            bit_net(e, "a work-item leaves the loop", text(e, "r%d_exit_push", i));
        }
        if (r->kind == HLS_REGION_BARRIER) {
            bus_net(e, lid_bits(e->k) + HLS_SLOT_BITS + 1, "work-items waiting in the barrier",
                    text(e, "r%d_held", i));
            bit_net(e, "a group is incomplete", text(e, "r%d_waiting", i));
        }
        if (r->kind == HLS_REGION_MEMORY) {
            bus_net(e, count_bits(r->exit_depth), "work-items waiting for memory",
                    text(e, "r%d_tokens", i));
            bit_net(e, "it waits for memory", text(e, "r%d_stall_mem", i));
        }
        declare_token(e, text(e, "r%d_in", i), r->live_in, r->nlive_in);
        declare_token(e, text(e, "r%d_out", i), r->live_out, r->nlive_out);
    }
}

/* Appends "r1_x | r2_x ..." over regions of a kind (fmt names the region once or
 * twice, and starts with its join). */
static void region_reduce(emitter *e, strbuf *x, hls_region_kind kind, const char *fmt)
{
    for (int i = 1; i < e->k->nregions; i++)
        if (e->k->regions[i].kind == kind)
            sb_printf(x, fmt, i, i);
}

/* Bits of a local memory's conflict count (0..ports). */
static int conflict_width(int ports)
{
    int bits = 1;
    while ((1 << bits) < ports + 1)
        bits++;
    return bits;
}

/* Port p of local memory i, shared by accesses whose predicates exclude each other
 * within a work-group (localbanks.c): a clhls_port_share in front of it. Its
 * requesters' vectors lm<i>p<p>_* are those of a memory's ports (the accesses drive
 * their slices, emit_local_op); the unit takes each one's request packed {write,
 * address, data, strobes[, operation, wide, compare]} and puts the chosen one on the
 * memory's port. */
static void emit_port_share(emitter *e, int i, int p)
{
    const hls_local *m = &e->k->locals[i];
    unsigned n = (unsigned)m->port_users[p], aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits;
    unsigned wb = ww / 8, rw = 1 + aw + ww + wb + (m->atomics ? 5 + ww : 0);
    const char *v = text(e, "lm%dp%d", i, p);
    bus_net(e, n, text(e, "port %d of __local %s, shared by %u accesses no work-group runs "
                          "two of", p, m->name, n), text(e, "%s_req_valid", v));
    static const char *const per_req[] = {"req_ready", "req_write", "resp_valid", "resp_ready"};
    for (size_t f = 0; f < sizeof per_req / sizeof *per_req; f++)
        bus_net(e, n, NULL, text(e, "%s_%s", v, per_req[f]));
    bus_net(e, n * aw, NULL, text(e, "%s_req_addr", v));
    bus_net(e, n * ww, NULL, text(e, "%s_req_wdata", v));
    bus_net(e, n * ww, NULL, text(e, "%s_resp_rdata", v));
    bus_net(e, n * wb, NULL, text(e, "%s_req_wstrb", v));
    if (m->atomics) {
        bus_net(e, 4 * n, NULL, text(e, "%s_req_atomic", v));
        bus_net(e, n, NULL, text(e, "%s_req_wide", v));
        bus_net(e, n * ww, NULL, text(e, "%s_req_cmp", v));
    }
    /* the requests packed, requester n-1 first */
    strbuf x = {0};
    sb_append(&x, "{");
    for (int r = (int)n - 1; r >= 0; r--) {
        unsigned u = (unsigned)r;
        sb_printf(&x, "%s%s_req_write[%u], %s_req_addr[%u +: %u], %s_req_wdata[%u +: %u], "
                  "%s_req_wstrb[%u +: %u]", r == (int)n - 1 ? "" : ",\n        ", v, u, v,
                  aw * u, aw, v, ww * u, ww, v, wb * u, wb);
        if (m->atomics)
            sb_printf(&x, ", %s_req_atomic[%u +: 4], %s_req_wide[%u], %s_req_cmp[%u +: %u]", v,
                      4 * u, v, u, v, ww * u, ww);
    }
    sb_append(&x, "}");
    hls_nl_assign(e->m, bus_net(e, n * rw, NULL, text(e, "%s_s_req", v)), "%s", x.data);
    sb_free(&x);
    const char *req = bus_net(e, rw, NULL, text(e, "%s_m_req", v));
    bit_net(e, NULL, text(e, "%s_m_req_valid", v));
    bit_net(e, NULL, text(e, "%s_s_resp_ready", v));
    bit_net(e, NULL, text(e, "%s_idle", v));

    hls_nl_instance *u = instance(e, "clhls_port_share", text(e, "%s_share", v), 1);
    hls_nl_param(u, "N", "%u", n);
    hls_nl_param(u, "REQ_W", "%u", rw);
    hls_nl_param(u, "WORD_W", "%u", ww);
    hls_nl_connect(u, HLS_NL_IN, "s_req_valid", "%s_req_valid", v);
    hls_nl_connect(u, HLS_NL_OUT, "s_req_ready", "%s_req_ready", v);
    hls_nl_connect(u, HLS_NL_IN, "s_req_data", "%s_s_req", v);
    hls_nl_connect(u, HLS_NL_OUT, "m_req_valid", "%s_m_req_valid", v);
    hls_nl_connect(u, HLS_NL_IN, "m_req_ready", "lm%d_req_ready[%d]", i, p);
    hls_nl_connect(u, HLS_NL_OUT, "m_req_data", "%s", req);
    hls_nl_connect(u, HLS_NL_IN, "s_resp_valid", "lm%d_resp_valid[%d]", i, p);
    hls_nl_connect(u, HLS_NL_OUT, "s_resp_ready", "%s_s_resp_ready", v);
    hls_nl_connect(u, HLS_NL_IN, "s_resp_data", "lm%d_resp_rdata[%u +: %u]", i, ww * (unsigned)p,
                   ww);
    hls_nl_connect(u, HLS_NL_OUT, "m_resp_valid", "%s_resp_valid", v);
    hls_nl_connect(u, HLS_NL_IN, "m_resp_ready", "%s_resp_ready", v);
    hls_nl_connect(u, HLS_NL_OUT, "m_resp_data", "%s_resp_rdata", v);
    hls_nl_connect(u, HLS_NL_OUT, "idle", "%s_idle", v);

    /* the chosen request on the memory's port */
    unsigned at = rw, up = (unsigned)p;
    hls_nl_assign(e->m, text(e, "lm%d_req_valid[%d]", i, p), "%s_m_req_valid", v);
    hls_nl_assign(e->m, text(e, "lm%d_req_write[%d]", i, p), "%s[%u]", req, at -= 1);
    hls_nl_assign(e->m, text(e, "lm%d_req_addr[%u +: %u]", i, aw * up, aw), "%s[%u +: %u]", req,
                  at -= aw, aw);
    hls_nl_assign(e->m, text(e, "lm%d_req_wdata[%u +: %u]", i, ww * up, ww), "%s[%u +: %u]", req,
                  at -= ww, ww);
    hls_nl_assign(e->m, text(e, "lm%d_req_wstrb[%u +: %u]", i, wb * up, wb), "%s[%u +: %u]", req,
                  at -= wb, wb);
    if (m->atomics) {
        hls_nl_assign(e->m, text(e, "lm%d_req_atomic[%u +: 4]", i, 4 * up), "%s[%u +: 4]", req,
                      at -= 4);
        hls_nl_assign(e->m, text(e, "lm%d_req_wide[%d]", i, p), "%s[%u]", req, at -= 1);
        hls_nl_assign(e->m, text(e, "lm%d_req_cmp[%u +: %u]", i, ww * up, ww), "%s[%u +: %u]",
                      req, at -= ww, ww);
    }
    hls_nl_assign(e->m, text(e, "lm%d_resp_ready[%d]", i, p), "%s_s_resp_ready", v);
}

/* Declares the port vectors of local memory i (the accesses drive their slices) and
 * instantiates it; a memory with atomic accesses gets their ports too. */
static void emit_local_memory(emitter *e, int i)
{
    const hls_local *m = &e->k->locals[i];
    unsigned np = (unsigned)m->nports, aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits;
    bus_net(e, np, text(e, "__local %s: %llu bytes per work-group slot, %d slots, %d banks of "
                           "%u-bit words, %u ports", m->name, 1ull << m->addr_bits, HLS_WG_SLOTS,
                        m->banks, ww, np),
            text(e, "lm%d_req_valid", i));
    static const char *const per_port[] = {"req_ready", "req_write", "resp_valid", "resp_ready"};
    for (size_t f = 0; f < sizeof per_port / sizeof *per_port; f++)
        bus_net(e, np, NULL, text(e, "lm%d_%s", i, per_port[f]));
    bus_net(e, np * aw, NULL, text(e, "lm%d_req_addr", i));
    bus_net(e, np * ww, NULL, text(e, "lm%d_req_wdata", i));
    bus_net(e, np * ww, NULL, text(e, "lm%d_resp_rdata", i));
    bus_net(e, np * ww / 8, NULL, text(e, "lm%d_req_wstrb", i));
    bus_net(e, (unsigned)conflict_width(m->nports),
            m->wiring == HLS_BANKS_STATIC ? text(e, "statically wired: %s", m->wiring_reason)
                                          : NULL,
            text(e, "lm%d_conflicts", i));
    bit_net(e, NULL, text(e, "lm%d_idle", i));
    if (m->atomics) {
        bus_net(e, 4 * np, NULL, text(e, "lm%d_req_atomic", i));
        bus_net(e, np, NULL, text(e, "lm%d_req_wide", i));
        bus_net(e, np * ww, NULL, text(e, "lm%d_req_cmp", i));
    }
    hls_nl_instance *u = instance(e, "clhls_local_mem", text(e, "lm%d", i), 1);
    hls_nl_param(u, "NPORTS", "%u", np);
    hls_nl_param(u, "ADDR_W", "%u", aw);
    hls_nl_param(u, "WORD_W", "%u", ww);
    hls_nl_param(u, "BANKS", "%d", m->banks);
    if (m->atomics)
        hls_nl_param(u, "ATOMICS", "1");
    if (m->wiring == HLS_BANKS_STATIC) { /* localbanks.c proved each port's banks */
        strbuf banks = {0};
        sb_printf(&banks, "%u'b", np * (unsigned)m->banks);
        for (int p = (int)np - 1; p >= 0; p--)
            for (int b = m->banks - 1; b >= 0; b--)
                sb_append(&banks, m->port_banks[p] >> b & 1 ? "1" : "0");
        hls_nl_param(u, "STATIC", "1");
        hls_nl_param(u, "PORT_BANKS", "%s", banks.data);
        sb_free(&banks);
    }
    static const struct {
        const char *port;  /* the memory's port */
        const char *field; /* lm<i>_<field> */
        hls_nl_dir dir;    /* what the port does */
    } ports[] = {
        {"s_req_valid", "req_valid", HLS_NL_IN},    {"s_req_ready", "req_ready", HLS_NL_OUT},
        {"s_req_write", "req_write", HLS_NL_IN},    {"s_req_addr", "req_addr", HLS_NL_IN},
        {"s_req_wdata", "req_wdata", HLS_NL_IN},    {"s_req_wstrb", "req_wstrb", HLS_NL_IN},
        {"m_resp_valid", "resp_valid", HLS_NL_OUT}, {"m_resp_ready", "resp_ready", HLS_NL_IN},
        {"m_resp_rdata", "resp_rdata", HLS_NL_OUT}};
    for (size_t f = 0; f < sizeof ports / sizeof *ports; f++)
        hls_nl_connect(u, ports[f].dir, ports[f].port, "lm%d_%s", i, ports[f].field);
    hls_nl_connect(u, HLS_NL_OUT, "conflicts", "lm%d_conflicts", i);
    hls_nl_connect(u, HLS_NL_OUT, "idle", "lm%d_idle", i);
    static const char *const atomic[] = {"req_atomic", "req_wide", "req_cmp"};
    const unsigned atomic_width[] = {4 * np, np, np * ww};
    for (size_t f = 0; f < sizeof atomic / sizeof *atomic; f++)
        if (m->atomics)
            hls_nl_connect(u, HLS_NL_IN, text(e, "s_%s", atomic[f]), "lm%d_%s", i, atomic[f]);
        else
            hls_nl_connect(u, HLS_NL_IN, text(e, "s_%s", atomic[f]), "%u'd0", atomic_width[f]);
    for (int p = 0; p < m->nports; p++)
        if (m->port_users && m->port_users[p] > 1)
            emit_port_share(e, i, p);
}

/* The width of the compute unit's bank conflicts in one cycle: every port of every
 * local memory may be refused, and at least the 8 bits of the usual counter. */
static int conflicts_width(const hls_kernel *k)
{
    int ports = 0;
    for (int i = 0; i < k->nlocals; i++)
        ports += k->locals[i].nports;
    int w = conflict_width(ports);
    return w > 8 ? w : 8;
}

/* The local memories, and their bank conflicts this cycle. */
static void emit_local_memories(emitter *e)
{
    const hls_kernel *k = e->k;
    int width = conflicts_width(k);
    strbuf x = {0};
    sb_printf(&x, "%d'd0", width);
    for (int i = 0; i < k->nlocals; i++)
        if (k->locals[i].nports) {
            emit_local_memory(e, i);
            int pad = width - conflict_width(k->locals[i].nports);
            if (pad)
                sb_printf(&x, " + {{%d{1'b0}}, lm%d_conflicts}", pad, i);
            else
                sb_printf(&x, " + lm%d_conflicts", i);
        }
    hls_nl_assign(e->m, bus_net(e, (unsigned)width, NULL, "local_conflicts"), "%s", x.data);
    sb_free(&x);
}

/* The nets the shell drives: the NDRange registers, the argument area, and the
 * work-items entering the body with their token fields. */
static void declare_shell_outputs(emitter *e, unsigned nwords)
{
    bus_net(e, 32, NULL, "work_dim");
    for (int reg = HLS_ND_GLOBAL_SIZE; reg <= HLS_ND_NUM_GROUPS; reg++)
        for (int dim = 0; dim < 3; dim++)
            bus_net(e, ndrange_width(reg), NULL, text(e, "%s_%c", ndrange_reg(reg), "xyz"[dim]));
    bus_net(e, 64 * nwords, "the argument area, byte b at bits 8*b", "args");
    bit_net(e, NULL, "wi_valid");
    bit_net(e, NULL, "wi_ready");
    char name[32];
    for (int field = HLS_TOK_GLOBAL_ID; field <= HLS_TOK_GROUP_LINEAR_SIZE; field++)
        for (int dim = 0; dim < (field < HLS_TOK_SLOT ? 3 : 1); dim++) {
            token_wire(name, sizeof name, field, dim);
            bus_net(e, token_width(field), NULL, text(e, "%s", name));
        }
    bit_net(e, "no work-item left to enter or inside: stores may flush", "drained");
}

/* Bits of the register address: 8 for a register of a block, the rest (at least 8)
 * for the kernel's block. */
static unsigned reg_addr_bits(const hls_program *p)
{
    unsigned block_bits = 8;
    while ((1u << block_bits) < (unsigned)p->nkernels)
        block_bits++;
    return 8 + block_bits;
}

/* The shell (clhls_cu_shell): control block, work-group dispatch, work-group slots
 * and work-item generation. */
static void emit_shell(emitter *e, unsigned nwords, int nprobes, const char *retire_slot)
{
    const hls_kernel *k = e->k;
    int slots = k->slot_op >= 0;
    hls_nl_instance *u = instance(e, "clhls_cu_shell", "shell", 1);
    hls_nl_param(u, "NARGS", "%u", nwords);
    hls_nl_param(u, "NPROBES", "%d", nprobes ? nprobes : 1);
    hls_nl_param(u, "ID_W", "%u", e->c->program->board->work_item_index_bits);
    hls_nl_param(u, "LS_W", "%u", local_size_bits(k));
    hls_nl_param(u, "BLOCK", "%d", e->kernel_index);
    if (reg_addr_bits(e->c->program) != 16)
        hls_nl_param(u, "REG_ADDR_W", "%u", reg_addr_bits(e->c->program));
    hls_nl_param(u, "SLOTS", "%d", slots ? HLS_WG_SLOTS : 0);
    hls_nl_param(u, "SLOT_W", "%d", HLS_SLOT_BITS);
    if (conflicts_width(k) != 8)
        hls_nl_param(u, "CONFLICT_W", "%d", conflicts_width(k));
    static const char *const reg_port[] = {"reg_we", "reg_addr", "reg_wdata"};
    for (size_t i = 0; i < sizeof reg_port / sizeof *reg_port; i++)
        hls_nl_connect(u, HLS_NL_IN, reg_port[i], "%s", reg_port[i]);
    hls_nl_connect(u, HLS_NL_OUT, "reg_rdata", "reg_rdata");
    hls_nl_connect(u, HLS_NL_OUT, "work_dim", "work_dim");
    for (int reg = HLS_ND_GLOBAL_SIZE; reg <= HLS_ND_NUM_GROUPS; reg++)
        for (int dim = 0; dim < 3; dim++) {
            const char *name = text(e, "%s_%c", ndrange_reg(reg), "xyz"[dim]);
            hls_nl_connect(u, HLS_NL_OUT, name, "%s", name);
        }
    hls_nl_connect(u, HLS_NL_OUT, "args", "args");
    hls_nl_connect(u, HLS_NL_OUT, "m_valid", "wi_valid");
    hls_nl_connect(u, HLS_NL_IN, "m_ready", "wi_ready");
    char name[32];
    for (int field = HLS_TOK_GLOBAL_ID; field <= HLS_TOK_GROUP_LINEAR_SIZE; field++)
        for (int dim = 0; dim < (field < HLS_TOK_SLOT ? 3 : 1); dim++) {
            token_wire(name, sizeof name, field, dim);
            hls_nl_connect(u, HLS_NL_OUT, text(e, "m_%s", name + 3), "%s", name);
        }
    hls_nl_connect(u, HLS_NL_IN, "retire_valid", "retire");
    hls_nl_connect(u, HLS_NL_IN, "retire_slot", "%s", retire_slot);
    static const char *const status[] = {"body_empty", "lsus_idle", "stall_mem", "mem_read",
                                         "mem_write", "local_conflicts", "probes"};
    for (size_t i = 0; i < sizeof status / sizeof *status; i++)
        hls_nl_connect(u, HLS_NL_IN, status[i], "%s", status[i]);
    hls_nl_connect(u, HLS_NL_OUT, "drained", "drained");
}

/* Probes: work-items inside each loop, waiting in each barrier, waiting for memory in
 * each memory node (for the diagnosis of a hang). Returns how many. */
static int emit_probes(emitter *e)
{
    const hls_kernel *k = e->k;
    int probed[HLS_MAX_PROBES];
    int nprobes = hls_ir_probe_regions(k, probed);
    strbuf x = {0};
    sb_append(&x, "{");
    for (int i = nprobes - 1; i >= 0; i--) {
        const hls_region *r = &k->regions[probed[i]];
        unsigned bits = r->kind == HLS_REGION_LOOP     ? count_bits(r->credits)
                        : r->kind == HLS_REGION_MEMORY ? count_bits(r->exit_depth)
                                                       : lid_bits(k) + HLS_SLOT_BITS + 1;
        const char *name = r->kind == HLS_REGION_LOOP     ? "count"
                           : r->kind == HLS_REGION_MEMORY ? "tokens"
                                                          : "held";
        sb_printf(&x, "%s%u'd0, r%d_%s", i == nprobes - 1 ? "" : ", ", 32 - bits, r->id, name);
    }
    sb_printf(&x, "%s}", nprobes ? "" : "32'd0");
    const char *probes = bus_net(e, 32u * (unsigned)(nprobes ? nprobes : 1),
                                 "work-items in each loop, barrier and memory node (hangs)",
                                 "probes");
    hls_nl_assign(e->m, probes, "%s", x.data);
    sb_free(&x);
    return nprobes;
}

/* What the shell needs to know of the body: whether it is empty, whether the
 * load-store units are idle, memory requests issued this cycle, and forward progress
 * (the watchdog's sign of life: a work-item entered a region of the body, left a loop,
 * or retired; going round a loop is not). */
static void emit_body_status(emitter *e)
{
    const hls_kernel *k = e->k;
    strbuf x = {0};
    sb_append(&x, "1'b1");
    region_reduce(e, &x, HLS_REGION_STATIC, "\n        & ~|r%d_valid_s & ~r%d_out_valid");
    region_reduce(e, &x, HLS_REGION_LOOP, "\n        & (r%d_count == 0) & ~r%d_out_valid");
    region_reduce(e, &x, HLS_REGION_BARRIER, "\n        & (r%d_held == 0) & ~r%d_out_valid");
    region_reduce(e, &x, HLS_REGION_MEMORY, "\n        & (r%d_tokens == 0)");
    hls_nl_assign(e->m, bit_net(e, "no work-item inside a region", "body_empty"), "%s", x.data);
    x.len = 0;
    for (int n = 0; n < k->nlsus; n++)
        sb_printf(&x, "%slsu%d_idle", n ? " & " : "", n);
    hls_nl_assign(e->m, bit_net(e, "every load-store unit idle, every store acknowledged",
                                "lsus_idle"), "%s", k->nlsus ? x.data : "1'b1");
    for (int write = 0; write < 2; write++) {
        x.len = 0;
        sb_append(&x, "1'b0");
        for (int i = 0; i < k->nops; i++) {
            const hls_op *op = &k->ops[i];
            if (op->lsu >= 0 && (op->opc == HOP_STORE) == write)
                sb_printf(&x, " | lsu%d_count", op->lsu);
        }
        hls_nl_assign(e->m, bit_net(e, "a memory request issued this cycle",
                                    write ? "mem_write" : "mem_read"), "%s", x.data);
    }
    x.len = 0;
    sb_append(&x, "retire");
    for (int c = 0; c < k->regions[0].nchildren; c++)
        sb_printf(&x, " | (r%d_in_valid & r%d_in_ready)", k->regions[0].children[c],
                  k->regions[0].children[c]);
    for (int i = 1; i < k->nregions; i++)
        if (k->regions[i].kind == HLS_REGION_LOOP)
            sb_printf(&x, " | r%d_exit_push", i);
        else if (k->regions[i].kind == HLS_REGION_BARRIER)
            sb_printf(&x, " | (r%d_out_valid & r%d_out_ready)", i, i);
    hls_nl_assign(e->m, "progress", "%s", x.data);
    sb_free(&x);
}

/* The compute unit's body in its module: the shell's nets, the regions' handshakes,
 * local memories, probes, the shell, ROMs, invariants, the region tree, the request
 * buses and what the shell needs to know of the body. */
static void emit_compute_unit(emitter *e)
{
    const hls_kernel *k = e->k;
    unsigned nwords = k->arg_bytes ? k->arg_bytes / 8 : 1; /* argument area registers */
    int entry = k->regions[0].children[0];
    int last = k->regions[0].children[k->regions[0].nchildren - 1];
    declare_shell_outputs(e, nwords);
    declare_regions(e);
    emit_local_memories(e);
    int nprobes = emit_probes(e);
    hls_nl_assign(e->m, bit_net(e, "a work-item leaves the last region", "retire"),
                  "r%d_out_valid", last);
    hls_nl_assign(e->m, text(e, "r%d_out_ready", last), "1'b1");
    strbuf x = {0};
    sb_append(&x, "1'b0");
    region_reduce(e, &x, HLS_REGION_MEMORY, " | r%d_stall_mem");
    hls_nl_assign(e->m, bit_net(e, "a memory node waits for memory", "stall_mem"), "%s", x.data);
    sb_free(&x);
    emit_shell(e, nwords, nprobes,
               k->slot_op >= 0 ? text(e, "r%d_out_v%d", last, k->slot_op)
                               : text(e, "%d'd0", HLS_SLOT_BITS));
    hls_nl_assign(e->m, "wi_ready", "r%d_in_ready", entry);
    hls_nl_assign(e->m, text(e, "r%d_in_valid", entry), "wi_valid");
    emit_roms(e);
    for (int i = 0; i < k->nops; i++)
        if (hls_ir_is_invariant(&k->ops[i]))
            emit_invariant(e, &k->ops[i]);
    emit_region(e, 0);
    emit_request_buses(e);
    emit_write_taken(e);
    emit_body_status(e);
}

/* Whether a kernel of the program has a global atomic (then clhls_top has an atomic
 * unit on its memory port). */
static int has_global_atomic(const hls_program *p)
{
    for (int i = 0; i < p->nkernels; i++)
        for (int j = 0; j < p->kernels[i]->nops; j++) {
            const hls_op *op = &p->kernels[i]->ops[j];
            if (op->opc == HOP_ATOMIC && op->lmem < 0)
                return 1;
        }
    return 0;
}

/* Load-store unit ports of a kernel's compute unit (one, idle, when it has no
 * load-store unit). */
static int unit_ports(const hls_kernel *k)
{
    return k->nlsus ? k->nlsus : 1;
}

/* The clock, the reset and the register port, first in the top and in every compute
 * unit. */
static void clock_and_register_ports(hls_nl_module *m, const hls_program *p,
                                     const char *rdata_comment)
{
    hls_nl_port(m, HLS_NL_IN, "clk", 1, "kernel clock");
    hls_nl_port(m, HLS_NL_IN, "rst", 1, "synchronous active-high reset");
    hls_nl_port(m, HLS_NL_IN, "reg_we", 1, "register write enable");
    hls_nl_port(m, HLS_NL_IN, "reg_addr", reg_addr_bits(p), "register index (64-bit registers)");
    hls_nl_port(m, HLS_NL_IN, "reg_wdata", 64, "register write data");
    hls_nl_port(m, HLS_NL_OUT, "reg_rdata", 64, rdata_comment);
}

/* The module of kernel `index`'s compute unit (clhls_cu_UNIT) in the netlist: its
 * comment and ports (emit_compute_unit builds its body). The check of clhls_top holds
 * the top's instance of it to these ports. */
static hls_nl_module *compute_unit_ports(hls_compile *c, hls_nl_netlist *nl, int index)
{
    const hls_kernel *k = c->program->kernels[index];
    unsigned mw = c->program->board->mem_width_bits;
    unsigned n = (unsigned)unit_ports(k);
    hls_nl_module *m = hls_nl_module_new(nl, arena_printf(&c->arena, "clhls_cu_%s", k->unit));
    hls_nl_comment(m, "Compute unit of kernel '%s', generated by clhls %s.", k->name,
                   hls_version());
    hls_nl_comment(m, "%d regions, %d pipeline stages, %d load-store units, loads scheduled "
                   "at %d cycles.", k->nregions, k->depth, k->nlsus, k->mem_latency);
    hls_nl_lint_off(m, "PINCONNECTEMPTY",
                    "FIFO outputs the compute unit does not need (occupancy counts) stay open.");
    clock_and_register_ports(m, c->program, "register read data (0 outside this kernel)");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_valid", n, "per load-store unit: request valid");
    hls_nl_port(m, HLS_NL_IN, "m_req_ready", n, "per unit: request accepted");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_write", n, "per unit: 1 = write");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_atomic", 4 * n,
                "per unit: atomic operation code (0 = none)");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_addr", 64 * n, "per unit: line address");
    unsigned w = (unsigned)writer_ports(k);
    if (w) {
        hls_nl_port(m, HLS_NL_OUT_REG, "m_req_wdata", mw * w,
                    "per storing unit (stores, atomics), in port order: write data");
        hls_nl_port(m, HLS_NL_OUT_REG, "m_req_wstrb", mw / 8 * w,
                    "per storing unit: write byte enables");
    }
    hls_nl_port(m, HLS_NL_IN, "s_resp_valid", n, "per unit: response valid");
    hls_nl_port(m, HLS_NL_OUT_REG, "s_resp_ready", n, "per unit: response accepted");
    hls_nl_port(m, HLS_NL_IN, "s_resp_rdata", mw, "response data (shared)");
    hls_nl_port(m, HLS_NL_OUT, "progress", 1, "a work-item moved this cycle");
    /* one bit per load-store unit, indexed even when there is one */
    static const char *const per_unit[] = {"m_req_valid", "m_req_ready", "m_req_write",
                                           "s_resp_valid", "s_resp_ready"};
    for (size_t i = 0; i < sizeof per_unit / sizeof *per_unit; i++)
        hls_nl_vector(m, per_unit[i]);
    return m;
}

/* Connects fields of a memory interface of instance i (space-separated, e.g. "valid
 * ready rdata"): port PORT_FIELD to net NET_FIELD. On an interface the instance sends
 * (m_*), every field but ready is an output; on one it receives (s_*), the reverse. */
static void connect_fields(hls_nl_instance *i, const char *port, const char *net,
                           const char *fields)
{
    strbuf name = {0};
    int sends = port[0] == 'm';
    for (const char *f = fields; *f;) {
        int len = (int)strcspn(f, " ");
        int ready = len == 5 && !strncmp(f, "ready", 5);
        name.len = 0;
        sb_printf(&name, "%s_%.*s", port, len, f);
        hls_nl_connect(i, sends != ready ? HLS_NL_OUT : HLS_NL_IN, name.data, "%s_%.*s", net,
                       len, f);
        f += len + (f[len] == ' ');
    }
    sb_free(&name);
}

/* The memory port of clhls_top: the interconnect's requests straight out when no
 * kernel has a global atomic, else through a clhls_atomic_unit, which executes the
 * atomics (the port carries reads and writes only) and clears its cache when any
 * kernel starts (the host may have written memory). */
static void emit_memory_port(hls_nl_module *top, const hls_program *p, int nports, unsigned mw)
{
    const char *ic = "m_mem_req";  /* the interconnect's memory side: the port, or ... */
    const char *icr = "s_mem_resp";
    const char *atomic = "no_atomic"; /* what the interconnect's operation codes drive */
    if (has_global_atomic(p)) {
        ic = "ic_req";              /* ... the wires into the atomic unit */
        icr = "ic_resp";
        atomic = "ic_req_atomic";
        const board_t *b = p->board;
        /* enough requests in flight for one per cycle at the board's latency (and the
         * unit's and the interconnect's cycles) */
        unsigned depth = 32;
        while (depth < b->mem_latency_cycles + 16)
            depth *= 2;
        static const char *const one_bit[] = {"ic_req_valid", "ic_req_ready", "ic_req_write",
                                              "ic_resp_valid", "ic_resp_ready"};
        for (size_t i = 0; i < sizeof one_bit / sizeof *one_bit; i++)
            hls_nl_net(top, one_bit[i], 1, NULL);
        hls_nl_net(top, "ic_req_atomic", 4, NULL);
        hls_nl_net(top, "ic_req_addr", 64, NULL);
        hls_nl_net(top, "ic_req_wdata", mw, NULL);
        hls_nl_net(top, "ic_resp_rdata", mw, NULL);
        hls_nl_net(top, "ic_req_wstrb", mw / 8, NULL);
        hls_nl_net(top, "ic_req_tag", 16, NULL);
        hls_nl_net(top, "ic_resp_tag", 16, NULL);
        hls_nl_net(top, "kernel_start", 1,
                   "a kernel starts (the host may have written memory): forget cached lines");
        hls_nl_assign(top, "kernel_start", "reg_we && reg_addr[7:0] == 8'd%u && reg_wdata[0]",
                      hls_regmap_find("control")->offset);
        hls_nl_instance *u = hls_nl_instance_new(top, "clhls_atomic_unit", "atomic_unit");
        hls_nl_param(u, "MEM_W", "%u", mw);
        hls_nl_param(u, "TAG_W", "16");
        hls_nl_param(u, "ADDR_W", "%u", b->mem_addr_bits);
        hls_nl_param(u, "LINES", "16");
        hls_nl_param(u, "DEPTH", "%u", depth);
        hls_nl_connect(u, HLS_NL_IN, "clk", "clk");
        hls_nl_connect(u, HLS_NL_IN, "rst", "rst");
        hls_nl_connect(u, HLS_NL_IN, "invalidate", "kernel_start");
        connect_fields(u, "s_req", "ic_req", "valid ready write atomic addr wdata wstrb tag");
        connect_fields(u, "m_resp", "ic_resp", "valid ready rdata tag");
        connect_fields(u, "m_mem_req", "m_mem_req", "valid ready write addr wdata wstrb tag");
        connect_fields(u, "s_mem_resp", "s_mem_resp", "valid ready rdata tag");
    } else {
        hls_nl_net(top, "no_atomic", 4, "no kernel has a global atomic: always 0");
        hls_nl_unused(top, "no_atomic");
    }
    hls_nl_instance *ict = hls_nl_instance_new(top, "clhls_mem_interconnect",
                                               "memory_interconnect");
    hls_nl_param(ict, "NPORTS", "%d", nports);
    hls_nl_param(ict, "MEM_W", "%u", mw);
    hls_nl_param(ict, "TAG_W", "16");
    /* the storing units' ports, highest first (a Verilog binary literal) */
    strbuf mask = {0};
    int writers = 0;
    sb_printf(&mask, "%d'b", nports);
    for (int i = p->nkernels - 1; i >= 0; i--)
        for (int n = unit_ports(p->kernels[i]) - 1; n >= 0; n--) {
            int w = port_writes(p->kernels[i], n);
            sb_append(&mask, w ? "1" : "0");
            writers += w;
        }
    hls_nl_param(ict, "WRITERS", "%s", mask.data);
    hls_nl_param(ict, "NWRITE", "%d", writers);
    sb_free(&mask);
    hls_nl_connect(ict, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(ict, HLS_NL_IN, "rst", "rst");
    connect_fields(ict, "s_req", "req", "valid ready write atomic addr wdata wstrb");
    connect_fields(ict, "m_resp", "resp", "valid ready rdata");
    connect_fields(ict, "m_mem_req", ic, "valid ready write");
    hls_nl_connect(ict, HLS_NL_OUT, "m_mem_req_atomic", "%s", atomic);
    connect_fields(ict, "m_mem_req", ic, "addr wdata wstrb tag");
    connect_fields(ict, "s_mem_resp", icr, "valid ready rdata tag");
}

/* clhls_top: the compute units side by side on the register port, their load-store
 * unit ports joined into the memory port's interconnect. */
static hls_nl_module *emit_top(hls_compile *c, hls_nl_netlist *nl)
{
    const hls_program *p = c->program;
    unsigned mw = p->board->mem_width_bits;
    int total = 0;
    for (int i = 0; i < p->nkernels; i++)
        total += unit_ports(p->kernels[i]);
    unsigned all = (unsigned)total;
    hls_nl_module *top = hls_nl_module_new(nl, "clhls_top");
    hls_nl_comment(top, "Accelerator top, generated by clhls %s for board %s: %d kernel(s),",
                   hls_version(), p->board->name, p->nkernels);
    hls_nl_comment(top, "%d load-store unit port(s) on one %u-bit memory port.", total, mw);
    clock_and_register_ports(top, p, "register read data (combinational)");
    hls_nl_port(top, HLS_NL_OUT, "m_mem_req_valid", 1, "memory request valid");
    hls_nl_port(top, HLS_NL_IN, "m_mem_req_ready", 1, "memory accepts the request");
    hls_nl_port(top, HLS_NL_OUT, "m_mem_req_write", 1, "1 = write, 0 = read");
    hls_nl_port(top, HLS_NL_OUT, "m_mem_req_addr", 64, "byte address, port aligned");
    hls_nl_port(top, HLS_NL_OUT, "m_mem_req_wdata", mw, "write data");
    hls_nl_port(top, HLS_NL_OUT, "m_mem_req_wstrb", mw / 8, "write byte enables");
    hls_nl_port(top, HLS_NL_OUT, "m_mem_req_tag", 16, "request tag");
    hls_nl_port(top, HLS_NL_IN, "s_mem_resp_valid", 1, "response valid");
    hls_nl_port(top, HLS_NL_OUT, "s_mem_resp_ready", 1, "response accepted");
    hls_nl_port(top, HLS_NL_IN, "s_mem_resp_rdata", mw, "read data");
    hls_nl_port(top, HLS_NL_IN, "s_mem_resp_tag", 16, "tag of the answered request");
    hls_nl_port(top, HLS_NL_OUT, "progress", 1, "a work-item moved this cycle (watchdog)");
    hls_nl_port(top, HLS_NL_OUT, "progress_units", (unsigned)p->nkernels,
                "bit u: compute unit u moved this cycle");
    hls_nl_vector(top, "progress_units");
    /* The simulator tells the compute units' requests apart (sim-bridge/harness.cpp):
     * each unit's watchdog counts the memory port's tags of its load-store unit ports
     * (when no atomic unit retags the requests). The top tells them once. (The access
     * checker gets the unit's number from each load-store unit's CU parameter.) */
    strbuf text = {0};
    sb_append(&text, "`ifdef CLHLS_SIM_CHECKS\n"
                     "import \"DPI-C\" function void clhls_sim_unit(input int index, "
                     "input int first_tag, input int tags);\n"
                     "initial begin\n");
    for (int i = 0, first = 0; i < p->nkernels; i++) {
        int n = unit_ports(p->kernels[i]);
        sb_printf(&text, "    clhls_sim_unit(%d, %d, %d);\n", i, first,
                  has_global_atomic(p) ? 0 : n);
        first += n;
    }
    sb_append(&text, "end\n`endif\n");
    hls_nl_block_new(top, text.data);
    /* the compute units' request buses side by side, filled in one block (see
     * emit_request_buses); a single compute unit's buses are the interconnect's */
    int single = p->nkernels == 1;
    hls_nl_net(top, "req_ready", all, NULL);
    hls_nl_net(top, "resp_valid", all, NULL);
    hls_nl_vector(top, "req_ready");
    hls_nl_vector(top, "resp_valid");
    hls_nl_net(top, "resp_rdata", mw, NULL);
    /* the last two carry the write data of the storing units alone (writer_ports) */
    static const char *const bus[] = {"req_valid", "req_write", "resp_ready", "req_atomic",
                                      "req_addr", "req_wdata", "req_wstrb"};
    const unsigned bus_width[] = {1, 1, 1, 4, 64, mw, mw / 8}; /* bits per unit port */
    enum { WRITE_BUSES = 5 };                                /* index of req_wdata */
    unsigned writers = 0;
    for (int i = 0; i < p->nkernels; i++)
        writers += (unsigned)writer_ports(p->kernels[i]);
    for (size_t f = 0; f < sizeof bus / sizeof *bus; f++) {
        unsigned slots = f < WRITE_BUSES ? all : writers ? writers : 1;
        if (single && (f < WRITE_BUSES || writers))
            hls_nl_net(top, bus[f], bus_width[f] * slots, NULL);
        else
            hls_nl_reg(top, bus[f], bus_width[f] * slots, NULL);
        hls_nl_vector(top, bus[f]);
    }
    text.len = 0;
    sb_append(&text, "always @(*) begin\n");
    if (!writers)
        sb_append(&text, "    req_wdata = 0;\n    req_wstrb = 0;\n");
    for (int i = 0, base = 0, wbase = 0; i < p->nkernels; i++) {
        const hls_kernel *k = p->kernels[i];
        unsigned n = (unsigned)unit_ports(k), w = (unsigned)writer_ports(k);
        hls_nl_net(top, arena_printf(&c->arena, "rdata_%d", i), 64, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "progress_%d", i), 1, NULL);
        const char *prefix = single ? "" : arena_printf(&c->arena, "cu%d_", i);
        for (size_t f = 0; f < sizeof bus / sizeof *bus && !single; f++) {
            unsigned slots = f < WRITE_BUSES ? n : w;
            if (!slots)
                continue;
            const char *net = arena_printf(&c->arena, "%s%s", prefix, bus[f]);
            hls_nl_net(top, net, bus_width[f] * slots, NULL);
            hls_nl_vector(top, net);
            sb_printf(&text, "    %s[%u +: %u] = %s;\n", bus[f],
                      bus_width[f] * (unsigned)(f < WRITE_BUSES ? base : wbase),
                      bus_width[f] * slots, net);
        }
        hls_nl_instance *cu = hls_nl_instance_new(
            top, arena_printf(&c->arena, "clhls_cu_%s", k->unit),
            arena_printf(&c->arena, "cu_%s", k->unit));
        static const char *const shared[] = {"clk", "rst", "reg_we", "reg_addr", "reg_wdata"};
        for (size_t s = 0; s < sizeof shared / sizeof *shared; s++)
            hls_nl_connect(cu, HLS_NL_IN, shared[s], "%s", shared[s]);
        hls_nl_connect(cu, HLS_NL_OUT, "reg_rdata", "rdata_%d", i);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_valid", "%sreq_valid", prefix);
        hls_nl_connect(cu, HLS_NL_IN, "m_req_ready", "req_ready[%d +: %u]", base, n);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_write", "%sreq_write", prefix);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_atomic", "%sreq_atomic", prefix);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_addr", "%sreq_addr", prefix);
        if (w) {
            hls_nl_connect(cu, HLS_NL_OUT, "m_req_wdata", "%sreq_wdata", prefix);
            hls_nl_connect(cu, HLS_NL_OUT, "m_req_wstrb", "%sreq_wstrb", prefix);
        }
        hls_nl_connect(cu, HLS_NL_IN, "s_resp_valid", "resp_valid[%d +: %u]", base, n);
        hls_nl_connect(cu, HLS_NL_OUT, "s_resp_ready", "%sresp_ready", prefix);
        hls_nl_connect(cu, HLS_NL_IN, "s_resp_rdata", "resp_rdata");
        hls_nl_connect(cu, HLS_NL_OUT, "progress", "progress_%d", i);
        base += (int)n;
        wbase += (int)w;
    }
    sb_append(&text, "end\n");
    if (!single || !writers) { /* a single unit without stores: only the zero write data */
        hls_nl_block *buses = hls_nl_block_new(top, text.data);
        for (size_t f = single ? WRITE_BUSES : 0; f < sizeof bus / sizeof *bus; f++)
            hls_nl_drives(buses, bus[f]);
    }
    sb_free(&text);
    hls_nl_assign(top, "progress", "|progress_units");
    strbuf expr = {0};
    for (int i = p->nkernels - 1; i >= 0; i--)
        sb_printf(&expr, "progress_%d%s", i, i ? ", " : "");
    hls_nl_assign(top, "progress_units", "{%s}", expr.data);
    expr.len = 0;
    sb_append(&expr, "64'd0");
    for (int i = 0; i < p->nkernels; i++)
        sb_printf(&expr, " | rdata_%d", i);
    hls_nl_assign(top, "reg_rdata", "%s", expr.data);
    sb_free(&expr);
    emit_memory_port(top, p, total, mw);
    return top;
}

static FILE *open_output(hls_compile *c, const char *dir, const char *name, strbuf *files)
{
    char *path = arena_printf(&c->arena, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        sb_printf(c->diag.log, "error: cannot write %s: %s\n", path, strerror(errno));
    else
        sb_printf(files, "%s\n", path);
    return f;
}

/* Whether module m passes the check; a failing check is an internal error in the build
 * log. */
static int checked(hls_compile *c, const hls_nl_module *m, const char *name)
{
    strbuf errors = {0};
    int problems = hls_nl_check(m, &errors);
    if (problems)
        sb_printf(c->diag.log, "internal error: the netlist of %s fails its check:\n%s", name,
                  errors.data);
    sb_free(&errors);
    return !problems;
}

/* Writes module m to DIR/NAME.v. */
static int write_module(hls_compile *c, const char *dir, strbuf *files, const hls_nl_module *m,
                        const char *name)
{
    FILE *f = open_output(c, dir, arena_printf(&c->arena, "%s.v", name), files);
    if (!f)
        return HLS_ERR_TOOL;
    hls_nl_print(f, m);
    fclose(f);
    return HLS_OK;
}

/* The compute units and the top are built in one netlist (the top's instances of the
 * units are checked against their ports); no file is written unless every module
 * passes its check. */
int hls_emit_verilog(hls_compile *c, const char *dir, strbuf *files)
{
    const hls_program *p = c->program;
    hls_nl_netlist *nl = hls_nl_netlist_new(&c->arena);
    hls_nl_module **modules = arena_alloc(&c->arena, (size_t)(p->nkernels + 1) * sizeof *modules);
    const char **names = arena_alloc(&c->arena, (size_t)(p->nkernels + 1) * sizeof *names);
    for (int i = 0; i < p->nkernels; i++) {
        modules[i] = compute_unit_ports(c, nl, i);
        names[i] = arena_printf(&c->arena, "clhls_cu_%s", p->kernels[i]->unit);
        emitter e = {.c = c, .m = modules[i], .k = p->kernels[i], .kernel_index = i,
                     .mem_w = p->board->mem_width_bits};
        emit_compute_unit(&e);
    }
    modules[p->nkernels] = emit_top(c, nl);
    names[p->nkernels] = "clhls_top";
    int ok = 1;
    for (int i = 0; i <= p->nkernels; i++)
        ok &= checked(c, modules[i], names[i]);
    if (!ok)
        return HLS_ERR_INTERNAL;
    for (int i = 0; i <= p->nkernels; i++) {
        int rc = write_module(c, dir, files, modules[i], names[i]);
        if (rc != HLS_OK)
            return rc;
    }
    return HLS_OK;
}
