/* Board loader tests: every board file shipped loads with values that agree with each
 * other, the real boards carry their vendors' capacities, and a bad board file is an
 * error naming the file, the field and the expected type. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"

static char dir[] = "/tmp/clhls-boardtest-XXXXXX";

static void setup(void)
{
    cr_assert(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(board, .init = setup, .fini = teardown);

/* Board `base` with `from` replaced by `to`, written to DIR/NAME.json. */
static char *variant_of(const char *base, const char *name, const char *from, const char *to)
{
    char err[512];
    board_t *b = board_load(base, err, sizeof err);
    cr_assert(b, "%s", err);
    FILE *f = fopen(b->path, "r");
    cr_assert(f);
    static char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    board_free(b);
    char *at = strstr(text, from);
    cr_assert(at, "'%s' not in the board file", from);
    static char path[256];
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    f = fopen(path, "w");
    cr_assert(f);
    fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    fclose(f);
    return path;
}

/* The default board with `from` replaced by `to`. */
static char *variant(const char *name, const char *from, const char *to)
{
    return variant_of("sim_dc", name, from, to);
}

static void expect_error(const char *path, const char *message)
{
    char err[512] = "";
    board_t *b = board_load_file(path, err, sizeof err);
    cr_expect_null(b);
    cr_expect(strstr(err, path), "error does not name the file: %s", err);
    cr_expect(strstr(err, message), "expected '%s' in: %s", message, err);
    board_free(b);
}

Test(board, default_board_loads_with_its_values)
{
    char err[512];
    board_t *b = board_load(board_default_name(), err, sizeof err);
    cr_assert(b, "%s", err);
    cr_expect_str_eq(b->name, "sim_dc");
    cr_expect_eq(b->mem_width_bits, 512);
    cr_expect_eq(b->mem_latency_cycles, 64);
    cr_expect_float_eq(board_mem_bytes_per_cycle(b), 64.0, 1e-9);
    board_free(b);
}

Test(board, every_listed_board_loads)
{
    char **names = board_list();
    int n = 0;
    for (char **p = names; *p; p++, n++) {
        char err[512];
        board_t *b = board_load(*p, err, sizeof err);
        cr_expect(b, "%s: %s", *p, err);
        board_free(b);
    }
    board_list_free(names);
    cr_expect_geq(n, 1);
}

Test(board, missing_field_is_named)
{
    expect_error(variant("missing", "\"clock_mhz\"", "\"clock\""),
                 "field 'clock_mhz' must be a number");
}

Test(board, wrong_type_is_named)
{
    expect_error(variant("type", "\"latency_cycles\": 64", "\"latency_cycles\": \"slow\""),
                 "field 'memory.latency_cycles' must be a number");
}

Test(board, bad_port_width_is_refused)
{
    expect_error(variant("width", "\"width_bits\": 512", "\"width_bits\": 100"),
                 "'memory.width_bits' must be a power of two up to 1024");
}

Test(board, invalid_json_is_reported)
{
    expect_error(variant("json", "{", "{ ,"), "not valid JSON");
}

Test(board, unknown_board_name_is_an_error)
{
    char err[512] = "";
    cr_expect_null(board_load("no_such_board", err, sizeof err));
    cr_expect(strstr(err, "unknown board 'no_such_board'"), "%s", err);
    cr_expect_null(board_load("../etc/passwd", err, sizeof err));
    cr_expect(strstr(err, "invalid board name"), "%s", err);
}

Test(board, board_dir_is_searched_first)
{
    variant("extra_board", "\"name\": \"sim_dc\"", "\"name\": \"extra_board\"");
    setenv("CLHLS_BOARD_DIR", dir, 1);
    char err[512];
    board_t *b = board_load("extra_board", err, sizeof err);
    unsetenv("CLHLS_BOARD_DIR");
    cr_assert(b, "%s", err);
    cr_expect_str_eq(b->name, "extra_board");
    board_free(b);
}

Test(board, every_board_is_consistent)
{
    char **names = board_list();
    for (char **p = names; *p; p++) {
        char err[512];
        board_t *b = board_load(*p, err, sizeof err);
        cr_assert(b, "%s: %s", *p, err);
        cr_expect_leq(b->max_alloc_bytes, b->global_mem_bytes, "%s", *p);
        cr_expect(b->mem_addr_bits == 64 || b->global_mem_bytes <= (1ull << b->mem_addr_bits),
                  "%s: memory beyond its address bits", *p);
        cr_expect(board_cell_class_of(b, "no_such_cell_type", NULL) < 0);
        cr_expect_gt(b->delay_ns[BOARD_CELL_LUT], 0, "%s", *p);
        cr_expect_gt(b->delay_ns[BOARD_CELL_FF], 0, "%s", *p);
        cr_expect_eq(!!b->pnr_tool, !!b->pnr_args, "%s", *p);
        board_free(b);
    }
    board_list_free(names);
}

