/* Front end: clang-16 compiles the OpenCL C source to LLVM bitcode for spir64 (which
 * keeps OpenCL address spaces as numbers), with debug locations so later passes can
 * point at file:line:col. clang's diagnostics go into the build log verbatim. The
 * source is written under its own name in the build's scratch directory, so clang's
 * messages and the debug information name the file the way the user does. OpenCL C
 * 3.0 kernels see exactly the optional features and extensions the devices report
 * (docs/user-guide.md, "OpenCL versions"). Separate compilation enters here too:
 * hls_link_inputs makes the program's module from linked bitcode (compiled objects and
 * libraries of clCompileProgram/clLinkProgram) instead of source, hls_write_bitcode
 * writes a module out, and hls_check_unresolved names the functions no input
 * defines. The vendors' loop pragmas reach clang as its own loop hints (pragmas.c). */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "proc.h"

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
    "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"
    "+__opencl_c_atomic_scope_device,+__opencl_c_fp64,"
    "+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,"
    "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
    "+cl_khr_local_int32_extended_atomics,+cl_khr_int64_base_atomics,"
    "+cl_khr_int64_extended_atomics,+cl_khr_fp64";

/* opencl-c-base.h defines some macros for SPIR targets by itself, whatever -cl-ext
 * says; this header, included after it, takes back those the devices do not report
 * (atomics of all-devices scope, read-write images, sub-group and integer
 * dot product extensions, float and double atomics: opencl-c-base.h defines the
 * double ones once doubles are on). */
static const char cl30_undef_header[] =
    "/* clhls: OpenCL C 3.0 macros the devices do not report (hls/frontend.c). */\n"
    "#undef __opencl_c_atomic_scope_all_devices\n"
    "#undef __opencl_c_read_write_images\n"
    "#undef __opencl_c_integer_dot_product_input_4x8bit\n"
    "#undef __opencl_c_integer_dot_product_input_4x8bit_packed\n"
    "#undef __opencl_c_ext_fp32_global_atomic_add\n"
    "#undef __opencl_c_ext_fp32_local_atomic_add\n"
    "#undef __opencl_c_ext_fp32_global_atomic_min_max\n"
    "#undef __opencl_c_ext_fp32_local_atomic_min_max\n"
    "#undef __opencl_c_ext_fp64_global_atomic_add\n"
    "#undef __opencl_c_ext_fp64_local_atomic_add\n"
    "#undef __opencl_c_ext_fp64_global_atomic_min_max\n"
    "#undef __opencl_c_ext_fp64_local_atomic_min_max\n"
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

#define TEXT_OF(x) #x
#define NUMBER_TEXT(x) TEXT_OF(x) /* a macro's value as a string literal */

/* Intel's channels (cl_intel_channels, and the older cl_altera_channels spellings),
 * for a source whose #pragma OPENCL EXTENSION enables them (pragmas.c): a channel is
 * an external __constant variable (no storage; channels.c finds its uses), its depth a
 * section name, and each channel function a call on the channel's address and a
 * private variable of the element's type (the comma takes the channel's qualifiers off
 * the type). CLK_CHANNEL_MEM_FENCE is a flag of mem_fence (lower.c, memorder.c). */
static const char channels_header[] =
    "/* clhls: Intel FPGA channels (hls/frontend.c, hls/channels.c). */\n"
    "#define cl_intel_channels 1\n"
    "#define cl_altera_channels 1\n"
    "#define CLK_CHANNEL_MEM_FENCE " NUMBER_TEXT(HLS_CHANNEL_MEM_FENCE) "\n"
    "#define channel extern __constant\n"
    "#define __clhls_text(x) #x\n"
    "#define depth(n) section(\"clhls.channel.depth=\" __clhls_text(n))\n"
    "#define __clhls_element(ch) __typeof__(((void)0, (ch)))\n"
    "void __clhls_channel_read(__constant const void *, __private void *);\n"
    "void __clhls_channel_read_nb(__constant const void *, __private void *, bool *);\n"
    "void __clhls_channel_write(__constant const void *, __private const void *);\n"
    "bool __clhls_channel_write_nb(__constant const void *, __private const void *);\n"
    "#define read_channel_intel(ch) ({ __clhls_element(ch) __clhls_v; "
    "__clhls_channel_read(&(ch), &__clhls_v); __clhls_v; })\n"
    "#define read_channel_nb_intel(ch, valid) ({ __clhls_element(ch) __clhls_v; "
    "__clhls_channel_read_nb(&(ch), &__clhls_v, (valid)); __clhls_v; })\n"
    "#define write_channel_intel(ch, value) ({ __clhls_element(ch) __clhls_w = (value); "
    "__clhls_channel_write(&(ch), &__clhls_w); })\n"
    "#define write_channel_nb_intel(ch, value) ({ __clhls_element(ch) __clhls_w = (value); "
    "__clhls_channel_write_nb(&(ch), &__clhls_w); })\n"
    "#define read_channel_altera read_channel_intel\n"
    "#define read_channel_nb_altera read_channel_nb_intel\n"
    "#define write_channel_altera write_channel_intel\n"
    "#define write_channel_nb_altera write_channel_nb_intel\n";

