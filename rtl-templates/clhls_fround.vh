// clhls_fround.vh: round_pack(sign, exp_norm, mant, guard, sticky), the last stage of
// clhls_fadd and clhls_fmul: a normalised significand (mant, the leading one in its
// top bit) with the first dropped bit (guard) and the OR of the rest (sticky), rounded
// to nearest even and packed with its sign and biased exponent exp_norm. Denormal
// results flush to zeros of the same sign, except that 1.111..1 x 2^-bias (exp_norm =
// 0, mant all ones) rounds up to the smallest normal; overflow gives infinity. No
// special cases (NaN, infinity or zero operands): the caller selects those.
// Included inside those modules' synthesis branch after their localparams W, EW, FW,
// MW (= FW + 1), XW (bits of the signed exponent) and E_MAX, E_ONE, X_ZERO, X_ONE,
// X_INF (as clhls_fadd declares them); module scope, no include guard.
function [W-1:0] round_pack(input sign, input signed [XW-1:0] exp_norm,
                            input [MW-1:0] mant, input guard, input sticky);
    reg                  up;         // round up: guard set, and a tie goes to even
    reg                  carry;      // rounding up carries out of the significand
    reg [FW-1:0]         rounded;    // fraction of mant + up (all zeros on a carry)
    reg [EW-1:0]         exp_final;  // exp_norm, one more on a carry (when in range)
    reg                  overflow;   // exp_final >= X_INF
    begin
        up        = guard && (sticky || mant[0]);
        carry     = up && (&mant);
        rounded   = mant[FW-1:0] + {{(FW-1){1'b0}}, up};
        exp_final = exp_norm[EW-1:0] + {{(EW-1){1'b0}}, carry};
        // Compared before the increment, in parallel with it.
        overflow  = carry ? (exp_norm >= X_INF - X_ONE) : (exp_norm >= X_INF);
        if (exp_norm <= X_ZERO)
            // Tiny: only 1.111..1 x 2^-bias and above round up to the smallest normal.
            round_pack = (exp_norm == X_ZERO && mant == {MW{1'b1}})
                         ? {sign, E_ONE, {FW{1'b0}}} : {sign, {(W-1){1'b0}}};
        else if (overflow)
            round_pack = {sign, E_MAX, {FW{1'b0}}};
        else
            round_pack = {sign, exp_final, rounded};
    end
endfunction
