// clhls_barrier: work-group barrier with ordered release, and the OpenCL C 2.0
// work-group functions (broadcast, reduce, inclusive and exclusive scan).
//
// Work-items arrive (s_*) in any order, each with its group's slot, its local linear
// id and the group's actual size; their tokens (s_data) are written into a RAM with
// one entry per (slot, local id): SLOTS * 2^LID_W entries of W bits, one write port
// (arrivals) and one synchronous read port (release). A per-slot count holds the
// work-items still to arrive (s_size at the group's first arrival); the arrival that
// leaves none completes the slot: the slot is free for its next group in the same
// cycle and enters a queue of completed slots (completion order). The releaser takes
// the oldest completed slot and reads its
// entries in ascending local id 0..size-1, one per cycle, into a 4-entry output
// queue (m_valid, m_data, m_result from registers); after the last entry of a slot it
// goes on with the next completed slot in the next cycle, without a bubble. A barrier
// never refuses an arrival: s_ready is constant 1 (arrivals during reset are dropped).
// The caller guarantees at most one outstanding arrival per (slot, local id): an
// entry is written again (the next trip round a loop, or the next group placed in
// the slot) only after the work-item it held has been released (m_valid &&
// m_ready), so the slot can take new arrivals while it is being released and other
// slots arrive and complete meanwhile.
//
// Work-group functions (OP != 0): every work-item also brings a value (s_value, VW
// bits) and leaves with the function's result for it (m_result, with m_data). Over
// a group's values v0..v(n-1) in local-id order, with "op" the FUNC and TYPE:
//   OP 1 broadcast: every work-item gets the s_value of the work-item whose local id
//        is s_chosen (the same for the whole group; the value is latched per slot
//        when that work-item arrives; a group without such a work-item gets a stale
//        value, as OpenCL leaves it undefined). The bits pass unchanged, any TYPE.
//   OP 2 reduce: every work-item gets v0 op v1 op ... op v(n-1).
//   OP 3 inclusive scan: work-item i gets v0 op ... op vi.
//   OP 4 exclusive scan: work-item i gets v0 op ... op v(i-1); work-item 0 gets the
//        identity: add 0 (float +0.0); min the largest value (unsigned all ones,
//        signed maximum, float +infinity); max the smallest (0, signed minimum, float
//        -infinity); any 0, all 1.
// FUNC: add (integers wrap modulo 2^VW), min, max (unsigned or signed per TYPE), any
// and all (the result is 1 if any / every value is nonzero, else 0). Floats (TYPE 2,
// VW 32 binary32 or 64 binary64) follow the clhls floating-point conventions
// (clhls_fadd: round to nearest even, binary32 denormals flushed to zeros of the same
// sign, binary64 subnormals kept, canonical NaN): add combines in local-id order,
// ((v0 + v1) + v2) + ..., every sum rounded by clhls_fadd (a single value v0 comes out
// as -0.0 + v0: v0 with a binary32 denormal flushed and a NaN made canonical), so the
// result does not depend on arrival order or timing. min and max are fmin / fmax: a
// NaN is ignored if the other operand is a number and two NaNs give the canonical NaN;
// a binary32 denormal counts as, and comes out as, the zero of its sign (a binary64
// subnormal is a value); -0.0 is taken as smaller than +0.0 (as IEEE
// 754-2019 minimum / maximum do), so min and max are a total order on the results,
// associative and commutative: the result is that of any combination order, local-id
// order included.
// Where the values are combined: integer reductions (add, min, max, any, all), float
// min and max reductions and broadcast fold every value into a per-slot accumulator
// on arrival (in any order), and the completing arrival hands the slot's result to
// the completed-slot queue (the accumulator starts afresh with the slot's next group);
// float add reductions keep every value in a value RAM next to the tokens, and once a
// slot is complete a summer reads its values in local-id order, one per cycle, into a
// clhls_fadd (LATENCY 1, its output register the running sum) and passes the slot and
// the sum on to the releaser through a second queue (the summer of one slot overlaps
// the release of the previous one); scans (all types) keep the values in the value
// RAM and compute the running value during the ordered release itself, one work-item
// per cycle (clhls_fadd, LATENCY 1, for float add). The release of a function has
// one more register stage than a plain barrier's (where a scan combines).
// Timing: the arrival completing an idle barrier's slot in cycle 0 has the slot's
// first work-item at m_valid in cycle 4 for a plain barrier (queue, RAM read, output
// queue), in cycle 5 with a work-group function, in cycle n + 8 for a float add
// reduction of n work-items (the summer's pass comes first); thereafter one work-item
// per cycle while m_ready is 1, for every function (a float add reduction's summer
// also takes one work-item per cycle). As a slot's entries are reused only when their
// work-items leave, a float add reduction's longer latency slows back-to-back groups
// when the slots run out: with 2 slots, in-order groups of 16 arriving one work-item
// per cycle pass at 32 work-items every 41 cycles (every 32 for the other functions).
// held counts the work-items arrived and not yet released, empty says it is 0; waiting
// is 1 while some slot has arrivals and is not complete (all three from registers).
// The handshakes' paths: an arrival completes its slot by flags kept per slot (no
// count compared after the slot's multiplexer); the releaser's credit is a count of
// the output queue's entries taken (queued or being read) and its last-entry test a
// flag, both registers.
// Needs clhls_fifo.v, and clhls_fadd.v and clhls_delay.v for float add.
`default_nettype none

module clhls_barrier #(
    parameter W      = 32,  // bits of the work-item token carried through (>= 1)
    parameter SLOTS  = 2,   // work-group slots (>= 1)
    parameter SLOT_W = 1,   // bits of a slot number (>= 1, SLOTS <= 2^SLOT_W)
    parameter LID_W  = 4,   // bits of a local linear id: at most 2^LID_W work-items a group (>= 0)
    parameter OP     = 0,   // work-group function: 0 none (plain barrier), 1 broadcast, 2 reduce,
                            // 3 inclusive scan, 4 exclusive scan
    parameter FUNC   = 0,   // its operation (OP 2..4): 0 add, 1 min, 2 max, 3 any, 4 all (OP 2)
    parameter TYPE   = 0,   // its values: 0 unsigned integer, 1 signed integer, 2 IEEE float
    parameter VW     = 1    // bits of a value: 8..64 for integers, 32 or 64 for floats (any for OP 0, 1)
) (
    input  wire                             clk,      // clock
    input  wire                             rst,      // synchronous active-high reset
    input  wire                             s_valid,  // a work-item arrives at the barrier
    output wire                             s_ready,  // constant 1: an arrival is never refused
    input  wire [SLOT_W-1:0]                s_slot,   // its group's slot (< SLOTS)
    input  wire [(LID_W > 0 ? LID_W : 1)-1:0] s_lid,  // its local linear id (< s_size; one bit, 0, when LID_W = 0)
    input  wire [LID_W:0]                   s_size,   // its group's number of work-items, 1..2^LID_W
    input  wire [W-1:0]                     s_data,   // its token
    input  wire [VW-1:0]                    s_value,  // its value, the function's argument (unused when OP = 0)
    input  wire [(LID_W > 0 ? LID_W : 1)-1:0] s_chosen, // broadcast: the local id whose value all get (OP 1 only)
    output wire                             m_valid,  // a released work-item is offered (registered)
    input  wire                             m_ready,  // the consumer takes it
    output wire [W-1:0]                     m_data,   // its token, as it arrived
    output wire [VW-1:0]                    m_result, // its result of the function (registered; 0 when OP = 0)
    output reg  [LID_W+SLOT_W:0]            held,     // work-items arrived and not yet released
    output reg                              empty,    // held == 0 (a register of its own)
    output wire                             waiting,  // some slot has arrivals and is not complete
    output wire                             still     // the next edge changes nothing (simulation; 0 in synthesis)
);
    localparam LW       = (LID_W > 0) ? LID_W : 1;     // width of the s_lid port
    localparam ENTRIES  = SLOTS << LID_W;               // RAM entries
    localparam AW       = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;  // RAM address bits
    localparam CQ_W     = SLOT_W + LID_W + 1 + VW;      // completed slot: slot, size - 1, result
    localparam OUT_DEPTH = 4;                           // output queue entries
    localparam [3:0] OUT_DEPTH4 = OUT_DEPTH;
    localparam HELD_W   = LID_W + SLOT_W + 1;
    localparam [HELD_W-1:0] ONE_HELD = 1;
    localparam SCAN     = (OP == 3) || (OP == 4);       // the release computes the running value
    localparam FADD     = (TYPE == 2) && (FUNC == 0);   // float add: clhls_fadd, in local-id order
    localparam SUMMER   = (OP == 2) && FADD;            // a pass over the slot before its release
    localparam ON_ARRIVAL = (OP == 1) || ((OP == 2) && !FADD);  // per-slot accumulator
    localparam NEED_COMB = ((OP == 2) || SCAN) && !FADD;  // integer or float min/max combination
    localparam NEED_VRAM = SCAN || SUMMER;              // values kept per entry
    localparam STAGES   = (OP == 0) ? 1 : 2;            // release register stages before the queue
    // Constants for the functions: the identity of an exclusive scan, float -0.0.
    localparam [63:0] ONES64 = ~64'd0;
    localparam [63:0] SMIN64 = 64'd1 << (VW - 1);       // signed minimum; the sign bit
    localparam [63:0] SMAX64 = ONES64 >> (65 - VW);     // signed maximum
    localparam [63:0] PINF64 = (VW == 64) ? 64'h7FF0000000000000 : 64'h000000007F800000;
    localparam [63:0] IDENT64 = (FUNC == 1) ? ((TYPE == 0) ? ONES64 : (TYPE == 1) ? SMAX64 : PINF64) :
                                (FUNC == 2) ? ((TYPE == 0) ? 64'd0 : (TYPE == 1) ? SMIN64 : (PINF64 | SMIN64)) :
                                (FUNC == 4) ? 64'd1 : 64'd0;

    reg  [W-1:0] ram [0:ENTRIES-1];  // one token per (slot, local id)
    reg  [W-1:0] rd_data;            // registered read port
    reg          rd_pend;            // rd_data holds an entry read last cycle

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_inputs = &{1'b0, s_value, s_chosen};  // s_value with OP 0, s_chosen but with OP 1
    /* verilator lint_on UNUSEDSIGNAL */

    // ---- arrivals ----
    // Per slot, the work-items still to come and two flags: the slot has arrivals (then
    // `left` is valid) and one is left. An arrival completes its slot when one was
    // left, or, as the group's first, when the group has one work-item: a multiplexer
    // of two flags by s_slot, not of a count.
    localparam CW = LID_W + 1;           // count bits
    localparam [CW-1:0] ONE = 1, TWO = 2;
    reg  [SLOTS*CW-1:0] left;            // per slot: work-items of its group still to arrive
    reg  [SLOTS-1:0]    partial;         // per slot: some arrivals, not complete
    reg  [SLOTS-1:0]    one_left;        // per slot: left == 1
    reg                 cur_partial, cur_one_left;  // the arriving slot's flags
    reg  [CW-1:0]       cur_left;        // the arriving slot's count, or its size when new
    wire               arrive   = s_valid && s_ready;
    wire               complete = arrive && (cur_partial ? cur_one_left : s_size == ONE);
    integer i;

    always @* begin
        cur_partial  = 1'b0;
        cur_one_left = 1'b0;
        cur_left     = s_size;
        for (i = 0; i < SLOTS; i = i + 1)
            if (s_slot == i[SLOT_W-1:0]) begin
                cur_partial  = partial[i];
                cur_one_left = one_left[i];
                if (partial[i])
                    cur_left = left[i*CW +: CW];
            end
    end
    assign waiting = |partial;
    assign s_ready = 1'b1;

    always @(posedge clk) begin
        if (rst) begin
            partial <= {SLOTS{1'b0}};
        end else begin
            for (i = 0; i < SLOTS; i = i + 1)
                if (arrive && s_slot == i[SLOT_W-1:0]) begin
                    partial[i]          <= !complete;
                    left[i*CW +: CW]    <= cur_left - 1'b1;
                    one_left[i]         <= (cur_left == TWO);
                end
        end
    end

    // Entry addresses: slot * 2^LID_W + local id.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [SLOT_W+LW-1:0] wr_addr_full = ({{LW{1'b0}}, s_slot} << LID_W) |
                                        {{SLOT_W{1'b0}}, (LID_W > 0) ? s_lid : {LW{1'b0}}};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [AW-1:0] wr_addr = wr_addr_full[AW-1:0];

    // ---- combination of two values (reductions and scans other than float add) ----
    // op_comb = op_a op op_b, op_norm = op_b on its own (a group's first value); op_a is
    // a previous result (for floats: canonical), op_b a new value.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [VW-1:0] op_a, op_b, op_comb, op_norm;  // unused where nothing combines
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (NEED_COMB && TYPE == 2) begin : g_fcomb
            localparam EW = (VW == 64) ? 11 : 8;    // exponent bits
            localparam FW = VW - 1 - EW;            // fraction bits
            localparam [VW-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(FW-1){1'b0}}};
            wire b_exp_max  = (op_b[VW-2:FW] == {EW{1'b1}});
            // A binary32 denormal flushes (as in clhls_fadd at W = 32); binary64 keeps it.
            wire b_exp_zero = (VW == 32) && (op_b[VW-2:FW] == {EW{1'b0}});
            wire b_nan      = b_exp_max && (op_b[FW-1:0] != {FW{1'b0}});
            wire a_nan      = (op_a[VW-2:FW] == {EW{1'b1}}) && (op_a[FW-1:0] != {FW{1'b0}});
            // op_b made canonical: NaN -> the quiet NaN, binary32 denormal -> zero of its sign.
            wire [VW-1:0] nb = b_nan ? QNAN : b_exp_zero ? {op_b[VW-1], {(VW-1){1'b0}}} : op_b;
            // Total order keys of numbers (-0 < +0): negatives inverted, positives offset.
            wire [VW-1:0] key_a = op_a[VW-1] ? ~op_a : {1'b1, op_a[VW-2:0]};
            wire [VW-1:0] key_b = nb[VW-1] ? ~nb : {1'b1, nb[VW-2:0]};
            wire b_wins = (FUNC == 1) ? (key_b < key_a) : (key_b > key_a);
            assign op_norm = nb;
            assign op_comb = a_nan ? nb : b_nan ? op_a : b_wins ? nb : op_a;
        end else if (NEED_COMB) begin : g_icomb
            reg [VW-1:0] comb;
            always @* begin
                case (FUNC)
                    1: comb = ((TYPE == 1) ? ($signed(op_b) < $signed(op_a)) : (op_b < op_a)) ? op_b : op_a;
                    2: comb = ((TYPE == 1) ? ($signed(op_b) > $signed(op_a)) : (op_b > op_a)) ? op_b : op_a;
                    3: comb = {{(VW-1){1'b0}}, op_a[0] | (|op_b)};
                    4: comb = {{(VW-1){1'b0}}, op_a[0] & (|op_b)};
                    default: comb = op_a + op_b;
                endcase
            end
            assign op_comb = comb;
            assign op_norm = (FUNC == 3 || FUNC == 4) ? {{(VW-1){1'b0}}, |op_b} : op_b;
        end else begin : g_nocomb
            assign op_a    = {VW{1'b0}};
            assign op_b    = {VW{1'b0}};
            assign op_comb = {VW{1'b0}};
            assign op_norm = {VW{1'b0}};
        end
    endgenerate

    // ---- per-slot accumulator (broadcast, reductions but float add) ----
    wire [VW-1:0] arr_res;  // the arriving slot's result so far, this arrival included
    generate
        if (ON_ARRIVAL) begin : g_acc
            reg [SLOTS*VW-1:0] acc;      // per slot: the result over its arrived work-items
            reg [VW-1:0]       cur_acc;  // the arriving slot's
            always @* begin
                cur_acc = {VW{1'b0}};
                for (i = 0; i < SLOTS; i = i + 1)
                    if (s_slot == i[SLOT_W-1:0])
                        cur_acc = acc[i*VW +: VW];
            end
            if (OP == 1) begin : g_bcast
                wire chosen = (LID_W > 0) ? (s_lid == s_chosen) : 1'b1;
                assign arr_res = chosen ? s_value : cur_acc;
            end else begin : g_reduce
                assign op_a = cur_acc;
                assign op_b = s_value;
                assign arr_res = cur_partial ? op_comb : op_norm;
            end
            always @(posedge clk)
                for (i = 0; i < SLOTS; i = i + 1)
                    if (arrive && s_slot == i[SLOT_W-1:0])
                        acc[i*VW +: VW] <= arr_res;
        end else begin : g_noacc
            assign arr_res = {VW{1'b0}};
        end
    endgenerate

    // ---- completed slots ----
    wire              cq_valid;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [CQ_W-1:0]   cq_data;   // the result field is unused but for broadcast and reductions
    /* verilator lint_on UNUSEDSIGNAL */
    wire              cq_pop;
    /* verilator lint_off UNUSEDSIGNAL */
    wire              cq_ready;  // always 1: a slot is queued or being released at most once
    wire [$clog2(SLOTS+1)-1:0] cq_count;
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_fifo #(.WIDTH(CQ_W), .DEPTH(SLOTS)) done_q (
        .clk(clk), .rst(rst),
        .s_valid(complete), .s_ready(cq_ready), .s_data({s_slot, s_size - 1'b1, arr_res}),
        .m_valid(cq_valid), .m_ready(cq_pop), .m_data(cq_data), .count(cq_count));

    // ---- value RAM (scans, float add reductions) ----
    /* verilator lint_off UNUSEDSIGNAL */
    wire          vrd_en;    // read the value of entry vrd_addr (unused without a value RAM)
    wire [AW-1:0] vrd_addr;
    wire [VW-1:0] vrd_data;  // registered read port (0 without a value RAM)
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (NEED_VRAM) begin : g_vram
            reg [VW-1:0] vram [0:ENTRIES-1];  // one value per (slot, local id)
            reg [VW-1:0] q;
            always @(posedge clk) begin
                if (arrive)
                    vram[wr_addr] <= s_value;
                if (vrd_en)
                    q <= vram[vrd_addr];
            end
            assign vrd_data = q;
        end else begin : g_novram
            assign vrd_data = {VW{1'b0}};
        end
    endgenerate

    // ---- the slots to release: completed ones, or summed ones for float add reduce ----
    wire            summer_idle;  // no slot is being summed (always, without a summer)
    wire            rq_valid;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [CQ_W-1:0] rq_data;  // slot, size - 1, result (unused but for broadcast and reductions)
    /* verilator lint_on UNUSEDSIGNAL */
    wire            rq_pop;
    localparam [LID_W:0] LID_ZERO = {(LID_W+1){1'b0}};
    generate
        if (SUMMER) begin : g_summer
            // Pass over a completed slot: entry i read in cycle t, added in t + 1 (its
            // output register the running sum), the sum complete in t + 2 after the last.
            reg              active;        // a slot is being summed
            reg [SLOT_W-1:0] slot;
            reg [LID_W:0]    lid, last;
            reg              v_pend, v_first, v_last;  // vrd_data holds a value of the pass
            reg [SLOT_W-1:0] v_slot;
            reg [LID_W:0]    v_size1;
            reg              p_push;        // sum holds the slot p_slot's complete sum
            reg [SLOT_W-1:0] p_slot;
            reg [LID_W:0]    p_size1;
            wire [VW-1:0]    sum;
            wire             last_read = active && (lid == last);
            /* verilator lint_off UNUSEDSIGNAL */
            wire [SLOT_W+LW-1:0] addr_full = ({{LW{1'b0}}, slot} << LID_W) |
                                             {{SLOT_W{1'b0}}, (LID_W > 0) ? lid[LW-1:0] : {LW{1'b0}}};
            wire             sq_ready;      // always 1: each slot is summed or queued once
            wire [$clog2(SLOTS+1)-1:0] sq_count;
            /* verilator lint_on UNUSEDSIGNAL */
            assign vrd_en   = active;
            assign vrd_addr = addr_full[AW-1:0];
            assign cq_pop   = cq_valid && (!active || last_read);
            always @(posedge clk) begin
                if (rst) begin
                    active <= 1'b0;
                    v_pend <= 1'b0;
                    p_push <= 1'b0;
                end else begin
                    v_pend <= active;
                    p_push <= v_pend && v_last;
                    if (cq_pop) begin
                        active <= 1'b1;
                        slot   <= cq_data[CQ_W-1 -: SLOT_W];
                        last   <= cq_data[VW +: LID_W + 1];
                        lid    <= LID_ZERO;
                    end else if (last_read) begin
                        active <= 1'b0;
                    end else if (active) begin
                        lid <= lid + 1'b1;
                    end
                end
                v_first <= (lid == LID_ZERO);
                v_last  <= last_read;
                v_slot  <= slot;
                v_size1 <= last;
                p_slot  <= v_slot;
                p_size1 <= v_size1;
            end
            // -0.0 + v0 is v0 (flushed, canonical), -0 included.
            clhls_fadd #(.LATENCY(1), .W(VW)) adder (
                .clk(clk), .ce(v_pend), .a(v_first ? SMIN64[VW-1:0] : sum), .b(vrd_data),
                .sub(1'b0), .y(sum));
            assign summer_idle = !active && !v_pend && !p_push;
            clhls_fifo #(.WIDTH(CQ_W), .DEPTH(SLOTS)) summed_q (
                .clk(clk), .rst(rst),
                .s_valid(p_push), .s_ready(sq_ready), .s_data({p_slot, p_size1, sum}),
                .m_valid(rq_valid), .m_ready(rq_pop), .m_data(rq_data), .count(sq_count));
        end else begin : g_nosummer
            assign summer_idle = 1'b1;
            assign rq_valid = cq_valid;
            assign rq_data  = cq_data;
            assign cq_pop   = rq_pop;
        end
    endgenerate

    // ---- releaser ----
    reg              rel_active;  // a slot is being released
    reg [SLOT_W-1:0] rel_slot;    // which
    reg [LID_W:0]    rel_lid;     // local id of the next entry to read
    reg [LID_W:0]    rel_last;    // its size - 1
    reg              rel_at_last; // rel_lid == rel_last
    reg [2:0]        taken;       // output queue entries taken: queued, or read and on their way
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2:0]       oq_count;    // output queue occupancy (taken counts it)
    /* verilator lint_on UNUSEDSIGNAL */
    wire             credit     = {1'b0, taken} < OUT_DEPTH4;
    wire             issue      = rel_active && credit;
    wire             issue_last = issue && rel_at_last;
    assign rq_pop = rq_valid && (!rel_active || issue_last);

    /* verilator lint_off UNUSEDSIGNAL */
    wire [SLOT_W+LW-1:0] rd_addr_full = ({{LW{1'b0}}, rel_slot} << LID_W) |
                                        {{SLOT_W{1'b0}}, (LID_W > 0) ? rel_lid[LW-1:0] : {LW{1'b0}}};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [AW-1:0] rd_addr = rd_addr_full[AW-1:0];

    always @(posedge clk) begin
        if (rst) begin
            rel_active <= 1'b0;
            rd_pend    <= 1'b0;
            taken      <= 3'd0;
        end else begin
            rd_pend <= issue;
            // Taken by a read, given back when its work-item leaves the output queue.
            if (issue && !(m_valid && m_ready))
                taken <= taken + 1'b1;
            else if (!issue && m_valid && m_ready)
                taken <= taken - 1'b1;
            if (rq_pop) begin
                rel_active  <= 1'b1;
                rel_slot    <= rq_data[CQ_W-1 -: SLOT_W];
                rel_last    <= rq_data[VW +: LID_W + 1];
                rel_lid     <= LID_ZERO;
                rel_at_last <= (rq_data[VW +: LID_W + 1] == LID_ZERO);
            end else if (issue_last) begin
                rel_active <= 1'b0;
            end else if (issue) begin
                rel_lid     <= rel_lid + 1'b1;
                rel_at_last <= (rel_lid + 1'b1 == rel_last);
            end
        end
    end

    always @(posedge clk) begin
        if (arrive)
            ram[wr_addr] <= s_data;
        if (issue)
            rd_data <= ram[rd_addr];
    end

    // The entries go into the output queue with their results: straight from the read
    // register for a plain barrier, through one more register stage (the scans'
    // combination) for a function.
    wire          oq_push;
    wire [W-1:0]  oq_data;
    wire [VW-1:0] oq_result;
    generate
        if (STAGES == 1) begin : g_plain
            assign oq_push   = rd_pend;
            assign oq_data   = rd_data;
            assign oq_result = {VW{1'b0}};
            if (!SUMMER) begin : g_novread
                assign vrd_en   = 1'b0;
                assign vrd_addr = {AW{1'b0}};
            end
        end else begin : g_func
            reg          s2_valid;  // stage 2: the entry read two cycles ago
            reg [W-1:0]  s2_data;
            reg [VW-1:0] s2_result;
            wire [VW-1:0] s1_result;  // the result of the entry in rd_data
            always @(posedge clk) begin
                if (rst)
                    s2_valid <= 1'b0;
                else
                    s2_valid <= rd_pend;
                s2_data   <= rd_data;
                s2_result <= s1_result;
            end
            assign oq_push   = s2_valid;
            assign oq_data   = s2_data;
            if (SCAN) begin : g_scan
                // The running value over the slot's entries read so far.
                reg rd_first;  // rd_data holds local id 0
                assign vrd_en   = issue;
                assign vrd_addr = rd_addr;
                always @(posedge clk)
                    if (issue)
                        rd_first <= (rel_lid == LID_ZERO);
                if (FADD) begin : g_fadd
                    // Entry i in stage 1 adds into run (the adder's register): in stage 2
                    // run is v0 + ... + vi, in stage 1 v0 + ... + v(i-1).
                    wire [VW-1:0] run;
                    clhls_fadd #(.LATENCY(1), .W(VW)) adder (
                        .clk(clk), .ce(rd_pend), .a(rd_first ? SMIN64[VW-1:0] : run),
                        .b(vrd_data), .sub(1'b0), .y(run));
                    assign s1_result = rd_first ? {VW{1'b0}} : run;
                    assign oq_result = (OP == 3) ? run : s2_result;
                end else begin : g_comb
                    reg  [VW-1:0] run;  // v0 op ... op v(i-1) while entry i is in stage 1
                    wire [VW-1:0] incl = rd_first ? op_norm : op_comb;
                    assign op_a = run;
                    assign op_b = vrd_data;
                    always @(posedge clk)
                        if (rd_pend)
                            run <= incl;
                    assign s1_result = (OP == 3) ? incl : rd_first ? IDENT64[VW-1:0] : run;
                    assign oq_result = s2_result;
                end
            end else begin : g_group
                // Broadcast and reductions: the slot's result, from its queue entry.
                reg [VW-1:0] rel_result, rd_result;
                always @(posedge clk) begin
                    if (rq_pop)
                        rel_result <= rq_data[VW-1:0];
                    if (issue)
                        rd_result <= rel_result;
                end
                assign s1_result = rd_result;
                assign oq_result = s2_result;
                if (!SUMMER) begin : g_novread
                    assign vrd_en   = 1'b0;
                    assign vrd_addr = {AW{1'b0}};
                end
            end
        end
    endgenerate

    /* verilator lint_off UNUSEDSIGNAL */
    wire oq_ready;  // always 1: credit covers the reads in flight
    /* verilator lint_on UNUSEDSIGNAL */
    clhls_fifo #(.WIDTH(W + VW), .DEPTH(OUT_DEPTH)) out_q (
        .clk(clk), .rst(rst),
        .s_valid(oq_push), .s_ready(oq_ready), .s_data({oq_data, oq_result}),
        .m_valid(m_valid), .m_ready(m_ready), .m_data({m_data, m_result}), .count(oq_count));

    // ---- probes ----
    wire release_one = m_valid && m_ready;
    always @(posedge clk) begin
        if (rst) begin
            held  <= {HELD_W{1'b0}};
            empty <= 1'b1;
        end else if (arrive && !release_one) begin
            held  <= held + 1'b1;
            empty <= 1'b0;
        end else if (!arrive && release_one) begin
            held  <= held - 1'b1;
            empty <= (held == ONE_HELD);
        end
    end

    // No arrival, and no slot completed, summed or released: the work-items held wait
    // for their groups' others (the simulator's jumps over cycles where nothing moves;
    // taken counts every entry read and not yet taken by the consumer).
`ifdef CLHLS_SIM_CHECKS
    assign still = !arrive && !cq_valid && !rq_valid && summer_idle && !rel_active &&
                   taken == 3'd0;
`else
    assign still = 1'b0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_summer_idle = summer_idle;
    /* verilator lint_on UNUSEDSIGNAL */
`endif
endmodule

`default_nettype wire
