/* Divisions: as few dividers as the kernel needs. The hardware divider is a pipeline of
 * one subtraction per quotient bit, 36 stages of 32-bit registers for an `int`, and
 * it gives the quotient and the remainder at once.
 *
 * A remainder of the same operands as a division is x - (x / y) * y, a multiply in
 * place of a second divider (LLVM's div-rem-pairs, which does this for a target
 * without a combined instruction: ours has none).
 *
 * LLVM keeps `sdiv x, 8` and `udiv x, 10` as divisions (a processor's back end expands
 * them later). Every integer division and remainder whose divisor is a constant
 * becomes instead:
 *
 *  - a power of two, 2^k: unsigned, a shift and a mask; signed, the same after adding
 *    2^k - 1 to a negative dividend (so the quotient rounds toward zero), negated for
 *    a divisor of -2^k;
 *  - any other divisor d of an unsigned value of w <= 32 bits: the high bits of a
 *    product, q = x * m / 2^(w+s) with m = ceil(2^(w+s) / d) and the smallest s <= the
 *    bits of d for which m * d - 2^(w+s) <= 2^s, which makes the quotient exact for
 *    every x below 2^w (Granlund and Montgomery, "Division by invariant integers using
 *    multiplication", theorem 4.2). m has up to w + 1 bits; the product is taken in 64
 *    bits, and for w = 32 with a 33-bit m, as t = x * (m - 2^32) / 2^32 and
 *    q = (t + (x - t) / 2) / 2^(s-1), which stays within 64 bits;
 *  - the same of a signed value: the magnitude divided, the quotient negated when the
 *    signs differ (which rounds toward zero, as C does);
 *  - a remainder: x - q * d.
 *
 * 64-bit values divided by a constant that is not a power of two keep the divider
 * (their product would need 128 bits). Division by 0 (undefined) and by 1 or -1
 * (which LLVM folds) are left alone. Runs on the LLVM IR, after the last
 * simplification and before lowering; the new instructions carry the division's
 * source location. */
#include <llvm-c/DebugInfo.h>

#include "passes.h"

/* The width of the integer type t, or 0 for anything else (vectors keep their divider). */
static unsigned int_width(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

/* Quotient of a w-bit signed x by 2^k (0 < k < w), rounded toward zero. */
static LLVMValueRef signed_shift(LLVMBuilderRef b, LLVMValueRef x, unsigned w, unsigned k)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef sign = LLVMBuildAShr(b, x, LLVMConstInt(t, w - 1, 0), "");
    LLVMValueRef bias = LLVMBuildLShr(b, sign, LLVMConstInt(t, w - k, 0), "");
    return LLVMBuildAShr(b, LLVMBuildAdd(b, x, bias, ""), LLVMConstInt(t, k, 0), "");
}

/* Quotient of a w-bit unsigned x (w <= 32) by d (1 < d < 2^w, not a power of two). */
static LLVMValueRef unsigned_reciprocal(LLVMBuilderRef b, LLVMValueRef x, unsigned w, uint64_t d)
{
    LLVMTypeRef t = LLVMTypeOf(x), i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(t));
    if (d > (UINT64_C(1) << (w - 1))) /* the quotient is 0 or 1 */
        return LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntUGE, x, LLVMConstInt(t, d, 0), ""),
                             t, "");
    unsigned bits = 0; /* ceil(log2 d) */
    while ((UINT64_C(1) << bits) < d)
        bits++;
    __extension__ typedef unsigned __int128 u128;
    uint64_t m = 0;
    unsigned s;
    for (s = 0; s <= bits; s++) { /* s = bits always fits */
        u128 p = (u128)1 << (w + s);
        u128 mm = (p + d - 1) / d;
        if (mm * d - p <= ((u128)1 << s)) {
            m = (uint64_t)mm;
            break;
        }
    }
    LLVMValueRef x64 = LLVMBuildZExt(b, x, i64, "");
    if (2 * w + 1 <= 64 || m < (UINT64_C(1) << w)) {
        LLVMValueRef p = LLVMBuildMul(b, x64, LLVMConstInt(i64, m, 0), "");
        return LLVMBuildTrunc(b, LLVMBuildLShr(b, p, LLVMConstInt(i64, w + s, 0), ""), t, "");
    }
    /* w = 32 and m has 33 bits: x * m = x * 2^32 + x * (m - 2^32) would overflow. */
    LLVMValueRef hi = LLVMBuildMul(b, x64, LLVMConstInt(i64, m - (UINT64_C(1) << w), 0), "");
    LLVMValueRef tq = LLVMBuildTrunc(b, LLVMBuildLShr(b, hi, LLVMConstInt(i64, w, 0), ""), t, "");
    LLVMValueRef half = LLVMBuildLShr(b, LLVMBuildSub(b, x, tq, ""), LLVMConstInt(t, 1, 0), "");
    return LLVMBuildLShr(b, LLVMBuildAdd(b, tq, half, ""), LLVMConstInt(t, s - 1, 0), "");
}

