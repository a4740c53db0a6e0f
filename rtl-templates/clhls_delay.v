// clhls_delay: a pipeline of LATENCY registers with a clock enable. The operators
// put their result through one of these (clhls_fadd and clhls_fmul also use them, with
// LATENCY 0 or 1, as the registers between their stages), and the compiler uses it
// for multi-cycle integer operations and to carry values between the stages that
// read them: with ce tied to the region's pipeline enable, the value moves with its
// work-item. LATENCY = 0 is a wire. From RING_MIN stages on, the delay is a ring
// buffer (one RAM, a pointer that advances on ce, a register at its output) instead of
// a register chain: the same behaviour, constant work per cycle in simulation and LUT
// RAM instead of flip-flops on an FPGA.
// Simulation: with CLHLS_SIM_MODELS defined, SIM_LATENCY replaces LATENCY. The
// compiler simulates a static region folded: several of its stages are one stage in
// simulation (the SIM_LATENCY of its operators and carried values count those), and
// the values leaving it go through one delay of the stages folded away (LATENCY 0, a
// wire in hardware; SIM_LATENCY the rest). All share the region's enable, so what
// leaves the region, and when, is the same.
`default_nettype none
module clhls_delay #(
    parameter WIDTH = 32,  // bits of the value
    parameter LATENCY = 1, // registers between d and q (0 = combinational)
    parameter RING_MIN = 4, // from this latency on, a ring buffer
    /* verilator lint_off UNUSEDPARAM */
    parameter SIM_LATENCY = LATENCY // the latency with CLHLS_SIM_MODELS defined
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire clk,               // clock
    input  wire ce,                // clock enable: when 0 every register holds
    input  wire [WIDTH-1:0] d,     // value entering the pipeline
    output wire [WIDTH-1:0] q      // d as it was LATENCY enabled cycles ago
);
`ifdef CLHLS_SIM_MODELS
    localparam integer STAGES = SIM_LATENCY;
`else
    localparam integer STAGES = LATENCY;
`endif
    generate
        if (STAGES == 0) begin : wire_only
            assign q = d;
            // No register: the clock and its enable are not used (an operator's
            // optional stage register, clhls_fadd's for instance, is one of these).
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_clk_ce = clk ^ ce;
            /* verilator lint_on UNUSEDSIGNAL */
        end else if (STAGES == 1) begin : one_stage
            reg [WIDTH-1:0] stage;
            always @(posedge clk)
                if (ce) stage <= d;
            assign q = stage;
        end else if (STAGES >= RING_MIN) begin : ring
            // STAGES - 1 slots and an output register: the slot at ptr, read as it is
            // overwritten, holds d of STAGES - 1 enables ago, so the register holds d of
            // STAGES enables ago and q leaves a flip-flop, not a LUT RAM's read port.
            // The slots are LUT RAM (ram_style "distributed"; `clhls synth` maps it on
            // families whose synthesis command ignores the attribute and drops it on
            // those without LUT RAM), not a block RAM mostly empty.
            localparam integer SLOTS = STAGES - 1;
            localparam PTR_W = SLOTS > 1 ? $clog2(SLOTS) : 1;
            localparam integer LAST_INT = SLOTS - 1;
            localparam [PTR_W-1:0] LAST = LAST_INT[PTR_W-1:0];
            (* ram_style = "distributed" *)
            reg [WIDTH-1:0] slots [0:SLOTS-1];    // slot ptr holds d of SLOTS enables ago
            reg [PTR_W-1:0] ptr = {PTR_W{1'b0}};  // oldest slot, read and overwritten next
            reg [WIDTH-1:0] oldest;               // d of STAGES enables ago
            always @(posedge clk)
                if (ce) begin
                    oldest <= slots[ptr];
                    slots[ptr] <= d;
                    ptr <= (ptr == LAST) ? {PTR_W{1'b0}} : ptr + 1'b1;
                end
            assign q = oldest;
        end else begin : many_stages
            // One register per stage (not one wide vector shifted as a whole): the same
            // flip-flops, and word copies instead of multi-word shifts in simulation.
            genvar k;
            for (k = 0; k < STAGES; k = k + 1) begin : stage
                reg [WIDTH-1:0] value;  // d of k + 1 enables ago
                if (k == 0) begin : first
                    always @(posedge clk)
                        if (ce) value <= d;
                end else begin : next
                    always @(posedge clk)
                        if (ce) value <= stage[k - 1].value;
                end
            end
            assign q = stage[STAGES - 1].value;
        end
    endgenerate
endmodule
`default_nettype wire
