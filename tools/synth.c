/* `clhls synth k.cl --board NAME [-o DIR] [-D NAME[=V]]... [-I DIR]... [--options "OPTS"]`: the kernel's accelerator
 * synthesised for a real board. The program is built without a simulation model (the
 * cache entry's rtl/ with clhls_top as the top), Yosys runs the board's synthesis
 * command, and the cells of the result are counted against the board's capacity with
 * the board file's cell table. The fmax is the place-and-route tool's ("routed") when the
 * board has one, else an estimate from the longest register-to-register path of the
 * netlist and the family's delay model (docs/board-format.md). Place and route needs
 * pins for every port of the top, which no package has, so the routed design is a small
 * shell around clhls_top: its inputs come from a shift register fed by one pin, its
 * outputs are registered and XOR-reduced into one register on one pin; nothing of the
 * accelerator can be optimised away and every path stays register to register. The results go into
 * DIR (default: the cache entry's synth/BOARD/) with synth.json; a second run on the
 * same entry and board reuses them (synth.key holds what they were made from). */
#define _GNU_SOURCE
#include "synth.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "design_names.h"
#include "hls.h"
#include "manifest.h"
#include "model_step.h"
#include "proc.h"


#define SHELL_TOP "clhls_synth_shell"
#define LOG_TAIL_LINES 25

/* The resources counted against the board, in board_cell_class order. */
enum { RESOURCE_COUNT = BOARD_CELL_DSP + 1 };
static const char *const resource_labels[RESOURCE_COUNT] = {"LUT", "FF", "BRAM", "DSP"};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: clhls synth FILE.cl --board NAME [-o DIR] [-D NAME[=V]]... [-I DIR]...\n"
            "                   [--options \"OPTS\"]\n"
            "  Synthesises the kernels' accelerator for the board with Yosys (and places,\n"
            "  routes and packs a bitstream where the board has the tools), prints the\n"
            "  resources used against the board's capacity and the fmax, and writes the\n"
            "  netlist, place-and-route results, bitstream and synth.json into DIR\n"
            "  (default: the build's cache entry, synth/BOARD/). Exit 1 when the kernel\n"
            "  does not compile or the design does not fit, 2 when a tool fails.\n");
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static cJSON *read_json(const char *path)
{
    char *text = hls_read_text(path);
    cJSON *json = text ? cJSON_Parse(text) : NULL;
    free(text);
    return json;
}

/* The last `lines` lines of a tool's log, to stderr. */
static void print_log_tail(const char *path, int lines)
{
    char *text = hls_read_text(path);
    if (!text)
        return;
    size_t len = strlen(text);
    const char *start = text + len;
    int seen = 0;
    while (start > text && seen <= lines)
        seen += *--start == '\n';
    if (start > text)
        start++;
    fprintf(stderr, "--- last lines of %s ---\n%s", path, start);
    free(text);
}

/* Runs argv (no shell) with stdout and stderr into log_path. 0 when it exits with 0;
 * otherwise the tail of the log is printed unless quiet. */
static int run_tool(char *const argv[], const char *log_path, int quiet)
{
    proc p;
    proc_opts o = {.output = log_path, .group = PROC_GROUP_CALLER};
    if (proc_start(&p, (const char *const *)argv, &o)) {
        fprintf(stderr, "clhls: cannot run %s: %s\n", argv[0], strerror(errno));
        return -1;
    }
    if (proc_wait(&p))
        return -1;
    if (proc_succeeded(&p))
        return 0;
    if (!quiet) {
        fprintf(stderr, "clhls: %s failed (%s %d)\n", argv[0],
                p.exited ? "exit status" : "signal", p.code);
        print_log_tail(log_path, LOG_TAIL_LINES);
    }
    return 1;
}

/* Appends the files matching pattern to the script as one read_verilog argument list. */
static int append_files(FILE *f, const char *pattern)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return -1;
    for (size_t i = 0; i < g.gl_pathc; i++)
        fprintf(f, " %s", g.gl_pathv[i]);
    globfree(&g);
    return 0;
}

/* The stages of a synthesis run at which the cells already mapped are checked against
 * the board: block RAMs and DSPs once memories are mapped, flip-flops once they are.
 * Both labels are the same in Yosys's synth_ice40, synth_ecp5, synth_xilinx and
 * synth_intel_alm. A design over the board's capacity stops there, minutes before
 * logic mapping (ABC) would have finished. */
typedef struct fit_stage {
    const char *label;         /* the synth command's label the stage ends before */
    const char *what;          /* what has been mapped by then */
    const char *stat_file;     /* the statistics written there, in DIR */
    unsigned checked;          /* bit c: the cells of board_cell_class c are checked there */
} fit_stage;

static const fit_stage fit_stages[] = {
    {"map_ffram", "memory mapping", "fit-memories.json",
     1u << BOARD_CELL_BRAM | 1u << BOARD_CELL_DSP},
    {"map_luts", "flip-flop mapping", "fit-flipflops.json", 1u << BOARD_CELL_FF},
};
#define FIT_STAGES (sizeof fit_stages / sizeof *fit_stages)

static double board_capacity(const board_t *board, int cls)
{
    const double capacity[RESOURCE_COUNT] = {(double)board->luts, (double)board->ffs,
                                             (double)board->brams, (double)board->dsps};
    return capacity[cls];
}

/* A Yosys assertion that the cells of class cls fit the board: at most capacity / w of
 * them, w the smallest weight the board's cell table gives the class (exact when all
 * its cells weigh the same, a bound the full count refines otherwise). */
static void write_fit_assertion(FILE *f, const board_t *board, board_cell_class cls)
{
    double lightest = 0;
    for (size_t i = 0; i < board->ncells; i++)
        if (board->cells[i].cls == cls && board->cells[i].weight > 0 &&
            (lightest == 0 || board->cells[i].weight < lightest))
            lightest = board->cells[i].weight;
    if (lightest == 0)
        return;
    fprintf(f, "select -assert-max %.0f", floor(board_capacity(board, cls) / lightest + 1e-9));
    for (size_t i = 0; i < board->ncells; i++)
        if (board->cells[i].cls == cls && board->cells[i].weight > 0)
            fprintf(f, " t:%s", board->cells[i].pattern);
    fprintf(f, "\n");
}

/* Memories the templates mark for LUT RAM (ram_style "distributed": clhls_delay's ring
 * buffers): left to synth_command when it honours the attribute, mapped by the board's
 * command at its label when it does not (Yosys's Intel flow would put them in mostly
 * empty block RAMs), unmarked when the family has no LUT RAM (block RAM or flip-flops,
 * as Yosys finds cheaper). FROM becomes the label the synthesis command resumes at. */
static void write_lutram_mapping(FILE *f, const board_t *board, char *from, size_t fromlen)
{
    static const char marked[] = "a:ram_style=distributed";
    if (!board->lutram) {
        fprintf(f, "setattr -unset ram_style %s\n", marked);
        return;
    }
    if (!strcmp(board->lutram, "ram_style"))
        return;
    const char *colon = strchr(board->lutram, ':'); /* "LABEL: COMMAND", checked on load */
    snprintf(from, fromlen, "%.*s", (int)(colon - board->lutram), board->lutram);
    const char *command = colon + 1 + strspn(colon + 1, " ");
    fprintf(f, "%s -run :%s\n%s %s\n", board->synth_command, from, command, marked);
}

/* DIR/synth.ys: read the design, synthesise it with the board's command (stopping at
 * each fit stage to check the cells mapped so far), check it, count cells per module,
 * then write the flattened netlist (JSON for the path analysis and place and route,
 * Verilog for people). */
