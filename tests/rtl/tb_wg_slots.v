// tb_wg_slots: clhls_wg_slots in five configurations (SLOTS 1, 2, 3, 4, 5), 3000
// groups each. Every instance has a producer of group tokens (sequence number in id
// x, random id y/z, random sizes: mostly small, some of one work-item, some with a
// dimension up to 1024), a consumer taking admitted tokens with random m_ready, and
// a retirement generator that retires, at random cycles, one work-item of a randomly
// chosen slot among those holding work-items that have left on m_* and are not yet
// retired (so retirements come in random order across slots). Back-pressure and
// retirement rates change in random phases. Checked every cycle:
//   - s_ready is exactly (output register free) && (the next slot in round-robin
//     order has no unretired work-item counting the retirements of earlier cycles):
//     a slot is never handed out while its group has unretired work-items, and one
//     freed by a retirement is available the next cycle;
//   - tokens leave in admission order with their id, size and the slot given at
//     admission (0, 1, .., SLOTS-1, 0, ..); m_valid and the token hold while stalled;
//   - in_use equals the number of slots with unretired work-items (never > SLOTS,
//     reaches SLOTS), idle == (in_use == 0 && !m_valid).
// At the end: every group admitted and every work-item retired, in_use 0 and idle.
`timescale 1ns/1ps

module wg_slots_check #(
    parameter SLOTS = 2, SLOT_W = 1, N = 3000
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam UW = $clog2(SLOTS + 1);
    reg s_valid = 0; wire s_ready;
    reg [31:0] s_id [0:2]; reg [31:0] s_size [0:2];
    wire m_valid; reg m_ready = 0;
    wire [31:0] m_id [0:2]; wire [31:0] m_size [0:2]; wire [SLOT_W-1:0] m_slot;
    reg r_valid = 0; reg [SLOT_W-1:0] r_slot = 0;
    wire [UW-1:0] in_use; wire idle;

    clhls_wg_slots #(.SLOTS(SLOTS), .SLOT_W(SLOT_W)) dut (.clk(clk), .rst(rst),
        .s_valid(s_valid), .s_ready(s_ready),
        .s_group_id_x(s_id[0]), .s_group_id_y(s_id[1]), .s_group_id_z(s_id[2]),
        .s_group_size_x(s_size[0]), .s_group_size_y(s_size[1]), .s_group_size_z(s_size[2]),
        .m_valid(m_valid), .m_ready(m_ready),
        .m_group_id_x(m_id[0]), .m_group_id_y(m_id[1]), .m_group_id_z(m_id[2]),
        .m_group_size_x(m_size[0]), .m_group_size_y(m_size[1]), .m_group_size_z(m_size[2]),
        .m_slot(m_slot), .retire_valid(r_valid), .retire_slot(r_slot),
        .in_use(in_use), .idle(idle));

    // Admitted groups, in order (what must leave on m_*).
    reg [31:0] a_id [0:2][0:N-1]; reg [31:0] a_size [0:2][0:N-1]; integer a_slot [0:N-1];
    integer remaining [0:SLOTS-1];  // per slot: work-items admitted and not retired
    integer avail [0:SLOTS-1];      // per slot: work-items out on m_* and not yet scheduled to retire
    integer cycle, admitted, out, retired, total_items, rr, busy_slots, max_use, d, s, k, pick, cnt;
    integer pv, pm, prt, phase_end;
    reg exp_ready, prev_m_stall;
    reg [31:0] prev_id [0:2]; reg [31:0] prev_size [0:2]; reg [SLOT_W-1:0] prev_slot;

    task fail(input [8*64-1:0] what);
        begin
            $display("FAIL tb_wg_slots [SLOTS %0d] cycle %0d: %0s (admitted %0d out %0d retired %0d of %0d)",
                     SLOTS, cycle, what, admitted, out, retired, total_items);
            $fatal(1);
        end
    endtask

    // A new random group token (id x = its sequence number: the number admitted so far).
    task new_group;
        begin
            s_id[0] <= admitted;
            s_id[1] <= $urandom;
            s_id[2] <= $urandom % 7;
            case ($urandom % 10)
                0, 1: begin s_size[0] <= 1; s_size[1] <= 1; s_size[2] <= 1; end
                2: begin s_size[0] <= 1 + $urandom % 1024; s_size[1] <= 1; s_size[2] <= 1; end
                3: begin s_size[0] <= 1; s_size[1] <= 1; s_size[2] <= 1 + $urandom % 200; end
                default: begin
                    s_size[0] <= 1 + $urandom % 8; s_size[1] <= 1 + $urandom % 3; s_size[2] <= 1 + $urandom % 2;
                end
            endcase
        end
    endtask

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            // ---- state checks (values before this edge) ----
            busy_slots = 0;
            for (s = 0; s < SLOTS; s = s + 1) if (remaining[s] != 0) busy_slots = busy_slots + 1;
            if (in_use !== busy_slots) fail("in_use differs from the slots holding work-items");
            if (busy_slots > max_use) max_use = busy_slots;
            if (idle !== (busy_slots == 0 && !m_valid)) fail("idle wrong");
            exp_ready = (!m_valid || m_ready) && remaining[rr] == 0;
            if (s_ready !== exp_ready) fail(exp_ready ? "s_ready 0 with the next slot free" :
                                                        "s_ready 1: slot busy or output full");
            if (prev_m_stall) begin
                if (!m_valid) fail("m_valid dropped while stalled");
                for (d = 0; d < 3; d = d + 1)
                    if (m_id[d] !== prev_id[d] || m_size[d] !== prev_size[d]) fail("token changed while stalled");
                if (m_slot !== prev_slot) fail("slot changed while stalled");
            end
            prev_m_stall = m_valid && !m_ready;
            for (d = 0; d < 3; d = d + 1) begin prev_id[d] = m_id[d]; prev_size[d] = m_size[d]; end
            prev_slot = m_slot;

            // ---- a retirement (scheduled for this cycle) ----
            if (r_valid) begin
                if (remaining[r_slot] <= 0) fail("bookkeeping: retirement without a work-item");
                remaining[r_slot] = remaining[r_slot] - 1;
                retired = retired + 1;
            end

            // ---- admission ----
            if (s_valid && s_ready) begin
                if (admitted >= N) fail("admission never offered");
                if (remaining[rr] != 0) fail("slot handed out with unretired work-items");
                for (d = 0; d < 3; d = d + 1) begin a_id[d][admitted] = s_id[d]; a_size[d][admitted] = s_size[d]; end
                a_slot[admitted] = rr;
                remaining[rr] = s_size[0] * s_size[1] * s_size[2];
                total_items = total_items + remaining[rr];
                rr = (rr + 1) % SLOTS;
                admitted = admitted + 1;
            end

            // ---- a token leaves ----
            if (m_valid && m_ready) begin
                if (out >= admitted) fail("token out that was not admitted");
                for (d = 0; d < 3; d = d + 1)
                    if (m_id[d] !== a_id[d][out] || m_size[d] !== a_size[d][out]) fail("wrong token");
                if (m_slot !== a_slot[out]) fail("wrong slot");
                avail[m_slot] = avail[m_slot] + m_size[0] * m_size[1] * m_size[2];
                out = out + 1;
            end

            // ---- back-pressure phases ----
            if (cycle >= phase_end) begin
                case ($urandom % 6)
                    0: begin pv = 100; pm = 100; prt = 100; end
                    1: begin pv = 50;  pm = 50;  prt = 50;  end
                    2: begin pv = 100; pm = 20;  prt = 90;  end
                    3: begin pv = 30;  pm = 100; prt = 100; end
                    4: begin pv = 100; pm = 100; prt = 10;  end
                    default: begin pv = 90; pm = 80; prt = 70; end
                endcase
                phase_end = cycle + 20 + $urandom % 400;
            end

            // ---- next retirement: a random slot among those with work-items out ----
            cnt = 0;
            for (s = 0; s < SLOTS; s = s + 1) if (avail[s] > 0) cnt = cnt + 1;
            if (cnt > 0 && ($urandom % 100) < prt) begin
                pick = $urandom % cnt;
                k = -1;
                for (s = 0; s < SLOTS; s = s + 1)
                    if (avail[s] > 0) begin
                        if (pick == 0) k = s;
                        pick = pick - 1;
                    end
                avail[k] = avail[k] - 1;
                r_valid <= 1;
                r_slot <= k;
            end else begin
                r_valid <= 0;
                r_slot <= $urandom;  // must be ignored
            end

            m_ready <= ($urandom % 100) < pm;
            if (!(s_valid && !s_ready)) begin
                s_valid <= (admitted < N) && ($urandom % 100) < pv;
                new_group;
            end
        end
    end

    initial begin
        done = 0;
        for (s = 0; s < SLOTS; s = s + 1) begin remaining[s] = 0; avail[s] = 0; end
        for (d = 0; d < 3; d = d + 1) begin s_id[d] = 0; s_size[d] = 1; end
        cycle = 0; admitted = 0; out = 0; retired = 0; total_items = 0; rr = 0; max_use = 0;
        pv = 100; pm = 100; prt = 100; phase_end = 0; prev_m_stall = 0;
        @(negedge rst);
        while (!(admitted == N && out == N && retired == total_items)) begin
            @(negedge clk);
            if (cycle > 3000000) fail("timeout");
        end
        repeat (20) @(negedge clk);
        if (in_use !== 0 || !idle || m_valid) fail("not idle at the end");
        if (max_use != SLOTS) fail("never all slots in use");
        $display("ok SLOTS %0d: %0d groups, %0d work-items retired, %0d cycles", SLOTS, N, retired, cycle);
        done = 1;
    end
endmodule

module tb_wg_slots;
    localparam N = 3000;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    wire [4:0] done;
    wg_slots_check #(.SLOTS(1), .SLOT_W(1), .N(N)) c0 (.clk(clk), .rst(rst), .done(done[0]));
    wg_slots_check #(.SLOTS(2), .SLOT_W(1), .N(N)) c1 (.clk(clk), .rst(rst), .done(done[1]));
    wg_slots_check #(.SLOTS(3), .SLOT_W(2), .N(N)) c2 (.clk(clk), .rst(rst), .done(done[2]));
    wg_slots_check #(.SLOTS(4), .SLOT_W(2), .N(N)) c3 (.clk(clk), .rst(rst), .done(done[3]));
    wg_slots_check #(.SLOTS(5), .SLOT_W(3), .N(N)) c4 (.clk(clk), .rst(rst), .done(done[4]));
    initial begin
        repeat (3) @(negedge clk); rst = 0;
        wait (&done);
        $display("PASS tb_wg_slots (5 configurations, %0d groups each)", N);
        $finish;
    end
endmodule
