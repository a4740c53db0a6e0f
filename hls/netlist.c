/* The emitter's netlist model (netlist.h): declarations kept in growable tables in the
 * compilation's arena, one printer, and one check. The check reads what each output,
 * assign and block drives as a net and a bit range (a whole net, name[i], name[h:l],
 * name[b +: w] or name[b -: w] with constant bounds, or a slice whose bounds it cannot
 * know), then walks each net's drivers in bit order: two drivers of one bit, or a bit
 * driven by nothing, is a problem. */
#include "netlist.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A port or a net of a module. */
typedef struct nl_signal {
    const char *name;    /* Verilog identifier */
    unsigned width;      /* bits */
    int port;            /* 1 = a port (dir says which), 0 = a net */
    hls_nl_dir dir;      /* ports: direction */
    int reg;             /* assigned in a block: declared reg / output reg */
    int unused;          /* read by nothing (lint waiver) */
    int vector;          /* declared with a range even at one bit */
    int keep;            /* a boundary synthesis keeps ((* keep *)) */
    int sim_only;        /* a port only the simulator's model has (CLHLS_SIM_CHECKS) */
    unsigned entries;    /* a reg array: its words (0 = not an array) */
    const char *comment; /* printed after the declaration, or NULL */
} nl_signal;

/* A parameter of an instance. */
typedef struct nl_param {
    const char *name;  /* parameter name */
    const char *value; /* Verilog expression */
} nl_param;

/* A port connection of an instance. */
typedef struct nl_conn {
    const char *port; /* port name of the instantiated module */
    hls_nl_dir dir;   /* HLS_NL_IN or HLS_NL_OUT */
    const char *expr; /* what it reads or drives ("" = an open output) */
} nl_conn;

struct hls_nl_instance {
    hls_nl_module *parent; /* the module it is in */
    const char *module;    /* instantiated module */
    const char *name;      /* instance name */
    nl_param *params;      /* parameters in order */
    int nparams, cap_params;
    nl_conn *conns;        /* connections in order */
    int nconns, cap_conns;
};

/* A continuous assign. */
typedef struct nl_assign {
    const char *target; /* net, output port or slice of one */
    const char *expr;   /* Verilog expression */
} nl_assign;

struct hls_nl_block {
    const char *text;     /* Verilog text, lines without the module's indentation */
    const char **driven;  /* names of the regs it assigns */
    int ndriven, cap_driven;
    arena *a;             /* where the table grows */
};

/* A Verilator warning waived for the module. */
typedef struct nl_waiver {
    const char *warning; /* e.g. PINCONNECTEMPTY */
    const char *reason;  /* one comment line */
} nl_waiver;

struct hls_nl_module {
    hls_nl_netlist *nl;           /* the netlist it belongs to */
    const char *name;             /* module name */
    const char **comments;        /* header comment lines */
    int ncomments, cap_comments;
    nl_waiver *waivers;           /* lint waivers */
    int nwaivers, cap_waivers;
    nl_signal *signals;           /* ports and nets in declaration order */
    int nsignals, cap_signals;
    int *index;                   /* hash of signal names: position + 1, 0 = empty */
    int cap_index;                /* slots (a power of two) */
    hls_nl_instance **instances;  /* instances in order */
    int ninstances, cap_instances;
    nl_assign *assigns;           /* assigns in order */
    int nassigns, cap_assigns;
    hls_nl_block **blocks;        /* blocks in order */
    int nblocks, cap_blocks;
};

struct hls_nl_netlist {
    arena *a;                 /* every allocation of the netlist */
    hls_nl_module **modules;  /* modules in order */
    int nmodules, cap_modules;
};

/* `items` (n used of *cap) with room for one more, moved to a larger arena block when
 * full. */
static void *grow(arena *a, void *items, int *cap, int n, size_t size)
{
    if (n < *cap)
        return items;
    int bigger = *cap ? *cap * 2 : 8;
    void *p = arena_alloc(a, (size_t)bigger * size);
    if (n)
        memcpy(p, items, (size_t)n * size);
    *cap = bigger;
    return p;
}

