/* fp_model.c: bit-accurate C models of the clhls arithmetic operator templates
 * (declared in fp_model.h).
 *
 * These are at once the simulation models (the templates call them through DPI-C
 * when CLHLS_SIM_MODELS is defined) and the reference of the template tests
 * (tests/rtl/gen_fp_vectors writes its vectors with them and the RTL testbenches
 * compare the datapaths with those vectors bit for bit), so the RTL tests prove the
 * models equal to the RTL. The floating-point models are the host's binary32 and
 * binary64 arithmetic with the clhls conventions applied, those of the templates'
 * default SUBNORMALS parameter: binary64 (W = 64, SUBNORMALS = 1) is plain IEEE
 * arithmetic, subnormal operands and results included; binary32 (W = 32,
 * SUBNORMALS = 0) flushes: subnormal inputs become zeros of the same sign (each
 * binary32 function takes a `normal` mask of the operands the caller knows are not
 * subnormal, whose flush it skips: it would change nothing) and the IEEE-rounded
 * result is flushed to a zero of the same sign when it is subnormal (so a tiny result
 * that rounds up to the smallest normal stays). ftod converts binary32
 * subnormals exactly; dtof flushes a result below the binary32 normal range. Every
 * NaN result is the canonical quiet NaN (0x7FC00000, 0x7FF8000000000000); fma rounds
 * once (fmaf, fma: the product is exact and not flushed, only the binary32 inputs
 * and result are); conversions to integers truncate and saturate (NaN -> 0, negative
 * -> 0 when unsigned). The integer divider model is
 * plain integer arithmetic, the RTL's division by zero and signed overflow included.
 *
 * Build with -ffp-contract=off -fno-fast-math: every operation must be one rounding
 * in its format, with the host evaluating binary32 and binary64 as such
 * (FLT_EVAL_METHOD 0, e.g. x86-64 SSE, not x87; checked below). Each function is one
 * floating-point operation, so there is nothing to contract into another. The
 * calls must run in the default floating-point environment, as gen_fp_vectors does:
 * round to nearest even, no flush-to-zero or denormals-are-zero (a host program linked
 * with -ffast-math sets both in MXCSR: then results that round up to the smallest
 * normal come out as zero), exceptions masked; the functions do not switch it
 * themselves (reading MXCSR costs more than the operation): sim-bridge/model.c sets
 * it once around every run of simulated cycles. The file is also valid C++: Verilator
 * compiles the user .c files it is given with the C++ compiler, and a model's
 * per-cycle C++ includes it through fp_model_inline.h.
 */
#include "fp_model.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "fp_model.c needs FLT_EVAL_METHOD == 0 (no excess precision, e.g. x86-64 SSE)"
#endif
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "fp_model.c must be compiled with -fno-fast-math"
#endif
/* The DPI-C side passes `longint unsigned` as unsigned long long (clhls_u64). */
static_assert(sizeof(uint64_t) == sizeof(clhls_u64), "uint64_t is not 64-bit long long");

/* Empty here; `inline` where fp_model_inline.h includes this file into generated C++. */
#ifndef CLHLS_FP_MODEL_LINKAGE
#define CLHLS_FP_MODEL_LINKAGE
#endif

#define QNAN 0x7FC00000u
#define DQNAN 0x7FF8000000000000ull

