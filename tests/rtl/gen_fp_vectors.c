/* gen_fp_vectors DIR COUNT [SEED]
 *
 * Writes the reference vectors of the clhls floating-point templates (tb_fp.v)
 * into DIR, one hex file per operation and configuration:
 *   fadd.hex   a[32] b[32] sub[4] y[32]        (25 hex digits a line)
 *   fmul.hex   a[32] b[32] y[32]               (24)
 *   fcmp.hex   a[32] b[32] pred[4] y[4]        (18)
 *   fdiv.hex   a[32] b[32] y[32]               (24; y = a / b)
 *   fsqrt.hex  a[32] y[32]                     (16)
 *   fma.hex    a[32] b[32] c[32] y[32]         (32; y = a * b + c, one rounding)
 *   itofp_{u,s}{8,16,32,64}.hex  a[64] y[32]   (24; a zero-extended from IN_W bits)
 *   fptoi_{u,s}{8,16,32,64}.hex  a[32] y[64]   (24; y zero-extended from OUT_W bits)
 * and the same in binary64 (the W = 64 instances, and the conversions between the
 * formats):
 *   dadd.hex   a[64] b[64] sub[4] y[64]        (49 hex digits a line)
 *   dmul.hex, ddiv.hex   a[64] b[64] y[64]     (48)
 *   dcmp.hex   a[64] b[64] pred[4] y[4]        (34)
 *   dsqrt.hex  a[64] y[64]                     (32)
 *   dfma.hex   a[64] b[64] c[64] y[64]         (64)
 *   itod_{u,s}{8,16,32,64}.hex   a[64] y[64]   (32)
 *   dtoi_{u,s}{8,16,32,64}.hex   a[64] y[64]   (32)
 *   ftod.hex   a[32] y[64]                     (24; float -> double)
 *   dtof.hex   a[64] y[32]                     (24; double -> float)
 * The first line of every file is the number of vectors that follow (hex).
 * Each file holds COUNT targeted random vectors plus the fixed special cases
 * (cross products of special values, and exhaustive 8-bit inputs for itofp; for fma
 * the cube of a shorter list; for fsqrt also the neighbours of powers of two; for
 * the conversions integer extremes, values around every power of two and the
 * rounding cases at the ends of the binary32 range). The binary64 files are drawn
 * after all binary32 files, so adding them changed no binary32 vector.
 *
 * The expected results come from the clhls_model_* functions of
 * sim-bridge/fp_model.c, the C models the templates use in simulation (through DPI-C,
 * with CLHLS_SIM_MODELS), so that the RTL tests prove those models equal to the RTL.
 * They are the host FPU in binary32 with the clhls conventions applied: denormal
 * inputs become signed zeros, the IEEE-rounded result is flushed to a signed zero
 * when it is denormal (so a tiny result that rounds up to the smallest normal stays),
 * every NaN result is 0x7FC00000. fptoi truncates and saturates (NaN -> 0, negative
 * -> 0 when unsigned). fma is fmaf (one rounding); its product is exact, only the
 * inputs and the final result are flushed. The binary64 results are the host's double
 * operations with subnormals (IEEE gradual underflow, the binary64 units' default
 * SUBNORMALS = 1), NaN results 0x7FF8000000000000; every binary64 vector's model
 * result is compared with the host's own operation as it is written (check_ieee).
 * ftod converts binary32 subnormals exactly; dtof flushes binary32 subnormal results
 * (NaN 0x7FC00000). After their other vectors the binary64 files hold count / 2
 * subnormal-range vectors (dsqrt count / 4, dtof count / 8): random subnormal
 * operands, results in the subnormal range and around 2^-1022 and 2^-1074
 * (underflow to zero), tiny times huge, fma with a subnormal product or cancelling
 * into the subnormal range, square roots of every subnormal binade, binary32
 * subnormals to binary64. Build this file and fp_model.c with -ffp-contract=off
 * -fno-fast-math; the evaluation method must be plain binary32 and binary64 (SSE, not
 * x87): the generators compute in both formats too. The binary64 near-tie
 * constructions use unsigned __int128.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fp_model.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "gen_fp_vectors needs FLT_EVAL_METHOD == 0 (no excess precision, e.g. x86_64 SSE)"
#endif

#define MAX_LINES 131071 /* tb_fp.v memories hold 2^17 lines, one is the count */
#define QNAN 0x7FC00000u

/* ---- random numbers (splitmix64, deterministic per seed) ---- */
static uint64_t rng_state;
static uint64_t rnd64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static uint32_t rndn(uint32_t n) { return (uint32_t)(((rnd64() >> 32) * n) >> 32); } /* [0, n) */
static int rndrange(int lo, int hi) { return lo + (int)rndn((uint32_t)(hi - lo + 1)); }

/* ---- bit patterns ---- */
static float f_of(uint32_t x) { float f; memcpy(&f, &x, sizeof f); return f; }
static uint32_t u_of(float f) { uint32_t x; memcpy(&x, &f, sizeof x); return x; }
static uint32_t mkf(uint32_t sign, int exp, uint32_t frac) {
    return (sign << 31) | ((uint32_t)exp << 23) | (frac & 0x7FFFFFu);
}
static int expof(uint32_t x) { return (int)((x >> 23) & 0xFF); }
static int clampe(int e) { return e < 1 ? 1 : e > 254 ? 254 : e; }
/* Move x by k units in the last place (as an integer pattern), staying in its sign. */
static uint32_t ulps(uint32_t x, int k) {
    uint32_t mag = x & 0x7FFFFFFFu, sign = x & 0x80000000u;
    int64_t m = (int64_t)mag + k;
    if (m < 0) m = 0;
    if (m > 0x7F7FFFFF) m = 0x7F7FFFFF;
    return sign | (uint32_t)m;
}

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00400000, 0x007FFFFF, 0x807FFFFF,
    0x00800000, 0x80800000, 0x00800001, 0x00FFFFFF, 0x01000000, 0x7F7FFFFF, 0xFF7FFFFF,
    0x7F7FFFFE, 0x7F000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FC12345,
    0x7F800001, 0xFFA00000, 0x7FBFFFFF, 0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF,
    0x3FC00000, 0xC0000000, 0x3F000000, 0xBF000000, 0x3F400000, 0x33800000, 0x33000000,
    0x34000000, 0x4B800000, 0x4B800001, 0x4B7FFFFF, 0xCB800001, 0x4F000000, 0xCF000000,
    0x4F800000, 0x4EFFFFFF, 0x4F7FFFFF, 0x5F000000, 0xDF000000, 0x5F800000, 0x5F7FFFFF,
    0xDEFFFFFF, 0x42FE0000, 0xC3000000, 0x437F0000, 0x46FFFE00, 0xC7000000, 0x477FFF00,
    0x1F800000, 0x20000000, 0x5E800000,
};
#define NSPECIALS (sizeof specials / sizeof specials[0])

/* Random draws are sequenced (one per statement or argument list) so the vectors do
 * not depend on the compiler's order of evaluation. */
static uint32_t rand_special(void) { return specials[rndn(NSPECIALS)]; }
/* Random sign and fraction bits (under fmask) with the given exponent. */
static uint32_t rand_f(int exp, uint32_t fmask) {
    uint32_t sign = rnd32() & 1;
    return mkf(sign, exp, rnd32() & fmask);
}
static uint32_t rand_normal(int elo, int ehi) { return rand_f(rndrange(elo, ehi), ~0u); }
/* Any operand: raw bits, a special, a normal of any exponent, or one with a short fraction. */
static uint32_t rand_any(void) {
    switch (rndn(6)) {
    case 0: case 1: return rnd32();
    case 2: return rand_special();
    case 3: { uint32_t fmask = 0x7FFFFFu << rndn(23); return rand_f(rndrange(0, 255), fmask); }
    default: return rand_normal(1, 254);
    }
}

/* Integer widths: the bits of a w-bit value. */
static uint64_t wmask(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }

/* ---- output ---- */
static FILE *out;
static long nlines;
static char outpath[4096];
static void open_out(const char *dir, const char *name, long n) {
    if (n > MAX_LINES) {
        fprintf(stderr, "gen_fp_vectors: %s would hold %ld vectors, more than %d\n", name, n, MAX_LINES);
        exit(1);
    }
    snprintf(outpath, sizeof outpath, "%s/%s.hex", dir, name);
    out = fopen(outpath, "w");
    if (!out) { perror(outpath); exit(1); }
    fprintf(out, "%lX\n", n);
    nlines = 0;
}
static void close_out(long n) {
    if (nlines != n) { fprintf(stderr, "gen_fp_vectors: %s: %ld lines, announced %ld\n", outpath, nlines, n); exit(1); }
    if (ferror(out) || fclose(out) != 0) { perror(outpath); exit(1); }
    printf("%s: %ld vectors\n", outpath, n);
}

/* The `normal` argument a compiler could pass to a binary32 model for these operands:
 * bit i set when operand i is not subnormal. */
static uint8_t normal_mask(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t x[3] = {a, b, c};
    uint8_t mask = 0;
    for (int i = 0; i < 3; i++)
        if (((x[i] >> 23) & 0xFF) != 0 || (x[i] & 0x7FFFFF) == 0)
            mask |= (uint8_t)(1u << i);
    return mask;
}
/* A binary32 model's result, which must not change when the operands that are not
 * subnormal go unflushed (the templates' SIM_NORMAL). */
static uint32_t same_unflushed(const char *op, uint32_t flushed, uint32_t unflushed) {
    if (flushed != unflushed) {
        fprintf(stderr, "gen_fp_vectors: %s: %08" PRIX32 " flushing every operand, %08" PRIX32
                " flushing only the subnormal ones\n", op, flushed, unflushed);
        exit(1);
    }
    return flushed;
}

static void put_fadd(uint32_t a, uint32_t b, int sub) {
    fprintf(out, "%08" PRIX32 "%08" PRIX32 "%X%08" PRIX32 "\n", a, b, sub,
            same_unflushed("fadd", clhls_model_fadd32(a, b, (uint8_t)sub, 0),
                           clhls_model_fadd32(a, b, (uint8_t)sub, normal_mask(a, b, 0))));
    nlines++;
}
static void put_fmul(uint32_t a, uint32_t b) {
    fprintf(out, "%08" PRIX32 "%08" PRIX32 "%08" PRIX32 "\n", a, b,
            same_unflushed("fmul", clhls_model_fmul32(a, b, 0),
                           clhls_model_fmul32(a, b, normal_mask(a, b, 0))));
    nlines++;
}
static void put_fcmp(uint32_t a, uint32_t b, int pred) {
    fprintf(out, "%08" PRIX32 "%08" PRIX32 "%X%X\n", a, b, pred,
            same_unflushed("fcmp", clhls_model_fcmp32(a, b, (uint8_t)pred, 0),
                           clhls_model_fcmp32(a, b, (uint8_t)pred, normal_mask(a, b, 0))));
    nlines++;
}
static void put_fdiv(uint32_t a, uint32_t b) {
    fprintf(out, "%08" PRIX32 "%08" PRIX32 "%08" PRIX32 "\n", a, b,
            same_unflushed("fdiv", clhls_model_fdiv32(a, b, 0),
                           clhls_model_fdiv32(a, b, normal_mask(a, b, 0))));
    nlines++;
}
static void put_fsqrt(uint32_t a) {
    fprintf(out, "%08" PRIX32 "%08" PRIX32 "\n", a,
            same_unflushed("fsqrt", clhls_model_fsqrt32(a, 0),
                           clhls_model_fsqrt32(a, normal_mask(a, 0, 0))));
    nlines++;
}
static void put_fma(uint32_t a, uint32_t b, uint32_t c) {
    fprintf(out, "%08" PRIX32 "%08" PRIX32 "%08" PRIX32 "%08" PRIX32 "\n", a, b, c,
            same_unflushed("fma", clhls_model_fma32(a, b, c, 0),
                           clhls_model_fma32(a, b, c, normal_mask(a, b, c))));
    nlines++;
}
static void put_itofp(uint64_t v, int w, int s) {
    v &= wmask(w);
    fprintf(out, "%016" PRIX64 "%08" PRIX32 "\n", v, clhls_model_itofp32(v, w, s));
    nlines++;
}
static void put_fptoi(uint32_t a, int w, int s) {
    fprintf(out, "%08" PRIX32 "%016" PRIX64 "\n", a, (uint64_t)clhls_model_fptoi32(a, w, s));
    nlines++;
}

