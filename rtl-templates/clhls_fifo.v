// clhls_fifo: synchronous first-in first-out queue with valid/ready on both sides.
//
// Used wherever the generated hardware needs elastic buffering (load-store units,
// between pipeline parts). Any DEPTH >= 1 works (no power of two needed). s_ready (not
// full), m_valid (not empty) and count are registers, and so is m_data's source, so no
// combinational path crosses the queue and a consumer of m_data starts at a register:
//   - a small queue (under 16 entries or 1024 bits), or any with HEAD_REG = 1, keeps
//     its oldest entry in a head register and the others in an array of DEPTH - 1
//     slots, written and read at the clock edge (registers, or LUT RAM when large): a
//     pop loads the head from the array, or, when the array is empty, from a push in
//     the same cycle; a push into an empty queue goes straight in;
//   - a large one otherwise is a block RAM read synchronously (read-first) at the slot
//     after the head, a register, whenever the head is popped; an entry pushed at the
//     edge that makes it the head (the queue empties or was empty) is taken from a
//     register beside the RAM instead, chosen by a flag that the count's flags decide.
//     The RAM's address and enable are a register and the pop: no compare of the read
//     and write addresses (a transparent read would need one) follows the handshake.
// A push and a pop may happen in the same cycle; when the queue is full it refuses
// pushes (s_ready = 0) but can still be popped. Both forms behave the same, cycle for
// cycle: an entry pushed at one edge is offered from the next cycle on.
//
// Simulation: with CLHLS_SIM_MODELS defined (the simulator's default builds, never
// synthesis) the queue is a third form, the same at its ports cycle for cycle: a ring
// of DEPTH entries read at its oldest, stepping in one clocked block that does
// nothing in a cycle without a push or a pop, where the synthesised forms evaluate
// every handshake term, pointer and count in every cycle. `-clhls-rtl-operators`
// simulates the synthesised forms; rtl_tb_fifo_sim_models runs the testbench on this
// one. (m_data while m_valid is 0 is undefined in every form.)
`default_nettype none

module clhls_fifo #(
    parameter WIDTH = 32,  // bits per entry
    parameter DEPTH = 4,   // number of entries, >= 1
    /* verilator lint_off UNUSEDPARAM */ // (by the synthesised forms only)
    parameter HEAD_REG = 0 // 1: a head register even when large (m_data is a register, not the
                           // block RAM's read register behind a multiplexer; for a narrow queue
                           // whose head's consumer is on a short path)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire                       clk,      // clock
    input  wire                       rst,      // synchronous active-high reset (empties the queue)
    input  wire                       s_valid,  // producer offers s_data
    output reg                        s_ready,  // queue has room (registered: not full)
    input  wire [WIDTH-1:0]           s_data,   // entry pushed when s_valid && s_ready
    output reg                        m_valid,  // queue not empty (registered)
    input  wire                       m_ready,  // consumer takes m_data when m_valid && m_ready
    output wire [WIDTH-1:0]           m_data,   // oldest entry (from a register, or the RAM's read register)
    output reg  [$clog2(DEPTH+1)-1:0] count     // occupancy, 0..DEPTH
);
`ifdef CLHLS_SIM_MODELS
    localparam RING_W = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam integer LAST_INDEX = DEPTH - 1;
    localparam [RING_W-1:0] LAST_SLOT = LAST_INDEX[RING_W-1:0];
    localparam integer DEPTH_INT = DEPTH;
    localparam [$clog2(DEPTH+1)-1:0] FULL_COUNT = DEPTH_INT[$clog2(DEPTH+1)-1:0];

    reg [WIDTH-1:0]  ring [0:DEPTH-1];  // the entries, the oldest at `first`
    reg [RING_W-1:0] first;             // slot of the oldest entry
    reg [RING_W-1:0] free;              // slot the next push goes to
    assign m_data = ring[first];

    always @(posedge clk) begin : step
        reg push, pop;
        push = s_valid && s_ready;
        pop  = m_valid && m_ready;
        if (rst) begin
            first   <= {RING_W{1'b0}};
            free    <= {RING_W{1'b0}};
            count   <= 0;
            s_ready <= 1'b1;
            m_valid <= 1'b0;
        end else if (push || pop) begin
            if (push) begin
                ring[free] <= s_data;
                free <= (free == LAST_SLOT) ? {RING_W{1'b0}} : free + 1'b1;
            end
            if (pop)
                first <= (first == LAST_SLOT) ? {RING_W{1'b0}} : first + 1'b1;
            if (push && !pop) begin
                count   <= count + 1'b1;
                s_ready <= count + 1'b1 != FULL_COUNT;
                m_valid <= 1'b1;
            end else if (pop && !push) begin
                count   <= count - 1'b1;
                s_ready <= 1'b1;
                m_valid <= count != 1;
            end
        end
    end
`else
    // A block RAM from 16 entries and 1024 bits on (unless HEAD_REG), else a head
    // register and an array.
    localparam BLOCK = HEAD_REG == 0 && DEPTH >= 16 && WIDTH * DEPTH >= 1024;
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
    /* verilator lint_off UNUSEDSIGNAL */ // a block RAM reads at read_next only
    reg [PTR_W-1:0] read_ptr;             // slot of the oldest stored entry
    /* verilator lint_on UNUSEDSIGNAL */
    reg [PTR_W-1:0] read_next;            // the slot after it (a register: a block RAM's
                                          // read address is then a pop away from it)
    reg             stored;               // the queue holds two entries or more

    wire push = s_valid && s_ready;
    wire pop  = m_valid && m_ready;
    wire head_from_array;  // the array's oldest entry leaves it (popped, or into the head)
    wire into_array;       // the push is stored in the array

    // A blocking write: the slot written is never one whose value is used at this edge
    // (a small queue reads its array only when it holds an entry, and a push then
    // finds it at most DEPTH - 2 full; a block RAM read of the slot being written is
    // replaced by the pushed entry), and a simulator then writes the entry once
    // instead of queueing a copy of it for the end of the time step.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (into_array)
            storage[write_ptr] = s_data;
    end
    /* verilator lint_on BLKSEQ */

    // The push becomes the oldest entry: the queue is empty, or holds one that leaves.
    // Written with the handshakes' own inputs (as the array's write below), each is one
    // function of s_valid, m_ready and registers, not a gate behind `pop`.
    wire head_from_input = s_valid && s_ready && (!m_valid || (m_ready && !stored));

    generate
        if (BLOCK) begin : block_ram
            reg [WIDTH-1:0] read_data;   // the RAM's slot after the head, read at a pop
            reg [WIDTH-1:0] pushed;      // the push that became the head
            reg             from_push;   // the head is `pushed` (its slot was being written)
            assign head_from_array = pop;
            assign into_array      = push;
            always @(posedge clk) begin
                if (pop)
                    read_data <= storage[read_next];
                if (head_from_input)
                    pushed <= s_data;
                if (rst)
                    from_push <= 1'b0;
                else if (head_from_input || pop)
                    from_push <= head_from_input;
            end
            assign m_data = from_push ? pushed : read_data;
        end else begin : head_register
            reg [WIDTH-1:0] head;  // the oldest entry
            assign head_from_array = pop && stored;                        // the next oldest moves up
            assign into_array      = s_valid && s_ready && m_valid && (!m_ready || stored);
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
    // register alone, so a handshake adds one multiplexer in front of them. The count
    // one up and one down are both computed from the register and both compared (a
    // synthesis tool would otherwise share one adder between them and put the
    // handshake in front of its carry chain).
    wire up   = push && !pop;
    wire down = pop && !push;
    wire [CNT_W-1:0] count_up   = count + ONE;
    wire [CNT_W-1:0] count_down = count - ONE;
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
                count   <= count_up;
                s_ready <= count_up != FULL_COUNT;
                m_valid <= 1'b1;
                stored  <= m_valid;
            end else if (down) begin
                count   <= count_down;
                s_ready <= 1'b1;
                m_valid <= count_down != {CNT_W{1'b0}};
                stored  <= count_down > ONE;
            end
        end
    end
`endif
endmodule

`default_nettype wire
