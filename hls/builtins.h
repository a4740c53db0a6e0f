/* What a call may be once the built-in library is linked and inlined: a work-item
 * function (by its mangled spir64 name) or one of the LLVM intrinsics the hardware
 * implements. One table each: the check pass accepts exactly these calls and the
 * lowering pass turns them into IR. */
#ifndef CLHLS_HLS_BUILTINS_H
#define CLHLS_HLS_BUILTINS_H

#include "ir.h"

typedef struct hls_workitem_fn {
    const char *mangled;  /* e.g. "_Z13get_global_idj" */
    const char *name;     /* e.g. "get_global_id" */
    hls_opcode opc;       /* HOP_TOKEN or HOP_NDRANGE */
    int field;            /* hls_token_field or hls_ndrange_reg */
    uint64_t out_of_range;/* value for a dimension >= 3 (0 for ids, 1 for sizes) */
} hls_workitem_fn;

/* The work-item function called fn_name, or NULL. */
const hls_workitem_fn *hls_find_workitem_fn(const char *fn_name);

/* Synchronisation functions: a barrier (the work-item waits for its work-group), or
 * a fence alone (a no-op in hardware: a work-item's own accesses are kept in order
 * by the memory-order pass, and other work-items see them only after a barrier). */
typedef enum { HLS_SYNC_BARRIER, HLS_SYNC_FENCE } hls_sync_kind;

/* The synchronisation function called fn_name; 0 when it is one. */
int hls_find_sync_fn(const char *fn_name, hls_sync_kind *out);

/* A work-group function by its mangled name: *imm gets HLS_COLL(kind, func, type)
 * and *ids the number of local-id arguments after the value (broadcast: 1 to 3);
 * 0 when it is one. */
int hls_find_collective(const char *fn_name, uint64_t *imm, int *ids);

/* An OpenCL 1.x atomic function (atomic_add, atom_cmpxchg, ...) by its mangled name:
 * *op gets its hls_atomic_op, *constant the operand it implies (atomic_inc and
 * atomic_dec: 1, with *op add or sub; otherwise -1); 0 when it is one. */
int hls_find_atomic(const char *fn_name, hls_atomic_op *op, int *constant);

/* The LLVM intrinsics the hardware implements. */
typedef enum {
    HLS_INTR_NONE,      /* no hardware: debug information, lifetime markers, noalias */
    HLS_INTR_FMULADD,   /* a * b + c, contraction allowed: a multiply and an add */
    HLS_INTR_FMA,       /* a * b + c rounded once */
    HLS_INTR_SQRT,      /* correctly rounded square root */
    HLS_INTR_FABS,      /* clear the sign bit */
    HLS_INTR_COPYSIGN,  /* the first operand with the second's sign bit */
    HLS_INTR_SMIN, HLS_INTR_SMAX, HLS_INTR_UMIN, HLS_INTR_UMAX, /* compare and select */
    HLS_INTR_ABS,       /* integer absolute value */
    HLS_INTR_UADD_SAT, HLS_INTR_USUB_SAT, HLS_INTR_SADD_SAT, HLS_INTR_SSUB_SAT,
    HLS_INTR_FSHL, HLS_INTR_FSHR, /* funnel shifts (rotates) */
} hls_intrinsic;

/* The intrinsic an LLVM function name stands for; 0 when the hardware has it. */
int hls_find_intrinsic(const char *fn_name, hls_intrinsic *out);

/* Readable name of a mangled builtin ("_Z3madfff" -> "mad"); into buf. */
const char *hls_demangle(const char *mangled, char *buf, size_t size);

#endif