/* ---- generators ---- */
static void gen_fadd(const char *dir, long count) {
    long n = count + 2 * (long)(NSPECIALS * NSPECIALS);
    open_out(dir, "fadd", n);
    for (size_t i = 0; i < NSPECIALS; i++)
        for (size_t j = 0; j < NSPECIALS; j++)
            for (int sub = 0; sub < 2; sub++) put_fadd(specials[i], specials[j], sub);
    for (long k = 0; k < count; k++) {
        uint32_t a, b, fmask;
        int ea, sub = (int)(rnd32() & 1);
        switch (k % 10) {
        case 0: a = rnd32(); b = rnd32(); break;
        case 1: /* close exponents, random signs: cancellation and carries */
            a = rand_normal(1, 254);
            b = rand_f(clampe(expof(a) + rndrange(-2, 2)), ~0u);
            break;
        case 2: /* any alignment distance, guard/round/sticky patterns */
            a = rand_normal(1, 254);
            fmask = 0x7FFFFFu << rndn(24);
            b = rand_f(clampe(expof(a) - rndrange(0, 30)), fmask);
            break;
        case 3: /* exact ties and near-ties: b about half an ulp of a */
            a = rand_normal(30, 254);
            fmask = rndn(4) == 0 ? ~0u : 0x700000u;
            b = rand_f(expof(a) - 24 + rndrange(-1, 1), fmask);
            if (rnd32() & 1) { uint32_t t = a; a = b; b = t; }
            break;
        case 4: /* overflow: both near the top of the range, or rounding up past FLT_MAX */
            if (rndn(2)) {
                a = rand_normal(250, 254);
                if (rndn(2)) a |= 0x7FFF00u;
                b = rand_normal(225, 254);
            } else {
                a = mkf(0, 254, 0x7FFFFFu - rndn(4));
                ea = rndrange(228, 232);
                b = mkf(0, ea, rndn(2) ? 0 : rnd32());
                b |= rnd32() & 0x80000000u;
                if (rnd32() & 1) { a ^= 0x80000000u; b ^= 0x80000000u; }
            }
            break;
        case 5: /* underflow: tiny operands, results in the denormal range */
            a = rand_normal(1, 4);
            b = rand_f(clampe(expof(a) + rndrange(-1, 1)), ~0u);
            break;
        case 6: /* a special against anything */
            a = rand_special(); b = rand_any();
            if (rnd32() & 1) { uint32_t t = a; a = b; b = t; }
            break;
        case 7: /* almost exact cancellation: b = +-a moved by a few ulps */
            a = rand_normal(1, 254);
            b = ulps(a, rndrange(-3, 3));
            b ^= (rnd32() & 1) << 31;
            break;
        case 8: /* smallest-normal boundary: a - b around 2^-126 */
            ea = rndrange(1, 3);
            a = rand_f(ea, rndn(2) ? 0x7FFFFFu : 0x3u);
            b = rand_f(rndrange(1, ea), ~0u);
            break;
        default: a = rand_any(); b = rand_any(); break;
        }
        put_fadd(a, b, sub);
    }
    close_out(n);
}

/* Two significands (with the hidden bit) whose 48-bit product has the given low 24
 * bits: the bits rounding drops (guard at 22 or 23 depending on the carry), so exact
 * ties, ties plus the lowest sticky bit, and so on occur on purpose. */
static void mant_pair(uint32_t low, uint32_t *ma, uint32_t *mb) {
    for (int tries = 0; tries < 100; tries++) {
        uint32_t x = 0x800001u | (rnd32() & 0xFFFFFEu), inv = x;   /* odd, hidden bit set */
        for (int i = 0; i < 5; i++) inv *= 2u - x * inv;          /* x^-1 mod 2^32 */
        uint32_t y = (low * inv) & 0xFFFFFFu;
        if (y & 0x800000u) { *ma = x; *mb = y; return; }
    }
    *ma = 0x800000u; *mb = 0x800000u | low;  /* 1.0 * m: no bits dropped at all */
}
/* Low product bits to aim for (an odd significand cannot give 0 here). */
static const uint32_t low_patterns[] = {
    0x000001, 0x400000, 0x400001, 0x3FFFFF, 0x7FFFFF, 0x800000, 0x800001,
    0xC00000, 0xC00001, 0xBFFFFF, 0xFFFFFF, 0x200000, 0x600000, 0xA00000, 0xE00000,
};

static void gen_fmul(const char *dir, long count) {
    long n = count + (long)(NSPECIALS * NSPECIALS);
    open_out(dir, "fmul", n);
    for (size_t i = 0; i < NSPECIALS; i++)
        for (size_t j = 0; j < NSPECIALS; j++) put_fmul(specials[i], specials[j]);
    for (long k = 0; k < count; k++) {
        uint32_t a, b;
        switch (k % 10) {
        case 0: a = rnd32(); b = rnd32(); break;
        case 1: /* exponent sum near the underflow boundary */
            a = rand_normal(1, 254);
            b = rand_f(clampe(128 - expof(a) + rndrange(-3, 2)), ~0u);
            break;
        case 2: /* exponent sum near the overflow boundary */
            a = rand_normal(1, 254);
            b = rand_f(clampe(381 - expof(a) + rndrange(-2, 2)), ~0u);
            break;
        case 3: { /* short fraction times anything: many exact ties */
            uint32_t fmask = 0x7FFFFFu << rndrange(19, 23);
            a = rand_f(rndrange(64, 190), fmask);
            b = rand_normal(64, 190);
            break;
        }
        case 4: case 5: { /* products right around 2^-126 (the flush boundary) */
            a = rand_normal(60, 127);
            if (rndn(3) == 0) a = mkf(a >> 31, expof(a), 0x7FFFFFu - rndn(4));
            double q = ldexp(1.0, -126) / fabs((double)f_of(a));
            b = ulps(u_of((float)q), rndrange(-3, 3));
            b |= rnd32() & 0x80000000u;
            break;
        }
        case 6: { /* products right around FLT_MAX */
            a = rand_normal(127, 200);
            double q = (double)FLT_MAX / fabs((double)f_of(a));
            b = ulps(u_of((float)q), rndrange(-3, 3));
            b |= rnd32() & 0x80000000u;
            break;
        }
        case 7: a = rand_special(); b = rand_any(); break;
        case 8: { /* chosen low product bits: ties, tie + lowest sticky bit, ... */
            uint32_t ma, mb;
            mant_pair(low_patterns[rndn(sizeof low_patterns / sizeof low_patterns[0])], &ma, &mb);
            int ea = rndn(8) == 0 ? rndrange(1, 254) : rndrange(64, 190);
            int eb = rndn(4) == 0 ? clampe(128 - ea + rndrange(-1, 1)) : rndrange(64, 190);
            a = mkf(rnd32() & 1, ea, ma);
            b = mkf(rnd32() & 1, eb, mb);
            break;
        }
        default: a = rand_any(); b = rand_any(); break;
        }
        if (rnd32() & 1) { uint32_t t = a; a = b; b = t; }
        put_fmul(a, b);
    }
    close_out(n);
}

static void gen_fcmp(const char *dir, long count) {
    long n = count + 16 * (long)(NSPECIALS * NSPECIALS);
    open_out(dir, "fcmp", n);
    for (size_t i = 0; i < NSPECIALS; i++)
        for (size_t j = 0; j < NSPECIALS; j++)
            for (int p = 0; p < 16; p++) put_fcmp(specials[i], specials[j], p);
    for (long k = 0; k < count; k++) {
        uint32_t a = rand_any(), b;
        switch (k % 8) {
        case 0: b = rnd32(); a = rnd32(); break;
        case 1: b = a; break;
        case 2: b = a ^ 0x80000000u; break;
        case 3: b = ulps(a, rndrange(-2, 2)); break;
        case 4: /* zeros and denormals of either sign */
            a = rnd32() & 0x80000000u;
            if (rndn(2)) a |= rnd32() & 0x7FFFFFu;
            b = rndn(2) ? rnd32() & 0x807FFFFFu : rand_any();
            break;
        case 5: b = rand_f(expof(a), ~0u); break;
        default: b = rand_any(); break;
        }
        if (rnd32() & 1) { uint32_t t = a; a = b; b = t; }
        put_fcmp(a, b, (int)rndn(16));
    }
    close_out(n);
}

/* A w-bit integer for a conversion to a format with `prec` significand bits. */
static uint64_t rand_int_p(int w, int s, int prec) {
    uint64_t v;
    int len = rndrange(0, w);
    switch (rndn(6)) {
    case 0: v = rnd64(); break;
    case 1: /* a random number of significant bits */
        v = len == 0 ? 0 : (rnd64() & (~0ull >> (64 - len))) | (1ull << (len - 1));
        break;
    case 2: { /* exact ties at prec significant bits: keep prec bits, set the guard bit */
        len = rndrange(prec + 1, w > prec + 1 ? w : prec + 1);
        if (len > 64) len = 64;
        v = (rnd64() & (~0ull >> (64 - len))) | (1ull << (len - 1));
        if (len > prec + 1) v &= ~0ull << (len - prec - 1);
        v |= 1ull << (len - prec - 1);
        break;
    }
    case 3: /* powers of two and neighbours */
        v = 1ull << rndn((uint32_t)w);
        v += (uint64_t)(int64_t)rndrange(-3, 3);
        break;
    case 4: v = ~0ull << rndn(64); v |= rnd64(); break;  /* long runs of ones */
    default: v = rnd64(); v >>= rndn(64); break;
    }
    if (s && rndn(2) && w < 64 && len > 0 && len < w) v = ~v + 1;  /* negate short magnitudes */
    return v & wmask(w);
}
static uint64_t rand_int(int w, int s) { return rand_int_p(w, s, 24); }

static void gen_itofp(const char *dir, long count, int w, int s) {
    char name[32];
    snprintf(name, sizeof name, "itofp_%c%d", s ? 's' : 'u', w);
    long nfix = (w == 8 ? 256 : 0) + 12 * (long)w;
    long n = count + nfix;
    open_out(dir, name, n);
    if (w == 8)
        for (uint64_t v = 0; v < 256; v++) put_itofp(v, w, s);
    for (int k = 0; k < w; k++) {
        uint64_t p = 1ull << k;
        for (int d = -3; d <= 3; d++) put_itofp(p + (uint64_t)(int64_t)d, w, s);
        put_itofp(~(p - 1), w, s);         /* ones from bit k up */
        put_itofp(p | (p >> 1), w, s);
        put_itofp(p | (p >> 24), w, s);    /* guard-bit ties */
        put_itofp((p | (p >> 24)) + 1, w, s);
        put_itofp(p | (p >> 23) | (p >> 24), w, s);
    }
    for (long k = 0; k < count; k++) put_itofp(rand_int(w, s), w, s);
    close_out(n);
}

static void gen_fptoi(const char *dir, long count, int w, int s) {
    char name[32];
    snprintf(name, sizeof name, "fptoi_%c%d", s ? 's' : 'u', w);
    long nfix = (long)NSPECIALS + 2 * 14 * (w + 2);
    long n = count + nfix;
    open_out(dir, name, n);
    for (size_t i = 0; i < NSPECIALS; i++) put_fptoi(specials[i], w, s);
    for (int k = -1; k <= w; k++) {        /* around +-2^k, k = -1 .. w */
        for (uint32_t sign = 0; sign < 2; sign++) {
            uint32_t p = mkf(sign, 127 + k, 0);
            for (int d = -4; d <= 4; d++) put_fptoi(ulps(p, d), w, s);
            put_fptoi(mkf(sign, 127 + k, 0x400000u), w, s);  /* 1.5 * 2^k */
            put_fptoi(mkf(sign, 127 + k, 0x7FFFFFu), w, s);
            put_fptoi(mkf(sign, 127 + k, rnd32()), w, s);
            put_fptoi(mkf(sign, 126 + k, 0x7FFFFFu), w, s);
            put_fptoi(mkf(sign, 127 + k, 1), w, s);
        }
    }
    for (long k = 0; k < count; k++) {
        uint32_t a;
        switch (k % 5) {
        case 0: a = rnd32(); break;
        case 1: case 2: a = rand_normal(125, 127 + w + 2); break;  /* in range and near it */
        case 3: a = rand_normal(100, 130); break;  /* fractions */
        default: a = rand_any(); break;
        }
        put_fptoi(a, w, s);
    }
    close_out(n);
}