/* Prefixes of the built-in functions OpenCL C 2.0 added (collectives, generic address
 * space casts, C11 atomics, pipes, the linear ids): before 2.0 clang does not declare
 * them, and calls them undeclared identifiers. */
static const char *const cl20_builtins[] = {
    "work_group_", "to_global", "to_local", "to_private", "atomic_load", "atomic_store",
    "atomic_exchange", "atomic_compare_exchange", "atomic_fetch_", "atomic_init",
    "atomic_work_item_fence", "atomic_flag_", "read_pipe", "write_pipe",
    "get_pipe_num_packets", "get_pipe_max_packets", "get_enqueued_local_size",
    "get_global_linear_id", "get_local_linear_id",
};

/* Whether name[0..len) is an OpenCL C 2.0 built-in function. */
static int is_cl20_builtin(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof cl20_builtins / sizeof *cl20_builtins; i++) {
        size_t plen = strlen(cl20_builtins[i]);
        if (len >= plen && !strncmp(name, cl20_builtins[i], plen))
            return 1;
    }
    return 0;
}

/* After clang's errors on an OpenCL C 1.x source: a note for each OpenCL C 2.0 built-in
 * it called undeclared (at the first call), saying which option declares it. */
static void note_cl20_builtins(hls_compile *c, size_t log_start)
{
    static const char undeclared[] = ": error: use of undeclared identifier '";
    strbuf notes = {0};
    const char *start = c->diag.log->data ? c->diag.log->data + log_start : "";
    for (const char *hit = strstr(start, undeclared); hit; hit = strstr(hit + 1, undeclared)) {
        const char *name = hit + sizeof undeclared - 1;
        size_t len = strcspn(name, "'\n");
        if (!is_cl20_builtin(name, len))
            continue;
        const char *line = hit; /* its file:line:col */
        while (line > start && line[-1] != '\n')
            line--;
        char *quoted = arena_printf(&c->arena, "'%.*s'", (int)len, name);
        if (!notes.data || !strstr(notes.data, quoted)) /* once per name */
            sb_printf(&notes, "%.*s: note: %s is an OpenCL C 2.0 built-in function: "
                              "build with -cl-std=CL2.0\n", (int)(hit - line), line, quoted);
    }
    if (notes.data)
        sb_printf(c->diag.log, "%s", notes.data);
    sb_free(&notes);
}

/* Writes a header into the work directory for clang's -include; 0 or an error. */
static int write_header(hls_compile *c, const char *name, const char *text)
{
    char *path = arena_printf(&c->arena, "%s/%s", c->work_dir, name);
    if (hls_write_text(path, text, 0)) {
        sb_printf(c->diag.log, "error: cannot write %s\n", path);
        return HLS_ERR_TOOL;
    }
    return HLS_OK;
}

