/* Verilog emission: one compute-unit module per kernel (clhls_cu_NAME) and the
 * accelerator top (clhls_top) that joins them on the register port and, through
 * clhls_mem_interconnect, on the board's memory port.
 *
 * A compute unit is the kernel's register block, the work-group dispatcher, the
 * work-item generator and one statically scheduled pipeline with a global stall:
 * every stage advances together (en) unless a load's data is not back, a load-store
 * unit cannot take a request. A value produced at stage p and read up to stage q is
 * carried by registers v<id>_d1 .. v<id>_d(q-p); v<id> is the value at its home
 * stage. Multi-cycle operators are template instances whose clock enable is en, so
 * their internal registers move with the pipeline. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "passes.h"

typedef struct emitter {
    FILE *out;            /* the Verilog file being written */
    const hls_kernel *k;  /* kernel being emitted */
    int kernel_index;     /* position in the program (register block) */
    unsigned mem_w;       /* memory port width in bits */
} emitter;

static int home_stage(const hls_op *op)
{
    return op->start + op->latency;
}

/* Name of op's value as seen at `stage`. */
static const char *ref(char buf[32], const hls_op *op, int stage)
{
    int delay = hls_ir_is_invariant(op) ? 0 : stage - home_stage(op);
    if (delay < 0)
        HLS_BUG("value %%%d read at stage %d before it exists (stage %d)", op->id, stage,
                home_stage(op));
    if (delay == 0)
        snprintf(buf, 32, "v%d", op->id);
    else
        snprintf(buf, 32, "v%d_d%d", op->id, delay);
    return buf;
}

#define ARG(i) ref(args[i], &e->k->ops[op->args[i]], op->start)
#define ARG_WIDTH(i) (e->k->ops[op->args[i]].width)

/* Expression `name` of width `from` fitted to width `to` (zero extension). */
static void fit(emitter *e, const char *name, unsigned from, unsigned to)
{
    if (from == to)
        fprintf(e->out, "%s", name);
    else if (from > to)
        fprintf(e->out, "%s[%u:0]", name, to - 1);
    else
        fprintf(e->out, "{%u'd0, %s}", to - from, name);
}

static const char *token_field(int field)
{
    static const char *const names[] = {"global_id", "local_id", "group_id", "group_size"};
    return names[field];
}