/* A normal whose fraction keeps only its top `bits` bits (random sign): two with
 * bits <= 11 (12-bit significands) multiply exactly in binary32. */
static uint32_t rand_short(int elo, int ehi, int bits) {
    return rand_f(rndrange(elo, ehi), 0x7FFFFFu & ~((1u << (23 - bits)) - 1));
}
/* x^-1 modulo 2^32, x odd. */
static uint32_t inv_odd(uint32_t x) {
    uint32_t inv = x;
    for (int i = 0; i < 5; i++) inv *= 2u - x * inv;
    return inv;
}
/* Significands A, B (24 bits, hidden bit set) whose quotient is r / (B 2^sh) away
 * from a halfway point M / 2^sh, M odd with 25 bits (sh = 24: quotient in [1, 2),
 * sh = 25: in [1/2, 1)): A 2^sh = B M + r. r odd and small: division never ties
 * exactly, these are as close as it gets. Returns 0 if no B in a few tries fits. */
static int div_near_tie(int r, int sh, uint32_t *ma, uint32_t *mb) {
    for (int tries = 0; tries < 100; tries++) {
        uint32_t b = 0x800001u | (rnd32() & 0xFFFFFEu);
        uint64_t mod = 1ull << sh;
        uint64_t m = ((uint64_t)(uint32_t)-r * inv_odd(b)) & (mod - 1);  /* B M = -r mod 2^sh */
        if (sh == 24) m += mod;
        if (m < (1ull << 24) || m >= (1ull << 25)) continue;
        int64_t num = (int64_t)((uint64_t)b * m) + r;
        uint64_t a = (uint64_t)num >> sh;
        if (a < 0x800000u || a > 0xFFFFFFu) continue;
        *ma = (uint32_t)a; *mb = b;
        return 1;
    }
    return 0;
}
/* A 24-bit significand m and a biased exponent parity (odd: X = m 2^25, even:
 * X = m 2^26, X the radicand as fsqrt scales it) with X = M^2 + r, M odd with 25
 * bits: sqrt(X) is about r / 2M from the halfway point M. r = 7 mod 8 (an odd square
 * is 1 mod 8). Square roots of -r modulo 2^sh by Hensel lifting. Returns 0 if no
 * root of -r gives a significand. */
static int sqrt_near_tie(int64_t r, int odd_exp, uint32_t *m) {
    int sh = odd_exp ? 25 : 26;
    uint64_t mod = 1ull << sh, c = (uint64_t)-r & (mod - 1), x = 1;
    for (int j = 3; j < sh; j++)
        if (((x * x - c) >> j) & 1) x += 1ull << (j - 1);
    uint64_t roots[4] = {x, mod - x, (x + (mod >> 1)) & (mod - 1), ((mod >> 1) - x) & (mod - 1)};
    uint32_t first = rndn(4);
    for (int i = 0; i < 4; i++) {
        uint64_t mm = roots[(first + (uint32_t)i) % 4];
        if (mm < (1ull << 24) || mm >= (1ull << 25)) continue;
        uint64_t xx = (uint64_t)((int64_t)(mm * mm) + r);   /* X, a multiple of 2^sh */
        uint64_t sig = xx >> sh;
        if (sig < 0x800000u || sig > 0xFFFFFFu) continue;
        *m = (uint32_t)sig;
        return 1;
    }
    return 0;
}

static void gen_fdiv(const char *dir, long count) {
    long n = count + (long)(NSPECIALS * NSPECIALS);
    open_out(dir, "fdiv", n);
    for (size_t i = 0; i < NSPECIALS; i++)
        for (size_t j = 0; j < NSPECIALS; j++) put_fdiv(specials[i], specials[j]);
    for (long k = 0; k < count; k++) {
        uint32_t a, b, q, s;
        int ea;
        switch (k % 12) {
        case 0: a = rnd32(); b = rnd32(); break;
        case 1: /* any two normals: every exponent */
            a = rand_normal(1, 254); b = rand_normal(1, 254);
            break;
        case 2: /* quotient exponent near the overflow boundary */
            a = rand_normal(126, 254);
            b = rand_f(clampe(expof(a) + 127 - rndrange(252, 256)), ~0u);
            break;
        case 3: /* quotients right around FLT_MAX */
            a = rand_normal(130, 254);
            b = ulps(u_of((float)(fabs((double)f_of(a)) / (double)FLT_MAX)), rndrange(-3, 3));
            b |= rnd32() & 0x80000000u;
            break;
        case 4: case 5: /* quotients right around 2^-126 (the flush boundary) */
            a = rand_normal(1, 126);
            if (rndn(3) == 0) a = mkf(a >> 31, expof(a), 0x7FFFFFu - rndn(4));
            b = ulps(u_of((float)ldexp(fabs((double)f_of(a)), 126)), rndrange(-3, 3));
            b |= rnd32() & 0x80000000u;
            break;
        case 6: /* 1.1..1 over a power of two: 1.1..1 x 2^-127 rounds up to 2^-126 */
            ea = rndrange(1, 126);
            s = rnd32() & 1;
            a = mkf(s, ea, 0x7FFFFFu - rndn(3));
            s = rnd32() & 1;
            ea = clampe(ea + 127 + rndrange(-1, 1));
            b = mkf(s, ea, rndn(2) ? 0 : rndn(4));
            break;
        case 7: /* exact quotients: a = q * b with 12-bit significands */
            q = rand_short(64, 190, 11);
            b = rand_short(64, 190, 11);
            a = u_of(f_of(q) * f_of(b));
            break;
        case 8: /* near-ties: a / b a few 2^-48 from a halfway point */
            q = (uint32_t)(2 * rndrange(-8, 7) + 1);   /* r, odd */
            ea = rndrange(24, 25);
            if (!div_near_tie((int)q, ea, &a, &b)) { a = 0x3F800000u; b = 0x3F800000u; break; }
            ea = rndrange(64, 190);
            s = rnd32() & 1;
            a = mkf(s, ea, a);
            ea = rndrange(64, 190);
            s = rnd32() & 1;
            b = mkf(s, ea, b);
            break;
        case 9: /* close significands: the quotient's leading bit on either side */
            a = rand_normal(1, 254);
            s = rnd32() & 1;
            b = mkf(s, clampe(expof(a) + rndrange(-30, 30)), a);
            b = ulps(b, rndrange(-2, 2));
            break;
        case 10: /* a special against anything */
            a = rand_special(); b = rand_any();
            if (rnd32() & 1) { uint32_t t = a; a = b; b = t; }
            break;
        default: a = rand_any(); b = rand_any(); break;
        }
        put_fdiv(a, b);
    }
    close_out(n);
}

/* Biased exponents whose powers of two (and their neighbours) fsqrt sees: both
 * parities, the ends of the range, around 1. */
static const int sqrt_exps[] = {1, 2, 3, 126, 127, 128, 129, 253, 254};
#define NSQRT_EXPS (sizeof sqrt_exps / sizeof sqrt_exps[0])

static void gen_fsqrt(const char *dir, long count) {
    long n = count + (long)NSPECIALS + 2 * 17 * (long)NSQRT_EXPS;
    open_out(dir, "fsqrt", n);
    for (size_t i = 0; i < NSPECIALS; i++) put_fsqrt(specials[i]);
    for (size_t i = 0; i < NSQRT_EXPS; i++)
        for (int d = -8; d <= 8; d++) {
            put_fsqrt(ulps(mkf(0, sqrt_exps[i], 0), d));
            put_fsqrt(ulps(mkf(0, sqrt_exps[i], 0x400000u), d));
        }
    for (long k = 0; k < count; k++) {
        uint32_t a;
        int e;
        int64_t r;
        switch (k % 8) {
        case 0: a = rnd32(); break;
        case 1: a = rand_normal(1, 254) & 0x7FFFFFFFu; break;
        case 2: /* perfect squares, and their neighbours */
            a = rand_short(64, 190, 11) & 0x7FFFFFFFu;
            a = u_of(f_of(a) * f_of(a));
            if (rndn(2)) a = ulps(a, rndrange(-3, 3));
            break;
        case 3: /* near-ties: the root a tiny fraction of its ulp from a halfway point */
            e = rndrange(1, 254);
            a = 0;
            for (int tries = 0; tries < 16 && a == 0; tries++) {
                r = 8 * (int64_t)rndrange(-4096, 4095) + 7;
                if (!sqrt_near_tie(r, e & 1, &a)) a = 0;
            }
            a = a ? mkf(0, e, a) : 0x3F800000u;
            break;
        case 4: /* negative: NaN, except -0 and negative denormals (-0) */
            a = rand_any() | 0x80000000u;
            break;
        case 5: /* zeros and denormals of either sign, the smallest normals */
            if (rndn(2)) a = rnd32() & 0x807FFFFFu;
            else a = rand_f(rndrange(1, 4), ~0u) & 0x7FFFFFFFu;
            break;
        case 6: a = rand_normal(248, 254) & 0x7FFFFFFFu; break;  /* the largest */
        default: a = rand_any(); break;
        }
        put_fsqrt(a);
    }
    close_out(n);
}

/* Special operands for fma's cube (the full list's cube would not fit in a file). */
static const uint32_t fma_specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x00800001,
    0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFA00000, 0x3F800000,
    0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x33800000, 0xB3000000, 0x5F800000, 0x1F800000,
    0x40000000,
};
#define NFMA_SPECIALS (sizeof fma_specials / sizeof fma_specials[0])

