// clhls_fptoi: IEEE-754 binary32 or binary64 to integer conversion, rounding toward
// zero.
//
// C semantics for in-range values (the fraction is dropped). Out-of-range values
// saturate (OpenCL leaves them undefined; saturation is clhls' choice): to the
// largest/smallest OUT_W-bit value, and negative values to 0 when unsigned.
// NaN gives 0, infinities saturate, subnormals give 0 (their value truncates to 0:
// the same with or without subnormal support). W selects the operand's
// format: 32 (binary32) or 64 (binary64). y appears exactly LATENCY enabled cycles
// after a, every register held by ce = 0.
//
// Structure: three stages. (1) Unpack: the shift (the unbiased exponent), NaN and
// |a| < 1 (zero), too large for any width; (2) the significand shifted into the
// truncated magnitude; (3) saturation and negation. A register goes after stage 1
// when LATENCY >= 2 and after stage 2 when LATENCY >= 3; the others after stage 3.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fptoi32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_fptoi #(
    parameter OUT_W   = 32,  // integer width: 8, 16, 32 or 64
    parameter SIGNED  = 1,   // 1: signed result, 0: unsigned
    parameter LATENCY = 3,   // enabled cycles from operand to result (>= 1)
    parameter W       = 32,  // operand format: 32 (binary32) or 64 (binary64)
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1  // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire             clk,  // clock
    input  wire             ce,   // clock enable: 0 holds every pipeline register
    input  wire [W-1:0]     a,    // floating-point operand
    output wire [OUT_W-1:0] y     // converted value, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    wire [OUT_W-1:0] result;   // a converted
    generate
        if (W == 64) begin : model64
            assign result = OUT_W'(clhls_model_fptoi64(a, OUT_W, SIGNED));
        end else begin : model32
            assign result = OUT_W'(clhls_model_fptoi32(a, OUT_W, SIGNED));
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_W), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam OUT_BITS = OUT_W;
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam BIAS = (1 << (EW - 1)) - 1;
    localparam [EW-1:0] E_ONE  = BIAS;        // biased exponent of 1.0
    localparam [EW-1:0] E_HUGE = BIAS + 64;   // of 2^64

    // Registers inside (at most 2) and where they go; see the header.
    localparam R1 = (LATENCY >= 2) ? 1 : 0;     // after stage 1, unpack
    localparam R2 = (LATENCY >= 3) ? 1 : 0;     // after stage 2, the shift
    localparam OUT_LAT = LATENCY - R1 - R2;     // after stage 3 (>= 1)

    // ---- Stage 1: unpack ----
    wire          negative_1  = a[W-1];
    wire [EW-1:0] exp_a       = a[W-2:FW];
    // NaN and |a| < 1 give 0; an unbiased exponent >= 64 (or inf) fits no supported width.
    wire          zero_1      = ((exp_a == {EW{1'b1}}) && (a[FW-1:0] != {FW{1'b0}})) ||
                                (exp_a < E_ONE);
    wire          huge_1      = (exp_a >= E_HUGE);
    wire [5:0]    shift_1     = exp_a[5:0] - E_ONE[5:0];   // exp - bias when 1 <= |a| < 2^64
    wire [FW-1:0] frac_1      = a[FW-1:0];

    wire          negative_2, zero_2, huge_2;
    wire [5:0]    shift_2;
    wire [FW-1:0] frac_2;
    clhls_delay #(.WIDTH(3 + 6 + FW), .LATENCY(R1)) reg1 (.clk(clk), .ce(ce),
        .d({negative_1, zero_1, huge_1, shift_1, frac_1}),
        .q({negative_2, zero_2, huge_2, shift_2, frac_2}));

    // ---- Stage 2: the magnitude, truncated ----
    wire [63+MW:0] shifted_2;                               // {1, frac} << shift_2
    clhls_shift #(.W(64 + MW), .SW(6), .RIGHT(0)) place (
        .in({64'd0, 1'b1, frac_2}), .amount(shift_2), .out(shifted_2));
    wire [64:0]    magnitude_2 = shifted_2[63+MW:FW];       // |a| truncated, < 2^65

    wire          negative_3, zero_3, huge_3;
    wire [64:0]   magnitude_3;
    clhls_delay #(.WIDTH(3 + 65), .LATENCY(R2)) reg2 (.clk(clk), .ce(ce),
        .d({negative_2, zero_2, huge_2, magnitude_2}),
        .q({negative_3, zero_3, huge_3, magnitude_3}));

    // ---- Stage 3: saturate, negate ----
    // Limits, as 65-bit magnitudes.
    wire [64:0] max_pos = (SIGNED != 0) ? ({65{1'b1}} >> (66 - OUT_W)) : ({65{1'b1}} >> (65 - OUT_W));
    wire [64:0] max_neg = (SIGNED != 0) ? (65'd1 << (OUT_W - 1)) : 65'd0;
    reg  [OUT_W-1:0] result;

    always @(*) begin
        if (zero_3)
            result = {OUT_W{1'b0}};
        else if (!negative_3) begin
            if (huge_3 || magnitude_3 > max_pos)
                result = max_pos[OUT_W-1:0];
            else
                result = magnitude_3[OUT_W-1:0];
        end else begin
            if (huge_3 || magnitude_3 > max_neg)
                result = (SIGNED != 0) ? max_neg[OUT_W-1:0] : {OUT_W{1'b0}};
            else
                result = ~magnitude_3[OUT_W-1:0] + 1'b1;
        end
    end

    // Only OUT_W bits of the magnitude and limits matter once the range is checked.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_bits = ^shifted_2[FW-1:0];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: the remaining registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_BITS), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
