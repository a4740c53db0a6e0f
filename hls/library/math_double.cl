/* OpenCL C 1.2 section 6.12.2 for double: the math functions that are more than one
 * operation, for double and every vector size (per element). The float functions
 * are in math.cl; these follow their structure with double-double (head + tail
 * double) arithmetic on the hardware's correctly rounded fma where those use
 * double-float, and with the double ULP limits of section 7.4 (the special values of
 * section 7.5). The double units have IEEE subnormals: scaling by 2^n (ldexp, the
 * exponentials) rounds once, frexp, logb, ilogb and the logarithms normalise a
 * subnormal by its leading zeros; the remainders (fmod, remainder, remquo) give a
 * subnormal exponent 1 and no hidden bit; the special cases of pow, powr, and lgamma
 * test for true zeros; tgamma below 2^-1022 is 1/x.
 * - Exponentials: t = x log2(e) (or log2(10), or 1) as a double-double, t = k + f
 *   with |f| <= 1/2, e^(f ln2) - 1 by its Taylor series to degree 14 (2^-62), the
 *   result scaled by 2^k in two exact steps.
 * - Logarithms: x = 2^k z with z in [0.70, 1.41), f = z - 1 (exact),
 *   s = f/(2 + f) as a double-double, ln z = 2s + s R(s^2) with the minimax R of
 *   the classic fdlibm log (Lg1..Lg7, 2^-58.45), its first term in double-double:
 *   ln z to about 2^-59 relative.
 * - pow, pown, powr, rootn, cbrt: 2^(y log2|x|) with log2 and the product in
 *   double-double.
 * - sin, cos, tan: reduction modulo pi/2 by the Payne-Hanek method for every
 *   argument from pi/4 up: 192 bits of 2/pi chosen by the exponent from a __constant
 *   table of 1344 bits (after 64 zero bits), multiplied by the 53-bit significand in
 *   64-bit integers (mul_hi), which leaves the quadrant and 126 bits of the
 *   fraction; then the fdlibm kernels for sin and cos on [-pi/4, pi/4] with the
 *   tail of the reduced argument; tan = sin/cos.
 * - sinpi, cospi, tanpi: x = n/2 + f exactly, the same kernels on pi f.
 * - atan, atan2 (and asin = atan2(x, sqrt(1 - x^2)), acos likewise, 1 - x^2 by one
 *   fma): the reductions of fdlibm's atan into |t| <= 7/16 (one division) and its
 *   minimax polynomial, the result as a double-double; the _pi versions divide that
 *   by pi in double-double.
 * - Hyperbolic functions from expm1 and e^x/2; their inverses from log1p (or ln x +
 *   ln 2 from 2^28 on).
 * - erf and erfc: erfc(x) e^(x^2) by polynomials of degree 19 on 12 intervals of
 *   [0.5, 27.5) (a __constant table), e^(-x^2) with x^2 as a double-double; erf near
 *   zero x P(x^2).
 * - tgamma, lgamma: Stirling's series for z = x + n >= 10 in double-double, divided
 *   by the exact double-double product x (x + 1) ... (x + n - 1) (a loop of at most
 *   10 steps), reflection for x < 0.
 * - fmod, remainder, remquo: exact, by long division of the significands in 64-bit
 *   integers, 10 bits per step of a loop.
 * - frexp, ldexp, modf, fract, logb, ilogb, nextafter, nan, maxmag, minmag, hypot:
 *   on the bits, or single operations. */
#include "common.h"

#define D_LN2_HI 0x1.62e42fefa39efp-1
#define D_LN2_LO 0x1.abc9e3b39803fp-56
#define D_INVLN2_HI 0x1.71547652b82fep+0
#define D_INVLN2_LO 0x1.777d0ffda0d24p-56
#define D_LOG2_10_HI 0x1.a934f0979a371p+1
#define D_LOG2_10_LO 0x1.7f2495fb7fa6dp-53
#define D_INVLN10_HI 0x1.bcb7b1526e50ep-2
#define D_INVLN10_LO 0x1.95355baaafad3p-57
#define D_LOG10_2_HI 0x1.34413509f79ffp-2
#define D_LOG10_2_LO -0x1.9dc1da994fd21p-59
#define D_PIO2_HI 0x1.921fb54442d18p+0
#define D_PIO2_LO 0x1.1a62633145c07p-54
#define D_THIRD_HI 0x1.5555555555555p-2
#define D_THIRD_LO 0x1.5555555555555p-56
#define D_PI_HI 0x1.921fb54442d18p+1
#define D_PI_LO 0x1.1a62633145c07p-53
#define D_PIO4 0x1.921fb54442d18p-1
#define D_3PIO4 0x1.2d97c7f3321d2p+1
#define D_LNSQRT2PI_HI 0x1.d67f1c864beb5p-1
#define D_LNSQRT2PI_LO -0x1.65b5a1b7ff580p-55
#define D_LNPI_HI 0x1.250d048e7a1bdp+0
#define D_LNPI_LO 0x1.7abf2ad8d5000p-57
#define D_INVPI_HI 0x1.45f306dc9c883p-2
#define D_INVPI_LO -0x1.6b01ec5417056p-56

/* ---------------------------------------------------------------- helpers */

/* 2^n for -1022 <= n <= 1023. */
static double __clhls_pow2i_d(int n) { return as_double((ulong)(n + 1023) << 52); }

/* x * 2^n with one rounding (n clamped to [-2200, 2200], enough to take any double,
 * a subnormal too, to overflow or to zero): up to two exact steps by 2^1023 or by
 * 2^-969 (= 2^-1022 2^53) bring n into [-1022, 1023], then one multiply rounds. A step
 * down that leaves the normal range can only happen for a result below half the
 * smallest subnormal, which rounds to zero either way (musl's scalbn). */
static double __clhls_scale_d(double x, int n)
{
    n = clamp(n, -2200, 2200);
    int s1 = n > 1023 ? 1023 : n < -1022 ? -969 : 0;
    n -= s1;
    int s2 = n > 1023 ? 1023 : n < -1022 ? -969 : 0;
    n = clamp(n - s2, -1022, 1023);
    return x * __clhls_pow2i_d(s1) * __clhls_pow2i_d(s2) * __clhls_pow2i_d(n);
}

/* The unbiased exponent of a finite nonzero double from its magnitude's bits ax,
 * a subnormal's from its leading one. */
static int __clhls_exponent_d(ulong ax)
{
    return ax < 0x0010000000000000UL ? -1011 - (int)clz(ax) : (int)(ax >> 52) - 1023;
}

/* r (not negative, or NaN) with the sign of s (a select, as math.cl's). */
static double __clhls_with_sign_d(double r, double s) { return as_long(s) < 0 ? -r : r; }

/* x rounded to an integral value (ties to even), for |x| < 2^51. */
static double __clhls_rint51(double x) { return (x + 0x1.8p52) - 0x1.8p52; }

/* ------------------------------------------------------------ exponentials */

/* e^r - 1 for |r| <= 0.35: r + r^2 P(r), P from the Taylor series (to r^14/14!). */
static double __clhls_expm1_poly_d(double r)
{
    double p = 0x1.93974a8c07c9dp-37; /* 1/14! */
    p = fma(p, r, 0x1.6124613a86d09p-33); /* 1/13! ... 1/2! */
    p = fma(p, r, 0x1.1eed8eff8d898p-29);
    p = fma(p, r, 0x1.ae64567f544e4p-26);
    p = fma(p, r, 0x1.27e4fb7789f5cp-22);
    p = fma(p, r, 0x1.71de3a556c734p-19);
    p = fma(p, r, 0x1.a01a01a01a01ap-16);
    p = fma(p, r, 0x1.a01a01a01a01ap-13);
    p = fma(p, r, 0x1.6c16c16c16c17p-10);
    p = fma(p, r, 0x1.1111111111111p-7);
    p = fma(p, r, 0x1.5555555555555p-5);
    p = fma(p, r, 0x1.5555555555555p-3);
    p = fma(p, r, 0x1.0000000000000p-1);
    return fma(r * r, p, r);
}

/* t = th + tl (log2 units, tl far below th) as k + f, k integral, |f| <= 1/2: returns
 * e^(f ln2) - 1 = em + *eml (a double-double) and k in *k. |t| is clamped to 2100
 * (a NaN stays). */
