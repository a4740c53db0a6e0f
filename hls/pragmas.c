/* Loop pragmas in the vendors' spellings. Before clang sees the source, the front end
 * rewrites each line that holds one of Intel's loop pragmas into the `#pragma clang loop`
 * hint that means the same, on the same line (line numbers stay), so that clang attaches
 * it to the loop as `llvm.loop` metadata on the loop's latch, where lowering finds it
 * (lower.c: hls_loop_pragmas of the latch block):
 *   #pragma ivdep                    -> vectorize(assume_safety): llvm.loop.parallel_accesses
 *                                       and llvm.access.group on the loop's accesses
 *   #pragma ii N                     -> pipeline_initiation_interval(N)
 *   #pragma disable_loop_pipelining  -> pipeline(disable)
 *   #pragma max_concurrency N        -> interleave_count(N)
 *   #pragma max_interleaving N       -> vectorize_width(N + 1) (N may be 0)
 *   #pragma loop_coalesce [N]        -> distribute(enable)
 * (the last three: clang has no hints of those names, and neither LLVM's loop
 * vectorizer nor its loop distributor runs here, so the hints only carry them to the
 * loop; loop_coalesce's N is looked up among the pragmas remembered), and Xilinx's
 * __attribute__((xcl_pipeline_loop(N))), alone on its line, becomes the same as #pragma
 * ii N. A vendor's loop pragma that clhls does not implement (ivdep with array,
 * Xilinx's #pragma HLS, ...) is blanked and warned about here by name, so the build
 * log says what is left out instead of clang's "unknown pragma ignored". The pragmas
 * rewritten are remembered with their places, so that a later warning about a loop
 * points at its pragma (hls_loop_pragma). Pragmas coming from headers or macros are
 * clang's to judge. Intel's attributes that clang would ignore with a warning, a pipe
 * argument's __attribute__((blocking)) and __attribute__((depth(N))) and a kernel's
 * __attribute__((autorun)), max_global_work_dim(N), num_compute_units(N) and
 * num_simd_work_items(N), are blanked (spaces: columns stay) and remembered by kernel
 * and argument name for channels.c, autorun.c, replicate.c and simd.c
 * (hls_vendor_attribute). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* Intel loop pragmas clhls does not implement: the build goes on as without them. */
static const char *const unimplemented[] = {
    "speculated_iterations",
    "nofusion", "loop_fuse", "max_reinvocation_delay", "force_hyperopt", "force_no_hyperopt",
};

/* The pragmas that take one number, and the clang loop hint each becomes (with
 * N + 1 where N may be 0: clang's hints take positive numbers). */
static const struct {
    const char *name;      /* after #pragma */
    hls_pragma_kind kind;  /* in the compilation's table */
    const char *hint;      /* #pragma clang loop HINT(N) */
    int least;             /* the smallest N: 1, or 0 (then carried as N + 1) */
    const char *what;      /* what N is, for the warning */
} counted[] = {
    {"ii", HLS_PRAGMA_II, "pipeline_initiation_interval", 1,
     "a positive number, the initiation interval"},
    {"max_concurrency", HLS_PRAGMA_MAX_CONCURRENCY, "interleave_count", 1,
     "a positive number, the iterations in flight"},
    {"max_interleaving", HLS_PRAGMA_MAX_INTERLEAVING, "vectorize_width", 0,
     "a number, the work-items that may take turns (0: as many as the II needs)"},
};

/* Appends one pragma the front end rewrote to the compilation's table. */
static void remember(hls_compile *c, hls_pragma_kind kind, int value, hls_loc loc,
                     const char *text)
{
    if (c->npragmas == c->cappragmas) {
        int cap = c->cappragmas ? 2 * c->cappragmas : 16;
        hls_pragma *p = arena_alloc(&c->arena, (size_t)cap * sizeof *p);
        if (c->npragmas)
            memcpy(p, c->pragmas, (size_t)c->npragmas * sizeof *p);
        c->pragmas = p;
        c->cappragmas = cap;
    }
    c->pragmas[c->npragmas++] = (hls_pragma){.kind = kind, .value = value, .loc = loc,
                                             .text = text};
}

