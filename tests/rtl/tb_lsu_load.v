// tb_lsu_load: clhls_lsu_load (DATA_W 32, MEM_W 128, DEPTH 16, two writers) against a
// memory array with random in-order latency, random request gaps and response
// readiness. Addresses are random with repeats and same-line runs. Every memory word
// holds {its word number, its version}; a read takes its snapshot when memory takes
// it. In the first half (which ends when the unit has drained) nothing writes: every loaded word is checked and so is the
// number of memory reads (one per change of line). In the second half the two
// writers write random words (often the open line) and each write makes a word's
// next version: a load must return a version at least the one its word had when the
// unit accepted the load (every write taken before that cycle is seen, however the
// line was reused) and at most the newest. Also measures the latency. With REUSE 0
// (-GREUSE=0) every load is a memory read of its own; with -GSLICE=1 requests
// enter and answers leave through the unit's register slices, as on a board with a
// short clock (the same checks under the same random back-pressure: the unit's open
// line is forgotten only when it is idle, the slices empty too).
`timescale 1ns/1ps
module tb_lsu_load #(parameter REUSE = 1, parameter SLICE = 0);
    localparam DW = 32, MW = 128, N = 4000, LINES = 64, WORDS = LINES * 4;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    reg s_valid = 0; wire s_ready; reg [63:0] s_addr = 0;
    wire r_valid; reg r_ready = 0; wire [DW-1:0] r_data;
    wire mq_valid; reg mq_ready = 0; wire [63:0] mq_addr;
    reg mr_valid = 0; wire mr_ready; reg [MW-1:0] mr_data = 0;
    reg [1:0] w_valid = 0; reg [127:0] w_addr = 0;
    wire idle, count_read;
    clhls_lsu_load #(.DATA_W(DW), .MEM_W(MW), .DEPTH(16), .WRITERS(2), .ADDR_W(12), .REUSE(REUSE), .REQ_SLICE(SLICE),
                     .RESP_SLICE(SLICE)) dut (
        .clk(clk), .rst(rst),
        .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_addr(s_addr),
        .s_write_valid(w_valid), .s_write_addr(w_addr), .s_release(1'b0),
        .m_resp_valid(r_valid), .m_resp_ready(r_ready), .m_resp_data(r_data),
        .m_mem_req_valid(mq_valid), .m_mem_req_ready(mq_ready), .m_mem_req_addr(mq_addr),
        .s_mem_resp_valid(mr_valid), .s_mem_resp_ready(mr_ready), .s_mem_resp_rdata(mr_data),
        .idle(idle), .count_read(count_read));
    reg [15:0] version [0:WORDS-1];
    reg [63:0] sent_addr [0:N-1];
    reg [15:0] sent_version [0:N-1];
    reg [MW-1:0] mq_d [0:4095]; integer mq_time [0:4095];
    integer head, tail, cycle, sent, got, reads, expected_reads, i, run, tb_open, pressure, writes;
    integer wi, word;
    reg [63:0] tb_line, next_addr;
    reg [15:0] v;
    integer first_req_cycle, first_resp_cycle;
    function [MW-1:0] line_of(input [63:0] line_addr);
        integer k;
        begin
            for (k = 0; k < 4; k = k + 1)
                line_of[32*k +: 32] = {line_addr[15:0] * 16'd4 + k[15:0], version[line_addr * 4 + k]};
        end
    endfunction
    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            if (s_valid && s_ready) begin
                if (!REUSE || !tb_open || (s_addr >> 4) != tb_line) expected_reads = expected_reads + 1;
                tb_open = 1; tb_line = s_addr >> 4;
                sent_addr[sent] = s_addr; sent_version[sent] = version[s_addr[63:2] % WORDS];
                sent = sent + 1;
            end else if (idle) tb_open = 0;
            if (r_valid && r_ready) begin
                word = sent_addr[got][63:2] % WORDS;
                v = r_data[15:0];
                if (r_data[31:16] !== word[15:0] || v < sent_version[got] || v > version[word]) begin
                    $display("FAIL load %0d addr %h: %h (version %0d when accepted, now %0d)",
                             got, sent_addr[got], r_data, sent_version[got], version[word]);
                    $fatal(1);
                end
                if (got == 0) first_resp_cycle = cycle;
                got = got + 1;
            end
            if (count_read) begin
                reads = reads + 1;
                if (mq_addr[3:0] != 0) begin $display("FAIL unaligned line address"); $fatal(1); end
                mq_d[tail % 4096] = line_of(mq_addr >> 4);
                mq_time[tail % 4096] = cycle + (pressure ? 1 + $urandom % 30 : 10);
                tail = tail + 1;
            end
            // The writes taken in this cycle land after this cycle's reads took their
            // snapshots, as in the interconnect, which takes one request a cycle.
            for (wi = 0; wi < 2; wi = wi + 1)
                if (w_valid[wi]) begin
                    word = w_addr[64*wi +: 64] >> 2;
                    version[word % WORDS] = version[word % WORDS] + 1;
                    writes = writes + 1;
                end
            if (mr_valid && mr_ready) head = head + 1;
            if (!(mr_valid && !mr_ready)) begin
                if (head < tail && mq_time[head % 4096] <= cycle) begin
                    mr_valid <= 1; mr_data <= mq_d[head % 4096];
                end else mr_valid <= 0;
            end
            mq_ready <= !pressure || ($urandom % 4 != 0);
            r_ready <= !pressure || ($urandom % 3 != 0);
            for (wi = 0; wi < 2; wi = wi + 1) begin
                w_valid[wi] <= pressure && ($urandom % 6 == 0);
                // Half the writes go to the line the requests are in, any of its words.
                w_addr[64*wi +: 64] <= ($urandom % 2) ? ((next_addr & ~64'hF) | ($urandom % 4) * 4)
                                                      : {$urandom % LINES, 4'b0} | ($urandom % 4) * 4;
            end
            if (!(s_valid && !s_ready)) begin
                if (run == 0) begin
                    run = $urandom % 8;
                    next_addr = {$urandom % LINES, 4'b0} | ($urandom % 4) * 4;
                end else begin
                    run = run - 1;
                    if ($urandom % 2) next_addr = (next_addr & ~64'hF) | ($urandom % 4) * 4;
                end
                s_valid <= (sent < (pressure ? N : N / 2)) && (!pressure || ($urandom % 4 != 0));
                s_addr <= next_addr;
            end
            if (pressure == 0 && got == N / 2 && idle) begin
                pressure = 1;
                if (reads != expected_reads) begin
                    $display("FAIL %0d memory reads, expected %0d", reads, expected_reads); $fatal(1);
                end
            end
        end
    end
    initial begin
        for (i = 0; i < WORDS; i = i + 1) version[i] = 0;
        cycle = 0; head = 0; tail = 0; sent = 0; got = 0; reads = 0; expected_reads = 0; run = 0;
        tb_open = 0; pressure = 0; writes = 0;
        repeat (3) @(negedge clk); rst = 0;
        first_req_cycle = cycle + 1;
        while (!(got == N && idle)) begin
            @(negedge clk);
            if (cycle > 200000) begin $display("FAIL timeout %0d/%0d", got, N); $fatal(1); end
        end
        // First request accepted at first_req_cycle, memory answers 10 cycles after the request.
        $display("first load: %0d cycles from request to data with memory latency 10", first_resp_cycle - first_req_cycle);
        $display("PASS tb_lsu_load (%0d loads, %0d memory reads, %0d writes, %0d cycles)", N, reads, writes, cycle);
        $finish;
    end
endmodule
