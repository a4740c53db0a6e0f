/* Programs: creation from source or from program binaries, clBuildProgram (which runs
 * the clhls compiler in a child process for each device's board (compiler.c), or
 * unpacks the binary into the build cache, then loads the program's metadata.json with
 * cJSON and the verilated model on the device), build and program queries. The metadata is the only
 * source of register indexes, argument descriptions and kernel attributes. A program
 * binary is the build's cache entry packed into one blob (binary.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fsutil.h"
#include "rt.h"

int rt_valid_program(cl_program p) { return p && p->magic == RT_MAGIC_PROGRAM; }

/* ---- metadata.json ---- */

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
    return q;
}

static int parse_kernel(const cJSON *jk, rt_kernel_meta *k, char *err, size_t errlen)
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
    if (!k->attributes)
        goto nomem;

    const cJSON *counters = cJSON_GetObjectItemCaseSensitive(jk, "counters");
    int nc = cJSON_IsArray(counters) ? cJSON_GetArraySize(counters) : 0;
    k->counters = rt_alloc((size_t)nc * sizeof *k->counters);
    if (!k->counters)
        goto nomem;
    for (int i = 0; i < nc; i++) {
        const cJSON *c = cJSON_GetArrayItem(counters, i);
        rt_counter *o = &k->counters[k->ncounters];
        if (json_u32(c, "reg", &o->reg))
            continue;
        o->name = json_str(c, "name");
        if (!o->name)
            goto nomem;
        k->ncounters++;
    }

    /* Occupancy probes (optional): read when the watchdog ends the kernel. Like the
     * counters, an entry without a register is skipped; capacity is optional. */
    const cJSON *probes = cJSON_GetObjectItemCaseSensitive(jk, "probes");
    int np = cJSON_IsArray(probes) ? cJSON_GetArraySize(probes) : 0;
    k->probes = rt_alloc((size_t)np * sizeof *k->probes);
    if (!k->probes)
        goto nomem;
    for (int i = 0; i < np; i++) {
        const cJSON *jp = cJSON_GetArrayItem(probes, i);
        rt_probe *o = &k->probes[k->nprobes];
        if (json_u32(jp, "reg", &o->reg))
            continue;
        o->capacity = 0;
        json_u64(jp, "capacity", &o->capacity);
        o->name = json_str(jp, "name");
        if (!o->name)
            goto nomem;
        k->nprobes++;
    }

    /* Global load-store units (optional): named when one accesses memory outside the
     * kernel's buffers. */
    const cJSON *lsus = cJSON_GetObjectItemCaseSensitive(jk, "lsus");
    int nl = cJSON_IsArray(lsus) ? cJSON_GetArraySize(lsus) : 0;
    k->lsus = rt_alloc((size_t)nl * sizeof *k->lsus);
    if (!k->lsus)
        goto nomem;
    for (int i = 0; i < nl; i++) {
        const cJSON *ju = cJSON_GetArrayItem(lsus, i);
        rt_lsu *o = &k->lsus[k->nlsus++];
        o->kind = json_str(ju, "kind");
        o->at = json_str(ju, "at");
        o->bytes = 0;
        json_u32(ju, "bytes", &o->bytes);
        if (!o->kind || !o->at)
            goto nomem;
    }

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
        goto nomem;
    int printf_arg = -1; /* the hidden printf buffer argument: not the user's */
    uint64_t printf_offset = 0;
    for (int i = 0; i < na; i++) {
        const cJSON *ja = cJSON_GetArrayItem(args, i);
        const cJSON *hidden = cJSON_GetObjectItemCaseSensitive(ja, "hidden");
        if (hidden) {
            if (!cJSON_IsString(hidden) || strcmp(hidden->valuestring, "printf_buffer") ||
                printf_arg >= 0 || json_u64(ja, "offset", &printf_offset) ||
                printf_offset > k->arg_area_bytes || 8 > k->arg_area_bytes - printf_offset) {
                snprintf(err, errlen, "kernel '%s': bad argument %d", k->name, i);
                return -1;
            }
            printf_arg = i;
            continue;
        }
        rt_arg_meta *a = &k->args[k->nargs];
        k->nargs++;
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
            else
                bad = 1;
            uint64_t max = 0;
            if (a->kind == RT_ARG_LOCAL && !bad) {
                bad = json_u64(ja, "max_bytes", &max);
                a->local_max = (size_t)max;
            }
        }
        rt_free(addr);
        rt_free(acc);
        rt_free(tq);
        rt_free(kind);
        /* Every argument's bytes (8 for a buffer address or a __local size) must lie
         * inside the argument area. */
        size_t bytes = a->kind == RT_ARG_SCALAR ? a->size : 8;
        if (!bad && (a->offset > k->arg_area_bytes || bytes > k->arg_area_bytes - a->offset))
            bad = 1;
        if (bad) {
            snprintf(err, errlen, "kernel '%s': bad argument %d", k->name, i);
            return -1;
        }
    }
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
        for (unsigned j = 0; j < k->nprobes; j++)
            rt_free(k->probes[j].name);
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
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = len >= 0 ? rt_alloc((size_t)len + 1) : NULL;
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        rt_free(text);
        snprintf(err, errlen, "cannot read %s", path);
        return -1;
    }
    fclose(f);
    cJSON *root = cJSON_ParseWithLength(text, (size_t)len);
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