static int write_synth_script(const char *path, const char *dir, const char *entry,
                              const char *templates, const board_t *board)
{
    char pattern[4300];
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "read_verilog -I%s", templates);
    snprintf(pattern, sizeof pattern, "%s/rtl/*.v", entry);
    int bad = append_files(f, pattern);
    snprintf(pattern, sizeof pattern, "%s/clhls_*.v", templates);
    bad |= append_files(f, pattern);
    fprintf(f, "\nhierarchy -check -top clhls_top\n");
    char from[64] = "";
    write_lutram_mapping(f, board, from, sizeof from);
    for (size_t s = 0; s < FIT_STAGES; s++) {
        const fit_stage *st = &fit_stages[s];
        fprintf(f, "%s -run %s:%s\n"
                   "tee -q -o %s/%s stat -json\n",
                board->synth_command, from, st->label, dir, st->stat_file);
        for (int c = 0; c < RESOURCE_COUNT; c++)
            if (st->checked >> c & 1)
                write_fit_assertion(f, board, (board_cell_class)c);
        snprintf(from, sizeof from, "%s", st->label);
    }
    fprintf(f, "%s -run %s:\n"
               "check -assert\n"
               "setattr -mod -unset top\n"        /* stat -json prints no text hierarchy */
               "tee -q -o %s/stat.json stat -json\n"
               "hierarchy -top clhls_top\n"
               "flatten\n"
               "write_json %s/netlist.json\n"
               "write_verilog -noattr %s/netlist.v\n",
            board->synth_command, from, dir, dir, dir);
    return fclose(f) != 0 || bad ? -1 : 0;
}

/* ---- resources ---------------------------------------------------------------- */

static const char *strip_backslash(const char *name)
{
    return name[0] == '\\' ? name + 1 : name;
}

static const cJSON *stat_module(const cJSON *modules, const char *name)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, modules)
        if (!strcmp(strip_backslash(m->string), strip_backslash(name)))
            return m;
    return NULL;
}

/* The resource a cell type uses (its first LUT, FF, BRAM or DSP entry), -1 for none. */
static int resource_class(const board_t *board, const char *type, double *weight)
{
    for (size_t i = 0; i < board->ncells; i++)
        if ((int)board->cells[i].cls < (int)RESOURCE_COUNT && !fnmatch(board->cells[i].pattern, type, 0)) {
            *weight = board->cells[i].weight;
            return (int)board->cells[i].cls;
        }
    return -1;
}

/* What a cell type is on a path: carry or mux when listed so (a carry cell may also be
 * listed under lut for the LUTs it holds), else its first entry; -1 when unlisted. */
static int path_class(const board_t *board, const char *type)
{
    for (size_t i = 0; i < board->ncells; i++)
        if ((board->cells[i].cls == BOARD_CELL_CARRY || board->cells[i].cls == BOARD_CELL_MUX) &&
            !fnmatch(board->cells[i].pattern, type, 0))
            return (int)board->cells[i].cls;
    return board_cell_class_of(board, type, NULL);
}

/* Resources of one instance of module m, its submodules included. */
static void module_resources(const cJSON *modules, const cJSON *m, const board_t *board,
                             int depth, double used[RESOURCE_COUNT])
{
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(m, "num_cells_by_type"), *t;
    cJSON_ArrayForEach(t, types) {
        const cJSON *sub = depth < 64 ? stat_module(modules, t->string) : NULL;
        double weight = 1, count = t->valuedouble;
        if (sub) {
            double inner[RESOURCE_COUNT] = {0};
            module_resources(modules, sub, board, depth + 1, inner);
            for (int r = 0; r < RESOURCE_COUNT; r++)
                used[r] += count * inner[r];
            continue;
        }
        int cls = resource_class(board, t->string, &weight);
        if (cls >= 0)
            used[cls] += count * weight;
    }
}

static cJSON *resource_object(const double used[RESOURCE_COUNT])
{
    cJSON *o = cJSON_CreateObject();
    for (int r = 0; r < RESOURCE_COUNT; r++)
        cJSON_AddNumberToObject(o, board_cell_class_name((board_cell_class)r),
                                (double)(long long)(used[r] + 0.5));
    return o;
}

/* The name of a template parametrisation as a person reads it: Yosys calls it
 * `$paramod$HASH\clhls_fadd` (or `$paramod\clhls_fadd\W=32'...` when short) and
 * says which parameters made it in its log, as "Parameter \W = 32" lines just before
 * "Generating RTLIL representation for module `NAME'.". Gives
 * "clhls_fadd(LATENCY=4,W=32)", or the name without its backslash when the log does
 * not tell. */
static void readable_module_name(const char *log_text, const char *name, char *out,
                                 size_t len)
{
    snprintf(out, len, "%s", strip_backslash(name));
    const char *base = strchr(name, '\\');
    if (strncmp(name, "$paramod", 8) || !base || !log_text)
        return;
    int base_len = (int)strcspn(base + 1, "\\");
    char line[512];
    snprintf(line, sizeof line, "Generating RTLIL representation for module `%s'.", name);
    const char *at = strstr(log_text, line);
    if (!at)
        return;
    /* The parameter lines end where `at` begins; find where they start. */
    const char *start = at;
    while (start > log_text) {
        const char *prev = start - 1;
        while (prev > log_text && prev[-1] != '\n')
            prev--;
        if (strncmp(prev, "Parameter \\", 11))
            break;
        start = prev;
    }
    size_t n = (size_t)snprintf(out, len, "%.*s(", base_len, base + 1);
    for (const char *p = start; p < at && n < len; p = strchr(p, '\n') + 1) {
        int name_len = (int)strcspn(p + 11, " ");
        const char *value = strstr(p, " = ");
        int value_len = value ? (int)strcspn(value + 3, "\n") : 0;
        n += (size_t)snprintf(out + n, len - n, "%s%.*s=%.*s", p == start ? "" : ",", name_len,
                              p + 11, value_len, value ? value + 3 : "");
    }
    if (n < len)
        snprintf(out + n, len - n, ")");
}

/* From stat.json: the resources of clhls_top into used, and per module into modules
 * (named as readable_module_name names them from log_path, Yosys's log). */
static int count_resources(const char *stat_path, const char *log_path, const board_t *board,
                           double used[RESOURCE_COUNT], cJSON *modules_out, char *tool,
                           size_t tool_len)
{
    /* Yosys 0.23's `stat -json` without a top module ends the modules object with a
     * comma ("},\n\n}"): drop a comma that only white space separates from the end. */
    char *text = hls_read_text(stat_path);
    size_t end = text ? strlen(text) : 0;
    while (end > 0 && strchr(" \t\r\n", text[end - 1]))
        end--;
    if (end > 0 && text[end - 1] == '}') {
        size_t k = end - 1;
        while (k > 0 && strchr(" \t\r\n", text[k - 1]))
            k--;
        if (k > 0 && text[k - 1] == ',')
            text[k - 1] = ' ';
    }
    cJSON *stat = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *modules = cJSON_GetObjectItemCaseSensitive(stat, "modules");
    const cJSON *top = modules ? stat_module(modules, "clhls_top") : NULL;
    if (!top) {
        fprintf(stderr, "clhls: %s has no statistics of clhls_top\n", stat_path);
        cJSON_Delete(stat);
        return -1;
    }
    const cJSON *creator = cJSON_GetObjectItemCaseSensitive(stat, "creator");
    snprintf(tool, tool_len, "%s", cJSON_IsString(creator) ? creator->valuestring : "Yosys");
    module_resources(modules, top, board, 0, used);
    char *log_text = hls_read_text(log_path);
    const cJSON *m;
    cJSON_ArrayForEach(m, modules) {
        double mine[RESOURCE_COUNT] = {0};
        module_resources(modules, m, board, 0, mine);
        char name[512];
        readable_module_name(log_text, m->string, name, sizeof name);
        cJSON_AddItemToObject(modules_out, name, resource_object(mine));
    }
    free(log_text);
    cJSON_Delete(stat);
    return 0;
}

/* ---- the longest register-to-register path --------------------------------------- */

