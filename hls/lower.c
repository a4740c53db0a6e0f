/* Lowering: turns each kernel of the prepared LLVM module into hardware IR, block by
 * block in reverse post-order (so every operand but a phi's is lowered before its
 * use), keeping the CFG: terminators become block successors, phis stay phis. Integer
 * and float values become bit vectors of their width (a float is its 32 IEEE bits),
 * pointers become 64-bit byte addresses (getelementptr becomes adds and multiplies),
 * work-item functions become reads of the work-item token or of NDRange registers,
 * and a few LLVM intrinsics become the operations they stand for. Each __local array
 * and __local argument becomes a local memory of the kernel, its accesses offset by
 * the work-group slot's copy; barriers, work-group functions and atomic functions
 * become their operations. The kernel's argument descriptions come from clang's
 * kernel_arg_* metadata. A loop's pragmas come from the llvm.loop metadata of its
 * latch's branch (hls_loop_pragmas of the block), and an access that #pragma ivdep
 * covers is one whose llvm.access.group a loop's llvm.loop.parallel_accesses lists. */
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "passes.h"

typedef struct lowering {
    hls_compile *c;       /* the compilation */
    hls_kernel *k;        /* kernel being built */
    hls_block *block;     /* block receiving ops */
    int block_id;         /* its index */
    hls_value_map map;        /* LLVM value -> op id */
    hls_value_map blocks;     /* LLVM basic block (as value) -> block id */
    LLVMTargetDataRef td; /* data layout for type sizes */
    int lin_id, lin_size; /* the local linear id and group size tokens, -1 until read */
    LLVMValueRef *groups; /* access groups the kernel's #pragma ivdep loops list */
    int *group_loop;      /* per group: that loop's ivdep number (1..64) */
    int ngroups;          /* number of groups */
    int *nb_read;         /* per channel: the kernel's non-blocking read of it, -1 before */
} lowering;

static void map_put(lowering *L, LLVMValueRef v, int id)
{
    hls_value_map_set(&L->c->arena, &L->map, v, id);
}

static hls_op *emit(lowering *L, hls_opcode opc, unsigned width, hls_loc loc)
{
    hls_op *op = hls_ir_new_op(L->k, &L->c->arena, opc, width);
    op->loc = loc;
    op->block = L->block_id;
    hls_ir_push(&L->c->arena, &L->block->ops, &L->block->nops, &L->block->capops, op->id);
    return op;
}

/* An existing op computing the same pure function of the same operands, or -1
 * (getelementptr lowering repeats index arithmetic that LLVM kept per pointer). */
static int find_same(lowering *L, hls_opcode opc, unsigned width, int nargs, int a, int b,
                     uint64_t imm)
{
    const hls_block *blk = L->block;
    for (int i = 0; i < blk->nops; i++) {
        const hls_op *op = &L->k->ops[blk->ops[i]];
        if (op->opc == opc && op->width == width && op->nargs == nargs && op->imm == imm &&
            !op->wide &&
            (nargs < 1 || op->args[0] == a) && (nargs < 2 || op->args[1] == b))
            return op->id;
    }
    return -1;
}

static int op2(lowering *L, hls_opcode opc, unsigned width, int a, int b, hls_loc loc)
{
    int same = opc == HOP_ICMP ? -1 : find_same(L, opc, width, 2, a, b, 0);
    if (same >= 0)
        return same;
    hls_op *op = emit(L, opc, width, loc);
    op->nargs = 2;
    op->args[0] = a;
    op->args[1] = b;
    return op->id;
}

static int op1(lowering *L, hls_opcode opc, unsigned width, int a, hls_loc loc)
{
    int same = find_same(L, opc, width, 1, a, 0, 0);
    if (same >= 0)
        return same;
    hls_op *op = emit(L, opc, width, loc);
    op->nargs = 1;
    op->args[0] = a;
    return op->id;
}

static int icmp(lowering *L, LLVMIntPredicate pred, int a, int b, hls_loc loc)
{
    int id = op2(L, HOP_ICMP, 1, a, b, loc);
    L->k->ops[id].imm = pred;
    return id;
}

static int select_op(lowering *L, unsigned width, int cond, int a, int b, hls_loc loc)
{
    hls_op *op = emit(L, HOP_SELECT, width, loc);
    op->nargs = 3;
    op->args[0] = cond, op->args[1] = a, op->args[2] = b;
    return op->id;
}

static int constant(lowering *L, unsigned width, uint64_t value)
{
    value = width < 64 ? value & ((1ull << width) - 1) : value;
    int same = find_same(L, HOP_CONST, width, 0, 0, 0, value);
    if (same >= 0)
        return same;
    hls_op *op = emit(L, HOP_CONST, width, (hls_loc){0});
    op->imm = value;
    return op->id;
}

static unsigned width_of(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
    case LLVMFloatTypeKind: return 32;
    case LLVMDoubleTypeKind: return 64;
    case LLVMPointerTypeKind: return 64;
    case LLVMVectorTypeKind: /* a private array in registers (privarrays.c) */
        return LLVMGetVectorSize(t) * width_of(LLVMGetElementType(t));
    default: return 0;
    }
}

/* Appends the bytes of constant c (of type t) at out[0..size). */
static void constant_bytes(lowering *L, LLVMValueRef c, LLVMTypeRef t, unsigned char *out)
{
    uint64_t size = LLVMABISizeOfType(L->td, t);
    if (LLVMIsAConstantAggregateZero(c) || LLVMIsAUndefValue(c) || LLVMIsAPoisonValue(c)) {
        memset(out, 0, size);
        return;
    }
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: {
        uint64_t v = LLVMConstIntGetZExtValue(c);
        for (uint64_t i = 0; i < LLVMStoreSizeOfType(L->td, t); i++)
            out[i] = (unsigned char)(v >> (8 * i));
        return;
    }
    case LLVMFloatTypeKind: {
        LLVMBool lost;
        float f = (float)LLVMConstRealGetDouble(c, &lost);
        memcpy(out, &f, 4);
        return;
    }
    case LLVMDoubleTypeKind: {
        LLVMBool lost;
        double d = LLVMConstRealGetDouble(c, &lost);
        memcpy(out, &d, 8);
        return;
    }
    case LLVMArrayTypeKind: case LLVMVectorTypeKind: {
        LLVMTypeRef e = LLVMGetElementType(t);
        uint64_t step = LLVMABISizeOfType(L->td, e);
        unsigned n = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t)
                                                              : LLVMGetArrayLength(t);
        for (unsigned i = 0; i < n; i++)
            constant_bytes(L, LLVMGetAggregateElement(c, i), e, out + i * step);
        return;
    }
    case LLVMStructTypeKind:
        memset(out, 0, size);
        for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++)
            constant_bytes(L, LLVMGetAggregateElement(c, i), LLVMStructGetTypeAtIndex(t, i),
                           out + LLVMOffsetOfElement(L->td, t, i));
        return;
    default:
        HLS_BUG("a __constant table holds a type the check pass should have refused");
    }
}

/* The ROM index of a program-scope __constant variable (made on first use). */
static int rom_of(lowering *L, LLVMValueRef gv)
{
    hls_program *p = L->c->program;
    for (int i = 0; i < p->nroms; i++)
        if (p->roms[i].llvm == gv)
            return i;
    if (p->nroms == p->caproms) {
        int cap = p->caproms ? 2 * p->caproms : 4;
        hls_rom *grown = arena_alloc(&L->c->arena, (size_t)cap * sizeof *grown);
        if (p->nroms)
            memcpy(grown, p->roms, (size_t)p->nroms * sizeof *grown);
        p->roms = grown;
        p->caproms = cap;
    }
    hls_rom *r = &p->roms[p->nroms];
    size_t len;
    r->name = arena_strdup(&L->c->arena, LLVMGetValueName2(gv, &len));
    r->llvm = gv;
    LLVMTypeRef t = LLVMGlobalGetValueType(gv);
    r->size = LLVMABISizeOfType(L->td, t);
    r->bytes = arena_alloc(&L->c->arena, r->size + 8);
    constant_bytes(L, LLVMGetInitializer(gv), t, r->bytes);
    return p->nroms++;
}

static int lower_gep(lowering *L, LLVMValueRef inst, hls_loc loc);

/* A work-item token field read by the whole kernel: an op at the start of the entry
 * block, so that it dominates every use. */
