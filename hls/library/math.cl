/* OpenCL C 1.2 section 6.12.2, the float math functions that are more than one
 * operation: exponentials and logarithms, powers and roots, trigonometric,
 * hyperbolic and inverse functions, remainders, decomposition (frexp, ldexp, modf,
 * fract, logb, ilogb, nextafter, nan), maxmag and minmag, erf, erfc, tgamma and
 * lgamma, with their native_ and half_ versions (which share the full ones), for
 * float and every vector size (per element). Each stays within the ULP limit of
 * section 7.4 for the full profile with the special values of section 7.5, in a
 * device that flushes denormals to zero.
 *
 * The methods are the usual ones, written for hardware: one straight path of
 * operations with selections at the end for special values, so that a function
 * becomes one pipeline. The hardware's correctly rounded fma makes double-float
 * (head + tail) arithmetic cheap, and that is where extra precision comes from:
 * - Exponentials: t = x log2(e) (or log2(10), or 1) as a double-float, t = k + f
 *   with |f| <= 1/2, e^(f ln2) - 1 by a minimax polynomial, the result scaled by
 *   2^k in two exact steps (overflow and underflow come out of the multiplies).
 * - Logarithms: x = 2^k z with z in [0.70, 1.40); a 128-entry table gives 1/c and
 *   ln(c) (as head and tail) for z's interval, r = z/c - 1 is exact as a
 *   double-float (|r| <= 2^-8), ln(1 + r) a short series; the result is
 *   k ln2 + ln(c) + ln(1 + r), accurate to about 2^-34 before its last rounding.
 * - pow, pown, powr, rootn, cbrt: 2^(y log2|x|) with log2 and the product in
 *   double-float, so that the exponent is right to about 2^-40.
 * - sin, cos, tan: reduction modulo pi/2 by the Payne-Hanek method for every
 *   argument from pi/4 up: 96 bits of 2/pi, chosen by the exponent from a
 *   __constant table, multiply the 24-bit significand in 64-bit integers, which
 *   leaves the quadrant and 62 bits of the fraction; then minimax polynomials for
 *   sin and cos on [-pi/4, pi/4]. sinpi, cospi, tanpi reduce exactly in float.
 * - atan, atan2: one division brings the argument into [0, 1], then a minimax
 *   polynomial; asin, acos: a polynomial on [0, 1/2] and asin(x) = pi/2 -
 *   2 asin(sqrt((1 - x)/2)) above.
 * - Hyperbolic functions from the pieces of expm1; their inverses from the
 *   logarithm of a double-float argument (log1p form near zero).
 * - fmod, remainder, remquo: exact, by long division of the significands in
 *   64-bit integers, 33 to 40 bits per step of a loop (at most 8 steps).
 * - erf and erfc: a polynomial near zero, erfc(x) = e^(-x^2) t Q(t) with
 *   t = 1/(1 + x/2) above 1/2; tgamma and lgamma: the Lanczos approximation
 *   (g = 5, n = 6) with its power in double-float, reflection for x < 0.
 * Denormal inputs count as zeros, as in the float units. */
#include "common.h"

/* Constants: _HI + _LO is the value to about 2^-48 relative. */
#define MATH_LN2_HI 0x1.62e43p-1f
#define MATH_LN2_LO -0x1.05c61p-29f
#define MATH_LN2_C1 0x1.62e4p-1f /* 15 bits: k * C1 is exact for |k| <= 511 */
#define MATH_LN2_C2 0x1.7f7d1cp-20f
#define MATH_INVLN2_HI 0x1.715476p+0f
#define MATH_INVLN2_LO 0x1.4ae0cp-26f
#define MATH_LOG10_2_C1 0x1.344p-2f /* 13 bits */
#define MATH_LOG10_2_C2 0x1.3509f8p-18f
#define MATH_INVLN10_HI 0x1.bcb7b2p-2f
#define MATH_INVLN10_LO -0x1.5b235ep-27f
#define MATH_LOG2_10_HI 0x1.a934fp+1f
#define MATH_LOG2_10_LO 0x1.2f346ep-24f
#define MATH_PI_HI 0x1.921fb6p+1f
#define MATH_PI_LO -0x1.777a5cp-24f
#define MATH_PIO2_HI 0x1.921fb6p+0f
#define MATH_PIO2_LO -0x1.777a5cp-25f
#define MATH_PIO4 0x1.921fb6p-1f
#define MATH_3PIO4 0x1.2d97c8p+1f
#define MATH_INVPI_HI 0x1.45f306p-2f
#define MATH_INVPI_LO 0x1.b93910p-27f
#define MATH_PIO2_2M63_HI 0x1.921fb6p-63f /* pi/2 * 2^-63 */
#define MATH_PIO2_2M63_LO -0x1.777a5cp-88f
#define MATH_THIRD_HI 0x1.555556p-2f
#define MATH_THIRD_LO -0x1.555556p-27f
#define MATH_SQRT2PI 0x1.40d932p+1f
#define MATH_2OSQRTPI_HI 0x1.20dd76p+0f
#define MATH_2OSQRTPI_LO -0x1.f7ac92p-25f

/* ---------------------------------------------------------------- helpers */

/* 2^n for -126 <= n <= 127. */
static float __clhls_pow2i(int n) { return as_float((uint)(n + 127) << 23); }

/* x * 2^n, in two multiplies whose factors stay normal (n is clamped to
 * [-252, 254], enough to take any float to overflow or to zero). */
static float __clhls_scale(float x, int n)
{
    n = clamp(n, -252, 254);
    int a = n >> 1;
    return x * __clhls_pow2i(a) * __clhls_pow2i(n - a);
}

/* r (not negative, or NaN) with the sign of s. A select of a negation, not a
 * copysign on the bits: a bitcast that ends a function would let instcombine build a
 * vector bitcast where the caller puts the result into a vector. */
static float __clhls_with_sign(float r, float s) { return as_int(s) < 0 ? -r : r; }

/* x is zero or denormal (so counts as zero). */
static int __clhls_is_zero(float x) { return (as_uint(x) & 0x7fffffffu) < 0x00800000u; }

/* x rounded to an integral value (ties to even), for |x| < 2^22. */
static float __clhls_rint22(float x) { return (x + 0x1.8p23f) - 0x1.8p23f; }

/* ------------------------------------------------------------ exponentials */

/* e^r - 1 for |r| <= 0.35: r + r^2 P(r), relative error below 2^-28. */
static float __clhls_expm1_poly(float r)
{
    float p = fma(fma(fma(fma(0x1.a0332ap-13f, r, 0x1.6d78c6p-10f), r, 0x1.11118ep-7f), r,
                      0x1.5554aap-5f), r, 0x1.555554p-3f);
    p = fma(p, r, 0.5f);
    return fma(r * r, p, r);
}

/* t = th + tl (log2 units; tl far below th) as k + f with k integral, |f| <= 1/2:
 * returns f ln2 and k. |t| is clamped to 200 (a NaN stays). */
static float __clhls_exp2_reduce(float th, float tl, float *kf)
{
    float c = th > 200.0f ? 200.0f : th < -200.0f ? -200.0f : th;
    float lo = fabs(th) < 200.0f ? tl : 0.0f;
    float k = __clhls_rint22(c);
    float f = (c - k) + lo;
    *kf = k;
    return fma(f, MATH_LN2_HI, f * MATH_LN2_LO);
}

/* 2^(th + tl) * 2^kadj. */
static float __clhls_exp2_dd(float th, float tl, int kadj)
{
    float k;
    float r = __clhls_exp2_reduce(th, tl, &k);
    return __clhls_scale(1.0f + __clhls_expm1_poly(r), (int)k + kadj);
}

/* e^x = 2^k (1 + em): returns em = e^r - 1 and k. */
static float __clhls_expm1_parts(float x, int *k)
{
    float th = x * MATH_INVLN2_HI;
    float tl = fma(x, MATH_INVLN2_HI, -th) + x * MATH_INVLN2_LO;
    float kf;
    float r = __clhls_exp2_reduce(th, tl, &kf);
    *k = (int)kf;
    return __clhls_expm1_poly(r);
}

float OVERLOAD exp(float x)
{
    int k;
    float em = __clhls_expm1_parts(x, &k);
    return __clhls_scale(1.0f + em, k);
}

float OVERLOAD exp2(float x) { return __clhls_exp2_dd(x, 0.0f, 0); }

float OVERLOAD exp10(float x)
{
    float th = x * MATH_LOG2_10_HI;
    float tl = fma(x, MATH_LOG2_10_HI, -th) + x * MATH_LOG2_10_LO;
    return __clhls_exp2_dd(th, tl, 0);
}

/* 2^k em + (2^k - 1) with one rounding while 2^k is a float; above, e^x. */
float OVERLOAD expm1(float x)
{
    int k;
    float em = __clhls_expm1_parts(x, &k);
    float s = __clhls_pow2i(clamp(k, -126, 64));
    float r = k > 64 ? __clhls_scale(1.0f + em, k) : fma(s, em, s - 1.0f);
    return x == 0.0f ? x : r;
}

/* -------------------------------------------------------------- logarithms */

