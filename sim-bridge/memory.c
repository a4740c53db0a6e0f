/* Board memory: the backing store of every buffer (a sorted set of mapped regions,
 * each with zero-filled host memory) and the timing model of the board's memory ports,
 * each a port of its own (queue, budget, clock and stress sequence; the accelerator
 * routes a request to the port of its address, so every port sees the one store).
 * A port accepts at most one request per cycle while a token bucket filled with the
 * board's bytes per cycle holds a port word's worth and the in-flight queue has room;
 * it answers every request, reads and writes, exactly once, in order,
 * mem_latency_cycles after acceptance. Requests take effect when accepted (writes
 * land, reads take their snapshot), so responses in order also mean data in order.
 * Like a board's memory controller it executes no atomics: the accelerator's
 * clhls_atomic_unit turns them into reads and writes.
 * An access outside every region is recorded as a bad address and answered with zeros
 * (the write is dropped) so the hardware never hangs; the run loop then stops.
 *
 * Stress mode (a non-zero seed, CLHLS_SIM_STRESS) changes timing only: each accepted
 * request gets a random extra latency of 0..4x the board latency, mem_req_ready drops
 * on about a quarter of the cycles (half of the drops single cycles, half bursts of
 * 2..33 cycles), and the queue may hold 8x the latency in requests. Responses are then
 * chosen oldest first among those due, so a response may overtake those of other tags;
 * a request's due cycle is never earlier than that of the previous request with the
 * same tag (tags are grouped into 256 buckets by their low bits, which only adds
 * order), so responses of one tag stay in request order, which is what the load-store
 * units rely on. A presented response stays presented until it is taken. Effects still
 * happen at acceptance, so data is the same as without stress. The pseudo-random
 * sequence (xorshift64*) restarts from the seed (plus the port's index) at every port
 * reset.
 *
 * Without stress a port does no work in a cycle without a memory event: the inputs
 * it drives change only at a handshake, when the oldest request's response falls due
 * or when the bandwidth budget reaches a request's cost, so sim_mem_port_drive keeps
 * them until the first cycle one of those can happen (calm_until), and the budget is
 * brought up to date only when it is read (tokens_now: the per-cycle refill of the
 * cycles since, clamped as cycle by cycle). */
#include "sim_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN_SHIFT 16   /* fixed-point fraction bits of the bandwidth budget */
#define QUEUE_FACTOR 4   /* requests in flight: QUEUE_FACTOR x latency */
#define STRESS_QUEUE 8   /* the same under stress (the mean latency triples) */
#define STRESS_LAT 4     /* extra latency under stress: 0..STRESS_LAT x latency */
#define TAG_BUCKETS 256  /* per-tag order is kept per bucket of tags (tag % 256) */
/* Back-pressure under stress: a cycle outside a burst starts one with probability
 * BP_START/256; a burst lasts 1 cycle (half of them) or 2..33 cycles (mean 9.25), so
 * about 9.25 / (9.25 + 27.4) = 25% of the cycles are not ready. */
#define BP_START 9

/* One mapped region (a buffer). */
typedef struct region {
    uint64_t addr;  /* first device address */
    uint64_t size;  /* bytes */
    uint8_t *data;  /* zero-filled host backing store */
} region;

/* One request in flight. */
typedef struct inflight {
    uint64_t due;      /* cycle from which the response is presented */
    uint32_t tag;      /* the request's tag, echoed */
    uint8_t is_write;  /* 1 for a write (no data returned) */
    uint8_t answered;  /* stress: its response was taken (a hole until it is the oldest) */
} inflight;

