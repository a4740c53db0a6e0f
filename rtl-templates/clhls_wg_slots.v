// clhls_wg_slots: admission control, at most SLOTS work-groups in a compute unit.
//
// Sits between clhls_wg_dispatch and clhls_wi_gen. Slots are handed out round-robin
// (0, 1, .., SLOTS-1, 0, ..): a group token is admitted only when the next slot in
// turn is free, and leaves with that slot number (m_slot). At admission the slot
// becomes busy and its counter is loaded with the group's number of work-items,
// size_x * size_y * size_z (computed once per group in LS_W bits); each retire_valid
// pulse for the slot counts one of them down, and the pulse retiring the last one
// frees the slot from the next cycle on (the freed slot can be handed out again in
// that cycle). Retirements for one slot and an admission to another happen in the
// same cycle independently. m_valid and the token come from registers; s_ready
// depends on m_ready and registered state only (never on s_valid). Latency: a token
// accepted in cycle 0 is offered in cycle 1.
`default_nettype none

module clhls_wg_slots #(
    parameter SLOTS  = 2,  // work-group slots (>= 1)
    parameter SLOT_W = 1,  // bits of a slot number (>= 1, SLOTS <= 2^SLOT_W)
    parameter LS_W   = 32  // bits of a group's work-item count (the largest work-group fits)
) (
    input  wire                         clk,             // clock
    input  wire                         rst,             // synchronous active-high reset (all slots free)
    input  wire                         s_valid,         // a group token is offered
    output wire                         s_ready,         // the token is admitted (next slot free, output free)
    input  wire [31:0]                  s_group_id_x,    // group id, dimension 0
    input  wire [31:0]                  s_group_id_y,    // group id, dimension 1
    input  wire [31:0]                  s_group_id_z,    // group id, dimension 2
    input  wire [31:0]                  s_group_size_x,  // actual group size, dimension 0 (1 .. 2^LS_W - 1)
    input  wire [31:0]                  s_group_size_y,  // actual group size, dimension 1 (1 .. 2^LS_W - 1)
    input  wire [31:0]                  s_group_size_z,  // actual group size, dimension 2 (1 .. 2^LS_W - 1)
    output reg                          m_valid,         // an admitted group token is offered
    input  wire                         m_ready,         // consumer takes the token
    output reg  [31:0]                  m_group_id_x,    // group id, dimension 0
    output reg  [31:0]                  m_group_id_y,    // group id, dimension 1
    output reg  [31:0]                  m_group_id_z,    // group id, dimension 2
    output reg  [31:0]                  m_group_size_x,  // actual group size, dimension 0
    output reg  [31:0]                  m_group_size_y,  // actual group size, dimension 1
    output reg  [31:0]                  m_group_size_z,  // actual group size, dimension 2
    output reg  [SLOT_W-1:0]            m_slot,          // the slot the group was given
    input  wire                         retire_valid,    // pulse: one work-item of a group retired
    input  wire [SLOT_W-1:0]            retire_slot,     // the slot of its group (a slot in use)
    output reg  [$clog2(SLOTS+1)-1:0]   in_use,          // slots holding a group
    output wire                         idle,            // no slot in use and nothing offered
    output wire                         still            // the next edge changes nothing (no group, no
                                                         // retirement; simulation, 0 in synthesis)
);
    localparam USE_W = $clog2(SLOTS + 1);
    localparam integer LAST_INDEX = SLOTS - 1;
    localparam [SLOT_W-1:0] LAST_SLOT = LAST_INDEX[SLOT_W-1:0];

    reg  [SLOTS-1:0]    busy;       // per slot: holds a group with unretired work-items
    reg  [SLOTS*LS_W-1:0] left;     // per slot: its work-items not yet retired
    reg  [SLOT_W-1:0]   next_slot;  // the slot handed out next
    reg                 next_busy;  // busy[next_slot]
    wire [LS_W-1:0]     items = s_group_size_x[LS_W-1:0] * s_group_size_y[LS_W-1:0]
                                * s_group_size_z[LS_W-1:0];
    localparam [LS_W-1:0] ONE = 1;
    wire                take  = s_valid && s_ready;
    reg                 freed;      // this cycle's retirement frees its slot
    integer i;

    always @* begin
        next_busy = 1'b0;
        freed     = 1'b0;
        for (i = 0; i < SLOTS; i = i + 1) begin
            if (next_slot == i[SLOT_W-1:0])
                next_busy = busy[i];
            if (retire_valid && busy[i] && retire_slot == i[SLOT_W-1:0] && left[i*LS_W +: LS_W] == ONE)
                freed = 1'b1;
        end
    end

    assign s_ready = (!m_valid || m_ready) && !next_busy;
    assign idle    = (in_use == {USE_W{1'b0}}) && !m_valid;
`ifdef CLHLS_SIM_CHECKS
    assign still   = !take && !(m_valid && m_ready) && !retire_valid;
`else
    assign still   = 1'b0;
`endif

    always @(posedge clk) begin
        if (rst) begin
            m_valid   <= 1'b0;
            busy      <= {SLOTS{1'b0}};
            next_slot <= {SLOT_W{1'b0}};
            in_use    <= {USE_W{1'b0}};
        end else begin
            if (m_ready)
                m_valid <= 1'b0;
            if (take) begin
                m_valid   <= 1'b1;
                next_slot <= (next_slot == LAST_SLOT) ? {SLOT_W{1'b0}} : next_slot + 1'b1;
            end
            for (i = 0; i < SLOTS; i = i + 1) begin
                if (take && next_slot == i[SLOT_W-1:0]) begin
                    busy[i]         <= 1'b1;
                    left[i*LS_W +: LS_W] <= items;
                end else if (retire_valid && busy[i] && retire_slot == i[SLOT_W-1:0]) begin
                    left[i*LS_W +: LS_W] <= left[i*LS_W +: LS_W] - ONE;
                    if (left[i*LS_W +: LS_W] == ONE)
                        busy[i] <= 1'b0;
                end
            end
            if (take && !freed)
                in_use <= in_use + 1'b1;
            else if (!take && freed)
                in_use <= in_use - 1'b1;
        end
    end

    always @(posedge clk) begin
        if (take) begin
            m_group_id_x   <= s_group_id_x;
            m_group_id_y   <= s_group_id_y;
            m_group_id_z   <= s_group_id_z;
            m_group_size_x <= s_group_size_x;
            m_group_size_y <= s_group_size_y;
            m_group_size_z <= s_group_size_z;
            m_slot         <= next_slot;
        end
    end
endmodule

`default_nettype wire
