/* The per-model half of the simulator: compiled together with the verilated
 * accelerator (Verilator prefix Vclhls_top) into model.so, it exports
 * clhls_harness_get(), the function table of clhls_harness_abi.h. The accelerator's
 * outputs depend on its registers only (docs/architecture.md, "Timing rules"), so one
 * call of cycle() samples the memory port's outputs (the values that decide this
 * cycle's handshakes, as the last edge left them), drives the inputs and takes the
 * rising edge in a single evaluation, then reads the register port's data (registered
 * at that edge from the address driven). That is the cycle's only evaluation: the
 * clock is lowered without one (no input changed and nothing waits on a falling edge,
 * so it would change no signal; it used to cost a tenth of vector add's cycle) and
 * Verilator's record of the clock's last value is set low with it, so the next
 * evaluation sees a rising edge; where the generated model keeps no such record (another
 * Verilator), the clock is lowered with an evaluation. Signals of
 * any Verilator type (CData/SData/IData/QData/VlWide<N>) are copied to and from the
 * ABI's little-endian byte arrays by the overloaded helpers below, so one harness
 * serves every memory width from 32 to 1024 bits. The 1-bit `progress` output (the
 * watchdog's evidence that the accelerator moves) is read when the top has it; a top
 * without it (a hand-written design from before harness ABI 2) reports 0, so only its
 * memory handshakes count. The global load-store units report each request they
 * accept, with their compute unit's number, through the DPI-C function
 * clhls_sim_access (defined here), which checks it against the ranges check_accesses
 * gave to that compute unit. The `progress_units` output (bit u: compute unit u moved)
 * and the memory port's tags of each unit (which clhls_top tells at its first
 * evaluation, clhls_sim_unit) give each running kernel its own watchdog. The
 * multi-threaded variant (compiled with CLHLS_MODEL_THREADS=n, the model verilated with
 * --threads n) gives each instance a context of n threads; the DPI calls may then come
 * from its Verilator worker threads, which find their instance through their context,
 * and take the instance's lock. Each kernel's compute units run on their own clock
 * (the top's `unit_clk`, in the simulator's model only): a cycle raises the clocks of
 * the kernels that are not quiet (`unit_quiet`, after the last edge: idle long enough
 * that clocking them would change nothing a later cycle sees) and of every kernel when
 * the register port is used (a write, or a read of another address), in reset, while a
 * waveform is recorded or when CLHLS_SIM_ALL_CLOCKS=1 asks for it (to compare). Only the
 * raised clocks' logic is evaluated. A top with a `still` output (the last edge changed
 * nothing but counts) can be jumped: still() adds that the inputs are quiet, jump() is a
 * cycle with the top's `sim_skip` set, standing for that many. A kernel's control block
 * hands its final counts over once done (clhls_sim_counts), which final_reg gives until
 * the block's next start (forget_finals). This is the project's
 * only C++ file; keep it small. */
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#if CLHLS_MODEL_THREADS > 1
#include <mutex>
#endif
#include <type_traits>
#include <utility>
#include <vector>

#include "Vclhls_top.h"
#include "Vclhls_top___024root.h"
#include "svdpi.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "clhls_clock_records.h"
#include "clhls_harness_abi.h"

/* Threads of a model's evaluation: Verilator's --threads of the multi-threaded
 * variant, which defines it; 1 for the normal and the traced model. */
#ifndef CLHLS_MODEL_THREADS
#define CLHLS_MODEL_THREADS 1
#endif

namespace {

/* Type of a port member (Verilator declares ports as references). */
#define PORT_T(name) std::remove_reference<decltype(std::declval<Vclhls_top &>().name)>::type

/* Bytes held by a signal type: its storage size. */
template <typename T> constexpr unsigned sig_bytes() { return sizeof(T); }

/* Scalar signal -> bytes (little-endian): n bytes from byte `at`. */
template <typename T>
inline void sig_to_bytes(uint8_t *dst, const T &v, unsigned n, unsigned at = 0)
{
    uint64_t x = (uint64_t)v >> (8 * at);
    for (unsigned i = 0; i < n; i++)
        dst[i] = (uint8_t)(x >> (8 * i));
}

/* Wide signal -> bytes: words are 32-bit little-endian, word 0 = bits 31:0. */
template <std::size_t N>
inline void sig_to_bytes(uint8_t *dst, const VlWide<N> &v, unsigned n, unsigned at = 0)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(dst, reinterpret_cast<const uint8_t *>(v.m_storage) + at,
                n < 4 * N - at ? n : 4 * N - at); /* same layout */
#else
    for (unsigned i = 0; i < n; i++)
        dst[i] = (uint8_t)(v.m_storage[(at + i) / 4] >> (8 * ((at + i) % 4)));
#endif
}

