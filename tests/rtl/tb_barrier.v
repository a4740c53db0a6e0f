// tb_barrier: clhls_barrier in eight configurations (SLOTS 1, 2, 3, 4; LID_W 0..6;
// W 1 to 70; SLOT_W wider than needed in one). Every instance runs many groups
// ("trips" of a slot: a slot takes its next group, of a new random size 1..2^LID_W,
// as soon as its current one completes). The arrival driver either sends the oldest
// trip's work-items in ascending local id, one per cycle (throughput mode), or picks
// a random slot and a random local id not yet arrived (random mode), with random
// gaps; an entry (slot, local id) receives its next arrival only after the work-item
// it held was released, as the barrier's caller guarantees. The consumer takes
// work-items with random m_ready in random phases (full speed, long stalls). Checked
// every cycle:
//   - every released work-item is the next one expected: slots in the order they
//     completed, each from local id 0 to size-1, with the exact token it arrived
//     with (nothing released before its slot completed, nothing lost or duplicated);
//   - m_valid and m_data hold while stalled; s_ready is 1;
//   - held == work-items arrived and not yet released (and reaches SLOTS * 2^LID_W,
//     every entry, during consumer stalls); waiting == some slot has arrivals and is
//     not complete.
// At the end: every work-item released, held 0, waiting 0, nothing more released.
// Throughput (SLOTS 2, groups of 16, in-order arrivals one per cycle, m_ready 1): 60
// groups from the first arrival to the last release in at most items + 24 cycles
// (the last group's 16 work-items leave after its last arrival; 979 cycles seen for
// 960 items: the 4-cycle release latency plus the last group's 15 further items).
`timescale 1ns/1ps

module barrier_check #(
    parameter W = 32, SLOTS = 2, SLOT_W = 1, LID_W = 4, N = 1000, THROUGHPUT = 0
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam LW = (LID_W > 0) ? LID_W : 1;
    localparam MAXG = 1 << LID_W;            // largest group
    localparam QN = 1024;                    // expected-release ring (> SLOTS * MAXG)
    localparam TP_GROUPS = 60;

    reg s_valid = 0; wire s_ready; reg [SLOT_W-1:0] s_slot = 0; reg [LW-1:0] s_lid = 0;
    reg [LID_W:0] s_size = 1; reg [W-1:0] s_data = 0;
    wire m_valid; reg m_ready = 0; wire [W-1:0] m_data;
    wire [LID_W+SLOT_W:0] held; wire waiting;

    clhls_barrier #(.W(W), .SLOTS(SLOTS), .SLOT_W(SLOT_W), .LID_W(LID_W)) dut (.clk(clk), .rst(rst),
        .s_valid(s_valid), .s_ready(s_ready), .s_slot(s_slot), .s_lid(s_lid), .s_size(s_size),
        .s_data(s_data), .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data),
        .held(held), .waiting(waiting));

    // Per slot: its current trip.
    integer trip_size [0:SLOTS-1];      // its number of work-items (0: no trip, all groups started)
    integer trip_group [0:SLOTS-1];     // its group number
    integer arrived [0:SLOTS-1];        // work-items of it that have arrived
    reg     sched [0:SLOTS*MAXG-1];     // per entry: the current trip's arrival is scheduled/done
    reg     busy [0:SLOTS*MAXG-1];      // per entry: holds a work-item not yet released
    reg [W-1:0] data [0:SLOTS*MAXG-1];  // per entry: the token of the current trip's work-item
    // Expected releases, in order.
    integer q_slot [0:QN-1]; integer q_lid [0:QN-1]; reg [W-1:0] q_data [0:QN-1];
    integer q_head, q_tail;
    integer cycle, started, groups_done, n_arr, n_rel, n_items, s, l, k, cnt, pick, e;
    integer pa, pm, phase_end, mode, first_arr, tp_cycles, max_held;
    reg prev_stall, exp_waiting; reg [W-1:0] prev_data; reg [95:0] rnd;

    task fail(input [8*64-1:0] what);
        begin
            $display("FAIL tb_barrier [W %0d SLOTS %0d LID_W %0d] cycle %0d: %0s (arrived %0d released %0d)",
                     W, SLOTS, LID_W, cycle, what, n_arr, n_rel);
            $fatal(1);
        end
    endtask

    // Slot `s` starts its next trip, if groups remain.
    task start_trip(input integer ss);
        begin
            if (started < N) begin
                if (THROUGHPUT && started < TP_GROUPS) trip_size[ss] = 16;
                else case ($urandom % 4)
                    0: trip_size[ss] = MAXG;
                    1: trip_size[ss] = 1;
                    default: trip_size[ss] = 1 + $urandom % MAXG;
                endcase
                trip_group[ss] = started;
                started = started + 1;
                n_items = n_items + trip_size[ss];
            end else begin
                trip_size[ss] = 0;
            end
            arrived[ss] = 0;
            for (l = 0; l < MAXG; l = l + 1) sched[ss*MAXG + l] = 0;
        end
    endtask

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            // ---- checks on the values before this edge ----
            if (s_ready !== 1'b1) fail("s_ready not 1");
            if (held !== n_arr - n_rel) fail("held differs from arrived - released");
            if (n_arr - n_rel > max_held) max_held = n_arr - n_rel;
            if (groups_done == N && n_rel == n_items && max_held != SLOTS * MAXG)
                fail("never every entry held at once");
            exp_waiting = 0;
            for (s = 0; s < SLOTS; s = s + 1) if (arrived[s] != 0) exp_waiting = 1;
            if (waiting !== exp_waiting) fail("waiting wrong");
            if (prev_stall && (!m_valid || m_data !== prev_data)) fail("output changed while stalled");
            prev_stall = m_valid && !m_ready;
            prev_data = m_data;

            // ---- a release ----
            if (m_valid && m_ready) begin
                if (q_head == q_tail) fail("release with no completed slot");
                if (m_data !== q_data[q_head % QN]) begin
                    $display("slot %0d lid %0d: got %h expected %h", q_slot[q_head % QN], q_lid[q_head % QN],
                             m_data, q_data[q_head % QN]);
                    fail("wrong released token");
                end
                e = q_slot[q_head % QN] * MAXG + q_lid[q_head % QN];
                if (!busy[e]) fail("bookkeeping: entry released twice");
                busy[e] = 0;
                q_head = q_head + 1;
                n_rel = n_rel + 1;
                if (THROUGHPUT && n_rel == TP_GROUPS * 16) begin
                    tp_cycles = cycle - first_arr + 1;
                    if (tp_cycles > TP_GROUPS * 16 + 16 + 8) fail("in-order groups of 16 not released at one per cycle");
                    $display("throughput: %0d work-items in %0d groups of 16, first arrival to last release %0d cycles",
                             TP_GROUPS * 16, TP_GROUPS, tp_cycles);
                end
            end

            // ---- an arrival ----
            if (s_valid) begin
                if (!s_ready) fail("arrival refused");
                s = s_slot;
                arrived[s] = arrived[s] + 1;
                n_arr = n_arr + 1;
                if (n_arr == 1) first_arr = cycle;
                if (arrived[s] == trip_size[s]) begin
                    // The slot completes: its work-items leave in local-id order.
                    for (l = 0; l < trip_size[s]; l = l + 1) begin
                        q_slot[q_tail % QN] = s; q_lid[q_tail % QN] = l; q_data[q_tail % QN] = data[s*MAXG + l];
                        q_tail = q_tail + 1;
                    end
                    groups_done = groups_done + 1;
                    start_trip(s);
                end
            end

            // ---- phases ----
            if (cycle >= phase_end) begin
                if (THROUGHPUT && n_rel < TP_GROUPS * 16) begin
                    pa = 100; pm = 100; mode = 0;
                end else begin
                    case ($urandom % 6)
                        0: begin pa = 100; pm = 100; end
                        1: begin pa = 60;  pm = 60;  end
                        2: begin pa = 100; pm = 0;   end   // consumer stalled: the barrier fills up
                        3: begin pa = 20;  pm = 100; end
                        4: begin pa = 90;  pm = 30;  end
                        default: begin pa = 80; pm = 95; end
                    endcase
                    mode = ($urandom % 3 == 0) ? 0 : 1;
                end
                phase_end = cycle + ((pm == 0) ? 10 + $urandom % 100 : 20 + $urandom % 500);
            end

            // ---- next arrival ----
            k = -1;
            if (($urandom % 100) < pa) begin
                if (mode == 0) begin
                    // In order: the oldest trip, its lowest local id not yet sent, if its entry is free.
                    for (s = 0; s < SLOTS; s = s + 1)
                        if (trip_size[s] != 0 && (k < 0 || trip_group[s] < trip_group[k])) k = s;
                    if (k >= 0) begin
                        l = 0;
                        while (l < trip_size[k] && sched[k*MAXG + l]) l = l + 1;
                        if (l >= trip_size[k] || busy[k*MAXG + l]) k = -1;
                    end
                end else begin
                    // Random: any slot, any local id not yet sent whose entry is free.
                    cnt = 0;
                    for (s = 0; s < SLOTS; s = s + 1)
                        for (l = 0; l < trip_size[s]; l = l + 1)
                            if (!sched[s*MAXG + l] && !busy[s*MAXG + l]) cnt = cnt + 1;
                    if (cnt > 0) begin
                        pick = $urandom % cnt;
                        for (s = 0; s < SLOTS; s = s + 1)
                            for (l = 0; l < trip_size[s]; l = l + 1)
                                if (!sched[s*MAXG + l] && !busy[s*MAXG + l]) begin
                                    if (pick == 0) begin k = s; e = l; end
                                    pick = pick - 1;
                                end
                        l = e;
                    end
                end
            end
            if (k >= 0) begin
                e = k*MAXG + l;
                sched[e] = 1;
                busy[e] = 1;
                rnd = {$urandom, $urandom, $urandom};
                data[e] = rnd[W-1:0];
                s_valid <= 1;
                s_slot <= k;
                s_lid <= l;
                s_size <= trip_size[k];
                s_data <= rnd[W-1:0];
            end else begin
                // Idle inputs carry junk, which the barrier must ignore.
                s_valid <= 0;
                rnd = {$urandom, $urandom, $urandom};
                s_slot <= rnd[SLOT_W-1:0];
                s_lid <= rnd[40 +: LW];
                s_size <= 1;
                s_data <= rnd[W-1:0];
            end
            m_ready <= ($urandom % 100) < pm;
        end
    end

    initial begin
        done = 0;
        cycle = 0; started = 0; groups_done = 0; n_arr = 0; n_rel = 0; n_items = 0;
        q_head = 0; q_tail = 0; pa = 0; pm = 100; mode = 0; phase_end = 0; prev_stall = 0;
        first_arr = 0; max_held = 0;
        for (e = 0; e < SLOTS * MAXG; e = e + 1) begin busy[e] = 0; sched[e] = 0; data[e] = 0; end
        for (s = 0; s < SLOTS; s = s + 1) start_trip(s);
        @(negedge rst);
        while (!(groups_done == N && n_rel == n_items)) begin
            @(negedge clk);
            if (cycle > 3000000) fail("timeout");
        end
        repeat (30) @(negedge clk);
        if (m_valid || held !== 0 || waiting !== 0 || n_rel != n_items) fail("not empty at the end");
        $display("ok W %0d SLOTS %0d SLOT_W %0d LID_W %0d: %0d groups, %0d work-items, %0d cycles",
                 W, SLOTS, SLOT_W, LID_W, N, n_items, cycle);
        done = 1;
    end
endmodule

module tb_barrier;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    wire [7:0] done;
    barrier_check #(.W(1),  .SLOTS(1), .SLOT_W(1), .LID_W(0), .N(3000)) c0 (.clk(clk), .rst(rst), .done(done[0]));
    barrier_check #(.W(70), .SLOTS(2), .SLOT_W(1), .LID_W(4), .N(1500), .THROUGHPUT(1)) c1 (.clk(clk), .rst(rst), .done(done[1]));
    barrier_check #(.W(70), .SLOTS(4), .SLOT_W(2), .LID_W(6), .N(800))  c2 (.clk(clk), .rst(rst), .done(done[2]));
    barrier_check #(.W(8),  .SLOTS(3), .SLOT_W(2), .LID_W(2), .N(3000)) c3 (.clk(clk), .rst(rst), .done(done[3]));
    barrier_check #(.W(1),  .SLOTS(2), .SLOT_W(1), .LID_W(1), .N(3000)) c4 (.clk(clk), .rst(rst), .done(done[4]));
    barrier_check #(.W(33), .SLOTS(1), .SLOT_W(1), .LID_W(5), .N(1000)) c5 (.clk(clk), .rst(rst), .done(done[5]));
    barrier_check #(.W(16), .SLOTS(4), .SLOT_W(3), .LID_W(3), .N(3000)) c6 (.clk(clk), .rst(rst), .done(done[6]));
    barrier_check #(.W(40), .SLOTS(2), .SLOT_W(1), .LID_W(6), .N(800))  c7 (.clk(clk), .rst(rst), .done(done[7]));
    initial begin
        repeat (3) @(negedge clk); rst = 0;
        wait (&done);
        $display("PASS tb_barrier (8 configurations)");
        $finish;
    end
endmodule