static unsigned token_width(int field)
{
    return field == HLS_TOK_GLOBAL_ID ? 64 : 32;
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

/* An integer operation: a combinational expression followed by `latency` registers
 * (clhls_delay; none for latency 0). */
static void emit_int_op(emitter *e, const hls_op *op)
{
    char args[3][32];
    FILE *o = e->out;
    unsigned w = op->width;
    fprintf(o, "    wire [%u:0] v%d_c = ", w - 1, op->id);
    switch (op->opc) {
    case HOP_ADD: fprintf(o, "%s + %s", ARG(0), ARG(1)); break;
    case HOP_SUB: fprintf(o, "%s - %s", ARG(0), ARG(1)); break;
    case HOP_MUL: fprintf(o, "%s * %s", ARG(0), ARG(1)); break;
    case HOP_AND: fprintf(o, "%s & %s", ARG(0), ARG(1)); break;
    case HOP_OR: fprintf(o, "%s | %s", ARG(0), ARG(1)); break;
    case HOP_XOR: fprintf(o, "%s ^ %s", ARG(0), ARG(1)); break;
    case HOP_SHL: fprintf(o, "%s << %s", ARG(0), ARG(1)); break;
    case HOP_LSHR: fprintf(o, "%s >> %s", ARG(0), ARG(1)); break;
    case HOP_ASHR: fprintf(o, "$signed(%s) >>> %s", ARG(0), ARG(1)); break;
    case HOP_ICMP: fprintf(o, icmp_expr(op->imm), ARG(0), ARG(1)); break;
    case HOP_SELECT: fprintf(o, "%s ? %s : %s", ARG(0), ARG(1), ARG(2)); break;
    case HOP_TRUNC: fprintf(o, "%s[%u:0]", ARG(0), w - 1); break;
    case HOP_ZEXT: fprintf(o, "{%u'd0, %s}", w - ARG_WIDTH(0), ARG(0)); break;
    case HOP_SEXT: {
        unsigned aw = ARG_WIDTH(0);
        fprintf(o, "{{%u{%s[%u]}}, %s}", w - aw, ARG(0), aw - 1, ARG(0));
        break;
    }
    default: HLS_BUG("not an integer op: %s", hls_ir_opcode_name(op->opc));
    }
    fprintf(o, ";\n");
    fprintf(o, "    wire [%u:0] v%d;\n", w - 1, op->id);
    fprintf(o, "    clhls_delay #(.WIDTH(%u), .LATENCY(%d)) u%d (.clk(clk), .ce(en), .d(v%d_c), "
               ".q(v%d));\n", w, op->latency, op->id, op->id, op->id);
}

static void emit_fp_op(emitter *e, const hls_op *op)
{
    char args[3][32];
    FILE *o = e->out;
    fprintf(o, "    wire [%u:0] v%d;\n", op->width - 1, op->id);
    switch (op->opc) {
    case HOP_FADD: case HOP_FSUB:
        fprintf(o, "    clhls_fadd #(.LATENCY(%d)) u%d (.clk(clk), .ce(en), .a(%s), .b(%s), "
                   ".sub(1'b%d), .y(v%d));\n", op->latency, op->id, ARG(0), ARG(1),
                op->opc == HOP_FSUB, op->id);
        break;
    case HOP_FMUL:
        fprintf(o, "    clhls_fmul #(.LATENCY(%d)) u%d (.clk(clk), .ce(en), .a(%s), .b(%s), "
                   ".y(v%d));\n", op->latency, op->id, ARG(0), ARG(1), op->id);
        break;
    case HOP_FCMP:
        fprintf(o, "    clhls_fcmp #(.LATENCY(%d)) u%d (.clk(clk), .ce(en), .a(%s), .b(%s), "
                   ".pred(4'd%llu), .y(v%d));\n", op->latency, op->id, ARG(0), ARG(1),
                (unsigned long long)op->imm, op->id);
        break;
    case HOP_SITOFP: case HOP_UITOFP:
        fprintf(o, "    clhls_itofp #(.IN_W(%u), .SIGNED(%d), .LATENCY(%d)) u%d (.clk(clk), "
                   ".ce(en), .a(%s), .y(v%d));\n", ARG_WIDTH(0), op->opc == HOP_SITOFP,
                op->latency, op->id, ARG(0), op->id);
        break;
    case HOP_FPTOSI: case HOP_FPTOUI:
        fprintf(o, "    clhls_fptoi #(.OUT_W(%u), .SIGNED(%d), .LATENCY(%d)) u%d (.clk(clk), "
                   ".ce(en), .a(%s), .y(v%d));\n", op->width, op->opc == HOP_FPTOSI,
                op->latency, op->id, ARG(0), op->id);
        break;
    default: HLS_BUG("not a floating-point op: %s", hls_ir_opcode_name(op->opc));
    }
}

/* The memory-side connections shared by both load-store unit kinds. */
static void emit_lsu_memory_ports(emitter *e, int n)
{
    fprintf(e->out,
            "        .m_mem_req_valid(m_req_valid[%d]), .m_mem_req_ready(m_req_ready[%d]),\n"
            "        .m_mem_req_addr(m_req_addr[%d +: 64]),\n"
            "        .s_mem_resp_valid(s_resp_valid[%d]), .s_mem_resp_ready(s_resp_ready[%d]),\n",
            n, n, 64 * n, n, n);
}

/* Load-store unit capacity: twice the scheduled latency, a power of two. */
static unsigned lsu_depth(const hls_kernel *k)
{
    unsigned d = 16;
    while (d < 2u * (unsigned)k->mem_latency)
        d *= 2;
    return d;
}

static void emit_memory_op(emitter *e, const hls_op *op)
{
    char args[3][32];
    FILE *o = e->out;
    int n = op->lsu;
    unsigned mw = e->mem_w;
    if (op->opc == HOP_LOAD) {
        fprintf(o, "    wire [%u:0] v%d;\n    wire lsu%d_req_ready, lsu%d_resp_valid, lsu%d_idle, "
                   "lsu%d_count;\n", op->width - 1, op->id, n, n, n, n);
        fprintf(o, "    clhls_lsu_load #(.DATA_W(%u), .MEM_W(%u), .DEPTH(%u)) lsu%d (\n"
                   "        .clk(clk), .rst(rst),\n"
                   "        .s_req_valid(valid_s[%d] & en), .s_req_ready(lsu%d_req_ready),\n"
                   "        .s_req_addr(%s),\n"
                   "        .m_resp_valid(lsu%d_resp_valid), .m_resp_ready(valid_s[%d] & en),\n"
                   "        .m_resp_data(v%d),\n",
                op->width, mw, lsu_depth(e->k), n, op->start, n, ARG(0), n,
                home_stage(op), op->id);
        emit_lsu_memory_ports(e, n);
        fprintf(o, "        .s_mem_resp_rdata(s_resp_rdata), .idle(lsu%d_idle), "
                   ".count_read(lsu%d_count));\n", n, n);
        fprintf(o, "    assign m_req_write[%d] = 1'b0;\n"
                   "    assign m_req_wdata[%u +: %u] = %u'd0;\n"
                   "    assign m_req_wstrb[%u +: %u] = %u'd0;\n",
                n, mw * (unsigned)n, mw, mw, mw / 8 * (unsigned)n, mw / 8, mw / 8);
        return;
    }
    fprintf(o, "    wire lsu%d_req_ready, lsu%d_idle, lsu%d_count;\n", n, n, n);
    fprintf(o, "    clhls_lsu_store #(.DATA_W(%u), .MEM_W(%u), .IDLE_FLUSH(4)) lsu%d (\n"
               "        .clk(clk), .rst(rst),\n"
               "        .s_req_valid(valid_s[%d] & en), .s_req_ready(lsu%d_req_ready),\n"
               "        .s_req_addr(%s),\n",
            op->width, mw, n, op->start, n, ARG(0));
    fprintf(o, "        .s_req_data(%s), .flush(drained),\n", ARG(1));
    emit_lsu_memory_ports(e, n);
    fprintf(o, "        .m_mem_req_wdata(m_req_wdata[%u +: %u]),\n"
               "        .m_mem_req_wstrb(m_req_wstrb[%u +: %u]),\n"
               "        .idle(lsu%d_idle), .count_write(lsu%d_count));\n",
            mw * (unsigned)n, mw, mw / 8 * (unsigned)n, mw / 8, n, n);
    fprintf(o, "    assign m_req_write[%d] = 1'b1;\n", n);
}

static void emit_op(emitter *e, const hls_op *op)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    if (op->loc.line)
        fprintf(o, "    // %%%d %s, line %u\n", op->id, hls_ir_opcode_name(op->opc), op->loc.line);
    switch (op->opc) {
    case HOP_CONST:
        fprintf(o, "    wire [%u:0] v%d = %u'h%llx;\n", op->width - 1, op->id, op->width,
                (unsigned long long)op->imm);
        return;
    case HOP_ARG:
        fprintf(o, "    wire [%u:0] v%d = args[%d +: %u];  // argument %s\n", op->width - 1,
                op->id, 64 * op->arg, op->width, k->args[op->arg].name);
        return;
    case HOP_NDRANGE: {
        char name[32];
        const char *axis = "xyz";
        if (op->imm == HLS_ND_WORK_DIM)
            snprintf(name, sizeof name, "work_dim");
        else
            snprintf(name, sizeof name, "%s_%c", ndrange_reg((int)op->imm), axis[op->dim]);
        fprintf(o, "    wire [%u:0] v%d = ", op->width - 1, op->id);
        fit(e, name, ndrange_width((int)op->imm), op->width);
        fprintf(o, ";\n");
        return;
    }
    case HOP_TOKEN: {
        char name[32];
        snprintf(name, sizeof name, "tok_%s_%c", token_field((int)op->imm), "xyz"[op->dim]);
        fprintf(o, "    wire [%u:0] v%d = ", op->width - 1, op->id);
        fit(e, name, token_width((int)op->imm), op->width);
        fprintf(o, ";\n");
        return;
    }
    case HOP_FADD: case HOP_FSUB: case HOP_FMUL: case HOP_FCMP: case HOP_SITOFP:
    case HOP_UITOFP: case HOP_FPTOSI: case HOP_FPTOUI:
        emit_fp_op(e, op);
        return;
    case HOP_LOAD: case HOP_STORE:
        emit_memory_op(e, op);
        return;
    default:
        emit_int_op(e, op);
        return;
    }
}

