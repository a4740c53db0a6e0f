/* Tables of the OpenCL work-item functions and of the LLVM intrinsics the hardware
 * implements, and a minimal demangler for messages. */
#include "builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const hls_workitem_fn workitem_fns[] = {
    {"_Z13get_global_idj", "get_global_id", HOP_TOKEN, HLS_TOK_GLOBAL_ID, 0},
    {"_Z12get_local_idj", "get_local_id", HOP_TOKEN, HLS_TOK_LOCAL_ID, 0},
    {"_Z12get_group_idj", "get_group_id", HOP_TOKEN, HLS_TOK_GROUP_ID, 0},
    {"_Z14get_local_sizej", "get_local_size", HOP_TOKEN, HLS_TOK_GROUP_SIZE, 1},
    {"_Z19get_local_linear_idv", "get_local_linear_id", HOP_TOKEN, HLS_TOK_LOCAL_LINEAR_ID, 0},
    {"_Z23get_enqueued_local_sizej", "get_enqueued_local_size", HOP_NDRANGE, HLS_ND_LOCAL_SIZE, 1},
    {"_Z15get_global_sizej", "get_global_size", HOP_NDRANGE, HLS_ND_GLOBAL_SIZE, 1},
    {"_Z14get_num_groupsj", "get_num_groups", HOP_NDRANGE, HLS_ND_NUM_GROUPS, 1},
    {"_Z17get_global_offsetj", "get_global_offset", HOP_NDRANGE, HLS_ND_GLOBAL_OFFSET, 0},
    {"_Z12get_work_dimv", "get_work_dim", HOP_NDRANGE, HLS_ND_WORK_DIM, 0},
};

const hls_workitem_fn *hls_find_workitem_fn(const char *fn_name)
{
    for (size_t i = 0; i < sizeof workitem_fns / sizeof *workitem_fns; i++)
        if (!strcmp(workitem_fns[i].mangled, fn_name))
            return &workitem_fns[i];
    return NULL;
}

static const struct {
    const char *mangled;
    hls_sync_kind kind;
} sync_fns[] = {
    {"_Z7barrierj", HLS_SYNC_BARRIER},
    {"_Z18work_group_barrierj", HLS_SYNC_BARRIER},
    {"_Z18work_group_barrierj12memory_scope", HLS_SYNC_BARRIER},
    {"_Z9mem_fencej", HLS_SYNC_FENCE},
    {"_Z14read_mem_fencej", HLS_SYNC_FENCE},
    {"_Z15write_mem_fencej", HLS_SYNC_FENCE},
};

int hls_find_sync_fn(const char *fn_name, hls_sync_kind *out)
{
    for (size_t i = 0; i < sizeof sync_fns / sizeof *sync_fns; i++)
        if (!strcmp(sync_fns[i].mangled, fn_name)) {
            *out = sync_fns[i].kind;
            return 0;
        }
    return -1;
}

static const struct {
    const char *name;
    hls_atomic_op op;
    int constant;
} atomics[] = {
    {"add", HLS_ATOMIC_ADD, -1}, {"sub", HLS_ATOMIC_SUB, -1}, {"xchg", HLS_ATOMIC_XCHG, -1},
    {"inc", HLS_ATOMIC_ADD, 1}, {"dec", HLS_ATOMIC_SUB, 1},
    {"cmpxchg", HLS_ATOMIC_CMPXCHG, -1}, {"min", HLS_ATOMIC_MIN, -1},
    {"max", HLS_ATOMIC_MAX, -1}, {"and", HLS_ATOMIC_AND, -1}, {"or", HLS_ATOMIC_OR, -1},
    {"xor", HLS_ATOMIC_XOR, -1},
};

int hls_find_atomic(const char *fn_name, hls_atomic_op *op, int *constant)
{
    /* _Z <length> atomic_<op> | atom_<op>, then "PU3AS<n>V" and the element type */
    if (strncmp(fn_name, "_Z", 2))
        return -1;
    char *end;
    unsigned long len = strtoul(fn_name + 2, &end, 10);
    const char *name = end, *params = end + len;
    size_t prefix = !strncmp(name, "atomic_", 7) ? 7 : !strncmp(name, "atom_", 5) ? 5 : 0;
    if (!prefix || strlen(name) < len || strncmp(params, "PU3AS", 5) || params[6] != 'V')
        return -1;
    char type = params[7];
    for (size_t i = 0; i < sizeof atomics / sizeof *atomics; i++) {
        if (strlen(atomics[i].name) != len - prefix ||
            strncmp(name + prefix, atomics[i].name, len - prefix))
            continue;
        *op = atomics[i].op;
        *constant = atomics[i].constant;
        if (type == 'j' || type == 'm') { /* unsigned min and max */
            if (*op == HLS_ATOMIC_MIN)
                *op = HLS_ATOMIC_UMIN;
            else if (*op == HLS_ATOMIC_MAX)
                *op = HLS_ATOMIC_UMAX;
        }
        /* int, uint, long, ulong; float only for atomic_xchg */
        return type == 'i' || type == 'j' || type == 'l' || type == 'm' ||
                       (type == 'f' && *op == HLS_ATOMIC_XCHG)
                   ? 0
                   : -1;
    }
    return -1;
}

