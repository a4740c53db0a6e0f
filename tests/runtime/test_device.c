/* Runtime tests of the simulated device and the watchdog's diagnosis, without the
 * kernel compiler: the runtime's sources are linked into this binary, the "program" is
 * a hand-written metadata.json plus the Verilator build of tests/sim/fixtures/spin.v
 * (a compute-only kernel that can be told to stop moving, with three occupancy
 * registers). Covers: reading "probes" from metadata.json, the device's watchdog
 * message ("kernel 'K' made no forward progress for N cycles (CLHLS_WATCHDOG_CYCLES);
 * stuck: NAME: VALUE of CAPACITY; ..."), and the whole NDRange path (clEnqueueNDRange-
 * Kernel -> worker -> device) delivering that message to the context's notify callback
 * under the default and a configured idle window; the kernel attributes the metadata
 * carries (CL_KERNEL_ATTRIBUTES); pipe arguments (metadata.json, clSetKernelArg, an
 * NDRange with pipes); a program binary unpacked again saying nothing; and where
 * buffers land on boards with several memory ports (board files written for the test:
 * the round robin, Intel's CL_CHANNEL_n_INTELFPGA flags, a full port) and on a
 * one-port board (its addresses as before). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "clhls_sim.h"
#include "manifest.h"
#include "rt.h"

#define ENV_DIR "CLHLS_RT_TEST_MODELS"

/* The start of metadata.json for the spin fixture up to kernel "spin"'s counters, and
 * the start of kernel "plain" up to its masks. */
#define SPIN_KERNEL_HEAD \
    "{ \"format\": 1, \"board\": \"sim_dc\", \"kernels\": [\n" \
    "  { \"name\": \"spin\", \"reg_base\": 0,\n" \
    "    \"regs\": { \"control\": 0, \"status\": 1, \"work_dim\": 2,\n" \
    "              \"global_size\": [3,4,5], \"local_size\": [6,7,8],\n" \
    "              \"global_offset\": [9,10,11], \"num_groups\": [12,13,14] },\n" \
    "    \"control_start_mask\": 1, \"status_busy_mask\": 1, \"status_done_mask\": 2,\n" \
    "    \"counters\": [ { \"name\": \"busy_cycles\", \"reg\": 16 } ],\n"
#define PLAIN_KERNEL_HEAD \
    "  { \"name\": \"plain\", \"reg_base\": 128,\n" \
    "    \"regs\": { \"control\": 128, \"status\": 129, \"work_dim\": 130,\n" \
    "              \"global_size\": [131,132,133], \"local_size\": [134,135,136],\n" \
    "              \"global_offset\": [137,138,139], \"num_groups\": [140,141,142] },\n" \
    "    \"control_start_mask\": 1, \"status_done_mask\": 2,\n"

/* metadata.json of the spin fixture: kernel "spin" with probes (one without a
 * register, skipped; one without a capacity), kernel "plain" without. */
static const char metadata[] =
    SPIN_KERNEL_HEAD
    "    \"probes\": [\n"
    "      { \"name\": \"loop at k.cl:5:3: credits\", \"reg\": 40, \"capacity\": 32 },\n"
    "      { \"name\": \"FIFO at k.cl:6:7: entries\", \"reg\": 41, \"capacity\": 16 },\n"
    "      { \"name\": \"no register\", \"capacity\": 4 },\n"
    "      { \"name\": \"store at k.cl:7:5: requests outstanding\", \"reg\": 42 } ],\n"
    "    \"max_work_group_size\": 1024,\n"
    "    \"arg_area\": { \"reg\": 32, \"bytes\": 24 },\n"
    "    \"args\": [\n"
    "      { \"name\": \"length\", \"type_name\": \"ulong\", \"address_qualifier\": \"private\",\n"
    "        \"access_qualifier\": \"none\", \"type_qualifier\": \"\", \"kind\": \"scalar\",\n"
    "        \"size\": 8, \"offset\": 0 },\n"
    "      { \"name\": \"period\", \"type_name\": \"ulong\", \"address_qualifier\": \"private\",\n"
    "        \"access_qualifier\": \"none\", \"type_qualifier\": \"\", \"kind\": \"scalar\",\n"
    "        \"size\": 8, \"offset\": 8 },\n"
    "      { \"name\": \"stop_at\", \"type_name\": \"ulong\", \"address_qualifier\": \"private\",\n"
    "        \"access_qualifier\": \"none\", \"type_qualifier\": \"\", \"kind\": \"scalar\",\n"
    "        \"size\": 8, \"offset\": 16 } ] },\n"
    PLAIN_KERNEL_HEAD
    "    \"arg_area\": { \"reg\": 160, \"bytes\": 0 }, \"args\": [] } ] }\n";

static char dir[512];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Builds the spin fixture and writes metadata.json into a temporary directory, once,
 * in the runner process. */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    snprintf(dir, sizeof dir, "/tmp/clhls-rttest-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return;
    }
    setenv(ENV_DIR, dir, 1);
    char work[600], so[600], json[600];
    snprintf(work, sizeof work, "%s/work", dir);
    snprintf(so, sizeof so, "%s/spin.so", dir);
    snprintf(json, sizeof json, "%s/metadata.json", dir);
    const char *files[] = {SIM_TEST_FIXTURES "/spin.v"};
    char *log = NULL;
    if (sim_build_model(files, 1, "clhls_top", work, SIM_TEST_RUNTIME_DIR, so, 0, &log, NULL) !=
        SIM_OK)
        fprintf(stderr, "[runtime tests] cannot build spin.v:\n%s\n", log ? log : "");
    free(log);
    FILE *f = fopen(json, "w");
    if (f) {
        fputs(metadata, f);
        fclose(f);
    }
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    if (dir[0])
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void path_of(char *out, size_t len, const char *name)
{
    const char *d = getenv(ENV_DIR);
    cr_assert_not_null(d, "the PRE_ALL hook did not run");
    snprintf(out, len, "%s/%s", d, name);
}

