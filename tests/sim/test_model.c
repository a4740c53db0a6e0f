/* Model tests: real Verilator builds of the hand-written clhls_top fixtures in
 * fixtures/, loaded with dlopen into this (sanitized) process and run against the
 * board memory model. The fixture models are built once per run of this binary, in
 * the runner process before any test starts (a PRE_ALL hook), into a temporary
 * directory whose path the tests find in the environment; Verilator's runtime is
 * cached in the build tree across runs. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clhls_sim.h"

#define ENV_DIR "CLHLS_SIM_TEST_MODELS"

static const char *const fixtures[] = {"copy", "hang", "badaddr"};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Builds fixtures/<src>.v (after fixtures/<pre>, when given) into dir/<name>.so;
 * prints the log on failure. */
static int build_fixture(const char *dir, const char *pre, const char *src, const char *name)
{
    char vfile[1024], prefile[1024], work[1024], so[1024];
    snprintf(vfile, sizeof vfile, "%s/%s.v", SIM_TEST_FIXTURES, src);
    snprintf(prefile, sizeof prefile, "%s/%s", SIM_TEST_FIXTURES, pre ? pre : "");
    snprintf(work, sizeof work, "%s/work-%s", dir, name);
    snprintf(so, sizeof so, "%s/%s.so", dir, name);
    const char *files[] = {prefile, vfile};
    char *log = NULL;
    double t0 = now_s();
    int rc = sim_build_model(pre ? files : files + 1, pre ? 2 : 1, "clhls_top", work,
                             SIM_TEST_RUNTIME_DIR, so, &log);
    fprintf(stderr, "[sim tests] built %s in %.2f s (rc %d)\n", name, now_s() - t0, rc);
    if (rc != SIM_OK)
        fprintf(stderr, "%s\n", log ? log : "(no log)");
    free(log);
    return rc;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static char models_dir[512];

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    snprintf(models_dir, sizeof models_dir, "/tmp/clhls-simtest-XXXXXX");
    if (!mkdtemp(models_dir)) {
        perror("mkdtemp");
        return;
    }
    setenv(ENV_DIR, models_dir, 1);
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
        build_fixture(models_dir, NULL, fixtures[i], fixtures[i]);
    build_fixture(models_dir, NULL, "copy", "copy_b"); /* a second library, same design */
    build_fixture(models_dir, "width32.vh", "copy", "copy_w32");
    build_fixture(models_dir, "width1024.vh", "copy", "copy_w1024");
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    if (models_dir[0] && !getenv("CLHLS_SIM_TEST_KEEP"))
        nftw(models_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static board_t *dc;

static void load_board(void)
{
    char err[256];
    dc = board_load("sim_dc", err, sizeof err);
    cr_assert_not_null(dc, "%s", err);
}

static void free_board(void) { board_free(dc); }

static sim_model *open_fixture(const char *name, const board_t *board)
{
    const char *dir = getenv(ENV_DIR);
    cr_assert_not_null(dir, "the PRE_ALL hook did not run");
    char so[1024], err[512];
    snprintf(so, sizeof so, "%s/%s.so", dir, name);
    sim_model *m = sim_model_open(so, board, err, sizeof err);
    cr_assert_not_null(m, "%s", err);
    return m;
}

#define SRC 0x10000u
#define DST 0x4000000u

/* Port word size of the model under test. */
static uint64_t wb = 64;

/* Maps src/dst buffers of n words, fills src with a pattern (seeded), starts a copy. */
static void setup_copy(sim_model *m, sim_memory *mem, uint64_t n, unsigned seed)
{
    uint64_t bytes = n * wb;
    cr_assert_eq(sim_memory_map(mem, SRC, bytes ? bytes : wb), SIM_OK);
    cr_assert_eq(sim_memory_map(mem, DST, bytes ? bytes : wb), SIM_OK);
    uint8_t *p = sim_memory_ptr(mem, SRC, bytes);
    for (uint64_t i = 0; i < bytes; i++)
        p[i] = (uint8_t)((i * 131 + seed) ^ (i >> 8));
    sim_model_reset(m);
    sim_model_reg_write(m, 32, SRC);
    sim_model_reg_write(m, 33, DST);
    sim_model_reg_write(m, 34, n);
    sim_model_reg_write(m, 0, 1);
}

static void check_copy(sim_memory *mem, uint64_t n)
{
    uint8_t *s = sim_memory_ptr(mem, SRC, n * wb), *d = sim_memory_ptr(mem, DST, n * wb);
    cr_assert_eq(memcmp(s, d, n * wb), 0, "destination differs from source");
}

/* Runs a copy of n words on board b with fixture name; returns the run's cycles. */
static uint64_t copy_cycles_of(const char *name, const board_t *b, uint64_t n)
{
    wb = b->mem_width_bits / 8;
    sim_model *m = open_fixture(name, b);
    sim_memory *mem = sim_memory_create(b);
    setup_copy(m, mem, n, 3);
    sim_run_result r;
    int rc = sim_model_run(m, mem, 1, 2, 10000000, &r);
    cr_assert_eq(rc, SIM_OK, "copy of %lu words: status %d", (unsigned long)n, rc);
    check_copy(mem, n);
    cr_assert_eq(r.mem_requests, 2 * n);
    cr_assert_eq(r.mem_read_bytes, wb * n);
    cr_assert_eq(r.mem_write_bytes, wb * n);
    cr_assert_eq(sim_model_reg_read(m, 1) & 3, 2, "done, not busy");
    sim_memory_destroy(mem);
    sim_model_close(m);
    return r.cycles;
}

static uint64_t copy_cycles(const board_t *b, uint64_t n) { return copy_cycles_of("copy", b, n); }

/* The harness copies signals of every Verilator type: 32 bits (IData data, CData
 * strobes) and 1024 bits (VlWide data and strobes). */
Test(model, copy_other_widths)
{
    board_t b = *dc;
    b.mem_width_bits = 32;
    copy_cycles_of("copy_w32", &b, 301);
    b.mem_width_bits = 1024;
    copy_cycles_of("copy_w1024", &b, 77);
}

TestSuite(model, .init = load_board, .fini = free_board, .timeout = 120);

Test(model, copy_one_word_latency)
{
    uint64_t c = copy_cycles(dc, 1);
    cr_assert_geq(c, 2 * (uint64_t)dc->mem_latency_cycles, "one word took %lu cycles",
                  (unsigned long)c);
    cr_assert_leq(c, 2 * (uint64_t)dc->mem_latency_cycles + 10);
}

/* Steady state: cycles per word, from the difference of two copy lengths. */
static void steady_state(const board_t *b)
{
    uint64_t c1 = copy_cycles(b, 256), c2 = copy_cycles(b, 2304);
    double per_word = (double)(c2 - c1) / 2048.0;
    double bpc = board_mem_bytes_per_cycle(b);
    double bound = 2 * 64 / (bpc < 64 ? bpc : 64); /* a read and a write per word */
    fprintf(stderr, "[sim tests] copy: %.3f cycles/word, bandwidth bound %.3f\n", per_word,
            bound);
    /* the hard bound holds for whole runs; the steady state comes close to it */
    cr_assert_geq((double)c1, 256 * bound);
    cr_assert_geq((double)c2, 2304 * bound);
    cr_assert_geq(per_word, bound * 0.98);
    cr_assert_leq(per_word, bound * 1.05);
}

Test(model, copy_steady_state_full_bandwidth) { steady_state(dc); }

Test(model, copy_steady_state_low_bandwidth)
{
    board_t b = *dc;
    b.mem_bandwidth_gbps = dc->mem_bandwidth_gbps / 4; /* 16 bytes per cycle */
    steady_state(&b);
}

Test(model, copy_zero_words)
{
    sim_model *m = open_fixture("copy", dc);
    sim_memory *mem = sim_memory_create(dc);
    setup_copy(m, mem, 0, 0);
    sim_run_result r;
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 1000, &r), SIM_OK);
    cr_assert_eq(r.mem_requests, 0);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

Test(model, timeout_exact_budget)
{
    sim_model *m = open_fixture("hang", dc);
    sim_memory *mem = sim_memory_create(dc);
    sim_model_reg_write(m, 0, 1);
    uint64_t before = sim_model_cycles(m);
    const uint64_t budget = 5000000;
    sim_run_result r;
    double t0 = now_s();
    int rc = sim_model_run(m, mem, 1, 2, budget, &r);
    double dt = now_s() - t0;
    cr_assert_eq(rc, SIM_ERR_TIMEOUT);
    cr_assert_eq(r.cycles, budget);
    cr_assert_eq(sim_model_cycles(m) - before, budget);
    fprintf(stderr, "[sim tests] run loop: %.2f M cycles/s (hang fixture, sanitized host)\n",
            (double)budget / dt / 1e6);
    /* the host goes on: the model still answers, and its counter saw every cycle */
    uint64_t count = sim_model_reg_read(m, 16);
    cr_assert_geq(count, budget);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 7, &r), SIM_ERR_TIMEOUT);
    cr_assert_eq(r.cycles, 7);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

