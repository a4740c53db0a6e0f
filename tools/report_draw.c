/* The report's drawings, inline SVG (tools/report_draw.h): a kernel's region graph
 * (the region tree laid out in layers, loops as frames with their back edge), its CFG
 * (blocks in layers by the longest forward path from the entry) and bar charts. */
#include "report_draw.h"

#include <stdlib.h>
#include <string.h>

#include "json_read.h"

static const cJSON *region_by_id(const cJSON *kernel, int id)
{
    const cJSON *rg;
    cJSON_ArrayForEach(rg, json_item(kernel, "regions"))
        if ((int)json_num(rg, "id", -1) == id)
            return rg;
    return NULL;
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
    const char *kind = json_str(rg, "kind", "");
    if (!strcmp(kind, "static") || !strcmp(kind, "barrier") || !strcmp(kind, "memory"))
        return (extent){NODE_W, NODE_H};
    extent e = {0, 0};
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, json_item(rg, "children")) {
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

static void arrow(html_page *p, double x, double y0, double y1)
{
    html_putf(p, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"edge\" "
            "marker-end=\"url(#arrow)\"/>", x, y0, x, y1 - 2);
}

/* Draws the region centred at cx from y; returns its height. */
static double draw_region(html_page *p, const cJSON *kernel, const cJSON *rg, double cx, double y)
{
    const char *kind = json_str(rg, "kind", "");
    int id = (int)json_num(rg, "id", 0);
    char blocks[256], lines[64];
    json_block_list(json_item(rg, "blocks"), blocks, sizeof blocks);
    json_line_range(rg, lines, sizeof lines);
    const cJSON *stalls = json_item(rg, "stall_points");
    int nstalls = cJSON_GetArraySize(stalls);
    if (!strcmp(kind, "static") || !strcmp(kind, "barrier") || !strcmp(kind, "memory")) {
        int barrier = !strcmp(kind, "barrier"), memory = !strcmp(kind, "memory");
        int stall_free = json_flag(rg, "stall_free");
        double x = cx - NODE_W / 2;
        html_putf(p, "<g class=\"node %s\">",
             barrier ? "barrier" : memory ? "memory" : stall_free ? "stall-free" : "stall-enable");
        char tip[2048];
        size_t n = (size_t)snprintf(tip, sizeof tip, "region %d (%s)", id, kind);
        const cJSON *s;
        cJSON_ArrayForEach(s, stalls)
            if (n + 100 < sizeof tip)
                n += (size_t)snprintf(tip + n, sizeof tip - n, "\nstall point: %s (line %d)",
                                      json_str(s, "what", ""), (int)json_num(s, "line", 0));
        html_svg_title(p, tip);
        html_putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%d\"/>", x, y,
             NODE_W, NODE_H, barrier ? 16 : 6);
        if (barrier) {
            const cJSON *bar = NULL, *b;
            cJSON_ArrayForEach(b, json_item(kernel, "barriers"))
                if ((int)json_num(b, "region", -1) == id)
                    bar = b;
            html_svg_textf(p, x + 10, y + 18, "title", "region %d: barrier unit, line %d", id,
                      (int)json_num(rg, "line", 0));
            html_svg_textf(p, x + 10, y + 36, "detail", "%d slots x %d entries of %d bits",
                      (int)json_num(bar, "slots", 0), (int)json_num(bar, "entries_per_slot", 0),
                      (int)json_num(bar, "entry_bits", 0));
            const char *coll = json_str(bar, "collective", NULL);
            html_svg_textf(p, x + 10, y + 53, "detail", "%s%s",
                      coll ? "work-group function: " : "released in local-id order",
                      coll ? coll : "");
        } else if (memory) {
            int n = (int)json_num(rg, "ops", 0);
            html_svg_textf(p, x + 10, y + 18, "title", "region %d: memory node, %d access%s", id, n,
                      n == 1 ? "" : "es");
            html_svg_textf(p, x + 10, y + 36, "detail", "%s | %s", *blocks ? blocks : "-", lines);
            html_svg_textf(p, x + 10, y + 53, "detail", "requests issue together, token FIFO %d",
                      (int)json_num(rg, "token_fifo", 0));
        } else {
            html_svg_textf(p, x + 10, y + 18, "title", "region %d: static, %d stages", id,
                      (int)json_num(rg, "depth", 0) + 1);
            html_svg_textf(p, x + 10, y + 36, "detail", "%s | %s | %d ops", *blocks ? blocks : "-",
                      lines, (int)json_num(rg, "ops", 0));
            html_svg_textf(p, x + 10, y + 53, "detail", "%s, exit FIFO %d",
                      stall_free ? "stall-free cluster" : "stall enable",
                      (int)json_num(rg, "exit_fifo", 0));
        }
        if (nstalls) { /* a badge: where work-items may wait */
            html_putf(p, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"11\" class=\"stall\"/>", x + NODE_W - 16,
                 y + 16);
            html_svg_textf(p, x + NODE_W - 16, y + 20, "badge", "%d", nstalls);
        }
        html_put(p, "</g>\n");
        return NODE_H;
    }
    int loop = !strcmp(kind, "loop");
    extent e = measure(kernel, rg);
    double inner_cx = loop ? cx - LOOP_LANE / 2 : cx, yy = y + (loop ? LOOP_HEAD : 0);
    /* a pipelined loop has no back edge: a generator issues its iterations */
    int pipelined = loop && !strcmp(json_str(rg, "mode", ""), "pipelined");
    if (loop) {
        double x = cx - e.w / 2;
        html_put(p, "<g class=\"loop\">");
        char tip[512];
        if (pipelined)
            snprintf(tip, sizeof tip, "loop at line %d, pipelined: an iteration every %d "
                     "cycles%s%s, %d cycles from first to last region (latency), %d iterations "
                     "in flight", (int)json_num(rg, "line", 0), (int)json_num(rg, "ii", 0),
                     *json_str(rg, "ii_reason", "") ? ": " : "", json_str(rg, "ii_reason", ""),
                     (int)json_num(rg, "latency", 0), (int)json_num(rg, "in_flight", 1));
        else
            snprintf(tip, sizeof tip, "loop at line %d: at most %d work-items inside (credits), "
                     "%d cycles around (latency), back-edge FIFO %d entries; the barrier units "
                     "inside hold %d", (int)json_num(rg, "line", 0),
                     (int)json_num(rg, "credits", 0), (int)json_num(rg, "latency", 0),
                     (int)json_num(rg, "back_fifo", 0), (int)json_num(rg, "barrier_hold", 0));
        html_svg_title(p, tip);
        html_putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"10\"/>", x, y,
             e.w, e.h);
        html_svg_textf(p, x + 12, y + 18, "title", "region %d: loop at line %d (%s)", id,
                  (int)json_num(rg, "line", 0), blocks);
        int lanes = (int)json_num(rg, "interleaved", 1);
        if (pipelined && lanes > 1)
            html_svg_textf(p, x + 12, y + 35, "detail", "pipelined, II %d, %d interleaved | "
                           "latency %d | %d in flight", (int)json_num(rg, "ii", 0), lanes,
                           (int)json_num(rg, "latency", 0), (int)json_num(rg, "in_flight", 1));
        else if (pipelined)
            html_svg_textf(p, x + 12, y + 35, "detail", "pipelined, II %d | latency %d | %d in flight",
                           (int)json_num(rg, "ii", 0), (int)json_num(rg, "latency", 0),
                           (int)json_num(rg, "in_flight", 1));
        else
            html_svg_textf(p, x + 12, y + 35, "detail", "credits %d | latency %d | back-edge FIFO %d",
                           (int)json_num(rg, "credits", 0), (int)json_num(rg, "latency", 0),
                           (int)json_num(rg, "back_fifo", 0));
        html_put(p, "</g>\n");
    }
    const cJSON *c;
    int first = 1;
    double child_top = yy, last_bottom = yy, first_w = NODE_W;
    cJSON_ArrayForEach(c, json_item(rg, "children")) {
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
    if (loop && !first && !pipelined) { /* the back edge: from the body's end round to its start */
        double lane = cx + e.w / 2 - LOOP_LANE / 2;
        html_putf(p, "<path class=\"back-edge\" d=\"M %.1f %.1f V %.1f H %.1f V %.1f H %.1f\" "
                "marker-end=\"url(#arrow-back)\"/>", inner_cx, last_bottom, last_bottom + 8,
             lane, child_top + 14, inner_cx + first_w / 2 + 3);
        html_putf(p, "<text class=\"lane\" transform=\"translate(%.1f %.1f) rotate(-90)\">",
             lane + 13, (child_top + last_bottom) / 2 + 4);
        html_textf(p, last_bottom - child_top < 110 ? "FIFO %d" : "back edge, FIFO %d",
              (int)json_num(rg, "back_fifo", 0));
        html_put(p, "</text>");
    }
    return loop ? e.h : yy - y;
}

