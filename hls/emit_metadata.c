/* Program metadata: metadata.json, the only thing the runtime reads to drive the
 * hardware (kernels, register indexes, argument kinds and sizes, counters). The
 * format is described in docs/architecture.md. Written with cJSON. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "passes.h"
#include "regmap.h"

/* The kernel's global load-store units in unit order (UNIT of the templates): what
 * each does, its size and its source location, for the simulator's messages about an
 * access outside the kernel's buffers. */
static cJSON *global_units(const hls_kernel *k)
{
    static const char *const kinds[] = {"load", "store", "atomic"};
    cJSON *units = cJSON_CreateArray();
    for (int n = 0; n < k->nlsus; n++)
        for (int i = 0; i < k->nops; i++) {
            const hls_op *op = &k->ops[i];
            if (op->lsu != n)
                continue;
            int kind = op->opc == HOP_LOAD ? 0 : op->opc == HOP_STORE ? 1 : 2;
            char at[256];
            snprintf(at, sizeof at, "%s:%u:%u", op->loc.file ? op->loc.file : "?",
                     op->loc.line, op->loc.col);
            cJSON *u = cJSON_CreateObject();
            cJSON_AddStringToObject(u, "kind", kinds[kind]);
            cJSON_AddNumberToObject(u, "bytes", op->width / 8);
            cJSON_AddStringToObject(u, "at", at);
            cJSON_AddItemToArray(units, u);
            break;
        }
    return units;
}

static cJSON *dims(const unsigned v[3])
{
    int values[3] = {(int)v[0], (int)v[1], (int)v[2]};
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

/* Bytes of __local arrays the kernel declares (the __local arguments come on top). */
static unsigned long long local_array_bytes(const hls_kernel *k)
{
    unsigned long long bytes = 0;
    for (int i = 0; i < k->nlocals; i++)
        if (k->locals[i].arg < 0)
            bytes += k->locals[i].size;
    return bytes;
}

/* The largest size a __local argument may be given (0 for other arguments). */
static unsigned long long local_arg_max(const hls_kernel *k, int arg)
{
    for (int i = 0; i < k->nlocals; i++)
        if (k->locals[i].arg == arg)
            return k->locals[i].size;
    return 0;
}

/* The printf description of a kernel that calls printf (printf.c): the buffer's size,
 * each call site's format and record layout (format id = index + 1), the strings. */
static cJSON *printf_json(const hls_printf_kernel *pk)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "buffer_bytes", HLS_PRINTF_BUFFER_BYTES);
    cJSON_AddNumberToObject(j, "header_bytes", HLS_PRINTF_HEADER_BYTES);
    cJSON *fs = cJSON_AddArrayToObject(j, "formats");
    for (int i = 0; i < pk->nformats; i++) {
        const hls_printf_format *f = &pk->formats[i];
        cJSON *fj = cJSON_CreateObject();
        cJSON_AddStringToObject(fj, "format", f->format);
        cJSON_AddNumberToObject(fj, "bytes", f->bytes);
        cJSON *as = cJSON_AddArrayToObject(fj, "args");
        for (int a = 0; a < f->nargs; a++) {
            const hls_printf_arg *pa = &f->args[a];
            cJSON *aj = cJSON_CreateObject();
            char kind[2] = {pa->kind, 0};
            cJSON_AddStringToObject(aj, "kind", kind);
            cJSON_AddNumberToObject(aj, "bytes", pa->bytes);
            cJSON_AddNumberToObject(aj, "lanes", pa->lanes);
            cJSON_AddNumberToObject(aj, "offset", pa->offset);
            cJSON_AddItemToArray(as, aj);
        }
        cJSON_AddItemToArray(fs, fj);
    }
    cJSON *ss = cJSON_AddArrayToObject(j, "strings");
    for (int i = 0; i < pk->nstrings; i++)
        cJSON_AddItemToArray(ss, cJSON_CreateString(pk->strings[i]));
    return j;
}