static double __clhls_exp2_parts_d(double th, double tl, int *k, double *eml)
{
    double c = th > 2100.0 ? 2100.0 : th < -2100.0 ? -2100.0 : th;
    double lo = fabs(th) < 2100.0 ? tl : 0.0;
    double kf = __clhls_rint51(c);
    double f = (c - kf) + lo;
    double rh = f * D_LN2_HI;
    double rl = fma(f, D_LN2_HI, -rh) + f * D_LN2_LO;
    double em = __clhls_expm1_poly_d(rh);
    *k = (int)kf;
    *eml = rl + rl * em; /* e^(rh + rl) - 1 = em + rl e^rh */
    return em;
}

/* 2^(th + tl). */
static double __clhls_exp2_dd_d(double th, double tl)
{
    int k;
    double eml;
    double em = __clhls_exp2_parts_d(th, tl, &k, &eml);
    return __clhls_scale_d(1.0 + (em + eml), k);
}

/* x log2(e) as a double-double (x clamped to +-800, beyond both ends of exp). */
static double __clhls_x_log2e(double x, double *tl)
{
    double c = x > 800.0 ? 800.0 : x < -800.0 ? -800.0 : x;
    double th = c * D_INVLN2_HI;
    *tl = fma(c, D_INVLN2_HI, -th) + c * D_INVLN2_LO;
    return th;
}

double OVERLOAD exp(double x)
{
    double tl;
    double th = __clhls_x_log2e(x, &tl);
    return __clhls_exp2_dd_d(th, tl);
}

double OVERLOAD exp2(double x) { return __clhls_exp2_dd_d(x, 0.0); }

double OVERLOAD exp10(double x)
{
    double c = x > 400.0 ? 400.0 : x < -400.0 ? -400.0 : x;
    double th = c * D_LOG2_10_HI;
    double tl = fma(c, D_LOG2_10_HI, -th) + c * D_LOG2_10_LO;
    return __clhls_exp2_dd_d(th, tl);
}

/* Near zero the series of x itself; else 2^k (em + eml) + (2^k - 1) with one rounding
 * while 2^k is a double; above, e^x - 1 = e^x. */
double OVERLOAD expm1(double x)
{
    double tl;
    double th = __clhls_x_log2e(x, &tl);
    int k;
    double eml;
    double em = __clhls_exp2_parts_d(th, tl, &k, &eml);
    double s = __clhls_pow2i_d(clamp(k, -1022, 1000));
    double big = __clhls_scale_d(1.0 + (em + eml), k) - 1.0;
    double r = k > 1000 ? big : fma(s, em, fma(s, eml, s - 1.0));
    return fabs(x) < 0.34 ? (x == 0.0 ? x : __clhls_expm1_poly_d(x)) : r;
}

/* -------------------------------------------------------------- logarithms */

/* ln z = h + *l for a positive, normal, finite x = 2^k z with z in [0.70, 1.41);
 * k in *k. */
static double __clhls_log_parts_d(double x, int *k, double *l)
{
    long ix = as_long(x);
    /* A positive subnormal: its leading one moved to the exponent field (x 2^up). */
    int up = ix > 0 && ix < 0x0010000000000000L ? (int)clz(ix) - 11 : 0;
    ix <<= up;
    long tmp = ix - 0x3fe6a09e00000000L;
    *k = (int)(tmp >> 52) - up;
    double z = as_double(ix - (tmp & (long)0xfff0000000000000UL));
    double f = z - 1.0;
    /* s = f/(2 + f) = sh + sl */
    double dh = 2.0 + f;
    double dl = (2.0 - dh) + f;
    double sh = f / dh;
    double sl = (fma(-sh, dh, f) - sh * dl) / dh;
    /* R = Lg1 s^2 + s^4 (Lg2 + ...): ln z = 2s + s R, the first term of R exact */
    double zh = sh * sh;
    double zl = fma(sh, sh, -zh) + 2.0 * sh * sl;
    double w = zh * zh;
    double rest = w * (3.999999999940941908e-01 +
                       zh * (2.857142874366239149e-01 +
                             zh * (2.222219843214978396e-01 +
                                   zh * (1.818357216161805012e-01 +
                                         zh * (1.531383769920937332e-01 +
                                               zh * 1.479819860511658591e-01)))));
    double lg1 = 6.666666666666735130e-01;
    double uh = lg1 * zh;
    double ul = fma(lg1, zh, -uh) + lg1 * zl + rest;
    /* s R = sh uh + (sh ul + sl uh) */
    double th = sh * uh;
    double tl = fma(sh, uh, -th) + (sh * ul + sl * uh);
    /* 2 sh + (2 sl + th + tl) */
    double a = 2.0 * sh;
    double b = 2.0 * sl + th + tl;
    double h = a + b;
    *l = b - (h - a);
    return h;
}

/* The results of special arguments, r for the others. */
static double __clhls_log_special_d(double x, double r)
{
    return x != x || x < 0.0 ? NAN : x == 0.0 ? -INFINITY : x == INFINITY ? x : r;
}

/* k c + (h + l) c for the double-double c = ch + cl. */
static double __clhls_log_scale(int k, double h, double l, double kh, double kl,
                                double ch, double cl, double *lo)
{
    double ph = h * ch;
    double pl = fma(h, ch, -ph) + (h * cl + l * ch);
    double qh = (double)k * kh;
    double ql = fma((double)k, kh, -qh) + (double)k * kl;
    double s = qh + ph;
    double e = (qh - s) + ph;
    e = fabs(qh) > fabs(ph) ? e : (ph - s) + qh;
    e += pl + ql;
    double r = s + e;
    *lo = e - (r - s);
    return r;
}

