/* The hardware IR: what the compiler knows about one kernel between LLVM IR and
 * Verilog. A kernel is a control-flow graph of basic blocks (operations with a bit
 * width and operands, phis, a terminator), analysed into dominators and natural loops
 * (cfg.c), then if-converted into a region tree (ifconvert.c): a sequence of static
 * regions, each a straight list of predicated operations, and loops, each holding the
 * sequence of its body; the memory accesses then move out of the static regions into
 * memory nodes between them (memnodes.c). The schedule of a static region lives
 * beside it (schedule.c).
 * Memory operations carry their address space, predicate and load-store unit.
 * Everything is allocated from the compilation's arena. */
#ifndef CLHLS_HLS_IR_H
#define CLHLS_HLS_IR_H

#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "device_abi.h"
#include "util.h"

typedef enum {
    HOP_CONST,      /* constant: imm, or the bytes `wide` when wider than 64 bits */
    HOP_ARG,        /* kernel argument: arg; imm = byte offset inside it (a struct field) */
    HOP_ROM,        /* byte address 0 of program-scope __constant table imm (a ROM) */
    HOP_LOCAL,      /* byte address 0 of the kernel's local memory imm (its own space) */
    HOP_NDRANGE,    /* NDRange register: imm = hls_ndrange_reg, dim */
    HOP_TOKEN,      /* work-item token field: imm = hls_token_field, dim */
    /* HOP_ADD to HOP_INSERT compute from their operands, immediate and width alone
     * (common_values.c merges repeats of them): keep other opcodes outside */
    HOP_ADD, HOP_SUB, HOP_MUL,
    HOP_AND, HOP_OR, HOP_XOR,
    HOP_SHL, HOP_LSHR, HOP_ASHR,
    HOP_ICMP,       /* imm = LLVMIntPredicate */
    HOP_SELECT,     /* a ? b : c */
    HOP_TRUNC, HOP_ZEXT, HOP_SEXT,
    HOP_FADD, HOP_FSUB, HOP_FMUL,
    HOP_FDIV, HOP_FSQRT, HOP_FMA, /* correctly rounded: a / b, sqrt(a), a * b + c */
    /* floating-point ops work on float (width 32) or double (width 64) */
    HOP_FCMP,       /* imm = LLVMRealPredicate */
    HOP_SITOFP, HOP_UITOFP, HOP_FPTOSI, HOP_FPTOUI,
    HOP_FPEXT, HOP_FPTRUNC, /* float -> double (exact), double -> float (rounded) */
    HOP_UDIV, HOP_SDIV, HOP_UREM, HOP_SREM, /* integer division (clhls_idiv) */
    HOP_EXTRACT,    /* element b (index) of the wide value a; imm = element bits */
    HOP_INSERT,     /* the wide value a with element c (index) replaced by b; imm =
                       element bits (a private array in registers: privarrays.c) */
    HOP_LOAD,       /* a = byte address [, b = predicate]; width = loaded bits */
    HOP_STORE,      /* a = byte address, b = value [, c = predicate] */
    HOP_BARRIER,    /* a = work-group slot, b = local linear id, c = group linear size;
                       imm = fence flags: the work-item waits for its whole group */
    HOP_ATOMIC,     /* a = byte address, b = operand [, c = compare value (cmpxchg)]
                       [, predicate]; imm = hls_atomic_op; the value memory held */
    HOP_COLLECTIVE, /* a = value [, b = chosen local linear id (broadcast)]; imm =
                       HLS_COLL(kind, func, type): a work-group function the barrier
                       unit just before it computes */
    HOP_PHI,        /* block merge (in_vals/in_blocks); after if-conversion only loop
                       header phis remain: values that circulate with the loop's token */
    HOP_RECUR,      /* a = initial value, b = next value, c = first-iteration flag [, d =
                       lane]: a loop-carried value of a pipelined loop (pipeline.c), a
                       register of its static region (one per lane when work-items take
                       turns): a for the first iteration, else the b of the iteration
                       before (b is computed later in the region, or enters it) */
    HOP_ALIVE,      /* a = "go round again", b = first-iteration flag [, c = lane]: 1 while
                       no earlier iteration of the work-item has left the pipelined loop, so
                       its side effects count (a register of the exits seen, per lane) */
    HOP_CHAN_READ,  /* [a = predicate]; chan = the channel: its next element (imm 0,
                       blocking), or imm 1 (non-blocking) the element below a valid
                       bit at bit width - 1 (the element is don't care when 0), or
                       imm HLS_CHAN_COUNT the number of its entries, taking none */
    HOP_CHAN_WRITE, /* a = value [, b = predicate]; chan = the channel: waits for room
                       (imm 0, blocking; no result), or imm 1 (non-blocking) writes only
                       when there is room, and is 1 when it wrote (width 1) */
    HOP_COUNT
} hls_opcode;

