/* Generic pointers. OpenCL C 2.0's unqualified pointers, and the pointer arguments of
 * the built-in atomic functions, are in the generic address space (4); the hardware
 * has no generic memory, only global memory, the local memories and private values.
 * After inlining, nearly every generic pointer is visibly a cast of a pointer into one
 * of them: this pass follows each generic pointer that a load, a store or an atomic
 * uses back through casts, address arithmetic, phis and selects to the casts it came
 * from, and when they all name one address space it gives the access a pointer into
 * that space (the chain of address arithmetic rebuilt on the original pointer, or a
 * cast back where phis or selects join), so later passes see a __global, __local or
 * private access. LLVM's
 * infer-address-spaces does this only for targets with a flat address space, which
 * spir64 has not. A pointer whose space stays unknown (two spaces meet at a phi, a
 * generic pointer loaded from memory) is left for check.c to report at the access.
 *
 * hls_generic_builtin_calls does the same for calls of built-ins that take generic
 * pointers (OpenCL C 2.0's vloadn, vstoren, fract, sincos, ...), before the library is
 * linked: the library defines them for named address spaces only (it is OpenCL C
 * 1.2), so a call whose pointers come from one space calls that space's overload. */
#include <llvm-c/DebugInfo.h>
#include <string.h>

#include "passes.h"

#define SPACE_GENERIC 4
#define SPACE_NONE (-2)    /* no information yet: a cycle through a phi */
#define SPACE_UNKNOWN (-1) /* several spaces, or a pointer from nowhere we can see */

typedef struct {
    LLVMValueRef *seen;
    size_t n, cap;
    hls_compile *c;
} walk;

static int visited(walk *w, LLVMValueRef v)
{
    for (size_t i = 0; i < w->n; i++)
        if (w->seen[i] == v)
            return 1;
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 32;
        LLVMValueRef *grown = arena_alloc(&w->c->arena, cap * sizeof *grown);
        if (w->n)
            memcpy(grown, w->seen, w->n * sizeof *grown);
        w->seen = grown, w->cap = cap;
    }
    w->seen[w->n++] = v;
    return 0;
}

static int meet(int a, int b)
{
    if (a == SPACE_NONE)
        return b;
    if (b == SPACE_NONE)
        return a;
    return a == b ? a : SPACE_UNKNOWN;
}

static unsigned space_of(LLVMValueRef v)
{
    return LLVMGetPointerAddressSpace(LLVMTypeOf(v));
}

static LLVMOpcode opcode_of(LLVMValueRef v)
{
    return LLVMIsAInstruction(v)    ? LLVMGetInstructionOpcode(v)
           : LLVMIsAConstantExpr(v) ? LLVMGetConstOpcode(v)
                                    : (LLVMOpcode)0;
}

/* The address space a generic pointer value was cast from. */
static int origin(walk *w, LLVMValueRef v)
{
    if (space_of(v) != SPACE_GENERIC)
        return (int)space_of(v);
    if (visited(w, v))
        return SPACE_NONE;
    switch (opcode_of(v)) {
    case LLVMAddrSpaceCast: case LLVMBitCast: case LLVMGetElementPtr: case LLVMFreeze:
        return origin(w, LLVMGetOperand(v, 0));
    case LLVMSelect:
        return meet(origin(w, LLVMGetOperand(v, 1)), origin(w, LLVMGetOperand(v, 2)));
    case LLVMPHI: {
        int space = SPACE_NONE;
        for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
            space = meet(space, origin(w, LLVMGetIncomingValue(v, i)));
        return space;
    }
    default:
        return SPACE_UNKNOWN;
    }
}

/* The address of generic pointer v as a pointer into `space`: v's chain of casts and
 * address arithmetic rebuilt on the pointer it was cast from (at the builder), so that
 * a private array stays an array SROA and privarrays.c recognise; NULL when v is not
 * such a chain (a phi or a select: the caller casts instead). */
static LLVMValueRef rebuild(LLVMBuilderRef b, LLVMValueRef v, unsigned space)
{
    if (space_of(v) == space)
        return v;
    switch (opcode_of(v)) {
    case LLVMAddrSpaceCast: case LLVMBitCast:
        return rebuild(b, LLVMGetOperand(v, 0), space);
    case LLVMGetElementPtr: {
        LLVMValueRef base = rebuild(b, LLVMGetOperand(v, 0), space);
        if (!base)
            return NULL;
        unsigned n = (unsigned)LLVMGetNumOperands(v) - 1;
        LLVMValueRef indices[n ? n : 1];
        for (unsigned i = 0; i < n; i++)
            indices[i] = LLVMGetOperand(v, i + 1);
        LLVMTypeRef type = LLVMGetGEPSourceElementType(v);
        return LLVMIsInBounds(v) ? LLVMBuildInBoundsGEP2(b, type, base, indices, n, "")
                                 : LLVMBuildGEP2(b, type, base, indices, n, "");
    }
    default:
        return NULL;
    }
}

/* The operand that is the accessed pointer, or -1 for other instructions. */
static int pointer_operand(LLVMValueRef inst)
{
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMLoad: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: return 0;
    case LLVMStore: return 1;
    default: return -1;
    }
}

