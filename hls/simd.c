/* SIMD work-items: Intel's __attribute__((num_simd_work_items(N))) (pragmas.c
 * remembers it), N = 2, 4, 8 or 16, with reqd_work_group_size whose X is a multiple of
 * N. The compute unit then takes N work-items a cycle: each of its work-items stands for
 * N neighbours in dimension 0, its lanes. This pass makes the kernel's body run once
 * per lane: lane 0 is the body as it is, lanes 1 .. N-1 are copies of its blocks, and
 * each lane's `ret` goes on to the next lane's entry (the copies' allocas move to the
 * entry block, where SROA finds them). In lane L, the work-item functions of dimension
 * 0 answer for the lane's work-item: get_global_id(0), get_local_id(0) and
 * get_local_linear_id() are the hardware's id * N | L, and get_local_size,
 * get_enqueued_local_size, get_global_size and get_global_offset of dimension 0 are N
 * times the hardware's. The runtime enqueues the hardware with the global size, local
 * size and global offset of dimension 0 divided by N (it takes only offsets that are
 * multiples of N), so the hardware's global id times N is the first lane's (lower.c
 * divides the kernel's required size; metadata.json says "simd_work_items"). Written
 * with a shift and an `or`, a lane's index is visibly the next of lane 0's, even after
 * a conversion to int (widen.c). Straight-line lanes become one static region, and the
 * accesses of neighbouring lanes sit at neighbouring addresses, so the coalescing
 * passes make them one wide access. Lanes run one after another inside a
 * work-item, so a kernel that synchronizes its work-group (barriers, work-group and
 * sub-group functions) or uses channels or pipes cannot have them: a build error at
 * the attribute, as is a width other than 2, 4, 8, 16 or a required size that does not
 * allow it. */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "passes.h"

/* The first call of fn that lanes cannot run one after another (a work-group
 * synchronisation, a channel or a pipe), or NULL; *what says what it is. */
static LLVMValueRef lane_blocker(LLVMValueRef fn, const char **what)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            const char *name = hls_llvm_callee_name(i);
            hls_sync_kind sync;
            if ((!hls_find_sync_fn(name, &sync) && sync == HLS_SYNC_BARRIER) ||
                strstr(name, "work_group_"))
                *what = "synchronizes its work-group (a barrier or a work-group function)";
            else if (strstr(name, "sub_group"))
                *what = "uses a sub-group function";
            else if (hls_is_channel_call(name))
                *what = "uses a channel or a pipe";
            else
                continue;
            return i;
        }
    return NULL;
}

/* A lane's copy of the body: lane 0's values (blocks and instructions, by map) and
 * their copies. */
typedef struct lane_copy {
    hls_value_map map;          /* lane 0's block i -> i, instruction j -> n + j */
    int n;                      /* blocks */
    LLVMBasicBlockRef *blocks;  /* the copies of the blocks */
    LLVMValueRef *from, *to;    /* instruction j of lane 0 and its copy */
    int count;                  /* instructions copied */
} lane_copy;

/* Lane 0's value v in the lane: a block's or an instruction's copy, else v itself
 * (arguments, constants, globals). */
static LLVMValueRef in_lane(const lane_copy *l, LLVMValueRef v)
{
    int id = hls_value_map_get(&l->map, v);
    return id < 0 ? v : id < l->n ? LLVMBasicBlockAsValue(l->blocks[id]) : l->to[id - l->n];
}

/* Lane `lane`'s copy of fn's blocks blocks[0 .. n) (lane 0's, the originals), appended
 * to fn: instructions cloned in order, phis rebuilt, operands and successors moved to
 * the copies (debug intrinsics are left out), allocas moved to the entry block, where
 * SROA finds them. The copies' blocks go to copies[]. */