static void gen_fma(const char *dir, long count) {
    long n = count + (long)(NFMA_SPECIALS * NFMA_SPECIALS * NFMA_SPECIALS);
    open_out(dir, "fma", n);
    for (size_t i = 0; i < NFMA_SPECIALS; i++)
        for (size_t j = 0; j < NFMA_SPECIALS; j++)
            for (size_t l = 0; l < NFMA_SPECIALS; l++)
                put_fma(fma_specials[i], fma_specials[j], fma_specials[l]);
    for (long k = 0; k < count; k++) {
        uint32_t a, b, c, p, s, v[3];
        int e;
        switch (k % 13) {
        case 0: a = rnd32(); b = rnd32(); c = rnd32(); break;
        case 1: /* any three normals: every exponent */
            a = rand_normal(1, 254); b = rand_normal(1, 254); c = rand_normal(1, 254);
            break;
        case 2: /* c about the size of the product: carries, partial cancellation */
            a = rand_normal(64, 190); b = rand_normal(64, 190);
            c = rand_f(clampe(expof(a) + expof(b) - 127 + rndrange(-3, 2)), ~0u);
            break;
        case 3: /* c close to -a * b: massive cancellation, the product's low half decides */
            a = rand_normal(64, 190); b = rand_normal(64, 190);
            c = u_of((float)-((double)f_of(a) * (double)f_of(b)));  /* the product is exact in double */
            c = ulps(c, rndrange(-3, 3));
            break;
        case 4: /* exact cancellation: a * b representable, c = -(a * b): +0 */
            a = rand_short(64, 190, 11); b = rand_short(64, 190, 11);
            c = u_of(f_of(a) * f_of(b)) ^ 0x80000000u;
            break;
        case 5: /* a product below the normal range plus a small normal c */
            a = rand_normal(1, 126);
            e = rndrange(-40, 3);   /* the product's biased exponent */
            b = rand_f(clampe(e + 127 - expof(a)), ~0u);
            switch (rndn(3)) {
            case 0: s = rnd32() & 1; c = mkf(s, 1, rndn(2) ? 0 : rndn(16)); break;  /* about 2^-126 */
            case 1: c = rand_normal(1, 8); break;
            default: c = rand_normal(1, 40); break;
            }
            break;
        case 6: /* products right around 2^-126, c zero, a denormal or about 2^-126 */
            a = rand_normal(60, 126);
            if (rndn(3) == 0) a = mkf(a >> 31, expof(a), 0x7FFFFFu - rndn(4));
            b = ulps(u_of((float)(ldexp(1.0, -126) / fabs((double)f_of(a)))), rndrange(-3, 3));
            b |= rnd32() & 0x80000000u;
            switch (rndn(4)) {
            case 0: c = rnd32() & 0x80000000u; break;
            case 1: c = rnd32() & 0x807FFFFFu; break;
            case 2: s = rnd32() & 1; c = mkf(s, 1, rndn(4)); break;
            default: e = rndrange(1, 3); c = rand_f(e, ~0u); break;
            }
            break;
        case 7: /* ties and near-ties: c about half an ulp of the exact product */
            a = rand_short(80, 170, 11); b = rand_short(80, 170, 11);
            p = u_of(f_of(a) * f_of(b));   /* 12-bit significands: exact, any last bit */
            e = expof(p) - 24;             /* half an ulp of p */
            s = rnd32() & 1;
            switch (rndn(4)) {
            case 0: c = mkf(s, clampe(e), 0); break;                          /* a tie */
            case 1: c = mkf(s, clampe(e), rndn(4)); break;                    /* a tie plus a little */
            case 2: c = mkf(s, clampe(e - 1), 0x7FFFFFu - rndn(4)); break;    /* a tie minus a little */
            default: e = clampe(e + rndrange(-30, 1)); c = rand_f(e, ~0u); break;  /* sticky bits */
            }
            break;
        case 8: /* results around FLT_MAX: the product near it, c large of either sign */
            a = rand_normal(127, 200);
            b = ulps(u_of((float)((double)FLT_MAX / fabs((double)f_of(a)))), rndrange(-3, 3));
            b |= rnd32() & 0x80000000u;
            c = rand_normal(200, 254);
            break;
        case 9: /* a product beyond FLT_MAX brought back by c, or c pushing it over */
            a = rand_normal(190, 254);
            b = rand_f(clampe(rndrange(253, 258) + 127 - expof(a)), ~0u);
            s = ((a ^ b) >> 31) ^ (rndn(4) != 0);   /* mostly the product's opposite sign */
            c = mkf(s, rndrange(250, 254), 0);
            c |= rnd32() & 0x7FFFFFu;
            break;
        case 10: /* c dominates: the product lands in the guard and sticky bits */
            e = rndrange(40, 254);
            c = rand_f(e, rndn(3) == 0 ? 0 : ~0u);   /* often a power of two */
            a = rand_normal(64, 190);
            e = expof(c) - rndrange(20, 60);
            b = rand_f(clampe(e + 127 - expof(a)), ~0u);
            break;
        case 11: /* a special in any position */
            v[0] = rand_any(); v[1] = rand_any(); v[2] = rand_any();
            v[rndn(3)] = rand_special();
            a = v[0]; b = v[1]; c = v[2];
            break;
        default: a = rand_any(); b = rand_any(); c = rand_any(); break;
        }
        if (rnd32() & 1) { uint32_t t = a; a = b; b = t; }
        put_fma(a, b, c);
    }
    close_out(n);
}

/* ==== binary64 (W = 64 instances; ftod and dtof) ====
 * The same operations and cases in binary64, drawn after every binary32 file (the
 * binary32 vectors do not change). Expected results: the binary64 models (host double
 * arithmetic, fma and sqrt, with the same flush-to-zero and canonical NaN
 * 0x7FF8000000000000). */
#define DQNAN 0x7FF8000000000000ull
#define DSIGN 0x8000000000000000ull
#define DFRAC 0x000FFFFFFFFFFFFFull   /* the 52 fraction bits */
#define DHID  0x0010000000000000ull   /* the hidden bit, 2^52 */
#define DMAXF 0x7FEFFFFFFFFFFFFFull   /* DBL_MAX */

static double d_of(uint64_t x) { double d; memcpy(&d, &x, sizeof d); return d; }
static uint64_t v_of(double d) { uint64_t x; memcpy(&x, &d, sizeof x); return x; }
static uint64_t mkd(uint64_t sign, int exp, uint64_t frac) {
    return (sign << 63) | ((uint64_t)exp << 52) | (frac & DFRAC);
}
static int expod(uint64_t x) { return (int)((x >> 52) & 0x7FF); }
static int clampd(int e) { return e < 1 ? 1 : e > 2046 ? 2046 : e; }
static uint64_t ulpsd(uint64_t x, int k) {
    uint64_t mag = x & ~DSIGN, sign = x & DSIGN;
    if (k < 0 && mag < (uint64_t)-k) return sign;
    mag += (uint64_t)(int64_t)k;
    if (mag > DMAXF) mag = DMAXF;
    return sign | mag;
}

static const uint64_t dspecials[] = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
    0x0008000000000000, 0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF, 0x0010000000000000,
    0x8010000000000000, 0x0010000000000001, 0x001FFFFFFFFFFFFF, 0x0020000000000000,
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFE, 0x7FE0000000000000,
    0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
    0x7FF8000000012345, 0x7FF0000000000001, 0xFFF4000000000000, 0x7FF7FFFFFFFFFFFF,
    0x3FF0000000000000, 0xBFF0000000000000, 0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF,
    0x3FF8000000000000, 0xC000000000000000, 0x3FE0000000000000, 0xBFE0000000000000,
    0x3FE8000000000000, 0x3CA0000000000000, 0x3C90000000000000, 0x3CB0000000000000,
    0x4340000000000000, 0x4340000000000001, 0x433FFFFFFFFFFFFF, 0xC340000000000001,
    0x41E0000000000000, 0xC1E0000000000000, 0x41F0000000000000, 0x41DFFFFFFFC00000,
    0x41EFFFFFFFE00000, 0x43E0000000000000, 0xC3E0000000000000, 0x43F0000000000000,
    0x43EFFFFFFFFFFFFF, 0xC3DFFFFFFFFFFFFF, 0x405FC00000000000, 0xC060000000000000,
    0x406FE00000000000, 0x40DFFFC000000000, 0xC0E0000000000000, 0x40EFFFE000000000,
    0x47EFFFFFE0000000, 0x47EFFFFFF0000000, 0x47F0000000000000, 0x3810000000000000,
    0x380FFFFFF0000000, 0x3800000000000000, 0x36A0000000000000, 0x1FF0000000000000,
    0x2000000000000000, 0x5FE0000000000000,
};
#define NDSPECIALS (sizeof dspecials / sizeof dspecials[0])

static uint64_t rand_dspecial(void) { return dspecials[rndn(NDSPECIALS)]; }
/* Random sign and fraction bits (under fmask) with the given exponent. */
static uint64_t rand_d(int exp, uint64_t fmask) {
    uint64_t sign = rnd64() & 1;
    return mkd(sign, exp, rnd64() & fmask);
}
static uint64_t rand_dnormal(int elo, int ehi) { return rand_d(rndrange(elo, ehi), ~0ull); }
static uint64_t rand_dany(void) {
    switch (rndn(6)) {
    case 0: case 1: return rnd64();
    case 2: return rand_dspecial();
    case 3: { uint64_t fmask = DFRAC << rndn(52); return rand_d(rndrange(0, 2047), fmask); }
    default: return rand_dnormal(1, 2046);
    }
}
/* A normal whose fraction keeps only its top `bits` bits: two with bits <= 25 (26-bit
 * significands) multiply exactly in binary64. */
static uint64_t rand_dshort(int elo, int ehi, int bits) {
    return rand_d(rndrange(elo, ehi), DFRAC & ~((1ull << (52 - bits)) - 1));
}
static void swap64(uint64_t *a, uint64_t *b) { uint64_t t = *a; *a = *b; *b = t; }
/* A subnormal (random sign) with a random number of leading fraction zeros. */
static uint64_t rand_dsub(void) {
    uint64_t f = rnd64() & (DFRAC >> rndn(52));
    uint64_t sign = rnd64() & DSIGN;
    return sign | (f ? f : 1);
}
/* Around the bottom of the range: a subnormal, a zero, the smallest normals, or a
 * neighbour of 2^-1022 or of the smallest subnormal. */
static uint64_t rand_dlow(void) {
    switch (rndn(6)) {
    case 0: case 1: return rand_dsub();
    case 2: return rand_dnormal(1, 3);
    case 3: return ulpsd(mkd(rnd64() & 1, 1, 0), rndrange(-3, 3));
    case 4: return ulpsd(rnd64() & DSIGN, rndrange(0, 3));
    default: return rand_d(0, DFRAC >> rndrange(0, 3));   /* long subnormal fractions */
    }
}
/* A normal with the biased exponent e, clamped into 1 .. 2046. */
static uint64_t rand_dexp(int e) { return rand_d(clampd(e), ~0ull); }
/* An unbiased exponent of a value x (subnormals: of their leading bit). */
static int ilogbd(uint64_t x) { return ilogb(d_of(x & ~DSIGN)); }

#define H64 "%016" PRIX64
/* The binary64 units follow IEEE with subnormals (SUBNORMALS = 1): every vector's
 * model result must equal the host's own operation (NaN made canonical). The host
 * must not flush (self_check64 makes sure). */
static uint64_t ieee_d(double r) { return isnan(r) ? DQNAN : v_of(r); }
static void check_ieee(const char *op, uint64_t a, uint64_t b, uint64_t c, uint64_t model,
                       uint64_t host) {
    if (model != host) {
        fprintf(stderr, "gen_fp_vectors: %s " H64 " " H64 " " H64 ": model " H64
                ", host IEEE " H64 "\n", op, a, b, c, model, host);
        exit(1);
    }
}
static void put_dadd(uint64_t a, uint64_t b, int sub) {
    uint64_t y = clhls_model_fadd64(a, b, (uint8_t)sub);
    check_ieee("dadd", a, b, (uint64_t)sub, y, ieee_d(sub ? d_of(a) - d_of(b) : d_of(a) + d_of(b)));
    fprintf(out, H64 H64 "%X" H64 "\n", a, b, sub, y);
    nlines++;
}
static void put_dmul(uint64_t a, uint64_t b) {
    uint64_t y = clhls_model_fmul64(a, b);
    check_ieee("dmul", a, b, 0, y, ieee_d(d_of(a) * d_of(b)));
    fprintf(out, H64 H64 H64 "\n", a, b, y);
    nlines++;
}
static void put_dcmp(uint64_t a, uint64_t b, int pred) {
    uint8_t y = clhls_model_fcmp64(a, b, (uint8_t)pred);
    double x = d_of(a), z = d_of(b);
    int uno = isunordered(x, z), lt = !uno && x < z, eq = !uno && x == z, gt = !uno && x > z;
    int want = (pred & 8) ? uno || ((pred & 4) && lt) || ((pred & 2) && gt) || ((pred & 1) && eq)
                          : ((pred & 4) && lt) || ((pred & 2) && gt) || ((pred & 1) && eq);
    check_ieee("dcmp", a, b, (uint64_t)pred, y, (uint64_t)want);
    fprintf(out, H64 H64 "%X%X\n", a, b, pred, y);
    nlines++;
}
static void put_ddiv(uint64_t a, uint64_t b) {
    uint64_t y = clhls_model_fdiv64(a, b);
    check_ieee("ddiv", a, b, 0, y, ieee_d(d_of(a) / d_of(b)));
    fprintf(out, H64 H64 H64 "\n", a, b, y);
    nlines++;
}
static void put_dsqrt(uint64_t a) {
    uint64_t y = clhls_model_fsqrt64(a);
    check_ieee("dsqrt", a, 0, 0, y, ieee_d(sqrt(d_of(a))));
    fprintf(out, H64 H64 "\n", a, y);
    nlines++;
}
static void put_dfma(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t y = clhls_model_fma64(a, b, c);
    check_ieee("dfma", a, b, c, y, ieee_d(fma(d_of(a), d_of(b), d_of(c))));
    fprintf(out, H64 H64 H64 H64 "\n", a, b, c, y);
    nlines++;
}
static void put_itod(uint64_t v, int w, int s) {
    v &= wmask(w);
    fprintf(out, H64 H64 "\n", v, (uint64_t)clhls_model_itofp64(v, w, s));
    nlines++;
}
static void put_dtoi(uint64_t a, int w, int s) {
    fprintf(out, H64 H64 "\n", a, (uint64_t)clhls_model_fptoi64(a, w, s));
    nlines++;
}
static void put_ftod(uint32_t a) {
    uint64_t y = clhls_model_ftod(a);
    check_ieee("ftod", a, 0, 0, y, ieee_d((double)f_of(a)));
    fprintf(out, "%08" PRIX32 H64 "\n", a, y);
    nlines++;
}
static void put_dtof(uint64_t a) {
    fprintf(out, H64 "%08" PRIX32 "\n", a, clhls_model_dtof(a));
    nlines++;
}