/* The capacities and tools of the real boards, from the vendors' data sheets. */
Test(board, real_boards_have_their_capacities)
{
    static const struct {
        const char *name, *family, *synth;
        uint64_t luts, ffs, brams, dsps;
        unsigned addr_bits, mem_ports;
        const char *pnr;
    } boards[] = {
        /* the U250's four DDR4 channels of 16 GiB */
        {"alveo_u250", "xcup", "synth_xilinx -family xcup -nowidelut", 1728000, 3456000, 2688, 12288, 36, 4, NULL},
        {"de10_nano", "cyclonev", "synth_intel_alm -family cyclonev", 83018, 166036, 514, 112, 32, 1, NULL},
        {"icebreaker", "ice40", "synth_ice40 -dsp", 5280, 5280, 30, 8, 18, 1, "nextpnr-ice40"},
        {"ulx3s_85f", "ecp5", "synth_ecp5", 83640, 83640, 208, 156, 26, 1, NULL},
    };
    for (size_t i = 0; i < sizeof boards / sizeof *boards; i++) {
        char err[512];
        board_t *b = board_load(boards[i].name, err, sizeof err);
        cr_assert(b, "%s", err);
        cr_expect_str_eq(b->family, boards[i].family);
        cr_expect_str_eq(b->synth_command, boards[i].synth);
        cr_expect_eq(b->luts, boards[i].luts, "%s", b->name);
        cr_expect_eq(b->ffs, boards[i].ffs, "%s", b->name);
        cr_expect_eq(b->brams, boards[i].brams, "%s", b->name);
        cr_expect_eq(b->dsps, boards[i].dsps, "%s", b->name);
        cr_expect_eq(b->mem_addr_bits, boards[i].addr_bits, "%s", b->name);
        cr_expect_eq(b->mem_ports, boards[i].mem_ports, "%s", b->name);
        if (boards[i].pnr)
            cr_expect_str_eq(b->pnr_tool, boards[i].pnr);
        else
            cr_expect_null(b->pnr_tool, "%s", b->name);
        board_free(b);
    }
}

Test(board, icebreaker_places_and_routes_an_up5k)
{
    char err[512];
    board_t *b = board_load("icebreaker", err, sizeof err);
    cr_assert(b, "%s", err);
    cr_assert(b->pnr_args);
    cr_expect_str_eq(b->pnr_args[0], "--up5k");
    cr_expect_str_eq(b->pnr_args[1], "--package");
    cr_expect_str_eq(b->pnr_args[2], "sg48");
    cr_expect_str_eq(b->bitstream_tool, "icepack");
    cr_expect_eq(b->global_mem_bytes, 131072); /* the four SPRAMs */
    cr_expect_eq(board_cell_class_of(b, "SB_DFFESR", NULL), BOARD_CELL_FF);
    cr_expect_eq(board_cell_class_of(b, "SB_RAM40_4K", NULL), BOARD_CELL_BRAM);
    cr_expect_eq(board_cell_class_of(b, "SB_MAC16", NULL), BOARD_CELL_DSP);
    cr_expect_eq(board_cell_class_of(b, "SB_CARRY", NULL), BOARD_CELL_CARRY);
    board_free(b);
}

Test(board, cell_weights_count_fractions)
{
    char err[512];
    board_t *b = board_load("alveo_u250", err, sizeof err);
    cr_assert(b, "%s", err);
    double w = 0;
    cr_expect_eq(board_cell_class_of(b, "RAMB18E2", &w), BOARD_CELL_BRAM);
    cr_expect_float_eq(w, 0.5, 1e-9);
    cr_expect_eq(board_cell_class_of(b, "LUT6", &w), BOARD_CELL_LUT);
    cr_expect_float_eq(w, 1.0, 1e-9);
    cr_expect_eq(board_cell_class_of(b, "MUXF7", NULL), BOARD_CELL_MUX);
    board_free(b);
}

/* Yosys's MISTRAL_MLAB is a 32 x 1 LUT-RAM cell; an ALM of an MLAB holds 32 x 2 bits,
 * so the cell takes half an ALM: one of the DE10-Nano's ALUTs, not an MLAB's ten ALMs
 * (a kernel with many small queues was reported not to fit at 100.5 % of the LUTs
 * where it needs 44 %). */