/* The metadata file name (in the temporary directory), loaded. */
static rt_kernel_meta *load_meta_from(const char *name, cl_uint *n)
{
    char json[600], err[256];
    path_of(json, sizeof json, name);
    rt_kernel_meta *ks = NULL;
    cr_assert_eq(rt_metadata_load(json, &ks, n, err, sizeof err), 0, "%s", err);
    return ks;
}

static rt_kernel_meta *load_meta(cl_uint *n) { return load_meta_from("metadata.json", n); }

/* Writes text to the file name in the temporary directory; its path in path. */
static void write_file(const char *name, const char *text, char *path, size_t len)
{
    path_of(path, len, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static void quiet_env(void)
{
    unsetenv("CLHLS_WATCHDOG_CYCLES");
    unsetenv("CLHLS_SIM_STRESS");
}

TestSuite(device, .init = quiet_env, .timeout = 120);

Test(device, metadata_probes)
{
    cl_uint n = 0;
    rt_kernel_meta *ks = load_meta(&n);
    cr_assert_eq(n, 2);
    const rt_kernel_meta *k = &ks[0];
    cr_assert_str_eq(k->name, "spin");
    cr_assert_eq(k->nprobes, 3, "the entry without a register is skipped");
    cr_assert_str_eq(k->probes[0].name, "loop at k.cl:5:3: credits");
    cr_assert_eq(k->probes[0].reg, 40);
    cr_assert_eq(k->probes[0].capacity, 32);
    cr_assert_str_eq(k->probes[1].name, "FIFO at k.cl:6:7: entries");
    cr_assert_eq(k->probes[1].capacity, 16);
    cr_assert_str_eq(k->probes[2].name, "store at k.cl:7:5: requests outstanding");
    cr_assert_eq(k->probes[2].reg, 42);
    cr_assert_eq(k->probes[2].capacity, 0, "capacity is optional");
    cr_assert_str_eq(ks[1].name, "plain");
    cr_assert_eq(ks[1].nprobes, 0, "no \"probes\": none");
    rt_metadata_free(ks, n);
}

/* A kernel of metadata.json with the given extra members. */
#define ATTR_KERNEL(NAME, EXTRA)                                                      \
    "  { \"name\": \"" NAME "\", \"reg_base\": 0,\n"                                \
    "    \"regs\": { \"control\": 0, \"status\": 1, \"work_dim\": 2,\n"                \
    "              \"global_size\": [3,4,5], \"local_size\": [6,7,8],\n"              \
    "              \"global_offset\": [9,10,11], \"num_groups\": [12,13,14] },\n"     \
    "    \"control_start_mask\": 1, \"status_done_mask\": 2,\n"                       \
    "    \"arg_area\": { \"reg\": 32, \"bytes\": 0 }, \"args\": []" EXTRA " }"

/* CL_KERNEL_ATTRIBUTES comes from the metadata: reqd_work_group_size,
 * work_group_size_hint and vec_type_hint when present, as declared, space-separated. */
Test(device, metadata_attributes)
{
    static const char json[] =
        "{ \"format\": 1, \"board\": \"sim_dc\", \"kernels\": [\n"
        ATTR_KERNEL("all", ", \"reqd_work_group_size\": [8,2,1], "
                           "\"work_group_size_hint\": [4,4,1], \"vec_type_hint\": \"float4\"") ",\n"
        ATTR_KERNEL("hint", ", \"reqd_work_group_size\": [0,0,0], "
                            "\"work_group_size_hint\": [16,1,1]") ",\n"
        ATTR_KERNEL("vec", ", \"vec_type_hint\": \"int\"") ",\n"
        ATTR_KERNEL("none", "") " ] }\n";
    char path[600], err[256];
    path_of(path, sizeof path, "attributes.json");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(json, f);
    fclose(f);
    rt_kernel_meta *ks = NULL;
    cl_uint n = 0;
    cr_assert_eq(rt_metadata_load(path, &ks, &n, err, sizeof err), 0, "%s", err);
    cr_assert_eq(n, 4);
    cr_assert_str_eq(ks[0].attributes,
                     "reqd_work_group_size(8,2,1) work_group_size_hint(4,4,1) vec_type_hint(float4)");
    cr_assert_str_eq(ks[1].attributes, "work_group_size_hint(16,1,1)");
    cr_assert_str_eq(ks[2].attributes, "vec_type_hint(int)");
    cr_assert_str_eq(ks[3].attributes, "");
    rt_metadata_free(ks, n);
}

/* ---- the device operations directly ---- */

typedef struct dev_fixture {
    board_t *board;            /* sim_dc */
    rt_device_impl *impl;      /* the simulated device */
    rt_device_program *prog;   /* spin.so loaded on it */
    rt_kernel_meta *meta;      /* metadata.json */
    cl_uint nmeta;             /* kernels in meta */
} dev_fixture;

static dev_fixture open_dev(void)
{
    dev_fixture f;
    char err[512], so[600];
    f.board = board_load("sim_dc", err, sizeof err);
    cr_assert_not_null(f.board, "%s", err);
    cr_assert_eq(rt_device_sim_ops.open(f.board, &f.impl, err, sizeof err), RT_DEV_OK, "%s",
                 err);
    path_of(so, sizeof so, "spin.so");
    cr_assert_eq(rt_device_sim_ops.program_load(f.impl, so, &f.prog, err, sizeof err),
                 RT_DEV_OK, "%s", err);
    f.meta = load_meta(&f.nmeta);
    return f;
}

static void close_dev(dev_fixture *f)
{
    rt_device_sim_ops.program_unload(f->impl, f->prog);
    rt_device_sim_ops.close(f->impl);
    rt_metadata_free(f->meta, f->nmeta);
    board_free(f->board);
}

/* Runs spin (length, period, stop_at) with the given probes and idle window. */
static int run_spin(dev_fixture *f, const rt_probe *probes, unsigned nprobes,
                    uint64_t window, uint64_t length, uint64_t period, uint64_t stop_at,
                    rt_kernel_result *r, uint64_t *busy)
{
    const rt_kernel_meta *k = &f->meta[0];
    uint32_t regs[3] = {32, 33, 34};
    uint64_t vals[3] = {length, period, stop_at};
    rt_kernel_launch l;
    memset(&l, 0, sizeof l);
    l.name = k->name;
    l.regs = &k->regs;
    l.work_dim = 1;
    for (int i = 0; i < 3; i++)
        l.global[i] = l.local[i] = l.groups[i] = 1;
    l.nargs = 3;
    l.arg_regs = regs;
    l.arg_values = vals;
    l.ncounters = k->ncounters;
    l.counters = k->counters;
    l.nprobes = nprobes;
    l.probes = probes;
    l.watchdog_cycles = window;
    memset(r, 0, sizeof *r);
    r->counter_values = busy;
    int rc = rt_device_sim_ops.kernel_start(f->impl, f->prog, &l, r);
    unsigned unit;
    if (rc == RT_DEV_OK)
        rc = rt_device_sim_ops.kernel_wait(f->impl, f->prog, 0, &unit); /* the only one */
    return rc;
}

Test(device, watchdog_message_names_where_it_is_stuck)
{
    dev_fixture f = open_dev();
    const rt_kernel_meta *k = &f.meta[0];
    rt_kernel_result r;
    uint64_t busy = 0;
    int rc = run_spin(&f, k->probes, k->nprobes, 1000, (uint64_t)1 << 40, 10, 5000, &r,
                      &busy);
    cr_assert_eq(rc, RT_DEV_TIMEOUT);
    cr_assert_str_eq(r.message,
                     "kernel 'spin' made no forward progress for 1000 cycles "
                     "(CLHLS_WATCHDOG_CYCLES); stuck: loop at k.cl:5:3: credits: 32 of 32; "
                     "store at k.cl:7:5: requests outstanding: 3");
    cr_assert_geq(r.cycles, 5000 + 1000 - 10);
    cr_assert_leq(r.cycles, 5000 + 1000 + 1);
    cr_assert_geq(busy, r.cycles, "counters are read after a failure too");

    /* no probes, or all zero: nothing appended */
    rc = run_spin(&f, NULL, 0, 1000, (uint64_t)1 << 40, 10, 5000, &r, &busy);
    cr_assert_eq(rc, RT_DEV_TIMEOUT);
    cr_assert_str_eq(r.message, "kernel 'spin' made no forward progress for 1000 cycles "
                                "(CLHLS_WATCHDOG_CYCLES)");
    rc = run_spin(&f, &k->probes[1], 1, 1000, (uint64_t)1 << 40, 10, 5000, &r, &busy);
    cr_assert_eq(rc, RT_DEV_TIMEOUT);
    cr_assert_eq(strstr(r.message, "stuck"), NULL, "%s", r.message);

    /* a kernel that keeps moving runs far past the window */
    rc = run_spin(&f, k->probes, k->nprobes, 1000, 20000, 999, 0, &r, &busy);
    cr_assert_eq(rc, RT_DEV_OK, "%s", r.message);
    cr_assert_eq(busy, 20000);
    close_dev(&f);
}

/* More non-zero probes than the message holds: as many as fit, then "; ...". */
Test(device, watchdog_message_truncated)
{
    dev_fixture f = open_dev();
    enum { N = 200 };
    rt_probe probes[N];
    char names[N][48];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "loop %03d at long_kernel_name.cl:%d:3", i, i);
        probes[i] = (rt_probe){.name = names[i], .reg = 40, .capacity = 32};
    }
    rt_kernel_result r;
    uint64_t busy;
    cr_assert_eq(run_spin(&f, probes, N, 500, (uint64_t)1 << 40, 10, 100, &r, &busy),
                 RT_DEV_TIMEOUT);
    size_t len = strlen(r.message);
    cr_assert_lt(len, sizeof r.message);
    cr_assert_gt(len, sizeof r.message - 64, "filled up (%zu)", len);
    cr_assert_str_eq(r.message + len - 5, "; ...", "%s", r.message + len - 60);
    cr_assert(strstr(r.message, "; stuck: loop 000 at long_kernel_name.cl:0:3: 32 of 32; "
                                "loop 001"));
    close_dev(&f);
}

