/* libFuzzer harness of the board file loader (boards/board.c, board_load_file): each
 * input is written to a file and loaded as a board description; a board that loads is
 * then asked what the compiler, the simulator and `clhls synth` ask of it (the class
 * of a few Yosys cell types, the bytes a memory port moves per cycle) and freed. Any
 * input may be rejected; none may crash, leak or reach undefined behaviour. */
#include <stdio.h>

#include "board.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_scratch_dir();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const cells[] = {"SB_LUT4", "SB_DFF", "LUT6", "FDRE", "RAMB36E2",
                                        "DSP48E2", "CARRY8", "MUXF7", "$_DFF_P_", ""};
    char err[512];
    board_t *b = board_load_file(fuzz_write_file("board.json", data, size), err, sizeof err);
    if (!b)
        return 0;
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
        double weight = 0;
        int cls = board_cell_class_of(b, cells[i], &weight);
        if (cls >= 0 && (board_cell_class_name((board_cell_class)cls)[0] == '?' || weight < 0))
            __builtin_trap(); /* the loader let an unknown class or a negative weight by */
    }
    volatile double bpc = board_mem_bytes_per_cycle(b);
    (void)bpc;
    board_free(b);
    return 0;
}
