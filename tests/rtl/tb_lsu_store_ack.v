// tb_lsu_store_ack: clhls_lsu_store_ack in seven configurations (DATA_W 8/16/32/64,
// MEM_W 512 and 64, DEPTH 1/3/4/8/16/128, ADDR_W 64 and 48), 4000 stores each. With
// ADDR_W 48 every store's address carries random bits above the decoded ones, which
// must neither split a line's run nor reach the memory port (the checks below compare
// decoded addresses). Every instance has its own memory model (random m_mem_req_ready;
// the byte-enabled line write is applied when the request is taken; one
// s_mem_resp_valid pulse per write, in order, after a random delay), a producer of
// random stores (a few lines, many repeats of the same word, random valid gaps) and a
// consumer taking acknowledgements with random m_resp_ready. Back-pressure changes in
// random phases (full speed, stalled consumer, slow memory, long acknowledgement
// delays).
//
// Which stores a write covers follows from the unit's contract and its handshakes
// alone, so the testbench reconstructs it: a model of the staging register (the run
// of stores it holds) and of the two-entry write queue (the runs waiting), driven by
// the accepted stores and the writes memory takes. An accepted store waits in the
// two-entry input slice and enters the staging from the next cycle on, when nothing is
// staged or the queue has room; a store entering to the staged run's line joins the
// run; otherwise the run is pushed in every cycle the queue has room (a store to
// another line then starts a new run). Checked every cycle:
//   - m_mem_req_valid == the model queue holds a run; s_req_ready == fewer than DEPTH
//     stores unacknowledged and fewer than two in the slice;
//   - the write memory takes is the oldest queued run: the line of its stores, wstrb
//     exactly the union of their bytes, under each of those bytes the data of the
//     latest of them (so no store is lost, skipped or reordered, and none of another
//     line is merged in); count_write pulses exactly on each write;
//   - the k-th acknowledgement reaches the pipeline only after memory acknowledged the
//     write that covers store k, and the model memory then holds store k's data at its
//     address, or the data of a later store to the same word already written;
//   - acknowledgements never outnumber accepted stores;
//   - idle == every accepted store has been acknowledged to the pipeline;
//   - accepted and unacknowledged stores never exceed DEPTH (and reach it);
//   - s_mem_resp_ready is 1, requests and acknowledgements stay valid until taken.
// Throughput at full speed: 200 random stores take at most 202 cycles when DEPTH covers
// their longest run to one line and the write's round trip (DEPTH >= run + 5); 200
// stores walking consecutive words take at most 202 cycles and make exactly one write
// per line when DEPTH >= WORDS + 5, and with a smaller DEPTH still at most half as
// many writes as stores per min(WORDS, DEPTH) (when that is 3 or more).
// At the end: nothing more happens, writes <= stores, count_write == writes == memory
// acknowledgements, final memory equals a reference updated per store; the random
// stores made a line's run split over two writes (a gap, or DEPTH reached) and, with
// DEPTH >= 4, a store merge into a run that had waited for room in the queue.
`timescale 1ns/1ps

module lsu_store_ack_check #(
    parameter DW = 32, MW = 512, DEPTH = 16, N = 4000, ID = 0, AW = 64
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam WORDS = MW / DW, SB = MW / 8, WB = DW / 8, LINES = 4, BURST = 200;
    localparam LB = $clog2(MW / 8), WBITS = $clog2(DW / 8);
    localparam [63:0] BASE = 64'h0000_7f3c_5a00_1000;  // line-aligned for every MW
    localparam RANDOM = 0, DRAIN = 1, WALK = 2;         // producer modes

    reg s_valid = 0; wire s_ready; reg [63:0] s_addr = 0; reg [DW-1:0] s_data = 0;
    wire r_valid; reg r_ready = 0;
    wire mq_valid; reg mq_ready = 0; wire [63:0] mq_addr; wire [MW-1:0] mq_wdata; wire [SB-1:0] mq_wstrb;
    reg mr_valid = 0; wire mr_ready; wire idle, count_write;

    clhls_lsu_store_ack #(.DATA_W(DW), .MEM_W(MW), .DEPTH(DEPTH), .ADDR_W(AW)) dut (.clk(clk), .rst(rst),
        .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_addr(s_addr), .s_req_data(s_data),
        .m_resp_valid(r_valid), .m_resp_ready(r_ready),
        .m_mem_req_valid(mq_valid), .m_mem_req_ready(mq_ready), .m_mem_req_addr(mq_addr),
        .m_mem_req_wdata(mq_wdata), .m_mem_req_wstrb(mq_wstrb),
        .s_mem_resp_valid(mr_valid), .s_mem_resp_ready(mr_ready),
        .idle(idle), .count_write(count_write));

    reg [MW-1:0] mem [0:LINES-1];            // model memory (written through wstrb)
    reg [MW-1:0] ref_mem [0:LINES-1];        // reference, updated per accepted store
    integer writer [0:LINES*WORDS-1];        // store whose write last reached each word (-1: none)
    reg [63:0] st_addr [0:N-1]; reg [DW-1:0] st_data [0:N-1];
    integer write_of [0:N-1];                // the write that covers each store (-1: not yet written)
    integer ack_time [0:N-1];                // cycle from which write j may be acknowledged
    // Model of the unit's runs: the staged one and the (at most two) queued ones, each
    // as its first store and its number of stores.
    reg staged; reg [63:0] staged_line; integer staged_first, staged_n;
    integer queued_first [0:1]; integer queued_n [0:1]; integer queued;
    integer entered;                         // stores that left the input slice (the rest wait in it)
    reg take, accept, enter, merge, push;
    reg staged_waited;                       // the staged run stayed because the queue was full
    integer merged_after_wait, split_runs;   // coverage: such a run still merging; a line's run in two writes
    integer cycle, sent, wr, cw, macks, got, max_out, merged_max, i, j;
    integer pv, pm, pr, dmax, phase_end, fast, fast_start, fast_cycles;
    integer mode, walk_offered, burst_first, burst_start, burst_cycles, burst_writes;
    integer line, w, k, wi, run, longest_run, fewest;
    reg [63:0] off, next_addr;
    reg [SB-1:0] exp_strb; reg [MW-1:0] exp_data, byte_mask;
    reg prev_mq_stall, prev_r_stall;
    reg [63:0] prev_mq_addr; reg [MW-1:0] prev_mq_wdata; reg [SB-1:0] prev_mq_wstrb;

    task fail(input [8*72-1:0] what);
        begin
            $display("FAIL tb_lsu_store_ack [DW %0d MW %0d DEPTH %0d] cycle %0d: %0s (sent %0d writes %0d mem acks %0d acks %0d)",
                     DW, MW, DEPTH, cycle, what, sent, wr, macks, got);
            $fatal(1);
        end
    endtask

    // The address bits the unit decodes.
    function [63:0] decoded(input [63:0] a);
        decoded = a & ~({64{1'b1}} << AW);
    endfunction

    // Word (line, index in line) of a store address.
    task locate(input [63:0] a);
        begin
            off = decoded(a) - BASE;
            line = off >> LB;
            w = (off >> WBITS) % WORDS;
        end
    endtask

    function [63:0] line_of(input [63:0] a);
        line_of = decoded(a) & ~(SB - 64'd1);
    endfunction

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            // ---- checks on the values sampled at this edge ----
            if (idle !== (sent == got)) fail("idle differs from 'every store acknowledged'");
            if (mr_ready !== 1'b1) fail("s_mem_resp_ready is not 1");
            if (count_write !== (mq_valid && mq_ready)) fail("count_write is not the write handshake");
            if (prev_mq_stall && (!mq_valid || mq_addr !== prev_mq_addr || mq_wdata !== prev_mq_wdata ||
                                  mq_wstrb !== prev_mq_wstrb)) fail("write request changed while stalled");
            if (prev_r_stall && !r_valid) fail("acknowledgement withdrawn before taken");
            prev_mq_stall = mq_valid && !mq_ready;
            prev_mq_addr = mq_addr; prev_mq_wdata = mq_wdata; prev_mq_wstrb = mq_wstrb;
            prev_r_stall = r_valid && !r_ready;
            if (mq_valid !== (queued != 0)) fail("write request differs from 'a run is queued'");
            if (s_ready !== ((sent - got != DEPTH) && (sent - entered < 2)))
                fail("s_req_ready differs from 'below DEPTH and room in the slice'");

            // ---- the model's steps at this edge (all from the values before it) ----
            take   = mq_valid && mq_ready;
            accept = s_valid && s_ready;
            enter  = (sent > entered) && (!staged || queued < 2);
            merge  = enter && staged && (line_of(st_addr[entered]) == staged_line);
            push   = staged && (queued < 2) && !merge;
            if (merge && staged_waited) merged_after_wait = merged_after_wait + 1;
            if (staged && !merge && queued == 2) staged_waited = 1;

            // ---- memory takes a write: it must be the oldest queued run ----
            if (take) begin
                if (queued == 0) fail("memory write without a queued run");
                exp_strb = 0; exp_data = 0; byte_mask = 0;
                for (j = queued_first[0]; j < queued_first[0] + queued_n[0]; j = j + 1) begin
                    if (line_of(st_addr[j]) !== line_of(st_addr[queued_first[0]])) fail("model: run over two lines");
                    locate(st_addr[j]);
                    exp_strb[WB*w +: WB] = {WB{1'b1}};
                    byte_mask[DW*w +: DW] = {DW{1'b1}};
                    exp_data[DW*w +: DW] = st_data[j];  // the later store wins
                end
                if (mq_addr !== line_of(st_addr[queued_first[0]])) fail("write line differs from its stores' line");
                if (mq_wstrb !== exp_strb) fail("wstrb differs from the union of its stores' bytes");
                if ((mq_wdata & byte_mask) !== exp_data) fail("write data differs from its latest stores' data");
                locate(st_addr[queued_first[0]]);
                for (i = 0; i < SB; i = i + 1)
                    if (mq_wstrb[i]) mem[line][8*i +: 8] = mq_wdata[8*i +: 8];
                for (j = queued_first[0]; j < queued_first[0] + queued_n[0]; j = j + 1) begin
                    locate(st_addr[j]);
                    writer[line*WORDS + w] = j;
                    write_of[j] = wr;
                end
                if (queued_n[0] > merged_max) merged_max = queued_n[0];
                ack_time[wr] = cycle + ($urandom % (dmax + 1));
                wr = wr + 1;
                queued_first[0] = queued_first[1]; queued_n[0] = queued_n[1];
                queued = queued - 1;
            end
            if (count_write) cw = cw + 1;

            // ---- the staged run leaves for the queue ----
            if (push) begin
                queued_first[queued] = staged_first; queued_n[queued] = staged_n;
                queued = queued + 1;
                staged = 0;
            end

            // ---- the slice's oldest store enters: it joins the staged run or starts one ----
            if (enter) begin
                if (staged && !merge) fail("model: store to another line while the staged run stays");
                if (merge) begin
                    staged_n = staged_n + 1;
                end else begin
                    if (!staged && entered > 0 &&
                        line_of(st_addr[entered]) == line_of(st_addr[entered - 1]))
                        split_runs = split_runs + 1;  // the line's previous run left without it
                    staged = 1; staged_line = line_of(st_addr[entered]); staged_first = entered;
                    staged_n = 1; staged_waited = 0;
                end
                entered = entered + 1;
            end

            // ---- a store is accepted into the slice ----
            if (accept) begin
                if (sent >= N) fail("store accepted that was never offered");
                st_addr[sent] = s_addr; st_data[sent] = s_data;
                run = (sent > 0 && line_of(s_addr) == line_of(st_addr[sent - 1])) ? run + 1 : 1;
                if (sent <= 200 && run > longest_run) longest_run = run;
                locate(s_addr);
                ref_mem[line][DW*w +: DW] = s_data;
                sent = sent + 1;
                if (sent - got > DEPTH) fail("more than DEPTH stores unacknowledged");
                if (sent - got > max_out) max_out = sent - got;
            end

            // ---- memory acknowledges a write ----
            if (mr_valid) macks = macks + 1;
            if (macks > wr) fail("memory model acknowledged an unwritten store");

            // ---- the pipeline takes an acknowledgement: store `got` must be in memory ----
            if (r_valid && r_ready) begin
                k = got;
                if (k >= sent) fail("acknowledgement without an accepted store");
                if (write_of[k] < 0) fail("acknowledgement before the store's write was issued");
                if (write_of[k] >= macks) fail("acknowledgement before memory acknowledged the store's write");
                locate(st_addr[k]);
                wi = writer[line*WORDS + w];
                if (wi < k) fail("acknowledged store not in memory");
                if (wi > k && (decoded(st_addr[wi]) !== decoded(st_addr[k]))) fail("word writer bookkeeping");
                if (mem[line][DW*w +: DW] !== st_data[wi]) fail("memory word differs from its last write");
                got = got + 1;
            end

            // ---- back-pressure phases ----
            if (!fast && cycle >= phase_end) begin
                // The first phase after the throughput checks stalls the consumer.
                case ((phase_end == 0) ? 3 : $urandom % 7)
                    0: begin pv = 100; pm = 100; pr = 100; dmax = 0;  end  // full speed
                    1: begin pv = 70;  pm = 60;  pr = 60;  dmax = 5;  end
                    2: begin pv = 30;  pm = 30;  pr = 90;  dmax = 25; end
                    3: begin pv = 100; pm = 100; pr = 0;   dmax = 2;  end  // consumer stalled: fill DEPTH
                    4: begin pv = 90;  pm = 15;  pr = 80;  dmax = 1;  end  // memory slow to take writes
                    5: begin pv = 60;  pm = 90;  pr = 50;  dmax = 80; end  // long write latency
                    default: begin pv = 95; pm = 90; pr = 95; dmax = 3; end
                endcase
                phase_end = cycle + ((phase_end == 0) ? 2 * DEPTH + 32 :
                                     (pr == 0) ? 16 + $urandom % 200 : 32 + $urandom % 500);
            end

            // ---- memory model outputs ----
            mq_ready <= ($urandom % 100) < pm;
            mr_valid <= (macks < wr) && (ack_time[macks] <= cycle);

            // ---- consumer ----
            r_ready <= ($urandom % 100) < pr;

            // ---- producer: hold the offered store until it is taken ----
            if (!(s_valid && !s_ready)) begin
                if (mode == WALK) begin  // consecutive words, one per cycle
                    next_addr = BASE + (walk_offered * WB) % (LINES * SB);
                    s_valid <= (walk_offered < BURST);
                    if (walk_offered < BURST) walk_offered = walk_offered + 1;
                end else begin
                    case ($urandom % 4)
                        0: ;                                               // the same word again
                        1: next_addr = BASE + ($urandom % 2) * WB;          // hot words of line 0
                        default: next_addr = BASE + ($urandom % LINES) * SB + ($urandom % WORDS) * WB;
                    endcase
                    s_valid <= (mode == RANDOM) && (sent < N) && (($urandom % 100) < pv);
                end
                s_addr <= next_addr | ({$urandom, $urandom} << AW);
                s_data <= {$urandom, $urandom};
            end
        end
    end

    initial begin
        done = 0;
        for (i = 0; i < LINES; i = i + 1) begin mem[i] = 0; ref_mem[i] = 0; end
        for (i = 0; i < LINES * WORDS; i = i + 1) writer[i] = -1;
        for (i = 0; i < N; i = i + 1) write_of[i] = -1;
        cycle = 0; sent = 0; entered = 0; wr = 0; cw = 0; macks = 0; got = 0; max_out = 0; merged_max = 0; merged_after_wait = 0; split_runs = 0; staged_waited = 0; run = 0; longest_run = 0;
        pv = 100; pm = 100; pr = 100; dmax = 0; phase_end = 0; fast = 1;
        mode = RANDOM; walk_offered = 0;
        staged = 0; staged_line = 0; staged_first = 0; staged_n = 0; queued = 0;
        prev_mq_stall = 0; prev_r_stall = 0; next_addr = BASE;
        @(negedge rst);
        // Throughput: the first 200 random stores at full speed (memory takes every write
        // and acknowledges it the cycle after) go at one per cycle when DEPTH covers the
        // loop: a run of R stores to one line is acknowledged from R + 4 cycles after its
        // first store on, so at most R + 4 stores wait.
        while (sent < 1) @(negedge clk);
        fast_start = cycle;
        while (sent < 201) @(negedge clk);
        fast_cycles = cycle - fast_start;
        if (DEPTH >= longest_run + 5 && fast_cycles > 202) fail("200 random stores at full speed too slow");
        // Merging: once everything is acknowledged, BURST stores walking consecutive
        // words from a line's start, still at full speed (the same every run: nothing
        // random decides it).
        mode = DRAIN;
        while (!(sent == got && !s_valid)) @(negedge clk);
        burst_first = sent; burst_writes = wr;
        mode = WALK;
        while (sent < burst_first + 1) @(negedge clk);
        burst_start = cycle;
        while (sent < burst_first + BURST) @(negedge clk);
        burst_cycles = cycle - burst_start + 1;
        mode = DRAIN;
        while (!(sent == got && !s_valid)) @(negedge clk);
        burst_writes = wr - burst_writes;
        mode = RANDOM; fast = 0;
        if (DEPTH >= WORDS + 5) begin
            if (burst_cycles > BURST + 2) fail("walking stores at full speed too slow");
            if (burst_writes != (BURST + WORDS - 1) / WORDS) fail("walking stores: not one write per line");
        end else begin
            // A write ends at a line's end or when DEPTH stores wait for their
            // acknowledgement, one of them in the input slice: on average it still covers
            // half of the fewer of WORDS and DEPTH - 1.
            fewest = (DEPTH - 1 < WORDS) ? DEPTH - 1 : WORDS;
            if (fewest >= 3 && burst_writes > 2 * BURST / fewest) fail("walking stores: too few merged");
        end
        while (!(sent == N && got == N)) begin
            @(negedge clk);
            if (cycle > 400000) fail("timeout");
        end
        // Nothing else may happen once everything is acknowledged.
        repeat (100) begin
            @(negedge clk);
            if (mq_valid || r_valid || mr_valid || !idle) fail("activity after the last acknowledgement");
        end
        if (wr > N || cw != wr || macks != wr) fail("writes, count_write pulses and memory acknowledgements differ");
        for (i = 0; i < LINES; i = i + 1)
            if (mem[i] !== ref_mem[i]) fail("final memory differs from the reference");
        if (max_out != DEPTH) fail("never reached DEPTH unacknowledged stores");
        // With DEPTH >= 4 a run can wait behind a full queue and still merge.
        if (DEPTH >= 4 && merged_after_wait == 0) fail("no store merged into a run that waited");
        if (split_runs == 0) fail("no line's run split over two writes");
        $display("ok DW %0d MW %0d DEPTH %0d: %0d stores, %0d writes (up to %0d stores each; %0d merged into a run that waited, %0d runs split), %0d cycles; full speed: 200 random stores (runs to a line up to %0d) in %0d cycles, %0d walking in %0d cycles and %0d writes",
                 DW, MW, DEPTH, N, wr, merged_max, merged_after_wait, split_runs, cycle, longest_run, fast_cycles, BURST, burst_cycles, burst_writes);
        done = 1;
    end
endmodule

module tb_lsu_store_ack;
    localparam N = 4000;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    wire [6:0] done;
    lsu_store_ack_check #(.DW(8),  .MW(512), .DEPTH(16),  .N(N)) c0 (.clk(clk), .rst(rst), .done(done[0]));
    lsu_store_ack_check #(.DW(16), .MW(64),  .DEPTH(3),   .N(N)) c1 (.clk(clk), .rst(rst), .done(done[1]));
    lsu_store_ack_check #(.DW(32), .MW(512), .DEPTH(128), .N(N)) c2 (.clk(clk), .rst(rst), .done(done[2]));
    lsu_store_ack_check #(.DW(64), .MW(512), .DEPTH(4),   .N(N)) c3 (.clk(clk), .rst(rst), .done(done[3]));
    lsu_store_ack_check #(.DW(64), .MW(64),  .DEPTH(1),   .N(N)) c4 (.clk(clk), .rst(rst), .done(done[4]));
    lsu_store_ack_check #(.DW(32), .MW(64),  .DEPTH(8),   .N(N)) c5 (.clk(clk), .rst(rst), .done(done[5]));
    lsu_store_ack_check #(.DW(32), .MW(512), .DEPTH(16),  .N(N), .AW(48)) c6 (.clk(clk), .rst(rst), .done(done[6]));
    initial begin
        repeat (3) @(negedge clk); rst = 0;
        wait (&done);
        $display("PASS tb_lsu_store_ack (7 configurations, %0d stores each)", N);
        $finish;
    end
endmodule
