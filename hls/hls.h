/* The kernel compiler's public interface. clBuildProgram and `clhls build` both call
 * hls_build(): OpenCL C source in, a cache entry out (generated Verilog, the program
 * metadata JSON that drives the hardware, and a verilated model library). */
#ifndef CLHLS_HLS_H
#define CLHLS_HLS_H

#include <stddef.h>

#include "board.h"

typedef enum {
    HLS_OK = 0,
    HLS_ERR_COMPILE = -1,   /* the source has an error (clang's or ours): see the log */
    HLS_ERR_UNSUPPORTED = -2, /* the hardware cannot implement a construct: see the log */
    HLS_ERR_OPTIONS = -3,   /* invalid build options */
    HLS_ERR_TOOL = -4,      /* an external tool (clang, Verilator) failed to run */
    HLS_ERR_INTERNAL = -5,  /* a bug in clhls */
} hls_status;

typedef struct hls_build_request {
    const char *source;      /* OpenCL C source text (NUL-terminated) */
    const char *source_name; /* name used in diagnostics, e.g. "vadd.cl" or "<source>" */
    const char *options;     /* build options as given to clBuildProgram (may be NULL) */
    const board_t *board;    /* target board */
    const char *cache_dir;   /* cache root; NULL = $CLHLS_CACHE_DIR or $XDG_CACHE_HOME/clhls */
    int skip_model;          /* 1 = stop after emitting Verilog and metadata */
    const char *dump_after;  /* pass name for --dump-after (prints the IR to stdout; the
                                build then bypasses the cache lookup), or NULL */
} hls_build_request;

typedef struct hls_build_result {
    int status;              /* hls_status */
    char *log;               /* build log (clang diagnostics + ours); never NULL */
    char *entry_dir;         /* cache entry directory on success */
    char *metadata_path;     /* entry_dir/metadata.json */
    char *model_path;        /* entry_dir/model.so (NULL when skip_model) */
    int cache_hit;           /* 1 when the entry came from the cache */
    double seconds;          /* wall time of the build */
} hls_build_result;

int hls_build(const hls_build_request *request, hls_build_result *result);
void hls_build_result_free(hls_build_result *result);

/* The passes --dump-after can name, in order, NULL-terminated. */
extern const char *const hls_pass_names[];

/* The cache directory: override when given, else $CLHLS_CACHE_DIR, else
 * $XDG_CACHE_HOME/clhls, else ~/.cache/clhls; written into buf. */
const char *hls_cache_root(const char *override, char *buf, size_t len);
/* mkdir -p; 0 on success. */
int hls_mkdir_p(const char *path);
/* rm -rf. */
void hls_remove_tree(const char *path);

/* Version string that is part of every cache key. */
const char *hls_version(void);

#endif
