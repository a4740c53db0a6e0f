/* The compiler's passes and the state they share. hls.c calls them in order; each
 * lives in its own file. */
#ifndef CLHLS_HLS_PASSES_H
#define CLHLS_HLS_PASSES_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "hls.h"
#include "ir.h"
#include "printf_spec.h"
#include "util.h"

/* Build options after parsing. */
typedef struct hls_options {
    const char **clang_args;  /* options passed through to clang */
    int nclang_args;          /* number of them */
    const char *cl_std;       /* "CL1.2" unless -cl-std= says otherwise */
    int uniform_wg;           /* -cl-uniform-work-group-size, or OpenCL C < 2.0 */
    int rtl_operators;        /* -clhls-rtl-operators: simulate the operators' and pipelines' RTL */
    int reassociate;          /* -cl-fast-relaxed-math or -cl-unsafe-math-optimizations: float
                                 sums may be reassociated (pipeline.c's partial sums) */
    const char **replicate;   /* -clhls-compute-units=KERNEL:N, each "KERNEL:N" as given */
    int nreplicate;           /* number of them */
} hls_options;

/* printf (printf.c): the device buffer the records go to (its size and record layout:
 * device_abi.h), and what the metadata says about each kernel that calls printf
 * (docs/architecture.md, "printf"). */
#define HLS_PRINTF_BUFFER_ARG "__clhls_printf_buffer" /* the hidden parameter's name */

/* One printf call site: its format and the layout of its records. */
typedef struct hls_printf_format {
    const char *format;       /* the format string */
    unsigned bytes;           /* bytes of one record (a multiple of 8) */
    int nargs;                /* values recorded (one per conversion or '*') */
    hls_printf_arg *args;     /* their layout */
} hls_printf_format;

/* A kernel that calls printf. */
typedef struct hls_printf_kernel {
    struct hls_printf_kernel *next; /* next such kernel */
    const char *name;         /* kernel name */
    int nformats;             /* call sites; format id i + 1 is formats[i] */
    hls_printf_format *formats; /* their formats */
    int nstrings;             /* constant strings given to %s; id i is strings[i] */
    const char **strings;     /* their text */
} hls_printf_kernel;

/* Loop pragmas the front end rewrote for clang (pragmas.c). */
typedef enum {
    HLS_PRAGMA_IVDEP,              /* #pragma ivdep */
    HLS_PRAGMA_II,                 /* #pragma ii N */
    HLS_PRAGMA_DISABLE_PIPELINING, /* #pragma disable_loop_pipelining */
    HLS_PRAGMA_MAX_CONCURRENCY,    /* #pragma max_concurrency N */
    HLS_PRAGMA_MAX_INTERLEAVING,   /* #pragma max_interleaving N */
    HLS_PRAGMA_LOOP_COALESCE,      /* #pragma loop_coalesce [N] */
} hls_pragma_kind;

/* One such pragma of the source. */
typedef struct hls_pragma {
    hls_pragma_kind kind;     /* which */
    int value;                /* HLS_PRAGMA_II, _MAX_CONCURRENCY, _MAX_INTERLEAVING: N;
                                 _IVDEP: safelen, _LOOP_COALESCE: levels (0: none given) */
    hls_loc loc;              /* its name in the source */
    const char *text;         /* the line as written ("#pragma ii 2") */
} hls_pragma;

/* Intel's attributes that clang does not know: the front end blanks them and remembers
 * them here (pragmas.c). */
typedef enum {
    HLS_ATTR_BLOCKING,             /* a pipe argument's __attribute__((blocking)) */
    HLS_ATTR_DEPTH,                /* a pipe argument's __attribute__((depth(N))) */
    HLS_ATTR_AUTORUN,              /* a kernel's __attribute__((autorun)) */
    HLS_ATTR_MAX_GLOBAL_WORK_DIM,  /* a kernel's __attribute__((max_global_work_dim(N))) */
    HLS_ATTR_NUM_COMPUTE_UNITS,    /* a kernel's __attribute__((num_compute_units(N))) */
    HLS_ATTR_NUM_SIMD_WORK_ITEMS,  /* a kernel's __attribute__((num_simd_work_items(N))) */
} hls_attr_kind;