static int entry_token(lowering *L, hls_token_field field, int dim, unsigned width)
{
    hls_kernel *k = L->k;
    hls_op *op = hls_ir_new_op(k, &L->c->arena, HOP_TOKEN, width);
    op->imm = (uint64_t)field;
    op->dim = dim;
    op->block = 0;
    hls_block *entry = &k->blocks[0];
    hls_ir_push(&L->c->arena, &entry->ops, &entry->nops, &entry->capops, op->id);
    memmove(entry->ops + 1, entry->ops, (size_t)(entry->nops - 1) * sizeof *entry->ops);
    entry->ops[0] = op->id;
    return op->id;
}

/* The size of the work-item's group in dimension dim (3: work-items in all), when every
 * launch has the one reqd_work_group_size gives (work-groups uniform: the runtime
 * refuses any other); 0 when it is only known at run time. A constant is not carried
 * with every work-item through the FIFOs and barriers after it. */
static unsigned fixed_group_size(const lowering *L, int dim)
{
    const hls_kernel *k = L->k;
    if (!L->c->opts.uniform_wg || !k->reqd_wg_size[0] || k->simd > 1)
        return 0;
    if (dim < 3)
        return k->reqd_wg_size[dim] ? k->reqd_wg_size[dim] : 1;
    return k->reqd_wg_size[0] * (k->reqd_wg_size[1] ? k->reqd_wg_size[1] : 1) *
           (k->reqd_wg_size[2] ? k->reqd_wg_size[2] : 1);
}

/* The work-item's group size in dimension dim (3: work-items in all), 32 bits: a
 * constant when fixed, else the token's field. */
static int group_size(lowering *L, int dim)
{
    unsigned fixed = fixed_group_size(L, dim);
    if (fixed)
        return constant(L, 32, fixed);
    return dim == 3 ? entry_token(L, HLS_TOK_GROUP_LINEAR_SIZE, 0, 32)
                    : entry_token(L, HLS_TOK_GROUP_SIZE, dim, 32);
}

/* The work-group slot of the work-item (local memory copies and barrier entries). */
static int work_group_slot(lowering *L)
{
    if (L->k->slot_op < 0)
        L->k->slot_op = entry_token(L, HLS_TOK_SLOT, 0, HLS_SLOT_BITS);
    return L->k->slot_op;
}

/* A new local memory of the kernel; its hardware size is decided once all are known
 * (size_local_memories). */
static int new_local(lowering *L, const char *name, int arg, void *llvm, uint64_t size)
{
    hls_kernel *k = L->k;
    if (k->nlocals == k->caplocals) {
        int cap = k->caplocals ? 2 * k->caplocals : 4;
        hls_local *grown = arena_alloc(&L->c->arena, (size_t)cap * sizeof *grown);
        if (k->nlocals)
            memcpy(grown, k->locals, (size_t)k->nlocals * sizeof *grown);
        k->locals = grown;
        k->caplocals = cap;
    }
    hls_local *m = &k->locals[k->nlocals];
    m->name = name;
    m->arg = arg;
    m->llvm = llvm;
    m->size = size;
    m->word_bits = 8;
    m->slot_shift = hls_ir_new_op(k, &L->c->arena, HOP_CONST, 64)->id;
    return k->nlocals++;
}

/* Byte address 0 of local memory m (an invariant: each memory has its own space). */
static int local_base_op(lowering *L, int m)
{
    int id = find_same(L, HOP_LOCAL, 64, 0, 0, 0, (uint64_t)m);
    if (id < 0) {
        hls_op *op = emit(L, HOP_LOCAL, 64, (hls_loc){0});
        op->imm = (uint64_t)m;
        id = op->id;
    }
    return id;
}

/* The local memory of a __local array declared in the kernel (made on first use). */
static int local_array(lowering *L, LLVMValueRef gv)
{
    for (int i = 0; i < L->k->nlocals; i++)
        if (L->k->locals[i].llvm == gv)
            return i;
    size_t len;
    const char *name = LLVMGetValueName2(gv, &len), *dot = strrchr(name, '.');
    return new_local(L, arena_strdup(&L->c->arena, dot ? dot + 1 : name), -1, gv,
                     LLVMABISizeOfType(L->td, LLVMGlobalGetValueType(gv)));
}

/* The op computing LLVM value v (constants are materialised on demand). */
static int value(lowering *L, LLVMValueRef v)
{
    int known = hls_value_map_get(&L->map, v);
    if (known >= 0)
        return known;
    unsigned w = width_of(LLVMTypeOf(v));
    int id;
    if (LLVMIsAConstantInt(v)) {
        id = constant(L, w, LLVMConstIntGetZExtValue(v));
    } else if (LLVMIsAConstantFP(v)) {
        LLVMBool lost;
        double d = LLVMConstRealGetDouble(v, &lost);
        if (w == 64) {
            uint64_t bits;
            memcpy(&bits, &d, 8);
            id = constant(L, 64, bits);
        } else {
            float f = (float)d;
            uint32_t bits;
            memcpy(&bits, &f, 4);
            id = constant(L, 32, bits);
        }
    } else if (LLVMIsAGlobalVariable(v) && LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3) {
        return local_base_op(L, local_array(L, v));
    } else if (LLVMIsAGlobalVariable(v)) {
        int rom = rom_of(L, v);
        id = find_same(L, HOP_ROM, 64, 0, 0, 0, (uint64_t)rom);
        if (id < 0) {
            hls_op *op = emit(L, HOP_ROM, 64, (hls_loc){0});
            op->imm = (uint64_t)rom;
            id = op->id;
        }
    } else if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMAddrSpaceCast) {
        return value(L, LLVMGetOperand(v, 0)); /* a __local array as a generic pointer */
    } else if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr) {
        /* computed where it is used, so not remembered: the next use may be in a block
         * this one does not dominate */
        return lower_gep(L, v, (hls_loc){0});
    } else if (LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v) ||
               LLVMIsAConstantAggregateZero(v)) {
        id = constant(L, w ? w : 64, 0);
    } else if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v)) {
        /* the initial value of a private array in registers: its bytes */
        unsigned char *bytes = arena_alloc(&L->c->arena, w / 8 + 8);
        constant_bytes(L, v, LLVMTypeOf(v), bytes);
        uint64_t low = 0;
        for (unsigned i = 0; i < 8 && i < w / 8; i++)
            low |= (uint64_t)bytes[i] << (8 * i);
        if (w <= 64) {
            id = constant(L, w, low);
        } else {
            hls_op *op = emit(L, HOP_CONST, w, (hls_loc){0});
            op->wide = bytes;
            id = op->id;
        }
    } else {
        HLS_BUG("value without an op (lowering saw an operand before its definition)");
    }
    map_put(L, v, id);
    return id;
}

/* Resizes op `id` of width `from` to width `to` (zero or sign extension). */
static int resize(lowering *L, int id, unsigned from, unsigned to, int sign, hls_loc loc)
{
    if (from == to)
        return id;
    if (from > to)
        return op1(L, HOP_TRUNC, to, id, loc);
    return op1(L, sign ? HOP_SEXT : HOP_ZEXT, to, id, loc);
}

/* A shufflevector (its mask is constant): every lane an element of either operand,
 * moved into place (wires); a lane the mask leaves undefined is 0. */
static int lower_shuffle(lowering *L, LLVMValueRef inst, unsigned width, hls_loc loc)
{
    LLVMTypeRef in = LLVMTypeOf(LLVMGetOperand(inst, 0));
    int lanes_in = (int)LLVMGetVectorSize(in);
    unsigned bits = width_of(LLVMGetElementType(in));
    int from[2] = {value(L, LLVMGetOperand(inst, 0)), value(L, LLVMGetOperand(inst, 1))};
    int result = constant(L, width, 0);
    for (unsigned lane = 0, n = LLVMGetNumMaskElements(inst); lane < n; lane++) {
        int m = LLVMGetMaskValue(inst, lane);
        if (m < 0) /* LLVMGetUndefMaskElem() */
            continue;
        int element = op2(L, HOP_EXTRACT, bits, from[m / lanes_in],
                          constant(L, 32, (uint64_t)(m % lanes_in)), loc);
        L->k->ops[element].imm = bits;
        hls_op *op = emit(L, HOP_INSERT, width, loc);
        op->nargs = 3;
        op->args[0] = result, op->args[1] = element, op->args[2] = constant(L, 32, lane);
        op->imm = bits;
        result = op->id;
    }
    return result;
}

