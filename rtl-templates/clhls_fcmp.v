// clhls_fcmp: IEEE-754 binary32 or binary64 comparison with an LLVM fcmp predicate.
//
// y = (a pred b) appears exactly LATENCY enabled cycles after the operands. W selects
// the format: 32 (binary32) or 64 (binary64).
// pred uses LLVM's FCmp numbering: 0 false, 1 oeq, 2 ogt, 3 oge, 4 olt, 5 ole,
// 6 one, 7 ord, 8 uno, 9 ueq, 10 ugt, 11 uge, 12 ult, 13 ule, 14 une, 15 true.
// "o" predicates are false and "u" predicates true when either operand is NaN.
// +0 equals -0. Subnormals per SUBNORMALS (1 by default at W = 64: they compare by
// their value, as IEEE orders them; 0 at W = 32: they compare as zero, like the
// flushing arithmetic units).
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fcmp32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_fcmp #(
    parameter LATENCY = 1,  // enabled cycles from operands to result (>= 1)
    parameter W = 32,       // format: 32 (binary32) or 64 (binary64)
    parameter SUBNORMALS = (W == 64) ? 1 : 0, // 1: subnormals by value, 0: as zero
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1, // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    parameter [1:0] SIM_NORMAL = 0  // with CLHLS_SIM_MODELS, W = 32: bit i set, operand i never subnormal (no flush)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire         clk,   // clock
    input  wire         ce,    // clock enable: 0 holds every pipeline register
    input  wire [W-1:0] a,     // first operand
    input  wire [W-1:0] b,     // second operand
    input  wire [3:0]   pred,  // LLVM FCmp predicate
    output wire         y      // comparison result, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    // The C model follows the default subnormal handling only.
    generate
        if (SUBNORMALS != ((W == 64) ? 1 : 0)) begin : model_mismatch
            initial $fatal(1, "clhls_fcmp: the C model has subnormals at W = 64 only (the default SUBNORMALS)");
        end
    endgenerate
    wire result;           // a pred b
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fcmp64(a, b, {4'b0000, pred});
        end else begin : model32
            assign result = clhls_model_fcmp32(a, b, {4'b0000, pred}, {6'd0, SIM_NORMAL});
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(1), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam OUT_BITS = 1;
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)

    // Zero: a zero, or with SUBNORMALS = 0 a subnormal too.
    wire zero_a = (a[W-2:FW] == {EW{1'b0}}) && (SUBNORMALS == 0 || a[FW-1:0] == {FW{1'b0}});
    wire zero_b = (b[W-2:FW] == {EW{1'b0}}) && (SUBNORMALS == 0 || b[FW-1:0] == {FW{1'b0}});
    wire nan_a  = (a[W-2:FW] == {EW{1'b1}}) && (a[FW-1:0] != {FW{1'b0}});
    wire nan_b  = (b[W-2:FW] == {EW{1'b1}}) && (b[FW-1:0] != {FW{1'b0}});
    wire unordered = nan_a || nan_b;
    // Magnitudes, with subnormals flushed to zero when SUBNORMALS = 0.
    wire [W-2:0] mag_a = zero_a ? {(W-1){1'b0}} : a[W-2:0];
    wire [W-2:0] mag_b = zero_b ? {(W-1){1'b0}} : b[W-2:0];
    wire both_zero = zero_a && zero_b;
    wire equal     = both_zero || (a == b);
    reg  less;     // a < b, ordered operands

    always @(*) begin
        if (both_zero)
            less = 1'b0;
        else if (a[W-1] != b[W-1])
            less = a[W-1];             // negative < positive (not both zero)
        else if (!a[W-1])
            less = (mag_a < mag_b);
        else
            less = (mag_a > mag_b);
    end

    wire greater = !less && !equal;
    reg  result;
    always @(*) begin
        case (pred)
            4'd0:  result = 1'b0;
            4'd1:  result = !unordered && equal;
            4'd2:  result = !unordered && greater;
            4'd3:  result = !unordered && (greater || equal);
            4'd4:  result = !unordered && less;
            4'd5:  result = !unordered && (less || equal);
            4'd6:  result = !unordered && !equal;
            4'd7:  result = !unordered;
            4'd8:  result = unordered;
            4'd9:  result = unordered || equal;
            4'd10: result = unordered || greater;
            4'd11: result = unordered || greater || equal;
            4'd12: result = unordered || less;
            4'd13: result = unordered || less || equal;
            4'd14: result = unordered || !equal;
            default: result = 1'b1;
        endcase
    end

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_BITS), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