/* A decimal integer of at least `least` at *p (spaces skipped before it), or -1. */
static int number(const char **p, int least)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    long v = strtol(s, (char **)&s, 10);
    *p = s;
    return v >= least && v <= 1 << 20 ? (int)v : -1;
}

/* 1 when only spaces or a comment follow p on its line. */
static int line_ends(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p == end || (end - p >= 2 && p[0] == '/' && (p[1] == '/' || p[1] == '*'));
}

/* The replacement of the pragma line [hash, end) whose name starts at `name`, or NULL
 * to leave the line to clang; "" blanks it. Warns about what is not honoured. */
static const char *rewrite(hls_compile *c, const char *name, const char *end, hls_loc loc)
{
    size_t len = 0;
    while (name + len < end && (isalnum((unsigned char)name[len]) || name[len] == '_'))
        len++;
    const char *args = name + len;
    char *text = arena_printf(&c->arena, "#pragma %.*s", (int)(end - name), name);
    for (size_t t = strlen(text); t && isspace((unsigned char)text[t - 1]); t--)
        text[t - 1] = '\0';
    if (len == 5 && !strncmp(name, "ivdep", 5)) {
        const char *p = args;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        int safelen = 0; /* safelen(N): iterations fewer than N apart never meet */
        if (end - p > 8 && !strncmp(p, "safelen(", 8)) {
            p += 8;
            safelen = number(&p, 1);
            if (safelen < 0 || p >= end || *p != ')')
                safelen = -1;
            else
                p++;
        }
        if (safelen < 0 || !line_ends(p, end)) {
            hls_warning(&c->diag, loc, "'%s' is not honoured: clhls implements '#pragma "
                        "ivdep' and '#pragma ivdep safelen(N)', not array, so the loop is built "
                        "as without it (its accesses are checked for dependences across "
                        "iterations as usual)", text);
            return "";
        }
        remember(c, HLS_PRAGMA_IVDEP, safelen, loc, text);
        return "#pragma clang loop vectorize(assume_safety)";
    }
    for (size_t i = 0; i < sizeof counted / sizeof *counted; i++) {
        if (strlen(counted[i].name) != len || strncmp(name, counted[i].name, len))
            continue;
        const char *p = args;
        int n = number(&p, counted[i].least);
        if (n < 0 || !line_ends(p, end)) {
            hls_warning(&c->diag, loc, "'%s' is ignored: it wants %s", text, counted[i].what);
            return "";
        }
        remember(c, counted[i].kind, n, loc, text);
        return arena_printf(&c->arena, "#pragma clang loop %s(%d)", counted[i].hint,
                            n + 1 - counted[i].least);
    }
    if (len == 13 && !strncmp(name, "loop_coalesce", 13)) { /* N: the levels, else all */
        const char *p = args;
        int levels = line_ends(p, end) ? 0 : number(&p, 1);
        if (levels < 0 || !line_ends(p, end)) {
            hls_warning(&c->diag, loc, "'%s' is ignored: it wants nothing or a positive "
                        "number, the loop levels to coalesce", text);
            return "";
        }
        remember(c, HLS_PRAGMA_LOOP_COALESCE, levels, loc, text);
        return "#pragma clang loop distribute(enable)";
    }
    if (len == 23 && !strncmp(name, "disable_loop_pipelining", 23)) {
        remember(c, HLS_PRAGMA_DISABLE_PIPELINING, 0, loc, text);
        return "#pragma clang loop pipeline(disable)";
    }
    if (len == 6 && !strncmp(name, "OPENCL", 6)) { /* OPENCL EXTENSION NAME : enable */
        char line[128], ext[32], state[16];
        int used = 0;
        snprintf(line, sizeof line, "%.*s", (int)(end - args), args);
        if (sscanf(line, " EXTENSION %31[A-Za-z0-9_] : %15[a-z]%n", ext, state, &used) == 2 &&
            line_ends(line + used, line + strlen(line)) &&
            (!strcmp(ext, "cl_intel_channels") || !strcmp(ext, "cl_altera_channels"))) {
            c->channels_enabled |= !strcmp(state, "enable");
            return ""; /* clang does not know the extension: the front end's header does */
        }
        return NULL;
    }
    for (size_t i = 0; i < sizeof unimplemented / sizeof *unimplemented; i++)
        if (strlen(unimplemented[i]) == len && !strncmp(name, unimplemented[i], len)) {
            hls_warning(&c->diag, loc, "'%s' is not implemented: the loop is built as "
                        "without it", text);
            return "";
        }
    if (len == 3 && !strncmp(name, "HLS", 3)) {
        hls_warning(&c->diag, loc, "'%s' is not implemented (Xilinx's HLS pragmas are "
                    "not read); in a single work-item kernel clhls pipelines innermost loops "
                    "by itself, and '#pragma ii N' before a loop asks for its initiation "
                    "interval", text);
        return "";
    }
    return NULL;
}

