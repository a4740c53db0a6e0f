// clhls_barrier: work-group barrier with ordered release.
//
// Work-items arrive (s_*) in any order, each with its group's slot, its local linear
// id and the group's actual size; their tokens (s_data) are written into a RAM with
// one entry per (slot, local id): SLOTS * 2^LID_W entries of W bits, one write port
// (arrivals) and one synchronous read port (release). A per-slot counter counts the
// arrivals; the arrival that makes it reach s_size completes the slot: the counter
// restarts from 0 in the same cycle and the slot enters a queue of completed slots
// (completion order). The releaser takes the oldest completed slot and reads its
// entries in ascending local id 0..size-1, one per cycle, into a 4-entry output
// queue (m_valid, m_data from registers); after the last entry of a slot it goes on
// with the next completed slot in the next cycle, without a bubble. A barrier never
// refuses an arrival: s_ready is constant 1 (arrivals during reset are dropped).
// The caller guarantees at most one outstanding arrival per (slot, local id): an
// entry is written again (the next trip round a loop, or the next group placed in
// the slot) only after the work-item it held has been released (m_valid &&
// m_ready), so the slot can take new arrivals while it is being released and other
// slots arrive and complete meanwhile. Timing: the arrival completing an idle barrier's slot in cycle
// 0 has the slot's first work-item at m_valid in cycle 4 (queue, RAM read, output
// queue); thereafter one work-item per cycle while m_ready is 1. held counts the
// work-items arrived and not yet released; waiting is 1 while some slot has arrivals
// and is not complete (both from registers).
// Needs clhls_fifo.v.
`default_nettype none

module clhls_barrier #(
    parameter W      = 32,  // bits of the work-item token carried through (>= 1)
    parameter SLOTS  = 2,   // work-group slots (>= 1)
    parameter SLOT_W = 1,   // bits of a slot number (>= 1, SLOTS <= 2^SLOT_W)
    parameter LID_W  = 4    // bits of a local linear id: at most 2^LID_W work-items a group (>= 0)
) (
    input  wire                             clk,      // clock
    input  wire                             rst,      // synchronous active-high reset
    input  wire                             s_valid,  // a work-item arrives at the barrier
    output wire                             s_ready,  // constant 1: an arrival is never refused
    input  wire [SLOT_W-1:0]                s_slot,   // its group's slot (< SLOTS)
    input  wire [(LID_W > 0 ? LID_W : 1)-1:0] s_lid,  // its local linear id (< s_size; one bit, 0, when LID_W = 0)
    input  wire [LID_W:0]                   s_size,   // its group's number of work-items, 1..2^LID_W
    input  wire [W-1:0]                     s_data,   // its token
    output wire                             m_valid,  // a released work-item is offered (registered)
    input  wire                             m_ready,  // the consumer takes it
    output wire [W-1:0]                     m_data,   // its token, as it arrived
    output reg  [LID_W+SLOT_W:0]            held,     // work-items arrived and not yet released
    output wire                             waiting   // some slot has arrivals and is not complete
);
    localparam LW       = (LID_W > 0) ? LID_W : 1;     // width of the s_lid port
    localparam ENTRIES  = SLOTS << LID_W;               // RAM entries
    localparam AW       = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;  // RAM address bits
    localparam CQ_W     = SLOT_W + LID_W + 1;           // completed slot: slot, size - 1
    localparam OUT_DEPTH = 4;                           // output queue entries
    localparam HELD_W   = LID_W + SLOT_W + 1;

    reg  [W-1:0] ram [0:ENTRIES-1];  // one token per (slot, local id)
    reg  [W-1:0] rd_data;            // registered read port
    reg          rd_pend;            // rd_data holds an entry read last cycle

    // ---- arrivals ----
    localparam CW = LID_W + 1;             // arrival counter bits
    reg  [SLOTS*CW-1:0] cnt;             // per slot: arrivals of its incomplete group
    reg  [LID_W:0]      cur_cnt;         // the arriving slot's counter
    reg  [SLOTS-1:0]    partial;         // per slot: counter nonzero
    wire               arrive   = s_valid && s_ready;
    wire               complete = arrive && (cur_cnt + 1'b1 == s_size);
    integer i;

    always @* begin
        cur_cnt = {(LID_W+1){1'b0}};
        for (i = 0; i < SLOTS; i = i + 1)
            if (s_slot == i[SLOT_W-1:0])
                cur_cnt = cnt[i*CW +: CW];
        for (i = 0; i < SLOTS; i = i + 1)
            partial[i] = (cnt[i*CW +: CW] != {CW{1'b0}});
    end
    assign waiting = |partial;
    assign s_ready = 1'b1;

    always @(posedge clk) begin
        if (rst) begin
            cnt <= {(SLOTS*CW){1'b0}};
        end else begin
            for (i = 0; i < SLOTS; i = i + 1)
                if (arrive && s_slot == i[SLOT_W-1:0])
                    cnt[i*CW +: CW] <= complete ? {CW{1'b0}} : cur_cnt + 1'b1;
        end
    end

    // Entry addresses: slot * 2^LID_W + local id.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [SLOT_W+LW-1:0] wr_addr_full = ({{LW{1'b0}}, s_slot} << LID_W) |
                                        {{SLOT_W{1'b0}}, (LID_W > 0) ? s_lid : {LW{1'b0}}};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [AW-1:0] wr_addr = wr_addr_full[AW-1:0];

    // ---- completed slots ----
    wire              cq_valid;
    wire [CQ_W-1:0]   cq_data;
    wire              cq_pop;
    /* verilator lint_off UNUSEDSIGNAL */
    wire              cq_ready;  // always 1: a slot is queued or being released at most once
    wire [$clog2(SLOTS+1)-1:0] cq_count;
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_fifo #(.WIDTH(CQ_W), .DEPTH(SLOTS)) done_q (
        .clk(clk), .rst(rst),
        .s_valid(complete), .s_ready(cq_ready), .s_data({s_slot, s_size - 1'b1}),
        .m_valid(cq_valid), .m_ready(cq_pop), .m_data(cq_data), .count(cq_count));

    // ---- releaser ----
    reg              rel_active;  // a slot is being released
    reg [SLOT_W-1:0] rel_slot;    // which
    reg [LID_W:0]    rel_lid;     // local id of the next entry to read
    reg [LID_W:0]    rel_last;    // its size - 1
    wire [2:0]       oq_count;    // output queue occupancy
    wire             credit     = ({1'b0, oq_count} + {3'b0, rd_pend}) < 4'd4;
    wire             issue      = rel_active && credit;
    wire             issue_last = issue && (rel_lid == rel_last);
    assign cq_pop = cq_valid && (!rel_active || issue_last);

    /* verilator lint_off UNUSEDSIGNAL */
    wire [SLOT_W+LW-1:0] rd_addr_full = ({{LW{1'b0}}, rel_slot} << LID_W) |
                                        {{SLOT_W{1'b0}}, (LID_W > 0) ? rel_lid[LW-1:0] : {LW{1'b0}}};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [AW-1:0] rd_addr = rd_addr_full[AW-1:0];

    always @(posedge clk) begin
        if (rst) begin
            rel_active <= 1'b0;
            rd_pend    <= 1'b0;
        end else begin
            rd_pend <= issue;
            if (cq_pop) begin
                rel_active <= 1'b1;
                rel_slot   <= cq_data[CQ_W-1 -: SLOT_W];
                rel_last   <= cq_data[LID_W:0];
                rel_lid    <= {(LID_W+1){1'b0}};
            end else if (issue_last) begin
                rel_active <= 1'b0;
            end else if (issue) begin
                rel_lid <= rel_lid + 1'b1;
            end
        end
    end

    always @(posedge clk) begin
        if (arrive)
            ram[wr_addr] <= s_data;
        if (issue)
            rd_data <= ram[rd_addr];
    end

    /* verilator lint_off UNUSEDSIGNAL */
    wire oq_ready;  // always 1: credit covers the read in flight
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_fifo #(.WIDTH(W), .DEPTH(OUT_DEPTH)) out_q (
        .clk(clk), .rst(rst),
        .s_valid(rd_pend), .s_ready(oq_ready), .s_data(rd_data),
        .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data), .count(oq_count));

    // ---- probes ----
    wire release_one = m_valid && m_ready;
    always @(posedge clk) begin
        if (rst)
            held <= {HELD_W{1'b0}};
        else if (arrive && !release_one)
            held <= held + 1'b1;
        else if (!arrive && release_one)
            held <= held - 1'b1;
    end
endmodule

`default_nettype wire