typedef struct hls_vendor_attr {
    hls_attr_kind kind;       /* which */
    const char *kernel;       /* the kernel it is of, or whose parameter list holds it */
    const char *param;        /* the pipe argument's name; NULL for a kernel's */
    int value;                /* N (-1: not a number), 0 without one */
    hls_loc loc;              /* the attribute's name in the source */
} hls_vendor_attr;

/* One compilation. */
typedef struct hls_compile {
    arena arena;              /* everything below lives here */
    hls_diag diag;            /* build log and source for quoting */
    const hls_build_request *req; /* what was asked */
    const char *work_dir;     /* scratch directory of this build */
    const char *source_name;  /* file name used in diagnostics */
    hls_options opts;         /* parsed options */
    LLVMContextRef llvm;      /* LLVM context */
    LLVMModuleRef module;     /* the program's LLVM module */
    hls_program *program;     /* hardware IR */
    hls_printf_kernel *printf_kernels; /* kernels that call printf (printf.c) */
    char model_note[512];     /* the model step's line for this build's log alone, or "" */
    int simplify_pending;     /* the last rewrite of the LLVM IR wants hls_simplify_again */
    int channels_enabled;     /* the source enables cl_intel_channels (pragmas.c): the
                                 front end declares channels (frontend.c) */
    hls_channel *channels;    /* the program's channels (channels.c) */
    int nchannels;            /* number of them */
    hls_pragma *pragmas;      /* the loop pragmas the front end rewrote (pragmas.c) */
    int npragmas, cappragmas; /* used / allocated */
    hls_vendor_attr *vendor_attrs; /* Intel's attributes clang does not know (pragmas.c) */
    int nvendor_attrs;        /* number of them */
} hls_compile;

int hls_parse_options(hls_compile *c);       /* options.c */
int hls_frontend(hls_compile *c);            /* frontend.c: source -> LLVM module */
/* pragmas.c: the source with the vendors' loop pragmas as clang's loop hints (the same
 * lines), the others warned about; source itself when nothing changes. */
const char *hls_rewrite_pragmas(hls_compile *c, const char *source);
/* pragmas.c: the attribute of `kind` of kernel's pipe argument param (param NULL: of the
 * kernel), the last one written; NULL when it has none. */
const hls_vendor_attr *hls_vendor_attribute(const hls_compile *c, hls_attr_kind kind,
                                            const char *kernel, const char *param);
/* pragmas.c: the pragma of `kind` of the loop whose statement starts at `start` (the
 * nearest such pragma above it), NULL when the table has none (linked bitcode). */
const hls_pragma *hls_loop_pragma(hls_compile *c, hls_pragma_kind kind, hls_loc start);
int hls_link_inputs(hls_compile *c);         /* frontend.c: linked bitcode -> LLVM module */
int hls_check_unresolved(hls_compile *c);    /* frontend.c: functions no input defines */
int hls_write_bitcode(hls_compile *c, const char *path); /* frontend.c */
int hls_link_library(hls_compile *c);        /* prepare.c: the built-in library */
int hls_inline(hls_compile *c);              /* prepare.c: inline every call */
/* The built-in library's bitcode (build tree first, then the installed one). */
const char *hls_library_path(void);
int hls_check_recursion(hls_compile *c);     /* check.c: calls left after inlining */
int hls_printf(hls_compile *c);              /* printf.c: printf calls -> buffer records */
int hls_channels(hls_compile *c);            /* channels.c: channel calls -> channel ops */
/* The calls channels.c leaves for the lowering. */
typedef enum {
    HLS_CHANNEL_NONE,        /* not one */
    HLS_CHANNEL_READ,        /* clhls.channel.read.iN(channel): the next element */
    HLS_CHANNEL_READ_NB,     /* clhls.channel.read_nb.iN(channel): an element, if any */
    HLS_CHANNEL_WRITE,       /* clhls.channel.write.iN(channel, value) */
    HLS_CHANNEL_WRITE_NB,    /* clhls.channel.write_nb.iN(channel, value): i1, written */
    HLS_CHANNEL_READ_VALID,  /* clhls.channel.read_valid(channel): i8, the read_nb just
                                before it got an element */
    HLS_CHANNEL_COUNT,       /* clhls.channel.count(channel): i32, its entries now */
    HLS_CHANNEL_DEPTH,       /* clhls.channel.depth(channel): i32, its FIFO's entries */
} hls_channel_fn;
hls_channel_fn hls_find_channel_fn(const char *name);
/* 1 when name is a function channels.c rewrites: the front end's channel functions,
 * clang's pipe functions. */