/* ln x, log2 x or log10 x as a double-double. */
#define LOG_D(name, KH, KL, CH, CL)                                                    \
    static double __clhls_##name##_dd(double x, double *lo)                            \
    {                                                                                  \
        int k;                                                                         \
        double l;                                                                      \
        double h = __clhls_log_parts_d(x, &k, &l);                                     \
        return __clhls_log_scale(k, h, l, KH, KL, CH, CL, lo);                         \
    }                                                                                  \
    double OVERLOAD name(double x)                                                     \
    {                                                                                  \
        double lo;                                                                     \
        return __clhls_log_special_d(x, __clhls_##name##_dd(x, &lo));                  \
    }
LOG_D(log, D_LN2_HI, D_LN2_LO, 1.0, 0.0)
LOG_D(log2, 1.0, 0.0, D_INVLN2_HI, D_INVLN2_LO)
LOG_D(log10, D_LOG10_2_HI, D_LOG10_2_LO, D_INVLN10_HI, D_INVLN10_LO)

/* ln(1 + x) = ln(u) + c/u with u + c = 1 + x exactly. */
double OVERLOAD log1p(double x)
{
    double u = 1.0 + x;
    double c = fabs(x) <= 1.0 ? (1.0 - u) + x : (x - u) + 1.0;
    double lo;
    double r = __clhls_log_dd(u, &lo) + c / u;
    return x == -1.0 ? -INFINITY : x < -1.0 || x != x ? NAN : x == INFINITY ? x
           : fabs(x) < 0x1p-60 ? x : r;
}

/* ---------------------------------------------------------- powers, roots */

/* ax^(yh + yl) for ax >= 0 (or NaN), as 2^(y log2 ax) in double-double. */
static double __clhls_pow_core_d(double ax, double yh, double yl)
{
    double lo;
    double lh = __clhls_log2_dd(ax, &lo);
    long ia = as_long(ax);
    int special = ia == 0 || ia >= 0x7ff0000000000000L;
    lh = ia == 0 ? -INFINITY : ia >= 0x7ff0000000000000L ? ax : lh;
    lo = special ? 0.0 : lo;
    double th = yh * lh;
    double tl = fma(yh, lh, -th) + fma(yh, lo, yl * lh);
    return __clhls_exp2_dd_d(th, tl); /* tl is ignored when th is infinite */
}

/* 0: y is not an integer; 1: an even integer (or infinite, or NaN); 2: odd. */
static int __clhls_integer_kind_d(double y)
{
    ulong u = as_ulong(y) & 0x7fffffffffffffffUL;
    int e = (int)(u >> 52) - 1023;
    ulong m = (u & 0xfffffffffffffUL) | 0x10000000000000UL;
    int whole = u == 0 || e >= 52 || (e >= 0 && (u & (0xfffffffffffffUL >> e)) == 0);
    int odd = e >= 0 && e <= 52 && ((m >> (52 - e)) & 1UL);
    return !whole ? 0 : odd ? 2 : 1;
}

double OVERLOAD pow(double x, double y)
{
    int kind = __clhls_integer_kind_d(y);
    double r = __clhls_pow_core_d(fabs(x), y, 0.0);
    r = kind == 2 && as_long(x) < 0 ? -r : r;
    r = kind == 0 && x < 0.0 && x != -INFINITY ? NAN : r;
    r = y == 0.0 || x == 1.0 || (x == -1.0 && isinf(y)) ? 1.0 : r;
    return r;
}

double OVERLOAD pown(double x, int n)
{
    double r = __clhls_pow_core_d(fabs(x), (double)n, 0.0);
    r = (n & 1) && as_long(x) < 0 ? -r : r;
    return n == 0 ? 1.0 : r;
}

double OVERLOAD powr(double x, double y)
{
    double r = __clhls_pow_core_d(fabs(x), y, 0.0);
    int yzero = y == 0.0;
    int bad = x < 0.0 || (x == 0.0 && yzero) ||
              (isinf(x) && yzero) || (x == 1.0 && isinf(y)) || isnan(x) || isnan(y);
    return bad ? NAN : r;
}

/* x^(1/n) with 1/n as a double-double. */
double OVERLOAD rootn(double x, int n)
{
    double nf = (double)n;
    double yh = 1.0 / nf;
    double yl = fma(-yh, nf, 1.0) * yh;
    double r = __clhls_pow_core_d(fabs(x), yh, yl);
    r = (n & 1) && as_long(x) < 0 ? -r : r;
    return n == 0 || (x < 0.0 && !(n & 1)) ? NAN : r;
}

double OVERLOAD cbrt(double x)
{
    return __clhls_with_sign_d(__clhls_pow_core_d(fabs(x), D_THIRD_HI, D_THIRD_LO), x);
}

/* sqrt(x^2 + y^2) with both scaled by a power of two when the larger is far from 1. */
double OVERLOAD hypot(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    double big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
    int up = big < 0x1p-500, down = big > 0x1p500;
    double sc = up ? 0x1p600 : down ? 0x1p-600 : 1.0;
    double bs = big * sc, ss = small * sc;
    double r = sqrt(fma(bs, bs, ss * ss)) * (up ? 0x1p-600 : down ? 0x1p600 : 1.0);
    return isinf(x) || isinf(y) ? INFINITY : r;
}

/* ------------------------------------------------------------ trigonometry */

/* 64 zero bits, then the first 1344 bits of 2/pi. */
static __constant ulong __clhls_2_over_pi_d[22] = {
    0x0000000000000000UL, 0xa2f9836e4e441529UL, 0xfc2757d1f534ddc0UL,
    0xdb6295993c439041UL, 0xfe5163abdebbc561UL, 0xb7246e3a424dd2e0UL,
    0x06492eea09d1921cUL, 0xfe1deb1cb129a73eUL, 0xe88235f52ebb4484UL,
    0xe99c7026b45f7e41UL, 0x3991d639835339f4UL, 0x9c845f8bbdf9283bUL,
    0x1ff897ffde05980fUL, 0xef2f118b5a0a6d1fUL, 0x6d367ecf27cb09b7UL,
    0x4f463f669e5fea2dUL, 0x7527bac7ebe5f17bUL, 0x3d0739f78a5292eaUL,
    0x6bfb5fb11f8d5d08UL, 0x56033046fc7b6babUL, 0xf0cfbc209af4361dUL,
    0xa9e391615ee61b08UL,
};

/* x = q pi/2 + rh + *rl with |rh| <= pi/4 (about), for finite x (q modulo 4).
 * Payne-Hanek: x = m 2^E with a 53-bit m; bits of 2/pi above 2^-(E - 2) add
 * multiples of 4 to x 2/pi and are skipped; the next 192 bits times m give a product
 * with the binary point above its bit 190: the quadrant (bits 191, 190) and 126
 * fraction bits, to 2^-137 (what lies beyond the window). */
static double __clhls_trig_reduce_d(double x, double *rl, int *q)
{
    ulong ax = as_ulong(x) & 0x7fffffffffffffffUL;
    int e = (int)(ax >> 52) - 1075; /* x = m 2^e */
    ulong m = (ax & 0xfffffffffffffUL) | 0x10000000000000UL;
    int i0 = max(e - 1, -54) + 63; /* bit of the table where the window starts */
    int wi = i0 >> 6, sh = i0 & 63;
    ulong t0 = __clhls_2_over_pi_d[wi], t1 = __clhls_2_over_pi_d[wi + 1];
    ulong t2 = __clhls_2_over_pi_d[wi + 2], t3 = __clhls_2_over_pi_d[wi + 3];
    ulong w0 = sh ? (t0 << sh) | (t1 >> (64 - sh)) : t0;
    ulong w1 = sh ? (t1 << sh) | (t2 >> (64 - sh)) : t1;
    ulong w2 = sh ? (t2 << sh) | (t3 >> (64 - sh)) : t2;
    /* P = m (w0 w1 w2): words 0..2 of the 245-bit product */
    ulong lo2 = m * w2, hi2 = mul_hi(m, w2);
    ulong lo1 = m * w1, hi1 = mul_hi(m, w1);
    ulong lo0 = m * w0;
    ulong p0 = lo2;
    ulong p1 = hi2 + lo1;
    ulong p2 = hi1 + lo0 + (p1 < lo1 ? 1UL : 0UL);
    /* the fraction (bits 189 down) as F:G, 128 bits */
    ulong F = (p2 << 2) | (p1 >> 62), G = (p1 << 2) | (p0 >> 62);
    int qq = (int)(p2 >> 62);
    int negf = (long)F < 0; /* fraction >= 1/2: take fraction - 1, one more quadrant */
    ulong nG = negf ? -G : G;
    ulong nF = negf ? ~F + (G == 0 ? 1UL : 0UL) : F;
    qq += negf;
    int lz = (int)clz(nF);
    ulong n1 = lz == 0 ? nF : (nF << lz) | (nG >> (64 - lz));
    ulong n0 = lz < 64 ? nG << lz : 0UL;
    double h = (double)(n1 & ~0x7ffUL);
    double l = (double)(n1 & 0x7ffUL) + (double)(n0 >> 11) * 0x1p-53;
    double s = __clhls_pow2i_d(-64 - lz);
    double fh = h * s, fl = l * s;
    double gh = fh + fl;
    double gl = fl - (gh - fh);
    double rh = gh * D_PIO2_HI;
    double r2 = fma(gh, D_PIO2_HI, -rh) + (gh * D_PIO2_LO + gl * D_PIO2_HI);
    double yh = rh + r2;
    double yl = r2 - (yh - rh);
    yh = negf ? -yh : yh;
    yl = negf ? -yl : yl;
    int small = ax < 0x3fe921fb54442d18UL; /* |x| < pi/4: no reduction */
    int neg = as_long(x) < 0;
    *rl = small ? 0.0 : neg ? -yl : yl;
    *q = small ? 0 : neg ? -qq : qq;
    return small ? x : neg ? -yh : yh;
}

/* sin(x + y) for |x| <= pi/4, y a tail below an ulp of x (fdlibm __kernel_sin). */
static double __clhls_sin_kernel_d(double x, double y)
{
    double z = x * x;
    double v = z * x;
    double r = 8.33333333332248946124e-03 +
               z * (-1.98412698298579493134e-04 +
                    z * (2.75573137070700676789e-06 +
                         z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)));
    return x - ((z * (0.5 * y - v * r) - y) - v * -1.66666666666666324348e-01);
}

/* cos(x + y) likewise (fdlibm __kernel_cos). */
static double __clhls_cos_kernel_d(double x, double y)
{
    double z = x * x;
    double r = z * (4.16666666666666019037e-02 +
                    z * (-1.38888888888741095749e-03 +
                         z * (2.48015872894767294178e-05 +
                              z * (-2.75573143513906633035e-07 +
                                   z * (2.08757232129817482790e-09 +
                                        z * -1.13596475577881948265e-11)))));
    double hz = 0.5 * z;
    double w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + (z * r - x * y));
}