static void bad_address_case(uint64_t addr, int write)
{
    sim_model *m = open_fixture("badaddr", dc);
    sim_memory *mem = sim_memory_create(dc);
    cr_assert_eq(sim_memory_map(mem, 0x1000, 4096), SIM_OK);
    sim_model_reg_write(m, 32, addr);
    sim_model_reg_write(m, 33, (uint64_t)write);
    sim_model_reg_write(m, 0, 1);
    sim_run_result r;
    int rc = sim_model_run(m, mem, 1, 2, 1000000, &r);
    cr_assert_eq(rc, SIM_ERR_BAD_ADDRESS, "status %d", rc);
    cr_assert_eq(r.bad_address, addr, "bad address 0x%lx", (unsigned long)r.bad_address);
    cr_assert_eq(r.bad_write, write);
    cr_assert_lt(r.cycles, 10, "stopped right away (%lu cycles)", (unsigned long)r.cycles);
    /* a good address afterwards works on the same memory after a reset */
    sim_model_reset(m);
    sim_model_reg_write(m, 32, 0x1040);
    sim_model_reg_write(m, 33, (uint64_t)write);
    sim_model_reg_write(m, 0, 1);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 1000, &r), SIM_OK);
    cr_assert_geq(r.cycles, dc->mem_latency_cycles);
    if (write)
        cr_assert_eq(*(uint8_t *)sim_memory_ptr(mem, 0x1040, 1), 0xff);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