int hls_is_channel_call(const char *name);
int hls_autorun(hls_compile *c);             /* autorun.c: autorun kernels loop for ever */
int hls_simd(hls_compile *c);                /* simd.c: SIMD work-items, lanes of a body */
/* The metadata simd.c puts on a lane's memory accesses: !{i32 lane} (lower.c: hls_op.lane). */
#define HLS_LANE_MD "clhls.lane"
/* The call autorun.c leaves for the lowering: i1, 1 (the autorun kernel runs again). */
#define HLS_AUTORUN_AGAIN "clhls.autorun.again"
/* The printf description of kernel name, or NULL when it does not call printf. */
const hls_printf_kernel *hls_printf_find(const hls_compile *c, const char *name);
int hls_simplify(hls_compile *c);            /* prepare.c: LLVM optimisation */
int hls_generic_pointers(hls_compile *c);    /* addrspace.c: generic pointers resolved */
/* addrspace.c: built-in calls through generic pointers -> named-space overloads */
int hls_generic_builtin_calls(hls_compile *c, LLVMModuleRef library);
int hls_private_arrays(hls_compile *c);      /* privarrays.c: arrays indexed at run time */
/* llvmutil.c: cleanup after a rewrite that set simplify_pending (else nothing) */
int hls_simplify_again(hls_compile *c);
int hls_coalesce(hls_compile *c);            /* prepare.c: adjacent accesses merged */
int hls_divisions(hls_compile *c);           /* divide.c: pairs, constant divisors */
int hls_check(hls_compile *c);               /* check.c: reject what hardware cannot do */
int hls_lower(hls_compile *c);               /* lower.c: LLVM IR -> hardware IR */
int hls_replicate(hls_compile *c);           /* replicate.c: compute units per kernel */
int hls_cfg(hls_compile *c);                 /* cfg.c: dominators, natural loops */
int hls_widen(hls_compile *c);               /* widen.c: neighbouring accesses: one */
int hls_ifconvert(hls_compile *c);           /* ifconvert.c: CFG -> region tree */
int hls_common_values(hls_compile *c);       /* common_values.c: a region's repeats once */
/* liveness.c: the values entering and leaving each region of k (live_in, live_out) */
void hls_liveness(hls_compile *c, hls_kernel *k);
int hls_memorder(hls_compile *c);           /* memorder.c: a work-item's accesses in order */
int hls_local_banks(hls_compile *c);         /* localbanks.c: static bank wiring or crossbar */
int hls_memory_nodes(hls_compile *c);        /* memnodes.c: accesses -> elastic nodes */
int hls_pipeline(hls_compile *c);            /* pipeline.c: iterations of one work-item overlap */
/* pipeline.c: what sets loop region r's II, for the report and the build's notes ("" when
 * nothing keeps it above 1). */
const char *hls_loop_ii_reason(hls_compile *c, const hls_kernel *k, const hls_region *r);
int hls_live_bits(hls_compile *c);          /* narrow.c: the bits readers use */
int hls_schedule(hls_compile *c);            /* schedule.c: stages, loop credits */
/* memorder.c: 1 when accesses a and b of one work-item may touch the same bytes (in
 * one pass through their blocks). */
int hls_may_alias(const hls_kernel *k, const hls_op *a, const hls_op *b);
/* memorder.c: 1 when accesses a and b of loop `loop` (innermost) may touch the same bytes
 * in two different iterations; step[id] is the step of an induction variable of the loop,
 * 0 for other values (indexes are assumed not to wrap, as C's signed ones cannot). */
int hls_may_alias_across(const hls_kernel *k, int loop, const hls_op *a, const hls_op *b,
                         const int64_t *step);
int hls_emit_verilog(hls_compile *c, const char *dir, strbuf *files); /* emit_verilog.c */
int hls_emit_metadata(hls_compile *c, const char *path);   /* emit_metadata.c */
int hls_emit_report(hls_compile *c, const char *entry);    /* emit_report.c: report.json */

/* An address (or index) as constant + sum of coef * atom, where the atoms are ops the
 * analysis does not look into (linform.c). */
