/* The clhls command line: a thin front for the libraries, in the manner of aoc and v++.
 *   clhls build FILE.cl [--board NAME] [-D NAME[=V]]... [-I DIR]... [--options "OPTS"]
 *               [-o FILE.clbin] [--dump-after=PASS] [--no-model] [--source-name NAME]
 *               [--result FILE.json] [--scratch DIR] [--waves]
 *   clhls waves-model ENTRY [--result FILE.json] [--scratch DIR]
 *   clhls threads-model ENTRY --threads N [--result FILE.json] [--scratch DIR]
 *   clhls compile FILE.cl -o FILE.bc [...]     OpenCL C to LLVM bitcode (a compiled object)
 *   clhls link FILE.bc... [--library -o FILE.bc] [...]  linked into hardware, or a library
 *   clhls boards
 *   clhls regmap --verilog | --markdown
 *   clhls cache [list | size | clean ...]      the build cache (tools/cache.c)
 * `build` runs the compiler (hls_build), showing its steps and their times on stderr
 * (cli.c), prints where the cache entry (Verilog, metadata.json, model.so) is and with
 * -o writes the program binary (host-runtime/binfmt.c). -D, -I and --options make the
 * build options as a host program gives them to clBuildProgram, and the source is
 * built under the name clBuildProgram gives it, so the entry is the one a
 * clBuildProgram of the same source and options finds. `regmap` prints the kernel
 * control block's register map as the Verilog include of the templates or as the
 * documentation's table. Every command has --help; the exit status is CLI_EXIT_OK,
 * CLI_EXIT_USER or CLI_EXIT_INTERNAL (cli.h).
 * clBuildProgram, clCompileProgram and clLinkProgram run `clhls build`, `compile` and
 * `link` in a child process: with --result the outcome is written as JSON to that
 * file instead of being printed, no step is shown, and the exit status is 0 or 1 (the
 * protocol is in docs/architecture.md, "Compiling out of process"). A host program
 * run with CLHLS_WAVES runs `waves-model` the same way for the traced variant of its
 * program's model (build --waves makes it beforehand), and one run with
 * CLHLS_SIM_THREADS=N runs `threads-model` for the multi-threaded variant. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "binfmt.h"
#include "board.h"
#include "cache.h"
#include "cli.h"
#include "hls.h"
#include "model_step.h"
#include "regmap.h"
#include "report.h"
#include "synth.h"
#include "toolgroup.h"

/* What clBuildProgram calls a program's source in diagnostics and in the cache key. */
#define CLBUILD_SOURCE_NAME "<source>"

static const char usage_text[] =
    "usage: clhls COMMAND [OPTIONS]      (clhls COMMAND --help: its options)\n"
    "  build FILE.cl      a program's hardware for a board, as clBuildProgram builds it\n"
    "  compile FILE.cl    OpenCL C to LLVM bitcode, a compiled object (clCompileProgram)\n"
    "  link FILE.bc...    compiled objects linked into hardware or a library (clLinkProgram)\n"
    "  boards             the boards\n"
    "  regmap             the kernel control block's register map\n"
    "  cache              the build cache: list, size, clean\n"
    "  report FILE.cl     an HTML report of the hardware built for a board\n"
    "  synth FILE.cl      synthesis for a real board: resources, fmax, bitstream\n"
    "  waves-model ENTRY  the traced model of a build, for waveforms (CLHLS_WAVES)\n"
    "  threads-model ENTRY --threads N  a build's model on N threads (CLHLS_SIM_THREADS)\n"
    "exit status: 0 success, 1 the user's error, 2 a tool failed or an internal error\n";