/* One memory port's timing: its own queue, budget and clock. */
typedef struct mem_port {
    unsigned width;        /* port width in bytes */
    unsigned latency;      /* cycles from acceptance to response (at least 1) */
    uint64_t token_gain;   /* budget added per cycle, bytes << TOKEN_SHIFT */
    uint64_t token_cap;    /* largest budget that may be saved up */
    uint64_t token_cost;   /* budget one request costs (width << TOKEN_SHIFT) */
    uint64_t tokens;       /* the budget at cycle tok_at */
    uint64_t tok_at;       /* the cycle tokens is up to date for */
    uint64_t now;          /* port cycle counter */
    uint64_t calm_until;   /* no stress: the inputs last driven hold until this cycle
                              unless a handshake comes first (0: drive anew) */
    uint8_t drv_ready;     /* the req_ready last driven */
    uint8_t drv_valid;     /* the resp_valid last driven */
    uint32_t drv_tag;      /* the resp_tag last driven (read data stays in place) */
    inflight *queue;       /* ring of requests in flight, in acceptance order */
    uint8_t *qdata;        /* read data of each ring slot, width bytes per slot */
    unsigned qcap;         /* ring capacity (STRESS_QUEUE x latency) */
    unsigned qlimit;       /* ready only while qcount < qlimit (QUEUE_FACTOR x latency,
                              qcap under stress) */
    unsigned qhead;        /* oldest request */
    unsigned qcount;       /* ring slots in use (under stress, answered holes included) */
    uint64_t stress;       /* stress seed, 0 = off */
    uint64_t rng;          /* stress: xorshift64* state */
    unsigned bp_left;      /* stress: cycles of the current not-ready burst left */
    int presenting;        /* stress: ring slot whose response is presented, -1 none */
    uint64_t scan_from;    /* stress: no response is due before this cycle */
    uint64_t tag_due[TAG_BUCKETS]; /* stress: latest due cycle given to each tag bucket */
    sim_mem_stats stats;   /* traffic counters */
} mem_port;

struct sim_memory {
    region *regions;       /* mapped regions sorted by address */
    size_t nregions;       /* regions in use */
    size_t cap_regions;    /* regions allocated */
    size_t last_hit;       /* index of the region found last (lookup cache) */
    unsigned width;        /* port width in bytes (every port's) */
    uint64_t stress;       /* stress seed, 0 = off */
    int bad;               /* a bad address was recorded */
    uint64_t bad_addr;     /* the first bad address */
    int bad_write;         /* it was a write */
    unsigned nports;       /* the board's memory ports */
    mem_port port[BOARD_MAX_MEM_PORTS];
};

/* The stress seed in CLHLS_SIM_STRESS: absent, empty or 0 = off; a number (decimal,
 * 0x hex or 0 octal) is the seed; other text is hashed (FNV-1a) into a seed. */
uint64_t sim_stress_env(void)
{
    const char *s = getenv("CLHLS_SIM_STRESS");
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!*end && !errno)
        return v;
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h ? h : 1;
}

sim_memory *sim_memory_create(const board_t *board)
{
    if (!board || board->mem_width_bits < 32 || board->mem_width_bits % 8 ||
        board->mem_width_bits / 8 > CLHLS_MEM_MAX_BYTES || !board->mem_ports ||
        board->mem_ports > CLHLS_MEM_MAX_PORTS)
        return NULL;
    double bpc = board_mem_bytes_per_cycle(board);
    if (!(bpc > 0))
        return NULL;
    sim_memory *m = hls_try_alloc(sizeof *m);
    if (!m)
        return NULL;
    m->width = board->mem_width_bits / 8;
    m->nports = board->mem_ports;
    for (unsigned i = 0; i < m->nports; i++) {
        mem_port *pt = &m->port[i];
        pt->width = m->width;
        pt->latency = board->mem_latency_cycles ? board->mem_latency_cycles : 1;
        pt->token_gain = (uint64_t)(bpc * (double)(1u << TOKEN_SHIFT) + 0.5);
        if (pt->token_gain == 0)
            pt->token_gain = 1;
        pt->token_cost = (uint64_t)pt->width << TOKEN_SHIFT;
        /* saving up never loses budget while a request waits for it, and an idle port
         * cannot save up for a burst of more than one request beyond the rate */
        pt->token_cap = pt->token_cost + pt->token_gain - 1;
        pt->qcap = STRESS_QUEUE * pt->latency;
        pt->queue = hls_try_alloc(pt->qcap * sizeof *pt->queue);
        pt->qdata = hls_try_alloc((size_t)pt->qcap * pt->width);
        if (!pt->queue || !pt->qdata) {
            sim_memory_destroy(m);
            return NULL;
        }
    }
    sim_memory_set_stress(m, sim_stress_env());
    return m;
}

