// clhls_fmul: IEEE-754 binary32 or binary64 multiplier, fully pipelined.
//
// y = a * b appears exactly LATENCY enabled clock cycles after the operands (one
// result per enabled cycle): combinational arithmetic followed by LATENCY registers
// that hold while ce = 0. W selects the format: 32 (binary32) or 64 (binary64; a
// 53 x 53-bit significand product, DSP blocks on an FPGA). Same conventions as
// clhls_fadd: round to nearest even, denormal inputs are signed zeros, denormal
// results flush to signed zero (a result that rounds up to the smallest normal is
// kept), infinities per IEEE, every NaN result is the canonical quiet NaN
// (0x7FC00000 or 0x7FF8000000000000; inf * 0 too), overflow gives infinity.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fmul32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_fmul #(
    parameter LATENCY = 3,  // enabled cycles from operands to result (>= 1)
    parameter W = 32        // format: 32 (binary32) or 64 (binary64)
) (
    input  wire         clk,  // clock
    input  wire         ce,   // clock enable: 0 holds every pipeline register
    input  wire [W-1:0] a,    // first operand
    input  wire [W-1:0] b,    // second operand
    output wire [W-1:0] y     // a * b, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    wire [W-1:0] result;   // a * b
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fmul64(a, b);
        end else begin : model32
            assign result = clhls_model_fmul32(a, b);
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam OUT_BITS = W;
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam XW = EW + 2;               // signed exponent arithmetic
    localparam BIAS = (1 << (EW - 1)) - 1;
    localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
    localparam [EW-1:0] E_MAX = {EW{1'b1}};
    localparam [EW-1:0] E_ONE = {{(EW-1){1'b0}}, 1'b1};
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = (1 << EW) - 1;
    localparam signed [XW-1:0] X_BIAS = BIAS, X_BIAS_1 = BIAS - 1;

    wire          sign   = a[W-1] ^ b[W-1];
    wire [EW-1:0] exp_a  = a[W-2:FW];
    wire [EW-1:0] exp_b  = b[W-2:FW];
    wire          zero_a = (exp_a == {EW{1'b0}});
    wire          zero_b = (exp_b == {EW{1'b0}});
    wire          inf_a  = (exp_a == E_MAX) && (a[FW-1:0] == {FW{1'b0}});
    wire          inf_b  = (exp_b == E_MAX) && (b[FW-1:0] == {FW{1'b0}});
    wire          nan_a  = (exp_a == E_MAX) && (a[FW-1:0] != {FW{1'b0}});
    wire          nan_b  = (exp_b == E_MAX) && (b[FW-1:0] != {FW{1'b0}});

    // The significand product, in [2^(2MW-2), 2^2MW).
    wire [2*MW-1:0] product = {1'b1, a[FW-1:0]} * {1'b1, b[FW-1:0]};

    reg  [MW-1:0] mant;           // MW leading bits of the product
    reg           guard, sticky;  // first dropped bit, OR of the rest
    reg  signed [XW-1:0] exp_norm;   // biased exponent before rounding
    reg  [MW:0]   rounded;        // {carry, mantissa} after rounding
    reg  signed [XW-1:0] exp_final;
    reg  [W-1:0]  result;

    always @(*) begin
        if (product[2*MW-1]) begin
            mant     = product[2*MW-1:MW];
            guard    = product[MW-1];
            sticky   = |product[MW-2:0];
            exp_norm = {2'b00, exp_a} + {2'b00, exp_b} - X_BIAS_1;
        end else begin
            mant     = product[2*MW-2:MW-1];
            guard    = product[MW-2];
            sticky   = |product[MW-3:0];
            exp_norm = {2'b00, exp_a} + {2'b00, exp_b} - X_BIAS;
        end
        if (guard && (sticky || mant[0]))
            rounded = {1'b0, mant} + {{MW{1'b0}}, 1'b1};
        else
            rounded = {1'b0, mant};
        exp_final = rounded[MW] ? exp_norm + X_ONE : exp_norm;

        if (nan_a || nan_b || (inf_a && zero_b) || (inf_b && zero_a))
            result = QNAN;
        else if (inf_a || inf_b)
            result = {sign, E_MAX, {FW{1'b0}}};
        else if (zero_a || zero_b)
            result = {sign, {(W-1){1'b0}}};
        else if (exp_norm <= X_ZERO)
            // Tiny: only 1.111..1 x 2^-bias and above round up to the smallest normal.
            result = (exp_norm == X_ZERO && mant == {MW{1'b1}})
                     ? {sign, E_ONE, {FW{1'b0}}} : {sign, {(W-1){1'b0}}};
        else if (exp_final >= X_INF)
            result = {sign, E_MAX, {FW{1'b0}}};
        else
            result = {sign, exp_final[EW-1:0], rounded[FW-1:0]};
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[FW];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_BITS), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
