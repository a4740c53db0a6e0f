// tb_mem_route: clhls_mem_route between one unit and NMEM = 2 and 4 memory ports
// (interconnect models). The unit issues numbered requests whose addresses name a
// port in the select bits (random bits above and below them), staying on one port for
// a few requests and then moving to another, under random valid gaps; each
// interconnect model takes requests with a random ready and answers its own in order
// after a random delay (0 to 11 cycles); the unit takes answers with a random ready in
// phases (mostly ready, mostly stalled). Then a stream of 64 requests to one port with
// every ready held at 1 must move one per cycle. Checked every cycle:
//   - a request reaches the port its address names, exactly once, and only when the
//     unit's request moves (none lost, none duplicated, none to another port);
//   - s_req_ready is that port's ready while nothing is in flight or the port is the
//     one of the requests in flight, else 0 (a request to another port waits until
//     every answer owed is taken);
//   - the unit's answer is the oldest request's, with its data, taken from its port
//     exactly once; no answer while none is owed;
//   - mid-cycle, the valid inputs (s_req_valid, s_resp_valid) and then the ready inputs
//     (m_req_ready, m_resp_ready) are inverted for 1 ns: s_req_ready and s_resp_ready,
//     then m_req_valid, m_resp_valid and m_resp_rdata must not move.
// At the end every request was answered and taken, every model's queue is empty, and
// enough requests waited for another port's answers and moved between ports to have
// exercised the rule.
`timescale 1ns/1ps

module mem_route_check #(parameter NMEM = 2, parameter SEL_LO = 12, parameter MEM_W = 32) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam SW = $clog2(NMEM);
    localparam N = 3000;    // random requests
    localparam T = 64;      // streamed requests
    localparam QD = 4096;   // a model's queue (more than all requests)

    // ---- the unit, the route and the interconnect models ----
    reg                  u_valid = 0;   // the unit's request
    wire                 u_ready;
    reg  [63:0]          u_addr = 0;
    wire [NMEM-1:0]      q_valid;       // to the interconnects
    reg  [NMEM-1:0]      q_ready = 0;
    reg  [NMEM-1:0]      a_valid = 0;   // the interconnects' answers
    wire [NMEM-1:0]      a_ready;
    reg  [NMEM*MEM_W-1:0] a_data = 0;
    wire                 r_valid;       // to the unit
    reg                  r_ready = 0;
    wire [MEM_W-1:0]     r_data;
    reg                  probe_v = 0, probe_r = 0;  // invert the valid, the ready inputs
    /* verilator lint_off UNUSEDSIGNAL */
    wire                 still;
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_mem_route #(.NMEM(NMEM), .SEL_LO(SEL_LO), .MEM_W(MEM_W)) dut (
        .clk(clk), .rst(rst),
        .s_req_valid(u_valid ^ probe_v), .s_req_ready(u_ready), .s_req_addr(u_addr),
        .m_req_valid(q_valid), .m_req_ready(q_ready ^ {NMEM{probe_r}}),
        .s_resp_valid(a_valid ^ {NMEM{probe_v}}), .s_resp_ready(a_ready), .s_resp_rdata(a_data),
        .m_resp_valid(r_valid), .m_resp_ready(r_ready ^ probe_r), .m_resp_rdata(r_data),
        .still(still));

    function [MEM_W-1:0] data_of(input integer n);
        integer b;
        begin
            for (b = 0; b < MEM_W; b = b + 32) data_of[b +: 32] = (n + 1) * 32'h9E3779B1 + b;
        end
    endfunction

    // A random address in port q.
    function [63:0] addr_in(input integer q);
        begin
            addr_in = {$urandom, $urandom};
            addr_in[SEL_LO +: SW] = q[SW-1:0];
        end
    endfunction

    // ---- the model ----
    integer e_port [0:N+T-1];            // each request's port
    integer pq_n [0:NMEM*QD-1];          // each model's queue: request number,
    integer pq_t [0:NMEM*QD-1];          //   cycle from which it may answer
    integer ph [0:NMEM-1], pt [0:NMEM-1];// the queues' heads and tails
    integer cycle, sent, taken, limit, cur, phase, u_port, uq, p, ap, moved, a_moved;
    integer waits, switches, first_take;  // coverage; the stream's first request
    reg     n_ready, n_rv; reg [NMEM-1:0] n_qv, n_ar; reg [MEM_W-1:0] n_rd;

    task fail(input [8*80-1:0] what);
        begin
            $display("FAIL tb_mem_route [NMEM %0d] cycle %0d request %0d answer %0d: %0s",
                     NMEM, cycle, sent, taken, what);
            $fatal(1);
        end
    endtask

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            uq = {{(32 - SW){1'b0}}, u_addr[SEL_LO +: SW]};
            // Requests: to the address's port, once, only with the unit's, and to
            // another port only when no answer is owed.
            moved = 0;
            for (p = 0; p < NMEM; p = p + 1) begin
                if (q_valid[p] && !u_valid) fail("a request the unit did not make");
                if (q_valid[p] && p != uq) fail("a request to a port its address does not name");
                if (q_valid[p] && sent != taken && p != cur)
                    fail("a request to another port while answers are owed");
                if (q_valid[p] && q_ready[p]) moved = moved + 1;
            end
            if (u_ready !== (q_ready[uq] && (sent == taken || uq == cur)))
                fail("s_req_ready is not the port's ready under the order rule");
            if (u_valid && u_ready) begin
                if (moved != 1 || !(q_valid[uq] && q_ready[uq]))
                    fail("the request did not reach its port exactly once");
                if (sent != 0 && uq != cur) switches = switches + 1;
                if (sent >= N + T) fail("more requests than issued");
                e_port[sent] = uq;
                pq_n[uq*QD + pt[uq] % QD] = sent;
                pq_t[uq*QD + pt[uq] % QD] = cycle + (phase == 1 ? 3 : $urandom % 12);
                pt[uq] = pt[uq] + 1;
                cur = uq;
                if (phase == 1 && sent == N) first_take = cycle;
                if (phase == 1 && sent == N + T - 1 && cycle - first_take != T - 1)
                    fail("a stream to one port below one request per cycle");
                sent = sent + 1;
            end else if (moved != 0) begin
                fail("a request reached a port without the unit's moving");
            end
            if (u_valid && !u_ready && sent != taken && uq != cur) waits = waits + 1;

            // Answers: the oldest request's, from its port, once.
            a_moved = 0; ap = -1;
            for (p = 0; p < NMEM; p = p + 1)
                if (a_valid[p] && a_ready[p]) begin a_moved = a_moved + 1; ap = p; end
            if (taken < sent) begin
                if (r_valid !== a_valid[e_port[taken]]) fail("the answer offered is not the oldest request's port's");
            end else if (r_valid !== 1'b0) begin
                fail("an answer while none is owed");
            end
            if (r_valid && r_data !== data_of(taken)) fail("the answer's data is not the oldest request's");
            if (r_valid && r_ready) begin
                if (a_moved != 1 || ap != e_port[taken]) fail("the answer was not taken from its port exactly once");
                taken = taken + 1;
            end else if (a_moved != 0) begin
                fail("a port's answer taken without the unit's taking it");
            end

            // The interconnect models: in order, each answer after its delay, held
            // until taken.
            for (p = 0; p < NMEM; p = p + 1) begin
                if (a_valid[p] && a_ready[p]) ph[p] = ph[p] + 1;
                if (!(a_valid[p] && !a_ready[p])) begin
                    if (ph[p] < pt[p] && pq_t[p*QD + ph[p] % QD] <= cycle) begin
                        a_valid[p] <= 1'b1;
                        a_data[p*MEM_W +: MEM_W] <= data_of(pq_n[p*QD + ph[p] % QD]);
                    end else begin
                        a_valid[p] <= 1'b0;
                    end
                end
                q_ready[p] <= phase == 1 || ($urandom % 100) < 70;
            end
            r_ready <= phase == 1 || ($urandom % 100) < ((cycle / 97) % 2 ? 90 : 20);

            // The unit: holds a request until it moves; runs of requests to one port.
            if (!(u_valid && !u_ready)) begin
                if (phase == 1)
                    u_port = NMEM - 1;
                else if (($urandom % 100) < 35)
                    u_port = $urandom % NMEM;
                u_valid <= sent < limit && (phase == 1 || ($urandom % 4) != 0);
                u_addr  <= addr_in(u_port);
            end
        end
    end

    // Mid-cycle: no ready output follows the valid inputs, no valid output the ready
    // inputs.
    always @(negedge clk) begin
        if (!rst) begin
            n_ready = u_ready; n_ar = a_ready; n_qv = q_valid; n_rv = r_valid; n_rd = r_data;
            probe_v = 1; #1;
            if (u_ready !== n_ready || a_ready !== n_ar) fail("a ready moved with the valid inputs");
            probe_v = 0; probe_r = 1; #1;
            if (q_valid !== n_qv || r_valid !== n_rv || r_data !== n_rd)
                fail("a valid or the answer moved with the ready inputs");
            probe_r = 0;
        end
    end

    initial begin
        done = 0; cycle = 0; sent = 0; taken = 0; limit = 0; cur = 0; phase = 0; u_port = 0;
        waits = 0; switches = 0; first_take = -1;
        for (p = 0; p < NMEM; p = p + 1) begin ph[p] = 0; pt[p] = 0; end
        @(negedge rst);
        // random traffic
        limit = N;
        while (taken < N) @(posedge clk);
        @(negedge clk);
        // a stream to one port, every ready at 1: one request per cycle
        phase = 1; limit = N + T;
        while (taken < N + T) @(posedge clk);
        repeat (3) @(posedge clk);
        if (sent != N + T) fail("requests left over");
        for (p = 0; p < NMEM; p = p + 1)
            if (ph[p] != pt[p] || a_valid[p]) fail("a model still holds answers");
        if (waits < 200 || switches < 200) fail("too few requests waited for or moved to another port");
        $display("NMEM %0d: %0d requests, %0d moved to another port, %0d cycles waited for answers",
                 NMEM, sent, switches, waits);
        done = 1;
    end
endmodule

module tb_mem_route;
    reg clk = 0, rst = 1;
    always #5 clk = ~clk;
    wire [1:0] done;
    mem_route_check #(.NMEM(2), .SEL_LO(12), .MEM_W(32)) two (.clk(clk), .rst(rst), .done(done[0]));
    mem_route_check #(.NMEM(4), .SEL_LO(33), .MEM_W(64)) four (.clk(clk), .rst(rst), .done(done[1]));
    initial begin
        repeat (3) @(posedge clk);
        rst = 0;
        wait (&done);
        $display("PASS tb_mem_route");
        $finish;
    end
    initial begin
        #2000000;
        $display("FAIL tb_mem_route: timeout");
        $fatal(1);
    end
endmodule