/* A cell of the flattened netlist. */
typedef struct path_cell {
    const cJSON *cell;         /* the netlist's cell object */
    const char *name;          /* its name */
    int cls;                   /* board_cell_class, -1 when the table does not list it */
    int logic;                 /* 1 for LUT, carry and mux cells: logic inside a path */
    double delay;              /* delay of the cell and its net, ns */
    int state;                 /* 0 not visited, 1 on the current walk, 2 done */
    double arrival;            /* latest arrival at its outputs, ns */
    long worst_input;          /* input bit on the longest path into it, -1 none */
} path_cell;

typedef struct path_graph {
    path_cell *cells;          /* every cell */
    long *driver;              /* per bit: index of the cell driving it, -1 none */
    int *sinks;                /* per bit: cell inputs it drives (its fan-out) */
    const char **bit_name;     /* per bit: the design's name for it (or NULL) */
    long *bit_index;           /* per bit: its index in that net */
    int *bit_width;            /* per bit: the width of that net */
    long nbits;                /* bits numbered 0..nbits-1 */
    char **instances;          /* the flattened design's instances ("cu_vadd.lsu2") */
    long ninstances;
} path_graph;

static long bit_number(const cJSON *bit) { return cJSON_IsNumber(bit) ? (long)bit->valuedouble : -1; }

static int is_input(const cJSON *cell, const char *port)
{
    const cJSON *dirs = cJSON_GetObjectItemCaseSensitive(cell, "port_directions");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(dirs, port);
    return cJSON_IsString(d) && !strcmp(d->valuestring, "input");
}

static int is_output(const cJSON *cell, const char *port)
{
    const cJSON *dirs = cJSON_GetObjectItemCaseSensitive(cell, "port_directions");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(dirs, port);
    return cJSON_IsString(d) && !strcmp(d->valuestring, "output");
}

static double cell_arrival(path_graph *g, long c);

static double bit_arrival(path_graph *g, long bit)
{
    if (bit < 0 || bit >= g->nbits || g->driver[bit] < 0)
        return 0;
    long c = g->driver[bit];
    return g->cells[c].logic ? cell_arrival(g, c) : 0;
}

static double cell_arrival(path_graph *g, long c)
{
    path_cell *pc = &g->cells[c];
    if (pc->state == 2)
        return pc->arrival;
    if (pc->state == 1) /* a combinational loop: cut it here */
        return 0;
    pc->state = 1;
    double worst = 0;
    long worst_bit = -1;
    const cJSON *conns = cJSON_GetObjectItemCaseSensitive(pc->cell, "connections"), *port, *b;
    cJSON_ArrayForEach(port, conns) {
        if (!is_input(pc->cell, port->string))
            continue;
        cJSON_ArrayForEach(b, port) {
            long bit = bit_number(b);
            if (bit < 0)
                continue;
            double a = bit_arrival(g, bit);
            /* On a tie, a bit something drives: the path then starts at a register. */
            int driven = bit < g->nbits && g->driver[bit] >= 0;
            int worst_driven = worst_bit >= 0 && worst_bit < g->nbits && g->driver[worst_bit] >= 0;
            if (worst_bit < 0 || a > worst || (a == worst && driven && !worst_driven)) {
                worst = a;
                worst_bit = bit;
            }
        }
    }
    pc = &g->cells[c];
    pc->arrival = worst + pc->delay;
    pc->worst_input = worst_bit;
    pc->state = 2;
    return pc->arrival;
}

/* A name Yosys made up for a flattened cell's net ("$flatten\cu_k.\lsu0.\q.$techmap...")
 * as the instance that holds it ("cu_k.lsu0.q"); other names unchanged. */
static void readable_name(const char *name, char *out, size_t len)
{
    size_t n = 0;
    if (!strncmp(name, "$flatten", 8))
        name += 8;
    for (; *name && n + 1 < len; name++) {
        if (*name == '\\')
            continue;
        if (name[0] == '.' && name[1] == '$' && n > 0)
            break;
        out[n++] = *name;
    }
    out[n] = '\0';
}

static void describe_bit(const path_graph *g, long bit, char *out, size_t len)
{
    char name[512];
    if (bit >= 0 && bit < g->nbits && g->bit_name[bit] && g->bit_name[bit][0] == '$') {
        readable_name(g->bit_name[bit], name, sizeof name);
        snprintf(out, len, "%s", name);
    } else if (bit < 0 || bit >= g->nbits || !g->bit_name[bit])
        snprintf(out, len, "?");
    else if (g->bit_width[bit] > 1)
        snprintf(out, len, "%s[%ld]", g->bit_name[bit], g->bit_index[bit]);
    else
        snprintf(out, len, "%s", g->bit_name[bit]);
}

/* The register a boundary cell writes: the name of its first output bit. */
static void describe_cell_output(const path_graph *g, const path_cell *pc, char *out,
                                 size_t len)
{
    const cJSON *conns = cJSON_GetObjectItemCaseSensitive(pc->cell, "connections"), *port;
    cJSON_ArrayForEach(port, conns) {
        if (is_output(pc->cell, port->string) && cJSON_GetArraySize(port) > 0) {
            describe_bit(g, bit_number(cJSON_GetArrayItem(port, 0)), out, len);
            if (strcmp(out, "?"))
                return;
        }
    }
    snprintf(out, len, "%s", pc->name);
}

/* The longest of the design's instances (g->instances, "cu_vadd.lsu2") that name
 * is or begins with, "" for none (a cell Yosys made inside an instance is named by
 * the instance alone once its generated part is dropped). */
static const char *instance_of(const path_graph *g, const char *name)
{
    const char *best = "";
    for (long i = 0; i < g->ninstances; i++) {
        size_t n = strlen(g->instances[i]);
        if (n > strlen(best) && !strncmp(name, g->instances[i], n) &&
            (name[n] == '.' || name[n] == '\0'))
            best = g->instances[i];
    }
    return best;
}

/* The instance a logic cell belongs to ("" for the top): from its name, else from the
 * net it drives. 0 when neither is a name of the design (both made up by synthesis:
 * "$abc$12$..."), so `out` ("") does not place the cell. */
static int cell_instance(const path_graph *g, const path_cell *pc, char *out, size_t len)
{
    char name[512];
    readable_name(pc->name, name, sizeof name);
    int named = name[0] != '$';
    const char *inst = instance_of(g, name);
    if (!*inst) {
        describe_cell_output(g, pc, name, sizeof name);
        named = named || (name[0] != '$' && name[0] != '?');
        inst = instance_of(g, name);
    }
    snprintf(out, len, "%s", inst);
    return named || *inst;
}

/* Adds `levels` of `unit` to the units a path crosses (objects {"unit", "levels"} in
 * path order), at the front when walking the path backwards; a step of no level (a
 * carry chain going on) is left out. */
static void through_add(cJSON *through, const char *unit, int levels, int at_front)
{
    if (!levels)
        return;
    int n = cJSON_GetArraySize(through);
    cJSON *next = n ? cJSON_GetArrayItem(through, at_front ? 0 : n - 1) : NULL;
    const char *next_unit = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(next, "unit"));
    if (next_unit && !strcmp(next_unit, unit)) {
        cJSON *l = cJSON_GetObjectItemCaseSensitive(next, "levels");
        cJSON_SetNumberValue(l, l->valuedouble + levels);
        return;
    }
    cJSON *one = cJSON_CreateObject();
    cJSON_AddStringToObject(one, "unit", unit);
    cJSON_AddNumberToObject(one, "levels", levels);
    if (at_front && n)
        cJSON_InsertItemInArray(through, 0, one);
    else
        cJSON_AddItemToArray(through, one);
}

/* Finds the longest path of netlist.json's clhls_top with the board's delay model:
 * its ends (named as the design names them), its logic levels, the units it crosses
 * (into the array through) and its delay (ns, the register overhead included). */
