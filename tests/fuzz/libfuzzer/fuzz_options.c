/* libFuzzer harness of the build options parser (hls/options.c, hls_parse_options):
 * each input, up to its first NUL, is the option string of clBuildProgram or
 * `clhls build`, parsed in a compilation set up as hls_build sets one up (an arena, a
 * build log, the request). The parser runs before any LLVM call, so the harness links
 * only options.c and the compiler's utilities. Any string may be rejected; none may
 * crash, leak or reach undefined behaviour, and a string that parses yields options
 * the later passes can use. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "passes.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *options = malloc(size + 1);
    if (!options)
        return 0;
    memcpy(options, data, size);
    options[size] = '\0';
    strbuf log = {0};
    hls_build_request req = {.source = "", .source_name = "fuzz.cl", .options = options};
    hls_compile c = {0};
    c.req = &req;
    c.source_name = req.source_name;
    c.diag = (hls_diag){.log = &log, .source = req.source};
    int rc = hls_parse_options(&c);
    if (rc == HLS_OK) {
        /* What frontend.c hands clang: every argument a string, the version known. */
        if (!c.opts.cl_std || (c.opts.nclang_args && !c.opts.clang_args))
            __builtin_trap();
        size_t total = strlen(c.opts.cl_std);
        for (int i = 0; i < c.opts.nclang_args; i++)
            total += strlen(c.opts.clang_args[i]);
        volatile size_t sink = total;
        (void)sink;
    } else if (rc != HLS_ERR_OPTIONS || !log.len) {
        __builtin_trap(); /* a rejected string says why */
    }
    arena_free(&c.arena);
    sb_free(&log);
    free(options);
    return 0;
}
