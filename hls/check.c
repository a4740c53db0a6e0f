/* Checks: finds everything in the prepared LLVM IR that the hardware cannot (yet)
 * implement and reports each as a user error at the construct's file:line:col, so
 * that clBuildProgram fails with a log that points at the source instead of the
 * compiler crashing later. Lowering may then assume supported input. */
#include <llvm-c/Target.h>
#include <string.h>

#include "builtins.h"
#include "passes.h"

static int is_kernel(LLVMValueRef fn)
{
    return LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv;
}

/* Value types the datapath carries: integers up to 64 bits, float, pointers. Returns
 * what is wrong ("... is not supported yet") or NULL. */
static const char *unsupported_type(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(t) <= 64 ? NULL : "an integer wider than 64 bits";
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMPointerTypeKind:
    case LLVMVoidTypeKind:
        return NULL;
    case LLVMHalfTypeKind:
        return "half precision floating point";
    case LLVMVectorTypeKind:
        return "a vector type";
    case LLVMStructTypeKind:
        return "a structure passed by value";
    case LLVMArrayTypeKind:
        return "an array passed by value";
    default:
        return "this data type";
    }
}

/* Whether a program-scope variable can be a table in ROM: __constant, initialised,
 * of integers and floats (in arrays and structs), small enough. Returns what is
 * wrong, or NULL. */
static int rom_type_ok(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) <= 64;
    case LLVMFloatTypeKind: case LLVMDoubleTypeKind: return 1;
    case LLVMArrayTypeKind: return rom_type_ok(LLVMGetElementType(t));
    case LLVMStructTypeKind:
        for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++)
            if (!rom_type_ok(LLVMStructGetTypeAtIndex(t, i)))
                return 0;
        return 1;
    default: return 0;
    }
}

static const char *unsupported_rom(LLVMValueRef v)
{
    if (!LLVMIsAGlobalVariable(v))
        return "this constant expression is not supported yet";
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(v)) != 2 || !LLVMIsGlobalConstant(v) ||
        !LLVMGetInitializer(v))
        return "program-scope variables other than initialised __constant tables are not "
               "supported yet";
    if (!rom_type_ok(LLVMGlobalGetValueType(v)))
        return "a __constant table of this element type is not supported yet";
    LLVMModuleRef m = LLVMGetGlobalParent(v);
    unsigned long long size =
        LLVMABISizeOfType(LLVMGetModuleDataLayout(m), LLVMGlobalGetValueType(v));
    if (size > HLS_MAX_ROM_BYTES)
        return "a __constant table larger than 64 KiB does not fit in on-chip ROM";
    return NULL;
}

static int check_call(hls_compile *c, LLVMValueRef inst, hls_loc loc)
{
    LLVMValueRef callee = LLVMGetCalledValue(inst);
    if (!LLVMIsAFunction(callee)) {
        hls_error(&c->diag, loc, "function pointers are not supported in hardware");
        return 1;
    }
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    if (hls_find_channel_fn(name) != HLS_CHANNEL_NONE || !strcmp(name, HLS_AUTORUN_AGAIN))
        return 0;
    hls_intrinsic kind;
    if (!hls_find_intrinsic(name, &kind))
        return 0;
    hls_sync_kind sync;
    if (!hls_find_sync_fn(name, &sync))
        return 0;
    uint64_t coll;
    int ids;
    if (!hls_find_collective(name, &coll, &ids))
        return 0;
    hls_atomic_op aop;
    if (!hls_find_atomic(name, &aop, &ids)) {
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(inst, 0)));
        if (as == 1 || as == 3)
            return 0;
        hls_error(&c->diag, loc, "atomic functions work on __global and __local memory");
        return 1;
    }
    if (hls_find_workitem_fn(name)) {
        LLVMValueRef dim = LLVMGetNumArgOperands(inst) ? LLVMGetOperand(inst, 0) : NULL;
        if (dim && !LLVMIsAConstantInt(dim)) {
            hls_error(&c->diag, loc, "the dimension of a work-item function must be a "
                                     "compile-time constant");
            return 1;
        }
        return 0;
    }
    if (!strncmp(name, "llvm.", 5)) {
        hls_error(&c->diag, loc, "operation '%s' is not supported yet", name);
        return 1;
    }
    char buf[128];
    hls_error(&c->diag, loc, "OpenCL builtin '%s' is not supported yet",
              hls_demangle(name, buf, sizeof buf));
    return 1;
}