/* ---- programs ---- */

static cl_program program_new(cl_context c, char *source)
{
    cl_program p = rt_alloc(sizeof *p);
    rt_program_build *b = rt_alloc(c->ndevices * sizeof *b);
    char *opts = rt_strdup("");
    if (!p || !b || !opts) {
        rt_free(p);
        rt_free(b);
        rt_free(opts);
        return NULL;
    }
    for (cl_uint i = 0; i < c->ndevices; i++)
        b[i].status = CL_BUILD_NONE;
    p->dispatch = &rt_dispatch;
    p->magic = RT_MAGIC_PROGRAM;
    atomic_init(&p->refcount, 1);
    p->context = c;
    atomic_fetch_add(&c->refcount, 1);
    p->source = source;
    p->options = opts;
    p->builds = b;
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

cl_program CL_API_CALL clCreateProgramWithSource(cl_context c, cl_uint count,
                                                 const char **strings, const size_t *lengths,
                                                 cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(count && strings, CL_INVALID_VALUE);
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++) {
        RT_CHECK_OBJ(strings[i], CL_INVALID_VALUE);
        total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    }
    char *src = rt_alloc(total + 1);
    RT_CHECK_OBJ(src, CL_OUT_OF_HOST_MEMORY);
    size_t at = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(src + at, strings[i], n);
        at += n;
    }
    src[at] = 0;
    cl_program p = program_new(c, src);
    if (!p) {
        rt_free(src);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return p;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context c, cl_uint n,
                                                 const cl_device_id *devices,
                                                 const size_t *lengths,
                                                 const unsigned char **binaries,
                                                 cl_int *status, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(n && devices && lengths && binaries, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < n; i++)
        RT_CHECK_OBJ(rt_context_device_index(c, devices[i]) >= 0, CL_INVALID_DEVICE);
    /* Every binary is checked whole (header, hash, file table, board) before anything
     * is created; binary_status says which ones are bad. */
    cl_int rc = CL_SUCCESS;
    for (cl_uint i = 0; i < n; i++) {
        cl_int st = CL_SUCCESS;
        char err[256];
        if (!lengths[i] || !binaries[i])
            st = CL_INVALID_VALUE;
        else if (rt_binary_check(binaries[i], lengths[i], devices[i]->board->name, NULL, err,
                                 sizeof err) != 0)
            st = CL_INVALID_BINARY;
        if (st != CL_SUCCESS && rt_verbose())
            fprintf(stderr, "clhls: clCreateProgramWithBinary: binary %u: %s\n", i,
                    st == CL_INVALID_VALUE ? "empty" : err);
        if (status)
            status[i] = st;
        if (rc == CL_SUCCESS || st == CL_INVALID_VALUE)
            rc = st;
    }
    RT_CHECK_OBJ(rc == CL_SUCCESS, rc);
    char *src = rt_strdup("");
    cl_program p = src ? program_new(c, src) : NULL;
    if (!p) {
        rt_free(src);
        RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
    }
    p->from_binary = 1;
    for (cl_uint i = 0; i < n; i++) {
        rt_program_build *b = &p->builds[rt_context_device_index(c, devices[i])];
        rt_free(b->binary);
        b->binary = rt_alloc(lengths[i]);
        if (!b->binary) {
            rt_program_release(p);
            RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
        }
        memcpy(b->binary, binaries[i], lengths[i]);
        b->binary_len = lengths[i];
        char err[256];
        rt_binary_check(b->binary, b->binary_len, devices[i]->board->name, &b->type, err,
                        sizeof err);
        /* A compiled object or a library: its bitcode, for clLinkProgram. */
        if (b->type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
            rt_free(b->object);
            b->object = rt_binary_object(b->binary, b->binary_len, &b->object_len);
            if (!b->object) {
                rt_program_release(p);
                RT_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY);
            }
            b->status = CL_BUILD_SUCCESS;
        }
    }
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return p;
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context c, cl_uint n,
                                                         const cl_device_id *devices,
                                                         const char *names,
                                                         cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ(n && devices && names, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < n; i++)
        RT_CHECK_OBJ(rt_context_device_index(c, devices[i]) >= 0, CL_INVALID_DEVICE);
    /* CL_DEVICE_BUILT_IN_KERNELS is empty. */
    RT_FAIL_OBJ(CL_INVALID_VALUE);
}

cl_int CL_API_CALL clRetainProgram(cl_program p)
{
    RT_CHECK(rt_valid_program(p), CL_INVALID_PROGRAM);
    atomic_fetch_add(&p->refcount, 1);
    return CL_SUCCESS;
}

void rt_program_release(cl_program p)
{
    if (atomic_fetch_sub(&p->refcount, 1) != 1)
        return;
    p->magic = RT_MAGIC_DEAD;
    cl_context c = p->context;
    for (cl_uint i = 0; i < c->ndevices; i++) {
        cl_device_id d = c->devices[i];
        if (p->builds[i].model)
            d->ops->program_unload(d->impl, p->builds[i].model);
        rt_free(p->builds[i].log);
        rt_free(p->builds[i].entry_dir);
        rt_free(p->builds[i].binary);
        rt_free(p->builds[i].object);
    }
    rt_free(p->builds);
    rt_metadata_free(p->kernels, p->nkernels);
    rt_free(p->source);
    rt_free(p->options);
    pthread_mutex_destroy(&p->lock);
    rt_free(p);
    rt_context_release(c);
}

