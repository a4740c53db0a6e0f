/* Unit tests of the board memory model (sim-bridge/memory.c): regions and host access,
 * and the port's timing (latency, bandwidth, the in-flight bound, in-order answers,
 * bad addresses, the stress mode) driven directly through the private port interface,
 * cycle by cycle, exactly as the run loop drives it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

static void no_stress_env(void) { unsetenv("CLHLS_SIM_STRESS"); }

TestSuite(memory, .init = no_stress_env);

/* A board with a 512-bit port, the given latency and bytes per cycle at 300 MHz. */
static board_t test_board(unsigned latency, double bytes_per_cycle)
{
    board_t b;
    memset(&b, 0, sizeof b);
    b.name = "test";
    b.clock_mhz = 300;
    b.mem_width_bits = 512;
    b.mem_ports = 1;
    b.mem_latency_cycles = latency;
    b.mem_bandwidth_gbps = bytes_per_cycle * 300e6 / 1e9;
    return b;
}

Test(memory, map_read_write_ptr)
{
    board_t b = test_board(8, 64);
    sim_memory *m = sim_memory_create(&b);
    cr_assert_not_null(m);
    cr_assert_eq(sim_memory_map(m, 0x1000, 256), SIM_OK);
    cr_assert_eq(sim_memory_map(m, 0x8000, 100), SIM_OK);
    cr_assert_eq(sim_memory_map(m, 0x10f0, 64), SIM_ERR_ARG, "overlap must fail");
    cr_assert_eq(sim_memory_map(m, 0x0, 0), SIM_ERR_ARG, "empty region must fail");

    uint8_t buf[256];
    cr_assert_eq(sim_memory_read(m, 0x1000, buf, sizeof buf), SIM_OK);
    for (size_t i = 0; i < sizeof buf; i++)
        cr_assert_eq(buf[i], 0, "regions start zero-filled");
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7 + 1);
    cr_assert_eq(sim_memory_write(m, 0x1000, buf, sizeof buf), SIM_OK);
    uint8_t *p = sim_memory_ptr(m, 0x1010, 16);
    cr_assert_not_null(p);
    cr_assert_eq(p[0], (uint8_t)(16 * 7 + 1));
    uint8_t back[4];
    cr_assert_eq(sim_memory_read(m, 0x10fc, back, 4), SIM_OK);
    cr_assert_eq(back[3], buf[255]);

    /* out of region */
    cr_assert_eq(sim_memory_read(m, 0x10fc, back, 5), SIM_ERR_BAD_ADDRESS);
    cr_assert_eq(sim_memory_write(m, 0x0ff0, buf, 32), SIM_ERR_BAD_ADDRESS);
    cr_assert_eq(sim_memory_read(m, 0x5000, back, 1), SIM_ERR_BAD_ADDRESS);
    cr_assert_null(sim_memory_ptr(m, 0x8000, 101));
    cr_assert_not_null(sim_memory_ptr(m, 0x8000, 100));

    /* unmap only at a region start */
    cr_assert_eq(sim_memory_unmap(m, 0x1010), SIM_ERR_ARG);
    cr_assert_eq(sim_memory_unmap(m, 0x1000), SIM_OK);
    cr_assert_null(sim_memory_ptr(m, 0x1000, 1));
    cr_assert_not_null(sim_memory_ptr(m, 0x8000, 1));
    cr_assert_eq(sim_memory_map(m, 0x1000, 16), SIM_OK, "space is free again");
    uint8_t z;
    cr_assert_eq(sim_memory_read(m, 0x1000, &z, 1), SIM_OK);
    cr_assert_eq(z, 0, "a new mapping is zero-filled");
    sim_memory_destroy(m);
}

Test(memory, many_regions_lookup)
{
    board_t b = test_board(8, 64);
    sim_memory *m = sim_memory_create(&b);
    /* map in scrambled order; the set stays sorted */
    for (unsigned i = 0; i < 200; i++) {
        uint64_t k = (i * 37) % 200;
        cr_assert_eq(sim_memory_map(m, 0x10000 + k * 0x1000, 0x800), SIM_OK);
    }
    for (unsigned k = 0; k < 200; k++) {
        uint32_t v = k;
        cr_assert_eq(sim_memory_write(m, 0x10000 + k * 0x1000 + 0x7fc, &v, 4), SIM_OK);
        cr_assert_null(sim_memory_ptr(m, 0x10000 + k * 0x1000 + 0x800, 1), "gap %u", k);
    }
    for (unsigned k = 0; k < 200; k++) {
        uint32_t v;
        cr_assert_eq(sim_memory_read(m, 0x10000 + k * 0x1000 + 0x7fc, &v, 4), SIM_OK);
        cr_assert_eq(v, k);
    }
    sim_memory_destroy(m);
}

