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
 * wires v<id>. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "netlist.h"
#include "passes.h"
#include "regmap.h"

typedef struct emitter {
    hls_compile *c;       /* the compilation */
    FILE *out;            /* the Verilog file being written */
    const hls_kernel *k;  /* kernel being emitted */
    int kernel_index;     /* position in the program (register block) */
    unsigned mem_w;       /* memory port width in bits */
    const hls_region *r;  /* static region being emitted */
    const hls_region *loop; /* loop whose back edge or exit is being packed */
    const hls_nl_module *unit; /* the compute unit's module: its comment and ports */
} emitter;

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
static void fit(emitter *e, const char *name, unsigned from, unsigned to)
{
    if (from == to)
        fprintf(e->out, "%s", name);
    else if (from > to)
        fprintf(e->out, "%s[%u:0]", name, to - 1);
    else
        fprintf(e->out, "{%u'd0, %s}", to - from, name);
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

/* An integer operation: a combinational expression followed by `latency` registers
 * (clhls_delay; none for latency 0). */
static void emit_int_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    FILE *o = e->out;
    unsigned w = op->width;
    if (op->opc == HOP_EXTRACT) /* the elements shifted down to the one the index picks */
        fprintf(o, "    wire [%u:0] r%d_v%d_s = %s >> (%s * %u);\n", ARG_WIDTH(0) - 1, R, op->id,
                ARG(0), ARG(1), w);
    fprintf(o, "    wire [%u:0] r%d_v%d_c = ", w - 1, R, op->id);
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
    case HOP_EXTRACT: fprintf(o, "r%d_v%d_s[%u:0]", R, op->id, w - 1); break;
    case HOP_INSERT: { /* every element: the new value where the index points */
        unsigned ew = (unsigned)op->imm, n = w / ew;
        fprintf(o, "{");
        for (unsigned i = n; i-- > 0;)
            fprintf(o, "%s == %u ? %s : %s[%u +: %u]%s", ARG(2), i, ARG(1), ARG(0), i * ew, ew,
                    i ? ",\n        " : "");
        fprintf(o, "}");
        break;
    }
    case HOP_ZEXT: fprintf(o, "{%u'd0, %s}", w - ARG_WIDTH(0), ARG(0)); break;
    case HOP_SEXT: {
        unsigned aw = ARG_WIDTH(0);
        fprintf(o, "{{%u{%s[%u]}}, %s}", w - aw, ARG(0), aw - 1, ARG(0));
        break;
    }
    default: HLS_BUG("not an integer op: %s", hls_ir_opcode_name(op->opc));
    }
    fprintf(o, ";\n");
    fprintf(o, "    wire [%u:0] r%d_v%d;\n", w - 1, R, op->id);
    fprintf(o, "    clhls_delay #(.WIDTH(%u), .LATENCY(%d)) u%d (.clk(clk), .ce(r%d_en), "
               ".d(r%d_v%d_c), .q(r%d_v%d));\n", w, e->r->sched.latency[op->id], op->id, R, R,
            op->id, R, op->id);
}

static void emit_fp_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    FILE *o = e->out;
    int lat = e->r->sched.latency[op->id];
    unsigned fw = op->nargs ? ARG_WIDTH(0) : 32; /* the operands' format: 32 or 64 */
    fprintf(o, "    wire [%u:0] r%d_v%d;\n", op->width - 1, R, op->id);
    switch (op->opc) {
    case HOP_FADD: case HOP_FSUB:
        fprintf(o, "    clhls_fadd #(.LATENCY(%d), .W(%u)) u%d (.clk(clk), .ce(r%d_en), .a(%s), "
                   ".b(%s), .sub(1'b%d), .y(r%d_v%d));\n", lat, fw, op->id, R, ARG(0), ARG(1),
                op->opc == HOP_FSUB, R, op->id);
        break;
    case HOP_FMUL:
        fprintf(o, "    clhls_fmul #(.LATENCY(%d), .W(%u)) u%d (.clk(clk), .ce(r%d_en), .a(%s), "
                   ".b(%s), .y(r%d_v%d));\n", lat, fw, op->id, R, ARG(0), ARG(1), R, op->id);
        break;
    case HOP_FDIV:
        fprintf(o, "    clhls_fdiv #(.W(%u)) u%d (.clk(clk), .ce(r%d_en), .a(%s), .b(%s), "
                   ".y(r%d_v%d));\n", fw, op->id, R, ARG(0), ARG(1), R, op->id);
        break;
    case HOP_FSQRT:
        fprintf(o, "    clhls_fsqrt #(.W(%u)) u%d (.clk(clk), .ce(r%d_en), .a(%s), .y(r%d_v%d));\n",
                fw, op->id, R, ARG(0), R, op->id);
        break;
    case HOP_FMA:
        fprintf(o, "    clhls_fma #(.LATENCY(%d), .W(%u)) u%d (.clk(clk), .ce(r%d_en), .a(%s), "
                   ".b(%s), .c(%s), .y(r%d_v%d));\n", lat, fw, op->id, R, ARG(0), ARG(1), ARG(2),
                R, op->id);
        break;
    case HOP_FCMP:
        fprintf(o, "    clhls_fcmp #(.LATENCY(%d), .W(%u)) u%d (.clk(clk), .ce(r%d_en), .a(%s), "
                   ".b(%s), .pred(4'd%llu), .y(r%d_v%d));\n", lat, fw, op->id, R, ARG(0), ARG(1),
                (unsigned long long)op->imm, R, op->id);
        break;
    case HOP_SITOFP: case HOP_UITOFP:
        fprintf(o, "    clhls_itofp #(.IN_W(%u), .SIGNED(%d), .LATENCY(%d), .W(%u)) u%d "
                   "(.clk(clk), .ce(r%d_en), .a(%s), .y(r%d_v%d));\n", ARG_WIDTH(0),
                op->opc == HOP_SITOFP, lat, op->width, op->id, R, ARG(0), R, op->id);
        break;
    case HOP_FPTOSI: case HOP_FPTOUI:
        fprintf(o, "    clhls_fptoi #(.OUT_W(%u), .SIGNED(%d), .LATENCY(%d), .W(%u)) u%d "
                   "(.clk(clk), .ce(r%d_en), .a(%s), .y(r%d_v%d));\n", op->width,
                op->opc == HOP_FPTOSI, lat, fw, op->id, R, ARG(0), R, op->id);
        break;
    case HOP_FPEXT: case HOP_FPTRUNC:
        fprintf(o, "    clhls_%s #(.LATENCY(%d)) u%d (.clk(clk), .ce(r%d_en), .a(%s), "
                   ".y(r%d_v%d));\n", op->opc == HOP_FPEXT ? "ftod" : "dtof", lat, op->id, R,
                ARG(0), R, op->id);
        break;
    case HOP_UDIV: case HOP_SDIV: case HOP_UREM: case HOP_SREM: {
        int rem = op->opc == HOP_UREM || op->opc == HOP_SREM;
        fprintf(o, "    wire [%u:0] r%d_v%d_unused;\n", op->width - 1, R, op->id);
        fprintf(o, "    clhls_idiv #(.WIDTH(%u), .SIGNED(%d), .LATENCY(%d)) u%d (.clk(clk), "
                   ".ce(r%d_en), .a(%s), .b(%s), .q(r%d_v%d%s), .r(r%d_v%d%s));\n",
                op->width, op->opc == HOP_SDIV || op->opc == HOP_SREM, lat, op->id, R,
                ARG(0), ARG(1), R, op->id, rem ? "_unused" : "", R, op->id,
                rem ? "" : "_unused");
        break;
    }
    default: HLS_BUG("not an operator op: %s", hls_ir_opcode_name(op->opc));
    }
}

/* The request side of global load-store unit n: wires of its own, gathered into the
 * compute unit's per-unit buses by emit_request_buses. Stores and atomics also send
 * data and byte enables, atomics an operation code. */
static void emit_lsu_request_wires(emitter *e, const hls_op *op)
{
    int n = op->lsu;
    fprintf(e->out, "    wire lsu%d_m_valid, lsu%d_m_resp_ready;\n    wire [63:0] lsu%d_m_addr;\n", n,
            n, n);
    if (op->opc != HOP_LOAD)
        fprintf(e->out, "    wire [%u:0] lsu%d_m_wdata;\n    wire [%u:0] lsu%d_m_wstrb;\n",
                e->mem_w - 1, n, e->mem_w / 8 - 1, n);
    if (op->opc == HOP_ATOMIC)
        fprintf(e->out, "    wire [3:0] lsu%d_m_atomic;\n", n);
}

