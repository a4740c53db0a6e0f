// clhls_delay_taps: one value delayed to several stages. Tap k gives d as it was
// DELAYS[k] enabled cycles ago; the delays increase from tap to tap. The compiler
// uses it to carry a value of a static region to every stage that reads it, with ce
// tied to the region's pipeline enable.
//
// Hardware: a chain of clhls_delay, one per stretch between taps, so the registers
// are shared (the last tap's delay in all, not the sum of the taps' delays).
// Simulation: with CLHLS_SIM_MODELS defined (the build that also uses the operators'
// C models) and a longest delay of RING_MIN or more, one ring buffer as deep as the
// longest delay, written once per enable and read at every tap: the same behaviour
// as the chain, with one write per cycle instead of one per stretch. In that build
// the delays are SIM_DELAYS (a folded region's, see clhls_delay; 0 is d itself).
`default_nettype none
module clhls_delay_taps #(
    parameter WIDTH = 32,                      // bits of the value
    parameter TAPS = 2,                        // number of taps (>= 1)
    parameter [32*TAPS-1:0] DELAYS = {32'd2, 32'd1}, // tap k's delay at [32*k +: 32]: increasing, >= 1
    parameter RING_MIN = 4,                    // see clhls_delay
    /* verilator lint_off UNUSEDPARAM */
    parameter [32*TAPS-1:0] SIM_DELAYS = DELAYS // with CLHLS_SIM_MODELS: the delays (non-decreasing, >= 0)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire clk,                    // clock
    input  wire ce,                     // clock enable: when 0 every register holds
    input  wire [WIDTH-1:0] d,          // value entering the pipeline
    output wire [TAPS*WIDTH-1:0] q      // tap k at [WIDTH*k +: WIDTH]
);
`ifdef CLHLS_SIM_MODELS
    localparam [32*TAPS-1:0] D = SIM_DELAYS;
    localparam integer LONGEST = SIM_DELAYS[32*(TAPS-1) +: 32];
`else
    localparam [32*TAPS-1:0] D = DELAYS;
`endif
    generate
`ifdef CLHLS_SIM_MODELS
        if (LONGEST >= RING_MIN) begin : ring
            localparam PTR_W = $clog2(LONGEST);
            localparam integer LAST_INT = LONGEST - 1;
            localparam [PTR_W-1:0] LAST = LAST_INT[PTR_W-1:0];
            reg [WIDTH-1:0] slots [0:LONGEST-1];  // slot ptr holds d of LONGEST enables ago
            reg [PTR_W-1:0] ptr = {PTR_W{1'b0}};  // oldest slot, overwritten next
            always @(posedge clk)
                if (ce) begin
                    slots[ptr] <= d;
                    ptr <= (ptr == LAST) ? {PTR_W{1'b0}} : ptr + 1'b1;
                end
            genvar k;
            for (k = 0; k < TAPS; k = k + 1) begin : tap
                // d of DELAY enables ago is DELAY slots behind ptr (LONGEST: at ptr).
                localparam integer DELAY_INT = D[32*k +: 32];
                localparam [PTR_W-1:0] DELAY = DELAY_INT[PTR_W-1:0];
                localparam integer WRAP_INT = LONGEST - DELAY_INT;
                localparam [PTR_W-1:0] WRAP = WRAP_INT[PTR_W-1:0];
                if (DELAY_INT == 0) begin : now
                    assign q[WIDTH*k +: WIDTH] = d;
                end else begin : behind
                    wire [PTR_W-1:0] slot = (DELAY_INT < LONGEST && ptr >= DELAY) ? ptr - DELAY : ptr + WRAP;
                    assign q[WIDTH*k +: WIDTH] = slots[slot];
                end
            end
        end else
`endif
        begin : chain
            genvar k;
            for (k = 0; k < TAPS; k = k + 1) begin : stretch
                localparam integer FROM = (k > 0) ? D[32*((k > 0) ? k - 1 : 0) +: 32] : 0;
                localparam integer TO = D[32*k +: 32];
                wire [WIDTH-1:0] in;
                if (k == 0) begin : first
                    assign in = d;
                end else begin : next
                    assign in = q[WIDTH*(k-1) +: WIDTH];
                end
                clhls_delay #(.WIDTH(WIDTH), .LATENCY(TO - FROM), .RING_MIN(RING_MIN)) line (
                    .clk(clk), .ce(ce), .d(in), .q(q[WIDTH*k +: WIDTH]));
            end
        end
    endgenerate
endmodule
`default_nettype wire