/* ---- the port ---- */

/* A tiny requester: issues requests from a list, always ready for responses unless
 * told otherwise, and records when each response came. */
typedef struct port_sim {
    sim_memory *mem;      /* memory under test */
    clhls_port_in in;     /* memory's outputs */
    clhls_port_out out;   /* requester's outputs */
    uint64_t cycle;       /* current cycle */
} port_sim;

/* One cycle: out must be set by the caller; returns 1 when the request was accepted. */
static int step(port_sim *s, int *resp_valid, uint32_t *resp_tag)
{
    sim_mem_port_drive(s->mem, &s->in);
    int accepted = s->in.mem[0].req_ready && s->out.mem[0].req_valid;
    *resp_valid = s->in.mem[0].resp_valid && s->out.mem[0].resp_ready;
    *resp_tag = s->in.mem[0].resp_tag;
    sim_mem_port_update(s->mem, &s->in, &s->out);
    s->cycle++;
    return accepted;
}

Test(memory, latency_exact)
{
    board_t b = test_board(20, 64);
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert_eq(sim_memory_map(s.mem, 0, 4096), SIM_OK);
    uint32_t word[16];
    for (int i = 0; i < 16; i++)
        word[i] = 0x1000u + (uint32_t)i;
    sim_memory_write(s.mem, 128, word, sizeof word);

    s.out.mem[0].req_valid = 1;
    s.out.mem[0].req_addr = 128;
    s.out.mem[0].req_tag = 5;
    s.out.mem[0].resp_ready = 1;
    int rv;
    uint32_t tag;
    cr_assert(step(&s, &rv, &tag), "an idle port is ready");
    s.out.mem[0].req_valid = 0;
    uint64_t accepted_at = 0, got = 0;
    while (s.cycle < 100) {
        uint64_t now = s.cycle;
        step(&s, &rv, &tag);
        if (rv) {
            got = now;
            cr_assert_eq(tag, 5);
            cr_assert_eq(memcmp(s.in.mem[0].resp_rdata, word, 64), 0);
            break;
        }
    }
    cr_assert_eq(got - accepted_at, 20, "response %lu cycles after acceptance",
                 (unsigned long)(got - accepted_at));
    sim_memory_destroy(s.mem);
}

/* The run loop's jumps over cycles where nothing moves: the memory says for how many
 * cycles the inputs it drove stay as they are (sim_mem_port_calm). A memory that is
 * jumped over for that long (sim_mem_port_skip) beside one stepped every cycle, both
 * given the same requests, at random with gaps, on a port whose budget refills slowly:
 * in every cycle a jump covers, the stepped one drives what the jump started with (no
 * response falls due, ready does not change), and in every other cycle both drive the
 * same, so every response comes in the same cycle. */