static const struct {
    const char *name;
    hls_coll_kind kind;
    hls_coll_func func;
} collectives[] = {
    {"work_group_broadcast", HLS_COLL_BROADCAST, HLS_COLL_ADD},
    {"work_group_any", HLS_COLL_REDUCE, HLS_COLL_ANY},
    {"work_group_all", HLS_COLL_REDUCE, HLS_COLL_ALL},
    {"work_group_reduce_add", HLS_COLL_REDUCE, HLS_COLL_ADD},
    {"work_group_reduce_min", HLS_COLL_REDUCE, HLS_COLL_MIN},
    {"work_group_reduce_max", HLS_COLL_REDUCE, HLS_COLL_MAX},
    {"work_group_scan_inclusive_add", HLS_COLL_SCAN_INCLUSIVE, HLS_COLL_ADD},
    {"work_group_scan_inclusive_min", HLS_COLL_SCAN_INCLUSIVE, HLS_COLL_MIN},
    {"work_group_scan_inclusive_max", HLS_COLL_SCAN_INCLUSIVE, HLS_COLL_MAX},
    {"work_group_scan_exclusive_add", HLS_COLL_SCAN_EXCLUSIVE, HLS_COLL_ADD},
    {"work_group_scan_exclusive_min", HLS_COLL_SCAN_EXCLUSIVE, HLS_COLL_MIN},
    {"work_group_scan_exclusive_max", HLS_COLL_SCAN_EXCLUSIVE, HLS_COLL_MAX},
};

int hls_find_collective(const char *fn_name, uint64_t *imm, int *ids)
{
    /* _Z <length> <name> <parameter types>: the value's type, then size_t ids */
    if (strncmp(fn_name, "_Z", 2))
        return -1;
    char *end;
    unsigned long len = strtoul(fn_name + 2, &end, 10);
    for (size_t i = 0; i < sizeof collectives / sizeof *collectives; i++) {
        const char *name = collectives[i].name;
        if (strlen(name) != len || strncmp(end, name, len))
            continue;
        const char *params = end + len;
        hls_coll_type type;
        switch (params[0]) {
        case 'i': case 'l': type = HLS_COLL_SIGNED; break;
        case 'j': case 'm': type = HLS_COLL_UNSIGNED; break;
        case 'f': case 'd': type = HLS_COLL_FLOAT; break;
        default: return -1;
        }
        *ids = (int)strlen(params + 1);
        if (strspn(params + 1, "m") != (size_t)*ids ||
            (collectives[i].kind == HLS_COLL_BROADCAST ? *ids < 1 || *ids > 3 : *ids != 0))
            return -1;
        *imm = HLS_COLL(collectives[i].kind, collectives[i].func, type);
        return 0;
    }
    return -1;
}

/* By name prefix: the suffix names the type (".f32", ".i16", ...); the types the
 * hardware holds are the check pass's business. */
static const struct {
    const char *prefix;
    hls_intrinsic kind;
} intrinsics[] = {
    {"llvm.dbg.", HLS_INTR_NONE}, {"llvm.lifetime.", HLS_INTR_NONE},
    {"llvm.experimental.noalias", HLS_INTR_NONE},
    {"llvm.fmuladd.f", HLS_INTR_FMULADD}, {"llvm.fma.f", HLS_INTR_FMA},
    {"llvm.sqrt.f", HLS_INTR_SQRT}, {"llvm.fabs.f", HLS_INTR_FABS},
    {"llvm.copysign.f", HLS_INTR_COPYSIGN},
    {"llvm.smin.i", HLS_INTR_SMIN}, {"llvm.smax.i", HLS_INTR_SMAX},
    {"llvm.umin.i", HLS_INTR_UMIN}, {"llvm.umax.i", HLS_INTR_UMAX},
    {"llvm.abs.i", HLS_INTR_ABS},
    {"llvm.uadd.sat.i", HLS_INTR_UADD_SAT}, {"llvm.usub.sat.i", HLS_INTR_USUB_SAT},
    {"llvm.sadd.sat.i", HLS_INTR_SADD_SAT}, {"llvm.ssub.sat.i", HLS_INTR_SSUB_SAT},
    {"llvm.fshl.i", HLS_INTR_FSHL}, {"llvm.fshr.i", HLS_INTR_FSHR},
};

int hls_find_intrinsic(const char *fn_name, hls_intrinsic *out)
{
    for (size_t i = 0; i < sizeof intrinsics / sizeof *intrinsics; i++)
        if (!strncmp(fn_name, intrinsics[i].prefix, strlen(intrinsics[i].prefix))) {
            *out = intrinsics[i].kind;
            return 0;
        }
    return -1;
}

const char *hls_demangle(const char *mangled, char *buf, size_t size)
{
    if (strncmp(mangled, "_Z", 2)) {
        snprintf(buf, size, "%s", mangled);
        return buf;
    }
    char *end;
    long len = strtol(mangled + 2, &end, 10);
    if (len <= 0 || (size_t)len > strlen(end)) {
        snprintf(buf, size, "%s", mangled);
        return buf;
    }
    snprintf(buf, size, "%.*s", (int)len, end);
    return buf;
}
