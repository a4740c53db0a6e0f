/* The model build of `clhls`'s builds: the compiler's step 13 (hls_model_step), done by
 * the simulator bridge. Verilator builds the design with the harness into
 * ENTRY/model.so (sim_build_model_progress, whose steps are the progress lines
 * "Verilator", "C++ compile of the model", ...; its work directory ENTRY/obj is
 * removed after), and ENTRY/model.json says what that took (docs/user-guide.md,
 * "Building programs"). Verilator's compiled runtime is shared in
 * CACHE/verilated-runtime. The key covers the harness and the operator models, the
 * files sim_harness_file names. */
#include "model_step.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "clhls_sim.h"
#include "fsutil.h"

/* The files every model compiles besides the design, one path a line. */
static void sources(void *ctx, strbuf *paths)
{
    (void)ctx;
    char path[4200];
    for (size_t i = 0; sim_harness_file(i, path, sizeof path) == 0; i++)
        sb_printf(paths, "%s\n", path);
}

/* Writes what building the model took as JSON; 0 on success. */
static int write_model_report(const char *path, const sim_build_stats *st, int rtl_operators)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "operators", rtl_operators ? "rtl" : "c-models");
    cJSON_AddNumberToObject(r, "verilator_seconds", st->verilator_seconds);
    cJSON_AddNumberToObject(r, "cxx_bytes", (double)st->cxx_bytes);
    cJSON_AddNumberToObject(r, "cxx_files", st->cxx_files);
    cJSON_AddNumberToObject(r, "compile_units", st->units);
    cJSON_AddStringToObject(r, "cxx_optimisation", st->opt);
    cJSON_AddNumberToObject(r, "compile_seconds", st->compile_seconds);
    cJSON_AddNumberToObject(r, "link_seconds", st->link_seconds);
    char *text = cJSON_Print(r);
    cJSON_Delete(r);
    int rc = text ? hls_write_text(path, text, 1) : -1;
    cJSON_free(text);
    return rc;
}

static int build(void *ctx, const hls_model_job *job, strbuf *log, char *note,
                 size_t note_size)
{
    (void)ctx;
    char obj[4200], runtime[4200], so[4200], report[4200];
    snprintf(obj, sizeof obj, "%s/obj", job->entry);
    snprintf(runtime, sizeof runtime, "%s/verilated-runtime", job->cache_root);
    snprintf(so, sizeof so, "%s/model.so", job->entry);
    snprintf(report, sizeof report, "%s/model.json", job->entry);
    char *out = NULL;
    sim_build_stats st;
    int rc = HLS_OK;
    int sim = sim_build_model_progress(job->verilog, job->nverilog, job->top, obj, runtime,
                                       so, job->rtl_operators ? SIM_BUILD_RTL_OPERATORS : 0,
                                       job->progress, job->progress_ctx, &out, &st);
    if (sim != SIM_OK && (sim == SIM_ERR_NOMEM || hls_alloc_ran_out())) {
        free(out); /* its text may be lost: out of memory is the reason to give */
        return HLS_MODEL_OUT_OF_MEMORY;
    } else if (sim != SIM_OK) {
        sb_printf(log, "error: building the simulation model failed:\n%s\n", out ? out : "");
        rc = HLS_ERR_TOOL;
    } else if (write_model_report(report, &st, job->rtl_operators)) {
        sb_printf(log, "error: cannot write %s/model.json\n", job->entry);
        rc = HLS_ERR_TOOL;
    }
    if (*st.runtime_damaged)
        snprintf(note, note_size,
                 "clhls: Verilator's compiled runtime in the cache is damaged (%s); "
                 "compiled again\n", st.runtime_damaged);
    else if (note_size)
        *note = '\0';
    free(out);
    hls_remove_tree(obj);
    return rc;
}

const hls_model_step cli_model_step = {.sources = sources, .build = build};