static void gen_dadd(const char *dir, long count) {
    long nsub = count / 2;   /* the subnormal range, after the other vectors */
    long n = count + 2 * (long)(NDSPECIALS * NDSPECIALS) + nsub;
    open_out(dir, "dadd", n);
    for (size_t i = 0; i < NDSPECIALS; i++)
        for (size_t j = 0; j < NDSPECIALS; j++)
            for (int sub = 0; sub < 2; sub++) put_dadd(dspecials[i], dspecials[j], sub);
    for (long k = 0; k < count; k++) {
        uint64_t a, b, fmask;
        int ea, sub = (int)(rnd32() & 1);
        switch (k % 10) {
        case 0: a = rnd64(); b = rnd64(); break;
        case 1: /* close exponents, random signs: cancellation and carries */
            a = rand_dnormal(1, 2046);
            b = rand_d(clampd(expod(a) + rndrange(-2, 2)), ~0ull);
            break;
        case 2: /* any alignment distance, guard/round/sticky patterns */
            a = rand_dnormal(1, 2046);
            fmask = DFRAC << rndn(53);
            b = rand_d(clampd(expod(a) - rndrange(0, 60)), fmask);
            break;
        case 3: /* exact ties and near-ties: b about half an ulp of a */
            a = rand_dnormal(60, 2046);
            fmask = rndn(4) == 0 ? ~0ull : 0x000E000000000000ull;
            b = rand_d(expod(a) - 53 + rndrange(-1, 1), fmask);
            if (rnd32() & 1) swap64(&a, &b);
            break;
        case 4: /* overflow: both near the top of the range, or rounding up past DBL_MAX */
            if (rndn(2)) {
                a = rand_dnormal(2040, 2046);
                if (rndn(2)) a |= 0x000FFFFFFFFFF000ull;
                b = rand_dnormal(1990, 2046);
            } else {
                a = mkd(0, 2046, DFRAC - rndn(4));
                ea = rndrange(1991, 1995);
                b = mkd(0, ea, rndn(2) ? 0 : rnd64());
                b |= rnd64() & DSIGN;
                if (rnd32() & 1) { a ^= DSIGN; b ^= DSIGN; }
            }
            break;
        case 5: /* underflow: tiny operands, results in the denormal range */
            a = rand_dnormal(1, 4);
            b = rand_d(clampd(expod(a) + rndrange(-1, 1)), ~0ull);
            break;
        case 6: /* a special against anything */
            a = rand_dspecial(); b = rand_dany();
            if (rnd32() & 1) swap64(&a, &b);
            break;
        case 7: /* almost exact cancellation: b = +-a moved by a few ulps */
            a = rand_dnormal(1, 2046);
            b = ulpsd(a, rndrange(-3, 3));
            b ^= (rnd64() & 1) << 63;
            break;
        case 8: /* smallest-normal boundary: a - b around 2^-1022 */
            ea = rndrange(1, 3);
            a = rand_d(ea, rndn(2) ? DFRAC : 0x3ull);
            b = rand_d(rndrange(1, ea), ~0ull);
            break;
        default: a = rand_dany(); b = rand_dany(); break;
        }
        put_dadd(a, b, sub);
    }
    for (long k = 0; k < nsub; k++) {
        uint64_t a, b;
        int sub = (int)(rnd32() & 1);
        switch (k % 6) {
        case 0: a = rand_dsub(); b = rand_dsub(); break;        /* subnormal sums */
        case 1: a = rand_dlow(); b = rand_dlow(); break;        /* across 2^-1022 */
        case 2: /* normals whose difference is subnormal (or zero) */
            a = rand_dnormal(1, 3);
            b = ulpsd(a, rndrange(-(1 << 20), 1 << 20));
            b ^= (rnd64() & 1) << 63;
            break;
        case 3: /* a subnormal against a normal at any alignment */
            a = rand_dsub();
            b = rand_dexp(rndrange(1, 60));
            if (rnd32() & 1) swap64(&a, &b);
            break;
        case 4: a = rand_dsub(); b = rand_dany(); break;
        default: /* a subnormal with a near-tie partner in a larger binade */
            a = rand_dexp(rndrange(50, 56));
            b = rand_dsub();
            break;
        }
        put_dadd(a, b, sub);
    }
    close_out(n);
}

/* x^-1 modulo 2^64, x odd. */
static uint64_t inv_odd64(uint64_t x) {
    uint64_t inv = x;
    for (int i = 0; i < 5; i++) inv *= 2u - x * inv;
    return inv;
}
/* Two 53-bit significands whose 106-bit product has the given low 53 bits (the bits
 * rounding drops), as mant_pair does for binary32. */
static void dmant_pair(uint64_t low, uint64_t *ma, uint64_t *mb) {
    for (int tries = 0; tries < 100; tries++) {
        uint64_t x = (DHID | 1) | (rnd64() & (2 * DHID - 2));   /* odd, hidden bit set */
        uint64_t y = (low * inv_odd64(x)) & (2 * DHID - 1);
        if (y & DHID) { *ma = x; *mb = y; return; }
    }
    *ma = DHID; *mb = DHID | low;
}

static void gen_dmul(const char *dir, long count) {
    /* Low product bits to aim for: the binary32 patterns, scaled to 53 bits. */
    static const uint64_t low_pats[] = {
        1, DHID / 2, DHID / 2 + 1, DHID / 2 - 1, DHID - 1, DHID, DHID + 1, 3 * DHID / 2,
        3 * DHID / 2 + 1, 3 * DHID / 2 - 1, 2 * DHID - 1, DHID / 4, 3 * DHID / 4,
        5 * DHID / 4, 7 * DHID / 4,
    };
    long nsub = count / 2;   /* the subnormal range, after the other vectors */
    long n = count + (long)(NDSPECIALS * NDSPECIALS) + nsub;
    open_out(dir, "dmul", n);
    for (size_t i = 0; i < NDSPECIALS; i++)
        for (size_t j = 0; j < NDSPECIALS; j++) put_dmul(dspecials[i], dspecials[j]);
    for (long k = 0; k < count; k++) {
        uint64_t a, b, ma, mb, s;
        int ea, eb;
        switch (k % 10) {
        case 0: a = rnd64(); b = rnd64(); break;
        case 1: /* exponent sum near the underflow boundary */
            a = rand_dnormal(1, 2046);
            b = rand_d(clampd(1024 - expod(a) + rndrange(-3, 2)), ~0ull);
            break;
        case 2: /* exponent sum near the overflow boundary */
            a = rand_dnormal(1, 2046);
            b = rand_d(clampd(3069 - expod(a) + rndrange(-2, 2)), ~0ull);
            break;
        case 3: /* short fraction times anything: many exact ties */
            a = rand_d(rndrange(512, 1534), DFRAC << rndrange(48, 52));
            b = rand_dnormal(512, 1534);
            break;
        case 4: case 5: /* products right around 2^-1022 (the flush boundary) */
            a = rand_dnormal(500, 1023);
            if (rndn(3) == 0) a = mkd(a >> 63, expod(a), DFRAC - rndn(4));
            b = ulpsd(v_of(ldexp(1.0, -1022) / fabs(d_of(a))), rndrange(-3, 3));
            b |= rnd64() & DSIGN;
            break;
        case 6: /* products right around DBL_MAX */
            a = rand_dnormal(1023, 1500);
            b = ulpsd(v_of(DBL_MAX / fabs(d_of(a))), rndrange(-3, 3));
            b |= rnd64() & DSIGN;
            break;
        case 7: a = rand_dspecial(); b = rand_dany(); break;
        case 8: /* chosen low product bits: ties, tie + lowest sticky bit, ... */
            dmant_pair(low_pats[rndn(sizeof low_pats / sizeof low_pats[0])], &ma, &mb);
            ea = rndn(8) == 0 ? rndrange(1, 2046) : rndrange(512, 1534);
            eb = rndn(4) == 0 ? clampd(1024 - ea + rndrange(-1, 1)) : rndrange(512, 1534);
            s = rnd64() & 1;
            a = mkd(s, ea, ma);
            s = rnd64() & 1;
            b = mkd(s, eb, mb);
            break;
        default: a = rand_dany(); b = rand_dany(); break;
        }
        if (rnd32() & 1) swap64(&a, &b);
        put_dmul(a, b);
    }
    for (long k = 0; k < nsub; k++) {
        uint64_t a, b;
        int e;
        switch (k % 6) {
        case 0: /* a subnormal times a normal of any size: subnormal, normal or huge */
            a = rand_dsub(); b = rand_dnormal(1, 2046);
            break;
        case 1: /* a subnormal times a value that brings it near 2^-1022 or 2^-1074 */
            a = rand_dsub();
            e = (rndn(2) ? -1022 : -1074) - ilogbd(a) + rndrange(-3, 3);
            b = rand_dexp(e + 1023);
            break;
        case 2: /* tiny times huge, products anywhere in the subnormal range */
            a = rand_dnormal(1, 200);
            e = rndrange(-1080, -1018) - (expod(a) - 1023);
            b = rand_dexp(e + 1023);
            break;
        case 3: /* products around the smallest subnormal: underflow to zero or not */
            a = rand_dnormal(1, 1023);
            e = rndrange(-1077, -1072) - (expod(a) - 1023);
            b = rand_dexp(e + 1023);
            if (rndn(3) == 0) b = mkd(b >> 63, expod(b), 0);
            break;
        case 4: a = rand_dsub(); b = rand_dsub(); break;   /* underflow to zero */
        default: a = rand_dlow(); b = rand_dany(); break;
        }
        if (rnd32() & 1) swap64(&a, &b);
        put_dmul(a, b);
    }
    close_out(n);
}

static void gen_dcmp(const char *dir, long count) {
    long nsub = count / 2;   /* the subnormal range, after the other vectors */
    long n = count + 16 * (long)(NDSPECIALS * NDSPECIALS) + nsub;
    open_out(dir, "dcmp", n);
    for (size_t i = 0; i < NDSPECIALS; i++)
        for (size_t j = 0; j < NDSPECIALS; j++)
            for (int p = 0; p < 16; p++) put_dcmp(dspecials[i], dspecials[j], p);
    for (long k = 0; k < count; k++) {
        uint64_t a = rand_dany(), b;
        switch (k % 8) {
        case 0: b = rnd64(); a = rnd64(); break;
        case 1: b = a; break;
        case 2: b = a ^ DSIGN; break;
        case 3: b = ulpsd(a, rndrange(-2, 2)); break;
        case 4: /* zeros and denormals of either sign */
            a = rnd64() & DSIGN;
            if (rndn(2)) a |= rnd64() & DFRAC;
            b = rndn(2) ? rnd64() & (DSIGN | DFRAC) : rand_dany();
            break;
        case 5: b = rand_d(expod(a), ~0ull); break;
        case 6: /* equal high words: only the low fraction bits differ */
            b = (a & ~0xFFFFFFFFull) | (rnd64() & 0xFFFFFFFFull);
            break;
        default: b = rand_dany(); break;
        }
        if (rnd32() & 1) swap64(&a, &b);
        put_dcmp(a, b, (int)rndn(16));
    }
    for (long k = 0; k < nsub; k++) {   /* subnormals ordered among themselves and zeros */
        uint64_t a = rand_dlow(), b;
        switch (k % 4) {
        case 0: b = rand_dlow(); break;
        case 1: b = ulpsd(a, rndrange(-2, 2)); break;
        case 2: b = a ^ DSIGN; break;
        default: b = rnd64() & DSIGN; break;   /* a zero of either sign */
        }
        if (rnd32() & 1) swap64(&a, &b);
        put_dcmp(a, b, (int)rndn(16));
    }
    close_out(n);
}

