/* Private arrays indexed at run time. LLVM's SROA already turns every private array
 * whose indices are all constants (after unrolling) into plain values; what is left
 * here are arrays a kernel indexes with a run-time value (a histogram `h[x & 7]++`,
 * a lookup in a small table it filled itself). Each becomes one wide value that
 * travels with its work-item through the pipeline, as registers: the array is
 * re-declared as a vector of its elements, a load becomes an extractelement (a
 * multiplexer), a store an insertelement (a decoder and a multiplexer per element),
 * a memset or a copy of a constant initialiser a store of the whole vector; SROA then
 * turns the vector into an SSA value with phis at merges and loop headers, which the
 * rest of the compiler handles like any other value. Arrays up to HLS_MAX_PRIVATE_BYTES
 * are kept this way. An access through an address chosen at run time (a select or phi
 * of element addresses, which LLVM makes of `c ? a[i] : b[j]`, or a pointer variable)
 * first becomes one access per array it may reach, through a getelementptr. A larger
 * array, one accessed with mixed sizes, or one whose address escapes (stored, passed
 * on, compared) is reported at the access. */
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <string.h>

#include "passes.h"

/* What the rewrite needs to know about one access of an array. */
typedef struct access {
    LLVMValueRef inst;   /* load, store, memset, memcpy or lifetime marker */
    LLVMValueRef ptr;    /* the address it uses (loads and stores) */
} access;

typedef struct array_uses {
    access *items;       /* the accesses */
    int n, cap;          /* used / allocated */
    LLVMValueRef *geps;  /* the getelementptrs in between, in discovery order */
    int ngeps, capgeps;  /* used / allocated */
    unsigned elem;       /* bytes of every load and store (0 before the first) */
} array_uses;

/* items (n of them, room for *cap, in the arena) with room for one more. */
static void *grow(hls_compile *c, void *items, int n, int *cap, size_t size)
{
    if (n < *cap)
        return items;
    *cap = *cap ? 2 * *cap : 16;
    void *grown = arena_alloc(&c->arena, (size_t)*cap * size);
    if (n)
        memcpy(grown, items, (size_t)n * size);
    return grown;
}

static void push_access(hls_compile *c, array_uses *u, LLVMValueRef inst, LLVMValueRef ptr)
{
    u->items = grow(c, u->items, u->n, &u->cap, sizeof *u->items);
    u->items[u->n++] = (access){inst, ptr};
}

static void push_gep(hls_compile *c, array_uses *u, LLVMValueRef gep)
{
    u->geps = grow(c, u->geps, u->ngeps, &u->capgeps, sizeof *u->geps);
    u->geps[u->ngeps++] = gep;
}

/* Collects every use of `ptr` (the array or an address inside it); 0 on success, or
 * reports the use the array cannot be kept in registers for. */
static int collect(hls_compile *c, LLVMValueRef array, LLVMValueRef ptr, uint64_t size,
                   array_uses *u)
{
    for (LLVMUseRef use = LLVMGetFirstUse(ptr); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        hls_loc loc = hls_llvm_diag_loc(c, user);
        LLVMTypeRef t = NULL;
        if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == ptr) {
            push_gep(c, u, user);
            if (collect(c, array, user, size, u))
                return 1;
            continue;
        }
        if (LLVMIsALoadInst(user))
            t = LLVMTypeOf(user);
        else if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == ptr &&
                 LLVMGetOperand(user, 0) != ptr)
            t = LLVMTypeOf(LLVMGetOperand(user, 0));
        if (t) {
            LLVMTypeKind kind = LLVMGetTypeKind(t);
            if (kind != LLVMIntegerTypeKind && kind != LLVMFloatTypeKind &&
                kind != LLVMDoubleTypeKind) {
                hls_error(&c->diag, loc, "private arrays of this element type are not "
                                         "supported yet (only integers, float and double)");
                return 1;
            }
            unsigned bytes = (unsigned)LLVMStoreSizeOfType(LLVMGetModuleDataLayout(c->module), t);
            if (u->elem && u->elem != bytes) {
                hls_error(&c->diag, loc, "a private array indexed at run time must be read "
                                         "and written with one element size");
                return 1;
            }
            u->elem = bytes;
            push_access(c, u, user, ptr);
            continue;
        }
        if (LLVMIsACallInst(user)) {
            const char *name = hls_llvm_callee_name(user);
            if (!strncmp(name, "llvm.lifetime.", 14) || hls_llvm_whole_array_init(user, array, size)) {
                push_access(c, u, user, ptr);
                continue;
            }
        }
        hls_error(&c->diag, loc, "a private array indexed at run time can only be read and "
                                 "written here (its address may not be stored, passed on, "
                                 "compared or converted to an integer)");
        return 1;
    }
    return 0;
}

