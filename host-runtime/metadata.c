/* metadata.json, the compiler's description of a built program's kernels and the only
 * source of register indexes, argument descriptions and kernel attributes: parsed with
 * cJSON into rt_kernel_meta when a program is loaded (program.c), freed when the program
 * goes (object.c). Anything missing or out of range fails the load with a message that
 * names the kernel; optional parts (probes, load-store units, attributes) may be absent. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rt.h"

static int json_u64(const cJSON *obj, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
        v->valuedouble >= 18446744073709551616.0) /* 2^64: no uint64_t */
        return -1;
    *out = (uint64_t)v->valuedouble;
    return 0;
}

static int json_u32(const cJSON *obj, const char *key, uint32_t *out)
{
    uint64_t v;
    if (json_u64(obj, key, &v) || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Reads a 3-element array of numbers into out (absent: zeros when optional). */
static int json_u32x3(const cJSON *obj, const char *key, uint32_t out[3], int optional)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!a)
        return optional ? 0 : -1;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3)
        return -1;
    for (int i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetArrayItem(a, i);
        if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > UINT32_MAX)
            return -1;
        out[i] = (uint32_t)v->valuedouble;
    }
    return 0;
}

static char *json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return rt_strdup(cJSON_IsString(v) ? v->valuestring : "");
}

static cl_kernel_arg_address_qualifier address_of(const char *s)
{
    if (!strcmp(s, "global"))
        return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    if (!strcmp(s, "constant"))
        return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    if (!strcmp(s, "local"))
        return CL_KERNEL_ARG_ADDRESS_LOCAL;
    return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

static cl_kernel_arg_access_qualifier access_of(const char *s)
{
    if (!strcmp(s, "read_only"))
        return CL_KERNEL_ARG_ACCESS_READ_ONLY;
    if (!strcmp(s, "write_only"))
        return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    if (!strcmp(s, "read_write"))
        return CL_KERNEL_ARG_ACCESS_READ_WRITE;
    return CL_KERNEL_ARG_ACCESS_NONE;
}

static cl_kernel_arg_type_qualifier type_qual_of(const char *s)
{
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (strstr(s, "const"))
        q |= CL_KERNEL_ARG_TYPE_CONST;
    if (strstr(s, "restrict"))
        q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (strstr(s, "volatile"))
        q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (strstr(s, "pipe"))
        q |= CL_KERNEL_ARG_TYPE_PIPE;
    return q;
}

/* The kernel's name and control registers; -1 with err written when one is missing. */
static int parse_regs(const cJSON *jk, rt_kernel_meta *k, char *err, size_t errlen)
{
    const cJSON *regs = cJSON_GetObjectItemCaseSensitive(jk, "regs");
    k->name = json_str(jk, "name");
    rt_kernel_regs *r = &k->regs;
    if (!k->name || !*k->name || !cJSON_IsObject(regs) || json_u32(regs, "control", &r->control) ||
        json_u32(regs, "status", &r->status) || json_u32(regs, "work_dim", &r->work_dim) ||
        json_u32x3(regs, "global_size", r->global_size, 0) ||
        json_u32x3(regs, "local_size", r->local_size, 0) ||
        json_u32x3(regs, "global_offset", r->global_offset, 0) ||
        json_u32x3(regs, "num_groups", r->num_groups, 0) ||
        json_u64(jk, "control_start_mask", &r->start_mask) ||
        json_u64(jk, "status_done_mask", &r->done_mask)) {
        snprintf(err, errlen, "kernel '%s': missing or bad registers",
                 k->name ? k->name : "?");
        return -1;
    }
    json_u64(jk, "status_busy_mask", &r->busy_mask);
    return 0;
}

/* Work-group sizes, local memory and CL_KERNEL_ATTRIBUTES; -1 when out of memory. */
static int parse_attributes(const cJSON *jk, rt_kernel_meta *k)
{
    uint32_t v3[3] = {0, 0, 0};
    json_u32x3(jk, "reqd_work_group_size", v3, 1);
    for (int i = 0; i < 3; i++)
        k->reqd_wg[i] = v3[i];
    memset(v3, 0, sizeof v3);
    json_u32x3(jk, "work_group_size_hint", v3, 1);
    for (int i = 0; i < 3; i++)
        k->wg_hint[i] = v3[i];
    uint64_t mwg = 0;
    json_u64(jk, "max_work_group_size", &mwg);
    k->max_wg = (size_t)mwg;
    uint64_t lmem = 0;
    json_u64(jk, "local_mem_bytes", &lmem);
    k->local_mem = (size_t)lmem;
    k->autorun = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(jk, "autorun"));
    uint64_t units = 1;
    json_u64(jk, "compute_units", &units);
    k->compute_units = units ? (cl_uint)units : 1;
    uint64_t lanes = 1;
    json_u64(jk, "simd_work_items", &lanes);
    k->simd = lanes ? (cl_uint)lanes : 1;
    /* CL_KERNEL_ATTRIBUTES: every attribute the metadata carries, as declared in the
     * source, space-separated. */
    const cJSON *vth = cJSON_GetObjectItemCaseSensitive(jk, "vec_type_hint");
    char attrs[256] = "";
    size_t at = 0;
    if (k->reqd_wg[0])
        at += (size_t)snprintf(attrs + at, sizeof attrs - at, "reqd_work_group_size(%zu,%zu,%zu)",
                               k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2]);
    if (k->wg_hint[0] && at < sizeof attrs)
        at += (size_t)snprintf(attrs + at, sizeof attrs - at,
                               "%swork_group_size_hint(%zu,%zu,%zu)", at ? " " : "",
                               k->wg_hint[0], k->wg_hint[1], k->wg_hint[2]);
    if (cJSON_IsString(vth) && *vth->valuestring && at < sizeof attrs)
        snprintf(attrs + at, sizeof attrs - at, "%svec_type_hint(%s)", at ? " " : "",
                 vth->valuestring);
    k->attributes = rt_strdup(attrs);
    return k->attributes ? 0 : -1;
}

