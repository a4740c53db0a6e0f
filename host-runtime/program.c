/* The entry points of programs: creation from source or from program binaries,
 * clBuildProgram, clCompileProgram and clLinkProgram (which run the clhls compiler in a
 * child process for each device's board (compiler.c), or unpack a binary into the build
 * cache (binary.c), then load the program's metadata.json (metadata.c) and its verilated
 * model on the device), build and program queries. A program binary is the build's
 * cache entry packed into one blob. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"
#include "rt.h"

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
    rt_object_init(&p->obj, RT_MAGIC_PROGRAM);
    p->context = c;
    rt_retain(c);
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
            rt_release(p);
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
                rt_release(p);
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
    return rt_api_retain(__func__, p, RT_MAGIC_PROGRAM, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clReleaseProgram(cl_program p)
{
    return rt_api_release(__func__, p, RT_MAGIC_PROGRAM, CL_INVALID_PROGRAM);
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

/* Marks the build of device di failed with msg (when given) appended to its log. */
static void build_failed(rt_program_build *b, const char *msg)
{
    if (msg)
        log_append(&b->log, msg);
    if (!b->log)
        b->log = rt_strdup("");
    b->status = CL_BUILD_ERROR;
}

/* The same with "PREFIXWHY\n" appended. */
static void build_failed_why(rt_program_build *b, const char *prefix, const char *why)
{
    log_append(&b->log, prefix);
    log_append(&b->log, why);
    build_failed(b, "\n");
}

/* Loads the model of entry onto device d: its traced variant when the program is to be
 * recorded (CLHLS_WAVES), recording into the program's file; its multi-threaded one
 * when CLHLS_SIM_THREADS asks for it and the design is big enough (sim_threads.c); the
 * normal model when not, or when the variant cannot be had (a message on stderr says
 * why). */
static int load_model(cl_device_id d, const char *entry, const rt_kernel_meta *ks, cl_uint nk,
                      rt_device_program **model, char *err, size_t errlen)
{
    char path[4200], traced[4300], why[2048];
    snprintf(path, sizeof path, "%s/model.so", entry);
    int waves = rt_waves_wanted(ks, nk);
    if (waves && rt_waves_model(entry, traced, sizeof traced, why, sizeof why) != 0) {
        fprintf(stderr, "clhls: CLHLS_WAVES: %s\nclhls: the program runs without waveforms\n",
                why);
        waves = 0;
    }
    if (waves && d->ops->program_load(d->impl, traced, model, why, sizeof why) != RT_DEV_OK) {
        fprintf(stderr, "clhls: CLHLS_WAVES: cannot load the traced model: %s\n"
                        "clhls: the program runs without waveforms\n", why);
        waves = 0;
    }
    char threaded[4300];
    if (!waves && rt_sim_threads_model(entry, threaded, sizeof threaded)) {
        if (d->ops->program_load(d->impl, threaded, model, why, sizeof why) == RT_DEV_OK)
            return RT_DEV_OK;
        fprintf(stderr, "clhls: CLHLS_SIM_THREADS: cannot load the threaded model: %s\n"
                        "clhls: the program runs single-threaded\n", why);
    }
    if (!waves)
        return d->ops->program_load(d->impl, path, model, err, errlen);
    rt_waves w = *rt_waves_config();
    rt_waves_next_file(w.path, sizeof w.path);
    if (d->ops->program_waves(d->impl, *model, &w, why, sizeof why) != RT_DEV_OK)
        fprintf(stderr, "clhls: CLHLS_WAVES: %s; the program runs without waveforms\n", why);
    else if (w.window)
        fprintf(stderr, "clhls: CLHLS_WAVES: recording cycles %" PRIu64 " to %" PRIu64
                        " of each launch of %s%s in %s\n", w.first, w.last,
                w.kernel[0] ? "kernel " : "every kernel", w.kernel, w.path);
    else
        fprintf(stderr, "clhls: CLHLS_WAVES: recording %s%s in %s\n",
                w.kernel[0] ? "the launches of kernel " : "every cycle of the accelerator",
                w.kernel, w.path);
    return RT_DEV_OK;
}

/* CL_DEVICE_MAX_COMPUTE_UNITS follows the largest design loaded on the device: the
 * compute units of every kernel of the program, which may all run at once. */
static void note_compute_units(cl_device_id d, const rt_kernel_meta *ks, cl_uint nk)
{
    unsigned units = 0;
    for (cl_uint i = 0; i < nk; i++)
        units += ks[i].compute_units;
    unsigned seen = atomic_load(&d->built_units);
    while (units > seen && !atomic_compare_exchange_weak(&d->built_units, &seen, units))
        ;
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
        } else if (load_model(d, entry, ks, nk, &b->model, err, sizeof err) != RT_DEV_OK) {
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
        build_failed_why(b, "clhls: cannot load the built program: ", err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    rt_metadata_free(p->kernels, p->nkernels);
    p->kernels = ks;
    p->nkernels = nk;
    note_compute_units(d, ks, nk);
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

/* Forgets what context device di had (build_start) and starts a job for it: its
 * scratch directory, with the program's source as program.cl when there is one. */
static cl_int job_begin(cl_program p, int di, rt_job *job, job_kind kind)
{
    rt_program_build *b = &p->builds[di];
    build_start(p, di); /* a new build makes a new binary (packed when asked for) */
    char err[512];
    if (rt_job_begin(job, err, sizeof err) != 0) {
        build_failed_why(b, "clhls: ", err);
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
    rt_job job;
    cl_int rc = job_begin(p, di, &job, JOB_BUILD);
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
    rt_job job;
    cl_int rc = job_begin(p, di, &job, JOB_LINK);
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
        build_failed_why(b, "clhls: ", err);
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

/* ---- separate compilation: clCompileProgram, clLinkProgram ---- */


/* Compiles p's source for context device di into a compiled object (LLVM bitcode):
 * `clhls compile`, with the embedded headers under the job's headers/ directory, which
 * the compiler searches (-I). p->lock held. */
static cl_int compile_one(cl_program p, int di, cl_uint nheaders, const cl_program *headers,
                          const char **names)
{
    cl_device_id d = p->context->devices[di];
    rt_program_build *b = &p->builds[di];
    rt_job job;
    cl_int rc = job_begin(p, di, &job, JOB_COMPILE);
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
    if (!rt_program_built(p)) {
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
        rt_release(p);
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
        u = rt_refcount(p);
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
        if (!rt_program_built(p)) {
            pthread_mutex_unlock(&p->lock);
            RT_FAIL(CL_INVALID_PROGRAM_EXECUTABLE);
        }
        if (name == CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT ||
            name == CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT) {
            /* No program-scope global variables, so no constructors or destructors. */
            cl_bool none = CL_FALSE;
            rc = rt_info(size, value, size_ret, &none, sizeof none);
        } else if (name == CL_PROGRAM_NUM_KERNELS) {
            sz = rt_program_host_kernels(p);
            rc = rt_info(size, value, size_ret, &sz, sizeof sz);
        } else {
            size_t len = 1;
            for (cl_uint i = 0; i < p->nkernels; i++)
                len += strlen(p->kernels[i].name) + 1;
            char *names = rt_alloc(len);
            if (names) {
                for (cl_uint i = 0; i < p->nkernels; i++) {
                    if (p->kernels[i].autorun)
                        continue;
                    if (*names)
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
