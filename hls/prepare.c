/* IR preparation: hls_link_library links the built-in library (hls/library), whose
 * functions are then linked only where a kernel calls them; hls_inline makes every
 * helper function inlinable and inlines it into the kernels (hardware has no call
 * stack), then drops what nothing calls any more; hls_simplify makes volatile
 * accesses to private variables plain ones and runs an explicit list of LLVM passes (never default<O2>, whose vectorisers would turn scalar
 * code into vector types the user never wrote). The list ends with loop-simplify and
 * LCSSA, the loop shape the hardware IR relies on: one preheader, one latch, exit
 * blocks reached only from inside the loop, and values leaving a loop through phis.
 * Then work-item functions of a run-time dimension become a choice among the three
 * dimensions, and memcpy, memmove and memset loads and stores (or loops of them). */
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "passes.h"

static int is_kernel(LLVMValueRef fn)
{
    return LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv;
}

#ifndef CLHLS_LIBRARY
#define CLHLS_LIBRARY "clhls_library.bc"
#endif

const char *hls_library_path(void)
{
    if (access(CLHLS_LIBRARY, R_OK) == 0)
        return CLHLS_LIBRARY;
    return CLHLS_DATA_DIR "/clhls_library.bc";
}

int hls_link_library(hls_compile *c)
{
    const char *path = hls_library_path();
    LLVMMemoryBufferRef buf;
    LLVMModuleRef lib;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        sb_printf(c->diag.log, "error: cannot read the built-in library %s: %s\n", path,
                  msg ? msg : "");
        LLVMDisposeMessage(msg);
        return HLS_ERR_TOOL;
    }
    /* Lazily: a function's body is read only when the linker brings it in. The
     * module owns the buffer from here on. */
    int bad = LLVMGetBitcodeModuleInContext2(c->llvm, buf, &lib);
    if (bad) {
        sb_printf(c->diag.log, "error: the built-in library %s is not valid bitcode\n", path);
        return HLS_ERR_TOOL;
    }
    hls_generic_builtin_calls(c, lib);
    /* linkonce_odr: the linker brings in only the functions the program calls */
    for (LLVMValueRef fn = LLVMGetFirstFunction(lib); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    if (LLVMLinkModules2(c->module, lib)) {
        sb_printf(c->diag.log, "error: linking the built-in library %s failed\n", path);
        return HLS_ERR_INTERNAL;
    }
    return HLS_OK;
}

int hls_inline(hls_compile *c)
{
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    unsigned alwaysinline = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinline);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(c->llvm, alwaysinline, 0));
        if (!is_kernel(fn))
            LLVMSetLinkage(fn, LLVMInternalLinkage);
    }

    return hls_run_llvm_passes(c, "always-inline,globaldce");
}

/* Scalar cleanup, then loops: rotated into do-while form with invariants hoisted,
 * induction variables simplified, unrolled where #pragma unroll asks (fully or by a
 * count) and fully when the trip count is a small constant; cleanup again; the
 * scalarizer once more (instcombine turns a bitcast put into a vector into a vector
 * bitcast and a shuffle); and the loop shape last, since simplifycfg would undo it.
 * No loop-idiom: it turns loops into memset/memcpy calls. */
static const char *const simplify_pipeline =
    "function("
    "sroa,scalarizer,early-cse<memssa>,instcombine,simplifycfg,reassociate,"
    "loop-mssa(loop-rotate,licm),"
    "loop(loop-deletion,indvars),"
    "loop-unroll<O2>,"
    "sroa,instcombine,gvn,sccp,adce,simplifycfg,instcombine,"
    "scalarizer,loop-simplify,lcssa)";

/* The alloca a pointer is computed from (through casts and element addresses), or
 * NULL. */
static LLVMValueRef private_object(LLVMValueRef ptr)
{
    while (ptr) {
        if (LLVMIsAAllocaInst(ptr))
            return ptr;
        if (LLVMIsAGetElementPtrInst(ptr) || LLVMIsABitCastInst(ptr) ||
            LLVMIsAAddrSpaceCastInst(ptr))
            ptr = LLVMGetOperand(ptr, 0);
        else
            return NULL;
    }
    return NULL;
}