/* The hardware's counters, occupancy probes and global load-store units; -1 when out
 * of memory. */
static int parse_units(const cJSON *jk, rt_kernel_meta *k)
{
    const cJSON *counters = cJSON_GetObjectItemCaseSensitive(jk, "counters");
    int nc = cJSON_IsArray(counters) ? cJSON_GetArraySize(counters) : 0;
    k->counters = rt_alloc((size_t)nc * sizeof *k->counters);
    if (!k->counters)
        return -1;
    for (int i = 0; i < nc; i++) {
        const cJSON *c = cJSON_GetArrayItem(counters, i);
        rt_counter *o = &k->counters[k->ncounters];
        if (json_u32(c, "reg", &o->reg))
            continue;
        o->shift = 0; /* the counter's lowest bit in its register (a channel's peak: 32) */
        if (cJSON_GetObjectItemCaseSensitive(c, "shift") &&
            (json_u32(c, "shift", &o->shift) || o->shift > 63))
            continue;
        o->name = json_str(c, "name");
        if (!o->name)
            return -1;
        k->ncounters++;
    }

    /* Occupancy probes (optional): read when the watchdog ends the kernel. Like the
     * counters, an entry without a register is skipped; capacity is optional. */
    const cJSON *probes = cJSON_GetObjectItemCaseSensitive(jk, "probes");
    int np = cJSON_IsArray(probes) ? cJSON_GetArraySize(probes) : 0;
    k->probes = rt_alloc((size_t)np * sizeof *k->probes);
    if (!k->probes)
        return -1;
    for (int i = 0; i < np; i++) {
        const cJSON *jp = cJSON_GetArrayItem(probes, i);
        rt_probe *o = &k->probes[k->nprobes];
        if (json_u32(jp, "reg", &o->reg))
            continue;
        o->capacity = 0;
        json_u64(jp, "capacity", &o->capacity);
        o->name = json_str(jp, "name");
        if (!o->name)
            return -1;
        o->peer = NULL; /* a channel's: the kernel at its other end */
        if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(jp, "peer")) &&
            !json_u32(jp, "peer_unit", &o->peer_unit) && !(o->peer = json_str(jp, "peer"))) {
            rt_free(o->name);
            return -1;
        }
        o->peer_autorun = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(jp, "peer_autorun"));
        k->nprobes++;
    }

    /* Global load-store units (optional): named when one accesses memory outside the
     * kernel's buffers. */
    const cJSON *lsus = cJSON_GetObjectItemCaseSensitive(jk, "lsus");
    int nl = cJSON_IsArray(lsus) ? cJSON_GetArraySize(lsus) : 0;
    k->lsus = rt_alloc((size_t)nl * sizeof *k->lsus);
    if (!k->lsus)
        return -1;
    for (int i = 0; i < nl; i++) {
        const cJSON *ju = cJSON_GetArrayItem(lsus, i);
        rt_lsu *o = &k->lsus[k->nlsus++];
        o->kind = json_str(ju, "kind");
        o->at = json_str(ju, "at");
        o->bytes = 0;
        json_u32(ju, "bytes", &o->bytes);
        if (!o->kind || !o->at)
            return -1;
    }
    return 0;
}

