// tb_delay_taps: clhls_delay_taps gives, at every tap, d as it was that tap's delay of
// enabled cycles ago. Configurations: one tap, taps one apart, far apart, a longest
// delay below RING_MIN (a chain in every build), powers of two and not, WIDTH 1, 32
// and 64. Each instance gets random d on every cycle and its own random clock enable
// (full rate, random rates, long stalls). The reference is the list of values
// accepted on enabled edges; every known tap is checked after every edge, and no tap
// may change across an edge with ce = 0. Run twice: as synthesised (a chain of
// clhls_delay) and with CLHLS_SIM_MODELS (one ring buffer from RING_MIN on).
`timescale 1ns/1ps

module taps_check #(
    parameter WIDTH = 32, parameter TAPS = 2,
    parameter [32*TAPS-1:0] DELAYS = {32'd2, 32'd1},
    parameter [32*TAPS-1:0] HW_DELAYS = DELAYS,  // the DELAYS the simulation build ignores
    parameter CYCLES = 20000
) (input wire clk, output reg done, output integer errors, output integer checked);
    localparam H = 512, MAX_REPORTS = 8;  // history of accepted values (H > every delay)
    reg ce = 0;
    reg [WIDTH-1:0] d = 0;
    wire [TAPS*WIDTH-1:0] q;
    reg [TAPS*WIDTH-1:0] q_edge;          // q just before the last rising edge
    reg ce_edge = 0;                      // ce at the last rising edge
    reg [WIDTH-1:0] hist [0:H-1];
    reg [63:0] r;
    integer cycle = 0, n = 0, stalls = 0, k, delay, mode = 0, seg_left = 0;

`ifdef CLHLS_SIM_MODELS
    clhls_delay_taps #(.WIDTH(WIDTH), .TAPS(TAPS), .DELAYS(HW_DELAYS), .SIM_DELAYS(DELAYS)) dut (
        .clk(clk), .ce(ce), .d(d), .q(q));
`else
    clhls_delay_taps #(.WIDTH(WIDTH), .TAPS(TAPS), .DELAYS(DELAYS)) dut (
        .clk(clk), .ce(ce), .d(d), .q(q));
`endif

    initial begin done = 0; errors = 0; checked = 0; end

    task fail(input string what, input integer tap, input [WIDTH-1:0] got, input [WIDTH-1:0] want);
        begin
            if (errors < MAX_REPORTS)
                $display("FAIL clhls_delay_taps WIDTH %0d TAPS %0d tap %0d (delay %0d): %0s at cycle %0d (%0d enables): q=%h, expected %h",
                         WIDTH, TAPS, tap, DELAYS[32*tap +: 32], what, cycle, n, got, want);
            errors = errors + 1;
        end
    endtask

    // After the edge: every tap whose delay has been reached holds the value accepted
    // that many enables ago; after an edge with ce = 0, every tap is unchanged.
    always @(negedge clk) if (!done && cycle > 0) begin
        for (k = 0; k < TAPS; k = k + 1) begin
            delay = DELAYS[32*k +: 32];
            if (n >= delay) begin
                if (q[WIDTH*k +: WIDTH] !== hist[(n - delay) % H])
                    fail("tap", k, q[WIDTH*k +: WIDTH], hist[(n - delay) % H]);
                checked = checked + 1;
            end
            if (!ce_edge && q[WIDTH*k +: WIDTH] !== q_edge[WIDTH*k +: WIDTH])
                fail("changed while ce = 0", k, q[WIDTH*k +: WIDTH], q_edge[WIDTH*k +: WIDTH]);
        end
    end

    always @(posedge clk) if (!done) begin
        cycle = cycle + 1;
        q_edge = q; ce_edge = ce;
        if (ce) begin
            hist[n % H] = d;
            n = n + 1;
        end else
            stalls = stalls + 1;
        if (seg_left == 0) begin
            seg_left = 1 + $urandom % 300;
            mode = $urandom % 4;
        end
        seg_left = seg_left - 1;
        case (mode)
            0: ce <= 1'b1;
            1: ce <= ($urandom % 4) != 0;
            2: ce <= ($urandom % 8) == 0;
            default: ce <= 1'b0;
        endcase
        r = {$urandom, $urandom};
        d <= r[WIDTH-1:0];
        if (cycle == CYCLES) begin
            if (n < CYCLES / 4 || stalls < CYCLES / 8) begin
                $display("FAIL clhls_delay_taps: weak stimulus (%0d enables, %0d stalls)", n, stalls);
                errors = errors + 1;
            end
            done <= 1;
        end
    end
endmodule

