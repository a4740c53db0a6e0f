// clhls_wg_dispatch: walks the work-groups of one NDRange.
//
// On `start` it latches the geometry and then hands out one group token per cycle
// (x fastest, then y, then z) on a valid/ready stream. Each token carries the group
// id and the group's ACTUAL size: the enqueued local size, except for the last group
// of a dimension whose global size is not a multiple of the local size (non-uniform
// work-groups), which gets global_size - group_id * local_size. No multiplier: the
// first global index of the current group is kept as a running sum modulo 2^LS_W (a
// group is never wider than its LS_W-bit local size, so the low bits give its size).
// Group ids are counted in min(ID_W, 32) bits. Unused dimensions must have global
// size 1, local size 1 and one group. m_valid and the token come from registers.
// Latency: the first token is valid two cycles after start.
// With NCU > 1 the kernel has NCU compute units, each with a dispatcher of its own that
// walks every group and hands out every NCU-th, starting at group `cu_index` (x fastest
// as above): the groups are dealt out in turn. A group of another compute unit costs a
// cycle of the walk, taken while the output waits, so a unit whose groups have at least
// NCU work-items each never waits for its dispatcher.
`default_nettype none

module clhls_wg_dispatch #(
    parameter ID_W = 64,   // bits of a work-item index (the board's; group ids keep min(ID_W, 32))
    parameter LS_W = 32,   // bits of a local size (the kernel's largest work-group size fits)
    parameter NCU  = 1     // compute units of the kernel, each with its own dispatcher (1..256)
) (
    input  wire        clk,             // clock
    input  wire        rst,             // synchronous active-high reset
    input  wire        start,           // pulse: latch the geometry and begin
    /* verilator lint_off UNUSEDSIGNAL */ // the low LS_W bits give the last group's size,
    input  wire [63:0] global_size_x,   // global size, dimension 0 (>= 1)
    input  wire [63:0] global_size_y,   // global size, dimension 1 (>= 1)
    input  wire [63:0] global_size_z,   // global size, dimension 2 (>= 1)
    input  wire [31:0] local_size_x,    // enqueued local size, dimension 0 (1 .. 2^LS_W - 1)
    input  wire [31:0] local_size_y,    // enqueued local size, dimension 1 (1 .. 2^LS_W - 1)
    input  wire [31:0] local_size_z,    // enqueued local size, dimension 2 (1 .. 2^LS_W - 1)
    input  wire [31:0] num_groups_x,    // ceil(global/local), dimension 0 (1 .. 2^GW)
    input  wire [31:0] num_groups_y,    // ceil(global/local), dimension 1 (1 .. 2^GW)
    input  wire [31:0] num_groups_z,    // ceil(global/local), dimension 2 (1 .. 2^GW)
    input  wire [7:0]  cu_index,        // this compute unit, 0 .. NCU-1 (its low bits; none when NCU == 1)
    /* verilator lint_on UNUSEDSIGNAL */ // (the high bits of sizes and counts are zero)
    output reg         m_valid,         // a group token is offered
    input  wire        m_ready,         // consumer takes the token
    output reg  [31:0] m_group_id_x,    // group id, dimension 0
    output reg  [31:0] m_group_id_y,    // group id, dimension 1
    output reg  [31:0] m_group_id_z,    // group id, dimension 2
    output reg  [31:0] m_group_size_x,  // actual size of this group, dimension 0
    output reg  [31:0] m_group_size_y,  // actual size of this group, dimension 1
    output reg  [31:0] m_group_size_z,  // actual size of this group, dimension 2
    output reg         all_issued,      // the last group was taken (until the next start)
    output wire        busy,            // started and not all groups taken
    output wire        still            // the next edge changes nothing (no group moves)
);
    `include "clhls_widen.vh"   // GW, widen, group32, local32

    // Latched geometry.
    reg [LS_W-1:0] global_x, global_y, global_z;   // global size modulo 2^LS_W
    reg [LS_W-1:0] local_x, local_y, local_z;
    reg [GW-1:0]   last_group_x, last_group_y, last_group_z;  // num_groups - 1

    // The next group to hand out.
    reg            pending;                        // groups remain to be loaded into the output
    reg [GW-1:0]   group_x, group_y, group_z;      // its id
    reg [LS_W-1:0] base_x, base_y, base_z;         // group id * local size modulo 2^LS_W
    reg        running;                        // between start and the last handshake

    // Whose the next group is: this unit's when the turn is its index.
    localparam TURN_W = NCU > 1 ? $clog2(NCU) : 1;
    localparam integer LAST_UNIT = NCU - 1;
    localparam [TURN_W-1:0] LAST_TURN = LAST_UNIT[TURN_W-1:0];   // the last unit's turn
    reg  [TURN_W-1:0] turn;                        // the next group's compute unit
    wire mine     = NCU == 1 || turn == cu_index[TURN_W-1:0];
    wire out_free = !m_valid || m_ready;
    wire load     = pending && out_free && mine;   // the next group goes out
    wire step     = pending && (out_free || !mine); // the walk moves to the group after it
    wire x_last   = (group_x == last_group_x);
    wire y_last   = (group_y == last_group_y);
    wire z_last   = (group_z == last_group_z);
    // Size of the last group of each dimension (global - base).
    wire [LS_W-1:0] rest_x = global_x - base_x;
    wire [LS_W-1:0] rest_y = global_y - base_y;
    wire [LS_W-1:0] rest_z = global_z - base_z;
    wire [GW-1:0] num_x = num_groups_x[GW-1:0] - 1'b1;  // the last group's id
    wire [GW-1:0] num_y = num_groups_y[GW-1:0] - 1'b1;
    wire [GW-1:0] num_z = num_groups_z[GW-1:0] - 1'b1;

    assign busy = running;
    assign still = !start && !step && !(m_valid && m_ready) && !(running && !pending && out_free);

    always @(posedge clk) begin
        if (rst) begin
            pending    <= 1'b0;
            m_valid    <= 1'b0;
            running    <= 1'b0;
            all_issued <= 1'b0;
        end else if (start) begin
            global_x     <= global_size_x[LS_W-1:0];
            global_y     <= global_size_y[LS_W-1:0];
            global_z     <= global_size_z[LS_W-1:0];
            local_x      <= local_size_x[LS_W-1:0];
            local_y      <= local_size_y[LS_W-1:0];
            local_z      <= local_size_z[LS_W-1:0];
            last_group_x <= num_x;
            last_group_y <= num_y;
            last_group_z <= num_z;
            group_x      <= 0;
            group_y      <= 0;
            group_z      <= 0;
            base_x       <= 0;
            base_y       <= 0;
            base_z       <= 0;
            pending      <= 1'b1;
            m_valid      <= 1'b0;
            running      <= 1'b1;
            all_issued   <= 1'b0;
            turn         <= 0;
        end else begin
            // The walk is over and its last token taken (or it had none of this unit's).
            if (running && !pending && out_free) begin
                running    <= 1'b0;
                all_issued <= 1'b1;
            end
            if (out_free)
                m_valid <= load;
            if (load) begin
                m_group_id_x   <= group32(group_x);
                m_group_id_y   <= group32(group_y);
                m_group_id_z   <= group32(group_z);
                m_group_size_x <= local32(x_last ? rest_x : local_x);
                m_group_size_y <= local32(y_last ? rest_y : local_y);
                m_group_size_z <= local32(z_last ? rest_z : local_z);
            end
            if (step) begin
                if (NCU > 1)
                    turn <= turn == LAST_TURN ? {TURN_W{1'b0}} : turn + 1'b1;
                // Advance x fastest, then y, then z.
                if (!x_last) begin
                    group_x <= group_x + 1'b1;
                    base_x  <= base_x + local_x;
                end else begin
                    group_x <= 0;
                    base_x  <= 0;
                    if (!y_last) begin
                        group_y <= group_y + 1'b1;
                        base_y  <= base_y + local_y;
                    end else begin
                        group_y <= 0;
                        base_y  <= 0;
                        if (!z_last) begin
                            group_z <= group_z + 1'b1;
                            base_z  <= base_z + local_z;
                        end else begin
                            pending <= 1'b0;
                        end
                    end
                end
            end
        end
    end
endmodule

`default_nettype wire
