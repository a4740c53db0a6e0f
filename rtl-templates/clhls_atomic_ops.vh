// clhls_atomic_ops.vh: the arithmetic of clhls's atomic operations, included by every
// module that executes atomics (clhls_local_mem's banks, clhls_atomic_unit), so
// __local and __global atomics compute the same values. Codes: 1 add, 2 sub, 3 xchg,
// 4 cmpxchg, 5 min, 6 max, 7 umin, 8 umax, 9 and, 10 or, 11 xor; any other code
// leaves the value unchanged. min and max compare signed, umin and umax unsigned.
// An operation is chosen by a one-hot select (atomic_onehot: bit k for code k, bit 0
// for "unchanged"), and the result is the OR of the chosen operation's value: a unit
// that registers the select takes the code's decoding out of the operation's cycle,
// and one that knows which codes can occur passes zeros for the others, so their
// logic disappears.
    function [11:0] atomic_onehot(input [3:0] op);
        integer k;
        begin
            atomic_onehot = 12'd0;
            for (k = 1; k <= 11; k = k + 1)
                atomic_onehot[k] = op == k[3:0];
            atomic_onehot[0] = op == 4'd0 || op > 4'd11;
        end
    endfunction

    // One lane of an atomic: the new value from the old one, the operand and the
    // expected value (cmpxchg).
    function [31:0] atomic_pick32(input [11:0] sel, input [31:0] old, input [31:0] v,
                                  input [31:0] cmp);
        atomic_pick32 = {32{sel[0]}} & old
                      | {32{sel[1]}} & (old + v)
                      | {32{sel[2]}} & (old - v)
                      | {32{sel[3]}} & v
                      | {32{sel[4]}} & (old == cmp ? v : old)
                      | {32{sel[5]}} & ($signed(v) < $signed(old) ? v : old)
                      | {32{sel[6]}} & ($signed(v) > $signed(old) ? v : old)
                      | {32{sel[7]}} & (v < old ? v : old)
                      | {32{sel[8]}} & (v > old ? v : old)
                      | {32{sel[9]}} & (old & v)
                      | {32{sel[10]}} & (old | v)
                      | {32{sel[11]}} & (old ^ v);
    endfunction

    function [63:0] atomic_pick64(input [11:0] sel, input [63:0] old, input [63:0] v,
                                  input [63:0] cmp);
        atomic_pick64 = {64{sel[0]}} & old
                      | {64{sel[1]}} & (old + v)
                      | {64{sel[2]}} & (old - v)
                      | {64{sel[3]}} & v
                      | {64{sel[4]}} & (old == cmp ? v : old)
                      | {64{sel[5]}} & ($signed(v) < $signed(old) ? v : old)
                      | {64{sel[6]}} & ($signed(v) > $signed(old) ? v : old)
                      | {64{sel[7]}} & (v < old ? v : old)
                      | {64{sel[8]}} & (v > old ? v : old)
                      | {64{sel[9]}} & (old & v)
                      | {64{sel[10]}} & (old | v)
                      | {64{sel[11]}} & (old ^ v);
    endfunction

