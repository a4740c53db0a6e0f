// clhls_mem_route: routes one load-store unit port to the memory port its address
// falls in, when the board has several memory ports (channels).
//
// Memory port p serves the device addresses [p * 2^SEL_LO, (p + 1) * 2^SEL_LO), so the
// port of a request is s_req_addr[SEL_LO +: log2(NMEM)]. Each memory port has its own
// clhls_mem_interconnect; this module sits between one unit's port and its slave port
// on each of the NMEM interconnects, and routes only the handshakes: the unit's
// address, write flag, atomic code, write data and byte enables are wired to every
// interconnect directly, and an interconnect's response data is shared by its slaves.
// Order: a load-store unit takes its answers in request order. Each interconnect
// answers in order, but two of them could overtake each other, so the unit's requests
// go to one port at a time: `cur` is the port of the requests in flight and
// `outstanding` counts those accepted and not yet answered and taken. A request to
// port q is passed on only while nothing is in flight or q == cur; one to another port
// waits until every answer is taken, and then sets `cur`. The answers come from port
// `cur` alone (the others have none in flight).
// Timing: s_req_ready is the port's registered ready (the interconnect's grant AND its
// slice's room), chosen by the address bits, AND "nothing in flight" (a register) OR
// "the same port" (one compare); the answers are chosen by the register `cur`. No
// register, no latency: a unit streaming to one port keeps one request per cycle.
// CNT_W must count the unit's most requests in flight.
`default_nettype none

module clhls_mem_route #(
    parameter NMEM   = 2,   // memory ports (a power of two, >= 2)
    parameter SEL_LO = 32,  // lowest address bit of the port number (each port serves 2^SEL_LO bytes)
    parameter MEM_W  = 512, // memory data width in bits (multiple of 8)
    parameter CNT_W  = 16   // width of the count of requests in flight
) (
    input  wire                  clk,           // clock
    input  wire                  rst,           // synchronous active-high reset
    input  wire                  s_req_valid,   // the unit requests
    output wire                  s_req_ready,   // the request's port takes it, and it may go there
    input  wire [63:0]           s_req_addr,    // the request's byte address (chooses the port)
    output wire [NMEM-1:0]       m_req_valid,   // the request, to interconnect p's slave port
    input  wire [NMEM-1:0]       m_req_ready,   // interconnect p takes it
    input  wire [NMEM-1:0]       s_resp_valid,  // interconnect p has an answer for the unit
    output wire [NMEM-1:0]       s_resp_ready,  // the unit takes interconnect p's answer
    input  wire [NMEM*MEM_W-1:0] s_resp_rdata,  // interconnect p's answer data at [MEM_W*p +: MEM_W]
    output wire                  m_resp_valid,  // the oldest answer, to the unit
    input  wire                  m_resp_ready,  // the unit takes it
    output wire [MEM_W-1:0]      m_resp_rdata,  // its data
    output wire                  still          // the next edge changes nothing (simulation; 0 in synthesis)
);
    localparam SEL_W = $clog2(NMEM);
    generate
        if (NMEM < 2 || (NMEM & (NMEM - 1)) != 0 || SEL_LO + SEL_W > 64) begin : bad_ports
            $error("clhls_mem_route: NMEM must be a power of two >= 2 and the port number within the address");
        end
    endgenerate

    /* verilator lint_off UNUSEDSIGNAL */
    wire [63:0]      addr = s_req_addr;  // only the port number's bits are used
    /* verilator lint_on UNUSEDSIGNAL */
    wire [SEL_W-1:0] sel  = addr[SEL_LO +: SEL_W];  // the request's port

    reg  [SEL_W-1:0] cur;          // the port of the requests in flight
    reg  [CNT_W-1:0] outstanding;  // requests accepted and not yet answered and taken
    reg              none;         // outstanding == 0 (a register: the ready is one)
    wire             allowed = none || sel == cur;  // the request may go to its port
    wire             take = s_req_valid && s_req_ready;    // a request moves
    wire             give = m_resp_valid && m_resp_ready;  // an answer moves
    genvar p;

    assign s_req_ready = m_req_ready[sel] && allowed;
    generate
        for (p = 0; p < NMEM; p = p + 1) begin : ports
            assign m_req_valid[p]  = s_req_valid && allowed && sel == p;
            assign s_resp_ready[p] = m_resp_ready && cur == p;
        end
    endgenerate
    assign m_resp_valid = s_resp_valid[cur];
    assign m_resp_rdata = s_resp_rdata[MEM_W*cur +: MEM_W];

    always @(posedge clk)
        if (rst) begin
            cur         <= {SEL_W{1'b0}};
            outstanding <= {CNT_W{1'b0}};
            none        <= 1'b1;
        end else begin
            if (take)
                cur <= sel;
            outstanding <= outstanding + {{(CNT_W - 1){1'b0}}, take} - {{(CNT_W - 1){1'b0}}, give};
            if (take && !give)
                none <= 1'b0;
            else if (give && !take)
                none <= outstanding == {{(CNT_W - 1){1'b0}}, 1'b1};
        end

    // No request or answer moves (the simulator's jumps over cycles where nothing moves).
`ifdef CLHLS_SIM_CHECKS
    assign still = !take && !give;
`else
    assign still = 1'b0;
`endif
endmodule

`default_nettype wire
