// tb_atomic_unit: clhls_atomic_unit between a requester and a memory model, in three
// configurations (128-bit port, 4 cached lines, 8 requests in flight; 256-bit port, one
// line, 4 in flight; 256-bit port, 4 lines, 8 in flight, built for 32-bit add, cmpxchg
// and min only, which are then the only requests).
//
// The memory model executes reads and writes when it accepts them (random
// m_mem_req_ready), answers in order after a random latency (0..MAXLAT cycles) and
// holds a response until it is taken. Its 8 lines lie in two regions 2^40 bytes apart
// whose lines share cache indices (tags are compared). The requester offers random
// requests (random gaps, random tags, random m_resp_ready): plain reads, plain writes
// with random strobes, atomics of every code on 32- and 64-bit elements of the same
// lines (cmpxchg's expected value the element's current value half of the time; junk
// in the unused wdata bits and in a read's strobes). A reference applies each request
// when the unit accepts it; every answer must come in acceptance order with its tag
// and the reference's value (a read's line, an atomic's old element). Between phases
// the memory is written behind the unit's back and `invalidate` pulses (a kernel
// start); during the random phase it also pulses at random. Phase 4, 20 times: an
// atomic misses, and while its fill is in flight the host writes another lane of that
// line and `invalidate` pulses; an atomic on that lane must then see the host's value
// (the fill must not be installed). Phase 1: every request an add of 1 on one element, the memory
// always ready: exactly one fill (memory read), the old values 0..N-1; the cycles per
// atomic are printed. Checked every cycle: the memory request stays valid and
// unchanged until taken, its tag is 0. At the end memory equals the reference.
`timescale 1ns/1ps

module atomic_unit_check #(
    parameter MW = 128, LINES = 4, DEPTH = 8, N = 20000, ID = 0,
    parameter [15:0] OPS = 16'h0ffe, parameter WIDE = 1
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam PB = MW / 8, OFF_W = $clog2(PB), LANES = MW / 32;
    localparam MAXLAT = 12, HOT = 2000, QN = 4096;
    localparam [63:0] BASE = 64'h0000_0012_3456_0000;

    reg s_valid = 0; wire s_ready; reg s_write = 0; reg [3:0] s_atomic = 0;
    reg [63:0] s_addr = 0; reg [MW-1:0] s_wdata = 0; reg [PB-1:0] s_wstrb = 0;
    reg [15:0] s_tag = 0;
    wire r_valid; reg r_ready = 0; wire [MW-1:0] r_rdata; wire [15:0] r_tag;
    wire mq_valid; reg mq_ready = 0; wire mq_write; wire [63:0] mq_addr;
    wire [MW-1:0] mq_wdata; wire [PB-1:0] mq_wstrb; wire [15:0] mq_tag;
    reg mr_valid = 0; wire mr_ready; reg [MW-1:0] mr_data = 0;
    reg invalidate = 0;

    clhls_atomic_unit #(.MEM_W(MW), .TAG_W(16), .ADDR_W(64), .LINES(LINES), .DEPTH(DEPTH),
                        .OPS(OPS), .WIDE(WIDE)) dut (
        .clk(clk), .rst(rst), .invalidate(invalidate),
        .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_write(s_write),
        .s_req_atomic(s_atomic), .s_req_addr(s_addr), .s_req_wdata(s_wdata),
        .s_req_wstrb(s_wstrb), .s_req_tag(s_tag),
        .m_resp_valid(r_valid), .m_resp_ready(r_ready), .m_resp_rdata(r_rdata), .m_resp_tag(r_tag),
        .m_mem_req_valid(mq_valid), .m_mem_req_ready(mq_ready), .m_mem_req_write(mq_write),
        .m_mem_req_addr(mq_addr), .m_mem_req_wdata(mq_wdata), .m_mem_req_wstrb(mq_wstrb),
        .m_mem_req_tag(mq_tag),
        .s_mem_resp_valid(mr_valid), .s_mem_resp_ready(mr_ready), .s_mem_resp_rdata(mr_data),
        .s_mem_resp_tag(16'd0));

    // The reference of every atomic code, per element width.
    function [63:0] apply(input [3:0] op, input wide, input [63:0] old, input [63:0] v,
                          input [63:0] c);
        reg signed [63:0] so, sv;
        reg [63:0] r, m;
        begin
            m  = wide ? ~64'd0 : 64'hffff_ffff;
            so = wide ? old : {{32{old[31]}}, old[31:0]};
            sv = wide ? v : {{32{v[31]}}, v[31:0]};
            case (op)
                4'd1: r = old + v;  4'd2: r = old - v;  4'd3: r = v;
                4'd4: r = (old & m) == (c & m) ? v : old;
                4'd5: r = sv < so ? v : old;  4'd6: r = sv > so ? v : old;
                4'd7: r = (v & m) < (old & m) ? v : old;
                4'd8: r = (v & m) > (old & m) ? v : old;
                4'd9: r = old & v;  4'd10: r = old | v;  4'd11: r = old ^ v;
                default: r = old;
            endcase
            apply = r & m;
        end
    endfunction

    // Line l (0..7) of the memory: region l / 4, line l % 4 of it.
    function [63:0] line_addr(input integer l);
        line_addr = BASE + (l >= 4 ? 64'd1 << 40 : 64'd0) + (l % 4) * PB;
    endfunction
    function integer line_of(input [63:0] a);
        line_of = (a[40] ? 4 : 0) + (((a - BASE - (a[40] ? 64'd1 << 40 : 64'd0)) >> OFF_W) % 4);
    endfunction

    reg [MW-1:0] mem [0:7];      // the memory model
    reg [MW-1:0] refm [0:7];     // the reference
    // Answers owed, in acceptance order.
    reg [15:0]   exp_tag [0:QN-1];
    reg [1:0]    exp_kind [0:QN-1];  // 0 read, 1 write, 2 atomic
    reg [MW-1:0] exp_data [0:QN-1];
    integer eh = 0, et = 0;
    // Memory requests in flight.
    reg [MW-1:0] q_data [0:255];
    integer      q_due [0:255];
    integer qh = 0, qt = 0, last_due = 0, now = 0, mnow = 0, ml, mi;
    integer mem_reads = 0, accepted = 0, phase = 0, hot_start = 0;
    integer i, l, e, pause = 0, host_writes = 0, invalidates = 0, step = 0, races = 0;
    integer reads_before = 0;
    reg [63:0] hot_addr;
    reg [63:0] old, nv, v, c;
    reg wide;
    reg [MW-1:0] line, junk;
    reg held_valid = 0; reg [63+MW+PB+1:0] held;

    initial begin
        done = 0;
        for (i = 0; i < 8; i = i + 1) begin
            junk = {LANES{$urandom}};
            mem[i] = junk;
            refm[i] = junk;
        end
    end

    // A random request (the next one the unit accepts: the reference is current).
    task new_request;
        integer r, k, lane;
        begin
            r = $urandom % 8;
            s_tag <= $urandom % 4;
            junk = {LANES{$urandom}};
            l = phase == 1 ? 3 : $urandom % 8;
            if (phase == 1 || r >= 4) begin
                wide = phase == 1 || WIDE == 0 ? 1'b0 : $urandom % 2;
                lane = phase == 1 ? 1 : wide ? 2 * ($urandom % (LANES / 2)) : $urandom % LANES;
                old = wide ? refm[l][32 * lane +: 64] : {32'd0, refm[l][32 * lane +: 32]};
                case ($urandom % 5)
                    0: v = 64'd1;  1: v = ~64'd0;  2: v = 64'd0;
                    3: v = {$urandom, $urandom};  default: v = old + ($urandom % 3);
                endcase
                c = $urandom % 2 ? old : {$urandom, $urandom};
                if (!wide) begin
                    v = v & 64'hffff_ffff;
                    c = c & 64'hffff_ffff;
                end
                k = 1 + $urandom % 11;
                while (!OPS[k])
                    k = 1 + $urandom % 11;
                s_atomic <= phase == 1 ? 4'd1 : k[3:0];
                if (phase == 1) v = 64'd1;
                s_addr <= line_addr(l) + 4 * lane;
                line = junk;
                line[127:0] = {c, v};
                s_wdata <= line;
                s_wstrb <= wide ? {{(PB - 8){1'b0}}, 8'hff} : {{(PB - 4){1'b0}}, 4'hf};
                s_write <= $urandom % 2;  // ignored for an atomic
            end else begin
                s_atomic <= 4'd0;
                s_write <= r >= 2;
                s_addr <= line_addr(l) + ($urandom % PB);  // the memory aligns
                s_wdata <= junk;
                for (k = 0; k < PB; k = k + 1)
                    s_wstrb[k] <= $urandom % 2;
            end
        end
    endtask

    wire in_fire = s_valid && s_ready;
    always @(posedge clk) begin
        now = now + 1;
        invalidate <= 1'b0;
        if (!rst && !done) begin
            if (in_fire) begin
                // The reference applies the request now.
                l = line_of(s_addr);
                exp_tag[et % QN] = s_tag;
                if (s_atomic != 0) begin
                    wide = s_wstrb[4];
                    i = s_addr[OFF_W-1:2];
                    old = wide ? refm[l][32 * i +: 64] : {32'd0, refm[l][32 * i +: 32]};
                    nv = apply(s_atomic, wide, old, s_wdata[63:0],
                               wide ? s_wdata[127:64] : {32'd0, s_wdata[95:64]});
                    if (wide) refm[l][32 * i +: 64] = nv;
                    else refm[l][32 * i +: 32] = nv[31:0];
                    exp_kind[et % QN] = 2;
                    exp_data[et % QN] = {{(MW - 64){1'b0}}, old};
                end else if (s_write) begin
                    for (i = 0; i < PB; i = i + 1)
                        if (s_wstrb[i]) refm[l][8 * i +: 8] = s_wdata[8 * i +: 8];
                    exp_kind[et % QN] = 1;
                end else begin
                    exp_kind[et % QN] = 0;
                    exp_data[et % QN] = refm[l];
                end
                et = et + 1;
                accepted = accepted + 1;
                s_valid <= 1'b0;
            end
            if (phase == 0) begin
                phase = 1;
                hot_start = now;
            end
            // Next request, or the end of a phase.
            if (!s_valid || in_fire) begin
                if (phase == 1 && accepted == HOT) begin
                    phase = 2;
                end else if (phase == 2 && eh == et && qh == qt) begin
                    if (mem_reads != 1) begin
                        $display("FAIL %0d: %0d memory reads for %0d atomics on one element (1 fill expected)",
                                 ID, mem_reads, HOT);
                        $finish;
                    end
                    $display("tb_atomic_unit %0d: %0d atomics on one element in %0d cycles (%.2f per atomic)",
                             ID, HOT, now - hot_start, (now - hot_start) * 1.0 / HOT);
                    phase = 3;
                end else if (phase == 3 && accepted >= HOT + N) begin
                    phase = 4;
                end else if (phase == 4) begin
                    // A host write to one line while an atomic's fill of that line is in
                    // flight, with a kernel start: the fill must not be installed (its
                    // copy of the written lane is stale).
                    case (step)
                        0: if (eh == et && qh == qt) begin
                            invalidate <= 1'b1;
                            step = 1;
                        end
                        1: begin
                            l = 1 + races % 7;
                            hot_addr = line_addr(l);
                            s_atomic <= 4'd1;
                            s_addr <= hot_addr;
                            s_wdata <= {{(MW - 64){1'b0}}, 64'd1};
                            s_wstrb <= {{(PB - 4){1'b0}}, 4'hf};
                            s_tag <= 16'd1;
                            s_valid <= 1'b1;
                            reads_before = mem_reads;
                            step = 2;
                        end
                        2: if (mem_reads > reads_before) begin
                            l = line_of(hot_addr);
                            junk = {LANES{$urandom}};
                            mem[l][MW-1 -: 32] = junk[31:0];
                            refm[l][MW-1 -: 32] = junk[31:0];
                            invalidate <= 1'b1;
                            step = 3;
                        end
                        3: begin
                            s_atomic <= 4'd1;  // add 0: answers the host's value
                            s_addr <= hot_addr + PB - 4;
                            s_wdata <= {MW{1'b0}};
                            s_wstrb <= {{(PB - 4){1'b0}}, 4'hf};
                            s_valid <= 1'b1;
                            races = races + 1;
                            step = races == 20 ? 4 : 0;
                        end
                        default: phase = 5;
                    endcase
                end else if (phase == 5 && eh == et && qh == qt) begin
                    for (i = 0; i < 8; i = i + 1)
                        if (mem[i] !== refm[i]) begin
                            $display("FAIL %0d: line %0d is %h, expected %h", ID, i, mem[i], refm[i]);
                            $finish;
                        end
                    $display("tb_atomic_unit %0d: %0d requests, %0d host writes, %0d invalidates, %0d memory reads, %0d host writes during a fill",
                             ID, accepted, host_writes, invalidates, mem_reads, races);
                    done <= 1'b1;
                end else if (phase == 3 && pause == 0 && $urandom % 1500 == 0) begin
                    pause = 1;  // quiesce, then write memory behind the unit's back
                end else if (pause == 1) begin
                    if (eh == et && qh == qt) begin
                        l = $urandom % 8;
                        junk = {LANES{$urandom}};
                        mem[l] = junk;
                        refm[l] = junk;
                        invalidate <= 1'b1;
                        host_writes = host_writes + 1;
                        pause = 0;
                    end
                end else if (phase == 1 || (phase == 3 && $urandom % 4 != 0)) begin
                    new_request;
                    s_valid <= 1'b1;
                end
            end
            if (phase == 3 && pause == 0 && $urandom % 300 == 0) begin
                invalidate <= 1'b1;
                invalidates = invalidates + 1;
            end
        end
    end

    // Answers: in acceptance order, with their tags and values.
    always @(posedge clk) begin
        r_ready <= phase == 1 || $urandom % 4 != 0;
        if (!rst && r_valid && r_ready) begin
            if (eh == et) begin
                $display("FAIL %0d: an answer nothing asked for", ID);
                $finish;
            end
            if (r_tag !== exp_tag[eh % QN] ||
                (exp_kind[eh % QN] != 1 && r_rdata !== exp_data[eh % QN])) begin
                $display("FAIL %0d: answer %0d (kind %0d): tag %0d data %h, expected tag %0d data %h",
                         ID, eh, exp_kind[eh % QN], r_tag, r_rdata, exp_tag[eh % QN],
                         exp_data[eh % QN]);
                $finish;
            end
            eh = eh + 1;
        end
    end

    // The memory model: effects at acceptance, answers in order after a random delay.
    always @(posedge clk) begin
        mnow = mnow + 1;
        mq_ready <= phase == 1 || phase == 4 || $urandom % 4 != 0;
        if (rst) begin
            mr_valid <= 1'b0;
        end else begin
            if (held_valid && (!mq_valid || held != {mq_write, mq_addr, mq_wdata, mq_wstrb})) begin
                $display("FAIL %0d: a memory request changed or vanished before it was taken", ID);
                $finish;
            end
            held_valid = mq_valid && !mq_ready;
            held = {mq_write, mq_addr, mq_wdata, mq_wstrb};
            if (mr_valid && mr_ready)
                qh = qh + 1;
            if (mq_valid && mq_ready) begin
                if (mq_tag !== 16'd0) begin
                    $display("FAIL %0d: memory request tag %0d", ID, mq_tag);
                    $finish;
                end
                ml = line_of(mq_addr);
                q_data[qt % 256] = {LANES{$urandom}};  // a write's answer: junk
                if (mq_write) begin
                    for (mi = 0; mi < PB; mi = mi + 1)
                        if (mq_wstrb[mi]) mem[ml][8 * mi +: 8] = mq_wdata[8 * mi +: 8];
                end else begin
                    q_data[qt % 256] = mem[ml];
                    mem_reads = mem_reads + 1;
                end
                e = mnow + (phase == 1 || phase == 4 ? 8 : $urandom % (MAXLAT + 1));
                if (e < last_due) e = last_due;
                last_due = e;
                q_due[qt % 256] = e;
                qt = qt + 1;
            end
            if (qh != qt && q_due[qh % 256] <= mnow) begin
                mr_valid <= 1'b1;
                mr_data <= q_data[qh % 256];
            end else begin
                mr_valid <= 1'b0;
            end
        end
    end
endmodule

module tb_atomic_unit;
    reg clk = 0, rst = 1;
    wire done_a, done_b, done_c;
    integer cycles = 0;
    always #5 clk = ~clk;

    atomic_unit_check #(.MW(128), .LINES(4), .DEPTH(8), .N(20000), .ID(0)) narrow (
        .clk(clk), .rst(rst), .done(done_a));
    atomic_unit_check #(.MW(256), .LINES(1), .DEPTH(4), .N(10000), .ID(1)) one_line (
        .clk(clk), .rst(rst), .done(done_b));
    atomic_unit_check #(.MW(256), .LINES(4), .DEPTH(8), .N(10000), .ID(2),
                        .OPS(16'b0000_0000_0011_0010), .WIDE(0)) add_cmpxchg_min (
        .clk(clk), .rst(rst), .done(done_c));

    initial begin
        repeat (3) @(posedge clk);
        rst <= 0;
    end
    always @(posedge clk) begin
        cycles = cycles + 1;
        if (done_a && done_b && done_c) begin
            $display("PASS tb_atomic_unit (%0d cycles)", cycles);
            $finish;
        end
        if (cycles > 2000000) begin
            $display("FAIL tb_atomic_unit: timeout (done %b %b %b)", done_a, done_b, done_c);
            $finish;
        end
    end
endmodule