/* Registers that carry each value from its home stage to its last reader. */
static void emit_carry_registers(emitter *e)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        if (hls_ir_is_invariant(op) || op->opc == HOP_STORE)
            continue;
        int n = op->last_use - home_stage(op);
        if (n <= 0)
            continue;
        fprintf(o, "    reg [%u:0] v%d_d1", op->width - 1, op->id);
        for (int d = 2; d <= n; d++)
            fprintf(o, ", v%d_d%d", op->id, d);
        fprintf(o, ";\n    always @(posedge clk) if (en) begin\n        v%d_d1 <= v%d;\n",
                op->id, op->id);
        for (int d = 2; d <= n; d++)
            fprintf(o, "        v%d_d%d <= v%d_d%d;\n", op->id, d, op->id, d - 1);
        fprintf(o, "    end\n");
    }
}

/* A list "a | b | c" of the per-LSU signal `name`, or `none` when there are none. */
static void emit_lsu_reduce(emitter *e, const char *fmt, const char *join, const char *none)
{
    if (!e->k->nlsus) {
        fprintf(e->out, "%s", none);
        return;
    }
    for (int n = 0; n < e->k->nlsus; n++) {
        if (n)
            fprintf(e->out, "%s", join);
        fprintf(e->out, fmt, n);
    }
}

