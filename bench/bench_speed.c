/* Build and simulation speed as kernels grow, through the ICD: vector add, straight-line
 * polynomials of 8, 32 and 128 Horner steps (r = r * x + c written out: 16, 64 and 256
 * floating-point operations) and the control-flow benchmark kernels (bench/kernels.h).
 * Each kernel is its own program built with only the design new (Verilator's runtime is
 * compiled once beforehand, by a warm-up build). Per kernel: lines of generated
 * Verilog, bytes of generated C++, Verilator seconds, C++ compile seconds (the cache
 * entry's model.json), the whole clBuildProgram, and simulated cycles per
 * wall second of an NDRange (the event's END - START at the board clock; the best of
 * MEASURED_RUNS runs). With
 * --yosys, each design is also synthesised (`synth_xilinx -flatten`, 7-series) and its
 * LUTs and flip-flops are printed. With --callgrind (valgrind installed), each kernel
 * also runs once more, smaller, in a child process under callgrind, which counts the
 * host instructions inside sim_model_run_units (the cycle loop; exact where wall time
 * is noisy): host instructions per simulated cycle, beside the figure recorded before
 * the one-evaluation harness (commit 4d7814c), and the share of that run's cycles the
 * simulator jumped over (nothing moved in them: CLHLS_VERBOSE's count). A second table
 * then gives the host instructions of one 1-work-item launch (clEnqueueTask of a
 * one-line kernel, enqueued LAUNCHES_MORE more times in one process than in another,
 * both under callgrind, every thread counted) on clhls and on PoCL (pocl.icd; n/a
 * without it), and the cycles of clhls's launch jumped over. Names on the command line
 * pick kernels. Prints tables; asserts nothing about time. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <glob.h>
#include <unistd.h>
#include <stdint.h>

#include "bench.h"
#include "bench_tools.h"
#include "kernels.h"

#define MEASURED_RUNS 3 /* NDRanges timed per kernel, the fastest counts */
#define LAUNCHES_BASE 10  /* launches of the smaller launch-cost process */
#define LAUNCHES_MORE 100 /* how many more the larger one makes */
#define VALGRIND "/usr/bin/valgrind"

/* What one kernel measured; negative numbers are "not measured". */
typedef struct result {
    double verilog_lines;     /* lines of the generated Verilog (compute units and top) */
    double cxx_bytes;         /* C++ that Verilator generated */
    double verilator_s;       /* Verilator's seconds */
    double compile_s;         /* C++ compile seconds */
    double build_s;           /* the whole clBuildProgram */
    double cycles;            /* simulated cycles of the NDRange */
    double wall;              /* wall seconds of the NDRange */
    double luts, ffs;         /* Yosys synth_xilinx cells */
    double ipc;               /* host instructions per simulated cycle (callgrind) */
    double jumped;            /* the share of that run's cycles jumped over */
    char note[160];           /* why something is missing */
} result;

/* The arguments a kernel runs with: buffers of n elements and scalars. */
typedef struct kernel_spec {
    const char *name;         /* kernel function name */
    const char *src;          /* its source (generated for the polynomials) */
    cl_uint dim;              /* NDRange dimensions */
    size_t global[2];         /* global size */
    size_t local[2];          /* local size */
    size_t small[2];          /* global size of the run under callgrind */
    double ipc_before;        /* host instructions per simulated cycle at 4d7814c */
    void (*args)(bench *b, cl_kernel k, size_t items, cl_mem *bufs);  /* sets arguments */
} kernel_spec;

/* Buffers of `items` floats with small values; at most three, released by the caller. */
static cl_mem floats(bench *b, size_t items)
{
    float *v = xmalloc(items * sizeof *v);
    for (size_t i = 0; i < items; i++)
        v[i] = (float)(rnd() % 2048) / 1024.0f - 1.0f;
    cl_mem m = buffer(b, items * sizeof *v, v);
    free(v);
    return m;
}

