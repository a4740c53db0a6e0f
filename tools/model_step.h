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

/* Builds the traced variant of the model of cache entry `entry` (a build's, or a
 * program binary's bin-HASH) into ENTRY/waves/ (model.so with SIM_BUILD_WAVES,
 * model.json, manifest.json), unless a whole one is there (*cache_hit = 1). Its scratch
 * directory goes into scratch (NULL: the cache root). dir gets ENTRY/waves. progress is
 * called as the model build's steps begin (may be NULL); log gets the reasons of a
 * failure. HLS_OK, HLS_ERR_OPTIONS (not an entry with a model) or HLS_ERR_TOOL. */
int cli_build_waves_model(const char *entry, const char *scratch,
                          void (*progress)(void *ctx, const char *step), void *ctx,
                          strbuf *log, char *dir, size_t dir_size, int *cache_hit);

/* The same for the multi-threaded variant of `threads` threads (2..SIM_MAX_THREADS:
 * Verilator's --threads, CLHLS_SIM_THREADS) into ENTRY/threads<threads>/; dir gets that
 * directory. HLS_ERR_OPTIONS also for a thread count out of range. */
int cli_build_threads_model(const char *entry, unsigned threads, const char *scratch,
                            void (*progress)(void *ctx, const char *step), void *ctx,
                            strbuf *log, char *dir, size_t dir_size, int *cache_hit);

#endif
