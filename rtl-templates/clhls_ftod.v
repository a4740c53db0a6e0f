// clhls_ftod: IEEE-754 binary32 to binary64 conversion (C's (double)f), exact.
//
// Every binary32 value is a binary64 value, so nothing rounds: the exponent is
// rebiased (127 -> 1023) and the fraction gets 29 zero bits. Same conventions as the
// other floating-point units: a denormal operand is a zero of the same sign, an
// infinity stays an infinity, every NaN gives the canonical quiet NaN
// 0x7FF8000000000000. y appears exactly LATENCY enabled cycles after a:
// combinational logic then LATENCY registers held by ce = 0.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_ftod of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_ftod #(
    parameter LATENCY = 1  // enabled cycles from operand to result (>= 1)
) (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [31:0] a,    // binary32 operand
    output wire [63:0] y     // the same value in binary64, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    wire [63:0] result = clhls_model_ftod(a);
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(64), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam [63:0] QNAN = 64'h7FF8000000000000;

    wire [7:0]  exp_a = a[30:23];
    wire        zero  = (exp_a == 8'd0);     // zero or denormal
    wire        top   = (exp_a == 8'hFF);    // infinity or NaN
    wire        nan   = top && (a[22:0] != 23'd0);
    // 1.f x 2^(e - 127) = 1.f x 2^((e + 896) - 1023).
    wire [10:0] exp_d = {3'b000, exp_a} + 11'd896;
    reg  [63:0] result;

    always @(*) begin
        if (nan)
            result = QNAN;
        else if (top)
            result = {a[31], 11'h7FF, 52'd0};
        else if (zero)
            result = {a[31], 63'd0};
        else
            result = {a[31], exp_d, a[22:0], 29'd0};
    end

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(64), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
