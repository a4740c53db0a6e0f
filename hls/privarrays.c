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
 * are kept this way (a read or write through `c ? &a[i] : &a[j]` or a phi of such
 * addresses, which LLVM makes of `c ? a[i] : a[j]`, is one at the chosen index); a
 * larger one, one accessed with mixed sizes, or one whose address escapes (stored,
 * passed on, compared) is reported at the access. */
#include <llvm-c/Core.h>
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

static void push_access(hls_compile *c, array_uses *u, LLVMValueRef inst, LLVMValueRef ptr)
{
    if (u->n == u->cap) {
        int cap = u->cap ? 2 * u->cap : 16;
        access *grown = arena_alloc(&c->arena, (size_t)cap * sizeof *grown);
        if (u->n)
            memcpy(grown, u->items, (size_t)u->n * sizeof *grown);
        u->items = grown;
        u->cap = cap;
    }
    u->items[u->n++] = (access){inst, ptr};
}

static void push_gep(hls_compile *c, array_uses *u, LLVMValueRef gep)
{
    if (u->ngeps == u->capgeps) {
        int cap = u->capgeps ? 2 * u->capgeps : 16;
        LLVMValueRef *grown = arena_alloc(&c->arena, (size_t)cap * sizeof *grown);
        if (u->ngeps)
            memcpy(grown, u->geps, (size_t)u->ngeps * sizeof *grown);
        u->geps = grown;
        u->capgeps = cap;
    }
    u->geps[u->ngeps++] = gep;
}

static const char *callee_name(LLVMValueRef call)
{
    LLVMValueRef fn = LLVMGetCalledValue(call);
    size_t len;
    return LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
}

/* A whole-array memset with a constant byte, or a whole-array copy of a constant
 * initialiser: both become a store of a constant vector. */
static int whole_array_init(LLVMValueRef call, LLVMValueRef array, uint64_t size)
{
    const char *name = callee_name(call);
    LLVMValueRef len = LLVMGetOperand(call, 2);
    if (LLVMGetOperand(call, 0) != array || !LLVMIsAConstantInt(len) ||
        LLVMConstIntGetZExtValue(len) != size)
        return 0;
    if (!strncmp(name, "llvm.memset.", 12))
        return LLVMIsAConstantInt(LLVMGetOperand(call, 1)) != NULL;
    if (!strncmp(name, "llvm.memcpy.", 12)) {
        LLVMValueRef src = LLVMGetOperand(call, 1);
        return LLVMIsAGlobalVariable(src) && LLVMIsGlobalConstant(src) &&
               LLVMGetInitializer(src);
    }
    return 0;
}

/* Whether v is an address inside `array`: the array, a getelementptr into it, or a
 * select or phi of such addresses (looked through to a small depth, so that a pointer
 * carried around a loop is not one). */
static int within(LLVMValueRef array, LLVMValueRef v, int depth)
{
    if (v == array)
        return 1;
    if (depth > 8)
        return 0;
    if (LLVMIsAGetElementPtrInst(v))
        return within(array, LLVMGetOperand(v, 0), depth + 1);
    if (LLVMIsASelectInst(v))
        return within(array, LLVMGetOperand(v, 1), depth + 1) &&
               within(array, LLVMGetOperand(v, 2), depth + 1);
    if (LLVMIsAPHINode(v)) {
        for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
            if (!within(array, LLVMGetIncomingValue(v, i), depth + 1))
                return 0;
        return 1;
    }
    return 0;
}

static int collected(const array_uses *u, LLVMValueRef v)
{
    for (int i = 0; i < u->ngeps; i++)
        if (u->geps[i] == v)
            return 1;
    return 0;
}

/* Collects every use of `ptr` (the array or an address inside it); 0 on success, or
 * reports the use the array cannot be kept in registers for. */
static int collect(hls_compile *c, LLVMValueRef array, LLVMValueRef ptr, uint64_t size,
                   array_uses *u)
{
    for (LLVMUseRef use = LLVMGetFirstUse(ptr); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        hls_loc loc = hls_llvm_loc(c, user);
        LLVMTypeRef t = NULL;
        if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == ptr) {
            push_gep(c, u, user);
            if (collect(c, array, user, size, u))
                return 1;
            continue;
        }
        if ((LLVMIsASelectInst(user) || LLVMIsAPHINode(user)) && within(array, user, 0)) {
            /* c ? &a[i] : &a[j], which LLVM makes of c ? a[i] : a[j] (a phi when the
             * index is computed on one path only); reached once per address in it */
            if (!collected(u, user)) {
                push_gep(c, u, user);
                if (collect(c, array, user, size, u))
                    return 1;
            }
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
            const char *name = callee_name(user);
            if (!strncmp(name, "llvm.lifetime.", 14) || whole_array_init(user, array, size)) {
                push_access(c, u, user, ptr);
                continue;
            }
        }
        hls_error(&c->diag, loc, "a private array indexed at run time can only be read and "
                                 "written element by element here (its address may not be "
                                 "stored, passed on, compared or used as a pointer variable)");
        return 1;
    }
    return 0;
}

