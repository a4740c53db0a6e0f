// clhls_itofp: integer to IEEE-754 binary32 conversion, round to nearest even.
//
// Converts the IN_W-bit integer a (two's complement when SIGNED = 1, unsigned
// otherwise) to the nearest binary32 (ties to even). y appears exactly LATENCY
// enabled cycles after a: combinational logic then LATENCY registers held by ce = 0.
`default_nettype none

module clhls_itofp #(
    parameter IN_W    = 32,  // integer width: 8, 16, 32 or 64
    parameter SIGNED  = 1,   // 1: a is signed, 0: unsigned
    parameter LATENCY = 3    // enabled cycles from operand to result (>= 1)
) (
    input  wire            clk,  // clock
    input  wire            ce,   // clock enable: 0 holds every pipeline register
    input  wire [IN_W-1:0] a,    // integer operand
    output wire [31:0]     y     // converted value, LATENCY enabled cycles later
);
    localparam OUT_BITS = 32;

    wire        negative  = (SIGNED != 0) && a[IN_W-1];
    wire [IN_W-1:0] magnitude_n = negative ? (~a + 1'b1) : a;  // |a| (fits unsigned)
    wire [63:0] magnitude = {{(64-IN_W){1'b0}}, magnitude_n} << (64 - IN_W);  // left-aligned
    reg  [6:0]  lead_zeros;
    reg  [63:0] norm;           // leading one at bit 63
    reg  [24:0] rounded;        // {carry, mantissa}
    reg  [7:0]  exponent;
    reg  [31:0] result;
    integer i;

    always @(*) begin
        lead_zeros = 7'd64;
        for (i = 0; i < 64; i = i + 1)
            if (magnitude[i])
                lead_zeros = 7'd63 - i[6:0];
        norm = magnitude << lead_zeros[5:0];
        if (norm[39] && (|norm[38:0] || norm[40]))
            rounded = {1'b0, norm[63:40]} + 25'd1;
        else
            rounded = {1'b0, norm[63:40]};
        // Value = 1.x * 2^(IN_W - 1 - lead_zeros); bias 127.
        exponent = 8'd126 + IN_W[7:0] - {1'b0, lead_zeros} + {7'd0, rounded[24]};
        if (magnitude_n == {IN_W{1'b0}})
            result = 32'd0;
        else
            result = {negative, exponent, rounded[22:0]};
    end

    // The hidden bit is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[23];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_BITS), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
endmodule

`default_nettype wire
