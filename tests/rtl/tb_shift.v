// tb_shift: clhls_shift against Verilog's shift operators, left and right, for odd and
// even amount widths and widths that the largest amounts pass (zero results), on
// every amount of each instance with random values.
`timescale 1ns/1ps
`default_nettype none

module tb_shift;
    reg  [127:0] value;
    reg  [6:0]   amount;
    reg          check = 1'b0;
    integer      errors = 0;
    integer      round, k;

    // One instance: the low DW bits of `value` shifted by the low AW bits of `amount`.
`define SHIFT_CASE(NAME, DW, AW, TO_RIGHT) \
    wire [DW-1:0] NAME``_out; \
    clhls_shift #(.W(DW), .SW(AW), .RIGHT(TO_RIGHT)) NAME ( \
        .in(value[DW-1:0]), .amount(amount[AW-1:0]), .out(NAME``_out)); \
    wire [DW-1:0] NAME``_want = TO_RIGHT ? value[DW-1:0] >> amount[AW-1:0] \
                                      : value[DW-1:0] << amount[AW-1:0]; \
    always @(*) if (check && NAME``_out !== NAME``_want) begin \
        errors = errors + 1; \
        if (errors < 10) $display("FAIL %s: %h by %0d gives %h, not %h", `"NAME`", \
                                   value[DW-1:0], amount[AW-1:0], NAME``_out, NAME``_want); \
    end

    `SHIFT_CASE(left_8_by_1, 8, 1, 0)
    `SHIFT_CASE(left_27_by_5, 27, 5, 0)
    `SHIFT_CASE(right_27_by_5, 27, 5, 1)
    `SHIFT_CASE(left_32_by_6, 32, 6, 0)
    `SHIFT_CASE(right_56_by_6, 56, 6, 1)
    `SHIFT_CASE(left_64_by_6, 64, 6, 0)
    `SHIFT_CASE(right_106_by_7, 106, 7, 1)
    `SHIFT_CASE(left_128_by_7, 128, 7, 0)
    `SHIFT_CASE(right_9_by_3, 9, 3, 1)

    initial begin
        for (round = 0; round < 64; round = round + 1) begin
            for (k = 0; k < 4; k = k + 1)
                value[32*k +: 32] = $random;
            for (k = 0; k < 128; k = k + 1) begin
                amount = k[6:0];
                check = 1'b0;
                #1 check = 1'b1;
                #1;
            end
        end
        if (errors == 0) $display("PASS tb_shift");
        else $display("FAIL tb_shift: %0d wrong results", errors);
        $finish;
    end
endmodule

`default_nettype wire