static int lower_gep(lowering *L, LLVMValueRef inst, hls_loc loc)
{
    int addr = value(L, LLVMGetOperand(inst, 0));
    LLVMTypeRef type = LLVMGetGEPSourceElementType(inst);
    unsigned n = (unsigned)LLVMGetNumIndices(inst);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(inst, i + 1);
        if (i > 0 && LLVMGetTypeKind(type) == LLVMStructTypeKind) {
            unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
            uint64_t off = LLVMOffsetOfElement(L->td, type, field);
            if (off)
                addr = op2(L, HOP_ADD, 64, addr, constant(L, 64, off), loc);
            type = LLVMStructGetTypeAtIndex(type, field);
            continue;
        }
        if (i > 0)
            type = LLVMGetElementType(type);
        uint64_t size = LLVMABISizeOfType(L->td, type);
        if (LLVMIsAConstantInt(idx)) {
            uint64_t off = (uint64_t)LLVMConstIntGetSExtValue(idx) * size;
            if (off)
                addr = op2(L, HOP_ADD, 64, addr, constant(L, 64, off), loc);
            continue;
        }
        int index = resize(L, value(L, idx), width_of(LLVMTypeOf(idx)), 64, 1, loc);
        int scaled;
        if (size && !(size & (size - 1))) {
            int shift = __builtin_ctzll(size);
            scaled = shift ? op2(L, HOP_SHL, 64, index, constant(L, 64, (uint64_t)shift), loc)
                           : index;
        } else {
            scaled = op2(L, HOP_MUL, 64, index, constant(L, 64, size), loc);
        }
        addr = op2(L, HOP_ADD, 64, addr, scaled, loc);
    }
    return addr;
}

static int memory_access(lowering *L, hls_opcode opc, LLVMValueRef ptr, int data,
                         unsigned width, hls_loc loc);

/* A barrier for the work-item's group: it waits in the barrier unit for the rest. */
static void barrier(lowering *L, uint64_t flags, hls_loc loc)
{
    if (L->lin_id < 0) {
        L->lin_id = entry_token(L, HLS_TOK_LOCAL_LINEAR_ID, 0, 32);
        L->lin_size = group_size(L, 3);
    }
    int slot = work_group_slot(L);
    hls_op *op = emit(L, HOP_BARRIER, 1, loc);
    op->nargs = 3;
    op->args[0] = slot, op->args[1] = L->lin_id, op->args[2] = L->lin_size;
    op->imm = flags;
}

/* A read-modify-write at ptr: the old value (compare: the expected value of a
 * compare-exchange, or -1). */
static int atomic(lowering *L, hls_atomic_op aop, LLVMValueRef ptr, int operand, int compare,
                  unsigned w, hls_loc loc)
{
    int id = memory_access(L, HOP_ATOMIC, ptr, -1, w, loc);
    hls_op *op = &L->k->ops[id];
    op->nargs = compare >= 0 ? 3 : 2;
    op->args[1] = operand, op->args[2] = compare;
    op->imm = aop;
    return id;
}

/* LLVM's atomicrmw (the OpenCL C 2.0 atomic functions of hls/library/atomics.cl). */
static int lower_atomicrmw(lowering *L, LLVMValueRef inst, unsigned w, hls_loc loc)
{
    static const struct { LLVMAtomicRMWBinOp llvm; hls_atomic_op op; } ops[] = {
        {LLVMAtomicRMWBinOpXchg, HLS_ATOMIC_XCHG}, {LLVMAtomicRMWBinOpAdd, HLS_ATOMIC_ADD},
        {LLVMAtomicRMWBinOpSub, HLS_ATOMIC_SUB}, {LLVMAtomicRMWBinOpAnd, HLS_ATOMIC_AND},
        {LLVMAtomicRMWBinOpOr, HLS_ATOMIC_OR}, {LLVMAtomicRMWBinOpXor, HLS_ATOMIC_XOR},
        {LLVMAtomicRMWBinOpMax, HLS_ATOMIC_MAX}, {LLVMAtomicRMWBinOpMin, HLS_ATOMIC_MIN},
        {LLVMAtomicRMWBinOpUMax, HLS_ATOMIC_UMAX}, {LLVMAtomicRMWBinOpUMin, HLS_ATOMIC_UMIN},
    };
    LLVMAtomicRMWBinOp llvm = LLVMGetAtomicRMWBinOp(inst);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i].llvm == llvm)
            return atomic(L, ops[i].op, LLVMGetOperand(inst, 0),
                          value(L, LLVMGetOperand(inst, 1)), -1, w, loc);
    HLS_BUG("lowering met an atomicrmw the check pass accepted (%d)", (int)llvm);
}

/* A channel access (channels.c): a blocking or non-blocking read or write of the
 * program's channel, or the valid flag of the non-blocking read just lowered. */
static int channel_access(lowering *L, LLVMValueRef inst, hls_channel_fn fn, unsigned w,
                          hls_loc loc)
{
    int ch = (int)LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 0));
    unsigned bits = L->c->channels[ch].bits;
    if (!L->nb_read) {
        L->nb_read = arena_alloc(&L->c->arena, (size_t)L->c->nchannels * sizeof *L->nb_read);
        for (int i = 0; i < L->c->nchannels; i++)
            L->nb_read[i] = -1;
    }
    if (fn == HLS_CHANNEL_DEPTH)
        return constant(L, w, (uint64_t)L->c->channels[ch].depth);
    if (fn == HLS_CHANNEL_COUNT) { /* the entries now, from the FIFO's count */
        const hls_channel *c = &L->c->channels[ch];
        int kernel = L->c->program->nkernels; /* this kernel's index, as channels.c counts */
        if (c->writer != kernel && c->reader != kernel) {
            hls_error(&L->c->diag, loc, "kernel '%s' counts the packets of pipe '%s', which it "
                      "neither reads nor writes: only the two kernels a pipe joins see its "
                      "packets", L->k->name, c->name);
            return constant(L, w, 0);
        }
        hls_op *op = emit(L, HOP_CHAN_READ, w, loc);
        op->chan = ch;
        op->imm = HLS_CHAN_COUNT;
        return op->id;
    }
    if (fn == HLS_CHANNEL_READ_VALID) { /* the valid bit, above the element */
        int valid = op2(L, HOP_EXTRACT, 1, L->nb_read[ch], constant(L, 32, bits), loc);
        L->k->ops[valid].imm = 1;
        return op1(L, HOP_ZEXT, w, valid, loc);
    }
    int nb = fn == HLS_CHANNEL_READ_NB || fn == HLS_CHANNEL_WRITE_NB;
    int write = fn == HLS_CHANNEL_WRITE || fn == HLS_CHANNEL_WRITE_NB;
    hls_op *op = emit(L, write ? HOP_CHAN_WRITE : HOP_CHAN_READ,
                      write ? (nb ? 1 : bits) : bits + (unsigned)nb, loc);
    op->chan = ch;
    op->imm = (uint64_t)nb;
    if (write) {
        op->nargs = 1;
        op->args[0] = value(L, LLVMGetOperand(inst, 1));
        return nb ? op->id : -1;
    }
    if (!nb)
        return op->id;
    L->nb_read[ch] = op->id;
    /* the element below the valid bit (an extract: it may be wider than 64 bits) */
    int element = op2(L, HOP_EXTRACT, bits, op->id, constant(L, 32, 0), loc);
    L->k->ops[element].imm = bits;
    return element;
}

