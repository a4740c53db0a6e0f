/* Synthesis for the real boards: each benchmark kernel (a store per work-item, vector
 * add, Collatz, a 4-tap FIR, Mandelbrot; bench/kernels.h) and each example program's
 * kernels (examples/NAME/NAME.cl, "ex:NAME") on each board with a Yosys flow (every
 * board file; the default, sim_dc, is the U250's FPGA flattened), through `clhls
 * synth`. Per kernel and board: LUTs, FFs, BRAMs, DSPs, the fmax (routed by place and
 * route, or estimated from the longest path and the family's delay model; for a routed
 * one the model's estimate beside it), the critical path's logic levels and ends, the
 * seconds synthesis took, the cycles per work-item of one NDRange simulated on that
 * board's device (the event's END - START at the board clock, divided by the
 * work-items; the benchmark kernels only) and the time per work-item at the fmax
 * reached. A design that
 * does not fit shows what it needs and "does not fit". Names on the command line pick
 * kernels and boards. Prints a table; asserts nothing. */
#define _GNU_SOURCE
#include "bench.h"
#include "bench_tools.h"
#include "kernels.h"

#define ITEMS 4096  /* work-items of each NDRange: small enough for a 128 KB board */
#define LOCAL 64    /* work-group size: the smallest board's largest */

static const char *const fill_src =
    "__kernel void fill(__global int *a)\n"
    "{\n"
    "    a[get_global_id(0)] = 1;\n"
    "}\n";

/* What one kernel on one board measured; negative numbers are "not measured". */
typedef struct result {
    double lut, ff, bram, dsp;  /* resources used */
    double fmax;                /* MHz */
    int routed;                 /* 1 = fmax after place and route */
    int fits;                   /* 1 = fits the board */
    double seconds;             /* synthesis (and place and route) seconds */
    double estimate;            /* the delay model's fmax, MHz (beside a routed one) */
    double levels;              /* logic levels of the critical path */
    char path[200];             /* its ends, in the kernel's terms */
    double cycles_per_item;     /* simulated cycles per work-item */
    char note[160];             /* why something is missing */
} result;

/* A kernel and how it is launched. */
typedef struct kernel_spec {
    const char *name;           /* kernel function name */
    const char *src;            /* its source */
    cl_uint dim;                /* NDRange dimensions */
    size_t global[2];           /* global size (ITEMS work-items) */
    size_t local[2];            /* local size (LOCAL work-items) */
    int nbufs;                  /* buffers: 0..2 floats of ITEMS + 16, the last one output */
    int mandel;                 /* 1 = Mandelbrot's scalar arguments follow the buffer */
    const char *options;        /* an example's build options (examples only) */
} kernel_spec;

static const kernel_spec specs[] = {
    {"fill", NULL, 1, {ITEMS, 1}, {LOCAL, 1}, 1, 0, NULL},
    {"vadd", NULL, 1, {ITEMS, 1}, {LOCAL, 1}, 3, 0, NULL},
    {"collatz", NULL, 1, {ITEMS, 1}, {LOCAL, 1}, 1, 0, NULL},
    {"fir4", NULL, 1, {ITEMS, 1}, {LOCAL, 1}, 3, 0, NULL},
    {"mandel", NULL, 2, {64, 64}, {8, 8}, 1, 1, NULL},
    /* the examples, synthesised only ("ex:" and the directory's name) */
    {"ex:vadd", NULL, 0, {0, 0}, {0, 0}, 0, 0, ""},
    {"ex:histogram", NULL, 0, {0, 0}, {0, 0}, 0, 0, ""},
    {"ex:transpose", NULL, 0, {0, 0}, {0, 0}, 0, 0, ""},
    {"ex:bank_conflicts", NULL, 0, {0, 0}, {0, 0}, 0, 0, ""},
    {"ex:prefix_sum", NULL, 0, {0, 0}, {0, 0}, 0, 0, "-cl-std=CL2.0"},
    {"ex:box_blur", NULL, 0, {0, 0}, {0, 0}, 0, 0, "-cl-std=CL2.0"},
    {"ex:matmul_tiled", NULL, 0, {0, 0}, {0, 0}, 0, 0, ""},
};
enum { NK = sizeof specs / sizeof *specs };

static const char *source_of(const char *name)
{
    return !strcmp(name, "fill")      ? fill_src
           : !strcmp(name, "vadd")    ? vadd_src
           : !strcmp(name, "collatz") ? collatz_src
           : !strcmp(name, "fir4")    ? fir4_src
                                      : mandel_src;
}