static int check_memory(hls_compile *c, LLVMValueRef ptr, LLVMTypeRef type, hls_loc loc,
                        const char *what)
{
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
    uint64_t offset;
    if (hls_llvm_byval_field(LLVMGetModuleDataLayout(c->module), ptr, &offset)) {
        if (!strcmp(what, "loading"))
            return 0; /* a field of a struct argument: bits of the argument area */
        hls_error(&c->diag, loc, "assigning to a field of a struct argument is not supported "
                                 "yet; copy the struct into a variable first");
        return 1;
    }
    if (as == 4) {
        hls_error(&c->diag, loc, "%s through a generic pointer whose memory (global, local or "
                                 "private) the compiler cannot tell; use a pointer into one "
                                 "address space", what);
        return 1;
    }
    if (as != 1 && as != 2 && as != 3) {
        hls_error(&c->diag, loc, "%s of private memory (arrays or address-taken variables) "
                                 "is not supported yet", what);
        return 1;
    }
    if (LLVMGetTypeKind(type) == LLVMIntegerTypeKind) {
        unsigned w = LLVMGetIntTypeWidth(type);
        if (w != 8 && w != 16 && w != 32 && w != 64) {
            hls_error(&c->diag, loc, "%s of a %u-bit integer is not supported", what, w);
            return 1;
        }
    }
    if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
        /* A whole vector in one access of a load-store unit (of several when it is wider
         * than the memory port: lower.c) or of a local memory's word. */
        unsigned long long bits =
            8 * LLVMStoreSizeOfType(LLVMGetModuleDataLayout(c->module), type);
        if (bits & (bits - 1) || (as == 3 && bits > HLS_MAX_LOCAL_WORD_BITS)) {
            hls_error(&c->diag, loc, "%s of a %llu-bit vector in one access is not supported "
                      "yet (%s %d bits)", what, bits,
                      as == 3 ? "local memory words have at most" : "not a power of two:",
                      as == 3 ? HLS_MAX_LOCAL_WORD_BITS : (int)bits);
            return 1;
        }
    }
    return 0;
}

/* An LLVM atomic instruction (the OpenCL C 2.0 atomic functions, hls/library/atomics.cl):
 * a read-modify-write the memory side and the local memory banks execute, on a 32 or
 * 64-bit word of global or local memory. */
static int check_atomic(hls_compile *c, LLVMValueRef inst, hls_loc loc)
{
    LLVMValueRef ptr = LLVMGetOperand(inst, 0);
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
    if (as != 1 && as != 3) {
        hls_error(&c->diag, loc, "atomic functions work on __global and __local memory");
        return 1;
    }
    int rmw = LLVMGetInstructionOpcode(inst) == LLVMAtomicRMW;
    LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(inst, 1));
    if (rmw) {
        LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(inst);
        int integer_op = op == LLVMAtomicRMWBinOpAdd || op == LLVMAtomicRMWBinOpSub ||
                         op == LLVMAtomicRMWBinOpAnd || op == LLVMAtomicRMWBinOpOr ||
                         op == LLVMAtomicRMWBinOpXor || op == LLVMAtomicRMWBinOpMax ||
                         op == LLVMAtomicRMWBinOpMin || op == LLVMAtomicRMWBinOpUMax ||
                         op == LLVMAtomicRMWBinOpUMin;
        if (!integer_op && op != LLVMAtomicRMWBinOpXchg) {
            hls_error(&c->diag, loc, "this atomic read-modify-write is not supported");
            return 1;
        }
    }
    LLVMTypeKind kind = LLVMGetTypeKind(type);
    unsigned bits = kind == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(type)
                    : kind == LLVMFloatTypeKind ? 32
                    : kind == LLVMDoubleTypeKind ? 64
                                                 : 0;
    if ((bits != 32 && bits != 64) || (kind != LLVMIntegerTypeKind && !rmw)) {
        hls_error(&c->diag, loc, "atomic functions work on 32 and 64-bit values");
        return 1;
    }
    return 0;
}

