/* Parses the build options of clBuildProgram / `clhls build`. Options clang
 * understands (preprocessor, language version, math flags) are passed through; the
 * OpenCL ones that change the hardware (-cl-uniform-work-group-size, -cl-std) are also
 * noted here. -cl-std takes CL1.0 to CL3.0 (the versions of
 * CL_DEVICE_OPENCL_C_ALL_VERSIONS, docs/user-guide.md); without it the language is
 * OpenCL C 1.2, the highest 1.x version. Anything unknown is an error
 * (CL_INVALID_BUILD_OPTIONS). Both as the specification asks. Two options are our own:
 * -clhls-rtl-operators simulates the arithmetic operators' RTL instead of their
 * bit-accurate C models, and the static regions' pipeline registers instead of folded
 * regions (docs/user-guide.md); the hardware is the same. -clhls-compute-units=KERNEL:N
 * replicates a kernel's compute unit N times, as num_compute_units(N) does (Vitis's
 * `nk`; lower.c applies it). */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* Options taken as they are, alone. */
static const char *const plain_options[] = {
    "-cl-opt-disable", "-cl-mad-enable", "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math",
    "-cl-denorms-are-zero", "-cl-single-precision-constant", "-cl-kernel-arg-info",
    "-cl-fp32-correctly-rounded-divide-sqrt", "-w", "-Werror", "-g", NULL,
};

/* Options of OpenCL 3.0 that change nothing here, taken and not passed to clang:
 * -cl-no-subgroup-ifp has no effect on devices without sub-groups. */
static const char *const ignored_options[] = {"-cl-no-subgroup-ifp", NULL};

static const char *const cl_versions[] = {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0", NULL};

static int in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (!strcmp(*list, s))
            return 1;
    return 0;
}

/* Splits the option string into words; double or single quotes group words. */
static char **split_words(arena *a, const char *s, int *count)
{
    size_t cap = strlen(s) / 2 + 2;
    char **words = arena_alloc(a, cap * sizeof *words);
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (!*s)
            break;
        char *w = arena_alloc(a, strlen(s) + 1), *o = w;
        char quote = 0;
        for (; *s && (quote || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
            if (!quote && (*s == '"' || *s == '\''))
                quote = *s;
            else if (quote && *s == quote)
                quote = 0;
            else
                *o++ = *s;
        }
        words[n++] = w;
    }
    *count = n;
    return words;
}

int hls_parse_options(hls_compile *c)
{
    hls_options *o = &c->opts;
    o->cl_std = "CL1.2";
    int explicit_uniform = 0;
    int n;
    char **w = split_words(&c->arena, c->req->options ? c->req->options : "", &n);
    o->clang_args = arena_alloc(&c->arena, (size_t)(n + 1) * sizeof *o->clang_args);
    hls_loc none = {0};
    for (int i = 0; i < n; i++) {
        const char *opt = w[i];
        if (!strcmp(opt, "-D") || !strcmp(opt, "-I")) {
            if (i + 1 == n) {
                hls_error(&c->diag, none, "option '%s' needs an argument", opt);
                return HLS_ERR_OPTIONS;
            }
            o->clang_args[o->nclang_args++] = arena_printf(&c->arena, "%s%s", opt, w[i + 1]);
            i++;
        } else if ((!strncmp(opt, "-D", 2) || !strncmp(opt, "-I", 2)) && opt[2]) {
            o->clang_args[o->nclang_args++] = opt;
        } else if (!strncmp(opt, "-cl-std=", 8)) {
            if (!in_list(cl_versions, opt + 8)) {
                hls_error(&c->diag, none, "unsupported OpenCL C version in '%s'", opt);
                return HLS_ERR_OPTIONS;
            }
            o->cl_std = opt + 8;
        } else if (!strcmp(opt, "-cl-uniform-work-group-size")) {
            explicit_uniform = 1;
            o->clang_args[o->nclang_args++] = opt;
        } else if (in_list(plain_options, opt)) {
            o->clang_args[o->nclang_args++] = opt;
            o->reassociate |= !strcmp(opt, "-cl-fast-relaxed-math") ||
                              !strcmp(opt, "-cl-unsafe-math-optimizations");
        } else if (in_list(ignored_options, opt)) {
            continue;
        } else if (!strcmp(opt, "-clhls-rtl-operators")) {
            o->rtl_operators = 1;
        } else if (!strncmp(opt, "-clhls-compute-units=", 21)) {
            const char *colon = strrchr(opt + 21, ':');
            char *end = NULL;
            long count = colon ? strtol(colon + 1, &end, 10) : 0;
            if (!colon || colon == opt + 21 || end == colon + 1 || *end || count < 1 ||
                count > HLS_MAX_COMPUTE_UNITS) {
                hls_error(&c->diag, none, "'%s': expected -clhls-compute-units=KERNEL:N with N "
                          "from 1 to %d", opt, HLS_MAX_COMPUTE_UNITS);
                return HLS_ERR_OPTIONS;
            }
            if (!o->replicate)
                o->replicate = arena_alloc(&c->arena, (size_t)n * sizeof *o->replicate);
            o->replicate[o->nreplicate++] = opt + 21;
        } else {
            hls_error(&c->diag, none, "unknown build option '%s'", opt);
            return HLS_ERR_OPTIONS;
        }
    }
    /* OpenCL C 1.x has only uniform work-groups; 2.0 and 3.0 programs may have
     * non-uniform ones (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) unless
     * -cl-uniform-work-group-size says otherwise. */
    o->uniform_wg = explicit_uniform || strcmp(o->cl_std, "CL2.0") < 0;
    return HLS_OK;
}