Test(memory, calm_jumps_miss_nothing)
{
    enum { REQUESTS = 300 };
    board_t b = test_board(30, 24);
    sim_memory *stepped = sim_memory_create(&b), *jumped = sim_memory_create(&b);
    cr_assert_eq(sim_memory_map(stepped, 0, 1 << 16), SIM_OK);
    cr_assert_eq(sim_memory_map(jumped, 0, 1 << 16), SIM_OK);
    clhls_port_in in_s, in_j;
    memset(&in_s, 0, sizeof in_s);
    memset(&in_j, 0, sizeof in_j);
    clhls_port_out out = {.mem[0].resp_ready = 1};
    memset(out.mem[0].req_wstrb, 1, 64);
    srand(7);
    uint64_t cycle = 0, next_request = 3, skipped = 0;
    unsigned issued = 0, answered = 0;
    while (answered < REQUESTS && cycle < 100000) {
        out.mem[0].req_valid = issued < REQUESTS && cycle >= next_request;
        out.mem[0].req_addr = 64 * (uint64_t)(issued % 1024);
        out.mem[0].req_tag = issued;
        out.mem[0].req_write = issued % 3 == 0;
        sim_mem_port_drive(jumped, &in_j);
        uint64_t jump = sim_mem_port_calm(jumped);
        if (issued < REQUESTS && next_request - cycle < jump)
            jump = next_request - cycle;
        if (jump >= 2 && !in_j.mem[0].resp_valid && !out.mem[0].req_valid) {
            for (uint64_t c = 0; c < jump; c++) {
                sim_mem_port_drive(stepped, &in_s);
                cr_assert(!in_s.mem[0].resp_valid, "a response in cycle %lu, jumped over",
                          (unsigned long)(cycle + c));
                cr_assert_eq(in_s.mem[0].req_ready, in_j.mem[0].req_ready,
                             "ready changed in cycle %lu, jumped over", (unsigned long)(cycle + c));
                sim_mem_port_update(stepped, &in_s, &out);
            }
            sim_mem_port_update(jumped, &in_j, &out);
            sim_mem_port_skip(jumped, jump - 1);
            cycle += jump;
            skipped += jump - 1;
            continue;
        }
        sim_mem_port_drive(stepped, &in_s);
        cr_assert_eq(in_s.mem[0].req_ready, in_j.mem[0].req_ready, "ready in cycle %lu",
                     (unsigned long)cycle);
        cr_assert_eq(in_s.mem[0].resp_valid, in_j.mem[0].resp_valid, "a response in cycle %lu",
                     (unsigned long)cycle);
        if (in_s.mem[0].resp_valid) {
            cr_assert_eq(in_s.mem[0].resp_tag, answered, "answers in order");
            cr_assert_eq(in_j.mem[0].resp_tag, answered, "answers in order");
            answered++;
        }
        if (in_s.mem[0].req_ready && out.mem[0].req_valid) { /* the next after a gap, or at once */
            issued++;
            next_request = cycle + 1 + (rand() % 3 ? 0 : (uint64_t)(rand() % 90));
        }
        sim_mem_port_update(stepped, &in_s, &out);
        sim_mem_port_update(jumped, &in_j, &out);
        cycle++;
    }
    cr_assert_eq(answered, REQUESTS, "%u answered in %lu cycles", answered, (unsigned long)cycle);
    cr_assert_gt(skipped, 1000, "only %lu cycles skipped", (unsigned long)skipped);
    sim_mem_stats a = sim_mem_get_stats(stepped), c = sim_mem_get_stats(jumped);
    cr_assert_eq(a.requests, c.requests);
    cr_assert_eq(a.write_bytes, c.write_bytes);
    sim_memory_destroy(stepped);
    sim_memory_destroy(jumped);
}

/* No calm to jump over when no event is ahead (nothing in flight: the accelerator waits
 * for the host, or for ever) or under stress (each cycle drawn anew). */
Test(memory, calm_none_without_event)
{
    board_t b = test_board(30, 64);
    sim_memory *m = sim_memory_create(&b);
    clhls_port_in in;
    memset(&in, 0, sizeof in);
    sim_mem_port_drive(m, &in);
    cr_assert_eq(sim_mem_port_calm(m), 0, "nothing in flight: no event to jump to");
    sim_memory_set_stress(m, 12345);
    sim_mem_port_drive(m, &in);
    cr_assert_eq(sim_mem_port_calm(m), 0, "stress draws every cycle anew: no jump");
    sim_memory_destroy(m);
}

static void bandwidth_case(double bpc, unsigned latency, unsigned n)
{
    board_t b = test_board(latency, bpc);
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert_eq(sim_memory_map(s.mem, 0, 64 * (uint64_t)n), SIM_OK);
    s.out.mem[0].resp_ready = 1;
    unsigned issued = 0, answered = 0;
    while (answered < n && s.cycle < 100000) {
        s.out.mem[0].req_valid = issued < n;
        s.out.mem[0].req_write = issued % 2; /* reads and writes alike */
        s.out.mem[0].req_addr = 64 * (uint64_t)issued;
        s.out.mem[0].req_tag = issued & 0xffff;
        memset(s.out.mem[0].req_wstrb, 1, 64);
        int rv;
        uint32_t tag;
        if (step(&s, &rv, &tag))
            issued++;
        if (rv) {
            cr_assert_eq(tag, answered & 0xffff, "answers in order");
            answered++;
        }
    }
    cr_assert_eq(answered, n);
    double bound = n * 64.0 / (bpc < 64 ? bpc : 64);
    cr_assert_geq((double)s.cycle, bound, "%u requests took %lu cycles, bound %.1f", n,
                  (unsigned long)s.cycle, bound);
    cr_assert_leq((double)s.cycle, bound + latency + 2, "%u requests took %lu cycles", n,
                  (unsigned long)s.cycle);
    sim_mem_stats st = sim_mem_get_stats(s.mem);
    cr_assert_eq(st.requests, n);
    cr_assert_eq(st.read_bytes, 64 * (uint64_t)((n + 1) / 2));
    cr_assert_eq(st.write_bytes, 64 * (uint64_t)(n / 2));
    sim_memory_destroy(s.mem);
}