/* The offsets of addresses in the private arrays, each computed once, right after the
 * address (so that it is there wherever the address is). */
typedef struct offset {
    LLVMValueRef array;  /* the private array */
    LLVMValueRef addr;   /* a getelementptr, select or phi of addresses */
    LLVMValueRef off;    /* its byte offset in the array (0 where it points elsewhere) */
    LLVMValueRef hit;    /* whether it points into the array (i1) */
} offset;

typedef struct offsets {
    offset *items;       /* the offsets computed so far */
    int n, cap;          /* used / allocated */
    LLVMBuilderRef b;    /* where new offsets are built */
} offsets;

static offset *find_offset(offsets *m, LLVMValueRef array, LLVMValueRef addr)
{
    for (int i = 0; i < m->n; i++)
        if (m->items[i].array == array && m->items[i].addr == addr)
            return &m->items[i];
    return NULL;
}

static offset *add_offset(hls_compile *c, offsets *m, LLVMValueRef array, LLVMValueRef addr)
{
    m->items = grow(c, m->items, m->n, &m->cap, sizeof *m->items);
    m->items[m->n] = (offset){array, addr, NULL, NULL};
    return &m->items[m->n++];
}

/* Puts the builder after inst, and after the phis when inst is one. */
static void position_after(LLVMBuilderRef b, LLVMValueRef inst)
{
    LLVMValueRef next = LLVMGetNextInstruction(inst);
    while (LLVMIsAPHINode(next))
        next = LLVMGetNextInstruction(next);
    LLVMPositionBuilderBefore(b, next);
}

/* The byte offset of addr in `array`, and in *hit whether it points there (addr: the
 * array, another private array, or a getelementptr, select or phi of such addresses).
 * A select or phi of addresses becomes a select or phi of offsets; a phi's offset is
 * made before its operands', so that a pointer carried around a loop has one too. */
static LLVMValueRef offset_in(hls_compile *c, offsets *m, LLVMValueRef array,
                              LLVMValueRef addr, LLVMValueRef *hit)
{
    LLVMTypeRef i1 = LLVMInt1TypeInContext(c->llvm), i64 = LLVMInt64TypeInContext(c->llvm);
    if (LLVMIsAAllocaInst(addr)) {
        *hit = LLVMConstInt(i1, addr == array, 0);
        return LLVMConstInt(i64, 0, 0);
    }
    offset *known = find_offset(m, array, addr);
    if (known) {
        *hit = known->hit;
        return known->off;
    }
    LLVMBuilderRef b = m->b;
    LLVMValueRef off;
    if (LLVMIsAPHINode(addr)) {
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetInstructionParent(addr)));
        offset *o = add_offset(c, m, array, addr);
        o->off = off = LLVMBuildPhi(b, i64, "");
        o->hit = *hit = LLVMBuildPhi(b, i1, "");
        for (unsigned i = 0; i < LLVMCountIncoming(addr); i++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(addr, i);
            LLVMValueRef h, x = offset_in(c, m, array, LLVMGetIncomingValue(addr, i), &h);
            LLVMAddIncoming(off, &x, &from, 1);
            LLVMAddIncoming(*hit, &h, &from, 1);
        }
        return off;
    }
    if (LLVMIsASelectInst(addr)) {
        LLVMValueRef hx, hy;
        LLVMValueRef ox = offset_in(c, m, array, LLVMGetOperand(addr, 1), &hx);
        LLVMValueRef oy = offset_in(c, m, array, LLVMGetOperand(addr, 2), &hy);
        position_after(b, addr);
        LLVMValueRef cond = LLVMGetOperand(addr, 0);
        *hit = LLVMBuildSelect(b, cond, hx, hy, "");
        off = LLVMBuildSelect(b, cond, ox, oy, "");
    } else { /* a getelementptr: the base's offset and the indices' */
        LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->module);
        off = offset_in(c, m, array, LLVMGetOperand(addr, 0), hit);
        position_after(b, addr);
        LLVMTypeRef t = LLVMGetGEPSourceElementType(addr);
        int n = LLVMGetNumOperands(addr);
        for (int i = 1; i < n; i++) {
            LLVMValueRef index = LLVMGetOperand(addr, (unsigned)i);
            uint64_t stride;
            if (i == 1) {
                stride = LLVMABISizeOfType(td, t);
            } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
                unsigned field = (unsigned)LLVMConstIntGetZExtValue(index);
                off = LLVMBuildAdd(b, off, LLVMConstInt(i64, LLVMOffsetOfElement(td, t, field), 0),
                                   "");
                t = LLVMStructGetTypeAtIndex(t, field);
                continue;
            } else {
                t = LLVMGetElementType(t);
                stride = LLVMABISizeOfType(td, t);
            }
            LLVMValueRef wide = LLVMBuildIntCast2(b, index, i64, 1, "");
            off = LLVMBuildAdd(b, off, LLVMBuildMul(b, wide, LLVMConstInt(i64, stride, 0), ""), "");
        }
    }
    offset *o = add_offset(c, m, array, addr);
    o->off = off;
    o->hit = *hit;
    return off;
}

