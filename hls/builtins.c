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
