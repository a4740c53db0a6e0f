/* Programs: creation from source, clBuildProgram (which runs the clhls compiler through
 * hls_build for each device's board, then loads the program's metadata.json with cJSON
 * and the verilated model on the device), build and program queries. The metadata is the
 * only source of register indexes and argument descriptions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hls.h"
#include "rt.h"

int rt_valid_program(cl_program p) { return p && p->magic == RT_MAGIC_PROGRAM; }

/* ---- metadata.json ---- */

static int json_u64(const cJSON *obj, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0)
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
        if (!cJSON_IsNumber(v) || v->valuedouble < 0)
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
    for (int i = 0; i < na; i++) {
        const cJSON *ja = cJSON_GetArrayItem(args, i);
        rt_arg_meta *a = &k->args[i];
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
        for (unsigned j = 0; j < k->ncounters; j++)
            rt_free(k->counters[j].name);
        rt_free(k->counters);
        for (unsigned j = 0; j < k->nprobes; j++)
            rt_free(k->probes[j].name);
        rt_free(k->probes);
        for (cl_uint j = 0; j < k->nargs; j++) {
            rt_free(k->args[j].name);
            rt_free(k->args[j].type_name);
        }
        rt_free(k->args);
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
    for (cl_uint i = 0; i < n; i++) {
        RT_CHECK_OBJ(rt_context_device_index(c, devices[i]) >= 0, CL_INVALID_DEVICE);
        RT_CHECK_OBJ(lengths[i] && binaries[i], CL_INVALID_VALUE);
    }
    /* Program binaries (packed cache entries) are not implemented yet. */
    if (status)
        for (cl_uint i = 0; i < n; i++)
            status[i] = CL_INVALID_BINARY;
    RT_FAIL_OBJ(CL_INVALID_BINARY);
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

/* Builds p for context device di; p->lock held. Returns a CL error code. */
static cl_int build_one(cl_program p, int di)
{
    cl_device_id d = p->context->devices[di];
    rt_program_build *b = &p->builds[di];
    if (b->model) {
        d->ops->program_unload(d->impl, b->model);
        b->model = NULL;
    }
    rt_free(b->log);
    b->log = NULL;
    b->status = CL_BUILD_IN_PROGRESS;

    hls_build_request req;
    memset(&req, 0, sizeof req);
    req.source = p->source;
    req.source_name = "<source>";
    req.options = p->options;
    req.board = d->board;
    hls_build_result res;
    memset(&res, 0, sizeof res);
    int st = hls_build(&req, &res);
    log_append(&b->log, res.log ? res.log : "");
    if (st != HLS_OK) {
        hls_build_result_free(&res);
        b->status = CL_BUILD_ERROR;
        if (!b->log)
            b->log = rt_strdup("");
        return st == HLS_ERR_OPTIONS ? CL_INVALID_BUILD_OPTIONS : CL_BUILD_PROGRAM_FAILURE;
    }
    char err[512];
    rt_kernel_meta *ks = NULL;
    cl_uint nk = 0;
    cl_int rc = CL_SUCCESS;
    if (rt_metadata_load(res.metadata_path, &ks, &nk, err, sizeof err) != 0) {
        rc = CL_BUILD_PROGRAM_FAILURE;
    } else if (!res.model_path ||
               d->ops->program_load(d->impl, res.model_path, &b->model, err, sizeof err) !=
                   RT_DEV_OK) {
        if (!res.model_path)
            snprintf(err, sizeof err, "the build produced no model");
        rt_metadata_free(ks, nk);
        rc = CL_BUILD_PROGRAM_FAILURE;
    }
    hls_build_result_free(&res);
    if (rc != CL_SUCCESS) {
        log_append(&b->log, "clhls: cannot load the built program: ");
        log_append(&b->log, err);
        log_append(&b->log, "\n");
        if (!b->log)
            b->log = rt_strdup("");
        b->status = CL_BUILD_ERROR;
        return rc;
    }
    /* Every device builds the same source: the last metadata stands for all. */
    rt_metadata_free(p->kernels, p->nkernels);
    p->kernels = ks;
    p->nkernels = nk;
    b->status = CL_BUILD_SUCCESS;
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
    RT_CHECK(p->source, CL_INVALID_OPERATION);
    RT_CHECK(atomic_load(&p->kernel_objs) == 0, CL_INVALID_OPERATION);
    /* A build already running on another thread makes this call invalid. */
    RT_CHECK(pthread_mutex_trylock(&p->lock) == 0, CL_INVALID_OPERATION);
    char *opts = rt_strdup(options ? options : "");
    if (!opts) {
        pthread_mutex_unlock(&p->lock);
        RT_FAIL(CL_OUT_OF_HOST_MEMORY);
    }
    rt_free(p->options);
    p->options = opts;
    cl_int rc = CL_SUCCESS;
    cl_uint n = ndev ? ndev : c->ndevices;
    for (cl_uint i = 0; i < n; i++) {
        int di = ndev ? rt_context_device_index(c, devices[i]) : (int)i;
        cl_int r = build_one(p, di);
        if (r != CL_SUCCESS && rc == CL_SUCCESS)
            rc = r;
    }
    pthread_mutex_unlock(&p->lock);
    if (notify)
        notify(p, data);
    return rc;
}

/* 1 when p was built successfully for at least one device. */
static int program_built(cl_program p)
{
    for (cl_uint i = 0; i < p->context->ndevices; i++)
        if (p->builds[i].status == CL_BUILD_SUCCESS)
            return 1;
    return 0;
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
    case CL_PROGRAM_BINARY_SIZES: {
        /* Binaries are not implemented yet: every size is 0. */
        size_t zeros[64] = {0};
        return rt_info(size, value, size_ret, zeros, c->ndevices * sizeof(size_t));
    }
    case CL_PROGRAM_BINARIES:
        /* An array of pointers to the (empty) binaries: nothing to copy. */
        RT_CHECK(!value || size >= c->ndevices * sizeof(unsigned char *), CL_INVALID_VALUE);
        if (size_ret)
            *size_ret = c->ndevices * sizeof(unsigned char *);
        return CL_SUCCESS;
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES:
        pthread_mutex_lock(&p->lock);
        if (!program_built(p)) {
            pthread_mutex_unlock(&p->lock);
            RT_FAIL(CL_INVALID_PROGRAM_EXECUTABLE);
        }
        if (name == CL_PROGRAM_NUM_KERNELS) {
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
        bt = b->status == CL_BUILD_SUCCESS ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                                           : CL_PROGRAM_BINARY_TYPE_NONE;
        rc = rt_info(size, value, size_ret, &bt, sizeof bt);
        break;
    default:
        rc = CL_INVALID_VALUE;
        rt_log_check(__func__, "known param_name", rc);
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}