static int lower_call(lowering *L, LLVMValueRef inst, hls_loc loc)
{
    LLVMValueRef callee = LLVMGetCalledValue(inst);
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    unsigned w = width_of(LLVMTypeOf(inst));
    if (!strcmp(name, HLS_AUTORUN_AGAIN)) /* an autorun kernel's body runs again */
        return constant(L, 1, 1);
    hls_channel_fn channel_fn = hls_find_channel_fn(name);
    if (channel_fn != HLS_CHANNEL_NONE)
        return channel_access(L, inst, channel_fn, w, loc);
    const hls_workitem_fn *wi = hls_find_workitem_fn(name);
    if (wi) {
        unsigned dim = LLVMGetNumArgOperands(inst)
                           ? (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 0))
                           : 0;
        if (dim > 2)
            return constant(L, w, wi->out_of_range);
        unsigned fixed = wi->opc == HOP_TOKEN && wi->field == HLS_TOK_GROUP_SIZE
                             ? fixed_group_size(L, (int)dim) : 0;
        if (fixed)
            return constant(L, w, fixed);
        hls_op *op = emit(L, wi->opc, w, loc);
        op->imm = (uint64_t)wi->field;
        op->dim = (int)dim;
        return op->id;
    }
    hls_sync_kind sync;
    if (!hls_find_sync_fn(name, &sync)) {
        LLVMValueRef flags = LLVMGetOperand(inst, 0);
        uint64_t fence = LLVMIsAConstantInt(flags) ? LLVMConstIntGetZExtValue(flags) : ~0ull;
        if (sync == HLS_SYNC_BARRIER)
            barrier(L, fence == ~0ull ? 3 : fence, loc);
        else if (fence & HLS_CHANNEL_MEM_FENCE) /* memorder.c orders the channels */
            L->k->channel_fence = 1;
        return -1;
    }
    uint64_t coll;
    int ids;
    if (!hls_find_collective(name, &coll, &ids)) {
        /* a barrier whose unit also computes the function; a broadcast names its
         * work-item by local id: x + y * size_x + z * size_x * size_y */
        int v = value(L, LLVMGetOperand(inst, 0)), chosen = -1, stride = -1;
        for (int d = 0; d < ids; d++) {
            LLVMValueRef id = LLVMGetOperand(inst, (unsigned)d + 1);
            int x = resize(L, value(L, id), width_of(LLVMTypeOf(id)), 32, 0, loc);
            if (d == 0) {
                chosen = x;
                continue;
            }
            int size = group_size(L, d - 1);
            stride = stride < 0 ? size : op2(L, HOP_MUL, 32, stride, size, loc);
            chosen = op2(L, HOP_ADD, 32, chosen, op2(L, HOP_MUL, 32, x, stride, loc), loc);
        }
        barrier(L, 3, loc);
        hls_op *op = emit(L, HOP_COLLECTIVE, w, loc);
        op->nargs = chosen < 0 ? 1 : 2;
        op->args[0] = v, op->args[1] = chosen;
        op->imm = coll;
        return op->id;
    }
    hls_atomic_op aop;
    int implied;
    if (!hls_find_atomic(name, &aop, &implied)) {
        /* atomic_cmpxchg(p, compare, value); atomic_inc(p), atomic_dec(p) */
        int cmpxchg = aop == HLS_ATOMIC_CMPXCHG;
        int operand = implied >= 0 ? constant(L, w, (uint64_t)implied)
                                   : value(L, LLVMGetOperand(inst, cmpxchg ? 2 : 1));
        int compare = cmpxchg ? value(L, LLVMGetOperand(inst, 1)) : -1;
        return atomic(L, aop, LLVMGetOperand(inst, 0), operand, compare, w, loc);
    }
    hls_intrinsic kind;
    if (hls_find_intrinsic(name, &kind))
        HLS_BUG("lowering met a call the check pass accepted: %s", name);
    int a = -1, b = -1, c = -1;
    unsigned nops = (unsigned)LLVMGetNumArgOperands(inst);
    if (kind != HLS_INTR_NONE) {
        a = value(L, LLVMGetOperand(inst, 0));
        b = nops > 1 ? value(L, LLVMGetOperand(inst, 1)) : -1;
        c = nops > 2 ? value(L, LLVMGetOperand(inst, 2)) : -1;
    }
    int zero = kind != HLS_INTR_NONE ? constant(L, w, 0) : -1;
    switch (kind) {
    case HLS_INTR_NONE:
        return -1;
    case HLS_INTR_FMULADD:
        return op2(L, HOP_FADD, w, op2(L, HOP_FMUL, w, a, b, loc), c, loc);
    case HLS_INTR_FMA: {
        hls_op *op = emit(L, HOP_FMA, w, loc);
        op->nargs = 3;
        op->args[0] = a, op->args[1] = b, op->args[2] = c;
        return op->id;
    }
    case HLS_INTR_SQRT:
        return op1(L, HOP_FSQRT, w, a, loc);
    case HLS_INTR_FABS:
        return op2(L, HOP_AND, w, a, constant(L, w, ~0ull >> (65 - w)), loc);
    case HLS_INTR_COPYSIGN: {
        int magnitude = op2(L, HOP_AND, w, a, constant(L, w, ~0ull >> (65 - w)), loc);
        int sign = op2(L, HOP_AND, w, b, constant(L, w, 1ull << (w - 1)), loc);
        return op2(L, HOP_OR, w, magnitude, sign, loc);
    }
    case HLS_INTR_SMIN: return select_op(L, w, icmp(L, LLVMIntSLT, a, b, loc), a, b, loc);
    case HLS_INTR_SMAX: return select_op(L, w, icmp(L, LLVMIntSGT, a, b, loc), a, b, loc);
    case HLS_INTR_UMIN: return select_op(L, w, icmp(L, LLVMIntULT, a, b, loc), a, b, loc);
    case HLS_INTR_UMAX: return select_op(L, w, icmp(L, LLVMIntUGT, a, b, loc), a, b, loc);
    case HLS_INTR_ABS:
        return select_op(L, w, icmp(L, LLVMIntSLT, a, zero, loc),
                         op2(L, HOP_SUB, w, zero, a, loc), a, loc);
    case HLS_INTR_UADD_SAT: { /* a + b, all ones when it wraps */
        int sum = op2(L, HOP_ADD, w, a, b, loc);
        return select_op(L, w, icmp(L, LLVMIntULT, sum, a, loc), constant(L, w, ~0ull), sum,
                         loc);
    }
    case HLS_INTR_USUB_SAT:
        return select_op(L, w, icmp(L, LLVMIntUGT, b, a, loc), zero,
                         op2(L, HOP_SUB, w, a, b, loc), loc);
    case HLS_INTR_SADD_SAT: case HLS_INTR_SSUB_SAT: {
        /* overflow when the result's sign differs from what the operands' signs allow;
         * then the limit on a's side */
        int add = kind == HLS_INTR_SADD_SAT;
        int r = op2(L, add ? HOP_ADD : HOP_SUB, w, a, b, loc);
        int differ = op2(L, HOP_XOR, w, a, b, loc);
        int same = add ? op2(L, HOP_XOR, w, differ, constant(L, w, ~0ull), loc) : differ;
        int flips = op2(L, HOP_AND, w, same, op2(L, HOP_XOR, w, a, r, loc), loc);
        uint64_t min = 1ull << (w - 1);
        int limit = select_op(L, w, icmp(L, LLVMIntSLT, a, zero, loc), constant(L, w, min),
                              constant(L, w, min - 1), loc);
        return select_op(L, w, icmp(L, LLVMIntSLT, flips, zero, loc), limit, r, loc);
    }
    case HLS_INTR_FSHL: case HLS_INTR_FSHR: {
        /* funnel shifts (rotates): the shift amount is taken modulo the width */
        int left = kind == HLS_INTR_FSHL;
        int amount = op2(L, HOP_AND, w, c, constant(L, w, w - 1), loc);
        int rest = op2(L, HOP_SUB, w, constant(L, w, w), amount, loc);
        int shifted = op2(L, HOP_OR, w, op2(L, left ? HOP_SHL : HOP_LSHR, w, left ? a : b,
                                            amount, loc),
                          op2(L, left ? HOP_LSHR : HOP_SHL, w, left ? b : a, rest, loc), loc);
        return select_op(L, w, icmp(L, LLVMIntEQ, amount, zero, loc), left ? a : b, shifted,
                         loc);
    }
    }
    HLS_BUG("intrinsic %s has no lowering", name);
}

/* A global atomic (operand and compare value in one request) on a port narrower than
 * HLS_ATOMIC_MIN_PORT_BITS cannot be built. */
static void check_atomic_port(lowering *L, const hls_op *op)
{
    const board_t *b = L->c->req->board;
    if (op->opc == HOP_ATOMIC && b->mem_width_bits < HLS_ATOMIC_MIN_PORT_BITS)
        hls_error(&L->c->diag, op->loc, "an atomic operation on __global memory (an atomic "
                  "function, or printf claiming room in its buffer) needs a memory port of at "
                  "least %d bits, for the operand and the compare value travel in one request; "
                  "board '%s' has %u", HLS_ATOMIC_MIN_PORT_BITS, b->name, b->mem_width_bits);
}

