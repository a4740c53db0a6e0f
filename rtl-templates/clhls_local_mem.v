// clhls_local_mem: banked on-chip local memory (OpenCL __local) with NPORTS
// request/response ports.
//
// The memory (2^ADDR_W bytes) is split into BANKS synchronous-read RAMs, word
// interleaved: word w = addr / (WORD_W/8) lives in bank w % BANKS, row w / BANKS.
// Each port has a request queue (REQ_DEPTH entries) and a response queue with a place
// for every request accepted and not answered (REQ_DEPTH + RESP_DEPTH of them), so
// s_req_ready comes from registers and a bank never waits for a port's consumer.
// Each bank serves one request per cycle in two registered steps:
// - Arbitration. A port's candidate (the head of its request queue, or the entry
//   after it when the head won the cycle before) competes for its bank. The ports
//   are in one priority order, the least recently served first; a port wins when no
//   port before it asks its bank with a request that cannot share the access. Only
//   plain reads of one word share one (a broadcast): a bank serves its first asking
//   port, and with a read every read of that word that no other request of the bank
//   precedes. A write (byte enables s_req_wstrb) wins alone. The winners are
//   registered. The comparisons between ports' candidates are registers computed a
//   cycle ahead, so the arbitration is a few gates from registers.
// - Access. In the next cycle the bank reads or writes the winner's row; the
//   request is then the head of its queue, which drops it at the end of that cycle.
// So the arbitration ends at registers, and the bank's address multiplexer starts
// at them. A candidate that competed and did not win counts in `conflicts` two
// cycles later. Every accepted request gets exactly one response, in request order
// per port: a read returns the word as the bank held it when accessing it (so a port
// reads its own earlier writes), a write returns an acknowledgement (rdata don't
// care) after the bank was written.
// Timing: a request accepted in cycle 0 is in its queue in cycle 1, where it wins;
// the bank accesses it at the end of cycle 2; in cycle 3 the bank's read register
// holds the data, which enters the response queue; in cycle 4 m_resp_valid is 1.
// LATENCY = 4: the minimum (uncontended) number of cycles from the request handshake
// to m_resp_valid for a read. A write's acknowledgement enters the response queue as
// the bank is written, so it is offered in cycle 3, unless the port's answer before
// it enters in that cycle from the read register (a read accessed the cycle before,
// or a write behind one): then in cycle 4. So a store followed by a load of the same
// work-item keeps the distance it had with a 3-cycle memory.
// Bit p of REQ_SLICE (for a clock that cannot spare the levels) puts a register slice
// (clhls_skid) in front of port p's request queue: its s_req_ready is then a
// register, and the pipeline's valid, which comes through the compute unit's join of
// many units' readies, ends at the slice instead of running on into the queue's count
// and the response credit. Every latency above is then a cycle longer on that port
// (LATENCY 5).
// With REQ_DEPTH >= 2, REQ_DEPTH + RESP_DEPTH >= LATENCY + 1 and m_resp_ready held at
// 1, every port completes one request per cycle when there are no conflicts. All
// outputs depend on registers only (conflicts is one). Reset empties the queues; it
// does not clear the RAM contents.
// Atomics (ATOMICS != 0: bit k set for each code k that can occur, the others'
// arithmetic left out): a request with s_req_atomic != 0 (clhls's atomic codes: 1 add,
// 2 sub, 3 xchg, 4 cmpxchg, 5 min, 6 max, 7 umin, 8 umax, 9 and, 10 or, 11 xor) is a
// read-modify-write of the bytes its strobes enable, computed per 32-bit lane (per
// 64-bit lane with s_req_wide) from the word, the lane of s_req_wdata (the operand)
// and of s_req_cmp (cmpxchg's expected value). It wins its bank alone; the bank
// writes the result back in the cycle after its access, while accessing the next
// request, whose read of the same word gets the result forwarded, so every request of
// any port sees atomics whole and a bank takes one atomic per cycle; it answers the
// word as it was before (the old value), with a read's timing. A bank writes once per
// cycle (one write port: a block RAM), so a plain write does not win the cycle after
// an atomic won (and counts as a conflict).
// With ATOMICS = 0 (or words narrower than 32 bits, which no atomic uses) those
// inputs are ignored and the banks have no arithmetic.
// Static wiring (STATIC = 1): the compiler proved which banks each port's addresses can
// reach (bit p*BANKS + b of PORT_BANKS: port p may reach bank b) and that no two ports
// share a bank. Each bank is then wired to the one port that reaches it: no arbiter, no
// broadcast, no conflict (`conflicts` is 0); a port that reaches one bank does not even
// look at its address's bank bits. Timing, ports and atomics are those of the crossbar.
// An address outside its port's banks is a compiler error the hardware cannot see: with
// CLHLS_SIM_CHECKS defined (simulation only) such a request is reported with $error.
// Whole words (WHOLE_WORDS = 1): the compiler proved that every write and atomic enables
// all the bytes of its word, so a bank writes a word under one enable (strobe bit 0)
// instead of one per byte. A block RAM without byte enables (Cyclone V's M10K as Yosys
// maps it) then holds a 256 x 32 bank in 2 blocks instead of 16 slices of 2 bits.
// Needs clhls_fifo.v, clhls_skid.v (for REQ_SLICE) and (for ATOMICS) clhls_atomic_ops.vh.
`default_nettype none

module clhls_local_mem #(
    parameter NPORTS     = 2,   // access ports (>= 1)
    parameter ADDR_W     = 8,   // byte-address bits: the memory holds 2^ADDR_W bytes
    parameter WORD_W     = 32,  // bits per word: a power of two, 8..256
    parameter BANKS      = 2,   // banks: a power of two >= 1, at most the number of words
    parameter REQ_DEPTH  = 2,   // request queue entries per port (>= 1; 2 for full throughput)
    parameter RESP_DEPTH = 8,   // answers a port may owe besides REQ_DEPTH (>= 1; 3 for full throughput)
    parameter [15:0] ATOMICS = 0, // bit k: the banks execute atomics of code k (0: none)
    parameter [NPORTS-1:0] REQ_SLICE = 0, // bit p: port p's requests enter through a register
                                // slice (a cycle more latency)
    parameter STATIC     = 0,   // 1: banks wired to ports by PORT_BANKS (no arbiters)
    parameter [NPORTS*BANKS-1:0] PORT_BANKS = {NPORTS*BANKS{1'b1}}, // STATIC: bit p*BANKS+b,
                                // port p may reach bank b (each bank at most one port)
    parameter WHOLE_WORDS = 0   // 1: every write and atomic enables all bytes of its word
                                // (the banks are RAMs with one write enable)
) (
    input  wire                          clk,           // clock
    input  wire                          rst,           // synchronous active-high reset (empties the queues)
    input  wire [NPORTS-1:0]             s_req_valid,   // per port: a request is offered
    output wire [NPORTS-1:0]             s_req_ready,   // per port: request queue not full (registered)
    input  wire [NPORTS-1:0]             s_req_write,   // per port: 1 = write, 0 = read
    input  wire [NPORTS*ADDR_W-1:0]      s_req_addr,    // per port: byte address (word containing it)
    input  wire [NPORTS*WORD_W-1:0]      s_req_wdata,   // per port: write data
    input  wire [NPORTS*WORD_W/8-1:0]    s_req_wstrb,   // per port: byte enables of a write or atomic
    input  wire [NPORTS*4-1:0]           s_req_atomic,  // per port: atomic operation (0 = plain access)
    input  wire [NPORTS-1:0]             s_req_wide,    // per port: an atomic's lanes are 64 bits
    input  wire [NPORTS*WORD_W-1:0]      s_req_cmp,     // per port: cmpxchg's expected value, per lane
    output wire [NPORTS-1:0]             m_resp_valid,  // per port: a response is offered
    input  wire [NPORTS-1:0]             m_resp_ready,  // per port: the consumer takes it
    output wire [NPORTS*WORD_W-1:0]      m_resp_rdata,  // per port: read data (don't care for a write)
    output reg  [$clog2(NPORTS+1)-1:0]   conflicts,     // heads not served two cycles ago (bank conflicts)
    output wire                          idle           // nothing queued, in flight or waiting
);
    /* verilator lint_off UNUSEDPARAM */
    localparam integer LATENCY = 4;                     // request handshake to m_resp_valid, uncontended
                                                        // (5 on a port with its slice)
    /* verilator lint_on UNUSEDPARAM */
    localparam WB        = WORD_W / 8;                  // bytes per word
    localparam WB_BITS   = $clog2(WB);                  // byte-offset bits of a word
    localparam BANK_BITS = $clog2(BANKS);               // bank-select bits of a word index
    localparam IDX_W     = ADDR_W - WB_BITS;            // word-index bits
    localparam ROW_BITS  = IDX_W - BANK_BITS;           // row bits within a bank (>= 0)
    localparam ROWS      = 1 << ROW_BITS;               // rows per bank
    localparam ROW_W     = (ROW_BITS > 0) ? ROW_BITS : 1;
    localparam BSEL_W    = (BANK_BITS > 0) ? BANK_BITS : 1;
    // A bank of 16 kbit or more is a block RAM, as local memory is in the vendors'
    // flows. Left to itself, Yosys 0.23 may take a deep bank for UltraScale+ LUT RAM
    // through a 65536 x 1 single-port entry that its own map then rejects.
    /* verilator lint_off UNUSEDPARAM */
    localparam BANK_STYLE = ROWS * WORD_W >= 16384 ? "block" : "auto";
    /* verilator lint_on UNUSEDPARAM */
    localparam AT_W      = ATOMICS != 0 ? 5 + WORD_W : 0;    // queued atomic fields: op, wide, compare
    localparam REQ_W     = BANKS + 1 + IDX_W + WORD_W + WB + AT_W; // queued request: its bank
                                                        // (one-hot), write, word index, data,
                                                        // strobes (and the atomic fields)
    localparam SLOTS     = REQ_DEPTH + RESP_DEPTH;      // requests accepted and unanswered, at most
    localparam CNT_W     = $clog2(SLOTS + 1);
    localparam QN_W      = $clog2(REQ_DEPTH + 1);       // request queue entries
    localparam integer REQ_DEPTH_INT = REQ_DEPTH;
    localparam [QN_W-1:0] QN_FULL = REQ_DEPTH_INT[QN_W-1:0];
    localparam CONF_W    = $clog2(NPORTS + 1);
    localparam integer SLOTS_INT = SLOTS;
    localparam [CNT_W-1:0] SLOTS_FULL = SLOTS_INT[CNT_W-1:0];

    // Per port, the arbitration's candidate: the queue's head, or the entry after it
    // when the head won last cycle (taken). Both are known from registers before
    // `taken` chooses between them: option 0 is the head, option 1 the entry after it.
    reg  [NPORTS-1:0]        taken;        // the head won last cycle: its bank accesses it now
    wire [2*NPORTS-1:0]      opt_valid;    // per option (bit 2*port + option): it is queued
    wire [2*NPORTS-1:0]      opt_ask;      //   it asks its bank
    wire [2*NPORTS-1:0]      opt_atomic;   //   an atomic (0 without ATOMICS)
    wire [2*NPORTS*BANKS-1:0] opt_bank_hot; //   its bank, one-hot (decoded on entry)
    // The same options in the next cycle (from the queues' next state), for the
    // registered comparisons of the arbitration: plain read, word index.
    wire [2*NPORTS-1:0]       next_plain;
    wire [2*NPORTS*IDX_W-1:0] next_word;
    wire [NPORTS*BANKS-1:0]  cand_bank_hot;  // the candidate's bank, one-hot
    wire [NPORTS-1:0]        cand_atomic;  // an atomic (0 without ATOMICS)
    wire [NPORTS-1:0]        compete;      // the port has a candidate
    wire [NPORTS-1:0]        ask;          // the candidate asks its bank
    reg  [NPORTS-1:0]        served;       // the candidate won its bank this cycle
    wire [BANKS-1:0]         bank_at_won;  // per bank: an atomic is accessed now
    // Per port, the head of the request queue: the request its bank accesses when taken.
    wire [NPORTS*BSEL_W-1:0] head_bank;
    wire [NPORTS-1:0]        head_write;
    wire [NPORTS*ROW_W-1:0]  head_row;
    wire [NPORTS*WORD_W-1:0] head_wdata;
    wire [NPORTS*WB-1:0]     head_wstrb;
    wire [NPORTS*4-1:0]      head_atomic;  // 0 without ATOMICS
    wire [NPORTS-1:0]        head_wide;
    wire [NPORTS*WORD_W-1:0] head_cmp;
    wire [BANKS*WORD_W-1:0]  bank_q;       // per bank: registered read data

    // Per port: accessed last cycle (its response is in the bank's read register now)
    // and in which bank.
    reg  [NPORTS-1:0]        pend;
    /* verilator lint_off UNUSEDSIGNAL */
    reg  [NPORTS*BSEL_W-1:0] pend_bank;  // (unused when every port is wired to one bank)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [NPORTS-1:0]        port_busy;  // per port: a request queued or a response owed

    // Per pair of ports j < k and options a of j and b of k (bit
    // (j*NPORTS + k)*4 + a*2 + b): the two requests cannot be served together, that is
    // they are in one bank and are not both plain reads of one word (those are served
    // together: a broadcast; compared only between two heads or two entries after a
    // head, the cases of ports in step, which halves the comparators; the mixed pairs
    // take turns like any two requests of a bank). The banks are compared by their
    // index bits and the words by their rows, the fewest bits that tell them apart.
    // A register, computed a cycle ahead from the queues' next state, so that the
    // comparisons stay out of the arbitration.
    // Loops in processes, not a generate block per pair: with NPORTS^2 scopes, a memory
    // of a few hundred ports takes minutes to elaborate.
    /* verilator lint_off UNUSEDSIGNAL */  // (the pairs j < k only)
    reg  [4*NPORTS*NPORTS-1:0] clash, clash_next;
    /* verilator lint_on UNUSEDSIGNAL */
    integer rk, rj, ra, rb;
    always @* begin
        clash_next = 0;
        for (rj = 0; rj < NPORTS; rj = rj + 1)
            for (rk = rj + 1; rk < NPORTS; rk = rk + 1)
                for (ra = 0; ra < 2; ra = ra + 1)
                    for (rb = 0; rb < 2; rb = rb + 1)
                        clash_next[(rj*NPORTS + rk)*4 + ra*2 + rb] =
                            STATIC == 0 &&
                            word_bank(next_word[(2*rj + ra)*IDX_W +: IDX_W]) ==
                            word_bank(next_word[(2*rk + rb)*IDX_W +: IDX_W]) &&
                            !(ra == rb && next_plain[2*rj + ra] && next_plain[2*rk + rb] &&
                              next_word[(2*rj + ra)*IDX_W +: IDX_W] >> BANK_BITS ==
                              next_word[(2*rk + rb)*IDX_W +: IDX_W] >> BANK_BITS);
    end
    // The bank of a word index (0 with one bank): its low bits.
    /* verilator lint_off UNUSEDSIGNAL */  // (the row bits)
    function [BSEL_W-1:0] word_bank(input [IDX_W-1:0] word);
        word_bank = BANK_BITS > 0 ? word[BSEL_W-1:0] : {BSEL_W{1'b0}};
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    always @(posedge clk)
        clash <= clash_next;

    // The priority: port j goes before port k when `ahead` bit j*NPORTS + k (j < k) is
    // 1, else k before j. A total order, the least recently served first: the ports
    // served in a cycle move behind all the others, keeping their order among
    // themselves. Reset: the lower port number first.
    /* verilator lint_off UNUSEDSIGNAL */  // (the pairs j < k only)
    reg  [NPORTS*NPORTS-1:0] ahead;
    /* verilator lint_on UNUSEDSIGNAL */
    always @(posedge clk) begin
        for (rj = 0; rj < NPORTS; rj = rj + 1)
            for (rk = rj + 1; rk < NPORTS; rk = rk + 1)
                if (rst)
                    ahead[rj*NPORTS + rk] <= 1'b1;
                else if (served[rj] != served[rk])
                    ahead[rj*NPORTS + rk] <= served[rk];
    end

    // The arbitration: a port is served when its candidate asks and no port before it
    // in the priority asks with a clashing candidate. The first port asking a bank is
    // served, and every other port served in that bank reads the same word with it
    // (it comes after the first, so they cannot clash): a bank serves a write alone, or
    // one word's reads. Each pair's term is a few gates after `taken` and the
    // priority, so the loop from `taken` back to itself is short.
    reg [NPORTS-1:0] blocked;
    reg [3:0]        pair;  // a pair's clash terms, indexed by its options
    always @* begin
        blocked = {NPORTS{1'b0}};
        pair = 4'd0;
        for (rj = 0; rj < NPORTS; rj = rj + 1)
            for (rk = rj + 1; rk < NPORTS; rk = rk + 1) begin
                pair = clash[(rj*NPORTS + rk)*4 +: 4];
                if (pair[{taken[rj], taken[rk]}]) begin
                    blocked[rk] = blocked[rk] | (ask[rj] && ahead[rj*NPORTS + rk]);
                    blocked[rj] = blocked[rj] | (ask[rk] && !ahead[rj*NPORTS + rk]);
                end
            end
        served = ask & ~blocked;
    end

    genvar p, g, o;
    generate
        for (p = 0; p < NPORTS; p = p + 1) begin : port
            reg  [CNT_W-1:0] used;  // requests accepted and not answered
            reg              room;  // used != SLOTS: the response queue has room for one more

            // The request as the queue sees it: straight from the port, or from the slice.
            wire              in_valid;   // a request is offered to the queue
            wire              in_ready;   // the queue takes it
            wire              in_write;   // its fields, as the port's
            wire [ADDR_W-1:0] in_addr;
            wire [WORD_W-1:0] in_wdata;
            wire [WB-1:0]     in_wstrb;
            wire [3:0]        in_atomic;
            wire              in_wide;
            wire [WORD_W-1:0] in_cmp;
            if (REQ_SLICE[p]) begin : request_slice
                clhls_skid #(.WIDTH(1 + ADDR_W + 2 * WORD_W + WB + 5)) slice (
                    .clk(clk), .rst(rst),
                    .s_valid(s_req_valid[p]), .s_ready(s_req_ready[p]),
                    .s_data({s_req_write[p], s_req_addr[p*ADDR_W +: ADDR_W],
                             s_req_wdata[p*WORD_W +: WORD_W], s_req_wstrb[p*WB +: WB],
                             s_req_atomic[4*p +: 4], s_req_wide[p], s_req_cmp[p*WORD_W +: WORD_W]}),
                    .m_valid(in_valid), .m_ready(in_ready),
                    .m_data({in_write, in_addr, in_wdata, in_wstrb, in_atomic, in_wide, in_cmp}));
            end else begin : no_slice
                assign in_valid       = s_req_valid[p];
                assign s_req_ready[p] = in_ready;
                assign {in_write, in_addr, in_wdata, in_wstrb, in_atomic, in_wide, in_cmp} =
                    {s_req_write[p], s_req_addr[p*ADDR_W +: ADDR_W], s_req_wdata[p*WORD_W +: WORD_W],
                     s_req_wstrb[p*WB +: WB], s_req_atomic[4*p +: 4], s_req_wide[p],
                     s_req_cmp[p*WORD_W +: WORD_W]};
            end

            wire [IDX_W-1:0] in_idx = in_addr[WB_BITS +: IDX_W];
            wire [BANKS-1:0] in_bank_hot;  // the bank of the request entering the queue
            /* verilator lint_off UNUSEDSIGNAL */
            wire [ADDR_W-1:0] unused_addr = in_addr;  // low bits: byte in word
            wire [CNT_W-1:0]                rs_count;
            wire                            rs_ready;  // always 1: room prevents overflow
            /* verilator lint_on UNUSEDSIGNAL */

            wire [REQ_W-1:0] rq_in;
            if (BANK_BITS > 0) begin : bank_decode
                assign in_bank_hot = {{(BANKS-1){1'b0}}, 1'b1} << in_idx[BANK_BITS-1:0];
            end else begin : one_bank
                assign in_bank_hot = 1'b1;
            end
            if (ATOMICS != 0) begin : atomic_fields
                assign rq_in = {in_bank_hot, in_write, in_idx, in_wdata, in_wstrb, in_atomic,
                                in_wide, in_cmp};
            end else begin : plain
                assign rq_in = {in_bank_hot, in_write, in_idx, in_wdata, in_wstrb};
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_atomic = ^{in_atomic, in_wide, in_cmp};
                /* verilator lint_on UNUSEDSIGNAL */
            end

            // The request queue, a shift register whose entry 0 is the head: the head
            // leaves at the end of the cycle its bank accesses it (taken), and a request
            // arrives behind the entries that stay. s_req_ready: registers only. Every
            // request accepted has a place in the response queue (SLOTS entries), so the
            // arbitration needs no credit.
            reg  [REQ_DEPTH*REQ_W-1:0] ents;  // entry e at e*REQ_W
            reg  [QN_W-1:0]            queued;
            wire [QN_W-1:0] stay = queued - {{(QN_W-1){1'b0}}, taken[p]};
            wire push = in_valid && in_ready;
            wire [REQ_DEPTH*REQ_W-1:0] shifted = taken[p] ? ents >> REQ_W : ents;
            reg  [REQ_DEPTH*REQ_W-1:0] ents_next;
            assign in_ready = (queued != QN_FULL || taken[p]) && room;
            // The slot behind the entries that stay takes the input whether or not a
            // request arrives (without one it stays empty): the handshake, which comes
            // from the pipeline, only counts, and the next state the comparisons start
            // from depends on registers and the input's address alone. That slot is
            // found by comparing the count, a register, with e and e + 1, which `taken`
            // then picks between (not by a subtraction after the arbitration).
            integer e;
            always @* begin
                for (e = 0; e < REQ_DEPTH; e = e + 1)
                    ents_next[e*REQ_W +: REQ_W] =
                        (taken[p] ? {{(32-QN_W){1'b0}}, queued} == e + 1
                                  : {{(32-QN_W){1'b0}}, queued} == e)
                        ? rq_in : shifted[e*REQ_W +: REQ_W];
            end
            always @(posedge clk) begin
                ents <= ents_next;
                if (rst)
                    queued <= {QN_W{1'b0}};
                else
                    queued <= stay + {{(QN_W-1){1'b0}}, push};
            end

            // The head's fields (the bank's access), both options' (the arbitration) and
            // the candidate's (the bank's grant).
            wire [REQ_W-1:0] head = ents[0 +: REQ_W];
            wire [REQ_W-1:0] second, next_head, next_second;
            assign next_head = ents_next[0 +: REQ_W];
            if (REQ_DEPTH > 1) begin : two
                assign second      = ents[REQ_W +: REQ_W];
                assign next_second = ents_next[REQ_W +: REQ_W];
            end else begin : one
                assign second      = head;
                assign next_second = next_head;
            end
            for (o = 0; o < 2; o = o + 1) begin : option
                wire [REQ_W-1:0] entry = o == 0 ? head : second;
                wire [REQ_W-1:0] next  = o == 0 ? next_head : next_second;
                wire             valid = {{(32-QN_W){1'b0}}, queued} > o;  // the entry is queued
                wire             write = entry[REQ_W-BANKS-1];
                wire             atomic, next_atomic;
                wire [BANKS-1:0] hot;
                if (STATIC != 0 && port_bank_count(p) == 1) begin : wired_hot
                    assign hot = PORT_BANKS[p*BANKS +: BANKS];  // its one bank, whatever the address
                end else begin : decoded_hot
                    assign hot = entry[REQ_W-1 -: BANKS];
                end
                if (ATOMICS != 0) begin : atomic_entry
                    assign atomic      = entry[AT_W-1 -: 4] != 4'd0;
                    assign next_atomic = next[AT_W-1 -: 4] != 4'd0;
                end else begin : plain_entry
                    assign atomic      = 1'b0;
                    assign next_atomic = 1'b0;
                end
                // A plain write waits while its bank's atomic writes back.
                assign opt_ask[2*p + o]   = valid && !(write && |(bank_at_won & hot));
                assign opt_valid[2*p + o] = valid;
                assign opt_atomic[2*p + o] = atomic;
                assign opt_bank_hot[(2*p + o)*BANKS +: BANKS] = hot;
                assign next_plain[2*p + o] = !next[REQ_W-BANKS-1] && !next_atomic;
                assign next_word[(2*p + o)*IDX_W +: IDX_W] = next[REQ_W-BANKS-2 -: IDX_W];
            end
            assign ask[p]         = taken[p] ? opt_ask[2*p + 1] : opt_ask[2*p];
            assign compete[p]     = taken[p] ? opt_valid[2*p + 1] : opt_valid[2*p];
            assign cand_atomic[p] = taken[p] ? opt_atomic[2*p + 1] : opt_atomic[2*p];
            /* verilator lint_off UNUSEDSIGNAL */  // (the head's one-hot bank: head_bank)
            wire [IDX_W-1:0] head_idx = head[REQ_W-BANKS-2 -: IDX_W];
            wire [BANKS-1:0] unused_head_hot = head[REQ_W-1 -: BANKS];
            /* verilator lint_on UNUSEDSIGNAL */
            assign {head_write[p], head_wdata[p*WORD_W +: WORD_W], head_wstrb[p*WB +: WB]} =
                {head[REQ_W-BANKS-1], head[AT_W +: WORD_W + WB]};
            assign cand_bank_hot[p*BANKS +: BANKS] = taken[p] ? opt_bank_hot[(2*p + 1)*BANKS +: BANKS]
                                                              : opt_bank_hot[2*p*BANKS +: BANKS];
            if (ATOMICS != 0) begin : atomic_head
                assign {head_atomic[4*p +: 4], head_wide[p], head_cmp[p*WORD_W +: WORD_W]} =
                    head[AT_W-1:0];
            end else begin : plain_head
                assign head_atomic[4*p +: 4] = 4'd0;
                assign head_wide[p] = 1'b0;
                assign head_cmp[p*WORD_W +: WORD_W] = {WORD_W{1'b0}};
            end
            if (BANK_BITS > 0) begin : banked
                assign head_bank[p*BSEL_W +: BSEL_W] = head_idx[BANK_BITS-1:0];
            end else begin : single
                assign head_bank[p*BSEL_W +: BSEL_W] = 1'b0;
            end
            if (ROW_BITS > 0) begin : rows
                assign head_row[p*ROW_W +: ROW_W] = head_idx[BANK_BITS +: ROW_W];
            end else begin : one_row
                assign head_row[p*ROW_W +: ROW_W] = 1'b0;
            end

            assign port_busy[p] = used != {CNT_W{1'b0}} || (REQ_SLICE[p] && in_valid);

            // The room flag steps with the count, from the count alone. The request
            // and the response handshakes both come late (through the compute unit's
            // joins), the response's the later: it comes from the other units'
            // answers through a memory node's join. So the request's handshake picks,
            // for each bit, between the values with and without a response taken
            // (the count, one up, one down), and the response's picks last, one LUT
            // before the register. They are kept as nets: otherwise synthesis, which
            // sees this module's inputs arrive at once, merges them and puts the
            // response's handshake in front of the request's (3 LUTs in box_blur on
            // the U250).
            wire pop = m_resp_valid[p] && m_resp_ready[p];
            (* keep *) wire [CNT_W-1:0] used_up   = used + 1'b1;
            (* keep *) wire [CNT_W-1:0] used_down = used - 1'b1;
            (* keep *) wire [CNT_W-1:0] used_if_pop    = push ? used : used_down;
            (* keep *) wire [CNT_W-1:0] used_if_no_pop = push ? used_up : used;
            (* keep *) wire             room_if_pop    = push ? room : 1'b1;
            (* keep *) wire             room_if_no_pop = push ? used_up != SLOTS_FULL : room;
            always @(posedge clk) begin
                if (rst) begin
                    used <= {CNT_W{1'b0}};
                    room <= 1'b1;
                end else begin
                    used <= pop ? used_if_pop : used_if_no_pop;
                    room <= pop ? room_if_pop : room_if_no_pop;
                end
            end

            // The read data: from the bank that served the port (a statically wired
            // port that reaches one bank: that bank's register, no multiplexer).
            wire [WORD_W-1:0] pend_q;
            if (STATIC != 0 && port_bank_count(p) == 1) begin : wired_q
                assign pend_q = bank_q[port_only_bank(p)*WORD_W +: WORD_W];
            end else begin : muxed_q
                assign pend_q = bank_q[pend_bank[p*BSEL_W +: BSEL_W]*WORD_W +: WORD_W];
            end

`ifdef CLHLS_SIM_CHECKS
            // A statically wired port must never be given an address outside its banks.
            if (STATIC != 0) begin : wiring_check
                wire [BANKS-1:0]  reach = PORT_BANKS[p*BANKS +: BANKS];
                wire [BSEL_W-1:0] in_bank;
                if (BANK_BITS > 0) begin : banked_in
                    assign in_bank = in_idx[BANK_BITS-1:0];
                end else begin : single_in
                    assign in_bank = 1'b0;
                end
                always @(posedge clk)
                    if (!rst && push && !reach[in_bank])
                        $error("clhls_local_mem: port %0d, statically wired, got byte address 'h%0h in bank %0d outside its banks",
                               p, in_addr, in_bank);
            end
