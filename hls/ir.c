/* Hardware IR helpers: creating ops and regions, names for dumps, the textual dump
 * behind --dump-after, and the verifier that runs after every pass: widths, operands
 * defined where they are used (dominance in the CFG; inside a static region, earlier
 * in its list or entering it live), schedules that read values only once they exist,
 * and loops whose credits can neither deadlock nor starve. */
#include "ir.h"

#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

static const char *const opcode_names[HOP_COUNT] = {
    [HOP_CONST] = "const", [HOP_ARG] = "arg", [HOP_ROM] = "rom", [HOP_LOCAL] = "local", [HOP_NDRANGE] = "ndrange",
    [HOP_TOKEN] = "token", [HOP_ADD] = "add", [HOP_SUB] = "sub", [HOP_MUL] = "mul",
    [HOP_AND] = "and", [HOP_OR] = "or", [HOP_XOR] = "xor", [HOP_SHL] = "shl",
    [HOP_LSHR] = "lshr", [HOP_ASHR] = "ashr", [HOP_ICMP] = "icmp", [HOP_SELECT] = "select",
    [HOP_TRUNC] = "trunc", [HOP_ZEXT] = "zext", [HOP_SEXT] = "sext", [HOP_FADD] = "fadd",
    [HOP_FSUB] = "fsub", [HOP_FMUL] = "fmul", [HOP_FDIV] = "fdiv", [HOP_FSQRT] = "fsqrt",
    [HOP_FMA] = "fma", [HOP_FCMP] = "fcmp", [HOP_SITOFP] = "sitofp",
    [HOP_UITOFP] = "uitofp", [HOP_FPTOSI] = "fptosi", [HOP_FPTOUI] = "fptoui",
    [HOP_FPEXT] = "fpext", [HOP_FPTRUNC] = "fptrunc",
    [HOP_UDIV] = "udiv", [HOP_SDIV] = "sdiv", [HOP_UREM] = "urem", [HOP_SREM] = "srem",
    [HOP_EXTRACT] = "extract", [HOP_INSERT] = "insert", [HOP_LOAD] = "load", [HOP_STORE] = "store",
    [HOP_ATOMIC] = "atomic", [HOP_BARRIER] = "barrier", [HOP_COLLECTIVE] = "collective", [HOP_PHI] = "phi",
    [HOP_RECUR] = "recur", [HOP_ALIVE] = "alive",
    [HOP_CHAN_READ] = "chanread", [HOP_CHAN_WRITE] = "chanwrite",
};

static const char *const token_names[] = {"global_id", "local_id", "group_id", "group_size",
                                          "slot", "local_linear_id", "group_linear_size"};
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
    op->rom = -1;
    op->lmem = -1;
    op->chan = -1;
    op->lport = -1;
    op->lshare = -1;
    op->spec_alive = -1;
    op->lane = -1;
    op->block = -1;
    op->region = -1;
    return op;
}

void hls_ir_push(arena *a, int **items, int *n, int *cap, int v)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        int *grown = arena_alloc(a, (size_t)c * sizeof *grown);
        if (*n)
            memcpy(grown, *items, (size_t)*n * sizeof *grown);
        *items = grown;
        *cap = c;
    }
    (*items)[(*n)++] = v;
}

hls_region *hls_ir_new_region(hls_kernel *k, arena *a, hls_region_kind kind, int parent)
{
    if (k->nregions == k->capregions) {
        int cap = k->capregions ? 2 * k->capregions : 16;
        hls_region *grown = arena_alloc(a, (size_t)cap * sizeof *grown);
        if (k->nregions)
            memcpy(grown, k->regions, (size_t)k->nregions * sizeof *grown);
        k->regions = grown;
        k->capregions = cap;
    }
    hls_region *r = &k->regions[k->nregions];
    r->id = k->nregions++;
    r->kind = kind;
    r->parent = parent;
    r->loop = -1;
    r->cont = -1;
    r->ii_op = -1;
    r->exit_test = -1;
    r->count_test = -1;
    r->count_iv = -1;
    return r;
}

const char *hls_ir_region_kind_name(hls_region_kind kind)
{
    static const char *const kinds[] = {"body", "static", "loop", "barrier", "memory"};
    return kinds[kind];
}

int hls_ir_probes(const hls_program *p, int kernel, hls_probe *out)
{
    const hls_kernel *k = p->kernels[kernel];
    int n = 0;
    for (int i = 0; i < p->nchannels && n < HLS_MAX_PROBES; i++)
        if (p->channels[i].writer == kernel || p->channels[i].reader == kernel)
            out[n++] = (hls_probe){.region = -1, .channel = i};
    for (int i = 0; i < k->nregions && n < HLS_MAX_PROBES; i++)
        if (k->regions[i].kind == HLS_REGION_LOOP || k->regions[i].kind == HLS_REGION_BARRIER)
            out[n++] = (hls_probe){.region = i, .channel = -1};
    for (int i = 0; i < k->nregions && n < HLS_MAX_PROBES; i++)
        if (k->regions[i].kind == HLS_REGION_MEMORY)
            out[n++] = (hls_probe){.region = i, .channel = -1};
    return n;
}

