/* Compiler tests through hls_build: every bad input fails with its expected
 * file:line:col diagnostic, options are validated, metadata describes the kernels,
 * the cache hits and misses when it should, and the generated Verilog passes
 * Verilator's lint together with the templates. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "hls.h"
#include "ir.h"

static board_t *board;

static void setup(void)
{
    char err[256];
    board = board_load("sim_dc", err, sizeof err);
    cr_assert(board, "%s", err);
}

static void teardown(void)
{
    board_free(board);
}

TestSuite(hls, .init = setup, .fini = teardown);

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* File `name` of a build's cache entry, read whole (the caller frees). */
static char *entry_file(const hls_build_result *res, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", res->entry_dir, name);
    return slurp(path);
}

static int build(const char *source, const char *name, const char *options, int model,
                 hls_build_result *res)
{
    hls_build_request req = {.source = source, .source_name = name, .options = options,
                             .board = board, .skip_model = !model};
    return hls_build(&req, res);
}

/* Each tests/hls/bad/X_bad.cl starts with "// expect: MESSAGE", optionally followed
 * by "// options: BUILD OPTIONS". */
static void check_bad(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad/%s", TEST_DIR, name);
    char *src = slurp(path);
    cr_assert(!strncmp(src, "// expect: ", 11), "%s has no expect line", name);
    char *expect = strndup(src + 11, strcspn(src + 11, "\n"));
    const char *second = src + 11 + strlen(expect) + 1;
    char *options = !strncmp(second, "// options: ", 12)
                        ? strndup(second + 12, strcspn(second + 12, "\n"))
                        : NULL;
    hls_build_result res;
    int rc = build(src, name, options, 0, &res);
    free(options);
    cr_expect(rc == HLS_ERR_UNSUPPORTED || rc == HLS_ERR_COMPILE, "%s: status %d", name, rc);
    cr_expect(strstr(res.log, expect), "%s: log lacks '%s':\n%s", name, expect, res.log);
    cr_expect_null(res.entry_dir, "a failed build must not leave a cache entry");
    hls_build_result_free(&res);
    free(expect);
    free(src);
}

Test(hls, bad_inputs_report_file_line_col)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/bad", TEST_DIR);
    DIR *d = opendir(dir);
    cr_assert(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, "_bad.cl")) {
            check_bad(e->d_name);
            n++;
        }
    closedir(d);
    cr_assert_geq(n, 7, "expected the bad-input corpus, found %d files", n);
}

Test(hls, diagnostics_quote_the_line_with_a_caret)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad/async_bad.cl", TEST_DIR);
    char *src = slurp(path);
    hls_build_result res;
    build(src, "async_bad.cl", NULL, 0, &res);
    cr_expect(strstr(res.log, "    async_work_group_copy(t, g, 64, 0);\n    ^\n"), "%s", res.log);
    hls_build_result_free(&res);
    free(src);
}

Test(hls, unknown_option_is_an_options_error)
{
    hls_build_result res;
    int rc = build("__kernel void k(__global int *a) { a[0] = 1; }", "k.cl", "-fancy", 0, &res);
    cr_expect_eq(rc, HLS_ERR_OPTIONS);
    cr_expect(strstr(res.log, "unknown build option '-fancy'"), "%s", res.log);
    hls_build_result_free(&res);
    rc = build("__kernel void k(__global int *a) { a[0] = 1; }", "k.cl", "-cl-std=CL9.9", 0,
               &res);
    cr_expect_eq(rc, HLS_ERR_OPTIONS);
    hls_build_result_free(&res);
    rc = build("__kernel void k(__global int *a) { a[0] = 1; }", "k.cl", "-I inc -D", 0, &res);
    cr_expect_eq(rc, HLS_ERR_OPTIONS);
    cr_expect(strstr(res.log, "option '-D' needs an argument"), "%s", res.log);
    hls_build_result_free(&res);
}

Test(hls, defines_reach_the_source)
{
    const char *src = "__kernel void k(__global int *a) { a[get_global_id(0)] = VALUE; }";
    hls_build_result res;
    cr_expect_eq(build(src, "k.cl", NULL, 0, &res), HLS_ERR_COMPILE);
    hls_build_result_free(&res);
    cr_expect_eq(build(src, "k.cl", "-D VALUE=3", 0, &res), HLS_OK, "%s", res.log);
    hls_build_result_free(&res);
    cr_expect_eq(build(src, "k.cl", "-DVALUE=4 -cl-std=CL2.0", 0, &res), HLS_OK, "%s",
                 res.log);
    hls_build_result_free(&res);
}

static cJSON *load_metadata(const hls_build_result *res)
{
    char *text = slurp(res->metadata_path);
    cJSON *j = cJSON_Parse(text);
    free(text);
    cr_assert(j);
    return j;
}

/* The build's report.json. */
static cJSON *load_report(const hls_build_result *res)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/report.json", res->entry_dir);
    char *text = slurp(path);
    cJSON *j = cJSON_Parse(text);
    free(text);
    cr_assert(j);
    return j;
}

static const cJSON *kernel_named(const cJSON *meta, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(meta, "kernels"))
        if (!strcmp(cJSON_GetObjectItem(k, "name")->valuestring, name))
            return k;
    cr_assert_fail("no kernel %s in metadata", name);
    return NULL;
}

Test(hls, metadata_describes_kernels_and_arguments)
{
    char path[512];
    snprintf(path, sizeof path, "%s/good/mix.cl", TEST_DIR);
    char *src = slurp(path);
    hls_build_result res;
    cr_assert_eq(build(src, "mix.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    cJSON *meta = load_metadata(&res);
    cr_expect_str_eq(cJSON_GetObjectItem(meta, "board")->valuestring, "sim_dc");
    cr_expect_eq(cJSON_GetObjectItem(meta, "mem_width_bytes")->valueint, 64);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(meta, "uniform_work_group_size")));
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(meta, "kernels")), 2);

    const cJSON *saxpy = kernel_named(meta, "saxpy");
    const cJSON *args = cJSON_GetObjectItem(saxpy, "args");
    cr_assert_eq(cJSON_GetArraySize(args), 3);
    const cJSON *x = cJSON_GetArrayItem(args, 0), *a = cJSON_GetArrayItem(args, 2);
    cr_expect_str_eq(cJSON_GetObjectItem(x, "name")->valuestring, "x");
    cr_expect_str_eq(cJSON_GetObjectItem(x, "type_name")->valuestring, "float*");
    cr_expect_str_eq(cJSON_GetObjectItem(x, "type_qualifier")->valuestring, "const");
    cr_expect_str_eq(cJSON_GetObjectItem(x, "address_qualifier")->valuestring, "global");
    cr_expect_str_eq(cJSON_GetObjectItem(x, "kind")->valuestring, "buffer");
    cr_expect_eq(cJSON_GetObjectItem(x, "size")->valueint, 8);
    cr_expect_str_eq(cJSON_GetObjectItem(a, "kind")->valuestring, "scalar");
    cr_expect_str_eq(cJSON_GetObjectItem(a, "type_name")->valuestring, "float");
    cr_expect_eq(cJSON_GetObjectItem(a, "size")->valueint, 4);

    /* Register blocks do not overlap: the second kernel starts 256 registers later.
     * Its arguments are packed into the argument area from register 32: six
     * pointers, then the int. */
    const cJSON *mix = kernel_named(meta, "mix");
    int b0 = cJSON_GetObjectItem(saxpy, "reg_base")->valueint;
    int b1 = cJSON_GetObjectItem(mix, "reg_base")->valueint;
    cr_expect_eq(abs(b1 - b0), 256);
    const cJSON *area = cJSON_GetObjectItem(mix, "arg_area");
    cr_expect_eq(cJSON_GetObjectItem(area, "reg")->valueint, b1 + 32);
    cr_expect_eq(cJSON_GetObjectItem(area, "bytes")->valueint, 56);
    const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(mix, "args"), 6);
    cr_expect_eq(cJSON_GetObjectItem(k, "offset")->valueint, 48);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(args, 2), "offset")->valueint, 16);
    const cJSON *reqd = cJSON_GetObjectItem(mix, "reqd_work_group_size");
    cr_expect_eq(cJSON_GetArrayItem(reqd, 0)->valueint, 8);
    cr_expect_eq(cJSON_GetArrayItem(reqd, 1)->valueint, 4);
    cr_expect_eq(cJSON_GetObjectItem(mix, "max_work_group_size")->valueint, 32);
    cJSON_Delete(meta);
    hls_build_result_free(&res);
    free(src);
}