static const char usage_build[] =
    "usage: clhls build FILE.cl [OPTIONS]\n"
    "Builds the kernels of FILE.cl for a board as clBuildProgram does: generated Verilog,\n"
    "metadata.json and the simulation model, in the build cache, under the name and the\n"
    "build options clBuildProgram uses, so a host program's build of the same source\n"
    "with the same options finds it there.\n"
    "  --board NAME         the board (default: $CLHLS_BOARD, else sim_dc; clhls boards)\n"
    "  -D NAME[=VALUE]      define a macro      \\ build options, in the order given,\n"
    "  -I DIR               search DIR for      | written as a host program passes them\n"
    "                       headers (made       | to clBuildProgram: \"-D N=16\" for -D N=16,\n"
    "                       absolute)           | \"-DN=16\" for -DN=16\n"
    "  --options \"OPTS\"     build options       /\n"
    "  -o FILE.clbin        also write the program binary (clCreateProgramWithBinary)\n"
    "  --no-model           stop after the Verilog and metadata.json\n"
    "  --waves              also build the traced model, which records waveforms\n"
    "                       (CLHLS_WAVES=FILE.fst when a host program runs)\n"
    "  --dump-after=PASS    print the hardware IR after PASS (lower, cfg, widen,\n"
    "                       ifconvert, common, memorder, banks, nodes, pipeline,\n"
    "                       narrow, schedule); always compiles\n"
    "  --source-name NAME   the source's name in the build (default: clBuildProgram's,\n"
    "                       \"<source>\"; diagnostics printed here name FILE.cl)\n"
    "  --result FILE.json   write the outcome as JSON, print nothing (the runtime's mode)\n"
    "  --scratch DIR        where the build's temporary directory goes\n"
    "  -h, --help           this text\n"
    "Steps and their times go to stderr (a live line on a terminal).\n";

static const char usage_compile[] =
    "usage: clhls compile FILE.cl -o FILE.bc [OPTIONS]\n"
    "Compiles OpenCL C to LLVM bitcode, a compiled object, as clCompileProgram does;\n"
    "clhls link makes hardware or a library of such objects.\n"
    "  -o FILE.bc           the compiled object (required)\n"
    "  --board NAME         the board (default: $CLHLS_BOARD, else sim_dc)\n"
    "  -D NAME[=VALUE]      define a macro (a build option, as for build)\n"
    "  -I DIR               search DIR for headers (made absolute)\n"
    "  --options \"OPTS\"     build options\n"
    "  --source-name NAME   the source's name in diagnostics (default: FILE.cl's)\n"
    "  --result FILE.json   write the outcome as JSON, print nothing (the runtime's mode)\n"
    "  --scratch DIR        where the compiler's temporary directory goes\n"
    "  -h, --help           this text\n";

static const char usage_link[] =
    "usage: clhls link FILE.bc... [OPTIONS]\n"
    "Links compiled objects and libraries into a program's hardware, as clLinkProgram\n"
    "does, or with --library into a library.\n"
    "  --library -o FILE.bc make a library (bitcode) instead of hardware\n"
    "  --board NAME         the board (default: $CLHLS_BOARD, else sim_dc)\n"
    "  --options \"OPTS\"     link options (-cl-fast-relaxed-math, ...)\n"
    "  --no-model           stop after the Verilog and metadata.json\n"
    "  --dump-after=PASS    print the hardware IR after PASS\n"
    "  --result FILE.json   write the outcome as JSON, print nothing (the runtime's mode)\n"
    "  --scratch DIR        where the build's temporary directory goes\n"
    "  -h, --help           this text\n";

static const char usage_waves_model[] =
    "usage: clhls waves-model ENTRY [OPTIONS]\n"
    "Builds the traced variant of the simulation model of a build's cache entry (the\n"
    "entry `clhls build` prints) into ENTRY/waves/, unless it is there: a model that\n"
    "records the accelerator's signals in an FST file when a host program runs with\n"
    "CLHLS_WAVES=FILE.fst. A host program builds it on its own when needed; this\n"
    "builds it beforehand (as clhls build --waves does).\n"
    "  --result FILE.json   write the outcome as JSON, print nothing (the runtime's mode)\n"
    "  --scratch DIR        where the build's temporary directory goes\n"
    "  -h, --help           this text\n";

