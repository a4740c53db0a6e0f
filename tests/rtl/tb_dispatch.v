// tb_dispatch: clhls_wg_dispatch feeding clhls_wi_gen over random 1D/2D/3D
// NDRanges with offsets and non-uniform last groups. The exact sequence of
// work-items (global, local, group ids, group sizes, last flag, slot, local linear id
// and group linear size) is checked against nested loops; the generator (SLOT_W 3)
// gets a slot computed from each group's id and must carry it on every work-item.
// Runs without back-pressure also check one work-item per cycle. NEXT_REG (set with
// -GNEXT_REG=1) builds the generator with its register for the next group. NCU and CU
// (-GNCU=3 -GCU=1) make them compute unit CU of NCU: the dispatcher deals it every
// NCU-th group of the walk from group CU on, and the generator takes them out of order.
`timescale 1ns/1ps
module tb_dispatch #(parameter NEXT_REG = 0, parameter NCU = 1, parameter CU = 0);
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1, start = 0;
    reg [63:0] G [0:2]; reg [31:0] L [0:2]; reg [31:0] NG [0:2]; reg [63:0] O [0:2];
    wire d_valid, d_ready, all_issued, d_busy; wire [31:0] gid [0:2]; wire [31:0] gsz [0:2];
    reg gap = 1, pressure = 0, m_ready = 1;
    wire w_valid, w_ready, last, idle; wire [63:0] m_gid [0:2]; wire [31:0] m_lid [0:2], m_grp [0:2], m_gsz [0:2];
    wire [2:0] s_slot = gid[0][2:0] * 3'd5 + gid[1][2:0] * 3'd3 + gid[2][2:0];  // any function of the group
    wire [2:0] m_slot; wire [31:0] m_lin, m_lsize;
    clhls_wg_dispatch #(.NCU(NCU)) disp (.clk(clk), .rst(rst), .start(start), .cu_index(CU[7:0]),
        .global_size_x(G[0]), .global_size_y(G[1]), .global_size_z(G[2]),
        .local_size_x(L[0]), .local_size_y(L[1]), .local_size_z(L[2]),
        .num_groups_x(NG[0]), .num_groups_y(NG[1]), .num_groups_z(NG[2]),
        .m_valid(d_valid), .m_ready(d_ready), .m_group_id_x(gid[0]), .m_group_id_y(gid[1]), .m_group_id_z(gid[2]),
        .m_group_size_x(gsz[0]), .m_group_size_y(gsz[1]), .m_group_size_z(gsz[2]), .all_issued(all_issued), .busy(d_busy));
    assign d_ready = w_ready && gap;
    clhls_wi_gen #(.SLOT_W(3), .NEXT_REG(NEXT_REG), .DEALT(NCU > 1)) wig (.clk(clk), .rst(rst), .s_valid(d_valid && gap), .s_ready(w_ready),
        .s_group_id_x(gid[0]), .s_group_id_y(gid[1]), .s_group_id_z(gid[2]),
        .s_group_size_x(gsz[0]), .s_group_size_y(gsz[1]), .s_group_size_z(gsz[2]), .s_slot(s_slot),
        .local_size_x(L[0]), .local_size_y(L[1]), .local_size_z(L[2]),
        .global_offset_x(O[0]), .global_offset_y(O[1]), .global_offset_z(O[2]),
        .m_valid(w_valid), .m_ready(m_ready),
        .m_global_id_x(m_gid[0]), .m_global_id_y(m_gid[1]), .m_global_id_z(m_gid[2]),
        .m_local_id_x(m_lid[0]), .m_local_id_y(m_lid[1]), .m_local_id_z(m_lid[2]),
        .m_group_id_x(m_grp[0]), .m_group_id_y(m_grp[1]), .m_group_id_z(m_grp[2]),
        .m_group_size_x(m_gsz[0]), .m_group_size_y(m_gsz[1]), .m_group_size_z(m_gsz[2]),
        .m_last_in_group(last), .m_slot(m_slot), .m_local_linear_id(m_lin),
        .m_group_linear_size(m_lsize), .idle(idle));

    // Expected stream, produced by nested loops into a queue.
    reg [63:0] q_gid [0:2][0:8191]; reg [31:0] q_lid [0:2][0:8191]; reg [31:0] q_grp [0:2][0:8191];
    reg [31:0] q_gsz [0:2][0:8191]; reg q_last [0:8191];
    reg [2:0] q_slot [0:8191]; reg [31:0] q_lin [0:8191]; reg [31:0] q_lsize [0:8191];
    integer n_exp, n_got, d, t, dims, gx, gy, gz, lx, ly, lz, first_cycle, last_cycle, cycle;
    reg [31:0] sz [0:2];
    always @(posedge clk) cycle = cycle + 1;
    always @(posedge clk) if (!rst) begin
        if (w_valid && m_ready) begin
            if (n_got >= n_exp) begin $display("FAIL extra work-item"); $fatal(1); end
            for (d = 0; d < 3; d = d + 1)
                if (m_gid[d] !== q_gid[d][n_got] || m_lid[d] !== q_lid[d][n_got] ||
                    m_grp[d] !== q_grp[d][n_got] || m_gsz[d] !== q_gsz[d][n_got]) begin
                    $display("FAIL item %0d dim %0d: gid %0d lid %0d grp %0d gsz %0d, expected %0d %0d %0d %0d",
                        n_got, d, m_gid[d], m_lid[d], m_grp[d], m_gsz[d], q_gid[d][n_got], q_lid[d][n_got], q_grp[d][n_got], q_gsz[d][n_got]);
                    $fatal(1); end
            if (last !== q_last[n_got]) begin $display("FAIL item %0d last flag", n_got); $fatal(1); end
            if (m_slot !== q_slot[n_got] || m_lin !== q_lin[n_got] || m_lsize !== q_lsize[n_got]) begin
                $display("FAIL item %0d: slot %0d linear id %0d linear size %0d, expected %0d %0d %0d",
                    n_got, m_slot, m_lin, m_lsize, q_slot[n_got], q_lin[n_got], q_lsize[n_got]);
                $fatal(1); end
            if (n_got == 0) first_cycle = cycle;
            last_cycle = cycle;
            n_got = n_got + 1;
        end
        gap <= !pressure || ($urandom % 4 != 0);
        m_ready <= !pressure || ($urandom % 3 != 0);
    end
    initial begin
        cycle = 0; n_exp = 0; n_got = 0;
        for (d = 0; d < 3; d = d + 1) begin G[d] = 1; L[d] = 1; NG[d] = 1; O[d] = 0; end
        repeat (3) @(negedge clk); rst = 0;
        for (t = 0; t < 60; t = t + 1) begin
            dims = 1 + t % 3; pressure = (t % 2 == 0);
            for (d = 0; d < 3; d = d + 1) begin
                if (d < dims) begin
                    L[d] = 1 + $urandom % (dims == 1 ? 40 : (dims == 2 ? 9 : 5));
                    G[d] = 1 + $urandom % (dims == 1 ? 300 : (dims == 2 ? 40 : 12));
                    O[d] = (t % 4 == 1) ? {$urandom, $urandom} >> 8 : 0;
                end else begin L[d] = 1; G[d] = 1; O[d] = 0; end
                NG[d] = (G[d] + L[d] - 1) / L[d];
            end
            n_exp = 0; n_got = 0;
            for (gz = 0; gz < NG[2]; gz = gz + 1) for (gy = 0; gy < NG[1]; gy = gy + 1) for (gx = 0; gx < NG[0]; gx = gx + 1)
              if ((gx + NG[0] * (gy + NG[1] * gz)) % NCU == CU) begin  // this unit's turn
                sz[0] = (gx == NG[0] - 1) ? G[0] - gx * L[0] : L[0];
                sz[1] = (gy == NG[1] - 1) ? G[1] - gy * L[1] : L[1];
                sz[2] = (gz == NG[2] - 1) ? G[2] - gz * L[2] : L[2];
                for (lz = 0; lz < sz[2]; lz = lz + 1) for (ly = 0; ly < sz[1]; ly = ly + 1) for (lx = 0; lx < sz[0]; lx = lx + 1) begin
                    q_gid[0][n_exp] = gx * L[0] + lx + O[0]; q_gid[1][n_exp] = gy * L[1] + ly + O[1]; q_gid[2][n_exp] = gz * L[2] + lz + O[2];
                    q_lid[0][n_exp] = lx; q_lid[1][n_exp] = ly; q_lid[2][n_exp] = lz;
                    q_grp[0][n_exp] = gx; q_grp[1][n_exp] = gy; q_grp[2][n_exp] = gz;
                    for (d = 0; d < 3; d = d + 1) q_gsz[d][n_exp] = sz[d];
                    q_last[n_exp] = (lx == sz[0] - 1) && (ly == sz[1] - 1) && (lz == sz[2] - 1);
                    q_slot[n_exp] = gx * 5 + gy * 3 + gz;
                    q_lin[n_exp] = lx + ly * sz[0] + lz * sz[0] * sz[1];
                    q_lsize[n_exp] = sz[0] * sz[1] * sz[2];
                    n_exp = n_exp + 1;
                end
            end
            @(negedge clk); start = 1; @(negedge clk); start = 0;
            while (!(all_issued && idle && n_got == n_exp)) begin
                @(negedge clk);
                if (cycle > 2000000) begin $display("FAIL timeout in run %0d (%0d of %0d)", t, n_got, n_exp); $fatal(1); end
            end
            if (d_busy) begin $display("FAIL busy after all issued"); $fatal(1); end
            if (!pressure && NCU == 1 && last_cycle - first_cycle != n_exp - 1) begin
                $display("FAIL run %0d: %0d items took %0d cycles", t, n_exp, last_cycle - first_cycle + 1); $fatal(1); end
        end
        $display("PASS tb_dispatch");
        $finish;
    end
endmodule
