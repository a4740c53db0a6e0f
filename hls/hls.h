/* The kernel compiler's public interface. `clhls build` (which clBuildProgram runs in a
 * child process) calls hls_build(): OpenCL C source in, a cache entry out (generated
 * Verilog, the program metadata JSON that drives the hardware, and a verilated model
 * library). Separate compilation (`clhls compile`, `clhls link`, for clCompileProgram
 * and clLinkProgram) uses the same call: source to LLVM bitcode (output), bitcode
 * inputs linked to a library (output) or to a cache entry. The model build is a step
 * the caller supplies (hls_model_step): the compiler is below the simulator bridge
 * and knows nothing of Verilator; the `clhls` tool passes the bridge's
 * (tools/model_step.c). */
#ifndef CLHLS_HLS_H
#define CLHLS_HLS_H

#include <stddef.h>

#include "board.h"
#include "fsutil.h" /* hls_cache_root, hls_mkdir_p, hls_remove_tree, hls_version */
#include "strbuf.h"

typedef enum {
    HLS_OK = 0,
    HLS_ERR_COMPILE = -1,   /* the source has an error (clang's or ours): see the log */
    HLS_ERR_UNSUPPORTED = -2, /* the hardware cannot implement a construct: see the log */
    HLS_ERR_OPTIONS = -3,   /* invalid build options */
    HLS_ERR_TOOL = -4,      /* an external tool (clang, Verilator) failed to run */
    HLS_ERR_INTERNAL = -5,  /* a bug in clhls */
} hls_status;

/* What the model build gets: the design, and where its results go. */
typedef struct hls_model_job {
    const char *const *verilog; /* the generated Verilog files, then the RTL templates */
    size_t nverilog;         /* how many */
    const char *top;         /* the top module ("clhls_top") */
    const char *entry;       /* the entry's scratch directory: model.so (and what else the
                                step writes there) becomes part of the entry, which is
                                renamed into place only when whole */
    const char *cache_root;  /* the cache directory, for parts shared by model builds */
    int rtl_operators;       /* -clhls-rtl-operators: simulate the operators' RTL */
    void (*progress)(void *ctx, const char *step); /* the request's progress, or NULL */
    void *progress_ctx;      /* its first argument */
} hls_model_job;

/* build's answer when memory ran out (the compiler then ends as it does out of memory). */
#define HLS_MODEL_OUT_OF_MEMORY (-100)

/* The model build, step 13 of a build (docs/architecture.md): operations the caller
 * supplies, each given the request's model_ctx. */
typedef struct hls_model_step {
    /* Appends to paths, one a line, the files every model build compiles besides the
     * design (the key covers their contents: they are part of the toolchain). */
    void (*sources)(void *ctx, strbuf *paths);
    /* Builds job->entry/model.so; HLS_OK, HLS_ERR_TOOL with the reason appended to log,
     * or HLS_MODEL_OUT_OF_MEMORY. note (note_size bytes) gets a line for this build's
     * log only, not the entry's ("" when none): damage found in the cache and repaired. */
    int (*build)(void *ctx, const hls_model_job *job, strbuf *log, char *note,
                 size_t note_size);
} hls_model_step;

typedef struct hls_build_request {
    const char *source;      /* OpenCL C source text (NUL-terminated) */
    const char *source_name; /* name used in diagnostics, e.g. "vadd.cl" or "<source>" */
    const char *options;     /* build options as given to clBuildProgram (may be NULL) */
    const board_t *board;    /* target board */
    const char *cache_dir;   /* cache root; NULL = $CLHLS_CACHE_DIR or $XDG_CACHE_HOME/clhls */
    int skip_model;          /* 1 = stop after emitting Verilog and metadata */
    const hls_model_step *model; /* the model build; NULL = none (as skip_model) */
    void *model_ctx;         /* the model operations' first argument */
    const char *dump_after;  /* pass name for --dump-after (prints the IR to stdout; the
                                build then bypasses the cache lookup), or NULL */
    const char *const *inputs; /* NULL-terminated LLVM bitcode files (compiled objects,
                                libraries) linked instead of compiling source (source
                                is then NULL), or NULL; their contents are in the key */
    const char *output;      /* write the program's LLVM bitcode here and stop (after the
                                front end, or after linking the inputs): no hardware, no
                                cache entry; or NULL */
    const char *scratch_dir; /* where the build's temporary directory goes (on the cache's
                                file system; the caller removes it after a crash), or
                                NULL for the cache directory */
    void (*progress)(void *ctx, const char *step); /* called as each long step of a
                                build begins ("front end (clang)", "Verilator", ...;
                                a build that ends ends its last step), never on a cache
                                hit; NULL = silent */
    void *progress_ctx;      /* the progress callback's first argument */
} hls_build_request;

typedef struct hls_build_result {
    int status;              /* hls_status */
    char *log;               /* build log (clang diagnostics + ours); never NULL */
    char *entry_dir;         /* cache entry directory on success (NULL with output) */
    char *metadata_path;     /* entry_dir/metadata.json */
    char *model_path;        /* entry_dir/model.so (NULL when skip_model or no model) */
    int cache_hit;           /* 1 when the entry came from the cache */
    double seconds;          /* wall time of the build */
} hls_build_result;

int hls_build(const hls_build_request *request, hls_build_result *result);
/* The RTL template directory: the first of $CLHLS_RTL_DIR, the source tree's and the
 * installed one that holds templates (clhls_*.v); NULL when none does. */
const char *hls_template_dir(void);
void hls_build_result_free(hls_build_result *result);

#endif