static const char usage_threads_model[] =
    "usage: clhls threads-model ENTRY --threads N [OPTIONS]\n"
    "Builds the multi-threaded variant of the simulation model of a build's cache entry\n"
    "(the entry `clhls build` prints) into ENTRY/threadsN/, unless it is there: the same\n"
    "design verilated with Verilator's --threads N, whose every cycle is evaluated on N\n"
    "threads, with the same cycle counts and results. A host program run with\n"
    "CLHLS_SIM_THREADS=N builds it on its own when its design is big enough; this\n"
    "builds it beforehand, whatever the design's size.\n"
    "  --threads N          threads of the model, 2 to 64 (required)\n"
    "  --result FILE.json   write the outcome as JSON, print nothing (the runtime's mode)\n"
    "  --scratch DIR        where the build's temporary directory goes\n"
    "  -h, --help           this text\n";

static const char usage_boards[] =
    "usage: clhls boards\n"
    "Lists the boards (NAME.json in $CLHLS_BOARD_DIR and the installed boards) with\n"
    "their descriptions; the default one is marked.\n"
    "  -h, --help           this text\n";

static const char usage_regmap[] =
    "usage: clhls regmap --verilog | --markdown\n"
    "Prints the kernel control block's register map.\n"
    "  --verilog            as the Verilog include of the templates (clhls_regmap.vh)\n"
    "  --markdown           as the documentation's table\n"
    "  -h, --help           this text\n";

static int is_help(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

/* Prints a usage text: asked for (--help) to stdout, exit 0; after a bad invocation to
 * stderr, exit 1. */
static int print_usage(const char *text, int asked)
{
    fputs(text, asked ? stdout : stderr);
    return asked ? CLI_EXIT_OK : CLI_EXIT_USER;
}

static int cmd_boards(int argc, char **argv)
{
    if (argc > 0)
        return print_usage(usage_boards, is_help(argv[0]) && argc == 1);
    char **names = board_list();
    if (!names) {
        fprintf(stderr, "clhls: out of memory listing the boards\n");
        return CLI_EXIT_INTERNAL;
    }
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
    int bad = !text || hls_write_text(path, text, 1) != 0;
    if (bad)
        fprintf(stderr, "clhls: cannot write %s\n", path);
    cJSON_free(text);
    return bad ? -1 : 0;
}

/* build (source to a cache entry), compile (source to bitcode, -o) and link (bitcode
 * inputs to a cache entry, or with --library to bitcode, -o). */
enum { CMD_BUILD, CMD_COMPILE, CMD_LINK };

/* The exit status for an hls_status. */
static int exit_for_status(int status)
{
    switch (status) {
    case HLS_OK:
        return CLI_EXIT_OK;
    case HLS_ERR_COMPILE:
    case HLS_ERR_UNSUPPORTED:
    case HLS_ERR_OPTIONS:
        return CLI_EXIT_USER;
    default:
        return CLI_EXIT_INTERNAL;
    }
}

/* Ctrl-C during a build reaches the compiler's children too (clang, Verilator, the C++
 * compiler: the terminal's whole process group), which die; hls_build then fails and
 * removes its scratch directory, and clhls ends the step as failed and then dies of
 * the same signal. Caught while the compiler works in this process, it ends the build
 * at the next step. The build's temporary directory is in a scratch directory of
 * clhls's own, removed either way. A second Ctrl-C ends clhls at once. */
static volatile sig_atomic_t interrupted;
static char own_scratch[4300]; /* the scratch directory, or "" */

/* The tools run in a process group of their own (common/toolgroup.h), which the
 * terminal's Ctrl-C does not reach: it is passed on, so the running step ends now. */
static void note_interrupt(int sig)
{
    interrupted = sig;
    hls_tool_group_signal(sig);
}

/* Catches SIGINT, unless it is ignored (a background job): then it stays ignored. */
static void catch_interrupt(void)
{
    struct sigaction sa = {.sa_handler = note_interrupt, .sa_flags = SA_RESTART | SA_RESETHAND},
                     old;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
}

/* Removes own_scratch, if there is one. */
static void remove_own_scratch(void)
{
    if (own_scratch[0])
        hls_remove_tree(own_scratch);
    own_scratch[0] = '\0';
}

/* Makes own_scratch in the cache, removed at exit too (out of memory ends the
 * compiler with exit); NULL when it cannot (hls_build then says why). */
static const char *make_own_scratch(void)
{
    char root[4096];
    hls_cache_root(NULL, root, sizeof root);
    snprintf(own_scratch, sizeof own_scratch, "%s/tmp-cli-XXXXXX", root);
    if (hls_mkdir_p(root) == 0 && mkdtemp(own_scratch)) {
        atexit(remove_own_scratch);
        return own_scratch;
    }
    own_scratch[0] = '\0';
    return NULL;
}

/* After Ctrl-C: ends the step (when one was shown) as failed, removes the scratch
 * directory and dies of SIGINT. */
static _Noreturn void die_interrupted(int step_shown)
{
    if (step_shown)
        cli_step_end(0);
    fprintf(stderr, "clhls: interrupted\n");
    if (own_scratch[0])
        hls_remove_tree(own_scratch);
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
    _exit(128 + SIGINT);
}

/* Marks that a step was shown and shows it (the progress callback of hls_build); ends
 * the build after Ctrl-C. */
static void show_step(void *shown, const char *step)
{
    if (interrupted)
        die_interrupted(*(int *)shown);
    *(int *)shown = 1;
    cli_step_begin("%s", step);
}

/* Prints the build log to stderr with the name the source was built under replaced by
 * the file's (NULL: as it is). */
static void print_log(const char *log, const char *built_as, const char *file)
{
    size_t n = built_as ? strlen(built_as) : 0;
    for (const char *p = log; *p;) {
        const char *hit = n ? strstr(p, built_as) : NULL;
        while (hit && hit[n] != ':')
            hit = strstr(hit + 1, built_as);
        if (!hit) {
            fputs(p, stderr);
            return;
        }
        fwrite(p, 1, (size_t)(hit - p), stderr);
        fputs(file, stderr);
        p = hit + n;
    }
}

/* Records a use of a cache entry (the access time of its metadata.json, which
 * `clhls cache` reads as its last use). */
static void mark_used(const char *entry)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/metadata.json", entry);
    struct timespec times[2] = {{.tv_nsec = UTIME_NOW}, {.tv_nsec = UTIME_OMIT}};
    utimensat(AT_FDCWD, path, times, 0);
}

