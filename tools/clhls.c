/* The clhls command line: a thin front for the libraries.
 *   clhls build FILE.cl [--board NAME] [--options "OPTS"] [--dump-after=PASS] [--no-model]
 *               [--source-name NAME] [--result FILE.json] [--scratch DIR]
 *   clhls compile FILE.cl -o FILE.bc [...]     OpenCL C to LLVM bitcode (a compiled object)
 *   clhls link FILE.bc... [--library -o FILE.bc] [...]  linked into hardware, or a library
 *   clhls boards
 *   clhls regmap --verilog | --markdown
 * `build` runs the compiler (hls_build) and prints where the cache entry (Verilog,
 * metadata.json, model.so) is; `regmap` prints the kernel control block's register map
 * as the Verilog include of the templates or as the documentation's table.
 * clBuildProgram, clCompileProgram and clLinkProgram run `clhls build`, `compile` and
 * `link` in a child process: with --result the outcome is
 * written as JSON to that file instead of being printed (the protocol is in
 * docs/architecture.md, "Compiling out of process"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "board.h"
#include "hls.h"
#include "regmap.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: clhls build FILE.cl [--board NAME] [--options \"OPTS\"]\n"
            "                   [--dump-after=lower|cfg|ifconvert|memorder|schedule] [--no-model]\n"
            "                   [--source-name NAME] [--result FILE.json] [--scratch DIR]\n"
            "       clhls compile FILE.cl -o FILE.bc [--board NAME] [--options \"OPTS\"]\n"
            "                   [--source-name NAME] [--result FILE.json]\n"
            "       clhls link FILE.bc... [--library -o FILE.bc] [--board NAME]\n"
            "                   [--options \"OPTS\"] [--no-model] [--result FILE.json]\n"
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

/* Writes the outcome of a build for the runtime (docs/architecture.md, "Compiling out
 * of process"): {"status": hls_status, "log": text, "entry": dir or null, "output":
 * file or null, "cache_hit": bool, "seconds": number}. 0 on success. */
static int write_result(const char *path, int status, const char *log, const char *entry,
                        const char *output, int cache_hit, double seconds)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "status", status);
    cJSON_AddStringToObject(r, "log", log ? log : "");
    if (entry)
        cJSON_AddStringToObject(r, "entry", entry);
    else
        cJSON_AddNullToObject(r, "entry");
    if (output)
        cJSON_AddStringToObject(r, "output", output);
    else
        cJSON_AddNullToObject(r, "output");
    cJSON_AddBoolToObject(r, "cache_hit", cache_hit);
    cJSON_AddNumberToObject(r, "seconds", seconds);
    char *text = cJSON_PrintUnformatted(r);
    cJSON_Delete(r);
    FILE *f = text ? fopen(path, "wb") : NULL;
    int bad = !f || fputs(text, f) < 0 || fputc('\n', f) < 0;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad)
        fprintf(stderr, "clhls: cannot write %s\n", path);
    cJSON_free(text);
    return bad ? -1 : 0;
}

/* build (source to a cache entry), compile (source to bitcode, -o) and link (bitcode
 * inputs to a cache entry, or with --library to bitcode, -o). */
enum { CMD_BUILD, CMD_COMPILE, CMD_LINK };

static int cmd_build(int cmd, int argc, char **argv)
{
    const char *file = NULL, *board_name = board_default_name(), *options = NULL;
    const char *dump = NULL, *source_name = NULL, *result = NULL, *output = NULL;
    const char *scratch = NULL;
    int no_model = 0, library = 0, ninputs = 0;
    const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--board") && i + 1 < argc)
            board_name = argv[++i];
        else if (!strcmp(argv[i], "--options") && i + 1 < argc)
            options = argv[++i];
        else if (!strcmp(argv[i], "--source-name") && i + 1 < argc && cmd != CMD_LINK)
            source_name = argv[++i];
        else if (!strcmp(argv[i], "--result") && i + 1 < argc)
            result = argv[++i];
        else if (!strcmp(argv[i], "--scratch") && i + 1 < argc)
            scratch = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc && cmd != CMD_BUILD)
            output = argv[++i];
        else if (!strncmp(argv[i], "--dump-after=", 13) && cmd != CMD_COMPILE)
            dump = argv[i] + 13;
        else if (!strcmp(argv[i], "--no-model") && cmd != CMD_COMPILE)
            no_model = 1;
        else if (!strcmp(argv[i], "--library") && cmd == CMD_LINK)
            library = 1;
        else if (argv[i][0] != '-' && cmd == CMD_LINK)
            inputs[ninputs++] = argv[i];
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else {
            free(inputs);
            return usage();
        }
    }
    if ((cmd == CMD_LINK ? !ninputs : !file) || (cmd == CMD_COMPILE && !output) ||
        (cmd == CMD_LINK && library != !!output)) {
        free(inputs);
        return usage();
    }
    char err[512];
    board_t *board = board_load(board_name, err, sizeof err);
    char *source = board && file ? read_source(file) : NULL;
    if (!board || (file && !source)) {
        char msg[600];
        if (!board)
            snprintf(msg, sizeof msg, "clhls: %s\n", err);
        else
            snprintf(msg, sizeof msg, "clhls: cannot read %s\n", file);
        fputs(msg, stderr);
        if (result)
            write_result(result, HLS_ERR_TOOL, msg, NULL, NULL, 0, 0);
        board_free(board);
        free(inputs);
        return 1;
    }
    const char *name = file ? strrchr(file, '/') : NULL;
    hls_build_request req = {.source = source,
                             .source_name = source_name ? source_name : name ? name + 1 : file,
                             .options = options, .board = board, .skip_model = no_model,
                             .dump_after = dump, .inputs = cmd == CMD_LINK ? inputs : NULL,
                             .output = output, .scratch_dir = scratch};
    hls_build_result res;
    int rc = hls_build(&req, &res);
    if (result) {
        if (write_result(result, rc, res.log, rc == HLS_OK ? res.entry_dir : NULL,
                         rc == HLS_OK ? output : NULL, res.cache_hit, res.seconds))
            rc = HLS_ERR_TOOL;
    } else {
        fputs(res.log, stderr);
        if (rc == HLS_OK && output)
            printf("%s: written for %s in %.2f s\n", output, board->name, res.seconds);
        else if (rc == HLS_OK)
            printf("%s: built for %s in %.2f s%s\n  entry: %s\n", file ? file : inputs[0],
                   board->name, res.seconds, res.cache_hit ? " (cache hit)" : "",
                   res.entry_dir);
    }
    hls_build_result_free(&res);
    free(source);
    free(inputs);
    board_free(board);
    return rc == HLS_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "build"))
        return cmd_build(CMD_BUILD, argc - 2, argv + 2);
    if (!strcmp(argv[1], "compile"))
        return cmd_build(CMD_COMPILE, argc - 2, argv + 2);
    if (!strcmp(argv[1], "link"))
        return cmd_build(CMD_LINK, argc - 2, argv + 2);
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