`endif

            clhls_fifo #(.WIDTH(WORD_W), .DEPTH(SLOTS)) resp_q (
                .clk(clk), .rst(rst),
                .s_valid(pend[p] || acked[p]), .s_ready(rs_ready),
                .s_data(pend_q),
                .m_valid(m_resp_valid[p]), .m_ready(m_resp_ready[p]),
                .m_data(m_resp_rdata[p*WORD_W +: WORD_W]),
                .count(rs_count));
        end

        for (g = 0; g < BANKS; g = g + 1) begin : bank
            (* ram_style = BANK_STYLE *)
            reg  [WORD_W-1:0] mem [0:ROWS-1];  // the bank's RAM
            reg  [WORD_W-1:0] ram_q;           // the RAM's registered read data
            reg               fwd;             // the read met an atomic's write-back:
            reg  [WORD_W-1:0] fwd_word;        //   the word as the atomic left it
            wire [WORD_W-1:0] q = fwd ? fwd_word : ram_q;  // the word read
            reg               w_write;         // the winner's request
            reg  [ROW_W-1:0]  w_row;
            reg  [WORD_W-1:0] w_wdata;
            reg  [WB-1:0]     w_wstrb;
            reg  [3:0]        w_atomic;
            reg               w_wide;
            reg  [WORD_W-1:0] w_cmp;
            // The ports served in this bank (with STATIC, only the port wired to it):
            // one, or several reading one word.
            wire [NPORTS-1:0] win;
            for (o = 0; o < NPORTS; o = o + 1) begin : winner
                assign win[o] = served[o] && cand_bank_hot[o*BANKS + g] &&
                                (STATIC == 0 || PORT_BANKS[o*BANKS + g]);
            end
            // The access, a cycle after the arbitration: the ports served, whose requests
            // are now the heads of their queues.
            reg  [NPORTS-1:0] grant;
            wire              access = |grant; // a port won last cycle
            reg               at_won;          //   an atomic, accessed now: no plain write wins
            // An atomic accessed last cycle: its write-back (the bank is busy).
            reg               at_busy;
            reg  [11:0]       at_sel;          // its operation, one-hot (atomic_onehot)
            reg               at_wide;
            reg  [ROW_W-1:0]  at_row;
            reg  [WORD_W-1:0] at_wdata, at_cmp;
            reg  [WB-1:0]     at_wstrb;
            wire [WORD_W-1:0] at_new;          // the word after the operation, per lane
            integer k, j;

            always @(posedge clk) begin
                if (rst) begin
                    grant  <= {NPORTS{1'b0}};
                    at_won <= 1'b0;
                end else begin
                    grant  <= win;
                    at_won <= |(win & cand_atomic);
                end
            end

            always @* begin
                // The winner's fields: an AND-OR over the ports (a chain of `if (grant[k])`
                // would be a priority multiplexer, a level per port). Several ports are
                // granted only when they read one word: their rows are the same.
                w_write = |(grant & head_write);
                w_wide  = |(grant & head_wide);
                w_row   = {ROW_W{1'b0}};
                w_wdata = {WORD_W{1'b0}};
                w_wstrb = {WB{1'b0}};
                w_atomic = 4'd0;
                w_cmp   = {WORD_W{1'b0}};
                for (k = 0; k < NPORTS; k = k + 1) begin
                    w_row    = w_row    | ({ROW_W{grant[k]}}  & head_row[k*ROW_W +: ROW_W]);
                    w_wdata  = w_wdata  | ({WORD_W{grant[k]}} & head_wdata[k*WORD_W +: WORD_W]);
                    w_wstrb  = w_wstrb  | ({WB{grant[k]}}     & head_wstrb[k*WB +: WB]);
                    w_atomic = w_atomic | ({4{grant[k]}}      & head_atomic[4*k +: 4]);
                    w_cmp    = w_cmp    | ({WORD_W{grant[k]}} & head_cmp[k*WORD_W +: WORD_W]);
                end
            end
            assign bank_at_won[g] = at_won;
            assign bank_q[g*WORD_W +: WORD_W] = q;

            // The word as the last cycle's atomic leaves it (its lanes over the word it
            // read), for a request of this cycle to the same row.
            reg [WORD_W-1:0] at_word;
            always @* begin
                for (j = 0; j < WB; j = j + 1)
                    at_word[8*j +: 8] = at_wstrb[j] ? at_new[8*j +: 8] : q[8*j +: 8];
            end

            // One write per cycle, so that synthesis maps the bank to a block RAM with
            // one write port: an atomic's write-back lands with the next request's
            // access, which is then not a plain write (the arbitration holds plain
            // writes back while the atomic is accessed); a read of the same row gets the
            // atomic's result.
            wire [ROW_W-1:0]  wr_row  = at_busy ? at_row : w_row;
            wire [WB-1:0]     wr_strb = at_busy ? at_wstrb : (access && w_write) ? w_wstrb : {WB{1'b0}};
            wire [WORD_W-1:0] wr_data = at_busy ? at_new : w_wdata;
            always @(posedge clk) begin
                if (WHOLE_WORDS != 0) begin
                    if (wr_strb[0])
                        mem[wr_row] <= wr_data;
                end else begin
                    for (j = 0; j < WB; j = j + 1)
                        if (wr_strb[j])
                            mem[wr_row][8*j +: 8] <= wr_data[8*j +: 8];
                end
                // The read register takes the RAM's data alone (so that synthesis maps
                // the bank to a block RAM); a row the write-back changes in this cycle
                // is read from the forwarding register instead.
                if (access && !w_write) begin
                    ram_q    <= mem[w_row];
                    fwd      <= at_busy && w_row == at_row;
                    fwd_word <= at_word;
                end
            end

            always @(posedge clk) begin
                if (rst)
                    at_busy <= 1'b0;
                else
                    at_busy <= access && w_atomic != 4'd0;
                at_sel   <= atomic_onehot(w_atomic);
                at_wide  <= w_wide;
                at_row   <= w_row;
                at_wdata <= w_wdata;
                at_cmp   <= w_cmp;
                at_wstrb <= w_wstrb;
            end

            if (ATOMICS != 0 && WORD_W >= 32) begin : alu
                // q holds the word the atomic read: the old value of every lane.
                wire [11:0] at_use = at_sel & {ATOMICS[11:1], 1'b1};
                genvar l;
                for (l = 0; l < WORD_W / 32; l = l + 1) begin : lane
                    wire [31:0] n32 = atomic_pick32(at_use, q[l*32 +: 32], at_wdata[l*32 +: 32],
                                                    at_cmp[l*32 +: 32]);
                    wire [31:0] n64;
                    if (WORD_W >= 64) begin : wide_lane
                        /* verilator lint_off UNUSEDSIGNAL */
                        wire [63:0] n = atomic_pick64(at_use, q[(l/2)*64 +: 64],
                                                      at_wdata[(l/2)*64 +: 64], at_cmp[(l/2)*64 +: 64]);
                        /* verilator lint_on UNUSEDSIGNAL */
                        assign n64 = n[(l%2)*32 +: 32];
                    end else begin : narrow
                        assign n64 = n32;
                    end
                    assign at_new[l*32 +: 32] = at_wide ? n64 : n32;
                end
            end else begin : no_alu
                assign at_new = at_wdata;
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_atomic = ^{at_sel, at_wide, at_cmp};
                /* verilator lint_on UNUSEDSIGNAL */
            end
        end
    endgenerate

    `include "clhls_atomic_ops.vh"

    // Static wiring: how many banks port `port` reaches, and the last of them.
    function integer port_bank_count(input integer port_id);
        integer c;
        begin
            port_bank_count = 0;
            for (c = 0; c < BANKS; c = c + 1)
                port_bank_count = port_bank_count + (PORT_BANKS[port_id*BANKS + c] ? 1 : 0);
        end
    endfunction

    function integer port_only_bank(input integer port_id);
        integer c;
        begin
            port_only_bank = 0;
            for (c = 0; c < BANKS; c = c + 1)
                if (PORT_BANKS[port_id*BANKS + c])
                    port_only_bank = c;
        end
    endfunction

    // The candidates that competed last cycle and did not win, counted from registers
    // (the arbitration is deep already).
    reg [NPORTS-1:0] asked;
    always @(posedge clk) begin
        if (rst || STATIC != 0) begin  // static wiring: no conflict, no counter logic
            asked     <= {NPORTS{1'b0}};
            conflicts <= {CONF_W{1'b0}};
        end else begin
            asked     <= compete;
            conflicts <= ones(asked & ~taken);
        end
    end

    // The number of ones in a port mask.
    function [CONF_W-1:0] ones(input [NPORTS-1:0] mask);
        integer m;
        begin
            ones = {CONF_W{1'b0}};
            for (m = 0; m < NPORTS; m = m + 1)
                ones = ones + {{(CONF_W-1){1'b0}}, mask[m]};
        end
    endfunction

    // A winner is accessed in the next cycle (taken) and answered from the bank's
    // read register in the cycle after (pend). A write is answered as it is written
    // (acked), unless the port's answer of the cycle comes from the read register
    // (then the write's follows it from there).
    wire [NPORTS-1:0] acked = taken & head_write & ~pend;
    always @(posedge clk) begin
        if (rst) begin
            taken <= {NPORTS{1'b0}};
            pend  <= {NPORTS{1'b0}};
        end else begin
            taken <= served;
            pend  <= taken & ~acked;
        end
        pend_bank <= head_bank;
    end

    assign idle = ~|port_busy;
endmodule

`default_nettype wire
