// clhls_fdiv: IEEE-754 binary32 divider, a digit recurrence pipelined one quotient
// bit per stage.
//
// y = a / b appears exactly LATENCY = 28 enabled clock cycles after the operands (one
// result per enabled cycle; every register holds while ce = 0). The structure fixes
// the latency: LATENCY is a localparam, not a parameter, and the compiler reads it
// from here. The result is correctly rounded. Same conventions as clhls_fadd: round
// to nearest even; denormal inputs are treated as zeros of the same sign and denormal
// results are flushed to zeros of the same sign (the rounded result decides: a
// quotient that rounds up to the smallest normal is kept); every NaN result is the
// quiet NaN 0x7FC00000 (0 / 0 and inf / inf too); a nonzero finite / 0 gives a signed
// infinity, x / inf a signed zero; overflow gives infinity.
//
// Structure: radix-2 non-restoring division of the 24-bit significands, 26 quotient
// bits (the integer bit, 23 fraction bits, the guard bit and one more bit for when
// a's significand is the smaller), one bit per stage with a register after each.
// Stage 1 takes the operands, classifies them and does the first step (a - b); stages
// 2 to 26 do one step each: the partial remainder, doubled, gets the divisor
// subtracted if it is not negative and added if it is, and the new sign is the
// quotient bit. So each stage is one 26-bit adder/subtractor whose operation comes
// from a register; there is no comparison and no restoring multiplexer. Stage 27
// makes the sticky bit (is the true remainder, r or r + b, nonzero?), stage 28 rounds
// and packs the result. Sign, exponent and the special-case class do not take part
// in the recurrence and ride beside it in a clhls_delay (a ring buffer, LUT RAM on an
// FPGA).
`default_nettype none

module clhls_fdiv (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [31:0] a,    // dividend
    input  wire [31:0] b,    // divisor
    output wire [31:0] y     // a / b, LATENCY enabled cycles later
);
    localparam LATENCY = 28;          // enabled cycles from operands to result (fixed)
    localparam STEPS   = 26;          // quotient bits, one recurrence stage each
    localparam [31:0] QNAN = 32'h7FC00000;
    // Class of the result, decided from the operands alone.
    localparam [1:0] C_NUM = 2'd0, C_ZERO = 2'd1, C_INF = 2'd2, C_NAN = 2'd3;

    // ---- Stage 1: unpack, classify, first step ----
    wire       sign   = a[31] ^ b[31];
    wire [7:0] exp_a  = a[30:23];
    wire [7:0] exp_b  = b[30:23];
    wire       zero_a = (exp_a == 8'd0);   // zero or denormal
    wire       zero_b = (exp_b == 8'd0);
    wire       inf_a  = (exp_a == 8'hFF) && (a[22:0] == 23'd0);
    wire       inf_b  = (exp_b == 8'hFF) && (b[22:0] == 23'd0);
    wire       nan_a  = (exp_a == 8'hFF) && (a[22:0] != 23'd0);
    wire       nan_b  = (exp_b == 8'hFF) && (b[22:0] != 23'd0);

    reg [1:0] cls;
    always @(*) begin
        if (nan_a || nan_b || (zero_a && zero_b) || (inf_a && inf_b))
            cls = C_NAN;
        else if (inf_a || zero_b)
            cls = C_INF;
        else if (zero_a || inf_b)
            cls = C_ZERO;
        else
            cls = C_NUM;
    end
    // Biased exponent of the quotient when a's significand is at least b's.
    wire signed [9:0] exp_q = {2'b00, exp_a} - {2'b00, exp_b} + 10'sd127;

    // The first step: r = a - b on the significands (each in [2^23, 2^24)), so
    // -b < r < b; the quotient's integer bit is r >= 0.
    wire [24:0] first_r = {1'b0, 1'b1, a[22:0]} - {1'b0, 1'b1, b[22:0]};

    // Beside the recurrence: {sign, class, exponent}, out at the rounding stage.
    wire        side_sign;
    wire [1:0]  side_cls;
    wire signed [9:0] side_exp;
    clhls_delay #(.WIDTH(13), .LATENCY(LATENCY - 1)) side (
        .clk(clk), .ce(ce), .d({sign, cls, exp_q}), .q({side_sign, side_cls, side_exp}));

    // ---- Stages 1 .. 26: one quotient bit each ----
    // After step s (s = 0 .. 25): r in [-b, b) (25 bits, two's complement), s + 1
    // quotient bits, b's fraction (the hidden bit is always 1).
    genvar s;
    generate
        for (s = 0; s < STEPS; s = s + 1) begin : step
            reg [24:0] r;     // partial remainder, in units of b's last place
            reg [s:0]  q;     // quotient bits so far, the integer bit first
            reg [22:0] d;     // divisor's fraction
            if (s == 0) begin : first
                always @(posedge clk)
                    if (ce) begin
                        r <= first_r;
                        q <= ~first_r[24];
                        d <= b[22:0];
                    end
            end else begin : next
                // 2r + b when r < 0, else 2r - b = 2r + ~b + 1: one adder, and as 2r
                // is even the + 1 takes its bit 0.
                wire        neg = step[s-1].r[24];
                wire [25:0] dv  = {3'b001, step[s-1].d} ^ {26{~neg}};
                wire [25:0] nr  = {step[s-1].r, ~neg} + dv;
                always @(posedge clk)
                    if (ce) begin
                        r <= nr[24:0];   // back in [-b, b): the top bit is the sign
                        q <= {step[s-1].q, ~nr[24]};
                        d <= step[s-1].d;
                    end
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_top = nr[25];  // equals nr[24]
                /* verilator lint_on UNUSEDSIGNAL */
            end
        end
    endgenerate

    // ---- Stage 27: sticky bit ----
    // A negative final r means the true remainder is r + b (which may be zero).
    wire [24:0] last_r = step[STEPS-1].r;
    wire [24:0] fixed_r = last_r + {1'b0, 1'b1, step[STEPS-1].d};
    reg  [25:0] quo;      // 26 quotient bits: q = floor(2^25 * a / b) on significands
    reg         rem_nz;   // the remainder is not zero
    always @(posedge clk)
        if (ce) begin
            quo    <= step[STEPS-1].q;
            rem_nz <= last_r[24] ? (fixed_r != 25'd0) : (last_r != 25'd0);
        end

    // ---- Stage 28: normalise, round, pack ----
    reg  [23:0] mant;             // 24 leading quotient bits
    reg         guard, sticky;
    reg  signed [9:0] exp_norm;   // biased exponent before rounding
    reg  [24:0] rounded;          // {carry, mantissa} after rounding
    reg  signed [9:0] exp_final;
    reg  [31:0] result;
    always @(*) begin
        if (quo[25]) begin        // significand of a >= significand of b
            mant     = quo[25:2];
            guard    = quo[1];
            sticky   = quo[0] | rem_nz;
            exp_norm = side_exp;
        end else begin
            mant     = quo[24:1];
            guard    = quo[0];
            sticky   = rem_nz;
            exp_norm = side_exp - 10'sd1;
        end
        if (guard && (sticky || mant[0]))
            rounded = {1'b0, mant} + 25'd1;
        else
            rounded = {1'b0, mant};
        exp_final = rounded[24] ? exp_norm + 10'sd1 : exp_norm;

        case (side_cls)
            C_NAN:  result = QNAN;
            C_INF:  result = {side_sign, 8'hFF, 23'd0};
            C_ZERO: result = {side_sign, 31'd0};
            default:
                if (exp_norm <= 10'sd0)
                    // Tiny: only 1.111..1 x 2^-127 and above round up to the smallest normal.
                    result = (exp_norm == 10'sd0 && mant == 24'hFFFFFF)
                             ? {side_sign, 8'd1, 23'd0} : {side_sign, 31'd0};
                else if (exp_final >= 10'sd255)
                    result = {side_sign, 8'hFF, 23'd0};
                else
                    result = {side_sign, exp_final[7:0], rounded[22:0]};
        endcase
    end

    // The hidden bit of the rounded mantissa is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[23];
    /* verilator lint_on UNUSEDSIGNAL */

    reg [31:0] y_r;
    always @(posedge clk)
        if (ce) y_r <= result;
    assign y = y_r;
endmodule

`default_nettype wire