static int critical_path(const char *netlist_path, const board_t *board, char *from,
                         char *to, size_t len, int *levels, cJSON *through, double *delay_ns)
{
    cJSON *net = read_json(netlist_path);
    const cJSON *top = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(net, "modules"), "clhls_top");
    if (!top) {
        cJSON_Delete(net);
        fprintf(stderr, "clhls: %s has no module clhls_top\n", netlist_path);
        return -1;
    }
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(top, "cells");
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(top, "netnames");
    const cJSON *ports = cJSON_GetObjectItemCaseSensitive(top, "ports");
    const cJSON *n, *b, *c, *port;
    path_graph g = {0};
    cJSON_ArrayForEach(n, names)
        cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(n, "bits"))
            if (bit_number(b) >= g.nbits)
                g.nbits = bit_number(b) + 1;
    long ncells = cJSON_GetArraySize(cells);
    g.cells = calloc((size_t)ncells + 1, sizeof *g.cells);
    g.driver = malloc(((size_t)g.nbits + 1) * sizeof *g.driver);
    g.sinks = calloc((size_t)g.nbits + 1, sizeof *g.sinks);
    g.bit_name = calloc((size_t)g.nbits + 1, sizeof *g.bit_name);
    g.bit_index = calloc((size_t)g.nbits + 1, sizeof *g.bit_index);
    g.bit_width = calloc((size_t)g.nbits + 1, sizeof *g.bit_width);
    for (long i = 0; i < g.nbits; i++)
        g.driver[i] = -1;
    /* Names: a visible name beats a hidden one, then the shorter one. */
    cJSON_ArrayForEach(n, names) {
        const cJSON *bits = cJSON_GetObjectItemCaseSensitive(n, "bits");
        int hidden = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(n, "hide_name")) ||
                     cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(n, "hide_name")) == 1;
        long index = 0, width = cJSON_GetArraySize(bits);
        cJSON_ArrayForEach(b, bits) {
            long bit = bit_number(b);
            if (bit >= 0) {
                const char *old = g.bit_name[bit];
                int old_hidden = old && old[0] == '$';
                if (!old || (old_hidden && !hidden) ||
                    (old_hidden == hidden && strlen(n->string) < strlen(old))) {
                    g.bit_name[bit] = n->string;
                    g.bit_index[bit] = index;
                    g.bit_width[bit] = (int)width;
                }
            }
            index++;
        }
    }
    /* Instances: flatten names the ports of each with its path ("cu_vadd lsu2 clk"). */
    g.instances = calloc((size_t)cJSON_GetArraySize(names) + 1, sizeof *g.instances);
    cJSON_ArrayForEach(n, names) {
        const char *hdl = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(n, "attributes"), "hdlname"));
        const char *last = hdl ? strrchr(hdl, ' ') : NULL;
        if (!last)
            continue;
        char *inst = strndup(hdl, (size_t)(last - hdl));
        for (char *sp = strchr(inst, ' '); sp; sp = strchr(sp, ' '))
            *sp = '.';
        long k = 0;
        while (k < g.ninstances && strcmp(g.instances[k], inst))
            k++;
        if (k < g.ninstances)
            free(inst);
        else
            g.instances[g.ninstances++] = inst;
    }
    long i = 0;
    cJSON_ArrayForEach(c, cells) {
        path_cell *pc = &g.cells[i];
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(c, "type");
        pc->cell = c;
        pc->name = c->string;
        pc->cls = cJSON_IsString(type) ? path_class(board, type->valuestring) : -1;
        pc->logic = pc->cls == BOARD_CELL_LUT || pc->cls == BOARD_CELL_CARRY ||
                    pc->cls == BOARD_CELL_MUX;
        /* A LUT-class cell with a clock (LUT RAM, shift register) writes synchronously:
         * its inputs end paths and its outputs start them. */
        cJSON_ArrayForEach(port, cJSON_GetObjectItemCaseSensitive(c, "connections"))
            if (pc->logic && is_input(c, port->string) &&
                (strstr(port->string, "CLK") || strstr(port->string, "WCK")))
                pc->logic = 0;
        pc->worst_input = -1;
        cJSON_ArrayForEach(port, cJSON_GetObjectItemCaseSensitive(c, "connections"))
            cJSON_ArrayForEach(b, port)
                if (bit_number(b) >= 0 && bit_number(b) < g.nbits) {
                    if (is_output(c, port->string))
                        g.driver[bit_number(b)] = i;
                    else if (is_input(c, port->string))
                        g.sinks[bit_number(b)]++;
                }
        i++;
    }
    /* A logic cell's delay: the family's figure for the cell and an average net, plus
     * the routing of a wider fan-out (fanout_ns per doubling, its widest output's). */
    for (long k = 0; k < ncells; k++) {
        path_cell *pc = &g.cells[k];
        if (!pc->logic)
            continue;
        int fanout = 1;
        cJSON_ArrayForEach(port, cJSON_GetObjectItemCaseSensitive(pc->cell, "connections"))
            if (is_output(pc->cell, port->string))
                cJSON_ArrayForEach(b, port)
                    if (bit_number(b) >= 0 && bit_number(b) < g.nbits &&
                        g.sinks[bit_number(b)] > fanout)
                        fanout = g.sinks[bit_number(b)];
        pc->delay = board->delay_ns[pc->cls] + board->fanout_ns * log2((double)fanout);
    }
    /* Ends: inputs of registers, RAMs, DSPs and unlisted cells; the top's outputs. */
    double worst = -1;
    long worst_bit = -1, worst_cell = -1;
    const char *worst_port = NULL;
    for (long k = 0; k < ncells; k++) {
        if (g.cells[k].logic)
            continue;
        cJSON_ArrayForEach(port, cJSON_GetObjectItemCaseSensitive(g.cells[k].cell, "connections"))
            if (is_input(g.cells[k].cell, port->string))
                cJSON_ArrayForEach(b, port) {
                    double a = bit_arrival(&g, bit_number(b));
                    if (a > worst) {
                        worst = a;
                        worst_bit = bit_number(b);
                        worst_cell = k;
                    }
                }
    }
    cJSON_ArrayForEach(port, ports) {
        const cJSON *dir = cJSON_GetObjectItemCaseSensitive(port, "direction");
        if (!cJSON_IsString(dir) || strcmp(dir->valuestring, "output"))
            continue;
        cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(port, "bits")) {
            double a = bit_arrival(&g, bit_number(b));
            if (a > worst) {
                worst = a;
                worst_bit = bit_number(b);
                worst_cell = -1;
                worst_port = port->string;
            }
        }
    }
    /* Walk back from the end to the register or port that starts the path, counting
     * its levels (a run of carry cells is one) and the units it crosses. A cell that
     * neither its name nor its net places (one that logic optimisation made of several,
     * such as a LUT and the MUXF7/8/9 after it) is counted in the unit of the cell
     * after it on the path, the last ones in the unit of the register that ends it. */
    *levels = 0;
    long bit = worst_bit;
    const path_cell *first = NULL;
    char unit[512] = "";
    if (worst_cell >= 0)
        cell_instance(&g, &g.cells[worst_cell], unit, sizeof unit);
    for (int guard = 0; bit >= 0 && bit < g.nbits && g.driver[bit] >= 0 &&
                        g.cells[g.driver[bit]].logic && guard < 1000000; guard++) {
        const path_cell *pc = &g.cells[g.driver[bit]];
        int level = pc->cls != BOARD_CELL_CARRY || !first || first->cls != BOARD_CELL_CARRY;
        *levels += level;
        char placed[512];
        if (cell_instance(&g, pc, placed, sizeof placed))
            snprintf(unit, sizeof unit, "%s", placed);
        through_add(through, unit, level, 1);
        first = pc;
        bit = first->worst_input;
    }
    if (bit >= 0 && bit < g.nbits && g.driver[bit] >= 0)
        describe_cell_output(&g, &g.cells[g.driver[bit]], from, len);
    else
        describe_bit(&g, bit, from, len);
    if (!strcmp(from, "?") && first) /* an undriven input: name the first logic cell */
        readable_name(first->name, from, len);
    if (worst_cell >= 0)
        describe_cell_output(&g, &g.cells[worst_cell], to, len);
    else
        snprintf(to, len, "%s", worst_port ? worst_port : "?");
    *delay_ns = board->delay_ns[BOARD_CELL_FF] + (worst > 0 ? worst : 0);
    free(g.cells);
    free(g.driver);
    free(g.sinks);
    free(g.bit_name);
    free(g.bit_index);
    free(g.bit_width);
    for (long k = 0; k < g.ninstances; k++)
        free(g.instances[k]);
    free(g.instances);
    cJSON_Delete(net);
    return 0;
}

