// clhls_lsu_atomic: load-store unit of a global atomic operation (atomic_add,
// atomic_cmpxchg, ...): one memory request per operation, executed at the memory side.
//
// Each accepted request becomes one atomic memory request: the element's byte address,
// the operation code (clhls's atomic codes, 1..11: add, sub, xchg, cmpxchg, min, max,
// umin, umax, and, or, xor), the operand in wdata[63:0] and the compare value of a
// cmpxchg in wdata[127:64] (zero-extended from DATA_W), and the element's size as byte
// enables wstrb[DATA_W/8-1:0]. The memory answers with the value the element held
// before, in rdata[DATA_W-1:0]; the answers reach the pipeline in request order
// (m_resp_*). Requests go out through a 2-entry queue, answers come back through a
// DEPTH-entry queue; s_req_ready (registered) admits a request only while the request
// queue and the answers of every accepted request have room, so the memory is never
// back-pressured.
// Latency: request to memory 1 cycle after acceptance; answer 1 cycle after memory's.
// Needs clhls_fifo.v.
`default_nettype none

module clhls_lsu_atomic #(
    parameter DATA_W = 32,  // element bits: 32 or 64
    parameter MEM_W  = 512, // memory port width in bits (>= 128)
    parameter DEPTH  = 16,  // answers outstanding at most (>= 1)
    /* verilator lint_off UNUSEDPARAM */
    parameter CU     = 0,    // its compute unit's number in the accelerator (read by the simulation checks only)
    parameter UNIT   = 0     // its number in the compute unit (read by the simulation checks only)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire               clk,              // clock
    input  wire               rst,              // synchronous active-high reset
    input  wire               s_req_valid,      // the pipeline presents an operation
    output wire               s_req_ready,      // the unit takes it (registered)
    input  wire [63:0]        s_req_addr,       // element byte address (naturally aligned)
    input  wire [3:0]         s_req_op,         // atomic operation code (1..11)
    input  wire [DATA_W-1:0]  s_req_operand,    // operand (the new value of xchg and cmpxchg)
    input  wire [DATA_W-1:0]  s_req_compare,    // cmpxchg: the value expected in memory
    output wire               m_resp_valid,     // the old value of the oldest operation
    input  wire               m_resp_ready,     // the pipeline takes it
    output wire [DATA_W-1:0]  m_resp_data,      // the value memory held before
    output wire               m_mem_req_valid,  // memory request valid
    input  wire               m_mem_req_ready,  // memory takes the request
    output wire [63:0]        m_mem_req_addr,   // element byte address
    output wire [3:0]         m_mem_req_atomic, // atomic operation code
    output wire [MEM_W-1:0]   m_mem_req_wdata,  // operand [63:0], compare [127:64]
    output wire [MEM_W/8-1:0] m_mem_req_wstrb,  // the element's bytes, from lane 0
    input  wire               s_mem_resp_valid, // memory answers (in order)
    output wire               s_mem_resp_ready, // always 1: room was reserved
    input  wire [MEM_W-1:0]   s_mem_resp_rdata, // the old value in [DATA_W-1:0]
    output wire               idle,             // nothing accepted and unanswered
    output wire               count_atomic,     // pulse: an atomic request was issued
    output wire               still             // the next edge changes nothing (simulation; 0 in synthesis)
);
    localparam REQ_W = 64 + 4 + 2 * DATA_W;
    localparam CNT_W = $clog2(DEPTH + 1);
    localparam integer DEPTH_INT = DEPTH;
    localparam [CNT_W-1:0] FULL = DEPTH_INT[CNT_W-1:0];

    reg  [CNT_W-1:0] outstanding;  // accepted and not yet handed to the pipeline
    reg              answer_room;  // outstanding != FULL (a register: the ready is one)
    wire             take = s_req_valid && s_req_ready;
    wire             give = m_resp_valid && m_resp_ready;
    wire             q_ready;                 // the request queue has room (registered)
    wire             a_ready;                 // room for answers is reserved by `outstanding`
    wire [REQ_W-1:0] q_data;
    wire [1:0]       q_count;
    wire [CNT_W-1:0] a_count;

    assign s_req_ready = q_ready && answer_room;

    always @(posedge clk)
        if (rst) begin
            outstanding <= {CNT_W{1'b0}};
            answer_room <= 1'b1;
        end else begin
            outstanding <= outstanding + {{(CNT_W - 1){1'b0}}, take} - {{(CNT_W - 1){1'b0}}, give};
            if (take && !give)
                answer_room <= outstanding != FULL - 1'b1;
            else if (give && !take)
                answer_room <= 1'b1;
        end

    clhls_fifo #(.WIDTH(REQ_W), .DEPTH(2)) requests (
        .clk(clk), .rst(rst),
        .s_valid(take), .s_ready(q_ready),
        .s_data({s_req_addr, s_req_op, s_req_compare, s_req_operand}),
        .m_valid(m_mem_req_valid), .m_ready(m_mem_req_ready), .m_data(q_data),
        .count(q_count));

    wire [DATA_W-1:0] q_operand = q_data[DATA_W-1:0];
    wire [DATA_W-1:0] q_compare = q_data[2*DATA_W-1:DATA_W];
    assign m_mem_req_atomic = q_data[2*DATA_W+3:2*DATA_W];
    assign m_mem_req_addr   = q_data[REQ_W-1:REQ_W-64];
    assign m_mem_req_wdata  = {{(MEM_W - 128){1'b0}}, {(64 - DATA_W){1'b0}}, q_compare,
                               {(64 - DATA_W){1'b0}}, q_operand};
    assign m_mem_req_wstrb  = {{(MEM_W / 8 - DATA_W / 8){1'b0}}, {(DATA_W / 8){1'b1}}};
    assign count_atomic     = m_mem_req_valid && m_mem_req_ready;

    /* verilator lint_off UNUSEDSIGNAL */
    wire [MEM_W-1:0] rdata = s_mem_resp_rdata;  // only the element's bits are used
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_fifo #(.WIDTH(DATA_W), .DEPTH(DEPTH)) answers (
        .clk(clk), .rst(rst),
        .s_valid(s_mem_resp_valid), .s_ready(a_ready), .s_data(rdata[DATA_W-1:0]),
        .m_valid(m_resp_valid), .m_ready(m_resp_ready), .m_data(m_resp_data),
        .count(a_count));
    assign s_mem_resp_ready = 1'b1;
    assign idle = outstanding == {CNT_W{1'b0}};
`ifdef CLHLS_SIM_CHECKS
    assign still = !take && !give && !count_atomic && !s_mem_resp_valid;
`else
    assign still = 1'b0;
`endif

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = a_ready ^ (^q_count) ^ (^a_count);
    /* verilator lint_on UNUSEDSIGNAL */
`ifdef CLHLS_SIM_CHECKS
    localparam [7:0] SIM_ACCESS_KIND = 8'd2; // an atomic (clhls_sim_checks.vh)
    `include "clhls_sim_checks.vh"
`endif
endmodule

`default_nettype wire