/* For each of the 128 intervals of z in [0x1.67p-1, 0x1.67p+0) (by the top
 * bits below the exponent): 1/c for a c near its middle (1 for the interval around
 * 1), and ln(c) = -ln(1/c) as head and tail. */
static __constant float __clhls_log_table[128][3] = {
    {0x1.6c16c2p+0f, -0x1.68ac86p-2f, 0x1.d8e57cp-28f}, {0x1.6a13cep+0f, -0x1.630034p-2f, 0x1.68aa78p-27f},
    {0x1.681682p+0f, -0x1.5d5bep-2f, 0x1.69a836p-28f}, {0x1.661ec6p+0f, -0x1.57bf74p-2f, 0x1.36e5c2p-27f},
    {0x1.642c86p+0f, -0x1.522ae2p-2f, 0x1.31d70ap-28f}, {0x1.623fa8p+0f, -0x1.4c9e0cp-2f, 0x1.fa34f2p-28f},
    {0x1.605816p+0f, -0x1.4718dcp-2f, -0x1.71c41cp-30f}, {0x1.5e75bcp+0f, -0x1.419b44p-2f, 0x1.ca85dp-28f},
    {0x1.5c9882p+0f, -0x1.3c2526p-2f, 0x1.5999dp-27f}, {0x1.5ac056p+0f, -0x1.36b676p-2f, 0x1.383ddep-27f},
    {0x1.58ed24p+0f, -0x1.314f2p-2f, -0x1.fa6b9ap-27f}, {0x1.571ed4p+0f, -0x1.2bef08p-2f, -0x1.f724d4p-28f},
    {0x1.555556p+0f, -0x1.269624p-2f, 0x1.d9648ep-27f}, {0x1.539094p+0f, -0x1.214456p-2f, 0x1.be28e6p-27f},
    {0x1.51d07ep+0f, -0x1.1bf994p-2f, -0x1.2d35c6p-29f}, {0x1.501502p+0f, -0x1.16b5cep-2f, -0x1.a59f6ep-27f},
    {0x1.4e5e0ap+0f, -0x1.1178e6p-2f, -0x1.84fc9p-27f}, {0x1.4cab88p+0f, -0x1.0c42d6p-2f, 0x1.d3d3a4p-27f},
    {0x1.4afd6ap+0f, -0x1.071386p-2f, 0x1.654f3cp-31f}, {0x1.49539ep+0f, -0x1.01eae4p-2f, -0x1.54d8d2p-27f},
    {0x1.47ae14p+0f, -0x1.f991c4p-3f, 0x1.a62648p-30f}, {0x1.460cbcp+0f, -0x1.ef5adcp-3f, 0x1.a46004p-28f},
    {0x1.446f86p+0f, -0x1.e530eep-3f, 0x1.0c77fap-30f}, {0x1.42d662p+0f, -0x1.db13d8p-3f, -0x1.7a9128p-28f},
    {0x1.414142p+0f, -0x1.d10384p-3f, 0x1.9aa19cp-31f}, {0x1.3fb014p+0f, -0x1.c6ffbcp-3f, -0x1.1e01eep-28f},
    {0x1.3e22ccp+0f, -0x1.bd0874p-3f, -0x1.877b16p-28f}, {0x1.3c995ap+0f, -0x1.b31d84p-3f, 0x1.690c72p-29f},
    {0x1.3b13b2p+0f, -0x1.a93ed8p-3f, -0x1.915b3ap-28f}, {0x1.3991c2p+0f, -0x1.9f6c3cp-3f, 0x1.fdda6ep-29f},
    {0x1.381382p+0f, -0x1.95a5b2p-3f, -0x1.dee02cp-28f}, {0x1.3698ep+0f, -0x1.8beb04p-3f, 0x1.31c064p-29f},
    {0x1.3521dp+0f, -0x1.823c18p-3f, -0x1.5468fp-29f}, {0x1.33ae46p+0f, -0x1.7898dap-3f, -0x1.11131cp-29f},
    {0x1.323e34p+0f, -0x1.6f0124p-3f, -0x1.dd5aaap-29f}, {0x1.30d19p+0f, -0x1.6574ecp-3f, 0x1.2e7d98p-28f},
    {0x1.2f684cp+0f, -0x1.5bf408p-3f, 0x1.2af094p-29f}, {0x1.2e025cp+0f, -0x1.527e5ep-3f, -0x1.50dac6p-30f},
    {0x1.2c9fb4p+0f, -0x1.4913d2p-3f, -0x1.cced5p-29f}, {0x1.2b404ap+0f, -0x1.3fb454p-3f, -0x1.932516p-28f},
    {0x1.29e412p+0f, -0x1.365fc6p-3f, -0x1.82b2p-28f}, {0x1.288b02p+0f, -0x1.2d1616p-3f, -0x1.30d024p-28f},
    {0x1.27350cp+0f, -0x1.23d716p-3f, 0x1.b63e08p-31f}, {0x1.25e228p+0f, -0x1.1aa2bep-3f, -0x1.447eep-28f},
    {0x1.24924ap+0f, -0x1.1178eep-3f, -0x1.13f22cp-30f}, {0x1.234568p+0f, -0x1.08598ep-3f, -0x1.33c74p-28f},
    {0x1.21fb78p+0f, -0x1.fe8912p-4f, -0x1.3b7aacp-29f}, {0x1.20b47p+0f, -0x1.ec738ep-4f, 0x1.9ebde4p-29f},
    {0x1.1f7048p+0f, -0x1.da7278p-4f, -0x1.c2235p-31f}, {0x1.1e2ef4p+0f, -0x1.c88584p-4f, -0x1.6f12c6p-30f},
    {0x1.1cf06ap+0f, -0x1.b6ac7cp-4f, -0x1.35ab5ap-29f}, {0x1.1bb4a4p+0f, -0x1.a4e764p-4f, 0x1.a721e4p-31f},
    {0x1.1a7b96p+0f, -0x1.9335e4p-4f, -0x1.ab2932p-29f}, {0x1.194538p+0f, -0x1.8197e2p-4f, -0x1.d038fcp-30f},
    {0x1.181182p+0f, -0x1.700d3ep-4f, 0x1.153f76p-32f}, {0x1.16e068p+0f, -0x1.5e959cp-4f, -0x1.65e46ap-30f},
    {0x1.15b1e6p+0f, -0x1.4d3116p-4f, -0x1.481facp-30f}, {0x1.1485fp+0f, -0x1.3bdf4ep-4f, 0x1.05c23ep-29f},
    {0x1.135c82p+0f, -0x1.2aa058p-4f, -0x1.1c5d18p-34f}, {0x1.12358ep+0f, -0x1.1973b6p-4f, -0x1.a32aa8p-31f},
    {0x1.111112p+0f, -0x1.08599ap-4f, 0x1.4c38ccp-29f}, {0x1.0fef02p+0f, -0x1.eea338p-5f, -0x1.01adeep-31f},
    {0x1.0ecf56p+0f, -0x1.ccb726p-5f, -0x1.776c94p-31f}, {0x1.0db20ap+0f, -0x1.aaef1cp-5f, -0x1.9f6218p-30f},
    {0x1.0c9714p+0f, -0x1.894a84p-5f, 0x1.6c09b4p-30f}, {0x1.0b7e6ep+0f, -0x1.67c938p-5f, 0x1.2b452ep-33f},
    {0x1.0a681p+0f, -0x1.466adap-5f, 0x1.7a439p-30f}, {0x1.0953f4p+0f, -0x1.252f4p-5f, -0x1.e34604p-31f},
    {0x1.08421p+0f, -0x1.0415c8p-5f, -0x1.3ce88p-30f}, {0x1.07326p+0f, -0x1.c63d06p-6f, -0x1.829546p-31f},
    {0x1.0624dep+0f, -0x1.849286p-6f, 0x1.cdcda2p-32f}, {0x1.05198p+0f, -0x1.432ab2p-6f, -0x1.66031p-32f},
    {0x1.041042p+0f, -0x1.0205a4p-6f, 0x1.db2a66p-32f}, {0x1.03091cp+0f, -0x1.8244ep-7f, -0x1.c4506ep-34f},
    {0x1.020408p+0f, -0x1.01015p-7f, 0x1.4ee432p-32f}, {0x1.010102p+0f, -0x1.008154p-8f, 0x1.a9df2ap-34f},
    {0x1p+0f, 0x0.0p+0f, 0x0.0p+0f}, {0x1.fc07fp-1f, 0x1.fe02b6p-8f, 0x1.620cf2p-33f},
    {0x1.f81f82p-1f, 0x1.fc0a8ap-7f, -0x1.e07f84p-32f}, {0x1.f4465ap-1f, 0x1.7b91acp-6f, 0x1.fab624p-31f},
    {0x1.f07c2p-1f, 0x1.f8299p-6f, 0x1.cf067p-31f}, {0x1.ecc07cp-1f, 0x1.39e86ep-5f, 0x1.febd8ep-33f},
    {0x1.e9131ap-1f, 0x1.77459cp-5f, -0x1.cd22dcp-33f}, {0x1.e573acp-1f, 0x1.b42dep-5f, 0x1.232e3ap-30f},
    {0x1.e1e1e2p-1f, 0x1.f0a30ap-5f, 0x1.162a76p-37f}, {0x1.de5d6ep-1f, 0x1.165372p-4f, -0x1.eb90a4p-29f},
    {0x1.dae608p-1f, 0x1.341d74p-4f, 0x1.86f478p-30f}, {0x1.d77b66p-1f, 0x1.51b06ep-4f, -0x1.7cf3d6p-31f},
    {0x1.d41d42p-1f, 0x1.6f0d28p-4f, -0x1.a35296p-29f}, {0x1.d0cb58p-1f, 0x1.8c3466p-4f, -0x1.ce64bap-32f},
    {0x1.cd8568p-1f, 0x1.a926d8p-4f, 0x1.495aaep-29f}, {0x1.ca4b3p-1f, 0x1.c5e54cp-4f, -0x1.48717p-33f},
    {0x1.c71c72p-1f, 0x1.e27074p-4f, 0x1.c55e5cp-29f}, {0x1.c3f8fp-1f, 0x1.fec914p-4f, 0x1.dbeabcp-32f},
    {0x1.c0e07p-1f, 0x1.0d77e8p-3f, 0x1.9a11ccp-28f}, {0x1.bdd2b8p-1f, 0x1.1b72bp-3f, 0x1.2f67a8p-31f},
    {0x1.bacf92p-1f, 0x1.29552cp-3f, 0x1.07fd4cp-29f}, {0x1.b7d6c4p-1f, 0x1.371fc2p-3f, -0x1.3c2e12p-28f},
    {0x1.b4e81cp-1f, 0x1.44d2b4p-3f, -0x1.cd20b6p-29f}, {0x1.b20364p-1f, 0x1.526e5ep-3f, 0x1.686d0ep-29f},
    {0x1.af286cp-1f, 0x1.5ff306p-3f, 0x1.4f27aap-32f}, {0x1.ac5702p-1f, 0x1.6d60fcp-3f, 0x1.c33a44p-28f},
    {0x1.a98ef6p-1f, 0x1.7ab89p-3f, 0x1.043642p-29f}, {0x1.a6d01ap-1f, 0x1.87fa08p-3f, 0x1.883246p-29f},
    {0x1.a41a42p-1f, 0x1.9525a8p-3f, 0x1.e8ad7p-32f}, {0x1.a16d4p-1f, 0x1.a23bcp-3f, -0x1.d4a98ep-35f},
    {0x1.9ec8eap-1f, 0x1.af3c92p-3f, -0x1.dfdp-29f}, {0x1.9c2d14p-1f, 0x1.bc286cp-3f, -0x1.d27314p-31f},
    {0x1.99999ap-1f, 0x1.c8ff7ap-3f, 0x1.e6a68ap-29f}, {0x1.970e5p-1f, 0x1.d5c214p-3f, 0x1.a7ddccp-30f},
    {0x1.948b1p-1f, 0x1.e27076p-3f, -0x1.d50d1ap-31f}, {0x1.920fb4p-1f, 0x1.ef0aep-3f, -0x1.11d36p-30f},
    {0x1.8f9c18p-1f, 0x1.fb918cp-3f, -0x1.50e0dep-30f}, {0x1.8d3018p-1f, 0x1.04025cp-2f, -0x1.2965f6p-27f},
    {0x1.8acb9p-1f, 0x1.0a325p-2f, 0x1.4e721ep-27f}, {0x1.886e6p-1f, 0x1.1058bep-2f, -0x1.ca36a4p-27f},
    {0x1.861862p-1f, 0x1.1675cap-2f, -0x1.0a8b3ep-27f}, {0x1.83c978p-1f, 0x1.1c898cp-2f, -0x1.92cccp-27f},
    {0x1.818182p-1f, 0x1.22941ep-2f, 0x1.b3de5ap-28f}, {0x1.7f406p-1f, 0x1.2895ap-2f, 0x1.7bd0d4p-27f},
    {0x1.7d05f4p-1f, 0x1.2e8e2cp-2f, -0x1.1ee2dp-30f}, {0x1.7ad22p-1f, 0x1.347ddcp-2f, -0x1.acf054p-27f},
    {0x1.78a4c8p-1f, 0x1.3a64c6p-2f, -0x1.a5ae86p-28f}, {0x1.767dcep-1f, 0x1.40430ap-2f, -0x1.bf2b04p-27f},
    {0x1.745d18p-1f, 0x1.4618bap-2f, 0x1.0e2f66p-29f}, {0x1.724288p-1f, 0x1.4be5fap-2f, -0x1.9110ecp-27f},
    {0x1.702e06p-1f, 0x1.51aad8p-2f, -0x1.e903eap-29f}, {0x1.6e1f76p-1f, 0x1.576774p-2f, -0x1.2754b2p-27f},
};

