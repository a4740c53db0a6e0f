// clhls_lsu_load: load unit with in-order coalescing of consecutive same-line loads.
//
// The pipeline sends byte addresses (naturally aligned to DATA_W/8) and receives the
// loaded words in request order. A request whose address falls in the same MEM_W-bit
// memory line as the previous accepted request (the "open line") shares that line's
// memory read; any other request issues a new read of its line. Per accepted request
// an in-order queue keeps {word index in the line, needs-new-line}; returned lines
// wait in a line queue; data is delivered word by word from the line at the head.
// Both queues keep their heads in registers (clhls_fifo; a deep order queue is a block
// RAM whose read register is followed by a multiplexer, unless ORDER_HEAD_REG makes it
// LUT RAM behind a head register, for a clock that cannot spare that level), so
// m_resp_valid and m_resp_data are a gate and a word multiplexer (clhls_word_select)
// after registers, and m_resp_ready reaches the queues' registers through two gates:
// on a slow clock the memory node that joins the units' answers stays within a few
// levels without a response slice, whose registers would cost more than the path it
// saves on the small boards. RESP_SLICE = 1 (for a clock that cannot spare the levels)
// puts the answers through a register slice (clhls_skid): m_resp_valid and
// m_resp_data are then registers, and m_resp_ready, which comes through the compute
// unit's join of every unit's answer and the next stage's ready, ends at the slice
// instead of running on into the line queue (a cycle more latency).
// With REUSE 0 no line is shared: every request reads its own.
// The open line is forgotten whenever the unit drains (nothing accepted and nothing
// undelivered, the slice empty too), so data is never reused across idle periods (e.g.
// kernel launches), and whenever its compute unit writes to it:
// s_write_valid/s_write_addr show every write (store or atomic) of the compute unit in
// the cycle the interconnect takes it, and the line is closed from the next cycle on (a
// registered flag: the arbitration that decides the write ends at a register). The
// interconnect and memory keep the order in which requests were taken, so a load
// accepted after that cycle reads the line again and sees the write: a work-item sees
// its own stores, and after a barrier the group's (their stores were acknowledged
// before it), even when an earlier work-item's load had opened the same line.
// Capacity: at most DEPTH accepted-but-undelivered requests. Because every line in
// flight belongs to such a request, the line queue (DEPTH lines) never overflows and
// s_mem_resp_ready stays 1 in practice (it is the queue's honest not-full flag).
// s_req_ready, m_resp_valid and m_mem_req_valid depend on registered state only.
// Latency: a request accepted at cycle t is offered to memory at t+1 (t+2 with
// REQ_SLICE); a line that comes back at cycle r is delivered (m_resp_valid) from r+1
// (r+2 with RESP_SLICE).
// REQ_SLICE = 1 (for a clock that cannot spare the levels) puts a register slice
// (clhls_skid) in front of the unit: s_req_ready is then a register, and the
// pipeline's valid, which comes through the compute unit's join of every unit's
// ready, ends at the slice instead of running on into the queues' registers.
// SPECULATIVE units serve a pipelined loop whose exit test waits for their loads
// (hls/pipeline.c): iterations past the exit are issued before it is known, and their
// addresses may lie past the end of the buffer, which hardware reads harmlessly. The
// simulator's checks (CLHLS_SIM_CHECKS) hold such a request instead of failing: it is
// not read, and its answer (zeros) waits for s_release, the loop's "an iteration has
// left" register, which proves it was issued past the exit. A request of an iteration
// that was not past the exit is never released: the kernel stops, and the simulator
// reports the held access as out of bounds when the watchdog ends it.
// Needs clhls_fifo.v, clhls_skid.v, clhls_word_select.v.
`default_nettype none

module clhls_lsu_load #(
    parameter DATA_W = 32,   // loaded word width: a power of two from 8 to MEM_W
    parameter MEM_W  = 512,  // memory line width in bits (multiple of DATA_W, power of two)
    parameter DEPTH  = 128,  // accepted-but-undelivered requests (>= 1)
    parameter ORDER_HEAD_REG = 0, // 1: the order queue's head is a register even when deep (LUT RAM)
    parameter REQ_SLICE = 0, // 1: requests enter through a register slice (a cycle more latency)
    parameter RESP_SLICE = 0, // 1: answers leave through a register slice (a cycle more latency)
    parameter WRITERS = 0,   // writing units of the compute unit whose writes close the open line
    parameter ADDR_W = 64,   // address bits the board decodes (lines are compared on these alone)
    parameter REUSE  = 1,    // 0: every request reads its line anew (no open line: the loads of
                             // a kernel with channel fences see other kernels' stores)
    /* verilator lint_off UNUSEDPARAM */
    parameter SPECULATIVE = 0, // requests may be of iterations past the loop's exit (read by the simulation checks and the request slice's width)
    parameter CU     = 0,     // its compute unit's number in the accelerator (read by the simulation checks only)
    parameter UNIT   = 0      // its number in the compute unit (read by the simulation checks only)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire              clk,               // clock
    input  wire              rst,               // synchronous active-high reset
    input  wire              s_req_valid,       // pipeline offers a load
    output wire              s_req_ready,       // the unit takes it (credits and space left)
    input  wire [63:0]       s_req_addr,        // byte address, aligned to DATA_W/8
    input  wire [(WRITERS > 0 ? WRITERS : 1)-1:0]    s_write_valid, // writer i's request is taken now
    input  wire [(WRITERS > 0 ? WRITERS : 1)*64-1:0] s_write_addr,  // writer i's byte address at [64*i +: 64]
    input  wire              s_release,         // SPECULATIVE: held requests are of iterations past the loop's exit
    output wire              m_resp_valid,      // loaded word available (request order)
    input  wire              m_resp_ready,      // pipeline takes the word
    output wire [DATA_W-1:0] m_resp_data,       // loaded word
    output wire              m_mem_req_valid,   // read request to the memory/interconnect
    input  wire              m_mem_req_ready,   // request taken
    output wire [63:0]       m_mem_req_addr,    // line address (aligned to MEM_W/8 bytes)
    input  wire              s_mem_resp_valid,  // a line comes back (request order)
    output wire              s_mem_resp_ready,  // line queue has room
    input  wire [MEM_W-1:0]  s_mem_resp_rdata,  // the line
    output wire              idle,              // nothing accepted and undelivered (slices empty too)
    output wire              count_read,        // pulse: one memory read issued
    output wire              still              // the next edge changes nothing (simulation; 0 in synthesis)
);
    localparam WORDS     = MEM_W / DATA_W;                       // words per line
    localparam LINE_BITS = $clog2(MEM_W / 8);                    // byte-offset bits of a line
    localparam LN_W      = ADDR_W - LINE_BITS;                   // line-number bits decoded
    localparam WORD_BITS = $clog2(DATA_W / 8);                   // byte-offset bits of a word
    localparam IDX_W     = (WORDS > 1) ? $clog2(WORDS) : 1;      // word index width
    localparam [IDX_W-1:0] IDX_MASK = (WORDS > 1) ? {IDX_W{1'b1}} : {IDX_W{1'b0}};
    localparam CNT_W     = $clog2(DEPTH + 1);

    // The request as the queues see it: straight from the port, or from the slice.
    wire        in_valid;    // a request is offered to the queues
    wire        in_ready;    // the queues take it
    wire [63:0] in_addr;     // its address
    wire        outside;     // a speculative request outside every buffer of the kernel
                             // (simulation only; decided at the port)
    wire        outside_at_port;

    // Split the request address. Only the low bits of the shifted address are the
    // word index; the rest are part of the line address, compared separately.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [63:0]      word_addr  = in_addr >> WORD_BITS;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [IDX_W-1:0] word_index = word_addr[IDX_W-1:0] & IDX_MASK;
    wire [63:0]      line_addr  = (in_addr >> LINE_BITS) << LINE_BITS;

    // The line's number in the address bits the board decodes: two addresses that
    // differ only above them are the same memory line.
    wire [LN_W-1:0]  line_number = in_addr[LINE_BITS +: LN_W];
    reg              open_valid;  // open_line is the line of the previous request
    reg  [LN_W-1:0]  open_line;   // the open line's number
    reg  [MEM_W-1:0] cur_line;    // line being delivered (after its first word)

    // A write taken in the previous cycle to the open line (registered: the memory
    // interconnect's arbitration, which decides that a write is taken, ends at a
    // register here instead of running on through the line compares).
    reg written;

    wire needs_new = !outside && (!REUSE || !open_valid || written || (line_number != open_line));

    // A write taken now to the open line, or to the line a request opens now: the open
    // line is stale from the next cycle on.
    reg writes_open;
    integer w;
    always @(*) begin
        writes_open = 1'b0;
        for (w = 0; w < WRITERS; w = w + 1)
            if (s_write_valid[w] &&
                (s_write_addr[64*w + LINE_BITS +: LN_W] == open_line ||
                 s_write_addr[64*w + LINE_BITS +: LN_W] == line_number))
                writes_open = 1'b1;
    end

    // Queues.
    wire             order_s_ready, order_m_valid;
    wire [IDX_W+1:0] order_head;                 // {held, needs_new, word index}
    wire [CNT_W-1:0] order_count;
    wire             req_s_ready;
    wire [1:0]       req_count;
    wire             line_m_valid;
    wire [MEM_W-1:0] line_head;
    wire [CNT_W-1:0] line_count;

    assign in_ready = order_s_ready && req_s_ready;
    wire accept = in_valid && in_ready;  // the queues take a request
    generate
        if (REQ_SLICE != 0) begin : request_slice
            // `outside` is carried only by a speculative unit's slice (it is 0 in every
            // other, and in synthesis): 64 bits are one word of the simulation, 65 three.
            localparam SLICE_W = SPECULATIVE ? 65 : 64;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [64:0]        offered = {outside_at_port, s_req_addr};
            wire [SLICE_W-1:0] taken;
            /* verilator lint_on UNUSEDSIGNAL */
            clhls_skid #(.WIDTH(SLICE_W)) slice (
                .clk(clk), .rst(rst),
                .s_valid(s_req_valid), .s_ready(s_req_ready), .s_data(offered[SLICE_W-1:0]),
                .m_valid(in_valid), .m_ready(in_ready), .m_data(taken));
            assign in_addr = taken[63:0];
            assign outside = SPECULATIVE ? taken[SLICE_W-1] : 1'b0;
        end else begin : no_slice
            assign s_req_ready = in_ready;
            assign in_valid    = s_req_valid;
            assign in_addr     = s_req_addr;
            assign outside     = outside_at_port;
        end
    endgenerate

    wire             head_held  = order_head[IDX_W+1];
    wire             head_new   = order_head[IDX_W];
    wire [IDX_W-1:0] head_index = order_head[IDX_W-1:0];

    // The head's word, from the line at the head of the line queue when it needs a new
    // line and from the line being delivered otherwise: each line's word is picked by a
    // tree of multiplexers, and the two words meet in the last gate, which also zeroes
    // a held request's answer.
    wire [DATA_W-1:0] new_word, cur_word;
    clhls_word_select #(.DATA_W(DATA_W), .WORDS(WORDS)) new_line_word (
        .line(line_head), .index(head_index), .word(new_word));
    clhls_word_select #(.DATA_W(DATA_W), .WORDS(WORDS)) cur_line_word (
        .line(cur_line), .index(head_index), .word(cur_word));

    // The answer as the queues give it: straight to the port, or into the slice.
    wire              out_valid = order_m_valid && (head_held ? s_release : !head_new || line_m_valid);
    wire              out_ready;
    wire [DATA_W-1:0] out_data  = head_held ? {DATA_W{1'b0}} : head_new ? new_word : cur_word;
    wire deliver = out_valid && out_ready;
    // The head's line leaves: out_ready meets a term of registers alone, so the
    // ready reaches the line queue through one gate (the queue is a module of its
    // own, and synthesis does not merge gates across it). The term is kept as a net:
    // without it, synthesis shares `deliver` and puts two gates there.
    (* keep *) wire deliver_new = out_valid && head_new;
    wire line_pop = out_ready && deliver_new;
    generate
        if (RESP_SLICE != 0) begin : response_slice
            clhls_skid #(.WIDTH(DATA_W)) slice (
                .clk(clk), .rst(rst),
                .s_valid(out_valid), .s_ready(out_ready), .s_data(out_data),
                .m_valid(m_resp_valid), .m_ready(m_resp_ready), .m_data(m_resp_data));
        end else begin : no_response_slice
            assign m_resp_valid = out_valid;
            assign out_ready    = m_resp_ready;
            assign m_resp_data  = out_data;
        end
    endgenerate

    assign idle       = !order_m_valid && (REQ_SLICE == 0 || !in_valid) &&
                        (RESP_SLICE == 0 || !m_resp_valid);
    assign count_read = m_mem_req_valid && m_mem_req_ready;

    clhls_fifo #(.WIDTH(IDX_W + 2), .DEPTH(DEPTH), .HEAD_REG(ORDER_HEAD_REG)) order_queue (
        .clk(clk), .rst(rst),
        .s_valid(accept), .s_ready(order_s_ready), .s_data({outside, needs_new, word_index}),
        .m_valid(order_m_valid), .m_ready(deliver), .m_data(order_head),
        .count(order_count)
    );

    clhls_fifo #(.WIDTH(64), .DEPTH(2)) request_queue (
        .clk(clk), .rst(rst),
        .s_valid(accept && needs_new), .s_ready(req_s_ready), .s_data(line_addr),
        .m_valid(m_mem_req_valid), .m_ready(m_mem_req_ready), .m_data(m_mem_req_addr),
        .count(req_count)
    );

    clhls_fifo #(.WIDTH(MEM_W), .DEPTH(DEPTH)) line_queue (
        .clk(clk), .rst(rst),
        .s_valid(s_mem_resp_valid), .s_ready(s_mem_resp_ready), .s_data(s_mem_resp_rdata),
        .m_valid(line_m_valid), .m_ready(line_pop), .m_data(line_head),
        .count(line_count)
    );

    always @(posedge clk) begin
        if (rst) begin
            open_valid <= 1'b0;
            written    <= 1'b0;
        end else begin
            written <= writes_open;
            if (accept && outside) begin
                // A held request reads nothing: the open line stays as it was.
                if (written) open_valid <= 1'b0;
            end else if (accept) begin
                // A line written in the cycle before was read anew (needs_new).
                open_valid <= 1'b1;
                open_line  <= line_number;
            end else if (idle || written) begin
                open_valid <= 1'b0;
            end
        end
    end

    always @(posedge clk) begin
        if (line_pop)
            cur_line <= line_head;
    end

    // The occupancy counters are not needed here, nor the writes' offsets in a line
    // and the address bits the board ignores.
    // No queue or slice moves, the open line stays as it is (the simulator's jumps over
    // cycles where nothing moves; its held requests are released by a handshake).
`ifdef CLHLS_SIM_CHECKS
    assign still = !(s_req_valid && s_req_ready) && !accept && !deliver &&
                   !(m_mem_req_valid && m_mem_req_ready) &&
                   !(s_mem_resp_valid && s_mem_resp_ready) &&
                   !(m_resp_valid && m_resp_ready) && written == writes_open &&
                   !(open_valid && (idle || written));
