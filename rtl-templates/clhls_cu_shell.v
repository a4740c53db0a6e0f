// clhls_cu_shell: the fixed part of every compute unit, around the kernel's body.
//
// Joins the kernel's control block (clhls_kernel_regs: geometry, argument area,
// status and counters; block BLOCK of the register space), the work-group
// dispatcher (clhls_wg_dispatch), the work-group slot allocator (clhls_wg_slots,
// only when SLOTS > 0: kernels with local memory or barriers; otherwise every group
// is in slot 0) and the work-item generator (clhls_wi_gen). Its output is the
// stream of work-items entering the body, one per cycle, each with its ids; the body
// reports each retiring work-item (and its slot, which frees the slot after the
// group's last one), whether any work-item is still inside it and whether its
// load-store units are idle (every store acknowledged). `drained` says that every
// group was issued and every work-item retired (stores flush their open lines then);
// the kernel is done when it is drained and the load-store units are idle, and the
// control block then clears busy and sets done. The geometry and argument outputs
// feed the body's invariant values and must stay stable while the kernel runs (the
// runtime writes them before start).
//
// A kernel with NCU compute units (num_compute_units) has a shell in each. They share
// the control block's address: every shell takes the same writes and starts together;
// each one's dispatcher deals itself every NCU-th work-group (clhls_wg_dispatch). Unit 0
// leads: its reads are the block's, it counts the work-items and requests of every unit
// (cu_events of the others, on peer_events; a cycle counts as stalled on memory when any
// unit stalls), and it is done when it is drained and no other unit is busy. The
// others' reads, counters and probes are left unconnected.
//
// `quiet` (for the simulator, which stops clocking a quiet compute unit): the kernel has
// not been busy for SETTLE cycles, so every register of the unit that a later run can
// observe holds still (the counters stopped with busy, the last stores were
// acknowledged before done, and SETTLE is longer than any pipeline that may still be
// emptying). A register access or the next start wakes the unit, and its state then is
// what it would have been had it been clocked all along.
//
// `still` and `skip` (for the simulator's jumps over cycles where nothing moves; 0 and
// unused in synthesis): `still` says that the next edge changes no register of the
// shell but the counters (the read data aside); `skip` makes the next edge stand for
// 1 + skip cycles of them. A unit that is neither busy nor quiet never is: its done
// bit may not have been read yet (the simulator reads each running kernel's status in
// turn, far more often than SETTLE).
`default_nettype none

module clhls_cu_shell #(
    parameter NARGS   = 1,   // argument area registers that exist (>= 1; at most 224)
    parameter NPROBES = 1,   // probe registers (>= 1; at most 11)
    parameter [NPROBES-1:0] PEAKS = {NPROBES{1'b0}}, // bit i: probe i keeps its peak since start
    parameter ID_W    = 64,  // bits of a work-item index (the board's, 16..64)
    parameter LS_W    = 32,  // bits of a local size (the kernel's largest work-group fits)
    parameter BLOCK   = 0,   // this kernel's control block: register addresses BLOCK*256 ..
    parameter REG_ADDR_W = 16, // register address bits: 8 in a block, the rest the block (>= 16)
    parameter SLOTS   = 0,   // work-group slots (0: no slot allocator, every group in slot 0)
    parameter SLOT_W  = 2,   // bits of a slot number (>= 1, SLOTS <= 2^SLOT_W)
    parameter CONFLICT_W = 8, // bits of local_conflicts (8..31: every local port's conflict fits)
    parameter COUNT_W = 64,  // bits each event counter keeps (34..64; a year of the board's clock)
    parameter GROUP_REG = 0, // 1: the work-item generator holds the next group (a registered
                             // ready towards the dispatcher; for a short clock period)
    parameter AUTORUN = 0,   // 1: the kernel starts by itself out of reset (an autorun kernel)
    parameter NCU     = 1,   // compute units of the kernel (1..128), each with a shell
    /* verilator lint_off UNUSEDPARAM */ // (a simulation's only)
    parameter SETTLE  = 256, // cycles without busy before `quiet` (longer than any pipeline)
    /* verilator lint_on UNUSEDPARAM */
    parameter REQS    = 1,   // most memory requests of one kind a unit issues in a cycle (one
                             // per memory port its load-store units may reach at once)
    parameter REQ_W   = $clog2(REQS + 1),     // bits of mem_read and mem_write
    parameter EV_BITS = CONFLICT_W + 3 + 2 * REQ_W, // bits of a unit's events (cu_events)
    parameter PEER_W  = (NCU > 1 ? NCU - 1 : 1) * EV_BITS // bits of the other units' events
) (
    input  wire                  clk,                 // kernel clock
    input  wire                  rst,                 // synchronous active-high reset
    input  wire                  reg_we,              // register write strobe
    input  wire [REG_ADDR_W-1:0] reg_addr,            // register index (block in the bits above 7)
    input  wire [63:0]           reg_wdata,           // register write data
    output wire [63:0]           reg_rdata,           // read data (0 outside this block)
    output wire [31:0]           work_dim,            // 1, 2 or 3
    output wire [63:0]           global_size_x,       // global size, dimension 0
    output wire [63:0]           global_size_y,       // global size, dimension 1
    output wire [63:0]           global_size_z,       // global size, dimension 2
    output wire [31:0]           local_size_x,        // enqueued local size, dimension 0
    output wire [31:0]           local_size_y,        // enqueued local size, dimension 1
    output wire [31:0]           local_size_z,        // enqueued local size, dimension 2
    output wire [63:0]           global_offset_x,     // global offset, dimension 0
    output wire [63:0]           global_offset_y,     // global offset, dimension 1
    output wire [63:0]           global_offset_z,     // global offset, dimension 2
    output wire [31:0]           num_groups_x,        // work-groups, dimension 0
    output wire [31:0]           num_groups_y,        // work-groups, dimension 1
    output wire [31:0]           num_groups_z,        // work-groups, dimension 2
    output wire [NARGS*64-1:0]   args,                // argument area, byte b at bits [8*b +: 8]
    output wire                  m_valid,             // a work-item is offered to the body
    input  wire                  m_ready,             // the body takes it
    output wire [63:0]           m_global_id_x,       // global id, dimension 0
    output wire [63:0]           m_global_id_y,       // global id, dimension 1
    output wire [63:0]           m_global_id_z,       // global id, dimension 2
    output wire [31:0]           m_local_id_x,        // local id, dimension 0
    output wire [31:0]           m_local_id_y,        // local id, dimension 1
    output wire [31:0]           m_local_id_z,        // local id, dimension 2
    output wire [31:0]           m_group_id_x,        // group id, dimension 0
    output wire [31:0]           m_group_id_y,        // group id, dimension 1
    output wire [31:0]           m_group_id_z,        // group id, dimension 2
    output wire [31:0]           m_group_size_x,      // actual group size, dimension 0
    output wire [31:0]           m_group_size_y,      // actual group size, dimension 1
    output wire [31:0]           m_group_size_z,      // actual group size, dimension 2
    output wire [SLOT_W-1:0]     m_slot,              // the group's work-group slot
    output wire [31:0]           m_local_linear_id,   // local linear id within the group
    output wire [31:0]           m_group_linear_size, // work-items in the group
    input  wire                  retire_valid,        // pulse: a work-item left the body
    input  wire [SLOT_W-1:0]     retire_slot,         // its slot (ignored when SLOTS == 0)
    input  wire                  body_empty,          // no work-item inside the body
    input  wire                  lsus_idle,           // every load-store unit idle, stores acknowledged
    input  wire                  stall_mem,           // the body waits for memory this cycle
    input  wire [REQ_W-1:0]      mem_read,            // memory read requests issued this cycle
    input  wire [REQ_W-1:0]      mem_write,           // memory write requests issued this cycle
    input  wire [CONFLICT_W-1:0] local_conflicts,     // local-memory requests refused a bank this cycle
    input  wire [NPROBES*32-1:0] probes,              // probe i at bits [32*i +: 32]
    output wire                  drained,             // no work-item left to enter or inside
    output wire                  quiet,               // not busy for SETTLE cycles (simulation)
    input  wire [31:0]           skip,                // the next edge stands for 1 + skip cycles (simulation)
    output wire                  still,               // the next edge changes only counts (simulation)
    /* verilator lint_off UNUSEDSIGNAL */ // the low bits: a unit's index; unit 0 reads peers
    input  wire [7:0]            cu_index,            // this compute unit (0 when NCU == 1)
    input  wire [PEER_W-1:0]     peer_events,         // unit 0: the other units' cu_events, unit 1 lowest
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [EV_BITS-1:0]    cu_events            // this unit's events: {local_conflicts,
                                                      // stalled, mem_write, mem_read, retire, busy}
);
    wire start;        // one-cycle pulse: the kernel runs
    wire busy;         // between start and done
    wire done_pulse;   // every work-item retired, every store acknowledged

    // The events the control block counts: this unit's, and the other units' at unit 0.
    localparam EV_W = $clog2(NCU * REQS + 1); // bits of a count of one event over every unit
    wire [EV_W-1:0] retired, reads, writes;
    wire            stalled;
    wire [CONFLICT_W-1:0] conflicts;
    wire            peers_busy;          // another unit of the kernel still works
    wire            regs_still, dispatch_still, items_still, slots_still;  // their next edges
                                                                          // change nothing
    assign cu_events = {local_conflicts, busy & stall_mem, mem_write, mem_read, retire_valid, busy};

    // Cycles since busy, up to SETTLE; only the simulator has them (`quiet` is 0 in
    // synthesis). Busy rises at the edge of the start command's write: the unit is
    // awake from the next cycle on.
`ifdef CLHLS_SIM_CHECKS
    localparam SETTLE_W = $clog2(SETTLE + 1);
    localparam integer SETTLE_LAST_INT = SETTLE - 1;
    localparam [SETTLE_W-1:0] SETTLE_LAST = SETTLE_LAST_INT[SETTLE_W-1:0];
    reg [SETTLE_W-1:0] settled;
    reg rested;  // SETTLE cycles without busy
    always @(posedge clk) begin
        if (rst || busy) begin
            settled <= {SETTLE_W{1'b0}};
            rested  <= 1'b0;
        end else if (!rested) begin
            settled <= settled + 1'b1;
            rested  <= settled == SETTLE_LAST;
        end
    end
    assign quiet = rested && !busy;
`else
    assign quiet = 1'b0;
`endif
    generate
        if (NCU > 1) begin : units
            reg [EV_W-1:0] sum_retired, sum_reads, sum_writes;
            reg [CONFLICT_W-1:0] sum_conflicts;
            reg any_stalled, any_busy;
            integer u;
            always @(*) begin
                sum_retired   = {{(EV_W-1){1'b0}}, retire_valid};
                sum_reads     = {{(EV_W-REQ_W){1'b0}}, mem_read};
                sum_writes    = {{(EV_W-REQ_W){1'b0}}, mem_write};
                sum_conflicts = local_conflicts;
                any_stalled   = busy & stall_mem;
                any_busy      = 1'b0;
                for (u = 0; u < NCU - 1; u = u + 1) begin
                    any_busy      = any_busy | peer_events[EV_BITS*u];
                    sum_retired   = sum_retired + {{(EV_W-1){1'b0}}, peer_events[EV_BITS*u + 1]};
                    sum_reads     = sum_reads + {{(EV_W-REQ_W){1'b0}},
                                                 peer_events[EV_BITS*u + 2 +: REQ_W]};
                    sum_writes    = sum_writes + {{(EV_W-REQ_W){1'b0}},
                                                  peer_events[EV_BITS*u + 2 + REQ_W +: REQ_W]};
                    any_stalled   = any_stalled | peer_events[EV_BITS*u + 2 + 2*REQ_W];
                    sum_conflicts = sum_conflicts +
                                    peer_events[EV_BITS*u + 3 + 2*REQ_W +: CONFLICT_W];
                end
            end
            assign {retired, reads, writes, stalled, conflicts} =
                {sum_retired, sum_reads, sum_writes, any_stalled, sum_conflicts};
            assign peers_busy = any_busy;   // (the other units' peer_events are 0)
        end else begin : one_unit   // (EV_W == REQ_W)
            if (EV_W > 1) begin : wide_events
                assign retired = {{(EV_W-1){1'b0}}, retire_valid};
            end else begin : narrow_events
                assign retired = retire_valid;
            end
            assign {reads, writes, stalled, conflicts} =
                {mem_read, mem_write, busy & stall_mem, local_conflicts};
            assign peers_busy = 1'b0;
        end
    endgenerate

    clhls_kernel_regs #(.NARGS(NARGS), .NPROBES(NPROBES), .ID_W(ID_W), .LS_W(LS_W),
                        .CONFLICT_W(CONFLICT_W), .COUNT_W(COUNT_W), .AUTORUN(AUTORUN), .EV_W(EV_W),
                        .PEAKS(PEAKS)) regs (
        .clk(clk), .rst(rst), .reg_we(reg_we), .reg_addr(reg_addr[7:0]),
        .reg_sel(reg_addr[REG_ADDR_W-1:8] == BLOCK[REG_ADDR_W-9:0]), .reg_wdata(reg_wdata),
        .reg_rdata(reg_rdata),
        .start(start), .busy(busy), .work_dim(work_dim),
        .global_size_x(global_size_x), .global_size_y(global_size_y), .global_size_z(global_size_z),
        .local_size_x(local_size_x), .local_size_y(local_size_y), .local_size_z(local_size_z),
        .global_offset_x(global_offset_x), .global_offset_y(global_offset_y),
        .global_offset_z(global_offset_z),
        .num_groups_x(num_groups_x), .num_groups_y(num_groups_y), .num_groups_z(num_groups_z),
        .args(args), .done_pulse(done_pulse),
        .count_work_item(retired), .count_stall_mem(stalled),
        .count_mem_read(reads), .count_mem_write(writes),
        .count_local_conflicts(conflicts), .probes(probes), .skip(skip), .still(regs_still));

    // Work-groups, one token per group.
    wire        wg_valid, wg_ready, all_issued;
    wire [31:0] wg_id_x, wg_id_y, wg_id_z, wg_size_x, wg_size_y, wg_size_z;
    /* verilator lint_off PINCONNECTEMPTY */
    clhls_wg_dispatch #(.ID_W(ID_W), .LS_W(LS_W), .NCU(NCU)) dispatch (
        .clk(clk), .rst(rst), .start(start), .cu_index(cu_index),
        .global_size_x(global_size_x), .global_size_y(global_size_y), .global_size_z(global_size_z),
        .local_size_x(local_size_x), .local_size_y(local_size_y), .local_size_z(local_size_z),
        .num_groups_x(num_groups_x), .num_groups_y(num_groups_y), .num_groups_z(num_groups_z),
        .m_valid(wg_valid), .m_ready(wg_ready),
        .m_group_id_x(wg_id_x), .m_group_id_y(wg_id_y), .m_group_id_z(wg_id_z),
        .m_group_size_x(wg_size_x), .m_group_size_y(wg_size_y), .m_group_size_z(wg_size_z),
        .all_issued(all_issued), .busy(), .still(dispatch_still));

    // At most SLOTS work-groups in flight, each in a slot (its local memory copy and
    // barrier entries); a slot is free again when its last work-item retired.
    wire        sg_valid, sg_ready, slots_idle;
    wire [31:0] sg_id_x, sg_id_y, sg_id_z, sg_size_x, sg_size_y, sg_size_z;
    wire [SLOT_W-1:0] sg_slot;
    generate
        if (SLOTS > 0) begin : slotted
            clhls_wg_slots #(.SLOTS(SLOTS), .SLOT_W(SLOT_W), .LS_W(LS_W)) slots (
                .clk(clk), .rst(rst),
                .s_valid(wg_valid), .s_ready(wg_ready),
                .s_group_id_x(wg_id_x), .s_group_id_y(wg_id_y), .s_group_id_z(wg_id_z),
                .s_group_size_x(wg_size_x), .s_group_size_y(wg_size_y), .s_group_size_z(wg_size_z),
                .m_valid(sg_valid), .m_ready(sg_ready),
                .m_group_id_x(sg_id_x), .m_group_id_y(sg_id_y), .m_group_id_z(sg_id_z),
                .m_group_size_x(sg_size_x), .m_group_size_y(sg_size_y), .m_group_size_z(sg_size_z),
                .m_slot(sg_slot), .retire_valid(retire_valid), .retire_slot(retire_slot),
                .in_use(), .idle(slots_idle), .still(slots_still));
        end else begin : unslotted
            assign sg_valid = wg_valid;
            assign wg_ready = sg_ready;
            assign {sg_id_x, sg_id_y, sg_id_z} = {wg_id_x, wg_id_y, wg_id_z};
            assign {sg_size_x, sg_size_y, sg_size_z} = {wg_size_x, wg_size_y, wg_size_z};
            assign sg_slot = {SLOT_W{1'b0}};
            assign slots_idle = 1'b1;
            assign slots_still = 1'b1;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_retire_slot = ^retire_slot;
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    // Work-items, one per cycle.
    wire wi_idle;
    clhls_wi_gen #(.SLOT_W(SLOT_W), .ID_W(ID_W), .LS_W(LS_W), .NEXT_REG(GROUP_REG),
                   .DEALT(NCU > 1)) items (
        .clk(clk), .rst(rst),
        .s_valid(sg_valid), .s_ready(sg_ready), .s_slot(sg_slot),
        .s_group_id_x(sg_id_x), .s_group_id_y(sg_id_y), .s_group_id_z(sg_id_z),
        .s_group_size_x(sg_size_x), .s_group_size_y(sg_size_y), .s_group_size_z(sg_size_z),
        .local_size_x(local_size_x), .local_size_y(local_size_y), .local_size_z(local_size_z),
        .global_offset_x(global_offset_x), .global_offset_y(global_offset_y),
        .global_offset_z(global_offset_z),
        .m_valid(m_valid), .m_ready(m_ready),
        .m_global_id_x(m_global_id_x), .m_global_id_y(m_global_id_y), .m_global_id_z(m_global_id_z),
        .m_local_id_x(m_local_id_x), .m_local_id_y(m_local_id_y), .m_local_id_z(m_local_id_z),
        .m_group_id_x(m_group_id_x), .m_group_id_y(m_group_id_y), .m_group_id_z(m_group_id_z),
        .m_group_size_x(m_group_size_x), .m_group_size_y(m_group_size_y),
        .m_group_size_z(m_group_size_z),
        .m_slot(m_slot), .m_local_linear_id(m_local_linear_id),
        .m_group_linear_size(m_group_linear_size), .m_last_in_group(), .idle(wi_idle),
        .still(items_still));
    /* verilator lint_on PINCONNECTEMPTY */

    // Done: no work-item left to enter or in flight (stores may flush their open
    // lines), and every store acknowledged. Drained is registered on its way to done:
    // it is a wide AND over every stage of the body, and once every group is issued
    // nothing enters any more, so drained a cycle ago is drained now. The register
    // clears with start: the last run's drained state does not end the next.
    reg drained_q;  // drained in the cycle before, and no start then
    always @(posedge clk)
        drained_q <= !rst && !start && drained;
    assign drained = all_issued & wi_idle & ~m_valid & slots_idle & body_empty;
    assign done_pulse = busy & drained_q & lsus_idle & ~peers_busy;
`ifdef CLHLS_SIM_CHECKS
    assign still = (busy || rested) && regs_still && dispatch_still && slots_still &&
                   items_still && drained_q == (!start && drained);

    // The run's final counts, handed to the simulator once at the edge where a read of
    // the status register would first see done (the counters are final from then on),
    // so that the runtime need not read them through the register port a cycle each.
    // The leading unit tells, with the counters' register offsets (clhls_regmap.vh).
    `include "clhls_regmap.vh"
    import "DPI-C" function void clhls_sim_counts(
        input int unsigned block, input int unsigned first_reg,
        input longint unsigned local_conflicts, input longint unsigned busy_cycles,
        input longint unsigned work_items, input longint unsigned stall_mem_cycles,
        input longint unsigned mem_read_requests, input longint unsigned mem_write_requests);
    generate
        if (REG_BUSY_CYCLES != REG_LOCAL_CONFLICTS + 8'd1 ||
            REG_WORK_ITEMS != REG_LOCAL_CONFLICTS + 8'd2 ||
            REG_STALL_MEM_CYCLES != REG_LOCAL_CONFLICTS + 8'd3 ||
            REG_MEM_READ_REQUESTS != REG_LOCAL_CONFLICTS + 8'd4 ||
            REG_MEM_WRITE_REQUESTS != REG_LOCAL_CONFLICTS + 8'd5) begin : counters_apart
            $error("clhls_cu_shell: the counters' registers must follow REG_LOCAL_CONFLICTS in this order");
        end
    endgenerate
    reg counts_told;  // this run's final counts were handed over
    always @(posedge clk)
        if (rst || start)
            counts_told <= 1'b0;
        else if (cu_index == 8'd0 && regs.done && !counts_told) begin
            clhls_sim_counts(BLOCK, {24'd0, REG_LOCAL_CONFLICTS}, regs.local_conflicts,
                             regs.busy_cycles, regs.work_items, regs.stall_mem_cycles,
                             regs.mem_read_requests, regs.mem_write_requests);
            counts_told <= 1'b1;
        end
`else
    assign still = 1'b0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_still = regs_still ^ dispatch_still ^ items_still ^ slots_still;
    /* verilator lint_on UNUSEDSIGNAL */
`endif
endmodule

`default_nettype wire
