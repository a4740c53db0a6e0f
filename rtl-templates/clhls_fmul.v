// clhls_fmul: IEEE-754 binary32 multiplier, fully pipelined.
//
// y = a * b appears exactly LATENCY enabled clock cycles after the operands (one
// result per enabled cycle): combinational arithmetic followed by LATENCY registers
// that hold while ce = 0. Same conventions as clhls_fadd: round to nearest even,
// denormal inputs are signed zeros, denormal results flush to signed zero (a result
// that rounds up to the smallest normal is kept), infinities per IEEE, every NaN
// result is 0x7FC00000 (inf * 0 too), overflow gives infinity.
`default_nettype none

module clhls_fmul #(
    parameter LATENCY = 3  // enabled cycles from operands to result (>= 1)
) (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [31:0] a,    // first operand
    input  wire [31:0] b,    // second operand
    output wire [31:0] y     // a * b, LATENCY enabled cycles later
);
    localparam OUT_BITS = 32;
    localparam [31:0] QNAN = 32'h7FC00000;

    wire       sign   = a[31] ^ b[31];
    wire [7:0] exp_a  = a[30:23];
    wire [7:0] exp_b  = b[30:23];
    wire       zero_a = (exp_a == 8'd0);
    wire       zero_b = (exp_b == 8'd0);
    wire       inf_a  = (exp_a == 8'hFF) && (a[22:0] == 23'd0);
    wire       inf_b  = (exp_b == 8'hFF) && (b[22:0] == 23'd0);
    wire       nan_a  = (exp_a == 8'hFF) && (a[22:0] != 23'd0);
    wire       nan_b  = (exp_b == 8'hFF) && (b[22:0] != 23'd0);

    wire [47:0] product = {1'b1, a[22:0]} * {1'b1, b[22:0]};  // in [2^46, 2^48)

    reg  [23:0] mant;             // 24 leading bits of the product
    reg         guard, sticky;    // first dropped bit, OR of the rest
    reg  signed [9:0] exp_norm;   // biased exponent before rounding
    reg  [24:0] rounded;          // {carry, mantissa} after rounding
    reg  signed [9:0] exp_final;
    reg  [31:0] result;

    always @(*) begin
        if (product[47]) begin
            mant     = product[47:24];
            guard    = product[23];
            sticky   = |product[22:0];
            exp_norm = {2'b00, exp_a} + {2'b00, exp_b} - 10'sd126;
        end else begin
            mant     = product[46:23];
            guard    = product[22];
            sticky   = |product[21:0];
            exp_norm = {2'b00, exp_a} + {2'b00, exp_b} - 10'sd127;
        end
        if (guard && (sticky || mant[0]))
            rounded = {1'b0, mant} + 25'd1;
        else
            rounded = {1'b0, mant};
        exp_final = rounded[24] ? exp_norm + 10'sd1 : exp_norm;

        if (nan_a || nan_b || (inf_a && zero_b) || (inf_b && zero_a))
            result = QNAN;
        else if (inf_a || inf_b)
            result = {sign, 8'hFF, 23'd0};
        else if (zero_a || zero_b)
            result = {sign, 31'd0};
        else if (exp_norm <= 10'sd0)
            // Tiny: only 1.111..1 x 2^-127 and above round up to the smallest normal.
            result = (exp_norm == 10'sd0 && mant == 24'hFFFFFF)
                     ? {sign, 8'd1, 23'd0} : {sign, 31'd0};
        else if (exp_final >= 10'sd255)
            result = {sign, 8'hFF, 23'd0};
        else
            result = {sign, exp_final[7:0], rounded[22:0]};
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[23];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(OUT_BITS), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
endmodule

`default_nettype wire