int hls_ir_operands(const hls_op *op, const int **out)
{
    if (op->opc == HOP_PHI) {
        *out = op->in_vals;
        return op->nin;
    }
    *out = op->args;
    return op->nargs;
}

void hls_ir_read_through(hls_kernel *k, const int *into, int keep)
{
    for (int i = 0; i < k->nops; i++) {
        if (i == keep)
            continue;
        hls_op *op = &k->ops[i];
        int *vals = op->opc == HOP_PHI ? op->in_vals : op->args;
        int n = op->opc == HOP_PHI ? op->nin : op->nargs;
        for (int a = 0; a < n; a++)
            while (vals[a] >= 0 && into[vals[a]] >= 0)
                vals[a] = into[vals[a]];
    }
    for (int b = 0; b < k->nblocks; b++)
        if (k->blocks[b].term >= HLS_TERM_CONDBR)
            while (into[k->blocks[b].cond] >= 0)
                k->blocks[b].cond = into[k->blocks[b].cond];
    for (int r = 0; r < k->nregions; r++)
        if (k->regions[r].kind == HLS_REGION_LOOP)
            while (into[k->regions[r].cont] >= 0)
                k->regions[r].cont = into[k->regions[r].cont];
}

const char *hls_ir_opcode_name(hls_opcode opc)
{
    return opc < HOP_COUNT && opcode_names[opc] ? opcode_names[opc] : "?";
}

int hls_ir_is_invariant(const hls_op *op)
{
    return op->opc == HOP_CONST || op->opc == HOP_ARG || op->opc == HOP_NDRANGE ||
           op->opc == HOP_ROM || op->opc == HOP_LOCAL;
}

int hls_ir_is_memory(const hls_op *op)
{
    return op->opc == HOP_LOAD || op->opc == HOP_STORE || op->opc == HOP_ATOMIC ||
           op->opc == HOP_CHAN_READ || op->opc == HOP_CHAN_WRITE;
}

int hls_ir_short_clock(const hls_program *p)
{
    double levels = board_logic_levels(p->board);
    return levels > 0 && levels < HLS_SHORT_CLOCK_LEVELS;
}

/* 1 when memory node r holds a global load. */
static int has_global_load(const hls_kernel *k, const hls_region *r)
{
    for (int i = 0; i < r->nops; i++)
        if (k->ops[r->ops[i]].opc == HOP_LOAD && k->ops[r->ops[i]].lsu >= 0)
            return 1;
    return 0;
}

/* 1 when region r comes straight after a memory node with a global load in its
 * sequence: r's input ready is that load unit's answer ready, which runs on into the
 * unit's line queue. */
static int follows_global_load(const hls_kernel *k, const hls_region *r)
{
    if (r->parent < 0)
        return 0;
    const hls_region *seq = &k->regions[r->parent];
    for (int c = 1; c < seq->nchildren; c++)
        if (seq->children[c] == r->id) {
            const hls_region *before = &k->regions[seq->children[c - 1]];
            return before->kind == HLS_REGION_MEMORY && has_global_load(k, before);
        }
    return 0;
}

int hls_ir_node_sliced(const hls_program *p, const hls_kernel *k, const hls_region *r)
{
    if (r->kind != HLS_REGION_MEMORY || !hls_ir_short_clock(p))
        return 0;
    return has_global_load(k, r) || r->nops > HLS_JOIN_UNITS || follows_global_load(k, r);
}

int hls_ir_port_sliced(const hls_program *p, const hls_kernel *k, int lmem, int lport)
{
    for (int o = 0; o < k->nops; o++)
        if (k->ops[o].lmem == lmem && k->ops[o].lport == lport && k->ops[o].region >= 0 &&
            hls_ir_node_sliced(p, k, &k->regions[k->ops[o].region]))
            return 1;
    return 0;
}

int hls_ir_node_slice_cycles(const hls_program *p, const hls_kernel *k, const hls_region *r)
{
    if (hls_ir_node_sliced(p, k, r))
        return 1 + has_global_load(k, r);
    for (int i = 0; r->kind == HLS_REGION_MEMORY && i < r->nops; i++) {
        const hls_op *op = &k->ops[r->ops[i]];
        if (op->lmem >= 0 && hls_ir_port_sliced(p, k, op->lmem, op->lport))
            return 1; /* a port shared with a sliced node's access */
    }
    return 0;
}