/* The memory-side connections shared by every global load-store unit kind. */
static void emit_lsu_memory_ports(emitter *e, int n)
{
    fprintf(e->out,
            "        .m_mem_req_valid(lsu%d_m_valid), .m_mem_req_ready(m_req_ready[%d]),\n"
            "        .m_mem_req_addr(lsu%d_m_addr),\n"
            "        .s_mem_resp_valid(s_resp_valid[%d]), .s_mem_resp_ready(lsu%d_m_resp_ready),\n",
            n, n, n, n, n);
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
    FILE *o = e->out;
    unsigned ab = rom_address_bits(e->c->program->roms[op->rom].size);
    fprintf(o, "    reg [%u:0] r%d_v%d;\n    always @(posedge clk) if (r%d_en) r%d_v%d <= {",
            op->width - 1, R, op->id, R, R, op->id);
    for (int b = (int)op->width / 8 - 1; b >= 0; b--)
        fprintf(o, "rom%d[%s[%u:0] + %u'd%d]%s", op->rom, ARG(0), ab - 1, ab, b, b ? ", " : "");
    fprintf(o, "};\n");
}

/* Name of the unit serving a memory op: "lsu3" (global), "lm0p2" (port 2 of local
 * memory 0). Its handshake with the memory node: <unit>_req_valid and _req_ready for
 * the request, _resp_valid and _resp_ready for the answer (a load's or atomic's data
 * in <unit>_rdata). */
static const char *unit_name(const hls_op *op, char buf[24])
{
    if (op->lmem >= 0)
        snprintf(buf, 24, "lm%dp%d", op->lmem, op->lport);
    else
        snprintf(buf, 24, "lsu%d", op->lsu);
    return buf;
}

/* A local-memory access on its port: the request carries the word address ({slot,
 * offset}), a store's or atomic's value (and a cmpxchg's compare value) repeated
 * across the word with the byte enables of its bytes; a load or atomic picks its bytes
 * out of the answered word with its address (carried in the node's token). Every local
 * access gets a response: data, or a store's acknowledgement. */
static void emit_local_op(emitter *e, const hls_op *op)
{
    char args[4][40], u[24], at_answer[40];
    FILE *o = e->out;
    const hls_local *m = &e->k->locals[op->lmem];
    int port = op->lport;
    unsigned aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits, wb = ww / 8;
    unsigned ob = 0; /* bits of the byte offset inside a word */
    while ((1u << ob) < wb)
        ob++;
    unit_name(op, u);
    int atomic = op->opc == HOP_ATOMIC;
    fprintf(o, "    assign lm%d_req_valid[%d] = %s_req_valid;\n"
               "    assign %s_req_ready = lm%d_req_ready[%d];\n"
               "    assign lm%d_req_write[%d] = 1'b%d;\n"
               "    assign lm%d_req_addr[%u +: %u] = %s[%u:0];\n",
            op->lmem, port, u, u, op->lmem, port, op->lmem, port, op->opc == HOP_STORE,
            op->lmem, aw * (unsigned)port, aw, ARG(0), aw - 1);
    if (m->atomics) { /* the operation, its lane width and a cmpxchg's compare value */
        fprintf(o, "    assign lm%d_req_atomic[%d +: 4] = 4'd%d;\n"
                   "    assign lm%d_req_wide[%d] = 1'b%d;\n",
                op->lmem, 4 * port, atomic ? (int)op->imm : 0, op->lmem, port, op->width == 64);
        if (atomic && op->imm == HLS_ATOMIC_CMPXCHG)
            fprintf(o, "    assign lm%d_req_cmp[%u +: %u] = {%u{%s}};\n", op->lmem,
                    ww * (unsigned)port, ww, ww / op->width, ARG(2));
        else
            fprintf(o, "    assign lm%d_req_cmp[%u +: %u] = %u'd0;\n", op->lmem,
                    ww * (unsigned)port, ww, ww);
    }
    if (op->opc == HOP_STORE || atomic) {
        unsigned w = op->width;
        fprintf(o, "    assign lm%d_req_wdata[%u +: %u] = {%u{%s}};\n", op->lmem, ww * (unsigned)port,
                ww, ww / w, ARG(1));
        if (w == ww)
            fprintf(o, "    assign lm%d_req_wstrb[%u +: %u] = {%u{1'b1}};\n", op->lmem,
                    wb * (unsigned)port, wb, wb);
        else
            fprintf(o, "    assign lm%d_req_wstrb[%u +: %u] = {%u'd0, %u'h%llx} << %s[%u:0];\n",
                    op->lmem, wb * (unsigned)port, wb, wb - w / 8, w / 8,
                    (1ull << (w / 8)) - 1, ARG(0), ob - 1);
    } else {
        fprintf(o, "    assign lm%d_req_wdata[%u +: %u] = %u'd0;\n"
                   "    assign lm%d_req_wstrb[%u +: %u] = %u'd0;\n",
                op->lmem, ww * (unsigned)port, ww, ww, op->lmem, wb * (unsigned)port, wb, wb);
    }
    fprintf(o, "    assign %s_resp_valid = lm%d_resp_valid[%d];\n"
               "    assign lm%d_resp_ready[%d] = %s_resp_ready;\n",
            u, op->lmem, port, op->lmem, port, u);
    if (op->opc == HOP_LOAD || atomic) {
        if (op->width == ww) {
            fprintf(o, "    assign %s_rdata = lm%d_resp_rdata[%u +: %u];\n", u, op->lmem,
                    ww * (unsigned)port, ww);
        } else {
            waiting(e, op->args[0], at_answer);
            fprintf(o, "    wire [%u:0] %s_word = lm%d_resp_rdata[%u +: %u] >> {%s[%u:0], 3'd0};\n"
                       "    assign %s_rdata = %s_word[%u:0];\n",
                    ww - 1, u, op->lmem, ww * (unsigned)port, ww, at_answer, ob - 1, u, u,
                    op->width - 1);
        }
    }
}

/* The __constant tables the kernel reads: byte arrays with their initial values. */
static void emit_roms(emitter *e)
{
    const hls_program *p = e->c->program;
    for (int r = 0; r < p->nroms; r++) {
        int used = 0;
        for (int i = 0; i < e->k->nops; i++)
            used |= e->k->ops[i].opc == HOP_LOAD && e->k->ops[i].rom == r;
        if (!used)
            continue;
        const hls_rom *rom = &p->roms[r];
        unsigned long long entries = 1ull << rom_address_bits(rom->size);
        fprintf(e->out, "    // __constant %s: %llu bytes\n    reg [7:0] rom%d [0:%llu];\n"
                        "    integer rom%d_i;\n    initial begin\n"
                        "        for (rom%d_i = 0; rom%d_i < %llu; rom%d_i = rom%d_i + 1)\n"
                        "            rom%d[rom%d_i] = 8'h00;\n",
                rom->name, (unsigned long long)rom->size, r, entries - 1, r, r, r, entries, r, r,
                r, r);
        for (uint64_t b = 0; b < rom->size; b++)
            if (rom->bytes[b])
                fprintf(e->out, "        rom%d[%llu] = 8'h%02x;\n", r, (unsigned long long)b,
                        rom->bytes[b]);
        fprintf(e->out, "    end\n");
    }
}

/* Constants, arguments and NDRange registers: wires of the whole module. */
static void emit_invariant(emitter *e, const hls_op *op)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    switch (op->opc) {
    case HOP_CONST:
        if (op->wide) { /* the initial value of a private array */
            fprintf(o, "    wire [%u:0] v%d = %u'h", op->width - 1, op->id, op->width);
            for (int b = (int)op->width / 8 - 1; b >= 0; b--)
                fprintf(o, "%02x", op->wide[b]);
            fprintf(o, ";\n");
            return;
        }
        fprintf(o, "    wire [%u:0] v%d = %u'h%llx;\n", op->width - 1, op->id, op->width,
                (unsigned long long)op->imm);
        return;
    case HOP_ARG:
        fprintf(o, "    wire [%u:0] v%d = args[%llu +: %u];  // argument %s%s\n", op->width - 1,
                op->id, 8 * (k->args[op->arg].offset + (unsigned long long)op->imm), op->width,
                k->args[op->arg].name, op->imm ? " (a field)" : "");
        return;
    case HOP_ROM: /* addresses inside a table start at 0 */
        fprintf(o, "    wire [63:0] v%d = 64'd0;  // __constant %s\n", op->id,
                e->c->program->roms[op->imm].name);
        return;
    case HOP_LOCAL: /* and inside a local memory */
        fprintf(o, "    wire [63:0] v%d = 64'd0;  // __local %s\n", op->id, k->locals[op->imm].name);
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
    default:
        HLS_BUG("not invariant: %s", hls_ir_opcode_name(op->opc));
    }
}