Test(hls, opencl_2_allows_non_uniform_groups)
{
    hls_build_result res;
    cr_assert_eq(build("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }", "k.cl",
                       "-cl-std=CL2.0", 0, &res), HLS_OK, "%s", res.log);
    cJSON *meta = load_metadata(&res);
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(meta, "uniform_work_group_size")));
    cJSON_Delete(meta);
    hls_build_result_free(&res);
    cr_assert_eq(build("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }", "k.cl",
                       "-cl-std=CL2.0 -cl-uniform-work-group-size", 0, &res), HLS_OK);
    meta = load_metadata(&res);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(meta, "uniform_work_group_size")));
    cJSON_Delete(meta);
    hls_build_result_free(&res);
}

Test(hls, cache_hits_on_the_same_build_and_misses_on_a_change)
{
    /* A source no earlier run has built. */
    char src[256];
    snprintf(src, sizeof src, "// run %ld.%ld\n"
             "__kernel void cached(__global int *a) { a[get_global_id(0)] += 7; }",
             (long)getpid(), (long)time(NULL));
    hls_build_result first, second, other;
    cr_assert_eq(build(src, "c.cl", "-D X=1", 0, &first), HLS_OK, "%s", first.log);
    cr_assert_eq(build(src, "c.cl", "-D X=1", 0, &second), HLS_OK);
    cr_expect(second.cache_hit);
    cr_expect_str_eq(first.entry_dir, second.entry_dir);
    cr_assert_eq(build(src, "c.cl", "-D X=2", 0, &other), HLS_OK);
    cr_expect_not(other.cache_hit);
    cr_expect_str_neq(first.entry_dir, other.entry_dir);
    hls_build_result_free(&first);
    hls_build_result_free(&second);
    hls_build_result_free(&other);
}

/* The control-flow kernels of tests/hls/dump: branches, loops (nested, with early
 * exits), ordered memory, tables in ROM, barriers, private arrays. */
static const char *const dump_kernels[] = {"guard.cl", "select.cl",  "loop.cl",
                                           "nested.cl", "order.cl",   "rom.cl",
                                           "barrier.cl", "private.cl", "exclusive.cl",
                                           "banks.cl"};

/* Verilator's -Wall lint of a built program's Verilog with the templates, as synthesis
 * sees it and (`define` +define+CLHLS_SIM_MODELS) as the simulation does: the operators'
 * models and the folded regions. */
static void lint_entry(const char *name, const hls_build_result *res, const char *define)
{
    char cmd[4096], path[512];
    snprintf(cmd, sizeof cmd,
             "%s --lint-only -Wall -Wno-UNUSEDSIGNAL %s --top-module clhls_top -I%s "
             "%s/rtl/*.v %s/clhls_*.v > %s/lint.log 2>&1",
             VERILATOR, define, RTL_DIR, res->entry_dir, RTL_DIR, res->entry_dir);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/lint.log", res->entry_dir);
    char *log = slurp(path);
    cr_expect(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "%s %s: verilator lint failed:\n%s", name,
              define, log);
    cr_expect_null(strstr(log, "%Error"), "%s %s: %s", name, define, log);
    cr_expect_null(strstr(log, "%Warning"), "%s %s: %s", name, define, log);
    free(log);
}

/* The lint of a kernel file's generated Verilog, both ways. */
static void lint(const char *dir, const char *name, const char *options)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *src = slurp(path);
    hls_build_result res;
    cr_assert_eq(build(src, name, options, 0, &res), HLS_OK, "%s", res.log);
    lint_entry(name, &res, "");
    lint_entry(name, &res, "+define+CLHLS_SIM_MODELS");
    free(src);
    hls_build_result_free(&res);
}

Test(hls, generated_verilog_lints_with_the_templates)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/good", TEST_DIR);
    lint(dir, "mix.cl", "-D LINT");
    /* local memory, atomics, barriers, work-group functions (OpenCL C 2.0) */
    lint(dir, "cooperate.cl", "-cl-std=CL2.0");
    /* control flow: branches, loops (nested, with early exits), ordered memory */
    snprintf(dir, sizeof dir, "%s/dump", TEST_DIR);
    for (size_t i = 0; i < sizeof dump_kernels / sizeof *dump_kernels; i++)
        lint(dir, dump_kernels[i], "-D LINT");
}

/* A __local load whose value only a work-group function read, in a branch whose result
 * nothing reads: LLVM keeps both (the call is convergent), the hardware IR drops them
 * as dead, and the memory keeps the store's port alone (fuzz seed 80716: an undriven
 * port failed the netlist check). */
Test(hls, dead_local_accesses_give_up_their_ports)
{
    static const char *const src =
        "__kernel void dead_local(__global int *out)\n"
        "{\n    __local int t[64];\n    int l = get_local_id(0);\n    t[l] = l;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n    int v = t[63 - l];\n"
        "    if ((get_group_id(0) & 1) == 0)\n        v = work_group_broadcast(v, 0);\n"
        "    out[get_global_id(0)] = l;\n}\n";
    hls_build_result res;
    cr_assert_eq(build(src, "dead_local.cl", "-cl-std=CL2.0", 0, &res), HLS_OK, "%s", res.log);
    char *cu = entry_file(&res, "rtl/clhls_cu_dead_local.v");
    cr_expect_not_null(strstr(cu, ".NPORTS(1)"), "%s", cu);
    free(cu);
    lint_entry("dead_local.cl", &res, "");
    hls_build_result_free(&res);
}

/* A local array read by 260 accesses (an unrolled loop) has a memory of 262 ports,
 * whose bank conflicts in one cycle need 9 bits: the compute unit counts them in a
 * CONFLICT_W-bit increment (8 bits padded by a negative replication stopped Verilator
 * 5.006 with an internal error, as Rodinia's dwt2d did), and Verilator takes it. */
