// tb_interconnect: clhls_mem_interconnect with 3 ports issuing numbered requests
// under random valid gaps, random memory readiness, an in-order memory with random
// latency, and random response readiness. Checks that each port's requests reach
// memory in order and intact (atomic operation code, write data and byte enables
// included) with the right tag, that each response reaches the right port in order,
// and fairness (a waiting port is served within 3 grants). Three cases: every port
// writes (reads and writes alternate); only the middle port writes; no port writes.
// A port outside WRITERS only reads, has no slot on the write-data buses, and its
// requests reach memory with no byte enables.
`timescale 1ns/1ps
module ic_case #(parameter [2:0] WRITERS = 3'b111, parameter NWRITE = 3) (
    input wire clk, output reg done);
    localparam P = 3, W = 64, N = 1500;
    localparam NW = NWRITE > 0 ? NWRITE : 1;  // write-data slots
    reg rst = 1;
    reg [P-1:0] s_valid = 0; wire [P-1:0] s_ready; reg [P-1:0] s_write = 0; reg [P*4-1:0] s_atomic = 0;
    reg [P*64-1:0] s_addr = 0; reg [P*W-1:0] s_wdata = 0; reg [P*W/8-1:0] s_wstrb = 0;
    reg [NW*W-1:0] w_wdata; reg [NW*W/8-1:0] w_wstrb;  // the writers' slots of s_wdata, s_wstrb
    integer slot, q;
    always @(*) begin
        w_wdata = 0; w_wstrb = 0; slot = 0;
        for (q = 0; q < P; q = q + 1) if (WRITERS[q]) begin
            w_wdata[W*slot +: W] = s_wdata[W*q +: W];
            w_wstrb[W/8*slot +: W/8] = s_wstrb[W/8*q +: W/8];
            slot = slot + 1;
        end
    end
    wire [P-1:0] r_valid; reg [P-1:0] r_ready = 0; wire [W-1:0] r_data;
    wire mq_valid, mq_write; wire [3:0] mq_atomic; reg mq_ready = 0; wire [63:0] mq_addr; wire [W-1:0] mq_wdata; wire [W/8-1:0] mq_wstrb; wire [15:0] mq_tag;
    reg mr_valid = 0; wire mr_ready; reg [W-1:0] mr_data = 0; reg [15:0] mr_tag = 0;
    clhls_mem_interconnect #(.NPORTS(P), .MEM_W(W), .TAG_W(16), .WRITERS(WRITERS), .NWRITE(NWRITE)) dut (.clk(clk), .rst(rst),
        .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_write(s_write), .s_req_atomic(s_atomic), .s_req_addr(s_addr),
        .s_req_wdata(w_wdata), .s_req_wstrb(w_wstrb), .m_resp_valid(r_valid), .m_resp_ready(r_ready),
        .m_resp_rdata(r_data), .m_mem_req_valid(mq_valid), .m_mem_req_ready(mq_ready), .m_mem_req_write(mq_write), .m_mem_req_atomic(mq_atomic),
        .m_mem_req_addr(mq_addr), .m_mem_req_wdata(mq_wdata), .m_mem_req_wstrb(mq_wstrb), .m_mem_req_tag(mq_tag),
        .s_mem_resp_valid(mr_valid), .s_mem_resp_ready(mr_ready), .s_mem_resp_rdata(mr_data), .s_mem_resp_tag(mr_tag));
    function [63:0] addr_of(input integer p, input integer n); addr_of = {p[7:0], 24'd0, n[31:0]} << 6; endfunction
    function [W-1:0] data_of(input [63:0] a); data_of = {a[31:0] * 32'h9E3779B1, a[63:32] ^ a[31:0]}; endfunction
    // Memory model: in-order queue with a ready time per entry.
    reg [63:0] mq_a [0:4095]; reg [15:0] mq_t [0:4095]; integer mq_time [0:4095];
    integer head, tail, cycle, p, sent [0:P-1], arrived [0:P-1], answered [0:P-1], waiting [0:P-1], done_ports;
    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            // Requests arriving at memory.
            if (mq_valid && mq_ready) begin
                p = mq_tag;
                if (p >= P || mq_addr !== addr_of(p, arrived[p]) ||
                    mq_write !== (WRITERS[p] && arrived[p][0]) ||
                    mq_atomic !== (WRITERS[p] ? arrived[p][4:1] : 4'd0) ||
                    (WRITERS[p] ? (mq_wdata !== ~data_of(mq_addr) || mq_wstrb !== mq_addr[13:6])
                                : mq_wstrb !== 0)) begin
                    $display("FAIL request %0d of port %0d: addr %h write %b", arrived[p], p, mq_addr, mq_write); $fatal(1); end
                arrived[p] = arrived[p] + 1;
                mq_a[tail % 4096] = mq_addr; mq_t[tail % 4096] = mq_tag; mq_time[tail % 4096] = cycle + 1 + $urandom % 20;
                tail = tail + 1;
            end
            // Responses delivered to ports.
            for (p = 0; p < P; p = p + 1) if (r_valid[p] && r_ready[p]) begin
                if (r_data !== data_of(addr_of(p, answered[p]))) begin
                    $display("FAIL response %0d of port %0d", answered[p], p); $fatal(1); end
                answered[p] = answered[p] + 1;
            end
            if (mr_valid && mr_ready) head = head + 1;
            // Fairness: count grants a waiting port misses.
            for (p = 0; p < P; p = p + 1)
                if (s_valid[p] && !s_ready[p] && (mq_valid === 1'b1 || 1)) begin
                    if (|(s_valid & s_ready)) waiting[p] = waiting[p] + 1;
                    if (waiting[p] > P) begin $display("FAIL port %0d starved", p); $fatal(1); end
                end else waiting[p] = 0;
            // Port drivers: hold valid until accepted.
            for (p = 0; p < P; p = p + 1) begin
                if (s_valid[p] && s_ready[p]) sent[p] = sent[p] + 1;
                if (!(s_valid[p] && !s_ready[p])) begin
                    s_valid[p] <= (sent[p] < N) && ($urandom % 4 != 0);
                    s_addr[64*p +: 64] <= addr_of(p, sent[p]);
                    s_write[p] <= WRITERS[p] && sent[p] % 2 == 1;
                    s_atomic[4*p +: 4] <= WRITERS[p] ? sent[p] >> 1 : 0;
                    s_wdata[W*p +: W] <= ~data_of(addr_of(p, sent[p]));
                    s_wstrb[W/8*p +: W/8] <= addr_of(p, sent[p]) >> 6;
                end
                r_ready[p] <= $urandom % 3 != 0;
            end
            mq_ready <= $urandom % 3 != 0;
            // Memory response side.
            if (!(mr_valid && !mr_ready)) begin
                if (head < tail && mq_time[head % 4096] <= cycle + 1 && !(mr_valid && mr_ready && head + 0 >= tail)) begin
                    mr_valid <= 1; mr_tag <= mq_t[head % 4096]; mr_data <= data_of(mq_a[head % 4096]);
                end else mr_valid <= 0;
            end
        end
    end
    initial begin
        cycle = 0; head = 0; tail = 0; done = 0;
        for (p = 0; p < P; p = p + 1) begin sent[p] = 0; arrived[p] = 0; answered[p] = 0; waiting[p] = 0; end
        repeat (3) @(negedge clk); rst = 0;
        done_ports = 0;
        while (done_ports != P) begin
            @(negedge clk);
            done_ports = 0;
            for (p = 0; p < P; p = p + 1) if (answered[p] == N) done_ports = done_ports + 1;
            if (cycle > 200000) begin $display("FAIL timeout (writers %b)", WRITERS); $fatal(1); end
        end
        $display("case writers %b: %0d cycles", WRITERS, cycle);
        done = 1;
    end
endmodule

module tb_interconnect;
    reg clk = 0; always #5 clk = ~clk;
    wire [2:0] done;
    ic_case #(.WRITERS(3'b111), .NWRITE(3)) all_write (.clk(clk), .done(done[0]));
    ic_case #(.WRITERS(3'b010), .NWRITE(1)) middle_writes (.clk(clk), .done(done[1]));
    ic_case #(.WRITERS(3'b000), .NWRITE(0)) none_write (.clk(clk), .done(done[2]));
    always @(posedge clk) if (&done) begin $display("PASS tb_interconnect"); $finish; end
endmodule