/* Like unsupported_type, but a vector of integers or floats is fine where an
 * instruction only moves its bits (a private array kept in registers). */
static const char *unsupported_operand_type(LLVMTypeRef t, int moves_bits)
{
    if (moves_bits && LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        return unsupported_type(LLVMGetElementType(t));
    return unsupported_type(t);
}

static int check_instruction(hls_compile *c, LLVMValueRef inst)
{
    hls_loc loc = hls_llvm_diag_loc(c, inst);
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    int moves_bits = op == LLVMPHI || op == LLVMSelect || op == LLVMExtractElement ||
                     op == LLVMInsertElement || op == LLVMShuffleVector ||
                     op == LLVMFreeze || op == LLVMBitCast || op == LLVMLoad || op == LLVMStore ||
                     (op == LLVMCall && LLVMIsAFunction(LLVMGetCalledValue(inst)) &&
                      hls_find_channel_fn(LLVMGetValueName2(LLVMGetCalledValue(inst),
                                                            &(size_t){0})) != HLS_CHANNEL_NONE);
    const char *bad = unsupported_operand_type(LLVMTypeOf(inst), moves_bits);
    if (bad && op != LLVMStore && op != LLVMAtomicCmpXchg) { /* cmpxchg: {old, success} */
        hls_error(&c->diag, loc, "%s is not supported yet", bad);
        return 1;
    }
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(inst); i < n; i++) {
        LLVMValueRef v = LLVMGetOperand(inst, i);
        if (LLVMIsAFunction(v) || LLVMIsABasicBlock(v) ||
            LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMMetadataTypeKind ||
            op == LLVMExtractValue) /* of a compare-exchange's {old, success} */
            continue;
        if ((bad = unsupported_operand_type(LLVMTypeOf(v), moves_bits))) {
            hls_error(&c->diag, loc, "%s is not supported yet", bad);
            return 1;
        }
        if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr)
            v = LLVMGetOperand(v, 0); /* a fixed element of a table */
        if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMAddrSpaceCast)
            v = LLVMGetOperand(v, 0); /* a generic pointer to it (addrspace.c) */
        if (LLVMIsAGlobalVariable(v) && LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3)
            continue; /* a __local array: a local memory of the kernel */
        if (LLVMIsAGlobalVariable(v) || LLVMIsAConstantExpr(v)) {
            if ((bad = unsupported_rom(v))) {
                hls_error(&c->diag, loc, "%s", bad);
                return 1;
            }
        }
    }
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMICmp: case LLVMSelect:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFAdd: case LLVMFSub:
    case LLVMFMul: case LLVMFNeg: case LLVMFCmp: case LLVMSIToFP: case LLVMUIToFP:
    case LLVMFPToSI: case LLVMFPToUI: case LLVMFPExt: case LLVMFPTrunc:
    case LLVMBitCast: case LLVMPtrToInt:
    case LLVMIntToPtr: case LLVMAddrSpaceCast: case LLVMFreeze: case LLVMGetElementPtr:
    case LLVMRet: case LLVMBr: case LLVMSwitch: case LLVMPHI: case LLVMUnreachable:
    case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector:
        return 0;
    case LLVMLoad:
        return check_memory(c, LLVMGetOperand(inst, 0), LLVMTypeOf(inst), loc, "loading");
    case LLVMStore:
        return check_memory(c, LLVMGetOperand(inst, 1), LLVMTypeOf(LLVMGetOperand(inst, 0)),
                            loc, "storing");
    case LLVMCall:
        return check_call(c, inst, loc);
    case LLVMFDiv:
        return 0;
    case LLVMFRem:
        hls_error(&c->diag, loc, "floating-point remainder is not supported yet");
        return 1;
    case LLVMAlloca: /* privarrays.c kept or refused every array; this is a vector */
        hls_error(&c->diag, loc, "private variables of a vector type are not supported yet");
        return 1;
    case LLVMAtomicRMW: case LLVMAtomicCmpXchg:
        return check_atomic(c, inst, loc);
    case LLVMExtractValue: /* the old value or the success flag of a compare-exchange */
        if (LLVMIsAAtomicCmpXchgInst(LLVMGetOperand(inst, 0)))
            return 0;
        hls_error(&c->diag, loc, "this operation is not supported yet");
        return 1;
    case LLVMFence: /* atomics are ordered with every access already (memorder.c) */
        return 0;
    default:
        hls_error(&c->diag, loc, "this operation is not supported yet");
        return 1;
    }
}

