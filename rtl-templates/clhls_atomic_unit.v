// clhls_atomic_unit: executes global atomics between clhls_mem_interconnect and the
// board's memory port, so the memory only ever sees reads and writes.
//
// Upstream (s_req_*, m_resp_*) it takes the interconnect's requests: plain reads and
// writes, and atomics (s_req_atomic != 0, clhls's codes from clhls_atomic_ops.vh; the
// element's byte address in s_req_addr, operand in wdata[63:0], cmpxchg's expected
// value in wdata[127:64], the element's size as strobes from lane 0: 4 or 8 bytes).
// It answers every request once, with the requester's tag, in request order (a read
// with the memory's line, a write with an acknowledgement, an atomic with the
// element's old value in rdata[63:0], zero-extended).
// Downstream (m_mem_req_*, s_mem_resp_*) every request carries the tag 0, so the
// memory answers all of them in request order; the unit keeps one entry per request in
// flight (a DEPTH-entry queue: requester tag, what to answer) and pairs it with the
// memory's next response. At most DEPTH requests are in flight, so one request per
// cycle needs DEPTH above the memory's latency (the answers of a miss's earlier
// requests are not waited for: the responses are in order anyway).
// Cache: LINES lines of one port word each (direct mapped on the line address, tags
// and data in a RAM, valid bits in registers), holding the words atomics used
// recently. Each request spends one cycle in the unit's stage (its line was read from
// the RAM when it was accepted). An atomic whose line is cached (a hit) computes the new
// element there, updates the line and writes the element through to memory (its
// strobes only); its answer, the old element, rides on that write's acknowledgement,
// so it stays in order behind everything issued before it. An atomic that misses
// reads the line (a fill) and waits in the stage, taking nothing new, until the fill
// returns and is installed; it then hits. A plain write that hits merges its enabled
// bytes into the line (write-through keeps memory equal to every line). Plain reads
// pass. Memory thus receives every request in the order the unit takes them, and an
// atomic's read, operation and write happen with nothing else in between: other
// units' loads and stores see the element before or after, never between. Atomics to
// cached lines run at one per cycle, back to back on one element too (the line just
// written is forwarded to the next request). `invalidate` (a kernel start: the host
// may have written memory behind the unit's back) clears every valid bit; a fill in
// flight then is not installed.
// Timing: a request accepted in cycle 0 is issued to memory in cycle 1 (a hit or a
// plain access), its memory request is presented from cycle 2 (register slice); the
// answer is the memory's response, routed combinationally. A miss costs the memory's
// latency once: 16 lines of 64 bytes hold a 256-bin histogram of 32-bit counts.
// Why write-through and whole lines: memory stays equal to the cache, so plain reads
// need no lookup and nothing is ever written back; a plain write touches at most one
// line, so it updates the cache in the same single cycle.
// Needs clhls_fifo.v, clhls_skid.v, clhls_atomic_ops.vh. MEM_W >= 128.
`default_nettype none

module clhls_atomic_unit #(
    parameter MEM_W  = 512, // memory port width in bits (>= 128, a power of two)
    parameter TAG_W  = 16,  // tag width
    parameter ADDR_W = 64,  // address bits the memory decodes (the rest are taken as 0)
    parameter LINES  = 16,  // cached lines (a power of two >= 1)
    parameter DEPTH  = 128  // requests in flight to memory at most (>= 2)
) (
    input  wire               clk,              // clock
    input  wire               rst,              // synchronous active-high reset (empties the cache)
    input  wire               invalidate,       // pulse: a kernel starts, forget every cached line
    input  wire               s_req_valid,      // a request is offered
    output wire               s_req_ready,      // the unit takes it
    input  wire               s_req_write,      // 1 = write, 0 = read (ignored for an atomic)
    input  wire [3:0]         s_req_atomic,     // atomic operation code, 0 = plain access
    input  wire [63:0]        s_req_addr,       // byte address (an atomic's: the element's)
    input  wire [MEM_W-1:0]   s_req_wdata,      // write data; an atomic's operand and compare value
    input  wire [MEM_W/8-1:0] s_req_wstrb,      // byte enables; an atomic's size from lane 0
    input  wire [TAG_W-1:0]   s_req_tag,        // requester's tag, echoed in the answer
    output wire               m_resp_valid,     // an answer is offered
    input  wire               m_resp_ready,     // the requester takes it
    output wire [MEM_W-1:0]   m_resp_rdata,     // read data, or an atomic's old element
    output wire [TAG_W-1:0]   m_resp_tag,       // tag of the answered request
    output wire               m_mem_req_valid,  // memory request valid
    input  wire               m_mem_req_ready,  // memory takes the request
    output wire               m_mem_req_write,  // 1 = write, 0 = read
    output wire [63:0]        m_mem_req_addr,   // byte address
    output wire [MEM_W-1:0]   m_mem_req_wdata,  // write data
    output wire [MEM_W/8-1:0] m_mem_req_wstrb,  // write byte enables
    output wire [TAG_W-1:0]   m_mem_req_tag,    // always 0: one order for every request
    input  wire               s_mem_resp_valid, // memory response valid
    output wire               s_mem_resp_ready, // the unit takes it
    input  wire [MEM_W-1:0]   s_mem_resp_rdata, // read data
    input  wire [TAG_W-1:0]   s_mem_resp_tag    // always 0 (ignored)
);
    localparam PB     = MEM_W / 8;                  // bytes per line
    localparam OFF_W  = $clog2(PB);                 // byte-offset bits of a line
    localparam LANE_W = OFF_W - 2;                  // 32-bit lane index bits
    localparam LANES  = MEM_W / 32;                 // 32-bit lanes per line
    localparam IDX_B  = $clog2(LINES);              // line index bits
    localparam IDX_W  = IDX_B > 0 ? IDX_B : 1;
    localparam LTAG_W = ADDR_W - OFF_W - IDX_B;     // line tag bits
    localparam ENTRY_W = LTAG_W + MEM_W;            // one cache RAM entry: tag, data
    localparam REQ_W  = 1 + 64 + MEM_W + PB;        // one memory request
    localparam TRK_W  = TAG_W + 2 + 64;             // one request in flight
    localparam [1:0] PASS = 2'd0;                   // answer with the memory's response
    localparam [1:0] LOCAL = 2'd1;                  // answer the old element (on the ack)
    localparam [1:0] FILL = 2'd2;                   // install the line, answer nothing

    // The request in the stage.
    reg               st_valid;
    reg               st_write;
    reg  [3:0]        st_op;
    reg  [63:0]       st_addr;
    reg  [MEM_W-1:0]  st_wdata;
    reg  [PB-1:0]     st_wstrb;
    reg  [TAG_W-1:0]  st_tag;

    // The cache.
    reg  [ENTRY_W-1:0] lines [0:LINES-1];  // tag and data of each line
    reg  [ENTRY_W-1:0] ram_q;              // the stage's entry as read at acceptance
    reg  [LINES-1:0]   line_valid;
    reg                fwd_valid;          // the stage's entry was written since it was read
    reg  [ENTRY_W-1:0] fwd_entry;          // ... with this
    reg                fill_pending;       // the stage's atomic waits for its line
    reg                fill_cancel;        // an invalidate came while the fill was in flight

    wire [IDX_W-1:0]  in_idx, st_idx;
    if (IDX_B > 0) begin : indexed
        assign in_idx = s_req_addr[OFF_W +: IDX_B];
        assign st_idx = st_addr[OFF_W +: IDX_B];
    end else begin : one_line
        assign in_idx = 1'b0;
        assign st_idx = 1'b0;
    end
    wire [LTAG_W-1:0] st_ltag = st_addr[ADDR_W-1:OFF_W+IDX_B];
    wire [ENTRY_W-1:0] st_entry = fwd_valid ? fwd_entry : ram_q;
    wire [MEM_W-1:0]  st_line = st_entry[MEM_W-1:0];
    wire              hit = line_valid[st_idx] && st_entry[ENTRY_W-1:MEM_W] == st_ltag;
    wire              st_atomic = st_op != 4'd0;

    // The atomic's element and its new value. The lanes are picked by comparing the
    // lane index with each constant lane (a multiplexer per lane) rather than by a
    // variable part-select, which synthesis turns into a barrel shifter of the line.
    wire [LANE_W-1:0] lane = st_addr[OFF_W-1:2];
    wire              wide = st_wstrb[4];
    reg  [31:0]       old32;
    reg  [63:0]       old64;
    wire [31:0]       new32 = atomic_lane32(st_op, old32, st_wdata[31:0], st_wdata[95:64]);
    wire [63:0]       new64 = atomic_lane64(st_op, old64, st_wdata[63:0], st_wdata[127:64]);
    wire [63:0]       old_element = wide ? old64 : {32'd0, old32};
    reg  [MEM_W-1:0]  new_line;     // the line after the stage's access (a hit)
    reg  [PB-1:0]     elem_strb;    // the atomic's bytes in the line
    integer j;
    always @* begin
        old32 = 32'd0;
        old64 = 64'd0;
        for (j = 0; j < LANES; j = j + 1)
            if (lane == j[LANE_W-1:0]) begin
                old32 = st_line[32 * j +: 32];
                old64 = st_line[64 * (j / 2) +: 64];
            end
    end
    always @* begin
        new_line  = st_line;
        elem_strb = {PB{1'b0}};
        for (j = 0; j < LANES; j = j + 1) begin
            if (st_atomic && (wide ? lane[LANE_W-1:1] == j[LANE_W-1:1] : lane == j[LANE_W-1:0])) begin
                new_line[32 * j +: 32]  = wide ? new64[32 * (j % 2) +: 32] : new32;
                elem_strb[4 * j +: 4] = 4'hf;
            end
        end
        if (!st_atomic)
            for (j = 0; j < PB; j = j + 1)
                if (st_wstrb[j])
                    new_line[8 * j +: 8] = st_wdata[8 * j +: 8];
    end

    // Issue: the stage's request goes to memory when the slice and the queue of
    // requests in flight have room. A missing atomic issues its fill once.
    wire slice_ready, track_ready;
    wire need_fill = st_atomic && !hit;
    wire issue     = st_valid && slice_ready && track_ready && !(need_fill && fill_pending);
    wire st_done   = issue && !need_fill;
    wire [63:0] line_addr = {st_addr[63:OFF_W], {OFF_W{1'b0}}};
    wire [REQ_W-1:0] mem_req = !st_atomic ? {st_write, st_addr, st_wdata, st_wstrb}
                             : need_fill  ? {1'b0, line_addr, {MEM_W{1'b0}}, {PB{1'b0}}}
                             :              {1'b1, line_addr, new_line, elem_strb};
    wire [1:0]  track_kind = !st_atomic ? PASS : need_fill ? FILL : LOCAL;

    assign s_req_ready = !st_valid || st_done;
    wire take = s_req_valid && s_req_ready;

    // Responses: the oldest request in flight says what the memory's response means.
    wire               head_valid;
    wire [TRK_W-1:0]   head;
    wire [TAG_W-1:0]   head_tag  = head[TRK_W-1 -: TAG_W];
    wire [1:0]         head_kind = head[65:64];
    wire [63:0]        head_old  = head[63:0];
    wire               head_fill = head_valid && head_kind == FILL;
    assign m_resp_valid     = s_mem_resp_valid && head_valid && !head_fill;
    assign m_resp_tag       = head_tag;
    assign m_resp_rdata     = head_kind == LOCAL ? {{(MEM_W - 64){1'b0}}, head_old}
                                                 : s_mem_resp_rdata;
    assign s_mem_resp_ready = head_fill || (head_valid && m_resp_ready);
    wire   resp_fire = s_mem_resp_valid && s_mem_resp_ready;
    wire   fill_done = resp_fire && head_fill;
    wire   install   = fill_done && !fill_cancel && !invalidate;

    // The cache RAM: one write per cycle (a hit's new line, or an installed fill; a
    // fill is installed only while its atomic waits, so never with a hit; a read that
    // hits leaves the line alone), one read per accepted request.
    wire               ram_we    = install || (st_done && hit && (st_atomic || st_write));
    wire [ENTRY_W-1:0] ram_wdata = {st_ltag, install ? s_mem_resp_rdata : new_line};
    always @(posedge clk) begin
        if (ram_we)
            lines[st_idx] <= ram_wdata;
        if (take)
            ram_q <= lines[in_idx];
    end

    always @(posedge clk) begin
        if (rst) begin
            st_valid     <= 1'b0;
            line_valid   <= {LINES{1'b0}};
            fill_pending <= 1'b0;
            fill_cancel  <= 1'b0;
            fwd_valid    <= 1'b0;
        end else begin
            if (take)
                st_valid <= 1'b1;
            else if (st_done)
                st_valid <= 1'b0;
            if (invalidate)
                line_valid <= {LINES{1'b0}};
            else if (install)
                line_valid[st_idx] <= 1'b1;
            if (fill_done) begin
                fill_pending <= 1'b0;
                fill_cancel  <= 1'b0;
            end else begin
                if (issue && need_fill)
                    fill_pending <= 1'b1;
                if (invalidate && (fill_pending || (issue && need_fill)))
                    fill_cancel <= 1'b1;
            end
            // The entry the stage sees: a write in the cycle of its read, or later
            // while it waits, replaces what the RAM gave.
            if (take)
                fwd_valid <= ram_we && st_idx == in_idx;
            else if (ram_we)
                fwd_valid <= 1'b1;
        end
        if (ram_we)
            fwd_entry <= ram_wdata;
        if (take) begin
            st_write <= s_req_write;
            st_op    <= s_req_atomic;
            st_addr  <= s_req_addr;
            st_wdata <= s_req_wdata;
            st_wstrb <= s_req_wstrb;
            st_tag   <= s_req_tag;
        end
    end

    clhls_skid #(.WIDTH(REQ_W)) request_slice (
        .clk(clk), .rst(rst),
        .s_valid(issue), .s_ready(slice_ready), .s_data(mem_req),
        .m_valid(m_mem_req_valid), .m_ready(m_mem_req_ready),
        .m_data({m_mem_req_write, m_mem_req_addr, m_mem_req_wdata, m_mem_req_wstrb}));
    assign m_mem_req_tag = {TAG_W{1'b0}};

    /* verilator lint_off UNUSEDSIGNAL */
    wire [$clog2(DEPTH+1)-1:0] track_count;
    wire unused = ^{s_mem_resp_tag, track_count};
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_fifo #(.WIDTH(TRK_W), .DEPTH(DEPTH)) in_flight (
        .clk(clk), .rst(rst),
        .s_valid(issue), .s_ready(track_ready),
        .s_data({st_tag, track_kind, old_element}),
        .m_valid(head_valid), .m_ready(resp_fire), .m_data(head),
        .count(track_count));

    `include "clhls_atomic_ops.vh"
endmodule

`default_nettype wire