static void emit_op(emitter *e, const hls_op *op)
{
    FILE *o = e->out;
    if (op->loc.line)
        fprintf(o, "    // %%%d %s, line %u\n", op->id, hls_ir_opcode_name(op->opc), op->loc.line);
    switch (op->opc) {
    case HOP_TOKEN: {
        /* read from the work-item generator as the work-item enters (stage 0) */
        char name[32];
        token_wire(name, sizeof name, (int)op->imm, op->dim);
        fprintf(o, "    reg [%u:0] r%d_v%d;\n    always @(posedge clk) if (r%d_en) r%d_v%d <= ",
                op->width - 1, R, op->id, R, R, op->id);
        fit(e, name, token_width((int)op->imm), op->width);
        fprintf(o, ";\n");
        return;
    }
    case HOP_FADD: case HOP_FSUB: case HOP_FMUL: case HOP_FCMP: case HOP_SITOFP:
    case HOP_UITOFP: case HOP_FPTOSI: case HOP_FPTOUI: case HOP_UDIV: case HOP_SDIV:
    case HOP_UREM: case HOP_SREM: case HOP_FDIV: case HOP_FSQRT: case HOP_FMA:
    case HOP_FPEXT: case HOP_FPTRUNC:
        emit_fp_op(e, op);
        return;
    case HOP_LOAD: case HOP_STORE: case HOP_ATOMIC:
        if (op->rom < 0) /* memnodes.c moved every other access into a memory node */
            HLS_BUG("memory access %%%d in static region %d", op->id, R);
        emit_rom_load(e, op);
        return;
    default:
        emit_int_op(e, op);
        return;
    }
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
            stage = s->last_use[id]; /* the exit, or a predicate read at a data stage */
        } else {
            const hls_op *op = &e->k->ops[r->ops[i]];
            for (int a = 0; a < op->nargs; a++)
                if (op->args[a] == id)
                    stage = s->start[op->id];
            if (op->has_pred && op->args[op->nargs - 1] == id &&
                hls_ir_waits_for_memory(op)) {
                int data = s->start[op->id] + s->latency[op->id] - home;
                if (data > 0)
                    out[n++] = data;
            }
        }
        if (stage - home > 0)
            out[n++] = stage - home;
    }
    /* sort and drop duplicates */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || out[m - 1] != out[i])
            out[m++] = out[i];
    return m;
}

/* Carries a value of the region from its home stage to each stage that reads it:
 * one delay line per stretch between readers, named after the delay it reaches. */
static void emit_carry_registers(emitter *e, int id)
{
    FILE *o = e->out;
    const hls_op *op = &e->k->ops[id];
    if (hls_ir_is_invariant(op) || op->opc == HOP_STORE || e->r->sched.last_use[id] < 0)
        return;
    int taps[e->r->nops + 2];
    int n = read_delays(e, id, taps);
    for (int t = 0; t < n; t++) {
        int from = t ? taps[t - 1] : 0;
        fprintf(o, "    wire [%u:0] r%d_v%d_d%d;\n", op->width - 1, R, id, taps[t]);
        fprintf(o, "    clhls_delay #(.WIDTH(%u), .LATENCY(%d)) r%d_c%d_%d (.clk(clk), .ce(r%d_en), "
                   ".d(r%d_v%d", op->width, taps[t] - from, R, id, taps[t], R, R, id);
        if (from)
            fprintf(o, "_d%d", from);
        fprintf(o, "), .q(r%d_v%d_d%d));\n", R, id, taps[t]);
    }
}

/* Bits of the token of a value list. */
static unsigned token_bits(const hls_kernel *k, const int *ids, int n)
{
    unsigned bits = 0;
    for (int i = 0; i < n; i++)
        bits += k->ops[ids[i]].width;
    return bits ? bits : 1;
}

/* Declares wires PREFIX_v<id> for a list of values. */
static void declare_token(emitter *e, const char *prefix, const int *ids, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(e->out, "    wire [%u:0] %s_v%d;\n", e->k->ops[ids[i]].width - 1, prefix, ids[i]);
}

/* Writes the concatenation {PREFIX_v<a>, PREFIX_v<b>, ...} (or 1'b0 when empty);
 * `name` gives each value's expression. */
static void pack(emitter *e, const int *ids, int n, const char *(*name)(emitter *, int, char *))
{
    char buf[64];
    if (!n) {
        fprintf(e->out, "1'b0");
        return;
    }
    fprintf(e->out, "{");
    for (int i = 0; i < n; i++)
        fprintf(e->out, "%s%s", i ? ", " : "", name(e, ids[i], buf));
    fprintf(e->out, "}");
}

/* Assigns the fields of a packed token `data` to PREFIX_v<id> wires. */
static void unpack(emitter *e, const char *prefix, const char *data, const int *ids, int n)
{
    unsigned hi = token_bits(e->k, ids, n);
    for (int i = 0; i < n; i++) {
        unsigned w = e->k->ops[ids[i]].width;
        fprintf(e->out, "    assign %s_v%d = %s[%u:%u];\n", prefix, ids[i], data, hi - 1, hi - w);
        hi -= w;
    }
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
    char prefix[32], data[40];
    snprintf(prefix, sizeof prefix, "r%d_side", R);
    snprintf(data, sizeof data, "r%d_side_data", R);
    declare_token(e, prefix, side, n);
    unsigned bits = token_bits(e->k, side, n);
    fprintf(e->out, "    wire [%u:0] r%d_side_data;\n"
                    "    clhls_fifo #(.WIDTH(%u), .DEPTH(%d)) r%d_side (\n"
                    "        .clk(clk), .rst(rst),\n"
                    "        .s_valid(r%d_in_valid & r%d_in_ready), .s_ready(), .s_data(",
            bits - 1, R, bits, r->sched.depth + 2, R, R, R);
    fprintf(e->out, "{");
    for (int i = 0; i < n; i++)
        fprintf(e->out, "%sr%d_in_v%d", i ? ", " : "", R, side[i]);
    fprintf(e->out, "}),\n        .m_valid(), .m_ready(r%d_valid_s[%d] & r%d_en), .m_data(%s),\n"
                    "        .count());\n", R, r->sched.depth, R, data);
    unpack(e, prefix, data, side, n);
}

/* A static region (fixed latencies only: memory accesses are in memory nodes). Stall
 * enable: every stage advances together while r<N>_en, which drops when the 2-entry
 * exit FIFO is full. Stall-free cluster (schedule.c decides): the stages always
 * advance; a counter of the work-items inside (stages and exit FIFO) admits a new one
 * only while the exit FIFO will have room for it. */
static void emit_static(emitter *e, const hls_region *r)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    e->r = r;
    int d = r->sched.depth;
    fprintf(o, "    // ---- region %d: static, %d stages%s ----\n", R, d + 1,
            r->stall_free ? ", stall-free" : "");
    fprintf(o, "    wire r%d_en, r%d_fifo_ready;\n"
               "    reg [%d:0] r%d_valid_s;  // stage s holds a work-item\n"
               "    always @(posedge clk)\n"
               "        if (rst) r%d_valid_s <= 0;\n"
               "        else if (r%d_en) r%d_valid_s <= ",
            R, R, d, R, R, R, R);
    if (d)
        fprintf(o, "{r%d_valid_s[%d:0], r%d_in_valid & r%d_in_ready};\n", R, d - 1, R, R);
    else
        fprintf(o, "r%d_in_valid & r%d_in_ready;\n", R, R);
    for (int i = 0; i < r->nlive_in; i++) {
        int id = r->live_in[i];
        if (d && passes_through(e, id))
            continue;
        fprintf(o, "    reg [%u:0] r%d_v%d;\n    always @(posedge clk) if (r%d_en) r%d_v%d <= r%d_in_v%d;\n",
                k->ops[id].width - 1, R, id, R, R, id, R, id);
    }
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
        fprintf(o, "    assign r%d_en = 1'b1;\n"
                   "    reg [%u:0] r%d_inside;  // work-items in the stages and the exit FIFO\n"
                   "    assign r%d_in_ready = r%d_inside < %u'd%d;\n"
                   "    always @(posedge clk)\n"
                   "        if (rst) r%d_inside <= 0;\n"
                   "        else r%d_inside <= r%d_inside + {%u'd0, r%d_in_valid & r%d_in_ready}\n"
                   "                         - {%u'd0, r%d_out_valid & r%d_out_ready};\n",
                R, cw - 1, R, R, R, cw, r->exit_depth, R, R, R, cw - 1, R, R, cw - 1, R, R);
    } else {
        fprintf(o, "    assign r%d_in_ready = r%d_en;\n"
                   "    assign r%d_en = ~(r%d_valid_s[%d] & ~r%d_fifo_ready);\n",
                R, R, R, R, d, R);
    }
    unsigned bits = token_bits(k, r->live_out, r->nlive_out);
    fprintf(o, "    wire [%u:0] r%d_out_data;\n"
               "    clhls_fifo #(.WIDTH(%u), .DEPTH(%d)) r%d_exit (\n"
               "        .clk(clk), .rst(rst),\n"
               "        .s_valid(r%d_valid_s[%d] & r%d_en), .s_ready(r%d_fifo_ready), .s_data(",
            bits - 1, R, bits, r->exit_depth, R, R, d, R, R);
    pack(e, r->live_out, r->nlive_out, value_at_end);
    fprintf(o, "),\n        .m_valid(r%d_out_valid), .m_ready(r%d_out_ready), .m_data(r%d_out_data),\n"
               "        .count());\n", R, R, R);
    char prefix[32], data[40];
    snprintf(prefix, sizeof prefix, "r%d_out", R);
    snprintf(data, sizeof data, "r%d_out_data", R);
    unpack(e, prefix, data, r->live_out, r->nlive_out);
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