/* Xilinx's __attribute__((xcl_pipeline_loop(N))) (N = 1 when absent) alone on its line
 * at s (the line starts at `line_start`): clang's pipeline_initiation_interval(N) as a
 * _Pragma, or NULL for any other line. */
static const char *xcl_attribute(hls_compile *c, const char *line_start, const char *s,
                                 const char *end, int line)
{
    static const char head[] = "__attribute__((xcl_pipeline_loop";
    size_t len = sizeof head - 1;
    if ((size_t)(end - s) < len || strncmp(s, head, len))
        return NULL;
    const char *p = s + len;
    int n = 1;
    if (*p == '(') {
        p++;
        n = number(&p, 1);
        if (n < 0 || *p != ')')
            return NULL;
        p++;
    }
    if (end - p < 2 || strncmp(p, "))", 2) || !line_ends(p + 2, end))
        return NULL;
    hls_loc loc = {.file = c->source_name, .line = (unsigned)line,
                   .col = (unsigned)(s - line_start) + 16};
    remember(c, HLS_PRAGMA_II, n, loc,
             arena_printf(&c->arena, "%.*s", (int)(p + 2 - s), s));
    return arena_printf(&c->arena, "_Pragma(\"clang loop pipeline_initiation_interval(%d)\")", n);
}

static int is_ident(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* The identifier that ends right before p (spaces skipped), copied; "" when none. */
static const char *ident_before(hls_compile *c, const char *text, const char *p)
{
    while (p > text && isspace((unsigned char)p[-1]))
        p--;
    const char *end = p;
    while (p > text && is_ident(p[-1]))
        p--;
    return arena_printf(&c->arena, "%.*s", (int)(end - p), p);
}

/* The attributes of Intel's that clang does not know, and what each applies to. */
static const struct {
    const char *name;      /* __attribute__((NAME)) or __attribute__((NAME(N))) */
    hls_attr_kind kind;
    int counted;           /* takes N */
    int of_kernel;         /* 1: the kernel's; 0: a pipe argument's */
} vendor_attrs[] = {
    {"blocking", HLS_ATTR_BLOCKING, 0, 0},
    {"depth", HLS_ATTR_DEPTH, 1, 0},
    {"autorun", HLS_ATTR_AUTORUN, 0, 1},
    {"max_global_work_dim", HLS_ATTR_MAX_GLOBAL_WORK_DIM, 1, 1},
    {"num_compute_units", HLS_ATTR_NUM_COMPUTE_UNITS, 1, 1},
    {"num_simd_work_items", HLS_ATTR_NUM_SIMD_WORK_ITEMS, 1, 1},
};

/* The attribute of vendor_attrs at a: its end, or NULL. *which is its index there,
 * *name where its name starts, *value its N (-1 when not a number, 0 without one). */
static const char *vendor_attribute(const char *a, int *which, const char **name, int *value)
{
    static const char head[] = "__attribute__";
    const char *p = a + sizeof head - 1;
    if (strncmp(a, head, sizeof head - 1))
        return NULL;
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "((", 2))
        return NULL;
    p += 2;
    while (isspace((unsigned char)*p))
        p++;
    *name = p;
    *which = -1;
    for (int i = 0; i < (int)(sizeof vendor_attrs / sizeof *vendor_attrs); i++) {
        size_t len = strlen(vendor_attrs[i].name);
        if (!strncmp(p, vendor_attrs[i].name, len) && !is_ident(p[len]))
            *which = i, p += len;
    }
    if (*which < 0)
        return NULL;
    *value = 0;
    if (vendor_attrs[*which].counted) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p++ != '(')
            return NULL;
        const char *digits = p;
        while (*p && *p != ')' && *p != '\n')
            p++;
        char *end;
        long n = strtol(digits, &end, 0);
        while (end < p && isspace((unsigned char)*end))
            end++;
        *value = end == digits || end != p || n < 0 || n > (1 << 20) ? -1 : (int)n;
        if (*p++ != ')')
            return NULL;
    }
    while (isspace((unsigned char)*p))
        p++;
    return strncmp(p, "))", 2) ? NULL : p + 2;
}

