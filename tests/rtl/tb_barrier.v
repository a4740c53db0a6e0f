// tb_barrier: clhls_barrier in 68 configurations: as a plain barrier in eight (SLOTS
// 1, 2, 3, 4; LID_W 0..6; W 1 to 70; SLOT_W wider than needed in one), and with every
// work-group function OpenCL C 2.0 has, as the compiler instantiates them (SLOTS 2
// mostly, 1, 3 and 4 in a few; LID_W 0..6): reduce, inclusive scan and exclusive scan
// of add, min and max on uint, int, ulong, long, float and double; any and all on
// int; broadcast of 32- and 64-bit values.
// Every barrier runs many groups ("trips" of a slot: a slot takes its next group, of
// a new random size 1..2^LID_W, as soon as its current one completes). The arrival
// driver either sends the oldest trip's work-items in ascending local id, one per
// cycle (throughput mode), or picks a random slot and a random local id not yet
// arrived (random mode), with random gaps; an entry (slot, local id) receives its
// next arrival only after the work-item it held was released, as the barrier's
// caller guarantees. The consumer takes work-items with random m_ready in random
// phases (full speed, long stalls); once per barrier, trips of 2^LID_W work-items
// meet a stalled consumer until every entry holds a work-item. Values come in
// per-group flavours: integers full random, small (sums across zero), extremes
// (minimum, maximum, 0, 1, -1: wrapping sums), mostly zero or mostly nonzero and all
// zero or all nonzero (any, all); floats moderate (exponents within +-20: the sum
// depends on the order), wide (up to overflow), specials mixed in (zeros of both
// signs, infinities, NaNs with any payload, denormals, the largest finite), a few
// values (ties, equal values, +0 and -0 together, exact cancellations), short
// fractions (exact sums). Idle inputs, s_value and s_chosen of a plain barrier
// included, carry junk. Checked every cycle:
//   - every released work-item is the next one expected: slots in the order they
//     completed, each from local id 0 to size-1, with the exact token it arrived
//     with (nothing released before its slot completed, nothing lost or duplicated),
//     and the exact result bits (0 for a plain barrier), computed here over the
//     group's values in local-id order: integers with Verilog arithmetic, floats with
//     `real` arithmetic (binary64 operations are the host's, binary32 ones are exact
//     in binary64 and rounded to binary32 here, to nearest even; binary32 denormal
//     operands and results flushed to zeros of their sign, binary64 subnormals kept
//     (IEEE, as clhls_fadd does at W = 64), NaN results canonical; min and max:
//     a NaN ignored beside a number, -0 below +0);
//   - m_valid, m_data and m_result hold while stalled; s_ready is 1;
//   - held == work-items arrived and not yet released (and reaches SLOTS * 2^LID_W,
//     every entry); waiting == some slot has arrivals and is not complete.
// At the end: every work-item released, held 0, waiting 0, nothing more released.
// Throughput, in the configurations that start with it (SLOTS 2, 60 groups of 16,
// in-order arrivals one per cycle, m_ready 1), printed: from the first arrival to the
// last release at most items + latency + 20 cycles (the last group's 15 further
// work-items leave after its first; 979 cycles seen for 960 items of a plain barrier,
// 980 with a function), for a float add reduction 2 groups every 16 + latency + 2
// cycles (a slot takes its next group only as its work-items leave); and the release
// latency exactly: the first group's first work-item at m_valid 4 cycles after its
// completing arrival for a plain barrier, 5 with a function, 16 + 8 for a float add
// reduction (its summer's pass first).
// Build time: the barriers are modules of their own in the C++ (no_inline_module),
// the checker's code exists once, and Verilator's output stays below its
// --output-split size, which keeps it one compilation (about 30 s); beyond it,
// make compiles each file on its own, several minutes.
`timescale 1ns/1ps

// The barrier under test, its ports widened to the bench's: slots 3 bits, local ids
// 6, tokens 70, values 64 (outputs zero-extended).
module barrier_dut #(
    parameter W = 32, SLOTS = 2, SLOT_W = 1, LID_W = 4, OP = 0, FUNC = 0, TYPE = 0, VW = 1
) (
    input  wire clk, input wire rst,
    input  wire s_valid, output wire s_ready, input wire [2:0] s_slot, input wire [5:0] s_lid,
    input  wire [6:0] s_size, input wire [69:0] s_data, input wire [63:0] s_value,
    input  wire [5:0] s_chosen,
    output wire m_valid, input wire m_ready, output wire [69:0] m_data, output wire [63:0] m_result,
    output wire [9:0] held, output wire empty, output wire waiting
);
    /*verilator no_inline_module*/  // code per barrier: smaller C++ functions, quicker to compile
    localparam LW = (LID_W > 0) ? LID_W : 1;
    wire [W-1:0] data; wire [VW-1:0] result; wire [LID_W+SLOT_W:0] h;
    clhls_barrier #(.W(W), .SLOTS(SLOTS), .SLOT_W(SLOT_W), .LID_W(LID_W),
                    .OP(OP), .FUNC(FUNC), .TYPE(TYPE), .VW(VW)) dut (.clk(clk), .rst(rst),
        .s_valid(s_valid), .s_ready(s_ready), .s_slot(s_slot[SLOT_W-1:0]), .s_lid(s_lid[LW-1:0]),
        .s_size(s_size[LID_W:0]), .s_data(s_data[W-1:0]), .s_value(s_value[VW-1:0]),
        .s_chosen(s_chosen[LW-1:0]),
        .m_valid(m_valid), .m_ready(m_ready), .m_data(data), .m_result(result),
        .held(h), .empty(empty), .waiting(waiting));
    assign m_data = {70'd0, data};
    assign m_result = {64'd0, result};
    assign held = {10'd0, h};
endmodule

// One configuration: W, SLOTS, SLOT_W, LID_W, groups N, throughput phase first (TP),
// OP, FUNC, TYPE, VW; 16 bits each.
`define BARRIER_CFG(w, slots, slot_w, lid_w, n, tp, op, func, type, vw) \
    ((160'd0 + (w)) << 144 | (160'd0 + (slots)) << 128 | (160'd0 + (slot_w)) << 112 | \
     (160'd0 + (lid_w)) << 96 | (160'd0 + (n)) << 80 | (160'd0 + (tp)) << 64 | \
     (160'd0 + (op)) << 48 | (160'd0 + (func)) << 32 | (160'd0 + (type)) << 16 | (160'd0 + (vw)))