Test(memory, bandwidth_full) { bandwidth_case(64, 10, 500); }
Test(memory, bandwidth_quarter) { bandwidth_case(16, 10, 300); }
Test(memory, bandwidth_fractional) { bandwidth_case(24, 7, 300); }

/* The port's inputs in every cycle against the rule they follow, computed here cycle
 * by cycle (ready: queue room and a budget of a whole word, refilled by the bytes per
 * cycle each cycle up to one word plus one cycle's refill; a response once the oldest
 * request is latency cycles old), while the requester comes and goes in irregular
 * bursts and sometimes refuses responses: the port that drives anew only at an event
 * (calm_until, tokens_now) must drive what a port recomputing every cycle drives. */
static void timing_case(double bpc, unsigned latency)
{
    board_t b = test_board(latency, bpc);
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert_eq(sim_memory_map(s.mem, 0, 1 << 20), SIM_OK);
    const uint64_t cost = 64ull << 16, gain = (uint64_t)(bpc * 65536.0 + 0.5);
    const uint64_t cap = cost + gain - 1;
    uint64_t tokens = cap, due[4096];
    unsigned head = 0, count = 0, issued = 0, limit = 4 * latency;
    uint32_t rng = 12345;
    for (uint64_t c = 0; c < 6000; c++) {
        rng = rng * 1103515245u + 12345u;
        unsigned r = rng >> 16;
        /* bursts of requests and of silence, responses refused now and then */
        s.out.mem[0].req_valid = (c / 97) % 3 != 1 && (r & 7) != 0;
        s.out.mem[0].resp_ready = (c / 61) % 4 != 3 && (r & 48) != 48;
        s.out.mem[0].req_write = r >> 8 & 1;
        s.out.mem[0].req_addr = 64 * (uint64_t)(issued % 1024);
        s.out.mem[0].req_tag = issued & 0xffff;
        memset(s.out.mem[0].req_wstrb, 1, 64);
        int want_ready = count < limit && tokens >= cost;
        int want_valid = count && due[head % 4096] <= c;
        int rv;
        uint32_t tag;
        int accepted = step(&s, &rv, &tag);
        cr_assert_eq(s.in.mem[0].req_ready, want_ready, "ready at cycle %lu", (unsigned long)c);
        cr_assert_eq(s.in.mem[0].resp_valid, want_valid, "response at cycle %lu",
                     (unsigned long)c);
        if (want_valid && s.out.mem[0].resp_ready) {
            head++;
            count--;
        }
        if (accepted) {
            due[(head + count) % 4096] = c + latency;
            count++;
            issued++;
            tokens -= cost;
        }
        tokens = tokens + gain > cap ? cap : tokens + gain;
    }
    cr_assert_gt(issued, 500);
    sim_memory_destroy(s.mem);
}

Test(memory, timing_every_cycle_full) { timing_case(64, 10); }
Test(memory, timing_every_cycle_quarter) { timing_case(16, 10); }
Test(memory, timing_every_cycle_fractional) { timing_case(24, 7); }

Test(memory, inflight_bound_and_backpressure)
{
    board_t b = test_board(8, 64);
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert_eq(sim_memory_map(s.mem, 0, 1 << 16), SIM_OK);
    s.out.mem[0].req_valid = 1;
    s.out.mem[0].resp_ready = 0; /* never takes a response */
    unsigned accepted = 0;
    int rv;
    uint32_t tag;
    for (int i = 0; i < 200; i++) {
        s.out.mem[0].req_addr = 64 * (uint64_t)accepted;
        s.out.mem[0].req_tag = accepted;
        accepted += (unsigned)step(&s, &rv, &tag);
        cr_assert_eq(rv, 0);
    }
    cr_assert_eq(accepted, 32, "queue holds 4 x latency requests, took %u", accepted);
    /* a response stays presented until taken, then the next follows in order */
    s.out.mem[0].req_valid = 0;
    s.out.mem[0].resp_ready = 1;
    for (unsigned i = 0; i < 32; i++) {
        step(&s, &rv, &tag);
        cr_assert(rv);
        cr_assert_eq(tag, i);
    }
    step(&s, &rv, &tag);
    cr_assert_eq(rv, 0);
    sim_memory_destroy(s.mem);
}