static void emit_stall(emitter *e)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    fprintf(o, "    // The pipeline stalls when a load-store unit cannot take a request or a\n"
               "    // load's data is not back when its work-item needs it.\n"
               "    assign stall = 1'b0");
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        if (op->opc != HOP_LOAD && op->opc != HOP_STORE)
            continue;
        fprintf(o, "\n        | (valid_s[%d] & ~lsu%d_req_ready)", op->start, op->lsu);
        if (op->opc == HOP_LOAD)
            fprintf(o, "\n        | (valid_s[%d] & ~lsu%d_resp_valid)", home_stage(op), op->lsu);
    }
    fprintf(o, ";\n");
}

static void emit_token_registers(emitter *e)
{
    FILE *o = e->out;
    static const char *const fields[] = {"global_id", "local_id", "group_id", "group_size"};
    for (int f = 0; f < 4; f++)
        fprintf(o, "    reg [%u:0] tok_%s_x, tok_%s_y, tok_%s_z;\n", token_width(f) - 1, fields[f],
                fields[f], fields[f]);
    fprintf(o, "    always @(posedge clk) if (en) begin\n");
    for (int f = 0; f < 4; f++)
        for (int d = 0; d < 3; d++)
            fprintf(o, "        tok_%s_%c <= wi_%s_%c;\n", fields[f], "xyz"[d], fields[f],
                    "xyz"[d]);
    fprintf(o, "    end\n");
}