/* The kernel a kernel attribute ending at p belongs to: the identifier before the
 * first '(' after it that opens no other attribute; NULL when there is none. */
static const char *kernel_after(hls_compile *c, const char *text, const char *p)
{
    while (*p && (isspace((unsigned char)*p) || is_ident(*p))) {
        if (!strncmp(p, "__attribute__", 13) && !is_ident(p[13])) { /* skip it whole */
            const char *q = strchr(p, '(');
            for (int level = 0; q && *q; q++) {
                level += *q == '(' ? 1 : *q == ')' ? -1 : 0;
                if (!level)
                    break;
            }
            if (!q || !*q)
                return NULL;
            p = q;
        }
        p++;
    }
    const char *name = *p == '(' ? ident_before(c, text, p) : "";
    return *name ? name : NULL;
}

/* The pipe parameter an attribute at a..end is in (its name), and *kernel the kernel
 * whose parameter list holds it; NULL when the parameter does not say `pipe`. */
static const char *pipe_parameter(hls_compile *c, const char *text, const char *a,
                                  const char *end, const char **kernel)
{
    /* back to the parameter's start: the list's '(' or the ',' before it */
    const char *q = a;
    int level = 0, is_pipe = 0;
    while (q > text) {
        char ch = *--q;
        if (ch == ';' || ch == '{' || ch == '}')
            break;
        if (ch == ')')
            level++;
        else if (ch == '(' && level-- == 0)
            break;
        else if (ch == ',' && level == 0)
            break;
        if (level == 0 && !strncmp(q, "pipe", 4) && !is_ident(q[4]) &&
            (q == text || !is_ident(q[-1])))
            is_pipe = 1;
    }
    if (!is_pipe || (*q != '(' && *q != ','))
        return NULL;
    if (*q == ',') /* back to the list's '(' */
        for (level = 0; q > text; ) {
            char ch = *--q;
            if (ch == ')')
                level++;
            else if (ch == '(' && level-- == 0)
                break;
        }
    if (*q != '(')
        return NULL;
    *kernel = ident_before(c, text, q);
    /* on to the parameter's end: its name is the last identifier outside parentheses */
    const char *r = end, *last = NULL, *last_end = NULL;
    for (level = 0; *r && !(level == 0 && (*r == ',' || *r == ')')); r++) {
        if (*r == '(')
            level++;
        else if (*r == ')')
            level--;
        else if (level == 0 && is_ident(*r) && (r == end || !is_ident(r[-1]))) {
            last = r;
            for (last_end = r; is_ident(*last_end); last_end++)
                ;
        }
    }
    return last ? arena_printf(&c->arena, "%.*s", (int)(last_end - last), last) : NULL;
}

/* Intel's attributes clang does not know, in text (a copy the caller owns): remembered,
 * then blanked. A pipe argument's counts when its parameter says `pipe`, a kernel's
 * when a kernel's name follows. */