Test(memory, bad_and_partial_words)
{
    board_t b = test_board(4, 64);
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert_eq(sim_memory_map(s.mem, 0x1000, 16), SIM_OK);
    cr_assert_eq(sim_memory_map(s.mem, 0x1030, 16), SIM_OK);
    uint8_t pat[16];
    memset(pat, 0xab, sizeof pat);
    sim_memory_write(s.mem, 0x1030, pat, 16);
    int rv;
    uint32_t tag;

    /* a read of a word partly mapped: mapped bytes + zeros, not an error */
    s.out.mem[0].resp_ready = 1;
    s.out.mem[0].req_valid = 1;
    s.out.mem[0].req_addr = 0x1000;
    step(&s, &rv, &tag);
    s.out.mem[0].req_valid = 0;
    while (!rv)
        step(&s, &rv, &tag);
    cr_assert_eq(s.in.mem[0].resp_rdata[0x30], 0xab);
    cr_assert_eq(s.in.mem[0].resp_rdata[0x20], 0);
    cr_assert_eq(sim_mem_bad(s.mem, NULL, NULL), 0);

    /* a write whose disabled lanes fall outside is fine */
    s.out.mem[0].req_valid = 1;
    s.out.mem[0].req_write = 1;
    memset(s.out.mem[0].req_wdata, 0x5a, 64);
    memset(s.out.mem[0].req_wstrb, 0, 64);
    memset(s.out.mem[0].req_wstrb, 1, 16);
    step(&s, &rv, &tag);
    cr_assert_eq(sim_mem_bad(s.mem, NULL, NULL), 0);
    cr_assert_eq(((uint8_t *)sim_memory_ptr(s.mem, 0x1000, 16))[15], 0x5a);

    /* an enabled lane outside: bad, write dropped */
    s.out.mem[0].req_wstrb[0x20] = 1;
    memset(s.out.mem[0].req_wdata, 0x77, 64);
    step(&s, &rv, &tag);
    uint64_t addr;
    int w;
    cr_assert_eq(sim_mem_bad(s.mem, &addr, &w), 1);
    cr_assert_eq(addr, 0x1020);
    cr_assert_eq(w, 1);
    cr_assert_eq(((uint8_t *)sim_memory_ptr(s.mem, 0x1000, 16))[0], 0x5a, "dropped");

    /* first bad address kept; a read of an unmapped word answers zeros */
    s.out.mem[0].req_write = 0;
    s.out.mem[0].req_addr = 0x9000;
    step(&s, &rv, &tag);
    s.out.mem[0].req_valid = 0;
    cr_assert_eq(sim_mem_bad(s.mem, &addr, &w), 1);
    cr_assert_eq(addr, 0x1020);
    sim_mem_clear_bad(s.mem);
    unsigned answers = 0;
    for (int i = 0; i < 20; i++) {
        step(&s, &rv, &tag);
        if (rv && ++answers == 3) {
            for (int k = 0; k < 64; k++)
                cr_assert_eq(s.in.mem[0].resp_rdata[k], 0);
        }
    }
    cr_assert_eq(answers, 3, "every request answered once, even bad ones");
    sim_memory_destroy(s.mem);
}

/* ---- stress mode ---- */

#define NTAGS 4

/* Outcome of a stressed traffic run. */
typedef struct stress_trace {
    uint64_t cycles;      /* cycles until every response came */
    uint64_t hash;        /* hash of (cycle, tag) of every response */
    unsigned overtakes;   /* responses that came while an older request of another tag
                             was still unanswered */
    double mean_latency;  /* mean cycles from acceptance to response */
    unsigned min_latency; /* shortest */
} stress_trace;

/* Issues n requests (tag i % NTAGS, reads of word i or writes of word i + n, with
 * the requester taking responses 7 of 8 cycles) against a stressed memory and checks
 * the guarantees: every request answered exactly once, in request order per tag, read
 * data as at acceptance. */
