// clhls_port_share: N requesters share one port of a clhls_local_mem.
//
// The compiler lets accesses share a port when no work-group can use two of them
// (their predicates exclude each other by a condition that is the same for the whole
// group), so in the steady state one requester at a time is active. The unit in
// front of the port must then cost neither a cycle of latency nor throughput, and
// requesters must never wait for each other: a requester that does not take its
// responses (its memory node waits for something else) must not hold up the others.
//
// Requests: per requester a request buffer (IN_DEPTH entries; s_req_ready = buffer
// not full, from a register). A request passes straight through when its buffer is
// empty (bypass), else the buffer's head competes. Among the requesters offering one
// and holding response credit, a rotating-priority (round-robin) arbiter picks one
// per cycle for the port (m_req_*); the pointer moves past the requester taken. The
// port's order of acceptance is written, requester by requester, into an in-order
// queue of origins (ORIGIN_DEPTH entries; a request goes to the port only while it
// has room).
// Responses: the port answers in request order (s_resp_*); the head of the origin
// queue names the requester each answer belongs to. Every requester has a response
// queue (RESP_DEPTH entries) and a credit counter (requests taken for the port and
// not yet answered to it, at most RESP_DEPTH), so each answer has a place reserved
// before its request left: the unit always takes the port's answers (s_resp_ready is
// 1) and an answer goes to its requester directly when its queue is empty and it is
// ready (bypass), else into its queue. So a requester that stops taking answers only
// stops itself; the others go on at the port's full rate.
// Timing: no added cycle; a request offered to an idle unit reaches the port in the
// same cycle and its answer leaves in the cycle the port gives it (clhls_local_mem:
// LATENCY 4). One request per cycle in total, the port's rate; a lone requester keeps
// it with RESP_DEPTH >= 5 (the port's 4 cycles plus the answer's). s_req_ready,
// m_resp_valid and m_resp_rdata come from registers (the port's response and the
// queues' heads); m_req_valid and m_req_* follow s_req_valid and s_req_* (the bypass),
// and no output depends on m_req_ready or m_resp_ready in the same cycle.
// Needs clhls_fifo.v.
`default_nettype none

module clhls_port_share #(
    parameter N            = 2,  // requesters (>= 2)
    parameter REQ_W        = 8,  // bits of a request (write, address, data, ... packed)
    parameter WORD_W       = 32, // bits of an answer (the memory's word)
    parameter IN_DEPTH     = 2,  // request buffer entries per requester (>= 1; 2 for full throughput)
    parameter RESP_DEPTH   = 5,  // answers reserved per requester (>= 1; 5 for full throughput)
    parameter ORIGIN_DEPTH = 8   // requests at the port not yet answered (>= 1; 5 for full throughput)
) (
    input  wire                  clk,          // clock
    input  wire                  rst,          // synchronous active-high reset (empties the queues)
    input  wire [N-1:0]          s_req_valid,  // per requester: a request is offered
    output wire [N-1:0]          s_req_ready,  // per requester: its buffer has room (registered)
    input  wire [N*REQ_W-1:0]    s_req_data,   // per requester: the request
    output wire                  m_req_valid,  // a request for the port
    input  wire                  m_req_ready,  // the port takes it
    output wire [REQ_W-1:0]      m_req_data,   // the request
    input  wire                  s_resp_valid, // the port answers (in request order)
    output wire                  s_resp_ready, // always 1: every answer has its place
    input  wire [WORD_W-1:0]     s_resp_data,  // the answer
    output wire [N-1:0]          m_resp_valid, // per requester: an answer is offered
    input  wire [N-1:0]          m_resp_ready, // per requester: it takes the answer
    output wire [N*WORD_W-1:0]   m_resp_data,  // per requester: the answer
    output wire                  idle          // nothing buffered, at the port or owed
);
    localparam SEL_W = (N > 1) ? $clog2(N) : 1;          // bits of a requester's number
    localparam CNT_W = $clog2(RESP_DEPTH + 1);           // credit counter
    localparam integer RESP_DEPTH_INT = RESP_DEPTH;
    localparam [CNT_W-1:0] CREDIT_FULL = RESP_DEPTH_INT[CNT_W-1:0];

    wire [N-1:0]       buf_valid;   // per requester: its buffer holds a request
    wire [N*REQ_W-1:0] buf_data;    // per requester: the buffer's head
    wire [N-1:0]       has_credit;  // per requester: fewer than RESP_DEPTH answers owed
    wire [N-1:0]       offer;       // per requester: competes for the port this cycle
    wire [N*REQ_W-1:0] offer_data;  // per requester: what it offers
    wire [N-1:0]       take;        // per requester: its request goes to the port now
    wire [N-1:0]       answer;      // per requester: the port's answer is its own
    wire [N-1:0]       busy;        // per requester: something buffered or owed
    wire               origin_room; // the origin queue can take one more
    wire               origin_valid;
    wire [SEL_W-1:0]   origin;      // the requester the port's oldest answer belongs to
    wire [SEL_W-1:0]   winner_sel;  // the winner's number

    // ---- round-robin arbiter over the offers ----
    reg  [N-1:0] prio;                               // requesters at or after the pointer
    wire [N-1:0] eligible = offer & has_credit;
    wire [N-1:0] masked   = eligible & prio;
    wire [N-1:0] cand     = (|masked) ? masked : eligible;
    wire [N-1:0] win      = cand & (~cand + 1'b1);   // lowest candidate: one-hot
    wire         go       = (|eligible) && origin_room && m_req_ready;

    always @(posedge clk) begin
        if (rst)
            prio <= {N{1'b1}};
        else if (go)
            prio <= ~((win << 1) - 1'b1);            // the requesters after the winner
    end

    assign take        = go ? win : {N{1'b0}};
    assign m_req_valid = (|eligible) && origin_room;

    reg [REQ_W-1:0] req_mux;
    reg [SEL_W-1:0] sel_mux;
    integer i;
    always @* begin
        req_mux = {REQ_W{1'b0}};
        sel_mux = {SEL_W{1'b0}};
        for (i = 0; i < N; i = i + 1) begin  // win is one-hot: an AND-OR, no priority chain
            req_mux = req_mux | ({REQ_W{win[i]}} & offer_data[i*REQ_W +: REQ_W]);
            sel_mux = sel_mux | ({SEL_W{win[i]}} & i[SEL_W-1:0]);
        end
    end
    assign m_req_data = req_mux;
    assign winner_sel = sel_mux;

    // ---- the port's order of acceptance ----
    /* verilator lint_off UNUSEDSIGNAL */
    wire                                origin_in_ready;  // = origin_room
    wire [$clog2(ORIGIN_DEPTH+1)-1:0]   origin_count;
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_fifo #(.WIDTH(SEL_W), .DEPTH(ORIGIN_DEPTH)) origins (
        .clk(clk), .rst(rst),
        .s_valid(go), .s_ready(origin_in_ready), .s_data(winner_sel),
        .m_valid(origin_valid), .m_ready(s_resp_valid), .m_data(origin),
        .count(origin_count));
    assign origin_room  = origin_in_ready;
    assign s_resp_ready = 1'b1;

    genvar r;
    generate
        for (r = 0; r < N; r = r + 1) begin : req
            localparam [SEL_W-1:0] ID = r;
            // the request buffer; an incoming request bypasses it when it is empty
            wire buf_push = s_req_valid[r] && s_req_ready[r] && !(!buf_valid[r] && take[r]);
            /* verilator lint_off UNUSEDSIGNAL */
            wire [$clog2(IN_DEPTH+1)-1:0] buf_count;
            /* verilator lint_on UNUSEDSIGNAL */
            clhls_fifo #(.WIDTH(REQ_W), .DEPTH(IN_DEPTH)) in_q (
                .clk(clk), .rst(rst),
                .s_valid(buf_push), .s_ready(s_req_ready[r]),
                .s_data(s_req_data[r*REQ_W +: REQ_W]),
                .m_valid(buf_valid[r]), .m_ready(take[r]),
                .m_data(buf_data[r*REQ_W +: REQ_W]),
                .count(buf_count));
            assign offer[r] = buf_valid[r] || (s_req_valid[r] && s_req_ready[r]);
            assign offer_data[r*REQ_W +: REQ_W] = buf_valid[r] ? buf_data[r*REQ_W +: REQ_W]
                                                              : s_req_data[r*REQ_W +: REQ_W];

            // Answers owed: taken for the port, not yet given to the requester. The
            // flags step with the count; its values one up and one down are both
            // computed from the register and both compared, so a synthesis tool cannot
            // share one adder between them with the requester's ready before its carry.
            reg  [CNT_W-1:0] owed;
            reg              credit;  // owed != RESP_DEPTH
            reg              owes;    // owed != 0
            wire given = m_resp_valid[r] && m_resp_ready[r];
            wire [CNT_W-1:0] owed_up   = owed + 1'b1;
            wire [CNT_W-1:0] owed_down = owed - 1'b1;
            always @(posedge clk) begin
                if (rst) begin
                    owed   <= {CNT_W{1'b0}};
                    credit <= 1'b1;
                    owes   <= 1'b0;
                end else if (take[r] && !given) begin
                    owed   <= owed_up;
                    credit <= owed_up != CREDIT_FULL;
                    owes   <= 1'b1;
                end else if (!take[r] && given) begin
                    owed   <= owed_down;
                    credit <= 1'b1;
                    owes   <= owed_down != {CNT_W{1'b0}};
                end
            end
            assign has_credit[r] = credit;
            assign busy[r] = buf_valid[r] || owes;

            // the answers: straight through when the queue is empty, else queued
            assign answer[r] = s_resp_valid && origin_valid && origin == ID;
            wire             q_valid;
            wire [WORD_W-1:0] q_data;
            /* verilator lint_off UNUSEDSIGNAL */
            wire             q_in_ready;  // always 1: the credit reserved the place
            wire [$clog2(RESP_DEPTH+1)-1:0] q_count;
            /* verilator lint_on UNUSEDSIGNAL */
            clhls_fifo #(.WIDTH(WORD_W), .DEPTH(RESP_DEPTH)) resp_q (
                .clk(clk), .rst(rst),
                .s_valid(answer[r] && (q_valid || !m_resp_ready[r])), .s_ready(q_in_ready),
                .s_data(s_resp_data),
                .m_valid(q_valid), .m_ready(m_resp_ready[r]),
                .m_data(q_data),
                .count(q_count));
            assign m_resp_valid[r] = q_valid || answer[r];
            assign m_resp_data[r*WORD_W +: WORD_W] = q_valid ? q_data : s_resp_data;
        end
    endgenerate

    assign idle = ~|busy;
endmodule

`default_nettype wire