/* ---- bit patterns ---- */
static float f_of(uint32_t x) { float f; memcpy(&f, &x, sizeof f); return f; }
static uint32_t u_of(float f) { uint32_t x; memcpy(&x, &f, sizeof x); return x; }
static double d_of(uint64_t x) { double d; memcpy(&d, &x, sizeof d); return d; }
static uint64_t v_of(double d) { uint64_t x; memcpy(&x, &d, sizeof x); return x; }
/* binary32 subnormal (input or result) -> zero of the same sign. */
static uint32_t ftz(uint32_t x) { return ((x >> 23) & 0xFF) == 0 ? (x & 0x80000000u) : x; }
/* Operand `bit` of a binary32 unit: flushed unless `normal` says it is never subnormal. */
static uint32_t operand(uint32_t x, uint8_t normal, int bit)
{
    return (normal >> bit) & 1 ? x : ftz(x);
}
/* A binary32 result: NaN -> the canonical NaN, subnormal -> signed zero. */
static uint32_t canon(float r) { return isnan(r) ? QNAN : ftz(u_of(r)); }
/* A binary64 result: NaN -> the canonical NaN (subnormals stay). */
static uint64_t canond(double r) { return isnan(r) ? DQNAN : v_of(r); }
/* Integer widths: 1 .. 64 (anything else counts as 64). */
static int width_of(int w) { return w < 1 || w > 64 ? 64 : w; }
static uint64_t wmask(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
/* The w-bit two's complement value v (zero-extended) as int64_t. */
static int64_t sext(uint64_t v, int w)
{
    int64_t sv;
    if ((v >> (w - 1)) & 1)
        v |= ~wmask(w);
    memcpy(&sv, &v, sizeof sv);
    return sv;
}

/* ---- binary32 ---- */
CLHLS_FP_MODEL_LINKAGE uint32_t clhls_model_fadd32(uint32_t a, uint32_t b, uint8_t sub,
                                                   uint8_t normal)
{
    float x = f_of(operand(a, normal, 0)), y = f_of(operand(b, normal, 1));
    float r = (sub & 1) ? x - y : x + y;
    return canon(r);
}
CLHLS_FP_MODEL_LINKAGE uint32_t clhls_model_fmul32(uint32_t a, uint32_t b, uint8_t normal)
{
    float x = f_of(operand(a, normal, 0)), y = f_of(operand(b, normal, 1));
    float r = x * y;
    return canon(r);
}
CLHLS_FP_MODEL_LINKAGE uint32_t clhls_model_fdiv32(uint32_t a, uint32_t b, uint8_t normal)
{
    float x = f_of(operand(a, normal, 0)), y = f_of(operand(b, normal, 1));
    float r = x / y;
    return canon(r);
}
CLHLS_FP_MODEL_LINKAGE uint32_t clhls_model_fsqrt32(uint32_t a, uint8_t normal)
{
    float x = f_of(operand(a, normal, 0));
    float r = sqrtf(x);
    return canon(r);
}
CLHLS_FP_MODEL_LINKAGE uint32_t clhls_model_fma32(uint32_t a, uint32_t b, uint32_t c,
                                                  uint8_t normal)
{
    float x = f_of(operand(a, normal, 0)), y = f_of(operand(b, normal, 1)),
          z = f_of(operand(c, normal, 2));
    float r = fmaf(x, y, z);
    return canon(r);
}

/* An LLVM fcmp predicate from the relation of the operands. */
static int pred_result(int pred, int uno, int eq, int lt, int gt)
{
    switch (pred) {
    case 0: return 0;
    case 1: return eq;
    case 2: return gt;
    case 3: return gt || eq;
    case 4: return lt;
    case 5: return lt || eq;
    case 6: return lt || gt;
    case 7: return !uno;
    case 8: return uno;
    case 9: return uno || eq;
    case 10: return uno || gt;
    case 11: return uno || gt || eq;
    case 12: return uno || lt;
    case 13: return uno || lt || eq;
    case 14: return uno || !eq;
    default: return 1;
    }
}
CLHLS_FP_MODEL_LINKAGE uint8_t clhls_model_fcmp32(uint32_t a, uint32_t b, uint8_t pred,
                                                  uint8_t normal)
{
    float x = f_of(operand(a, normal, 0)), y = f_of(operand(b, normal, 1));
    int uno = isunordered(x, y);
    int r = pred_result(pred & 15, uno, !uno && x == y, !uno && x < y, !uno && x > y);
    return (uint8_t)r;
}

CLHLS_FP_MODEL_LINKAGE uint32_t clhls_model_itofp32(clhls_u64 a, int in_w, int is_signed)
{
    int w = width_of(in_w);
    uint64_t v = a & wmask(w);
    float f;
    if (is_signed)
        f = (float)sext(v, w);
    else
        f = (float)v;
    return u_of(f);
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_fptoi32(uint32_t a, int out_w, int is_signed)
{
    int w = width_of(out_w);
    uint64_t r;
    float f = f_of(ftz(a));
    if (isnan(f)) {
        r = 0;
    } else {
        float t = truncf(f);
        if (is_signed) {
            float lim = ldexpf(1.0f, w - 1);
            if (t >= lim)
                r = wmask(w) >> 1;               /* largest signed */
            else if (t < -lim)
                r = 1ull << (w - 1);             /* smallest signed, two's complement */
            else
                r = (uint64_t)(int64_t)t & wmask(w);
        } else if (t >= ldexpf(1.0f, w)) {
            r = wmask(w);
        } else if (t <= 0.0f) {
            r = 0;
        } else {
            r = (uint64_t)t;
        }
    }
    return r;
}

/* ---- binary64 (keeps each operation one binary64 rounding) ---- */
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_fadd64(clhls_u64 a, clhls_u64 b, uint8_t sub)
{
    double x = d_of(a), y = d_of(b);
    double r = (sub & 1) ? x - y : x + y;
    return canond(r);
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_fmul64(clhls_u64 a, clhls_u64 b)
{
    double x = d_of(a), y = d_of(b);
    double r = x * y;
    return canond(r);
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_fdiv64(clhls_u64 a, clhls_u64 b)
{
    double x = d_of(a), y = d_of(b);
    double r = x / y;
    return canond(r);
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_fsqrt64(clhls_u64 a)
{
    double x = d_of(a);
    double r = sqrt(x);
    return canond(r);
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_fma64(clhls_u64 a, clhls_u64 b, clhls_u64 c)
{
    double x = d_of(a), y = d_of(b), z = d_of(c);
    double r = fma(x, y, z);
    return canond(r);
}
CLHLS_FP_MODEL_LINKAGE uint8_t clhls_model_fcmp64(clhls_u64 a, clhls_u64 b, uint8_t pred)
{
    double x = d_of(a), y = d_of(b);
    int uno = isunordered(x, y);
    int r = pred_result(pred & 15, uno, !uno && x == y, !uno && x < y, !uno && x > y);
    return (uint8_t)r;
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_itofp64(clhls_u64 a, int in_w, int is_signed)
{
    int w = width_of(in_w);
    uint64_t v = a & wmask(w);
    double d;
    if (is_signed)
        d = (double)sext(v, w);
    else
        d = (double)v;
    return v_of(d);
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_fptoi64(clhls_u64 a, int out_w, int is_signed)
{
    int w = width_of(out_w);
    uint64_t r;
    double f = d_of(a);
    if (isnan(f)) {
        r = 0;
    } else {
        double t = trunc(f);
        if (is_signed) {
            double lim = ldexp(1.0, w - 1);
            if (t >= lim)
                r = wmask(w) >> 1;
            else if (t < -lim)
                r = 1ull << (w - 1);
            else
                r = (uint64_t)(int64_t)t & wmask(w);
        } else if (t >= ldexp(1.0, w)) {
            r = wmask(w);
        } else if (t <= 0.0) {
            r = 0;
        } else {
            r = (uint64_t)t;
        }
    }
    return r;
}

/* ---- conversions between the formats ---- */
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_ftod(uint32_t a)
{
    double d = (double)f_of(a);   /* exact, binary32 subnormals too */
    return canond(d);
}
CLHLS_FP_MODEL_LINKAGE uint32_t clhls_model_dtof(clhls_u64 a)
{
    float f = (float)d_of(a);     /* a binary32 subnormal result flushes */
    return canon(f);
}

/* ---- integer divider ----
 * As clhls_idiv computes it: the magnitudes divided (restoring division: with a zero
 * divisor every step fits, so the quotient is all ones and the remainder |a|), then
 * the quotient negated when the signs differ and b != 0, the remainder when a is
 * negative. So b = 0 gives q = all ones, r = a; the most negative a over -1 gives
 * |a| = 2^(w-1) = the most negative value, r = 0. */
static void idiv(uint64_t a, uint64_t b, int width, int is_signed, uint64_t *q, uint64_t *r)
{
    int w = width_of(width);
    uint64_t m = wmask(w);
    a &= m;
    b &= m;
    int a_neg = is_signed && ((a >> (w - 1)) & 1);
    int b_neg = is_signed && ((b >> (w - 1)) & 1);
    uint64_t a_mag = a_neg ? (0 - a) & m : a;
    uint64_t b_mag = b_neg ? (0 - b) & m : b;
    uint64_t quot = b_mag == 0 ? m : a_mag / b_mag;
    uint64_t rmd = b_mag == 0 ? a_mag : a_mag % b_mag;
    *q = ((a_neg != b_neg) && b != 0 ? 0 - quot : quot) & m;
    *r = (a_neg ? 0 - rmd : rmd) & m;
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_idiv_q(clhls_u64 a, clhls_u64 b, int width, int is_signed)
{
    uint64_t q, r;
    idiv(a, b, width, is_signed, &q, &r);
    return q;
}
CLHLS_FP_MODEL_LINKAGE clhls_u64 clhls_model_idiv_r(clhls_u64 a, clhls_u64 b, int width, int is_signed)
{
    uint64_t q, r;
    idiv(a, b, width, is_signed, &q, &r);
    return r;
}
