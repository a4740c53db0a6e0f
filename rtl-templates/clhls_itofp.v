// clhls_itofp: integer to IEEE-754 binary32 or binary64 conversion, round to
// nearest even.
//
// Converts the IN_W-bit integer a (two's complement when SIGNED = 1, unsigned
// otherwise) to the nearest value of the format W (ties to even): 32 (binary32) or
// 64 (binary64, exact for IN_W <= 32). y appears exactly LATENCY enabled cycles
// after a: combinational logic then LATENCY registers held by ce = 0.
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

    wire        negative  = (SIGNED != 0) && a[IN_W-1];
    wire [IN_W-1:0] magnitude_n = negative ? (~a + 1'b1) : a;  // |a| (fits unsigned)
    wire [63:0] magnitude = {{(64-IN_W){1'b0}}, magnitude_n} << (64 - IN_W);  // left-aligned
    reg  [6:0]  lead_zeros;
    reg  [63:0] norm;           // leading one at bit 63
    reg  [MW:0] rounded;        // {carry, mantissa}
    reg  [EW-1:0] exponent;
    reg  [W-1:0] result;
    integer i;

    always @(*) begin
        lead_zeros = 7'd64;
        for (i = 0; i < 64; i = i + 1)
            if (magnitude[i])
                lead_zeros = 7'd63 - i[6:0];
        norm = magnitude << lead_zeros[5:0];
        // The MW leading bits are kept; bit 63 - MW is the guard bit.
        if (norm[63-MW] && (|norm[62-MW:0] || norm[64-MW]))
            rounded = {1'b0, norm[63:64-MW]} + {{MW{1'b0}}, 1'b1};
        else
            rounded = {1'b0, norm[63:64-MW]};
        // Value = 1.x * 2^(IN_W - 1 - lead_zeros).
        exponent = E_TOP - {{(EW-7){1'b0}}, lead_zeros} + {{(EW-1){1'b0}}, rounded[MW]};
        if (magnitude_n == {IN_W{1'b0}})
            result = {W{1'b0}};
        else
            result = {negative, exponent, rounded[FW-1:0]};
    end

    // The hidden bit is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[FW];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_BITS), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
