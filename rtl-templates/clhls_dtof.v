// clhls_dtof: IEEE-754 binary64 to binary32 conversion (C's (float)d), round to
// nearest even.
//
// The 53-bit significand is rounded to 24 bits (ties to even) and the exponent
// rebiased (1023 -> 127). A binary64 subnormal operand gives a zero of the same sign
// (as in IEEE arithmetic: it is far below half the smallest binary32 subnormal). The
// binary32 side flushes as the binary32 units do (the device reports no CL_FP_DENORM
// for float): a result below the binary32 normal range is flushed to a zero of the
// same sign (the rounded result decides: a value that rounds up to the smallest
// normal, 2^-126, is kept); a value that rounds beyond
// the largest binary32 gives infinity; infinities stay infinities; every NaN gives the
// canonical quiet NaN 0x7FC00000. y appears exactly LATENCY enabled cycles after a:
// combinational logic then LATENCY registers held by ce = 0.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_dtof of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_dtof #(
    parameter LATENCY = 2, // enabled cycles from operand to result (>= 1)
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1  // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [63:0] a,    // binary64 operand
    output wire [31:0] y     // a rounded to binary32, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    wire [31:0] result = clhls_model_dtof(a);
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(32), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam [31:0] QNAN = 32'h7FC00000;

    wire        sign  = a[63];
    wire [10:0] exp_a = a[62:52];
    wire        zero  = (exp_a == 11'd0);       // zero or denormal
    wire        top   = (exp_a == 11'h7FF);     // infinity or NaN
    wire        nan   = top && (a[51:0] != 52'd0);
    // Biased binary32 exponent before rounding: e - 1023 + 127.
    wire signed [12:0] exp_norm = {2'b00, exp_a} - 13'sd896;
    wire [23:0] mant   = {1'b1, a[51:29]};      // the 24 leading significand bits
    wire        guard  = a[28];
    wire        sticky = |a[27:0];
    wire [24:0] rounded = {1'b0, mant} + {24'd0, guard && (sticky || mant[0])};
    wire signed [12:0] exp_final = rounded[24] ? exp_norm + 13'sd1 : exp_norm;
    reg  [31:0] result;

    always @(*) begin
        if (nan)
            result = QNAN;
        else if (top)
            result = {sign, 8'hFF, 23'd0};
        else if (zero)
            result = {sign, 31'd0};
        else if (exp_norm <= 13'sd0)
            // Tiny: only 1.111..1 x 2^-127 and above round up to the smallest normal.
            result = (exp_norm == 13'sd0 && mant == 24'hFFFFFF)
                     ? {sign, 8'd1, 23'd0} : {sign, 31'd0};
        else if (exp_final >= 13'sd255)
            result = {sign, 8'hFF, 23'd0};
        else
            result = {sign, exp_final[7:0], rounded[22:0]};
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[23];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(32), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
