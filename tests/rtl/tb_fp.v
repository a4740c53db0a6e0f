// tb_fp: the floating-point templates (clhls_fadd, clhls_fmul, clhls_fcmp, clhls_itofp
// and clhls_fptoi for every width and signedness, clhls_fdiv, clhls_fsqrt; clhls_fadd,
// clhls_fmul, clhls_fma, clhls_itofp and clhls_fptoi at a latency for each of their
// register structures)
// against reference vectors from
// gen_fp_vectors (host FPU: binary32 flushing to zero, binary64 IEEE with
// subnormals, as the units' default SUBNORMALS), loaded from the directory given by
// +dir=DIR. Two tops, verilated separately (each in about half the time): tb_fp
// checks the binary32 instances (W = 32), tb_fp64 the binary64 ones (W = 64) and the
// conversions clhls_ftod and clhls_dtof. Each instance has its own randomly toggled
// clock enable (long stalls, single bubbles, full-rate runs) and random operands while
// ce = 0; a reference pipeline of vector numbers advances only on enabled cycles, and
// the output is compared bit-exactly on every cycle, so a unit that advances or
// changes while ce = 0 fails too.
`timescale 1ns/1ps

// KIND: 0 fadd, 1 fmul, 2 fcmp, 3 itofp, 4 fptoi, 5 fdiv, 6 fsqrt, 7 fma, 8 ftod,
// 9 dtof; F: the format, 32 or 64 (the units' W). A vector line is {inputs, expected}
// (the fields gen_fp_vectors writes); the first line of the file is the number of
// vectors. fdiv and fsqrt have a fixed latency (their localparam LATENCY): LAT must
// equal it.
module fp_check #(
    parameter KIND = 0, parameter F = 32, parameter W = 32, parameter SIGNED = 1,
    parameter LAT = 3, parameter string NAME = "fadd"
) (input wire clk, output reg done, output integer errors, output integer checked);
    // Bits of the inputs and of the expected result in a vector line.
    localparam IN_BITS = (KIND == 0 || KIND == 2) ? 2 * F + 4 :
                         (KIND == 1 || KIND == 5) ? 2 * F :
                         (KIND == 7) ? 3 * F : (KIND == 3 || KIND == 9) ? 64 :
                         (KIND == 8) ? 32 : F;
    localparam OUT_BITS = (KIND == 2) ? 4 : (KIND == 4 || KIND == 8) ? 64 :
                          (KIND == 9) ? 32 : F;
    localparam MAXN = 1 << 17, LW = IN_BITS + OUT_BITS, MAX_REPORTS = 8;
    reg [LW-1:0] mem [0:MAXN-1];
    reg ce = 0;
    reg [IN_BITS-1:0] vin = 0;
    wire [OUT_BITS-1:0] y;
    integer n = 0, next = 1, cycle = 0, k;
    reg [31:0] last_bad = 0;       // last vector reported (once, even if held for cycles)
    reg [31:0] cur = 0;            // line number of the vector on vin, 0: none (garbage)
    reg [31:0] pipe [0:LAT-1];     // line number held in each enabled stage, 0: bubble
    reg [LW-1:0] v;
    string dir, name;              // the vectors: DIR/NAME.hex; conversions by width

    generate
        if (KIND == 0) begin : u
            clhls_fadd #(.LATENCY(LAT), .W(F)) dut (.clk(clk), .ce(ce), .a(vin[2*F+3:F+4]),
                .b(vin[F+3:4]), .sub(vin[0]), .y(y));
        end else if (KIND == 1) begin : u
            clhls_fmul #(.LATENCY(LAT), .W(F)) dut (.clk(clk), .ce(ce), .a(vin[2*F-1:F]),
                .b(vin[F-1:0]), .y(y));
        end else if (KIND == 2) begin : u
            clhls_fcmp #(.LATENCY(LAT), .W(F)) dut (.clk(clk), .ce(ce), .a(vin[2*F+3:F+4]),
                .b(vin[F+3:4]), .pred(vin[3:0]), .y(y[0]));
            assign y[OUT_BITS-1:1] = 0;
        end else if (KIND == 3) begin : u
            clhls_itofp #(.IN_W(W), .SIGNED(SIGNED), .LATENCY(LAT), .W(F)) dut (.clk(clk),
                .ce(ce), .a(vin[W-1:0]), .y(y));
        end else if (KIND == 4) begin : u
            clhls_fptoi #(.OUT_W(W), .SIGNED(SIGNED), .LATENCY(LAT), .W(F)) dut (.clk(clk),
                .ce(ce), .a(vin[F-1:0]), .y(y[W-1:0]));
            if (W < OUT_BITS) begin : pad
                assign y[OUT_BITS-1:W] = 0;
            end
        end else if (KIND == 5) begin : u
            clhls_fdiv #(.W(F)) dut (.clk(clk), .ce(ce), .a(vin[2*F-1:F]), .b(vin[F-1:0]), .y(y));
        end else if (KIND == 6) begin : u
            clhls_fsqrt #(.W(F)) dut (.clk(clk), .ce(ce), .a(vin[F-1:0]), .y(y));
        end else if (KIND == 7) begin : u
            clhls_fma #(.LATENCY(LAT), .W(F)) dut (.clk(clk), .ce(ce), .a(vin[3*F-1:2*F]),
                .b(vin[2*F-1:F]), .c(vin[F-1:0]), .y(y));
        end else if (KIND == 8) begin : u
            clhls_ftod #(.LATENCY(LAT)) dut (.clk(clk), .ce(ce), .a(vin[31:0]), .y(y));
        end else begin : u
            clhls_dtof #(.LATENCY(LAT)) dut (.clk(clk), .ce(ce), .a(vin[63:0]), .y(y));
        end
    endgenerate

    initial begin
        done = 0; errors = 0; checked = 0;
        for (k = 0; k < LAT; k = k + 1) pipe[k] = 0;
        if (!$value$plusargs("dir=%s", dir)) begin
            $display("FAIL tb_fp: no +dir=DIR (the gen_fp_vectors output)"); $fatal(1);
        end
        // itofp_s8, fptoi_u64, ...; in binary64 itod_s8, dtoi_u64, ...
        if (KIND == 3)
            name = F == 64 ? "itod" : "itofp";
        else if (KIND == 4)
            name = F == 64 ? "dtoi" : "fptoi";
        if (KIND == 3 || KIND == 4)
            name = $sformatf("%s_%s%0d", name, SIGNED ? "s" : "u", W);
        else
            name = NAME;
        if (u.dut.LATENCY != LAT) begin   // fixed for fdiv and fsqrt
            $display("FAIL %s: the unit's LATENCY is %0d, the check expects %0d", name,
                     u.dut.LATENCY, LAT);
            $fatal(1);
        end
        mem[0] = 0;
        $readmemh($sformatf("%s/%s.hex", dir, name), mem);
        n = mem[0][31:0];
        if (n < 1 || n >= MAXN) begin
            $display("FAIL %s: %s/%s.hex announces %0d vectors (1 .. %0d)", name, dir, name, n, MAXN - 1);
            $fatal(1);
        end
    end

    // Random clock enable: the mode changes every 256 cycles.
    function automatic reg pick_ce(input integer c);
        case ((c / 256) % 5)
            0: pick_ce = 1'b1;                       // full rate
            1: pick_ce = ($urandom % 4) != 0;
            2: pick_ce = ($urandom % 2) != 0;
            3: pick_ce = ($urandom % 8) == 0;        // long stalls
            default: pick_ce = ($urandom % 16) != 0; // rare bubbles
        endcase
    endfunction

    function automatic [LW-1:0] garbage(input integer dummy);
        if (LW > 128)
            garbage = {$urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom};
        else
            garbage = {$urandom, $urandom, $urandom, $urandom};
    endfunction

    // Prints a mismatch with the operands in hex (fields as gen_fp_vectors writes them).
    localparam O = OUT_BITS;
    task report(input [31:0] line, input [OUT_BITS-1:0] got);
        reg [255:0] l;   // the line, zero-extended
        reg [OUT_BITS-1:0] e;
        begin
            l = 0; l[LW-1:0] = mem[line];
            e = l[O-1:0];
            if (KIND == 0)
                $display("FAIL %s (LATENCY %0d) vector %0d: a=%h b=%h sub=%0d -> y=%h, expected %h",
                         name, LAT, line, l[O+2*F+3 -: F], l[O+F+3 -: F], l[O], got, e);
            else if (KIND == 1 || KIND == 5)
                $display("FAIL %s (LATENCY %0d) vector %0d: a=%h b=%h -> y=%h, expected %h",
                         name, LAT, line, l[O+2*F-1 -: F], l[O+F-1 -: F], got, e);
            else if (KIND == 2)
                $display("FAIL %s (LATENCY %0d) vector %0d: a=%h b=%h pred=%0d -> y=%0d, expected %0d",
                         name, LAT, line, l[O+2*F+3 -: F], l[O+F+3 -: F], l[O+3 -: 4], got[0], e[0]);
            else if (KIND == 7)
                $display("FAIL %s (LATENCY %0d) vector %0d: a=%h b=%h c=%h -> y=%h, expected %h",
                         name, LAT, line, l[O+3*F-1 -: F], l[O+2*F-1 -: F], l[O+F-1 -: F], got, e);
            else if (KIND == 3 || KIND == 9)
                $display("FAIL %s (LATENCY %0d) vector %0d: a=%h -> y=%h, expected %h",
                         name, LAT, line, l[O+63 -: 64], got, e);
            else if (KIND == 8)
                $display("FAIL %s (LATENCY %0d) vector %0d: a=%h -> y=%h, expected %h",
                         name, LAT, line, l[O+31 -: 32], got, e);
            else   // 4, 6: one operand of the format
                $display("FAIL %s (LATENCY %0d) vector %0d: a=%h -> y=%h, expected %h",
                         name, LAT, line, l[O+F-1 -: F], got, e);
        end
    endtask

    always @(posedge clk) if (!done && n > 0) begin
        cycle = cycle + 1;
        // The output (before this edge) must be the vector in the last stage, also
        // while ce = 0: it holds.
        if (pipe[LAT-1] != 0) begin
            v = mem[pipe[LAT-1]];
            if (y !== v[OUT_BITS-1:0] && pipe[LAT-1] != last_bad) begin  // count each vector once
                if (errors < MAX_REPORTS) report(pipe[LAT-1], y);
                errors = errors + 1;
                last_bad = pipe[LAT-1];
            end
            if (ce) checked = checked + 1;
        end
        // This edge moves the pipeline only if enabled.
        if (ce) begin
            pipe[0] <= cur;
            for (k = 1; k < LAT; k = k + 1) pipe[k] <= pipe[k-1];
        end
        // Operands for the next edge: the next vector when enabled, garbage otherwise.
        if (pick_ce(cycle)) begin
            ce <= 1;
            if (next <= n) begin
                v = mem[next]; vin <= v[LW-1:OUT_BITS]; cur <= next; next = next + 1;
            end else begin
                v = garbage(0); vin <= v[IN_BITS-1:0]; cur <= 0;
            end
        end else begin
            ce <= 0; v = garbage(0); vin <= v[IN_BITS-1:0]; cur <= 0;
        end
        // Finished once every vector went through and was compared.
        if (next > n && checked == n) done <= 1;
    end
endmodule

module tb_fp;
    reg clk = 0; always #5 clk = ~clk;
    localparam NU = 33;
    wire [NU-1:0] done;
    wire [31:0] errors [0:NU-1];
    wire [31:0] checked [0:NU-1];

    fp_check #(.KIND(0), .LAT(4), .NAME("fadd"))
        fadd4 (.clk(clk), .done(done[0]), .errors(errors[0]), .checked(checked[0]));
    fp_check #(.KIND(0), .LAT(1), .NAME("fadd"))
        fadd1 (.clk(clk), .done(done[1]), .errors(errors[1]), .checked(checked[1]));
    fp_check #(.KIND(1), .LAT(3), .NAME("fmul"))
        fmul3 (.clk(clk), .done(done[2]), .errors(errors[2]), .checked(checked[2]));
    fp_check #(.KIND(2), .LAT(2), .NAME("fcmp"))
        fcmp2 (.clk(clk), .done(done[3]), .errors(errors[3]), .checked(checked[3]));
    fp_check #(.KIND(2), .LAT(1), .NAME("fcmp"))
        fcmp1 (.clk(clk), .done(done[4]), .errors(errors[4]), .checked(checked[4]));

    // Division and square root: their fixed latencies; fma: the default and the
    // configurations with fewer internal registers.
    fp_check #(.KIND(5), .LAT(28), .NAME("fdiv"))
        fdiv (.clk(clk), .done(done[21]), .errors(errors[21]), .checked(checked[21]));
    fp_check #(.KIND(6), .LAT(27), .NAME("fsqrt"))
        fsqrt (.clk(clk), .done(done[22]), .errors(errors[22]), .checked(checked[22]));
    fp_check #(.KIND(7), .LAT(5), .NAME("fma"))
        fma5 (.clk(clk), .done(done[23]), .errors(errors[23]), .checked(checked[23]));
    fp_check #(.KIND(7), .LAT(3), .NAME("fma"))
        fma3 (.clk(clk), .done(done[24]), .errors(errors[24]), .checked(checked[24]));
    fp_check #(.KIND(7), .LAT(2), .NAME("fma"))
        fma2 (.clk(clk), .done(done[25]), .errors(errors[25]), .checked(checked[25]));
    fp_check #(.KIND(7), .LAT(1), .NAME("fma"))
        fma1 (.clk(clk), .done(done[26]), .errors(errors[26]), .checked(checked[26]));

    // fadd and fmul: a register between every two stages and more at the output (6;
    // fadd's leading zeros are then counted across stages 3 and 4), and the latencies
    // that merge stages (fadd 1 to 4, fmul 1 to 3).
    fp_check #(.KIND(0), .LAT(6), .NAME("fadd"))
        fadd6 (.clk(clk), .done(done[27]), .errors(errors[27]), .checked(checked[27]));
    fp_check #(.KIND(0), .LAT(3), .NAME("fadd"))
        fadd3 (.clk(clk), .done(done[28]), .errors(errors[28]), .checked(checked[28]));
    fp_check #(.KIND(0), .LAT(2), .NAME("fadd"))
        fadd2 (.clk(clk), .done(done[29]), .errors(errors[29]), .checked(checked[29]));
    fp_check #(.KIND(1), .LAT(6), .NAME("fmul"))
        fmul6 (.clk(clk), .done(done[30]), .errors(errors[30]), .checked(checked[30]));
    fp_check #(.KIND(1), .LAT(2), .NAME("fmul"))
        fmul2 (.clk(clk), .done(done[31]), .errors(errors[31]), .checked(checked[31]));
    fp_check #(.KIND(1), .LAT(1), .NAME("fmul"))
        fmul1 (.clk(clk), .done(done[32]), .errors(errors[32]), .checked(checked[32]));

    genvar s, i;
    generate
        for (s = 0; s < 2; s = s + 1) begin : sg
            for (i = 0; i < 4; i = i + 1) begin : wd
                localparam W = 8 << i;
                fp_check #(.KIND(3), .W(W), .SIGNED(s), .LAT(1 + (i + s) % 4))
                    itofp (.clk(clk), .done(done[5 + 4*s + i]), .errors(errors[5 + 4*s + i]),
                           .checked(checked[5 + 4*s + i]));
                fp_check #(.KIND(4), .W(W), .SIGNED(s), .LAT(1 + (i + s + 1) % 4))
                    fptoi (.clk(clk), .done(done[13 + 4*s + i]), .errors(errors[13 + 4*s + i]),
                           .checked(checked[13 + 4*s + i]));
            end
        end
    endgenerate

    integer cycles = 0, total_errors, total_checked, u;
    always @(posedge clk) begin
        cycles = cycles + 1;
        if (&done) begin
            total_errors = 0; total_checked = 0;
            for (u = 0; u < NU; u = u + 1) begin
                total_errors = total_errors + errors[u];
                total_checked = total_checked + checked[u];
            end
            if (total_errors != 0) begin
                $display("FAIL tb_fp: %0d mismatches in %0d compared vectors", total_errors, total_checked);
                $fatal(1);
            end
            $display("PASS tb_fp: %0d vectors in %0d units compared bit-exactly (%0d cycles)",
                     total_checked, NU, cycles);
            $finish;
        end
        if (cycles > 2000000) begin $display("FAIL tb_fp: timeout"); $fatal(1); end
    end
endmodule

// The binary64 instances (W = 64) and the conversions between the formats.
module tb_fp64;
    reg clk = 0; always #5 clk = ~clk;
    localparam NU = 38;
    wire [NU-1:0] done;
    wire [31:0] errors [0:NU-1];
    wire [31:0] checked [0:NU-1];

    fp_check #(.KIND(0), .F(64), .LAT(4), .NAME("dadd"))
        dadd4 (.clk(clk), .done(done[0]), .errors(errors[0]), .checked(checked[0]));
    fp_check #(.KIND(0), .F(64), .LAT(1), .NAME("dadd"))
        dadd1 (.clk(clk), .done(done[1]), .errors(errors[1]), .checked(checked[1]));
    // a register after every stage: the leading zeros counted across stages 3 and 4
    fp_check #(.KIND(0), .F(64), .LAT(5), .NAME("dadd"))
        dadd5 (.clk(clk), .done(done[37]), .errors(errors[37]), .checked(checked[37]));
    fp_check #(.KIND(1), .F(64), .LAT(3), .NAME("dmul"))
        dmul3 (.clk(clk), .done(done[2]), .errors(errors[2]), .checked(checked[2]));
    fp_check #(.KIND(2), .F(64), .LAT(2), .NAME("dcmp"))
        dcmp2 (.clk(clk), .done(done[3]), .errors(errors[3]), .checked(checked[3]));
    fp_check #(.KIND(2), .F(64), .LAT(1), .NAME("dcmp"))
        dcmp1 (.clk(clk), .done(done[4]), .errors(errors[4]), .checked(checked[4]));

    // Division and square root at their fixed binary64 latencies; fma: the default and
    // the configurations with fewer internal registers.
    fp_check #(.KIND(5), .F(64), .LAT(57), .NAME("ddiv"))
        ddiv (.clk(clk), .done(done[21]), .errors(errors[21]), .checked(checked[21]));
    fp_check #(.KIND(6), .F(64), .LAT(56), .NAME("dsqrt"))
        dsqrt (.clk(clk), .done(done[22]), .errors(errors[22]), .checked(checked[22]));
    fp_check #(.KIND(7), .F(64), .LAT(5), .NAME("dfma"))
        dfma5 (.clk(clk), .done(done[23]), .errors(errors[23]), .checked(checked[23]));
    fp_check #(.KIND(7), .F(64), .LAT(3), .NAME("dfma"))
        dfma3 (.clk(clk), .done(done[24]), .errors(errors[24]), .checked(checked[24]));
    fp_check #(.KIND(7), .F(64), .LAT(2), .NAME("dfma"))
        dfma2 (.clk(clk), .done(done[25]), .errors(errors[25]), .checked(checked[25]));
    fp_check #(.KIND(7), .F(64), .LAT(1), .NAME("dfma"))
        dfma1 (.clk(clk), .done(done[26]), .errors(errors[26]), .checked(checked[26]));

    // float <-> double, with a register chain and a ring-buffer output pipeline.
    fp_check #(.KIND(8), .LAT(1), .NAME("ftod"))
        ftod1 (.clk(clk), .done(done[27]), .errors(errors[27]), .checked(checked[27]));
    fp_check #(.KIND(8), .LAT(4), .NAME("ftod"))
        ftod4 (.clk(clk), .done(done[28]), .errors(errors[28]), .checked(checked[28]));
    fp_check #(.KIND(9), .LAT(2), .NAME("dtof"))
        dtof2 (.clk(clk), .done(done[29]), .errors(errors[29]), .checked(checked[29]));
    fp_check #(.KIND(9), .LAT(1), .NAME("dtof"))
        dtof1 (.clk(clk), .done(done[30]), .errors(errors[30]), .checked(checked[30]));

    // dadd and dmul at the latencies of every register structure (as in tb_fp).
    fp_check #(.KIND(0), .F(64), .LAT(6), .NAME("dadd"))
        dadd6 (.clk(clk), .done(done[31]), .errors(errors[31]), .checked(checked[31]));
    fp_check #(.KIND(0), .F(64), .LAT(3), .NAME("dadd"))
        dadd3 (.clk(clk), .done(done[32]), .errors(errors[32]), .checked(checked[32]));
    fp_check #(.KIND(0), .F(64), .LAT(2), .NAME("dadd"))
        dadd2 (.clk(clk), .done(done[33]), .errors(errors[33]), .checked(checked[33]));
    fp_check #(.KIND(1), .F(64), .LAT(6), .NAME("dmul"))
        dmul6 (.clk(clk), .done(done[34]), .errors(errors[34]), .checked(checked[34]));
    fp_check #(.KIND(1), .F(64), .LAT(2), .NAME("dmul"))
        dmul2 (.clk(clk), .done(done[35]), .errors(errors[35]), .checked(checked[35]));
    fp_check #(.KIND(1), .F(64), .LAT(1), .NAME("dmul"))
        dmul1 (.clk(clk), .done(done[36]), .errors(errors[36]), .checked(checked[36]));

    genvar s, i;
    generate
        for (s = 0; s < 2; s = s + 1) begin : sg
            for (i = 0; i < 4; i = i + 1) begin : wd
                localparam W = 8 << i;
                fp_check #(.KIND(3), .F(64), .W(W), .SIGNED(s), .LAT(1 + (i + s) % 4))
                    itod (.clk(clk), .done(done[5 + 4*s + i]), .errors(errors[5 + 4*s + i]),
                          .checked(checked[5 + 4*s + i]));
                fp_check #(.KIND(4), .F(64), .W(W), .SIGNED(s), .LAT(1 + (i + s + 1) % 4))
                    dtoi (.clk(clk), .done(done[13 + 4*s + i]), .errors(errors[13 + 4*s + i]),
                          .checked(checked[13 + 4*s + i]));
            end
        end
    endgenerate

    integer cycles = 0, total_errors, total_checked, u;
    always @(posedge clk) begin
        cycles = cycles + 1;
        if (&done) begin
            total_errors = 0; total_checked = 0;
            for (u = 0; u < NU; u = u + 1) begin
                total_errors = total_errors + errors[u];
                total_checked = total_checked + checked[u];
            end
            if (total_errors != 0) begin
                $display("FAIL tb_fp64: %0d mismatches in %0d compared vectors", total_errors, total_checked);
                $fatal(1);
            end
            $display("PASS tb_fp64: %0d vectors in %0d units compared bit-exactly (%0d cycles)",
                     total_checked, NU, cycles);
            $finish;
        end
        if (cycles > 2000000) begin $display("FAIL tb_fp64: timeout"); $fatal(1); end
    end
endmodule