/* Bytes -> scalar signal, n bytes from byte `at` (the others kept). */
template <typename T>
inline void bytes_to_sig(T &v, const uint8_t *src, unsigned n, unsigned at = 0)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++)
        x |= (uint64_t)src[i] << (8 * i);
    if (at == 0 && n == sizeof(T)) {
        v = (T)x;
        return;
    }
    uint64_t mask = (n >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1) << (8 * at);
    v = (T)(((uint64_t)v & ~mask) | (x << (8 * at)));
}

/* Bytes -> wide signal, n bytes from byte `at`. */
template <std::size_t N>
inline void bytes_to_sig(VlWide<N> &v, const uint8_t *src, unsigned n, unsigned at = 0)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (at % 4 == 0 && n % 4 == 0 && at + n <= 4 * N) {
        std::memcpy(reinterpret_cast<uint8_t *>(v.m_storage) + at, src, n);
        return;
    }
#endif
    for (unsigned i = 0; i < n; i++) {
        unsigned w = (at + i) / 4, sh = 8 * ((at + i) % 4);
        v.m_storage[w] = (v.m_storage[w] & ~(0xffu << sh)) | ((uint32_t)src[i] << sh);
    }
}

/* Bit b of a scalar or wide signal. */
template <typename T> inline unsigned sig_bit(const T &v, unsigned b)
{
    return (unsigned)(((uint64_t)v >> b) & 1u);
}
template <std::size_t N> inline unsigned sig_bit(const VlWide<N> &v, unsigned b)
{
    return (v.m_storage[b / 32] >> (b % 32)) & 1u;
}

/* Bits [lo, lo + w) of a scalar or wide signal (w <= 64). */
template <typename T> inline uint64_t sig_bits(const T &v, unsigned lo, unsigned w)
{
    uint64_t x = (uint64_t)v >> lo;
    return w >= 64 ? x : x & (((uint64_t)1 << w) - 1);
}
template <std::size_t N> inline uint64_t sig_bits(const VlWide<N> &v, unsigned lo, unsigned w)
{
    unsigned word = lo / 32, sh = lo % 32;
    uint64_t x = v.m_storage[word] >> sh;
    if (word + 1 < N)
        x |= (uint64_t)v.m_storage[word + 1] << (32 - sh);
    if (sh && word + 2 < N)
        x |= (uint64_t)v.m_storage[word + 2] << (64 - sh);
    return w >= 64 ? x : x & (((uint64_t)1 << w) - 1);
}

/* Sets bits [lo, lo + w) of a wide signal to x (w <= 64, the others kept). */
template <std::size_t N>
inline void set_sig_bits(VlWide<N> &v, unsigned lo, unsigned w, uint64_t x)
{
    for (unsigned i = 0; i < w; i++) {
        unsigned b = lo + i;
        uint32_t bit = 1u << (b % 32);
        v.m_storage[b / 32] = (x >> i & 1) ? v.m_storage[b / 32] | bit
                                           : v.m_storage[b / 32] & ~bit;
    }
}

/* Sets field i (bits [w * i +: w]) of a vector signal to x[i], for the MEM_PORTS fields
 * of the memory ports: a scalar signal in one store. */
template <unsigned P, typename T> inline void set_fields_of(T &v, unsigned w, const uint64_t *x)
{
    uint64_t all = 0;
    for (unsigned i = 0; i < P; i++)
        all |= x[i] << (w * i);
    v = (T)all;
}
template <unsigned P, std::size_t N>
inline void set_fields_of(VlWide<N> &v, unsigned w, const uint64_t *x)
{
    for (unsigned i = 0; i < P; i++)
        set_sig_bits(v, w * i, w, x[i]);
}