/* A struct passed by value lives in the argument area: the kernel may read its fields
 * (loads at constant offsets), nothing else. */
static void check_byval_uses(hls_compile *c, LLVMValueRef v, const char *name)
{
    uint64_t offset;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v))
            continue; /* check_memory judges loads and stores */
        if (LLVMIsAGetElementPtrInst(user) &&
            hls_llvm_byval_field(LLVMGetModuleDataLayout(c->module), user, &offset)) {
            check_byval_uses(c, user, name);
            continue;
        }
        hls_error(&c->diag, hls_llvm_diag_loc(c, user),
                  LLVMIsAGetElementPtrInst(user)
                      ? "indexing an array inside struct argument '%s' at run time is not "
                        "supported yet"
                      : "struct argument '%s' may only be read field by field",
                  name);
        return;
    }
}

static void check_arguments(hls_compile *c, LLVMValueRef fn, hls_loc loc)
{
    for (LLVMValueRef arg = LLVMGetFirstParam(fn); arg; arg = LLVMGetNextParam(arg)) {
        LLVMTypeRef t = LLVMTypeOf(arg);
        size_t len;
        const char *name = LLVMGetValueName2(arg, &len);
        if (hls_llvm_byval_type(arg)) {
            check_byval_uses(c, arg, name);
            continue;
        }
        if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
            unsigned as = LLVMGetPointerAddressSpace(t);
            if (as != 1 && as != 2 && as != 3)
                hls_error(&c->diag, loc, "kernel argument '%s' must point to __global, "
                                         "__constant or __local memory", name);
            continue;
        }
        /* A vector by value is bits of the argument area like a scalar. */
        const char *bad = unsupported_operand_type(t, 1);
        if (bad)
            hls_error(&c->diag, loc, "kernel argument '%s': %s is not supported yet", name,
                      bad);
    }
}

int hls_check(hls_compile *c)
{
    int before = c->diag.errors, kernels = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || !is_kernel(fn))
            continue;
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
        hls_loc loc = hls_llvm_function_loc(c, fn);
        if (++kernels == HLS_MAX_KERNELS + 1)
            hls_error(&c->diag, loc, "a program may have at most %d kernels", HLS_MAX_KERNELS);
        check_arguments(c, fn, loc);
        int errors = 0;
        for (LLVMBasicBlockRef bb = entry; bb && !errors; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !errors;
                 i = LLVMGetNextInstruction(i))
                errors += check_instruction(c, i);
    }
    return c->diag.errors > before ? HLS_ERR_UNSUPPORTED : HLS_OK;
}

/* Runs after inlining: a call to a function with a body that is still there can only
 * be recursion, which hardware (no call stack) cannot implement. A call to a function
 * with a C name (not a built-in, whose names are mangled, nor an LLVM intrinsic, nor
 * printf, nor a channel or pipe function of channels.c) and no body is to a function
 * the program declares and never defines. */
int hls_check_recursion(hls_compile *c)
{
    int before = c->diag.errors;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || !is_kernel(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (LLVMGetInstructionOpcode(i) != LLVMCall)
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                size_t len;
                const char *name =
                    LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
                if (LLVMIsAFunction(callee) && LLVMIsDeclaration(callee) &&
                    strncmp(name, "llvm.", 5) && strncmp(name, "_Z", 2) &&
                    strcmp(name, "printf") && !hls_is_channel_call(name)) {
                    hls_error(&c->diag, hls_llvm_diag_loc(c, i),
                              "function '%s' is declared but never defined", name);
                    return HLS_ERR_UNSUPPORTED;
                }
                if (!LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
                    continue;
                hls_error(&c->diag, hls_llvm_loc(c, i),
                          "recursive call to '%s' cannot be implemented in hardware",
                          LLVMGetValueName2(callee, &len));
                return HLS_ERR_UNSUPPORTED;
            }
    }
    return c->diag.errors > before ? HLS_ERR_UNSUPPORTED : HLS_OK;
}