void sim_memory_destroy(sim_memory *mem)
{
    if (!mem)
        return;
    for (size_t i = 0; i < mem->nregions; i++)
        free(mem->regions[i].data);
    free(mem->regions);
    for (unsigned i = 0; i < mem->nports; i++) {
        free(mem->port[i].queue);
        free(mem->port[i].qdata);
    }
    free(mem);
}

/* Index of the first region that ends after addr (nregions when none). */
static size_t first_ending_after(const sim_memory *mem, uint64_t addr)
{
    size_t lo = 0, hi = mem->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const region *r = &mem->regions[mid];
        if (r->addr + r->size <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The region holding all of [addr, addr+size), or NULL. */
static region *lookup(sim_memory *mem, uint64_t addr, uint64_t size)
{
    if (mem->last_hit < mem->nregions) {
        region *r = &mem->regions[mem->last_hit];
        if (addr >= r->addr && addr - r->addr <= r->size && size <= r->size - (addr - r->addr))
            return r;
    }
    size_t i = first_ending_after(mem, addr);
    if (i == mem->nregions)
        return NULL;
    region *r = &mem->regions[i];
    if (addr < r->addr || size > r->size - (addr - r->addr))
        return NULL;
    mem->last_hit = i;
    return r;
}

int sim_memory_map(sim_memory *mem, uint64_t addr, uint64_t size)
{
    if (!mem || size == 0 || addr + size < addr)
        return SIM_ERR_ARG;
    size_t i = first_ending_after(mem, addr);
    if (i < mem->nregions && mem->regions[i].addr < addr + size)
        return SIM_ERR_ARG; /* overlaps a mapped region */
    if (size > SIZE_MAX)
        return SIM_ERR_NOMEM;
    if (mem->nregions == mem->cap_regions) {
        size_t cap = mem->cap_regions ? 2 * mem->cap_regions : 16;
        region *r = hls_try_realloc(mem->regions, cap * sizeof *r);
        if (!r)
            return SIM_ERR_NOMEM;
        mem->regions = r;
        mem->cap_regions = cap;
    }
    uint8_t *data = hls_try_alloc((size_t)size);
    if (!data)
        return SIM_ERR_NOMEM;
    memmove(&mem->regions[i + 1], &mem->regions[i],
            (mem->nregions - i) * sizeof *mem->regions);
    mem->regions[i] = (region){.addr = addr, .size = size, .data = data};
    mem->nregions++;
    mem->last_hit = i;
    return SIM_OK;
}

int sim_memory_unmap(sim_memory *mem, uint64_t addr)
{
    if (!mem)
        return SIM_ERR_ARG;
    size_t i = first_ending_after(mem, addr);
    if (i == mem->nregions || mem->regions[i].addr != addr)
        return SIM_ERR_ARG;
    free(mem->regions[i].data);
    memmove(&mem->regions[i], &mem->regions[i + 1],
            (mem->nregions - i - 1) * sizeof *mem->regions);
    mem->nregions--;
    mem->last_hit = 0;
    return SIM_OK;
}

void *sim_memory_ptr(sim_memory *mem, uint64_t addr, size_t size)
{
    if (!mem)
        return NULL;
    region *r = lookup(mem, addr, size);
    return r ? r->data + (addr - r->addr) : NULL;
}

int sim_memory_write(sim_memory *mem, uint64_t addr, const void *src, size_t size)
{
    if (!mem || (!src && size))
        return SIM_ERR_ARG;
    void *p = sim_memory_ptr(mem, addr, size);
    if (!p)
        return SIM_ERR_BAD_ADDRESS;
    if (size)
        memcpy(p, src, size);
    return SIM_OK;
}

int sim_memory_read(sim_memory *mem, uint64_t addr, void *dst, size_t size)
{
    if (!mem || (!dst && size))
        return SIM_ERR_ARG;
    void *p = sim_memory_ptr(mem, addr, size);
    if (!p)
        return SIM_ERR_BAD_ADDRESS;
    if (size)
        memcpy(dst, p, size);
    return SIM_OK;
}

/* ---- the ports ---- */

unsigned sim_mem_width_bytes(const sim_memory *mem) { return mem->width; }

unsigned sim_mem_ports(const sim_memory *mem) { return mem->nports; }

/* splitmix64: turns the seed into a well-mixed non-zero xorshift state. */
static uint64_t mix_seed(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x ? x : 1;
}

/* xorshift64*: the stress mode's pseudo-random numbers. */
static inline uint64_t rng_next(mem_port *pt)
{
    uint64_t x = pt->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    pt->rng = x;
    return x * 0x2545f4914f6cdd1dull;
}

void sim_mem_port_reset(sim_memory *mem)
{
    for (unsigned i = 0; i < mem->nports; i++) {
        mem_port *pt = &mem->port[i];
        pt->qhead = 0;
        pt->qcount = 0;
        pt->tokens = pt->token_cap;
        pt->tok_at = pt->now;
        pt->calm_until = 0;
        /* port 0's sequence is the seed's, as on a board of one port */
        pt->rng = mix_seed(pt->stress + i);
        pt->bp_left = 0;
        pt->presenting = -1;
        pt->scan_from = 0;
        memset(pt->tag_due, 0, sizeof pt->tag_due);
    }
    sim_mem_clear_bad(mem);
}

void sim_memory_set_stress(sim_memory *mem, uint64_t seed)
{
    if (!mem)
        return;
    mem->stress = seed;
    for (unsigned i = 0; i < mem->nports; i++) {
        mem->port[i].stress = seed;
        mem->port[i].qlimit = seed ? mem->port[i].qcap : QUEUE_FACTOR * mem->port[i].latency;
    }
    sim_mem_port_reset(mem);
}

uint64_t sim_memory_stress(const sim_memory *mem) { return mem ? mem->stress : 0; }

void sim_mem_clear_bad(sim_memory *mem)
{
    mem->bad = 0;
    mem->bad_addr = 0;
    mem->bad_write = 0;
}

int sim_mem_bad(const sim_memory *mem, uint64_t *addr, int *is_write)
{
    if (!mem->bad)
        return 0;
    if (addr)
        *addr = mem->bad_addr;
    if (is_write)
        *is_write = mem->bad_write;
    return 1;
}

sim_mem_stats sim_mem_get_stats(const sim_memory *mem)
{
    sim_mem_stats sum = {0};
    for (unsigned i = 0; i < mem->nports; i++) {
        sum.read_bytes += mem->port[i].stats.read_bytes;
        sum.write_bytes += mem->port[i].stats.write_bytes;
        sum.requests += mem->port[i].stats.requests;
    }
    return sum;
}

sim_mem_stats sim_mem_port_stats(const sim_memory *mem, unsigned port)
{
    return port < mem->nports ? mem->port[port].stats : (sim_mem_stats){0};
}

void sim_mem_port_idle(clhls_port_in *in)
{
    for (unsigned i = 0; i < CLHLS_MEM_MAX_PORTS; i++) {
        in->mem[i].req_ready = 0;
        in->mem[i].resp_valid = 0;
        in->mem[i].resp_tag = 0;
    }
}

/* Stress: the response to present this cycle, -1 when none is due. Keeps presenting
 * the one presented until it is taken; otherwise the oldest due one. */
static int stress_pick(mem_port *pt)
{
    if (pt->presenting >= 0 || !pt->qcount || pt->now < pt->scan_from)
        return pt->presenting;
    uint64_t next = UINT64_MAX;
    unsigned slot = pt->qhead;
    for (unsigned i = 0; i < pt->qcount; i++) {
        const inflight *e = &pt->queue[slot];
        if (!e->answered) {
            if (e->due <= pt->now)
                return pt->presenting = (int)slot;
            if (e->due < next)
                next = e->due;
        }
        if (++slot == pt->qcap)
            slot = 0;
    }
    pt->scan_from = next; /* nothing is due before then (or a new request comes) */
    return -1;
}

/* Stress: whether back-pressure holds req_ready low this cycle. */
static int stress_backpressure(mem_port *pt)
{
    if (pt->bp_left) {
        pt->bp_left--;
        return 1;
    }
    uint64_t r = rng_next(pt);
    if ((r & 255) >= BP_START)
        return 0;
    pt->bp_left = (r >> 8) & 1 ? 0 : 1 + (unsigned)((r >> 9) % 32);
    return 1;
}

/* The bandwidth budget at the current cycle: the refill of every cycle since tok_at,
 * clamped to the cap (adding and clamping cycle by cycle gives the same). */
static uint64_t tokens_now(mem_port *pt)
{
    uint64_t k = pt->now - pt->tok_at;
    if (k) {
        uint64_t room = pt->tokens < pt->token_cap ? pt->token_cap - pt->tokens : 0;
        pt->tokens = k >= room / pt->token_gain + 1 ? pt->token_cap
                                                     : pt->tokens + k * pt->token_gain;
        if (pt->tokens > pt->token_cap)
            pt->tokens = pt->token_cap;
        pt->tok_at = pt->now;
    }
    return pt->tokens;
}

/* No stress: the first cycle after now at which the inputs just driven may change
 * without a handshake (which resets calm_until): the oldest request's response falls
 * due, or the budget reaches a request's cost. */
static uint64_t calm_end(const mem_port *pt, const clhls_mem_in *in)
{
    uint64_t end = UINT64_MAX;
    if (!in->resp_valid && pt->qcount)
        end = pt->queue[pt->qhead].due;
    if (!in->req_ready && pt->qcount < pt->qlimit) {
        uint64_t need = pt->token_cost - pt->tokens; /* tokens_now was just called */
        uint64_t at = pt->now + (need + pt->token_gain - 1) / pt->token_gain;
        if (at < end)
            end = at;
    }
    return end;
}

/* Drives port pt's inputs (sim_mem_port_drive). */
static void drive_port(mem_port *pt, clhls_mem_in *in)
{
    if (pt->now < pt->calm_until) { /* nothing has happened: the same inputs */
        in->req_ready = pt->drv_ready;
        in->resp_valid = pt->drv_valid;
        if (pt->drv_valid) /* a tag without valid is left as it was, as below */
            in->resp_tag = pt->drv_tag;
        return;
    }
    in->req_ready = pt->qcount < pt->qlimit && tokens_now(pt) >= pt->token_cost;
    if (pt->stress) {
        if (stress_backpressure(pt))
            in->req_ready = 0;
        int slot = stress_pick(pt);
        in->resp_valid = slot >= 0;
        if (slot >= 0) {
            const inflight *e = &pt->queue[slot];
            in->resp_tag = e->tag;
            if (!e->is_write)
                memcpy(in->resp_rdata, pt->qdata + (size_t)slot * pt->width, pt->width);
        }
        return;
    }
    if (pt->qcount && pt->queue[pt->qhead].due <= pt->now) {
        const inflight *e = &pt->queue[pt->qhead];
        in->resp_valid = 1;
        in->resp_tag = e->tag;
        if (!e->is_write)
            memcpy(in->resp_rdata, pt->qdata + (size_t)pt->qhead * pt->width, pt->width);
    } else {
        in->resp_valid = 0;
    }
    pt->calm_until = calm_end(pt, in);
    pt->drv_ready = in->req_ready;
    pt->drv_valid = in->resp_valid;
    pt->drv_tag = in->resp_tag;
}

/* Drives every port of a board of several. */
static __attribute__((noinline)) void drive_ports(sim_memory *mem, clhls_port_in *in)
{
    for (unsigned i = 0; i < mem->nports; i++)
        drive_port(&mem->port[i], &in->mem[i]);
}

/* (Tail calls only: a one-port board pays neither a loop nor saved registers, which
 * cost the bridge 20 instructions a cycle.) */
void sim_mem_port_drive(sim_memory *mem, clhls_port_in *in)
{
    if (mem->nports == 1)
        drive_port(&mem->port[0], &in->mem[0]);
    else
        drive_ports(mem, in);
}

uint64_t sim_mem_port_calm(const sim_memory *mem)
{
    uint64_t calm = UINT64_MAX;
    int any = 0;
    for (unsigned i = 0; i < mem->nports; i++) {
        const mem_port *pt = &mem->port[i];
        if (pt->stress || pt->now >= pt->calm_until)
            return 0;
        if (pt->calm_until != UINT64_MAX) {
            any = 1;
            if (pt->calm_until - pt->now < calm)
                calm = pt->calm_until - pt->now;
        }
    }
    return any ? calm : 0;
}

void sim_mem_port_skip(sim_memory *mem, uint64_t cycles)
{
    for (unsigned i = 0; i < mem->nports; i++)
        mem->port[i].now += cycles; /* the budget refills lazily (tokens_now) */
}

static void record_bad(sim_memory *mem, uint64_t addr, int is_write)
{
    if (mem->bad)
        return;
    mem->bad = 1;
    mem->bad_addr = addr;
    mem->bad_write = is_write;
}
/* Reads the port word at addr into dst; bytes outside every region read as 0. */
static void port_read(sim_memory *mem, uint64_t addr, uint8_t *dst)
{
    unsigned w = mem->width;
    region *r = lookup(mem, addr, w);
    if (r) {
        memcpy(dst, r->data + (addr - r->addr), w);
        return;
    }
    memset(dst, 0, w);
    int any = 0;
    for (size_t i = first_ending_after(mem, addr);
         i < mem->nregions && mem->regions[i].addr < addr + w; i++) {
        const region *g = &mem->regions[i];
        uint64_t lo = g->addr > addr ? g->addr : addr;
        uint64_t hi = g->addr + g->size < addr + w ? g->addr + g->size : addr + w;
        memcpy(dst + (lo - addr), g->data + (lo - g->addr), (size_t)(hi - lo));
        any = 1;
    }
    if (!any)
        record_bad(mem, addr, 0);
}

/* Strobes of a fully enabled word. */
static const uint8_t all_lanes[CLHLS_MEM_MAX_BYTES] = {
#define L8 1, 1, 1, 1, 1, 1, 1, 1
#define L64 L8, L8, L8, L8, L8, L8, L8, L8
    L64, L64
#undef L64
#undef L8
};

/* Writes the enabled lanes of a port word; returns the bytes written. */
static unsigned port_write(sim_memory *mem, uint64_t addr, const uint8_t *data,
                           const uint8_t *strb)
{
    unsigned w = mem->width, n = 0;
    region *r = lookup(mem, addr, w);
    if (r) {
        uint8_t *p = r->data + (addr - r->addr);
        if (!memcmp(strb, all_lanes, w)) { /* the common case: a whole word */
            memcpy(p, data, w);
            return w;
        }
        for (unsigned i = 0; i < w; i++)
            if (strb[i]) {
                p[i] = data[i];
                n++;
            }
        return n;
    }
    for (unsigned i = 0; i < w; i++) /* every enabled lane must be mapped */
        if (strb[i] && !lookup(mem, addr + i, 1)) {
            record_bad(mem, addr + i, 1);
            return 0;
        }
    for (unsigned i = 0; i < w; i++)
        if (strb[i]) {
            region *g = lookup(mem, addr + i, 1);
            g->data[addr + i - g->addr] = data[i];
            n++;
        }
    return n;
}

/* Completes port pt's cycle (sim_mem_port_update); returns the memory's bad flag. */
static int update_port(sim_memory *mem, mem_port *pt, const clhls_mem_in *in,
                       const clhls_mem_out *out)
{
    if (!((in->resp_valid && out->resp_ready) || (in->req_ready && out->req_valid))) {
        pt->now++; /* no event: the budget refills lazily (tokens_now) */
        return mem->bad;
    }
    pt->calm_until = 0; /* a handshake: drive anew */
    if (in->resp_valid && out->resp_ready) {
        if (pt->stress) { /* mark it answered; free the answered slots at the head */
            pt->queue[pt->presenting].answered = 1;
            pt->presenting = -1;
            pt->scan_from = 0;
            while (pt->qcount && pt->queue[pt->qhead].answered) {
                pt->qhead = pt->qhead + 1 == pt->qcap ? 0 : pt->qhead + 1;
                pt->qcount--;
            }
        } else {
            pt->qhead = pt->qhead + 1 == pt->qcap ? 0 : pt->qhead + 1;
            pt->qcount--;
        }
    }
    if (in->req_ready && out->req_valid) {
        unsigned slot = pt->qhead + pt->qcount;
        if (slot >= pt->qcap)
            slot -= pt->qcap;
        inflight *e = &pt->queue[slot];
        uint64_t addr = out->req_addr - out->req_addr % pt->width;
        e->due = pt->now + pt->latency;
        e->tag = out->req_tag;
        e->is_write = out->req_write != 0;
        e->answered = 0;
        if (pt->stress) {
            e->due += rng_next(pt) % (STRESS_LAT * (uint64_t)pt->latency + 1);
            uint64_t *last = &pt->tag_due[e->tag % TAG_BUCKETS];
            if (e->due < *last)
                e->due = *last; /* never before an earlier request of its tag */
            *last = e->due;
            if (e->due < pt->scan_from)
                pt->scan_from = e->due;
        }
        if (e->is_write) {
            pt->stats.write_bytes += port_write(mem, addr, out->req_wdata, out->req_wstrb);
        } else {
            port_read(mem, addr, pt->qdata + (size_t)slot * pt->width);
            pt->stats.read_bytes += pt->width;
        }
        pt->stats.requests++;
        pt->qcount++;
        pt->tokens = tokens_now(pt) - pt->token_cost;
    }
    pt->tokens = tokens_now(pt) + pt->token_gain;
    if (pt->tokens > pt->token_cap)
        pt->tokens = pt->token_cap;
    pt->tok_at = ++pt->now;
    return mem->bad;
}

/* Completes the cycle of every port of a board of several. */
static __attribute__((noinline)) int update_ports(sim_memory *mem, const clhls_port_in *in,
                                                  const clhls_port_out *out)
{
    for (unsigned i = 0; i < mem->nports; i++)
        update_port(mem, &mem->port[i], &in->mem[i], &out->mem[i]);
    return mem->bad;
}

/* (Tail calls only, as sim_mem_port_drive's.) */
int sim_mem_port_update(sim_memory *mem, const clhls_port_in *in, const clhls_port_out *out)
{
    return mem->nports == 1 ? update_port(mem, &mem->port[0], &in->mem[0], &out->mem[0])
                            : update_ports(mem, in, out);
}
