/* OpenCL C 1.2 section 6.12.2 for double: the math functions that are more than one
 * operation, for double and every vector size (per element). The float functions
 * are in math.cl; these follow their structure with double-double (head + tail
 * double) arithmetic on the hardware's correctly rounded fma where those use
 * double-float, and with the double ULP limits of section 7.4 (the special values of
 * section 7.5), in a device that flushes denormals to zero (denormal inputs count as
 * zeros, as in the double units).
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

/* ---------------------------------------------------------------- helpers */

/* 2^n for -1022 <= n <= 1023. */
static double __clhls_pow2i_d(int n) { return as_double((ulong)(n + 1023) << 52); }

/* x * 2^n in two multiplies by powers of two on the same side of 1 (n clamped to
 * [-2044, 2046], enough to take any double to overflow or to zero); exact while the
 * result is normal. */
static double __clhls_scale_d(double x, int n)
{
    n = clamp(n, -2044, 2046);
    int a = n >> 1;
    return x * __clhls_pow2i_d(a) * __clhls_pow2i_d(n - a);
}

/* r (not negative, or NaN) with the sign of s (a select, as math.cl's). */
static double __clhls_with_sign_d(double r, double s) { return as_long(s) < 0 ? -r : r; }

/* x is zero or denormal (so counts as zero). */
static int __clhls_is_zero_d(double x)
{
    return (as_ulong(x) & 0x7fffffffffffffffUL) < 0x0010000000000000UL;
}

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
    long tmp = ix - 0x3fe6a09e00000000L;
    *k = (int)(tmp >> 52);
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
    return x != x || x < 0.0 ? NAN : __clhls_is_zero_d(x) ? -INFINITY : x == INFINITY ? x : r;
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
    int special = ia < 0x0010000000000000L || ia >= 0x7ff0000000000000L;
    lh = ia < 0x0010000000000000L ? -INFINITY : ia >= 0x7ff0000000000000L ? ax : lh;
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
    r = __clhls_is_zero_d(y) || x == 1.0 || (x == -1.0 && isinf(y)) ? 1.0 : r;
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
    int yzero = __clhls_is_zero_d(y);
    int bad = (x < 0.0 && !__clhls_is_zero_d(x)) || (__clhls_is_zero_d(x) && yzero) ||
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

/* -------------------------------------------------------------- remainders */

/* |x| - n|y| for finite x and normal y, exact, as math.cl's __clhls_rem_core: n =
 * floor(|x|/|y|), or with nearest the integer nearest |x|/|y| (ties to even); in *quo
 * n's low 7 bits. In units of 2^(ey - 53) (ey unbiased): |y| is 2my, |x| is
 * mx 2^(ex - ey + 1); the loop shifts in at most 10 bits per step (the remainder stays
 * below 2^54), keeping the quotient's low bits. */
static double __clhls_rem_core_d(double x, double y, int nearest, int *quo)
{
    ulong ux = as_ulong(x) & 0x7fffffffffffffffUL, uy = as_ulong(y) & 0x7fffffffffffffffUL;
    int ex = (int)(ux >> 52), ey = (int)(uy >> 52);
    ulong my = (uy & 0xfffffffffffffUL) | 0x10000000000000UL;
    ulong mod = my << 1;
    ulong r = (ux & 0xfffffffffffffUL) | 0x10000000000000UL;
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
    return ax >= 0x7ff0000000000000UL || ay > 0x7ff0000000000000UL ||
                   ay < 0x0010000000000000UL
               ? NAN
           : ay == 0x7ff0000000000000UL || ax < 0x0010000000000000UL ? x
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
    *quo = isnan(x) || isnan(y) || isinf(x) || __clhls_is_zero_d(y) || isinf(y) ? 0
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
    ulong ax = as_ulong(x) & 0x7fffffffffffffffUL;
    int normal = ax >= 0x0010000000000000UL && ax < 0x7ff0000000000000UL;
    *e = normal ? (int)(ax >> 52) - 1022 : 0;
    double m = __clhls_scale_d(x, 1022 - (int)(ax >> 52));
    return normal ? m : ax < 0x0010000000000000UL ? x * 0.0 : x;
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
    return ax >= 0x7ff0000000000000UL   ? fabs(x)
           : ax < 0x0010000000000000UL ? -INFINITY
                                       : (double)((int)(ax >> 52) - 1023);
}

int OVERLOAD ilogb(double x)
{
    ulong ax = as_ulong(x) & 0x7fffffffffffffffUL;
    return ax > 0x7ff0000000000000UL    ? FP_ILOGBNAN
           : ax == 0x7ff0000000000000UL ? INT_MAX
           : ax < 0x0010000000000000UL  ? FP_ILOGB0
                                        : (int)(ax >> 52) - 1023;
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
MATH_PTR2(double, remquo, __clhls_remquo_d)
