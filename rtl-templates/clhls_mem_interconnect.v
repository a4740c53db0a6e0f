// clhls_mem_interconnect: joins the load-store units onto the single memory port.
//
// Requests: a round-robin arbiter picks at most one requesting port per cycle and
// passes the request (an atomic one with its operation code), tagged with the port's
// index, into a two-entry register slice that drives the memory port (one cycle of
// added latency, full throughput; the behaviour of clhls_skid). The slice's registers
// load the winner's fields straight from its port, and only when a request moves:
// no request-wide multiplexer is evaluated on cycles without a transfer.
// Fairness: after port i is served, port i+1 has the highest priority, so every
// waiting port is served within NPORTS grants. s_req_ready[i] means "port i would
// win if it asked": it depends on the other ports' valid bits and the registered
// skid state, never on s_req_valid[i].
// Write data: only the ports in WRITERS (store and atomic units) have write data and
// byte enables; s_req_wdata and s_req_wstrb hold theirs alone, packed in port order
// (the k-th writer's at slot k), so a design of many load units carries no wide zero
// buses. A request from another port goes out with no byte enables and its write
// data undefined (a read ignores it).
// Responses: the memory answers in request order with the tag; the response is
// routed combinationally to port m_resp_valid[tag] (rdata is broadcast) and
// s_mem_resp_ready is that port's ready (no added latency). Unknown tags are
// accepted and dropped.
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
    output reg  [NPORTS-1:0]         s_req_ready,       // port i's request is taken
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
    output reg                       s_mem_resp_ready,  // the addressed port takes it
    input  wire [MEM_W-1:0]          s_mem_resp_rdata,  // read data (don't care for writes)
    input  wire [TAG_W-1:0]          s_mem_resp_tag     // tag of the answered request
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
    localparam integer LAST_INDEX = NPORTS - 1;
    localparam [IDX_W-1:0] LAST_PORT = LAST_INDEX[IDX_W-1:0];  // index of the last port

    reg  [IDX_W-1:0] priority_port;   // port with the highest priority this cycle
    reg  [IDX_W-1:0] winner;          // port whose request fires this cycle
    reg              any_fire;        // some port's request fires
    reg              earlier_valid;   // a higher-priority port is requesting
    wire             slice_ready;     // the slice can take a request
    wire [SLOT_W-1:0] winner_slot = SLOTS[SLOT_W*winner +: SLOT_W];  // its write-data slot
    integer k, port;

    // Arbitration: walk the ports from priority_port around the ring.
    always @(*) begin
        earlier_valid = 1'b0;
        any_fire      = 1'b0;
        winner        = priority_port;
        s_req_ready   = {NPORTS{1'b0}};
        for (k = 0; k < NPORTS; k = k + 1) begin
            port = {{(32-IDX_W){1'b0}}, priority_port} + k;
            if (port >= NPORTS)
                port = port - NPORTS;
            s_req_ready[port] = slice_ready && !earlier_valid;
            if (s_req_valid[port] && !earlier_valid) begin
                any_fire = slice_ready;
                winner   = port[IDX_W-1:0];
            end
            earlier_valid = earlier_valid || s_req_valid[port];
        end
    end

    always @(posedge clk) begin
        if (rst)
            priority_port <= {IDX_W{1'b0}};
        else if (any_fire)
            priority_port <= (winner == LAST_PORT) ? {IDX_W{1'b0}} : winner + 1'b1;
    end

    // The register slice: the output registers drive the memory port; the skid
    // registers hold a request taken while the memory was not ready.
    reg               out_valid;   // the output registers hold a request
    reg               skid_valid;  // the skid registers hold one (the memory stalled)
    reg               out_write,  skid_write;
    reg  [3:0]        out_atomic, skid_atomic;
    reg  [63:0]       out_addr,   skid_addr;
    reg  [MEM_W-1:0]  out_wdata,  skid_wdata;
    reg  [STRB_W-1:0] out_wstrb,  skid_wstrb;
    reg  [IDX_W-1:0]  out_port,   skid_port;
    wire out_free = !out_valid || m_mem_req_ready;  // the output registers are free at the edge
    wire take_skid = out_free && skid_valid;         // the skid moves to the output
    wire take_in   = out_free && !skid_valid && any_fire;  // the winner goes to the output
    wire park_in   = !out_free && any_fire;          // the winner goes to the skid
    assign slice_ready = !skid_valid;

    always @(posedge clk) begin
        if (rst) begin
            out_valid  <= 1'b0;
            skid_valid <= 1'b0;
        end else if (out_free) begin
            out_valid  <= skid_valid || any_fire;  // any_fire is 0 while the skid is full
            skid_valid <= 1'b0;
        end else if (any_fire) begin
            skid_valid <= 1'b1;
        end
    end

    always @(posedge clk) begin
        if (take_skid) begin
            out_write  <= skid_write;
            out_atomic <= skid_atomic;
            out_addr   <= skid_addr;
            out_wdata  <= skid_wdata;
            out_wstrb  <= skid_wstrb;
            out_port   <= skid_port;
        end else if (take_in) begin
            out_write  <= s_req_write[winner];
            out_atomic <= s_req_atomic[4*winner +: 4];
            out_addr   <= s_req_addr[64*winner +: 64];
            out_wdata  <= s_req_wdata[MEM_W*winner_slot +: MEM_W];
            out_wstrb  <= WRITERS[winner] ? s_req_wstrb[STRB_W*winner_slot +: STRB_W]
                                          : {STRB_W{1'b0}};
            out_port   <= winner;
        end
        if (park_in) begin
            skid_write  <= s_req_write[winner];
            skid_atomic <= s_req_atomic[4*winner +: 4];
            skid_addr   <= s_req_addr[64*winner +: 64];
            skid_wdata  <= s_req_wdata[MEM_W*winner_slot +: MEM_W];
            skid_wstrb  <= WRITERS[winner] ? s_req_wstrb[STRB_W*winner_slot +: STRB_W]
                                           : {STRB_W{1'b0}};
            skid_port   <= winner;
        end
    end

    assign m_mem_req_valid  = out_valid;
    assign m_mem_req_write  = out_write;
    assign m_mem_req_atomic = out_atomic;
    assign m_mem_req_addr   = out_addr;
    assign m_mem_req_wdata  = out_wdata;
    assign m_mem_req_wstrb  = out_wstrb;
    reg [TAG_W-1:0] out_tag;  // out_port widened to a tag
    always @(*) begin
        out_tag = {TAG_W{1'b0}};
        out_tag[IDX_W-1:0] = out_port;
    end
    assign m_mem_req_tag = out_tag;

    // Responses, routed by tag.
    assign m_resp_rdata = s_mem_resp_rdata;
    always @(*) begin
        m_resp_valid     = {NPORTS{1'b0}};
        s_mem_resp_ready = 1'b1;
        for (k = 0; k < NPORTS; k = k + 1)
            if (s_mem_resp_tag == k[TAG_W-1:0]) begin
                m_resp_valid[k]  = s_mem_resp_valid;
                s_mem_resp_ready = m_resp_ready[k];
            end
    end
endmodule

`default_nettype wire