cl_int CL_API_CALL clReleaseProgram(cl_program p)
{
    RT_CHECK(rt_valid_program(p), CL_INVALID_PROGRAM);
    rt_program_release(p);
    return CL_SUCCESS;
}

/* Appends text to *log (which may be NULL). */
static void log_append(char **log, const char *text)
{
    size_t a = *log ? strlen(*log) : 0, b = strlen(text);
    char *n = rt_realloc(*log, a + b + 1);
    if (!n)
        return;
    memcpy(n + a, text, b + 1);
    *log = n;
}

/* Loads the built cache entry for context device di: its metadata (which then stands
 * for every device: all build the same program) and its model. p->lock held. */
static cl_int load_entry(cl_program p, int di, const char *entry)
{
    cl_device_id d = p->context->devices[di];
    rt_program_build *b = &p->builds[di];
    char err[512], path[4200];
    rt_kernel_meta *ks = NULL;
    cl_uint nk = 0;
    snprintf(path, sizeof path, "%s/metadata.json", entry);
    int ok = rt_metadata_load(path, &ks, &nk, err, sizeof err) == 0;
    if (ok) {
        snprintf(path, sizeof path, "%s/model.so", entry);
        if (access(path, R_OK) != 0) {
            snprintf(err, sizeof err, "the build produced no model");
            ok = 0;
        } else if (d->ops->program_load(d->impl, path, &b->model, err, sizeof err) !=
                   RT_DEV_OK) {
            ok = 0;
        }
        if (!ok)
            rt_metadata_free(ks, nk);
    }
    char *dir = ok ? rt_strdup(entry) : NULL;
    if (ok && !dir) {
        d->ops->program_unload(d->impl, b->model);
        b->model = NULL;
        rt_metadata_free(ks, nk);
        snprintf(err, sizeof err, "out of host memory");
        ok = 0;
    }
    if (!ok) {
        log_append(&b->log, "clhls: cannot load the built program: ");
        log_append(&b->log, err);
        log_append(&b->log, "\n");
        if (!b->log)
            b->log = rt_strdup("");
        b->status = CL_BUILD_ERROR;
        return CL_BUILD_PROGRAM_FAILURE;
    }
    rt_metadata_free(p->kernels, p->nkernels);
    p->kernels = ks;
    p->nkernels = nk;
    b->entry_dir = dir;
    b->status = CL_BUILD_SUCCESS;
    b->type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return CL_SUCCESS;
}

/* Forgets the previous build of p for device di; p->lock held. */
static void build_reset(cl_program p, int di)
{
    cl_device_id d = p->context->devices[di];
    rt_program_build *b = &p->builds[di];
    if (b->model) {
        d->ops->program_unload(d->impl, b->model);
        b->model = NULL;
    }
    rt_free(b->log);
    b->log = NULL;
    rt_free(b->entry_dir);
    b->entry_dir = NULL;
    b->status = CL_BUILD_IN_PROGRESS;
}

/* hls_status values of the child's result (hls/hls.h; the runtime does not link the
 * compiler). */
#define HLS_STATUS_OK 0
#define HLS_STATUS_OPTIONS (-3)

/* Marks the build of device di failed with msg (when given) appended to its log. */
static void build_failed(rt_program_build *b, const char *msg)
{
    if (msg)
        log_append(&b->log, msg);
    if (!b->log)
        b->log = rt_strdup("");
    b->status = CL_BUILD_ERROR;
}

/* What a compiler job does, and the error codes its failures become. */
typedef enum { JOB_BUILD, JOB_COMPILE, JOB_LINK } job_kind;

static cl_int job_error(job_kind kind, int options)
{
    static const cl_int bad_options[] = {CL_INVALID_BUILD_OPTIONS, CL_INVALID_COMPILER_OPTIONS,
                                         CL_INVALID_LINKER_OPTIONS};
    static const cl_int failure[] = {CL_BUILD_PROGRAM_FAILURE, CL_COMPILE_PROGRAM_FAILURE,
                                     CL_LINK_PROGRAM_FAILURE};
    return options ? bad_options[kind] : failure[kind];
}

/* Forgets what device di had (build, binary, compiled object) before a new build,
 * compilation or link; p->lock held. */
static void build_start(cl_program p, int di)
{
    rt_program_build *b = &p->builds[di];
    build_reset(p, di);
    rt_free(b->binary);
    b->binary = NULL;
    b->binary_len = 0;
    rt_free(b->object);
    b->object = NULL;
    b->object_len = 0;
    b->type = CL_PROGRAM_BINARY_TYPE_NONE;
}

/* Runs the compiler job (args without --result) for device build b and takes its
 * result: the log, then the cache entry (loaded for device di) or the bitcode output
 * (the object of b, of type type). The job's directory is removed. */