/* One access op of `width` bits at addr (a store's data: `data`, else -1). */
static hls_op *access_op(lowering *L, hls_opcode opc, int addr, int data, unsigned width,
                         int space, hls_loc loc)
{
    hls_op *op = emit(L, opc, width, loc);
    op->nargs = data >= 0 ? 2 : 1;
    op->args[0] = addr;
    op->args[1] = data;
    op->addr_space = space;
    return op;
}

/* A load or store of __global memory wider than the board's memory port (a float16 on a
 * 256-bit port, a double on a 32-bit one) is one access per port-wide piece at
 * consecutive addresses, each with its own load-store unit: a load's pieces are put
 * together into its value, a store's data is taken apart. Returns the loaded value. */
static int split_access(lowering *L, hls_opcode opc, int addr, int data, unsigned width,
                        int space, hls_loc loc)
{
    unsigned piece = L->c->req->board->mem_width_bits;
    int whole = opc == HOP_LOAD ? constant(L, width, 0) : -1;
    for (unsigned i = 0; i < width / piece; i++) {
        int at = i ? op2(L, HOP_ADD, 64, addr, constant(L, 64, i * piece / 8), loc) : addr;
        int part = -1;
        if (opc == HOP_STORE) {
            part = op2(L, HOP_EXTRACT, piece, data, constant(L, 32, i), loc);
            L->k->ops[part].imm = piece;
        }
        hls_op *op = access_op(L, opc, at, part, piece, space, loc);
        op->lsu = L->k->nlsus++;
        if (opc == HOP_LOAD) {
            hls_op *ins = emit(L, HOP_INSERT, width, loc);
            ins->nargs = 3;
            ins->args[0] = whole, ins->args[1] = op->id, ins->args[2] = constant(L, 32, i);
            ins->imm = piece;
            whole = ins->id;
        }
    }
    return whole;
}

/* A load, store (data: the stored value, else -1) or atomic at ptr; returns the op (a
 * load's value). */
static int memory_access(lowering *L, hls_opcode opc, LLVMValueRef ptr, int data,
                         unsigned width, hls_loc loc)
{
    uint64_t offset;
    LLVMValueRef param = hls_llvm_byval_field(L->td, ptr, &offset);
    if (param) { /* a field of a struct argument: bits of the argument area */
        int arg = 0;
        for (LLVMValueRef p = LLVMGetFirstParam(LLVMGetParamParent(param)); p != param;
             p = LLVMGetNextParam(p))
            arg++;
        hls_op *op = emit(L, HOP_ARG, width, loc);
        op->arg = arg;
        op->imm = offset;
        return op->id;
    }
    int addr = value(L, ptr), base = addr;
    while (L->k->ops[base].opc == HOP_ADD)
        base = L->k->ops[base].args[0];
    int space = (int)LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)), local = -1;
    if (space == 3) {
        /* each work-group slot has its own copy: the slot selects it */
        if (L->k->ops[base].opc == HOP_LOCAL) {
            local = (int)L->k->ops[base].imm;
            int slot = resize(L, work_group_slot(L), HLS_SLOT_BITS, 64, 0, loc);
            addr = op2(L, HOP_ADD, 64, addr,
                       op2(L, HOP_SHL, 64, slot, L->k->locals[local].slot_shift, loc), loc);
        } else { /* the build fails; the op stays well-formed */
            hls_error(&L->c->diag, loc, "cannot tell which __local array this access uses "
                      "(a pointer chosen at run time); index the array itself instead");
        }
    }
    int rom = local < 0 && L->k->ops[base].opc == HOP_ROM && opc == HOP_LOAD;
    if (local < 0 && !rom && opc != HOP_ATOMIC && width > L->c->req->board->mem_width_bits)
        return split_access(L, opc, addr, data, width, space, loc);
    hls_op *op = access_op(L, opc, addr, data, width, space, loc);
    if (local >= 0) {
        hls_local *m = &L->k->locals[local];
        op->lmem = local;
        op->lport = m->nports++;
        m->atomics |= opc == HOP_ATOMIC;
        if (width > m->word_bits)
            m->word_bits = width;
    } else if (rom) {
        op->rom = (int)L->k->ops[base].imm; /* a table in ROM: no load-store unit */
    } else {
        op->lsu = L->k->nlsus++;
        check_atomic_port(L, op);
    }
    return op->id;
}

