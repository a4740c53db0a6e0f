/* `clhls report FILE.cl --board NAME -o report.html`: builds the program the way
 * `clhls build` does (without the simulation model) and writes one self-contained HTML
 * page (inline CSS and SVG, no script, nothing fetched) that shows what the compiler
 * built and why: per kernel the region graph and the CFG's blocks (loops with their
 * credits and latency, stall points), the load-store units, local memories with their
 * banks and predicted conflicts, barrier and collective units, operators; the
 * resources against the board's capacity from `clhls synth` when it ran (else what
 * the compiler knows); the channels and pipes between the kernels; the source annotated
 * with the hardware each line produced; the hardware counters of the last run. It reads the cache entry's report.json
 * (hls/emit_report.c), metadata.json, synth/<board>/synth.json and last_run.json
 * (host-runtime/last_run.c); the last two may come from another entry of the same
 * source, board and options (a host program's build through the ICD names its source
 * "<source>", which makes another entry). Every piece of text goes through the
 * escaping writers of tools/html.c; the drawings are tools/report_draw.c's. */
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
#include "html.h"
#include "json_read.h"
#include "model_step.h"
#include "report_draw.h"

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
    cJSON *rep = hls_path_join(path, sizeof path, dir, "report.json") ? NULL : hls_read_json(path);
    cJSON *meta = hls_path_join(path, sizeof path, dir, "metadata.json") ? NULL : hls_read_json(path);
    int same = 0;
    const char *name = json_str(rep, "source_name", NULL);
    if (rep && meta && name && !strchr(name, '/') &&
        !strcmp(json_str(meta, "board", ""), r->board->name) &&
        !strcmp(json_str(meta, "options", ""), r->options)) {
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
    return hls_read_json(path);
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
    cJSON_ArrayForEach(k, json_item(r->meta, "kernels"))
        if (!strcmp(json_str(k, "name", ""), name))
            return k;
    return NULL;
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
    cJSON_ArrayForEach(o, json_item(kernel, "operators")) {
        if (line && (int)json_num(o, "line", 0) != line)
            continue;
        if (json_flag(o, "wiring")) {
            ++*wires;
            continue;
        }
        char kind[24];
        const char *opcode = json_str(o, "kind", "?");
        /* a comparison's width is its 1-bit result: not worth telling apart */
        if (by_width && strcmp(opcode, "icmp") && strcmp(opcode, "fcmp"))
            snprintf(kind, sizeof kind, "%s, %d bits", opcode, (int)json_num(o, "width", 0));
        else
            snprintf(kind, sizeof kind, "%s", json_str(o, "kind", "?"));
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
    cJSON_ArrayForEach(f, json_item(kernel, "fifos")) {
        bits += json_num(f, "depth", 0) * json_num(f, "bits", 0);
        ++*count;
    }
    return bits;
}

static int count_kind(const cJSON *kernel, const char *kind)
{
    int n = 0;
    const cJSON *rg;
    cJSON_ArrayForEach(rg, json_item(kernel, "regions"))
        n += !strcmp(json_str(rg, "kind", ""), kind);
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
    ".channel-label{font-size:11.5px;fill:#1f47b5;text-anchor:middle}"
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

static void write_head(html_page *p, const report *r)
{
    html_put(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width\">");
    html_put(p, "<title>");
    html_textf(p, "clhls report: %s on %s", r->source_name, r->board->name);
    html_put(p, "</title><style>");
    html_put(p, style);
    html_put(p, "</style></head>\n<body>\n");
    draw_svg_defs(p);
    html_put(p, "<header>");
    html_elemf(p, "h1", NULL, "clhls report: %s", r->source_name);
    html_put(p, "<div class=\"sub\">");
    html_textf(p, "board %s (%s %s, %g MHz target) | clhls %s | %s%s%s | entry %s",
          r->board->name, r->board->vendor ? r->board->vendor : "?",
          r->board->part ? r->board->part : "?", r->board->clock_mhz,
          json_str(r->rep, "tool_version", "?"), *r->options ? "options \"" : "no build options",
          r->options, *r->options ? "\"" : "", r->entry);
    html_put(p, "</div></header>\n<nav>");
    html_put(p, "<a href=\"#summary\">Summary</a><a href=\"#resources\">Resources</a>");
    const cJSON *k;
    cJSON_ArrayForEach(k, json_item(r->rep, "kernels")) {
        html_put(p, "<a href=\"#kernel-");
        html_text(p, json_str(k, "name", ""));
        html_put(p, "\">");
        html_textf(p, "kernel %s", json_str(k, "name", ""));
        html_put(p, "</a>");
    }
    html_put(p, "<a href=\"#last-run\">Last run</a><a href=\"#source\">Source</a></nav>\n<main>\n");
}

static void card(html_page *p, const char *key, const char *value)
{
    html_put(p, "<div class=\"card\">");
    html_elem(p, "div", "k", key);
    html_elem(p, "div", "v", value);
    html_put(p, "</div>");
}

/* The fmax of synth.json as a card shows it ("312.4 MHz", with its kind when asked),
 * or "not measured" when synthesis stopped before the netlist was whole. */
static void fmax_text(char *buf, size_t len, const cJSON *synth, int with_kind)
{
    const char *kind = json_str(synth, "fmax_kind", "estimate");
    if (!cJSON_IsNumber(json_item(synth, "fmax_mhz")))
        snprintf(buf, len, "not measured");
    else
        snprintf(buf, len, "%.1f MHz%s", json_num(synth, "fmax_mhz", 0),
                 !with_kind ? "" : strcmp(kind, "routed") ? " (estimate)" : " (routed)");
}

static void write_findings(html_page *p, const report *r);

static void write_summary(html_page *p, const report *r)
{
    html_put(p, "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"cards\">");
    char buf[128];
    snprintf(buf, sizeof buf, "%d", cJSON_GetArraySize(json_item(r->rep, "kernels")));
    card(p, "kernels", buf);
    snprintf(buf, sizeof buf, "%g MHz", r->board->clock_mhz);
    card(p, "clock target", buf);
    if (r->synth) {
        fmax_text(buf, sizeof buf, r->synth, 1);
        card(p, "fmax", buf);
        card(p, "fits the board", json_flag(r->synth, "fits") ? "yes" : "no");
    } else {
        card(p, "fmax", "not synthesized");
    }
    card(p, "last run", r->last ? "recorded" : "none");
    html_put(p, "</div>\n");
    html_table_begin(p, "kernels", (const char *const[]){"kernel", "compute units",
                "pipeline stages", "loops", "load-store units", "local memories", "barrier units",
                "operators", NULL});
    const cJSON *k;
    cJSON_ArrayForEach(k, json_item(r->rep, "kernels")) {
        html_put(p, "<tr><td><a href=\"#kernel-");
        html_text(p, json_str(k, "name", ""));
        html_put(p, "\">");
        html_text(p, json_str(k, "name", ""));
        html_put(p, "</a></td>");
        op_count kinds[MAX_KINDS];
        int wires, nk = count_operators(k, 0, kinds, &wires), ops = 0;
        for (int i = 0; i < nk; i++)
            ops += kinds[i].count;
        html_cellf(p, "%d", (int)json_num(k, "compute_units", 1));
        html_cellf(p, "%d", (int)json_num(k, "pipeline_depth", 0));
        html_cellf(p, "%d", count_kind(k, "loop"));
        html_cellf(p, "%d", cJSON_GetArraySize(json_item(k, "lsus")));
        html_cellf(p, "%d", cJSON_GetArraySize(json_item(k, "local_memories")));
        html_cellf(p, "%d", cJSON_GetArraySize(json_item(k, "barriers")));
        html_cellf(p, "%d (+%d wires)", ops, wires);
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
    write_findings(p, r);
    html_put(p, "</section>\n");
}

static const char *const resource_keys[] = {"lut", "ff", "bram", "dsp"};
static const char *const resource_names[] = {"LUTs", "flip-flops", "block RAMs", "DSP blocks"};

/* The synthesis module of a kernel's compute unit (report.json's kernel k), or NULL. */
static const cJSON *cu_module(const cJSON *modules, const cJSON *k)
{
    char name[300];
    snprintf(name, sizeof name, "clhls_cu_%s", json_str(k, "unit", json_str(k, "name", "")));
    const cJSON *m = json_item(modules, name);
    if (m)
        return m;
    cJSON_ArrayForEach(m, modules) { /* a tool may decorate module names */
        if (m->string && strstr(m->string, name))
            return m;
    }
    return NULL;
}

static void write_synthesis(html_page *p, const report *r)
{
    const cJSON *res = json_item(r->synth, "resources"), *modules = json_item(r->synth, "modules");
    const char *kind = json_str(r->synth, "fmax_kind", "estimate");
    int routed = !strcmp(kind, "routed");
    html_put(p, "<div class=\"cards\">");
    char buf[128];
    fmax_text(buf, sizeof buf, r->synth, 0);
    card(p, routed ? "fmax (placed and routed)" : "fmax (estimate)", buf);
    card(p, "fits the board", json_flag(r->synth, "fits") ? "yes" : "no");
    snprintf(buf, sizeof buf, "%.1f s", json_num(r->synth, "seconds", 0));
    card(p, "synthesis time", buf);
    card(p, "tool", json_str(r->synth, "tool", "?"));
    html_put(p, "</div>\n");
    if (!routed && cJSON_IsNumber(json_item(r->synth, "fmax_mhz")))
        html_note(p, "info", "fmax is an estimate from synthesis (no place and route for this "
                        "board): the routed design may be slower.");
    char msg[300];
    if (json_num(r->synth, "fmax_mhz", 0) > 0 && json_num(r->synth, "fmax_mhz", 0) < r->board->clock_mhz) {
        snprintf(msg, sizeof msg, "The fmax is below the board's clock target of %g MHz: the "
                 "critical path below is the one to shorten.", r->board->clock_mhz);
        html_note(p, "warn", msg);
    }
    const char *after = json_str(r->synth, "counted_after", NULL);
    if (after) {
        snprintf(msg, sizeof msg, "The design does not fit the board: synthesis stopped after "
                 "%s, where it already needed more than the board has (see the resources "
                 "below; what was not mapped yet is not counted, and there is no fmax).", after);
        html_note(p, "warn", msg);
    } else if (!json_flag(r->synth, "fits")) {
        html_note(p, "warn", "The design does not fit the board: see the resources below.");
    }
    html_put(p, "<p>From <code>");
    html_textf(p, "%s/synth/%s/synth.json", r->synth_entry, r->board->name);
    html_put(p, strcmp(r->synth_entry, r->entry) ? "</code> (an earlier build of the same source, "
                                              "board and options).</p>\n" : "</code>.</p>\n");
    const cJSON *cp = json_item(r->synth, "critical_path");
    if (cJSON_IsObject(cp)) { /* null when synthesis stopped early */
        html_put(p, "<p>Critical path: from the ");
        html_text(p, json_str(cp, "from_where", "?"));
        html_put(p, " to the ");
        html_text(p, json_str(cp, "to_where", "?"));
        html_putf(p, ", %d logic levels (<code>", (int)json_num(cp, "levels", 0));
        html_text(p, json_str(cp, "from", "?"));
        html_put(p, "</code> to <code>");
        html_text(p, json_str(cp, "to", "?"));
        html_put(p, "</code>).</p>\n");
    }
    /* one bar per resource: each compute unit, the rest of the accelerator */
    draw_bar bars[4];
    memset(bars, 0, sizeof bars);
    const cJSON *kernels = json_item(r->rep, "kernels"), *k;
    int units = 0; /* compute units the synthesis kept as modules (none when flattened) */
    cJSON_ArrayForEach(k, kernels)
        units += cu_module(modules, k) != NULL;
    for (int i = 0; i < 4; i++) {
        const cJSON *rr = json_item(res, resource_keys[i]);
        double used = json_num(rr, "used", 0), cap = json_num(rr, "capacity", 0), cus = 0;
        draw_bar *b = &bars[i];
        snprintf(b->label, sizeof b->label, "%s", resource_names[i]);
        b->scale = cap > 0 ? cap : used;
        int s = 0;
        cJSON_ArrayForEach(k, kernels) {
            const cJSON *m = cu_module(modules, k);
            if (m && s < 4) {
                b->value[s] = json_num(m, resource_keys[i], 0);
                b->cls[s] = (const char *[]){"seg0", "seg1", "seg2", "seg3"}[s];
                cus += b->value[s++];
            }
        }
        b->value[s] = used > cus ? used - cus : 0;
        b->cls[s++] = cap > 0 && used > cap ? "seg-over" : units ? "seg-other" : "seg0";
        b->nseg = s;
        if (cJSON_IsNull(json_item(rr, "used"))) /* synthesis stopped before mapping these */
            snprintf(b->note, sizeof b->note, "not counted");
        else
            snprintf(b->note, sizeof b->note, "%.0f of %.0f (%.1f%%)", used, cap,
                     cap > 0 ? 100.0 * used / cap : 0);
    }
    draw_bar_chart(p, "resources-total", bars, 4);
    if (!units) {
        html_note(p, "info", "The synthesis flattened the design: it reports the whole accelerator "
                        "only, not each kernel's compute unit.");
        return;
    }
    /* the same, each bar the accelerator's own use: where the resources go */
    html_put(p, "<h3>Share of the accelerator</h3>\n");
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
    draw_bar_chart(p, "resources-share", bars, 4);
    html_put(p, "<div class=\"legend\">");
    int s = 0;
    cJSON_ArrayForEach(k, kernels)
        if (cu_module(modules, k) && s < 4) {
            html_putf(p, "<span class=\"seg%d\" style=\"background:%s\"></span>", s,
                 (const char *[]){"#4c78d8", "#e8a33d", "#4bab6e", "#a46ad8"}[s]);
            html_textf(p, "compute unit of %s", json_str(k, "name", ""));
            s++;
        }
    html_put(p, "<span style=\"background:#a7b1c4\"></span>rest of the accelerator (top, "
           "interconnect)</div>\n");
    html_put(p, "<h3>Per compute unit</h3>\n");
    html_table_begin(p, "per-cu", (const char *const[]){"kernel", "module", "LUTs", "flip-flops",
                "block RAMs", "DSP blocks", NULL});
    cJSON_ArrayForEach(k, kernels) {
        const cJSON *m = cu_module(modules, k);
        html_put(p, "<tr>");
        html_cell(p, json_str(k, "name", ""));
        html_cell(p, m && m->string ? m->string : "(not in the synthesis results)");
        for (int i = 0; i < 4; i++) {
            double cap = json_num(json_item(res, resource_keys[i]), "capacity", 0);
            double v = json_num(m, resource_keys[i], 0);
            if (m)
                html_cellf(p, "%.0f (%.2f%%)", v, cap > 0 ? 100 * v / cap : 0);
            else
                html_cell(p, "-");
        }
        html_put(p, "</tr>\n");
    }
    html_put(p, "<tr><td><b>total</b></td><td>the whole accelerator</td>");
    for (int i = 0; i < 4; i++) {
        const cJSON *rr = json_item(res, resource_keys[i]);
        if (cJSON_IsNull(json_item(rr, "used")))
            html_cellf(p, "not counted (capacity %.0f)", json_num(rr, "capacity", 0));
        else
            html_cellf(p, "%.0f of %.0f", json_num(rr, "used", 0), json_num(rr, "capacity", 0));
    }
    html_put(p, "</tr>\n");
    html_table_end(p);
}

/* What the compiler knows about the size of the hardware, synthesis or not. */
static void write_compiler_view(html_page *p, const report *r)
{
    html_put(p, "<h3>What the compiler built</h3>\n");
    html_table_begin(p, "compiler-view", (const char *const[]){"kernel", "pipeline stages",
                "operators (wires)", "operators by kind", "FIFOs", "FIFO bits", "load-store units",
                "local memory (bytes x copies, banks)", "barrier RAM entries", NULL});
    const cJSON *k;
    cJSON_ArrayForEach(k, json_item(r->rep, "kernels")) {
        op_count kinds[MAX_KINDS];
        int wires, nk = count_operators(k, 0, kinds, &wires), ops = 0, nfifo;
        for (int i = 0; i < nk; i++)
            ops += kinds[i].count;
        double bits = fifo_bits(k, &nfifo);
        html_put(p, "<tr>");
        html_cell(p, json_str(k, "name", ""));
        html_cellf(p, "%d", (int)json_num(k, "pipeline_depth", 0));
        html_cellf(p, "%d (%d)", ops, wires);
        char by_kind[512] = "-";
        size_t len = 0;
        for (int i = 0; i < nk && len + 40 < sizeof by_kind; i++)
            len += (size_t)snprintf(by_kind + len, sizeof by_kind - len, "%s%s %d", i ? ", " : "",
                                    kinds[i].kind, kinds[i].count);
        html_cell(p, by_kind);
        html_cellf(p, "%d", nfifo);
        html_cellf(p, "%.0f", bits);
        html_cellf(p, "%d", cJSON_GetArraySize(json_item(k, "lsus")));
        char mem[256] = "-";
        size_t n = 0;
        const cJSON *m;
        cJSON_ArrayForEach(m, json_item(k, "local_memories"))
            if (n + 80 < sizeof mem)
                n += (size_t)snprintf(mem + n, sizeof mem - n, "%s%s: %.0f x %d, %d banks",
                                      n ? "; " : "", json_str(m, "name", "?"), json_num(m, "copy_bytes", 0),
                                      (int)json_num(m, "copies", 0), (int)json_num(m, "banks", 0));
        html_cell(p, mem);
        double entries = 0;
        const cJSON *b;
        cJSON_ArrayForEach(b, json_item(k, "barriers"))
            entries += json_num(b, "slots", 0) * json_num(b, "entries_per_slot", 0);
        html_cellf(p, "%.0f", entries);
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
}

static void write_resources(html_page *p, const report *r)
{
    html_put(p, "<section id=\"resources\"><h2>Resources</h2>\n");
    if (r->synth) {
        write_synthesis(p, r);
    } else {
        char msg[600];
        snprintf(msg, sizeof msg, "No synthesis results for board %s yet. Run `clhls synth %s "
                 "--board %s` and write this report again to see LUTs, flip-flops, block RAMs "
                 "and DSP blocks against the board's capacity, and the fmax. Until then, what "
                 "the compiler knows:", r->board->name, r->source_name, r->board->name);
        html_note(p, "warn", msg);
    }
    write_compiler_view(p, r);
    html_put(p, "</section>\n");
}

/* The last run of a kernel, or NULL. */
static const cJSON *last_run_of(const report *r, const char *name)
{
    return r->last ? json_item(json_item(r->last, "kernels"), name) : NULL;
}

/* The most entries channel ch held during the last run of its writer (or, when that
 * was not recorded, of its reader): the counter channel_peak.NAME; -1 when neither
 * run was recorded. */
static int channel_peak(const report *r, const cJSON *ch)
{
    char counter[300];
    snprintf(counter, sizeof counter, "channel_peak.%s", json_str(ch, "name", ""));
    static const char *const ends[] = {"writer", "reader"};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        const cJSON *run = last_run_of(r, json_str(ch, ends[i], ""));
        const cJSON *peak = json_item(json_item(run, "counters"), counter);
        if (cJSON_IsNumber(peak))
            return (int)peak->valuedouble;
    }
    return -1;
}

/* The channels and pipes between the kernels (metadata.json's "channels"): drawn, and
 * a table with how full each got in the last run; nothing for a program without
 * them. */
static void write_channels(html_page *p, const report *r)
{
    const cJSON *channels = json_item(r->meta, "channels"), *ch;
    int nchannels = cJSON_GetArraySize(channels);
    if (!nchannels)
        return;
    int *peaks = calloc((size_t)nchannels, sizeof *peaks), i = 0;
    if (!peaks)
        return;
    cJSON_ArrayForEach(ch, channels)
        peaks[i++] = channel_peak(r, ch);
    html_put(p, "<section id=\"channels\"><h2>Channels and pipes</h2>\n");
    html_elem(p, "p", NULL, "Each channel or pipe is a FIFO in the accelerator from the compute "
              "unit of the kernel that writes it to the one of the kernel that reads it; the "
              "kernels run at once, each on its own unit.");
    draw_channels(p, channels, json_item(r->meta, "kernels"), peaks);
    html_table_begin(p, "channels", (const char *const[]){"name", "kind", "element bits",
                     "FIFO depth", "declared depth", "written by", "read by",
                     "most entries in the last run", NULL});
    i = 0;
    cJSON_ArrayForEach(ch, channels) {
        html_put(p, "<tr>");
        html_cell(p, json_str(ch, "name", "?"));
        html_cell(p, json_flag(ch, "pipe") ? "pipe (arguments of this name)" : "channel");
        html_cellf(p, "%d", (int)json_num(ch, "bits", 0));
        html_cellf(p, "%d", (int)json_num(ch, "depth", 0));
        int declared = (int)json_num(ch, "declared_depth", 0);
        if (declared)
            html_cellf(p, "%d", declared);
        else
            html_cell(p, "-");
        html_cell(p, json_str(ch, "writer", "?"));
        html_cell(p, json_str(ch, "reader", "?"));
        int peak = peaks[i++], depth = (int)json_num(ch, "depth", 0);
        if (peak < 0)
            html_cell(p, "no run recorded");
        else if (peak >= depth)
            html_cellf(p, "%d of %d: full at times (its writer could not write then)", peak, depth);
        else
            html_cellf(p, "%d of %d", peak, depth);
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
    html_put(p, "</section>\n");
    free(peaks);
}

/* Where an access executes: its memory node, or a static region's stage (a table in
 * ROM) with its latency. */
static void where_cell(html_page *p, const cJSON *access)
{
    if (json_item(access, "stage"))
        html_cellf(p, "region %d, stage %d (+%d)", (int)json_num(access, "region", 0),
              (int)json_num(access, "stage", 0), (int)json_num(access, "latency", 0));
    else
        html_cellf(p, "memory node %d", (int)json_num(access, "region", 0));
}

/* Where work-items may wait, region by region (the graph's red badges). */
static void write_stall_points(html_page *p, const report *r, const cJSON *k)
{
    int shown = 0;
    const cJSON *rg;
    cJSON_ArrayForEach(rg, json_item(k, "regions")) {
        const cJSON *s;
        cJSON_ArrayForEach(s, json_item(rg, "stall_points")) {
            if (!shown++) {
                html_put(p, "<h3>Stall points</h3>\n");
                html_table_begin(p, "stall-points", (const char *const[]){"region", "where work-items "
                            "may wait", "line", "source", NULL});
            }
            int line = (int)json_num(s, "line", 0);
            html_put(p, "<tr>");
            html_cellf(p, "%d (%s)", (int)json_num(rg, "id", 0), json_str(rg, "kind", ""));
            html_cell(p, json_str(s, "what", ""));
            html_cellf(p, "%d", line);
            html_put(p, "<td class=\"mono\">");
            html_text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
            html_put(p, "</td></tr>\n");
        }
    }
    if (shown)
        html_table_end(p);
}

/* A single work-item kernel's loops, as a loop analysis: pipelined or not, the II and
 * what sets it, iterations speculated and in flight, latency. */
static void write_task_loops(html_page *p, const cJSON *k)
{
    html_put(p, "<h3>Loops (single work-item: iterations pipelined)</h3>\n");
    html_table_begin(p, "loops", (const char *const[]){"region", "line", "nesting", "mode",
                "II (cycles between iterations)", "what sets the II", "speculated iterations",
                "iterations in flight", "latency", NULL});
    const cJSON *rg;
    cJSON_ArrayForEach(rg, json_item(k, "regions")) {
        if (strcmp(json_str(rg, "kind", ""), "loop"))
            continue;
        const char *mode = json_str(rg, "mode", "?"), *why = json_str(rg, "ii_reason", "");
        int ii = (int)json_num(rg, "ii", 0);
        html_put(p, "<tr>");
        html_cellf(p, "%d", (int)json_num(rg, "id", 0));
        html_cellf(p, "%d", (int)json_num(rg, "line", 0));
        html_cellf(p, "%d", (int)json_num(rg, "nesting", 0));
        int lanes = (int)json_num(rg, "interleaved", 1);
        if (strcmp(mode, "pipelined"))
            html_put(p, "<td><span class=\"tag bad\">serial</span></td>");
        else if (lanes > 1)
            html_putf(p, "<td><span class=\"tag ok\">pipelined</span> %d interleaved</td>", lanes);
        else
            html_put(p, "<td><span class=\"tag ok\">pipelined</span></td>");
        html_cellf(p, "%d", ii);
        html_cell(p, *why ? why : ii <= 1 ? "nothing: one iteration per cycle" : "");
        html_cellf(p, "%d", (int)json_num(rg, "speculated", 0));
        html_cellf(p, "%d", (int)json_num(rg, "in_flight", 1));
        html_cellf(p, "%d", (int)json_num(rg, "latency", 0));
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
    html_put(p, "<p>A pipelined loop starts an iteration every II cycles: a generator issues "
           "them, values carried to the next iteration are registers, and the iterations "
           "issued past the exit (<i>speculated</i>) change nothing. In an <i>interleaved</i> "
           "loop, that many outer iterations (or work-items) take turns, an iteration of each "
           "in a round, so the II's cycles carry other iterations' work. A serial loop runs one "
           "iteration at a time; the reason says which dependence keeps it so.</p>\n");
}

static void write_loops(html_page *p, const cJSON *k)
{
    if (!count_kind(k, "loop"))
        return;
    if (json_flag(k, "single_work_item")) {
        write_task_loops(p, k);
        return;
    }
    html_put(p, "<h3>Loops</h3>\n");
    html_table_begin(p, "loops", (const char *const[]){"region", "line", "nesting", "blocks",
                "latency (cycles around)", "credits (work-items inside)", "back-edge FIFO",
                "barriers hold", "token bits", NULL});
    const cJSON *rg;
    cJSON_ArrayForEach(rg, json_item(k, "regions")) {
        if (strcmp(json_str(rg, "kind", ""), "loop"))
            continue;
        char blocks[256];
        json_block_list(json_item(rg, "blocks"), blocks, sizeof blocks);
        html_put(p, "<tr>");
        html_cellf(p, "%d", (int)json_num(rg, "id", 0));
        html_cellf(p, "%d", (int)json_num(rg, "line", 0));
        html_cellf(p, "%d", (int)json_num(rg, "nesting", 0));
        html_cell(p, blocks);
        html_cellf(p, "%d", (int)json_num(rg, "latency", 0));
        html_cellf(p, "%d", (int)json_num(rg, "credits", 0));
        html_cellf(p, "%d", (int)json_num(rg, "back_fifo", 0));
        html_cellf(p, "%d", (int)json_num(rg, "barrier_hold", 0));
        html_cellf(p, "%d", (int)json_num(rg, "token_bits", 0));
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
    html_put(p, "<p>A loop admits at most <i>credits</i> work-items; with credits at least the "
           "latency it starts one iteration per cycle, and with the back-edge FIFO as deep as "
           "the credits the back edge always has room, so the loop cannot deadlock.</p>\n");
}

static void pattern_text(const cJSON *o, char *buf, size_t len)
{
    const char *pat = json_str(o, "pattern", "irregular");
    if (!strcmp(pat, "strided"))
        snprintf(buf, len, "strided, %.0f bytes", json_num(o, "stride_bytes", 0));
    else if (!strcmp(pat, "uniform"))
        snprintf(buf, len, "uniform (one address)");
    else if (!strcmp(pat, "consecutive"))
        snprintf(buf, len, "consecutive");
    else
        snprintf(buf, len, "irregular");
}

static void write_lsus(html_page *p, const report *r, const cJSON *k)
{
    const cJSON *lsus = json_item(k, "lsus"), *roms = json_item(k, "rom_reads");
    html_put(p, "<h3>Load-store units</h3>\n");
    if (!cJSON_GetArraySize(lsus) && !cJSON_GetArraySize(roms)) {
        html_put(p, "<p>None: the kernel does not touch global memory.</p>\n");
        return;
    }
    int loads = 0, stores = 0, atomics = 0, bursts = 0, singles = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, lsus) {
        const char *kind = json_str(l, "kind", "");
        loads += !strcmp(kind, "load");
        stores += !strcmp(kind, "store");
        atomics += !strcmp(kind, "atomic");
        bursts += json_flag(l, "burst");
        singles += !json_flag(l, "coalescing");
    }
    html_put(p, "<p>");
    html_textf(p, "%d load%s, %d store%s, %d atomic%s; %d burst-coalesced, %d making one memory "
          "request per access; %d read%s from __constant tables in ROM.", loads,
          loads == 1 ? "" : "s", stores, stores == 1 ? "" : "s", atomics, atomics == 1 ? "" : "s",
          bursts, singles, cJSON_GetArraySize(roms), cJSON_GetArraySize(roms) == 1 ? "" : "s");
    html_put(p, "</p>\n");
    int task = json_flag(k, "single_work_item"); /* patterns are across iterations */
    html_table_begin(p, "lsus", (const char *const[]){"unit", "kind", "memory", "width", "line",
                "source", "unit template", task ? "access pattern (iterations)" : "access pattern",
                "coalescing", task ? "iterations per request" : "work-items per request",
                "where", NULL});
    cJSON_ArrayForEach(l, lsus) {
        int line = (int)json_num(l, "line", 0);
        char pat[64];
        pattern_text(l, pat, sizeof pat);
        html_put(p, "<tr>");
        html_cellf(p, "LSU %d", (int)json_num(l, "index", 0));
        const char *atomic = json_str(l, "atomic", NULL);
        html_cellf(p, "%s%s%s%s", json_str(l, "kind", "?"), atomic ? " " : "", atomic ? atomic : "",
              json_flag(l, "acknowledged") ? " (acknowledged)" : "");
        html_cell(p, json_str(l, "space", "global"));
        html_cellf(p, "%d bits", (int)json_num(l, "width_bits", 0));
        html_cellf(p, "%d", line);
        html_put(p, "<td class=\"mono\">");
        html_text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
        html_put(p, "</td>");
        html_cell(p, json_str(l, "unit", "?"));
        html_cell(p, pat);
        double per = json_num(l, "work_items_per_request", 1);
        html_put(p, json_flag(l, "burst") ? "<td><span class=\"tag ok\">burst-coalesced</span></td>"
               : json_flag(l, "coalescing")
                   ? "<td><span class=\"tag op\">coalescing, no burst</span></td>"
               : "<td><span class=\"tag bad\">one request per access</span></td>");
        if (per == 0)
            html_cell(p, "all (one address)");
        else
            html_cellf(p, "%.4g", per);
        where_cell(p, l);
        html_put(p, "</tr>\n");
    }
    cJSON_ArrayForEach(l, roms) {
        html_put(p, "<tr>");
        html_cell(p, "ROM");
        html_cell(p, "load");
        html_cellf(p, "__constant '%s'", json_str(l, "table", "?"));
        html_cellf(p, "%d bits", (int)json_num(l, "width_bits", 0));
        html_cellf(p, "%d", (int)json_num(l, "line", 0));
        int line = (int)json_num(l, "line", 0);
        html_put(p, "<td class=\"mono\">");
        html_text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
        html_put(p, "</td>");
        html_cell(p, "ROM in the compute unit");
        html_cell(p, "-");
        html_cell(p, "no memory request");
        html_cell(p, "-");
        where_cell(p, l);
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
}

static void write_locals(html_page *p, const report *r, const cJSON *k)
{
    const cJSON *mems = json_item(k, "local_memories");
    if (!cJSON_GetArraySize(mems))
        return;
    html_put(p, "<h3>Local memory</h3>\n");
    const cJSON *m;
    cJSON_ArrayForEach(m, mems) {
        const char *pred = json_str(m, "predicted_conflicts", "possible");
        html_put(p, "<p>");
        html_elem(p, "b", NULL, json_str(m, "name", "?"));
        html_textf(p, " (%s): %.0f bytes used, %.0f bytes per copy, %d copies (one per work-group "
              "slot), %d banks of %d-bit words%s. Predicted bank conflicts: ",
              json_num(m, "arg", -1) >= 0 ? "__local argument" : "__local array", json_num(m, "bytes", 0),
              json_num(m, "copy_bytes", 0), (int)json_num(m, "copies", 0), (int)json_num(m, "banks", 0),
              (int)json_num(m, "word_bits", 0), json_flag(m, "atomics") ? ", atomics in the banks" : "");
        html_putf(p, "<span class=\"tag %s\">", !strcmp(pred, "certain") ? "bad"
                                            : !strcmp(pred, "none") ? "ok" : "op");
        html_text(p, pred);
        html_put(p, "</span></p>\n<p class=\"wiring\">");
        int wired = !strcmp(json_str(m, "wiring", ""), "static");
        html_text(p, wired ? "Banks wired statically (no arbiter, no conflict): "
                      : "Banks behind a crossbar (an arbiter per bank): ");
        html_text(p, json_str(m, "wiring_reason", ""));
        html_put(p, "</p>\n");
        if (!strcmp(pred, "certain"))
            html_note(p, "warn", "Two accesses of one work-item in the same cycle meet in one bank "
                            "every time (see the pairs below): they take turns, and the pipeline "
                            "waits. Padding the array (one more column) usually spreads them.");
        html_table_begin(p, "local-ports", (const char *const[]){"port", "kind", "width", "line",
                    "source", "access pattern", "where", NULL});
        const cJSON *pt;
        cJSON_ArrayForEach(pt, json_item(m, "ports")) {
            int line = (int)json_num(pt, "line", 0);
            char pat[64];
            pattern_text(pt, pat, sizeof pat);
            const char *atomic = json_str(pt, "atomic", NULL);
            html_put(p, "<tr>");
            html_cellf(p, "%d", (int)json_num(pt, "port", 0));
            html_cellf(p, "%s%s%s", json_str(pt, "kind", "?"), atomic ? " " : "", atomic ? atomic : "");
            html_cellf(p, "%d bits", (int)json_num(pt, "width_bits", 0));
            html_cellf(p, "%d", line);
            html_put(p, "<td class=\"mono\">");
            html_text(p, line > 0 && line <= r->nlines ? r->lines[line - 1] : "");
            html_put(p, "</td>");
            html_cell(p, pat);
            where_cell(p, pt);
            html_put(p, "</tr>\n");
        }
        html_table_end(p);
        /* pairs the analysis could decide */
        int shown = 0;
        const cJSON *pp;
        cJSON_ArrayForEach(pp, json_item(m, "port_pairs")) {
            const char *v = json_str(pp, "verdict", "");
            if (strcmp(v, "conflict") && strcmp(v, "disjoint") && strcmp(v, "broadcast"))
                continue;
            if (!shown++)
                html_table_begin(p, "bank-pairs", (const char *const[]){"ports used in one cycle "
                            "by one work-item", "bytes apart", "verdict", NULL});
            html_put(p, "<tr>");
            html_cellf(p, "%d and %d", (int)json_num(pp, "a", 0), (int)json_num(pp, "b", 0));
            html_cellf(p, "%.0f", json_num(pp, "bytes_apart", 0));
            html_putf(p, "<td><span class=\"tag %s\">", !strcmp(v, "conflict") ? "bad" : "ok");
            html_text(p, !strcmp(v, "conflict") ? "same bank: conflict"
                    : !strcmp(v, "broadcast") ? "same word: broadcast" : "different banks");
            html_put(p, "</span></td></tr>\n");
        }
        if (shown)
            html_table_end(p);
        if (!strcmp(pred, "possible"))
            html_put(p, "<p>Other pairs of ports serve different work-items (other stages or regions, "
                   "or groups on either side of a barrier) and meet in a bank only when their "
                   "addresses happen to: the <code>local_conflicts</code> counter of a run says "
                   "how often.</p>\n");
    }
}

static void write_barriers(html_page *p, const cJSON *k)
{
    const cJSON *bars = json_item(k, "barriers");
    if (!cJSON_GetArraySize(bars))
        return;
    html_put(p, "<h3>Barrier and collective units</h3>\n");
    html_table_begin(p, "barriers", (const char *const[]){"region", "line", "slots",
                "entries per slot", "entry bits", "work-group function", NULL});
    const cJSON *b;
    cJSON_ArrayForEach(b, bars) {
        html_put(p, "<tr>");
        html_cellf(p, "%d", (int)json_num(b, "region", 0));
        html_cellf(p, "%d", (int)json_num(b, "line", 0));
        html_cellf(p, "%d", (int)json_num(b, "slots", 0));
        html_cellf(p, "%d", (int)json_num(b, "entries_per_slot", 0));
        html_cellf(p, "%d", (int)json_num(b, "entry_bits", 0));
        html_cell(p, json_str(b, "collective", "none (a barrier only)"));
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
}

static void write_operators(html_page *p, const cJSON *k)
{
    op_count kinds[MAX_KINDS];
    int wires, n = count_operators_as(k, 0, 1, kinds, &wires);
    html_put(p, "<h3>Operators</h3>\n");
    if (!n) {
        html_textf(p, "No operators besides %d wires.", wires);
        return;
    }
    draw_bar bars[MAX_KINDS];
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
    draw_bar_chart(p, "operators", bars, n);
    html_putf(p, "<p>Each operation is its own functional unit (one work-item enters per cycle, "
            "nothing is shared); %d more are wires (logic, extensions, shifts by a "
            "constant).</p>\n",
         wires);
}

/* One finding: a line with where it is and what it means. */
static void finding(html_page *p, const char *kind, const char *kernel, int line, const char *what)
{
    html_putf(p, "<li><span class=\"tag %s\">%s</span>", kind, !strcmp(kind, "bad") ? "look at"
                                                        : !strcmp(kind, "ok") ? "good" : "note");
    html_put(p, "<b>");
    html_text(p, kernel);
    html_put(p, "</b>");
    if (line)
        html_putf(p, ", <a href=\"#L%d\">line %d</a>", line, line);
    html_put(p, ": ");
    html_text(p, what);
    html_put(p, "</li>\n");
}

/* What deserves a look first: accesses that defeat coalescing, bank conflicts the
 * analysis is sure of, stores that wait, and what the last run measured. */
static void write_findings(html_page *p, const report *r)
{
    html_put(p, "<h3>Findings</h3>\n<ul class=\"findings\">\n");
    int n = 0;
    char what[512];
    const cJSON *k;
    cJSON_ArrayForEach(k, json_item(r->rep, "kernels")) {
        const char *name = json_str(k, "name", "");
        /* a single work-item kernel's accesses follow each other by loop iteration */
        int task = json_flag(k, "single_work_item");
        const char *item = task ? "iteration" : "work-item";
        const cJSON *o;
        cJSON_ArrayForEach(o, json_item(k, "regions"))
            if (task && !strcmp(json_str(o, "kind", ""), "loop") &&
                json_num(o, "ii", 1) > json_num(o, "interleaved", 1)) {
                snprintf(what, sizeof what, "loop %s at II %d: %s", json_str(o, "mode", ""),
                         (int)json_num(o, "ii", 0), json_str(o, "ii_reason", ""));
                finding(p, "bad", name, (int)json_num(o, "line", 0), what);
                n++;
            }
        cJSON_ArrayForEach(o, json_item(k, "lsus")) {
            int line = (int)json_num(o, "line", 0);
            if (json_flag(o, "acknowledged")) {
                snprintf(what, sizeof what, "the store waits for memory's acknowledgement (a "
                         "later access may read what it wrote): %d cycles in its region, and "
                         "only stores one right after another to one memory word share a "
                         "write", (int)json_num(o, "latency", 0));
                finding(p, "op", name, line, what);
                n++;
            } else if (!strcmp(json_str(o, "pattern", ""), "irregular") && json_flag(o, "coalescing")) {
                snprintf(what, sizeof what, "%s with an address the compiler cannot follow "
                         "from one %s to the next: coalescing works only when "
                         "neighbouring %ss happen to share a memory word",
                         json_str(o, "kind", ""), item, item);
                finding(p, "op", name, line, what);
                n++;
            } else if (!strcmp(json_str(o, "pattern", ""), "strided") && !json_flag(o, "burst")) {
                snprintf(what, sizeof what, "%s with a stride of %.0f bytes: one memory "
                         "request per %s", json_str(o, "kind", ""), json_num(o, "stride_bytes", 0),
                         item);
                finding(p, "bad", name, line, what);
                n++;
            }
        }
        cJSON_ArrayForEach(o, json_item(k, "local_memories"))
            if (!strcmp(json_str(o, "predicted_conflicts", ""), "certain")) {
                int line = 0;
                const cJSON *pp, *pt;
                cJSON_ArrayForEach(pp, json_item(o, "port_pairs"))
                    if (!line && !strcmp(json_str(pp, "verdict", ""), "conflict"))
                        cJSON_ArrayForEach(pt, json_item(o, "ports"))
                            if ((int)json_num(pt, "port", -1) == (int)json_num(pp, "a", -2))
                                line = (int)json_num(pt, "line", 0);
                snprintf(what, sizeof what, "accesses of __local %s meet in one bank in the same "
                         "cycle (%d pairs of ports): every work-item waits for them to take "
                         "turns", json_str(o, "name", ""), (int)json_num(o, "conflicting_pairs", 0));
                finding(p, "bad", name, line, what);
                n++;
            }
        const cJSON *run = last_run_of(r, name);
        if (run) {
            const cJSON *cs = json_item(run, "counters");
            double busy = json_num(cs, "busy_cycles", 0), items = json_num(cs, "work_items", 0);
            double stall = json_num(cs, "stall_mem_cycles", 0);
            double conflicts = json_num(cs, "local_conflicts", 0);
            if (!json_flag(run, "ok")) {
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
    if (r->synth && json_num(r->synth, "fmax_mhz", 0) > 0 &&
        json_num(r->synth, "fmax_mhz", 0) < r->board->clock_mhz) {
        snprintf(what, sizeof what, "the fmax%s, %.1f MHz, is below the clock target of %g MHz",
                 strcmp(json_str(r->synth, "fmax_kind", ""), "routed") ? " (estimate)" : "",
                 json_num(r->synth, "fmax_mhz", 0), r->board->clock_mhz);
        finding(p, "bad", "the accelerator", 0, what);
        n++;
    }
    if (!n)
        finding(p, "ok", "every kernel", 0, "nothing stands out: accesses coalesce, no bank "
                                            "conflict is certain");
    html_put(p, "</ul>\n");
}

static void write_kernel_run(html_page *p, const report *r, const cJSON *k)
{
    const char *name = json_str(k, "name", "");
    const cJSON *run = last_run_of(r, name);
    html_put(p, "<h3>Last run</h3>\n");
    if (!run) {
        html_put(p, "<p>No run of this kernel recorded (see <a href=\"#last-run\">Last run</a>).</p>\n");
        return;
    }
    const cJSON *cs = json_item(run, "counters");
    double busy = json_num(cs, "busy_cycles", json_num(run, "cycles", 0)), items = json_num(cs, "work_items", 0);
    double stall = json_num(cs, "stall_mem_cycles", 0), clock = json_num(r->meta, "clock_mhz", 0);
    char when[64] = "?";
    time_t t = (time_t)json_num(run, "time", 0);
    struct tm tm;
    if (t && gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    char geo[128] = "";
    size_t n = 0;
    const cJSON *g = json_item(run, "global"), *l = json_item(run, "local");
    for (int d = 0; d < cJSON_GetArraySize(g) && n + 40 < sizeof geo; d++)
        n += (size_t)snprintf(geo + n, sizeof geo - n, "%s%.0f/%.0f", d ? " x " : "",
                              cJSON_GetArrayItem(g, d)->valuedouble,
                              cJSON_IsNumber(cJSON_GetArrayItem(l, d))
                                  ? cJSON_GetArrayItem(l, d)->valuedouble : 0);
    html_put(p, "<div class=\"cards last-run-cards\">");
    char buf[128];
    card(p, "when", when);
    card(p, "outcome", json_flag(run, "ok") ? "completed" : "failed");
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
    /* the ports' words moved: each request is one, whatever of it the kernel uses; the
     * peak is every port's */
    double words = json_num(cs, "mem_read_requests", 0) + json_num(cs, "mem_write_requests", 0);
    double peak = board_mem_bytes_per_cycle(r->board) * r->board->mem_ports;
    if (busy > 0 && peak > 0) {
        double bytes = words * r->board->mem_width_bits / 8 / busy;
        snprintf(buf, sizeof buf, "%.1f of %.1f B/cycle (%.0f%%)", bytes, peak, 100 * bytes / peak);
        char key[32] = "memory port";
        if (r->board->mem_ports > 1)
            snprintf(key, sizeof key, "%u memory ports", r->board->mem_ports);
        card(p, key, buf);
    }
    html_put(p, "</div>\n");
    draw_bar bars[2];
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
    draw_bar_chart(p, "run-cycles", bars, 2);
    html_table_begin(p, "counters", (const char *const[]){"counter", "value", NULL});
    const cJSON *c;
    cJSON_ArrayForEach(c, cs) {
        html_put(p, "<tr>");
        html_cell(p, c->string ? c->string : "?");
        html_put(p, "<td class=\"num\">");
        html_textf(p, "%.0f", cJSON_IsNumber(c) ? c->valuedouble : 0);
        html_put(p, "</td></tr>\n");
    }
    html_table_end(p);
}

static void write_kernel(html_page *p, const report *r, const cJSON *k)
{
    const char *name = json_str(k, "name", "");
    html_put(p, "<section class=\"kernel\" id=\"kernel-");
    html_text(p, name);
    html_put(p, "\">");
    html_elemf(p, "h2", NULL, "Kernel %s (line %d)", name, (int)json_num(k, "line", 0));
    const cJSON *meta = kernel_meta(r, name);
    html_put(p, "<div class=\"cards\">");
    char buf[64];
    int units = (int)json_num(k, "compute_units", 1);
    if (units > 1) { /* the figures below are each unit's */
        snprintf(buf, sizeof buf, "%d, groups dealt in turn", units);
        card(p, "compute units", buf);
    }
    int lanes = (int)json_num(k, "simd_work_items", 1);
    if (lanes > 1) {
        snprintf(buf, sizeof buf, "%d a cycle", lanes);
        card(p, "SIMD work-items", buf);
    }
    snprintf(buf, sizeof buf, "%d", (int)json_num(k, "pipeline_depth", 0));
    card(p, "pipeline stages", buf);
    snprintf(buf, sizeof buf, "%d cycles", (int)json_num(k, "mem_latency", 0));
    card(p, "load latency scheduled", buf);
    snprintf(buf, sizeof buf, "%d", (int)json_num(k, "max_work_group_size", 0));
    card(p, "largest work-group", buf);
    snprintf(buf, sizeof buf, "%d", (int)json_num(k, "work_group_slots", 0));
    card(p, "work-groups in flight", json_num(k, "work_group_slots", 0) > 0 ? buf : "any");
    snprintf(buf, sizeof buf, "%d", cJSON_GetArraySize(json_item(meta, "args")));
    card(p, "arguments", buf);
    html_put(p, "</div>\n");
    html_put(p, "<h3>Region graph and blocks</h3>\n<div class=\"graphs\"><figure>");
    draw_region_graph(p, k);
    html_put(p, "<figcaption>Regions in the order work-items pass them. Green: stall-free clusters "
           "(only the input waits); amber: regions too short to need it, with a stall enable; "
           "blue: memory nodes (load-store units and local-memory ports, where work-items "
           "wait for memory); violet: barrier units; dashed frames: loops with their credits, "
           "latency and back edge. A red badge counts a region's stall points (hover for where)."
           "</figcaption>"
           "</figure><figure>");
    draw_cfg(p, k);
    html_put(p, "<figcaption>The control-flow graph's blocks in layers (longest path from the "
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
    html_put(p, "</section>\n");
}

static void write_last_run(html_page *p, const report *r)
{
    html_put(p, "<section id=\"last-run\"><h2>Last run</h2>\n");
    if (!r->last) {
        html_note(p, "info", "No run recorded yet. Run a host program that builds this source for "
                        "this board through the clhls OpenCL platform (the ICD): after each "
                        "kernel the runtime records its hardware counters in the build's cache "
                        "entry (last_run.json), and this report shows the last run of each "
                        "kernel.");
        html_put(p, "</section>\n");
        return;
    }
    html_put(p, "<p>From <code>");
    html_text(p, r->last_entry);
    html_put(p, "/last_run.json</code>.</p>\n");
    html_table_begin(p, "runs", (const char *const[]){"kernel", "outcome", "busy cycles",
                "work-items", "waiting for memory", "local bank conflicts", "memory reads",
                "memory writes", NULL});
    const cJSON *run;
    cJSON_ArrayForEach(run, json_item(r->last, "kernels")) {
        const cJSON *cs = json_item(run, "counters");
        html_put(p, "<tr>");
        html_cell(p, run->string ? run->string : "?");
        html_cell(p, json_flag(run, "ok") ? "completed" : "failed");
        const char *names[] = {"busy_cycles", "work_items", "stall_mem_cycles", "local_conflicts",
                               "mem_read_requests", "mem_write_requests"};
        for (int i = 0; i < 6; i++) {
            const cJSON *v = json_item(cs, names[i]);
            if (cJSON_IsNumber(v))
                html_cellf(p, "%.0f", v->valuedouble);
            else
                html_cell(p, "-");
        }
        html_put(p, "</tr>\n");
    }
    html_table_end(p);
    html_put(p, "</section>\n");
}

/* ---- the source, annotated ---- */

static void tag(html_page *p, const char *cls, const char *s)
{
    html_putf(p, "<span class=\"tag %s\">", cls);
    html_text(p, s);
    html_put(p, "</span>");
}

static void tagf(html_page *p, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void tagf(html_page *p, const char *cls, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tag(p, cls, buf);
}

/* The hardware line `line` produced, as tags; returns how many. */
static int line_tags(html_page *p, const report *r, int line, int draw)
{
    int n = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, json_item(r->rep, "kernels")) {
        const char *name = json_str(k, "name", "");
        if ((int)json_num(k, "line", 0) == line && ++n && draw)
            tagf(p, "kernel", "kernel %s", name);
        const cJSON *o;
        cJSON_ArrayForEach(o, json_item(k, "regions"))
            if (!strcmp(json_str(o, "kind", ""), "loop") && (int)json_num(o, "line", 0) == line && ++n &&
                draw) {
                if (json_flag(k, "single_work_item"))
                    tagf(p, "loop", "loop: %s, II %d%s%s", json_str(o, "mode", "?"),
                         (int)json_num(o, "ii", 0), *json_str(o, "ii_reason", "") ? ": " : "",
                         json_str(o, "ii_reason", ""));
                else
                    tagf(p, "loop", "loop: credits %d, latency %d, back-edge FIFO %d",
                         (int)json_num(o, "credits", 0), (int)json_num(o, "latency", 0),
                         (int)json_num(o, "back_fifo", 0));
            }
        cJSON_ArrayForEach(o, json_item(k, "barriers"))
            if ((int)json_num(o, "line", 0) == line && ++n && draw)
                tagf(p, "barrier", "barrier unit%s%s", json_str(o, "collective", NULL) ? ": " : "",
                     json_str(o, "collective", ""));
        cJSON_ArrayForEach(o, json_item(k, "lsus"))
            if ((int)json_num(o, "line", 0) == line && ++n && draw)
                tagf(p, "lsu", "%s %s LSU %d, %d-bit, %s%s", json_str(o, "space", ""),
                     json_str(o, "kind", ""), (int)json_num(o, "index", 0), (int)json_num(o, "width_bits", 0),
                     json_str(o, "pattern", ""), json_flag(o, "burst") ? ", burst" : "");
        cJSON_ArrayForEach(o, json_item(k, "rom_reads"))
            if ((int)json_num(o, "line", 0) == line && ++n && draw)
                tagf(p, "lsu", "ROM read of %s", json_str(o, "table", "?"));
        const cJSON *m;
        cJSON_ArrayForEach(m, json_item(k, "local_memories")) {
            const cJSON *pt;
            cJSON_ArrayForEach(pt, json_item(m, "ports"))
                if ((int)json_num(pt, "line", 0) == line && ++n && draw)
                    tagf(p, "local", "local %s %s port %d", json_str(pt, "kind", ""),
                         json_str(m, "name", ""), (int)json_num(pt, "port", 0));
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

static void write_source(html_page *p, const report *r)
{
    html_put(p, "<section id=\"source\"><h2>Source, annotated</h2>\n");
    html_put(p, "<p>Each line with the hardware it produced: loops, barrier units, load-store units "
           "(LSU), local memory ports and operators.</p>\n<table class=\"source\"><tbody>\n");
    for (int i = 0; i < r->nlines; i++) {
        int line = i + 1, has = line_tags(p, r, line, 0);
        html_putf(p, "<tr%s id=\"L%d\"><td class=\"ln\">%d</td><td class=\"code\">",
             has ? " class=\"hw\"" : "", line, line);
        html_text(p, r->lines[i]);
        html_put(p, "</td><td class=\"hw-tags\">");
        if (has)
            line_tags(p, r, line, 1);
        html_put(p, "</td></tr>\n");
    }
    html_put(p, "</tbody></table></section>\n");
}

static int write_page(const report *r, const char *path)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    html_page pg = {fopen(tmp, "w")};
    if (!pg.out)
        return -1;
    html_page *p = &pg;
    write_head(p, r);
    write_summary(p, r);
    write_resources(p, r);
    write_channels(p, r);
    const cJSON *k;
    cJSON_ArrayForEach(k, json_item(r->rep, "kernels"))
        write_kernel(p, r, k);
    write_last_run(p, r);
    write_source(p, r);
    html_put(p, "</main>\n<footer>");
    html_textf(p, "Written by clhls report from %s/report.json", r->entry);
    html_put(p, "</footer>\n</body></html>\n");
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
                             .skip_model = 1, .model = &cli_model_step,
                             .progress = on_progress};
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
    r.rep = hls_read_json(path);
    snprintf(path, sizeof path, "%s/metadata.json", r.entry);
    r.meta = hls_read_json(path);
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