/* A global access: its load-store unit, which takes the request from the memory node
 * and gives back the answer (load, atomic, acknowledged store). */
static void emit_global_op(emitter *e, const hls_op *op)
{
    char args[4][40];
    FILE *o = e->out;
    int n = op->lsu;
    /* Only the board's address bits reach the unit: the rest of the address
     * arithmetic and of the unit's address registers is left unused. */
    unsigned abits = e->c->program->board->mem_addr_bits;
    char address[48];
    if (abits < 64) {
        fprintf(o, "    wire [63:0] lsu%d_address = %s & 64'h%llx;\n", n, ARG(0),
                (1ull << abits) - 1);
        snprintf(address, sizeof address, "lsu%d_address", n);
    } else {
        snprintf(address, sizeof address, "%s", ARG(0));
    }
    emit_lsu_request_wires(e, op);
    fprintf(o, "    wire lsu%d_idle, lsu%d_count;\n", n, n);
    int plain_store = op->opc == HOP_STORE && !op->acked;
    const char *kind = op->opc == HOP_ATOMIC ? "atomic" : op->opc == HOP_LOAD ? "load"
                       : plain_store ? "store" : "store_ack";
    fprintf(o, "    clhls_lsu_%s #(.DATA_W(%u), .MEM_W(%u), ", kind, op->width, e->mem_w);
    if (plain_store) /* a store nobody waits for is flushed when the unit drains */
        fprintf(o, ".IDLE_FLUSH(4), ");
    else
        fprintf(o, ".DEPTH(%d), ", e->k->lsu_depth);
    fprintf(o, ".UNIT(%d)) lsu%d (\n"
               "        .clk(clk), .rst(rst),\n"
               "        .s_req_valid(lsu%d_req_valid), .s_req_ready(lsu%d_req_ready),\n"
               "        .s_req_addr(%s),", n, n, n, n, address);
    if (op->opc == HOP_ATOMIC)
        fprintf(o, " .s_req_op(4'd%d), .s_req_operand(%s), .s_req_compare(%s),", (int)op->imm,
                ARG(1), op->imm == HLS_ATOMIC_CMPXCHG ? ARG(2) : "0");
    else if (op->opc == HOP_STORE)
        fprintf(o, " .s_req_data(%s),", ARG(1));
    if (plain_store)
        fprintf(o, " .flush(drained),");
    fprintf(o, "\n");
    if (hls_ir_waits_for_memory(op)) {
        fprintf(o, "        .m_resp_valid(lsu%d_resp_valid), .m_resp_ready(lsu%d_resp_ready),\n",
                n, n);
        if (op->opc != HOP_STORE)
            fprintf(o, "        .m_resp_data(lsu%d_rdata),\n", n);
    }
    emit_lsu_memory_ports(e, n);
    if (op->opc == HOP_ATOMIC)
        fprintf(o, "        .m_mem_req_atomic(lsu%d_m_atomic),\n", n);
    if (op->opc != HOP_LOAD)
        fprintf(o, "        .m_mem_req_wdata(lsu%d_m_wdata), .m_mem_req_wstrb(lsu%d_m_wstrb),\n",
                n, n);
    if (op->opc != HOP_STORE)
        fprintf(o, "        .s_mem_resp_rdata(s_resp_rdata),\n");
    fprintf(o, "        .idle(lsu%d_idle), .count_%s(lsu%d_count));\n", n,
            op->opc == HOP_ATOMIC ? "atomic" : op->opc == HOP_LOAD ? "read" : "write", n);
}

/* Sorts a list of op ids and drops repeats; returns the new length. */
static int sort_unique(int *ids, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
            int t = ids[j];
            ids[j] = ids[j - 1];
            ids[j - 1] = t;
        }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || ids[m - 1] != ids[i])
            ids[m++] = ids[i];
    return m;
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
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    e->r = r;
    int carried[r->nlive_out + 2 * r->nops + 1];
    int n = node_carried(k, r, carried);
    char u[24], p[40];
    fprintf(o, "    // ---- region %d: memory node, %d access%s ----\n", R, r->nops,
            r->nops == 1 ? "" : "es");
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        unit_name(op, u);
        if (op->loc.line)
            fprintf(o, "    // %%%d %s, line %u\n", op->id, hls_ir_opcode_name(op->opc),
                    op->loc.line);
        fprintf(o, "    wire %s_req_valid, %s_req_ready;\n", u, u);
        if (hls_ir_waits_for_memory(op) || op->lmem >= 0) /* local stores are acknowledged */
            fprintf(o, "    wire %s_resp_valid, %s_resp_ready;\n", u, u);
        if (op->opc != HOP_STORE)
            fprintf(o, "    wire [%u:0] %s_rdata;\n", op->width - 1, u);
        if (op->lmem >= 0)
            emit_local_op(e, op);
        else
            emit_global_op(e, op);
    }
    /* the requests */
    fprintf(o, "    wire r%d_tokens_ready;  // the token FIFO has room\n"
               "    assign r%d_in_ready = r%d_tokens_ready", R, R, R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        unit_name(op, u);
        if (op->has_pred)
            fprintf(o, "\n        & (~%s | %s_req_ready)", pred_in(e, op, p), u);
        else
            fprintf(o, "\n        & %s_req_ready", u);
    }
    fprintf(o, ";\n    wire r%d_issue = r%d_in_valid & r%d_in_ready;  // the requests go out\n",
            R, R, R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        fprintf(o, "    assign %s_req_valid = r%d_issue", unit_name(op, u), R);
        if (op->has_pred)
            fprintf(o, " & %s", pred_in(e, op, p));
        fprintf(o, ";\n");
    }
    /* the waiting tokens */
    unsigned bits = token_bits(k, carried, n);
    fprintf(o, "    wire r%d_w_valid, r%d_leave;\n    wire [%u:0] r%d_w_data;\n"
               "    clhls_fifo #(.WIDTH(%u), .DEPTH(%d)) r%d_wait (\n"
               "        .clk(clk), .rst(rst),\n"
               "        .s_valid(r%d_issue), .s_ready(r%d_tokens_ready), .s_data(",
            R, R, bits - 1, R, bits, r->exit_depth, R, R, R);
    pack(e, carried, n, node_in_value);
    fprintf(o, "),\n        .m_valid(r%d_w_valid), .m_ready(r%d_leave), .m_data(r%d_w_data),\n"
               "        .count(r%d_tokens));\n", R, R, R, R);
    char prefix[32], data[40];
    snprintf(prefix, sizeof prefix, "r%d_w", R);
    snprintf(data, sizeof data, "r%d_w_data", R);
    declare_token(e, prefix, carried, n);
    unpack(e, prefix, data, carried, n);
    /* the answers */
    fprintf(o, "    assign r%d_out_valid = r%d_w_valid", R, R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        if (!hls_ir_waits_for_memory(op))
            continue;
        unit_name(op, u);
        if (op->has_pred)
            fprintf(o, "\n        & (~%s | %s_resp_valid)",
                    waiting(e, op->args[op->nargs - 1], p), u);
        else
            fprintf(o, "\n        & %s_resp_valid", u);
    }
    fprintf(o, ";\n    assign r%d_leave = r%d_out_valid & r%d_out_ready;\n", R, R, R);
    for (int i = 0; i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        unit_name(op, u);
        if (hls_ir_waits_for_memory(op)) {
            fprintf(o, "    assign %s_resp_ready = r%d_leave", u, R);
            if (op->has_pred)
                fprintf(o, " & %s", waiting(e, op->args[op->nargs - 1], p));
            fprintf(o, ";\n");
        } else if (op->lmem >= 0) {
            fprintf(o, "    assign %s_resp_ready = 1'b1;  // an acknowledgement nobody waits for\n",
                    u);
        }
    }
    for (int i = 0; i < r->nlive_out; i++) {
        int id = r->live_out[i];
        if (k->ops[id].region == r->id)
            fprintf(o, "    assign r%d_out_v%d = %s_rdata;\n", R, id, unit_name(&k->ops[id], u));
        else
            fprintf(o, "    assign r%d_out_v%d = r%d_w_v%d;\n", R, id, R, id);
    }
    fprintf(o, "    // waiting for memory: the oldest token's answers, or a unit's room\n"
               "    assign r%d_stall_mem = (r%d_w_valid & ~r%d_out_valid)\n"
               "        | (r%d_in_valid & r%d_tokens_ready & ~r%d_in_ready);\n",
            R, R, R, R, R, R);
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

