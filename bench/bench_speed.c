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
 * LUTs and flip-flops are printed. Names on the command line pick kernels. Prints a
 * table; asserts nothing about time. */
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
    char note[160];           /* why something is missing */
} result;

/* The arguments a kernel runs with: buffers of n elements and scalars. */
typedef struct kernel_spec {
    const char *name;         /* kernel function name */
    const char *src;          /* its source (generated for the polynomials) */
    cl_uint dim;              /* NDRange dimensions */
    size_t global[2];         /* global size */
    size_t local[2];          /* local size */
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
        cl_ulong start, end;
        CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
        if (st != CL_COMPLETE)
            snprintf(r->note, sizeof r->note, "kernel ended with status %d", st);
        else if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                         NULL) == CL_SUCCESS &&
                 clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                         NULL) == CL_SUCCESS &&
                 end >= start && b->mhz && (r->wall <= 0 || wall < r->wall)) {
            r->cycles = (double)(end - start) * b->mhz / 1000.0;
            r->wall = wall;
        }
        clReleaseEvent(ev);
    }
    for (int i = 0; i < 3; i++)
        if (bufs[i])
            clReleaseMemObject(bufs[i]);
    clReleaseKernel(k);
    clReleaseProgram(p);
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
    int yosys = 0, picked = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--yosys"))
            yosys = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--yosys] [KERNEL...]\n", argv[0]);
            return 2;
        } else
            picked = 1;
    char *poly8 = poly_source("poly8", 8), *poly32 = poly_source("poly32", 32),
         *poly128 = poly_source("poly128", 128);
    const kernel_spec specs[] = {
        {"vadd", vadd_src, 1, {1048576, 1}, {256, 1}, args_vadd},
        {"poly8", poly8, 1, {262144, 1}, {256, 1}, args_in_out},
        {"poly32", poly32, 1, {65536, 1}, {256, 1}, args_in_out},
        {"poly128", poly128, 1, {65536, 1}, {256, 1}, args_in_out},
        {"mandel", mandel_src, 2, {256, 256}, {16, 16}, args_mandel},
        {"collatz", collatz_src, 1, {262144, 1}, {256, 1}, args_collatz},
        {"stencil", stencil_src, 2, {256, 256}, {16, 16}, args_in_out},
        {"fir16", fir16_src, 1, {65536, 1}, {256, 1}, args_fir16},
    };
    enum { NK = sizeof specs / sizeof *specs };
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
        r->cycles = r->wall = r->luts = r->ffs = -1;
        r->note[0] = '\0';
        if (run[i])
            measure(&b, &specs[i], yosys, r);
    }

    printf("build and simulation speed, platform \"%s\", device \"%s\" (%u MHz); builds "
           "with only the design new\n", b.platform_name, b.device_name, b.mhz);
    printf("| kernel  | Verilog lines | C++ bytes  | Verilator s | C++ s  | build s | "
           "sim cycles/s | LUT    | FF     |\n");
    printf("|---------|---------------|------------|-------------|--------|---------|"
           "--------------|--------|--------|\n");
    for (int i = 0; i < NK; i++) {
        if (!run[i])
            continue;
        const result *r = &res[i];
        char lines[32], bytes[32], vl[32], cxx[32], bld[32], speed[32], lut[32], ff[32];
        cell(lines, sizeof lines, r->verilog_lines, "%.0f");
        cell(bytes, sizeof bytes, r->cxx_bytes, "%.0f");
        cell(vl, sizeof vl, r->verilator_s, "%.2f");
        cell(cxx, sizeof cxx, r->compile_s, "%.2f");
        cell(bld, sizeof bld, r->build_s, "%.2f");
        cell(speed, sizeof speed, r->cycles > 0 && r->wall > 0 ? r->cycles / r->wall : -1,
             "%.3g");
        cell(lut, sizeof lut, r->luts, "%.0f");
        cell(ff, sizeof ff, r->ffs, "%.0f");
        printf("| %-7s | %13s | %10s | %11s | %6s | %7s | %12s | %6s | %6s |%s%s\n",
               specs[i].name, lines, bytes, vl, cxx, bld, speed, lut, ff,
               r->note[0] ? " " : "", r->note);
    }
    free(poly8);
    free(poly32);
    free(poly128);
    return bench_close(&b);
}
