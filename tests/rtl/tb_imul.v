// tb_imul: clhls_imul against a * b, at W 8 (one limb), 16, 20 (limbs cut short), 32,
// 33, 48 and 64 and LATENCY 0 (a wire), 1 (one expression), 2 (the products
// registered) and 3 and 5 (the diagonals too, then more registers). Each instance gets
// random operands every cycle (also while ce = 0): uniform words, words with long runs
// of ones and zeros (carries through every limb), all ones and small and negative
// values, and its own randomly toggled clock enable (full rate, random rates, long
// stalls). The reference is the list of products accepted on enabled edges: after n
// enables y must be the product accepted at enable n - LATENCY, checked before every
// rising edge, and y must not change across an edge with ce = 0. Built with
// CLHLS_SIM_MODELS (rtl_tb_imul_models), every instance has LATENCY LAT + 2 and
// SIM_LATENCY LAT: the simulation's latency must be SIM_LATENCY.
`timescale 1ns/1ps

module imul_check #(
    parameter W = 32, parameter LAT = 3, parameter CYCLES = 20000
) (input wire clk, output reg done, output integer errors, output integer checked);
    localparam H = 64, MAX_REPORTS = 8;  // history of accepted products (H > LAT)
    reg ce = 0;
    reg [W-1:0] a = 0, b = 0;
    wire [W-1:0] y;
    reg [W-1:0] hist [0:H-1];
    reg [W-1:0] y_edge;          // y just before the last rising edge
    reg ce_edge = 0;             // ce at the last rising edge
    integer cycle = 0, n = 0, seg_left = 0, mode = 0;

`ifdef CLHLS_SIM_MODELS
    localparam HW_LAT = LAT + 2;  // ignored: SIM_LATENCY is the simulation's
