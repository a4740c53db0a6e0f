// clhls_fadd: IEEE-754 binary32 or binary64 adder/subtractor, fully pipelined.
//
// y = a + b (or a - b when sub = 1) appears exactly LATENCY enabled clock cycles
// after the operands (one result per enabled cycle). The arithmetic is
// combinational, followed by LATENCY registers that hold while ce = 0. W selects the
// format: 32 (binary32, 8-bit exponent, 23-bit fraction) or 64 (binary64, 11 and 52).
// Conventions shared by the clhls floating-point units: round to nearest even;
// denormal inputs are treated as zeros of the same sign and denormal results are
// flushed to zeros of the same sign (flush-to-zero, the rounded result decides);
// infinities and NaN follow IEEE, every NaN result is the canonical quiet NaN
// (0x7FC00000, or 0x7FF8000000000000 at W = 64); overflow gives infinity;
// x + (-x) = +0.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fadd32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_fadd #(
    parameter LATENCY = 4,  // enabled cycles from operands to result (>= 1)
    parameter W = 32        // format: 32 (binary32) or 64 (binary64)
) (
    input  wire         clk,  // clock
    input  wire         ce,   // clock enable: 0 holds every pipeline register
    input  wire [W-1:0] a,    // first operand
    input  wire [W-1:0] b,    // second operand
    input  wire         sub,  // 1: compute a - b
    output wire [W-1:0] y     // result, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    wire [W-1:0] result;   // a + b or a - b
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fadd64(a, b, sub);
        end else begin : model32
            assign result = clhls_model_fadd32(a, b, sub);
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam GW = MW + 3;               // significand with guard, round and sticky
    localparam XW = EW + 2;               // signed exponent arithmetic
    localparam LZW = $clog2(GW);          // leading-zero count
    localparam integer TOP_I = GW - 1;
    localparam [LZW-1:0] TOP = TOP_I[LZW-1:0];   // index of the leading bit
    localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
    localparam [EW-1:0] E_MAX = {EW{1'b1}};      // infinity and NaN
    localparam [EW-1:0] E_ONE = {{(EW-1){1'b0}}, 1'b1};
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = (1 << EW) - 1;

    // Unpack (b's sign flipped for subtraction).
    wire          sign_a = a[W-1];
    wire          sign_b = b[W-1] ^ sub;
    wire [EW-1:0] exp_a  = a[W-2:FW];
    wire [EW-1:0] exp_b  = b[W-2:FW];
    wire          zero_a = (exp_a == {EW{1'b0}});   // zero or denormal
    wire          zero_b = (exp_b == {EW{1'b0}});
    wire          inf_a  = (exp_a == E_MAX) && (a[FW-1:0] == {FW{1'b0}});
    wire          inf_b  = (exp_b == E_MAX) && (b[FW-1:0] == {FW{1'b0}});
    wire          nan_a  = (exp_a == E_MAX) && (a[FW-1:0] != {FW{1'b0}});
    wire          nan_b  = (exp_b == E_MAX) && (b[FW-1:0] != {FW{1'b0}});

    // Order the operands by magnitude: big >= small.
    wire          a_bigger   = (a[W-2:0] >= b[W-2:0]);
    wire          sign_big   = a_bigger ? sign_a : sign_b;
    wire          sign_small = a_bigger ? sign_b : sign_a;
    wire [EW-1:0] exp_big    = a_bigger ? exp_a : exp_b;
    wire [EW-1:0] exp_small  = a_bigger ? exp_b : exp_a;
    wire [FW-1:0] frac_big   = a_bigger ? a[FW-1:0] : b[FW-1:0];
    wire [FW-1:0] frac_small = a_bigger ? b[FW-1:0] : a[FW-1:0];
    wire          effective_sub = sign_big ^ sign_small;

    // Mantissas with hidden bit and three extra bits (guard, round, sticky).
    wire [GW-1:0] mant_big   = {1'b1, frac_big, 3'b000};
    wire [GW-1:0] mant_small = {1'b1, frac_small, 3'b000};
    wire [EW-1:0] exp_diff   = exp_big - exp_small;

    reg  [GW-1:0]  aligned_small;  // mant_small >> exp_diff, sticky folded into bit 0
    reg  [GW:0]    sum;            // raw sum or difference
    reg  [GW-1:0]  norm;           // normalised: the top bit is the leading one
    reg  signed [XW-1:0] exp_norm; // exponent of norm
    reg  [LZW-1:0] lead_zeros;
    reg  [MW:0]    rounded;        // {carry, significand}
    reg  signed [XW-1:0] exp_final;
    reg  [W-1:0]   result;
    integer i;

    always @(*) begin
        // Align.
        if (exp_diff >= GW[EW-1:0])
            aligned_small = {{(GW-1){1'b0}}, 1'b1};  // only sticky survives
        else
            aligned_small = (mant_small >> exp_diff) |
                            {{(GW-1){1'b0}}, |(mant_small & ~({GW{1'b1}} << exp_diff))};
        // Add or subtract.
        if (effective_sub)
            sum = {1'b0, mant_big} - {1'b0, aligned_small};
        else
            sum = {1'b0, mant_big} + {1'b0, aligned_small};
        // Normalise.
        lead_zeros = {LZW{1'b0}};
        for (i = 0; i < GW; i = i + 1)
            if (sum[i])
                lead_zeros = TOP - i[LZW-1:0];
        if (sum[GW]) begin
            norm     = sum[GW:1] | {{(GW-1){1'b0}}, sum[0]};
            exp_norm = {2'b00, exp_big} + X_ONE;
        end else begin
            norm     = sum[GW-1:0] << lead_zeros;
            exp_norm = {2'b00, exp_big} - {{(XW-LZW){1'b0}}, lead_zeros};
        end
        // Round to nearest even.
        if (norm[2] && (norm[1] || norm[0] || norm[3]))
            rounded = {1'b0, norm[GW-1:3]} + {{MW{1'b0}}, 1'b1};
        else
            rounded = {1'b0, norm[GW-1:3]};
        exp_final = rounded[MW] ? exp_norm + X_ONE : exp_norm;

        // Assemble, special cases first.
        if (nan_a || nan_b || (inf_a && inf_b && (sign_a != sign_b)))
            result = QNAN;
        else if (inf_a)
            result = {sign_a, E_MAX, {FW{1'b0}}};
        else if (inf_b)
            result = {sign_b, E_MAX, {FW{1'b0}}};
        else if (zero_a && zero_b)
            result = {sign_a & sign_b, {(W-1){1'b0}}};
        else if (zero_b)
            result = a;
        else if (zero_a)
            result = {sign_b, b[W-2:0]};
        else if (sum == {(GW+1){1'b0}})
            result = {W{1'b0}};  // exact cancellation: +0
        else if (exp_norm <= X_ZERO)
            // Tiny: rounds to the smallest normal only if it rounds up at the
            // denormal grid (1.111..1 x 2^-bias and above), else signed zero.
            result = (exp_norm == X_ZERO && norm[GW-1:3] == {MW{1'b1}})
                     ? {sign_big, E_ONE, {FW{1'b0}}} : {sign_big, {(W-1){1'b0}}};
        else if (exp_final >= X_INF)
            result = {sign_big, E_MAX, {FW{1'b0}}};
        else
            result = {sign_big, exp_final[EW-1:0], rounded[FW-1:0]};
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[FW];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