/* sin x, and cos x in *c. */
static double __clhls_sincos_d(double x, double *c)
{
    double rl;
    int q;
    double rh = __clhls_trig_reduce_d(x, &rl, &q);
    double s = __clhls_sin_kernel_d(rh, rl), co = __clhls_cos_kernel_d(rh, rl);
    double sr = q & 1 ? co : s, cr = q & 1 ? s : co;
    sr = q & 2 ? -sr : sr;
    cr = (q + 1) & 2 ? -cr : cr;
    int bad = isinf(x) || isnan(x);
    *c = bad ? NAN : cr;
    return bad ? NAN : x == 0.0 ? x : sr;
}

double OVERLOAD sin(double x)
{
    double c;
    return __clhls_sincos_d(x, &c);
}

double OVERLOAD cos(double x)
{
    double c;
    __clhls_sincos_d(x, &c);
    return c;
}

double OVERLOAD tan(double x)
{
    double rl;
    int q;
    double rh = __clhls_trig_reduce_d(x, &rl, &q);
    double s = __clhls_sin_kernel_d(rh, rl), co = __clhls_cos_kernel_d(rh, rl);
    double r = q & 1 ? -co / s : s / co;
    return isinf(x) || isnan(x) ? NAN : x == 0.0 ? x : r;
}

/* sinpi, cospi, tanpi: x = n/2 + f exactly with |f| <= 1/4, then the kernels on
 * pi f as a double-double (as math.cl's float versions). */
static double __clhls_pi_reduce_d(double x, double *rl, int *q, int *zero)
{
    double ax = fabs(x);
    /* from 2^53 on x is an even integer: t = 0 will do (infinity and NaN stay) */
    double t = ax >= 0x1p53 && ax < INFINITY ? 0.0 : ax * 2.0;
    double k = rint(t); /* t < 2^54: k's low bits are exact in a ulong */
    double f = (t - k) * 0.5;
    int qq = (int)((ulong)k & 3);
    double rh = f * D_PI_HI;
    double l = fma(f, D_PI_HI, -rh) + f * D_PI_LO;
    int neg = as_long(x) < 0;
    *rl = neg ? -l : l;
    *q = neg ? -qq : qq;
    *zero = f == 0.0;
    return neg ? -rh : rh;
}

double OVERLOAD sinpi(double x)
{
    double rl;
    int q, zero;
    double rh = __clhls_pi_reduce_d(x, &rl, &q, &zero);
    double r = (q & 1) ? __clhls_cos_kernel_d(rh, rl) : __clhls_sin_kernel_d(rh, rl);
    r = (q & 2) ? -r : r;
    return zero && !(q & 1) ? x * 0.0 : r; /* a zero with x's sign */
}

double OVERLOAD cospi(double x)
{
    double rl;
    int q, zero;
    double rh = __clhls_pi_reduce_d(x, &rl, &q, &zero);
    double r = (q & 1) ? __clhls_sin_kernel_d(rh, rl) : __clhls_cos_kernel_d(rh, rl);
    r = ((q + 1) & 2) ? -r : r;
    return zero && (q & 1) ? 0.0 : r;
}

double OVERLOAD tanpi(double x)
{
    double rl;
    int q, zero;
    double rh = __clhls_pi_reduce_d(x, &rl, &q, &zero);
    double s = __clhls_sin_kernel_d(rh, rl), c = __clhls_cos_kernel_d(rh, rl);
    double r = ((q & 1) ? -c : s) / ((q & 1) ? s : c);
    /* x an integer n: zero with the sign of n (n even) or of -n; n + 1/2: +-inf */
    double z = (q & 1) ? ((q & 3) == 1 ? INFINITY : -INFINITY)
                       : ((q & 3) == 0 ? x : -x) * 0.0;
    return zero ? z : r;
}

/* ----------------------------------------------------- inverse trigonometry */

/* atan(t) = h + *l for 0 <= t <= 1 (the method of fdlibm's atan): below 7/16 the
 * polynomial alone, else t' = (2t - 1)/(2 + t) around atan(1/2) or (t - 1)/(t + 1)
 * around atan(1) (numerators exact, one division), and the odd minimax polynomial
 * of fdlibm on |t'| <= 7/16. */
static double __clhls_atan01_d(double t, double *l)
{
    int id = t < 0.4375 ? 0 : t < 0.6875 ? 1 : 2;
    double num = id == 0 ? t : id == 1 ? 2.0 * t - 1.0 : t - 1.0;
    double den = id == 0 ? 1.0 : id == 1 ? 2.0 + t : t + 1.0;
    double x = num / den;
    double bh = id == 0 ? 0.0 : id == 1 ? 0x1.dac670561bb4fp-2 : 0x1.921fb54442d18p-1;
    double bl = id == 0 ? 0.0 : id == 1 ? 0x1.a2b7f222f65e2p-56 : 0x1.1a62633145c07p-55;
    double z = x * x;
    double w = z * z;
    double s1 = z * (3.33333333333329318027e-01 +
                     w * (1.42857142725034663711e-01 +
                          w * (9.09088713343650656196e-02 +
                               w * (6.66107313738753120669e-02 +
                                    w * (4.97687799461593236017e-02 +
                                         w * 1.62858201153657823623e-02)))));
    double s2 = w * (-1.99999999998764832476e-01 +
                     w * (-1.11111104054623557880e-01 +
                          w * (-7.69187620504482999495e-02 +
                               w * (-5.83357013379057348645e-02 +
                                    w * -3.65315727442169155270e-02))));
    double tail = x * (s1 + s2);
    double h = bh + x;
    *l = ((bh - h) + x) + (bl - tail);
    return h;
}

/* (h + l)/pi with the constant as a double-double. */
static double __clhls_div_pi_d(double h, double l)
{
    return fma(h, D_INVPI_HI, fma(h, D_INVPI_LO, l * D_INVPI_HI));
}

double OVERLOAD atan(double x)
{
    double a = fabs(x);
    int inv = a > 1.0;
    double t = inv ? 1.0 / a : a;
    double l;
    double h = __clhls_atan01_d(t, &l);
    double r = inv ? (D_PIO2_HI - h) + (D_PIO2_LO - l) : h + l;
    return __clhls_with_sign_d(r, x);
}

double OVERLOAD atanpi(double x)
{
    double a = fabs(x);
    int inv = a > 1.0;
    double t = inv ? 1.0 / a : a;
    double l;
    double h = __clhls_atan01_d(t, &l);
    double u = __clhls_div_pi_d(h, l);
    return __clhls_with_sign_d(inv ? 0.5 - u : u, x);
}

/* atan2 as base + s atan(t), t = min(|x|, |y|)/max(|x|, |y|), as math.cl's. */
static double __clhls_atan2_d(double y, double x, int in_pi)
{
    double ax = fabs(x), ay = fabs(y);
    int swap = ay > ax, xneg = as_long(x) < 0;
    double t = (swap ? ax : ay) / (swap ? ay : ax);
    double l;
    double h = __clhls_atan01_d(t, &l);
    int minus = swap != xneg;
    double r;
    if (in_pi) {
        double u = __clhls_div_pi_d(h, l);
        r = (swap ? 0.5 : xneg ? 1.0 : 0.0) + (minus ? -u : u);
        r = ax == 0.0 && ay == 0.0 ? (xneg ? 1.0 : 0.0) : r;
        r = isinf(x) && isinf(y) ? (xneg ? 0.75 : 0.25) : r;
    } else {
        double bh = swap ? D_PIO2_HI : xneg ? D_PI_HI : 0.0;
        double bl = swap ? D_PIO2_LO : xneg ? D_PI_LO : 0.0;
        r = (bh + (minus ? -h : h)) + (bl + (minus ? -l : l));
        r = ax == 0.0 && ay == 0.0 ? (xneg ? D_PI_HI : 0.0) : r;
        r = isinf(x) && isinf(y) ? (xneg ? D_3PIO4 : D_PIO4) : r;
    }
    return __clhls_with_sign_d(r, y);
}