static void args_in_out(bench *b, cl_kernel k, size_t items, cl_mem *bufs)
{
    bufs[0] = floats(b, items + 16);
    bufs[1] = buffer(b, items * sizeof(float), NULL);
    ARG(k, 0, bufs[0]);
    ARG(k, 1, bufs[1]);
}

static void args_vadd(bench *b, cl_kernel k, size_t items, cl_mem *bufs)
{
    bufs[0] = floats(b, items);
    bufs[1] = floats(b, items);
    bufs[2] = buffer(b, items * sizeof(float), NULL);
    for (cl_uint i = 0; i < 3; i++)
        ARG(k, i, bufs[i]);
}

static void args_mandel(bench *b, cl_kernel k, size_t items, cl_mem *bufs)
{
    float x0 = -2.0f, y0 = -1.25f, d = 2.5f / 256.0f;
    int maxit = 256;
    bufs[0] = buffer(b, items * sizeof(int), NULL);
    ARG(k, 0, bufs[0]);
    ARG(k, 1, x0);
    ARG(k, 2, y0);
    ARG(k, 3, d);
    ARG(k, 4, maxit);
}

static void args_collatz(bench *b, cl_kernel k, size_t items, cl_mem *bufs)
{
    bufs[0] = buffer(b, items * sizeof(int), NULL);
    ARG(k, 0, bufs[0]);
}

static void args_fir16(bench *b, cl_kernel k, size_t items, cl_mem *bufs)
{
    bufs[0] = floats(b, items + 16);
    bufs[1] = floats(b, 16);
    bufs[2] = buffer(b, items * sizeof(float), NULL);
    for (cl_uint i = 0; i < 3; i++)
        ARG(k, i, bufs[i]);
}

/* A straight-line polynomial of `steps` Horner steps, as kernel `name`. */
static char *poly_source(const char *name, int steps)
{
    size_t cap = 256 + (size_t)steps * 40;
    char *s = xmalloc(cap);
    size_t n = (size_t)snprintf(s, cap,
                                "#pragma OPENCL FP_CONTRACT OFF\n"
                                "__kernel void %s(__global const float *x, __global float *y)\n"
                                "{\n"
                                "    size_t i = get_global_id(0);\n"
                                "    float v = x[i], r = 0.5f;\n",
                                name);
    for (int k = 1; k <= steps; k++)
        n += (size_t)snprintf(s + n, cap - n, "    r = r * v + %d.0f;\n", k);
    snprintf(s + n, cap - n, "    y[i] = r;\n}\n");
    return s;
}

/* Reads what building the model took from the entry's model.json. */
static void read_model_report(const char *entry, result *r)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/model.json", entry);
    cJSON *j = bench_read_json(path);
    double v;
    if ((v = bench_number(j, "verilator_seconds", NULL)) >= 0)
        r->verilator_s = v;
    if ((v = bench_number(j, "compile_seconds", NULL)) >= 0)
        r->compile_s = v;
    if ((v = bench_number(j, "cxx_bytes", NULL)) >= 0)
        r->cxx_bytes = v;
    cJSON_Delete(j);
}

/* The cache entry whose compute unit is `kernel` (bench_open gives each run an empty
 * cache, and every kernel name is used once), as its directory. */
static int find_entry(const bench *b, const char *kernel, char *out, size_t len)
{
    DIR *d = opendir(b->cache);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        snprintf(out, len, "%s/%s/rtl/clhls_cu_%s.v", b->cache, e->d_name, kernel);
        if (access(out, R_OK) == 0) {
            snprintf(out, len, "%s/%s", b->cache, e->d_name);
            found = 1;
        }
    }
    if (d)
        closedir(d);
    return found ? 0 : -1;
}

/* Lines of every Verilog file in dir. */
static double count_lines(const char *dir)
{
    char pattern[4400];
    snprintf(pattern, sizeof pattern, "%s/*.v", dir);
    glob_t g;
    if (glob(pattern, 0, NULL, &g))
        return -1;
    double n = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(g.gl_pathv[i], "r");
        int c;
        while (f && (c = getc(f)) != EOF)
            n += c == '\n';
        if (f)
            fclose(f);
    }
    globfree(&g);
    return n;
}