int hls_ir_reuses_lines(const hls_kernel *k, const hls_op *op)
{
    return op->opc == HOP_LOAD && !(k->channel_fence && op->addr_space == 1);
}

int hls_ir_low_bits_from_low_bits(const hls_op *op)
{
    switch (op->opc) {
    case HOP_ADD: case HOP_SUB: case HOP_MUL: case HOP_AND: case HOP_OR: case HOP_XOR:
    case HOP_SHL:
        return 1;
    default:
        return 0;
    }
}

unsigned hls_ir_rom_address_bits(uint64_t size)
{
    unsigned bits = 1;
    while ((1ull << bits) < size)
        bits++;
    return bits;
}

int hls_ir_is_access(const hls_op *op)
{
    return op->lsu >= 0 || op->lmem >= 0 || op->chan >= 0;
}

int hls_ir_waits_for_memory(const hls_op *op)
{
    return op->opc == HOP_LOAD || op->opc == HOP_ATOMIC || (op->opc == HOP_STORE && op->acked) ||
           op->opc == HOP_CHAN_READ || (op->opc == HOP_CHAN_WRITE && op->imm);
}

static void dump_op(FILE *out, const hls_kernel *k, const hls_op *op, const hls_sched *s)
{
    fprintf(out, "    %%%d = %s i%u", op->id, hls_ir_opcode_name(op->opc), op->width);
    if (op->opc == HOP_CONST && op->wide) {
        fprintf(out, " 0x");
        for (int b = (int)op->width / 8 - 1; b >= 0; b--)
            fprintf(out, "%02x", op->wide[b]);
    } else if (op->opc == HOP_CONST) {
        fprintf(out, " %llu", (unsigned long long)op->imm);
    }
    else if (op->opc == HOP_ARG)
        fprintf(out, op->imm ? " %s+%llu" : " %s", k->args[op->arg].name,
                (unsigned long long)op->imm);
    else if (op->opc == HOP_TOKEN)
        fprintf(out, " %s(%d)", token_names[op->imm], op->dim);
    else if (op->opc == HOP_NDRANGE)
        fprintf(out, " %s(%d)", ndrange_names[op->imm], op->dim);
    else if (op->opc == HOP_ICMP || op->opc == HOP_FCMP)
        fprintf(out, " pred%llu", (unsigned long long)op->imm);
    if (op->opc == HOP_PHI)
        for (int a = 0; a < op->nin; a++)
            fprintf(out, "%s[%%%d, b%d]", a ? ", " : " ", op->in_vals[a], op->in_blocks[a]);
    else
        for (int a = 0; a < op->nargs; a++)
            fprintf(out, "%s%s%%%d", a ? ", " : " ",
                    op->has_pred && a == op->nargs - 1 ? "if " : "", op->args[a]);
    if (op->lsu >= 0)
        fprintf(out, " [lsu %d, addrspace %d%s%s]", op->lsu, op->addr_space,
                op->acked ? ", acknowledged" : "",
                op->spec_alive >= 0 ? ", speculative" : "");
    if (op->rom >= 0)
        fprintf(out, " [rom %d]", op->rom);
    if (op->chan >= 0)
        fprintf(out, " [channel %d%s]", op->chan, op->imm == HLS_CHAN_COUNT ? ", count"
                                                  : op->imm ? ", non-blocking" : "");
    if (op->lmem >= 0) {
        fprintf(out, " [local %s port %d", k->locals[op->lmem].name, op->lport);
        if (op->lshare >= 0) { /* the others on the port, in op order */
            fprintf(out, " shared with");
            for (int i = 0; i < k->nops; i++)
                if (i != op->id && k->ops[i].lmem == op->lmem && k->ops[i].lport == op->lport &&
                    k->ops[i].lshare >= 0)
                    fprintf(out, " %%%d", i);
        }
        fprintf(out, "%s]", op->acked ? ", acknowledged" : "");
    }
    if (op->opc == HOP_ROM)
        fprintf(out, " table %llu", (unsigned long long)op->imm);
    if (op->opc == HOP_LOCAL)
        fprintf(out, " %s", k->locals[op->imm].name);
    if (op->opc == HOP_BARRIER)
        fprintf(out, " fence %llu", (unsigned long long)op->imm);
    if (op->opc == HOP_ATOMIC) {
        static const char *const ops[] = {"none", "add", "sub", "xchg", "cmpxchg", "min", "max",
                                          "umin", "umax", "and", "or", "xor"};
        fprintf(out, " %s", ops[op->imm]);
    }
    if (op->opc == HOP_COLLECTIVE) {
        static const char *const kinds[] = {"?", "broadcast", "reduce", "scan_inclusive",
                                            "scan_exclusive"};
        static const char *const funcs[] = {"add", "min", "max", "any", "all"};
        static const char *const types[] = {"unsigned", "signed", "float"};
        fprintf(out, " %s", kinds[HLS_COLL_KIND(op->imm)]);
        if (HLS_COLL_KIND(op->imm) != HLS_COLL_BROADCAST)
            fprintf(out, "_%s", funcs[HLS_COLL_FUNC(op->imm)]);
        fprintf(out, " %s", types[HLS_COLL_TYPE(op->imm)]);
    }
    for (int w = 0; w < op->nwaits; w++)
        fprintf(out, "%s%%%d", w ? ", " : " after ", op->waits[w]);
    if (op->ivdep)
        fprintf(out, " ivdep %#llx", (unsigned long long)op->ivdep);
    if (op->live_bits && op->live_bits < op->width)
        fprintf(out, " [%u bits read]", op->live_bits);
    if (s && s->start)
        fprintf(out, "  @%d+%d", s->start[op->id], s->latency[op->id]);
    if (op->loc.line)
        fprintf(out, "  ; line %u", op->loc.line);
    fputc('\n', out);
}

