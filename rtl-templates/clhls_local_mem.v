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
//   after it when the head won the cycle before) competes for its bank; a
//   rotating-priority (round-robin) arbiter per bank picks a winner among the ports
//   asking it, and when the winner is a read, every other port whose candidate reads
//   the same word wins with it (broadcast). A write (byte enables s_req_wstrb) wins
//   alone. The winners are registered.
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
// Needs clhls_fifo.v and (for ATOMICS) clhls_atomic_ops.vh.
`default_nettype none

module clhls_local_mem #(
    parameter NPORTS     = 2,   // access ports (>= 1)
    parameter ADDR_W     = 8,   // byte-address bits: the memory holds 2^ADDR_W bytes
    parameter WORD_W     = 32,  // bits per word: a power of two, 8..256
    parameter BANKS      = 2,   // banks: a power of two >= 1, at most the number of words
    parameter REQ_DEPTH  = 2,   // request queue entries per port (>= 1; 2 for full throughput)
    parameter RESP_DEPTH = 8,   // answers a port may owe besides REQ_DEPTH (>= 1; 3 for full throughput)
    parameter [15:0] ATOMICS = 0, // bit k: the banks execute atomics of code k (0: none)
    parameter STATIC     = 0,   // 1: banks wired to ports by PORT_BANKS (no arbiters)
    parameter [NPORTS*BANKS-1:0] PORT_BANKS = {NPORTS*BANKS{1'b1}}  // STATIC: bit p*BANKS+b,
                                // port p may reach bank b (each bank at most one port)
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
    // when the head won last cycle (taken).
    reg  [NPORTS-1:0]        taken;        // the head won last cycle: its bank accesses it now
    wire [NPORTS-1:0]        cand_write;
    wire [NPORTS*BANKS-1:0]  cand_bank_hot;  // its bank, one-hot (decoded on entry)
    wire [NPORTS*IDX_W-1:0]  cand_word;    // its word index
    wire [NPORTS-1:0]        cand_atomic;  // an atomic (0 without ATOMICS)
    wire [NPORTS-1:0]        compete;      // the port has a candidate
    reg  [NPORTS-1:0]        served;       // the candidate won its bank this cycle
    wire [BANKS*NPORTS-1:0]  bank_won;     // per bank: the port that won it (one-hot)
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

    integer b;

    // Per port: its candidate is a plain read (no write, no atomic); per pair of ports
    // k, j (bit k*NPORTS + j): their candidates name the same word.
    wire [NPORTS-1:0]        plain_read;
    reg  [NPORTS*NPORTS-1:0] same_word;
    // Per port k, bit k*NPORTS + j: port j is in k's read group, that is j is another
    // port and both candidates are plain reads of the same word: when port j wins its
    // bank, port k wins with it (broadcast).
    reg  [NPORTS*NPORTS-1:0] read_group;

    // Each pair of words compared once (word_eq, k < j), the comparison mirrored for
    // j < k. Loops in processes, not a generate block per pair: with NPORTS^2 scopes,
    // a memory of a few hundred ports takes minutes to elaborate.
    /* verilator lint_off UNUSEDSIGNAL */  // (the pairs k < j only)
    reg  [NPORTS*NPORTS-1:0] word_eq;
    /* verilator lint_on UNUSEDSIGNAL */
    integer rk, rj;
    always @* begin
        word_eq = 0;
        for (rk = 0; rk < NPORTS; rk = rk + 1)
            for (rj = rk + 1; rj < NPORTS; rj = rj + 1)
                word_eq[rk*NPORTS + rj] = cand_word[rk*IDX_W +: IDX_W] == cand_word[rj*IDX_W +: IDX_W];
    end
    always @* begin
        for (rk = 0; rk < NPORTS; rk = rk + 1)
            for (rj = 0; rj < NPORTS; rj = rj + 1)
                same_word[rk*NPORTS + rj] = rj > rk ? word_eq[rk*NPORTS + rj]
                                          : rj < rk ? word_eq[rj*NPORTS + rk] : 1'b1;
        for (rk = 0; rk < NPORTS; rk = rk + 1)
            for (rj = 0; rj < NPORTS; rj = rj + 1)
                read_group[rk*NPORTS + rj] = rk != rj && plain_read[rk] && plain_read[rj] &&
                                             same_word[rk*NPORTS + rj];
    end

    genvar p, g;
    generate
        for (p = 0; p < NPORTS; p = p + 1) begin : port
            reg  [CNT_W-1:0] used;  // requests accepted and not answered
            reg              room;  // used != SLOTS: the response queue has room for one more
            wire [IDX_W-1:0] in_idx = s_req_addr[p*ADDR_W + WB_BITS +: IDX_W];
            wire [BANKS-1:0] in_bank_hot;  // the bank of the request entering the queue
            /* verilator lint_off UNUSEDSIGNAL */
            wire [ADDR_W-1:0] unused_addr = s_req_addr[p*ADDR_W +: ADDR_W];  // low bits: byte in word
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
                assign rq_in = {in_bank_hot, s_req_write[p], in_idx, s_req_wdata[p*WORD_W +: WORD_W],
                                s_req_wstrb[p*WB +: WB], s_req_atomic[4*p +: 4], s_req_wide[p],
                                s_req_cmp[p*WORD_W +: WORD_W]};
            end else begin : plain
                assign rq_in = {in_bank_hot, s_req_write[p], in_idx, s_req_wdata[p*WORD_W +: WORD_W],
                                s_req_wstrb[p*WB +: WB]};
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_atomic = ^{s_req_atomic[4*p +: 4], s_req_wide[p],
                                       s_req_cmp[p*WORD_W +: WORD_W]};
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
            wire push = s_req_valid[p] && s_req_ready[p];
            wire [REQ_DEPTH*REQ_W-1:0] shifted = taken[p] ? ents >> REQ_W : ents;
            assign s_req_ready[p] = (queued != QN_FULL || taken[p]) && room;
            integer e;
            always @(posedge clk) begin
                for (e = 0; e < REQ_DEPTH; e = e + 1)
                    ents[e*REQ_W +: REQ_W] <= (push && {{(32-QN_W){1'b0}}, stay} == e)
                                              ? rq_in : shifted[e*REQ_W +: REQ_W];
                if (rst)
                    queued <= {QN_W{1'b0}};
                else
                    queued <= stay + {{(QN_W-1){1'b0}}, push};
            end

            // The head's fields (the bank's access) and the candidate's (the arbitration).
            wire [REQ_W-1:0] head = ents[0 +: REQ_W];
            wire [REQ_W-1:0] second;
            if (REQ_DEPTH > 1) begin : two
                assign second = ents[REQ_W +: REQ_W];
            end else begin : one
                assign second = head;
            end
            wire [REQ_W-1:0] cand = taken[p] ? second : head;
            /* verilator lint_off UNUSEDSIGNAL */  // (the head's one-hot bank: head_bank)
            wire [IDX_W-1:0] head_idx = head[REQ_W-BANKS-2 -: IDX_W];
            wire [BANKS-1:0] unused_head_hot = head[REQ_W-1 -: BANKS];
            /* verilator lint_on UNUSEDSIGNAL */
            assign {head_write[p], head_wdata[p*WORD_W +: WORD_W], head_wstrb[p*WB +: WB]} =
                {head[REQ_W-BANKS-1], head[AT_W +: WORD_W + WB]};
            assign cand_bank_hot[p*BANKS +: BANKS] = cand[REQ_W-1 -: BANKS];
            assign cand_write[p] = cand[REQ_W-BANKS-1];
            assign cand_word[p*IDX_W +: IDX_W] = cand[REQ_W-BANKS-2 -: IDX_W];
            if (ATOMICS != 0) begin : atomic_head
                assign {head_atomic[4*p +: 4], head_wide[p], head_cmp[p*WORD_W +: WORD_W]} =
                    head[AT_W-1:0];
                assign cand_atomic[p] = cand[AT_W-1 -: 4] != 4'd0;
            end else begin : plain_head
                assign head_atomic[4*p +: 4] = 4'd0;
                assign head_wide[p] = 1'b0;
                assign head_cmp[p*WORD_W +: WORD_W] = {WORD_W{1'b0}};
                assign cand_atomic[p] = 1'b0;
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

            assign plain_read[p] = !cand_write[p] && !cand_atomic[p];
            assign compete[p]   = taken[p] ? queued > 1 : queued != 0;
            assign port_busy[p] = used != {CNT_W{1'b0}};

            // The room flag steps with the count, from the count alone.
            wire pop = m_resp_valid[p] && m_resp_ready[p];
            always @(posedge clk) begin
                if (rst) begin
                    used <= {CNT_W{1'b0}};
                    room <= 1'b1;
                end else if (push && !pop) begin
                    used <= used + 1'b1;
                    room <= used != SLOTS_FULL - 1'b1;
                end else if (!push && pop) begin
                    used <= used - 1'b1;
                    room <= 1'b1;
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
                    if (!rst && s_req_valid[p] && s_req_ready[p] && !reach[in_bank])
                        $error("clhls_local_mem: port %0d, statically wired, got byte address 'h%0h in bank %0d outside its banks",
                               p, s_req_addr[p*ADDR_W +: ADDR_W], in_bank);
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
            wire [NPORTS-1:0] req;             // ports whose candidate asks this bank
            wire [NPORTS-1:0] win;             // the port that wins it first: one-hot
            reg               w_write;         // the winner's request
            reg  [ROW_W-1:0]  w_row;
            reg  [WORD_W-1:0] w_wdata;
            reg  [WB-1:0]     w_wstrb;
            reg  [3:0]        w_atomic;
            reg               w_wide;
            reg  [WORD_W-1:0] w_cmp;
            wire              any    = |req;   // a port wins
            // The access, a cycle after the arbitration: the winner (one-hot), whose
            // request is now the head of its queue.
            reg  [NPORTS-1:0] grant;
            reg               access;          // a port won last cycle
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

            if (STATIC == 0) begin : crossbar
                // Every port may ask: a rotating-priority arbiter picks the winner.
                reg  [NPORTS-1:0]   asks;
                reg  [NPORTS-1:0]   prio;      // ports at or after the rotating pointer
                // The winner is the first asking port of {asks & prio, asks} (the ports
                // at or after the pointer, then all of them): a prefix OR, a tree of a
                // few levels where `cand & -cand` would be a carry chain behind a
                // wide OR choosing cand.
                wire [2*NPORTS-1:0] order = {asks, asks & prio};
                reg  [2*NPORTS-1:0] first;     // the first set bit of order, one-hot
                reg                 seen;      // a set bit below the current one
                integer a, o;
                always @* begin
                    for (a = 0; a < NPORTS; a = a + 1)
                        asks[a] = compete[a] && cand_bank_hot[a*BANKS + g] &&
                                  !(at_won && cand_write[a]);
                end
                always @* begin
                    seen = 1'b0;
                    for (o = 0; o < 2 * NPORTS; o = o + 1) begin
                        first[o] = order[o] && !seen;
                        seen     = seen || order[o];
                    end
                end
                assign req = asks;
                assign win = first[NPORTS-1:0] | first[2*NPORTS-1:NPORTS];
                always @(posedge clk) begin
                    if (rst)
                        prio <= {NPORTS{1'b1}};
                    else if (any)
                        prio <= ~((win << 1) - 1'b1);  // the ports after the winner
                end
            end else if (bank_owner(g) >= 0) begin : wired
                // The one port that reaches this bank, wired to it.
                localparam integer OWNER = bank_owner(g);
                wire asks = compete[OWNER] && (port_bank_count(OWNER) == 1 ||
                                               cand_bank_hot[OWNER*BANKS + g]) &&
                            !(at_won && cand_write[OWNER]);
                assign req = {{(NPORTS-1){1'b0}}, asks} << OWNER;
                assign win = req;
            end else begin : unused_bank
                assign req = {NPORTS{1'b0}};
                assign win = {NPORTS{1'b0}};
            end

            always @(posedge clk) begin
                if (rst) begin
                    grant  <= {NPORTS{1'b0}};
                    access <= 1'b0;
                    at_won <= 1'b0;
                end else begin
                    grant  <= win;
                    access <= any;
                    at_won <= |(win & cand_atomic);
                end
            end

            always @* begin
                // The winner's fields: grant is one-hot, so an AND-OR over the ports (a
                // chain of `if (grant[k])` would be a priority multiplexer, a level per port).
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
            assign bank_won[g*NPORTS +: NPORTS] = win;
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
                for (j = 0; j < WB; j = j + 1)
                    if (wr_strb[j])
                        mem[wr_row][8*j +: 8] <= wr_data[8*j +: 8];
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

    // Static wiring: the port that reaches bank `bank` (the lowest one), or -1.
    function integer bank_owner(input integer bank_id);
        integer q;
        begin
            bank_owner = -1;
            for (q = NPORTS - 1; q >= 0; q = q - 1)
                if (PORT_BANKS[q*BANKS + bank_id])
                    bank_owner = q;
        end
    endfunction

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

    // The ports that won a bank, and with them every plain read of the word one of them
    // reads: its read group, found before the arbitration, so that neither a winner nor
    // its word is selected first (a static bank has one port, so no group).
    reg [NPORTS-1:0] won;
    always @* begin
        won = {NPORTS{1'b0}};
        for (b = 0; b < BANKS; b = b + 1)
            won = won | bank_won[b*NPORTS +: NPORTS];
        for (b = 0; b < NPORTS; b = b + 1)
            served[b] = won[b] || (STATIC == 0 && compete[b] &&
                                   |(won & read_group[b*NPORTS +: NPORTS]));
    end

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