/* The compute unit's per-unit request buses, each global load-store unit's wires in
 * its slice (a compute unit without units drives the idle values). One combinational
 * block fills every bus: a simulator then copies each slice in place, where slice
 * assignments to a wide bus become a concatenation rebuilt every cycle. */
static void emit_request_buses(emitter *e)
{
    FILE *o = e->out;
    unsigned mw = e->mem_w;
    fprintf(o, "    // The request buses, one slice per load-store unit.\n"
               "    always @(*) begin\n"
               "        m_req_valid = 0;\n        m_req_write = 0;\n        m_req_atomic = 0;\n"
               "        m_req_addr = 0;\n        m_req_wdata = 0;\n        m_req_wstrb = 0;\n"
               "        s_resp_ready = ~0;\n");
    for (int i = 0; i < e->k->nops; i++) {
        const hls_op *op = &e->k->ops[i];
        int n = op->lsu;
        if (n < 0)
            continue;
        fprintf(o, "        m_req_valid[%d] = lsu%d_m_valid;\n"
                   "        m_req_addr[%d +: 64] = lsu%d_m_addr;\n"
                   "        s_resp_ready[%d] = lsu%d_m_resp_ready;\n",
                n, n, 64 * n, n, n, n);
        if (op->opc == HOP_LOAD)
            continue;
        fprintf(o, "        m_req_wdata[%u +: %u] = lsu%d_m_wdata;\n"
                   "        m_req_wstrb[%u +: %u] = lsu%d_m_wstrb;\n",
                mw * (unsigned)n, mw, n, mw / 8 * (unsigned)n, mw / 8, n);
        if (op->opc == HOP_ATOMIC)
            fprintf(o, "        m_req_atomic[%d +: 4] = lsu%d_m_atomic;\n", 4 * n, n);
        else
            fprintf(o, "        m_req_write[%d] = 1'b1;\n", n);
    }
    fprintf(o, "    end\n");
}

static void emit_region(emitter *e, int id);


/* A loop: merge (back edge first, entries while credits last), body, split. */
static void emit_loop(emitter *e, const hls_region *r)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    int n = r->id;
    const hls_region *first = &k->regions[r->children[0]];
    const hls_region *last = &k->regions[r->children[r->nchildren - 1]];
    const hls_loop *l = &k->loops[r->loop];
    unsigned cw = count_bits(r->credits);
    fprintf(o, "    // ---- region %d: loop at %s:%u, latency %d, %d credits ----\n", n,
            l->loc.file ? l->loc.file : "?", l->loc.line, r->latency, r->credits);
    fprintf(o, "    wire r%d_back_valid, r%d_exit_ready, r%d_back_ready;\n"
               "    wire r%d_entry_ok = r%d_count < %u'd%d && !r%d_back_valid;\n"
               "    assign r%d_in_ready = r%d_entry_ok & r%d_in_ready;\n"
               "    assign r%d_in_valid = r%d_back_valid | (r%d_in_valid & r%d_entry_ok);\n",
            n, n, n, n, n, cw, r->credits, n, n, n, first->id, first->id, n, n, n);
    char a[48], b[48];
    for (int i = 0; i < first->nlive_in; i++) {
        int id = first->live_in[i];
        int p = phi_index(r, id);
        fprintf(o, "    assign r%d_in_v%d = r%d_back_valid ? r%d_back_v%d : %s;\n", first->id, id,
                n, n, id,
                port_value(k, a, n, "in", p >= 0 ? k->ops[id].in_vals[0] : id));
    }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "r%d_back", n);
    declare_token(e, prefix, first->live_in, first->nlive_in);
    unsigned bits = token_bits(k, first->live_in, first->nlive_in);
    const char *cont = port_value(k, b, last->id, "out", r->cont);
    fprintf(o, "    wire r%d_cont = %s;\n"
               "    assign r%d_out_ready = r%d_cont ? r%d_back_ready : r%d_exit_ready;\n"
               "    wire [%u:0] r%d_back_data;\n"
               "    clhls_fifo #(.WIDTH(%u), .DEPTH(%d)) r%d_back (\n"
               "        .clk(clk), .rst(rst),\n"
               "        .s_valid(r%d_out_valid & r%d_cont), .s_ready(r%d_back_ready), .s_data(",
            n, cont, last->id, n, n, n, bits - 1, n, bits, r->back_depth, n, last->id, n, n);
    e->loop = r;
    pack(e, first->live_in, first->nlive_in, back_value);
    fprintf(o, "),\n        .m_valid(r%d_back_valid), .m_ready(r%d_in_ready), .m_data(r%d_back_data),\n"
               "        .count());\n", n, first->id, n);
    char data[40];
    snprintf(data, sizeof data, "r%d_back_data", n);
    unpack(e, prefix, data, first->live_in, first->nlive_in);
    bits = token_bits(k, r->live_out, r->nlive_out);
    fprintf(o, "    assign r%d_exit_push = r%d_out_valid & ~r%d_cont & r%d_exit_ready;\n"
               "    wire [%u:0] r%d_exit_data;\n"
               "    clhls_fifo #(.WIDTH(%u), .DEPTH(2)) r%d_exit (\n"
               "        .clk(clk), .rst(rst),\n"
               "        .s_valid(r%d_out_valid & ~r%d_cont), .s_ready(r%d_exit_ready), .s_data(",
            n, last->id, n, n, bits - 1, n, bits, n, last->id, n, n);
    pack(e, r->live_out, r->nlive_out, last_out_value);
    fprintf(o, "),\n        .m_valid(r%d_out_valid), .m_ready(r%d_out_ready), .m_data(r%d_exit_data),\n"
               "        .count());\n", n, n, n);
    snprintf(prefix, sizeof prefix, "r%d_out", n);
    snprintf(data, sizeof data, "r%d_exit_data", n);
    unpack(e, prefix, data, r->live_out, r->nlive_out);
    fprintf(o, "    always @(posedge clk)\n"
               "        if (rst) r%d_count <= 0;\n"
               "        else r%d_count <= r%d_count + {%u'd0, r%d_in_valid & r%d_in_ready & ~r%d_back_valid}"
               " - {%u'd0, r%d_exit_push};\n",
            n, n, n, cw - 1, n, n, n, cw - 1, n);
    for (int c = 0; c < r->nchildren; c++)
        emit_region(e, r->children[c]);
}