static void gen_itod(const char *dir, long count, int w, int s) {
    char name[32];
    snprintf(name, sizeof name, "itod_%c%d", s ? 's' : 'u', w);
    long nfix = (w == 8 ? 256 : 0) + 12 * (long)w + 8;
    long n = count + nfix;
    open_out(dir, name, n);
    if (w == 8)
        for (uint64_t v = 0; v < 256; v++) put_itod(v, w, s);
    for (int k = 0; k < w; k++) {
        uint64_t p = 1ull << k;
        for (int d = -3; d <= 3; d++) put_itod(p + (uint64_t)(int64_t)d, w, s);
        put_itod(~(p - 1), w, s);          /* ones from bit k up */
        put_itod(p | (p >> 1), w, s);
        put_itod(p | (p >> 53), w, s);     /* guard-bit ties (k >= 53) */
        put_itod((p | (p >> 53)) + 1, w, s);
        put_itod(p | (p >> 52) | (p >> 53), w, s);
    }
    /* The extremes: 0, 1, all ones (-1 or the largest unsigned), the largest and
     * smallest signed values and their neighbours. */
    uint64_t m = wmask(w), h = 1ull << (w - 1);
    const uint64_t ext[8] = {0, 1, m, m - 1, m >> 1, (m >> 1) - 1, h, h + 1};
    for (int i = 0; i < 8; i++) put_itod(ext[i], w, s);
    for (long k = 0; k < count; k++) put_itod(rand_int_p(w, s, 53), w, s);
    close_out(n);
}

static void gen_dtoi(const char *dir, long count, int w, int s) {
    char name[32];
    snprintf(name, sizeof name, "dtoi_%c%d", s ? 's' : 'u', w);
    long nfix = (long)NDSPECIALS + 2 * 14 * (w + 2);
    long n = count + nfix;
    open_out(dir, name, n);
    for (size_t i = 0; i < NDSPECIALS; i++) put_dtoi(dspecials[i], w, s);
    for (int k = -1; k <= w; k++) {        /* around +-2^k, k = -1 .. w */
        for (uint64_t sign = 0; sign < 2; sign++) {
            uint64_t p = mkd(sign, 1023 + k, 0);
            for (int d = -4; d <= 4; d++) put_dtoi(ulpsd(p, d), w, s);
            put_dtoi(mkd(sign, 1023 + k, DHID / 2), w, s);  /* 1.5 * 2^k */
            put_dtoi(mkd(sign, 1023 + k, DFRAC), w, s);
            put_dtoi(mkd(sign, 1023 + k, rnd64()), w, s);
            put_dtoi(mkd(sign, 1022 + k, DFRAC), w, s);
            put_dtoi(mkd(sign, 1023 + k, 1), w, s);
        }
    }
    for (long k = 0; k < count; k++) {
        uint64_t a;
        switch (k % 5) {
        case 0: a = rnd64(); break;
        case 1: case 2: a = rand_dnormal(1021, 1023 + w + 2); break;  /* in range and near it */
        case 3: a = rand_dnormal(990, 1030); break;  /* fractions */
        default: a = rand_dany(); break;
        }
        put_dtoi(a, w, s);
    }
    close_out(n);
}

/* As div_near_tie, in binary64: 53-bit significands A, B with A 2^sh = B M + r, M odd
 * with 54 bits (sh = 53: quotient in [1, 2), sh = 54: in [1/2, 1)). */
static int ddiv_near_tie(int r, int sh, uint64_t *ma, uint64_t *mb) {
    for (int tries = 0; tries < 100; tries++) {
        uint64_t b = (DHID | 1) | (rnd64() & (2 * DHID - 2));
        uint64_t mod = 1ull << sh;
        uint64_t m = ((uint64_t)(int64_t)-r * inv_odd64(b)) & (mod - 1);  /* B M = -r mod 2^sh */
        if (sh == 53) m += mod;
        if (m < (1ull << 53) || m >= (1ull << 54)) continue;
        unsigned __int128 num = (unsigned __int128)b * m + (unsigned __int128)(__int128)r;
        uint64_t a = (uint64_t)(num >> sh);
        if (a < DHID || a >= 2 * DHID) continue;
        *ma = a; *mb = b;
        return 1;
    }
    return 0;
}
/* As sqrt_near_tie, in binary64: X = m 2^54 (odd biased exponent) or m 2^55 (even),
 * X = M^2 + r with M odd with 54 bits. */
static int dsqrt_near_tie(int64_t r, int odd_exp, uint64_t *m) {
    int sh = odd_exp ? 54 : 55;
    uint64_t mod = 1ull << sh, c = (uint64_t)-r & (mod - 1), x = 1;
    for (int j = 3; j < sh; j++)
        if (((x * x - c) >> j) & 1) x += 1ull << (j - 1);
    uint64_t roots[4] = {x, mod - x, (x + (mod >> 1)) & (mod - 1), ((mod >> 1) - x) & (mod - 1)};
    uint32_t first = rndn(4);
    for (int i = 0; i < 4; i++) {
        uint64_t mm = roots[(first + (uint32_t)i) % 4];
        if (mm < (1ull << 53) || mm >= (1ull << 54)) continue;
        unsigned __int128 xx = (unsigned __int128)mm * mm + (unsigned __int128)(__int128)r;
        uint64_t sig = (uint64_t)(xx >> sh);
        if (sig < DHID || sig >= 2 * DHID) continue;
        *m = sig;
        return 1;
    }
    return 0;
}

static void gen_ddiv(const char *dir, long count) {
    long nsub = count / 2;   /* the subnormal range, after the other vectors */
    long n = count + (long)(NDSPECIALS * NDSPECIALS) + nsub;
    open_out(dir, "ddiv", n);
    for (size_t i = 0; i < NDSPECIALS; i++)
        for (size_t j = 0; j < NDSPECIALS; j++) put_ddiv(dspecials[i], dspecials[j]);
    for (long k = 0; k < count; k++) {
        uint64_t a, b, q, s;
        int ea;
        switch (k % 12) {
        case 0: a = rnd64(); b = rnd64(); break;
        case 1: a = rand_dnormal(1, 2046); b = rand_dnormal(1, 2046); break;
        case 2: /* quotient exponent near the overflow boundary */
            a = rand_dnormal(1022, 2046);
            b = rand_d(clampd(expod(a) + 1023 - rndrange(2044, 2048)), ~0ull);
            break;
        case 3: /* quotients right around DBL_MAX */
            a = rand_dnormal(1030, 2046);
            b = ulpsd(v_of(fabs(d_of(a)) / DBL_MAX), rndrange(-3, 3));
            b |= rnd64() & DSIGN;
            break;
        case 4: case 5: /* quotients right around 2^-1022 (the flush boundary) */
            a = rand_dnormal(1, 1022);
            if (rndn(3) == 0) a = mkd(a >> 63, expod(a), DFRAC - rndn(4));
            b = ulpsd(v_of(ldexp(fabs(d_of(a)), 1022)), rndrange(-3, 3));
            b |= rnd64() & DSIGN;
            break;
        case 6: /* 1.1..1 over a power of two: 1.1..1 x 2^-1023 rounds up to 2^-1022 */
            ea = rndrange(1, 1022);
            s = rnd64() & 1;
            a = mkd(s, ea, DFRAC - rndn(3));
            s = rnd64() & 1;
            ea = clampd(ea + 1023 + rndrange(-1, 1));
            b = mkd(s, ea, rndn(2) ? 0 : rndn(4));
            break;
        case 7: /* exact quotients: a = q * b with 26-bit significands */
            q = rand_dshort(512, 1534, 25);
            b = rand_dshort(512, 1534, 25);
            a = v_of(d_of(q) * d_of(b));
            break;
        case 8: /* near-ties: a / b a few 2^-106 from a halfway point */
            ea = 2 * rndrange(-8, 7) + 1;   /* r, odd */
            if (!ddiv_near_tie(ea, rndrange(53, 54), &a, &b)) { a = 0x3FF0000000000000ull; b = a; break; }
            ea = rndrange(512, 1534);
            s = rnd64() & 1;
            a = mkd(s, ea, a);
            ea = rndrange(512, 1534);
            s = rnd64() & 1;
            b = mkd(s, ea, b);
            break;
        case 9: /* close significands: the quotient's leading bit on either side */
            a = rand_dnormal(1, 2046);
            s = rnd64() & 1;
            b = mkd(s, clampd(expod(a) + rndrange(-30, 30)), a);
            b = ulpsd(b, rndrange(-2, 2));
            break;
        case 10: /* a special against anything */
            a = rand_dspecial(); b = rand_dany();
            if (rnd32() & 1) swap64(&a, &b);
            break;
        default: a = rand_dany(); b = rand_dany(); break;
        }
        put_ddiv(a, b);
    }
    for (long k = 0; k < nsub; k++) {
        uint64_t a, b;
        int e;
        switch (k % 6) {
        case 0: a = rand_dsub(); b = rand_dnormal(1, 2046); break;   /* subnormal dividend */
        case 1: a = rand_dnormal(1, 2046); b = rand_dsub(); break;   /* subnormal divisor */
        case 2: a = rand_dsub(); b = rand_dsub(); break;
        case 3: /* quotients anywhere in the subnormal range */
            a = rand_dnormal(1, 2046);
            e = (expod(a) - 1023) - rndrange(-1080, -1018);
            b = rand_dexp(e + 1023);
            break;
        case 4: /* quotients around the smallest subnormal and 2^-1022 */
            a = rand_dlow();
            e = ilogbd(a) - (rndn(2) ? -1074 : -1022) + rndrange(-2, 2);
            b = rand_dexp(e + 1023);
            if (rndn(3) == 0) b = mkd(b >> 63, expod(b), DFRAC - rndn(4));
            break;
        default: a = rand_dlow(); b = rand_dany(); if (rnd32() & 1) swap64(&a, &b); break;
        }
        put_ddiv(a, b);
    }
    close_out(n);
}

static void gen_dsqrt(const char *dir, long count) {
    static const int exps[] = {1, 2, 3, 1022, 1023, 1024, 1025, 2045, 2046};
    const long nexps = (long)(sizeof exps / sizeof exps[0]);
    long nsub = count / 4;   /* subnormal operands, after the other vectors */
    long n = count + (long)NDSPECIALS + 2 * 17 * nexps + 3 * 52 + nsub;
    open_out(dir, "dsqrt", n);
    for (int k = 0; k < 52; k++) {   /* every subnormal power of two and its neighbours */
        put_dsqrt(1ull << k);
        put_dsqrt((1ull << k) | ((1ull << k) - 1));
        put_dsqrt((1ull << k) + 1);
    }
    for (size_t i = 0; i < NDSPECIALS; i++) put_dsqrt(dspecials[i]);
    for (long i = 0; i < nexps; i++)
        for (int d = -8; d <= 8; d++) {
            put_dsqrt(ulpsd(mkd(0, exps[i], 0), d));
            put_dsqrt(ulpsd(mkd(0, exps[i], DHID / 2), d));
        }
    for (long k = 0; k < count; k++) {
        uint64_t a, m;
        int e;
        int64_t r;
        switch (k % 8) {
        case 0: a = rnd64(); break;
        case 1: a = rand_dnormal(1, 2046) & ~DSIGN; break;
        case 2: /* perfect squares, and their neighbours */
            a = rand_dshort(512, 1534, 25) & ~DSIGN;
            a = v_of(d_of(a) * d_of(a));
            if (rndn(2)) a = ulpsd(a, rndrange(-3, 3));
            break;
        case 3: /* near-ties: the root a tiny fraction of its ulp from a halfway point */
            e = rndrange(1, 2046);
            a = 0;
            for (int tries = 0; tries < 16 && a == 0; tries++) {
                r = 8 * (int64_t)rndrange(-(1 << 20), (1 << 20) - 1) + 7;
                if (dsqrt_near_tie(r, e & 1, &m)) a = mkd(0, e, m);
            }
            if (a == 0) a = 0x3FF0000000000000ull;
            break;
        case 4: /* negative: NaN, except -0 and negative denormals (-0) */
            a = rand_dany() | DSIGN;
            break;
        case 5: /* zeros and denormals of either sign, the smallest normals */
            if (rndn(2)) a = rnd64() & (DSIGN | DFRAC);
            else a = rand_d(rndrange(1, 4), ~0ull) & ~DSIGN;
            break;
        case 6: a = rand_dnormal(2040, 2046) & ~DSIGN; break;  /* the largest */
        default: a = rand_dany(); break;
        }
        put_dsqrt(a);
    }
    for (long k = 0; k < nsub; k++) {
        uint64_t a = rand_dsub();
        if (k % 4) a &= ~DSIGN;   /* and some negative ones: NaN */
        put_dsqrt(a);
    }
    close_out(n);
}