static cl_int run_job(cl_program p, int di, rt_job *job, const char *const *args,
                      job_kind kind, cl_program_binary_type type)
{
    rt_program_build *b = &p->builds[di];
    rt_job_result res;
    cl_int rc = rt_job_run(job, args, &res);
    if (rc != CL_SUCCESS) {
        rt_job_end(job);
        rt_job_result_free(&res);
        build_failed(b, NULL);
        return rc;
    }
    log_append(&b->log, res.log ? res.log : "");
    int ok = res.status == HLS_STATUS_OK && (type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                                                 ? res.entry != NULL : res.output != NULL);
    if (!ok) {
        int options = res.status == HLS_STATUS_OPTIONS;
        rt_job_end(job);
        rt_job_result_free(&res);
        build_failed(b, NULL);
        return job_error(kind, options);
    }
    if (type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        rc = load_entry(p, di, res.entry);
        if (rc != CL_SUCCESS)
            rc = job_error(kind, 0);
    } else {
        b->object = rt_read_file(res.output, &b->object_len);
        if (b->object) {
            b->type = type;
            b->status = CL_BUILD_SUCCESS;
        } else {
            build_failed(b, "clhls: cannot read the compiler's output\n");
            rc = job_error(kind, 0);
        }
    }
    rt_job_end(job);
    rt_job_result_free(&res);
    if (!b->log)
        b->log = rt_strdup("");
    return rc;
}

/* Starts a job for device build b: its scratch directory, with the program's source
 * as program.cl when there is one. */
static cl_int job_begin(cl_program p, rt_program_build *b, rt_job *job, job_kind kind)
{
    char err[512];
    if (rt_job_begin(job, err, sizeof err) != 0) {
        log_append(&b->log, "clhls: ");
        log_append(&b->log, err);
        build_failed(b, "\n");
        return job_error(kind, 0);
    }
    if (kind != JOB_LINK && rt_job_write(job, "program.cl", p->source, strlen(p->source)) != 0) {
        rt_job_end(job);
        build_failed(b, "clhls: cannot write the source into the build cache\n");
        return job_error(kind, 0);
    }
    return CL_SUCCESS;
}

/* Builds p from source for context device di; p->lock held. Returns a CL error code.
 * The compiler runs in a child process: `clhls build` (compiler.c). */
static cl_int build_one(cl_program p, int di)
{
    cl_device_id d = p->context->devices[di];
    rt_program_build *b = &p->builds[di];
    build_start(p, di); /* a new build makes a new binary (packed when asked for) */
    rt_job job;
    cl_int rc = job_begin(p, b, &job, JOB_BUILD);
    if (rc != CL_SUCCESS)
        return rc;
    char src[8192];
    const char *args[] = {"build", rt_job_path(&job, "program.cl", src, sizeof src),
                          "--board", d->board->name, "--source-name", "<source>",
                          "--options", p->options, NULL};
    return run_job(p, di, &job, args, JOB_BUILD, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

/* Links the compiled objects and libraries objects[0..n-1] (LLVM bitcode) for context
 * device di of p into an executable, or a library (library set); options are the
 * linker's math options. p->lock held. */
static cl_int link_one(cl_program p, int di, unsigned char *const *objects,
                       const size_t *sizes, cl_uint n, const char *options, int library)
{
    cl_device_id d = p->context->devices[di];
    rt_program_build *b = &p->builds[di];
    build_start(p, di);
    rt_job job;
    cl_int rc = job_begin(p, b, &job, JOB_LINK);
    if (rc != CL_SUCCESS)
        return rc;
    const char **args = rt_alloc(((size_t)n + 12) * sizeof *args);
    char **names = rt_alloc((size_t)n * sizeof *names);
    char out[8192];
    size_t k = 0;
    if (args && names) {
        args[k++] = "link";
        for (cl_uint i = 0; i < n && rc == CL_SUCCESS; i++) {
            char name[32], path[8192];
            snprintf(name, sizeof name, "input%u.bc", i);
            names[i] = rt_strdup(rt_job_path(&job, name, path, sizeof path));
            if (!names[i])
                rc = CL_OUT_OF_HOST_MEMORY;
            else if (rt_job_write(&job, name, objects[i], sizes[i]) != 0)
                rc = job_error(JOB_LINK, 0);
            else
                args[k++] = names[i];
        }
        args[k++] = "--board";
        args[k++] = d->board->name;
        args[k++] = "--options";
        args[k++] = options;
        if (library) {
            args[k++] = "--library";
            args[k++] = "-o";
            args[k++] = rt_job_path(&job, "library.bc", out, sizeof out);
        }
        args[k] = NULL;
    } else {
        rc = CL_OUT_OF_HOST_MEMORY;
    }
    if (rc == CL_SUCCESS) {
        rc = run_job(p, di, &job, args, JOB_LINK,
                     library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    } else {
        rt_job_end(&job);
        build_failed(b, rc == CL_OUT_OF_HOST_MEMORY ? NULL
                                                    : "clhls: cannot write the link's inputs\n");
    }
    for (cl_uint i = 0; names && i < n; i++)
        rt_free(names[i]);
    rt_free(names);
    rt_free(args);
    return rc;
}

/* Builds p for context device di from its program binary: unpacks it into the build
 * cache (nothing is compiled) and loads it; p->lock held. */
static cl_int build_binary(cl_program p, int di)
{
    rt_program_build *b = &p->builds[di];
    if (!b->binary)
        return CL_INVALID_BINARY; /* no binary for this device */
    if (b->type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        /* A compiled object or a library: linked alone into an executable. */
        unsigned char *object = b->object;
        size_t len = b->object_len;
        b->object = NULL;
        cl_int rc = link_one(p, di, &object, &len, 1, "", 0);
        rt_free(object);
        return rc == CL_LINK_PROGRAM_FAILURE ? CL_BUILD_PROGRAM_FAILURE : rc;
    }
    build_reset(p, di);
    char err[512] = "";
    char *entry = rt_binary_unpack(b->binary, b->binary_len, err, sizeof err);
    if (!entry) {
        log_append(&b->log, "clhls: ");
        log_append(&b->log, err);
        log_append(&b->log, "\n");
        if (!b->log)
            b->log = rt_strdup("");
        b->status = CL_BUILD_ERROR;
        return CL_BUILD_PROGRAM_FAILURE;
    }
    if (*err) { /* an earlier unpacking was damaged and replaced */
        log_append(&b->log, "clhls: ");
        log_append(&b->log, err);
        log_append(&b->log, "\n");
    }
    /* The log of the build that made the binary. */
    char path[4200];
    snprintf(path, sizeof path, "%s/build.log", entry);
    FILE *f = fopen(path, "r");
    if (f) {
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf - 1, f)) > 0) {
            buf[got] = 0;
            log_append(&b->log, buf);
        }
        fclose(f);
    }
    if (!b->log)
        b->log = rt_strdup("");
    cl_int rc = load_entry(p, di, entry);
    rt_free(entry);
    return rc;
}

