/* What the `clhls` subcommands share about talking to the person at the terminal: the
 * exit codes, named steps with their elapsed time on stderr, and the build options of
 * the command line. On a terminal a step
 * that takes longer than about a second shows a live line (the step and its elapsed
 * time, redrawn in place); elsewhere (a pipe, a log file, CI) each step is plain lines
 * with no control characters:
 *     clhls: step ...
 *     clhls: step done in 3.2 s
 * Steps do not nest: beginning a step while another runs ends that one as done. The
 * work of a step runs in the caller and may fork children. */
#ifndef CLHLS_CLI_H
#define CLHLS_CLI_H

#include <stddef.h>

/* Exit codes of every subcommand. */
enum {
    CLI_EXIT_OK = 0,       /* success */
    CLI_EXIT_USER = 1,     /* the user's error: bad source or options, unknown board, no file */
    CLI_EXIT_INTERNAL = 2, /* a tool failed (clang, Verilator) or clhls has a bug */
};

/* Starts a named step (printf-style name, e.g. "Verilator"). */
void cli_step_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Ends the running step, printing "done in T s" (ok) or "failed in T s"; nothing
 * when no step runs. */
void cli_step_end(int ok);

/* The build options that -D, -I and --options make, in command-line order, spelled
 * as a host program passes them to clBuildProgram (so that `clhls build` and a host
 * program share a cache entry). */
typedef struct cli_build_options {
    char *text;                 /* the options, space-separated; NULL when none (free it) */
    size_t len;                 /* strlen(text) */
} cli_build_options;

/* Takes argv[*i] (and its value, advancing *i) when it is a build option: --options
 * OPTS (as it is), -D NAME[=V] or -DNAME[=V] and -I DIR or -IDIR (a relative DIR made
 * absolute: clang runs in the build's directory), -D and -I only when sources is set.
 * 1 taken, 0 not a build option, -1 after a message (no such directory, no memory). */
int cli_take_build_option(cli_build_options *o, int argc, char **argv, int *i, int sources);

#endif