/* ---- place and route ---------------------------------------------------------------- */

/* DIR/shell.v: clhls_top with its inputs from a shift register (pin scan_in) and its
 * outputs XOR-reduced into one register (pin scan_out); clk and rst are pins. */
static int write_shell(const char *netlist_path, const char *shell_path)
{
    cJSON *net = read_json(netlist_path);
    const cJSON *ports = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(net, "modules"),
                                         "clhls_top"), "ports");
    FILE *f = ports ? fopen(shell_path, "w") : NULL;
    if (!f) {
        cJSON_Delete(net);
        return -1;
    }
    const cJSON *p;
    int nin = 0, nout = 0;
    cJSON_ArrayForEach(p, ports) {
        const char *dir = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "direction"));
        int width = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(p, "bits"));
        if (dir && !strcmp(dir, "input") && strcmp(p->string, "clk") && strcmp(p->string, "rst"))
            nin += width;
        else if (dir && !strcmp(dir, "output"))
            nout += width;
    }
    fprintf(f, "// Place-and-route shell of clhls_top, written by clhls synth: the inputs come\n"
               "// from a shift register, the outputs are XOR-reduced into one register.\n"
               "`default_nettype none\n"
               "module " SHELL_TOP " (\n"
               "    input  wire clk,      // kernel clock\n"
               "    input  wire rst,      // synchronous active-high reset\n"
               "    input  wire scan_in,  // shifted into the inputs of clhls_top\n"
               "    output reg  scan_out  // XOR of all outputs of clhls_top, registered\n"
               ");\n"
               "    reg  [%d:0] inputs;\n"
               "    wire [%d:0] outputs;\n"
               "    reg  [%d:0] outputs_q;\n"
               "    always @(posedge clk) inputs <= {inputs, scan_in};\n"
               "    always @(posedge clk) outputs_q <= outputs;\n"
               "    always @(posedge clk) scan_out <= ^outputs_q;\n"
               "    clhls_top top (.clk(clk), .rst(rst)",
            nin > 0 ? nin - 1 : 0, nout > 0 ? nout - 1 : 0, nout > 0 ? nout - 1 : 0);
    int in_at = 0, out_at = 0;
    cJSON_ArrayForEach(p, ports) {
        const char *dir = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "direction"));
        int width = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(p, "bits"));
        if (!dir || !strcmp(p->string, "clk") || !strcmp(p->string, "rst"))
            continue;
        if (!strcmp(dir, "input")) {
            fprintf(f, ",\n        .%s(inputs[%d:%d])", p->string, in_at + width - 1, in_at);
            in_at += width;
        } else if (!strcmp(dir, "output")) {
            fprintf(f, ",\n        .%s(outputs[%d:%d])", p->string, out_at + width - 1, out_at);
            out_at += width;
        }
    }
    fprintf(f, ");\nendmodule\n");
    cJSON_Delete(net);
    return fclose(f) != 0 ? -1 : 0;
}

static double json_number(const cJSON *o, const char *a, const char *b);

/* The routed fmax (the slowest clock's), the critical path's ends, its logic levels (a
 * carry chain is one) and the units it crosses (into through) from nextpnr's --report
 * file. */
static int read_pnr_report(const char *path, double *fmax, char *from, char *to, size_t len,
                           int *levels, cJSON *through)
{
    cJSON *rep = read_json(path);
    const cJSON *clocks = cJSON_GetObjectItemCaseSensitive(rep, "fmax"), *clock;
    *fmax = -1;
    cJSON_ArrayForEach(clock, clocks) {
        double achieved = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(clock, "achieved"));
        if (achieved > 0 && (*fmax < 0 || achieved < *fmax))
            *fmax = achieved;
    }
    const cJSON *paths = cJSON_GetObjectItemCaseSensitive(rep, "critical_paths");
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(paths, 0), "path");
    const cJSON *step;
    const char *first_net = NULL, *last_cell = NULL;
    *levels = 0;
    char unit[512] = "";
    cJSON_ArrayForEach(step, steps) {
        const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(step, "type"));
        const char *net = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(step, "net"));
        const cJSON *to_end = cJSON_GetObjectItemCaseSensitive(step, "to");
        if (net && !first_net)
            first_net = net;
        last_cell = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(to_end, "cell"));
        if (!type || strcmp(type, "logic"))
            continue;
        /* a carry chain's steps after its first (carry in to carry out) are one level */
        const char *in = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(step, "from"), "port"));
        int level = !in || strcmp(in, "CIN");
        *levels += level;
        /* the unit: from the net the step drives, else its cell, else the last one's */
        const cJSON *drives = step->next;
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(drives, "net"));
        if (!name || name[0] == '$')
            name = last_cell;
        if (name && name[0] != '$') {
            snprintf(unit, sizeof unit, "%s", strncmp(name, "top.", 4) ? name : name + 4);
            char *dot = strrchr(unit, '.');
            if (dot)
                *dot = '\0';
            else
                unit[0] = '\0';
        }
        through_add(through, unit, level, 0);
    }
    /* The start register's output net, and the end cell without the packer's suffix;
     * the shell's instance prefix "top." removed. */
    if (first_net)
        snprintf(from, len, "%s", strncmp(first_net, "top.", 4) ? first_net : first_net + 4);
    if (last_cell) {
        snprintf(to, len, "%s", strncmp(last_cell, "top.", 4) ? last_cell : last_cell + 4);
        const char *suffixes[] = {"_DFFLC", "_LC"};
        for (int i = 0; i < 2; i++) {
            size_t n = strlen(to), k = strlen(suffixes[i]);
            if (n > k && !strcmp(to + n - k, suffixes[i]))
                to[n - k] = '\0';
        }
    }
    const cJSON *lc = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "utilization"), "ICESTORM_LC");
    if (lc)
        fprintf(stderr, "clhls: after packing: %.0f of %.0f logic cells (LUT and FF pairs)\n",
                json_number(lc, "used", NULL), json_number(lc, "available", NULL));
    cJSON_Delete(rep);
    return *fmax > 0 ? 0 : -1;
}

/* Prints the lines of the place-and-route log that say what the device has. */
static void print_pnr_utilisation(const char *log_path)
{
    char *text = hls_read_text(log_path);
    int in_table = 0;
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        if (strstr(line, "Device utilisation"))
            in_table = 1;
        else if (in_table && !strchr(line, '%'))
            in_table = 0;
        if (in_table || strstr(line, "ERROR"))
            fprintf(stderr, "  %s\n", line);
    }
    free(text);
}

/* ---- results ------------------------------------------------------------------------ */

static void add_path_or_null(cJSON *o, const char *key, const char *path)
{
    if (path && *path)
        cJSON_AddStringToObject(o, key, path);
    else
        cJSON_AddNullToObject(o, key);
}

static double json_number(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    return cJSON_IsNumber(x) ? x->valuedouble : -1;
}

