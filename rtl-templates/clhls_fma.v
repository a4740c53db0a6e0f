// clhls_fma: IEEE-754 binary32 fused multiply-add, fully pipelined.
//
// y = a * b + c with a single rounding (C's fmaf) appears exactly LATENCY enabled
// clock cycles after the operands (one result per enabled cycle; every register
// holds while ce = 0). The result is correctly rounded. Same conventions as
// clhls_fadd: round to nearest even; denormal inputs are treated as zeros of the same
// sign and denormal results are flushed to zeros of the same sign (the rounded result
// decides: a result that rounds up to the smallest normal is kept); infinities per
// IEEE, every NaN result is the quiet NaN 0x7FC00000 (inf * 0 + c and
// inf * x - inf too); overflow gives infinity. The product is exact and is not
// flushed: a product below the normal range still adds to a normal c. An exact zero
// sum is +0, except a zero product plus a zero c, which is -0 only when both are -0.
//
// Structure: three parts with a register between them when LATENCY allows: the
// 24 x 24-bit significand product (a multiplier, DSP blocks on an FPGA) and the
// special cases; then the product, normalised to 48 bits, and c are ordered by
// magnitude, the smaller is shifted right (bits shifted out fold into a sticky bit)
// and added to or subtracted from the larger in a 52-bit window (48 bits and guard,
// round, sticky); then the sum is normalised (leading-zero count and left shift),
// rounded and packed. LATENCY = 1: all three combinational before one register; 2: a
// register after the product; 3 or more: registers after the product and after the
// sum, and LATENCY - 2 at the output (for the synthesis tool to retime into the last
// part).
`default_nettype none

module clhls_fma #(
    parameter LATENCY = 5  // enabled cycles from operands to result (>= 1)
) (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [31:0] a,    // first factor
    input  wire [31:0] b,    // second factor
    input  wire [31:0] c,    // addend
    output wire [31:0] y     // a * b + c, LATENCY enabled cycles later
);
    localparam [31:0] QNAN = 32'h7FC00000;
    localparam REG_A   = (LATENCY >= 2) ? 1 : 0;        // register after the product
    localparam REG_B   = (LATENCY >= 3) ? 1 : 0;        // register after the sum
    localparam OUT_LAT = LATENCY - REG_A - REG_B;       // registers at the output (>= 1)
    localparam A_W = 1 + 32 + 3 + 11 + 48 + 8 + 23;     // width of the product part's output
    localparam B_W = 1 + 32 + 1 + 11 + 52;              // width of the sum part's output

    // ---- Part 1: unpack, special cases, significand product ----
    wire       sign_p = a[31] ^ b[31];   // sign of the product
    wire       sign_c = c[31];
    wire [7:0] exp_a  = a[30:23];
    wire [7:0] exp_b  = b[30:23];
    wire [7:0] exp_c  = c[30:23];
    wire       zero_a = (exp_a == 8'd0);   // zero or denormal
    wire       zero_b = (exp_b == 8'd0);
    wire       zero_c = (exp_c == 8'd0);
    wire       inf_a  = (exp_a == 8'hFF) && (a[22:0] == 23'd0);
    wire       inf_b  = (exp_b == 8'hFF) && (b[22:0] == 23'd0);
    wire       inf_c  = (exp_c == 8'hFF) && (c[22:0] == 23'd0);
    wire       nan_a  = (exp_a == 8'hFF) && (a[22:0] != 23'd0);
    wire       nan_b  = (exp_b == 8'hFF) && (b[22:0] != 23'd0);
    wire       nan_c  = (exp_c == 8'hFF) && (c[22:0] != 23'd0);
    wire       inf_p  = inf_a || inf_b;
    wire       zero_p = zero_a || zero_b;

    reg        is_special;   // the result is special_y, not the sum
    reg [31:0] special_y;
    always @(*) begin
        is_special = 1'b1;
        if (nan_a || nan_b || nan_c || (inf_a && zero_b) || (inf_b && zero_a) ||
            (inf_p && inf_c && (sign_p != sign_c)))
            special_y = QNAN;
        else if (inf_p)
            special_y = {sign_p, 8'hFF, 23'd0};
        else if (inf_c)
            special_y = {sign_c, 8'hFF, 23'd0};
        else if (zero_p && zero_c)
            special_y = {sign_p & sign_c, 31'd0};
        else if (zero_p)
            special_y = c;   // exact: c is normal
        else begin
            special_y  = 32'd0;
            is_special = 1'b0;
        end
    end

    wire [47:0] product = {1'b1, a[22:0]} * {1'b1, b[22:0]};  // in [2^46, 2^48)
    // Biased exponent of the product when product[47] = 0 (one more when it is 1).
    wire signed [10:0] exp_p = {3'b000, exp_a} + {3'b000, exp_b} - 11'sd127;

    wire [A_W-1:0] part1 = {is_special, special_y, sign_p, sign_c, zero_c, exp_p, product,
                            exp_c, c[22:0]};
    wire [A_W-1:0] part1_q;
    generate
        if (REG_A != 0) begin : reg_a
            reg [A_W-1:0] q;
            always @(posedge clk)
                if (ce) q <= part1;
            assign part1_q = q;
        end else begin : no_reg_a
            assign part1_q = part1;
        end
    endgenerate

    // ---- Part 2: order by magnitude, align, add ----
    wire        is_special_2 = part1_q[A_W-1];
    wire [31:0] special_y_2  = part1_q[A_W-2 -: 32];
    wire        sign_p_2     = part1_q[A_W-34];
    wire        sign_c_2     = part1_q[A_W-35];
    wire        zero_c_2     = part1_q[A_W-36];
    wire signed [10:0] exp_p_2 = part1_q[A_W-37 -: 11];
    wire [47:0] product_2    = part1_q[A_W-48 -: 48];
    wire [7:0]  exp_c_2      = part1_q[30:23];
    wire [22:0] frac_c_2     = part1_q[22:0];

    // Both as 48-bit significands with the leading one at bit 47.
    wire [47:0] mant_p = product_2[47] ? product_2 : {product_2[46:0], 1'b0};
    wire signed [10:0] exp_pn = product_2[47] ? exp_p_2 + 11'sd1 : exp_p_2;
    wire [47:0] mant_c = zero_c_2 ? 48'd0 : {1'b1, frac_c_2, 24'd0};
    wire signed [10:0] exp_cn = {3'b000, exp_c_2};

    // c is the larger only when it is not zero and |c| > |a * b|.
    wire c_bigger = !zero_c_2 &&
                    ((exp_cn > exp_pn) || ((exp_cn == exp_pn) && (mant_c > mant_p)));
    wire        sign_big  = c_bigger ? sign_c_2 : sign_p_2;
    wire        eff_sub   = sign_p_2 ^ sign_c_2;
    wire signed [10:0] exp_big = c_bigger ? exp_cn : exp_pn;
    wire [10:0] exp_diff  = c_bigger ? exp_cn - exp_pn : exp_pn - exp_cn;  // >= 0 if c is not zero
    wire [51:0] win_big   = {1'b0, c_bigger ? mant_c : mant_p, 3'b000};
    wire [51:0] win_small = {1'b0, c_bigger ? mant_p : mant_c, 3'b000};

    reg  [51:0] aligned;   // win_small >> exp_diff, bits shifted out folded into bit 0
    reg  [51:0] sum;
    always @(*) begin
        if (exp_diff >= 11'd51)
            aligned = {51'd0, win_small != 52'd0};   // only sticky survives
        else
            aligned = (win_small >> exp_diff) |
                      {51'd0, |(win_small & ~({52{1'b1}} << exp_diff))};
        if (eff_sub)
            sum = win_big - aligned;   // win_big >= aligned: no borrow
        else
            sum = win_big + aligned;   // bit 51 takes the carry
    end

    wire [B_W-1:0] part2 = {is_special_2, special_y_2, sign_big, exp_big, sum};
    wire [B_W-1:0] part2_q;
    generate
        if (REG_B != 0) begin : reg_b
            reg [B_W-1:0] q;
            always @(posedge clk)
                if (ce) q <= part2;
            assign part2_q = q;
        end else begin : no_reg_b
            assign part2_q = part2;
        end
    endgenerate

    // ---- Part 3: normalise, round, pack ----
    wire        is_special_3 = part2_q[B_W-1];
    wire [31:0] special_y_3  = part2_q[B_W-2 -: 32];
    wire        sign_3       = part2_q[B_W-34];
    wire signed [10:0] exp_big_3 = part2_q[62:52];
    wire [51:0] sum_3        = part2_q[51:0];

    reg  [5:0]  lead_zeros;
    reg  [51:0] norm;              // bit 51 is the leading one
    reg  signed [10:0] exp_norm;   // biased exponent of norm
    reg  [23:0] mant;
    reg         guard, sticky;
    reg  [24:0] rounded;           // {carry, mantissa} after rounding
    reg  signed [10:0] exp_final;
    reg  [31:0] result;
    integer i;
    always @(*) begin
        lead_zeros = 6'd0;
        for (i = 0; i <= 51; i = i + 1)
            if (sum_3[i])
                lead_zeros = 6'd51 - i[5:0];
        // The larger operand's leading one sits at bit 50 (exponent exp_big).
        norm     = sum_3 << lead_zeros;
        exp_norm = exp_big_3 + 11'sd1 - {5'd0, lead_zeros};
        mant     = norm[51:28];
        guard    = norm[27];
        sticky   = |norm[26:0];
        if (guard && (sticky || mant[0]))
            rounded = {1'b0, mant} + 25'd1;
        else
            rounded = {1'b0, mant};
        exp_final = rounded[24] ? exp_norm + 11'sd1 : exp_norm;

        if (is_special_3)
            result = special_y_3;
        else if (sum_3 == 52'd0)
            result = 32'd0;   // exact cancellation: +0
        else if (exp_norm <= 11'sd0)
            // Tiny: only 1.111..1 x 2^-127 and above round up to the smallest normal.
            result = (exp_norm == 11'sd0 && mant == 24'hFFFFFF)
                     ? {sign_3, 8'd1, 23'd0} : {sign_3, 31'd0};
        else if (exp_final >= 11'sd255)
            result = {sign_3, 8'hFF, 23'd0};
        else
            result = {sign_3, exp_final[7:0], rounded[22:0]};
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[23];
    /* verilator lint_on UNUSEDSIGNAL */

    // Output pipeline: the remaining registers, all held while ce = 0.
    clhls_delay #(.WIDTH(32), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
endmodule

`default_nettype wire