/* A volatile access to a work-item's private variable has nobody to observe it (no
 * other work-item, device or host sees private memory), so it becomes a plain access,
 * which the passes may then keep in registers: a `volatile int4` kernel argument, or
 * a volatile local variable, is a value like any other. */
static void private_accesses_not_volatile(hls_compile *c)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                LLVMValueRef ptr = LLVMIsALoadInst(i)    ? LLVMGetOperand(i, 0)
                                   : LLVMIsAStoreInst(i) ? LLVMGetOperand(i, 1)
                                                         : NULL;
                if (ptr && LLVMGetVolatile(i) && private_object(ptr))
                    LLVMSetVolatile(i, 0);
            }
}

/* Memory intrinsics: llvm.memcpy, llvm.memmove and llvm.memset (struct and array
 * copies, `= {0}`) between any two address spaces become loads and stores. SROA has
 * already made those of private variables it could into values; what is left copies
 * to or from __global, __constant or __local memory, or a struct argument, or a
 * generic pointer (addrspace.c then finds its memory). A copy of a constant length
 * moves the widest words its alignment allows (at most 8 bytes; the load-store
 * vectorizer merges them into wider accesses later); beyond MAX_UNROLLED_WORDS words,
 * and for a length known only at run time, a loop moves them (bytes for a run-time
 * length). The loops live in small always-inline helper functions, which the inliner
 * then splices into the kernel. A memmove within one address space reads everything
 * before it writes (constant lengths), or copies bytes backwards when the
 * destination follows the source. A whole-array memset or initialiser copy of a
 * private array is privarrays.c's (a store of a constant vector), so it stays. */
#define MAX_UNROLLED_WORDS 16

enum mem_kind { MEM_COPY, MEM_MOVE, MEM_SET };

static unsigned param_align(LLVMValueRef call, unsigned index)
{
    unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
    LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, index + 1, kind);
    uint64_t v = a ? LLVMGetEnumAttributeValue(a) : 1;
    return v ? (unsigned)v : 1;
}

/* p + offset bytes. */
static LLVMValueRef byte_address(hls_compile *c, LLVMBuilderRef b, LLVMValueRef p,
                                 LLVMValueRef offset)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c->llvm);
    return LLVMBuildInBoundsGEP2(b, i8, p, &offset, 1, "");
}

/* The memset byte repeated over a word of `bytes` bytes. */
static LLVMValueRef splat_byte(hls_compile *c, LLVMBuilderRef b, LLVMValueRef byte,
                               unsigned bytes)
{
    LLVMTypeRef t = LLVMIntTypeInContext(c->llvm, 8 * bytes);
    uint64_t ones = 0;
    for (unsigned i = 0; i < bytes; i++)
        ones |= (uint64_t)1 << (8 * i);
    if (bytes == 1)
        return byte;
    return LLVMBuildMul(b, LLVMBuildZExt(b, byte, t, ""), LLVMConstInt(t, ones, 0), "");
}

/* The helper that moves n words of `bytes` bytes from src to dst (MEM_COPY), sets n
 * words to a value (MEM_SET; src is that value), or moves n bytes between possibly
 * overlapping places, backwards when dst is above src (MEM_MOVE). */