/* Writes the program binary of the cache entry (built for board) to path, through a
 * temporary file renamed into place. A CLI_EXIT_* status. */
static int write_binary(const char *path, const char *entry, const char *board)
{
    char probe[4300], err[512];
    snprintf(probe, sizeof probe, "%s/model.so", entry);
    if (access(probe, R_OK) != 0) {
        fprintf(stderr, "clhls: the program has no kernels: no program binary written\n");
        return CLI_EXIT_USER;
    }
    unsigned char *blob = NULL;
    size_t len = 0;
    if (binfmt_pack_entry(NULL, entry, board, &blob, &len, err, sizeof err) != 0 ||
        binfmt_check(blob, len, board, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "clhls: cannot make the program binary: %s\n", err);
        free(blob);
        return CLI_EXIT_INTERNAL;
    }
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int bad = !f || fwrite(blob, 1, len, f) != len;
    if (f && fclose(f) != 0)
        bad = 1;
    if (!bad && rename(tmp, path) != 0)
        bad = 1;
    free(blob);
    if (bad) {
        fprintf(stderr, "clhls: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return CLI_EXIT_USER;
    }
    printf("%s: program binary for %s, %zu bytes\n", path, board, len);
    return CLI_EXIT_OK;
}

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Builds a variant of entry's model: the traced one (threads 0) or the one of `threads`
 * threads (model_step.h). */
static int build_variant(const char *entry, unsigned threads, const char *scratch,
                         void (*progress)(void *ctx, const char *step), void *ctx,
                         strbuf *log, char *dir, size_t dir_size, int *hit)
{
    if (threads)
        return cli_build_threads_model(entry, threads, scratch, progress, ctx, log, dir,
                                       dir_size, hit);
    return cli_build_waves_model(entry, scratch, progress, ctx, log, dir, dir_size, hit);
}

/* Builds the traced model of entry (threads 0: build --waves, waves-model) or its
 * threaded one (threads-model) for the person at the terminal, its steps shown; a
 * CLI_EXIT_* status. */
static int build_variant_shown(const char *entry, unsigned threads)
{
    strbuf log = {.lossy = 1};
    char dir[4300];
    int shown = 0, hit = 0;
    catch_interrupt();
    const char *scratch = make_own_scratch();
    int rc = build_variant(entry, threads, scratch, show_step, &shown, &log, dir, sizeof dir,
                           &hit);
    if (interrupted) {
        sb_free(&log);
        die_interrupted(shown);
    }
    remove_own_scratch();
    if (shown)
        cli_step_end(rc == HLS_OK);
    if (log.data)
        fputs(log.data, stderr);
    sb_free(&log);
    if (rc == HLS_OK && threads)
        printf("  threaded model%s: %s/model.so (CLHLS_SIM_THREADS=%u runs it)\n",
               hit ? " (cache hit)" : "", dir, threads);
    else if (rc == HLS_OK)
        printf("  traced model%s: %s/model.so (CLHLS_WAVES=FILE.fst records waveforms)\n",
               hit ? " (cache hit)" : "", dir);
    return exit_for_status(rc);
}

/* waves-model ENTRY (threaded 0) and threads-model ENTRY --threads N (threaded 1): the
 * traced or the threaded model of a cache entry, for the person at the terminal or
 * (--result) for the runtime: {"status", "log", "entry": ENTRY/waves (ENTRY/threadsN)
 * or null, ...} as a build's result, exit status 0 or 1. */
static int cmd_variant_model(int argc, char **argv, int threaded)
{
    const char *entry = NULL, *result = NULL, *scratch = NULL;
    int help = 0, bad = 0;
    unsigned threads = 0;
    for (int i = 0; i < argc && !bad && !help; i++) {
        char *end;
        if (is_help(argv[i]))
            help = 1;
        else if (threaded && !strcmp(argv[i], "--threads") && i + 1 < argc) {
            unsigned long n = strtoul(argv[++i], &end, 10);
            bad = *end || argv[i][0] < '0' || argv[i][0] > '9' || n > 4096; /* range: model_step.c */
            threads = (unsigned)n;
        } else if (!strcmp(argv[i], "--result") && i + 1 < argc)
            result = argv[++i];
        else if (!strcmp(argv[i], "--scratch") && i + 1 < argc)
            scratch = argv[++i];
        else if (argv[i][0] != '-' && !entry)
            entry = argv[i];
        else
            bad = 1;
    }
    const char *usage = threaded ? usage_threads_model : usage_waves_model;
    if (help || bad || !entry || (threaded && !threads))
        return print_usage(usage, help);
    if (!result)
        return build_variant_shown(entry, threads);
    strbuf log = {.lossy = 1};
    char dir[4300];
    int hit = 0;
    double t0 = monotonic_seconds();
    int rc = build_variant(entry, threads, scratch, NULL, NULL, &log, dir, sizeof dir, &hit);
    if (write_result(result, rc, log.data, rc == HLS_OK ? dir : NULL, NULL, hit,
                     monotonic_seconds() - t0))
        rc = HLS_ERR_TOOL;
    sb_free(&log);
    return rc == HLS_OK ? 0 : 1;
}

static int cmd_build(int cmd, int argc, char **argv)
{
    const char *usage = cmd == CMD_BUILD     ? usage_build
                        : cmd == CMD_COMPILE ? usage_compile
                                             : usage_link;
    const char *file = NULL, *board_name = board_default_name();
    const char *dump = NULL, *source_name = NULL, *result = NULL, *output = NULL;
    const char *scratch = NULL, *binary = NULL;
    int no_model = 0, library = 0, ninputs = 0, help = 0, bad_usage = 0, failed = 0, taken;
    int waves = 0;
    cli_build_options opts = {0};
    const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    for (int i = 0; i < argc && !bad_usage && !failed && !help; i++) {
        const char *a = argv[i];
        int value = i + 1 < argc, sources = cmd != CMD_LINK; /* -D and -I: not for link */
        if (is_help(a))
            help = 1;
        else if (!strcmp(a, "--board") && value)
            board_name = argv[++i];
        else if ((taken = cli_take_build_option(&opts, argc, argv, &i, sources)) != 0)
            failed = taken < 0;
        else if (!strcmp(a, "--source-name") && value && sources)
            source_name = argv[++i];
        else if (!strcmp(a, "--result") && value)
            result = argv[++i];
        else if (!strcmp(a, "--scratch") && value)
            scratch = argv[++i];
        else if (!strcmp(a, "-o") && value && cmd == CMD_BUILD)
            binary = argv[++i];
        else if (!strcmp(a, "-o") && value)
            output = argv[++i];
        else if (!strncmp(a, "--dump-after=", 13) && cmd != CMD_COMPILE)
            dump = a + 13;
        else if (!strcmp(a, "--no-model") && cmd != CMD_COMPILE)
            no_model = 1;
        else if (!strcmp(a, "--waves") && cmd == CMD_BUILD)
            waves = 1;
        else if (!strcmp(a, "--library") && cmd == CMD_LINK)
            library = 1;
        else if (a[0] != '-' && cmd == CMD_LINK)
            inputs[ninputs++] = a;
        else if (a[0] != '-' && !file)
            file = a;
        else
            bad_usage = 1;
    }
    if (!help && !bad_usage && !failed &&
        ((cmd == CMD_LINK ? !ninputs : !file) || (cmd == CMD_COMPILE && !output) ||
         (cmd == CMD_LINK && library != !!output) || ((binary || waves) && no_model) ||
         (waves && (result || dump))))
        bad_usage = 1;
    if (help || bad_usage || failed) {
        free(inputs);
        free(opts.text);
        return failed ? CLI_EXIT_USER : print_usage(usage, help);
    }
    char err[512];
    board_t *board = board_load(board_name, err, sizeof err);
    char *source = board && file ? hls_read_text(file) : NULL;
    if (!board || (file && !source)) {
        char msg[600];
        if (!board)
            snprintf(msg, sizeof msg, "clhls: %s\n", err);
        else
            snprintf(msg, sizeof msg, "clhls: cannot read %s: %s\n", file, strerror(errno));
        fputs(msg, stderr);
        if (result)
            write_result(result, HLS_ERR_TOOL, msg, NULL, NULL, 0, 0);
        board_free(board);
        free(inputs);
        free(opts.text);
        return CLI_EXIT_USER;
    }
    const char *slash = file ? strrchr(file, '/') : NULL;
    const char *file_name = slash ? slash + 1 : file;
    /* build: under clBuildProgram's name for a source, so the cache entry is the one
     * its build finds; the diagnostics printed here still name the file. */
    const char *built_as = source_name        ? source_name
                           : cmd == CMD_BUILD ? CLBUILD_SOURCE_NAME
                                              : file_name;
    int shown = 0;
    hls_build_request req = {.source = source, .source_name = built_as, .options = opts.text,
                             .board = board, .skip_model = no_model, .model = &cli_model_step,
                             .dump_after = dump,
                             .inputs = cmd == CMD_LINK ? inputs : NULL, .output = output,
                             .scratch_dir = scratch, .progress = result ? NULL : show_step,
                             .progress_ctx = &shown};
    hls_build_result res;
    if (!result) {
        catch_interrupt();
        if (!scratch)
            req.scratch_dir = make_own_scratch();
    }
    int rc = hls_build(&req, &res);
    if (interrupted) {
        hls_build_result_free(&res);
        free(source);
        free(inputs);
        free(opts.text);
        board_free(board);
        die_interrupted(shown);
    }
    remove_own_scratch();
    if (shown)
        cli_step_end(rc == HLS_OK);
    int exit_code;
    if (result) {
        if (write_result(result, rc, res.log, rc == HLS_OK ? res.entry_dir : NULL,
                         rc == HLS_OK ? output : NULL, res.cache_hit, res.seconds))
            rc = HLS_ERR_TOOL;
        exit_code = rc == HLS_OK ? 0 : 1; /* the runtime's protocol: built or not */
    } else {
        print_log(res.log, source_name || !file ? NULL : built_as, file_name);
        if (rc == HLS_OK && res.cache_hit) {
            fprintf(stderr, "clhls: cache hit: built before, nothing to do\n");
            mark_used(res.entry_dir);
        }
        if (rc == HLS_OK && output)
            printf("%s: written for %s in %.2f s\n", output, board->name, res.seconds);
        else if (rc == HLS_OK)
            printf("%s: built for %s in %.2f s%s\n  entry: %s\n", file ? file : inputs[0],
                   board->name, res.seconds, res.cache_hit ? " (cache hit)" : "",
                   res.entry_dir);
        exit_code = exit_for_status(rc);
        if (rc == HLS_OK && binary)
            exit_code = write_binary(binary, res.entry_dir, board->name);
        if (rc == HLS_OK && waves && exit_code == CLI_EXIT_OK) {
            fflush(stdout); /* the build's lines before the traced model's */
            exit_code = build_variant_shown(res.entry_dir, 0);
        }
    }
    hls_build_result_free(&res);
    free(source);
    free(inputs);
    free(opts.text);
    board_free(board);
    return exit_code;
}

static int cmd_regmap(int argc, char **argv)
{
    if (argc == 1 && !strcmp(argv[0], "--verilog"))
        hls_regmap_print_verilog(stdout);
    else if (argc == 1 && !strcmp(argv[0], "--markdown"))
        hls_regmap_print_markdown(stdout);
    else
        return print_usage(usage_regmap, argc == 1 && is_help(argv[0]));
    return CLI_EXIT_OK;
}

/* Says how many allocations went through the allocation hook (the test that fails
 * each of them in turn counts them so), at exit when CLHLS_FAIL_ALLOC_AFTER is set. */
static void report_allocations(void)
{
    fprintf(stderr, "clhls: %ld allocations (CLHLS_FAIL_ALLOC_AFTER)\n", hls_alloc_count());
}

/* The subcommands, one line each: clhls COMMAND ARGS... */
int main(int argc, char **argv)
{
    if (getenv("CLHLS_FAIL_ALLOC_AFTER"))
        atexit(report_allocations);
    if (argc < 2 || is_help(argv[1]))
        return print_usage(usage_text, argc == 2);
    if (!strcmp(argv[1], "build"))
        return cmd_build(CMD_BUILD, argc - 2, argv + 2);
    if (!strcmp(argv[1], "compile"))
        return cmd_build(CMD_COMPILE, argc - 2, argv + 2);
    if (!strcmp(argv[1], "link"))
        return cmd_build(CMD_LINK, argc - 2, argv + 2);
    if (!strcmp(argv[1], "boards"))
        return cmd_boards(argc - 2, argv + 2);
    if (!strcmp(argv[1], "regmap"))
        return cmd_regmap(argc - 2, argv + 2);
    if (!strcmp(argv[1], "cache"))
        return clhls_cache_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "report")) return clhls_report_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "synth")) return clhls_synth_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "waves-model"))
        return cmd_variant_model(argc - 2, argv + 2, 0);
    if (!strcmp(argv[1], "threads-model"))
        return cmd_variant_model(argc - 2, argv + 2, 1);
    fprintf(stderr, "clhls: unknown command '%s'\n", argv[1]);
    return print_usage(usage_text, 0);
}
