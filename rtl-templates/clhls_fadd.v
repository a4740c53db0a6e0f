// clhls_fadd: IEEE-754 binary32 adder/subtractor, fully pipelined.
//
// y = a + b (or a - b when sub = 1) appears exactly LATENCY enabled clock cycles
// after the operands (one result per enabled cycle). The arithmetic is
// combinational, followed by LATENCY registers that hold while ce = 0.
// Conventions shared by the clhls floating-point units: round to nearest even;
// denormal inputs are treated as zeros of the same sign and denormal results are
// flushed to zeros of the same sign (flush-to-zero, the rounded result decides);
// infinities and NaN follow IEEE, every NaN result is the quiet NaN 0x7FC00000;
// overflow gives infinity; x + (-x) = +0.
`default_nettype none

module clhls_fadd #(
    parameter LATENCY = 4  // enabled cycles from operands to result (>= 1)
) (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [31:0] a,    // first operand
    input  wire [31:0] b,    // second operand
    input  wire        sub,  // 1: compute a - b
    output wire [31:0] y     // result, LATENCY enabled cycles later
);
    localparam [31:0] QNAN = 32'h7FC00000;

    // Unpack (b's sign flipped for subtraction).
    wire       sign_a = a[31];
    wire       sign_b = b[31] ^ sub;
    wire [7:0] exp_a  = a[30:23];
    wire [7:0] exp_b  = b[30:23];
    wire       zero_a = (exp_a == 8'd0);          // zero or denormal
    wire       zero_b = (exp_b == 8'd0);
    wire       inf_a  = (exp_a == 8'hFF) && (a[22:0] == 23'd0);
    wire       inf_b  = (exp_b == 8'hFF) && (b[22:0] == 23'd0);
    wire       nan_a  = (exp_a == 8'hFF) && (a[22:0] != 23'd0);
    wire       nan_b  = (exp_b == 8'hFF) && (b[22:0] != 23'd0);

    // Order the operands by magnitude: big >= small.
    wire        a_bigger   = (a[30:0] >= b[30:0]);
    wire        sign_big   = a_bigger ? sign_a : sign_b;
    wire        sign_small = a_bigger ? sign_b : sign_a;
    wire [7:0]  exp_big    = a_bigger ? exp_a : exp_b;
    wire [7:0]  exp_small  = a_bigger ? exp_b : exp_a;
    wire [22:0] frac_big   = a_bigger ? a[22:0] : b[22:0];
    wire [22:0] frac_small = a_bigger ? b[22:0] : a[22:0];
    wire        effective_sub = sign_big ^ sign_small;

    // Mantissas with hidden bit and three extra bits (guard, round, sticky).
    wire [26:0] mant_big   = {1'b1, frac_big, 3'b000};
    wire [26:0] mant_small = {1'b1, frac_small, 3'b000};
    wire [7:0]  exp_diff   = exp_big - exp_small;

    reg  [26:0] aligned_small;  // mant_small >> exp_diff, sticky folded into bit 0
    reg  [27:0] sum;            // raw sum or difference
    reg  [26:0] norm;           // normalised: bit 26 is the leading one
    reg  signed [9:0] exp_norm; // exponent of norm
    reg  [4:0]  lead_zeros;
    reg  [24:0] rounded;        // {carry, 24-bit mantissa}
    reg  signed [9:0] exp_final;
    reg  [31:0] result;
    integer i;

    always @(*) begin
        // Align.
        if (exp_diff >= 8'd27)
            aligned_small = 27'd1;  // only sticky survives
        else
            aligned_small = (mant_small >> exp_diff) |
                            {26'd0, |(mant_small & ~({27{1'b1}} << exp_diff))};
        // Add or subtract.
        if (effective_sub)
            sum = {1'b0, mant_big} - {1'b0, aligned_small};
        else
            sum = {1'b0, mant_big} + {1'b0, aligned_small};
        // Normalise.
        lead_zeros = 5'd0;
        for (i = 0; i <= 26; i = i + 1)
            if (sum[i])
                lead_zeros = 5'd26 - i[4:0];
        if (sum[27]) begin
            norm     = sum[27:1] | {26'd0, sum[0]};
            exp_norm = {2'b00, exp_big} + 10'sd1;
        end else begin
            norm     = sum[26:0] << lead_zeros;
            exp_norm = {2'b00, exp_big} - {5'd0, lead_zeros};
        end
        // Round to nearest even.
        if (norm[2] && (norm[1] || norm[0] || norm[3]))
            rounded = {1'b0, norm[26:3]} + 25'd1;
        else
            rounded = {1'b0, norm[26:3]};
        exp_final = rounded[24] ? exp_norm + 10'sd1 : exp_norm;

        // Assemble, special cases first.
        if (nan_a || nan_b || (inf_a && inf_b && (sign_a != sign_b)))
            result = QNAN;
        else if (inf_a)
            result = {sign_a, 8'hFF, 23'd0};
        else if (inf_b)
            result = {sign_b, 8'hFF, 23'd0};
        else if (zero_a && zero_b)
            result = {sign_a & sign_b, 31'd0};
        else if (zero_b)
            result = a;
        else if (zero_a)
            result = {sign_b, b[30:0]};
        else if (sum == 28'd0)
            result = 32'd0;  // exact cancellation: +0
        else if (exp_norm <= 10'sd0)
            // Tiny: rounds to the smallest normal only if it rounds up at the
            // denormal grid (1.111..1 x 2^-127 and above), else signed zero.
            result = (exp_norm == 10'sd0 && norm[26:3] == 24'hFFFFFF)
                     ? {sign_big, 8'd1, 23'd0} : {sign_big, 31'd0};
        else if (exp_final >= 10'sd255)
            result = {sign_big, 8'hFF, 23'd0};
        else
            result = {sign_big, exp_final[7:0], rounded[22:0]};
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[23];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(32), .LATENCY(LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
endmodule

`default_nettype wire
