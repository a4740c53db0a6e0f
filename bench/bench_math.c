/* Operators and math functions in hardware.
 *
 * (a) Operator templates: one kernel that uses every arithmetic template for float and
 *     double (add, multiply, divide, square root, fused multiply-add, compare, integer
 *     to float and back, float to double and back) and the integer divider at 32 and 64
 *     bits, synthesised by `clhls synth --board alveo_u250` (a flow that keeps the
 *     hierarchy, so each template parametrisation is a module of its own). Per template
 *     and format: its latency in cycles (the kernel's report.json, from the board's
 *     latency table or the template's structure) and its LUT/FF/DSP (Yosys).
 * (b) Math functions (float): one kernel per function, o[i] = f(x[i]) (f(x[i], y[i]),
 *     f(x[i], n[i])), the kernels of a family in one program built once with
 *     `clhls build`. Per function: the pipeline depth in stages (report.json), its
 *     arithmetic operators, an estimate of LUT/FF/DSP as the sum of those operators'
 *     costs from (a) (integer logic, multiplexers and the pipeline's registers are not in
 *     it: it is a lower bound), and work-items per cycle over an NDRange of 65,536
 *     work-items (goal 1: one work-item enters and one leaves every cycle).
 * `--no-synth` skips (a) (then the estimates are n/a); names on the command line pick
 * families (exp, pow, trig, inverse, special). Prints tables; asserts nothing. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>

#include "bench.h"
#include "bench_tools.h"

#define ITEMS 65536

/* ---- (a) operator templates ---------------------------------------------------- */

static const char *const ops_src =
    "__kernel void ops(__global float *f, __global double *d, __global int *n,\n"
    "                  __global long *l)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float a = f[4 * i], b = f[4 * i + 1], c = f[4 * i + 2];\n"
    "    double x = d[4 * i], y = d[4 * i + 1], z = d[4 * i + 2];\n"
    "    int p = n[2 * i], q = n[2 * i + 1];\n"
    "    long r = l[2 * i], s = l[2 * i + 1];\n"
    "    f[4 * i] = a + b;\n"
    "    f[4 * i + 1] = a * b;\n"
    "    f[4 * i + 2] = a / b;\n"
    "    f[4 * i + 3] = sqrt(a) + fma(a, b, c) + (float)p + (a < b ? c : 0.0f) + (float)x;\n"
    "    d[4 * i] = x + y;\n"
    "    d[4 * i + 1] = x * y;\n"
    "    d[4 * i + 2] = x / y;\n"
    "    d[4 * i + 3] = sqrt(x) + fma(x, y, z) + (double)r + (x < y ? z : 0.0) + (double)a;\n"
    "    n[2 * i] = p / q + (int)a;\n"
    "    n[2 * i + 1] = p % q;\n"
    "    l[2 * i] = r / s + (long)x;\n"
    "    l[2 * i + 1] = r % s;\n"
    "}\n";

/* A template in one format: what (a) measured. */
typedef struct template_cost {
    const char *module;         /* the template */
    const char *what;           /* what it computes */
    unsigned format;            /* its float format's bits (the integer width: idiv) */
    const char *param;          /* the parameter that gives the format */
    double latency;             /* cycles; < 0 unknown */
    double lut, ff, dsp;        /* resources; < 0 unknown */
} template_cost;

static template_cost costs[] = {
    {"clhls_fadd", "add, subtract", 32, "W", -1, -1, -1, -1},
    {"clhls_fadd", "add, subtract", 64, "W", -1, -1, -1, -1},
    {"clhls_fmul", "multiply", 32, "W", -1, -1, -1, -1},
    {"clhls_fmul", "multiply", 64, "W", -1, -1, -1, -1},
    {"clhls_fdiv", "divide", 32, "W", -1, -1, -1, -1},
    {"clhls_fdiv", "divide", 64, "W", -1, -1, -1, -1},
    {"clhls_fsqrt", "square root", 32, "W", -1, -1, -1, -1},
    {"clhls_fsqrt", "square root", 64, "W", -1, -1, -1, -1},
    {"clhls_fma", "fused multiply-add", 32, "W", -1, -1, -1, -1},
    {"clhls_fma", "fused multiply-add", 64, "W", -1, -1, -1, -1},
    {"clhls_fcmp", "compare", 32, "W", -1, -1, -1, -1},
    {"clhls_fcmp", "compare", 64, "W", -1, -1, -1, -1},
    {"clhls_itofp", "integer to float", 32, "W", -1, -1, -1, -1},
    {"clhls_itofp", "integer to float", 64, "W", -1, -1, -1, -1},
    {"clhls_fptoi", "float to integer", 32, "W", -1, -1, -1, -1},
    {"clhls_fptoi", "float to integer", 64, "W", -1, -1, -1, -1},
    {"clhls_ftod", "float to double", 32, NULL, -1, -1, -1, -1},
    {"clhls_dtof", "double to float", 64, NULL, -1, -1, -1, -1},
    {"clhls_idiv", "integer divide, remainder", 32, "WIDTH", -1, -1, -1, -1},
    {"clhls_idiv", "integer divide, remainder", 64, "WIDTH", -1, -1, -1, -1},
};
enum { NCOSTS = sizeof costs / sizeof *costs };

