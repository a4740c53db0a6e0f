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

static const char *const fixtures[] = {"copy", "hang", "badaddr", "spin", "spin2"};

/* The watchdog's idle window in most tests: far above the memory latency. */
#define WINDOW 1000000

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
                             SIM_TEST_RUNTIME_DIR, so, 0, &log, NULL);
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
    build_fixture(models_dir, "noprogress.vh", "copy", "copy_np");
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
    unsetenv("CLHLS_SIM_STRESS"); /* timing tests need the exact memory model */
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
    int rc = sim_model_run(m, mem, 1, 2, WINDOW, 0, &r);
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
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 1000, 0, &r), SIM_OK);
    cr_assert_eq(r.mem_requests, 0);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

/* A kernel that never moves ends exactly when the idle window has passed. */
Test(model, timeout_exact_window)
{
    sim_model *m = open_fixture("hang", dc);
    cr_assert_eq(sim_model_has_progress_port(m), 1);
    sim_memory *mem = sim_memory_create(dc);
    sim_model_reg_write(m, 0, 1);
    uint64_t before = sim_model_cycles(m);
    const uint64_t budget = 5000000;
    sim_run_result r;
    double t0 = now_s();
    int rc = sim_model_run(m, mem, 1, 2, budget, 0, &r);
    double dt = now_s() - t0;
    cr_assert_eq(rc, SIM_ERR_TIMEOUT);
    cr_assert_eq(r.cycles, budget);
    cr_assert_eq(sim_model_cycles(m) - before, budget);
    fprintf(stderr, "[sim tests] run loop: %.2f M cycles/s (hang fixture, sanitized host)\n",
            (double)budget / dt / 1e6);
    /* the host goes on: the model still answers, and its counter saw every cycle */
    uint64_t count = sim_model_reg_read(m, 16);
    cr_assert_geq(count, budget);
    cr_assert_eq(r.last_progress, 0);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 7, 0, &r), SIM_ERR_TIMEOUT);
    cr_assert_eq(r.cycles, 7);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 0, 0, &r), SIM_ERR_ARG, "a zero window");
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
    int rc = sim_model_run(m, mem, 1, 2, WINDOW, 0, &r);
    cr_assert_eq(rc, SIM_ERR_BAD_ADDRESS, "status %d", rc);
    cr_assert_eq(r.bad_address, addr, "bad address 0x%lx", (unsigned long)r.bad_address);
    cr_assert_eq(r.bad_write, write);
    cr_assert_lt(r.cycles, 10, "stopped right away (%lu cycles)", (unsigned long)r.cycles);
    /* a good address afterwards works on the same memory after a reset */
    sim_model_reset(m);
    sim_model_reg_write(m, 32, 0x1040);
    sim_model_reg_write(m, 33, (uint64_t)write);
    sim_model_reg_write(m, 0, 1);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 1000, 0, &r), SIM_OK);
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
            int rc = sim_model_run(ms[i], mems[i], 1, 2, WINDOW, 13, &r);
            cr_assert(rc == SIM_OK || rc == SIM_RUNNING, "status %d", rc);
            cr_assert(rc == SIM_OK || r.cycles == 13);
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
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 10, 0, NULL), SIM_ERR_ARG);
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
    int rc = sim_build_model(files, 1, "clhls_top", work, SIM_TEST_RUNTIME_DIR, so, 0, &log, NULL);
    cr_assert_eq(rc, SIM_ERR_BUILD);
    cr_assert_not_null(log);
    cr_assert(strstr(log, "%Error") && strstr(log, "syntax_error.v"), "log: %s", log);
    cr_assert_neq(access(so, F_OK), 0, "no library left behind");
    free(log);
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- the watchdog judges forward progress, not time ---- */

/* Starts the spin fixture: length cycles of work, a progress pulse every period
 * cycles, nothing moving from cycle stop_at on (0: never). */
static void start_spin(sim_model *m, uint64_t length, uint64_t period, uint64_t stop_at)
{
    sim_model_reset(m);
    sim_model_reg_write(m, 32, length);
    sim_model_reg_write(m, 33, period);
    sim_model_reg_write(m, 34, stop_at);
    sim_model_reg_write(m, 0, 1);
}

