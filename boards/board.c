/* Loads board description files (boards/NAME.json) with cJSON and checks every field,
 * so that a mistyped board file is a clear error naming the file and the field rather
 * than a wrong number deep inside the compiler or the simulator. Its allocations go
 * through the project's allocation hook (common/alloc.h): out of memory is an error like
 * any other, never a crash. */
#include "board.h"

#include "alloc.h"
#include "fsutil.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BOARD "sim_dc"

static const char *const op_names[BOARD_OP_COUNT] = {
    [BOARD_OP_INT_ADD] = "int_add", [BOARD_OP_INT_MUL] = "int_mul",
    [BOARD_OP_INT_DIV] = "int_div", [BOARD_OP_FP_ADD] = "fp_add",
    [BOARD_OP_FP_MUL] = "fp_mul",   [BOARD_OP_FP_CMP] = "fp_cmp",
    [BOARD_OP_FP_CONV] = "fp_conv", [BOARD_OP_FP_FMA] = "fp_fma",
};

static const char *const cell_class_names[BOARD_CELL_CLASS_COUNT] = {
    [BOARD_CELL_LUT] = "lut",     [BOARD_CELL_FF] = "ff",   [BOARD_CELL_BRAM] = "bram",
    [BOARD_CELL_DSP] = "dsp",     [BOARD_CELL_CARRY] = "carry", [BOARD_CELL_MUX] = "mux",
};

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static char *read_file(const char *path, char *err, size_t errlen)
{
    char *text = hls_read_text(path);
    if (!text)
        fail(err, errlen, "%s: %s", path, errno == ENOMEM ? "out of memory" : strerror(errno));
    return text;
}

/* Looks up "a.b" style paths in the JSON object. */
static const cJSON *lookup(const cJSON *root, const char *path)
{
    char key[64];
    const cJSON *node = root;
    while (node && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        node = cJSON_GetObjectItemCaseSensitive(node, key);
        path += n + (path[n] == '.');
    }
    return node;
}

static int get_number(const cJSON *root, const char *path, double min, double *out,
                      const char *file, char *err, size_t errlen)
{
    const cJSON *node = lookup(root, path);
    if (!cJSON_IsNumber(node)) {
        fail(err, errlen, "%s: field '%s' must be a number", file, path);
        return -1;
    }
    if (node->valuedouble < min) {
        fail(err, errlen, "%s: field '%s' must be at least %g", file, path, min);
        return -1;
    }
    *out = node->valuedouble;
    return 0;
}

