/* `clhls cache`: lists, measures and cleans the build cache (tools/cache.c). */
#ifndef CLHLS_TOOLS_CACHE_H
#define CLHLS_TOOLS_CACHE_H

/* `clhls cache [list | size [--bytes] | clean [--all | --older-than DAYS] [--dry-run]]`;
 * argv[0] is "cache". Returns CLI_EXIT_OK, CLI_EXIT_USER or CLI_EXIT_INTERNAL (cli.h). */
int clhls_cache_main(int argc, char **argv);

#endif
