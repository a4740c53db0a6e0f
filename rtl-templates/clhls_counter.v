// clhls_counter: an event counter of up to 64 bits whose carry chains are at most 32
// bits long.
//
// Counts `inc` (0 .. 2^INC_W - 1) every cycle into two halves: the low LOW_W bits add
// `inc`, their carry-out is registered and added to the high bits one cycle later, so
// no path crosses more than a 32-bit adder (a 64-bit increment is the longest path of
// a small FPGA's design otherwise). `value` is exact one cycle after the last
// increment (while a carry is pending the high half is one behind). `clear` restarts
// the count at this cycle's `inc`, dropping any pending carry: a counter cleared by a
// registered start counts the events of the start's cycle, as one cleared a cycle
// earlier would (the start's decode then drives two registers, not every counter).
// WIDTH bits are counted, modulo 2^WIDTH; `value`'s bits above them read zero (a board's
// counters keep what a year of its clock needs, not 64 bits of registers and carries).
// `skip` is the simulator's (CLHLS_SIM_CHECKS; 0 in hardware): when it jumps over cycles
// in which nothing moves, one edge stands for 1 + skip cycles of the same `inc`, and the
// counter ends where as many edges would have left it, its pending carry included.
`default_nettype none

module clhls_counter #(
    parameter INC_W = 1,    // bits of the increment (1 .. LOW_W - 1)
    parameter LOW_W = 32,   // bits of the low half (a test makes it small to see carries)
    parameter WIDTH = 64    // bits counted (LOW_W + 2 .. 64)
) (
    input  wire             clk,    // clock
    input  wire             rst,    // synchronous active-high reset (zero)
    input  wire             clear,  // restart the count at inc
    input  wire [INC_W-1:0] inc,    // added this cycle
    /* verilator lint_off UNUSEDSIGNAL */ // (the simulator's)
    input  wire [31:0]      skip,   // this edge stands for 1 + skip cycles of inc (simulation)
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [63:0]      value   // the count (exact one cycle after the last inc)
);
    reg  [LOW_W-1:0]    low;
    reg  [WIDTH-LOW_W-1:0] high;
    reg                 carry;      // the low half wrapped: the high half adds 1 next
    wire [LOW_W:0]      low_next = {1'b0, low} + {{(LOW_W + 1 - INC_W){1'b0}}, inc};
    localparam [WIDTH-LOW_W-1:0] ZERO_HIGH = 0;
`ifdef CLHLS_SIM_CHECKS
    // A jump's edge: {carry, high, low} after 1 + skip increments. The last one's carry
    // is still pending, as after that many edges: when it wrapped the low half, the
    // high half is one behind. (A function, so that only a jump's edge computes it.)
    /* verilator lint_off UNUSEDSIGNAL */
    function [WIDTH:0] after_jump(input unused);
        reg [63:0] count;  // modulo 2^WIDTH in its low bits
        reg wrapped;
        begin
            count = 64'd0;
            count[WIDTH-1:0] = {high, low};
            count = count + ({63'd0, carry} << LOW_W) +
                    {{(64-INC_W){1'b0}}, inc} * ({32'd0, skip} + 64'd1);
            wrapped = count[LOW_W-1:0] < {{(LOW_W-INC_W){1'b0}}, inc};
            count = count - ({63'd0, wrapped} << LOW_W);
            after_jump = {wrapped, count[WIDTH-1:0]};
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
`endif

    if (WIDTH < 64) begin : padded
        assign value = {{(64 - WIDTH){1'b0}}, high, low};
    end else begin : full
        assign value = {high, low};
    end

    always @(posedge clk) begin
        if (rst) begin
            low   <= {LOW_W{1'b0}};
            high  <= ZERO_HIGH;
            carry <= 1'b0;
        end else if (clear) begin
            low   <= {{(LOW_W - INC_W){1'b0}}, inc};
            high  <= ZERO_HIGH;
            carry <= 1'b0;
        end else begin
`ifdef CLHLS_SIM_CHECKS
            if (skip != 32'd0) begin
                {carry, high, low} <= after_jump(1'b0);
            end else
`endif
            begin
                low   <= low_next[LOW_W-1:0];
                carry <= low_next[LOW_W];
                high  <= high + {ZERO_HIGH[WIDTH-LOW_W-1:1], carry};
            end
        end
    end
endmodule

`default_nettype wire
