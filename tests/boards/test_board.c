/* Board loader tests: every board file shipped loads, and a bad board file is an
 * error naming the file and the field. */
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

/* The default board with `from` replaced by `to`, written to DIR/NAME.json. */
static char *variant(const char *name, const char *from, const char *to)
{
    char err[512];
    board_t *b = board_load("sim_dc", err, sizeof err);
    cr_assert(b, "%s", err);
    FILE *f = fopen(b->path, "r");
    cr_assert(f);
    char text[8192];
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