/* Synthesises the design in rtl_dir with the templates; fills LUTs and flip-flops. */
static void synthesise(const char *rtl_dir, result *r)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "yosys -q -p 'read_verilog -I%s %s/*.v %s/clhls_*.v; "
             "synth_xilinx -top clhls_top -flatten; tee -o /dev/stdout stat' 2>&1",
             RTL_DIR, rtl_dir, RTL_DIR);
    FILE *f = popen(cmd, "r");
    if (!f)
        return;
    char line[512];
    r->luts = r->ffs = 0;
    while (fgets(line, sizeof line, f)) {
        char cell[64];
        double count;
        if (sscanf(line, " %63s %lf", cell, &count) != 2)
            continue;
        if (!strncmp(cell, "LUT", 3) && cell[3] >= '1' && cell[3] <= '6' && !cell[4])
            r->luts += count;
        else if (!strncmp(cell, "FD", 2) && strlen(cell) == 4)
            r->ffs += count;
    }
    if (pclose(f) != 0) {
        r->luts = r->ffs = -1;
        snprintf(r->note, sizeof r->note, "yosys failed");
    }
}

static void measure(bench *b, const kernel_spec *s, int yosys, result *r)
{
    cl_int err;
    cl_program p = bench_build(b, s->name, s->src, &r->build_s, r->note, sizeof r->note);
    if (!p) {
        r->build_s = -1;
        return;
    }
    char entry[4200], rtl[4300];
    if (find_entry(b, s->name, entry, sizeof entry) == 0) {
        read_model_report(entry, r);
        snprintf(rtl, sizeof rtl, "%s/rtl", entry);
        r->verilog_lines = count_lines(rtl);
        if (yosys)
            synthesise(rtl, r);
    }

    cl_kernel k = clCreateKernel(p, s->name, &err);
    CHECK(err);
    size_t items = s->global[0] * (s->dim > 1 ? s->global[1] : 1);
    cl_mem bufs[3] = {NULL, NULL, NULL};
    s->args(b, k, items, bufs);
    /* The first NDRange loads the model; the best of the next MEASURED_RUNS counts
     * (a run of 65,536 cycles takes tens of milliseconds: one scheduler hiccup would
     * show). */
    CHECK(clEnqueueNDRangeKernel(b->q, k, s->dim, NULL, s->global, s->local, 0, NULL, NULL));
    CHECK(clFinish(b->q));
    for (int run = 0; run < MEASURED_RUNS && !r->note[0]; run++) {
        cl_event ev;
        double t0 = now();
        CHECK(clEnqueueNDRangeKernel(b->q, k, s->dim, NULL, s->global, s->local, 0, NULL, &ev));
        clWaitForEvents(1, &ev);
        double wall = now() - t0;
        cl_int st;
        CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
        if (st != CL_COMPLETE)
            snprintf(r->note, sizeof r->note, "kernel ended with status %d", st);
        else if (b->mhz && (r->wall <= 0 || wall < r->wall)) {
            r->cycles = bench_event_cycles(ev, b->mhz);
            r->wall = wall;
        }
        clReleaseEvent(ev);
    }
    bench_release(k, p, bufs, 3);
}

/* Host instructions per simulated cycle recorded before the one-evaluation harness
 * (commit 4d7814c, this benchmark's --callgrind); -1: not recorded. */
#define IPC_VADD 3424
#define IPC_POLY8 -1
#define IPC_POLY32 -1
#define IPC_POLY128 12391
#define IPC_MANDEL 3610
#define IPC_COLLATZ 2936
#define IPC_STENCIL 8698
#define IPC_FIR16 12304
/* Host instructions of one 1-work-item launch at 4d7814c (clhls), -1: not recorded. */
#define LAUNCH_BEFORE 506537

/* The kernel a launch costs: one work-item, one load and one store. */
static const char *one_src = "__kernel void one(__global int *p)\n"
                                   "{\n"
                                   "    p[get_global_id(0)] += 1;\n"
                                   "}\n";

