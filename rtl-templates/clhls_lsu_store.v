// clhls_lsu_store: store unit that merges consecutive stores into one line write.
//
// Stores (byte address aligned to DATA_W/8, data) are merged into the "open line"
// (data plus byte enables) as long as they fall in the same MEM_W-bit memory line;
// later stores to the same byte win. The open line is written out (one memory write
// with byte enables) when a store to another line arrives, when IDLE_FLUSH cycles
// pass without a store, or from the cycle after `flush` rises (while it stays high and no
// store arrives; `flush` is registered first: it is the compute unit's wide "drained"
// condition, which would otherwise run on into the write queue).
// A store enters through a register slice (clhls_skid): s_req_ready is the slice's
// registered flag, and the pipeline's valid, which comes late from whatever produced the
// stored value (a load unit's answer, for one), ends at a register instead of running on
// through the merge into the write queue. Writes wait in a two-entry queue in front of
// the memory port; consecutive stores go at one per cycle, one cycle after they enter.
// The memory acknowledges every write once; `idle` is 1 when no store waits in the
// slice, no line is open, no write waits and every write was acknowledged (from the
// cycle after the last acknowledgement: it is registered before it is counted).
// Needs clhls_fifo.v, clhls_skid.v.
`default_nettype none

module clhls_lsu_store #(
    parameter DATA_W     = 32,   // stored word width: a power of two from 8 to MEM_W
    parameter MEM_W      = 512,  // memory line width in bits (multiple of DATA_W, power of two)
    parameter IDLE_FLUSH = 4,    // cycles without a store before the open line is written (>= 1)
    parameter ADDR_W     = 64,   // address bits the board decodes (lines are compared and queued on these alone)
    /* verilator lint_off UNUSEDPARAM */
    parameter CU         = 0,    // its compute unit's number in the accelerator (read by the simulation checks only)
    parameter UNIT       = 0     // its number in the compute unit (read by the simulation checks only)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire               clk,               // clock
    input  wire               rst,               // synchronous active-high reset
    input  wire               s_req_valid,       // pipeline offers a store
    output wire               s_req_ready,       // the unit takes it
    input  wire [63:0]        s_req_addr,        // byte address, aligned to DATA_W/8
    input  wire [DATA_W-1:0]  s_req_data,        // data to store
    input  wire               flush,             // write the open line out (from the next cycle)
    output wire               m_mem_req_valid,   // write request to the memory/interconnect
    input  wire               m_mem_req_ready,   // request taken
    output wire [63:0]        m_mem_req_addr,    // line address (aligned to MEM_W/8 bytes)
    output wire [MEM_W-1:0]   m_mem_req_wdata,   // line data
    output wire [MEM_W/8-1:0] m_mem_req_wstrb,   // byte enables
    input  wire               s_mem_resp_valid,  // write acknowledgement
    output wire               s_mem_resp_ready,  // always 1
    output wire               idle,              // nothing pending, everything acknowledged
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
    localparam IDLE_W    = $clog2(IDLE_FLUSH + 1);
    localparam integer IDLE_INT = IDLE_FLUSH;
    localparam [IDLE_W-1:0] IDLE_LIMIT = IDLE_INT[IDLE_W-1:0];
    localparam WQ_W      = LN_W + MEM_W + STRB_W;                // one queued write

    // The store as the slice presents it.
    wire              in_valid;
    wire              in_ready;
    wire [63:0]       in_addr;
    wire [DATA_W-1:0] in_data;
    clhls_skid #(.WIDTH(64 + DATA_W)) input_slice (
        .clk(clk), .rst(rst),
        .s_valid(s_req_valid), .s_ready(s_req_ready), .s_data({s_req_addr, s_req_data}),
        .m_valid(in_valid), .m_ready(in_ready), .m_data({in_addr, in_data}));

    /* verilator lint_off UNUSEDSIGNAL */
    wire [63:0]      word_addr  = in_addr >> WORD_BITS;  // low bits: word index
    /* verilator lint_on UNUSEDSIGNAL */
    wire [IDX_W-1:0] word_index = word_addr[IDX_W-1:0] & IDX_MASK;
    // The line's number in the address bits the board decodes: two addresses that
    // differ only above them are the same memory line.
    wire [LN_W-1:0]  line_number = in_addr[LINE_BITS +: LN_W];

    reg               open_valid;   // a line is being merged
    reg  [LN_W-1:0]   open_line;    // its number
    reg  [MEM_W-1:0]  open_data;    // merged data
    reg  [STRB_W-1:0] open_strb;    // bytes written so far
    reg  [IDLE_W-1:0] idle_cycles;  // cycles since the last store (saturates)
    reg  [31:0]       outstanding;  // writes issued and not yet acknowledged
    reg               none_outstanding; // outstanding == 0 (a register: `idle` is one gate)
    reg               flush_seen;   // flush, a cycle later
    // An acknowledgement, a cycle later: the interconnect decodes the answering unit
    // from the response's tag, and that decode in series with the count's adder and
    // compare was prefix_sum's longest path on sim_dc.
    reg               acked;
    // A write issued, a cycle later: the count steps with a register, so the memory
    // port's ready (through the route of a board of several ports) does not run on
    // into the count's adder. `idle` waits for it too.
    reg               written;

    wire wq_s_ready, wq_m_valid;
    wire [1:0] wq_count;
    wire [LN_W-1:0] write_line;  // the number of the line at the memory port

    assign in_ready = wq_s_ready;
    wire store     = in_valid && in_ready;
    wire same_line = open_valid && (line_number == open_line);
    wire evict     = store && open_valid && !same_line;
    wire drain     = !store && open_valid && wq_s_ready &&
                     (flush_seen || idle_cycles >= IDLE_LIMIT);
    wire push      = evict || drain;

    // Byte enables of the stored word. Words are picked by comparing the word index
    // with constants, never by a shift (which would be a line-wide barrel shifter).
    reg [STRB_W-1:0] word_strb;
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

    clhls_fifo #(.WIDTH(WQ_W), .DEPTH(2)) write_queue (
        .clk(clk), .rst(rst),
        .s_valid(push), .s_ready(wq_s_ready), .s_data({open_line, open_data, open_strb}),
        .m_valid(wq_m_valid), .m_ready(m_mem_req_ready),
        .m_data({write_line, m_mem_req_wdata, m_mem_req_wstrb}),
        .count(wq_count)
    );

    assign m_mem_req_valid  = wq_m_valid;
    assign m_mem_req_addr   = {{(64 - LN_W){1'b0}}, write_line} << LINE_BITS;
    assign count_write      = m_mem_req_valid && m_mem_req_ready;
    assign s_mem_resp_ready = 1'b1;
    assign idle = !in_valid && !open_valid && !wq_m_valid && !written && none_outstanding;

    always @(posedge clk) begin
        if (rst) begin
            open_valid  <= 1'b0;
            idle_cycles <= {IDLE_W{1'b0}};
            outstanding <= 32'd0;
            none_outstanding <= 1'b1;
            flush_seen  <= 1'b0;
            acked       <= 1'b0;
            written     <= 1'b0;
        end else begin
            flush_seen <= flush;
            acked      <= s_mem_resp_valid;
            written    <= count_write;
            if (store) begin
                open_valid  <= 1'b1;
                idle_cycles <= {IDLE_W{1'b0}};
            end else begin
                if (drain)
                    open_valid <= 1'b0;
                if (open_valid && idle_cycles != IDLE_LIMIT)
                    idle_cycles <= idle_cycles + 1'b1;
            end
            if (written && !acked) begin
                outstanding      <= outstanding + 32'd1;
                none_outstanding <= 1'b0;
            end else if (!written && acked) begin
                outstanding      <= outstanding - 32'd1;
                none_outstanding <= outstanding == 32'd1;
            end
        end
    end

    always @(posedge clk) begin
        if (store) begin
            open_line <= line_number;
`ifdef CLHLS_SIM_MODELS
            open_data[DATA_W * word_index +: DATA_W] <= in_data;  // as word_strb's shift
`else
            for (w = 0; w < WORDS; w = w + 1)
                if (word_index == w[IDX_W-1:0])
                    open_data[DATA_W*w +: DATA_W] <= in_data;
`endif
            open_strb <= (same_line ? open_strb : {STRB_W{1'b0}}) | word_strb;
        end
    end

    // Nothing enters, merges, drains or leaves, no acknowledgement arrives and no idle
    // count runs (the simulator's jumps over cycles where nothing moves).
`ifdef CLHLS_SIM_CHECKS
    assign still = !(s_req_valid && s_req_ready) && !store && !push && !count_write &&
                   !written && !acked && !s_mem_resp_valid && flush_seen == flush &&
                   !(open_valid && idle_cycles != IDLE_LIMIT);
`else
    assign still = 1'b0;
`endif

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_count = ^wq_count;
    /* verilator lint_on UNUSEDSIGNAL */
`ifdef CLHLS_SIM_CHECKS
    localparam [7:0] SIM_ACCESS_KIND = 8'd1; // a store (clhls_sim_checks.vh)
    `include "clhls_sim_checks.vh"
`endif
endmodule

`default_nettype wire
