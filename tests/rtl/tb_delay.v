// tb_delay: clhls_delay as LATENCY registers with a clock enable, for LATENCY 0 .. 129
// (register chains below RING_MIN, ring buffers from it on, powers of two and not),
// WIDTH 1, 32 and 64, small rings forced with RING_MIN = 2 and a LATENCY 69 ring next
// to the register chain (RING_MIN very high) fed the same inputs. Every instance gets
// random d on every cycle (also while ce = 0) and its own randomly toggled clock
// enable (segments of full rate, random rates, long stalls, single bubbles, stalls
// longer than the pipeline). The reference is the list of values accepted on enabled
// edges: after n enables q must be the value accepted at enable n - LATENCY, checked
// before every rising edge and between the edges; q must not change across an edge
// with ce = 0 (also while the pipeline is still filling), and LATENCY = 0 must be a wire.
// Built with CLHLS_SIM_MODELS (rtl_tb_delay_models), every instance has LATENCY
// LAT + 3 and SIM_LATENCY LAT: the simulation's latency must be SIM_LATENCY.
`timescale 1ns/1ps

module delay_check #(
    parameter WIDTH = 32, parameter LAT = 4, parameter RING_MIN = 4,
    parameter CMP_CHAIN = 0,   // 1: also a register chain (RING_MIN huge), compared with dut
    parameter CYCLES = 30000
) (input wire clk, output reg done, output integer errors, output integer checked);
    localparam H = 256, MAX_REPORTS = 8;  // history of accepted values (H > LAT)
    reg ce = 0;
    reg [WIDTH-1:0] d = 0;
    wire [WIDTH-1:0] q, q_chain;
    reg [WIDTH-1:0] hist [0:H-1];
    reg [WIDTH-1:0] q_edge;       // q just before the last rising edge
    reg ce_edge = 0;              // ce at the last rising edge
    reg [WIDTH-1:0] expect_q;
    integer cycle = 0, n = 0, stalls = 0, stall_checks = 0, run = 0, longest_stall = 0;
    integer seg_left = 0, mode = 0, phase = 0;

`ifdef CLHLS_SIM_MODELS
    localparam HW_LAT = LAT + 3;  // ignored: SIM_LATENCY is the simulation's
`else
    localparam HW_LAT = LAT;
`endif
    clhls_delay #(.WIDTH(WIDTH), .LATENCY(HW_LAT), .RING_MIN(RING_MIN), .SIM_LATENCY(LAT)) dut (
        .clk(clk), .ce(ce), .d(d), .q(q));
    generate
        if (CMP_CHAIN) begin : chain
            clhls_delay #(.WIDTH(WIDTH), .LATENCY(HW_LAT), .RING_MIN(1000000), .SIM_LATENCY(LAT))
                ref_chain (.clk(clk), .ce(ce), .d(d), .q(q_chain));
        end else begin : no_chain
            assign q_chain = q;
        end
    endgenerate

    initial begin done = 0; errors = 0; checked = 0; end

    function automatic [WIDTH-1:0] rand_word(input integer dummy);
        reg [63:0] r;
        begin r = {$urandom, $urandom}; rand_word = r[WIDTH-1:0]; end
    endfunction

    // Clock enable: segments of random length (1 .. 512 cycles) in a random mode.
    function automatic reg pick_ce(input integer m, input integer p);
        case (m)
            0: pick_ce = 1'b1;                        // full rate
            1: pick_ce = ($urandom % 4) != 0;
            2: pick_ce = ($urandom % 2) != 0;
            3: pick_ce = ($urandom % 8) == 0;         // long stalls
            4: pick_ce = ($urandom % 16) != 0;        // rare bubbles
            5: pick_ce = 1'b0;                        // one stall over the whole segment
            6: pick_ce = (p % 2) == 0;                // every other cycle
            default: pick_ce = (p % (LAT + 1)) != LAT; // one bubble every LAT + 1 cycles
        endcase
    endfunction

    task fail(input string what, input [WIDTH-1:0] got, input [WIDTH-1:0] want);
        begin
            if (errors < MAX_REPORTS)
                $display("FAIL clhls_delay WIDTH %0d LATENCY %0d RING_MIN %0d: %0s at cycle %0d (%0d enables): q=%h, expected %h",
                         WIDTH, LAT, RING_MIN, what, cycle, n, got, want);
            errors = errors + 1;
        end
    endtask

    // What q must be now, after n enables: the value accepted at enable n - LAT
    // (counted from 0), or d itself for LATENCY 0. Unknown while n < LAT.
    function automatic reg known(input integer dummy);
        known = (n >= LAT);
    endfunction
    function automatic [WIDTH-1:0] expected(input integer dummy);
        expected = (LAT == 0) ? d : hist[(n - LAT) % H];
    endfunction

    always @(posedge clk) if (!done) begin
        cycle = cycle + 1;
        // Values before this edge: the result of the previous edges.
        if (known(0)) begin
            expect_q = expected(0);
            if (q !== expect_q) fail("q before edge", q, expect_q);
            if (CMP_CHAIN && q_chain !== expect_q) fail("chain q before edge", q_chain, expect_q);
            if (CMP_CHAIN && q !== q_chain) fail("ring differs from chain", q, q_chain);
            checked = checked + 1;
        end
        // An edge with ce = 0 must not change q (whether or not it is known yet).
        if (LAT > 0 && cycle > 1 && !ce_edge) begin
            if (q !== q_edge) fail("q changed while ce = 0", q, q_edge);
            if (CMP_CHAIN && q_chain !== q_edge) fail("chain changed while ce = 0", q_chain, q_edge);
            stall_checks = stall_checks + 1;
        end
        q_edge = q; ce_edge = ce;
        // This edge accepts d if enabled.
        if (ce) begin
            hist[n % H] = d;
            n = n + 1;
            run = 0;
        end else begin
            stalls = stalls + 1;
            run = run + 1;
            if (run > longest_stall) longest_stall = run;
        end
        // Inputs for the next edge: random d always, ce from the current mode.
        if (seg_left == 0) begin
            seg_left = 1 + $urandom % 512;
            mode = $urandom % 8;
            phase = 0;
        end
        ce <= pick_ce(mode, phase);
        d <= rand_word(0);
        seg_left = seg_left - 1;
        phase = phase + 1;
        if (cycle == CYCLES) begin
            // Enough of both kinds of edge for the checks to mean something.
            if (n < CYCLES / 4 || stalls < CYCLES / 8 || longest_stall <= LAT || (LAT > 0 && stall_checks < CYCLES / 8)) begin
                $display("FAIL clhls_delay WIDTH %0d LATENCY %0d: weak stimulus (%0d enables, %0d stalls, longest %0d)",
                         WIDTH, LAT, n, stalls, longest_stall);
                errors = errors + 1;
            end
            done <= 1;
        end
    end

    // Between the edges (q settled after the edge): the same expectation, with n
    // already counting the enable of this edge.
    always @(negedge clk) if (!done && cycle > 0) begin
        if (known(0)) begin
            expect_q = expected(0);
            if (q !== expect_q) fail("q between edges", q, expect_q);
            if (CMP_CHAIN && q_chain !== expect_q) fail("chain q between edges", q_chain, expect_q);
        end
        if (LAT > 0 && !ce_edge && q !== q_edge) fail("q changed after edge with ce = 0", q, q_edge);
    end