`else
    assign still = 1'b0;
`endif

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_counts = ^{order_count, req_count, line_count, s_write_valid, s_write_addr,
                           s_release};
    /* verilator lint_on UNUSEDSIGNAL */
`ifdef CLHLS_SIM_CHECKS
    // a load, or a speculative one (clhls_sim_checks.vh)
    localparam [7:0] SIM_ACCESS_KIND = SPECULATIVE ? 8'd3 : 8'd0;
    `include "clhls_sim_checks.vh"
    // whether a speculative request lies outside every buffer (no fault recorded), and
    // that a held request has been answered
    import "DPI-C" pure function bit clhls_sim_outside(
        input int unsigned cu, input longint unsigned addr, input int unsigned bytes);
    import "DPI-C" function void clhls_sim_released(input int unsigned cu, input int unsigned unit);
    generate
        if (SPECULATIVE) begin : held_requests
            assign outside_at_port = s_req_valid && !(sim_window_valid && !idle &&
                                              s_req_addr >= sim_window_first &&
                                              s_req_addr <= sim_window_last) &&
                             clhls_sim_outside(CU, s_req_addr, DATA_W / 8);
            // a held request answered: the simulator stops counting it as held
            always @(posedge clk)
                if (!rst && deliver && head_held)
                    clhls_sim_released(CU, UNIT);
        end else begin : no_held_requests
            assign outside_at_port = 1'b0;
        end
    endgenerate
`else
    assign outside_at_port = 1'b0;
`endif
endmodule

`default_nettype wire
