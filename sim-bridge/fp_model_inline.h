/* fp_model_inline.h: the operator models of fp_model.c as inline functions, for the
 * C++ that Verilator generates. Each per-cycle unit of a model using the C models is
 * compiled with `-include` of this file (sim-bridge/build.c), so that g++ folds a
 * model into the DPI-C wrapper that calls it: a kernel of 256 floating-point
 * operations makes 256 model calls per simulated cycle. Always (always_inline): left
 * to its heuristics, g++ inlined them or not as the generated files happened to fall
 * into units, and one kernel cost twice the instructions of the same kernel under
 * another name. The functions keep their
 * names and C linkage (the declarations Verilator writes in *__Dpi.h match them);
 * fp_model.o still defines every one out of line. Compile with -ffp-contract=off and
 * without fast-math, as fp_model.c says. */
#ifndef CLHLS_FP_MODEL_INLINE_H
#define CLHLS_FP_MODEL_INLINE_H

#define CLHLS_FP_MODEL_LINKAGE inline __attribute__((always_inline))
#include "fp_model.c"

#endif
