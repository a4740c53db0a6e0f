// clhls_lsu_store_ack: store unit that reports each store back once memory has it.
//
// Used for a store that a later memory access of the same work-item may read or
// overwrite: the pipeline offers the store at one stage and waits, at a later stage,
// for its acknowledgement (m_resp_valid), exactly as it waits for a load's data, so
// that the later access is issued only after memory holds the stored value.
//
// Back-to-back stores to one memory line become one write. A staging register holds
// the youngest write (line address, line data, byte enables and the number of stores
// it covers). An accepted store to the staged line merges into it: its bytes replace
// the staged ones (the later store wins), the byte enables add up, the count goes up.
// A store to another line pushes the staged write into a two-entry queue in front of
// the memory port and takes its place. The staged write is pushed in every cycle that
// brings no store merging into it, so it leaves one cycle after its last store unless
// the queue is full (it then stays staged, and may still merge, until the queue has
// room): the pipeline never waits for a store that nothing follows. Stores walking a
// line word by word, one per cycle, thus cost one memory write per line.
//
// The memory acknowledges every write once and in order; the store counts of the
// writes issued and not yet acknowledged wait in a queue, and each acknowledgement
// makes its write's stores acknowledged, from the cycle after it (a register between
// the interconnect's response and the counts). Acknowledgements are handed to the
// pipeline one per store, in store order. Capacity: at most DEPTH stores accepted and
// not yet acknowledged to the pipeline, so the counters never overflow, at most DEPTH
// writes are outstanding (each covers a store) and s_mem_resp_ready is always 1.
// A store enters through a register slice (clhls_skid), as in clhls_lsu_store: the
// pipeline's valid, late when it joins other units' readies, ends at a register
// instead of running on through the merge decision into the write queue, and
// s_req_ready is an AND of two registers. A store is acknowledged a cycle later for it.
// `idle` is a flag stepping with the count of unacknowledged stores (a register: the
// compute unit ANDs every unit's idle into its done).
// Needs clhls_fifo.v, clhls_skid.v.
`default_nettype none

module clhls_lsu_store_ack #(
    parameter DATA_W = 32,   // stored word width: a power of two from 8 to MEM_W
    parameter MEM_W  = 512,  // memory line width in bits (multiple of DATA_W, power of two)
    parameter DEPTH  = 128,  // stores accepted and not yet acknowledged to the pipeline (>= 1)
    parameter ADDR_W = 64,   // address bits the board decodes (lines are compared and queued on these alone)
    /* verilator lint_off UNUSEDPARAM */
    parameter CU     = 0,     // its compute unit's number in the accelerator (read by the simulation checks only)
    parameter UNIT   = 0      // its number in the compute unit (read by the simulation checks only)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire               clk,               // clock
    input  wire               rst,               // synchronous active-high reset
    input  wire               s_req_valid,       // pipeline offers a store
    output wire               s_req_ready,       // the unit takes it
    input  wire [63:0]        s_req_addr,        // byte address, aligned to DATA_W/8
    input  wire [DATA_W-1:0]  s_req_data,        // data to store
    output wire               m_resp_valid,      // the oldest unacknowledged store is in memory
    input  wire               m_resp_ready,      // pipeline takes the acknowledgement
    output wire               m_mem_req_valid,   // write request to the memory/interconnect
    input  wire               m_mem_req_ready,   // request taken
    output wire [63:0]        m_mem_req_addr,    // line address (aligned to MEM_W/8 bytes)
    output wire [MEM_W-1:0]   m_mem_req_wdata,   // line data (the merged words in their lanes)
    output wire [MEM_W/8-1:0] m_mem_req_wstrb,   // byte enables of the merged words
    input  wire               s_mem_resp_valid,  // write acknowledgement from memory
    output wire               s_mem_resp_ready,  // always 1
    output wire               idle,              // nothing accepted and unacknowledged
    output wire               count_write,       // pulse: one memory write issued
    output wire               still              // the next edge changes nothing (simulation; 0 in synthesis)
);
    localparam WORDS     = MEM_W / DATA_W;                       // words per line
    localparam STRB_W    = MEM_W / 8;                            // byte enables per line
    localparam WORD_B    = DATA_W / 8;                           // bytes per word
    localparam LINE_BITS = $clog2(MEM_W / 8);                    // byte-offset bits of a line
    localparam LN_W      = ADDR_W - LINE_BITS;                   // line-number bits decoded
    localparam WORD_BITS = $clog2(DATA_W / 8);                   // byte-offset bits of a word
    localparam IDX_W     = (WORDS > 1) ? $clog2(WORDS) : 1;      // word index width
    localparam [IDX_W-1:0] IDX_MASK = (WORDS > 1) ? {IDX_W{1'b1}} : {IDX_W{1'b0}};
    localparam CNT_W     = $clog2(DEPTH + 1);
    localparam integer DEPTH_INT = DEPTH;
    localparam [CNT_W-1:0] FULL = DEPTH_INT[CNT_W-1:0];
    localparam WQ_W      = LN_W + MEM_W + STRB_W + CNT_W;        // one queued write and its store count

    reg [CNT_W-1:0] pending;  // stores accepted and not yet acknowledged to the pipeline
    reg             room;     // pending != DEPTH (a flag stepping with the count)
    reg             none;     // pending == 0 (a flag stepping with it: `idle` is a register)
    reg [CNT_W-1:0] acked;    // of those, the ones memory has acknowledged
    // Beside each count, its value minus one and its flags are registers too, so the
    // pipeline's handshakes (accept, deliver), which come late through the compute
    // unit's joins, only select among values computed from registers.
    reg [CNT_W-1:0] pending_less;  // pending - 1
    reg [CNT_W-1:0] acked_less;    // acked - 1
    reg             any_acked;     // acked != 0: m_resp_valid

    // The store as the slice presents it.
    wire              slice_ready;
    wire              in_valid;
    wire              in_ready;
    wire [63:0]       in_addr;
    wire [DATA_W-1:0] in_data;
    assign s_req_ready = room && slice_ready;
    wire   accept      = s_req_valid && s_req_ready;  // a store enters the slice
    clhls_skid #(.WIDTH(64 + DATA_W)) input_slice (
        .clk(clk), .rst(rst),
        .s_valid(s_req_valid && room), .s_ready(slice_ready), .s_data({s_req_addr, s_req_data}),
        .m_valid(in_valid), .m_ready(in_ready), .m_data({in_addr, in_data}));

    /* verilator lint_off UNUSEDSIGNAL */
    wire [63:0]      word_addr  = in_addr >> WORD_BITS;  // low bits: word index
    /* verilator lint_on UNUSEDSIGNAL */
    wire [IDX_W-1:0] word_index = word_addr[IDX_W-1:0] & IDX_MASK;
    // The line's number in the address bits the board decodes: two addresses that
    // differ only above them are the same memory line.
    wire [LN_W-1:0]  line_number = in_addr[LINE_BITS +: LN_W];
    // The stored word's lane is picked by comparing the word index with constants, never
    // by a shift or a variable part-select (a line-wide shifter with its index arithmetic
    // in front of every bit of the staged data).
    reg [STRB_W-1:0] word_strb;  // byte enables of the stored word
`ifdef CLHLS_SIM_MODELS
    // The simulation (never synthesis) shifts, which it evaluates in a few instructions
    // instead of a comparison per word; `-clhls-rtl-operators` simulates the comparisons.
    always @(*) word_strb = ~({STRB_W{1'b1}} << WORD_B) << (WORD_B * word_index);
`else
    integer k, w;
    always @(*)
        for (k = 0; k < WORDS; k = k + 1)
            word_strb[WORD_B*k +: WORD_B] = {WORD_B{word_index == k[IDX_W-1:0]}};
`endif

    reg               staged_valid;   // the staging register holds a write
    reg  [LN_W-1:0]   staged_line;    // its line's number
    reg  [MEM_W-1:0]  staged_data;    // its data: the merged stores' words in their lanes
    reg  [STRB_W-1:0] staged_strb;    // its byte enables: the merged stores' bytes
    reg  [CNT_W-1:0]  staged_stores;  // stores it covers (1..DEPTH)

    wire wq_s_ready;
    wire [1:0] wq_count;
    wire [CNT_W-1:0] write_stores;    // stores covered by the write at the memory port
    wire [LN_W-1:0]  write_line;      // the number of its line
    // The staged write must be able to leave before a store to another line replaces
    // it; a store to its line could merge even with the queue full, but telling the two
    // apart would put the address comparison in front of the slice's handshake.
    assign in_ready = !staged_valid || wq_s_ready;
    wire take      = in_valid && in_ready;  // the store leaves the slice for the staging register
    wire deliver   = m_resp_valid && m_resp_ready;
    wire merge     = take && staged_valid && (line_number == staged_line);
    wire push      = staged_valid && wq_s_ready && !merge;  // the staged write leaves

    clhls_fifo #(.WIDTH(WQ_W), .DEPTH(2)) write_queue (
        .clk(clk), .rst(rst),
        .s_valid(push), .s_ready(wq_s_ready),
        .s_data({staged_line, staged_stores, staged_strb, staged_data}),
        .m_valid(m_mem_req_valid), .m_ready(m_mem_req_ready),
        .m_data({write_line, write_stores, m_mem_req_wstrb, m_mem_req_wdata}),
        .count(wq_count)
    );
    assign m_mem_req_addr = {{(64 - LN_W){1'b0}}, write_line} << LINE_BITS;

    // Store counts of the writes issued and not yet acknowledged, oldest first. At most
    // DEPTH: each covers at least one store accepted and not yet acknowledged to the
    // pipeline, so the queue has room whenever a write is issued.
    wire             counts_s_ready, counts_m_valid;
    wire [CNT_W-1:0] counts_count;
    wire [CNT_W-1:0] acked_write_stores;  // stores covered by the oldest outstanding write
    clhls_fifo #(.WIDTH(CNT_W), .DEPTH(DEPTH)) issued_counts (
        .clk(clk), .rst(rst),
        .s_valid(count_write), .s_ready(counts_s_ready), .s_data(write_stores),
        .m_valid(counts_m_valid), .m_ready(s_mem_resp_valid), .m_data(acked_write_stores),
        .count(counts_count)
    );
    // The acknowledgement is registered before the counts add it: it comes from the
    // interconnect's response routing, which decodes the answering unit from the
    // response's tag, and that decode in series with the adders below was the unit's
    // longest path (sim_dc, 7 LUT levels and a carry chain).
    reg              ack_valid;   // memory acknowledged a write in the cycle before
    reg  [CNT_W-1:0] ack_stores;  // the stores that write covers
    always @(posedge clk) begin
        ack_valid  <= !rst && s_mem_resp_valid;
        ack_stores <= acked_write_stores;
    end
    wire [CNT_W-1:0] newly_acked = ack_valid ? ack_stores : {CNT_W{1'b0}};
    // acked + newly_acked <= pending <= DEPTH: no overflow
    wire [CNT_W-1:0] acked_kept       = acked + newly_acked;       // next acked without a delivery
    wire [CNT_W-1:0] acked_taken      = acked_less + newly_acked;  // with one
    wire [CNT_W-1:0] acked_taken_less = acked_taken - 1'b1;

    assign m_resp_valid     = any_acked;
    assign s_mem_resp_ready = 1'b1;
    assign count_write      = m_mem_req_valid && m_mem_req_ready;
    assign idle             = none;

    // The pending count with its value less one and its flags, one store more and one
    // fewer. Both handshakes come late through the compute unit's joins; the delivery
    // picks between them first and the accept, the later (it runs through the node's
    // readies and back), last: one LUT from it to each register. Kept as nets:
    // synthesis, which sees this module's inputs arrive at once, would otherwise merge
    // the choices and put the accept three LUTs before the registers.
    localparam CS_W = 2 * CNT_W + 2;
    wire [CS_W-1:0] count_same = {pending, pending_less, room, none};
    wire [CS_W-1:0] count_more = {pending + 1'b1, pending, pending != FULL - 1'b1, 1'b0};
    wire [CS_W-1:0] count_less = {pending_less, pending_less - 1'b1, 1'b1,
                                  pending == {{(CNT_W - 1){1'b0}}, 1'b1}};
    (* keep *) wire [CS_W-1:0] count_if_accept = deliver ? count_same : count_more;
    (* keep *) wire [CS_W-1:0] count_if_none   = deliver ? count_less : count_same;

    always @(posedge clk) begin
        if (rst) begin
            pending      <= {CNT_W{1'b0}};
            pending_less <= {CNT_W{1'b1}};
            none         <= 1'b1;
            room         <= 1'b1;
            acked        <= {CNT_W{1'b0}};
            acked_less   <= {CNT_W{1'b1}};
            any_acked    <= 1'b0;
            staged_valid <= 1'b0;
        end else begin
            {pending, pending_less, room, none} <= accept ? count_if_accept : count_if_none;
            acked      <= deliver ? acked_taken : acked_kept;
            acked_less <= deliver ? acked_taken_less : acked_taken;
            // Every write covers a store, so newly_acked != 0 exactly when an
            // acknowledgement arrived (ack_valid); with a delivery, acked >= 1, so
            // acked - 1 != 0 is acked_less != 0 (a compare of a register): no compare
            // after the adder.
            any_acked  <= ack_valid || (deliver ? acked_less != {CNT_W{1'b0}} : any_acked);
            if (take)
                staged_valid <= 1'b1;
            else if (push)
                staged_valid <= 1'b0;
        end
    end

    always @(posedge clk) begin
        if (take) begin
            staged_line <= line_number;
`ifdef CLHLS_SIM_MODELS
            staged_data[DATA_W * word_index +: DATA_W] <= in_data;  // as word_strb's shift
`else
            for (w = 0; w < WORDS; w = w + 1)
                if (word_index == w[IDX_W-1:0])
                    staged_data[DATA_W*w +: DATA_W] <= in_data;
`endif
            staged_strb <= (merge ? staged_strb : {STRB_W{1'b0}}) | word_strb;
            staged_stores <= merge ? staged_stores + 1'b1 : {{(CNT_W - 1){1'b0}}, 1'b1};
        end
    end

    // No store enters, stages, leaves or is acknowledged (the simulator's jumps over
    // cycles where nothing moves; ack_stores is read only with ack_valid).
`ifdef CLHLS_SIM_CHECKS
    assign still = !accept && !take && !push && !deliver && !count_write && !s_mem_resp_valid &&
                   !ack_valid;
`else
    assign still = 1'b0;
`endif

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_counts = ^{wq_count, counts_s_ready, counts_m_valid, counts_count};
    /* verilator lint_on UNUSEDSIGNAL */
`ifdef CLHLS_SIM_CHECKS
    localparam [7:0] SIM_ACCESS_KIND = 8'd1; // a store (clhls_sim_checks.vh)
    `include "clhls_sim_checks.vh"
`endif
endmodule

`default_nettype wire
