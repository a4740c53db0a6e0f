/* The model build that `clhls` supplies to the compiler (hls_model_step): the simulator
 * bridge's Verilator build, which the compiler, a layer below the bridge, does not link
 * (tools/model_step.c). */
#ifndef CLHLS_TOOLS_MODEL_STEP_H
#define CLHLS_TOOLS_MODEL_STEP_H

#include "hls.h"

/* Every hls_build of the tool passes it (with model_ctx NULL), --no-model builds and
 * `clhls report` and `clhls synth` too: every key of the tool covers the harness,
 * whatever the build makes. */
extern const hls_model_step cli_model_step;

#endif