/* A kernel three idle windows long that keeps moving (a pulse every 10% of the
 * window) runs to the end under the default window. */
Test(model, watchdog_moving_kernel_runs_past_the_window)
{
    sim_model *m = open_fixture("spin", dc);
    sim_memory *mem = sim_memory_create(dc);
    const uint64_t len = 3 * (uint64_t)WINDOW;
    start_spin(m, len, WINDOW / 10, 0);
    sim_run_result r;
    int rc = sim_model_run(m, mem, 1, 2, WINDOW, 0, &r);
    cr_assert_eq(rc, SIM_OK, "status %d after %lu cycles", rc, (unsigned long)r.cycles);
    cr_assert_geq(r.cycles, len);
    cr_assert_leq(r.cycles, len + 2);
    cr_assert_eq(r.mem_requests, 0, "no memory traffic: only the progress port moved");
    cr_assert_eq(sim_model_reg_read(m, 16), len);
    /* a pulse every period - 1 idle cycles is enough: a window equal to the period */
    start_spin(m, 50000, 5000, 0);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 5000, 0, &r), SIM_OK);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

/* A kernel that stops moving ends one idle window after its last move; its occupancy
 * registers (what the runtime reads as probes) still answer afterwards. */
Test(model, watchdog_stopped_kernel_times_out_after_the_window)
{
    sim_model *m = open_fixture("spin", dc);
    sim_memory *mem = sim_memory_create(dc);
    const uint64_t window = 20000, stop = 50000, period = 10;
    start_spin(m, (uint64_t)1 << 40, period, stop);
    sim_run_result r;
    cr_assert_eq(sim_model_run(m, mem, 1, 2, window, 0, &r), SIM_ERR_TIMEOUT);
    cr_assert_geq(r.last_progress + period, stop, "last move at %lu",
                  (unsigned long)r.last_progress);
    cr_assert_leq(r.last_progress, stop + 1);
    cr_assert_eq(r.cycles, r.last_progress + window, "ended %lu cycles after the last move",
                 (unsigned long)(r.cycles - r.last_progress));
    cr_assert_eq(sim_model_reg_read(m, 40), 32);
    cr_assert_eq(sim_model_reg_read(m, 41), 0);
    cr_assert_eq(sim_model_reg_read(m, 42), 3);
    cr_assert_eq(sim_model_reg_read(m, 1) & 2, 0, "not done");
    /* moves farther apart than the window: ended after the first pulse's window */
    start_spin(m, 100000, 5000, 0);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 1000, 0, &r), SIM_ERR_TIMEOUT);
    cr_assert_eq(r.last_progress, 1);
    cr_assert_eq(r.cycles, 1001);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

/* ---- compute units running at once ---- */

/* Sets unit u of the spin2 fixture (registers at 64 u): length cycles, a progress pulse
 * every period cycles, stuck from cycle stop_at (0: never). */
static void set_spin_unit(sim_model *m, unsigned u, uint64_t length, uint64_t period,
                          uint64_t stop_at)
{
    sim_model_reg_write(m, 64 * u + 32, length);
    sim_model_reg_write(m, 64 * u + 33, period);
    sim_model_reg_write(m, 64 * u + 34, stop_at);
}

static int start_spin_unit(sim_model *m, unsigned u, uint64_t window)
{
    return sim_model_unit_start(m, u, 64 * u, 1, 64 * u + 1, 2, window, NULL, 0);
}

/* The unit that ended (exactly one) and its outcome. */
static int take_ended(sim_model *m, unsigned *cu, sim_run_result *r)
{
    cr_assert(sim_model_unit_ended(m, cu), "a unit ended");
    int rc = sim_model_unit_result(m, *cu, r);
    cr_assert(!sim_model_unit_ended(m, NULL), "one unit ended at a time here");
    return rc;
}

/* Two compute units under one clock: they run at once (the model's cycles are about
 * the longer unit's, not the sum), each ends at its own done with its own cycle count,
 * a unit starts again while the other runs, and a busy unit does not start twice. */