/* ---- the whole NDRange path, through the runtime's entry points ---- */

/* What the context's notify callback saw. */
typedef struct notified {
    int calls;              /* times called */
    char last[2048];        /* last message */
} notified;

static void CL_CALLBACK on_notify(const char *msg, const void *info, size_t cb, void *data)
{
    (void)info;
    (void)cb;
    notified *n = data;
    n->calls++;
    snprintf(n->last, sizeof n->last, "%s", msg);
}

/* A program object holding the spin model and the metadata file meta, as
 * clBuildProgram would leave it (the compiler is not needed here). */
static cl_program fake_program(cl_context c, const char *meta)
{
    cl_program p = rt_alloc(sizeof *p);
    cr_assert_not_null(p);
    rt_object_init(&p->obj, RT_MAGIC_PROGRAM);
    p->context = c;
    cr_assert_eq(clRetainContext(c), CL_SUCCESS);
    p->source = rt_strdup("");
    p->options = rt_strdup("");
    pthread_mutex_init(&p->lock, NULL);
    p->builds = rt_alloc(c->ndevices * sizeof *p->builds);
    cl_device_id d = c->devices[0];
    char so[600], err[512];
    path_of(so, sizeof so, "spin.so");
    cr_assert_eq(d->ops->program_load(d->impl, so, &p->builds[0].model, err, sizeof err),
                 RT_DEV_OK, "%s", err);
    p->builds[0].status = CL_BUILD_SUCCESS;
    p->builds[0].type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    p->builds[0].log = rt_strdup("");
    p->kernels = load_meta_from(meta, &p->nkernels);
    return p;
}