`else
    localparam HW_LAT = LAT;
`endif
    clhls_imul #(.W(W), .LATENCY(HW_LAT), .SIM_LATENCY(LAT)) dut (
        .clk(clk), .ce(ce), .a(a), .b(b), .y(y));

    initial begin done = 0; errors = 0; checked = 0; end

    // An operand: uniform, runs of ones and zeros, all ones, small, or small negative.
    function automatic [W-1:0] operand(input integer dummy);
        reg [127:0] r;
        integer kind, from, to, bit_i;
        begin
            r = {$urandom, $urandom, $urandom, $urandom};
            kind = $urandom % 8;
            if (kind == 1 || kind == 2) begin         // a run of ones in zeros, or the inverse
                from = $urandom % W;
                to = from + ($urandom % (W - from));
                r = 0;
                for (bit_i = 0; bit_i < W; bit_i = bit_i + 1)
                    r[bit_i] = (bit_i >= from && bit_i <= to) ^ (kind == 2);
            end else if (kind == 3) begin
                r = {128{1'b1}};
            end else if (kind == 4) begin
                r = {112'd0, 16'($urandom % 300)};
            end else if (kind == 5) begin
                r = -{112'd0, 16'($urandom % 300)};
            end
            operand = r[W-1:0];
        end
    endfunction

    function automatic reg pick_ce(input integer m);
        case (m)
            0: pick_ce = 1'b1;
            1: pick_ce = ($urandom % 4) != 0;
            2: pick_ce = ($urandom % 2) != 0;
            3: pick_ce = ($urandom % 8) == 0;
            default: pick_ce = 1'b0;
        endcase
    endfunction

    task fail(input string what, input [W-1:0] got, input [W-1:0] want);
        begin
            if (errors < MAX_REPORTS)
                $display("FAIL clhls_imul W %0d LATENCY %0d: %0s at cycle %0d (%0d enables): y=%h, expected %h",
                         W, LAT, what, cycle, n, got, want);
            errors = errors + 1;
        end
    endtask

    // Before each rising edge: y is the product accepted LAT enables ago (once known);
    // with LATENCY 0, the product of the operands now.
    always @(negedge clk) begin
        if (!done) begin
            if (LAT == 0) begin
                if (y !== a * b) fail("combinational product", y, a * b);
                checked = checked + 1;
            end else if (n >= LAT) begin
                if (y !== hist[(n - LAT) % H]) fail("product", y, hist[(n - LAT) % H]);
                checked = checked + 1;
            end
            if (!ce_edge && cycle > 0 && n >= LAT && LAT > 0 && y !== y_edge)
                fail("changed while ce was 0", y, y_edge);
        end
    end

    always @(posedge clk) begin
        if (!done) begin
            y_edge = y;
            ce_edge = ce;
            if (ce) begin
                hist[n % H] = a * b;
                n = n + 1;
            end
            cycle = cycle + 1;
            if (cycle >= CYCLES) done = 1;
            if (seg_left == 0) begin
                mode = $urandom % 5;
                seg_left = 1 + $urandom % 200;
            end
            seg_left = seg_left - 1;
            ce <= pick_ce(mode);
            a <= operand(0);
            b <= operand(0);
        end
    end
endmodule

module tb_imul;
    reg clk = 0;
    always #5 clk = ~clk;
    localparam NI = 14;
    wire [NI-1:0] done;
    integer errors [0:NI-1];
    integer checked [0:NI-1];
    imul_check #(.W(8),  .LAT(3)) w8   (.clk(clk), .done(done[0]),  .errors(errors[0]),  .checked(checked[0]));
    imul_check #(.W(16), .LAT(2)) w16  (.clk(clk), .done(done[1]),  .errors(errors[1]),  .checked(checked[1]));
    imul_check #(.W(20), .LAT(3)) w20  (.clk(clk), .done(done[2]),  .errors(errors[2]),  .checked(checked[2]));
    imul_check #(.W(20), .LAT(2)) w20b (.clk(clk), .done(done[3]),  .errors(errors[3]),  .checked(checked[3]));
    imul_check #(.W(32), .LAT(0)) w32a (.clk(clk), .done(done[4]),  .errors(errors[4]),  .checked(checked[4]));
    imul_check #(.W(32), .LAT(1)) w32b (.clk(clk), .done(done[5]),  .errors(errors[5]),  .checked(checked[5]));
    imul_check #(.W(32), .LAT(2)) w32c (.clk(clk), .done(done[6]),  .errors(errors[6]),  .checked(checked[6]));
    imul_check #(.W(32), .LAT(3)) w32d (.clk(clk), .done(done[7]),  .errors(errors[7]),  .checked(checked[7]));
    imul_check #(.W(33), .LAT(3)) w33  (.clk(clk), .done(done[8]),  .errors(errors[8]),  .checked(checked[8]));
    imul_check #(.W(48), .LAT(5)) w48  (.clk(clk), .done(done[9]),  .errors(errors[9]),  .checked(checked[9]));
    imul_check #(.W(64), .LAT(1)) w64a (.clk(clk), .done(done[10]), .errors(errors[10]), .checked(checked[10]));
    imul_check #(.W(64), .LAT(2)) w64b (.clk(clk), .done(done[11]), .errors(errors[11]), .checked(checked[11]));
    imul_check #(.W(64), .LAT(3)) w64c (.clk(clk), .done(done[12]), .errors(errors[12]), .checked(checked[12]));
    imul_check #(.W(64), .LAT(5)) w64d (.clk(clk), .done(done[13]), .errors(errors[13]), .checked(checked[13]));

    integer k, total_errors, total_checked;
    initial begin
        wait (&done);
        total_errors = 0;
        total_checked = 0;
        for (k = 0; k < NI; k = k + 1) begin
            total_errors = total_errors + errors[k];
            total_checked = total_checked + checked[k];
            if (checked[k] < 5000) begin
                $display("FAIL instance %0d checked only %0d products", k, checked[k]);
                total_errors = total_errors + 1;
            end
        end
        if (total_errors == 0)
`ifdef CLHLS_SIM_MODELS
            $display("PASS tb_imul (SIM_LATENCY): %0d products checked in %0d instances",
                     total_checked, NI);
`else
            $display("PASS tb_imul: %0d products checked in %0d instances", total_checked, NI);
`endif
        else
            $display("FAIL tb_imul: %0d errors", total_errors);
        $finish;
    end
endmodule