Test(model, units_run_at_once)
{
    sim_model *m = open_fixture("spin2", dc);
    sim_memory *mem = sim_memory_create(dc);
    sim_model_reset(m);
    set_spin_unit(m, 0, 30000, 100, 0);
    set_spin_unit(m, 1, 20000, 100, 0);
    uint64_t begin = sim_model_cycles(m);
    cr_assert_eq(start_spin_unit(m, 0, 1000), SIM_OK);
    cr_assert_eq(start_spin_unit(m, 1, 1000), SIM_OK);
    cr_assert_eq(start_spin_unit(m, 1, 1000), SIM_ERR_ARG, "unit 1 runs");
    cr_assert_eq(sim_model_running_units(m), 2);
    unsigned cu;
    sim_run_result r;
    cr_assert_eq(sim_model_run_units(m, mem, 0), SIM_OK);
    cr_assert_eq(take_ended(m, &cu, &r), SIM_OK);
    cr_assert_eq(cu, 1, "the shorter unit ends first");
    cr_assert_geq(r.cycles, 20000);
    cr_assert_leq(r.cycles, 20000 + 4, "ended %lu cycles after its start", (unsigned long)r.cycles);
    cr_assert_eq(r.end_cycle - r.start_cycle, r.cycles);
    /* unit 1 again, 5000 cycles, while unit 0 has some 10000 to go */
    set_spin_unit(m, 1, 5000, 100, 0);
    cr_assert_eq(start_spin_unit(m, 1, 1000), SIM_OK);
    cr_assert_eq(sim_model_run_units(m, mem, 0), SIM_OK);
    cr_assert_eq(take_ended(m, &cu, &r), SIM_OK);
    cr_assert_eq(cu, 1);
    cr_assert_geq(r.cycles, 5000);
    cr_assert_leq(r.cycles, 5000 + 4);
    cr_assert_eq(sim_model_run_units(m, mem, 0), SIM_OK);
    cr_assert_eq(take_ended(m, &cu, &r), SIM_OK);
    cr_assert_eq(cu, 0);
    cr_assert_geq(r.cycles, 30000);
    cr_assert_leq(r.cycles, 30000 + 4);
    uint64_t total = sim_model_cycles(m) - begin;
    cr_assert_lt(total, 30000 + 100, "%lu cycles for 55000 cycles of units",
                 (unsigned long)total);
    cr_assert_eq(sim_model_running_units(m), 0);
    cr_assert_eq(sim_model_run_units(m, mem, 0), SIM_ERR_ARG, "nothing runs");
    sim_memory_destroy(mem);
    sim_model_close(m);
}

/* Each unit has its own watchdog: unit 1 stops moving at its cycle 2000 while unit 0
 * keeps moving; unit 1 times out one window after its last move, unit 0 runs on to its
 * end. */
