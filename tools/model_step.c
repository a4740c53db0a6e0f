/* The model build of `clhls`'s builds: the compiler's step 13 (hls_model_step), done by
 * the simulator bridge. Verilator builds the design with the harness into
 * ENTRY/model.so (sim_build_model_progress, whose steps are the progress lines
 * "Verilator", "C++ compile of the model", ...; its work directory ENTRY/obj is
 * removed after), and ENTRY/model.json says what that took (docs/user-guide.md,
 * "Building programs"). Verilator's compiled runtime is shared in
 * CACHE/verilated-runtime. The key covers the harness and the operator models, the
 * files sim_harness_file names.
 * The traced variant of an entry's model (CLHLS_WAVES, `clhls build --waves`, `clhls
 * waves-model`) is an entry of its own inside the build's, ENTRY/waves/ (model.so
 * built with SIM_BUILD_WAVES, model.json, its manifest), made from the entry's rtl/ and
 * the templates in a scratch directory of the cache and renamed into place when whole,
 * so the normal model.so stays as it was. The multi-threaded variant (CLHLS_SIM_THREADS,
 * `clhls threads-model ENTRY --threads N`) is made the same way into ENTRY/threadsN/
 * (SIM_BUILD_THREADS(N), "threads": N in its model.json). */
#include "model_step.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "clhls_sim.h"
#include "fsutil.h"
#include "manifest.h"

/* The files every model compiles besides the design, one path a line. */
static void sources(void *ctx, strbuf *paths)
{
    (void)ctx;
    char path[4200];
    for (size_t i = 0; sim_harness_file(i, path, sizeof path) == 0; i++)
        sb_printf(paths, "%s\n", path);
}