double OVERLOAD atan2(double y, double x) { return __clhls_atan2_d(y, x, 0); }
double OVERLOAD atan2pi(double y, double x) { return __clhls_atan2_d(y, x, 1); }

/* asin x = atan2(x, sqrt(1 - x^2)), acos x = atan2(sqrt(1 - x^2), x), 1 - x^2 rounded
 * once (an fma); |x| > 1 makes the root, and so the result, a NaN. */
static double __clhls_cos_of_asin(double x) { return sqrt(fma(-x, x, 1.0)); }
double OVERLOAD asin(double x) { return __clhls_atan2_d(x, __clhls_cos_of_asin(x), 0); }
double OVERLOAD acos(double x) { return __clhls_atan2_d(__clhls_cos_of_asin(x), x, 0); }
double OVERLOAD asinpi(double x) { return __clhls_atan2_d(x, __clhls_cos_of_asin(x), 1); }
double OVERLOAD acospi(double x) { return __clhls_atan2_d(__clhls_cos_of_asin(x), x, 1); }

/* ---------------------------------------------------------------- hyperbolic */

/* e^|x|/2, exact scaling of e^|x|'s pieces. */
static double __clhls_half_exp_d(double a)
{
    double tl;
    double th = __clhls_x_log2e(a, &tl);
    int k;
    double eml;
    double em = __clhls_exp2_parts_d(th, tl, &k, &eml);
    return __clhls_scale_d(1.0 + (em + eml), k - 1);
}

/* (E + E/(E + 1))/2 with E = expm1(|x|); e^|x|/2 from 22 on. */
double OVERLOAD sinh(double x)
{
    double a = fabs(x);
    double e = expm1(a > 22.0 ? 22.0 : a);
    double r = a > 22.0 ? __clhls_half_exp_d(a) : 0.5 * (e + e / (e + 1.0));
    return __clhls_with_sign_d(r, x);
}

/* h + 1/(4h) with h = e^|x|/2. */
double OVERLOAD cosh(double x)
{
    double h = __clhls_half_exp_d(fabs(x));
    return h + 0.25 / h;
}

/* E/(E + 2) with E = expm1(2|x|); 1 from 22 on. */
double OVERLOAD tanh(double x)
{
    double a = fabs(x);
    double e = expm1(2.0 * (a > 22.0 ? 22.0 : a));
    return __clhls_with_sign_d(a > 22.0 ? 1.0 : e / (e + 2.0), x);
}

/* ln(a) + ln2 from 2^28 on, where 1 + a^2 is a^2. */
static double __clhls_log_2a_d(double a)
{
    double lo;
    double h = __clhls_log_dd(a, &lo);
    return h + (lo + D_LN2_HI) + D_LN2_LO;
}

/* log1p(a + a^2/(1 + sqrt(1 + a^2))). */
double OVERLOAD asinh(double x)
{
    double a = fabs(x);
    int big = a >= 0x1p28;
    double s = big ? 1.0 : a;
    double a2 = s * s;
    double r = log1p(s + a2 / (1.0 + sqrt(1.0 + a2)));
    r = big ? __clhls_log_2a_d(a) : r;
    return isinf(x) || isnan(x) ? x : __clhls_with_sign_d(r, x);
}

/* log1p(t + sqrt(t (t + 2))) with t = x - 1. */
double OVERLOAD acosh(double x)
{
    int big = x >= 0x1p28;
    double t = big ? 1.0 : x - 1.0;
    double r = log1p(t + sqrt(fma(t, t, 2.0 * t)));
    r = big ? __clhls_log_2a_d(x) : r;
    return x < 1.0 || isnan(x) ? NAN : x == INFINITY ? x : r;
}

/* log1p(2a/(1 - a))/2. */
double OVERLOAD atanh(double x)
{
    double a = fabs(x);
    return __clhls_with_sign_d(0.5 * log1p(2.0 * a / (1.0 - a)), x);
}

/* ---------------------------------------------------------- erf and erfc */

/* erfc(a) e^(a^2) on [0.5, 27.5) by intervals (edges 0.5, 1, 1.5, 2, 2.75, 3.5, 4.5, 6,
 * 8, 11, 15, 20, 27.5): a polynomial of degree 19 in a - c (c the interval's middle,
 * coefficients from the highest), fitted by Chebyshev interpolation in 120-bit
 * arithmetic, relative error below 2^-52 with the coefficients rounded to double. */
