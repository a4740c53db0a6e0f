// clhls_fsqrt: IEEE-754 binary32 or binary64 square root, a digit recurrence
// pipelined one root bit per stage.
//
// y = sqrt(a) appears exactly LATENCY enabled clock cycles after the operand (one
// result per enabled cycle; every register holds while ce = 0). W selects the format:
// 32 (binary32) or 64 (binary64). The structure fixes the latency: LATENCY is a
// localparam, not a parameter, and the compiler reads it from here:
//   LATENCY = 27 at W = 32, 56 at W = 64 (the significand's bits + 3).
// The result is correctly rounded. Same conventions as clhls_fadd: round to nearest
// even; subnormals per SUBNORMALS (1 by default at W = 64: a subnormal operand is
// normalised in stage 1, a leading-zero count and a shift; 0 at W = 32: a subnormal
// operand is treated as a zero of the same sign); a square root is never subnormal;
// every NaN result is the canonical quiet NaN, 0x7FC00000 or
// 0x7FF8000000000000: NaN and any negative nonzero operand (-inf too);
// sqrt(-0) = -0, sqrt(+inf) = +inf.
//
// Structure: radix-2 non-restoring square root (the Li-Chu recurrence) of the MW-bit
// significand m (MW = 24 or 53), scaled to X = m * 2^(MW+1) or m * 2^(MW+2) (the
// extra factor 2 makes the exponent even), giving the MW + 1 bits of floor(sqrt(X)):
// MW result bits and the guard bit. One root bit per stage with a register after
// each: stage 1 takes the operand, classifies it and does the first step; the
// following stages do one step each: the partial remainder, shifted left by two with
// the next two bits of X, gets 4Q + 1 subtracted if it is not negative and 4Q + 3
// added if it is (Q the root so far), and the new sign is the root bit. Each stage is
// one adder/subtractor whose operation comes from a register, as wide as that stage
// needs (3 bits after the first root bit, MW + 3 after the last). The stage after
// the last step makes the sticky bit (is the true remainder, r or r + 2Q + 1,
// nonzero?), the final stage rounds and packs the result (a square root of a
// significand in [1, 4) never rounds up to 2). The sign, exponent and special-case
// class ride beside the recurrence in a clhls_delay (a ring buffer, LUT RAM on an
// FPGA).
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fsqrt32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through a LATENCY-register pipeline with ce,
// so latency and clock enable are the RTL's; without it (synthesis, the template
// tests) the RTL in the `else is used.
`default_nettype none

module clhls_fsqrt #(
    parameter W = 32,    // format: 32 (binary32) or 64 (binary64)
    parameter SUBNORMALS = (W == 64) ? 1 : 0, // 1: IEEE subnormals, 0: flush to zero
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1, // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    parameter [0:0] SIM_NORMAL = 0  // with CLHLS_SIM_MODELS, W = 32: bit i set, operand i never subnormal (no flush)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire         clk,  // clock
    input  wire         ce,   // clock enable: 0 holds every pipeline register
    input  wire [W-1:0] a,    // operand
    output wire [W-1:0] y     // sqrt(a), LATENCY enabled cycles later
);
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam STEPS   = MW + 1;          // root bits, one recurrence stage each
    localparam LATENCY = STEPS + 2;       // enabled cycles from operand to result (fixed)
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    // The C model follows the default subnormal handling only.
    generate
        if (SUBNORMALS != ((W == 64) ? 1 : 0)) begin : model_mismatch
            initial $fatal(1, "clhls_fsqrt: the C model has subnormals at W = 64 only (the default SUBNORMALS)");
        end
    endgenerate
    wire [W-1:0] result;   // sqrt(a)
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fsqrt64(a);
        end else begin : model32
            assign result = clhls_model_fsqrt32(a, {7'd0, SIM_NORMAL});
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam BIAS = (1 << (EW - 1)) - 1;
    // X has 2 STEPS bits; its nonzero top MW + 2 bits, padded to whole pairs, are
    // x_top: PAIRS pairs, one for each of the first PAIRS steps; the rest of X is zero.
    localparam PAIRS = (MW + 3) / 2;
    localparam XTW   = 2 * PAIRS;
    localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
    localparam XW = EW + 2;               // signed exponent arithmetic
    localparam [EW-1:0] E_MAX = {EW{1'b1}};
    localparam [EW-1:0] E_ONE = {{(EW-1){1'b0}}, 1'b1};
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = (1 << EW) - 1, X_BIAS = BIAS;
    // Class of the result, decided from the operand alone.
    localparam [1:0] C_NUM = 2'd0, C_ZERO = 2'd1, C_INF = 2'd2, C_NAN = 2'd3;

    `include "clhls_fround.vh"   // unpack

    // ---- Stage 1: unpack, classify, first step ----
    wire [EW-1:0] exp_a  = a[W-2:FW];
    // Zero: a zero, or with SUBNORMALS = 0 a subnormal too.
    wire          zero_a = (exp_a == {EW{1'b0}}) && (SUBNORMALS == 0 || a[FW-1:0] == {FW{1'b0}});
    wire          inf_a  = (exp_a == E_MAX) && (a[FW-1:0] == {FW{1'b0}});
    wire          nan_a  = (exp_a == E_MAX) && (a[FW-1:0] != {FW{1'b0}});
    // The operand's exponent e and significand, a subnormal normalised.
    wire signed [XW-1:0] uexp_a;
    wire [MW-1:0]        umant_a;
    assign {uexp_a, umant_a} = unpack(exp_a, a[FW-1:0]);

    reg [1:0] cls;
    always @(*) begin
        if (nan_a || (a[W-1] && !zero_a))
            cls = C_NAN;
        else if (zero_a)
            cls = C_ZERO;   // keeps the sign: sqrt(-0) = -0
        else if (inf_a)
            cls = C_INF;
        else
            cls = C_NUM;
    end
    // Result exponent: floor((e - bias) / 2) + bias = (e + bias) >> 1 (e + bias > 0,
    // also for a normalised subnormal).
    wire [XW-1:0] exp_sum = uexp_a + X_BIAS;
    wire [EW-1:0] exp_r   = exp_sum[EW:1];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [XW-EW-1:0] unused_exp_bits = {exp_sum[XW-1:EW+1], exp_sum[0]};
    /* verilator lint_on UNUSEDSIGNAL */
    // The MW + 2 leading bits of X: {0, 1, fraction, 0} when the unbiased exponent is
    // even (e odd), {1, fraction, 00} when it is odd; then zeros up to whole pairs.
    wire [MW+1:0] x_sig = uexp_a[0] ? {1'b0, umant_a, 1'b0} : {umant_a, 2'b00};
    wire [XTW-1:0] x_top;
    generate
        if (XTW == MW + 2) begin : x_even
            assign x_top = x_sig;
        end else begin : x_pad
            assign x_top = {x_sig, 1'b0};
        end
    endgenerate

    // Beside the recurrence: {sign, class, exponent}, out at the rounding stage.
    wire          side_sign;
    wire [1:0]    side_cls;
    wire [EW-1:0] side_exp;
    clhls_delay #(.WIDTH(3 + EW), .LATENCY(LATENCY - 1)) side (
        .clk(clk), .ce(ce), .d({a[W-1], cls, exp_r}), .q({side_sign, side_cls, side_exp}));

    // ---- Stages 1 .. STEPS: one root bit each ----
    // After step s (s = 0 .. STEPS - 1): Q has s + 1 bits and the partial remainder r
    // has s + 3 bits (two's complement; -(2Q + 1) <= r <= 2Q < 2^(s+2)). The bits of
    // x_top not used yet, x_top[XTW - 3 - 2s : 0], wait in x while there are any
    // (s <= PAIRS - 2).
    genvar s;
    generate
        for (s = 0; s < STEPS; s = s + 1) begin : step
            reg [s+2:0] r;        // partial remainder
            reg [s:0]   q;        // root bits so far, the first (always 1) on top
            wire [1:0]  two;      // the two bits of X this step shifts in
            if (s == 0) begin : first
                // r = X's top pair - 1: X >= 2^(2 STEPS - 2), so the first root bit is 1.
                assign two = x_top[XTW-1:XTW-2];
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
            if (s <= PAIRS - 2) begin : keep
                reg [XTW-3-2*s:0] x;
                if (s == 0) begin : from_a
                    always @(posedge clk)
                        if (ce) x <= x_top[XTW-3:0];
                end else begin : shift
                    always @(posedge clk)
                        if (ce) x <= step[s-1].keep.x[XTW-3-2*s:0];
                end
            end
            if (s >= 1 && s <= PAIRS - 1) begin : use_x
                assign two = step[s-1].keep.x[XTW-1-2*s -: 2];
            end else if (s >= PAIRS) begin : past_x
                assign two = 2'b00;
            end
        end
    endgenerate

    // ---- Stage STEPS + 1: sticky bit ----
    // A negative final r means the true remainder is r + 2Q + 1 (which may be zero).
    wire [STEPS+1:0] last_r  = step[STEPS-1].r;
    wire [STEPS-1:0] last_q  = step[STEPS-1].q;
    wire [STEPS+1:0] fixed_r = last_r + {1'b0, last_q, 1'b1};
    reg  [STEPS-1:0] root;   // floor(sqrt(X)): MW result bits and the guard bit
    reg              rem_nz; // the remainder is not zero
    always @(posedge clk)
        if (ce) begin
            root   <= last_q;
            rem_nz <= last_r[STEPS+1] ? (fixed_r != {(STEPS+2){1'b0}})
                                      : (last_r != {(STEPS+2){1'b0}});
        end

    // ---- Stage STEPS + 2: round, pack ----
    // root < 2^(MW+1) - 1 (X < 2^(2MW+2) - 2^(MW+2)), so rounding never carries out of
    // MW bits.
    wire          round_up = root[0] && (rem_nz || root[1]);
    wire [MW-1:0] rounded  = root[STEPS-1:1] + {{(MW-1){1'b0}}, round_up};
    reg  [W-1:0]  result;
    always @(*) begin
        case (side_cls)
            C_NAN:   result = QNAN;
            C_INF:   result = {1'b0, {EW{1'b1}}, {FW{1'b0}}};
            C_ZERO:  result = {side_sign, {(W-1){1'b0}}};
            default: result = {1'b0, side_exp, rounded[FW-1:0]};
        endcase
    end

    // The hidden bit of the rounded root is implied by the exponent.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_hidden = rounded[FW];
    /* verilator lint_on UNUSEDSIGNAL */

    reg [W-1:0] y_r;
    always @(posedge clk)
        if (ce) y_r <= result;
    assign y = y_r;
`endif
endmodule

`default_nettype wire