Test(model, bad_address_read) { bad_address_case(0xdead0000, 0); }
Test(model, bad_address_write) { bad_address_case(0x2000, 1); }

Test(model, two_models_side_by_side)
{
    /* two libraries of the same design (identical symbol names) plus a second
     * instance of the first, all open at once and stepped interleaved */
    sim_model *a = open_fixture("copy", dc);
    sim_model *b = open_fixture("copy_b", dc);
    sim_model *a2 = open_fixture("copy", dc);
    sim_model *ms[3] = {a, b, a2};
    sim_memory *mems[3];
    uint64_t n[3] = {100, 37, 64};
    int done[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        mems[i] = sim_memory_create(dc);
        setup_copy(ms[i], mems[i], n[i], (unsigned)(10 * i + 1));
    }
    for (int round = 0; round < 1000 && !(done[0] && done[1] && done[2]); round++)
        for (int i = 0; i < 3; i++) {
            if (done[i])
                continue;
            sim_run_result r;
            int rc = sim_model_run(ms[i], mems[i], 1, 2, 13, &r);
            cr_assert(rc == SIM_OK || rc == SIM_ERR_TIMEOUT, "status %d", rc);
            done[i] = rc == SIM_OK;
        }
    for (int i = 0; i < 3; i++) {
        cr_assert(done[i], "model %d finished", i);
        check_copy(mems[i], n[i]);
        /* the other models' sources differ: nothing leaked across */
        uint8_t *d = sim_memory_ptr(mems[i], DST, 64);
        cr_assert_eq(d[1], (uint8_t)((1 * 131 + 10 * i + 1) ^ 0));
        sim_memory_destroy(mems[i]);
        sim_model_close(ms[i]);
    }
}

Test(model, open_errors)
{
    char err[512];
    cr_assert_null(sim_model_open("/nonexistent/model.so", dc, err, sizeof err));
    cr_assert(strstr(err, "/nonexistent/model.so"), "%s", err);
    board_t narrow = *dc;
    narrow.mem_width_bits = 256;
    const char *dir = getenv(ENV_DIR);
    char so[1024];
    snprintf(so, sizeof so, "%s/copy.so", dir);
    cr_assert_null(sim_model_open(so, &narrow, err, sizeof err));
    cr_assert(strstr(err, "512 bits") && strstr(err, "256-bit"), "%s", err);
    /* a run against a memory of another width is refused */
    sim_model *m = open_fixture("copy", dc);
    sim_memory *mem = sim_memory_create(&narrow);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 10, NULL), SIM_ERR_ARG);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

Test(model, syntax_error_build)
{
    char dir[] = "/tmp/clhls-simtest-bad-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char work[128], so[128];
    snprintf(work, sizeof work, "%s/work", dir);
    snprintf(so, sizeof so, "%s/bad.so", dir);
    const char *files[] = {SIM_TEST_FIXTURES "/syntax_error.v"};
    char *log = NULL;
    int rc = sim_build_model(files, 1, "clhls_top", work, SIM_TEST_RUNTIME_DIR, so, &log);
    cr_assert_eq(rc, SIM_ERR_BUILD);
    cr_assert_not_null(log);
    cr_assert(strstr(log, "%Error") && strstr(log, "syntax_error.v"), "log: %s", log);
    cr_assert_neq(access(so, F_OK), 0, "no library left behind");
    free(log);
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