/* ln(xh + xl) = k ln2 + h + l for a positive, normal, finite xh: returns k, and
 * h + l = ln(z) with z = (xh + xl) 2^-k in [0.70, 1.40), to about 2^-40. xl (at
 * most half an ulp of xh) counts only when with_lo is set (a constant). */
static float __clhls_log_parts(float xh, float xl, int with_lo, float *h, float *l)
{
    int ix = as_int(xh);
    int tmp = ix - 0x3f338000;
    int i = (tmp >> 16) & 127;
    int k = tmp >> 23;
    float z = as_float(ix - (tmp & (int)0xff800000u));
    float invc = __clhls_log_table[i][0];
    float lch = __clhls_log_table[i][1], lcl = __clhls_log_table[i][2];
    /* r = z/c - 1 = rh + rl exactly: p + pe = z * invc, p - 1 is exact */
    float p = z * invc;
    float pe = fma(z, invc, -p);
    float d = p - 1.0f;
    float rh = d + pe;
    float rl = pe - (rh - d);
    if (with_lo)
        rl = fma(xl * __clhls_pow2i(clamp(-k, -126, 127)), invc, rl);
    /* ln(1 + r) = r - r^2/2 + r^3/3 - r^4/4 (|r| <= 2^-8: the next term is 2^-42) */
    float r2 = rh * rh;
    float small = fma(rh * r2, fma(rh, -0.25f, 0x1.555556p-2f), fma(r2, -0.5f, rl));
    /* ln(c) + rh as a two-sum */
    float s = lch + rh;
    float b = s - lch;
    float e = (lch - (s - b)) + (rh - b);
    *h = s;
    *l = e + (small + lcl);
    return (float)k;
}

/* k ln2 + h + l rounded: k * C1 is exact and at least |h| when k != 0. */
static float __clhls_ln_finish(float k, float h, float l)
{
    float a = k * MATH_LN2_C1;
    float s = a + h;
    return s + ((h - (s - a)) + fma(k, MATH_LN2_C2, l));
}

/* k + (h + l)/ln2 as a double-float: returns the head, the tail in *lo. */
static float __clhls_log2_finish(float k, float h, float l, float *lo)
{
    float ph = h * MATH_INVLN2_HI;
    float pl = fma(h, MATH_INVLN2_HI, -ph) + fma(h, MATH_INVLN2_LO, l * MATH_INVLN2_HI);
    float s = k + ph; /* |ph| <= 0.51: exact two-sum */
    float t = (ph - (s - k)) + pl;
    float r = s + t;
    *lo = t - (r - s);
    return r;
}

/* The logarithms' special values: r for positive normal finite x. */
static float __clhls_log_special(float x, float r)
{
    int ix = as_int(x);
    return (ix & 0x7fffffff) < 0x00800000 ? -INFINITY : ix < 0 ? NAN : ix >= 0x7f800000 ? x : r;
}

/* ln(uh + ul) + kadj ln2, special values by uh. */
static float __clhls_ln_dd(float uh, float ul, float kadj)
{
    float h, l;
    float k = __clhls_log_parts(uh, ul, 1, &h, &l) + kadj;
    return __clhls_log_special(uh, __clhls_ln_finish(k, h, l));
}

/* 1 + w as an exact double-float: returns the head, the tail in *ul. */
static float __clhls_one_plus(float w, float *ul)
{
    float u = 1.0f + w;
    *ul = fabs(w) > 1.0f ? 1.0f - (u - w) : w - (u - 1.0f);
    return u;
}

float OVERLOAD log(float x)
{
    float h, l;
    float k = __clhls_log_parts(x, 0.0f, 0, &h, &l);
    return __clhls_log_special(x, __clhls_ln_finish(k, h, l));
}

float OVERLOAD log2(float x)
{
    float h, l, lo;
    float k = __clhls_log_parts(x, 0.0f, 0, &h, &l);
    return __clhls_log_special(x, __clhls_log2_finish(k, h, l, &lo));
}

float OVERLOAD log10(float x)
{
    float h, l;
    float k = __clhls_log_parts(x, 0.0f, 0, &h, &l);
    float a = k * MATH_LOG10_2_C1;
    float ph = h * MATH_INVLN10_HI;
    float pl = fma(h, MATH_INVLN10_HI, -ph) + fma(h, MATH_INVLN10_LO, l * MATH_INVLN10_HI);
    float s = a + ph; /* |a| >= 0.30 >= |ph| unless k = 0 */
    float r = s + ((ph - (s - a)) + fma(k, MATH_LOG10_2_C2, pl));
    return __clhls_log_special(x, r);
}