/* Scalar bit vector -> one byte per lane (0/1): n lanes from bit `at`. */
template <typename T>
inline void sig_to_lanes(uint8_t *dst, const T &v, unsigned n, unsigned at = 0)
{
    uint64_t x = (uint64_t)v >> at;
    if (x == (n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1)) { /* all lanes */
        std::memset(dst, 1, n);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        dst[i] = (uint8_t)((x >> i) & 1u);
}

/* Wide bit vector -> one byte per lane: n lanes from bit `at`. */
template <std::size_t N>
inline void sig_to_lanes(uint8_t *dst, const VlWide<N> &v, unsigned n, unsigned at = 0)
{
    for (unsigned i = 0; i < n; i++)
        dst[i] = (uint8_t)sig_bit(v, at + i);
}

/* Whether the top has a `progress` output (detected from the verilated class). */
template <typename T, typename = void> struct has_progress : std::false_type {};
template <typename T>
struct has_progress<T, decltype((void)std::declval<T &>().progress)> : std::true_type {};

/* The progress bit of this cycle; 0 for a top without the port. */
template <typename T> inline uint8_t read_progress(const T &t, std::true_type)
{
    return (uint8_t)(t.progress & 1u);
}
template <typename T> inline uint8_t read_progress(const T &, std::false_type) { return 0; }

constexpr unsigned HAS_PROGRESS = has_progress<Vclhls_top>::value ? 1u : 0u;

/* The low 64 bits of a scalar or wide signal. */
template <typename T> inline uint64_t sig_low64(const T &v) { return (uint64_t)v; }
template <std::size_t N> inline uint64_t sig_low64(const VlWide<N> &v)
{
    return (uint64_t)v.m_storage[0] | (N > 1 ? (uint64_t)v.m_storage[N > 1 ? 1 : 0] << 32 : 0);
}

/* Whether the top has a `progress_units` output (one bit per compute unit). */
template <typename T, typename = void> struct has_unit_progress : std::false_type {};
template <typename T>
struct has_unit_progress<T, decltype((void)std::declval<T &>().progress_units)>
    : std::true_type {};

template <typename T> inline uint64_t read_unit_progress(const T &t, std::true_type)
{
    return sig_low64(t.progress_units);
}
template <typename T> inline uint64_t read_unit_progress(const T &, std::false_type)
{
    return 0;
}

constexpr unsigned HAS_UNIT_PROGRESS = has_unit_progress<Vclhls_top>::value ? 1u : 0u;

/* Whether the top has a `still` output (with `sim_skip`): it says when the next edge
 * changes only counts, and the simulator may jump. */
template <typename T, typename = void> struct has_still : std::false_type {};
template <typename T>
struct has_still<T, decltype((void)std::declval<T &>().still)> : std::true_type {};
template <typename T> inline bool read_still(const T &t, std::true_type) { return t.still & 1u; }
template <typename T> inline bool read_still(const T &, std::false_type) { return false; }
template <typename T> inline void set_skip(T *t, uint32_t skip, std::true_type)
{
    t->sim_skip = skip;
}
template <typename T> inline void set_skip(T *, uint32_t, std::false_type) {}

/* Whether the top has a clock per kernel (`unit_clk`, with `unit_quiet`). */
template <typename T, typename = void> struct has_unit_clocks : std::false_type {};
template <typename T>
struct has_unit_clocks<T, decltype((void)std::declval<T &>().unit_clk)> : std::true_type {};

/* The clocks to raise: kernels 0..n-1, each unless its quiet bit is set or `all` (n = 0:
 * none, the clocks lowered). */
template <typename T> inline void unit_clocks(T &clocks, const T &quiet, unsigned n, bool all)
{
    uint64_t mask = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    clocks = (T)((all ? ~(uint64_t)0 : ~(uint64_t)quiet) & mask);
}
template <std::size_t N>
inline void unit_clocks(VlWide<N> &clocks, const VlWide<N> &quiet, unsigned n, bool all)
{
    for (unsigned w = 0; w < N; w++) {
        unsigned bits = n > 32 * w ? n - 32 * w : 0;
        uint32_t mask = bits >= 32 ? ~0u : (1u << bits) - 1;
        clocks.m_storage[w] = (all ? ~0u : ~quiet.m_storage[w]) & mask;
    }
}

/* Sets the kernels' clocks of a top that has them (see the top of the file). */
template <typename T> inline void set_unit_clocks(T *t, unsigned n, bool all, std::true_type)
{
    unit_clocks(t->unit_clk, t->unit_quiet, n, all);
}
template <typename T> inline void set_unit_clocks(T *, unsigned, bool, std::false_type) {}

/* How many clock records the model keeps (clhls_clock_records.h). */
#define CLHLS_COUNT(record) +1
constexpr unsigned CLOCK_RECORDS = 0 CLHLS_CLOCK_RECORDS(CLHLS_COUNT);
#undef CLHLS_COUNT

/* Lowers the clock and the kernels' clocks after the rising edge's evaluation: what an
 * evaluation with the clocks low would leave (no input changed, no falling-edge
 * logic), without it, by lowering Verilator 5's records of the clocks' last values
 * (clhls_clock_records.h, from the model's build) with them. A model that keeps no
 * such record is evaluated. */
inline void clock_low(Vclhls_top *t)
{
    t->clk = 0;
    set_unit_clocks(t, 0, false, has_unit_clocks<Vclhls_top>{});
#define CLHLS_LOWER(record) t->rootp->record = 0;
    CLHLS_CLOCK_RECORDS(CLHLS_LOWER)
#undef CLHLS_LOWER
    if (!CLOCK_RECORDS)
        t->eval();
}

/* The memory ports (each field of the top a vector of them, port m's at slice m) and
 * the width of each in bytes, from the types of the generated address and data
 * signals. */
constexpr unsigned MEM_PORTS = sig_bytes<PORT_T(m_mem_req_addr)>() / 8;
constexpr unsigned MEM_BYTES = sig_bytes<PORT_T(m_mem_req_wdata)>() / MEM_PORTS;
static_assert(MEM_PORTS >= 1 && MEM_PORTS <= CLHLS_MEM_MAX_PORTS, "1..8 memory ports");
template <typename T> inline void set_fields(T &v, unsigned w, const uint64_t *x)
{
    set_fields_of<MEM_PORTS>(v, w, x);
}
static_assert(MEM_BYTES >= 4 && MEM_BYTES <= CLHLS_MEM_MAX_BYTES,
              "memory port width must be 32..1024 bits");

/* The access check of one compute unit. */
struct unit_check {
    bool own;                       /* ranges were given for this unit (else the default) */
    const clhls_mem_range *ranges;  /* what its load-store units may touch; NULL: no check */
    unsigned nranges;               /* number of ranges */
    bool faulted;                   /* fault holds its first access outside them */
    clhls_access_fault fault;
    unsigned held;                  /* speculative loads outside them, held unanswered */
    clhls_access_fault first_held;  /* the first of those since the count was 0 */
};

struct instance;

#if CLHLS_MODEL_THREADS > 1
/* A threaded model's context: it knows its instance. Each Verilator worker thread
 * belongs to one context (its Verilated::threadContextp()), so a DPI call made on a
 * worker finds the instance that is evaluating through it. */
struct model_context : VerilatedContext {
    instance *owner = nullptr;      /* the instance whose context this is */
};
#else
typedef VerilatedContext model_context;
#endif

/* The counts a control block handed over once its kernel was done (clhls_sim_counts). */
struct final_counts {
    bool fresh;                     /* handed over since the block's forget_finals */
    uint32_t first_reg;             /* the first counter's offset in the block */
    uint64_t values[6];             /* the counters from first_reg on, in register order */
};

/* One model instance: its own context, so several models never share state. */
struct instance {
    model_context *ctx;             /* Verilator context of this instance */
    Vclhls_top *top;                /* the verilated accelerator */
    const clhls_mem_range *ranges;  /* the ranges of units given none of their own */
    unsigned nranges;               /* number of ranges */
    std::vector<unit_check> units;  /* per compute unit, by index */
    bool faulted;                   /* some unit has faulted */
    clhls_access_fault fault;       /* the first fault of any unit */
    std::vector<int> tag_units;     /* the compute unit of a memory port tag, -1 unknown */
    uint64_t cycle;                 /* cycles taken since create (the waveform's time) */
    unsigned kernels;               /* kernels of the top (clhls_sim_unit), one clock each */
    bool all_clocks;                /* CLHLS_SIM_ALL_CLOCKS=1: never stop a kernel's clock */
    uint32_t last_reg_addr;         /* the register port's address in the last cycle */
    std::vector<final_counts> finals; /* per control block, the counts handed over once done */
#if CLHLS_MODEL_THREADS > 1
    std::mutex dpi;                 /* held by each DPI call: calls run on several threads */
#endif
#if VM_TRACE
    VerilatedFstC *fst;             /* the open waveform, or NULL */
    uint64_t first, last;           /* cycles recorded: first..last */
#endif
};

/* The instance whose cycle() is evaluating on this thread (the load-store units' DPI
 * calls find their instance through it). */
thread_local instance *evaluating;

/* The instance a DPI call belongs to: the one this thread evaluates, or on a Verilator
 * worker thread of a threaded model, the one whose context the worker belongs to. */
inline instance *dpi_instance()
{
#if CLHLS_MODEL_THREADS > 1
    if (!evaluating)
        return static_cast<model_context *>(Verilated::threadContextp())->owner;
#endif
    return evaluating;
}

/* Holds an instance's DPI lock for a DPI call's scope in a threaded model (its calls
 * may come from several threads at once); nothing in a single-threaded one. */
struct dpi_section {
#if CLHLS_MODEL_THREADS > 1
    std::lock_guard<std::mutex> hold;
    explicit dpi_section(instance *m) : hold(m->dpi) {}
#else
    explicit dpi_section(instance *) {}
#endif
};

void *h_create(void)
{
    instance *m = new instance();
    m->ctx = new model_context;
#if CLHLS_MODEL_THREADS > 1
    m->ctx->owner = m;
#endif
    m->ctx->fatalOnError(false);
#if VM_TRACE
    m->ctx->traceEverOn(true);
#endif
    /* As many threads as the model was verilated with (one, but for the threaded
     * variant); a context left at its default would start a pool of (cores - 1) threads
     * for it, one pool per loaded program. */
    m->ctx->threads(CLHLS_MODEL_THREADS);
#if VM_TRACE
    /* the waveform's scopes as Verilator's users know them: TOP.clhls_top.cu_KERNEL... */
    m->top = new Vclhls_top(m->ctx, "TOP");
#else
    m->top = new Vclhls_top(m->ctx, "clhls_top");
#endif
    const char *all = std::getenv("CLHLS_SIM_ALL_CLOCKS");
    m->all_clocks = all && std::strcmp(all, "0") != 0;
    m->top->clk = 0;
    m->top->rst = 1;
    evaluating = m; /* the top tells its compute units' tags (clhls_sim_unit) */
    m->top->eval();
    evaluating = nullptr;
    return m;
}

void h_destroy(void *p)
{
    instance *m = static_cast<instance *>(p);
    if (!m)
        return;
    /* The top's DPI scopes leave the calling thread's Verilator context as they go:
     * make it this instance's (the thread may last have seen another, deleted one),
     * and leave none behind. */
    Verilated::threadContextp(m->ctx);
#if VM_TRACE
    if (m->fst) {
        m->fst->close();
        delete m->fst;
    }
#endif
    m->top->final();
    delete m->top;
    delete m->ctx;
    Verilated::threadContextp(nullptr);
    delete m;
}

void h_cycle(void *p, const clhls_port_in *in, clhls_port_out *out)
{
    instance *m = static_cast<instance *>(p);
    Vclhls_top *t = m->top;
    evaluating = m;

    for (unsigned p = 0; p < MEM_PORTS; p++) {
        clhls_mem_out *o = &out->mem[p];
        o->req_valid = (uint8_t)sig_bits(t->m_mem_req_valid, p, 1);
        o->req_write = (uint8_t)sig_bits(t->m_mem_req_write, p, 1);
        o->req_addr = sig_bits(t->m_mem_req_addr, 64 * p, 64);
        o->req_tag = (uint32_t)sig_bits(t->m_mem_req_tag, 16 * p, 16);
        o->resp_ready = (uint8_t)sig_bits(t->s_mem_resp_ready, p, 1);
        if (o->req_valid && o->req_write) { /* only then */
            sig_to_bytes(o->req_wdata, t->m_mem_req_wdata, MEM_BYTES, MEM_BYTES * p);
            sig_to_lanes(o->req_wstrb, t->m_mem_req_wstrb, MEM_BYTES, MEM_BYTES * p);
        }
    }
    out->progress = read_progress(*t, has_progress<Vclhls_top>{});
    out->unit_progress = read_unit_progress(*t, has_unit_progress<Vclhls_top>{});

    t->rst = in->rst;
    t->reg_we = in->reg_we;
    t->reg_addr = (PORT_T(reg_addr))in->reg_addr;
    t->reg_wdata = in->reg_wdata;
    uint64_t ready[MEM_PORTS], valid[MEM_PORTS], tag[MEM_PORTS];
    for (unsigned p = 0; p < MEM_PORTS; p++) {
        const clhls_mem_in *i = &in->mem[p];
        ready[p] = i->req_ready;
        valid[p] = i->resp_valid;
        tag[p] = i->resp_tag;
        if (i->resp_valid) /* read data is don't-care without valid */
            bytes_to_sig(t->s_mem_resp_rdata, i->resp_rdata, MEM_BYTES, MEM_BYTES * p);
    }
    set_fields(t->m_mem_req_ready, 1, ready);
    set_fields(t->s_mem_resp_valid, 1, valid);
    set_fields(t->s_mem_resp_tag, 16, tag);
#if VM_TRACE
    /* the cycle's inputs with the clock low, then the edge: what a simulator shows */
    const bool record = m->fst && m->cycle >= m->first && m->cycle <= m->last;
    if (record) {
        t->eval();
        m->fst->dump(m->cycle * 1000);
    }
#endif
    bool every_kernel = m->all_clocks || in->rst || in->reg_we || in->reg_addr != m->last_reg_addr;
#if VM_TRACE
    every_kernel = every_kernel || m->fst;
#endif
    m->last_reg_addr = in->reg_addr;
    set_unit_clocks(t, m->kernels, every_kernel, has_unit_clocks<Vclhls_top>{});
    t->clk = 1;
    t->eval();
#if VM_TRACE
    if (record)
        m->fst->dump(m->cycle * 1000 + 500);
#endif
    m->cycle++;
    out->reg_rdata = t->reg_rdata;
    out->access_fault = m->faulted;
    clock_low(t);
}

int h_still(void *p, const clhls_port_in *in)
{
    const instance *m = static_cast<instance *>(p);
    const Vclhls_top *t = m->top;
#if VM_TRACE
    if (m->fst)
        return 0;
#endif
    if (!read_still(*t, has_still<Vclhls_top>{}) || in->rst || in->reg_we)
        return 0;
    for (unsigned p = 0; p < MEM_PORTS; p++)
        if (in->mem[p].resp_valid || (in->mem[p].req_ready && sig_bits(t->m_mem_req_valid, p, 1)))
            return 0;
    return 1;
}

void h_jump(void *p, const clhls_port_in *in, clhls_port_out *out, uint64_t cycles)
{
    instance *m = static_cast<instance *>(p);
    uint64_t skip = cycles > 1 ? cycles - 1 : 0;
    if (skip > UINT32_MAX)
        skip = UINT32_MAX;
    set_skip(m->top, (uint32_t)skip, has_still<Vclhls_top>{});
    h_cycle(p, in, out);
    set_skip(m->top, 0, has_still<Vclhls_top>{});
    m->cycle += skip;
}

/* Whether some unit's fault is still recorded (after one unit's was cleared). */
void refresh_faulted(instance *m)
{
    m->faulted = false;
    for (const unit_check &u : m->units)
        if (u.faulted) {
            m->faulted = true;
            m->fault = u.fault;
            return;
        }
}

void h_check_accesses(void *p, unsigned cu, const clhls_mem_range *ranges, unsigned n)
{
    instance *m = static_cast<instance *>(p);
    if (cu == CLHLS_ALL_UNITS) {
        m->ranges = ranges;
        m->nranges = n;
        m->units.clear();
        m->faulted = false;
        return;
    }
    if (cu >= m->units.size())
        m->units.resize(cu + 1, unit_check{false, nullptr, 0, false, clhls_access_fault{}, 0, clhls_access_fault{}});
    m->units[cu] = unit_check{true, ranges, n, false, clhls_access_fault{}, 0, clhls_access_fault{}};
    refresh_faulted(m);
}

int h_access_fault(void *p, unsigned cu, clhls_access_fault *fault)
{
    const instance *m = static_cast<const instance *>(p);
    if (cu == CLHLS_ALL_UNITS) {
        if (m->faulted)
            *fault = m->fault;
        return m->faulted;
    }
    if (cu >= m->units.size() || !m->units[cu].faulted)
        return 0;
    *fault = m->units[cu].fault;
    return 1;
}

int h_held_access(void *p, unsigned cu, clhls_access_fault *held)
{
    const instance *m = static_cast<const instance *>(p);
    for (std::size_t u = 0; u < m->units.size(); u++)
        if ((cu == CLHLS_ALL_UNITS || u == cu) && m->units[u].held) {
            *held = m->units[u].first_held;
            return 1;
        }
    return 0;
}

int h_final_reg(void *p, uint32_t block, uint32_t offset, uint64_t *value)
{
    const instance *m = static_cast<const instance *>(p);
    if (block >= m->finals.size() || !m->finals[block].fresh)
        return 0;
    const final_counts &f = m->finals[block];
    if (offset < f.first_reg || offset - f.first_reg >= sizeof f.values / sizeof *f.values)
        return 0;
    *value = f.values[offset - f.first_reg];
    return 1;
}

void h_forget_finals(void *p, uint32_t block)
{
    instance *m = static_cast<instance *>(p);
    if (block < m->finals.size())
        m->finals[block].fresh = false;
}

int h_tag_unit(void *p, uint32_t tag)
{
    const instance *m = static_cast<const instance *>(p);
    return tag < m->tag_units.size() ? m->tag_units[tag] : -1;
}

int h_waves_open(void *p, const char *path)
{
#if VM_TRACE
    instance *m = static_cast<instance *>(p);
    if (m->fst)
        return -1;
    m->fst = new VerilatedFstC;
    m->fst->set_time_unit("1ns");
    m->fst->set_time_resolution("1ps");
    m->top->trace(m->fst, 99); /* every level of the hierarchy */
    m->fst->open(path);
    if (!m->fst->isOpen()) {
        delete m->fst;
        m->fst = nullptr;
        return -1;
    }
    m->first = 0;
    m->last = ~0ull;
    return 0;
#else
    (void)p;
    (void)path;
    return -1;
#endif
}

void h_waves_window(void *p, uint64_t first, uint64_t last)
{
#if VM_TRACE
    instance *m = static_cast<instance *>(p);
    m->first = first;
    m->last = last;
#else
    (void)p;
    (void)first;
    (void)last;
#endif
}

void h_waves_close(void *p)
{
#if VM_TRACE
    instance *m = static_cast<instance *>(p);
    if (m->fst) {
        m->fst->close();
        delete m->fst;
        m->fst = nullptr;
    }
#else
    (void)p;
#endif
}

const clhls_harness_api api = {
    CLHLS_HARNESS_ABI_VERSION, MEM_BYTES,       MEM_PORTS,        HAS_PROGRESS,
    HAS_UNIT_PROGRESS,
    h_create,                  h_destroy,       h_cycle,          h_check_accesses,
    h_access_fault,            h_tag_unit,      h_held_access,    VM_TRACE ? 1u : 0u,
    h_waves_open,              h_waves_window,  h_waves_close,    h_still,
    h_jump,                    h_final_reg,     h_forget_finals,
};

} // namespace

