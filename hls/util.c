/* Arena and diagnostics shared by the compiler's passes, and the scratch directory that
 * out of memory removes. Diagnostics follow the clang format so that editors and
 * the build log read them the same way: "file:line:col: error: message", then the
 * source line and a caret. Out of memory (real, or injected by the toolchain's hook,
 * common/alloc.h, with CLHLS_FAIL_ALLOC_AFTER=N) ends the compiler cleanly: a message,
 * the build's scratch directory removed, exit status 2. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fsutil.h"

/* The scratch directory of the build under way (hls_build), removed when out of
 * memory ends the compiler; NULL when none. */
static const char *_Atomic oom_scratch;

static void remove_scratch(void)
{
    const char *dir = oom_scratch;
    if (dir)
        hls_remove_tree(dir);
}

void hls_set_scratch(const char *dir)
{
    oom_scratch = dir;
    hls_on_out_of_memory(remove_scratch);
}

struct arena_chunk {
    arena_chunk *next;  /* older chunk */
    size_t used, cap;   /* bytes used / available in data */
    max_align_t data[]; /* storage */
};

void *arena_alloc(arena *a, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    arena_chunk *c = a->chunks;
    if (!c || c->used + size > c->cap) {
        size_t cap = size > 65536 ? size : 65536;
        c = hls_alloc(sizeof *c + cap);
        c->next = a->chunks;
        c->used = 0;
        c->cap = cap;
        a->chunks = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strdup(arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(arena_alloc(a, n), s, n);
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void arena_free(arena *a)
{
    while (a->chunks) {
        arena_chunk *next = a->chunks->next;
        free(a->chunks);
        a->chunks = next;
    }
}

/* Appends line number `line` of the source and a caret under column `col`. */
static void quote_line(strbuf *log, const char *source, unsigned line, unsigned col)
{
    if (!source || !line)
        return;
    const char *p = source;
    for (unsigned i = 1; i < line && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return;
    size_t len = strcspn(p, "\n");
    sb_appendn(log, p, len);
    sb_append(log, "\n");
    if (!col)
        return;
    for (unsigned i = 1; i < col && i <= len; i++)
        sb_append(log, p[i - 1] == '\t' ? "\t" : " ");
    sb_append(log, "^\n");
}

static void report(hls_diag *d, hls_loc loc, const char *kind, const char *fmt, va_list ap)
{
    if (loc.file && loc.line)
        sb_printf(d->log, "%s:%u:%u: %s: ", loc.file, loc.line, loc.col, kind);
    else if (loc.file)
        sb_printf(d->log, "%s: %s: ", loc.file, kind);
    else
        sb_printf(d->log, "%s: ", kind);
    sb_vprintf(d->log, fmt, ap);
    sb_append(d->log, "\n");
    quote_line(d->log, d->source, loc.line, loc.col);
}

void hls_error(hls_diag *d, hls_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "error", fmt, ap);
    va_end(ap);
    d->errors++;
}

void hls_warning(hls_diag *d, hls_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "warning", fmt, ap);
    va_end(ap);
}

void hls_note(hls_diag *d, hls_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "note", fmt, ap);
    va_end(ap);
}

void hls_bug(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "clhls internal error at %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}