static void copy_lane(hls_compile *c, LLVMBuilderRef b, LLVMValueRef fn, LLVMBasicBlockRef *blocks,
                      int n, int lane, LLVMBasicBlockRef *copies)
{
    lane_copy l = {.n = n, .blocks = copies};
    size_t total = 0;
    for (int i = 0; i < n; i++)
        for (LLVMValueRef inst = LLVMGetFirstInstruction(blocks[i]); inst;
             inst = LLVMGetNextInstruction(inst))
            total++;
    l.from = arena_alloc(&c->arena, (total + 1) * sizeof *l.from);
    l.to = arena_alloc(&c->arena, (total + 1) * sizeof *l.to);
    hls_value_map_init(&c->arena, &l.map, 64);
    for (int i = 0; i < n; i++) {
        copies[i] = LLVMAppendBasicBlockInContext(c->llvm, fn,
                                                  arena_printf(&c->arena, "lane%d", lane));
        hls_value_map_set(&c->arena, &l.map, LLVMBasicBlockAsValue(blocks[i]), i);
    }
    for (int i = 0; i < n; i++) {
        LLVMPositionBuilderAtEnd(b, copies[i]);
        for (LLVMValueRef inst = LLVMGetFirstInstruction(blocks[i]); inst;
             inst = LLVMGetNextInstruction(inst)) {
            if (!strncmp(hls_llvm_callee_name(inst), "llvm.dbg.", 9))
                continue;
            LLVMValueRef copy;
            if (LLVMIsAPHINode(inst)) {
                copy = LLVMBuildPhi(b, LLVMTypeOf(inst), "");
            } else {
                copy = LLVMInstructionClone(inst);
                LLVMInsertIntoBuilder(b, copy);
            }
            hls_value_map_set(&c->arena, &l.map, inst, n + l.count);
            l.from[l.count] = inst;
            l.to[l.count++] = copy;
        }
    }
    for (int i = 0; i < l.count; i++) {
        if (LLVMIsAPHINode(l.from[i])) {
            for (unsigned e = 0; e < LLVMCountIncoming(l.from[i]); e++) {
                LLVMValueRef v = in_lane(&l, LLVMGetIncomingValue(l.from[i], e));
                LLVMBasicBlockRef bb = LLVMValueAsBasicBlock(
                    in_lane(&l, LLVMBasicBlockAsValue(LLVMGetIncomingBlock(l.from[i], e))));
                LLVMAddIncoming(l.to[i], &v, &bb, 1);
            }
            continue;
        }
        int ops = LLVMGetNumOperands(l.from[i]);
        for (int o = 0; o < ops; o++)
            LLVMSetOperand(l.to[i], (unsigned)o,
                           in_lane(&l, LLVMGetOperand(l.from[i], (unsigned)o)));
    }
    LLVMValueRef first = LLVMGetFirstInstruction(blocks[0]);
    for (int i = 0; i < l.count; i++)
        if (LLVMIsAAllocaInst(l.to[i])) {
            LLVMInstructionRemoveFromParent(l.to[i]);
            LLVMPositionBuilderBefore(b, first);
            LLVMInsertIntoBuilder(b, l.to[i]);
        }
}

/* In the blocks of one lane (n of them), each work-item function of dimension 0 answers
 * for the lane's work-item of `lanes` (see the top of the file). */
static void answer_for_lane(LLVMBuilderRef b, LLVMBasicBlockRef *blocks, int n, int lane,
                            int lanes)
{
    for (int i = 0; i < n; i++) {
        LLVMValueRef next;
        for (LLVMValueRef call = LLVMGetFirstInstruction(blocks[i]); call; call = next) {
            next = LLVMGetNextInstruction(call);
            const hls_workitem_fn *w = hls_find_workitem_fn(hls_llvm_callee_name(call));
            if (!w)
                continue;
            int token = w->opc == HOP_TOKEN;
            int id = token && (w->field == HLS_TOK_GLOBAL_ID || w->field == HLS_TOK_LOCAL_ID ||
                               w->field == HLS_TOK_LOCAL_LINEAR_ID);
            int size = token ? w->field == HLS_TOK_GROUP_SIZE
                             : w->field == HLS_ND_LOCAL_SIZE || w->field == HLS_ND_GLOBAL_SIZE ||
                                   w->field == HLS_ND_GLOBAL_OFFSET;
            if (!id && !size)
                continue;
            LLVMTypeRef t = LLVMTypeOf(call);
            LLVMPositionBuilderBefore(b, next);
            LLVMValueRef hw = LLVMInstructionClone(call), v = hw;
            LLVMInsertIntoBuilder(b, hw);
            int shift = 0;
            while ((1 << shift) < lanes)
                shift++;
            LLVMValueRef s = LLVMConstInt(t, (unsigned long long)shift, 0);
            LLVMValueRef l = LLVMConstInt(t, (unsigned long long)lane, 0);
            v = LLVMBuildShl(b, v, s, "");
            if (id) /* N * x | L: the lanes' ids are that multiple of N and the next ones */
                v = LLVMBuildOr(b, v, l, "");
            if (LLVMGetNumArgOperands(call) == 1) { /* only dimension 0 has lanes */
                LLVMValueRef dim = LLVMGetOperand(call, 0);
                LLVMValueRef is0 = LLVMBuildICmp(b, LLVMIntEQ, dim,
                                                 LLVMConstInt(LLVMTypeOf(dim), 0, 0), "");
                v = LLVMBuildSelect(b, is0, v, hw, "");
            }
            LLVMReplaceAllUsesWith(call, v);
            LLVMInstructionEraseFromParent(call);
        }
    }
}

