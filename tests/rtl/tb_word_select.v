// tb_word_select: clhls_word_select against the indexed part-select it replaces, for
// lines of 1 to 64 words (odd and even index widths) and words of 8 to 512 bits. Every
// index of every instance, over random lines, is checked.
`timescale 1ns/1ps
`default_nettype none

module tb_word_select;
    reg  [511:0] line;
    reg  [5:0]   index;
    integer      errors = 0;
    integer      round, k;

    // One instance: a line of NW words of DW bits, the low DW*NW bits of `line`.
`define WORD_SELECT_CASE(NAME, DW, NW) \
    wire [DW-1:0] NAME``_word; \
    clhls_word_select #(.DATA_W(DW), .WORDS(NW)) NAME ( \
        .line(line[DW*NW-1:0]), .index(index[(NW > 1 ? $clog2(NW) : 1)-1:0]), \
        .word(NAME``_word)); \
    always @(*) if (check && index < NW && NAME``_word !== line[DW*index +: DW]) begin \
        errors = errors + 1; \
        if (errors < 10) $display("FAIL %s: index %0d gives %h, not %h", `"NAME`", index, \
                                   NAME``_word, line[DW*index +: DW]); \
    end

    reg check = 1'b0;
    `WORD_SELECT_CASE(byte_of_64, 8, 64)
    `WORD_SELECT_CASE(byte_of_32, 8, 32)
    `WORD_SELECT_CASE(half_of_8, 16, 8)
    `WORD_SELECT_CASE(int_of_16, 32, 16)
    `WORD_SELECT_CASE(int_of_4, 32, 4)
    `WORD_SELECT_CASE(long_of_8, 64, 8)
    `WORD_SELECT_CASE(long_of_2, 64, 2)
    `WORD_SELECT_CASE(vec_of_1, 512, 1)

    initial begin
        for (round = 0; round < 64; round = round + 1) begin
            for (k = 0; k < 16; k = k + 1)
                line[32*k +: 32] = $random;
            for (k = 0; k < 64; k = k + 1) begin
                index = k[5:0];
                check = 1'b0;
                #1 check = 1'b1;
                #1;
            end
        end
        if (errors == 0) $display("PASS tb_word_select");
        else $display("FAIL tb_word_select: %0d wrong words", errors);
        $finish;
    end
endmodule

`default_nettype wire