static __constant double __clhls_erfc_mid[12] = {0x1.8000000000000p-1, 0x1.4000000000000p+0, 0x1.c000000000000p+0, 0x1.3000000000000p+1, 0x1.9000000000000p+1, 0x1.0000000000000p+2, 0x1.5000000000000p+2, 0x1.c000000000000p+2, 0x1.3000000000000p+3, 0x1.a000000000000p+3, 0x1.1800000000000p+4, 0x1.7c00000000000p+4};
static __constant double __clhls_erfc_tab[12][20] = {
    {
        -0x1.764be36396408p-27, 0x1.4a345522cc331p-25, -0x1.1564bb26fb44bp-23,
        0x1.d25cba54530f3p-22, -0x1.7e46ca40c6295p-20, 0x1.30ece650e1fc7p-18,
        -0x1.d8bafb6fed19cp-17, 0x1.63723522c8c25p-15, -0x1.02b16040447cap-13,
        0x1.6b982c1d7d342p-12, -0x1.ec0cf4e3342e0p-11, 0x1.3f81897ce849ep-9,
        -0x1.8c97dd4ea4906p-8, 0x1.d43a7c7a661b4p-7, -0x1.054d68295b244p-5,
        0x1.1192f5bd6877dp-4, -0x1.09e77d40e0239p-3, 0x1.d90093ae10928p-3,
        -0x1.78cdd551ee51ap-2, 0x1.038d54ea3d834p-1,
    },
    {
        -0x1.9d6f84b14de9bp-31, 0x1.8ae600f98ccb9p-29, -0x1.6954c8f3870f6p-27,
        0x1.4a605a42f7eb7p-25, -0x1.274216c98ed95p-23, 0x1.017da62ed9373p-21,
        -0x1.b5bc5cb2352aap-20, 0x1.6a18bc38a2000p-18, -0x1.22fc408f5d3fbp-16,
        0x1.c570359a33b7bp-15, -0x1.55c07d22af301p-13, 0x1.f0fe6fb5fd980p-12,
        -0x1.5b8bc94c61d2dp-10, 0x1.d1b695aabbf6cp-9, -0x1.299636d6c5895p-7,
        0x1.68a25a6641f25p-6, -0x1.9b635ac624ad5p-5, 0x1.b56f45eef7e58p-4,
        -0x1.abaacdbfa8b07p-3, 0x1.78a692138767ap-2,
    },
    {
        -0x1.1689cfd29faefp-34, 0x1.1fabba7815933p-32, -0x1.1e19cb4fe726ep-30,
        0x1.1c11ce3347e50p-28, -0x1.144fc435bb674p-26, 0x1.06f14e0d10099p-24,
        -0x1.e91dd5952922cp-23, 0x1.bc102667ebcf2p-21, -0x1.88fb2fa11846dp-19,
        0x1.5273f3445a781p-17, -0x1.1b2912cd41c8cp-15, 0x1.cb4c687e4d0adp-14,
        -0x1.6838884ab6b8bp-12, 0x1.106bd5c04334ap-10, -0x1.8bf716a8eabedp-9,
        0x1.13648a11ffe73p-7, -0x1.6cb52fe48945fp-6, 0x1.c8d0cef0f810dp-5,
        -0x1.0c3d538446447p-3, 0x1.23cfc2f1dc7e0p-2,
    },
    {
        -0x1.08dda50f09c16p-38, 0x1.2d0d721e626eap-36, -0x1.44e9f756c2bafp-34,
        0x1.6492e0bb312c8p-32, -0x1.8085ff0c91eccp-30, 0x1.96b128e6882f2p-28,
        -0x1.a5b78101b9cf0p-26, 0x1.ac523e8b42526p-24, -0x1.a9a3624b5a325p-22,
        0x1.9d57da1da72d6p-20, -0x1.87bc534acf060p-18, 0x1.69c3459d6fe96p-16,
        -0x1.44f8e8c28511cp-14, 0x1.1b649b9adb1b6p-12, -0x1.deb45e9cfe680p-11,
        0x1.8680d2874937fp-9, -0x1.32a8abc8db398p-7, 0x1.cdc880a056a24p-6,
        -0x1.4baeac94dc8b2p-4, 0x1.c3987d04d0b98p-3,
    },
    {
        -0x1.832ad90d11b27p-43, 0x1.eb1e8abf52995p-41, -0x1.2a985aefa963ap-38,
        0x1.6facbd30b9e7cp-36, -0x1.be0585508972cp-34, 0x1.0a2d442aec224p-31,
        -0x1.387c78b64b318p-29, 0x1.6894f9c6fda88p-27, -0x1.98a6f476bdc3bp-25,
        0x1.c67a4cc08bbfap-23, -0x1.ef88effef91bbp-21, 0x1.089499bda4c4cp-18,
        -0x1.146359dc03d58p-16, 0x1.1a12c4a34c350p-14, -0x1.18d46547b4601p-12,
        0x1.104973fea3350p-10, -0x1.009a927223b07p-8, 0x1.d503e1d20090ep-7,
        -0x1.9e8803e177224p-5, 0x1.612a8125451bdp-3,
    },
    {
        -0x1.fad9afbf953afp-48, 0x1.6b1bab83f342ap-45, -0x1.ee5dbabda2affp-43,
        0x1.5973b2dab4245p-40, -0x1.dd13c343613f0p-38, 0x1.44f55dfb0850fp-35,
        -0x1.b4c54b52e9a47p-33, 0x1.2178343fc2f69p-30, -0x1.7a304884d18a4p-28,
        0x1.e6bd5c65c349dp-26, -0x1.345efaa8e28ccp-23, 0x1.806c91189385ep-21,
        -0x1.d72747981417dp-19, 0x1.1ba135ef1c939p-16, -0x1.4f2981c3bec5fp-14,
        0x1.8457bbe094219p-12, -0x1.b8b6382729f08p-10, 0x1.e9412fa33c74bp-8,
        -0x1.094922737431ap-5, 0x1.18932bf08e154p-3,
    },
    {
        -0x1.342813a7ad4dap-53, 0x1.034954a90f563p-50, -0x1.954cf894e1f21p-48,
        0x1.4e6414c630f3ap-45, -0x1.11c1c81657084p-42, 0x1.bb0db222c2186p-40,
        -0x1.62e7e6d0335b7p-37, 0x1.195d563234e6fp-34, -0x1.b961a3d755772p-32,
        0x1.566994a201232p-29, -0x1.06a3ad9741f91p-26, 0x1.8e37530e45936p-24,
        -0x1.2a4352eaabd4dp-21, 0x1.b93f4735cbbc6p-19, -0x1.4230e3ccf878fp-16,
        0x1.d03e19aa11379p-14, -0x1.49d492a39eb5fp-11, 0x1.cdeae21161624p-9,
        -0x1.3e981b3b13590p-6, 0x1.b096face146fep-4,
    },
    {
        -0x1.759af82588366p-60, 0x1.7fc8351a5d67ep-57, -0x1.6a81cf5385edap-54,
        0x1.6f2a5b1b0ee06p-51, -0x1.725b1d1bc1841p-48, 0x1.7213359bc9abbp-45,
        -0x1.6f3320374431fp-42, 0x1.69c659cd30c66p-39, -0x1.61d8cc0e63491p-36,
        0x1.57884c26839c5p-33, -0x1.4affe415c8e72p-30, 0x1.3c768d84566b7p-27,
        -0x1.2c2db9dd6a0c3p-24, 0x1.1a6f6b7a03ad5p-21, -0x1.078bfe34def6dp-18,
        0x1.e7af6eeff686dp-16, -0x1.bf5070ee19215p-13, 0x1.96a3de47d5b16p-10,
        -0x1.6e4b45246f91fp-7, 0x1.46dc6bf900f68p-4,
    },
    {
        -0x1.ce3ec3b716a7ep-68, 0x1.2e3d962727226p-64, -0x1.60f690e532c19p-61,
        0x1.c940e6f513709p-58, -0x1.286c49cf02758p-54, 0x1.7cb9f6c4e0550p-51,
        -0x1.e6c9e531e36f5p-48, 0x1.35d95ed867f5fp-44, -0x1.88aa92caa741dp-41,
        0x1.ef56f2e784193p-38, -0x1.36faf4270ae28p-34, 0x1.84a367654fabap-31,
        -0x1.e35faff3f5488p-28, 0x1.2b25ebb409ff8p-24, -0x1.7074a5b576f56p-21,
        0x1.c3904bd3edb55p-18, -0x1.134ff4426076ap-14, 0x1.4dfd333e2243cp-11,
        -0x1.93108c9356f34p-8, 0x1.e3db9bbbefc9ep-5,
    },
    {
        -0x1.6386d19932902p-76, 0x1.312d00416647dp-72, -0x1.d30b16ee0c4a9p-69,
        0x1.8ea3586c3b314p-65, -0x1.5539b92e9ef9fp-61, 0x1.21c5502143274p-57,
        -0x1.eacdef33e614ap-54, 0x1.9e9f8e4d238c5p-50, -0x1.5d580e8167194p-46,
        0x1.258f4a79d65a4p-42, -0x1.ec0ba0fc69bb9p-39, 0x1.9b410bb1dfb63p-35,
        -0x1.56cb0dd5a9d8fp-31, 0x1.1cf1ff6c64e58p-27, -0x1.d868cc70fabd5p-24,
        0x1.8682d21856141p-20, -0x1.41e750b2e0636p-16, 0x1.0898f73586fcfp-12,
        -0x1.b1be47a913fc3p-9, 0x1.627bcc27cb4aep-5,
    },
    {
        -0x1.303b1be224f7bp-84, 0x1.575e2e1ff9f9ap-80, -0x1.5dd36ea7768e3p-76,
        0x1.89872ae641d01p-72, -0x1.bbf389e5d88d2p-68, 0x1.f1ec58d052ffcp-64,
        -0x1.16c70d52232e5p-59, 0x1.37b84592aba65p-55, -0x1.5c05b904aed6dp-51,
        0x1.83f494a6d035fp-47, -0x1.afcda1bad64b7p-43, 0x1.dfdcafca1b347p-39,
        -0x1.0a383eceb25e2p-34, 0x1.26ed3e11a84f1p-30, -0x1.463740bf2342ap-26,
        0x1.6841368b43891p-22, -0x1.8d36ddca2fb63p-18, 0x1.b54485023ab65p-14,
        -0x1.e096c3c71f7f0p-10, 0x1.07ad15536656dp-5,
    },
    {
        -0x1.9c898d6ae6504p-93, 0x1.3793233593a00p-88, -0x1.9d97ea4fec754p-84,
        0x1.37c64241d6138p-79, -0x1.d8f399c449c8ap-75, 0x1.63ecbcee5adfcp-70,
        -0x1.0b92e2274c7e6p-65, 0x1.920b84542dc53p-61, -0x1.2dca6d78f7de9p-56,
        0x1.c4ae9e1e4b2e7p-52, -0x1.53378535de73dp-47, 0x1.fbf21e4480f66p-43,
        -0x1.7bf8ef641b1b1p-38, 0x1.1bfeb3ca92b17p-33, -0x1.a82706839f453p-29,
        0x1.3c76f4e3600fbp-24, -0x1.d7d2c449a71f5p-20, 0x1.5f6ae4a38d695p-15,
        -0x1.058244bafe92dp-10, 0x1.84dd1377e3a8ap-6,
    },
};

/* erfc(a) for 0.5 <= a (0 from 27.5 on, below DBL_MIN): the polynomial times
 * e^(-a^2), a^2 as a double-double. */
static double __clhls_erfc_big_d(double a)
{
    int i = (a >= 1.0) + (a >= 1.5) + (a >= 2.0) + (a >= 2.75) + (a >= 3.5) + (a >= 4.5) +
            (a >= 6.0) + (a >= 8.0) + (a >= 11.0) + (a >= 15.0) + (a >= 20.0);
    double u = a - __clhls_erfc_mid[i];
    double p = __clhls_erfc_tab[i][0];
    for (int j = 1; j < 20; j++)
        p = fma(p, u, __clhls_erfc_tab[i][j]);
    double sh = a * a;
    double sl = fma(a, a, -sh);
    double th = -sh * D_INVLN2_HI;
    double tl = fma(-sh, D_INVLN2_HI, -th) - (sh * D_INVLN2_LO + sl * D_INVLN2_HI);
    return a >= 27.5 ? 0.0 : __clhls_exp2_dd_d(th, tl) * p;
}