endmodule

module tb_delay;
    reg clk = 0; always #5 clk = ~clk;
    localparam NU = 20, CYCLES = 30000;
    wire [NU-1:0] done;
    wire [31:0] errors [0:NU-1];
    wire [31:0] checked [0:NU-1];

    `define DC(i, w, l, rm, cmp) \
        delay_check #(.WIDTH(w), .LAT(l), .RING_MIN(rm), .CMP_CHAIN(cmp), .CYCLES(CYCLES)) \
            u``i (.clk(clk), .done(done[i]), .errors(errors[i]), .checked(checked[i]));
    `DC(0,  32,   0, 4, 0)     // a wire
    `DC(1,   1,   0, 4, 0)
    `DC(2,   1,   1, 4, 0)     // one register
    `DC(3,  64,   1, 4, 0)
    `DC(4,  32,   2, 4, 0)     // register chains
    `DC(5,  64,   3, 4, 0)
    `DC(6,   1,   4, 4, 0)     // rings from RING_MIN on
    `DC(7,  32,   4, 4, 0)
    `DC(8,  64,   5, 4, 0)
    `DC(9,  32,   7, 4, 0)
    `DC(10,  1,   8, 4, 0)
    `DC(11, 32,  31, 4, 0)
    `DC(12, 64,  64, 4, 0)
    `DC(13, 32,  69, 4, 1)     // ring and register chain side by side
    `DC(14,  1,  70, 4, 0)
    `DC(15, 32,  70, 4, 0)
    `DC(16, 64, 129, 4, 0)
    `DC(17, 32,   2, 2, 0)     // the smallest rings (RING_MIN lowered)
    `DC(18,  1,   3, 2, 0)
    `DC(19, 64,   3, 2, 1)     // and against the chain
    `undef DC

    integer cycles = 0, total_errors, total_checked, u;
    always @(posedge clk) begin
        cycles = cycles + 1;
        if (&done) begin
            total_errors = 0; total_checked = 0;
            for (u = 0; u < NU; u = u + 1) begin
                total_errors = total_errors + errors[u];
                total_checked = total_checked + checked[u];
            end
            if (total_errors != 0) begin
                $display("FAIL tb_delay: %0d failed checks (%0d outputs compared)", total_errors, total_checked);
                $fatal(1);
            end
`ifdef CLHLS_SIM_MODELS
            $display("PASS tb_delay (SIM_LATENCY): %0d instances, %0d cycles each, %0d outputs compared",
                     NU, CYCLES, total_checked);
`else
            $display("PASS tb_delay: %0d instances, %0d cycles each, %0d outputs compared",
                     NU, CYCLES, total_checked);
`endif
            $finish;
        end
        if (cycles > CYCLES + 100) begin $display("FAIL tb_delay: timeout"); $fatal(1); end
    end
endmodule