/* Enqueues spin(length, period, stop_at) and waits; returns the event's status. */
static cl_int enqueue_spin(cl_command_queue q, cl_kernel k, cl_ulong length, cl_ulong period,
                           cl_ulong stop_at)
{
    cr_assert_eq(clSetKernelArg(k, 0, sizeof length, &length), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof period, &period), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof stop_at, &stop_at), CL_SUCCESS);
    size_t one = 1;
    cl_event e;
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, &e), CL_SUCCESS);
    clWaitForEvents(1, &e);
    cl_int st;
    cr_assert_eq(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
                 CL_SUCCESS);
    clReleaseEvent(e);
    return st;
}

Test(device, hung_kernel_message_reaches_notify)
{
    cl_platform_id plat = rt_platform();
    cr_assert_geq(plat->ndevices, 1);
    cl_device_id d = plat->devices[0];
    notified n = {0};
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &d, on_notify, &n, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_program p = fake_program(c, "metadata.json");
    cl_kernel k = clCreateKernel(p, "spin", &err);
    cr_assert_eq(err, CL_SUCCESS);

    /* the default window: 1,000,000 idle cycles */
    cr_assert_eq(enqueue_spin(q, k, (cl_ulong)1 << 40, 10, 3000), CL_OUT_OF_RESOURCES);
    cr_assert_eq(n.calls, 1);
    cr_assert_str_eq(n.last, "kernel 'spin' made no forward progress for 1000000 cycles "
                             "(CLHLS_WATCHDOG_CYCLES); stuck: loop at k.cl:5:3: credits: 32 "
                             "of 32; store at k.cl:7:5: requests outstanding: 3");

    /* a kernel moving every 900,000 cycles runs 2.5 default windows and completes */
    cr_assert_eq(enqueue_spin(q, k, 2500000, 900000, 0), CL_COMPLETE);
    cr_assert_eq(n.calls, 1, "no message for a good run");

    /* CLHLS_WATCHDOG_CYCLES sets the window, read at each launch */
    setenv("CLHLS_WATCHDOG_CYCLES", "2000", 1);
    cr_assert_eq(enqueue_spin(q, k, 100000, 1500, 0), CL_COMPLETE);
    cr_assert_eq(enqueue_spin(q, k, 100000, 2500, 0), CL_OUT_OF_RESOURCES);
    cr_assert_eq(n.calls, 2);
    cr_assert_str_eq(n.last, "kernel 'spin' made no forward progress for 2000 cycles "
                             "(CLHLS_WATCHDOG_CYCLES)");
    unsetenv("CLHLS_WATCHDOG_CYCLES");

    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
}

/* ---- pipe arguments ---- */

/* metadata.json of the spin model with pipe arguments: kernel "spin" with two among its
 * values ("in", whose members after the type qualifier are IN_PIPE, at the offset of
 * "length"; "out" far past the argument area, which a pipe has no bytes in), and kernel
 * "plain" with a buffer, a pipe and a pipe it does not use (packet size and depth 0, as
 * the compiler says of it); plain's arguments are set, it never runs. */
#define PIPE_ARG(NAME, TYPE, ACCESS, REST)                                            \
    "      { \"name\": \"" NAME "\", \"type_name\": \"" TYPE "\",\n"                   \
    "        \"address_qualifier\": \"global\", \"access_qualifier\": \"" ACCESS "\",\n" \
    "        \"type_qualifier\": \"pipe\", \"kind\": \"pipe\", " REST " }"
#define VALUE_ARG(NAME, OFFSET)                                                       \
    "      { \"name\": \"" NAME "\", \"type_name\": \"ulong\",\n"                      \
    "        \"address_qualifier\": \"private\", \"access_qualifier\": \"none\",\n"     \
    "        \"type_qualifier\": \"\", \"kind\": \"scalar\", \"size\": 8, \"offset\": " OFFSET " }"
static const char pipe_metadata_fmt[] =
    SPIN_KERNEL_HEAD
    "    \"max_work_group_size\": 1024,\n"
    "    \"arg_area\": { \"reg\": 32, \"bytes\": 24 },\n"
    "    \"args\": [\n"
    VALUE_ARG("length", "0") ",\n"
    PIPE_ARG("in", "int", "read_only", "%s") ",\n"
    VALUE_ARG("period", "8") ",\n"
    PIPE_ARG("out", "int4", "write_only", "\"size\": 16, \"offset\": 4096, \"pipe_depth\": 2") ",\n"
    VALUE_ARG("stop_at", "16") " ] },\n"
    PLAIN_KERNEL_HEAD
    "    \"arg_area\": { \"reg\": 160, \"bytes\": 8 },\n"
    "    \"args\": [\n"
    "      { \"name\": \"b\", \"type_name\": \"int*\", \"address_qualifier\": \"global\",\n"
    "        \"access_qualifier\": \"none\", \"type_qualifier\": \"\", \"kind\": \"buffer\",\n"
    "        \"size\": 8, \"offset\": 0 },\n"
    PIPE_ARG("p", "float4", "read_only", "\"size\": 16, \"offset\": 0, \"pipe_depth\": 4") ",\n"
    PIPE_ARG("unused", "char", "write_only", "\"size\": 0, \"offset\": 8, \"pipe_depth\": 0")
    " ] } ] }\n";
#define GOOD_IN_PIPE "\"size\": 4, \"offset\": 0, \"pipe_depth\": 8"

/* The pipe metadata with IN_PIPE's members in, written to name; its path in path. */
static void write_pipe_metadata(const char *name, const char *in, char *path, size_t len)
{
    char text[8192];
    int n = snprintf(text, sizeof text, pipe_metadata_fmt, in);
    cr_assert(n > 0 && (size_t)n < sizeof text);
    write_file(name, text, path, len);
}

/* metadata.json's pipe arguments: kind, packet size, FIFO depth, qualifiers; no place
 * in the argument area; a packet of at most 256 bytes and a depth (both 0 for a pipe the
 * kernel does not use). */
