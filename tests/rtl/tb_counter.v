// tb_counter: clhls_counter with a 4-bit low half (so its carries happen often)
// against a plain 64-bit count, for increments of 1 bit and of 3 bits: the value is
// exact one cycle after every increment and after bursts of increments (carries back
// to back), and clear restarts it at that cycle's increment, dropping a pending carry.
// A third counts the 3-bit increments on 7 bits (WIDTH): modulo 128, the rest zero.
// With CLHLS_SIM_CHECKS (rtl_tb_counter_jumps), a counter clocked once with `skip`
// (the simulator's jump over still cycles) must end exactly where one clocked 1 + skip
// times with the same increment does, pending carry included.
`timescale 1ns/1ps
module tb_counter;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1, clear = 0; reg inc1 = 0; reg [2:0] inc3 = 0;
    wire [63:0] v1, v3, v7;
    reg  [63:0] want1, want3;
    clhls_counter #(.INC_W(1), .LOW_W(4)) one (.clk(clk), .rst(rst), .clear(clear), .inc(inc1), .skip(32'd0), .value(v1));
    clhls_counter #(.INC_W(3), .LOW_W(4)) three (.clk(clk), .rst(rst), .clear(clear), .inc(inc3), .skip(32'd0), .value(v3));
    clhls_counter #(.INC_W(3), .LOW_W(4), .WIDTH(7)) seven (.clk(clk), .rst(rst), .clear(clear), .inc(inc3), .skip(32'd0), .value(v7));
    integer i;
    initial begin
        want1 = 0; want3 = 0;
        repeat (2) @(negedge clk); rst = 0;
        for (i = 0; i < 5000; i = i + 1) begin
            @(negedge clk);
            // a count read the cycle after an increment's cycle is exact one cycle later
            inc1 = ($urandom % 4) != 0; inc3 = $urandom % 8;
            if (i % 997 == 996 || i % 997 == 15) clear = 1; // after a burst's carry, and not
            @(posedge clk); #1;
            if (clear) begin want1 = inc1; want3 = inc3; end
            else begin want1 = want1 + inc1; want3 = want3 + inc3; end
            @(negedge clk); clear = 0; inc1 = 0; inc3 = 0;
            @(posedge clk); #1;
            if (v1 !== want1 || v3 !== want3 || v7 !== {57'd0, want3[6:0]}) begin
                $display("FAIL step %0d: %0d %0d, expected %0d %0d", i, v1, v3, want1, want3); $fatal(1); end
        end
        // bursts: an increment every cycle (carries back to back), checked after them
        for (i = 0; i < 200; i = i + 1) begin
            repeat (1 + $urandom % 40) begin
                @(negedge clk); inc1 = 1; inc3 = 3'd7;
                @(posedge clk); #1; want1 = want1 + 1; want3 = want3 + 7;
            end
            @(negedge clk); inc1 = 0; inc3 = 0;
            @(posedge clk); #1;
            if (v1 !== want1 || v3 !== want3 || v7 !== {57'd0, want3[6:0]}) begin
                $display("FAIL burst %0d: %0d %0d, expected %0d %0d", i, v1, v3, want1, want3); $fatal(1); end
        end
`ifdef CLHLS_SIM_CHECKS
        // jumps: `stepped` takes 1 + skip edges of an increment, `jumped` one edge with
        // skip (its own clock), from the same count; then both an edge without one
        rst = 1; @(posedge clk); #1; rst = 0; jump_rst = 1; jump_clk = 1; #1; jump_clk = 0;
        jump_rst = 0;
        for (i = 0; i < 3000; i = i + 1) begin
            @(negedge clk); inc3 = $urandom % 8; skip = $urandom % 3 == 0 ? $urandom % 70 : 0;
            if (i % 500 == 499) inc3 = 0;
            repeat (skip + 1) @(posedge clk);
            #1; jump_clk = 1; #1; jump_clk = 0;
            if (vs !== vj) begin
                $display("FAIL jump %0d (skip %0d, inc %0d): %0d stepped, %0d jumped", i, skip,
                         inc3, vs, vj); $fatal(1); end
            @(negedge clk); inc3 = 0; skip = 0;
            @(posedge clk); #1; jump_clk = 1; #1; jump_clk = 0;
            if (vs !== vj) begin
                $display("FAIL after jump %0d: %0d stepped, %0d jumped", i, vs, vj); $fatal(1); end
        end
        $display("PASS tb_counter (%0d and %0d counted, %0d after jumps)", want1, want3, vs);
`else
        $display("PASS tb_counter (%0d and %0d counted)", want1, want3);
`endif
        $finish;
    end
`ifdef CLHLS_SIM_CHECKS
    reg jump_clk = 0, jump_rst = 0; reg [31:0] skip = 0;
    wire [63:0] vs, vj;
    clhls_counter #(.INC_W(3), .LOW_W(4), .WIDTH(12)) stepped (.clk(clk), .rst(rst), .clear(1'b0),
        .inc(inc3), .skip(32'd0), .value(vs));
    clhls_counter #(.INC_W(3), .LOW_W(4), .WIDTH(12)) jumped (.clk(jump_clk), .rst(jump_rst),
        .clear(1'b0), .inc(inc3), .skip(skip), .value(vj));
`endif
endmodule
