/* IR preparation: hls_link_library links the built-in library (hls/library), whose
 * functions are then linked only where a kernel calls them; hls_inline makes every
 * helper function inlinable and inlines it into the kernels (hardware has no call
 * stack), then drops what nothing calls any more; hls_simplify makes volatile
 * accesses to private variables plain ones and runs an explicit list of LLVM passes (never default<O2>, whose vectorisers would turn scalar
 * code into vector types the user never wrote). The list ends with loop-simplify and
 * LCSSA, the loop shape the hardware IR relies on: one preheader, one latch, exit
 * blocks reached only from inside the loop, and values leaving a loop through phis. */
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <string.h>
#include <unistd.h>

#include "passes.h"

static int is_kernel(LLVMValueRef fn)
{
    return LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv;
}

static int run_passes(hls_compile *c, const char *pipeline)
{
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
    LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
    LLVMPassBuilderOptionsSetLoopUnrolling(po, 1);
    LLVMErrorRef err = LLVMRunPasses(c->module, pipeline, NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        sb_printf(c->diag.log, "error: LLVM pipeline '%s' failed: %s\n", pipeline, msg);
        LLVMDisposeErrorMessage(msg);
        return HLS_ERR_INTERNAL;
    }
    return HLS_OK;
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

    return run_passes(c, "always-inline,globaldce");
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

int hls_simplify(hls_compile *c)
{
    private_accesses_not_volatile(c);
    return run_passes(c, simplify_pipeline);
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
    return run_passes(c, "function(instcombine,load-store-vectorizer,adce)");
}

/* After privarrays.c's rewrite: SROA makes the new vectors SSA values, instcombine
 * folds the copies of constant initialisers, and LCSSA gives the values that leave a
 * loop their exit phis again. No CFG change, so the loop shape stays. */
int hls_simplify_again(hls_compile *c)
{
    return run_passes(c, "function(sroa,early-cse<memssa>,instcombine,gvn,adce,lcssa)");
}

hls_loc hls_llvm_loc(hls_compile *c, LLVMValueRef inst)
{
    hls_loc loc = {.file = c->source_name};
    if (!inst || !LLVMIsAInstruction(inst))
        return loc;
    loc.line = LLVMGetDebugLocLine(inst);
    loc.col = LLVMGetDebugLocColumn(inst);
    unsigned len = 0;
    const char *file = LLVMGetDebugLocFilename(inst, &len);
    if (file && len)
        loc.file = arena_printf(&c->arena, "%.*s", (int)len, file);
    return loc;
}

/* The located instruction nearest below v among its users, to depth 3. */
static int located_user(hls_compile *c, LLVMValueRef v, int depth, hls_loc *out)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) && LLVMGetDebugLocLine(user)) {
            *out = hls_llvm_loc(c, user);
            return 1;
        }
    }
    if (depth < 3)
        for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
            if (located_user(c, LLVMGetUser(u), depth + 1, out))
                return 1;
    return 0;
}

hls_loc hls_llvm_diag_loc(hls_compile *c, LLVMValueRef inst)
{
    hls_loc loc = hls_llvm_loc(c, inst);
    if (loc.line || !inst || !LLVMIsAInstruction(inst) || located_user(c, inst, 0, &loc))
        return loc;
    LLVMBasicBlockRef block = LLVMGetInstructionParent(inst);
    return block ? hls_llvm_function_loc(c, LLVMGetBasicBlockParent(block)) : loc;
}

hls_loc hls_llvm_function_loc(hls_compile *c, LLVMValueRef fn)
{
    hls_loc loc = {.file = c->source_name};
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if (!sp)
        return loc;
    loc.line = LLVMDISubprogramGetLine(sp);
    unsigned len = 0;
    const char *file = LLVMDIFileGetFilename(LLVMDIScopeGetFile(sp), &len);
    if (file && len)
        loc.file = arena_printf(&c->arena, "%.*s", (int)len, file);
    /* The column of the function's name on its line, for the caret. */
    const char *line = c->diag.source;
    for (unsigned i = 1; line && i < loc.line; i++)
        if ((line = strchr(line, '\n')))
            line++;
    size_t name_len;
    const char *name = LLVMGetValueName2(fn, &name_len);
    if (line) {
        size_t line_len = strcspn(line, "\n");
        for (size_t i = 0; i + name_len <= line_len; i++)
            if (!strncmp(line + i, name, name_len)) {
                loc.col = (unsigned)i + 1;
                break;
            }
    }
    return loc;
}

LLVMTypeRef hls_llvm_byval_type(LLVMValueRef param)
{
    if (!LLVMIsAArgument(param))
        return NULL;
    LLVMValueRef fn = LLVMGetParamParent(param);
    unsigned index = 1; /* attribute index of the first parameter */
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p != param; p = LLVMGetNextParam(p))
        index++;
    LLVMAttributeRef byval =
        LLVMGetEnumAttributeAtIndex(fn, index, LLVMGetEnumAttributeKindForName("byval", 5));
    return byval ? LLVMGetTypeAttributeValue(byval) : NULL;
}

/* The byte offset a getelementptr with constant indices adds; 0 when an index is
 * not a constant. */
static int constant_gep_offset(LLVMTargetDataRef td, LLVMValueRef gep, uint64_t *offset)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    int n = LLVMGetNumOperands(gep);
    for (int i = 1; i < n; i++) {
        LLVMValueRef index = LLVMGetOperand(gep, (unsigned)i);
        if (!LLVMIsAConstantInt(index))
            return 0;
        long long x = LLVMConstIntGetSExtValue(index);
        if (i == 1) {
            *offset += (uint64_t)x * LLVMABISizeOfType(td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            *offset += LLVMOffsetOfElement(td, t, (unsigned)x);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)x);
        } else {
            t = LLVMGetElementType(t);
            *offset += (uint64_t)x * LLVMABISizeOfType(td, t);
        }
    }
    return 1;
}

LLVMValueRef hls_llvm_byval_field(LLVMTargetDataRef td, LLVMValueRef ptr, uint64_t *offset)
{
    *offset = 0;
    while (LLVMIsAGetElementPtrInst(ptr) ||
           (LLVMIsAConstantExpr(ptr) && LLVMGetConstOpcode(ptr) == LLVMGetElementPtr)) {
        if (!constant_gep_offset(td, ptr, offset))
            return NULL;
        ptr = LLVMGetOperand(ptr, 0);
    }
    return hls_llvm_byval_type(ptr) ? ptr : NULL;
}
