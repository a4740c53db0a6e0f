// clhls_fsqrt: IEEE-754 binary32 square root, a digit recurrence pipelined one root
// bit per stage.
//
// y = sqrt(a) appears exactly LATENCY = 27 enabled clock cycles after the operand
// (one result per enabled cycle; every register holds while ce = 0). The structure
// fixes the latency: LATENCY is a localparam, not a parameter, and the compiler reads
// it from here. The result is correctly rounded. Same conventions as clhls_fadd: round
// to nearest even; a denormal input is treated as a zero of the same sign (a square
// root is never denormal); every NaN result is the quiet NaN 0x7FC00000: NaN and any
// negative nonzero operand (-inf too); sqrt(-0) = -0, sqrt(+inf) = +inf.
//
// Structure: radix-2 non-restoring square root (the Li-Chu recurrence) of the
// significand, scaled to X = m * 2^25 or m * 2^26 (m the 24-bit significand; the
// extra factor 2 makes the exponent even), giving the 25 bits of floor(sqrt(X)): 24
// result bits and the guard bit. One root bit per stage with a register after each:
// stage 1 takes the operand, classifies it and does the first step; stages 2 to 25
// do one step each: the partial remainder, shifted left by two with the next two bits
// of X, gets 4Q + 1 subtracted if it is not negative and 4Q + 3 added if it is (Q the
// root so far), and the new sign is the root bit. Each stage is one adder/subtractor
// whose operation comes from a register, as wide as that stage needs (3 bits after
// the first root bit, 27 after the last). Stage 26 makes the sticky bit (is the true
// remainder, r or r + 2Q + 1, nonzero?), stage 27 rounds and packs the result (a
// square root of a significand in [1, 4) never rounds up to 2). The sign, exponent
// and special-case class ride beside the recurrence in a clhls_delay (a ring buffer,
// LUT RAM on an FPGA).
`default_nettype none

module clhls_fsqrt (
    input  wire        clk,  // clock
    input  wire        ce,   // clock enable: 0 holds every pipeline register
    input  wire [31:0] a,    // operand
    output wire [31:0] y     // sqrt(a), LATENCY enabled cycles later
);
    localparam LATENCY = 27;          // enabled cycles from operand to result (fixed)
    localparam STEPS   = 25;          // root bits, one recurrence stage each
    localparam [31:0] QNAN = 32'h7FC00000;
    // Class of the result, decided from the operand alone.
    localparam [1:0] C_NUM = 2'd0, C_ZERO = 2'd1, C_INF = 2'd2, C_NAN = 2'd3;

    // ---- Stage 1: unpack, classify, first step ----
    wire [7:0] exp_a  = a[30:23];
    wire       zero_a = (exp_a == 8'd0);   // zero or denormal
    wire       inf_a  = (exp_a == 8'hFF) && (a[22:0] == 23'd0);
    wire       nan_a  = (exp_a == 8'hFF) && (a[22:0] != 23'd0);

    reg [1:0] cls;
    always @(*) begin
        if (nan_a || (a[31] && !zero_a))
            cls = C_NAN;
        else if (zero_a)
            cls = C_ZERO;   // keeps the sign: sqrt(-0) = -0
        else if (inf_a)
            cls = C_INF;
        else
            cls = C_NUM;
    end
    // Result exponent: floor((e - 127) / 2) + 127 = (e + 127) >> 1
    // = (e >> 1) + 63, plus 1 when e is odd.
    wire [7:0] exp_r = {1'b0, exp_a[7:1]} + 8'd63 + {7'd0, exp_a[0]};
    // The 26 leading bits of X (the 24 below are zero): {m, 00} when the unbiased
    // exponent is odd (e even), {0, m, 0} when it is even.
    wire [25:0] x_top = exp_a[0] ? {2'b01, a[22:0], 1'b0} : {1'b1, a[22:0], 2'b00};

    // Beside the recurrence: {sign, class, exponent}, out at the rounding stage.
    wire       side_sign;
    wire [1:0] side_cls;
    wire [7:0] side_exp;
    clhls_delay #(.WIDTH(11), .LATENCY(LATENCY - 1)) side (
        .clk(clk), .ce(ce), .d({a[31], cls, exp_r}), .q({side_sign, side_cls, side_exp}));

    // ---- Stages 1 .. 25: one root bit each ----
    // After step s (s = 0 .. 24): Q has s + 1 bits and the partial remainder r has
    // s + 3 bits (two's complement; -(2Q + 1) <= r <= 2Q < 2^(s+2)). The bits of X
    // not used yet, x_top[23 - 2s : 0], wait in x while there are any (s <= 11).
    genvar s;
    generate
        for (s = 0; s < STEPS; s = s + 1) begin : step
            reg [s+2:0] r;        // partial remainder
            reg [s:0]   q;        // root bits so far, the first (always 1) on top
            wire [1:0]  two;      // the two bits of X this step shifts in
            if (s == 0) begin : first
                // r = X[49:48] - 1: X >= 2^48, so the first root bit is 1.
                assign two = x_top[25:24];
                always @(posedge clk)
                    if (ce) begin
                        r <= {1'b0, two} - 3'd1;
                        q <= 1'b1;
                    end
            end else begin : next
                // 4r + two, modulo 2^(s+3): the result fits, the old sign only
                // chooses the operation.
                wire         neg = step[s-1].r[s+1];
                wire [s+2:0] r4  = {step[s-1].r[s:0], two};
                wire [s+2:0] qq  = {1'b0, step[s-1].q, neg, 1'b1};   // 4Q + 1, or 4Q + 3
                // r4 + qq when r < 0, else r4 - qq = r4 + ~qq + 1: one adder.
                wire [s+2:0] nr  = r4 + (qq ^ {(s+3){~neg}}) + {{(s+2){1'b0}}, ~neg};
                always @(posedge clk)
                    if (ce) begin
                        r <= nr;
                        q <= {step[s-1].q, ~nr[s+2]};
                    end
            end
            // The significand's unused bits (X below them is zero).
            if (s <= 11) begin : keep
                reg [23-2*s:0] x;
                if (s == 0) begin : from_a
                    always @(posedge clk)
                        if (ce) x <= x_top[23:0];
                end else begin : shift
                    always @(posedge clk)
                        if (ce) x <= step[s-1].keep.x[23-2*s:0];
                end
            end
            if (s >= 1 && s <= 12) begin : use_x
                assign two = step[s-1].keep.x[25-2*s -: 2];
            end else if (s >= 13) begin : past_x
                assign two = 2'b00;
            end
        end
    endgenerate

    // ---- Stage 26: sticky bit ----
    // A negative final r means the true remainder is r + 2Q + 1 (which may be zero).
    wire [26:0] last_r  = step[STEPS-1].r;
    wire [24:0] last_q  = step[STEPS-1].q;
    wire [26:0] fixed_r = last_r + {1'b0, last_q, 1'b1};
    reg  [24:0] root;     // floor(sqrt(X)): 24 result bits and the guard bit
    reg         rem_nz;   // the remainder is not zero
    always @(posedge clk)
        if (ce) begin
            root   <= last_q;
            rem_nz <= last_r[26] ? (fixed_r != 27'd0) : (last_r != 27'd0);
        end

    // ---- Stage 27: round, pack ----
    // root < 2^25 - 1 (X < 2^50 - 2^25), so rounding never carries out of 24 bits.
    wire        round_up = root[0] && (rem_nz || root[1]);
    wire [23:0] rounded  = root[24:1] + {23'd0, round_up};
    reg  [31:0] result;
    always @(*) begin
        case (side_cls)
            C_NAN:   result = QNAN;
            C_INF:   result = {1'b0, 8'hFF, 23'd0};
            C_ZERO:  result = {side_sign, 31'd0};
            default: result = {1'b0, side_exp, rounded[22:0]};
        endcase
    end

    // The hidden bit of the rounded root is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[23];
    /* verilator lint_on UNUSEDSIGNAL */

    reg [31:0] y_r;
    always @(posedge clk)
        if (ce) y_r <= result;
    assign y = y_r;
endmodule

`default_nettype wire