/* HOP_CHAN_READ's imm for a count of the channel's entries (get_pipe_num_packets). */
#define HLS_CHAN_COUNT 2
/* Intel's CLK_CHANNEL_MEM_FENCE (the channels header defines it; frontend.c) */
#define HLS_CHANNEL_MEM_FENCE 0x10

/* NDRange values held in registers for the whole kernel run. */
typedef enum {
    HLS_ND_WORK_DIM, HLS_ND_GLOBAL_SIZE, HLS_ND_LOCAL_SIZE, HLS_ND_GLOBAL_OFFSET,
    HLS_ND_NUM_GROUPS,
} hls_ndrange_reg;

/* Fields of the work-item token produced by the work-item generator. */
typedef enum {
    HLS_TOK_GLOBAL_ID, HLS_TOK_LOCAL_ID, HLS_TOK_GROUP_ID, HLS_TOK_GROUP_SIZE,
    HLS_TOK_SLOT,              /* the work-group slot of the compute unit the group is in */
    HLS_TOK_LOCAL_LINEAR_ID,   /* get_local_linear_id() */
    HLS_TOK_GROUP_LINEAR_SIZE, /* work-items in the (actual) group */
} hls_token_field;

typedef struct hls_op {
    int id;              /* index in the kernel's op table */
    hls_opcode opc;      /* what it computes */
    unsigned width;      /* result width in bits (1..64; wide values moved as bits, up to
                            HLS_MAX_WIDE_BITS); stores: stored width */
    unsigned live_bits;  /* low bits of the result some reader uses (narrow.c); 0 before */
    int nargs;           /* operands used */
    int args[4];         /* operand op ids */
    uint64_t imm;        /* constant / predicate / field selector */
    const unsigned char *wide; /* HOP_CONST wider than 64 bits: width/8 bytes, least
                            significant first (NULL: zero) */
    int dim;             /* dimension for HOP_NDRANGE / HOP_TOKEN */
    int block;           /* block the op was lowered into */
    int *in_vals;        /* HOP_PHI: incoming value per predecessor edge */
    int *in_blocks;      /* HOP_PHI: the predecessor block of each incoming value */
    int nin;             /* HOP_PHI: number of incoming values */
    int region;          /* static region the op executes in (-1 before if-conversion
                            and for loop header phis: those belong to their loop) */
    int arg;             /* kernel argument index for HOP_ARG */
    hls_loc loc;         /* source location */
    /* memory */
    int addr_space;      /* 1 global, 2 constant, 3 local */
    int lsu;             /* global load-store unit index in the kernel (-1 for ROM loads and
                            local accesses) */
    int lmem;            /* local access: the kernel's local memory (-1 otherwise) */
    int lport;           /* local access: its port on that memory */
    int lshare;          /* local access on a port it shares (localbanks.c): its number
                            among the port's accesses, -1 when the port is its own */
    int rom;             /* load from a program-scope __constant table: its index */
    int chan;            /* channel access: the program's channel (-1 otherwise) */
    int has_pred;        /* memory op: the last operand is its predicate (masked when 0) */
    int acked;           /* store: waits for memory's acknowledgement (memorder.c) */
    int spec_alive;      /* load of a pipelined loop issued before the iteration's exit
                            test (pipeline.c): the HOP_ALIVE that later says whether its
                            iteration was issued past the exit; -1 otherwise */
    uint64_t ivdep;      /* memory op: bit n - 1 set when the #pragma ivdep of the loop whose
                            latch says ivdep = n covers it (its llvm.access.group, lower.c) */
    int lane;            /* memory op of a kernel with SIMD work-items: its lane (simd.c's
                            clhls.lane metadata), -1 otherwise. Two lanes are two
                            work-items, whose accesses are never ordered (memorder.c) */
    int *waits;          /* memory op: earlier accesses of its region it must follow */
    int nwaits, capwaits;/* used / allocated */
} hls_op;

