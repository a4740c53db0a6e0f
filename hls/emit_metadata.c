/* Program metadata: metadata.json, the only thing the runtime reads to drive the
 * hardware (kernels, register indexes, argument kinds and sizes, counters). The
 * format is described in docs/architecture.md. Written with cJSON. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "passes.h"


static cJSON *dims(const unsigned v[3])
{
    int values[3] = {(int)v[0], (int)v[1], (int)v[2]};
    return cJSON_CreateIntArray(values, 3);
}

static cJSON *reg_triple(int base, int first)
{
    int values[3] = {base + first, base + first + 1, base + first + 2};
    return cJSON_CreateIntArray(values, 3);
}

static const char *address_qualifier(int as)
{
    switch (as) {
    case 1: return "global";
    case 2: return "constant";
    case 3: return "local";
    default: return "private";
    }
}

static cJSON *kernel_json(const hls_kernel *k, int index, unsigned max_wg)
{
    int base = HLS_REGS_PER_KERNEL * index;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", k->name);
    cJSON_AddNumberToObject(j, "reg_base", base);
    cJSON *regs = cJSON_AddObjectToObject(j, "regs");
    cJSON_AddNumberToObject(regs, "control", base + 0);
    cJSON_AddNumberToObject(regs, "status", base + 1);
    cJSON_AddNumberToObject(regs, "work_dim", base + 2);
    cJSON_AddItemToObject(regs, "global_size", reg_triple(base, 3));
    cJSON_AddItemToObject(regs, "local_size", reg_triple(base, 6));
    cJSON_AddItemToObject(regs, "global_offset", reg_triple(base, 9));
    cJSON_AddItemToObject(regs, "num_groups", reg_triple(base, 12));
    cJSON_AddNumberToObject(j, "control_start_mask", 1);
    cJSON_AddNumberToObject(j, "status_busy_mask", 1);
    cJSON_AddNumberToObject(j, "status_done_mask", 2);
    static const char *const counters[] = {"busy_cycles", "work_items", "stall_mem_cycles",
                                           "mem_read_requests", "mem_write_requests"};
    cJSON *cs = cJSON_AddArrayToObject(j, "counters");
    for (int i = 0; i < 5; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", counters[i]);
        cJSON_AddNumberToObject(c, "reg", base + 16 + i);
        cJSON_AddItemToArray(cs, c);
    }
    cJSON *ps = cJSON_AddArrayToObject(j, "probes");
    int loops[HLS_MAX_PROBES];
    int nprobes = hls_ir_probe_loops(k, loops);
    for (int i = 0; i < nprobes; i++) {
        const hls_region *r = &k->regions[loops[i]];
        const hls_loc *loc = &k->loops[r->loop].loc;
        cJSON *pj = cJSON_CreateObject();
        char name[256];
        snprintf(name, sizeof name, "loop at %s:%u:%u: work-items inside", loc->file ? loc->file : "?",
                 loc->line, loc->col);
        cJSON_AddStringToObject(pj, "name", name);
        cJSON_AddNumberToObject(pj, "reg", base + HLS_REG_FIRST_PROBE + i);
        cJSON_AddNumberToObject(pj, "capacity", r->credits);
        cJSON_AddItemToArray(ps, pj);
    }
    cJSON_AddItemToObject(j, "reqd_work_group_size", dims(k->reqd_wg_size));
    cJSON_AddItemToObject(j, "work_group_size_hint", dims(k->wg_size_hint));
    unsigned reqd = k->reqd_wg_size[0] * k->reqd_wg_size[1] * k->reqd_wg_size[2];
    cJSON_AddNumberToObject(j, "max_work_group_size", reqd ? reqd : max_wg);
    cJSON_AddNumberToObject(j, "pipeline_depth", k->depth);
    cJSON_AddNumberToObject(j, "load_store_units", k->nlsus);
    cJSON *args = cJSON_AddArrayToObject(j, "args");
    static const char *const kinds[] = {"buffer", "scalar", "local"};
    for (int i = 0; i < k->nargs; i++) {
        const hls_arg *a = &k->args[i];
        cJSON *aj = cJSON_CreateObject();
        cJSON_AddStringToObject(aj, "name", a->name);
        cJSON_AddStringToObject(aj, "type_name", a->type_name);
        cJSON_AddStringToObject(aj, "address_qualifier", address_qualifier(a->addr_space));
        cJSON_AddStringToObject(aj, "access_qualifier", *a->access_qual ? a->access_qual : "none");
        cJSON_AddStringToObject(aj, "type_qualifier", a->type_qual);
        cJSON_AddStringToObject(aj, "kind", kinds[a->kind]);
        cJSON_AddNumberToObject(aj, "size", a->size);
        cJSON_AddNumberToObject(aj, "reg", base + HLS_REG_FIRST_ARG + i);
        cJSON_AddItemToArray(args, aj);
    }
    return j;
}

int hls_emit_metadata(hls_compile *c, const char *path)
{
    const hls_program *p = c->program;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "format", 1);
    cJSON_AddStringToObject(root, "tool_version", hls_version());
    cJSON_AddStringToObject(root, "board", p->board->name);
    cJSON_AddNumberToObject(root, "clock_mhz", p->board->clock_mhz);
    cJSON_AddNumberToObject(root, "mem_width_bytes", p->board->mem_width_bits / 8);
    cJSON_AddStringToObject(root, "cl_std", p->cl_std);
    cJSON_AddBoolToObject(root, "uniform_work_group_size", p->uniform_wg);
    cJSON_AddStringToObject(root, "options", c->req->options ? c->req->options : "");
    if (p->nkernels)
        cJSON_AddStringToObject(root, "model", "model.so");
    else
        cJSON_AddNullToObject(root, "model");
    cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
    for (int i = 0; i < p->nkernels; i++)
        cJSON_AddItemToArray(ks, kernel_json(p->kernels[i], i, p->board->max_work_group_size));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f)
        ok &= fclose(f) == 0;
    cJSON_free(text);
    if (!ok) {
        sb_printf(c->diag.log, "error: cannot write %s\n", path);
        return HLS_ERR_TOOL;
    }
    return HLS_OK;
}