/* Writes what building the model took as JSON; 0 on success. */
static int write_model_report(const char *path, const sim_build_stats *st, int rtl_operators,
                              unsigned flags)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "operators", rtl_operators ? "rtl" : "c-models");
    if (flags & SIM_BUILD_WAVES)
        cJSON_AddBoolToObject(r, "waves", 1);
    if (SIM_BUILD_THREADS_OF(flags))
        cJSON_AddNumberToObject(r, "threads", SIM_BUILD_THREADS_OF(flags));
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
    } else if (write_model_report(report, &st, job->rtl_operators, 0)) {
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

/* Whether the entry's model simulates the operators' RTL (its model.json says so). */
static int entry_rtl_operators(const char *entry)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/model.json", entry);
    char *text = hls_read_text(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    const cJSON *ops = cJSON_GetObjectItemCaseSensitive(j, "operators");
    int rtl = cJSON_IsString(ops) && !strcmp(ops->valuestring, "rtl");
    cJSON_Delete(j);
    free(text);
    return rtl;
}

/* Appends to list (n of cap, grown) the files that match pattern; -1 out of memory. */
static int add_matches(const char *pattern, char ***list, size_t *n, size_t *cap)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return 0;
    int rc = 0;
    for (size_t i = 0; i < g.gl_pathc && !rc; i++) {
        if (*n + 1 >= *cap) {
            size_t c = *cap ? 2 * *cap : 64;
            char **l = hls_try_realloc(*list, c * sizeof *l);
            if (!l) {
                rc = -1;
                break;
            }
            *list = l;
            *cap = c;
        }
        if (!((*list)[*n] = hls_try_strdup(g.gl_pathv[i])))
            rc = -1;
        else
            (*list)[++*n] = NULL;
    }
    globfree(&g);
    return rc;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A variant of an entry's model: where it goes and what it is called. */
typedef struct model_variant {
    const char *subdir;  /* its directory in the entry: "waves", "threads4", ... */
    const char *name;    /* "traced", "threaded": in messages */
    unsigned flags;      /* its SIM_BUILD_* flags (besides the operators') */
} model_variant;

/* Builds variant v of the model of cache entry `entry` into ENTRY/<v->subdir>/, as
 * cli_build_waves_model says. */
static int build_variant(const char *entry, const model_variant *v, const char *scratch,
                         void (*progress)(void *ctx, const char *step), void *ctx,
                         strbuf *log, char *dir, size_t dir_size, int *cache_hit)
{
    char why[512], probe[4200];
    *cache_hit = 0;
    if (hls_path_join(dir, dir_size, entry, v->subdir)) {
        sb_printf(log, "clhls: path too long: %s\n", entry);
        return HLS_ERR_TOOL;
    }
    snprintf(probe, sizeof probe, "%s/metadata.json", entry);
    if (access(probe, R_OK) != 0) {
        sb_printf(log, "clhls: %s is not a build's cache entry (no metadata.json)\n", entry);
        return HLS_ERR_OPTIONS;
    }
    snprintf(probe, sizeof probe, "%s/model.so", entry);
    if (access(probe, R_OK) != 0) {
        sb_printf(log, "clhls: %s has no simulation model (built with --no-model, or a "
                       "program without kernels): there is nothing to %s\n", entry,
                  v->flags & SIM_BUILD_WAVES ? "trace" : "build it from");
        return HLS_ERR_OPTIONS;
    }
    int usable = hls_entry_usable(dir, "model.so", why, sizeof why);
    if (usable > 0) {
        *cache_hit = 1;
        return HLS_OK;
    }
    if (usable < 0) {
        sb_printf(log, "clhls: cannot check %s: %s\n", dir, why);
        return HLS_ERR_TOOL;
    }
    if (*why)
        sb_printf(log, "clhls: the %s model in the cache was damaged (%s); built again\n",
                  v->name, why);
    const char *templates = hls_template_dir(); /* as the compiler finds them */
    if (!templates) {
        sb_printf(log, "clhls: the RTL templates were not found (CLHLS_RTL_DIR)\n");
        return HLS_ERR_TOOL;
    }
    /* the design: the entry's generated Verilog, then the templates */
    char **files = NULL, pattern[4300];
    size_t n = 0, cap = 0;
    snprintf(pattern, sizeof pattern, "%s/rtl/*.v", entry);
    int rc = add_matches(pattern, &files, &n, &cap);
    size_t generated = n;
    snprintf(pattern, sizeof pattern, "%s/clhls_*.v", templates);
    if (!rc)
        rc = add_matches(pattern, &files, &n, &cap);
    char root[4096], tmp[4400], runtime[4200], obj[4500], so[4500], report[4500];
    hls_cache_root(NULL, root, sizeof root);
    snprintf(tmp, sizeof tmp, "%s/tmp-%s-XXXXXX", scratch ? scratch : root, v->subdir);
    if (rc) {
        sb_printf(log, "clhls: out of memory\n");
        rc = HLS_ERR_TOOL;
    } else if (generated == 0) {
        sb_printf(log, "clhls: %s/rtl has no Verilog to build the %s model from\n", entry,
                  v->name);
        rc = HLS_ERR_TOOL;
    } else if (hls_mkdir_p(scratch ? scratch : root) || !mkdtemp(tmp)) {
        sb_printf(log, "clhls: cannot create a directory in %s: %s\n", scratch ? scratch : root,
                  strerror(errno));
        rc = HLS_ERR_TOOL;
    } else {
        int rtl = entry_rtl_operators(entry);
        snprintf(runtime, sizeof runtime, "%s/verilated-runtime", root);
        snprintf(obj, sizeof obj, "%s/obj", tmp);
        snprintf(so, sizeof so, "%s/model.so", tmp);
        snprintf(report, sizeof report, "%s/model.json", tmp);
        char *out = NULL;
        sim_build_stats st;
        double t = now_seconds();
        unsigned flags = v->flags | (rtl ? SIM_BUILD_RTL_OPERATORS : 0);
        int sim = sim_build_model_progress((const char *const *)files, n, "clhls_top", obj,
                                           runtime, so, flags, progress, ctx, &out, &st);
        hls_remove_tree(obj);
        if (sim != SIM_OK) {
            sb_printf(log, "error: building the %s simulation model failed:\n%s\n", v->name,
                      out ? out : "");
            rc = HLS_ERR_TOOL;
        } else if (write_model_report(report, &st, rtl, flags) || hls_manifest_write(tmp)) {
            sb_printf(log, "clhls: cannot write the %s model's files in %s: %s\n", v->name,
                      tmp, strerror(errno));
            rc = HLS_ERR_TOOL;
        } else if (hls_entry_publish(tmp, dir, "model.so", why, sizeof why)) {
            sb_printf(log, "clhls: %s\n", why);
            rc = HLS_ERR_TOOL;
        } else {
            sb_printf(log, "clhls: %s model built in %.1f s (Verilator %.1f s, C++ %.1f s)\n",
                      v->name, now_seconds() - t, st.verilator_seconds, st.compile_seconds);
        }
        free(out);
        if (rc)
            hls_remove_tree(tmp);
    }
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}

int cli_build_waves_model(const char *entry, const char *scratch,
                          void (*progress)(void *ctx, const char *step), void *ctx,
                          strbuf *log, char *dir, size_t dir_size, int *cache_hit)
{
    const model_variant traced = {"waves", "traced", SIM_BUILD_WAVES};
    return build_variant(entry, &traced, scratch, progress, ctx, log, dir, dir_size, cache_hit);
}

int cli_build_threads_model(const char *entry, unsigned threads, const char *scratch,
                            void (*progress)(void *ctx, const char *step), void *ctx,
                            strbuf *log, char *dir, size_t dir_size, int *cache_hit)
{
    *cache_hit = 0;
    if (threads < 2 || threads > SIM_MAX_THREADS) {
        sb_printf(log, "clhls: --threads %u: a threaded model has 2 to %u threads\n", threads,
                  SIM_MAX_THREADS);
        return HLS_ERR_OPTIONS;
    }
    char subdir[32];
    snprintf(subdir, sizeof subdir, "threads%u", threads);
    const model_variant threaded = {subdir, "threaded", SIM_BUILD_THREADS(threads)};
    return build_variant(entry, &threaded, scratch, progress, ctx, log, dir, dir_size,
                         cache_hit);
}