Test(hls, a_local_memory_of_more_than_255_ports)
{
    static const char *const src =
        "__kernel void many_ports(__global int *out)\n"
        "{\n    __local int s[512];\n    int l = get_local_id(0), acc = 0;\n"
        "    s[l] = l * 3;\n    s[l + 256] = l ^ 0x55;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    #pragma unroll\n    for (int i = 0; i < 260; i++)\n"
        "        acc += s[(l + i * 7) & 511] * (i | 1);\n"
        "    out[get_global_id(0)] = acc;\n}\n";
    hls_build_result res;
    cr_assert_eq(build(src, "many_ports.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    char *cu = entry_file(&res, "rtl/clhls_cu_many_ports.v");
    cr_expect_not_null(strstr(cu, ".NPORTS(262)"), "the memory has a port per access");
    cr_expect_not_null(strstr(cu, ".CONFLICT_W(9)"), "the shell counts 9-bit increments");
    free(cu);
    lint_entry("many_ports.cl", &res, "");
    hls_build_result_free(&res);
}

/* A static region deeper than a fold is folded for simulation: its operators and
 * carried values count stages of the simulation (SIM_LATENCY, SIM_DELAYS) and its
 * values leave through r<N>_unfold, a wire in hardware. A region of one stage is not. */
Test(hls, deep_static_regions_fold_in_simulation)
{
    static const char *const src =
        "#pragma OPENCL FP_CONTRACT OFF\n"
        "__kernel void horner(__global const float *x, __global float *y)\n"
        "{\n    size_t i = get_global_id(0);\n    float v = x[i], r = 0.5f;\n"
        "    r = r * v + 1.0f;\n    r = r * v + 2.0f;\n    r = r * v + 3.0f;\n"
        "    r = r * v + 4.0f;\n    r = r * v + 5.0f;\n    r = r * v + 6.0f;\n"
        "    y[i] = r;\n}\n";
    hls_build_result res;
    cr_assert_eq(build(src, "horner.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    char *cu = entry_file(&res, "rtl/clhls_cu_horner.v");
    cr_expect_not_null(strstr(cu, "_unfold ("), "%s", cu);
    cr_expect_not_null(strstr(cu, ".LATENCY(0), .SIM_LATENCY("), "%s", cu);
    cr_expect_not_null(strstr(cu, ".SIM_LATENCY(1)"), "an operator across a fold: %s", cu);
    cr_expect_not_null(strstr(cu, ".SIM_DELAYS({"), "%s", cu);
    /* the address adds before the loads: one stage, a pipeline in simulation too */
    cr_expect_null(strstr(cu, "r1_unfold"), "%s", cu);
    free(cu);
    lint_entry("horner.cl", &res, "");
    lint_entry("horner.cl", &res, "+define+CLHLS_SIM_MODELS");
    hls_build_result_free(&res);
}

/* A division by a constant is shifts and a multiply (divide.c), not a divider; a
 * division by a value keeps its divider, which the remainder beside it shares. */
Test(hls, division_by_a_constant_needs_no_divider)
{
    static const char *const src =
        "__kernel void consts(__global int *a, __global uint *b)\n"
        "{\n    size_t i = get_global_id(0);\n    int x = a[i];\n    uint y = b[i];\n"
        "    a[i] = x / 8 + x % -16 + x / 7 + x % 10;\n    b[i] = y / 7u + y % 641u + y / 3u;\n}\n"
        "__kernel void value(__global int *a, int d)\n"
        "{\n    size_t i = get_global_id(0);\n    a[i] = a[i] / d + a[i] % d;\n}\n";
    hls_build_result res;
    cr_assert_eq(build(src, "consts.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    char *cu = entry_file(&res, "rtl/clhls_cu_consts.v");
    cr_expect_null(strstr(cu, "clhls_idiv"), "%s", cu);
    free(cu);
    cu = entry_file(&res, "rtl/clhls_cu_value.v");
    const char *divider = strstr(cu, "clhls_idiv");
    cr_expect_not_null(divider, "%s", cu);
    cr_expect_null(divider ? strstr(divider + 1, "clhls_idiv") : NULL, "one divider: %s", cu);
    free(cu);
    hls_build_result_free(&res);
}

/* n kernels that each store their number, k0 .. k<n-1> (the caller frees). */
static char *numbered_kernels(int n)
{
    size_t cap = (size_t)n * 96 + 1, len = 0;
    char *src = malloc(cap);
    cr_assert_not_null(src);
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(src + len, cap - len,
                                "__kernel void k%d(__global int *p)"
                                " { p[get_global_id(0)] = %d; }\n", i, i);
    return src;
}

/* More than 256 kernels: the register address grows by a bit for every doubling, and
 * every shell decodes its block from all of them; past 4096 the build fails at the
 * first kernel too many. */
Test(hls, more_than_256_kernels_widen_the_register_address)
{
    char *src = numbered_kernels(300);
    hls_build_result res;
    cr_assert_eq(build(src, "many.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    char *top = entry_file(&res, "rtl/clhls_top.v");
    cr_expect_not_null(strstr(top, "[16:0] reg_addr"), "%.2000s", top);
    free(top);
    char *cu = entry_file(&res, "rtl/clhls_cu_k299.v");
    cr_expect_not_null(strstr(cu, "[16:0] reg_addr"), "%s", cu);
    cr_expect_not_null(strstr(cu, ".BLOCK(299), .REG_ADDR_W(17)"), "%s", cu);
    free(cu);
    char *meta = entry_file(&res, "metadata.json");
    cr_expect_not_null(strstr(meta, "\"reg_base\":\t76544"), "kernel 299's block");
    free(meta);
    lint_entry("many.cl", &res, "+define+CLHLS_SIM_MODELS");
    hls_build_result_free(&res);
    free(src);

    src = numbered_kernels(4097);
    cr_assert_neq(build(src, "too_many.cl", NULL, 0, &res), HLS_OK);
    cr_expect_not_null(strstr(res.log, "too_many.cl:4097:"), "%.2000s", res.log);
    cr_expect_not_null(strstr(res.log, "a program may have at most 4096 kernels"), "%.2000s",
                       res.log);
    hls_build_result_free(&res);
    free(src);
}

/* A binary32 operator's SIM_NORMAL marks the operands that are never subnormal (other
 * units' results, converted integers, normal constants, selects of them): their C
 * model skips the flush. Loaded values and a subnormal constant keep it. */
Test(hls, operands_never_subnormal_skip_the_models_flush)
{
    static const char *const src =
        "#pragma OPENCL FP_CONTRACT OFF\n"
        "__kernel void mul_loads(__global const float *x, __global float *y)\n"
        "{\n    size_t i = get_global_id(0);\n    y[i] = x[i] * x[i + 1];\n}\n"
        "__kernel void add_const(__global const float *x, __global float *y)\n"
        "{\n    size_t i = get_global_id(0);\n    y[i] = x[i] * x[i + 1] + 1.0f;\n}\n"
        "__kernel void mul_subnormal(__global const float *x, __global float *y)\n"
        "{\n    size_t i = get_global_id(0);\n    y[i] = (x[i] * x[i + 1]) * 1e-40f;\n}\n"
        "__kernel void div_select_sqrt(__global const float *x, __global const int *n,\n"
        "                              __global float *y)\n"
        "{\n    size_t i = get_global_id(0);\n"
        "    y[i] = (x[i] > 0.0f ? x[i] * x[i + 1] : 2.0f) / sqrt((float)n[i]);\n}\n";
    static const struct {
        const char *kernel, *present, *absent;
    } want[] = {
        {"mul_loads", NULL, "SIM_NORMAL"},
        {"add_const", ".SIM_NORMAL(3)", NULL},
        {"mul_subnormal", ".SIM_NORMAL(", ".SIM_NORMAL(3)"},
        {"div_select_sqrt", ".SIM_NORMAL(3)", NULL},
        {"div_select_sqrt", ".SIM_NORMAL(1)", NULL},
    };
    hls_build_result res;
    cr_assert_eq(build(src, "normal.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char name[128];
        snprintf(name, sizeof name, "rtl/clhls_cu_%s.v", want[i].kernel);
        char *cu = entry_file(&res, name);
        if (want[i].present)
            cr_expect_not_null(strstr(cu, want[i].present), "%s: %s", want[i].present, cu);
        if (want[i].absent)
            cr_expect_null(strstr(cu, want[i].absent), "%s: %s", want[i].absent, cu);
        free(cu);
    }
    lint_entry("normal.cl", &res, "+define+CLHLS_SIM_MODELS");
    hls_build_result_free(&res);
}

/* A program with a global atomic gets the atomic unit on its memory port, which then
 * carries no operation code, built for the operations the program uses (add and umin,
 * 32-bit); a program without one has no unit. */
Test(hls, global_atomics_get_the_atomic_unit)
{
    static const char *const with =
        "__kernel void count(__global uint *c, __global uint *out)\n"
        "{\n    out[get_global_id(0)] = atomic_inc(c) + atomic_min(c + 1, 5u);\n}\n";
    static const char *const without =
        "__kernel void local_count(__global uint *out)\n"
        "{\n    __local uint c;\n    if (get_local_id(0) == 0) c = 0;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n    atomic_inc(&c);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n    out[get_global_id(0)] = c;\n}\n";
    const char *const sources[2] = {with, without};
    for (int i = 0; i < 2; i++) {
        hls_build_result res;
        cr_assert_eq(build(sources[i], "count.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
        char *top = entry_file(&res, "rtl/clhls_top.v");
        cr_expect_eq(strstr(top, "clhls_atomic_unit #(") != NULL, i == 0, "%s", top);
        cr_expect_eq(strstr(top, ".OPS(16'h0082)") != NULL, i == 0, "%s", top);
        cr_expect_eq(strstr(top, ".WIDE(0)") != NULL, i == 0, "%s", top);
        cr_expect_null(strstr(top, "output wire [3:0] m_mem_req_atomic"), "%s", top);
        free(top);
        hls_build_result_free(&res);
    }
}

/* The same kernels for the smallest board (32-bit memory port, 18-bit addresses,
 * 24-bit work-item indexes, work-groups of up to 64): the narrow widths lint too. */
Test(hls, generated_verilog_for_a_small_board_lints)
{
    char err[512], dir[512];
    board_t *default_board = board;
    board = board_load("icebreaker", err, sizeof err);
    cr_assert(board, "%s", err);
    snprintf(dir, sizeof dir, "%s/dump", TEST_DIR);
    for (size_t i = 0; i < sizeof dump_kernels / sizeof *dump_kernels; i++)
        lint(dir, dump_kernels[i], "-D LINT");
    board_free(board);
    board = default_board;
}

/* Builds src (file `name`, kernel `kernel`) for board `board_name`; the compute unit's
 * Verilog (the caller frees), the build in res (the caller frees it too). */
static char *cu_for_board(const char *board_name, const char *src, const char *name,
                          const char *kernel, hls_build_result *res)
{
    char err[512], file[256];
    board_t *default_board = board;
    board = board_load(board_name, err, sizeof err);
    cr_assert(board, "%s", err);
    cr_assert_eq(build(src, name, NULL, 0, res), HLS_OK, "%s", res->log);
    board_free(board);
    board = default_board;
    snprintf(file, sizeof file, "rtl/clhls_cu_%s.v", kernel);
    return entry_file(res, file);
}

/* The work-item generator's next-group register on a board whose clock leaves fewer
 * than 8 logic levels (sim_dc, alveo_u250), not on a slower one (icebreaker). */
Test(hls, short_clock_boards_get_the_next_group_register)
{
    static const char *const src =
        "__kernel void copy(__global const int *a, __global int *b)\n"
        "{\n    b[get_global_id(0)] = a[get_global_id(0)];\n}\n";
    const char *const boards[] = {"sim_dc", "alveo_u250", "icebreaker"};
    for (int i = 0; i < 3; i++) {
        hls_build_result res;
        char *cu = cu_for_board(boards[i], src, "copy.cl", "copy", &res);
        cr_expect_eq(strstr(cu, ".GROUP_REG(1)") != NULL, i < 2, "%s", boards[i]);
        free(cu);
        hls_build_result_free(&res);
    }
}

/* A global load, then six local loads in one memory node: wider than one LUT's AND. */
#define SIX_LOCAL_LOADS \
        "__kernel void sums(__global const int *a, __global int *b, __local int *t)\n" \
        "{\n    int l = get_local_id(0);\n    t[l] = a[get_global_id(0)];\n" \
        "    barrier(CLK_LOCAL_MEM_FENCE);\n" \
        "    if (l < 58)\n" \
        "        b[get_global_id(0)] = t[l] + t[l + 1] + t[l + 2] + t[l + 3] + t[l + 4] + t[l + 5];\n}\n"

/* On a short clock a global load takes its requests and gives its answers through
 * register slices and keeps its order queue's head in a register; the local memory
 * ports of a memory node wider than one LUT's AND (six loads here) and of a node
 * straight after a global load's take requests through slices too, and so does a port
 * such a node shares (copy's one port, its store's and its load's). A local store
 * after arithmetic, and its load, keep their latency; a slower board (icebreaker) gets
 * none of them. */
Test(hls, short_clock_boards_get_request_slices)
{
    static const char *const src =
        SIX_LOCAL_LOADS
        "__kernel void copy(__global const int *a, __global int *b, __local int *t)\n"
        "{\n    int l = get_local_id(0);\n    t[l] = a[get_global_id(0)];\n"
        "    b[get_global_id(0)] = t[l];\n}\n"
        "__kernel void scaled(__global const int *a, __global int *b, __local int *t)\n"
        "{\n    int l = get_local_id(0);\n    t[l] = a[get_global_id(0)] * 3;\n"
        "    b[get_global_id(0)] = t[l];\n}\n";
    const char *const boards[] = {"sim_dc", "alveo_u250", "icebreaker"};
    for (int i = 0; i < 3; i++) {
        hls_build_result res;
        char *cu = cu_for_board(boards[i], src, "sums.cl", "sums", &res);
        cr_expect_eq(strstr(cu, ".ORDER_HEAD_REG(1)") != NULL, i < 2, "%s", boards[i]);
        cr_expect_eq(strstr(cu, ".REQ_SLICE(1)") != NULL, i < 2, "%s: the load", boards[i]);
        cr_expect_eq(strstr(cu, ".RESP_SLICE(1)") != NULL, i < 2, "%s: its answers", boards[i]);
        cr_expect_eq(strstr(cu, ".REQ_SLICE(7'b1111111)") != NULL, i < 2,
                     "%s: the store's and the six loads' ports of the local memory", boards[i]);
        free(cu);
        hls_build_result_free(&res);
        cu = cu_for_board(boards[i], src, "sums.cl", "copy", &res);
        cr_expect_eq(strstr(cu, ".REQ_SLICE(1'b1)") != NULL, i < 2, "%s: copy's port", boards[i]);
        free(cu);
        hls_build_result_free(&res);
        cu = cu_for_board(boards[i], src, "sums.cl", "scaled", &res);
        cr_expect_eq(strstr(cu, ".REQ_SLICE(1'b") == NULL, 1, "%s: scaled's port", boards[i]);
        cr_expect_eq(strstr(cu, ".RESP_SLICE(1)") != NULL, i < 2, "%s: its load", boards[i]);
        free(cu);
        hls_build_result_free(&res);
    }
}

/* The right-hand side of "assign NET = ...;" in a compute unit, or "" without one. */
static char *assignment(const char *cu, const char *net)
{
    char head[128];
    snprintf(head, sizeof head, "assign %s = ", net);
    const char *at = strstr(cu, head);
    if (!at)
        return strdup("");
    at += strlen(head);
    return strndup(at, (size_t)(strchr(at, ';') - at));
}

/* A loop admits a work-item while a credit is left: a flag that follows the count, so
 * its input ready (which runs back through the regions before it into their units)
 * starts at a register, not at a compare of the count. */
Test(hls, a_loops_entry_reads_a_credit_flag)
{
    static const char *const src =
        "__kernel void rowsum(__global const int *a, __global int *c, int n)\n"
        "{\n    int i = get_global_id(0), s = 0;\n"
        "    for (int j = 0; j < n; j++)\n        s += a[i * n + j];\n    c[i] = s;\n}\n";
    hls_build_result res;
    char *cu = cu_for_board("sim_dc", src, "rowsum.cl", "rowsum", &res);
    const char *ok = strstr(cu, "_entry_ok = ");
    cr_assert(ok, "no loop entry in the compute unit");
    while (ok > cu && ok[-1] != ' ') /* back to the net's name, r<N>_entry_ok */
        ok--;
    int n = -1;
    cr_assert_eq(sscanf(ok, "r%d_entry_ok", &n), 1, "%.40s", ok);
    char want[64], *entry_ok;
    snprintf(want, sizeof want, "r%d_entry_ok", n);
    entry_ok = assignment(cu, want);
    snprintf(want, sizeof want, "r%d_credit && ", n);
    cr_expect(!strncmp(entry_ok, want, strlen(want)) && !strchr(entry_ok, '<'), "%s", entry_ok);
    snprintf(want, sizeof want, "r%d_credit <= r%d_count != ", n, n);
    cr_expect(strstr(cu, want), "the flag follows the count");
    free(entry_ok);
    free(cu);
    lint_entry("rowsum.cl", &res, "");
    hls_build_result_free(&res);
}

/* A memory node's unit is ready for its answer when the others' answers and the next
 * stage are: its own answer's valid never runs through the join back into it. A node
 * of more units than one LUT's AND (the six local loads) gives them the shared leave. */
Test(hls, a_units_answer_ready_waits_for_the_others_only)
{
    static const char *const src = SIX_LOCAL_LOADS;
    hls_build_result res;
    char *cu = cu_for_board("sim_dc", src, "sums.cl", "sums", &res);
    char *load = assignment(cu, "lsu0_resp_ready"), *wide = assignment(cu, "lm0p1_resp_ready");
    cr_expect(strstr(load, "_out_ready") && !strstr(load, "resp_valid"), "%s", load);
    cr_expect(strstr(wide, "_leave"), "%s", wide);
    free(load);
    free(wide);
    free(cu);
    lint_entry("sums.cl", &res, "");
    hls_build_result_free(&res);
}

/* The distinct identifiers an expression reads (its inputs), up to 64 of them. */
static int expression_inputs(const char *x)
{
    char seen[64][80];
    int n = 0;
    while (*x) {
        if (isalpha((unsigned char)*x) || *x == '_') {
            char id[80];
            int len = 0;
            while ((isalnum((unsigned char)x[len]) || x[len] == '_') && len < 79)
                id[len] = x[len], len++;
            id[len] = 0;
            x += len;
            int known = 0;
            for (int i = 0; i < n && !known; i++)
                known = !strcmp(seen[i], id);
            if (!known && n < 64)
                snprintf(seen[n++], sizeof seen[0], "%s", id);
        } else if (isdigit((unsigned char)*x)) { /* a number, as 1'b1 */
            while (isalnum((unsigned char)*x) || *x == '\'')
                x++;
        } else {
            x++;
        }
    }
    return n;
}

/* A wide memory node's handshakes (twelve local loads under one predicate: their
 * requests' readies, their answers' valids) are trees of kept nets of at most one
 * LUT's six inputs, the predicate one input of the whole: left as one expression,
 * Yosys maps a wide AND into LUTs behind chains of wide multiplexers. */
Test(hls, a_wide_nodes_handshakes_are_trees_of_luts)
{
    static const char *const src =
        "__kernel void sums(__global const int *a, __global int *b, __local int *t)\n"
        "{\n    int l = get_local_id(0);\n    t[l] = a[get_global_id(0)];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (l < 52)\n"
        "        b[get_global_id(0)] = t[l] + t[l + 1] + t[l + 2] + t[l + 3] + t[l + 4]\n"
        "            + t[l + 5] + t[l + 6] + t[l + 7] + t[l + 8] + t[l + 9] + t[l + 10]\n"
        "            + t[l + 11];\n}\n";
    hls_build_result res;
    char *cu = cu_for_board("sim_dc", src, "sums.cl", "sums", &res);
    int kept = 0, readies = 0, valids = 0;
    static const char decl[] = "(* keep *) wire ";
    for (const char *at = strstr(cu, decl); at; at = strstr(at + 1, decl)) {
        char name[80];
        cr_assert_eq(sscanf(at + strlen(decl), "%79[A-Za-z0-9_]", name), 1);
        char *rhs = assignment(cu, name);
        cr_expect(rhs[0] && expression_inputs(rhs) <= 6, "%s = %s", name, rhs);
        readies += strstr(rhs, "_req_ready") != NULL;
        valids += strstr(rhs, "_resp_valid") != NULL;
        kept++;
        free(rhs);
    }
    cr_expect(readies >= 2 && valids >= 2, "%d groups of readies, %d of valids", readies, valids);
    int nodes = 0;
    for (const char *at = strstr(cu, "_in_ready = "); at; at = strstr(at + 1, "_in_ready = ")) {
        const char *net = at;
        while (net > cu && net[-1] != ' ')
            net--;
        char name[80];
        snprintf(name, sizeof name, "%.*s_in_ready", (int)(at - net), net);
        char *rhs = assignment(cu, name);
        cr_expect(expression_inputs(rhs) <= 6, "%s = %s", name, rhs);
        nodes += strstr(rhs, "_if0") != NULL;
        free(rhs);
    }
    cr_expect_eq(nodes, 1, "one node shares its units' readies behind their predicate");
    cr_expect(kept > 0);
    free(cu);
    lint_entry("sums.cl", &res, "");
    hls_build_result_free(&res);
}

/* The numbers that follow each `head` in the compute unit (a template's first
 * parameter: "clhls_imul #(.W(" gives the multipliers' widths), up to `most`; how
 * many. */
static int numbers_after(const char *cu, const char *head, int *values, int most)
{
    int n = 0;
    for (const char *at = strstr(cu, head); at && n < most; at = strstr(at + 1, head))
        values[n++] = atoi(at + strlen(head));
    return n;
}

/* An address's arithmetic is as wide as the board's address (narrow.c): on the U250
 * (36 bits) the index's 64-bit multiply is computed on 36 bits, on the default board
 * (64 bits) on all of them. */
Test(hls, address_arithmetic_is_as_wide_as_the_boards_address)
{
    static const char *const src =
        "__kernel void row(__global float *out, int w)\n"
        "{\n    out[get_global_id(1) * w + get_global_id(0)] = 1.0f;\n}\n";
    const char *const boards[] = {"alveo_u250", "sim_dc"};
    for (int i = 0; i < 2; i++) {
        hls_build_result res;
        char *cu = cu_for_board(boards[i], src, "row.cl", "row", &res);
        int widths[4];
        cr_expect_eq(numbers_after(cu, "clhls_imul #(.W(", widths, 4), 1, "%s: %s", boards[i], cu);
        cr_expect_eq(widths[0], i == 0 ? 36 : 64, "%s", boards[i]);
        cr_expect_eq(strstr(cu, "{28'd0, ") != NULL, i == 0, "%s: the product widened", boards[i]);
        free(cu);
        lint_entry("row.cl", &res, "");
        hls_build_result_free(&res);
    }
}

/* A value carried across a barrier travels with the bits its readers use: the global
 * id, read only as an address, on the U250's 36 bits, and unpacked with zeros above;
 * on the default board (64 address bits) whole. */
Test(hls, carried_values_hold_only_their_live_bits)
{
    static const char *const src =
        "__kernel void shift(__global float *out, __local float *t)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    t[get_local_id(0)] = 1.0f;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[i] = t[0];\n"
        "}\n";
    const char *const boards[] = {"alveo_u250", "sim_dc"};
    int held[2];
    for (int i = 0; i < 2; i++) {
        hls_build_result res;
        char *cu = cu_for_board(boards[i], src, "shift.cl", "shift", &res);
        const char *barrier = strstr(cu, "clhls_barrier #(.W(");
        cr_assert(barrier, "%s: no barrier in %s", boards[i], cu);
        held[i] = atoi(barrier + strlen("clhls_barrier #(.W("));
        int unpacked = 0; /* a token's field widened: "{28'd0, r2_out_data[55:20]}" */
        for (const char *at = strstr(cu, "{28'd0, r"); at; at = strstr(at + 1, "{28'd0, r"))
            unpacked |= strncmp(at + strcspn(at, "_["), "_out_data[", 10) == 0;
        cr_expect_eq(unpacked, i == 0, "%s: %s", boards[i], cu);
        free(cu);
        lint_entry("shift.cl", &res, "");
        hls_build_result_free(&res);
    }
    cr_expect_leq(held[0] + 28, held[1], "the barrier holds %d bits on the U250, %d on sim_dc",
                  held[0], held[1]);
}

/* Inside a region too, a value's registers hold the bits its readers use: the 64-bit
 * local addresses (18 bits read on the U250) and global ones (36) are registered and
 * delayed on those bits, not on 64. */
Test(hls, registers_hold_only_the_bits_read)
{
    static const char *const src =
        "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
        "void taps(__global const int *in, __global int *out, __local int *t)\n"
        "{\n"
        "    size_t l = get_local_id(0);\n"
        "    t[l] = in[get_global_id(0)];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0)] = t[l] + t[(l + 1) & 63] * t[(l + 2) & 63] + t[(l + 3) & 63];\n"
        "}\n";
    hls_build_result res;
    char *cu = cu_for_board("alveo_u250", src, "taps.cl", "taps", &res);
    int widths[256], delays = numbers_after(cu, "clhls_delay #(.WIDTH(", widths, 256);
    delays += numbers_after(cu, "clhls_delay_taps #(.WIDTH(", widths + delays, 256 - delays);
    for (int i = 0; i < delays; i++)
        cr_expect(widths[i] == 18 || widths[i] == 36 || widths[i] <= 32 || widths[i] > 64,
                  "a delay line of %d bits: %s", widths[i], cu);
    cr_expect_geq(delays, 10, "%s", cu);
    free(cu);
    lint_entry("taps.cl", &res, "");
    hls_build_result_free(&res);
}

/* `row * n` before a loop that may run no trip: LLVM computes it in the loop's
 * preheader and again on the path around the loop, neither before the other; in the
 * region if-conversion makes of both it is one multiplier (common_values.c). */
Test(hls, a_value_computed_on_two_paths_is_one_operator)
{
    static const char *const src =
        "__kernel void rows(__global const int *in, __global int *out, int n)\n"
        "{\n"
        "    int row = get_global_id(0);\n"
        "    int acc = 0;\n"
        "    for (int k = 0; k < n; k++)\n"
        "        acc += in[row * n + k];\n"
        "    out[row * n] = acc;\n"
        "}\n";
    hls_build_result res;
    char *cu = cu_for_board("sim_dc", src, "rows.cl", "rows", &res);
    int multipliers = 0;
    for (const char *at = strstr(cu, "clhls_imul #("); at; at = strstr(at + 1, "clhls_imul #("))
        multipliers++;
    cr_expect_eq(multipliers, 1, "%s", cu);
    free(cu);
    lint_entry("rows.cl", &res, "");
    hls_build_result_free(&res);
}

/* With reqd_work_group_size and uniform work-groups (OpenCL C 1.2) every group has the
 * one size: get_local_size and the barrier's group size are constants, not token
 * fields carried with every work-item. OpenCL C 2.0 allows a smaller last group: the
 * size is the work-item's. */
Test(hls, a_required_group_size_is_a_constant_when_groups_are_uniform)
{
    static const char *const src =
        "__kernel __attribute__((reqd_work_group_size(16, 4, 1)))\n"
        "void tile(__global int *out, __local int *t)\n"
        "{\n"
        "    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
        "    t[l] = (int)get_global_id(0);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
        "        t[get_local_size(0) * get_local_size(1) - 1 - l];\n"
        "}\n";
    const char *const options[] = {"", "-cl-std=CL2.0"};
    int held[2];
    for (int i = 0; i < 2; i++) {
        hls_build_result res;
        cr_assert_eq(build(src, "tile.cl", options[i], 0, &res), HLS_OK, "%s", res.log);
        char *cu = entry_file(&res, "rtl/clhls_cu_tile.v");
        const char *barrier = strstr(cu, "clhls_barrier #(.W("), *size = strstr(cu, ".s_size(");
        cr_assert(barrier && size, "no barrier in %s", cu);
        held[i] = atoi(barrier + strlen("clhls_barrier #(.W("));
        /* a constant's net is v<id>, a value the work-item brings r<region>_in_v<id> */
        cr_expect_eq(size[strlen(".s_size(")] == 'v', i == 0, "%s: %.40s", options[i], size);
        free(cu);
        lint_entry("tile.cl", &res, "");
        hls_build_result_free(&res);
    }
    cr_expect_leq(held[0] + 32, held[1], "the barrier holds %d bits uniform, %d not", held[0],
                  held[1]);
}

/* A local access's address is as wide as its local memory's port ({slot, address}),
 * a __constant table read's as its table: the 32-bit multiply of a local index by a
 * run-time width is computed on those bits. */
Test(hls, local_and_table_addresses_are_as_wide_as_their_memory)
{
    static const char *const src =
        "__constant int steps[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
        "__kernel void rows(__global float *out, int w)\n"
        "{\n"
        "    __local float tile[1024];\n"
        "    tile[(int)get_local_id(1) * w + (int)get_local_id(0)] = 1.0f;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0)] = tile[get_local_id(0)] + steps[(int)get_local_id(0) * w & 7];\n"
        "}\n";
    hls_build_result res;
    char *cu = cu_for_board("sim_dc", src, "rows.cl", "rows", &res);
    int widths[4], multiplies = numbers_after(cu, "clhls_imul #(.W(", widths, 4);
    for (int i = 0; i < multiplies; i++)
        cr_expect(widths[i] > 0 && widths[i] < 31, "a multiply on %d bits", widths[i]);
    cr_expect_eq(multiplies, 2, "%s", cu);
    free(cu);
    lint_entry("rows.cl", &res, "");
    hls_build_result_free(&res);
}

Test(hls, arguments_beyond_the_parameter_area_are_an_error)
{
    /* 223 longs and a pointer fill the 1792-byte area; a char more does not fit. */
    char src[16384] = "__kernel void many(__global long *out";
    for (int i = 0; i < 223; i++)
        snprintf(src + strlen(src), sizeof src - strlen(src), ", long a%d", i);
    strcat(src, ")\n{\n    out[0] = a0 + a222;\n}\n");
    hls_build_result res;
    cr_expect_eq(build(src, "many.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    hls_build_result_free(&res);
    strcpy(strstr(src, ")\n{"), ", char c)\n{\n    out[0] = c;\n}\n");
    cr_expect_eq(build(src, "many.cl", NULL, 0, &res), HLS_ERR_UNSUPPORTED);
    cr_expect(strstr(res.log, "many.cl:1:15: error: the arguments of kernel 'many' take 1800 "
                              "bytes; at most 1792 fit in the argument area "
                              "(CL_DEVICE_MAX_PARAMETER_SIZE promises 1024)"),
              "%s", res.log);
    hls_build_result_free(&res);
}

Test(hls, arguments_are_packed_so_any_order_fits)
{
    /* Sizes that add up to 1024 bytes in an order that would need 2006 bytes with C
     * struct alignment (each long16 on a 128-byte boundary after a char): packed, each
     * right after the one before, they fit, at the offsets the sizes give. */
    static const char *const types[] = {"long16", "long16", "long16", "long16", "long16",
                                        "long16", "long16", "long8", "long4", "long"};
    static const int bytes[] = {128, 128, 128, 128, 128, 128, 128, 64, 32, 8};
    char src[8192] = "__kernel void k(__global long *out";
    for (int i = 0; i < 10; i++)
        snprintf(src + strlen(src), sizeof src - strlen(src), ", char c%d, %s v%d", i, types[i],
                 i);
    strcat(src, ", char d0, char d1, char d2, char d3, char d4, char d5)\n{\n"
                "    out[0] = c0 + v0.s0 + c9 + v9 + d5;\n}\n");
    hls_build_result res;
    cr_assert_eq(build(src, "k.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    cJSON *meta = load_metadata(&res);
    const cJSON *k = kernel_named(meta, "k");
    const cJSON *args = cJSON_GetObjectItem(k, "args");
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(k, "arg_area"), "bytes")->valueint,
                 1024);
    int offset = 8; /* after the pointer */
    for (int i = 0; i < 10; i++) {
        cr_expect_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(args, 1 + 2 * i), "offset")->valueint,
                     offset, "c%d", i);
        cr_expect_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(args, 2 + 2 * i), "offset")->valueint,
                     offset + 1, "v%d", i);
        offset += 1 + bytes[i];
    }
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(args, 26), "offset")->valueint, 1023);
    cJSON_Delete(meta);
    hls_build_result_free(&res);
}

/* The scheduler's latencies for the fixed-latency units are the templates' own (their
 * headers state LATENCY for each format). */
static void expect_template_latency(const char *module, int latency32, int latency64)
{
    char path[512], want[64];
    snprintf(path, sizeof path, "%s/%s.v", RTL_DIR, module);
    char *src = slurp(path);
    snprintf(want, sizeof want, "LATENCY = %d at W = 32, %d at W = 64", latency32, latency64);
    cr_expect(strstr(src, want), "%s does not say %s", path, want);
    free(src);
}

Test(hls, fixed_latencies_match_the_templates)
{
    expect_template_latency("clhls_fdiv", HLS_FDIV_LATENCY(32), HLS_FDIV_LATENCY(64));
    expect_template_latency("clhls_fsqrt", HLS_FSQRT_LATENCY(32), HLS_FSQRT_LATENCY(64));
}

Test(hls, metadata_names_the_vec_type_hint)
{
    hls_build_result res;
    cr_assert_eq(build("__kernel __attribute__((vec_type_hint(int8))) void v(__global int *a)\n"
                       "{ a[0] = 1; }\n"
                       "__kernel __attribute__((vec_type_hint(ushort))) void s(__global int *a)\n"
                       "{ a[0] = 2; }\n"
                       "__kernel void none(__global int *a) { a[0] = 3; }\n",
                       "k.cl", NULL, 0, &res),
                 HLS_OK, "%s", res.log);
    cJSON *meta = load_metadata(&res);
    cr_expect_str_eq(cJSON_GetObjectItem(kernel_named(meta, "v"), "vec_type_hint")->valuestring,
                     "int8");
    cr_expect_str_eq(cJSON_GetObjectItem(kernel_named(meta, "s"), "vec_type_hint")->valuestring,
                     "ushort");
    cr_expect_str_eq(
        cJSON_GetObjectItem(kernel_named(meta, "none"), "vec_type_hint")->valuestring, "");
    cJSON_Delete(meta);
    hls_build_result_free(&res);
}

/* metadata.json lists the channels (depth(1) built with two entries, the note saying
 * so), and each end's kernel has the channel as a probe naming the other end. */
Test(hls, metadata_lists_channels_and_their_probes)
{
    hls_build_result res;
    cr_assert_eq(build("#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
                       "channel int c __attribute__((depth(1)));\n"
                       "__kernel void w(int x) { write_channel_intel(c, x); }\n"
                       "__kernel void r(__global int *o) { o[0] = read_channel_intel(c); }\n",
                       "k.cl", NULL, 0, &res),
                 HLS_OK, "%s", res.log);
    cr_expect(strstr(res.log, "channel 'c' holds 2 elements, more than its depth(1)"), "%s",
              res.log);
    cJSON *meta = load_metadata(&res);
    const cJSON *chs = cJSON_GetObjectItem(meta, "channels");
    cr_assert_eq(cJSON_GetArraySize(chs), 1);
    const cJSON *ch = cJSON_GetArrayItem(chs, 0);
    cr_expect_str_eq(cJSON_GetObjectItem(ch, "name")->valuestring, "c");
    cr_expect_eq(cJSON_GetObjectItem(ch, "bits")->valueint, 32);
    cr_expect_eq(cJSON_GetObjectItem(ch, "declared_depth")->valueint, 1);
    cr_expect_eq(cJSON_GetObjectItem(ch, "depth")->valueint, 2);
    cr_expect_str_eq(cJSON_GetObjectItem(ch, "writer")->valuestring, "w");
    cr_expect_str_eq(cJSON_GetObjectItem(ch, "reader")->valuestring, "r");
    static const char *const ends[][2] = {{"w", "r"}, {"r", "w"}};
    for (int i = 0; i < 2; i++) { /* the first probe of each end */
        const cJSON *p = cJSON_GetArrayItem(
            cJSON_GetObjectItem(kernel_named(meta, ends[i][0]), "probes"), 0);
        cr_assert(p);
        cr_expect_eq(cJSON_GetObjectItem(p, "capacity")->valueint, 2);
        cr_expect_str_eq(cJSON_GetObjectItem(p, "peer")->valuestring, ends[i][1]);
        cr_expect_eq(cJSON_GetObjectItem(p, "peer_unit")->valueint, i == 0 ? 1 : 0);
    }
    cJSON_Delete(meta);
    hls_build_result_free(&res);
}

/* OpenCL 2.0 pipes: the arguments of one name are one FIFO, as deep as the larger of
 * the two ends' depth attributes (blanked before clang sees them: no warning); the
 * arguments are of kind "pipe" with the packet's size and that depth. */
Test(hls, pipes_join_arguments_of_one_name)
{
    hls_build_result res;
    cr_assert_eq(build("__kernel void w(__global const int2 *in,\n"
                       "                write_only pipe int2 __attribute__((depth(6))) p,\n"
                       "                write_only pipe char  __attribute__((blocking)) q)\n"
                       "{ int2 v = in[0]; write_pipe(p, &v); char c = 1; write_pipe(q, &c); }\n"
                       "__kernel void r(read_only pipe int2 __attribute__((depth(12)))\n"
                       "                    __attribute__((blocking)) p,\n"
                       "                read_only pipe char q, __global int *o)\n"
                       "{ int2 v; read_pipe(p, &v); char c; o[0] = read_pipe(q, &c) + v.x + c;\n"
                       "  o[1] = get_pipe_max_packets(q); }\n",
                       "k.cl", "-cl-std=CL2.0", 0, &res),
                 HLS_OK, "%s", res.log);
    cr_expect(!strstr(res.log, "unknown attribute"), "%s", res.log);
    cJSON *meta = load_metadata(&res);
    const cJSON *chs = cJSON_GetObjectItem(meta, "channels");
    cr_assert_eq(cJSON_GetArraySize(chs), 2);
    static const struct { const char *name; int bits, depth; } want[] = {{"p", 64, 12},
                                                                          {"q", 8, 16}};
    for (int i = 0; i < 2; i++) {
        const cJSON *ch = cJSON_GetArrayItem(chs, i);
        cr_expect_str_eq(cJSON_GetObjectItem(ch, "name")->valuestring, want[i].name);
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(ch, "pipe")));
        cr_expect_eq(cJSON_GetObjectItem(ch, "bits")->valueint, want[i].bits);
        cr_expect_eq(cJSON_GetObjectItem(ch, "depth")->valueint, want[i].depth);
        cr_expect_str_eq(cJSON_GetObjectItem(ch, "writer")->valuestring, "w");
        cr_expect_str_eq(cJSON_GetObjectItem(ch, "reader")->valuestring, "r");
    }
    const cJSON *args = cJSON_GetObjectItem(kernel_named(meta, "r"), "args");
    const cJSON *p = cJSON_GetArrayItem(args, 0), *q = cJSON_GetArrayItem(args, 1);
    cr_expect_str_eq(cJSON_GetObjectItem(p, "kind")->valuestring, "pipe");
    cr_expect_eq(cJSON_GetObjectItem(p, "size")->valueint, 8);
    cr_expect_eq(cJSON_GetObjectItem(p, "pipe_depth")->valueint, 12);
    cr_expect_str_eq(cJSON_GetObjectItem(q, "kind")->valuestring, "pipe");
    cr_expect_eq(cJSON_GetObjectItem(q, "size")->valueint, 1);
    cr_expect_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(args, 2), "kind")->valuestring,
                     "buffer");
    cJSON_Delete(meta);
    hls_build_result_free(&res);
}

/* An autorun kernel: its attributes blanked (no warning), its body a loop pipelined at
 * II 1, "autorun" in metadata.json and "peer_autorun" on the probes of the channels to
 * it. */
Test(hls, autorun_kernels_loop_for_ever)
{
    hls_build_result res;
    cr_assert_eq(build("#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
                       "channel int c_in, c_out;\n"
                       "__kernel void feed(int x) { write_channel_intel(c_in, x); }\n"
                       "__attribute__((max_global_work_dim(0)))\n"
                       "__attribute__((autorun))\n"
                       "__kernel void twice(void)\n"
                       "{ write_channel_intel(c_out, read_channel_intel(c_in) * 2); }\n"
                       "__kernel void drain(__global int *o) { o[0] = read_channel_intel(c_out); }\n",
                       "k.cl", NULL, 0, &res),
                 HLS_OK, "%s", res.log);
    cr_expect(!strstr(res.log, "unknown attribute"), "%s", res.log);
    cJSON *meta = load_metadata(&res);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(kernel_named(meta, "twice"), "autorun")));
    cr_expect(!cJSON_GetObjectItem(kernel_named(meta, "feed"), "autorun"));
    const cJSON *probe = cJSON_GetArrayItem(
        cJSON_GetObjectItem(kernel_named(meta, "feed"), "probes"), 0);
    cr_expect_str_eq(cJSON_GetObjectItem(probe, "peer")->valuestring, "twice");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(probe, "peer_autorun")));
    cJSON_Delete(meta);
    cJSON *rep = load_report(&res);
    const cJSON *k, *twice = NULL;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(rep, "kernels"))
        if (!strcmp(cJSON_GetObjectItem(k, "name")->valuestring, "twice"))
            twice = k;
    cr_assert(twice);
    const cJSON *r, *loop = NULL;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(twice, "regions"))
        if (!strcmp(cJSON_GetObjectItem(r, "kind")->valuestring, "loop"))
            loop = r;
    cr_assert(loop, "the body is not a loop");
    cr_expect_str_eq(cJSON_GetObjectItem(loop, "mode")->valuestring, "pipelined");
    cr_expect_eq(cJSON_GetObjectItem(loop, "ii")->valueint, 1);
    cJSON_Delete(rep);
    hls_build_result_free(&res);
}

