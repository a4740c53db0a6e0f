// clhls_word_select: one word of a line, picked by its index through a tree of 4:1
// multiplexers.
//
// Each level of the tree picks one of four words by two bits of the index (the lowest
// bits first), and the last level picks one of two when the index has an odd number
// of bits. A 4:1 multiplexer of one bit is one six-input LUT, so a 64-word line is
// three LUT levels on the UltraScale+ and Cyclone V and two LUT4s or a LUT4 and a
// PFUMX per level on the iCE40 and ECP5. Written as `line[DATA_W*index +: DATA_W]`,
// the same choice is a shift that synthesis maps for the Xilinx families into chains
// of LUT1, MUXF7, MUXF8 and MUXF9, four levels per five or six index bits: twelve for
// a byte of a 512-bit line.
// Simulation: with CLHLS_SIM_MODELS defined (the simulator's default builds, never
// synthesis) the same word is one part-select, which the simulator evaluates in a few
// instructions instead of every multiplexer of the tree each cycle;
// `-clhls-rtl-operators` simulates the tree (rtl_tb_word_select checks the tree,
// rtl_tb_word_select_sim_models the part-select).
// Combinational: no clock, no registers.
`default_nettype none

module clhls_word_select #(
    parameter DATA_W = 32,  // word width in bits
    parameter WORDS  = 16   // words in the line: a power of two, >= 1
) (
    input  wire [DATA_W*WORDS-1:0] line,   // the line, word i at bits [DATA_W*i +: DATA_W]
    input  wire [IDX_W-1:0]        index,  // the word to pick (< WORDS)
    output wire [DATA_W-1:0]       word    // line's word at index
);
    localparam IDX_W  = (WORDS > 1) ? $clog2(WORDS) : 1;  // index bits
`ifdef CLHLS_SIM_MODELS
    generate
        if (WORDS == 1) begin : one_word
            assign word = line;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_index = ^index;
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : part_select
            assign word = line[DATA_W * index +: DATA_W];
        end
    endgenerate
`else
    localparam LEVELS = (WORDS > 1) ? (IDX_W + 1) / 2 : 0; // tree levels (4:1; 2:1 last)

    // Words of tree level l: the line's at level 0, one at the last level.
    function integer level_words(input integer l);
        level_words = ((WORDS >> (2 * l)) > 1) ? (WORDS >> (2 * l)) : 1;
    endfunction

    genvar l, i;
    generate
        if (WORDS == 1) begin : one_word
            // A one-word line has nothing to pick: the index is ignored.
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_index = ^index;
            /* verilator lint_on UNUSEDSIGNAL */
        end
        for (l = 0; l <= LEVELS; l = l + 1) begin : level
            // Kept as nets, so each level is one LUT per bit: synthesis otherwise
            // remaps the tree and may add a level (a byte of a 512-bit line: 4).
            (* keep *) wire [DATA_W*level_words(l)-1:0] words;  // this level's words
            if (l == 0) begin : leaves
                assign words = line;
            end else begin : picks
                // Four children per word (two at the last level of an odd index width).
                localparam FAN = (level_words(l - 1) >= 4) ? 4 : 2;
                for (i = 0; i < level_words(l); i = i + 1) begin : pick
                    wire [DATA_W*FAN-1:0] children =  // the words it picks from
                        level[l - 1].words[DATA_W * FAN * i +: DATA_W * FAN];
                    if (FAN == 4) begin : of_four
                        wire [1:0] sel = index[2 * (l - 1) +: 2];
                        assign words[DATA_W * i +: DATA_W] =
                            sel[1] ? (sel[0] ? children[DATA_W * 3 +: DATA_W]
                                             : children[DATA_W * 2 +: DATA_W])
                                   : (sel[0] ? children[DATA_W +: DATA_W]
                                             : children[0 +: DATA_W]);
                    end else begin : of_two
                        assign words[DATA_W * i +: DATA_W] =
                            index[2 * (l - 1)] ? children[DATA_W +: DATA_W]
                                               : children[0 +: DATA_W];
                    end
                end
            end
        end
    endgenerate
    assign word = level[LEVELS].words;
`endif
endmodule

`default_nettype wire