int hls_generic_pointers(hls_compile *c)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    int rewritten = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
                 inst = LLVMGetNextInstruction(inst)) {
                int index = pointer_operand(inst);
                if (index < 0)
                    continue;
                LLVMValueRef ptr = LLVMGetOperand(inst, (unsigned)index);
                if (space_of(ptr) != SPACE_GENERIC)
                    continue;
                walk w = {.c = c};
                int space = origin(&w, ptr);
                if (space < 0)
                    continue;
                LLVMPositionBuilderBefore(b, inst);
                LLVMValueRef direct = rebuild(b, ptr, (unsigned)space);
                if (!direct)
                    direct = LLVMBuildAddrSpaceCast(
                        b, ptr, LLVMPointerTypeInContext(c->llvm, (unsigned)space), "");
                LLVMSetOperand(inst, (unsigned)index, direct);
                rewritten = 1;
            }
    LLVMDisposeBuilder(b);
    /* private memory reached through generic pointers: SROA can now promote it (the
     * pass list's next step, hls_simplify_again) */
    c->simplify_pending |= rewritten;
    return HLS_OK;
}

/* name with every generic pointer parameter ("PU3AS4") made one into `space` ("P" for
 * private, "PU3AS<n>" else), in the arena. */
static char *named_space_name(hls_compile *c, const char *name, int space)
{
    strbuf out = {0};
    const char *hit;
    for (const char *p = name;; p = hit + 6) {
        if (!(hit = strstr(p, "PU3AS4"))) {
            sb_append(&out, p);
            break;
        }
        sb_appendn(&out, p, (size_t)(hit - p));
        sb_printf(&out, space ? "PU3AS%d" : "P", space);
    }
    char *copy = arena_strdup(&c->arena, out.data);
    sb_free(&out);
    return copy;
}

/* One call of a built-in through generic pointers, made a call of the overload for
 * `space`, declared in the module with its pointer parameters in that space. */
static void call_named_overload(hls_compile *c, LLVMBuilderRef b, LLVMValueRef call,
                                LLVMValueRef fn, const char *name, int space)
{
    LLVMTypeRef type = LLVMGlobalGetValueType(fn);
    unsigned n = LLVMCountParamTypes(type);
    LLVMTypeRef params[n ? n : 1];
    LLVMGetParamTypes(type, params);
    LLVMTypeRef named = LLVMPointerTypeInContext(c->llvm, (unsigned)space);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetTypeKind(params[i]) == LLVMPointerTypeKind &&
            LLVMGetPointerAddressSpace(params[i]) == SPACE_GENERIC)
            params[i] = named;
    LLVMValueRef decl = LLVMGetNamedFunction(c->module, name);
    if (!decl) {
        decl = LLVMAddFunction(c->module, name,
                               LLVMFunctionType(LLVMGetReturnType(type), params, n,
                                                LLVMIsFunctionVarArg(type)));
        LLVMSetFunctionCallConv(decl, LLVMGetFunctionCallConv(fn));
    }
    LLVMValueRef args[n ? n : 1];
    LLVMPositionBuilderBefore(b, call);
    for (unsigned i = 0; i < n; i++) {
        args[i] = LLVMGetOperand(call, i);
        if (params[i] == named && space_of(args[i]) == SPACE_GENERIC)
            args[i] = LLVMBuildAddrSpaceCast(b, args[i], named, "");
    }
    LLVMValueRef direct = LLVMBuildCall2(b, LLVMGlobalGetValueType(decl), decl, args, n, "");
    LLVMSetInstructionCallConv(direct, LLVMGetInstructionCallConv(call));
    LLVMInstructionSetDebugLoc(direct, LLVMInstructionGetDebugLoc(call));
    if (LLVMGetTypeKind(LLVMGetReturnType(type)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(call, direct);
    LLVMInstructionEraseFromParent(call);
}

int hls_generic_builtin_calls(hls_compile *c, LLVMModuleRef library)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (!LLVMIsDeclaration(fn) || !strstr(name, "PU3AS4"))
            continue;
        LLVMUseRef next;
        for (LLVMUseRef use = LLVMGetFirstUse(fn); use; use = next) {
            next = LLVMGetNextUse(use);
            LLVMValueRef call = LLVMGetUser(use);
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn)
                continue;
            walk w = {.c = c};
            int space = SPACE_NONE;
            for (unsigned i = 0, n = LLVMGetNumArgOperands(call); i < n; i++) {
                LLVMValueRef arg = LLVMGetOperand(call, i);
                if (LLVMGetTypeKind(LLVMTypeOf(arg)) == LLVMPointerTypeKind &&
                    space_of(arg) == SPACE_GENERIC)
                    space = meet(space, origin(&w, arg));
            }
            if (space < 0)
                continue;
            const char *overload = named_space_name(c, name, space);
            LLVMValueRef target = LLVMGetNamedFunction(library, overload);
            if (target && !LLVMIsDeclaration(target))
                call_named_overload(c, b, call, fn, overload, space);
        }
    }
    LLVMDisposeBuilder(b);
    return HLS_OK;
}
