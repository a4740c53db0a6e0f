// clhls_fma: IEEE-754 binary32 or binary64 fused multiply-add, fully pipelined.
//
// y = a * b + c with a single rounding (C's fmaf and fma) appears exactly LATENCY
// enabled clock cycles after the operands (one result per enabled cycle; every
// register holds while ce = 0). W selects the format: 32 (binary32) or 64 (binary64).
// The result is correctly rounded. Same conventions as clhls_fadd: round to nearest
// even; subnormals per SUBNORMALS (1 by default at W = 64: subnormal inputs are
// normalised in part 1 and a tiny sum rounds to a subnormal; 0 at W = 32: subnormal
// inputs are treated as zeros of the same sign and subnormal results are flushed to
// zeros of the same sign, the rounded result decides: a result that rounds up to the
// smallest normal is kept); infinities per IEEE, every NaN result is the
// canonical quiet NaN, 0x7FC00000 or 0x7FF8000000000000 (inf * 0 + c and
// inf * x - inf too); overflow gives infinity. The product is exact and is not
// flushed: a product below the normal range still adds to a normal c. An exact zero
// sum is +0, except a zero product plus a zero c, which is -0 only when both are -0.
//
// Structure: three parts with a register between them when LATENCY allows: the
// MW x MW-bit significand product (MW = 24 or 53; a multiplier, DSP blocks on an
// FPGA) and the special cases; then the product, normalised to 2 MW bits, and c are
// ordered by magnitude, the smaller is shifted right (bits shifted out fold into a
// sticky bit) and added to or subtracted from the larger in a (2 MW + 4)-bit window
// (2 MW bits and guard, round, sticky); then the sum is normalised (leading-zero count
// and left shift), rounded and packed (clhls_fround.vh). LATENCY = 1: all three combinational before
// one register; 2: a register after the product; 3 or more: registers after the
// product and after the sum, and LATENCY - 2 at the output (for the synthesis tool to
// retime into the last part).
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fma32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through one LATENCY-register pipeline with
// ce, so latency and clock enable are the RTL's; without it (synthesis, the template
// tests) the RTL in the `else is used.
`default_nettype none

module clhls_fma #(
    parameter LATENCY = 5,  // enabled cycles from operands to result (>= 1)
    parameter W = 32,       // format: 32 (binary32) or 64 (binary64)
    parameter SUBNORMALS = (W == 64) ? 1 : 0, // 1: IEEE subnormals, 0: flush to zero
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1, // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    parameter [2:0] SIM_NORMAL = 0  // with CLHLS_SIM_MODELS, W = 32: bit i set, operand i never subnormal (no flush)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire         clk,  // clock
    input  wire         ce,   // clock enable: 0 holds every pipeline register
    input  wire [W-1:0] a,    // first factor
    input  wire [W-1:0] b,    // second factor
    input  wire [W-1:0] c,    // addend
    output wire [W-1:0] y     // a * b + c, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    // The C model follows the default subnormal handling only.
    generate
        if (SUBNORMALS != ((W == 64) ? 1 : 0)) begin : model_mismatch
            initial $fatal(1, "clhls_fma: the C model has subnormals at W = 64 only (the default SUBNORMALS)");
        end
    endgenerate
    wire [W-1:0] result;   // a * b + c
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fma64(a, b, c);
        end else begin : model32
            assign result = clhls_model_fma32(a, b, c, {5'd0, SIM_NORMAL});
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam PW = 2 * MW;               // product bits
    localparam SW = PW + 4;               // the sum's window: PW bits, guard, round, sticky and a carry
    localparam XW = EW + 3;               // signed exponent arithmetic
    localparam LZW = $clog2(SW);          // leading-zero count
    localparam BIAS = (1 << (EW - 1)) - 1;
    localparam integer TOP_I = SW - 1;
    localparam [LZW-1:0] TOP = TOP_I[LZW-1:0];    // index of the window's top bit
    localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
    localparam [EW-1:0] E_MAX = {EW{1'b1}};
    localparam [EW-1:0] E_ONE = {{(EW-1){1'b0}}, 1'b1};
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = (1 << EW) - 1, X_BIAS = BIAS;
    localparam REG_A   = (LATENCY >= 2) ? 1 : 0;        // register after the product
    localparam REG_B   = (LATENCY >= 3) ? 1 : 0;        // register after the sum
    localparam OUT_LAT = LATENCY - REG_A - REG_B;       // registers at the output (>= 1)
    localparam A_W = 1 + W + 3 + XW + PW + XW + MW;     // width of the product part's output
    localparam B_W = 1 + W + 1 + XW + SW;               // width of the sum part's output

    `include "clhls_fround.vh"

    // ---- Part 1: unpack, special cases, significand product ----
    wire          sign_p = a[W-1] ^ b[W-1];   // sign of the product
    wire          sign_c = c[W-1];
    wire [EW-1:0] exp_a  = a[W-2:FW];
    wire [EW-1:0] exp_b  = b[W-2:FW];
    wire [EW-1:0] exp_c  = c[W-2:FW];
    // Zero: a zero, or with SUBNORMALS = 0 a subnormal too.
    wire          zero_a = (exp_a == {EW{1'b0}}) && (SUBNORMALS == 0 || a[FW-1:0] == {FW{1'b0}});
    wire          zero_b = (exp_b == {EW{1'b0}}) && (SUBNORMALS == 0 || b[FW-1:0] == {FW{1'b0}});
    wire          zero_c = (exp_c == {EW{1'b0}}) && (SUBNORMALS == 0 || c[FW-1:0] == {FW{1'b0}});
    wire          inf_a  = (exp_a == E_MAX) && (a[FW-1:0] == {FW{1'b0}});
    wire          inf_b  = (exp_b == E_MAX) && (b[FW-1:0] == {FW{1'b0}});
    wire          inf_c  = (exp_c == E_MAX) && (c[FW-1:0] == {FW{1'b0}});
    wire          nan_a  = (exp_a == E_MAX) && (a[FW-1:0] != {FW{1'b0}});
    wire          nan_b  = (exp_b == E_MAX) && (b[FW-1:0] != {FW{1'b0}});
    wire          nan_c  = (exp_c == E_MAX) && (c[FW-1:0] != {FW{1'b0}});
    wire          inf_p  = inf_a || inf_b;
    wire          zero_p = zero_a || zero_b;

    reg         is_special;   // the result is special_y, not the sum
    reg [W-1:0] special_y;
    always @(*) begin
        is_special = 1'b1;
        if (nan_a || nan_b || nan_c || (inf_a && zero_b) || (inf_b && zero_a) ||
            (inf_p && inf_c && (sign_p != sign_c)))
            special_y = QNAN;
        else if (inf_p)
            special_y = {sign_p, E_MAX, {FW{1'b0}}};
        else if (inf_c)
            special_y = {sign_c, E_MAX, {FW{1'b0}}};
        else if (zero_p && zero_c)
            special_y = {sign_p & sign_c, {(W-1){1'b0}}};
        else if (zero_p)
            special_y = c;   // exact: c is normal (or subnormal)
        else begin
            special_y  = {W{1'b0}};
            is_special = 1'b0;
        end
    end

    // The operands' exponents and significands, subnormals normalised.
    wire signed [XW-1:0] uexp_a, uexp_b, uexp_c;
    wire [MW-1:0]        umant_a, umant_b, umant_c;
    assign {uexp_a, umant_a} = unpack(exp_a, a[FW-1:0]);
    assign {uexp_b, umant_b} = unpack(exp_b, b[FW-1:0]);
    assign {uexp_c, umant_c} = unpack(exp_c, c[FW-1:0]);

    // The significand product, in [2^(PW-2), 2^PW).
    wire [PW-1:0] product = umant_a * umant_b;
    // Biased exponent of the product when product[PW-1] = 0 (one more when it is 1).
    wire signed [XW-1:0] exp_p = uexp_a + uexp_b - X_BIAS;

    wire [A_W-1:0] part1 = {is_special, special_y, sign_p, sign_c, zero_c, exp_p, product,
                            uexp_c, umant_c};
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
    wire          is_special_2 = part1_q[A_W-1];
    wire [W-1:0]  special_y_2  = part1_q[A_W-2 -: W];
    wire          sign_p_2     = part1_q[A_W-2-W];
    wire          sign_c_2     = part1_q[A_W-3-W];
    wire          zero_c_2     = part1_q[A_W-4-W];
    wire signed [XW-1:0] exp_p_2 = part1_q[A_W-5-W -: XW];
    wire [PW-1:0] product_2    = part1_q[A_W-5-W-XW -: PW];
    wire signed [XW-1:0] exp_c_2 = part1_q[MW+XW-1:MW];
    wire [MW-1:0] mant_c_2     = part1_q[MW-1:0];

    // Both as PW-bit significands with the leading one at the top bit.
    wire [PW-1:0] mant_p = product_2[PW-1] ? product_2 : {product_2[PW-2:0], 1'b0};
    wire signed [XW-1:0] exp_pn = product_2[PW-1] ? exp_p_2 + X_ONE : exp_p_2;
    wire [PW-1:0] mant_c = zero_c_2 ? {PW{1'b0}} : {mant_c_2, {MW{1'b0}}};
    wire signed [XW-1:0] exp_cn = exp_c_2;

    // c is the larger only when it is not zero and |c| > |a * b|.
    wire c_bigger = !zero_c_2 &&
                    ((exp_cn > exp_pn) || ((exp_cn == exp_pn) && (mant_c > mant_p)));
    wire          sign_big  = c_bigger ? sign_c_2 : sign_p_2;
    wire          eff_sub   = sign_p_2 ^ sign_c_2;
    wire signed [XW-1:0] exp_big = c_bigger ? exp_cn : exp_pn;
    wire [XW-1:0] exp_diff  = c_bigger ? exp_cn - exp_pn : exp_pn - exp_cn;  // >= 0 if c is not zero
    wire [SW-1:0] win_big   = {1'b0, c_bigger ? mant_c : mant_p, 3'b000};
    wire [SW-1:0] win_small = {1'b0, c_bigger ? mant_p : mant_c, 3'b000};

    // Below the window's top, the difference fits the shift's LZW bits. The sticky bit
    // is an OR of the bits the shift drops, each a LUT of itself and the difference.
    wire [SW-1:0] moved;     // win_small >> exp_diff
    clhls_shift #(.W(SW), .SW(LZW), .RIGHT(1)) align (
        .in(win_small), .amount(exp_diff[LZW-1:0]), .out(moved));
    reg  [SW-1:0] dropped;   // the bits of win_small below the shift
    integer d;
    always @(*)
        for (d = 0; d < SW; d = d + 1)
            dropped[d] = win_small[d] && exp_diff[LZW-1:0] > d[LZW-1:0];

    reg  [SW-1:0] aligned;   // win_small >> exp_diff, bits shifted out folded into bit 0
    reg  [SW-1:0] sum;
    always @(*) begin
        if (exp_diff >= TOP_I[XW-1:0])
            aligned = {{(SW-1){1'b0}}, win_small != {SW{1'b0}}};   // only sticky survives
        else
            aligned = moved | {{(SW-1){1'b0}}, |dropped};
        if (eff_sub)
            sum = win_big - aligned;   // win_big >= aligned: no borrow
        else
            sum = win_big + aligned;   // the top bit takes the carry
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
    wire          is_special_3 = part2_q[B_W-1];
    wire [W-1:0]  special_y_3  = part2_q[B_W-2 -: W];
    wire          sign_3       = part2_q[B_W-2-W];
    wire signed [XW-1:0] exp_big_3 = part2_q[SW+XW-1:SW];
    wire [SW-1:0] sum_3        = part2_q[SW-1:0];

    reg  [LZW-1:0] lead_zeros;
    wire [SW-1:0]  norm;              // the top bit is the leading one
    reg  signed [XW-1:0] exp_norm;    // biased exponent of norm
    reg  [MW-1:0]  mant;
    reg            guard, sticky;
    reg  [W-1:0]   result;
    integer i;
    always @(*) begin
        lead_zeros = {LZW{1'b0}};
        for (i = 0; i < SW; i = i + 1)
            if (sum_3[i])
                lead_zeros = TOP - i[LZW-1:0];
    end
    clhls_shift #(.W(SW), .SW(LZW), .RIGHT(0)) normalise (
        .in(sum_3), .amount(lead_zeros), .out(norm));
    always @(*) begin
        // The larger operand's leading one sits one below the top (exponent exp_big).
        exp_norm = exp_big_3 + X_ONE - {{(XW-LZW){1'b0}}, lead_zeros};
        mant     = norm[SW-1 -: MW];
        guard    = norm[SW-1-MW];
        sticky   = |norm[SW-2-MW:0];
        if (is_special_3)
            result = special_y_3;
        else if (sum_3 == {SW{1'b0}})
            result = {W{1'b0}};   // exact cancellation: +0
        else
            result = round_pack(sign_3, exp_norm, mant, guard, sticky);
    end

    // Output pipeline: the remaining registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