static stress_trace stress_traffic(sim_memory *mem, unsigned n, unsigned latency)
{
    port_sim s = {.mem = mem};
    uint64_t *accepted_at = calloc(n, sizeof *accepted_at);
    int *answered = calloc(n, sizeof *answered);
    unsigned next_of_tag[NTAGS]; /* oldest unanswered request of each tag */
    for (unsigned k = 0; k < NTAGS; k++)
        next_of_tag[k] = k;
    unsigned issued = 0, done = 0, oldest = 0;
    stress_trace t = {.min_latency = ~0u};
    double lat_sum = 0;
    while (done < n && s.cycle < 200000) {
        s.out.mem[0].req_valid = issued < n;
        s.out.mem[0].req_write = issued % 3 == 2;
        s.out.mem[0].req_addr = 64 * (uint64_t)(s.out.mem[0].req_write ? issued + n : issued);
        s.out.mem[0].req_tag = issued % NTAGS;
        memset(s.out.mem[0].req_wdata, (int)(issued & 0xff), 64);
        memset(s.out.mem[0].req_wstrb, 1, 64);
        s.out.mem[0].resp_ready = (s.cycle & 7) != 3;
        uint64_t now = s.cycle;
        int rv;
        uint32_t tag;
        if (step(&s, &rv, &tag))
            accepted_at[issued++] = now;
        if (!rv)
            continue;
        cr_assert_lt(tag, NTAGS);
        unsigned i = next_of_tag[tag]; /* per-tag order: must be this request */
        cr_assert_lt(i, issued, "tag %u answered with nothing outstanding", tag);
        cr_assert_eq(answered[i], 0);
        answered[i] = 1;
        next_of_tag[tag] = i + NTAGS;
        done++;
        if (i != oldest)
            t.overtakes++;
        while (oldest < n && answered[oldest])
            oldest++;
        if (i % 3 != 2) /* a read of word i: its bytes were written by setup */
            for (int k = 0; k < 64; k++)
                cr_assert_eq(s.in.mem[0].resp_rdata[k], (uint8_t)(i * 7 + k));
        unsigned lat = (unsigned)(now - accepted_at[i]);
        cr_assert_geq(lat, latency, "request %u answered after %u cycles", i, lat);
        lat_sum += lat;
        if (lat < t.min_latency)
            t.min_latency = lat;
        t.hash = (t.hash ^ (now * NTAGS + tag)) * 0x100000001b3ull;
    }
    cr_assert_eq(done, n, "%u of %u answered", done, n);
    for (int i = 0; i < 5 * (int)latency + 40; i++) { /* nothing more comes */
        int rv;
        uint32_t tag;
        s.out.mem[0].req_valid = 0;
        step(&s, &rv, &tag);
        cr_assert_eq(rv, 0, "a response too many");
    }
    for (unsigned i = 2; i < n; i += 3) { /* writes landed */
        uint8_t *p = sim_memory_ptr(mem, 64 * (uint64_t)(i + n), 64);
        cr_assert_eq(p[0], (uint8_t)(i & 0xff));
    }
    t.cycles = s.cycle;
    t.mean_latency = lat_sum / n;
    free(accepted_at);
    free(answered);
    return t;
}

/* A memory with n read words (word i holds bytes i*7+k) and n write words. */
static sim_memory *stress_memory(unsigned latency, unsigned n, uint64_t seed)
{
    board_t b = test_board(latency, 64);
    sim_memory *m = sim_memory_create(&b);
    sim_memory_set_stress(m, seed);
    cr_assert_eq(sim_memory_map(m, 0, 128 * (uint64_t)n), SIM_OK);
    uint8_t *p = sim_memory_ptr(m, 0, 64 * (uint64_t)n);
    for (unsigned i = 0; i < n; i++)
        for (int k = 0; k < 64; k++)
            p[64 * i + k] = (uint8_t)(i * 7 + k);
    return m;
}