/* Compute units: num_compute_units(N) blanked before clang sees it (no warning), the
 * build option winning over it, every other kernel at the board's one; the metadata
 * and report.json say how many, and the kernel's module holds that many copies of its
 * compute unit (clhls_cu_NAME_one), each with its own load-store units. */
Test(hls, compute_units_replicate_a_kernel)
{
    hls_build_result res;
    cr_assert_eq(build("__attribute__((num_compute_units(2)))\n"
                       "__kernel void twice(__global int *a) { a[get_global_id(0)] *= 2; }\n"
                       "__attribute__((num_compute_units(4)))\n"
                       "__kernel void over(__global int *a) { a[get_global_id(0)] += 1; }\n"
                       "__kernel void once(__global int *a) { a[get_global_id(0)] = 0; }\n",
                       "k.cl", "-clhls-compute-units=over:3", 0, &res),
                 HLS_OK, "%s", res.log);
    cr_expect(!strstr(res.log, "unknown attribute"), "%s", res.log);
    cJSON *meta = load_metadata(&res);
    static const struct { const char *name; int units; } want[] = {
        {"twice", 2}, {"over", 3}, {"once", 1}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(cJSON_GetObjectItem(kernel_named(meta, want[i].name), "compute_units")
                         ->valueint,
                     want[i].units, "%s", want[i].name);
    cJSON_Delete(meta);
    char path[4096];
    snprintf(path, sizeof path, "%s/rtl/clhls_cu_over.v", res.entry_dir);
    char *text = slurp(path);
    cr_assert(text);
    for (int u = 0; u < 3; u++) {
        char inst[64];
        snprintf(inst, sizeof inst, "clhls_cu_over_one cu%d (", u);
        cr_expect(strstr(text, inst), "no %s in\n%s", inst, text);
    }
    cr_expect(!strstr(text, "cu3 ("), "%s", text);
    cr_expect(strstr(text, ".peer_events({cu2_events, cu1_events})"), "%s", text);
    free(text);
    snprintf(path, sizeof path, "%s/rtl/clhls_cu_once_one.v", res.entry_dir);
    cr_expect(access(path, F_OK) != 0, "a kernel of one compute unit has one module");
    hls_build_result_free(&res);
}

/* SIMD work-items: num_simd_work_items(16) blanked before clang sees it; the sixteen
 * lanes' accesses, although nothing says the buffers do not alias (the lanes are
 * different work-items), become one 512-bit access per array; the metadata has the
 * kernel's required size and the width, report.json the width. */
Test(hls, simd_lanes_make_wide_accesses)
{
    hls_build_result res;
    cr_assert_eq(build("__attribute__((num_simd_work_items(16)))\n"
                       "__attribute__((reqd_work_group_size(64, 1, 1)))\n"
                       "__kernel void vadd(__global const float *a, __global const float *b,\n"
                       "                   __global float *c)\n"
                       "{ int i = get_global_id(0); c[i] = a[i] + b[i]; }\n",
                       "k.cl", NULL, 0, &res),
                 HLS_OK, "%s", res.log);
    cr_expect(!strstr(res.log, "unknown attribute"), "%s", res.log);
    cJSON *meta = load_metadata(&res);
    const cJSON *k = kernel_named(meta, "vadd");
    cr_expect_eq(cJSON_GetObjectItem(k, "simd_work_items")->valueint, 16);
    cr_expect_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(k, "reqd_work_group_size"), 0)->valueint,
                 64);
    cr_expect_eq(cJSON_GetObjectItem(k, "max_work_group_size")->valueint, 64);
    cJSON_Delete(meta);
    cJSON *rep = load_report(&res);
    const cJSON *rk = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "kernels"), 0);
    cr_expect_eq(cJSON_GetObjectItem(rk, "simd_work_items")->valueint, 16);
    const cJSON *lsus = cJSON_GetObjectItem(rk, "lsus"), *u;
    cr_expect_eq(cJSON_GetArraySize(lsus), 3, "one load-store unit per array");
    cJSON_ArrayForEach(u, lsus)
        cr_expect_eq(cJSON_GetObjectItem(u, "width_bits")->valueint, 512);
    cJSON_Delete(rep);
    hls_build_result_free(&res);
}