/* The quotient (or with `rem`, the remainder) of x by the constant divisor, or NULL
 * when the divider stays. */
static LLVMValueRef divide(LLVMBuilderRef b, int is_signed, int rem, LLVMValueRef x,
                           unsigned w, LLVMValueRef divisor)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    uint64_t mask = w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
    uint64_t d = LLVMConstIntGetZExtValue(divisor) & mask;
    int negative = is_signed && (d >> (w - 1) & 1);
    uint64_t mag = negative ? (~d + 1) & mask : d; /* |d| (2^(w-1) for the most negative) */
    if (mag <= 1)
        return NULL;
    if (!(mag & (mag - 1))) { /* 2^k */
        LLVMValueRef k = LLVMConstInt(t, (unsigned)__builtin_ctzll(mag), 0);
        if (!is_signed)
            return rem ? LLVMBuildAnd(b, x, LLVMConstInt(t, mag - 1, 0), "")
                       : LLVMBuildLShr(b, x, k, "");
        LLVMValueRef q = signed_shift(b, x, w, (unsigned)__builtin_ctzll(mag));
        if (rem) /* the remainder has the dividend's sign, whatever the divisor's */
            return LLVMBuildSub(b, x, LLVMBuildShl(b, q, k, ""), "");
        return negative ? LLVMBuildNeg(b, q, "") : q;
    }
    if (w > 32)
        return NULL;
    LLVMValueRef q;
    if (!is_signed) {
        q = unsigned_reciprocal(b, x, w, d);
    } else {
        /* |x| / |d|, negated when the signs differ; |x| of the most negative x is
         * 2^(w-1), the same bits read as unsigned. */
        LLVMValueRef x_negative = LLVMBuildICmp(b, LLVMIntSLT, x, LLVMConstInt(t, 0, 0), "");
        LLVMValueRef magnitude = LLVMBuildSelect(b, x_negative, LLVMBuildNeg(b, x, ""), x, "");
        LLVMValueRef uq = unsigned_reciprocal(b, magnitude, w, mag);
        LLVMValueRef flip = negative ? LLVMBuildNot(b, x_negative, "") : x_negative;
        q = LLVMBuildSelect(b, flip, LLVMBuildNeg(b, uq, ""), uq, "");
    }
    return rem ? LLVMBuildSub(b, x, LLVMBuildMul(b, q, divisor, ""), "") : q;
}

int hls_divisions(hls_compile *c)
{
    int rc = hls_run_llvm_passes(c, "function(div-rem-pairs)");
    if (rc)
        return rc;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                LLVMOpcode opc = LLVMGetInstructionOpcode(i);
                if (opc != LLVMUDiv && opc != LLVMSDiv && opc != LLVMURem && opc != LLVMSRem)
                    continue;
                LLVMValueRef x = LLVMGetOperand(i, 0), divisor = LLVMGetOperand(i, 1);
                unsigned w = int_width(LLVMTypeOf(i));
                if (w < 2 || w > 64 || !LLVMIsAConstantInt(divisor))
                    continue;
                int is_signed = opc == LLVMSDiv || opc == LLVMSRem;
                LLVMPositionBuilderBefore(b, i);
                LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(i));
                LLVMValueRef v = divide(b, is_signed, opc == LLVMURem || opc == LLVMSRem, x, w,
                                        divisor);
                if (!v)
                    continue;
                LLVMReplaceAllUsesWith(i, v);
                LLVMInstructionEraseFromParent(i);
            }
    LLVMDisposeBuilder(b);
    return HLS_OK;
}
