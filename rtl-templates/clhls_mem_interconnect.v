// clhls_mem_interconnect: joins the load-store units onto the single memory port.
//
// Every handshake leaving it is registered, so no valid/ready path runs through it
// from one unit into another (docs/architecture.md, "Timing rules").
// Requests: one port holds the grant, a register; s_req_ready[i] is "port i holds the
// grant and the output slice has room", an AND of two registers. The granted port's
// request (an atomic one with its operation code), tagged with the port's index, goes
// into a two-entry register slice that drives the memory port (the behaviour of
// clhls_skid: one cycle of latency, full throughput); the slice's registers load the
// granted port's fields, selected by the grant register, only when a request moves.
// The next grant is decided at the clock edge from the ports' valid bits: when the
// granted port's request moved, or it has none, the grant passes to the first
// requesting port after it around the ring (back to itself when no other requests);
// while it waits for the slice it keeps the grant. So a port streaming alone issues
// one request per cycle, ports that all request take turns, every waiting port is
// served within NPORTS grants, and a request to an idle interconnect waits one cycle
// for the grant.
// Write data: only the ports in WRITERS (store and atomic units) have write data and
// byte enables; s_req_wdata and s_req_wstrb hold theirs alone, packed in port order
// (the k-th writer's at slot k), so a design of many load units carries no wide zero
// buses. A request from another port goes out with no byte enables and its write
// data undefined (a read ignores it).
// Responses: the memory answers in request order with the tag; each answer enters a
// register slice (s_mem_resp_ready is its registered "has room"), and from its output
// register goes to port m_resp_valid[tag] (rdata is broadcast), taken when that port
// is ready (one cycle of latency, full throughput). Unknown tags are accepted and
// dropped.
// Needs clhls_skid.v.
`default_nettype none

module clhls_mem_interconnect #(
    parameter NPORTS = 1,   // number of load-store unit ports (>= 1)
    parameter MEM_W  = 512, // memory data width in bits (multiple of 8)
    parameter TAG_W  = 16,  // tag width; NPORTS <= 2**TAG_W
    parameter [NPORTS-1:0] WRITERS = {NPORTS{1'b1}},  // bit i: port i has write data
    parameter NWRITE = NPORTS  // number of ports in WRITERS; 0 still has one (unused) slot
) (
    input  wire                      clk,               // clock
    input  wire                      rst,               // synchronous active-high reset
    input  wire [NPORTS-1:0]         s_req_valid,       // port i requests
    output reg  [NPORTS-1:0]         s_req_ready,       // port i holds the grant and the slice has room
    input  wire [NPORTS-1:0]         s_req_write,       // port i: 1 = write, 0 = read
    input  wire [NPORTS*4-1:0]       s_req_atomic,      // port i: atomic operation code, 0 = none
    input  wire [NPORTS*64-1:0]      s_req_addr,        // port i: byte address at [64*i +: 64]
    input  wire [(NWRITE > 0 ? NWRITE : 1)*MEM_W-1:0]   s_req_wdata,       // k-th writer: write data at [MEM_W*k +: MEM_W]
    input  wire [(NWRITE > 0 ? NWRITE : 1)*MEM_W/8-1:0] s_req_wstrb,       // k-th writer: byte enables at [MEM_W/8*k +: MEM_W/8]
    output reg  [NPORTS-1:0]         m_resp_valid,      // response for port i
    input  wire [NPORTS-1:0]         m_resp_ready,      // port i takes its response
    output wire [MEM_W-1:0]          m_resp_rdata,      // response data (shared by all ports)
    output wire                      m_mem_req_valid,   // memory request valid
    input  wire                      m_mem_req_ready,   // memory takes the request
    output wire                      m_mem_req_write,   // 1 = write, 0 = read
    output wire [3:0]                m_mem_req_atomic,  // atomic operation code, 0 = none
    output wire [63:0]               m_mem_req_addr,    // byte address
    output wire [MEM_W-1:0]          m_mem_req_wdata,   // write data
    output wire [MEM_W/8-1:0]        m_mem_req_wstrb,   // write byte enables
    output wire [TAG_W-1:0]          m_mem_req_tag,     // index of the requesting port
    input  wire                      s_mem_resp_valid,  // memory response valid
    output wire                      s_mem_resp_ready,  // the response slice has room (registered)
    input  wire [MEM_W-1:0]          s_mem_resp_rdata,  // read data (don't care for writes)
    input  wire [TAG_W-1:0]          s_mem_resp_tag,    // tag of the answered request
    output wire                      still              // the next edge changes nothing (simulation; 0 in synthesis)
);
    localparam STRB_W = MEM_W / 8;
    localparam IDX_W  = (NPORTS > 1) ? $clog2(NPORTS) : 1;
    localparam WSLOTS = (NWRITE > 0) ? NWRITE : 1;
    localparam SLOT_W = (WSLOTS > 1) ? $clog2(WSLOTS) : 1;
    // SLOTS[SLOT_W*i +: SLOT_W]: writer i's write-data slot (the writers before it);
    // 0 for the other ports (any slot in range: their data is not used).
    /* verilator lint_off UNUSEDSIGNAL */
    function [NPORTS*SLOT_W-1:0] slots_of(input integer unused);
    /* verilator lint_on UNUSEDSIGNAL */
        integer i, k;
        begin
            slots_of = {NPORTS*SLOT_W{1'b0}};
            k = 0;
            for (i = 0; i < NPORTS; i = i + 1)
                if (WRITERS[i]) begin
                    slots_of[SLOT_W*i +: SLOT_W] = k[SLOT_W-1:0];
                    k = k + 1;
                end
        end
    endfunction
    localparam [NPORTS*SLOT_W-1:0] SLOTS = slots_of(0);

    reg  [IDX_W-1:0]  grant;        // the port that holds the grant
    reg  [NPORTS-1:0] grant_hot;    // the same, one bit per port
    reg  [IDX_W-1:0]  next_grant;   // the first requesting port after it (around the ring)
    reg               any_valid;    // some port requests
    wire              slice_ready;  // the slice can take a request
    wire              fire = slice_ready && s_req_valid[grant];  // the granted request moves
    wire [SLOT_W-1:0] grant_slot = SLOTS[SLOT_W*grant +: SLOT_W];  // its write-data slot
    integer k;

    always @(*) begin
        s_req_ready = slice_ready ? grant_hot : {NPORTS{1'b0}};
    end

    // The ring from the port after the grant, the granted port last: the lowest
    // requesting port above the grant, else the lowest requesting port. `above` (a
    // register beside the grant) marks the ports above it, so both candidates are the
    // lowest set bit of a vector x, found by one subtraction (a carry chain): x - 1
    // clears that bit and sets the ones below it, so x & ~(x - 1) is the bit alone and
    // ~(x ^ (x - 1)) the ports above it, the next `above`. The grant's index is the
    // one-hot's encoding.
    reg  [NPORTS-1:0] above;        // the ports above the grant
    wire [NPORTS-1:0] req_above  = s_req_valid & above;
    wire [NPORTS-1:0] above_less = req_above - 1'b1;
    wire [NPORTS-1:0] req_less   = s_req_valid - 1'b1;
    wire              any_above  = |req_above;  // a port above the grant requests
    wire [NPORTS-1:0] next_hot   = any_above ? req_above & ~above_less : s_req_valid & ~req_less;
    wire [NPORTS-1:0] next_above = any_above ? ~(req_above ^ above_less) : ~(s_req_valid ^ req_less);
    always @(*) begin
        next_grant = {IDX_W{1'b0}};
        for (k = 0; k < NPORTS; k = k + 1)
            if (next_hot[k])
                next_grant = next_grant | k[IDX_W-1:0];
        any_valid = |s_req_valid;
    end

    always @(posedge clk) begin
        if (rst) begin
            grant     <= {IDX_W{1'b0}};
            grant_hot <= {{(NPORTS-1){1'b0}}, 1'b1};
            above     <= {{(NPORTS-1){1'b1}}, 1'b0};
        end else if (any_valid && (fire || !s_req_valid[grant])) begin
            grant     <= next_grant;
            grant_hot <= next_hot;
            above     <= next_above;
        end
    end

    // The granted port's request, {write, atomic, addr, wdata, wstrb, port}: a function
    // called only where a register loads it, so no request-wide multiplexer is
    // evaluated on cycles without a transfer.
    localparam REQ_W = 1 + 4 + 64 + MEM_W + STRB_W + IDX_W;
    function [REQ_W-1:0] granted_request(input unused);
        begin
            granted_request = {s_req_write[grant], s_req_atomic[4*grant +: 4],
                               s_req_addr[64*grant +: 64],
                               s_req_wdata[MEM_W*grant_slot +: MEM_W],
                               WRITERS[grant] ? s_req_wstrb[STRB_W*grant_slot +: STRB_W]
                                              : {STRB_W{1'b0}},
                               grant};
        end
    endfunction

    // The register slice: the output registers drive the memory port; the skid
    // registers hold a request taken while the memory was not ready.
    reg             out_valid;   // the output registers hold a request
    reg             skid_valid;  // the skid registers hold one (the memory stalled)
    reg [REQ_W-1:0] out_req, skid_req;
    wire out_free = !out_valid || m_mem_req_ready;  // the output registers are free at the edge
    wire take_skid = out_free && skid_valid;         // the skid moves to the output
    wire take_in   = out_free && !skid_valid && fire;  // the request goes to the output
    wire park_in   = !out_free && fire;              // the request goes to the skid
    assign slice_ready = !skid_valid;

    always @(posedge clk) begin
        if (rst) begin
            out_valid  <= 1'b0;
            skid_valid <= 1'b0;
        end else if (out_free) begin
            out_valid  <= skid_valid || fire;  // fire is 0 while the skid is full
            skid_valid <= 1'b0;
        end else if (fire) begin
            skid_valid <= 1'b1;
        end
    end

    always @(posedge clk) begin
        if (take_skid)
            out_req <= skid_req;
        else if (take_in)
            out_req <= granted_request(1'b0);
        if (park_in)
            skid_req <= granted_request(1'b0);
    end

    wire [IDX_W-1:0] out_port;  // the port the request came from
    assign {m_mem_req_write, m_mem_req_atomic, m_mem_req_addr, m_mem_req_wdata,
            m_mem_req_wstrb, out_port} = out_req;
    assign m_mem_req_valid = out_valid;
    reg [TAG_W-1:0] out_tag;  // out_port widened to a tag
    always @(*) begin
        out_tag = {TAG_W{1'b0}};
        out_tag[IDX_W-1:0] = out_port;
    end
    assign m_mem_req_tag = out_tag;

    // Responses: a register slice (holding the port's index and whether the tag names
    // a port), then routed to that port.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0]      tag_port   = {{(32-IDX_W){1'b0}}, s_mem_resp_tag[IDX_W-1:0]};
    /* verilator lint_on UNUSEDSIGNAL */
    wire             tag_known  = s_mem_resp_tag < NPORTS;
    wire             resp_valid;  // the slice's output holds an answer
    reg              resp_ready;  // the port it is for takes it (or its tag is unknown)
    wire             resp_known;  // its tag names a port
    wire [IDX_W-1:0] resp_port;   // that port
    wire [MEM_W+IDX_W:0] answer_in, answer_out;  // the slice's word in and out
`ifdef CLHLS_SIM_MODELS
    // The simulation (never synthesis) keeps the line in the low bits, so it copies it
    // word for word instead of shifting it past the index (2 % of a vector add's
    // cycle). Synthesis keeps the order it had: the same logic under other bit names
    // placed differently, and no longer fitted vadd on the iCEBreaker.
    assign answer_in = {tag_known, tag_port[IDX_W-1:0], s_mem_resp_rdata};
    assign {resp_known, resp_port, m_resp_rdata} = answer_out;
