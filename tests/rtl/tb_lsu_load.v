// tb_lsu_load: clhls_lsu_load (DATA_W 32, MEM_W 128, DEPTH 16) against a memory
// array with random in-order latency, random request gaps and response readiness.
// Addresses are random with repeats and same-line runs. Checks every loaded word,
// the number of memory reads (one per change of line), and measures the latency.
`timescale 1ns/1ps
module tb_lsu_load;
    localparam DW = 32, MW = 128, N = 4000, LINES = 64;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    reg s_valid = 0; wire s_ready; reg [63:0] s_addr = 0;
    wire r_valid; reg r_ready = 0; wire [DW-1:0] r_data;
    wire mq_valid; reg mq_ready = 0; wire [63:0] mq_addr;
    reg mr_valid = 0; wire mr_ready; reg [MW-1:0] mr_data = 0;
    wire idle, count_read;
    clhls_lsu_load #(.DATA_W(DW), .MEM_W(MW), .DEPTH(16)) dut (.clk(clk), .rst(rst),
        .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_addr(s_addr),
        .m_resp_valid(r_valid), .m_resp_ready(r_ready), .m_resp_data(r_data),
        .m_mem_req_valid(mq_valid), .m_mem_req_ready(mq_ready), .m_mem_req_addr(mq_addr),
        .s_mem_resp_valid(mr_valid), .s_mem_resp_ready(mr_ready), .s_mem_resp_rdata(mr_data),
        .idle(idle), .count_read(count_read));
    reg [MW-1:0] mem [0:LINES-1];
    reg [63:0] sent_addr [0:N-1];
    reg [63:0] mq_a [0:4095]; integer mq_time [0:4095];
    integer head, tail, cycle, sent, got, reads, expected_reads, i, run, tb_open, pressure;
    reg [63:0] tb_line, next_addr;
    integer first_req_cycle, first_resp_cycle;
    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            if (s_valid && s_ready) begin
                if (!tb_open || (s_addr >> 4) != tb_line) expected_reads = expected_reads + 1;
                tb_open = 1; tb_line = s_addr >> 4;
                sent_addr[sent] = s_addr; sent = sent + 1;
            end else if (idle) tb_open = 0;
            if (r_valid && r_ready) begin
                if (r_data !== mem[sent_addr[got][9:4]][32*sent_addr[got][3:2] +: 32]) begin
                    $display("FAIL load %0d addr %h: %h", got, sent_addr[got], r_data); $fatal(1); end
                if (got == 0) first_resp_cycle = cycle;
                got = got + 1;
            end
            if (count_read) begin
                reads = reads + 1;
                if (mq_addr[3:0] != 0) begin $display("FAIL unaligned line address"); $fatal(1); end
                mq_a[tail % 4096] = mq_addr;
                mq_time[tail % 4096] = cycle + (pressure ? 1 + $urandom % 30 : 10);
                tail = tail + 1;
            end
            if (mr_valid && mr_ready) head = head + 1;
            if (!(mr_valid && !mr_ready)) begin
                if (head < tail && mq_time[head % 4096] <= cycle) begin
                    mr_valid <= 1; mr_data <= mem[mq_a[head % 4096][9:4]];
                end else mr_valid <= 0;
            end
            mq_ready <= !pressure || ($urandom % 4 != 0);
            r_ready <= !pressure || ($urandom % 3 != 0);
            if (!(s_valid && !s_ready)) begin
                if (run == 0) begin
                    run = $urandom % 8;
                    next_addr = {$urandom % LINES, 4'b0} | ($urandom % 4) * 4;
                end else begin
                    run = run - 1;
                    if ($urandom % 2) next_addr = (next_addr & ~64'hF) | ($urandom % 4) * 4;
                end
                s_valid <= (sent < N) && (!pressure || ($urandom % 4 != 0));
                s_addr <= next_addr;
            end
            if (pressure == 0 && sent == N / 2) pressure = 1;
        end
    end
    initial begin
        for (i = 0; i < LINES; i = i + 1) mem[i] = {$urandom, $urandom, $urandom, $urandom};
        cycle = 0; head = 0; tail = 0; sent = 0; got = 0; reads = 0; expected_reads = 0; run = 0; tb_open = 0; pressure = 0;
        repeat (3) @(negedge clk); rst = 0;
        first_req_cycle = cycle + 1;
        while (!(got == N && idle)) begin
            @(negedge clk);
            if (cycle > 200000) begin $display("FAIL timeout %0d/%0d", got, N); $fatal(1); end
        end
        if (reads != expected_reads) begin $display("FAIL %0d memory reads, expected %0d", reads, expected_reads); $fatal(1); end
        // First request accepted at first_req_cycle, memory answers 10 cycles after the request.
        $display("first load: %0d cycles from request to data with memory latency 10", first_resp_cycle - first_req_cycle);
        $display("PASS tb_lsu_load (%0d loads, %0d memory reads, %0d cycles)", N, reads, cycle);
        $finish;
    end
endmodule
