/* Front end: clang-16 compiles the OpenCL C source to LLVM bitcode for spir64 (which
 * keeps OpenCL address spaces as numbers), with debug locations so later passes can
 * point at file:line:col. clang's diagnostics go into the build log verbatim. The
 * source is written under its own name in the build's scratch directory, so clang's
 * messages and the debug information name the file the way the user does. OpenCL C
 * 3.0 kernels see exactly the optional features and extensions the devices report
 * (docs/user-guide.md, "OpenCL versions"). */
#include <llvm-c/BitReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"

#ifndef CLHLS_CLANG
#define CLHLS_CLANG "clang-16"
#endif

/* OpenCL C 3.0 (-cl-std=CL3.0): the feature macros of CL_DEVICE_OPENCL_C_FEATURES and
 * the extension macros of CL_DEVICE_EXTENSIONS (host-runtime/platform.c), and nothing
 * else; e2e_opencl30 checks that kernels see what the device reports. clang's spir64
 * target turns every feature and extension on: -cl-ext=-all turns off those clang
 * takes as options, and the list turns the device's back on. */
static const char cl30_features[] =
    "-cl-ext=-all,+__opencl_c_int64,+__opencl_c_work_group_collective_functions,"
    "+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,"
    "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
    "+cl_khr_local_int32_extended_atomics,+cl_khr_int64_base_atomics,"
    "+cl_khr_int64_extended_atomics";

/* opencl-c-base.h defines some macros for SPIR targets by itself, whatever -cl-ext
 * says; this header, included after it, takes back those the devices do not report
 * (atomics beyond relaxed work-group scope, read-write images, sub-group and integer
 * dot product extensions, float atomics). */
static const char cl30_undef_header[] =
    "/* clhls: OpenCL C 3.0 macros the devices do not report (hls/frontend.c). */\n"
    "#undef __opencl_c_atomic_order_seq_cst\n"
    "#undef __opencl_c_atomic_scope_device\n"
    "#undef __opencl_c_atomic_scope_all_devices\n"
    "#undef __opencl_c_read_write_images\n"
    "#undef __opencl_c_integer_dot_product_input_4x8bit\n"
    "#undef __opencl_c_integer_dot_product_input_4x8bit_packed\n"
    "#undef __opencl_c_ext_fp32_global_atomic_add\n"
    "#undef __opencl_c_ext_fp32_local_atomic_add\n"
    "#undef __opencl_c_ext_fp32_global_atomic_min_max\n"
    "#undef __opencl_c_ext_fp32_local_atomic_min_max\n"
    "#undef cl_ext_float_atomics\n"
    "#undef cl_khr_extended_bit_ops\n"
    "#undef cl_khr_integer_dot_product\n"
    "#undef cl_khr_subgroup_extended_types\n"
    "#undef cl_khr_subgroup_non_uniform_vote\n"
    "#undef cl_khr_subgroup_ballot\n"
    "#undef cl_khr_subgroup_non_uniform_arithmetic\n"
    "#undef cl_khr_subgroup_shuffle\n"
    "#undef cl_khr_subgroup_shuffle_relative\n"
    "#undef cl_khr_subgroup_clustered_reduce\n"
    "#undef cl_khr_subgroup_rotate\n";

/* Writes text to the file at path; 0 on success. */
static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fputs(text, f) < 0;
    return fclose(f) != 0 || bad ? -1 : 0;
}

int hls_frontend(hls_compile *c)
{
    char *src_path = arena_printf(&c->arena, "%s/%s", c->work_dir, c->source_name);
    char *bc_path = arena_printf(&c->arena, "%s/program.bc", c->work_dir);
    if (write_file(src_path, c->req->source)) {
        sb_printf(c->diag.log, "error: cannot write %s\n", src_path);
        return HLS_ERR_TOOL;
    }
    int cl30 = !strcmp(c->opts.cl_std, "CL3.0");
    const char *undef_name = !strcmp(c->source_name, "clhls-cl30.h") ? "clhls-cl30-.h"
                                                                       : "clhls-cl30.h";
    if (cl30) {
        char *undef_path = arena_printf(&c->arena, "%s/%s", c->work_dir, undef_name);
        if (write_file(undef_path, cl30_undef_header)) {
            sb_printf(c->diag.log, "error: cannot write %s\n", undef_path);
            return HLS_ERR_TOOL;
        }
    }

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
                                    (nfixed + (size_t)c->opts.nclang_args + 10) * sizeof *argv);
    size_t n = 0;
    for (size_t i = 0; i < nfixed; i++)
        argv[n++] = fixed[i];
    argv[n++] = arena_printf(&c->arena, "-cl-std=%s", c->opts.cl_std);
    if (cl30) {
        argv[n++] = "-Xclang";
        argv[n++] = cl30_features;
        argv[n++] = "-include";
        argv[n++] = undef_name;
    }
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
