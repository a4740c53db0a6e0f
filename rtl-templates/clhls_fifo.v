// clhls_fifo: synchronous first-in first-out queue with valid/ready on both sides.
//
// Used wherever the generated hardware needs elastic buffering (load-store units,
// between pipeline parts). Any DEPTH >= 1 works (no power of two needed). The
// outputs s_ready, m_valid and m_data come straight from registers (s_ready = not
// full, m_valid = not empty), so no combinational path crosses the queue. A push
// and a pop may happen in the same cycle; when the queue is full it refuses pushes
// (s_ready = 0) but can still be popped.
`default_nettype none

module clhls_fifo #(
    parameter WIDTH = 32,  // bits per entry
    parameter DEPTH = 4    // number of entries, >= 1
) (
    input  wire                       clk,      // clock
    input  wire                       rst,      // synchronous active-high reset (empties the queue)
    input  wire                       s_valid,  // producer offers s_data
    output wire                       s_ready,  // queue has room (registered: not full)
    input  wire [WIDTH-1:0]           s_data,   // entry pushed when s_valid && s_ready
    output wire                       m_valid,  // queue not empty (registered)
    input  wire                       m_ready,  // consumer takes m_data when m_valid && m_ready
    output wire [WIDTH-1:0]           m_data,   // oldest entry
    output reg  [$clog2(DEPTH+1)-1:0] count     // occupancy, 0..DEPTH
);
    // Pointer width: at least one bit so that DEPTH = 1 still has a legal vector.
    localparam PTR_W = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam CNT_W = $clog2(DEPTH + 1);
    localparam integer LAST_INDEX = DEPTH - 1;
    localparam integer DEPTH_INT = DEPTH;
    localparam [PTR_W-1:0] LAST_SLOT = LAST_INDEX[PTR_W-1:0];  // index of the last storage slot
    localparam [CNT_W-1:0] FULL_COUNT = DEPTH_INT[CNT_W-1:0];  // count value meaning "full"

    reg [WIDTH-1:0] storage [0:DEPTH-1];  // entries
    reg [PTR_W-1:0] write_ptr;            // slot the next push goes to
    reg [PTR_W-1:0] read_ptr;             // slot of the oldest entry

    wire push = s_valid && s_ready;
    wire pop  = m_valid && m_ready;

    assign s_ready = (count != FULL_COUNT);
    assign m_valid = (count != {CNT_W{1'b0}});
    assign m_data  = storage[read_ptr];

    // A blocking write: the slot written is free (no one reads it at this edge; the
    // read is combinational), and a simulator then writes the entry once instead of
    // queueing a copy of it for the end of the time step.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (push)
            storage[write_ptr] = s_data;
    end
    /* verilator lint_on BLKSEQ */

    always @(posedge clk) begin
        if (rst) begin
            write_ptr <= {PTR_W{1'b0}};
            read_ptr  <= {PTR_W{1'b0}};
            count     <= {CNT_W{1'b0}};
        end else begin
            if (push)
                write_ptr <= (write_ptr == LAST_SLOT) ? {PTR_W{1'b0}} : write_ptr + 1'b1;
            if (pop)
                read_ptr <= (read_ptr == LAST_SLOT) ? {PTR_W{1'b0}} : read_ptr + 1'b1;
            if (push && !pop)
                count <= count + 1'b1;
            else if (pop && !push)
                count <= count - 1'b1;
        end
    end
endmodule

`default_nettype wire