static void dump_values(FILE *out, const char *what, const int *ids, int n)
{
    fprintf(out, " %s {", what);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%%%d", i ? " " : "", ids[i]);
    fputc('}', out);
}

static void dump_region(FILE *out, const hls_kernel *k, int id, int indent)
{
    const hls_region *r = &k->regions[id];
    fprintf(out, "%*sregion %d: %s", indent, "", r->id, hls_ir_region_kind_name(r->kind));
    if (r->kind == HLS_REGION_STATIC && r->sched.start)
        fprintf(out, r->stall_free ? " (depth %d, stall-free, exit fifo %d" : " (depth %d",
                r->sched.depth, r->exit_depth);
    if (r->kind == HLS_REGION_STATIC && r->sched.start)
        fprintf(out, r->ii > 1 ? ", II %d)" : ")", r->ii);
    if (r->kind == HLS_REGION_MEMORY && r->exit_depth)
        fprintf(out, " (token fifo %d)", r->exit_depth);
    if (r->kind == HLS_REGION_LOOP) {
        const hls_loop *l = &k->loops[r->loop];
        fprintf(out, " at line %u (header b%d, latch b%d", l->loc.line, l->header, l->latch);
        if (r->credits && r->pipelined)
            fprintf(out, "; pipelined, II %d, latency %d", r->ii, r->latency);
        else if (r->credits)
            fprintf(out, "; latency %d, credits %d, back-edge fifo %d", r->latency, r->credits,
                    r->back_depth);
        else if (r->pipelined)
            fprintf(out, "; pipelined");
        if (r->pipelined && r->credits)
            fprintf(out, r->count_test >= 0 ? ", counted" : ", uncounted");
        if (r->speculative)
            fprintf(out, ", speculative");
        if (r->max_in_flight)
            fprintf(out, ", at most %d in flight", r->max_in_flight);
        if (r->lanes > 1)
            fprintf(out, ", %d work-items interleaved", r->lanes);
        else if (r->pipelined && r->ii > 1 && r->credits)
            fprintf(out, ", not interleaved");
        if (r->barrier_hold)
            fprintf(out, ", barriers hold %d", r->barrier_hold);
        fprintf(out, ")");
        const hls_loop_pragmas *pr = &k->blocks[l->latch].pragmas;
        if (pr->ivdep)
            fprintf(out, " #pragma ivdep (%d)", pr->ivdep);
        if (pr->ii)
            fprintf(out, " #pragma ii %d", pr->ii);
        if (pr->no_pipelining)
            fprintf(out, " #pragma disable_loop_pipelining");
        if (pr->max_concurrency)
            fprintf(out, " #pragma max_concurrency %d", pr->max_concurrency);
        if (pr->max_interleaving)
            fprintf(out, " #pragma max_interleaving %d", pr->max_interleaving - 1);
        if (pr->coalesce)
            fprintf(out, " #pragma loop_coalesce");
        dump_values(out, "phis", r->phis, r->nphis);
        fprintf(out, " continue %%%d", r->cont);
        if (r->serial)
            fprintf(out, " serial: %s", r->serial);
        if (r->pipelined && r->window)
            fprintf(out, " window %d..%d: %s", r->window_first, r->window_last, r->window);
    }
    dump_values(out, "in", r->live_in, r->nlive_in);
    dump_values(out, "out", r->live_out, r->nlive_out);
    fputc('\n', out);
    for (int i = 0; i < r->nops; i++) {
        fprintf(out, "%*s", indent, "");
        dump_op(out, k, &k->ops[r->ops[i]], r->sched.start ? &r->sched : NULL);
    }
    for (int i = 0; i < r->nchildren; i++)
        dump_region(out, k, r->children[i], indent + 2);
}