/* The element index of an access: its byte offset divided by the element size. */
static LLVMValueRef element_index(hls_compile *c, offsets *m, LLVMBuilderRef b,
                                  LLVMValueRef array, LLVMValueRef ptr, unsigned elem)
{
    LLVMValueRef hit, off = offset_in(c, m, array, ptr, &hit);
    unsigned shift = 0;
    while ((1u << shift) < elem)
        shift++;
    return shift ? LLVMBuildLShr(b, off, LLVMConstInt(LLVMTypeOf(off), shift, 0), "") : off;
}

/* The most private arrays one address may point into. */
enum { MAX_CHOSEN_ARRAYS = 8 };

/* The address of a private array's element chosen at run time: a select or phi (through
 * getelementptrs) of addresses in private arrays. Adds the arrays to arrays[*n], the
 * phis seen to phis; 0 when it is not one (an address of other memory, a pointer loaded
 * or passed in, too many arrays). */
static int chosen_address(hls_compile *c, LLVMValueRef v, LLVMValueRef *arrays, int *n,
                          offsets *phis, int *chosen)
{
    if (LLVMIsAGetElementPtrInst(v))
        return chosen_address(c, LLVMGetOperand(v, 0), arrays, n, phis, chosen);
    if (LLVMIsASelectInst(v)) {
        *chosen = 1;
        return chosen_address(c, LLVMGetOperand(v, 1), arrays, n, phis, chosen) &&
               chosen_address(c, LLVMGetOperand(v, 2), arrays, n, phis, chosen);
    }
    if (LLVMIsAPHINode(v)) {
        *chosen = 1;
        if (find_offset(phis, NULL, v))
            return 1;
        add_offset(c, phis, NULL, v);
        for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
            if (!chosen_address(c, LLVMGetIncomingValue(v, i), arrays, n, phis, chosen))
                return 0;
        return 1;
    }
    if (!LLVMIsAAllocaInst(v))
        return 0;
    for (int i = 0; i < *n; i++)
        if (arrays[i] == v)
            return 1;
    if (*n == MAX_CHOSEN_ARRAYS)
        return 0;
    arrays[(*n)++] = v;
    return 1;
}

/* Erases the selects, phis and getelementptrs of addresses that only feed each other
 * (a pointer variable whose reads and writes were all rewritten). */
static void erase_dead_addresses(hls_compile *c, LLVMValueRef fn)
{
    offsets dead = {0}; /* addr: a candidate; hit: non-NULL once known to be used */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if ((LLVMIsASelectInst(i) || LLVMIsAPHINode(i) || LLVMIsAGetElementPtrInst(i)) &&
                LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMPointerTypeKind)
                add_offset(c, &dead, NULL, i);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < dead.n; k++) {
            if (dead.items[k].hit)
                continue;
            for (LLVMUseRef u = LLVMGetFirstUse(dead.items[k].addr); u; u = LLVMGetNextUse(u)) {
                offset *user = find_offset(&dead, NULL, LLVMGetUser(u));
                if (!user || user->hit) {
                    dead.items[k].hit = dead.items[k].addr;
                    changed = 1;
                    break;
                }
            }
        }
    }
    for (int k = 0; k < dead.n; k++)
        if (!dead.items[k].hit)
            LLVMReplaceAllUsesWith(dead.items[k].addr,
                                   LLVMGetPoison(LLVMTypeOf(dead.items[k].addr)));
    for (int k = 0; k < dead.n; k++)
        if (!dead.items[k].hit)
            LLVMInstructionEraseFromParent(dead.items[k].addr);
}

