/* `clhls report FILE.cl --board NAME -o report.html`: builds the program the way
 * `clhls build` does (without the simulation model) and writes one self-contained HTML
 * page (inline CSS and SVG, no script, nothing fetched) that shows what the compiler
 * built and why: per kernel the region graph and the CFG's blocks (loops with their
 * credits and latency, stall points), the load-store units, local memories with their
 * banks and predicted conflicts, barrier and collective units, operators; the
 * resources against the board's capacity from `clhls synth` when it ran (else what
 * the compiler knows); the source annotated with the hardware each line produced; the
 * hardware counters of the last run. It reads the cache entry's report.json
 * (hls/emit_report.c), metadata.json, synth/<board>/synth.json and last_run.json
 * (host-runtime/last_run.c); the last two may come from another entry of the same
 * source, board and options (a host program's build through the ICD names its source
 * "<source>", which makes another entry). Every piece of text goes through the
 * escaping helpers below; markup is written only by them. */
#define _GNU_SOURCE
#include "report.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "board.h"
#include "cli.h"
#include "hls.h"

/* ---- writing HTML ---- */

/* The page being written. */
typedef struct page {
    FILE *out;                  /* the HTML file */
} page;

/* Markup the caller wrote itself (literal tags and attributes, numbers). */
static void put(page *p, const char *markup)
{
    fputs(markup, p->out);
}