static void dump_block(FILE *out, const hls_kernel *k, int b)
{
    const hls_block *blk = &k->blocks[b];
    fprintf(out, "  block b%d:", b);
    if (blk->npreds) {
        fprintf(out, " preds");
        for (int i = 0; i < blk->npreds; i++)
            fprintf(out, " b%d", blk->preds[i]);
    }
    if (blk->loop >= 0)
        fprintf(out, " (loop %d)", blk->loop);
    fputc('\n', out);
    for (int i = 0; i < blk->nops; i++)
        dump_op(out, k, &k->ops[blk->ops[i]], NULL);
    static const char *const terms[] = {"ret", "br", "condbr", "switch"};
    fprintf(out, "    %s", terms[blk->term]);
    if (blk->term == HLS_TERM_CONDBR || blk->term == HLS_TERM_SWITCH)
        fprintf(out, " %%%d", blk->cond);
    for (int i = 0; i < blk->nsucc; i++) {
        if (blk->term == HLS_TERM_SWITCH && i)
            fprintf(out, ", %llu: b%d", (unsigned long long)blk->cases[i], blk->succ[i]);
        else
            fprintf(out, "%s b%d", i ? "," : "", blk->succ[i]);
    }
    fputc('\n', out);
}

void hls_ir_dump(FILE *out, const hls_program *p)
{
    for (int ki = 0; ki < p->nkernels; ki++) {
        const hls_kernel *k = p->kernels[ki];
        fprintf(out, "kernel %s (%d args, %d load-store units, %d blocks, %d loops)\n",
                k->name, k->nargs, k->nlsus, k->nblocks, k->nloops);
        for (int i = 0; i < k->nlocals; i++) {
            const hls_local *m = &k->locals[i];
            if (m->wiring == HLS_BANKS_UNDECIDED)
                continue;
            fprintf(out, "  local %s: %d ports", m->name, m->nports);
            if (m->accesses > m->nports)
                fprintf(out, " for %d accesses", m->accesses);
            fprintf(out, ", %d banks, %s: %s\n", m->banks,
                    m->wiring == HLS_BANKS_STATIC ? "static banks" : "crossbar", m->wiring_reason);
        }
        if (k->nregions) {
            dump_region(out, k, 0, 2);
            continue;
        }
        for (int b = 0; b < k->nblocks; b++)
            dump_block(out, k, b);
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
    case HOP_FADD: case HOP_FSUB: case HOP_FMUL: case HOP_FDIV: case HOP_FSQRT: case HOP_FMA:
        return op->width;
    case HOP_FPEXT:
        return 32;
    case HOP_FPTRUNC:
        return 64;
    case HOP_LOAD:
        return a == 0 ? 64 : 0;
    case HOP_STORE:
        return a == 0 ? 64 : a == 1 ? op->width : 0;
    case HOP_BARRIER:
        return a == 0 ? HLS_SLOT_BITS : 32;
    case HOP_ATOMIC:
        return a == 0 ? 64 : a <= 2 ? op->width : 0;
    case HOP_COLLECTIVE:
        return a == 0 ? (HLS_COLL_FUNC(op->imm) >= HLS_COLL_ANY ? 32 : op->width) : 32;
    case HOP_INSERT:
        return a == 0 ? op->width : a == 1 ? (unsigned)op->imm : 0;
    case HOP_RECUR:
        return a < 2 ? op->width : a == 2 ? 1 : HLS_LANE_BITS;
    case HOP_ALIVE:
        return a < 2 ? 1 : HLS_LANE_BITS;
    case HOP_CHAN_WRITE:
        return a == 0 ? 0 : 1;
    default:
        return 0;
    }
}

int hls_ir_dominates(const hls_kernel *k, int a, int b)
{
    while (b >= 0 && b != a)
        b = k->blocks[b].idom;
    return b == a;
}

int hls_ir_in_loop(const hls_kernel *k, int b, int loop)
{
    for (int l = k->blocks[b].loop; l >= 0; l = k->loops[l].parent)
        if (l == loop)
            return 1;
    return 0;
}

/* Position of op in its block's list. */
static int position(const hls_kernel *k, int id)
{
    const hls_block *b = &k->blocks[k->ops[id].block];
    for (int i = 0; i < b->nops; i++)
        if (b->ops[i] == id)
            return i;
    return -1;
}

#define FAIL(...) do { sb_printf(err, __VA_ARGS__); return -1; } while (0)