`else
    assign answer_in = {s_mem_resp_rdata, tag_known, tag_port[IDX_W-1:0]};
    assign {m_resp_rdata, resp_known, resp_port} = answer_out;
`endif
    clhls_skid #(.WIDTH(MEM_W + 1 + IDX_W)) response_slice (
        .clk(clk), .rst(rst),
        .s_valid(s_mem_resp_valid), .s_ready(s_mem_resp_ready), .s_data(answer_in),
        .m_valid(resp_valid), .m_ready(resp_ready), .m_data(answer_out)
    );
    always @(*) begin
        m_resp_valid = {NPORTS{1'b0}};
        resp_ready   = 1'b1;
        for (k = 0; k < NPORTS; k = k + 1)
            if (resp_known && resp_port == k[IDX_W-1:0]) begin
                m_resp_valid[k] = resp_valid;
                resp_ready      = m_resp_ready[k];
            end
    end

    // No request or response moves inside and the grant stays (the simulator's jumps
    // over cycles where nothing moves). The memory side's handshakes are left to whoever
    // is there (the simulator at the memory port, or clhls_atomic_unit's own `still`),
    // so `still` depends on no input of the accelerator and costs no evaluation when
    // only those change.
`ifdef CLHLS_SIM_CHECKS
    assign still = !(any_valid && (fire || !s_req_valid[grant])) && !(resp_valid && resp_ready);
`else
    assign still = 1'b0;
`endif
endmodule

`default_nettype wire