/* clhls_top tells, at its first evaluation, the memory port's tags that are compute
 * unit index's requests (tags of them from first_tag; 0: the tags do not tell). */
extern "C" void clhls_sim_unit(int index, int first_tag, int tags)
{
    instance *m = dpi_instance();
    if (!m || index < 0)
        return;
    dpi_section section(m);
    if ((unsigned)index >= m->kernels)
        m->kernels = (unsigned)index + 1;
    for (int t = first_tag; tags > 0 && t >= 0 && t < first_tag + tags && t < 65536; t++) {
        if ((std::size_t)t >= m->tag_units.size())
            m->tag_units.resize((std::size_t)t + 1, -1);
        m->tag_units[(std::size_t)t] = index;
    }
}

/* A kernel's control block hands over its run's final counts, the counters from
 * register first_reg of the block on (clhls_cu_shell), once its kernel is done. */
extern "C" void clhls_sim_counts(unsigned block, unsigned first_reg,
                                 unsigned long long local_conflicts,
                                 unsigned long long busy_cycles, unsigned long long work_items,
                                 unsigned long long stall_mem_cycles,
                                 unsigned long long mem_read_requests,
                                 unsigned long long mem_write_requests)
{
    instance *m = dpi_instance();
    if (!m || block >= 65536) /* (a program's kernels: far fewer) */
        return;
    dpi_section section(m);
    if (block >= m->finals.size())
        m->finals.resize(block + 1, final_counts{});
    m->finals[block] = final_counts{true, first_reg,
                                    {local_conflicts, busy_cycles, work_items, stall_mem_cycles,
                                     mem_read_requests, mem_write_requests}};
}