/* Runs `clhls synth` on the kernel for the board into dir and reads its synth.json. */
static void synthesise(const char *cache, const kernel_spec *s, const char *board, result *r)
{
    char src[4200], dir[4200], log[4300], json[4300];
    const char *example = !strncmp(s->name, "ex:", 3) ? s->name + 3 : NULL;
    if (example)
        snprintf(src, sizeof src, "%s/%s/%s.cl", EXAMPLES_DIR, example, example);
    else
        snprintf(src, sizeof src, "%s/%s.cl", cache, s->name);
    snprintf(dir, sizeof dir, "%s/synth-%s-%s", cache, example ? example : s->name, board);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(json, sizeof json, "%s/synth.json", dir);
    if (!example && bench_write_file(src, source_of(s->name))) {
        snprintf(r->note, sizeof r->note, "cannot write %.100s", src);
        return;
    }
    char *argv[] = {CLHLS_TOOL, "synth", src, "--board", (char *)board, "-o", dir,
                    "--options", (char *)(s->options ? s->options : ""), NULL};
    int status = bench_spawn(argv, log);
    cJSON *j = bench_read_json(json);
    if (!j) {
        snprintf(r->note, sizeof r->note, "clhls synth failed (status %d): see %.100s", status, log);
        return;
    }
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(j, "resources");
    r->lut = bench_number(res, "lut", "used");
    r->ff = bench_number(res, "ff", "used");
    r->bram = bench_number(res, "bram", "used");
    r->dsp = bench_number(res, "dsp", "used");
    r->seconds = bench_number(j, "seconds", NULL);
    r->fits = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "fits"));
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "fmax_kind");
    r->routed = cJSON_IsString(kind) && !strcmp(kind->valuestring, "routed");
    r->fmax = r->fits ? bench_number(j, "fmax_mhz", NULL) : -1;
    r->estimate = r->fits ? bench_number(j, "fmax_estimate_mhz", NULL) : -1;
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(j, "critical_path");
    r->levels = r->fits ? bench_number(path, "levels", NULL) : -1;
    const char *from = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(path, "from_where"));
    const char *to = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(path, "to_where"));
    if (r->fits && from && to)
        snprintf(r->path, sizeof r->path, "%.95s -> %.95s", from, to);
    const char *after = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "counted_after"));
    if (!r->fits && after)
        snprintf(r->note, sizeof r->note, "does not fit (stopped after %.40s)", after);
    else if (!r->fits)
        snprintf(r->note, sizeof r->note, "does not fit");
    cJSON_Delete(j);
}

/* Buffers of floats (ITEMS + 16, small values) as the kernel's first arguments. */
static void simulate(bench *b, const kernel_spec *s, result *r)
{
    double build_s;
    char note[160] = "";
    cl_program p = bench_build(b, s->name, source_of(s->name), &build_s, note, sizeof note);
    if (!p) {
        size_t used = strlen(r->note);
        snprintf(r->note + used, sizeof r->note - used, "%s%s", used ? "; " : "", note);
        return;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p, s->name, &err);
    CHECK(err);
    cl_mem bufs[3] = {NULL, NULL, NULL};
    float *init = xmalloc((ITEMS + 16) * sizeof *init);
    for (size_t i = 0; i < ITEMS + 16; i++)
        init[i] = (float)(rnd() % 2048) / 1024.0f - 1.0f;
    for (int i = 0; i < s->nbufs; i++) {
        bufs[i] = buffer(b, (ITEMS + 16) * sizeof(float), i + 1 < s->nbufs ? init : NULL);
        ARG(k, (cl_uint)i, bufs[i]);
    }
    free(init);
    if (s->mandel) {
        float x0 = -2.0f, y0 = -1.25f, d = 2.5f / 64.0f;
        int maxit = 64;
        ARG(k, 1, x0);
        ARG(k, 2, y0);
        ARG(k, 3, d);
        ARG(k, 4, maxit);
    }
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(b->q, k, s->dim, NULL, s->global, s->local, 0, NULL, &ev));
    clWaitForEvents(1, &ev);
    cl_int st;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    if (st != CL_COMPLETE)
        snprintf(r->note, sizeof r->note, "kernel ended with status %d", st);
    else if (b->mhz)
        r->cycles_per_item =
            bench_event_cycles(ev, b->mhz) / (double)(s->global[0] * s->global[1]);
    clReleaseEvent(ev);
    bench_release(k, p, bufs, 3);
}

/* The device of board `name` (CLHLS_BOARDS lists every board), opened like bench_open. */
static int open_board(bench *b, const char *name, const char *cache)
{
    memset(b, 0, sizeof *b);
    snprintf(b->cache, sizeof b->cache, "%s", cache);
    cl_platform_id platform;
    cl_device_id devices[32];
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 32, devices, &n));
    for (cl_uint i = 0; i < n && !b->dev; i++) {
        clGetDeviceInfo(devices[i], CL_DEVICE_NAME, sizeof b->device_name - 1, b->device_name,
                        NULL);
        size_t len = strlen(name);
        if (!strncmp(b->device_name, name, len) && b->device_name[len] == ' ')
            b->dev = devices[i];
    }
    if (!b->dev)
        return -1;
    cl_int err;
    CHECK(clGetDeviceInfo(b->dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof b->mhz, &b->mhz, NULL));
    b->ctx = clCreateContext(NULL, 1, &b->dev, NULL, NULL, &err);
    CHECK(err);
    b->q = clCreateCommandQueue(b->ctx, b->dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    return 0;
}

