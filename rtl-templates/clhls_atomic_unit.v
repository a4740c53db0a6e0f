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
// Cache: LINES lines of one port word each (direct mapped on the line address; tags
// in one RAM, written when a line is installed, data in another, written byte by
// byte; valid bits in registers), holding the words atomics used recently. Each
// request spends one cycle in each of two stages. Lookup: its line's tag and data,
// read from the RAMs when it was accepted (with the bytes written since), give the
// hit and the 64 bits around the element. Execute: an atomic whose line is cached (a
// hit) computes the new element, writes its bytes into the line (through a write
// stage: the data RAM is written a cycle later) and through to memory (its strobes
// only); its answer, the old element, rides on that write's
// acknowledgement, so it stays in order behind everything issued before it. An
// atomic that misses reads the line (a fill) and waits in the execute stage, taking
// nothing new, until the fill returns and is installed; it then hits. A plain write
// that hits writes its enabled bytes into the line (write-through keeps memory equal
// to every line). Plain reads pass. Memory thus receives every request in the order
// the unit takes them, and an atomic's read, operation and write happen with nothing
// else in between: other units' loads and stores see the element before or after,
// never between. Atomics to cached lines run at one per cycle, back to back on one
// element too: the bytes the execute stage writes as a request moves up from lookup
// are merged into that request's element as it moves. `invalidate` (a kernel start:
// the host may have written memory behind the unit's back) clears every valid bit
// and the executing request's hit; a fill in flight then is not installed.
// Timing: a request accepted in cycle 0 is looked up in cycle 1 and issued to memory
// in cycle 2 (a hit or a plain access), its memory request is presented from cycle 3
// (register slice); the answer is the memory's response, routed combinationally. The
// line's word select, the operation and the write each have their own stage's logic:
// no path runs from the cache RAM through the operation, nor from the operation into
// the cache; the one loop left in a cycle is an element's old value through the
// operation into the next request's old value (atomics on one element back to back).
// The operation is chosen one-hot from a register, and OPS and WIDE leave out the
// codes and the 64-bit elements no kernel uses. A miss costs the memory's
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
    parameter DEPTH  = 128, // requests in flight to memory at most (>= 2)
    parameter [15:0] OPS = 16'h0ffe, // bit k: operation code k can occur (the others' logic is left out)
    parameter WIDE   = 1    // 64-bit elements can occur (0: only 32-bit ones)
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
    input  wire [TAG_W-1:0]   s_mem_resp_tag,   // always 0 (ignored)
    output wire               still             // the next edge changes nothing, the memory side
                                                // quiet (simulation; 0 in synthesis)
);
    localparam PB     = MEM_W / 8;                  // bytes per line
    localparam OFF_W  = $clog2(PB);                 // byte-offset bits of a line
    localparam LANE_W = OFF_W - 2;                  // 32-bit lane index bits
    localparam PAIR_W = OFF_W - 3;                  // 64-bit pair index bits
    localparam LANES  = MEM_W / 32;                 // 32-bit lanes per line
    localparam PAIRS  = MEM_W / 64;                 // 64-bit pairs per line
    localparam IDX_B  = $clog2(LINES);              // line index bits
    localparam IDX_W  = IDX_B > 0 ? IDX_B : 1;
    localparam LTAG_W = ADDR_W - OFF_W - IDX_B;     // line tag bits
    localparam REQ_W  = 1 + 64 + MEM_W + PB;        // one memory request
    localparam TRK_W  = TAG_W + 2 + 64;             // one request in flight
    // What a response means, one bit each (a fill is told by one bit of the queue's
    // head, not a comparison): neither set, answer with the memory's response.
    localparam [1:0] LOCAL = 2'b01;                 // answer the old element (on the ack)
    localparam [1:0] FILL = 2'b10;                  // install the line, answer nothing

    // Lookup stage: the request taken last.
    reg               a_valid;
    reg               a_write;
    reg  [3:0]        a_op;
    reg  [63:0]       a_addr;
    reg  [MEM_W-1:0]  a_wdata;
    reg  [PB-1:0]     a_wstrb;
    reg  [TAG_W-1:0]  a_tag;
    // Execute stage: the request that goes to memory next.
    reg               x_valid;
    reg               x_write;
    reg               x_atomic;  // an atomic (its operation is in x_sel)
    reg  [63:0]       x_addr;
    reg  [MEM_W-1:0]  x_wdata;
    reg  [PB-1:0]     x_wstrb;
    reg  [TAG_W-1:0]  x_tag;
    reg               x_hit;     // its line is cached
    reg  [LINES-1:0]  x_line;    // its line index, one-hot (sets that line's valid bit)
    reg  [63:0]       x_old;     // the cached 64 bits around its element (an atomic's)
    reg  [31:0]       x_old32;   // the half of them x_addr[2] picks (a 32-bit element)
    reg  [11:0]       x_sel;     // its operation, one-hot (atomic_onehot)
    // Write stage: the cache's data write, a cycle after the execute stage decided it.
    reg               w_valid;
    reg  [IDX_W-1:0]  w_idx;
    reg  [PB-1:0]     w_strb;
    reg  [MEM_W-1:0]  w_data;

    // The cache.
    reg  [LTAG_W-1:0] tags  [0:LINES-1];   // each line's tag
    reg  [MEM_W-1:0]  lines [0:LINES-1];   // each line's data
    reg  [LTAG_W-1:0] tag_q;               // the lookup's tag and data as read at acceptance
    reg  [MEM_W-1:0]  data_q;
    reg  [LINES-1:0]  line_valid;
    reg  [PB-1:0]     fwd_strb;            // bytes of the lookup's line written since its read
    reg  [MEM_W-1:0]  fwd_data;            // ... with these (by the write stage)
    reg               fwd_tag_valid;       // its tag written since (a line installed)
    reg  [LTAG_W-1:0] fwd_tag;             // ... with this
    reg               fill_pending;        // the executing atomic waits for its line
    reg               fill_cancel;         // an invalidate came while the fill was in flight

    wire [IDX_W-1:0]  in_idx, a_idx, x_idx;
    if (IDX_B > 0) begin : indexed
        assign in_idx = s_req_addr[OFF_W +: IDX_B];
        assign a_idx  = a_addr[OFF_W +: IDX_B];
        assign x_idx  = x_addr[OFF_W +: IDX_B];
    end else begin : one_line
        assign in_idx = 1'b0;
        assign a_idx  = 1'b0;
        assign x_idx  = 1'b0;
    end
    wire [LTAG_W-1:0] a_ltag = a_addr[ADDR_W-1:OFF_W+IDX_B];
    wire [LTAG_W-1:0] x_ltag = x_addr[ADDR_W-1:OFF_W+IDX_B];
    integer j;

    // ---- Lookup: the hit and the element's 64 bits. Words are picked by comparing
    // their index with constants (a multiplexer per word), never by a variable
    // part-select, which synthesis turns into a barrel shifter of the line.
    reg  [MEM_W-1:0]  a_line;
    always @* begin
        for (j = 0; j < PB; j = j + 1)
            a_line[8 * j +: 8] = fwd_strb[j] ? fwd_data[8 * j +: 8] : data_q[8 * j +: 8];
    end
    wire              a_hit  = line_valid[a_idx] && (fwd_tag_valid ? fwd_tag : tag_q) == a_ltag;
    wire [PAIR_W-1:0] a_pair = a_addr[OFF_W-1:3];
    reg  [63:0]       a_old;
    always @* begin
        a_old = 64'd0;
        for (j = 0; j < PAIRS; j = j + 1)
            if (a_pair == j[PAIR_W-1:0])
                a_old = a_line[64 * j +: 64];
    end

    // ---- Execute: the atomic's new element, in every position of the line (its
    // strobes pick its place).
    wire [LANE_W-1:0] x_lane   = x_addr[OFF_W-1:2];
    wire              wide     = WIDE != 0 && x_wstrb[4];
    wire [11:0]       x_use    = x_sel & {OPS[11:1], 1'b1};
    wire [31:0]       old32    = x_old32;  // picked as it was written: no multiplexer
    wire [31:0]       new32    = atomic_pick32(x_use, old32, x_wdata[31:0], x_wdata[95:64]);
    wire [63:0]       new64    = atomic_pick64(x_use, x_old, x_wdata[63:0], x_wdata[127:64]);
    wire [63:0]       new_pair = wide ? new64 : {new32, new32};
    wire [63:0]       old_element = wide ? x_old : {32'd0, old32};
    wire [MEM_W-1:0]  new_line = {PAIRS{new_pair}};
    reg  [PB-1:0]     elem_strb;    // the atomic's bytes in the line
    always @* begin
        for (j = 0; j < LANES; j = j + 1)
            elem_strb[4 * j +: 4] = {4{wide ? x_lane[LANE_W-1:1] == j[LANE_W-1:1]
                                            : x_lane == j[LANE_W-1:0]}};
    end

    // Issue: the executing request goes to memory when the slice and the queue of
    // requests in flight have room. A missing atomic issues its fill once.
    wire slice_ready, track_ready;
    wire need_fill = x_atomic && !x_hit;
    wire issue     = x_valid && slice_ready && track_ready && !(need_fill && fill_pending);
    wire x_done    = issue && !need_fill;
    wire [63:0] line_addr = {x_addr[63:OFF_W], {OFF_W{1'b0}}};
    // The write data is an AND-OR of the two sources, each selected by registers, not a
    // multiplexer chain behind the operation's result (the three cases differ in the
    // other fields only).
    wire             writes_new = x_atomic && !need_fill;
    wire [MEM_W-1:0] req_wdata  = ({MEM_W{writes_new}} & new_line) | ({MEM_W{!x_atomic}} & x_wdata);
    wire [REQ_W-1:0] mem_req = !x_atomic ? {x_write, x_addr, req_wdata, x_wstrb}
                             : need_fill ? {1'b0, line_addr, req_wdata, {PB{1'b0}}}
                             :             {1'b1, line_addr, req_wdata, elem_strb};
    wire [1:0]  track_kind = !x_atomic ? 2'b00 : need_fill ? FILL : LOCAL;

    // The lookup moves up when the execute stage is free or leaves now.
    wire x_free = !x_valid || x_done;
    wire a_move = a_valid && x_free;
    assign s_req_ready = !a_valid || x_free;
    wire take = s_req_valid && s_req_ready;

    // Responses: the oldest request in flight says what the memory's response means.
    wire               head_valid;
    wire [TRK_W-1:0]   head;
    wire [TAG_W-1:0]   head_tag  = head[TRK_W-1 -: TAG_W];
    wire               head_local = head[64];
    wire               head_fill  = head_valid && head[65];
    wire [63:0]        head_old   = head[63:0];
    assign m_resp_valid     = s_mem_resp_valid && head_valid && !head_fill;
    assign m_resp_tag       = head_tag;
    assign m_resp_rdata     = head_local ? {{(MEM_W - 64){1'b0}}, head_old}
                                         : s_mem_resp_rdata;
    assign s_mem_resp_ready = head_fill || (head_valid && m_resp_ready);
    wire   resp_fire = s_mem_resp_valid && s_mem_resp_ready;
    wire   fill_done = resp_fire && head_fill;
    wire   install   = fill_done && !fill_cancel && !invalidate;

    // The cache's writes, at the executing request's index: an installed fill (the
    // whole line and its tag; only while its atomic waits, so never with a hit), or a
    // hit's bytes (an atomic's element, a plain write's enabled bytes). The tag and the
    // valid bit are written now; the data goes through the write stage, so no path
    // runs from the operation into the cache or the lookup's forwarding.
    wire               hit_write = x_done && x_hit && (x_atomic || x_write);
    wire [PB-1:0]      wr_strb   = install ? {PB{1'b1}} : !hit_write ? {PB{1'b0}}
                                 : x_atomic ? elem_strb : x_wstrb;
    wire [MEM_W-1:0]   wr_data   = install ? s_mem_resp_rdata : x_atomic ? new_line : x_wdata;
    always @(posedge clk) begin
        if (rst)
            w_valid <= 1'b0;
        else
            w_valid <= install || hit_write;
        w_idx  <= x_idx;
        w_strb <= wr_strb;
        w_data <= wr_data;
        for (j = 0; j < PB; j = j + 1)
            if (w_valid && w_strb[j])
                lines[w_idx][8 * j +: 8] <= w_data[8 * j +: 8];
        if (install)
            tags[x_idx] <= x_ltag;
        if (take) begin
            data_q <= lines[in_idx];
            tag_q  <= tags[in_idx];
        end
    end

    // The bytes written in the move's cycle seen from the lookup's 64 bits (merged into
    // them as they move up: the read at acceptance did not see them): the write
    // stage's, and over them the execute stage's, which the write stage takes next.
    reg  [7:0]  x_strb_at_a, w_strb_at_a;
    reg  [63:0] x_wdata_at_a, w_data_at_a;
    always @* begin
        x_strb_at_a  = 8'd0;
        x_wdata_at_a = 64'd0;
        w_strb_at_a  = 8'd0;
        w_data_at_a  = 64'd0;
        for (j = 0; j < PAIRS; j = j + 1)
            if (a_pair == j[PAIR_W-1:0]) begin
                x_strb_at_a  = x_atomic ? elem_strb[8 * j +: 8] : x_wstrb[8 * j +: 8];
                x_wdata_at_a = x_wdata[64 * j +: 64];
                w_strb_at_a  = w_strb[8 * j +: 8];
                w_data_at_a  = w_data[64 * j +: 64];
            end
    end
    wire        patch        = hit_write && a_idx == x_idx;
    wire        w_patch      = w_valid && a_idx == w_idx;
    // The lookup's 64 bits as they move up, those bytes merged: the executing atomic's
    // result where it writes (take_new), else bytes of registers only (settled_old).
    // The two are kept apart so that the result, late from the operation, crosses one
    // multiplexer into x_old and x_old32 (this is the loop of one element through the
    // operation into the next request's).
    reg  [7:0]  take_new_c;
    reg  [63:0] settled_c;
    always @* begin
        for (j = 0; j < 8; j = j + 1) begin
            take_new_c[j]         = patch && x_strb_at_a[j] && x_atomic;
            settled_c[8 * j +: 8] = (patch && x_strb_at_a[j]) ? x_wdata_at_a[8 * j +: 8]
                                  : (w_patch && w_strb_at_a[j]) ? w_data_at_a[8 * j +: 8]
                                  : a_old[8 * j +: 8];
        end
    end
    (* keep *) wire [7:0]  take_new    = take_new_c;
    (* keep *) wire [63:0] settled_old = settled_c;
    reg  [63:0] moved_old;
    always @* begin
        for (j = 0; j < 8; j = j + 1)
            moved_old[8 * j +: 8] = take_new[j] ? new_pair[8 * j +: 8] : settled_old[8 * j +: 8];
    end
    // The fill's 64 bits around the waiting atomic's element.
    reg  [63:0] fill_old;
    always @* begin
        fill_old = 64'd0;
        for (j = 0; j < PAIRS; j = j + 1)
            if (x_addr[OFF_W-1:3] == j[PAIR_W-1:0])
                fill_old = s_mem_resp_rdata[64 * j +: 64];
    end
    // A write to the line the lookup reads (in the cycle of its read, or later while it
    // waits) is kept beside it: the write stage's data, an installed tag.
    wire fwd_now = w_valid && (take ? w_idx == in_idx : w_idx == a_idx);
    wire fwd_tag_now = install && (take ? x_idx == in_idx : x_idx == a_idx);

    always @(posedge clk) begin
        if (rst) begin
            a_valid      <= 1'b0;
            x_valid      <= 1'b0;
            line_valid   <= {LINES{1'b0}};
            fill_pending <= 1'b0;
            fill_cancel  <= 1'b0;
        end else begin
            if (take)
                a_valid <= 1'b1;
            else if (a_move)
                a_valid <= 1'b0;
            if (a_move)
                x_valid <= 1'b1;
            else if (x_done)
                x_valid <= 1'b0;
            // Each line's bit is set by its bit of the one-hot index, decoded a
            // stage earlier: not a write at a variable index (synthesis builds an
            // adder) nor a decoder behind the late fill response.
            for (j = 0; j < LINES; j = j + 1)
                if (invalidate)
                    line_valid[j] <= 1'b0;
                else if (install && x_line[j])
                    line_valid[j] <= 1'b1;
            if (fill_done) begin
                fill_pending <= 1'b0;
                fill_cancel  <= 1'b0;
            end else begin
                if (issue && need_fill)
                    fill_pending <= 1'b1;
                if (invalidate && (fill_pending || (issue && need_fill)))
                    fill_cancel <= 1'b1;
            end
        end
        if (take) begin
            a_write <= s_req_write;
            a_op    <= s_req_atomic;
            a_addr  <= s_req_addr;
            a_wdata <= s_req_wdata;
            a_wstrb <= s_req_wstrb;
            a_tag   <= s_req_tag;
            fwd_strb      <= fwd_now ? w_strb : {PB{1'b0}};
            fwd_tag_valid <= fwd_tag_now;
        end else begin
            if (fwd_now)
                fwd_strb <= fwd_strb | w_strb;
            if (fwd_tag_now)
                fwd_tag_valid <= 1'b1;
        end
        if (fwd_now)
            for (j = 0; j < PB; j = j + 1)
                if (w_strb[j])
                    fwd_data[8 * j +: 8] <= w_data[8 * j +: 8];
        if (fwd_tag_now)
            fwd_tag <= x_ltag;
        if (a_move) begin
            x_write  <= a_write;
            x_atomic <= a_op != 4'd0;
            x_addr   <= a_addr;
            x_wdata  <= a_wdata;
            x_wstrb  <= a_wstrb;
            x_tag    <= a_tag;
            x_hit    <= a_hit && !invalidate;
            for (j = 0; j < LINES; j = j + 1)
                x_line[j] <= a_idx == j[IDX_W-1:0];
            x_sel    <= atomic_onehot(a_op);
            x_old    <= moved_old;
            x_old32  <= a_addr[2] ? moved_old[63:32] : moved_old[31:0];
        end else if (install) begin
            x_hit   <= 1'b1;
            x_old   <= fill_old;
            x_old32 <= x_addr[2] ? fill_old[63:32] : fill_old[31:0];
        end else if (invalidate) begin
            x_hit <= 1'b0;
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
        .s_data({x_tag, track_kind, old_element}),
        .m_valid(head_valid), .m_ready(resp_fire), .m_data(head),
        .count(track_count));

    // Nothing is taken, moves up from lookup, is issued (an atomic waiting for its fill
    // issues nothing) or written into a line; the simulator sees the memory side's
    // handshakes and the register writes that invalidate itself.
`ifdef CLHLS_SIM_CHECKS
    assign still = !take && !a_move && !issue && !w_valid;
`else
    assign still = 1'b0;
`endif

    `include "clhls_atomic_ops.vh"
endmodule

`default_nettype wire