/* One argument the user sets (ja) into a: 0, or 1 when it is bad (or out of memory). */
static int parse_arg(const cJSON *ja, const rt_kernel_meta *k, rt_arg_meta *a)
{
    a->name = json_str(ja, "name");
    a->type_name = json_str(ja, "type_name");
    char *addr = json_str(ja, "address_qualifier");
    char *acc = json_str(ja, "access_qualifier");
    char *tq = json_str(ja, "type_qualifier");
    char *kind = json_str(ja, "kind");
    uint64_t size = 0, offset = 0;
    int bad = !a->name || !a->type_name || !addr || !acc || !tq || !kind ||
              json_u64(ja, "size", &size) || json_u64(ja, "offset", &offset);
    if (!bad) {
        a->address = address_of(addr);
        a->access = access_of(acc);
        a->type_qual = type_qual_of(tq);
        a->size = (size_t)size;
        a->offset = (size_t)offset;
        if (!strcmp(kind, "buffer"))
            a->kind = RT_ARG_BUFFER;
        else if (!strcmp(kind, "scalar"))
            a->kind = RT_ARG_SCALAR;
        else if (!strcmp(kind, "local"))
            a->kind = RT_ARG_LOCAL;
        else if (!strcmp(kind, "pipe"))
            a->kind = RT_ARG_PIPE;
        else
            bad = 1;
        uint64_t max = 0;
        if (a->kind == RT_ARG_LOCAL && !bad) {
            bad = json_u64(ja, "max_bytes", &max);
            a->local_max = (size_t)max;
        }
        /* A pipe: the packet size (at most CL_DEVICE_PIPE_MAX_PACKET_SIZE bytes) and the
         * depth of its FIFO; both 0 when the kernel does not use the pipe (no FIFO). */
        uint64_t depth = 0;
        if (a->kind == RT_ARG_PIPE && !bad) {
            bad = json_u64(ja, "pipe_depth", &depth) || size > RT_PIPE_MAX_PACKET_SIZE;
            a->pipe_depth = (size_t)depth;
        }
    }
    rt_free(addr);
    rt_free(acc);
    rt_free(tq);
    rt_free(kind);
    /* Every argument's bytes (8 for a buffer address or a __local size) must lie
     * inside the argument area; a pipe has none there. */
    size_t bytes = a->kind == RT_ARG_SCALAR ? a->size : 8;
    if (!bad && a->kind != RT_ARG_PIPE &&
        (a->offset > k->arg_area_bytes || bytes > k->arg_area_bytes - a->offset))
        bad = 1;
    return bad;
}

/* The argument area and the arguments; the hidden printf buffer's offset in
 * *printf_offset (*printf_arg: its index, -1 when there is none). -1 with err written
 * when something is bad, -2 when out of memory. */
static int parse_args(const cJSON *jk, rt_kernel_meta *k, int *printf_arg,
                      uint64_t *printf_offset, char *err, size_t errlen)
{
    const cJSON *area = cJSON_GetObjectItemCaseSensitive(jk, "arg_area");
    uint64_t area_bytes = 0;
    if (json_u32(area, "reg", &k->arg_area_reg) || json_u64(area, "bytes", &area_bytes) ||
        area_bytes % 8) {
        snprintf(err, errlen, "kernel '%s': no argument area", k->name);
        return -1;
    }
    k->arg_area_bytes = (size_t)area_bytes;
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(jk, "args");
    if (!cJSON_IsArray(args)) {
        snprintf(err, errlen, "kernel '%s': no argument list", k->name);
        return -1;
    }
    int na = cJSON_GetArraySize(args);
    k->args = rt_alloc((size_t)na * sizeof *k->args);
    if (!k->args)
        return -2;
    *printf_arg = -1; /* the hidden printf buffer argument: not the user's */
    for (int i = 0; i < na; i++) {
        const cJSON *ja = cJSON_GetArrayItem(args, i);
        const cJSON *hidden = cJSON_GetObjectItemCaseSensitive(ja, "hidden");
        int bad;
        if (hidden) {
            bad = !cJSON_IsString(hidden) || strcmp(hidden->valuestring, "printf_buffer") ||
                  *printf_arg >= 0 || json_u64(ja, "offset", printf_offset) ||
                  *printf_offset > k->arg_area_bytes ||
                  8 > k->arg_area_bytes - *printf_offset;
            *printf_arg = i;
        } else {
            bad = parse_arg(ja, k, &k->args[k->nargs++]);
        }
        if (bad) {
            snprintf(err, errlen, "kernel '%s': bad argument %d", k->name, i);
            return -1;
        }
    }
    return 0;
}