static LLVMValueRef loop_helper(hls_compile *c, enum mem_kind kind, LLVMTypeRef dst_t,
                                LLVMTypeRef src_t, unsigned bytes)
{
    static const char *const kinds[] = {"copy", "move", "set"};
    LLVMTypeRef word = LLVMIntTypeInContext(c->llvm, 8 * bytes);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->llvm);
    char name[80];
    snprintf(name, sizeof name, "clhls.mem%s.p%u.p%u.i%u", kinds[kind],
             LLVMGetPointerAddressSpace(dst_t),
             kind == MEM_SET ? 0 : LLVMGetPointerAddressSpace(src_t), 8 * bytes);
    LLVMValueRef fn = LLVMGetNamedFunction(c->module, name);
    if (fn)
        return fn;
    LLVMTypeRef params[] = {dst_t, kind == MEM_SET ? word : src_t, i64};
    fn = LLVMAddFunction(c->module, name,
                         LLVMFunctionType(LLVMVoidTypeInContext(c->llvm), params, 3, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    unsigned alwaysinline = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->llvm, alwaysinline, 0));
    LLVMValueRef dst = LLVMGetParam(fn, 0), src = LLVMGetParam(fn, 1), n = LLVMGetParam(fn, 2);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llvm, fn, "entry");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llvm, fn, "loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llvm, fn, "done");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef backwards = kind == MEM_MOVE ? LLVMBuildICmp(b, LLVMIntULT, src, dst, "") : NULL;
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, n, zero, ""), done, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
    LLVMValueRef at = i;
    if (backwards)
        at = LLVMBuildSelect(b, backwards, LLVMBuildSub(b, LLVMBuildSub(b, n, one, ""), i, ""),
                             i, "");
    LLVMValueRef v = src;
    if (kind != MEM_SET) {
        v = LLVMBuildLoad2(b, word, LLVMBuildInBoundsGEP2(b, word, src, &at, 1, ""), "");
        LLVMSetAlignment(v, bytes);
    }
    LLVMValueRef st = LLVMBuildStore(b, v, LLVMBuildInBoundsGEP2(b, word, dst, &at, 1, ""));
    LLVMSetAlignment(st, bytes);
    LLVMValueRef next = LLVMBuildNUWAdd(b, i, one, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, n, ""), loop, done);
    LLVMValueRef in_v[] = {zero, next};
    LLVMBasicBlockRef in_b[] = {entry, loop};
    LLVMAddIncoming(i, in_v, in_b, 2);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return fn;
}

/* Moves or sets `size` bytes from byte `from` on, in words as wide as `align` and
 * what is left allow, each read before any is written. */
static void straight_words(hls_compile *c, LLVMBuilderRef b, enum mem_kind kind,
                           LLVMValueRef dst, LLVMValueRef src, uint64_t from, uint64_t size,
                           unsigned align, int is_volatile)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->llvm);
    uint64_t n = 0;
    for (uint64_t o = from; o < from + size; n++) {
        unsigned w = align;
        while (w > 1 && (o % w || o + w > from + size))
            w /= 2;
        o += w;
    }
    LLVMValueRef *vals = arena_alloc(&c->arena, (size_t)(n ? n : 1) * sizeof *vals);
    unsigned *widths = arena_alloc(&c->arena, (size_t)(n ? n : 1) * sizeof *widths);
    uint64_t o = from;
    for (uint64_t k = 0; k < n; k++) {
        unsigned w = align;
        while (w > 1 && (o % w || o + w > from + size))
            w /= 2;
        widths[k] = w;
        LLVMTypeRef word = LLVMIntTypeInContext(c->llvm, 8 * w);
        if (kind == MEM_SET) {
            vals[k] = splat_byte(c, b, src, w);
        } else {
            vals[k] = LLVMBuildLoad2(b, word, byte_address(c, b, src, LLVMConstInt(i64, o, 0)),
                                     "");
            LLVMSetAlignment(vals[k], w);
            LLVMSetVolatile(vals[k], is_volatile);
        }
        o += w;
    }
    o = from;
    for (uint64_t k = 0; k < n; k++) {
        LLVMValueRef st =
            LLVMBuildStore(b, vals[k], byte_address(c, b, dst, LLVMConstInt(i64, o, 0)));
        LLVMSetAlignment(st, widths[k]);
        LLVMSetVolatile(st, is_volatile);
        o += widths[k];
    }
}

/* The size of the smallest scalar in t. */
static unsigned leaf_size(LLVMTargetDataRef td, LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMArrayTypeKind:
    case LLVMVectorTypeKind:
        return leaf_size(td, LLVMGetElementType(t));
    case LLVMStructTypeKind: {
        unsigned best = 8;
        for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++) {
            unsigned s = leaf_size(td, LLVMStructGetTypeAtIndex(t, i));
            best = s < best ? s : best;
        }
        return best;
    }
    default:
        return (unsigned)LLVMABISizeOfType(td, t);
    }
}