/* What the pragmas of a loop ask, from the llvm.loop metadata of its latch's branch
 * (lower.c; pragmas.c turns the vendors' spellings into clang's). */
typedef struct hls_loop_pragmas {
    int ivdep;           /* #pragma ivdep (llvm.loop.parallel_accesses): the loop's number
                            among the kernel's such loops (1..64; the bit of an access's
                            `ivdep`), 0 when none */
    int ii;              /* #pragma ii N (llvm.loop.pipeline.initiationinterval): N, else 0 */
    int no_pipelining;   /* #pragma disable_loop_pipelining (llvm.loop.pipeline.disable) */
    int max_concurrency; /* #pragma max_concurrency N (llvm.loop.interleave.count, which
                            pragmas.c makes of it): N, else 0 */
    int max_interleaving; /* #pragma max_interleaving N (llvm.loop.vectorize.width N + 1,
                            which pragmas.c makes of it): N + 1, else 0 */
    int coalesce;        /* #pragma loop_coalesce (llvm.loop.distribute.enable, which
                            pragmas.c makes of it): 1, else 0 */
    hls_loc start;       /* where the loop statement starts (its pragmas are above it) */
} hls_loop_pragmas;

/* How a block ends. */
typedef enum { HLS_TERM_RET, HLS_TERM_BR, HLS_TERM_CONDBR, HLS_TERM_SWITCH } hls_term;

typedef struct hls_block {
    int *ops;            /* op ids in program order (phis first) */
    int nops, capops;    /* number of ops / allocated */
    hls_term term;       /* terminator kind */
    int cond;            /* CONDBR: i1 condition (succ[0] if 1); SWITCH: the value */
    int *succ;           /* successors; SWITCH: succ[0] is the default */
    uint64_t *cases;     /* SWITCH: case value of succ[i] for i >= 1 */
    int nsucc;           /* number of successors */
    int *preds;          /* predecessor blocks (cfg.c), each once */
    int npreds;          /* number of predecessors */
    int idom;            /* immediate dominator (cfg.c), -1 for the entry */
    int rpo;             /* position in reverse post-order (cfg.c) */
    int loop;            /* innermost loop containing the block, -1 for none (cfg.c) */
    hls_loc loc;         /* location of the terminator */
    hls_loop_pragmas pragmas; /* a loop's latch: what the loop's pragmas ask (lower.c) */
} hls_block;

/* A natural loop (cfg.c). loop-simplify gives it one preheader and one latch. */
typedef struct hls_loop {
    int header;          /* header block */
    int latch;           /* the block whose branch goes back to the header */
    int preheader;       /* the only predecessor outside the loop */
    int parent;          /* enclosing loop, -1 for none */
    int depth;           /* 1 for outermost loops */
    hls_loc loc;         /* where the loop is (its latch branch) */
} hls_loop;

typedef enum {
    HLS_REGION_SEQ,      /* the kernel body: a sequence of children */
    HLS_REGION_STATIC,   /* straight-line predicated ops: one scheduled pipeline */
    HLS_REGION_LOOP,     /* a loop: header phis, and the sequence of its body */
    HLS_REGION_BARRIER,  /* a barrier unit: ops[0] is the HOP_BARRIER, ops[1] a
                            HOP_COLLECTIVE if any; work-items wait for their group and
                            leave it in local-id order */
    HLS_REGION_MEMORY,   /* a memory node (memnodes.c): ops are global and local memory
                            accesses that issue together; the token waits beside them in
                            a FIFO until every answer it needs is back */
} hls_region_kind;

/* Per static region: the stage each op starts at, its latency, and the last stage
 * that reads its value there; live-in values start (and are ready) at stage 0. */
typedef struct hls_sched {
    int *start;          /* by op id */
    int *latency;        /* by op id */
    int *last_use;       /* by op id; -1 when the region never holds the value */
    int depth;           /* last stage */
} hls_sched;

