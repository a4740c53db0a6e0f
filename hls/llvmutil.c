/* The LLVM helpers every pass uses: running a list of LLVM passes on the module
 * (hls_run_llvm_passes, and hls_simplify_again, the cleanup step the pass list runs
 * after a rewrite of the LLVM IR), the source location of an instruction or a function
 * for diagnostics, what a by-value kernel parameter's fields are, and a map from LLVM
 * values to numbers. */
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdint.h>
#include <string.h>

#include "passes.h"

int hls_run_llvm_passes(hls_compile *c, const char *pipeline)
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

/* After a rewrite of addrspace.c or privarrays.c (c->simplify_pending): SROA makes
 * private memory now reached directly, and privarrays.c's new vectors, SSA values,
 * instcombine folds the copies of constant initialisers, and LCSSA gives the values
 * that leave a loop their exit phis again. No CFG change, so the loop shape stays.
 * Nothing to do when the pass before rewrote nothing. */
int hls_simplify_again(hls_compile *c)
{
    if (!c->simplify_pending)
        return HLS_OK;
    c->simplify_pending = 0;
    return hls_run_llvm_passes(c, "function(sroa,early-cse<memssa>,instcombine,gvn,adce,lcssa)");
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

LLVMValueRef hls_llvm_constant_offset(LLVMTargetDataRef td, LLVMValueRef ptr, uint64_t *offset)
{
    *offset = 0;
    for (;;) {
        int constexpr = LLVMIsAConstantExpr(ptr) != NULL;
        if (LLVMIsAGetElementPtrInst(ptr) ||
            (constexpr && LLVMGetConstOpcode(ptr) == LLVMGetElementPtr)) {
            if (!constant_gep_offset(td, ptr, offset))
                return NULL;
        } else if (!LLVMIsAAddrSpaceCastInst(ptr) &&
                   !(constexpr && LLVMGetConstOpcode(ptr) == LLVMAddrSpaceCast)) {
            return ptr;
        }
        ptr = LLVMGetOperand(ptr, 0);
    }
}

LLVMValueRef hls_llvm_byval_field(LLVMTargetDataRef td, LLVMValueRef ptr, uint64_t *offset)
{
    ptr = hls_llvm_constant_offset(td, ptr, offset);
    return ptr && hls_llvm_byval_type(ptr) ? ptr : NULL;
}

int hls_llvm_whole_array_init(LLVMValueRef call, LLVMValueRef array, uint64_t size)
{
    LLVMValueRef fn = LLVMGetCalledValue(call);
    size_t n;
    const char *name = LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &n) : "";
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

static size_t value_slot(const hls_value_map *m, LLVMValueRef v)
{
    size_t h = ((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull;
    size_t i = h & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != v)
        i = (i + 1) & (m->cap - 1);
    return i;
}

void hls_value_map_init(arena *a, hls_value_map *m, size_t cap)
{
    m->cap = cap;
    m->used = 0;
    m->keys = arena_alloc(a, cap * sizeof *m->keys);
    m->ids = arena_alloc(a, cap * sizeof *m->ids);
}

void hls_value_map_set(arena *a, hls_value_map *m, LLVMValueRef v, int id)
{
    if (2 * (m->used + 1) > m->cap) {
        hls_value_map old = *m;
        hls_value_map_init(a, m, old.cap * 2);
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i])
                hls_value_map_set(a, m, old.keys[i], old.ids[i]);
    }
    size_t i = value_slot(m, v);
    m->used += !m->keys[i];
    m->keys[i] = v;
    m->ids[i] = id;
}

int hls_value_map_get(const hls_value_map *m, LLVMValueRef v)
{
    size_t i = value_slot(m, v);
    return m->keys[i] ? m->ids[i] : -1;
}

unsigned hls_llvm_function_md_operands(hls_compile *c, LLVMValueRef fn, const char *kind,
                                       LLVMValueRef *ops, unsigned max)
{
    LLVMContextRef ctx = c->llvm;
    unsigned id = LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
    size_t n;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(fn, &n);
    unsigned count = 0;
    for (size_t e = 0; e < n; e++) {
        if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)e) != id)
            continue;
        LLVMValueRef node = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)e));
        count = LLVMGetMDNodeNumOperands(node);
        if (count) {
            LLVMValueRef all[count];
            LLVMGetMDNodeOperands(node, all);
            for (unsigned i = 0; i < count && i < max; i++)
                ops[i] = all[i];
        }
        break;
    }
    LLVMDisposeValueMetadataEntries(entries);
    return count;
}

const char *hls_llvm_function_md(hls_compile *c, LLVMValueRef fn, const char *kind, unsigned i)
{
    LLVMValueRef ops[i + 1];
    if (hls_llvm_function_md_operands(c, fn, kind, ops, i + 1) <= i || !ops[i])
        return "";
    unsigned len = 0;
    const char *s = LLVMGetMDString(ops[i], &len);
    if (s)
        return arena_printf(&c->arena, "%.*s", (int)len, s);
    if (LLVMIsAConstantInt(ops[i]))
        return arena_printf(&c->arena, "%llu",
                            (unsigned long long)LLVMConstIntGetZExtValue(ops[i]));
    return "";
}

const char *hls_llvm_callee_name(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst) || !LLVMIsAFunction(LLVMGetCalledValue(inst)))
        return "";
    size_t len;
    return LLVMGetValueName2(LLVMGetCalledValue(inst), &len);
}