/* Arrow heads shared by the graphs of the page: defined once, in an SVG of no size at
 * the top of the body (ids are unique in a document). */
void draw_svg_defs(html_page *p)
{
    html_put(p, "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
           "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
           "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
           "<path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"arrow-head\"/></marker>"
           "<marker id=\"arrow-back\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
           "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
           "<path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"arrow-back-head\"/></marker></defs></svg>\n");
}

void draw_region_graph(html_page *p, const cJSON *kernel)
{
    const cJSON *body = region_by_id(kernel, 0);
    if (!body)
        return;
    extent e = measure(kernel, body);
    double w = (e.w > NODE_W ? e.w : NODE_W) + 40, cx = w / 2;
    double h = e.h + 2 * (PILL_H + GAP) + 20;
    html_putf(p, "<svg class=\"region-graph\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">", w, h, w, h);
    double y = 10;
    html_putf(p, "<g class=\"pill\"><rect x=\"%.1f\" y=\"%.1f\" width=\"290\" height=\"%.0f\" "
            "rx=\"12\"/>",
         cx - 145, y, PILL_H);
    html_svg_text(p, cx, y + 16, "pill-text", "work-group dispatch, work-item generator");
    html_put(p, "</g>");
    y += PILL_H;
    arrow(p, cx, y, y + GAP);
    y += GAP;
    y += draw_region(p, kernel, body, cx, y);
    arrow(p, cx, y, y + GAP);
    y += GAP;
    html_putf(p, "<g class=\"pill\"><rect x=\"%.1f\" y=\"%.1f\" width=\"290\" height=\"%.0f\" "
            "rx=\"12\"/>",
         cx - 145, y, PILL_H);
    html_svg_text(p, cx, y + 16, "pill-text", "work-items retire");
    html_put(p, "</g></svg>\n");
}

/* ---- the CFG: blocks in layers (longest forward path from the entry) ---- */

#define BLOCK_W 86.0     /* a block's box */
#define BLOCK_H 36.0
#define BLOCK_GAP_X 26.0 /* between blocks of a layer */
#define LAYER_H 70.0     /* from layer to layer */

void draw_cfg(html_page *p, const cJSON *kernel)
{
    const cJSON *blocks = json_item(kernel, "blocks");
    int n = cJSON_GetArraySize(blocks);
    if (n <= 0)
        return;
    int *rpo = calloc((size_t)n, sizeof *rpo), *order = calloc((size_t)n, sizeof *order);
    int *layer = calloc((size_t)n, sizeof *layer), *slot = calloc((size_t)n, sizeof *slot);
    int *width = calloc((size_t)n + 1, sizeof *width);
    for (int b = 0; b < n; b++) {
        rpo[b] = (int)json_num(cJSON_GetArrayItem(blocks, b), "rpo", b);
        if (rpo[b] < 0 || rpo[b] >= n)
            rpo[b] = b;
        order[rpo[b]] = b;
    }
    /* layers: in reverse post-order every forward edge's source comes first */
    int layers = 1;
    for (int i = 0; i < n; i++) {
        int b = order[i];
        const cJSON *s;
        cJSON_ArrayForEach(s, json_item(cJSON_GetArrayItem(blocks, b), "succ")) {
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
    html_putf(p, "<svg class=\"cfg-graph\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">", w, h, w, h);
    for (int b = 0; b < n; b++) { /* edges first, boxes over them */
        const cJSON *s;
        cJSON_ArrayForEach(s, json_item(cJSON_GetArrayItem(blocks, b), "succ")) {
            int t = (int)s->valuedouble;
            if (t < 0 || t >= n)
                continue;
            double x0 = bx[b] + BLOCK_W / 2, y0 = by[b] + BLOCK_H;
            double x1 = bx[t] + BLOCK_W / 2, y1 = by[t];
            if (rpo[t] > rpo[b] && layer[t] == layer[b] + 1)
                html_putf(p, "<path class=\"edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f %.1f\" "
                        "marker-end=\"url(#arrow)\"/>", x0, y0, x0, y0 + 24, x1, y1 - 24, x1,
                     y1 - 2);
            else if (rpo[t] > rpo[b]) { /* past other layers: round their left side,
                                            the longer the wider */
                int span = layer[t] - layer[b];
                double out = span * 14.0 + 28 < 66 ? span * 14.0 + 28 : 66;
                html_putf(p, "<path class=\"edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f %.1f\" "
                        "marker-end=\"url(#arrow)\"/>", bx[b] + 6, y0, bx[b] - out, y0 + 40,
                     bx[t] - out, y1 - 40, bx[t] + 6, y1 - 2);
            }
            else if (t == b) /* a block that loops on itself */
                html_putf(p, "<path class=\"back-edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f "
                        "%.1f\" marker-end=\"url(#arrow-back)\"/>", bx[b] + BLOCK_W, by[b] + 8,
                     bx[b] + BLOCK_W + 40, by[b] - 12, bx[b] + BLOCK_W + 40, by[b] + BLOCK_H + 12,
                     bx[b] + BLOCK_W + 2, by[b] + BLOCK_H - 8);
            else /* a back edge: round the right side, up to the header */
                html_putf(p, "<path class=\"back-edge\" d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f "
                        "%.1f\" marker-end=\"url(#arrow-back)\"/>", bx[b] + BLOCK_W,
                     by[b] + BLOCK_H / 2, bx[b] + BLOCK_W + 50, by[b] + BLOCK_H / 2,
                     bx[t] + BLOCK_W + 50, by[t] + BLOCK_H / 2, bx[t] + BLOCK_W + 2,
                     by[t] + BLOCK_H / 2);
        }
    }
    for (int b = 0; b < n; b++) {
        const cJSON *blk = cJSON_GetArrayItem(blocks, b);
        int loop = (int)json_num(blk, "loop", -1);
        char lines[64], tip[160];
        json_line_range(blk, lines, sizeof lines);
        if (json_num(blk, "ops", 0) == 0)
            snprintf(lines, sizeof lines, "empty");
        snprintf(tip, sizeof tip, "block b%d: %s, %d ops, ends in %s%s", b, lines,
                 (int)json_num(blk, "ops", 0), json_str(blk, "term", "?"),
                 loop >= 0 ? ", inside a loop" : "");
        html_putf(p, "<g class=\"block loop%d\">", loop < 0 ? 0 : 1 + loop % 4);
        html_svg_title(p, tip);
        html_putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" rx=\"5\"/>", bx[b],
             by[b], BLOCK_W, BLOCK_H);
        html_svg_textf(p, bx[b] + BLOCK_W / 2, by[b] + 15, "block-title", "b%d", b);
        html_svg_text(p, bx[b] + BLOCK_W / 2, by[b] + 29, "block-detail", lines);
        html_put(p, "</g>");
    }
    html_put(p, "</svg>\n");
    free(rpo);
    free(order);
    free(layer);
    free(slot);
    free(width);
    free(bx);
    free(by);
}

/* ---- bar charts ---- */

void draw_bar_chart(html_page *p, const char *cls, const draw_bar *bars, int n)
{
    double label_w = 150, bar_w = 420, note_w = 230, row = 30;
    double w = label_w + bar_w + note_w, h = n * row + 8;
    html_putf(p, "<svg class=\"bar-chart %s\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "role=\"img\">", cls, w, h, w, h);
    for (int i = 0; i < n; i++) {
        const draw_bar *b = &bars[i];
        double y = 4 + i * row;
        html_svg_text(p, label_w - 10, y + 18, "bar-label", b->label);
        html_putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" class=\"bar-track\"/>",
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
            html_putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" class=\"%s\">", x,
                 y + 4, len, b->cls[s]);
            html_svg_title(p, b->label);
            html_put(p, "</rect>");
            x += len;
        }
        html_svg_text(p, label_w + bar_w + 10, y + 18, "bar-note", b->note);
    }
    html_put(p, "</svg>\n");
}

/* ---- channels and pipes: the kernels they join, in dataflow order ---- */

#define KERNEL_W 190.0   /* a kernel's box */
#define KERNEL_H 46.0
#define COLUMN_GAP 170.0 /* room for a channel's arrow and label between columns */
#define ROW_GAP 40.0
#define MAX_ENDS 64      /* kernels drawn (a program has few) */
#define TOP 56.0         /* the first row's top: room for channels drawn above */

/* The index of kernel `name` among the n drawn, added when new; -1 when full. */
static int end_index(const char **names, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp(names[i], name))
            return i;
    if (*n == MAX_ENDS)
        return -1;
    names[*n] = name;
    return (*n)++;
}