float OVERLOAD log1p(float x)
{
    float ul;
    float u = __clhls_one_plus(x, &ul);
    float r = __clhls_ln_dd(u, ul, 0.0f);
    return x == 0.0f ? x : r;
}

/* ---------------------------------------------------------- powers, roots */

/* ax^(yh + yl) for ax >= 0 (or NaN), as 2^(y log2 ax) in double-float. */
static float __clhls_pow_core(float ax, float yh, float yl)
{
    float h, l, lo;
    float k = __clhls_log_parts(ax, 0.0f, 0, &h, &l);
    float lh = __clhls_log2_finish(k, h, l, &lo);
    int ia = as_int(ax);
    int special = ia < 0x00800000 || ia >= 0x7f800000;
    lh = ia < 0x00800000 ? -INFINITY : ia >= 0x7f800000 ? ax : lh;
    lo = special ? 0.0f : lo;
    float th = yh * lh;
    float tl = fma(yh, lh, -th) + fma(yh, lo, yl * lh);
    return __clhls_exp2_dd(th, tl, 0); /* tl is ignored when th is infinite */
}

/* 0: y is not an integer; 1: an even integer (or infinite, or NaN); 2: odd. */
static int __clhls_integer_kind(float y)
{
    uint u = as_uint(y) & 0x7fffffffu;
    int e = (int)(u >> 23) - 127;
    uint m = (u & 0x7fffffu) | 0x800000u;
    int whole = u == 0 || e >= 23 || (e >= 0 && (u & (0x7fffffu >> e)) == 0);
    int odd = e >= 0 && e <= 23 && ((m >> (23 - e)) & 1u);
    return !whole ? 0 : odd ? 2 : 1;
}

float OVERLOAD pow(float x, float y)
{
    int kind = __clhls_integer_kind(y);
    float r = __clhls_pow_core(fabs(x), y, 0.0f);
    r = kind == 2 && as_int(x) < 0 ? -r : r;
    r = kind == 0 && x < 0.0f && x != -INFINITY ? NAN : r;
    r = __clhls_is_zero(y) || x == 1.0f || (x == -1.0f && isinf(y)) ? 1.0f : r;
    return r;
}

float OVERLOAD pown(float x, int n)
{
    float yh = (float)n;
    float yl = (float)((long)n - (long)yh);
    float r = __clhls_pow_core(fabs(x), yh, yl);
    r = (n & 1) && as_int(x) < 0 ? -r : r;
    return n == 0 ? 1.0f : r;
}

float OVERLOAD powr(float x, float y)
{
    float r = __clhls_pow_core(fabs(x), y, 0.0f);
    int yzero = __clhls_is_zero(y);
    int bad = (x < 0.0f && !__clhls_is_zero(x)) || (__clhls_is_zero(x) && yzero) || (isinf(x) && yzero) ||
              (x == 1.0f && isinf(y)) || isnan(x) || isnan(y);
    return bad ? NAN : r;
}

/* x^(1/n) with 1/n as a double-float. */
float OVERLOAD rootn(float x, int n)
{
    float nf = (float)n;
    float yh = 1.0f / nf;
    float yl = fma(-yh, nf, 1.0f) * yh;
    float r = __clhls_pow_core(fabs(x), yh, yl);
    r = (n & 1) && as_int(x) < 0 ? -r : r;
    return n == 0 || (x < 0.0f && !(n & 1)) ? NAN : r;
}

float OVERLOAD cbrt(float x)
{
    return __clhls_with_sign(__clhls_pow_core(fabs(x), MATH_THIRD_HI, MATH_THIRD_LO), x);
}

/* sqrt(x^2 + y^2) with both scaled by a power of two when the larger is far from 1. */
float OVERLOAD hypot(float x, float y)
{
    float ax = fabs(x), ay = fabs(y);
    float big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
    int up = big < 0x1p-60f, down = big > 0x1p60f;
    float sc = up ? 0x1p80f : down ? 0x1p-80f : 1.0f;
    float bs = big * sc, ss = small * sc;
    float r = sqrt(fma(bs, bs, ss * ss)) * (up ? 0x1p-80f : down ? 0x1p80f : 1.0f);
    return isinf(x) || isinf(y) ? INFINITY : r;
}

/* ------------------------------------------------------------ trigonometry */

/* The bits of 2/pi after 26 zero bits (so that arguments from 1/2 up find their
 * window at a non-negative bit offset), 256 bits. */
static __constant uint __clhls_2_over_pi[8] = {
    0x00000028u, 0xbe60db93u, 0x91054a7fu, 0x09d5f47du,
    0x4d377036u, 0xd8a5664fu, 0x10e4107fu, 0x98000000u};

/* x = q pi/2 + rh + rl with |rh| <= pi/4 (about), for finite x (q modulo 4).
 * Payne-Hanek: x = m 2^e with a 24-bit m; bits of 2/pi above 2^-(e - 2) add
 * multiples of 4 to x 2/pi and are skipped; the next 96 bits times m give the
 * quadrant (2 bits) and 62 fraction bits, to 2^-62 (2^-70 lost beyond the window).
 * No float from pi/4 up is nearer than 2^-29.2 to a multiple of pi/2 (the nearest is
 * 0x1.f37c8ap+95), so r is always right to 2^-31 relative. */
static float __clhls_trig_reduce(float x, float *rl, int *q)
{
    uint ax = as_uint(x) & 0x7fffffffu;
    int e = (int)(ax >> 23) - 150;
    ulong m = (ulong)((ax & 0x7fffffu) | 0x800000u);
    int i0 = clamp(e + 24, 0, 129); /* first bit of the window */
    int w = i0 >> 5, sh = i0 & 31;
    ulong a0 = __clhls_2_over_pi[w], a1 = __clhls_2_over_pi[w + 1];
    ulong a2 = __clhls_2_over_pi[w + 2], a3 = __clhls_2_over_pi[w + 3];
    ulong w0 = (((a0 << 32) | a1) << sh) >> 32;
    ulong w1 = (((a1 << 32) | a2) << sh) >> 32;
    ulong w2 = (((a2 << 32) | a3) << sh) >> 32;
    /* P = m * (w0 w1 w2), 120 bits, binary point between bits 93 and 94 */
    ulong p0 = m * w0, p1 = m * w1, p2 = m * w2;
    ulong lo = p2 + (p1 << 32);
    ulong hi = p0 + (p1 >> 32) + (lo < p2 ? 1ul : 0ul);
    ulong f = (hi << 32) | (lo >> 32); /* bits 95..32 */
    long t = (long)(f << 2) >> 1;      /* the fraction, in [-1/2, 1/2) * 2^63 */
    int qq = (int)(f >> 62) + (t < 0 ? 1 : 0);
    float th = (float)t;
    float tl = (float)(t - (long)th);
    float rh = th * MATH_PIO2_2M63_HI;
    float r2 = fma(th, MATH_PIO2_2M63_HI, -rh) +
               fma(th, MATH_PIO2_2M63_LO, tl * MATH_PIO2_2M63_HI);
    float h = rh + r2;
    float l = r2 - (h - rh);
    int small = ax < 0x3f490fdbu; /* |x| < pi/4: no reduction */
    int neg = as_int(x) < 0;
    *rl = small ? 0.0f : neg ? -l : l;
    *q = small ? 0 : neg ? -qq : qq;
    return small ? x : neg ? -h : h;
}

/* sin(rh + rl) and cos(rh + rl) for |rh| <= pi/4: minimax polynomials (relative
 * error 2^-28 and 2^-30), the tail rl as a first-order correction. */
static float __clhls_sin_poly(float rh, float rl)
{
    float z = rh * rh;
    float p = fma(fma(fma(0x1.6ccb58p-19f, z, -0x1.a00f64p-13f), z, 0x1.111108p-7f), z,
                  -0x1.555556p-3f);
    return rh + fma(rh * z, p, fma(-0.5f * z, rl, rl));
}

static float __clhls_cos_poly(float rh, float rl)
{
    float z = rh * rh;
    float p = fma(fma(fma(-0x1.24199ep-22f, z, 0x1.a010c6p-16f), z, -0x1.6c16b8p-10f), z,
                  0x1.555556p-5f);
    float hz = 0.5f * z;
    float w = 1.0f - hz;
    return w + (((1.0f - w) - hz) + fma(z * z, p, -rh * rl));
}

/* sin(x) and, in *c, cos(x). */
static float __clhls_sincos(float x, float *c)
{
    float rl;
    int q;
    float rh = __clhls_trig_reduce(x, &rl, &q);
    float s = __clhls_sin_poly(rh, rl), co = __clhls_cos_poly(rh, rl);
    float sr = (q & 1) ? co : s, cr = (q & 1) ? s : co;
    sr = (q & 2) ? -sr : sr;
    cr = ((q + 1) & 2) ? -cr : cr;
    uint ax = as_uint(x) & 0x7fffffffu;
    *c = ax >= 0x7f800000u ? NAN : cr;
    return ax >= 0x7f800000u ? NAN : ax < 0x39800000u ? x : sr; /* sin x = x below 2^-12 */
}