static int verify_op(const hls_kernel *k, const hls_op *op, strbuf *err)
{
    /* Only the ops that move bits around carry values wider than 64 bits (a vector
     * argument, the pieces of an access wider than the memory port). */
    int moves_bits = op->opc == HOP_CONST || op->opc == HOP_ARG || op->opc == HOP_PHI ||
                     op->opc == HOP_RECUR ||
                     op->opc == HOP_SELECT || op->opc == HOP_INSERT || op->opc == HOP_EXTRACT ||
                     op->opc == HOP_LOAD || op->opc == HOP_STORE || op->opc == HOP_CHAN_READ ||
                     op->opc == HOP_CHAN_WRITE;
    if (op->width < 1 || op->width > (moves_bits ? HLS_MAX_WIDE_BITS : 64))
        FAIL("%s: op %%%d has width %u\n", k->name, op->id, op->width);
    const int *args;
    int n = hls_ir_operands(op, &args);
    for (int a = 0; a < n; a++) {
        if (args[a] < 0 || args[a] >= k->nops)
            FAIL("%s: op %%%d has no operand %d\n", k->name, op->id, a);
        unsigned want = op->opc == HOP_PHI ? op->width : operand_width(op, a);
        if (op->has_pred && a == n - 1)
            want = 1;
        if (want && k->ops[args[a]].width != want)
            FAIL("%s: op %%%d (%s) operand %d is i%u, expected i%u\n", k->name, op->id,
                 hls_ir_opcode_name(op->opc), a, k->ops[args[a]].width, want);
    }
    int unit = op->rom >= 0 || (op->lsu >= 0 && op->lsu < k->nlsus) ||
               (op->lmem >= 0 && op->lmem < k->nlocals && op->lport >= 0 &&
                op->lport < k->locals[op->lmem].nports &&
                (op->lshare < 0 || (k->locals[op->lmem].port_users &&
                                    op->lshare < k->locals[op->lmem].port_users[op->lport])) &&
                op->width <= k->locals[op->lmem].word_bits);
    if (hls_ir_is_memory(op) && op->chan < 0 &&
        (!unit || op->width % 8 || (op->width & (op->width - 1))))
        FAIL("%s: memory op %%%d has no valid load-store unit/width\n", k->name, op->id);
    if ((op->opc == HOP_CHAN_READ || op->opc == HOP_CHAN_WRITE) != (op->chan >= 0))
        FAIL("%s: op %%%d (%s) has no channel, or a channel it cannot use\n", k->name, op->id,
             hls_ir_opcode_name(op->opc));
    if (op->opc == HOP_BARRIER && (op->nargs != 3 || k->slot_op < 0 || op->args[0] != k->slot_op))
        FAIL("%s: barrier %%%d does not know its work-group\n", k->name, op->id);
    return 0;
}

/* Before if-conversion: every operand is defined in a block that dominates its use
 * (earlier in the same block; for a phi, dominating the incoming edge's block). */
static int verify_cfg(const hls_kernel *k, strbuf *err)
{
    for (int b = 0; b < k->nblocks; b++) {
        const hls_block *blk = &k->blocks[b];
        for (int i = 0; i < blk->nops; i++) {
            const hls_op *op = &k->ops[blk->ops[i]];
            const int *args;
            int n = hls_ir_operands(op, &args);
            for (int a = 0; a < n; a++) {
                const hls_op *def = &k->ops[args[a]];
                if (hls_ir_is_invariant(def))
                    continue;
                int use_block = op->opc == HOP_PHI ? op->in_blocks[a] : b;
                int ok = def->block == use_block && op->opc != HOP_PHI
                             ? position(k, def->id) < i
                             : hls_ir_dominates(k, def->block, use_block);
                if (!ok)
                    FAIL("%s: op %%%d uses %%%d, whose definition does not dominate it\n",
                         k->name, op->id, def->id);
            }
        }
        for (int s = 0; s < blk->nsucc; s++)
            if (blk->succ[s] < 0 || blk->succ[s] >= k->nblocks)
                FAIL("%s: block b%d has an invalid successor\n", k->name, b);
    }
    return 0;
}

static int contains(const int *ids, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == v)
            return 1;
    return 0;
}

static int verify_region(const hls_kernel *k, const hls_region *r, const int *avail, int navail,
                         strbuf *err);

/* The children of a sequence (the body, or a loop's body with its phis) in order, each
 * given what the one before passes on, the first in (the sequence's live-ins and
 * phis); then a loop's phis, what it carries out and its credits. */
