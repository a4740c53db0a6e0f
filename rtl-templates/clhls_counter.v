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
    output wire [63:0]      value   // the count (exact one cycle after the last inc)
);
    reg  [LOW_W-1:0]    low;
    reg  [WIDTH-LOW_W-1:0] high;
    reg                 carry;      // the low half wrapped: the high half adds 1 next
    wire [LOW_W:0]      low_next = {1'b0, low} + {{(LOW_W + 1 - INC_W){1'b0}}, inc};
    localparam [WIDTH-LOW_W-1:0] ZERO_HIGH = 0;

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
            low   <= low_next[LOW_W-1:0];
            carry <= low_next[LOW_W];
            high  <= high + {ZERO_HIGH[WIDTH-LOW_W-1:1], carry};
        end
    end
endmodule

`default_nettype wire