/* Lowers one instruction; returns the op id of its value, or -1 for none. */
static int lower_instruction(lowering *L, LLVMValueRef inst)
{
    hls_loc loc = hls_llvm_loc(L->c, inst);
    LLVMOpcode opc = LLVMGetInstructionOpcode(inst);
    unsigned w = width_of(LLVMTypeOf(inst));
#define OPERAND(i) value(L, LLVMGetOperand(inst, (i)))
    static const struct { LLVMOpcode llvm; hls_opcode hop; } binary[] = {
        {LLVMAdd, HOP_ADD}, {LLVMSub, HOP_SUB}, {LLVMMul, HOP_MUL}, {LLVMAnd, HOP_AND},
        {LLVMOr, HOP_OR}, {LLVMXor, HOP_XOR}, {LLVMShl, HOP_SHL}, {LLVMLShr, HOP_LSHR},
        {LLVMAShr, HOP_ASHR}, {LLVMFAdd, HOP_FADD}, {LLVMFSub, HOP_FSUB},
        {LLVMFMul, HOP_FMUL}, {LLVMFDiv, HOP_FDIV},
    };
    for (size_t i = 0; i < sizeof binary / sizeof *binary; i++)
        if (binary[i].llvm == opc)
            return op2(L, binary[i].hop, w, OPERAND(0), OPERAND(1), loc);
    static const struct { LLVMOpcode llvm; hls_opcode hop; } convert[] = {
        {LLVMSIToFP, HOP_SITOFP}, {LLVMUIToFP, HOP_UITOFP},
        {LLVMFPToSI, HOP_FPTOSI}, {LLVMFPToUI, HOP_FPTOUI},
    };
    for (size_t i = 0; i < sizeof convert / sizeof *convert; i++) {
        if (convert[i].llvm != opc)
            continue;
        /* The converters take and give 8, 16, 32 or 64-bit integers. */
        int to_float = opc == LLVMSIToFP || opc == LLVMUIToFP;
        LLVMValueRef src = LLVMGetOperand(inst, 0);
        unsigned iw = to_float ? width_of(LLVMTypeOf(src)) : w, cw = 8;
        while (cw < iw)
            cw *= 2;
        if (to_float)
            return op1(L, convert[i].hop, w,
                       resize(L, value(L, src), iw, cw, opc == LLVMSIToFP, loc), loc);
        int r = op1(L, convert[i].hop, cw, value(L, src), loc);
        return resize(L, r, cw, w, 0, loc);
    }
    static const struct { LLVMOpcode llvm; hls_opcode hop; } divide[] = {
        {LLVMUDiv, HOP_UDIV}, {LLVMSDiv, HOP_SDIV}, {LLVMURem, HOP_UREM}, {LLVMSRem, HOP_SREM},
    };
    for (size_t i = 0; i < sizeof divide / sizeof *divide; i++) {
        if (divide[i].llvm != opc)
            continue;
        /* The divider takes 8, 16, 32 or 64-bit operands. */
        int sign = opc == LLVMSDiv || opc == LLVMSRem;
        unsigned dw = 8;
        while (dw < w)
            dw *= 2;
        int a = resize(L, OPERAND(0), w, dw, sign, loc), b = resize(L, OPERAND(1), w, dw, sign, loc);
        return resize(L, op2(L, divide[i].hop, dw, a, b, loc), dw, w, 0, loc);
    }
    switch (opc) {
    case LLVMPHI: {
        hls_op *op = emit(L, HOP_PHI, w, loc);
        op->nin = (int)LLVMCountIncoming(inst);
        op->in_vals = arena_alloc(&L->c->arena, (size_t)op->nin * sizeof *op->in_vals);
        op->in_blocks = arena_alloc(&L->c->arena, (size_t)op->nin * sizeof *op->in_blocks);
        return op->id; /* incoming values are filled in once every block is lowered */
    }
    case LLVMBr: case LLVMSwitch: {
        hls_block *b = L->block;
        b->loc = loc;
        b->nsucc = (int)LLVMGetNumSuccessors(inst);
        b->succ = arena_alloc(&L->c->arena, (size_t)b->nsucc * sizeof *b->succ);
        for (int i = 0; i < b->nsucc; i++)
            b->succ[i] = hls_value_map_get(&L->blocks, LLVMBasicBlockAsValue(LLVMGetSuccessor(inst, (unsigned)i)));
        if (opc == LLVMSwitch) {
            b->term = HLS_TERM_SWITCH;
            b->cond = OPERAND(0);
            b->cases = arena_alloc(&L->c->arena, (size_t)b->nsucc * sizeof *b->cases);
            for (int i = 1; i < b->nsucc; i++)
                b->cases[i] = LLVMConstIntGetZExtValue(LLVMGetOperand(inst, (unsigned)(2 * i)));
        } else if (LLVMIsConditional(inst)) {
            b->term = HLS_TERM_CONDBR;
            b->cond = OPERAND(0);
        } else {
            b->term = HLS_TERM_BR;
        }
        return -1;
    }
    case LLVMUnreachable:
        L->block->term = HLS_TERM_RET;
        return -1;
    case LLVMICmp: {
        int id = op2(L, HOP_ICMP, 1, OPERAND(0), OPERAND(1), loc);
        L->k->ops[id].imm = LLVMGetICmpPredicate(inst);
        return id;
    }
    case LLVMFCmp: {
        int id = op2(L, HOP_FCMP, 1, OPERAND(0), OPERAND(1), loc);
        L->k->ops[id].imm = LLVMGetFCmpPredicate(inst);
        return id;
    }
    case LLVMSelect: {
        int args[3] = {OPERAND(0), OPERAND(1), OPERAND(2)};
        hls_op *op = emit(L, HOP_SELECT, w, loc);
        op->nargs = 3;
        memcpy(op->args, args, sizeof args);
        return op->id;
    }
    case LLVMFNeg:
        return op2(L, HOP_XOR, w, OPERAND(0), constant(L, w, 1ull << (w - 1)), loc);
    case LLVMFPExt:
        return op1(L, HOP_FPEXT, 64, OPERAND(0), loc);
    case LLVMFPTrunc:
        return op1(L, HOP_FPTRUNC, 32, OPERAND(0), loc);
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr: {
        LLVMValueRef src = LLVMGetOperand(inst, 0);
        return resize(L, value(L, src), width_of(LLVMTypeOf(src)), w, opc == LLVMSExt, loc);
    }
    case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMFreeze:
        return OPERAND(0);
    case LLVMGetElementPtr:
        return lower_gep(L, inst, loc);
    case LLVMExtractElement: {
        int vec = OPERAND(0), index = OPERAND(1);
        int id = op2(L, HOP_EXTRACT, w, vec, index, loc);
        L->k->ops[id].imm = w;
        return id;
    }
    case LLVMShuffleVector:
        return lower_shuffle(L, inst, w, loc);
    case LLVMInsertElement: {
        int args[3] = {OPERAND(0), OPERAND(1), OPERAND(2)};
        hls_op *op = emit(L, HOP_INSERT, w, loc);
        op->nargs = 3;
        memcpy(op->args, args, sizeof args);
        op->imm = width_of(LLVMTypeOf(LLVMGetOperand(inst, 1)));
        return op->id;
    }
    case LLVMLoad:
        return memory_access(L, HOP_LOAD, LLVMGetOperand(inst, 0), -1, w, loc);
    case LLVMStore: {
        LLVMValueRef v = LLVMGetOperand(inst, 0);
        memory_access(L, HOP_STORE, LLVMGetOperand(inst, 1), value(L, v),
                      width_of(LLVMTypeOf(v)), loc);
        return -1;
    }
    case LLVMCall:
        return lower_call(L, inst, loc);
    case LLVMAtomicRMW:
        return lower_atomicrmw(L, inst, w, loc);
    case LLVMAtomicCmpXchg: { /* {old, success}: the op gives old (see ExtractValue) */
        LLVMValueRef compare = LLVMGetOperand(inst, 1);
        return atomic(L, HLS_ATOMIC_CMPXCHG, LLVMGetOperand(inst, 0),
                      OPERAND(2), value(L, compare), width_of(LLVMTypeOf(compare)), loc);
    }
    case LLVMExtractValue: { /* of a compare-exchange: old, or old == expected */
        int old = OPERAND(0);
        if (LLVMGetIndices(inst)[0] == 0)
            return old;
        return icmp(L, LLVMIntEQ, old, L->k->ops[old].args[2], loc);
    }
    case LLVMFence:
        return -1;
    case LLVMRet:
        L->block->term = HLS_TERM_RET;
        L->block->loc = loc;
        return -1;
    default:
        HLS_BUG("lowering met an instruction the check pass accepted (opcode %d)", opc);
    }
#undef OPERAND
}

/* Reads operand i of the function metadata `kind` as a string ("" when absent). */
static const char *md_string(lowering *L, LLVMValueRef fn, const char *kind, unsigned i)
{
    return hls_llvm_function_md(L->c, fn, kind, i);
}

/* The OpenCL name of the type clang's vec_type_hint metadata holds (an undef value of
 * that type and 1 for a signed integer), or "" without the attribute. */
static const char *md_vec_type_hint(lowering *L, LLVMValueRef fn)
{
    LLVMValueRef ops[2];
    if (hls_llvm_function_md_operands(L->c, fn, "vec_type_hint", ops, 2) < 2)
        return "";
    LLVMTypeRef t = LLVMTypeOf(ops[0]);
    unsigned lanes = 1;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        lanes = LLVMGetVectorSize(t);
        t = LLVMGetElementType(t);
    }
    int is_signed = LLVMIsAConstantInt(ops[1]) && LLVMConstIntGetZExtValue(ops[1]);
    const char *name = "float";
    if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind)
        name = "double";
    else if (LLVMGetTypeKind(t) == LLVMHalfTypeKind)
        name = "half";
    else if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind) {
        static const char *const ints[][2] = {{"uchar", "char"}, {"ushort", "short"},
                                              {"uint", "int"}, {"ulong", "long"}};
        unsigned w = LLVMGetIntTypeWidth(t), i = w <= 8 ? 0 : w <= 16 ? 1 : w <= 32 ? 2 : 3;
        name = ints[i][is_signed];
    }
    return lanes > 1 ? arena_printf(&L->c->arena, "%s%u", name, lanes) : name;
}

static void md_dims(lowering *L, LLVMValueRef fn, const char *kind, unsigned out[3])
{
    for (unsigned d = 0; d < 3; d++) {
        const char *s = md_string(L, fn, kind, d);
        out[d] = *s ? (unsigned)strtoul(s, NULL, 10) : 0;
    }
}

static void lower_arguments(lowering *L, LLVMValueRef fn)
{
    hls_kernel *k = L->k;
    k->nargs = (int)LLVMCountParams(fn);
    k->args = arena_alloc(&L->c->arena, (size_t)(k->nargs + 1) * sizeof *k->args);
    int i = 0;
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p), i++) {
        hls_arg *a = &k->args[i];
        LLVMTypeRef t = LLVMTypeOf(p);
        size_t len;
        const char *llvm_name = LLVMGetValueName2(p, &len);
        a->name = md_string(L, fn, "kernel_arg_name", (unsigned)i);
        if (!*a->name)
            a->name = arena_strdup(&L->c->arena, llvm_name);
        a->type_name = md_string(L, fn, "kernel_arg_type", (unsigned)i);
        a->type_qual = md_string(L, fn, "kernel_arg_type_qual", (unsigned)i);
        a->access_qual = md_string(L, fn, "kernel_arg_access_qual", (unsigned)i);
        LLVMTypeRef byval = hls_llvm_byval_type(p);
        a->chan = -1;
        if (strstr(a->type_qual, "pipe")) {
            /* a FIFO joined when the program was built (channels.c): nothing to pass */
            a->kind = HLS_ARG_PIPE;
            for (int ch = 0; ch < L->c->nchannels; ch++)
                if (L->c->channels[ch].pipe && !strcmp(L->c->channels[ch].name, llvm_name))
                    a->chan = ch;
            a->size = a->chan >= 0 ? L->c->channels[a->chan].bits / 8 : 0;
            a->offset = k->arg_bytes;
            continue;
        }
        if (byval) {
            /* A struct passed by value: clSetKernelArg gives its bytes, laid out as
             * the host's compiler lays them out; loads read its fields (lower_load). */
            a->kind = HLS_ARG_SCALAR;
            a->size = (unsigned)LLVMABISizeOfType(L->td, byval);
        } else if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
            a->addr_space = (int)LLVMGetPointerAddressSpace(t);
            a->kind = a->addr_space == 3 ? HLS_ARG_LOCAL : HLS_ARG_BUFFER;
            a->size = 8;
            a->width = 64;
        } else {
            a->kind = HLS_ARG_SCALAR;
            a->width = width_of(t);
            /* A 3-element vector takes the room of 4, as the host's cl_float3 does. */
            a->size = (unsigned)LLVMABISizeOfType(L->td, t);
        }
        /* The argument area holds the arguments packed, each right after the one
         * before: registers have no alignment, so arguments whose sizes add up to
         * CL_DEVICE_MAX_PARAMETER_SIZE fit in any order. */
        a->area_bytes = a->kind == HLS_ARG_LOCAL ? 8 : a->size;
        a->offset = k->arg_bytes;
        k->arg_bytes = a->offset + a->area_bytes;
        if (byval) {
            map_put(L, p, constant(L, 64, 0)); /* no address: its fields are loads */
            continue;
        }
        if (a->kind == HLS_ARG_LOCAL) { /* its own local memory, sized at enqueue */
            map_put(L, p, local_base_op(L, new_local(L, a->name, i, NULL, 0)));
            continue;
        }
        hls_op *op = emit(L, HOP_ARG, a->width, k->loc);
        op->arg = i;
        map_put(L, p, op->id);
    }
    k->arg_bytes = (k->arg_bytes + 7) / 8 * 8;
}