Test(device, metadata_pipes)
{
    char path[600], err[256];
    write_pipe_metadata("pipes.json", GOOD_IN_PIPE, path, sizeof path);
    rt_kernel_meta *ks = NULL;
    cl_uint n = 0;
    cr_assert_eq(rt_metadata_load(path, &ks, &n, err, sizeof err), 0, "%s", err);
    cr_assert_eq(n, 2);
    cr_assert_eq(ks[0].nargs, 5);
    const rt_arg_meta *in = &ks[0].args[1], *out = &ks[0].args[3];
    cr_assert_eq(in->kind, RT_ARG_PIPE);
    cr_assert_str_eq(in->name, "in");
    cr_assert_str_eq(in->type_name, "int");
    cr_assert_eq(in->size, 4);
    cr_assert_eq(in->pipe_depth, 8);
    cr_assert_eq(in->address, CL_KERNEL_ARG_ADDRESS_GLOBAL);
    cr_assert_eq(in->access, CL_KERNEL_ARG_ACCESS_READ_ONLY);
    cr_assert_eq(in->type_qual, CL_KERNEL_ARG_TYPE_PIPE);
    cr_assert_eq(out->kind, RT_ARG_PIPE);
    cr_assert_eq(out->size, 16);
    cr_assert_eq(out->pipe_depth, 2);
    cr_assert_eq(out->access, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    cr_assert_eq(ks[0].args[0].kind, RT_ARG_SCALAR);
    cr_assert_eq(ks[1].args[0].kind, RT_ARG_BUFFER);
    cr_assert_eq(ks[1].args[1].kind, RT_ARG_PIPE);
    cr_assert_eq(ks[1].args[2].kind, RT_ARG_PIPE);
    cr_assert_eq(ks[1].args[2].size, 0);
    cr_assert_eq(ks[1].args[2].pipe_depth, 0);
    rt_metadata_free(ks, n);

    /* The widest packet. */
    write_pipe_metadata("pipes.json", "\"size\": 256, \"offset\": 0, \"pipe_depth\": 1", path,
                        sizeof path);
    cr_assert_eq(rt_metadata_load(path, &ks, &n, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ks[0].args[1].size, 256);
    rt_metadata_free(ks, n);

    static const char *const bad[] = {
        "\"size\": 4, \"offset\": 0",                          /* no depth */
        "\"size\": 4, \"offset\": 0, \"pipe_depth\": \"8\"",    /* not a number */
        "\"size\": 4, \"offset\": 0, \"pipe_depth\": -1",
        "\"size\": 257, \"offset\": 0, \"pipe_depth\": 8",      /* over 256 bytes */
        "\"offset\": 0, \"pipe_depth\": 8",                     /* no size */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_pipe_metadata("pipes.json", bad[i], path, sizeof path);
        ks = NULL;
        err[0] = '\0';
        cr_assert_eq(rt_metadata_load(path, &ks, &n, err, sizeof err), -1, "%s", bad[i]);
        cr_assert_str_eq(err, "kernel 'spin': bad argument 1", "%s: %s", bad[i], err);
        cr_assert_null(ks);
    }
}

static atomic_int pipes_destroyed;
static void CL_CALLBACK on_pipe_gone(cl_mem m, void *data)
{
    (void)m;
    (void)data;
    atomic_fetch_add(&pipes_destroyed, 1);
}

/* The busy_cycles counter an ended kernel command read. */
static uint64_t busy_cycles(cl_event e)
{
    for (unsigned i = 0; i < e->ncounters; i++)
        if (!strcmp(e->counters[i].name, "busy_cycles"))
            return e->counters[i].value;
    cr_assert_fail("no busy_cycles counter");
    return 0;
}

/* clSetKernelArg of a pipe argument: a pipe object of the argument's packet size, and
 * the specification's error for anything else; clGetKernelArgInfo says pipe; an unset
 * pipe argument stops an enqueue; a set one puts nothing into the argument area (the
 * spin kernel runs as long as "length", which shares "in"'s offset, says), and the
 * command holds its pipes until it ends. */
Test(device, pipe_kernel_arguments)
{
    char path[600];
    write_pipe_metadata("pipes.json", GOOD_IN_PIPE, path, sizeof path);
    cl_platform_id plat = rt_platform();
    cr_assert_geq(plat->ndevices, 1);
    cl_device_id d = plat->devices[0];
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_context other = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_program p = fake_program(c, "pipes.json");
    cl_kernel k = clCreateKernel(p, "spin", &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_kernel plain = clCreateKernel(p, "plain", &err);
    cr_assert_eq(err, CL_SUCCESS);

    cl_kernel_arg_type_qualifier tq = 0;
    cr_assert_eq(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL),
                 CL_SUCCESS);
    cr_assert_eq(tq, CL_KERNEL_ARG_TYPE_PIPE);
    cl_kernel_arg_access_qualifier acc = 0;
    cr_assert_eq(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc,
                                    NULL), CL_SUCCESS);
    cr_assert_eq(acc, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    char type[16];
    cr_assert_eq(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL),
                 CL_SUCCESS);
    cr_assert_str_eq(type, "int4");

    cl_mem in = clCreatePipe(c, 0, 4, 8, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem out = clCreatePipe(c, 0, 16, 2, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem wide = clCreatePipe(c, 0, 8, 8, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem elsewhere = clCreatePipe(other, 0, 4, 8, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem buf = clCreateBuffer(c, 0, 64, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem none = NULL;
    cl_mem not_mem = (cl_mem)q;

    /* The errors, each with everything else right. */
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in - 1, &in), CL_INVALID_ARG_SIZE);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in + 1, &in), CL_INVALID_ARG_SIZE);
    cr_assert_eq(clSetKernelArg(k, 1, 4, &in), CL_INVALID_ARG_SIZE, "the packet size is not "
                 "the argument's size");
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in, NULL), CL_INVALID_ARG_VALUE);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in, &none), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in, &not_mem), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in, &elsewhere), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in, &buf), CL_INVALID_ARG_VALUE);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in, &wide), CL_INVALID_ARG_VALUE);
    cr_assert_eq(clSetKernelArg(k, 3, sizeof in, &in), CL_INVALID_ARG_VALUE);
    /* A buffer argument given a pipe; a pipe argument of another kernel. */
    cr_assert_eq(clSetKernelArg(plain, 0, sizeof in, &in), CL_INVALID_ARG_VALUE);
    cr_assert_eq(clSetKernelArg(plain, 0, sizeof buf, &buf), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(plain, 0, sizeof none, &none), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(plain, 1, sizeof out, &out), CL_SUCCESS);
    /* A pipe the kernel does not use: any pipe of the context, but a pipe. */
    cr_assert_eq(clSetKernelArg(plain, 2, sizeof wide, &wide), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(plain, 2, sizeof out, &out), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(plain, 2, sizeof buf, &buf), CL_INVALID_ARG_VALUE);
    cr_assert_eq(clSetKernelArg(plain, 2, sizeof none, &none), CL_INVALID_MEM_OBJECT);
    cr_assert_eq(clSetKernelArg(plain, 2, sizeof elsewhere, &elsewhere), CL_INVALID_MEM_OBJECT);

    /* The values, and the pipes one at a time: an unset pipe argument stops the enqueue,
     * whether the NDRange has work-items or not. */
    cl_ulong length = 5000, period = 10, stop_at = 0;
    cr_assert_eq(clSetKernelArg(k, 0, sizeof length, &length), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 2, sizeof period, &period), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 4, sizeof stop_at, &stop_at), CL_SUCCESS);
    size_t one = 1, zero = 0;
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL),
                 CL_INVALID_KERNEL_ARGS);
    cr_assert_eq(clSetKernelArg(k, 1, sizeof in, &in), CL_SUCCESS);
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL),
                 CL_INVALID_KERNEL_ARGS);
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &zero, NULL, 0, NULL, NULL),
                 CL_INVALID_KERNEL_ARGS);
    cr_assert_eq(clSetKernelArg(k, 3, sizeof out, &out), CL_SUCCESS);

    /* The kernel does not hold its pipes; the command does, until it ends. */
    cl_uint refs;
    cr_assert_eq(clGetMemObjectInfo(in, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL), 0);
    cr_assert_eq(refs, 1);
    atomic_store(&pipes_destroyed, 0);
    cr_assert_eq(clSetMemObjectDestructorCallback(in, on_pipe_gone, NULL), CL_SUCCESS);
    cr_assert_eq(clSetMemObjectDestructorCallback(out, on_pipe_gone, NULL), CL_SUCCESS);
    cl_event e;
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, &e), CL_SUCCESS);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    cr_assert_eq(clWaitForEvents(1, &e), CL_SUCCESS);
    cl_int st;
    cr_assert_eq(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
                 CL_SUCCESS);
    cr_assert_eq(st, CL_COMPLETE);
    cr_assert_eq(busy_cycles(e), length, "the argument area holds the values as set");
    cr_assert_eq(clFinish(q), CL_SUCCESS);
    clReleaseEvent(e);
    cr_assert_eq(atomic_load(&pipes_destroyed), 2, "the command gave its pipes back");

    clReleaseKernel(plain);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(buf);
    clReleaseMemObject(wide);
    clReleaseMemObject(elsewhere);
    clReleaseCommandQueue(q);
    clReleaseContext(other);
    clReleaseContext(c);
}

