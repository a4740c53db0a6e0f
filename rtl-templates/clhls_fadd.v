// clhls_fadd: IEEE-754 binary32 or binary64 adder/subtractor, fully pipelined.
//
// y = a + b (or a - b when sub = 1) appears exactly LATENCY enabled clock cycles
// after the operands (one result per enabled cycle; every register holds while
// ce = 0). W selects the format: 32 (binary32, 8-bit exponent, 23-bit fraction) or 64
// (binary64, 11 and 52). Conventions shared by the clhls floating-point units: round
// to nearest even; subnormals per SUBNORMALS (1 by default at W = 64, 0 at W = 32):
// with 1, subnormal inputs take part with their value and tiny results are rounded
// to subnormals (IEEE gradual underflow); with 0, subnormal inputs are treated as
// zeros of the same sign and subnormal results are flushed to zeros of the same sign
// (flush-to-zero, the rounded result decides), which costs less logic; infinities
// and NaN follow IEEE, every NaN result is the canonical quiet NaN (0x7FC00000, or
// 0x7FF8000000000000 at W = 64); overflow gives infinity; x + (-x) = +0.
//
// Structure: five stages. (1) Unpack, order the operands by magnitude, exponent
// difference (the alignment shift, saturated at the window; a subnormal counts with
// exponent 1 and no hidden bit), special cases (NaN; a zero or infinite operand makes
// the smaller significand 0, so that the sum is the larger operand). (2) Align: the
// smaller significand shifted right in a window of MW + 3 bits (MW = 24 or 53; guard,
// round, sticky), bits shifted out folded into the sticky bit. (3) Add or subtract. (4)
// Normalise: the leading zeros counted by a tree, then shifted out (a tiny sum keeps
// its exponent below 1: round_pack shifts it back). Both shifts are clhls_shift's
// stages of 4:1 multiplexers. (5) Round to nearest even and pack (clhls_fround.vh), or
// the NaN or zero result. Registers go between the stages as LATENCY allows, the last
// one always after stage 5, in the order that keeps the longest path between registers
// shortest (measured on an iCE40: stages 4 and 5 are the deepest, stages 2 and 3
// together about as deep as one of them): LATENCY 1: none inside, all five stages
// before the one register; 2: after the add (stage 3); 3: after the unpack and the add
// (1, 3); 4: also after the normalisation (1, 3, 4); 5 or more: after every stage, and
// LATENCY - 4 registers after stage 5 (clhls_delay). With a register after every stage,
// the first three levels of stage 4's leading-zero tree move into stage 3, whose add is
// the shallowest stage (on UltraScale+: stage 4 from 3.3 to 2.6 ns of logic, stage 3
// from 1.3 to 2.2).
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fadd32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_fadd #(
    parameter LATENCY = 4,  // enabled cycles from operands to result (>= 1)
    parameter W = 32,       // format: 32 (binary32) or 64 (binary64)
    parameter SUBNORMALS = (W == 64) ? 1 : 0, // 1: IEEE subnormals, 0: flush to zero
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1, // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    parameter [1:0] SIM_NORMAL = 0  // with CLHLS_SIM_MODELS, W = 32: bit i set, operand i never subnormal (no flush)
    /* verilator lint_on UNUSEDPARAM */
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
    // The C model follows the default subnormal handling only.
    generate
        if (SUBNORMALS != ((W == 64) ? 1 : 0)) begin : model_mismatch
            initial $fatal(1, "clhls_fadd: the C model has subnormals at W = 64 only (the default SUBNORMALS)");
        end
    endgenerate
    wire [W-1:0] result;   // a + b or a - b
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fadd64(a, b, sub);
        end else begin : model32
            assign result = clhls_model_fadd32(a, b, sub, {6'd0, SIM_NORMAL});
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam GW = MW + 3;               // significand with guard, round and sticky
    localparam XW = EW + 2;               // signed exponent arithmetic
    localparam SHW = $clog2(GW + 1);      // alignment shift, 0 .. GW
    localparam LZW = $clog2(GW + 1);      // normalising shift of the GW + 1-bit sum
    localparam integer GW_I = GW;
    localparam [SHW-1:0] SH_MAX = GW_I[SHW-1:0];  // shifts everything into the sticky bit
    localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
    localparam [EW-1:0] E_MAX = {EW{1'b1}};      // infinity and NaN
    localparam [EW-1:0] E_ONE = {{(EW-1){1'b0}}, 1'b1};
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = (1 << EW) - 1;
    // Registers inside (NI, at most 4) and where they go; see the header.
    localparam NI = (LATENCY > 5) ? 4 : LATENCY - 1;
    localparam R1 = (NI >= 2) ? 1 : 0;          // after stage 1, unpack
    localparam R2 = (NI >= 4) ? 1 : 0;          // after stage 2, align
    localparam R3 = (NI >= 1) ? 1 : 0;          // after stage 3, add
    localparam R4 = (NI >= 3) ? 1 : 0;          // after stage 4, normalise
    localparam OUT_LAT = LATENCY - NI;          // after stage 5 (>= 1)

    `include "clhls_fround.vh"

    // ---- Stage 1: unpack, order by magnitude, special cases ----
    wire          sign_a = a[W-1];
    wire          sign_b = b[W-1] ^ sub;        // b's sign flipped for subtraction
    wire [EW-1:0] exp_a  = a[W-2:FW];
    wire [EW-1:0] exp_b  = b[W-2:FW];
    wire          tiny_a = (exp_a == {EW{1'b0}});   // zero or subnormal
    wire          tiny_b = (exp_b == {EW{1'b0}});
    // Zero: a zero, or with SUBNORMALS = 0 a subnormal too.
    wire          zero_a = tiny_a && (SUBNORMALS == 0 || a[FW-1:0] == {FW{1'b0}});
    wire          zero_b = tiny_b && (SUBNORMALS == 0 || b[FW-1:0] == {FW{1'b0}});
    wire          inf_a  = (exp_a == E_MAX) && (a[FW-1:0] == {FW{1'b0}});
    wire          inf_b  = (exp_b == E_MAX) && (b[FW-1:0] == {FW{1'b0}});
    wire          nan_a  = (exp_a == E_MAX) && (a[FW-1:0] != {FW{1'b0}});
    wire          nan_b  = (exp_b == E_MAX) && (b[FW-1:0] != {FW{1'b0}});
    // A subnormal's exponent is that of the smallest normal (1), with no hidden bit.
    wire [EW-1:0] eexp_a = (SUBNORMALS != 0 && tiny_a) ? E_ONE : exp_a;
    wire [EW-1:0] eexp_b = (SUBNORMALS != 0 && tiny_b) ? E_ONE : exp_b;

    // big >= small: |a| >= |b|, the exponents and the fractions compared side by side.
    // The exponent difference needs only the exponents' order (equal exponents: 0).
    wire          exp_a_ge   = (exp_a >= exp_b);
    wire          a_bigger   = (exp_a > exp_b) || (exp_a_ge && (a[FW-1:0] >= b[FW-1:0]));
    wire [EW-1:0] diff_ab    = eexp_a - eexp_b;
    wire [EW-1:0] diff_ba    = eexp_b - eexp_a;
    wire [EW-1:0] exp_diff   = exp_a_ge ? diff_ab : diff_ba;
    wire [FW-1:0] frac_big   = a_bigger ? a[FW-1:0] : b[FW-1:0];
    wire [FW-1:0] frac_small = a_bigger ? b[FW-1:0] : a[FW-1:0];
    wire          hid_big    = !(a_bigger ? tiny_a : tiny_b);   // the hidden bits
    wire          hid_small  = !(a_bigger ? tiny_b : tiny_a);

    // NaN, also inf - inf; the other special cases go through the arithmetic: a zero
    // (or denormal) smaller operand, or an infinite larger one, adds a zero significand
    // (the sum is the larger operand, infinity by overflow); two zeros add two zero
    // significands, and a zero sum is +0 or, for two zeros, -0 when both are -0.
    wire nan_1       = nan_a || nan_b || (inf_a && inf_b && (sign_a != sign_b));
    wire zero_sign_1 = zero_a && zero_b && sign_a && sign_b;   // sign of a zero sum
    wire sign_1      = a_bigger ? sign_a : sign_b;             // of the larger operand
    wire eff_sub_1   = sign_a ^ sign_b;                        // effective subtraction
    wire [EW-1:0]  exp_big_1    = a_bigger ? eexp_a : eexp_b;
    wire [MW-1:0]  mant_big_1   = (zero_a && zero_b) ? {MW{1'b0}}
                                : {hid_big || SUBNORMALS == 0, frac_big};
    wire [MW-1:0]  mant_small_1 = (zero_a || zero_b || inf_a || inf_b) ? {MW{1'b0}}
                                : {hid_small || SUBNORMALS == 0, frac_small};
    wire [SHW-1:0] shift_1      = (exp_diff >= GW_I[EW-1:0]) ? SH_MAX : exp_diff[SHW-1:0];

    localparam S1_W = 4 + EW + 2 * MW + SHW;
    wire           nan_2, zero_sign_2, sign_2, eff_sub_2;
    wire [EW-1:0]  exp_big_2;
    wire [MW-1:0]  mant_big_2, mant_small_2;
    wire [SHW-1:0] shift_2;
    clhls_delay #(.WIDTH(S1_W), .LATENCY(R1)) reg1 (.clk(clk), .ce(ce),
        .d({nan_1, zero_sign_1, sign_1, eff_sub_1, exp_big_1, mant_big_1, mant_small_1, shift_1}),
        .q({nan_2, zero_sign_2, sign_2, eff_sub_2, exp_big_2, mant_big_2, mant_small_2, shift_2}));

    // ---- Stage 2: align the smaller significand, bits shifted out into the sticky bit ----
    wire [GW-1:0] small_w   = {mant_small_2, 3'b000};
    // The sticky bit is an OR of the bits the shift drops, each bit a LUT of itself and
    // the shift (shift_2 > i: SHW + 1 inputs), so it is as deep as the shift's stages.
    wire [GW-1:0] moved_2;     // small_w >> shift_2
    clhls_shift #(.W(GW), .SW(SHW), .RIGHT(1)) align (
        .in(small_w), .amount(shift_2), .out(moved_2));
    reg  [GW-1:0] dropped_2;   // the bits of small_w below the shift
    integer d;
    always @(*)
        for (d = 0; d < GW; d = d + 1)
            dropped_2[d] = small_w[d] && shift_2 > d[SHW-1:0];
    wire [GW-1:0] aligned_2 = moved_2 | {{(GW-1){1'b0}}, |dropped_2};

    localparam S2_W = 4 + EW + MW + GW;
    wire           nan_3, zero_sign_3, sign_3, eff_sub_3;
    wire [EW-1:0]  exp_big_3;
    wire [MW-1:0]  mant_big_3;
    wire [GW-1:0]  aligned_3;
    clhls_delay #(.WIDTH(S2_W), .LATENCY(R2)) reg2 (.clk(clk), .ce(ce),
        .d({nan_2, zero_sign_2, sign_2, eff_sub_2, exp_big_2, mant_big_2, aligned_2}),
        .q({nan_3, zero_sign_3, sign_3, eff_sub_3, exp_big_3, mant_big_3, aligned_3}));

    // ---- Stage 3: add or subtract (the larger minus the smaller: no borrow) ----
    wire [GW:0] big_w = {1'b0, mant_big_3, 3'b000};
    wire [GW:0] sum_3 = eff_sub_3 ? big_w - {1'b0, aligned_3} : big_w + {1'b0, aligned_3};

    // When every stage has its register (LZC_EARLY), the first LZ_SPLIT levels of
    // stage 4's leading-zero count are computed in stage 3 and their counts cross its
    // register: counting and shifting together are the deepest stage, the add alone
    // the shallowest.
    localparam LZC_EARLY = (NI == 4) ? 1 : 0;
    localparam LN = 1 << LZW;
    localparam LZ_SPLIT = 3;                             // levels counted in stage 3
    localparam SPLIT_W = (LN >> LZ_SPLIT) * (LZ_SPLIT + 1);
    wire [GW:0]        lzc_in = LZC_EARLY ? sum_3 : sum_4;  // the sum whose zeros are counted
    wire [SPLIT_W-1:0] split_3;                         // the counts of level LZ_SPLIT ...
    /* verilator lint_off UNUSEDSIGNAL */
    wire [SPLIT_W-1:0] split_4;                         // ... after reg3 (LZC_EARLY)
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_delay #(.WIDTH(SPLIT_W), .LATENCY(LZC_EARLY ? R3 : 0)) reg3_split (.clk(clk),
        .ce(ce), .d(split_3), .q(split_4));

    // The exponent of a sum whose leading one is at the top, one above the larger
    // operand's: added here so that stage 4 subtracts only the count (two operands, one
    // carry chain; a three-operand sum was mapped to a ripple of LUTs).
    wire signed [XW-1:0] exp_up_3 = {2'b00, exp_big_3} + X_ONE;

    localparam S3_W = 3 + XW + GW + 1;
    wire           nan_4, zero_sign_4, sign_4;
    wire signed [XW-1:0] exp_up_4;
    wire [GW:0]    sum_4;
    clhls_delay #(.WIDTH(S3_W), .LATENCY(R3)) reg3 (.clk(clk), .ce(ce),
        .d({nan_3, zero_sign_3, sign_3, exp_up_3, sum_3}),
        .q({nan_4, zero_sign_4, sign_4, exp_up_4, sum_4}));

    // ---- Stage 4: normalise ----
    // The leading zeros of the GW + 1-bit sum, counted by a tree: the sum padded below
    // with ones to LN = 2^LZW bits; a node at level l covers 2^l bits and holds l + 1
    // bits, its count of leading zeros (2^l: all zero). Then the sum is shifted left by
    // the count. The larger operand's leading one sits one below the top (a carry puts
    // it at the top): its exponent is exp_up (exp_big + 1) - count. A zero sum stays zero.
    genvar l, n;
    generate
        for (l = 0; l <= LZW; l = l + 1) begin : lzc
            wire [(LN >> l) * (l + 1) - 1:0] cnt;   // node n: cnt[n*(l+1) +: l+1]
            if (l == 0) begin : leaf
                wire [LN-1:0] padded = {lzc_in, {(LN - GW - 1){1'b1}}};
                assign cnt = ~padded;
            end else begin : node
                wire [(LN >> (l - 1)) * l - 1:0] below;   // the level under this one
                if (LZC_EARLY != 0 && l == LZ_SPLIT + 1) begin : registered
                    assign below = split_4;
                end else begin : direct
                    assign below = lzc[l - 1].cnt;
                end
                for (n = 0; n < (LN >> l); n = n + 1) begin : merge
                    wire [l-1:0] lo = below[(2 * n) * l +: l];       // lower half
                    wire [l-1:0] hi = below[(2 * n + 1) * l +: l];   // upper half
                    if (l == 1) begin : pair
                        assign cnt[n * 2 +: 2] = {hi[0] & lo[0], hi[0] & ~lo[0]};
                    end else begin : wide
                        assign cnt[n * (l + 1) +: l + 1] =
                            {hi[l-1] & lo[l-1], hi[l-1] & ~lo[l-1],
                             hi[l-1] ? lo[l-2:0] : hi[l-2:0]};
                    end
                end
            end
        end
    endgenerate
    assign split_3 = lzc[LZ_SPLIT].cnt;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [LZW:0]   lzc_root   = lzc[LZW].cnt;   // at most GW + 1: the top bit is 0
    /* verilator lint_on UNUSEDSIGNAL */
    wire [LZW-1:0] lead_zeros = lzc_root[LZW-1:0];
    wire [GW:0]    norm;                               // the top bit is the leading one
    clhls_shift #(.W(GW + 1), .SW(LZW), .RIGHT(0)) normalise (
        .in(sum_4), .amount(lead_zeros), .out(norm));
    wire                 sum_zero_4 = !norm[GW];
    wire signed [XW-1:0] exp_norm_4 = exp_up_4 - {{(XW-LZW){1'b0}}, lead_zeros};
    wire [MW-1:0]        mant_4     = norm[GW:4];
    wire                 guard_4    = norm[3];
    wire                 sticky_4   = |norm[2:0];

    localparam S4_W = 4 + XW + MW + 2;
    wire           nan_5, zero_sign_5, sign_5, sum_zero_5, guard_5, sticky_5;
    wire signed [XW-1:0] exp_norm_5;
    wire [MW-1:0]  mant_5;
    clhls_delay #(.WIDTH(S4_W), .LATENCY(R4)) reg4 (.clk(clk), .ce(ce),
        .d({nan_4, zero_sign_4, sign_4, sum_zero_4, exp_norm_4, mant_4, guard_4, sticky_4}),
        .q({nan_5, zero_sign_5, sign_5, sum_zero_5, exp_norm_5, mant_5, guard_5, sticky_5}));

    // ---- Stage 5: round and pack ----
    wire [W-1:0] result = nan_5      ? QNAN :
                          sum_zero_5 ? {zero_sign_5, {(W-1){1'b0}}} :
                          round_pack(sign_5, exp_norm_5, mant_5, guard_5, sticky_5);

    // Output pipeline: the remaining registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