/* Bit reinterpretations gathered into a vector stay per-element operations (instcombine
 * would otherwise leave a vector bitcast and a shuffle behind). */
Test(hls, bitcasts_into_a_vector_build)
{
    hls_build_result res;
    cr_expect_eq(build("__kernel void k(__global const float4 *a, __global float4 *o)\n"
                       "{\n"
                       "    float4 x = a[get_global_id(0)];\n"
                       "    o[get_global_id(0)] = (float4)(copysign(x.x, x.y), as_float(as_int(x.z) ^ 1),\n"
                       "                                   x.w, x.x);\n"
                       "}\n",
                       "k.cl", NULL, 0, &res),
                 HLS_OK, "%s", res.log);
    hls_build_result_free(&res);
}

Test(hls, a_barrier_work_items_may_reach_differently_is_a_warning)
{
    /* the trip count is the work-item's own: warned at the barrier; a trip count and
     * a branch the whole group shares (a reduction) are not */
    const char *src = "__kernel void divergent(__global int *o)\n"
                      "{\n"
                      "    for (int i = 0; i < o[get_local_id(0)]; i++)\n"
                      "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "}\n"
                      "__kernel void uniform(__global int *o, __local int *s, int n)\n"
                      "{\n"
                      "    int l = get_local_id(0);\n"
                      "    for (int d = n; d > 0; d >>= 1) {\n"
                      "        if (l < d)\n"
                      "            s[l] += s[l + d];\n"
                      "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    }\n"
                      "    if (get_group_id(0) & 1)\n"
                      "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    o[l] = s[0];\n"
                      "}\n";
    hls_build_result res;
    cr_assert_eq(build(src, "barriers.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    cr_expect(strstr(res.log, "barriers.cl:4:9: warning: work-items of a group may reach this "
                              "barrier a different number of times"), "%s", res.log);
    cr_expect_null(strstr(res.log, "barriers.cl:12:"), "%s", res.log);
    cr_expect_null(strstr(res.log, "barriers.cl:15:"), "%s", res.log);
    hls_build_result_free(&res);
}