/* A new slot at the end of table `items`. */
#define PUSH(a, items, n, cap) ((items) = grow((a), (items), &(cap), (n), sizeof *(items)), &(items)[(n)++])

static char *vformat(arena *a, const char *fmt, va_list ap)
{
    strbuf sb = {0};
    sb_vprintf(&sb, fmt, ap);
    char *s = arena_strdup(a, sb.data);
    sb_free(&sb);
    return s;
}

hls_nl_netlist *hls_nl_netlist_new(arena *a)
{
    hls_nl_netlist *nl = arena_alloc(a, sizeof *nl);
    nl->a = a;
    return nl;
}

hls_nl_module *hls_nl_module_find(const hls_nl_netlist *nl, const char *name)
{
    for (int i = 0; i < nl->nmodules; i++)
        if (!strcmp(nl->modules[i]->name, name))
            return nl->modules[i];
    return NULL;
}

hls_nl_module *hls_nl_module_new(hls_nl_netlist *nl, const char *name)
{
    if (hls_nl_module_find(nl, name))
        HLS_BUG("netlist: module %s defined twice", name);
    hls_nl_module *m = arena_alloc(nl->a, sizeof *m);
    m->nl = nl;
    m->name = arena_strdup(nl->a, name);
    *PUSH(nl->a, nl->modules, nl->nmodules, nl->cap_modules) = m;
    return m;
}

void hls_nl_comment(hls_nl_module *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    *PUSH(m->nl->a, m->comments, m->ncomments, m->cap_comments) = vformat(m->nl->a, fmt, ap);
    va_end(ap);
}

void hls_nl_lint_off(hls_nl_module *m, const char *warning, const char *reason)
{
    nl_waiver *w = PUSH(m->nl->a, m->waivers, m->nwaivers, m->cap_waivers);
    w->warning = arena_strdup(m->nl->a, warning);
    w->reason = arena_strdup(m->nl->a, reason);
}

static unsigned hash_name(const char *s, size_t len)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Position of the signal called s[0..len) in m, or -1. */
static int find_signal(const hls_nl_module *m, const char *s, size_t len)
{
    if (!m->cap_index)
        return -1;
    unsigned mask = (unsigned)m->cap_index - 1;
    for (unsigned h = hash_name(s, len) & mask;; h = (h + 1) & mask) {
        int pos = m->index[h] - 1;
        if (pos < 0)
            return -1;
        const char *name = m->signals[pos].name;
        if (!strncmp(name, s, len) && !name[len])
            return pos;
    }
}

static void index_signal(hls_nl_module *m, int pos)
{
    unsigned mask = (unsigned)m->cap_index - 1;
    const char *name = m->signals[pos].name;
    unsigned h = hash_name(name, strlen(name)) & mask;
    while (m->index[h])
        h = (h + 1) & mask;
    m->index[h] = pos + 1;
}

static nl_signal *declare(hls_nl_module *m, const char *name, unsigned width)
{
    if (!width)
        HLS_BUG("netlist: %s.%s declared with no bits", m->name, name);
    if (find_signal(m, name, strlen(name)) >= 0)
        HLS_BUG("netlist: %s.%s declared twice", m->name, name);
    nl_signal *s = PUSH(m->nl->a, m->signals, m->nsignals, m->cap_signals);
    s->name = arena_strdup(m->nl->a, name);
    s->width = width;
    if (2 * m->nsignals > m->cap_index) { /* keep the hash at most half full */
        m->cap_index = m->cap_index ? 2 * m->cap_index : 64;
        m->index = arena_alloc(m->nl->a, (size_t)m->cap_index * sizeof *m->index);
        for (int i = 0; i < m->nsignals; i++)
            index_signal(m, i);
    } else {
        index_signal(m, m->nsignals - 1);
    }
    return s;
}

