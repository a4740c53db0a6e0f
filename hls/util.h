/* Small shared helpers of the compiler: an arena per compilation, source locations and
 * diagnostics with file:line:col and a caret; its allocations (hls_alloc, which ends
 * the compiler when out of memory) and string buffers come from the base library
 * (common/alloc.h, common/strbuf.h). */
#ifndef CLHLS_HLS_UTIL_H
#define CLHLS_HLS_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "alloc.h"
#include "strbuf.h"

/* The build's scratch directory, removed when out of memory ends the compiler
 * (hls_out_of_memory); NULL when there is none. */
void hls_set_scratch(const char *dir);

typedef struct arena_chunk arena_chunk;
typedef struct arena {
    arena_chunk *chunks; /* newest first */
} arena;

void *arena_alloc(arena *a, size_t size);          /* zeroed memory */
char *arena_strdup(arena *a, const char *s);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(arena *a);

typedef struct hls_loc {
    const char *file; /* source file name as the user knows it */
    unsigned line;    /* 1-based, 0 when unknown */
    unsigned col;     /* 1-based, 0 when unknown */
} hls_loc;

/* The diagnostics of one build: the log and the source to quote lines from. */
typedef struct hls_diag {
    strbuf *log;         /* where messages go */
    const char *source;  /* source text, for the quoted line */
    int errors;          /* errors reported */
} hls_diag;

/* "file:line:col: error: message", the source line and a caret under the column. */
void hls_error(hls_diag *d, hls_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void hls_warning(hls_diag *d, hls_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void hls_note(hls_diag *d, hls_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Internal bugs: abort loudly with the place. */
#define HLS_BUG(...) hls_bug(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void hls_bug(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