Test(model, units_hang_alone)
{
    sim_model *m = open_fixture("spin2", dc);
    sim_memory *mem = sim_memory_create(dc);
    sim_model_reset(m);
    set_spin_unit(m, 0, 30000, 100, 0);
    set_spin_unit(m, 1, (uint64_t)1 << 40, 100, 2000);
    cr_assert_eq(start_spin_unit(m, 0, 1000), SIM_OK);
    cr_assert_eq(start_spin_unit(m, 1, 1000), SIM_OK);
    unsigned cu;
    sim_run_result r;
    cr_assert_eq(sim_model_run_units(m, mem, 0), SIM_OK);
    cr_assert_eq(take_ended(m, &cu, &r), SIM_ERR_TIMEOUT);
    cr_assert_eq(cu, 1);
    cr_assert_leq(r.last_progress, 2000 + 1);
    cr_assert_eq(r.cycles, r.last_progress + 1000);
    cr_assert_eq(sim_model_reg_read(m, 64 + 40), 32, "its probe still answers");
    cr_assert_eq(sim_model_running_units(m), 1);
    cr_assert_eq(sim_model_run_units(m, mem, 0), SIM_OK);
    cr_assert_eq(take_ended(m, &cu, &r), SIM_OK);
    cr_assert_eq(cu, 0);
    cr_assert_geq(r.cycles, 30000);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

/* Memory handshakes count as progress: the copy engine's progress port stays 0, yet a
 * copy many windows long (window = 4 x latency) completes; a top without the port
 * (an older design) behaves the same. */
Test(model, watchdog_counts_memory_handshakes)
{
    const uint64_t n = 3000, window = 4 * (uint64_t)dc->mem_latency_cycles;
    uint64_t cycles[2];
    const char *names[2] = {"copy", "copy_np"};
    for (int i = 0; i < 2; i++) {
        sim_model *m = open_fixture(names[i], dc);
        cr_assert_eq(sim_model_has_progress_port(m), i == 0, "%s", names[i]);
        sim_memory *mem = sim_memory_create(dc);
        setup_copy(m, mem, n, 9);
        sim_run_result r;
        int rc = sim_model_run(m, mem, 1, 2, window, 0, &r);
        cr_assert_eq(rc, SIM_OK, "%s: status %d after %lu cycles", names[i], rc,
                     (unsigned long)r.cycles);
        cr_assert_gt(r.cycles, 10 * window);
        check_copy(mem, n);
        cycles[i] = r.cycles;
        sim_memory_destroy(mem);
        sim_model_close(m);
    }
    cr_assert_eq(cycles[0], cycles[1]);
}

/* With a cycle cap the run returns SIM_RUNNING; the idle count carries over, so a hung
 * kernel stepped in slices still times out, and a moving one still finishes. */
Test(model, watchdog_capped_runs)
{
    sim_model *m = open_fixture("hang", dc);
    sim_memory *mem = sim_memory_create(dc);
    sim_model_reg_write(m, 0, 1);
    sim_run_result r;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(sim_model_run(m, mem, 1, 2, 100, 30, &r), SIM_RUNNING);
        cr_assert_eq(r.cycles, 30);
    }
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 100, 30, &r), SIM_ERR_TIMEOUT);
    cr_assert_eq(r.cycles, 10);
    /* a register write (the host acting) opens a new window */
    sim_model_reg_write(m, 0, 1);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 100, 99, &r), SIM_RUNNING);
    sim_model_reg_write(m, 0, 1);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 100, 0, &r), SIM_ERR_TIMEOUT);
    cr_assert_eq(r.cycles, 100);
    sim_model_close(m);

    m = open_fixture("spin", dc);
    start_spin(m, 10000, 50, 0);
    uint64_t total = 0;
    int rc, calls = 0;
    while ((rc = sim_model_run(m, mem, 1, 2, 100, 777, &r)) == SIM_RUNNING) {
        total += r.cycles;
        calls++;
    }
    cr_assert_eq(rc, SIM_OK);
    total += r.cycles;
    cr_assert_eq(calls, 12);
    start_spin(m, 10000, 50, 0);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 100, 0, &r), SIM_OK);
    cr_assert_eq(total, r.cycles, "slices add up to the uncapped run");
    sim_memory_destroy(mem);
    sim_model_close(m);
}

/* ---- stress mode: timing changes, data does not ---- */

/* Copies n words with fixture name on board b under stress seed (0 = off); checks the
 * copy and the traffic, stores the destination in out; returns the run's cycles. */
static uint64_t stress_copy(const char *name, const board_t *b, uint64_t n, uint64_t seed,
                            uint8_t *out)
{
    wb = b->mem_width_bits / 8;
    sim_model *m = open_fixture(name, b);
    sim_memory *mem = sim_memory_create(b);
    sim_memory_set_stress(mem, seed);
    cr_assert_eq(sim_memory_stress(mem), seed);
    setup_copy(m, mem, n, 5);
    sim_run_result r;
    int rc = sim_model_run(m, mem, 1, 2, WINDOW, 0, &r);
    cr_assert_eq(rc, SIM_OK, "%s, %lu words, seed %lu: status %d", name, (unsigned long)n,
                 (unsigned long)seed, rc);
    check_copy(mem, n);
    cr_assert_eq(r.mem_requests, 2 * n);
    cr_assert_eq(r.mem_read_bytes, wb * n);
    cr_assert_eq(r.mem_write_bytes, wb * n);
    memcpy(out, sim_memory_ptr(mem, DST, n * wb), n * wb);
    sim_memory_destroy(mem);
    sim_model_close(m);
    return r.cycles;
}

/* Every seed changes the cycle count, none the data; a seed always gives the same
 * timing. */