static void emit_compute_unit(emitter *e)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    int nports = k->nlsus ? k->nlsus : 1;
    int nargs = k->nargs ? k->nargs : 1;
    int depth = k->depth > 0 ? k->depth : 1;
    unsigned mw = e->mem_w;
    fprintf(o,
            "// Compute unit of kernel '%s', generated by clhls %s.\n"
            "// Pipeline depth %d stages, %d load-store units, loads scheduled at %d cycles.\n"
            "`default_nettype none\n"
            "module clhls_cu_%s (\n"
            "    input  wire clk,                       // kernel clock\n"
            "    input  wire rst,                       // synchronous reset\n"
            "    input  wire reg_we,                    // register write enable\n"
            "    input  wire [15:0] reg_addr,           // register index\n"
            "    input  wire [63:0] reg_wdata,          // register write data\n"
            "    output wire [63:0] reg_rdata,          // register read data (0 outside this kernel)\n"
            "    output wire [%d:0] m_req_valid,         // per load-store unit: request valid\n"
            "    input  wire [%d:0] m_req_ready,         // per unit: request accepted\n"
            "    output wire [%d:0] m_req_write,         // per unit: 1 = write\n"
            "    output wire [%d:0] m_req_addr,        // per unit: line address\n"
            "    output wire [%u:0] m_req_wdata,       // per unit: write data\n"
            "    output wire [%u:0] m_req_wstrb,       // per unit: write byte enables\n"
            "    input  wire [%d:0] s_resp_valid,        // per unit: response valid\n"
            "    output wire [%d:0] s_resp_ready,        // per unit: response accepted\n"
            "    input  wire [%u:0] s_resp_rdata        // response data (shared)\n"
            ");\n",
            k->name, hls_version(), depth, k->nlsus, k->mem_latency, k->name, nports - 1,
            nports - 1, nports - 1, 64 * nports - 1, mw * (unsigned)nports - 1,
            mw / 8 * (unsigned)nports - 1, nports - 1, nports - 1, mw - 1);

    fprintf(o,
            "    wire start, busy, done_pulse, stall;\n"
            "    wire en = ~stall;\n"
            "    wire [31:0] work_dim;\n"
            "    wire [63:0] global_size_x, global_size_y, global_size_z;\n"
            "    wire [31:0] local_size_x, local_size_y, local_size_z;\n"
            "    wire [63:0] global_offset_x, global_offset_y, global_offset_z;\n"
            "    wire [31:0] num_groups_x, num_groups_y, num_groups_z;\n"
            "    wire [%d:0] args;\n"
            "    reg [%d:0] valid_s;                    // valid_s[s]: stage s holds a work-item\n",
            64 * nargs - 1, depth);
    fprintf(o,
            "    clhls_kernel_regs #(.NARGS(%d)) regs (\n"
            "        .clk(clk), .rst(rst), .reg_we(reg_we), .reg_addr(reg_addr[6:0]),\n"
            "        .reg_sel(reg_addr[15:7] == 9'd%d), .reg_wdata(reg_wdata), .reg_rdata(reg_rdata),\n"
            "        .start(start), .busy(busy), .work_dim(work_dim),\n"
            "        .global_size_x(global_size_x), .global_size_y(global_size_y), .global_size_z(global_size_z),\n"
            "        .local_size_x(local_size_x), .local_size_y(local_size_y), .local_size_z(local_size_z),\n"
            "        .global_offset_x(global_offset_x), .global_offset_y(global_offset_y), .global_offset_z(global_offset_z),\n"
            "        .num_groups_x(num_groups_x), .num_groups_y(num_groups_y), .num_groups_z(num_groups_z),\n"
            "        .args(args), .done_pulse(done_pulse),\n"
            "        .count_work_item(valid_s[%d] & en), .count_stall_mem(busy & stall),\n"
            "        .count_mem_read(",
            nargs, e->kernel_index, depth);
    int any_load = 0, any_store = 0;
    for (int i = 0; i < k->nops; i++) {
        if (k->ops[i].opc == HOP_LOAD)
            fprintf(o, "%slsu%d_count", any_load++ ? " | " : "", k->ops[i].lsu);
    }
    fprintf(o, "%s), .count_mem_write(", any_load ? "" : "1'b0");
    for (int i = 0; i < k->nops; i++) {
        if (k->ops[i].opc == HOP_STORE)
            fprintf(o, "%slsu%d_count", any_store++ ? " | " : "", k->ops[i].lsu);
    }
    fprintf(o, "%s));\n", any_store ? "" : "1'b0");

    fprintf(o,
            "    // Work-groups, then work-items, one per cycle.\n"
            "    wire wg_valid, wg_ready, all_issued, dispatch_busy;\n"
            "    wire [31:0] wg_id_x, wg_id_y, wg_id_z, wg_size_x, wg_size_y, wg_size_z;\n"
            "    clhls_wg_dispatch dispatch (\n"
            "        .clk(clk), .rst(rst), .start(start),\n"
            "        .global_size_x(global_size_x), .global_size_y(global_size_y), .global_size_z(global_size_z),\n"
            "        .local_size_x(local_size_x), .local_size_y(local_size_y), .local_size_z(local_size_z),\n"
            "        .num_groups_x(num_groups_x), .num_groups_y(num_groups_y), .num_groups_z(num_groups_z),\n"
            "        .m_valid(wg_valid), .m_ready(wg_ready),\n"
            "        .m_group_id_x(wg_id_x), .m_group_id_y(wg_id_y), .m_group_id_z(wg_id_z),\n"
            "        .m_group_size_x(wg_size_x), .m_group_size_y(wg_size_y), .m_group_size_z(wg_size_z),\n"
            "        .all_issued(all_issued), .busy(dispatch_busy));\n"
            "    wire wi_valid, wi_last, wi_idle;\n"
            "    wire [63:0] wi_global_id_x, wi_global_id_y, wi_global_id_z;\n"
            "    wire [31:0] wi_local_id_x, wi_local_id_y, wi_local_id_z;\n"
            "    wire [31:0] wi_group_id_x, wi_group_id_y, wi_group_id_z;\n"
            "    wire [31:0] wi_group_size_x, wi_group_size_y, wi_group_size_z;\n"
            "    clhls_wi_gen items (\n"
            "        .clk(clk), .rst(rst),\n"
            "        .s_valid(wg_valid), .s_ready(wg_ready),\n"
            "        .s_group_id_x(wg_id_x), .s_group_id_y(wg_id_y), .s_group_id_z(wg_id_z),\n"
            "        .s_group_size_x(wg_size_x), .s_group_size_y(wg_size_y), .s_group_size_z(wg_size_z),\n"
            "        .local_size_x(local_size_x), .local_size_y(local_size_y), .local_size_z(local_size_z),\n"
            "        .global_offset_x(global_offset_x), .global_offset_y(global_offset_y), .global_offset_z(global_offset_z),\n"
            "        .m_valid(wi_valid), .m_ready(en),\n"
            "        .m_global_id_x(wi_global_id_x), .m_global_id_y(wi_global_id_y), .m_global_id_z(wi_global_id_z),\n"
            "        .m_local_id_x(wi_local_id_x), .m_local_id_y(wi_local_id_y), .m_local_id_z(wi_local_id_z),\n"
            "        .m_group_id_x(wi_group_id_x), .m_group_id_y(wi_group_id_y), .m_group_id_z(wi_group_id_z),\n"
            "        .m_group_size_x(wi_group_size_x), .m_group_size_y(wi_group_size_y), .m_group_size_z(wi_group_size_z),\n"
            "        .m_last_in_group(wi_last), .idle(wi_idle));\n"
            "    always @(posedge clk)\n"
            "        if (rst) valid_s <= 0;\n"
            "        else if (en) valid_s <= {valid_s[%d:0], wi_valid};\n",
            depth - 1);
    emit_token_registers(e);
    fprintf(o, "    // No work-item left to enter or in flight: stores may flush.\n"
               "    wire drained = all_issued & wi_idle & ~wi_valid & ~|valid_s;\n");

    fprintf(o, "    // The kernel body.\n");
    for (int b = 0; b < k->nblocks; b++)
        for (int i = 0; i < k->blocks[b].nops; i++)
            emit_op(e, &k->ops[k->blocks[b].ops[i]]);
    emit_carry_registers(e);
    emit_stall(e);
    if (!k->nlsus)
        fprintf(o, "    assign m_req_valid = 1'b0;\n    assign m_req_write = 1'b0;\n"
                   "    assign m_req_addr = 64'd0;\n    assign m_req_wdata = 0;\n"
                   "    assign m_req_wstrb = 0;\n    assign s_resp_ready = 1'b1;\n");
    fprintf(o, "    // Done: every work-item retired and every store acknowledged.\n"
               "    assign done_pulse = busy & drained & (");
    emit_lsu_reduce(e, "lsu%d_idle", " & ", "1'b1");
    fprintf(o, ");\nendmodule\n`default_nettype wire\n");
}