/* A read or write through an address chosen at run time among elements of private
 * arrays: `c ? a[i] : a[j]` and `c ? a[i] : b[j]` (LLVM reads through a select or phi
 * of the addresses), `*(c ? &a[i] : &b[j]) = x`, a pointer variable that walks an array
 * or is set to one array or another. It becomes an access of each array at the offset
 * the address has there: a load the choice of the loads (reading a private array is
 * reading registers, so reading each has no effect beyond the choice), a store of the
 * value where that array is chosen and of the element itself elsewhere. What is left
 * of the pointer variable then goes, and each array is left with accesses through
 * getelementptrs alone. */
static void rewrite_chosen_accesses(hls_compile *c, offsets *m, LLVMValueRef fn)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c->llvm);
    int rewritten = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            int load = LLVMIsALoadInst(i) != NULL, n = 0, chosen = 0;
            if ((!load && !LLVMIsAStoreInst(i)) || LLVMGetVolatile(i))
                continue;
            LLVMValueRef ptr = LLVMGetOperand(i, load ? 0 : 1), arrays[MAX_CHOSEN_ARRAYS];
            offsets phis = {0};
            if (!chosen_address(c, ptr, arrays, &n, &phis, &chosen) || !chosen)
                continue;
            LLVMTypeRef t = load ? LLVMTypeOf(i) : LLVMTypeOf(LLVMGetOperand(i, 0));
            LLVMValueRef loaded = NULL;
            for (int k = 0; k < n; k++) {
                LLVMValueRef hit, off = offset_in(c, m, arrays[k], ptr, &hit);
                LLVMPositionBuilderBefore(b, i);
                LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(i));
                LLVMValueRef at = LLVMBuildGEP2(b, i8, arrays[k], &off, 1, "");
                if (load) {
                    LLVMValueRef x = LLVMBuildLoad2(b, t, at, "");
                    LLVMSetAlignment(x, LLVMGetAlignment(i));
                    loaded = loaded ? LLVMBuildSelect(b, hit, x, loaded, "") : x;
                } else {
                    LLVMValueRef v = LLVMGetOperand(i, 0);
                    if (n > 1) {
                        LLVMValueRef old = LLVMBuildLoad2(b, t, at, "");
                        LLVMSetAlignment(old, LLVMGetAlignment(i));
                        v = LLVMBuildSelect(b, hit, v, old, "");
                    }
                    LLVMSetAlignment(LLVMBuildStore(b, v, at), LLVMGetAlignment(i));
                }
            }
            if (load)
                LLVMReplaceAllUsesWith(i, loaded);
            LLVMInstructionEraseFromParent(i);
            rewritten = 1;
        }
    LLVMDisposeBuilder(b);
    if (rewritten)
        erase_dead_addresses(c, fn);
}

/* A vector of n elements, each the byte `byte` repeated. */
static LLVMValueRef splat(LLVMTypeRef et, unsigned n, uint64_t byte, unsigned elem)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < elem; i++)
        v |= (byte & 0xff) << (8 * i);
    LLVMValueRef e = LLVMConstInt(et, v, 0), lanes[n];
    for (unsigned i = 0; i < n; i++)
        lanes[i] = e;
    return LLVMConstVector(lanes, n);
}