static void expand_memory_intrinsic(hls_compile *c, LLVMBuilderRef b, LLVMValueRef call,
                                    enum mem_kind kind)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->module);
    LLVMValueRef dst = LLVMGetOperand(call, 0), src = LLVMGetOperand(call, 1);
    LLVMValueRef len = LLVMGetOperand(call, 2), vol = LLVMGetOperand(call, 3);
    int is_volatile = LLVMIsAConstantInt(vol) && LLVMConstIntGetZExtValue(vol);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->llvm);
    unsigned dst_space = LLVMGetPointerAddressSpace(LLVMTypeOf(dst));
    if (kind == MEM_MOVE) {
        unsigned src_space = LLVMGetPointerAddressSpace(LLVMTypeOf(src));
        if (src_space != dst_space && src_space != 4 && dst_space != 4)
            kind = MEM_COPY; /* different memories never overlap */
    }
    unsigned align = param_align(call, 0);
    if (kind != MEM_SET && param_align(call, 1) < align)
        align = param_align(call, 1);
    if (align > 8)
        align = 8;
    /* A private array left in memory (privarrays.c) is read and written in its
     * elements' size. */
    for (int k = 0; k < (kind == MEM_SET ? 1 : 2); k++) {
        LLVMValueRef array = private_object(LLVMGetOperand(call, (unsigned)k));
        unsigned elem = array ? leaf_size(td, LLVMGetAllocatedType(array)) : 8;
        elem = elem ? elem : 1;
        while (align > elem)
            align /= 2;
    }
    LLVMPositionBuilderBefore(b, call);
    LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call));
    if (LLVMGetTypeKind(LLVMTypeOf(len)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMTypeOf(len)) != 64)
        len = LLVMBuildZExt(b, len, i64, "");
    uint64_t size = LLVMIsAConstantInt(len) ? LLVMConstIntGetZExtValue(len) : 0;
    uint64_t words = size / align;
    int straight = LLVMIsAConstantInt(len) &&
                   (kind == MEM_MOVE ? size <= 8 * MAX_UNROLLED_WORDS : words <= MAX_UNROLLED_WORDS);
    if (straight) {
        straight_words(c, b, kind, dst, src, 0, size, align, is_volatile);
    } else {
        /* words of the alignment's size, or bytes (a run-time length, a memmove) */
        unsigned w = LLVMIsAConstantInt(len) && kind != MEM_MOVE ? align : 1;
        uint64_t count = size / w, looped = count * w;
        LLVMValueRef fn = loop_helper(c, kind, LLVMTypeOf(dst), LLVMTypeOf(src), w);
        LLVMValueRef args[] = {dst, kind == MEM_SET ? splat_byte(c, b, src, w) : src,
                               LLVMIsAConstantInt(len) ? LLVMConstInt(i64, count, 0) : len};
        LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 3, "");
        if (LLVMIsAConstantInt(len) && size > looped)
            straight_words(c, b, kind, dst, src, looped, size - looped, align, is_volatile);
    }
    LLVMInstructionEraseFromParent(call);
}

/* Returns 1 when it expanded anything. */
static int expand_memory_intrinsics(hls_compile *c)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->module);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    int expanded = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
                if (!callee || !LLVMIsAFunction(callee))
                    continue;
                size_t len;
                const char *name = LLVMGetValueName2(callee, &len);
                enum mem_kind kind;
                if (!strncmp(name, "llvm.memcpy.", 12)) /* also llvm.memcpy.inline */
                    kind = MEM_COPY;
                else if (!strncmp(name, "llvm.memmove.", 13))
                    kind = MEM_MOVE;
                else if (!strncmp(name, "llvm.memset.", 12))
                    kind = MEM_SET;
                else
                    continue;
                LLVMValueRef dst = LLVMGetOperand(i, 0);
                if (LLVMIsAAllocaInst(dst) &&
                    hls_llvm_whole_array_init(
                        i, dst, LLVMABISizeOfType(td, LLVMGetAllocatedType(dst))))
                    continue;
                if (!LLVMIsAConstantInt(LLVMGetOperand(i, 2)) &&
                    (private_object(LLVMGetOperand(i, 0)) ||
                     (kind != MEM_SET && private_object(LLVMGetOperand(i, 1))))) {
                    /* bytes at run-time offsets of an array kept as registers of its
                     * elements (privarrays.c) */
                    hls_error(&c->diag, hls_llvm_diag_loc(c, i),
                              "a copy of a run-time length to or from a private variable "
                              "is not supported yet; copy it element by element");
                    continue;
                }
                expand_memory_intrinsic(c, b, i, kind);
                expanded = 1;
            }
    LLVMDisposeBuilder(b);
    return expanded;
}

