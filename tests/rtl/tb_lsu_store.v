// tb_lsu_store: clhls_lsu_store (DATA_W 32, MEM_W 128) with random same-line runs,
// overwrites of the same word, random gaps, memory readiness and acknowledgement
// delays, and `flush` pulses. Checks the final memory (written through the byte
// enables) against a reference updated per store, that no write has an empty
// strobe, and that `idle` only rises when everything was written and acknowledged.
// With ADDR_W below 64 (-GADDR_W=12), every store's address carries random bits above
// the decoded ones: they must neither split a line's stores into several writes nor
// reach the memory port.
`timescale 1ns/1ps
module tb_lsu_store #(parameter ADDR_W = 64);
    localparam DW = 32, MW = 128, N = 4000, LINES = 64;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    reg s_valid = 0; wire s_ready; reg [63:0] s_addr = 0; reg [DW-1:0] s_data = 0; reg flush = 0;
    wire mq_valid; reg mq_ready = 0; wire [63:0] mq_addr; wire [MW-1:0] mq_wdata; wire [MW/8-1:0] mq_wstrb;
    reg ack = 0; wire ack_ready; wire idle, count_write;
    clhls_lsu_store #(.DATA_W(DW), .MEM_W(MW), .IDLE_FLUSH(4), .ADDR_W(ADDR_W)) dut (.clk(clk), .rst(rst),
        .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_addr(s_addr), .s_req_data(s_data), .flush(flush),
        .m_mem_req_valid(mq_valid), .m_mem_req_ready(mq_ready), .m_mem_req_addr(mq_addr),
        .m_mem_req_wdata(mq_wdata), .m_mem_req_wstrb(mq_wstrb), .s_mem_resp_valid(ack), .s_mem_resp_ready(ack_ready),
        .idle(idle), .count_write(count_write));
    reg [MW-1:0] mem [0:LINES-1]; reg [MW-1:0] ref_mem [0:LINES-1];
    integer ack_time [0:8191]; integer head, tail, cycle, sent, writes, i, b, run, pressure, fast_start;
    reg [63:0] next_addr;
    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            if (s_valid && s_ready) begin
                ref_mem[s_addr[9:4]][32*s_addr[3:2] +: 32] = s_data;
                sent = sent + 1;
            end
            if (count_write) begin
                if (mq_wstrb == 0 || mq_addr[3:0] != 0 || (mq_addr >> ADDR_W) != 0) begin
                    $display("FAIL bad write to %h", mq_addr); $fatal(1);
                end
                for (b = 0; b < MW / 8; b = b + 1)
                    if (mq_wstrb[b]) mem[mq_addr[9:4]][8*b +: 8] = mq_wdata[8*b +: 8];
                writes = writes + 1;
                ack_time[tail % 8192] = cycle + 1 + $urandom % 15; tail = tail + 1;
            end
            if (ack) head = head + 1;
            ack <= (head + (ack ? 0 : 0) < tail) && ack_time[head % 8192] <= cycle;
            mq_ready <= !pressure || ($urandom % 3 != 0);
            flush <= pressure && ($urandom % 50 == 0);
            if (!(s_valid && !s_ready)) begin
                if (run == 0) begin
                    run = $urandom % 10;
                    next_addr = {$urandom % LINES, 4'b0} | ($urandom % 4) * 4;
                end else begin
                    run = run - 1;
                    next_addr = (next_addr & ~64'hF) | ($urandom % 4) * 4;
                end
                s_valid <= (sent < N) && (!pressure || ($urandom % 3 != 0));
                s_addr <= next_addr | ({$urandom, $urandom} << ADDR_W); s_data <= $urandom;
            end
            if (sent == N / 2) pressure = 1;
        end
    end
    initial begin
        for (i = 0; i < LINES; i = i + 1) begin mem[i] = 0; ref_mem[i] = 0; end
        cycle = 0; head = 0; tail = 0; sent = 0; writes = 0; run = 0; pressure = 0;
        repeat (3) @(negedge clk); rst = 0;
        // Throughput: 200 consecutive stores without back-pressure take 200 cycles.
        while (sent < 1) @(negedge clk);
        fast_start = cycle;
        while (sent < 201) @(negedge clk);
        if (cycle - fast_start > 202) begin $display("FAIL 200 stores took %0d cycles", cycle - fast_start); $fatal(1); end
        while (!(sent == N && idle && head == tail)) begin
            @(negedge clk);
            if (cycle > 200000) begin $display("FAIL timeout"); $fatal(1); end
        end
        for (i = 0; i < LINES; i = i + 1)
            if (mem[i] !== ref_mem[i]) begin $display("FAIL line %0d: %h, expected %h", i, mem[i], ref_mem[i]); $fatal(1); end
        if (writes >= N / 2) begin $display("FAIL %0d writes for %0d stores: no coalescing", writes, N); $fatal(1); end
        $display("PASS tb_lsu_store (%0d stores, %0d memory writes, %0d cycles)", N, writes, cycle);
        $finish;
    end
endmodule
