/* The random OpenCL C kernel generator of the differential tests (in the spirit of
 * Csmith and CLsmith): from a seed and a set of features it builds one kernel whose
 * every result is defined by the OpenCL C specification, so that any two correct
 * implementations compute the same bytes. Integer arithmetic wraps in unsigned types
 * (division, remainder and shifts go through safe helpers), float and double arithmetic
 * use only correctly rounded or exact operations and canonicalise NaNs (and the float
 * subnormals clhls flushes) after each one, private array indices are masked, barriers
 * and work-group functions only appear where the whole work-group reaches them, and
 * atomics only combine values in ways whose result does not depend on their order.
 * Each work-item hashes all its values into one word of the output buffer, which
 * the group's work-items may also use before that to pass words to each other across
 * barriers with CLK_GLOBAL_MEM_FENCE.
 *
 * The kernel is kept as a tree of statements; a statement can be removed (with its
 * children) and the text printed again, which is what the reducer does. */
#ifndef CLHLS_FUZZ_GEN_H
#define CLHLS_FUZZ_GEN_H

#include <stddef.h>
#include <stdint.h>

/* The switchable features (a bit mask). */
enum {
    FZ_FLOAT = 1u << 0,      /* float scalars: + - * / sqrt, exact built-ins */
    FZ_BRANCH = 1u << 1,     /* if / else, ?: */
    FZ_LOOP = 1u << 2,       /* for, while and do loops with bounded trip counts */
    FZ_SWITCH = 1u << 3,     /* switch with fall-through */
    FZ_BREAK = 1u << 4,      /* break and continue in loops */
    FZ_DIV = 1u << 5,        /* safe integer division and remainder */
    FZ_BUILTIN = 1u << 6,    /* integer built-ins: min, max, rotate, popcount, ... */
    FZ_CONVERT = 1u << 7,    /* convert_<int>_sat_<rounding>(float), convert_float_<rounding> */
    FZ_ARRAY = 1u << 8,      /* private arrays with masked run-time indices */
    FZ_STRUCT = 1u << 9,     /* a private struct variable (with an array member) */
    FZ_VECTOR = 1u << 10,    /* uint4 / float4 values, swizzles, vload4 */
    FZ_LONG = 1u << 11,      /* long and ulong values */
    FZ_NARROW = 1u << 12,    /* ushort and uchar values */
    FZ_ATOMIC = 1u << 13,    /* global atomics on the result buffer */
    FZ_LOCAL = 1u << 14,     /* __local arrays exchanged across barriers */
    FZ_LOCAL_ATOMIC = 1u << 15, /* __local atomics between barriers */
    FZ_COLLECTIVE = 1u << 16,   /* work_group_reduce/scan/broadcast/any/all (CL2.0) */
    FZ_MULTIDIM = 1u << 17,  /* 2-D and 3-D NDRanges */
    FZ_FMA = 1u << 18,       /* fma (correctly rounded) */
    FZ_REQD_WG = 1u << 19,   /* __attribute__((reqd_work_group_size)) */
    FZ_STRUCT_ARRAY = 1u << 20, /* an array member in the struct, indexed at run time */
    FZ_ARRAY_PTR = 1u << 21, /* c ? a0[i] : a1[j], *(c ? &a0[i] : &a1[j]), a pointer to either */
    FZ_DOUBLE = 1u << 22,    /* double values: + - * / sqrt fma, exact built-ins, conversions */
    FZ_GLOBAL_EXCHANGE = 1u << 23, /* words of `out` stored, then a global barrier, then
                                    * loaded by other work-items of the group */
    FZ_ALL = (1u << 24) - 1,
};

/* Sizes every kernel of the fuzzer shares with its host. */
enum {
    FZ_INPUT_WORDS = 1024,   /* `in`: read-only uint words */
    FZ_RESULT_WORDS = 16,    /* `res`: words updated by global atomics */
    FZ_GROUP_WORDS = 32,     /* then a word per work-group (kernels have at most 27):
                              * one work-item stores it, the group loads it after a
                              * barrier (FZ_GLOBAL_EXCHANGE) */
    FZ_RES_WORDS = FZ_RESULT_WORDS + FZ_GROUP_WORDS, /* `res` in all */
};

/* The NDRange a kernel runs with. */
typedef struct fz_shape {
    unsigned dims;           /* 1, 2 or 3 */
    size_t global[3];        /* global size per dimension (1 beyond dims) */
    size_t local[3];         /* local size per dimension, divides global */
} fz_shape;

typedef struct fz_kernel fz_kernel;

/* Generates the kernel of a seed with the given features; never fails (aborts when
 * out of memory). Its name is k_<seed>. */
fz_kernel *fz_generate(uint64_t seed, unsigned features);
void fz_kernel_free(fz_kernel *k);

const char *fz_kernel_name(const fz_kernel *k);
uint64_t fz_kernel_seed(const fz_kernel *k);
const fz_shape *fz_kernel_shape(const fz_kernel *k);
/* Whether the kernel has an array member in its struct (FZ_STRUCT_ARRAY). */
int fz_kernel_has_struct_array(const fz_kernel *k);
/* Whether a barrier (a __local exchange, __local atomics or a work-group function) is
 * printed inside a group-uniform branch or loop: PoCL 3.1 computes some such kernels
 * wrongly (tests/fuzz/repro/README.md), so their mismatches need a check by hand. */
int fz_kernel_has_branch_barrier(const fz_kernel *k);
/* Whether the kernel needs OpenCL C 2.0 (work-group functions). */
int fz_kernel_needs_cl20(const fz_kernel *k);

/* The statements of the tree, numbered in pre-order 0 .. count-1. */
int fz_stmt_count(const fz_kernel *k);
int fz_stmt_removable(const fz_kernel *k, int stmt);
/* Whether the statement is printed: neither it nor an ancestor is removed. */
int fz_stmt_present(const fz_kernel *k, int stmt);
void fz_stmt_set_removed(fz_kernel *k, int stmt, int removed);
int fz_stmt_removed(const fz_kernel *k, int stmt);

/* The kernel's text (its struct type and the kernel function), without the prelude;
 * malloc'd. */
char *fz_kernel_text(const fz_kernel *k);
/* The helpers every program of the fuzzer starts with (static text). */
const char *fz_prelude(void);

/* The initial contents of the buffers. */
uint32_t fz_input_word(uint32_t i);
uint32_t fz_result_init_word(uint32_t i);

/* Feature names: parses a comma-separated list into a mask (0 or -1 with a message
 * naming the unknown feature in err), and lists every name. */
int fz_parse_features(const char *list, unsigned *mask, char *err, size_t errlen);
const char *fz_feature_name(unsigned bit);

#endif