Test(hls, loop_coalesce_names_the_loop_that_keeps_a_nest_apart)
{
    /* a nest of counted loops runs as one loop: nothing to say; an inner loop whose exit
     * test is a sum's is not counted, and one kept serial by a pragma is not pipelined:
     * each a warning at the pragma naming that loop */
    const char *src = "__kernel void rows(__global const int *restrict a,\n"
                      "                   __global int *restrict c, int m)\n"
                      "{\n"
                      "#pragma loop_coalesce\n"
                      "    for (int r = 0; r < 64; r++)\n"
                      "        for (int k = 0; k < m; k++)\n"
                      "            c[r * m + k] = a[r * m + k] + 1;\n"
                      "}\n"
                      "__kernel void sums(__global int *restrict c, int m)\n"
                      "{\n"
                      "#pragma loop_coalesce 2\n"
                      "    for (int r = 0; r < 64; r++) {\n"
                      "        int s = 0, i = 0;\n"
                      "        for (; s < m; i++)\n"
                      "            s += i * r;\n"
                      "        c[r] = i;\n"
                      "    }\n"
                      "}\n"
                      "__kernel void kept(__global int *restrict c, int m)\n"
                      "{\n"
                      "#pragma loop_coalesce\n"
                      "    for (int r = 0; r < 64; r++) {\n"
                      "#pragma disable_loop_pipelining\n"
                      "        for (int k = 0; k < m; k++)\n"
                      "            c[r * m + k] = k;\n"
                      "    }\n"
                      "}\n";
    hls_build_result res;
    cr_assert_eq(build(src, "k.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    cr_expect_null(strstr(res.log, "k.cl:4:"), "%s", res.log);
    cr_expect(strstr(res.log, "k.cl:11:9: warning: '#pragma loop_coalesce 2' is not achieved in "
                              "kernel 'sums': the loop at k.cl:14 is not counted (its exit test "
                              "is not a counter against a bound fixed before it: each run of it "
                              "costs the cycles until its test is known), so the nest does not "
                              "run as one loop"), "%s", res.log);
    cr_expect(strstr(res.log, "k.cl:21:9: warning: '#pragma loop_coalesce' is not achieved in "
                              "kernel 'kept': the loop at k.cl:24 runs one iteration at a time: "
                              "#pragma disable_loop_pipelining at k.cl:23, so the nest does not "
                              "run as one loop"), "%s", res.log);
    hls_build_result_free(&res);
}

Test(hls, loop_pragmas_not_honoured_are_warnings_at_the_pragma)
{
    /* #pragma ii 1 on an in-order float sum (the adder's latency needs II 5), Intel's
     * pragmas clhls does not implement, ivdep with array (the loop keeps its checks),
     * Xilinx's HLS pragma and a pragma of an NDRange kernel: each a warning with its
     * name, line, column and caret, and never clang's "unknown pragma ignored" */
    const char *src = "__kernel void fsum(__global const float *restrict a,\n"
                      "                   __global float *restrict out, int n)\n"
                      "{\n"
                      "    float s = 0.0f;\n"
                      "    #pragma ii 1\n"
                      "    for (int i = 0; i < n; i++)\n"
                      "        s += a[i];\n"
                      "    out[0] = s;\n"
                      "}\n"
                      "__kernel void other(__global int *restrict a, __global const int *idx,\n"
                      "                    int n)\n"
                      "{\n"
                      "#pragma loop_coalesce two\n"
                      "#pragma max_concurrency 1\n"
                      "#pragma max_interleaving two\n"
                      "#pragma speculated_iterations 0\n"
                      "#pragma ivdep array(a)\n"
                      "    for (int i = 0; i < n; i++) {\n"
                      "#pragma HLS pipeline II=1\n"
                      "        a[idx[i]] += 1;\n"
                      "    }\n"
                      "}\n"
                      "__kernel void nd(__global int *a, int n)\n"
                      "{\n"
                      "#pragma ivdep\n"
                      "    for (int i = 0; i < n; i++)\n"
                      "        a[get_global_id(0) * n + i] = i;\n"
                      "}\n";
    hls_build_result res;
    cr_assert_eq(build(src, "k.cl", NULL, 0, &res), HLS_OK, "%s", res.log);
    cr_expect(strstr(res.log, "k.cl:5:13: warning: '#pragma ii 1' cannot be honoured in "
                              "kernel 'fsum': the loop's II is 5: a value carried to the next "
                              "iteration goes through the fadd at k.cl:7:11, ready 5 cycles "
                              "after the value it starts from\n"
                              "    #pragma ii 1\n"
                              "            ^\n"), "%s", res.log);
    static const char *const unimplemented[] = {
        "k.cl:15:9: warning: '#pragma max_interleaving two' is ignored: it wants a number, "
        "the work-items that may take turns (0: as many as the II needs)",
        "k.cl:16:9: warning: '#pragma speculated_iterations 0' is not implemented",
        "k.cl:17:9: warning: '#pragma ivdep array(a)' is not honoured",
        "k.cl:19:9: warning: '#pragma HLS pipeline II=1' is not implemented",
        "k.cl:25:9: warning: '#pragma ivdep' has no effect in kernel 'nd'",
    };
    for (size_t i = 0; i < sizeof unimplemented / sizeof *unimplemented; i++)
        cr_expect(strstr(res.log, unimplemented[i]), "%s not in:\n%s", unimplemented[i],
                  res.log);
    cr_expect(strstr(res.log, "k.cl:13:9: warning: '#pragma loop_coalesce two' is ignored: it "
                              "wants nothing or a positive number"), "%s", res.log);
    /* ivdep array() is not honoured: the loop keeps its dependence (one iteration at a
     * time through the accesses that may meet) */
    cr_expect(strstr(res.log, "loop in kernel 'other': II "), "%s", res.log);
    cr_expect(strstr(res.log, "one iteration at a time through memory: the load at k.cl:20 "
                              "may read"), "%s", res.log);
    cr_expect_null(strstr(res.log, "unknown pragma"), "%s", res.log);
    hls_build_result_free(&res);
}
