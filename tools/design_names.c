/* What a netlist name means in the kernel's terms. Synthesis and place and route name
 * a path's ends by the generated design's hierarchy ("cu_vadd.lsu1.order_queue...",
 * "cu_vadd.u10.output_pipeline..."); the compiler's report.json says which operation
 * each of those instances implements and at which source line. This reads the first
 * instance below a compute unit (`cu_KERNEL`) and names it: a load-store unit or an
 * operator with its source location, a region's pipeline, or the compute unit's
 * NDRange machinery; names outside every compute unit are the accelerator's shared
 * parts (memory interconnect, register file). */
#include "design_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number after prefix at the start of s (e.g. "lsu" in "lsu12.q"), or -1. */
static long numbered(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) || s[n] < '0' || s[n] > '9')
        return -1;
    return strtol(s + n, NULL, 10);
}

/* The entry of array whose number field `key` is value, or NULL. */
static const cJSON *find_numbered(const cJSON *array, const char *key, long value)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, array) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
        if (cJSON_IsNumber(v) && (long)v->valuedouble == value)
            return e;
    }
    return NULL;
}

static int number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? (int)v->valuedouble : 0;
}

static const char *string(const cJSON *o, const char *key, const char *otherwise)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return s ? s : otherwise;
}

/* "WHAT at FILE:LINE:COL in kernel K" for an entry with line and col. */
static void at_source(char *out, size_t len, const char *what, const cJSON *entry,
                      const char *file, const char *kernel)
{
    snprintf(out, len, "%s at %s:%d:%d in kernel %s", what, file, number(entry, "line"),
             number(entry, "col"), kernel);
}

/* Operation op of kernel k: a load-store unit, an operator or a table read. */
static int describe_op(const cJSON *k, long op, const char *prefix, char *out, size_t len,
                       const char *file)
{
    const char *kernel = string(k, "name", "?");
    const cJSON *e = find_numbered(cJSON_GetObjectItemCaseSensitive(k, "lsus"), "op", op);
    char what[160];
    if (e) {
        snprintf(what, sizeof what, "%s%s %s unit", prefix, string(e, "space", ""),
                 string(e, "kind", "memory"));
    } else if ((e = find_numbered(cJSON_GetObjectItemCaseSensitive(k, "operators"), "op", op))) {
        snprintf(what, sizeof what, "%s%s", prefix, string(e, "kind", "operator"));
    } else if ((e = find_numbered(cJSON_GetObjectItemCaseSensitive(k, "rom_reads"), "op", op))) {
        snprintf(what, sizeof what, "%sread of the table %s", prefix, string(e, "table", "?"));
    } else {
        return 0;
    }
    at_source(out, len, what, e, file, kernel);
    return 1;
}

/* The parts of a compute unit that no single operation owns, by instance name. */
static const struct {
    const char *instance, *meaning;
} cu_parts[] = {
    {"regs", "control registers"},       {"dispatch", "work-group dispatcher"},
    {"slots", "work-group slots"},       {"items", "work-item generator"},
};

int design_describe(const cJSON *report, const char *name, char *out, size_t len)
{
    const char *file = string(report, "source_name", "program.cl");
    if (strncmp(name, "cu_", 3) != 0) {
        if (!strncmp(name, "memory_interconnect", 19))
            snprintf(out, len, "memory interconnect");
        else if (!strncmp(name, "atomic_unit", 11))
            snprintf(out, len, "global atomic unit");
        else
            snprintf(out, len, "accelerator top (register file, memory port)");
        return 0;
    }
    /* cu_UNIT.INSTANCE...: the longest compute-unit name that matches (names hold '_');
     * UNIT is the kernel's name, or a short form of a long one */
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(report, "kernels"), *k, *best = NULL;
    size_t best_len = 0;
    cJSON_ArrayForEach(k, kernels) {
        const char *kn = string(k, "unit", string(k, "name", ""));
        size_t n = strlen(kn);
        if (n > best_len && !strncmp(name + 3, kn, n) && (name[3 + n] == '.' || !name[3 + n])) {
            best = k;
            best_len = n;
        }
    }
    if (!best) {
        snprintf(out, len, "a compute unit");
        return 0;
    }
    const char *kernel = string(best, "name", "?");
    const char *inst = name[3 + best_len] == '.' ? name + 4 + best_len : "";
    long n;
    if ((n = numbered(inst, "lsu")) >= 0) {
        const cJSON *e = find_numbered(cJSON_GetObjectItemCaseSensitive(best, "lsus"), "index", n);
        if (e && describe_op(best, number(e, "op"), "", out, len, file))
            return 1;
    } else if ((n = numbered(inst, "u")) >= 0) {
        if (describe_op(best, n, "", out, len, file))
            return 1;
    } else if ((n = numbered(inst, "lm")) >= 0) {
        snprintf(out, len, "local memory %ld of kernel %s", n, kernel);
        return 0;
    } else if ((n = numbered(inst, "r")) >= 0) {
        /* rR_vOP is the value of operation OP; other rR_ names the region's pipeline */
        const char *v = strchr(inst, '_');
        long op = v ? numbered(v + 1, "v") : -1;
        if (op >= 0 && describe_op(best, op, "result of the ", out, len, file))
            return 1;
        snprintf(out, len, "pipeline of region %ld of kernel %s", n, kernel);
        return 0;
    }
    for (size_t i = 0; i < sizeof cu_parts / sizeof *cu_parts; i++) {
        size_t il = strlen(cu_parts[i].instance);
        if (!strncmp(inst, cu_parts[i].instance, il) && (inst[il] == '.' || !inst[il])) {
            snprintf(out, len, "%s of kernel %s", cu_parts[i].meaning, kernel);
            return 0;
        }
    }
    snprintf(out, len, "compute unit of kernel %s", kernel);
    return 0;
}