/* Takes p->lock for a build or a compile and records its options; a build or compile
 * already running on another thread makes the call invalid. CL_SUCCESS: lock held. */
static cl_int lock_with_options(cl_program p, const char *options)
{
    RT_CHECK(pthread_mutex_trylock(&p->lock) == 0, CL_INVALID_OPERATION);
    char *opts = rt_strdup(options ? options : "");
    if (!opts) {
        pthread_mutex_unlock(&p->lock);
        RT_FAIL(CL_OUT_OF_HOST_MEMORY);
    }
    rt_free(p->options);
    p->options = opts;
    return CL_SUCCESS;
}

cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint ndev, const cl_device_id *devices,
                                  const char *options,
                                  void (CL_CALLBACK *notify)(cl_program, void *), void *data)
{
    RT_CHECK(rt_valid_program(p), CL_INVALID_PROGRAM);
    RT_CHECK((devices == NULL) == (ndev == 0), CL_INVALID_VALUE);
    RT_CHECK(notify || !data, CL_INVALID_VALUE);
    cl_context c = p->context;
    for (cl_uint i = 0; i < ndev; i++)
        RT_CHECK(rt_context_device_index(c, devices[i]) >= 0, CL_INVALID_DEVICE);
    RT_CHECK(atomic_load(&p->kernel_objs) == 0, CL_INVALID_OPERATION);
    /* A linked program has neither source nor binary to build from. */
    RT_CHECK(!p->linked, CL_INVALID_OPERATION);
    /* A program from binaries needs a binary for every device it is built for. */
    if (p->from_binary) {
        cl_uint nb = ndev ? ndev : c->ndevices;
        for (cl_uint i = 0; i < nb; i++) {
            int di = ndev ? rt_context_device_index(c, devices[i]) : (int)i;
            RT_CHECK(p->builds[di].binary, CL_INVALID_BINARY);
        }
    }
    cl_int locked = lock_with_options(p, options);
    if (locked != CL_SUCCESS)
        return locked;
    cl_int rc = CL_SUCCESS;
    cl_uint n = ndev ? ndev : c->ndevices;
    for (cl_uint i = 0; i < n; i++) {
        int di = ndev ? rt_context_device_index(c, devices[i]) : (int)i;
        cl_int r = p->from_binary ? build_binary(p, di) : build_one(p, di);
        if (r != CL_SUCCESS && rc == CL_SUCCESS)
            rc = r;
    }
    pthread_mutex_unlock(&p->lock);
    if (notify)
        notify(p, data);
    return rc;
}

