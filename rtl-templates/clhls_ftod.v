// clhls_ftod: IEEE-754 binary32 to binary64 conversion (C's (double)f), exact.
//
// Every binary32 value is a binary64 value, so nothing rounds: the exponent is
// rebiased (127 -> 1023) and the fraction gets 29 zero bits. A binary32 subnormal
// (a binary32 value loaded from memory; the binary32 units themselves flush them)
// becomes the exact binary64 normal when SUBNORMALS = 1, the default: its fraction is
// normalised by a leading-zero count and a shift (clhls_fround.vh's unpack); with
// SUBNORMALS = 0 it gives a zero of the same sign. An infinity stays an infinity,
// every NaN gives the canonical quiet NaN 0x7FF8000000000000. y appears exactly
// LATENCY enabled cycles after a, every register held by ce = 0.
//
// Structure: two stages. (1) The operand's class and its unpacked exponent and
// significand (a subnormal's leading-zero count and shift); (2) the rebiased exponent
// and the packing. A register goes after stage 1 when LATENCY >= 2, the others after
// stage 2.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_ftod of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_ftod #(
    parameter LATENCY = 1,    // enabled cycles from operand to result (>= 1)
    parameter SUBNORMALS = 1, // 1: binary32 subnormals converted exactly, 0: as zeros
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1  // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [31:0] a,    // binary32 operand
    output wire [63:0] y     // the same value in binary64, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    // The C model follows the default subnormal handling only.
    generate
        if (SUBNORMALS != 1) begin : model_mismatch
            initial $fatal(1, "clhls_ftod: the C model converts binary32 subnormals (SUBNORMALS = 1) only");
        end
    endgenerate
    wire [63:0] result = clhls_model_ftod(a);
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(64), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam [63:0] QNAN = 64'h7FF8000000000000;
    // The binary32 operand's format, as clhls_fround.vh's unpack reads it.
    localparam W = 32, EW = 8, FW = 23, MW = 24, XW = 11;
    localparam [EW-1:0] E_MAX = 8'hFF, E_ONE = 8'd1;
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = 255;

    `include "clhls_fround.vh"   // unpack

    // Registers inside (at most 1) and where they go; see the header.
    localparam R1 = (LATENCY >= 2) ? 1 : 0;     // after stage 1, the unpacked operand
    localparam OUT_LAT = LATENCY - R1;          // after stage 2 (>= 1)

    // ---- Stage 1: the class, the exponent and the significand ----
    wire [7:0]  exp_a  = a[30:23];
    // Zero: a zero, or with SUBNORMALS = 0 a subnormal too.
    wire        zero_1 = (exp_a == 8'd0) && (SUBNORMALS == 0 || a[22:0] == 23'd0);
    wire        top_1  = (exp_a == E_MAX);    // infinity or NaN
    wire        nan_1  = top_1 && (a[22:0] != 23'd0);
    // The exponent e and the significand 1.f, a subnormal normalised (e <= 0).
    wire signed [XW-1:0] uexp_1;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [MW-1:0]        umant_1;   // the hidden bit is implied by the exponent
    /* verilator lint_on UNUSEDSIGNAL */
    assign {uexp_1, umant_1} = unpack(exp_a, a[22:0]);

    wire        sign_2, zero_2, top_2, nan_2;
    wire [XW-1:0] uexp_2;
    wire [22:0] fraction_2;
    clhls_delay #(.WIDTH(4 + XW + 23), .LATENCY(R1)) reg1 (.clk(clk), .ce(ce),
        .d({a[31], zero_1, top_1, nan_1, uexp_1, umant_1[22:0]}),
        .q({sign_2, zero_2, top_2, nan_2, uexp_2, fraction_2}));

    // ---- Stage 2: rebias and pack ----
    // 1.f x 2^(e - 127) = 1.f x 2^((e + 896) - 1023).
    wire [XW-1:0] exp_d = uexp_2 + 11'd896;
    reg  [63:0] result;

    always @(*) begin
        if (nan_2)
            result = QNAN;
        else if (top_2)
            result = {sign_2, 11'h7FF, 52'd0};
        else if (zero_2)
            result = {sign_2, 63'd0};
        else
            result = {sign_2, exp_d, fraction_2, 29'd0};
    end

    // Output pipeline: OUT_LAT registers, all held while ce = 0.
    clhls_delay #(.WIDTH(64), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
