// clhls_sim_models.vh: DPI-C imports of the operators' C models (sim-bridge/fp_model.h,
// fp_model.c), for simulation only.
//
// Each arithmetic operator template (clhls_fadd, clhls_fmul, clhls_fma, clhls_fdiv,
// clhls_fsqrt, clhls_fcmp, clhls_itofp, clhls_fptoi, clhls_ftod, clhls_dtof,
// clhls_idiv) includes this file inside its module when CLHLS_SIM_MODELS is defined
// and computes its result with the model instead of its RTL datapath (the models
// equal the RTL bit for bit: the template tests check the RTL against vectors made by
// the same C code). Module-scope imports, so the file is included once per module and
// has no include guard. DPI types: int unsigned = uint32_t, longint unsigned =
// uint64_t (Verilator declares unsigned long long, the same 64-bit integer),
// byte unsigned and bit = uint8_t, int = int; operands and results narrower than
// their type are zero-extended. The binary32 models' `normal` is the template's
// SIM_NORMAL: bit i set, operand i is never subnormal, so the model need not flush it
// (a constant at each call, so it costs nothing once the model is inlined).

// clhls_fadd: a + b, or a - b when sub = 1.
import "DPI-C" pure function int unsigned clhls_model_fadd32(
    input int unsigned a, input int unsigned b, input bit sub, input byte unsigned normal);
import "DPI-C" pure function longint unsigned clhls_model_fadd64(
    input longint unsigned a, input longint unsigned b, input bit sub);
// clhls_fmul: a * b.
import "DPI-C" pure function int unsigned clhls_model_fmul32(
    input int unsigned a, input int unsigned b, input byte unsigned normal);
import "DPI-C" pure function longint unsigned clhls_model_fmul64(
    input longint unsigned a, input longint unsigned b);
// clhls_fdiv: a / b.
import "DPI-C" pure function int unsigned clhls_model_fdiv32(
    input int unsigned a, input int unsigned b, input byte unsigned normal);
import "DPI-C" pure function longint unsigned clhls_model_fdiv64(
    input longint unsigned a, input longint unsigned b);
// clhls_fsqrt: sqrt(a).
import "DPI-C" pure function int unsigned clhls_model_fsqrt32(
    input int unsigned a, input byte unsigned normal);
import "DPI-C" pure function longint unsigned clhls_model_fsqrt64(input longint unsigned a);
// clhls_fma: a * b + c, one rounding.
import "DPI-C" pure function int unsigned clhls_model_fma32(
    input int unsigned a, input int unsigned b, input int unsigned c,
    input byte unsigned normal);
import "DPI-C" pure function longint unsigned clhls_model_fma64(
    input longint unsigned a, input longint unsigned b, input longint unsigned c);
// clhls_fcmp: a pred b (pred: the 4-bit LLVM FCmp predicate, zero-extended).
import "DPI-C" pure function bit clhls_model_fcmp32(
    input int unsigned a, input int unsigned b, input byte unsigned pred,
    input byte unsigned normal);
import "DPI-C" pure function bit clhls_model_fcmp64(
    input longint unsigned a, input longint unsigned b, input byte unsigned pred);
// clhls_itofp: the in_w-bit integer a (zero-extended) to binary32 or binary64.
import "DPI-C" pure function int unsigned clhls_model_itofp32(
    input longint unsigned a, input int in_w, input int is_signed);
import "DPI-C" pure function longint unsigned clhls_model_itofp64(
    input longint unsigned a, input int in_w, input int is_signed);
// clhls_fptoi: a to an out_w-bit integer (zero-extended result).
import "DPI-C" pure function longint unsigned clhls_model_fptoi32(
    input int unsigned a, input int out_w, input int is_signed);
import "DPI-C" pure function longint unsigned clhls_model_fptoi64(
    input longint unsigned a, input int out_w, input int is_signed);
// clhls_ftod and clhls_dtof.
import "DPI-C" pure function longint unsigned clhls_model_ftod(input int unsigned a);
import "DPI-C" pure function int unsigned clhls_model_dtof(input longint unsigned a);
// clhls_idiv: quotient and remainder of width-bit integers (zero-extended).
import "DPI-C" pure function longint unsigned clhls_model_idiv_q(
    input longint unsigned a, input longint unsigned b, input int width, input int is_signed);
import "DPI-C" pure function longint unsigned clhls_model_idiv_r(
    input longint unsigned a, input longint unsigned b, input int width, input int is_signed);