/* Marks the memory accesses of one lane's blocks (n of them) as the lane's (HLS_LANE_MD):
 * the lanes are different work-items, so nothing orders one lane's accesses with
 * another's, and neighbouring lanes' accesses can become one. */
static void mark_lane(hls_compile *c, LLVMBasicBlockRef *blocks, int n, int lane)
{
    unsigned kind = LLVMGetMDKindIDInContext(c->llvm, HLS_LANE_MD, sizeof HLS_LANE_MD - 1);
    LLVMValueRef number = LLVMConstInt(LLVMInt32TypeInContext(c->llvm), (unsigned)lane, 0);
    LLVMValueRef md = LLVMMDNodeInContext(c->llvm, &number, 1);
    for (int i = 0; i < n; i++)
        for (LLVMValueRef inst = LLVMGetFirstInstruction(blocks[i]); inst;
             inst = LLVMGetNextInstruction(inst))
            if (LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst) || LLVMIsAAtomicRMWInst(inst) ||
                LLVMIsAAtomicCmpXchgInst(inst) || LLVMIsACallInst(inst))
                LLVMSetMetadata(inst, kind, md);
}

/* Gives kernel fn `lanes` lanes. */
static void make_lanes(hls_compile *c, LLVMValueRef fn, int lanes)
{
    int n = (int)LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *blocks = arena_alloc(&c->arena, (size_t)lanes * (size_t)n * sizeof *blocks);
    LLVMGetBasicBlocks(fn, blocks);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    for (int lane = 1; lane < lanes; lane++)
        copy_lane(c, b, fn, blocks, n, lane, blocks + (size_t)lane * (size_t)n);
    for (int lane = 0; lane < lanes; lane++) {
        LLVMBasicBlockRef *own = blocks + (size_t)lane * (size_t)n;
        answer_for_lane(b, own, n, lane, lanes);
        mark_lane(c, own, n, lane);
        if (lane == lanes - 1)
            continue;
        for (int i = 0; i < n; i++) { /* its end: on to the next lane */
            LLVMValueRef term = LLVMGetBasicBlockTerminator(own[i]);
            if (!term || LLVMGetInstructionOpcode(term) != LLVMRet)
                continue;
            LLVMPositionBuilderBefore(b, term);
            LLVMValueRef br = LLVMBuildBr(b, own[n]);
            LLVMInstructionSetDebugLoc(br, LLVMInstructionGetDebugLoc(term));
            LLVMInstructionEraseFromParent(term);
        }
    }
    LLVMDisposeBuilder(b);
}

int hls_simd(hls_compile *c)
{
    int errors = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        const hls_vendor_attr *a =
            hls_vendor_attribute(c, HLS_ATTR_NUM_SIMD_WORK_ITEMS, name, NULL);
        if (!a || a->value == 1)
            continue;
        unsigned x = (unsigned)strtoul(hls_llvm_function_md(c, fn, "reqd_work_group_size", 0),
                                       NULL, 10); /* 0 without one */
        const char *what = NULL;
        LLVMValueRef blocker = lane_blocker(fn, &what);
        if (a->value != 2 && a->value != 4 && a->value != 8 && a->value != 16) {
            hls_error(&c->diag, a->loc, "num_simd_work_items takes 1, 2, 4, 8 or 16");
        } else if (!x || x % (unsigned)a->value) {
            hls_error(&c->diag, a->loc, "num_simd_work_items(%d) needs "
                      "reqd_work_group_size(X, Y, Z) with X a multiple of %d%s", a->value,
                      a->value, x ? arena_printf(&c->arena, " (X is %u)", x) : "");
        } else if (blocker) {
            hls_loc at = hls_llvm_diag_loc(c, blocker);
            hls_error(&c->diag, a->loc, "kernel '%s' %s at line %d, so it cannot have SIMD "
                      "work-items: its lanes run one after another", name, what, at.line);
        } else {
            make_lanes(c, fn, a->value);
            c->simplify_pending = 1;
            continue;
        }
        errors++;
    }
    return errors ? HLS_ERR_COMPILE : HLS_OK;
}