float OVERLOAD sin(float x)
{
    float c;
    return __clhls_sincos(x, &c);
}

float OVERLOAD cos(float x)
{
    float c;
    __clhls_sincos(x, &c);
    return c;
}

float OVERLOAD tan(float x)
{
    float rl;
    int q;
    float rh = __clhls_trig_reduce(x, &rl, &q);
    float s = __clhls_sin_poly(rh, rl), c = __clhls_cos_poly(rh, rl);
    float r = ((q & 1) ? -c : s) / ((q & 1) ? s : c);
    uint ax = as_uint(x) & 0x7fffffffu;
    return ax >= 0x7f800000u ? NAN : ax < 0x39800000u ? x : r;
}

/* x = k/2 + f exactly, |f| <= 1/4: returns pi f as rh + rl, q = k mod 4, and
 * whether f is zero. */
static float __clhls_pi_reduce(float x, float *rl, int *q, int *zero)
{
    float ax = fabs(x);
    /* from 2^24 on x is an even integer: t = 0 will do (infinity and NaN stay) */
    float t = ax >= 0x1p24f && ax < INFINITY ? 0.0f : ax * 2.0f;
    float k = t < 0x1p23f ? (float)(int)(t + 0.5f) : t; /* from 2^23 on t is integral */
    float f = (t - k) * 0.5f;
    int qq = k < 0x1p25f ? (int)k & 3 : 0;
    float rh = f * MATH_PI_HI;
    float l = fma(f, MATH_PI_HI, -rh) + f * MATH_PI_LO;
    int neg = as_int(x) < 0;
    *rl = neg ? -l : l;
    *q = neg ? -qq : qq;
    *zero = f == 0.0f;
    return neg ? -rh : rh;
}

float OVERLOAD sinpi(float x)
{
    float rl;
    int q, zero;
    float rh = __clhls_pi_reduce(x, &rl, &q, &zero);
    float r = (q & 1) ? __clhls_cos_poly(rh, rl) : __clhls_sin_poly(rh, rl);
    r = (q & 2) ? -r : r;
    return zero && !(q & 1) ? x * 0.0f : r; /* a zero with x's sign */
}

float OVERLOAD cospi(float x)
{
    float rl;
    int q, zero;
    float rh = __clhls_pi_reduce(x, &rl, &q, &zero);
    float r = (q & 1) ? __clhls_sin_poly(rh, rl) : __clhls_cos_poly(rh, rl);
    r = ((q + 1) & 2) ? -r : r;
    return zero && (q & 1) ? 0.0f : r;
}

float OVERLOAD tanpi(float x)
{
    float rl;
    int q, zero;
    float rh = __clhls_pi_reduce(x, &rl, &q, &zero);
    float s = __clhls_sin_poly(rh, rl), c = __clhls_cos_poly(rh, rl);
    float r = ((q & 1) ? -c : s) / ((q & 1) ? s : c);
    /* x an integer n: zero with the sign of n (n even) or of -n; n + 1/2: +-inf */
    float z = (q & 1) ? ((q & 3) == 1 ? INFINITY : -INFINITY)
                      : ((q & 3) == 0 ? x : -x) * 0.0f;
    return zero ? z : r;
}

/* ----------------------------------------------------- inverse trigonometry */

/* atan(t) - t for 0 <= t <= 1: t^3 P(t^2), relative error below 2^-27. */
static float __clhls_atan_tail(float t)
{
    float z = t * t;
    float p = fma(fma(fma(fma(fma(fma(fma(fma(-0x1.d62856p-10f, z, 0x1.65a21ap-7f), z,
                                              -0x1.fecd64p-6f), z, 0x1.dac7e2p-5f), z,
                                    -0x1.5833fap-4f), z, 0x1.c099cap-4f), z,
                          -0x1.2421b0p-3f), z, 0x1.9991fcp-3f), z, -0x1.55553ep-2f);
    return t * z * p;
}

/* (t + tail)/pi with the constant as a double-float. */
static float __clhls_div_pi(float t, float tail)
{
    return fma(t, MATH_INVPI_HI, fma(t, MATH_INVPI_LO, tail * MATH_INVPI_HI));
}

float OVERLOAD atan(float x)
{
    float a = fabs(x);
    int inv = a > 1.0f;
    float t = inv ? 1.0f / a : a;
    float p = __clhls_atan_tail(t);
    float r = inv ? (MATH_PIO2_HI - t) + (MATH_PIO2_LO - p) : t + p;
    return __clhls_with_sign(r, x);
}

float OVERLOAD atanpi(float x)
{
    float a = fabs(x);
    int inv = a > 1.0f;
    float t = inv ? 1.0f / a : a;
    float u = __clhls_div_pi(t, __clhls_atan_tail(t));
    return __clhls_with_sign(inv ? 0.5f - u : u, x);
}

/* atan2 as base + s atan(t), t = min(|x|, |y|)/max(|x|, |y|): base 0, pi/2 or pi
 * (in units of pi with in_pi), the sign s minus when exactly one of |y| > |x| and
 * x negative holds; zeros and infinities on both sides by their own rule. */
static float __clhls_atan2(float y, float x, int in_pi)
{
    float ax = fabs(x), ay = fabs(y);
    int swap = ay > ax, xneg = as_int(x) < 0;
    float t = (swap ? ax : ay) / (swap ? ay : ax);
    float p = __clhls_atan_tail(t);
    int minus = swap != xneg;
    float r;
    if (in_pi) {
        float u = __clhls_div_pi(t, p);
        r = (swap ? 0.5f : xneg ? 1.0f : 0.0f) + (minus ? -u : u);
        r = ax == 0.0f && ay == 0.0f ? (xneg ? 1.0f : 0.0f) : r;
        r = isinf(x) && isinf(y) ? (xneg ? 0.75f : 0.25f) : r;
    } else {
        float bh = swap ? MATH_PIO2_HI : xneg ? MATH_PI_HI : 0.0f;
        float bl = swap ? MATH_PIO2_LO : xneg ? MATH_PI_LO : 0.0f;
        r = (bh + (minus ? -t : t)) + (bl + (minus ? -p : p));
        r = ax == 0.0f && ay == 0.0f ? (xneg ? MATH_PI_HI : 0.0f) : r;
        r = isinf(x) && isinf(y) ? (xneg ? MATH_3PIO4 : MATH_PIO4) : r;
    }
    return __clhls_with_sign(r, y);
}

float OVERLOAD atan2(float y, float x) { return __clhls_atan2(y, x, 0); }
float OVERLOAD atan2pi(float y, float x) { return __clhls_atan2(y, x, 1); }

/* asin(u) - u for 0 <= u <= 1/2, z = u^2: u z P(z), relative error below 2^-29.
 * Above 1/2, asin(a) = pi/2 - 2 asin(u) with u = sqrt((1 - a)/2) (1 - a exact). */
static float __clhls_asin_tail(float u, float z)
{
    float p = fma(fma(fma(fma(fma(0x1.335588p-5f, z, 0x1.d9204p-7f), z, 0x1.049198p-5f), z,
                          0x1.6caed4p-5f), z, 0x1.33387cp-4f), z, 0x1.55554cp-3f);
    return u * z * p;
}

/* The pieces: u (a or the square root) and the tail; big tells which. */
static float __clhls_asin_parts(float a, float *tail, int *big)
{
    *big = a > 0.5f;
    float z = *big ? 0.5f * (1.0f - a) : a * a;
    float u = *big ? sqrt(z) : a;
    *tail = __clhls_asin_tail(u, z);
    return u;
}

float OVERLOAD asin(float x)
{
    float tail;
    int big;
    float u = __clhls_asin_parts(fabs(x), &tail, &big);
    float r = big ? (MATH_PIO2_HI - 2.0f * u) + (MATH_PIO2_LO - 2.0f * tail) : u + tail;
    return __clhls_with_sign(r, x);
}

float OVERLOAD acos(float x)
{
    float tail;
    int big;
    float u = __clhls_asin_parts(fabs(x), &tail, &big);
    float r = x < 0.0f ? (MATH_PI_HI - 2.0f * u) + (MATH_PI_LO - 2.0f * tail)
                       : 2.0f * u + 2.0f * tail;
    return big ? r : (MATH_PIO2_HI - x) + (MATH_PIO2_LO - __clhls_with_sign(tail, x));
}

float OVERLOAD asinpi(float x)
{
    float tail;
    int big;
    float u = __clhls_asin_parts(fabs(x), &tail, &big);
    float v = __clhls_div_pi(u, tail);
    return __clhls_with_sign(big ? 0.5f - 2.0f * v : v, x);
}

float OVERLOAD acospi(float x)
{
    float tail;
    int big;
    float u = __clhls_asin_parts(fabs(x), &tail, &big);
    float v = __clhls_div_pi(u, tail);
    float r = x < 0.0f ? 1.0f - 2.0f * v : 2.0f * v;
    return big ? r : 0.5f - __clhls_with_sign(v, x);
}

/* ---------------------------------------------------------------- hyperbolic */

