/* fp_model.h: bit-accurate C models of the clhls arithmetic operator templates.
 *
 * One function per operator template of rtl-templates/ (clhls_fadd, clhls_fmul,
 * clhls_fdiv, clhls_fsqrt, clhls_fma, clhls_fcmp, clhls_itofp, clhls_fptoi,
 * clhls_ftod, clhls_dtof at W = 32 and 64, and clhls_idiv), returning exactly the
 * template's combinational result for the same operands. With the Verilog define
 * CLHLS_SIM_MODELS the templates call them through DPI-C (the imports are in
 * rtl-templates/clhls_sim_models.vh) instead of evaluating their bit-level datapath,
 * and tests/rtl/gen_fp_vectors makes the templates' reference vectors with them, so
 * the RTL tests prove these functions equal to the RTL. The types are those of the
 * DPI-C imports: uint32_t for `int unsigned`, clhls_u64 for `longint unsigned` (the
 * `unsigned long long` of Verilator's *__Dpi.h, so that both declarations agree where
 * fp_model_inline.h puts them side by side), uint8_t for
 * `byte unsigned` and `bit`, int for `int`. Operands narrower than their type are
 * zero-extended, results too; integer widths are 1 .. 64 (other values count as 64).
 * All functions are pure and thread-safe.
 */
#ifndef CLHLS_FP_MODEL_H
#define CLHLS_FP_MODEL_H

#include <stdint.h>

/* A DPI-C `longint unsigned`. */
typedef unsigned long long clhls_u64;

#ifdef __cplusplus
extern "C" {
#endif

/* The binary32 models flush subnormal operands to zero, except operand i when bit i
 * of `normal` is set: the caller knows it is never subnormal (the result of another
 * binary32 unit, a normal constant), so its flush would change nothing. */
/* clhls_fadd: a + b, or a - b when bit 0 of sub is set. */
uint32_t clhls_model_fadd32(uint32_t a, uint32_t b, uint8_t sub, uint8_t normal);
clhls_u64 clhls_model_fadd64(clhls_u64 a, clhls_u64 b, uint8_t sub);
/* clhls_fmul: a * b. */
uint32_t clhls_model_fmul32(uint32_t a, uint32_t b, uint8_t normal);
clhls_u64 clhls_model_fmul64(clhls_u64 a, clhls_u64 b);
/* clhls_fdiv: a / b. */
uint32_t clhls_model_fdiv32(uint32_t a, uint32_t b, uint8_t normal);
clhls_u64 clhls_model_fdiv64(clhls_u64 a, clhls_u64 b);
/* clhls_fsqrt: sqrt(a). */
uint32_t clhls_model_fsqrt32(uint32_t a, uint8_t normal);
clhls_u64 clhls_model_fsqrt64(clhls_u64 a);
/* clhls_fma: a * b + c, one rounding. */
uint32_t clhls_model_fma32(uint32_t a, uint32_t b, uint32_t c, uint8_t normal);
clhls_u64 clhls_model_fma64(clhls_u64 a, clhls_u64 b, clhls_u64 c);
/* clhls_fcmp: 1 if a pred b, else 0; pred (bits 3:0) is LLVM's FCmp predicate,
 * 0 false, 1 oeq, 2 ogt, 3 oge, 4 olt, 5 ole, 6 one, 7 ord, 8 uno, 9 ueq, 10 ugt,
 * 11 uge, 12 ult, 13 ule, 14 une, 15 true. */
uint8_t clhls_model_fcmp32(uint32_t a, uint32_t b, uint8_t pred, uint8_t normal);
uint8_t clhls_model_fcmp64(clhls_u64 a, clhls_u64 b, uint8_t pred);
/* clhls_itofp: the in_w-bit integer a (1 .. 64; two's complement when is_signed is
 * nonzero), rounded to nearest even; bits of a above in_w are ignored. */
uint32_t clhls_model_itofp32(clhls_u64 a, int in_w, int is_signed);
clhls_u64 clhls_model_itofp64(clhls_u64 a, int in_w, int is_signed);
/* clhls_fptoi: a truncated to an out_w-bit integer (1 .. 64; signed when is_signed is
 * nonzero), saturating; NaN gives 0. The result is zero-extended from out_w bits. */
clhls_u64 clhls_model_fptoi32(uint32_t a, int out_w, int is_signed);
clhls_u64 clhls_model_fptoi64(clhls_u64 a, int out_w, int is_signed);
/* clhls_ftod and clhls_dtof: binary32 -> binary64 (exact) and back (rounded). */
clhls_u64 clhls_model_ftod(uint32_t a);
uint32_t clhls_model_dtof(clhls_u64 a);
/* clhls_idiv: the quotient and the remainder of the width-bit integers a / b (width
 * 1 .. 64; signed when is_signed is nonzero, C's truncating division), zero-extended
 * from width bits; bits of a and b above width are ignored. Division by zero gives
 * q = all ones, r = a; the signed overflow (most negative / -1) gives q = most
 * negative, r = 0. */
clhls_u64 clhls_model_idiv_q(clhls_u64 a, clhls_u64 b, int width, int is_signed);
clhls_u64 clhls_model_idiv_r(clhls_u64 a, clhls_u64 b, int width, int is_signed);

#ifdef __cplusplus
}
#endif

#endif /* CLHLS_FP_MODEL_H */