static void gen_dfma(const char *dir, long count) {
    static const uint64_t sp[] = {
        0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x800FFFFFFFFFFFFF,
        0x0010000000000000, 0x8010000000000000, 0x0010000000000001, 0x7FEFFFFFFFFFFFFF,
        0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
        0xFFF4000000000000, 0x3FF0000000000000, 0xBFF0000000000000, 0x3FF0000000000001,
        0x3FEFFFFFFFFFFFFF, 0x3CA0000000000000, 0xBC90000000000000, 0x5FE0000000000000,
        0x1FF0000000000000, 0x4000000000000000,
    };
    const long ns = (long)(sizeof sp / sizeof sp[0]);
    long nsub = count / 2;   /* the subnormal range, after the other vectors */
    long n = count + ns * ns * ns + nsub;
    open_out(dir, "dfma", n);
    for (long i = 0; i < ns; i++)
        for (long j = 0; j < ns; j++)
            for (long l = 0; l < ns; l++) put_dfma(sp[i], sp[j], sp[l]);
    for (long k = 0; k < count; k++) {
        uint64_t a, b, c, p, s, v[3], ma, mb;
        int e;
        switch (k % 14) {
        case 0: a = rnd64(); b = rnd64(); c = rnd64(); break;
        case 1: a = rand_dnormal(1, 2046); b = rand_dnormal(1, 2046); c = rand_dnormal(1, 2046); break;
        case 2: /* c about the size of the product: carries, partial cancellation */
            a = rand_dnormal(512, 1534); b = rand_dnormal(512, 1534);
            c = rand_d(clampd(expod(a) + expod(b) - 1023 + rndrange(-3, 2)), ~0ull);
            break;
        case 3: /* c close to -a * b: massive cancellation, the product's low half decides */
            a = rand_dnormal(512, 1534); b = rand_dnormal(512, 1534);
            c = v_of(-(d_of(a) * d_of(b)));
            c = ulpsd(c, rndrange(-3, 3));
            break;
        case 4: /* exact cancellation: a * b representable, c = -(a * b): +0 */
            a = rand_dshort(512, 1534, 25); b = rand_dshort(512, 1534, 25);
            c = v_of(d_of(a) * d_of(b)) ^ DSIGN;
            break;
        case 5: /* a product below the normal range plus a small normal c */
            a = rand_dnormal(1, 1022);
            e = rndrange(-60, 3);   /* the product's biased exponent */
            b = rand_d(clampd(e + 1023 - expod(a)), ~0ull);
            switch (rndn(3)) {
            case 0: s = rnd64() & 1; c = mkd(s, 1, rndn(2) ? 0 : rndn(16)); break;  /* about 2^-1022 */
            case 1: c = rand_dnormal(1, 8); break;
            default: c = rand_dnormal(1, 60); break;
            }
            break;
        case 6: /* products right around 2^-1022, c zero, a denormal or about 2^-1022 */
            a = rand_dnormal(500, 1022);
            if (rndn(3) == 0) a = mkd(a >> 63, expod(a), DFRAC - rndn(4));
            b = ulpsd(v_of(ldexp(1.0, -1022) / fabs(d_of(a))), rndrange(-3, 3));
            b |= rnd64() & DSIGN;
            switch (rndn(4)) {
            case 0: c = rnd64() & DSIGN; break;
            case 1: c = rnd64() & (DSIGN | DFRAC); break;
            case 2: s = rnd64() & 1; c = mkd(s, 1, rndn(4)); break;
            default: e = rndrange(1, 3); c = rand_d(e, ~0ull); break;
            }
            break;
        case 7: /* ties and near-ties: c about half an ulp of the exact product */
            a = rand_dshort(600, 1400, 25); b = rand_dshort(600, 1400, 25);
            p = v_of(d_of(a) * d_of(b));   /* 26-bit significands: exact, any last bit */
            e = expod(p) - 53;             /* half an ulp of p */
            s = rnd64() & 1;
            switch (rndn(4)) {
            case 0: c = mkd(s, clampd(e), 0); break;                          /* a tie */
            case 1: c = mkd(s, clampd(e), rndn(4)); break;                    /* a tie plus a little */
            case 2: c = mkd(s, clampd(e - 1), DFRAC - rndn(4)); break;        /* a tie minus a little */
            default: e = clampd(e + rndrange(-60, 1)); c = rand_d(e, ~0ull); break;  /* sticky bits */
            }
            break;
        case 8: /* results around DBL_MAX: the product near it, c large of either sign */
            a = rand_dnormal(1023, 1600);
            b = ulpsd(v_of(DBL_MAX / fabs(d_of(a))), rndrange(-3, 3));
            b |= rnd64() & DSIGN;
            c = rand_dnormal(1990, 2046);
            break;
        case 9: /* a product beyond DBL_MAX brought back by c, or c pushing it over */
            a = rand_dnormal(1534, 2046);
            b = rand_d(clampd(rndrange(2045, 2050) + 1023 - expod(a)), ~0ull);
            s = ((a ^ b) >> 63) ^ (rndn(4) != 0);   /* mostly the product's opposite sign */
            c = mkd(s, rndrange(2042, 2046), 0);
            c |= rnd64() & DFRAC;
            break;
        case 10: /* c dominates: the product lands in the guard and sticky bits */
            e = rndrange(200, 2046);
            c = rand_d(e, rndn(3) == 0 ? 0 : ~0ull);   /* often a power of two */
            a = rand_dnormal(512, 1534);
            e = expod(c) - rndrange(50, 120);
            b = rand_d(clampd(e + 1023 - expod(a)), ~0ull);
            break;
        case 11: /* a special in any position */
            v[0] = rand_dany(); v[1] = rand_dany(); v[2] = rand_dany();
            v[rndn(3)] = rand_dspecial();
            a = v[0]; b = v[1]; c = v[2];
            break;
        case 12: { /* the product an exact tie (or just off one), a far smaller c decides */
            static const uint64_t tie_lows[] = {DHID / 2, DHID, 3 * DHID / 2, DHID / 2 + 1, DHID - 1};
            dmant_pair(tie_lows[rndn(sizeof tie_lows / sizeof tie_lows[0])], &ma, &mb);
            s = rnd64() & 1;
            a = mkd(s, rndrange(700, 1300), ma);
            s = rnd64() & 1;
            b = mkd(s, rndrange(700, 1300), mb);
            e = clampd(expod(a) + expod(b) - 1023 - rndrange(54, 200));
            c = rand_d(e, ~0ull);
            break;
        }
        default: a = rand_dany(); b = rand_dany(); c = rand_dany(); break;
        }
        if (rnd32() & 1) swap64(&a, &b);
        put_dfma(a, b, c);
    }
    for (long k = 0; k < nsub; k++) {
        uint64_t a, b, c;
        int e;
        switch (k % 6) {
        case 0: a = rand_dlow(); b = rand_dany(); c = rand_dlow(); break;
        case 1: /* a subnormal product (or just below 2^-1074) plus a subnormal or tiny c */
            a = rand_dnormal(1, 1023);
            e = rndrange(-1078, -1018) - (expod(a) - 1023);
            b = rand_dexp(e + 1023);
            c = rand_dlow();
            break;
        case 2: /* c close to -a * b: cancellation into the subnormal range */
            a = rand_dnormal(1, 1023);
            e = rndrange(-1022, -960) - (expod(a) - 1023);
            b = rand_dexp(e + 1023);
            c = ulpsd(v_of(-(d_of(a) * d_of(b))), rndrange(-(1 << 12), 1 << 12));
            break;
        case 3: /* subnormal factors times a large one, c of any size */
            a = rand_dsub();
            b = rand_dnormal(1023, 2046);
            c = rndn(2) ? rand_dlow() : rand_dnormal(1, 1100);
            break;
        case 4: /* a subnormal c dominating a tiny product (sticky bits only) */
            c = rand_dsub();
            a = rand_dnormal(1, 900);
            e = ilogbd(c) - rndrange(54, 200) - (expod(a) - 1023);
            b = rand_dexp(e + 1023);
            break;
        default: a = rand_dsub(); b = rand_dsub(); c = rand_dany(); break;
        }
        if (rnd32() & 1) swap64(&a, &b);
        put_dfma(a, b, c);
    }
    close_out(n);
}

static void gen_ftod(const char *dir, long count) {
    long n = count + (long)NSPECIALS + 3 * 23;
    open_out(dir, "ftod", n);
    for (size_t i = 0; i < NSPECIALS; i++) put_ftod(specials[i]);
    for (int k = 0; k < 23; k++) {   /* every binary32 subnormal binade: exact doubles */
        put_ftod(1u << k);
        put_ftod(0x80000000u | (1u << k) | (rnd32() & ((1u << k) - 1)));
        put_ftod((2u << k) - 1);
    }
    for (long k = 0; k < count; k++) {
        uint32_t a;
        switch (k % 3) {
        case 0: a = rnd32(); break;
        case 1: a = rand_any(); break;
        default: /* subnormals */
            a = (rnd32() & 0x7FFFFFu) >> rndn(23);
            a |= rnd32() & 0x80000000u;
            break;
        }
        put_ftod(a);
    }
    close_out(n);
}

static void gen_dtof(const char *dir, long count) {
    /* Exponents around the binary32 range's ends (897 = 2^-126, 1150 = 2^127) and the
     * fractions that decide rounding there: ties to even both ways, a tie plus or minus
     * the lowest bit, all ones (rounds up into the next binade). */
    static const int exps[] = {894, 895, 896, 897, 898, 1023, 1149, 1150, 1151};
    static const uint64_t fracs[] = {
        0, 1, DFRAC, 1ull << 28, (1ull << 28) + 1, (1ull << 28) - 1, 3ull << 28,
        (3ull << 28) - 1, DFRAC & ~((1ull << 28) - 1), DFRAC ^ (1ull << 28), 1ull << 29,
    };
    const long ne = (long)(sizeof exps / sizeof exps[0]), nf = (long)(sizeof fracs / sizeof fracs[0]);
    long nsub = count / 8;   /* subnormal operands and binary32 subnormal results */
    long n = count + (long)NDSPECIALS + 2 * ne * nf + nsub;
    open_out(dir, "dtof", n);
    for (size_t i = 0; i < NDSPECIALS; i++) put_dtof(dspecials[i]);
    for (long i = 0; i < ne; i++)
        for (long j = 0; j < nf; j++)
            for (uint64_t s = 0; s < 2; s++) put_dtof(mkd(s, exps[i], fracs[j]));
    for (long k = 0; k < count; k++) {
        uint64_t a, f;
        int e;
        switch (k % 7) {
        case 0: a = rnd64(); break;
        case 1: a = rand_dnormal(1023 - 135, 1023 + 135); break;   /* the binary32 range */
        case 2: /* ties and near-ties at binary32 precision */
            e = rndrange(1023 - 135, 1023 + 135);
            f = (rnd64() & DFRAC & ~((1ull << 29) - 1)) | (1ull << 28);
            f += (uint64_t)(int64_t)rndrange(-2, 2);
            if (rndn(4) == 0) f ^= rnd64() & ((1ull << 28) - 1);
            a = rand_d(e, 0) | f;
            break;
        case 3: /* around FLT_MAX: the largest fractions, rounding to infinity */
            e = rndrange(1149, 1151);
            f = rnd64() & ((1ull << 30) - 1);
            if (rndn(2)) f &= 0xFF;
            a = rand_d(e, 0) | (DFRAC & ~f);
            break;
        case 4: /* around 2^-126: flushed, or rounding up to the smallest normal */
            e = rndrange(893, 898);
            f = rndn(2) ? DFRAC & ~(rnd64() & ((1ull << 30) - 1)) : rnd64() & DFRAC;
            a = rand_d(e, 0) | f;
            break;
        case 5: a = rand_dspecial(); break;
        default: a = rand_dany(); break;
        }
        put_dtof(a);
    }
    for (long k = 0; k < nsub; k++)   /* flushed by the binary32 side */
        put_dtof(k % 2 ? rand_dsub() : rand_dnormal(1023 - 152, 1023 - 126));
    close_out(n);
}