typedef struct hls_region {
    int id;              /* index in the kernel's region table */
    hls_region_kind kind;/* what it is */
    int parent;          /* enclosing region, -1 for the kernel body */
    int *ops;            /* STATIC: op ids in execution order; MEMORY: its accesses */
    int nops, capops;    /* STATIC, MEMORY: used / allocated */
    int *children;       /* SEQ, LOOP: the sequence of regions */
    int nchildren, capchildren; /* used / allocated */
    int loop;            /* LOOP: index in the kernel's loop table */
    int *phis;           /* LOOP: header phis (the active flag is phis[0]) */
    int nphis;           /* LOOP: number of them */
    int cont;            /* LOOP: op id of the predicate "take the back edge" */
    int *live_in;        /* op ids of the values entering (sorted) */
    int nlive_in;        /* number of them */
    int *live_out;       /* op ids of the values leaving (sorted) */
    int nlive_out;       /* number of them */
    hls_sched sched;     /* STATIC: schedule */
    int stall_free;      /* STATIC: a stall-free cluster: the stages never stop, only the
                            input waits for room in the exit FIFO (schedule.c) */
    int exit_depth;      /* STATIC: entries of the exit FIFO; MEMORY: entries of the
                            FIFO the token waits in for the answers (schedule.c) */
    int latency;         /* LOOP: cycles around the loop (merge, body, split); MEMORY: the
                            cycles the schedule gives an access */
    int credits;         /* LOOP: work-items admitted at once */
    int back_depth;      /* LOOP: back-edge FIFO entries */
    int barrier_hold;    /* LOOP: work-items the barrier units inside it can hold */
    int pipelined;       /* LOOP: iterations overlap (pipeline.c): a generator issues them,
                            the last child drops all but the one that leaves */
    int speculative;     /* LOOP, pipelined: its exit test waits for a load, which later
                            iterations issue before that test is known (spec_alive); the
                            generator takes a work-item only when no iteration is in flight */
    int speculated;      /* LOOP, pipelined: iterations issued past the exit before the
                            generator knows it (cycles from the generator to HOP_ALIVE) */
    const char *window;  /* LOOP, pipelined: an access may meet one of an earlier iteration
                            (why, with the source lines): its children from window_first to
                            window_last (region ids: the memory nodes of the first and last
                            such accesses) take one iteration at a time; NULL when none */
    int window_first, window_last;
    int max_in_flight;   /* LOOP, pipelined: at most this many iterations in flight
                            (#pragma ivdep safelen(N): those fewer than N apart never meet;
                            #pragma max_concurrency N); 0: no bound */
    int exit_test;       /* LOOP, pipelined: op id of "the test says go round again" (the
                            latch's condition, inverted when the loop leaves on true) */
    int count_test;      /* LOOP, pipelined: a counted loop's exit test (pipeline.c: an
                            icmp of its induction variable count_iv, or of that variable's
                            next value, with a value from before the loop): the generator
                            tells the last iteration as it issues it; -1 when not counted */
    int count_iv;        /* LOOP, counted: the HOP_RECUR that adds a constant each iteration */
    int interleave;      /* LOOP, pipelined: at most this many work-items may take turns in
                            it, an iteration of each in a round (pipeline.c; 0: one at a
                            time), so that a recurrence's latency is filled with other
                            work-items' iterations (Intel's interleaving) */
    int lane;            /* LOOP, interleave: op id of the iteration's lane, the work-item's
                            place in the round (a header phi the generator sets) */
    int lanes;           /* LOOP, pipelined: work-items taking turns (schedule.c: as many as
                            the recurrences' II, at most `interleave`; 1 when none) */
    int ii;              /* STATIC: cycles between two work-items entering (its recurrences'
                            latency over the loop's lanes, at least 1); LOOP: cycles between
                            two iterations of one work-item (pipelined: the largest of its
                            regions' before interleaving; else the latency round the loop) */
    int ii_op;           /* STATIC, LOOP: the op whose latency sets ii (a recurrence's next
                            value), -1 when none */
    const char *serial;  /* LOOP of a single work-item kernel left unpipelined: why, with
                            the source lines; NULL otherwise */
} hls_region;