#define HLS_FORM_TERMS 8
typedef struct hls_form {
    int nterms;                   /* terms used */
    int atom[HLS_FORM_TERMS];     /* op id of each term's value */
    int64_t coef[HLS_FORM_TERMS]; /* its coefficient */
    int64_t constant;             /* the constant part */
    int unknown;                  /* 1 when the form overflowed (too many terms) */
} hls_form;
/* The form of op id, looking through extensions and truncations (indexes stay in range). */
void hls_form_of(const hls_kernel *k, int id, hls_form *f);
/* The form of op id through 64-bit arithmetic only: exact modulo 2^64. */
void hls_exact_form_of(const hls_kernel *k, int id, hls_form *f);
/* 1 when b - a is a constant (*diff); 0 when it depends on an atom or is unknown. */
int hls_form_difference(const hls_form *a, const hls_form *b, int64_t *diff);
/* f gets coef more of atom (unknown when it overflows or has no room for a term). */
void hls_form_add_term(hls_form *f, int atom, int64_t coef);
/* f += scale * g */
void hls_form_add(hls_form *f, const hls_form *g, int64_t scale);

/* llvmutil.c: a map from LLVM values (instructions, arguments, basic blocks as values)
 * to numbers, open addressing on the pointer, growing at half load. */
typedef struct hls_value_map {
    LLVMValueRef *keys; /* LLVM values */
    int *ids;           /* their numbers */
    size_t cap;         /* slots, a power of two */
    size_t used;        /* occupied slots */
} hls_value_map;
void hls_value_map_init(arena *a, hls_value_map *m, size_t cap); /* empty, cap a power of 2 */
void hls_value_map_set(arena *a, hls_value_map *m, LLVMValueRef v, int id);
int hls_value_map_get(const hls_value_map *m, LLVMValueRef v); /* its number, or -1 */

/* llvmutil.c: the operands of function fn's metadata `kind` (reqd_work_group_size,
 * vec_type_hint, ...): the first `max` into ops; returns how many it has (0 without). */
unsigned hls_llvm_function_md_operands(hls_compile *c, LLVMValueRef fn, const char *kind,
                                       LLVMValueRef *ops, unsigned max);
/* Operand i of function fn's metadata `kind` (reqd_work_group_size, kernel_arg_name,
 * ...) as text: a string, or an integer in decimal; "" when absent. */
const char *hls_llvm_function_md(hls_compile *c, LLVMValueRef fn, const char *kind, unsigned i);
/* The name of the function a call instruction calls directly; "" for anything else. */
const char *hls_llvm_callee_name(LLVMValueRef inst);

/* llvmutil.c: runs a list of LLVM passes (the new pass manager's syntax) on the module,
 * vectorisers off; HLS_OK, or HLS_ERR_INTERNAL with LLVM's message in the log. */
int hls_run_llvm_passes(hls_compile *c, const char *pipeline);
/* The source location of an LLVM instruction (from its debug location). */
hls_loc hls_llvm_loc(hls_compile *c, LLVMValueRef inst);
/* Where to report a diagnostic about an instruction: its own location, else that of the
 * nearest instruction using its value (LLVM's selects and phis that merge several source
 * expressions often have none), else its function's. */
hls_loc hls_llvm_diag_loc(hls_compile *c, LLVMValueRef inst);
/* Where a function is defined: its line, and the column of its name. */
hls_loc hls_llvm_function_loc(hls_compile *c, LLVMValueRef fn);
/* 1 when the call (a memset with a constant byte, or a copy of a constant initialiser)
 * sets all `size` bytes of `array`: privarrays.c makes it a store of a constant vector,
 * so the copy lowering of prepare.c leaves it. */
int hls_llvm_whole_array_init(LLVMValueRef call, LLVMValueRef array, uint64_t size);
/* The struct type of a kernel parameter passed by value (byval), or NULL. */
LLVMTypeRef hls_llvm_byval_type(LLVMValueRef param);
/* The pointer ptr is made from by constant getelementptr offsets (and address-space
 * casts), with *offset set to their sum in bytes; NULL when an offset is not constant. */
LLVMValueRef hls_llvm_constant_offset(LLVMTargetDataRef td, LLVMValueRef ptr, uint64_t *offset);
/* When ptr is a by-value parameter plus constant getelementptr offsets, returns the
 * parameter and sets *offset to the byte offset; otherwise NULL. */
LLVMValueRef hls_llvm_byval_field(LLVMTargetDataRef td, LLVMValueRef ptr, uint64_t *offset);

#endif