/* Value-name callback for pack(): a barrier's input token. */
static const char *barrier_in_value(emitter *e, int id, char *buf)
{
    sprintf(buf, "r%d_in_v%d", e->r->id, id);
    return buf;
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
    FILE *o = e->out;
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
    fprintf(o, "    // ---- region %d: barrier, line %u ----\n"
               "    wire [%u:0] r%d_out_data;\n",
            R, b->loc.line, bits - 1, R);
    if (coll)
        fprintf(o, "    wire [%u:0] r%d_result;\n", vw - 1, R);
    fprintf(o, "    clhls_barrier #(.W(%u), .SLOTS(%d), .SLOT_W(%d), .LID_W(%u)", bits, HLS_WG_SLOTS,
            HLS_SLOT_BITS, lw);
    if (coll) /* the work-group function the unit computes */
        fprintf(o, ", .OP(%d), .FUNC(%d), .TYPE(%d), .VW(%u)", HLS_COLL_KIND(coll->imm),
                HLS_COLL_FUNC(coll->imm), HLS_COLL_TYPE(coll->imm), vw);
    fprintf(o, ") r%d_unit (\n"
               "        .clk(clk), .rst(rst),\n"
               "        .s_valid(r%d_in_valid), .s_ready(r%d_in_ready), .s_slot(r%d_in_v%d),\n"
               "        .s_lid(r%d_in_v%d[%u:0]), .s_size(r%d_in_v%d[%u:0]),\n",
            R, R, R, R, b->args[0], R, b->args[1], lw - 1, R, b->args[2], lw);
    if (coll)
        fprintf(o, "        .s_value(%s), .s_chosen(%s), .m_result(r%d_result),\n", value, chosen,
                R);
    else /* a plain barrier: no function */
        fprintf(o, "        .s_value(1'b0), .s_chosen(%s), .m_result(),\n", chosen);
    fprintf(o, "        .s_data(");
    pack(e, carried, n, barrier_in_value);
    fprintf(o, "),\n        .m_valid(r%d_out_valid), .m_ready(r%d_out_ready), .m_data(r%d_out_data),\n"
               "        .held(r%d_held), .waiting(r%d_waiting));\n", R, R, R, R, R);
    char prefix[32], data[40];
    snprintf(prefix, sizeof prefix, "r%d_out", R);
    snprintf(data, sizeof data, "r%d_out_data", R);
    unpack(e, prefix, data, carried, n);
    if (coll && n < r->nlive_out)
        fprintf(o, "    assign r%d_out_v%d = r%d_result;\n", R, coll->id, R);
}