/* The ranges compute unit cu's accesses are checked against (NULL: none), and the
 * unit's own record when it has one. */
static const clhls_mem_range *unit_ranges(instance *m, unsigned cu, unsigned *n,
                                          unit_check **own)
{
    unit_check *u = cu < m->units.size() && m->units[cu].own ? &m->units[cu] : nullptr;
    *own = u;
    *n = u ? u->nranges : m->nranges;
    return u ? u->ranges : m->ranges;
}

/* The range of ranges[0..n) that holds [addr, addr + bytes), or NULL. */
static const clhls_mem_range *holding_range(const clhls_mem_range *ranges, unsigned n,
                                            unsigned long long addr, unsigned bytes)
{
    for (unsigned i = 0; i < n; i++)
        if (addr >= ranges[i].base && bytes <= ranges[i].bytes &&
            addr - ranges[i].base <= ranges[i].bytes - bytes)
            return &ranges[i];
    return nullptr;
}

/* The record of compute unit cu, created when it has none. */
static unit_check *unit_record(instance *m, unsigned cu)
{
    if (cu >= m->units.size())
        m->units.resize(cu + 1, unit_check{false, nullptr, 0, false, clhls_access_fault{}, 0,
                                           clhls_access_fault{}});
    return &m->units[cu];
}

