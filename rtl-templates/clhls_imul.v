// clhls_imul: an integer multiply, the low W bits of a * b (C's product of two W-bit
// integers: the same bits whether they are signed or not), pipelined for the FPGA's
// multiplier blocks. y appears exactly LATENCY enabled cycles after a and b, every
// register held by ce = 0.
//
// Structure: the operands are cut into L-bit limbs (16 bits: within every family's
// multiplier block, the iCE40's 16 x 16 included) and only the products of limbs that
// reach the low W bits are formed: limbs i of a and j of b with i + j < N, the limbs
// per operand. (1) The products; (2) the sum of each diagonal (the products with
// i + j = k, of weight 2^(L k)); (3) the diagonals' sum at their weights. A register
// goes after stage 1 when LATENCY >= 2 (a multiplier block's own output register) and
// after stage 2 when LATENCY >= 3; the others after stage 3. With W <= L or LATENCY <= 1
// the product is one expression. Left to synthesis as one expression, a 64-bit product
// is a cascade of multiplier blocks with the adders between them in series behind one
// register: 12 logic levels, 3.4 ns on UltraScale+ (transpose's index on sim_dc).
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the product is
// one expression through SIM_LATENCY (or LATENCY) registers, so latency and clock
// enable are the RTL's; without it (synthesis, the template tests) the limbs are used.
`default_nettype none

module clhls_imul #(
    parameter W = 32,       // bits of the operands and of the result
    parameter LATENCY = 3,  // enabled cycles from operands to result (>= 0)
    /* verilator lint_off UNUSEDPARAM */  // used by the simulation path only
    parameter SIM_LATENCY = -1  // with CLHLS_SIM_MODELS: the latency in simulation (-1: LATENCY; fewer in a folded region)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire         clk,  // clock
    input  wire         ce,   // clock enable: 0 holds every pipeline register
    input  wire [W-1:0] a,    // multiplicand
    input  wire [W-1:0] b,    // multiplier
    output wire [W-1:0] y     // the low W bits of a * b, LATENCY enabled cycles later
);
`ifdef CLHLS_SIM_MODELS
    wire [W-1:0] product = a * b;
    clhls_delay #(.WIDTH(W), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d(product), .q(y));
`else
    localparam L  = 16;                 // bits of a limb
    localparam N  = (W + L - 1) / L;    // limbs per operand
    localparam NW = N * L;              // the operands' bits in whole limbs
    localparam NP = N * (N + 1) / 2;    // products: (k, i) for i <= k < N, at k (k + 1) / 2 + i
    localparam LIMBS = (W > L && LATENCY >= 2) ? 1 : 0;
    localparam R1 = LIMBS;                           // after stage 1, the products
    localparam R2 = (LIMBS != 0 && LATENCY >= 3) ? 1 : 0;  // after stage 2, the diagonals
    localparam OUT_LAT = LATENCY - R1 - R2;          // after stage 3

    generate
        if (LIMBS == 0) begin : whole
            wire [W-1:0] product = a * b;
            clhls_delay #(.WIDTH(W), .LATENCY(LATENCY)) output_pipeline (
                .clk(clk), .ce(ce), .d(product), .q(y));
        end else begin : limbs
            wire [NW-1:0] a_limbs, b_limbs;   // the operands zero-extended to whole limbs
            if (NW > W) begin : pad
                assign a_limbs = {{(NW-W){1'b0}}, a};
                assign b_limbs = {{(NW-W){1'b0}}, b};
            end else begin : exact
                assign a_limbs = a;
                assign b_limbs = b;
            end

            // ---- Stage 1: the products that reach the low W bits ----
            wire [2*L-1:0] product_2 [0:NP-1];
            genvar k, i;
            for (k = 0; k < N; k = k + 1) begin : diagonal
                for (i = 0; i <= k; i = i + 1) begin : term
                    wire [2*L-1:0] product_1 = a_limbs[L*i +: L] * b_limbs[L*(k-i) +: L];
                    clhls_delay #(.WIDTH(2*L), .LATENCY(R1)) reg1 (.clk(clk), .ce(ce),
                        .d(product_1), .q(product_2[k*(k+1)/2 + i]));
                end
            end

            // ---- Stage 2: each diagonal's sum, W bits (the higher ones are dropped) ----
            wire [W-1:0] diagonal_3 [0:N-1];
            for (k = 0; k < N; k = k + 1) begin : sum
                wire [W-1:0] widened [0:k];   // the diagonal's products in W bits
                for (i = 0; i <= k; i = i + 1) begin : widen
                    if (W > 2*L) begin : extend
                        assign widened[i] = {{(W-2*L){1'b0}}, product_2[k*(k+1)/2 + i]};
                    end else begin : cut
                        /* verilator lint_off UNUSEDSIGNAL */
                        wire [2*L-1:0] full = product_2[k*(k+1)/2 + i];
                        /* verilator lint_on UNUSEDSIGNAL */
                        assign widened[i] = full[W-1:0];
                    end
                end
                reg [W-1:0] diagonal_2;
                integer t;
                always @(*) begin
                    diagonal_2 = {W{1'b0}};
                    for (t = 0; t <= k; t = t + 1)
                        diagonal_2 = diagonal_2 + widened[t];
                end
                clhls_delay #(.WIDTH(W), .LATENCY(R2)) reg2 (.clk(clk), .ce(ce),
                    .d(diagonal_2), .q(diagonal_3[k]));
            end

            // ---- Stage 3: the diagonals at their weights ----
            reg [W-1:0] product_3;
            integer d;
            always @(*) begin
                product_3 = {W{1'b0}};
                for (d = 0; d < N; d = d + 1)
                    product_3 = product_3 + (diagonal_3[d] << (L * d));
            end
            clhls_delay #(.WIDTH(W), .LATENCY(OUT_LAT)) output_pipeline (
                .clk(clk), .ce(ce), .d(product_3), .q(y));
        end
    endgenerate
`endif
endmodule

`default_nettype wire