static void vendor_attributes(hls_compile *c, char *text)
{
    for (char *a = strstr(text, "__attribute__"); a; a = strstr(a + 1, "__attribute__")) {
        const char *name, *end, *kernel = NULL, *param = NULL;
        int which, value;
        if (!(end = vendor_attribute(a, &which, &name, &value)))
            continue;
        if (vendor_attrs[which].of_kernel)
            kernel = kernel_after(c, text, end);
        else
            param = pipe_parameter(c, text, a, end, &kernel);
        if (!kernel || (!vendor_attrs[which].of_kernel && !param))
            continue;
        unsigned line = 1;
        const char *line_start = text;
        for (const char *t = text; t < name; t++)
            if (*t == '\n')
                line++, line_start = t + 1;
        hls_vendor_attr *table =
            arena_alloc(&c->arena, (size_t)(c->nvendor_attrs + 1) * sizeof *table);
        if (c->nvendor_attrs)
            memcpy(table, c->vendor_attrs, (size_t)c->nvendor_attrs * sizeof *table);
        c->vendor_attrs = table;
        c->vendor_attrs[c->nvendor_attrs++] = (hls_vendor_attr){
            .kind = vendor_attrs[which].kind, .kernel = kernel, .param = param, .value = value,
            .loc = {.file = c->source_name, .line = line, .col = (unsigned)(name - line_start) + 1}};
        for (char *t = a; t < end; t++)
            if (*t != '\n')
                *t = ' ';
    }
}

const hls_vendor_attr *hls_vendor_attribute(const hls_compile *c, hls_attr_kind kind,
                                            const char *kernel, const char *param)
{
    const hls_vendor_attr *found = NULL;
    for (int i = 0; i < c->nvendor_attrs; i++) {
        const hls_vendor_attr *a = &c->vendor_attrs[i];
        if (a->kind == kind && !strcmp(a->kernel, kernel) &&
            (param ? a->param && !strcmp(a->param, param) : !a->param))
            found = a;
    }
    return found;
}

const char *hls_rewrite_pragmas(hls_compile *c, const char *source)
{
    size_t n = strlen(source);
    strbuf out = {0};
    int in_comment = 0; /* inside a block comment at the start of the line */
    const char *p = source, *stop = source + n;
    int line = 1, changed = 0;
    while (p < stop) {
        const char *end = memchr(p, '\n', (size_t)(stop - p));
        end = end ? end : stop;
        const char *s = p;
        while (!in_comment && s < end && (*s == ' ' || *s == '\t'))
            s++;
        const char *with = NULL, *name = NULL;
        if (!in_comment && s < end && *s == '#' && end[-1] != '\\') {
            const char *q = s + 1;
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            if (end - q > 7 && !strncmp(q, "pragma", 6) && (q[6] == ' ' || q[6] == '\t')) {
                name = q + 7;
                while (name < end && (*name == ' ' || *name == '\t'))
                    name++;
                hls_loc loc = {.file = c->source_name, .line = (unsigned)line,
                               .col = (unsigned)(name - p) + 1};
                with = rewrite(c, name, end, loc);
            }
        }
        if (!in_comment && !name)
            with = xcl_attribute(c, p, s, end, line);
        if (with) {
            sb_appendn(&out, p, (size_t)(s - p));
            sb_append(&out, with);
            changed = 1;
        } else {
            sb_appendn(&out, p, (size_t)(end - p));
        }
        /* block comments opened and not closed on this line (strings aside) */
        for (const char *q = p; q + 1 < end; q++) {
            if (!in_comment && q[0] == '/' && q[1] == '/')
                break;
            if (!in_comment && q[0] == '/' && q[1] == '*')
                in_comment = 1, q++;
            else if (in_comment && q[0] == '*' && q[1] == '/')
                in_comment = 0, q++;
        }
        if (end < stop)
            sb_append(&out, "\n");
        p = end + 1;
        line++;
    }
    char *text = arena_strdup(&c->arena, changed && out.data ? out.data : source);
    sb_free(&out);
    vendor_attributes(c, text);
    return text;
}

const hls_pragma *hls_loop_pragma(hls_compile *c, hls_pragma_kind kind, hls_loc start)
{
    const hls_pragma *best = NULL;
    for (int i = 0; i < c->npragmas; i++) {
        const hls_pragma *p = &c->pragmas[i];
        if (p->kind == kind && p->loc.line <= start.line &&
            (!start.file || !strcmp(p->loc.file, start.file)) &&
            (!best || p->loc.line > best->loc.line))
            best = p;
    }
    return best;
}
