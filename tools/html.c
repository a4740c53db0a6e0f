/* Writing an HTML page (tools/html.h): every piece of text goes through the escaping
 * writers here, and markup is written only by them, so nothing a source or a kernel
 * name holds can break the page. */
#include "html.h"

#include <stdarg.h>
#include <stdio.h>

/* Markup the caller wrote itself (literal tags and attributes, numbers). */
void html_put(html_page *p, const char *markup)
{
    fputs(markup, p->out);
}

void html_putf(html_page *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
}

/* Text, escaped for element content and quoted attribute values alike. */
void html_text(html_page *p, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", p->out); break;
        case '<': fputs("&lt;", p->out); break;
        case '>': fputs("&gt;", p->out); break;
        case '"': fputs("&quot;", p->out); break;
        case '\'': fputs("&#39;", p->out); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
                fputc('?', p->out); /* no control characters in the page */
            else
                fputc(*s, p->out);
        }
    }
}

void html_textf(html_page *p, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    html_text(p, buf);
}

/* <tag class="cls">text</tag> (cls may be NULL). */
void html_elem(html_page *p, const char *tag, const char *cls, const char *s)
{
    html_putf(p, cls ? "<%s class=\"%s\">" : "<%s>", tag, cls);
    html_text(p, s);
    html_putf(p, "</%s>", tag);
}

/* html_elem of the text fmt and ap make (at most 1023 bytes). */
static void velem(html_page *p, const char *tag, const char *cls, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    html_elem(p, tag, cls, buf);
}

void html_elemf(html_page *p, const char *tag, const char *cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    velem(p, tag, cls, fmt, ap);
    va_end(ap);
}

/* A table's header row from a NULL-terminated list of column names. */
void html_table_begin(html_page *p, const char *cls, const char *const *columns)
{
    html_putf(p, "<table class=\"%s\"><thead><tr>", cls);
    for (; *columns; columns++)
        html_elem(p, "th", NULL, *columns);
    html_put(p, "</tr></thead><tbody>\n");
}

void html_table_end(html_page *p)
{
    html_put(p, "</tbody></table>\n");
}

/* One cell of text. */
void html_cell(html_page *p, const char *s)
{
    html_elem(p, "td", NULL, s);
}

void html_cellf(html_page *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    velem(p, "td", NULL, fmt, ap);
    va_end(ap);
}

/* A note: a paragraph in a coloured box (kind: "info", "warn" or "good"). */
void html_note(html_page *p, const char *kind, const char *s)
{
    html_putf(p, "<p class=\"note %s\">", kind);
    html_text(p, s);
    html_put(p, "</p>\n");
}

/* <text> in an SVG, escaped. */
void html_svg_text(html_page *p, double x, double y, const char *cls, const char *s)
{
    html_putf(p, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x, y, cls);
    html_text(p, s);
    html_put(p, "</text>");
}

void html_svg_textf(html_page *p, double x, double y, const char *cls, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    html_svg_text(p, x, y, cls, buf);
}

/* A tooltip for the SVG element just opened. */
void html_svg_title(html_page *p, const char *s)
{
    html_put(p, "<title>");
    html_text(p, s);
    html_put(p, "</title>");
}
