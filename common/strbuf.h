/* A growing, NUL-terminated string (common/strbuf.c): build logs, generated Verilog,
 * messages. Appends go through the allocation hook (alloc.h). Out of memory ends the
 * process (hls_out_of_memory), as the compiler wants; a buffer marked lossy, for a
 * library that must not end its host program (the simulator bridge's build log),
 * drops the text instead and notes it in `lost`. Zero-initialised is empty. */
#ifndef CLHLS_COMMON_STRBUF_H
#define CLHLS_COMMON_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;   /* NUL-terminated contents (never NULL after the first append, unless lost) */
    size_t len;   /* bytes used */
    size_t cap;   /* bytes allocated */
    int lossy;    /* set by the owner: out of memory loses text instead of ending the process */
    int lost;     /* text was lost (lossy buffers only) */
} strbuf;

void sb_append(strbuf *sb, const char *s);
void sb_appendn(strbuf *sb, const char *s, size_t n);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* Hands over the buffer, "" when empty; NULL only for a lossy one out of memory. */
char *sb_take(strbuf *sb);
void sb_free(strbuf *sb);

#endif