/* 1 when p has an executable for at least one device. */
static int program_built(cl_program p)
{
    for (cl_uint i = 0; i < p->context->ndevices; i++)
        if (p->builds[i].status == CL_BUILD_SUCCESS &&
            p->builds[i].type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
            return 1;
    return 0;
}

/* ---- separate compilation: clCompileProgram, clLinkProgram ---- */


/* Compiles p's source for context device di into a compiled object (LLVM bitcode):
 * `clhls compile`, with the embedded headers under the job's headers/ directory, which
 * the compiler searches (-I). p->lock held. */
static cl_int compile_one(cl_program p, int di, cl_uint nheaders, const cl_program *headers,
                          const char **names)
{
    cl_device_id d = p->context->devices[di];
    rt_program_build *b = &p->builds[di];
    build_start(p, di);
    rt_job job;
    cl_int rc = job_begin(p, b, &job, JOB_COMPILE);
    if (rc != CL_SUCCESS)
        return rc;
    for (cl_uint i = 0; i < nheaders; i++) {
        char name[1100];
        snprintf(name, sizeof name, "headers/%s", names[i]);
        if (rt_job_write(&job, name, headers[i]->source, strlen(headers[i]->source)) != 0) {
            rt_job_end(&job);
            build_failed(b, "clhls: cannot write the embedded headers into the build cache\n");
            return CL_COMPILE_PROGRAM_FAILURE;
        }
    }
    char src[8192], out[8192], inc[8192];
    rt_job_path(&job, "headers", inc, sizeof inc);
    size_t len = strlen(p->options) + strlen(inc) + 16;
    char *opts = rt_alloc(len);
    if (!opts) {
        rt_job_end(&job);
        build_failed(b, NULL);
        return CL_OUT_OF_HOST_MEMORY;
    }
    snprintf(opts, len, "%s%s-I \"%s\"", p->options, *p->options ? " " : "", inc);
    const char *args[] = {"compile", rt_job_path(&job, "program.cl", src, sizeof src),
                          "-o", rt_job_path(&job, "object.bc", out, sizeof out),
                          "--board", d->board->name, "--source-name", "<source>",
                          "--options", opts, NULL};
    rc = run_job(p, di, &job, args, JOB_COMPILE, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    rt_free(opts);
    return rc;
}

cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint ndev, const cl_device_id *devices,
                                    const char *options, cl_uint nheaders,
                                    const cl_program *headers, const char **names,
                                    void (CL_CALLBACK *notify)(cl_program, void *), void *data)
{
    RT_CHECK(rt_valid_program(p), CL_INVALID_PROGRAM);
    RT_CHECK((devices == NULL) == (ndev == 0), CL_INVALID_VALUE);
    RT_CHECK(notify || !data, CL_INVALID_VALUE);
    RT_CHECK(nheaders ? headers && names : !headers && !names, CL_INVALID_VALUE);
    cl_context c = p->context;
    for (cl_uint i = 0; i < ndev; i++)
        RT_CHECK(rt_context_device_index(c, devices[i]) >= 0, CL_INVALID_DEVICE);
    for (cl_uint i = 0; i < nheaders; i++) {
        RT_CHECK(rt_valid_program(headers[i]), CL_INVALID_VALUE);
        RT_CHECK(headers[i]->context == c, CL_INVALID_VALUE);
        RT_CHECK(names[i] && hls_path_stays_inside(names[i]), CL_INVALID_VALUE);
    }
    /* Only a program made from source can be compiled, and not while it has kernels. */
    RT_CHECK(!p->from_binary && !p->linked, CL_INVALID_OPERATION);
    RT_CHECK(atomic_load(&p->kernel_objs) == 0, CL_INVALID_OPERATION);
    cl_int locked = lock_with_options(p, options);
    if (locked != CL_SUCCESS)
        return locked;
    cl_int rc = CL_SUCCESS;
    cl_uint n = ndev ? ndev : c->ndevices;
    for (cl_uint i = 0; i < n; i++) {
        int di = ndev ? rt_context_device_index(c, devices[i]) : (int)i;
        cl_int r = compile_one(p, di, nheaders, headers, names);
        if (r != CL_SUCCESS && rc == CL_SUCCESS)
            rc = r;
    }
    /* The program's kernels were those of an earlier executable: none now. */
    if (!program_built(p)) {
        rt_metadata_free(p->kernels, p->nkernels);
        p->kernels = NULL;
        p->nkernels = 0;
    }
    pthread_mutex_unlock(&p->lock);
    if (notify)
        notify(p, data);
    return rc;
}

/* The linker options (OpenCL 1.2 section 5.6.5): -create-library, -enable-link-options
 * (only with -create-library) and the math options. *library tells whether a library
 * is made; math gets the math options (space-separated) for the compiler. 0, or -1
 * for anything else. */
static int parse_link_options(const char *options, int *library, char *math, size_t mlen)
{
    static const char *const math_options[] = {
        "-cl-denorms-are-zero", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
        "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp", NULL};
    int enable = 0;
    *library = 0;
    math[0] = '\0';
    const char *s = options ? options : "";
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        size_t n = strcspn(s, " \t\n");
        if (!n)
            break;
        int known = 0;
        if (n == 15 && !strncmp(s, "-create-library", n)) {
            *library = known = 1;
        } else if (n == 20 && !strncmp(s, "-enable-link-options", n)) {
            enable = known = 1;
        } else {
            for (const char *const *m = math_options; *m && !known; m++)
                if (strlen(*m) == n && !strncmp(s, *m, n)) {
                    known = 1;
                    size_t at = strlen(math);
                    if (at + n + 2 > mlen)
                        return -1;
                    snprintf(math + at, mlen - at, "%s%.*s", at ? " " : "", (int)n, s);
                }
        }
        if (!known)
            return -1;
        s += n;
    }
    return enable && !*library ? -1 : 0;
}