static void putf(page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(page *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
}

/* Text, escaped for element content and quoted attribute values alike. */
static void text(page *p, const char *s)
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

static void textf(page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void textf(page *p, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    text(p, buf);
}

/* <tag class="cls">text</tag> (cls may be NULL). */
static void elem(page *p, const char *tag, const char *cls, const char *s)
{
    putf(p, cls ? "<%s class=\"%s\">" : "<%s>", tag, cls);
    text(p, s);
    putf(p, "</%s>", tag);
}

static void elemf(page *p, const char *tag, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void elemf(page *p, const char *tag, const char *cls, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    elem(p, tag, cls, buf);
}

/* A table's header row from a NULL-terminated list of column names. */
static void table_begin(page *p, const char *cls, const char *const *columns)
{
    putf(p, "<table class=\"%s\"><thead><tr>", cls);
    for (; *columns; columns++)
        elem(p, "th", NULL, *columns);
    put(p, "</tr></thead><tbody>\n");
}

static void table_end(page *p)
{
    put(p, "</tbody></table>\n");
}

/* One cell of text. */
static void cell(page *p, const char *s)
{
    elem(p, "td", NULL, s);
}

static void cellf(page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cellf(page *p, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    elem(p, "td", NULL, buf);
}

/* A note: a paragraph in a coloured box (kind: "info", "warn" or "good"). */
static void note(page *p, const char *kind, const char *s)
{
    putf(p, "<p class=\"note %s\">", kind);
    text(p, s);
    put(p, "</p>\n");
}

/* <text> in an SVG, escaped. */
static void svg_text(page *p, double x, double y, const char *cls, const char *s)
{
    putf(p, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x, y, cls);
    text(p, s);
    put(p, "</text>");
}

static void svg_textf(page *p, double x, double y, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void svg_textf(page *p, double x, double y, const char *cls, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    svg_text(p, x, y, cls, buf);
}

/* A tooltip for the SVG element just opened. */
static void svg_title(page *p, const char *s)
{
    put(p, "<title>");
    text(p, s);
    put(p, "</title>");
}

/* ---- reading JSON ---- */

static cJSON *load_json(const char *path)
{
    char *text = hls_read_text(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    return j;
}

static double num(const cJSON *o, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

static const char *str(const cJSON *o, const char *key, const char *fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : fallback;
}

static int flag(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static const cJSON *item(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* ---- what the report is made of ---- */

typedef struct report {
    const char *source_name;    /* the source file's name as given */
    const char *source;         /* its text */
    const char *options;        /* build options ("" when none) */
    const board_t *board;       /* the board built for */
    const char *entry;          /* the cache entry */
    cJSON *rep;                 /* report.json */
    cJSON *meta;                /* metadata.json */
    cJSON *synth;               /* synth/<board>/synth.json, or NULL */
    cJSON *last;                /* last_run.json, or NULL */
    char last_entry[4096];      /* the entry last_run.json came from */
    char synth_entry[4096];     /* the entry synth.json came from */
    char **lines;               /* the source's lines */
    int nlines;                 /* how many */
} report;

/* 1 when the entry dir was built from the same source, board and options. */
static int same_program(const report *r, const char *dir)
{
    char path[4400];
    cJSON *rep = hls_path_join(path, sizeof path, dir, "report.json") ? NULL : load_json(path);
    cJSON *meta = hls_path_join(path, sizeof path, dir, "metadata.json") ? NULL : load_json(path);
    int same = 0;
    const char *name = str(rep, "source_name", NULL);
    if (rep && meta && name && !strchr(name, '/') &&
        !strcmp(str(meta, "board", ""), r->board->name) &&
        !strcmp(str(meta, "options", ""), r->options)) {
        char *src = hls_path_join(path, sizeof path, dir, name) ? NULL : hls_read_text(path);
        same = src && !strcmp(src, r->source);
        free(src);
    }
    cJSON_Delete(rep);
    cJSON_Delete(meta);
    return same;
}

/* The newest file `rel` of the entry or of another entry of the same program in the
 * cache; its entry goes to found (when given). NULL when there is none. */
static cJSON *find_in_cache(const report *r, const char *rel, char *found, size_t len)
{
    char path[8800], best[4400] = "";
    struct stat st;
    time_t best_time = 0;
    snprintf(path, sizeof path, "%s/%s", r->entry, rel);
    if (stat(path, &st) == 0) {
        snprintf(best, sizeof best, "%s", r->entry);
        best_time = st.st_mtime;
    }
    char root[4096];
    snprintf(root, sizeof root, "%s", r->entry);
    char *slash = strrchr(root, '/');
    DIR *d = slash ? (*slash = '\0', opendir(root)) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || !strncmp(e->d_name, "tmp-", 4))
            continue;
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        snprintf(path, sizeof path, "%s/%s", dir, rel);
        if (strcmp(dir, r->entry) && stat(path, &st) == 0 && st.st_mtime > best_time &&
            same_program(r, dir)) {
            snprintf(best, sizeof best, "%s", dir);
            best_time = st.st_mtime;
        }
    }
    if (d)
        closedir(d);
    if (!*best)
        return NULL;
    if (found)
        snprintf(found, len, "%s", best);
    snprintf(path, sizeof path, "%s/%s", best, rel);
    return load_json(path);
}

static void split_lines(report *r)
{
    int cap = 64;
    r->lines = malloc(sizeof *r->lines * (size_t)cap);
    const char *s = r->source;
    while (*s) {
        const char *end = strchr(s, '\n');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (r->nlines == cap) {
            cap *= 2;
            r->lines = realloc(r->lines, sizeof *r->lines * (size_t)cap);
        }
        r->lines[r->nlines++] = strndup(s, n);
        s += n + (end != NULL);
    }
}

/* The kernel's entry in metadata.json. */
static const cJSON *kernel_meta(const report *r, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, item(r->meta, "kernels"))
        if (!strcmp(str(k, "name", ""), name))
            return k;
    return NULL;
}

static const cJSON *region_by_id(const cJSON *kernel, int id)
{
    const cJSON *rg;
    cJSON_ArrayForEach(rg, item(kernel, "regions"))
        if ((int)num(rg, "id", -1) == id)
            return rg;
    return NULL;
}

/* "b0, b2" from a list of block ids. */
static void block_list(const cJSON *blocks, char *buf, size_t len)
{
    size_t n = 0;
    const cJSON *b;
    buf[0] = '\0';
    cJSON_ArrayForEach(b, blocks)
        if (n + 16 < len)
            n += (size_t)snprintf(buf + n, len - n, "%sb%d", n ? ", " : "", (int)b->valuedouble);
}

static void line_range(const cJSON *o, char *buf, size_t len)
{
    int first = (int)num(o, "first_line", 0), last = (int)num(o, "last_line", 0);
    if (!first)
        snprintf(buf, len, "no source line");
    else if (first == last)
        snprintf(buf, len, "line %d", first);
    else
        snprintf(buf, len, "lines %d-%d", first, last);
}

/* ---- the region graph: a layered layout of the region tree ---- */

#define NODE_W 330.0     /* width of a static region's or a barrier's box */
#define NODE_H 62.0      /* its height */
#define GAP 28.0         /* vertical space between boxes (the arrow) */
#define LOOP_HEAD 44.0   /* a loop frame's label band */
#define LOOP_PAD 14.0    /* its padding */
#define LOOP_LANE 46.0   /* its back edge's lane on the right */
#define PILL_H 24.0      /* the generator and retire pills */

typedef struct extent {
    double w, h;         /* width and height of a region's drawing */
} extent;

static extent measure(const cJSON *kernel, const cJSON *rg)
{
    const char *kind = str(rg, "kind", "");
    if (!strcmp(kind, "static") || !strcmp(kind, "barrier") || !strcmp(kind, "memory"))
        return (extent){NODE_W, NODE_H};
    extent e = {0, 0};
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, item(rg, "children")) {
        extent ce = measure(kernel, region_by_id(kernel, (int)c->valuedouble));
        e.w = ce.w > e.w ? ce.w : e.w;
        e.h += ce.h + (n++ ? GAP : 0);
    }
    if (!strcmp(kind, "loop")) {
        e.w = (e.w > NODE_W ? e.w : NODE_W) + 2 * LOOP_PAD + LOOP_LANE;
        e.h += LOOP_HEAD + LOOP_PAD;
    }
    return e;
}

static void arrow(page *p, double x, double y0, double y1)
{
    putf(p, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"edge\" "
            "marker-end=\"url(#arrow)\"/>", x, y0, x, y1 - 2);
}

/* Draws the region centred at cx from y; returns its height. */
static double draw_region(page *p, const cJSON *kernel, const cJSON *rg, double cx, double y)
{
    const char *kind = str(rg, "kind", "");
    int id = (int)num(rg, "id", 0);
    char blocks[256], lines[64];
    block_list(item(rg, "blocks"), blocks, sizeof blocks);
    line_range(rg, lines, sizeof lines);
    const cJSON *stalls = item(rg, "stall_points");
    int nstalls = cJSON_GetArraySize(stalls);
    if (!strcmp(kind, "static") || !strcmp(kind, "barrier") || !strcmp(kind, "memory")) {
        int barrier = !strcmp(kind, "barrier"), memory = !strcmp(kind, "memory");
        int stall_free = flag(rg, "stall_free");
        double x = cx - NODE_W / 2;
        putf(p, "<g class=\"node %s\">",
             barrier ? "barrier" : memory ? "memory" : stall_free ? "stall-free" : "stall-enable");
        char tip[2048];
        size_t n = (size_t)snprintf(tip, sizeof tip, "region %d (%s)", id, kind);
        const cJSON *s;
        cJSON_ArrayForEach(s, stalls)
            if (n + 100 < sizeof tip)
                n += (size_t)snprintf(tip + n, sizeof tip - n, "\nstall point: %s (line %d)",
                                      str(s, "what", ""), (int)num(s, "line", 0));
        svg_title(p, tip);
        putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%d\"/>", x, y,
             NODE_W, NODE_H, barrier ? 16 : 6);
        if (barrier) {
            const cJSON *bar = NULL, *b;
            cJSON_ArrayForEach(b, item(kernel, "barriers"))
                if ((int)num(b, "region", -1) == id)
                    bar = b;
            svg_textf(p, x + 10, y + 18, "title", "region %d: barrier unit, line %d", id,
                      (int)num(rg, "line", 0));
            svg_textf(p, x + 10, y + 36, "detail", "%d slots x %d entries of %d bits",
                      (int)num(bar, "slots", 0), (int)num(bar, "entries_per_slot", 0),
                      (int)num(bar, "entry_bits", 0));
            const char *coll = str(bar, "collective", NULL);
            svg_textf(p, x + 10, y + 53, "detail", "%s%s",
                      coll ? "work-group function: " : "released in local-id order",
                      coll ? coll : "");
        } else if (memory) {
            int n = (int)num(rg, "ops", 0);
            svg_textf(p, x + 10, y + 18, "title", "region %d: memory node, %d access%s", id, n,
                      n == 1 ? "" : "es");
            svg_textf(p, x + 10, y + 36, "detail", "%s | %s", *blocks ? blocks : "-", lines);
            svg_textf(p, x + 10, y + 53, "detail", "requests issue together, token FIFO %d",
                      (int)num(rg, "token_fifo", 0));
        } else {
            svg_textf(p, x + 10, y + 18, "title", "region %d: static, %d stages", id,
                      (int)num(rg, "depth", 0) + 1);
            svg_textf(p, x + 10, y + 36, "detail", "%s | %s | %d ops", *blocks ? blocks : "-",
                      lines, (int)num(rg, "ops", 0));
            svg_textf(p, x + 10, y + 53, "detail", "%s, exit FIFO %d",
                      stall_free ? "stall-free cluster" : "stall enable",
                      (int)num(rg, "exit_fifo", 0));
        }
        if (nstalls) { /* a badge: where work-items may wait */
            putf(p, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"11\" class=\"stall\"/>", x + NODE_W - 16,
                 y + 16);
            svg_textf(p, x + NODE_W - 16, y + 20, "badge", "%d", nstalls);
        }
        put(p, "</g>\n");
        return NODE_H;
    }
    int loop = !strcmp(kind, "loop");
    extent e = measure(kernel, rg);
    double inner_cx = loop ? cx - LOOP_LANE / 2 : cx, yy = y + (loop ? LOOP_HEAD : 0);
    if (loop) {
        double x = cx - e.w / 2;
        put(p, "<g class=\"loop\">");
        char tip[256];
        snprintf(tip, sizeof tip, "loop at line %d: at most %d work-items inside (credits), "
                 "%d cycles around (latency), back-edge FIFO %d entries; the barrier units "
                 "inside hold %d", (int)num(rg, "line", 0), (int)num(rg, "credits", 0),
                 (int)num(rg, "latency", 0), (int)num(rg, "back_fifo", 0),
                 (int)num(rg, "barrier_hold", 0));
        svg_title(p, tip);
        putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"10\"/>", x, y,
             e.w, e.h);
        svg_textf(p, x + 12, y + 18, "title", "region %d: loop at line %d (%s)", id,
                  (int)num(rg, "line", 0), blocks);
        svg_textf(p, x + 12, y + 35, "detail", "credits %d | latency %d | back-edge FIFO %d",
                  (int)num(rg, "credits", 0), (int)num(rg, "latency", 0),
                  (int)num(rg, "back_fifo", 0));
        put(p, "</g>\n");
    }
    const cJSON *c;
    int first = 1;
    double child_top = yy, last_bottom = yy, first_w = NODE_W;
    cJSON_ArrayForEach(c, item(rg, "children")) {
        const cJSON *child = region_by_id(kernel, (int)c->valuedouble);
        if (first)
            first_w = measure(kernel, child).w;
        else {
            arrow(p, inner_cx, yy, yy + GAP);
            yy += GAP;
        }
        double h = draw_region(p, kernel, child, inner_cx, yy);
        last_bottom = yy + h;
        yy += h;
        first = 0;
    }
    if (loop && !first) { /* the back edge: from the body's end round to its start */
        double lane = cx + e.w / 2 - LOOP_LANE / 2;
        putf(p, "<path class=\"back-edge\" d=\"M %.1f %.1f V %.1f H %.1f V %.1f H %.1f\" "
                "marker-end=\"url(#arrow-back)\"/>", inner_cx, last_bottom, last_bottom + 8,
             lane, child_top + 14, inner_cx + first_w / 2 + 3);
        putf(p, "<text class=\"lane\" transform=\"translate(%.1f %.1f) rotate(-90)\">",
             lane + 13, (child_top + last_bottom) / 2 + 4);
        textf(p, last_bottom - child_top < 110 ? "FIFO %d" : "back edge, FIFO %d",
              (int)num(rg, "back_fifo", 0));
        put(p, "</text>");
    }
    return loop ? e.h : yy - y;
}

/* Arrow heads shared by the graphs of the page: defined once, in an SVG of no size at
 * the top of the body (ids are unique in a document). */
static void svg_defs(page *p)
{
    put(p, "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
           "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
           "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
           "<path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"arrow-head\"/></marker>"
           "<marker id=\"arrow-back\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
           "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
           "<path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"arrow-back-head\"/></marker></defs></svg>\n");
}

static void region_graph(page *p, const cJSON *kernel)
{
    const cJSON *body = region_by_id(kernel, 0);
    if (!body)
        return;
    extent e = measure(kernel, body);
    double w = (e.w > NODE_W ? e.w : NODE_W) + 40, cx = w / 2;
    double h = e.h + 2 * (PILL_H + GAP) + 20;
    putf(p, "<svg class=\"region-graph\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">", w, h, w, h);
    double y = 10;
    putf(p, "<g class=\"pill\"><rect x=\"%.1f\" y=\"%.1f\" width=\"290\" height=\"%.0f\" "
            "rx=\"12\"/>",
         cx - 145, y, PILL_H);
    svg_text(p, cx, y + 16, "pill-text", "work-group dispatch, work-item generator");
    put(p, "</g>");
    y += PILL_H;
    arrow(p, cx, y, y + GAP);
    y += GAP;
    y += draw_region(p, kernel, body, cx, y);
    arrow(p, cx, y, y + GAP);
    y += GAP;
    putf(p, "<g class=\"pill\"><rect x=\"%.1f\" y=\"%.1f\" width=\"290\" height=\"%.0f\" "
            "rx=\"12\"/>",
         cx - 145, y, PILL_H);
    svg_text(p, cx, y + 16, "pill-text", "work-items retire");
    put(p, "</g></svg>\n");
}

/* ---- the CFG: blocks in layers (longest forward path from the entry) ---- */

#define BLOCK_W 86.0     /* a block's box */
#define BLOCK_H 36.0
#define BLOCK_GAP_X 26.0 /* between blocks of a layer */
#define LAYER_H 70.0     /* from layer to layer */

static void cfg_graph(page *p, const cJSON *kernel)
{
    const cJSON *blocks = item(kernel, "blocks");
    int n = cJSON_GetArraySize(blocks);
    if (n <= 0)
        return;
    int *rpo = calloc((size_t)n, sizeof *rpo), *order = calloc((size_t)n, sizeof *order);
    int *layer = calloc((size_t)n, sizeof *layer), *slot = calloc((size_t)n, sizeof *slot);
    int *width = calloc((size_t)n + 1, sizeof *width);
    for (int b = 0; b < n; b++) {
        rpo[b] = (int)num(cJSON_GetArrayItem(blocks, b), "rpo", b);
        if (rpo[b] < 0 || rpo[b] >= n)
            rpo[b] = b;
        order[rpo[b]] = b;
    }
    /* layers: in reverse post-order every forward edge's source comes first */
    int layers = 1;
    for (int i = 0; i < n; i++) {
        int b = order[i];
        const cJSON *s;
        cJSON_ArrayForEach(s, item(cJSON_GetArrayItem(blocks, b), "succ")) {
            int t = (int)s->valuedouble;
            if (t >= 0 && t < n && rpo[t] > rpo[b] && layer[t] < layer[b] + 1)
                layer[t] = layer[b] + 1;
        }
    }
    for (int i = 0; i < n; i++) {
        int b = order[i];
        slot[b] = width[layer[b]]++;
        if (layer[b] + 1 > layers)
            layers = layer[b] + 1;
    }
    int widest = 1;
    for (int l = 0; l < layers; l++)
        widest = width[l] > widest ? width[l] : widest;
    /* margins: long edges bulge out left, back edges right */
    double w = widest * (BLOCK_W + BLOCK_GAP_X) + 140, h = layers * LAYER_H + 10;
    double *bx = calloc((size_t)n, sizeof *bx), *by = calloc((size_t)n, sizeof *by);
    for (int b = 0; b < n; b++) {
        double row = width[layer[b]] * (BLOCK_W + BLOCK_GAP_X) - BLOCK_GAP_X;
        bx[b] = 70 + (w - 140 - row) / 2 + slot[b] * (BLOCK_W + BLOCK_GAP_X);
        by[b] = 10 + layer[b] * LAYER_H;
    }
    putf(p, "<svg class=\"cfg-graph\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">", w, h, w, h);
    for (int b = 0; b < n; b++) { /* edges first, boxes over them */
        const cJSON *s;
        cJSON_ArrayForEach(s, item(cJSON_GetArrayItem(blocks, b), "succ")) {
            int t = (int)s->valuedouble;
            if (t < 0 || t >= n)
                continue;
            double x0 = bx[b] + BLOCK_W / 2, y0 = by[b] + BLOCK_H;
            double x1 = bx[t] + BLOCK_W / 2, y1 = by[t];
            if (rpo[t] > rpo[b] && layer[t] == layer[b] + 1)
                putf(p, "<path class=\"edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f %.1f\" "
                        "marker-end=\"url(#arrow)\"/>", x0, y0, x0, y0 + 24, x1, y1 - 24, x1,
                     y1 - 2);
            else if (rpo[t] > rpo[b]) { /* past other layers: round their left side,
                                            the longer the wider */
                int span = layer[t] - layer[b];
                double out = span * 14.0 + 28 < 66 ? span * 14.0 + 28 : 66;
                putf(p, "<path class=\"edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f %.1f\" "
                        "marker-end=\"url(#arrow)\"/>", bx[b] + 6, y0, bx[b] - out, y0 + 40,
                     bx[t] - out, y1 - 40, bx[t] + 6, y1 - 2);
            }
            else if (t == b) /* a block that loops on itself */
                putf(p, "<path class=\"back-edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f "
                        "%.1f\" marker-end=\"url(#arrow-back)\"/>", bx[b] + BLOCK_W, by[b] + 8,
                     bx[b] + BLOCK_W + 40, by[b] - 12, bx[b] + BLOCK_W + 40, by[b] + BLOCK_H + 12,
                     bx[b] + BLOCK_W + 2, by[b] + BLOCK_H - 8);
            else /* a back edge: round the right side, up to the header */
                putf(p, "<path class=\"back-edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f "
                        "%.1f\" marker-end=\"url(#arrow-back)\"/>", bx[b] + BLOCK_W,
                     by[b] + BLOCK_H / 2, bx[b] + BLOCK_W + 50, by[b] + BLOCK_H / 2,
                     bx[t] + BLOCK_W + 50, by[t] + BLOCK_H / 2, bx[t] + BLOCK_W + 2,
                     by[t] + BLOCK_H / 2);
        }
    }
    for (int b = 0; b < n; b++) {
        const cJSON *blk = cJSON_GetArrayItem(blocks, b);
        int loop = (int)num(blk, "loop", -1);
        char lines[64], tip[160];
        line_range(blk, lines, sizeof lines);
        if (num(blk, "ops", 0) == 0)
            snprintf(lines, sizeof lines, "empty");
        snprintf(tip, sizeof tip, "block b%d: %s, %d ops, ends in %s%s", b, lines,
                 (int)num(blk, "ops", 0), str(blk, "term", "?"),
                 loop >= 0 ? ", inside a loop" : "");
        putf(p, "<g class=\"block loop%d\">", loop < 0 ? 0 : 1 + loop % 4);
        svg_title(p, tip);
        putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" rx=\"5\"/>", bx[b],
             by[b], BLOCK_W, BLOCK_H);
        svg_textf(p, bx[b] + BLOCK_W / 2, by[b] + 15, "block-title", "b%d", b);
        svg_text(p, bx[b] + BLOCK_W / 2, by[b] + 29, "block-detail", lines);
        put(p, "</g>");
    }
    put(p, "</svg>\n");
    free(rpo);
    free(order);
    free(layer);
    free(slot);
    free(width);
    free(bx);
    free(by);
}

/* ---- bar charts ---- */

/* One bar of a chart: a label, segments (value and CSS class) and the scale's end. */
typedef struct bar {
    char label[64];             /* left of the bar */
    double value[8];            /* segment lengths, in the chart's unit */
    const char *cls[8];         /* their CSS classes */
    int nseg;                   /* segments */
    double scale;               /* the value the full bar width stands for */
    char note[96];              /* right of the bar */
} bar;

static void bar_chart(page *p, const char *cls, const bar *bars, int n)
{
    double label_w = 150, bar_w = 420, note_w = 230, row = 30;
    double w = label_w + bar_w + note_w, h = n * row + 8;
    putf(p, "<svg class=\"bar-chart %s\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">", cls, w, h, w, h);
    for (int i = 0; i < n; i++) {
        const bar *b = &bars[i];
        double y = 4 + i * row;
        svg_text(p, label_w - 10, y + 18, "bar-label", b->label);
        putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" class=\"bar-track\"/>",
             label_w, y + 4, bar_w);
        double x = label_w;
        for (int s = 0; s < b->nseg; s++) {
            double len = b->scale > 0 ? bar_w * b->value[s] / b->scale : 0;
            if (len > label_w + bar_w - x)
                len = label_w + bar_w - x;
            if (len > 0 && len < 1.5)
                len = 1.5; /* something used is visible */
            if (len <= 0)
                continue;
            putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" class=\"%s\">", x,
                 y + 4, len, b->cls[s]);
            svg_title(p, b->label);
            put(p, "</rect>");
            x += len;
        }
        svg_text(p, label_w + bar_w + 10, y + 18, "bar-note", b->note);
    }
    put(p, "</svg>\n");
}

/* ---- counting operators ---- */

#define MAX_KINDS 64

typedef struct op_count {
    char kind[24];              /* opcode name */
    int count;                  /* operators of that kind (wires excluded) */
} op_count;

/* Operators of a kernel (all of them when line is 0, else those of the line) by
 * kind (with by_width: kind and bit width, "mul i32"), most frequent first; wires
 * (logic, extensions, constant shifts) counted apart. Returns the number of kinds. */
static int count_operators_as(const cJSON *kernel, int line, int by_width, op_count *out,
                              int *wires)
{
    int n = 0;
    *wires = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, item(kernel, "operators")) {
        if (line && (int)num(o, "line", 0) != line)
            continue;
        if (flag(o, "wiring")) {
            ++*wires;
            continue;
        }
        char kind[24];
        const char *opcode = str(o, "kind", "?");
        /* a comparison's width is its 1-bit result: not worth telling apart */
        if (by_width && strcmp(opcode, "icmp") && strcmp(opcode, "fcmp"))
            snprintf(kind, sizeof kind, "%s, %d bits", opcode, (int)num(o, "width", 0));
        else
            snprintf(kind, sizeof kind, "%s", str(o, "kind", "?"));
        int i = 0;
        while (i < n && strcmp(out[i].kind, kind))
            i++;
        if (i == n && n < MAX_KINDS) {
            snprintf(out[n].kind, sizeof out[0].kind, "%s", kind);
            out[n++].count = 0;
        }
        if (i < n)
            out[i].count++;
    }
    for (int i = 1; i < n; i++) /* insertion sort: most first */
        for (int j = i; j > 0 && out[j].count > out[j - 1].count; j--) {
            op_count t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static int count_operators(const cJSON *kernel, int line, op_count *out, int *wires)
{
    return count_operators_as(kernel, line, 0, out, wires);
}

/* Bits of all the kernel's FIFOs (entries x entry bits). */
static double fifo_bits(const cJSON *kernel, int *count)
{
    double bits = 0;
    *count = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, item(kernel, "fifos")) {
        bits += num(f, "depth", 0) * num(f, "bits", 0);
        ++*count;
    }
    return bits;
}

static int count_kind(const cJSON *kernel, const char *kind)
{
    int n = 0;
    const cJSON *rg;
    cJSON_ArrayForEach(rg, item(kernel, "regions"))
        n += !strcmp(str(rg, "kind", ""), kind);
    return n;
}

/* ---- the page's parts ---- */

static const char *const style =
    "*{box-sizing:border-box}"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2433;"
    "background:#f3f5f9;margin:0}"
    "header{background:#1f2a44;color:#fff;padding:18px 32px}"
    "header h1{margin:0;font-size:22px;font-weight:600}"
    "header .sub{color:#b8c3dc;margin-top:4px;font-size:13px}"
    "nav{background:#fff;border-bottom:1px solid #dde2ec;padding:8px 32px;position:sticky;top:0;"
    "z-index:2}"
    "nav a{margin-right:18px;color:#2f5bd3;text-decoration:none;font-weight:500}"
    "main{padding:8px 32px 40px;max-width:1320px}"
    "section{background:#fff;border:1px solid #dde2ec;border-radius:10px;padding:16px 22px;"
    "margin:18px 0}"
    "h2{margin:0 0 12px;font-size:18px}h3{margin:18px 0 8px;font-size:15px;color:#33415c}"
    "code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,monospace;font-size:12.5px}"
    ".cards{display:flex;flex-wrap:wrap;gap:12px}"
    ".card{border:1px solid #dde2ec;border-radius:8px;padding:10px 14px;min-width:150px;"
    "background:#fafbfd}"
    ".card .k{color:#5b6780;font-size:12px}.card .v{font-size:20px;font-weight:600}"
    "table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}"
    "th,td{border-bottom:1px solid #e6e9f0;padding:5px 10px;text-align:left;vertical-align:top}"
    "th{background:#f5f7fb;color:#4a5672;font-weight:600}"
    "td.num,th.num{text-align:right}"
    ".lsus td:first-child,.lsus td:last-child{white-space:nowrap}td.mono{max-width:320px}"
    ".note{border-radius:8px;padding:10px 14px;margin:10px 0}"
    ".note.info{background:#eef3ff;border:1px solid #c9d6fb}"
    ".note.warn{background:#fff6e5;border:1px solid #f3d9a4}"
    ".note.good{background:#eaf8ef;border:1px solid #bfe5cc}"
    ".tag{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;"
    "margin:1px 4px 1px 0;"
    "white-space:nowrap}"
    ".tag.op{background:#eceff5;color:#3d4760}.tag.lsu{background:#e3ecff;color:#1f47b5}"
    ".tag.local{background:#dff5f1;color:#0f6e5e}.tag.loop{background:#fff0dc;color:#9a5400}"
    ".tag.barrier{background:#f1e6ff;color:#6a2fb3}.tag.kernel{background:#1f2a44;color:#fff}"
    ".tag.bad{background:#fde4e4;color:#a4161a}.tag.ok{background:#e3f6e9;color:#1b6b3a}"
    ".graphs{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}"
    ".graphs figure{margin:0}.graphs figcaption{color:#5b6780;font-size:12px;margin-top:4px;"
    "max-width:440px}"
    "svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}"
    ".node rect{stroke-width:1.4}"
    ".node.stall-free rect{fill:#e8f7ee;stroke:#3c9a5f}"
    ".node.stall-enable rect{fill:#fff5e6;stroke:#d08a1e}"
    ".node.barrier rect{fill:#f3eaff;stroke:#8a4fd6}"
    ".node.memory rect{fill:#e3ecff;stroke:#1f47b5}"
    ".node .title,.loop .title{font-size:12.5px;font-weight:600;fill:#1d2433}"
    ".node .detail,.loop .detail{font-size:11.5px;fill:#4a5672}"
    ".loop rect{fill:#f2f6ff;fill-opacity:.55;stroke:#5679d8;stroke-dasharray:6 4;stroke-width:1.4}"
    ".stall{fill:#d64545}.badge{fill:#fff;font-size:11px;font-weight:700;text-anchor:middle}"
    ".edge{stroke:#7a869e;stroke-width:1.5;fill:none}"
    ".back-edge{stroke:#5679d8;stroke-width:1.8;fill:none;stroke-dasharray:5 3}"
    ".arrow-head{fill:#7a869e}.arrow-back-head{fill:#5679d8}"
    ".lane{font-size:11px;fill:#3557b7;font-weight:600;text-anchor:middle}"
    ".pill rect{fill:#1f2a44}.pill-text{fill:#fff;font-size:11.5px;text-anchor:middle}"
    ".block rect{fill:#fff;stroke:#7a869e;stroke-width:1.3}"
    ".block.loop1 rect{fill:#eef3ff;stroke:#5679d8}.block.loop2 rect{fill:#fff3e0;stroke:#d08a1e}"
    ".block.loop3 rect{fill:#eaf8ef;stroke:#3c9a5f}.block.loop4 rect{fill:#f6ecff;stroke:#8a4fd6}"
    ".block-title{font-size:12px;font-weight:600;text-anchor:middle;fill:#1d2433}"
    ".block-detail{font-size:10.5px;text-anchor:middle;fill:#4a5672}"
    ".bar-label{font-size:12.5px;text-anchor:end;fill:#33415c}"
    ".bar-note{font-size:12px;fill:#4a5672}.bar-track{fill:#eef1f6}"
    ".seg0{fill:#4c78d8}.seg1{fill:#e8a33d}.seg2{fill:#4bab6e}.seg3{fill:#a46ad8}"
    ".seg-other{fill:#a7b1c4}.seg-over{fill:#d64545}"
    ".legend span{display:inline-block;width:11px;height:11px;border-radius:2px;"
    "margin:0 5px 0 12px;"
    "vertical-align:-1px}"
    "table.source{width:100%;border:1px solid #e6e9f0}"
    "table.source td{border:none;padding:1px 8px}"
    "table.source td.ln{color:#8a94a8;text-align:right;width:42px;user-select:none}"
    "table.source td.code{white-space:pre;font-family:ui-monospace,'DejaVu Sans Mono',Menlo,"
    "monospace;font-size:12.5px;width:52%}"
    "table.source tr.hw td{background:#fbfcff}table.source tr.hw td.code{border-left:3px solid "
    "#4c78d8}"
    "ul.findings{padding-left:4px;list-style:none;margin:6px 0}ul.findings li{margin:4px 0}"
    "footer{color:#8a94a8;font-size:12px;padding:0 32px 30px}";

static void write_head(page *p, const report *r)
{
    put(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width\">");
    put(p, "<title>");
    textf(p, "clhls report: %s on %s", r->source_name, r->board->name);
    put(p, "</title><style>");
    put(p, style);
    put(p, "</style></head>\n<body>\n");
    svg_defs(p);
    put(p, "<header>");
    elemf(p, "h1", NULL, "clhls report: %s", r->source_name);
    put(p, "<div class=\"sub\">");
    textf(p, "board %s (%s %s, %g MHz target) | clhls %s | %s%s%s | entry %s",
          r->board->name, r->board->vendor ? r->board->vendor : "?",
          r->board->part ? r->board->part : "?", r->board->clock_mhz,
          str(r->rep, "tool_version", "?"), *r->options ? "options \"" : "no build options",
          r->options, *r->options ? "\"" : "", r->entry);
    put(p, "</div></header>\n<nav>");
    put(p, "<a href=\"#summary\">Summary</a><a href=\"#resources\">Resources</a>");
    const cJSON *k;
    cJSON_ArrayForEach(k, item(r->rep, "kernels")) {
        put(p, "<a href=\"#kernel-");
        text(p, str(k, "name", ""));
        put(p, "\">");
        textf(p, "kernel %s", str(k, "name", ""));
        put(p, "</a>");
    }
    put(p, "<a href=\"#last-run\">Last run</a><a href=\"#source\">Source</a></nav>\n<main>\n");
}

static void card(page *p, const char *key, const char *value)
{
    put(p, "<div class=\"card\">");
    elem(p, "div", "k", key);
    elem(p, "div", "v", value);
    put(p, "</div>");
}

static void write_findings(page *p, const report *r);

static void write_summary(page *p, const report *r)
{
    put(p, "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"cards\">");
    char buf[128];
    snprintf(buf, sizeof buf, "%d", cJSON_GetArraySize(item(r->rep, "kernels")));
    card(p, "kernels", buf);
    snprintf(buf, sizeof buf, "%g MHz", r->board->clock_mhz);
    card(p, "clock target", buf);
    if (r->synth) {
        const char *kind = str(r->synth, "fmax_kind", "estimate");
        snprintf(buf, sizeof buf, "%.1f MHz%s", num(r->synth, "fmax_mhz", 0),
                 strcmp(kind, "routed") ? " (estimate)" : " (routed)");
        card(p, "fmax", buf);
        card(p, "fits the board", flag(r->synth, "fits") ? "yes" : "no");
    } else {
        card(p, "fmax", "not synthesized");
    }
    card(p, "last run", r->last ? "recorded" : "none");
    put(p, "</div>\n");
    table_begin(p, "kernels", (const char *const[]){"kernel", "pipeline stages", "loops",
                "load-store units", "local memories", "barrier units", "operators", NULL});
    const cJSON *k;
    cJSON_ArrayForEach(k, item(r->rep, "kernels")) {
        put(p, "<tr><td><a href=\"#kernel-");
        text(p, str(k, "name", ""));
        put(p, "\">");
        text(p, str(k, "name", ""));
        put(p, "</a></td>");
        op_count kinds[MAX_KINDS];
        int wires, nk = count_operators(k, 0, kinds, &wires), ops = 0;
        for (int i = 0; i < nk; i++)
            ops += kinds[i].count;
        cellf(p, "%d", (int)num(k, "pipeline_depth", 0));
        cellf(p, "%d", count_kind(k, "loop"));
        cellf(p, "%d", cJSON_GetArraySize(item(k, "lsus")));
        cellf(p, "%d", cJSON_GetArraySize(item(k, "local_memories")));
        cellf(p, "%d", cJSON_GetArraySize(item(k, "barriers")));
        cellf(p, "%d (+%d wires)", ops, wires);
        put(p, "</tr>\n");
    }
    table_end(p);
    write_findings(p, r);
    put(p, "</section>\n");
}

static const char *const resource_keys[] = {"lut", "ff", "bram", "dsp"};
static const char *const resource_names[] = {"LUTs", "flip-flops", "block RAMs", "DSP blocks"};

/* The synthesis module of a kernel's compute unit (report.json's kernel k), or NULL. */
static const cJSON *cu_module(const cJSON *modules, const cJSON *k)
{
    char name[300];
    snprintf(name, sizeof name, "clhls_cu_%s", str(k, "unit", str(k, "name", "")));
    const cJSON *m = item(modules, name);
    if (m)
        return m;
    cJSON_ArrayForEach(m, modules) { /* a tool may decorate module names */
        if (m->string && strstr(m->string, name))
            return m;
    }
    return NULL;
}

static void write_synthesis(page *p, const report *r)
{
    const cJSON *res = item(r->synth, "resources"), *modules = item(r->synth, "modules");
    const char *kind = str(r->synth, "fmax_kind", "estimate");
    int routed = !strcmp(kind, "routed");
    put(p, "<div class=\"cards\">");
    char buf[128];
    snprintf(buf, sizeof buf, "%.1f MHz", num(r->synth, "fmax_mhz", 0));
    card(p, routed ? "fmax (placed and routed)" : "fmax (estimate)", buf);
    card(p, "fits the board", flag(r->synth, "fits") ? "yes" : "no");
    snprintf(buf, sizeof buf, "%.1f s", num(r->synth, "seconds", 0));
    card(p, "synthesis time", buf);
    card(p, "tool", str(r->synth, "tool", "?"));
    put(p, "</div>\n");
    if (!routed)
        note(p, "info", "fmax is an estimate from synthesis (no place and route for this "
                        "board): the routed design may be slower.");
    char msg[300];
    if (num(r->synth, "fmax_mhz", 0) > 0 && num(r->synth, "fmax_mhz", 0) < r->board->clock_mhz) {
        snprintf(msg, sizeof msg, "The fmax is below the board's clock target of %g MHz: the "
                 "critical path below is the one to shorten.", r->board->clock_mhz);
        note(p, "warn", msg);
    }
    if (!flag(r->synth, "fits"))
        note(p, "warn", "The design does not fit the board: see the resources below.");
    put(p, "<p>From <code>");
    textf(p, "%s/synth/%s/synth.json", r->synth_entry, r->board->name);
    put(p, strcmp(r->synth_entry, r->entry) ? "</code> (an earlier build of the same source, "
                                              "board and options).</p>\n" : "</code>.</p>\n");
    const cJSON *cp = item(r->synth, "critical_path");
    if (cp) {
        put(p, "<p>Critical path: from the ");
        text(p, str(cp, "from_where", "?"));
        put(p, " to the ");
        text(p, str(cp, "to_where", "?"));
        putf(p, ", %d logic levels (<code>", (int)num(cp, "levels", 0));
        text(p, str(cp, "from", "?"));
        put(p, "</code> to <code>");
        text(p, str(cp, "to", "?"));
        put(p, "</code>).</p>\n");
    }
    /* one bar per resource: each compute unit, the rest of the accelerator */
    bar bars[4];
    memset(bars, 0, sizeof bars);
    const cJSON *kernels = item(r->rep, "kernels"), *k;
    int units = 0; /* compute units the synthesis kept as modules (none when flattened) */
    cJSON_ArrayForEach(k, kernels)
        units += cu_module(modules, k) != NULL;
    for (int i = 0; i < 4; i++) {
        const cJSON *rr = item(res, resource_keys[i]);
        double used = num(rr, "used", 0), cap = num(rr, "capacity", 0), cus = 0;
        bar *b = &bars[i];
        snprintf(b->label, sizeof b->label, "%s", resource_names[i]);
        b->scale = cap > 0 ? cap : used;
        int s = 0;
        cJSON_ArrayForEach(k, kernels) {
            const cJSON *m = cu_module(modules, k);
            if (m && s < 4) {
                b->value[s] = num(m, resource_keys[i], 0);
                b->cls[s] = (const char *[]){"seg0", "seg1", "seg2", "seg3"}[s];
                cus += b->value[s++];
            }
        }
        b->value[s] = used > cus ? used - cus : 0;
        b->cls[s++] = cap > 0 && used > cap ? "seg-over" : units ? "seg-other" : "seg0";
        b->nseg = s;
        snprintf(b->note, sizeof b->note, "%.0f of %.0f (%.1f%%)", used, cap,
                 cap > 0 ? 100.0 * used / cap : 0);
    }
    bar_chart(p, "resources-total", bars, 4);
    if (!units) {
        note(p, "info", "The synthesis flattened the design: it reports the whole accelerator "
                        "only, not each kernel's compute unit.");
        return;
    }
    /* the same, each bar the accelerator's own use: where the resources go */
    put(p, "<h3>Share of the accelerator</h3>\n");
    for (int i = 0; i < 4; i++) {
        double used = 0;
        for (int s = 0; s < bars[i].nseg; s++)
            used += bars[i].value[s];
        bars[i].scale = used;
        size_t n = 0;
        bars[i].note[0] = '\0';
        for (int s = 0; s + 1 < bars[i].nseg && n + 12 < sizeof bars[i].note; s++)
            n += (size_t)snprintf(bars[i].note + n, sizeof bars[i].note - n, "%s%.0f%%",
                                  s ? ", " : "compute units ", used > 0 ?
                                  100 * bars[i].value[s] / used : 0);
    }
    bar_chart(p, "resources-share", bars, 4);
    put(p, "<div class=\"legend\">");
    int s = 0;
    cJSON_ArrayForEach(k, kernels)
        if (cu_module(modules, k) && s < 4) {
            putf(p, "<span class=\"seg%d\" style=\"background:%s\"></span>", s,
                 (const char *[]){"#4c78d8", "#e8a33d", "#4bab6e", "#a46ad8"}[s]);
            textf(p, "compute unit of %s", str(k, "name", ""));
            s++;
        }
    put(p, "<span style=\"background:#a7b1c4\"></span>rest of the accelerator (top, "
           "interconnect)</div>\n");
    put(p, "<h3>Per compute unit</h3>\n");
    table_begin(p, "per-cu", (const char *const[]){"kernel", "module", "LUTs", "flip-flops",
                "block RAMs", "DSP blocks", NULL});
    cJSON_ArrayForEach(k, kernels) {
        const cJSON *m = cu_module(modules, k);
        put(p, "<tr>");
        cell(p, str(k, "name", ""));
        cell(p, m && m->string ? m->string : "(not in the synthesis results)");
        for (int i = 0; i < 4; i++) {
            double cap = num(item(res, resource_keys[i]), "capacity", 0);
            double v = num(m, resource_keys[i], 0);
            if (m)
                cellf(p, "%.0f (%.2f%%)", v, cap > 0 ? 100 * v / cap : 0);
            else
                cell(p, "-");
        }
        put(p, "</tr>\n");
    }
    put(p, "<tr><td><b>total</b></td><td>the whole accelerator</td>");
    for (int i = 0; i < 4; i++) {
        const cJSON *rr = item(res, resource_keys[i]);
        cellf(p, "%.0f of %.0f", num(rr, "used", 0), num(rr, "capacity", 0));
    }
    put(p, "</tr>\n");
    table_end(p);
}

/* What the compiler knows about the size of the hardware, synthesis or not. */
static void write_compiler_view(page *p, const report *r)
{
    put(p, "<h3>What the compiler built</h3>\n");
    table_begin(p, "compiler-view", (const char *const[]){"kernel", "pipeline stages",
                "operators (wires)", "operators by kind", "FIFOs", "FIFO bits", "load-store units",
                "local memory (bytes x copies, banks)", "barrier RAM entries", NULL});
    const cJSON *k;
    cJSON_ArrayForEach(k, item(r->rep, "kernels")) {
        op_count kinds[MAX_KINDS];
        int wires, nk = count_operators(k, 0, kinds, &wires), ops = 0, nfifo;
        for (int i = 0; i < nk; i++)
            ops += kinds[i].count;
        double bits = fifo_bits(k, &nfifo);
        put(p, "<tr>");
        cell(p, str(k, "name", ""));
        cellf(p, "%d", (int)num(k, "pipeline_depth", 0));
        cellf(p, "%d (%d)", ops, wires);
        char by_kind[512] = "-";
        size_t len = 0;
        for (int i = 0; i < nk && len + 40 < sizeof by_kind; i++)
            len += (size_t)snprintf(by_kind + len, sizeof by_kind - len, "%s%s %d", i ? ", " : "",
                                    kinds[i].kind, kinds[i].count);
        cell(p, by_kind);
        cellf(p, "%d", nfifo);
        cellf(p, "%.0f", bits);
        cellf(p, "%d", cJSON_GetArraySize(item(k, "lsus")));
        char mem[256] = "-";
        size_t n = 0;
        const cJSON *m;
        cJSON_ArrayForEach(m, item(k, "local_memories"))
            if (n + 80 < sizeof mem)
                n += (size_t)snprintf(mem + n, sizeof mem - n, "%s%s: %.0f x %d, %d banks",
                                      n ? "; " : "", str(m, "name", "?"), num(m, "copy_bytes", 0),
                                      (int)num(m, "copies", 0), (int)num(m, "banks", 0));
        cell(p, mem);
        double entries = 0;
        const cJSON *b;
        cJSON_ArrayForEach(b, item(k, "barriers"))
            entries += num(b, "slots", 0) * num(b, "entries_per_slot", 0);
        cellf(p, "%.0f", entries);
        put(p, "</tr>\n");
    }
    table_end(p);
}

static void write_resources(page *p, const report *r)
{
    put(p, "<section id=\"resources\"><h2>Resources</h2>\n");
    if (r->synth) {
        write_synthesis(p, r);
    } else {
        char msg[600];
        snprintf(msg, sizeof msg, "No synthesis results for board %s yet. Run `clhls synth %s "
                 "--board %s` and write this report again to see LUTs, flip-flops, block RAMs "
                 "and DSP blocks against the board's capacity, and the fmax. Until then, what "
                 "the compiler knows:", r->board->name, r->source_name, r->board->name);
        note(p, "warn", msg);
    }
    write_compiler_view(p, r);
    put(p, "</section>\n");
}

/* Where an access executes: its memory node, or a static region's stage (a table in
 * ROM) with its latency. */
static void where_cell(page *p, const cJSON *access)
{
    if (item(access, "stage"))
        cellf(p, "region %d, stage %d (+%d)", (int)num(access, "region", 0),
              (int)num(access, "stage", 0), (int)num(access, "latency", 0));
    else
        cellf(p, "memory node %d", (int)num(access, "region", 0));
}

/* Where work-items may wait, region by region (the graph's red badges). */
static void write_stall_points(page *p, const report *r, const cJSON *k)
{
    int shown = 0;
    const cJSON *rg;
    cJSON_ArrayForEach(rg, item(k, "regions")) {
        const cJSON *s;
        cJSON_ArrayForEach(s, item(rg, "stall_points")) {
            if (!shown++) {
                put(p, "<h3>Stall points</h3>\n");
                table_begin(p, "stall-points", (const char *const[]){"region", "where work-items "
                            "may wait", "line", "source", NULL});
            }
            int line = (int)num(s, "line", 0);
            put(p, "<tr>");
            cellf(p, "%d (%s)", (int)num(rg, "id", 0), str(rg, "kind", ""));
            cell(p, str(s, "what", ""));
            cellf(p, "%d", line);
            put(p, "<td class=\"mono\">");
            text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
            put(p, "</td></tr>\n");
        }
    }
    if (shown)
        table_end(p);
}

static void write_loops(page *p, const cJSON *k)
{
    if (!count_kind(k, "loop"))
        return;
    put(p, "<h3>Loops</h3>\n");
    table_begin(p, "loops", (const char *const[]){"region", "line", "nesting", "blocks",
                "latency (cycles around)", "credits (work-items inside)", "back-edge FIFO",
                "barriers hold", "token bits", NULL});
    const cJSON *rg;
    cJSON_ArrayForEach(rg, item(k, "regions")) {
        if (strcmp(str(rg, "kind", ""), "loop"))
            continue;
        char blocks[256];
        block_list(item(rg, "blocks"), blocks, sizeof blocks);
        put(p, "<tr>");
        cellf(p, "%d", (int)num(rg, "id", 0));
        cellf(p, "%d", (int)num(rg, "line", 0));
        cellf(p, "%d", (int)num(rg, "nesting", 0));
        cell(p, blocks);
        cellf(p, "%d", (int)num(rg, "latency", 0));
        cellf(p, "%d", (int)num(rg, "credits", 0));
        cellf(p, "%d", (int)num(rg, "back_fifo", 0));
        cellf(p, "%d", (int)num(rg, "barrier_hold", 0));
        cellf(p, "%d", (int)num(rg, "token_bits", 0));
        put(p, "</tr>\n");
    }
    table_end(p);
    put(p, "<p>A loop admits at most <i>credits</i> work-items; with credits at least the "
           "latency it starts one iteration per cycle, and with the back-edge FIFO as deep as "
           "the credits the back edge always has room, so the loop cannot deadlock.</p>\n");
}

static void pattern_text(const cJSON *o, char *buf, size_t len)
{
    const char *pat = str(o, "pattern", "irregular");
    if (!strcmp(pat, "strided"))
        snprintf(buf, len, "strided, %.0f bytes", num(o, "stride_bytes", 0));
    else if (!strcmp(pat, "uniform"))
        snprintf(buf, len, "uniform (one address)");
    else if (!strcmp(pat, "consecutive"))
        snprintf(buf, len, "consecutive");
    else
        snprintf(buf, len, "irregular");
}

static void write_lsus(page *p, const report *r, const cJSON *k)
{
    const cJSON *lsus = item(k, "lsus"), *roms = item(k, "rom_reads");
    put(p, "<h3>Load-store units</h3>\n");
    if (!cJSON_GetArraySize(lsus) && !cJSON_GetArraySize(roms)) {
        put(p, "<p>None: the kernel does not touch global memory.</p>\n");
        return;
    }
    int loads = 0, stores = 0, atomics = 0, bursts = 0, singles = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, lsus) {
        const char *kind = str(l, "kind", "");
        loads += !strcmp(kind, "load");
        stores += !strcmp(kind, "store");
        atomics += !strcmp(kind, "atomic");
        bursts += flag(l, "burst");
        singles += !flag(l, "coalescing");
    }
    put(p, "<p>");
    textf(p, "%d load%s, %d store%s, %d atomic%s; %d burst-coalesced, %d making one memory "
          "request per access; %d read%s from __constant tables in ROM.", loads,
          loads == 1 ? "" : "s", stores, stores == 1 ? "" : "s", atomics, atomics == 1 ? "" : "s",
          bursts, singles, cJSON_GetArraySize(roms), cJSON_GetArraySize(roms) == 1 ? "" : "s");
    put(p, "</p>\n");
    table_begin(p, "lsus", (const char *const[]){"unit", "kind", "memory", "width", "line",
                "source", "unit template", "access pattern", "coalescing",
                "work-items per request", "where", NULL});
    cJSON_ArrayForEach(l, lsus) {
        int line = (int)num(l, "line", 0);
        char pat[64];
        pattern_text(l, pat, sizeof pat);
        put(p, "<tr>");
        cellf(p, "LSU %d", (int)num(l, "index", 0));
        const char *atomic = str(l, "atomic", NULL);
        cellf(p, "%s%s%s%s", str(l, "kind", "?"), atomic ? " " : "", atomic ? atomic : "",
              flag(l, "acknowledged") ? " (acknowledged)" : "");
        cell(p, str(l, "space", "global"));
        cellf(p, "%d bits", (int)num(l, "width_bits", 0));
        cellf(p, "%d", line);
        put(p, "<td class=\"mono\">");
        text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
        put(p, "</td>");
        cell(p, str(l, "unit", "?"));
        cell(p, pat);
        double per = num(l, "work_items_per_request", 1);
        put(p, flag(l, "burst") ? "<td><span class=\"tag ok\">burst-coalesced</span></td>"
               : flag(l, "coalescing")
                   ? "<td><span class=\"tag op\">coalescing, no burst</span></td>"
               : "<td><span class=\"tag bad\">one request per access</span></td>");
        if (per == 0)
            cell(p, "all (one address)");
        else
            cellf(p, "%.4g", per);
        where_cell(p, l);
        put(p, "</tr>\n");
    }
    cJSON_ArrayForEach(l, roms) {
        put(p, "<tr>");
        cell(p, "ROM");
        cell(p, "load");
        cellf(p, "__constant '%s'", str(l, "table", "?"));
        cellf(p, "%d bits", (int)num(l, "width_bits", 0));
        cellf(p, "%d", (int)num(l, "line", 0));
        int line = (int)num(l, "line", 0);
        put(p, "<td class=\"mono\">");
        text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
        put(p, "</td>");
        cell(p, "ROM in the compute unit");
        cell(p, "-");
        cell(p, "no memory request");
        cell(p, "-");
        where_cell(p, l);
        put(p, "</tr>\n");
    }
    table_end(p);
}

static void write_locals(page *p, const report *r, const cJSON *k)
{
    const cJSON *mems = item(k, "local_memories");
    if (!cJSON_GetArraySize(mems))
        return;
    put(p, "<h3>Local memory</h3>\n");
    const cJSON *m;
    cJSON_ArrayForEach(m, mems) {
        const char *pred = str(m, "predicted_conflicts", "possible");
        put(p, "<p>");
        elem(p, "b", NULL, str(m, "name", "?"));
        textf(p, " (%s): %.0f bytes used, %.0f bytes per copy, %d copies (one per work-group "
              "slot), %d banks of %d-bit words%s. Predicted bank conflicts: ",
              num(m, "arg", -1) >= 0 ? "__local argument" : "__local array", num(m, "bytes", 0),
              num(m, "copy_bytes", 0), (int)num(m, "copies", 0), (int)num(m, "banks", 0),
              (int)num(m, "word_bits", 0), flag(m, "atomics") ? ", atomics in the banks" : "");
        putf(p, "<span class=\"tag %s\">", !strcmp(pred, "certain") ? "bad"
                                            : !strcmp(pred, "none") ? "ok" : "op");
        text(p, pred);
        put(p, "</span></p>\n<p class=\"wiring\">");
        int wired = !strcmp(str(m, "wiring", ""), "static");
        text(p, wired ? "Banks wired statically (no arbiter, no conflict): "
                      : "Banks behind a crossbar (an arbiter per bank): ");
        text(p, str(m, "wiring_reason", ""));
        put(p, "</p>\n");
        if (!strcmp(pred, "certain"))
            note(p, "warn", "Two accesses of one work-item in the same cycle meet in one bank "
                            "every time (see the pairs below): they take turns, and the pipeline "
                            "waits. Padding the array (one more column) usually spreads them.");
        table_begin(p, "local-ports", (const char *const[]){"port", "kind", "width", "line",
                    "source", "access pattern", "where", NULL});
        const cJSON *pt;
        cJSON_ArrayForEach(pt, item(m, "ports")) {
            int line = (int)num(pt, "line", 0);
            char pat[64];
            pattern_text(pt, pat, sizeof pat);
            const char *atomic = str(pt, "atomic", NULL);
            put(p, "<tr>");
            cellf(p, "%d", (int)num(pt, "port", 0));
            cellf(p, "%s%s%s", str(pt, "kind", "?"), atomic ? " " : "", atomic ? atomic : "");
            cellf(p, "%d bits", (int)num(pt, "width_bits", 0));
            cellf(p, "%d", line);
            put(p, "<td class=\"mono\">");
            text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
            put(p, "</td>");
            cell(p, pat);
            where_cell(p, pt);
            put(p, "</tr>\n");
        }
        table_end(p);
        /* pairs the analysis could decide */
        int shown = 0;
        const cJSON *pp;
        cJSON_ArrayForEach(pp, item(m, "port_pairs")) {
            const char *v = str(pp, "verdict", "");
            if (strcmp(v, "conflict") && strcmp(v, "disjoint") && strcmp(v, "broadcast"))
                continue;
            if (!shown++)
                table_begin(p, "bank-pairs", (const char *const[]){"ports used in one cycle "
                            "by one work-item", "bytes apart", "verdict", NULL});
            put(p, "<tr>");
            cellf(p, "%d and %d", (int)num(pp, "a", 0), (int)num(pp, "b", 0));
            cellf(p, "%.0f", num(pp, "bytes_apart", 0));
            putf(p, "<td><span class=\"tag %s\">", !strcmp(v, "conflict") ? "bad" : "ok");
            text(p, !strcmp(v, "conflict") ? "same bank: conflict"
                    : !strcmp(v, "broadcast") ? "same word: broadcast" : "different banks");
            put(p, "</span></td></tr>\n");
        }
        if (shown)
            table_end(p);
        if (!strcmp(pred, "possible"))
            put(p, "<p>Other pairs of ports serve different work-items (other stages or regions, "
                   "or groups on either side of a barrier) and meet in a bank only when their "
                   "addresses happen to: the <code>local_conflicts</code> counter of a run says "
                   "how often.</p>\n");
    }
}

static void write_barriers(page *p, const cJSON *k)
{
    const cJSON *bars = item(k, "barriers");
    if (!cJSON_GetArraySize(bars))
        return;
    put(p, "<h3>Barrier and collective units</h3>\n");
    table_begin(p, "barriers", (const char *const[]){"region", "line", "slots",
                "entries per slot", "entry bits", "work-group function", NULL});
    const cJSON *b;
    cJSON_ArrayForEach(b, bars) {
        put(p, "<tr>");
        cellf(p, "%d", (int)num(b, "region", 0));
        cellf(p, "%d", (int)num(b, "line", 0));
        cellf(p, "%d", (int)num(b, "slots", 0));
        cellf(p, "%d", (int)num(b, "entries_per_slot", 0));
        cellf(p, "%d", (int)num(b, "entry_bits", 0));
        cell(p, str(b, "collective", "none (a barrier only)"));
        put(p, "</tr>\n");
    }
    table_end(p);
}

static void write_operators(page *p, const cJSON *k)
{
    op_count kinds[MAX_KINDS];
    int wires, n = count_operators_as(k, 0, 1, kinds, &wires);
    put(p, "<h3>Operators</h3>\n");
    if (!n) {
        textf(p, "No operators besides %d wires.", wires);
        return;
    }
    bar bars[MAX_KINDS];
    memset(bars, 0, sizeof bars);
    for (int i = 0; i < n; i++) {
        snprintf(bars[i].label, sizeof bars[i].label, "%.*s", (int)sizeof bars[i].label - 1,
                 kinds[i].kind);
        bars[i].value[0] = kinds[i].count;
        bars[i].cls[0] = "seg0";
        bars[i].nseg = 1;
        bars[i].scale = kinds[0].count;
        snprintf(bars[i].note, sizeof bars[i].note, "%d", kinds[i].count);
    }
    bar_chart(p, "operators", bars, n);
    putf(p, "<p>Each operation is its own functional unit (one work-item enters per cycle, "
            "nothing is shared); %d more are wires (logic, extensions, shifts by a "
            "constant).</p>\n",
         wires);
}

/* The last run of a kernel, or NULL. */
static const cJSON *last_run_of(const report *r, const char *name)
{
    return r->last ? item(item(r->last, "kernels"), name) : NULL;
}

/* One finding: a line with where it is and what it means. */
static void finding(page *p, const char *kind, const char *kernel, int line, const char *what)
{
    putf(p, "<li><span class=\"tag %s\">%s</span>", kind, !strcmp(kind, "bad") ? "look at"
                                                        : !strcmp(kind, "ok") ? "good" : "note");
    put(p, "<b>");
    text(p, kernel);
    put(p, "</b>");
    if (line)
        putf(p, ", <a href=\"#L%d\">line %d</a>", line, line);
    put(p, ": ");
    text(p, what);
    put(p, "</li>\n");
}

/* What deserves a look first: accesses that defeat coalescing, bank conflicts the
 * analysis is sure of, stores that wait, and what the last run measured. */
static void write_findings(page *p, const report *r)
{
    put(p, "<h3>Findings</h3>\n<ul class=\"findings\">\n");
    int n = 0;
    char what[512];
    const cJSON *k;
    cJSON_ArrayForEach(k, item(r->rep, "kernels")) {
        const char *name = str(k, "name", "");
        const cJSON *o;
        cJSON_ArrayForEach(o, item(k, "lsus")) {
            int line = (int)num(o, "line", 0);
            if (!flag(o, "coalescing") && !strcmp(str(o, "kind", ""), "store")) {
                snprintf(what, sizeof what, "the store waits for memory's acknowledgement (a "
                         "later access may read what it wrote): one memory request per "
                         "work-item and %d cycles in its region", (int)num(o, "latency", 0));
                finding(p, "op", name, line, what);
                n++;
            } else if (!strcmp(str(o, "pattern", ""), "irregular") && flag(o, "coalescing")) {
                snprintf(what, sizeof what, "%s with an address the compiler cannot follow "
                         "from one work-item to the next: coalescing works only when "
                         "neighbouring work-items happen to share a memory word",
                         str(o, "kind", ""));
                finding(p, "op", name, line, what);
                n++;
            } else if (!strcmp(str(o, "pattern", ""), "strided") && !flag(o, "burst")) {
                snprintf(what, sizeof what, "%s with a stride of %.0f bytes: one memory "
                         "request per work-item", str(o, "kind", ""), num(o, "stride_bytes", 0));
                finding(p, "bad", name, line, what);
                n++;
            }
        }
        cJSON_ArrayForEach(o, item(k, "local_memories"))
            if (!strcmp(str(o, "predicted_conflicts", ""), "certain")) {
                int line = 0;
                const cJSON *pp, *pt;
                cJSON_ArrayForEach(pp, item(o, "port_pairs"))
                    if (!line && !strcmp(str(pp, "verdict", ""), "conflict"))
                        cJSON_ArrayForEach(pt, item(o, "ports"))
                            if ((int)num(pt, "port", -1) == (int)num(pp, "a", -2))
                                line = (int)num(pt, "line", 0);
                snprintf(what, sizeof what, "accesses of __local %s meet in one bank in the same "
                         "cycle (%d pairs of ports): every work-item waits for them to take "
                         "turns", str(o, "name", ""), (int)num(o, "conflicting_pairs", 0));
                finding(p, "bad", name, line, what);
                n++;
            }
        const cJSON *run = last_run_of(r, name);
        if (run) {
            const cJSON *cs = item(run, "counters");
            double busy = num(cs, "busy_cycles", 0), items = num(cs, "work_items", 0);
            double stall = num(cs, "stall_mem_cycles", 0);
            double conflicts = num(cs, "local_conflicts", 0);
            if (!flag(run, "ok")) {
                finding(p, "bad", name, 0, "its last run failed");
                n++;
            }
            if (busy > 0 && items > 0) {
                snprintf(what, sizeof what, "the last run took %.3f cycles per work-item (%.0f "
                         "cycles, %.0f work-items; the bound is 1%s)%s", busy / items, busy, items,
                         count_kind(k, "loop") ? ", or a cycle per loop iteration when more"
                                               : "",
                         stall > 0.1 * busy ? "; it waited for memory in more than a tenth of "
                                              "its cycles" : "");
                finding(p, busy / items <= 1.1 ? "ok" : "op", name, 0, what);
                n++;
            }
            if (conflicts > 0) {
                snprintf(what, sizeof what, "the last run counted %.0f local-memory bank "
                         "conflicts", conflicts);
                finding(p, "op", name, 0, what);
                n++;
            }
        }
    }
    if (r->synth && num(r->synth, "fmax_mhz", 0) > 0 &&
        num(r->synth, "fmax_mhz", 0) < r->board->clock_mhz) {
        snprintf(what, sizeof what, "the fmax%s, %.1f MHz, is below the clock target of %g MHz",
                 strcmp(str(r->synth, "fmax_kind", ""), "routed") ? " (estimate)" : "",
                 num(r->synth, "fmax_mhz", 0), r->board->clock_mhz);
        finding(p, "bad", "the accelerator", 0, what);
        n++;
    }
    if (!n)
        finding(p, "ok", "every kernel", 0, "nothing stands out: accesses coalesce, no bank "
                                            "conflict is certain");
    put(p, "</ul>\n");
}

static void write_kernel_run(page *p, const report *r, const cJSON *k)
{
    const char *name = str(k, "name", "");
    const cJSON *run = last_run_of(r, name);
    put(p, "<h3>Last run</h3>\n");
    if (!run) {
        put(p, "<p>No run of this kernel recorded (see <a href=\"#last-run\">Last run</a>).</p>\n");
        return;
    }
    const cJSON *cs = item(run, "counters");
    double busy = num(cs, "busy_cycles", num(run, "cycles", 0)), items = num(cs, "work_items", 0);
    double stall = num(cs, "stall_mem_cycles", 0), clock = num(r->meta, "clock_mhz", 0);
    char when[64] = "?";
    time_t t = (time_t)num(run, "time", 0);
    struct tm tm;
    if (t && gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    char geo[128] = "";
    size_t n = 0;
    const cJSON *g = item(run, "global"), *l = item(run, "local");
    for (int d = 0; d < cJSON_GetArraySize(g) && n + 40 < sizeof geo; d++)
        n += (size_t)snprintf(geo + n, sizeof geo - n, "%s%.0f/%.0f", d ? " x " : "",
                              cJSON_GetArrayItem(g, d)->valuedouble,
                              cJSON_IsNumber(cJSON_GetArrayItem(l, d))
                                  ? cJSON_GetArrayItem(l, d)->valuedouble : 0);
    put(p, "<div class=\"cards last-run-cards\">");
    char buf[128];
    card(p, "when", when);
    card(p, "outcome", flag(run, "ok") ? "completed" : "failed");
    card(p, "global/local size", geo);
    snprintf(buf, sizeof buf, "%.0f", busy);
    card(p, "busy cycles", buf);
    if (clock > 0) {
        snprintf(buf, sizeof buf, "%.3f ms", busy / clock / 1000);
        card(p, "device time", buf);
    }
    if (items > 0) {
        snprintf(buf, sizeof buf, "%.3f", busy / items);
        card(p, "cycles per work-item", buf);
    }
    put(p, "</div>\n");
    bar bars[2];
    memset(bars, 0, sizeof bars);
    snprintf(bars[0].label, sizeof bars[0].label, "busy cycles");
    bars[0].value[0] = busy;
    bars[0].cls[0] = "seg0";
    bars[0].nseg = 1;
    bars[0].scale = busy;
    snprintf(bars[0].note, sizeof bars[0].note, "%.0f", busy);
    snprintf(bars[1].label, sizeof bars[1].label, "waiting for memory");
    bars[1].value[0] = stall;
    bars[1].cls[0] = "seg1";
    bars[1].nseg = 1;
    bars[1].scale = busy;
    snprintf(bars[1].note, sizeof bars[1].note, "%.0f (%.1f%% of busy)", stall,
             busy > 0 ? 100 * stall / busy : 0);
    bar_chart(p, "run-cycles", bars, 2);
    table_begin(p, "counters", (const char *const[]){"counter", "value", NULL});
    const cJSON *c;
    cJSON_ArrayForEach(c, cs) {
        put(p, "<tr>");
        cell(p, c->string ? c->string : "?");
        put(p, "<td class=\"num\">");
        textf(p, "%.0f", cJSON_IsNumber(c) ? c->valuedouble : 0);
        put(p, "</td></tr>\n");
    }
    table_end(p);
}

static void write_kernel(page *p, const report *r, const cJSON *k)
{
    const char *name = str(k, "name", "");
    put(p, "<section class=\"kernel\" id=\"kernel-");
    text(p, name);
    put(p, "\">");
    elemf(p, "h2", NULL, "Kernel %s (line %d)", name, (int)num(k, "line", 0));
    const cJSON *meta = kernel_meta(r, name);
    put(p, "<div class=\"cards\">");
    char buf[64];
    snprintf(buf, sizeof buf, "%d", (int)num(k, "pipeline_depth", 0));
    card(p, "pipeline stages", buf);
    snprintf(buf, sizeof buf, "%d cycles", (int)num(k, "mem_latency", 0));
    card(p, "load latency scheduled", buf);
    snprintf(buf, sizeof buf, "%d", (int)num(k, "max_work_group_size", 0));
    card(p, "largest work-group", buf);
    snprintf(buf, sizeof buf, "%d", (int)num(k, "work_group_slots", 0));
    card(p, "work-groups in flight", num(k, "work_group_slots", 0) > 0 ? buf : "any");
    snprintf(buf, sizeof buf, "%d", cJSON_GetArraySize(item(meta, "args")));
    card(p, "arguments", buf);
    put(p, "</div>\n");
    put(p, "<h3>Region graph and blocks</h3>\n<div class=\"graphs\"><figure>");
    region_graph(p, k);
    put(p, "<figcaption>Regions in the order work-items pass them. Green: stall-free clusters "
           "(only the input waits); amber: regions too short to need it, with a stall enable; "
           "blue: memory nodes (load-store units and local-memory ports, where work-items "
           "wait for memory); violet: barrier units; dashed frames: loops with their credits, "
           "latency and back edge. A red badge counts a region's stall points (hover for where)."
           "</figcaption>"
           "</figure><figure>");
    cfg_graph(p, k);
    put(p, "<figcaption>The control-flow graph's blocks in layers (longest path from the "
           "entry); dashed arrows are loop back edges, colours mark the innermost loop."
           "</figcaption>"
           "</figure></div>\n");
    write_stall_points(p, r, k);
    write_loops(p, k);
    write_lsus(p, r, k);
    write_locals(p, r, k);
    write_barriers(p, k);
    write_operators(p, k);
    write_kernel_run(p, r, k);
    put(p, "</section>\n");
}

static void write_last_run(page *p, const report *r)
{
    put(p, "<section id=\"last-run\"><h2>Last run</h2>\n");
    if (!r->last) {
        note(p, "info", "No run recorded yet. Run a host program that builds this source for "
                        "this board through the clhls OpenCL platform (the ICD): after each "
                        "kernel the runtime records its hardware counters in the build's cache "
                        "entry (last_run.json), and this report shows the last run of each "
                        "kernel.");
        put(p, "</section>\n");
        return;
    }
    put(p, "<p>From <code>");
    text(p, r->last_entry);
    put(p, "/last_run.json</code>.</p>\n");
    table_begin(p, "runs", (const char *const[]){"kernel", "outcome", "busy cycles",
                "work-items", "waiting for memory", "local bank conflicts", "memory reads",
                "memory writes", NULL});
    const cJSON *run;
    cJSON_ArrayForEach(run, item(r->last, "kernels")) {
        const cJSON *cs = item(run, "counters");
        put(p, "<tr>");
        cell(p, run->string ? run->string : "?");
        cell(p, flag(run, "ok") ? "completed" : "failed");
        const char *names[] = {"busy_cycles", "work_items", "stall_mem_cycles", "local_conflicts",
                               "mem_read_requests", "mem_write_requests"};
        for (int i = 0; i < 6; i++) {
            const cJSON *v = item(cs, names[i]);
            if (cJSON_IsNumber(v))
                cellf(p, "%.0f", v->valuedouble);
            else
                cell(p, "-");
        }
        put(p, "</tr>\n");
    }
    table_end(p);
    put(p, "</section>\n");
}

/* ---- the source, annotated ---- */

static void tag(page *p, const char *cls, const char *s)
{
    putf(p, "<span class=\"tag %s\">", cls);
    text(p, s);
    put(p, "</span>");
}

static void tagf(page *p, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void tagf(page *p, const char *cls, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tag(p, cls, buf);
}

/* The hardware line `line` produced, as tags; returns how many. */
static int line_tags(page *p, const report *r, int line, int draw)
{
    int n = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, item(r->rep, "kernels")) {
        const char *name = str(k, "name", "");
        if ((int)num(k, "line", 0) == line && ++n && draw)
            tagf(p, "kernel", "kernel %s", name);
        const cJSON *o;
        cJSON_ArrayForEach(o, item(k, "regions"))
            if (!strcmp(str(o, "kind", ""), "loop") && (int)num(o, "line", 0) == line && ++n &&
                draw)
                tagf(p, "loop", "loop: credits %d, latency %d, back-edge FIFO %d",
                     (int)num(o, "credits", 0), (int)num(o, "latency", 0),
                     (int)num(o, "back_fifo", 0));
        cJSON_ArrayForEach(o, item(k, "barriers"))
            if ((int)num(o, "line", 0) == line && ++n && draw)
                tagf(p, "barrier", "barrier unit%s%s", str(o, "collective", NULL) ? ": " : "",
                     str(o, "collective", ""));
        cJSON_ArrayForEach(o, item(k, "lsus"))
            if ((int)num(o, "line", 0) == line && ++n && draw)
                tagf(p, "lsu", "%s %s LSU %d, %d-bit, %s%s", str(o, "space", ""),
                     str(o, "kind", ""), (int)num(o, "index", 0), (int)num(o, "width_bits", 0),
                     str(o, "pattern", ""), flag(o, "burst") ? ", burst" : "");
        cJSON_ArrayForEach(o, item(k, "rom_reads"))
            if ((int)num(o, "line", 0) == line && ++n && draw)
                tagf(p, "lsu", "ROM read of %s", str(o, "table", "?"));
        const cJSON *m;
        cJSON_ArrayForEach(m, item(k, "local_memories")) {
            const cJSON *pt;
            cJSON_ArrayForEach(pt, item(m, "ports"))
                if ((int)num(pt, "line", 0) == line && ++n && draw)
                    tagf(p, "local", "local %s %s port %d", str(pt, "kind", ""),
                         str(m, "name", ""), (int)num(pt, "port", 0));
        }
        op_count kinds[MAX_KINDS];
        int wires, nk = count_operators(k, line, kinds, &wires);
        for (int i = 0; i < nk; i++, n++)
            if (draw)
                tagf(p, "op", kinds[i].count > 1 ? "%s x%d" : "%s", kinds[i].kind, kinds[i].count);
        if (wires && ++n && draw)
            tagf(p, "op", "%d wire%s", wires, wires > 1 ? "s" : "");
    }
    return n;
}

static void write_source(page *p, const report *r)
{
    put(p, "<section id=\"source\"><h2>Source, annotated</h2>\n");
    put(p, "<p>Each line with the hardware it produced: loops, barrier units, load-store units "
           "(LSU), local memory ports and operators.</p>\n<table class=\"source\"><tbody>\n");
    for (int i = 0; i < r->nlines; i++) {
        int line = i + 1, has = line_tags(p, r, line, 0);
        putf(p, "<tr%s id=\"L%d\"><td class=\"ln\">%d</td><td class=\"code\">",
             has ? " class=\"hw\"" : "", line, line);
        text(p, r->lines[i]);
        put(p, "</td><td class=\"hw-tags\">");
        if (has)
            line_tags(p, r, line, 1);
        put(p, "</td></tr>\n");
    }
    put(p, "</tbody></table></section>\n");
}

static int write_page(const report *r, const char *path)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    page pg = {fopen(tmp, "w")};
    if (!pg.out)
        return -1;
    page *p = &pg;
    write_head(p, r);
    write_summary(p, r);
    write_resources(p, r);
    const cJSON *k;
    cJSON_ArrayForEach(k, item(r->rep, "kernels"))
        write_kernel(p, r, k);
    write_last_run(p, r);
    write_source(p, r);
    put(p, "</main>\n<footer>");
    textf(p, "Written by clhls report from %s/report.json", r->entry);
    put(p, "</footer>\n</body></html>\n");
    int bad = ferror(p->out);
    bad |= fclose(p->out) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* ---- the command ---- */

static int usage(FILE *f, int code)
{
    fprintf(f, "usage: clhls report FILE.cl [--board NAME] [-D NAME[=V]]... [-I DIR]...\n"
               "                    [--options \"OPTS\"] [-o FILE.html]\n"
               "  Builds FILE.cl for the board without the simulation model (the build\n"
               "  `clhls synth` makes) and writes an HTML report of the hardware (default\n"
               "  output: report.html): region graphs, loops with their credits, load-store\n"
               "  units, local memory banks, barriers, resources (from `clhls synth FILE.cl\n"
               "  --board NAME` when it ran), the annotated source and the counters of the\n"
               "  last run. -D, -I and --options are build options, as for `clhls build`.\n");
    return code;
}

static void on_progress(void *ctx, const char *step)
{
    (void)ctx;
    cli_step_begin("%s", step);
}

int clhls_report_main(int argc, char **argv)
{
    const char *file = NULL, *board_name = board_default_name();
    const char *output = "report.html";
    cli_build_options opts = {0};
    int help = 0, bad_usage = 0, failed = 0;
    for (int i = 1; i < argc && !help && !bad_usage && !failed; i++) {
        int taken;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            help = 1;
        else if (!strcmp(argv[i], "--board") && i + 1 < argc)
            board_name = argv[++i];
        else if ((taken = cli_take_build_option(&opts, argc, argv, &i, 1)) != 0)
            failed = taken < 0;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            output = argv[++i];
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else
            bad_usage = 1;
    }
    if (help || bad_usage || failed || !file) {
        free(opts.text);
        return help ? usage(stdout, CLI_EXIT_OK) : failed ? CLI_EXIT_USER
                                                          : usage(stderr, CLI_EXIT_USER);
    }
    const char *options = opts.text ? opts.text : "";
    char err[512];
    board_t *board = board_load(board_name, err, sizeof err);
    char *source = board ? hls_read_text(file) : NULL;
    if (!source) {
        if (board)
            fprintf(stderr, "clhls: cannot read %s\n", file);
        else
            fprintf(stderr, "clhls: %s\n", err);
        board_free(board);
        free(opts.text);
        return CLI_EXIT_USER;
    }
    const char *slash = strrchr(file, '/');
    report r = {.source_name = slash ? slash + 1 : file, .source = source, .options = options,
                .board = board};
    hls_build_request req = {.source = source, .source_name = r.source_name,
                             .options = *options ? options : NULL, .board = board,
                             .skip_model = 1, .progress = on_progress};
    hls_build_result res;
    int rc = hls_build(&req, &res), exit_code = CLI_EXIT_OK;
    cli_step_end(rc == HLS_OK);
    if (rc != HLS_OK) {
        fputs(res.log, stderr);
        exit_code = rc == HLS_ERR_TOOL || rc == HLS_ERR_INTERNAL ? CLI_EXIT_INTERNAL
                                                                 : CLI_EXIT_USER;
        goto done;
    }
    r.entry = res.entry_dir;
    char path[4400];
    snprintf(path, sizeof path, "%s/report.json", r.entry);
    r.rep = load_json(path);
    snprintf(path, sizeof path, "%s/metadata.json", r.entry);
    r.meta = load_json(path);
    if (!r.rep || !r.meta) {
        fprintf(stderr, "clhls: the build's entry %s lacks report.json or metadata.json\n",
                r.entry);
        exit_code = CLI_EXIT_INTERNAL;
        goto done;
    }
    char rel[300];
    snprintf(rel, sizeof rel, "synth/%s/synth.json", board->name);
    r.synth = find_in_cache(&r, rel, r.synth_entry, sizeof r.synth_entry);
    r.last = find_in_cache(&r, "last_run.json", r.last_entry, sizeof r.last_entry);
    split_lines(&r);
    if (write_page(&r, output)) {
        fprintf(stderr, "clhls: cannot write %s\n", output);
        exit_code = CLI_EXIT_USER;
        goto done;
    }
    printf("%s: report of %s for %s%s%s\n  entry: %s\n", output, file, board->name,
           r.synth ? ", with synthesis results" : "", r.last ? ", with the last run" : "",
           r.entry);
done:
    for (int i = 0; i < r.nlines; i++)
        free(r.lines[i]);
    free(r.lines);
    cJSON_Delete(r.rep);
    cJSON_Delete(r.meta);
    cJSON_Delete(r.synth);
    cJSON_Delete(r.last);
    hls_build_result_free(&res);
    free(source);
    free(opts.text);
    board_free(board);
    return exit_code;
}
