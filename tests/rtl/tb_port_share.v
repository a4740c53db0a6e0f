// tb_port_share: clhls_port_share in front of port 0 of a real clhls_local_mem, in
// four configurations (N 2..5 requesters, WORD_W 32 and 64, BANKS 1 and 2, request
// buffers of 1 and 2, response reservations of 1 to 4). The memory's port 1 is a
// direct client that contends for the banks. Every client (each requester, and port
// 1) owns a private range of words it writes and reads; a shared range is preloaded
// through port 1 and only read afterwards. The reference model is exact: per client,
// acceptance order defines every read's data, byte-strobed writes included. Phases:
//   1. preload of the shared words through port 1;
//   2. random traffic, 600 requests per client: random valid gaps, reads of the
//      shared and private words, partial and full writes, and each client's
//      m_resp_ready in random phases (long stalls too);
//   3. throughput: one requester alone streams 64 requests, valid and m_resp_ready
//      held at 1: no answer later than 4 cycles (LATENCY) after its request (the unit adds no
//      latency), all 64 within 64 + 4 cycles;
//   4. independence: requester 0 issues requests and then refuses its answers for 400
//      cycles while requester N-1 streams 64 requests: those complete within
//      64 + 4 + 4 cycles (a stalled requester holds up only itself); then requester 0
//      takes its answers, in order;
//   5. sharing: every requester streams 64 requests at once: the port takes one per
//      cycle, all N * 64 within N * 64 + 8 cycles, and round robin keeps the
//      requesters' counts within one of each other while all of them stream.
// Checked every cycle: per client, answers in request order with the expected data
// (reads), none without a request and none earlier than 4 cycles after the request
// handshake; m_resp_valid and its data hold while stalled; idle == nothing accepted
// and unanswered at the unit. Mid-cycle, every input of the unit (valid, data,
// m_resp_ready) is inverted for 1 ns: s_req_ready, m_resp_valid and m_resp_data must
// not move (they come from registers). At the end: all answers received, idle.
// With -GSLICE=1 the memory has its request slices (REQ_SLICE): LATENCY is 5, and the
// configurations that keep a lone requester at full rate reserve one answer more.
`timescale 1ns/1ps

module port_share_check #(
    parameter N = 2, WW = 32, BK = 2, IND = 2, RSD = 4, SLICE = 0
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam LAT = 4 + SLICE;  // clhls_local_mem's LATENCY
    localparam AW = 10, WB = WW / 8, C = N + 1;           // clients: requesters, then port 1
    localparam TW = (1 << AW) / WB;                       // words in the memory
    localparam SH = 8;                                    // shared words
    localparam PR = ((TW - SH) / C) / BK * BK;            // private words per client
    localparam RW = 1 + AW + WW + WB;                     // a request: write, address, data, strobes
    localparam QN = 64;                                   // expected answers per client
    localparam T = 64;                                    // streamed requests
    localparam RANDOM_N = 600;

    // ---- the clients' requests ----
    reg  [C-1:0]    v = 0, mr = 0;
    reg  [C*RW-1:0] rq = 0;
    reg             probe = 0;
    wire [C-1:0]    rdy, rv;
    wire [C*WW-1:0] rd;

    // ---- the unit and the memory ----
    wire            p_req_valid, p_req_ready, p_resp_valid, p_resp_ready;
    wire [RW-1:0]   p_req;
    wire [WW-1:0]   p_resp;
    wire            share_idle, mem_idle;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [1:0]      conflicts;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [2*RW-1:0] mreq = {rq[N*RW +: RW] ^ {RW{probe}}, p_req};
    clhls_port_share #(.N(N), .REQ_W(RW), .WORD_W(WW), .IN_DEPTH(IND), .RESP_DEPTH(RSD)) dut (
        .clk(clk), .rst(rst),
        .s_req_valid(v[N-1:0] ^ {N{probe}}), .s_req_ready(rdy[N-1:0]),
        .s_req_data(rq[N*RW-1:0] ^ {(N*RW){probe}}),
        .m_req_valid(p_req_valid), .m_req_ready(p_req_ready), .m_req_data(p_req),
        .s_resp_valid(p_resp_valid), .s_resp_ready(p_resp_ready), .s_resp_data(p_resp),
        .m_resp_valid(rv[N-1:0]), .m_resp_ready(mr[N-1:0] ^ {N{probe}}),
        .m_resp_data(rd[N*WW-1:0]), .idle(share_idle));
    clhls_local_mem #(.NPORTS(2), .ADDR_W(AW), .WORD_W(WW), .BANKS(BK), .REQ_SLICE(SLICE ? 2'b11 : 2'b00)) mem (
        .clk(clk), .rst(rst),
        .s_req_valid({v[N], p_req_valid}), .s_req_ready({rdy[N], p_req_ready}),
        .s_req_write({mreq[RW+RW-1], mreq[RW-1]}),
        .s_req_addr({mreq[RW+WW+WB +: AW], mreq[WW+WB +: AW]}),
        .s_req_wdata({mreq[RW+WB +: WW], mreq[WB +: WW]}),
        .s_req_wstrb({mreq[RW +: WB], mreq[0 +: WB]}),
        .s_req_atomic(8'd0), .s_req_wide(2'd0), .s_req_cmp({(2*WW){1'b0}}),
        .m_resp_valid({rv[N], p_resp_valid}), .m_resp_ready({mr[N], p_resp_ready}),
        .m_resp_rdata({rd[N*WW +: WW], p_resp}), .conflicts(conflicts), .idle(mem_idle));

    // ---- the model ----
    reg [WW-1:0] sh [0:SH-1];                // shared words
    reg [WW-1:0] pv [0:C*PR-1];              // private words, per client
    reg          pk [0:C*PR-1];              // a private word was written (its value known)
    reg          e_read [0:C*QN-1];          // expected answers, per client: a read?
    reg          e_wr [0:C*QN-1];            //   a write? (acknowledged a cycle earlier)
    reg [WW-1:0] e_data [0:C*QN-1];          //   its data
    integer      e_cyc [0:C*QN-1];           //   cycle of its request handshake
    integer      e_head [0:C-1], e_tail [0:C-1];
    integer      gen [0:C-1], limit [0:C-1]; // requests issued and to issue in the phase
    integer      got [0:C-1];                // answers taken in the phase
    integer      first [0:C-1], last [0:C-1];// first request, latest answer (cycles)
    integer      mode [0:C-1];               // how each client issues: 0 none, 1 random, 2 stream
    integer      rmode [0:C-1];              // how it takes answers: 0 random, 1 always, 2 never
    integer      lat, cycle, p, k, w, lat_bad, spread_bad, owed_share, lone, all_stream;
    reg [C-1:0]  stall_prev, n_rv; reg [C*WW-1:0] rd_prev, n_rd; reg [N-1:0] n_rdy;
    reg          nw; reg [AW-1:0] na; reg [WW-1:0] nd; reg [WB-1:0] ns; reg [WW-1:0] val;

    task fail(input [8*80-1:0] what);
        begin
            $display("FAIL tb_port_share [N %0d WORD_W %0d BANKS %0d IN %0d RESP %0d] cycle %0d client %0d: %0s",
                     N, WW, BK, IND, RSD, cycle, p, what);
            $fatal(1);
        end
    endtask

    function [WW-1:0] rand_word(input integer dummy);
        integer b;
        begin
            for (b = 0; b < WW; b = b + 32) rand_word[b +: 32] = $urandom + dummy;
        end
    endfunction

    // The next request of client p (v[p] = 0: none).
    task next_request;
        begin
            nw = 0; ns = {WB{1'b1}}; nd = rand_word(0);
            w = SH + p * PR + $urandom % ((($urandom % 2) != 0) ? PR : 2 * BK);
            case (mode[p])
                1: begin
                    k = $urandom % 100;
                    if (k < 30) w = $urandom % SH;
                    else if (k >= 60) begin
                        nw = 1;
                        if (($urandom % 3) == 0 && pk[w - SH]) ns = rand_word(0);
                    end
                end
                3: begin nw = 1; w = gen[p]; nd = sh[gen[p]]; end  // the preload
                default: nw = $urandom % 2;
            endcase
            if (w >= SH && !pk[w - SH]) nw = 1;  // a private word is written before it is read
            na = w * WB + $urandom % WB;
            v[p] <= gen[p] < limit[p] && (mode[p] != 1 || ($urandom % 100) < 60);
            rq[p*RW +: RW] <= {nw, na, nd, ns};
        end
    endtask

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            owed_share = 0;
            for (p = 0; p < N; p = p + 1) owed_share = owed_share + e_tail[p] - e_head[p];
            if (share_idle !== (owed_share == 0)) begin p = 0; fail("idle differs from 'all answered'"); end
            if (p_resp_ready !== 1'b1) begin p = 0; fail("s_resp_ready is not 1"); end
            for (p = 0; p < C; p = p + 1) begin
                if (stall_prev[p] && (!rv[p] || rd[p*WW +: WW] !== rd_prev[p*WW +: WW]))
                    fail("answer changed while stalled");
                if (rv[p]) begin
                    if (e_head[p] == e_tail[p]) fail("answer without a request");
                    lat = cycle - e_cyc[p*QN + e_head[p] % QN];
                    if (lat < LAT - e_wr[p*QN + e_head[p] % QN]) fail("answer earlier than LATENCY cycles (a write's: LATENCY - 1)");
                    if (lat > LAT && lone && p == 0)
                        lat_bad = lat_bad + 1;
                end
                if (rv[p] && mr[p]) begin
                    k = p * QN + e_head[p] % QN;
                    if (e_read[k] && rd[p*WW +: WW] !== e_data[k]) fail("wrong read data");
                    e_head[p] = e_head[p] + 1;
                    got[p] = got[p] + 1;
                    last[p] = cycle;
                end
                stall_prev[p] = rv[p] && !mr[p];
                if (v[p] && rdy[p]) begin
                    {nw, na, nd, ns} = rq[p*RW +: RW];
                    w = na / WB;
                    if (e_tail[p] - e_head[p] >= QN) fail("too many requests in flight");
                    k = p * QN + e_tail[p] % QN;
                    e_read[k] = !nw && (w < SH || pk[w - SH]); e_cyc[k] = cycle; e_wr[k] = nw;
                    val = w < SH ? sh[w] : pv[w - SH];
                    if (nw) begin
                        if (w >= SH && !pk[w - SH]) ns = {WB{1'b1}};  // a first write is whole
                        for (k = 0; k < WB; k = k + 1) if (ns[k]) val[8*k +: 8] = nd[8*k +: 8];
                        if (w < SH) sh[w] = val; else begin pv[w - SH] = val; pk[w - SH] = 1; end
                    end
                    e_data[p * QN + e_tail[p] % QN] = val;
                    e_tail[p] = e_tail[p] + 1;
                    if (gen[p] == 0) first[p] = cycle;
                    gen[p] = gen[p] + 1;
                    next_request;
                end else if (!v[p]) begin
                    next_request;
                end
                case (rmode[p])
                    0: mr[p] <= ($urandom % 100) < ((cycle / 97) % 2 ? 90 : 15);
                    1: mr[p] <= 1;
                    default: mr[p] <= 0;
                endcase
            end
            rd_prev = rd;
            // round robin while everyone streams (phase 5)
            if (all_stream)
                for (p = 1; p < N; p = p + 1)
                    if (gen[p] < T && gen[0] < T && (gen[p] - gen[0] > IND + 1 || gen[0] - gen[p] > IND + 1))
                        spread_bad = spread_bad + 1;
        end
    end

    // Mid-cycle: invert every input; the registered outputs must not move.
    always @(negedge clk) begin
        if (!rst) begin
            n_rd = rd; n_rv = rv; n_rdy = rdy[N-1:0];
            probe = 1; #1;
            if (rdy[N-1:0] !== n_rdy || rv[N-1:0] !== n_rv[N-1:0] || rd[N*WW-1:0] !== n_rd[N*WW-1:0]) begin
                p = 0; fail("an output moved with the inputs (not from registers)");
            end
            probe = 0;
        end
    end

    // Client q issues `lim` requests in mode `m` and takes answers in mode `r`.
    task setup(input integer q, input integer lim, input integer m, input integer r);
        begin
            gen[q] = 0; got[q] = 0; first[q] = -1; last[q] = -1;
            limit[q] = lim; mode[q] = m; rmode[q] = r;
        end
    endtask

    task wait_all;
        integer q, busy;
        begin
            busy = 1;
            while (busy) begin
                @(posedge clk);
                busy = 0;
                for (q = 0; q < C; q = q + 1)
                    if (gen[q] < limit[q] || e_head[q] != e_tail[q]) busy = 1;
            end
            @(posedge clk);
        end
    endtask

    localparam FULL = IND >= 2 && RSD >= 5 + SLICE;  // the configuration has full throughput

    initial begin
        done = 0; cycle = 0; lat_bad = 0; spread_bad = 0; stall_prev = 0; rd_prev = 0;
        lone = 0; all_stream = 0;
        for (p = 0; p < C; p = p + 1) begin
            e_head[p] = 0; e_tail[p] = 0; setup(p, 0, 0, 1);
        end
        for (k = 0; k < SH; k = k + 1) sh[k] = rand_word(k);
        for (k = 0; k < C * PR; k = k + 1) begin pv[k] = 0; pk[k] = 0; end
        @(negedge rst);
        // 1: the shared words, through port 1
        setup(N, SH, 3, 1);
        wait_all;
        // 2: random traffic on every client
        for (p = 0; p < C; p = p + 1) setup(p, RANDOM_N, 1, 0);
        wait_all;
        // 3: a lone requester streams
        for (p = 0; p < C; p = p + 1) setup(p, 0, 0, 1);
        lone = FULL;
        setup(0, T, 2, 1);
        wait_all;
        lone = 0;
        if (FULL && last[0] - first[0] > T + LAT) begin p = 0; fail("a lone requester below one per cycle"); end
        if (lat_bad) begin p = 0; fail("a lone requester's answers later than LATENCY cycles"); end
        // 4: requester 0 refuses its answers; requester N-1 streams
        setup(0, 2 * RSD + IND, 2, 2);
        repeat (20) @(posedge clk);
        setup(N - 1, T, 2, 1);
        repeat (400) @(posedge clk);
        if (got[N - 1] != T) begin p = N - 1; fail("held up by a requester that takes no answers"); end
        if (FULL && last[N - 1] - first[N - 1] > T + LAT + 4) begin
            p = N - 1; fail("slowed by a requester that takes no answers");
        end
        if (got[0] != 0) begin p = 0; fail("answered while refusing"); end
        rmode[0] = 1;
        wait_all;
        // 5: every requester streams
        for (p = 0; p < N; p = p + 1) setup(p, T, 2, 1);
        all_stream = 1;
        wait_all;
        all_stream = 0;
        for (p = 1; p < N; p = p + 1) begin
            if (first[p] < first[0]) first[0] = first[p];
            if (last[p] > last[0]) last[0] = last[p];
        end
        if (FULL && last[0] - first[0] > N * T + 8) begin p = 0; fail("the port below one request per cycle"); end
        if (spread_bad) begin p = 0; fail("round robin: a requester fell behind"); end
        repeat (5) @(posedge clk);
        if (!share_idle || !mem_idle) begin p = 0; fail("not idle at the end"); end
        done = 1;
    end
endmodule

module tb_port_share #(parameter SLICE = 0);
    reg clk = 0, rst = 1;
    always #5 clk = ~clk;
    wire [3:0] done;
    port_share_check #(.N(2), .WW(32), .BK(2), .IND(2), .RSD(5 + SLICE), .SLICE(SLICE)) c0 (.clk(clk), .rst(rst), .done(done[0]));
    port_share_check #(.N(3), .WW(64), .BK(1), .IND(2), .RSD(5 + SLICE), .SLICE(SLICE)) c1 (.clk(clk), .rst(rst), .done(done[1]));
    port_share_check #(.N(5), .WW(32), .BK(2), .IND(2), .RSD(8), .SLICE(SLICE)) c2 (.clk(clk), .rst(rst), .done(done[2]));
    port_share_check #(.N(3), .WW(32), .BK(2), .IND(1), .RSD(1), .SLICE(SLICE)) c3 (.clk(clk), .rst(rst), .done(done[3]));
    initial begin
        repeat (3) @(posedge clk);
        rst = 0;
        wait (&done);
        $display("PASS tb_port_share");
        $finish;
    end
    initial begin
        #2000000;
        $display("FAIL tb_port_share: timeout");
        $fatal(1);
    end
endmodule