Test(memory, stress_guarantees)
{
    const unsigned n = 4000, latency = 20;
    stress_trace plain;
    {
        sim_memory *m = stress_memory(latency, n, 0);
        plain = stress_traffic(m, n, latency);
        sim_memory_destroy(m);
    }
    cr_assert_eq(plain.overtakes, 0, "without stress answers come in request order");
    cr_assert_eq(plain.min_latency, latency);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        sim_memory *m = stress_memory(latency, n, seed * 0x9e3779b9u);
        stress_trace t = stress_traffic(m, n, latency);
        fprintf(stderr, "[sim tests] stress seed %lu: %lu cycles (%lu plain), mean latency "
                "%.1f, %u overtakes\n", (unsigned long)seed, (unsigned long)t.cycles,
                (unsigned long)plain.cycles, t.mean_latency, t.overtakes);
        cr_assert_gt(t.overtakes, n / 20, "responses of other tags overtake");
        cr_assert_gt(t.mean_latency, 2.0 * latency, "extra latency (mean %.1f)",
                     t.mean_latency);
        cr_assert_gt(t.cycles, plain.cycles);
        sim_memory_destroy(m);
    }
}

Test(memory, stress_reproducible)
{
    const unsigned n = 1000, latency = 12;
    sim_memory *a = stress_memory(latency, n, 42), *b = stress_memory(latency, n, 42);
    sim_memory *c = stress_memory(latency, n, 43);
    stress_trace ta = stress_traffic(a, n, latency), tb = stress_traffic(b, n, latency);
    stress_trace tc = stress_traffic(c, n, latency);
    cr_assert_eq(ta.hash, tb.hash, "same seed, same timing");
    cr_assert_eq(ta.cycles, tb.cycles);
    cr_assert_neq(ta.hash, tc.hash, "another seed, other timing");
    /* a port reset (a new run) restarts the sequence */
    sim_mem_port_reset(a);
    stress_trace again = stress_traffic(a, n, latency);
    cr_assert_eq(again.hash, ta.hash);
    /* turning stress off restores the exact model */
    sim_memory_set_stress(a, 0);
    cr_assert_eq(sim_memory_stress(a), 0);
    stress_trace plain = stress_traffic(a, n, latency);
    cr_assert_eq(plain.overtakes, 0);
    cr_assert_eq(plain.min_latency, latency);
    sim_memory_destroy(a);
    sim_memory_destroy(b);
    sim_memory_destroy(c);
}

/* Back-pressure: with nothing else limiting, mem_req_ready is low on about a quarter
 * of the cycles, partly in single cycles, partly in bursts. */
Test(memory, stress_backpressure)
{
    board_t b = test_board(8, 64);
    sim_memory *m = sim_memory_create(&b);
    sim_memory_set_stress(m, 99);
    port_sim s = {.mem = m};
    unsigned low = 0, run = 0, longest = 0, singles = 0, bursts = 0;
    const unsigned cycles = 200000;
    for (unsigned i = 0; i < cycles; i++) {
        int rv;
        uint32_t tag;
        step(&s, &rv, &tag);
        if (!s.in.mem[0].req_ready) {
            low++;
            run++;
            continue;
        }
        if (run == 1)
            singles++;
        else if (run > 1)
            bursts++;
        if (run > longest)
            longest = run;
        run = 0;
    }
    double frac = (double)low / cycles;
    fprintf(stderr, "[sim tests] stress back-pressure: %.1f%% of cycles, %u single, %u "
            "bursts, longest %u\n", 100 * frac, singles, bursts, longest);
    cr_assert(frac > 0.2 && frac < 0.3, "not ready %.1f%% of the cycles", 100 * frac);
    cr_assert_gt(singles, 1000);
    cr_assert_gt(bursts, 1000);
    cr_assert_geq(longest, 20); /* bursts last up to 33 cycles (and may follow each other) */
    sim_memory_destroy(m);
}

/* Effects at acceptance: a read accepted after a write of another tag sees the write
 * even when its response overtakes the write's acknowledgement; a read accepted before
 * a write does not see it. */
Test(memory, stress_effects_at_acceptance)
{
    board_t b = test_board(16, 64);
    for (uint64_t seed = 1; seed <= 50; seed++) {
        sim_memory *m = sim_memory_create(&b);
        sim_memory_set_stress(m, seed);
        cr_assert_eq(sim_memory_map(m, 0, 4096), SIM_OK);
        port_sim s = {.mem = m};
        s.out.mem[0].resp_ready = 1;
        memset(s.out.mem[0].req_wstrb, 1, 64);
        /* read (tag 0), write 0x11 (tag 1), read (tag 2), all of word 0 */
        static const struct { int write; uint32_t tag; } reqs[3] = {{0, 0}, {1, 1}, {0, 2}};
        int next = 0, got = 0, rv;
        uint32_t tag;
        uint8_t seen[3] = {0xee, 0xee, 0xee};
        while (got < 3 && s.cycle < 1000) {
            s.out.mem[0].req_valid = next < 3;
            if (next < 3) {
                s.out.mem[0].req_write = (uint8_t)reqs[next].write;
                s.out.mem[0].req_tag = reqs[next].tag;
                memset(s.out.mem[0].req_wdata, 0x11, 64);
            }
            if (step(&s, &rv, &tag))
                next++;
            if (rv) {
                seen[tag] = s.in.mem[0].resp_rdata[0];
                got++;
            }
        }
        cr_assert_eq(got, 3);
        cr_assert_eq(seen[0], 0, "seed %lu: the earlier read saw the later write",
                     (unsigned long)seed);
        cr_assert_eq(seen[2], 0x11, "seed %lu: the later read missed the write",
                     (unsigned long)seed);
        sim_memory_destroy(m);
    }
}