static int get_u64(const cJSON *root, const char *path, double min, uint64_t *out,
                   const char *file, char *err, size_t errlen)
{
    double v;
    if (get_number(root, path, min, &v, file, err, errlen))
        return -1;
    if (v >= 18446744073709551616.0) { /* 2^64: the conversion would be undefined */
        fail(err, errlen, "%s: field '%s' must be less than 2^64", file, path);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

static int get_uint(const cJSON *root, const char *path, double min, unsigned *out,
                    const char *file, char *err, size_t errlen)
{
    double v;
    if (get_number(root, path, min, &v, file, err, errlen))
        return -1;
    if (v > UINT_MAX) {
        fail(err, errlen, "%s: field '%s' must be at most %u", file, path, UINT_MAX);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

static int get_string(const cJSON *root, const char *path, int optional, char **out,
                      const char *file, char *err, size_t errlen)
{
    const cJSON *node = lookup(root, path);
    if (!node || cJSON_IsNull(node)) {
        *out = NULL;
        if (optional)
            return 0;
        fail(err, errlen, "%s: missing field '%s'", file, path);
        return -1;
    }
    if (!cJSON_IsString(node)) {
        fail(err, errlen, "%s: field '%s' must be a string", file, path);
        return -1;
    }
    *out = hls_try_strdup(node->valuestring);
    if (!*out) {
        fail(err, errlen, "%s: out of memory", file);
        return -1;
    }
    return 0;
}

/* fpga.pnr_args: an array of strings, copied NULL-terminated. */
static int get_string_array(const cJSON *root, const char *field, char ***out,
                            const char *file, char *err, size_t errlen)
{
    const cJSON *node = lookup(root, field), *item;
    int ok = cJSON_IsArray(node);
    if (ok)
        cJSON_ArrayForEach(item, node)
            ok &= cJSON_IsString(item);
    if (!ok) {
        fail(err, errlen, "%s: field '%s' must be an array of strings", file, field);
        return -1;
    }
    int n = cJSON_GetArraySize(node), i = 0;
    *out = hls_try_alloc(((size_t)n + 1) * sizeof **out); /* NULL-terminated */
    ok = *out != NULL;
    cJSON_ArrayForEach(item, node)
        if (ok && !((*out)[i++] = hls_try_strdup(item->valuestring)))
            ok = 0; /* the list ends at the copy that failed */
    if (!ok) {
        fail(err, errlen, "%s: out of memory", file);
        return -1;
    }
    return 0;
}

/* synthesis.cells: {"lut": {"TYPE": weight, ...}, "ff": {...}, ...}; lut, ff, bram and
 * dsp are required (an empty object when the family has none), carry and mux optional. */
static int get_cells(const cJSON *root, board_t *b, const char *file, char *err,
                     size_t errlen)
{
    const cJSON *cells = lookup(root, "synthesis.cells"), *group;
    if (!cJSON_IsObject(cells)) {
        fail(err, errlen, "%s: field 'synthesis.cells' must be an object", file);
        return -1;
    }
    for (int c = 0; c <= BOARD_CELL_DSP; c++)
        if (!cJSON_GetObjectItemCaseSensitive(cells, cell_class_names[c])) {
            fail(err, errlen, "%s: missing field 'synthesis.cells.%s'", file,
                 cell_class_names[c]);
            return -1;
        }
    size_t cap = 0;
    cJSON_ArrayForEach(group, cells) {
        int cls = -1;
        for (int c = 0; c < BOARD_CELL_CLASS_COUNT; c++)
            if (!strcmp(group->string, cell_class_names[c]))
                cls = c;
        if (cls < 0) {
            fail(err, errlen, "%s: field 'synthesis.cells.%s': unknown cell class (one of "
                 "lut, ff, bram, dsp, carry, mux)", file, group->string);
            return -1;
        }
        if (!cJSON_IsObject(group)) {
            fail(err, errlen, "%s: field 'synthesis.cells.%s' must be an object of cell "
                 "type: weight", file, group->string);
            return -1;
        }
        const cJSON *cell;
        cJSON_ArrayForEach(cell, group) {
            if (!cJSON_IsNumber(cell) || cell->valuedouble < 0) {
                fail(err, errlen, "%s: field 'synthesis.cells.%s.%s' must be a number of at "
                     "least 0", file, group->string, cell->string);
                return -1;
            }
            if (b->ncells == cap) {
                board_cell *more = hls_try_realloc(b->cells, (cap ? 2 * cap : 32) * sizeof *more);
                if (!more) {
                    fail(err, errlen, "%s: out of memory", file);
                    return -1;
                }
                b->cells = more;
                cap = cap ? 2 * cap : 32;
            }
            char *pattern = hls_try_strdup(cell->string);
            if (!pattern) {
                fail(err, errlen, "%s: out of memory", file);
                return -1;
            }
            b->cells[b->ncells++] = (board_cell){.cls = (board_cell_class)cls,
                                                 .pattern = pattern,
                                                 .weight = cell->valuedouble};
        }
    }
    return 0;
}

board_t *board_load_file(const char *path, char *err, size_t errlen)
{
    char *text = read_file(path, err, errlen);
    if (!text)
        return NULL;
    cJSON *root = cJSON_Parse(text);
    if (!root) /* the error pointer points into text: report before freeing it */
        fail(err, errlen, "%s: not valid JSON near '%.20s'", path,
             cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "");
    free(text);
    if (!root)
        return NULL;
    board_t *b = hls_try_alloc(sizeof *b);
    if (!b) {
        fail(err, errlen, "%s: out of memory", path);
        cJSON_Delete(root);
        return NULL;
    }
    int bad = 0;
    bad |= get_string(root, "name", 0, &b->name, path, err, errlen);
    bad |= !bad && get_string(root, "description", 0, &b->description, path, err, errlen);
    bad |= !bad && get_string(root, "fpga.vendor", 0, &b->vendor, path, err, errlen);
    bad |= !bad && get_string(root, "fpga.family", 0, &b->family, path, err, errlen);
    bad |= !bad && get_string(root, "fpga.part", 0, &b->part, path, err, errlen);
    bad |= !bad && get_string(root, "fpga.synth_command", 0, &b->synth_command, path, err, errlen);
    bad |= !bad && get_string(root, "fpga.pnr_tool", 1, &b->pnr_tool, path, err, errlen);
    if (!bad && b->pnr_tool)
        bad |= get_string_array(root, "fpga.pnr_args", &b->pnr_args, path, err, errlen);
    bad |= !bad && get_string(root, "fpga.bitstream_tool", 1, &b->bitstream_tool, path, err,
                              errlen);
    bad |= !bad && get_string(root, "fpga.lutram", 1, &b->lutram, path, err, errlen);
    bad |= !bad && get_cells(root, b, path, err, errlen);
    for (int c = 0; !bad && c < BOARD_CELL_CLASS_COUNT; c++) {
        char key[64];
        if (c == BOARD_CELL_BRAM || c == BOARD_CELL_DSP)
            continue;
        snprintf(key, sizeof key, "synthesis.delay_ns.%s", cell_class_names[c]);
        bad |= get_number(root, key, 0, &b->delay_ns[c], path, err, errlen);
    }
    b->fanout_ns = 0;
    if (!bad && lookup(root, "synthesis.delay_ns.fanout"))
        bad |= get_number(root, "synthesis.delay_ns.fanout", 0, &b->fanout_ns, path, err, errlen);
    bad |= !bad && get_u64(root, "resources.lut", 1, &b->luts, path, err, errlen);
    bad |= !bad && get_u64(root, "resources.ff", 1, &b->ffs, path, err, errlen);
    bad |= !bad && get_u64(root, "resources.bram", 0, &b->brams, path, err, errlen);
    bad |= !bad && get_u64(root, "resources.dsp", 0, &b->dsps, path, err, errlen);
    bad |= !bad && get_number(root, "clock_mhz", 1, &b->clock_mhz, path, err, errlen);
    bad |= !bad && get_u64(root, "memory.size_bytes", 4096, &b->global_mem_bytes, path, err, errlen);
    bad |= !bad && get_u64(root, "memory.max_alloc_bytes", 4096, &b->max_alloc_bytes, path, err, errlen);
    bad |= !bad && get_uint(root, "memory.address_bits", 12, &b->mem_addr_bits, path, err, errlen);
    bad |= !bad && get_uint(root, "memory.ports", 1, &b->mem_ports, path, err, errlen);
    bad |= !bad && get_uint(root, "memory.width_bits", 32, &b->mem_width_bits, path, err, errlen);
    bad |= !bad && get_uint(root, "memory.latency_cycles", 1, &b->mem_latency_cycles, path, err, errlen);
    bad |= !bad && get_number(root, "memory.bandwidth_gbps", 0.001, &b->mem_bandwidth_gbps, path, err, errlen);
    bad |= !bad && get_u64(root, "local_memory_bytes", 0, &b->local_mem_bytes, path, err, errlen);
    bad |= !bad && get_uint(root, "max_work_group_size", 1, &b->max_work_group_size, path, err, errlen);
    bad |= !bad && get_uint(root, "work_item_index_bits", 16, &b->work_item_index_bits, path, err,
                            errlen);
    bad |= !bad && get_uint(root, "compute_units", 1, &b->compute_units, path, err, errlen);
    bad |= !bad && get_number(root, "host_link.bandwidth_gbps", 1e-6, &b->host_link_gbps, path, err, errlen);
    bad |= !bad && get_number(root, "host_link.latency_us", 0, &b->host_link_latency_us, path, err, errlen);
    for (int i = 0; !bad && i < BOARD_OP_COUNT; i++) {
        char key[64];
        snprintf(key, sizeof key, "latency.%s", op_names[i]);
        bad |= get_uint(root, key, 0, &b->op_latency[i], path, err, errlen);
    }
    unsigned w = b->mem_width_bits;
    if (!bad && (w & (w - 1) || w > 1024)) {
        fail(err, errlen, "%s: field 'memory.width_bits' must be a power of two up to 1024",
             path);
        bad = 1;
    }
    if (!bad && b->work_item_index_bits > 64) {
        fail(err, errlen, "%s: field 'work_item_index_bits' must be at most 64", path);
        bad = 1;
    }
    if (!bad && b->mem_addr_bits > 64) {
        fail(err, errlen, "%s: field 'memory.address_bits' must be at most 64", path);
        bad = 1;
    }
    if (!bad && b->mem_addr_bits < 64 && b->global_mem_bytes > (1ull << b->mem_addr_bits)) {
        fail(err, errlen, "%s: field 'memory.size_bytes' (%llu) does not fit in "
             "'memory.address_bits' (%u bits)", path,
             (unsigned long long)b->global_mem_bytes, b->mem_addr_bits);
        bad = 1;
    }
    if (!bad && b->max_alloc_bytes > b->global_mem_bytes) {
        fail(err, errlen, "%s: field 'memory.max_alloc_bytes' is larger than "
             "'memory.size_bytes'", path);
        bad = 1;
    }
    if (!bad && b->bitstream_tool && !b->pnr_tool) {
        fail(err, errlen, "%s: field 'fpga.bitstream_tool' needs 'fpga.pnr_tool'", path);
        bad = 1;
    }
    const char *colon = b->lutram ? strchr(b->lutram, ':') : NULL; /* "LABEL: COMMAND" */
    if (!bad && b->lutram && strcmp(b->lutram, "ram_style") &&
        (!colon || colon == b->lutram || !colon[strspn(colon + 1, " ") + 1])) {
        fail(err, errlen, "%s: field 'fpga.lutram' must be \"ram_style\" or \"LABEL: "
             "COMMAND\"", path);
        bad = 1;
    }
    uint64_t span = b->global_mem_bytes / (b->mem_ports ? b->mem_ports : 1);
    if (!bad && (b->mem_ports & (b->mem_ports - 1) || b->mem_ports > BOARD_MAX_MEM_PORTS)) {
        fail(err, errlen, "%s: field 'memory.ports' must be 1, 2, 4 or 8", path);
        bad = 1;
    }
    if (!bad && b->mem_ports > 1 &&
        (span & (span - 1) || span * b->mem_ports != b->global_mem_bytes)) {
        fail(err, errlen, "%s: field 'memory.size_bytes' must be 'memory.ports' times a "
             "power of two (each port serves an aligned range of that size)", path);
        bad = 1;
    }
    if (!bad && b->mem_ports > 1 && b->max_alloc_bytes > span - BOARD_PORT_RESERVED) {
        fail(err, errlen, "%s: field 'memory.max_alloc_bytes' is larger than one memory "
             "port's range (%llu bytes less %u)", path, (unsigned long long)span,
             BOARD_PORT_RESERVED);
        bad = 1;
    }
    cJSON_Delete(root);
    if (!bad && !(b->path = hls_try_strdup(path))) {
        fail(err, errlen, "%s: out of memory", path);
        bad = 1;
    }
    if (bad) {
        board_free(b);
        return NULL;
    }
    return b;
}

/* The directories searched for board files, in order. */
static int search_dirs(const char *dirs[3])
{
    int n = 0;
    const char *env = getenv("CLHLS_BOARD_DIR");
    if (env && *env)
        dirs[n++] = env;
    dirs[n++] = CLHLS_BOARD_SOURCE_DIR;
    dirs[n++] = CLHLS_BOARD_INSTALL_DIR;
    return n;
}

board_t *board_load(const char *name, char *err, size_t errlen)
{
    if (!name || !*name || strchr(name, '/')) {
        fail(err, errlen, "invalid board name '%s'", name ? name : "");
        return NULL;
    }
    const char *dirs[3];
    int n = search_dirs(dirs);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.json", dirs[i], name);
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
            return board_load_file(path, err, errlen);
        }
    }
    fail(err, errlen, "unknown board '%s' (looked in %s%s%s)", name, dirs[0],
         n > 1 ? " and further board directories" : "", "");
    return NULL;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **board_list(void)
{
    const char *dirs[3];
    int ndirs = search_dirs(dirs);
    size_t count = 0, cap = 8;
    char **names = hls_try_alloc((cap + 1) * sizeof *names);
    int out_of_memory = !names;
    for (int i = 0; !out_of_memory && i < ndirs; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
                continue;
            int seen = 0;
            for (size_t j = 0; j < count; j++)
                seen |= !strncmp(names[j], e->d_name, len - 5) && !names[j][len - 5];
            if (seen)
                continue;
            if (count == cap) {
                char **more = hls_try_realloc(names, (2 * cap + 1) * sizeof *names);
                if (!more) {
                    out_of_memory = 1;
                    break;
                }
                names = more;
                cap *= 2;
            }
            char *name = hls_try_alloc(len - 4);
            if (!name) {
                out_of_memory = 1;
                break;
            }
            memcpy(name, e->d_name, len - 5);
            names[count++] = name;
            names[count] = NULL;
        }
        closedir(d);
    }
    if (out_of_memory) {
        board_list_free(names);
        return NULL;
    }
    qsort(names, count, sizeof *names, compare_names);
    return names;
}

void board_list_free(char **names)
{
    for (char **p = names; p && *p; p++)
        free(*p);
    free(names);
}

const char *board_default_name(void)
{
    const char *env = getenv("CLHLS_BOARD");
    return env && *env ? env : DEFAULT_BOARD;
}

int board_cell_class_of(const board_t *board, const char *type, double *weight)
{
    for (size_t i = 0; i < board->ncells; i++)
        if (!fnmatch(board->cells[i].pattern, type, 0)) {
            if (weight)
                *weight = board->cells[i].weight;
            return (int)board->cells[i].cls;
        }
    return -1;
}

const char *board_cell_class_name(board_cell_class cls)
{
    return cls < BOARD_CELL_CLASS_COUNT ? cell_class_names[cls] : "?";
}

double board_mem_bytes_per_cycle(const board_t *board)
{
    return board->mem_bandwidth_gbps * 1e9 / (board->clock_mhz * 1e6);
}

uint64_t board_port_span(const board_t *board)
{
    return board->global_mem_bytes / board->mem_ports;
}

unsigned board_port_of(const board_t *board, uint64_t addr)
{
    return board->mem_ports > 1 ? (unsigned)(addr / board_port_span(board) % board->mem_ports)
                                : 0;
}

double board_logic_levels(const board_t *board)
{
    double lut = board->delay_ns[BOARD_CELL_LUT];
    if (lut <= 0 || board->clock_mhz <= 0)
        return 0;
    return (1000.0 / board->clock_mhz - board->delay_ns[BOARD_CELL_FF]) / lut;
}

void board_free(board_t *b)
{
    if (!b)
        return;
    free(b->name);
    free(b->description);
    free(b->vendor);
    free(b->family);
    free(b->part);
    free(b->synth_command);
    free(b->pnr_tool);
    for (char **p = b->pnr_args; p && *p; p++)
        free(*p);
    free(b->pnr_args);
    free(b->bitstream_tool);
    free(b->lutram);
    for (size_t i = 0; i < b->ncells; i++)
        free(b->cells[i].pattern);
    free(b->cells);
    free(b->path);
    free(b);
}
