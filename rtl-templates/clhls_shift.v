// clhls_shift: a logical shift by a variable amount, in stages of 4:1 multiplexers.
//
// Stage k shifts by 0, 1, 2 or 3 times 4^k places, chosen by bits 2k and 2k + 1 of
// the amount (the lowest bits first; a last stage of one bit shifts by 0 or 2^(SW-1)).
// Each bit of a stage is one six-input LUT, so a shift by five or six amount bits is
// three LUT levels on the UltraScale+ and Cyclone V and a LUT4 pair or a LUT4 and a
// PFUMX per stage on the iCE40 and ECP5 (with the Xilinx wide LUTs, ABC may still
// merge stages with the logic around them into a LUT and its MUXF7/8/9). Written as
// `in << amount`, the same shift is mapped for the Xilinx families into chains of LUT1,
// MUXF7, MUXF8 and MUXF9, four levels per five or six amount bits. Amounts of W or
// more give zero.
// Combinational: no clock, no registers.
`default_nettype none

module clhls_shift #(
    parameter W     = 32,  // data width in bits
    parameter SW    = 5,   // amount width in bits (1 to 16)
    parameter RIGHT = 0    // 0: shift left (toward the top bit), 1: shift right
) (
    input  wire [W-1:0]  in,      // the value
    input  wire [SW-1:0] amount,  // places to shift by
    output wire [W-1:0]  out      // in << amount (RIGHT = 0) or in >> amount (RIGHT = 1)
);
    localparam STAGES = (SW + 1) / 2;  // 4:1 stages (the last of one bit when SW is odd)

    // Shifted by `places` (a constant): wiring alone.
    function [W-1:0] moved(input [W-1:0] x, input integer places);
        moved = RIGHT ? x >> places : x << places;
    endfunction

    genvar k;
    generate
        for (k = 0; k <= STAGES; k = k + 1) begin : stage
            wire [W-1:0] value;  // in, shifted by the amount's bits below 2k
            if (k == 0) begin : first
                assign value = in;
            end else begin : shifts
                localparam integer STEP = 1 << (2 * (k - 1));  // places per unit here
                wire [W-1:0] x = stage[k - 1].value;
                if (2 * k <= SW) begin : of_four
                    wire [1:0] sel = amount[2 * (k - 1) +: 2];
                    assign value = sel[1] ? (sel[0] ? moved(x, 3 * STEP)
                                                    : moved(x, 2 * STEP))
                                          : (sel[0] ? moved(x, STEP) : x);
                end else begin : of_two
                    assign value = amount[2 * (k - 1)] ? moved(x, STEP) : x;
                end
            end
        end
    endgenerate
    assign out = stage[STAGES].value;
endmodule

`default_nettype wire