Test(board, a_lut_ram_cell_weighs_the_alut_it_takes)
{
    char err[512];
    board_t *b = board_load("de10_nano", err, sizeof err);
    cr_assert(b, "%s", err);
    double w = 0;
    cr_expect_eq(board_cell_class_of(b, "MISTRAL_MLAB", &w), BOARD_CELL_LUT);
    cr_expect_float_eq(w, 1.0, 1e-9);
    cr_expect_eq(b->luts, 83018, "two ALUTs per ALM of the 5CSEBA6's 41,509");
    board_free(b);
}

/* Logic levels a clock period leaves, from the delay model: the U250 at 300 MHz fewer
 * than 8, the iCE40 at 24 MHz more. */
Test(board, logic_levels_follow_the_clock_and_the_delay_model)
{
    char err[512];
    board_t *b = board_load("alveo_u250", err, sizeof err);
    cr_assert(b, "%s", err);
    cr_expect_float_eq(board_logic_levels(b), (1000.0 / 300 - 0.35) / 0.45, 1e-9);
    board_free(b);
    b = board_load("icebreaker", err, sizeof err);
    cr_assert(b, "%s", err);
    cr_expect_float_eq(board_logic_levels(b), (1000.0 / 24 - 1.5) / 3.8, 1e-9);
    b->delay_ns[BOARD_CELL_LUT] = 0;
    cr_expect_float_eq(board_logic_levels(b), 0.0, 1e-9, "no delay model: 0");
    board_free(b);
}

Test(board, default_board_has_64_bit_addresses)
{
    char err[512];
    board_t *b = board_load("sim_dc", err, sizeof err);
    cr_assert(b, "%s", err);
    cr_expect_eq(b->mem_addr_bits, 64);
    board_free(b);
}

Test(board, missing_address_bits_is_named)
{
    expect_error(variant("no_addr", "\"address_bits\": 64,", ""),
                 "field 'memory.address_bits' must be a number");
}

Test(board, mistyped_address_bits_is_named)
{
    expect_error(variant("addr_type", "\"address_bits\": 64", "\"address_bits\": \"64\""),
                 "field 'memory.address_bits' must be a number");
}

Test(board, address_bits_out_of_range_are_refused)
{
    expect_error(variant("addr_big", "\"address_bits\": 64", "\"address_bits\": 65"),
                 "field 'memory.address_bits' must be at most 64");
    expect_error(variant("addr_small", "\"address_bits\": 64", "\"address_bits\": 8"),
                 "field 'memory.address_bits' must be at least 12");
}

Test(board, memory_beyond_the_address_bits_is_refused)
{
    expect_error(variant("addr_short", "\"address_bits\": 64", "\"address_bits\": 32"),
                 "'memory.size_bytes' (17179869184) does not fit in 'memory.address_bits'");
}

Test(board, missing_cell_table_is_named)
{
    expect_error(variant("no_cells", "\"cells\":", "\"cellz\":"),
                 "field 'synthesis.cells' must be an object");
}

Test(board, missing_cell_class_is_named)
{
    expect_error(variant("no_dsp", "\"dsp\": { \"DSP48E2\": 1 },", ""),
                 "missing field 'synthesis.cells.dsp'");
}

Test(board, mistyped_cell_class_is_named)
{
    expect_error(variant("lut_type", "\"lut\": {", "\"lut\": 3, \"x\": {"),
                 "field 'synthesis.cells.lut' must be an object of cell type: weight");
}

Test(board, unknown_cell_class_is_named)
{
    expect_error(variant("uram", "\"carry\":", "\"uram\": {}, \"carry\":"),
                 "field 'synthesis.cells.uram': unknown cell class");
}

Test(board, mistyped_cell_weight_is_named)
{
    expect_error(variant("weight", "\"DSP48E2\": 1", "\"DSP48E2\": \"one\""),
                 "field 'synthesis.cells.dsp.DSP48E2' must be a number");
}

Test(board, missing_delay_is_named)
{
    expect_error(variant("no_delay", "\"lut\": 0.45, ", ""),
                 "field 'synthesis.delay_ns.lut' must be a number");
}

Test(board, mistyped_delay_is_named)
{
    expect_error(variant("delay_type", "\"ff\": 0.35", "\"ff\": \"fast\""),
                 "field 'synthesis.delay_ns.ff' must be a number");
}

Test(board, pnr_tool_needs_arguments)
{
    expect_error(variant_of("icebreaker", "no_args",
                            "\"pnr_args\": [\"--up5k\", \"--package\", \"sg48\"],", ""),
                 "field 'fpga.pnr_args' must be an array of strings");
}