void draw_channels(html_page *p, const cJSON *channels, const cJSON *kernels, const int *peaks)
{
    const char *names[MAX_ENDS];
    int n = 0, column[MAX_ENDS] = {0}, row[MAX_ENDS], rows[MAX_ENDS] = {0};
    const cJSON *ch, *k;
    cJSON_ArrayForEach(k, kernels) { /* the program's order: producers usually first */
        const char *name = json_str(k, "name", "?");
        cJSON_ArrayForEach(ch, channels)
            if (!strcmp(json_str(ch, "writer", ""), name) ||
                !strcmp(json_str(ch, "reader", ""), name)) {
                end_index(names, &n, name);
                break;
            }
    }
    cJSON_ArrayForEach(ch, channels) {
        end_index(names, &n, json_str(ch, "writer", "?"));
        end_index(names, &n, json_str(ch, "reader", "?"));
    }
    /* columns: the longest chain of channels that go forward in that order (the others
     * are drawn round below) */
    int back = 0;
    for (int i = 0; i < n; i++)
        cJSON_ArrayForEach(ch, channels) {
            int w = end_index(names, &n, json_str(ch, "writer", "?"));
            int r = end_index(names, &n, json_str(ch, "reader", "?"));
            if (w == i && r > w && column[r] < column[w] + 1)
                column[r] = column[w] + 1;
            back += w == i && r >= 0 && r <= w;
        }
    int columns = 1, most = 1;
    for (int i = 0; i < n; i++) {
        row[i] = rows[column[i]]++;
        columns = column[i] + 1 > columns ? column[i] + 1 : columns;
        most = rows[column[i]] > most ? rows[column[i]] : most;
    }
    double w = columns * (KERNEL_W + COLUMN_GAP) - COLUMN_GAP + 40;
    double h = TOP + most * (KERNEL_H + ROW_GAP) - ROW_GAP + 30 + (back ? 40 + 12 * (back % 3) : 0);
    html_putf(p, "<svg class=\"channels\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
              "role=\"img\" aria-label=\"kernels joined by channels\">", w, h, w, h);
    double x[MAX_ENDS], y[MAX_ENDS];
    for (int i = 0; i < n; i++) {
        x[i] = 20 + column[i] * (KERNEL_W + COLUMN_GAP);
        y[i] = TOP + row[i] * (KERNEL_H + ROW_GAP);
        html_put(p, "<g class=\"node stall-free\">");
        html_putf(p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"6\"/>", x[i],
                  y[i], KERNEL_W, KERNEL_H);
        html_svg_textf(p, x[i] + 10, y[i] + 20, "title", "kernel %s", names[i]);
        html_svg_text(p, x[i] + 10, y[i] + 37, "detail", "its own compute unit");
        html_put(p, "</g>");
    }
    int index = 0, position = -1; /* channels drawn; the channel's place in the array */
    cJSON_ArrayForEach(ch, channels) {
        int a = end_index(names, &n, json_str(ch, "writer", "?"));
        int b = end_index(names, &n, json_str(ch, "reader", "?"));
        int peak = peaks[++position];
        if (a < 0 || b < 0)
            continue;
        /* channels between the same two kernels side by side: the k-th of them */
        int k = 0;
        const cJSON *o;
        cJSON_ArrayForEach(o, channels) {
            if (o == ch)
                break;
            k += !strcmp(json_str(o, "writer", ""), names[a]) &&
                 !strcmp(json_str(o, "reader", ""), names[b]);
        }
        double dy = 10 + (k % 3) * 13;
        double x0 = x[a] + KERNEL_W, y0 = y[a] + dy, x1 = x[b], y1 = y[b] + dy;
        const char *name = json_str(ch, "name", "?");
        int pipe = json_flag(ch, "pipe"), depth = (int)json_num(ch, "depth", 0);
        int bits = (int)json_num(ch, "bits", 0), declared = (int)json_num(ch, "declared_depth", 0);
        html_put(p, "<g class=\"channel\">");
        char tip[512], said[48] = "no depth declared", held[48] = "";
        if (declared)
            snprintf(said, sizeof said, "declared depth %d", declared);
        if (peak >= 0)
            snprintf(held, sizeof held, "; at most %d held in the last run", peak);
        snprintf(tip, sizeof tip, "%s '%s': a FIFO of %d elements of %d bits (%s), from kernel "
                 "'%s' to kernel '%s'%s", pipe ? "pipe" : "channel", name, depth, bits, said,
                 names[a], names[b], held);
        html_svg_title(p, tip);
        double lx, ly;
        if (b > a && column[b] > column[a] + 1) { /* over the columns between: above */
            double top = TOP - 28 - 10 * (index % 2);
            html_putf(p, "<path d=\"M %.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f\" class=\"edge\" "
                      "marker-end=\"url(#arrow)\"/>", x0, y0, x0 + 60, top, x1 - 60, top, x1 - 2,
                      y1);
            lx = (x0 + x1) / 2;
            ly = top + 10;
        } else if (b > a) { /* forward: a curve from the writer to the reader */
            html_putf(p, "<path d=\"M %.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f\" class=\"edge\" "
                      "marker-end=\"url(#arrow)\"/>", x0, y0, x0 + 60, y0, x1 - 60, y1, x1 - 2, y1);
            lx = (x0 + x1) / 2;
            ly = (y0 + y1) / 2 - 6;
        } else { /* back: round below every box */
            double low = TOP + most * (KERNEL_H + ROW_GAP) - ROW_GAP + 18 + 12 * (index % 3);
            html_putf(p, "<path d=\"M %.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f\" class=\"edge\" "
                      "marker-end=\"url(#arrow)\"/>", x0, y0, x0 + 80, low, x1 - 80, low, x1 - 2,
                      y1);
            lx = (x0 + x1) / 2;
            ly = low + 14;
        }
        if (peak >= 0)
            html_svg_textf(p, lx, ly, "channel-label", "%s%s: %d x %d bits, peak %d",
                           pipe ? "pipe " : "", name, depth, bits, peak);
        else
            html_svg_textf(p, lx, ly, "channel-label", "%s%s: %d x %d bits", pipe ? "pipe " : "",
                           name, depth, bits);
        html_put(p, "</g>");
        index++;
    }
    html_put(p, "</svg>\n");
}
