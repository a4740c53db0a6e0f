// tb_lsu_store_ack: clhls_lsu_store_ack in six configurations (DATA_W 8/16/32/64,
// MEM_W 512 and 64, DEPTH 1/3/4/16/128), 4000 stores each. Every instance has its
// own memory model (random m_mem_req_ready; the byte-enabled line write is applied
// when the request is taken; one s_mem_resp_valid pulse per write, in order, after a
// random delay), a producer of random stores (a few lines, many repeats of the same
// word, random valid gaps) and a consumer taking acknowledgements with random
// m_resp_ready. Back-pressure changes in random phases (full speed, stalled consumer,
// slow memory, long acknowledgement delays). Checked every cycle:
//   - the k-th acknowledgement reaches the pipeline only after memory was written and
//     acknowledged k+1 times, and the model memory then holds store k's data at its
//     address, or the data of a later store to the same word already written;
//   - acknowledgements never outnumber accepted stores;
//   - write j is store j: line address, wstrb (exactly the word's bytes) and data;
//     exactly one write per store, no write before its store; count_write pulses
//     exactly on each write;
//   - idle == every accepted store has been acknowledged to the pipeline;
//   - accepted and unacknowledged stores never exceed DEPTH (and reach it);
//   - s_mem_resp_ready is 1, requests and acknowledgements stay valid until taken.
// At the end: nothing more happens, final memory equals a reference updated per
// store; with DEPTH >= 8, 200 stores at full speed take at most 202 cycles.
`timescale 1ns/1ps

module lsu_store_ack_check #(
    parameter DW = 32, MW = 512, DEPTH = 16, N = 4000, ID = 0
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam WORDS = MW / DW, SB = MW / 8, WB = DW / 8, LINES = 4;
    localparam LB = $clog2(MW / 8), WBITS = $clog2(DW / 8);
    localparam [63:0] BASE = 64'h0000_7f3c_5a00_1000;  // line-aligned for every MW

    reg s_valid = 0; wire s_ready; reg [63:0] s_addr = 0; reg [DW-1:0] s_data = 0;
    wire r_valid; reg r_ready = 0;
    wire mq_valid; reg mq_ready = 0; wire [63:0] mq_addr; wire [MW-1:0] mq_wdata; wire [SB-1:0] mq_wstrb;
    reg mr_valid = 0; wire mr_ready; wire idle, count_write;

    clhls_lsu_store_ack #(.DATA_W(DW), .MEM_W(MW), .DEPTH(DEPTH)) dut (.clk(clk), .rst(rst),
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
    integer ack_time [0:N-1];                // cycle from which write j may be acknowledged
    integer cycle, sent, wr, cw, macks, got, max_out, i;
    integer pv, pm, pr, dmax, phase_end, fast, fast_start, fast_cycles;
    integer line, w, k, wi;
    reg [63:0] off, next_addr;
    reg [SB-1:0] exp_strb;
    reg prev_mq_stall, prev_r_stall;
    reg [63:0] prev_mq_addr; reg [MW-1:0] prev_mq_wdata; reg [SB-1:0] prev_mq_wstrb;

    task fail(input [8*64-1:0] what);
        begin
            $display("FAIL tb_lsu_store_ack [DW %0d MW %0d DEPTH %0d] cycle %0d: %0s (sent %0d writes %0d mem acks %0d acks %0d)",
                     DW, MW, DEPTH, cycle, what, sent, wr, macks, got);
            $fatal(1);
        end
    endtask

    // Word (line, index in line) of a store address.
    task locate(input [63:0] a);
        begin
            off = a - BASE;
            line = off >> LB;
            w = (off >> WBITS) % WORDS;
        end
    endtask

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

            // ---- a store is accepted ----
            if (s_valid && s_ready) begin
                if (sent >= N) fail("store accepted that was never offered");
                st_addr[sent] = s_addr; st_data[sent] = s_data;
                locate(s_addr);
                ref_mem[line][DW*w +: DW] = s_data;
                sent = sent + 1;
                if (sent - got > DEPTH) fail("more than DEPTH stores unacknowledged");
                if (sent - got > max_out) max_out = sent - got;
            end

            // ---- memory takes a write: it must be store `wr` ----
            if (mq_valid && mq_ready) begin
                if (wr >= sent) fail("memory write without a store");
                locate(st_addr[wr]);
                exp_strb = {WB{1'b1}};
                exp_strb = exp_strb << (WB * w);
                if (mq_addr !== (st_addr[wr] & ~(SB - 64'd1))) fail("wrong line address");
                if (mq_wstrb !== exp_strb) fail("wrong wstrb");
                if (mq_wdata[DW*w +: DW] !== st_data[wr]) fail("wrong write data");
                for (i = 0; i < SB; i = i + 1)
                    if (mq_wstrb[i]) mem[line][8*i +: 8] = mq_wdata[8*i +: 8];
                writer[line*WORDS + w] = wr;
                ack_time[wr] = cycle + ($urandom % (dmax + 1));
                wr = wr + 1;
            end
            if (count_write) cw = cw + 1;

            // ---- memory acknowledges a write ----
            if (mr_valid) macks = macks + 1;
            if (macks > wr) fail("memory model acknowledged an unwritten store");

            // ---- the pipeline takes an acknowledgement: store `got` must be in memory ----
            if (r_valid && r_ready) begin
                k = got;
                if (k >= sent) fail("acknowledgement without an accepted store");
                if (k >= macks) fail("acknowledgement before memory acknowledged the write");
                locate(st_addr[k]);
                wi = writer[line*WORDS + w];
                if (wi < k) fail("acknowledged store not in memory");
                if (wi > k && (st_addr[wi] !== st_addr[k])) fail("word writer bookkeeping");
                if (mem[line][DW*w +: DW] !== st_data[wi]) fail("memory word differs from its last write");
                got = got + 1;
            end

            // ---- back-pressure phases ----
            if (!fast && cycle >= phase_end) begin
                // The first phase after the throughput check stalls the consumer.
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
                case ($urandom % 4)
                    0: ;                                               // the same word again
                    1: next_addr = BASE + ($urandom % 2) * WB;          // hot words of line 0
                    default: next_addr = BASE + ($urandom % LINES) * SB + ($urandom % WORDS) * WB;
                endcase
                s_valid <= (sent < N) && (($urandom % 100) < pv);
                s_addr <= next_addr;
                s_data <= {$urandom, $urandom};
            end
        end
    end

    initial begin
        done = 0;
        for (i = 0; i < LINES; i = i + 1) begin mem[i] = 0; ref_mem[i] = 0; end
        for (i = 0; i < LINES * WORDS; i = i + 1) writer[i] = -1;
        cycle = 0; sent = 0; wr = 0; cw = 0; macks = 0; got = 0; max_out = 0;
        pv = 100; pm = 100; pr = 100; dmax = 0; phase_end = 0; fast = 1;
        prev_mq_stall = 0; prev_r_stall = 0; next_addr = BASE;
        @(negedge rst);
        // Throughput: the first 200 stores at full speed (memory acknowledges the cycle
        // after the write) go at one per cycle when DEPTH covers the loop.
        while (sent < 1) @(negedge clk);
        fast_start = cycle;
        while (sent < 201) @(negedge clk);
        fast_cycles = cycle - fast_start;
        if (DEPTH >= 8 && fast_cycles > 202) fail("200 stores at full speed too slow");
        fast = 0;
        while (!(sent == N && got == N)) begin
            @(negedge clk);
            if (cycle > 400000) fail("timeout");
        end
        // Nothing else may happen once everything is acknowledged.
        repeat (100) begin
            @(negedge clk);
            if (mq_valid || r_valid || mr_valid || !idle) fail("activity after the last acknowledgement");
        end
        if (wr != N || cw != N || macks != N) fail("not exactly one write per store");
        for (i = 0; i < LINES; i = i + 1)
            if (mem[i] !== ref_mem[i]) fail("final memory differs from the reference");
        if (max_out != DEPTH) fail("never reached DEPTH unacknowledged stores");
        $display("ok DW %0d MW %0d DEPTH %0d: %0d stores, %0d writes, %0d cycles, full-speed 200 stores in %0d cycles",
                 DW, MW, DEPTH, N, wr, cycle, fast_cycles);
        done = 1;
    end
endmodule

module tb_lsu_store_ack;
    localparam N = 4000;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    wire [5:0] done;
    lsu_store_ack_check #(.DW(8),  .MW(512), .DEPTH(16),  .N(N)) c0 (.clk(clk), .rst(rst), .done(done[0]));
    lsu_store_ack_check #(.DW(16), .MW(64),  .DEPTH(3),   .N(N)) c1 (.clk(clk), .rst(rst), .done(done[1]));
    lsu_store_ack_check #(.DW(32), .MW(512), .DEPTH(128), .N(N)) c2 (.clk(clk), .rst(rst), .done(done[2]));
    lsu_store_ack_check #(.DW(64), .MW(512), .DEPTH(4),   .N(N)) c3 (.clk(clk), .rst(rst), .done(done[3]));
    lsu_store_ack_check #(.DW(64), .MW(64),  .DEPTH(1),   .N(N)) c4 (.clk(clk), .rst(rst), .done(done[4]));
    lsu_store_ack_check #(.DW(32), .MW(64),  .DEPTH(8),   .N(N)) c5 (.clk(clk), .rst(rst), .done(done[5]));
    initial begin
        repeat (3) @(negedge clk); rst = 0;
        wait (&done);
        $display("PASS tb_lsu_store_ack (6 configurations, %0d stores each)", N);
        $finish;
    end
endmodule