/* The byte offset of ptr from the array, computed where the builder stands. */
static LLVMValueRef byte_offset(hls_compile *c, LLVMBuilderRef b, LLVMValueRef array,
                                LLVMValueRef ptr)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->llvm);
    if (ptr == array)
        return LLVMConstInt(i64, 0, 0);
    if (LLVMIsASelectInst(ptr))
        return LLVMBuildSelect(b, LLVMGetOperand(ptr, 0),
                               byte_offset(c, b, array, LLVMGetOperand(ptr, 1)),
                               byte_offset(c, b, array, LLVMGetOperand(ptr, 2)), "");
    if (LLVMIsAPHINode(ptr)) { /* a phi of the offsets, each at the end of its edge */
        LLVMBuilderRef at = LLVMCreateBuilderInContext(c->llvm);
        LLVMPositionBuilderBefore(at, LLVMGetFirstInstruction(LLVMGetInstructionParent(ptr)));
        LLVMValueRef phi = LLVMBuildPhi(at, i64, "");
        for (unsigned i = 0; i < LLVMCountIncoming(ptr); i++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(ptr, i);
            LLVMPositionBuilderBefore(at, LLVMGetBasicBlockTerminator(from));
            LLVMValueRef off = byte_offset(c, at, array, LLVMGetIncomingValue(ptr, i));
            LLVMAddIncoming(phi, &off, &from, 1);
        }
        LLVMDisposeBuilder(at);
        return phi;
    }
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->module);
    LLVMValueRef off = byte_offset(c, b, array, LLVMGetOperand(ptr, 0));
    LLVMTypeRef t = LLVMGetGEPSourceElementType(ptr);
    int n = LLVMGetNumOperands(ptr);
    for (int i = 1; i < n; i++) {
        LLVMValueRef index = LLVMGetOperand(ptr, (unsigned)i);
        uint64_t stride;
        if (i == 1) {
            stride = LLVMABISizeOfType(td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            unsigned field = (unsigned)LLVMConstIntGetZExtValue(index);
            off = LLVMBuildAdd(b, off, LLVMConstInt(i64, LLVMOffsetOfElement(td, t, field), 0), "");
            t = LLVMStructGetTypeAtIndex(t, field);
            continue;
        } else {
            t = LLVMGetElementType(t);
            stride = LLVMABISizeOfType(td, t);
        }
        LLVMValueRef wide = LLVMBuildIntCast2(b, index, i64, 1, "");
        off = LLVMBuildAdd(b, off, LLVMBuildMul(b, wide, LLVMConstInt(i64, stride, 0), ""), "");
    }
    return off;
}

/* The element index of an access: its byte offset divided by the element size. */
static LLVMValueRef element_index(hls_compile *c, LLVMBuilderRef b, LLVMValueRef array,
                                  LLVMValueRef ptr, unsigned elem)
{
    LLVMValueRef off = byte_offset(c, b, array, ptr);
    unsigned shift = 0;
    while ((1u << shift) < elem)
        shift++;
    return shift ? LLVMBuildLShr(b, off, LLVMConstInt(LLVMTypeOf(off), shift, 0), "") : off;
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
static void rewrite(hls_compile *c, LLVMValueRef array, array_uses *u, uint64_t size)
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
            LLVMValueRef index = element_index(c, b, array, u->items[i].ptr, u->elem);
            LLVMValueRef whole = LLVMBuildLoad2(b, vt, vec, "");
            LLVMValueRef x = LLVMBuildExtractElement(b, whole, index, "");
            LLVMReplaceAllUsesWith(inst, LLVMBuildBitCast(b, x, LLVMTypeOf(inst), ""));
        } else if (LLVMIsAStoreInst(inst)) {
            LLVMValueRef index = element_index(c, b, array, u->items[i].ptr, u->elem);
            LLVMValueRef x = LLVMBuildBitCast(b, LLVMGetOperand(inst, 0), et, "");
            LLVMValueRef whole = LLVMBuildLoad2(b, vt, vec, "");
            LLVMBuildStore(b, LLVMBuildInsertElement(b, whole, x, index, ""), vec);
        } else if (!strncmp(callee_name(inst), "llvm.memset.", 12)) {
            uint64_t byte = LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 1));
            LLVMBuildStore(b, splat(et, n, byte, u->elem), vec);
        } else if (!strncmp(callee_name(inst), "llvm.memcpy.", 12)) {
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
                rewrite(c, array, &u, size), rewritten++;
        }
    }
    if (c->diag.errors > before)
        return HLS_ERR_UNSUPPORTED;
    return rewritten ? hls_simplify_again(c) : HLS_OK;
}