/* Sizes the kernel's local memories once every access is known: __local arrays take
 * their size; the __local arguments share what the board has left, each up to the
 * largest power of two within an equal part. Each copy has a bank per port (at most
 * HLS_MAX_LOCAL_BANKS, at most one per word). */
static void size_local_memories(lowering *L)
{
    hls_kernel *k = L->k;
    uint64_t board = L->c->req->board->local_mem_bytes, fixed = 0;
    int nargs = 0;
    for (int i = 0; i < k->nlocals; i++) {
        fixed += k->locals[i].size;
        nargs += k->locals[i].arg >= 0;
    }
    if (fixed > board) {
        hls_error(&L->c->diag, k->loc, "kernel '%s' declares %llu bytes of __local arrays; "
                  "the board has %llu bytes of local memory per work-group", k->name,
                  (unsigned long long)fixed, (unsigned long long)board);
        return;
    }
    uint64_t share = nargs ? (board - fixed) / (uint64_t)nargs : 0, arg_max = 1;
    while (arg_max * 2 <= share)
        arg_max *= 2;
    for (int i = 0; i < k->nlocals; i++) {
        hls_local *m = &k->locals[i];
        if (m->arg >= 0)
            m->size = arg_max;
        uint64_t bytes = m->size > m->word_bits / 8 ? m->size : m->word_bits / 8;
        m->addr_bits = 0;
        while ((1ull << m->addr_bits) < bytes)
            m->addr_bits++;
        k->ops[m->slot_shift].imm = m->addr_bits;
        uint64_t words = (1ull << m->addr_bits) / (m->word_bits / 8);
        m->banks = 1;
        while (m->banks < m->nports && m->banks < HLS_MAX_LOCAL_BANKS &&
               (uint64_t)m->banks * 2 <= words)
            m->banks *= 2;
    }
}

/* The operands of metadata node md (as values; NULL for empty ones) in the arena. */
static LLVMValueRef *md_operands(lowering *L, LLVMValueRef md, unsigned *n)
{
    *n = LLVMGetMDNodeNumOperands(md);
    LLVMValueRef *ops = arena_alloc(&L->c->arena, (*n + 1) * sizeof *ops);
    LLVMGetMDNodeOperands(md, ops);
    return ops;
}

static int md_is(const char *name, unsigned len, const char *want)
{
    return len == strlen(want) && !strncmp(name, want, len);
}

/* The pragmas of the loop whose latch branch is `term` (its llvm.loop node), and the
 * access groups of its #pragma ivdep. */
static void loop_pragmas(lowering *L, LLVMValueRef term, hls_loop_pragmas *out)
{
    static const char loop_kind[] = "llvm.loop";
    LLVMValueRef md = LLVMGetMetadata(term, LLVMGetMDKindIDInContext(L->c->llvm, loop_kind,
                                                                     sizeof loop_kind - 1));
    if (!md || !LLVMIsAMDNode(md))
        return;
    unsigned n;
    LLVMValueRef *ops = md_operands(L, md, &n);
    for (unsigned i = 1; i < n; i++) {
        if (!ops[i] || !LLVMIsAMDNode(ops[i]))
            continue;
        LLVMMetadataRef m = LLVMValueAsMetadata(ops[i]);
        if (LLVMGetMetadataKind(m) == LLVMDILocationMetadataKind) {
            if (out->start.line)
                continue; /* the second location is the loop's end */
            out->start.line = LLVMDILocationGetLine(m);
            out->start.col = LLVMDILocationGetColumn(m);
            unsigned len = 0;
            const char *file = LLVMDIFileGetFilename(LLVMDIScopeGetFile(LLVMDILocationGetScope(m)),
                                                     &len);
            out->start.file = file && len ? arena_printf(&L->c->arena, "%.*s", (int)len, file)
                                          : L->c->source_name;
            continue;
        }
        unsigned nh, len = 0;
        LLVMValueRef *hint = md_operands(L, ops[i], &nh);
        const char *name = nh && hint[0] && LLVMIsAMDString(hint[0])
                               ? LLVMGetMDString(hint[0], &len) : NULL;
        if (!name)
            continue;
        if (md_is(name, len, "llvm.loop.pipeline.initiationinterval") && nh == 2 &&
            hint[1] && LLVMIsAConstantInt(hint[1]))
            out->ii = (int)LLVMConstIntGetZExtValue(hint[1]);
        else if (md_is(name, len, "llvm.loop.pipeline.disable"))
            out->no_pipelining = 1;
        else if (md_is(name, len, "llvm.loop.interleave.count") && nh == 2 && hint[1] &&
                 LLVMIsAConstantInt(hint[1]))
            out->max_concurrency = (int)LLVMConstIntGetZExtValue(hint[1]);
        else if (md_is(name, len, "llvm.loop.distribute.enable"))
            out->coalesce = 1;
        else if (md_is(name, len, "llvm.loop.vectorize.width") && nh == 2 && hint[1] &&
                 LLVMIsAConstantInt(hint[1]))
            out->max_interleaving = (int)LLVMConstIntGetZExtValue(hint[1]);
        else if (md_is(name, len, "llvm.loop.parallel_accesses") && nh > 1) {
            int number = 0;
            for (int g = 0; g < L->ngroups; g++)
                number = L->group_loop[g] > number ? L->group_loop[g] : number;
            if (++number > 64)
                continue; /* more such loops than bits: the others keep their checks */
            out->ivdep = number;
            LLVMValueRef *groups = arena_alloc(&L->c->arena,
                                               (size_t)(L->ngroups + (int)nh) * sizeof *groups);
            int *loops = arena_alloc(&L->c->arena, (size_t)(L->ngroups + (int)nh) * sizeof *loops);
            for (int g = 0; g < L->ngroups; g++)
                groups[g] = L->groups[g], loops[g] = L->group_loop[g];
            for (unsigned h = 1; h < nh; h++)
                if (hint[h])
                    groups[L->ngroups] = hint[h], loops[L->ngroups++] = number;
            L->groups = groups;
            L->group_loop = loops;
        }
    }
}

/* The #pragma ivdep loops that cover instruction inst (as bits), by its access groups
 * (one group, or a node listing several). */
static uint64_t ivdep_loops(lowering *L, LLVMValueRef inst)
{
    static const char group_kind[] = "llvm.access.group";
    LLVMValueRef md = LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(L->c->llvm, group_kind,
                                                                     sizeof group_kind - 1));
    if (!md || !LLVMIsAMDNode(md))
        return 0;
    unsigned n;
    LLVMValueRef *ops = md_operands(L, md, &n);
    if (!n)
        ops[0] = md, n = 1; /* the node is the group itself */
    uint64_t bits = 0;
    for (unsigned i = 0; i < n; i++)
        for (int g = 0; g < L->ngroups; g++)
            if (ops[i] == L->groups[g])
                bits |= 1ull << (L->group_loop[g] - 1);
    return bits;
}

