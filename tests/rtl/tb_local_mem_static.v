// tb_local_mem_static: clhls_local_mem statically wired (STATIC = 1) in three
// configurations: four ports on four banks, one bank each; two ports on four banks, two
// banks each (a port picks its bank by address), 64-bit words, atomics built; one port,
// one bank. Each port reads and writes only words of its own banks, as the compiler
// proves its accesses do; the reference model (every word of the memory, written in
// acceptance order) gives every read's data exactly. Phases:
//   1. preload: every port writes each word of its banks once (full strobes);
//   2. random traffic, N requests per port: reads and partial/full writes of random
//      words of its banks (often a few hot words: read-after-write), random low address
//      bits, random valid gaps and m_resp_ready in random phases (long stalls too);
//   3. throughput: every port offers a request every cycle (reads and writes of its
//      banks) with m_resp_ready held at 1: 64 requests per port, each answered
//      4 cycles after its handshake (3 for a write not behind a read), all within
//      64 + 4 cycles.
// Checked every cycle: per port, responses in request order with the expected data,
// none earlier than 4 cycles (LATENCY) after the handshake, 3 for a write; m_resp_valid
// and rdata hold while
// stalled; conflicts is 0 (a static memory has no conflict logic); idle == nothing
// accepted and unanswered. At the end: everything answered and idle.
// +wrong: the last port also sends some requests to a bank of port 0 (a wiring the
// compiler did not prove). A statically wired port does not look at bank bits it does
// not need, so the data lands in its own bank: the run must FAIL with wrong read data
// (and, built with CLHLS_SIM_CHECKS, the template reports the address with $error).
`timescale 1ns/1ps

module local_mem_static_check #(
    parameter NP = 4, AW = 10, WW = 32, BK = 4, RQD = 2, RSD = 8, N = 3000, AT = 0,
    parameter [NP*BK-1:0] PB = {NP*BK{1'b1}}
) (
    input  wire clk,
    input  wire rst,
    input  wire wrong,
    output reg  done
);
    localparam WB = WW / 8, WBB = $clog2(WB), CW = $clog2(NP + 1);
    localparam TW = (1 << AW) / WB;                       // words in the memory
    localparam QN = 64;                                   // expected-response ring per port
    localparam LAT = 4;                                   // clhls_local_mem's LATENCY
    localparam T = 64;                                    // throughput requests per port

    reg  [NP-1:0] v_r = 0, w_r = 0, mr_r = 0;
    reg  [NP*AW-1:0] a_r = 0;
    reg  [NP*WW-1:0] d_r = 0;
    reg  [NP*WB-1:0] st_r = 0;
    wire [NP-1:0] s_ready, m_valid;
    wire [NP*WW-1:0] m_rdata;
    wire [CW-1:0] conflicts;
    wire idle;
    clhls_local_mem #(.NPORTS(NP), .ADDR_W(AW), .WORD_W(WW), .BANKS(BK), .REQ_DEPTH(RQD),
                      .RESP_DEPTH(RSD), .ATOMICS(AT), .STATIC(1), .PORT_BANKS(PB)) dut (
        .clk(clk), .rst(rst),
        .s_req_valid(v_r), .s_req_ready(s_ready), .s_req_write(w_r), .s_req_addr(a_r),
        .s_req_wdata(d_r), .s_req_wstrb(st_r), .s_req_atomic({NP*4{1'b0}}),
        .s_req_wide({NP{1'b0}}), .s_req_cmp({NP*WW{1'b0}}),
        .m_resp_valid(m_valid), .m_resp_ready(mr_r), .m_resp_rdata(m_rdata),
        .conflicts(conflicts), .idle(idle));

    reg [WW-1:0] mem [0:TW-1];                // the model: every word
    integer      own [0:NP*TW-1];             // per port: the words of its banks
    integer      nown [0:NP-1];               //   how many
    reg          e_read [0:NP*QN-1];          // expected responses, per port: a read?
    reg          e_wr [0:NP*QN-1];            //   a write? (acknowledged a cycle earlier)
    reg          e_early [0:NP*QN-1];         //   a write answered a cycle early in a stream
    reg [WW-1:0] e_data [0:NP*QN-1];          //   its data
    integer      e_cyc [0:NP*QN-1];           //   cycle of its request handshake
    integer      e_head [0:NP-1], e_tail [0:NP-1];
    integer      gen [0:NP-1], limit [0:NP-1], first_acc [0:NP-1], span [0:NP-1];
    integer lat, ec, ep, cycle, mode, p, i, j, k, wd, n_acc, n_resp, pvp, pmp, phase_end, lat_bad, misrouted;
    integer state, phase, target, wait_until, n_ports, n_bytes;
    reg [NP-1:0] prev_stall; reg [NP*WW-1:0] prev_rdata;
    reg [WW-1:0] val, nd; reg [WB-1:0] ns; reg [AW-1:0] na; reg nw, nv;
    reg [255:0] rnd;

    localparam M_IDLE = 0, M_PRELOAD = 1, M_RANDOM = 2, M_STREAM = 3;

    task fail(input [8*72-1:0] what);
        begin
            $display("FAIL tb_local_mem_static [NPORTS %0d WORD_W %0d BANKS %0d PORT_BANKS %b] cycle %0d port %0d: %0s",
                     NP, WW, BK, PB, cycle, p, what);
            $fatal(1);
        end
    endtask

    function [AW-1:0] baddr(input integer word);  // a byte address inside `word`
        begin
            rnd[31:0] = $urandom;
            baddr = word * WB + rnd[WBB:0] % WB;
        end
    endfunction

    // A word of port p's banks: any, or (hot) one of its first few.
    function integer own_word(input integer hot);
        begin
            own_word = own[p*TW + (hot ? $urandom % 3 : $urandom % nown[p])];
        end
    endfunction

    task next_request;
        begin
            nv = 0; nw = 0; na = 0;
            rnd = {$urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom};
            nd = rnd[WW-1:0]; ns = {WB{1'b1}};
            if (gen[p] < limit[p]) begin
                case (mode)
                    M_PRELOAD: begin nv = ($urandom % 100) < 70; nw = 1; na = baddr(own[p*TW + gen[p]]); end
                    M_RANDOM, M_STREAM: begin
                        nv = mode == M_STREAM || ($urandom % 100) < pvp;
                        nw = ($urandom % 3) == 0;
                        na = baddr(own_word(($urandom % 4) == 0));
                        // +wrong: the last port strays into port 0's first bank.
                        if (wrong && p == NP - 1 && ($urandom % 8) == 0) begin
                            na = baddr(own[$urandom % nown[0]]);
                            misrouted = misrouted + 1;
                        end
                        if (nw)
                            case ($urandom % 4)
                                0: ns = {WB{1'b1}};
                                1: ns = {WB{1'b1}} << ($urandom % WB);
                                2: ns = {{(WB-1){1'b0}}, 1'b1} << ($urandom % WB);
                                default: ns = rnd[255 -: WB];
                            endcase
                    end
                    default: nv = 0;
                endcase
            end
            if (nv) gen[p] = gen[p] + 1;
            v_r[p] <= nv;
            w_r[p] <= nw;
            a_r[p*AW +: AW] <= na;
            d_r[p*WW +: WW] <= nd;
            st_r[p*WB +: WB] <= ns;
        end
    endtask

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            p = 0;
            if (conflicts !== 0) fail("conflicts in a statically wired memory");
            if (idle !== (n_acc == n_resp)) fail("idle differs from 'all requests answered'");
            for (p = 0; p < n_ports; p = p + 1) begin
                if (prev_stall[p] && (!m_valid[p] || m_rdata[p*WW +: WW] !== prev_rdata[p*WW +: WW]))
                    fail("response changed while stalled");
                if (m_valid[p]) begin
                    if (e_head[p] == e_tail[p]) fail("response without a request");
                    ec = p*QN + e_head[p] % QN;
                    lat = cycle - e_cyc[ec];
                    if (lat < LAT - e_wr[ec]) fail("response earlier than LATENCY cycles (a write's: LATENCY - 1)");
                    if (mode == M_STREAM &&
                        lat != LAT - e_early[ec])
                        lat_bad = lat_bad + 1;
                end
                if (m_valid[p] && mr_r[p]) begin
                    k = p*QN + e_head[p] % QN;
                    if (e_read[k] && m_rdata[p*WW +: WW] !== e_data[k]) begin
                        $display("got %h expected %h", m_rdata[p*WW +: WW], e_data[k]);
                        fail("wrong read data");
                    end
                    e_head[p] = e_head[p] + 1;
                    n_resp = n_resp + 1;
                    span[p] = cycle - first_acc[p] + 1;
                end
            end
            for (p = 0; p < n_ports; p = p + 1)
                if (v_r[p] && s_ready[p]) begin
                    if (e_tail[p] - e_head[p] >= QN) fail("testbench ring overflow");
                    wd = a_r[p*AW +: AW] >> WBB;
                    k = p*QN + e_tail[p] % QN;
                    e_read[k] = !w_r[p];
                    e_wr[k] = w_r[p];
                    // In a stream each request is accessed the cycle after the one before;
                    // a write is answered as it is written unless the answer before it
                    // comes from the read register in that cycle (a read, or a write
                    // behind one).
                    ep = p*QN + (e_tail[p] + QN - 1) % QN;
                    e_early[k] = w_r[p] && !(e_tail[p] > 0 && e_cyc[ep] == cycle - 1 && !e_early[ep]);
                    e_cyc[k] = cycle;
                    val = mem[wd];
                    for (j = 0; j < n_bytes; j = j + 1)
                        if (w_r[p] && st_r[p*WB + j]) val[8*j +: 8] = d_r[p*WW + 8*j +: 8];
                    mem[wd] = val;
                    e_data[k] = val;
                    if (first_acc[p] < 0) first_acc[p] = cycle;
                    e_tail[p] = e_tail[p] + 1;
                    n_acc = n_acc + 1;
                end
            prev_stall = m_valid & ~mr_r;
            prev_rdata = m_rdata;

            if (mode == M_RANDOM && cycle >= phase_end) begin
                case ($urandom % 5)
                    0: begin pvp = 100; pmp = 100; end
                    1: begin pvp = 60;  pmp = 60;  end
                    2: begin pvp = 100; pmp = 0;   end  // consumer stalled: the queues fill up
                    3: begin pvp = 20;  pmp = 100; end
                    default: begin pvp = 90; pmp = 30; end
                endcase
                phase_end = cycle + ((pmp == 0) ? 10 + $urandom % 60 : 20 + $urandom % 300);
            end

            sequencer;

            for (p = 0; p < n_ports; p = p + 1) begin
                if (!(v_r[p] && !s_ready[p])) next_request;
                mr_r[p] <= (mode == M_RANDOM || mode == M_PRELOAD) ? (($urandom % 100) < pmp) : 1'b1;
            end
        end
    end

    // Phases: 0 preload, 1 random, 2 every port every cycle.
    task sequencer;
        case (state)
            0: if (cycle >= 6) begin pmp = 70; phase = -1; wait_until = cycle; state = 2; end
            1: begin
                if (n_acc == target && n_resp == n_acc) begin
                    mode = M_IDLE; wait_until = cycle + 3; state = 2;
                end
                if (cycle > 2000000) begin p = 0; fail("timeout"); end
            end
            2: if (cycle >= wait_until) begin
                p = 0;
                if (!idle) fail("not idle after a phase");
                if (phase == 2) begin
                    for (p = 0; p < n_ports; p = p + 1)
                        if (span[p] > T + LAT) begin
                            $display("%0d requests took %0d cycles", T, span[p]);
                            fail("stream not at full throughput");
                        end
                    p = 0;
                    if (lat_bad != 0) fail("stream latency not 4 (3: a write not behind a read)");
                    $display("  stream: %0d ports, %0d requests each in %0d cycles", NP, T, span[0]);
                end
                phase = phase + 1;
                k = 0;
                case (phase)
                    0: begin j = M_PRELOAD; k = -1; end
                    1: begin j = M_RANDOM; k = N; end
                    2: begin j = M_STREAM; k = T; end
                    default: j = M_IDLE;
                endcase
                if (j != M_IDLE) begin
                    target = n_acc;
                    for (p = 0; p < n_ports; p = p + 1) begin
                        gen[p] = 0;
                        limit[p] = (k < 0) ? nown[p] : k;
                        target = target + limit[p];
                        first_acc[p] = -1;
                        span[p] = 0;
                    end
                    lat_bad = 0;
                    mode = j;
                    state = 1;
                end else begin
                    wait_until = cycle + 20;
                    state = 3;
                end
            end
            3: begin
                p = 0;
                if (m_valid != 0 || !idle || n_acc != n_resp) fail("activity at the end");
                if (cycle >= wait_until && !done) begin
                    $display("ok NPORTS %0d WORD_W %0d BANKS %0d PORT_BANKS %b: %0d requests (%0d outside the wiring), %0d cycles",
                             NP, WW, BK, PB, n_acc, misrouted, cycle);
                    done = 1;
                end
            end
            default: ;
        endcase
    endtask

    // Scalars initialised in a block without delays (see tb_local_mem.v).
    initial begin
        n_ports = NP; n_bytes = WB;
        done = 0; state = 0; phase = 0; target = 0; wait_until = 0; misrouted = 0;
        cycle = 0; mode = M_IDLE; n_acc = 0; n_resp = 0; pvp = 100; pmp = 100;
        phase_end = 0; prev_stall = 0; prev_rdata = 0; lat_bad = 0;
        for (i = 0; i < TW; i = i + 1) mem[i] = 0;
        for (p = 0; p < n_ports; p = p + 1) begin
            e_head[p] = 0; e_tail[p] = 0; gen[p] = 0; limit[p] = 0; first_acc[p] = -1; span[p] = 0;
            nown[p] = 0;
            for (i = 0; i < TW; i = i + 1)
                if (PB[p*BK + i % BK]) begin
                    own[p*TW + nown[p]] = i;
                    nown[p] = nown[p] + 1;
                end
        end
    end
endmodule

module tb_local_mem_static;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    reg wrong = 0;
    wire [2:0] done;
    local_mem_static_check #(.NP(4), .AW(10), .WW(32), .BK(4), .PB(16'b1000_0100_0010_0001), .N(3000))
        c0 (.clk(clk), .rst(rst), .wrong(wrong), .done(done[0]));
    local_mem_static_check #(.NP(2), .AW(10), .WW(64), .BK(4), .PB(8'b1100_0011), .AT(16'h0ffe), .N(3000))
        c1 (.clk(clk), .rst(rst), .wrong(1'b0), .done(done[1]));
    local_mem_static_check #(.NP(1), .AW(8), .WW(32), .BK(1), .PB(1'b1), .RQD(2), .RSD(3), .N(3000))
        c2 (.clk(clk), .rst(rst), .wrong(1'b0), .done(done[2]));
    initial begin
        wrong = $test$plusargs("wrong");
        repeat (3) @(negedge clk); rst = 0;
        wait (&done);
        $display("PASS tb_local_mem_static (3 configurations)");
        $finish;
    end
endmodule
