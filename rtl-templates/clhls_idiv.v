// clhls_idiv: pipelined integer divider for the compiler's /, % on 8- to 64-bit
// integers (one instance gives both the quotient and the remainder).
//
// q = a / b and r = a % b as in C (quotient truncated toward zero, remainder with the
// sign of the dividend) appear exactly LATENCY enabled clock cycles after the
// operands; a new pair may enter on every enabled cycle and every register holds
// while ce = 0. Division by zero gives q = all ones, r = a; the signed overflow
// (most negative / -1) gives q = most negative, r = 0.
//
// Structure: restoring division of the magnitudes, one quotient bit per step, WIDTH
// steps from the most significant bit down. The steps are cut into STAGES stages of
// BITS = ceil(WIDTH / LATENCY) steps (the last stage may have fewer), with a register
// after each stage. Signed operands become magnitudes before the first step and the
// signs are put back after the last one; when LATENCY leaves spare registers, the
// first one goes before the sign fix-up and the second after the magnitudes (signed
// only), and any still left over delay the result at the output. Before step i the partial remainder is
// below 2^i, so step i subtracts only i + 1 bits of the divisor (plus a check that
// its upper bits are zero) and a stage register after step i - 1 keeps only i
// remainder bits: early stages are narrower.
//
// Simulation: with CLHLS_SIM_MODELS defined (the `ifdef after the ports) the result
// comes from the C model clhls_model_idiv_q/_r (WIDTH <= 64) of sim-bridge/fp_model.c
// through DPI-C (equal to the RTL bit for bit) and goes through one LATENCY-register
// pipeline with ce, so latency and clock enable are the RTL's; without it (synthesis,
// the template tests) the RTL in the `else is used.
`default_nettype none

module clhls_idiv #(
    parameter WIDTH   = 32, // operand width: 8, 16, 32 or 64 (any width >= 2 works)
    parameter SIGNED  = 0,  // 1: signed (C truncating) division, 0: unsigned
    parameter LATENCY = 34, // registered stages from a/b to q/r: the board's int_div latency
                            // (>= 1; any value works for every WIDTH)
    /* verilator lint_off UNUSEDPARAM */  // used by the C-model path only
    parameter SIM_LATENCY = -1  // with CLHLS_SIM_MODELS: the model's latency (-1: LATENCY; fewer in a folded region)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire             clk,  // clock
    input  wire             ce,   // clock enable: when 0 every register holds (the value moves with its work-item)
    input  wire [WIDTH-1:0] a,    // dividend
    input  wire [WIDTH-1:0] b,    // divisor
    output wire [WIDTH-1:0] q,    // quotient (a / b as in C: truncated toward zero), LATENCY enabled cycles later
    output wire [WIDTH-1:0] r     // remainder (a % b as in C: sign of the dividend), with q
);
`ifdef CLHLS_SIM_MODELS
    `include "clhls_sim_models.vh"
    wire [63:0]      a_ext = {{(64-WIDTH){1'b0}}, a};
    wire [63:0]      b_ext = {{(64-WIDTH){1'b0}}, b};
    wire [WIDTH-1:0] q_val = WIDTH'(clhls_model_idiv_q(a_ext, b_ext, WIDTH, SIGNED));
    wire [WIDTH-1:0] r_val = WIDTH'(clhls_model_idiv_r(a_ext, b_ext, WIDTH, SIGNED));
    // Output pipeline: LATENCY registers, all held while ce = 0.
    clhls_delay #(.WIDTH(2 * WIDTH), .LATENCY(SIM_LATENCY < 0 ? LATENCY : SIM_LATENCY)) output_pipeline (
        .clk(clk), .ce(ce), .d({q_val, r_val}), .q({q, r}));
`else
    localparam W       = WIDTH;
    localparam BITS    = (WIDTH + LATENCY - 1) / LATENCY;  // division steps per stage
    localparam STAGES  = (WIDTH + BITS - 1) / BITS;        // stages that divide (<= LATENCY)
    localparam EXTRA   = LATENCY - STAGES;                 // registers not needed between stages
    localparam POST    = (SIGNED != 0 && EXTRA >= 1) ? 1 : 0;  // register before the sign fix-up
    localparam PRE     = (SIGNED != 0 && EXTRA >= 2) ? 1 : 0;  // register after the magnitudes
    localparam OUT_LAT = EXTRA + 1 - POST - PRE;           // registers after the fix-up (>= 1)

    // ---- Magnitudes and result signs ----
    wire         a_neg = (SIGNED != 0) && a[W-1];
    wire         b_neg = (SIGNED != 0) && b[W-1];
    wire [W-1:0] a_mag = a_neg ? -a : a;   // the most negative value stays 100..0 = 2^(W-1)
    wire [W-1:0] b_mag = b_neg ? -b : b;
    // Division by zero: every step fits, so q is all ones from the magnitudes and
    // r = |a| with the dividend's sign = a. Overflow: |a| / 1 = 2^(W-1), not negated.
    wire         neg_q = (a_neg ^ b_neg) && (b != {W{1'b0}});
    wire [W-1:0] first_a, first_d;   // magnitudes entering step 0
    wire         first_nq, first_nr; // their result signs

    generate
        if (PRE) begin : pre_reg
            reg [W-1:0] a_h, d_h;
            reg         nq_h, nr_h;
            always @(posedge clk)
                if (ce) begin
                    a_h <= a_mag; d_h <= b_mag; nq_h <= neg_q; nr_h <= a_neg;
                end
            assign {first_a, first_d, first_nq, first_nr} = {a_h, d_h, nq_h, nr_h};
        end else begin : pre_wire
            assign {first_a, first_d, first_nq, first_nr} = {a_mag, b_mag, neg_q, a_neg};
        end
    endgenerate

    // ---- WIDTH restoring division steps, a register after every BITS of them ----
    // Step i works on the state entering it:
    //   acc_i  dividend bits not used yet at the top, quotient bits found so far below
    //   rem_i  partial remainder, below 2^i (only bits [i-1:0] can be set) and below d_i
    //   d_i    divisor magnitude
    //   nq_i   negate the quotient at the end (signs differ and b != 0)
    //   nr_i   negate the remainder at the end (negative dividend)
    // and gives acc_o and rem_o (below 2^(i+1)); d_i, nq_i and nr_i pass on.
    genvar i;
    generate
        for (i = 0; i < W; i = i + 1) begin : step
            wire [W-1:0] acc_i, d_i, acc_o;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [W-1:0] rem_i;  // bits [W-1:i] are zero
            wire [W-1:0] rem_o;  // bits [W-1:i+1] are zero (a stage register keeps the others)
            /* verilator lint_on UNUSEDSIGNAL */
            wire         nq_i, nr_i;
            if (i == 0) begin : from_input
                assign {acc_i, rem_i, d_i, nq_i, nr_i} = {first_a, {W{1'b0}}, first_d, first_nq, first_nr};
            end else if (i % BITS == 0) begin : stage_reg
                reg [W-1:0] acc_h, d_h;
                reg [i-1:0] rem_h;  // the bits that can be set
                reg         nq_h, nr_h;
                always @(posedge clk)
                    if (ce) begin
                        acc_h <= step[i-1].acc_o;
                        rem_h <= step[i-1].rem_o[i-1:0];
                        d_h   <= step[i-1].d_i;
                        nq_h  <= step[i-1].nq_i;
                        nr_h  <= step[i-1].nr_i;
                    end
                assign {acc_i, rem_i, d_i, nq_i, nr_i} = {acc_h, {(W-i){1'b0}}, rem_h, d_h, nq_h, nr_h};
            end else begin : chained
                assign {acc_i, rem_i, d_i, nq_i, nr_i} =
                    {step[i-1].acc_o, step[i-1].rem_o, step[i-1].d_i, step[i-1].nq_i, step[i-1].nr_i};
            end

            // Shift the next dividend bit in: i + 1 significant bits.
            wire [i:0]   sh;
            if (i == 0) begin : first_bit
                assign sh = acc_i[W-1];
            end else begin : next_bit
                assign sh = {rem_i[i-1:0], acc_i[W-1]};
            end
            wire [i+1:0] diff = {1'b0, sh} - {1'b0, d_i[i:0]};  // diff[i+1]: borrow
            wire         fits;  // d_i <= sh: quotient bit 1, keep the difference
            if (i < W - 1) begin : narrow
                assign fits  = !diff[i+1] && (d_i[W-1:i+1] == {(W-1-i){1'b0}});
                assign rem_o = {{(W-1-i){1'b0}}, fits ? diff[i:0] : sh};
            end else begin : full
                assign fits  = !diff[i+1];
                assign rem_o = fits ? diff[i:0] : sh;
            end
            assign acc_o = {acc_i[W-2:0], fits};
        end
    endgenerate

    // ---- Signs back, then the output registers ----
    wire [2*W+1:0] done = {step[W-1].nq_i, step[W-1].nr_i, step[W-1].rem_o, step[W-1].acc_o};
    wire [2*W+1:0] fix;   // {neg_q, neg_r, remainder, quotient} after the optional register

    generate
        if (POST) begin : post_reg
            reg [2*W+1:0] held;
            always @(posedge clk)
                if (ce) held <= done;
            assign fix = held;
        end else begin : post_wire
            assign fix = done;
        end
    endgenerate

    wire [W-1:0] quot = fix[0 +: W];
    wire [W-1:0] rmd  = fix[W +: W];
    wire [W-1:0] q_val = fix[2*W+1] ? -quot : quot;  // constant-folded when unsigned
    wire [W-1:0] r_val = fix[2*W]   ? -rmd  : rmd;

    clhls_delay #(.WIDTH(2 * W), .LATENCY(OUT_LAT)) output_pipeline (
        .clk(clk), .ce(ce), .d({q_val, r_val}), .q({q, r}));
`endif
endmodule

`default_nettype wire
