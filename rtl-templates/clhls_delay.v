// clhls_delay: a pipeline of LATENCY registers with a clock enable. The operators
// (clhls_fadd, clhls_fmul, ...) compute combinationally and put their result through
// one of these, and the compiler uses it for multi-cycle integer operations: with
// ce tied to the compute unit's pipeline enable, the value moves with its work-item.
// LATENCY = 0 is a wire.
`default_nettype none
module clhls_delay #(
    parameter WIDTH = 32,  // bits of the value
    parameter LATENCY = 1  // registers between d and q (0 = combinational)
) (
    input  wire clk,               // clock
    input  wire ce,                // clock enable: when 0 every register holds
    input  wire [WIDTH-1:0] d,     // value entering the pipeline
    output wire [WIDTH-1:0] q      // d as it was LATENCY enabled cycles ago
);
    generate
        if (LATENCY == 0) begin : wire_only
            assign q = d;
        end else if (LATENCY == 1) begin : one_stage
            reg [WIDTH-1:0] stage;
            always @(posedge clk)
                if (ce) stage <= d;
            assign q = stage;
        end else begin : many_stages
            reg [WIDTH*LATENCY-1:0] stages;  // stage k at [WIDTH*k +: WIDTH]; the last drives q
            always @(posedge clk)
                if (ce) stages <= {stages[WIDTH*(LATENCY-1)-1:0], d};
            assign q = stages[WIDTH*LATENCY-1 -: WIDTH];
        end
    endgenerate
endmodule
`default_nettype wire