/* The host must compute binary64 with one rounding to nearest even and keep denormals. */
static void self_check64(void) {
    struct { uint64_t a, b, c, want; int op; } t[] = {  /* op: 0 +, 1 *, 2 /, 3 sqrt, 4 fma */
        {0x3FF0000000000000, 0x3CA0000000000000, 0, 0x3FF0000000000000, 0},  /* 1 + 2^-53: tie, even */
        {0x3FF0000000000001, 0x3CA0000000000000, 0, 0x3FF0000000000002, 0},  /* tie, up */
        {0x0010000000000001, 0x8010000000000000, 0, 0x0000000000000001, 0},  /* subnormal result */
        {0x000FFFFFFFFFFFFF, 0x0000000000000001, 0, 0x0010000000000000, 0},  /* up to 2^-1022 */
        {0x3FF0000000000000, 0xBFF0000000000000, 0, 0x0000000000000000, 0},  /* x + -x = +0 */
        {0x7FEFFFFFFFFFFFFF, 0x7C90000000000000, 0, 0x7FF0000000000000, 0},  /* DBL_MAX + half ulp */
        {0x3FEFFFFFFFFFFFFF, 0x0010000000000000, 0, 0x0010000000000000, 1},  /* rounds up to 2^-1022 */
        {0x3FEFFFFFFFFFFFFE, 0x0010000000000000, 0, 0x000FFFFFFFFFFFFF, 1},  /* rounds to a subnormal */
        {0x0008000000000000, 0x7FF0000000000000, 0, 0x7FF0000000000000, 1},  /* subnormal * inf */
        {0x3FE0000000000000, 0x0000000000000001, 0, 0x0000000000000000, 1},  /* tie to even: 0 */
        {0x3FF8000000000000, 0x0000000000000001, 0, 0x0000000000000002, 1},  /* tie to even: up */
        {0x0000000000000001, 0x4330000000000000, 0, 0x0010000000000000, 1},  /* 2^-1074 2^52 */
        {0x3FF0000000000000, 0x4008000000000000, 0, 0x3FD5555555555555, 2},  /* 1 / 3 */
        {0x4000000000000000, 0, 0, 0x3FF6A09E667F3BCD, 3},                    /* sqrt(2) */
        {0x0000000000000004, 0, 0, 0x1E70000000000000, 3},                    /* sqrt(2^-1072) */
        {0x8000000000000000, 0, 0, 0x8000000000000000, 3},                    /* sqrt(-0) */
        {0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF, 0xBFF0000000000000, 0x3C9FFFFFFFFFFFFE, 4},
        {0x8000000000000000, 0x3FF0000000000000, 0x8000000000000000, 0x8000000000000000, 4},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uint64_t got;
        switch (t[i].op) {
        case 0: got = clhls_model_fadd64(t[i].a, t[i].b, 0); break;
        case 1: got = clhls_model_fmul64(t[i].a, t[i].b); break;
        case 2: got = clhls_model_fdiv64(t[i].a, t[i].b); break;
        case 3: got = clhls_model_fsqrt64(t[i].a); break;
        default: got = clhls_model_fma64(t[i].a, t[i].b, t[i].c); break;
        }
        if (got != t[i].want) {
            fprintf(stderr, "gen_fp_vectors: binary64 self-check %zu: " H64 " " H64 " " H64
                    " -> " H64 ", expected " H64 "\n", i, t[i].a, t[i].b, t[i].c, got, t[i].want);
            exit(1);
        }
    }
    if (clhls_model_itofp64(0xFFFFFFFFFFFFFFFFull, 64, 0) != 0x43F0000000000000ull ||
        clhls_model_itofp64(0x20000000000001ull, 64, 1) != 0x4340000000000000ull ||
        clhls_model_fptoi64(0xC3E0000000000000ull, 64, 1) != 0x8000000000000000ull ||
        clhls_model_ftod(0x3F800000u) != 0x3FF0000000000000ull || clhls_model_ftod(0x7FA00000u) != DQNAN ||
        clhls_model_ftod(0x80000001u) != 0xB6A0000000000000ull ||    /* -2^-149, exact */
        clhls_model_fcmp64(0x0000000000000001ull, 0, 2) != 1 ||      /* 2^-1074 > 0 */
        clhls_model_fcmp64(0x8000000000000000ull, 0, 1) != 1 ||      /* -0 == +0 */
        clhls_model_dtof(0x3FF0000010000000ull) != 0x3F800000u ||     /* tie to even, down */
        clhls_model_dtof(0x3FF0000030000000ull) != 0x3F800002u ||     /* tie to even, up */
        clhls_model_dtof(0x380FFFFFF0000000ull) != 0x00800000u ||     /* rounds up to 2^-126 */
        clhls_model_dtof(0x47EFFFFFF0000000ull) != 0x7F800000u) {     /* FLT_MAX + half ulp */
        fprintf(stderr, "gen_fp_vectors: binary64 conversion self-check failed\n");
        exit(1);
    }
}

/* The host must round to nearest even and keep denormals (no FTZ/DAZ mode). */
static void self_check(void) {
    struct { uint32_t a, b, want; int op; } t[] = {
        {0x3F800000, 0x33800000, 0x3F800000, 0},  /* 1 + 2^-24: tie to even, down */
        {0x3F800001, 0x33800000, 0x3F800002, 0},  /* tie to even, up */
        {0x00800001, 0x80800000, 0x00000000, 0},  /* denormal result flushed */
        {0x80800001, 0x00800000, 0x80000000, 0},  /* to a signed zero */
        {0x3F800000, 0xBF800000, 0x00000000, 0},  /* x + -x = +0 */
        {0x7F7FFFFF, 0x73000000, 0x7F800000, 0},  /* FLT_MAX + half ulp: tie up, overflow */
        {0x7F800000, 0xFF800000, QNAN, 0},
        {0x3F7FFFFF, 0x00800000, 0x00800000, 1},  /* rounds up to the smallest normal */
        {0x3F7FFFFE, 0x00800000, 0x00000000, 1},
        {0x00400000, 0x7F800000, QNAN, 1},        /* denormal * inf = 0 * inf */
        {0x7F7FFFFF, 0x40000000, 0x7F800000, 1},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uint32_t got = t[i].op ? clhls_model_fmul32(t[i].a, t[i].b, 0)
                               : clhls_model_fadd32(t[i].a, t[i].b, 0, 0);
        if (got != t[i].want) {
            fprintf(stderr, "gen_fp_vectors: host FPU self-check %zu: %08" PRIX32 " %s %08" PRIX32
                    " = %08" PRIX32 ", expected %08" PRIX32 "\n", i, t[i].a, t[i].op ? "*" : "+",
                    t[i].b, got, t[i].want);
            exit(1);
        }
    }
    struct { uint32_t a, b, c, want; int op; } u[] = {  /* op: 0 a / b, 1 sqrt(a), 2 fma */
        {0x3F800000, 0x40400000, 0, 0x3EAAAAAB, 0},  /* 1 / 3 */
        {0x3FFFFFFF, 0x7F000000, 0, 0x00800000, 0},  /* 1.1..1 x 2^-127 rounds up to 2^-126 */
        {0x3FFFFFFE, 0x7F000000, 0, 0x00000000, 0},  /* denormal quotient flushed */
        {0xBF800000, 0x00400000, 0, 0xFF800000, 0},  /* -1 / denormal = -1 / 0 */
        {0x00000000, 0x80000000, 0, QNAN, 0},
        {0x40000000, 0, 0, 0x3FB504F3, 1},           /* sqrt(2) */
        {0x80000000, 0, 0, 0x80000000, 1},           /* sqrt(-0) = -0 */
        {0x807FFFFF, 0, 0, 0x80000000, 1},           /* negative denormal: -0 */
        {0xBF800000, 0, 0, QNAN, 1},
        {0x3F800001, 0x3F7FFFFF, 0xBF800000, 0x337FFFFE, 2},  /* fused: unfused gives 0 */
        {0x0D800000, 0x2B800000, 0x00800000, 0x00800200, 2},  /* 2^-140 product + 2^-126 */
        {0x3F800000, 0x3F800000, 0xBF800000, 0x00000000, 2},  /* exact cancellation: +0 */
        {0x80000000, 0x3F800000, 0x80000000, 0x80000000, 2},  /* -0 + -0 = -0 */
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        uint32_t got = u[i].op == 0 ? clhls_model_fdiv32(u[i].a, u[i].b, 0)
                     : u[i].op == 1 ? clhls_model_fsqrt32(u[i].a, 0)
                                    : clhls_model_fma32(u[i].a, u[i].b, u[i].c, 0);
        if (got != u[i].want) {
            fprintf(stderr, "gen_fp_vectors: host self-check %zu (%s): %08" PRIX32 " %08" PRIX32
                    " %08" PRIX32 " -> %08" PRIX32 ", expected %08" PRIX32 "\n", i,
                    u[i].op == 0 ? "div" : u[i].op == 1 ? "sqrt" : "fma", u[i].a, u[i].b, u[i].c,
                    got, u[i].want);
            exit(1);
        }
    }
    if (clhls_model_itofp32(0xFFFFFFFFFFFFFFFFull, 64, 0) != 0x5F800000u ||
        clhls_model_itofp32(0x1000001, 32, 1) != 0x4B800000u ||
        clhls_model_fptoi32(0xCF000000u, 32, 1) != 0x80000000u ||
        clhls_model_fptoi32(0xC0400000u, 8, 1) != 0xFDu) {
        fprintf(stderr, "gen_fp_vectors: conversion self-check failed\n");
        exit(1);
    }
    /* `normal` is honoured: two subnormals, unflushed, sum to the smallest normal. */
    if (clhls_model_fadd32(0x00400000, 0x00400000, 0, 0) != 0 ||
        clhls_model_fadd32(0x00400000, 0x00400000, 0, 3) != 0x00800000u ||
        clhls_model_fmul32(0x00400000, 0x4B000000, 1) != 0x0B800000u) {
        fprintf(stderr, "gen_fp_vectors: self-check of the models' normal argument failed\n");
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s DIR COUNT [SEED]\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    char *end;
    long count = strtol(argv[2], &end, 0);
    if (*end || count < 1) { fprintf(stderr, "gen_fp_vectors: bad COUNT '%s'\n", argv[2]); return 2; }
    rng_state = argc == 4 ? strtoull(argv[3], NULL, 0) : 0xC1A5F10A7ull;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) { perror(dir); return 1; }
    self_check();
    gen_fadd(dir, count);
    gen_fmul(dir, count);
    gen_fcmp(dir, count);
    for (int s = 0; s < 2; s++)
        for (int w = 8; w <= 64; w *= 2) gen_itofp(dir, count, w, s);
    for (int s = 0; s < 2; s++)
        for (int w = 8; w <= 64; w *= 2) gen_fptoi(dir, count, w, s);
    gen_fdiv(dir, count);
    gen_fsqrt(dir, count);
    gen_fma(dir, count);
    self_check64();
    gen_dadd(dir, count);
    gen_dmul(dir, count);
    gen_dcmp(dir, count);
    for (int s = 0; s < 2; s++)
        for (int w = 8; w <= 64; w *= 2) gen_itod(dir, count, w, s);
    for (int s = 0; s < 2; s++)
        for (int w = 8; w <= 64; w *= 2) gen_dtoi(dir, count, w, s);
    gen_ddiv(dir, count);
    gen_dsqrt(dir, count);
    gen_dfma(dir, count);
    gen_ftod(dir, count);
    gen_dtof(dir, count);
    return 0;
}
