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
// canonical quiet NaN 0x7FC00000. y appears exactly LATENCY enabled cycles after a,
// every register held by ce = 0.
//
// Structure: two stages. (1) The operand's class, the rebiased exponent and the
// rounded significand; (2) the exponent's carry from the rounding, the range checks
// and the packing. A register goes after stage 1 when LATENCY >= 2, the others after
// stage 2.
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

    // Registers inside (at most 1) and where they go; see the header.
    localparam R1 = (LATENCY >= 2) ? 1 : 0;     // after stage 1, the rounded significand
    localparam OUT_LAT = LATENCY - R1;          // after stage 2 (>= 1)

    // ---- Stage 1: the class, the exponent and the rounded significand ----
    wire [10:0] exp_a  = a[62:52];
    wire        zero_1 = (exp_a == 11'd0);       // zero or denormal
    wire        top_1  = (exp_a == 11'h7FF);     // infinity or NaN
    wire        nan_1  = top_1 && (a[51:0] != 52'd0);
    // Biased binary32 exponent before rounding: e - 1023 + 127.
    wire signed [12:0] exp_norm_1 = {2'b00, exp_a} - 13'sd896;
    wire [23:0] mant   = {1'b1, a[51:29]};      // the 24 leading significand bits
    wire        guard  = a[28];
    wire        sticky = |a[27:0];
    wire [24:0] rounded_1 = {1'b0, mant} + {24'd0, guard && (sticky || mant[0])};
    // Tiny: only 1.111..1 x 2^-127 and above round up to the smallest normal.
    wire        tiny_up_1 = (exp_norm_1 == 13'sd0) && (mant == 24'hFFFFFF);

    wire        sign_2, zero_2, top_2, nan_2, tiny_up_2;
    wire signed [12:0] exp_norm_2;
    wire [24:0] rounded_2;
    clhls_delay #(.WIDTH(5 + 13 + 25), .LATENCY(R1)) reg1 (.clk(clk), .ce(ce),
        .d({a[63], zero_1, top_1, nan_1, tiny_up_1, exp_norm_1, rounded_1}),
        .q({sign_2, zero_2, top_2, nan_2, tiny_up_2, exp_norm_2, rounded_2}));

    // ---- Stage 2: the rounding's carry into the exponent, range checks, packing ----
    wire signed [12:0] exp_final = rounded_2[24] ? exp_norm_2 + 13'sd1 : exp_norm_2;
    reg  [31:0] result;

    always @(*) begin
        if (nan_2)
            result = QNAN;
        else if (top_2)
            result = {sign_2, 8'hFF, 23'd0};
        else if (zero_2)
            result = {sign_2, 31'd0};
        else if (exp_norm_2 <= 13'sd0)
            result = tiny_up_2 ? {sign_2, 8'd1, 23'd0} : {sign_2, 31'd0};
        else if (exp_final >= 13'sd255)
            result = {sign_2, 8'hFF, 23'd0};
        else
            result = {sign_2, exp_final[7:0], rounded_2[22:0]};
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded_2[23];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: OUT_LAT registers, all held while ce = 0.
    clhls_delay #(.WIDTH(32), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