typedef enum { HLS_ARG_BUFFER, HLS_ARG_SCALAR, HLS_ARG_LOCAL, HLS_ARG_PIPE } hls_arg_kind;

typedef struct hls_arg {
    const char *name;          /* argument name */
    const char *type_name;     /* OpenCL type as written, e.g. "float*" */
    const char *type_qual;     /* "const", "restrict", "volatile" combination */
    const char *access_qual;   /* "none" for buffers and scalars */
    hls_arg_kind kind;         /* how the runtime passes it */
    int addr_space;            /* 0 private, 1 global, 2 constant, 3 local */
    unsigned size;             /* bytes of the value passed to clSetKernelArg */
    unsigned width;            /* bits of the value the hardware uses (scalars) */
    unsigned offset;           /* byte offset in the kernel's argument area */
    unsigned area_bytes;       /* bytes it takes there (a __local size takes 8, a pipe 0) */
    int chan;                  /* a pipe: its channel (-1 when the kernel does not use it) */
} hls_arg;

/* How a local memory's ports reach its banks (localbanks.c). */
typedef enum {
    HLS_BANKS_UNDECIDED, /* before the banks pass */
    HLS_BANKS_CROSSBAR,  /* any port may reach any bank: an arbiter per bank */
    HLS_BANKS_STATIC,    /* each bank wired to the one port that can reach it */
} hls_bank_wiring;

/* A local memory of a kernel: a __local array, or a __local pointer argument (whose
 * size the host chooses at enqueue time, up to `bytes`). The hardware keeps one copy
 * per work-group slot, each in `banks` word-interleaved banks. */
typedef struct hls_local {
    const char *name;          /* the variable's or argument's name */
    int arg;                   /* argument index, -1 for an array declared in the kernel */
    uint64_t size;             /* bytes the kernel uses (an argument: its maximum) */
    unsigned addr_bits;        /* log2 of the copy's size in the hardware (a power of two) */
    unsigned word_bits;        /* bits per word: the widest access */
    int nports;                /* ports: one per access, fewer when accesses share one */
    int accesses;              /* accesses (set with the sharing, localbanks.c) */
    int *port_users;           /* per port: accesses on it (2 or more: a clhls_port_share
                                  in front of it), NULL before localbanks.c */
    int atomics;               /* 1 when an access is atomic (the banks get an ALU) */
    int banks;                 /* banks per copy */
    int slot_shift;            /* the constant op holding addr_bits: an access's address is
                                  its offset plus the work-group slot shifted by it */
    void *llvm;                /* the LLVM global variable (lowering's key), or NULL */
    hls_bank_wiring wiring;    /* static or crossbar (localbanks.c) */
    unsigned *port_banks;      /* per port: bit b set when its address may reach bank b (a
                                  shared port: any of its accesses') */
    const char *wiring_reason; /* why: the proof, or the ports that may meet in a bank */
} hls_local;

typedef struct hls_kernel {
    const char *name;          /* kernel function name */
    const char *unit;          /* its compute unit's name: module clhls_cu_UNIT, instance
                                  cu_UNIT (the kernel name, shortened when long) */
    hls_loc loc;               /* where the kernel is defined */
    hls_arg *args;             /* arguments in order */
    int nargs;                 /* number of arguments */
    unsigned arg_bytes;        /* bytes of the argument area they take (multiple of 8) */
    hls_op *ops;               /* op table */
    int nops, capops;          /* used / allocated */
    hls_block *blocks;         /* basic blocks, the entry first */
    int nblocks;               /* number of blocks */
    int *rpo;                  /* block ids in reverse post-order (cfg.c) */
    hls_loop *loops;           /* natural loops, outer before inner (cfg.c) */
    int nloops;                /* number of loops */
    hls_region *regions;       /* region tree, regions[0] is the body (ifconvert.c) */
    int nregions, capregions;  /* used / allocated */
    unsigned reqd_wg_size[3];  /* reqd_work_group_size, 0 when absent */
    unsigned wg_size_hint[3];  /* work_group_size_hint, 0 when absent */
    const char *vec_type_hint; /* vec_type_hint's type as written ("float4"), or "" */
    int nlsus;                 /* load-store units */
    hls_local *locals;         /* local memories */
    int nlocals, caplocals;    /* used / allocated */
    int slot_op;               /* the HLS_TOK_SLOT op when the kernel uses work-group slots
                                  (local memory or barriers), else -1 */
    unsigned max_wg;           /* the largest work-group the hardware takes */
    int autorun;               /* 1: starts out of reset and runs for ever (autorun.c) */
    int compute_units;         /* copies of its compute unit sharing its work-groups (>= 1) */
    int simd;                  /* work-items per hardware work-item (num_simd_work_items, simd.c;
                                  reqd_wg_size[0] is the hardware's, 1/simd of the kernel's) */
    int mem_latency;           /* latency the scheduler assumed for loads */
    int lsu_depth;             /* requests a global load-store unit holds in flight */
    int depth;                 /* pipeline stages of all static regions together */
    int single_work_item;      /* written in the single work-item style (no work-item ids, or
                                  reqd_work_group_size(1,1,1)): its loops are pipelined */
    int channel_fence;         /* calls mem_fence(CLK_CHANNEL_MEM_FENCE): its channel accesses
                                  are ordered with each other and with global memory */
} hls_kernel;