Test(board, mistyped_pnr_arguments_are_named)
{
    expect_error(variant_of("icebreaker", "args_type", "\"sg48\"]", "48]"),
                 "field 'fpga.pnr_args' must be an array of strings");
    expect_error(variant_of("icebreaker", "args_string", "[\"--up5k\", \"--package\", \"sg48\"]",
                            "\"--up5k\""),
                 "field 'fpga.pnr_args' must be an array of strings");
}

Test(board, mistyped_pnr_tool_is_named)
{
    expect_error(variant_of("icebreaker", "tool_type", "\"nextpnr-ice40\"", "5"),
                 "field 'fpga.pnr_tool' must be a string");
}

Test(board, bitstream_without_pnr_is_refused)
{
    expect_error(variant_of("icebreaker", "bit_only", "\"pnr_tool\": \"nextpnr-ice40\",", ""),
                 "field 'fpga.bitstream_tool' needs 'fpga.pnr_tool'");
}

Test(board, max_alloc_beyond_memory_is_refused)
{
    expect_error(variant_of("icebreaker", "alloc", "\"max_alloc_bytes\": 131072",
                            "\"max_alloc_bytes\": 262144"),
                 "field 'memory.max_alloc_bytes' is larger than 'memory.size_bytes'");
}

Test(board, work_item_index_bits_are_checked)
{
    char err[512];
    board_t *b = board_load("icebreaker", err, sizeof err);
    cr_assert(b, "%s", err);
    cr_expect_eq(b->work_item_index_bits, 24);
    board_free(b);
    expect_error(variant("no_index", "\"work_item_index_bits\": 64,", ""),
                 "field 'work_item_index_bits' must be a number");
    expect_error(variant("index_8", "\"work_item_index_bits\": 64", "\"work_item_index_bits\": 8"),
                 "field 'work_item_index_bits' must be at least 16");
    expect_error(variant("index_65", "\"work_item_index_bits\": 64",
                         "\"work_item_index_bits\": 65"),
                 "field 'work_item_index_bits' must be at most 64");
}

/* The default board's memory block with these size, largest buffer and ports. */
static char *memory_variant(const char *name, const char *size, const char *max_alloc,
                            const char *ports)
{
    char to[256];
    snprintf(to, sizeof to, "%s,\n    \"max_alloc_bytes\": %s,\n    \"address_bits\": 64,\n"
             "    \"ports\": %s", size, max_alloc, ports);
    return variant(name, "17179869184,\n    \"max_alloc_bytes\": 4294967296,\n"
                   "    \"address_bits\": 64,\n    \"ports\": 1", to);
}

Test(board, memory_ports_split_the_memory_into_aligned_ranges)
{
    char err[512];
    board_t *b = board_load_file(memory_variant("ports4", "17179869184", "1073741824", "4"),
                                 err, sizeof err);
    cr_assert(b, "%s", err);
    cr_expect_eq(b->mem_ports, 4);
    cr_expect_eq(board_port_span(b), 4ull << 30);
    cr_expect_eq(board_port_of(b, 0x10000), 0);
    cr_expect_eq(board_port_of(b, (4ull << 30) - 1), 0);
    cr_expect_eq(board_port_of(b, 4ull << 30), 1);
    cr_expect_eq(board_port_of(b, (12ull << 30) + 5), 3);
    cr_expect_eq(board_port_of(b, 16ull << 30), 0, "addresses past the memory wrap around");
    board_free(b);
    b = board_load("sim_dc", err, sizeof err);
    cr_assert(b, "%s", err);
    cr_expect_eq(board_port_span(b), b->global_mem_bytes);
    cr_expect_eq(board_port_of(b, 12ull << 30), 0);
    board_free(b);
}

Test(board, memory_ports_the_hardware_cannot_route_are_refused)
{
    const char *count = "field 'memory.ports' must be 1, 2, 4 or 8";
    expect_error(memory_variant("ports3", "17179869184", "1073741824", "3"), count);
    expect_error(memory_variant("ports16", "17179869184", "1073741824", "16"), count);
    expect_error(memory_variant("ports0", "17179869184", "1073741824", "0"),
                 "field 'memory.ports' must be at least 1");
    expect_error(memory_variant("ports_size", "12884901888", "1073741824", "2"),
                 "'memory.size_bytes' must be 'memory.ports' times a power of two");
    expect_error(memory_variant("ports_alloc", "17179869184", "4294967296", "4"),
                 "'memory.max_alloc_bytes' is larger than one memory port's range");
}