/* Joins the children of a sequence: each one's output feeds the next one's input. */
static void connect_children(emitter *e, const hls_region *r)
{
    for (int c = 1; c < r->nchildren; c++) {
        const hls_region *from = &e->k->regions[r->children[c - 1]];
        const hls_region *to = &e->k->regions[r->children[c]];
        fprintf(e->out, "    assign r%d_in_valid = r%d_out_valid;\n"
                        "    assign r%d_out_ready = r%d_in_ready;\n", to->id, from->id, from->id,
                to->id);
        for (int i = 0; i < to->nlive_in; i++)
            fprintf(e->out, "    assign r%d_in_v%d = r%d_out_v%d;\n", to->id, to->live_in[i],
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

/* Handshake and token wires of every region, declared before any is used. */
static void declare_regions(emitter *e)
{
    char prefix[32];
    for (int i = 1; i < e->k->nregions; i++) {
        const hls_region *r = &e->k->regions[i];
        fprintf(e->out, "    wire r%d_in_valid, r%d_in_ready, r%d_out_valid, r%d_out_ready;\n",
                i, i, i, i);
        if (r->kind == HLS_REGION_LOOP)
            fprintf(e->out, "    reg [%u:0] r%d_count;  // work-items inside the loop\n"
                            "    wire r%d_exit_push;    // a work-item leaves the loop\n",
                    count_bits(r->credits) - 1, i, i);
        if (r->kind == HLS_REGION_BARRIER)
            fprintf(e->out, "    wire [%u:0] r%d_held;  // work-items waiting in the barrier\n"
                            "    wire r%d_waiting;      // a group is incomplete\n",
                    lid_bits(e->k) + HLS_SLOT_BITS, i, i);
        if (r->kind == HLS_REGION_MEMORY)
            fprintf(e->out, "    wire [%u:0] r%d_tokens;  // work-items waiting for memory\n"
                            "    wire r%d_stall_mem;     // it waits for memory\n",
                    count_bits(r->exit_depth) - 1, i, i);
        snprintf(prefix, sizeof prefix, "r%d_in", i);
        declare_token(e, prefix, r->live_in, r->nlive_in);
        snprintf(prefix, sizeof prefix, "r%d_out", i);
        declare_token(e, prefix, r->live_out, r->nlive_out);
    }
}

/* "r1_x | r2_x ..." over regions of a kind, or `none`. */
static void emit_region_reduce(emitter *e, hls_region_kind kind, const char *fmt,
                               const char *join, const char *none)
{
    int any = 0;
    for (int i = 1; i < e->k->nregions; i++) {
        if (e->k->regions[i].kind != kind)
            continue;
        fprintf(e->out, "%s", any++ ? join : "");
        fprintf(e->out, fmt, i, i);  /* fmt names the region once or twice */
    }
    if (!any)
        fprintf(e->out, "%s", none);
}
/* Bits of a local memory's conflict count (0..ports). */
static int conflict_width(const hls_local *m)
{
    int bits = 1;
    while ((1 << bits) < m->nports + 1)
        bits++;
    return bits;
}

/* Declares the port vectors of each local memory (the accesses drive their slices)
 * and instantiates it; a memory with atomic accesses gets their ports too. */
static void emit_local_memories(emitter *e)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    for (int i = 0; i < k->nlocals; i++) {
        const hls_local *m = &k->locals[i];
        if (!m->nports)
            continue;
        unsigned np = (unsigned)m->nports, aw = m->addr_bits + HLS_SLOT_BITS, ww = m->word_bits;
        fprintf(o, "    // __local %s: %llu bytes per work-group slot, %d slots, %d banks of "
                   "%u-bit words, %u ports\n"
                   "    wire [%u:0] lm%d_req_valid, lm%d_req_ready, lm%d_req_write, lm%d_resp_valid, "
                   "lm%d_resp_ready;\n"
                   "    wire [%u:0] lm%d_req_addr;\n    wire [%u:0] lm%d_req_wdata, lm%d_resp_rdata;\n"
                   "    wire [%u:0] lm%d_req_wstrb;\n    wire [%d:0] lm%d_conflicts;\n"
                   "    wire lm%d_idle;\n",
                m->name, 1ull << m->addr_bits, HLS_WG_SLOTS, m->banks, ww, np, np - 1, i, i, i, i,
                i, np * aw - 1, i, np * ww - 1, i, i, np * ww / 8 - 1, i, conflict_width(m) - 1,
                i, i);
        if (m->atomics)
            fprintf(o, "    wire [%u:0] lm%d_req_atomic;\n    wire [%u:0] lm%d_req_wide;\n"
                       "    wire [%u:0] lm%d_req_cmp;\n",
                    4 * np - 1, i, np - 1, i, np * ww - 1, i);
        if (m->wiring == HLS_BANKS_STATIC) { /* localbanks.c proved each port's banks */
            fprintf(o, "    // statically wired: %s\n", m->wiring_reason);
            fprintf(o, "    localparam [%u:0] LM%d_PORT_BANKS = %u'b", np * (unsigned)m->banks - 1, i,
                    np * (unsigned)m->banks);
            for (int p = (int)np - 1; p >= 0; p--)
                for (int b = m->banks - 1; b >= 0; b--)
                    fputc(m->port_banks[p] >> b & 1 ? '1' : '0', o);
            fprintf(o, ";\n");
        }
        fprintf(o, "    clhls_local_mem #(.NPORTS(%u), .ADDR_W(%u), .WORD_W(%u), .BANKS(%d)%s%s) lm%d (\n"
                   "        .clk(clk), .rst(rst),\n"
                   "        .s_req_valid(lm%d_req_valid), .s_req_ready(lm%d_req_ready),\n"
                   "        .s_req_write(lm%d_req_write), .s_req_addr(lm%d_req_addr),\n"
                   "        .s_req_wdata(lm%d_req_wdata), .s_req_wstrb(lm%d_req_wstrb),\n"
                   "        .m_resp_valid(lm%d_resp_valid), .m_resp_ready(lm%d_resp_ready),\n"
                   "        .m_resp_rdata(lm%d_resp_rdata), .conflicts(lm%d_conflicts), .idle(lm%d_idle)",
                np, aw, ww, m->banks, m->atomics ? ", .ATOMICS(1)" : "",
                m->wiring == HLS_BANKS_STATIC ? arena_printf(&e->c->arena, ",\n        .STATIC(1), "
                                                             ".PORT_BANKS(LM%d_PORT_BANKS)", i) : "",
                i, i, i, i, i, i, i, i, i, i, i, i);
        if (m->atomics)
            fprintf(o, ",\n        .s_req_atomic(lm%d_req_atomic), .s_req_wide(lm%d_req_wide), "
                       ".s_req_cmp(lm%d_req_cmp));\n", i, i, i);
        else
            fprintf(o, ",\n        .s_req_atomic(%u'd0), .s_req_wide(%u'd0), .s_req_cmp(%u'd0));\n",
                    4 * np, np, np * ww);
    }
    /* bank conflicts of all memories this cycle */
    fprintf(o, "    wire [7:0] local_conflicts = 8'd0");
    for (int i = 0; i < k->nlocals; i++)
        if (k->locals[i].nports)
            fprintf(o, " + {{%d{1'b0}}, lm%d_conflicts}", 8 - conflict_width(&k->locals[i]), i);
    fprintf(o, ";\n");
}

static void emit_compute_unit(emitter *e)
{
    FILE *o = e->out;
    const hls_kernel *k = e->k;
    unsigned nwords = k->arg_bytes ? k->arg_bytes / 8 : 1; /* argument area registers */
    hls_nl_print_header(o, e->unit);

    int slots = k->slot_op >= 0;
    int entry = k->regions[0].children[0];
    int last = k->regions[0].children[k->regions[0].nchildren - 1];
    fprintf(o,
            "    // The NDRange registers and argument area, and the work-items entering the\n"
            "    // body, from the shell (clhls_cu_shell).\n"
            "    wire [31:0] work_dim;\n"
            "    wire [63:0] global_size_x, global_size_y, global_size_z;\n"
            "    wire [31:0] local_size_x, local_size_y, local_size_z;\n"
            "    wire [63:0] global_offset_x, global_offset_y, global_offset_z;\n"
            "    wire [31:0] num_groups_x, num_groups_y, num_groups_z;\n"
            "    wire [%u:0] args;  // the argument area, byte b at bits 8*b\n"
            "    wire wi_valid, wi_ready;\n"
            "    wire [63:0] wi_global_id_x, wi_global_id_y, wi_global_id_z;\n"
            "    wire [31:0] wi_local_id_x, wi_local_id_y, wi_local_id_z;\n"
            "    wire [31:0] wi_group_id_x, wi_group_id_y, wi_group_id_z;\n"
            "    wire [31:0] wi_group_size_x, wi_group_size_y, wi_group_size_z;\n"
            "    wire [31:0] wi_local_linear_id, wi_group_linear_size;\n"
            "    wire [%d:0] wi_slot;\n"
            "    wire drained;     // no work-item left to enter or inside: stores may flush\n"
            "    wire body_empty;  // no work-item inside a region\n"
            "    wire lsus_idle;   // every load-store unit idle, every store acknowledged\n"
            "    wire mem_read, mem_write;  // a memory request issued this cycle\n",
            64 * nwords - 1, HLS_SLOT_BITS - 1);
    declare_regions(e);
    emit_local_memories(e);
    int probed[HLS_MAX_PROBES];
    int nprobes = hls_ir_probe_regions(k, probed);
    fprintf(o, "    // Probes: work-items inside each loop, waiting in each barrier, waiting\n"
               "    // for memory in each memory node (for the diagnosis of a hang).\n"
               "    wire [%d:0] probes = {", 32 * (nprobes ? nprobes : 1) - 1);
    for (int i = nprobes - 1; i >= 0; i--) {
        const hls_region *r = &k->regions[probed[i]];
        unsigned bits = r->kind == HLS_REGION_LOOP     ? count_bits(r->credits)
                        : r->kind == HLS_REGION_MEMORY ? count_bits(r->exit_depth)
                                                       : lid_bits(k) + HLS_SLOT_BITS + 1;
        const char *name = r->kind == HLS_REGION_LOOP     ? "count"
                           : r->kind == HLS_REGION_MEMORY ? "tokens"
                                                          : "held";
        fprintf(o, "%s%u'd0, r%d_%s", i == nprobes - 1 ? "" : ", ", 32 - bits, r->id, name);
    }
    fprintf(o, "%s};\n", nprobes ? "" : "32'd0");
    fprintf(o, "    wire retire = r%d_out_valid;  // a work-item leaves the last region\n"
               "    assign r%d_out_ready = 1'b1;\n", last, last);
    fprintf(o, "    wire stall_mem = 1'b0");
    emit_region_reduce(e, HLS_REGION_MEMORY, " | r%d_stall_mem", "", "");
    fprintf(o, ";\n");
    char retire_slot[48];
    if (slots)
        snprintf(retire_slot, sizeof retire_slot, "r%d_out_v%d", last, k->slot_op);
    else
        snprintf(retire_slot, sizeof retire_slot, "%d'd0", HLS_SLOT_BITS);
    fprintf(o,
            "    // Control block, work-group dispatch%s and work-item generation.\n"
            "    clhls_cu_shell #(.NARGS(%u), .NPROBES(%d), .ID_W(%u), .LS_W(%u), .BLOCK(%d),\n"
            "        .SLOTS(%d), .SLOT_W(%d)) shell (\n"
            "        .clk(clk), .rst(rst), .reg_we(reg_we), .reg_addr(reg_addr),\n"
            "        .reg_wdata(reg_wdata), .reg_rdata(reg_rdata), .work_dim(work_dim),\n"
            "        .global_size_x(global_size_x), .global_size_y(global_size_y), .global_size_z(global_size_z),\n"
            "        .local_size_x(local_size_x), .local_size_y(local_size_y), .local_size_z(local_size_z),\n"
            "        .global_offset_x(global_offset_x), .global_offset_y(global_offset_y),\n"
            "        .global_offset_z(global_offset_z),\n"
            "        .num_groups_x(num_groups_x), .num_groups_y(num_groups_y), .num_groups_z(num_groups_z),\n"
            "        .args(args), .m_valid(wi_valid), .m_ready(wi_ready),\n"
            "        .m_global_id_x(wi_global_id_x), .m_global_id_y(wi_global_id_y), .m_global_id_z(wi_global_id_z),\n"
            "        .m_local_id_x(wi_local_id_x), .m_local_id_y(wi_local_id_y), .m_local_id_z(wi_local_id_z),\n"
            "        .m_group_id_x(wi_group_id_x), .m_group_id_y(wi_group_id_y), .m_group_id_z(wi_group_id_z),\n"
            "        .m_group_size_x(wi_group_size_x), .m_group_size_y(wi_group_size_y),\n"
            "        .m_group_size_z(wi_group_size_z), .m_slot(wi_slot),\n"
            "        .m_local_linear_id(wi_local_linear_id), .m_group_linear_size(wi_group_linear_size),\n"
            "        .retire_valid(retire), .retire_slot(%s), .body_empty(body_empty),\n"
            "        .lsus_idle(lsus_idle), .stall_mem(stall_mem), .mem_read(mem_read),\n"
            "        .mem_write(mem_write), .local_conflicts(local_conflicts), .probes(probes),\n"
            "        .drained(drained));\n",
            slots ? ", work-group slots" : "", nwords, nprobes ? nprobes : 1,
            e->c->program->board->work_item_index_bits, local_size_bits(k), e->kernel_index,
            slots ? HLS_WG_SLOTS : 0, HLS_SLOT_BITS, retire_slot);
    fprintf(o, "    assign wi_ready = r%d_in_ready;\n    assign r%d_in_valid = wi_valid;\n", entry, entry);
    fprintf(o, "    // Forward progress, the watchdog's sign of life: a work-item entered a\n"
               "    // region of the body, left a loop, or retired (going round a loop is not).\n"
               "    assign progress = retire");
    for (int c = 0; c < k->regions[0].nchildren; c++)
        fprintf(o, " | (r%d_in_valid & r%d_in_ready)", k->regions[0].children[c],
                k->regions[0].children[c]);
    for (int i = 1; i < k->nregions; i++)
        if (k->regions[i].kind == HLS_REGION_LOOP)
            fprintf(o, " | r%d_exit_push", i);
        else if (k->regions[i].kind == HLS_REGION_BARRIER)
            fprintf(o, " | (r%d_out_valid & r%d_out_ready)", i, i);
    fprintf(o, ";\n");

    emit_roms(e);
    fprintf(o, "    // Invariant values.\n");
    for (int i = 0; i < k->nops; i++)
        if (hls_ir_is_invariant(&k->ops[i]))
            emit_invariant(e, &k->ops[i]);
    fprintf(o, "    // The kernel body.\n");
    emit_region(e, 0);
    emit_request_buses(e);
    fprintf(o, "    // What the shell needs to know of the body.\n"
               "    assign body_empty = 1'b1");
    emit_region_reduce(e, HLS_REGION_STATIC, "\n        & ~|r%d_valid_s & ~r%d_out_valid", "", "");
    emit_region_reduce(e, HLS_REGION_LOOP, "\n        & (r%d_count == 0) & ~r%d_out_valid", "", "");
    emit_region_reduce(e, HLS_REGION_BARRIER, "\n        & (r%d_held == 0) & ~r%d_out_valid", "", "");
    emit_region_reduce(e, HLS_REGION_MEMORY, "\n        & (r%d_tokens == 0)", "", "");
    fprintf(o, ";\n    assign lsus_idle = ");
    emit_lsu_reduce(e, "lsu%d_idle", " & ", "1'b1");
    fprintf(o, ";\n    assign mem_read = 1'b0");
    for (int i = 0; i < k->nops; i++)
        if ((k->ops[i].opc == HOP_LOAD || k->ops[i].opc == HOP_ATOMIC) && k->ops[i].lsu >= 0)
            fprintf(o, " | lsu%d_count", k->ops[i].lsu);
    fprintf(o, ";\n    assign mem_write = 1'b0");
    for (int i = 0; i < k->nops; i++)
        if (k->ops[i].opc == HOP_STORE && k->ops[i].lsu >= 0)
            fprintf(o, " | lsu%d_count", k->ops[i].lsu);
    fprintf(o, ";\nendmodule\n`default_nettype wire\n");
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

/* The module of kernel `index`'s compute unit (clhls_cu_UNIT) in the netlist: its
 * comment and ports. The compute unit's file prints its header from it, and the check
 * of clhls_top holds the top's instance of it to these ports. */
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
    hls_nl_port(m, HLS_NL_IN, "clk", 1, "kernel clock");
    hls_nl_port(m, HLS_NL_IN, "rst", 1, "synchronous reset");
    hls_nl_port(m, HLS_NL_IN, "reg_we", 1, "register write enable");
    hls_nl_port(m, HLS_NL_IN, "reg_addr", 16, "register index");
    hls_nl_port(m, HLS_NL_IN, "reg_wdata", 64, "register write data");
    hls_nl_port(m, HLS_NL_OUT, "reg_rdata", 64, "register read data (0 outside this kernel)");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_valid", n, "per load-store unit: request valid");
    hls_nl_port(m, HLS_NL_IN, "m_req_ready", n, "per unit: request accepted");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_write", n, "per unit: 1 = write");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_atomic", 4 * n,
                "per unit: atomic operation code (0 = none)");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_addr", 64 * n, "per unit: line address");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_wdata", mw * n, "per unit: write data");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_req_wstrb", mw / 8 * n, "per unit: write byte enables");
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
    hls_nl_port(top, HLS_NL_IN, "clk", 1, "kernel clock");
    hls_nl_port(top, HLS_NL_IN, "rst", 1, "synchronous active-high reset");
    hls_nl_port(top, HLS_NL_IN, "reg_we", 1, "register write enable");
    hls_nl_port(top, HLS_NL_IN, "reg_addr", 16, "register index (64-bit registers)");
    hls_nl_port(top, HLS_NL_IN, "reg_wdata", 64, "register write data");
    hls_nl_port(top, HLS_NL_OUT, "reg_rdata", 64, "register read data (combinational)");
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
    /* The simulator tells the compute units apart (sim-bridge/harness.cpp): the access
     * checker by instance name, each unit's watchdog by the memory port's tags (a unit's
     * load-store unit ports, when no atomic unit retags the requests). The top names
     * each unit once. */
    strbuf text = {0};
    sb_append(&text, "`ifdef CLHLS_SIM_CHECKS\n"
                     "import \"DPI-C\" function void clhls_sim_unit(input int index, "
                     "input string instance_name, input int first_tag, input int tags);\n"
                     "initial begin\n");
    for (int i = 0, first = 0; i < p->nkernels; i++) {
        int n = unit_ports(p->kernels[i]);
        sb_printf(&text, "    clhls_sim_unit(%d, \"cu_%s\", %d, %d);\n", i, p->kernels[i]->unit,
                  first, has_global_atomic(p) ? 0 : n);
        first += n;
    }
    sb_append(&text, "end\n`endif\n");
    hls_nl_block_new(top, text.data);
    /* the compute units' request buses side by side, filled in one block (see
     * emit_request_buses) */
    hls_nl_net(top, "req_ready", all, NULL);
    hls_nl_net(top, "resp_valid", all, NULL);
    hls_nl_vector(top, "req_ready");
    hls_nl_vector(top, "resp_valid");
    hls_nl_net(top, "resp_rdata", mw, NULL);
    static const char *const bus[] = {"req_valid", "req_write", "resp_ready", "req_atomic",
                                      "req_addr", "req_wdata", "req_wstrb"};
    const unsigned bus_width[] = {1, 1, 1, 4, 64, mw, mw / 8}; /* bits per unit port */
    for (size_t f = 0; f < sizeof bus / sizeof *bus; f++) {
        hls_nl_reg(top, bus[f], bus_width[f] * all, NULL);
        hls_nl_vector(top, bus[f]);
    }
    text.len = 0;
    sb_append(&text, "always @(*) begin\n");
    for (int i = 0, base = 0; i < p->nkernels; i++) {
        const hls_kernel *k = p->kernels[i];
        unsigned n = (unsigned)unit_ports(k);
        hls_nl_net(top, arena_printf(&c->arena, "rdata_%d", i), 64, NULL);
        hls_nl_net(top, arena_printf(&c->arena, "progress_%d", i), 1, NULL);
        for (size_t f = 0; f < sizeof bus / sizeof *bus; f++) {
            const char *net = arena_printf(&c->arena, "cu%d_%s", i, bus[f]);
            hls_nl_net(top, net, bus_width[f] * n, NULL);
            hls_nl_vector(top, net);
            sb_printf(&text, "    %s[%u +: %u] = cu%d_%s;\n", bus[f], bus_width[f] * (unsigned)base,
                      bus_width[f] * n, i, bus[f]);
        }
        hls_nl_instance *cu = hls_nl_instance_new(
            top, arena_printf(&c->arena, "clhls_cu_%s", k->unit),
            arena_printf(&c->arena, "cu_%s", k->unit));
        static const char *const shared[] = {"clk", "rst", "reg_we", "reg_addr", "reg_wdata"};
        for (size_t s = 0; s < sizeof shared / sizeof *shared; s++)
            hls_nl_connect(cu, HLS_NL_IN, shared[s], "%s", shared[s]);
        hls_nl_connect(cu, HLS_NL_OUT, "reg_rdata", "rdata_%d", i);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_valid", "cu%d_req_valid", i);
        hls_nl_connect(cu, HLS_NL_IN, "m_req_ready", "req_ready[%d +: %u]", base, n);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_write", "cu%d_req_write", i);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_atomic", "cu%d_req_atomic", i);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_addr", "cu%d_req_addr", i);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_wdata", "cu%d_req_wdata", i);
        hls_nl_connect(cu, HLS_NL_OUT, "m_req_wstrb", "cu%d_req_wstrb", i);
        hls_nl_connect(cu, HLS_NL_IN, "s_resp_valid", "resp_valid[%d +: %u]", base, n);
        hls_nl_connect(cu, HLS_NL_OUT, "s_resp_ready", "cu%d_resp_ready", i);
        hls_nl_connect(cu, HLS_NL_IN, "s_resp_rdata", "resp_rdata");
        hls_nl_connect(cu, HLS_NL_OUT, "progress", "progress_%d", i);
        base += (int)n;
    }
    sb_append(&text, "end\n");
    hls_nl_block *buses = hls_nl_block_new(top, text.data);
    for (size_t f = 0; f < sizeof bus / sizeof *bus; f++)
        hls_nl_drives(buses, bus[f]);
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