/* The register map's limits and the buffer alignment: device_abi.h. */

/* A program-scope __constant table: read-only memory inside the compute units. */
typedef struct hls_rom {
    const char *name;          /* the variable's name */
    unsigned char *bytes;      /* its initial value, byte 0 at address 0 */
    uint64_t size;             /* bytes */
    void *llvm;                /* the LLVM global (lowering's key) */
} hls_rom;

/* Atomic read-modify-write operations, as the memory side executes them (the same
 * codes on the memory port and the local memory ports). */
typedef enum {
    HLS_ATOMIC_NONE, HLS_ATOMIC_ADD, HLS_ATOMIC_SUB, HLS_ATOMIC_XCHG, HLS_ATOMIC_CMPXCHG,
    HLS_ATOMIC_MIN, HLS_ATOMIC_MAX, HLS_ATOMIC_UMIN, HLS_ATOMIC_UMAX, HLS_ATOMIC_AND,
    HLS_ATOMIC_OR, HLS_ATOMIC_XOR,
} hls_atomic_op;

/* Work-group functions (OpenCL C 2.0 section 6.13.15), computed by a barrier unit.
 * Encoded in a HOP_COLLECTIVE's imm: the kind, the operation and the value type. */
typedef enum {
    HLS_COLL_BROADCAST = 1, HLS_COLL_REDUCE, HLS_COLL_SCAN_INCLUSIVE, HLS_COLL_SCAN_EXCLUSIVE,
} hls_coll_kind;
typedef enum {
    HLS_COLL_ADD, HLS_COLL_MIN, HLS_COLL_MAX, HLS_COLL_ANY, HLS_COLL_ALL,
} hls_coll_func;
typedef enum { HLS_COLL_UNSIGNED, HLS_COLL_SIGNED, HLS_COLL_FLOAT } hls_coll_type;
#define HLS_COLL(kind, func, type) ((uint64_t)(kind) | (uint64_t)(func) << 4 | (uint64_t)(type) << 8)
#define HLS_COLL_KIND(imm) ((int)((imm) & 15))
#define HLS_COLL_FUNC(imm) ((int)((imm) >> 4 & 15))
#define HLS_COLL_TYPE(imm) ((int)((imm) >> 8 & 15))

/* Work-group slots of a compute unit that uses local memory or barriers: the
 * work-groups in flight at once, each with its own copy of local memory and its own
 * barrier entries. A slot is free again only when its last work-item retired, so
 * while one group arrives at a barrier and one leaves it, more are needed to cover
 * the pipeline after the barrier: with two, a 256-item group through one barrier and
 * a global store cost 1.17 cycles per work-item (bench_local); with four, the slot
 * number's two bits are used in full. */
#define HLS_WG_SLOTS 4
#define HLS_SLOT_BITS 2
/* The narrowest memory port a global atomic unit works on: its request carries the
 * operand and the compare value (64 bits each) in one beat (clhls_lsu_atomic). */