int hls_frontend(hls_compile *c)
{
    char *src_path = arena_printf(&c->arena, "%s/%s", c->work_dir, c->source_name);
    char *bc_path = arena_printf(&c->arena, "%s/program.bc", c->work_dir);
    /* the vendors' loop pragmas as clang's loop hints (pragmas.c); diagnostics still
     * quote the source as written */
    if (hls_write_text(src_path, hls_rewrite_pragmas(c, c->req->source), 0)) {
        sb_printf(c->diag.log, "error: cannot write %s\n", src_path);
        return HLS_ERR_TOOL;
    }
    int cl30 = !strcmp(c->opts.cl_std, "CL3.0");
    const char *undef_name = !strcmp(c->source_name, "clhls-cl30.h") ? "clhls-cl30-.h"
                                                                       : "clhls-cl30.h";
    if (cl30 && write_header(c, undef_name, cl30_undef_header))
        return HLS_ERR_TOOL;
    const char *channels_name = !strcmp(c->source_name, "clhls-channels.h")
                                    ? "clhls-channels-.h" : "clhls-channels.h";
    if (c->channels_enabled && write_header(c, channels_name, channels_header))
        return HLS_ERR_TOOL;

    /* -O1 with clang's own LLVM passes off: the IR is as unoptimised as at -O0, but an
     * `inline` function that is not static (C99's inline definition) keeps its body,
     * as available_externally, which clang drops at -O0 (so that a call would be left
     * to a function nobody defines). Lifetime markers and type-based alias metadata
     * stay off, as at -O0. -cl-opt-disable would mean -O0 again: it is not passed on
     * (it changes nothing else; the passes are hls_simplify's either way). At -O1 clang
     * marks every loop "do not unroll" unless -funroll-loops says otherwise, which would
     * keep hls_simplify from unrolling small constant loops (a shift register's). */
    const char *fixed[] = {
        CLHLS_CLANG, "-x", "cl", "--target=spir64", "-emit-llvm", "-c", "-O1", "-funroll-loops",
        "-Xclang", "-disable-llvm-passes", "-Xclang", "-disable-lifetime-markers",
        "-fno-strict-aliasing", "-Xclang", "-finclude-default-header",
        "-cl-kernel-arg-info", "-g", "-gcolumn-info", "-fno-discard-value-names",
        "-ffp-contract=off",
        /* a pragma neither clang nor clhls knows (pragmas.c warns about the vendors'
         * loop pragmas it does not implement) is a warning naming it */
        "-Wunknown-pragmas",
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
    if (c->channels_enabled) {
        argv[n++] = "-include";
        argv[n++] = channels_name;
    }
    for (int i = 0; i < c->opts.nclang_args; i++)
        if (strcmp(c->opts.clang_args[i], "-cl-opt-disable"))
            argv[n++] = c->opts.clang_args[i];
    argv[n++] = "-o";
    argv[n++] = "program.bc";
    argv[n++] = c->source_name;
    argv[n] = NULL;

    /* Its messages go to the build log; it ends with this process (the tools' group). */
    size_t log_start = c->diag.log->len;
    proc clang;
    proc_opts run = {.cwd = c->work_dir, .capture = c->diag.log, .group = PROC_GROUP_TOOLS};
    if (proc_run(&clang, argv, &run) && !clang.pid)
        sb_printf(c->diag.log, "cannot run %s: %s\n", argv[0], strerror(errno));
    if (!clang.exited || clang.code == 127) {
        sb_printf(c->diag.log, "error: could not run %s\n", CLHLS_CLANG);
        return HLS_ERR_TOOL;
    }
    if (clang.code != 0) {
        if (!strncmp(c->opts.cl_std, "CL1.", 4))
            note_cl20_builtins(c, log_start);
        return HLS_ERR_COMPILE;
    }

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

/* The OpenCL C version of a linked module, from its opencl.ocl.version metadata (the
 * highest of its inputs), as "CLm.n"; and whether its kernels assume uniform
 * work-groups (clang's "uniform-work-group-size" attribute: uniform when any says
 * so, which is what a 1.x unit or -cl-uniform-work-group-size asks). */
static void linked_options(hls_compile *c)
{
    unsigned best = 0;
    unsigned n = LLVMGetNamedMetadataNumOperands(c->module, "opencl.ocl.version");
    LLVMValueRef *ops = n ? arena_alloc(&c->arena, n * sizeof *ops) : NULL;
    if (n)
        LLVMGetNamedMetadataOperands(c->module, "opencl.ocl.version", ops);
    for (unsigned i = 0; i < n; i++) {
        if (LLVMGetMDNodeNumOperands(ops[i]) != 2)
            continue;
        LLVMValueRef v[2];
        LLVMGetMDNodeOperands(ops[i], v);
        if (!v[0] || !v[1] || !LLVMIsAConstantInt(v[0]) || !LLVMIsAConstantInt(v[1]))
            continue;
        unsigned ver = (unsigned)(LLVMConstIntGetZExtValue(v[0]) * 10 +
                                  LLVMConstIntGetZExtValue(v[1]));
        if (ver > best)
            best = ver;
    }
    if (best >= 10 && best <= 30)
        c->opts.cl_std = arena_printf(&c->arena, "CL%u.%u", best / 10, best % 10);
    int uniform = 0, kernels = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv || LLVMIsDeclaration(fn))
            continue;
        kernels++;
        LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(
            fn, LLVMAttributeFunctionIndex, "uniform-work-group-size", 23);
        unsigned len = 0;
        const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
        uniform |= !v || (len == 4 && !strncmp(v, "true", 4));
    }
    c->opts.uniform_wg = uniform || !kernels || strcmp(c->opts.cl_std, "CL2.0") < 0;
}

