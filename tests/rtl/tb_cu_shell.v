// tb_cu_shell: clhls_cu_shell as a compute unit uses it, without slots (SLOTS 0,
// block 0, 64-bit indexes) and with four slots (block 3, 24-bit indexes, 10-bit local
// sizes). Each instance runs twelve NDRanges one after another without a reset
// (1, 2 and 3 dimensions, global offsets, sizes that leave partial groups), written
// through the register port as the runtime does. A body model takes the work-items
// with random back-pressure and retires each after a random delay, in random order
// (one retirement per cycle, with the work-item's slot); its load-store units are
// reported busy at random, and for a random time after the last retirement.
// Checked:
//   - every work-item of the NDRange enters exactly once, with global id = group id *
//     local size + local id + offset, the group's actual size, local linear id and
//     group linear size;
//   - with slots: a work-item's slot is never shared with another group that still
//     has unretired work-items;
//   - done (status bit 1) is never set while a work-item is held the body, is left
//     to enter, or the load-store units are busy, and it is set within 8 cycles of
//     all of those ending; busy (status bit 0) is clear then;
//   - the work-item and memory-read counters equal what the body did;
//   - another block's address reads 0.
`timescale 1ns/1ps

module cu_shell_check #(
    parameter SLOTS = 0, SLOT_W = 2, ID_W = 64, LS_W = 32, BLOCK = 0, SEED = 1
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    `include "clhls_regmap.vh"
    localparam MAXITEMS = 4096, INFLIGHT = 48;

    reg         reg_we = 0;
    reg  [15:0] reg_addr = 0;
    reg  [63:0] reg_wdata = 0;
    wire [63:0] reg_rdata;
    wire        m_valid;
    reg         m_ready = 0;
    wire [63:0] gid [0:2];
    wire [31:0] lid [0:2], grp [0:2], gsz [0:2];
    wire [SLOT_W-1:0] slot;
    wire [31:0] llid, glsize;
    reg         retire_valid = 0;
    reg  [SLOT_W-1:0] retire_slot = 0;
    reg         lsus_idle = 1, mem_read = 0;
    reg         body_empty = 1;
    wire        drained;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] work_dim, lsize [0:2], ngroups [0:2];
    wire [63:0] gsize [0:2], goff [0:2], args;
    /* verilator lint_on UNUSEDSIGNAL */

    clhls_cu_shell #(.NARGS(1), .NPROBES(1), .ID_W(ID_W), .LS_W(LS_W), .BLOCK(BLOCK),
                     .SLOTS(SLOTS), .SLOT_W(SLOT_W)) dut (
        .clk(clk), .rst(rst), .reg_we(reg_we), .reg_addr(reg_addr), .reg_wdata(reg_wdata),
        .reg_rdata(reg_rdata), .work_dim(work_dim),
        .global_size_x(gsize[0]), .global_size_y(gsize[1]), .global_size_z(gsize[2]),
        .local_size_x(lsize[0]), .local_size_y(lsize[1]), .local_size_z(lsize[2]),
        .global_offset_x(goff[0]), .global_offset_y(goff[1]), .global_offset_z(goff[2]),
        .num_groups_x(ngroups[0]), .num_groups_y(ngroups[1]), .num_groups_z(ngroups[2]),
        .args(args), .m_valid(m_valid), .m_ready(m_ready),
        .m_global_id_x(gid[0]), .m_global_id_y(gid[1]), .m_global_id_z(gid[2]),
        .m_local_id_x(lid[0]), .m_local_id_y(lid[1]), .m_local_id_z(lid[2]),
        .m_group_id_x(grp[0]), .m_group_id_y(grp[1]), .m_group_id_z(grp[2]),
        .m_group_size_x(gsz[0]), .m_group_size_y(gsz[1]), .m_group_size_z(gsz[2]),
        .m_slot(slot), .m_local_linear_id(llid), .m_group_linear_size(glsize),
        .retire_valid(retire_valid), .retire_slot(retire_slot), .body_empty(body_empty),
        .lsus_idle(lsus_idle), .stall_mem(1'b0), .mem_read(mem_read), .mem_write(1'b0),
        .local_conflicts(8'd0), .probes(32'd0), .drained(drained));

    // The body: work-items held, each with its slot, group and retirement cycle.
    integer in_slot [0:INFLIGHT-1], in_group [0:INFLIGHT-1], in_due [0:INFLIGHT-1];
    integer held = 0;
    integer unretired [0:3] = '{0, 0, 0, 0};  // per slot: work-items held
    integer owner [0:3] = '{-1, -1, -1, -1};  // per slot: their group
    reg seen [0:MAXITEMS-1];

    // Written by the NDRange sequence (initial block) only:
    integer seed, run, dims, total, dim;
    // Written by the body (the always blocks) only:
    integer cycle = 0, entered = 0, retired = 0, reads = 0, last_busy = 0, lsu_hold = -1;
    integer i, d, pick;
    integer gs [0:2], ls [0:2], off [0:2], ng [0:2];
    integer g_lin, item, exp_gid, exp_size, exp_llid, exp_glsize;
    reg     retire_next, lsus_idle_next;
    reg [63:0] status;

    task fail(input [8*80-1:0] what);
        begin
            $display("FAIL tb_cu_shell [SLOTS %0d] run %0d cycle %0d: %0s (entered %0d retired %0d of %0d)",
                     SLOTS, run, cycle, what, entered, retired, total);
            $fatal(1);
        end
    endtask

    task write_reg(input [7:0] r, input [63:0] v);
        begin
            reg_we <= 1; reg_addr <= {BLOCK[7:0], r}; reg_wdata <= v;
            @(posedge clk);
            reg_we <= 0; reg_addr <= {BLOCK[7:0], REG_STATUS};
        end
    endtask

    // Reads (the read port is registered: the data of the address before an edge is
    // there after it). Between reads the address is the status register's, so the
    // read data is the status at the last edge.
    task read_reg(input [7:0] r, output [63:0] v);
        begin
            #1 reg_addr = {BLOCK[7:0], r};
            @(posedge clk) #1 v = reg_rdata;
            reg_addr = {BLOCK[7:0], REG_STATUS};
        end
    endtask

    // One NDRange: the geometry, the start bit, then the body runs until done.
    task run_ndrange;
        begin
            dims = 1 + $urandom(seed) % 3; seed = seed + 1;
            total = 1;
            for (dim = 0; dim < 3; dim = dim + 1) begin
                if (dim < dims) begin
                    ls[dim] = 1 + $urandom % (dim == 0 ? 40 : 5);
                    gs[dim] = 1 + $urandom % (dim == 0 ? 200 : 12);
                    if (total * gs[dim] > MAXITEMS) gs[dim] = 1;
                end else begin
                    ls[dim] = 1; gs[dim] = 1;
                end
                off[dim] = $urandom % 3 == 0 ? $urandom % 1000 : 0;
                ng[dim] = (gs[dim] + ls[dim] - 1) / ls[dim];
                total = total * gs[dim];
            end
            write_reg(REG_WORK_DIM, dims);
            for (dim = 0; dim < 3; dim = dim + 1) begin
                write_reg(REG_GLOBAL_SIZE + dim[7:0], gs[dim]);
                write_reg(REG_LOCAL_SIZE + dim[7:0], ls[dim]);
                write_reg(REG_GLOBAL_OFFSET + dim[7:0], off[dim]);
                write_reg(REG_NUM_GROUPS + dim[7:0], ng[dim]);
            end
            write_reg(REG_CONTROL, 1);
            @(posedge clk);  // the read data is now the status after the start
            status = 0;
            while (!status[1]) begin
                @(posedge clk);
                if (cycle - last_busy > 8) fail("done not set after the body drained");
                #1 status = reg_rdata;
            end
            if (status[0]) fail("busy still set with done");
            read_reg(REG_WORK_ITEMS, status);
            if (status != total) fail("work-item counter");
            read_reg(REG_MEM_READ_REQUESTS, status);
            if (status != reads) fail("memory-read counter");
            #1 reg_addr = {BLOCK[7:0] ^ 8'd1, REG_WORK_ITEMS};
            @(posedge clk) #1 if (reg_rdata != 0) fail("another block's address reads a value");
            reg_addr = {BLOCK[7:0], REG_STATUS};
            @(posedge clk);
        end
    endtask

    // Everything the body does, every cycle.
    always @(posedge clk) begin
        cycle <= cycle + 1;
        // The start bit is written: the body's bookkeeping starts again (only this
        // block writes it).
        if (reg_we && reg_addr[7:0] == REG_CONTROL) begin
            for (i = 0; i < total; i = i + 1) seen[i] = 0;
            entered = 0; retired = 0; reads = 0; lsu_hold = -1;
        end
        if (!rst) begin
            // A work-item enters.
            if (m_valid && m_ready) begin
                if (entered >= total) fail("more work-items than the NDRange holds");
                g_lin = 0; item = 0;
                for (d = 2; d >= 0; d = d - 1) begin
                    exp_gid = grp[d] * ls[d] + lid[d] + off[d];
                    if (gid[d] != exp_gid) fail("global id");
                    exp_size = gs[d] - grp[d] * ls[d] < ls[d] ? gs[d] - grp[d] * ls[d] : ls[d];
                    if (gsz[d] != exp_size || lid[d] >= exp_size) fail("group size or local id");
                    g_lin = g_lin * ng[d] + grp[d];
                    item = item * gs[d] + (exp_gid - off[d]);
                end
                exp_llid = lid[0] + lid[1] * gsz[0] + lid[2] * gsz[0] * gsz[1];
                exp_glsize = gsz[0] * gsz[1] * gsz[2];
                if (llid != exp_llid || glsize != exp_glsize) fail("linear ids");
                if (seen[item]) fail("a work-item entered twice");
                seen[item] = 1;
                if (SLOTS > 0) begin
                    if (unretired[slot] > 0 && owner[slot] != g_lin) fail("slot shared by two groups");
                    owner[slot] = g_lin;
                    unretired[slot] = unretired[slot] + 1;
                end
                in_slot[held] = slot; in_group[held] = g_lin;
                in_due[held] = cycle + $urandom % 30;
                held = held + 1;
                entered = entered + 1;
            end
            // A work-item retires: one whose time has come, picked at random.
            retire_next = 0;
            if (held > 0) begin
                pick = $urandom % held;
                if (in_due[pick] <= cycle) begin
                    retire_next = 1; retire_slot <= in_slot[pick][SLOT_W-1:0];
                    if (SLOTS > 0) unretired[in_slot[pick]] = unretired[in_slot[pick]] - 1;
                    held = held - 1;
                    in_slot[pick] = in_slot[held]; in_group[pick] = in_group[held];
                    in_due[pick] = in_due[held];
                    retired = retired + 1;
                end
            end
            m_ready <= held < INFLIGHT - 1 && $urandom % 4 != 0;
            mem_read <= m_valid && $urandom % 3 == 0;
            if (mem_read) reads = reads + 1;
            // Load-store units: busy at random, and for a while after the last retirement.
            if (retired == total && total > 0 && lsu_hold < 0) lsu_hold = $urandom % 20;
            if (lsu_hold > 0) lsu_hold = lsu_hold - 1;
            lsus_idle_next = lsu_hold == 0 || (lsu_hold < 0 && $urandom % 5 != 0);
            if (!lsus_idle_next || held > 0 || entered < total || retire_next) last_busy = cycle;
            retire_valid <= retire_next;
            lsus_idle <= lsus_idle_next;
            body_empty <= held == 0 && !retire_next;  // a retiring work-item is still inside
        end
    end

    // Between edges: the control block's done flag is set two edges after a done pulse,
    // which saw the state of the cycle before it; so done may only rise when the
    // body has been empty, with nothing left to enter and the load-store units idle,
    // for the last four cycles.
    reg [3:0] clean_history = 0;
    reg       done_before = 0;
    always @(negedge clk) begin
        clean_history = {clean_history[2:0],
                         held == 0 && entered == total && lsus_idle && !retire_valid};
        if (dut.regs.done && !done_before && clean_history != 4'b1111)
            fail("done while work remained");
        done_before = dut.regs.done;
    end

    initial begin
        seed = SEED; done = 0; total = 0;
        @(negedge rst);
        @(posedge clk);
        for (run = 0; run < 12; run = run + 1)
            run_ndrange;
        done = 1;
    end
endmodule

module tb_cu_shell;
    reg clk = 0, rst = 1;
    always #5 clk = ~clk;
    wire done_plain, done_slots;
    cu_shell_check #(.SLOTS(0), .SEED(1)) plain (.clk(clk), .rst(rst), .done(done_plain));
    cu_shell_check #(.SLOTS(4), .SLOT_W(2), .ID_W(24), .LS_W(10), .BLOCK(3), .SEED(2)) slotted (
        .clk(clk), .rst(rst), .done(done_slots));
    initial begin
        repeat (4) @(posedge clk);
        rst = 0;
        fork
            begin wait (done_plain && done_slots); end
            begin repeat (400000) @(posedge clk); $display("FAIL tb_cu_shell: timeout"); $fatal(1); end
        join_any
        $display("PASS tb_cu_shell: 12 NDRanges without slots, 12 with four slots");
        $finish;
    end
endmodule