/* A work-item function whose dimension is known only at run time (get_global_id(d))
 * becomes the choice among its three dimensions' values, each a function of a
 * constant dimension, and the value OpenCL C gives outside them (0 for ids and
 * offsets, 1 for sizes: 6.12.1). Inside them, a dimension the NDRange lacks already
 * gives those values. Runs after unrolling, which makes most such dimensions
 * constants. Returns 1 when it rewrote anything. */
static int select_workitem_dims(hls_compile *c)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    int rewritten = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
                if (!callee || !LLVMIsAFunction(callee) || LLVMGetNumArgOperands(i) != 1 ||
                    LLVMIsAConstantInt(LLVMGetOperand(i, 0)))
                    continue;
                size_t len;
                const hls_workitem_fn *wi = hls_find_workitem_fn(LLVMGetValueName2(callee, &len));
                if (!wi)
                    continue;
                LLVMValueRef dim = LLVMGetOperand(i, 0);
                LLVMTypeRef t = LLVMTypeOf(i), dt = LLVMTypeOf(dim);
                LLVMPositionBuilderBefore(b, i);
                LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(i));
                LLVMValueRef v = LLVMConstInt(t, wi->out_of_range, 0);
                for (unsigned d = 3; d-- > 0;) {
                    LLVMValueRef arg = LLVMConstInt(dt, d, 0);
                    LLVMValueRef x = LLVMBuildCall2(b, LLVMGlobalGetValueType(callee), callee,
                                                    &arg, 1, "");
                    LLVMValueRef is_d = LLVMBuildICmp(b, LLVMIntEQ, dim, arg, "");
                    v = LLVMBuildSelect(b, is_d, x, v, "");
                }
                LLVMReplaceAllUsesWith(i, v);
                LLVMInstructionEraseFromParent(i);
                rewritten = 1;
            }
    LLVMDisposeBuilder(b);
    return rewritten;
}

int hls_simplify(hls_compile *c)
{
    private_accesses_not_volatile(c);
    int rc = hls_run_llvm_passes(c, simplify_pipeline);
    if (rc)
        return rc;
    int dims = select_workitem_dims(c), errors = c->diag.errors;
    int expanded = expand_memory_intrinsics(c);
    if (c->diag.errors > errors)
        return HLS_ERR_UNSUPPORTED;
    if (!expanded && !dims)
        return rc;
    /* The loops' helpers inlined, the copies' private ends made values, the loop
     * shape again. */
    return hls_run_llvm_passes(c, "always-inline,globaldce,function(sroa,early-cse<memssa>,instcombine,"
                         "adce,simplifycfg,scalarizer,loop-simplify,lcssa)");
}

/* Static coalescing: accesses at consecutive addresses become one vector access (one
 * load-store unit, one memory request), which LLVM's load-store vectorizer makes where
 * alignment allows (at most 128 bits without a target). A buffer argument is 4096-byte
 * aligned (the runtime hands out device memory in pages, and sub-buffers start at
 * multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN), which its parameter now says. Runs
 * after privarrays.c, when private arrays are values and no longer memory. */
int hls_coalesce(hls_compile *c)
{
    unsigned align = LLVMGetEnumAttributeKindForName("align", 5);
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || !is_kernel(fn))
            continue;
        for (unsigned i = 0; i < LLVMCountParams(fn); i++) {
            LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
            unsigned space = LLVMGetTypeKind(t) == LLVMPointerTypeKind
                                 ? LLVMGetPointerAddressSpace(t)
                                 : 0;
            if (space == 1 || space == 2) /* __global, __constant */
                LLVMAddAttributeAtIndex(fn, i + 1,
                                        LLVMCreateEnumAttribute(c->llvm, align, HLS_BUFFER_ALIGN));
        }
    }
    return hls_run_llvm_passes(c, "function(instcombine,load-store-vectorizer,adce)");
}