/* erf(x) for |x| < 1/2: x P(x^2), P fitted as above (relative error 2^-55). */
static double __clhls_erf_small_d(double x)
{
    double z = x * x;
    double p = -0x1.2d3aacffc2004p-30;
    p = fma(p, z, 0x1.f9d3dea464774p-27);
    p = fma(p, z, -0x1.5f629a47e1656p-23);
    p = fma(p, z, 0x1.b9e644282c75dp-20);
    p = fma(p, z, -0x1.f4d2599d0a165p-17);
    p = fma(p, z, 0x1.f9a326f0e22dep-14);
    p = fma(p, z, -0x1.c02db4002d265p-11);
    p = fma(p, z, 0x1.565bcd0e6a387p-8);
    p = fma(p, z, -0x1.b82ce31288b4ep-6);
    p = fma(p, z, 0x1.ce2f21a042be2p-4);
    p = fma(p, z, -0x1.812746b0379e7p-2);
    p = fma(p, z, 0x1.20dd750429b6dp+0);
    return x * p;
}

double OVERLOAD erf(double x)
{
    double a = fabs(x);
    double big = 1.0 - __clhls_erfc_big_d(a < 0.5 ? 0.5 : a);
    return a < 0.5 || x != x ? __clhls_erf_small_d(x) : __clhls_with_sign_d(big, x);
}

double OVERLOAD erfc(double x)
{
    double a = fabs(x);
    double e = __clhls_erfc_big_d(a < 0.5 ? 0.5 : a);
    return a < 0.5 || x != x ? 1.0 - __clhls_erf_small_d(x) : x > 0.0 ? e : 2.0 - e;
}

/* ------------------------------------------------------ tgamma and lgamma */

/* For x > 0: ln Gamma(z) = h + *l (a double-double) with z = x + n >= 10 (n = 0 from
 * 10 on), by Stirling's series to z^-15 (error below 2^-60 from z = 10); the product
 * x (x + 1) ... (x + n - 1) = *ph + *pl, so that Gamma(x) = Gamma(z)/P. z and the
 * factors are exact double-doubles; ln z as in the logarithms. */
static double __clhls_lgamma_shifted(double x, double *l, double *ph, double *pl)
{
    int n = x < 10.0 ? 10 - (int)x : 0;
    double zh = x + (double)n;
    double zb = zh - x;
    double zl = (x - (zh - zb)) + ((double)n - zb);
    double p = 1.0, q = 0.0;
    for (int i = 0; i < n; i++) {
        double fh = x + (double)i;
        double fb = fh - x;
        double fl = (x - (fh - fb)) + ((double)i - fb);
        double m = p * fh;
        q = fma(p, fh, -m) + (p * fl + q * fh);
        p = m + q;
        q = q - (p - m);
    }
    *ph = p;
    *pl = q;
    double lo;
    double lh = __clhls_log_dd(zh, &lo);
    lo += zl / zh;
    /* (z - 1/2) ln z - z + ln sqrt(2 pi) + S(z) */
    double ah = zh - 0.5;
    double th = ah * lh;
    double tl = fma(ah, lh, -th) + (ah * lo + zl * lh);
    double r = 1.0 / zh, r2 = r * r;
    double sz = r * (0x1.5555555555555p-4 +
                     r2 * (-0x1.6c16c16c16c17p-9 +
                           r2 * (0x1.a01a01a01a01ap-11 +
                                 r2 * (-0x1.3813813813814p-11 +
                                       r2 * (0x1.b951e2b18ff23p-11 +
                                             r2 * (-0x1.f6ab0d9993c7dp-10 +
                                                   r2 * (0x1.a41a41a41a41ap-8 +
                                                         r2 * -0x1.e4286cb0f5398p-6)))))));
    double uh = th - zh;
    double ub = uh - th;
    double ul = (th - (uh - ub)) + (-zh - ub);
    ul += tl - zl + (sz + D_LNSQRT2PI_LO) + D_LNSQRT2PI_HI;
    double h = uh + ul;
    *l = isinf(th) ? 0.0 : ul - (h - uh);
    return isinf(th) ? th : h; /* (z - 1/2) ln z overflows first */
}

/* ln(h + l) for a positive double-double. */
static double __clhls_log_of_dd(double h, double l, double *lo)
{
    double r = __clhls_log_dd(h, lo);
    *lo += l / h;
    return r;
}

/* Gamma(x) = e^U/P for x > 0; below 0, -pi/(x sinpi(x) Gamma(-x)) = -pi P e^-U/(x sinpi(x))
 * with U and P of -x (so that no intermediate overflows before the result does). */
double OVERLOAD tgamma(double x)
{
    int neg = x < 0.0;
    double a = fabs(x);
    double l, ph, pl;
    double u = __clhls_lgamma_shifted(neg ? a : x, &l, &ph, &pl);
    double su = neg ? -u : u, sl = neg ? -l : l;
    double th = su * D_INVLN2_HI;
    double tl = fma(su, D_INVLN2_HI, -th) + (su * D_INVLN2_LO + sl * D_INVLN2_HI);
    double e = __clhls_exp2_dd_d(th, tl);
    double sp = sinpi(x);
    double pos = e / ph * (1.0 - pl / ph);
    double below = -(D_PI_HI * (ph * e) / sp) / x; /* x sinpi(x) may underflow */
    double r = neg ? below : pos;
    return (neg && sp == 0.0) || x == -INFINITY || x != x ? NAN
           : x >= 172.0                                   ? INFINITY
           : fabs(x) < 0x1p-1022                          ? 1.0 / x /* within rounding */
                                                          : r;
}

/* ln|Gamma(x)| = U - ln P for x > 0; below 0, ln pi - ln|x sinpi(x)| - ln|Gamma(-x)|;
 * the sign of Gamma in *sign (that of sinpi(x) below 0). */
static double __clhls_lgamma_d(double x, int *sign)
{
    int neg = x < 0.0;
    double a = fabs(x);
    double l, ph, pl;
    double u = __clhls_lgamma_shifted(a, &l, &ph, &pl);
    double plo;
    double lp = __clhls_log_of_dd(ph, pl, &plo);
    /* ln|Gamma(a)| = (u + l) - (lp + plo) */
    double gh = u - lp;
    double gb = gh - u;
    double gl = ((u - (gh - gb)) + (-lp - gb)) + (l - plo);
    double sp = sinpi(x);
    double slo;
    double ls = __clhls_log_dd(fabs(x * sp), &slo);
    double nh = D_LNPI_HI - ls;
    double nl = ((D_LNPI_HI - nh) - ls) + (D_LNPI_LO - slo) - gl;
    double r = neg ? nh + (nl - gh) : gh + gl;
    double tlo;
    double tiny = -__clhls_log_dd(a, &tlo); /* -ln|x| - gamma x: x is below 2^-60 */
    r = a < 0x1p-60 ? tiny : isinf(u) && !neg ? u : r;
    *sign = neg ? (sp < 0.0 ? -1 : 1) : as_long(x) < 0 ? -1 : 1;
    return x != x ? x : isinf(x) || x == 0.0 || (neg && sp == 0.0) ? INFINITY : r;
}

double OVERLOAD lgamma(double x)
{
    int s;
    return __clhls_lgamma_d(x, &s);
}

/* -------------------------------------------------------------- remainders */

/* |x| - n|y| for finite x and normal y, exact, as math.cl's __clhls_rem_core: n =
 * floor(|x|/|y|), or with nearest the integer nearest |x|/|y| (ties to even); in *quo
 * n's low 7 bits. In units of 2^(ey - 53) (ey unbiased): |y| is 2my, |x| is
 * mx 2^(ex - ey + 1); the loop shifts in at most 10 bits per step (the remainder stays
 * below 2^54), keeping the quotient's low bits. */