cl_program CL_API_CALL clLinkProgram(cl_context c, cl_uint ndev, const cl_device_id *devices,
                                     const char *options, cl_uint ninputs,
                                     const cl_program *inputs,
                                     void (CL_CALLBACK *notify)(cl_program, void *), void *data,
                                     cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK_OBJ((devices == NULL) == (ndev == 0), CL_INVALID_VALUE);
    RT_CHECK_OBJ(ninputs && inputs, CL_INVALID_VALUE);
    RT_CHECK_OBJ(notify || !data, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < ndev; i++)
        RT_CHECK_OBJ(rt_context_device_index(c, devices[i]) >= 0, CL_INVALID_DEVICE);
    for (cl_uint i = 0; i < ninputs; i++) {
        RT_CHECK_OBJ(rt_valid_program(inputs[i]), CL_INVALID_PROGRAM);
        RT_CHECK_OBJ(inputs[i]->context == c, CL_INVALID_CONTEXT);
    }
    int library;
    char math[512];
    RT_CHECK_OBJ(parse_link_options(options, &library, math, sizeof math) == 0,
                 CL_INVALID_LINKER_OPTIONS);
    cl_uint n = ndev ? ndev : c->ndevices;
    /* Every input has a compiled object or a library for every device linked for: the
     * bitcode is copied (each input locked in turn: one still compiling is invalid). */
    unsigned char **objects = rt_alloc((size_t)n * ninputs * sizeof *objects);
    size_t *sizes = rt_alloc((size_t)n * ninputs * sizeof *sizes);
    cl_int rc = objects && sizes ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (cl_uint j = 0; j < ninputs && rc == CL_SUCCESS; j++) {
        cl_program in = inputs[j];
        if (pthread_mutex_trylock(&in->lock) != 0) {
            rc = CL_INVALID_OPERATION;
            break;
        }
        for (cl_uint i = 0; i < n && rc == CL_SUCCESS; i++) {
            const rt_program_build *b = &in->builds[ndev ? rt_context_device_index(c, devices[i])
                                                         : (int)i];
            size_t at = (size_t)i * ninputs + j;
            if (b->status != CL_BUILD_SUCCESS || !b->object ||
                (b->type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                 b->type != CL_PROGRAM_BINARY_TYPE_LIBRARY)) {
                rc = CL_INVALID_OPERATION;
            } else if (!(objects[at] = rt_alloc(b->object_len))) {
                rc = CL_OUT_OF_HOST_MEMORY;
            } else {
                memcpy(objects[at], b->object, b->object_len);
                sizes[at] = b->object_len;
            }
        }
        pthread_mutex_unlock(&in->lock);
    }
    char *src = rc == CL_SUCCESS ? rt_strdup("") : NULL;
    char *opts = src ? rt_strdup(options ? options : "") : NULL;
    cl_program p = opts ? program_new(c, src) : NULL;
    if (rc == CL_SUCCESS && !p)
        rc = CL_OUT_OF_HOST_MEMORY;
    if (p) {
        p->linked = 1;
        rt_free(p->options);
        p->options = opts;
        pthread_mutex_lock(&p->lock);
        for (cl_uint i = 0; i < n && rc != CL_OUT_OF_HOST_MEMORY; i++) {
            int di = ndev ? rt_context_device_index(c, devices[i]) : (int)i;
            cl_int r = link_one(p, di, objects + (size_t)i * ninputs, sizes + (size_t)i * ninputs,
                                ninputs, math, library);
            if (r != CL_SUCCESS && rc == CL_SUCCESS)
                rc = r;
        }
        pthread_mutex_unlock(&p->lock);
    } else {
        rt_free(src);
        rt_free(opts);
    }
    for (size_t i = 0; objects && i < (size_t)n * ninputs; i++)
        rt_free(objects[i]);
    rt_free(objects);
    rt_free(sizes);
    if (p && rc == CL_OUT_OF_HOST_MEMORY) {
        rt_program_release(p);
        p = NULL;
    }
    if (!p) {
        rt_log_check(__func__, "the link can begin", rc);
        if (errcode_ret)
            *errcode_ret = rc;
        return NULL;
    }
    /* A link that began gives the program, with its log, even when it failed. */
    if (errcode_ret)
        *errcode_ret = rc;
    if (notify)
        notify(p, data);
    return p;
}

/* Makes the program binary of device di if it was built and has none yet: its cache
 * entry packed into one blob. p->lock held. */