static void stress_case(const char *name, unsigned width_bits, uint64_t n)
{
    board_t b = *dc;
    b.mem_width_bits = width_bits;
    size_t bytes = n * (width_bits / 8);
    uint8_t *ref = malloc(bytes), *got = malloc(bytes);
    uint64_t base = stress_copy(name, &b, n, 0, ref);
    uint64_t prev = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        uint64_t c = stress_copy(name, &b, n, seed, got);
        fprintf(stderr, "[sim tests] %s stress seed %lu: %lu cycles (%lu without)\n", name,
                (unsigned long)seed, (unsigned long)c, (unsigned long)base);
        cr_assert_neq(c, base, "seed %lu changed nothing", (unsigned long)seed);
        cr_assert_neq(c, prev, "seeds %lu and %lu gave the same timing",
                      (unsigned long)seed - 1, (unsigned long)seed);
        cr_assert_eq(memcmp(got, ref, bytes), 0, "seed %lu changed the data",
                     (unsigned long)seed);
        cr_assert_eq(stress_copy(name, &b, n, seed, got), c, "seed %lu is not reproducible",
                     (unsigned long)seed);
        prev = c;
    }
    free(ref);
    free(got);
}

Test(model, stress_changes_timing_not_data) { stress_case("copy", 512, 1000); }

Test(model, stress_other_widths)
{
    stress_case("copy_w32", 32, 301);
    stress_case("copy_w1024", 1024, 77);
}

/* CLHLS_SIM_STRESS sets the seed of every memory created afterwards. */
Test(model, stress_from_environment)
{
    static const struct {
        const char *value;  /* CLHLS_SIM_STRESS */
        uint64_t seed;      /* expected seed, ~0 = any non-zero */
    } cases[] = {{"", 0}, {"0", 0}, {"7", 7}, {"0x10", 16}, {"chaos", ~(uint64_t)0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        setenv("CLHLS_SIM_STRESS", cases[i].value, 1);
        sim_memory *mem = sim_memory_create(dc);
        uint64_t s = sim_memory_stress(mem);
        if (cases[i].seed == ~(uint64_t)0)
            cr_assert_neq(s, 0, "'%s' turns stress on", cases[i].value);
        else
            cr_assert_eq(s, cases[i].seed, "'%s' gave seed %lu", cases[i].value,
                         (unsigned long)s);
        sim_memory_destroy(mem);
    }
    unsetenv("CLHLS_SIM_STRESS");
    sim_memory *mem = sim_memory_create(dc);
    cr_assert_eq(sim_memory_stress(mem), 0);
    sim_memory_destroy(mem);

    /* the environment's seed times a copy like the same seed set directly */
    wb = 64;
    uint8_t *buf = malloc(500 * 64);
    uint64_t direct = stress_copy("copy", dc, 500, 7, buf);
    setenv("CLHLS_SIM_STRESS", "7", 1);
    sim_model *m = open_fixture("copy", dc);
    mem = sim_memory_create(dc);
    unsetenv("CLHLS_SIM_STRESS");
    setup_copy(m, mem, 500, 5);
    sim_run_result r;
    cr_assert_eq(sim_model_run(m, mem, 1, 2, WINDOW, 0, &r), SIM_OK);
    cr_assert_eq(r.cycles, direct);
    check_copy(mem, 500);
    free(buf);
    sim_memory_destroy(mem);
    sim_model_close(m);
}

/* Stress changes neither bad-address detection nor the watchdog. */
Test(model, stress_keeps_errors)
{
    sim_model *m = open_fixture("badaddr", dc);
    sim_memory *mem = sim_memory_create(dc);
    sim_memory_set_stress(mem, 3);
    cr_assert_eq(sim_memory_map(mem, 0x1000, 4096), SIM_OK);
    sim_model_reg_write(m, 32, 0xdead0000);
    sim_model_reg_write(m, 0, 1);
    sim_run_result r;
    cr_assert_eq(sim_model_run(m, mem, 1, 2, WINDOW, 0, &r), SIM_ERR_BAD_ADDRESS);
    cr_assert_eq(r.bad_address, 0xdead0000);
    sim_model_close(m);

    m = open_fixture("hang", dc);
    sim_model_reg_write(m, 0, 1);
    cr_assert_eq(sim_model_run(m, mem, 1, 2, 5000, 0, &r), SIM_ERR_TIMEOUT);
    cr_assert_eq(r.cycles, 5000);
    sim_memory_destroy(mem);
    sim_model_close(m);
}