int main(int argc, char **argv)
{
    const char *boards[] = {"sim_dc", "alveo_u250", "de10_nano", "ulx3s_85f", "icebreaker"};
    enum { NB = sizeof boards / sizeof *boards };
    int run_kernel[NK], run_board[NB], picked_kernel = 0, picked_board = 0;
    for (int i = 0; i < NK; i++)
        run_kernel[i] = 0;
    for (int i = 0; i < NB; i++)
        run_board[i] = 0;
    for (int a = 1; a < argc; a++) {
        int known = 0;
        for (int i = 0; i < NK; i++)
            if (!strcmp(argv[a], specs[i].name))
                run_kernel[i] = picked_kernel = known = 1;
        for (int i = 0; i < NB; i++)
            if (!strcmp(argv[a], boards[i]))
                run_board[i] = picked_board = known = 1;
        if (!known) {
            fprintf(stderr, "usage: %s [KERNEL...] [BOARD...]\n  kernels: fill vadd collatz "
                            "fir4 mandel ex:vadd ex:histogram ex:transpose ex:bank_conflicts "
                            "ex:prefix_sum ex:box_blur ex:matmul_tiled;\n  boards: sim_dc "
                            "alveo_u250 de10_nano ulx3s_85f icebreaker\n", argv[0]);
            return 2;
        }
    }
    for (int i = 0; i < NK; i++)
        run_kernel[i] |= !picked_kernel;
    for (int i = 0; i < NB; i++)
        run_board[i] |= !picked_board;

    char list[256] = "";
    for (int i = 0; i < NB; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", boards[i]);
    setenv("CLHLS_BOARDS", list, 1);
    setenv("OCL_ICD_VENDORS", ICD_FILE, 0);
    char cache[] = "/tmp/clhls-bench-synth-XXXXXX";
    if (!mkdtemp(cache)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("CLHLS_CACHE_DIR", cache, 1);

    static result res[NK][NB];
    for (int bi = 0; bi < NB; bi++) {
        if (!run_board[bi])
            continue;
        bench b;
        int opened = open_board(&b, boards[bi], cache) == 0;
        for (int ki = 0; ki < NK; ki++) {
            result *r = &res[ki][bi];
            r->lut = r->ff = r->bram = r->dsp = r->fmax = r->seconds = r->cycles_per_item = -1;
            if (!run_kernel[ki])
                continue;
            synthesise(cache, &specs[ki], boards[bi], r);
            if (opened && strncmp(specs[ki].name, "ex:", 3))
                simulate(&b, &specs[ki], r);
            else
                snprintf(r->note, sizeof r->note, "no device for %s", boards[bi]);
        }
        if (opened) {
            clReleaseCommandQueue(b.q);
            clReleaseContext(b.ctx);
        }
    }

    printf("synthesis for the real boards (Yosys; fmax routed by nextpnr, with the delay "
           "model's estimate in brackets, or estimated); cycles per work-item simulated on "
           "the board, %d work-items, and the time per work-item at that fmax\n", ITEMS);
    printf("| kernel            | board      | LUT     | FF      | BRAM  | DSP   | "
           "fmax MHz             | levels | synth s | cycles/WI | ns/WI  | critical path |\n");
    printf("|-------------------|------------|---------|---------|-------|-------|"
           "----------------------|--------|---------|-----------|--------|---------------|\n");
    for (int ki = 0; ki < NK; ki++)
        for (int bi = 0; bi < NB; bi++) {
            if (!run_kernel[ki] || !run_board[bi])
                continue;
            const result *r = &res[ki][bi];
            char lut[32], ff[32], bram[32], dsp[32], fmax[48], levels[32], secs[32], cpi[32];
            char ns[32];
            cell(lut, sizeof lut, r->lut, "%.0f");
            cell(ff, sizeof ff, r->ff, "%.0f");
            cell(bram, sizeof bram, r->bram, "%.1f");
            cell(dsp, sizeof dsp, r->dsp, "%.0f");
            if (r->fmax > 0 && r->routed)
                snprintf(fmax, sizeof fmax, "%.1f routed (%.1f)", r->fmax, r->estimate);
            else if (r->fmax > 0)
                snprintf(fmax, sizeof fmax, "%.1f estimate", r->fmax);
            else
                snprintf(fmax, sizeof fmax, "n/a");
            cell(levels, sizeof levels, r->levels, "%.0f");
            cell(secs, sizeof secs, r->seconds, "%.1f");
            cell(cpi, sizeof cpi, r->cycles_per_item, "%.2f");
            cell(ns, sizeof ns, r->fmax > 0 && r->cycles_per_item > 0
                                    ? r->cycles_per_item * 1000.0 / r->fmax : -1, "%.2f");
            printf("| %-17s | %-10s | %7s | %7s | %5s | %5s | %-20s | %6s | %7s | %9s | %6s | "
                   "%s |%s%s\n", specs[ki].name, boards[bi], lut, ff, bram, dsp, fmax, levels,
                   secs, cpi, ns, r->path, r->note[0] ? " " : "", r->note);
        }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
    return system(cmd) != 0;
}