static double __clhls_rem_core_d(double x, double y, int nearest, int *quo)
{
    ulong ux = as_ulong(x) & 0x7fffffffffffffffUL, uy = as_ulong(y) & 0x7fffffffffffffffUL;
    /* A subnormal: exponent 1 and no hidden bit (the first step may then take more
     * than s quotient bits; n only needs its low bits). */
    int ex = max((int)(ux >> 52), 1), ey = max((int)(uy >> 52), 1);
    ulong my = (uy & 0xfffffffffffffUL) | (uy >> 52 != 0 ? 0x10000000000000UL : 0);
    ulong mod = my << 1;
    ulong r = (ux & 0xfffffffffffffUL) | (ux >> 52 != 0 ? 0x10000000000000UL : 0);
    uint n = 0;
    for (int left = ex - ey + 1; left > 0;) {
        int s = min(left, 10);
        ulong v = r << s;
        n = (n << s) + (uint)(v / mod);
        r = v % mod;
        left -= s;
    }
    int up = nearest && (2 * r > mod || (2 * r == mod && (n & 1)));
    double v = __clhls_scale_d(up ? -(double)(mod - r) : (double)r, ey - 1076);
    /* |x| < |y| by the exponents */
    double ax = fabs(x), ay = fabs(y);
    int up_below = nearest && ax > ay - ax;
    int below = ex < ey;
    *quo = below ? up_below : (int)((n + (uint)up) & 0x7fu);
    return below ? (up_below ? ax - ay : ax) : v;
}

/* NaN for an infinite or NaN x, a NaN or zero y; x for an infinite y or a zero x. */
static double __clhls_rem_special_d(double x, double y, double r)
{
    ulong ax = as_ulong(x) & 0x7fffffffffffffffUL, ay = as_ulong(y) & 0x7fffffffffffffffUL;
    return ax >= 0x7ff0000000000000UL || ay > 0x7ff0000000000000UL || ay == 0 ? NAN
           : ay == 0x7ff0000000000000UL || ax == 0                             ? x
                                                                               : r;
}

double OVERLOAD fmod(double x, double y)
{
    int n;
    double v = __clhls_rem_core_d(x, y, 0, &n);
    return __clhls_rem_special_d(x, y, __clhls_with_sign_d(v, x));
}

/* x - n y with n the integer nearest x/y, and n's low 7 bits with the sign of x/y. */
static double __clhls_remquo_d(double x, double y, int *quo)
{
    int n;
    double v = __clhls_rem_core_d(x, y, 1, &n);
    int negq = (as_long(x) ^ as_long(y)) < 0;
    *quo = isnan(x) || isnan(y) || isinf(x) || y == 0.0 || isinf(y) ? 0
           : negq ? -n : n;
    return __clhls_rem_special_d(x, y, as_long(x) < 0 ? -v : v);
}

double OVERLOAD remainder(double x, double y)
{
    int n;
    return __clhls_remquo_d(x, y, &n);
}

/* ---------------------------------------------------------- decomposition */

static double __clhls_frexp_d(double x, int *e)
{
    ulong ux = as_ulong(x), ax = ux & 0x7fffffffffffffffUL;
    int finite = ax != 0 && ax < 0x7ff0000000000000UL;
    int ex = __clhls_exponent_d(ax);
    *e = finite ? ex + 1 : 0;
    /* The fraction with its leading one at bit 52 (a subnormal's shifted up). */
    ulong frac = ax < 0x0010000000000000UL ? ax << (clz(ax) - 11) : ax;
    double m = as_double((ux & 0x8000000000000000UL) | 0x3fe0000000000000UL |
                         (frac & 0x000fffffffffffffUL));
    return finite ? m : x;
}

double OVERLOAD ldexp(double x, int n) { return __clhls_scale_d(x, n); }

static double __clhls_modf_d(double x, double *ip)
{
    double t = trunc(x);
    *ip = t;
    return __clhls_with_sign_d(isinf(x) ? 0.0 : fabs(x - t), x);
}

static double __clhls_fract_d(double x, double *ip)
{
    double f = floor(x);
    *ip = f;
    double r = fmin(x - f, 0x1.fffffffffffffp-1);
    return isinf(x) ? __clhls_with_sign_d(0.0, x) : x == 0.0 || isnan(x) ? x : r;
}

/* The neighbour of x toward y by integer steps on the bits (denormals included):
 * doubles ordered as sign-magnitude integers. */
double OVERLOAD nextafter(double x, double y)
{
    long ix = as_long(x), iy = as_long(y);
    long kx = ix >= 0 ? ix : (long)(0x8000000000000000UL - (ulong)ix);
    long ky = iy >= 0 ? iy : (long)(0x8000000000000000UL - (ulong)iy);
    long kr = kx + (ky > kx ? 1 : -1);
    long bits = kr == 0  ? (ix & (long)0x8000000000000000UL)
                : kr > 0 ? kr
                         : (long)(0x8000000000000000UL - (ulong)kr);
    return isnan(x) || isnan(y) ? NAN : kx == ky ? y : as_double(bits);
}

/* The code in the significand (a select keeps the bitcast from ending the function). */
double OVERLOAD nan(ulong code)
{
    code &= 0x7ffffffffffffUL;
    return code ? as_double(0x7ff8000000000000UL | code) : NAN;
}

double OVERLOAD maxmag(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    return ax > ay ? x : ay > ax ? y : fmax(x, y);
}

double OVERLOAD minmag(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    return ax < ay ? x : ay < ax ? y : fmin(x, y);
}

double OVERLOAD logb(double x)
{
    ulong ax = as_ulong(x) & 0x7fffffffffffffffUL;
    return ax >= 0x7ff0000000000000UL ? fabs(x)
           : ax == 0                    ? -INFINITY
                                        : (double)__clhls_exponent_d(ax);
}

int OVERLOAD ilogb(double x)
{
    ulong ax = as_ulong(x) & 0x7fffffffffffffffUL;
    return ax > 0x7ff0000000000000UL    ? FP_ILOGBNAN
           : ax == 0x7ff0000000000000UL ? INT_MAX
           : ax == 0                     ? FP_ILOGB0
                                        : __clhls_exponent_d(ax);
}

/* ------------------------------------------------------- vector versions */

VEC_1(double, double, exp)
VEC_1(double, double, exp2)
VEC_1(double, double, exp10)
VEC_1(double, double, expm1)
VEC_1(double, double, log)
VEC_1(double, double, log2)
VEC_1(double, double, log10)
VEC_1(double, double, log1p)
VEC_1(double, double, logb)
VEC_1(int, double, ilogb)
VEC_2(double, double, pow)
VEC_2(double, double, powr)
VEC_1(double, double, cbrt)
VEC_2(double, double, hypot)
VEC_1(double, double, sin)
VEC_1(double, double, cos)
VEC_1(double, double, tan)
VEC_1(double, double, sinpi)
VEC_1(double, double, cospi)
VEC_1(double, double, tanpi)
VEC_1(double, double, asin)
VEC_1(double, double, acos)
VEC_1(double, double, atan)
VEC_2(double, double, atan2)
VEC_1(double, double, asinpi)
VEC_1(double, double, acospi)
VEC_1(double, double, atanpi)
VEC_2(double, double, atan2pi)
VEC_1(double, double, sinh)
VEC_1(double, double, cosh)
VEC_1(double, double, tanh)
VEC_1(double, double, asinh)
VEC_1(double, double, acosh)
VEC_1(double, double, atanh)
VEC_1(double, double, erf)
VEC_1(double, double, erfc)
VEC_1(double, double, tgamma)
VEC_1(double, double, lgamma)
VEC_2(double, double, fmod)
VEC_2(double, double, remainder)
VEC_2(double, double, nextafter)
VEC_1(double, ulong, nan)
VEC_2(double, double, maxmag)
VEC_2(double, double, minmag)
MATH_VEC_FI(double, pown)
MATH_VEC_FI(double, rootn)
MATH_VEC_FI(double, ldexp)
MATH_LDEXP_SCALAR(double)
MATH_PTR1(double, frexp, __clhls_frexp_d, int)
MATH_PTR1(double, modf, __clhls_modf_d, double)
MATH_PTR1(double, fract, __clhls_fract_d, double)
MATH_PTR1(double, sincos, __clhls_sincos_d, double)
MATH_PTR1(double, lgamma_r, __clhls_lgamma_d, int)
MATH_PTR2(double, remquo, __clhls_remquo_d)
