/* The OpenCL builtins the hardware implements, by their mangled (spir64) names. The
 * check pass accepts calls to these; the lowering pass turns them into IR. */
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

/* Readable name of a mangled builtin ("_Z3madfff" -> "mad"); into buf. */
const char *hls_demangle(const char *mangled, char *buf, size_t size);

#endif
