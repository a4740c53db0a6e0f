// clhls_widen.vh: widen(v), an ID_W-bit work-item index zero-extended to 64 bits (the
// kernel's size_t). Included inside the modules that keep indexes in the board's
// work_item_index_bits (clhls_kernel_regs, clhls_wi_gen), after ID_W is declared;
// module scope, no include guard.
function [63:0] widen(input [ID_W-1:0] v);
    begin
        widen = 64'd0;
        widen[ID_W-1:0] = v;
    end
endfunction