/* The table of resources (used, capacity, %), fmax and critical path of synth.json. */
static void print_results(FILE *out, const cJSON *r, const char *kernel, const board_t *board)
{
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(r, "resources");
    fprintf(out, "%s on %s (%s %s):\n", kernel, board->name, board->vendor, board->part);
    fprintf(out, "| resource |     used | capacity |      %% |\n"
                 "|----------|----------|----------|--------|\n");
    for (int k = 0; k < RESOURCE_COUNT; k++) {
        const char *key = board_cell_class_name((board_cell_class)k);
        double used = json_number(res, key, "used"), cap = json_number(res, key, "capacity");
        if (used < 0) /* not mapped when synthesis stopped */
            fprintf(out, "| %-8s |        ? | %8.0f |      ? |\n", resource_labels[k], cap);
        else
            fprintf(out, "| %-8s | %8.0f | %8.0f | %5.1f%s |\n", resource_labels[k], used, cap,
                    cap > 0 ? 100.0 * used / cap : 0.0, used > cap ? "!" : " ");
    }
    const char *after = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "counted_after"));
    if (after)
        fprintf(out, "(synthesis stopped after %s, where the design already exceeded the "
                     "board; ? was not counted)\n", after);
    const cJSON *modules = cJSON_GetObjectItemCaseSensitive(r, "modules"), *m;
    int units = 0;
    cJSON_ArrayForEach(m, modules)
        units += !strncmp(m->string, "clhls_cu_", 9);
    if (units) {
        fprintf(out, "per compute unit:\n");
        cJSON_ArrayForEach(m, modules)
            if (!strncmp(m->string, "clhls_cu_", 9))
                fprintf(out, "  %-24s LUT %.0f, FF %.0f, BRAM %.1f, DSP %.0f\n", m->string,
                        json_number(m, "lut", NULL), json_number(m, "ff", NULL),
                        json_number(m, "bram", NULL), json_number(m, "dsp", NULL));
    }
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "fits")))
        return;
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(r, "critical_path");
    fprintf(out, "fmax: %.1f MHz (%s; board clock %.0f MHz)\n",
            json_number(r, "fmax_mhz", NULL),
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "fmax_kind")),
            board->clock_mhz);
    fprintf(out, "critical path: %s -> %s (%.0f logic levels)\n",
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(path, "from_where")),
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(path, "to_where")),
            json_number(path, "levels", NULL));
    fprintf(out, "  from %s\n  to   %s\n",
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(path, "from")),
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(path, "to")));
    const cJSON *unit;
    fprintf(out, "  logic levels in each unit it crosses, in order:\n");
    cJSON_ArrayForEach(unit, cJSON_GetObjectItemCaseSensitive(path, "through")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(unit, "unit"));
        fprintf(out, "    %3.0f  %s (%s)\n", json_number(unit, "levels", NULL),
                name && *name ? name : "clhls_top",
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(unit, "where")));
    }
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(r, "files"), *file;
    cJSON_ArrayForEach(file, files)
        if (cJSON_IsString(file))
            fprintf(out, "%s: %s\n", file->string, file->valuestring);
}

/* The layout of synth.json: results of another layout are made again. */
#define SYNTH_RESULTS_FORMAT 5

/* What the results in dir were made from: reused when it matches. */
static char *cache_key(const char *entry, const board_t *board)
{
    const char *lutram = board->lutram ? board->lutram : "none";
    size_t len = 4096 + strlen(entry) + strlen(board->synth_command) + strlen(lutram);
    for (char **a = board->pnr_args; a && *a; a++)
        len += strlen(*a) + 1;
    char *key = malloc(len);
    int n = snprintf(key, len,
                     "clhls %s\nresults %d\nentry %s\nboard %s\nsynth %s\nlutram %s\npnr %s",
                     hls_version(), SYNTH_RESULTS_FORMAT, entry, board->name, board->synth_command,
                     lutram, board->pnr_tool ? board->pnr_tool : "none");
    for (char **a = board->pnr_args; a && *a; a++)
        n += snprintf(key + n, len - (size_t)n, " %s", *a);
    snprintf(key + n, len - (size_t)n, "\nbitstream %s\n",
             board->bitstream_tool ? board->bitstream_tool : "none");
    return key;
}

/* The synth.json of an earlier run with the same key whose files are whole (their
 * manifest checks), or NULL. */
static cJSON *cached_results(const char *dir, const char *key)
{
    char path[4300], why[600];
    hls_path_join(path, sizeof path, dir, "synth.key");
    char *old = hls_read_text(path);
    int same = old && !strcmp(old, key);
    free(old);
    if (!same)
        return NULL;
    if (hls_manifest_check(dir, why, sizeof why) != 0) {
        fprintf(stderr, "clhls: the synthesis results in %s are damaged (%s); synthesising "
                        "again\n", dir, why);
        return NULL;
    }
    hls_path_join(path, sizeof path, dir, "synth.json");
    cJSON *r = read_json(path);
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(r, "files"), *file;
    cJSON_ArrayForEach(file, files)
        if (cJSON_IsString(file) && access(file->valuestring, R_OK) != 0) {
            cJSON_Delete(r);
            return NULL;
        }
    return r;
}

/* ---- the command ---------------------------------------------------------------- */

static void report_progress(void *ctx, const char *step)
{
    (void)ctx;
    cli_step_begin("%s", step);
}

/* 1 when the place-and-route log says the design needs more of a resource than the
 * device has: a "Device utilisation" line over 100% ("ICESTORM_LC:  5895/ 5280  111%"),
 * the placer running out of cells, or no legal placement of a design at the limit
 * (collatz on the iCE40 at 94% of its logic cells and 96% of its block RAMs). */
static int device_overfull(const char *log_path)
{
    char *text = hls_read_text(log_path);
    int full = text && (strstr(text, "no BELs remaining") != NULL ||
                        strstr(text, "Unable to find legal placement") != NULL);
    for (char *line = text ? strtok(text, "\n") : NULL; line && !full; line = strtok(NULL, "\n")) {
        char resource[64];
        long used, available;
        if (sscanf(line, "Info: %63[^:]: %ld/ %ld", resource, &used, &available) == 3)
            full = used > available;
    }
    free(text);
    return full;
}

/* What place and route found. */
typedef struct pnr_outcome {
    int fits;                  /* 0 when the packed design does not fit the device */
    double fmax;               /* routed fmax, MHz */
    char from[512], to[512];   /* the critical path's ends */
    int levels;                /* logic levels on it */
    cJSON *through;            /* the units it crosses: {"unit", "levels"} in path order */
    char asc[4300];            /* the routed design */
    char bin[4300];            /* the bitstream, "" without a bitstream tool */
} pnr_outcome;

/* Wraps the synthesised clhls_top (netlist.json) in the pin shell, synthesises that,
 * places and routes it with the board's tool and packs the bitstream, all in dir.
 * A design the device cannot hold is out->fits = 0. Returns CLI_EXIT_*. */
