// tb_fifo: clhls_fifo (DEPTH 1, 3, 4, 5 with a head register; 40, a block RAM, and
// with HEAD_REG a head register) and clhls_skid under random back-pressure.
// Each instance carries a numbered sequence; the receiver checks every word and the
// fifo's occupancy; a final phase without back-pressure checks full throughput.
`timescale 1ns/1ps
module stream_check #(parameter KIND = 0, parameter DEPTH = 4, parameter HEAD_REG = 0, parameter N = 3000) (
    input wire clk, input wire rst, output reg done);
    localparam CW = $clog2(DEPTH + 1);
    reg s_valid; wire s_ready; reg [31:0] s_data;
    wire m_valid; reg m_ready; wire [31:0] m_data; wire [CW-1:0] count;
    integer sent, recvd, occ, phase_cycles, fast_transfers;
    generate if (KIND == 0) begin : f
        clhls_fifo #(.WIDTH(32), .DEPTH(DEPTH), .HEAD_REG(HEAD_REG)) dut (.clk(clk), .rst(rst), .s_valid(s_valid),
            .s_ready(s_ready), .s_data(s_data), .m_valid(m_valid), .m_ready(m_ready),
            .m_data(m_data), .count(count));
    end else begin : s
        clhls_skid #(.WIDTH(32)) dut (.clk(clk), .rst(rst), .s_valid(s_valid), .s_ready(s_ready),
            .s_data(s_data), .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data));
        assign count = 0;
    end endgenerate
    function [31:0] word(input integer n); word = n * 32'h9E3779B1 ^ 32'h5A5A0000; endfunction
    wire fast = (recvd >= N - 400);   // last 400: no back-pressure
    always @(posedge clk) begin
        if (rst) begin
            s_valid <= 0; m_ready <= 0; sent = 0; recvd = 0; occ = 0; done <= 0;
            phase_cycles = 0; fast_transfers = 0;
        end else begin
            if (s_valid && s_ready) begin sent = sent + 1; occ = occ + 1; end
            if (m_valid && m_ready) begin
                if (m_data !== word(recvd)) begin
                    $display("FAIL kind %0d depth %0d: word %0d is %h, expected %h", KIND, DEPTH, recvd, m_data, word(recvd));
                    $fatal(1);
                end
                recvd = recvd + 1; occ = occ - 1;
                if (fast) fast_transfers = fast_transfers + 1;
            end
            if (fast) phase_cycles = phase_cycles + 1;
            if (KIND == 0 && recvd < N) begin
                #1;  // count updates at this edge; compare after it settles
                if (count !== occ[CW-1:0]) begin $display("FAIL depth %0d: count %0d, expected %0d", DEPTH, count, occ); $fatal(1); end
            end
            // Hold valid until accepted; otherwise random gaps.
            if (!(s_valid && !s_ready)) s_valid <= (sent < N) && (fast || ($urandom % 3 != 0));
            s_data <= word(sent);
            m_ready <= fast || ($urandom % 2 == 0);
            if (recvd == N && !done) begin
                done <= 1;
                // 400 words in about 400 cycles (DEPTH 1: one word every other cycle).
                if (phase_cycles > ((KIND == 0 && DEPTH == 1) ? 800 : 400) + 8) begin $display("FAIL kind %0d depth %0d: throughput %0d cycles for 400", KIND, DEPTH, phase_cycles); $fatal(1); end
            end
        end
    end
endmodule

module tb_fifo;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    wire [6:0] done;
    stream_check #(.KIND(0), .DEPTH(1)) d1 (.clk(clk), .rst(rst), .done(done[0]));
    stream_check #(.KIND(0), .DEPTH(3)) d3 (.clk(clk), .rst(rst), .done(done[1]));
    stream_check #(.KIND(0), .DEPTH(4)) d4 (.clk(clk), .rst(rst), .done(done[2]));
    stream_check #(.KIND(0), .DEPTH(5)) d5 (.clk(clk), .rst(rst), .done(done[3]));
    stream_check #(.KIND(0), .DEPTH(40)) d40 (.clk(clk), .rst(rst), .done(done[4]));
    stream_check #(.KIND(1))            sk (.clk(clk), .rst(rst), .done(done[5]));
    stream_check #(.KIND(0), .DEPTH(40), .HEAD_REG(1)) h40 (.clk(clk), .rst(rst), .done(done[6]));
    integer cycles = 0;
    always @(posedge clk) begin
        cycles = cycles + 1;
        if (cycles == 3) rst <= 0;
        if (&done) begin $display("PASS tb_fifo (%0d cycles)", cycles); $finish; end
        if (cycles > 100000) begin $display("FAIL timeout"); $fatal(1); end
    end
endmodule