/* e^a - 1 = 2^k em + (2^k - 1) for 0 <= k <= 64. */
static float __clhls_expm1_small(float em, int k)
{
    float s = __clhls_pow2i(min(k, 64));
    return fma(s, em, s - 1.0f);
}

/* (E + E/(E + 1))/2 with E = expm1(|x|); e^|x|/2 above 2^40. */
float OVERLOAD sinh(float x)
{
    float a = fabs(x);
    int k;
    float em = __clhls_expm1_parts(a, &k);
    float e = __clhls_expm1_small(em, k);
    float r = k > 40 ? __clhls_scale(1.0f + em, k - 1) : 0.5f * (e + e / (e + 1.0f));
    return __clhls_with_sign(r, x);
}

/* h + 1/(4h) with h = e^|x|/2. */
float OVERLOAD cosh(float x)
{
    int k;
    float em = __clhls_expm1_parts(fabs(x), &k);
    float h = __clhls_scale(1.0f + em, k - 1);
    return h + 0.25f / h;
}

/* E/(E + 2) with E = expm1(2|x|); 1 from 9 on. */
float OVERLOAD tanh(float x)
{
    float a = fabs(x);
    int k;
    float em = __clhls_expm1_parts(2.0f * (a > 10.0f ? 10.0f : a), &k);
    float e = __clhls_expm1_small(em, k);
    return __clhls_with_sign(a > 9.0f ? 1.0f : e / (e + 2.0f), x);
}

/* ln(a + sqrt(a^2 + 1)) as log1p(a + a^2/(1 + sqrt(1 + a^2))); ln(a/2) + 2 ln2 from 2^12. */
float OVERLOAD asinh(float x)
{
    float a = fabs(x);
    int big = a >= 0x1p12f;
    float a2 = a * a;
    float w = a + a2 / (1.0f + sqrt(1.0f + a2));
    float ul;
    float u = __clhls_one_plus(w, &ul);
    float r = __clhls_ln_dd(big ? 0.5f * a : u, big ? 0.0f : ul, big ? 2.0f : 0.0f);
    return __clhls_with_sign(r, x);
}

/* log1p(t + sqrt(t (t + 2))) with t = x - 1 (exact); ln(x/2) + 2 ln2 from 2^12. */
float OVERLOAD acosh(float x)
{
    float t = x - 1.0f;
    float w = t + sqrt(fma(t, t, 2.0f * t));
    int big = x >= 0x1p12f;
    float ul;
    float u = __clhls_one_plus(w, &ul);
    float r = __clhls_ln_dd(big ? 0.5f * x : u, big ? 0.0f : ul, big ? 2.0f : 0.0f);
    return x < 1.0f ? NAN : r;
}

/* log1p(2a/(1 - a))/2. */
float OVERLOAD atanh(float x)
{
    float a = fabs(x);
    float ul;
    float u = __clhls_one_plus(2.0f * a / (1.0f - a), &ul);
    return __clhls_with_sign(0.5f * __clhls_ln_dd(u, ul, 0.0f), x);
}

/* ------------------------------------------------------------- remainders */

/* |x| - n|y| for finite x and normal y, exact: n = floor(|x|/|y|), or with nearest
 * (a constant) the integer nearest |x|/|y| (ties to even); in *quo the low qbits
 * bits of n (qbits a constant). The significands are integers mx, my;
 * mx 2^(ex - ey) mod (my 2^qbits) is computed by a loop that shifts in at most
 * 40 - qbits bits per step, the quotient bits last by restoring division, and the
 * rounding to nearest is decided on the integers (the float of a remainder below
 * FLT_MIN is flushed to zero, which must not change the quotient). When |x| < |y|
 * by the exponents, n is 0 (or 1 for nearest if |x| > |y|/2) and floats will do. */
static float __clhls_rem_core(float x, float y, int qbits, int nearest, int *quo)
{
    uint ux = as_uint(x) & 0x7fffffffu, uy = as_uint(y) & 0x7fffffffu;
    int ex = (int)(ux >> 23), ey = (int)(uy >> 23);
    ulong my = (ulong)((uy & 0x7fffffu) | 0x800000u);
    ulong mod = my << qbits;
    ulong r = (ulong)((ux & 0x7fffffu) | 0x800000u);
    r = r >= mod ? r - mod : r;
    for (int left = ex - ey; left > 0;) {
        int s = min(left, 40 - qbits);
        r = (r << s) % mod;
        left -= s;
    }
    int n = 0;
    for (int b = qbits - 1; b >= 0; b--) {
        ulong part = my << b;
        int ge = r >= part;
        r = ge ? r - part : r;
        n |= ge << b;
    }
    int up = nearest && (2 * r > my || (2 * r == my && (n & 1)));
    float v = __clhls_scale(up ? -(float)(my - r) : (float)r, ey - 150);
    /* |x| < |y| */
    float ax = fabs(x), ay = fabs(y);
    int up_below = nearest && ax > ay - ax;
    int below = ex < ey;
    *quo = below ? up_below : n + up;
    return below ? (up_below ? ax - ay : ax) : v;
}

/* NaN for an infinite or NaN x, a NaN or zero y; x for an infinite y or a zero x. */
static float __clhls_rem_special(float x, float y, float r)
{
    uint ax = as_uint(x) & 0x7fffffffu, ay = as_uint(y) & 0x7fffffffu;
    return ax >= 0x7f800000u || ay > 0x7f800000u || ay < 0x00800000u ? NAN
           : ay == 0x7f800000u || ax < 0x00800000u                    ? x
                                                                      : r;
}

float OVERLOAD fmod(float x, float y)
{
    int n;
    float v = __clhls_rem_core(x, y, 0, 0, &n);
    return __clhls_rem_special(x, y, __clhls_with_sign(v, x));
}

/* x - n y with n the integer nearest x/y, and n's low bits with the sign of x/y. */
static float __clhls_remainder(float x, float y, int qbits, int *quo)
{
    int n;
    float v = __clhls_rem_core(x, y, qbits, 1, &n);
    int negq = (as_int(x) ^ as_int(y)) < 0;
    *quo = isnan(x) || isnan(y) || isinf(x) || __clhls_is_zero(y) || isinf(y) ? 0
           : negq ? -(n & 0x7f) : (n & 0x7f);
    return __clhls_rem_special(x, y, as_int(x) < 0 ? -v : v);
}

float OVERLOAD remainder(float x, float y)
{
    int n;
    return __clhls_remainder(x, y, 1, &n);
}

static float __clhls_remquo(float x, float y, int *quo) { return __clhls_remainder(x, y, 7, quo); }

/* ---------------------------------------------------------- decomposition */

static float __clhls_frexp(float x, int *e)
{
    uint ux = as_uint(x), ax = ux & 0x7fffffffu;
    int normal = ax >= 0x00800000u && ax < 0x7f800000u;
    *e = normal ? (int)(ax >> 23) - 126 : 0;
    float m = __clhls_scale(x, 126 - (int)(ax >> 23));
    return normal ? m : ax < 0x00800000u ? x * 0.0f : x;
}

/* x 2^n in three exact multiplies by powers of two all on the same side of 1 (n is
 * clamped to [-300, 300], enough for any float): infinite above the range, zero
 * below it. */
float OVERLOAD ldexp(float x, int n)
{
    n = clamp(n, -300, 300);
    int a = n < 0 ? -((-n * 21846) >> 16) : (n * 21846) >> 16; /* n/3, toward 0 */
    return x * __clhls_pow2i(a) * __clhls_pow2i(a) * __clhls_pow2i(n - 2 * a);
}

static float __clhls_modf(float x, float *ip)
{
    float t = trunc(x);
    *ip = t;
    return __clhls_with_sign(isinf(x) ? 0.0f : fabs(x - t), x);
}

static float __clhls_fract(float x, float *ip)
{
    float f = floor(x);
    *ip = f;
    float r = fmin(x - f, 0x1.fffffep-1f);
    return isinf(x) ? 0.0f : x == 0.0f || isnan(x) ? x : r;
}

/* The neighbour of x toward y by integer steps on the bits (denormals included):
 * floats ordered as sign-magnitude integers. */
float OVERLOAD nextafter(float x, float y)
{
    int ix = as_int(x), iy = as_int(y);
    int kx = ix >= 0 ? ix : (int)(0x80000000u - (uint)ix);
    int ky = iy >= 0 ? iy : (int)(0x80000000u - (uint)iy);
    int kr = kx + (ky > kx ? 1 : -1);
    int bits = kr == 0 ? (ix & (int)0x80000000u) : kr > 0 ? kr : (int)(0x80000000u - (uint)kr);
    return isnan(x) || isnan(y) ? NAN : kx == ky ? y : as_float(bits);
}

/* The code in the significand (a select keeps the bitcast from ending the function). */
float OVERLOAD nan(uint code)
{
    code &= 0x3fffffu;
    return code ? as_float(0x7fc00000u | code) : NAN;
}

float OVERLOAD maxmag(float x, float y)
{
    float ax = fabs(x), ay = fabs(y);
    return ax > ay ? x : ay > ax ? y : fmax(x, y);
}