/* The template and format of one operator of report.json (kind, width, operand width). */
static template_cost *cost_of(const char *kind, unsigned width, unsigned operand_width)
{
    static const struct { const char *kind, *module; int by_operand; } map[] = {
        {"fadd", "clhls_fadd", 0}, {"fsub", "clhls_fadd", 0}, {"fmul", "clhls_fmul", 0},
        {"fdiv", "clhls_fdiv", 0}, {"fsqrt", "clhls_fsqrt", 0}, {"fma", "clhls_fma", 0},
        {"fcmp", "clhls_fcmp", 1}, {"sitofp", "clhls_itofp", 0}, {"uitofp", "clhls_itofp", 0},
        {"fptosi", "clhls_fptoi", 1}, {"fptoui", "clhls_fptoi", 1}, {"fpext", "clhls_ftod", 1},
        {"fptrunc", "clhls_dtof", 1}, {"udiv", "clhls_idiv", 0}, {"sdiv", "clhls_idiv", 0},
        {"urem", "clhls_idiv", 0}, {"srem", "clhls_idiv", 0},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        if (strcmp(kind, map[i].kind))
            continue;
        unsigned format = map[i].by_operand ? operand_width : width;
        for (int c = 0; c < NCOSTS; c++)
            if (!strcmp(costs[c].module, map[i].module) && costs[c].format == format)
                return &costs[c];
    }
    return NULL;
}

/* The value of parameter `param` in a module name of synth.json
 * ("clhls_fadd(LATENCY=4,W=32)"), or -1. */
static long module_param(const char *name, const char *param)
{
    char key[32];
    snprintf(key, sizeof key, "%s=", param);
    for (const char *p = strchr(name, '('); p; p = strchr(p + 1, ','))
        if (!strncmp(p + 1, key, strlen(key)))
            return strtol(p + 1 + strlen(key), NULL, 10);
    return -1;
}

/* The template in costs[] a synthesised module is, or NULL. The operator kernel has one
 * instance of each template and format (a compare feeds a select, not a conversion). */
static template_cost *cost_of_module(const char *name)
{
    size_t len = strcspn(name, "(");
    for (int c = 0; c < NCOSTS; c++) {
        if (strlen(costs[c].module) != len || strncmp(name, costs[c].module, len))
            continue;
        if (!costs[c].param || module_param(name, costs[c].param) == (long)costs[c].format)
            return &costs[c];
    }
    return NULL;
}

/* The report.json of the cache entry `clhls build` made of src (NULL on failure, with
 * the reason in note); *seconds gets the build's time. */
static cJSON *build_report(const char *cache, const char *name, const char *src,
                           double *seconds, char *note, size_t note_len)
{
    char path[4200], result[4300], log[4300];
    snprintf(path, sizeof path, "%s/%s.cl", cache, name);
    snprintf(result, sizeof result, "%s/%s.result.json", cache, name);
    snprintf(log, sizeof log, "%s/%s.build.log", cache, name);
    if (bench_write_file(path, src)) {
        snprintf(note, note_len, "cannot write %.100s", path);
        return NULL;
    }
    char *argv[] = {CLHLS_TOOL, "build", path, "--result", result, NULL};
    double t0 = now();
    int status = bench_spawn(argv, log);
    *seconds = now() - t0;
    cJSON *r = bench_read_json(result);
    const cJSON *entry = cJSON_GetObjectItemCaseSensitive(r, "entry");
    if (!cJSON_IsString(entry) || bench_number(r, "status", NULL) != 0) {
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(r, "log");
        snprintf(note, note_len, "clhls build failed (status %d): %.120s", status,
                 cJSON_IsString(why) ? why->valuestring : log);
        cJSON_Delete(r);
        return NULL;
    }
    snprintf(path, sizeof path, "%s/report.json", entry->valuestring);
    cJSON_Delete(r);
    cJSON *report = bench_read_json(path);
    if (!report)
        snprintf(note, note_len, "no report in %.120s", path);
    return report;
}