/* Rewrites one array as a vector alloca (SROA promotes it afterwards). */
static void rewrite(hls_compile *c, offsets *m, LLVMValueRef array, array_uses *u,
                    uint64_t size)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    LLVMTypeRef et = LLVMIntTypeInContext(c->llvm, 8 * u->elem);
    unsigned n = (unsigned)(size / u->elem);
    LLVMTypeRef vt = LLVMVectorType(et, n);
    LLVMPositionBuilderBefore(b, array);
    LLVMValueRef vec = LLVMBuildAlloca(b, vt, "private.array");
    for (int i = 0; i < u->n; i++) {
        LLVMValueRef inst = u->items[i].inst;
        LLVMPositionBuilderBefore(b, inst);
        if (LLVMIsALoadInst(inst)) {
            LLVMValueRef index = element_index(c, m, b, array, u->items[i].ptr, u->elem);
            LLVMValueRef whole = LLVMBuildLoad2(b, vt, vec, "");
            LLVMValueRef x = LLVMBuildExtractElement(b, whole, index, "");
            LLVMReplaceAllUsesWith(inst, LLVMBuildBitCast(b, x, LLVMTypeOf(inst), ""));
        } else if (LLVMIsAStoreInst(inst)) {
            LLVMValueRef index = element_index(c, m, b, array, u->items[i].ptr, u->elem);
            LLVMValueRef x = LLVMBuildBitCast(b, LLVMGetOperand(inst, 0), et, "");
            LLVMValueRef whole = LLVMBuildLoad2(b, vt, vec, "");
            LLVMBuildStore(b, LLVMBuildInsertElement(b, whole, x, index, ""), vec);
        } else if (!strncmp(hls_llvm_callee_name(inst), "llvm.memset.", 12)) {
            uint64_t byte = LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 1));
            LLVMBuildStore(b, splat(et, n, byte, u->elem), vec);
        } else if (!strncmp(hls_llvm_callee_name(inst), "llvm.memcpy.", 12)) {
            /* a vector load of the initialiser, which instcombine folds to a constant */
            LLVMBuildStore(b, LLVMBuildLoad2(b, vt, LLVMGetOperand(inst, 1), ""), vec);
        }
        LLVMInstructionEraseFromParent(inst); /* lifetime markers just go */
    }
    /* The addresses, each once nothing uses it any more (a select can come after the
     * address of its second operand). */
    for (int left = u->ngeps, round = 0; left > 0 && round < u->ngeps; round++)
        for (int i = u->ngeps - 1; i >= 0; i--)
            if (u->geps[i] && !LLVMGetFirstUse(u->geps[i])) {
                LLVMInstructionEraseFromParent(u->geps[i]);
                u->geps[i] = NULL;
                left--;
            }
    LLVMInstructionEraseFromParent(array);
    LLVMDisposeBuilder(b);
}

int hls_private_arrays(hls_compile *c)
{
    int before = c->diag.errors, rewritten = 0;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->module);
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        offsets m = {.b = LLVMCreateBuilderInContext(c->llvm)};
        rewrite_chosen_accesses(c, &m, fn);
        m.n = 0; /* it may name addresses erased since */
        /* The arrays first: the rewrite adds and removes instructions. */
        int n = 0, cap = 0;
        LLVMValueRef *arrays = NULL;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsAAllocaInst(i) ||
                    LLVMGetTypeKind(LLVMGetAllocatedType(i)) == LLVMVectorTypeKind)
                    continue;
                if (n == cap) {
                    cap = cap ? 2 * cap : 8;
                    LLVMValueRef *grown = arena_alloc(&c->arena, (size_t)cap * sizeof *grown);
                    if (n)
                        memcpy(grown, arrays, (size_t)n * sizeof *grown);
                    arrays = grown;
                }
                arrays[n++] = i;
            }
        /* One report per kernel is enough: arrays often fail together. */
        for (int a = 0; a < n && c->diag.errors == before; a++) {
            LLVMValueRef array = arrays[a];
            uint64_t size = LLVMABISizeOfType(td, LLVMGetAllocatedType(array));
            array_uses u = {0};
            if (collect(c, array, array, size, &u))
                break;
            /* Allocas have no source location: name the first access in the source. */
            hls_loc loc = hls_llvm_loc(c, array);
            for (int i = 0; i < u.n; i++) {
                hls_loc at = hls_llvm_loc(c, u.items[i].inst);
                if (at.line && (!loc.line || at.line < loc.line ||
                                (at.line == loc.line && at.col < loc.col)))
                    loc = at;
            }
            if (!u.elem)
                u.elem = 1; /* only initialised, never read */
            if (size > HLS_MAX_PRIVATE_BYTES)
                hls_error(&c->diag, loc, "a private array of %llu bytes indexed at run time is "
                          "too large to keep in registers (at most %d bytes); use __local or "
                          "__global memory", (unsigned long long)size, HLS_MAX_PRIVATE_BYTES);
            else if (size % u.elem)
                hls_error(&c->diag, loc, "a private array indexed at run time must hold "
                                         "elements of one size");
            else
                rewrite(c, &m, array, &u, size), rewritten++;
        }
        LLVMDisposeBuilder(m.b);
    }
    if (c->diag.errors > before)
        return HLS_ERR_UNSUPPORTED;
    c->simplify_pending = rewritten != 0; /* the pass list's next step cleans up */
    return HLS_OK;
}
