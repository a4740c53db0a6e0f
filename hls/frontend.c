/* Front end: clang-16 compiles the OpenCL C source to LLVM bitcode for spir64 (which
 * keeps OpenCL address spaces as numbers), with debug locations so later passes can
 * point at file:line:col. clang's diagnostics go into the build log verbatim. The
 * source is written under its own name in the build's scratch directory, so clang's
 * messages and the debug information name the file the way the user does. */
#include <llvm-c/BitReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"

#ifndef CLHLS_CLANG
#define CLHLS_CLANG "clang-16"
#endif

int hls_frontend(hls_compile *c)
{
    char *src_path = arena_printf(&c->arena, "%s/%s", c->work_dir, c->source_name);
    char *bc_path = arena_printf(&c->arena, "%s/program.bc", c->work_dir);
    FILE *f = fopen(src_path, "wb");
    if (!f || fputs(c->req->source, f) < 0) {
        if (f)
            fclose(f);
        sb_printf(c->diag.log, "error: cannot write %s\n", src_path);
        return HLS_ERR_TOOL;
    }
    fclose(f);

    const char *fixed[] = {
        CLHLS_CLANG, "-x", "cl", "--target=spir64", "-emit-llvm", "-c", "-O0",
        "-Xclang", "-disable-O0-optnone", "-Xclang", "-finclude-default-header",
        "-cl-kernel-arg-info", "-g", "-gcolumn-info", "-fno-discard-value-names",
        "-ffp-contract=off",
        /* clang predefines __IMAGE_SUPPORT__ for spir64; the devices have no images
         * (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE), so kernels must not see it. */
        "-U__IMAGE_SUPPORT__",
    };
    size_t nfixed = sizeof fixed / sizeof *fixed;
    const char **argv = arena_alloc(&c->arena,
                                    (nfixed + (size_t)c->opts.nclang_args + 6) * sizeof *argv);
    size_t n = 0;
    for (size_t i = 0; i < nfixed; i++)
        argv[n++] = fixed[i];
    argv[n++] = arena_printf(&c->arena, "-cl-std=%s", c->opts.cl_std);
    for (int i = 0; i < c->opts.nclang_args; i++)
        argv[n++] = c->opts.clang_args[i];
    argv[n++] = "-o";
    argv[n++] = "program.bc";
    argv[n++] = c->source_name;
    argv[n] = NULL;

    strbuf out = {0};
    int rc = hls_run_tool(argv, c->work_dir, &out);
    if (out.len)
        sb_append(c->diag.log, out.data);
    sb_free(&out);
    if (rc < 0 || rc == 127) {
        sb_printf(c->diag.log, "error: could not run %s\n", CLHLS_CLANG);
        return HLS_ERR_TOOL;
    }
    if (rc != 0)
        return HLS_ERR_COMPILE;

    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(bc_path, &buf, &msg)) {
        sb_printf(c->diag.log, "error: cannot read %s: %s\n", bc_path, msg ? msg : "");
        LLVMDisposeMessage(msg);
        return HLS_ERR_TOOL;
    }
    int bad = LLVMParseBitcodeInContext2(c->llvm, buf, &c->module);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        sb_printf(c->diag.log, "error: clang produced unreadable bitcode\n");
        return HLS_ERR_TOOL;
    }
    return HLS_OK;
}