/* The report.json entry of kernel `name`. */
static const cJSON *report_kernel(const cJSON *report, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(report, "kernels")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(k, "name");
        if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
            return k;
    }
    return NULL;
}

static void measure_templates(const char *cache)
{
    double seconds;
    char note[200] = "";
    cJSON *report = build_report(cache, "ops", ops_src, &seconds, note, sizeof note);
    const cJSON *op;
    cJSON_ArrayForEach(op, cJSON_GetObjectItemCaseSensitive(report_kernel(report, "ops"),
                                                          "operators")) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(op, "kind");
        template_cost *c = cJSON_IsString(kind)
                               ? cost_of(kind->valuestring,
                                         (unsigned)bench_number(op, "width", NULL),
                                         (unsigned)bench_number(op, "operand_width", NULL))
                               : NULL;
        if (c)
            c->latency = bench_number(op, "latency", NULL);
    }
    cJSON_Delete(report);
    if (note[0])
        fprintf(stderr, "operator kernel: %s\n", note);

    char src[4200], dir[4200], log[4300], json[4300];
    snprintf(src, sizeof src, "%s/ops.cl", cache);
    snprintf(dir, sizeof dir, "%s/synth-ops", cache);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(json, sizeof json, "%s/synth.json", dir);
    char *argv[] = {CLHLS_TOOL, "synth", src, "--board", "alveo_u250", "-o", dir, NULL};
    double t0 = now();
    int status = bench_spawn(argv, log);
    double synth_s = now() - t0;
    cJSON *synth = bench_read_json(json);
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(synth, "modules")) {
        template_cost *c = cost_of_module(m->string);
        if (!c)
            continue;
        c->lut = bench_number(m, "lut", NULL);
        c->ff = bench_number(m, "ff", NULL);
        c->dsp = bench_number(m, "dsp", NULL);
    }
    if (!synth)
        fprintf(stderr, "clhls synth failed (status %d): see %s\n", status, log);
    cJSON_Delete(synth);

    printf("operator templates (latency from the kernel's schedule on sim_dc; LUT/FF/DSP: "
           "Yosys synth_xilinx for alveo_u250, %.0f s)\n", synth_s);
    printf("| template    | computes                  | format | latency | LUT    | FF     "
           "| DSP |\n");
    printf("|-------------|---------------------------|--------|---------|--------|--------"
           "|-----|\n");
    for (int i = 0; i < NCOSTS; i++) {
        const template_cost *c = &costs[i];
        char lat[16], lut[16], ff[16], dsp[16], format[16];
        cell(lat, sizeof lat, c->latency, "%.0f");
        cell(lut, sizeof lut, c->lut, "%.0f");
        cell(ff, sizeof ff, c->ff, "%.0f");
        cell(dsp, sizeof dsp, c->dsp, "%.0f");
        snprintf(format, sizeof format, "%s%u", !strcmp(c->module, "clhls_idiv") ? "i" : "f",
                 c->format);
        printf("| %-11s | %-25s | %-6s | %7s | %6s | %6s | %3s |\n", c->module, c->what, format,
               lat, lut, ff, dsp);
    }
    printf("\n");
}

/* ---- (b) math functions ----------------------------------------------------------- */

/* A math function: how its kernel calls it. */
typedef struct function {
    const char *family;         /* its program */
    const char *name;           /* the built-in */
    const char *call;           /* its call on x, y (floats) and n (int) */
} function;

