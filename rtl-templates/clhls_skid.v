// clhls_skid: two-entry skid buffer (register slice) with valid/ready.
//
// Cuts every combinational path between its two sides: m_valid/m_data come from
// the output register and s_ready from the state of the skid register, so neither
// side sees the other's handshake signals combinationally. Sustains one transfer
// per cycle; adds one cycle of latency.
`default_nettype none

module clhls_skid #(
    parameter WIDTH = 32  // bits per transfer
) (
    input  wire             clk,      // clock
    input  wire             rst,      // synchronous active-high reset (drops contents)
    input  wire             s_valid,  // producer offers s_data
    output wire             s_ready,  // registered: the skid register is empty
    input  wire [WIDTH-1:0] s_data,   // data taken when s_valid && s_ready
    output reg              m_valid,  // registered: output register holds data
    input  wire             m_ready,  // consumer takes m_data when m_valid && m_ready
    output reg  [WIDTH-1:0] m_data    // output register
);
    reg             skid_valid;  // second entry holds data (the consumer stalled)
    reg [WIDTH-1:0] skid_data;   // second entry

    wire in_fire  = s_valid && s_ready;
    wire out_free = !m_valid || m_ready;  // output register is free at the clock edge

    assign s_ready = !skid_valid;

    always @(posedge clk) begin
        if (rst) begin
            m_valid    <= 1'b0;
            skid_valid <= 1'b0;
        end else if (out_free) begin
            if (skid_valid) begin
                // s_ready was 0, so nothing came in this cycle.
                m_valid    <= 1'b1;
                skid_valid <= 1'b0;
            end else begin
                m_valid <= in_fire;
            end
        end else if (in_fire) begin
            skid_valid <= 1'b1;
        end
    end

    always @(posedge clk) begin
        if (out_free) begin
            if (skid_valid)
                m_data <= skid_data;
            else if (in_fire)
                m_data <= s_data;
        end else if (in_fire) begin
            skid_data <= s_data;
        end
    end
endmodule

`default_nettype wire
