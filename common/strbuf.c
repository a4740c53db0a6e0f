/* The string buffer (strbuf.h): doubling capacity, formatted appends of any length
 * (vsnprintf sizes the text first). */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Room for extra more bytes and the NUL; 0, or -1 when a lossy buffer has none. */
static int sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->data && sb->len + extra + 1 <= sb->cap)
        return 0;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = sb->lossy ? hls_try_realloc(sb->data, cap) : hls_realloc(sb->data, cap);
    if (!p) {
        sb->lost = 1;
        return -1;
    }
    sb->data = p;
    sb->cap = cap;
    sb->data[sb->len] = '\0';
    return 0;
}

void sb_appendn(strbuf *sb, const char *s, size_t n)
{
    if (sb_reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sb_append(strbuf *sb, const char *s)
{
    sb_appendn(sb, s, strlen(s));
}

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0 || sb_reserve(sb, (size_t)n))
        return;
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *sb_take(strbuf *sb)
{
    sb_reserve(sb, 0);
    char *s = sb->data;
    *sb = (strbuf){0};
    return s;
}

void sb_free(strbuf *sb)
{
    free(sb->data);
    *sb = (strbuf){0};
}