static cl_int program_binary(cl_program p, int di)
{
    rt_program_build *b = &p->builds[di];
    const char *board = p->context->devices[di]->board->name;
    char err[512];
    if (b->binary || b->status != CL_BUILD_SUCCESS)
        return CL_SUCCESS;
    if (b->object) { /* a compiled object or a library */
        if (rt_binary_pack_object(b->object, b->object_len, board, b->type, &b->binary,
                                  &b->binary_len, err, sizeof err) != 0) {
            fprintf(stderr, "clhls: cannot make the program binary: %s\n", err);
            return CL_OUT_OF_RESOURCES;
        }
        return CL_SUCCESS;
    }
    if (!b->entry_dir)
        return CL_SUCCESS;
    if (rt_binary_pack(b->entry_dir, board, &b->binary, &b->binary_len, err, sizeof err) != 0) {
        fprintf(stderr, "clhls: cannot make the program binary: %s\n", err);
        return CL_OUT_OF_RESOURCES;
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info name, size_t size,
                                    void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_program(p), CL_INVALID_PROGRAM);
    cl_context c = p->context;
    cl_uint u;
    size_t sz;
    cl_int rc;
    switch (name) {
    case CL_PROGRAM_REFERENCE_COUNT:
        u = (cl_uint)atomic_load(&p->refcount);
        return rt_info(size, value, size_ret, &u, sizeof u);
    case CL_PROGRAM_CONTEXT: return rt_info(size, value, size_ret, &c, sizeof c);
    case CL_PROGRAM_NUM_DEVICES:
        return rt_info(size, value, size_ret, &c->ndevices, sizeof c->ndevices);
    case CL_PROGRAM_DEVICES:
        return rt_info(size, value, size_ret, c->devices, c->ndevices * sizeof *c->devices);
    case CL_PROGRAM_SOURCE:
        return rt_info(size, value, size_ret, p->source, strlen(p->source) + 1);
    case CL_PROGRAM_BINARY_SIZES:
    case CL_PROGRAM_BINARIES: {
        /* One blob per device that has a build or was given a binary; size 0 and
         * nothing copied for the others. */
        size_t n = name == CL_PROGRAM_BINARIES ? sizeof(unsigned char *) : sizeof(size_t);
        RT_CHECK(!value || size >= c->ndevices * n, CL_INVALID_VALUE);
        pthread_mutex_lock(&p->lock);
        rc = CL_SUCCESS;
        for (cl_uint i = 0; i < c->ndevices && rc == CL_SUCCESS; i++)
            rc = program_binary(p, (int)i);
        for (cl_uint i = 0; value && rc == CL_SUCCESS && i < c->ndevices; i++) {
            const rt_program_build *b = &p->builds[i];
            if (name == CL_PROGRAM_BINARY_SIZES)
                ((size_t *)value)[i] = b->binary ? b->binary_len : 0;
            else if (b->binary && ((unsigned char **)value)[i])
                memcpy(((unsigned char **)value)[i], b->binary, b->binary_len);
        }
        pthread_mutex_unlock(&p->lock);
        RT_CHECK(rc == CL_SUCCESS, rc);
        if (size_ret)
            *size_ret = c->ndevices * n;
        return CL_SUCCESS;
    }
    case CL_PROGRAM_IL: /* no program is created from an intermediate language */
        return rt_info(size, value, size_ret, NULL, 0);
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES:
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
        pthread_mutex_lock(&p->lock);
        if (!program_built(p)) {
            pthread_mutex_unlock(&p->lock);
            RT_FAIL(CL_INVALID_PROGRAM_EXECUTABLE);
        }
        if (name == CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT ||
            name == CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT) {
            /* No program-scope global variables, so no constructors or destructors. */
            cl_bool none = CL_FALSE;
            rc = rt_info(size, value, size_ret, &none, sizeof none);
        } else if (name == CL_PROGRAM_NUM_KERNELS) {
            sz = p->nkernels;
            rc = rt_info(size, value, size_ret, &sz, sizeof sz);
        } else {
            size_t len = 1;
            for (cl_uint i = 0; i < p->nkernels; i++)
                len += strlen(p->kernels[i].name) + 1;
            char *names = rt_alloc(len);
            if (names) {
                for (cl_uint i = 0; i < p->nkernels; i++) {
                    if (i)
                        strcat(names, ";");
                    strcat(names, p->kernels[i].name);
                }
                rc = rt_info(size, value, size_ret, names, strlen(names) + 1);
                rt_free(names);
            } else {
                rc = CL_OUT_OF_HOST_MEMORY;
            }
        }
        pthread_mutex_unlock(&p->lock);
        return rc;
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id d,
                                         cl_program_build_info name, size_t size,
                                         void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_program(p), CL_INVALID_PROGRAM);
    int di = rt_context_device_index(p->context, d);
    RT_CHECK(di >= 0, CL_INVALID_DEVICE);
    /* The build log and status are read while no build runs. */
    pthread_mutex_lock(&p->lock);
    rt_program_build *b = &p->builds[di];
    cl_int rc;
    cl_program_binary_type bt;
    switch (name) {
    case CL_PROGRAM_BUILD_STATUS:
        rc = rt_info(size, value, size_ret, &b->status, sizeof b->status);
        break;
    case CL_PROGRAM_BUILD_OPTIONS:
        rc = rt_info(size, value, size_ret, p->options, strlen(p->options) + 1);
        break;
    case CL_PROGRAM_BUILD_LOG: {
        const char *log = b->log ? b->log : "";
        rc = rt_info(size, value, size_ret, log, strlen(log) + 1);
        break;
    }
    case CL_PROGRAM_BINARY_TYPE:
        /* What the device has: nothing, a compiled object, a library or an executable
         * (built, or given as a binary). */
        bt = b->type;
        rc = rt_info(size, value, size_ret, &bt, sizeof bt);
        break;
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
        size_t none = 0; /* no program-scope global variables */
        rc = rt_info(size, value, size_ret, &none, sizeof none);
        break;
    }
    default:
        rc = CL_INVALID_VALUE;
        rt_log_check(__func__, "known param_name", rc);
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}
