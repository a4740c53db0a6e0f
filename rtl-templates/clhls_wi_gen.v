// clhls_wi_gen: expands work-group tokens into work-item tokens, one per cycle.
//
// Takes a group token (id and actual size, from clhls_wg_dispatch) and emits its
// work-items with local ids in order x fastest, then y, then z. Each work-item
// carries global id = group_id * enqueued_local_size + local_id + global_offset, its
// local id, group id, the group's actual size, m_last_in_group, the group's slot
// (s_slot, from clhls_wg_slots), the local linear id (0, 1, 2, .. in emission order:
// lid_x + lid_y * size_x + lid_z * size_x * size_y) and the group's number of
// work-items size_x * size_y * size_z (computed once per group). The next group is
// taken in the same cycle as the last item of the current one leaves, so there is no
// bubble between groups. With NEXT_REG = 0, s_ready is m_ready through two gates
// (never s_valid). With NEXT_REG = 1, s_ready is a register: the group after the
// current one is taken while the current one is expanded and waits in a second set of
// registers, and it becomes the current one in the cycle the last item of the current
// one leaves; with none waiting, an offered group becomes the current one directly.
// m_ready then reaches this unit's registers only, never the units that offer the
// groups (3 group ids, 3 sizes and a slot more of registers). Cycle for cycle the two
// emit the same work-items; NEXT_REG = 1 takes groups earlier.
// m_valid and the token come from registers, and so do the "last local id" flags. Group
// bases need no multiplier: groups arrive in dispatch order (x fastest), so a group's
// first global id is the offset, the current (last loaded) group's, or that plus the
// local size. With DEALT, groups come out of order (this is one of several compute
// units of a kernel, dealt every NCU-th group), and the first id is id * local size +
// offset, with a multiplier. The enqueued local size and global offset inputs must be
// stable while groups flow.
// Global ids are computed in ID_W bits (the board's work-item index width: global
// offset + global size stay below 2^ID_W, which the runtime checks), group ids in
// min(ID_W, 32), local ids, sizes and linear ids in LS_W (every local size is below
// 2^LS_W), all zero-extended on the outputs.
`default_nettype none

module clhls_wi_gen #(
    parameter SLOT_W = 1,  // bits of a work-group slot number (>= 1)
    parameter ID_W   = 64, // bits of a global id (16..64)
    parameter LS_W   = 32, // bits of a local size (the kernel's largest work-group size fits)
    parameter NEXT_REG = 0, // 1: a register for the next group, s_ready registered
    parameter DEALT  = 0   // 1: groups in any order (one of several compute units): multiply
) (
    input  wire        clk,              // clock
    input  wire        rst,              // synchronous active-high reset
    input  wire        s_valid,          // a group token is offered
    output wire        s_ready,          // the generator takes the group token (registered with NEXT_REG)
    /* verilator lint_off UNUSEDSIGNAL */ // bits from GW, LS_W and ID_W on are zero
    input  wire [31:0] s_group_id_x,     // group id, dimension 0
    input  wire [31:0] s_group_id_y,     // group id, dimension 1
    input  wire [31:0] s_group_id_z,     // group id, dimension 2
    input  wire [31:0] s_group_size_x,   // actual group size, dimension 0 (>= 1)
    input  wire [31:0] s_group_size_y,   // actual group size, dimension 1 (>= 1)
    input  wire [31:0] s_group_size_z,   // actual group size, dimension 2 (>= 1)
    input  wire [SLOT_W-1:0] s_slot,     // the group's work-group slot (from clhls_wg_slots)
    input  wire [31:0] local_size_x,     // enqueued local size, dimension 0
    input  wire [31:0] local_size_y,     // enqueued local size, dimension 1
    input  wire [31:0] local_size_z,     // enqueued local size, dimension 2
    input  wire [63:0] global_offset_x,  // global offset, dimension 0
    input  wire [63:0] global_offset_y,  // global offset, dimension 1
    input  wire [63:0] global_offset_z,  // global offset, dimension 2
    /* verilator lint_on UNUSEDSIGNAL */
    output reg         m_valid,          // a work-item is offered
    input  wire        m_ready,          // consumer takes the work-item
    output reg  [63:0] m_global_id_x,    // global id, dimension 0
    output reg  [63:0] m_global_id_y,    // global id, dimension 1
    output reg  [63:0] m_global_id_z,    // global id, dimension 2
    output reg  [31:0] m_local_id_x,     // local id, dimension 0
    output reg  [31:0] m_local_id_y,     // local id, dimension 1
    output reg  [31:0] m_local_id_z,     // local id, dimension 2
    output reg  [31:0] m_group_id_x,     // group id, dimension 0
    output reg  [31:0] m_group_id_y,     // group id, dimension 1
    output reg  [31:0] m_group_id_z,     // group id, dimension 2
    output reg  [31:0] m_group_size_x,   // actual group size, dimension 0
    output reg  [31:0] m_group_size_y,   // actual group size, dimension 1
    output reg  [31:0] m_group_size_z,   // actual group size, dimension 2
    output reg         m_last_in_group,  // this is the group's last work-item
    output reg  [SLOT_W-1:0] m_slot,     // the group's work-group slot
    output reg  [31:0] m_local_linear_id,    // local linear id: 0, 1, .. within the group
    output reg  [31:0] m_group_linear_size,  // the group's work-items: size_x * size_y * size_z
    output wire        idle,             // no group in progress and nothing offered
    output wire        still             // the next edge changes nothing (no item, no group moves)
);
    `include "clhls_widen.vh"   // GW, widen, group32, local32

    // The group being expanded.
    reg            cur_valid;                       // a group is in progress
    reg [GW-1:0]   cur_id_x, cur_id_y, cur_id_z;     // its id
    reg [LS_W-1:0] cur_size_x, cur_size_y, cur_size_z; // its actual size
    reg [ID_W-1:0] cur_base_x, cur_base_y, cur_base_z; // group id * local size + offset
    reg [LS_W-1:0] lid_x, lid_y, lid_z;              // local id of the next work-item
    reg            x_end, y_end, z_end;              // each is its dimension's last
    reg [SLOT_W-1:0] cur_slot;                       // its slot
    reg [LS_W-1:0] cur_lsize;                        // its number of work-items
    reg [LS_W-1:0] lin;                              // local linear id of the next work-item

    // The group taken while the current one is expanded (NEXT_REG).
    reg              next_valid;
    reg [GW-1:0]     next_id_x, next_id_y, next_id_z;
    reg [LS_W-1:0]   next_size_x, next_size_y, next_size_z;
    reg [SLOT_W-1:0] next_slot;
    // Its id compared when it was taken: 0 (x, y, z), or the current group's (y, z),
    // the group it follows.
    reg              next_first_x, next_first_y, next_first_z, next_same_y, next_same_z;

    // A group's first global id (id * local size + offset, ID_W bits) from the last
    // group's: the offset for id 0 (first), the last one's for the same id (y and z),
    // else the last one's plus the local size. A function called at the clock edge,
    // which reads the local size and offset as they are then.
    /* verilator lint_off UNUSEDSIGNAL */ // the bits above LS_W and ID_W are zero
    function [ID_W-1:0] group_first(input [GW-1:0] id, input first, input same,
                                    input [ID_W-1:0] last, input [31:0] local_size,
                                    input [63:0] offset);
        reg [63:0] step, group;
        begin
            step = {32'd0, local32(local_size[LS_W-1:0])};
            group = {32'd0, group32(id)};
            if (DEALT != 0)
                group_first = group[ID_W-1:0] * step[ID_W-1:0] + offset[ID_W-1:0];
            else
                group_first = first ? offset[ID_W-1:0] : same ? last : last + step[ID_W-1:0];
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    wire out_free = !m_valid || m_ready;
    wire emit     = cur_valid && out_free;
    wire cur_last = x_end && y_end && z_end;
    wire cur_free = !cur_valid || (emit && cur_last);  // the current group is done at this edge
    wire take     = s_valid && s_ready;
    wire waiting  = NEXT_REG != 0 && next_valid;         // a group waits
    wire load     = cur_free && (waiting || s_valid);    // a group becomes the current one
    localparam [LS_W-1:0] ONE = {{(LS_W-1){1'b0}}, 1'b1};

    assign s_ready = NEXT_REG != 0 ? !next_valid : cur_free;
    assign idle    = !cur_valid && !m_valid;  // (a group waits only behind a current one)
    assign still   = !emit && !load && !take && !(m_valid && m_ready);

    // The group that becomes the current one: the waiting one, else the offered one.
    wire [GW-1:0]     in_id_x   = waiting ? next_id_x   : s_group_id_x[GW-1:0];
    wire [GW-1:0]     in_id_y   = waiting ? next_id_y   : s_group_id_y[GW-1:0];
    wire [GW-1:0]     in_id_z   = waiting ? next_id_z   : s_group_id_z[GW-1:0];
    wire [LS_W-1:0]   in_size_x = waiting ? next_size_x : s_group_size_x[LS_W-1:0];
    wire [LS_W-1:0]   in_size_y = waiting ? next_size_y : s_group_size_y[LS_W-1:0];
    wire [LS_W-1:0]   in_size_z = waiting ? next_size_z : s_group_size_z[LS_W-1:0];
    wire [SLOT_W-1:0] in_slot   = waiting ? next_slot   : s_slot;
    // Its id is 0, or the current group's (the last one loaded): for a waiting group
    // compared when it was taken, so that the comparisons of a wide id are not behind
    // the choice of the group.
    wire first_x = waiting ? next_first_x : s_group_id_x[GW-1:0] == 0;
    wire first_y = waiting ? next_first_y : s_group_id_y[GW-1:0] == 0;
    wire first_z = waiting ? next_first_z : s_group_id_z[GW-1:0] == 0;
    wire same_y  = waiting ? next_same_y  : s_group_id_y[GW-1:0] == cur_id_y;
    wire same_z  = waiting ? next_same_z  : s_group_id_z[GW-1:0] == cur_id_z;

    // Indexes are computed wide and kept in ID_W bits (the rest is zero).
    /* verilator lint_off UNUSEDSIGNAL */
    wire [63:0] id_x = widen(cur_base_x) + {32'd0, local32(lid_x)};
    wire [63:0] id_y = widen(cur_base_y) + {32'd0, local32(lid_y)};
    wire [63:0] id_z = widen(cur_base_z) + {32'd0, local32(lid_z)};
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge clk) begin
        if (rst) begin
            cur_valid  <= 1'b0;
            next_valid <= 1'b0;
            m_valid    <= 1'b0;
        end else begin
            if (waiting && cur_free) begin
                next_valid <= 1'b0;
            end else if (NEXT_REG != 0 && take && !cur_free) begin
                next_valid  <= 1'b1;
                next_id_x   <= s_group_id_x[GW-1:0];
                next_id_y   <= s_group_id_y[GW-1:0];
                next_id_z   <= s_group_id_z[GW-1:0];
                next_size_x <= s_group_size_x[LS_W-1:0];
                next_size_y <= s_group_size_y[LS_W-1:0];
                next_size_z <= s_group_size_z[LS_W-1:0];
                next_slot   <= s_slot;
                // (the current group stays until this one replaces it)
                next_first_x <= s_group_id_x[GW-1:0] == 0;
                next_first_y <= s_group_id_y[GW-1:0] == 0;
                next_first_z <= s_group_id_z[GW-1:0] == 0;
                next_same_y  <= s_group_id_y[GW-1:0] == cur_id_y;
                next_same_z  <= s_group_id_z[GW-1:0] == cur_id_z;
            end
            if (out_free)
                m_valid <= cur_valid;
            if (emit) begin
                m_global_id_x   <= widen(id_x[ID_W-1:0]);
                m_global_id_y   <= widen(id_y[ID_W-1:0]);
                m_global_id_z   <= widen(id_z[ID_W-1:0]);
                m_local_id_x    <= local32(lid_x);
                m_local_id_y    <= local32(lid_y);
                m_local_id_z    <= local32(lid_z);
                m_group_id_x    <= group32(cur_id_x);
                m_group_id_y    <= group32(cur_id_y);
                m_group_id_z    <= group32(cur_id_z);
                m_group_size_x  <= local32(cur_size_x);
                m_group_size_y  <= local32(cur_size_y);
                m_group_size_z  <= local32(cur_size_z);
                m_last_in_group <= cur_last;
                m_slot          <= cur_slot;
                m_local_linear_id   <= local32(lin);
                m_group_linear_size <= local32(cur_lsize);
                lin <= lin + 1'b1;
                // The next local id, x fastest; each flag says whether it is the last.
                if (!x_end) begin
                    lid_x <= lid_x + 1'b1;
                    x_end <= lid_x + ONE + ONE == cur_size_x;
                end else begin
                    lid_x <= 0;
                    x_end <= cur_size_x == ONE;
                    if (!y_end) begin
                        lid_y <= lid_y + 1'b1;
                        y_end <= lid_y + ONE + ONE == cur_size_y;
                    end else begin
                        lid_y <= 0;
                        y_end <= cur_size_y == ONE;
                        if (!z_end) begin
                            lid_z <= lid_z + 1'b1;
                            z_end <= lid_z + ONE + ONE == cur_size_z;
                        end else begin
                            lid_z <= 0;
                            z_end <= cur_size_z == ONE;
                        end
                    end
                end
                if (cur_last)
                    cur_valid <= 1'b0;
            end
            if (load) begin
                cur_valid  <= 1'b1;
                cur_id_x   <= in_id_x;
                cur_id_y   <= in_id_y;
                cur_id_z   <= in_id_z;
                cur_size_x <= in_size_x;
                cur_size_y <= in_size_y;
                cur_size_z <= in_size_z;
                cur_base_x <= group_first(in_id_x, first_x, 1'b0, cur_base_x, local_size_x,
                                          global_offset_x);
                cur_base_y <= group_first(in_id_y, first_y, same_y, cur_base_y, local_size_y,
                                          global_offset_y);
                cur_base_z <= group_first(in_id_z, first_z, same_z, cur_base_z, local_size_z,
                                          global_offset_z);
                lid_x      <= 0;
                lid_y      <= 0;
                lid_z      <= 0;
                x_end      <= in_size_x == ONE;
                y_end      <= in_size_y == ONE;
                z_end      <= in_size_z == ONE;
                lin        <= 0;
                cur_slot   <= in_slot;
                cur_lsize  <= in_size_x * in_size_y * in_size_z;
            end
        end
    end
endmodule

`default_nettype wire