static int parse_kernel(const cJSON *jk, rt_kernel_meta *k, char *err, size_t errlen)
{
    if (parse_regs(jk, k, err, errlen))
        return -1;
    if (parse_attributes(jk, k) || parse_units(jk, k))
        goto nomem;
    int printf_arg;
    uint64_t printf_offset = 0;
    int rc = parse_args(jk, k, &printf_arg, &printf_offset, err, errlen);
    if (rc == -2)
        goto nomem;
    if (rc)
        return -1;
    const cJSON *pj = cJSON_GetObjectItemCaseSensitive(jk, "printf");
    if ((pj != NULL) != (printf_arg >= 0)) {
        snprintf(err, errlen, "kernel '%s': a printf buffer without printf formats, or "
                 "formats without the buffer", k->name);
        return -1;
    }
    if (pj) {
        char why[128];
        if (rt_printf_load(pj, (size_t)printf_offset, &k->printf, why, sizeof why)) {
            snprintf(err, errlen, "kernel '%s': %s", k->name, why);
            return -1;
        }
    }
    return 0;
nomem:
    snprintf(err, errlen, "out of host memory");
    return -1;
}

void rt_metadata_free(rt_kernel_meta *kernels, cl_uint n)
{
    if (!kernels)
        return;
    for (cl_uint i = 0; i < n; i++) {
        rt_kernel_meta *k = &kernels[i];
        rt_free(k->name);
        rt_free(k->attributes);
        for (unsigned j = 0; j < k->ncounters; j++)
            rt_free(k->counters[j].name);
        rt_free(k->counters);
        for (unsigned j = 0; j < k->nprobes; j++) {
            rt_free(k->probes[j].name);
            rt_free(k->probes[j].peer);
        }
        rt_free(k->probes);
        for (unsigned j = 0; j < k->nlsus; j++) {
            rt_free(k->lsus[j].kind);
            rt_free(k->lsus[j].at);
        }
        rt_free(k->lsus);
        for (cl_uint j = 0; j < k->nargs; j++) {
            rt_free(k->args[j].name);
            rt_free(k->args[j].type_name);
        }
        rt_free(k->args);
        rt_printf_free(k->printf);
    }
    rt_free(kernels);
}

int rt_metadata_load(const char *path, rt_kernel_meta **out, cl_uint *nout, char *err,
                     size_t errlen)
{
    size_t len;
    char *text = (char *)rt_read_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "cannot read %s", path);
        return -1;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    rt_free(text);
    const cJSON *kernels = root ? cJSON_GetObjectItemCaseSensitive(root, "kernels") : NULL;
    if (!cJSON_IsArray(kernels)) {
        cJSON_Delete(root);
        snprintf(err, errlen, "%s: not a clhls metadata file", path);
        return -1;
    }
    int n = cJSON_GetArraySize(kernels);
    rt_kernel_meta *ks = rt_alloc((size_t)n * sizeof *ks);
    cl_uint done = 0;
    int rc = ks ? 0 : -1;
    if (!ks)
        snprintf(err, errlen, "out of host memory");
    /* Non-uniform work-groups only when the program says so (OpenCL C 2.0). */
    int uniform = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(root, "uniform_work_group_size"));
    for (int i = 0; i < n && rc == 0; i++) {
        done++;
        rc = parse_kernel(cJSON_GetArrayItem(kernels, i), &ks[i], err, errlen);
        ks[i].uniform_wg = uniform;
    }
    cJSON_Delete(root);
    if (rc) {
        rt_metadata_free(ks, done);
        return -1;
    }
    *out = ks;
    *nout = (cl_uint)n;
    return 0;
}