static int verify_sequence(const hls_kernel *k, const hls_region *r, const int *in, int nin,
                           strbuf *err)
{
    const int *cur = in;
    int ncur = nin;
    for (int c = 0; c < r->nchildren; c++) {
        const hls_region *child = &k->regions[r->children[c]];
        if (child->parent != r->id)
            FAIL("%s: region %d has the wrong parent\n", k->name, child->id);
        if (verify_region(k, child, cur, ncur, err))
            return -1;
        cur = child->live_out;
        ncur = child->nlive_out;
    }
    if (r->kind == HLS_REGION_LOOP) {
        if (r->cont >= 0 && !hls_ir_is_invariant(&k->ops[r->cont]) && !contains(cur, ncur, r->cont))
            FAIL("%s: loop region %d does not know whether to go round again\n", k->name, r->id);
        for (int i = 0; i < r->nphis; i++) {
            const hls_op *phi = &k->ops[r->phis[i]];
            if (verify_op(k, phi, err))
                return -1;
        }
        for (int i = 0; i < r->nlive_out; i++)
            if (!contains(cur, ncur, r->live_out[i]))
                FAIL("%s: loop region %d does not carry %%%d out\n", k->name, r->id,
                     r->live_out[i]);
        /* Credits fill the cycle's storage at most (back-edge FIFO and barrier units),
         * and admit every work-item of the groups in flight when a barrier waits. */
        if (r->credits && !r->pipelined && (r->credits < r->latency ||
                           r->credits > r->back_depth + r->barrier_hold ||
                           r->credits < r->barrier_hold))
            FAIL("%s: loop region %d has %d credits for latency %d, a back-edge FIFO of %d "
                 "and barriers holding %d (need latency, barriers <= credits <= FIFO + "
                 "barriers)\n", k->name, r->id, r->credits, r->latency, r->back_depth,
                 r->barrier_hold);
    }
    return 0;
}

/* After if-conversion: every value a region reads is invariant, computed earlier in
 * it, or among its live-ins; each child's live-ins come from its predecessor in the
 * sequence; the schedule reads values only once they are ready; loop credits fit. */