static const char *maybe_strdup(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

void hls_nl_port(hls_nl_module *m, hls_nl_dir dir, const char *name, unsigned width,
                 const char *comment)
{
    nl_signal *s = declare(m, name, width);
    s->port = 1;
    s->dir = dir;
    s->reg = dir == HLS_NL_OUT_REG;
    s->comment = maybe_strdup(m->nl->a, comment);
}

void hls_nl_sim_port(hls_nl_module *m, hls_nl_dir dir, const char *name, unsigned width,
                     const char *comment)
{
    hls_nl_port(m, dir, name, width, comment);
    m->signals[m->nsignals - 1].sim_only = 1;
}

void hls_nl_net(hls_nl_module *m, const char *name, unsigned width, const char *comment)
{
    declare(m, name, width)->comment = maybe_strdup(m->nl->a, comment);
}

void hls_nl_reg(hls_nl_module *m, const char *name, unsigned width, const char *comment)
{
    nl_signal *s = declare(m, name, width);
    s->reg = 1;
    s->comment = maybe_strdup(m->nl->a, comment);
}

void hls_nl_reg_array(hls_nl_module *m, const char *name, unsigned width, unsigned entries,
                      const char *comment)
{
    if (!entries)
        HLS_BUG("netlist: %s.%s declared as an array of no words", m->name, name);
    hls_nl_reg(m, name, width, comment);
    nl_signal *s = &m->signals[m->nsignals - 1];
    s->vector = 1;
    s->entries = entries;
}

static nl_signal *declared(hls_nl_module *m, const char *name)
{
    int pos = find_signal(m, name, strlen(name));
    if (pos < 0)
        HLS_BUG("netlist: %s.%s is not declared", m->name, name);
    return &m->signals[pos];
}

void hls_nl_unused(hls_nl_module *m, const char *name)
{
    declared(m, name)->unused = 1;
}

void hls_nl_vector(hls_nl_module *m, const char *name)
{
    declared(m, name)->vector = 1;
}

void hls_nl_keep(hls_nl_module *m, const char *name)
{
    declared(m, name)->keep = 1;
}

hls_nl_instance *hls_nl_instance_new(hls_nl_module *m, const char *module, const char *name)
{
    hls_nl_instance *i = arena_alloc(m->nl->a, sizeof *i);
    i->parent = m;
    i->module = arena_strdup(m->nl->a, module);
    i->name = arena_strdup(m->nl->a, name);
    *PUSH(m->nl->a, m->instances, m->ninstances, m->cap_instances) = i;
    return i;
}

void hls_nl_param(hls_nl_instance *i, const char *name, const char *fmt, ...)
{
    arena *a = i->parent->nl->a;
    nl_param *p = PUSH(a, i->params, i->nparams, i->cap_params);
    p->name = arena_strdup(a, name);
    va_list ap;
    va_start(ap, fmt);
    p->value = vformat(a, fmt, ap);
    va_end(ap);
}

void hls_nl_connect(hls_nl_instance *i, hls_nl_dir dir, const char *port, const char *fmt, ...)
{
    if (dir == HLS_NL_OUT_REG) /* a port's kind, not a connection's */
        HLS_BUG("netlist: %s.%s connected as HLS_NL_OUT_REG", i->name, port);
    arena *a = i->parent->nl->a;
    nl_conn *c = PUSH(a, i->conns, i->nconns, i->cap_conns);
    c->port = arena_strdup(a, port);
    c->dir = dir;
    va_list ap;
    va_start(ap, fmt);
    c->expr = vformat(a, fmt, ap);
    va_end(ap);
}

void hls_nl_assign(hls_nl_module *m, const char *target, const char *fmt, ...)
{
    nl_assign *as = PUSH(m->nl->a, m->assigns, m->nassigns, m->cap_assigns);
    as->target = arena_strdup(m->nl->a, target);
    va_list ap;
    va_start(ap, fmt);
    as->expr = vformat(m->nl->a, fmt, ap);
    va_end(ap);
}

hls_nl_block *hls_nl_block_new(hls_nl_module *m, const char *text)
{
    hls_nl_block *b = arena_alloc(m->nl->a, sizeof *b);
    b->text = arena_strdup(m->nl->a, text);
    b->a = m->nl->a;
    *PUSH(m->nl->a, m->blocks, m->nblocks, m->cap_blocks) = b;
    return b;
}

void hls_nl_drives(hls_nl_block *b, const char *name)
{
    *PUSH(b->a, b->driven, b->ndriven, b->cap_driven) = arena_strdup(b->a, name);
}

/* ---- The printer ---- */

/* "[w-1:0] " for a vector, "" for one bit. */
static const char *range(char buf[24], const nl_signal *s)
{
    unsigned width = s->width;
    if (width == 1 && !s->vector)
        buf[0] = '\0';
    else
        snprintf(buf, 24, "[%u:0] ", width - 1);
    return buf;
}

enum { LINE_LIMIT = 96 }; /* where packed items wrap */

/* Appends `item` to the line being written at column *col: after ", " when it fits,
 * else on a new line indented by `indent`. */
static void pack(FILE *out, int *col, int first, const char *item, int indent)
{
    int len = (int)strlen(item);
    if (first) {
        fputs(item, out);
        *col += len;
    } else if (*col + 2 + len <= LINE_LIMIT) {
        fprintf(out, ", %s", item);
        *col += 2 + len;
    } else {
        fprintf(out, ",\n%*s%s", indent, "", item);
        *col = indent + len;
    }
}

static void print_instance(FILE *out, const hls_nl_instance *i)
{
    strbuf item = {0};
    int col = fprintf(out, "    %s ", i->module);
    for (int p = 0; p < i->nparams; p++) {
        item.len = 0;
        sb_printf(&item, "%s.%s(%s)%s", p ? "" : "#(", i->params[p].name, i->params[p].value,
                  p == i->nparams - 1 ? ") " : "");
        pack(out, &col, p == 0, item.data, 8);
    }
    fprintf(out, "%s (", i->name);
    for (int c = 0; c < i->nconns; c++) { /* from a line of their own */
        item.len = 0;
        sb_printf(&item, ".%s(%s)%s", i->conns[c].port, i->conns[c].expr,
                  c == i->nconns - 1 ? ");" : "");
        if (c == 0) {
            fprintf(out, "\n        %s", item.data);
            col = 8 + (int)item.len;
        } else {
            pack(out, &col, 0, item.data, 8);
        }
    }
    fputs(i->nconns ? "\n" : ");\n", out);
    sb_free(&item);
}

/* The block's text, each line indented by four spaces (but compiler directives). */
static void print_block(FILE *out, const hls_nl_block *b)
{
    for (const char *p = b->text; *p;) {
        size_t len = strcspn(p, "\n");
        if (len)
            fprintf(out, "%s%.*s", p[0] == '`' ? "" : "    ", (int)len, p);
        fputc('\n', out);
        p += len + (p[len] == '\n');
    }
}

/* What comes before the body: the comment, the waivers, the port list. */
static void print_header(FILE *out, const hls_nl_module *m)
{
    for (int i = 0; i < m->ncomments; i++)
        fprintf(out, "// %s\n", m->comments[i]);
    fputs("`default_nettype none\n", out);
    for (int i = 0; i < m->nwaivers; i++)
        fprintf(out, "// %s\n/* verilator lint_off %s */\n", m->waivers[i].reason,
                m->waivers[i].warning);
    fprintf(out, "module %s (\n", m->name);
    /* the declarations, then each port's comment in one column: the simulator's own
     * ports first, inside their `ifdef (so that each ends with a comma) */
    strbuf decls = {0};
    int nports = 0, nsim = 0, column = 0;
    for (int i = 0; i < m->nsignals; i++) {
        nports += m->signals[i].port;
        nsim += m->signals[i].port && m->signals[i].sim_only;
    }
    const nl_signal **order = hls_alloc((size_t)(nports + 1) * sizeof *order);
    for (int pass = 0, p = 0; pass < 2; pass++)
        for (int i = 0; i < m->nsignals; i++)
            if (m->signals[i].port && m->signals[i].sim_only == !pass)
                order[p++] = &m->signals[i];
    size_t *start = hls_alloc((size_t)(nports + 1) * sizeof *start);
    for (int p = 0; p < nports; p++) {
        const nl_signal *s = order[p];
        char r[24];
        start[p] = decls.len;
        sb_printf(&decls, "%s %s %s%s%s", s->dir == HLS_NL_IN ? "input " : "output",
                  s->reg ? "reg " : "wire", range(r, s), s->name,
                  p == nports - 1 ? "" : ",");
        if ((int)(decls.len - start[p]) > column)
            column = (int)(decls.len - start[p]);
    }
    start[nports] = decls.len;
    for (int p = 0; p < nports; p++) {
        const nl_signal *s = order[p];
        int len = (int)(start[p + 1] - start[p]);
        if (nsim && p == 0)
            fputs("`ifdef CLHLS_SIM_CHECKS\n", out);
        if (s->comment)
            fprintf(out, "    %.*s%*s // %s\n", len, decls.data + start[p], column - len, "",
                    s->comment);
        else
            fprintf(out, "    %.*s\n", len, decls.data + start[p]);
        if (nsim && p == nsim - 1)
            fputs("`endif\n", out);
    }
    free(order);
    free(start);
    sb_free(&decls);
    fputs(");\n", out);
}

void hls_nl_print(FILE *out, const hls_nl_module *m)
{
    print_header(out, m);
    for (int i = 0; i < m->nsignals; i++) {
        const nl_signal *s = &m->signals[i];
        if (s->port)
            continue;
        char r[24];
        if (s->unused)
            fputs("    /* verilator lint_off UNUSEDSIGNAL */\n", out);
        fprintf(out, "    %s%s %s%s", s->keep ? "(* keep *) " : "", s->reg ? "reg " : "wire",
                range(r, s), s->name);
        if (s->entries)
            fprintf(out, " [0:%u]", s->entries - 1);
        fputc(';', out);
        if (s->comment)
            fprintf(out, "  // %s", s->comment);
        fputc('\n', out);
        if (s->unused)
            fputs("    /* verilator lint_on UNUSEDSIGNAL */\n", out);
    }
    for (int i = 0; i < m->ninstances; i++)
        print_instance(out, m->instances[i]);
    for (int i = 0; i < m->nassigns; i++)
        fprintf(out, "    assign %s = %s;\n", m->assigns[i].target, m->assigns[i].expr);
    for (int i = 0; i < m->nblocks; i++)
        print_block(out, m->blocks[i]);
    fputs("endmodule\n`default_nettype wire\n", out);
}

/* ---- The check ---- */

/* What an expression refers to when it is a net or a slice of one. */
typedef struct nl_ref {
    const char *base;  /* the identifier */
    size_t len;        /* its length */
    int slice;         /* 1 = a part select */
    int width_known;   /* the width is a constant */
    unsigned width;    /* bits, when width_known */
    int range_known;   /* the bounds are constants */
    unsigned lo, hi;   /* bit range, when range_known */
} nl_ref;

/* A decimal constant filling s[0..len) (spaces around it allowed). */
static int parse_uint(const char *s, size_t len, unsigned *v)
{
    while (len && s[0] == ' ')
        s++, len--;
    while (len && s[len - 1] == ' ')
        len--;
    if (!len || len > 9)
        return 0;
    unsigned x = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        x = 10 * x + (unsigned)(s[i] - '0');
    }
    *v = x;
    return 1;
}