/* The path of this program. */
static void self_path(char *path, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", path, len - 1);
    path[n > 0 ? n : 0] = '\0';
}

/* The callgrind total of the profile at path ("totals:" or "summary:"), -1 if none. */
static double callgrind_total(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    double total = -1, v;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "totals: %lf", &v) == 1 || sscanf(line, "summary: %lf", &v) == 1)
            total = v;
    if (f)
        fclose(f);
    return total;
}

/* The number after "clhls-child NAME " in the log at path, -1 if none. */
static double child_value(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    char line[512], key[64];
    double v, found = -1;
    snprintf(key, sizeof key, "clhls-child %s %%lf", name);
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, key, &v) == 1)
            found = v;
    if (f)
        fclose(f);
    return found;
}

/* The cycles the child's last kernel run jumped over (its CLHLS_VERBOSE line), -1 if
 * none was printed. */
static double child_jumped(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    double v, found = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "clhls: kernel '%*[^']': %lf of its cycles jumped over", &v) == 1)
            found = v;
    if (f)
        fclose(f);
    return found;
}

/* Runs this program as `self ARGS...` under callgrind (collecting inside `toggle`
 * only, or everything when it is NULL), its output in dir/tag.log; returns the total
 * of instructions counted, -1 on failure. */
static double under_callgrind(const char *dir, const char *tag, const char *toggle,
                              char *const args[])
{
    char self[4096], out[512], log[512], outopt[600], toggleopt[200];
    self_path(self, sizeof self);
    snprintf(out, sizeof out, "%s/%s.callgrind", dir, tag);
    snprintf(log, sizeof log, "%s/%s.log", dir, tag);
    snprintf(outopt, sizeof outopt, "--callgrind-out-file=%s", out);
    snprintf(toggleopt, sizeof toggleopt, "--toggle-collect=%s", toggle ? toggle : "");
    char *argv[16] = {VALGRIND, "--tool=callgrind", outopt};
    int n = 3;
    if (toggle)
        argv[n++] = toggleopt;
    argv[n++] = self;
    for (int i = 0; args[i] && n < 15; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    int st = bench_spawn(argv, log);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    return callgrind_total(out);
}

/* Host instructions per simulated cycle of kernel s: its small NDRange run once under
 * callgrind, counted inside the cycle loop (sim_model_run_units), over its cycles. */
static void measure_ipc(bench *b, const kernel_spec *s, result *r)
{
    char name[64], log[512];
    snprintf(name, sizeof name, "%s", s->name);
    char *args[] = {"--child-cycles", name, NULL};
    double ir = under_callgrind(b->cache, s->name, "sim_model_run_units", args);
    snprintf(log, sizeof log, "%s/%s.log", b->cache, s->name);
    double cycles = child_value(log, "cycles"), jumped = child_jumped(log);
    if (jumped >= 0 && cycles > 0)
        r->jumped = jumped / cycles;
    if (ir > 0 && cycles > 0)
        r->ipc = ir / cycles;
    else if (!r->note[0])
        snprintf(r->note, sizeof r->note, "callgrind run failed (see %s.log)", s->name);
}

/* Child: kernel s at its small size, once, in the parent's build cache (a hit); prints
 * the simulated cycles (and the runtime, the cycles jumped over). */
static int child_cycles(const kernel_spec *s)
{
    setenv("CLHLS_VERBOSE", "1", 1);
    bench b;
    bench_open_cache(&b, ICD_FILE, getenv("CLHLS_CACHE_DIR"));
    double seconds;
    char note[160] = "";
    cl_program p = bench_build(&b, s->name, s->src, &seconds, note, sizeof note);
    if (!p)
        return 1;
    cl_int err;
    cl_kernel k = clCreateKernel(p, s->name, &err);
    CHECK(err);
    size_t items = s->small[0] * (s->dim > 1 ? s->small[1] : 1);
    cl_mem bufs[3] = {NULL, NULL, NULL};
    s->args(&b, k, items, bufs);
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(b.q, k, s->dim, NULL, s->small, s->local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    printf("clhls-child cycles %.0f\n", bench_event_cycles(ev, b.mhz));
    clReleaseEvent(ev);
    bench_release(k, p, bufs, 3);
    return bench_close(&b);
}

/* Child: `one` launched as a task `launches` times after a first launch, one
 * clFinish, on the first platform whose name holds `platform`; prints the simulated
 * cycles of the last launch (profiling at the device clock) and checks the count. */
static int child_launches(const char *platform, long launches)
{
    cl_platform_id p = bench_find_platform(platform);
    if (!p) {
        fprintf(stderr, "no platform named %s\n", platform);
        return 1;
    }
    cl_device_id dev;
    cl_int err;
    cl_uint mhz = 0;
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    clGetDeviceInfo(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &one_src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "one", &err);
    CHECK(err);
    int zero = 0;
    cl_mem counter = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero,
                                    &zero, &err);
    CHECK(err);
    ARG(k, 0, counter);
    cl_event ev = NULL;
    for (long i = 0; i <= launches; i++) {
        if (ev)
            clReleaseEvent(ev);
        CHECK(clEnqueueTask(q, k, 0, NULL, &ev));
        if (i == 0)
            CHECK(clFinish(q));
    }
    CHECK(clFinish(q));
    double cycles = bench_event_cycles(ev, mhz);
    clReleaseEvent(ev);
    int got = 0;
    CHECK(clEnqueueReadBuffer(q, counter, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    if (got != launches + 1) {
        fprintf(stderr, "the kernel ran %d times, expected %ld\n", got, launches + 1);
        return 1;
    }
    printf("clhls-child cycles %.0f\n", cycles);
    clReleaseMemObject(counter);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}

/* Host instructions of one launch on the platform named `platform` (its .icd file):
 * a process launching LAUNCHES_BASE + LAUNCHES_MORE times less one launching
 * LAUNCHES_BASE times, both under callgrind after a run outside it (which fills the
 * build caches); *cycles gets the simulated cycles of a launch and *jumped those of
 * them jumped over (clhls). */
static double launch_cost(const char *dir, const char *icd, const char *platform,
                          double *cycles, double *jumped)
{
    char *old = getenv("OCL_ICD_VENDORS");
    char saved[4096];
    snprintf(saved, sizeof saved, "%s", old ? old : "");
    setenv("OCL_ICD_VENDORS", icd, 1);
    char self[4096], base[32], more[32], plat[64], log[512];
    self_path(self, sizeof self);
    snprintf(base, sizeof base, "%d", LAUNCHES_BASE);
    snprintf(more, sizeof more, "%d", LAUNCHES_BASE + LAUNCHES_MORE);
    snprintf(plat, sizeof plat, "%s", platform);
    char *warm[] = {self, "--child-launches", plat, base, NULL};
    snprintf(log, sizeof log, "%s/launch-warm-%s.log", dir, platform);
    char *verbose = getenv("CLHLS_VERBOSE"), was[64];
    snprintf(was, sizeof was, "%s", verbose ? verbose : "");
    setenv("CLHLS_VERBOSE", "1", 1); /* its cycles jumped over (not under callgrind) */
    int st = bench_spawn(warm, log);
    if (verbose)
        setenv("CLHLS_VERBOSE", was, 1);
    else
        unsetenv("CLHLS_VERBOSE");
    double cost = -1;
    *cycles = *jumped = -1;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        char tag_few[64], tag_many[64];
        snprintf(tag_few, sizeof tag_few, "launch-%s-few", platform);
        snprintf(tag_many, sizeof tag_many, "launch-%s-many", platform);
        char *few_args[] = {"--child-launches", plat, base, NULL};
        char *many_args[] = {"--child-launches", plat, more, NULL};
        double few = under_callgrind(dir, tag_few, NULL, few_args);
        double many = under_callgrind(dir, tag_many, NULL, many_args);
        if (few > 0 && many > few)
            cost = (many - few) / LAUNCHES_MORE;
        *cycles = child_value(log, "cycles");
        *jumped = child_jumped(log);
    }
    if (old)
        setenv("OCL_ICD_VENDORS", saved, 1);
    else
        unsetenv("OCL_ICD_VENDORS");
    return cost;
}

/* Builds a trivial program so that Verilator's runtime library is compiled before the
 * measured builds. */
static void warm_up(bench *b)
{
    const char *src = "__kernel void warm_up(__global int *o) { o[get_global_id(0)] = 1; }\n";
    cl_int err;
    cl_program p = clCreateProgramWithSource(b->ctx, 1, &src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(p, 1, &b->dev, NULL, NULL, NULL));
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    int yosys = 0, grind = 0, picked = 0;
    const char *child = NULL;
    if (argc == 3 && !strcmp(argv[1], "--child-cycles"))
        child = argv[2];
    else if (argc == 4 && !strcmp(argv[1], "--child-launches"))
        return child_launches(argv[2], atol(argv[3]));
    for (int i = 1; i < argc && !child; i++)
        if (!strcmp(argv[i], "--yosys"))
            yosys = 1;
        else if (!strcmp(argv[i], "--callgrind"))
            grind = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--yosys] [--callgrind] [KERNEL...]\n", argv[0]);
            return 2;
        } else
            picked = 1;
    if (grind && access(VALGRIND, X_OK) != 0) {
        fprintf(stderr, "%s: no %s; measuring without --callgrind\n", argv[0], VALGRIND);
        grind = 0;
    }
    char *poly8 = poly_source("poly8", 8), *poly32 = poly_source("poly32", 32),
         *poly128 = poly_source("poly128", 128);
    const kernel_spec specs[] = {
        {"vadd", vadd_src, 1, {1048576, 1}, {256, 1}, {16384, 1}, IPC_VADD, args_vadd},
        {"poly8", poly8, 1, {262144, 1}, {256, 1}, {8192, 1}, IPC_POLY8, args_in_out},
        {"poly32", poly32, 1, {65536, 1}, {256, 1}, {8192, 1}, IPC_POLY32, args_in_out},
        {"poly128", poly128, 1, {65536, 1}, {256, 1}, {4096, 1}, IPC_POLY128, args_in_out},
        {"mandel", mandel_src, 2, {256, 256}, {16, 16}, {64, 64}, IPC_MANDEL, args_mandel},
        {"collatz", collatz_src, 1, {262144, 1}, {256, 1}, {8192, 1}, IPC_COLLATZ,
         args_collatz},
        {"stencil", stencil_src, 2, {256, 256}, {16, 16}, {64, 64}, IPC_STENCIL, args_in_out},
        {"fir16", fir16_src, 1, {65536, 1}, {256, 1}, {8192, 1}, IPC_FIR16, args_fir16},
    };
    enum { NK = sizeof specs / sizeof *specs };
    if (child) {
        for (int i = 0; i < NK; i++)
            if (!strcmp(child, specs[i].name))
                return child_cycles(&specs[i]);
        return 2;
    }
    int run[NK];
    for (int i = 0; i < NK; i++) {
        run[i] = !picked;
        for (int a = 1; a < argc; a++)
            run[i] |= !strcmp(argv[a], specs[i].name);
    }

    bench b;
    bench_open(&b, ICD_FILE);
    warm_up(&b);
    result res[NK];
    for (int i = 0; i < NK; i++) {
        result *r = &res[i];
        r->verilog_lines = r->cxx_bytes = r->verilator_s = r->compile_s = r->build_s = -1;
        r->cycles = r->wall = r->luts = r->ffs = r->ipc = r->jumped = -1;
        r->note[0] = '\0';
        if (run[i])
            measure(&b, &specs[i], yosys, r);
        if (run[i] && grind && r->build_s >= 0)
            measure_ipc(&b, &specs[i], r);
    }

    printf("build and simulation speed, platform \"%s\", device \"%s\" (%u MHz); builds "
           "with only the design new\n", b.platform_name, b.device_name, b.mhz);
    printf("| kernel  | Verilog lines | C++ bytes  | Verilator s | C++ s  | build s | "
           "sim cycles/s | LUT    | FF     |%s\n",
           grind ? " host instr/cycle | at 4d7814c | jumped |" : "");
    printf("|---------|---------------|------------|-------------|--------|---------|"
           "--------------|--------|--------|%s\n",
           grind ? "------------------|------------|--------|" : "");
    for (int i = 0; i < NK; i++) {
        if (!run[i])
            continue;
        const result *r = &res[i];
        char lines[32], bytes[32], vl[32], cxx[32], bld[32], speed[32], lut[32], ff[32],
            ipc[32], before[32], jumped[32], grind_cells[128] = "";
        cell(lines, sizeof lines, r->verilog_lines, "%.0f");
        cell(bytes, sizeof bytes, r->cxx_bytes, "%.0f");
        cell(vl, sizeof vl, r->verilator_s, "%.2f");
        cell(cxx, sizeof cxx, r->compile_s, "%.2f");
        cell(bld, sizeof bld, r->build_s, "%.2f");
        cell(speed, sizeof speed, r->cycles > 0 && r->wall > 0 ? r->cycles / r->wall : -1,
             "%.3g");
        cell(lut, sizeof lut, r->luts, "%.0f");
        cell(ff, sizeof ff, r->ffs, "%.0f");
        cell(ipc, sizeof ipc, r->ipc, "%.0f");
        cell(before, sizeof before, specs[i].ipc_before, "%.0f");
        cell(jumped, sizeof jumped, r->jumped >= 0 ? 100 * r->jumped : -1, "%.1f%%");
        if (grind)
            snprintf(grind_cells, sizeof grind_cells, " %16s | %10s | %6s |", ipc, before,
                     jumped);
        printf("| %-7s | %13s | %10s | %11s | %6s | %7s | %12s | %6s | %6s |%s%s%s\n",
               specs[i].name, lines, bytes, vl, cxx, bld, speed, lut, ff, grind_cells,
               r->note[0] ? " " : "", r->note);
    }

    if (grind) {
        double cyc_clhls, cyc_pocl, jump_clhls, jump_pocl;
        double clhls = launch_cost(b.cache, ICD_FILE, "clhls", &cyc_clhls, &jump_clhls);
        double pocl = access(POCL_ICD_FILE, R_OK) == 0
                          ? launch_cost(b.cache, POCL_ICD_FILE, "Portable", &cyc_pocl, &jump_pocl)
                          : -1;
        char c_clhls[32], c_pocl[32], c_cyc[32], c_jump[32], c_before[32], c_ratio[32];
        cell(c_clhls, sizeof c_clhls, clhls, "%.0f");
        cell(c_pocl, sizeof c_pocl, pocl, "%.0f");
        cell(c_cyc, sizeof c_cyc, cyc_clhls, "%.0f");
        cell(c_jump, sizeof c_jump, jump_clhls, "%.0f");
        cell(c_before, sizeof c_before, LAUNCH_BEFORE, "%.0f");
        cell(c_ratio, sizeof c_ratio, clhls > 0 && pocl > 0 ? clhls / pocl : -1, "%.2fx");
        printf("\nhost instructions of one 1-work-item launch (clEnqueueTask of `one`, "
               "pipelined: %d launches more, one clFinish; callgrind, every thread)\n",
               LAUNCHES_MORE);
        printf("| clhls      | simulated cycles | jumped over | clhls at 4d7814c | PoCL       "
               "| clhls/PoCL |\n");
        printf("|------------|------------------|-------------|------------------|------------"
               "|------------|\n");
        printf("| %10s | %16s | %11s | %16s | %10s | %10s |\n", c_clhls, c_cyc, c_jump,
               c_before, c_pocl, c_ratio);
    }
    free(poly8);
    free(poly32);
    free(poly128);
    return bench_close(&b);
}
