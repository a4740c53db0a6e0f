/* Writing one self-contained HTML page (tools/html.c), as `clhls report` does: markup
 * the caller wrote itself, and text, which every writer but html_put and html_putf
 * escapes for element content and quoted attribute values alike. */
#ifndef CLHLS_TOOLS_HTML_H
#define CLHLS_TOOLS_HTML_H

#include <stdio.h>

/* The page being written. */
typedef struct html_page {
    FILE *out;                  /* the HTML file */
} html_page;

/* Markup as it is (literal tags and attributes, numbers). */
void html_put(html_page *p, const char *markup);
void html_putf(html_page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text, escaped (control characters become '?'). */
void html_text(html_page *p, const char *s);
void html_textf(html_page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* <tag class="cls">text</tag> (cls may be NULL). */
void html_elem(html_page *p, const char *tag, const char *cls, const char *s);
void html_elemf(html_page *p, const char *tag, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A table of class cls with a header row of columns (NULL-terminated); its end. */
void html_table_begin(html_page *p, const char *cls, const char *const *columns);
void html_table_end(html_page *p);
/* One cell of text. */
void html_cell(html_page *p, const char *s);
void html_cellf(html_page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A paragraph in a coloured box (kind: "info", "warn" or "good"). */
void html_note(html_page *p, const char *kind, const char *s);
/* <text> in an SVG at x, y, escaped. */
void html_svg_text(html_page *p, double x, double y, const char *cls, const char *s);
void html_svg_textf(html_page *p, double x, double y, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A tooltip for the SVG element just opened. */
void html_svg_title(html_page *p, const char *s);

#endif
