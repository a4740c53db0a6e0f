/* Unit tests of the board memory model (sim-bridge/memory.c): regions and host access,
 * and the port's timing (latency, bandwidth, the in-flight bound, in-order answers,
 * bad addresses) driven directly through the private port interface, cycle by cycle,
 * exactly as the run loop drives it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* A board with a 512-bit port, the given latency and bytes per cycle at 300 MHz. */
static board_t test_board(unsigned latency, double bytes_per_cycle)
{
    board_t b;
    memset(&b, 0, sizeof b);
    b.name = "test";
    b.clock_mhz = 300;
    b.mem_width_bits = 512;
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
    int accepted = s->in.mem_req_ready && s->out.mem_req_valid;
    *resp_valid = s->in.mem_resp_valid && s->out.mem_resp_ready;
    *resp_tag = s->in.mem_resp_tag;
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

    s.out.mem_req_valid = 1;
    s.out.mem_req_addr = 128;
    s.out.mem_req_tag = 5;
    s.out.mem_resp_ready = 1;
    int rv;
    uint32_t tag;
    cr_assert(step(&s, &rv, &tag), "an idle port is ready");
    s.out.mem_req_valid = 0;
    uint64_t accepted_at = 0, got = 0;
    while (s.cycle < 100) {
        uint64_t now = s.cycle;
        step(&s, &rv, &tag);
        if (rv) {
            got = now;
            cr_assert_eq(tag, 5);
            cr_assert_eq(memcmp(s.in.mem_resp_rdata, word, 64), 0);
            break;
        }
    }
    cr_assert_eq(got - accepted_at, 20, "response %lu cycles after acceptance",
                 (unsigned long)(got - accepted_at));
    sim_memory_destroy(s.mem);
}

static void bandwidth_case(double bpc, unsigned latency, unsigned n)
{
    board_t b = test_board(latency, bpc);
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert_eq(sim_memory_map(s.mem, 0, 64 * (uint64_t)n), SIM_OK);
    s.out.mem_resp_ready = 1;
    unsigned issued = 0, answered = 0;
    while (answered < n && s.cycle < 100000) {
        s.out.mem_req_valid = issued < n;
        s.out.mem_req_write = issued % 2; /* reads and writes alike */
        s.out.mem_req_addr = 64 * (uint64_t)issued;
        s.out.mem_req_tag = issued & 0xffff;
        memset(s.out.mem_req_wstrb, 1, 64);
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

Test(memory, inflight_bound_and_backpressure)
{
    board_t b = test_board(8, 64);
    port_sim s = {.mem = sim_memory_create(&b)};
    cr_assert_eq(sim_memory_map(s.mem, 0, 1 << 16), SIM_OK);
    s.out.mem_req_valid = 1;
    s.out.mem_resp_ready = 0; /* never takes a response */
    unsigned accepted = 0;
    int rv;
    uint32_t tag;
    for (int i = 0; i < 200; i++) {
        s.out.mem_req_addr = 64 * (uint64_t)accepted;
        s.out.mem_req_tag = accepted;
        accepted += (unsigned)step(&s, &rv, &tag);
        cr_assert_eq(rv, 0);
    }
    cr_assert_eq(accepted, 32, "queue holds 4 x latency requests, took %u", accepted);
    /* a response stays presented until taken, then the next follows in order */
    s.out.mem_req_valid = 0;
    s.out.mem_resp_ready = 1;
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
    s.out.mem_resp_ready = 1;
    s.out.mem_req_valid = 1;
    s.out.mem_req_addr = 0x1000;
    step(&s, &rv, &tag);
    s.out.mem_req_valid = 0;
    while (!rv)
        step(&s, &rv, &tag);
    cr_assert_eq(s.in.mem_resp_rdata[0x30], 0xab);
    cr_assert_eq(s.in.mem_resp_rdata[0x20], 0);
    cr_assert_eq(sim_mem_bad(s.mem, NULL, NULL), 0);

    /* a write whose disabled lanes fall outside is fine */
    s.out.mem_req_valid = 1;
    s.out.mem_req_write = 1;
    memset(s.out.mem_req_wdata, 0x5a, 64);
    memset(s.out.mem_req_wstrb, 0, 64);
    memset(s.out.mem_req_wstrb, 1, 16);
    step(&s, &rv, &tag);
    cr_assert_eq(sim_mem_bad(s.mem, NULL, NULL), 0);
    cr_assert_eq(((uint8_t *)sim_memory_ptr(s.mem, 0x1000, 16))[15], 0x5a);

    /* an enabled lane outside: bad, write dropped */
    s.out.mem_req_wstrb[0x20] = 1;
    memset(s.out.mem_req_wdata, 0x77, 64);
    step(&s, &rv, &tag);
    uint64_t addr;
    int w;
    cr_assert_eq(sim_mem_bad(s.mem, &addr, &w), 1);
    cr_assert_eq(addr, 0x1020);
    cr_assert_eq(w, 1);
    cr_assert_eq(((uint8_t *)sim_memory_ptr(s.mem, 0x1000, 16))[0], 0x5a, "dropped");

    /* first bad address kept; a read of an unmapped word answers zeros */
    s.out.mem_req_write = 0;
    s.out.mem_req_addr = 0x9000;
    step(&s, &rv, &tag);
    s.out.mem_req_valid = 0;
    cr_assert_eq(sim_mem_bad(s.mem, &addr, &w), 1);
    cr_assert_eq(addr, 0x1020);
    sim_mem_clear_bad(s.mem);
    unsigned answers = 0;
    for (int i = 0; i < 20; i++) {
        step(&s, &rv, &tag);
        if (rv && ++answers == 3) {
            for (int k = 0; k < 64; k++)
                cr_assert_eq(s.in.mem_resp_rdata[k], 0);
        }
    }
    cr_assert_eq(answers, 3, "every request answered once, even bad ones");
    sim_memory_destroy(s.mem);
}