static const function functions[] = {
    {"exp", "exp", "exp(x)"}, {"exp", "exp2", "exp2(x)"}, {"exp", "exp10", "exp10(x)"},
    {"exp", "expm1", "expm1(x)"}, {"exp", "log", "log(x)"}, {"exp", "log2", "log2(x)"},
    {"exp", "log10", "log10(x)"}, {"exp", "log1p", "log1p(x)"},
    {"pow", "pow", "pow(x, y)"}, {"pow", "powr", "powr(x, y)"}, {"pow", "pown", "pown(x, n)"},
    {"pow", "rootn", "rootn(x, n)"}, {"pow", "cbrt", "cbrt(x)"}, {"pow", "hypot", "hypot(x, y)"},
    {"pow", "sqrt", "sqrt(x)"}, {"pow", "rsqrt", "rsqrt(x)"},
    {"trig", "sin", "sin(x)"}, {"trig", "cos", "cos(x)"}, {"trig", "tan", "tan(x)"},
    {"trig", "sinpi", "sinpi(x)"}, {"trig", "cospi", "cospi(x)"}, {"trig", "tanpi", "tanpi(x)"},
    {"inverse", "asin", "asin(x)"}, {"inverse", "acos", "acos(x)"},
    {"inverse", "atan", "atan(x)"}, {"inverse", "atan2", "atan2(x, y)"},
    {"inverse", "sinh", "sinh(x)"}, {"inverse", "cosh", "cosh(x)"},
    {"inverse", "tanh", "tanh(x)"}, {"inverse", "asinh", "asinh(x)"},
    {"inverse", "acosh", "acosh(x)"}, {"inverse", "atanh", "atanh(x)"},
    {"special", "erf", "erf(x)"}, {"special", "erfc", "erfc(x)"},
    {"special", "tgamma", "tgamma(x)"}, {"special", "lgamma", "lgamma(x)"},
    {"special", "fmod", "fmod(x, y)"}, {"special", "remainder", "remainder(x, y)"},
    {"special", "floor", "floor(x)"}, {"special", "round", "round(x)"},
};
enum { NF = sizeof functions / sizeof *functions };
static const char *const families[] = {"exp", "pow", "trig", "inverse", "special"};
enum { NFAM = sizeof families / sizeof *families };

/* What one function measured. */
typedef struct fn_result {
    double depth;               /* pipeline stages; < 0 unknown */
    int operators;              /* arithmetic operators (not wiring) */
    double lut, ff, dsp;        /* estimate from the template costs; < 0 unknown */
    double per_cycle;           /* work-items per cycle; < 0 not run */
    char note[200];             /* why something is missing */
} fn_result;

/* The program of one family: a kernel f_NAME per function. */
static char *family_source(const char *family)
{
    char *src = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&src, &len);
    if (!f)
        return NULL;
    for (int i = 0; i < NF; i++)
        if (!strcmp(functions[i].family, family))
            fprintf(f,
                    "__kernel void f_%s(__global const float *xs, __global const float *ys,\n"
                    "                   __global const int *ns, __global float *o)\n"
                    "{\n"
                    "    size_t i = get_global_id(0);\n"
                    "    float x = xs[i], y = ys[i];\n"
                    "    int n = ns[i];\n"
                    "    o[i] = %s;\n"
                    "}\n",
                    functions[i].name, functions[i].call);
    fclose(f);
    return src;
}

/* Depth, operators and the estimate of kernel f_NAME from the family's report. */
static void read_function(const cJSON *report, const function *fn, fn_result *r)
{
    char kname[64];
    snprintf(kname, sizeof kname, "f_%s", fn->name);
    const cJSON *k = report_kernel(report, kname);
    if (!k)
        return;
    r->depth = bench_number(k, "pipeline_depth", NULL);
    double lut = 0, ff = 0, dsp = 0;
    int known = 1;
    const cJSON *op;
    cJSON_ArrayForEach(op, cJSON_GetObjectItemCaseSensitive(k, "operators")) {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(op, "wiring")))
            continue;
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(op, "kind");
        const template_cost *c = cJSON_IsString(kind)
                                     ? cost_of(kind->valuestring,
                                               (unsigned)bench_number(op, "width", NULL),
                                               (unsigned)bench_number(op, "operand_width", NULL))
                                     : NULL;
        if (!c)
            continue; /* integer logic: not in the estimate */
        r->operators++;
        known &= c->lut >= 0;
        lut += c->lut, ff += c->ff, dsp += c->dsp;
    }
    if (known)
        r->lut = lut, r->ff = ff, r->dsp = dsp;
}

/* Runs kernel f_NAME over ITEMS inputs; work-items per simulated cycle. */
static void run_function(bench *b, cl_program p, const function *fn, cl_mem *bufs,
                         fn_result *r)
{
    char kname[64];
    snprintf(kname, sizeof kname, "f_%s", fn->name);
    cl_int err;
    cl_kernel k = clCreateKernel(p, kname, &err);
    CHECK(err);
    for (cl_uint a = 0; a < 4; a++)
        ARG(k, a, bufs[a]);
    size_t global = ITEMS, local = 256;
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(b->q, k, 1, NULL, &global, &local, 0, NULL, &ev));
    clWaitForEvents(1, &ev);
    cl_int st;
    cl_ulong start = 0, end = 0;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    double cycles = (double)(end - start) * b->mhz / 1000.0;
    if (st == CL_COMPLETE && end > start)
        r->per_cycle = ITEMS / cycles;
    else
        snprintf(r->note, sizeof r->note, "kernel ended with status %d", st);
    clReleaseEvent(ev);
    clReleaseKernel(k);
}