static cJSON *kernel_json(const hls_compile *c, const hls_kernel *k, int index)
{
    int base = HLS_REGS_PER_KERNEL * index;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", k->name);
    cJSON_AddNumberToObject(j, "reg_base", base);
    /* Registers from the one register map (regmap.c). */
    cJSON *regs = cJSON_AddObjectToObject(j, "regs");
    cJSON *cs = cJSON_CreateArray();
    for (int i = 0; i < hls_regmap_count; i++) {
        const hls_reg_field *f = &hls_regmap[i];
        int first = base + (int)f->offset;
        if (f->kind == HLS_REGF_CONTROL || f->kind == HLS_REGF_GEOMETRY) {
            int values[3] = {first, first + 1, first + 2};
            cJSON_AddItemToObject(regs, f->name, f->count == 3 ? cJSON_CreateIntArray(values, 3)
                                                               : cJSON_CreateNumber(first));
        } else if (f->kind == HLS_REGF_COUNTER) {
            cJSON *c = cJSON_CreateObject();
            cJSON_AddStringToObject(c, "name", f->name);
            cJSON_AddNumberToObject(c, "reg", first);
            cJSON_AddItemToArray(cs, c);
        } else if (f->kind == HLS_REGF_ARGS) {
            cJSON *area = cJSON_AddObjectToObject(j, "arg_area");
            cJSON_AddNumberToObject(area, "reg", first);
            cJSON_AddNumberToObject(area, "bytes", k->arg_bytes);
        }
    }
    cJSON_AddNumberToObject(j, "control_start_mask", 1);
    cJSON_AddNumberToObject(j, "status_busy_mask", 1);
    cJSON_AddNumberToObject(j, "status_done_mask", 2);
    cJSON_AddItemToObject(j, "counters", cs);
    cJSON *ps = cJSON_AddArrayToObject(j, "probes");
    hls_probe probed[HLS_MAX_PROBES];
    int nprobes = hls_ir_probes(c->program, index, probed);
    for (int i = 0; i < nprobes; i++) {
        cJSON *pj = cJSON_CreateObject();
        char name[256];
        int reg = base + (int)hls_regmap_find("probes")->offset + i;
        if (probed[i].channel >= 0) { /* its entries, and the kernel at the other end */
            const hls_channel *ch = &c->program->channels[probed[i].channel];
            int peer = ch->writer == index ? ch->reader : ch->writer;
            snprintf(name, sizeof name, "%s '%s' (%s kernel '%s')",
                     ch->pipe ? "pipe" : "channel", ch->name,
                     ch->writer == index ? "read by" : "written by",
                     c->program->kernels[peer]->name);
            cJSON_AddStringToObject(pj, "name", name);
            cJSON_AddNumberToObject(pj, "reg", reg);
            cJSON_AddNumberToObject(pj, "capacity", ch->depth);
            cJSON_AddStringToObject(pj, "peer", c->program->kernels[peer]->name);
            cJSON_AddNumberToObject(pj, "peer_unit", peer);
            if (c->program->kernels[peer]->autorun)
                cJSON_AddTrueToObject(pj, "peer_autorun");
            cJSON_AddItemToArray(ps, pj);
            /* the probe's upper half: the most entries since the kernel's start */
            cJSON *peak = cJSON_CreateObject();
            snprintf(name, sizeof name, "channel_peak.%s", ch->name);
            cJSON_AddStringToObject(peak, "name", name);
            cJSON_AddNumberToObject(peak, "reg", reg);
            cJSON_AddNumberToObject(peak, "shift", 32);
            cJSON_AddItemToArray(cs, peak);
            continue;
        }
        const hls_region *r = &k->regions[probed[i].region];
        int loop = r->kind == HLS_REGION_LOOP, memory = r->kind == HLS_REGION_MEMORY;
        const hls_op *first = loop ? NULL : &k->ops[r->ops[0]]; /* a node's channel access */
        for (int o = 0; memory && o < r->nops; o++)
            if (k->ops[r->ops[o]].chan >= 0) {
                first = &k->ops[r->ops[o]];
                break;
            }
        const hls_loc *loc = loop ? &k->loops[r->loop].loc : &first->loc;
        /* a pipelined loop's body holds iterations of its work-items */
        int iterations = r->parent >= 0 && k->regions[r->parent].pipelined;
        char what[160];
        if (memory && first->chan >= 0) {
            const hls_channel *ch = &c->program->channels[first->chan];
            snprintf(what, sizeof what, "%s %s '%s'",
                     first->opc == HOP_CHAN_WRITE ? "write to"
                     : first->imm == HLS_CHAN_COUNT ? "count of" : "read of",
                     ch->pipe ? "pipe" : "channel", ch->name);
        } else
            snprintf(what, sizeof what, "%s", loop ? (r->pipelined ? "pipelined loop" : "loop")
                                              : memory ? "memory access" : "barrier");
        snprintf(name, sizeof name, "%s at %s:%u:%u: %s %s", what,
                 loc->file ? loc->file : "?", loc->line, loc->col,
                 iterations && !loop ? "iterations" : "work-items",
                 loop || memory ? "inside" : "waiting");
        cJSON_AddStringToObject(pj, "name", name);
        cJSON_AddNumberToObject(pj, "reg", reg);
        cJSON_AddNumberToObject(pj, "capacity", loop     ? r->credits
                                                : memory ? r->exit_depth
                                                         : HLS_WG_SLOTS * (double)k->max_wg);
        cJSON_AddItemToArray(ps, pj);
    }
    unsigned reqd[3] = {k->reqd_wg_size[0] * (unsigned)k->simd, k->reqd_wg_size[1],
                        k->reqd_wg_size[2]}; /* the kernel's, of every lane */
    cJSON_AddItemToObject(j, "reqd_work_group_size", dims(reqd));
    cJSON_AddItemToObject(j, "work_group_size_hint", dims(k->wg_size_hint));
    cJSON_AddStringToObject(j, "vec_type_hint", k->vec_type_hint);
    cJSON_AddNumberToObject(j, "max_work_group_size", k->max_wg * (unsigned)k->simd);
    cJSON_AddNumberToObject(j, "compute_units", k->compute_units);
    cJSON_AddNumberToObject(j, "simd_work_items", k->simd);
    if (k->autorun) /* the host does not see it: it starts with the accelerator */
        cJSON_AddTrueToObject(j, "autorun");
    cJSON_AddNumberToObject(j, "local_mem_bytes", (double)local_array_bytes(k));
    cJSON_AddNumberToObject(j, "pipeline_depth", k->depth);
    cJSON_AddNumberToObject(j, "load_store_units", k->nlsus);
    cJSON_AddItemToObject(j, "lsus", global_units(k));
    cJSON *args = cJSON_AddArrayToObject(j, "args");
    const hls_printf_kernel *pk = hls_printf_find(c, k->name);
    static const char *const kinds[] = {"buffer", "scalar", "local", "pipe"};
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
        cJSON_AddNumberToObject(aj, "offset", a->offset);
        if (a->kind == HLS_ARG_LOCAL)
            cJSON_AddNumberToObject(aj, "max_bytes", (double)local_arg_max(k, i));
        if (a->kind == HLS_ARG_PIPE) /* packets its FIFO holds (0: the kernel leaves it) */
            cJSON_AddNumberToObject(aj, "pipe_depth",
                                    a->chan >= 0 ? c->program->channels[a->chan].depth : 0);
        if (pk && i == k->nargs - 1 && !strcmp(a->name, HLS_PRINTF_BUFFER_ARG))
            cJSON_AddStringToObject(aj, "hidden", "printf_buffer");
        cJSON_AddItemToArray(args, aj);
    }
    if (pk)
        cJSON_AddItemToObject(j, "printf", printf_json(pk));
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
        cJSON_AddItemToArray(ks, kernel_json(c, p->kernels[i], i));
    cJSON *chs = cJSON_AddArrayToObject(root, "channels"); /* informative: no part reads it */
    for (int i = 0; i < p->nchannels; i++) {
        const hls_channel *ch = &p->channels[i];
        cJSON *cj = cJSON_CreateObject();
        cJSON_AddStringToObject(cj, "name", ch->name);
        cJSON_AddBoolToObject(cj, "pipe", ch->pipe);
        cJSON_AddNumberToObject(cj, "bits", ch->bits);
        cJSON_AddNumberToObject(cj, "declared_depth", ch->declared_depth);
        cJSON_AddNumberToObject(cj, "depth", ch->depth);
        cJSON_AddStringToObject(cj, "writer", p->kernels[ch->writer]->name);
        cJSON_AddStringToObject(cj, "reader", p->kernels[ch->reader]->name);
        cJSON_AddItemToArray(chs, cj);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    int ok = text && hls_write_text(path, text, 1) == 0;
    cJSON_free(text);
    if (!ok) {
        sb_printf(c->diag.log, "error: cannot write %s\n", path);
        return HLS_ERR_TOOL;
    }
    return HLS_OK;
}
