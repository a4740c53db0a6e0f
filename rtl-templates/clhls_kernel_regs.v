// clhls_kernel_regs: the control block of one kernel (256 registers of 64 bits).
//
// Holds the NDRange geometry and the argument area the runtime writes, the
// control/status bits and the hardware counters. Offsets (inside the block) come
// from clhls_regmap.vh, generated from the compiler's register map (hls/regmap.c;
// the table in docs/architecture.md is generated from it too). Writing control with
// bit0 = 1 clears done and every counter, sets busy and, one cycle later, pulses
// `start` (so the compute unit sees the geometry already written). done_pulse clears
// busy and, two cycles later (when every counter has counted its last event), sets
// done. done_pulse is ignored in the cycle of the start pulse: a compute unit that
// finished a run still looks drained until it has seen start, so without this a
// restart without a reset would end at once. Reads are registered: reg_rdata holds, from
// the clock edge on, what reg_addr selected before it (0 when reg_sel was 0, so that the
// top can OR all blocks together), so the register file adds no path to the port. Probes are occupancies the compute unit exposes (work-items
// inside a loop, ...), read by the runtime to say where a
// hung kernel is stuck; a probe whose bit is set in PEAKS (a channel's entries) also
// keeps its highest value since the last start, read in bits 63:32 of its register (how
// full the channel got during the run). The argument area holds every argument at its byte offset;
// only its first NARGS registers exist. The geometry and the argument area are
// write-only (they read as 0), so synthesis keeps only the bits the kernel uses. A
// reset leaves them as they are (the runtime writes them before the first start, and
// need not write again a value they hold).
// With AUTORUN the block starts the kernel by itself in the first cycle after a reset
// (a reset sets its geometry to one work-item), as if the runtime had written control.
// Global sizes and offsets keep ID_W bits (the board's work-item index width; the
// runtime never writes more), work-group counts min(ID_W, 32) bits, local sizes LS_W
// bits; the outputs are zero-extended.
// For the simulator's jumps over cycles where nothing moves (CLHLS_SIM_CHECKS; in
// hardware `still` is 0 and `skip` unused): `still` says that the next edge changes no
// register here but the counters and the read data, unless the register port writes
// (which the simulator sees itself): the cycles counted busy or stalled count the same
// in the cycles after it (their registered event is this cycle's), the other counters
// count nothing; `skip` makes that edge count 1 + skip cycles of them.
`default_nettype none

module clhls_kernel_regs #(
    parameter NARGS = 1,   // argument area registers that exist (>= 1; at most 224)
    parameter NPROBES = 1, // number of probe registers (>= 1; at most 11)
    parameter ID_W = 64,   // bits kept of global sizes and offsets (16..64)
    parameter LS_W = 32,   // bits kept of local sizes (the kernel's largest work-group fits)
    parameter CONFLICT_W = 8, // bits of the bank conflicts of one cycle (8..31: the local ports fit)
    parameter COUNT_W = 64, // bits each counter keeps (34..64; the rest read zero)
    parameter AUTORUN = 0, // 1: starts by itself once out of reset (an autorun kernel)
    parameter EV_W = 1,    // bits of a count of work-items or requests in one cycle (1..8: a
                           // kernel's compute units count together)
    parameter [NPROBES-1:0] PEAKS = {NPROBES{1'b0}} // bit i: probe i keeps its peak since start
) (
    input  wire                  clk,              // clock
    input  wire                  rst,              // synchronous active-high reset
    input  wire                  reg_we,           // register write strobe
    input  wire [7:0]            reg_addr,         // register offset inside this block
    input  wire                  reg_sel,          // the global address falls in this block
    input  wire [63:0]           reg_wdata,        // write data
    output reg  [63:0]           reg_rdata,        // read data of reg_addr at the last edge (0 when !reg_sel)
    output reg                   start,            // one-cycle pulse: run the kernel
    output reg                   busy,             // kernel running (status bit0)
    output wire [31:0]           work_dim,         // 1, 2 or 3
    output wire [63:0]           global_size_x,    // global size, dimension 0
    output wire [63:0]           global_size_y,    // global size, dimension 1
    output wire [63:0]           global_size_z,    // global size, dimension 2
    output wire [31:0]           local_size_x,     // enqueued local size, dimension 0
    output wire [31:0]           local_size_y,     // enqueued local size, dimension 1
    output wire [31:0]           local_size_z,     // enqueued local size, dimension 2
    output wire [63:0]           global_offset_x,  // global offset, dimension 0
    output wire [63:0]           global_offset_y,  // global offset, dimension 1
    output wire [63:0]           global_offset_z,  // global offset, dimension 2
    output wire [31:0]           num_groups_x,     // work-groups, dimension 0
    output wire [31:0]           num_groups_y,     // work-groups, dimension 1
    output wire [31:0]           num_groups_z,     // work-groups, dimension 2
    output reg  [NARGS*64-1:0]   args,             // argument area, byte b at bits [8*b +: 8]
    input  wire                  done_pulse,       // compute unit finished (clears busy, sets done)
    input  wire [EV_W-1:0]       count_work_item,  // work-items retired this cycle
    input  wire                  count_stall_mem,  // pulse: a cycle stalled on memory
    input  wire [EV_W-1:0]       count_mem_read,   // memory read requests issued this cycle
    input  wire [EV_W-1:0]       count_mem_write,  // memory write requests issued this cycle
    input  wire [CONFLICT_W-1:0] count_local_conflicts, // local-memory requests refused a bank this cycle
    input  wire [NPROBES*32-1:0] probes,           // probe i at bits [32*i +: 32]
    input  wire [31:0]           skip,             // the next edge stands for 1 + skip cycles (simulation)
    output wire                  still             // the next edge changes only the counters (simulation)
);
    `include "clhls_regmap.vh"
    `include "clhls_widen.vh"   // GW, widen, group32, local32

    reg        done;                 // status bit1
    reg [1:0]      dims;                         // work_dim
    reg [ID_W-1:0] size_x, size_y, size_z;       // global size
    reg [ID_W-1:0] offset_x, offset_y, offset_z; // global offset
    reg [LS_W-1:0] lsize_x, lsize_y, lsize_z;    // local size
    reg [GW-1:0]   groups_x, groups_y, groups_z; // work-group count

    assign work_dim        = {30'd0, dims};
    assign global_size_x   = widen(size_x);
    assign global_size_y   = widen(size_y);
    assign global_size_z   = widen(size_z);
    assign global_offset_x = widen(offset_x);
    assign global_offset_y = widen(offset_y);
    assign global_offset_z = widen(offset_z);
    assign local_size_x    = local32(lsize_x);
    assign local_size_y    = local32(lsize_y);
    assign local_size_z    = local32(lsize_z);
    assign num_groups_x    = group32(groups_x);
    assign num_groups_y    = group32(groups_y);
    assign num_groups_z    = group32(groups_z);
    wire       write     = reg_we && reg_sel;
    reg        auto_start;          // AUTORUN: not started since the reset
    wire       start_cmd = (write && (reg_addr == REG_CONTROL) && reg_wdata[0]) || auto_start;
    wire [7:0] arg_index   = reg_addr - REG_ARGS;    // meaningful when in_args
    wire       in_args     = (reg_addr >= REG_ARGS) && ({1'b0, arg_index} < REG_ARGS_COUNT);
    wire [7:0] probe_index = reg_addr - REG_PROBES;  // meaningful when in_probes
    wire       in_probes   = (reg_addr >= REG_PROBES) && ({1'b0, probe_index} < REG_PROBES_COUNT);

    // Counters (clhls_counter: 32-bit carry chains). The events are registered first,
    // so no path runs from the compute unit into a counter's adder; a count is exact two
    // cycles after its event, and done is set two cycles after done_pulse, so a count
    // read once done is set is final. They restart with `start`, a register, a cycle
    // after the events' registers are cleared (by the write's decode, start_cmd), so
    // the counts are those of a clear by start_cmd and the decode drives few registers.
    reg  [EV_W-1:0] q_work_item, q_mem_read, q_mem_write;  // events, registered
    reg        q_stall_mem;
    reg  [CONFLICT_W-1:0] q_local_conflicts;
    reg  [1:0] done_delay;           // done_pulse, one and two cycles ago
    wire [63:0] busy_cycles;         // cycles spent busy
    wire [63:0] work_items;          // work-items retired
    wire [63:0] stall_mem_cycles;    // cycles stalled on memory
    wire [63:0] mem_read_requests;   // memory read requests
    wire [63:0] mem_write_requests;  // memory write requests
    wire [63:0] local_conflicts;     // local-memory bank conflicts
    clhls_counter #(.WIDTH(COUNT_W)) count_busy (
        .clk(clk), .rst(rst), .clear(start), .inc(busy), .skip(skip), .value(busy_cycles));
    clhls_counter #(.INC_W(EV_W), .WIDTH(COUNT_W)) count_items (
        .clk(clk), .rst(rst), .clear(start), .inc(q_work_item), .skip(32'd0), .value(work_items));
    clhls_counter #(.WIDTH(COUNT_W)) count_stalls (
        .clk(clk), .rst(rst), .clear(start), .inc(q_stall_mem), .skip(skip), .value(stall_mem_cycles));
    clhls_counter #(.INC_W(EV_W), .WIDTH(COUNT_W)) count_reads (
        .clk(clk), .rst(rst), .clear(start), .inc(q_mem_read), .skip(32'd0), .value(mem_read_requests));
    clhls_counter #(.INC_W(EV_W), .WIDTH(COUNT_W)) count_writes (
        .clk(clk), .rst(rst), .clear(start), .inc(q_mem_write), .skip(32'd0), .value(mem_write_requests));
    clhls_counter #(.INC_W(CONFLICT_W), .WIDTH(COUNT_W)) count_conflicts (
        .clk(clk), .rst(rst), .clear(start), .inc(q_local_conflicts), .skip(32'd0), .value(local_conflicts));

    integer i;

    // Geometry and argument registers: no reset but an autorun kernel's geometry (the
    // runtime writes them before a start).
    always @(posedge clk) begin
        if (rst && AUTORUN != 0) begin
            dims     <= 2'd1;
            size_x   <= 1;
            size_y   <= 1;
            size_z   <= 1;
            lsize_x  <= 1;
            lsize_y  <= 1;
            lsize_z  <= 1;
            offset_x <= 0;
            offset_y <= 0;
            offset_z <= 0;
            groups_x <= 1;
            groups_y <= 1;
            groups_z <= 1;
        end else if (write) begin
            case (reg_addr)
                REG_WORK_DIM:              dims <= reg_wdata[1:0];
                REG_GLOBAL_SIZE:           size_x <= reg_wdata[ID_W-1:0];
                REG_GLOBAL_SIZE + 8'd1:    size_y <= reg_wdata[ID_W-1:0];
                REG_GLOBAL_SIZE + 8'd2:    size_z <= reg_wdata[ID_W-1:0];
                REG_LOCAL_SIZE:            lsize_x <= reg_wdata[LS_W-1:0];
                REG_LOCAL_SIZE + 8'd1:     lsize_y <= reg_wdata[LS_W-1:0];
                REG_LOCAL_SIZE + 8'd2:     lsize_z <= reg_wdata[LS_W-1:0];
                REG_GLOBAL_OFFSET:         offset_x <= reg_wdata[ID_W-1:0];
                REG_GLOBAL_OFFSET + 8'd1:  offset_y <= reg_wdata[ID_W-1:0];
                REG_GLOBAL_OFFSET + 8'd2:  offset_z <= reg_wdata[ID_W-1:0];
                REG_NUM_GROUPS:            groups_x <= reg_wdata[GW-1:0];
                REG_NUM_GROUPS + 8'd1:     groups_y <= reg_wdata[GW-1:0];
                REG_NUM_GROUPS + 8'd2:     groups_z <= reg_wdata[GW-1:0];
                default: begin
                    for (i = 0; i < NARGS; i = i + 1)
                        if (in_args && arg_index == i[7:0])
                            args[64*i +: 64] <= reg_wdata;
                end
            endcase
        end
    end

    // An autorun kernel's start: the first cycle after the reset.
    always @(posedge clk)
        auto_start <= rst ? (AUTORUN != 0) : 1'b0;

    // Control and status.
    always @(posedge clk) begin
        if (rst) begin
            start      <= 1'b0;
            busy       <= 1'b0;
            done       <= 1'b0;
            done_delay <= 2'b00;
        end else begin
            start <= start_cmd;
            if (start_cmd) begin
                busy       <= 1'b1;
                done       <= 1'b0;
                done_delay <= 2'b00;
            end else begin
                if (done_pulse && !start)
                    busy <= 1'b0;
                done_delay <= {done_delay[0], done_pulse && !start};
                if (done_delay[1])
                    done <= 1'b1;
            end
        end
    end

    // The counted events, registered (cleared with the counters by a start).
    always @(posedge clk) begin
        if (rst || start_cmd) begin
            q_work_item       <= {EV_W{1'b0}};
            q_stall_mem       <= 1'b0;
            q_mem_read        <= {EV_W{1'b0}};
            q_mem_write       <= {EV_W{1'b0}};
            q_local_conflicts <= {CONFLICT_W{1'b0}};
        end else begin
            q_work_item       <= count_work_item;
            q_stall_mem       <= count_stall_mem;
            q_mem_read        <= count_mem_read;
            q_mem_write       <= count_mem_write;
            q_local_conflicts <= count_local_conflicts;
        end
    end

    // The peaks of the probes in PEAKS: restarted at the probe's value by `start` (as
    // the counters), then the highest value seen.
    reg [NPROBES*32-1:0] peaks;  // probe i's at bits [32*i +: 32]
    always @(posedge clk)
        for (i = 0; i < NPROBES; i = i + 1)
            if (rst || !PEAKS[i])
                peaks[32*i +: 32] <= 32'd0;
            else if (start || probes[32*i +: 32] > peaks[32*i +: 32])
                peaks[32*i +: 32] <= probes[32*i +: 32];

`ifdef CLHLS_SIM_CHECKS
    reg peaks_still;  // no peak rises at the next edge
    always @(*) begin
        peaks_still = 1'b1;
        for (i = 0; i < NPROBES; i = i + 1)
            if (PEAKS[i] && probes[32*i +: 32] > peaks[32*i +: 32])
                peaks_still = 1'b0;
    end
    assign still = !auto_start && !start && !done_pulse && done_delay == 2'b00 && peaks_still &&
                   q_stall_mem == count_stall_mem &&
                   ~|{q_work_item, count_work_item, q_mem_read, count_mem_read, q_mem_write,
                      count_mem_write, q_local_conflicts, count_local_conflicts};
`else
    assign still = 1'b0;
`endif

    // Registered read port: status, counters and probes.
    always @(posedge clk) begin
        reg_rdata <= 64'd0;
        if (reg_sel) begin
            case (reg_addr)
                REG_STATUS:                reg_rdata <= {62'd0, done, busy};
                REG_LOCAL_CONFLICTS:       reg_rdata <= local_conflicts;
                REG_BUSY_CYCLES:           reg_rdata <= busy_cycles;
                REG_WORK_ITEMS:            reg_rdata <= work_items;
                REG_STALL_MEM_CYCLES:      reg_rdata <= stall_mem_cycles;
                REG_MEM_READ_REQUESTS:     reg_rdata <= mem_read_requests;
                REG_MEM_WRITE_REQUESTS:    reg_rdata <= mem_write_requests;
                default: begin
                    for (i = 0; i < NPROBES; i = i + 1)
                        if (in_probes && probe_index == i[7:0])
                            reg_rdata <= {peaks[32*i +: 32], probes[32*i +: 32]};
                end
            endcase
        end
    end
endmodule

`default_nettype wire
