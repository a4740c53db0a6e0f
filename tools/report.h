/* `clhls report`: one self-contained HTML page per build showing what the compiler
 * built for each kernel and why (tools/report.c). */
#ifndef CLHLS_TOOLS_REPORT_H
#define CLHLS_TOOLS_REPORT_H

/* `clhls report FILE.cl [--board NAME] [--options "OPTS"] [-o FILE.html]`; argv[0] is
 * "report". Returns CLI_EXIT_OK, CLI_EXIT_USER or CLI_EXIT_INTERNAL (cli.h). */
int clhls_report_main(int argc, char **argv);

#endif
