// clhls_fifo: synchronous first-in first-out queue with valid/ready on both sides.
//
// Used wherever the generated hardware needs elastic buffering (load-store units,
// between pipeline parts). Any DEPTH >= 1 works (no power of two needed). Every output
// comes straight from a register: s_ready (not full), m_valid (not empty), m_data (the
// head register, which holds the oldest entry) and count, so no combinational path
// crosses the queue and a consumer of m_data starts at a register. The other entries
// wait in a storage array of DEPTH - 1 slots written and read at the clock edge (a
// block or LUT RAM with a registered read): a pop loads the head from the array, or,
// when the array is empty, from a push in the same cycle; a push into an empty queue
// goes straight into the head. A push and a pop may happen in the same cycle; when
// the queue is full it refuses pushes (s_ready = 0) but can still be popped. The
// cycle behaviour is that of a queue whose head is read combinationally: an entry
// pushed at one edge is offered from the next cycle on.
`default_nettype none

module clhls_fifo #(
    parameter WIDTH = 32,  // bits per entry
    parameter DEPTH = 4    // number of entries, >= 1
) (
    input  wire                       clk,      // clock
    input  wire                       rst,      // synchronous active-high reset (empties the queue)
    input  wire                       s_valid,  // producer offers s_data
    output reg                        s_ready,  // queue has room (registered: not full)
    input  wire [WIDTH-1:0]           s_data,   // entry pushed when s_valid && s_ready
    output reg                        m_valid,  // queue not empty (registered)
    input  wire                       m_ready,  // consumer takes m_data when m_valid && m_ready
    output reg  [WIDTH-1:0]           m_data,   // oldest entry (the head register)
    output reg  [$clog2(DEPTH+1)-1:0] count     // occupancy, 0..DEPTH
);
    // The array behind the head: DEPTH - 1 slots (one, never used, when DEPTH = 1).
    localparam SLOTS = (DEPTH > 1) ? DEPTH - 1 : 1;
    // Pointer width: at least one bit so that a single slot still has a legal vector.
    localparam PTR_W = (SLOTS > 1) ? $clog2(SLOTS) : 1;
    localparam CNT_W = $clog2(DEPTH + 1);
    localparam integer LAST_INDEX = SLOTS - 1;
    localparam integer DEPTH_INT = DEPTH;
    localparam [PTR_W-1:0] LAST_SLOT = LAST_INDEX[PTR_W-1:0];  // index of the last slot
    localparam [CNT_W-1:0] FULL_COUNT = DEPTH_INT[CNT_W-1:0];  // count value meaning "full"
    localparam [CNT_W-1:0] ONE = {{(CNT_W-1){1'b0}}, 1'b1};

    reg [WIDTH-1:0] storage [0:SLOTS-1];  // the entries after the head
    reg [PTR_W-1:0] write_ptr;            // slot the next stored push goes to
    reg [PTR_W-1:0] read_ptr;             // slot of the oldest stored entry
    reg             stored;               // the array holds an entry (count >= 2)

    wire push = s_valid && s_ready;
    wire pop  = m_valid && m_ready;
    wire head_from_array = pop && stored;                          // the next oldest moves up
    wire head_from_input = push && (!m_valid || (pop && !stored)); // the push is the oldest
    wire into_array      = push && !head_from_input;

    // A blocking write: the slot written is never the one read at this edge (the array
    // is read only when it holds an entry, and a push then finds it at most DEPTH - 2
    // full), and a simulator then writes the entry once instead of queueing a copy of
    // it for the end of the time step.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (into_array)
            storage[write_ptr] = s_data;
    end
    /* verilator lint_on BLKSEQ */

    always @(posedge clk) begin
        if (head_from_array)
            m_data <= storage[read_ptr];
        else if (head_from_input)
            m_data <= s_data;
    end

    // The flags follow the count one step at a time; their compares read the count
    // register alone, so a handshake adds one multiplexer in front of them.
    wire up   = push && !pop;
    wire down = pop && !push;
    always @(posedge clk) begin
        if (rst) begin
            write_ptr <= {PTR_W{1'b0}};
            read_ptr  <= {PTR_W{1'b0}};
            count     <= {CNT_W{1'b0}};
            s_ready   <= 1'b1;
            m_valid   <= 1'b0;
            stored    <= 1'b0;
        end else begin
            if (into_array)
                write_ptr <= (write_ptr == LAST_SLOT) ? {PTR_W{1'b0}} : write_ptr + 1'b1;
            if (head_from_array)
                read_ptr <= (read_ptr == LAST_SLOT) ? {PTR_W{1'b0}} : read_ptr + 1'b1;
            if (up) begin
                count   <= count + ONE;
                s_ready <= count != FULL_COUNT - ONE;
                m_valid <= 1'b1;
                stored  <= m_valid;
            end else if (down) begin
                count   <= count - ONE;
                s_ready <= 1'b1;
                m_valid <= count != ONE;
                stored  <= count > ONE + ONE;
            end
        end
    end
endmodule

`default_nettype wire