/* The SIMD lane of instruction inst (simd.c's clhls.lane metadata), or -1. */
static int lane_of(lowering *L, LLVMValueRef inst)
{
    LLVMValueRef md = LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(L->c->llvm, HLS_LANE_MD,
                                                                     sizeof HLS_LANE_MD - 1));
    unsigned n;
    LLVMValueRef *ops = md && LLVMIsAMDNode(md) ? md_operands(L, md, &n) : NULL;
    return ops && n == 1 && LLVMIsAConstantInt(ops[0]) ? (int)LLVMConstIntGetZExtValue(ops[0])
                                                        : -1;
}

/* Post-order of the blocks reachable from bb (iterative DFS); returns the count. */
static int post_order(lowering *L, LLVMBasicBlockRef entry, LLVMBasicBlockRef *order, int n)
{
    LLVMBasicBlockRef *stack = arena_alloc(&L->c->arena, (size_t)n * sizeof *stack);
    unsigned *next = arena_alloc(&L->c->arena, (size_t)n * sizeof *next);
    hls_value_map seen;
    hls_value_map_init(&L->c->arena, &seen, 64);
    int sp = 0, count = 0;
    stack[sp] = entry, next[sp++] = 0;
    hls_value_map_set(&L->c->arena, &seen, LLVMBasicBlockAsValue(entry), 1);
    while (sp) {
        LLVMBasicBlockRef bb = stack[sp - 1];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        unsigned nsucc = term ? LLVMGetNumSuccessors(term) : 0;
        if (next[sp - 1] < nsucc) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(term, next[sp - 1]++);
            if (hls_value_map_get(&seen, LLVMBasicBlockAsValue(s)) < 0) {
                hls_value_map_set(&L->c->arena, &seen, LLVMBasicBlockAsValue(s), 1);
                stack[sp] = s, next[sp++] = 0;
            }
            continue;
        }
        order[count++] = bb;
        sp--;
    }
    return count;
}

static hls_kernel *lower_kernel(hls_compile *c, LLVMValueRef fn, LLVMTargetDataRef td)
{
    hls_kernel *k = arena_alloc(&c->arena, sizeof *k);
    size_t len;
    k->name = arena_strdup(&c->arena, LLVMGetValueName2(fn, &len));
    k->loc = hls_llvm_function_loc(c, fn);
    lowering L = {.c = c, .k = k, .td = td, .lin_id = -1, .lin_size = -1};
    k->slot_op = -1;
    hls_value_map_init(&c->arena, &L.map, 256);
    hls_value_map_init(&c->arena, &L.blocks, 64);

    /* Blocks in reverse post-order: the entry is block 0. */
    int n = (int)LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef order[n];
    int nreach = post_order(&L, LLVMGetEntryBasicBlock(fn), order, n);
    k->nblocks = nreach;
    k->blocks = arena_alloc(&c->arena, (size_t)nreach * sizeof *k->blocks);
    for (int i = 0; i < nreach; i++) {
        hls_value_map_set(&c->arena, &L.blocks, LLVMBasicBlockAsValue(order[nreach - 1 - i]), i);
        k->blocks[i].loop = -1; /* cfg.c knows better */
        k->blocks[i].idom = -1;
    }

    L.block = &k->blocks[0];
    lower_arguments(&L, fn);
    md_dims(&L, fn, "reqd_work_group_size", k->reqd_wg_size);
    const hls_vendor_attr *simd = hls_vendor_attribute(c, HLS_ATTR_NUM_SIMD_WORK_ITEMS, k->name,
                                                       NULL);
    k->simd = simd && simd->value > 1 ? simd->value : 1; /* simd.c made the lanes */
    k->reqd_wg_size[0] /= (unsigned)k->simd;              /* the hardware's work-items */
    md_dims(&L, fn, "work_group_size_hint", k->wg_size_hint);
    k->vec_type_hint = md_vec_type_hint(&L, fn);
    for (int b = 0; b < nreach; b++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(order[nreach - 1 - b]);
        if (term)
            loop_pragmas(&L, term, &k->blocks[b].pragmas);
    }
    for (int b = 0; b < nreach; b++) {
        L.block = &k->blocks[b];
        L.block_id = b;
        LLVMBasicBlockRef bb = order[nreach - 1 - b];
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            int before = k->nops;
            int id = lower_instruction(&L, i);
            if (id >= 0)
                map_put(&L, i, id);
            uint64_t ivdep = L.ngroups ? ivdep_loops(&L, i) : 0;
            int lane = k->simd > 1 ? lane_of(&L, i) : -1;
            for (int o = before; o < k->nops; o++)
                if (hls_ir_is_memory(&k->ops[o])) {
                    k->ops[o].ivdep = ivdep;
                    k->ops[o].lane = lane;
                }
        }
    }
    /* Phi operands, now that every value has its op (constants go to the entry). */
    L.block = &k->blocks[0];
    L.block_id = 0;
    for (int b = 0; b < nreach; b++) {
        LLVMBasicBlockRef bb = order[nreach - 1 - b];
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i);
             i = LLVMGetNextInstruction(i)) {
            int id = hls_value_map_get(&L.map, i), n = 0;
            for (int e = 0; e < k->ops[id].nin; e++) {
                LLVMBasicBlockRef from = LLVMGetIncomingBlock(i, (unsigned)e);
                int from_id = hls_value_map_get(&L.blocks, LLVMBasicBlockAsValue(from));
                if (from_id < 0)
                    continue; /* an edge from a block that is never reached */
                int v = value(&L, LLVMGetIncomingValue(i, (unsigned)e));
                k->ops[id].in_blocks[n] = from_id;
                k->ops[id].in_vals[n++] = v;
            }
            k->ops[id].nin = n;
        }
    }
    size_local_memories(&L);
    unsigned reqd = k->reqd_wg_size[0] * k->reqd_wg_size[1] * k->reqd_wg_size[2];
    k->max_wg = reqd ? reqd : c->req->board->max_work_group_size;
    k->autorun = hls_vendor_attribute(c, HLS_ATTR_AUTORUN, k->name, NULL) != NULL;
    return k;
}

/* Names the compute units: a kernel's name, or for a name longer than
 * HLS_MAX_UNIT_NAME its first part and the kernel's position ("..._k3"), made unique
 * against every kernel name. */
static void name_units(hls_compile *c, hls_program *p)
{
    for (int i = 0; i < p->nkernels; i++) {
        hls_kernel *k = p->kernels[i];
        k->unit = k->name;
        if (strlen(k->name) <= HLS_MAX_UNIT_NAME)
            continue;
        for (int tries = 0;; tries++) {
            k->unit = arena_printf(&c->arena, "%.*s_k%d%.*s", HLS_MAX_UNIT_NAME - 16, k->name,
                                   i, tries, "__________");
            int taken = 0;
            for (int j = 0; j < p->nkernels; j++)
                taken |= !strcmp(p->kernels[j]->name, k->unit);
            if (!taken)
                break;
        }
    }
}

int hls_lower(hls_compile *c)
{
    hls_program *p = arena_alloc(&c->arena, sizeof *p);
    p->board = c->req->board;
    p->uniform_wg = c->opts.uniform_wg;
    p->cl_std = c->opts.cl_std;
    p->channels = c->channels;
    p->nchannels = c->nchannels;
    int n = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn))
        n += !LLVMIsDeclaration(fn) && LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv;
    p->kernels = arena_alloc(&c->arena, (size_t)(n + 1) * sizeof *p->kernels);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->module);
    c->program = p;
    int before = c->diag.errors;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
            continue;
        hls_kernel *k = lower_kernel(c, fn, td);
        p->kernels[p->nkernels++] = k;
        if (k->arg_bytes > HLS_ARG_AREA_BYTES)
            hls_error(&c->diag, k->loc, "the arguments of kernel '%s' take %u bytes; at most %d "
                      "fit in the argument area (CL_DEVICE_MAX_PARAMETER_SIZE promises %d)",
                      k->name, k->arg_bytes, HLS_ARG_AREA_BYTES, HLS_MAX_PARAMETER_SIZE);
    }
    name_units(c, p);
    return c->diag.errors > before ? HLS_ERR_UNSUPPORTED : HLS_OK;
}