static void emit_top(FILE *o, const hls_program *p, unsigned mw)
{
    int total = 0;
    for (int i = 0; i < p->nkernels; i++)
        total += p->kernels[i]->nlsus ? p->kernels[i]->nlsus : 1;
    fprintf(o,
            "// Accelerator top, generated by clhls %s for board %s: %d kernel(s),\n"
            "// %d load-store unit port(s) on one %u-bit memory port.\n"
            "`default_nettype none\n"
            "module clhls_top (\n"
            "    input  wire clk,                      // kernel clock\n"
            "    input  wire rst,                      // synchronous active-high reset\n"
            "    input  wire reg_we,                   // register write enable\n"
            "    input  wire [15:0] reg_addr,          // register index (64-bit registers)\n"
            "    input  wire [63:0] reg_wdata,         // register write data\n"
            "    output wire [63:0] reg_rdata,         // register read data (combinational)\n"
            "    output wire m_mem_req_valid,          // memory request valid\n"
            "    input  wire m_mem_req_ready,          // memory accepts the request\n"
            "    output wire m_mem_req_write,          // 1 = write, 0 = read\n"
            "    output wire [63:0] m_mem_req_addr,    // byte address, port aligned\n"
            "    output wire [%u:0] m_mem_req_wdata,  // write data\n"
            "    output wire [%u:0] m_mem_req_wstrb,   // write byte enables\n"
            "    output wire [15:0] m_mem_req_tag,     // request tag\n"
            "    input  wire s_mem_resp_valid,         // response valid\n"
            "    output wire s_mem_resp_ready,         // response accepted\n"
            "    input  wire [%u:0] s_mem_resp_rdata, // read data\n"
            "    input  wire [15:0] s_mem_resp_tag     // tag of the answered request\n"
            ");\n",
            hls_version(), p->board->name, p->nkernels, total, mw, mw - 1, mw / 8 - 1, mw - 1);
    fprintf(o,
            "    wire [%d:0] req_valid, req_ready, req_write, resp_valid, resp_ready;\n"
            "    wire [%d:0] req_addr;\n    wire [%u:0] req_wdata;\n    wire [%u:0] req_wstrb;\n"
            "    wire [%u:0] resp_rdata;\n",
            total - 1, 64 * total - 1, mw * (unsigned)total - 1, mw / 8 * (unsigned)total - 1,
            mw - 1);
    int base = 0;
    for (int i = 0; i < p->nkernels; i++) {
        const hls_kernel *k = p->kernels[i];
        int n = k->nlsus ? k->nlsus : 1;
        fprintf(o,
                "    wire [63:0] rdata_%d;\n"
                "    clhls_cu_%s cu_%s (\n"
                "        .clk(clk), .rst(rst), .reg_we(reg_we), .reg_addr(reg_addr),\n"
                "        .reg_wdata(reg_wdata), .reg_rdata(rdata_%d),\n"
                "        .m_req_valid(req_valid[%d +: %d]), .m_req_ready(req_ready[%d +: %d]),\n"
                "        .m_req_write(req_write[%d +: %d]), .m_req_addr(req_addr[%d +: %d]),\n"
                "        .m_req_wdata(req_wdata[%u +: %u]), .m_req_wstrb(req_wstrb[%u +: %u]),\n"
                "        .s_resp_valid(resp_valid[%d +: %d]), .s_resp_ready(resp_ready[%d +: %d]),\n"
                "        .s_resp_rdata(resp_rdata));\n",
                i, k->name, k->name, i, base, n, base, n, base, n, 64 * base, 64 * n,
                mw * (unsigned)base, mw * (unsigned)n, mw / 8 * (unsigned)base,
                mw / 8 * (unsigned)n, base, n, base, n);
        base += n;
    }
    fprintf(o, "    assign reg_rdata = 64'd0");
    for (int i = 0; i < p->nkernels; i++)
        fprintf(o, " | rdata_%d", i);
    fprintf(o,
            ";\n"
            "    clhls_mem_interconnect #(.NPORTS(%d), .MEM_W(%u), .TAG_W(16)) memory_interconnect (\n"
            "        .clk(clk), .rst(rst),\n"
            "        .s_req_valid(req_valid), .s_req_ready(req_ready), .s_req_write(req_write),\n"
            "        .s_req_addr(req_addr), .s_req_wdata(req_wdata), .s_req_wstrb(req_wstrb),\n"
            "        .m_resp_valid(resp_valid), .m_resp_ready(resp_ready), .m_resp_rdata(resp_rdata),\n"
            "        .m_mem_req_valid(m_mem_req_valid), .m_mem_req_ready(m_mem_req_ready),\n"
            "        .m_mem_req_write(m_mem_req_write), .m_mem_req_addr(m_mem_req_addr),\n"
            "        .m_mem_req_wdata(m_mem_req_wdata), .m_mem_req_wstrb(m_mem_req_wstrb),\n"
            "        .m_mem_req_tag(m_mem_req_tag),\n"
            "        .s_mem_resp_valid(s_mem_resp_valid), .s_mem_resp_ready(s_mem_resp_ready),\n"
            "        .s_mem_resp_rdata(s_mem_resp_rdata), .s_mem_resp_tag(s_mem_resp_tag));\n"
            "endmodule\n`default_nettype wire\n",
            total, mw);
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

int hls_emit_verilog(hls_compile *c, const char *dir, strbuf *files)
{
    const hls_program *p = c->program;
    unsigned mw = p->board->mem_width_bits;
    for (int i = 0; i < p->nkernels; i++) {
        char *name = arena_printf(&c->arena, "clhls_cu_%s.v", p->kernels[i]->name);
        FILE *f = open_output(c, dir, name, files);
        if (!f)
            return HLS_ERR_TOOL;
        emitter e = {.out = f, .k = p->kernels[i], .kernel_index = i, .mem_w = mw};
        emit_compute_unit(&e);
        fclose(f);
    }
    FILE *f = open_output(c, dir, "clhls_top.v", files);
    if (!f)
        return HLS_ERR_TOOL;
    emit_top(f, p, mw);
    fclose(f);
    return HLS_OK;
}