static void measure_family(bench *b, const char *family, fn_result *res, double *build_s)
{
    char *src = family_source(family);
    char note[200] = "";
    cJSON *report = src ? build_report(b->cache, family, src, build_s, note, sizeof note) : NULL;
    for (int i = 0; i < NF; i++)
        if (!strcmp(functions[i].family, family)) {
            read_function(report, &functions[i], &res[i]);
            snprintf(res[i].note, sizeof res[i].note, "%s", note);
        }
    cJSON_Delete(report);
    double seconds;
    cl_program p = report ? bench_build(b, family, src, &seconds, note, sizeof note) : NULL;
    free(src);
    if (!p)
        return;
    /* Inputs over the useful domains: x in (-8, 8) with some large values, y in (0.1, 4),
     * n in [-4, 4]. */
    float *x = xmalloc(ITEMS * sizeof *x), *y = xmalloc(ITEMS * sizeof *y);
    int *n = xmalloc(ITEMS * sizeof *n);
    for (int i = 0; i < ITEMS; i++) {
        x[i] = (float)((int)(rnd() % 16001) - 8000) / 1000.0f * (i % 64 ? 1.0f : 1000.0f);
        y[i] = 0.1f + (float)(rnd() % 3901) / 1000.0f;
        n[i] = (int)(rnd() % 9) - 4;
    }
    cl_mem bufs[4] = {buffer(b, ITEMS * sizeof *x, x), buffer(b, ITEMS * sizeof *y, y),
                      buffer(b, ITEMS * sizeof *n, n), buffer(b, ITEMS * sizeof(float), NULL)};
    free(x);
    free(y);
    free(n);
    for (int i = 0; i < NF; i++)
        if (!strcmp(functions[i].family, family))
            run_function(b, p, &functions[i], bufs, &res[i]);
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(bufs[i]);
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    int synth = 1, run_family[NFAM] = {0}, picked = 0;
    for (int a = 1; a < argc; a++) {
        int known = !strcmp(argv[a], "--no-synth");
        synth &= !known;
        for (int f = 0; f < NFAM; f++)
            if (!strcmp(argv[a], families[f]))
                run_family[f] = picked = known = 1;
        if (!known) {
            fprintf(stderr, "usage: %s [--no-synth] [FAMILY...]\n  families: exp pow trig "
                            "inverse special\n", argv[0]);
            return 2;
        }
    }
    bench b;
    bench_open(&b, ICD_FILE);
    if (synth)
        measure_templates(b.cache);

    static fn_result res[NF];
    double build_s[NFAM];
    for (int i = 0; i < NF; i++) {
        res[i].depth = res[i].lut = res[i].ff = res[i].dsp = res[i].per_cycle = -1;
    }
    for (int f = 0; f < NFAM; f++) {
        build_s[f] = -1;
        if (run_family[f] || !picked)
            measure_family(&b, families[f], res, &build_s[f]);
    }

    printf("math functions (float), one kernel each, %d work-items on %s; estimate = the "
           "sum of its operators' template costs (a lower bound)\n", ITEMS, b.device_name);
    printf("| function  | family  | build s | stages | operators | LUT est | FF est | "
           "DSP est | WI/cycle |\n");
    printf("|-----------|---------|---------|--------|-----------|---------|--------|"
           "---------|----------|\n");
    for (int f = 0; f < NFAM; f++)
        for (int i = 0; i < NF; i++) {
            if (strcmp(functions[i].family, families[f]) || (picked && !run_family[f]))
                continue;
            const fn_result *r = &res[i];
            char bs[16], depth[16], lut[16], ff[16], dsp[16], pc[16];
            cell(bs, sizeof bs, build_s[f], "%.0f");
            cell(depth, sizeof depth, r->depth, "%.0f");
            cell(lut, sizeof lut, r->lut, "%.0f");
            cell(ff, sizeof ff, r->ff, "%.0f");
            cell(dsp, sizeof dsp, r->dsp, "%.0f");
            cell(pc, sizeof pc, r->per_cycle, "%.3f");
            printf("| %-9s | %-7s | %7s | %6s | %9d | %7s | %6s | %7s | %8s |%s%s\n",
                   functions[i].name, families[f], bs, depth, r->operators, lut, ff, dsp, pc,
                   r->note[0] ? " " : "", r->note);
        }
    return bench_close(&b);
}