static int is_ident_char(char c, int first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && ((c >= '0' && c <= '9') || c == '$'));
}

/* Whether `expr` is a net (name) or a slice of one (name[...]); fills r. */
static int parse_ref(const char *expr, nl_ref *r)
{
    *r = (nl_ref){.base = expr};
    size_t n = 0;
    if (!is_ident_char(expr[0], 1))
        return 0;
    while (is_ident_char(expr[n], 0))
        n++;
    r->len = n;
    if (!expr[n])
        return 1;
    size_t total = strlen(expr);
    if (expr[n] != '[' || expr[total - 1] != ']')
        return 0;
    r->slice = 1;
    const char *in = expr + n + 1;
    size_t len = total - n - 2;
    const char *colon = memchr(in, ':', len);
    unsigned a, b;
    if (!colon) { /* name[i] */
        r->width_known = 1;
        r->width = 1;
        if (parse_uint(in, len, &a))
            r->range_known = 1, r->lo = r->hi = a;
    } else if (colon > in && (colon[-1] == '+' || colon[-1] == '-')) { /* name[b +: w] */
        size_t blen = (size_t)(colon - 1 - in), wlen = len - blen - 2;
        if (parse_uint(colon + 1, wlen, &b) && b) {
            r->width_known = 1;
            r->width = b;
            if (parse_uint(in, blen, &a) && (colon[-1] == '+' || a + 1 >= b)) {
                r->range_known = 1;
                r->lo = colon[-1] == '+' ? a : a + 1 - b;
                r->hi = r->lo + b - 1;
            }
        }
    } else if (parse_uint(in, (size_t)(colon - in), &a) &&
               parse_uint(colon + 1, len - (size_t)(colon - in) - 1, &b) && a >= b) {
        r->width_known = r->range_known = 1; /* name[h:l] */
        r->hi = a;
        r->lo = b;
        r->width = a - b + 1;
    }
    return 1;
}