/* Two ports: each takes a request a cycle and answers it after the latency on its own,
 * from the one store; a busy port does not hold the other back; each counts its own
 * traffic; the calm is the nearer of the two ports' next events. */
Test(memory, ports_work_side_by_side)
{
    board_t b = test_board(10, 64);
    b.mem_ports = 2;
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert(s.mem);
    cr_assert_eq(sim_mem_ports(s.mem), 2);
    cr_assert_eq(sim_memory_map(s.mem, 0, 1 << 16), SIM_OK);
    uint8_t line[64];
    for (int i = 0; i < 64; i++)
        line[i] = (uint8_t)(i * 3);
    sim_memory_write(s.mem, 4096, line, sizeof line);
    /* both ports read the same line in the same cycles: 8 requests each */
    int answered[2] = {0, 0};
    uint64_t first_answer[2] = {0, 0};
    for (unsigned p = 0; p < 2; p++) {
        s.out.mem[p].req_addr = 4096;
        s.out.mem[p].resp_ready = 1;
    }
    for (uint64_t cycle = 0; cycle < 40; cycle++) {
        for (unsigned p = 0; p < 2; p++) {
            s.out.mem[p].req_valid = cycle < 8;
            s.out.mem[p].req_tag = (uint32_t)(10 * p + cycle);
        }
        sim_mem_port_drive(s.mem, &s.in);
        for (unsigned p = 0; p < 2; p++) {
            if (cycle < 8)
                cr_assert(s.in.mem[p].req_ready, "port %u takes a request in cycle %lu", p,
                          (unsigned long)cycle);
            if (s.in.mem[p].resp_valid) {
                cr_assert_eq(s.in.mem[p].resp_tag, 10 * p + (unsigned)answered[p],
                             "port %u answers its own requests in order", p);
                cr_assert_eq(memcmp(s.in.mem[p].resp_rdata, line, 64), 0);
                if (!answered[p]++)
                    first_answer[p] = cycle;
            }
        }
        sim_mem_port_update(s.mem, &s.in, &s.out);
    }
    for (unsigned p = 0; p < 2; p++) {
        cr_expect_eq(answered[p], 8, "port %u answered %d", p, answered[p]);
        cr_expect_eq(first_answer[p], 10, "port %u's latency", p);
        sim_mem_stats st = sim_mem_port_stats(s.mem, p);
        cr_expect_eq(st.requests, 8);
        cr_expect_eq(st.read_bytes, 8 * 64);
    }
    cr_expect_eq(sim_mem_get_stats(s.mem).requests, 16, "the sum of the ports");
    /* a write on port 1 alone; port 0 idle: the calm is port 1's answer */
    s.out.mem[0].req_valid = 0;
    s.out.mem[1].req_valid = 1;
    s.out.mem[1].req_write = 1;
    memset(s.out.mem[1].req_wdata, 0xab, 64);
    memset(s.out.mem[1].req_wstrb, 1, 64);
    sim_mem_port_drive(s.mem, &s.in);
    cr_assert(s.in.mem[1].req_ready);
    sim_mem_port_update(s.mem, &s.in, &s.out);
    s.out.mem[1].req_valid = 0;
    sim_mem_port_drive(s.mem, &s.in);
    cr_expect_eq(sim_mem_port_calm(s.mem), 9, "port 1 answers 10 cycles after acceptance");
    uint8_t back[64];
    sim_memory_read(s.mem, 4096, back, sizeof back);
    cr_expect_eq(back[0], 0xab, "the write reached the store at acceptance");
    sim_memory_destroy(s.mem);
}