/* A global load-store unit accepted a work-item's request (clhls_sim_checks.vh): a
 * fault of its compute unit when [addr, addr + bytes) is not inside one of the ranges
 * checked for that unit. Returns 1 with the window of start addresses of `bytes`-byte
 * accesses inside the range that holds this one (the unit checks its next requests
 * against it itself), 0 when there is no such window: a fault, or a unit that has
 * already faulted. Without ranges nothing is checked: the window is all addresses.
 * A speculative load (kind 3) outside them is no fault: the unit holds it (counted
 * until clhls_sim_released), and the watchdog reports it if it is never released. */
extern "C" svBit clhls_sim_access(unsigned cu, unsigned unit, unsigned long long addr,
                                  unsigned bytes, unsigned char kind,
                                  unsigned long long *window_first,
                                  unsigned long long *window_last)
{
    instance *m = dpi_instance();
    if (!m)
        return 0;
    dpi_section section(m);
    unsigned n;
    unit_check *u;
    const clhls_mem_range *ranges = unit_ranges(m, cu, &n, &u);
    if (u ? u->faulted : m->faulted)
        return 0;
    if (!ranges) {
        *window_first = 0;
        *window_last = ~0ull;
        return 1;
    }
    if (const clhls_mem_range *r = holding_range(ranges, n, addr, bytes)) {
        *window_first = r->base;
        *window_last = r->base + (r->bytes - bytes);
        return 1;
    }
    clhls_access_fault f{addr, unit, cu, bytes, kind};
    u = unit_record(m, cu);
    if (kind == 3) {
        if (!u->held++)
            u->first_held = f;
        return 0;
    }
    u->faulted = true;
    u->fault = f;
    if (!m->faulted) {
        m->faulted = true;
        m->fault = f;
    }
    return 0;
}

/* The one exported symbol (the library is built with hidden visibility). */
extern "C" __attribute__((visibility("default"))) const clhls_harness_api *
clhls_harness_get(void)
{
    return &api;
}

/* Whether a speculative load-store unit's request lies outside every range of its
 * compute unit (it is then held, not read); no side effect. */
extern "C" svBit clhls_sim_outside(unsigned cu, unsigned long long addr, unsigned bytes)
{
    instance *m = dpi_instance();
    if (!m)
        return 0;
    dpi_section section(m);
    unsigned n;
    unit_check *u;
    const clhls_mem_range *ranges = unit_ranges(m, cu, &n, &u);
    return ranges && !holding_range(ranges, n, addr, bytes);
}

/* A speculative unit answered a held request: its iteration was past the loop's exit. */
extern "C" void clhls_sim_released(unsigned cu, unsigned unit)
{
    instance *m = dpi_instance();
    (void)unit;
    if (!m)
        return;
    dpi_section section(m);
    if (cu < m->units.size() && m->units[cu].held)
        m->units[cu].held--;
}
