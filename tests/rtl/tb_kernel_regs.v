// tb_kernel_regs: every register of clhls_kernel_regs written: the geometry and the
// argument area reach the output ports and read back as 0 (write-only), writes
// without reg_sel are ignored; the start pulse, busy/done and every counter, the
// probe registers (probe 1 with its peak since start in bits 63:32), reads returning 0 when not selected, a restart whose compute unit
// still shows the last run drained in the start cycle. The second instance keeps a
// small board's widths (24-bit indexes, local sizes up to 64) and zero-extends them.
`timescale 1ns/1ps
module tb_kernel_regs;
    localparam NARGS = 3, NPROBES = 2;
    reg [NPROBES*32-1:0] probes = {32'hcafe0002, 32'hbeef0001};
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1, reg_we = 0, reg_sel = 0; reg [7:0] reg_addr = 0; reg [63:0] reg_wdata = 0;
    wire [63:0] reg_rdata; wire start, busy;
    wire [31:0] work_dim, lx, ly, lz, ngx, ngy, ngz;
    wire [63:0] gx, gy, gz, ox, oy, oz; wire [NARGS*64-1:0] args;
    reg done_pulse = 0, c_wi = 0, c_stall = 0, c_rd = 0, c_wr = 0; reg [7:0] c_lc = 0;
    clhls_kernel_regs #(.NARGS(NARGS), .NPROBES(NPROBES), .PEAKS(2'b10)) dut (.clk(clk), .rst(rst), .reg_we(reg_we), .reg_addr(reg_addr),
        .reg_sel(reg_sel), .reg_wdata(reg_wdata), .reg_rdata(reg_rdata), .start(start), .busy(busy),
        .work_dim(work_dim), .global_size_x(gx), .global_size_y(gy), .global_size_z(gz),
        .local_size_x(lx), .local_size_y(ly), .local_size_z(lz),
        .global_offset_x(ox), .global_offset_y(oy), .global_offset_z(oz),
        .num_groups_x(ngx), .num_groups_y(ngy), .num_groups_z(ngz), .args(args),
        .done_pulse(done_pulse), .count_work_item(c_wi), .count_stall_mem(c_stall),
        .count_mem_read(c_rd), .count_mem_write(c_wr), .count_local_conflicts(c_lc), .probes(probes));
    // The same writes into a small board's control block (reg_rdata ignored).
    wire [63:0] nr_rdata; wire nr_start, nr_busy; wire [31:0] n_wd, n_lx, n_ly, n_lz, n_ngx, n_ngy, n_ngz;
    wire [63:0] n_gx, n_gy, n_gz, n_ox, n_oy, n_oz; wire [NARGS*64-1:0] n_args;
    clhls_kernel_regs #(.NARGS(NARGS), .NPROBES(NPROBES), .ID_W(24), .LS_W(7)) narrow (
        .clk(clk), .rst(rst), .reg_we(reg_we), .reg_addr(reg_addr),
        .reg_sel(reg_sel), .reg_wdata(reg_wdata), .reg_rdata(nr_rdata), .start(nr_start), .busy(nr_busy),
        .work_dim(n_wd), .global_size_x(n_gx), .global_size_y(n_gy), .global_size_z(n_gz),
        .local_size_x(n_lx), .local_size_y(n_ly), .local_size_z(n_lz),
        .global_offset_x(n_ox), .global_offset_y(n_oy), .global_offset_z(n_oz),
        .num_groups_x(n_ngx), .num_groups_y(n_ngy), .num_groups_z(n_ngz), .args(n_args),
        .done_pulse(done_pulse), .count_work_item(c_wi), .count_stall_mem(c_stall),
        .count_mem_read(c_rd), .count_mem_write(c_wr), .count_local_conflicts(c_lc), .probes(probes));
    reg [63:0] expect_val [0:255];
    integer i, k, starts_seen, n_wi, n_st, n_rd, n_wr, n_lc, n_busy, n_peak;
    task wr(input [7:0] a, input [63:0] d, input sel);
        begin @(negedge clk); reg_we = 1; reg_sel = sel; reg_addr = a; reg_wdata = d;
              @(negedge clk); reg_we = 0; reg_sel = 0; end
    endtask
    task check(input [7:0] a, input [63:0] e);
        begin @(negedge clk); reg_sel = 1; reg_addr = a; @(posedge clk); #1;
            if (reg_rdata !== e) begin $display("FAIL reg %0d = %h, expected %h", a, reg_rdata, e); $fatal(1); end
            reg_sel = 0; @(posedge clk); #1;
            if (reg_rdata !== 64'd0) begin $display("FAIL reg %0d readable without reg_sel", a); $fatal(1); end
        end
    endtask
    function [63:0] rnd64(input integer x); rnd64 = {$urandom, $urandom}; endfunction
    always @(posedge clk) if (start) starts_seen = starts_seen + 1;
    initial begin
        starts_seen = 0;
        repeat (3) @(negedge clk); rst = 0;
        for (i = 0; i < 256; i = i + 1) expect_val[i] = 0;
        for (i = 2; i <= 14; i = i + 1) begin
            expect_val[i] = rnd64(i);
            if (i == 2 || (i >= 6 && i <= 8) || i >= 12) expect_val[i] = {32'd0, expect_val[i][31:0]};
            wr(i[7:0], expect_val[i], 1);
            wr(i[7:0], ~expect_val[i], 0);   // not selected: ignored
        end
        for (i = 0; i < NARGS; i = i + 1) begin expect_val[32+i] = rnd64(i); wr(32 + i[7:0], expect_val[32+i], 1); end
        wr(8'd40, 64'h1234, 1);                // beyond NARGS: reads 0
        wr(8'd200, 64'h5678, 1);               // beyond the argument area: reads 0
        for (i = 2; i <= 14; i = i + 1) check(i[7:0], 0);               // write-only
        for (i = 0; i < NARGS; i = i + 1) check(32 + i[7:0], 0);
        check(8'd40, 0); check(8'd200, 0); check(8'd15, 0); check(8'd1, 0);  // 15: no conflict yet
        check(8'd21, 64'hbeef0001); check(8'd22, 64'hcafe0002_cafe0002); check(8'd23, 0); check(8'd31, 0);
        probes[31:0] = 32'd7; check(8'd21, 64'd7);  // probes are read live
        if (work_dim !== {30'd0, expect_val[2][1:0]} || gx !== expect_val[3] || gy !== expect_val[4] ||
            gz !== expect_val[5] || lx !== expect_val[6][31:0] || ly !== expect_val[7][31:0] ||
            lz !== expect_val[8][31:0] || ox !== expect_val[9] || oy !== expect_val[10] ||
            oz !== expect_val[11] || ngx !== expect_val[12][31:0] || ngy !== expect_val[13][31:0] ||
            ngz !== expect_val[14][31:0]) begin
            $display("FAIL output ports differ from the registers written"); $fatal(1); end
        for (i = 0; i < NARGS; i = i + 1)
            if (args[64*i +: 64] !== expect_val[32+i]) begin
                $display("FAIL argument register %0d", i); $fatal(1); end
        // The narrow instance keeps 24 bits of sizes and offsets, 24 of group counts
        // and 7 of local sizes.
        if (n_gx !== {40'd0, expect_val[3][23:0]} || n_oz !== {40'd0, expect_val[11][23:0]} ||
            n_lx !== {25'd0, expect_val[6][6:0]} || n_ngy !== {8'd0, expect_val[13][23:0]} ||
            n_wd !== {30'd0, expect_val[2][1:0]}) begin
            $display("FAIL narrow instance: %h %h %h %h", n_gx, n_oz, n_lx, n_ngy); $fatal(1); end
        // Start (twice, with random counter pulses in between).
        for (k = 0; k < 2; k = k + 1) begin
            wr(8'd0, 64'h0, 1);  // bit0 = 0: no start
            probes[63:32] = 32'd0;  // the start clears the peak
            if (starts_seen != k) begin $display("FAIL start without bit0"); $fatal(1); end
            @(negedge clk); reg_we = 1; reg_sel = 1; reg_addr = 0; reg_wdata = 1;
            @(negedge clk); reg_we = 0; reg_sel = 0;
            if (!start || !busy) begin $display("FAIL start pulse/busy"); $fatal(1); end
            check(8'd1, 64'd1);
            n_wi = 0; n_st = 0; n_rd = 0; n_wr = 0; n_lc = 0; n_busy = 3;  // the check above took 3 busy cycles
            n_peak = 0;
            for (i = 0; i < 200; i = i + 1) begin
                @(negedge clk);
                c_wi = $urandom % 2; c_stall = $urandom % 2; c_rd = $urandom % 2; c_wr = $urandom % 2; c_lc = $urandom % 5;
                n_wi = n_wi + c_wi; n_st = n_st + c_stall; n_rd = n_rd + c_rd; n_wr = n_wr + c_wr; n_lc = n_lc + c_lc;
                n_busy = n_busy + 1;
                probes[63:32] = $urandom % (k ? 20 : 60);
                if (probes[63:32] > n_peak) n_peak = probes[63:32];
            end
            probes[63:32] = 32'd1;
            @(negedge clk); c_wi = 0; c_stall = 0; c_rd = 0; c_wr = 0; c_lc = 0; done_pulse = 1; n_busy = n_busy + 1;
            @(negedge clk); done_pulse = 0;
            check(8'd1, 64'd0);   // not busy; done follows when the last events are counted
            check(8'd1, 64'd2);
            check(8'd16, n_busy); check(8'd17, n_wi); check(8'd18, n_st); check(8'd19, n_rd); check(8'd20, n_wr); check(8'd15, n_lc);
            check(8'd22, {n_peak[31:0], 32'd1}); check(8'd21, 64'd7);  // probe 0 keeps no peak
            if (starts_seen != k + 1) begin $display("FAIL start count %0d", starts_seen); $fatal(1); end
        end
        // A restart without a reset: the compute unit, drained since its last run,
        // raises done_pulse in the cycle of the start pulse (it has not seen start yet);
        // that pulse is ignored and the run goes on until a done_pulse after it.
        @(negedge clk); reg_we = 1; reg_sel = 1; reg_addr = 0; reg_wdata = 1;
        @(negedge clk); reg_we = 0; reg_sel = 0; done_pulse = 1;
        if (!start || !busy) begin $display("FAIL restart pulse/busy"); $fatal(1); end
        @(negedge clk); done_pulse = 0;
        repeat (3) @(negedge clk);
        check(8'd1, 64'd1);   // still busy, not done
        @(negedge clk); done_pulse = 1;
        @(negedge clk); done_pulse = 0;
        check(8'd1, 64'd0); check(8'd1, 64'd2);
        $display("PASS tb_kernel_regs");
        $finish;
    end
endmodule