static int place_and_route(const char *dir, const char *netlist, const board_t *board,
                           pnr_outcome *out)
{
    char shell[4300], pnr_script[4300], pnr_in[4300], shell_log[4300], top_arg[] = SHELL_TOP;
    hls_path_join(shell, sizeof shell, dir, "shell.v");
    hls_path_join(pnr_script, sizeof pnr_script, dir, "pnr.ys");
    hls_path_join(pnr_in, sizeof pnr_in, dir, "pnr_netlist.json");
    hls_path_join(shell_log, sizeof shell_log, dir, "yosys_pnr.log");
    FILE *f = write_shell(netlist, shell) == 0 ? fopen(pnr_script, "w") : NULL;
    if (f) {
        fprintf(f, "read_json %s\ndelete =A:blackbox\nread_verilog %s\n%s -top %s\n"
                   "write_json %s\n", netlist, shell, board->synth_command, SHELL_TOP, pnr_in);
        if (fclose(f) != 0)
            f = NULL;
    }
    if (!f) {
        fprintf(stderr, "clhls: cannot write the place-and-route shell in %s\n", dir);
        return CLI_EXIT_INTERNAL;
    }
    cli_step_begin("Yosys: place-and-route shell");
    char *yosys_shell[] = {"yosys", "-s", pnr_script, NULL};
    int rc = run_tool(yosys_shell, shell_log, 0);
    cli_step_end(rc == 0);
    if (rc)
        return CLI_EXIT_INTERNAL;

    char report[4300], pnr_log[4300], freq[32];
    hls_path_join(out->asc, sizeof out->asc, dir, "routed.asc");
    hls_path_join(report, sizeof report, dir, "pnr_report.json");
    hls_path_join(pnr_log, sizeof pnr_log, dir, "pnr.log");
    snprintf(freq, sizeof freq, "%g", board->clock_mhz);
    size_t nargs = 0;
    for (char **a = board->pnr_args; a && *a; a++)
        nargs++;
    char **argv = calloc(nargs + 16, sizeof *argv);
    size_t k = 0;
    argv[k++] = board->pnr_tool;
    for (char **a = board->pnr_args; a && *a; a++)
        argv[k++] = *a;
    char *fixed[] = {"--json", pnr_in, "--top", top_arg, "--asc", out->asc, "--report", report,
                     "--freq", freq, "--timing-allow-fail", NULL};
    for (char **a = fixed; *a; a++)
        argv[k++] = *a;
    cli_step_begin("%s", board->pnr_tool);
    rc = run_tool(argv, pnr_log, 1);
    cli_step_end(rc == 0);
    free(argv);
    if (rc) {
        if (!device_overfull(pnr_log)) {
            fprintf(stderr, "clhls: %s failed\n", board->pnr_tool);
            print_log_tail(pnr_log, LOG_TAIL_LINES);
            return CLI_EXIT_INTERNAL;
        }
        /* Yosys' cells fit but the packed logic cells do not, or cannot be placed. */
        fprintf(stderr, "clhls: the design does not fit %s after packing (%s):\n",
                board->name, board->pnr_tool);
        print_pnr_utilisation(pnr_log);
        out->fits = 0;
        out->asc[0] = '\0';
        return CLI_EXIT_OK;
    }
    if (read_pnr_report(report, &out->fmax, out->from, out->to, sizeof out->from,
                        &out->levels, out->through)) {
        fprintf(stderr, "clhls: no fmax in %s\n", report);
        return CLI_EXIT_INTERNAL;
    }
    if (!board->bitstream_tool)
        return CLI_EXIT_OK;
    char bit_log[4300];
    hls_path_join(out->bin, sizeof out->bin, dir, "bitstream.bin");
    hls_path_join(bit_log, sizeof bit_log, dir, "bitstream.log");
    char *pack[] = {board->bitstream_tool, out->asc, out->bin, NULL};
    cli_step_begin("%s", board->bitstream_tool);
    rc = run_tool(pack, bit_log, 0);
    cli_step_end(rc == 0);
    return rc ? CLI_EXIT_INTERNAL : CLI_EXIT_OK;
}

/* The fit stage whose assertion stopped Yosys (the last whose statistics it wrote,
 * when its log ends with an assertion's error), or NULL when Yosys stopped for another
 * reason. */
static const fit_stage *stopped_fit_stage(const char *dir, const char *log_path)
{
    char *text = hls_read_text(log_path);
    int asserted = text && strstr(text, "\nERROR: Assertion failed: selection contains");
    free(text);
    const fit_stage *stopped = NULL;
    for (size_t s = 0; s < FIT_STAGES && asserted; s++) {
        char path[4400];
        hls_path_join(path, sizeof path, dir, fit_stages[s].stat_file);
        if (access(path, R_OK) == 0)
            stopped = &fit_stages[s];
    }
    return stopped;
}

/* 1 when the cells of class cls are all mapped (and so counted) by the end of stage
 * `upto` (NULL: the whole run). */
static int counted_by(const fit_stage *upto, int cls)
{
    if (!upto)
        return 1;
    unsigned counted = 0;
    for (const fit_stage *st = fit_stages; st <= upto; st++)
        counted |= st->checked;
    return counted >> cls & 1;
}

/* Synthesises (and places and routes) the entry's design into dir; fills r.
 * Returns CLI_EXIT_*. */
static int synthesise(const char *entry, const char *dir, const board_t *board, cJSON *r)
{
    char script[4300], log[4300], stat[4300], netlist[4300], netlist_v[4300];
    const char *templates = hls_template_dir(); /* as the compiler finds it */
    if (!templates) {
        fprintf(stderr, "clhls: the RTL templates were not found (CLHLS_RTL_DIR)\n");
        return CLI_EXIT_INTERNAL;
    }
    hls_path_join(script, sizeof script, dir, "synth.ys");
    hls_path_join(log, sizeof log, dir, "yosys.log");
    hls_path_join(netlist, sizeof netlist, dir, "netlist.json");
    hls_path_join(netlist_v, sizeof netlist_v, dir, "netlist.v");
    if (write_synth_script(script, dir, entry, templates, board)) {
        fprintf(stderr, "clhls: cannot write %s\n", script);
        return CLI_EXIT_INTERNAL;
    }
    for (size_t s = 0; s < FIT_STAGES; s++) { /* written afresh as the run passes them */
        hls_path_join(stat, sizeof stat, dir, fit_stages[s].stat_file);
        unlink(stat);
    }
    double t0 = wall_seconds();
    cli_step_begin("Yosys: %s", board->synth_command);
    char *yosys[] = {"yosys", "-s", script, NULL};
    int rc = run_tool(yosys, log, 1);
    /* a design over the board's capacity stops at a fit stage: counted there */
    const fit_stage *stopped = rc > 0 ? stopped_fit_stage(dir, log) : NULL;
    cli_step_end(rc == 0 || stopped);
    if (rc && !stopped) {
        if (rc > 0) {
            fprintf(stderr, "clhls: yosys failed\n");
            print_log_tail(log, LOG_TAIL_LINES);
        }
        return CLI_EXIT_INTERNAL;
    }
    hls_path_join(stat, sizeof stat, dir, stopped ? stopped->stat_file : "stat.json");

    double used[RESOURCE_COUNT] = {0};
    char tool[256];
    cJSON *modules = cJSON_CreateObject();
    if (count_resources(stat, log, board, used, modules, tool, sizeof tool)) {
        cJSON_Delete(modules);
        return CLI_EXIT_INTERNAL;
    }
    int fits = !stopped;
    for (int k = 0; k < RESOURCE_COUNT; k++)
        fits &= used[k] <= board_capacity(board, k);

    char from[512] = "?", to[512] = "?";
    int levels = 0;
    double delay = 0, fmax = -1;
    cJSON *through = cJSON_CreateArray();
    const char *kind = "estimate";
    if (!stopped && critical_path(netlist, board, from, to, sizeof from, &levels, through, &delay)) {
        cJSON_Delete(modules);
        cJSON_Delete(through);
        return CLI_EXIT_INTERNAL;
    }
    fmax = delay > 0 ? 1000.0 / delay : -1;
    const double estimate = fmax; /* kept beside a routed fmax: the model's error there */

    char asc[4300] = "", bin[4300] = "";
    if (fits && board->pnr_tool) {
        pnr_outcome routed = {.fits = 1, .through = cJSON_CreateArray()};
        rc = place_and_route(dir, netlist, board, &routed);
        if (rc != CLI_EXIT_OK) {
            cJSON_Delete(modules);
            cJSON_Delete(through);
            cJSON_Delete(routed.through);
            return rc;
        }
        fits = routed.fits;
        if (!fits) {
            cJSON_Delete(routed.through);
        } else {
            cJSON_Delete(through);
            through = routed.through;
            fmax = routed.fmax;
            kind = "routed";
            levels = routed.levels;
            snprintf(from, sizeof from, "%s", routed.from);
            snprintf(to, sizeof to, "%s", routed.to);
            snprintf(asc, sizeof asc, "%s", routed.asc);
            snprintf(bin, sizeof bin, "%s", routed.bin);
        }
    }

    cJSON_AddStringToObject(r, "board", board->name);
    cJSON_AddStringToObject(r, "tool", tool);
    cJSON_AddNumberToObject(r, "seconds", (double)(long long)((wall_seconds() - t0) * 10) / 10);
    cJSON *resources = cJSON_AddObjectToObject(r, "resources");
    for (int k = 0; k < RESOURCE_COUNT; k++) {
        cJSON *one = cJSON_AddObjectToObject(resources,
                                             board_cell_class_name((board_cell_class)k));
        if (!counted_by(stopped, k)) /* not mapped when the run stopped */
            cJSON_AddNullToObject(one, "used");
        else
            cJSON_AddNumberToObject(one, "used", k == BOARD_CELL_BRAM
                                                     ? used[k]
                                                     : (double)(long long)(used[k] + 0.5));
        cJSON_AddNumberToObject(one, "capacity", board_capacity(board, k));
    }
    if (stopped)
        cJSON_AddStringToObject(r, "counted_after", stopped->what);
    cJSON_AddItemToObject(r, "modules", modules);
    if (stopped) { /* no whole netlist: no fmax, no path */
        cJSON_AddNullToObject(r, "fmax_mhz");
        cJSON_AddStringToObject(r, "fmax_kind", kind);
        cJSON_AddNullToObject(r, "fmax_estimate_mhz");
        cJSON_AddNullToObject(r, "critical_path");
        cJSON_Delete(through);
    } else {
        cJSON_AddNumberToObject(r, "fmax_mhz", (double)(long long)(fmax * 10 + 0.5) / 10);
        cJSON_AddStringToObject(r, "fmax_kind", kind);
        cJSON_AddNumberToObject(r, "fmax_estimate_mhz",
                                (double)(long long)(estimate * 10 + 0.5) / 10);
        cJSON *path = cJSON_AddObjectToObject(r, "critical_path");
        cJSON_AddStringToObject(path, "from", from);
        cJSON_AddStringToObject(path, "to", to);
        cJSON_AddNumberToObject(path, "levels", levels);
        /* the ends in the kernel's terms, from the build's report */
        char report_path[4300], where[512];
        hls_path_join(report_path, sizeof report_path, entry, "report.json");
        cJSON *report = read_json(report_path);
        design_describe(report, from, where, sizeof where);
        cJSON_AddStringToObject(path, "from_where", where);
        design_describe(report, to, where, sizeof where);
        cJSON_AddStringToObject(path, "to_where", where);
        cJSON *unit;
        cJSON_ArrayForEach(unit, through) {
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(unit, "unit");
            design_describe(report, cJSON_GetStringValue(name), where, sizeof where);
            cJSON_AddStringToObject(unit, "where", where);
        }
        cJSON_AddItemToObject(path, "through", through);
        cJSON_Delete(report);
    }
    cJSON_AddBoolToObject(r, "fits", fits);
    cJSON *files = cJSON_AddObjectToObject(r, "files");
    add_path_or_null(files, "netlist", stopped ? NULL : netlist_v);
    add_path_or_null(files, "pnr", asc);
    add_path_or_null(files, "bitstream", bin);
    return CLI_EXIT_OK;
}

