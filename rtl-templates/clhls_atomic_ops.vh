// clhls_atomic_ops.vh: the arithmetic of clhls's atomic operations, included by every
// module that executes atomics (clhls_local_mem's banks, clhls_atomic_unit), so
// __local and __global atomics compute the same values. Codes: 1 add, 2 sub, 3 xchg,
// 4 cmpxchg, 5 min, 6 max, 7 umin, 8 umax, 9 and, 10 or, 11 xor; any other code
// leaves the value unchanged. min and max compare signed, umin and umax unsigned.
    // One lane of an atomic: the new value from the old one, the operand and the
    // expected value (cmpxchg).
    function [31:0] atomic_lane32(input [3:0] op, input [31:0] old, input [31:0] v,
                                  input [31:0] cmp);
        case (op)
            4'd1: atomic_lane32 = old + v;
            4'd2: atomic_lane32 = old - v;
            4'd3: atomic_lane32 = v;
            4'd4: atomic_lane32 = old == cmp ? v : old;
            4'd5: atomic_lane32 = $signed(v) < $signed(old) ? v : old;
            4'd6: atomic_lane32 = $signed(v) > $signed(old) ? v : old;
            4'd7: atomic_lane32 = v < old ? v : old;
            4'd8: atomic_lane32 = v > old ? v : old;
            4'd9: atomic_lane32 = old & v;
            4'd10: atomic_lane32 = old | v;
            4'd11: atomic_lane32 = old ^ v;
            default: atomic_lane32 = old;
        endcase
    endfunction

    function [63:0] atomic_lane64(input [3:0] op, input [63:0] old, input [63:0] v,
                                  input [63:0] cmp);
        case (op)
            4'd1: atomic_lane64 = old + v;
            4'd2: atomic_lane64 = old - v;
            4'd3: atomic_lane64 = v;
            4'd4: atomic_lane64 = old == cmp ? v : old;
            4'd5: atomic_lane64 = $signed(v) < $signed(old) ? v : old;
            4'd6: atomic_lane64 = $signed(v) > $signed(old) ? v : old;
            4'd7: atomic_lane64 = v < old ? v : old;
            4'd8: atomic_lane64 = v > old ? v : old;
            4'd9: atomic_lane64 = old & v;
            4'd10: atomic_lane64 = old | v;
            4'd11: atomic_lane64 = old ^ v;
            default: atomic_lane64 = old;
        endcase
    endfunction
