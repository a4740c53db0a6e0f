// clhls_itofp: integer to IEEE-754 binary32 or binary64 conversion, round to
// nearest even.
//
// Converts the IN_W-bit integer a (two's complement when SIGNED = 1, unsigned
// otherwise) to the nearest value of the format W (ties to even): 32 (binary32) or
// 64 (binary64, exact for IN_W <= 32). y appears exactly LATENCY enabled cycles
// after a, every register held by ce = 0.
//
// Structure: three stages. (1) The magnitude (a negated when negative) and its
// leading zeros; (2) the leading one shifted to the top, the unrounded exponent;
// (3) round to nearest even, pack. A register goes after stage 1 when LATENCY >= 2
// and after stage 2 when LATENCY >= 3; the others after stage 3.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_itofp32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_itofp #(
    parameter IN_W    = 32,  // integer width: 8, 16, 32 or 64
    parameter SIGNED  = 1,   // 1: a is signed, 0: unsigned
    parameter LATENCY = 3,   // enabled cycles from operand to result (>= 1)
    parameter W       = 32,  // result format: 32 (binary32) or 64 (binary64)
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1  // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire            clk,  // clock
    input  wire            ce,   // clock enable: 0 holds every pipeline register
    input  wire [IN_W-1:0] a,    // integer operand
    output wire [W-1:0]    y     // converted value, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    wire [63:0]  a_ext = {{(64-IN_W){1'b0}}, a};
    wire [W-1:0] result;   // a converted
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_itofp64(a_ext, IN_W, SIGNED);
        end else begin : model32
            assign result = clhls_model_itofp32(a_ext, IN_W, SIGNED);
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam OUT_BITS = W;
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam BIAS = (1 << (EW - 1)) - 1;
    localparam integer E_TOP_I = BIAS - 1 + IN_W;   // biased exponent of 2^IN_W, less one
    localparam [EW-1:0] E_TOP = E_TOP_I[EW-1:0];

    // Registers inside (at most 2) and where they go; see the header.
    localparam R1 = (LATENCY >= 2) ? 1 : 0;     // after stage 1, magnitude and count
    localparam R2 = (LATENCY >= 3) ? 1 : 0;     // after stage 2, the shift
    localparam OUT_LAT = LATENCY - R1 - R2;     // after stage 3 (>= 1)

    // ---- Stage 1: the magnitude and its leading zeros ----
    wire            negative_1  = (SIGNED != 0) && a[IN_W-1];
    wire [IN_W-1:0] magnitude_1 = negative_1 ? (~a + 1'b1) : a;  // |a| (fits unsigned)
    wire            zero_1      = (a == {IN_W{1'b0}});
    reg  [6:0]      lead_zeros_1;
    integer i;
    always @(*) begin
        lead_zeros_1 = 7'd64;
        for (i = 0; i < IN_W; i = i + 1)
            if (magnitude_1[i])
                lead_zeros_1 = IN_W[6:0] - 7'd1 - i[6:0];
    end

    wire            negative_2, zero_2;
    wire [IN_W-1:0] magnitude_2;
    wire [6:0]      lead_zeros_2;
    clhls_delay #(.WIDTH(2 + IN_W + 7), .LATENCY(R1)) reg1 (.clk(clk), .ce(ce),
        .d({negative_1, zero_1, magnitude_1, lead_zeros_1}),
        .q({negative_2, zero_2, magnitude_2, lead_zeros_2}));

    // ---- Stage 2: normalise (the leading one to the top) and the unrounded exponent ----
    // Value = 1.x * 2^(IN_W - 1 - lead_zeros); the MW leading bits are kept, the next
    // is the guard bit and the rest fold into the sticky bit.
    wire [63:0]   aligned_2  = {{(64-IN_W){1'b0}}, magnitude_2} << (64 - IN_W);  // left-aligned
    wire [63:0]   norm_2;                                        // leading one at bit 63
    clhls_shift #(.W(64), .SW(6), .RIGHT(0)) normalise (
        .in(aligned_2), .amount(lead_zeros_2[5:0]), .out(norm_2));
    wire [MW-1:0] mant_2     = norm_2[63:64-MW];
    wire          guard_2    = norm_2[63-MW];
    wire          sticky_2   = |norm_2[62-MW:0];
    wire [EW-1:0] exponent_2 = E_TOP - {{(EW-7){1'b0}}, lead_zeros_2};

    wire          negative_3, zero_3, guard_3, sticky_3;
    wire [MW-1:0] mant_3;
    wire [EW-1:0] exponent_3;
    clhls_delay #(.WIDTH(4 + MW + EW), .LATENCY(R2)) reg2 (.clk(clk), .ce(ce),
        .d({negative_2, zero_2, guard_2, sticky_2, mant_2, exponent_2}),
        .q({negative_3, zero_3, guard_3, sticky_3, mant_3, exponent_3}));

    // ---- Stage 3: round to nearest even and pack ----
    wire [MW:0]   rounded  = {1'b0, mant_3} + {{MW{1'b0}}, guard_3 && (sticky_3 || mant_3[0])};
    wire [EW-1:0] exponent = exponent_3 + {{(EW-1){1'b0}}, rounded[MW]};  // {carry, mantissa}
    wire [W-1:0]  result   = zero_3 ? {W{1'b0}} : {negative_3, exponent, rounded[FW-1:0]};

    // The hidden bit is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[FW];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: the remaining registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_BITS), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