float OVERLOAD minmag(float x, float y)
{
    float ax = fabs(x), ay = fabs(y);
    return ax < ay ? x : ay < ax ? y : fmin(x, y);
}

float OVERLOAD logb(float x)
{
    uint ax = as_uint(x) & 0x7fffffffu;
    return ax >= 0x7f800000u ? fabs(x) : ax < 0x00800000u ? -INFINITY
                                                          : (float)((int)(ax >> 23) - 127);
}

int OVERLOAD ilogb(float x)
{
    uint ax = as_uint(x) & 0x7fffffffu;
    return ax > 0x7f800000u ? FP_ILOGBNAN : ax == 0x7f800000u ? INT_MAX
           : ax < 0x00800000u ? FP_ILOGB0 : (int)(ax >> 23) - 127;
}

/* ---------------------------------------------------------- erf and erfc */

/* erf(x) for |x| <= 1/2: x (2/sqrt(pi) + z P(z)), z = x^2 (relative error 2^-29). */
static float __clhls_erf_small(float x)
{
    float z = x * x;
    float p = fma(fma(fma(fma(-0x1.9412ecp-11f, z, 0x1.54df1p-8f), z, -0x1.b8211cp-6f), z,
                      0x1.ce2ef8p-4f), z, -0x1.812746p-2f);
    return fma(x, MATH_2OSQRTPI_HI, x * fma(z, p, MATH_2OSQRTPI_LO));
}

/* erfc(a) for a >= 1/2: e^(-a^2) t Q(t), t = 1/(1 + a/2), Q a polynomial fit to
 * erfc(a) e^(a^2)/t (relative error 2^-24); a^2 as a double-float. */
static float __clhls_erfc_big(float a)
{
    float t = 1.0f / fma(0.5f, a, 1.0f);
    float q = fma(fma(fma(fma(fma(fma(fma(fma(fma(-0x1.ef50fep-6f, t, 0x1.0f9634p-4f), t,
                                              0x1.0612cep-4f), t, -0x1.177274p-2f), t,
                                    0x1.3900c2p-3f), t, 0x1.2b2bd4p-6f), t, 0x1.8b7652p-3f),
                      t, 0x1.f42648p-3f), t, 0x1.211942p-2f), t, 0x1.20db3cp-2f);
    float sh = a * a;
    float sl = fma(a, a, -sh);
    float th = -sh * MATH_INVLN2_HI;
    float tl = fma(-sh, MATH_INVLN2_HI, -th) - fma(sh, MATH_INVLN2_LO, sl * MATH_INVLN2_HI);
    return __clhls_exp2_dd(th, tl, 0) * (t * q);
}

float OVERLOAD erf(float x)
{
    float a = fabs(x);
    return __clhls_with_sign(a < 0.5f ? __clhls_erf_small(a) : 1.0f - __clhls_erfc_big(a), x);
}

float OVERLOAD erfc(float x)
{
    float a = fabs(x);
    float e = __clhls_erfc_big(a);
    return a < 0.5f ? 1.0f - __clhls_with_sign(__clhls_erf_small(a), x) : x < 0.0f ? 2.0f - e : e;
}

/* ------------------------------------------------------ tgamma and lgamma */

/* Lanczos (g = 5, n = 6): Gamma(z + 1) = e^u R(z) for z >= 0, with
 * u = (z + 1/2) ln(z + 11/2) - (z + 11/2) returned as a double-float (head, *ul)
 * and R = sqrt(2 pi) P(z)/Q(z) (relative error 2^-32; z is capped at 2^20 in R,
 * where R no longer changes in float). */
static float __clhls_lanczos_u(float z, float *ul)
{
    float bh = z + 5.5f;
    float bb = bh - z;
    float bl = (z - (bh - bb)) + (5.5f - bb);
    float ch = z + 0.5f;
    float cb = ch - z;
    float cl = (z - (ch - cb)) + (0.5f - cb);
    float h, l;
    float k = __clhls_log_parts(bh, bl, 1, &h, &l);
    float a = k * MATH_LN2_C1;
    float s = a + h;
    float lt = (h - (s - a)) + fma(k, MATH_LN2_C2, l);
    float lh = s + lt;
    float ll = lt - (lh - s);
    float th = ch * lh;
    float tl = fma(ch, lh, -th) + fma(ch, ll, cl * lh);
    float uh = th - bh;
    float ub = uh - th;
    *ul = ((th - (uh - ub)) + (-bh - ub)) + (tl - bl);
    return uh;
}

static float __clhls_lanczos_p(float z)
{
    z = fmin(z, 0x1p20f);
    return fma(fma(fma(fma(fma(fma(z, 1.0f, 0x1.0baaaap+5f), z, 0x1.d2558ep+8f), z,
                           0x1.b136b4p+11f), z, 0x1.c4a75p+13f), z, 0x1.f86442p+14f), z,
               0x1.d4466p+14f) * MATH_SQRT2PI;
}

static float __clhls_lanczos_q(float z)
{
    z = fmin(z, 0x1p20f);
    return fma(fma(fma(fma(fma(z + 21.0f, z, 175.0f), z, 735.0f), z, 1624.0f), z, 1764.0f), z,
               720.0f);
}

/* Gamma(x) = G(x - 1) from 1 on, G(x)/x in [0, 1), pi/(sinpi(x) G(-x)) below 0,
 * with G(z) = Gamma(z + 1) = e^u R(z) scaled by 2^-48 (2^-64 below -20) on the way
 * so that no intermediate overflows (e^u times P(z) is the largest); one division. */
float OVERLOAD tgamma(float x)
{
    int neg = x < 0.0f;
    float ax = fabs(x);
    float z = neg ? ax : x >= 1.0f ? x - 1.0f : x;
    float ul;
    float uh = __clhls_lanczos_u(z, &ul);
    float vh = uh * MATH_INVLN2_HI;
    float vl = fma(uh, MATH_INVLN2_HI, -vh) + fma(uh, MATH_INVLN2_LO, ul * MATH_INVLN2_HI);
    int kadj = neg ? (z > 20.0f ? -64 : 0) : -48;
    float e = __clhls_exp2_dd(vh, vl, kadj);
    float p = __clhls_lanczos_p(z), q = __clhls_lanczos_q(z);
    float sp = sinpi(x);
    float num = neg ? MATH_PI_HI * q : e * p;
    float den = neg ? sp * (e * p) : q * (x < 1.0f ? x : 1.0f); /* -0: -inf */
    float r = __clhls_scale(num / den, neg ? kadj : -kadj);
    return (neg && sp == 0.0f) || x == -INFINITY ? NAN : x == INFINITY ? x : r;
}

/* ln|Gamma(x)| = u + ln(R/x) (or u + ln R from 1 on) and, below 0,
 * -(u + ln(|sinpi(x)| R/pi)) with z = -x; the sign of Gamma in *sign. */
static float __clhls_lgamma(float x, int *sign)
{
    int neg = x < 0.0f;
    float ax = fabs(x);
    float z = neg ? ax : x >= 1.0f ? x - 1.0f : x;
    float ul;
    float uh = __clhls_lanczos_u(z, &ul);
    float p = __clhls_lanczos_p(z), q = __clhls_lanczos_q(z);
    float sp = sinpi(x);
    int tiny = !neg && x < 1.0f; /* R/x may be above FLT_MAX: R/(x 2^64) instead */
    float arg = (neg ? fabs(sp) * p : p) /
                (neg ? MATH_PI_HI * q : q * (tiny ? ax * 0x1p64f : 1.0f));
    float h, l;
    float k = __clhls_log_parts(arg, 0.0f, 0, &h, &l) + (tiny ? 64.0f : 0.0f);
    float lr = __clhls_log_special(arg, __clhls_ln_finish(k, h, l));
    float r = isinf(uh) ? uh : uh + (ul + lr);
    *sign = neg ? (sp < 0.0f ? -1 : 1) : as_int(x) < 0 ? -1 : 1;
    return isinf(x) || (neg && sp == 0.0f) ? INFINITY : neg ? -r : r;
}

float OVERLOAD lgamma(float x)
{
    int s;
    return __clhls_lgamma(x, &s);
}

/* ------------------------------------------------------- vector versions */

VEC_1(float, float, exp)
VEC_1(float, float, exp2)
VEC_1(float, float, exp10)
VEC_1(float, float, expm1)
VEC_1(float, float, log)
VEC_1(float, float, log2)
VEC_1(float, float, log10)
VEC_1(float, float, log1p)
VEC_1(float, float, logb)
VEC_1(int, float, ilogb)
VEC_2(float, float, pow)
VEC_2(float, float, powr)
VEC_1(float, float, cbrt)
VEC_2(float, float, hypot)
VEC_1(float, float, sin)
VEC_1(float, float, cos)
VEC_1(float, float, tan)
VEC_1(float, float, sinpi)
VEC_1(float, float, cospi)
VEC_1(float, float, tanpi)
VEC_1(float, float, asin)
VEC_1(float, float, acos)
VEC_1(float, float, atan)
VEC_2(float, float, atan2)
VEC_1(float, float, asinpi)
VEC_1(float, float, acospi)
VEC_1(float, float, atanpi)
VEC_2(float, float, atan2pi)
VEC_1(float, float, sinh)
VEC_1(float, float, cosh)
VEC_1(float, float, tanh)
VEC_1(float, float, asinh)
VEC_1(float, float, acosh)
VEC_1(float, float, atanh)
VEC_2(float, float, fmod)
VEC_2(float, float, remainder)
VEC_2(float, float, nextafter)
VEC_1(float, uint, nan)
VEC_2(float, float, maxmag)
VEC_2(float, float, minmag)
VEC_1(float, float, erf)
VEC_1(float, float, erfc)
VEC_1(float, float, tgamma)
VEC_1(float, float, lgamma)

