// clhls_fdiv: IEEE-754 binary32 or binary64 divider, a digit recurrence pipelined one
// quotient bit per stage.
//
// y = a / b appears exactly LATENCY enabled clock cycles after the operands (one
// result per enabled cycle; every register holds while ce = 0). W selects the format:
// 32 (binary32) or 64 (binary64). The structure fixes the latency: LATENCY is a
// localparam, not a parameter, and the compiler reads it from here:
//   LATENCY = 28 at W = 32, 57 at W = 64 (the significand's bits + 4).
// The result is correctly rounded. Same conventions as clhls_fadd: round to nearest
// even; subnormals per SUBNORMALS (1 by default at W = 64: subnormal operands are
// normalised in stage 1, a leading-zero count and a shift before the first step, and
// a tiny quotient rounds to a subnormal; 0 at W = 32: subnormal inputs are treated as
// zeros of the same sign and subnormal results are flushed to zeros of the same sign,
// the rounded result decides: a quotient that rounds up to the smallest normal is
// kept); every NaN result is the canonical quiet
// NaN, 0x7FC00000 or 0x7FF8000000000000 (0 / 0 and inf / inf too); a nonzero
// finite / 0 gives a signed infinity, x / inf a signed zero; overflow gives infinity.
//
// Structure: radix-2 non-restoring division of the MW-bit significands (MW = 24 or
// 53), MW + 2 quotient bits (the integer bit, the fraction bits, the guard bit and one
// more bit for when a's significand is the smaller), one bit per stage with a
// register after each. Stage 1 takes the operands, classifies them and does the first
// step (a - b); the following stages do one step each: the partial remainder,
// doubled, gets the divisor subtracted if it is not negative and added if it is, and
// the new sign is the quotient bit. So each stage is one (MW + 2)-bit adder/subtractor
// whose operation comes from a register; there is no comparison and no restoring
// multiplexer. The stage after the last step makes the sticky bit (is the true
// remainder, r or r + b, nonzero?) and normalises the quotient (its leading bits and
// the exponent, by whether a's significand was the smaller), the final stage rounds
// and packs the result (clhls_fround.vh).
// Sign, exponent and the special-case class do not take part in the recurrence and
// ride beside it in a clhls_delay (a ring buffer, LUT RAM on an FPGA).
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fdiv32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through a LATENCY-register pipeline with ce,
// so latency and clock enable are the RTL's; without it (synthesis, the template
// tests) the RTL in the `else is used.
`default_nettype none

module clhls_fdiv #(
    parameter W = 32,    // format: 32 (binary32) or 64 (binary64)
    parameter SUBNORMALS = (W == 64) ? 1 : 0, // 1: IEEE subnormals, 0: flush to zero
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1, // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    parameter [1:0] SIM_NORMAL = 0  // with CLHLS_SIM_MODELS, W = 32: bit i set, operand i never subnormal (no flush)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire         clk,  // clock
    input  wire         ce,   // clock enable: 0 holds every pipeline register
    input  wire [W-1:0] a,    // dividend
    input  wire [W-1:0] b,    // divisor
    output wire [W-1:0] y     // a / b, LATENCY enabled cycles later
);
    localparam EW = (W == 64) ? 11 : 8;   // exponent bits
    localparam FW = W - 1 - EW;           // fraction bits (23 or 52)
    localparam MW = FW + 1;               // significand bits, hidden bit included
    localparam STEPS   = MW + 2;          // quotient bits, one recurrence stage each
    localparam LATENCY = STEPS + 2;       // enabled cycles from operands to result (fixed)
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    // The C model follows the default subnormal handling only.
    generate
        if (SUBNORMALS != ((W == 64) ? 1 : 0)) begin : model_mismatch
            initial $fatal(1, "clhls_fdiv: the C model has subnormals at W = 64 only (the default SUBNORMALS)");
        end
    endgenerate
    wire [W-1:0] result;   // a / b
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fdiv64(a, b);
        end else begin : model32
            assign result = clhls_model_fdiv32(a, b, {6'd0, SIM_NORMAL});
        end
    endgenerate
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`else
    localparam XW = EW + 2;               // signed exponent arithmetic
    localparam BIAS = (1 << (EW - 1)) - 1;
    localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
    localparam [EW-1:0] E_MAX = {EW{1'b1}};
    localparam [EW-1:0] E_ONE = {{(EW-1){1'b0}}, 1'b1};
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = (1 << EW) - 1, X_BIAS = BIAS;
    // Class of the result, decided from the operands alone.
    localparam [1:0] C_NUM = 2'd0, C_ZERO = 2'd1, C_INF = 2'd2, C_NAN = 2'd3;

    `include "clhls_fround.vh"

    // ---- Stage 1: unpack, classify, first step ----
    wire          sign   = a[W-1] ^ b[W-1];
    wire [EW-1:0] exp_a  = a[W-2:FW];
    wire [EW-1:0] exp_b  = b[W-2:FW];
    // Zero: a zero, or with SUBNORMALS = 0 a subnormal too.
    wire          zero_a = (exp_a == {EW{1'b0}}) && (SUBNORMALS == 0 || a[FW-1:0] == {FW{1'b0}});
    wire          zero_b = (exp_b == {EW{1'b0}}) && (SUBNORMALS == 0 || b[FW-1:0] == {FW{1'b0}});
    wire          inf_a  = (exp_a == E_MAX) && (a[FW-1:0] == {FW{1'b0}});
    wire          inf_b  = (exp_b == E_MAX) && (b[FW-1:0] == {FW{1'b0}});
    wire          nan_a  = (exp_a == E_MAX) && (a[FW-1:0] != {FW{1'b0}});
    wire          nan_b  = (exp_b == E_MAX) && (b[FW-1:0] != {FW{1'b0}});

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
    // The operands' exponents and significands, subnormals normalised.
    wire signed [XW-1:0] uexp_a, uexp_b;
    wire [MW-1:0]        umant_a, umant_b;
    assign {uexp_a, umant_a} = unpack(exp_a, a[FW-1:0]);
    assign {uexp_b, umant_b} = unpack(exp_b, b[FW-1:0]);
    // Biased exponent of the quotient when a's significand is at least b's.
    wire signed [XW-1:0] exp_q = uexp_a - uexp_b + X_BIAS;

    // The first step: r = a - b on the significands (each in [2^FW, 2^MW)), so
    // -b < r < b; the quotient's integer bit is r >= 0.
    wire [MW:0] first_r = {1'b0, umant_a} - {1'b0, umant_b};

    // Beside the recurrence: {sign, class, exponent}, out at the sticky stage.
    wire        side_sign;
    wire [1:0]  side_cls;
    wire signed [XW-1:0] side_exp;
    clhls_delay #(.WIDTH(3 + XW), .LATENCY(LATENCY - 2)) side (
        .clk(clk), .ce(ce), .d({sign, cls, exp_q}), .q({side_sign, side_cls, side_exp}));

    // ---- Stages 1 .. STEPS: one quotient bit each ----
    // After step s (s = 0 .. STEPS - 1): r in [-b, b) (MW + 1 bits, two's complement),
    // s + 1 quotient bits, b's fraction (the hidden bit is always 1).
    genvar s;
    generate
        for (s = 0; s < STEPS; s = s + 1) begin : step
            reg [MW:0]   r;     // partial remainder, in units of b's last place
            reg [s:0]    q;     // quotient bits so far, the integer bit first
            reg [FW-1:0] d;     // divisor's fraction
            if (s == 0) begin : first
                always @(posedge clk)
                    if (ce) begin
                        r <= first_r;
                        q <= ~first_r[MW];
                        d <= umant_b[FW-1:0];
                    end
            end else begin : next
                // 2r + b when r < 0, else 2r - b = 2r + ~b + 1: one adder, and as 2r
                // is even the + 1 takes its bit 0.
                wire          neg = step[s-1].r[MW];
                wire [MW+1:0] dv  = {3'b001, step[s-1].d} ^ {(MW+2){~neg}};
                wire [MW+1:0] nr  = {step[s-1].r, ~neg} + dv;
                always @(posedge clk)
                    if (ce) begin
                        r <= nr[MW:0];   // back in [-b, b): the top bit is the sign
                        q <= {step[s-1].q, ~nr[MW]};
                        d <= step[s-1].d;
                    end
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_top = nr[MW+1];  // equals nr[MW]
                /* verilator lint_on UNUSEDSIGNAL */
            end
        end
    endgenerate

    // ---- Stage STEPS + 1: sticky bit, the quotient normalised ----
    // A negative final r means the true remainder is r + b (which may be zero).
    wire [MW:0] last_r  = step[STEPS-1].r;
    wire [MW:0] fixed_r = last_r + {1'b0, 1'b1, step[STEPS-1].d};
    // The quotient bits: q = floor(2^(MW+1) * a / b) on significands.
    wire [STEPS-1:0] quo = step[STEPS-1].q;
    wire        rem_nz  = last_r[MW] ? (fixed_r != {(MW+1){1'b0}}) : (last_r != {(MW+1){1'b0}});
    wire        big     = quo[STEPS-1];   // significand of a >= significand of b
    reg  [MW-1:0] mant;                   // MW leading quotient bits
    reg           guard, sticky;
    reg  signed [XW-1:0] exp_norm;        // biased exponent before rounding
    reg           round_sign;
    reg  [1:0]    round_cls;
    always @(posedge clk)
        if (ce) begin
            mant       <= big ? quo[STEPS-1:2] : quo[STEPS-2:1];
            guard      <= big ? quo[1] : quo[0];
            sticky     <= (big && quo[0]) || rem_nz;
            exp_norm   <= big ? side_exp : side_exp - X_ONE;
            round_sign <= side_sign;
            round_cls  <= side_cls;
        end

    // ---- Stage STEPS + 2: round, pack ----
    reg  [W-1:0]  result;
    always @(*) begin
        case (round_cls)
            C_NAN:   result = QNAN;
            C_INF:   result = {round_sign, E_MAX, {FW{1'b0}}};
            C_ZERO:  result = {round_sign, {(W-1){1'b0}}};
            default: result = round_pack(round_sign, exp_norm, mant, guard, sticky);
        endcase
    end

    reg [W-1:0] y_r;
    always @(posedge clk)
        if (ce) y_r <= result;
    assign y = y_r;
`endif
endmodule

`default_nettype wire