#define HLS_ATOMIC_MIN_PORT_BITS 128
/* A board clock that leaves fewer logic levels than this between registers (by the
 * board's delay model) gets the templates' optional registers that end a ready
 * chain at one unit (clhls_wi_gen's next group, a load unit's order queue head, the
 * request slices of wide memory nodes and global loads); a slower clock keeps their
 * area (vadd on the iCE40 does not place with them). */
#define HLS_SHORT_CLOCK_LEVELS 8
/* A memory node with more units than this issues its requests after an AND of their
 * readies wider than one LUT (with its token FIFO's room), whose result comes back
 * into every unit's registers: on a short clock those units, those of a node with a
 * global load (whose latency a cycle hardly changes; its load units' answers leave
 * through a slice too) and those of a node straight after one (whose load unit's
 * answer ready would otherwise run on through this node's units) take their requests
 * through a register slice (hls_ir_node_sliced), a cycle more latency. In a node of
 * at most this many answers each unit's answer ready is the join of the others'
 * answers alone (emit_node_answers); a wider node's units share one leave. */
#define HLS_JOIN_UNITS 5
/* Cycles from a local-memory request to its data when no other port contends for
 * the bank (clhls_local_mem's LATENCY), without a request slice (one cycle more). */
#define HLS_LOCAL_LATENCY 4
/* Longest kernel name used as it is in the names of the hardware (a longer one is
 * shortened, so that file names stay within the file system's 255 bytes). */
#define HLS_MAX_UNIT_NAME 64
/* Largest number of banks per local memory copy. */
#define HLS_MAX_LOCAL_BANKS 8
/* Widest local-memory word, so the widest local access (clhls_local_mem's WORD_W). */
#define HLS_MAX_LOCAL_WORD_BITS 256

/* Work-items a pipelined loop's round may hold (interleaving), and the bits of a lane. */
#define HLS_MAX_LANES 16
/* Compute units of one kernel at most (num_compute_units, -clhls-compute-units). */
#define HLS_MAX_COMPUTE_UNITS 16
#define HLS_LANE_BITS 4

/* Latencies the structure of clhls_fdiv and clhls_fsqrt fixes for float and double
 * (their localparam LATENCY; a test compares with their headers). */
#define HLS_FDIV_LATENCY(width) ((width) == 64 ? 57 : 28)
#define HLS_FSQRT_LATENCY(width) ((width) == 64 ? 56 : 27)

/* Largest private array indexed at run time that a work-item carries in registers,
 * and the widest value (such an array) the IR moves around. */
#define HLS_MAX_PRIVATE_BYTES 256
#define HLS_MAX_WIDE_BITS (8 * HLS_MAX_PRIVATE_BYTES)

/* Largest __constant table the compiler puts in ROM. */
#define HLS_MAX_ROM_BYTES 65536

/* A channel (Intel's cl_intel_channels, or an OpenCL pipe): a FIFO from the one kernel
 * that writes it to the one kernel that reads it (channels.c). */
typedef struct hls_channel {
    const char *name;          /* as declared, with the element of an array: "c", "c[2]";
                                  a pipe: its arguments' name */
    int pipe;                  /* 1 for the pipe arguments of that name */
    unsigned bits;             /* bits of one element (its type's size) */
    int declared_depth;        /* its depth attribute's N (0: none; a pipe: the larger of
                                  its ends') */
    int depth;                 /* entries of its FIFO: the declared depth, at least 2 */
    int writer, reader;        /* the kernels' indices in the program, -1 when none */
    hls_loc write_at, read_at; /* where they access it */
} hls_channel;

typedef struct hls_program {
    hls_rom *roms;             /* program-scope __constant tables */
    int nroms, caproms;        /* used / allocated */
    hls_channel *channels;     /* channels between the kernels (channels.c) */
    int nchannels;             /* number of them */
    hls_kernel **kernels;      /* every kernel of the program */
    int nkernels;              /* number of kernels */
    const board_t *board;      /* target board */
    int uniform_wg;            /* 1 when non-uniform work-groups are not allowed */
    const char *cl_std;        /* OpenCL C version compiled for */
} hls_program;

