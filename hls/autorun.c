/* Autorun kernels: Intel's __attribute__((autorun)) on a kernel with
 * __attribute__((max_global_work_dim(0))) (pragmas.c remembers both). Such a kernel
 * starts with the accelerator and runs for ever, fed by channels; the host never
 * enqueues it. Its body runs again each time it ends, as if it were the body of an
 * endless loop, and this pass makes it one:
 *   autorun.start:  (the body's allocas)       br entry
 *   entry: ... every `ret void` becomes       br autorun.again
 *   autorun.again:  %a = call i1 @clhls.autorun.again()   br %a, entry, autorun.end
 *   autorun.end:    ret void
 * The test is a call LLVM cannot see through (the lowering makes it 1), so the loop
 * is an ordinary loop of a single work-item with an exit, which the pipeline pass
 * overlaps (a loop whose end always goes round again stays serial). The kernel's
 * control block starts it out of reset (emit_unit.c: AUTORUN). An autorun kernel has
 * no arguments and one work-item; anything else is a build error at the attribute. */
#include <llvm-c/DebugInfo.h>
#include <string.h>

#include "passes.h"

/* The source location of fn's first instruction that has a line, or NULL. */
static LLVMMetadataRef first_location(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(i);
            if (loc && LLVMDILocationGetLine(loc))
                return loc;
        }
    return NULL;
}

/* Puts fn's body in the loop above. */
static void loop_for_ever(hls_compile *c, LLVMBuilderRef b, LLVMValueRef fn)
{
    LLVMContextRef ctx = c->llvm;
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMMetadataRef loc = first_location(fn);
    LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(ctx, fn, "autorun.again");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(ctx, fn, "autorun.end");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (!term || LLVMGetInstructionOpcode(term) != LLVMRet)
            continue;
        LLVMPositionBuilderBefore(b, term);
        LLVMInstructionSetDebugLoc(LLVMBuildBr(b, again), LLVMInstructionGetDebugLoc(term));
        LLVMInstructionEraseFromParent(term);
    }
    LLVMBasicBlockRef start = LLVMInsertBasicBlockInContext(ctx, entry, "autorun.start");
    LLVMPositionBuilderAtEnd(b, start);
    LLVMValueRef next;
    for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = next) { /* once, not per run */
        next = LLVMGetNextInstruction(i);
        if (LLVMIsAAllocaInst(i)) {
            LLVMInstructionRemoveFromParent(i);
            LLVMInsertIntoBuilder(b, i);
        }
    }
    LLVMValueRef br = LLVMBuildBr(b, entry);
    LLVMPositionBuilderAtEnd(b, again);
    LLVMTypeRef ft = LLVMFunctionType(LLVMInt1TypeInContext(ctx), NULL, 0, 0);
    LLVMValueRef fn_again = LLVMGetNamedFunction(c->module, HLS_AUTORUN_AGAIN);
    if (!fn_again)
        fn_again = LLVMAddFunction(c->module, HLS_AUTORUN_AGAIN, ft);
    LLVMValueRef more = LLVMBuildCall2(b, ft, fn_again, NULL, 0, "");
    LLVMValueRef test = LLVMBuildCondBr(b, more, entry, end);
    LLVMPositionBuilderAtEnd(b, end);
    LLVMValueRef ret = LLVMBuildRetVoid(b);
    if (loc) {
        LLVMValueRef made[] = {br, more, test, ret};
        for (size_t i = 0; i < sizeof made / sizeof *made; i++)
            LLVMInstructionSetDebugLoc(made[i], loc);
    }
}

int hls_autorun(hls_compile *c)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    int errors = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        const hls_vendor_attr *autorun = hls_vendor_attribute(c, HLS_ATTR_AUTORUN, name, NULL);
        if (!autorun)
            continue;
        const hls_vendor_attr *dims =
            hls_vendor_attribute(c, HLS_ATTR_MAX_GLOBAL_WORK_DIM, name, NULL);
        if (!dims || dims->value != 0) {
            hls_error(&c->diag, autorun->loc, "autorun kernel '%s' must be a single work-item: "
                      "give it __attribute__((max_global_work_dim(0)))", name);
            errors++;
        } else if (LLVMCountParams(fn)) {
            hls_error(&c->diag, autorun->loc, "autorun kernel '%s' has arguments, which the host "
                      "never sets: an autorun kernel takes its data from channels", name);
            errors++;
        } else {
            loop_for_ever(c, b, fn);
            c->simplify_pending = 1;
        }
    }
    LLVMDisposeBuilder(b);
    return errors ? HLS_ERR_COMPILE : HLS_OK;
}
