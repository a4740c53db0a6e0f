// tb_atomics: the atomic units, two tops in one file.
//
// tb_lsu_atomic: clhls_lsu_atomic (DATA_W 32 and 64, DEPTH 4 and 16) against a memory
// model that executes each atomic request when it accepts it (random m_mem_req_ready)
// and answers in order after a random delay; the pipeline offers random operations on
// a few elements (random gaps) and takes answers with random m_resp_ready. A reference
// applies every operation in acceptance order: each answer must be the element's value
// before that operation, and memory must equal the reference at the end. Checked every
// cycle: request fields (address, code, operand, compare, strobes), requests and
// answers stay valid until taken, never more than DEPTH operations accepted and
// unanswered, idle, count_atomic.
//
// tb_local_atomics: clhls_local_mem with every atomic operation (ATOMICS = 16'h0ffe; 3
// ports, 64-bit words, 2 banks), random back-pressure on the answers. Phase 1: every
// port adds 1 (a 32-bit lane) and 5 (a 64-bit lane) to shared counters many times: the
// old values returned by the adds of 1 are exactly 0..N-1, once each, and both counters
// end at their totals. Phase 2: one port at a time runs random operations of every kind
// on both lane widths, checked against a reference after every answer (old value) and by
// plain reads. Phase 3: all ports mix plain reads of a word with atomics on the other
// lane of the same word: a read never sees a torn or lost update (the final value is the
// sum of all adds).
`timescale 1ns/1ps

module lsu_atomic_check #(
    parameter DW = 32, DEPTH = 16, N = 3000, ID = 0
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);
    localparam MW = 512, ELEMS = 4;
    localparam [63:0] BASE = 64'h0000_1234_5670_0000;
    reg s_valid = 0; wire s_ready; reg [63:0] s_addr = 0; reg [3:0] s_op = 0;
    reg [DW-1:0] s_operand = 0, s_compare = 0;
    wire r_valid; reg r_ready = 0; wire [DW-1:0] r_data;
    wire mq_valid; reg mq_ready = 0; wire [63:0] mq_addr; wire [3:0] mq_atomic;
    wire [MW-1:0] mq_wdata; wire [MW/8-1:0] mq_wstrb;
    reg mr_valid = 0; wire mr_ready; reg [MW-1:0] mr_data = 0;
    wire idle, count_atomic;

    clhls_lsu_atomic #(.DATA_W(DW), .MEM_W(MW), .DEPTH(DEPTH)) dut (.clk(clk), .rst(rst),
        .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_addr(s_addr), .s_req_op(s_op),
        .s_req_operand(s_operand), .s_req_compare(s_compare),
        .m_resp_valid(r_valid), .m_resp_ready(r_ready), .m_resp_data(r_data),
        .m_mem_req_valid(mq_valid), .m_mem_req_ready(mq_ready), .m_mem_req_addr(mq_addr),
        .m_mem_req_atomic(mq_atomic), .m_mem_req_wdata(mq_wdata), .m_mem_req_wstrb(mq_wstrb),
        .s_mem_resp_valid(mr_valid), .s_mem_resp_ready(mr_ready), .s_mem_resp_rdata(mr_data),
        .idle(idle), .count_atomic(count_atomic));

    function [DW-1:0] apply(input [3:0] op, input [DW-1:0] old, input [DW-1:0] v, input [DW-1:0] c);
        case (op)
            4'd1: apply = old + v;  4'd2: apply = old - v;  4'd3: apply = v;
            4'd4: apply = old == c ? v : old;
            4'd5: apply = $signed(v) < $signed(old) ? v : old;
            4'd6: apply = $signed(v) > $signed(old) ? v : old;
            4'd7: apply = v < old ? v : old;  4'd8: apply = v > old ? v : old;
            4'd9: apply = old & v;  4'd10: apply = old | v;  4'd11: apply = old ^ v;
            default: apply = old;
        endcase
    endfunction

    reg [DW-1:0] mem [0:ELEMS-1];            // the model memory
    reg [DW-1:0] issued_op [0:N-1];          // per operation: what was sent
    reg [3:0]    op_code [0:N-1];
    reg [DW-1:0] op_val [0:N-1], op_cmp [0:N-1];
    reg [1:0]    op_elem [0:N-1];
    reg [DW-1:0] want [0:N-1];                // the value before it, in memory order
    reg [DW-1:0] resp_q [0:N-1]; integer resp_time [0:N-1];
    integer cycle, sent, accepted, answered, mem_head, mem_tail, outstanding, e, k;
    reg prev_s_stall, prev_r_stall, prev_mq_stall;
    reg [63:0] prev_mq_addr; reg [MW-1:0] prev_mq_wdata;

    task fail(input [8*48-1:0] what);
        begin $display("FAIL lsu_atomic %0d: %0s (cycle %0d)", ID, what, cycle); $fatal(1); end
    endtask

    initial begin
        done = 0; cycle = 0; sent = 0; accepted = 0; answered = 0; mem_head = 0; mem_tail = 0;
        outstanding = 0; prev_s_stall = 0; prev_r_stall = 0; prev_mq_stall = 0;
        for (e = 0; e < ELEMS; e = e + 1) mem[e] = {DW{1'b0}} + e * 7;
    end

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (!rst) begin
            // Handshakes of this cycle (values as presented before the edge).
            if (idle !== (accepted == answered)) fail("idle");
            if (prev_mq_stall && (mq_addr !== prev_mq_addr || mq_wdata !== prev_mq_wdata))
                fail("request changed while waiting");
            if (mq_valid && mq_ready) begin
                e = (mq_addr - BASE) / (DW / 8);
                if (mq_addr !== BASE + op_elem[mem_tail] * (DW / 8) || mq_atomic !== op_code[mem_tail] ||
                    mq_wdata[DW-1:0] !== op_val[mem_tail] || mq_wdata[64 +: DW] !== op_cmp[mem_tail] ||
                    mq_wstrb !== {{(MW/8-DW/8){1'b0}}, {(DW/8){1'b1}}})
                    fail("memory request fields");
                want[mem_tail] = mem[e];
                mem[e] = apply(mq_atomic, mem[e], mq_wdata[DW-1:0], mq_wdata[64 +: DW]);
                resp_q[mem_tail] = want[mem_tail];
                resp_time[mem_tail] = cycle + 1 + $urandom % 12;
                mem_tail = mem_tail + 1;
            end
            if (count_atomic !== (mq_valid && mq_ready)) fail("count_atomic");
            if (mr_valid && mr_ready) mem_head = mem_head + 1;
            if (r_valid && r_ready) begin
                if (r_data !== want[answered]) fail("answer is not the old value");
                answered = answered + 1;
            end
            if (s_valid && s_ready) accepted = accepted + 1;
            outstanding = accepted - answered;
            if (outstanding > DEPTH) fail("more than DEPTH outstanding");
            if (prev_r_stall && !r_valid) fail("answer withdrawn");
            if (mr_ready !== 1'b1) fail("s_mem_resp_ready must be 1");
            prev_r_stall = r_valid && !r_ready;
            prev_mq_stall = mq_valid && !mq_ready;
            prev_mq_addr = mq_addr; prev_mq_wdata = mq_wdata;

            // Drive the next cycle.
            if (!(s_valid && !s_ready)) begin
                if (s_valid) sent = sent + 1;  // taken this cycle
                s_valid <= (sent < N) && ($urandom % 3 != 0);
                k = sent;
                if (k < N) begin
                    op_code[k] = 1 + $urandom % 11;
                    op_elem[k] = $urandom % ELEMS;
                    op_val[k]  = {$urandom, $urandom};
                    op_cmp[k]  = ($urandom % 2) ? mem[op_elem[k]] : {$urandom, $urandom};
                    s_op <= op_code[k]; s_addr <= BASE + op_elem[k] * (DW / 8);
                    s_operand <= op_val[k]; s_compare <= op_cmp[k];
                end
            end
            r_ready  <= ($urandom % 4) != 0;
            mq_ready <= ($urandom % 3) != 0;
            if (!(mr_valid && !mr_ready)) begin
                if (mem_head < mem_tail && resp_time[mem_head] <= cycle) begin  // the next one
                    mr_valid <= 1;
                    mr_data <= {{(MW - DW){1'b1}}, resp_q[mem_head]};
                end else mr_valid <= 0;
            end
            if (answered == N && accepted == N && idle) /* idle is checked every cycle */
                done <= 1;
        end
    end
endmodule

module tb_lsu_atomic;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    wire d0, d1, d2;
    lsu_atomic_check #(.DW(32), .DEPTH(16), .ID(0)) c0 (.clk(clk), .rst(rst), .done(d0));
    lsu_atomic_check #(.DW(64), .DEPTH(4), .ID(1)) c1 (.clk(clk), .rst(rst), .done(d1));
    lsu_atomic_check #(.DW(32), .DEPTH(1), .ID(2)) c2 (.clk(clk), .rst(rst), .done(d2));
    initial begin
        repeat (3) @(posedge clk);
        rst = 0;
    end
    always @(posedge clk)
        if (d0 && d1 && d2) begin
            $display("PASS tb_lsu_atomic (3 configurations)");
            $finish;
        end
    initial begin
        #5000000;
        $display("FAIL tb_lsu_atomic: timeout");
        $fatal(1);
    end
endmodule

module tb_local_atomics;
    localparam NP = 3, WW = 64, AW = 8;
    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;
    reg [NP-1:0] s_valid = 0; wire [NP-1:0] s_ready; reg [NP-1:0] s_write = 0;
    reg [NP*AW-1:0] s_addr = 0; reg [NP*WW-1:0] s_wdata = 0, s_cmp = 0; reg [NP*WW/8-1:0] s_wstrb = 0;
    reg [NP*4-1:0] s_atomic = 0; reg [NP-1:0] s_wide = 0;
    wire [NP-1:0] r_valid; reg [NP-1:0] r_ready = 0; wire [NP*WW-1:0] r_data;
    wire [1:0] conflicts; wire idle;
    clhls_local_mem #(.NPORTS(NP), .ADDR_W(AW), .WORD_W(WW), .BANKS(2), .ATOMICS(16'h0ffe)) dut (
        .clk(clk), .rst(rst), .s_req_valid(s_valid), .s_req_ready(s_ready), .s_req_write(s_write),
        .s_req_addr(s_addr), .s_req_wdata(s_wdata), .s_req_wstrb(s_wstrb),
        .s_req_atomic(s_atomic), .s_req_wide(s_wide), .s_req_cmp(s_cmp),
        .m_resp_valid(r_valid), .m_resp_ready(r_ready), .m_resp_rdata(r_data),
        .conflicts(conflicts), .idle(idle));

    function [63:0] apply(input [3:0] op, input [63:0] old, input [63:0] v, input [63:0] c,
                          input wide);
        reg [63:0] r;
        begin
            case (op)
                4'd1: r = old + v;  4'd2: r = old - v;  4'd3: r = v;
                4'd4: r = old == c ? v : old;
                4'd5: r = wide ? ($signed(v) < $signed(old) ? v : old)
                               : ($signed(v[31:0]) < $signed(old[31:0]) ? v : old);
                4'd6: r = wide ? ($signed(v) > $signed(old) ? v : old)
                               : ($signed(v[31:0]) > $signed(old[31:0]) ? v : old);
                4'd7: r = (wide ? v : {32'd0, v[31:0]}) < (wide ? old : {32'd0, old[31:0]}) ? v : old;
                4'd8: r = (wide ? v : {32'd0, v[31:0]}) > (wide ? old : {32'd0, old[31:0]}) ? v : old;
                4'd9: r = old & v;  4'd10: r = old | v;  4'd11: r = old ^ v;
                default: r = old;
            endcase
            if (!wide && op == 4'd4) r = old[31:0] == c[31:0] ? v : old;
            apply = wide ? r : {32'd0, r[31:0]};
        end
    endfunction

    // One request per port at a time, issued from the clocked block below.
    integer cycle, phase, p, i, issued [0:NP-1], got [0:NP-1], target, total, lane, adds3;
    reg [NP-1:0] busy;                       // a request issued, its answer not yet taken
    reg [63:0] model [0:31];                 // reference of 32 words (phase 2)
    reg [63:0] expect_old [0:NP-1];
    reg [3:0] last_op [0:NP-1]; reg last_wide [0:NP-1]; reg [4:0] last_word [0:NP-1]; reg last_lane [0:NP-1];
    reg [63:0] last_v [0:NP-1], last_c [0:NP-1];
    reg [2047:0] seen;                       // phase 1: old values of the adds of 1
    reg [63:0] old;

    task fail(input [8*48-1:0] what);
        begin $display("FAIL tb_local_atomics: %0s (cycle %0d, phase %0d)", what, cycle, phase); $fatal(1); end
    endtask

    // Presents request (op, wide, word, lane, value, compare) on port q.
    task present(input integer q, input [3:0] op, input wide, input [4:0] word, input ln,
                 input [63:0] v, input [63:0] c, input write);
        begin
            s_valid[q] <= 1'b1;
            s_write[q] <= write;
            s_atomic[4*q +: 4] <= op;
            s_wide[q] <= wide;
            s_addr[AW*q +: AW] <= {word, 3'b000} + (wide ? 8'd0 : {6'd0, ln, 2'b00});
            s_wdata[WW*q +: WW] <= wide ? v : {v[31:0], v[31:0]};
            s_cmp[WW*q +: WW] <= wide ? c : {c[31:0], c[31:0]};
            s_wstrb[8*q +: 8] <= write || op != 0 ? (wide ? 8'hff : (ln ? 8'hf0 : 8'h0f)) : 8'h00;
            last_op[q] = op; last_wide[q] = wide; last_word[q] = word; last_lane[q] = ln;
            last_v[q] = v; last_c[q] = c;
        end
    endtask

    function [63:0] lane_of(input [63:0] w, input wide, input ln);
        lane_of = wide ? w : (ln ? {32'd0, w[63:32]} : {32'd0, w[31:0]});
    endfunction

    localparam N1 = 300;  // adds per port in phase 1
    initial begin
        cycle = 0; phase = 0; busy = 0; seen = 0; adds3 = 0;
        for (p = 0; p < NP; p = p + 1) begin issued[p] = 0; got[p] = 0; end
        for (i = 0; i < 32; i = i + 1) model[i] = 64'd0;
    end

    always @(posedge clk) begin
        cycle = cycle + 1;
        if (cycle == 4) rst <= 0;
        if (!rst) begin
            for (p = 0; p < NP; p = p + 1) begin
                if (s_valid[p] && s_ready[p]) begin
                    s_valid[p] <= 1'b0;
                    busy[p] = 1'b1;
                end
                if (r_valid[p] && r_ready[p]) begin
                    if (!busy[p]) fail("answer without a request");
                    busy[p] = 1'b0;
                    got[p] = got[p] + 1;
                    old = lane_of(r_data[WW*p +: WW], last_wide[p], last_lane[p]);
                    if (phase == 1 && last_op[p] == 4'd1 && !last_wide[p]) begin
                        if (old >= NP * N1 || seen[old]) fail("add returned a repeated old value");
                        seen[old] = 1'b1;
                    end
                    if (phase == 2) begin
                        if (old !== expect_old[p]) fail("atomic's old value");
                    end
                    if (last_op[p] == 4'd0 && phase == 10 && r_data[WW*p +: 32] !== NP * N1)
                        fail("32-bit counter");
                    if (last_op[p] == 4'd0 && phase == 11 && r_data[WW*p +: WW] !== 5 * NP * N1)
                        fail("64-bit counter");
                    if (last_op[p] == 4'd0 && (phase == 3 || phase == 4) &&
                        (r_data[WW*p +: 32] !== 32'd0 || r_data[WW*p + 32 +: 32] % 3 != 0))
                        fail("torn read of an updated word");
                    if (last_op[p] == 4'd0 && phase == 4 && p == 0) begin
                        if (r_data[WW*p + 32 +: 32] !== 3 * adds3) fail("final value of the adds");
                        phase = 5;
                    end
                end
            end
            r_ready <= $urandom;
            // Phase 0 -> 1: clear words 0 to 3 with plain writes from port 0.
            if (phase == 0 && !busy[0] && !s_valid[0]) begin
                if (issued[0] < 4) begin
                    present(0, 4'd0, 1'b1, issued[0], 1'b0, 64'd0, 64'd0, 1'b1);
                    issued[0] = issued[0] + 1;
                end else if (got[0] == 4) begin
                    phase = 1;
                    for (p = 0; p < NP; p = p + 1) begin issued[p] = 0; got[p] = 0; end
                end
            end else if (phase == 1) begin
                for (p = 0; p < NP; p = p + 1)
                    if (!busy[p] && !s_valid[p] && issued[p] < 2 * N1 && $urandom % 4 != 0) begin
                        if (issued[p] % 2 == 0) present(p, 4'd1, 1'b0, 5'd0, 1'b0, 64'd1, 0, 1'b0);
                        else present(p, 4'd1, 1'b1, 5'd1, 1'b0, 64'd5, 0, 1'b0);
                        issued[p] = issued[p] + 1;
                    end
                if (got[0] == 2 * N1 && got[1] == 2 * N1 && got[2] == 2 * N1) begin
                    // read back both counters from port 1
                    phase = 10;
                    present(1, 4'd0, 1'b1, 5'd0, 1'b0, 0, 0, 1'b0);
                end
            end else if (phase == 10 && got[1] == 2 * N1 + 1) begin
                phase = 11;
                present(1, 4'd0, 1'b1, 5'd1, 1'b0, 0, 0, 1'b0);
            end else if (phase == 11 && got[1] == 2 * N1 + 2) begin
                for (i = 0; i < NP * N1; i = i + 1) if (!seen[i]) fail("an old value never returned");
                phase = 2; total = 0;
                for (p = 0; p < NP; p = p + 1) begin issued[p] = 0; got[p] = 0; end
                model[0] = NP * N1; model[1] = 5 * NP * N1;
            end else if (phase == 2) begin
                // one port at a time (sequential semantics known), random operations
                p = total % NP;
                if (!busy[p] && !s_valid[p] && got[p] == issued[p]) begin
                    if (total == 3000) begin
                        if (busy == 0 && s_valid == 0) begin  // every answer is back
                            phase = 30; total = 0;
                            for (p = 0; p < NP; p = p + 1) begin issued[p] = 0; got[p] = 0; end
                        end
                    end else begin
                        target = $urandom % 4;
                        lane = $urandom % 2;
                        last_wide[p] = $urandom % 2;
                        i = 1 + $urandom % 11;
                        old = $urandom % 3 == 0 ? lane_of(model[target], last_wide[p], lane[0])
                                                : {$urandom, $urandom};
                        expect_old[p] = lane_of(model[target], last_wide[p], lane[0]);
                        present(p, i[3:0], last_wide[p], target[4:0], lane[0],
                                {$urandom, $urandom} >> ($urandom % 64), old, 1'b0);
                        if (last_wide[p])
                            model[target] = apply(i[3:0], model[target], last_v[p], last_c[p], 1'b1);
                        else if (lane[0])
                            model[target][63:32] = apply(i[3:0], {32'd0, model[target][63:32]}, last_v[p],
                                                         last_c[p], 1'b0);
                        else
                            model[target][31:0] = apply(i[3:0], {32'd0, model[target][31:0]}, last_v[p],
                                                        last_c[p], 1'b0);
                        issued[p] = issued[p] + 1;
                        total = total + 1;
                    end
                end
            end else if (phase == 30) begin
                // clear word 8 (the RAM starts undefined)
                if (!busy[0] && !s_valid[0] && issued[0] == 0) begin
                    present(0, 4'd0, 1'b1, 5'd8, 1'b0, 64'd0, 0, 1'b1);
                    issued[0] = 1;
                end else if (got[0] == 1) begin
                    phase = 3; issued[0] = 0; got[0] = 0;
                end
            end else if (phase == 3) begin
                // all ports: adds of 3 to lane 1 of word 8, reads of word 8 (lane 0 stays 0)
                for (p = 0; p < NP; p = p + 1)
                    if (!busy[p] && !s_valid[p] && issued[p] < 400 && $urandom % 3 != 0) begin
                        if ($urandom % 2) begin
                            present(p, 4'd1, 1'b0, 5'd8, 1'b1, 64'd3, 0, 1'b0);
                            adds3 = adds3 + 1;
                        end
                        else present(p, 4'd0, 1'b1, 5'd8, 1'b0, 0, 0, 1'b0);
                        issued[p] = issued[p] + 1;
                    end
                if (got[0] == 400 && got[1] == 400 && got[2] == 400 && phase == 3) begin
                    phase = 4;
                    present(0, 4'd0, 1'b1, 5'd8, 1'b0, 0, 0, 1'b0);
                end
            end else if (phase == 5) begin
                phase = 6;  // idle is registered: look a cycle after the last answer
            end else if (phase == 6) begin
                if (!idle) fail("not idle at the end");
                $display("PASS tb_local_atomics");
                $finish;
            end
        end
    end
    initial begin
        #20000000;
        $display("FAIL tb_local_atomics: timeout (phase %0d; issued %0d %0d %0d, answered %0d %0d %0d, busy %b)", phase, issued[0], issued[1], issued[2], got[0], got[1], got[2], busy);
        $fatal(1);
    end
endmodule