hls_op *hls_ir_new_op(hls_kernel *k, arena *a, hls_opcode opc, unsigned width);
hls_region *hls_ir_new_region(hls_kernel *k, arena *a, hls_region_kind kind, int parent);
/* Appends v to a growable int array. */
void hls_ir_push(arena *a, int **items, int *n, int *cap, int v);
/* "static", "loop", ... (the name in dumps and reports). */
const char *hls_ir_region_kind_name(hls_region_kind kind);
/* A place whose occupancy is a probe: a region, or a channel. */
typedef struct hls_probe {
    int region;                /* the region, or -1 */
    int channel;               /* the channel, or -1 */
} hls_probe;
/* The probes of the program's kernel `kernel`, in probe order (at most HLS_MAX_PROBES):
 * the channels it writes or reads (their entries), the loops (work-items inside) and
 * barriers (work-items waiting), then memory nodes (work-items waiting for answers);
 * returns how many. */
int hls_ir_probes(const hls_program *p, int kernel, hls_probe *out);
/* Operands of op (the phi's incoming values included); returns how many. */
int hls_ir_operands(const hls_op *op, const int **out);
/* Every operand, phi input, branch condition and loop decision that reads a value v
 * with into[v] >= 0 reads into[v] instead (chains followed); op `keep` (or -1) keeps
 * its operands. */
void hls_ir_read_through(hls_kernel *k, const int *into, int keep);
const char *hls_ir_opcode_name(hls_opcode opc);
int hls_ir_is_invariant(const hls_op *op);
/* 1 for a load, store, atomic or channel access. */
int hls_ir_is_memory(const hls_op *op);
/* 1 for a global load whose unit may serve later loads from the line it read (it
 * coalesces); 0 in a kernel with channel fences, whose loads must see what other
 * kernels stored before their channel accesses, and for anything but a load. */
int hls_ir_reuses_lines(const hls_kernel *k, const hls_op *op);
/* 1 when the program's board has a short clock (fewer than HLS_SHORT_CLOCK_LEVELS
 * logic levels between registers): the templates' optional registers are built. */
int hls_ir_short_clock(const hls_program *p);
/* 1 when memory node r's units take their requests through a register slice. */
int hls_ir_node_sliced(const hls_program *p, const hls_kernel *k, const hls_region *r);
/* 1 when port lport of local memory lmem takes its requests through a register
 * slice: an access on it is in a memory node whose units do (hls_ir_node_sliced). */
int hls_ir_port_sliced(const hls_program *p, const hls_kernel *k, int lmem, int lport);
/* Cycles memory node r's slices add to its latency: the request slice, and a global
 * load unit's answer slice (RESP_SLICE) besides in a node with one; in a node not
 * sliced itself, the slice of a local port it shares with a sliced node. */
int hls_ir_node_slice_cycles(const hls_program *p, const hls_kernel *k, const hls_region *r);
/* 1 when the low n bits of op's result depend only on the low n bits of its operands
 * (add, sub, mul, and, or, xor; a left shift: of the shifted one), so that it may be
 * computed on the bits its readers use (narrow.c). */
int hls_ir_low_bits_from_low_bits(const hls_op *op);
/* Address bits of a __constant table of `size` bytes (its array is padded to a power
 * of two): the bits its reads decode. */
unsigned hls_ir_rom_address_bits(uint64_t size);
/* 1 for a global or local memory access: one a load-store unit or a local-memory port
 * serves (a read of a __constant table in ROM is not). */
int hls_ir_is_access(const hls_op *op);
/* 1 when the work-item waits for the memory's answer: a load's data, an atomic's old
 * value, an acknowledged store's acknowledgement. */
int hls_ir_waits_for_memory(const hls_op *op);
/* 1 when block a dominates block b (by the idom links cfg.c sets). */
int hls_ir_dominates(const hls_kernel *k, int a, int b);
/* 1 when block b is in loop `loop` or in a loop inside it. */
int hls_ir_in_loop(const hls_kernel *k, int b, int loop);
void hls_ir_dump(FILE *out, const hls_program *p);
/* Per op, 1 when its value is the same for every work-item of a work-group
 * (ifconvert.c; on the region tree). */
char *hls_uniform_values(arena *a, const hls_kernel *k);
/* Checks the IR's invariants; returns 0 or writes a message and returns -1. */
int hls_ir_verify(const hls_program *p, strbuf *err);

#endif