// Every barrier and one checker for all of them: the checker's state is indexed by
// configuration, and its code, one loop over the configurations each cycle, is
// compiled once however many barriers there are.
module tb_barrier;
    localparam NC = 68;                      // configurations
    localparam QN = 1024;                    // expected-release ring per configuration (> SLOTS * MAXG)
    localparam TP_GROUPS = 60;
    localparam NE = 4 * 64;                  // entries per configuration: SLOTS <= 4, LID_W <= 6

    function [159:0] config_row(input integer c);
        begin
            config_row = 0;
            case (c)
                // plain barriers
                0:  config_row = `BARRIER_CFG(1,  1, 1, 0, 3000, 0, 0, 0, 0, 1);
                1:  config_row = `BARRIER_CFG(70, 2, 1, 4, 1500, 1, 0, 0, 0, 1);
                2:  config_row = `BARRIER_CFG(70, 4, 2, 6, 800,  0, 0, 0, 0, 1);
                3:  config_row = `BARRIER_CFG(8,  3, 2, 2, 3000, 0, 0, 0, 0, 1);
                4:  config_row = `BARRIER_CFG(1,  2, 1, 1, 3000, 0, 0, 0, 0, 1);
                5:  config_row = `BARRIER_CFG(33, 1, 1, 5, 1000, 0, 0, 0, 0, 1);
                6:  config_row = `BARRIER_CFG(16, 4, 3, 3, 3000, 0, 0, 0, 0, 1);
                7:  config_row = `BARRIER_CFG(40, 2, 1, 6, 800,  0, 0, 0, 0, 1);
                // any, all (int)
                8:  config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 2, 3, 1, 32);
                9:  config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 2, 4, 1, 32);
                // reduce, inclusive scan, exclusive scan x add, min, max x uint, int (32 bits)
                10: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 2, 0, 0, 32);
                11: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 2, 1, 0, 32);
                12: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 2, 2, 0, 32);
                13: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 2, 0, 1, 32);
                14: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 2, 1, 1, 32);
                15: config_row = `BARRIER_CFG(9, 2, 1, 1, 2000, 0, 2, 2, 1, 32);
                16: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 3, 0, 0, 32);
                17: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 3, 1, 0, 32);
                18: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 3, 2, 0, 32);
                19: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 0, 3, 0, 1, 32);
                20: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 3, 1, 1, 32);
                21: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 3, 2, 1, 32);
                22: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 4, 0, 0, 32);
                23: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 4, 1, 0, 32);
                24: config_row = `BARRIER_CFG(9, 2, 1, 1, 2000, 0, 4, 2, 0, 32);
                25: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 4, 0, 1, 32);
                26: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 0, 4, 1, 1, 32);
                27: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 4, 2, 1, 32);
                // reduce, inclusive scan, exclusive scan x add, min, max x ulong, long (64 bits)
                28: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 2, 0, 0, 64);
                29: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 0, 2, 1, 0, 64);
                30: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 2, 2, 0, 64);
                31: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 2, 0, 1, 64);
                32: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 2, 1, 1, 64);
                33: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 2, 2, 1, 64);
                34: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 3, 0, 0, 64);
                35: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 0, 3, 1, 0, 64);
                36: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 3, 2, 0, 64);
                37: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 3, 0, 1, 64);
                38: config_row = `BARRIER_CFG(9, 2, 1, 1, 2000, 0, 3, 1, 1, 64);
                39: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 3, 2, 1, 64);
                40: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 0, 4, 0, 0, 64);
                41: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 4, 1, 0, 64);
                42: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 4, 2, 0, 64);
                43: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 4, 0, 1, 64);
                44: config_row = `BARRIER_CFG(9, 3, 2, 4, 2000, 0, 4, 1, 1, 64);
                45: config_row = `BARRIER_CFG(9, 2, 1, 0, 3000, 0, 4, 2, 1, 64);
                // broadcast (int / float, long / double: the bits pass unchanged)
                46: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 1, 0, 1, 32);
                47: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 1, 0, 2, 64);
                // reduce, inclusive scan, exclusive scan x add, min, max x float, double
                48: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 2, 0, 2, 32);
                49: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 2, 1, 2, 32);
                50: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 2, 2, 2, 32);
                51: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 3, 0, 2, 32);
                52: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 3, 1, 2, 32);
                53: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 0, 3, 2, 2, 32);
                54: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 4, 0, 2, 32);
                55: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 4, 1, 2, 32);
                56: config_row = `BARRIER_CFG(9, 2, 1, 1, 2000, 0, 4, 2, 2, 32);
                57: config_row = `BARRIER_CFG(9, 2, 1, 6, 800,  0, 2, 0, 2, 64);
                58: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 2, 1, 2, 64);
                59: config_row = `BARRIER_CFG(9, 2, 1, 2, 2000, 0, 2, 2, 2, 64);
                60: config_row = `BARRIER_CFG(9, 2, 1, 3, 2000, 0, 3, 0, 2, 64);
                61: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 0, 3, 1, 2, 64);
                62: config_row = `BARRIER_CFG(9, 2, 1, 5, 1000, 0, 3, 2, 2, 64);
                63: config_row = `BARRIER_CFG(9, 2, 1, 4, 2000, 1, 4, 0, 2, 64);
                64: config_row = `BARRIER_CFG(9, 2, 1, 0, 3000, 0, 4, 1, 2, 64);
                65: config_row = `BARRIER_CFG(9, 3, 2, 3, 2000, 0, 4, 2, 2, 64);
                // float add reductions (a summer's pass) with 1 and 4 slots
                66: config_row = `BARRIER_CFG(9, 1, 1, 4, 1500, 0, 2, 0, 2, 32);
                67: config_row = `BARRIER_CFG(9, 4, 2, 3, 2000, 0, 2, 0, 2, 64);
                default: config_row = 0;
            endcase
        end
    endfunction
    // Field f (0 W, 1 SLOTS, 2 SLOT_W, 3 LID_W, 4 N, 5 TP, 6 OP, 7 FUNC, 8 TYPE, 9 VW).
    function integer config_field(input integer c, input integer f);
        reg [159:0] row;
        begin
            row = config_row(c);
            config_field = row[(9 - f) * 16 +: 16];
        end
    endfunction

    reg clk = 0; always #5 clk = ~clk;
    reg rst = 1;

    // ---- the barriers ----
    // Their inputs are packed vectors, a field per barrier (nonblocking assignments in
    // the checker's loop), their outputs arrays.
    reg [NC-1:0] s_valid = 0; wire s_ready [0:NC-1]; reg [3*NC-1:0] s_slot = 0;
    reg [6*NC-1:0] s_lid = 0; reg [7*NC-1:0] s_size = 0; reg [70*NC-1:0] s_data = 0;
    reg [64*NC-1:0] s_value = 0; reg [6*NC-1:0] s_chosen = 0;
    wire       m_valid [0:NC-1]; reg [NC-1:0] m_ready = 0; wire [69:0] m_data [0:NC-1];
    wire [63:0] m_result [0:NC-1]; wire [9:0] held [0:NC-1]; wire empty [0:NC-1];
    wire waiting [0:NC-1];
    genvar g;
    generate
        for (g = 0; g < NC; g = g + 1) begin : cfg
            barrier_dut #(.W(config_field(g, 0)), .SLOTS(config_field(g, 1)),
                          .SLOT_W(config_field(g, 2)), .LID_W(config_field(g, 3)),
                          .OP(config_field(g, 6)), .FUNC(config_field(g, 7)),
                          .TYPE(config_field(g, 8)), .VW(config_field(g, 9))) dut (
                .clk(clk), .rst(rst),
                .s_valid(s_valid[g]), .s_ready(s_ready[g]), .s_slot(s_slot[g*3 +: 3]),
                .s_lid(s_lid[g*6 +: 6]), .s_size(s_size[g*7 +: 7]), .s_data(s_data[g*70 +: 70]),
                .s_value(s_value[g*64 +: 64]), .s_chosen(s_chosen[g*6 +: 6]),
                .m_valid(m_valid[g]), .m_ready(m_ready[g]), .m_data(m_data[g]),
                .m_result(m_result[g]), .held(held[g]), .empty(empty[g]), .waiting(waiting[g]));
        end
    endgenerate

    // ---- the configuration being checked (set_config) ----
    integer C, W, SLOTS, SLOT_W, LID_W, N, THROUGHPUT, OP, FUNC, TYPE, VW;
    integer MAXG;             // largest group
    integer LATENCY;          // completing arrival to first m_valid, idle barrier
    integer TP_BOUND;         // cycles for the throughput phase
    reg SUMMER;               // a float add reduction
    reg [69:0] WMASK;         // W token bits
    reg [63:0] MASK, SIGN;    // VW value bits, the sign bit
    reg [63:0] QNAN, PINF;    // the canonical NaN, +infinity (VW = 32 or 64)
    reg [5:0]  LMASK;         // s_lid bits
    reg [2:0]  SMASK;         // s_slot bits
    function [NC*160-1:0] config_table(input integer dummy);
        integer i;
        begin
            config_table = 0;
            for (i = 0; i < NC; i = i + 1) config_table[i*160 +: 160] = config_row(i);
        end
    endfunction
    localparam [NC*160-1:0] CONFIGS = config_table(0);
    reg [159:0] row;
    task set_config(input integer c);
        begin
            C = c;
            row = CONFIGS[c*160 +: 160];
            W = row[144 +: 16]; SLOTS = row[128 +: 16]; SLOT_W = row[112 +: 16]; LID_W = row[96 +: 16];
            N = row[80 +: 16]; THROUGHPUT = row[64 +: 16]; OP = row[48 +: 16]; FUNC = row[32 +: 16];
            TYPE = row[16 +: 16]; VW = row[0 +: 16];
            MAXG = 1 << LID_W;
            SUMMER = (OP == 2) && (FUNC == 0) && (TYPE == 2);
            LATENCY = (OP == 0) ? 4 : SUMMER ? 16 + 8 : 5;  // of a group of 16
            // A float add reduction releases a group 16 + 8 cycles after it completes,
            // and a slot takes its next group only as its work-items leave: with 2
            // slots, 2 groups every 16 + LATENCY + 2 cycles.
            TP_BOUND = (SUMMER ? TP_GROUPS / 2 * (16 + LATENCY + 2) : TP_GROUPS * 16) + LATENCY + 20;
            WMASK = ~70'd0 >> (70 - W);
            MASK = ~64'd0 >> (64 - VW);
            SIGN = 64'd1 << (VW - 1);
            QNAN = (VW == 64) ? 64'h7FF8000000000000 : 64'h7FC00000;
            PINF = (VW == 64) ? 64'h7FF0000000000000 : 64'h7F800000;
            LMASK = (LID_W > 0) ? ~6'd0 >> (6 - LID_W) : 6'd1;
            SMASK = ~3'd0 >> (3 - SLOT_W);
        end
    endtask

    // ---- per configuration ----
    // Per slot (index C * 4 + slot): its current trip.
    integer trip_size [0:NC*4-1];     // its number of work-items (0: no trip, all groups started)
    integer trip_group [0:NC*4-1];    // its group number
    integer trip_flavour [0:NC*4-1];  // how its values are drawn
    integer trip_chosen [0:NC*4-1];   // broadcast: the local id whose value all get
    integer arrived [0:NC*4-1];       // work-items of it that have arrived
    // Per entry (index C * NE + slot * MAXG + local id).
    reg     sched [0:NC*NE-1];        // the current trip's arrival is scheduled/done
    reg     busy [0:NC*NE-1];         // holds a work-item not yet released
    reg [69:0] data [0:NC*NE-1];      // the token of the current trip's work-item
    reg [63:0] vals [0:NC*NE-1];      // its value
    // Expected releases, in order (index C * QN + position % QN).
    integer q_slot [0:NC*QN-1]; integer q_lid [0:NC*QN-1]; reg [69:0] q_data [0:NC*QN-1];
    reg [63:0] q_res [0:NC*QN-1];
    integer q_head [0:NC-1], q_tail [0:NC-1];
    integer started [0:NC-1], groups_done [0:NC-1], n_arr [0:NC-1], n_rel [0:NC-1], n_items [0:NC-1];
    integer pa [0:NC-1], pm [0:NC-1], phase_end [0:NC-1], mode [0:NC-1];
    integer first_arr [0:NC-1], max_held [0:NC-1], first_done [0:NC-1], first_valid [0:NC-1];
    integer finished [0:NC-1];        // the cycle every group was released, or -1
    integer fill [0:NC-1];            // filling every entry: 0 no, 1 trips of 2^LID_W, 2 consumer stalled
    integer fill_group [0:NC-1];      // the first group of the fill
    reg prev_stall [0:NC-1]; reg [69:0] prev_data [0:NC-1]; reg [63:0] prev_result [0:NC-1];
    reg [NC-1:0] done = 0;
    reg new_trip [0:NC*4-1];          // per slot: starts its next trip this cycle
    // ---- scratch ----
    integer cycle = 0, c, s, l, k, cnt, pick, e, h, tp_cycles;
    reg exp_waiting; reg [95:0] rnd; reg [63:0] acc, v;
    reg [63:0] incl [0:63];           // a completing group's inclusive prefixes

    // A failed check: reported (and the run stopped) at the end of the configuration's
    // turn, the first one of the turn (one $display in the code, not one per check).
    reg failed; reg [8*64-1:0] failure;
    task fail(input [8*64-1:0] what);
        if (!failed) begin failed = 1; failure = what; end
    endtask

    // ---- floating point reference (binary32 when VW = 32, binary64 when 64) ----
    function is_nan(input [63:0] x);
        is_nan = (VW == 64) ? (x[62:52] == 11'h7FF && x[51:0] != 0) : (x[30:23] == 8'hFF && x[22:0] != 0);
    endfunction
    // The canonical NaN, and in binary32 flush-to-zero (a denormal is the zero of its
    // sign); binary64 subnormals stay.
    function [63:0] canon(input [63:0] x);
        if (is_nan(x)) canon = QNAN;
        else if (VW == 32 && x[30:23] == 0) canon = x & SIGN;
        else canon = x;
    endfunction
    // A canonical value as a real (exact).
    function real to_real(input [63:0] x);
        if (VW == 64) to_real = $bitstoreal(x);
        else if (x[30:23] == 8'hFF) to_real = $bitstoreal({x[31], 11'h7FF, x[22:0] != 0, x[21:0], 29'd0});
        else if (x[30:23] == 0) to_real = $bitstoreal({x[31], 63'd0});
        else to_real = $bitstoreal({x[31], {3'd0, x[30:23]} + 11'd896, x[22:0], 29'd0});
    endfunction
    // A real rounded to the format (nearest even; binary32 flushed to zero), canonical NaN.
    function [63:0] from_real(input real r);
        reg [63:0] d; reg [24:0] keep; reg [28:0] rest; integer ex;
        begin
            d = $realtobits(r);
            if (d[62:52] == 11'h7FF) from_real = (d[51:0] != 0) ? QNAN : ((VW == 64) ? d : {32'd0, d[63], 31'h7F800000});
            else if (VW == 64) from_real = d;
            else if (d[62:52] == 0) from_real = {32'd0, d[63], 31'd0};
            else begin
                ex = d[62:52] - 1023;
                keep = {2'b01, d[51:29]};
                rest = d[28:0];
                if (rest > 29'h10000000 || (rest == 29'h10000000 && keep[0])) keep = keep + 1'b1;
                if (keep[24]) begin ex = ex + 1; keep = keep >> 1; end
                if (ex > 127) from_real = {32'd0, d[63], 31'h7F800000};
                else if (ex < -126) from_real = {32'd0, d[63], 31'd0};
                else from_real = {32'd0, d[63], ex[7:0] + 8'd127, keep[22:0]};
            end
        end
    endfunction
    function [63:0] fadd(input [63:0] a, input [63:0] b);  // canonical operands
        fadd = from_real(to_real(a) + to_real(b));
    endfunction
    // fmin / fmax of canonical operands: a NaN ignored beside a number, -0 < +0.
    function [63:0] fminmax(input [63:0] a, input [63:0] b, input is_max);
        real ra, rb;
        begin
            ra = to_real(a); rb = to_real(b);
            if (is_nan(a)) fminmax = b;
            else if (is_nan(b)) fminmax = a;
            else if (ra < rb) fminmax = is_max ? b : a;
            else if (rb < ra) fminmax = is_max ? a : b;
            else if (ra == 0.0) fminmax = is_max ? (a & b) : (a | b);   // zeros: the sign bits
            else fminmax = a;
        end
    endfunction

    // ---- the function over a group, reference ----
    function [63:0] sext(input [63:0] x);
        sext = (x & SIGN) != 0 ? (x | ~MASK) : x;
    endfunction
    function lt(input [63:0] a, input [63:0] b);
        lt = (TYPE == 1) ? ($signed(sext(a)) < $signed(sext(b))) : (a < b);
    endfunction
    // A group's first value on its own.
    function [63:0] first_of(input [63:0] x);
        if (TYPE == 2) first_of = canon(x);
        else if (FUNC == 3 || FUNC == 4) first_of = (x != 0) ? 64'd1 : 64'd0;
        else first_of = x;
    endfunction
    // acc op x.
    function [63:0] combine(input [63:0] a, input [63:0] x);
        if (TYPE == 2) combine = (FUNC == 0) ? fadd(a, canon(x)) : fminmax(a, canon(x), FUNC == 2);
        else case (FUNC)
            0: combine = (a + x) & MASK;
            1: combine = lt(x, a) ? x : a;
            2: combine = lt(a, x) ? x : a;
            3: combine = {63'd0, a[0] | (x != 0)};
            default: combine = {63'd0, a[0] & (x != 0)};
        endcase
    endfunction
    function [63:0] identity(input integer dummy);
        if (FUNC == 1) identity = (TYPE == 0) ? MASK : (TYPE == 1) ? (MASK >> 1) : PINF;
        else if (FUNC == 2) identity = (TYPE == 0) ? 64'd0 : (TYPE == 1) ? SIGN : (PINF | SIGN);
        else identity = (FUNC == 4) ? 64'd1 : 64'd0;
    endfunction

    // ---- values ----
    task draw_float(input integer flavour, output [63:0] x);
        reg [95:0] r; integer ex, bias, emax, fw;
        begin
            r = {$urandom, $urandom, $urandom};
            bias = (VW == 64) ? 1023 : 127; emax = 2 * bias + 1; fw = (VW == 64) ? 52 : 23;
            case (flavour)
                0: ex = bias - 20 + $urandom % 41;                       // moderate
                1: ex = 1 + $urandom % (emax - 1);                       // wide, up to overflow
                default: ex = bias - 3 + $urandom % 7;
            endcase
            x = ({63'd0, r[95]} << (VW - 1)) | ({32'd0, ex} << fw) | (r[63:0] & ((64'd1 << fw) - 1));
            if (flavour == 2 && $urandom % 4 == 0) begin            // specials
                case ($urandom % 7)
                    0: x = 0;
                    1: x = SIGN;
                    2: x = PINF | (r[94] ? SIGN : 0);
                    3: x = (PINF | (r[63:0] & ((64'd1 << fw) - 1)) | 1) | (r[94] ? SIGN : 0); // any NaN
                    4: x = (r[63:0] & ((64'd1 << fw) - 1)) | (r[94] ? SIGN : 0);              // denormal
                    5: x = ((PINF - 1) & MASK) | (r[94] ? SIGN : 0);                          // largest
                    default: x = QNAN;
                endcase
            end else if (flavour == 4) begin                       // short fractions: exact sums, ties
                x = x & ~((64'd1 << (fw - 4)) - 1);
            end else if (flavour == 3) begin                       // few values: equal ones, cancellation
                case ($urandom % 6)
                    0: x = 0;
                    1: x = SIGN;
                    2: x = (VW == 64) ? 64'h3FF0000000000000 : 64'h3F800000;   // 1
                    3: x = (VW == 64) ? 64'h4008000000000000 : 64'h40400000;   // 3
                    4: x = (VW == 64) ? 64'h3FB999999999999A : 64'h3DCCCCCD;   // 0.1
                    default: x = (VW == 64) ? 64'h4340000000000001 : 64'h4B800001; // 2^p + 2 (ulp 2)
                endcase
                if (r[94]) x = x ^ SIGN;
            end
        end
    endtask
    task draw_int(input integer flavour, output [63:0] x);
        reg [95:0] r;
        begin
            r = {$urandom, $urandom, $urandom};
            case (flavour)
                0: x = r[63:0] & MASK;                                               // full random
                1: x = (r[3:0] - 64'd8) & MASK;                                      // small, +-8
                2: case ($urandom % 6)                                                // extremes
                       0: x = 0; 1: x = 1; 2: x = MASK; 3: x = MASK >> 1; 4: x = SIGN;
                       default: x = r[63:0] & MASK;
                   endcase
                3: x = ($urandom % 20 == 0) ? (r[63:0] & MASK) : 0;                  // mostly zero
                4: x = ($urandom % 20 == 0) ? 0 : (r[63:0] & MASK);                  // mostly nonzero
                5: x = 0;
                default: x = (r[63:0] & MASK) | (64'd1 << ($urandom % VW));          // never zero
            endcase
        end
    endtask
    task draw(input integer flavour, output [63:0] x);
        if (TYPE == 2) draw_float(flavour, x); else draw_int(flavour, x);
    endtask

    // Slot `ss` of configuration C starts its next trip, if groups remain.
    task start_trip(input integer ss);
        begin
            if (started[C] < N) begin
                if (THROUGHPUT && started[C] < TP_GROUPS) trip_size[C*4 + ss] = 16;
                else if (fill[C] != 0) trip_size[C*4 + ss] = MAXG;
                else case ($urandom % 4)
                    0: trip_size[C*4 + ss] = MAXG;
                    1: trip_size[C*4 + ss] = 1;
                    default: trip_size[C*4 + ss] = 1 + $urandom % MAXG;
                endcase
                trip_group[C*4 + ss] = started[C];
                trip_flavour[C*4 + ss] = (TYPE == 2) ? $urandom % 5 : (FUNC >= 3) ? $urandom % 7 : $urandom % 3;
                trip_chosen[C*4 + ss] = $urandom % trip_size[C*4 + ss];
                started[C] = started[C] + 1;
                n_items[C] = n_items[C] + trip_size[C*4 + ss];
            end else begin
                trip_size[C*4 + ss] = 0;
            end
            arrived[C*4 + ss] = 0;
            for (l = 0; l < MAXG; l = l + 1) sched[C*NE + ss*MAXG + l] = 0;
        end
    endtask

    always @(posedge clk) begin
        cycle = cycle + 1;
        for (c = 0; c < NC; c = c + 1) begin
            set_config(c);
            failed = 0;
            if (cycle > 3000000 && !done[C]) fail("timeout");
            if (rst) begin
                // The configuration starts afresh.
                started[C] = 0; groups_done[C] = 0; n_arr[C] = 0; n_rel[C] = 0; n_items[C] = 0;
                q_head[C] = 0; q_tail[C] = 0; pa[C] = 0; pm[C] = 100; mode[C] = 0; phase_end[C] = 0;
                prev_stall[C] = 0; prev_data[C] = 0; prev_result[C] = 0;
                first_arr[C] = 0; max_held[C] = 0; first_done[C] = -1; first_valid[C] = -1; finished[C] = -1;
                fill[C] = THROUGHPUT ? 0 : 1; fill_group[C] = THROUGHPUT ? -1 : 0;
                for (e = 0; e < NE; e = e + 1) begin
                    busy[C*NE + e] = 0; sched[C*NE + e] = 0; data[C*NE + e] = 0; vals[C*NE + e] = 0;
                end
                for (s = 0; s < 4; s = s + 1) new_trip[C*4 + s] = (s < SLOTS);
                s_valid[C] <= 0;
                m_ready[C] <= 0;
            end else begin
                // ---- checks on the values before this edge ----
                if (s_ready[C] !== 1'b1) fail("s_ready not 1");
                if (held[C] !== n_arr[C] - n_rel[C]) fail("held differs from arrived - released");
                if (empty[C] !== (held[C] == 0)) fail("empty differs from held == 0");
                if (n_arr[C] - n_rel[C] > max_held[C]) max_held[C] = n_arr[C] - n_rel[C];
                exp_waiting = 0;
                for (s = 0; s < SLOTS; s = s + 1) if (arrived[C*4 + s] != 0) exp_waiting = 1;
                if (waiting[C] !== exp_waiting) fail("waiting wrong");
                if (prev_stall[C] && (!m_valid[C] || m_data[C] !== prev_data[C] || m_result[C] !== prev_result[C]))
                    fail("output changed while stalled");
                prev_stall[C] = m_valid[C] && !m_ready[C];
                prev_data[C] = m_data[C];
                prev_result[C] = m_result[C];
                if (m_valid[C] && first_valid[C] < 0) begin
                    first_valid[C] = cycle;
                    if (THROUGHPUT) begin
                        $display("latency (OP %0d FUNC %0d TYPE %0d VW %0d): completing arrival to first m_valid %0d cycles",
                                 OP, FUNC, TYPE, VW, first_valid[C] - first_done[C]);
                        if (first_valid[C] - first_done[C] != LATENCY) fail("release latency not as documented");
                    end
                end

                // ---- a release ----
                if (m_valid[C] && m_ready[C]) begin
                    h = C*QN + q_head[C] % QN;
                    if (q_head[C] == q_tail[C]) fail("release with no completed slot");
                    if (m_data[C] !== q_data[h] || m_result[C] !== q_res[h]) begin
                        $display("slot %0d lid %0d: got %h / %h expected %h / %h", q_slot[h], q_lid[h],
                                 m_data[C], m_result[C], q_data[h], q_res[h]);
                        fail((m_data[C] !== q_data[h]) ? "wrong released token" : "wrong result");
                    end
                    e = C*NE + q_slot[h] * MAXG + q_lid[h];
                    if (!busy[e]) fail("bookkeeping: entry released twice");
                    busy[e] = 0;
                    q_head[C] = q_head[C] + 1;
                    n_rel[C] = n_rel[C] + 1;
                    if (THROUGHPUT && n_rel[C] == TP_GROUPS * 16) begin
                        tp_cycles = cycle - first_arr[C] + 1;
                        if (tp_cycles > TP_BOUND) fail("in-order groups of 16 not released at one per cycle");
                        $display("throughput (OP %0d FUNC %0d TYPE %0d VW %0d): %0d work-items in %0d groups of 16, first arrival to last release %0d cycles",
                                 OP, FUNC, TYPE, VW, TP_GROUPS * 16, TP_GROUPS, tp_cycles);
                    end
                end

                // ---- an arrival ----
                if (s_valid[C]) begin
                    if (!s_ready[C]) fail("arrival refused");
                    s = s_slot[C*3 +: 3];
                    arrived[C*4 + s] = arrived[C*4 + s] + 1;
                    n_arr[C] = n_arr[C] + 1;
                    if (n_arr[C] == 1) first_arr[C] = cycle;
                    if (arrived[C*4 + s] == trip_size[C*4 + s]) begin
                        // The slot completes: its work-items leave in local-id order, with
                        // the function over the group's values in local-id order.
                        if (first_done[C] < 0) first_done[C] = cycle;
                        for (l = 0; l < trip_size[C*4 + s]; l = l + 1) begin
                            v = vals[C*NE + s*MAXG + l];
                            acc = (l == 0) ? first_of(v) : combine(acc, v);
                            incl[l] = acc;
                        end
                        for (l = 0; l < trip_size[C*4 + s]; l = l + 1) begin
                            h = C*QN + q_tail[C] % QN;
                            q_slot[h] = s; q_lid[h] = l; q_data[h] = data[C*NE + s*MAXG + l];
                            case (OP)
                                1: q_res[h] = vals[C*NE + s*MAXG + trip_chosen[C*4 + s]];
                                2: q_res[h] = acc;
                                3: q_res[h] = incl[l];
                                4: q_res[h] = (l == 0) ? identity(0) : incl[l - 1];
                                default: q_res[h] = 0;
                            endcase
                            q_tail[C] = q_tail[C] + 1;
                        end
                        groups_done[C] = groups_done[C] + 1;
                        new_trip[C*4 + s] = 1;
                    end
                end
            end
            // Slots whose group completed (or all, in reset) take their next group.
            for (s = 0; s < SLOTS; s = s + 1)
                if (new_trip[C*4 + s]) begin
                    new_trip[C*4 + s] = 0;
                    start_trip(s);
                end
            if (!rst) begin
                // ---- the end: every work-item released, then 30 quiet cycles ----
                if (finished[C] < 0 && groups_done[C] == N && n_rel[C] == n_items[C]) begin
                    finished[C] = cycle;
                    if (max_held[C] != SLOTS * MAXG) fail("never every entry held at once");
                end
                if (finished[C] >= 0 && cycle == finished[C] + 30) begin
                    if (m_valid[C] || held[C] !== 0 || waiting[C] !== 0 || n_rel[C] != n_items[C])
                        fail("not empty at the end");
                    $display("ok W %0d SLOTS %0d SLOT_W %0d LID_W %0d OP %0d FUNC %0d TYPE %0d VW %0d: %0d groups, %0d work-items, %0d cycles",
                             W, SLOTS, SLOT_W, LID_W, OP, FUNC, TYPE, VW, N, n_items[C], cycle);
                    done[C] = 1;
                end

                // ---- phases ----
                // Once (at the start, after the throughput phase if any): trips of 2^LID_W
                // work-items, and once every slot has one the consumer stalls until every
                // entry holds a work-item.
                if (THROUGHPUT && n_rel[C] == TP_GROUPS * 16 && fill[C] == 0 && fill_group[C] < 0) begin
                    fill[C] = 1;
                    fill_group[C] = started[C];
                end
                if (fill[C] == 1) begin
                    k = 1;
                    for (s = 0; s < SLOTS; s = s + 1)
                        if (trip_group[C*4 + s] < fill_group[C]) k = 0;
                    if (k) fill[C] = 2;
                end else if (fill[C] == 2 && n_arr[C] - n_rel[C] == SLOTS * MAXG) begin
                    fill[C] = 0;
                    phase_end[C] = cycle;
                end
                if (fill[C] != 0) begin
                    // (random order: in order would wait for an entry held by the stalled consumer)
                    pa[C] = 100; pm[C] = (fill[C] == 2) ? 0 : 100; mode[C] = 1;
                end else if (cycle >= phase_end[C]) begin
                    if (THROUGHPUT && n_rel[C] < TP_GROUPS * 16) begin
                        pa[C] = 100; pm[C] = 100; mode[C] = 0;
                    end else begin
                        case ($urandom % 6)
                            0: begin pa[C] = 100; pm[C] = 100; end
                            1: begin pa[C] = 60;  pm[C] = 60;  end
                            2: begin pa[C] = 100; pm[C] = 0;   end   // consumer stalled: the barrier fills up
                            3: begin pa[C] = 20;  pm[C] = 100; end
                            4: begin pa[C] = 90;  pm[C] = 30;  end
                            default: begin pa[C] = 80; pm[C] = 95; end
                        endcase
                        mode[C] = ($urandom % 3 == 0) ? 0 : 1;
                    end
                    phase_end[C] = cycle + ((pm[C] == 0) ? 10 + $urandom % 100 : 20 + $urandom % 500);
                end

                // ---- next arrival ----
                k = -1;
                if (($urandom % 100) < pa[C]) begin
                    if (mode[C] == 0) begin
                        // In order: the oldest trip, its lowest local id not yet sent, if its entry is free.
                        for (s = 0; s < SLOTS; s = s + 1)
                            if (trip_size[C*4 + s] != 0 && (k < 0 || trip_group[C*4 + s] < trip_group[C*4 + k])) k = s;
                        if (k >= 0) begin
                            l = 0;
                            while (l < trip_size[C*4 + k] && sched[C*NE + k*MAXG + l]) l = l + 1;
                            if (l >= trip_size[C*4 + k] || busy[C*NE + k*MAXG + l]) k = -1;
                        end
                    end else begin
                        // Random: any slot, any local id not yet sent whose entry is free.
                        cnt = 0;
                        for (s = 0; s < SLOTS; s = s + 1)
                            for (l = 0; l < trip_size[C*4 + s]; l = l + 1)
                                if (!sched[C*NE + s*MAXG + l] && !busy[C*NE + s*MAXG + l]) cnt = cnt + 1;
                        if (cnt > 0) begin
                            pick = $urandom % cnt;
                            for (s = 0; s < SLOTS; s = s + 1)
                                for (l = 0; l < trip_size[C*4 + s]; l = l + 1)
                                    if (!sched[C*NE + s*MAXG + l] && !busy[C*NE + s*MAXG + l]) begin
                                        if (pick == 0) begin k = s; e = l; end
                                        pick = pick - 1;
                                    end
                            l = e;
                        end
                    end
                end
                rnd = {$urandom, $urandom, $urandom};
                if (k >= 0) begin
                    e = C*NE + k*MAXG + l;
                    sched[e] = 1;
                    busy[e] = 1;
                    data[e] = rnd[69:0] & WMASK;
                    draw(trip_flavour[C*4 + k], v);
                    vals[e] = v;
                    s_valid[C] <= 1;
                    s_slot[C*3 +: 3] <= k;
                    s_lid[C*6 +: 6] <= l;
                    s_size[C*7 +: 7] <= trip_size[C*4 + k];
                    s_data[C*70 +: 70] <= rnd[69:0] & WMASK;
                    s_value[C*64 +: 64] <= v;
                    s_chosen[C*6 +: 6] <= (OP == 1) ? trip_chosen[C*4 + k] : rnd[85:80] & LMASK;
                end else begin
                    // Idle inputs carry junk, which the barrier must ignore.
                    s_valid[C] <= 0;
                    s_slot[C*3 +: 3] <= rnd[2:0] & SMASK;
                    s_lid[C*6 +: 6] <= rnd[45:40] & LMASK;
                    s_size[C*7 +: 7] <= 1;
                    s_data[C*70 +: 70] <= rnd[69:0] & WMASK;
                    s_value[C*64 +: 64] <= rnd[95:32] & MASK;
                    s_chosen[C*6 +: 6] <= rnd[85:80] & LMASK;
                end
                m_ready[C] <= ($urandom % 100) < pm[C];
            end
            if (failed) begin
                $display("FAIL tb_barrier [config %0d: W %0d SLOTS %0d LID_W %0d OP %0d FUNC %0d TYPE %0d VW %0d] cycle %0d: %0s (arrived %0d released %0d groups %0d of %0d)",
                         C, W, SLOTS, LID_W, OP, FUNC, TYPE, VW, cycle, failure, n_arr[C], n_rel[C], groups_done[C], N);
                $fatal(1);
            end
        end
    end

    initial begin
        repeat (3) @(negedge clk);
        rst = 0;
        wait (&done);
        $display("PASS tb_barrier (%0d configurations: 8 plain barriers, every work-group function)", NC);
        $finish;
    end
endmodule
