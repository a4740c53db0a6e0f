// tb_local_mem: clhls_local_mem in six configurations (NPORTS 1..5, WORD_W 8..256,
// BANKS 1..8, request/response queues from 1/1 to 3/4 and the defaults 2/8). Each
// port owns a private range of words it writes and reads; a shared range is first
// written by all ports (preload, acknowledged before anyone reads it) and then only
// read by all of them. The reference model is exact: per port, program (acceptance)
// order defines every read's data, byte-strobed partial writes included. Phases:
//   1. preload: every shared word and every private word written once (full strobes);
//   2. random traffic, N requests per port: reads of the shared range (often of a
//      few hot words: broadcast and conflicts), reads and partial/full writes of the
//      port's range (often of a few words: read-after-write), random low address
//      bits, random valid gaps and m_resp_ready in random phases (long stalls too);
//   3. throughput: ports 0..min(NPORTS,BANKS)-1 each stream 64 requests to their own
//      bank, valid and m_resp_ready held at 1: each port's 64 responses within 64 + 4
//      cycles of its first request, no conflict;
//   4. throughput, broadcast: all ports read the same sequence of shared words in
//      lockstep: 64 + 4 cycles, no conflict;
//   5. conflict counts, one request per port all in the same cycle: reads of NPORTS
//      different words of bank 0 (conflicts summed over time = NPORTS(NPORTS-1)/2),
//      reads of one word (0), writes of NPORTS different words of bank 0
//      (NPORTS(NPORTS-1)/2), one write and NPORTS-1 reads of one word of bank 0;
//   6. fairness: all ports stream 64 reads of different words of bank 0: each port is
//      served every NPORTS cycles (round robin), all done within NPORTS * 64 + 4, and
//      conflicts summed = NPORTS(NPORTS-1) * 64 - NPORTS(NPORTS-1)/2 exactly;
//   7. one port writes a shared word while the others read it, in the same cycle;
//      then again with the port first in the priority writing: the write is served
//      alone, NPORTS-1 conflicts, and every read returns the new data (reads and
//      writes of a word never share a cycle).
// Where a write and reads meet in one bank, the priority the memory holds when the
// phase starts (its `ahead` register: least recently served first) gives the count:
// the reads before the write in the priority are served together, then the write,
// then the reads after it, so with b reads after the write the conflicts are 1 + 2b
// (NPORTS-1 when the write is first).
// Checked every cycle: per port, responses in request order with the expected data
// (reads), one response per accepted request, none earlier than 4 cycles (LATENCY) after the
// request handshake, 3 for a write (exactly that in the throughput phases, or 4 for a
// write behind a read); m_resp_valid and rdata
// hold while stalled; accepted and unanswered requests never exceed REQ_DEPTH +
// RESP_DEPTH (and reach it); idle == nothing accepted and unanswered; conflicts <=
// NPORTS - 1. Mid-cycle, every input (valid, write, address, m_resp_ready) is
// inverted for 1 ns: s_req_ready, m_resp_valid, m_resp_rdata, conflicts and idle
// must not move (they come from registers). At the end: all responses received,
// idle, nothing more happens. With -GSLICE=1 the memory has its request slices
// (REQ_SLICE): every latency is a cycle longer and two more requests per port may be
// accepted and unanswered; everything else is checked alike.
// One configuration (WHOLE = 1) writes whole words only, with the memory's WHOLE_WORDS.
`timescale 1ns/1ps

module local_mem_check #(
    parameter NP = 2, AW = 10, WW = 32, BK = 2, RQD = 2, RSD = 8, N = 3000, SLICE = 0, WHOLE = 0
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam WB = WW / 8, WBB = $clog2(WB), CW = $clog2(NP + 1);
    localparam TW = (1 << AW) / WB;                       // words in the memory
    localparam SH = NP * BK * 2;                          // shared words: 2 * NP of them in each bank
    localparam PR = ((TW - SH) / NP) / BK * BK;           // private words per port (multiple of BK)
    localparam QN = 64;                                   // expected-response ring per port
    localparam LAT = 4 + SLICE;                           // clhls_local_mem's LATENCY
    localparam OUT = RQD + RSD + 2 * SLICE;               // accepted and unanswered, at most
    localparam T = 64;                                    // throughput requests per port
    localparam FULL = (RQD >= 2 && RSD >= 3);             // the configuration has full throughput
    localparam NB = (NP < BK) ? NP : BK;                  // ports streaming to their own bank

    // ---- the memory ----
    reg  [NP-1:0] v_r = 0, w_r = 0, mr_r = 0;
    reg  [NP*AW-1:0] a_r = 0;
    reg  [NP*WW-1:0] d_r = 0;
    reg  [NP*WB-1:0] st_r = 0;
    reg  probe = 0;
    wire [NP-1:0] s_ready, m_valid;
    wire [NP*WW-1:0] m_rdata;
    wire [CW-1:0] conflicts;
    wire idle;
    clhls_local_mem #(.NPORTS(NP), .ADDR_W(AW), .WORD_W(WW), .BANKS(BK), .REQ_DEPTH(RQD),
                      .RESP_DEPTH(RSD), .REQ_SLICE(SLICE ? {NP{1'b1}} : {NP{1'b0}}), .WHOLE_WORDS(WHOLE)) dut (
        .clk(clk), .rst(rst),
        .s_req_valid(v_r ^ {NP{probe}}), .s_req_ready(s_ready), .s_req_write(w_r ^ {NP{probe}}),
        .s_req_addr(a_r ^ {(NP*AW){probe}}), .s_req_wdata(d_r), .s_req_wstrb(st_r),
        .m_resp_valid(m_valid), .m_resp_ready(mr_r ^ {NP{probe}}), .m_resp_rdata(m_rdata),
        .conflicts(conflicts), .idle(idle));

    // ---- the model ----
    reg [WW-1:0] sh [0:SH-1];                 // shared words
    reg [WW-1:0] pv [0:NP*PR-1];              // private words, per port
    reg          e_read [0:NP*QN-1];          // expected responses, per port: a read?
    reg          e_wr [0:NP*QN-1];            //   a write? (acknowledged a cycle earlier)
    reg          e_early [0:NP*QN-1];         //   a write answered a cycle early in a stream
    reg [WW-1:0] e_data [0:NP*QN-1];          //   its data
    integer      e_cyc [0:NP*QN-1];           //   cycle of its request handshake
    integer      e_head [0:NP-1], e_tail [0:NP-1];
    integer      gen [0:NP-1];                // requests put on the port in this phase
    integer      limit [0:NP-1];              // requests to put on the port in this phase
    integer      max_out [0:NP-1];            // most accepted and unanswered requests seen
    integer      first_acc [0:NP-1];          // cycle of the port's first request handshake in the phase
    integer      span [0:NP-1];               // cycles from it to the port's latest response
    integer      last_r [0:NP-1], max_gap [0:NP-1];  // latest response, longest time between two
    reg [WW-1:0] bc_word [0:T-1];             // broadcast phase: the word sequence
    integer lat, ec, ep, cycle, mode, p, i, j, wd, pw, k, n_acc, n_resp, conf_sum, pvp, pmp, phase_end, lat_bad;
    integer state, phase, target, wait_until, conf_a, conf_b, mix_writer, predicted;
    // Loop bounds in variables: Verilator does not unroll these loops (faster build).
    integer n_ports, n_bytes;
    reg [NP-1:0] prev_stall; reg [NP*WW-1:0] prev_rdata;
    reg [WW-1:0] val, nd; reg [WB-1:0] ns; reg [AW-1:0] na; reg nw, nv;
    reg [255:0] rnd;

    // Modes of the request generator.
    localparam M_IDLE = 0, M_PRELOAD = 1, M_RANDOM = 2, M_STREAM = 3, M_BCAST = 4,
               M_CONF_DIFF = 5, M_CONF_SAME = 6, M_CONF_WRITES = 7, M_CONF_MIXED = 8, M_FAIR = 9,
               M_MIX1 = 10, M_MIX2 = 11;

    task fail(input [8*72-1:0] what);
        begin
            $display("FAIL tb_local_mem [NPORTS %0d WORD_W %0d BANKS %0d REQ %0d RESP %0d] cycle %0d port %0d: %0s",
                     NP, WW, BK, RQD, RSD, cycle, p, what);
            $fatal(1);
        end
    endtask

    function [AW-1:0] baddr(input integer word);  // a byte address inside `word`
        begin
            rnd[31:0] = $urandom;
            baddr = word * WB + rnd[WBB:0] % WB;
        end
    endfunction

    // The next request of port p in the current mode (nv = 0: none).
    task next_request;
        begin
            nv = 0; nw = 0; na = 0; rnd = {$urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom, $urandom};
            nd = rnd[WW-1:0]; ns = {WB{1'b1}};
            if (gen[p] < limit[p]) begin
                case (mode)
                    M_PRELOAD: begin
                        nv = ($urandom % 100) < 70; nw = 1;
                        // Its share of the shared words (w % NP == p), then its own words.
                        k = (SH - p + NP - 1) / NP;
                        if (gen[p] < k) na = baddr(p + gen[p] * NP);
                        else na = baddr(SH + p * PR + gen[p] - k);
                    end
                    M_RANDOM: begin
                        nv = ($urandom % 100) < pvp;
                        k = $urandom % 100;
                        pw = ($urandom % 2) ? PR : ((PR < 3 * BK) ? PR : 3 * BK);  // sometimes a small window
                        if (k < 40) begin
                            na = baddr(($urandom % 2) ? $urandom % SH : $urandom % ((SH < 4) ? SH : 4));
                        end else if (k < 70) begin
                            na = baddr(SH + p * PR + $urandom % pw);
                        end else begin
                            nw = 1;
                            na = baddr(SH + p * PR + $urandom % pw);
                            case ($urandom % 4)
                                0: ns = {WB{1'b1}};
                                1: ns = {WB{1'b1}} << ($urandom % WB);
                                2: ns = {{(WB-1){1'b0}}, 1'b1} << ($urandom % WB);
                                default: ns = rnd[255 -: WB];
                            endcase
                        end
                    end
                    M_STREAM: begin
                        // Own bank p: words p, p + BK, .. of the port's range; reads and writes.
                        nv = 1; nw = $urandom % 2;
                        na = baddr(SH + p * PR + p + ($urandom % (PR / BK)) * BK);
                    end
                    M_BCAST: begin nv = 1; na = baddr(bc_word[gen[p]]); end
                    M_CONF_DIFF: begin nv = 1; na = baddr(p * BK); end
                    M_FAIR: begin nv = 1; na = baddr((p + NP * (gen[p] % 2)) * BK); end
                    M_MIX1, M_MIX2: begin nv = 1; nw = (p == mix_writer); na = baddr(BK); nd = ~sh[BK]; end
                    M_CONF_SAME: begin nv = 1; na = baddr(BK); end
                    M_CONF_WRITES: begin nv = 1; nw = 1; na = baddr(SH + p * PR); end
                    M_CONF_MIXED: begin
                        nv = 1;
                        if (p == 0) begin nw = 1; na = baddr(SH); end
                        else na = baddr(0);
                    end
                    default: nv = 0;
                endcase
            end
            if (nv) gen[p] = gen[p] + 1;
            v_r[p] <= nv;
            w_r[p] <= nw;
            a_r[p*AW +: AW] <= na;
            d_r[p*WW +: WW] <= nd;
            st_r[p*WB +: WB] <= WHOLE != 0 ? {WB{1'b1}} : ns;
        end
    endtask

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            if (conflicts > NP - 1) begin p = 0; fail("more conflicts than ports - 1"); end
            conf_sum = conf_sum + conflicts;
            if (idle !== (n_acc == n_resp)) begin p = 0; fail("idle differs from 'all requests answered'"); end
            for (p = 0; p < n_ports; p = p + 1) begin
                // ---- output stability ----
                if (prev_stall[p] && (!m_valid[p] || m_rdata[p*WW +: WW] !== prev_rdata[p*WW +: WW]))
                    fail("response changed while stalled");
                // ---- latency of the oldest outstanding request ----
                if (m_valid[p]) begin
                    if (e_head[p] == e_tail[p]) fail("response without a request");
                    ec = p*QN + e_head[p] % QN;
                    lat = cycle - e_cyc[ec];
                    if (lat < LAT - e_wr[ec]) fail("response earlier than LATENCY cycles (a write's: LATENCY - 1)");
                    if ((mode == M_STREAM || mode == M_BCAST) && FULL &&
                        lat != LAT - e_early[ec])
                        lat_bad = lat_bad + 1;
                end
                // ---- a response is taken ----
                if (m_valid[p] && mr_r[p]) begin
                    k = p*QN + e_head[p] % QN;
                    if (e_read[k] && m_rdata[p*WW +: WW] !== e_data[k]) begin
                        $display("got %h expected %h", m_rdata[p*WW +: WW], e_data[k]);
                        fail("wrong read data");
                    end
                    e_head[p] = e_head[p] + 1;
                    n_resp = n_resp + 1;
                    span[p] = cycle - first_acc[p] + 1;
                    if (last_r[p] >= 0 && cycle - last_r[p] > max_gap[p]) max_gap[p] = cycle - last_r[p];
                    last_r[p] = cycle;
                end
            end
            // ---- requests accepted: all writes of the cycle first (only the mix phases
            // read a word another port writes; they expect the write served first) ----
            for (pw = 0; pw < 2; pw = pw + 1)
            for (p = 0; p < n_ports; p = p + 1) begin
                if (v_r[p] && s_ready[p] && (w_r[p] == (pw == 0))) begin
                    if (e_tail[p] - e_head[p] >= QN) fail("testbench ring overflow");
                    if (e_tail[p] - e_head[p] + 1 > OUT) fail("more than REQ_DEPTH + RESP_DEPTH (+ the slice) outstanding");
                    wd = a_r[p*AW +: AW] >> WBB;
                    k = p*QN + e_tail[p] % QN;
                    // In the first mix phase the order of the write and the reads is not known.
                    e_read[k] = !w_r[p] && mode != M_MIX1;
                    e_wr[k] = w_r[p];
                    // In a stream each request is accessed the cycle after the one before;
                    // a write is answered as it is written unless the answer before it
                    // comes from the read register in that cycle (a read, or a write
                    // behind one).
                    ep = p*QN + (e_tail[p] + QN - 1) % QN;
                    e_early[k] = w_r[p] && !(e_tail[p] > 0 && e_cyc[ep] == cycle - 1 && !e_early[ep]);
                    e_cyc[k] = cycle;
                    if (wd < SH) begin
                        val = sh[wd];
                        for (j = 0; j < n_bytes; j = j + 1)
                            if (w_r[p] && st_r[p*WB + j]) val[8*j +: 8] = d_r[p*WW + 8*j +: 8];
                        sh[wd] = val;
                    end else begin
                        i = wd - SH - p * PR;
                        if (i < 0 || i >= PR) fail("testbench: address outside the port's range");
                        val = pv[p*PR + i];
                        for (j = 0; j < n_bytes; j = j + 1)
                            if (w_r[p] && st_r[p*WB + j]) val[8*j +: 8] = d_r[p*WW + 8*j +: 8];
                        pv[p*PR + i] = val;
                    end
                    e_data[k] = val;
                    if (first_acc[p] < 0) first_acc[p] = cycle;
                    e_tail[p] = e_tail[p] + 1;
                    n_acc = n_acc + 1;
                end
                if (e_tail[p] - e_head[p] > max_out[p]) max_out[p] = e_tail[p] - e_head[p];
            end
            prev_stall = m_valid & ~mr_r;
            prev_rdata = m_rdata;

            // ---- random phases ----
            if (mode == M_RANDOM && cycle >= phase_end) begin
                case ($urandom % 6)
                    0: begin pvp = 100; pmp = 100; end
                    1: begin pvp = 60;  pmp = 60;  end
                    2: begin pvp = 100; pmp = 0;   end  // consumer stalled: the queues fill up
                    3: begin pvp = 20;  pmp = 100; end
                    4: begin pvp = 90;  pmp = 30;  end
                    default: begin pvp = 80; pmp = 95; end
                endcase
                phase_end = cycle + ((pmp == 0) ? 10 + $urandom % 60 : 20 + $urandom % 300);
            end

            sequencer;

            // ---- next requests and m_resp_ready ----
            for (p = 0; p < n_ports; p = p + 1) begin
                if (!(v_r[p] && !s_ready[p])) next_request;
                mr_r[p] <= (mode == M_RANDOM || mode == M_PRELOAD) ? (($urandom % 100) < pmp) : 1'b1;
            end
        end
    end

    // Mid-cycle: the outputs must not depend on the inputs.
    reg [NP-1:0] o_ready, o_valid; reg [NP*WW-1:0] o_rdata; reg [CW-1:0] o_conf; reg o_idle;
    always @(negedge clk) if (!rst) begin
        o_ready = s_ready; o_valid = m_valid; o_rdata = m_rdata; o_conf = conflicts; o_idle = idle;
        probe = 1;
        #1;
        if (s_ready !== o_ready || m_valid !== o_valid || m_rdata !== o_rdata || conflicts !== o_conf ||
            idle !== o_idle) begin p = 0; fail("an output depends combinationally on an input"); end
        probe = 0;
    end

    // ---- the memory's priority (white box: its `ahead` register) ----

    // Port x goes before port y.
    function goes_before(input integer x, input integer y);
        begin
            if (x < y) goes_before = dut.ahead[x*NP + y];
            else       goes_before = !dut.ahead[y*NP + x];
        end
    endfunction

    // The port before all others (`unused` only gives the function an input).
    function integer first_port(input integer unused);
        integer x, y, behind;
        begin
            first_port = unused;
            for (x = 0; x < NP; x = x + 1) begin
                behind = 0;
                for (y = 0; y < NP; y = y + 1)
                    if (y != x && goes_before(x, y)) behind = behind + 1;
                if (behind == NP - 1) first_port = x;
            end
        end
    endfunction

    // Conflicts when port w writes and the others read, in one bank, in the same cycle.
    function integer write_conflicts(input integer w);
        integer y, b;
        begin
            b = 0;
            for (y = 0; y < NP; y = y + 1)
                if (y != w && goes_before(w, y)) b = b + 1;
            write_conflicts = (NP == 1) ? 0 : (b == NP - 1) ? NP - 1 : 1 + 2 * b;
        end
    endfunction

    // ---- phase sequencer (runs in the clocked block: see the note on `initial` below) ----

    // Called by the clocked block each cycle, after the checks. Phases: 0 preload,
    // 1 random, 2 own-bank stream, 3 broadcast stream, 4..7 conflict counts, 8 all
    // ports streaming different words of bank 0 (round-robin fairness), 9 and 10 one
    // port writing the word the others read.
    task sequencer;
        case (state)
            0: if (cycle >= 6) begin
                // A few cycles after reset: on to the preload.
                pmp = 70;
                phase = -1;
                wait_until = cycle;
                state = 2;
            end
            1: begin
                // The phase runs until every request was made and answered.
                if (n_acc == target && n_resp == n_acc) begin
                    mode = M_IDLE;
                    wait_until = cycle + 3;
                    state = 2;
                end
                if (cycle > 2000000) begin p = 0; fail("timeout"); end
            end
            2: if (cycle >= wait_until) begin
                p = 0;
                if (!idle) fail("not idle after a phase");
                // ---- checks of the phase that ended ----
                conf_a = -1; conf_b = -1;
                case (phase)
                    1: for (p = 0; p < n_ports; p = p + 1)
                        if (max_out[p] != OUT) fail("never REQ_DEPTH + RESP_DEPTH (+ the slice) requests outstanding");
                    2, 3: begin
                        k = (phase == 2) ? NB : NP;
                        for (p = 0; p < k; p = p + 1)
                            if (FULL && span[p] > T + LAT) begin
                                $display("%0d requests took %0d cycles", T, span[p]);
                                fail(phase == 2 ? "own-bank stream not at full throughput" :
                                                  "broadcast stream not at full throughput");
                            end
                        p = 0;
                        if (conf_sum != 0) fail("conflicts in a stream");
                        if (lat_bad != 0) fail("stream latency not 4 (3: a write not behind a read)");
                        $display("  %0s stream: %0d requests per port (ports 0..%0d) in %0d cycles",
                                 (phase == 2) ? "own-bank" : "broadcast", T, k - 1, span[0]);
                    end
                    4, 6: begin conf_a = NP * (NP - 1) / 2; conf_b = conf_a; end
                    5: begin conf_a = 0; conf_b = 0; end
                    7, 9: begin conf_a = predicted; conf_b = predicted; end
                    8: begin
                        // Least recently served first: with every port always asking, each is served
                        // every NPORTS cycles.
                        for (p = 0; p < n_ports; p = p + 1)
                            if (FULL && max_gap[p] > NP) begin
                                $display("port %0d waited %0d cycles between responses", p, max_gap[p]);
                                fail("bank arbitration not round-robin");
                            end
                        p = 0;
                        if (FULL && span[NP-1] > NP * T + LAT) fail("fair stream too slow");
                        // Every cycle all ports still streaming compete and one is served:
                        // NP(NP-1) per round of NP cycles, less the last, partial round.
                        if (FULL && conf_sum != NP * (NP - 1) * T - NP * (NP - 1) / 2)
                            fail("conflicts of the one-bank stream differ from the prediction");
                        $display("  one-bank stream, %0d ports: %0d reads each in %0d cycles, conflicts %0d",
                                 NP, T, span[NP-1], conf_sum);
                    end
                    10: begin conf_a = (NP > 1) ? NP - 1 : 0; conf_b = conf_a; end
                    default: ;
                endcase
                p = 0;
                if (conf_a >= 0 && conf_sum != conf_a && conf_sum != conf_b) begin
                    $display("phase %0d: conflicts summed %0d, expected %0d or %0d", phase, conf_sum, conf_a, conf_b);
                    fail("conflict count");
                end
                // ---- the next phase ----
                phase = phase + 1;
                k = 1; i = NP;
                case (phase)
                    0: begin j = M_PRELOAD; k = (SH + NP - 1) / NP + PR; end
                    1: begin j = M_RANDOM; k = N; end
                    2: begin j = M_STREAM; k = T; i = NB; end
                    3: begin j = M_BCAST; k = T; end
                    4: j = M_CONF_DIFF;
                    5: j = M_CONF_SAME;
                    6: j = M_CONF_WRITES;
                    7: begin j = M_CONF_MIXED; predicted = write_conflicts(0); end
                    8: begin j = M_FAIR; k = T; end
                    9: begin j = M_MIX1; mix_writer = 0; predicted = write_conflicts(0); end
                    10: begin j = M_MIX2; mix_writer = first_port(0); end
                    default: j = M_IDLE;
                endcase
                if (j != M_IDLE) begin
                    // Start it: k requests on each of ports 0..i-1.
                    target = n_acc;
                    for (p = 0; p < n_ports; p = p + 1) begin
                        gen[p] = 0;
                        limit[p] = (p < i) ? k : 0;
                        target = target + limit[p];
                        first_acc[p] = -1;
                        span[p] = 0;
                        last_r[p] = -1;
                        max_gap[p] = 0;
                    end
                    conf_sum = 0;
                    lat_bad = 0;
                    mode = j;
                    state = 1;
                end else begin
                    wait_until = cycle + 20;
                    state = 3;
                end
            end
            3: begin
                // Nothing may happen any more.
                p = 0;
                if (m_valid != 0 || !idle || n_acc != n_resp) fail("activity at the end");
                if (cycle >= wait_until && !done) begin
                    $display("ok NPORTS %0d WORD_W %0d BANKS %0d REQ %0d RESP %0d: %0d requests, %0d cycles",
                             NP, WW, BK, RQD, RSD, n_acc, cycle);
                    done = 1;
                end
            end
            default: ;
        endcase
    endtask

    // Scalars are initialised here, in a block without delays: Verilator 5.006 may
    // fold a value a delayed process assigned before waiting into its reads after
    // the wait, so the checks and the sequencing live in the clocked blocks.
    initial begin
        n_ports = NP; n_bytes = WB; mix_writer = 0; predicted = 0;
        done = 0; state = 0; phase = 0; target = 0; wait_until = 0;
        cycle = 0; mode = M_IDLE; n_acc = 0; n_resp = 0; conf_sum = 0; pvp = 100; pmp = 100;
        phase_end = 0; prev_stall = 0; prev_rdata = 0; lat_bad = 0;
        for (p = 0; p < n_ports; p = p + 1) begin
            e_head[p] = 0; e_tail[p] = 0; gen[p] = 0; limit[p] = 0; max_out[p] = 0;
            first_acc[p] = -1; span[p] = 0; last_r[p] = -1; max_gap[p] = 0;
        end
        for (i = 0; i < SH; i = i + 1) sh[i] = 0;
        for (i = 0; i < NP * PR; i = i + 1) pv[i] = 0;
        for (i = 0; i < T; i = i + 1) bc_word[i] = $urandom % SH;
    end
endmodule

module tb_local_mem #(parameter SLICE = 0);
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    wire [6:0] done;
    local_mem_check #(.NP(1), .AW(8),  .WW(32),  .BK(1), .RQD(2), .RSD(8), .N(20000), .SLICE(SLICE)) c0 (.clk(clk), .rst(rst), .done(done[0]));
    local_mem_check #(.NP(4), .AW(10), .WW(32),  .BK(4), .RQD(2), .RSD(8), .N(20000), .SLICE(SLICE)) c1 (.clk(clk), .rst(rst), .done(done[1]));
    local_mem_check #(.NP(3), .AW(10), .WW(64),  .BK(2), .RQD(2), .RSD(8), .N(20000), .SLICE(SLICE)) c2 (.clk(clk), .rst(rst), .done(done[2]));
    local_mem_check #(.NP(5), .AW(12), .WW(128), .BK(8), .RQD(2), .RSD(8), .N(20000), .SLICE(SLICE)) c3 (.clk(clk), .rst(rst), .done(done[3]));
    local_mem_check #(.NP(2), .AW(7),  .WW(8),   .BK(2), .RQD(1), .RSD(1), .N(20000), .SLICE(SLICE)) c4 (.clk(clk), .rst(rst), .done(done[4]));
    local_mem_check #(.NP(3), .AW(10), .WW(256), .BK(1), .RQD(3), .RSD(4), .N(20000), .SLICE(SLICE)) c5 (.clk(clk), .rst(rst), .done(done[5]));
    // every write of whole words: the banks with one write enable
    local_mem_check #(.NP(4), .AW(10), .WW(32),  .BK(4), .RQD(2), .RSD(8), .N(20000), .SLICE(SLICE), .WHOLE(1)) c6 (.clk(clk), .rst(rst), .done(done[6]));
    initial begin
        repeat (3) @(negedge clk); rst = 0;
        wait (&done);
        $display("PASS tb_local_mem (7 configurations)");
        $finish;
    end
endmodule
