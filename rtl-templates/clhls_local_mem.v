// clhls_local_mem: banked on-chip local memory (OpenCL __local) with NPORTS
// request/response ports.
//
// The memory (2^ADDR_W bytes) is split into BANKS synchronous-read RAMs, word
// interleaved: word w = addr / (WORD_W/8) lives in bank w % BANKS, row w / BANKS.
// Each port has a request queue (REQ_DEPTH entries; s_req_ready = queue not full,
// from registers) and a response queue (RESP_DEPTH entries). The head of a port's
// request queue competes for its bank when the port has response credit (responses
// queued plus in flight < RESP_DEPTH, so the response queue never overflows). Each
// bank serves one request per cycle, chosen by a rotating-priority (round-robin)
// arbiter among the ports requesting it; when the winner is a read, every other
// port whose head reads the same word of that bank is served in the same cycle too
// (broadcast). A write (byte enables s_req_wstrb) is served alone. A head that
// competed and was not served counts in `conflicts` two cycles later. Every accepted
// request gets exactly one response, in request order per port: a read returns the
// word as the bank held it when serving it (so a port reads its own earlier writes),
// a write returns an acknowledgement (rdata don't care) after the bank was written.
// Timing: a request accepted in cycle 0 is at its queue's head in cycle 1, where the
// bank serves it (RAM read or write at the end of cycle 1); in cycle 2 the bank's
// read register holds the data, which enters the response queue; in cycle 3
// m_resp_valid is 1. LATENCY = 3: the minimum (uncontended) number of cycles from
// the request handshake to m_resp_valid. With REQ_DEPTH >= 2, RESP_DEPTH >= 3 and
// m_resp_ready held at 1, every port completes one request per cycle when there are
// no conflicts. All outputs depend on registers only (conflicts is one). Reset empties
// the queues; it does not clear the RAM contents.
// Atomics (ATOMICS != 0: bit k set for each code k that can occur, the others'
// arithmetic left out): a request with s_req_atomic != 0 (clhls's atomic codes: 1 add,
// 2 sub, 3 xchg, 4 cmpxchg, 5 min, 6 max, 7 umin, 8 umax, 9 and, 10 or, 11 xor) is a
// read-modify-write of the bytes its strobes enable, computed per 32-bit lane (per
// 64-bit lane with s_req_wide) from the word, the lane of s_req_wdata (the operand)
// and of s_req_cmp (cmpxchg's expected value). Its bank serves it alone and writes the
// result back in the next cycle while serving the next request, whose read of the same
// word gets the result forwarded, so every request of any port sees atomics whole and
// a bank takes one atomic per cycle; it answers the word as it was before (the old
// value), with a read's timing. A bank writes once per cycle (one write port: a block
// RAM), so a plain write waits while a write-back is due (and counts as a conflict).
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
    parameter RESP_DEPTH = 8,   // response queue entries per port (>= 1; 3 for full throughput)
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
    localparam integer LATENCY = 3;                     // request handshake to m_resp_valid, uncontended
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
    localparam CNT_W     = $clog2(RESP_DEPTH + 1);      // response credit counter
    localparam CONF_W    = $clog2(NPORTS + 1);
    localparam integer RESP_DEPTH_INT = RESP_DEPTH;
    localparam [CNT_W-1:0] RESP_FULL = RESP_DEPTH_INT[CNT_W-1:0];

    // Heads of the request queues.
    wire [NPORTS-1:0]        head_valid;
    wire [NPORTS-1:0]        head_write;
    wire [NPORTS*IDX_W-1:0]  head_idx;
    wire [NPORTS*BSEL_W-1:0] head_bank;
    wire [NPORTS*BANKS-1:0]  head_bank_hot;  // the head's bank, one-hot (decoded on entry)
    wire [NPORTS*ROW_W-1:0]  head_row;
    wire [NPORTS*WORD_W-1:0] head_wdata;
    wire [NPORTS*WB-1:0]     head_wstrb;
    wire [NPORTS*4-1:0]      head_atomic;  // 0 without ATOMICS
    wire [NPORTS-1:0]        head_wide;
    wire [NPORTS*WORD_W-1:0] head_cmp;
    wire [NPORTS-1:0]        compete;      // head valid and the port has response credit
    reg  [NPORTS-1:0]        served;       // head served by its bank this cycle
    wire [BANKS*NPORTS-1:0]  bank_served;  // per bank: the ports it serves
    wire [BANKS*WORD_W-1:0]  bank_q;       // per bank: registered read data

    // Per port: served last cycle (its response is in the bank's read register now)
    // and from which bank.
    reg  [NPORTS-1:0]        pend;
    /* verilator lint_off UNUSEDSIGNAL */
    reg  [NPORTS*BSEL_W-1:0] pend_bank;  // (unused when every port is wired to one bank)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [NPORTS-1:0]        port_busy;  // per port: a request queued or a response owed

    integer b;

    // Per port: its head is a plain read (no write, no atomic); per pair of ports k, j
    // (bit k*NPORTS + j): their heads name the same row (the same word when they ask
    // the same bank).
    wire [NPORTS-1:0]        plain_read;
    reg  [NPORTS*NPORTS-1:0] same_row;
    // Per port k, bit k*NPORTS + j: port j is in k's read group, that is j is k, or
    // both heads are plain reads of the same row (of the same word when both ask one
    // bank): a bank that serves port j first serves port k with it.
    reg  [NPORTS*NPORTS-1:0] read_group;

    // Each pair of rows compared once (row_eq, k < j), the comparison mirrored for
    // j < k. Loops in processes, not a generate block per pair: with NPORTS^2 scopes,
    // a memory of a few hundred ports takes minutes to elaborate.
    /* verilator lint_off UNUSEDSIGNAL */  // (the pairs k < j only)
    reg  [NPORTS*NPORTS-1:0] row_eq;
    /* verilator lint_on UNUSEDSIGNAL */
    integer rk, rj;
    always @* begin
        row_eq = 0;
        for (rk = 0; rk < NPORTS; rk = rk + 1)
            for (rj = rk + 1; rj < NPORTS; rj = rj + 1)
                row_eq[rk*NPORTS + rj] = head_row[rk*ROW_W +: ROW_W] == head_row[rj*ROW_W +: ROW_W];
    end
    always @* begin
        for (rk = 0; rk < NPORTS; rk = rk + 1)
            for (rj = 0; rj < NPORTS; rj = rj + 1)
                same_row[rk*NPORTS + rj] = rj > rk ? row_eq[rk*NPORTS + rj]
                                         : rj < rk ? row_eq[rj*NPORTS + rk] : 1'b1;
        for (rk = 0; rk < NPORTS; rk = rk + 1)
            for (rj = 0; rj < NPORTS; rj = rj + 1)
                read_group[rk*NPORTS + rj] = rk == rj || (plain_read[rk] && plain_read[rj] &&
                                                          same_row[rk*NPORTS + rj]);
    end

    genvar p, g;
    generate
        for (p = 0; p < NPORTS; p = p + 1) begin : port
            reg  [CNT_W-1:0] used;  // responses queued or in flight
            reg              room;  // used != RESP_FULL: the port has response credit
            wire [IDX_W-1:0] in_idx = s_req_addr[p*ADDR_W + WB_BITS +: IDX_W];
            wire [BANKS-1:0] in_bank_hot;  // the bank of the request entering the queue
            /* verilator lint_off UNUSEDSIGNAL */
            wire [ADDR_W-1:0] unused_addr = s_req_addr[p*ADDR_W +: ADDR_W];  // low bits: byte in word
            wire [$clog2(REQ_DEPTH+1)-1:0]  rq_count;
            wire [$clog2(RESP_DEPTH+1)-1:0] rs_count;
            wire                            rs_ready;  // always 1: credit prevents overflow
            /* verilator lint_on UNUSEDSIGNAL */

            wire [REQ_W-1:0] rq_in, rq_out;
            assign {head_bank_hot[p*BANKS +: BANKS], head_write[p], head_idx[p*IDX_W +: IDX_W],
                    head_wdata[p*WORD_W +: WORD_W], head_wstrb[p*WB +: WB]} = rq_out[REQ_W-1:AT_W];
            if (BANK_BITS > 0) begin : bank_decode
                assign in_bank_hot = {{(BANKS-1){1'b0}}, 1'b1} << in_idx[BANK_BITS-1:0];
            end else begin : one_bank
                assign in_bank_hot = 1'b1;
            end
            if (ATOMICS != 0) begin : atomic_fields
                assign rq_in = {in_bank_hot, s_req_write[p], in_idx, s_req_wdata[p*WORD_W +: WORD_W],
                                s_req_wstrb[p*WB +: WB], s_req_atomic[4*p +: 4], s_req_wide[p],
                                s_req_cmp[p*WORD_W +: WORD_W]};
                assign {head_atomic[4*p +: 4], head_wide[p], head_cmp[p*WORD_W +: WORD_W]} =
                    rq_out[AT_W-1:0];
            end else begin : plain
                assign rq_in = {in_bank_hot, s_req_write[p], in_idx, s_req_wdata[p*WORD_W +: WORD_W],
                                s_req_wstrb[p*WB +: WB]};
                assign head_atomic[4*p +: 4] = 4'd0;
                assign head_wide[p] = 1'b0;
                assign head_cmp[p*WORD_W +: WORD_W] = {WORD_W{1'b0}};
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_atomic = ^{s_req_atomic[4*p +: 4], s_req_wide[p],
                                       s_req_cmp[p*WORD_W +: WORD_W]};
                /* verilator lint_on UNUSEDSIGNAL */
            end

            clhls_fifo #(.WIDTH(REQ_W), .DEPTH(REQ_DEPTH)) req_q (
                .clk(clk), .rst(rst),
                .s_valid(s_req_valid[p]), .s_ready(s_req_ready[p]), .s_data(rq_in),
                .m_valid(head_valid[p]), .m_ready(served[p]), .m_data(rq_out),
                .count(rq_count));

            if (BANK_BITS > 0) begin : banked
                assign head_bank[p*BSEL_W +: BSEL_W] = head_idx[p*IDX_W +: BANK_BITS];
            end else begin : single
                assign head_bank[p*BSEL_W +: BSEL_W] = 1'b0;
            end
            if (ROW_BITS > 0) begin : rows
                assign head_row[p*ROW_W +: ROW_W] = head_idx[p*IDX_W + BANK_BITS +: ROW_W];
            end else begin : one_row
                assign head_row[p*ROW_W +: ROW_W] = 1'b0;
            end

            assign plain_read[p] = !head_write[p] && head_atomic[4*p +: 4] == 4'd0;
            assign compete[p]   = head_valid[p] && room;
            assign port_busy[p] = head_valid[p] || (used != {CNT_W{1'b0}});

            // The credit flag steps with the count, from the count alone, so the
            // arbitration's result only chooses between two registered answers.
            wire pop = m_resp_valid[p] && m_resp_ready[p];
            wire last_credit = used == RESP_FULL - 1'b1;
            always @(posedge clk) begin
                if (rst) begin
                    used <= {CNT_W{1'b0}};
                    room <= 1'b1;
                end else if (served[p] && !pop) begin
                    used <= used + 1'b1;
                    room <= !last_credit;
                end else if (!served[p] && pop) begin
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

            clhls_fifo #(.WIDTH(WORD_W), .DEPTH(RESP_DEPTH)) resp_q (
                .clk(clk), .rst(rst),
                .s_valid(pend[p]), .s_ready(rs_ready),
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
            wire [NPORTS-1:0] req;             // ports whose head competes for this bank
            wire [NPORTS-1:0] win;             // the port served first: one-hot
            wire [2*NPORTS-1:0] first_in_order; // crossbar: win as found in the order
            reg               w_write;         // the winner's request
            reg  [ROW_W-1:0]  w_row;
            reg  [WORD_W-1:0] w_wdata;
            reg  [WB-1:0]     w_wstrb;
            reg  [3:0]        w_atomic;
            reg               w_wide;
            reg  [WORD_W-1:0] w_cmp;
            reg  [NPORTS-1:0] srv;             // ports served by this bank
            // An atomic served last cycle: its write-back (the bank is busy).
            reg               at_busy;
            reg  [11:0]       at_sel;          // its operation, one-hot (atomic_onehot)
            reg               at_wide;
            reg  [ROW_W-1:0]  at_row;
            reg  [WORD_W-1:0] at_wdata, at_cmp;
            reg  [WB-1:0]     at_wstrb;
            wire [WORD_W-1:0] at_new;          // the word after the operation, per lane
            wire              any    = |req;
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
                        asks[a] = compete[a] && head_bank_hot[a*BANKS + g] &&
                                  !(at_busy && head_write[a]);
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
                assign first_in_order = first;
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
                                               head_bank_hot[OWNER*BANKS + g]) &&
                            !(at_busy && head_write[OWNER]);
                assign req = {{(NPORTS-1){1'b0}}, asks} << OWNER;
                assign win = req;
                assign first_in_order = {2*NPORTS{1'b0}};
            end else begin : unused_bank
                assign req = {NPORTS{1'b0}};
                assign win = {NPORTS{1'b0}};
                assign first_in_order = {2*NPORTS{1'b0}};
            end

            always @* begin
                // The winner's fields: win is one-hot, so an AND-OR over the ports (a
                // chain of `if (win[k])` would be a priority multiplexer, a level per port).
                w_write = |(win & head_write);
                w_wide  = |(win & head_wide);
                w_row   = {ROW_W{1'b0}};
                w_wdata = {WORD_W{1'b0}};
                w_wstrb = {WB{1'b0}};
                w_atomic = 4'd0;
                w_cmp   = {WORD_W{1'b0}};
                for (k = 0; k < NPORTS; k = k + 1) begin
                    w_row    = w_row    | ({ROW_W{win[k]}}  & head_row[k*ROW_W +: ROW_W]);
                    w_wdata  = w_wdata  | ({WORD_W{win[k]}} & head_wdata[k*WORD_W +: WORD_W]);
                    w_wstrb  = w_wstrb  | ({WB{win[k]}}     & head_wstrb[k*WB +: WB]);
                    w_atomic = w_atomic | ({4{win[k]}}      & head_atomic[4*k +: 4]);
                    w_cmp    = w_cmp    | ({WORD_W{win[k]}} & head_cmp[k*WORD_W +: WORD_W]);
                end
                // A read winner takes along every (plain) read of the same word
                // (with static wiring the winner is the only port): a port asking
                // this bank is served when the first asking port of the arbitration's
                // order is in its read group, which was found before the arbitration,
                // so neither the winner nor its row is selected first.
                for (k = 0; k < NPORTS; k = k + 1)
                    srv[k] = STATIC == 0 ? req[k] && |(first_in_order & {2{read_group[k*NPORTS +: NPORTS]}})
                                         : win[k];
            end
            assign bank_served[g*NPORTS +: NPORTS] = srv;
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
            // writes back while a write-back is due); a read of the same row gets the
            // atomic's result.
            wire [ROW_W-1:0]  wr_row  = at_busy ? at_row : w_row;
            wire [WB-1:0]     wr_strb = at_busy ? at_wstrb : (any && w_write) ? w_wstrb : {WB{1'b0}};
            wire [WORD_W-1:0] wr_data = at_busy ? at_new : w_wdata;
            always @(posedge clk) begin
                for (j = 0; j < WB; j = j + 1)
                    if (wr_strb[j])
                        mem[wr_row][8*j +: 8] <= wr_data[8*j +: 8];
                // The read register takes the RAM's data alone (so that synthesis maps
                // the bank to a block RAM); a row the write-back changes in this cycle
                // is read from the forwarding register instead.
                if (any && !w_write) begin
                    ram_q    <= mem[w_row];
                    fwd      <= at_busy && w_row == at_row;
                    fwd_word <= at_word;
                end
            end

            always @(posedge clk) begin
                if (rst)
                    at_busy <= 1'b0;
                else
                    at_busy <= any && w_atomic != 4'd0;
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

    always @* begin
        served = {NPORTS{1'b0}};
        for (b = 0; b < BANKS; b = b + 1)
            served = served | bank_served[b*NPORTS +: NPORTS];
    end

    // The heads that competed and were not served, and their number, each a register
    // (the arbitration is deep already; the count follows it two cycles later).
    reg [NPORTS-1:0] refused;
    always @(posedge clk) begin
        if (rst || STATIC != 0) begin  // static wiring: no conflict, no counter logic
            refused   <= {NPORTS{1'b0}};
            conflicts <= {CONF_W{1'b0}};
        end else begin
            refused   <= compete & ~served;
            conflicts <= ones(refused);
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

    always @(posedge clk) begin
        if (rst)
            pend <= {NPORTS{1'b0}};
        else
            pend <= served;
        pend_bank <= head_bank;
    end

    assign idle = ~|port_busy;
endmodule

`default_nettype wire