`ifdef CLHLS_SIM_MODELS
// SIM_DELAYS all 0 (a region folded into one stage): every tap is d, at every moment.
module folded_check (input wire clk, output reg done, output integer errors, output integer checked);
    localparam CYCLES = 2000;
    reg ce = 0;
    reg [31:0] d = 0;
    wire [3*32-1:0] q;
    integer cycle = 0;
    clhls_delay_taps #(.WIDTH(32), .TAPS(3), .DELAYS({32'd9, 32'd4, 32'd1}), .SIM_DELAYS({32'd0, 32'd0, 32'd0}))
        dut (.clk(clk), .ce(ce), .d(d), .q(q));
    initial begin done = 0; errors = 0; checked = 0; end
    always @(negedge clk) begin
        if (q !== {3{d}}) begin
            if (errors < 8)
                $display("FAIL clhls_delay_taps SIM_DELAYS 0: q=%h, d=%h at cycle %0d", q, d, cycle);
            errors = errors + 1;
        end
        checked = checked + 1;
        d = $urandom;
        ce = $urandom % 2;
        #1;
        if (q !== {3{d}}) begin
            if (errors < 8)
                $display("FAIL clhls_delay_taps SIM_DELAYS 0: q=%h, d=%h after d changed", q, d);
            errors = errors + 1;
        end
        cycle = cycle + 1;
        if (cycle == CYCLES) done = 1;
    end
endmodule
`endif

module tb_delay_taps;
    reg clk = 0; always #5 clk = ~clk;
`ifdef CLHLS_SIM_MODELS
    localparam NU = 11, CYCLES = 20000;
`else
    localparam NU = 10, CYCLES = 20000;
`endif
    wire [NU-1:0] done;
    wire [31:0] errors [0:NU-1];
    wire [31:0] checked [0:NU-1];

    `define TC(i, w, n, delays) \
        taps_check #(.WIDTH(w), .TAPS(n), .DELAYS(delays), .CYCLES(CYCLES)) \
            u``i (.clk(clk), .done(done[i]), .errors(errors[i]), .checked(checked[i]));
    `TC(0, 32, 1, {32'd7})                               // one tap
    `TC(1, 32, 3, {32'd3, 32'd2, 32'd1})                 // below RING_MIN: a chain
    `TC(2, 64, 4, {32'd4, 32'd3, 32'd2, 32'd1})          // taps one apart, ring of 4
    `TC(3, 32, 3, {32'd21, 32'd14, 32'd7})               // far apart
    `TC(4,  1, 2, {32'd8, 32'd1})                        // a power of two
    `TC(5, 32, 5, {32'd130, 32'd64, 32'd63, 32'd5, 32'd1})
    `TC(6, 64, 2, {32'd9, 32'd8})
    `TC(7, 32, 8, {32'd40, 32'd35, 32'd30, 32'd25, 32'd20, 32'd15, 32'd10, 32'd5})
    `undef TC
    // Folded (in the simulation build): SIM_DELAYS count, equal ones too, in a ring and
    // in a chain; the other build checks the same delays as DELAYS.
    taps_check #(.WIDTH(32), .TAPS(3), .DELAYS({32'd4, 32'd1, 32'd1}),
                 .HW_DELAYS({32'd60, 32'd20, 32'd17}), .CYCLES(CYCLES))
        u8 (.clk(clk), .done(done[8]), .errors(errors[8]), .checked(checked[8]));
    taps_check #(.WIDTH(64), .TAPS(3), .DELAYS({32'd2, 32'd2, 32'd1}),
                 .HW_DELAYS({32'd33, 32'd31, 32'd16}), .CYCLES(CYCLES))
        u9 (.clk(clk), .done(done[9]), .errors(errors[9]), .checked(checked[9]));
`ifdef CLHLS_SIM_MODELS
    folded_check u10 (.clk(clk), .done(done[10]), .errors(errors[10]), .checked(checked[10]));
`endif

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
                $display("FAIL tb_delay_taps: %0d failed checks (%0d taps compared)", total_errors, total_checked);
                $fatal(1);
            end
`ifdef CLHLS_SIM_MODELS
            $display("PASS tb_delay_taps (ring buffers, SIM_DELAYS): %0d instances, %0d cycles each, %0d taps compared",
                     NU, CYCLES, total_checked);
`else
            $display("PASS tb_delay_taps (register chains): %0d instances, %0d cycles each, %0d taps compared",
                     NU, CYCLES, total_checked);
`endif
            $finish;
        end
        if (cycles > CYCLES + 100) begin $display("FAIL tb_delay_taps: timeout"); $fatal(1); end
    end
endmodule
