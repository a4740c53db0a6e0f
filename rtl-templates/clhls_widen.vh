// clhls_widen.vh: the widths of the NDRange's narrow fields and their zero-extensions
// to the ports between the NDRange modules. GW = min(ID_W, 32), the bits of a group id
// or count; widen(v), an ID_W-bit work-item index to 64 bits (the kernel's size_t);
// group32(v), a GW-bit group id or count to 32; local32(v), an LS_W-bit local size or
// id to 32. Included at the top of the modules that keep these fields narrow
// (clhls_kernel_regs, clhls_wg_dispatch, clhls_wi_gen), whose parameters ID_W and
// LS_W it uses; module scope, no include guard.
localparam GW = ID_W < 32 ? ID_W : 32;
function [63:0] widen(input [ID_W-1:0] v);
    begin
        widen = 64'd0;
        widen[ID_W-1:0] = v;
    end
endfunction
function [31:0] group32(input [GW-1:0] v);
    begin
        group32 = 32'd0;
        group32[GW-1:0] = v;
    end
endfunction
function [31:0] local32(input [LS_W-1:0] v);
    begin
        local32 = 32'd0;
        local32[LS_W-1:0] = v;
    end
endfunction
