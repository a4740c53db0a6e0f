// clhls_fround.vh: the helpers the floating-point units share. round_pack(sign,
// exp_norm, mant, guard, sticky) is the last stage of clhls_fadd, clhls_fmul,
// clhls_fma and clhls_fdiv: a normalised significand (mant, the leading one in its
// top bit) with the first dropped bit (guard) and the OR of the rest (sticky), rounded
// to nearest even and packed with its sign and biased exponent exp_norm; overflow
// gives infinity. A tiny result (exp_norm <= 0) depends on SUBNORMALS: with
// SUBNORMALS = 1 the significand is shifted right by 1 - exp_norm (the bits shifted
// out join guard and sticky) and rounded once to a subnormal, which may round up to
// the smallest normal; with SUBNORMALS = 0 it flushes to a zero of the same sign,
// except that 1.111..1 x 2^-bias (exp_norm = 0, mant all ones) rounds up to the
// smallest normal. No special cases (NaN, infinity or zero operands): the caller
// selects those. unpack(exp, frac) gives an operand's signed exponent and its
// significand with the leading one on top: a normal's exponent and {1, frac}, and
// with SUBNORMALS = 1 a subnormal's fraction shifted up by its leading zeros + 1
// and the exponent 1 minus that shift (a zero gives significand 0 and exponent 1;
// callers test for zeros themselves). With SUBNORMALS = 0 a subnormal is unpacked as if its
// hidden bit were set: callers treat it as zero.
// Included inside the units' synthesis branch after their parameter SUBNORMALS and
// localparams W, EW, FW, MW (= FW + 1), XW (bits of the signed exponent; unpack
// needs 2^(XW-1) > MW + 2^EW) and E_MAX, E_ONE, X_ZERO, X_ONE, X_INF (as clhls_fadd
// declares them); module scope (it declares the localparams FROUND_*), no include
// guard.
localparam integer FROUND_TINY_I = MW + 1, FROUND_FW_I = FW;
localparam [XW-1:0] FROUND_TINY_MAX = FROUND_TINY_I[XW-1:0];  // shifts past this: 0
localparam [XW-1:0] FROUND_FW = FROUND_FW_I[XW-1:0];
function [W-1:0] round_pack(input sign, input signed [XW-1:0] exp_norm,
                            input [MW-1:0] mant, input guard, input sticky);
    reg                  up;         // round up: guard set, and a tie goes to even
    reg                  carry;      // rounding up carries out of the significand
    reg [FW-1:0]         rounded;    // fraction of mant + up (all zeros on a carry)
    reg [EW-1:0]         exp_up;     // exp_norm + 1, computed beside the carry
    reg [EW-1:0]         exp_final;  // exp_norm, one more on a carry (when in range)
    reg                  overflow;   // exp_final >= X_INF
    reg [XW-1:0]         tiny_shift; // 1 - exp_norm: how far a tiny result moves right
    /* verilator lint_off UNUSEDSIGNAL */
    reg [2*MW+1:0]       tiny_wide;  // {mant, guard, 0..0} moved right (top bit 0)
    /* verilator lint_on UNUSEDSIGNAL */
    reg [FW-1:0]         tiny_frac;  // the subnormal's fraction
    reg                  tiny_up;    // the subnormal rounds up
    begin
        up        = guard && (sticky || mant[0]);
        carry     = up && (&mant);
        rounded   = mant[FW-1:0] + {{(FW-1){1'b0}}, up};
        // The carry selects the exponent or its increment, computed from the register
        // beside the carry's AND (not added after it).
        exp_up    = exp_norm[EW-1:0] + {{(EW-1){1'b0}}, 1'b1};
        exp_final = carry ? exp_up : exp_norm[EW-1:0];
        // Compared before the increment, in parallel with it.
        overflow  = carry ? (exp_norm >= X_INF - X_ONE) : (exp_norm >= X_INF);
        tiny_shift = X_ONE - exp_norm;
        // Past MW + 1 places every bit is below the guard bit (mant is not zero).
        tiny_wide  = (tiny_shift > FROUND_TINY_MAX) ? {(2*MW+2){1'b0}}
                     : {mant, guard, {(MW+1){1'b0}}} >> tiny_shift;
        tiny_frac  = tiny_wide[2*MW:MW+2];
        tiny_up    = tiny_wide[MW+1] && (sticky || (|tiny_wide[MW:0]) || tiny_frac[0]);
        if (exp_norm <= X_ZERO && SUBNORMALS != 0)
            // Gradual underflow: exponent field 0; a carry out of the fraction makes it
            // 1, the smallest normal, which is the correctly rounded result.
            round_pack = {sign, {{EW{1'b0}}, tiny_frac} +
                                {{(W-2){1'b0}}, tiny_up}};
        else if (exp_norm <= X_ZERO)
            // Tiny: only 1.111..1 x 2^-bias and above round up to the smallest normal.
            round_pack = (exp_norm == X_ZERO && mant == {MW{1'b1}})
                         ? {sign, E_ONE, {FW{1'b0}}} : {sign, {(W-1){1'b0}}};
        else if (overflow)
            round_pack = {sign, E_MAX, {FW{1'b0}}};
        else
            round_pack = {sign, exp_final, rounded};
    end
endfunction

function [XW+MW-1:0] unpack(input [EW-1:0] exp, input [FW-1:0] frac);
    reg [XW-1:0] shift;      // leading zeros of frac + 1 (a subnormal's left shift)
    integer      i;
    begin
        shift = {XW{1'b0}};
        for (i = 0; i < FW; i = i + 1)
            if (frac[i])
                shift = FROUND_FW - i[XW-1:0];
        if (exp == {EW{1'b0}} && SUBNORMALS != 0)
            unpack = {X_ONE - shift, {1'b0, frac} << shift};
        else
            unpack = {{{(XW-EW){1'b0}}, exp}, 1'b1, frac};
    end
endfunction