int hls_emit_verilog(hls_compile *c, const char *dir, strbuf *files)
{
    const hls_program *p = c->program;
    hls_nl_netlist *nl = hls_nl_netlist_new(&c->arena);
    for (int i = 0; i < p->nkernels; i++) {
        hls_nl_module *unit = compute_unit_ports(c, nl, i);
        char *name = arena_printf(&c->arena, "clhls_cu_%s.v", p->kernels[i]->unit);
        FILE *f = open_output(c, dir, name, files);
        if (!f)
            return HLS_ERR_TOOL;
        emitter e = {.c = c, .out = f, .k = p->kernels[i], .kernel_index = i,
                     .mem_w = p->board->mem_width_bits, .unit = unit};
        emit_compute_unit(&e);
        fclose(f);
    }
    /* the top is written only once its netlist passes the check */
    hls_nl_module *top = emit_top(c, nl);
    strbuf errors = {0};
    if (hls_nl_check(top, &errors)) {
        sb_printf(c->diag.log, "internal error: the netlist of clhls_top fails its check:\n%s",
                  errors.data);
        sb_free(&errors);
        return HLS_ERR_INTERNAL;
    }
    FILE *f = open_output(c, dir, "clhls_top.v", files);
    if (!f)
        return HLS_ERR_TOOL;
    hls_nl_print(f, top);
    fclose(f);
    return HLS_OK;
}