/* Copies file from to to; 0 on success. */
static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[65536];
    size_t n;
    int bad = !in || !out;
    while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0)
        bad = fwrite(buf, 1, n, out) != n;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        bad = 1;
    return bad ? -1 : 0;
}

/* Unpacking a program binary whose entry is already in the cache (a host program that
 * loads its cached binaries, as PyOpenCL does, every time but the first) says nothing:
 * the message comes back empty whatever the buffer held before, so the build log of
 * such a program is empty (it was "clhls: " and stale stack bytes). */
Test(device, binary_unpacked_again_says_nothing)
{
    char entry[600], from[600], to[700], err[512];
    path_of(entry, sizeof entry, "entry");
    mkdir(entry, 0755);
    path_of(from, sizeof from, "metadata.json");
    snprintf(to, sizeof to, "%s/metadata.json", entry);
    cr_assert_eq(copy_file(from, to), 0);
    path_of(from, sizeof from, "spin.so");
    snprintf(to, sizeof to, "%s/model.so", entry);
    cr_assert_eq(copy_file(from, to), 0);
    cr_assert_eq(hls_manifest_write(entry), 0);
    unsigned char *blob = NULL;
    size_t len = 0;
    cr_assert_eq(rt_binary_pack(entry, "sim_dc", &blob, &len, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < 3; i++) { /* the first may unpack, the others find the entry */
        memset(err, 'x', sizeof err - 1);
        err[sizeof err - 1] = '\0';
        char *dir = rt_binary_unpack(blob, len, err, sizeof err);
        cr_assert_not_null(dir, "%s", err);
        cr_assert_str_eq(err, "", "unpacking %d said '%.20s'", i, err);
        rt_free(dir);
    }
    rt_free(blob);
}

/* ---- buffer placement on the memory ports ---- */

/* Writes boards/NAME.json into the temporary directory: sim_dc with memory.ports,
 * size_bytes and max_alloc_bytes as given, and makes it the default board of this test's
 * process (CLHLS_BOARD_DIR, CLHLS_BOARD) before the platform is created. */
static void use_ports_board(const char *name, unsigned ports, uint64_t size,
                            uint64_t max_alloc)
{
    char err[512], bdir[600], path[700];
    board_t *base = board_load("sim_dc", err, sizeof err);
    cr_assert_not_null(base, "%s", err);
    unsigned char *text = rt_read_file(base->path, NULL);
    cr_assert_not_null(text, "%s", base->path);
    board_free(base);
    cJSON *root = cJSON_Parse((const char *)text);
    rt_free(text);
    cr_assert_not_null(root);
    cJSON_ReplaceItemInObject(root, "name", cJSON_CreateString(name));
    cJSON *mem = cJSON_GetObjectItem(root, "memory");
    cr_assert_not_null(mem);
    cJSON_ReplaceItemInObject(mem, "ports", cJSON_CreateNumber(ports));
    cJSON_ReplaceItemInObject(mem, "size_bytes", cJSON_CreateNumber((double)size));
    cJSON_ReplaceItemInObject(mem, "max_alloc_bytes", cJSON_CreateNumber((double)max_alloc));
    char *out = cJSON_Print(root);
    cJSON_Delete(root);
    cr_assert_not_null(out);
    path_of(bdir, sizeof bdir, "boards");
    mkdir(bdir, 0755);
    snprintf(path, sizeof path, "%s/%s.json", bdir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(out, f);
    fclose(f);
    free(out);
    setenv("CLHLS_BOARD_DIR", bdir, 1);
    setenv("CLHLS_BOARD", name, 1);
    unsetenv("CLHLS_BOARDS");
}

/* The platform's first device, which must be on board name, and a context on it. */
static cl_context ports_context(const char *name, cl_device_id *d)
{
    cl_platform_id plat = rt_platform();
    cr_assert_geq(plat->ndevices, 1);
    *d = plat->devices[0];
    cr_assert_str_eq((*d)->board->name, name, "the platform was created before the test");
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, d, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    return c;
}

/* A buffer of size bytes created with flags, which must succeed. */
static cl_mem new_buffer(cl_context c, cl_mem_flags flags, size_t size)
{
    cl_int err;
    cl_mem m = clCreateBuffer(c, flags, size, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateBuffer(%#llx, %zu): %d", (unsigned long long)flags,
                 size, err);
    return m;
}

/* m's device address lies inside port's range, past its reserved start, aligned, and
 * ends inside the range. */
static void assert_on_port(cl_device_id d, cl_mem m, unsigned port)
{
    const board_t *b = d->board;
    uint64_t span = board_port_span(b), a = m->addr[0];
    cr_assert_eq(board_port_of(b, a), port, "address %#llx: port %u, not %u",
                 (unsigned long long)a, board_port_of(b, a), port);
    cr_assert_geq(a, port * span + BOARD_PORT_RESERVED, "address %#llx",
                  (unsigned long long)a);
    cr_assert_leq(a + m->size, (port + 1) * span, "address %#llx", (unsigned long long)a);
    cr_assert_eq(a % HLS_BUFFER_ALIGN, 0);
}

#define GIB ((uint64_t)1 << 30)

/* Four ports of 4 GiB: buffers go round robin to ports 0, 1, 2, 3, 0 by allocation
 * order, each at the start of its port's range past the reserved bytes; the fifth
 * follows the first with the guard gap between them; a released buffer's room is
 * found again on its port. */
Test(device, buffers_round_robin_over_ports)
{
    use_ports_board("ports4", 4, 16 * GIB, GIB);
    cl_device_id d;
    cl_context c = ports_context("ports4", &d);
    cr_assert_eq(d->board->mem_ports, 4);
    cr_assert_eq(board_port_span(d->board), 4 * GIB);
    cl_mem m[5];
    for (unsigned i = 0; i < 5; i++) {
        m[i] = new_buffer(c, CL_MEM_READ_WRITE, 1000 + i);
        assert_on_port(d, m[i], i % 4);
    }
    for (unsigned i = 0; i < 4; i++)
        cr_assert_eq(m[i]->addr[0], i * 4 * GIB + BOARD_PORT_RESERVED, "buffer %u", i);
    cr_assert_eq(m[4]->addr[0], BOARD_PORT_RESERVED + 4096 + 4096, "first fit after buffer 0");
    /* the sixth goes to port 1, after buffer 1 */
    cl_mem sixth = new_buffer(c, 0, 64);
    assert_on_port(d, sixth, 1);
    cr_assert_eq(sixth->addr[0], 4 * GIB + BOARD_PORT_RESERVED + 8192);
    /* buffer 2's room on port 2 is free again for the seventh (port 2) */
    uint64_t freed = m[2]->addr[0];
    clReleaseMemObject(m[2]);
    cl_mem seventh = new_buffer(c, 0, 4096);
    cr_assert_eq(seventh->addr[0], freed);
    clReleaseMemObject(seventh);
    clReleaseMemObject(sixth);
    for (unsigned i = 0; i < 5; i++)
        if (i != 2)
            clReleaseMemObject(m[i]);
    clReleaseContext(c);
}

/* Intel's CL_CHANNEL_n_INTELFPGA (n << 16) puts a buffer on port n - 1 and leaves the
 * round robin where it was; CL_MEM_FLAGS reports it; a channel past the ports is
 * CL_INVALID_VALUE; clCreateBufferWithProperties takes it too; a sub-buffer lies in its
 * parent's port and may name only its channel. */
Test(device, channel_flags_choose_the_port)
{
    use_ports_board("ports4", 4, 16 * GIB, GIB);
    cl_device_id d;
    cl_context c = ports_context("ports4", &d);
    cr_assert_eq(CL_CHANNEL_3_INTELFPGA, 0x30000, "Intel's cl_ext_intelfpga.h value");
    cl_mem three = new_buffer(c, CL_CHANNEL_3_INTELFPGA, 256);
    assert_on_port(d, three, 2);
    cr_assert_eq(three->addr[0], 2 * 4 * GIB + BOARD_PORT_RESERVED);
    cl_mem_flags got = 0;
    cr_assert_eq(clGetMemObjectInfo(three, CL_MEM_FLAGS, sizeof got, &got, NULL), CL_SUCCESS);
    cr_assert_eq(got, CL_MEM_READ_WRITE | CL_CHANNEL_3_INTELFPGA);
    cl_mem four = new_buffer(c, CL_MEM_READ_ONLY | CL_CHANNEL_4_INTELFPGA, 256);
    assert_on_port(d, four, 3);
    cl_mem one = new_buffer(c, CL_CHANNEL_1_INTELFPGA, 256);
    assert_on_port(d, one, 0);
    cl_mem again = new_buffer(c, CL_CHANNEL_3_INTELFPGA, 256);
    assert_on_port(d, again, 2);
    cr_assert_eq(again->addr[0], three->addr[0] + 4096 + 4096);
    /* explicit channels did not move the round robin: the next goes to port 0 */
    cl_mem auto0 = new_buffer(c, CL_CHANNEL_AUTO_INTELFPGA, 256);
    assert_on_port(d, auto0, 0);
    cl_mem auto1 = new_buffer(c, 0, 256);
    assert_on_port(d, auto1, 1);

    cl_int err = CL_SUCCESS;
    cr_assert_null(clCreateBuffer(c, CL_CHANNEL_5_INTELFPGA, 256, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cr_assert_null(clCreateBuffer(c, CL_CHANNEL_7_INTELFPGA, 256, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cr_assert_null(clCreateBuffer(c, (cl_mem_flags)1 << 19, 256, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE, "bits past the field stay unknown");

    const cl_mem_properties none[] = {0};
    cl_mem withp = clCreateBufferWithProperties(c, none, CL_CHANNEL_2_INTELFPGA, 256, NULL,
                                                &err);
    cr_assert_eq(err, CL_SUCCESS);
    assert_on_port(d, withp, 1);
    cr_assert_null(clCreateBufferWithProperties(c, none, CL_CHANNEL_6_INTELFPGA, 256, NULL,
                                                &err));
    cr_assert_eq(err, CL_INVALID_VALUE);

    cl_buffer_region r = {4096, 64};
    cl_mem big3 = new_buffer(c, CL_CHANNEL_3_INTELFPGA, 8192);
    cl_mem sub = clCreateSubBuffer(big3, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    cr_assert_eq(err, CL_SUCCESS);
    assert_on_port(d, sub, 2);
    cr_assert_eq(sub->addr[0], big3->addr[0] + 4096);
    cr_assert_eq(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof got, &got, NULL), CL_SUCCESS);
    cr_assert_eq(got & RT_MEM_CHANNEL_MASK, CL_CHANNEL_3_INTELFPGA);
    cl_mem sub3 = clCreateSubBuffer(big3, CL_CHANNEL_3_INTELFPGA, CL_BUFFER_CREATE_TYPE_REGION,
                                    &r, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_null(clCreateSubBuffer(big3, CL_CHANNEL_2_INTELFPGA,
                                     CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);

    cl_mem all[] = {sub3, sub, big3, withp, auto1, auto0, again, one, four, three};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseMemObject(all[i]);
    clReleaseContext(c);
}

/* Four ports of 1 MiB: a port filled up passes the round robin's buffer on to the next
 * port; a channel asked for whose port is full fails the allocation. */
Test(device, full_port_passes_to_the_next)
{
    const uint64_t span = (uint64_t)1 << 20, room = span - BOARD_PORT_RESERVED;
    use_ports_board("ports4_small", 4, 4 * span, room);
    cl_device_id d;
    cl_context c = ports_context("ports4_small", &d);
    cl_mem full0 = new_buffer(c, CL_CHANNEL_1_INTELFPGA, room);
    assert_on_port(d, full0, 0);
    cl_int err = CL_SUCCESS;
    cr_assert_null(clCreateBuffer(c, CL_CHANNEL_1_INTELFPGA, 64, NULL, &err));
    cr_assert_eq(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    cl_mem a = new_buffer(c, 0, 64); /* port 0 is full: port 1 */
    assert_on_port(d, a, 1);
    cl_mem b = new_buffer(c, 0, 64); /* port 1 */
    assert_on_port(d, b, 1);
    cr_assert_eq(b->addr[0], a->addr[0] + 8192);
    cl_mem full3 = new_buffer(c, CL_CHANNEL_4_INTELFPGA, room);
    cl_mem e = new_buffer(c, 0, 64); /* port 2 */
    assert_on_port(d, e, 2);
    cl_mem f = new_buffer(c, 0, 64); /* port 3 is full, port 0 too: port 1 */
    assert_on_port(d, f, 1);
    cl_mem all[] = {f, e, full3, b, a, full0};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseMemObject(all[i]);
    clReleaseContext(c);
}

/* A one-port board keeps its layout: first fit from 0x10000, 4096-byte alignment and
 * guard gaps; CL_CHANNEL_1_INTELFPGA is its port, CL_CHANNEL_2_INTELFPGA
 * CL_INVALID_VALUE. */
Test(device, one_port_layout_unchanged)
{
    unsetenv("CLHLS_BOARD");
    unsetenv("CLHLS_BOARDS");
    cl_device_id d;
    cl_context c = ports_context("sim_dc", &d);
    cr_assert_eq(d->board->mem_ports, 1);
    cl_mem a = new_buffer(c, 0, 100);
    cl_mem b = new_buffer(c, 0, 4096);
    cl_mem e = new_buffer(c, 0, 5000);
    cr_assert_eq(a->addr[0], 0x10000);
    cr_assert_eq(b->addr[0], 0x12000);
    cr_assert_eq(e->addr[0], 0x14000);
    cl_mem f = new_buffer(c, CL_CHANNEL_1_INTELFPGA, 64);
    cr_assert_eq(f->addr[0], 0x17000);
    clReleaseMemObject(b);
    cl_mem g = new_buffer(c, 0, 64);
    cr_assert_eq(g->addr[0], 0x12000, "first fit: the hole buffer b left");
    cl_int err = CL_SUCCESS;
    cr_assert_null(clCreateBuffer(c, CL_CHANNEL_2_INTELFPGA, 64, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    cl_mem all[] = {g, f, e, a};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseMemObject(all[i]);
    clReleaseContext(c);
}