/* f(Tn, intn) per element (T float or double, here and below; math_double.cl uses
 * these macros too), and ldexp(Tn, int). */
#define MATH_VEC_FI(T, f)                                                              \
    T##2 OVERLOAD f(T##2 x, int2 n) { return (T##2)(f(x.s0, n.s0), f(x.s1, n.s1)); }     \
    T##3 OVERLOAD f(T##3 x, int3 n)                                                      \
    {                                                                                  \
        return (T##3)(f(x.s0, n.s0), f(x.s1, n.s1), f(x.s2, n.s2));                       \
    }                                                                                  \
    T##4 OVERLOAD f(T##4 x, int4 n) { return (T##4)(f(x.lo, n.lo), f(x.hi, n.hi)); }     \
    T##8 OVERLOAD f(T##8 x, int8 n) { return (T##8)(f(x.lo, n.lo), f(x.hi, n.hi)); }     \
    T##16 OVERLOAD f(T##16 x, int16 n) { return (T##16)(f(x.lo, n.lo), f(x.hi, n.hi)); }
#define MATH_LDEXP_SCALAR(T)                                                           \
    T##2 OVERLOAD ldexp(T##2 x, int n) { return ldexp(x, (int2)(n)); }                   \
    T##3 OVERLOAD ldexp(T##3 x, int n) { return ldexp(x, (int3)(n)); }                   \
    T##4 OVERLOAD ldexp(T##4 x, int n) { return ldexp(x, (int4)(n)); }                   \
    T##8 OVERLOAD ldexp(T##8 x, int n) { return ldexp(x, (int8)(n)); }                   \
    T##16 OVERLOAD ldexp(T##16 x, int n) { return ldexp(x, (int16)(n)); }
MATH_VEC_FI(float, pown)
MATH_VEC_FI(float, rootn)
MATH_VEC_FI(float, ldexp)
MATH_LDEXP_SCALAR(float)

/* Functions that also store through a pointer, in each address space: the scalar
 * helper H(x, &t) (or H(x, y, &t)) per element, through private temporaries. */
#define MATH_PTR1_(T, f, H, P, AS)                                                    \
    T OVERLOAD f(T x, AS P *p)                                                         \
    {                                                                                \
        P t;                                                                         \
        T r = H(x, &t);                                                              \
        *p = t;                                                                      \
        return r;                                                                    \
    }                                                                                \
    T##2 OVERLOAD f(T##2 x, AS P##2 *p)                                                \
    {                                                                                \
        P a, b;                                                                      \
        T##2 r = (T##2)(H(x.s0, &a), H(x.s1, &b));                                    \
        *p = (P##2)(a, b);                                                             \
        return r;                                                                    \
    }                                                                                \
    T##3 OVERLOAD f(T##3 x, AS P##3 *p)                                                \
    {                                                                                \
        P a, b, c;                                                                   \
        T##3 r = (T##3)(H(x.s0, &a), H(x.s1, &b), H(x.s2, &c));                       \
        *p = (P##3)(a, b, c);                                                          \
        return r;                                                                    \
    }                                                                                \
    T##4 OVERLOAD f(T##4 x, AS P##4 *p)                                                \
    {                                                                                \
        P##2 a, b;                                                                     \
        T##4 r = (T##4)(f(x.lo, &a), f(x.hi, &b));                                    \
        *p = (P##4)(a, b);                                                             \
        return r;                                                                    \
    }                                                                                \
    T##8 OVERLOAD f(T##8 x, AS P##8 *p)                                                \
    {                                                                                \
        P##4 a, b;                                                                     \
        T##8 r = (T##8)(f(x.lo, &a), f(x.hi, &b));                                    \
        *p = (P##8)(a, b);                                                             \
        return r;                                                                    \
    }                                                                                \
    T##16 OVERLOAD f(T##16 x, AS P##16 *p)                                             \
    {                                                                                \
        P##8 a, b;                                                                     \
        T##16 r = (T##16)(f(x.lo, &a), f(x.hi, &b));                                  \
        *p = (P##16)(a, b);                                                            \
        return r;                                                                    \
    }
#define MATH_PTR1(T, f, H, P)                                                         \
    MATH_PTR1_(T, f, H, P, __private) MATH_PTR1_(T, f, H, P, __global)                 \
    MATH_PTR1_(T, f, H, P, __local)
MATH_PTR1(float, frexp, __clhls_frexp, int)
MATH_PTR1(float, modf, __clhls_modf, float)
MATH_PTR1(float, fract, __clhls_fract, float)
MATH_PTR1(float, sincos, __clhls_sincos, float)
MATH_PTR1(float, lgamma_r, __clhls_lgamma, int)

#define MATH_PTR2_(T, f, H, AS)                                                       \
    T OVERLOAD f(T x, T y, AS int *p)                                                  \
    {                                                                                \
        int t;                                                                       \
        T r = H(x, y, &t);                                                           \
        *p = t;                                                                      \
        return r;                                                                    \
    }                                                                                \
    T##2 OVERLOAD f(T##2 x, T##2 y, AS int2 *p)                                        \
    {                                                                                \
        int a, b;                                                                    \
        T##2 r = (T##2)(H(x.s0, y.s0, &a), H(x.s1, y.s1, &b));                        \
        *p = (int2)(a, b);                                                           \
        return r;                                                                    \
    }                                                                                \
    T##3 OVERLOAD f(T##3 x, T##3 y, AS int3 *p)                                        \
    {                                                                                \
        int a, b, c;                                                                 \
        T##3 r = (T##3)(H(x.s0, y.s0, &a), H(x.s1, y.s1, &b), H(x.s2, y.s2, &c));     \
        *p = (int3)(a, b, c);                                                        \
        return r;                                                                    \
    }                                                                                \
    T##4 OVERLOAD f(T##4 x, T##4 y, AS int4 *p)                                        \
    {                                                                                \
        int2 a, b;                                                                   \
        T##4 r = (T##4)(f(x.lo, y.lo, &a), f(x.hi, y.hi, &b));                        \
        *p = (int4)(a, b);                                                           \
        return r;                                                                    \
    }                                                                                \
    T##8 OVERLOAD f(T##8 x, T##8 y, AS int8 *p)                                        \
    {                                                                                \
        int4 a, b;                                                                   \
        T##8 r = (T##8)(f(x.lo, y.lo, &a), f(x.hi, y.hi, &b));                        \
        *p = (int8)(a, b);                                                           \
        return r;                                                                    \
    }                                                                                \
    T##16 OVERLOAD f(T##16 x, T##16 y, AS int16 *p)                                    \
    {                                                                                \
        int8 a, b;                                                                   \
        T##16 r = (T##16)(f(x.lo, y.lo, &a), f(x.hi, y.hi, &b));                      \
        *p = (int16)(a, b);                                                          \
        return r;                                                                    \
    }
#define MATH_PTR2(T, f, H)                                                            \
    MATH_PTR2_(T, f, H, __private) MATH_PTR2_(T, f, H, __global) MATH_PTR2_(T, f, H, __local)
MATH_PTR2(float, remquo, __clhls_remquo)

/* native_ and half_ versions: the full functions. */
#define MATH_ALIAS_1(f, g)                                                            \
    float OVERLOAD f(float x) { return g(x); }                                          \
    VEC_1(float, float, f)
#define MATH_ALIAS_2(f, g)                                                            \
    float OVERLOAD f(float x, float y) { return g(x, y); }                              \
    VEC_2(float, float, f)
MATH_ALIAS_1(native_exp, exp)
MATH_ALIAS_1(native_exp2, exp2)
MATH_ALIAS_1(native_exp10, exp10)
MATH_ALIAS_1(native_log, log)
MATH_ALIAS_1(native_log2, log2)
MATH_ALIAS_1(native_log10, log10)
MATH_ALIAS_2(native_powr, powr)
MATH_ALIAS_1(native_sin, sin)
MATH_ALIAS_1(native_cos, cos)
MATH_ALIAS_1(native_tan, tan)
MATH_ALIAS_1(half_exp, exp)
MATH_ALIAS_1(half_exp2, exp2)
MATH_ALIAS_1(half_exp10, exp10)
MATH_ALIAS_1(half_log, log)
MATH_ALIAS_1(half_log2, log2)
MATH_ALIAS_1(half_log10, log10)
MATH_ALIAS_2(half_powr, powr)
MATH_ALIAS_1(half_sin, sin)
MATH_ALIAS_1(half_cos, cos)
MATH_ALIAS_1(half_tan, tan)
