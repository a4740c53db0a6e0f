// clhls_wg_dispatch: walks the work-groups of one NDRange.
//
// On `start` it latches the geometry and then hands out one group token per cycle
// (x fastest, then y, then z) on a valid/ready stream. Each token carries the group
// id and the group's ACTUAL size: the enqueued local size, except for the last group
// of a dimension whose global size is not a multiple of the local size (non-uniform
// work-groups), which gets global_size - group_id * local_size. No multiplier: the
// first global index of the current group is kept as a running sum, modulo 2^32 (a
// group is never wider than 32 bits, so the low halves give its size). Unused
// dimensions must have global size 1, local size 1 and one group. m_valid and the
// token come from registers. Latency: the first token is valid two cycles after
// start.
`default_nettype none

module clhls_wg_dispatch (
    input  wire        clk,             // clock
    input  wire        rst,             // synchronous active-high reset
    input  wire        start,           // pulse: latch the geometry and begin
    /* verilator lint_off UNUSEDSIGNAL */ // the low 32 bits give the last group's size
    input  wire [63:0] global_size_x,   // global size, dimension 0 (>= 1)
    input  wire [63:0] global_size_y,   // global size, dimension 1 (>= 1)
    input  wire [63:0] global_size_z,   // global size, dimension 2 (>= 1)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [31:0] local_size_x,    // enqueued local size, dimension 0 (>= 1)
    input  wire [31:0] local_size_y,    // enqueued local size, dimension 1 (>= 1)
    input  wire [31:0] local_size_z,    // enqueued local size, dimension 2 (>= 1)
    input  wire [31:0] num_groups_x,    // ceil(global/local), dimension 0 (>= 1)
    input  wire [31:0] num_groups_y,    // ceil(global/local), dimension 1 (>= 1)
    input  wire [31:0] num_groups_z,    // ceil(global/local), dimension 2 (>= 1)
    output reg         m_valid,         // a group token is offered
    input  wire        m_ready,         // consumer takes the token
    output reg  [31:0] m_group_id_x,    // group id, dimension 0
    output reg  [31:0] m_group_id_y,    // group id, dimension 1
    output reg  [31:0] m_group_id_z,    // group id, dimension 2
    output reg  [31:0] m_group_size_x,  // actual size of this group, dimension 0
    output reg  [31:0] m_group_size_y,  // actual size of this group, dimension 1
    output reg  [31:0] m_group_size_z,  // actual size of this group, dimension 2
    output reg         all_issued,      // the last group was taken (until the next start)
    output wire        busy             // started and not all groups taken
);
    // Latched geometry.
    reg [31:0] global_x, global_y, global_z;   // global size modulo 2^32
    reg [31:0] local_x, local_y, local_z;
    reg [31:0] last_group_x, last_group_y, last_group_z;  // num_groups - 1

    // The next group to hand out.
    reg        pending;                        // groups remain to be loaded into the output
    reg [31:0] group_x, group_y, group_z;      // its id
    reg [31:0] base_x, base_y, base_z;         // group id * local size modulo 2^32
    reg        running;                        // between start and the last handshake
    reg        out_is_last;                    // the token in the output register is the last

    wire out_free = !m_valid || m_ready;
    wire load     = pending && out_free;
    wire x_last   = (group_x == last_group_x);
    wire y_last   = (group_y == last_group_y);
    wire z_last   = (group_z == last_group_z);
    // Size of the last group of each dimension (global - base).
    wire [31:0] rest_x = global_x - base_x;
    wire [31:0] rest_y = global_y - base_y;
    wire [31:0] rest_z = global_z - base_z;

    assign busy = running;

    always @(posedge clk) begin
        if (rst) begin
            pending    <= 1'b0;
            m_valid    <= 1'b0;
            running    <= 1'b0;
            all_issued <= 1'b0;
            out_is_last <= 1'b0;
        end else if (start) begin
            global_x     <= global_size_x[31:0];
            global_y     <= global_size_y[31:0];
            global_z     <= global_size_z[31:0];
            local_x      <= local_size_x;
            local_y      <= local_size_y;
            local_z      <= local_size_z;
            last_group_x <= num_groups_x - 32'd1;
            last_group_y <= num_groups_y - 32'd1;
            last_group_z <= num_groups_z - 32'd1;
            group_x      <= 32'd0;
            group_y      <= 32'd0;
            group_z      <= 32'd0;
            base_x       <= 32'd0;
            base_y       <= 32'd0;
            base_z       <= 32'd0;
            pending      <= 1'b1;
            m_valid      <= 1'b0;
            running      <= 1'b1;
            all_issued   <= 1'b0;
            out_is_last  <= 1'b0;
        end else begin
            if (m_valid && m_ready && out_is_last) begin
                running    <= 1'b0;
                all_issued <= 1'b1;
            end
            if (out_free)
                m_valid <= pending;
            if (load) begin
                m_group_id_x   <= group_x;
                m_group_id_y   <= group_y;
                m_group_id_z   <= group_z;
                m_group_size_x <= x_last ? rest_x : local_x;
                m_group_size_y <= y_last ? rest_y : local_y;
                m_group_size_z <= z_last ? rest_z : local_z;
                out_is_last    <= x_last && y_last && z_last;
                // Advance x fastest, then y, then z.
                if (!x_last) begin
                    group_x <= group_x + 32'd1;
                    base_x  <= base_x + local_x;
                end else begin
                    group_x <= 32'd0;
                    base_x  <= 32'd0;
                    if (!y_last) begin
                        group_y <= group_y + 32'd1;
                        base_y  <= base_y + local_y;
                    end else begin
                        group_y <= 32'd0;
                        base_y  <= 32'd0;
                        if (!z_last) begin
                            group_z <= group_z + 32'd1;
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