static int verify_region(const hls_kernel *k, const hls_region *r, const int *avail, int navail,
                         strbuf *err)
{
    for (int i = 0; i < r->nlive_in; i++)
        if (!contains(avail, navail, r->live_in[i]))
            FAIL("%s: region %d needs %%%d, which does not reach it\n", k->name, r->id,
                 r->live_in[i]);
    if (r->kind == HLS_REGION_BARRIER) {
        if (r->nops < 1 || r->nops > 2 || k->ops[r->ops[0]].opc != HOP_BARRIER ||
            (r->nops == 2 && k->ops[r->ops[1]].opc != HOP_COLLECTIVE))
            FAIL("%s: barrier region %d holds no barrier\n", k->name, r->id);
        for (int i = 1; i < r->nops; i++) {
            const hls_op *op = &k->ops[r->ops[i]];
            if (verify_op(k, op, err))
                return -1;
            for (int a = 0; a < op->nargs; a++)
                if (!hls_ir_is_invariant(&k->ops[op->args[a]]) &&
                    !contains(r->live_in, r->nlive_in, op->args[a]))
                    FAIL("%s: work-group function %%%d misses its operand %%%d\n", k->name,
                         op->id, op->args[a]);
        }
        for (int a = 0; a < 3; a++)
            if (!hls_ir_is_invariant(&k->ops[k->ops[r->ops[0]].args[a]]) &&
                !contains(r->live_in, r->nlive_in, k->ops[r->ops[0]].args[a]))
                FAIL("%s: barrier region %d misses its operand %%%d\n", k->name, r->id,
                     k->ops[r->ops[0]].args[a]);
        for (int i = 0; i < r->nlive_out; i++)
            if (!contains(r->live_in, r->nlive_in, r->live_out[i]) &&
                !contains(r->ops, r->nops, r->live_out[i]))
                FAIL("%s: barrier region %d passes on %%%d, which it never had\n", k->name,
                     r->id, r->live_out[i]);
        return 0;
    }
    if (r->kind == HLS_REGION_MEMORY) {
        for (int i = 0; i < r->nops; i++) {
            const hls_op *op = &k->ops[r->ops[i]];
            if (verify_op(k, op, err))
                return -1;
            if (!hls_ir_is_access(op))
                FAIL("%s: memory node %d holds %%%d, not a memory access\n", k->name, r->id,
                     op->id);
            if (op->region != r->id)
                FAIL("%s: %%%d is in memory node %d but says region %d\n", k->name, op->id,
                     r->id, op->region);
            for (int a = 0; a < op->nargs; a++)
                if (!hls_ir_is_invariant(&k->ops[op->args[a]]) &&
                    !contains(r->live_in, r->nlive_in, op->args[a]))
                    FAIL("%s: access %%%d in memory node %d reads %%%d, which does not enter "
                         "the node\n", k->name, op->id, r->id, op->args[a]);
        }
        for (int i = 0; i < r->nlive_out; i++)
            if (!contains(r->live_in, r->nlive_in, r->live_out[i]) &&
                !contains(r->ops, r->nops, r->live_out[i]))
                FAIL("%s: memory node %d passes on %%%d, which it never had\n", k->name, r->id,
                     r->live_out[i]);
        return 0;
    }
    if (r->kind == HLS_REGION_STATIC) {
        for (int i = 0; i < r->nops; i++) {
            const hls_op *op = &k->ops[r->ops[i]];
            if (verify_op(k, op, err))
                return -1;
            if (op->opc == HOP_TOKEN && r->id != k->regions[0].children[0])
                FAIL("%s: op %%%d reads the work-item generator in region %d, after the "
                     "work-item entered\n", k->name, op->id, r->id);
            const int *args;
            int n = hls_ir_operands(op, &args);
            for (int a = 0; a < n; a++) {
                const hls_op *def = &k->ops[args[a]];
                int inside = def->region == r->id;
                if (hls_ir_is_invariant(def))
                    continue;
                if (op->opc == HOP_RECUR && a == 1) {
                    /* the next value: the next iteration reads it once it is ready */
                    const hls_sched *s = &r->sched;
                    if (!inside && !contains(r->live_in, r->nlive_in, def->id))
                        FAIL("%s: recurrence %%%d in region %d has no next value %%%d\n",
                             k->name, op->id, r->id, def->id);
                    /* the iteration before of the same work-item: a round of lanes ago */
                    int lanes = r->parent >= 0 && k->regions[r->parent].lanes > 1
                                    ? k->regions[r->parent].lanes : 1;
                    if (s->start && inside &&
                        s->start[def->id] + s->latency[def->id] - s->start[op->id] >
                            r->ii * lanes)
                        FAIL("%s: recurrence %%%d at stage %d has its next value %%%d at stage "
                             "%d, more than the region's II %d (times %d lanes) later\n",
                             k->name, op->id, s->start[op->id], def->id,
                             s->start[def->id] + s->latency[def->id], r->ii, lanes);
                    continue;
                }
                if (!inside && !contains(r->live_in, r->nlive_in, def->id))
                    FAIL("%s: op %%%d in region %d reads %%%d, which is not live there\n",
                         k->name, op->id, r->id, def->id);
                if (inside && !contains(r->ops, i, def->id))
                    FAIL("%s: op %%%d reads %%%d before it is computed\n", k->name, op->id,
                         def->id);
                const hls_sched *s = &r->sched;
                if (s->start && inside &&
                    s->start[def->id] + s->latency[def->id] > s->start[op->id])
                    FAIL("%s: op %%%d starts at stage %d before operand %%%d is ready\n",
                         k->name, op->id, s->start[op->id], def->id);
            }
        }
        for (int i = 0; i < r->nlive_out; i++)
            if (!contains(r->live_in, r->nlive_in, r->live_out[i]) &&
                !contains(r->ops, r->nops, r->live_out[i]))
                FAIL("%s: region %d passes on %%%d, which it never had\n", k->name, r->id,
                     r->live_out[i]);
        /* A stall-free cluster's exit FIFO must take every work-item its stages hold. */
        for (int i = 0; r->stall_free && i < r->nops; i++)
            if (hls_ir_is_access(&k->ops[r->ops[i]]))
                FAIL("%s: stall-free region %d holds load-store unit %d\n", k->name, r->id,
                     k->ops[r->ops[i]].lsu);
        if (r->stall_free && r->exit_depth < r->sched.depth + 2)
            FAIL("%s: stall-free region %d has %d stages and an exit FIFO of %d\n", k->name,
                 r->id, r->sched.depth + 1, r->exit_depth);
        return 0;
    }
    /* A sequence (the body, or a loop's body with its phis): sized by the kernel, so
     * not on the stack. */
    int *in = hls_alloc((size_t)(r->nlive_in + r->nphis + 1) * sizeof *in);
    int nin = 0;
    for (int i = 0; i < r->nlive_in; i++)
        in[nin++] = r->live_in[i];
    for (int i = 0; i < r->nphis; i++)
        in[nin++] = r->phis[i];
    int rc = verify_sequence(k, r, in, nin, err);
    free(in);
    return rc;
}

int hls_ir_verify(const hls_program *p, strbuf *err)
{
    for (int ki = 0; ki < p->nkernels; ki++) {
        const hls_kernel *k = p->kernels[ki];
        if (k->nregions) {
            if (verify_region(k, &k->regions[0], NULL, 0, err))
                return -1;
            continue;
        }
        for (int i = 0; i < k->nops; i++)
            if (verify_op(k, &k->ops[i], err))
                return -1;
        if (k->rpo && verify_cfg(k, err))
            return -1;
    }
    return 0;
}