/* The linker's own diagnostics ("symbol multiply defined") into the build log. */
static void link_diagnostic(LLVMDiagnosticInfoRef info, void *data)
{
    hls_compile *c = data;
    char *msg = LLVMGetDiagInfoDescription(info);
    sb_printf(c->diag.log, "error: %s\n", msg);
    LLVMDisposeMessage(msg);
}

int hls_link_inputs(hls_compile *c)
{
    LLVMContextSetDiagnosticHandler(c->llvm, link_diagnostic, c);
    int rc = HLS_OK;
    for (const char *const *in = c->req->inputs; *in; in++) {
        LLVMMemoryBufferRef buf;
        LLVMModuleRef m;
        char *msg = NULL;
        if (LLVMCreateMemoryBufferWithContentsOfFile(*in, &buf, &msg)) {
            sb_printf(c->diag.log, "error: cannot read %s: %s\n", *in, msg ? msg : "");
            LLVMDisposeMessage(msg);
            rc = HLS_ERR_TOOL;
            break;
        }
        int bad = LLVMParseBitcodeInContext2(c->llvm, buf, &m);
        LLVMDisposeMemoryBuffer(buf);
        if (bad) {
            sb_printf(c->diag.log, "error: input %d is not a compiled OpenCL program\n",
                      (int)(in - c->req->inputs) + 1);
            rc = HLS_ERR_COMPILE;
            break;
        }
        if (!c->module) {
            c->module = m;
            continue;
        }
        /* Two definitions of one function are an error of the linker, which says
         * which (on stderr: the log says that linking failed). */
        if (LLVMLinkModules2(c->module, m)) {
            sb_printf(c->diag.log, "error: linking input %d failed\n",
                      (int)(in - c->req->inputs) + 1);
            rc = HLS_ERR_COMPILE;
            break;
        }
    }
    LLVMContextSetDiagnosticHandler(c->llvm, NULL, NULL);
    if (rc)
        return rc;
    if (!c->module) {
        sb_printf(c->diag.log, "error: nothing to link\n");
        return HLS_ERR_COMPILE;
    }
    linked_options(c);
    return HLS_OK;
}

int hls_check_unresolved(hls_compile *c)
{
    /* What is left declared after the built-in library: intrinsics (llvm.*), built-ins
     * the hardware implements itself (mangled, checked later) and functions of the
     * program that no input defines (C names). */
    int bad = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (!LLVMIsDeclaration(fn) || !LLVMGetFirstUse(fn) || !strncmp(name, "llvm.", 5) ||
            !strncmp(name, "_Z", 2) || !strncmp(name, "__", 2))
            continue;
        sb_printf(c->diag.log, "error: undefined function '%s': no input of the link "
                               "defines it\n", name);
        bad = 1;
    }
    return bad ? HLS_ERR_COMPILE : HLS_OK;
}

int hls_write_bitcode(hls_compile *c, const char *path)
{
    if (LLVMWriteBitcodeToFile(c->module, path)) {
        sb_printf(c->diag.log, "error: cannot write %s\n", path);
        return HLS_ERR_TOOL;
    }
    return HLS_OK;
}