/* One thing that drives (part of) a signal. */
typedef struct nl_driver {
    int signal;            /* position in the module */
    int order;             /* position in the driver list (keeps messages in order) */
    int block;             /* 1 = a block's assignment */
    int range_known;       /* the bits it drives are known */
    unsigned lo, hi;       /* those bits */
    char what[160];        /* "instance 'x' port 'y'", "assign to 'z[3:0]'", ... */
} nl_driver;

typedef struct checker {
    const hls_nl_module *m; /* the module checked */
    strbuf *errors;         /* where problems go */
    int problems;           /* problems found */
    nl_driver *drivers;     /* every driver found (malloc'd) */
    int ndrivers, cap;
} checker;

static void problem(checker *ck, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(checker *ck, const char *fmt, ...)
{
    sb_printf(ck->errors, "module %s: ", ck->m->name);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(ck->errors, fmt, ap);
    va_end(ap);
    sb_append(ck->errors, "\n");
    ck->problems++;
}

static const char *signal_kind(const nl_signal *s)
{
    return !s->port ? (s->reg ? "reg" : "net") : s->dir == HLS_NL_IN ? "input port" : "output port";
}

/* Records that `what` drives `target` (a net or a slice of one). */
static void add_driver(checker *ck, const char *target, int block, const char *what)
{
    nl_ref r;
    if (!parse_ref(target, &r)) {
        problem(ck, "%s drives '%s', which is not a net or a slice of one", what, target);
        return;
    }
    int pos = find_signal(ck->m, r.base, r.len);
    if (pos < 0) {
        problem(ck, "%s drives '%.*s', which is not declared", what, (int)r.len, r.base);
        return;
    }
    const nl_signal *s = &ck->m->signals[pos];
    if (s->entries) /* a word of an array: the array counts as driven as a whole */
        r = (nl_ref){.base = r.base, .len = r.len};
    if (r.range_known && r.hi >= s->width) {
        problem(ck, "%s drives bits %u:%u of %s '%s', which has %u", what, r.hi, r.lo,
                signal_kind(s), s->name, s->width);
        return;
    }
    if (ck->ndrivers == ck->cap) {
        ck->cap = ck->cap ? 2 * ck->cap : 64;
        ck->drivers = hls_realloc(ck->drivers, (size_t)ck->cap * sizeof *ck->drivers);
    }
    nl_driver *d = &ck->drivers[ck->ndrivers];
    *d = (nl_driver){.signal = pos, .order = ck->ndrivers, .block = block};
    snprintf(d->what, sizeof d->what, "%s", what);
    if (!r.slice) {
        d->range_known = 1;
        d->lo = 0;
        d->hi = s->width - 1;
    } else if (r.range_known) {
        d->range_known = 1;
        d->lo = r.lo;
        d->hi = r.hi;
    }
    ck->ndrivers++;
}

static int by_signal_then_bits(const void *pa, const void *pb)
{
    const nl_driver *a = pa, *b = pb;
    if (a->signal != b->signal)
        return a->signal < b->signal ? -1 : 1;
    if (a->range_known != b->range_known)
        return a->range_known < b->range_known ? -1 : 1;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* The drivers d[0..n) of signal s (sorted by bits): one driver per bit. */
static void check_drivers(checker *ck, const nl_signal *s, const nl_driver *d, int n)
{
    const char *kind = signal_kind(s);
    if (!n) {
        problem(ck, "%s '%s' has no driver", kind, s->name);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (s->reg && !d[i].block)
            problem(ck, "reg '%s' is driven by %s (a reg is assigned in a block)", s->name,
                    d[i].what);
        if (!s->reg && d[i].block)
            problem(ck, "%s '%s' is assigned in a block but not declared a reg", kind, s->name);
    }
    int all_known = 1, whole = 0;
    for (int i = 0; i < n; i++) {
        all_known &= d[i].range_known;
        whole |= d[i].range_known && d[i].lo == 0 && d[i].hi == s->width - 1;
    }
    int overlap = 0;
    unsigned next = 0; /* first bit no driver so far covers */
    for (int i = 0; all_known && i < n; i++) {
        if (d[i].lo < next)
            overlap = 1;
        else if (d[i].lo > next)
            problem(ck, "bits %u:%u of %s '%s' have no driver", d[i].lo - 1, next, kind,
                    s->name);
        if (d[i].hi + 1 > next)
            next = d[i].hi + 1;
    }
    if (all_known && next < s->width)
        problem(ck, "bits %u:%u of %s '%s' have no driver", s->width - 1, next, kind, s->name);
    if (overlap || (!all_known && whole && n > 1)) {
        strbuf list = {0};
        for (int i = 0; i < n; i++)
            sb_printf(&list, "%s%s", i ? ", " : "", d[i].what);
        problem(ck, "%s '%s' has more than one driver: %s", kind, s->name, list.data);
        sb_free(&list);
    }
}

/* The rows of template `module` in hls_nl_template_ports: *n of them from the
 * returned index (*n = 0: not a template). */
static int template_rows(const char *module, int *n)
{
    int first = 0;
    while (first < hls_nl_ntemplate_ports && strcmp(hls_nl_template_ports[first].module, module))
        first++;
    *n = 0;
    while (first + *n < hls_nl_ntemplate_ports &&
           !strcmp(hls_nl_template_ports[first + *n].module, module))
        (*n)++;
    return first;
}

/* An instance of a template: every port of the template connected, none unknown, and
 * each in its direction (the widths follow the parameters, so they are not known). */
static void check_template_instance(checker *ck, const hls_nl_instance *in)
{
    int n, first = template_rows(in->module, &n);
    if (!n) {
        problem(ck, "instance '%s': module %s is neither generated nor a template", in->name,
                in->module);
        return;
    }
    for (int c = 0; c < in->nconns; c++) {
        const nl_conn *conn = &in->conns[c];
        int row = first;
        while (row < first + n && strcmp(hls_nl_template_ports[row].port, conn->port))
            row++;
        if (row == first + n)
            problem(ck, "instance '%s' (%s): '%s' is not a port of %s", in->name, in->module,
                    conn->port, in->module);
        else if ((hls_nl_template_ports[row].dir == HLS_NL_IN) != (conn->dir == HLS_NL_IN))
            problem(ck, "instance '%s' (%s): port '%s' is an %s, connected as an %s", in->name,
                    in->module, conn->port,
                    hls_nl_template_ports[row].dir == HLS_NL_IN ? "input" : "output",
                    conn->dir == HLS_NL_IN ? "input" : "output");
    }
    for (int row = first; row < first + n; row++) {
        int connected = 0;
        for (int c = 0; c < in->nconns && !connected; c++)
            connected = !strcmp(in->conns[c].port, hls_nl_template_ports[row].port);
        if (!connected)
            problem(ck, "instance '%s' (%s): port '%s' is not connected", in->name, in->module,
                    hls_nl_template_ports[row].port);
    }
}

/* What the instance's ports read and drive, each port connected once, and against a
 * module of the netlist: every port connected, no unknown one, directions and widths
 * (a template's instance is checked by check_template_instance). */
static void check_instance(checker *ck, const hls_nl_instance *in)
{
    const hls_nl_module *def = hls_nl_module_find(ck->m->nl, in->module);
    if (!def)
        check_template_instance(ck, in);
    for (int c = 0; c < in->nconns; c++) {
        const nl_conn *conn = &in->conns[c];
        char what[160];
        snprintf(what, sizeof what, "instance '%s' port '%s'", in->name, conn->port);
        for (int e = 0; e < c; e++)
            if (!strcmp(in->conns[e].port, conn->port)) {
                problem(ck, "instance '%s' (%s): port '%s' connected twice", in->name,
                        in->module, conn->port);
                break;
            }
        nl_ref r;
        int is_ref = parse_ref(conn->expr, &r);
        int pos = is_ref ? find_signal(ck->m, r.base, r.len) : -1;
        if (conn->dir == HLS_NL_OUT && conn->expr[0])
            add_driver(ck, conn->expr, 0, what);
        else if (conn->dir == HLS_NL_IN && !conn->expr[0])
            problem(ck, "instance '%s' (%s): input port '%s' is not connected to anything",
                    in->name, in->module, conn->port);
        else if (conn->dir == HLS_NL_IN && is_ref && pos < 0)
            problem(ck, "%s reads '%.*s', which is not declared", what, (int)r.len, r.base);
        if (!def)
            continue;
        int port = find_signal(def, conn->port, strlen(conn->port));
        if (port < 0 || !def->signals[port].port) {
            problem(ck, "instance '%s' (%s): '%s' is not a port of %s", in->name, in->module,
                    conn->port, in->module);
            continue;
        }
        const nl_signal *p = &def->signals[port];
        if ((p->dir == HLS_NL_IN) != (conn->dir == HLS_NL_IN))
            problem(ck, "instance '%s' (%s): port '%s' is an %s, connected as an %s", in->name,
                    in->module, conn->port, p->dir == HLS_NL_IN ? "input" : "output",
                    conn->dir == HLS_NL_IN ? "input" : "output");
        unsigned width = 0;
        if (pos >= 0 && !r.slice)
            width = ck->m->signals[pos].width;
        else if (pos >= 0 && r.width_known)
            width = r.width;
        if (width && width != p->width)
            problem(ck, "instance '%s' (%s): port '%s' has %u bits, connected to '%s' of %u",
                    in->name, in->module, conn->port, p->width, conn->expr, width);
    }
    for (int i = 0; def && i < def->nsignals; i++) {
        const nl_signal *p = &def->signals[i];
        if (!p->port)
            continue;
        int connected = 0;
        for (int c = 0; c < in->nconns && !connected; c++)
            connected = !strcmp(in->conns[c].port, p->name);
        if (!connected)
            problem(ck, "instance '%s' (%s): port '%s' is not connected", in->name, in->module,
                    p->name);
    }
}

int hls_nl_check(const hls_nl_module *m, strbuf *errors)
{
    checker ck = {.m = m, .errors = errors};
    for (int i = 0; i < m->nsignals; i++)
        if (m->signals[i].port && m->signals[i].dir == HLS_NL_IN)
            add_driver(&ck, m->signals[i].name, 0, "the input port itself");
    for (int i = 0; i < m->ninstances; i++) {
        for (int j = 0; j < i; j++)
            if (!strcmp(m->instances[i]->name, m->instances[j]->name)) {
                problem(&ck, "instance '%s' defined twice", m->instances[i]->name);
                break;
            }
        check_instance(&ck, m->instances[i]);
    }
    for (int i = 0; i < m->nassigns; i++) {
        char what[160];
        snprintf(what, sizeof what, "assign to '%s'", m->assigns[i].target);
        add_driver(&ck, m->assigns[i].target, 0, what);
    }
    for (int i = 0; i < m->nblocks; i++)
        for (int j = 0; j < m->blocks[i]->ndriven; j++) {
            const char *text = m->blocks[i]->text;
            char what[160];
            snprintf(what, sizeof what, "the block \"%.*s\"", (int)strcspn(text, "\n"), text);
            add_driver(&ck, m->blocks[i]->driven[j], 1, what);
        }
    if (ck.ndrivers)
        qsort(ck.drivers, (size_t)ck.ndrivers, sizeof *ck.drivers, by_signal_then_bits);
    for (int s = 0, d = 0; s < m->nsignals; s++) {
        int first = d;
        while (d < ck.ndrivers && ck.drivers[d].signal == s)
            d++;
        check_drivers(&ck, &m->signals[s], ck.drivers + first, d - first);
    }
    free(ck.drivers);
    return ck.problems;
}