int clhls_synth_main(int argc, char **argv)
{
    const char *file = NULL, *board_name = NULL, *out_dir = NULL;
    cli_build_options opts = {0}; /* freed once the program is built */
    int taken = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            free(opts.text);
            usage(stdout);
            return CLI_EXIT_OK;
        } else if (!strcmp(argv[i], "--board") && i + 1 < argc)
            board_name = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out_dir = argv[++i];
        else if ((taken = cli_take_build_option(&opts, argc, argv, &i, 1)) != 0) {
            if (taken < 0) {
                free(opts.text);
                return CLI_EXIT_USER;
            }
        } else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else {
            fprintf(stderr, "clhls synth: unexpected argument '%s'\n", argv[i]);
            free(opts.text);
            usage(stderr);
            return CLI_EXIT_USER;
        }
    }
    char err[512];
    board_t *board = NULL;
    char *source = NULL;
    if (!file || !board_name) {
        fprintf(stderr, "clhls synth: %s\n", !file ? "no kernel file" : "no --board NAME");
        usage(stderr);
    } else if (!(board = board_load(board_name, err, sizeof err))) {
        fprintf(stderr, "clhls synth: %s\n", err);
    } else if (!(source = hls_read_text(file))) {
        fprintf(stderr, "clhls synth: cannot read %s: %s\n", file, strerror(errno));
        board_free(board);
    }
    if (!source) {
        free(opts.text);
        return CLI_EXIT_USER;
    }
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    hls_build_request req = {.source = source, .source_name = base, .options = opts.text,
                             .board = board, .skip_model = 1, .model = &cli_model_step,
                             .progress = report_progress};
    hls_build_result res;
    int status = hls_build(&req, &res);
    cli_step_end(status == HLS_OK);
    free(source);
    free(opts.text);
    if (status != HLS_OK) {
        fputs(res.log, stderr);
        hls_build_result_free(&res);
        board_free(board);
        return status == HLS_ERR_TOOL || status == HLS_ERR_INTERNAL ? CLI_EXIT_INTERNAL
                                                                    : CLI_EXIT_USER;
    }
    fputs(res.log, stderr); /* warnings */

    /* Every file of the results is DIR/NAME with a short NAME: room for it is made
     * here, once. */
    char dir[4300];
    int dir_len = out_dir ? snprintf(dir, sizeof dir - 64, "%s", out_dir)
                          : snprintf(dir, sizeof dir - 64, "%s/synth/%s", res.entry_dir,
                                     board->name);
    if (dir_len < 0 || dir_len >= (int)sizeof dir - 64) {
        fprintf(stderr, "clhls synth: the output directory's path is too long\n");
        hls_build_result_free(&res);
        board_free(board);
        return CLI_EXIT_USER;
    }
    int rc = CLI_EXIT_OK;
    char *key = cache_key(res.entry_dir, board);
    cJSON *r = NULL;
    if (hls_mkdir_p(dir)) {
        fprintf(stderr, "clhls synth: cannot create %s: %s\n", dir, strerror(errno));
        rc = CLI_EXIT_INTERNAL;
    } else if ((r = cached_results(dir, key))) {
        fprintf(stderr, "clhls: synthesis results reused from %s\n", dir);
    } else {
        char path[4400];
        r = cJSON_CreateObject();
        hls_path_join(path, sizeof path, dir, "synth.key");
        unlink(path);
        rc = synthesise(res.entry_dir, dir, board, r);
        char *text = rc == CLI_EXIT_OK ? cJSON_Print(r) : NULL;
        hls_path_join(path, sizeof path, dir, "synth.json");
        if (text && hls_write_text(path, text, 0) == 0) {
            /* the key, then the manifest of everything: written last, so results
             * interrupted on the way are never reused */
            hls_path_join(path, sizeof path, dir, "synth.key");
            if (hls_write_text(path, key, 0) != 0 || hls_manifest_write(dir) != 0) {
                fprintf(stderr, "clhls synth: cannot write %s: %s\n", path, strerror(errno));
                rc = CLI_EXIT_INTERNAL;
            }
        } else if (rc == CLI_EXIT_OK) {
            fprintf(stderr, "clhls synth: cannot write %s\n", path);
            rc = CLI_EXIT_INTERNAL;
        }
        cJSON_free(text);
    }
    if (rc == CLI_EXIT_OK) {
        int fits = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "fits"));
        if (!fits)
            fprintf(stderr, "clhls synth: the design does not fit %s: it needs\n", board->name);
        print_results(fits ? stdout : stderr, r, base, board);
        printf("results: %s/synth.json\n", dir);
        rc = fits ? CLI_EXIT_OK : CLI_EXIT_USER;
    }
    cJSON_Delete(r);
    free(key);
    hls_build_result_free(&res);
    board_free(board);
    return rc;
}
