// clhls_fifo: synchronous first-in first-out queue with valid/ready on both sides.
//
// Used wherever the generated hardware needs elastic buffering (load-store units,
// between pipeline parts). Any DEPTH >= 1 works (no power of two needed). s_ready (not
// full), m_valid (not empty) and count are registers, and so is m_data's source, so no
// combinational path crosses the queue and a consumer of m_data starts at a register:
//   - a small queue (under 16 entries or 1024 bits) keeps its oldest entry in a head
//     register and the others in an array of DEPTH - 1 slots, written and read at the
//     clock edge: a pop loads the head from the array, or, when the array is empty,
//     from a push in the same cycle; a push into an empty queue goes straight in;
//   - a large one is a block RAM: m_data is the array read at read_ptr, a register,
//     which synthesis moves into the RAM as its registered read address (one more
//     register of WIDTH bits would cost more than the path it saves).
// A push and a pop may happen in the same cycle; when the queue is full it refuses
// pushes (s_ready = 0) but can still be popped. Both forms behave the same, cycle for
// cycle: an entry pushed at one edge is offered from the next cycle on.
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
    output wire [WIDTH-1:0]           m_data,   // oldest entry (from a register or the RAM)
    output reg  [$clog2(DEPTH+1)-1:0] count     // occupancy, 0..DEPTH
);
    // A block RAM from 16 entries and 1024 bits on, else a head register and an array.
    localparam BLOCK = DEPTH >= 16 && WIDTH * DEPTH >= 1024;
    // The array: DEPTH slots for a block RAM, DEPTH - 1 behind the head (one, never
    // used, when DEPTH = 1).
    localparam SLOTS = BLOCK ? DEPTH : (DEPTH > 1) ? DEPTH - 1 : 1;
    // Pointer width: at least one bit so that a single slot still has a legal vector.
    localparam PTR_W = (SLOTS > 1) ? $clog2(SLOTS) : 1;
    localparam CNT_W = $clog2(DEPTH + 1);
    localparam integer LAST_INDEX = SLOTS - 1;
    localparam integer DEPTH_INT = DEPTH;
    localparam [PTR_W-1:0] LAST_SLOT = LAST_INDEX[PTR_W-1:0];  // index of the last slot
    localparam [CNT_W-1:0] FULL_COUNT = DEPTH_INT[CNT_W-1:0];  // count value meaning "full"
    localparam [CNT_W-1:0] ONE = {{(CNT_W-1){1'b0}}, 1'b1};

    reg [WIDTH-1:0] storage [0:SLOTS-1];  // the entries (after the head in a small queue)
    reg [PTR_W-1:0] write_ptr;            // slot the next stored push goes to
    reg [PTR_W-1:0] read_ptr;             // slot of the oldest stored entry
    reg [PTR_W-1:0] read_next;            // the slot after it (a register: a block RAM's
                                          // read address is then a pop away from it)
    /* verilator lint_off UNUSEDSIGNAL */ // a block RAM has no head: it does not read it
    reg             stored;               // a small queue's array holds an entry (count >= 2)
    /* verilator lint_on UNUSEDSIGNAL */

    wire push = s_valid && s_ready;
    wire pop  = m_valid && m_ready;
    wire head_from_array;  // the array's oldest entry leaves it (popped, or into the head)
    wire into_array;       // the push is stored in the array

    // A blocking write: the slot written is never the one read at this edge (in a
    // small queue the array is read only when it holds an entry, and a push then finds
    // it at most DEPTH - 2 full), and a simulator then writes the entry once instead of
    // queueing a copy of it for the end of the time step.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (into_array)
            storage[write_ptr] = s_data;
    end
    /* verilator lint_on BLKSEQ */

    generate
        if (BLOCK) begin : block_ram
            assign head_from_array = pop;
            assign into_array      = push;
            assign m_data          = storage[read_ptr];
        end else begin : head_register
            reg [WIDTH-1:0] head;  // the oldest entry
            wire head_from_input = push && (!m_valid || (pop && !stored)); // the push is the oldest
            assign head_from_array = pop && stored;                        // the next oldest moves up
            assign into_array      = push && !head_from_input;
            always @(posedge clk) begin
                if (head_from_array)
                    head <= storage[read_ptr];
                else if (head_from_input)
                    head <= s_data;
            end
            assign m_data = head;
        end
    endgenerate

    // The flags follow the count one step at a time; their compares read the count
    // register alone, so a handshake adds one multiplexer in front of them.
    wire up   = push && !pop;
    wire down = pop && !push;
    always @(posedge clk) begin
        if (rst) begin
            write_ptr <= {PTR_W{1'b0}};
            read_ptr  <= {PTR_W{1'b0}};
            read_next <= (LAST_SLOT == {PTR_W{1'b0}}) ? {PTR_W{1'b0}} : {{(PTR_W-1){1'b0}}, 1'b1};
            count     <= {CNT_W{1'b0}};
            s_ready   <= 1'b1;
            m_valid   <= 1'b0;
            stored    <= 1'b0;
        end else begin
            if (into_array)
                write_ptr <= (write_ptr == LAST_SLOT) ? {PTR_W{1'b0}} : write_ptr + 1'b1;
            if (head_from_array) begin
                read_ptr  <= read_next;
                read_next <= (read_next == LAST_SLOT) ? {PTR_W{1'b0}} : read_next + 1'b1;
            end
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
