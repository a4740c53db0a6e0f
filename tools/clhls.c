/* The clhls command line: a thin front for the libraries.
 *   clhls build FILE.cl [--board NAME] [--options "OPTS"] [--dump-after=PASS] [--no-model]
 *   clhls boards
 *   clhls regmap --verilog | --markdown
 * `build` runs the same code as clBuildProgram and prints where the cache entry
 * (Verilog, metadata.json, model.so) is; `regmap` prints the kernel control block's
 * register map as the Verilog include of the templates or as the documentation's
 * table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "hls.h"
#include "regmap.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: clhls build FILE.cl [--board NAME] [--options \"OPTS\"]\n"
            "                   [--dump-after=lower|cfg|ifconvert|memorder|schedule] [--no-model]\n"
            "       clhls boards\n"
            "       clhls regmap --verilog | --markdown\n");
    return 2;
}

static char *read_source(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static int cmd_boards(void)
{
    char **names = board_list();
    for (char **p = names; *p; p++) {
        char err[512];
        board_t *b = board_load(*p, err, sizeof err);
        if (b)
            printf("%-16s %s%s\n", b->name, b->description,
                   strcmp(b->name, board_default_name()) ? "" : " (default)");
        else
            printf("%-16s error: %s\n", *p, err);
        board_free(b);
    }
    board_list_free(names);
    return 0;
}

static int cmd_build(int argc, char **argv)
{
    const char *file = NULL, *board_name = board_default_name(), *options = NULL;
    const char *dump = NULL;
    int no_model = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--board") && i + 1 < argc)
            board_name = argv[++i];
        else if (!strcmp(argv[i], "--options") && i + 1 < argc)
            options = argv[++i];
        else if (!strncmp(argv[i], "--dump-after=", 13))
            dump = argv[i] + 13;
        else if (!strcmp(argv[i], "--no-model"))
            no_model = 1;
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else
            return usage();
    }
    if (!file)
        return usage();
    char err[512];
    board_t *board = board_load(board_name, err, sizeof err);
    if (!board) {
        fprintf(stderr, "clhls: %s\n", err);
        return 1;
    }
    char *source = read_source(file);
    if (!source) {
        fprintf(stderr, "clhls: cannot read %s\n", file);
        board_free(board);
        return 1;
    }
    const char *base = strrchr(file, '/');
    hls_build_request req = {.source = source, .source_name = base ? base + 1 : file,
                             .options = options, .board = board, .skip_model = no_model,
                             .dump_after = dump};
    hls_build_result res;
    int rc = hls_build(&req, &res);
    fputs(res.log, stderr);
    if (rc == HLS_OK)
        printf("%s: built for %s in %.2f s%s\n  entry: %s\n", file, board->name, res.seconds,
               res.cache_hit ? " (cache hit)" : "", res.entry_dir);
    hls_build_result_free(&res);
    free(source);
    board_free(board);
    return rc == HLS_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "build"))
        return cmd_build(argc - 2, argv + 2);
    if (!strcmp(argv[1], "boards"))
        return cmd_boards();
    if (!strcmp(argv[1], "regmap") && argc == 3 && !strcmp(argv[2], "--verilog")) {
        hls_regmap_print_verilog(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "regmap") && argc == 3 && !strcmp(argv[2], "--markdown")) {
        hls_regmap_print_markdown(stdout);
        return 0;
    }
    return usage();
}
