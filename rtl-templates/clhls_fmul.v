// clhls_fmul: IEEE-754 binary32 or binary64 multiplier, fully pipelined.
//
// y = a * b appears exactly LATENCY enabled clock cycles after the operands (one
// result per enabled cycle; every register holds while ce = 0). W selects the
// format: 32 (binary32) or 64 (binary64). Same conventions as clhls_fadd: round to
// nearest even; subnormals per SUBNORMALS (1 by default at W = 64: subnormal inputs
// are normalised in stage 1, a leading-zero count and a shift, and tiny products
// round to subnormals; 0 at W = 32: subnormal inputs are signed zeros, subnormal
// results flush to signed zero, a result that rounds up to the smallest normal is
// kept); infinities per IEEE,
// every NaN result is the canonical quiet NaN (0x7FC00000 or 0x7FF8000000000000;
// inf * 0 too), overflow gives infinity.
//
// Structure: four stages. (1) Unpack, special cases, the exponent sum, and the
// MW x MW-bit significand product (MW = 24 or 53) as partial products of 16 x 16-bit
// pieces (4 at W = 32, 16 at W = 64): each fits one DSP multiplier (an iCE40
// SB_MAC16, which can hold the register after it; an ECP5 or Cyclone V 18 x 18).
// (2) The sum of the partial products: at W = 32 the outer two side by side plus the
// middle two's sum, kept as a net of its own, so synthesis builds two carry chains
// rather than an adder tree of LUTs (12 levels on Cyclone V). (3) Normalise: the product's top bit picks the
// MW leading bits, guard and sticky, and the exponent. The sticky bit (the OR of the
// product's bits below guard) does not wait for the sum: a product has as many
// trailing zeros as its factors together, counted in stage 1 and added in stage 2, so
// stage 3 only picks one of two flags (after the sum's carry chain, an OR of 22 bits
// was four more LUTs on UltraScale+, ABC spreading it as if the chain took no time).
// (4) Round to nearest even and pack (clhls_fround.vh), or the special result.
// Registers go between the stages as LATENCY allows, the last one always after stage
// 4, in this order: LATENCY 1: none inside, all four stages before the one register;
// 2: after the partial products (1); 3: also after the normalisation at W = 32 (1, 3:
// the sum of four partial products is short, and the rounding's increment is the
// longer half; 3.4 to 3.0 ns on UltraScale+ by its delay table) and after the sum at
// W = 64 (1, 2: a sum of sixteen); 4 or more: after every stage, and LATENCY - 3
// registers after stage 4 (clhls_delay).
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_fmul32/64 of sim-bridge/fp_model.c through DPI-C
// (equal to the RTL bit for bit) and goes through the same LATENCY-register output
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_fmul #(
    parameter LATENCY = 3,  // enabled cycles from operands to result (>= 1)
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
    output wire [W-1:0] y     // a * b, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    // The C model follows the default subnormal handling only.
    generate
        if (SUBNORMALS != ((W == 64) ? 1 : 0)) begin : model_mismatch
            initial $fatal(1, "clhls_fmul: the C model has subnormals at W = 64 only (the default SUBNORMALS)");
        end
    endgenerate
    wire [W-1:0] result;   // a * b
    generate
        if (W == 64) begin : model64
            assign result = clhls_model_fmul64(a, b);
        end else begin : model32
            assign result = clhls_model_fmul32(a, b, {6'd0, SIM_NORMAL});
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
    localparam XW = EW + 2;               // signed exponent arithmetic
    localparam BIAS = (1 << (EW - 1)) - 1;
    localparam NP = (MW + 15) / 16;       // 16-bit pieces of a significand
    localparam NPP = NP * NP;             // partial products, 32 bits each
    localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
    localparam [EW-1:0] E_MAX = {EW{1'b1}};
    localparam [EW-1:0] E_ONE = {{(EW-1){1'b0}}, 1'b1};
    localparam signed [XW-1:0] X_ZERO = 0, X_ONE = 1, X_INF = (1 << EW) - 1;
    localparam signed [XW-1:0] X_BIAS = BIAS;
    // Registers inside (NI, at most 3) and where they go; see the header.
    localparam NI = (LATENCY > 4) ? 3 : LATENCY - 1;
    localparam R1 = (NI >= 1) ? 1 : 0;          // after stage 1, the partial products
    localparam R2 = (NI >= ((W == 32) ? 3 : 2)) ? 1 : 0;  // after stage 2, their sum
    localparam R3 = (NI >= ((W == 32) ? 2 : 3)) ? 1 : 0;  // after stage 3, normalise
    localparam OUT_LAT = LATENCY - NI;          // after stage 4 (>= 1)
    localparam TW = (W == 64) ? 6 : 5;          // bits of a significand's trailing zeros
    // Product bits below guard when its top bit is 0, and when it is 1.
    localparam integer LOW_BITS = MW - 2, LOW_BITS_TOP = MW - 1;
    localparam [TW:0] LOW_DROPPED = LOW_BITS[TW:0], LOW_DROPPED_TOP = LOW_BITS_TOP[TW:0];

    `include "clhls_fround.vh"

    // Trailing zeros of a significand (MW for a zero one, whose product is special).
    function [TW-1:0] trailing_zeros(input [MW-1:0] m);
        integer bit_index;
        begin
            trailing_zeros = MW[TW-1:0];
            for (bit_index = MW - 1; bit_index >= 0; bit_index = bit_index - 1)
                if (m[bit_index])
                    trailing_zeros = bit_index[TW-1:0];
        end
    endfunction

    // ---- Stage 1: unpack, special cases, partial products ----
    wire          sign_1 = a[W-1] ^ b[W-1];
    wire [EW-1:0] exp_a  = a[W-2:FW];
    wire [EW-1:0] exp_b  = b[W-2:FW];
    // Zero: a zero, or with SUBNORMALS = 0 a subnormal too.
    wire          zero_a = (exp_a == {EW{1'b0}}) && (SUBNORMALS == 0 || a[FW-1:0] == {FW{1'b0}});
    wire          zero_b = (exp_b == {EW{1'b0}}) && (SUBNORMALS == 0 || b[FW-1:0] == {FW{1'b0}});
    wire          inf_a  = (exp_a == E_MAX) && (a[FW-1:0] == {FW{1'b0}});
    wire          inf_b  = (exp_b == E_MAX) && (b[FW-1:0] == {FW{1'b0}});
    wire          nan_a  = (exp_a == E_MAX) && (a[FW-1:0] != {FW{1'b0}});
    wire          nan_b  = (exp_b == E_MAX) && (b[FW-1:0] != {FW{1'b0}});
    wire          nan_1  = nan_a || nan_b || (inf_a && zero_b) || (inf_b && zero_a);
    wire          inf_1  = inf_a || inf_b;         // after NaN
    wire          zero_1 = zero_a || zero_b;       // after infinity
    // The operands' exponents and significands, subnormals normalised.
    wire signed [XW-1:0] uexp_a, uexp_b;
    wire [MW-1:0]        umant_a, umant_b;
    assign {uexp_a, umant_a} = unpack(exp_a, a[FW-1:0]);
    assign {uexp_b, umant_b} = unpack(exp_b, b[FW-1:0]);
    // Biased exponent of the product when its top bit is 0 (one more when it is 1).
    wire signed [XW-1:0] exp_1 = uexp_a + uexp_b - X_BIAS;
    // The significands' trailing zeros: the product's are their sum (stage 2), which
    // gives the sticky bit without waiting for the product's low bits.
    wire [TW-1:0] tz_a_1 = trailing_zeros(umant_a);
    wire [TW-1:0] tz_b_1 = trailing_zeros(umant_b);

    // The significands, zero-extended to NP pieces; piece i times piece j.
    wire [16*NP-1:0] mant_a = {{(16*NP-MW){1'b0}}, umant_a};
    wire [16*NP-1:0] mant_b = {{(16*NP-MW){1'b0}}, umant_b};
    wire [32*NPP-1:0] pp_1;
    genvar i, j;
    generate
        for (i = 0; i < NP; i = i + 1) begin : piece_a
            for (j = 0; j < NP; j = j + 1) begin : piece_b
                assign pp_1[32*(NP*i+j) +: 32] = mant_a[16*i +: 16] * mant_b[16*j +: 16];
            end
        end
    endgenerate

    localparam S1_W = 4 + XW + 2 * TW + 32 * NPP;
    wire                 sign_2, nan_2, inf_2, zero_2;
    wire signed [XW-1:0] exp_2;
    wire [TW-1:0]        tz_a_2, tz_b_2;
    wire [32*NPP-1:0]    pp_2;
    clhls_delay #(.WIDTH(S1_W), .LATENCY(R1)) reg1 (.clk(clk), .ce(ce),
        .d({sign_1, nan_1, inf_1, zero_1, exp_1, tz_a_1, tz_b_1, pp_1}),
        .q({sign_2, nan_2, inf_2, zero_2, exp_2, tz_a_2, tz_b_2, pp_2}));

    // ---- Stage 2: the product, in [2^(PW-2), 2^PW) ----
    reg [32*NP-1:0] product_all;   // the sum of the partial products (the top bits are zero)
    generate
        if (NP == 2) begin : two_pieces
            // lo x lo and hi x hi do not overlap: one word; the middle pieces' sum, kept
            // apart, is added to it, two carry chains instead of an adder tree in LUTs
            (* keep *) wire [32:0] middle = {1'b0, pp_2[32 +: 32]} + {1'b0, pp_2[64 +: 32]};
            always @(*)
                product_all = {pp_2[96 +: 32], pp_2[0 +: 32]} + ({31'd0, middle} << 16);
        end else begin : many_pieces
            integer p;
            always @(*) begin
                product_all = {(32*NP){1'b0}};
                for (p = 0; p < NPP; p = p + 1)
                    product_all = product_all +
                                  ({{(32*NP-32){1'b0}}, pp_2[32*p +: 32]} << (16 * (p / NP + p % NP)));
            end
        end
    endgenerate
    wire [PW-1:0] product_2 = product_all[PW-1:0];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [32*NP-PW-1:0] unused_top = product_all[32*NP-1:PW];   // zero
    /* verilator lint_on UNUSEDSIGNAL */
    // Whether the product's MW - 2 low bits (below guard when its top bit is 0) and its
    // MW - 1 low bits (when it is 1) hold a one: the product's trailing zeros are fewer.
    wire [TW:0] tz_product_2 = {1'b0, tz_a_2} + {1'b0, tz_b_2};
    wire        low_ones_2   = tz_product_2 < LOW_DROPPED;
    wire        low_ones_top_2 = tz_product_2 < LOW_DROPPED_TOP;

    localparam S2_W = 6 + XW + PW;
    wire                 sign_3, nan_3, inf_3, zero_3, low_ones_3, low_ones_top_3;
    wire signed [XW-1:0] exp_3;
    wire [PW-1:0]        product_3;
    clhls_delay #(.WIDTH(S2_W), .LATENCY(R2)) reg2 (.clk(clk), .ce(ce),
        .d({sign_2, nan_2, inf_2, zero_2, low_ones_2, low_ones_top_2, exp_2, product_2}),
        .q({sign_3, nan_3, inf_3, zero_3, low_ones_3, low_ones_top_3, exp_3, product_3}));

    // ---- Stage 3: normalise: MW leading bits, the first dropped bit, the OR of the rest ----
    wire                 top_3    = product_3[PW-1];
    wire [MW-1:0]        mant_3   = top_3 ? product_3[PW-1:MW] : product_3[PW-2:MW-1];
    wire                 guard_3  = top_3 ? product_3[MW-1] : product_3[MW-2];
    wire                 sticky_3 = top_3 ? low_ones_top_3 : low_ones_3;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [MW-3:0]        unused_low = product_3[MW-3:0];   // their OR is the sticky bit
    /* verilator lint_on UNUSEDSIGNAL */
    wire signed [XW-1:0] exp_norm_3 = top_3 ? exp_3 + X_ONE : exp_3;

    localparam S3_W = 4 + XW + MW + 2;
    wire                 sign_4, nan_4, inf_4, zero_4, guard_4, sticky_4;
    wire signed [XW-1:0] exp_norm_4;
    wire [MW-1:0]        mant_4;
    clhls_delay #(.WIDTH(S3_W), .LATENCY(R3)) reg3 (.clk(clk), .ce(ce),
        .d({sign_3, nan_3, inf_3, zero_3, exp_norm_3, mant_3, guard_3, sticky_3}),
        .q({sign_4, nan_4, inf_4, zero_4, exp_norm_4, mant_4, guard_4, sticky_4}));

    // ---- Stage 4: round and pack ----
    wire [W-1:0] result = nan_4  ? QNAN :
                          inf_4  ? {sign_4, E_MAX, {FW{1'b0}}} :
                          zero_4 ? {sign_4, {(W-1){1'b0}}} :
                          round_pack(sign_4, exp_norm_4, mant_4, guard_4, sticky_4);

    // Output pipeline: the remaining registers, all held while ce = 0.
    clhls_delay #(.WIDTH(W), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d(result), .q(y));
`endif
endmodule

`default_nettype wire
